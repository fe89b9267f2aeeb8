/* test_fp8.c — the 8-bit float dtypes (fp8e5, fp8e4nv, fp8e4b15): their values, Triton's
 * rounding (.to(): nearest even and saturating; fp8e4b15 by Triton's own fp16 bit
 * conversion), casts, loads and stores, arithmetic and promotion, and the casts Triton
 * refuses. The references here are brute force over the codes, not the library's code. */
#include "test_kernels_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_kept.h"
#include <string.h>

/* ---- reference values of the codes ---------------------------------------------------------- */

static double ref_decode(tc_dtype t, unsigned c) {
    c &= 0xff;
    if (t == TC_FP8E5) return kt_h2d((uint16_t)(c << 8)); /* e5m2 is the high byte of an fp16 */
    if (t == TC_FP8E4B15) /* Triton: sign, then the 7 bits moved into an fp16 of the same bias */
        return kt_h2d((uint16_t)(((c & 0x80) << 8) | ((c & 0x7f) << 7)));
    /* e4m3fn: bias 7, S.1111.111 is NaN, no inf */
    if ((c & 0x7f) == 0x7f) return NAN;
    int e = (c >> 3) & 15, m = c & 7;
    double v = e ? (1 + m / 8.0) * pow(2, e - 7) : m / 8.0 * pow(2, -6);
    return c & 0x80 ? -v : v;
}

static bool ref_finite_code(tc_dtype t, unsigned c) { return isfinite(ref_decode(t, c)); }

/* Nearest finite code to v (a finite value), ties to the even code (ties_away: to the larger
 * magnitude), with magnitudes beyond the largest code clamped to it. */
static unsigned ref_round(tc_dtype t, double v, bool ties_away, unsigned maxcode) {
    double a = fabs(v);
    if (a > ref_decode(t, maxcode)) a = ref_decode(t, maxcode);
    unsigned best = 0;
    double bd = INFINITY;
    for (unsigned c = 0; c <= maxcode; c++) {
        if (!ref_finite_code(t, c)) continue;
        double d = fabs(ref_decode(t, c) - a);
        if (d < bd || (d == bd && (ties_away ? c > best : (c & 1) == 0))) { bd = d; best = c; }
    }
    return (signbit(v) ? 0x80u : 0u) | best;
}

/* Round toward zero onto the fp16 grid (brute force over the positive fp16 codes). */
static double ref_f16_rtz(double v) {
    double a = fabs(v), best = 0;
    for (unsigned h = 0; h < 0x7c00; h++) {
        double x = kt_h2d((uint16_t)h);
        if (x <= a && x > best) best = x;
    }
    return v < 0 ? -best : best;
}

static unsigned ref_encode(tc_dtype t, double v) {
    if (t == TC_FP8E4B15) { /* fp16 toward zero, |h| clamped to 1.75 (NaN too), ties away */
        double h = isnan(v) ? 1.75 : ref_f16_rtz(isinf(v) ? copysign(65504, v) : v);
        if (fabs(h) > 1.75) h = copysign(1.75, h);
        return ref_round(t, h, true, 0x7e) | (signbit(v) && !isnan(v) ? 0x80u : 0u);
    }
    if (isnan(v)) return 0x7f;
    unsigned maxcode = t == TC_FP8E5 ? 0x7b : 0x7e;
    if (isinf(v)) return (v < 0 ? 0x80u : 0u) | maxcode;
    return ref_round(t, v, false, maxcode);
}

static const tc_dtype fp8_types[3] = {TC_FP8E5, TC_FP8E4NV, TC_FP8E4B15};

