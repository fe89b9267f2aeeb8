/* test_kernels_dot.c — tl.dot as the matmul tutorial uses it (tests/kernels/dot_mma.py),
 * swept over the shapes, dtypes, operand orders, edges, num_warps and num_stages that the
 * GPU's tensor-core paths handle differently. On the interpreter each result is checked
 * against a plain C loop; under scripts/gpu-check.sh every launch is repeated on the GPU and
 * compared with the interpreter. Inputs are small integers, so every product and partial
 * sum is exact in each dtype and the results are exact whatever the summation order. */
#include "test_kernels_util.h"

typedef struct DotCase {
    tc_dtype dt;              /* operand dtype: the result is fp32 (int32 for int8) */
    int M, N, K, BM, BN, BK;
    int ta, tb;               /* operand stored transposed */
    int warps, stages;
} DotCase;

static const DotCase dot_cases[] = {
    {TC_FP16, 64, 64, 32, 64, 64, 32, 0, 0, 4, 1},
    {TC_FP16, 128, 128, 128, 128, 128, 32, 0, 0, 4, 3},
    {TC_FP16, 128, 256, 64, 128, 256, 64, 0, 0, 8, 3},
    {TC_FP16, 100, 90, 70, 64, 32, 32, 0, 0, 4, 2},
    {TC_FP16, 16, 8, 16, 16, 8, 16, 0, 0, 4, 1},
    {TC_FP16, 16, 16, 16, 16, 16, 16, 0, 0, 1, 1},
    {TC_FP16, 32, 64, 128, 32, 64, 128, 0, 0, 2, 4},
    {TC_FP16, 256, 64, 64, 256, 64, 16, 0, 0, 8, 4},
    {TC_FP16, 64, 64, 64, 64, 64, 32, 1, 0, 4, 3},
    {TC_FP16, 64, 64, 64, 64, 64, 32, 0, 1, 4, 3},
    {TC_FP16, 64, 128, 96, 64, 128, 32, 1, 1, 8, 2},
    {TC_BF16, 128, 128, 64, 128, 128, 64, 0, 0, 4, 3},
    {TC_BF16, 70, 40, 48, 64, 32, 16, 1, 0, 4, 1},
    {TC_FP32, 64, 64, 32, 64, 64, 16, 0, 0, 4, 3},
    {TC_FP32, 50, 70, 40, 32, 64, 16, 0, 1, 4, 2},
    {TC_FP32, 128, 64, 64, 128, 64, 32, 1, 0, 8, 1},
    {TC_I8, 64, 64, 64, 64, 64, 32, 0, 0, 4, 3},
    {TC_I8, 128, 128, 128, 128, 128, 64, 0, 0, 8, 2},
    {TC_I8, 40, 24, 96, 32, 32, 32, 0, 1, 4, 1},
};

/* element (i, j) of an R x C matrix stored row-major, or transposed (C x R row-major) */
static long at_(int i, int j, int R, int C, int t) { return t ? (long)j * R + i : (long)i * C + j; }

static void run_dot_case(tc_context *ctx, tc_kernel *k, const DotCase *c) {
    int M = c->M, N = c->N, K = c->K;
    int i8 = c->dt == TC_I8;
    int esz = c->dt == TC_FP32 ? 4 : i8 ? 1 : 2;
    unsigned char *a = malloc((size_t)M * K * esz), *b = malloc((size_t)K * N * esz);
    int *ia = malloc(sizeof(int) * (size_t)M * K), *ib = malloc(sizeof(int) * (size_t)K * N);
    double *e = malloc(sizeof(double) * (size_t)M * N), *got = malloc(sizeof(double) * (size_t)M * N);
    void *o = malloc((size_t)M * N * 4);
    for (int p = 0; p < 2; p++) {
        int R = p ? K : M, C = p ? N : K, t = p ? c->tb : c->ta;
        int *iv = p ? ib : ia;
        unsigned char *dst = p ? b : a;
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) {
                int x = i8 ? kt_irand(-8, 8) : kt_irand(-3, 3);
                iv[(long)i * C + j] = x;
                long q = at_(i, j, R, C, t);
                if (c->dt == TC_FP16) { uint16_t h = kt_f16(x); memcpy(dst + 2 * q, &h, 2); }
                else if (c->dt == TC_BF16) { uint16_t h = kt_bf16(x); memcpy(dst + 2 * q, &h, 2); }
                else if (c->dt == TC_FP32) { float f = (float)x; memcpy(dst + 4 * q, &f, 4); }
                else { int8_t s = (int8_t)x; memcpy(dst + q, &s, 1); }
            }
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long s = 0;
            for (int kk = 0; kk < K; kk++) s += (long)ia[(long)i * K + kk] * ib[(long)kk * N + j];
            e[(long)i * N + j] = (double)s;
        }
    tc_tensor *tA = c->ta ? kt_t2(ctx, c->dt, K, M, a) : kt_t2(ctx, c->dt, M, K, a);
    tc_tensor *tB = c->tb ? kt_t2(ctx, c->dt, N, K, b) : kt_t2(ctx, c->dt, K, N, b);
    tc_tensor *tC = kt_t2(ctx, i8 ? TC_I32 : TC_FP32, M, N, NULL);
    tc_launch_opts op = tc_launch_defaults();
    op.grid[0] = (uint32_t)((M + c->BM - 1) / c->BM);
    op.grid[1] = (uint32_t)((N + c->BN - 1) / c->BN);
    op.num_warps = c->warps;
    op.num_stages = c->stages;
    tc_status s = kt_launch_opts(ctx, k, &op, KT_ARGS(
        {"a_ptr", tc_tens(tA)}, {"b_ptr", tc_tens(tB)}, {"c_ptr", tc_tens(tC)},
        {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)},
        {"stride_am", tc_int(c->ta ? 1 : K)}, {"stride_ak", tc_int(c->ta ? M : 1)},
        {"stride_bk", tc_int(c->tb ? 1 : N)}, {"stride_bn", tc_int(c->tb ? K : 1)},
        {"stride_cm", tc_int(N)}, {"stride_cn", tc_int(1)},
        {"BM", tc_int(c->BM)}, {"BN", tc_int(c->BN)}, {"BK", tc_int(c->BK)},
        {"STAGES", tc_int(c->stages)}));
    char what[160];
    snprintf(what, sizeof what, "dot %s %dx%dx%d tiles %dx%dx%d ta=%d tb=%d warps=%d stages=%d",
             tc_dtype_name(c->dt), M, N, K, c->BM, c->BN, c->BK, c->ta, c->tb, c->warps, c->stages);
    if (kt_ok_(ctx, s, what, __FILE__, __LINE__)) {
        kt_get(tC, o);
        for (long i = 0; i < (long)M * N; i++)
            got[i] = i8 ? (double)((int32_t *)o)[i] : (double)((float *)o)[i];
        kt_check_f64_(what, e, got, (long)M * N, 0, 0, __FILE__, __LINE__);
    }
    tc_tensor_free(tA); tc_tensor_free(tB); tc_tensor_free(tC);
    free(a); free(b); free(ia); free(ib); free(e); free(got); free(o);
}

