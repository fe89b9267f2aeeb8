/* builtins_reduce.c — reductions and scans: tl.sum / max / min / argmax / argmin / xor_sum /
 * reduce_or (axis None flattens, keep_dims), softmax, histogram, cumsum / cumprod, and
 * tl.reduce / tl.associative_scan with a @jit combine function, unrolled at trace time into
 * pairwise combines of whole blocks. */
#include "trace/sem.h"

#include <string.h>

Val sem_reduce_axis(Trace *t, Val x, int axis, int kind, SrcLoc loc) {
    int32_t s[TC_MAX_RANK + 1];
    int r = x.type.rank;
    for (int i = 0, j = 0; i < r; i++)
        if (i != axis) s[j++] = x.type.shape[i];
    Type et = (kind == RED_ARGMAX || kind == RED_ARGMIN) ? type_scalar(DT_I32) : type_elem(x.type);
    Attr at = {0};
    at.kind = kind;
    at.axis = axis;
    return sem_emit_v(t, OP_REDUCE, &x.id, 1, type_with_shape(et, r - 1, s), at, loc);
}

/* core.reduce for one input: axis None flattens; keep_dims re-inserts size-1 dims. */
static Val do_reduce(Call *c, Val x, const Val *axisv, int kind, bool keep) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int orig_rank = x.type.rank;
    int axis;
    if (!axisv) {
        if (x.type.rank != 1) {
            int32_t n = (int32_t)type_numel(x.type);
            x = sem_reshape(t, x, 1, &n, loc);
        }
        axis = 0;
    } else {
        int64_t a = sem_arg_int(c, axisv, "axis");
        if (x.type.rank == 0) FAIL("reduction axis must be < inputs rank (0)");
        axis = sem_wrap_axis(t, a, x.type.rank, loc);
    }
    Val r = sem_reduce_axis(t, x, axis, kind, loc);
    if (keep) {
        if (axisv) {
            r = sem_expand_dims(t, r, axis, loc);
        } else if (orig_rank > 0) {
            int32_t ones[TC_MAX_RANK];
            for (int i = 0; i < orig_rank; i++) ones[i] = 1;
            r = sem_reshape(t, r, orig_rank, ones, loc);
        }
    }
    return r;
}

static Val softmax_v(Call *c, Val x, const Val *dimv, bool keep) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_to_tensor(t, x, loc);
    Val zero = val_const(cv_int(0));
    const Val *axis = dimv ? dimv : &zero;
    Val m = x.type.dt == DT_BF16 ? sem_promote_bf16(t, x, loc) : x;
    if (dt_bits(m.type.dt) < 32) m = sem_cast_impl(t, m, type_scalar(dt_is_float(m.type.dt) ? DT_FP32 : DT_I32), 0, loc);
    m = do_reduce(c, m, axis, RED_MAX, keep);
    Val z = sem_binary(t, PY_SUB, x, m, loc);
    sem_check_float(c, z, false);
    Val num = sem_emit1(t, OP_EXP, z, z.type, loc);
    Val den = do_reduce(c, num, axis, RED_SUM, keep);
    return sem_fdiv(c, num, den);
}

static Val sum_v(Call *c, Val x, const Val *axis, bool keep, const Val *dtype) {
    Trace *t = c->t;
    x = sem_to_tensor(t, x, c->loc);
    int out = DT_VOID;
    if (dtype) out = sem_arg_dtype(c, dtype, "dtype").dt;
    else if (dt_is_signed(x.type.dt) && dt_bits(x.type.dt) < 32) out = DT_I32;
    else if (dt_is_unsigned(x.type.dt) && dt_bits(x.type.dt) < 32) out = DT_U32;
    if (out != DT_VOID) x = sem_cast_impl(t, x, type_scalar(out), 0, c->loc);
    return do_reduce(c, x, axis, RED_SUM, keep);
}

