/* test_attention.c — fused attention forward and backward in tutorial 06's patterns
 * (tests/kernels/attention.py: attn_fwd_lse; tests/kernels/attention_bwd.py: the delta
 * preprocess, dK/dV and dQ kernels) on the interpreter, fp16, causal and not, head_dim 16 to
 * 128, two heads, against the double-precision reference of tests/attention_ref.h with its
 * per-element fp16 error bound. On a GPU, `scripts/gpu-dot-check.sh attn_fwd_bwd` shadows these
 * launches there (named apart from kern_*, whose every launch gpu_kernel_suite_lowers lowers
 * for four targets: minutes for these). attn_ptx_* lower each kernel at the tutorial's sizes
 * for sm_80 and sm_90a, check that every dot is on tensor cores and assemble it with ptxas. */
#include "attention_ref.h"
#include "test_kernels_util.h"

#include <unistd.h>

typedef struct AttnCase {
    int N, D, causal;
    int fwd_m, fwd_n;        /* forward BLOCK_M, BLOCK_N */
    int m1, n1, m2, n2;      /* dK/dV kernel BLOCK_M, BLOCK_N; dQ kernel BLOCK_M, BLOCK_N */
    int slice;               /* BLK_SLICE_FACTOR: diagonal blocks in BLOCK / slice steps */
} AttnCase;

enum { BH = 2 };

/* standard normal values from the suite's LCG (Box-Muller) */
static double attn_randn(void) {
    double a = kt_frand(1e-7f, 1.0f), b = kt_frand(0.0f, 1.0f);
    return sqrt(-2 * log(a)) * cos(2 * M_PI * b);
}

typedef struct Buf { uint16_t *h; double *d; } Buf;

static Buf attn_input(size_t n, double mul) {
    Buf b = {malloc(n * 2), malloc(n * sizeof(double))};
    for (size_t i = 0; b.h && b.d && i < n; i++) {
        b.h[i] = kt_f16(attn_randn() * mul);
        b.d[i] = kt_h2d(b.h[i]);
    }
    return b;
}

static void attn_check(const char *what, const AttnCase *c, const double *exp_, const double *tol,
                       const double *got, long n, double *maxtol, double maxref) {
    double worst;
    long at, bad = attn_ref_compare(exp_, tol, got, n, &worst, &at);
    if (!bad) test_passed++;
    else
        test_fail(__FILE__, __LINE__,
                  "%s (N %d D %d causal %d): %ld of %ld outside the bound; worst at [%ld]: "
                  "expected %.7g, got %.7g, bound %.3g",
                  what, c->N, c->D, c->causal, bad, n, at, exp_[at], got[at], tol[at]);
    /* The bound is a worst case (every rounding error of one sign); real errors are random in
     * sign and their root mean square, relative to the values', stays near fp16's own
     * rounding of the outputs (u / sqrt(3) with u = 2^-11; the roundings of P and dS before
     * the dots add about as much again: 0.5 to 0.8 u measured). 2u catches a wrong constant
     * (a scale off by 0.5%) that the worst-case bound lets through where sums cancel. */
    double se = 0, sr = 0;
    for (long i = 0; i < n; i++) {
        se += (got[i] - exp_[i]) * (got[i] - exp_[i]);
        sr += exp_[i] * exp_[i];
    }
    if (sqrt(se / sr) <= ldexp(1.0, -10)) test_passed++;
    else test_fail(__FILE__, __LINE__, "%s (N %d D %d causal %d): relative rms error %.3g > 2^-10",
                   what, c->N, c->D, c->causal, sqrt(se / sr));
    /* the bound must be far below the values, or the check would say nothing */
    double mt = 0;
    for (long i = 0; i < n; i++) mt = fmax(mt, tol[i]);
    *maxtol = mt;
    if (mt < 0.02 * maxref) test_passed++;
    else test_fail(__FILE__, __LINE__, "%s: bound %g not small beside the values (max %g)", what, mt, maxref);
}

