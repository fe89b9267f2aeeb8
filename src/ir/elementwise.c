/* elementwise.c — what the element-wise ops compute (arithmetic, comparisons, unary math, fma,
 * where, casts), over n contiguous elements: the interpreter runs it on whole tiles and the
 * optimizer on single constants, so a folded value is the value the interpreter computes.
 * Numerics: integers wrap at the type width; // and % truncate like C; INT_MIN / -1 wraps;
 * integer division (and remainder) by zero gives 0 (unspecified on GPUs); fp16/bf16 are
 * computed in float (fma in double) and rounded back per op; float -> int truncates and
 * saturates, NaN -> 0; UMULHI is the high half of the unsigned product of the bit patterns;
 * int64/uint64 -> bf16/fp16 goes through double (exact below 2^53). fp32 cbrt, exp10, expm1,
 * log10, log1p, asin, acos, atan, atan2, pow and the hyperbolic functions go through double, rounded once
 * (so do their GPU forms). */
#include "ir/ir.h"

/* The tile loops are simple enough for the vectorizer, which GCC runs at -O2 only with its
 * "very cheap" cost model (no loops of unknown trip count). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("O3")
#endif

#include "ir/elem.h" /* after the pragma: its helpers run in the tile loops */
#include <math.h>
#include <string.h>

#define FOR_N for (int64_t i = 0; i < n; i++)
#define ID(x) (x)

/* float -> int, truncating toward zero, saturating at the type's range. NaN as the GPU's cvt
 * gives it (PTX ISA, cvt: 1 << (bits - 1) from an fp64 or into a 64-bit integer, else 0; an
 * 8-bit result is the low byte of a 16-bit conversion, so 0): from fp64 (src64) INT32_MIN,
 * -32768, 2^31 and 2^15 for i32, i16, u32 and u16; INT64_MIN and 2^63 for i64 and u64 from
 * any float; 0 for the rest. */
static uint64_t f2i_sat(double v, int dt, bool src64) {
    int bits = dt_bits(dt);
    if (isnan(v)) return bits == 64 || (src64 && bits >= 16 && dt != DT_I1) ? (uint64_t)1 << (bits - 1) : 0;
    if (dt_is_signed(dt)) {
        double lim = ldexp(1.0, bits - 1);
        if (v >= lim) return (uint64_t)(bits == 64 ? INT64_MAX : (int64_t)lim - 1);
        if (v <= -lim) return (uint64_t)(bits == 64 ? INT64_MIN : -(int64_t)lim);
        return (uint64_t)(int64_t)v;
    }
    if (dt == DT_I1) return v != 0;
    double lim = ldexp(1.0, bits);
    if (v <= 0) return 0;
    if (v >= lim) return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    return (uint64_t)v;
}

/* ---- binary -------------------------------------------------------------------------- */

