/* test_mma.c — which path the GPU backend takes for tl.dot, checked in the PTX it emits for
 * sm_80, sm_89 and sm_90a (no GPU needed): mma.sync fed by ldmatrix for tensor-core dtypes,
 * cp.async pipelining when num_stages > 1 (and not when it is 1), the FMA loop for
 * input_precision="ieee", Triton's shared-memory error past the limit, and ptxas accepting
 * the result where it is installed. Results themselves are checked by test_kernels_dot.c. */
#include "test.h"
#include "test_kernels_util.h"

#include "gpu/gpu.h"

#include <stdlib.h>
#include <unistd.h>

static const char *const tile_sig =
    "a_ptr='*fp16:16' b_ptr='*fp16:16' c_ptr='*fp32:16' M=i32:16 N=i32:16 K=i32:16 "
    "stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 stride_cn=1";

static const char *extra_env = "";

/* compiles dot_tile_kernel; returns the exit status, output (PTX or messages) in out */
static int compile_tile(const char *target, const char *dt, int bm, int bn, int bk, int warps,
                        int stages, char *out, size_t n) {
    char sig[512], cmd[2048];
    snprintf(sig, sizeof sig, "%s", tile_sig);
    if (strcmp(dt, "fp16")) {
        /* the operand dtype of both inputs */
        char *p;
        while ((p = strstr(sig, "fp16")) != NULL) memcpy(p, dt, 4);
    }
    snprintf(cmd, sizeof cmd,
             "%s TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py dot_tile_kernel "
             "--target %s --num-warps %d --num-stages %d %s BM=%d BN=%d BK=%d STAGES=%d",
             extra_env, test_build_dir(), test_build_dir(), target, warps, stages, sig, bm, bn, bk, stages);
    return test_run(cmd, out, n);
}

