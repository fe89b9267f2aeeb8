/* test_hostpy.c — the host-Python subset (issue 12): the host code of Triton's tutorials, in
 * tests/kernels/hostcode.py (patterns of our own), evaluated for @triton.autotune; hardware
 * queries answered for an assumed target (TRITONC_TARGET) or refused with Triton's words;
 * prune_configs_by, pre_hook; --config and tc_kernel_set_config; the interpreter's choice of
 * the first config surviving pruning. Expected values are worked out by hand in comments. */
#include "test.h"
#include "test_kernels_util.h"
#include "tritonc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *HFILE = "tests/kernels/hostcode.py";


/* Runs kernel kname of HFILE under the interpreter on x = zeros(n) with n, grid g. */
static tc_status run_fill(tc_context *ctx, tc_module *m, const char *kname, int n, int g,
                          int config, float *out) {
    tc_kernel *k = NULL;
    tc_status s = tc_module_kernel(m, kname, &k);
    if (s) return s;
    if (config >= -1 && (s = tc_kernel_set_config(k, config))) return s;
    int64_t shape = n;
    tc_tensor *x = NULL;
    tc_tensor_new(ctx, TC_FP32, 1, &shape, &x);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "n", tc_int(n));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = (uint32_t)g;
    s = tc_launch(k, a, &o);
    if (!s && out) tc_tensor_to_host(x, out, sizeof(float) * (size_t)n);
    tc_args_free(a);
    tc_tensor_free(x);
    return s;
}

