/* builtins_math.c — element-wise builtins: the math functions (exp ... tanh, sqrt_rn), where,
 * maximum/minimum/clamp (with propagate_nan), abs, fma, umulhi, fdiv/div_rn, cdiv, sigmoid,
 * tl.cast / tensor.to, swizzle2d, and the random numbers of language/random.py (Philox
 * 4x32/4x64 and the uniform/normal transforms), traced as Triton's @jit code would be. */
#include "trace/sem.h"

#include <math.h>
#include <string.h>

void sem_check_float(Call *c, Val x, bool fp32_only) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (x.type.dt == DT_FP32 || (!fp32_only && x.type.dt == DT_FP64)) return;
    FAIL("Expected dtype %s but got %s", fp32_only ? "['fp32']" : "['fp32', 'fp64']",
         x.type.dt == DT_PTR ? "pointer" : sem_tl_name(x.type.dt));
}

static int nan_mode(Call *c, const Val *v) {
    if (!v) return 0;
    if (v->kind == V_CONST && (v->c.kind == CV_INT || v->c.kind == CV_BOOL)) return v->c.v.i != 0;
    if (v->kind == V_CONST && v->c.kind == CV_STR) return strcmp(v->c.v.s, "ALL") == 0;
    if ((v->kind == V_BUILTIN || v->kind == V_MODULE) && v->path) {
        size_t n = strlen(v->path);
        if (n >= 4 && strcmp(v->path + n - 4, ".ALL") == 0) return 1;
        if (n >= 5 && strcmp(v->path + n - 5, ".NONE") == 0) return 0;
    }
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    FAIL("propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL");
}

Val sem_minmax(Call *c, Val x, Val y, int op, int nan) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_promote_bf16(t, sem_to_tensor(t, x, loc), loc);
    y = sem_promote_bf16(t, sem_to_tensor(t, y, loc), loc);
    sem_bin_check(t, PY_NOOP, "max", &x, &y, false, false, true, loc);
    if (x.type.dt == DT_PTR) FAIL("Unexpected dtype %s", sem_tl_repr(t, type_elem(x.type)));
    return sem_emit2(t, op, x, y, x.type, dt_is_float(x.type.dt) ? nan : 0, loc);
}

Val sem_where(Trace *t, Val cond, Val x, Val y, SrcLoc loc) {
    cond = sem_to_tensor(t, cond, loc);
    if (cond.type.dt != DT_I1) cond = sem_cast_impl(t, cond, type_scalar(DT_I1), 0, loc);
    sem_bin_check(t, PY_NOOP, "where", &x, &y, true, true, true, loc);
    if (x.type.dt == DT_PTR || y.type.dt == DT_PTR) {
        if (!sem_same_elem(type_elem(x.type), type_elem(y.type)))
            FAIL("invalid operands of type %s and %s", sem_tl_repr(t, type_elem(x.type)), sem_tl_repr(t, type_elem(y.type)));
    }
    sem_bcast_pair(t, &cond, &x, loc);
    sem_bcast_pair(t, &x, &y, loc);
    cond = sem_broadcast_to(t, cond, x.type.rank, x.type.shape, loc);
    Attr at = {0};
    int args[3] = {cond.id, x.id, y.id};
    return sem_emit_v(t, OP_WHERE, args, 3, x.type, at, loc);
}

static Val unary_math(Call *c, Val x, int op, bool fp32_only) {
    Trace *t = c->t;
    x = sem_to_tensor(t, x, c->loc);
    sem_check_float(c, x, fp32_only);
    return sem_emit1(t, op, x, x.type, c->loc);
}

Val sem_abs(Trace *t, Val x, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    if (dt_is_float(x.type.dt) || dt_is_signed(x.type.dt)) return sem_emit1(t, OP_ABS, x, x.type, loc);
    if (dt_is_unsigned(x.type.dt)) return x;
    FAIL("Unexpected dtype %s", sem_tl_repr(t, type_elem(x.type)));
}

