/* test_blockptr.c — block pointers (tl.make_block_ptr, tl.advance, tl.load / tl.store with
 * boundary_check and padding_option) on the interpreter against references computed here,
 * the errors Triton gives for misuse, and the GPU backend: every kernel lowered for sm_80 and
 * sm_90a and assembled by ptxas, the block-pointer matmul on tensor cores with cp.async
 * pipelining. Kernels: tests/kernels/blockptr.py. */
#include "test_kernels_util.h"

#include <stdbool.h>
#include <unistd.h>

static const char *BFILE = "blockptr.py";

/* copy2d (y = x + 1 by BM x BN tiles) of an M x N fp32 matrix x (row stride N) into y, a
 * (M + 1) x (N + 1) buffer seen as M x N with row stride N + 1: the extra row and column
 * must stay 0. check: the dims checked (0, 1, or 2: both). Returns the launch status. */
static tc_status run_copy2d(tc_context *ctx, tc_kernel *k, int M, int N, int check, float *y) {
    float *x = malloc(sizeof(float) * (size_t)(M * N));
    for (int i = 0; i < M * N; i++) x[i] = (float)(i * 3 % 17) - 5.0f;
    tc_tensor *xt = kt_t2(ctx, TC_FP32, M, N, x);
    tc_tensor *yt = kt_t2(ctx, TC_FP32, M + 1, N + 1, NULL);
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = (uint32_t)(M + 3) / 4;
    o.grid[1] = (uint32_t)(N + 3) / 4;
    o.grid[2] = 1;
    o.check = 1;
    tc_status s = kt_launch_opts(ctx, k, &o,
                                 KT_ARGS({"x_ptr", tc_tens(xt)}, {"y_ptr", tc_tens(yt)}, {"M", tc_int(M)},
                                         {"N", tc_int(N)}, {"stride_xm", tc_int(N)},
                                         {"stride_ym", tc_int(N + 1)}, {"BM", tc_int(4)}, {"BN", tc_int(4)},
                                         {"CHECK", tc_int(check)}));
    kt_get(yt, y);
    if (s == TC_OK) {
        tc_launch_report r;
        tc_last_launch(ctx, &r, sizeof r);
        CHECK_INT(0, r.check_findings);
    }
    tc_tensor_free(xt);
    tc_tensor_free(yt);
    free(x);
    return s;
}

static void check_copy2d(int M, int N, const float *y) {
    int bad = 0;
    for (int i = 0; i <= M; i++)
        for (int j = 0; j <= N; j++) {
            float want = i < M && j < N ? (float)((i * N + j) * 3 % 17) - 5.0f + 1.0f : 0.0f;
            bad += y[i * (N + 1) + j] != want;
        }
    CHECK_INT(0, bad);
}