static double attn_maxabs(const double *x, long n) {
    double m = 0;
    for (long i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static void attn_get(tc_tensor *t, double *out, long n, int f16) {
    void *tmp = malloc((size_t)n * 4);
    if (!tmp) return;
    kt_get(t, tmp);
    for (long i = 0; i < n; i++)
        out[i] = f16 ? kt_h2d(((uint16_t *)tmp)[i]) : (double)((float *)tmp)[i];
    free(tmp);
}

static void run_attn_case(const AttnCase *c) {
    tc_context *ctx = kt_ctx();
    tc_module *mf = KT_MODULE(ctx, "attention.py"), *mb = KT_MODULE(ctx, "attention_bwd.py");
    tc_kernel *fwd = KT_KERNEL(ctx, mf, "attn_fwd_lse"), *pre = KT_KERNEL(ctx, mb, "attn_bwd_delta"),
              *dkdv = KT_KERNEL(ctx, mb, "attn_bwd_dkdv"), *dqk = KT_KERNEL(ctx, mb, "attn_bwd_dq");
    int N = c->N, D = c->D;
    long nd = (long)BH * N * D, n1 = (long)BH * N;
    kt_seed((uint32_t)(N * 1000 + D * 10 + c->causal));
    Buf q = attn_input((size_t)nd, 1), k = attn_input((size_t)nd, 1), v = attn_input((size_t)nd, 1),
        g = attn_input((size_t)nd, 1);
    /* sm_scale * log2(e) = 1/4, a power of two: K scaled for the backward stays exact in fp16 */
    float sm_scale = (float)(M_LN2 / 4);
    uint16_t *ks = malloc((size_t)nd * 2);
    for (long i = 0; ks && i < nd; i++) ks[i] = kt_f16(k.d[i] * 0.25);
    AttnRef r = {0};
    CHECK(attn_ref_compute(&r, BH, N, D, c->causal, sm_scale, 0, q.d, k.d, v.d, g.d));
    int64_t sh3[3] = {BH, N, D}, sh2[2] = {BH, N};
    tc_tensor *tQ = kt_tensor(ctx, TC_FP16, 3, sh3, q.h), *tK = kt_tensor(ctx, TC_FP16, 3, sh3, k.h),
              *tV = kt_tensor(ctx, TC_FP16, 3, sh3, v.h), *tG = kt_tensor(ctx, TC_FP16, 3, sh3, g.h),
              *tKs = kt_tensor(ctx, TC_FP16, 3, sh3, ks), *tO = kt_tensor(ctx, TC_FP16, 3, sh3, NULL),
              *tdQ = kt_tensor(ctx, TC_FP16, 3, sh3, NULL), *tdK = kt_tensor(ctx, TC_FP16, 3, sh3, NULL),
              *tdV = kt_tensor(ctx, TC_FP16, 3, sh3, NULL), *tM = kt_tensor(ctx, TC_FP32, 2, sh2, NULL),
              *tDelta = kt_tensor(ctx, TC_FP32, 2, sh2, NULL);
    double *got = malloc(sizeof(double) * (size_t)nd);
    int ok = r.O && got && ks && fwd && pre && dkdv && dqk;
    ok = ok && KT_RUN(ctx, fwd, N / c->fwd_m, BH, 1, {"Q", tc_tens(tQ)}, {"K", tc_tens(tK)},
                      {"V", tc_tens(tV)}, {"Out", tc_tens(tO)}, {"M", tc_tens(tM)},
                      {"sm_scale", tc_float(sm_scale)}, {"N_CTX", tc_int(N)}, {"HEAD_DIM", tc_int(D)},
                      {"BLOCK_M", tc_int(c->fwd_m)}, {"BLOCK_N", tc_int(c->fwd_n)},
                      {"STAGE", tc_int(c->causal ? 3 : 1)});
    ok = ok && KT_RUN(ctx, pre, N / 32, BH, 1, {"O", tc_tens(tO)}, {"DO", tc_tens(tG)},
                      {"Delta", tc_tens(tDelta)}, {"stride_bh", tc_int(N * D)},
                      {"stride_tok", tc_int(D)}, {"N_CTX", tc_int(N)}, {"BLOCK", tc_int(32)},
                      {"HEAD_DIM", tc_int(D)});
    ok = ok && KT_RUN(ctx, dkdv, N / c->n1, BH, 1, {"Q", tc_tens(tQ)}, {"K", tc_tens(tKs)},
                      {"V", tc_tens(tV)}, {"DO", tc_tens(tG)}, {"DK", tc_tens(tdK)},
                      {"DV", tc_tens(tdV)}, {"M", tc_tens(tM)}, {"Delta", tc_tens(tDelta)},
                      {"sm_scale", tc_float(sm_scale)}, {"stride_bh", tc_int(N * D)},
                      {"stride_tok", tc_int(D)}, {"N_CTX", tc_int(N)}, {"BLOCK_M", tc_int(c->m1)},
                      {"BLOCK_N", tc_int(c->n1)}, {"SLICE", tc_int(c->slice)},
                      {"HEAD_DIM", tc_int(D)}, {"CAUSAL", tc_bool(c->causal)});
    ok = ok && KT_RUN(ctx, dqk, N / c->m2, BH, 1, {"Q", tc_tens(tQ)}, {"K", tc_tens(tKs)},
                      {"V", tc_tens(tV)}, {"DO", tc_tens(tG)}, {"DQ", tc_tens(tdQ)},
                      {"M", tc_tens(tM)}, {"Delta", tc_tens(tDelta)}, {"stride_bh", tc_int(N * D)},
                      {"stride_tok", tc_int(D)}, {"N_CTX", tc_int(N)}, {"BLOCK_M", tc_int(c->m2)},
                      {"BLOCK_N", tc_int(c->n2)}, {"SLICE", tc_int(c->slice)},
                      {"HEAD_DIM", tc_int(D)}, {"CAUSAL", tc_bool(c->causal)});
    if (ok) {
        struct { const char *what; tc_tensor *t; int f16; const double *e, *tol; long n; } outs[] = {
            {"O", tO, 1, r.O, r.tO, nd},       {"M", tM, 0, r.M, r.tM, n1},
            {"delta", tDelta, 0, r.delta, r.tdelta, n1},
            {"dV", tdV, 1, r.dV, r.tdV, nd},   {"dK", tdK, 1, r.dK, r.tdK, nd},
            {"dQ", tdQ, 1, r.dQ, r.tdQ, nd},
        };
        for (int i = 0; i < 6; i++) {
            double mt;
            attn_get(outs[i].t, got, outs[i].n, outs[i].f16);
            attn_check(outs[i].what, c, outs[i].e, outs[i].tol, got, outs[i].n, &mt,
                       attn_maxabs(outs[i].e, outs[i].n));
        }
    }
    tc_tensor *all[] = {tQ, tK, tV, tG, tKs, tO, tdQ, tdK, tdV, tM, tDelta};
    for (int i = 0; i < 11; i++) tc_tensor_free(all[i]);
    attn_ref_free(&r);
    free(q.h); free(q.d); free(k.h); free(k.d); free(v.h); free(v.d); free(g.h); free(g.d);
    free(ks); free(got);
    tc_module_free(mf);
    tc_module_free(mb);
    tc_context_free(ctx);
}

/* head_dim 64: the dK/dV and dQ blocks smaller than the tutorial's, so several programs and
 * several steps on and off the diagonal; then the tutorial's own blocks (32/128, 128/32) */
TEST(attn_fwd_bwd_d64) {
    static const AttnCase cases[] = {
        {128, 64, 0, 64, 32, 32, 64, 64, 32, 2},
        {128, 64, 1, 64, 32, 32, 64, 64, 32, 2},
        {256, 64, 1, 128, 64, 32, 128, 128, 32, 2},
    };
    for (int i = 0; i < COUNT_OF_CASES(cases); i++) run_attn_case(&cases[i]);
}

TEST(attn_fwd_bwd_d128) {
    static const AttnCase cases[] = {
        {128, 128, 0, 64, 64, 32, 128, 128, 32, 2},
        {128, 128, 1, 64, 32, 32, 64, 64, 32, 2},
        /* the forward at 128x128 (on sm_90a with 4 warps P @ V is waited for in its own
         * iteration: test_mma.c mma_attention_dot_in_flight) */
        {128, 128, 1, 128, 128, 32, 128, 128, 32, 2},
    };
    for (int i = 0; i < COUNT_OF_CASES(cases); i++) run_attn_case(&cases[i]);
}

TEST(attn_fwd_bwd_d16_d32) {
    static const AttnCase cases[] = {
        {128, 16, 1, 32, 16, 32, 64, 64, 32, 2},
        {256, 32, 0, 64, 32, 32, 64, 64, 32, 2},
        {256, 32, 1, 64, 32, 64, 64, 64, 64, 4},
    };
    for (int i = 0; i < COUNT_OF_CASES(cases); i++) run_attn_case(&cases[i]);
}

/* The forward with host tensor descriptors over [heads * N_CTX, HEAD_DIM] (tests/kernels/tma.py
 * desc_attn_fwd: K read transposed, the block offset carried; desc_attn_fwd_causal: causal,
 * in two loops as tutorial 06's STAGE 3): on sm_90a their loads go through TMA (test_tma.c
 * tma_ring_attention, tma_two_loop_attention); here O against the reference, and on a GPU
 * the shadow (`scripts/gpu-dot-check.sh attn_desc`) compares the GPU's O with this one. */
static void run_attn_desc(const char *kernel, int causal) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "tma.py");
    tc_kernel *k = KT_KERNEL(ctx, m, kernel);
    enum { N = 256, D = 64, BM = 128, BN = 64 };
    long nd = (long)BH * N * D;
    kt_seed(4242);
    Buf q = attn_input((size_t)nd, 1), kk = attn_input((size_t)nd, 1), v = attn_input((size_t)nd, 1),
        g = attn_input((size_t)nd, 1);
    float sm_scale = (float)(M_LN2 / 4);
    AttnRef r = {0};
    CHECK(attn_ref_compute(&r, BH, N, D, causal, sm_scale, 0, q.d, kk.d, v.d, g.d));
    int64_t sh[2] = {BH * N, D}, bq[2] = {BM, D}, bk[2] = {BN, D};
    tc_tensor *tQ = kt_tensor(ctx, TC_FP16, 2, sh, q.h), *tK = kt_tensor(ctx, TC_FP16, 2, sh, kk.h),
              *tV = kt_tensor(ctx, TC_FP16, 2, sh, v.h), *tO = kt_tensor(ctx, TC_FP16, 2, sh, NULL);
    tc_tensor *dQ = NULL, *dK = NULL, *dV = NULL, *dO = NULL;
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, tQ, 2, NULL, NULL, bq, &dQ));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, tK, 2, NULL, NULL, bk, &dK));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, tV, 2, NULL, NULL, bk, &dV));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, tO, 2, NULL, NULL, bq, &dO));
    double *got = malloc(sizeof(double) * (size_t)nd);
    if (r.O && got && k && dQ && dK && dV && dO &&
        KT_RUN(ctx, k, N / BM, BH, 1, {"q_desc", tc_tens(dQ)}, {"k_desc", tc_tens(dK)},
               {"v_desc", tc_tens(dV)}, {"o_desc", tc_tens(dO)}, {"sm_scale", tc_float(sm_scale)},
               {"N_CTX", tc_int(N)}, {"BM", tc_int(BM)}, {"BN", tc_int(BN)}, {"D", tc_int(D)})) {
        const AttnCase c = {N, D, causal, BM, BN, 0, 0, 0, 0, 0};
        double mt;
        attn_get(tO, got, nd, 1);
        attn_check("O", &c, r.O, r.tO, got, nd, &mt, attn_maxabs(r.O, nd));
    }
    tc_tensor *all[] = {dQ, dK, dV, dO, tQ, tK, tV, tO};
    for (int i = 0; i < 8; i++) tc_tensor_free(all[i]);
    attn_ref_free(&r);
    free(q.h); free(q.d); free(kk.h); free(kk.d); free(v.h); free(v.d); free(g.h); free(g.d);
    free(got);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(attn_desc_fwd) {
    run_attn_desc("desc_attn_fwd", 0);
    run_attn_desc("desc_attn_fwd_causal", 1);
}