TEST(mma_path_chosen_per_target) {
    static char out[1 << 20];
    /* sm_80, sm_89, and sm_90a when DISABLE_MMA_V3 asks for it as in Triton */
    const char *targets[] = {"cuda:80", "cuda:89", "cuda:90a"};
    for (int i = 0; i < 3; i++) {
        extra_env = i == 2 ? "DISABLE_MMA_V3=1" : "";
        CHECK_INT(0, compile_tile(targets[i], "fp16", 128, 128, 32, 4, 3, out, sizeof out));
        extra_env = "";
        CHECK_CONTAINS(out, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
        CHECK_CONTAINS(out, "ldmatrix.sync.aligned.m8n8.x4.shared.b16");
        CHECK_CONTAINS(out, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16");
        CHECK_CONTAINS(out, "cp.async.cg.shared.global");
        CHECK_CONTAINS(out, "cp.async.wait_group 1;");   /* 3 stages: one group in flight */
        CHECK(strstr(out, "fma.rn.f32") == NULL);
    }
    CHECK_INT(0, compile_tile("cuda:80", "bf16", 64, 64, 32, 4, 4, out, sizeof out));
    CHECK_CONTAINS(out, "m16n8k16.row.col.f32.bf16.bf16.f32");
    CHECK_CONTAINS(out, "cp.async.wait_group 2;");
    /* one stage: loads in the iteration, staged through registers */
    CHECK_INT(0, compile_tile("cuda:80", "fp16", 64, 64, 32, 4, 1, out, sizeof out));
    CHECK_CONTAINS(out, "mma.sync");
    CHECK(strstr(out, "cp.async") == NULL);
}

/* sm_90a: warpgroup MMA from shared-memory descriptors, fed by the same cp.async ring */
TEST(mma_wgmma_on_sm90a) {
    static char out[1 << 20];
    CHECK_INT(0, compile_tile("cuda:90a", "fp16", 128, 256, 64, 8, 3, out, sizeof out));
    CHECK_CONTAINS(out, ".target sm_90a");
    CHECK_CONTAINS(out, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16");
    CHECK_CONTAINS(out, "wgmma.commit_group.sync.aligned;");
    CHECK_CONTAINS(out, "wgmma.wait_group.sync.aligned 1;");   /* one group left in flight */
    CHECK_CONTAINS(out, "cp.async.cg.shared.global");
    CHECK_CONTAINS(out, ".align 1024 .b8 global_smem");
    CHECK(strstr(out, "mma.sync") == NULL);
    CHECK_INT(0, compile_tile("cuda:90a", "bf16", 128, 64, 32, 4, 1, out, sizeof out));
    CHECK_CONTAINS(out, "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16");
    /* operands written by st.shared are made visible to the async proxy */
    CHECK_CONTAINS(out, "fence.proxy.async.shared::cta;");
    /* tiles a warpgroup cannot cover stay on mma.sync */
    CHECK_INT(0, compile_tile("cuda:90a", "fp16", 32, 64, 32, 4, 2, out, sizeof out));
    CHECK_CONTAINS(out, "mma.sync.aligned.m16n8k16");
    /* DISABLE_MMA_V3 is part of the disk cache key: the same variant compiles both ways */
    extra_env = "DISABLE_MMA_V3=1";
    CHECK_INT(0, compile_tile("cuda:90a", "fp16", 128, 256, 64, 8, 3, out, sizeof out));
    extra_env = "";
    CHECK_CONTAINS(out, "mma.sync.aligned.m16n8k16");
    CHECK(strstr(out, "wgmma") == NULL);
}

TEST(mma_fma_for_ieee_and_tf32_for_fp32) {
    static char out[1 << 20];
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot.py dot_ieee_kernel "
             "--target cuda:90a a_ptr='*fp32:16' b_ptr='*fp32:16' c_ptr='*fp32:16' M=32 N=32 K=16",
             test_build_dir(), test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK(strstr(out, "mma.sync") == NULL);
    CHECK_CONTAINS(out, "fma.rn.f32");
    CHECK_INT(0, compile_tile("cuda:80", "fp32", 64, 64, 16, 4, 2, out, sizeof out));
    CHECK_CONTAINS(out, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
    CHECK_CONTAINS(out, "cvt.rna.tf32.f32");
}

/* fp8 on mma.sync where the target has it (sm_89 and newer), either fp8 type per operand;
 * sm_80 keeps the FMA loop, as for every dtype without tensor-core support */
TEST(mma_fp8_on_sm89) {
    static char out[1 << 20];
    char cmd[2048];
    const char *sig = "a_ptr='*fp8e4nv:16' b_ptr='*fp8e5:16' c_ptr='*fp32:16' M=i32:16 N=i32:16 "
                      "K=i32:16 stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 "
                      "stride_cm=i32:16 stride_cn=1 BM=64 BN=64 BK=64 STAGES=3";
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py "
             "dot_tile_kernel --target cuda:89 --num-stages 3 %s", test_build_dir(), test_build_dir(), sig);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32");
    CHECK_CONTAINS(out, "cp.async");
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py "
             "dot_tile_kernel --target cuda:90a --num-stages 3 %s", test_build_dir(), test_build_dir(), sig);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "m16n8k32.row.col.f32.e4m3.e5m2.f32");
}

TEST(mma_shared_memory_limit) {
    static char out[1 << 16];
    /* 4 stages of 256x256x128 fp16 tiles: 3 slots of 128 KiB, past every target's limit */
    CHECK_INT(1, compile_tile("cuda:80", "fp16", 256, 256, 128, 8, 4, out, sizeof out));
    CHECK_CONTAINS(out, "out of resource: shared memory, Required: ");
    CHECK_CONTAINS(out, "Hardware limit: ");
}

TEST(mma_ptx_assembles) {
    const char *ptxas = "/usr/local/cuda/bin/ptxas";
    if (access(ptxas, X_OK) != 0) return;   /* CI has it; a bare machine may not */
    static char out[1 << 20];
    char cmd[2048];
    const char *targets[] = {"cuda:80", "cuda:89", "cuda:90a"};
    for (int i = 0; i < 3; i++) {
        /* fp8 e5m2 tiles too, on the targets that have fp8 tensor cores */
        if (i) {
            snprintf(cmd, sizeof cmd,
                     "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py dot_tile_kernel "
                     "--target %s --num-warps 4 --num-stages 3 --emit cubin -o %s/mma-test8.cubin a_ptr='*fp8e5:16' "
                     "b_ptr='*fp8e5:16' c_ptr='*fp32:16' M=i32:16 N=i32:16 K=i32:16 stride_am=i32:16 stride_ak=1 "
                     "stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 stride_cn=1 BM=128 BN=128 BK=64 STAGES=3 && "
                     "test -s %s/mma-test8.cubin",
                     test_build_dir(), test_build_dir(), targets[i], test_build_dir(), test_build_dir());
            CHECK_INT(0, test_run(cmd, out, sizeof out));
        }
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py dot_tile_kernel "
                 "--target %s --num-warps 8 --num-stages 3 --emit cubin -o %s/mma-test.cubin %s BM=128 "
                 "BN=256 BK=64 STAGES=3 && test -s %s/mma-test.cubin",
                 test_build_dir(), test_build_dir(), targets[i], test_build_dir(), tile_sig, test_build_dir());
        CHECK_INT(0, test_run(cmd, out, sizeof out));
    }
}

/* tl.range(..., warp_specialize=True) runs as an ordinary pipelined loop, and the launch
 * report says so (the fake driver: an H200, launches that do nothing) */
TEST(mma_warp_specialize_reported) {
    static char out[65536];
    char fake[600], cmd[2048];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake, R_OK) != 0) return;
    for (int ws = 0; ws < 2; ws++) {
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache TRITONC_LIBCUDA_PATH=%s FAKE_CUDA_LAUNCH=ok ./%s/tritonc run "
                 "tests/kernels/dot_mma.py dot_ws_kernel 'a_ptr=fp16:ones(64,64)' 'b_ptr=fp16:ones(64,64)' "
                 "'c_ptr=fp32:zeros(64,64)' K=64 BM=64 BN=64 BK=32 WS=%s --verbose",
                 test_build_dir(), fake, test_build_dir(), ws ? "True" : "False");
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, "launch: tl.dot on wgmma, 3 stages");
        CHECK((strstr(out, "warp_specialize ignored") != NULL) == ws);
    }
}

/* tests/kernels/flash_fwd.py's fa_fwd (BLOCK_M 128, BLOCK_N 64, head_dim 64) for sm_90a with
 * `warps` warps under TRITONC_GPU_UNVERIFIED=unver; cubin: the ptxas-assembled file's name
 * (NULL: the PTX, into out). Returns the exit status. */
