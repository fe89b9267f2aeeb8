/* test_kernels.c — kernel conformance tests through the public API, part 1: vector add
 * (tutorial 01 and the chapter's kernels), softmax (tutorial 02), layer norm (tutorial 05),
 * matmul and tl.dot (tutorial 03), reductions. Every expected value comes from a plain C
 * reference loop in this file; the kernels live in tests/kernels/ (one .py file per topic). */
#include "test_kernels_util.h"

/* ---- tutorial 01: vector add ------------------------------------------------------------ */

TEST(kern_vector_add) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "vector_add.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "add_kernel");
    static const struct { int n, block, extra_programs; } cases[] = {
        {1000, 256, 0}, {4096, 1024, 0}, {98432, 1024, 0}, {1, 128, 0}, {777, 64, 3}, {17, 16, 1},
    };
    for (int c = 0; k && c < COUNT_OF_CASES(cases); c++) {
        int n = cases[c].n, block = cases[c].block;
        kt_seed(100 + c);
        float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *o = malloc(n * sizeof *o);
        double *e = malloc(n * sizeof *e), *g = malloc(n * sizeof *g);
        for (int i = 0; i < n; i++) { x[i] = kt_frand(-10, 10); y[i] = kt_frand(-10, 10); }
        for (int i = 0; i < n; i++) { float s = x[i] + y[i]; e[i] = s; }
        tc_tensor *tx = kt_t1(ctx, TC_FP32, n, x), *ty = kt_t1(ctx, TC_FP32, n, y),
                  *to = kt_t1(ctx, TC_FP32, n, NULL);
        uint32_t grid = (uint32_t)((n + block - 1) / block + cases[c].extra_programs);
        if (KT_RUN(ctx, k, grid, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                   {"output_ptr", tc_tens(to)}, {"n_elements", tc_int(n)},
                   {"BLOCK_SIZE", tc_int(block)})) {
            kt_get(to, o);
            KT_WIDEN(g, o, n);
            KT_CHECK_ARR(e, g, n, 0, 0);
        }
        tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
        free(x); free(y); free(o); free(e); free(g);
    }
    /* positional arguments give the same result */
    if (k) {
        float x[5] = {1, 2, 3, 4, 5}, y[5] = {10, 20, 30, 40, 50}, o[5] = {0};
        tc_tensor *tx = kt_t1(ctx, TC_FP32, 5, x), *ty = kt_t1(ctx, TC_FP32, 5, y),
                  *to = kt_t1(ctx, TC_FP32, 5, NULL);
        tc_args *a = NULL;
        tc_args_new(k, &a);
        CHECK_INT(TC_OK, tc_args_set_at(a, 0, tc_tens(tx)));
        CHECK_INT(TC_OK, tc_args_set_at(a, 1, tc_tens(ty)));
        CHECK_INT(TC_OK, tc_args_set_at(a, 2, tc_tens(to)));
        CHECK_INT(TC_OK, tc_args_set_at(a, 3, tc_int(5)));
        CHECK_INT(TC_OK, tc_args_set(a, "BLOCK_SIZE", tc_int(8)));
        tc_launch_opts o1 = tc_launch_defaults();
        o1.grid[0] = 1;
        tc_status s = tc_launch(k, a, &o1);
        CHECK_INT(TC_OK, s);
        if (s != TC_OK) fprintf(stderr, "  %s\n", tc_errmsg(ctx));
        tc_args_free(a);
        kt_get(to, o);
        for (int i = 0; i < 5; i++) CHECK_NEAR(11.0 * (i + 1), o[i], 0, 0);
        tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_vector_int64_offsets) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "vector_add.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "mul_i64_offsets_kernel");
    enum { N = 1000 };
    float x[N], y[N], o[N];
    double e[N], g[N];
    kt_seed(7);
    for (int i = 0; i < N; i++) { x[i] = kt_frand(-3, 3); y[i] = kt_frand(-3, 3); }
    for (int i = 0; i < N; i++) { float p = x[i] * y[i]; float r = p - 1.5f; e[i] = r; }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, N, x), *ty = kt_t1(ctx, TC_FP32, N, y),
              *to = kt_t1(ctx, TC_FP32, N, NULL);
    if (k && KT_RUN(ctx, k, 8, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"n", tc_int(N)}, {"BLOCK", tc_int(128)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_ARR(e, g, N, 0, 0);
    }
    /* axpy: a float scalar argument is fp32 */
    tc_kernel *k2 = KT_KERNEL(ctx, m, "axpy_kernel");
    for (int i = 0; i < N; i++) { float p = 0.75f * x[i]; float r = p + y[i]; e[i] = r; }
    if (k2 && KT_RUN(ctx, k2, 16, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                     {"out_ptr", tc_tens(to)}, {"alpha", tc_float(0.75)}, {"n", tc_int(N)},
                     {"BLOCK", tc_int(64)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_ARR(e, g, N, 1e-6, 1e-6); /* a fused multiply-add is allowed */
    }
    /* an integer argument beyond int32 is i64 */
    tc_kernel *k3 = KT_KERNEL(ctx, m, "big_scalar_kernel");
    tc_tensor *tb = kt_t1(ctx, TC_I64, 3, NULL);
    int64_t big = 5000000123LL, gb[3] = {0};
    if (k3 && KT_RUN(ctx, k3, 1, 1, 1, {"out_ptr", tc_tens(tb)}, {"big", tc_int(big)})) {
        kt_get(tb, gb);
        CHECK_INT(big + 1, gb[0]);
        CHECK_INT(big / 1000, gb[1]);
        CHECK_INT(big % 1000, gb[2]);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to); tc_tensor_free(tb);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- the chapter: num_warps / num_stages, constexpr hardware branching ---------------------- */

TEST(kern_chapter_add_warps_stages) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "chapter.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "add_kernel");
    float x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40}, o[4];
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 4, x), *ty = kt_t1(ctx, TC_FP32, 4, y);
    int warps[] = {1, 4, 8};
    for (int w = 0; k && w < 3; w++) {
        tc_tensor *to = kt_t1(ctx, TC_FP32, 4, NULL);
        tc_launch_opts op = tc_launch_defaults();
        op.grid[0] = 1;
        op.num_warps = warps[w];
        tc_status s = kt_launch_opts(ctx, k, &op,
                                     KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                             {"out_ptr", tc_tens(to)}, {"n", tc_int(4)},
                                             {"BLOCK", tc_int(4)}));
        CHECK_INT(TC_OK, s);
        kt_get(to, o);
        for (int i = 0; i < 4; i++) CHECK_NEAR(x[i] + y[i], o[i], 0, 0);
        tc_launch_report r;
        tc_last_launch(ctx, &r, sizeof r);
        CHECK_INT(TC_BACKEND_INTERPRET, r.backend);
        CHECK_INT(warps[w], r.num_warps);
        CHECK(r.note[0] != 0); /* says the interpreter does not model num_warps/num_stages */
        tc_tensor_free(to);
    }
    if (k) {
        tc_tensor *to = kt_t1(ctx, TC_FP32, 4, NULL);
        tc_launch_opts op = tc_launch_defaults();
        op.grid[0] = 1;
        op.num_stages = 3;
        CHECK_INT(TC_OK, kt_launch_opts(ctx, k, &op,
                                        KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                                {"out_ptr", tc_tens(to)}, {"n", tc_int(4)},
                                                {"BLOCK", tc_int(4)})));
        kt_get(to, o);
        CHECK_NEAR(44.0, o[3], 0, 0);
        /* num_warps must be a power of two */
        op.num_stages = 0;
        op.num_warps = 3;
        tc_status s = kt_launch_opts(ctx, k, &op,
                                     KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                             {"out_ptr", tc_tens(to)}, {"n", tc_int(4)},
                                             {"BLOCK", tc_int(4)}));
        CHECK_INT(TC_ERR_ARG, s);
        CHECK_CONTAINS(tc_errmsg(ctx), "power of 2");
        tc_tensor_free(to);
    }
    tc_tensor_free(tx); tc_tensor_free(ty);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_chapter_hw_aware_two_specializations) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "chapter.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "hw_aware_kernel");
    if (!k) goto done;
    float x[4] = {1, 2, 3, 4}, o[4];
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 4, x);
    int ccs[] = {90, 80, 90};
    for (int i = 0; i < 3; i++) {
        tc_tensor *to = kt_t1(ctx, TC_FP32, 4, NULL);
        int fast = ccs[i] >= 90;
        KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
               {"n", tc_int(4)}, {"USE_FAST_PATH", tc_bool(fast)}, {"BLOCK", tc_int(4)});
        kt_get(to, o);
        for (int j = 0; j < 4; j++) CHECK_NEAR(2.0 * (j + 1), o[j], 0, 0);
        tc_launch_report r;
        tc_last_launch(ctx, &r, sizeof r);
        CHECK_INT(i < 2 ? 1 : 0, r.compiled);
        tc_tensor_free(to);
    }
    tc_stats st;
    tc_kernel_stats(k, &st, sizeof st);
    CHECK_INT(2, st.specializations);
    CHECK_INT(1, st.hits);
    CHECK_INT(3, st.launches);
    tc_tensor_free(tx);
