/* builtins_shape.c — builtins that make or reshape blocks: arange, full / zeros and their
 * _like forms, reshape / view / ravel, trans / permute, expand_dims, broadcast_to /
 * broadcast, join / split / interleave / cat, gather and flip (a one-hot selection along an
 * axis), and tl.dot with its shape, dtype and precision rules. */
#include "trace/sem.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static Val expand_dims_v(Call *c, Val x, const Val *axisv) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_to_tensor(t, x, loc);
    int64_t axes[TC_MAX_RANK + 1];
    int na;
    if (axisv && sem_tuple_len(axisv) >= 0) {
        na = sem_tuple_len(axisv);
        if (na > TC_MAX_RANK) UNSUP("too many axes");
        for (int i = 0; i < na; i++) {
            Val it = sem_tuple_item(axisv, i);
            axes[i] = sem_arg_int(c, &it, "axis");
        }
    } else {
        na = 1;
        axes[0] = sem_arg_int(c, axisv, "axis");
    }
    int nd = x.type.rank + na;
    int w[TC_MAX_RANK + 1];
    for (int i = 0; i < na; i++) {
        w[i] = sem_wrap_axis(t, axes[i], nd, loc);
        for (int j = 0; j < i; j++)
            if (w[j] == w[i]) {
                char buf[64];
                size_t o = 0;
                for (int k = 0; k < na && o < sizeof buf; k++) {
                    int ak = (int)(axes[k] < 0 ? axes[k] + nd : axes[k]);
                    o += (size_t)snprintf(buf + o, sizeof buf - o, k ? ", %d" : "%d", ak);
                }
                FAIL("expand_dims received duplicate axes, normalized axes = [%s]", buf);
            }
    }
    /* sorted insertion */
    for (int i = 0; i < na; i++)
        for (int j = i + 1; j < na; j++)
            if (w[j] < w[i]) { int x2 = w[i]; w[i] = w[j]; w[j] = x2; }
    for (int i = 0; i < na; i++) x = sem_expand_dims(t, x, w[i], loc);
    return x;
}

/* join(a, b): a new trailing dimension of size 2, built from where(arange(0, 2) == 0, a, b). */
Val sem_join(Trace *t, Val a, Val b, SrcLoc loc) {
    a = sem_to_tensor(t, a, loc);
    b = sem_to_tensor(t, b, loc);
    sem_bcast_pair(t, &a, &b, loc);
    if (!sem_same_elem(type_elem(a.type), type_elem(b.type)))
        FAIL("join() requires operands of the same dtype, got %s and %s", sem_tl_name(a.type.dt),
             sem_tl_name(b.type.dt));
    int r = a.type.rank;
    a = sem_expand_dims(t, a, r, loc);
    b = sem_expand_dims(t, b, r, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i < r; i++) s[i] = a.type.shape[i];
    s[r] = 2;
    sem_check_shape(t, r + 1, s, loc);
    a = sem_broadcast_to(t, a, r + 1, s, loc);
    b = sem_broadcast_to(t, b, r + 1, s, loc);
    Attr at = {0};
    int32_t two = 2;
    Val idx = sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &two), at, loc);
    Val zero = sem_const_num(t, idx.type, 0, loc);
    Val sel = sem_emit2(t, OP_CMP, idx, zero, sem_i1_like(idx.type), CMP_EQ, loc);
    sel = sem_bcast_ext(t, sel, r + 1, s, loc);
    int args[3] = {sel.id, a.id, b.id};
    return sem_emit_v(t, OP_WHERE, args, 3, a.type, at, loc);
}

/* split(a): the inverse of join; the last dimension must be 2. */
Val sem_split(Trace *t, Val a, SrcLoc loc) {
    a = sem_to_tensor(t, a, loc);
    int r = a.type.rank;
    if (r == 0 || a.type.shape[r - 1] != 2)
        FAIL("split: last dimension must have size 2, got shape %s", sem_shape_s(t, r, a.type.shape));
    if (!dt_is_int(a.type.dt) && !dt_is_float(a.type.dt)) UNSUP("split() of pointers is not supported by tritonc");
    Attr at = {0};
    int32_t two = 2;
    Val idx = sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &two), at, loc);
    Val outs[2];
    for (int k = 0; k < 2; k++) {
        Val kk = sem_const_num(t, idx.type, k, loc);
        Val sel = sem_emit2(t, OP_CMP, idx, kk, sem_i1_like(idx.type), CMP_EQ, loc);
        sel = sem_bcast_ext(t, sel, r, a.type.shape, loc);
        /* x + (-0.0) == x exactly for floats; x | 0 == x for integers */
        Val fill = dt_is_float(a.type.dt) ? sem_const_num(t, a.type, -0.0, loc)
                                          : sem_const_num(t, a.type, 0, loc);
        int args[3] = {sel.id, a.id, fill.id};
        Val m = sem_emit_v(t, OP_WHERE, args, 3, a.type, at, loc);
        outs[k] = sem_reduce_axis(t, m, r - 1, dt_is_float(a.type.dt) ? RED_SUM : RED_OR, loc);
    }
    return sem_tuple(t, outs, 2);
}