/* ---- the PTX of each kernel, at the sizes tutorial 06 launches ------------------------- */

static const struct AttnPtxKernel {
    const char *file, *kernel, *tag, *args;
    int stages, has_dot;
} attn_ptx_kernels[] = {
    {"attention.py", "attn_fwd_lse", "fwd", "Q='*fp16:16' K='*fp16:16' V='*fp16:16' Out='*fp16:16' "
     "M='*fp32:16' sm_scale=fp32 N_CTX=1024 HEAD_DIM=64 BLOCK_M=128 BLOCK_N=64 STAGE=3", 2, 1},
    {"attention_bwd.py", "attn_bwd_delta", "delta", "O='*fp16:16' DO='*fp16:16' Delta='*fp32:16' "
     "stride_bh=i32:16 stride_tok=i32:16 N_CTX=i32:16 BLOCK=128 HEAD_DIM=64", 5, 0},
    {"attention_bwd.py", "attn_bwd_dkdv", "dkdv", "Q='*fp16:16' K='*fp16:16' V='*fp16:16' "
     "DO='*fp16:16' DK='*fp16:16' DV='*fp16:16' M='*fp32:16' Delta='*fp32:16' sm_scale=fp32 "
     "stride_bh=i32:16 stride_tok=i32:16 N_CTX=i32:16 BLOCK_M=32 BLOCK_N=128 SLICE=2 "
     "HEAD_DIM=64 CAUSAL=true", 5, 1},
    {"attention_bwd.py", "attn_bwd_dq", "dq", "Q='*fp16:16' K='*fp16:16' V='*fp16:16' "
     "DO='*fp16:16' DQ='*fp16:16' M='*fp32:16' Delta='*fp32:16' stride_bh=i32:16 "
     "stride_tok=i32:16 N_CTX=i32:16 BLOCK_M=128 BLOCK_N=32 SLICE=2 HEAD_DIM=64 CAUSAL=true", 5, 1},
};