done:
    tc_module_free(m);
    tc_context_free(ctx);
}

/* An integer equal to 1 and divisibility by 16 are part of the specialization key. */
TEST(kern_specialization_key) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "chapter.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "add_kernel");
    if (!k) goto done;
    float x[32], y[32], o[32];
    for (int i = 0; i < 32; i++) { x[i] = (float)i; y[i] = 100.0f * i; }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 32, x), *ty = kt_t1(ctx, TC_FP32, 32, y),
              *to = kt_t1(ctx, TC_FP32, 32, NULL);
    int ns[] = {5, 7, 1, 16, 32, 5};
    int expect_specs[] = {1, 1, 2, 3, 3, 3};
    for (int i = 0; i < 6; i++) {
        KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
               {"out_ptr", tc_tens(to)}, {"n", tc_int(ns[i])}, {"BLOCK", tc_int(32)});
        kt_get(to, o);
        CHECK_NEAR(101.0 * (ns[i] - 1), o[ns[i] - 1], 0, 0);
        tc_stats st;
        tc_kernel_stats(k, &st, sizeof st);
        CHECK_INT(expect_specs[i], st.specializations);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
done:
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- tutorial 02: softmax ------------------------------------------------------------------ */

static void softmax_ref(const float *x, double *out, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
        double mx = -INFINITY, s = 0;
        for (int c = 0; c < cols; c++) if (x[r * cols + c] > mx) mx = x[r * cols + c];
        for (int c = 0; c < cols; c++) s += exp(x[r * cols + c] - mx);
        for (int c = 0; c < cols; c++) out[r * cols + c] = exp(x[r * cols + c] - mx) / s;
    }
}

