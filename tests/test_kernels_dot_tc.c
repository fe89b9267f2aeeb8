/* test_kernels_dot_tc.c — tl.dot in the shapes and fp32 precisions that the GPU runs on
 * tensor cores by padding or splitting (test_mma_prec.c asserts that path in the PTX):
 * M and N from 1 with K from 16 (32 for 8-bit operands), and fp32 under input_precision
 * tf32 / tf32x3 / bf16x3 / bf16x6 / ieee. Checked here on the interpreter against C
 * references (exact small integers; fp64 with an error bound per precision), and under
 * scripts/gpu-dot-check.sh (or gpu-dot-prec.sh) every launch is repeated on the GPU and
 * compared with the interpreter's result (fp32 within rtol 1e-5: the inputs are positive, so
 * no sum cancels and the bounds are relative). */
#include "test_kernels_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test_kept.h"

/* a fp32 tensor, n elements, each (1 + m / 2^23) * 2^e with every mantissa bit random and
 * e in -2..2: bits below tf32's 10 and bf16's 7 are set, so each precision shows */
static void rand_pos(float *x, long n) {
    for (long i = 0; i < n; i++) {
        uint32_t u = (uint32_t)(127 + kt_irand(-2, 2)) << 23 | (kt_rand() & 0x7fffff);
        memcpy(&x[i], &u, 4);
    }
}

static const char *const precs[] = {"ieee", "tf32", "tf32x3", "bf16x3", "bf16x6"};

/* relative error bound of one product under precision p (positive operands): tf32 rounds
 * each operand to 11 significant bits (2^-11 each); tf32x3 drops small x small and rounds
 * the small parts (about 3 * 2^-22); bf16x3 drops mid x mid and the lo terms (3 * 2^-16);
 * bf16x6 drops the terms below lo (about 5 * 2^-24) */
static double prec_bound(int p) {
    static const double b[] = {0, 0x1p-10 + 0x1p-22, 0x1p-20, 0x1p-14, 0x1p-20};
    return b[p];
}

/* worst relative error of got against the fp64 reference of a @ b + c (M x K, K x N, all
 * positive, row-major); -1 when an element is off by more than bound + (K + 16) fp32
 * roundings of the sums. inf where the reference is inf must match. */
static double worst_rel(const float *a, const float *b, const float *c, const float *got, int M, int N, int K,
                        double bound, long *bad_at) {
    double worst = 0;
    *bad_at = -1;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double s = c[m * N + n];
            for (int k = 0; k < K; k++) s += (double)a[m * K + k] * b[k * N + n];
            double gv = got[m * N + n];
            if (isinf(s)) {
                if (gv != s && *bad_at < 0) *bad_at = (long)m * N + n;
                continue;
            }
            double rel = fabs(gv - s) / s;
            if (!(rel <= bound + (K + 16) * 0x1p-24) && *bad_at < 0) *bad_at = (long)m * N + n;
            if (rel > worst) worst = rel;
        }
    return worst;
}

/* One block of every small shape, each operand dtype, exact: small integers whose products
 * and sums every dtype holds (tf32 for fp32 by default). */