/* Python's floor division / modulo / min / max on constexprs (triton.cdiv etc.) */
static int64_t py_floordiv(Trace *t, int64_t a, int64_t b, SrcLoc loc) {
    if (b == 0) FAIL("integer division or modulo by zero");
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

Val sem_cdiv(Call *c, Val x, Val d) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (x.kind == V_CONST && d.kind == V_CONST) {
        if (x.c.kind == CV_INT && d.c.kind == CV_INT)
            return val_const(cv_int(py_floordiv(t, x.c.v.i + d.c.v.i - 1, d.c.v.i, loc)));
        if (sem_is_num(&x) && sem_is_num(&d)) {
            double dd = cv_to_double(&d.c);
            if (dd == 0) FAIL("float floor division by zero");
            return val_const(cv_float(floor((cv_to_double(&x.c) + dd - 1) / dd)));
        }
        FAIL("cdiv() arguments must be numbers");
    }
    Val s = sem_binary(t, PY_ADD, x, d, loc);
    s = sem_binary(t, PY_SUB, s, val_const(cv_int(1)), loc);
    return sem_binary(t, PY_FLOORDIV, s, d, loc);
}

Val sem_fdiv(Call *c, Val x, Val y) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_to_tensor(t, x, loc);
    y = sem_to_tensor(t, y, loc);
    if (!dt_is_float(x.type.dt) || !dt_is_float(y.type.dt))
        FAIL("both operands of fdiv must have floating scalar type");
    if (x.type.dt != y.type.dt)
        FAIL("both operands of fdiv must have the same type, got %s and %s", sem_tl_name(x.type.dt),
             sem_tl_name(y.type.dt));
    sem_bcast_pair(t, &x, &y, loc);
    return sem_emit2(t, OP_DIV, x, y, x.type, 0, loc);
}

static Val h_math(Call *c, Val **a) { return unary_math(c, *a[0], c->b->arg, false); }
static Val h_math_rn(Call *c, Val **a) { return unary_math(c, *a[0], c->b->arg, true); }

static Val h_where(Call *c, Val **a) { return sem_where(c->t, *a[0], *a[1], *a[2], c->loc); }

static Val h_minmax(Call *c, Val **a) {
    return sem_minmax(c, *a[0], *a[1], c->b->arg, nan_mode(c, a[2]));
}

static Val h_clamp(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int nan = nan_mode(c, a[3]);
    Val x = sem_promote_bf16(t, sem_to_tensor(t, *a[0], loc), loc);
    Val lo = sem_promote_bf16(t, sem_to_tensor(t, *a[1], loc), loc);
    Val hi = sem_promote_bf16(t, sem_to_tensor(t, *a[2], loc), loc);
    sem_bin_check(t, PY_NOOP, "clamp", &lo, &hi, false, false, true, loc);
    sem_bin_check(t, PY_NOOP, "clamp", &x, &lo, false, false, true, loc);
    sem_bin_check(t, PY_NOOP, "clamp", &x, &hi, false, false, true, loc);
    if (!dt_is_float(x.type.dt))
        FAIL("Unexpected dtype %s. Only floating point clamp is supported", sem_tl_name(x.type.dt));
    lo = sem_broadcast_to(t, lo, x.type.rank, x.type.shape, loc);
    Val m = sem_emit2(t, OP_MAX, x, lo, x.type, nan, loc);
    return sem_emit2(t, OP_MIN, m, hi, x.type, nan, loc);
}

static Val h_abs(Call *c, Val **a) { return sem_abs(c->t, *a[0], c->loc); }

static Val h_fma(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc), z = sem_to_tensor(t, *a[2], loc);
    sem_bin_check(t, PY_NOOP, "fma", &x, &y, false, false, true, loc);
    sem_bin_check(t, PY_NOOP, "fma", &z, &x, false, false, true, loc);
    sem_bin_check(t, PY_NOOP, "fma", &z, &y, false, false, true, loc);
    sem_bin_check(t, PY_NOOP, "fma", &z, &x, false, false, true, loc); /* z may have grown with y */
    if (!dt_is_float(z.type.dt)) FAIL("fma() requires floating point operands, got %s", sem_tl_name(z.type.dt));
    Attr at = {0};
    int args[3] = {x.id, y.id, z.id};
    return sem_emit_v(t, OP_FMA, args, 3, z.type, at, loc);
}

