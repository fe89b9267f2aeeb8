/* builtins_blockptr.c — block pointers (Triton's tl.make_block_ptr and tl.advance). A block
 * pointer is a trace-time value (V_BLOCKPTR): its block shape and order are fixed, its base
 * pointer and offsets are runtime scalars (shape and strides constexprs or scalars), so loops
 * and `if`s carry it as they carry a tuple of scalars. tl.load and tl.store of one become an
 * ordinary load or store of the block's pointers (sem_block_addr, shared with tensor
 * descriptors), masked over the dims of boundary_check, so both backends run them as any
 * other access: the interpreter's checker reports an unchecked dim that goes out of bounds.
 * padding_option "" (Triton: undefined) pads with zeros, as "zero" does. */
#include "trace/sem.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Items of a list-like argument (Triton: anything with __iter__; else one element). */
static int list_items(Call *c, const Val *v, Val *out, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int n = sem_tuple_len(v);
    if (n < 0) {
        out[0] = *v;
        return 1;
    }
    if (n > TC_MAX_RANK)
        UNSUP("%s: block pointers of rank %d are not supported by tritonc (at most %d)", what, n,
              TC_MAX_RANK);
    for (int i = 0; i < n; i++) out[i] = sem_tuple_item(v, i);
    return n;
}

/* One entry of shape, strides or offsets, as Triton's _convert_elem_to_ir_value: shape and
 * strides stay constexpr ints (64-bit) or become i32/i64 scalars; offsets are i32 scalars. */
static Val bp_entry(Call *c, Val v, bool offset, const char *what, int i) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (v.kind == V_CONST && (v.c.kind == CV_INT || v.c.kind == CV_BOOL)) {
        if (offset) {
            if (v.c.big || v.c.v.i < INT32_MIN || v.c.v.i > INT32_MAX) {
                char b[64];
                cv_repr(&v.c, b, sizeof b);
                FAIL("Block pointers only support 32 bit `offsets/block_shape`, got a value %s which "
                     "is out of the range", b);
            }
            return sem_const(t, type_scalar(DT_I32), &v.c, loc);
        }
        if (v.c.big) {
            char b[64];
            cv_repr(&v.c, b, sizeof b);
            FAIL("Block pointers only support 64 bit `shape/strides`, got a value %s which is out "
                 "of the range", b);
        }
        return val_const(cv_int(v.c.v.i));
    }
    if (v.kind != V_TENSOR || v.desc)
        FAIL("Unsupported element type in shape/strides/offsets: %s[%d] must be an integer",
             what, i);
    if (type_numel(v.type) != 1)
        FAIL("Expected a scalar in shape/strides/offsets: %s[%d] has shape %s", what, i,
             sem_shape_s(t, v.type.rank, v.type.shape));
    if (!dt_is_int(v.type.dt))
        FAIL("Expected an integer scalar type in shape/strides/offsets: %s[%d] is %s", what, i,
             sem_tl_name(v.type.dt));
    if (v.type.rank) {   /* a one-element block: its scalar */
        Attr at = {0};
        v = sem_emit_v(t, OP_RESHAPE, &v.id, 1, type_elem(v.type), at, loc);
    }
    bool b64 = dt_bits(v.type.dt) > 32;
    if (offset && b64)
        FAIL("Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` or "
             "use regular indexing for 64 bit support");
    int want = b64 ? DT_I64 : DT_I32;
    return v.type.dt == want ? v : sem_cast_impl(t, v, type_scalar(want), 0, loc);
}

static Val bp_value(Trace *t, const BlockPtr *bp, const Val *items) {
    Val v = val_void();
    v.kind = V_BLOCKPTR;
    v.bp = bp;
    v.n = 1 + 3 * bp->rank;
    v.items = arena_alloc(t->arena, sizeof(Val) * (size_t)v.n);
    memcpy(v.items, items, sizeof(Val) * (size_t)v.n);
    return v;
}

/* tl.make_block_ptr(base, shape, strides, offsets, block_shape, order), checked in the order
 * Triton's semantic.make_block_ptr checks. */
