/* test_tma.c — host tensor descriptors through TMA on sm_90a: desc.load / desc.store lowered
 * to cp.async.bulk.tensor with an mbarrier and the tensor map as a 128-byte, 64-aligned
 * .param; the ordinary path on sm_80 and where TMA cannot express the descriptor; ptxas
 * assembles all of it; and the tensor map the runtime encodes at launch (the fake libcuda's
 * cuTensorMapEncodeTiled records its arguments), checked against hand-computed values.
 * Kernels: tests/kernels/tma.py. */
#include "test.h"
#include "test_child.h"
#include "tritonc.h"
#include "gpu/gpu.h"
#include "trace/trace.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *TFILE = "tests/kernels/tma.py";

/* A host descriptor's specialization: block, shape, strides (elements). */
static TDesc desc2(int b0, int b1, int64_t s0, int64_t s1, int64_t st0) {
    TDesc d = {0};
    d.rank = 2;
    d.block[0] = b0; d.block[1] = b1;
    d.shape[0] = s0; d.shape[1] = s1;
    d.strides[0] = st0; d.strides[1] = 1;
    return d;
}

static SpecArg dptr(int dt, const TDesc *d, bool div16) {
    SpecArg a;
    memset(&a, 0, sizeof a);
    a.type = type_ptr(dt);
    a.div16 = div16;
    a.desc = d;
    return a;
}

static SpecArg cint(int64_t v) {
    SpecArg a;
    memset(&a, 0, sizeof a);
    a.is_constexpr = true;
    a.cv = cv_int(v);
    return a;
}

static SpecArg rint32(void) {
    SpecArg a;
    memset(&a, 0, sizeof a);
    a.type = type_scalar(DT_I32);
    return a;
}

/* ptxas -arch=ARCH on ptx: 0 when it assembles (or there is no ptxas), else its status with
 * the log printed. */
static int ptxas(const char *ptx, const char *arch) {
    const char *px = getenv("TRITONC_PTXAS");
    if (!px || !*px) px = "/usr/local/cuda/bin/ptxas";
    if (access(px, X_OK) != 0) return 0;
    char path[] = "/tmp/tc_tma_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    if (write(fd, ptx, strlen(ptx)) < 0) {}
    close(fd);
    char cmd[512];
    static char out[8192];
    snprintf(cmd, sizeof cmd, "%s -arch=%s %s -o /dev/null", px, arch, path);
    int rc = test_run(cmd, out, sizeof out);
    if (rc) printf("ptxas -arch=%s:\n%s\n", arch, out);
    unlink(path);
    return rc;
}

/* Whether a tile address is ever added to itself, `mad.lo.u32 A, T, size, A`: a TMA tile's
 * address once came out so when the thread's flat index was first computed while E's
 * arguments were being named (rn's buffers rotate), and the GPU faulted on the misaligned
 * shared address. The address adds the shared-memory base, never itself. */
static bool self_added_address(const char *ptx) {
    for (const char *p = ptx ? strstr(ptx, "mad.lo.u32 %r") : NULL; p; p = strstr(p + 1, "mad.lo.u32 %r")) {
        int a, t, k, b;
        if (sscanf(p, "mad.lo.u32 %%r%d, %%r%d, %d, %%r%d;", &a, &t, &k, &b) == 4 && a == b) return true;
    }
    return false;
}

/* Kernel `name` of tests/kernels/tma.py specialized on args, lowered for cuda:<arch>(a);
 * malloc'd PTX, NULL (with the error printed) on failure. */
static const char *lower_unverified;   /* TRITONC_GPU_UNVERIFIED for lower(), NULL: unset */
static int lower_stages = 3;           /* num_stages for lower() */
static bool lower_scratch = true;      /* gpu_compile's global_scratch for lower() */
static const char *lower_file = "tests/kernels/tma.py";   /* the kernels lower() reads */

static char *lower(const char *name, const SpecArg *args, int arch, int num_warps) {
    Err e = {0};
    Source *s = source_read_file(lower_file, &e);
    if (!s) { printf("%s\n", e.msg); return NULL; }
    Module *m = parse_module(s, &e);
    char *ptx = NULL;
    if (m) {
        Arena a;
        arena_init(&a, &e);
        IrFunc *f = trace_kernel(m, module_find(m, name), args, &a, &e, NULL);
        if (f) {
            tc_target tg = {"cuda", arch, 32, arch >= 90};
            GpuKernel gk = {0};
            const char *had = getenv("TRITONC_GPU_UNVERIFIED");
            char keep[64] = "";
            if (had) snprintf(keep, sizeof keep, "%s", had);
            if (lower_unverified) setenv("TRITONC_GPU_UNVERIFIED", lower_unverified, 1);
            else unsetenv("TRITONC_GPU_UNVERIFIED");
            if (gpu_compile(f, &tg, num_warps, lower_stages, 0, lower_scratch, &gk, &e) == TC_OK) { ptx = gk.ptx; gk.ptx = NULL; }
            if (had) setenv("TRITONC_GPU_UNVERIFIED", keep, 1);
            else unsetenv("TRITONC_GPU_UNVERIFIED");
            gpu_kernel_free(&gk);
        }
        arena_free(&a);
        module_free(m);
    }
    if (!ptx) printf("%s: %s\n", name, e.msg);
    else CHECK(!self_added_address(ptx));
    source_free(s);
    return ptx;
}


static int count(const char *hay, const char *needle) { return test_count(hay, needle); }

#define BULK_LOAD "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
#define BULK_STORE "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"

/* The predicate of the line at p ("@%pN ..."), in name; false when the line has none */
static bool line_pred(const char *ptx, const char *p, char *name, size_t n) {
    while (p > ptx && p[-1] != '\n') p--;
    while (*p == '\t' || *p == ' ') p++;
    if (*p != '@') return false;
    size_t k = strcspn(p + 1, " \t");
    if (k + 1 > n) return false;
    memcpy(name, p + 1, k);
    name[k] = 0;
    return true;
}

/* Every TMA load copy and barrier arm is issued under a predicate from elect.sync in warp 0
 * (issuer in src/gpu/tma.c), not under thread 0's (mbarrier.init's), with which ptxas looped
 * over the lanes around each copy */
static bool copies_elected(const char *ptx) {
    char leader[32], q[32], def[64];
    const char *init = strstr(ptx, "mbarrier.init.shared::cta.b64");
    if (!init || !line_pred(ptx, init, leader, sizeof leader)) return false;
    if (!strstr(ptx, "elect.sync _|") || !strstr(ptx, "shfl.sync.idx.b32")) return false;
    int n = 0;
    const char *what[2] = {BULK_LOAD, "mbarrier.arrive.expect_tx"};
    for (int w = 0; w < 2; w++)
        for (const char *p = strstr(ptx, what[w]); p; p = strstr(p + 1, what[w]), n++) {
            if (!line_pred(ptx, p, q, sizeof q) || !strcmp(q, leader)) return false;
            snprintf(def, sizeof def, "and.pred %s, ", q);
            const char *d = strstr(ptx, def);
            if (!d || d > p) return false;
        }
    return n > 0;
}