/* Compiles each kernel for target (cuda:80 / cuda:90a): its dots must take the tensor-core
 * path (mma_insn in the PTX, no FMA loop, not the other target's instruction) and ptxas,
 * where installed, must accept it. */
static void attn_ptx_for(const char *target, const char *arch, const char *mma_insn,
                         const char *other_insn) {
    static char out[1 << 16];
    char cmd[2048], path[256];
    const char *B = test_build_dir();
    const char *ptxas = getenv("TRITONC_PTXAS") && *getenv("TRITONC_PTXAS")
                            ? getenv("TRITONC_PTXAS") : "/usr/local/cuda/bin/ptxas";
    for (int i = 0; i < COUNT_OF_CASES(attn_ptx_kernels); i++) {
        const struct AttnPtxKernel *kk = &attn_ptx_kernels[i];
        snprintf(path, sizeof path, "%s/attn-%s-%s.ptx", B, kk->tag, arch);
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/attn-cache ./%s/tritonc compile tests/kernels/%s %s "
                 "--target %s --num-warps 4 --num-stages %d -o %s %s",
                 B, B, kk->file, kk->kernel, target, kk->stages, path, kk->args);
        int rc = test_run(cmd, out, sizeof out);
        CHECK_INT(0, rc);
        if (rc) { fprintf(stderr, "%s\n", out); continue; }
        char *ptx = kt_read(path);
        CHECK(ptx != NULL);
        if (!ptx) continue;
        if (kk->has_dot) {
            CHECK_CONTAINS(ptx, mma_insn);
            CHECK(strstr(ptx, other_insn) == NULL);
        }
        CHECK(strstr(ptx, "fma.rn.f32") == NULL);   /* no dot fell back to the FMA loop */
        free(ptx);
        if (access(ptxas, X_OK) == 0) {
            snprintf(cmd, sizeof cmd, "%s -arch=%s %s -o /dev/null", ptxas, arch, path);
            rc = test_run(cmd, out, sizeof out);
            CHECK_INT(0, rc);
            if (rc) fprintf(stderr, "ptxas %s %s:\n%s\n", kk->kernel, arch, out);
        }
    }
}