static Val h_umulhi(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
    int ds[2] = {x.type.dt, y.type.dt};
    for (int i = 0; i < 2; i++)
        if (ds[i] != DT_I32 && ds[i] != DT_I64 && ds[i] != DT_U32 && ds[i] != DT_U64)
            FAIL("Expected dtype ['int32', 'int64', 'uint32', 'uint64'] but got %s", sem_tl_name(ds[i]));
    sem_bin_check(t, PY_NOOP, "umulhi", &x, &y, false, false, true, loc);
    return sem_emit2(t, OP_UMULHI, x, y, x.type, 0, loc);
}

static Val h_fdiv(Call *c, Val **a) { return sem_fdiv(c, *a[0], *a[1]); }

static Val h_div_rn(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
    sem_check_float(c, x, true);
    sem_check_float(c, y, true);
    sem_bcast_pair(t, &x, &y, loc);
    return sem_emit2(t, OP_DIV, x, y, x.type, 0, loc);
}

static Val h_cdiv(Call *c, Val **a) { return sem_cdiv(c, *a[0], *a[1]); }

static Val h_sigmoid(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x = sem_to_tensor(t, *a[0], loc);
    Val e = unary_math(c, sem_unary(t, PY_USUB, x, loc), OP_EXP, false);
    Val d = sem_binary(t, PY_ADD, val_const(cv_int(1)), e, loc);
    return sem_binary(t, PY_DIV, val_const(cv_int(1)), d, loc);
}

/* tl.cast(input, dtype, fp_downcast_rounding, bitcast) and tensor.to */
static Val h_cast(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Type dt = sem_arg_dtype(c, a[1], "dtype");
    bool bc = sem_arg_bool(c, a[3], false, "bitcast");
    const char *r = sem_arg_str(c, a[2], NULL, "fp_downcast_rounding");
    int rounding = 0;
    if (r) {
        if (strcmp(r, "rtz") == 0) rounding = 1;
        else if (strcmp(r, "rtne") != 0) FAIL("unsupported rounding mode %s", r);
    }
    if (bc) return sem_bitcast(t, *a[0], dt, loc);
    Val x = sem_to_tensor(t, *a[0], loc);
    if (r && !(dt_is_float(x.type.dt) && dt_is_float(dt.dt) && dt_bits(x.type.dt) > dt_bits(dt.dt)))
        FAIL("fp_downcast_rounding should be set only for truncating fp conversions, source scalar "
             "type is %s and destination type is %s", sem_tl_name(x.type.dt), sem_tl_name(dt.dt));
    return sem_cast_impl(t, x, dt, rounding, loc);
}

/* ---- standard.py's swizzle2d, traced like Triton's @jit code ------------------------------- */

/* A binary operator with Python semantics on two constexpr ints (as the tracer folds them). */
static Val arith(Trace *t, PyOp op, Val a, Val b, SrcLoc loc) {
    if (a.kind == V_CONST && b.kind == V_CONST && a.c.kind == CV_INT && b.c.kind == CV_INT &&
        !a.c.big && !b.c.big) {
        int64_t x = a.c.v.i, y = b.c.v.i;
        switch (op) {
        case PY_ADD: return val_const(cv_int(x + y));
        case PY_SUB: return val_const(cv_int(x - y));
        case PY_MUL: return val_const(cv_int(x * y));
        case PY_FLOORDIV: return val_const(cv_int(py_floordiv(t, x, y, loc)));
        case PY_MOD: return val_const(cv_int(x - py_floordiv(t, x, y, loc) * y));
        default: break;
        }
    }
    return sem_binary(t, op, a, b, loc);
}