#define INT_BIN(DT, T, UT, MT, BITS, S) \
    case DT: { \
        T *R = r; const T *A = a, *B = b; \
        switch (op) { \
        case OP_ADD: FOR_N R[i] = (T)((UT)A[i] + (UT)B[i]); break; \
        case OP_SUB: FOR_N R[i] = (T)((UT)A[i] - (UT)B[i]); break; \
        case OP_MUL: FOR_N R[i] = (T)((MT)(UT)A[i] * (MT)(UT)B[i]); break; \
        case OP_AND: FOR_N R[i] = (T)(A[i] & B[i]); break; \
        case OP_OR: FOR_N R[i] = (T)(A[i] | B[i]); break; \
        case OP_XOR: FOR_N R[i] = (T)(A[i] ^ B[i]); break; \
        case OP_MAX: FOR_N R[i] = A[i] > B[i] ? A[i] : B[i]; break; \
        case OP_MIN: FOR_N R[i] = A[i] < B[i] ? A[i] : B[i]; break; \
        case OP_DIV: case OP_REM: { \
            T mn = S ? (T)((UT)1 << (BITS - 1)) : 0; \
            if (op == OP_DIV) { \
                FOR_N R[i] = B[i] == 0 ? 0 : (S && A[i] == mn && B[i] == (T)-1) ? mn : (T)(A[i] / B[i]); \
            } else { \
                FOR_N R[i] = (B[i] == 0 || (S && B[i] == (T)-1)) ? 0 : (T)(A[i] % B[i]); \
            } \
            break; \
        } \
        case OP_SHL: FOR_N { uint64_t s = (uint64_t)(UT)B[i]; \
            R[i] = s >= BITS ? 0 : (T)((uint64_t)(UT)A[i] << s); } break; \
        case OP_SHR: \
            if (kind == 1) { \
                FOR_N { uint64_t s = (uint64_t)(UT)B[i]; \
                    int64_t x = (int64_t)(uint64_t)(UT)A[i]; \
                    if (BITS < 64) x = (int64_t)((uint64_t)(UT)A[i] << (64 - BITS)) >> (64 - BITS); \
                    R[i] = (T)(s >= BITS ? (x < 0 ? -1 : 0) : (x >> s)); } \
            } else { \
                FOR_N { uint64_t s = (uint64_t)(UT)B[i]; \
                    R[i] = s >= BITS ? 0 : (T)((uint64_t)(UT)A[i] >> s); } \
            } \
            break; \
        case OP_UMULHI: \
            if (BITS == 64) { \
                FOR_N R[i] = (T)(uint64_t)(((unsigned __int128)(uint64_t)(UT)A[i] * (uint64_t)(UT)B[i]) >> 64); \
            } else { \
                FOR_N R[i] = (T)(((uint64_t)(UT)A[i] * (uint64_t)(UT)B[i]) >> (BITS & 63)); \
            } \
            break; \
        default: return false; \
        } \
        break; \
    }

#define FLT_BIN(DT, T, FMOD, FMAX, FMIN) \
    case DT: { \
        T *R = r; const T *A = a, *B = b; \
        switch (op) { \
        case OP_ADD: FOR_N R[i] = A[i] + B[i]; break; \
        case OP_SUB: FOR_N R[i] = A[i] - B[i]; break; \
        case OP_MUL: FOR_N R[i] = A[i] * B[i]; break; \
        case OP_DIV: FOR_N R[i] = A[i] / B[i]; break; \
        case OP_REM: FOR_N R[i] = FMOD(A[i], B[i]); break; \
        case OP_MAX: \
            if (kind == 1) { FOR_N R[i] = (isnan(A[i]) || isnan(B[i])) ? A[i] + B[i] : FMAX(A[i], B[i]); } \
            else { FOR_N R[i] = FMAX(A[i], B[i]); } \
            break; \
        case OP_MIN: \
            if (kind == 1) { FOR_N R[i] = (isnan(A[i]) || isnan(B[i])) ? A[i] + B[i] : FMIN(A[i], B[i]); } \
            else { FOR_N R[i] = FMIN(A[i], B[i]); } \
            break; \
        default: return false; \
        } \
        break; \
    }

#define H_BIN(DT, TOF, FROMF) \
    case DT: { \
        uint16_t *R = r; const uint16_t *A = a, *B = b; \
        switch (op) { \
        case OP_ADD: FOR_N R[i] = FROMF(TOF(A[i]) + TOF(B[i])); break; \
        case OP_SUB: FOR_N R[i] = FROMF(TOF(A[i]) - TOF(B[i])); break; \
        case OP_MUL: FOR_N R[i] = FROMF(TOF(A[i]) * TOF(B[i])); break; \
        case OP_DIV: FOR_N R[i] = FROMF(TOF(A[i]) / TOF(B[i])); break; \
        case OP_REM: FOR_N R[i] = FROMF(fmodf(TOF(A[i]), TOF(B[i]))); break; \
        case OP_MAX: FOR_N { float x = TOF(A[i]), y = TOF(B[i]); \
            R[i] = FROMF((kind == 1 && (isnan(x) || isnan(y))) ? x + y : fmaxf(x, y)); } break; \
        case OP_MIN: FOR_N { float x = TOF(A[i]), y = TOF(B[i]); \
            R[i] = FROMF((kind == 1 && (isnan(x) || isnan(y))) ? x + y : fminf(x, y)); } break; \
        default: return false; \
        } \
        break; \
    }