TEST(fp8_names_sizes_and_values) {
    CHECK_STR("fp8e5", tc_dtype_name(TC_FP8E5));
    CHECK_STR("fp8e4nv", tc_dtype_name(TC_FP8E4NV));
    CHECK_STR("fp8e4b15", tc_dtype_name(TC_FP8E4B15));
    for (int i = 0; i < 3; i++) CHECK_INT(1, (long long)tc_dtype_size(fp8_types[i]));
    tc_dtype d;
    CHECK_INT(TC_OK, tc_dtype_from_name("float8e4nv", &d));
    CHECK_INT(TC_FP8E4NV, d);
    CHECK_INT(TC_OK, tc_dtype_from_name("float8_e5m2", &d));
    CHECK_INT(TC_FP8E5, d);
    CHECK_INT(TC_ERR_ARG, tc_dtype_from_name("fp8e4b8", &d));
    /* hand-checked codes */
    CHECK(tc_fp8_decode(TC_FP8E5, 0x3c) == 1.0);
    CHECK(tc_fp8_decode(TC_FP8E5, 0x7b) == 57344.0);
    CHECK(isinf(tc_fp8_decode(TC_FP8E5, 0xfc)) && tc_fp8_decode(TC_FP8E5, 0xfc) < 0);
    CHECK(isnan(tc_fp8_decode(TC_FP8E5, 0x7d)));
    CHECK(tc_fp8_decode(TC_FP8E5, 0x01) == ldexp(1, -16));
    CHECK(tc_fp8_decode(TC_FP8E4NV, 0x38) == 1.0);
    CHECK(tc_fp8_decode(TC_FP8E4NV, 0x7e) == 448.0);
    CHECK(tc_fp8_decode(TC_FP8E4NV, 0x78) == 256.0);
    CHECK(isnan(tc_fp8_decode(TC_FP8E4NV, 0xff)));
    CHECK(tc_fp8_decode(TC_FP8E4NV, 0x01) == ldexp(1, -9));
    CHECK(tc_fp8_decode(TC_FP8E4B15, 0x78) == 1.0);
    CHECK(tc_fp8_decode(TC_FP8E4B15, 0x7f) == 1.875);
    CHECK(tc_fp8_decode(TC_FP8E4B15, 0xff) == -1.875);
    CHECK(tc_fp8_decode(TC_FP8E4B15, 0x01) == ldexp(1, -17));
    CHECK(isnan(tc_fp8_decode(TC_FP32, 0)));
    /* every code against the reference */
    int bad = 0;
    for (int i = 0; i < 3; i++)
        for (unsigned c = 0; c < 256; c++) {
            double e = ref_decode(fp8_types[i], c), g = tc_fp8_decode(fp8_types[i], c);
            if (isnan(e) ? !isnan(g) : (e != g || signbit(e) != signbit(g))) bad++;
        }
    CHECK_INT(0, bad);
}

