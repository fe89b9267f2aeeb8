/* builtins_memory.c — the builtins that touch memory: tl.load and tl.store (masks, `other`,
 * cache and eviction hints checked as Triton does, i1 stored as i8; a block pointer's load and
 * store are in builtins_blockptr.c), the atomics (atomic_add
 * ... atomic_xchg, atomic_cas, with their dtype and memory-semantics checks) and
 * tl.pointer_type. */
#include "trace/sem.h"

#include <string.h>

static void check_cache(Call *c, const char *s, bool load) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    static const char *const ld[] = {"", ".ca", ".cg", ".cv", NULL};
    static const char *const st[] = {"", ".wb", ".cg", ".cs", ".wt", NULL};
    if (!sem_str_in(s, load ? ld : st)) FAIL("Cache modifier %s not supported", s);
}

static void check_evict(Call *c, const char *s) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    static const char *const ev[] = {"", "evict_last", "evict_first", "evict_normal", NULL};
    if (!sem_str_in(s, ev)) FAIL("Eviction policy %s not supported", s);
}

static bool nonempty_seq(const Val *v) {
    if (!v) return false;
    int n = sem_tuple_len(v);
    if (n >= 0) return n > 0;
    if (v->kind == V_CONST && v->c.kind == CV_STR) return v->c.v.s[0] != 0;
    return true;
}

static Val ptr_as_i8(Trace *t, Val ptr, SrcLoc loc) {
    Attr at = {0};
    return sem_emit_v(t, OP_BITCAST, &ptr.id, 1, type_with_shape(type_ptr(DT_I8), ptr.type.rank, ptr.type.shape),
                  at, loc);
}

/* The instruction of r (or a region inside it) whose result is value id; NULL if none. */
static const Inst *def_of(const Region *r, int id, int depth) {
    if (!r || depth > 8) return NULL;
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int j = 0; j < in->nres; j++)
            if (in->res[j] == id) return in;
        for (int k = 0; k < 2; k++) {
            const Inst *d = def_of(in->regions[k], id, depth + 1);
            if (d) return d;
        }
    }
    return NULL;
}

/* For a message: the runtime parameter value id is computed from, or the constant it is
 * (*cst set); NULL/false if neither is found within a few steps. */
static const char *value_source(const IrFunc *f, int id, int steps, const Inst **cst) {
    for (int j = 0; j < f->nparams; j++)
        if (f->params[j].value == id) return f->params[j].name;
    const Inst *in = steps < 16 ? def_of(f->body, id, 0) : NULL;
    if (!in) return NULL;
    if (in->op == OP_CONST) { *cst = in; return NULL; }
    for (int a = 0; a < in->nargs; a++) {
        if (in->args[a] < 0) continue;
        const char *n = value_source(f, in->args[a], steps + 1, cst);
        if (n) return n;
    }
    return NULL;
}

static void check_ptr_arg(Call *c, Val ptr, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (ptr.desc)
        FAIL("tl.%s of a tensor descriptor: a descriptor is not a pointer; use desc.load(offsets) "
             "and desc.store(offsets, value)", what);
    if (ptr.kind != V_TENSOR || ptr.type.dt != DT_PTR) {
        Type ty = ptr.kind == V_TENSOR ? ptr.type : type_scalar(DT_I32);
        const Inst *cst = NULL;
        const char *src = ptr.kind == V_TENSOR ? value_source(t->f, ptr.id, 0, &cst) : NULL;
        if (src)   /* what was wrong, where it came from, what to do */
            FAIL("Unsupported ptr type %s in `tl.%s`: the pointer is computed from argument '%s', "
                 "which was given a scalar (%s), not a tensor; pass a tensor (a pointer) for '%s'",
                 sem_tl_repr(t, type_elem(ty)), what, src, dt_name(ty.dt), src);
        if (cst && !dt_is_float(ty.dt))
            FAIL("Unsupported ptr type %s in `tl.%s`: the pointer is computed from the constant %lld (an argument "
                 "given the number %lld instead of a tensor?); pass a tensor (a pointer)",
                 sem_tl_repr(t, type_elem(ty)), what, (long long)cst->attr.i, (long long)cst->attr.i);
        FAIL("Unsupported ptr type %s in `tl.%s`: it needs a pointer (a tensor argument, plus "
             "offsets)", sem_tl_repr(t, type_elem(ty)), what);
    }
}