/* ---- gather / flip: select along an axis through a one-hot compare and a reduction ---------- */

/* out[.., k, ..] = x[.., sel[.., k, ..], ..] along `axis`. sel is an integer tensor of x's rank
 * (size K along axis, other dims equal to x's or 1). The selection is exact: every output
 * element reduces exactly one chosen value with neutral fills (-0.0 for floats, 0 with OR for
 * integers); an index outside the axis gives -0.0 / 0. */
Val sem_select_along(Trace *t, Val x, int axis, Val sel, SrcLoc loc) {
    int r = x.type.rank, m = x.type.shape[axis];
    if (!dt_is_int(x.type.dt) && !dt_is_float(x.type.dt))
        UNSUP("gather/flip of pointers is not supported by tritonc");
    int64_t big = type_numel(x.type) / m * (int64_t)sel.type.shape[axis] * m;
    if (big > MAX_NUMEL || r + 1 > TC_MAX_RANK)
        UNSUP("this gather/flip is too large for tritonc's lowering (%lld elements)", (long long)big);
    Val sel_e = sem_expand_dims(t, sel, axis + 1, loc);      /* [.., K, 1, ..] */
    Val x_e = sem_expand_dims(t, x, axis, loc);              /* [.., 1, m, ..] */
    Attr at = {0};
    int32_t mm = m;
    Val idx = sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &mm), at, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i <= r; i++) s[i] = i == axis + 1 ? m : 1;
    idx = sem_reshape(t, idx, r + 1, s, loc);
    Val cmp = sem_binary(t, PY_EQ, sel_e, idx, loc);
    Val fill = val_const(dt_is_float(x.type.dt) ? cv_float(-0.0) : cv_int(0));
    fill = sem_const(t, type_elem(x_e.type), &fill.c, loc);
    Val v = sem_where(t, cmp, x_e, fill, loc);
    return sem_reduce_axis(t, v, axis + 1, dt_is_float(x.type.dt) ? RED_SUM : RED_OR, loc);
}

/* x reversed along axis */
Val sem_flip(Trace *t, Val x, int axis, SrcLoc loc) {
    int32_t m = x.type.shape[axis];
    Attr at = {0};
    Val idx = sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &m), at, loc);
    Val rev = sem_binary(t, PY_SUB, val_const(cv_int(m - 1)), idx, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i < x.type.rank; i++) s[i] = i == axis ? m : 1;
    rev = sem_reshape(t, rev, x.type.rank, s, loc);
    return sem_select_along(t, x, axis, rev, loc);
}

static Val h_gather(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val src = sem_to_tensor(t, *a[0], loc), index = sem_to_tensor(t, *a[1], loc);
    if (!dt_is_int(index.type.dt)) FAIL("index must be an integer tensor");
    if (src.type.rank == 0) FAIL("src must be a tensor, got a scalar");
    int rank = src.type.rank;
    if (index.type.rank != rank) FAIL("source and index tensors must have the same rank");
    int64_t ax = sem_arg_int(c, a[2], "axis");
    if (ax < -rank || ax >= rank) FAIL("gather axis %lld must be < source rank (%d)", (long long)ax, rank);
    int axis = (int)(ax < 0 ? ax + rank : ax);
    for (int d = 0; d < rank; d++)
        if (d != axis && index.type.shape[d] != src.type.shape[d])
            FAIL("index dim %d must match the corresponding source dim", axis);
    return sem_select_along(t, src, axis, index, loc);
}

static Val h_flip(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc);
    int rank = x.type.rank;
    if (rank == 0) FAIL("flip() expects a tensor");
    int64_t d = a[1] ? sem_arg_int(c, a[1], "dim") : rank - 1;
    return sem_flip(t, x, sem_wrap_axis(t, d, rank, loc), loc);
}

/* ---- dot ------------------------------------------------------------------------------------- */