TEST(kern_softmax) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "softmax.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "softmax_kernel");
    static const struct { int rows, cols, block, grid; } cases[] = {
        {37, 100, 128, 8}, {37, 100, 128, 37}, {37, 100, 128, 1}, {5, 1000, 1024, 64},
        {16, 781, 1024, 4}, {3, 16, 16, 2},
    };
    for (int c = 0; k && c < COUNT_OF_CASES(cases); c++) {
        int R = cases[c].rows, C = cases[c].cols, n = R * C;
        float *x = malloc(n * sizeof *x), *o = malloc(n * sizeof *o);
        double *e = malloc(n * sizeof *e), *g = malloc(n * sizeof *g);
        kt_seed(200 + c);
        for (int i = 0; i < n; i++) x[i] = kt_frand(-6, 6);
        softmax_ref(x, e, R, C);
        tc_tensor *tx = kt_t2(ctx, TC_FP32, R, C, x), *to = kt_t2(ctx, TC_FP32, R, C, NULL);
        if (KT_RUN(ctx, k, cases[c].grid, 1, 1, {"output_ptr", tc_tens(to)},
                   {"input_ptr", tc_tens(tx)}, {"input_row_stride", tc_int(C)},
                   {"output_row_stride", tc_int(C)}, {"n_rows", tc_int(R)},
                   {"n_cols", tc_int(C)}, {"BLOCK_SIZE", tc_int(cases[c].block)},
                   {"num_stages", tc_int(3)})) {
            kt_get(to, o);
            KT_WIDEN(g, o, n);
            KT_CHECK_ARR(e, g, n, 1e-5, 1e-7);
            /* every row sums to one */
            double worst = 0;
            for (int r = 0; r < R; r++) {
                double s = 0;
                for (int j = 0; j < C; j++) s += o[r * C + j];
                if (fabs(s - 1) > worst) worst = fabs(s - 1);
            }
            CHECK(worst < 1e-5);
        }
        tc_tensor_free(tx); tc_tensor_free(to);
        free(x); free(o); free(e); free(g);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- tutorial 05: layer norm forward (loop bound N is a kernel argument) -------------------- */

/* The same kernel on fp16 X, Y, W, B (loads cast to fp32, the store rounds to fp16). N 208
 * is a multiple of 16 (specialized `:16`), so on the GPU `cols < N` is one comparison per
 * run of contiguous columns (tests/test_kern.c kern_cmp_shares_constant_runs); 200 is not. */
TEST(kern_layernorm_fwd_fp16) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "layernorm.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "_layer_norm_fwd_fused");
    enum { R = 6, NMAX = 208 };
    static const struct { int N, block; } cases[] = {{200, 64}, {208, 256}};
    static uint16_t x[R * NMAX], y[R * NMAX], w[NMAX], b[NMAX];
    static double e[R * NMAX], g[R * NMAX];
    for (int c = 0; k && c < COUNT_OF_CASES(cases); c++) {
        int N = cases[c].N;
        kt_seed(350 + c);
        for (int i = 0; i < R * N; i++) x[i] = kt_f16(kt_frand(-2, 3));
        for (int i = 0; i < N; i++) { w[i] = kt_f16(kt_frand(0.5f, 1.5f)); b[i] = kt_f16(kt_frand(-1, 1)); }
        for (int r = 0; r < R; r++) {
            double s = 0, v = 0;
            for (int j = 0; j < N; j++) s += kt_h2d(x[r * N + j]);
            double mu = s / N;
            for (int j = 0; j < N; j++) v += (kt_h2d(x[r * N + j]) - mu) * (kt_h2d(x[r * N + j]) - mu);
            double rs = 1 / sqrt(v / N + (float)1e-5);
            for (int j = 0; j < N; j++)
                e[r * N + j] = kt_round_f16((kt_h2d(x[r * N + j]) - mu) * rs * kt_h2d(w[j]) + kt_h2d(b[j]));
        }
        tc_tensor *tx = kt_t2(ctx, TC_FP16, R, N, x), *ty = kt_t2(ctx, TC_FP16, R, N, NULL),
                  *tw = kt_t1(ctx, TC_FP16, N, w), *tb = kt_t1(ctx, TC_FP16, N, b),
                  *tm = kt_t1(ctx, TC_FP32, R, NULL), *tr = kt_t1(ctx, TC_FP32, R, NULL);
        if (KT_RUN(ctx, k, R, 1, 1, {"X", tc_tens(tx)}, {"Y", tc_tens(ty)}, {"W", tc_tens(tw)},
                   {"B", tc_tens(tb)}, {"Mean", tc_tens(tm)}, {"Rstd", tc_tens(tr)},
                   {"stride", tc_int(N)}, {"N", tc_int(N)}, {"eps", tc_float(1e-5)},
                   {"BLOCK_SIZE", tc_int(cases[c].block)})) {
            kt_get(ty, y);
            for (int i = 0; i < R * N; i++) g[i] = kt_h2d(y[i]);
            KT_CHECK_ARR(e, g, R * N, 2e-3, 2e-3); /* one fp16 ulp */
        }
        tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(tw); tc_tensor_free(tb);
        tc_tensor_free(tm); tc_tensor_free(tr);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_layernorm_fwd) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "layernorm.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "_layer_norm_fwd_fused");
    static const struct { int rows, N, block; } cases[] = {{5, 300, 128}, {3, 1000, 256}, {4, 50, 64}};
    for (int c = 0; k && c < COUNT_OF_CASES(cases); c++) {
        int R = cases[c].rows, N = cases[c].N, n = R * N;
        float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *w = malloc(N * sizeof *w),
              *b = malloc(N * sizeof *b), mean[8], rstd[8];
        double *e = malloc(n * sizeof *e), *g = malloc(n * sizeof *g), em[8], er[8], gm[8], gr[8];
        kt_seed(300 + c);
        for (int i = 0; i < n; i++) x[i] = kt_frand(-2, 3);
        for (int i = 0; i < N; i++) { w[i] = kt_frand(0.5f, 1.5f); b[i] = kt_frand(-1, 1); }
        const double eps = 1e-5;
        for (int r = 0; r < R; r++) {
            double s = 0, v = 0;
            for (int j = 0; j < N; j++) s += x[r * N + j];
            double mu = s / N;
            for (int j = 0; j < N; j++) v += (x[r * N + j] - mu) * (x[r * N + j] - mu);
            v /= N;
            double rs = 1 / sqrt(v + (float)eps);
            em[r] = mu; er[r] = rs;
            for (int j = 0; j < N; j++) e[r * N + j] = (x[r * N + j] - mu) * rs * w[j] + b[j];
        }
        tc_tensor *tx = kt_t2(ctx, TC_FP32, R, N, x), *ty = kt_t2(ctx, TC_FP32, R, N, NULL),
                  *tw = kt_t1(ctx, TC_FP32, N, w), *tb = kt_t1(ctx, TC_FP32, N, b),
                  *tm = kt_t1(ctx, TC_FP32, R, NULL), *tr = kt_t1(ctx, TC_FP32, R, NULL);
        if (KT_RUN(ctx, k, R, 1, 1, {"X", tc_tens(tx)}, {"Y", tc_tens(ty)}, {"W", tc_tens(tw)},
                   {"B", tc_tens(tb)}, {"Mean", tc_tens(tm)}, {"Rstd", tc_tens(tr)},
                   {"stride", tc_int(N)}, {"N", tc_int(N)}, {"eps", tc_float(eps)},
                   {"BLOCK_SIZE", tc_int(cases[c].block)})) {
            kt_get(ty, y); kt_get(tm, mean); kt_get(tr, rstd);
            KT_WIDEN(g, y, n);
            KT_WIDEN(gm, mean, R);
            KT_WIDEN(gr, rstd, R);
            KT_CHECK_ARR(em, gm, R, 1e-5, 1e-6);
            KT_CHECK_ARR(er, gr, R, 1e-4, 0);
            KT_CHECK_ARR(e, g, n, 1e-4, 1e-5);
        }
        tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(tw); tc_tensor_free(tb);
        tc_tensor_free(tm); tc_tensor_free(tr);
        free(x); free(y); free(w); free(b); free(e); free(g);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- tutorial 03: matmul; tl.dot ------------------------------------------------------------- */

static void matmul_case(tc_context *ctx, tc_kernel *k, int M, int N, int K, int BM, int BN,
                        int BK, int GM, const char *act, int b_transposed, uint32_t seed) {
    uint16_t *a = malloc((size_t)M * K * 2), *b = malloc((size_t)K * N * 2),
             *cc = malloc((size_t)M * N * 2);
    double *e = malloc((size_t)M * N * sizeof *e), *g = malloc((size_t)M * N * sizeof *g);
    kt_seed(seed);
    for (int i = 0; i < M * K; i++) a[i] = kt_f16(kt_frand(-1, 1));
    for (int i = 0; i < K * N; i++) b[i] = kt_f16(kt_frand(-1, 1));
    /* b is stored (K, N) row-major, or (N, K) row-major when transposed */
    int sbk = b_transposed ? 1 : N, sbn = b_transposed ? K : 1;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int kk = 0; kk < K; kk++) s += kt_h2d(a[i * K + kk]) * kt_h2d(b[kk * sbk + j * sbn]);
            if (strcmp(act, "leaky_relu") == 0 && s < 0) s *= 0.01;
            e[i * N + j] = kt_round_f16(s);
        }
    tc_tensor *ta = kt_t2(ctx, TC_FP16, M, K, a),
              *tb = b_transposed ? kt_t2(ctx, TC_FP16, N, K, b) : kt_t2(ctx, TC_FP16, K, N, b),
              *tc = kt_t2(ctx, TC_FP16, M, N, NULL);
    uint32_t grid = (uint32_t)(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
    if (KT_RUN(ctx, k, grid, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
               {"c_ptr", tc_tens(tc)}, {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)},
               {"stride_am", tc_int(K)}, {"stride_ak", tc_int(1)}, {"stride_bk", tc_int(sbk)},
               {"stride_bn", tc_int(sbn)}, {"stride_cm", tc_int(N)}, {"stride_cn", tc_int(1)},
               {"BLOCK_SIZE_M", tc_int(BM)}, {"BLOCK_SIZE_N", tc_int(BN)},
               {"BLOCK_SIZE_K", tc_int(BK)}, {"GROUP_SIZE_M", tc_int(GM)},
               {"ACTIVATION", tc_str(act)})) {
        kt_get(tc, cc);
        for (int i = 0; i < M * N; i++) g[i] = kt_h2d(cc[i]);
        /* fp32 accumulation in another order may move the fp16 result by one ulp */
        KT_CHECK_ARR(e, g, M * N, 2e-3, 2e-3);
    }
    tc_tensor_free(ta); tc_tensor_free(tb); tc_tensor_free(tc);
    free(a); free(b); free(cc); free(e); free(g);
}

