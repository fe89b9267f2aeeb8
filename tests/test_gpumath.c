/* test_gpumath.c — the GPU backend's math (src/gpu/math.c) measured without a GPU: the PTX
 * emitted for kern.py's math1/math2 is run by a small PTX interpreter (ptxsim.h) over the
 * sweep scripts/gpu-math-check.c uses (edge values and log-uniform random ones), and compared
 * in ulps with the tritonc interpreter (the C library), within CUDA's documented bounds;
 * the PTX also assembles with ptxas for sm_80 and sm_90a. */
#include "test_kernels_util.h"

#include "ptxsim.h"

#include <unistd.h>

#define GM_N 2048

static uint64_t gm_rs = 0x9e3779b97f4a7c15ull;
static double gm_urand(void) {
    gm_rs ^= gm_rs << 13; gm_rs ^= gm_rs >> 7; gm_rs ^= gm_rs << 17;
    return (double)(gm_rs >> 11) * 0x1p-53;
}

/* as gpu-math-check.c's sweep: edge values, then magnitudes 2^[lo, hi) of both signs */
static void gm_sweep(double *x, int f64, double lo, double hi) {
    const double e[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
                        1, -1, 3, 1e6 + 0.5, -1e6 - 0.5, 0x1p23, 0x1p52, 1e30,
                        f64 ? 0x1p-1074 : 0x1p-149, f64 ? 0x1p-1022 : 0x1p-126,
                        f64 ? 1.7976931348623157e308 : 3.4028234663852886e38};
    int ne = (int)(sizeof e / sizeof e[0]);
    for (int i = 0; i < GM_N; i++) {
        double v = i < ne ? e[i] : ldexp(1.0 + gm_urand(), (int)(lo + (hi - lo) * gm_urand()));
        if (i >= ne && gm_urand() < 0.5) v = -v;
        x[i] = f64 ? v : (double)(float)v;
    }
}

static int64_t gm_ord(double v, int f64) {
    if (f64) { int64_t b; memcpy(&b, &v, 8); return b < 0 ? INT64_MIN - b : b; }
    float f = (float)v; int32_t b; memcpy(&b, &f, 4); return b < 0 ? INT32_MIN - b : b;
}

static const char *gm_ptxas(void) {
    const char *p = getenv("TRITONC_PTXAS");
    return p && *p ? p : "/usr/local/cuda/bin/ptxas";
}

/* math1/math2 of kern.py for fn on dtype (fp32 or fp64) lowered for target tg (one element per
 * thread: BLOCK 32, one warp); assembled by ptxas when it exists. NULL after a failure. */
static char *gm_ptx(tc_context *ctx, tc_module *m, const char *fn, int two, int f64, int arch,
                    const char *cf, int cl) {
    tc_kernel *k = NULL;
    if (tc_module_kernel(m, two ? "math2" : "math1", &k)) { test_fail(cf, cl, "%s", tc_errmsg(ctx)); return NULL; }
    tc_target tg = {"cuda", arch, 32, arch >= 90};
    const char *t = f64 ? "*fp64:16" : "*fp32:16";
    const char *sig[3] = {t, two == 2 ? "*i32:16" : t, t};
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "FN", tc_str(fn));
    tc_args_set(a, "BLOCK", tc_int(32));
    char *ptx = NULL;
    tc_status s = tc_compile_ptx(k, &tg, sig, two ? 3 : 2, a, 1, &ptx);
    tc_args_free(a);
    if (s) { test_fail(cf, cl, "%s %s sm_%d: %s", fn, f64 ? "fp64" : "fp32", arch, tc_errmsg(ctx)); return NULL; }
    test_passed++;
    if (access(gm_ptxas(), X_OK) == 0) {
        char path[256], cmd[600], out[8192];
        snprintf(path, sizeof path, "/tmp/tc_gpumath_%d_%s.ptx", (int)getpid(), fn);
        FILE *f = fopen(path, "w");
        if (f) { fputs(ptx, f); fclose(f); }
        snprintf(cmd, sizeof cmd, "%s -arch=sm_%d%s %s -o /dev/null", gm_ptxas(), arch, arch >= 90 ? "a" : "",
                 path);
        int rc = test_run(cmd, out, sizeof out);
        unlink(path);
        if (rc) { test_fail(cf, cl, "ptxas %s sm_%d:\n%s", fn, arch, out); free(ptx); return NULL; }
        test_passed++;
    }
    return ptx;
}

/* The interpreter's results of fn over x (and y) */
static bool gm_interp(tc_context *ctx, tc_module *m, const char *fn, int two, int f64, const double *x,
                      const double *y, double *out) {
    tc_kernel *k = NULL;
    if (tc_module_kernel(m, two ? "math2" : "math1", &k)) return false;
    tc_dtype dt = f64 ? TC_FP64 : TC_FP32;
    size_t es = f64 ? 8 : 4;
    unsigned char *bx = malloc(GM_N * es), *by = malloc(GM_N * es), *bo = calloc(GM_N, es);
    for (int i = 0; i < GM_N; i++) {
        if (f64) { memcpy(bx + i * 8, &x[i], 8); memcpy(by + i * 8, &y[i], 8); }
        else { float a = (float)x[i], b = (float)y[i]; memcpy(bx + i * 4, &a, 4); memcpy(by + i * 4, &b, 4); }
    }
    if (two == 2) for (int i = 0; i < GM_N; i++) { int32_t v = (int32_t)y[i]; memcpy(by + i * 4, &v, 4); }
    tc_tensor *tx = kt_t1(ctx, dt, GM_N, bx), *ty = kt_t1(ctx, two == 2 ? TC_I32 : dt, GM_N, by),
              *to = kt_t1(ctx, dt, GM_N, NULL);
    tc_status s = two ? kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                  {"out_ptr", tc_tens(to)}, {"FN", tc_str(fn)}, {"BLOCK", tc_int(GM_N)}))
                      : kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                                  {"FN", tc_str(fn)}, {"BLOCK", tc_int(GM_N)}));
    if (!s) {
        kt_get(to, bo);
        for (int i = 0; i < GM_N; i++) {
            if (f64) memcpy(&out[i], bo + i * 8, 8);
            else { float f; memcpy(&f, bo + i * 4, 4); out[i] = f; }
        }
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    free(bx); free(by); free(bo);
    return s == TC_OK;
}