TEST(attn_ptx_sm80_mma) {
    attn_ptx_for("cuda:80", "sm_80", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "wgmma");
}

TEST(attn_ptx_sm90a_wgmma) {
    attn_ptx_for("cuda:90a", "sm_90a", "wgmma.mma_async.sync.aligned.m64n", "mma.sync");
}

static void add_global_loads(const char *p, const char *end, void *n) {
    for (const char *q = strstr(p, "ld.global"); q && q < end; q = strstr(q + 1, "ld.global")) (*(int *)n)++;
}

/* How many `ld.global` the loops of ptx hold */
static int loop_global_loads(const char *ptx) {
    int n = 0;
    kt_each_loop(ptx, add_global_loads, &n);
    return n;
}

/* The backward's loops (tutorial 06's patterns) on sm_90a, every load through the ring:
 * - the dK/dV loop reads do in two dots, as loaded and transposed, and qT likewise: each is
 *   issued ahead by cp.async once, both dots reading the one tile in shared memory, rather
 *   than loaded in the iteration that uses it and staged twice (multi_use_ok);
 * - qT there, and the dQ loop's kT and vT, are contiguous along their first dimension (K of
 *   the dot that reads them as loaded): copied in 16-byte runs along it into their transpose
 *   (b_tr), never one fp16 per load;
 * - lse and delta are copied into the ring too and read back into registers (pipe_load).
 * On the H200 the tutorial's backward at head_dim 64 went from 40 to 276 TFLOP/s with the
 * first two (bench/results/gpu-2026-12-02.md §13). */