TEST(blockptr_copy_partial_tiles) {
    /* 5x6 through 4x4 tiles: the edge tiles hang over both edges; both dims checked */
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    tc_kernel *k = KT_KERNEL(ctx, m, "copy2d");
    float y[6 * 7];
    CHECK_INT(TC_OK, run_copy2d(ctx, k, 5, 6, 2, y));
    check_copy2d(5, 6, y);
    /* only the dim that goes out is checked: rows (5x8), then columns (8x6) */
    float y2[9 * 9];
    CHECK_INT(TC_OK, run_copy2d(ctx, k, 5, 8, 0, y2));
    check_copy2d(5, 8, y2);
    CHECK_INT(TC_OK, run_copy2d(ctx, k, 8, 6, 1, y2));
    check_copy2d(8, 6, y2);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(blockptr_unchecked_dim_is_out_of_bounds) {
    /* 5x6 with only the rows checked: the last tile's columns 6 and 7 of row 4 are past the
     * end of x; the interpreter reports it as any out-of-bounds access, at the load */
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    tc_kernel *k = KT_KERNEL(ctx, m, "copy2d");
    float y[6 * 7];
    CHECK(run_copy2d(ctx, k, 5, 6, 0, y) != TC_OK);
    CHECK_CONTAINS(tc_errmsg(ctx), "blockptr.py:20:13:");
    CHECK_CONTAINS(tc_errmsg(ctx), "out-of-bounds load");
    CHECK_CONTAINS(tc_errmsg(ctx), "past the end of 'x_ptr'");
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(blockptr_padding_options) {
    /* a 3x3 matrix read as a 4x4 tile at (1, 1): x[1..2][1..2] inside, the rest padding */
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    tc_kernel *k = KT_KERNEL(ctx, m, "pad_tile");
    float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    uint16_t xh[9];
    for (int i = 0; i < 9; i++) xh[i] = kt_f16(x[i]);
    for (int h = 0; h < 2; h++)
        for (int p = 0; p < 3; p++) {
            tc_dtype dt = h ? TC_FP16 : TC_FP32;
            tc_tensor *xt = kt_t2(ctx, dt, 3, 3, h ? (const void *)xh : (const void *)x);
            tc_tensor *ot = kt_t2(ctx, dt, 4, 4, NULL);
            CHECK(KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(xt)}, {"out_ptr", tc_tens(ot)}, {"M", tc_int(3)},
                         {"N", tc_int(3)}, {"BM", tc_int(4)}, {"BN", tc_int(4)}, {"PAD", tc_int(2 - p)}));
            float o[16];
            uint16_t oh[16];
            kt_get(ot, h ? (void *)oh : (void *)o);
            double got[16], want[16];
            for (int i = 0; i < 16; i++) {
                int r = i / 4 + 1, c = i % 4 + 1;
                want[i] = r < 3 && c < 3 ? x[r * 3 + c] : p == 0 ? NAN : 0.0;
                got[i] = h ? kt_h2d(oh[i]) : o[i];
            }
            KT_CHECK_ARR(want, got, 16, 0, 0);
            tc_tensor_free(xt);
            tc_tensor_free(ot);
        }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* matmul_bp on small-integer inputs (exact in fp16, tf32 and fp32 sums), M, N, K not multiples
 * of the blocks; dt: TC_FP16 or TC_FP32 inputs, fp32 output */
static void matmul_case(tc_dtype dt, int M, int N, int K, int BM, int BN, int BK) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    tc_kernel *k = KT_KERNEL(ctx, m, "matmul_bp");
    kt_seed((uint32_t)(M * 131 + N * 7 + K));
    float *a = malloc(sizeof(float) * (size_t)(M * K)), *b = malloc(sizeof(float) * (size_t)(K * N));
    uint16_t *ah = malloc(2 * (size_t)(M * K)), *bh = malloc(2 * (size_t)(K * N));
    for (int i = 0; i < M * K; i++) { a[i] = (float)kt_irand(-3, 3); ah[i] = kt_f16(a[i]); }
    for (int i = 0; i < K * N; i++) { b[i] = (float)kt_irand(-3, 3); bh[i] = kt_f16(b[i]); }
    bool h = dt == TC_FP16;
    /* b is stored transposed (N x K): its block pointer takes strides (1, K) */
    float *bt = malloc(sizeof(float) * (size_t)(K * N));
    uint16_t *bth = malloc(2 * (size_t)(K * N));
    for (int r = 0; r < K; r++)
        for (int c = 0; c < N; c++) { bt[c * K + r] = b[r * N + c]; bth[c * K + r] = bh[r * N + c]; }
    tc_tensor *at = kt_t2(ctx, dt, M, K, h ? (void *)ah : (void *)a);
    tc_tensor *btt = kt_t2(ctx, dt, N, K, h ? (void *)bth : (void *)bt);
    tc_tensor *ct = kt_t2(ctx, TC_FP32, M, N, NULL);
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = (uint32_t)((M + BM - 1) / BM);
    o.grid[1] = (uint32_t)((N + BN - 1) / BN);
    o.grid[2] = 1;
    o.check = 1;
    CHECK_INT(TC_OK, kt_launch_opts(ctx, k, &o,
                                    KT_ARGS({"a_ptr", tc_tens(at)}, {"b_ptr", tc_tens(btt)}, {"c_ptr", tc_tens(ct)},
                                            {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)},
                                            {"stride_am", tc_int(K)}, {"stride_ak", tc_int(1)},
                                            {"stride_bk", tc_int(1)}, {"stride_bn", tc_int(K)},
                                            {"stride_cm", tc_int(N)}, {"stride_cn", tc_int(1)},
                                            {"BM", tc_int(BM)}, {"BN", tc_int(BN)}, {"BK", tc_int(BK)})));
    if (tc_errmsg(ctx)[0]) printf("%s\n", tc_errmsg(ctx));
    float *c = malloc(sizeof(float) * (size_t)(M * N));
    kt_get(ct, c);
    double *want = malloc(sizeof(double) * (size_t)(M * N)), *got = malloc(sizeof(double) * (size_t)(M * N));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int q = 0; q < K; q++) s += (double)a[i * K + q] * b[q * N + j];
            want[i * N + j] = s;
            got[i * N + j] = c[i * N + j];
        }
    KT_CHECK_ARR(want, got, M * N, 0, 0);
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_INT(0, r.check_findings);
    free(a); free(b); free(ah); free(bh); free(bt); free(bth); free(c); free(want); free(got);
    tc_tensor_free(at);
    tc_tensor_free(btt);
    tc_tensor_free(ct);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(blockptr_matmul_fp16_and_fp32) {
    matmul_case(TC_FP16, 37, 45, 53, 32, 32, 16);
    matmul_case(TC_FP32, 37, 45, 53, 32, 32, 16);
    matmul_case(TC_FP16, 16, 70, 40, 16, 64, 32);   /* K: one full block and a partial one */
}