TEST(kern_dot_small_shapes) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_prec.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_prec_kernel");
    static const tc_dtype dts[] = {TC_FP16, TC_BF16, TC_FP32, TC_I8, TC_FP8E5};
    static const int sizes[] = {1, 2, 8, 16};
    kt_seed(2011);
    for (int di = 0; k && di < COUNT_OF_CASES(dts); di++) {
        tc_dtype dt = dts[di];
        bool b8 = dt == TC_I8 || dt == TC_FP8E5;
        for (int mi = 0; mi < 4; mi++)
            for (int ni = 0; ni < 4; ni++)
                for (int K = b8 ? 32 : 16; K <= 64; K *= 4) {
                    int M = sizes[mi], N = sizes[ni];
                    static unsigned char a[16 * 64 * 4], b[64 * 16 * 4], c[16 * 16 * 4];
                    static int ia[16 * 64], ib[64 * 16], ic[16 * 16];
                    static double want[256], got[256];
                    for (int p = 0; p < 3; p++) {
                        int n = p == 0 ? M * K : p == 1 ? K * N : M * N;
                        int *iv = p == 0 ? ia : p == 1 ? ib : ic;
                        unsigned char *dst = p == 0 ? a : p == 1 ? b : c;
                        for (int i = 0; i < n; i++) {
                            int x = dt == TC_I8 ? kt_irand(-8, 8) : kt_irand(-3, 3);
                            iv[i] = x;
                            if (p == 2) {   /* the accumulator: int32 or fp32 */
                                if (dt == TC_I8) memcpy(c + 4 * i, &x, 4);
                                else { float f = (float)x; memcpy(c + 4 * i, &f, 4); }
                            } else if (dt == TC_FP16 || dt == TC_FP8E5) {
                                uint16_t h = kt_f16(x);   /* e5m2: the high byte of fp16 */
                                if (dt == TC_FP16) memcpy(dst + 2 * i, &h, 2);
                                else dst[i] = (unsigned char)(h >> 8);
                            } else if (dt == TC_BF16) {
                                uint16_t h = kt_bf16(x);
                                memcpy(dst + 2 * i, &h, 2);
                            } else if (dt == TC_FP32) {
                                float f = (float)x;
                                memcpy(dst + 4 * i, &f, 4);
                            } else {
                                dst[i] = (unsigned char)(int8_t)x;
                            }
                        }
                    }
                    for (int i = 0; i < M; i++)
                        for (int j = 0; j < N; j++) {
                            long s = ic[i * N + j];
                            for (int q = 0; q < K; q++) s += (long)ia[i * K + q] * ib[q * N + j];
                            want[i * N + j] = (double)s;
                        }
                    tc_dtype ct = dt == TC_I8 ? TC_I32 : TC_FP32;
                    tc_tensor *ta = kt_t2(ctx, dt, M, K, a), *tb = kt_t2(ctx, dt, K, N, b),
                              *tc = kt_t2(ctx, ct, M, N, c);
                    char what[96];
                    snprintf(what, sizeof what, "dot %s %dx%dx%d", tc_dtype_name(dt), M, N, K);
                    tc_status s = kt_launch(ctx, k, 1, 1, 1,
                                            KT_ARGS({"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
                                                    {"c_ptr", tc_tens(tc)}, {"M", tc_int(M)}, {"N", tc_int(N)},
                                                    {"K", tc_int(K)}, {"PREC", tc_str("default")}));
                    if (!kt_ok_(ctx, s, what, __FILE__, __LINE__)) continue;
                    int32_t o[256];
                    kt_get(tc, o);
                    for (int i = 0; i < M * N; i++) {
                        float f;
                        memcpy(&f, &o[i], 4);
                        got[i] = dt == TC_I8 ? (double)o[i] : (double)f;
                    }
                    kt_check_f64_(what, want, got, M * N, 0, 0, __FILE__, __LINE__);
                }
    }
    free_all(ctx);
}

/* fp32 under each input_precision, single blocks from 1x1 up, against fp64: each within its
 * bound, and tf32 and bf16x3 measurably worse than the fp32-class ones (so a run that
 * ignored the precision shows). One case has an infinite input: the split products' NaNs
 * (inf - inf) are zeroed and the result is inf. */