TEST(fp8_encode_rounding) {
    /* ties to even, saturation, NaN */
    CHECK_INT(0x3c, tc_fp8_encode(TC_FP8E5, 1.125));  /* tie of 1.0 and 1.25 -> 1.0 */
    CHECK_INT(0x3e, tc_fp8_encode(TC_FP8E5, 1.375));  /* tie of 1.25 and 1.5 -> 1.5 */
    CHECK_INT(0x7b, tc_fp8_encode(TC_FP8E5, 1e6));
    CHECK_INT(0x7b, tc_fp8_encode(TC_FP8E5, 61440));  /* would round to inf: saturates */
    CHECK_INT(0xfb, tc_fp8_encode(TC_FP8E5, -INFINITY));
    CHECK_INT(0x7f, tc_fp8_encode(TC_FP8E5, NAN));
    CHECK_INT(0x00, tc_fp8_encode(TC_FP8E5, ldexp(1, -18)));  /* below half the smallest */
    CHECK_INT(0x7e, tc_fp8_encode(TC_FP8E4NV, 464));
    CHECK_INT(0xfe, tc_fp8_encode(TC_FP8E4NV, -1e9));
    CHECK_INT(0x7f, tc_fp8_encode(TC_FP8E4NV, NAN));
    CHECK_INT(0x79, tc_fp8_encode(TC_FP8E4B15, 1.0625)); /* a tie goes away from zero */
    CHECK_INT(0x7e, tc_fp8_encode(TC_FP8E4B15, 1.8));    /* saturates at 1.75, not 1.875 */
    CHECK_INT(0x7e, tc_fp8_encode(TC_FP8E4B15, NAN));
    CHECK_INT(0xfe, tc_fp8_encode(TC_FP8E4B15, -5));
    /* every code's value encodes back to the code (fp8e4b15: up to 1.75) */
    int bad = 0;
    for (int i = 0; i < 3; i++)
        for (unsigned c = 0; c < 256; c++) {
            double v = tc_fp8_decode(fp8_types[i], c);
            if (!isfinite(v) || (fp8_types[i] == TC_FP8E4B15 && (c & 0x7f) == 0x7f)) continue;
            if (v == 0) continue; /* -0.0 keeps its sign; checked below */
            if (tc_fp8_encode(fp8_types[i], v) != c) bad++;
        }
    CHECK_INT(0, bad);
    CHECK_INT(0x80, tc_fp8_encode(TC_FP8E5, -0.0));
    /* random values against the brute-force reference */
    kt_seed(8);
    bad = 0;
    for (int n = 0; n < 600; n++) {
        double v = (double)kt_frand(-1, 1) * ldexp(1, kt_irand(-20, 17));
        for (int i = 0; i < 3; i++)
            if (tc_fp8_encode(fp8_types[i], v) != ref_encode(fp8_types[i], v)) {
                if (bad++ < 3)
                    fprintf(stderr, "  %s(%.9g): 0x%02x, reference 0x%02x\n",
                            tc_dtype_name(fp8_types[i]), v, tc_fp8_encode(fp8_types[i], v),
                            ref_encode(fp8_types[i], v));
            }
    }
    CHECK_INT(0, bad);
}

/* ---- kernels on the interpreter ------------------------------------------------------------------ */

#define N8 64

static void fp8_inputs(float *x) {
    static const float special[] = {0.0f, -0.0f, 1.0f, 1.125f, 1.375f, 1e6f, -1e6f, INFINITY,
                                    -INFINITY, NAN, 448.0f, 464.0f, 1.8f, 1.0625f, 3e-5f, -1e-7f};
    int ns = (int)(sizeof special / sizeof special[0]);
    kt_seed(3);
    for (int i = 0; i < N8; i++)
        x[i] = i < ns ? special[i] : kt_frand(-1, 1) * (float)ldexp(1, kt_irand(-18, 16));
}