TEST(kern_matmul_tutorial03) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "matmul.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "matmul_kernel");
    if (k) {
        matmul_case(ctx, k, 40, 48, 72, 16, 16, 32, 2, "", 0, 1);
        matmul_case(ctx, k, 40, 48, 72, 16, 16, 32, 2, "leaky_relu", 0, 2);
        matmul_case(ctx, k, 64, 32, 64, 32, 16, 16, 8, "", 1, 3);
        matmul_case(ctx, k, 33, 17, 20, 16, 16, 16, 3, "leaky_relu", 1, 4);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* The tutorial's fp8 run: A and B e5m2, B given transposed (contiguous along K), C fp16.
 * e5m2 is fp16's top byte, so each operand is exactly an fp16 value; the reference sums in
 * double. 128x128x256 in 128x64x64 tiles: wgmma-sized, so that the shadowed suite checks fp8
 * wgmma on a GPU (at num_warps 1 to 8). */
TEST(kern_matmul_tutorial03_fp8) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "matmul.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "matmul_kernel");
    enum { M = 128, N = 128, K = 256 };
    uint8_t *a = malloc(M * K), *b = malloc(K * N);
    uint16_t *cc = malloc(M * N * 2);
    double *e = malloc(M * N * sizeof *e), *g = malloc(M * N * sizeof *g);
    kt_seed(31);
    for (int i = 0; i < M * K; i++) a[i] = (uint8_t)(kt_f16(kt_frand(-1, 1)) >> 8);
    for (int i = 0; i < K * N; i++) b[i] = (uint8_t)(kt_f16(kt_frand(-1, 1)) >> 8);   /* b[n][k] */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int kk = 0; kk < K; kk++)
                s += kt_h2d((uint16_t)(a[i * K + kk] << 8)) * kt_h2d((uint16_t)(b[j * K + kk] << 8));
            e[i * N + j] = kt_round_f16(s);
        }
    tc_tensor *ta = kt_t2(ctx, TC_FP8E5, M, K, a), *tb = kt_t2(ctx, TC_FP8E5, N, K, b),
              *tc = kt_t2(ctx, TC_FP16, M, N, NULL);
    if (k && KT_RUN(ctx, k, 2, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(tc)},
                    {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)}, {"stride_am", tc_int(K)},
                    {"stride_ak", tc_int(1)}, {"stride_bk", tc_int(1)}, {"stride_bn", tc_int(K)},
                    {"stride_cm", tc_int(N)}, {"stride_cn", tc_int(1)}, {"BLOCK_SIZE_M", tc_int(128)},
                    {"BLOCK_SIZE_N", tc_int(64)}, {"BLOCK_SIZE_K", tc_int(64)}, {"GROUP_SIZE_M", tc_int(8)},
                    {"ACTIVATION", tc_str("")})) {
        kt_get(tc, cc);
        for (int i = 0; i < M * N; i++) g[i] = kt_h2d(cc[i]);
        KT_CHECK_ARR(e, g, M * N, 2e-3, 2e-3);
    }
    tc_tensor_free(ta); tc_tensor_free(tb); tc_tensor_free(tc);
    free(a); free(b); free(cc); free(e); free(g);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_dot_ieee_fp32) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_ieee_kernel");
    static const int dims[][3] = {{16, 16, 16}, {32, 16, 64}, {16, 64, 32}};
    for (int c = 0; k && c < 3; c++) {
        int M = dims[c][0], N = dims[c][1], K = dims[c][2];
        float *a = malloc(M * K * 4), *b = malloc(K * N * 4), *o = malloc(M * N * 4);
        double *e = malloc(M * N * 8), *g = malloc(M * N * 8);
        kt_seed(400 + c);
        for (int i = 0; i < M * K; i++) a[i] = kt_frand(-1, 1);
        for (int i = 0; i < K * N; i++) b[i] = kt_frand(-1, 1);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float s = 0;
                for (int kk = 0; kk < K; kk++) s += a[i * K + kk] * b[kk * N + j];
                e[i * N + j] = s;
            }
        tc_tensor *ta = kt_t2(ctx, TC_FP32, M, K, a), *tb = kt_t2(ctx, TC_FP32, K, N, b),
                  *to = kt_t2(ctx, TC_FP32, M, N, NULL);
        if (KT_RUN(ctx, k, 1, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
                   {"c_ptr", tc_tens(to)}, {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)})) {
            kt_get(to, o);
            KT_WIDEN(g, o, M * N);
            KT_CHECK_ARR(e, g, M * N, 1e-5, 1e-5);
        }
        tc_tensor_free(ta); tc_tensor_free(tb); tc_tensor_free(to);
        free(a); free(b); free(o); free(e); free(g);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_dot_fp16_fp32_acc) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_f16_kernel");
    enum { M = 16, N = 32, K = 64 };
    uint16_t a[M * K], b[K * N];
    float o[M * N];
    double e[M * N], g[M * N];
    kt_seed(500);
    for (int i = 0; i < M * K; i++) a[i] = kt_f16(kt_frand(-1, 1));
    for (int i = 0; i < K * N; i++) b[i] = kt_f16(kt_frand(-1, 1));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int kk = 0; kk < K; kk++) s += kt_h2d(a[i * K + kk]) * kt_h2d(b[kk * N + j]);
            e[i * N + j] = s;
        }
    tc_tensor *ta = kt_t2(ctx, TC_FP16, M, K, a), *tb = kt_t2(ctx, TC_FP16, K, N, b),
              *to = kt_t2(ctx, TC_FP32, M, N, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
                    {"c_ptr", tc_tens(to)}, {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, M * N);
        /* fp32 accumulation: far tighter than an fp16 accumulator (~1e-2) would allow */
        KT_CHECK_ARR(e, g, M * N, 1e-5, 1e-4);
    }
    tc_tensor_free(ta); tc_tensor_free(tb); tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_dot_acc_masked_k) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_acc_kernel");
    enum { M = 16, N = 32, BK = 16 };
    int Ks[] = {50, 16, 7};
    for (int c = 0; k && c < 3; c++) {
        for (int pe = 0; pe < 2; pe++) {
            int K = Ks[c];
            float *a = malloc(M * K * 4), *b = malloc(K * N * 4), bias[M * N], o[M * N];
            double e[M * N], g[M * N];
            kt_seed(600 + c);
            for (int i = 0; i < M * K; i++) a[i] = kt_frand(-1, 1);
            for (int i = 0; i < K * N; i++) b[i] = kt_frand(-1, 1);
            for (int i = 0; i < M * N; i++) bias[i] = kt_frand(-4, 4);
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    double s = bias[i * N + j];
                    for (int kk = 0; kk < K; kk++) s += (double)a[i * K + kk] * b[kk * N + j];
                    e[i * N + j] = s;
                }
            tc_tensor *ta = kt_t2(ctx, TC_FP32, M, K, a), *tb = kt_t2(ctx, TC_FP32, K, N, b),
                      *tbias = kt_t2(ctx, TC_FP32, M, N, bias), *to = kt_t2(ctx, TC_FP32, M, N, NULL);
            if (KT_RUN(ctx, k, 1, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
                       {"bias_ptr", tc_tens(tbias)}, {"c_ptr", tc_tens(to)}, {"K", tc_int(K)},
                       {"M", tc_int(M)}, {"N", tc_int(N)}, {"BK", tc_int(BK)},
                       {"USE_PLUS_EQ", tc_bool(pe)})) {
                kt_get(to, o);
                KT_WIDEN(g, o, M * N);
                KT_CHECK_ARR(e, g, M * N, 1e-5, 1e-5);
            }
            tc_tensor_free(ta); tc_tensor_free(tb); tc_tensor_free(tbias); tc_tensor_free(to);
            free(a); free(b);
        }
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- reductions -------------------------------------------------------------------------------- */

