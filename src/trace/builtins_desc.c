/* builtins_desc.c — tensor descriptors (Triton's tl.tensor_descriptor) given as kernel
 * arguments: their attributes, and desc.load / desc.store of one block, which become an
 * ordinary masked load or store of the block's pointers (out-of-bounds elements read as zero
 * and are not written), so both backends run them as any other load. */
#include "trace/sem.h"

#include <stdio.h>
#include <string.h>

static Val int_tuple(Trace *t, int n, const int64_t *v) {
    CVal c = {0};
    c.kind = CV_TUPLE;
    c.v.tup.n = n;
    c.v.tup.items = arena_alloc(t->arena, sizeof(CVal) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) c.v.tup.items[i] = cv_int(v[i]);
    return val_const(c);
}

Val sem_desc_attr(Trace *t, Val d, const char *name, SrcLoc loc) {
    const TDesc *ds = d.desc;
    int64_t b[TC_MAX_RANK];
    for (int i = 0; i < ds->rank; i++) b[i] = ds->block[i];
    if (!strcmp(name, "block_shape")) return int_tuple(t, ds->rank, b);
    if (ds->dyn && (!strcmp(name, "shape") || !strcmp(name, "strides")))
        return sem_tuple(t, ds->dyn + (name[1] == 'h' ? 0 : ds->rank), ds->rank);
    if (!strcmp(name, "shape")) return int_tuple(t, ds->rank, ds->shape);
    if (!strcmp(name, "strides")) return int_tuple(t, ds->rank, ds->strides);
    if (!strcmp(name, "dtype")) return val_const(sem_cv_dtype(type_scalar(d.type.elem)));
    if (!strcmp(name, "load") || !strcmp(name, "store")) return val_void();
    FAIL("AttributeError: 'tensor_descriptor' object has no attribute '%s'", name);
}

/* The pointers of a block of `rank` dims at base + sum_i (offs[i] + arange(block[i])) *
 * strides[i] and, over the dims whose bit is set in `check`, the mask of the elements inside
 * [0, shape[i]) (V_VOID when check is 0). offs: integer scalar tensors; shape, strides:
 * constexpr ints or integer scalar tensors. Indices are 64-bit where `wide` or an offset is.
 * With `split` (block pointers), the scalar part sum_i offs[i] * strides[i] is added to the
 * base first (64-bit where `wide`) and the block part sum_i arange(block[i]) * strides[i]
 * after it (64-bit only where a stride is, or a constexpr stride times the block passes
 * int32): the block part is then the same in every iteration of a loop that advances the
 * offsets, and large tensors do not overflow 32-bit indices. */
/* A 1-D block as dim `dim` of `rank` dims (the others 1), by expand_dims as Triton's
 * x[None, :] (which keeps the GPU backend's contiguity facts, where a reshape would not). */
static Val along(Trace *t, Val v, int dim, int rank, SrcLoc loc) {
    for (int j = 0; j < rank; j++)
        if (j != dim) v = sem_expand_dims(t, v, j, loc);
    return v;
}

