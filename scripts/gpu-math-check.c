/* gpu-math-check.c — run by scripts/gpu-math-check.sh on a machine with an NVIDIA GPU: every
 * libdevice function the GPU backend lowers (tests/kernels/kern.py's math1/math2), fp32 and
 * fp64, on a sweep of inputs (0, -0, +-inf, NaN, the smallest subnormal and normal, the
 * largest finite, halves, integers, large arguments, and log-uniform random values of both
 * signs), on the GPU and on the interpreter; the two must agree within the function's
 * tolerance in ulps (NaN with NaN), or, for the fast_* forms, within CUDA's documented
 * absolute/relative bounds. Also 16-bit atomic_cas (kern.py's cas16) and packed 16-bit
 * integer loads/stores (copy16). Prints one line per
 * function and "gpu-math-check: N functions, M failed"; exit status 1 if any failed. */
#include "tritonc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static double urand(void) {
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return (double)(rs >> 11) * 0x1p-53;
}

/* inputs: edge values, then random magnitudes 2^[lo, hi) of both signs */
static void sweep(double *x, int f64, double lo, double hi, int nonneg) {
    const double e[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
                        1, -1, 3, 1e6 + 0.5, -1e6 - 0.5, 0x1p23, 0x1p52, 1e30,
                        f64 ? 0x1p-1074 : 0x1p-149, f64 ? 0x1p-1022 : 0x1p-126,
                        f64 ? 1.7976931348623157e308 : 3.4028234663852886e38};
    int ne = (int)(sizeof e / sizeof e[0]);
    for (int i = 0; i < N; i++) {
        double v = i < ne ? e[i] : ldexp(1.0 + urand(), (int)(lo + (hi - lo) * urand()));
        if (i >= ne && !nonneg && urand() < 0.5) v = -v;
        x[i] = f64 ? v : (double)(float)v;
    }
}

static int64_t ord(double v, int f64) {   /* monotone integer order of floats */
    if (f64) { int64_t b; memcpy(&b, &v, 8); return b < 0 ? INT64_MIN - b : b; }
    float f = (float)v; int32_t b; memcpy(&b, &f, 4); return b < 0 ? INT32_MIN - b : b;
}

static int run(tc_context *ctx, tc_module *m, const char *fn, int two, tc_dtype dt, tc_dtype ydt,
               tc_dtype odt, const double *x, const double *y, double *out) {
    tc_kernel *k;
    if (tc_module_kernel(m, two ? "math2" : "math1", &k)) return 1;
    size_t es = tc_dtype_size(dt), ys = tc_dtype_size(ydt), os = tc_dtype_size(odt);
    unsigned char *bx = malloc(N * 8), *by = malloc(N * 8), *bo = malloc(N * 8);
    static const unsigned char unset[8] = {0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5};
    for (int i = 0; i < N; i++) {
        if (es == 4) { float f = (float)x[i]; memcpy(bx + i * 4, &f, 4); } else memcpy(bx + i * 8, &x[i], 8);
        if (ydt == TC_I32) { int32_t v = (int32_t)y[i]; memcpy(by + i * 4, &v, 4); }
        else if (ys == 4) { float f = (float)y[i]; memcpy(by + i * 4, &f, 4); } else memcpy(by + i * 8, &y[i], 8);
    }
    int64_t n = N;
    tc_tensor *tx, *ty, *to;
    tc_tensor_from_host(ctx, dt, 1, &n, bx, &tx);
    tc_tensor_from_host(ctx, ydt, 1, &n, by, &ty);
    /* the output filled with a pattern no result has: a program that wrote less than its share
     * fails the run (a kernel without program_id once checked 256 inputs of 4096) */
    for (int i = 0; i < N; i++) memcpy(bo + i * os, unset, os);
    tc_tensor_from_host(ctx, odt, 1, &n, bo, &to);
    tc_args *a;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(tx));
    if (two) tc_args_set(a, "y_ptr", tc_tens(ty));
    tc_args_set(a, "out_ptr", tc_tens(to));
    tc_args_set(a, "FN", tc_str(fn));
    tc_args_set(a, "BLOCK", tc_int(256));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = N / 256;
    tc_status s = tc_launch(k, a, &o);
    if (!s) s = tc_tensor_to_host(to, bo, N * os);
    if (s) fprintf(stderr, "%s: %s\n", fn, tc_errmsg(ctx));
    for (int i = 0; i < N && !s; i++)
        if (!memcmp(bo + i * os, unset, os)) { fprintf(stderr, "%s: output %d not written\n", fn, i); s = TC_ERR_INTERNAL; }
    for (int i = 0; i < N && !s; i++) {
        if (odt == TC_FP32) { float f; memcpy(&f, bo + i * 4, 4); out[i] = f; }
        else if (odt == TC_FP64) memcpy(&out[i], bo + i * 8, 8);
        else if (odt == TC_I64) { int64_t v; memcpy(&v, bo + i * 8, 8); out[i] = (double)v; }
        else if (odt == TC_I32) { int32_t v; memcpy(&v, bo + i * 4, 4); out[i] = v; }
        else out[i] = bo[i];
    }
    tc_args_free(a);
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    free(bx); free(by); free(bo);
    return s != 0;
}