TEST(tma_tile_sm90a_uses_tma) {
    /* fp16 100x72 (row stride 72: 144 bytes) through 32x64 blocks: TMA-expressible */
    TDesc d = desc2(32, 64, 100, 72, 72);
    SpecArg args[4] = {dptr(DT_FP16, &d, true), dptr(DT_FP16, &d, true), cint(32), cint(64)};
    char *ptx = lower("tile_scale", args, 90, 4);
    CHECK(ptx != NULL);
    if (!ptx) return;
    if (getenv("TMA_DUMP")) puts(ptx);   /* TMA_DUMP=1: show the PTX */
    CHECK_INT(1, count(ptx, BULK_LOAD));
    CHECK_INT(1, count(ptx, BULK_STORE));
    CHECK(copies_elected(ptx));
    CHECK_INT(1, count(ptx, "mbarrier.init.shared::cta.b64"));
    CHECK_INT(1, count(ptx, "mbarrier.arrive.expect_tx.shared::cta.b64"));
    /* the tile's bytes: 32 * 64 * 2 */
    CHECK_CONTAINS(ptx, "], 4096;");
    CHECK_INT(1, count(ptx, "mbarrier.try_wait.parity.shared::cta.b64"));
    CHECK_INT(1, count(ptx, "fence.proxy.async.shared::cta;") >= 2);
    CHECK_INT(1, count(ptx, "cp.async.bulk.commit_group"));
    CHECK_INT(1, count(ptx, "cp.async.bulk.wait_group.read 0"));
    /* both maps by value, 64-aligned, after the two pointers; the store's with the 128-byte
     * swizzle (its rows are 128 bytes): the tile is written as a dot's operand is, without
     * bank conflicts */
    CHECK_CONTAINS(ptx, ".param .u64 tile_scale_param_1,\n\t.param .align 64 .b8 tile_scale_tma_0_0[128],\n"
                        "\t.param .align 64 .b8 tile_scale_tma_1_3[128]\n)");
    CHECK_CONTAINS(ptx, "cvta.param.u64");
    /* the tile read and written 16 bytes at a time (8 fp16 per thread in a row) */
    CHECK_INT(2, count(ptx, "ld.shared.v4.b32"));
    CHECK_INT(2, count(ptx, "st.shared.v4.b32"));
    CHECK_INT(0, count(ptx, "ld.shared.b16"));
    /* no per-element global loads or stores of the block remain */
    CHECK_INT(0, count(ptx, "ld.global"));
    CHECK_INT(0, count(ptx, "st.global"));
    CHECK_CONTAINS(ptx, ".target sm_90a");
    GpuTmap maps[GPU_MAX_TMAPS];
    CHECK_INT(2, gpu_tma_maps(ptx, "tile_scale", maps));
    CHECK(maps[0].param == 0 && maps[0].swizzle == 0 && maps[1].param == 1 && maps[1].swizzle == 3);
    CHECK_INT(0, ptxas(ptx, "sm_90a"));
    free(ptx);
}

TEST(tma_tile_sm80_ordinary) {
    TDesc d = desc2(32, 64, 100, 72, 72);
    SpecArg args[4] = {dptr(DT_FP16, &d, true), dptr(DT_FP16, &d, true), cint(32), cint(64)};
    char *ptx = lower("tile_scale", args, 80, 4);
    CHECK(ptx != NULL);
    if (!ptx) return;
    CHECK_INT(0, count(ptx, "cp.async.bulk"));
    CHECK_INT(0, count(ptx, "mbarrier"));
    CHECK_INT(0, count(ptx, ".align 64 .b8"));
    CHECK(count(ptx, "ld.global") > 0 && count(ptx, "st.global") > 0);
    GpuTmap maps[GPU_MAX_TMAPS];
    CHECK_INT(0, gpu_tma_maps(ptx, "tile_scale", maps));
    CHECK_INT(0, ptxas(ptx, "sm_80"));
    free(ptx);
}