void sem_block_addr(Trace *t, Val base, int rank, const int32_t *block, const Val *offs,
                    const Val *shape, const Val *strides, unsigned check, bool wide, bool split,
                    Val *ptr, Val *mask, SrcLoc loc) {
    Val off = val_void(), m = val_void(), sc = val_void();
    bool tile64 = false;
    for (int i = 0; split && i < rank; i++) {   /* |stride| * block past int32 */
        int64_t c = strides[i].c.v.i;
        uint64_t a = c < 0 ? 0 - (uint64_t)c : (uint64_t)c;
        tile64 |= strides[i].kind == V_TENSOR ? dt_bits(strides[i].type.dt) > 32
                  : a >= ((uint64_t)1 << 31) / (uint64_t)block[i];
    }
    for (int i = 0; i < rank; i++) {
        Val o = offs[i];
        bool o64 = dt_bits(o.type.dt) > 32;
        int idt = (split ? tile64 : wide) || o64 ? DT_I64 : DT_I32;
        o = sem_cast_impl(t, o, type_scalar(split ? (o64 ? DT_I64 : DT_I32) : idt), 0, loc);
        Val ar[2] = {val_const(cv_int(0)), val_const(cv_int(block[i]))};
        Val r = sem_call(t, "triton.language.arange", NULL, ar, 2, NULL, NULL, 0, loc);
        Val idx = val_void();
        if (!split || (check >> i & 1)) {
            Val oi = o;   /* a block pointer's index as wide as the shape it is compared with */
            if (split && (shape[i].kind == V_TENSOR ? dt_bits(shape[i].type.dt) > 32
                                                    : (shape[i].c.v.i >> 31) != 0))
                oi = sem_cast_impl(t, o, type_scalar(DT_I64), 0, loc);
            idx = along(t, sem_binary(t, PY_ADD, oi, sem_cast_impl(t, r, oi.type, 0, loc), loc), i,
                        rank, loc);
        }
        if (check >> i & 1) {
            Val in = sem_binary(t, PY_BITAND, sem_binary(t, PY_GE, idx, val_const(cv_int(0)), loc),
                                sem_binary(t, PY_LT, idx, shape[i], loc), loc);
            m = m.kind == V_VOID ? in : sem_binary(t, PY_BITAND, m, in, loc);
        }
        if (split) {   /* the offsets' part of the base, then the block part */
            int sdt = wide || o64 ? DT_I64 : DT_I32;
            Val ss = strides[i];
            if (ss.kind == V_TENSOR) ss = sem_cast_impl(t, ss, type_scalar(sdt), 0, loc);
            Val st = sem_binary(t, PY_MUL, sem_cast_impl(t, o, type_scalar(sdt), 0, loc), ss, loc);
            sc = sc.kind == V_VOID ? st : sem_binary(t, PY_ADD, sc, st, loc);
            idx = along(t, sem_cast_impl(t, r, type_scalar(idt), 0, loc), i, rank, loc);
        }
        Val stride = strides[i];
        if (stride.kind == V_TENSOR) stride = sem_cast_impl(t, stride, type_scalar(idt), 0, loc);
        Val term = sem_binary(t, PY_MUL, idx, stride, loc);
        off = off.kind == V_VOID ? term : sem_binary(t, PY_ADD, off, term, loc);
    }
    if (split) base = sem_binary(t, PY_ADD, base, sc, loc);
    *ptr = sem_binary(t, PY_ADD, base, off, loc);
    *mask = m;
}

/* The block's pointers and its in-bounds mask at `offsets` (one integer per dimension). */
static void block_ptrs(Trace *t, Val d, Val offs, const char *what, Val *ptr, Val *mask, Val *offv,
                       SrcLoc loc) {
    const TDesc *ds = d.desc;
    int n = sem_tuple_len(&offs);
    if (n < 0) FAIL("%s: offsets must be a list or tuple of integers, one per dimension", what);
    if (n != ds->rank)
        FAIL("%s: %d offsets given for a descriptor of rank %d (block shape %s)", what, n, ds->rank,
             sem_shape_s(t, ds->rank, ds->block));
    /* 64-bit indices when the descriptor's reach (with a block past each edge) passes int32 */
    int64_t reach = 0;
    for (int i = 0; i < ds->rank; i++) reach += (ds->shape[i] + ds->block[i]) * (ds->strides[i] + 1);
    bool wide = reach >= ((int64_t)1 << 31);
    for (int i = 0; ds->dyn && i < 2 * ds->rank; i++)   /* runtime sizes: as wide as they are */
        wide |= ds->dyn[i].kind == V_TENSOR ? dt_bits(ds->dyn[i].type.dt) > 32
                : ds->dyn[i].c.kind == CV_INT && (ds->dyn[i].c.v.i >> 31) != 0;
    Val base = d;
    base.desc = NULL;
    Val o[TC_MAX_RANK], dim[TC_MAX_RANK], stride[TC_MAX_RANK];
    for (int i = 0; i < ds->rank; i++) {
        o[i] = sem_to_tensor(t, sem_tuple_item(&offs, i), loc);
        if (o[i].type.rank != 0 || !dt_is_int(o[i].type.dt))
            FAIL("%s: offset %d must be an integer scalar, not %s", what, i, sem_type_s(t, o[i].type));
        int idt = wide || dt_bits(o[i].type.dt) > 32 ? DT_I64 : DT_I32;
        o[i] = offv[i] = sem_cast_impl(t, o[i], type_scalar(idt), 0, loc);   /* TMA's offsets too */
        dim[i] = ds->dyn ? ds->dyn[i] : val_const(cv_int(ds->shape[i]));
        stride[i] = ds->dyn ? ds->dyn[ds->rank + i] : val_const(cv_int(ds->strides[i]));
    }
    sem_block_addr(t, base, ds->rank, ds->block, o, dim, stride, (1u << ds->rank) - 1, wide, false,
                   ptr, mask, loc);
}