static bool eval_binary(int op, int kind, int dt, int64_t n, void *r, const void *a,
                        const void *b) {
    switch (dt) {
    INT_BIN(DT_I8, int8_t, uint8_t, uint32_t, 8, 1)
    INT_BIN(DT_I16, int16_t, uint16_t, uint32_t, 16, 1)
    INT_BIN(DT_I32, int32_t, uint32_t, uint32_t, 32, 1)
    INT_BIN(DT_I64, int64_t, uint64_t, uint64_t, 64, 1)
    INT_BIN(DT_U8, uint8_t, uint8_t, uint32_t, 8, 0)
    INT_BIN(DT_U16, uint16_t, uint16_t, uint32_t, 16, 0)
    INT_BIN(DT_U32, uint32_t, uint32_t, uint32_t, 32, 0)
    INT_BIN(DT_U64, uint64_t, uint64_t, uint64_t, 64, 0)
    INT_BIN(DT_I1, uint8_t, uint8_t, uint32_t, 1, 0)
    FLT_BIN(DT_FP32, float, fmodf, fmaxf, fminf)
    FLT_BIN(DT_FP64, double, fmod, fmax, fmin)
    H_BIN(DT_FP16, h2f, f2h)
    H_BIN(DT_BF16, bf2f, f2bf)
    default: return false;
    }
    if (dt == DT_I1) {
        uint8_t *R = r;
        FOR_N R[i] &= 1;
    }
    return true;
}

/* CMP: result i1 of the operands' shape. */
#define CMP_LOOP(T, LD) \
    do { const T *A = a, *B = b; \
        switch (kind) { \
        case CMP_EQ: FOR_N R[i] = LD(A[i]) == LD(B[i]); break; \
        case CMP_NE: FOR_N R[i] = LD(A[i]) != LD(B[i]); break; \
        case CMP_LT: FOR_N R[i] = LD(A[i]) < LD(B[i]); break; \
        case CMP_LE: FOR_N R[i] = LD(A[i]) <= LD(B[i]); break; \
        case CMP_GT: FOR_N R[i] = LD(A[i]) > LD(B[i]); break; \
        case CMP_GE: FOR_N R[i] = LD(A[i]) >= LD(B[i]); break; \
        default: return false; \
        } } while (0)

static bool eval_cmp(int kind, int dt, int64_t n, uint8_t *R, const void *a, const void *b) {
    switch (dt) {
    case DT_I1: case DT_U8: CMP_LOOP(uint8_t, ID); break;
    case DT_I8: CMP_LOOP(int8_t, ID); break;
    case DT_I16: CMP_LOOP(int16_t, ID); break;
    case DT_U16: CMP_LOOP(uint16_t, ID); break;
    case DT_I32: CMP_LOOP(int32_t, ID); break;
    case DT_U32: CMP_LOOP(uint32_t, ID); break;
    case DT_I64: CMP_LOOP(int64_t, ID); break;
    case DT_U64: case DT_PTR: CMP_LOOP(uint64_t, ID); break;
    case DT_FP32: CMP_LOOP(float, ID); break;
    case DT_FP64: CMP_LOOP(double, ID); break;
    case DT_FP16: CMP_LOOP(uint16_t, h2f); break;
    case DT_BF16: CMP_LOOP(uint16_t, bf2f); break;
    default: return false;
    }
    return true;
}

/* ---- unary --------------------------------------------------------------------------- */

#define INT_UN(DT, T, UT, S) \
    case DT: { T *R = r; const T *A = a; \
        switch (op) { \
        case OP_NEG: FOR_N R[i] = (T)((UT)0 - (UT)A[i]); break; \
        case OP_NOT: FOR_N R[i] = (T)~A[i]; break; \
        case OP_ABS: FOR_N R[i] = (S && (UT)A[i] >> (sizeof(T) * 8 - 1)) ? (T)((UT)0 - (UT)A[i]) : A[i]; break; \
        default: return false; \
        } break; }