static Val h_swizzle2d(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val i = *a[0], j = *a[1], size_i = *a[2], size_j = *a[3], size_g = *a[4];
    Val ij = arith(t, PY_ADD, arith(t, PY_MUL, i, size_j, loc), j, loc);
    Val size_gj = arith(t, PY_MUL, size_g, size_j, loc);
    Val group_id = arith(t, PY_FLOORDIV, ij, size_gj, loc);
    Val off_i = arith(t, PY_MUL, group_id, size_g, loc);
    Val rem = arith(t, PY_SUB, size_i, off_i, loc);
    if (rem.kind == V_CONST && size_g.kind == V_CONST && sem_is_num(&rem) && sem_is_num(&size_g))
        size_g = cv_to_double(&rem.c) < cv_to_double(&size_g.c) ? rem : size_g;
    else
        size_g = sem_minmax(c, rem, size_g, OP_MIN, 0);
    ij = arith(t, PY_MOD, ij, size_gj, loc);
    Val out[2] = {arith(t, PY_ADD, off_i, arith(t, PY_MOD, ij, size_g, loc), loc), arith(t, PY_FLOORDIV, ij, size_g, loc)};
    return sem_tuple(t, out, 2);
}

/* ---- random numbers (language/random.py: Philox 4x32/4x64, traced as Triton's @jit code) ---- */

static Val kbig(uint64_t v) {
    CVal c = cv_int((int64_t)v);
    if (v >> 63) { c.big = true; c.v.u = v; }
    return val_const(c);
}

static Val umulhi_v(Trace *t, Val x, Val y, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    y = sem_to_tensor(t, y, loc);
    sem_bin_check(t, PY_NOOP, "umulhi", &x, &y, false, false, true, loc);
    return sem_emit2(t, OP_UMULHI, x, y, x.type, 0, loc);
}

static void philox_v(Call *c, Val seed, Val c0, Val c1, Val c2, Val c3, int64_t rounds, Val out[4]) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    seed = sem_to_tensor(t, seed, loc);
    if (!dt_is_int(seed.type.dt)) FAIL("philox: the seed must be an integer, got %s", sem_tl_name(seed.type.dt));
    Val cs[4] = {sem_to_tensor(t, c0, loc), sem_to_tensor(t, c1, loc), sem_to_tensor(t, c2, loc),
                 sem_to_tensor(t, c3, loc)};
    seed = sem_cast_impl(t, seed, type_scalar(DT_U64), 0, loc);
    int bits = dt_bits(cs[0].type.dt);
    Type it;
    Val k0, k1;
    if (bits == 32) {
        it = type_scalar(DT_U32);
        Val hi = sem_binary(t, PY_BITAND, sem_binary(t, PY_RSHIFT, seed, val_const(cv_int(32)), loc),
                            val_const(cv_int(0xffffffffLL)), loc);
        k1 = sem_cast_impl(t, hi, it, 0, loc);
        k0 = sem_cast_impl(t, sem_binary(t, PY_BITAND, seed, val_const(cv_int(0xffffffffLL)), loc), it, 0, loc);
    } else if (bits == 64) {
        it = type_scalar(DT_U64);
        int32_t one = 1;
        k1 = sem_const_num(t, type_block(DT_U64, 1, &one), 0, loc);
        k0 = seed;
    } else {
        FAIL("static_assert failed: bitwidth not supported in philox");
    }
    for (int i = 0; i < 4; i++) cs[i] = sem_bitcast(t, cs[i], it, loc);
    uint64_t KA = bits == 32 ? 0x9E3779B9ULL : 0x9E3779B97F4A7C15ULL;
    uint64_t KB = bits == 32 ? 0xBB67AE85ULL : 0xBB67AE8584CAA73BULL;
    uint64_t RA = bits == 32 ? 0xD2511F53ULL : 0xD2E7470EE14C6C93ULL;
    uint64_t RB = bits == 32 ? 0xCD9E8D57ULL : 0xCA5A826395121157ULL;
    for (int64_t r = 0; r < rounds; r++) {
        Val A = sem_to_tensor(t, kbig(RA), loc), B = sem_to_tensor(t, kbig(RB), loc);
        Val _c0 = cs[0], _c2 = cs[2];
        cs[0] = sem_binary(t, PY_BITXOR, sem_binary(t, PY_BITXOR, umulhi_v(t, B, _c2, loc), cs[1], loc), k0, loc);
        cs[2] = sem_binary(t, PY_BITXOR, sem_binary(t, PY_BITXOR, umulhi_v(t, A, _c0, loc), cs[3], loc), k1, loc);
        bool ns = t->no_sanitize;   /* random.py: tl.mul/tl.add(..., sanitize_overflow=False) */
        t->no_sanitize = true;
        cs[1] = sem_binary(t, PY_MUL, B, _c2, loc);
        cs[3] = sem_binary(t, PY_MUL, A, _c0, loc);
        k0 = sem_binary(t, PY_ADD, k0, kbig(KA), loc);
        k1 = sem_binary(t, PY_ADD, k1, kbig(KB), loc);
        t->no_sanitize = ns;
    }
    for (int i = 0; i < 4; i++) out[i] = cs[i];
}