static int compile_fa(const char *env, int warps, const char *cubin, char *out, size_t n) {
    char cmd[2048], emit[512] = "";
    if (cubin) snprintf(emit, sizeof emit, "--emit cubin -o %s/%s", test_build_dir(), cubin);
    snprintf(cmd, sizeof cmd,
             "%s TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile "
             "tests/kernels/flash_fwd.py fa_fwd --target cuda:90a --num-warps %d --num-stages 2 %s "
             "Q='*fp16:16' K='*fp16:16' V='*fp16:16' Out='*fp16:16' sm_scale=fp32 stride_m=i32:16 "
             "N_CTX=1024 HEAD_DIM=64 BLOCK_M=128 BLOCK_N=64",
             env, test_build_dir(), test_build_dir(), warps, emit);
    return test_run(cmd, out, n);
}

static int count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) n++;
    return n;
}

/* the lines with `what` from the first loop's label to `end` */
static int loop_count(const char *ptx, const char *what, const char *end) {
    const char *lo = strstr(ptx, "$L1:"), *hi = lo ? strstr(lo, end) : NULL;
    int n = 0;
    for (const char *p = lo; p && hi && (p = strstr(p, what)) != NULL && p < hi; p++) n++;
    return n;
}

/* Flash attention's P (the first dot's accumulator, scaled, exp2'd, cast to fp16) is the
 * second dot's A operand: on sm_90a wgmma takes it from registers (its k16 fragments are
 * that accumulator layout's registers) instead of a trip through shared memory. */