#define FLT_UN(DT, T, SFX) \
    case DT: { T *R = r; const T *A = a; \
        switch (op) { \
        case OP_NEG: FOR_N R[i] = -A[i]; break; \
        case OP_ABS: FOR_N R[i] = fabs##SFX(A[i]); break; \
        case OP_EXP: FOR_N R[i] = exp##SFX(A[i]); break; \
        case OP_EXP2: FOR_N R[i] = exp2##SFX(A[i]); break; \
        case OP_LOG: FOR_N R[i] = log##SFX(A[i]); break; \
        case OP_LOG2: FOR_N R[i] = log2##SFX(A[i]); break; \
        case OP_SQRT: FOR_N R[i] = sqrt##SFX(A[i]); break; \
        case OP_RSQRT: FOR_N R[i] = (T)1 / sqrt##SFX(A[i]); break; \
        case OP_SIN: FOR_N R[i] = sin##SFX(A[i]); break; \
        case OP_COS: FOR_N R[i] = cos##SFX(A[i]); break; \
        case OP_FLOOR: FOR_N R[i] = floor##SFX(A[i]); break; \
        case OP_CEIL: FOR_N R[i] = ceil##SFX(A[i]); break; \
        case OP_ERF: FOR_N R[i] = erf##SFX(A[i]); break; \
        case OP_TANH: FOR_N R[i] = tanh##SFX(A[i]); break; \
        default: return false; \
        } break; }

static float un_f(int op, float x) {
    switch (op) {
    case OP_NEG: return -x;
    case OP_ABS: return fabsf(x);
    case OP_EXP: return expf(x);
    case OP_EXP2: return exp2f(x);
    case OP_LOG: return logf(x);
    case OP_LOG2: return log2f(x);
    case OP_SQRT: return sqrtf(x);
    case OP_RSQRT: return 1.0f / sqrtf(x);
    case OP_SIN: return sinf(x);
    case OP_COS: return cosf(x);
    case OP_FLOOR: return floorf(x);
    case OP_CEIL: return ceilf(x);
    case OP_ERF: return erff(x);
    case OP_TANH: return tanhf(x);
    default: return x;
    }
}

static bool eval_unary(int op, int dt, int64_t n, void *r, const void *a) {
    if ((dt == DT_FP16 || dt == DT_BF16) && op == OP_NOT) return false;
    switch (dt) {
    INT_UN(DT_I8, int8_t, uint8_t, 1)
    INT_UN(DT_I16, int16_t, uint16_t, 1)
    INT_UN(DT_I32, int32_t, uint32_t, 1)
    INT_UN(DT_I64, int64_t, uint64_t, 1)
    INT_UN(DT_U8, uint8_t, uint8_t, 0)
    INT_UN(DT_U16, uint16_t, uint16_t, 0)
    INT_UN(DT_U32, uint32_t, uint32_t, 0)
    INT_UN(DT_U64, uint64_t, uint64_t, 0)
    INT_UN(DT_I1, uint8_t, uint8_t, 0)
    FLT_UN(DT_FP32, float, f)
    FLT_UN(DT_FP64, double, )
    case DT_FP16: {
        uint16_t *R = r; const uint16_t *A = a;
        if (op == OP_NEG) { FOR_N R[i] = A[i] ^ 0x8000u; }
        else if (op == OP_ABS) { FOR_N R[i] = A[i] & 0x7fffu; }
        else { FOR_N R[i] = f2h(un_f(op, h2f(A[i]))); }
        break;
    }
    case DT_BF16: {
        uint16_t *R = r; const uint16_t *A = a;
        if (op == OP_NEG) { FOR_N R[i] = A[i] ^ 0x8000u; }
        else if (op == OP_ABS) { FOR_N R[i] = A[i] & 0x7fffu; }
        else { FOR_N R[i] = f2bf(un_f(op, bf2f(A[i]))); }
        break;
    }
    default: return false;
    }
    if (dt == DT_I1) {
        uint8_t *R = r;
        FOR_N R[i] &= 1;
    }
    return true;
}

/* ---- libdevice's elementary functions (MATH1, MATH2) ------------------------------------ */

/* erfinv by Newton steps on erf from a rational first guess (Giles' single-precision form),
 * in double: within an ulp of double for |x| < 1; +-1 -> +-inf, |x| > 1 -> NaN. */
