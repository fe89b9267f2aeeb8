/* test_kernels_ops.c — kernel conformance tests, part 2: element-wise operations, math
 * functions, casts, integer semantics (weak literals, C-like // and %, shifts, promotion),
 * comparisons, fp16/bf16 arithmetic, broadcasting and shape manipulation. Expected values
 * come from C reference loops written here. */
#include "test_kernels_util.h"

/* Loads kernel `name` from `file` into (ctx, m, k); the test body runs only if k is set. */
#define KT_SETUP(file, name) \
    tc_context *ctx = kt_ctx(); \
    tc_module *m = KT_MODULE(ctx, file); \
    tc_kernel *k = KT_KERNEL(ctx, m, name)
#define KT_TEARDOWN() do { tc_module_free(m); tc_context_free(ctx); } while (0)

/* ---- where, maximum/minimum, abs ---------------------------------------------------------- */

TEST(kern_where) {
    KT_SETUP("elementwise.py", "where_kernel");
    enum { B = 64, N = 50 };
    float x[N], y[N], o[N], o2[N];
    double e[N], e2[N], g[N], g2[N];
    kt_seed(1000);
    for (int i = 0; i < N; i++) { x[i] = kt_frand(-5, 5); y[i] = kt_frand(-5, 5); }
    x[3] = y[3] = 1.25f;
    for (int i = 0; i < N; i++) {
        e[i] = x[i] > y[i] ? x[i] : (double)(y[i] * 2.0f);
        e2[i] = x[i] < 0 ? 0.0 : x[i];
    }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, N, x), *ty = kt_t1(ctx, TC_FP32, N, y),
              *to = kt_t1(ctx, TC_FP32, N, NULL), *to2 = kt_t1(ctx, TC_FP32, N, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"out2_ptr", tc_tens(to2)}, {"n", tc_int(N)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o); kt_get(to2, o2);
        KT_WIDEN(g, o, N); KT_WIDEN(g2, o2, N);
        KT_CHECK_ARR(e, g, N, 0, 0);
        KT_CHECK_ARR(e2, g2, N, 0, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to); tc_tensor_free(to2);
    KT_TEARDOWN();
}

TEST(kern_maximum_minimum_nan) {
    KT_SETUP("elementwise.py", "minmax_kernel");
    enum { B = 16 };
    float x[B], y[B], omax[B], omin[B], oamax[B], oamin[B];
    kt_seed(1100);
    for (int i = 0; i < B; i++) { x[i] = kt_frand(-3, 3); y[i] = kt_frand(-3, 3); }
    x[1] = NAN; y[2] = NAN; x[3] = NAN; y[3] = NAN; x[4] = INFINITY; y[5] = -INFINITY;
    x[6] = y[6] = 2.5f;
    tc_tensor *tx = kt_t1(ctx, TC_FP32, B, x), *ty = kt_t1(ctx, TC_FP32, B, y),
              *t1 = kt_t1(ctx, TC_FP32, B, NULL), *t2 = kt_t1(ctx, TC_FP32, B, NULL),
              *t3 = kt_t1(ctx, TC_FP32, B, NULL), *t4 = kt_t1(ctx, TC_FP32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"max_ptr", tc_tens(t1)}, {"min_ptr", tc_tens(t2)},
                    {"maxall_ptr", tc_tens(t3)}, {"minall_ptr", tc_tens(t4)}, {"BLOCK", tc_int(B)})) {
        kt_get(t1, omax); kt_get(t2, omin); kt_get(t3, oamax); kt_get(t4, oamin);
        double e1[B], e2[B], e3[B], e4[B], g1[B], g2[B], g3[B], g4[B];
        for (int i = 0; i < B; i++) {
            /* default propagate_nan=NONE: a NaN operand is ignored (maxnum/minnum) */
            e1[i] = fmax(x[i], y[i]);
            e2[i] = fmin(x[i], y[i]);
            /* PropagateNan.ALL: NaN wins */
            int nan = isnan(x[i]) || isnan(y[i]);
            e3[i] = nan ? NAN : fmax(x[i], y[i]);
            e4[i] = nan ? NAN : fmin(x[i], y[i]);
        }
        KT_WIDEN(g1, omax, B); KT_WIDEN(g2, omin, B); KT_WIDEN(g3, oamax, B); KT_WIDEN(g4, oamin, B);
        KT_CHECK_ARR(e1, g1, B, 0, 0);
        KT_CHECK_ARR(e2, g2, B, 0, 0);
        KT_CHECK_ARR(e3, g3, B, 0, 0);
        KT_CHECK_ARR(e4, g4, B, 0, 0);
        CHECK_NEAR(x[1] != x[1] ? y[1] : 0, omax[1], 0, 0); /* maximum(NaN, y) == y */
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(t1); tc_tensor_free(t2);
    tc_tensor_free(t3); tc_tensor_free(t4);
    KT_TEARDOWN();
}

TEST(kern_maximum_minimum_int) {
    KT_SETUP("elementwise.py", "minmax_int_kernel");
    enum { B = 32 };
    int32_t x[B], y[B], omax[B], omin[B];
    kt_seed(1200);
    for (int i = 0; i < B; i++) {
        x[i] = (int32_t)(kt_rand() << 8 ^ kt_rand());
        y[i] = (int32_t)(kt_rand() << 8 ^ kt_rand());
    }
    int64_t e1[B], e2[B], g1[B], g2[B];
    /* int32: signed comparison */
    tc_tensor *tx = kt_t1(ctx, TC_I32, B, x), *ty = kt_t1(ctx, TC_I32, B, y),
              *t1 = kt_t1(ctx, TC_I32, B, NULL), *t2 = kt_t1(ctx, TC_I32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"max_ptr", tc_tens(t1)}, {"min_ptr", tc_tens(t2)}, {"BLOCK", tc_int(B)})) {
        kt_get(t1, omax); kt_get(t2, omin);
        for (int i = 0; i < B; i++) { e1[i] = x[i] > y[i] ? x[i] : y[i]; e2[i] = x[i] < y[i] ? x[i] : y[i]; }
        KT_WIDEN(g1, omax, B); KT_WIDEN(g2, omin, B);
        KT_CHECK_IARR(e1, g1, B);
        KT_CHECK_IARR(e2, g2, B);
    }
    /* uint32: the same bits compare as unsigned */
    tc_tensor *ux = kt_t1(ctx, TC_U32, B, x), *uy = kt_t1(ctx, TC_U32, B, y),
              *u1 = kt_t1(ctx, TC_U32, B, NULL), *u2 = kt_t1(ctx, TC_U32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(ux)}, {"y_ptr", tc_tens(uy)},
                    {"max_ptr", tc_tens(u1)}, {"min_ptr", tc_tens(u2)}, {"BLOCK", tc_int(B)})) {
        uint32_t um[B], un[B];
        kt_get(u1, um); kt_get(u2, un);
        for (int i = 0; i < B; i++) {
            uint32_t a = (uint32_t)x[i], b = (uint32_t)y[i];
            e1[i] = a > b ? a : b;
            e2[i] = a < b ? a : b;
        }
        KT_WIDEN(g1, um, B); KT_WIDEN(g2, un, B);
        KT_CHECK_IARR(e1, g1, B);
        KT_CHECK_IARR(e2, g2, B);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(t1); tc_tensor_free(t2);
    tc_tensor_free(ux); tc_tensor_free(uy); tc_tensor_free(u1); tc_tensor_free(u2);
    KT_TEARDOWN();
}