static Val h_load(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (a[0]->kind == V_BLOCKPTR) {
        check_cache(c, sem_arg_str(c, a[5], "", "cache_modifier"), true);
        check_evict(c, sem_arg_str(c, a[6], "", "eviction_policy"));
        return sem_bptr_load(c, a);
    }
    if (a[0]->kind == V_CONST) *a[0] = sem_to_tensor(t, *a[0], loc);
    Val ptr = *a[0];
    check_ptr_arg(c, ptr, "load");
    bool has_mask = a[1] != NULL, has_other = a[2] != NULL;
    Val mask = has_mask ? sem_to_tensor(t, *a[1], loc) : val_void();
    Val other = has_other ? sem_to_tensor(t, *a[2], loc) : val_void();
    if (!has_mask && has_other) FAIL("`other` cannot be provided without `mask`");
    if (nonempty_seq(a[3]) || nonempty_seq(a[4]))
        FAIL("`padding_option` or `boundary_check` argument is not supported for loading a tensor of"
             "pointers or loading a scalar. Because the compiler does not know the boundary; please "
             "use block pointers (defined by `make_block_ptr`) instead");
    check_cache(c, sem_arg_str(c, a[5], "", "cache_modifier"), true);
    check_evict(c, sem_arg_str(c, a[6], "", "eviction_policy"));
    bool vol = sem_arg_bool(c, a[7], false, "volatile");
    if (ptr.type.rank == 0) {
        if (has_mask && mask.type.rank > 0)
            FAIL("Mask argument cannot be block type if pointer argument is not a block");
        if (has_other && other.type.rank > 0)
            FAIL("Other argument cannot be block type if pointer argument is not a block");
    } else {
        if (has_mask) sem_bcast_pair(t, &ptr, &mask, loc);
        if (has_other) {
            sem_bcast_pair(t, &ptr, &other, loc);
            if (has_mask) mask = sem_broadcast_to(t, mask, ptr.type.rank, ptr.type.shape, loc);
        }
    }
    if (has_mask && mask.type.dt != DT_I1) FAIL("Mask must have boolean scalar type");
    int elem = ptr.type.elem;
    bool is_bool = elem == DT_I1;
    if (is_bool) { ptr = ptr_as_i8(t, ptr, loc); elem = DT_I8; }
    if (has_other) other = sem_cast_impl(t, other, type_scalar(elem), 0, loc);
    Attr at = {0};
    at.kind = vol ? 1 : 0;
    int args[3] = {ptr.id, has_mask ? mask.id : -1, has_other ? other.id : -1};
    Val r = sem_emit_v(t, OP_LOAD, args, 3, type_block(elem, ptr.type.rank, ptr.type.shape), at, loc);
    if (is_bool) r = sem_cast_impl(t, r, type_scalar(DT_I1), 0, loc);
    return r;
}