TEST(blockptr_1d_loop_and_if) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    /* 1-D: 100 ints summed in blocks of 16 (the last one partial) */
    tc_kernel *k = KT_KERNEL(ctx, m, "vec_sum");
    int32_t v[100], sum = 0, out = 0;
    for (int i = 0; i < 100; i++) { v[i] = (i * 7) % 23 - 11; sum += v[i]; }
    tc_tensor *vt = kt_t1(ctx, TC_I32, 100, v), *ot = kt_t1(ctx, TC_I32, 1, NULL);
    CHECK(KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(vt)}, {"out_ptr", tc_tens(ot)}, {"N", tc_int(100)},
                 {"BLOCK", tc_int(16)}));
    kt_get(ot, &out);
    CHECK_INT(sum, out);
    tc_tensor_free(vt);
    tc_tensor_free(ot);
    /* through a run-time if: program p copies row p (even p), row p + 1 (odd p), row 0 (odd
     * p at the end) of a 5x6 matrix, in 1x8 tiles */
    k = KT_KERNEL(ctx, m, "pick_row");
    float x[30], y[30];
    for (int i = 0; i < 30; i++) x[i] = (float)i;
    tc_tensor *xt = kt_t2(ctx, TC_FP32, 5, 6, x), *yt = kt_t2(ctx, TC_FP32, 5, 6, NULL);
    CHECK(KT_RUN(ctx, k, 5, 1, 1, {"x_ptr", tc_tens(xt)}, {"out_ptr", tc_tens(yt)}, {"M", tc_int(5)},
                 {"N", tc_int(6)}, {"BN", tc_int(8)}));
    kt_get(yt, y);
    int bad = 0;
    for (int p = 0; p < 5; p++) {
        int src = p % 2 == 0 ? p : p + 1 < 5 ? p + 1 : 0;
        for (int j = 0; j < 6; j++) bad += y[p * 6 + j] != x[src * 6 + j];
    }
    CHECK_INT(0, bad);
    tc_tensor_free(xt);
    tc_tensor_free(yt);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(blockptr_while_call_and_conditional_expression) {
    /* walk_diag: n loads along the diagonal of a 4x4 matrix through a @jit function in a
     * while loop, then x plus the tile at (n, n) (n > 2) or at (0, 0) */
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    tc_kernel *k = KT_KERNEL(ctx, m, "walk_diag");
    int32_t x[16];
    for (int i = 0; i < 16; i++) x[i] = i * i % 13 + 1;
    for (int n = 1; n <= 4; n++) {
        tc_tensor *xt = kt_t2(ctx, TC_I32, 4, 4, x), *ot = kt_t2(ctx, TC_I32, 4, 4, NULL);
        CHECK(KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(xt)}, {"out_ptr", tc_tens(ot)}, {"n", tc_int(n)}));
        int32_t o[16];
        kt_get(ot, o);
        int bad = 0, c = n > 2 ? n : 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                int a = i + n - 1 < 4 && j + n - 1 < 4 ? x[(i + n - 1) * 4 + j + n - 1] : 0;
                int b = i + c < 4 && j + c < 4 ? x[(i + c) * 4 + j + c] : 0;
                bad += o[i * 4 + j] != a + b;
            }
        CHECK_INT(0, bad);
        tc_tensor_free(xt);
        tc_tensor_free(ot);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(blockptr_3d_and_constexpr_shapes) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    /* x stored as [B, N, M]; read through strides (M*N, 1, M) as [B, M, N]; blocks 2x4x4 */
    enum { B = 3, M = 5, N = 6 };
    tc_kernel *k = KT_KERNEL(ctx, m, "transpose3d");
    float x[B * N * M], y[B * M * N];
    for (int i = 0; i < B * N * M; i++) x[i] = (float)(i % 29);
    int64_t xs[3] = {B, N, M}, ys[3] = {B, M, N};
    tc_tensor *xt = kt_tensor(ctx, TC_FP32, 3, xs, x), *yt = kt_tensor(ctx, TC_FP32, 3, ys, NULL);
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2; o.grid[1] = 2; o.grid[2] = 2;
    o.check = 1;
    CHECK_INT(TC_OK, kt_launch_opts(ctx, k, &o,
                                    KT_ARGS({"x_ptr", tc_tens(xt)}, {"y_ptr", tc_tens(yt)}, {"B", tc_int(B)},
                                            {"M", tc_int(M)}, {"N", tc_int(N)}, {"sxb", tc_int(M * N)},
                                            {"sxm", tc_int(1)}, {"sxn", tc_int(M)}, {"BB", tc_int(2)},
                                            {"BM", tc_int(4)}, {"BN", tc_int(4)})));
    kt_get(yt, y);
    int bad = 0;
    for (int b = 0; b < B; b++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) bad += y[(b * M + i) * N + j] != 2 * x[(b * N + j) * M + i];
    CHECK_INT(0, bad);
    tc_tensor_free(xt);
    tc_tensor_free(yt);
    /* constexpr shapes and strides: a 6x10 matrix transposed through 4x8 tiles */
    k = KT_KERNEL(ctx, m, "const_shape_copy");
    float a[60], at[60 + 1];
    for (int i = 0; i < 60; i++) a[i] = (float)(i + 1);
    tc_tensor *a_t = kt_t1(ctx, TC_FP32, 60, a), *b_t = kt_t1(ctx, TC_FP32, 61, NULL);
    o.grid[2] = 1;
    CHECK_INT(TC_OK, kt_launch_opts(ctx, k, &o,
                                    KT_ARGS({"x_ptr", tc_tens(a_t)}, {"y_ptr", tc_tens(b_t)}, {"BM", tc_int(4)},
                                            {"BN", tc_int(8)})));
    kt_get(b_t, at);
    bad = at[60] != 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 10; j++) bad += at[j * 6 + i] != a[i * 10 + j];
    CHECK_INT(0, bad);
    tc_tensor_free(a_t);
    tc_tensor_free(b_t);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(blockptr_64bit_indices) {
    /* a row stride of 2^31 (constexpr) and 2^33 columns (an i64 argument): the block's row 0
     * at column 2 is x[2..5], row 1 is out of bounds (read as zero) */
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    tc_kernel *k = KT_KERNEL(ctx, m, "wide_index");
    int32_t x[8] = {10, 11, 12, 13, 14, 15, 16, 17}, o[8];
    tc_tensor *xt = kt_t1(ctx, TC_I32, 8, x), *ot = kt_t1(ctx, TC_I32, 8, NULL);
    tc_launch_opts lo = tc_launch_defaults();
    lo.check = 1;
    CHECK_INT(TC_OK, kt_launch_opts(ctx, k, &lo,
                                    KT_ARGS({"x_ptr", tc_tens(xt)}, {"out_ptr", tc_tens(ot)},
                                            {"cols", tc_int((int64_t)1 << 33)}, {"BIG", tc_int((int64_t)1 << 31)})));
    kt_get(ot, o);
    int64_t want[8] = {12, 13, 14, 15, 0, 0, 0, 0}, got[8];
    KT_WIDEN(got, o, 8);
    KT_CHECK_IARR(want, got, 8);
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_CONTAINS(r.specialization, "i64");
    tc_tensor_free(xt);
    tc_tensor_free(ot);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(blockptr_errors) {
    static const struct { const char *kernel, *where, *msg; } cases[] = {
        {"bad_mask", "blockptr.py:142:9:", "`mask` and `other` arguments cannot be specified for loading block pointers"},
        {"bad_check_dim", "blockptr.py:148:9:", "boundary_check: dimension 2 is not a dimension of the block pointer (rank 2"},
        {"bad_block_shape", "blockptr.py:153:10:", "Shape element 1 must be a power of 2"},
        {"bad_rank", "blockptr.py:158:10:", "Expected shape/strides/offsets/block_shape to have the same length"},
        {"bad_advance", "blockptr.py:164:10:", "advance(): 1 offsets given for a block pointer of rank 2"},
        {"bad_nan_int", "blockptr.py:170:9:", "Padding option `nan` is not supported for integer block pointers"},
        {"bad_store_dtype", "blockptr.py:176:5:", "Block element type(int32) and value element type(fp32) mismatch"},
        {"bad_store_shape", "blockptr.py:182:5:", "Block shape((4, 4)) and value shape((2, 4)) mismatch"},
        {"bad_order", "blockptr.py:187:10:", "Expected a permutation of (0, 1, ..., len(order)-1) in order"},
        {"bad_loop_carry", "blockptr.py:193:5:", "Loop-carried variable bp has initial type pointer<<[4, 4], int32>>"},
        {"bad_sum", "blockptr.py:200:9:", "a block pointer is not a tensor of values here; tl.load(bp) reads its block"},
        {"bad_atomic", "blockptr.py:206:5:", "atomics do not take a block pointer"},
    };
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, BFILE);
    tc_tensor *xt = kt_t1(ctx, TC_I32, 16, NULL);
    for (int i = 0; i < COUNT_OF_CASES(cases); i++) {
        tc_kernel *k = KT_KERNEL(ctx, m, cases[i].kernel);
        tc_status s = tc_kernel_param_count(k) > 1
                          ? kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(xt)}, {"n", tc_int(3)}))
                          : kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(xt)}));
        CHECK_INT(TC_ERR_COMPILE, s);
        CHECK_CONTAINS(tc_errmsg(ctx), cases[i].where);
        CHECK_CONTAINS(tc_errmsg(ctx), cases[i].msg);
    }
    tc_tensor_free(xt);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- the GPU backend (no GPU needed): PTX for sm_80 and sm_90a, ptxas -------------------- */

