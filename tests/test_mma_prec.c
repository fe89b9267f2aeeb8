/* test_mma_prec.c — the tensor-core path in the PTX (no GPU needed) for the dots that used
 * to fall back to FMA: fp32 under input_precision tf32x3 / bf16x3 / bf16x6 (Triton's split
 * products: the number of mma.sync per precision), and tiles below the instruction's 16 x 8
 * (M and N from 1, padded as Triton pads them), on sm_80, sm_89 and sm_90a; ptxas assembles
 * them where it is installed (scripts/gpu-dot-prec.sh checked them on an H200; results:
 * test_kernels_dot_tc.c). */
#include "test.h"

#include <stdbool.h>
#include <unistd.h>

static const char *const ptxas = "/usr/local/cuda/bin/ptxas";

/* dot_prec_kernel (one M x N x K block) for target, operand dtype dt and precision prec;
 * with cubin set, assembled by ptxas too. Returns the exit status; PTX or messages in out. */
static int compile_block(const char *target, const char *dt, int M, int N, int K, int warps, const char *prec,
                         bool cubin, char *out, size_t n) {
    const char *acc = !strcmp(dt, "i8") ? "i32" : "fp32";
    char cmd[1024], emit[256] = "";
    if (cubin)
        snprintf(emit, sizeof emit, "--emit cubin -o %s/mma-prec.cubin --ptxas %s", test_build_dir(), ptxas);
    snprintf(cmd, sizeof cmd,
             "TRITONC_GPU_UNVERIFIED=0 TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_prec.py "
             "dot_prec_kernel --target %s --num-warps %d %s a_ptr='*%s:16' b_ptr='*%s:16' c_ptr='*%s:16' M=%d N=%d "
             "K=%d PREC=%s",
             test_build_dir(), test_build_dir(), target, warps, emit, dt, dt, acc, M, N, K, prec);
    return test_run(cmd, out, n);
}

static int count(const char *s, const char *what) { return test_count(s, what); }

/* one 16x16x16 block on one warp: two n tiles, so per k8 step 2 tf32 mma and per k16 step 2
 * bf16 mma for each product; tf32x3: 3 products, bf16x3: 3, bf16x6: 6 */
TEST(mma_fp32_precisions_count) {
    static char out[1 << 20];
    static const struct { const char *prec, *ins; int n; } cases[] = {
        {"tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4},
        {"tf32x3", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 12},
        {"bf16x3", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 6},
        {"bf16x6", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 12},
    };
    const char *targets[] = {"cuda:80", "cuda:90a"};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 4; i++) {
            CHECK_INT(0, compile_block(targets[t], "fp32", 16, 16, 16, 1, cases[i].prec, false, out, sizeof out));
            if (count(out, cases[i].ins) != cases[i].n)
                test_fail(__FILE__, __LINE__, "%s %s: %d x %s, expected %d", targets[t], cases[i].prec,
                          count(out, cases[i].ins), cases[i].ins, cases[i].n);
            else test_passed++;
            CHECK(strstr(out, "fma.rn.f32") == NULL);
            /* the split precisions zero the small products' NaNs before the big one */
            CHECK((strstr(out, "setp.nan.f32") != NULL) == (i > 0));
            CHECK((strstr(out, "cvt.rn.bf16x2.f32") != NULL) == (i >= 2));
        }
    /* ieee stays the exact FMA chain */
    CHECK_INT(0, compile_block("cuda:80", "fp32", 16, 16, 16, 1, "ieee", false, out, sizeof out));
    CHECK(strstr(out, "mma.sync") == NULL);
    CHECK_CONTAINS(out, "fma.rn.f32");
    /* checked on a GPU, so on the default path: no TRITONC_GPU_UNVERIFIED needed */
    CHECK_INT(0, compile_block("cuda:80", "fp16", 8, 16, 16, 1, "default", false, out, sizeof out));
    CHECK_CONTAINS(out, "mma.sync");
}

/* M and N from 1: the instruction pads the tile instead of the FMA loop */
TEST(mma_small_shapes_on_tensor_cores) {
    static char out[1 << 20];
    static const struct { const char *target, *dt, *prec, *ins; } cases[] = {
        {"cuda:80", "fp16", "default", "m16n8k16.row.col.f32.f16.f16.f32"},
        {"cuda:90a", "bf16", "default", "m16n8k16.row.col.f32.bf16.bf16.f32"},
        {"cuda:80", "fp32", "default", "m16n8k8.row.col.f32.tf32.tf32.f32"},
        {"cuda:90a", "fp32", "bf16x6", "m16n8k16.row.col.f32.bf16.bf16.f32"},
        {"cuda:80", "i8", "default", "m16n8k32.row.col.s32.s8.s8.s32"},
        {"cuda:89", "fp8e5", "default", "m16n8k32.row.col.f32.e5m2.e5m2.f32"},
    };
    static const int shapes[][3] = {{1, 1, 32}, {2, 8, 32}, {8, 1, 64}, {16, 2, 32}, {4, 16, 32}};
    bool have = access(ptxas, X_OK) == 0;
    for (int i = 0; i < 6; i++)
        for (int s = 0; s < 5; s++) {
            int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
            /* the last shape on 4 warps (copies of the one tile), assembled where ptxas is */
            bool last = s == 4;
            CHECK_INT(0, compile_block(cases[i].target, cases[i].dt, M, N, K, last ? 4 : 1, cases[i].prec,
                                       false, out, sizeof out));
            if (!strstr(out, cases[i].ins) || strstr(out, "fma.rn.f32"))
                test_fail(__FILE__, __LINE__, "%s %s %dx%dx%d: no %s", cases[i].target, cases[i].dt, M, N, K,
                          cases[i].ins);
            else test_passed++;
            if (have && (last || s == 0))
                CHECK_INT(0, compile_block(cases[i].target, cases[i].dt, M, N, K, last ? 4 : 1, cases[i].prec,
                                           true, out, sizeof out));
        }
}

/* the K loop with cp.async stages feeding a split dot, assembled */
TEST(mma_fp32_prec_pipelined) {
    static char out[1 << 20];
    char cmd[1024];
    for (int t = 0; t < 2; t++) {
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_tc.py "
                 "dot_prec_loop_kernel "
                 "--target %s --num-warps 4 --num-stages 3 a_ptr='*fp32:16' b_ptr='*fp32:16' c_ptr='*fp32:16' "
                 "M=i32 N=i32:16 K=i32:16 BM=64 BN=32 BK=32 PREC=%s STAGES=3",
                 test_build_dir(), test_build_dir(), t ? "cuda:90a" : "cuda:80", t ? "tf32x3" : "bf16x3");
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, "cp.async.wait_group 1;");
        CHECK_CONTAINS(out, t ? "m16n8k8.row.col.f32.tf32.tf32.f32" : "m16n8k16.row.col.f32.bf16.bf16.f32");
        CHECK(strstr(out, "fma.rn.f32") == NULL);
    }
}
