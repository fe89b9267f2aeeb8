/* test_kern.c — issue 15's items 4, 5, 7 and 9 (part): the interpreter's pairwise float
 * tl.sum, jit options and debug mode, the math library, time limits and progress. */
#include "test_kernels_util.h"

#define KT_SETUP(file, name) \
    tc_context *ctx = kt_ctx(); \
    tc_module *m = KT_MODULE(ctx, file); \
    tc_kernel *k = KT_KERNEL(ctx, m, name)
#define KT_TEARDOWN() do { tc_module_free(m); tc_context_free(ctx); } while (0)

/* A 32768-wide fp32 row whose exact sum is known: every value is k * 2^-24 with k < 2^24,
 * so the sum in double is exact. A sequential fp32 sum is ~1e-5 off (relative); a pairwise
 * one stays within a few ulps. */
TEST(kern_sum_pairwise_fp32) {
    KT_SETUP("kern.py", "row_mean");
    enum { N = 32768 };
    static float x[N];
    double exact = 0;
    kt_seed(1515);
    for (int i = 0; i < N; i++) {
        x[i] = (float)((double)kt_rand() / 16777216.0);
        exact += x[i];
    }
    exact /= N;
    float o = 0;
    tc_tensor *tx = kt_t1(ctx, TC_FP32, N, x), *to = kt_t1(ctx, TC_FP32, 1, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"N", tc_int(N)})) {
        kt_get(to, &o);
        CHECK_NEAR(exact, o, 2e-7, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}