static Val uint_to_uniform_float_v(Trace *t, Val x, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    Val scale;
    if (x.type.dt == DT_U32 || x.type.dt == DT_I32) {
        x = sem_bitcast(t, x, type_scalar(DT_I32), loc);
        scale = sem_to_tensor(t, val_const(cv_float(4.6566127342e-10)), loc);
    } else if (x.type.dt == DT_U64 || x.type.dt == DT_I64) {
        x = sem_bitcast(t, x, type_scalar(DT_I64), loc);
        scale = sem_to_tensor(t, val_const(cv_float(1.0842020432385337e-19)), loc);
    } else {
        FAIL("static_assert failed");
    }
    Val neg = sem_binary(t, PY_LT, x, val_const(cv_int(0)), loc);
    Val alt = sem_binary(t, PY_SUB, sem_unary(t, PY_USUB, x, loc), val_const(cv_int(1)), loc);
    x = sem_where(t, neg, alt, x, loc);
    return sem_binary(t, PY_MUL, x, scale, loc);
}

static void pair_uniform_to_normal_v(Call *c, Val u1, Val u2, Val out[2]) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    u1 = sem_minmax(c, val_const(cv_float(1.0e-7)), u1, OP_MAX, 0);
    Val th = sem_binary(t, PY_MUL, val_const(cv_float(6.283185307179586)), u2, loc);
    Val lg = unary_math(c, u1, OP_LOG, false);
    Val r = unary_math(c, sem_binary(t, PY_MUL, val_const(cv_float(-2.0)), lg, loc), OP_SQRT, false);
    out[0] = sem_binary(t, PY_MUL, r, unary_math(c, th, OP_COS, false), loc);
    out[1] = sem_binary(t, PY_MUL, r, unary_math(c, th, OP_SIN, false), loc);
}

static Val h_philox(Call *c, Val **a) {
    Val o[4];
    philox_v(c, *a[0], *a[1], *a[2], *a[3], *a[4], a[5] ? sem_arg_int(c, a[5], "n_rounds") : 10, o);
    return sem_tuple(c->t, o, 4);
}

static Val h_uint_to_uniform_float(Call *c, Val **a) {
    return uint_to_uniform_float_v(c->t, *a[0], c->loc);
}

static Val h_pair_uniform_to_normal(Call *c, Val **a) {
    Val o[2];
    pair_uniform_to_normal_v(c, *a[0], *a[1], o);
    return sem_tuple(c->t, o, 2);
}

/* rand, randn, randint and their 4x forms */
static Val h_random(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    const char *name = c->b->name;
    int64_t rounds = a[2] ? sem_arg_int(c, a[2], "n_rounds") : 10;
    Val off = sem_to_tensor(t, *a[1], loc);
    Val zero = sem_binary(t, PY_MUL, off, val_const(cv_int(0)), loc);
    Val o[4];
    philox_v(c, *a[0], off, zero, zero, zero, rounds, o);
    if (strcmp(name, "randint") == 0) return o[0];
    if (strcmp(name, "randint4x") == 0) return sem_tuple(t, o, 4);
    Val u[4];
    int nu = strcmp(name, "rand") == 0 ? 1 : strcmp(name, "randn") == 0 ? 2 : 4;
    for (int i = 0; i < nu; i++) u[i] = uint_to_uniform_float_v(t, o[i], loc);
    if (strcmp(name, "rand") == 0) return u[0];
    if (strcmp(name, "rand4x") == 0) return sem_tuple(t, u, 4);
    Val n[4];
    pair_uniform_to_normal_v(c, u[0], u[1], n);
    if (strcmp(name, "randn") == 0) return n[0];
    pair_uniform_to_normal_v(c, u[2], u[3], n + 2);
    return sem_tuple(t, n, 4);
}