typedef struct Fn { const char *name; int two, f32only, f64ok, ulps; double atol, rtol, lo, hi;
                    tc_dtype odt; int yint, f64only, onem; } Fn;   /* onem: inputs 1 - |x|, x's sign */

/* CUDA's documented bounds for its fast intrinsics (CUDA C++ Programming Guide, intrinsic
 * functions): ulps where they are given in ulps, absolute errors on the ranges they are given
 * for; __sinf/__cosf/__tanf have no bound outside [-pi, pi] (the hardware reduces the
 * argument coarsely: 1e6 + 0.5 is off by 0.04), so there only the range of the result is
 * checked, and those inputs are counted in *nrange. Elsewhere: the function's atol/rtol.
 * The interpreter's value is itself rounded (exp2f, log2f, sinf of the same argument): one
 * ulp (2^-24 absolute) more is allowed for that. */
static int fast_ok(const Fn *f, double x, double g, double c, int *nrange) {
    if (g == c) return 1;
    if (isnan(g) || isnan(c)) return 0;
    double ax = fabs(x), ulps = -1, abs_b = -1;
    int mid = ax >= 0.5 && ax <= 2;
    if (!strcmp(f->name, "fast_expf")) ulps = 2 + floor(fabs(1.173 * x));
    else if (!strcmp(f->name, "fast_exp10f")) ulps = 2 + floor(fabs(2.97 * x));
    else if (!strcmp(f->name, "fast_logf")) { if (mid) abs_b = pow(2, -21.41); else ulps = 3; }
    else if (!strcmp(f->name, "fast_log2f")) { if (mid) abs_b = 0x1p-22; else ulps = 2; }
    else if (!strcmp(f->name, "fast_log10f")) { if (mid) abs_b = 0x1p-24; else ulps = 3; }
    else if (!strncmp(f->name, "fast_sin", 8) || !strncmp(f->name, "fast_cos", 8) ||
             !strncmp(f->name, "fast_tan", 8)) {
        if (ax > 3.14159265358979) {
            (*nrange)++;
            return f->name[5] == 't' || fabs(g) <= 1;
        }
        if (f->name[5] != 't') abs_b = pow(2, f->name[5] == 's' ? -21.41 : -21.19);
        /* __tanf is __sinf(x) * (1 / __cosf(x)): their absolute errors, divided by cos
         * (sqrt(1 + tan^2) of the result), plus an ulp of the result */
        else abs_b = (pow(2, -21.41) + fabs(c) * pow(2, -21.19)) * sqrt(1 + c * c) + fabs(c) * 0x1p-23;
    }
    if (ulps >= 0) {
        int64_t d = ord(g, 0) - ord(c, 0);
        return (d < 0 ? -d : d) <= ulps + 1;
    }
    if (abs_b >= 0) return fabs(g - c) <= abs_b + 0x1p-24;
    return fabs(g - c) <= f->atol + f->rtol * fabs(c) || (isinf(c) && fabs(g) > 1e37);
}

