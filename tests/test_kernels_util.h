/* test_kernels_util.h — shared helpers of the kernel conformance tests (test_kernels*.c):
 * contexts on the interpreter, kernel files, tensors from host data, launches with named
 * arguments, array comparisons that count one assertion per array, a tiny LCG, and
 * reference fp16/bf16 conversions written independently of the library. */
#ifndef TEST_KERNELS_UTIL_H
#define TEST_KERNELS_UTIL_H

#include "test.h"
#include "tritonc.h"

#include <stdlib.h>

#define COUNT_OF_CASES(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- deterministic inputs ---------------------------------------------------------- */

static uint32_t kt_lcg_state = 12345u;
static inline void kt_seed(uint32_t s) { kt_lcg_state = s * 2654435761u + 1u; }
static inline uint32_t kt_rand(void) {
    kt_lcg_state = kt_lcg_state * 1664525u + 1013904223u;
    return kt_lcg_state >> 8; /* 24 bits */
}
static inline float kt_frand(float lo, float hi) {
    return lo + (hi - lo) * (float)((double)kt_rand() / 16777216.0);
}
static inline int kt_irand(int lo, int hi) { /* inclusive */
    return lo + (int)(kt_rand() % (uint32_t)(hi - lo + 1));
}

/* ---- reference conversions (round to nearest even) ----------------------------------- */

/* Rounds v to a binary float with mbits explicit mantissa bits, minimum normal exponent
 * emin (subnormals below) and largest finite value maxv (beyond it: inf). Exact in double
 * for every format narrower than double. */
static inline double kt_round_fp(double v, int mbits, int emin, double maxv) {
    if (isnan(v) || isinf(v) || v == 0) return v;
    double a = fabs(v);
    int e;
    frexp(a, &e);
    int ue = e - 1;
    if (ue < emin) ue = emin;
    double q = ldexp(1.0, ue - mbits);
    double r = nearbyint(a / q) * q; /* default rounding mode: to nearest even */
    if (r > maxv) r = INFINITY;
    return v < 0 ? -r : r;
}
static inline double kt_round_f16(double v) { return kt_round_fp(v, 10, -14, 65504.0); }
static inline double kt_round_bf16(double v) {
    return kt_round_fp(v, 7, -126, ldexp(255.0 / 128.0, 127));
}
static inline float kt_round_f32(double v) { return (float)v; }

static inline double kt_h2d(uint16_t h) {
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 0) v = ldexp((double)m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexp(1024.0 + m, e - 25);
    return s ? -v : v;
}
/* v must already be representable in fp16 (the result of kt_round_f16). */
static inline uint16_t kt_d2h_bits(double v) {
    uint16_t s = signbit(v) ? 0x8000 : 0;
    if (isnan(v)) return 0x7e00;
    double a = fabs(v);
    if (isinf(a)) return s | 0x7c00;
    if (a < ldexp(1.0, -14)) return s | (uint16_t)(a / ldexp(1.0, -24));
    int e;
    frexp(a, &e);
    int ue = e - 1;
    uint16_t m = (uint16_t)(a / ldexp(1.0, ue - 10) - 1024.0);
    return s | (uint16_t)((ue + 15) << 10) | m;
}
static inline uint16_t kt_f16(double v) { return kt_d2h_bits(kt_round_f16(v)); }
static inline double kt_bf2d(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint16_t kt_bf16(double v) {
    float f = (float)kt_round_bf16(v);
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}
static inline uint32_t kt_fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* ---- contexts, modules, kernels ------------------------------------------------------- */

static inline tc_context *kt_ctx(void) {
    tc_context *c = NULL;
    if (tc_context_new(&c) != TC_OK || !c) {
        test_fail(__FILE__, __LINE__, "tc_context_new failed");
        return NULL;
    }
    tc_context_set_backend(c, TC_BACKEND_INTERPRET);
    return c;
}

/* 1 when a CUDA driver answers (what a test that needs the GPU checks first) */
static inline int kt_have_driver(void) {
    tc_context *ctx = NULL;
    tc_context_new(&ctx);
    const char *name;
    int ok = tc_active_driver(ctx, &name) == TC_OK;
    tc_context_free(ctx);
    return ok;
}

static inline char *kt_read(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s) { fclose(f); return NULL; }
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = 0;
    fclose(f);
    return s;
}