static Val h_store(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (a[0]->kind == V_BLOCKPTR) {
        check_cache(c, sem_arg_str(c, a[4], "", "cache_modifier"), false);
        check_evict(c, sem_arg_str(c, a[5], "", "eviction_policy"));
        return sem_bptr_store(c, a);
    }
    if (a[0]->kind == V_CONST) *a[0] = sem_to_tensor(t, *a[0], loc);
    Val ptr = *a[0];
    check_ptr_arg(c, ptr, "store");
    if (!a[1]) FAIL("store() missing 1 required positional argument: 'value'");
    Val val = sem_to_tensor(t, *a[1], loc);
    bool has_mask = a[2] != NULL;
    Val mask = has_mask ? sem_to_tensor(t, *a[2], loc) : val_void();
    if (nonempty_seq(a[3]))
        FAIL("`boundary_check` argument is not supported for storing a tensor of pointers or storing a "
             "scalar. Because the compiler does not know the boundary; please use block pointers "
             "(defined by `make_block_ptr`) instead");
    check_cache(c, sem_arg_str(c, a[4], "", "cache_modifier"), false);
    check_evict(c, sem_arg_str(c, a[5], "", "eviction_policy"));
    if (ptr.type.rank == 0) {
        if (val.type.rank > 0) FAIL("Value argument cannot be block type if pointer argument is not a block");
        if (has_mask && mask.type.rank > 0)
            FAIL("Mask argument cannot be block type if pointer argument is not a block");
    } else {
        int rank;
        int32_t shape[TC_MAX_RANK];
        char msg[256];
        Type pt = ptr.type;
        if (!broadcast_shapes(&ptr.type, &val.type, &rank, shape, msg, sizeof msg)) FAIL("%s", msg);
        Type tmp = type_block(DT_I32, rank, shape);
        if (has_mask && !broadcast_shapes(&tmp, &mask.type, &rank, shape, msg, sizeof msg)) FAIL("%s", msg);
        bool same = rank == pt.rank;
        for (int i = 0; same && i < rank; i++) same = shape[i] == pt.shape[i];
        if (!same)
            FAIL("Expected pointer argument to have shape %s but got %s", sem_shape_s(t, rank, shape),
                 sem_shape_s(t, pt.rank, pt.shape));
        val = sem_bcast_ext(t, val, pt.rank, pt.shape, loc);
        if (has_mask) mask = sem_bcast_ext(t, mask, pt.rank, pt.shape, loc);
    }
    int elem = ptr.type.elem;
    if (elem == DT_I1) { ptr = ptr_as_i8(t, ptr, loc); elem = DT_I8; }
    val = sem_cast_impl(t, val, type_scalar(elem), 0, loc);
    if (has_mask && mask.type.dt != DT_I1) FAIL("Mask must have boolean scalar type");
    Attr at = {0};
    int args[3] = {ptr.id, val.id, has_mask ? mask.id : -1};
    sem_emit(t, OP_STORE, args, 3, type_scalar(DT_VOID), at, loc);
    return val_void();
}

static void check_sem_scope(Call *c, const Val *sem, const Val *scope) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    static const char *const sems[] = {"", "acquire", "release", "acq_rel", "relaxed", NULL};
    static const char *const scopes[] = {"", "gpu", "cta", "sys", NULL};
    const char *s = sem_arg_str(c, sem, "", "sem");
    if (!sem_str_in(s, sems)) FAIL("Memory semantic %s not supported", s);
    s = sem_arg_str(c, scope, "", "scope");
    if (!sem_str_in(s, scopes)) FAIL("Memory semantic %s not supported", s);
}

/* The pointer operand of an atomic (a constexpr is made a tensor first, then refused). */
static Val atomic_pointer(Call *c, Val *p) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (p->kind == V_CONST) *p = sem_to_tensor(t, *p, loc);
    if (p->kind == V_BLOCKPTR) FAIL("atomics do not take a block pointer; use a tensor of pointers");
    if (p->kind != V_TENSOR || p->type.dt != DT_PTR)
        FAIL("Pointer argument of store instruction is %s",
             p->kind == V_TENSOR ? sem_tl_repr(t, type_elem(p->type)) : "a constant");
    return *p;
}