TEST(kern_fp8_casts) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "fp8.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "fp8_roundtrip_kernel");
    tc_kernel *kh = KT_KERNEL(ctx, m, "fp8_from_f16_kernel");
    static const char *const tl_names[3] = {"tl.float8e5", "tl.float8e4nv", "tl.float8e4b15"};
    float x[N8];
    fp8_inputs(x);
    for (int i = 0; i < 3; i++) {
        tc_tensor *tx = kt_t1(ctx, TC_FP32, N8, x), *tq = kt_t1(ctx, fp8_types[i], N8, NULL),
                  *to = kt_t1(ctx, TC_FP32, N8, NULL), *th = kt_t1(ctx, fp8_types[i], N8, NULL);
        KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"q_ptr", tc_tens(tq)},
               {"out_ptr", tc_tens(to)}, {"n", tc_int(N8)}, {"BLOCK", tc_int(N8)},
               {"DT", tc_str(tl_names[i])}, {"RTZ", tc_bool(0)});
        KT_RUN(ctx, kh, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"q_ptr", tc_tens(th)},
               {"BLOCK", tc_int(N8)}, {"DT", tc_str(tl_names[i])});
        uint8_t q[N8], qh[N8];
        float o[N8];
        kt_get(tq, q);
        kt_get(to, o);
        kt_get(th, qh);
        int64_t eq[N8], gq[N8], eh[N8], gh[N8];
        double eo[N8], go[N8];
        for (int j = 0; j < N8; j++) {
            eq[j] = ref_encode(fp8_types[i], x[j]);
            gq[j] = q[j];
            eo[j] = ref_decode(fp8_types[i], (unsigned)eq[j]);
            go[j] = o[j];
            /* via fp16 (RTNE): the fp8 of the fp16 value */
            eh[j] = ref_encode(fp8_types[i], kt_round_f16(x[j]));
            gh[j] = qh[j];
        }
        KT_CHECK_IARR(eq, gq, N8);
        KT_CHECK_ARR(eo, go, N8, 0, 0);
        KT_CHECK_IARR(eh, gh, N8);
    }
    /* rtz to fp8e5: toward zero, inf stays inf, no saturation of inf */
    tc_tensor *tx = kt_t1(ctx, TC_FP32, N8, x), *tq = kt_t1(ctx, TC_FP8E5, N8, NULL),
              *to = kt_t1(ctx, TC_FP32, N8, NULL);
    KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"q_ptr", tc_tens(tq)}, {"out_ptr", tc_tens(to)},
           {"n", tc_int(N8)}, {"BLOCK", tc_int(N8)}, {"DT", tc_str("tl.float8e5")}, {"RTZ", tc_bool(1)});
    float o[N8];
    kt_get(to, o);
    double eo[N8], go[N8];
    for (int j = 0; j < N8; j++) {
        double a = fabs((double)x[j]), best = 0;
        for (unsigned c = 0; c <= 0x7b; c++)
            if (ref_decode(TC_FP8E5, c) <= a && ref_decode(TC_FP8E5, c) > best) best = ref_decode(TC_FP8E5, c);
        eo[j] = isnan(x[j]) ? NAN : isinf(x[j]) ? x[j] : copysign(best, x[j]);
        go[j] = o[j];
    }
    KT_CHECK_ARR(eo, go, N8, 0, 0);
    free_all(ctx);
}

TEST(kern_fp8_arith_and_promotion) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "fp8.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "fp8_arith_kernel");
    enum { N = 16 };
    uint8_t a[N], b[N];
    kt_seed(5);
    for (int i = 0; i < N; i++) {
        a[i] = (uint8_t)ref_encode(TC_FP8E5, kt_frand(-8, 8));
        b[i] = (uint8_t)ref_encode(TC_FP8E5, kt_frand(-8, 8));
    }
    tc_tensor *ta = kt_t1(ctx, TC_FP8E5, N, a), *tb = kt_t1(ctx, TC_FP8E5, N, b),
              *tc = kt_t1(ctx, TC_FP8E5, N, NULL), *ts = kt_t1(ctx, TC_FP16, N, NULL),
              *tm = kt_t1(ctx, TC_FP8E5, N, NULL);
    KT_RUN(ctx, k, 1, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(tc)},
           {"s_ptr", tc_tens(ts)}, {"m_ptr", tc_tens(tm)}, {"BLOCK", tc_int(N)});
    uint8_t c[N], mn[N];
    uint16_t s[N];
    kt_get(tc, c);
    kt_get(ts, s);
    kt_get(tm, mn);
    int64_t ec[N], gc[N], es[N], gs[N], em[N], gm[N];
    for (int i = 0; i < N; i++) {
        double x = ref_decode(TC_FP8E5, a[i]), y = ref_decode(TC_FP8E5, b[i]);
        /* a * b rounds to fp8e5, then + a rounds again */
        double p = ref_decode(TC_FP8E5, ref_encode(TC_FP8E5, x * y));
        ec[i] = ref_encode(TC_FP8E5, p + x);
        gc[i] = c[i];
        double e4 = ref_decode(TC_FP8E4NV, ref_encode(TC_FP8E4NV, y));
        es[i] = kt_f16(x + e4);
        gs[i] = s[i];
        em[i] = x < y ? a[i] : b[i];
        gm[i] = mn[i];
    }
    KT_CHECK_IARR(ec, gc, N);
    KT_CHECK_IARR(es, gs, N);
    KT_CHECK_IARR(em, gm, N);
    free_all(ctx);
}