TEST(kern_dot_f32_precisions) {
    static const int shapes[][3] = {{1, 1, 16}, {2, 8, 32}, {8, 2, 64}, {16, 16, 16}, {16, 1, 64}, {32, 64, 32}};
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_prec.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_prec_kernel");
    double worst[5] = {0};
    kt_seed(2012);
    for (int si = 0; k && si < COUNT_OF_CASES(shapes); si++)
        for (int p = 0; p < 5; p++) {
            int M = shapes[si][0], N = shapes[si][1], K = shapes[si][2];
            static float a[32 * 64], b[64 * 64], c[32 * 64], got[32 * 64];
            rand_pos(a, (long)M * K);
            rand_pos(b, (long)K * N);
            rand_pos(c, (long)M * N);
            if (si == 3) a[5] = INFINITY;
            tc_tensor *ta = kt_t2(ctx, TC_FP32, M, K, a), *tb = kt_t2(ctx, TC_FP32, K, N, b),
                      *tc = kt_t2(ctx, TC_FP32, M, N, c);
            char what[96];
            snprintf(what, sizeof what, "dot fp32 %s %dx%dx%d", precs[p], M, N, K);
            tc_status s = kt_launch(ctx, k, 1, 1, 1,
                                    KT_ARGS({"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(tc)},
                                            {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)},
                                            {"PREC", tc_str(precs[p])}));
            if (!kt_ok_(ctx, s, what, __FILE__, __LINE__)) continue;
            kt_get(tc, got);
            long bad;
            double w = worst_rel(a, b, c, got, M, N, K, prec_bound(p), &bad);
            if (bad >= 0) test_fail(__FILE__, __LINE__, "%s: element %ld is %.9g, off by more than %g", what, bad,
                                    got[bad], prec_bound(p));
            else test_passed++;
            if (w > worst[p]) worst[p] = w;
        }
    /* the fp32-class precisions stay near fp32 rounding; tf32 and bf16x3 lose what their
     * formats drop (about 2^-12 and 2^-17 per product, less after averaging in the sums) */
    for (int p = 0; p < 5; p++)
        if (p != 1 && p != 3) CHECK(worst[p] < 0x1p-18);
    CHECK(worst[1] > 0x1p-15);
    CHECK(worst[3] > 0x1p-21 && worst[3] < worst[1] / 16);
    free_all(ctx);
}

/* the matmul tutorial's K loop over masked tiles with ragged edges, num_stages 1 and 3, for
 * the split precisions: each iteration's dot is split on its own and added to the loop's
 * accumulator */