static Val maxmin_reduce(Call *c, Val **a, bool is_max, bool argonly) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    bool ret_idx, tie_left, keep;
    if (argonly) {
        ret_idx = true;
        tie_left = sem_arg_bool(c, a[2], true, "tie_break_left");
        keep = sem_arg_bool(c, a[3], false, "keep_dims");
    } else {
        ret_idx = sem_arg_bool(c, a[2], false, "return_indices");
        tie_left = sem_arg_bool(c, a[3], true, "return_indices_tie_break_left");
        keep = sem_arg_bool(c, a[4], false, "keep_dims");
    }
    Val x = sem_promote_bf16(t, sem_to_tensor(t, *a[0], loc), loc);
    if (x.type.dt == DT_PTR) FAIL("Unexpected dtype %s", sem_tl_repr(t, type_elem(x.type)));
    if (ret_idx) {
        /* tie_break_left=False leaves the index among equal extrema unspecified; the
         * leftmost one is a valid answer */
        (void)tie_left;
        Val idx = do_reduce(c, x, a[1], is_max ? RED_ARGMAX : RED_ARGMIN, keep);
        if (argonly) return idx;
        Val v = do_reduce(c, x, a[1], is_max ? RED_MAX : RED_MIN, keep);
        Val items[2] = {v, idx};
        return sem_tuple(t, items, 2);
    }
    if (dt_bits(x.type.dt) < 32)
        x = sem_cast_impl(t, x, type_scalar(dt_is_float(x.type.dt) ? DT_FP32 : DT_I32), 0, loc);
    return do_reduce(c, x, a[1], is_max ? RED_MAX : RED_MIN, keep);
}

static Val h_sum(Call *c, Val **a) {
    return sum_v(c, *a[0], a[1], sem_arg_bool(c, a[2], false, "keep_dims"), a[3]);
}
static Val h_max_min(Call *c, Val **a) { return maxmin_reduce(c, a, c->b->arg, false); }
static Val h_argmax_argmin(Call *c, Val **a) { return maxmin_reduce(c, a, c->b->arg, true); }

/* xor_sum, reduce_or */
static Val h_bitwise_reduce(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc);
    if (!dt_is_int(x.type.dt)) FAIL("%s only supported for integers", c->b->name);
    return do_reduce(c, x, a[1], c->b->arg, sem_arg_bool(c, a[2], false, "keep_dims"));
}

static Val h_softmax(Call *c, Val **a) {
    return softmax_v(c, *a[0], a[1], sem_arg_bool(c, a[2], false, "keep_dims"));
}

/* histogram(input, num_bins, mask=None): counts of the values 0..num_bins-1 (int32), computed
 * as a sum over input == arange(num_bins) */
static Val h_histogram(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc);
    int64_t nb = sem_arg_int(c, a[1], "num_bins");
    if (x.type.rank != 1 || !dt_is_int(x.type.dt)) FAIL("histogram() expects a 1-D integer tensor");
    if (nb <= 0 || nb > MAX_NUMEL) FAIL("histogram(): num_bins must be positive");
    int32_t n32 = (int32_t)nb;
    sem_check_shape(t, 1, &n32, loc);
    if ((int64_t)x.type.shape[0] * nb > MAX_NUMEL)
        UNSUP("histogram of %d values into %lld bins is too large for tritonc", x.type.shape[0], (long long)nb);
    Attr at = {0};
    Val idx = sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &n32), at, loc);
    Val eq = sem_binary(t, PY_EQ, sem_expand_dims(t, x, 1, loc), sem_expand_dims(t, idx, 0, loc), loc);
    if (a[2]) {
        Val m = sem_to_tensor(t, *a[2], loc);
        if (m.type.dt != DT_I1) m = sem_cast_impl(t, m, type_scalar(DT_I1), 0, loc);
        if (m.type.rank == 1) m = sem_expand_dims(t, m, 1, loc);
        eq = sem_binary(t, PY_BITAND, eq, m, loc);
    }
    eq = sem_cast_impl(t, eq, type_scalar(DT_I32), 0, loc);
    return sem_reduce_axis(t, eq, 0, RED_SUM, loc);
}

/* cumsum(input, axis=0, reverse=False, dtype=None): out[.., i, ..] = sum of x[.., j, ..] for
 * j <= i (j >= i reversed), as a masked reduction over an [.., n, n, ..] intermediate. Integer
 * results are exact; float sums may round differently from Triton's parallel scan. */