/* The casts Triton refuses are compile errors naming the kernel line. */
TEST(fp8_refused_casts) {
    static const struct { int what; tc_status st; const char *msg; } cases[] = {
        {0, TC_ERR_COMPILE, "cannot cast int32 to fp8e5"},
        {1, TC_ERR_COMPILE, "fp8e4b15 converts only to and from fp16 and fp32"},
        {2, TC_ERR_COMPILE, "Unsupported rounding mode"},
        {3, TC_ERR_UNSUPPORTED, "AMD"},
        {4, TC_ERR_COMPILE, "unexpected type fp8e5 and i"},
        {5, TC_ERR_COMPILE, "cannot cast fp64 to fp8e5"},
    };
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "fp8.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "fp8_bad_cast_kernel");
    float x = 1;
    for (int i = 0; i < COUNT_OF_CASES(cases); i++) {
        tc_tensor *tx = kt_t1(ctx, TC_FP32, 1, &x), *ty = kt_t1(ctx, TC_FP32, 1, NULL);
        tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                                         {"WHAT", tc_int(cases[i].what)}));
        CHECK_INT(cases[i].st, s);
        const char *msg = tc_errmsg(ctx);
        if (!strstr(msg, cases[i].msg) || !strstr(msg, "fp8.py:"))
            test_fail(__FILE__, __LINE__, "case %d: message '%s' lacks '%s'", i, msg, cases[i].msg);
        else test_passed++;
    }
    free_all(ctx);
}

/* tl.sum of fp8 stays fp8 (Triton widens only small integers), rounded at each step */
TEST(kern_fp8_reduce) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "fp8.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "fp8_reduce_kernel");
    enum { N = 32 };
    uint8_t x[N];
    kt_seed(21);
    for (int i = 0; i < N; i++) x[i] = (uint8_t)ref_encode(TC_FP8E5, kt_frand(-3, 5));
    tc_tensor *tx = kt_t1(ctx, TC_FP8E5, N, x), *ty = kt_t1(ctx, TC_FP8E5, 3, NULL),
              *ti = kt_t1(ctx, TC_I32, 1, NULL);
    KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)}, {"i_ptr", tc_tens(ti)},
           {"BLOCK", tc_int(N)});
    uint8_t y[3];
    int32_t am;
    kt_get(ty, y);
    kt_get(ti, &am);
    double s = ref_decode(TC_FP8E5, x[0]), mx = s, mn = s;
    int best = 0;
    for (int i = 1; i < N; i++) {
        double v = ref_decode(TC_FP8E5, x[i]);
        s = ref_decode(TC_FP8E5, ref_encode(TC_FP8E5, s + v));
        if (v > mx) { mx = v; best = i; }
        if (v < mn) mn = v;
    }
    int64_t e[4] = {ref_encode(TC_FP8E5, s), ref_encode(TC_FP8E5, mx), ref_encode(TC_FP8E5, mn), best},
            g[4] = {y[0], y[1], y[2], am};
    KT_CHECK_IARR(e, g, 4);
    free_all(ctx);
}