TEST(hostpy_tutorial_patterns_cuda90) {
    setenv("TRITONC_TARGET", "cuda:90", 1);
    unsetenv("TRITONC_TEST_STAGES");
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, HFILE, &m));
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_kernel(m, "fill", &k));
    tc_tune_info ti;
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    /* b in [64, 32, 16], s in [1, 2] with b*s <= 64 (5 pairs), x 2 (num_warps, num_stages)
     * pairs: 10 configs, all kept by keep_small */
    CHECK_INT(10, ti.nconfigs);
    CHECK_STR("BLOCK: 64, SPLIT: 1, num_warps: 2, num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 0));
    CHECK_STR("BLOCK: 64, SPLIT: 1, num_warps: 4, num_ctas: 1, num_stages: 4, maxnreg: None", tc_kernel_config_str(k, 1));
    CHECK_STR("BLOCK: 32, SPLIT: 2, num_warps: 2, num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 4));
    CHECK_STR("BLOCK: 16, SPLIT: 2, num_warps: 4, num_ctas: 1, num_stages: 4, maxnreg: None", tc_kernel_config_str(k, 9));
    /* n = 40: prune keeps BLOCK <= 40; the first survivor is config 2 (BLOCK 32, SPLIT 1) */
    float out[64];
    CHECK_INT(TC_OK, run_fill(ctx, m, "fill", 40, 2, -2, out));
    tc_tune_report r;
    CHECK_INT(TC_OK, tc_last_tune(ctx, &r));
    CHECK_INT(TC_TUNE_FIRST, r.source);
    CHECK_INT(2, r.best);
    CHECK(out[0] == 0 && out[39] == 39);   /* x[i] = i * SPLIT */
    tc_launch_report lr;
    tc_last_launch(ctx, &lr, sizeof lr);
    CHECK_CONTAINS(lr.note, "autotune: config 2 of 10, the first surviving pruning (8 do)");
    CHECK_INT(2, lr.num_warps);
    /* n = 20: BLOCK <= 20 leaves the BLOCK 16 configs, 6 first */
    CHECK_INT(TC_OK, run_fill(ctx, m, "fill", 20, 2, -2, out));
    CHECK_INT(TC_OK, tc_last_tune(ctx, &r));
    CHECK_INT(6, r.best);
    /* a chosen config (before pruning): 4 is BLOCK 32, SPLIT 2: x[i] = 2i */
    CHECK_INT(TC_OK, run_fill(ctx, m, "fill", 40, 2, 4, out));
    CHECK_INT(TC_OK, tc_last_tune(ctx, &r));
    CHECK_INT(TC_TUNE_CHOSEN, r.source);
    CHECK_INT(4, r.best);
    CHECK(out[39] == 78);
    /* by values */
    int idx = -1;
    CHECK_INT(TC_OK, tc_kernel_find_config(k, "BLOCK=16, SPLIT=2,num_warps=2", &idx));
    CHECK_INT(8, idx);
    CHECK_INT(TC_ERR_ARG, tc_kernel_find_config(k, "BLOCK=16", &idx));
    CHECK_CONTAINS(tc_errmsg(ctx), "config 'BLOCK=16' matches 4 of the 10 configs of fill");
    CHECK_CONTAINS(tc_errmsg(ctx), "\n  9: BLOCK: 16, SPLIT: 2, num_warps: 4");
    CHECK_INT(TC_ERR_ARG, tc_kernel_find_config(k, "BLOCK=128", &idx));
    CHECK_CONTAINS(tc_errmsg(ctx), "matches 0 of the 10");
    CHECK_INT(TC_ERR_ARG, tc_kernel_find_config(k, "BLOCK", &idx));
    CHECK_INT(TC_ERR_ARG, tc_kernel_set_config(k, 10));
    CHECK_CONTAINS(tc_errmsg(ctx), "fill has 10 configs (0 to 9)");
    CHECK_INT(TC_OK, tc_kernel_set_config(k, -1));
    /* module-level if over the capability: cuda:90 has major 9 -> STAGES = [2, 3] */
    CHECK_INT(TC_OK, tc_module_kernel(m, "staged", &k));
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(2, ti.nconfigs);
    CHECK_STR("BLOCK: 8, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 1));
    /* num_sms from the nominal H100 SXM: 132 */
    CHECK_INT(TC_OK, tc_module_kernel(m, "persistent", &k));
    CHECK_STR("NUM_SM: 132, BLOCK: 4, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 0));
    CHECK_INT(TC_OK, run_fill(ctx, m, "persistent", 4, 1, -2, out));
    CHECK(out[0] == 132 && out[3] == 132);
    /* a work-code function that is never called is never an error */
    CHECK_INT(TC_OK, run_fill(ctx, m, "plain", 4, 1, -3, out));
    CHECK(out[0] == 5);
    tc_module_free(m);
    tc_context_free(ctx);
    unsetenv("TRITONC_TARGET");
}

TEST(hostpy_other_targets_and_env) {
    /* cuda:80: capability major 8 -> STAGES = [2]; the nominal A100 has 108 SMs */
    setenv("TRITONC_TARGET", "cuda:80", 1);
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, HFILE, &m));
    tc_kernel *k = NULL;
    tc_tune_info ti;
    CHECK_INT(TC_OK, tc_module_kernel(m, "staged", &k));
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(1, ti.nconfigs);
    CHECK_STR("BLOCK: 8, num_warps: 4, num_ctas: 1, num_stages: 2, maxnreg: None", tc_kernel_config_str(k, 0));
    CHECK_INT(TC_OK, tc_module_kernel(m, "persistent", &k));
    CHECK_STR("NUM_SM: 108, BLOCK: 4, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 0));
    tc_module_free(m);
    tc_context_free(ctx);
    /* "NAME" in os.environ rebinds STAGES at module level */
    setenv("TRITONC_TEST_STAGES", "5", 1);
    ctx = kt_ctx();
    CHECK_INT(TC_OK, tc_module_load_file(ctx, HFILE, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "staged", &k));
    CHECK_STR("BLOCK: 8, num_warps: 4, num_ctas: 1, num_stages: 5, maxnreg: None", tc_kernel_config_str(k, 0));
    tc_module_free(m);
    tc_context_free(ctx);
    unsetenv("TRITONC_TEST_STAGES");
    /* the API's view of the assumed device */
    setenv("TRITONC_TARGET", "cuda:120", 1);
    ctx = kt_ctx();
    tc_target at;
    tc_device_props ap;
    CHECK_INT(TC_OK, tc_assumed_device(ctx, &at, &ap));
    CHECK_INT(120, at.arch);
    CHECK_STR("NVIDIA GeForce RTX 5090", ap.name);
    CHECK_INT(170, ap.multiprocessor_count);
    CHECK_INT(12, ap.major);
    unsetenv("TRITONC_TARGET");
    CHECK_INT(TC_ERR_NOT_FOUND, tc_assumed_device(ctx, &at, &ap));
    setenv("TRITONC_TARGET", "cuda:99", 1);
    CHECK_INT(TC_ERR_ARG, tc_assumed_device(ctx, &at, &ap));
    CHECK_CONTAINS(tc_errmsg(ctx), "TRITONC_TARGET=cuda:99: not a target tritonc knows");
    tc_context_free(ctx);
    /* a target without a nominal device, and one tritonc does not know */
    setenv("TRITONC_TARGET", "cuda:87", 1);
    ctx = kt_ctx();
    CHECK_INT(TC_OK, tc_module_load_file(ctx, HFILE, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "staged", &k));
    CHECK_INT(TC_ERR_ARG, tc_kernel_tune_info(k, &ti));
    CHECK_CONTAINS(tc_errmsg(ctx), "TRITONC_TARGET=cuda:87: tritonc has no nominal device of that architecture");
    CHECK_CONTAINS(tc_errmsg(ctx), "hostcode.py:17:12:");
    tc_module_free(m);
    tc_context_free(ctx);
    unsetenv("TRITONC_TARGET");
}

TEST(hostpy_evaluator_battery) {
    setenv("TRITONC_TARGET", "cuda:90", 1);
    unsetenv("TRITONC_TEST_UNSET_VARIABLE");
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, HFILE, &m));
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_kernel(m, "evaluated", &k));
    /* worked out by hand from battery(0, 5, 1, tag='T'):
     * d = {a:1, b:2, c:3}; d.get('q', 7) = 7; {x % 3} = {0, 1, 2}: 3; sorted pairs by the
     * letter: ('x', 3); args truthy at 1, 2 -> [2, 4]; filter > 1 then + 1 -> [3, 4];
     * (3, 2, 1)[:2] = (3, 2); 'T-3'; True; 2 + 3 + 100 (for-else) = 105; 1; 9; 3;
     * 12 + 2 = 14; 0.25; -7 // 2 = -4; -7 % 3 = 2; 1024; False; 'dflt' */
    CHECK_STR("KIND: [7, 3, ('x', 3), [2, 4], [3, 4], (3, 2), 'T-3', True, 105, 1, 9, 3, 14, 0.25, "
              "-4, 2, 1024, False, 'dflt'], num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None",
              tc_kernel_config_str(k, 0));
    /* the config's pre_hook runs before the launch with the arguments and the config */
    float out[64];
    CHECK_INT(TC_OK, run_fill(ctx, m, "evaluated", 20, 1, -2, out));
    CHECK(out[0] == 2 && out[3] == 2);
    CHECK_INT(TC_ERR_ARG, run_fill(ctx, m, "evaluated", 40, 1, -2, out));
    CHECK_CONTAINS(tc_errmsg(ctx), "AssertionError: hook saw n=40 BLOCK=4 num_warps=4");
    CHECK_CONTAINS(tc_errmsg(ctx), "hostcode.py:114:");
    /* a hook that works on a tensor's data is refused with its location */
    CHECK_INT(TC_ERR_UNSUPPORTED, run_fill(ctx, m, "data_hooked", 4, 1, 0, out));
    CHECK_CONTAINS(tc_errmsg(ctx), "hostcode.py:118:5: error: tensor.zero_() is host code that works on the tensor's data");
    /* its other config has no hook */
    CHECK_INT(TC_OK, run_fill(ctx, m, "data_hooked", 4, 1, 1, out));
    CHECK(out[0] == 3);
    /* host code that needs real computation: the construct and where */
    CHECK_INT(TC_OK, tc_module_kernel(m, "broken", &k));
    tc_tune_info ti;
    CHECK_INT(TC_ERR_UNSUPPORTED, tc_kernel_tune_info(k, &ti));
    CHECK_CONTAINS(tc_errmsg(ctx), "hostcode.py:136:50: error: torch.arange() is not in tritonc's host subset");
    tc_module_free(m);
    tc_context_free(ctx);
    unsetenv("TRITONC_TARGET");
}