/* tritonc compile of kernel with signature sig for target; the PTX (or messages) in out */
static int compile_bp(const char *target, const char *kernel, const char *sig, const char *emit,
                      char *out, size_t n) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "TRITONC_CACHE_DIR=%s/blockptr-cache ./%s/tritonc compile tests/kernels/%s %s --target %s "
             "--num-warps 4 --num-stages 3 %s %s",
             test_build_dir(), test_build_dir(), BFILE, kernel, target, emit, sig);
    return test_run(cmd, out, n);
}

static const char *const matmul_sig =
    "a_ptr='*fp16:16' b_ptr='*fp16:16' c_ptr='*fp32:16' M=i32:16 N=i32:16 K=i32:16 "
    "stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 stride_cn=1 "
    "BM=128 BN=128 BK=32";

TEST(blockptr_matmul_tensor_cores_pipelined) {
    static char out[1 << 20];
    /* sm_80: mma.sync fed by ldmatrix, the operands' loads pipelined with cp.async (3 stages:
     * one group in flight while the next iteration computes) */
    CHECK_INT(0, compile_bp("cuda:80", "matmul_bp", matmul_sig, "", out, sizeof out));
    CHECK_CONTAINS(out, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    CHECK_CONTAINS(out, "ldmatrix.sync.aligned");
    CHECK_CONTAINS(out, "cp.async.cg.shared.global");
    CHECK_CONTAINS(out, "cp.async.wait_group 1;");
    CHECK(strstr(out, "fma.rn.f32") == NULL);
    /* sm_90a: wgmma from the same cp.async ring */
    CHECK_INT(0, compile_bp("cuda:90a", "matmul_bp", matmul_sig, "", out, sizeof out));
    CHECK_CONTAINS(out, "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16");
    CHECK_CONTAINS(out, "cp.async.cg.shared.global");
    CHECK_CONTAINS(out, "cp.async.wait_group");
    CHECK(strstr(out, "mma.sync") == NULL);
}

TEST(blockptr_gpu_lowering_assembles) {
    static const struct { const char *kernel, *sig; } ks[] = {
        {"copy2d", "x_ptr='*fp32:16' y_ptr='*fp32:16' M=i32 N=i32 stride_xm=i32 stride_ym=i32 BM=32 BN=64 CHECK=2"},
        {"copy2d", "x_ptr='*fp16:16' y_ptr='*fp16:16' M=i32:16 N=i32:16 stride_xm=i32:16 stride_ym=i32:16 BM=64 BN=64 CHECK=0"},
        {"copy2d", "x_ptr='*fp32:16' y_ptr='*fp32:16' M=i32 N=i32 stride_xm=i32 stride_ym=i32 BM=16 BN=16 CHECK=1"},
        {"pad_tile", "x_ptr='*fp16:16' out_ptr='*fp16:16' M=i32 N=i32 BM=16 BN=16 PAD=2"},
        {"pad_tile", "x_ptr='*fp32:16' out_ptr='*fp32:16' M=i32 N=i32 BM=4 BN=4 PAD=1"},
        {"matmul_bp", "a_ptr='*fp32:16' b_ptr='*fp32:16' c_ptr='*fp32:16' M=i32 N=i32 K=i32 stride_am=i32 "
                      "stride_ak=1 stride_bk=1 stride_bn=i32 stride_cm=i32 stride_cn=1 BM=64 BN=64 BK=32"},
        {"matmul_bp", "a_ptr='*fp16:16' b_ptr='*fp16:16' c_ptr='*fp32:16' M=i32 N=i32 K=i32 stride_am=i32 "
                      "stride_ak=1 stride_bk=1 stride_bn=i32 stride_cm=i32 stride_cn=1 BM=32 BN=32 BK=16"},
        {"vec_sum", "x_ptr='*i32:16' out_ptr='*i32:16' N=i32 BLOCK=256"},
        {"pick_row", "x_ptr='*fp32:16' out_ptr='*fp32:16' M=i32 N=i32 BN=128"},
        {"transpose3d", "x_ptr='*fp32:16' y_ptr='*fp32:16' B=i32 M=i32 N=i32 sxb=i32 sxm=1 sxn=i32 BB=2 BM=16 BN=32"},
        {"const_shape_copy", "x_ptr='*fp32:16' y_ptr='*fp32:16' BM=4 BN=8"},
        {"walk_diag", "x_ptr='*i32:16' out_ptr='*i32:16' n=i32"},
        {"wide_index", "x_ptr='*i32:16' out_ptr='*i32:16' cols=i64 BIG=2147483648"},
    };
    char px[4096];
    bool ptxas = tc_ptxas_path(px, sizeof px) == TC_OK;   /* honours TRITONC_PTXAS, as the CLI does */
    static char out[1 << 20];
    const char *targets[] = {"cuda:80", "cuda:90a"};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < COUNT_OF_CASES(ks); i++) {
            char emit[512] = "";
            if (ptxas)
                snprintf(emit, sizeof emit, "--emit cubin -o %s/blockptr-test.cubin", test_build_dir());
            int rc = compile_bp(targets[t], ks[i].kernel, ks[i].sig, emit, out, sizeof out);
            if (rc) printf("%s %s: %s\n", targets[t], ks[i].kernel, out);
            CHECK_INT(0, rc);
        }
}