/* fn's PTX (sm_80) run by ptxsim over the sweep 2^[lo, hi) against the interpreter: at most
 * `ulps` apart (NaN with NaN). Returns the worst distance seen, or -1 on failure. */
static int64_t gm_check_(const char *fn, int two, int f64, double lo, double hi, int64_t ulps,
                         const char *cf, int cl) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    int64_t worst = -1;
    if (tc_module_load_file(ctx, "tests/kernels/kern.py", &m)) {
        test_fail(cf, cl, "%s", tc_errmsg(ctx));
        tc_context_free(ctx);
        return -1;
    }
    char *p80 = gm_ptx(ctx, m, fn, two, f64, 80, cf, cl), *p90 = p80 ? gm_ptx(ctx, m, fn, two, f64, 90, cf, cl) : NULL;
    static double x[GM_N], y[GM_N], ref[GM_N], got[GM_N];
    if (!f64) { lo = fmax(lo, -149); hi = fmin(hi, 120); }
    gm_sweep(x, f64, lo, hi);
    gm_sweep(y, f64, lo, hi);
    for (int j = 0; j < GM_N; j++) { int k = (j * 7 + 3) % GM_N; double t = y[j]; y[j] = y[k]; y[k] = t; }
    if (two == 2)   /* an int32 exponent: -1200..1200 (fp32: -300..300) */
        for (int j = 0; j < GM_N; j++) y[j] = floor(gm_urand() * (f64 ? 2401 : 601)) - (f64 ? 1200 : 300);
    PsProg prog;
    char err[256] = "";
    if (p80 && p90 && gm_interp(ctx, m, fn, two, f64, x, y, ref) && ps_parse(p80, &prog, err, sizeof err)) {
        size_t es = f64 ? 8 : 4;
        unsigned char *bx = malloc(GM_N * es), *by = malloc(GM_N * es), *bo = calloc(GM_N, es);
        for (int i = 0; i < GM_N; i++) {
            if (f64) { memcpy(bx + i * 8, &x[i], 8); memcpy(by + i * 8, &y[i], 8); }
            else { float a = (float)x[i], b = (float)y[i]; memcpy(bx + i * 4, &a, 4); memcpy(by + i * 4, &b, 4); }
            if (two == 2) { int32_t v = (int32_t)y[i]; memcpy(by + i * 4, &v, 4); }
        }
        PsThread *t = malloc(sizeof *t);
        bool ok = true;
        for (int c = 0; c < GM_N && ok; c += 32) {
            uint64_t prm[3] = {(uint64_t)(uintptr_t)(bx + c * es), (uint64_t)(uintptr_t)(by + c * (two == 2 ? 4 : es)),
                               (uint64_t)(uintptr_t)(bo + c * es)};
            if (!two) prm[1] = prm[2];
            for (uint32_t tid = 0; tid < 32 && ok; tid++) ok = ps_run(&prog, t, tid, prm, two ? 3 : 2, err, sizeof err);
        }
        if (!ok) test_fail(cf, cl, "%s: %s", fn, err);
        else {
            worst = 0;
            int nbad = 0, first = -1;
            for (int i = 0; i < GM_N; i++) {
                if (f64) memcpy(&got[i], bo + i * 8, 8);
                else { float f; memcpy(&f, bo + i * 4, 4); got[i] = f; }
                if (isnan(got[i]) && isnan(ref[i])) continue;
                int64_t d = isnan(got[i]) != isnan(ref[i]) ? INT64_MAX : gm_ord(got[i], f64) - gm_ord(ref[i], f64);
                if (d < 0) d = -d;
                if (d > worst) worst = d;
                if (d > ulps) { nbad++; if (first < 0) first = i; }
            }
            if (nbad) test_fail(cf, cl, "%s %s: %d of %d beyond %lld ulp, first x=%.17g y=%.17g: ptx %.17g, "
                                "interpreter %.17g", fn, f64 ? "fp64" : "fp32", nbad, GM_N, (long long)ulps,
                                x[first], y[first], got[first], ref[first]);
            else test_passed++;
        }
        free(t); free(bx); free(by); free(bo);
        ps_free(&prog);
    } else if (err[0]) test_fail(cf, cl, "%s", err);
    free(p80); free(p90);
    tc_module_free(m);
    tc_context_free(ctx);
    return worst;
}
#define GM_CHECK(fn, two, f64, lo, hi, ulps) gm_check_((fn), (two), (f64), (lo), (hi), (ulps), __FILE__, __LINE__)

/* The simulator itself, on functions the GPU already passed gpu-math-check with: fp32
 * through fp64 (1 ulp) and fp64 exp */