/* Triton's input_precision names (lower case, as _str_to_dot_input_precision accepts them) */
static int dot_prec(Trace *t, const char *p, SrcLoc loc) {
    static const struct { const char *name; int kind; } names[] = {
        {"tf32", DOT_TF32}, {"tf32x3", DOT_TF32X3}, {"ieee", DOT_IEEE},
        {"bf16x3", DOT_BF16X3}, {"bf16x6", DOT_BF16X6},
    };
    for (int i = 0; i < COUNT_OF(names); i++)
        if (strcasecmp(p, names[i].name) == 0) return names[i].kind;
    FAIL("input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got %s", p);
}

static Val h_dot(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!a[1]) FAIL("dot() missing 1 required positional argument: 'other'");
    Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
    bool has_prec = a[3] && !(a[3]->kind == V_CONST && a[3]->c.kind == CV_NONE);
    bool has_tf32 = a[4] && !(a[4]->kind == V_CONST && a[4]->c.kind == CV_NONE);
    if (has_prec && has_tf32) FAIL("Only one of input_precision and allow_tf32 can be specified");
    /* core.dot: TRITON_F32_DEFAULT, else tf32 unless allow_tf32=False */
    const char *p = has_prec ? sem_arg_str(c, a[3], "", "input_precision") : trace_f32_default();
    if (!p) p = has_tf32 && !sem_arg_bool(c, a[4], true, "allow_tf32") ? "ieee" : "tf32";
    int prec = dot_prec(t, p, loc);
    int ra = x.type.rank, rb = y.type.rank;
    if (!((ra == 2 && rb == 2) || (ra == 3 && rb == 3)))
        FAIL("Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)", sem_shape_s(t, ra, x.type.shape),
             sem_shape_s(t, rb, y.type.shape));
    int K = x.type.shape[ra - 1], M = x.type.shape[ra - 2], N = y.type.shape[rb - 1];
    if (y.type.shape[rb - 2] != K)
        FAIL("First input shape (%s) and second input shape %s are not compatible for matmul (second "
             "index of first shape (%d) must be equal to first index of second shape (%d)",
             sem_shape_s(t, ra, x.type.shape), sem_shape_s(t, rb, y.type.shape), K, y.type.shape[rb - 2]);
    if (ra == 3 && x.type.shape[0] != y.type.shape[0])
        FAIL("Batch dimensions of dot operands must match (lhs: %s vs rhs: %s)",
             sem_shape_s(t, ra, x.type.shape), sem_shape_s(t, rb, y.type.shape));
    int d = x.type.dt;
    bool fp8 = dt_is_fp8(d) && dt_is_fp8(y.type.dt);
    if (!fp8) {
        if (!(d == DT_I8 || d == DT_U8 || d == DT_FP16 || d == DT_BF16 || d == DT_FP32 || d == DT_FP64))
            FAIL("Unsupported lhs dtype %s", sem_tl_repr(t, type_scalar(d)));
        int e = y.type.dt;
        if (!(e == DT_I8 || e == DT_U8 || e == DT_FP16 || e == DT_BF16 || e == DT_FP32 || e == DT_FP64))
            FAIL("Unsupported rhs dtype %s", sem_tl_repr(t, type_scalar(e)));
        if (d != e)
            FAIL("Both operands must be same dtype. Got %s and %s", sem_tl_name(d), sem_tl_name(e));
    } else if (d == DT_FP8E4B15 || y.type.dt == DT_FP8E4B15) {
        /* Triton upcasts: there is no fp8e4b15 type in MLIR */
        x = sem_cast_impl(t, x, type_scalar(DT_FP16), 0, loc);
        y = sem_cast_impl(t, y, type_scalar(DT_FP16), 0, loc);
        d = DT_FP16;
    }
    int minK = dt_bits(d) == 8 ? 32 : 16;
    if (K < minK) FAIL("Input shapes should have M >= 1, N >= 1 and K >= %d", minK);
    Type out = a[6] ? sem_arg_dtype(c, a[6], "out_dtype") : type_scalar(DT_FP32);
    int ret;
    if (dt_is_int(d)) {
        if (d != DT_I8) FAIL("only int8 supported!");
        ret = DT_I32;
    } else if (out.dt == DT_BF16)
        FAIL("out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with "
             "`.to(tl.bfloat16)`");
    else if (d == DT_FP32 || d == DT_BF16) ret = DT_FP32;
    else if (d == DT_FP64) ret = DT_FP64;
    else {
        if (out.dt != DT_FP16 && out.dt != DT_FP32) FAIL("out_dtype must be float16 or float32 for %s dot", sem_tl_name(d));
        ret = out.dt;
    }
    if (a[5] && !(a[5]->kind == V_CONST && a[5]->c.kind == CV_NONE)) {
        int64_t mi = sem_arg_int(c, a[5], "max_num_imprecise_acc");
        if (fp8 && mi > K) FAIL("max_num_imprecise_acc (%lld) must be <= K (%d)", (long long)mi, K);
    }
    int32_t s[3];
    if (ra == 3) { s[0] = x.type.shape[0]; s[1] = M; s[2] = N; }
    else { s[0] = M; s[1] = N; }
    Type rt = type_block(ret, ra, s);
    Val acc;
    if (a[2] && !(a[2]->kind == V_CONST && a[2]->c.kind == CV_NONE)) {
        acc = sem_to_tensor(t, *a[2], loc);
        if (!type_eq(acc.type, rt))
            FAIL("acc must have type %s to match the dot result, but got %s", sem_type_s(t, rt),
                 sem_type_s(t, acc.type));
    } else {
        acc = sem_const_num(t, rt, 0, loc);
    }
    Attr at = {0};
    at.kind = prec; /* it only matters for fp32 x fp32 */
    int args[3] = {x.id, y.id, acc.id};
    return sem_emit_v(t, OP_DOT, args, 3, rt, at, loc);
}