/* ---- libdevice's elementary functions (libdevice.NAME) ---------------------------------- */

static bool fast_only_fp32(int fn) {
    return (fn >= MF_FAST_EXP && fn <= MF_FAST_TAN) || fn == MF_FAST_POW || fn == MF_SATURATE;
}

static Val libm1(Call *c, Val x, int fn) {
    Trace *t = c->t;
    x = sem_to_tensor(t, x, c->loc);
    sem_check_float(c, x, fast_only_fp32(fn));
    Attr at = {0};
    at.kind = fn;
    return sem_emit_v(t, OP_MATH1, &x.id, 1, x.type, at, c->loc);
}

static Val h_libm1(Call *c, Val **a) { return libm1(c, *a[0], c->b->arg); }

/* Two arguments: promoted to one float type, except pow's and ldexp's integer exponent
 * (libdevice's powi, ldexp: (fp32|fp64, int32)) */
static Val h_libm2(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int fn = c->b->arg;
    Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
    if ((fn == MF_POW || fn == MF_LDEXP) && dt_is_int(y.type.dt) && dt_is_float(x.type.dt)) {
        if (fn == MF_LDEXP && y.type.dt != DT_I32)
            FAIL("ldexp: the exponent must be int32, got %s", sem_tl_name(y.type.dt));
        sem_check_float(c, x, false);
        y = sem_cast_impl(t, y, type_scalar(x.type.dt), 0, loc);
    } else {
        if (fn == MF_LDEXP) FAIL("ldexp: expected (fp32 or fp64, int32) arguments, got %s and %s",
                                 sem_tl_name(x.type.dt), sem_tl_name(y.type.dt));
        sem_bin_check(t, PY_NOOP, c->b->name, &x, &y, false, false, true, loc);
        sem_check_float(c, x, fast_only_fp32(fn));
    }
    sem_bcast_pair(t, &x, &y, loc);
    Attr at = {0};
    at.kind = fn;
    int args[2] = {x.id, y.id};
    return sem_emit_v(t, OP_MATH2, args, 2, x.type, at, loc);
}

/* isnan, isinf, finitef / isfinited (-> int1), signbit (-> int32), ilogb (-> int32): composed
 * of comparisons, as libdevice computes them exactly */
static Val h_classify(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    const char *n = c->b->name;
    Val x = sem_to_tensor(t, *a[0], loc);
    bool f32 = !strcmp(n, "finitef"), f64 = !strcmp(n, "isfinited");
    sem_check_float(c, x, f32);
    if (f64 && x.type.dt != DT_FP64) FAIL("Expected dtype ['fp64'] but got %s", sem_tl_name(x.type.dt));
    Type bt = sem_i1_like(x.type);
    Val inf = sem_const_num(t, x.type, INFINITY, loc);
    if (!strcmp(n, "isnan")) return sem_emit2(t, OP_CMP, x, x, bt, CMP_NE, loc);
    if (!strcmp(n, "isinf")) return sem_emit2(t, OP_CMP, sem_abs(t, x, loc), inf, bt, CMP_EQ, loc);
    if (f32 || f64) return sem_emit2(t, OP_CMP, sem_abs(t, x, loc), inf, bt, CMP_LT, loc);
    Type i32 = type_scalar(DT_I32);
    if (!strcmp(n, "signbit")) {
        Val b = sem_bitcast(t, x, type_scalar(x.type.dt == DT_FP64 ? DT_I64 : DT_I32), loc);
        Val neg = sem_emit2(t, OP_CMP, b, sem_const_num(t, b.type, 0, loc), bt, CMP_LT, loc);
        return sem_cast_impl(t, neg, i32, 0, loc);
    }
    /* ilogb: logb's value; 0 -> INT_MIN, inf -> INT_MAX (the cast saturates), NaN -> INT_MIN */
    Val lb = sem_cast_impl(t, libm1(c, x, MF_LOGB), i32, 0, loc);
    Val nan = sem_emit2(t, OP_CMP, x, x, bt, CMP_NE, loc);
    return sem_where(t, nan, sem_const_num(t, lb.type, (double)INT32_MIN, loc), lb, loc);
}