TEST(tma_fallbacks_on_sm90a) {
    /* what TMA cannot express keeps the ordinary masked accesses on sm_90a too */
    struct { const char *why; TDesc d; int dt; bool div16; } cases[] = {
        {"row stride of 24 bytes (fp32 x 6)", desc2(4, 4, 5, 6, 6), DT_FP32, true},
        {"inner block of 8 bytes (fp32 x 2)", desc2(4, 2, 8, 8, 8), DT_FP32, true},
        {"base not 16-byte aligned", desc2(16, 16, 64, 64, 64), DT_FP32, false},
        {"block dimension 512 > 256", desc2(512, 8, 1024, 64, 64), DT_FP16, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SpecArg args[4] = {dptr(cases[i].dt, &cases[i].d, cases[i].div16),
                           dptr(cases[i].dt, &cases[i].d, cases[i].div16),
                           cint(cases[i].d.block[0]), cint(cases[i].d.block[1])};
        char *ptx = lower("tile_scale", args, 90, 4);
        CHECK(ptx != NULL);
        if (!ptx) continue;
        if (count(ptx, "cp.async.bulk") || count(ptx, ".align 64 .b8")) {
            printf("TMA used despite: %s\n", cases[i].why);
            CHECK(0);
        }
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
}

/* Descriptors the kernel makes: on sm_90a their maps are filled by the kernel in the launch's
 * scratch area (tensormap.replace, 128 bytes per map and program) where the row stride is
 * known to be a multiple of 16 bytes; else, on sm_80, and for ahead-of-time code (no scratch
 * area), ordinary loads and stores. */
TEST(tma_for_descriptors_made_in_the_kernel) {
    SpecArg ptr = dptr(DT_FP32, NULL, true), n16 = rint32();
    n16.div16 = true;
    SpecArg args[6] = {ptr, ptr, rint32(), n16, cint(16), cint(16)};
    char *ptx = lower("made_tile", args, 90, 4);
    CHECK(ptx != NULL);
    if (ptx) {
        CHECK_INT(2, count(ptx, "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu"));
        CHECK_INT(2, count(ptx, "fence.proxy.tensormap::generic.acquire.gpu"));
        CHECK_INT(2, count(ptx, "tensormap.replace.tile.global_address"));
        CHECK_INT(4, count(ptx, "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r") );
        CHECK_INT(2, count(ptx, "tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%r"));
        CHECK_CONTAINS(ptx, ".b1024.b32 [%r");
        CHECK_INT(1, count(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global"));
        CHECK_INT(1, count(ptx, "cp.async.bulk.tensor.2d.global.shared::cta"));
        CHECK_INT(0, count(ptx, "ld.global"));
        CHECK_CONTAINS(ptx, ".param .u64 made_tile_scratch_256\n)");
        CHECK_INT(256, gpu_scratch_bytes(ptx, "made_tile"));
        CHECK_INT(0, count(ptx, ".align 64 .b8"));   /* no map parameter */
        /* the two maps filled by warps 0 and 1 at once: no barrier between them */
        const char *f0 = strstr(ptx, "tensormap.cp_fenceproxy"), *c0 = strstr(ptx, "cp.async.bulk.tensor");
        const char *f1 = f0 ? strstr(f0 + 1, "tensormap.cp_fenceproxy") : NULL;
        CHECK(f0 && f1 && c0 && f1 < c0);
        if (f0 && f1 && c0 && f1 < c0) {
            char *between = strndup(f0, (size_t)(c0 - f0));
            CHECK_INT(2, count(between, "bar.sync 0;"));   /* the maps' barrier, the load's own */
            free(between);
            char *fills = strndup(f0, (size_t)(f1 - f0));
            CHECK_INT(0, count(fills, "bar.sync 0;"));
            free(fills);
        }
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
    /* a row stride not known to be a multiple of 16 bytes; sm_80; no scratch area */
    for (int c = 0; c < 3; c++) {
        SpecArg a2[6] = {ptr, ptr, rint32(), c == 0 ? rint32() : n16, cint(16), cint(16)};
        lower_scratch = c != 2;
        ptx = lower("made_tile", a2, c == 1 ? 80 : 90, 4);
        lower_scratch = true;
        CHECK(ptx != NULL);
        if (!ptx) continue;
        CHECK_INT(0, count(ptx, "cp.async.bulk"));
        CHECK_INT(0, count(ptx, "tensormap"));
        CHECK_INT(0, gpu_scratch_bytes(ptx, "made_tile"));
        CHECK(count(ptx, "ld.global") > 0);
        CHECK_INT(0, ptxas(ptx, c == 1 ? "sm_80" : "sm_90a"));
        free(ptx);
    }
}

/* The persistent matmul of tests/kernels/dot_tc.py (made_desc_matmul_kernel): its three
 * maps filled by three warps, then the K loop's loads copied by TMA into the pipeline's ring
 * (b's through the transpose) and the store out by TMA. */
TEST(tma_made_descriptors_pipelined) {
    SpecArg ptr = dptr(DT_FP16, NULL, true), out = dptr(DT_FP32, NULL, true), n16 = rint32();
    n16.div16 = true;
    SpecArg args[11] = {ptr, ptr, out, rint32(), n16, n16, cint(64), cint(64), cint(32), cint(132), cint(3)};
    lower_file = "tests/kernels/dot_tc.py";
    char *ptx = lower("made_desc_matmul_kernel", args, 90, 4);
    lower_file = TFILE;
    CHECK(ptx != NULL);
    if (!ptx) return;
    CHECK_INT(3, count(ptx, "tensormap.cp_fenceproxy"));
    CHECK_CONTAINS(ptx, ".param .u64 made_desc_matmul_kernel_scratch_384\n)");
    CHECK_CONTAINS(ptx, "wgmma.mma_async");
    CHECK_INT(0, count(ptx, "ld.global"));
    CHECK_INT(0, count(ptx, "cp.async.ca"));
    CHECK_INT(0, count(ptx, "cp.async.cg"));
    CHECK(count(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global") >= 4);   /* 2 per ring fill */
    CHECK(copies_elected(ptx));
    /* the fp32 [64, 64] tile's rows are 256 bytes: two 128-byte slabs, a copy each */
    CHECK_INT(2, count(ptx, "cp.async.bulk.tensor.2d.global.shared::cta"));
    /* what the launch report reads (gpu_dot_summary: "wgmma, 3 stages"): no cp.async.wait_group here */
    CHECK_CONTAINS(ptx, "// loads pipelined in 3 stages\n");
    CHECK_INT(0, ptxas(ptx, "sm_90a"));
    free(ptx);
}

TEST(tma_1d_and_3d_assemble) {
    TDesc d1 = {0};
    d1.rank = 1;
    d1.block[0] = 128;
    d1.shape[0] = 1000;
    d1.strides[0] = 1;
    SpecArg a1[4] = {dptr(DT_FP32, &d1, true), dptr(DT_FP32, &d1, true), rint32(), cint(128)};
    char *ptx = lower("row_shift", a1, 90, 4);
    CHECK(ptx != NULL);
    if (ptx) {
        /* 1-D blocks: ordinary accesses (the H200 refused the 1-D copies; tma.c) */
        CHECK_INT(0, count(ptx, "cp.async.bulk"));
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
    /* ... unless TRITONC_GPU_UNVERIFIED names tma1d */
    lower_unverified = "tma1d";
    ptx = lower("row_shift", a1, 90, 4);
    lower_unverified = NULL;
    CHECK(ptx != NULL);
    if (ptx) {
        CHECK_INT(1, count(ptx, "cp.async.bulk.tensor.1d.shared::cluster.global"));
        CHECK_INT(1, count(ptx, "cp.async.bulk.tensor.1d.global.shared::cta"));
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
    TDesc d3 = {0};
    d3.rank = 3;
    d3.block[0] = 2; d3.block[1] = 8; d3.block[2] = 16;
    d3.shape[0] = 5; d3.shape[1] = 20; d3.shape[2] = 16;
    d3.strides[0] = 20 * 16; d3.strides[1] = 16; d3.strides[2] = 1;
    SpecArg a3[5] = {dptr(DT_I32, &d3, true), dptr(DT_I32, &d3, true), cint(2), cint(8), cint(16)};
    ptx = lower("batch_copy", a3, 90, 2);
    CHECK(ptx != NULL);
    if (ptx) {
        CHECK_INT(1, count(ptx, "cp.async.bulk.tensor.3d.shared::cluster.global"));
        CHECK_INT(1, count(ptx, "cp.async.bulk.tensor.3d.global.shared::cta"));
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
}

TEST(tma_matmul_assembles) {
    /* a [256, 128] fp16, b [128, 192] fp16, c [256, 192] fp32 through 64x64x32 blocks */
    TDesc da = desc2(64, 32, 256, 128, 128), db = desc2(32, 64, 128, 192, 192),
          dc = desc2(64, 64, 256, 192, 192);
    SpecArg args[7] = {dptr(DT_FP16, &da, true), dptr(DT_FP16, &db, true), dptr(DT_FP32, &dc, true),
                       rint32(), cint(64), cint(64), cint(32)};
    for (int arch = 80; arch <= 90; arch += 10) {
        char *ptx = lower("desc_matmul", args, arch, 4);
        CHECK(ptx != NULL);
        if (!ptx) continue;
        /* c's store goes through TMA on sm_90a (fp32 rows of 256 bytes: a copy per
         * 128-byte slab); the loop's loads feed the dot and may be pipelined with cp.async
         * instead (either way it assembles) */
        CHECK_INT(arch == 90 ? 2 : 0, count(ptx, BULK_STORE));
        CHECK_INT(0, ptxas(ptx, arch == 90 ? "sm_90a" : "sm_80"));
        free(ptx);
    }
}

/* Whether register `reg` ("%p3") is written by an instruction before `at` in ptx: the
 * destination is an instruction's first operand ("\tsetp.eq.u32 %p3, ..."). */
static bool written_before(const char *ptx, const char *reg, const char *at) {
    char pat[32];
    snprintf(pat, sizeof pat, " %s,", reg);
    for (const char *q = strstr(ptx, pat); q && q < at; q = strstr(q + 1, pat)) {
        const char *ls = q;
        while (ls > ptx && ls[-1] != '\n') ls--;
        while (*ls == '\t' || *ls == ' ') ls++;
        if (*ls != '@' && *ls != '.' && strchr(ls, ' ') == q) return true;
    }
    return false;
}

/* The guard of the first `mbarrier.arrive.expect_tx` is thread 0's predicate, and with it
 * the iteration's: `and.pred %pA, %pB, %pC` right before, both written earlier. */
static bool arrive_guard_defined(const char *ptx) {
    const char *ar = strstr(ptx, "mbarrier.arrive.expect_tx");
    const char *and = NULL;
    for (const char *q = strstr(ptx, "and.pred "); q && q < ar; q = strstr(q + 1, "and.pred ")) and = q;
    char d[16], x[16], y[16];
    if (!ar || !and || sscanf(and, "and.pred %15[^,], %15[^,], %15[^;];", d, x, y) != 3) return false;
    return written_before(ptx, x, and) && written_before(ptx, y, and);
}

/* The pipelined loop's descriptor loads by TMA into the ring's slots: thread 0 arms the
 * slot's mbarrier with both tiles' bytes and issues one copy per tile (the D = 2 iterations
 * ahead before the loop, one refill in it), each iteration waits on its slot's barrier at
 * the parity it tracks, and no cp.async is left. */
TEST(tma_ring_pipelined_loads) {
    TDesc da = desc2(64, 32, 256, 128, 128), db = desc2(32, 64, 128, 192, 192),
          dc = desc2(64, 64, 256, 192, 192);
    SpecArg args[7] = {dptr(DT_FP16, &da, true), dptr(DT_FP16, &db, true), dptr(DT_FP32, &dc, true),
                       rint32(), cint(64), cint(64), cint(32)};
    char *ptx = lower("desc_matmul", args, 90, 4);
    CHECK(ptx != NULL);
    if (!ptx) return;
    CHECK_INT(6, count(ptx, BULK_LOAD));
    CHECK_INT(3, count(ptx, "mbarrier.arrive.expect_tx.shared::cta.b64"));
    CHECK_INT(1, count(ptx, "mbarrier.try_wait.parity"));
    CHECK(arrive_guard_defined(ptx));
    CHECK_INT(0, count(ptx, "cp.async.cg.shared.global"));
    CHECK_INT(0, count(ptx, "cp.async.wait_group"));
    /* the tiles' maps are swizzled as the operand tiles are laid out (64-byte rows: 2,
     * 128-byte rows: 3) */
    CHECK_CONTAINS(ptx, "desc_matmul_tma_0_2[128]");
    CHECK_CONTAINS(ptx, "desc_matmul_tma_1_3[128]");
    CHECK_INT(0, ptxas(ptx, "sm_90a"));
    free(ptx);
}

/* The loop of a lowering with one pipelined loop: from the label its branch back goes to, to
 * that branch (malloc'd), or NULL */
static char *last_loop(const char *ptx) {
    const char *back = NULL, *head = NULL;
    for (const char *q = strstr(ptx, "bra.uni $L"); q; q = strstr(q + 1, "bra.uni $L")) back = q;
    char label[24] = "";
    if (back) snprintf(label, sizeof label, "$L%d:", atoi(back + 10));
    head = back ? strstr(ptx, label) : NULL;
    return head && head < back ? strndup(head, (size_t)(back - head)) : NULL;
}

/* Flash attention's forward with host descriptors (tests/kernels/tma.py desc_attn_fwd, BLOCK_M
 * 128, BLOCK_N 64, head_dim 64, 4 and 8 warps, 2 and 3 stages) on sm_90a: q by one TMA copy
 * before the loop; K and V by TMA into the ring (stages - 1 slots ahead, a spare slot for
 * P @ V left in flight), no cp.async; ptxas assembles it without spilling. On 8 warps no
 * warp waits for the others in the loop (no bar.sync): each counts itself done with the slot
 * to refill (an acquire-release add), and the last of them issues the refill; on 4 warps,
 * one warpgroup, the warps meet at a bar.sync and warp 0 issues it. Either way the refill
 * comes once QK^T's wait_group 0 has finished the P @ V that read the spare slot, before
 * this iteration's softmax and P @ V (pipe_waited), not at the iteration's end. q goes
 * straight into a tile of its own and o out through one. */
TEST(tma_ring_attention) {
    TDesc dq = desc2(128, 64, 256, 64, 64), dk = desc2(64, 64, 256, 64, 64);
    SpecArg fp = {0};
    fp.type = type_scalar(DT_FP32);
    SpecArg args[10] = {dptr(DT_FP16, &dq, true), dptr(DT_FP16, &dk, true), dptr(DT_FP16, &dk, true),
                        dptr(DT_FP16, &dq, true), fp, rint32(), cint(128), cint(64), cint(64)};
    for (int run = 0; run < 4; run++) {
        int warps = run & 1 ? 8 : 4;
        lower_stages = run < 2 ? 2 : 3;
        char *ptx = lower("desc_attn_fwd", args, 90, warps);
        CHECK(ptx != NULL);
        char *loop = ptx ? last_loop(ptx) : NULL;
        CHECK(loop != NULL);
        if (!loop) { free(ptx); continue; }
        CHECK_INT(1 + 2 * lower_stages, count(ptx, BULK_LOAD));   /* q, the prologue's, the loop's */
        CHECK_INT(2, count(loop, BULK_LOAD));
        CHECK_INT(0, count(loop, "cp.async.cg.shared.global"));
        CHECK_INT(1, count(loop, "mbarrier.try_wait.parity"));
        CHECK_INT(1, count(loop, "wgmma.wait_group.sync.aligned 1;"));
        CHECK_INT(warps == 4, count(loop, "bar.sync"));
        CHECK_INT(warps == 8, count(loop, "atom.acq_rel.cta.shared.add.u32"));
        const char *w0 = strstr(loop, "wgmma.wait_group.sync.aligned 0;");
        const char *rel = strstr(loop, warps == 4 ? "bar.sync" : "atom.acq_rel"), *cp = strstr(loop, BULK_LOAD);
        const char *w1 = strstr(loop, "wgmma.wait_group.sync.aligned 1;"), *ex = strstr(loop, "ex2.");
        CHECK(w0 && rel && cp && ex && w1 && w0 < rel && rel < cp && cp < ex && ex < w1);
        if (warps == 8 && rel) {
            /* the refill's predicate: elected, and in the warp whose count (mod 8) is last */
            char last[64], and[96];
            const char *t = strstr(loop, "setp.eq.u32 ");
            while (t && t < rel) t = strstr(t + 1, "setp.eq.u32 ");
            CHECK(t != NULL && sscanf(t, "setp.eq.u32 %63[^,]", last) == 1);
            snprintf(and, sizeof and, ", %s;\n", last);
            CHECK_CONTAINS(t, ", 7;\n");
            CHECK_INT(2, count(loop, and));   /* and.pred with the elect of each of the two copies */
        }
        free(loop);
        /* q copied straight into an operand tile of its own (its map swizzled as the tile
         * is), never staged from registers, and waited for only once the prologue has issued
         * K's and V's copies; o written out through a swizzled tile too */
        CHECK_CONTAINS(ptx, "desc_attn_fwd_tma_0_3[128]");
        CHECK_CONTAINS(ptx, "desc_attn_fwd_tma_3_3[128]");
        const char *c = ptx, *wq = strstr(ptx, "mbarrier.try_wait.parity");
        for (int i = 0; i < 2 * lower_stages - 1 && c; i++) c = strstr(c + 1, BULK_LOAD);
        CHECK(c && wq && c < wq);
        const char *mma = strstr(ptx, "wgmma.mma_async");
        char *head = mma ? strndup(ptx, (size_t)(mma - ptx)) : NULL;
        CHECK(head && count(head, "st.shared.v4") == 0 && count(head, "ld.shared") == 0);
        free(head);
        CHECK(copies_elected(ptx));
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
    lower_stages = 3;
}

/* The causal forward in two loops as tutorial 06's STAGE 3 runs it (tests/kernels/tma.py
 * desc_attn_fwd_causal, BLOCK_M 128, BLOCK_N 64, head_dim 64, 2 stages, 4 warps): q, read by
 * the dots of both loops, is copied once straight into a tile of its own and waited for once,
 * after the first loop's prologue has issued its copies of K and V, so that the latencies
 * overlap; nothing is staged from registers before either loop (q used to be read into
 * registers, held through the first loop, and stored again before each). */
TEST(tma_two_loop_attention) {
    TDesc dq = desc2(128, 64, 256, 64, 64), dk = desc2(64, 64, 256, 64, 64);
    SpecArg fp = {0};
    fp.type = type_scalar(DT_FP32);
    SpecArg args[9] = {dptr(DT_FP16, &dq, true), dptr(DT_FP16, &dk, true), dptr(DT_FP16, &dk, true),
                       dptr(DT_FP16, &dq, true), fp, rint32(), cint(128), cint(64), cint(64)};
    lower_stages = 2;
    char *ptx = lower("desc_attn_fwd_causal", args, 90, 4);
    lower_stages = 3;
    CHECK(ptx != NULL);
    if (!ptx) return;
    if (getenv("TMA_DUMP")) puts(ptx);
    CHECK_INT(9, count(ptx, BULK_LOAD));   /* q; each loop's prologue (2) and body (2) */
    CHECK_CONTAINS(ptx, "desc_attn_fwd_causal_tma_0_3[128]");
    const char *c = ptx, *wq = strstr(ptx, "mbarrier.try_wait.parity");
    for (int i = 0; i < 3 && c; i++) c = strstr(c + 1, BULK_LOAD);   /* q, then the prologue's */
    CHECK(c && wq && c < wq);
    CHECK_INT(0, count(ptx, "st.shared.v4"));
    CHECK_INT(0, count(ptx, "ld.shared.v4"));
    CHECK_INT(0, ptxas(ptx, "sm_90a"));
    free(ptx);
}

/* ---- the launch: tensor maps encoded by the runtime (fake libcuda, a child process) ----- */

typedef struct {   /* fake_libcuda.c's record of one cuTensorMapEncodeTiled call */
    int dtype; unsigned rank; uint64_t addr;
    uint64_t dims[5], strides[5];
    unsigned box[5], estrides[5];
    int interleave, swizzle, l2promo, oobfill;
} FakeTmap;

static void *fake_sym(const char *name) {
    void *h = dlopen(getenv("TRITONC_LIBCUDA_PATH"), RTLD_NOW | RTLD_NOLOAD);
    void *f = h ? dlsym(h, name) : NULL;
    if (h) dlclose(h);
    return f;
}

static int fake_maps(FakeTmap *out, int n) {
    int (*f)(FakeTmap *, int) = (int (*)(FakeTmap *, int))fake_sym("fake_cuda_tensor_maps");
    return f ? f(out, n) : -1;
}

static void fake_counters(long c[12]) { test_fake_counters(c, 12); }

/* A child's CUDA context (the fake driver) and kernel `name` of tests/kernels/tma.py; NULL
 * (checks failed) when it cannot load. */
static tc_kernel *cuda_kernel(const char *name, tc_context **ctx, tc_module **m) {
    tc_kernel *k = NULL;
    *m = NULL;
    CHECK_INT(TC_OK, tc_context_new(ctx));
    CHECK_INT(TC_OK, tc_context_set_backend(*ctx, TC_BACKEND_CUDA));
    CHECK_INT(TC_OK, tc_module_load_file(*ctx, TFILE, m));
    CHECK_INT(TC_OK, tc_module_kernel(*m, name, &k));
    return k;
}

TEST(tma_launch_encodes_maps) {
    test_run_child("TC_TMA_CHILD=1 TRITONC_OCCUPANCY=0 TRITONC_CACHE_DIR=/nonexistent-tritonc-tma-test "
                   "FAKE_CUDA_LAUNCH=ok", "tmachild_", 30);
}

static tc_status launch_tile(tc_kernel *k, tc_tensor *xd, tc_tensor *yd, int bm, int bn,
                             unsigned gx, unsigned gy, void *stream) {
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_desc", tc_tens(xd));
    tc_args_set(a, "y_desc", tc_tens(yd));
    tc_args_set(a, "BM", tc_int(bm));
    tc_args_set(a, "BN", tc_int(bn));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = gx; o.grid[1] = gy; o.grid[2] = 1;
    o.stream = stream;
    tc_status rc = tc_launch(k, a, &o);
    tc_args_free(a);
    return rc;
}

/* Under TRITONC_GPU_UNVERIFIED the launch report says so first: a wrong result is then not
 * taken for the checked code's. */
TEST(tma_unverified_said_in_the_report) {
    test_run_child("TC_TMA_CHILD2=1 TRITONC_GPU_UNVERIFIED=tma1d TRITONC_OCCUPANCY=0 "
                   "TRITONC_CACHE_DIR=/nonexistent-tritonc-tma-test FAKE_CUDA_LAUNCH=ok", "tmachild2_", 10);
}

TEST(tmachild2_report) {
    if (!getenv("TC_TMA_CHILD2")) return;
    tc_context *ctx = NULL;
    tc_module *m = NULL;
    tc_kernel *k = cuda_kernel("tile_scale", &ctx, &m);
    if (!k) return;
    int64_t xs[2] = {64, 64}, blk[2] = {32, 64};
    tc_tensor *x = NULL, *y = NULL, *xd = NULL, *yd = NULL;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP16, 2, xs, &x));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP16, 2, xs, &y));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, x, 2, NULL, NULL, blk, &xd));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, y, 2, NULL, NULL, blk, &yd));
    CHECK_INT(TC_OK, launch_tile(k, xd, yd, 32, 64, 2, 1, NULL));
    tc_launch_report lr;
    tc_last_launch(ctx, &lr, sizeof lr);
    static const char head[] = "TRITONC_GPU_UNVERIFIED=tma1d: lowerings not yet checked on a GPU";
    CHECK(strncmp(lr.note, head, sizeof head - 1) == 0);
    CHECK_CONTAINS(lr.note, "; tensor descriptors through TMA");
    tc_tensor_free(xd);
    tc_tensor_free(yd);
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(tmachild_launch) {
    if (!getenv("TC_TMA_CHILD")) return;
    tc_context *ctx = NULL;
    tc_module *m = NULL;
    tc_kernel *k = cuda_kernel("tile_scale", &ctx, &m);
    if (!k) return;
    /* x: fp16 100x72 whole; y: fp16 100x80 of which the descriptor covers 100x72 (row
     * stride 80 elements = 160 bytes); 32x64 blocks */
    int64_t xs[2] = {100, 72}, ys[2] = {100, 80}, blk[2] = {32, 64};
    tc_tensor *x = NULL, *y = NULL, *xd = NULL, *yd = NULL;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP16, 2, xs, &x));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP16, 2, ys, &y));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, x, 2, NULL, NULL, blk, &xd));
    int64_t yst[2] = {80, 1};
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, y, 2, xs, yst, blk, &yd));
    CHECK_INT(TC_OK, launch_tile(k, xd, yd, 32, 64, 4, 2, NULL));
    if (tc_errmsg(ctx)[0]) printf("%s\n", tc_errmsg(ctx));
    FakeTmap t[16];
    CHECK_INT(2, fake_maps(t, 16));
    /* hand-computed: CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6; dims and box innermost first;
     * strides in bytes of the outer dims only; element strides 1; no interleave, no swizzle,
     * L2 promotion 128B (2), no NaN fill */
    uint64_t xa = tc_tensor_address(x), ya = tc_tensor_address(y);
    CHECK(t[0].dtype == 6 && t[0].rank == 2 && t[0].addr == xa);
    CHECK(t[0].dims[0] == 72 && t[0].dims[1] == 100 && t[0].strides[0] == 144);
    CHECK(t[0].box[0] == 64 && t[0].box[1] == 32 && t[0].estrides[0] == 1 && t[0].estrides[1] == 1);
    CHECK(t[0].interleave == 0 && t[0].swizzle == 0 && t[0].l2promo == 2 && t[0].oobfill == 0);
    CHECK(t[1].dtype == 6 && t[1].rank == 2 && t[1].addr == ya);
    CHECK(t[1].dims[0] == 72 && t[1].dims[1] == 100 && t[1].strides[0] == 160);
    CHECK(t[1].box[0] == 64 && t[1].box[1] == 32);
    long c[12];
    fake_counters(c);
    CHECK_INT(1, c[1]);   /* one launch */
    CHECK_INT(2, c[5]);   /* with two 64-aligned maps after the pointers */
    CHECK_INT(0, c[6]);
    tc_launch_report lr;
    tc_last_launch(ctx, &lr, sizeof lr);
    CHECK_CONTAINS(lr.note, "tensor descriptors through TMA (cp.async.bulk.tensor): x_desc, y_desc");
    /* a cached launch encodes them again (the tensors may be others of the same shape) */
    CHECK_INT(TC_OK, launch_tile(k, xd, yd, 32, 64, 4, 2, NULL));
    fake_counters(c);
    CHECK_INT(4, c[5]);
    /* captured into a graph: the maps travel in the parameters, nothing is allocated */
    void *s = NULL;
    CHECK_INT(TC_OK, tc_stream_new(ctx, &s));
    CHECK_INT(TC_OK, tc_graph_begin(ctx, s));
    CHECK_INT(TC_OK, launch_tile(k, xd, yd, 32, 64, 4, 2, s));
    tc_graph *gr = NULL;
    CHECK_INT(TC_OK, tc_graph_end(ctx, s, &gr));
    CHECK_INT(1, tc_graph_kernel_count(gr));
    fake_counters(c);
    CHECK_INT(6, c[5]);
    CHECK_INT(0, c[6]);
    tc_graph_free(gr);
    tc_stream_free(ctx, s);

    /* fp32 5x6 (rows of 24 bytes): no TMA; the note says so and no map is encoded */
    int64_t ss[2] = {5, 6}, sb[2] = {4, 4};
    tc_tensor *u = NULL, *w = NULL, *ud = NULL, *wd = NULL;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 2, ss, &u));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 2, ss, &w));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, u, 2, NULL, NULL, sb, &ud));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, w, 2, NULL, NULL, sb, &wd));
    CHECK_INT(TC_OK, launch_tile(k, ud, wd, 4, 4, 2, 2, NULL));
    CHECK_INT(2 + 0, fake_maps(t, 16) >= 2 ? 2 : -1);
    fake_counters(c);
    CHECK_INT(6, c[5]);
    tc_last_launch(ctx, &lr, sizeof lr);
    CHECK_CONTAINS(lr.note, "tensor descriptors as ordinary loads and stores (no TMA");

    /* the maps of the dot's operands have the 128-byte swizzle and a box
     * one 128-byte slab wide; c's is plain */
    tc_kernel *mk = NULL;
    CHECK_INT(TC_OK, tc_module_kernel(m, "desc_matmul", &mk));
    int64_t as[2] = {256, 128}, bs[2] = {128, 192}, cs[2] = {256, 192};
    int64_t ab[2] = {64, 128}, bb[2] = {128, 64}, cb[2] = {64, 64};
    tc_tensor *ta = NULL, *tb = NULL, *tcc = NULL, *ad = NULL, *bd = NULL, *cd = NULL;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP16, 2, as, &ta));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP16, 2, bs, &tb));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 2, cs, &tcc));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, ta, 2, NULL, NULL, ab, &ad));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, tb, 2, NULL, NULL, bb, &bd));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, tcc, 2, NULL, NULL, cb, &cd));
    tc_args *ma = NULL;
    tc_args_new(mk, &ma);
    tc_args_set(ma, "a_desc", tc_tens(ad));
    tc_args_set(ma, "b_desc", tc_tens(bd));
    tc_args_set(ma, "c_desc", tc_tens(cd));
    tc_args_set(ma, "K", tc_int(128));
    tc_args_set(ma, "BM", tc_int(64));
    tc_args_set(ma, "BN", tc_int(64));
    tc_args_set(ma, "BK", tc_int(128));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 4; o.grid[1] = 3; o.grid[2] = 1;
    o.num_stages = 1;   /* direct copies only where the loop is not pipelined (tma.c) */
    CHECK_INT(TC_OK, tc_launch(mk, ma, &o));
    if (tc_errmsg(ctx)[0]) printf("%s\n", tc_errmsg(ctx));
    int nm = fake_maps(t, 16);
    CHECK_INT(9, nm);                 /* 3 launches of tile_scale with 2 maps, then a, b, c */
    FakeTmap *q = &t[nm >= 3 ? nm - 3 : 0];
    CHECK(q[0].dtype == 6 && q[0].dims[0] == 128 && q[0].dims[1] == 256 && q[0].strides[0] == 256);
    CHECK(q[0].box[0] == 64 && q[0].box[1] == 64 && q[0].swizzle == 3);
    CHECK(q[1].dtype == 6 && q[1].dims[0] == 192 && q[1].dims[1] == 128 && q[1].strides[0] == 384);
    CHECK(q[1].box[0] == 64 && q[1].box[1] == 128 && q[1].swizzle == 3);
    CHECK(q[2].dtype == 7 && q[2].dims[0] == 192 && q[2].dims[1] == 256 && q[2].strides[0] == 768);
    CHECK(q[2].box[0] == 32 && q[2].box[1] == 64 && q[2].swizzle == 3);   /* a store: one slab */
    fake_counters(c);
    CHECK_INT(9, c[5]);
    CHECK_INT(0, c[6]);
    tc_args_free(ma);
    tc_tensor_free(ad);
    tc_tensor_free(bd);
    tc_tensor_free(cd);
    tc_tensor_free(ta);
    tc_tensor_free(tb);
    tc_tensor_free(tcc);
    tc_tensor_free(ud);
    tc_tensor_free(wd);
    tc_tensor_free(u);
    tc_tensor_free(w);
    tc_tensor_free(xd);
    tc_tensor_free(yd);
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(tma_dot_direct_operands) {
    /* with one stage the loads feeding the dot go straight into its operand tiles, one
     * copy per slab; the maps carry the swizzle of the slab width: a [64, 32] fp16 rows of
     * 64 bytes (64B swizzle, 2), b [32, 64] rows of 128 bytes (128B, 3), and the store's c
     * [64, 64] fp32 (128B, in two slabs); then a [64, 128]: rows of 256 bytes, two 128-byte
     * slabs, two copies */
    lower_stages = 1;
    TDesc da = desc2(64, 32, 256, 128, 128), db = desc2(32, 64, 128, 192, 192),
          dc = desc2(64, 64, 256, 192, 192);
    SpecArg args[7] = {dptr(DT_FP16, &da, true), dptr(DT_FP16, &db, true), dptr(DT_FP32, &dc, true),
                       rint32(), cint(64), cint(64), cint(32)};
    char *ptx = lower("desc_matmul", args, 90, 4);
    CHECK(ptx != NULL);
    if (ptx) {
        if (getenv("TMA_DUMP")) puts(ptx);
        CHECK_INT(2, count(ptx, BULK_LOAD));
        CHECK_CONTAINS(ptx, ".b8 desc_matmul_tma_0_2[128],\n\t.param .align 64 .b8 desc_matmul_tma_1_3[128],\n"
                            "\t.param .align 64 .b8 desc_matmul_tma_2_3[128]\n)");
        CHECK_CONTAINS(ptx, "], 4096;");   /* 64 * 32 * 2 bytes, and 32 * 64 * 2 */
        CHECK_INT(0, count(ptx, "ld.shared.v4.b32"));   /* no trip through registers */
        CHECK_INT(0, count(ptx, "cp.async.ca"));         /* nor the cp.async pipeline */
        CHECK_CONTAINS(ptx, "wgmma.mma_async");
        GpuTmap maps[GPU_MAX_TMAPS];
        CHECK_INT(3, gpu_tma_maps(ptx, "desc_matmul", maps));
        CHECK(maps[0].swizzle == 2 && maps[1].swizzle == 3 && maps[2].swizzle == 3);
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
    TDesc wa = desc2(64, 128, 256, 256, 256), wb = desc2(128, 64, 256, 192, 192);
    SpecArg args2[7] = {dptr(DT_FP16, &wa, true), dptr(DT_FP16, &wb, true), dptr(DT_FP32, &dc, true),
                        rint32(), cint(64), cint(64), cint(128)};
    ptx = lower("desc_matmul", args2, 90, 4);
    CHECK(ptx != NULL);
    if (ptx) {
        CHECK_INT(3, count(ptx, BULK_LOAD));   /* a in two slabs, b in one */
        CHECK_CONTAINS(ptx, "], 16384;");
        GpuTmap maps[GPU_MAX_TMAPS];
        CHECK_INT(3, gpu_tma_maps(ptx, "desc_matmul", maps));
        CHECK(maps[0].swizzle == 3 && maps[1].swizzle == 3);
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
    /* with 3 stages the loop's loads go by TMA into the pipeline's ring instead
     * (tma_ring_pipelined_loads), not straight into operand tiles of their own, and no
     * cp.async is left; the store still goes out by TMA */
    lower_stages = 3;
    ptx = lower("desc_matmul", args, 90, 4);
    CHECK(ptx != NULL);
    if (ptx) {
        CHECK_INT(6, count(ptx, BULK_LOAD));
        CHECK_INT(2, count(ptx, BULK_STORE));   /* c: two slabs */
        CHECK_INT(0, count(ptx, "cp.async.cg.shared.global"));
        CHECK_CONTAINS(ptx, "wgmma.mma_async");
        CHECK_INT(0, ptxas(ptx, "sm_90a"));
        free(ptx);
    }
}

/* ---- descriptors made in the kernel: the launch's global scratch area (fake libcuda) ----- */

TEST(tma_launch_allocates_scratch) {
    test_run_child("TC_TMA_CHILD3=1 TRITONC_OCCUPANCY=0 TRITONC_CACHE_DIR=/nonexistent-tritonc-tma-test "
                   "FAKE_CUDA_LAUNCH=ok", "tmachild3_", 10);
}

typedef struct { int allocs, releases; size_t size, align; uint64_t addr, released; void *stream; } UserAlloc;
static uint64_t user_alloc(size_t size, size_t align, void *stream, void *user) {
    UserAlloc *u = user;
    u->allocs++;
    u->size = size;
    u->align = align;
    u->stream = stream;
    u->addr = u->allocs == 3 ? 0 : 0x100000 * (uint64_t)u->allocs;   /* the third fails */
    return u->addr;
}
static void user_release(uint64_t addr, size_t size, void *stream, void *user) {
    UserAlloc *u = user;
    (void)stream;
    u->releases++;
    u->released = addr;
    CHECK_INT((long long)u->size, (long long)size);
}

static tc_status launch_made(tc_kernel *k, tc_tensor *x, tc_tensor *y, unsigned gx) {
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x", tc_tens(x));
    tc_args_set(a, "y", tc_tens(y));
    tc_args_set(a, "M", tc_int(64));
    tc_args_set(a, "N", tc_int(32));   /* divisible by 16: a stride TMA takes */
    tc_args_set(a, "BM", tc_int(16));
    tc_args_set(a, "BN", tc_int(16));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = gx; o.grid[1] = 1; o.grid[2] = 1;
    tc_status rc = tc_launch(k, a, &o);
    tc_args_free(a);
    return rc;
}

TEST(tmachild3_scratch) {
    if (!getenv("TC_TMA_CHILD3")) return;
    tc_context *ctx = NULL;
    tc_module *m = NULL;
    tc_kernel *k = cuda_kernel("made_tile", &ctx, &m);
    if (!k) return;
    int64_t xs[2] = {64, 32};
    tc_tensor *x = NULL, *y = NULL;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 2, xs, &x));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 2, xs, &y));
    /* the default: 2 maps of 128 bytes for each of 4 programs, stream-ordered, given back */
    CHECK_INT(TC_OK, launch_made(k, x, y, 4));
    if (tc_errmsg(ctx)[0]) printf("%s\n", tc_errmsg(ctx));
    long c[12];
    fake_counters(c);
    CHECK_INT(1, c[7]);     /* cuMemAllocAsync */
    CHECK_INT(1, c[8]);     /* cuMemFreeAsync */
    CHECK_INT(1024, c[9]);  /* 4 programs x 256 bytes */
    CHECK_INT(1, c[10]);    /* the launch's last parameter pointed at it */
    CHECK_INT(0, c[11]);
    tc_launch_report lr;
    tc_last_launch(ctx, &lr, sizeof lr);
    CHECK_INT(1024, (int)lr.scratch_bytes);
    CHECK_CONTAINS(lr.note, "2 tensor maps made in the kernel for TMA (256 bytes of global scratch per program)");
    /* the caller's allocator: asked for 128-byte aligned bytes, given them back */
    UserAlloc u = {0};
    tc_set_allocator(ctx, user_alloc, user_release, &u);
    CHECK_INT(TC_OK, launch_made(k, x, y, 3));
    CHECK_INT(1, u.allocs);
    CHECK_INT(768, (int)u.size);
    CHECK_INT(128, (int)u.align);
    CHECK_INT(1, u.releases);
    CHECK(u.released == u.addr);
    fake_counters(c);
    CHECK_INT(1, c[7]);     /* no cuMemAllocAsync */
    CHECK_INT(1, c[11]);    /* the fake saw the caller's address */
    /* a grid of 0 allocates nothing; an allocator that fails fails the launch, clearly */
    CHECK_INT(TC_OK, launch_made(k, x, y, 0));
    CHECK_INT(1, u.allocs);
    CHECK_INT(TC_OK, launch_made(k, x, y, 2));
    CHECK_INT(TC_ERR_NOMEM, launch_made(k, x, y, 2));
    CHECK_CONTAINS(tc_errmsg(ctx), "the allocator (tc_set_allocator) gave no 512 bytes of global scratch");
    CHECK_INT(2, u.releases);
    /* back to the default */
    tc_set_allocator(ctx, NULL, NULL, NULL);
    CHECK_INT(TC_OK, launch_made(k, x, y, 1));
    fake_counters(c);
    CHECK_INT(2, c[7]);
    CHECK_INT(2, c[8]);
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* Two descriptors that differ only in their block shape share one TMAP (the IR merges equal
 * ones); one map has one box, so their loads stay ordinary, and y's map is still made. */