TEST(kern_abs) {
    KT_SETUP("elementwise.py", "abs_kernel");
    enum { B = 16 };
    float xf[B], of[B];
    int32_t xi[B], oi[B];
    uint16_t xh[B], oh[B];
    kt_seed(1300);
    for (int i = 0; i < B; i++) {
        xf[i] = kt_frand(-100, 100);
        xi[i] = kt_irand(-100000, 100000);
        xh[i] = kt_f16(kt_frand(-100, 100));
    }
    xf[0] = -0.0f; xf[1] = -INFINITY; xf[2] = 0.0f;
    xi[0] = 0; xi[1] = -2147483647; xi[2] = 2147483647;
    xh[0] = 0x8000; /* -0.0 */
    tc_tensor *tf = kt_t1(ctx, TC_FP32, B, xf), *tof = kt_t1(ctx, TC_FP32, B, NULL),
              *ti = kt_t1(ctx, TC_I32, B, xi), *toi = kt_t1(ctx, TC_I32, B, NULL),
              *th = kt_t1(ctx, TC_FP16, B, xh), *toh = kt_t1(ctx, TC_FP16, B, NULL);
    int64_t e[B], g[B];
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tf)}, {"out_ptr", tc_tens(tof)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(tof, of);
        for (int i = 0; i < B; i++) { e[i] = kt_fbits(fabsf(xf[i])); g[i] = kt_fbits(of[i]); }
        KT_CHECK_IARR(e, g, B); /* bit-exact: abs(-0.0) is +0.0 */
    }
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(ti)}, {"out_ptr", tc_tens(toi)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(toi, oi);
        for (int i = 0; i < B; i++) { e[i] = xi[i] < 0 ? -(int64_t)xi[i] : xi[i]; g[i] = oi[i]; }
        KT_CHECK_IARR(e, g, B);
    }
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(th)}, {"out_ptr", tc_tens(toh)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(toh, oh);
        for (int i = 0; i < B; i++) { e[i] = xh[i] & 0x7fff; g[i] = oh[i]; }
        KT_CHECK_IARR(e, g, B);
    }
    tc_tensor_free(tf); tc_tensor_free(tof); tc_tensor_free(ti); tc_tensor_free(toi);
    tc_tensor_free(th); tc_tensor_free(toh);
    KT_TEARDOWN();
}

/* ---- math functions: fp32, rtol 1e-6 against C's double functions rounded to float ------- */

static double ref_math(const char *fn, double x) {
    if (!strcmp(fn, "exp") || !strcmp(fn, "exp_method")) return (float)exp(x);
    if (!strcmp(fn, "exp2")) return (float)exp2(x);
    if (!strcmp(fn, "log")) return (float)log(x);
    if (!strcmp(fn, "log2")) return (float)log2(x);
    if (!strcmp(fn, "sqrt")) return (float)sqrt(x);
    if (!strcmp(fn, "rsqrt")) return (float)(1 / sqrt(x));
    if (!strcmp(fn, "sin")) return (float)sin(x);
    if (!strcmp(fn, "cos")) return (float)cos(x);
    if (!strcmp(fn, "floor")) return floor(x);
    if (!strcmp(fn, "ceil")) return ceil(x);
    if (!strcmp(fn, "sigmoid")) return (float)(1 / (1 + exp(-x)));
    if (!strcmp(fn, "fdiv")) return (float)(x / (double)(float)(x + 3.0));
    return NAN;
}

TEST(kern_math_functions) {
    KT_SETUP("elementwise.py", "math_kernel");
    static const struct { const char *fn; float lo, hi; double atol; } fns[] = {
        {"exp", -10, 10, 0},   {"exp2", -10, 10, 0},  {"log", 0.001f, 100, 1e-7},
        {"log2", 0.001f, 100, 1e-7}, {"sqrt", 0, 100, 0}, {"rsqrt", 0.01f, 100, 0},
        {"sin", -10, 10, 1e-6}, {"cos", -10, 10, 1e-6}, {"floor", -10, 10, 0},
        {"ceil", -10, 10, 0},  {"sigmoid", -10, 10, 0}, {"exp_method", -5, 5, 0},
        {"fdiv", -2, 10, 0},
    };
    enum { N = 300 };
    float x[N], o[N];
    double e[N], g[N];
    for (int f = 0; k && f < COUNT_OF_CASES(fns); f++) {
        kt_seed(1400 + f);
        for (int i = 0; i < N; i++) x[i] = kt_frand(fns[f].lo, fns[f].hi);
        if (!strcmp(fns[f].fn, "floor") || !strcmp(fns[f].fn, "ceil")) {
            x[0] = 3.0f; x[1] = -3.0f; x[2] = -0.5f; x[3] = 0.5f; x[4] = -2.5f;
        }
        for (int i = 0; i < N; i++) e[i] = ref_math(fns[f].fn, x[i]);
        tc_tensor *tx = kt_t1(ctx, TC_FP32, N, x), *to = kt_t1(ctx, TC_FP32, N, NULL);
        if (KT_RUN(ctx, k, 3, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                   {"n", tc_int(N)}, {"FN", tc_str(fns[f].fn)}, {"BLOCK", tc_int(128)})) {
            kt_get(to, o);
            KT_WIDEN(g, o, N);
            double rtol = (!strcmp(fns[f].fn, "floor") || !strcmp(fns[f].fn, "ceil")) ? 0 : 1e-6;
            kt_check_f64_(fns[f].fn, e, g, N, rtol, fns[f].atol, __FILE__, __LINE__);
        }
        tc_tensor_free(tx); tc_tensor_free(to);
    }
    KT_TEARDOWN();
}