TEST(kern_dot_f32_prec_loop) {
    enum { M = 40, N = 24, K = 48, BM = 32, BN = 16, BK = 16 };
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_tc.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_prec_loop_kernel");
    static float a[M * K], b[K * N], zero[M * N], got[M * N];
    kt_seed(2013);
    for (int p = 1; k && p < 5; p++)
        for (int st = 1; st <= 3; st += 2) {
            rand_pos(a, M * K);
            rand_pos(b, K * N);
            tc_tensor *ta = kt_t2(ctx, TC_FP32, M, K, a), *tb = kt_t2(ctx, TC_FP32, K, N, b),
                      *tc = kt_t2(ctx, TC_FP32, M, N, NULL);
            tc_launch_opts op = tc_launch_defaults();
            op.grid[0] = (M + BM - 1) / BM;
            op.grid[1] = (N + BN - 1) / BN;
            op.num_stages = st;
            char what[96];
            snprintf(what, sizeof what, "dot loop fp32 %s stages=%d", precs[p], st);
            tc_status s = kt_launch_opts(ctx, k, &op,
                                         KT_ARGS({"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
                                                 {"c_ptr", tc_tens(tc)}, {"M", tc_int(M)}, {"N", tc_int(N)},
                                                 {"K", tc_int(K)}, {"BM", tc_int(BM)}, {"BN", tc_int(BN)},
                                                 {"BK", tc_int(BK)}, {"PREC", tc_str(precs[p])},
                                                 {"STAGES", tc_int(st)}));
            if (!kt_ok_(ctx, s, what, __FILE__, __LINE__)) continue;
            kt_get(tc, got);
            long bad;
            worst_rel(a, b, zero, got, M, N, K, prec_bound(p), &bad);
            if (bad >= 0) test_fail(__FILE__, __LINE__, "%s: element %ld is %.9g, off by more than %g", what, bad,
                                    got[bad], prec_bound(p));
            else test_passed++;
        }
    free_all(ctx);
}

/* A K loop whose body also loads a row of fp32 scales that no dot reads (dot_tc.py's
 * dot_colscale_loop_kernel): the pipeliner copies it into its ring with the dot's A tiles
 * and reads it back into registers (pipe_load; the PTX: test_mma.c's
 * mma_pipe_register_load), masked element by element (N ragged: B stays unpipelined). 1 and
 * 3 stages; small integers and powers of two, so the fp64 reference is exact in fp32 too. */
TEST(kern_dot_loop_register_load) {
    enum { M = 100, N = 40, K = 48, BM = 64, BN = 32, BK = 16, KB = (K + BK - 1) / BK };
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_tc.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_colscale_loop_kernel");
    static uint16_t a[M * K], b[K * N];
    static float s[KB * N], got[M * N];
    static const float scales[] = {0.5f, 1, 2, -1, -0.25f};
    kt_seed(2014);
    for (int i = 0; i < M * K; i++) a[i] = kt_f16(kt_irand(-3, 3));
    for (int i = 0; i < K * N; i++) b[i] = kt_f16(kt_irand(-3, 3));
    for (int i = 0; i < KB * N; i++) s[i] = scales[kt_irand(0, 4)];
    for (int st = 1; k && st <= 3; st += 2) {
        tc_tensor *ta = kt_t2(ctx, TC_FP16, M, K, a), *tb = kt_t2(ctx, TC_FP16, K, N, b),
                  *ts = kt_t2(ctx, TC_FP32, KB, N, s), *tc = kt_t2(ctx, TC_FP32, M, N, NULL);
        tc_launch_opts op = tc_launch_defaults();
        op.grid[0] = (M + BM - 1) / BM;
        op.grid[1] = (N + BN - 1) / BN;
        op.num_stages = st;
        char what[64];
        snprintf(what, sizeof what, "dot loop with a scale row, stages=%d", st);
        tc_status r = kt_launch_opts(ctx, k, &op,
                                     KT_ARGS({"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"s_ptr", tc_tens(ts)},
                                             {"c_ptr", tc_tens(tc)}, {"M", tc_int(M)}, {"N", tc_int(N)},
                                             {"K", tc_int(K)}, {"BM", tc_int(BM)}, {"BN", tc_int(BN)},
                                             {"BK", tc_int(BK)}, {"STAGES", tc_int(st)}));
        if (!kt_ok_(ctx, r, what, __FILE__, __LINE__)) continue;
        kt_get(tc, got);
        long bad = -1;
        for (int i = 0; i < M && bad < 0; i++)
            for (int j = 0; j < N && bad < 0; j++) {
                double e = 0;
                for (int kb = 0; kb < KB; kb++) {
                    double part = 0;
                    for (int q = kb * BK; q < K && q < (kb + 1) * BK; q++)
                        part += kt_h2d(a[i * K + q]) * kt_h2d(b[q * N + j]);
                    e += part * s[kb * N + j];
                }
                if (got[i * N + j] != e) bad = (long)i * N + j;
            }
        if (bad >= 0) test_fail(__FILE__, __LINE__, "%s: element %ld is %g", what, bad, got[bad]);
        else test_passed++;
    }
    free_all(ctx);
}

/* A loop-invariant operand read by the dots of two loops, the first under a run-time `if`
 * (dot_tc.py's dot_two_loops_kernel): exact on the interpreter whether the first runs or
 * not (under TRITONC_GPU_UNVERIFIED=invshare the GPU keeps `a` staged for both loops only
 * where the first always runs: test_mma.c's mma_invshare_branch). */
TEST(kern_dot_two_loops_invariant) {
    enum { BM = 64, BN = 32, BK = 16, K = 64 };
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_tc.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_two_loops_kernel");
    static uint16_t a[BM * BK], b[K * BN];
    static float got[BM * BN];
    kt_seed(2015);
    for (int i = 0; i < BM * BK; i++) a[i] = kt_f16(kt_irand(-3, 3));
    for (int i = 0; i < K * BN; i++) b[i] = kt_f16(kt_irand(-3, 3));
    for (int first = 0; k && first < 2; first++) {
        tc_tensor *ta = kt_t2(ctx, TC_FP16, BM, BK, a), *tb = kt_t2(ctx, TC_FP16, K, BN, b),
                  *tc = kt_t2(ctx, TC_FP32, BM, BN, NULL);
        char what[64];
        snprintf(what, sizeof what, "two loops over one invariant operand, FIRST=%d", first);
        tc_status r = kt_launch(ctx, k, 1, 1, 1,
                                KT_ARGS({"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(tc)},
                                        {"K", tc_int(K)}, {"FIRST", tc_int(first)}, {"BM", tc_int(BM)},
                                        {"BN", tc_int(BN)}, {"BK", tc_int(BK)}, {"BOTH", tc_bool(0)}));
        if (!kt_ok_(ctx, r, what, __FILE__, __LINE__)) continue;
        kt_get(tc, got);
        long bad = -1;
        for (int i = 0; i < BM && bad < 0; i++)
            for (int j = 0; j < BN && bad < 0; j++) {
                double e = 0;
                for (int q = 0; q < K; q++) e += kt_h2d(a[i * BK + q % BK]) * kt_h2d(b[q * BN + j]);
                if (got[i * BN + j] != e * (1 + first)) bad = (long)i * BN + j;
            }
        if (bad >= 0) test_fail(__FILE__, __LINE__, "%s: element %ld is %g", what, bad, got[bad]);
        else test_passed++;
    }
    free_all(ctx);
}

struct InnerLoop { const char *body, *end; };

/* the last loop whose body holds no other label: the innermost */
static void innermost(const char *body, const char *end, void *user) {
    const char *l = strstr(body, "\n$L");
    if (!l || l > end) *(struct InnerLoop *)user = (struct InnerLoop){body, end};
}

/* The outer loop's carried accumulator read by a dot in the inner loop, its only reader
 * (dot_tc.py's dot_outer_acc_kernel): every inner iteration reads it as the outer one left
 * it. Exact on the interpreter against a C reference; and on sm_90a the inner loop's wgmma
 * accumulates into registers of its own, copied from acc in each iteration, not into acc's
 * (which only the accumulator of the loop the dot is in may be: lower_dot_wgmma). */
TEST(kern_dot_outer_loop_acc) {
    enum { BM = 64, BN = 32, BK = 16, NOUT = 3, NIN = 2 };
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_tc.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_outer_acc_kernel");
    static uint16_t a[BM * BK], b[BK * BN];
    static float got[BM * BN];
    static double p[BM * BN], acc[BM * BN], out[BM * BN];
    kt_seed(2027);
    for (int i = 0; i < BM * BK; i++) a[i] = kt_f16(kt_irand(-2, 2));
    for (int i = 0; i < BK * BN; i++) b[i] = kt_f16(kt_irand(-2, 2));
    kt_matmul_f16(a, b, p, BM, BN, BK);
    for (int i = 0; i < BM * BN; i++) acc[i] = 1, out[i] = 0;
    for (int o = 0; o < NOUT; o++) {
        for (int n = 0; n < NIN; n++)
            for (int i = 0; i < BM * BN; i++) out[i] += p[i] + acc[i];
        memcpy(acc, out, sizeof acc);
    }
    tc_tensor *ta = kt_t2(ctx, TC_FP16, BM, BK, a), *tb = kt_t2(ctx, TC_FP16, BK, BN, b),
              *tc = kt_t2(ctx, TC_FP32, BM, BN, NULL);
    tc_status r = kt_launch(ctx, k, 1, 1, 1,
                            KT_ARGS({"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(tc)},
                                    {"N_OUT", tc_int(NOUT)}, {"N_IN", tc_int(NIN)}, {"BM", tc_int(BM)},
                                    {"BN", tc_int(BN)}, {"BK", tc_int(BK)}));
    if (kt_ok_(ctx, r, "outer loop's accumulator in the inner loop", __FILE__, __LINE__)) {
        kt_get(tc, got);
        long bad = -1;
        for (long i = 0; i < BM * BN && bad < 0; i++)
            if (got[i] != out[i]) bad = i;
        if (bad >= 0) test_fail(__FILE__, __LINE__, "element %ld is %g, not %g", bad, got[bad], out[bad]);
        else test_passed++;
    }
    free_all(ctx);
    /* the PTX: the inner loop (the one whose body holds no other label) copies acc's 16
     * registers per thread into the wgmma's own */
    static char log[1 << 14];
    char cmd[1024], path[256];
    const char *B = test_build_dir();
    snprintf(path, sizeof path, "%s/dot-outer-acc.ptx", B);
    snprintf(cmd, sizeof cmd,
             "TRITONC_CACHE_DIR=%s/dot-tc-cache ./%s/tritonc compile tests/kernels/dot_tc.py dot_outer_acc_kernel "
             "--target cuda:90a --num-warps 4 -o %s a_ptr='*fp16:16' b_ptr='*fp16:16' c_ptr='*fp32:16' N_OUT=i32 "
             "N_IN=i32 BM=64 BN=32 BK=16", B, B, path);
    CHECK_INT(0, test_run(cmd, log, sizeof log));
    char *ptx = kt_read(path);
    CHECK(ptx != NULL);
    if (!ptx) return;
    struct InnerLoop in = {0};
    kt_each_loop(ptx, innermost, &in);
    const char *inner = in.body, *end = in.end;
    CHECK(inner != NULL);
    const char *w = inner ? strstr(inner, "wgmma.mma_async") : NULL;
    CHECK(w != NULL && w < end);
    int copies = 0;
    for (const char *q = inner ? strstr(inner, "mov.b32 %r") : NULL; q && q < w; q = strstr(q + 1, "mov.b32 %r"))
        copies += strncmp(strchr(q, ',') ? strchr(q, ',') : q, ", %r", 4) == 0;
    CHECK(copies >= 16);
    free(ptx);
}

/* A persistent matmul through descriptors the kernel makes (dot_tc.py's
 * made_desc_matmul_kernel, tutorial 09's pattern): ragged M, exact small integers. On sm_90a
 * the GPU fills their maps itself (tensormap.replace; test_tma.c has the PTX) where the row
 * strides K and N are multiples of 16; N = 72 leaves c's on the ordinary path. */
TEST(kern_dot_made_descriptors) {
    enum { M = 100, K = 48, BM = 64, BN = 32, BK = 16, NPROG = 3 };
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_tc.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "made_desc_matmul_kernel");
    static uint16_t a[M * K], b[80 * K];
    static float got[M * 80];
    kt_seed(2015);
    for (int i = 0; i < M * K; i++) a[i] = kt_f16(kt_irand(-3, 3));
    for (int i = 0; i < 80 * K; i++) b[i] = kt_f16(kt_irand(-3, 3));
    for (int run = 0; k && run < 3; run++) {
        int N = run == 2 ? 72 : 80, st = run == 1 ? 1 : 3;
        tc_tensor *ta = kt_t2(ctx, TC_FP16, M, K, a), *tb = kt_t2(ctx, TC_FP16, N, K, b),
                  *tc = kt_t2(ctx, TC_FP32, M, N, NULL);
        tc_launch_opts op = tc_launch_defaults();
        op.grid[0] = NPROG;
        op.num_stages = st;
        char what[64];
        snprintf(what, sizeof what, "made descriptors, N=%d, stages=%d", N, st);
        tc_status r = kt_launch_opts(ctx, k, &op,
                                     KT_ARGS({"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(tc)},
                                             {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)},
                                             {"BM", tc_int(BM)}, {"BN", tc_int(BN)}, {"BK", tc_int(BK)},
                                             {"NPROG", tc_int(NPROG)}, {"STAGES", tc_int(st)}));
        if (!kt_ok_(ctx, r, what, __FILE__, __LINE__)) continue;
        kt_get(tc, got);
        long bad = -1;
        for (int i = 0; i < M && bad < 0; i++)
            for (int j = 0; j < N && bad < 0; j++) {
                double e = 0;
                for (int q = 0; q < K; q++) e += kt_h2d(a[i * K + q]) * kt_h2d(b[j * K + q]);
                if (got[i * N + j] != e) bad = (long)i * N + j;
            }
        if (bad >= 0) test_fail(__FILE__, __LINE__, "%s: element %ld is %g", what, bad, got[bad]);
        else test_passed++;
    }
    free_all(ctx);
}