TEST(tma_made_descriptors_one_box) {
    SpecArg ptr = dptr(DT_FP32, NULL, true), n16 = rint32();
    n16.div16 = true;
    SpecArg args[5] = {ptr, ptr, rint32(), n16, cint(16)};
    char *ptx = lower("made_two_blocks", args, 90, 4);
    CHECK(ptx != NULL);
    if (!ptx) return;
    CHECK_INT(1, count(ptx, "cp.async.bulk.tensor.2d.global.shared::cta"));   /* y's store */
    CHECK_INT(0, count(ptx, "cp.async.bulk.tensor.2d.shared::cluster.global"));
    CHECK(count(ptx, "ld.global") > 0);
    CHECK_INT(0, ptxas(ptx, "sm_90a"));
    free(ptx);
}

/* Ahead-of-time code takes only the kernel's own parameters: descriptors made in the kernel
 * stay ordinary accesses there (tc_compile), even on sm_90a. */
TEST(tma_made_descriptors_ahead_of_time) {
    tc_context *ctx = NULL;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, TFILE, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "made_tile", &k));
    tc_args *a = NULL;
    if (k) tc_args_new(k, &a);
    if (a) {
        tc_args_set(a, "BM", tc_int(16));
        tc_args_set(a, "BN", tc_int(16));
        tc_target t;
        tc_target_parse("cuda:90a", &t);
        const char *sig[4] = {"*fp32:16", "*fp32:16", "i32", "i32:16"};
        tc_compiled *c = NULL;
        CHECK_INT(TC_OK, tc_compile(k, &t, sig, 4, a, 4, 3, &c));
        if (c) {
            CHECK(strstr(c->ptx, "tensormap") == NULL);
            CHECK(strstr(c->ptx, "_scratch_") == NULL);
            CHECK(strstr(c->ptx, "ld.global") != NULL);
            CHECK_INT(4, c->nparams);
            tc_compiled_free(c);
        }
        tc_args_free(a);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}