/* A host descriptor's block that TMA can express (the rules of cuTensorMapEncodeTiled:
 * innermost stride 1, other strides and the block's innermost extent multiples of 16 bytes,
 * block dimensions at most 256, i32 offsets; no i1): the LOAD or STORE just emitted (the
 * LOAD with result `res`) gets the descriptor operands of ops.h, for a backend that has TMA. */
static void tma_operands(Trace *t, Val d, const Val *offv, int op, int res) {
    const TDesc *ds = d.desc;
    int esz = dt_size(d.type.elem);
    if ((ds->dyn && !ds->tmap) || d.type.elem == DT_I1 || (ds->block[ds->rank - 1] * esz) % 16 != 0 ||
        (!ds->dyn && ds->strides[ds->rank - 1] != 1))
        return;
    for (int i = 0; i < ds->rank; i++) {
        if (ds->block[i] > 256 || offv[i].kind != V_TENSOR || offv[i].type.dt != DT_I32)
            return;
        if (ds->dyn) continue;   /* a kernel's map: its sizes are the backend's to check */
        if (ds->shape[i] < 1 || ds->shape[i] > ((int64_t)1 << 32))
            return;
        if (i < ds->rank - 1 && ((ds->strides[i] * esz) % 16 != 0 || ds->strides[i] * esz >= ((int64_t)1 << 40)))
            return;
    }
    Region *r = t->cur;
    Inst *in = NULL;
    for (int i = r->ninsts - 1; i >= 0 && !in; i--)
        if (r->insts[i]->op == op && (op == OP_STORE || r->insts[i]->res[0] == res)) in = r->insts[i];
    if (!in || in->nargs != 3) return;
    int *args = arena_alloc(t->arena, sizeof(int) * (size_t)(4 + ds->rank));
    memcpy(args, in->args, sizeof(int) * 3);
    args[3] = ds->dyn ? ds->tmap - 1 : d.id;
    for (int i = 0; i < ds->rank; i++) args[4 + i] = offv[i].id;
    in->args = args;
    in->nargs = 4 + ds->rank;
}

Val sem_desc_call(Trace *t, const char *method, Val d, Val *args, int nargs, const char **kwn,
                  Val *kwv, int nkw, SrcLoc loc) {
    bool load = !strcmp(method, "load");
    if (!load && strcmp(method, "store") != 0)
        FAIL("AttributeError: 'tensor_descriptor' object has no attribute '%s'", method);
    static const char *const names[] = {"offsets", "value"};
    int np = load ? 1 : 2;
    Val *a[2] = {NULL, NULL};
    if (nargs > np) FAIL("%s() takes %d positional arguments but %d were given", method, np + 1, nargs + 1);
    for (int i = 0; i < nargs; i++) a[i] = &args[i];
    for (int k = 0; k < nkw; k++) {
        int i = 0;
        while (i < np && strcmp(kwn[k], names[i]) != 0) i++;
        if (i == np) FAIL("%s() got an unexpected keyword argument '%s'", method, kwn[k]);
        if (a[i]) FAIL("%s() got multiple values for argument '%s'", method, kwn[k]);
        a[i] = &kwv[k];
    }
    for (int i = 0; i < np; i++)
        if (!a[i]) FAIL("%s() missing 1 required positional argument: '%s'", method, names[i]);
    char what[32];
    snprintf(what, sizeof what, "desc.%s", method);
    Val ptr, mask, offv[TC_MAX_RANK];
    block_ptrs(t, d, *a[0], what, &ptr, &mask, offv, loc);
    const char *mk[2] = {"mask", "other"};
    if (load) {
        /* zero of the element's kind: an int 0 does not cast to the fp8 types (as in Triton) */
        Val kv[2] = {mask, val_const(dt_is_float(d.type.elem) ? cv_float(0) : cv_int(0))};
        Val r = sem_call(t, "triton.language.load", NULL, &ptr, 1, mk, kv, 2, loc);
        tma_operands(t, d, offv, OP_LOAD, r.id);
        return r;
    }
    Val v = sem_to_tensor(t, *a[1], loc);
    const TDesc *ds = d.desc;
    bool same = v.type.rank == ds->rank;
    for (int i = 0; same && i < ds->rank; i++) same = v.type.shape[i] == ds->block[i];
    if (!same)
        FAIL("desc.store: the value has shape %s but the descriptor's block shape is %s",
             sem_shape_s(t, v.type.rank, v.type.shape), sem_shape_s(t, ds->rank, ds->block));
    Val sa[2] = {ptr, v};
    sem_call(t, "triton.language.store", NULL, sa, 2, mk, &mask, 1, loc);
    tma_operands(t, d, offv, OP_STORE, -1);
    return val_void();
}