TEST(attn_ptx_bwd_pipelined) {
    static char out[1 << 16];
    char cmd[2048], path[256];
    const char *B = test_build_dir();
    for (int ki = 2; ki < 4; ki++) {   /* the dK/dV loop, the dQ loop */
        const struct AttnPtxKernel *kk = &attn_ptx_kernels[ki];
        snprintf(path, sizeof path, "%s/attn-piped-%s.ptx", B, kk->tag);
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/attn-cache ./%s/tritonc compile tests/kernels/%s %s --target cuda:90a "
                 "--num-warps 4 --num-stages %d -o %s %s",
                 B, B, kk->file, kk->kernel, kk->stages, path, kk->args);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        char *ptx = kt_read(path);
        CHECK(ptx != NULL);
        if (!ptx) continue;
        int copies = 0, scalar16 = 0;
        for (const char *q = strstr(ptx, "cp.async.cg.shared.global"); q; q = strstr(q + 1, "cp.async.cg.shared.global"))
            copies++;
        for (const char *q = strstr(ptx, "ld.global"); q; q = strstr(q + 1, "ld.global"))
            scalar16 += strncmp(q + strcspn(q, " \t") - 4, ".b16", 4) == 0;
        CHECK(copies > 0);
        CHECK_INT(0, scalar16);
        CHECK_INT(0, loop_global_loads(ptx));
        if (ki == 2) CHECK(strstr(ptx, "cp.async.ca.shared.global") != NULL);   /* lse, delta: 8 bytes */
        free(ptx);
        if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0) {
            snprintf(cmd, sizeof cmd, "/usr/local/cuda/bin/ptxas -arch=sm_90a %s -o /dev/null", path);
            CHECK_INT(0, test_run(cmd, out, sizeof out));
        }
    }
}

struct LoopMoves { int loops, most_copies, fewest_fresh; };

/* a loop's register-to-register copies ("mov.b32 %rA, %rB;") and its wgmmas that start from
 * zero (scale-d 0: "..., 0, 1, 1") */