/* ---- the table's handlers ---------------------------------------------------------------- */

static Val h_arange(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!a[0] || !a[1] || a[0]->kind != V_CONST || a[1]->kind != V_CONST || a[0]->c.kind != CV_INT ||
        a[1]->c.kind != CV_INT)
        FAIL("arange's arguments must be of type tl.constexpr");
    int64_t s = a[0]->c.v.i, e = a[1]->c.v.i;
    if ((s >> 32) != 0 || (e >> 32) != 0 || a[0]->c.big || a[1]->c.big) FAIL("arange must fit in int32");
    if (e <= s) FAIL("arange's end argument must be greater than the start argument");
    int64_t range = e - s;
    if ((range & (range - 1)) != 0) FAIL("arange's range must be a power of 2");
    int32_t n = (int32_t)range;
    sem_check_shape(t, 1, &n, loc);
    Attr at = {0};
    at.i = s;
    return sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &n), at, loc);
}

/* full(shape, value, dtype), zeros(shape, dtype) */
static Val h_full(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    bool full = c->b->name[0] == 'f';
    int rank;
    int32_t shape[TC_MAX_RANK];
    sem_arg_shape(c, a[0], &rank, shape);
    Val *valv = full ? a[1] : NULL, *dtv = full ? a[2] : a[1];
    Val zero = val_const(cv_int(0));
    Val value = valv ? *valv : zero;
    if (full && !valv) FAIL("full() value must not be None");
    if (value.kind == V_TENSOR) {
        if (type_numel(value.type) != 1) FAIL("only accepts size-1 tensor");
        if (dtv) value = sem_cast_impl(t, value, sem_arg_dtype(c, dtv, "dtype"), 0, loc);
        if (value.type.rank) value = sem_emit1(t, OP_RESHAPE, value, type_elem(value.type), loc);
        return sem_splat(t, value, rank, shape, loc);
    }
    if (!dtv) FAIL("dtype must be specified when value is not a tensor");
    Type dt = sem_arg_dtype(c, dtv, "dtype");
    if (!sem_is_num(&value)) FAIL("full() value must be a number or a tensor");
    return sem_const(t, type_with_shape(dt, rank, shape), &value.c, loc);
}

/* full_like(input, value, dtype), zeros_like(input, dtype) */
static Val h_full_like(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    bool fl = c->b->name[0] == 'f';
    Val x = sem_to_tensor(t, *a[0], loc);
    Type dt = (fl ? a[2] : a[1]) ? sem_arg_dtype(c, fl ? a[2] : a[1], "dtype") : type_elem(x.type);
    Val v = fl && a[1] ? *a[1] : val_const(cv_int(0));
    if (v.kind == V_TENSOR) {
        v = sem_cast_impl(t, v, dt, 0, loc);
        return sem_broadcast_to(t, v, x.type.rank, x.type.shape, loc);
    }
    if (!sem_is_num(&v)) FAIL("value must be a number");
    return sem_const(t, type_with_shape(dt, x.type.rank, x.type.shape), &v.c, loc);
}

