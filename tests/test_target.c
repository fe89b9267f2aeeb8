/* test_target.c — the target table (src/base/target.c): values checked by hand against
 * NVIDIA's documentation, the PTX ISA version a set of features needs, the newest PTX ISA a
 * driver loads, target names, and unknown targets refused by the C API and by
 * `tritonc compile` (a usage error, exit status 2). */
#include "test.h"
#include "base/target.h"

#include <stdlib.h>
#include <string.h>

TEST(target_table_limits) {
    static const int archs[] = {80, 86, 87, 89, 90, 100, 103, 120, 121};
    /* CUDA C++ Programming Guide, "Memory Information per Compute Capability" (KB = 1024
     * bytes): maximum shared memory per thread block (opt-in) and per SM */
    static const struct { int arch, block, sm; } smem[] = {
        {80, 166912, 167936},   /* 163 KB, 164 KB */
        {86, 101376, 102400},   /* 99 KB, 100 KB */
        {87, 166912, 167936},
        {89, 101376, 102400},
        {90, 232448, 233472},   /* 227 KB, 228 KB */
        {100, 232448, 233472},
        {120, 101376, 102400},
    };
    for (int i = 0; i < (int)(sizeof smem / sizeof smem[0]); i++) {
        const TargetInfo *t = target_info(smem[i].arch);
        CHECK(t != NULL);
        if (!t) continue;
        CHECK_INT(smem[i].block, t->smem_block);
        CHECK_INT(smem[i].sm, t->smem_sm);
        CHECK_INT(1024, t->smem_reserved);  /* the 1 KB between the two */
    }
    /* "Device and Streaming Multiprocessor (SM) Information per Compute Capability":
     * resident threads and blocks per SM */
    static const struct { int arch, threads, blocks; } res[] = {
        {80, 2048, 32}, {86, 1536, 16}, {87, 1536, 16}, {89, 1536, 24},
        {90, 2048, 32}, {100, 2048, 32}, {120, 1536, 24},
    };
    for (int i = 0; i < (int)(sizeof res / sizeof res[0]); i++) {
        const TargetInfo *t = target_info(res[i].arch);
        if (!t) continue;
        CHECK_INT(res[i].threads, t->threads_sm);
        CHECK_INT(res[i].blocks, t->blocks_sm);
    }
    /* 64 K registers per SM and per block, 255 per thread, everywhere */
    for (int i = 0; i < (int)(sizeof archs / sizeof archs[0]); i++) {
        const TargetInfo *t = target_info(archs[i]);
        CHECK(t != NULL);
        if (!t) continue;
        CHECK_INT(archs[i], t->arch);
        CHECK_INT(65536, t->regs_sm);
        CHECK_INT(65536, t->regs_block);
        CHECK_INT(255, t->regs_thread);
    }
    CHECK_STR("sm_100", target_info(100)->name);
    CHECK(target_info(75) == NULL);
    CHECK(target_info(70) == NULL);
    CHECK(target_info(0) == NULL);
    CHECK(target_info(999) == NULL);
}