/* tl.make_tensor_descriptor(base, shape, strides, block_shape): a descriptor over the pointer
 * base, its shape and strides constexprs or integer scalars, the last stride 1 (Triton's
 * rule), block_shape constexpr powers of two. */
Val sem_h_make_tensor_descriptor(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val base = *a[0];
    if (base.desc) FAIL("make_tensor_descriptor: base is already a tensor descriptor");
    if (base.kind != V_TENSOR || base.type.dt != DT_PTR || base.type.rank != 0)
        FAIL("make_tensor_descriptor: base must be a pointer (a tensor argument), not %s",
             base.kind == V_TENSOR ? sem_type_s(t, base.type) : "a constexpr");
    if (a[4]) {
        const char *pad = sem_arg_str(c, a[4], "zero", "padding_option");
        if (strcmp(pad, "zero") != 0) UNSUP("make_tensor_descriptor: padding_option=\"%s\" (tritonc pads with zeros)", pad);
    }
    int rank;
    int32_t blk[TC_MAX_RANK];
    sem_arg_shape(c, a[3], &rank, blk);
    int ns = sem_tuple_len(a[1]), nt = sem_tuple_len(a[2]);
    if (ns != rank || nt != rank)
        FAIL("make_tensor_descriptor: expected %d shape and strides entries (the block shape's rank), got %d and %d",
             rank, ns, nt);
    if (rank < 1 || rank > 5) FAIL("make_tensor_descriptor: rank %d is outside 1..5", rank);
    TDesc *d = arena_alloc(t->arena, sizeof *d);
    memset(d, 0, sizeof *d);
    Val *dyn = arena_alloc(t->arena, sizeof(Val) * (size_t)(2 * rank));
    d->rank = rank;
    for (int i = 0; i < rank; i++) {
        d->block[i] = blk[i];
        for (int w = 0; w < 2; w++) {
            Val v = sem_tuple_item(w ? a[2] : a[1], i);
            bool ok = v.kind == V_CONST ? v.c.kind == CV_INT
                    : v.kind == V_TENSOR && v.type.rank == 0 && dt_is_int(v.type.dt) && v.type.dt != DT_I1;
            if (!ok) FAIL("make_tensor_descriptor: %s[%d] must be an integer", w ? "strides" : "shape", i);
            dyn[w * rank + i] = v;
        }
    }
    Val last = dyn[2 * rank - 1];
    if (last.kind != V_CONST || last.c.v.i != 1)
        FAIL("make_tensor_descriptor: the last stride must be the constexpr 1 (Triton's rule: the "
             "innermost dimension is contiguous)");
    d->dyn = dyn;
    /* the map a backend with TMA fills for this descriptor (ops.h TMAP): here, where the
     * kernel makes it, so that a loop's loads share one */
    int margs[2 * TC_MAX_RANK];
    margs[0] = base.id;
    for (int i = 0; i < 2 * rank - 1; i++)
        margs[1 + i] = sem_cast_impl(t, sem_to_tensor(t, dyn[i], loc), type_scalar(DT_I64), 0, loc).id;
    d->tmap = sem_emit_v(t, OP_TMAP, margs, 2 * rank, base.type, (Attr){0}, loc).id + 1;
    base.desc = d;
    return base;
}