TEST(hostpy_no_driver_words) {
    unsetenv("TRITONC_TARGET");
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, HFILE, &m));
    /* a kernel whose configs need no hardware runs; DEVICE is never needed */
    float out[8];
    CHECK_INT(TC_OK, run_fill(ctx, m, "plain", 4, 1, -3, out));
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_kernel(m, "fill", &k));
    tc_tune_info ti;
    tc_status s = tc_kernel_tune_info(k, &ti);
    if (!kt_have_driver()) {
        /* is_cuda() at line 13 asks: Triton's words, the call's location, a hint */
        CHECK_INT(TC_ERR_NO_DRIVER, s);
        CHECK_CONTAINS(tc_errmsg(ctx), "hostcode.py:13:12: error: RuntimeError: 0 active drivers ([]). There should only be one.");
        CHECK_CONTAINS(tc_errmsg(ctx), "TRITONC_TARGET=cuda:90");
        tc_srcloc loc = tc_errloc(ctx);
        CHECK_INT(13, loc.line);
    } else {
        CHECK_INT(TC_OK, s);
    }
    /* a hook reading DEVICE (line 9): the same error on every launch, not a cycle */
    for (int i = 0; i < 2 && !kt_have_driver(); i++) {
        CHECK_INT(TC_ERR_NO_DRIVER, run_fill(ctx, m, "device_hooked", 8, 1, 0, out));
        CHECK_CONTAINS(tc_errmsg(ctx), "hostcode.py:9:10: error: RuntimeError: 0 active drivers");
    }
    CHECK_INT(TC_OK, run_fill(ctx, m, "device_hooked", 8, 1, 1, out));   /* no hook */
    CHECK(out[7] == 7);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(hostpy_parse_host_syntax) {
    /* host syntax a kernel file may hold: all of it loads, jit kernels are found */
    const char *src =
        "import os\nimport triton\nimport triton.language as tl\n"
        "A = {1, 2} if os.getenv('X') else {k: v for k, v in [(1, 2)]}\n"
        "def f(a, b=2, *rest, key=None, **kw):\n    return [x for x in rest for y in kw if x]\n"
        "g = lambda x, y=3, *a, **k: f'{x}'\n"
        "class C:\n    pass\n"
        "try:\n    import numpy\nexcept ImportError:\n    pass\n"
        "ONE = tl.constexpr(1)\nTWO: tl.constexpr = 2\n"
        "@triton.autotune(configs=[triton.Config({'B': b}) for b in (lambda *s: s)(ONE, TWO)], key=[])\n"
        "@triton.jit\ndef k(x, B: tl.constexpr):\n    pass\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "syn.py", src, &m));
    CHECK_INT(1, tc_module_kernel_count(m));
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_kernel(m, "k", &k));
    tc_tune_info ti;
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(2, ti.nconfigs);
    CHECK_STR("B: 2, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 1));
    tc_module_free(m);
    /* a module-level loop that would change a value the decorator reads: refused, located */
    src = "import triton\nimport triton.language as tl\nCF = []\nfor b in [1, 2]:\n"
          "    CF.append(triton.Config({'B': b}))\n"
          "@triton.autotune(configs=CF, key=[])\n@triton.jit\ndef k(x, B: tl.constexpr):\n    pass\n";
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "loop.py", src, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "k", &k));
    CHECK_INT(TC_ERR_UNSUPPORTED, tc_kernel_tune_info(k, &ti));
    CHECK_CONTAINS(tc_errmsg(ctx), "loop.py:4:1: error: 'CF' is changed by a module-level for loop");
    tc_module_free(m);
    src = "import triton\nimport triton.language as tl\nCF = [triton.Config({'B': 1})]\n"
          "CF.append(triton.Config({'B': 2}))\n"
          "@triton.autotune(configs=CF, key=[])\n@triton.jit\ndef k(x, B: tl.constexpr):\n    pass\n";
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "mut.py", src, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "k", &k));
    CHECK_INT(TC_ERR_UNSUPPORTED, tc_kernel_tune_info(k, &ti));
    CHECK_CONTAINS(tc_errmsg(ctx), "mut.py:4:1: error: module-level code changes 'CF' here (CF.append(...))");
    tc_module_free(m);
    /* Python's errors, with Python's names */
    src = "import triton\nimport triton.language as tl\n"
          "def cfgs():\n    d = {'B': 1}\n    return [triton.Config(d, num_warps=d['W'])]\n"
          "@triton.autotune(configs=cfgs(), key=[])\n@triton.jit\ndef k(x, B: tl.constexpr):\n    pass\n";
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "py.py", src, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "k", &k));
    CHECK_INT(TC_ERR_ARG, tc_kernel_tune_info(k, &ti));
    CHECK_CONTAINS(tc_errmsg(ctx), "py.py:5:40: error: KeyError: 'W'");
    tc_module_free(m);
    src = "import triton\nimport triton.language as tl\n"
          "def cfgs(n):\n    return [triton.Config({'B': 1 // n})]\n"
          "@triton.autotune(configs=cfgs(0), key=[])\n@triton.jit\ndef k(x, B: tl.constexpr):\n    pass\n";
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "zd.py", src, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "k", &k));
    CHECK_INT(TC_ERR_ARG, tc_kernel_tune_info(k, &ti));
    CHECK_CONTAINS(tc_errmsg(ctx), "zd.py:4:33: error: ZeroDivisionError");
    tc_module_free(m);
    src = "import triton\nimport triton.language as tl\n"
          "def cfgs(n):\n    return cfgs(n + 1)\n"
          "@triton.autotune(configs=cfgs(0), key=[])\n@triton.jit\ndef k(x, B: tl.constexpr):\n    pass\n";
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "rec.py", src, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "k", &k));
    CHECK_INT(TC_ERR_LIMIT, tc_kernel_tune_info(k, &ti));
    CHECK_CONTAINS(tc_errmsg(ctx), "RecursionError");
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(hostpy_cli) {
    char out[8192];
    char cmd[2048];
    /* --target and --config on run; --verbose says which config and why */
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u TRITONC_TARGET %s/tritonc run %s fill --interpret "
             "--target cuda:90 --config 'BLOCK=16,SPLIT=2,num_warps=2' 'x_ptr=fp32:zeros(8)' n=8 --print x_ptr --verbose",
             test_build_dir(), HFILE);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "x_ptr = [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0]");
    CHECK_CONTAINS(out, "autotune: config 8 (BLOCK: 16, SPLIT: 2, num_warps: 2");
    CHECK_CONTAINS(out, "chosen by the caller");
    CHECK_CONTAINS(out, "answered for an assumed cuda:90, a nominal NVIDIA H100 80GB HBM3 (132 SMs), not a GPU");
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u TRITONC_TARGET %s/tritonc run %s fill --interpret "
             "--target cuda:90 --config 12 'x_ptr=fp32:zeros(8)' n=8", test_build_dir(), HFILE);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "--config: config 12: fill has 10 configs (0 to 9)");
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u TRITONC_TARGET %s/tritonc run %s fill --interpret "
             "--target cuda:75 'x_ptr=fp32:zeros(8)' n=8", test_build_dir(), HFILE);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "--target: unknown target 'cuda:75'");
    /* no GPU and no target: the chapter's words, exit 3 */
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u TRITONC_TARGET TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1 "
             "%s/tritonc run %s fill --interpret 'x_ptr=fp32:zeros(8)' n=8", test_build_dir(), HFILE);
    CHECK_INT(3, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "RuntimeError: 0 active drivers ([]). There should only be one.");
    CHECK(strstr(out, "pass --interpret") == NULL);
}