TEST(gpumath_sim_known) {
    GM_CHECK("expm1", 0, 0, -30, 7, 1);
    GM_CHECK("atan2", 1, 0, -149, 127, 1);
    GM_CHECK("fmod", 1, 1, -10, 20, 0);
    GM_CHECK("exp", 0, 1, -10, 10, 1);
}
/* fp32 erfc (series / continued fraction in fp64) and erfinv (a guess and two Newton steps in
 * fp64): within an ulp of the interpreter (the C library through double) on the sweep, edge
 * values included (CUDA documents 4 and 2) */
TEST(gpumath_fp32_erfc_erfinv) {
    GM_CHECK("erfc", 0, 0, -149, 7, 1);
    GM_CHECK("erfc", 0, 0, -3, 4, 1);
    GM_CHECK("erfinv", 0, 0, -149, 0, 1);
    GM_CHECK("erfinv", 0, 0, -12, 0, 1);
}
/* fp64 exp and log families, pow, tanh, sinh, cosh: within an ulp of the interpreter (two for
 * tanh, sinh, cosh, where glibc's own error reaches two: tanh(-0.42558779764351518) is
 * -0.40162738450556410 to 50 digits; glibc says ...423) over the whole range, subnormal and
 * overflowing results included */
TEST(gpumath_fp64_explog) {
    static const struct { const char *fn; int two; double lo, hi; int ulps; } c[] = {
        {"exp", 0, -1074, 9.5, 1}, {"exp", 0, 8, 9.55, 1}, {"exp2", 0, -1074, 10.2, 1},
        {"exp2", 0, 9, 10.1, 1}, {"exp10", 0, -1074, 8.4, 1}, {"exp10", 0, 7.5, 8.4, 1},
        {"expm1", 0, -1074, 9.5, 1}, {"expm1", 0, -3, 3, 1}, {"log", 0, -1074, 1023, 1},
        {"log", 0, -3, 3, 1}, {"log2", 0, -1074, 1023, 1}, {"log10", 0, -1074, 1023, 1},
        {"log1p", 0, -1074, 1023, 1}, {"log1p", 0, -3, 3, 1}, {"pow", 1, -10, 7, 1},
        {"pow", 1, -1074, 1023, 1}, {"pow", 1, -1, 1, 1}, {"tanh", 0, -1074, 6, 2}, {"tanh", 0, -3, 3, 2},
        {"sinh", 0, -1074, 9.6, 2}, {"sinh", 0, -3, 3, 2}, {"cosh", 0, -1074, 9.6, 2}, {"cosh", 0, -3, 3, 2},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) GM_CHECK(c[i].fn, c[i].two, 1, c[i].lo, c[i].hi, c[i].ulps);
}

/* pow where ln x's low part matters: x near 1 and sqrt(2), |y| up to 2000 */
TEST(gpumath_fp64_pow_hard) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(0, tc_module_load_file(ctx, "tests/kernels/kern.py", &m));
    char *p80 = m ? gm_ptx(ctx, m, "pow", 1, 1, 80, __FILE__, __LINE__) : NULL;
    PsProg prog;
    char err[256] = "";
    if (p80 && ps_parse(p80, &prog, err, sizeof err)) {
        static double x[32], y[32], out[32];
        PsThread *t = malloc(sizeof *t);
        int bad = 0;
        for (int it = 0; it < 64 && !bad; it++) {
            for (int i = 0; i < 32; i++) {
                x[i] = (it % 2 ? 1.41421356 : 0.999) + gm_urand() * 0.01;
                y[i] = (gm_urand() - 0.5) * (it % 2 ? 4000 : 1e5);
            }
            uint64_t prm[3] = {(uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)y, (uint64_t)(uintptr_t)out};
            for (uint32_t tid = 0; tid < 32; tid++) CHECK(ps_run(&prog, t, tid, prm, 3, err, sizeof err));
            for (int i = 0; i < 32; i++) {
                double r = pow(x[i], y[i]);
                int64_t d = gm_ord(out[i], 1) - gm_ord(r, 1);
                if (d > 1 || d < -1) {
                    bad = 1;
                    test_fail(__FILE__, __LINE__, "pow(%.17g, %.17g): ptx %.17g, libm %.17g", x[i], y[i], out[i], r);
                    break;
                }
            }
        }
        if (!bad) test_passed++;
        free(t);
        ps_free(&prog);
    }
    free(p80);
    tc_module_free(m);
    tc_context_free(ctx);
}
/* Runs fn's math1 PTX (fp64) by ptxsim on n given inputs */
static bool gm_sim1(const char *fn, const double *x, double *out, int n) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    bool ok = false;
    if (!tc_module_load_file(ctx, "tests/kernels/kern.py", &m)) {
        char *p80 = gm_ptx(ctx, m, fn, 0, 1, 80, __FILE__, __LINE__);
        PsProg prog;
        char err[256] = "";
        if (p80 && ps_parse(p80, &prog, err, sizeof err)) {
            PsThread *t = malloc(sizeof *t);
            double xs[32], os[32];
            ok = true;
            for (int c = 0; c < n && ok; c += 32) {
                for (int i = 0; i < 32; i++) xs[i] = c + i < n ? x[c + i] : 1;
                uint64_t prm[2] = {(uint64_t)(uintptr_t)xs, (uint64_t)(uintptr_t)os};
                for (uint32_t tid = 0; tid < 32 && ok; tid++) ok = ps_run(&prog, t, tid, prm, 2, err, sizeof err);
                for (int i = 0; i < 32 && c + i < n; i++) out[c + i] = os[i];
            }
            if (!ok) test_fail(__FILE__, __LINE__, "%s: %s", fn, err);
            free(t);
            ps_free(&prog);
        }
        free(p80);
    }
    tc_module_free(m);
    tc_context_free(ctx);
    return ok;
}