TEST(mma_wgmma_a_from_registers) {
    static char out[1 << 20];
    for (int w = 4; w <= 8; w += 4) {
        CHECK_INT(0, compile_fa("", w, NULL, out, sizeof out));
        /* QK^T from shared memory; P @ V with A from registers ("{acc}, {a regs}, descB") */
        CHECK_CONTAINS(out, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {");
        const char *rs = strstr(out, "}, {");
        CHECK(rs != NULL && strstr(out, "wgmma.mma_async") < rs);
        CHECK_CONTAINS(out, "1, 1, 1;");   /* scale-a, scale-b, B transposed */
        /* k.T: the loaded k tile, pipelined by cp.async, is B K-major (trans-b 0) */
        CHECK_CONTAINS(out, ", 1, 1, 0, 0;");
        /* q, computed before the loop, is stored into shared memory once before it (the
         * loop's label) rather than in every iteration */
        const char *loop = strstr(out, "$L1:"), *st = strstr(out, "st.shared.v4");
        CHECK(loop && st && st < loop);
        /* the key and value pointers' `(start_n + offs_n)[:, None] * stride_m` are recomputed
         * in the load's layout, not converted through shared memory with barriers of their
         * own (17 barriers from the loop's label on with those conversions), and the row
         * statistics (m_i, l_i and the tl.max / tl.sum of the scores) stay in the slice of the
         * accumulator's layout that the reductions leave them in (9 with their conversions):
         * the loop's barriers are the pipeline's own: 1 before the branch back, the top's,
         * which also frees the slot refilled there (the ring's extra slot, pipe.c's top) */
        CHECK_INT(1, loop_count(out, "bar.sync", "bra.uni $L1;"));
    }
    if (access("/usr/local/cuda/bin/ptxas", X_OK) != 0) return;
    CHECK_INT(0, compile_fa("", 8, "mma-fa.cubin", out, sizeof out));
}

/* Flash attention's P @ V (`acc = tl.dot(p, v, acc * alpha[:, None])`) stays in flight across
 * iterations, as Triton's does: the rescale writes into the loop's own accumulator registers,
 * the next iteration's QK^T wait (wait_group 0) finishes it, and the loop's end copies only
 * the row statistics, not the 64 accumulator registers; ptxas injects no wait of its own.
 * tl.math.exp2 is Triton's ex2.approx.ftz (without ftz ptxas adds a compare and two
 * multiplies to each). */
TEST(mma_attention_dot_in_flight) {
    static char out[1 << 20];
    CHECK_INT(0, compile_fa("", 4, NULL, out, sizeof out));
    CHECK_INT(1, loop_count(out, "wgmma.wait_group.sync.aligned 0;", "bra.uni $L1;"));
    CHECK_INT(1, loop_count(out, "wgmma.wait_group.sync.aligned 1;", "bra.uni $L1;"));
    const char *end = strstr(out, "bra.uni $L1;"), *lo = strstr(out, "$L1:");
    const char *w1 = lo ? strstr(lo, "wgmma.wait_group.sync.aligned 1;") : NULL;   /* P @ V's, the last */
    int movs = 0;
    for (const char *q = w1; q && (q = strstr(q, "mov.b32")) != NULL && q < end; q++) movs++;
    CHECK_INT(8, movs);   /* m_i and l_i: 4 rows each per thread */
    CHECK(count_of(out, "ex2.approx.ftz.f32") >= 64);
    CHECK_INT(0, count_of(out, "ex2.approx.f32"));
    /* ... unless its registers would not fit beside QK^T's: attention.py's forward (both of
     * its loops) at head_dim 128 and 128x128 on 4 warps holds 128 accumulator, 64 P and 128
     * QK^T registers per thread, and waits for P @ V in its iteration; on 8 warps, or at
     * head_dim 64 (256 registers), P @ V stays in flight */
    static const struct { int d, bn, warps, in_flight; } fits[] = {
        {128, 128, 4, 0}, {128, 128, 8, 2}, {64, 128, 4, 2}, {128, 64, 4, 2}};
    for (int i = 0; i < COUNT_OF_CASES(fits); i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile "
                 "tests/kernels/attention.py attn_fwd_lse --target cuda:90a --num-warps %d "
                 "--num-stages 3 Q='*fp16:16' K='*fp16:16' V='*fp16:16' Out='*fp16:16' M='*fp32:16' "
                 "sm_scale=fp32 N_CTX=1024 HEAD_DIM=%d BLOCK_M=128 BLOCK_N=%d STAGE=3",
                 test_build_dir(), test_build_dir(), fits[i].warps, fits[i].d, fits[i].bn);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_INT(fits[i].in_flight, count_of(out, "wgmma.wait_group.sync.aligned 1;"));
        CHECK_INT(4, count_of(out, "wgmma.wait_group.sync.aligned 0;"));
    }
    if (access("/usr/local/cuda/bin/ptxas", X_OK) != 0) return;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/flash_fwd.py "
             "fa_fwd --target cuda:90a --num-warps 4 --num-stages 2 Q='*fp16:16' K='*fp16:16' "
             "V='*fp16:16' Out='*fp16:16' sm_scale=fp32 stride_m=i32:16 N_CTX=1024 HEAD_DIM=64 "
             "BLOCK_M=128 BLOCK_N=64 -o %s/mma-fa-flight.ptx && /usr/local/cuda/bin/ptxas -arch=sm_90a -v "
             "%s/mma-fa-flight.ptx -o /dev/null 2>&1", test_build_dir(), test_build_dir(), test_build_dir(),
             test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK(strstr(out, "is injected") == NULL);
    CHECK_CONTAINS(out, " 0 bytes spill stores");
}

/* The epilogue as Triton's: the fp16 result leaves the accumulator's fragments (pairs of
 * columns, 4 bytes) through padded shared memory, and each thread stores 16 bytes at a time
 * (16 st.global.v4.b32 per thread for 128x128 on 4 warps). Its bytes are the pipeline ring's,
 * free after the loop, so 4 stages of 128x256x64 (the ring's 4 x 48 KiB) still have room.
 * Where the loop itself uses the scratch area (an operand staged each iteration) the ring
 * follows it; past the limit the compile is redone lean, storing from the fragments. */
TEST(mma_epilogue_through_shared_memory) {
    static char out[1 << 20];
    char cmd[2048];
    const char *targets[] = {"cuda:80", "cuda:90a"};
    for (int t = 0; t < 2; t++) {
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py "
                 "dot_epilogue_kernel --target %s --num-warps 4 --num-stages 3 a_ptr='*fp16:16' "
                 "b_ptr='*fp16:16' c_ptr='*fp16:16' M=i32 N=i32:16 K=i32:16 BM=128 BN=128 BK=32",
                 test_build_dir(), test_build_dir(), targets[t]);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_INT(16, count_of(out, "st.global.v4.b32"));
        CHECK_INT(16, count_of(out, "st.global"));
        /* 128 elements per thread: 64 pairs in, 32 runs of 4 out */
        CHECK_INT(64, count_of(out, "st.shared.v2.b16"));
        CHECK_INT(32, count_of(out, "ld.shared.v4.b16"));
    }
    snprintf(cmd, sizeof cmd,
             "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py "
             "dot_epilogue_kernel --target cuda:90a --num-warps 8 --num-stages 4 a_ptr='*fp16:16' "
             "b_ptr='*fp16:16' c_ptr='*fp16:16' M=i32 N=i32:16 K=i32:16 BM=128 BN=256 BK=64 --verbose 2>&1",
             test_build_dir(), test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "196608 bytes of shared memory");   /* the ring's 4 x 48 KiB alone */
    CHECK_INT(16, count_of(out, "st.global.v4.b32"));
    static const struct { int stages, v4, b32; const char *bytes; } c[] = {
        {3, 16, 0, "133120 bytes"},   /* 66 KiB of scratch (A's room, then the epilogue's), 2 x 32 KiB of B */
        {12, 0, 64, "204800 bytes"},  /* 66 + 11 x 16 KiB is past 227 KiB: lean, 24 + 11 x 16 */
    };
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py "
                 "dot_staged_a_kernel --target cuda:90a --num-warps 8 --num-stages %d a_ptr='*fp16:16' "
                 "b_ptr='*fp16:16' c_ptr='*fp16:16' M=i32 N=i32:16 K=i32:16 BM=128 BN=256 BK=%d --verbose 2>&1",
                 test_build_dir(), test_build_dir(), c[i].stages, i ? 32 : 64);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, c[i].bytes);
        CHECK_INT(c[i].v4, count_of(out, "st.global.v4.b32"));
        CHECK_INT(c[i].b32, count_of(out, "st.global.b32"));
    }
}

/* A wgmma left in flight over a ring of cp.async copies takes one slot more than the
 * stages (pipe.c's top) and refills at the iteration's top, where its one bar.sync has shown
 * the slot of two iterations back done: one barrier per iteration, not two. Only where the
 * programs per SM stay as many (gpu_compile; registers estimated from the accumulators): at
 * 64x128x64 on 4 warps, 4 stages, the fifth slot would halve them (2 to 1), and at
 * 128x256x64 on 8 warps, 4 stages, it would pass the 227 KiB limit. */