/* ---- casts ------------------------------------------------------------------------------------ */

TEST(kern_cast_f32_to_i32_truncates) {
    KT_SETUP("casts.py", "f32_to_i32_kernel");
    enum { B = 32 };
    float x[B];
    int32_t o[B];
    int64_t e[B], g[B];
    kt_seed(1500);
    for (int i = 0; i < B; i++) x[i] = kt_frand(-1000, 1000);
    x[0] = -2.7f; x[1] = 2.7f; x[2] = -0.5f; x[3] = 0.5f; x[4] = -1e9f; x[5] = 1e9f;
    x[6] = -3.0f; x[7] = -0.0f;
    for (int i = 0; i < B; i++) e[i] = (int32_t)x[i];
    tc_tensor *tx = kt_t1(ctx, TC_FP32, B, x), *to = kt_t1(ctx, TC_I32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, B);
        KT_CHECK_IARR(e, g, B);
        CHECK_INT(-2, o[0]);
        CHECK_INT(0, o[2]);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_cast_f16_round_trip_rtne) {
    KT_SETUP("casts.py", "f16_roundtrip_kernel");
    enum { B = 128 };
    float x[B], o[B];
    uint16_t h[B], h2[B];
    double e[B], g[B], gh[B], gh2[B];
    kt_seed(1600);
    for (int i = 0; i < B; i++) x[i] = kt_frand(-1, 1) * ldexpf(1.0f, kt_irand(-26, 17));
    /* overflow, ties to even, subnormals, specials */
    const float special[] = {65504.0f, 65519.0f, 65520.0f, -70000.0f, 1e-8f, 0x1p-25f,
                             0x3p-25f, 1.0f + 0x1p-11f, 1.0f + 0x3p-11f, -(1.0f + 0x1p-11f),
                             2049.0f, 2051.0f, NAN, INFINITY, -0.0f, 0x1p-14f, 0x1.ffcp-15f,
                             3.14159265f, 0.1f, 1e-5f};
    for (int i = 0; i < COUNT_OF_CASES(special); i++) x[i] = special[i];
    for (int i = 0; i < B; i++) e[i] = kt_round_f16(x[i]);
    tc_tensor *tx = kt_t1(ctx, TC_FP32, B, x), *to = kt_t1(ctx, TC_FP32, B, NULL),
              *th = kt_t1(ctx, TC_FP16, B, NULL), *th2 = kt_t1(ctx, TC_FP16, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"h_ptr", tc_tens(th)}, {"h2_ptr", tc_tens(th2)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o); kt_get(th, h); kt_get(th2, h2);
        KT_WIDEN(g, o, B);
        for (int i = 0; i < B; i++) { gh[i] = kt_h2d(h[i]); gh2[i] = kt_h2d(h2[i]); }
        KT_CHECK_ARR(e, g, B, 0, 0);   /* fp32 -> fp16 -> fp32 */
        KT_CHECK_ARR(e, gh, B, 0, 0);  /* the stored fp16 bits */
        KT_CHECK_ARR(e, gh2, B, 0, 0); /* store casts fp32 -> fp16 the same way */
        CHECK_INT(0x7bff, h[0]);       /* 65504 */
        CHECK_INT(0x7bff, h[1]);       /* 65519 rounds down */
        CHECK_INT(0x7c00, h[2]);       /* 65520 is a tie: to even = inf */
        CHECK_INT(0x0000, h[5]);       /* 2^-25: tie between 0 and 2^-24: to even = 0 */
        CHECK_INT(0x0002, h[6]);       /* 3*2^-25: tie: to even = 2*2^-24 */
        CHECK_INT(0x3c00, h[7]);       /* 1 + 2^-11: tie: to 1.0 */
        CHECK_INT(0x3c02, h[8]);       /* 1 + 3*2^-11: tie: to 1 + 2^-9 */
        CHECK_INT(0x8000, h[14]);      /* -0.0 keeps its sign */
    }
    tc_tensor_free(tx); tc_tensor_free(to); tc_tensor_free(th); tc_tensor_free(th2);
    KT_TEARDOWN();
}