static Val h_atomic(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    const char *opname = c->b->name + 7;   /* "add" of atomic_add */
    int kind = c->b->arg;
    Val ptr = atomic_pointer(c, a[0]);
    if (!a[1]) FAIL("atomic_%s() missing 1 required positional argument: 'val'", opname);
    check_sem_scope(c, a[3], a[4]);
    int elem = ptr.type.elem;
    if (elem == DT_FP16 && kind != ATOM_ADD) FAIL("atomic_%s does not support fp16", opname);
    if (elem == DT_BF16 && kind != ATOM_ADD) FAIL("atomic_%s does not support bf16", opname);
    if (elem == DT_I1 || elem == DT_I8 || elem == DT_I16 || elem == DT_U8 || elem == DT_U16)
        FAIL("atomic_%s does not support %s", opname, sem_tl_name(elem));
    if (dt_is_float(elem) && (kind == ATOM_AND || kind == ATOM_OR || kind == ATOM_XOR))
        FAIL("atomic_%s does not support %s", opname, sem_tl_name(elem));
    Val val = sem_to_tensor(t, *a[1], loc);
    bool has_mask = a[2] != NULL;
    Val mask = has_mask ? sem_to_tensor(t, *a[2], loc) : val_void();
    if (ptr.type.rank > 0) {
        val = sem_broadcast_to(t, val, ptr.type.rank, ptr.type.shape, loc);
        if (has_mask) mask = sem_broadcast_to(t, mask, ptr.type.rank, ptr.type.shape, loc);
    } else {
        if (val.type.rank > 0) FAIL("Value argument cannot be block type if pointer argument is not a block");
        if (has_mask && mask.type.rank > 0)
            FAIL("Mask argument cannot be block type if pointer argument is not a block");
    }
    val = sem_cast_impl(t, val, type_scalar(elem), 0, loc);
    if (has_mask && mask.type.dt != DT_I1) FAIL("Mask must have boolean scalar type");
    Attr at = {0};
    at.kind = kind;
    int args[3] = {ptr.id, val.id, has_mask ? mask.id : -1};
    return sem_emit_v(t, OP_ATOMIC, args, 3, val.type, at, loc);
}

static Val h_atomic_cas(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val ptr = atomic_pointer(c, a[0]);
    if (!a[1] || !a[2]) FAIL("atomic_cas() requires cmp and val");
    check_sem_scope(c, a[3], a[4]);
    int elem = ptr.type.elem;
    int bits = dt_bits(elem);
    if (bits != 16 && bits != 32 && bits != 64)
        FAIL("atomic_cas only supports elements with width {16, 32, 64}");
    Val cmp = sem_to_tensor(t, *a[1], loc), val = sem_to_tensor(t, *a[2], loc);
    if (ptr.type.rank > 0) {
        cmp = sem_broadcast_to(t, cmp, ptr.type.rank, ptr.type.shape, loc);
        val = sem_broadcast_to(t, val, ptr.type.rank, ptr.type.shape, loc);
    } else if (cmp.type.rank > 0 || val.type.rank > 0) {
        FAIL("Value argument cannot be block type if pointer argument is not a block");
    }
    cmp = sem_cast_impl(t, cmp, type_scalar(elem), 0, loc);
    val = sem_cast_impl(t, val, type_scalar(elem), 0, loc);
    Attr at = {0};
    int args[3] = {ptr.id, cmp.id, val.id};
    return sem_emit_v(t, OP_ATOMIC_CAS, args, 3, val.type, at, loc);
}

static Val h_pointer_type(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Type e = sem_arg_dtype(c, a[0], "element_ty");
    if (e.dt == DT_PTR) UNSUP("pointers to pointers are not supported by tritonc");
    return val_const(sem_cv_dtype(type_ptr(e.dt)));
}

#define ATOMIC(name, kind) {"atomic_" name, "pointer,val,mask?,sem?,scope?", h_atomic, kind}

const Builtin sem_builtins_memory[] = {
    {"load", "pointer,mask?,other?,boundary_check?,padding_option?,cache_modifier?,"
             "eviction_policy?,volatile?", h_load, 0},
    {"store", "pointer,value,mask?,boundary_check?,cache_modifier?,eviction_policy?", h_store, 0},
    ATOMIC("add", ATOM_ADD), ATOMIC("max", ATOM_MAX), ATOMIC("min", ATOM_MIN),
    ATOMIC("and", ATOM_AND), ATOMIC("or", ATOM_OR), ATOMIC("xor", ATOM_XOR),
    ATOMIC("xchg", ATOM_XCHG),
    {"atomic_cas", "pointer,cmp,val,sem?,scope?", h_atomic_cas, 0},
    {"pointer_type", "element_ty,address_space?,const?", h_pointer_type, 0},
    {"make_tensor_descriptor", "base,shape,strides,block_shape,padding_option?",
     sem_h_make_tensor_descriptor, 0},
    {"make_block_ptr", "base,shape,strides,offsets,block_shape,order", sem_h_make_block_ptr, 0},
    {"advance", "base,offsets", sem_h_advance, 0},
    {NULL, NULL, NULL, 0},
};