TEST(mma_ring_top_slot) {
    static const struct { int w, s, bm, bn, bk; const char *bytes; int bars; } c[] = {
        {8, 3, 128, 256, 64, "196608 bytes of shared memory", 1},   /* 4 slots of 48 KiB */
        {4, 3, 128, 128, 32, "65536 bytes of shared memory", 1},    /* 4 of 16 KiB: 3 programs either way */
        {4, 4, 64, 128, 64, "98304 bytes of shared memory", 2},     /* 4 of 24 KiB, not 5 */
        {8, 4, 128, 256, 64, "196608 bytes of shared memory", 2},   /* 4 of 48 KiB, not 5 */
    };
    static char out[1 << 20];
    char cmd[2048];
    for (int i = 0; i < (int)(sizeof c / sizeof c[0]); i++) {
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/matmul.py matmul_kernel "
                 "--target cuda:90a --num-warps %d --num-stages %d a_ptr='*fp16:16' b_ptr='*fp16:16' "
                 "c_ptr='*fp16:16' M=i32:16 N=i32:16 K=i32:16 stride_am=i32:16 stride_ak=1 stride_bk=i32:16 "
                 "stride_bn=1 stride_cm=i32:16 stride_cn=1 BLOCK_SIZE_M=%d BLOCK_SIZE_N=%d BLOCK_SIZE_K=%d "
                 "GROUP_SIZE_M=8 ACTIVATION='\"\"' --verbose -o %s/mma-top.ptx 2>&1 && cat %s/mma-top.ptx",
                 test_build_dir(), test_build_dir(), c[i].w, c[i].s, c[i].bm, c[i].bn, c[i].bk, test_build_dir(),
                 test_build_dir());
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, c[i].bytes);
        CHECK_INT(c[i].bars, loop_count(out, "bar.sync", "bra.uni $L1;"));
        /* with the extra slot the copies come before the dots, right after the top's barrier */
        CHECK_INT(c[i].bars == 1, loop_count(out, "cp.async.commit_group", "wgmma.mma_async"));
    }
}

/* The ring's extra slot in pointer-based flash attention (tests/kernels/flash_fwd.py). Its
 * occupancy check counts p, the second dot's A held in registers, besides the accumulators:
 * at 64x64 on 4 warps, 2 stages, registers already allow 4 programs per SM, so the slot (56
 * KiB in all, not 40) costs none and is taken; at head_dim 128, 128x64, it would cost one
 * (2 programs to 1) and is not. With the copies two iterations ahead (3 stages) the refill
 * follows the issue of the first dot, q @ k.T, and comes before its wait; one iteration ahead,
 * before it, right after the top's barrier. */
TEST(mma_attention_top_slot) {
    static const struct { int d, bm, bn, s; const char *bytes; int bars; bool late; } c[] = {
        {64, 64, 64, 2, "57344 bytes of shared memory", 1, false},
        {64, 128, 64, 3, "81920 bytes of shared memory", 1, true},
        {128, 128, 64, 2, "98304 bytes of shared memory", 2, false},
    };
    static char out[1 << 20];
    char cmd[2048];
    for (int i = 0; i < (int)(sizeof c / sizeof c[0]); i++) {
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/flash_fwd.py fa_fwd "
                 "--target cuda:90a --num-warps 4 --num-stages %d Q='*fp16:16' K='*fp16:16' V='*fp16:16' "
                 "Out='*fp16:16' sm_scale=fp32 stride_m=i32:16 N_CTX=1024 HEAD_DIM=%d BLOCK_M=%d BLOCK_N=%d "
                 "--verbose -o %s/mma-fa-top.ptx 2>&1 && cat %s/mma-fa-top.ptx",
                 test_build_dir(), test_build_dir(), c[i].s, c[i].d, c[i].bm, c[i].bn, test_build_dir(),
                 test_build_dir());
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, c[i].bytes);
        CHECK_INT(c[i].bars, loop_count(out, "bar.sync", "bra.uni $L1;"));
        const char *lo = strstr(out, "$L1:");
        const char *issued = lo ? strstr(lo, "wgmma.commit_group") : NULL;
        const char *copies = lo ? strstr(lo, "cp.async.commit_group") : NULL;
        const char *waited = issued ? strstr(issued, "wgmma.wait_group") : NULL;
        CHECK(issued && copies && waited);
        if (!issued || !copies || !waited) continue;
        if (c[i].bars == 2) CHECK(copies > waited);   /* no extra slot: after the second barrier */
        else if (c[i].late) CHECK(copies > issued && copies < waited);
        else CHECK(copies < issued);
    }
}

/* The tutorial matmul's pointer steps: `BLOCK_SIZE_K * stride_bk` leaves the loop
 * (ir_optimize) and its byte offset is computed once before it; B's tile is kept as its first
 * pointers plus one carried offset, added into fresh registers before the copies (ptrbase), so
 * the loop neither multiplies again nor rewrites a pointer a copy has just read: after the
 * copies, A's 4 steps and B's offset; only A's 4 pointers are copied back. The copies come
 * at the iteration's top, right after its one bar.sync (the ring's extra slot, top). */