/* sin, cos, tan where the reduction is hard: close to multiples of pi/2 (huge ones included:
 * 0x1.6ac5b262ca1ffp+849 is within 2^-61 of one), the largest double, pi/4's neighbours;
 * within an ulp of glibc (which reduces exactly) */
TEST(gpumath_fp64_trig_hard) {
    double x[] = {0x1.6ac5b262ca1ffp+849, 0x1.8c5d3ccdab2eap+562, 0x1.921fb54442d18p+0,
                  0x1.921fb54442d18p+1, 0x1.921fb54442d18p+2, 0x1.2d97c7f3321d2p+1, 355, 103993,
                  1.7976931348623157e308, -1.7976931348623157e308, 0x1.921fb54442d18p-1,
                  0x1.921fb54442d19p-1, 0x1.921fb54442d17p-1, 1e22, 1e300, 0x1p1023, 0x1p-1074,
                  -0x1p-1022, 1e-8, 0x1.5bf0a8b145769p+1, 0x1.fffffffffffffp+52};
    enum { N = sizeof x / sizeof x[0] };
    const char *fns[3] = {"sin", "cos", "tan"};
    for (int f = 0; f < 3; f++) {
        double got[N];
        if (!gm_sim1(fns[f], x, got, N)) continue;
        for (int i = 0; i < N; i++) {
            double r = f == 0 ? sin(x[i]) : f == 1 ? cos(x[i]) : tan(x[i]);
            /* the worst case (Muller): x - k pi/2 = 4.687165924254628e-19 (k = 1 mod 4) to 400
             * digits; glibc's cos and tan differ there from the 15th digit */
            if (x[i] == 0x1.6ac5b262ca1ffp+849) r = f == 0 ? 1 : f == 1 ? -0x1.14ae72e6ba22fp-61 : -0x1.d9ba9a7975636p+60;
            int64_t d = gm_ord(got[i], 1) - gm_ord(r, 1);
            if (d > 1 || d < -1) test_fail(__FILE__, __LINE__, "%s(%a): ptx %.17g, libm %.17g", fns[f], x[i], got[i], r);
            else test_passed++;
        }
    }
}

/* fp64 sin, cos, tan (Payne-Hanek reduction with the table of 2/pi's bits) and fp32 tan
 * through them: within an ulp of the interpreter over the whole range */
TEST(gpumath_trig) {
    static const struct { const char *fn; int f64; double lo, hi; } c[] = {
        {"sin", 1, -1074, 1023}, {"cos", 1, -1074, 1023}, {"tan", 1, -1074, 1023}, {"sin", 1, -3, 5},
        {"cos", 1, -3, 5}, {"tan", 1, -3, 5}, {"tan", 0, -149, 127}, {"tan", 0, -3, 5},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) GM_CHECK(c[i].fn, 0, c[i].f64, c[i].lo, c[i].hi, 1);
}

/* ---- fp64 erf, erfc, erfinv ----------------------------------------------------------- */

/* References with 64-bit significands, independent of the PTX and of the interpreter:
 * glibc's erfl and erfcl; erfinv by bisection on them (erfcl against 1 - |x|, exact, from
 * |x| = 1/2 on) and two Newton steps; sqrt(pi)/2 x (1 + pi x^2 / 12) below 2^-30. (The
 * interpreter's fp64 erfinv, Newton's method on erf y - x in double, is off by far more
 * than an ulp near +-1.) */
static long double gm_erf_ld(double x) { return erfl(x); }
static long double gm_erfc_ld(double x) { return erfcl(x); }
static long double gm_erfinv_f(long double y, long double ax) {
    return ax < 0.5L ? erfl(y) - ax : (1 - ax) - erfcl(y);
}
static long double gm_erfinv_ld(double x) {
    long double ax = fabsl((long double)x), lo = 0, hi = 7, c = 0.886226925452758013649083741671L;
    if (isnan(x) || ax > 1) return NAN;
    if (ax == 1) return copysignl(INFINITY, x);
    if (ax < 0x1p-30L) return x * c * (1 + 3.14159265358979323846L * ax * ax / 12);
    for (int i = 0; i < 100; i++) {
        long double m = (lo + hi) / 2;
        if (gm_erfinv_f(m, ax) < 0) lo = m; else hi = m;
    }
    for (int i = 0; i < 2; i++) lo -= gm_erfinv_f(lo, ax) / (expl(-lo * lo) / c);
    return copysignl(lo, x);
}

/* fn's PTX (fp64) by ptxsim on x[0..n) against ref rounded to double: at most `ulps` apart
 * (NaN with NaN) */