/* Runs reduce2d_kernel on an 8x16 block of `dt` (fp32 or i32) holding small integers (many
 * ties) and checks every output against C loops. */
static void reduce2d_case(tc_context *ctx, tc_kernel *k, tc_dtype dt, uint32_t seed) {
    enum { M = 8, N = 16 };
    int xi[M * N];
    float xf[M * N];
    kt_seed(seed);
    for (int i = 0; i < M * N; i++) { xi[i] = kt_irand(-4, 4); xf[i] = (float)xi[i]; }
    int64_t sum0[N], sum1[M], max0[N], max1[M], min0[N], min1[M], amax0[N], amax1[M], amin0[N],
        amin1[M], sumall = 0, maxall = -100, aminall = 0;
    for (int j = 0; j < N; j++) {
        sum0[j] = 0; max0[j] = -100; min0[j] = 100; amax0[j] = amin0[j] = 0;
        for (int i = 0; i < M; i++) {
            int v = xi[i * N + j];
            sum0[j] += v;
            if (v > max0[j]) { max0[j] = v; amax0[j] = i; }
            if (v < min0[j]) { min0[j] = v; amin0[j] = i; }
        }
    }
    int minv = 100;
    for (int i = 0; i < M; i++) {
        sum1[i] = 0; max1[i] = -100; min1[i] = 100; amax1[i] = amin1[i] = 0;
        for (int j = 0; j < N; j++) {
            int v = xi[i * N + j];
            sum1[i] += v;
            if (v > max1[i]) { max1[i] = v; amax1[i] = j; }
            if (v < min1[i]) { min1[i] = v; amin1[i] = j; }
            sumall += v;
            if (v > maxall) maxall = v;
            if (v < minv) { minv = v; aminall = i * N + j; }
        }
    }
    tc_tensor *tx = kt_t2(ctx, dt, M, N, dt == TC_FP32 ? (void *)xf : (void *)xi);
    tc_tensor *o_s0 = kt_t1(ctx, dt, N, NULL), *o_s1 = kt_t1(ctx, dt, M, NULL),
              *o_sa = kt_t1(ctx, dt, 1, NULL), *o_x0 = kt_t1(ctx, dt, N, NULL),
              *o_x1 = kt_t1(ctx, dt, M, NULL), *o_n0 = kt_t1(ctx, dt, N, NULL),
              *o_n1 = kt_t1(ctx, dt, M, NULL), *o_ax0 = kt_t1(ctx, TC_I32, N, NULL),
              *o_ax1 = kt_t1(ctx, TC_I32, M, NULL), *o_an0 = kt_t1(ctx, TC_I32, N, NULL),
              *o_an1 = kt_t1(ctx, TC_I32, M, NULL), *o_xa = kt_t1(ctx, dt, 1, NULL),
              *o_ana = kt_t1(ctx, TC_I32, 1, NULL);
    if (KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"sum0_ptr", tc_tens(o_s0)},
               {"sum1_ptr", tc_tens(o_s1)}, {"sumall_ptr", tc_tens(o_sa)},
               {"max0_ptr", tc_tens(o_x0)}, {"max1_ptr", tc_tens(o_x1)},
               {"min0_ptr", tc_tens(o_n0)}, {"min1_ptr", tc_tens(o_n1)},
               {"amax0_ptr", tc_tens(o_ax0)}, {"amax1_ptr", tc_tens(o_ax1)},
               {"amin0_ptr", tc_tens(o_an0)}, {"amin1_ptr", tc_tens(o_an1)},
               {"maxall_ptr", tc_tens(o_xa)}, {"aminall_ptr", tc_tens(o_ana)}, {"M", tc_int(M)},
               {"N", tc_int(N)})) {
        tc_tensor *outs[] = {o_s0, o_s1, o_sa, o_x0, o_x1, o_n0, o_n1, o_xa};
        const int64_t *exps[] = {sum0, sum1, &sumall, max0, max1, min0, min1, &maxall};
        const char *names[] = {"sum axis 0", "sum axis 1", "sum all", "max axis 0", "max axis 1",
                               "min axis 0", "min axis 1", "max all"};
        for (int t = 0; t < 8; t++) {
            int64_t n = tc_tensor_numel(outs[t]), got[16];
            if (dt == TC_FP32) { float f[16]; kt_get(outs[t], f); KT_WIDEN(got, f, n); }
            else { int32_t v[16]; kt_get(outs[t], v); KT_WIDEN(got, v, n); }
            kt_check_i64_(names[t], exps[t], got, (long)n, __FILE__, __LINE__);
        }
        tc_tensor *iouts[] = {o_ax0, o_ax1, o_an0, o_an1, o_ana};
        const int64_t *iexps[] = {amax0, amax1, amin0, amin1, &aminall};
        const char *inames[] = {"argmax axis 0 (ties: smallest index)", "argmax axis 1",
                                "argmin axis 0", "argmin axis -1", "argmin of reshape"};
        for (int t = 0; t < 5; t++) {
            int64_t n = tc_tensor_numel(iouts[t]), got[16];
            int32_t v[16];
            kt_get(iouts[t], v);
            KT_WIDEN(got, v, n);
            kt_check_i64_(inames[t], iexps[t], got, (long)n, __FILE__, __LINE__);
        }
    }
    tc_tensor *all[] = {tx, o_s0, o_s1, o_sa, o_x0, o_x1, o_n0, o_n1, o_ax0, o_ax1, o_an0,
                        o_an1, o_xa, o_ana};
    for (int t = 0; t < 14; t++) tc_tensor_free(all[t]);
}