TEST(mma_pointer_steps) {
    static char out[1 << 20];
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile "
             "tests/kernels/matmul.py matmul_kernel --target cuda:90a --num-warps 8 --num-stages 3 "
             "a_ptr='*fp16:16' b_ptr='*fp16:16' c_ptr='*fp16:16' M=i32:16 N=i32:16 K=i32:16 "
             "stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 "
             "stride_cn=1 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 "
             "ACTIVATION='\"\"' -o %s/mma-steps.ptx && cat %s/mma-steps.ptx",
             test_build_dir(), test_build_dir(), test_build_dir(), test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    /* in the loop, A's constant steps only (8: the pipelined pointers' and the loop's own,
     * which ptxas drops); without the hoisted step, B's 16 more multiplied stride_bk */
    CHECK_INT(8, loop_count(out, "mul.wide", "bra.uni $L1;"));
    CHECK_INT(1, loop_count(out, "bar.sync", "bra.uni $L1;"));
    CHECK_INT(1, loop_count(out, "cp.async.commit_group", "wgmma.mma_async"));
    CHECK_INT(8, loop_count(out, "add.s64", "cp.async.cg"));   /* B's 8 from base + offset */
    CHECK_INT(16, loop_count(out, "mov.b64", "bra.uni $L1;"));   /* A's 4 ahead, the loop's 12 */
    const char *lo = strstr(out, "$L1:"), *commit = lo ? strstr(lo, "cp.async.commit_group") : NULL;
    const char *end = commit ? strstr(commit, "mov.b64") : NULL;
    int after = 0;
    for (const char *q = commit; q && end && (q = strstr(q, "add.s64")) != NULL && q < end; q++) after++;
    CHECK_INT(5, after);
    if (access("/usr/local/cuda/bin/ptxas", X_OK) != 0) return;
    snprintf(cmd, sizeof cmd, "/usr/local/cuda/bin/ptxas -arch=sm_90a -v %s/mma-steps.ptx -o /dev/null 2>&1",
             test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, " 0 bytes spill stores");
}

/* fp8 on wgmma, the tutorial's fp8 config: B given transposed (contiguous along K) is copied
 * by cp.async into its transpose, K-major as 8-bit wgmma wants both operands, A in runs of 16
 * bytes; k32 steps, in flight across iterations, no spill (mma.sync: 255 registers, 5 KB
 * spilled). B contiguous along N stays on mma.sync. */
TEST(mma_fp8_wgmma) {
    static char out[1 << 20];
    char cmd[2048];
    static const struct { const char *env, *bs, *want; } c[] = {
        {"", "stride_bk=1 stride_bn=i32:16", "wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e5m2 {"},
        {"DISABLE_MMA_V3=1", "stride_bk=1 stride_bn=i32:16", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"},
        {"", "stride_bk=i32:16 stride_bn=1", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"},
    };
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd,
                 "%s TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/matmul.py matmul_kernel "
                 "--target cuda:90a --num-warps 8 --num-stages 3 a_ptr='*fp8e5:16' b_ptr='*fp8e5:16' "
                 "c_ptr='*fp16:16' M=i32:16 N=i32:16 K=i32:16 stride_am=i32:16 stride_ak=1 %s "
                 "stride_cm=i32:16 stride_cn=1 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=128 "
                 "GROUP_SIZE_M=8 ACTIVATION='\"\"' -o %s/mma-fp8-%d.ptx && cat %s/mma-fp8-%d.ptx",
                 c[i].env, test_build_dir(), test_build_dir(), c[i].bs, test_build_dir(), i, test_build_dir(), i);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, c[i].want);
        if (i) continue;
        CHECK_CONTAINS(out, "wgmma.wait_group.sync.aligned 1;");   /* in flight */
        CHECK_INT(36, count_of(out, "cp.async.cg.shared.global"));  /* 4 A + 8 B per stage, 3 times */
    }
    if (access("/usr/local/cuda/bin/ptxas", X_OK) != 0) return;
    snprintf(cmd, sizeof cmd, "/usr/local/cuda/bin/ptxas -arch=sm_90a -v %s/mma-fp8-0.ptx -o /dev/null 2>&1",
             test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, " 0 bytes spill stores");
}

/* `acc += tl.dot(a, b)` (dot_epilogue_kernel): the dot accumulates into acc itself, so the
 * 128x128 fp32 tile is held once, not twice, and no `add.f32` of the two copies remains (128
 * per thread without the fold); ptxas then fits the kernel without spilling on sm_90a (192
 * bytes spilled without it). */
TEST(mma_acc_plus_dot_folded) {
    static char out[1 << 20];
    char cmd[2048];
    const char *targets[] = {"cuda:80", "cuda:90a"};
    for (int t = 0; t < 2; t++) {
        snprintf(cmd, sizeof cmd,
                 "TRITON_DEFAULT_FP_FUSION=0 TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile "
                 "tests/kernels/dot_mma.py dot_epilogue_kernel --target %s --num-warps 4 --num-stages 3 "
                 "a_ptr='*fp16:16' b_ptr='*fp16:16' c_ptr='*fp16:16' M=i32 N=i32:16 K=i32:16 BM=128 "
                 "BN=128 BK=32", test_build_dir(), test_build_dir(), targets[t]);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        int adds = 0;
        for (const char *p = out; (p = strstr(p, "add.rn.f32")) != NULL; p++) adds++;
        CHECK_INT(0, adds);
        CHECK_CONTAINS(out, t ? "wgmma.mma_async" : "mma.sync.aligned");
        /* and on sm_90a the folded wgmma stays in flight into the next iteration, as
         * `acc = tl.dot(a, b, acc)` does */
        if (t) CHECK_CONTAINS(out, "wgmma.wait_group.sync.aligned 1;");
    }
    if (access("/usr/local/cuda/bin/ptxas", X_OK) != 0) return;
    snprintf(cmd, sizeof cmd,
             "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile "
             "tests/kernels/dot_mma.py dot_epilogue_kernel --target cuda:90a --num-warps 4 --num-stages 3 "
             "a_ptr='*fp16:16' b_ptr='*fp16:16' c_ptr='*fp16:16' M=i32 N=i32:16 K=i32:16 BM=128 BN=128 "
             "BK=32 -o %s/mma-fold.ptx && /usr/local/cuda/bin/ptxas -arch=sm_90a -v %s/mma-fold.ptx "
             "-o /dev/null 2>&1", test_build_dir(), test_build_dir(), test_build_dir(), test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, " 0 bytes spill stores");
}