/* reshape(input, *shape), view */
static Val h_reshape(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc);
    int rank = 0;
    int32_t shape[TC_MAX_RANK];
    if (c->nrest) sem_arg_shape_list(c, c->rest, c->nrest, &rank, shape);
    return sem_reshape_checked(t, x, rank, shape, loc);
}

static Val h_ravel(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc);
    int32_t n = (int32_t)type_numel(x.type);
    return sem_reshape_checked(t, x, 1, &n, loc);
}

/* trans(input, *dims) (no dims: swap the two axes), permute(input, *dims) */
static Val h_permute(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc);
    int dims[TC_MAX_RANK], n = 0;
    const Val *src = c->rest;
    int ns = c->nrest;
    Val tmp[TC_MAX_RANK + 1];
    if (ns == 1 && sem_tuple_len(&src[0]) >= 0) {
        ns = sem_tuple_len(&src[0]);
        if (ns > TC_MAX_RANK) FAIL("permute dims must have the same length as input shape");
        for (int i = 0; i < ns; i++) tmp[i] = sem_tuple_item(&src[0], i);
        src = tmp;
    }
    if (ns > TC_MAX_RANK) FAIL("permute dims must have the same length as input shape");
    for (int i = 0; i < ns; i++) dims[n++] = (int)sem_arg_int(c, &src[i], "dims");
    if (n == 0) {
        if (c->b->name[0] == 'p') FAIL("permute dims must have the same length as input shape");
        dims[0] = 1; dims[1] = 0; n = 2;
    }
    return sem_permute(t, x, dims, n, loc);
}

static Val h_expand_dims(Call *c, Val **a) { return expand_dims_v(c, *a[0], a[1]); }

static Val h_broadcast_to(Call *c, Val **a) {
    int rank = 0;
    int32_t shape[TC_MAX_RANK];
    sem_arg_shape_list(c, c->rest, c->nrest, &rank, shape);
    return sem_broadcast_to(c->t, *a[0], rank, shape, c->loc);
}

static Val h_broadcast(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
    sem_bcast_pair(t, &x, &y, loc);
    Val items[2] = {x, y};
    return sem_tuple(t, items, 2);
}

static Val h_join(Call *c, Val **a) { return sem_join(c->t, *a[0], *a[1], c->loc); }
static Val h_split(Call *c, Val **a) { return sem_split(c->t, *a[0], c->loc); }

/* interleave(a, b): along the last axis; cat(input, other) of 1-D tensors */
static Val h_interleave_cat(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    bool cat = c->b->name[0] == 'c';
    Val j = sem_join(t, *a[0], *a[1], loc);
    if (cat && (j.type.rank != 2)) FAIL("cat() only supports 1-D tensors");
    if (j.type.rank == 1) return j;
    int r = j.type.rank;
    if (cat) {
        int perm[2] = {1, 0};
        j = sem_permute(t, j, perm, 2, loc);
        int32_t n = (int32_t)type_numel(j.type);
        return sem_reshape(t, j, 1, &n, loc);
    }
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i < r - 2; i++) s[i] = j.type.shape[i];
    s[r - 2] = 2 * j.type.shape[r - 2];
    return sem_reshape(t, j, r - 1, s, loc);
}

const Builtin sem_builtins_shape[] = {
    {"arange", "start,end", h_arange, 0},
    {"full", "shape,value,dtype?", h_full, 0},
    {"zeros", "shape,dtype?", h_full, 0},
    {"full_like", "input,value,dtype?", h_full_like, 0},
    {"zeros_like", "input,dtype?", h_full_like, 0},
    {"reshape", "input,*,can_reorder?", h_reshape, 0},
    {"view", "input,*,can_reorder?", h_reshape, 0},
    {"ravel", "x,can_reorder?", h_ravel, 0},
    {"trans", "input,*", h_permute, 0},
    {"permute", "input,*", h_permute, 0},
    {"expand_dims", "input,axis", h_expand_dims, 0},
    {"broadcast_to", "input,*", h_broadcast_to, 0},
    {"broadcast", "input,other", h_broadcast, 0},
    {"join", "a,b", h_join, 0},
    {"split", "a", h_split, 0},
    {"interleave", "a,b", h_interleave_cat, 0},
    {"cat", "input,other,can_reorder?", h_interleave_cat, 0},
    {"gather", "src,index,axis", h_gather, 0},
    {"flip", "x,dim?", h_flip, 0},
    {"dot", "input,other,acc?,input_precision?,allow_tf32?,max_num_imprecise_acc?,out_dtype?",
     h_dot, 0},
    {NULL, NULL, NULL, 0},
};
