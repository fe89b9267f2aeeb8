/* test_dot_prec.c — tl.dot on the interpreter as Triton 3.6 defines it: each output element
 * the fp32 FMA chain over k = 0..K-1 (bit for bit, whatever the blocking), input_precision
 * tf32 / tf32x3 / ieee / bf16x3 / bf16x6 (the split products of Triton's F32DotTC pass, written
 * again here from its description), the default from TRITON_F32_DEFAULT (which is part of the
 * specialization key), allow_tf32, fp8 operands, out_dtype=fp16, 3-D batches and the errors. */
#include "test_kernels_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test_kept.h"

/* tf32 as cvt.rna.tf32.f32: 10 mantissa bits, ties away from zero */
static float ref_tf32(float x) {
    if (!isfinite(x) || x == 0) return x;
    int e;
    frexp(x, &e);
    double q = ldexp(fabs((double)x), 11 - e); /* in [1024, 2048) */
    double r = floor(q + 0.5);
    return (float)copysign(ldexp(r, e - 11), x);
}
static float ref_bf16(float x) { return (float)kt_round_bf16(x); }

/* S = chain(A, B): M x K by K x N, fp32 FMA from 0 in k order */
static void ref_chain(const float *A, const float *B, float *S, int M, int N, int K) {
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            float s = 0;
            for (int k = 0; k < K; k++) s = fmaf(A[m * K + k], B[k * N + n], s);
            S[m * N + n] = s;
        }
}

enum { RM = 32, RN = 64, RK = 32 };

/* R += chain(A, B) (one pass of the split products, R its accumulator) */
static void ref_pass(const float *A, const float *B, float *R, int M, int N, int K) {
    float S[RM * RN];
    ref_chain(A, B, S, M, N, K);
    for (int i = 0; i < M * N; i++) R[i] = S[i] + R[i];
}

static void ref_dot(const char *prec, const float *A, const float *B, const float *acc, float *out,
                    int M, int N, int K) {
    static float a[3][RM * RK], b[3][RK * RN];
    float R[RM * RN] = {0};
    int na = M * K, nb = K * N;
    if (!strcmp(prec, "ieee") || !strcmp(prec, "tf32")) {
        bool t = !strcmp(prec, "tf32");
        for (int i = 0; i < na; i++) a[0][i] = t ? ref_tf32(A[i]) : A[i];
        for (int i = 0; i < nb; i++) b[0][i] = t ? ref_tf32(B[i]) : B[i];
        ref_pass(a[0], b[0], R, M, N, K);
    } else if (!strcmp(prec, "tf32x3")) {
        /* big = tf32(x), small = x - big; small x big, big x small (inner dots are tf32),
         * NaNs zeroed, then big x big */
        for (int i = 0; i < na; i++) { a[0][i] = ref_tf32(A[i]); a[1][i] = ref_tf32(A[i] - a[0][i]); }
        for (int i = 0; i < nb; i++) { b[0][i] = ref_tf32(B[i]); b[1][i] = ref_tf32(B[i] - b[0][i]); }
        ref_pass(a[1], b[0], R, M, N, K);
        ref_pass(a[0], b[1], R, M, N, K);
        for (int i = 0; i < M * N; i++) if (isnan(R[i])) R[i] = 0;
        ref_pass(a[0], b[0], R, M, N, K);
    } else { /* bf16x3, bf16x6: hi, mid, lo = successive bf16 roundings of the remainders */
        bool six = !strcmp(prec, "bf16x6");
        for (int i = 0; i < na; i++) {
            float r = A[i];
            for (int p = 0; p < 3; p++) { a[p][i] = ref_bf16(r); r = r - a[p][i]; }
        }
        for (int i = 0; i < nb; i++) {
            float r = B[i];
            for (int p = 0; p < 3; p++) { b[p][i] = ref_bf16(r); r = r - b[p][i]; }
        }
        if (six) {
            ref_pass(a[1], b[1], R, M, N, K);
            ref_pass(a[2], b[0], R, M, N, K);
            ref_pass(a[0], b[2], R, M, N, K);
        }
        ref_pass(a[1], b[0], R, M, N, K);
        ref_pass(a[0], b[1], R, M, N, K);
        for (int i = 0; i < M * N; i++) if (isnan(R[i])) R[i] = 0;
        ref_pass(a[0], b[0], R, M, N, K);
    }
    for (int i = 0; i < M * N; i++) out[i] = R[i] + acc[i];
}

static void rand_f32(float *x, int n) {
    for (int i = 0; i < n; i++) x[i] = kt_frand(-2, 2) * (float)ldexp(1, kt_irand(-6, 6));
}