static void loop_moves(const char *p, const char *end, void *user) {
    struct LoopMoves *m = user;
    int copies = 0, fresh = 0;
    for (const char *q = strstr(p, "mov.b32 %r"); q && q < end; q = strstr(q + 1, "mov.b32 %r")) {
        const char *src = strchr(q, ',');
        copies += src && src < end && strncmp(src, ", %r", 4) == 0 && src[4 + strspn(src + 4, "0123456789")] == ';';
    }
    for (const char *q = strstr(p, "wgmma.mma_async"); q && q < end; q = strstr(q + 1, "wgmma.mma_async")) {
        const char *semi = strchr(q, ';'), *sd = strstr(q, ", 0, 1, 1");   /* scale-d, -a, -b */
        fresh += semi && sd && sd < semi;
    }
    m->loops++;
    if (copies > m->most_copies) m->most_copies = copies;
    if (m->loops == 1 || fresh < m->fewest_fresh) m->fewest_fresh = fresh;
}

/* The dK/dV loops at head_dim 128 (tutorial 06's causal backward: two loops, dk and dv 128
 * fp32 registers each per thread at 4 warps): `dk += tl.dot(...)` and `dv += ...`
 * accumulate in the loop's own registers, copied neither into the wgmma's nor back at the
 * loop's end (546 and 578 copies per loop before; ptxas spilled for them: 92.8 TFLOP/s
 * against Triton's 116.5, then 122.8, bench/results/gpu-2026-12-02.md §17), and the two dots
 * from zero (QK^T, dP) set no accumulator: their first k step has scale-d 0. */
TEST(attn_ptx_bwd_accumulates_in_place) {
    static char out[1 << 16];
    char cmd[2048], path[256];
    const char *B = test_build_dir();
    snprintf(path, sizeof path, "%s/attn-inplace-dkdv.ptx", B);
    snprintf(cmd, sizeof cmd,
             "TRITONC_CACHE_DIR=%s/attn-cache ./%s/tritonc compile tests/kernels/attention_bwd.py attn_bwd_dkdv "
             "--target cuda:90a --num-warps 4 --num-stages 5 -o %s Q='*fp16:16' K='*fp16:16' V='*fp16:16' "
             "DO='*fp16:16' DK='*fp16:16' DV='*fp16:16' M='*fp32:16' Delta='*fp32:16' sm_scale=fp32 "
             "stride_bh=i32:16 stride_tok=i32:16 N_CTX=i32:16 BLOCK_M=32 BLOCK_N=128 SLICE=2 HEAD_DIM=128 "
             "CAUSAL=true", B, B, path);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    char *ptx = kt_read(path);
    CHECK(ptx != NULL);
    if (!ptx) return;
    struct LoopMoves m = {0};
    kt_each_loop(ptx, loop_moves, &m);
    CHECK_INT(2, m.loops);
    CHECK(m.most_copies < 16);
    CHECK_INT(4, m.fewest_fresh);   /* 2 dots from zero x 2 m64 halves */
    free(ptx);
}

/* Under TRITONC_GPU_UNVERIFIED=invshare the causal dK/dV kernel's k and v, read by the dots
 * of both its loops (the diagonal's and the rest), are staged into shared memory once, into
 * an area of their own, rather than before each loop from registers held through the first
 * (the tutorial's backward at head_dim 128, causal: 3120 bytes of spill stores, 2332 so) */