/* llrint, llround: rounded, then to int64 (saturating); NaN -> INT64_MIN on both backends, as
 * libdevice's __nv_llrint (cvt.rni.s64: PTX converts NaN to MININT for 64-bit destinations) */
static Val h_llround(Call *c, Val **a) {
    Trace *t = c->t;
    Val r = libm1(c, *a[0], c->b->arg);
    Val v = sem_cast_impl(t, r, type_scalar(DT_I64), 0, c->loc);
    Val nan = sem_emit2(t, OP_CMP, r, r, sem_i1_like(r.type), CMP_NE, c->loc);
    CVal mn = cv_int(INT64_MIN);
    return sem_where(t, nan, sem_const(t, v.type, &mn, c->loc), v, c->loc);
}

static Val h_fmod(Call *c, Val **a) {
    Trace *t = c->t;
    Val x = sem_to_tensor(t, *a[0], c->loc), y = sem_to_tensor(t, *a[1], c->loc);
    sem_bin_check(t, PY_NOOP, "fmod", &x, &y, false, false, true, c->loc);
    sem_check_float(c, x, false);
    return sem_emit2(t, OP_REM, x, y, x.type, 0, c->loc);
}

static Val h_fast_dividef(Call *c, Val **a) {
    Trace *t = c->t;
    Val x = sem_to_tensor(t, *a[0], c->loc), y = sem_to_tensor(t, *a[1], c->loc);
    sem_check_float(c, x, true);
    sem_check_float(c, y, true);
    sem_bcast_pair(t, &x, &y, c->loc);
    return sem_emit2(t, OP_DIV, x, y, x.type, 0, c->loc);
}

#define LIBM1(name, fn) {name, "arg0", h_libm1, fn}
#define LIBM2(name, fn) {name, "arg0,arg1", h_libm2, fn}
#define CLASSIFY(name) {name, "arg0", h_classify, 0}

const Builtin sem_builtins_libdevice[] = {
    LIBM1("trunc", MF_TRUNC), LIBM1("round", MF_ROUND), LIBM1("rint", MF_RINT),
    LIBM1("nearbyint", MF_RINT), LIBM1("cbrt", MF_CBRT), LIBM1("rcbrt", MF_RCBRT),
    LIBM1("exp10", MF_EXP10), LIBM1("expm1", MF_EXPM1), LIBM1("log10", MF_LOG10),
    LIBM1("log1p", MF_LOG1P), LIBM1("tan", MF_TAN), LIBM1("asin", MF_ASIN),
    LIBM1("acos", MF_ACOS), LIBM1("atan", MF_ATAN), LIBM1("sinh", MF_SINH),
    LIBM1("cosh", MF_COSH), LIBM1("asinh", MF_ASINH), LIBM1("acosh", MF_ACOSH),
    LIBM1("atanh", MF_ATANH), LIBM1("erfc", MF_ERFC), LIBM1("erfinv", MF_ERFINV),
    LIBM1("logb", MF_LOGB), LIBM1("sinpi", MF_SINPI), LIBM1("cospi", MF_COSPI),
    LIBM1("saturatef", MF_SATURATE), LIBM1("fast_expf", MF_FAST_EXP),
    LIBM1("fast_exp10f", MF_FAST_EXP10), LIBM1("fast_logf", MF_FAST_LOG),
    LIBM1("fast_log2f", MF_FAST_LOG2), LIBM1("fast_log10f", MF_FAST_LOG10),
    LIBM1("fast_sinf", MF_FAST_SIN), LIBM1("fast_cosf", MF_FAST_COS),
    LIBM1("fast_tanf", MF_FAST_TAN),
    LIBM2("pow", MF_POW), LIBM2("atan2", MF_ATAN2), LIBM2("hypot", MF_HYPOT),
    LIBM2("rhypot", MF_RHYPOT), LIBM2("remainder", MF_REMAINDER),
    LIBM2("copysign", MF_COPYSIGN), LIBM2("fdim", MF_FDIM), LIBM2("nextafter", MF_NEXTAFTER),
    LIBM2("ldexp", MF_LDEXP), LIBM2("scalbn", MF_LDEXP), LIBM2("fast_powf", MF_FAST_POW),
    CLASSIFY("isnan"), CLASSIFY("isinf"), CLASSIFY("finitef"), CLASSIFY("isfinited"),
    CLASSIFY("signbit"), CLASSIFY("ilogb"),
    {"llrint", "arg0", h_llround, MF_RINT}, {"llround", "arg0", h_llround, MF_ROUND},
    {"fmod", "arg0,arg1", h_fmod, 0},
    {"fast_dividef", "arg0,arg1", h_fast_dividef, 0},
    {NULL, NULL, NULL, 0},
};