static void gm_check_ld_(const char *fn, const double *x, int n, long double (*ref)(double), int64_t ulps,
                         const char *cf, int cl) {
    double *got = malloc((size_t)n * sizeof *got);
    if (got && gm_sim1(fn, x, got, n)) {
        int nbad = 0, first = -1;
        for (int i = 0; i < n; i++) {
            double r = (double)ref(x[i]);
            if (isnan(got[i]) && isnan(r)) continue;
            int64_t d = isnan(got[i]) != isnan(r) ? INT64_MAX : gm_ord(got[i], 1) - gm_ord(r, 1);
            if (d > ulps || d < -ulps) { nbad++; if (first < 0) first = i; }
        }
        if (nbad) test_fail(cf, cl, "%s fp64: %d of %d beyond %lld ulp, first x=%.17g: ptx %.17g, "
                            "reference %.17g", fn, nbad, n, (long long)ulps, x[first], got[first],
                            (double)ref(x[first]));
        else test_passed++;
    }
    free(got);
}
#define GM_CHECK_LD(fn, x, n, ref, ulps) gm_check_ld_((fn), (x), (n), (ref), (ulps), __FILE__, __LINE__)

/* x[0..n) near each of b[0..nb): b itself, 8 ulps either side, and b +- 2^-k b for k = 10,
 * 13, ..., 40; returns how many */
static int gm_near(double *x, const double *b, int nb) {
    int n = 0;
    for (int i = 0; i < nb; i++) {
        double u = b[i], v = b[i];
        x[n++] = b[i];
        for (int k = 0; k < 8; k++) {
            u = nextafter(u, INFINITY);
            v = nextafter(v, -INFINITY);
            x[n++] = u;
            x[n++] = v;
        }
        for (int k = 10; k <= 40; k += 3) {
            x[n++] = b[i] + ldexp(b[i], -k);
            x[n++] = b[i] - ldexp(b[i], -k);
        }
    }
    return n;
}

/* mpmath's values, correctly rounded: {x, erf x, erfc x} and {x, erfinv x} */
static const double gm_erf_mp[][3] = {
    {0x1.56e1fc2f8f359p-997, 0x1.82e6d98711d3ap-997, 1}, {0.5, 0x1.0a7ef5c18edd2p-1, 0x1.eb02147ce245cp-2},
    {0x1.fffffffffffffp-2, 0x1.0a7ef5c18edd2p-1, 0x1.eb02147ce245dp-2},
    {1.125, 0x1.c6dad2829ec62p-1, 0x1.c9296beb09cf1p-4}, {1.875, 0x1.fbe61eef4cf6ap-1, 0x1.0678442cc256fp-7},
    {0x1.dffffffffffffp+0, 0x1.fbe61eef4cf6ap-1, 0x1.0678442cc2573p-7},
    {2.75, 0x1.fff2cfb0453d9p-1, 0x1.a609f7584d32bp-14}, {3.875, 0x1.fffffe92ced93p-1, 0x1.6d3126d74b6ccp-25},
    {5.9, 0x1.fffffffffffffp-1, 0x1.4b99601a343bep-54}, {-0.75, -0x1.6c1c9759d0e5fp-1, 0x1.b60e4bace8730p+0},
    {1e-5, 0x1.7a9f084b5e44cp-17, 0x1.fffe8560f7b4ap-1}, {10, 1, 0x1.7d8a7f2a8a2d0p-149},
    {26.55, 1, 0x0.b2ee03853bf84p-1022}, {26.6, 1, 0x0.0c860a467b1a5p-1022},
    {27.2, 1, 0x0.0000000000002p-1022}, {27.3, 1, 0}, {-3, -0x1.fffd1ac4135f9p-1, 0x1.fffe8d6209afdp+0},
    {-0.5, -0x1.0a7ef5c18edd2p-1, 0x1.853f7ae0c76e9p+0},
};
static const double gm_erfinv_mp[][2] = {
    {0x1.fffffffffffffp-1, 0x1.7744f8f74e94ap+2}, {0x1.ffffffffffffep-1, 0x1.73856d153f081p+2},
    {-0x1.fffffff800000p-1, -0x1.14fe6a4f2e9d0p+2}, {0.5, 0x1.e861fbb24c00ap-2}, {0x1.0a7ef5c18edd2p-1, 0.5},
    {0.99, 0x1.d2466082bb20ep+0}, {0x1.ffffffff24190p-1, 0x1.24a92a03d21cdp+2},
    {0x1.56e1fc2f8f359p-997, 0x1.2fdf36bf69b9fp-997}, {0x1p-28, 0x1.c5bf891b4ef6bp-29},
    {0x1.0000000000001p-28, 0x1.c5bf891b4ef6cp-29}, {0x1.ffea042a5a0f5p-1, 0x1.549c2e5e6f34cp+1},
    {-0.3, -0x1.1700774485ed2p-2}, {0x1p-1022, 0x0.e2dfc48da77b5p-1022},
};

/* fp64 erf and erfc: within CUDA's bounds (2 and 5 ulp) of the interpreter (glibc, whose
 * erfc is itself up to ~4 ulp off) over the sweeps; within an ulp of the long double
 * reference over the sweep, a linear one over [-8, 28] and around the bounds of the
 * polynomials' pieces (measured: 0.7 and 0.75 ulp); mpmath's values; special values */