static double erfinv_d(double x) {
    if (isnan(x) || x < -1 || x > 1) return NAN;
    if (x == 1 || x == -1) return x * INFINITY;
    double w = -log((1.0 - x) * (1.0 + x)), p;
    if (w < 5.0) {
        w -= 2.5;
        p = 2.81022636e-08;
        p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;
        p = 0.00021858087 + p * w; p = -0.00125372503 + p * w; p = -0.00417768164 + p * w;
        p = 0.246640727 + p * w; p = 1.50140941 + p * w;
    } else {
        w = sqrt(w) - 3.0;
        p = -0.000200214257;
        p = 0.000100950558 + p * w; p = 0.00134934322 + p * w; p = -0.00367342844 + p * w;
        p = 0.00573950773 + p * w; p = -0.0076224613 + p * w; p = 0.00943887047 + p * w;
        p = 1.00167406 + p * w; p = 2.83297682 + p * w;
    }
    /* Newton on |x|, erf'(y) = 2/sqrt(pi) exp(-y^2). From |x| = 0.5 on, on log erfc(y) =
     * log(1 - |x|) (1 - |x| exact): erf(y) - |x| would lose every digit near 1, and the log
     * is nearly linear in y^2, so the guess converges even where it is poor (1 - 2^-53) */
    double a = fabs(x), y = p * a;
    for (int i = 0; i < 8; i++) {
        double d = 1.1283791670955126 * exp(-y * y), s;
        if (a < 0.5) {
            if (d == 0) break;
            s = (erf(y) - a) / d;
        } else {
            double c = erfc(y);
            if (c == 0 || d == 0) break;
            s = (log(1.0 - a) - log(c)) / (d / c);
        }
        y -= s;
        if (fabs(s) <= 0x1p-54 * y) break;
    }
    return copysign(y, x);
}

/* sin(pi x), cos(pi x): x mod 2 (exact), the quadrant n = rint(2r) and f = r - n/2 in
 * [-1/4, 1/4] (exact); pi f as yh + yl (fma, pi's low part), sin(yh) + yl cos(yh) or
 * cos(yh) - yl sin(yh) */
static double sincospi_d(double x, bool cos_) {
    if (isinf(x)) return NAN;
    if (isnan(x)) return x;
    double r = fmod(x, 2.0), n = nearbyint(2 * r), f = r - n / 2;
    int q = ((int)n + (cos_ ? 1 : 0)) & 3;
    double yh = M_PI * f, yl = fma(M_PI, f, -yh) + 0x1.1a62633145c07p-53 * f;
    double v = q & 1 ? cos(yh) - yl * sin(yh) : sin(yh) + yl * cos(yh);
    if (q & 2) v = -v;
    if (v == 0) v = cos_ ? 0.0 : copysign(0.0, x);
    return v;
}

/* cbrt (rcbrt: its reciprocal) within half an ulp nearly always: the C library's (glibc's
 * is off by up to 4 ulp) refined by a Newton step in long double */
static double cbrt_d(double x, bool rcp) {
    double y = cbrt(x);
    if (!isfinite(y) || y == 0) return rcp ? 1 / y : y;
    long double Y = y;
    Y -= (Y * Y * Y - (long double)x) / (3 * Y * Y);
    return rcp ? (double)(1 / Y) : (double)Y;
}

static double ldexp_arg(double e) {   /* an exponent beyond +-2200 gives the same result */
    return isnan(e) ? 0 : e > 2200 ? 2200 : e < -2200 ? -2200 : e;
}