TEST(hostpy_ptr_table_and_heuristic_function) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, HFILE, &m));
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_kernel(m, "gather_sum", &k));
    float a0v[3] = {1, 2, 3}, a1v[5] = {10, 20, 30, 40, 50};
    int64_t n0 = 3, n1 = 5, two = 2;
    tc_tensor *a0 = NULL, *a1 = NULL, *tab = NULL, *out = NULL, *sizes = NULL;
    tc_tensor_from_host(ctx, TC_FP32, 1, &n0, a0v, &a0);
    tc_tensor_from_host(ctx, TC_FP32, 1, &n1, a1v, &a1);
    tc_tensor *both[2] = {a0, a1};
    CHECK_INT(TC_OK, tc_tensor_ptr_table(ctx, both, 2, &tab));
    CHECK_INT(TC_I64, tc_tensor_dtype(tab));
    CHECK_INT(2, (int)tc_tensor_numel(tab));
    int32_t sz[2] = {3, 5};
    tc_tensor_from_host(ctx, TC_I32, 1, &two, sz, &sizes);
    tc_tensor_new(ctx, TC_FP32, 1, &two, &out);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "table", tc_tens(tab));
    tc_args_set(a, "out_ptr", tc_tens(out));
    tc_args_set(a, "sizes", tc_tens(sizes));
    tc_args_set(a, "group_size", tc_int(2));
    tc_launch_opts o = tc_launch_defaults();
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    /* BLOCK = next_power_of_2(2 * 3) = 8 (a module function, through the host subset);
     * sums 1+2+3 = 6 and 10+...+50 = 150 */
    float r[2] = {0, 0};
    tc_tensor_to_host(out, r, sizeof r);
    CHECK(r[0] == 6 && r[1] == 150);
    tc_launch_report lr;
    tc_last_launch(ctx, &lr, sizeof lr);
    CHECK_CONTAINS(lr.specialization, "BLOCK=8");
    /* six elements of a five-element tensor: the load through the table is checked */
    sz[1] = 6;
    tc_tensor_copy_from_host(sizes, sz, sizeof sz);
    CHECK_INT(TC_ERR_RUNTIME, tc_launch(k, a, &o));
    CHECK_CONTAINS(tc_errmsg(ctx), "hostcode.py:175:13: error: out-of-bounds load");
    CHECK_CONTAINS(tc_errmsg(ctx), "past the end of 'the tensor at table[1]'");
    /* a table of tensors of another context is refused */
    tc_context *c2 = kt_ctx();
    tc_tensor *tab2 = NULL;
    CHECK_INT(TC_ERR_ARG, tc_tensor_ptr_table(c2, both, 2, &tab2));
    CHECK_CONTAINS(tc_errmsg(c2), "tensor 0 is of another context");
    CHECK_INT(TC_ERR_ARG, tc_tensor_ptr_table(c2, both, 0, &tab2));
    tc_context_free(c2);
    tc_args_free(a);
    tc_tensor_free(tab);
    tc_tensor_free(a0);
    tc_tensor_free(a1);
    tc_tensor_free(out);
    tc_tensor_free(sizes);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(hostpy_cli_ptrs) {
    char out[8192], cmd[2048];
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u TRITONC_TARGET %s/tritonc run %s gather_sum --interpret "
             "--tensor 'a0=fp32[1,2,3]' --tensor 'a1=fp32:arange(5)' 'table=ptrs(a0, a1)' "
             "'sizes=i32[3,5]' 'out_ptr=fp32:zeros(2)' group_size=2 --print out_ptr --print a1",
             test_build_dir(), HFILE);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "out_ptr = [6.0, 10.0]");   /* 0+1+2+3+4 = 10 */
    CHECK_CONTAINS(out, "a1 = [0.0, 1.0, 2.0, 3.0, 4.0]");
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET %s/tritonc run %s gather_sum --interpret "
             "--tensor 'a0=fp32[1,2,3]' 'table=ptrs(a0, b9)' 'sizes=i32[3,5]' 'out_ptr=fp32:zeros(2)' group_size=2",
             test_build_dir(), HFILE);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "argument table: ptrs(): no --tensor named 'b9'");
}