static Val h_cumsum(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_promote_bf16(t, sem_to_tensor(t, *a[0], loc), loc);
    int64_t ax = a[1] ? sem_arg_int(c, a[1], "axis") : 0;
    bool rev = sem_arg_bool(c, a[2], false, "reverse");
    int out = DT_VOID;
    if (a[3]) out = sem_arg_dtype(c, a[3], "dtype").dt;
    else if (dt_is_signed(x.type.dt) && dt_bits(x.type.dt) < 32) out = DT_I32;
    else if (dt_is_unsigned(x.type.dt) && dt_bits(x.type.dt) < 32) out = DT_U32;
    if (out != DT_VOID) x = sem_cast_impl(t, x, type_scalar(out), 0, loc);
    int rank = x.type.rank;
    if (rank == 0) FAIL("cumsum() expects a tensor");
    int axis = sem_wrap_axis(t, ax, rank, loc);
    int32_t n = x.type.shape[axis];
    if (type_numel(x.type) * n > MAX_NUMEL || rank + 1 > TC_MAX_RANK)
        UNSUP("cumsum over %d elements of a %lld-element tensor is too large for tritonc", n,
              (long long)type_numel(x.type));
    if (!dt_is_int(x.type.dt) && !dt_is_float(x.type.dt)) FAIL("cumsum() of pointers");
    Attr at = {0};
    Val ii = sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &n), at, loc);
    int32_t si[TC_MAX_RANK + 1], sj[TC_MAX_RANK + 1];
    for (int i = 0; i <= rank; i++) {
        si[i] = i == axis ? n : 1;
        sj[i] = i == axis + 1 ? n : 1;
    }
    Val vi = sem_reshape(t, ii, rank + 1, si, loc), vj = sem_reshape(t, ii, rank + 1, sj, loc);
    Val keep = sem_binary(t, rev ? PY_GE : PY_LE, vj, vi, loc);   /* [.., i, j, ..] */
    Val x_e = sem_expand_dims(t, x, axis, loc);                   /* [.., 1, j, ..] */
    CVal z = dt_is_float(x.type.dt) ? cv_float(-0.0) : cv_int(0);
    Val fill = sem_const(t, type_elem(x.type), &z, loc);
    Val v = sem_where(t, keep, x_e, fill, loc);
    return sem_reduce_axis(t, v, axis + 1, RED_SUM, loc);
}

/* ---- tl.reduce / tl.associative_scan with a combine function ----------------------------------
 * Unrolled at trace time: adjacent elements along the axis are paired (reshape to [.., n/2, 2, ..]
 * and split), and the combine function (a @jit function, inlined by trace_call_func, applied
 * element-wise to whole blocks) merges each pair, so every combine sees its operands in order
 * (a valid parenthesization; associativity is all that is assumed). */

typedef struct Combiner { const Func *fn; int op; } Combiner;

static void combine_apply(Call *c, const Combiner *cb, const Val *a, const Val *b, int k, Val *out) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!cb->fn) {
        out[0] = sem_emit2(t, cb->op, a[0], b[0], a[0].type, 0, loc);
        return;
    }
    Val *args = arena_alloc(t->arena, sizeof(Val) * (size_t)(2 * k));
    for (int i = 0; i < k; i++) { args[i] = a[i]; args[k + i] = b[i]; }
    Val r = trace_call_func(t, cb->fn, args, 2 * k, loc);
    if (k == 1 && r.kind == V_TUPLE && r.n == 1) r = r.items[0];
    if (k > 1 && (r.kind != V_TUPLE || r.n != k))
        FAIL("combine_fn must return %d values", k);
    for (int i = 0; i < k; i++) {
        Val v = sem_to_tensor(t, k == 1 ? r : r.items[i], loc);
        if (!sem_same_elem(type_elem(v.type), type_elem(a[i].type)))
            FAIL("combine_fn returned %s where %s was expected", sem_type_s(t, v.type), sem_type_s(t, a[i].type));
        out[i] = sem_bcast_ext(t, v, a[i].type.rank, a[i].type.shape, loc);
    }
}

/* even (x[.., 2p, ..]) and odd (x[.., 2p+1, ..]) halves along axis */
static void split_pairs(Trace *t, Val x, int axis, Val *ev, Val *od, SrcLoc loc) {
    int r = x.type.rank;
    if (r + 1 > TC_MAX_RANK) UNSUP("tensors of rank %d are not supported by tritonc (at most %d)", r + 1, TC_MAX_RANK);
    int32_t s[TC_MAX_RANK + 1] = {0};
    for (int i = 0, j = 0; i < r; i++) {
        if (i == axis) { s[j++] = x.type.shape[i] / 2; s[j++] = 2; }
        else s[j++] = x.type.shape[i];
    }
    Val y = sem_reshape(t, x, r + 1, s, loc);
    int perm[TC_MAX_RANK];
    for (int i = 0, j = 0; i <= r; i++)
        if (i != axis + 1) perm[j++] = i;
    perm[r] = axis + 1;
    y = sem_permute(t, y, perm, r + 1, loc);
    Val parts = sem_split(t, y, loc);
    *ev = parts.items[0];
    *od = parts.items[1];
}