#define MATH_CASES(T, S) \
    case MF_TRUNC: return trunc##S(x); \
    case MF_ROUND: return round##S(x); \
    case MF_RINT: return rint##S(x); \
    case MF_CBRT: return (T)cbrt_d(x, false); \
    case MF_RCBRT: return (T)cbrt_d(x, true); \
    case MF_EXP10: return (T)pow((double)10, (double)x); \
    case MF_EXPM1: return (T)expm1((double)x); \
    case MF_LOG10: return (T)log10((double)x); \
    case MF_LOG1P: return (T)log1p((double)x); \
    case MF_TAN: return (T)tan((double)x); \
    case MF_ASIN: return (T)asin((double)x); \
    case MF_ACOS: return (T)acos((double)x); \
    case MF_ATAN: return (T)atan((double)x); \
    case MF_SINH: return (T)sinh((double)x); \
    case MF_COSH: return (T)cosh((double)x); \
    case MF_ASINH: return (T)asinh((double)x); \
    case MF_ACOSH: return (T)acosh((double)x); \
    case MF_ATANH: return (T)atanh((double)x); \
    case MF_ERFC: return (T)erfc((double)x); \
    case MF_ERFINV: return (T)erfinv_d(x); \
    case MF_LOGB: return logb##S(x); \
    case MF_SINPI: return (T)sincospi_d(x, false); \
    case MF_COSPI: return (T)sincospi_d(x, true); \
    case MF_SATURATE: return isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 1 : x; \
    case MF_RCP: return (T)1 / x; \
    case MF_POW: return (T)pow((double)x, (double)y); \
    case MF_ATAN2: return (T)atan2((double)x, (double)y); \
    case MF_HYPOT: return hypot##S(x, y); \
    case MF_RHYPOT: return (T)1 / hypot##S(x, y); \
    case MF_REMAINDER: return remainder##S(x, y); \
    case MF_COPYSIGN: return copysign##S(x, y); \
    case MF_FDIM: return fdim##S(x, y); \
    case MF_NEXTAFTER: return nextafter##S(x, y); \
    case MF_LDEXP: return ldexp##S(x, (int)ldexp_arg(y)); \
    default: return NAN;

static float ftz_f(float x) { return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x; }