TEST(kern_dot_tiles_sweep) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_mma.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_tile_kernel");
    kt_seed(1103);
    for (int i = 0; k && i < COUNT_OF_CASES(dot_cases); i++) run_dot_case(ctx, k, &dot_cases[i]);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* Runs dot_mma.py's `kernel` on 100x72 tiles of 64x64 (BK 32) over small integers in fp16,
 * against expect(s) for each exact integer sum s of products: values stay exact in fp16 */
static void run_small_int_dot(const char *kernel, int K, uint32_t seed, double (*expect)(long s)) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_mma.py");
    tc_kernel *k = KT_KERNEL(ctx, m, kernel);
    enum { M = 100, N = 72, KMAX = 96, BM = 64, BN = 64, BK = 32 };
    static uint16_t a[M * KMAX], b[KMAX * N], o[M * N];
    static double e[M * N], g[M * N];
    static int ia[M * KMAX], ib[KMAX * N];
    kt_seed(seed);
    for (int i = 0; i < M * K; i++) { ia[i] = kt_irand(-2, 2); a[i] = kt_f16(ia[i]); }
    for (int i = 0; i < K * N; i++) { ib[i] = kt_irand(-2, 2); b[i] = kt_f16(ib[i]); }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long s = 0;
            for (int kk = 0; kk < K; kk++) s += (long)ia[i * K + kk] * ib[kk * N + j];
            e[i * N + j] = expect(s);
        }
    tc_tensor *ta = kt_t2(ctx, TC_FP16, M, K, a), *tb = kt_t2(ctx, TC_FP16, K, N, b),
              *to = kt_t2(ctx, TC_FP16, M, N, NULL);
    if (k && KT_RUN(ctx, k, (M + BM - 1) / BM, (N + BN - 1) / BN, 1, {"a_ptr", tc_tens(ta)},
                    {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(to)}, {"M", tc_int(M)}, {"N", tc_int(N)},
                    {"K", tc_int(K)}, {"BM", tc_int(BM)}, {"BN", tc_int(BN)}, {"BK", tc_int(BK)})) {
        kt_get(to, o);
        for (int i = 0; i < M * N; i++) g[i] = kt_h2d(o[i]);
        KT_CHECK_ARR(e, g, M * N, 0, 0);
    }
    tc_tensor_free(ta); tc_tensor_free(tb); tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* 0.01 * s in fp32, then rounded to fp16 */
static double leaky_relu(long s) { return s >= 0 ? (double)s : kt_round_f16((double)(0.01f * (float)s)); }
static double doubled(long s) { return 2.0 * (double)s; }

/* acc += dot, leaky_relu, fp16 output with ragged edges */
TEST(kern_dot_epilogue_leaky_relu) { run_small_int_dot("dot_epilogue_kernel", 64, 77, leaky_relu); }

/* A doubled in registers before the dot (on a GPU: staged through shared memory each
 * iteration while B streams through the pipeline), ragged edges */
TEST(kern_dot_staged_a) { run_small_int_dot("dot_staged_a_kernel", 96, 78, doubled); }