TEST(kern_reduce_axes) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "reduce.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "reduce2d_kernel");
    if (k) {
        reduce2d_case(ctx, k, TC_FP32, 1);
        reduce2d_case(ctx, k, TC_FP32, 2);
        reduce2d_case(ctx, k, TC_I32, 3);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_reduce_keep_dims) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "reduce.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "keepdims_kernel");
    enum { M = 4, N = 32 };
    int32_t x[M * N], o[M * N];
    int64_t e[M * N], g[M * N];
    kt_seed(700);
    for (int i = 0; i < M * N; i++) x[i] = kt_irand(-50, 50);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int64_t s = 0, mx = -1000;
            for (int jj = 0; jj < N; jj++) s += x[i * N + jj];
            for (int ii = 0; ii < M; ii++) if (x[ii * N + j] > mx) mx = x[ii * N + j];
            e[i * N + j] = (int64_t)x[i * N + j] * 1000 - s + mx;
        }
    tc_tensor *tx = kt_t2(ctx, TC_I32, M, N, x), *to = kt_t2(ctx, TC_I32, M, N, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"M", tc_int(M)}, {"N", tc_int(N)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, M * N);
        KT_CHECK_IARR(e, g, M * N);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* max of fp16 is fp32, sum of fp16 stays fp16, int8 sums and maxes are int32. */