TEST(gpumath_fp64_erf) {
    GM_CHECK("erf", 0, 1, -1074, 6, 2);
    GM_CHECK("erf", 0, 1, -3, 3, 2);
    GM_CHECK("erfc", 0, 1, -1074, 5, 5);
    GM_CHECK("erfc", 0, 1, -3, 3, 5);
    GM_CHECK("erfc", 0, 1, 3, 4.8, 5);
    static double x[GM_N];
    static const double b[] = {0.5, 1.125, 1.875, 2.75, 3.875, 6, 26.55, 27.22, 27.23, 27.5, -0.5, -3.875};
    for (int f = 0; f < 2; f++) {
        const char *fn = f ? "erfc" : "erf";
        long double (*ref)(double) = f ? gm_erfc_ld : gm_erf_ld;
        gm_sweep(x, 1, -1074, 5);
        GM_CHECK_LD(fn, x, GM_N, ref, 1);
        for (int i = 0; i < GM_N; i++) x[i] = -8 + 36 * (i + gm_urand()) / GM_N;
        GM_CHECK_LD(fn, x, GM_N, ref, 1);
        GM_CHECK_LD(fn, x, gm_near(x, b, sizeof b / sizeof b[0]), ref, 1);
        enum { NM = sizeof gm_erf_mp / sizeof gm_erf_mp[0] };
        double xm[NM], got[NM];
        for (int i = 0; i < NM; i++) xm[i] = gm_erf_mp[i][0];
        if (gm_sim1(fn, xm, got, NM))
            for (int i = 0; i < NM; i++) {
                int64_t d = gm_ord(got[i], 1) - gm_ord(gm_erf_mp[i][1 + f], 1);
                if (d > 1 || d < -1)
                    test_fail(__FILE__, __LINE__, "%s(%a): ptx %a, mpmath %a", fn, xm[i], got[i], gm_erf_mp[i][1 + f]);
                else test_passed++;
            }
    }
    const double sp[4] = {-0.0, INFINITY, -INFINITY, NAN};
    double e[4], c[4];
    if (gm_sim1("erf", sp, e, 4) && gm_sim1("erfc", sp, c, 4)) {
        CHECK(e[0] == 0 && signbit(e[0]) && e[1] == 1 && e[2] == -1 && isnan(e[3]));
        CHECK(c[0] == 1 && c[1] == 0 && c[2] == 2 && isnan(c[3]));
    }
}

/* fp64 erfinv: within an ulp (CUDA's bound: 5) of the long double reference over the sweep,
 * uniformly over (-1, 1), near +-1 (1 - |x| down to 2^-53) and around where the method
 * changes (measured: 0.73 ulp); special values; mpmath's values */
TEST(gpumath_fp64_erfinv) {
    static double x[GM_N];
    gm_sweep(x, 1, -1074, 0);
    GM_CHECK_LD("erfinv", x, GM_N, gm_erfinv_ld, 1);
    gm_sweep(x, 1, -40, 0);
    GM_CHECK_LD("erfinv", x, GM_N, gm_erfinv_ld, 1);
    for (int i = 0; i < GM_N; i++) x[i] = -1 + 2 * (i + gm_urand()) / GM_N;
    GM_CHECK_LD("erfinv", x, GM_N, gm_erfinv_ld, 1);
    for (int i = 0; i < GM_N; i++)   /* 1 - |x| in [2^-53, 1) */
        x[i] = (i % 2 ? -1 : 1) * (1 - ldexp(1 + gm_urand(), -1 - (int)(53 * gm_urand())));
    GM_CHECK_LD("erfinv", x, GM_N, gm_erfinv_ld, 1);
    /* y = 1/2 (erf or erfc residuals), w = 8 (the guess's pieces), 2^-28 (linear below) */
    static const double b[] = {0x1.0a7ef5c18edd2p-1, 0x1.ffea042a5a0f5p-1, 0x1p-28, 0.5, 1};
    GM_CHECK_LD("erfinv", x, gm_near(x, b, sizeof b / sizeof b[0]), gm_erfinv_ld, 1);
    enum { NM = sizeof gm_erfinv_mp / sizeof gm_erfinv_mp[0] };
    double xm[NM + 8], got[NM + 8];
    const double sp[8] = {0.0, -0.0, 1, -1, 1.5, INFINITY, -INFINITY, NAN};
    for (int i = 0; i < NM; i++) xm[i] = gm_erfinv_mp[i][0];
    for (int i = 0; i < 8; i++) xm[NM + i] = sp[i];
    if (gm_sim1("erfinv", xm, got, NM + 8)) {
        for (int i = 0; i < NM; i++) {
            int64_t d = gm_ord(got[i], 1) - gm_ord(gm_erfinv_mp[i][1], 1);
            if (d > 1 || d < -1)
                test_fail(__FILE__, __LINE__, "erfinv(%a): ptx %a, mpmath %a", xm[i], got[i], gm_erfinv_mp[i][1]);
            else test_passed++;
        }
        CHECK(got[NM] == 0 && !signbit(got[NM]) && got[NM + 1] == 0 && signbit(got[NM + 1]));
        CHECK(got[NM + 2] == INFINITY && got[NM + 3] == -INFINITY);
        CHECK(isnan(got[NM + 4]) && isnan(got[NM + 5]) && isnan(got[NM + 6]) && isnan(got[NM + 7]));
    }
}

/* ---- NaN -> integer casts --------------------------------------------------------------- */

/* The expected value of a float NaN cast to `to` (the PTX ISA's cvt: 1 << (bits - 1) from an
 * fp64 or into 64 bits, else 0; an 8-bit result is a 16-bit conversion's low byte), and of
 * 2.5 and -2.5 (truncated). */
static const struct { const char *to; tc_dtype dt; int64_t from32, from64; } gm_nan_cases[] = {
    {"i64", TC_I64, INT64_MIN, INT64_MIN}, {"u64", TC_U64, INT64_MIN, INT64_MIN},
    {"i32", TC_I32, 0, INT32_MIN}, {"u32", TC_U32, 0, 2147483648LL}, {"i16", TC_I16, 0, -32768},
    {"u16", TC_U16, 0, 32768}, {"i8", TC_I8, 0, 0}, {"u8", TC_U8, 0, 0}, {"i1", TC_I1, 1, 1},
};