TEST(kern_cast_f32_to_bf16) {
    KT_SETUP("casts.py", "f32_to_bf16_kernel");
    enum { B = 64 };
    float x[B];
    uint16_t o[B];
    int64_t e[B], g[B];
    kt_seed(1700);
    for (int i = 0; i < B; i++) x[i] = kt_frand(-1, 1) * ldexpf(1.0f, kt_irand(-40, 40));
    x[0] = 1.0f + 0x1p-8f;  /* tie: to 1.0 */
    x[1] = 1.0f + 0x3p-8f;  /* tie: to 1 + 2^-6 */
    x[2] = -0.0f;
    x[3] = 3.0e38f;
    for (int i = 0; i < B; i++) e[i] = kt_bf16(x[i]);
    tc_tensor *tx = kt_t1(ctx, TC_FP32, B, x), *to = kt_t1(ctx, TC_BF16, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, B);
        KT_CHECK_IARR(e, g, B);
        CHECK_INT(0x3f80, o[0]);
        CHECK_INT(0x3f82, o[1]);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_cast_int_narrowing_wraps) {
    KT_SETUP("casts.py", "int_narrow_kernel");
    enum { B = 32 };
    int32_t x[B], o8i[B], ou8[B];
    int8_t o8[B];
    int16_t o16[B];
    int64_t e[B], g[B];
    kt_seed(1800);
    for (int i = 0; i < B; i++) x[i] = (int32_t)((kt_rand() << 8) ^ kt_rand());
    x[0] = 200; x[1] = -200; x[2] = 255; x[3] = 128; x[4] = -129; x[5] = 70000; x[6] = -1;
    tc_tensor *tx = kt_t1(ctx, TC_I32, B, x), *t8 = kt_t1(ctx, TC_I8, B, NULL),
              *t16 = kt_t1(ctx, TC_I16, B, NULL), *t8i = kt_t1(ctx, TC_I32, B, NULL),
              *tu8 = kt_t1(ctx, TC_I32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"i8_ptr", tc_tens(t8)},
                    {"i16_ptr", tc_tens(t16)}, {"i8_as_i32_ptr", tc_tens(t8i)},
                    {"u8_as_i32_ptr", tc_tens(tu8)}, {"BLOCK", tc_int(B)})) {
        kt_get(t8, o8); kt_get(t16, o16); kt_get(t8i, o8i); kt_get(tu8, ou8);
        for (int i = 0; i < B; i++) e[i] = (int8_t)(uint8_t)((uint32_t)x[i] & 0xff);
        KT_WIDEN(g, o8, B);
        KT_CHECK_IARR(e, g, B);
        KT_WIDEN(g, o8i, B);
        KT_CHECK_IARR(e, g, B); /* int8 stored through an int32 pointer: sign-extended */
        for (int i = 0; i < B; i++) e[i] = (int16_t)(uint16_t)((uint32_t)x[i] & 0xffff);
        KT_WIDEN(g, o16, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = (uint32_t)x[i] & 0xff;
        KT_WIDEN(g, ou8, B);
        KT_CHECK_IARR(e, g, B); /* uint8 stored through an int32 pointer: zero-extended */
        CHECK_INT(-56, o8[0]);
        CHECK_INT(56, o8[1]);
    }
    tc_tensor_free(tx); tc_tensor_free(t8); tc_tensor_free(t16); tc_tensor_free(t8i);
    tc_tensor_free(tu8);
    KT_TEARDOWN();
}

TEST(kern_cast_to_bool) {
    KT_SETUP("casts.py", "to_bool_kernel");
    enum { B = 16 };
    int32_t x[B], ob[B], ofb[B];
    float f[B];
    uint8_t om[B];
    int64_t e[B], g[B];
    kt_seed(1900);
    for (int i = 0; i < B; i++) { x[i] = kt_irand(-2, 2); f[i] = (float)kt_irand(-1, 1) * 0.25f; }
    f[0] = NAN; f[1] = -0.0f; f[2] = 0.0f; f[3] = 1e-30f; x[0] = 0; x[1] = 256;
    tc_tensor *tx = kt_t1(ctx, TC_I32, B, x), *tf = kt_t1(ctx, TC_FP32, B, f),
              *tb = kt_t1(ctx, TC_I32, B, NULL), *tfb = kt_t1(ctx, TC_I32, B, NULL),
              *tm = kt_t1(ctx, TC_I1, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"f_ptr", tc_tens(tf)},
                    {"b_ptr", tc_tens(tb)}, {"fb_ptr", tc_tens(tfb)}, {"bmask_ptr", tc_tens(tm)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(tb, ob); kt_get(tfb, ofb); kt_get(tm, om);
        for (int i = 0; i < B; i++) e[i] = x[i] != 0;
        KT_WIDEN(g, ob, B);
        KT_CHECK_IARR(e, g, B);
        KT_WIDEN(g, om, B);
        KT_CHECK_IARR(e, g, B); /* an i1 tensor holds 0 or 1 per byte */
        for (int i = 0; i < B; i++) e[i] = f[i] != 0; /* unordered !=: NaN -> true */
        KT_WIDEN(g, ofb, B);
        KT_CHECK_IARR(e, g, B);
        CHECK_INT(1, ofb[0]);
        CHECK_INT(0, ofb[1]);
    }
    tc_tensor_free(tx); tc_tensor_free(tf); tc_tensor_free(tb); tc_tensor_free(tfb);
    tc_tensor_free(tm);
    KT_TEARDOWN();
}

TEST(kern_cast_int_to_float) {
    KT_SETUP("casts.py", "int_to_float_kernel");
    enum { B = 16 };
    int32_t xi[B];
    uint32_t xu[B];
    float fi[B], fu[B], fb[B];
    double e[B], g[B];
    kt_seed(2000);
    for (int i = 0; i < B; i++) { xi[i] = (int32_t)(kt_rand() << 8 ^ kt_rand()); xu[i] = kt_rand() << 8 ^ kt_rand(); }
    xi[0] = 2147483647; xi[1] = -2147483647 - 1; xi[2] = 16777217; xi[3] = 0; xi[4] = -5;
    xu[0] = 0xffffffffu; xu[1] = 0x80000001u; xu[2] = 16777217u; xu[3] = 0;
    tc_tensor *ti = kt_t1(ctx, TC_I32, B, xi), *tu = kt_t1(ctx, TC_U32, B, xu),
              *tfi = kt_t1(ctx, TC_FP32, B, NULL), *tfu = kt_t1(ctx, TC_FP32, B, NULL),
              *tfb = kt_t1(ctx, TC_FP32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"i_ptr", tc_tens(ti)}, {"u_ptr", tc_tens(tu)},
                    {"fi_ptr", tc_tens(tfi)}, {"fu_ptr", tc_tens(tfu)}, {"fb_ptr", tc_tens(tfb)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(tfi, fi); kt_get(tfu, fu); kt_get(tfb, fb);
        for (int i = 0; i < B; i++) e[i] = (float)xi[i];
        KT_WIDEN(g, fi, B);
        KT_CHECK_ARR(e, g, B, 0, 0);
        for (int i = 0; i < B; i++) e[i] = (float)xu[i]; /* unsigned: uitofp */
        KT_WIDEN(g, fu, B);
        KT_CHECK_ARR(e, g, B, 0, 0);
        for (int i = 0; i < B; i++) e[i] = xi[i] > 0 ? 1.0 : 0.0;
        KT_WIDEN(g, fb, B);
        KT_CHECK_ARR(e, g, B, 0, 0);
        CHECK_NEAR(4294967296.0, fu[0], 0, 0);
    }
    tc_tensor_free(ti); tc_tensor_free(tu); tc_tensor_free(tfi); tc_tensor_free(tfu);
    tc_tensor_free(tfb);
    KT_TEARDOWN();
}