/* fp32 adds, subtracts and multiplies carry no rounding modifier, so ptxas may contract them
 * into fmas as Triton's enable_fp_fusion (its default) lets it (flash attention's `qk *
 * qk_scale - m_ij[:, None]`); with TRITON_DEFAULT_FP_FUSION=0 they are `.rn` (exact, as the
 * interpreter computes them). */
TEST(mma_fp_fusion_default) {
    static char out[1 << 20];
    int rn[2], plain[2];
    for (int u = 0; u < 2; u++) {
        CHECK_INT(0, compile_fa(u ? "" : "TRITON_DEFAULT_FP_FUSION=0", 4, NULL, out, sizeof out));
        rn[u] = plain[u] = 0;
        for (const char *p = out; (p = strstr(p, "mul.rn.f32")) != NULL; p++) rn[u]++;
        for (const char *p = out; (p = strstr(p, "mul.f32 ")) != NULL; p++) plain[u]++;
    }
    CHECK(rn[0] > 0 && plain[0] == 0);
    CHECK(plain[1] > 0 && rn[1] < rn[0]);
}

/* A loop-invariant dot operand (attention's q) staged once takes shared memory of its own:
 * where that crosses the target's limit, the compile is redone with it staged each
 * iteration (and first without the room taken for speed: padded conversions, the output
 * through shared memory). attn_fwd_lse with head_dim 128 on 1 warp needs 115712 bytes with q
 * staged once and the output stored through shared memory: fine on sm_90a (227 KB), over
 * sm_120's 101376, where it then fits in 98304. */
TEST(mma_invariant_operands_give_way_to_the_limit) {
    static char out[1 << 16];
    char cmd[2048];
    static const struct { const char *target; const char *bytes; } c[] = {
        {"cuda:90a", "115712 bytes of shared memory"}, {"cuda:120", "98304 bytes of shared memory"}};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/attention.py attn_fwd_lse "
                 "--target %s --num-warps 1 Q='*fp16:16' K='*fp16:16' V='*fp16:16' Out='*fp16:16' "
                 "M='*fp32:16' sm_scale=fp32 N_CTX=128 HEAD_DIM=128 BLOCK_M=64 BLOCK_N=64 STAGE=1 --verbose "
                 "-o %s/mma-lse.ptx 2>&1",
                 test_build_dir(), test_build_dir(), c[i].target, test_build_dir());
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, c[i].bytes);
    }
}

/* TRITONC_GPU_UNVERIFIED names its areas one by one, so that one GPU run can check each
 * apart; "1" and "all" mean every one. */
TEST(mma_unverified_areas) {
    static const struct { const char *v; unsigned mask; } c[] = {
        {"", 0}, {"0", 0}, {"1", GPU_UNV_ALL}, {"all", GPU_UNV_ALL}, {"tma1d", GPU_UNV_TMA1D},
        {"bogus,tma1d,", GPU_UNV_TMA1D}, {"tma1dx", 0}, {"tma", 0}, {"math", 0},
        {"rowslice,tma1d", GPU_UNV_TMA1D}, {"accfold", 0}, {"fp8wgmma", 0},
        {"stepapart", 0}, {"ptrbase,tma1d", GPU_UNV_TMA1D},   /* ptrbase passed on the H200, stepapart was dropped */
        {"tmaring", 0}, {"multiuse,tma1d", GPU_UNV_TMA1D},   /* both passed on the H200 */
        {"tma1d,tmaring,multiuse", GPU_UNV_TMA1D}, {"invshare", GPU_UNV_INVSHARE},
        {"tma1d,invshare", GPU_UNV_ALL},
        {"barrefill", 0}, {"topslot", 0},   /* trials of 2026-12-03: passed on the H200, now the default */
        {"topafter", 0}, {"topregs", 0},    /* likewise, later that day (gpu-2026-12-03.md §10) */
    };
    /* the caller's setting, copied: setenv may free the string getenv gave */
    const char *env = getenv("TRITONC_GPU_UNVERIFIED");
    char had[64] = "";
    bool was_set = env != NULL;
    if (env) snprintf(had, sizeof had, "%s", env);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        setenv("TRITONC_GPU_UNVERIFIED", c[i].v, 1);
        CHECK_INT(c[i].mask, gpu_unverified());
    }
    if (was_set) setenv("TRITONC_GPU_UNVERIFIED", had, 1);
    else unsetenv("TRITONC_GPU_UNVERIFIED");
}

/* A wgmma is left in flight into the next iteration only when both operands are in the
 * pipeline's ring: an operand staged in the scratch area each iteration would be written
 * while the previous wgmma still reads it. */