/* runs dot_prec_kernel and compares bit for bit with ref_dot(expect) */
static void run_prec(tc_context *ctx, tc_kernel *k, const char *prec, const char *expect, int M, int N,
                     int K, const char *cf, int cl) {
    float A[RM * RK], B[RK * RN], C[RM * RN], got[RM * RN], want[RM * RN];
    rand_f32(A, M * K);
    rand_f32(B, K * N);
    rand_f32(C, M * N);
    A[1] = INFINITY; /* a non-finite input: the NaN-zeroing of the split passes */
    tc_tensor *ta = kt_t2(ctx, TC_FP32, M, K, A), *tb = kt_t2(ctx, TC_FP32, K, N, B),
              *tc = kt_t2(ctx, TC_FP32, M, N, C);
    tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
                                                     {"c_ptr", tc_tens(tc)}, {"M", tc_int(M)}, {"N", tc_int(N)},
                                                     {"K", tc_int(K)}, {"PREC", tc_str(prec)}));
    if (!kt_ok_(ctx, s, prec, cf, cl)) return;
    kt_get(tc, got);
    ref_dot(expect, A, B, C, want, M, N, K);
    int bad = 0, first = -1;
    for (int i = 0; i < M * N; i++)
        if (memcmp(&got[i], &want[i], 4) != 0 && !(isnan(got[i]) && isnan(want[i]))) { if (first < 0) first = i; bad++; }
    if (bad) test_fail(cf, cl, "%s (%dx%dx%d): %d elements differ; first [%d] %.9g, expected %.9g", prec,
                       M, N, K, bad, first, got[first], want[first]);
    else test_passed++;
}
#define RUN_PREC(ctx, k, prec, expect, M, N, K) run_prec(ctx, k, prec, expect, M, N, K, __FILE__, __LINE__)

TEST(dot_prec_fp32_precisions) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_prec.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_prec_kernel");
    kt_seed(11);
    unsetenv("TRITON_F32_DEFAULT");
    static const char *const precs[] = {"ieee", "tf32", "tf32x3", "bf16x3", "bf16x6"};
    for (int i = 0; i < 5; i++) {
        RUN_PREC(ctx, k, precs[i], precs[i], 32, 64, 32); /* whole blocks */
        RUN_PREC(ctx, k, precs[i], precs[i], 16, 16, 16); /* edges */
    }
    RUN_PREC(ctx, k, "TF32x3", "tf32x3", 16, 16, 16); /* the names are case-insensitive */
    RUN_PREC(ctx, k, "default", "tf32", 16, 16, 16);
    RUN_PREC(ctx, k, "no_tf32", "ieee", 16, 16, 16);
    /* TRITON_F32_DEFAULT sets the default, even over allow_tf32=False, and is part of the key:
     * the same kernel handle compiles again */
    setenv("TRITON_F32_DEFAULT", "ieee", 1);
    RUN_PREC(ctx, k, "default", "ieee", 16, 16, 16);
    setenv("TRITON_F32_DEFAULT", "bf16x3", 1);
    RUN_PREC(ctx, k, "default", "bf16x3", 16, 16, 16);
    RUN_PREC(ctx, k, "no_tf32", "bf16x3", 16, 16, 16);
    RUN_PREC(ctx, k, "tf32", "tf32", 16, 16, 16);
    unsetenv("TRITON_F32_DEFAULT");
    RUN_PREC(ctx, k, "default", "tf32", 16, 16, 16);
    free_all(ctx);
}

TEST(kern_fp8_dot_operands) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_prec.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_fp8_kernel");
    enum { M = 16, N = 32, K = 32 };
    static const tc_dtype pairs[][2] = {{TC_FP8E5, TC_FP8E5}, {TC_FP8E5, TC_FP8E4NV},
                                        {TC_FP8E4NV, TC_FP8E4NV}, {TC_FP8E4B15, TC_FP8E5}};
    kt_seed(12);
    for (int p = 0; p < 4; p++)
        for (int out16 = 0; out16 < 2; out16++) {
            uint8_t a[M * K], b[K * N];
            float fa[M * K], fb[K * N], s[M * N];
            for (int i = 0; i < M * K; i++) {
                a[i] = (uint8_t)kt_irand(0, 255);
                if (isnan(tc_fp8_decode(pairs[p][0], a[i])) || isinf(tc_fp8_decode(pairs[p][0], a[i]))) a[i] = 0x3c;
                fa[i] = (float)tc_fp8_decode(pairs[p][0], a[i]);
            }
            for (int i = 0; i < K * N; i++) {
                b[i] = (uint8_t)kt_irand(0, 255);
                if (isnan(tc_fp8_decode(pairs[p][1], b[i])) || isinf(tc_fp8_decode(pairs[p][1], b[i]))) b[i] = 0x31;
                fb[i] = (float)tc_fp8_decode(pairs[p][1], b[i]);
            }
            ref_chain(fa, fb, s, M, N, K);
            tc_tensor *ta = kt_t2(ctx, pairs[p][0], M, K, a), *tb = kt_t2(ctx, pairs[p][1], K, N, b),
                      *tc = kt_t2(ctx, out16 ? TC_FP16 : TC_FP32, M, N, NULL);
            KT_RUN(ctx, k, 1, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(tc)},
                   {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)}, {"OUT16", tc_bool(out16)});
            double want[M * N], got[M * N];
            if (out16) {
                uint16_t h[M * N];
                kt_get(tc, h);
                for (int i = 0; i < M * N; i++) { got[i] = kt_h2d(h[i]); want[i] = kt_round_f16(s[i]); }
            } else {
                float f[M * N];
                kt_get(tc, f);
                for (int i = 0; i < M * N; i++) { got[i] = f[i]; want[i] = s[i]; }
            }
            KT_CHECK_ARR(want, got, M * N, 0, 0);
        }
    free_all(ctx);
}