/* The command line: fp8 literals (rounded as .to() rounds fp32), --print, --save as '<u1' */
TEST(fp8_cli_values) {
    char cmd[1024], out[4096];
    snprintf(cmd, sizeof cmd,
             "%s/tritonc run tests/kernels/fp8.py fp8_roundtrip_kernel --interpret "
             "x_ptr='fp32[0.3,1e6,-1.125,3e-5]' q_ptr='fp8e4nv[0,0,0,0]' out_ptr='fp32:zeros(4)' n=4 "
             "BLOCK=4 DT=tl.float8e4nv RTZ=false --print out_ptr --save out_ptr=/tmp/tritonc-fp8-%d.npy 2>&1; "
             "%s/tritonc run tests/kernels/fp8.py fp8_from_f16_kernel --interpret x_ptr='fp32[1,2,3,0.3]' "
             "q_ptr='fp8e5:zeros(4)' BLOCK=4 DT=tl.float8e5 --print q_ptr --save q_ptr=/tmp/tritonc-fp8-%d.npy 2>&1; "
             "head -c 80 /tmp/tritonc-fp8-%d.npy | tr -d '\\000'; echo; tail -c 4 /tmp/tritonc-fp8-%d.npy | od -An -tx1; "
             "rm -f /tmp/tritonc-fp8-%d.npy",
             test_build_dir(), (int)getpid(), test_build_dir(), (int)getpid(), (int)getpid(), (int)getpid(),
             (int)getpid());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    /* e4m3fn: 0.3 -> 0.3125, 1e6 -> 448, -1.125 stays */
    CHECK(strstr(out, "out_ptr = [0.3125, 448.0, -1.125, 3.0517578125e-05]") == NULL); /* 3e-5 is 0 in e4m3 */
    CHECK(strstr(out, "out_ptr = [0.3125, 448.0, -1.125, 0.0]") != NULL);
    CHECK(strstr(out, "q_ptr = [1.0, 2.0, 3.0, 0.3125]") != NULL);
    CHECK(strstr(out, "'descr': '<u1'") != NULL);
    CHECK(strstr(out, "3c 40 42 35") != NULL); /* e5m2 bits of 1, 2, 3, 0.3125 */
    if (!strstr(out, "q_ptr = [1.0")) fprintf(stderr, "%s\n", out);
}

/* ---- the GPU backend without a GPU: PTX for sm_80, sm_89 and sm_90a, assembled by ptxas -------- */

static void fp8_compile(tc_context *ctx, tc_kernel *k, tc_args *a, const char *target, const char *const *sig, int nsig,
                        int expect_ok, const char *cf, int cl) {
    tc_target t;
    tc_compiled *c = NULL;
    if (tc_target_parse(target, &t) != TC_OK) { test_fail(cf, cl, "target %s", target); return; }
    tc_status s = tc_compile(k, &t, sig, nsig, a, 4, 3, &c);
    if (!expect_ok) {
        if (s == TC_ERR_UNSUPPORTED) test_passed++;
        else test_fail(cf, cl, "%s: expected TC_ERR_UNSUPPORTED, got %s", target, tc_status_name(s));
        tc_compiled_free(c);
        return;
    }
    if (s != TC_OK) { test_fail(cf, cl, "%s: %s", target, tc_status_name(s)); return; }
    char path[64];
    s = tc_ptxas_path(path, sizeof path);
    if (s == TC_OK) {
        s = tc_compiled_assemble(ctx, c);
        if (s != TC_OK) test_fail(cf, cl, "ptxas %s: %s: %s", target, tc_status_name(s), tc_errmsg(ctx));
        else test_passed++;
    } else {
        test_passed++;
    }
    tc_compiled_free(c);
}