TEST(kern_reduce_dtypes) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "reduce.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "reduce_dtypes_kernel");
    enum { B = 64 };
    uint16_t xh[B];
    int8_t xi[B];
    double smax = -100, ssum = 0;
    int64_t isum = 0, imax = -200;
    kt_seed(800);
    for (int i = 0; i < B; i++) {
        int v = kt_irand(-8, 8);
        xh[i] = kt_f16(v);
        smax = v > smax ? v : smax;
        ssum += v;
        xi[i] = (int8_t)kt_irand(90, 127);
        isum += xi[i];
        if (xi[i] > imax) imax = xi[i];
    }
    tc_tensor *th = kt_t1(ctx, TC_FP16, B, xh), *ti = kt_t1(ctx, TC_I8, B, xi),
              *omh = kt_t1(ctx, TC_FP32, 1, NULL), *osh = kt_t1(ctx, TC_FP16, 1, NULL),
              *osi = kt_t1(ctx, TC_I32, 1, NULL), *omi = kt_t1(ctx, TC_I32, 1, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"xh_ptr", tc_tens(th)}, {"xi8_ptr", tc_tens(ti)},
                    {"maxh_ptr", tc_tens(omh)}, {"sumh_ptr", tc_tens(osh)},
                    {"sumi8_ptr", tc_tens(osi)}, {"maxi8_ptr", tc_tens(omi)}, {"BLOCK", tc_int(B)})) {
        float mh;
        uint16_t sh;
        int32_t si, mi;
        kt_get(omh, &mh); kt_get(osh, &sh); kt_get(osi, &si); kt_get(omi, &mi);
        CHECK_NEAR(smax, mh, 0, 0);
        CHECK_NEAR(ssum, kt_h2d(sh), 0, 0);
        CHECK_INT(isum, si);
        CHECK_INT(imax, mi);
    }
    tc_tensor_free(th); tc_tensor_free(ti); tc_tensor_free(omh); tc_tensor_free(osh);
    tc_tensor_free(osi); tc_tensor_free(omi);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_reduce_row_sum_masked) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "reduce.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "row_sum_kernel");
    enum { R = 13, C = 77 };
    float x[R * C], o[R];
    double e[R], g[R];
    kt_seed(900);
    for (int i = 0; i < R * C; i++) x[i] = kt_frand(-1, 1);
    for (int r = 0; r < R; r++) {
        double s = 0;
        for (int c = 0; c < C; c++) s += x[r * C + c];
        e[r] = s;
    }
    tc_tensor *tx = kt_t2(ctx, TC_FP32, R, C, x), *to = kt_t1(ctx, TC_FP32, R, NULL);
    if (k && KT_RUN(ctx, k, R, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"n_cols", tc_int(C)}, {"BLOCK", tc_int(128)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, R);
        KT_CHECK_ARR(e, g, R, 1e-5, 1e-5);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}