TEST(attn_ptx_bwd_invshare) {
    static char out[1 << 16];
    char cmd[2048], path[256];
    const char *B = test_build_dir();
    const struct AttnPtxKernel *kk = &attn_ptx_kernels[2];
    int stores[2] = {0, 0};
    for (int on = 0; on < 2; on++) {
        snprintf(path, sizeof path, "%s/attn-invshare%d-%s.ptx", B, on, kk->tag);
        snprintf(cmd, sizeof cmd,
                 "TRITONC_GPU_UNVERIFIED=%s TRITONC_CACHE_DIR=%s/attn-cache ./%s/tritonc compile "
                 "tests/kernels/%s %s --target cuda:90a --num-warps 4 --num-stages %d -o %s %s",
                 on ? "invshare" : "0", B, B, kk->file, kk->kernel, kk->stages, path, kk->args);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        char *ptx = kt_read(path);
        CHECK(ptx != NULL);
        if (!ptx) continue;
        for (const char *q = strstr(ptx, "st.shared.v4.b32"); q; q = strstr(q + 1, "st.shared.v4.b32")) stores[on]++;
        CHECK_INT(0, loop_global_loads(ptx));
        free(ptx);
        if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0) {
            snprintf(cmd, sizeof cmd, "/usr/local/cuda/bin/ptxas -arch=sm_90a %s -o /dev/null", path);
            CHECK_INT(0, test_run(cmd, out, sizeof out));
        }
    }
    /* the 16-byte stores that stage k and v (8 per thread each at head_dim 64): twice, then
     * once; the other such stores (the epilogue) stay */
    CHECK_INT(16, stores[0] - stores[1]);
}

/* scripts/attention-tutorial-check.c (run on Triton's tutorial file by
 * scripts/attention-tutorial-check.sh; the file is not in this repository) builds against the
 * library and refuses a missing file with its usage status */
TEST(attn_tutorial_checker_builds) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return;   /* the sanitized library wants the sanitizer's flags: checked by the plain build */
#else
    static char out[1 << 14];
    char cmd[1024];
    const char *B = test_build_dir();
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -Wno-unused-parameter -Wno-unused-function "
             "-Werror -Iinclude -o %s/attention-tutorial-check scripts/attention-tutorial-check.c "
             "%s/libtritonc.a -lm -ldl -lpthread",
             B, B);
    int rc = test_run(cmd, out, sizeof out);
    CHECK_INT(0, rc);
    if (rc) { fprintf(stderr, "%s\n", out); return; }
    snprintf(cmd, sizeof cmd, "%s/attention-tutorial-check", B);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "no tutorial file given");
    snprintf(cmd, sizeof cmd, "%s/attention-tutorial-check tests/kernels/attention.py --bogus", B);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "usage:");
#endif
}

/* desc.load on an fp8 tensor (tutorial 06's fp8 forward): the out-of-bounds fill is a zero of
 * the element's kind (an int 0 cast to fp8 was refused: "cannot cast int32 to fp8e5") */
TEST(attn_desc_load_fp8) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "desc_fp8.py");
    tc_kernel *k = KT_KERNEL(ctx, m, "fp8_block_to_fp32");
    enum { M = 5, N = 3, BM = 4, BN = 4 };
    /* fp8e5 bits: sign, 5 exponent bits (bias 15), 2 mantissa bits; 0x3c = 1.0, 0x40 = 2.0,
     * 0x3e = 1.5, 0xc2 = -3.0 */
    static const uint8_t x[M * N] = {0x3c, 0x40, 0x3e, 0xc2, 0x00, 0x3c,
                                     0x40, 0x40, 0x40, 0x3e, 0x3e, 0x3e, 0xc2, 0x3c, 0x00};
    static const double xv[M * N] = {1, 2, 1.5, -3, 0, 1, 2, 2, 2, 1.5, 1.5, 1.5, -3, 1, 0};
    double e[2 * BM * BN], g[2 * BM * BN];
    float o[2 * BM * BN];
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < BM; i++)
            for (int j = 0; j < BN; j++) {
                int r = b * BM + i;
                e[(b * BM + i) * BN + j] = r < M && j < N ? xv[r * N + j] : 0;
            }
    tc_tensor *tx = kt_t1(ctx, TC_FP8E5, M * N, x), *to = kt_t1(ctx, TC_FP32, 2 * BM * BN, NULL);
    if (k && KT_RUN(ctx, k, 2, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"M", tc_int(M)}, {"N", tc_int(N)}, {"BM", tc_int(BM)}, {"BN", tc_int(BN)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, 2 * BM * BN);
        KT_CHECK_ARR(e, g, 2 * BM * BN, 0, 0);
    }
    tc_tensor_free(tx);
    tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}