TEST(kern_cast_f16_to_i32) {
    KT_SETUP("casts.py", "f16_to_i32_kernel");
    enum { B = 16 };
    uint16_t h[B];
    int32_t o[B];
    int64_t e[B], g[B];
    kt_seed(2100);
    for (int i = 0; i < B; i++) h[i] = kt_f16(kt_frand(-3000, 3000));
    h[0] = kt_f16(-2.5); h[1] = kt_f16(1000.7); h[2] = kt_f16(-0.75);
    for (int i = 0; i < B; i++) e[i] = (int32_t)kt_h2d(h[i]);
    tc_tensor *th = kt_t1(ctx, TC_FP16, B, h), *to = kt_t1(ctx, TC_I32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"h_ptr", tc_tens(th)}, {"out_ptr", tc_tens(to)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, B);
        KT_CHECK_IARR(e, g, B);
        CHECK_INT(-2, o[0]);
        CHECK_INT(1000, o[1]); /* 1000.7 is 1000.5 in fp16 */
    }
    tc_tensor_free(th); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* ---- integer semantics ----------------------------------------------------------------------- */

TEST(kern_int8_weak_literal_wraps) {
    KT_SETUP("intops.py", "int8_weak_kernel");
    enum { B = 64 };
    int8_t x[B];
    int32_t o1[B], o2[B], o3[B];
    int64_t e[B], g[B];
    kt_seed(2200);
    for (int i = 0; i < B; i++) x[i] = (int8_t)kt_irand(-128, 127);
    x[0] = 100; x[1] = 27; x[2] = 28; x[3] = -128;
    tc_tensor *tx = kt_t1(ctx, TC_I8, B, x), *t1 = kt_t1(ctx, TC_I32, B, NULL),
              *t2 = kt_t1(ctx, TC_I32, B, NULL), *t3 = kt_t1(ctx, TC_I32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(t1)},
                    {"out2_ptr", tc_tens(t2)}, {"out3_ptr", tc_tens(t3)}, {"BLOCK", tc_int(B)})) {
        kt_get(t1, o1); kt_get(t2, o2); kt_get(t3, o3);
        CHECK_INT(-56, o1[0]); /* int8 100 + 100 wraps */
        CHECK_INT(127, o1[1]);
        CHECK_INT(-128, o1[2]);
        for (int i = 0; i < B; i++) e[i] = (int8_t)(uint8_t)((x[i] + 100) & 0xff);
        KT_WIDEN(g, o1, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = (int8_t)(uint8_t)((x[i] * 3 - 7) & 0xff);
        KT_WIDEN(g, o2, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = (int8_t)(uint8_t)((x[i] * 2) & 0xff);
        KT_WIDEN(g, o3, B);
        KT_CHECK_IARR(e, g, B);
    }
    tc_tensor_free(tx); tc_tensor_free(t1); tc_tensor_free(t2); tc_tensor_free(t3);
    KT_TEARDOWN();
}

TEST(kern_int_divmod_truncates) {
    KT_SETUP("intops.py", "divmod_kernel");
    enum { B = 64 };
    int32_t x[B], y[B], q[B], r[B], q2[B], r2[B], q3[B];
    float fq[B];
    int64_t e[B], g[B];
    double ef[B], gf[B];
    kt_seed(2300);
    for (int i = 0; i < B; i++) {
        x[i] = kt_irand(-1000, 1000);
        do y[i] = kt_irand(-20, 20); while (y[i] == 0);
    }
    x[0] = -7; y[0] = 2; x[1] = 7; y[1] = -2; x[2] = -7; y[2] = -2; x[3] = -1; y[3] = 3;
    tc_tensor *tx = kt_t1(ctx, TC_I32, B, x), *ty = kt_t1(ctx, TC_I32, B, y),
              *tq = kt_t1(ctx, TC_I32, B, NULL), *tr = kt_t1(ctx, TC_I32, B, NULL),
              *tfq = kt_t1(ctx, TC_FP32, B, NULL), *tq2 = kt_t1(ctx, TC_I32, B, NULL),
              *tr2 = kt_t1(ctx, TC_I32, B, NULL), *tq3 = kt_t1(ctx, TC_I32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"q_ptr", tc_tens(tq)}, {"r_ptr", tc_tens(tr)}, {"fq_ptr", tc_tens(tfq)},
                    {"q2_ptr", tc_tens(tq2)}, {"r2_ptr", tc_tens(tr2)}, {"q3_ptr", tc_tens(tq3)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(tq, q); kt_get(tr, r); kt_get(tfq, fq); kt_get(tq2, q2); kt_get(tr2, r2);
        kt_get(tq3, q3);
        CHECK_INT(-3, q[0]); /* -7 // 2 */
        CHECK_INT(-1, r[0]); /* -7 % 2 */
        CHECK_INT(-3, q[1]);
        CHECK_INT(1, r[1]);
        CHECK_INT(3, q[2]);
        CHECK_INT(-1, r[2]);
        for (int i = 0; i < B; i++) e[i] = x[i] / y[i];
        KT_WIDEN(g, q, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = x[i] % y[i];
        KT_WIDEN(g, r, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) ef[i] = (float)x[i] / (float)y[i]; /* int / int is fp32 */
        KT_WIDEN(gf, fq, B);
        KT_CHECK_ARR(ef, gf, B, 0, 0);
        for (int i = 0; i < B; i++) e[i] = x[i] / 4;
        KT_WIDEN(g, q2, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = x[i] % 4;
        KT_WIDEN(g, r2, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = x[i] / -3;
        KT_WIDEN(g, q3, B);
        KT_CHECK_IARR(e, g, B);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(tq); tc_tensor_free(tr);
    tc_tensor_free(tfq); tc_tensor_free(tq2); tc_tensor_free(tr2); tc_tensor_free(tq3);
    KT_TEARDOWN();
}

TEST(kern_constexpr_floor_vs_runtime_trunc) {
    KT_SETUP("intops.py", "constexpr_floor_kernel");
    int32_t o[5] = {0};
    tc_tensor *to = kt_t1(ctx, TC_I32, 5, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"out_ptr", tc_tens(to)}, {"a", tc_int(-7)}, {"b", tc_int(2)})) {
        kt_get(to, o);
        CHECK_INT(-4, o[0]); /* Python: -7 // 2 */
        CHECK_INT(1, o[1]);  /* Python: -7 % 2 */
        CHECK_INT(-3, o[2]); /* run time: C truncation */
        CHECK_INT(-1, o[3]);
        CHECK_INT(-4, o[4]); /* Python: 7 // -2 */
    }
    tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_shifts_and_bitwise) {
    KT_SETUP("intops.py", "shift_kernel");
    enum { B = 64 };
    int32_t x[B], s[B], shl[B], shr[B], bits[B * 5];
    uint32_t u[B], ushr[B];
    int64_t e[B * 5], g[B * 5];
    kt_seed(2400);
    for (int i = 0; i < B; i++) {
        x[i] = (int32_t)((kt_rand() << 8) ^ kt_rand());
        u[i] = (kt_rand() << 8) ^ kt_rand();
        s[i] = kt_irand(0, 31);
    }
    x[0] = -16; s[0] = 2; u[0] = 0x80000000u;
    tc_tensor *tx = kt_t1(ctx, TC_I32, B, x), *ts = kt_t1(ctx, TC_I32, B, s),
              *tu = kt_t1(ctx, TC_U32, B, u), *tshl = kt_t1(ctx, TC_I32, B, NULL),
              *tshr = kt_t1(ctx, TC_I32, B, NULL), *tus = kt_t1(ctx, TC_U32, B, NULL),
              *tb = kt_t1(ctx, TC_I32, B * 5, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"s_ptr", tc_tens(ts)},
                    {"u_ptr", tc_tens(tu)}, {"shl_ptr", tc_tens(tshl)}, {"shr_ptr", tc_tens(tshr)},
                    {"ushr_ptr", tc_tens(tus)}, {"bits_ptr", tc_tens(tb)}, {"BLOCK", tc_int(B)})) {
        kt_get(tshl, shl); kt_get(tshr, shr); kt_get(tus, ushr); kt_get(tb, bits);
        CHECK_INT(-4, shr[0]); /* arithmetic shift of a signed value */
        CHECK_INT(0x20000000u, ushr[0]); /* logical shift of an unsigned value */
        for (int i = 0; i < B; i++) e[i] = (int32_t)((uint32_t)x[i] << s[i]);
        KT_WIDEN(g, shl, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = x[i] >> s[i];
        KT_WIDEN(g, shr, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = u[i] >> s[i];
        KT_WIDEN(g, ushr, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) {
            e[i * 5 + 0] = x[i] & 0xFF;
            e[i * 5 + 1] = x[i] | s[i];
            e[i * 5 + 2] = x[i] ^ s[i];
            e[i * 5 + 3] = ~x[i];
            e[i * 5 + 4] = x[i] >> 3;
        }
        KT_WIDEN(g, bits, B * 5);
        KT_CHECK_IARR(e, g, B * 5);
    }
    tc_tensor_free(tx); tc_tensor_free(ts); tc_tensor_free(tu); tc_tensor_free(tshl);
    tc_tensor_free(tshr); tc_tensor_free(tus); tc_tensor_free(tb);
    KT_TEARDOWN();
}

TEST(kern_mixed_int_promotion) {
    KT_SETUP("intops.py", "mixed_int_kernel");
    enum { B = 32 };
    int8_t a[B];
    uint8_t b[B];
    int32_t c[B], o1[B], o3[B];
    uint32_t d[B];
    int64_t o2[B], e[B], g[B];
    kt_seed(2500);
    for (int i = 0; i < B; i++) {
        a[i] = (int8_t)kt_irand(-128, 127);
        b[i] = (uint8_t)kt_irand(0, 255);
        c[i] = kt_irand(-100000, 100000);
        d[i] = (kt_rand() << 8) ^ kt_rand();
    }
    a[0] = -1; b[0] = 1; c[0] = -1; d[0] = 0;
    tc_tensor *ta = kt_t1(ctx, TC_I8, B, a), *tb = kt_t1(ctx, TC_U8, B, b),
              *tc = kt_t1(ctx, TC_I32, B, c), *td = kt_t1(ctx, TC_U32, B, d),
              *t1 = kt_t1(ctx, TC_I32, B, NULL), *t2 = kt_t1(ctx, TC_I64, B, NULL),
              *t3 = kt_t1(ctx, TC_I32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
                    {"c_ptr", tc_tens(tc)}, {"d_ptr", tc_tens(td)}, {"out1_ptr", tc_tens(t1)},
                    {"out2_ptr", tc_tens(t2)}, {"out3_ptr", tc_tens(t3)}, {"BLOCK", tc_int(B)})) {
        kt_get(t1, o1); kt_get(t2, o2); kt_get(t3, o3);
        CHECK_INT(0, o1[0]);          /* int8 -1 + uint8 1 = uint8 0 */
        CHECK_INT(4294967295LL, o2[0]); /* int32 -1 + uint32 0 = uint32 max, zero-extended */
        for (int i = 0; i < B; i++) e[i] = (uint8_t)((uint8_t)a[i] + b[i]);
        KT_WIDEN(g, o1, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = (uint32_t)((uint32_t)c[i] + d[i]);
        KT_CHECK_IARR(e, o2, B);
        for (int i = 0; i < B; i++) e[i] = a[i] + c[i];
        KT_WIDEN(g, o3, B);
        KT_CHECK_IARR(e, g, B);
    }
    tc_tensor_free(ta); tc_tensor_free(tb); tc_tensor_free(tc); tc_tensor_free(td);
    tc_tensor_free(t1); tc_tensor_free(t2); tc_tensor_free(t3);
    KT_TEARDOWN();
}

TEST(kern_comparisons_masks) {
    KT_SETUP("intops.py", "compare_kernel");
    enum { B = 32 };
    float x[B], y[B];
    int8_t o[B * 7];
    int64_t e[B * 7], g[B * 7];
    kt_seed(2600);
    for (int i = 0; i < B; i++) { x[i] = (float)kt_irand(-3, 3); y[i] = (float)kt_irand(-3, 3); }
    x[0] = NAN; y[1] = NAN; x[2] = y[2] = NAN; x[3] = y[3] = 2.0f; x[4] = -0.0f; y[4] = 0.0f;
    for (int i = 0; i < B; i++) {
        e[i * 7 + 0] = x[i] < y[i];
        e[i * 7 + 1] = x[i] <= y[i];
        e[i * 7 + 2] = x[i] > y[i];
        e[i * 7 + 3] = x[i] >= y[i];
        e[i * 7 + 4] = x[i] == y[i];
        e[i * 7 + 5] = x[i] != y[i];
        e[i * 7 + 6] = (x[i] > 0) && (y[i] > 0);
    }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, B, x), *ty = kt_t1(ctx, TC_FP32, B, y),
              *to = kt_t1(ctx, TC_I8, B * 7, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, B * 7);
        KT_CHECK_IARR(e, g, B * 7);
        CHECK_INT(1, o[0 * 7 + 5]); /* NaN != x is true */
        CHECK_INT(0, o[2 * 7 + 4]); /* NaN == NaN is false */
        CHECK_INT(1, o[4 * 7 + 4]); /* -0.0 == 0.0 */
    }
    /* the same kernel on int32 */
    int32_t xi[B], yi[B];
    for (int i = 0; i < B; i++) { xi[i] = kt_irand(-3, 3); yi[i] = kt_irand(-3, 3); }
    for (int i = 0; i < B; i++) {
        e[i * 7 + 0] = xi[i] < yi[i];
        e[i * 7 + 1] = xi[i] <= yi[i];
        e[i * 7 + 2] = xi[i] > yi[i];
        e[i * 7 + 3] = xi[i] >= yi[i];
        e[i * 7 + 4] = xi[i] == yi[i];
        e[i * 7 + 5] = xi[i] != yi[i];
        e[i * 7 + 6] = (xi[i] > 0) && (yi[i] > 0);
    }
    tc_tensor *tix = kt_t1(ctx, TC_I32, B, xi), *tiy = kt_t1(ctx, TC_I32, B, yi);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tix)}, {"y_ptr", tc_tens(tiy)},
                    {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, B * 7);
        KT_CHECK_IARR(e, g, B * 7);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to); tc_tensor_free(tix);
    tc_tensor_free(tiy);
    tc_kernel *k2 = KT_KERNEL(ctx, m, "compare_literal_kernel");
    int8_t x8[B], o8[2 * B];
    int64_t e8[2 * B], g8[2 * B];
    for (int i = 0; i < B; i++) x8[i] = (int8_t)kt_irand(-128, 127);
    for (int i = 0; i < B; i++) { e8[i] = 1; e8[B + i] = x8[i] > -1; }
    tc_tensor *t8 = kt_t1(ctx, TC_I8, B, x8), *to8 = kt_t1(ctx, TC_I8, 2 * B, NULL);
    if (k2 && KT_RUN(ctx, k2, 1, 1, 1, {"x_ptr", tc_tens(t8)}, {"out_ptr", tc_tens(to8)},
                     {"BLOCK", tc_int(B)})) {
        kt_get(to8, o8);
        KT_WIDEN(g8, o8, 2 * B);
        KT_CHECK_IARR(e8, g8, 2 * B); /* int8 < 300 compares in int32: always true */
    }
    tc_tensor_free(t8); tc_tensor_free(to8);
    KT_TEARDOWN();
}