/* c = a @ b in doubles, a (M x K) and b (K x N) fp16 bits, row-major: the exact product
 * of small fp16 values */
static inline void kt_matmul_f16(const uint16_t *a, const uint16_t *b, double *c, int M, int N, int K) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int q = 0; q < K; q++) s += kt_h2d(a[i * K + q]) * kt_h2d(b[q * N + j]);
            c[i * N + j] = s;
        }
}

/* Calls each(body, end, user) for each loop of a PTX text: from a label `$Ln:` to the
 * `bra.uni $Ln;` that jumps back to it */
static inline void kt_each_loop(const char *ptx, void (*each)(const char *, const char *, void *),
                                void *user) {
    for (const char *l = strstr(ptx, "\n$L"); l; l = strstr(l + 1, "\n$L")) {
        char back[48];
        int k = (int)strcspn(l + 1, ":\n");
        if (k >= 32 || l[1 + k] != ':') continue;
        snprintf(back, sizeof back, "bra.uni %.*s;", k, l + 1);
        const char *end = strstr(l, back);
        if (end) each(l + 2 + k, end, user);
    }
}

/* Loads tests/kernels/<file> through tc_module_load_string (name = the path). */
static inline tc_module *kt_module_(tc_context *ctx, const char *file, const char *cf, int cl) {
    char path[256];
    snprintf(path, sizeof path, "tests/kernels/%s", file);
    char *src = kt_read(path);
    if (!src) { test_fail(cf, cl, "cannot read %s", path); return NULL; }
    tc_module *m = NULL;
    tc_status s = tc_module_load_string(ctx, path, src, &m);
    free(src);
    if (s != TC_OK || !m) {
        test_fail(cf, cl, "loading %s: %s: %s", path, tc_status_name(s), tc_errmsg(ctx));
        return NULL;
    }
    return m;
}
#define KT_MODULE(ctx, file) kt_module_((ctx), (file), __FILE__, __LINE__)

static inline tc_kernel *kt_kernel_(tc_context *ctx, tc_module *m, const char *name,
                                    const char *cf, int cl) {
    if (!m) return NULL;
    tc_kernel *k = NULL;
    tc_status s = tc_module_kernel(m, name, &k);
    if (s != TC_OK || !k) {
        test_fail(cf, cl, "kernel %s: %s: %s", name, tc_status_name(s), tc_errmsg(ctx));
        return NULL;
    }
    return k;
}
#define KT_KERNEL(ctx, m, name) kt_kernel_((ctx), (m), (name), __FILE__, __LINE__)

/* ---- tensors ---------------------------------------------------------------------------- */

/* A tensor from host data (NULL data: zero-filled). */
static inline tc_tensor *kt_tensor(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                                   const void *data) {
    tc_tensor *t = NULL;
    tc_status s = data ? tc_tensor_from_host(ctx, dt, rank, shape, data, &t)
                       : tc_tensor_new(ctx, dt, rank, shape, &t);
    if (s != TC_OK) {
        test_fail(__FILE__, __LINE__, "tensor: %s: %s", tc_status_name(s), tc_errmsg(ctx));
        return NULL;
    }
    return t;
}
static inline tc_tensor *kt_t1(tc_context *ctx, tc_dtype dt, int64_t n, const void *data) {
    return kt_tensor(ctx, dt, 1, &n, data);
}
static inline tc_tensor *kt_t2(tc_context *ctx, tc_dtype dt, int64_t r, int64_t c,
                               const void *data) {
    int64_t sh[2] = {r, c};
    return kt_tensor(ctx, dt, 2, sh, data);
}
/* Copies a tensor back to host memory (dst must hold nbytes). */
static inline void kt_get(tc_tensor *t, void *dst) {
    if (!t) return;
    tc_status s = tc_tensor_to_host(t, dst, tc_tensor_nbytes(t));
    if (s != TC_OK) test_fail(__FILE__, __LINE__, "tc_tensor_to_host: %s", tc_status_name(s));
}