static Val drop_axis(Trace *t, Val x, int axis, SrcLoc loc) {
    int32_t s[TC_MAX_RANK + 1];
    int r = x.type.rank;
    for (int i = 0, j = 0; i < r; i++)
        if (i != axis) s[j++] = x.type.shape[i];
    return sem_reshape_checked(t, x, r - 1, s, loc);
}

static int unpack_inputs(Call *c, Val in, Val *items) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int k = in.kind == V_TUPLE ? in.n : 1;
    if (k < 1 || k > 8) UNSUP("reductions over %d inputs are not supported by tritonc", k);
    for (int i = 0; i < k; i++) items[i] = sem_to_tensor(t, in.kind == V_TUPLE ? in.items[i] : in, loc);
    for (int i = 1; i < k; i++)
        if (items[i].type.rank != items[0].type.rank ||
            memcmp(items[i].type.shape, items[0].type.shape, sizeof(int32_t) * items[0].type.rank) != 0)
            FAIL("reduction/scan inputs must have the same shape");
    return k;
}

static Combiner combiner_of(Call *c, const Val *fn) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!fn || fn->kind != V_FUNC || !fn->fn) FAIL("combine_fn must be a @triton.jit function");
    Combiner cb = {fn->fn, 0};
    return cb;
}

static Val reduce_generic(Call *c, Val in, const Val *axisv, const Combiner *cb, bool keep) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x[8] = {{0}}, ev[8] = {{0}}, od[8] = {{0}};
    int k = unpack_inputs(c, in, x);
    int orig_rank = x[0].type.rank, axis;
    if (!axisv) {
        for (int i = 0; i < k; i++) {
            int32_t n = (int32_t)type_numel(x[i].type);
            x[i] = sem_reshape(t, x[i], 1, &n, loc);
        }
        axis = 0;
    } else {
        if (orig_rank == 0) FAIL("reduction axis must be < inputs rank (0)");
        axis = sem_wrap_axis(t, sem_arg_int(c, axisv, "axis"), orig_rank, loc);
    }
    while (x[0].type.shape[axis] > 1) {
        for (int i = 0; i < k; i++) split_pairs(t, x[i], axis, &ev[i], &od[i], loc);
        combine_apply(c, cb, ev, od, k, x);
    }
    for (int i = 0; i < k; i++) {
        x[i] = drop_axis(t, x[i], axis, loc);
        if (keep) {
            if (axisv) x[i] = sem_expand_dims(t, x[i], axis, loc);
            else if (orig_rank > 0) {
                int32_t ones[TC_MAX_RANK];
                for (int d = 0; d < orig_rank; d++) ones[d] = 1;
                x[i] = sem_reshape(t, x[i], orig_rank, ones, loc);
            }
        }
    }
    return k == 1 && in.kind != V_TUPLE ? x[0] : sem_tuple(t, x, k);
}

/* x shifted by one along axis: y[j] = x[j-1], y[0] = a neutral fill (never used) */
static Val shift_right(Trace *t, Val x, int axis, SrcLoc loc) {
    int32_t m = x.type.shape[axis];
    Attr at = {0};
    Val idx = sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &m), at, loc);
    Val sel = sem_binary(t, PY_SUB, idx, val_const(cv_int(1)), loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i < x.type.rank; i++) s[i] = i == axis ? m : 1;
    sel = sem_reshape(t, sel, x.type.rank, s, loc);
    return sem_select_along(t, x, axis, sel, loc);
}

/* inclusive scan of k parallel inputs along axis (length a power of two) */
static void scan_rec(Call *c, const Combiner *cb, Val *x, int k, int axis, Val *out) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int32_t n = x[0].type.shape[axis];
    if (n == 1) {
        for (int i = 0; i < k; i++) out[i] = x[i];
        return;
    }
    Val a[8] = {{0}}, b[8] = {{0}}, p[8] = {{0}}, S[8] = {{0}}, sh[8] = {{0}}, E[8] = {{0}};
    for (int i = 0; i < k; i++) split_pairs(t, x[i], axis, &a[i], &b[i], loc);
    combine_apply(c, cb, a, b, k, p);          /* p[j] = a[j] (+) b[j] */
    scan_rec(c, cb, p, k, axis, S);            /* S[j] = x[0] (+) ... (+) x[2j+1] */
    for (int i = 0; i < k; i++) sh[i] = shift_right(t, S[i], axis, loc);
    combine_apply(c, cb, sh, a, k, E);         /* E[j] = S[j-1] (+) a[j], j >= 1 */
    int r = x[0].type.rank;
    int32_t h = n / 2;
    Attr at = {0};
    Val idx = sem_emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &h), at, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int d = 0; d < r; d++) s[d] = d == axis ? h : 1;
    Val first = sem_reshape(t, sem_binary(t, PY_EQ, idx, val_const(cv_int(0)), loc), r, s, loc);
    for (int i = 0; i < k; i++) {
        Val ev = sem_where(t, first, a[i], E[i], loc);
        /* interleave ev (even positions) and S (odd positions) along axis */
        Val j = sem_join(t, ev, S[i], loc);       /* [.., h, .., 2] */
        int perm[TC_MAX_RANK];
        for (int d = 0, q = 0; d <= r; d++) {
            if (d == axis + 1) perm[d] = r;
            else perm[d] = q++;
        }
        j = sem_permute(t, j, perm, r + 1, loc);  /* [.., h, 2, ..] */
        int32_t os[TC_MAX_RANK + 1];
        for (int d = 0; d < r; d++) os[d] = d == axis ? n : x[i].type.shape[d];
        out[i] = sem_reshape(t, j, r, os, loc);
    }
}