/* ---- fp16 / bf16 arithmetic ---------------------------------------------------------------- */

TEST(kern_fp16_arith_rounds_per_op) {
    KT_SETUP("fp16.py", "fp16_arith_kernel");
    enum { B = 128 };
    uint16_t x[B], y[B], oz[B], ow[B];
    float oq[B], om[B];
    double ez[B], ew[B], eq[B], em[B], g[B];
    kt_seed(2700);
    for (int i = 0; i < B; i++) {
        x[i] = kt_f16(kt_frand(-8, 8));
        double yv;
        do yv = kt_frand(-8, 8); while (fabs(yv) < 0.1);
        y[i] = kt_f16(yv);
    }
    for (int i = 0; i < B; i++) {
        double hx = kt_h2d(x[i]), hy = kt_h2d(y[i]);
        double t = kt_round_f16(hx * hy);
        double z = kt_round_f16(t + hx);
        ez[i] = z;
        ew[i] = kt_round_f16(z - kt_round_f16(hy * 0.5));
        eq[i] = (float)((float)hx / (float)hy);
        em[i] = hx > 0 ? hx : 0.0;
    }
    tc_tensor *tx = kt_t1(ctx, TC_FP16, B, x), *ty = kt_t1(ctx, TC_FP16, B, y),
              *tz = kt_t1(ctx, TC_FP16, B, NULL), *tw = kt_t1(ctx, TC_FP16, B, NULL),
              *tq = kt_t1(ctx, TC_FP32, B, NULL), *tm = kt_t1(ctx, TC_FP32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(tz)}, {"out2_ptr", tc_tens(tw)}, {"div_ptr", tc_tens(tq)},
                    {"max_ptr", tc_tens(tm)}, {"BLOCK", tc_int(B)})) {
        kt_get(tz, oz); kt_get(tw, ow); kt_get(tq, oq); kt_get(tm, om);
        for (int i = 0; i < B; i++) g[i] = kt_h2d(oz[i]);
        KT_CHECK_ARR(ez, g, B, 0, 0);
        for (int i = 0; i < B; i++) g[i] = kt_h2d(ow[i]);
        KT_CHECK_ARR(ew, g, B, 0, 0);
        KT_WIDEN(g, oq, B);
        KT_CHECK_ARR(eq, g, B, 0, 0); /* fp16 / fp16 is computed and returned in fp32 */
        KT_WIDEN(g, om, B);
        KT_CHECK_ARR(em, g, B, 0, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(tz); tc_tensor_free(tw);
    tc_tensor_free(tq); tc_tensor_free(tm);
    KT_TEARDOWN();
}

TEST(kern_bf16_arith_rounds_per_op) {
    KT_SETUP("fp16.py", "bf16_add_kernel");
    enum { B = 64 };
    uint16_t x[B], y[B], o[B];
    double e[B], g[B];
    kt_seed(2800);
    for (int i = 0; i < B; i++) { x[i] = kt_bf16(kt_frand(-4, 4)); y[i] = kt_bf16(kt_frand(-4, 4)); }
    for (int i = 0; i < B; i++) {
        double hx = kt_bf2d(x[i]), hy = kt_bf2d(y[i]);
        e[i] = kt_round_bf16(hx + kt_round_bf16(hy * hy));
    }
    tc_tensor *tx = kt_t1(ctx, TC_BF16, B, x), *ty = kt_t1(ctx, TC_BF16, B, y),
              *to = kt_t1(ctx, TC_BF16, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        for (int i = 0; i < B; i++) g[i] = kt_bf2d(o[i]);
        KT_CHECK_ARR(e, g, B, 0, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* ---- broadcasting and shapes ---------------------------------------------------------------- */

TEST(kern_broadcast_outer) {
    KT_SETUP("shapes.py", "outer_kernel");
    enum { M = 8, N = 16 };
    int32_t x[M], y[N], o[M * N];
    int64_t e[M * N], g[M * N];
    kt_seed(2900);
    for (int i = 0; i < M; i++) x[i] = kt_irand(-100, 100);
    for (int j = 0; j < N; j++) y[j] = kt_irand(-100, 100);
    for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) e[i * N + j] = x[i] * 10 + y[j];
    tc_tensor *tx = kt_t1(ctx, TC_I32, M, x), *ty = kt_t1(ctx, TC_I32, N, y),
              *to = kt_t2(ctx, TC_I32, M, N, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"M", tc_int(M)}, {"N", tc_int(N)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, M * N);
        KT_CHECK_IARR(e, g, M * N);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_reshape) {
    KT_SETUP("shapes.py", "reshape_kernel");
    int32_t o[32], o2[4];
    int64_t e[32], g[32];
    tc_tensor *to = kt_t2(ctx, TC_I32, 4, 8, NULL), *to2 = kt_t1(ctx, TC_I32, 4, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"out_ptr", tc_tens(to)}, {"out2_ptr", tc_tens(to2)})) {
        kt_get(to, o); kt_get(to2, o2);
        for (int i = 0; i < 32; i++) e[i] = 2 * i; /* row-major */
        KT_WIDEN(g, o, 32);
        KT_CHECK_IARR(e, g, 32);
        for (int i = 0; i < 4; i++) e[i] = 64 * i + 28;
        KT_WIDEN(g, o2, 4);
        KT_CHECK_IARR(e, g, 4);
    }
    tc_tensor_free(to); tc_tensor_free(to2);
    KT_TEARDOWN();
}

TEST(kern_trans) {
    KT_SETUP("shapes.py", "trans_kernel");
    enum { M = 8, N = 16 };
    float x[M * N], o[M * N], ot[M * N];
    double e[M * N], e2[M * N], g[M * N];
    kt_seed(3000);
    for (int i = 0; i < M * N; i++) x[i] = (float)kt_irand(-1000, 1000);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) { e[j * M + i] = x[i * N + j]; e2[j * M + i] = x[i * N + j] + 1; }
    tc_tensor *tx = kt_t2(ctx, TC_FP32, M, N, x), *to = kt_t2(ctx, TC_FP32, N, M, NULL),
              *tt = kt_t2(ctx, TC_FP32, N, M, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"out_t_ptr", tc_tens(tt)}, {"M", tc_int(M)}, {"N", tc_int(N)})) {
        kt_get(to, o); kt_get(tt, ot);
        KT_WIDEN(g, o, M * N);
        KT_CHECK_ARR(e, g, M * N, 0, 0);
        KT_WIDEN(g, ot, M * N);
        KT_CHECK_ARR(e2, g, M * N, 0, 0); /* x.T */
    }
    tc_tensor_free(tx); tc_tensor_free(to); tc_tensor_free(tt);
    KT_TEARDOWN();
}