bool sem_libdevice_special(const char *name) {
    static const char *const special[] = {"j0", "j1", "y0", "y1", "jn", "yn", "cyl_bessel_i0",
        "cyl_bessel_i1", "lgamma", "tgamma", "erfcx", "erfcinv", "normcdf", "normcdfinv", NULL};
    for (int i = 0; special[i]; i++)
        if (!strcmp(special[i], name)) return true;
    return false;
}

#define MATH1(name, op) {name, "x", h_math, op}
#define RANDOM(name) {name, "seed,offset,n_rounds?", h_random, 0}

const Builtin sem_builtins_math[] = {
    MATH1("exp", OP_EXP), MATH1("exp2", OP_EXP2), MATH1("log", OP_LOG), MATH1("log2", OP_LOG2),
    MATH1("sqrt", OP_SQRT), MATH1("rsqrt", OP_RSQRT), MATH1("sin", OP_SIN), MATH1("cos", OP_COS),
    MATH1("floor", OP_FLOOR), MATH1("ceil", OP_CEIL), MATH1("erf", OP_ERF), MATH1("tanh", OP_TANH),
    {"sqrt_rn", "x", h_math_rn, OP_SQRT},
    {"where", "condition,x,y", h_where, 0},
    {"maximum", "x,y,propagate_nan?", h_minmax, OP_MAX},
    {"minimum", "x,y,propagate_nan?", h_minmax, OP_MIN},
    {"clamp", "x,min,max,propagate_nan?", h_clamp, 0},
    {"abs", "x", h_abs, 0},
    {"fma", "x,y,z", h_fma, 0},
    {"umulhi", "x,y", h_umulhi, 0},
    {"fdiv", "x,y,ieee_rounding?", h_fdiv, 0},
    {"div_rn", "x,y", h_div_rn, 0},
    {"cdiv", "x,div", h_cdiv, 0},
    {"sigmoid", "x", h_sigmoid, 0},
    {"cast", "input,dtype,fp_downcast_rounding?,bitcast?", h_cast, 0},
    {"to", "input,dtype,fp_downcast_rounding?,bitcast?", h_cast, 0},
    {"swizzle2d", "i,j,size_i,size_j,size_g", h_swizzle2d, 0},
    {"philox", "seed,c0,c1,c2,c3,n_rounds?", h_philox, 0},
    {"uint_to_uniform_float", "x", h_uint_to_uniform_float, 0},
    {"pair_uniform_to_normal", "u1,u2", h_pair_uniform_to_normal, 0},
    RANDOM("rand"), RANDOM("randn"), RANDOM("randint"), RANDOM("randint4x"), RANDOM("rand4x"),
    RANDOM("randn4x"),
    {NULL, NULL, NULL, 0},
};