Val sem_h_make_block_ptr(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    static const char *const names[3] = {"shape", "strides", "offsets"};
    Val lists[3][TC_MAX_RANK];
    int n[3];
    for (int w = 0; w < 3; w++) {
        n[w] = list_items(c, a[1 + w], lists[w], "make_block_ptr");
        for (int i = 0; i < n[w]; i++) lists[w][i] = bp_entry(c, lists[w][i], w == 2, names[w], i);
    }
    Val base = *a[0];
    if (base.kind != V_TENSOR || base.desc || base.type.dt != DT_PTR || base.type.rank != 0)
        FAIL("Expected `base` to be a pointer type (but not a block pointer type or others)");
    if (base.type.elem == DT_I1) {   /* Triton: pointer<int1> is read as pointer<int8> */
        Attr at = {0};
        base = sem_emit_v(t, OP_BITCAST, &base.id, 1, type_ptr(DT_I8), at, loc);
    }
    Val bl[TC_MAX_RANK], ord[TC_MAX_RANK];
    int nb = list_items(c, a[4], bl, "make_block_ptr");
    BlockPtr *bp = arena_alloc(t->arena, sizeof *bp);
    memset(bp, 0, sizeof *bp);
    for (int i = 0; i < nb; i++) {
        if (bl[i].kind != V_CONST || bl[i].c.kind != CV_INT || bl[i].c.big || bl[i].c.v.i < INT32_MIN ||
            bl[i].c.v.i > INT32_MAX)
            FAIL("Expected a list of constant integers (`int32_t` range) in `block_shape`");
        if (bl[i].c.v.i <= 0 || !is_pow2(bl[i].c.v.i)) FAIL("Shape element %d must be a power of 2", i);
        bp->block[i] = (int32_t)bl[i].c.v.i;
    }
    if (nb == 0) FAIL("0d block_type is forbidden");
    sem_check_shape(t, nb, bp->block, loc);
    int no = list_items(c, a[5], ord, "make_block_ptr");
    unsigned seen = 0;
    for (int i = 0; i < no; i++) {
        bool ok = ord[i].kind == V_CONST && ord[i].c.kind == CV_INT && !ord[i].c.big &&
                  ord[i].c.v.i >= 0 && ord[i].c.v.i < no && !(seen >> ord[i].c.v.i & 1);
        if (!ok) FAIL("Expected a permutation of (0, 1, ..., len(order)-1) in order");
        seen |= 1u << ord[i].c.v.i;
        bp->order[i] = (int8_t)ord[i].c.v.i;
    }
    if (n[0] != nb || n[1] != nb || n[2] != nb || no != nb)
        FAIL("Expected shape/strides/offsets/block_shape to have the same length (block_shape has "
             "%d entries; shape %d, strides %d, offsets %d, order %d)", nb, n[0], n[1], n[2], no);
    bp->rank = nb;
    Val items[1 + 3 * TC_MAX_RANK];
    items[0] = base;
    for (int i = 0; i < nb; i++) {
        items[1 + i] = lists[2][i];
        items[1 + nb + i] = lists[0][i];
        items[1 + 2 * nb + i] = lists[1][i];
    }
    return bp_value(t, bp, items);
}

/* tl.advance(base, offsets) and bp.advance(offsets): the same block pointer moved. */
Val sem_h_advance(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val bp = *a[0];
    if (bp.kind != V_BLOCKPTR)
        FAIL("advance() expects a block pointer (made by tl.make_block_ptr) as its base");
    int rank = bp.bp->rank;
    Val d[TC_MAX_RANK];
    int n = list_items(c, a[1], d, "advance");
    if (n != rank)
        FAIL("advance(): %d offsets given for a block pointer of rank %d (block shape %s)", n, rank,
             sem_shape_s(t, rank, bp.bp->block));
    Val items[1 + 3 * TC_MAX_RANK];
    memcpy(items, bp.items, sizeof(Val) * (size_t)bp.n);
    for (int i = 0; i < rank; i++) {
        if (d[i].kind == V_CONST && d[i].c.kind == CV_INT && d[i].c.v.i == 0 && !d[i].c.big) continue;
        Val o = bp_entry(c, d[i], true, "offsets", i);
        items[1 + i] = sem_binary(t, PY_ADD, items[1 + i], o, loc);
    }
    return bp_value(t, bp.bp, items);
}

/* Triton's _canonicalize_boundary_check: the dims to check as bits (a bare 0 or an empty
 * tuple checks none, as `if boundary_check:` does in Triton). */