static int64_t gm_rdint(const unsigned char *b, tc_dtype dt, int i) {
    switch (dt) {
    case TC_I64: case TC_U64: { int64_t v; memcpy(&v, b + 8 * i, 8); return v; }
    case TC_I32: { int32_t v; memcpy(&v, b + 4 * i, 4); return v; }
    case TC_U32: { uint32_t v; memcpy(&v, b + 4 * i, 4); return v; }
    case TC_I16: { int16_t v; memcpy(&v, b + 2 * i, 2); return v; }
    case TC_U16: { uint16_t v; memcpy(&v, b + 2 * i, 2); return v; }
    case TC_I8: return (int8_t)b[i];
    default: return b[i];
    }
}

/* The interpreter's casts of NaN (fp16, fp32, fp64) to every integer type, as the GPU's */
TEST(gpumath_nan_to_int_interp) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "nan_cast.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "nan_to_int");
    const tc_dtype fdt[3] = {TC_FP16, TC_FP32, TC_FP64};
    for (int f = 0; f < 3 && k; f++) {
        unsigned char bx[32] = {0}, bo[32];
        for (int i = 0; i < 4; i++) {
            double v = i == 1 ? 2.5 : i == 3 ? -2.5 : NAN;
            if (fdt[f] == TC_FP64) memcpy(bx + 8 * i, &v, 8);
            else if (fdt[f] == TC_FP32) { float x = (float)v; memcpy(bx + 4 * i, &x, 4); }
            else { uint16_t h = i == 1 ? 0x4100 : i == 3 ? 0xC100 : 0x7E00; memcpy(bx + 2 * i, &h, 2); }
        }
        for (size_t c = 0; c < sizeof gm_nan_cases / sizeof gm_nan_cases[0]; c++) {
            tc_tensor *tx = kt_t1(ctx, fdt[f], 4, bx), *to = kt_t1(ctx, gm_nan_cases[c].dt, 4, NULL);
            if (KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                       {"TO", tc_str(gm_nan_cases[c].to)}, {"BLOCK", tc_int(4)})) {
                kt_get(to, bo);
                int64_t want = f == 2 ? gm_nan_cases[c].from64 : gm_nan_cases[c].from32;
                bool u = gm_nan_cases[c].to[0] == 'u', b1 = gm_nan_cases[c].dt == TC_I1;
                int64_t w1 = b1 ? 1 : 2, w3 = b1 ? 1 : u ? 0 : -2;   /* 2.5 -> 2, -2.5 -> -2 (unsigned: 0) */
                CHECK_INT(want, gm_rdint(bo, gm_nan_cases[c].dt, 0));
                CHECK_INT(w1, gm_rdint(bo, gm_nan_cases[c].dt, 1));
                CHECK_INT(want, gm_rdint(bo, gm_nan_cases[c].dt, 2));
                CHECK_INT(w3, gm_rdint(bo, gm_nan_cases[c].dt, 3));
            }
            tc_tensor_free(tx); tc_tensor_free(to);
        }
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* The GPU's casts of NaN, by ptxsim on the PTX (which models cvt as the PTX ISA states it):
 * the same numbers, 16-bit ones from fp64 included */
TEST(gpumath_nan_to_int_ptx) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "nan_cast.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "nan_to_int");
    static const char *const sigs[3] = {"*fp16:16", "*fp32:16", "*fp64:16"};
    static const char *const otys[] = {"*i64:16", "*u64:16", "*i32:16", "*u32:16", "*i16:16", "*u16:16",
                                       "*i8:16", "*u8:16", "*i1:16"};
    for (int f = 0; f < 3 && k; f++) {
        for (size_t c = 0; c < sizeof gm_nan_cases / sizeof gm_nan_cases[0]; c++) {
            tc_target tg = {"cuda", 80, 32, 0};
            const char *sig[2] = {sigs[f], otys[c]};
            tc_args *a = NULL;
            tc_args_new(k, &a);
            tc_args_set(a, "TO", tc_str(gm_nan_cases[c].to));
            tc_args_set(a, "BLOCK", tc_int(32));
            char *ptx = NULL;
            tc_status s = tc_compile_ptx(k, &tg, sig, 2, a, 1, &ptx);
            tc_args_free(a);
            if (s) { test_fail(__FILE__, __LINE__, "%s", tc_errmsg(ctx)); continue; }
            PsProg prog;
            char err[256] = "";
            unsigned char bx[256] = {0}, bo[256] = {0};
            for (int i = 0; i < 32; i++) {
                double v = NAN;
                if (f == 2) memcpy(bx + 8 * i, &v, 8);
                else if (f == 1) { float x = NAN; memcpy(bx + 4 * i, &x, 4); }
                else { uint16_t h = 0x7E00; memcpy(bx + 2 * i, &h, 2); }
            }
            if (ps_parse(ptx, &prog, err, sizeof err)) {
                PsThread *t = malloc(sizeof *t);
                uint64_t prm[2] = {(uint64_t)(uintptr_t)bx, (uint64_t)(uintptr_t)bo};
                bool ok = ps_run(&prog, t, 0, prm, 2, err, sizeof err);
                if (!ok) test_fail(__FILE__, __LINE__, "%s", err);
                else {
                    int64_t want = f == 2 ? gm_nan_cases[c].from64 : gm_nan_cases[c].from32;
                    int64_t got = gm_rdint(bo, gm_nan_cases[c].dt, 0);
                    if (got != want) test_fail(__FILE__, __LINE__, "%s -> %s: %lld, want %lld", sigs[f],
                                               gm_nan_cases[c].to, (long long)got, (long long)want);
                    else test_passed++;
                }
                free(t);
                ps_free(&prog);
            }
            free(ptx);
        }
    }
    tc_module_free(m);
    tc_context_free(ctx);
}
/* fp64 atan, asin, acos, atan2 (atan of k/8 from a table, the quotient's low part), sinpi,
 * cospi (exact reduction), cbrt, rcbrt (Newton, exact residual), hypot, rhypot (squares as
 * hi + lo): within an ulp of the interpreter (whose sinpi/cospi reduce exactly and whose cbrt
 * is refined: glibc's cbrt is off by up to 4 ulp) */