static Val scan_generic(Call *c, Val in, const Val *axisv, const Combiner *cb, bool reverse) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x[8] = {{0}}, out[8] = {{0}};
    int k = unpack_inputs(c, in, x);
    int rank = x[0].type.rank;
    if (rank == 0) FAIL("associative_scan() expects a tensor");
    int axis = sem_wrap_axis(t, axisv ? sem_arg_int(c, axisv, "axis") : 0, rank, loc);
    for (int i = 0; i < k; i++)
        if (!dt_is_int(x[i].type.dt) && !dt_is_float(x[i].type.dt))
            UNSUP("scans of pointers are not supported by tritonc");
    if (reverse)
        for (int i = 0; i < k; i++) x[i] = sem_flip(t, x[i], axis, loc);
    scan_rec(c, cb, x, k, axis, out);
    if (reverse)
        for (int i = 0; i < k; i++) out[i] = sem_flip(t, out[i], axis, loc);
    return k == 1 && in.kind != V_TUPLE ? out[0] : sem_tuple(t, out, k);
}

static Val h_reduce(Call *c, Val **a) {
    Combiner cb = combiner_of(c, a[2]);
    Val *axisv = a[1] && !(a[1]->kind == V_CONST && a[1]->c.kind == CV_NONE) ? a[1] : NULL;
    return reduce_generic(c, *a[0], axisv, &cb, sem_arg_bool(c, a[3], false, "keep_dims"));
}

static Val h_associative_scan(Call *c, Val **a) {
    Combiner cb = combiner_of(c, a[2]);
    return scan_generic(c, *a[0], a[1], &cb, sem_arg_bool(c, a[3], false, "reverse"));
}

static Val h_cumprod(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_promote_bf16(t, sem_to_tensor(t, *a[0], loc), loc);
    Combiner cb = {NULL, OP_MUL};
    Val zero = val_const(cv_int(0));
    return scan_generic(c, x, a[1] ? a[1] : &zero, &cb, sem_arg_bool(c, a[2], false, "reverse"));
}

const Builtin sem_builtins_reduce[] = {
    {"sum", "input,axis?,keep_dims?,dtype?", h_sum, 0},
    {"max", "input,axis?,return_indices?,return_indices_tie_break_left?,keep_dims?", h_max_min, 1},
    {"min", "input,axis?,return_indices?,return_indices_tie_break_left?,keep_dims?", h_max_min, 0},
    {"argmax", "input,axis?,tie_break_left?,keep_dims?", h_argmax_argmin, 1},
    {"argmin", "input,axis?,tie_break_left?,keep_dims?", h_argmax_argmin, 0},
    {"xor_sum", "input,axis?,keep_dims?", h_bitwise_reduce, RED_XOR},
    {"reduce_or", "input,axis?,keep_dims?", h_bitwise_reduce, RED_OR},
    {"softmax", "x,dim?,keep_dims?,ieee_rounding?", h_softmax, 0},
    {"histogram", "input,num_bins,mask?", h_histogram, 0},
    {"cumsum", "input,axis?,reverse?,dtype?", h_cumsum, 0},
    {"cumprod", "input,axis?,reverse?", h_cumprod, 0},
    {"reduce", "input,axis,combine_fn,keep_dims?", h_reduce, 0},
    {"associative_scan", "input,axis,combine_fn,reverse?", h_associative_scan, 0},
    {NULL, NULL, NULL, 0},
};