TEST(kern_permute_3d) {
    KT_SETUP("shapes.py", "permute_kernel");
    enum { A = 2, B = 4, C = 8 };
    int32_t x[A * B * C], o[A * B * C];
    int64_t e[A * B * C], g[A * B * C];
    for (int i = 0; i < A * B * C; i++) x[i] = i * 7 - 100;
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int kk = 0; kk < C; kk++) e[kk * A * B + i * B + j] = x[i * B * C + j * C + kk];
    int64_t sh[3] = {A, B, C}, sho[3] = {C, A, B};
    tc_tensor *tx = kt_tensor(ctx, TC_I32, 3, sh, x), *to = kt_tensor(ctx, TC_I32, 3, sho, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"A", tc_int(A)}, {"B", tc_int(B)}, {"C", tc_int(C)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, A * B * C);
        KT_CHECK_IARR(e, g, A * B * C);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_expand_dims_broadcast_to) {
    KT_SETUP("shapes.py", "expand_kernel");
    enum { N = 16, R = 4 };
    int32_t x[N], o[R * N], o2[N * R];
    int64_t e[R * N], g[R * N];
    kt_seed(3100);
    for (int i = 0; i < N; i++) x[i] = kt_irand(-50, 50);
    tc_tensor *tx = kt_t1(ctx, TC_I32, N, x), *to = kt_t2(ctx, TC_I32, R, N, NULL),
              *to2 = kt_t2(ctx, TC_I32, N, R, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"out2_ptr", tc_tens(to2)}, {"N", tc_int(N)}, {"R", tc_int(R)})) {
        kt_get(to, o); kt_get(to2, o2);
        for (int r = 0; r < R; r++) for (int n = 0; n < N; n++) e[r * N + n] = x[n] + r;
        KT_WIDEN(g, o, R * N);
        KT_CHECK_IARR(e, g, R * N);
        for (int n = 0; n < N; n++) for (int r = 0; r < R; r++) e[n * R + r] = x[n] * (r + 1);
        KT_WIDEN(g, o2, N * R);
        KT_CHECK_IARR(e, g, N * R);
    }
    tc_tensor_free(tx); tc_tensor_free(to); tc_tensor_free(to2);
    KT_TEARDOWN();
}

TEST(kern_arange_full_zeros) {
    KT_SETUP("shapes.py", "arange_start_kernel");
    int32_t o[16];
    tc_tensor *to = kt_t1(ctx, TC_I32, 16, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"out_ptr", tc_tens(to)})) {
        kt_get(to, o);
        int64_t e[16], g[16];
        for (int i = 0; i < 8; i++) e[i] = 7 + i;
        for (int i = 8; i < 12; i++) e[i] = -3;
        for (int i = 12; i < 16; i++) e[i] = 5;
        KT_WIDEN(g, o, 16);
        KT_CHECK_IARR(e, g, 16);
    }
    tc_tensor_free(to);
    KT_TEARDOWN();
}