TEST(target_table_ptx_versions) {
    /* PTX ISA manual, "PTX Release History": the first version with each target */
    static const struct { int arch, a, ptx; } v[] = {
        {80, 0, 70}, {86, 0, 71}, {87, 0, 74}, {89, 0, 78}, {90, 0, 78}, {90, 1, 80},
        {100, 0, 86}, {100, 1, 86}, {103, 1, 88}, {120, 0, 87}, {120, 1, 87}, {121, 0, 88},
    };
    for (int i = 0; i < (int)(sizeof v / sizeof v[0]); i++) {
        const TargetInfo *t = target_info(v[i].arch);
        unsigned missing = 1;
        CHECK(t != NULL);
        if (!t) continue;
        CHECK_INT(v[i].ptx, target_ptx_version(t, v[i].a, 0, &missing));
        CHECK_INT(0, missing);
    }
    CHECK_INT(0, target_info(80)->ptx_a);  /* there is no sm_80a */
    CHECK_INT(0, target_info(89)->ptx_a);
    /* a feature raises the version to the one that introduced it ... */
    unsigned missing = 1;
    CHECK_INT(84, target_ptx_version(target_info(89), false, TF_MMA_FP8, &missing));
    CHECK_INT(0, missing);
    CHECK_INT(80, target_ptx_version(target_info(90), true, TF_WGMMA | TF_TMA, &missing));
    CHECK_INT(0, missing);
    /* tensormap.replace: 8.6, where every ptxas reads global_stride in bytes (target.c) */
    CHECK_INT(86, target_ptx_version(target_info(90), true, TF_TENSORMAP | TF_WGMMA | TF_TMA, &missing));
    CHECK_INT(0, missing);
    CHECK_INT(78, target_ptx_version(target_info(90), false, TF_BF16_ATOMIC, &missing));
    CHECK_INT(0, missing);
    CHECK_INT(70, target_ptx_version(target_info(80), false, TF_BF16 | TF_MMA | TF_CP_ASYNC | TF_REDUX,
                                     &missing));
    CHECK_INT(0, missing);
    CHECK_INT(86, target_ptx_version(target_info(100), true, TF_TENSORMAP | TF_MMA_FP8, &missing));
    CHECK_INT(0, missing);
    CHECK_INT(87, target_ptx_version(target_info(120), false, TF_TMA | TF_MMA_FP8, &missing));
    CHECK_INT(0, missing);
    /* ... and a target without it says so */
    target_ptx_version(target_info(86), false, TF_MMA_FP8, &missing);
    CHECK_INT(TF_MMA_FP8, missing);
    target_ptx_version(target_info(90), false, TF_WGMMA | TF_TENSORMAP, &missing);
    CHECK_INT(TF_WGMMA | TF_TENSORMAP, missing);  /* sm_90a only */
    target_ptx_version(target_info(100), true, TF_WGMMA, &missing);
    CHECK_INT(TF_WGMMA, missing);
    target_ptx_version(target_info(80), false, TF_BF16_ATOMIC | TF_TMA, &missing);
    CHECK_INT(TF_BF16_ATOMIC | TF_TMA, missing);
    CHECK_STR("wgmma", target_feature_name(TF_WGMMA));
    CHECK_STR("mma.sync on fp8", target_feature_name(TF_MMA_FP8));
}

TEST(target_driver_ptx_ceiling) {
    /* cuDriverGetVersion -> the newest PTX ISA the driver loads ("PTX Release History") */
    CHECK_INT(90, target_driver_ptx(13000));
    CHECK_INT(91, target_driver_ptx(13010));
    CHECK_INT(91, target_driver_ptx(13020));  /* later drivers load at least that */
    CHECK_INT(88, target_driver_ptx(12090));
    CHECK_INT(87, target_driver_ptx(12080));
    CHECK_INT(85, target_driver_ptx(12060));  /* CUDA 12.6 kept PTX ISA 8.5 */
    CHECK_INT(84, target_driver_ptx(12040));
    CHECK_INT(84, target_driver_ptx(12041));
    CHECK_INT(80, target_driver_ptx(12000));
    CHECK_INT(78, target_driver_ptx(11080));
    CHECK_INT(70, target_driver_ptx(11000));
    CHECK_INT(0, target_driver_ptx(10020));
    CHECK_INT(0, target_driver_ptx(0));
}