/* fp64 erfinv's reference (the interpreter's, Newton's method on erf y - x in double, is off
 * by far more than an ulp near +-1): bisection in long double on erfl, or on erfcl against
 * 1 - |x| (exact) from |x| = 1/2, two Newton steps; sqrt(pi)/2 x below 2^-30 */
static long double erfinv_f(long double y, long double ax) { return ax < 0.5L ? erfl(y) - ax : (1 - ax) - erfcl(y); }
static double erfinv_ref(double x) {
    long double ax = fabsl((long double)x), lo = 0, hi = 7, c = 0.886226925452758013649083741671L;
    if (isnan(x) || ax > 1) return NAN;
    if (ax == 1) return copysign(INFINITY, x);
    if (ax < 0x1p-30L) return (double)(x * c * (1 + 3.14159265358979323846L * ax * ax / 12));
    for (int i = 0; i < 100; i++) {
        long double m = (lo + hi) / 2;
        if (erfinv_f(m, ax) < 0) lo = m; else hi = m;
    }
    for (int i = 0; i < 2; i++) lo -= erfinv_f(lo, ax) / (expl(-lo * lo) / c);
    return (double)copysignl(lo, x);
}

int main(void) {
    static const Fn fns[] = {
        {"trunc", 0, 0, 1, 0, 0, 0, -30, 80, 0, 0}, {"round", 0, 0, 1, 0, 0, 0, -30, 80, 0, 0},
        {"rint", 0, 0, 1, 0, 0, 0, -30, 80, 0, 0}, {"nearbyint", 0, 0, 1, 0, 0, 0, -30, 80, 0, 0},
        {"logb", 0, 0, 1, 0, 0, 0, -1074, 1023, 0, 0}, {"ilogb", 0, 0, 1, 0, 0, 0, -1074, 1023, TC_I32, 0},
        {"isnan", 0, 0, 1, 0, 0, 0, -20, 20, TC_I1, 0}, {"isinf", 0, 0, 1, 0, 0, 0, -20, 20, TC_I1, 0},
        {"signbit", 0, 0, 1, 0, 0, 0, -20, 20, TC_I32, 0}, {"llrint", 0, 0, 1, 0, 0, 0, -10, 40, TC_I64, 0},
        {"llround", 0, 0, 1, 0, 0, 0, -10, 40, TC_I64, 0}, {"saturatef", 0, 1, 0, 0, 0, 0, -10, 3, 0, 0},
        {"finitef", 0, 1, 0, 0, 0, 0, -20, 20, TC_I1, 0},
        /* CUDA's fast intrinsics: documented as absolute errors on small ranges */
        {"fast_expf", 0, 1, 0, -1, 0, 2e-6, -6, 4, 0, 0}, {"fast_exp10f", 0, 1, 0, -1, 0, 2e-6, -6, 3, 0, 0},
        {"fast_logf", 0, 1, 0, -1, 2e-6, 2e-6, -20, 20, 0, 0}, {"fast_log2f", 0, 1, 0, -1, 2e-6, 2e-6, -20, 20, 0, 0},
        {"fast_log10f", 0, 1, 0, -1, 2e-6, 2e-6, -20, 20, 0, 0}, {"fast_sinf", 0, 1, 0, -1, 4e-6, 0, -10, 1.6, 0, 0},
        {"fast_cosf", 0, 1, 0, -1, 4e-6, 0, -10, 1.6, 0, 0}, {"fast_tanf", 0, 1, 0, -1, 1e-5, 1e-5, -10, 0.6, 0, 0},
        {"copysign", 1, 0, 1, 0, 0, 0, -30, 30, 0, 0}, {"fdim", 1, 0, 1, 0, 0, 0, -30, 30, 0, 0},
        {"nextafter", 1, 0, 1, 0, 0, 0, -30, 30, 0, 0}, {"hypot", 1, 0, 0, 1, 0, 0, -60, 60, 0, 0},
        {"rhypot", 1, 0, 0, 1, 0, 0, -60, 60, 0, 0}, {"remainder", 1, 0, 1, 0, 0, 0, -10, 20, 0, 0},
        {"exp10", 0, 1, 0, 1, 0, 0, -10, 7, 0, 0}, {"expm1", 0, 1, 0, 1, 0, 0, -30, 7, 0, 0},
        {"log10", 0, 1, 0, 1, 0, 0, -149, 127, 0, 0}, {"log1p", 0, 1, 0, 1, 0, 0, -30, 127, 0, 0},
        {"asinh", 0, 1, 0, 1, 0, 0, -149, 127, 0, 0}, {"acosh", 0, 1, 0, 1, 0, 0, -20, 127, 0, 0},
        {"atanh", 0, 1, 0, 1, 0, 0, -149, 1, 0, 0}, {"sinh", 0, 1, 0, 1, 0, 0, -30, 7, 0, 0},
        {"cosh", 0, 1, 0, 1, 0, 0, -30, 7, 0, 0},
        {"atan", 0, 1, 0, 1, 0, 0, -149, 127, 0, 0}, {"asin", 0, 1, 0, 1, 0, 0, -149, 1, 0, 0},
        {"acos", 0, 1, 0, 1, 0, 0, -149, 1, 0, 0}, {"atan2", 1, 1, 0, 1, 0, 0, -149, 127, 0, 0},
        {"sinpi", 0, 1, 0, 1, 0, 0, -149, 127, 0, 0}, {"cospi", 0, 1, 0, 1, 0, 0, -149, 127, 0, 0},
        {"sinpi", 0, 1, 0, 1, 0, 0, -6, 6, 0, 0}, {"cospi", 0, 1, 0, 1, 0, 0, -6, 6, 0, 0},
        {"pow", 1, 1, 0, 1, 0, 0, -10, 7, 0, 0}, {"pow", 1, 1, 0, 1, 0, 0, -149, 127, 0, 0},
        {"cbrt", 0, 1, 0, 1, 0, 0, -149, 127, 0, 0}, {"rcbrt", 0, 1, 0, 1, 0, 0, -149, 127, 0, 0},
        {"fmod", 1, 0, 1, 0, 0, 0, -10, 20, 0, 0},
        /* fp64 (f64only): CUDA's documented bound plus one ulp for the interpreter's own
         * (glibc's) error; the tl.math ones (exp, log, exp2, log2, tanh) are fp32 fast forms */
        {"exp", 0, 0, 1, 2, 0, 0, -1074, 9.55, 0, 0, 1}, {"exp2", 0, 0, 1, 2, 0, 0, -1074, 10.1, 0, 0, 1},
        {"exp10", 0, 0, 1, 2, 0, 0, -1074, 8.4, 0, 0, 1}, {"expm1", 0, 0, 1, 2, 0, 0, -1074, 9.5, 0, 0, 1},
        {"log", 0, 0, 1, 2, 0, 0, -1074, 1023, 0, 0, 1}, {"log2", 0, 0, 1, 2, 0, 0, -1074, 1023, 0, 0, 1},
        {"log10", 0, 0, 1, 2, 0, 0, -1074, 1023, 0, 0, 1}, {"log1p", 0, 0, 1, 2, 0, 0, -1074, 1023, 0, 0, 1},
        {"log1p", 0, 0, 1, 2, 0, 0, -3, 3, 0, 0, 1}, {"pow", 1, 0, 1, 3, 0, 0, -10, 7, 0, 0, 1},
        {"pow", 1, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1}, {"tanh", 0, 0, 1, 2, 0, 0, -1074, 6, 0, 0, 1},
        {"sinh", 0, 0, 1, 3, 0, 0, -1074, 9.6, 0, 0, 1}, {"cosh", 0, 0, 1, 2, 0, 0, -1074, 9.6, 0, 0, 1},
        {"sin", 0, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1}, {"cos", 0, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1},
        {"sin", 0, 0, 1, 3, 0, 0, -3, 5, 0, 0, 1}, {"cos", 0, 0, 1, 3, 0, 0, -3, 5, 0, 0, 1},
        {"tan", 0, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1}, {"tan", 0, 0, 1, 3, 0, 0, -3, 5, 0, 0, 1},
        {"atan", 0, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1}, {"atan", 0, 0, 1, 3, 0, 0, -3, 3, 0, 0, 1},
        {"asin", 0, 0, 1, 3, 0, 0, -1074, 0, 0, 0, 1}, {"acos", 0, 0, 1, 3, 0, 0, -1074, 0, 0, 0, 1},
        {"atan2", 1, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1}, {"atan2", 1, 0, 1, 3, 0, 0, -3, 3, 0, 0, 1},
        {"sinpi", 0, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1}, {"cospi", 0, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1},
        {"sinpi", 0, 0, 1, 3, 0, 0, -3, 6, 0, 0, 1}, {"cospi", 0, 0, 1, 3, 0, 0, -3, 6, 0, 0, 1},
        {"cbrt", 0, 0, 1, 2, 0, 0, -1074, 1023, 0, 0, 1}, {"rcbrt", 0, 0, 1, 2, 0, 0, -1074, 1023, 0, 0, 1},
        {"hypot", 1, 0, 1, 3, 0, 0, -1074, 1023, 0, 0, 1}, {"rhypot", 1, 0, 1, 2, 0, 0, -1074, 1023, 0, 0, 1},
        {"hypot", 1, 0, 1, 3, 0, 0, -3, 3, 0, 0, 1}, {"rhypot", 1, 0, 1, 2, 0, 0, -3, 3, 0, 0, 1},
        {"asinh", 0, 0, 1, 4, 0, 0, -1074, 1023, 0, 0, 1}, {"acosh", 0, 0, 1, 4, 0, 0, 0, 1023, 0, 0, 1},
        {"atanh", 0, 0, 1, 3, 0, 0, -1074, 0, 0, 0, 1}, {"asinh", 0, 0, 1, 4, 0, 0, -3, 3, 0, 0, 1},
        /* erf, erfc (libdevice's erf is tl.erf), erfinv: CUDA's 2, 5, 5 ulp; erfinv against the
         * long double reference (near +-1 too: onem), so with no ulp more */
        {"erf", 0, 0, 1, 3, 0, 0, -1074, 6, 0, 0, 1}, {"erf", 0, 0, 1, 3, 0, 0, -3, 3, 0, 0, 1},
        {"erfc", 0, 0, 1, 6, 0, 0, -1074, 5, 0, 0, 1}, {"erfc", 0, 0, 1, 6, 0, 0, -3, 3, 0, 0, 1},
        {"erfc", 0, 0, 1, 6, 0, 0, 3, 4.8, 0, 0, 1}, {"erfinv", 0, 0, 1, 5, 0, 0, -1074, 0, 0, 0, 1},
        {"erfinv", 0, 0, 1, 5, 0, 0, -12, 0, 0, 0, 1}, {"erfinv", 0, 0, 1, 5, 0, 0, -54, 0, 0, 0, 1, 1},
        /* ldexp, scalbn: exact (one rounding for subnormal results) */
        {"ldexp", 1, 0, 1, 0, 0, 0, -1074, 1023, 0, 1, 0}, {"scalbn", 1, 0, 1, 0, 0, 0, -1074, 1023, 0, 1, 0},
        /* fp32 tan: CUDA's tanf bound, 4 ulp */
        {"tan", 0, 1, 0, 4, 0, 0, -149, 127, 0, 0, 0}, {"tan", 0, 1, 0, 4, 0, 0, -3, 5, 0, 0, 0},
        /* CUDA's documented bounds: erfcf 4 ulp, erfinvf 2 */
        {"erfc", 0, 1, 0, 4, 0, 0, -149, 7, 0, 0}, {"erfc", 0, 1, 0, 4, 0, 0, -3, 4, 0, 0},
        {"erfinv", 0, 1, 0, 2, 0, 0, -149, 0, 0, 0}, {"erfinv", 0, 1, 0, 2, 0, 0, -12, 0, 0, 0},
        /* exact for any quotient: magnitudes over the whole range (fp32's clipped to 2^120) */
        {"fmod", 1, 0, 1, 0, 0, 0, -1070, 1020, 0, 0}, {"remainder", 1, 0, 1, 0, 0, 0, -1070, 1020, 0, 0}, {"fast_powf", 1, 1, 0, -1, 0, 1e-5, -3, 3, 0, 0},
    };
    tc_context *gpu, *cpu;
    tc_context_new(&gpu);
    tc_context_new(&cpu);
    tc_context_set_backend(gpu, TC_BACKEND_CUDA);
    tc_context_set_backend(cpu, TC_BACKEND_INTERPRET);
    tc_module *mg, *mc;
    if (tc_module_load_file(gpu, "tests/kernels/kern.py", &mg) || tc_module_load_file(cpu, "tests/kernels/kern.py", &mc)) {
        fprintf(stderr, "%s\n", tc_errmsg(gpu));
        return 1;
    }
    static double x[N], y[N], rg[N], rc[N];
    int nf = 0, bad = 0;
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        const Fn *f = &fns[i];
        for (int f64 = 0; f64 < 2; f64++) {
            if (f64 && (f->f32only || !f->f64ok)) continue;
            if (!f64 && f->f64only) continue;
            tc_dtype dt = f64 ? TC_FP64 : TC_FP32, odt = f->odt ? f->odt : dt;
            sweep(x, f64, f64 ? f->lo : fmax(f->lo, -149), f64 ? f->hi : fmin(f->hi, 120), 0);
            sweep(y, f64, f64 ? f->lo : fmax(f->lo, -149), f64 ? f->hi : fmin(f->hi, 120), 0);
            for (int j = 0; j < N; j++) { int k = (j * 7 + 3) % N; double t = y[j]; y[j] = y[k]; y[k] = t; }
            if (f->yint)   /* an int32 argument (ldexp's exponent): -1200..1200 */
                for (int j = 0; j < N; j++) y[j] = floor(urand() * 2401) - 1200;
            if (f->onem)
                for (int j = 0; j < N; j++) x[j] = copysign(1 - fabs(x[j]), x[j]);
            nf++;
            tc_dtype ydt = f->yint ? TC_I32 : dt;
            if (run(gpu, mg, f->name, f->two, dt, ydt, odt, x, y, rg) ||
                run(cpu, mc, f->name, f->two, dt, ydt, odt, x, y, rc)) { bad++; printf("%-12s %s: launch failed\n", f->name, f64 ? "fp64" : "fp32"); continue; }
            if (f64 && !strcmp(f->name, "erfinv"))
                for (int j = 0; j < N; j++) rc[j] = erfinv_ref(x[j]);
            int nbad = 0, first = -1, nrange = 0;
            double worst = 0;
            for (int j = 0; j < N; j++) {
                double g = rg[j], c = rc[j];
                if (isnan(g) && isnan(c)) continue;
                int ok;
                if (f->ulps >= 0 && (odt == TC_FP32 || odt == TC_FP64)) {
                    int64_t d = ord(g, f64) - ord(c, f64);
                    if (d < 0) d = -d;
                    if (d > worst) worst = (double)d;
                    ok = (isnan(g) == isnan(c)) && d <= f->ulps;
                } else if (f->ulps >= 0) {
                    ok = g == c;
                } else {
                    ok = fast_ok(f, x[j], g, c, &nrange);
                }
                if (!ok) { nbad++; if (first < 0) first = j; }
            }
            printf("%-12s %s: %s", f->name, f64 ? "fp64" : "fp32", nbad ? "FAILED" : "ok");
            if (f->ulps >= 0 && (odt == TC_FP32 || odt == TC_FP64)) printf(" (worst %.0f ulp, allowed %d)", worst, f->ulps);
            if (nrange) printf(" (%d inputs outside [-pi, pi]: result's range checked only, CUDA gives no bound)", nrange);
            if (nbad) printf(": %d of %d differ, first x=%.17g y=%.17g: GPU %.17g, interpreter %.17g",
                             nbad, N, x[first], y[first], rg[first], rc[first]);
            printf("\n");
            bad += nbad > 0;
        }
    }
    /* 16-bit atomic_cas: each element swapped where it equals the expected value, its
     * neighbours untouched */
    const tc_dtype d16[2] = {TC_I16, TC_U16};
    for (int t = 0; t < 2; t++) {
        tc_kernel *k;
        tc_module_kernel(mg, "cas16", &k);
        int16_t p[256], o[256], rp[256], ro[256];
        for (int i = 0; i < 256; i++) { p[i] = (int16_t)(i * 3 - 300); o[i] = (int16_t)(i % 2 ? p[i] : p[i] + 1); }
        int64_t n = 256;
        tc_tensor *tp, *to;
        tc_tensor_from_host(gpu, d16[t], 1, &n, p, &tp);
        tc_tensor_from_host(gpu, d16[t], 1, &n, o, &to);
        tc_args *a;
        tc_args_new(k, &a);
        tc_args_set(a, "p_ptr", tc_tens(tp));
        tc_args_set(a, "out_ptr", tc_tens(to));
        tc_args_set(a, "BLOCK", tc_int(256));
        tc_launch_opts lo = tc_launch_defaults();
        int launch_bad = tc_launch(k, a, &lo) || tc_tensor_to_host(tp, rp, sizeof rp) || tc_tensor_to_host(to, ro, sizeof ro);
        int fail = launch_bad;
        for (int i = 0; i < 256 && !fail; i++) {
            int16_t ep = i % 2 ? (int16_t)(p[i] + 7) : p[i];
            fail |= rp[i] != ep || ro[i] != p[i];
        }
        printf("atomic_cas   %s: %s", t ? "u16" : "i16", fail ? "FAILED" : "ok");
        for (int i = 0; i < 256 && fail && !launch_bad; i++)
            if (rp[i] != (int16_t)(i % 2 ? p[i] + 7 : p[i]) || ro[i] != p[i]) {
                printf(": first at %d: p %d (want %d), old %d (want %d)", i, rp[i],
                       (int16_t)(i % 2 ? p[i] + 7 : p[i]), ro[i], p[i]);
                break;
            }
        if (launch_bad) printf(": %s", tc_errmsg(gpu));
        printf("\n");
        nf++;
        bad += fail;
        tc_args_free(a);
        tc_tensor_free(tp); tc_tensor_free(to);
    }
    /* 16-bit integers loaded/stored as packed words, masked (n = 1008 of 1024), with other:
     * out = x * 2 + 1 (wrapping at 16 bits) where i < n, the rest untouched */
    for (int t = 0; t < 2; t++) {
        tc_kernel *k;
        tc_module_kernel(mg, "copy16", &k);
        int16_t xs[1024], os[1024], ro[1024];
        for (int i = 0; i < 1024; i++) { xs[i] = (int16_t)(i * 37 - 5000); os[i] = 77; }
        int64_t n = 1024;
        tc_tensor *tx, *to;
        tc_tensor_from_host(gpu, d16[t], 1, &n, xs, &tx);
        tc_tensor_from_host(gpu, d16[t], 1, &n, os, &to);
        tc_args *a;
        tc_args_new(k, &a);
        tc_args_set(a, "x_ptr", tc_tens(tx));
        tc_args_set(a, "out_ptr", tc_tens(to));
        tc_args_set(a, "n", tc_int(1008));   /* a multiple of 16: packed words */
        tc_args_set(a, "BLOCK", tc_int(1024));
        tc_launch_opts lo = tc_launch_defaults();
        int fail = tc_launch(k, a, &lo) || tc_tensor_to_host(to, ro, sizeof ro);
        if (fail) printf("copy16       %s: FAILED: %s\n", t ? "u16" : "i16", tc_errmsg(gpu));
        for (int i = 0; i < 1024 && !fail; i++) {
            int16_t e = i < 1008 ? (int16_t)(uint16_t)((uint16_t)xs[i] * 2u + 1u) : 77;
            if (ro[i] != e) {
                fail = 1;
                printf("copy16       %s: FAILED at %d: %d, want %d\n", t ? "u16" : "i16", i, ro[i], e);
                break;
            }
        }
        if (!fail) printf("copy16       %s: ok\n", t ? "u16" : "i16");
        nf++;
        bad += fail;
        tc_args_free(a);
        tc_tensor_free(tx); tc_tensor_free(to);
    }
    printf("gpu-math-check: %d functions, %d failed\n", nf, bad);
    tc_module_free(mg); tc_module_free(mc);
    tc_context_free(gpu); tc_context_free(cpu);
    return bad ? 1 : 0;
}