static float bits_f(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

/* CUDA's fast intrinsics (fp32 only) with libdevice's formulas: its constants, the .ftz
 * instructions flushing their subnormal inputs and results to zero, correctly rounded
 * stand-ins for ex2/lg2/sin/cos.approx (whose error CUDA documents). __expf(x) =
 * ex2(x * log2 e), __logf(x) = lg2(x) * ln 2, __powf(x, y) = ex2(y * lg2 x) (so NaN for a
 * negative x), __tanf = sin/cos. */
static bool fast_f(int fn, float x, float y, float *r) {
    float v;
    switch (fn) {
    case MF_FAST_EXP: v = exp2f(ftz_f(x * bits_f(0x3FB8AA3B))); break;
    case MF_FAST_EXP10: v = exp2f(ftz_f(x * bits_f(0x40549A78))); break;
    case MF_FAST_LOG2: v = log2f(ftz_f(x)); break;
    case MF_FAST_LOG: v = log2f(ftz_f(x)) * bits_f(0x3F317218); break;
    case MF_FAST_LOG10: v = log2f(ftz_f(x)) * bits_f(0x3E9A209B); break;
    case MF_FAST_SIN: v = sinf(ftz_f(x)); break;
    case MF_FAST_COS: v = cosf(ftz_f(x)); break;
    case MF_FAST_TAN: v = ftz_f(ftz_f(sinf(ftz_f(x))) / ftz_f(cosf(ftz_f(x)))); break;
    case MF_FAST_POW: v = exp2f(ftz_f(y * log2f(ftz_f(x)))); break;
    default: return false;
    }
    *r = ftz_f(v);
    return true;
}

static float math_f(int fn, float x, float y) {
    float r;
    if (fast_f(fn, x, y, &r)) return r;
    switch (fn) { MATH_CASES(float, f) }
}

static double math_d(int fn, double x, double y) {
    switch (fn) { MATH_CASES(double, ) }
}

static bool eval_math(int fn, int dt, int64_t n, void *r, const void *a, const void *b) {
    if (fn < 0 || fn >= MF_COUNT || (fn >= MF_FIRST2) != (b != NULL)) return false;
    if (dt == DT_FP32) {
        float *R = r; const float *A = a, *B = b;
        FOR_N R[i] = math_f(fn, A[i], B ? B[i] : 0);
    } else if (dt == DT_FP64) {
        double *R = r; const double *A = a, *B = b;
        FOR_N R[i] = math_d(fn, A[i], B ? B[i] : 0);
    } else {
        return false;
    }
    return true;
}

/* ---- fma, where, casts --------------------------------------------------------------- */

static bool eval_fma(int dt, int64_t n, void *r, const void *a, const void *b, const void *d) {
    switch (dt) {
    case DT_FP32: { float *R = r; const float *A = a, *B = b, *D = d; FOR_N R[i] = fmaf(A[i], B[i], D[i]); break; }
    case DT_FP64: { double *R = r; const double *A = a, *B = b, *D = d; FOR_N R[i] = fma(A[i], B[i], D[i]); break; }
    case DT_FP16: case DT_BF16:
        FOR_N wrf(dt, r, i, fma(rdf(dt, a, i), rdf(dt, b, i), rdf(dt, d, i)), 0);
        break;
    default:
        if (!dt_is_int(dt)) return false;
        FOR_N wri(dt, r, i, (uint64_t)rdi(dt, a, i) * (uint64_t)rdi(dt, b, i) + (uint64_t)rdi(dt, d, i));
        break;
    }
    return true;
}

static bool eval_where(int es, int64_t n, void *r, const uint8_t *C, const void *a,
                       const void *b) {
    switch (es) {
    case 1: { uint8_t *R = r; const uint8_t *A = a, *B = b; FOR_N R[i] = C[i] ? A[i] : B[i]; break; }
    case 2: { uint16_t *R = r; const uint16_t *A = a, *B = b; FOR_N R[i] = C[i] ? A[i] : B[i]; break; }
    case 4: { uint32_t *R = r; const uint32_t *A = a, *B = b; FOR_N R[i] = C[i] ? A[i] : B[i]; break; }
    case 8: { uint64_t *R = r; const uint64_t *A = a, *B = b; FOR_N R[i] = C[i] ? A[i] : B[i]; break; }
    default: return false;
    }
    return true;
}

static bool eval_cast(int sd, int dd, int rtz, int64_t n, void *d, const void *s) {
    if (sd == dd) { memcpy(d, s, (size_t)n * (size_t)dt_size(dd)); return true; }
    /* common fast paths */
    if (sd == DT_FP16 && dd == DT_FP32) { const uint16_t *S = s; float *D = d; FOR_N D[i] = h2f(S[i]); return true; }
    if (sd == DT_BF16 && dd == DT_FP32) { const uint16_t *S = s; float *D = d; FOR_N D[i] = bf2f(S[i]); return true; }
    if (sd == DT_I32 && dd == DT_FP32) { const int32_t *S = s; float *D = d; FOR_N D[i] = (float)S[i]; return true; }
    if (sd == DT_I32 && dd == DT_I64) { const int32_t *S = s; int64_t *D = d; FOR_N D[i] = S[i]; return true; }
    if (sd == DT_FP32 && dd == DT_FP64) { const float *S = s; double *D = d; FOR_N D[i] = S[i]; return true; }
    if (dd == DT_I1) {
        uint8_t *D = d;
        if (dt_is_float(sd)) { FOR_N D[i] = rdf(sd, s, i) != 0.0; }
        else { FOR_N D[i] = rdi(sd, s, i) != 0; }
        return true;
    }
    if (dt_is_float(sd)) {
        if (dt_is_float(dd)) { FOR_N wrf(dd, d, i, rdf(sd, s, i), rtz); }
        else { FOR_N wri(dd, d, i, f2i_sat(rdf(sd, s, i), dd, sd == DT_FP64)); }
        return true;
    }
    /* integer or pointer source */
    if (dt_is_float(dd)) {
        bool sgn = dt_is_signed(sd);
        if (dd == DT_FP32) {
            float *D = d;
            if (sgn) { FOR_N D[i] = (float)rdi(sd, s, i); }
            else { FOR_N D[i] = (float)(uint64_t)rdi(sd, s, i); }
        } else if (sgn) {
            FOR_N wrf(dd, d, i, (double)rdi(sd, s, i), 0);
        } else {
            FOR_N wrf(dd, d, i, (double)(uint64_t)rdi(sd, s, i), 0);
        }
        return true;
    }
    FOR_N wri(dd, d, i, (uint64_t)rdi(sd, s, i));
    return true;
}

/* 8-bit floats: computed in fp32 (exact for + - * and exact enough for one rounding: fp32
 * has more than 2p+2 bits) and rounded back as .to() rounds, a chunk at a time. */
enum { F8_CHUNK = 256 };

static void f8_load(int dt, const void *p, int64_t o, int64_t m, float *x) {
    for (int64_t i = 0; i < m; i++) x[i] = (float)fp8_to_double(dt, ((const uint8_t *)p)[o + i]);
}

static bool eval_fp8(const Inst *in, int dt, int adt, int64_t n, void *r, const void *const *a) {
    float x[3][F8_CHUNK], z[F8_CHUNK];
    int na = in->op == OP_FMA ? 3 : in->op == OP_CMP ? 2 : in->nargs;
    if (na > 3) return false;
    for (int64_t o = 0; o < n; o += F8_CHUNK) {
        int64_t m = n - o < F8_CHUNK ? n - o : F8_CHUNK;
        for (int k = 0; k < na; k++) f8_load(adt, a[k], o, m, x[k]);
        bool ok;
        switch (in->op) {
        case OP_CMP: ok = eval_cmp(in->attr.kind, DT_FP32, m, (uint8_t *)r + o, x[0], x[1]); break;
        case OP_FMA: ok = eval_fma(DT_FP32, m, z, x[0], x[1], x[2]); break;
        case OP_NEG: case OP_NOT: case OP_ABS: case OP_EXP: case OP_EXP2: case OP_LOG:
        case OP_LOG2: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_FLOOR:
        case OP_CEIL: case OP_ERF: case OP_TANH:
            ok = in->op != OP_NOT && eval_unary(in->op, DT_FP32, m, z, x[0]);
            break;
        default: ok = eval_binary(in->op, in->attr.kind, DT_FP32, m, z, x[0], x[1]); break;
        }
        if (!ok) return false;
        if (in->op != OP_CMP)
            for (int64_t i = 0; i < m; i++) ((uint8_t *)r)[o + i] = (uint8_t)fp8_from_double(dt, z[i], 0);
    }
    return true;
}

bool ir_eval(const IrFunc *f, const Inst *in, int64_t n, void *r, const void *const *a) {
    int dt = f->types[in->res[0]].dt;
    bool fp8 = in->nargs > 0 && dt_is_fp8(f->types[in->args[0]].dt);
    switch (in->op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_REM: case OP_AND: case OP_OR:
    case OP_XOR: case OP_SHL: case OP_SHR: case OP_MAX: case OP_MIN: case OP_UMULHI:
        if (fp8) return eval_fp8(in, dt, f->types[in->args[0]].dt, n, r, a);
        return eval_binary(in->op, in->attr.kind, dt, n, r, a[0], a[1]);
    case OP_CMP:
        if (fp8) return eval_fp8(in, dt, f->types[in->args[0]].dt, n, r, a);
        return eval_cmp(in->attr.kind, f->types[in->args[0]].dt, n, r, a[0], a[1]);
    case OP_NEG: case OP_NOT: case OP_ABS: case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2:
    case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_FLOOR: case OP_CEIL:
    case OP_ERF: case OP_TANH:
        if (fp8) return eval_fp8(in, dt, f->types[in->args[0]].dt, n, r, a);
        return eval_unary(in->op, dt, n, r, a[0]);
    case OP_MATH1: return eval_math(in->attr.kind, dt, n, r, a[0], NULL);
    case OP_MATH2: return eval_math(in->attr.kind, dt, n, r, a[0], a[1]);
    case OP_FMA:
        if (fp8) return eval_fp8(in, dt, f->types[in->args[0]].dt, n, r, a);
        return eval_fma(dt, n, r, a[0], a[1], a[2]);
    case OP_WHERE: return eval_where(dt_size(dt), n, r, a[0], a[1], a[2]);
    case OP_CAST: return eval_cast(f->types[in->args[0]].dt, dt, in->attr.kind == 1, n, r, a[0]);
    default: return false;
    }
}