static unsigned bp_check(Call *c, const Val *v, int rank, const int32_t *block) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!v) return 0;
    if (v->kind == V_CONST && (v->c.kind == CV_INT || v->c.kind == CV_BOOL) && v->c.v.i == 0) return 0;
    Val d[TC_MAX_RANK];
    int n = list_items(c, v, d, "boundary_check");
    unsigned bits = 0;
    for (int i = 0; i < n; i++) {
        if (d[i].kind != V_CONST || (d[i].c.kind != CV_INT && d[i].c.kind != CV_BOOL) || d[i].c.big ||
            d[i].c.v.i < 0 || d[i].c.v.i >= rank) {
            char b[64] = "a non-constexpr";
            if (d[i].kind == V_CONST) cv_repr(&d[i].c, b, sizeof b);
            FAIL("boundary_check: dimension %s is not a dimension of the block pointer (rank %d, "
                 "block shape %s); give constexpr ints in [0, %d)", b, rank,
                 sem_shape_s(t, rank, block), rank);
        }
        if (bits >> d[i].c.v.i & 1) FAIL("Duplicate dimension in `boundary_check`");
        bits |= 1u << d[i].c.v.i;
    }
    return bits;
}

/* 64-bit offsets' part unless every shape and stride is a constexpr and the block pointer's
 * reach (a block past each edge) stays within int32. */
static bool bp_wide(const Val *bpv) {
    int r = bpv->bp->rank;
    const Val *sh = bpv->items + 1 + r, *st = bpv->items + 1 + 2 * r;
    const int64_t lim = (int64_t)1 << 31;
    int64_t reach = 0;
    for (int i = 0; i < r; i++) {
        if (sh[i].kind != V_CONST || st[i].kind != V_CONST) return true;
        int64_t s = sh[i].c.v.i, d = st[i].c.v.i;
        if (s < 0 || s >= lim || d <= -lim || d >= lim) return true;
        reach += (s + bpv->bp->block[i]) * ((d < 0 ? -d : d) + 1);   /* < 2^62: no overflow */
        if (reach >= lim) return true;
    }
    return false;
}

static void bp_addr(Trace *t, const Val *bpv, unsigned check, Val *ptr, Val *mask, SrcLoc loc) {
    int r = bpv->bp->rank;
    sem_block_addr(t, bpv->items[0], r, bpv->bp->block, bpv->items + 1, bpv->items + 1 + r,
                   bpv->items + 1 + 2 * r, check, bp_wide(bpv), true, ptr, mask, loc);
}

/* Python's repr of a shape tuple, for Triton's messages: "(4, 4)", "(8,)". */
static const char *py_shape(Trace *t, int rank, const int32_t *s) {
    Buf b = {0};
    buf_puts(&b, "(");
    for (int i = 0; i < rank; i++) buf_printf(&b, i ? ", %d" : "%d", s[i]);
    buf_puts(&b, rank == 1 ? ",)" : ")");
    const char *r = arena_strdup(t->arena, b.s ? b.s : "()");
    buf_free(&b);
    return r;
}

/* The keyword arguments tl.load / tl.store pass on: the hints given, by name. */
static int pass_hints(Val **a, const int *idx, const char *const *names, int n, const char **kn, Val *kv, int k) {
    for (int i = 0; i < n; i++)
        if (a[idx[i]]) { kn[k] = names[i]; kv[k++] = *a[idx[i]]; }
    return k;
}

/* tl.load(bp, boundary_check=, padding_option=, cache_modifier=, eviction_policy=, volatile=);
 * a: pointer, mask, other, boundary_check, padding_option, cache_modifier, eviction_policy,
 * volatile. */
