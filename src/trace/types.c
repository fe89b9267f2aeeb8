/* types.c — Triton's type rules as pure functions: literal typing (to_tensor_type),
 * binary-operation promotion (computation_type_impl + integer_promote_impl), numpy
 * broadcasting of shapes, and dtype names (tl.float32, "fp32", ...). No IR here. */
#include "trace/trace.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

bool literal_dtype(const CVal *c, int *dt) {
    switch (c->kind) {
    case CV_BOOL: *dt = DT_I1; return true;
    case CV_INT:
        if (c->big) { *dt = DT_U64; return true; }           /* [2^63, 2^64) */
        if (c->v.i >= -2147483648LL && c->v.i < 2147483648LL) *dt = DT_I32;
        else if (c->v.i >= 2147483648LL && c->v.i < 4294967296LL) *dt = DT_U32;
        else *dt = DT_I64;
        return true;
    case CV_FLOAT: {
        double x = c->v.f, ax = fabs(x);
        if (x == 0 || isinf(x) || isnan(x) || (ax >= 0x1p-126 && ax <= (double)FLT_MAX))
            *dt = DT_FP32;
        else
            *dt = DT_FP64;
        return true;
    }
    default: return false;
    }
}

/* Triton's dtype.__repr__: "triton.language.float32" (codegen names). */
static const char *tl_repr(int d) {
    switch (d) {
    case DT_I1: return "triton.language.int1";
    case DT_I8: return "triton.language.int8";
    case DT_I16: return "triton.language.int16";
    case DT_I32: return "triton.language.int32";
    case DT_I64: return "triton.language.int64";
    case DT_U8: return "triton.language.uint8";
    case DT_U16: return "triton.language.uint16";
    case DT_U32: return "triton.language.uint32";
    case DT_U64: return "triton.language.uint64";
    case DT_FP16: return "triton.language.float16";
    case DT_BF16: return "triton.language.bfloat16";
    case DT_FP32: return "triton.language.float32";
    case DT_FP64: return "triton.language.float64";
    case DT_FP8E5: return "triton.language.float8e5";
    case DT_FP8E4NV: return "triton.language.float8e4nv";
    case DT_FP8E4B15: return "triton.language.float8e4b15";
    default: return "triton.language.void";
    }
}

static int integer_promote(int a, int b) {
    int ar = dt_bits(a), br = dt_bits(b);
    bool au = dt_is_unsigned(a), bu = dt_is_unsigned(b);
    if (au == bu) return ar > br ? a : b;
    if (au) return ar >= br ? a : b;
    return br >= ar ? b : a;
}

int promote_dtypes(int a, int b, PyOp op, char *msg, size_t n) {
    bool div_or_mod = op == PY_DIV || op == PY_FLOORDIV || op == PY_MOD;
    bool bitwise = op == PY_BITAND || op == PY_BITOR || op == PY_BITXOR || op == PY_LSHIFT ||
                   op == PY_RSHIFT;
    int r = DT_VOID;
    if (msg && n) msg[0] = 0;
    if (!dt_is_int(a) && !dt_is_float(a)) goto bad;
    if (!dt_is_int(b) && !dt_is_float(b)) goto bad;
    if (a == DT_FP64 || b == DT_FP64) r = DT_FP64;
    else if (a == DT_FP32 || b == DT_FP32) r = DT_FP32;
    else if (a == DT_FP16 || b == DT_FP16) r = div_or_mod ? DT_FP32 : DT_FP16;
    else if (a == DT_BF16 && b == DT_BF16) r = div_or_mod ? DT_FP32 : DT_BF16;
    else if (a == DT_BF16 || b == DT_BF16) r = DT_FP32;
    else if (dt_is_fp8(a) && dt_is_fp8(b)) r = a == b ? a : DT_FP16;
    else if (dt_is_fp8(a) || dt_is_fp8(b)) goto bad;
    else {
        /* both integers */
        if (div_or_mod && dt_is_unsigned(a) != dt_is_unsigned(b)) {
            snprintf(msg, n,
                     "Cannot use /, #, or %% with %s and %s because they have different "
                     "signedness;this is unlikely to result in a useful answer. Cast them to the "
                     "same signedness.",
                     tl_repr(a), tl_repr(b));
            return DT_VOID;
        }
        r = integer_promote(a, b);
    }
    if (op == PY_FLOORDIV && !dt_is_int(r)) {
        snprintf(msg, n, "unexpected type %s", dt_name(r));
        return DT_VOID;
    }
    if (bitwise && !dt_is_int(r)) {
        snprintf(msg, n, "invalid operands of type %s and %s", tl_repr(r), tl_repr(r));
        return DT_VOID;
    }
    return r;
bad:
    snprintf(msg, n, "unexpected type %s and %s", dt_name(a), dt_name(b));
    return DT_VOID;
}

bool broadcast_shapes(const Type *a, const Type *b, int *rank, int32_t *shape, char *msg,
                      size_t n) {
    int r = a->rank > b->rank ? a->rank : b->rank;
    int32_t sa[TC_MAX_RANK], sb[TC_MAX_RANK];
    for (int i = 0; i < r; i++) {
        int ia = i - (r - a->rank), ib = i - (r - b->rank);
        sa[i] = ia >= 0 ? a->shape[ia] : 1;
        sb[i] = ib >= 0 ? b->shape[ib] : 1;
    }
    for (int i = 0; i < r; i++) {
        if (sa[i] == sb[i] || sb[i] == 1) shape[i] = sa[i];
        else if (sa[i] == 1) shape[i] = sb[i];
        else {
            if (msg && n)
                snprintf(msg, n,
                         "Cannot make_shape_compatible: incompatible dimensions at index %d: "
                         "%d and %d",
                         i, sa[i], sb[i]);
            return false;
        }
    }
    *rank = r;
    return true;
}

int dtype_from_tl_name(const char *name) {
    static const struct { const char *name; int dt; } names[] = {
        {"int1", DT_I1},      {"i1", DT_I1},        {"bool", DT_I1},     {"int8", DT_I8},
        {"i8", DT_I8},        {"int16", DT_I16},    {"i16", DT_I16},     {"int32", DT_I32},
        {"i32", DT_I32},      {"int64", DT_I64},    {"i64", DT_I64},     {"uint8", DT_U8},
        {"u8", DT_U8},        {"uint16", DT_U16},   {"u16", DT_U16},     {"uint32", DT_U32},
        {"u32", DT_U32},      {"uint64", DT_U64},   {"u64", DT_U64},     {"float16", DT_FP16},
        {"fp16", DT_FP16},    {"half", DT_FP16},    {"bfloat16", DT_BF16}, {"bf16", DT_BF16},
        {"float32", DT_FP32}, {"fp32", DT_FP32},    {"float", DT_FP32},  {"float64", DT_FP64},
        {"fp64", DT_FP64},    {"double", DT_FP64},
        {"float8e5", DT_FP8E5}, {"fp8e5", DT_FP8E5}, {"float8e4nv", DT_FP8E4NV},
        {"fp8e4nv", DT_FP8E4NV}, {"float8e4b15", DT_FP8E4B15}, {"fp8e4b15", DT_FP8E4B15},
    };
    if (!name) return DT_VOID;
    if (strncmp(name, "triton.language.", 16) == 0) name += 16;
    else if (strncmp(name, "tl.", 3) == 0) name += 3;
    for (int i = 0; i < COUNT_OF(names); i++)
        if (strcmp(names[i].name, name) == 0) return names[i].dt;
    return DT_VOID; /* unknown */
}