/* ---- launches ----------------------------------------------------------------------------- */

typedef struct KtArg { const char *name; tc_value v; } KtArg;
#define KT_ARGS(...) ((const KtArg[]){__VA_ARGS__, {NULL, {TC_VAL_NONE, {0}}}})

static inline tc_status kt_launch_opts(tc_context *ctx, tc_kernel *k, const tc_launch_opts *o,
                                       const KtArg *args) {
    if (!k) return TC_ERR_NOT_FOUND;
    tc_args *a = NULL;
    tc_status s = tc_args_new(k, &a);
    if (s != TC_OK) return s;
    for (const KtArg *p = args; p->name; p++) {
        s = tc_args_set(a, p->name, p->v);
        if (s != TC_OK) {
            fprintf(stderr, "  tc_args_set(%s): %s: %s\n", p->name, tc_status_name(s),
                    tc_errmsg(ctx));
            tc_args_free(a);
            return s;
        }
    }
    s = tc_launch(k, a, o);
    tc_args_free(a);
    return s;
}
static inline tc_status kt_launch(tc_context *ctx, tc_kernel *k, uint32_t g0, uint32_t g1,
                                  uint32_t g2, const KtArg *args) {
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = g0;
    o.grid[1] = g1;
    o.grid[2] = g2;
    return kt_launch_opts(ctx, k, &o, args);
}
/* Launch that must succeed: counts one assertion. Evaluates to 1 on success. */
static inline int kt_ok_(tc_context *ctx, tc_status s, const char *what, const char *cf, int cl) {
    if (s == TC_OK) { test_passed++; return 1; }
    test_fail(cf, cl, "%s: %s: %s", what, tc_status_name(s), ctx ? tc_errmsg(ctx) : "");
    return 0;
}
#define KT_RUN(ctx, k, g0, g1, g2, ...) \
    kt_ok_((ctx), kt_launch((ctx), (k), (g0), (g1), (g2), KT_ARGS(__VA_ARGS__)), "launch " #k, \
           __FILE__, __LINE__)

/* ---- array comparisons (one assertion per array) ---------------------------------------- */

static inline int kt_near(double e, double a, double rtol, double atol) {
    if (isnan(e) || isnan(a)) return isnan(e) && isnan(a);
    if (e == a) return 1;
    return fabs(a - e) <= atol + rtol * fabs(e);
}
static inline void kt_check_f64_(const char *what, const double *exp, const double *got, long n,
                                 double rtol, double atol, const char *cf, int cl) {
    long bad = 0, first = -1;
    for (long i = 0; i < n; i++)
        if (!kt_near(exp[i], got[i], rtol, atol)) { if (first < 0) first = i; bad++; }
    if (!bad) { test_passed++; return; }
    test_fail(cf, cl, "%s: %ld of %ld elements differ; first at [%ld]: expected %.9g, got %.9g",
              what, bad, n, first, exp[first], got[first]);
}
#define KT_CHECK_ARR(exp, got, n, rtol, atol) \
    kt_check_f64_(#got, (exp), (got), (long)(n), (rtol), (atol), __FILE__, __LINE__)

static inline void kt_check_i64_(const char *what, const int64_t *exp, const int64_t *got, long n,
                                 const char *cf, int cl) {
    long bad = 0, first = -1;
    for (long i = 0; i < n; i++)
        if (exp[i] != got[i]) { if (first < 0) first = i; bad++; }
    if (!bad) { test_passed++; return; }
    test_fail(cf, cl, "%s: %ld of %ld elements differ; first at [%ld]: expected %lld, got %lld",
              what, bad, n, first, (long long)exp[first], (long long)got[first]);
}
#define KT_CHECK_IARR(exp, got, n) \
    kt_check_i64_(#got, (exp), (got), (long)(n), __FILE__, __LINE__)

/* Widening copies, so one comparison covers every element type. */
#define KT_WIDEN(dst, src, n) do { for (long i_ = 0; i_ < (long)(n); i_++) (dst)[i_] = (src)[i_]; } while (0)

#endif