TEST(target_parse_names) {
    tc_target t;
    CHECK_INT(TC_OK, target_parse("cuda:120", &t));
    CHECK_INT(120, t.arch);
    CHECK_INT(0, t.arch_suffix_a);  /* plain sm_120 */
    CHECK_INT(TC_OK, target_parse("sm_120a", &t));
    CHECK_INT(1, t.arch_suffix_a);
    CHECK_INT(TC_OK, target_parse("cuda:100", &t));
    CHECK_INT(1, t.arch_suffix_a);
    CHECK_INT(TC_OK, target_parse("sm_103", &t));
    CHECK_INT(1, t.arch_suffix_a);
    CHECK_INT(TC_OK, target_parse("cuda:121", &t));
    CHECK_INT(0, t.arch_suffix_a);
    CHECK_INT(TC_ERR_ARG, target_parse("sm_86a", &t));
    CHECK_INT(TC_ERR_UNSUPPORTED, target_parse("foo:1", &t));
    /* the syntax takes any arch (a device, TRITON_OVERRIDE_ARCH); the public parser takes
     * only the table's */
    CHECK_INT(TC_OK, target_parse("sm75", &t));
    CHECK_INT(75, t.arch);
    CHECK_INT(0, t.arch_suffix_a);
    CHECK_INT(TC_OK, target_parse("cuda:999", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("sm75", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("cuda:999", &t));
    CHECK_INT(TC_ERR_UNSUPPORTED, tc_target_parse("foo:1", &t));
    CHECK_INT(TC_OK, tc_target_parse("sm_100a", &t));
    target_of_arch(90, &t);
    CHECK_INT(1, t.arch_suffix_a);
    target_of_arch(120, &t);
    CHECK_INT(0, t.arch_suffix_a);
    CHECK_STR("cuda", t.backend);
    CHECK_INT(32, t.warp_size);
    CHECK_STR("cuda:80, cuda:86, cuda:87, cuda:89, cuda:90a, cuda:100a, cuda:103a, cuda:120, "
              "cuda:121", tc_target_names());
    char msg[512];
    tc_target x = {"cuda", 75, 32, 0};
    CHECK(target_lookup(&x, msg, sizeof msg) == NULL);
    CHECK_STR("unknown target 'cuda:75' (known targets: cuda:80, cuda:86, cuda:87, cuda:89, "
              "cuda:90a, cuda:100a, cuda:103a, cuda:120, cuda:121)", msg);
    x = (tc_target){"cuda", 86, 32, 1};
    CHECK(target_lookup(&x, msg, sizeof msg) == NULL);
    CHECK_CONTAINS(msg, "unknown target 'cuda:86a'");
    x = (tc_target){"cuda", 90, 32, 0};  /* plain sm_90, by hand */
    CHECK(target_lookup(&x, msg, sizeof msg) == target_info(90));
}

static const char *K_SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=mask).to(tl.bfloat16)\n"
    "    tl.store(out_ptr + offs, x.to(tl.float32) + tl.load(y_ptr + offs, mask=mask), mask=mask)\n";

/* A kernel of src with its constexpr BLOCK set, ready for tc_compile(_ptx). */
typedef struct Kern { tc_context *ctx; tc_module *m; tc_kernel *k; tc_args *a; } Kern;

static int k_open(Kern *K, const char *src, const char *name, int block) {
    memset(K, 0, sizeof *K);
    if (tc_context_new(&K->ctx) || tc_module_load_string(K->ctx, "k.py", src, &K->m) ||
        tc_module_kernel(K->m, name, &K->k) || tc_args_new(K->k, &K->a) ||
        tc_args_set(K->a, "BLOCK", tc_int(block))) {
        test_fail(__FILE__, __LINE__, "setup: %s", K->ctx ? tc_errmsg(K->ctx) : "no context");
        tc_context_free(K->ctx);
        return 0;
    }
    return 1;
}

static void k_close(Kern *K) {
    tc_args_free(K->a);
    tc_module_free(K->m);
    tc_context_free(K->ctx);
}

TEST(target_unknown_refused_by_the_api) {
    Kern K;
    if (!k_open(&K, K_SRC, "add_kernel", 128)) return;
    tc_context *ctx = K.ctx;
    tc_kernel *k = K.k;
    tc_args *a = K.a;
    const char *sig[4] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32"};
    tc_compiled *c = NULL;
    char *ptx = NULL;
    tc_target t = {"cuda", 75, 32, 0};
    CHECK_INT(TC_ERR_ARG, tc_compile(k, &t, sig, 4, a, 4, 3, &c));
    CHECK(c == NULL);
    CHECK_STR("unknown target 'cuda:75' (known targets: cuda:80, cuda:86, cuda:87, cuda:89, "
              "cuda:90a, cuda:100a, cuda:103a, cuda:120, cuda:121)", tc_errmsg(ctx));
    t.arch = 999;
    CHECK_INT(TC_ERR_ARG, tc_compile(k, &t, sig, 4, a, 4, 3, &c));
    CHECK_CONTAINS(tc_errmsg(ctx), "unknown target 'cuda:999' (known targets: cuda:80,");
    CHECK_INT(TC_ERR_ARG, tc_compile_ptx(k, &t, sig, 4, a, 4, &ptx));
    CHECK(ptx == NULL);
    CHECK_CONTAINS(tc_errmsg(ctx), "unknown target 'cuda:999' (known targets: cuda:80,");
    /* the known ones: the table's .version and .target (bf16 needs no more than sm_80 has) */
    static const char *const good[][2] = {
        {"cuda:80", ".version 7.0\n.target sm_80\n"},
        {"cuda:86", ".version 7.1\n.target sm_86\n"},
        {"cuda:89", ".version 7.8\n.target sm_89\n"},
        {"cuda:90a", ".version 8.0\n.target sm_90a\n"},
        {"cuda:100a", ".version 8.6\n.target sm_100a\n"},
        {"cuda:120", ".version 8.7\n.target sm_120\n"},
    };
    for (int i = 0; i < 6; i++) {
        CHECK_INT(TC_OK, tc_target_parse(good[i][0], &t));
        CHECK_INT(TC_OK, tc_compile_ptx(k, &t, sig, 4, a, 4, &ptx));
        if (ptx) CHECK_CONTAINS(ptx, good[i][1]);
        tc_free(ptx);
        ptx = NULL;
    }
    k_close(&K);
}

TEST(target_unknown_is_a_usage_error) {
    static const char *const bad[] = {"cuda:75", "cuda:999", "foo:1", "sm_80a"};
    char cmd[1024], out[4096];
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "%s/tritonc compile examples/chapter10.py add_kernel --target %s "
                 "x_ptr='*fp32:16' y_ptr='*fp32:16' out_ptr='*fp32:16' n=i32 BLOCK=1024",
                 test_build_dir(), bad[i]);
        CHECK_INT(2, test_run(cmd, out, sizeof out));
        char want[128];
        snprintf(want, sizeof want, "unknown target '%s' (known targets: cuda:80, cuda:86, ", bad[i]);
        CHECK_CONTAINS(out, want);
        CHECK_CONTAINS(out, "cuda:100a, cuda:103a, cuda:120, cuda:121; also written sm_90a)");
    }
}