Val sem_bptr_load(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val bpv = *a[0];
    const char *pad = sem_arg_str(c, a[4], "", "padding_option");
    static const char *const pads[] = {"", "zero", "nan", NULL};
    if (!sem_str_in(pad, pads)) FAIL("Padding option %s not supported", pad);
    if (a[1] || a[2]) FAIL("`mask` and `other` arguments cannot be specified for loading block pointers");
    int elem = bpv.items[0].type.elem;
    if (!dt_is_float(elem) && !strcmp(pad, "nan"))
        FAIL("Padding option `nan` is not supported for integer block pointers");
    unsigned check = bp_check(c, a[3], bpv.bp->rank, bpv.bp->block);
    Val ptr, mask;
    bp_addr(t, &bpv, check, &ptr, &mask, loc);
    const char *kn[5];
    Val kv[5];
    int k = 0;
    if (mask.kind != V_VOID) {
        kn[k] = "mask";
        kv[k++] = mask;
        kn[k] = "other";
        kv[k++] = val_const(strcmp(pad, "nan") ? cv_int(0) : cv_float(NAN));
    }
    static const int idx[3] = {5, 6, 7};
    static const char *const hn[3] = {"cache_modifier", "eviction_policy", "volatile"};
    k = pass_hints(a, idx, hn, 3, kn, kv, k);
    return sem_call(t, "triton.language.load", NULL, &ptr, 1, kn, kv, k, loc);
}

/* tl.store(bp, value, boundary_check=, cache_modifier=, eviction_policy=); a: pointer, value,
 * mask, boundary_check, cache_modifier, eviction_policy. The value's element type must be the
 * block's (Triton asserts it; no implicit cast). */
Val sem_bptr_store(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val bpv = *a[0];
    const BlockPtr *bp = bpv.bp;
    if (!a[1]) FAIL("store() missing 1 required positional argument: 'value'");
    if (a[2]) FAIL("`mask` and `other` arguments cannot be specified for loading block pointers");
    Val v = sem_to_tensor(t, *a[1], loc);
    if (v.type.rank == 0) v = sem_broadcast_to(t, v, bp->rank, bp->block, loc);
    bool same = v.type.rank == bp->rank;
    for (int i = 0; same && i < bp->rank; i++) same = v.type.shape[i] == bp->block[i];
    if (!same)
        FAIL("Block shape(%s) and value shape(%s) mismatch", py_shape(t, bp->rank, bp->block),
             py_shape(t, v.type.rank, v.type.shape));
    int elem = bpv.items[0].type.elem;
    if (v.type.dt != elem)
        FAIL("Block element type(%s) and value element type(%s) mismatch (convert the value with "
             ".to(tl.%s))", sem_tl_name(elem), sem_tl_name(v.type.dt), sem_tl_name(elem));
    unsigned check = bp_check(c, a[3], bp->rank, bp->block);
    Val ptr, mask;
    bp_addr(t, &bpv, check, &ptr, &mask, loc);
    const char *kn[3];
    Val kv[3];
    int k = 0;
    if (mask.kind != V_VOID) { kn[k] = "mask"; kv[k++] = mask; }
    static const int idx[2] = {4, 5};
    static const char *const hn[2] = {"cache_modifier", "eviction_policy"};
    k = pass_hints(a, idx, hn, 2, kn, kv, k);
    Val sa[2] = {ptr, v};
    sem_call(t, "triton.language.store", NULL, sa, 2, kn, kv, k, loc);
    return val_void();
}

bool sem_bptr_same_kind(const Val *a, const Val *b) {
    if (a->kind != V_BLOCKPTR || b->kind != V_BLOCKPTR || a->n != b->n) return false;
    const BlockPtr *x = a->bp, *y = b->bp;
    if (x->rank != y->rank || a->items[0].type.elem != b->items[0].type.elem) return false;
    for (int i = 0; i < x->rank; i++)
        if (x->block[i] != y->block[i] || x->order[i] != y->order[i]) return false;
    for (int i = 1; i < a->n; i++) {
        const Val *p = &a->items[i], *q = &b->items[i];
        if (p->kind != q->kind) return false;
        if (p->kind == V_CONST ? !cv_eq(&p->c, &q->c) : !type_eq(p->type, q->type)) return false;
    }
    return true;
}

void sem_bptr_str(const Val *v, char *buf, size_t n) {
    const BlockPtr *bp = v->bp;
    int k = snprintf(buf, n, "pointer<<[");
    for (int i = 0; i < bp->rank && k > 0 && (size_t)k < n; i++)
        k += snprintf(buf + k, n - (size_t)k, i ? ", %d" : "%d", bp->block[i]);
    if (k > 0 && (size_t)k < n) snprintf(buf + k, n - (size_t)k, "], %s>> (a block pointer)", sem_tl_name(v->items[0].type.elem));
}