TEST(hostpy_heuristics_errors_at_launch) {
    /* heuristics the older evaluator cannot read go to the host subset: their errors come
     * at the launch that needs them, in Python's words, at the value */
    static const struct { const char *lam, *msg; tc_status code; int col; } cases[] = {
        {"lambda args: helper(args['n'])", "NameError: name 'helper' is not defined", TC_ERR_ARG, 43},
        {"block_for", "NameError: name 'block_for' is not defined", TC_ERR_ARG, 30},
        {"lambda args: [x for x in args['n']]", "TypeError: 'int' object is not iterable", TC_ERR_ARG, 55},
        {"lambda args: args.n", "AttributeError: 'dict' object has no attribute 'n'", TC_ERR_ARG, 43},
        {"lambda args: triton.next_power_of_2(args['n']) * [1]", "heuristics value 'BLOCK' is a list", TC_ERR_ARG, 30},
        {"lambda args: {k: v for k, v in args.items()}['n']", NULL, TC_OK, 0},
    };
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        char src[1024];
        snprintf(src, sizeof src, "import triton\nimport triton.language as tl\n\n"
                 "@triton.heuristics({'BLOCK': %s})\n@triton.jit\n"
                 "def kern(x_ptr, n, BLOCK: tl.constexpr):\n    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n",
                 cases[i].lam);
        tc_context *ctx = kt_ctx();
        tc_module *m = NULL;
        CHECK_INT(TC_OK, tc_module_load_string(ctx, "heur.py", src, &m));
        tc_kernel *k = NULL;
        CHECK_INT(TC_OK, tc_module_kernel(m, "kern", &k));
        tc_tune_info ti;
        CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));   /* nothing is needed yet */
        float out[8];
        tc_status s = run_fill(ctx, m, "kern", 8, 1, -3, out);
        CHECK_INT(cases[i].code, s);
        if (cases[i].msg) {
            CHECK_CONTAINS(tc_errmsg(ctx), cases[i].msg);
            tc_srcloc loc = tc_errloc(ctx);
            CHECK_INT(4, loc.line);
            CHECK_INT(cases[i].col, loc.col);
            if (test_failed) printf("  case %d: %s\n", i, tc_errmsg(ctx));
        } else {
            CHECK(out[0] == 1 && out[7] == 1);   /* BLOCK = n = 8 */
        }
        tc_module_free(m);
        tc_context_free(ctx);
    }
}