/* A feature the target lacks is an error at the kernel line, not PTX that ptxas rejects */
TEST(target_missing_feature_is_refused) {
    static const char *src =
        "import triton\n"
        "import triton.language as tl\n"
        "\n"
        "@triton.jit\n"
        "def acc(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    tl.atomic_add(out_ptr + offs, tl.load(x_ptr + offs))\n";
    Kern K;
    if (!k_open(&K, src, "acc", 64)) return;
    const char *sig[2] = {"*bf16:16", "*bf16:16"};
    tc_target t;
    char *ptx = NULL;
    CHECK_INT(TC_OK, tc_target_parse("cuda:80", &t));
    CHECK_INT(TC_ERR_UNSUPPORTED, tc_compile_ptx(K.k, &t, sig, 2, K.a, 4, &ptx));
    CHECK(ptx == NULL);
    CHECK_CONTAINS(tc_errmsg(K.ctx), "k.py:7:5: error: the target sm_80 has no bf16 atomics "
                                     "(atom.add.noftz.bf16)");
    CHECK_INT(TC_OK, tc_target_parse("cuda:90a", &t));
    CHECK_INT(TC_OK, tc_compile_ptx(K.k, &t, sig, 2, K.a, 4, &ptx));
    if (ptx) CHECK_CONTAINS(ptx, ".version 8.0\n.target sm_90a\n");
    tc_free(ptx);
    k_close(&K);
}