TEST(mma_wgmma_in_flight_only_from_ring) {
    static char out[1 << 20];
    char cmd[2048];
    const char *kernels[] = {"dot_ws_kernel", "dot_scaled_a_kernel"};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_mma.py %s "
                 "--target cuda:90a --num-warps 4 --num-stages 3 a_ptr='*fp16:16' b_ptr='*fp16:16' "
                 "c_ptr='*fp32:16' K=i32:16 BM=64 BN=64 BK=32%s",
                 test_build_dir(), test_build_dir(), kernels[i], i ? "" : " WS=False");
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, "wgmma.mma_async");
        /* both loads pipelined: in flight (wait_group 1); A computed: waited for (0) */
        CHECK((strstr(out, "wgmma.wait_group.sync.aligned 1;") != NULL) == (i == 0));
    }
}

/* dot_tc.py's dot_colscale_loop_kernel (3 stages, N and K multiples of 16): the loop's row
 * of fp32 scales, read by no dot, goes into the pipeline's ring with the dot's tiles
 * (cp.async.ca: under 16 bytes a thread) and is read back into registers from there
 * (pipe_load), so the loop loads nothing from global memory itself; each scale is copied by
 * one of the threads that hold it (the copies predicated); for sm_90a (wgmma) and
 * sm_80 (mma.sync), and ptxas accepts both. On the interpreter (ragged N):
 * test_kernels_dot_tc.c's kern_dot_loop_register_load. */
TEST(mma_pipe_register_load) {
    static char out[1 << 20];
    static const char *const targets[][2] = {{"cuda:90a", "sm_90a"}, {"cuda:80", "sm_80"}};
    for (int t = 0; t < 2; t++) {
        char cmd[2048], path[256];
        snprintf(path, sizeof path, "%s/mma-colscale-%s.ptx", test_build_dir(), targets[t][1]);
        snprintf(cmd, sizeof cmd,
                 "TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile tests/kernels/dot_tc.py "
                 "dot_colscale_loop_kernel --target %s --num-warps 4 -o %s a_ptr='*fp16:16' b_ptr='*fp16:16' "
                 "s_ptr='*fp32:16' c_ptr='*fp32:16' M=i32 N=i32:16 K=i32:16 BM=64 BN=32 BK=16 STAGES=3",
                 test_build_dir(), test_build_dir(), targets[t][0], path);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        char *ptx = kt_read(path);
        CHECK(ptx != NULL);
        if (!ptx) continue;
        CHECK(count_of(ptx, "cp.async.ca.shared.global") > 0);
        /* the threads of a column hold the same scale: one of them copies it, under the
         * unique-thread predicate ("@%p.. cp.async"; B's tile has no copies to spare) */
        CHECK(count_of(ptx, " cp.async.ca.shared.global") > 0);
        CHECK_INT(0, loop_count(ptx, "ld.global", "bra.uni $L1;"));
        free(ptx);
        if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0) {
            snprintf(cmd, sizeof cmd, "/usr/local/cuda/bin/ptxas -arch=%s %s -o /dev/null", targets[t][1], path);
            CHECK_INT(0, test_run(cmd, out, sizeof out));
        }
    }
}

/* invshare and a run-time branch (dot_tc.py's dot_two_loops_kernel, sm_90a): `a` is read by
 * the dots of two loops. When the first always runs (BOTH, a constexpr) `a` is staged once,
 * before it, and the second reads it there; when the first sits under a run-time `if`, the
 * second stages it again, since the first may not have. Without invshare, each loop stages
 * it. Counted: the stores that stage `a` ([64, 16] fp16, 4 warps: one 16-byte store a
 * thread). */
TEST(mma_invshare_branch) {
    static char out[1 << 20];
    int stores[2][2];   /* [invshare][BOTH] */
    for (int on = 0; on < 2; on++)
        for (int both = 0; both < 2; both++) {
            char cmd[2048], path[256];
            snprintf(path, sizeof path, "%s/mma-invshare%d-%d.ptx", test_build_dir(), on, both);
            snprintf(cmd, sizeof cmd,
                     "TRITONC_GPU_UNVERIFIED=%s TRITONC_CACHE_DIR=%s/mma-cache ./%s/tritonc compile "
                     "tests/kernels/dot_tc.py dot_two_loops_kernel --target cuda:90a --num-warps 4 -o %s "
                     "a_ptr='*fp16:16' b_ptr='*fp16:16' c_ptr='*fp32:16' K=i32:16 FIRST=i32 BM=64 BN=32 BK=16 "
                     "BOTH=%s",
                     on ? "invshare" : "0", test_build_dir(), test_build_dir(), path, both ? "True" : "False");
            CHECK_INT(0, test_run(cmd, out, sizeof out));
            char *ptx = kt_read(path);
            CHECK(ptx != NULL);
            stores[on][both] = ptx ? count_of(ptx, "st.shared.v4.b32") : -1;
            if (ptx && access("/usr/local/cuda/bin/ptxas", X_OK) == 0) {
                snprintf(cmd, sizeof cmd, "/usr/local/cuda/bin/ptxas -arch=sm_90a %s -o /dev/null", path);
                CHECK_INT(0, test_run(cmd, out, sizeof out));
            }
            free(ptx);
        }
    CHECK_INT(stores[0][0], stores[1][0]);       /* under the `if`: staged by each loop */
    CHECK_INT(stores[0][1] - 1, stores[1][1]);   /* always run: once */
}