TEST(dot_prec_batched) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_prec.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_batched_kernel");
    enum { B = 2, M = 16, N = 64, K = 16 };
    uint16_t a[B * M * K], b[B * K * N];
    float fa[B * M * K], fb[B * K * N], s[B * M * N];
    kt_seed(13);
    for (int i = 0; i < B * M * K; i++) { a[i] = kt_f16(kt_frand(-3, 3)); fa[i] = (float)kt_h2d(a[i]); }
    for (int i = 0; i < B * K * N; i++) { b[i] = kt_f16(kt_frand(-3, 3)); fb[i] = (float)kt_h2d(b[i]); }
    for (int bb = 0; bb < B; bb++) ref_chain(fa + bb * M * K, fb + bb * K * N, s + bb * M * N, M, N, K);
    int64_t sa[3] = {B, M, K}, sb[3] = {B, K, N}, sc[3] = {B, M, N};
    tc_tensor *ta = kt_tensor(ctx, TC_FP16, 3, sa, a), *tb = kt_tensor(ctx, TC_FP16, 3, sb, b),
              *tc = kt_tensor(ctx, TC_FP32, 3, sc, NULL);
    KT_RUN(ctx, k, 1, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)}, {"c_ptr", tc_tens(tc)},
           {"B", tc_int(B)}, {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)});
    float f[B * M * N];
    double want[B * M * N], got[B * M * N];
    kt_get(tc, f);
    for (int i = 0; i < B * M * N; i++) { got[i] = f[i]; want[i] = s[i]; }
    KT_CHECK_ARR(want, got, B * M * N, 0, 0);
    free_all(ctx);
}

TEST(dot_prec_errors) {
    static const struct { int what; const char *msg; } cases[] = {
        {0, "max_num_imprecise_acc (64) must be <= K (32)"},
        {1, "input_precision must be one of ('tf32', 'tf32x3', 'ieee', 'bf16x3', 'bf16x6'). Got hf32"},
        {2, "Only one of input_precision and allow_tf32 can be specified"},
        {3, "K >= 32"},
    };
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "dot_prec.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "dot_bad_kernel");
    float a[32 * 32] = {0};
    for (int i = 0; i < COUNT_OF_CASES(cases); i++) {
        tc_tensor *ta = kt_t2(ctx, TC_FP32, 32, 32, a);
        tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"a_ptr", tc_tens(ta)}, {"WHAT", tc_int(cases[i].what)}));
        CHECK_INT(TC_ERR_COMPILE, s);
        if (!strstr(tc_errmsg(ctx), cases[i].msg) || !strstr(tc_errmsg(ctx), "dot_prec.py:"))
            test_fail(__FILE__, __LINE__, "case %d: '%s' lacks '%s'", i, tc_errmsg(ctx), cases[i].msg);
        else test_passed++;
    }
    /* a bad TRITON_F32_DEFAULT is the same error at the dot */
    setenv("TRITON_F32_DEFAULT", "fast", 1);
    tc_kernel *kp = KT_KERNEL(ctx, m, "dot_prec_kernel");
    float b[16 * 16] = {0};
    tc_tensor *t1 = kt_t2(ctx, TC_FP32, 16, 16, b), *t2 = kt_t2(ctx, TC_FP32, 16, 16, b),
              *t3 = kt_t2(ctx, TC_FP32, 16, 16, b);
    tc_status s = kt_launch(ctx, kp, 1, 1, 1, KT_ARGS({"a_ptr", tc_tens(t1)}, {"b_ptr", tc_tens(t2)},
                                                      {"c_ptr", tc_tens(t3)}, {"M", tc_int(16)}, {"N", tc_int(16)},
                                                      {"K", tc_int(16)}, {"PREC", tc_str("default")}));
    unsetenv("TRITON_F32_DEFAULT");
    CHECK_INT(TC_ERR_COMPILE, s);
    CHECK(strstr(tc_errmsg(ctx), "Got fast") != NULL);
    free_all(ctx);
}