TEST(gpumath_fp64_more) {
    static const struct { const char *fn; int two; double lo, hi; } c[] = {
        {"atan", 0, -1074, 1023}, {"atan", 0, -3, 3}, {"asin", 0, -1074, 0}, {"acos", 0, -1074, 0},
        {"asin", 0, -3, 0}, {"acos", 0, -3, 0}, {"atan2", 1, -1074, 1023}, {"atan2", 1, -3, 3},
        {"sinpi", 0, -1074, 1023}, {"cospi", 0, -1074, 1023}, {"sinpi", 0, -3, 6}, {"cospi", 0, -3, 6},
        {"cbrt", 0, -1074, 1023}, {"rcbrt", 0, -1074, 1023}, {"hypot", 1, -1074, 1023}, {"rhypot", 1, -1074, 1023},
        {"hypot", 1, -3, 3}, {"rhypot", 1, -3, 3},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) GM_CHECK(c[i].fn, c[i].two, 1, c[i].lo, c[i].hi, 1);
}
/* fp64 asinh, acosh, atanh through log1p (ln|x| + ln 2 from 2^28 on): within an ulp of the
 * interpreter, two for atanh (both are an ulp from the truth at atanh(-0.11466026088648013),
 * -0.11516674068053719, on either side) */
TEST(gpumath_fp64_ahyp) {
    static const struct { const char *fn; double lo, hi; int ulps; } c[] = {
        {"asinh", -1074, 1023, 1}, {"asinh", -3, 3, 1}, {"acosh", 0, 1023, 1}, {"acosh", -3, 3, 1},
        {"atanh", -1074, 0, 2}, {"atanh", -3, 0, 2},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) GM_CHECK(c[i].fn, 0, 1, c[i].lo, c[i].hi, c[i].ulps);
}

/* ldexp and scalbn (an int32 exponent): exact, rounded once where the result is subnormal
 * (fp32 in fp64; fp64 scaled in steps that stay normal, then by one power of two) */
TEST(gpumath_ldexp) {
    GM_CHECK("ldexp", 2, 0, -149, 127, 0);
    GM_CHECK("ldexp", 2, 1, -1074, 1023, 0);
    GM_CHECK("scalbn", 2, 1, -1074, 1023, 0);
    GM_CHECK("ldexp", 2, 1, -3, 3, 0);
}

/* The functions scripts/gpu-math-check.sh checked on an H200 (2026-12-01: 124 functions, 0
 * failed) compile without TRITONC_GPU_UNVERIFIED, and so do fp64 erf, erfc and erfinv
 * (checked by ptxsim above; their gpu-math-check rows not yet run on a GPU). */
TEST(gpumath_checked_on_the_default_path) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, "tests/kernels/kern.py", &m));
    static const struct { const char *fn; int two, f64; } c[] = {
        {"exp10", 0, 1}, {"tan", 0, 0}, {"erfc", 0, 0}, {"pow", 1, 1}, {"expm1", 0, 0}, {"exp", 0, 1},
        {"erf", 0, 1}, {"erfc", 0, 1}, {"erfinv", 0, 1}};
    tc_target tg = {"cuda", 90, 32, true};
    /* the caller's setting, copied: setenv may free the string getenv gave */
    const char *env = getenv("TRITONC_GPU_UNVERIFIED");
    char had[64] = "";
    bool was_set = env != NULL;
    if (env) snprintf(had, sizeof had, "%s", env);
    unsetenv("TRITONC_GPU_UNVERIFIED");
    for (int i = 0; m && i < (int)(sizeof c / sizeof c[0]); i++) {
        tc_kernel *k = NULL;
        CHECK_INT(TC_OK, tc_module_kernel(m, c[i].two ? "math2" : "math1", &k));
        const char *t = c[i].f64 ? "*fp64:16" : "*fp32:16";
        const char *sig[3] = {t, t, t};
        tc_args *a = NULL;
        tc_args_new(k, &a);
        tc_args_set(a, "FN", tc_str(c[i].fn));
        tc_args_set(a, "BLOCK", tc_int(32));
        char *ptx = NULL;
        tc_status s = tc_compile_ptx(k, &tg, sig, c[i].two ? 3 : 2, a, 1, &ptx);
        CHECK_INT(TC_OK, s);
        tc_free(ptx);
        tc_args_free(a);
    }
    if (was_set) setenv("TRITONC_GPU_UNVERIFIED", had, 1);
    tc_module_free(m);
    tc_context_free(ctx);
}