TEST(fp8_gpu_ptx_assembles) {
    char dir[128], cmd[300], out[64];
    snprintf(dir, sizeof dir, "/tmp/tritonc-test-fp8-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    test_run(cmd, out, sizeof out);
    setenv("TRITONC_CACHE_DIR", dir, 1);
    tc_context *ctx = NULL;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    tc_module *m = KT_MODULE(ctx, "fp8.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "fp8_roundtrip_kernel");
    tc_kernel *ka = KT_KERNEL(ctx, m, "fp8_arith_kernel");
    tc_kernel *kh = KT_KERNEL(ctx, m, "fp8_from_f16_kernel");
    static const char *const targets[] = {"cuda:80", "cuda:89", "cuda:90a"};
    static const struct { const char *tl, *ptr; } types[] = {
        {"tl.float8e5", "*fp8e5"}, {"tl.float8e4nv", "*fp8e4nv"}, {"tl.float8e4b15", "*fp8e4b15"}};
    for (int ti = 0; ti < 3; ti++)
        for (int d = 0; d < 3; d++)
            for (int rtz = 0; rtz < 2; rtz++) {
                if (rtz && d != 0) continue;
                tc_args *a = NULL;
                tc_args_new(k, &a);
                tc_args_set(a, "BLOCK", tc_int(64));
                tc_args_set(a, "DT", tc_str(types[d].tl));
                tc_args_set(a, "RTZ", tc_bool(rtz));
                const char *sig[4] = {"*fp32:16", types[d].ptr, "*fp32:16", "i32"};
                /* fp8e4nv needs sm_89, as in Triton */
                fp8_compile(ctx, k, a, targets[ti], sig, 4, !(d == 1 && ti == 0), __FILE__, __LINE__);
                tc_args_free(a);
                tc_args *ah = NULL;
                tc_args_new(kh, &ah);
                tc_args_set(ah, "BLOCK", tc_int(64));
                tc_args_set(ah, "DT", tc_str(types[d].tl));
                const char *sigh[2] = {"*fp32:16", types[d].ptr};
                if (!rtz) fp8_compile(ctx, kh, ah, targets[ti], sigh, 2, !(d == 1 && ti == 0), __FILE__, __LINE__);
                tc_args_free(ah);
            }
    for (int ti = 0; ti < 3; ti++) {
        tc_args *a = NULL;
        tc_args_new(ka, &a);
        tc_args_set(a, "BLOCK", tc_int(64));
        const char *sig[5] = {"*fp8e5:16", "*fp8e5:16", "*fp8e5:16", "*fp16:16", "*fp8e5:16"};
        fp8_compile(ctx, ka, a, targets[ti], sig, 5, ti != 0, __FILE__, __LINE__); /* it makes an fp8e4nv */
        tc_args_free(a);
    }
    tc_kernel *kr = KT_KERNEL(ctx, m, "fp8_reduce_kernel");
    for (int ti = 0; ti < 3; ti++) {
        tc_args *a = NULL;
        tc_args_new(kr, &a);
        tc_args_set(a, "BLOCK", tc_int(32));
        const char *sigr[3] = {"*fp8e5:16", "*fp8e5:16", "*i32:16"};
        fp8_compile(ctx, kr, a, targets[ti], sigr, 3, 1, __FILE__, __LINE__);
        tc_args_free(a);
    }
    /* tl.dot on fp8 operands (the FMA lowering converts each operand by its own type) */
    tc_module *md = KT_MODULE(ctx, "dot_prec.py");
    tc_kernel *kd = KT_KERNEL(ctx, md, "dot_fp8_kernel");
    for (int ti = 0; ti < 3; ti++) {
        tc_args *a = NULL;
        tc_args_new(kd, &a);
        tc_args_set(a, "M", tc_int(16));
        tc_args_set(a, "N", tc_int(16));
        tc_args_set(a, "K", tc_int(32));
        tc_args_set(a, "OUT16", tc_bool(ti == 2));
        const char *sig5[3] = {"*fp8e5:16", "*fp8e5:16", ti == 2 ? "*fp16:16" : "*fp32:16"};
        fp8_compile(ctx, kd, a, targets[ti], sig5, 3, 1, __FILE__, __LINE__);
        const char *sigm[3] = {"*fp8e5:16", "*fp8e4nv:16", ti == 2 ? "*fp16:16" : "*fp32:16"};
        fp8_compile(ctx, kd, a, targets[ti], sigm, 3, ti != 0, __FILE__, __LINE__);
        tc_args_free(a);
    }
    free_all(ctx);
    unsetenv("TRITONC_CACHE_DIR");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    test_run(cmd, out, sizeof out);
}
