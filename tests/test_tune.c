/* test_tune.c — @triton.autotune / @triton.heuristics read from the kernel file
 * (and each refusal, with its exact location), heuristics under the interpreter (checked
 * against C references), the honest refusal without a driver, the tuning database (written
 * by hand here, replayed, exported, re-imported) and hostile database files, and the
 * `tritonc tune` / `tritonc bench` commands. */
#include "test.h"
#include "test_kernels_util.h"
#include "tune/tune.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *KFILE = "tests/kernels/autotune.py";


static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(text, 1, strlen(text), f);
    fclose(f);
}

static char tdir[512];
static const char *scratch(void) {
    snprintf(tdir, sizeof tdir, "%s/tests/tune", test_build_dir());
    char cmd[700], o[256];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tdir);
    test_run(cmd, o, sizeof o);
    return tdir;
}

/* ---- decorators ---------------------------------------------------------------------------- */

TEST(tune_decorators_parse) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, KFILE, &m));
    if (!m) { tc_context_free(ctx); return; }
    tc_kernel *k = NULL;
    tc_tune_info ti;
    CHECK_INT(TC_OK, tc_module_kernel(m, "matmul_kernel", &k));
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(1, ti.autotuned);
    CHECK_INT(0, ti.heuristics);
    CHECK_INT(6, ti.nconfigs);
    CHECK_INT(3, ti.nkey);
    CHECK_NEAR(25, ti.warmup_ms, 0, 0);
    CHECK_NEAR(100, ti.rep_ms, 0, 0);
    CHECK_STR("BLOCK_SIZE_M: 256, BLOCK_SIZE_N: 128, BLOCK_SIZE_K: 64, GROUP_SIZE_M: 8, num_warps: 8, "
              "num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 0));
    CHECK_STR("BLOCK_SIZE_M: 64, BLOCK_SIZE_N: 64, BLOCK_SIZE_K: 32, GROUP_SIZE_M: 8, num_warps: 4, "
              "num_ctas: 1, num_stages: 4, maxnreg: None", tc_kernel_config_str(k, 5));
    CHECK(tc_kernel_config_str(k, 6) == NULL);
    CHECK(tc_kernel_config_str(k, -1) == NULL);

    CHECK_INT(TC_OK, tc_module_kernel(m, "softmax_kernel", &k));
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(1, ti.autotuned);
    CHECK_INT(1, ti.heuristics);
    CHECK_INT(5, ti.nconfigs);
    CHECK_STR("num_warps: 16, num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 4));
    CHECK_STR("BLOCK_SIZE", tc_kernel_heuristic_name(k, 0));

    CHECK_INT(TC_OK, tc_module_kernel(m, "scale_kernel", &k));
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(0, ti.autotuned);
    CHECK_INT(3, ti.heuristics);
    CHECK_INT(0, ti.nconfigs);
    CHECK_STR("BLOCK", tc_kernel_heuristic_name(k, 0));
    CHECK_STR("EVEN", tc_kernel_heuristic_name(k, 1));
    CHECK_STR("SCALE", tc_kernel_heuristic_name(k, 2));
    CHECK(tc_kernel_heuristic_name(k, 3) == NULL);

    CHECK_INT(TC_OK, tc_module_kernel(m, "add_sum_kernel", &k));
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(3, ti.nconfigs);
    CHECK_STR("BLOCK: 1024, num_warps: 8, num_ctas: 1, num_stages: 3, maxnreg: None", tc_kernel_config_str(k, 2));
    tc_module_free(m);
    tc_context_free(ctx);
}

static const char *HDR = "import triton\nimport triton.language as tl\n\n";
static const char *BODY = "@triton.jit\ndef kern(x_ptr, n, BLOCK: tl.constexpr, FLAG: tl.constexpr = 0):\n"
                          "    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n";

typedef struct Refusal {
    const char *deco;      /* decorator lines (starting at line 4) */
    tc_status code;
    const char *msg;       /* a substring of the message */
    const char *at;        /* the text the caret must point at */
} Refusal;

static const Refusal refusals[] = {
    /* host code is evaluated now (issue 12): what it cannot find or run is a Python error */
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=['n'], prune_configs_by={'early_config_prune': prune})\n",
     TC_ERR_ARG, "NameError: name 'prune' is not defined", "prune})"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=['n'], do_bench=my_bench)\n",
     TC_ERR_UNSUPPORTED, "triton.autotune(do_bench=...) is a Python function", "my_bench)"},
    {"@triton.autotune(configs=get_configs(), key=['n'])\n",
     TC_ERR_ARG, "NameError: name 'get_configs' is not defined", "get_configs()"},
    {"@triton.autotune(configs=CONFIGS, key=['n'])\n",
     TC_ERR_ARG, "NameError: name 'CONFIGS' is not defined", "CONFIGS,"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4}), {'BLOCK': 8}], key=['n'])\n",
     TC_ERR_ARG, "configs: expected triton.Config objects, got a 'dict'", "[triton.Config({'BLOCK': 4}), {"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4}, num_warps=3)], key=['n'])\n",
     TC_ERR_ARG, "num_warps must be a power of 2 (got 3)", "triton.Config({'BLOCK': 4}, num_warps=3)"},
    {"@triton.autotune(configs=[triton.Config({'BLOCKX': 4})], key=['n'])\n",
     TC_ERR_ARG, "triton.Config: 'BLOCKX' is not a parameter of kern(x_ptr, n, BLOCK, FLAG)", "triton.Config({'BLOCKX'"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4}, num_ctas=2)], key=['n'])\n",
     TC_ERR_UNSUPPORTED, "num_ctas=2 (thread block clusters) is not supported", "triton.Config({'BLOCK': 4}, num_ctas"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=['n'], reset_to_zero=['nope'])\n",
     TC_ERR_ARG, "reset_to_zero: 'nope' is not a parameter of kern", "['nope']"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=['n'], restore_value=['x_ptr', 'y'])\n",
     TC_ERR_ARG, "restore_value: 'y' is not a parameter of kern", "['x_ptr', 'y']"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4}, pre_hook=1)], key=['n'], use_cuda_graph=triton.testing.do_bench_cudagraph())\n",
     TC_ERR_UNSUPPORTED, "triton.testing.do_bench_cudagraph() is not in tritonc's host subset", "triton.testing.do_bench_cudagraph()"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4}, bogus=1)], key=['n'])\n",
     TC_ERR_ARG, "TypeError: Config() got an unexpected keyword argument 'bogus'", "triton.Config({'BLOCK': 4}, bogus"},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=['n'], tuner='x')\n",
     TC_ERR_ARG, "triton.autotune() got an unexpected keyword argument 'tuner'", "tuner="},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4})])\n",
     TC_ERR_ARG, "triton.autotune() missing 1 required argument: 'key'", "triton.autotune("},
    {"@triton.autotune(configs=[triton.Config({'BLOCK': 4})], key=keys)\n",
     TC_ERR_ARG, "NameError: name 'keys' is not defined", "keys)"},
    {"@triton.heuristics({'BLOK': lambda args: 4})\n",
     TC_ERR_ARG, "triton.heuristics: 'BLOK' is not a parameter of kern", "'BLOK'"},
    {"@triton.heuristics(values={'BLOCK': lambda a, b: 4})\n",
     TC_ERR_ARG, "the lambda for 'BLOCK' must take one argument", "lambda a, b"},
    {"@triton.heuristics(HEURISTICS)\n",
     TC_ERR_UNSUPPORTED, "triton.heuristics: the values must be a dict literal", "HEURISTICS)"},
    {"@triton.heuristics({'BLOCK': lambda args: 4})\n"
     "@triton.autotune(configs=[\n"
     "    triton.Config({'FLAG': 1}),\n"
     "    triton.Config({'FLAG': 2}, maxnreg=300),\n"
     "], key=['n'])\n",
     TC_ERR_ARG, "maxnreg must be an integer in [1, 255]", "triton.Config({'FLAG': 2}, maxnreg"},
};

TEST(tune_decorator_refusals) {
    for (int i = 0; i < COUNT_OF(refusals); i++) {
        const Refusal *r = &refusals[i];
        char src[4096];
        snprintf(src, sizeof src, "%s%s%s", HDR, r->deco, BODY);
        tc_context *ctx = kt_ctx();
        tc_module *m = NULL;
        tc_status s = tc_module_load_string(ctx, "refuse.py", src, &m);
        CHECK_INT(TC_OK, s);
        if (s) { printf("  case %d: %s\n", i, tc_errmsg(ctx)); tc_context_free(ctx); continue; }
        tc_kernel *k = NULL;
        CHECK_INT(TC_OK, tc_module_kernel(m, "kern", &k));
        tc_tune_info ti;
        tc_status got = tc_kernel_tune_info(k, &ti);
        CHECK_INT(r->code, got);
        CHECK_CONTAINS(tc_errmsg(ctx), r->msg);
        /* the location: the line and column of r->at in the decorator text */
        const char *p = strstr(src, r->at);
        int line = 1, col = 1;
        for (const char *q = src; p && q < p; q++) {
            if (*q == '\n') { line++; col = 1; } else col++;
        }
        tc_srcloc loc = tc_errloc(ctx);
        CHECK_INT(line, loc.line);
        CHECK_INT(col, loc.col);
        if (test_failed && (loc.line != line || loc.col != col || got != r->code))
            printf("  case %d: %s\n", i, tc_errmsg(ctx));
        /* a launch reports the same refusal: never silently dropped */
        tc_args *a = NULL;
        tc_args_new(k, &a);
        CHECK_INT(r->code, tc_launch(k, a, NULL));
        tc_args_free(a);
        tc_module_free(m);
        tc_context_free(ctx);
    }
    /* the message carries file:line:col and the caret line */
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    char src[2048];
    snprintf(src, sizeof src, "%s%s%s", HDR, refusals[0].deco, BODY);
    tc_module_load_string(ctx, "refuse.py", src, &m);
    tc_kernel *k = NULL;
    tc_module_kernel(m, "kern", &k);
    tc_tune_info ti;
    tc_kernel_tune_info(k, &ti);
    CHECK_CONTAINS(tc_errmsg(ctx), "refuse.py:4:");
    CHECK_CONTAINS(tc_errmsg(ctx), "^");
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- heuristics under the interpreter -------------------------------------------------------- */

static void launch_scale(int n, float *out_host, char *spec, size_t nspec) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_module_load_file(ctx, KFILE, &m);
    tc_kernel *k = NULL;
    tc_module_kernel(m, "scale_kernel", &k);
    float *x = malloc(sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) x[i] = (float)(i % 97) * 0.5f - 3.0f;
    int64_t shape = n;
    tc_tensor *tx = NULL, *to = NULL;
    tc_tensor_from_host(ctx, TC_FP32, 1, &shape, x, &tx);
    tc_tensor_new(ctx, TC_FP32, 1, &shape, &to);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(tx));
    tc_args_set(a, "out_ptr", tc_tens(to));
    tc_args_set(a, "n", tc_int(n));
    tc_launch_opts o = tc_launch_defaults();
    int block = 1;
    while (block < n) block *= 2;
    if (block > 1024) block = 1024;
    o.grid[0] = (uint32_t)((n + block - 1) / block);
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_tensor_to_host(to, out_host, sizeof(float) * (size_t)n);
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    snprintf(spec, nspec, "%s", r.specialization);
    /* the user's argument list is unchanged: heuristics values are per launch */
    tc_value v;
    CHECK_INT(TC_ERR_NOT_FOUND == tc_args_get(a, "BLOCK", &v) ? 1 : (v.kind == TC_VAL_NONE), 1);
    free(x);
    tc_args_free(a);
    tc_tensor_free(tx);
    tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(tune_heuristics_interp) {
    static const int sizes[] = {300, 1024, 64, 3000};
    for (int si = 0; si < COUNT_OF(sizes); si++) {
        int n = sizes[si];
        float *out = calloc((size_t)n, sizeof(float));
        char spec[512];
        launch_scale(n, out, spec, sizeof spec);
        /* the reference: the heuristics and the kernel, written in C */
        int block = 1;
        while (block < n) block *= 2;
        if (block > 1024) block = 1024;
        int even = n % block == 0;
        float scale = n > 100 ? 2.0f : 3.0f;
        int bad = 0;
        for (int i = 0; i < n; i++) {
            float x = (float)(i % 97) * 0.5f - 3.0f;
            float want = even ? x * scale + 1.0f : x * scale;
            if (out[i] != want) bad++;
        }
        CHECK_INT(0, bad);
        char want[200];
        snprintf(want, sizeof want, "BLOCK=%d, EVEN=%s, SCALE=%s", block, even ? "True" : "False",
                 scale == 2.0f ? "2.0" : "3.0");
        CHECK_CONTAINS(spec, want);
        free(out);
    }
}

/* The evaluator's Python semantics, read back through the specialization string. */
TEST(tune_heuristics_eval) {
    const char *src =
        "import triton\nimport triton.language as tl\n"
        "W = tl.constexpr(3)\n"
        "@triton.heuristics({\n"
        "    'A': lambda args: args['n'] // -4,\n"
        "    'B': lambda args: args['n'] % -4,\n"
        "    'C': lambda args: triton.cdiv(args['n'], 16) * W,\n"
        "    'D': lambda args: 1 < args['n'] <= 10,\n"
        "    'E': lambda args: max(args['n'], 7, 2) if args['flag'] else min(args['n'], 7),\n"
        "    'F': lambda args: args['n'] / 4,\n"
        "    'G': lambda args: int(args['f'] * 2) + abs(-3) + 2 ** 10,\n"
        "    'H': lambda args: args['x_ptr'].shape[1] * args['x_ptr'].numel() + len(args['x_ptr'].shape),\n"
        "    'I': lambda args: args['flag'] and args['n'] > 3 or 'none',\n"
        "    'J': lambda args: triton.next_power_of_2(args['n'] + 1) + (args['n'] << 2) + (~args['n'] & 7),\n"
        "    'K': lambda args: args['x_ptr'].dtype == 'torch.float32' and args['A'] < 0,\n"
        "})\n"
        "@triton.jit\n"
        "def kern(x_ptr, n, f, flag: tl.constexpr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr,\n"
        "         D: tl.constexpr, E: tl.constexpr, F: tl.constexpr, G: tl.constexpr, H: tl.constexpr,\n"
        "         I: tl.constexpr, J: tl.constexpr, K: tl.constexpr):\n"
        "    tl.store(x_ptr, n * 1.0)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "eval.py", src, &m));
    tc_kernel *k = NULL;
    tc_module_kernel(m, "kern", &k);
    int64_t shape[2] = {2, 3};
    tc_tensor *t = NULL;
    tc_tensor_new(ctx, TC_FP32, 2, shape, &t);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(t));
    tc_args_set(a, "n", tc_int(9));
    tc_args_set(a, "f", tc_float(2.75));
    tc_args_set(a, "flag", tc_bool(1));
    tc_args_set(a, "A", tc_int(99));   /* heuristics override the caller, as Triton's kwargs do */
    CHECK_INT(TC_OK, tc_launch(k, a, NULL));
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_CONTAINS(r.specialization, "A=-3, B=-3, C=3, D=True, E=9, F=2.25, G=1032, H=20, I=True, J=58, K=True");
    tc_args_set(a, "flag", tc_bool(0));
    tc_args_set(a, "n", tc_int(100));
    CHECK_INT(TC_OK, tc_launch(k, a, NULL));
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_CONTAINS(r.specialization, "E=7, F=25.0");
    CHECK_CONTAINS(r.specialization, "I='none'");
    tc_value v;
    CHECK_INT(TC_OK, tc_args_get(a, "A", &v));
    CHECK_INT(99, v.u.i);   /* restored after the launch */
    tc_args_free(a);
    tc_tensor_free(t);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(tune_heuristics_errors) {
    const char *src =
        "import triton\nimport triton.language as tl\n"
        "@triton.heuristics({'B': lambda args: 64 // args['n']})\n"
        "@triton.jit\n"
        "def kern(x_ptr, n, B: tl.constexpr):\n"
        "    tl.store(x_ptr, 1.0)\n"
        "@triton.heuristics({'B': lambda args: args['m']})\n"
        "@triton.jit\n"
        "def kern2(x_ptr, m, B: tl.constexpr):\n"
        "    tl.store(x_ptr, 1.0)\n"
        "@triton.heuristics({'B': lambda args: args['zz']})\n"
        "@triton.jit\n"
        "def kern3(x_ptr, B: tl.constexpr):\n"
        "    tl.store(x_ptr, 1.0)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "herr.py", src, &m));
    int64_t one = 1;
    tc_tensor *t = NULL;
    tc_tensor_new(ctx, TC_FP32, 1, &one, &t);
    tc_kernel *k = NULL;
    tc_module_kernel(m, "kern", &k);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(t));
    tc_args_set(a, "n", tc_int(0));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, NULL));
    CHECK_CONTAINS(tc_errmsg(ctx), "herr.py:3:");
    CHECK_CONTAINS(tc_errmsg(ctx), "heuristics value 'B': ZeroDivisionError: integer division or modulo by zero");
    tc_args_free(a);
    tc_module_kernel(m, "kern2", &k);
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(t));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, NULL));
    CHECK_CONTAINS(tc_errmsg(ctx), "heuristics value 'B': KeyError: 'm' (the launch does not give it)");
    tc_args_free(a);
    tc_module_kernel(m, "kern3", &k);
    tc_tune_info ti;
    CHECK_INT(TC_ERR_ARG, tc_kernel_tune_info(k, &ti));
    CHECK_CONTAINS(tc_errmsg(ctx), "KeyError: 'zz' (not a parameter of kern3)");
    tc_tensor_free(t);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- autotuning without a GPU ------------------------------------------------------------------- */

static tc_args *add_sum_args(tc_context *ctx, tc_kernel *k, int n, tc_tensor **ts) {
    float *x = malloc(sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) x[i] = (float)(i % 13);
    int64_t shape = n, one = 1;
    tc_tensor_from_host(ctx, TC_FP32, 1, &shape, x, &ts[0]);
    tc_tensor_from_host(ctx, TC_FP32, 1, &shape, x, &ts[1]);
    tc_tensor_new(ctx, TC_FP32, 1, &shape, &ts[2]);
    tc_tensor_new(ctx, TC_FP32, 1, &one, &ts[3]);
    free(x);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(ts[0]));
    tc_args_set(a, "y_ptr", tc_tens(ts[1]));
    tc_args_set(a, "out_ptr", tc_tens(ts[2]));
    tc_args_set(a, "total", tc_tens(ts[3]));
    tc_args_set(a, "n", tc_int(n));
    return a;
}

/* grid = cdiv(n, BLOCK), as Triton's lambda META: (triton.cdiv(n, META['BLOCK']),) */
static tc_status add_grid(const tc_args *meta, uint32_t grid[3], void *user) {
    (void)user;
    tc_value n, b;
    if (tc_args_get(meta, "n", &n) || tc_args_get(meta, "BLOCK", &b) || b.kind != TC_VAL_INT) return TC_ERR_ARG;
    grid[0] = (uint32_t)((n.u.i + b.u.i - 1) / b.u.i);
    return TC_OK;
}

TEST(tune_no_driver_api) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_module_load_file(ctx, KFILE, &m);
    tc_kernel *k = NULL;
    tc_module_kernel(m, "add_sum_kernel", &k);
    tc_tensor *ts[4] = {0};
    tc_args *a = add_sum_args(ctx, k, 1000, ts);
    tc_launch_opts o = tc_launch_defaults();
    o.grid_fn = add_grid;
    /* a launch: the interpreter cannot time configs, so the first one runs (issue 12) */
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_tune_report r;
    CHECK_INT(TC_OK, tc_last_tune(ctx, &r));
    CHECK_INT(TC_TUNE_FIRST, r.source);
    CHECK_INT(0, r.best);
    CHECK_CONTAINS(r.where, "no tuning database was loaded");
    tc_launch_report lr;
    tc_last_launch(ctx, &lr, sizeof lr);
    CHECK_CONTAINS(lr.note, "autotune: config 0 of 3, the first surviving pruning");
    /* out = x + y, x = y = i % 13: 999 % 13 = 11 */
    static float out[1000];
    CHECK_INT(TC_OK, tc_tensor_to_host(ts[2], out, sizeof out));
    CHECK(out[0] == 0 && out[999] == 22);
    /* tuning itself still needs the GPU: the chapter's words */
    if (!kt_have_driver()) {
        CHECK_INT(TC_ERR_NO_DRIVER, tc_tune(k, a, &o, 0, NULL, NULL, NULL));
        CHECK(strncmp(tc_errmsg(ctx), "0 active drivers ([]). There should only be one.", 48) == 0);
        CHECK_CONTAINS(tc_errmsg(ctx), "add_sum_kernel is autotuned over 3 configs");
        CHECK_CONTAINS(tc_errmsg(ctx), "tuning database");
        tc_bench_result br;
        CHECK_INT(TC_ERR_NO_DRIVER, tc_bench_kernel(k, a, &o, NULL, &br));
        CHECK(strncmp(tc_errmsg(ctx), "0 active drivers ([]). There should only be one.", 48) == 0);
    } else {
        CHECK_INT(TC_ERR_UNSUPPORTED, tc_tune(k, a, &o, 0, NULL, NULL, NULL));
        CHECK_CONTAINS(tc_errmsg(ctx), "the interpreter cannot measure GPU performance");
    }
    tc_args_free(a);
    for (int i = 0; i < 4; i++) tc_tensor_free(ts[i]);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(tune_single_config_interp) {
    const char *src =
        "import triton\nimport triton.language as tl\n"
        "@triton.autotune(configs=[triton.Config({'BLOCK': 8}, num_warps=2)], key=['n'])\n"
        "@triton.jit\n"
        "def fill(x_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    tl.store(x_ptr + offs, offs * 2.0, mask=offs < n)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "one.py", src, &m));
    tc_kernel *k = NULL;
    tc_module_kernel(m, "fill", &k);
    int64_t n = 20;
    tc_tensor *t = NULL;
    tc_tensor_new(ctx, TC_FP32, 1, &n, &t);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(t));
    tc_args_set(a, "n", tc_int(20));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 3;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    float out[20];
    tc_tensor_to_host(t, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < 20; i++) bad += out[i] != 2.0f * i;
    CHECK_INT(0, bad);
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_CONTAINS(r.note, "autotune: one config (BLOCK: 8, num_warps: 2, num_ctas: 1, num_stages: 3, maxnreg: None), used without benchmarking");
    CHECK_INT(2, r.num_warps);
    tc_tune_report tr;
    CHECK_INT(TC_OK, tc_last_tune(ctx, &tr));
    CHECK_INT(TC_TUNE_SINGLE, tr.source);
    /* Triton's "Conflicting meta-parameters" when the caller sets a tuned symbol */
    tc_args_set(a, "BLOCK", tc_int(4));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &o));
    CHECK_CONTAINS(tc_errmsg(ctx), "Conflicting meta-parameters: BLOCK. Make sure that you don't re-define auto-tuned symbols.");
    tc_args_free(a);
    tc_tensor_free(t);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- the tuning database --------------------------------------------------------------------- */

static const char *DB_HAND =
    "{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [\n"
    " {\"kernel\": \"add_sum_kernel\", \"device\": \"NVIDIA H200\", \"capability\": [9, 0],\n"
    "  \"measured_at\": \"2026-11-29T23:59:00Z\",\n"
    "  \"key\": \"(1000, 'torch.float32', 'torch.float32', 'torch.float32', 'torch.float32')\",\n"
    "  \"best\": {\"kwargs\": {\"BLOCK\": 256}, \"num_warps\": 4, \"num_stages\": 3},\n"
    "  \"tune_seconds\": 1.5,\n"
    "  \"timings\": [{\"config\": \"BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None\", \"ms\": [0.0051, 0.005, 0.0052]},\n"
    "              {\"config\": \"BLOCK: 256, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None\", \"ms\": [0.0042, 0.0041, 0.0043]},\n"
    "              {\"config\": \"BLOCK: 1024, num_warps: 8, num_ctas: 1, num_stages: 3, maxnreg: None\", \"skipped\": \"out of resource: shared memory\"}]},\n"
    " {\"kernel\": \"add_sum_kernel\", \"device\": \"NVIDIA A100-SXM4-80GB\", \"capability\": [8, 0],\n"
    "  \"measured_at\": \"2026-11-28T10:00:00Z\",\n"
    "  \"key\": \"(5000, 'torch.float32', 'torch.float32', 'torch.float32', 'torch.float32')\",\n"
    "  \"best\": {\"kwargs\": {\"BLOCK\": 1024}, \"num_warps\": 8}},\n"
    " {\"kernel\": \"add_sum_kernel\", \"device\": \"NVIDIA H200\", \"measured_at\": \"2026-11-28T10:00:00Z\",\n"
    "  \"source_hash\": \"0000000000000000\",\n"
    "  \"key\": \"(2000, 'torch.float32', 'torch.float32', 'torch.float32', 'torch.float32')\",\n"
    "  \"best\": {\"kwargs\": {\"BLOCK\": 128}}},\n"
    " {\"kernel\": \"add_sum_kernel\", \"device\": \"NVIDIA H200\", \"measured_at\": \"2026-11-28T10:00:00Z\",\n"
    "  \"key\": \"(3000, 'torch.float32', 'torch.float32', 'torch.float32', 'torch.float32')\",\n"
    "  \"best\": {\"kwargs\": {\"BLOCK\": 512}}}\n"
    "]}\n";

/* Runs add_sum_kernel under the interpreter with n elements; returns the launch status. */
static tc_status replay(tc_context *ctx, int n, float *total, tc_launch_report *r) {
    tc_module *m = NULL;
    tc_module_load_file(ctx, KFILE, &m);
    tc_kernel *k = NULL;
    tc_module_kernel(m, "add_sum_kernel", &k);
    tc_tensor *ts[4] = {0};
    tc_args *a = add_sum_args(ctx, k, n, ts);
    tc_launch_opts o = tc_launch_defaults();
    o.grid_fn = add_grid;
    tc_status s = tc_launch(k, a, &o);
    if (!s) {
        tc_tensor_to_host(ts[3], total, sizeof(float));
        tc_last_launch(ctx, r, sizeof *r);
        float *out = malloc(sizeof(float) * (size_t)n);
        tc_tensor_to_host(ts[2], out, sizeof(float) * (size_t)n);
        int bad = 0;
        for (int i = 0; i < n; i++) bad += out[i] != 2.0f * (float)(i % 13);
        CHECK_INT(0, bad);
        free(out);
    }
    tc_args_free(a);
    for (int i = 0; i < 4; i++) tc_tensor_free(ts[i]);
    tc_module_free(m);
    return s;
}

TEST(tune_db_replay) {
    char path[700];
    snprintf(path, sizeof path, "%s/hand.json", scratch());
    write_text(path, DB_HAND);
    tc_context *ctx = kt_ctx();
    CHECK_INT(TC_OK, tc_tuning_db_load(ctx, path));
    float total = 0;
    tc_launch_report r;
    CHECK_INT(TC_OK, replay(ctx, 1000, &total, &r));
    double want = 0;
    for (int i = 0; i < 1000; i++) want += 2.0 * (i % 13);
    CHECK_NEAR(want, total, 1e-6, 0);
    CHECK_CONTAINS(r.specialization, "BLOCK=256");
    CHECK_CONTAINS(r.note, "autotune: BLOCK: 256, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None, "
                           "measured on NVIDIA H200 (cc 9.0) at 2026-11-29T23:59:00Z (tuning database hand.json)");
    CHECK_CONTAINS(r.note, "the interpreter does not model num_warps/num_stages");
    tc_tune_report tr;
    CHECK_INT(TC_OK, tc_last_tune(ctx, &tr));
    CHECK_INT(TC_TUNE_DB, tr.source);
    CHECK_INT(1, tr.best);
    CHECK_STR("NVIDIA H200", tr.device);
    CHECK_INT(9, tr.cc_major);
    CHECK_STR("2026-11-29T23:59:00Z", tr.measured_at);
    CHECK_STR(path, tr.where);
    CHECK_INT(3, tr.nresults);
    CHECK_NEAR(0.0042, tr.results[1].ms, 1e-9, 0);
    CHECK_STR("out of resource: shared memory", tr.results[2].reason);
    /* the second launch in the process: chosen earlier, still says where it was measured */
    CHECK_INT(TC_OK, replay(ctx, 1000, &total, &r));
    CHECK_CONTAINS(r.note, "measured on NVIDIA H200 (cc 9.0) at 2026-11-29T23:59:00Z");
    /* another device's entry is replayed under the interpreter too, and says so */
    CHECK_INT(TC_OK, replay(ctx, 5000, &total, &r));
    CHECK_CONTAINS(r.note, "BLOCK: 1024, num_warps: 8");
    CHECK_CONTAINS(r.note, "measured on NVIDIA A100-SXM4-80GB (cc 8.0) at 2026-11-28T10:00:00Z");
    /* no entry for this key: the honest refusal, naming why */
    /* no entry for this key: the first config runs, and the report says why (issue 12) */
    tc_tune_report tr2;
    CHECK_INT(TC_OK, replay(ctx, 7000, &total, &r));
    CHECK_INT(TC_OK, tc_last_tune(ctx, &tr2));
    CHECK_INT(TC_TUNE_FIRST, tr2.source);
    CHECK_CONTAINS(tr2.where, "it has no entry for add_sum_kernel with key (7000, 'torch.float32'");
    /* an entry measured on another version of the source is not used */
    CHECK_INT(TC_OK, replay(ctx, 2000, &total, &r));
    CHECK_INT(TC_OK, tc_last_tune(ctx, &tr2));
    CHECK_INT(TC_TUNE_FIRST, tr2.source);
    CHECK_CONTAINS(tr2.where, "were measured on a different version of the kernel's source");
    /* an entry whose best config is not among the kernel's configs is not used */
    CHECK_INT(TC_OK, replay(ctx, 3000, &total, &r));
    CHECK_INT(TC_OK, tc_last_tune(ctx, &tr2));
    CHECK_INT(TC_TUNE_FIRST, tr2.source);
    CHECK_CONTAINS(tr2.where, "is not one of the kernel's configs");
    tc_context_free(ctx);
}

TEST(tune_db_export_roundtrip) {
    char path[700], out[700];
    snprintf(path, sizeof path, "%s/hand.json", scratch());
    snprintf(out, sizeof out, "%s/exported.json", tdir);
    write_text(path, DB_HAND);
    tc_context *ctx = kt_ctx();
    CHECK_INT(TC_OK, tc_tuning_db_load(ctx, path));
    CHECK_INT(TC_OK, tc_tuning_db_load(ctx, path));   /* loading twice replaces, not duplicates */
    CHECK_INT(TC_OK, tc_tuning_db_save(ctx, out));
    tc_context_free(ctx);
    FILE *f = fopen(out, "rb");
    static char text[65536];
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = 0;
    char msg[512];
    CHECK_INT(4, tune_db_check(out, text, n, msg, sizeof msg));
    CHECK_CONTAINS(text, "\"format\": \"tritonc-tuning-db\"");
    CHECK_CONTAINS(text, "\"best\": {\"kwargs\": {\"BLOCK\": 256}, \"num_warps\": 4, \"num_stages\": 3, \"num_ctas\": 1}");
    CHECK_CONTAINS(text, "\"skipped\": \"out of resource: shared memory\"");
    CHECK_CONTAINS(text, "\"measured_at\": \"2026-11-29T23:59:00Z\"");
    /* a fresh context replays the exported file */
    ctx = kt_ctx();
    CHECK_INT(TC_OK, tc_tuning_db_load(ctx, out));
    float total = 0;
    tc_launch_report r;
    CHECK_INT(TC_OK, replay(ctx, 1000, &total, &r));
    CHECK_CONTAINS(r.note, "(tuning database exported.json)");
    CHECK_CONTAINS(r.specialization, "BLOCK=256");
    /* saving to a directory that does not exist fails cleanly */
    char bad[800];
    snprintf(bad, sizeof bad, "%s/no/such/dir/x.json", tdir);
    CHECK_INT(TC_ERR_IO, tc_tuning_db_save(ctx, bad));
    CHECK_CONTAINS(tc_errmsg(ctx), "cannot write the tuning database");
    CHECK_INT(TC_ERR_IO, tc_tuning_db_load(ctx, bad));
    CHECK_CONTAINS(tc_errmsg(ctx), "cannot read the tuning database");
    tc_context_free(ctx);
}

typedef struct Hostile { const char *text; tc_status code; const char *msg; } Hostile;

TEST(tune_db_hostile) {
    static const Hostile cases[] = {
        {"", TC_ERR_SYNTAX, "line 1, column 1: unexpected end of file"},
        {"{", TC_ERR_SYNTAX, "expected a string key"},
        {"[]", TC_ERR_SYNTAX, "not a tritonc tuning database"},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 2, \"entries\": []}", TC_ERR_SYNTAX, "unsupported tuning database version"},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": {}}", TC_ERR_SYNTAX, "\"entries\" must be a list"},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [1]}", TC_ERR_SYNTAX, "entries[0]: not an object"},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [{}]}", TC_ERR_SYNTAX, "entries[0]: missing \"kernel\""},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [{\"kernel\": \"k\", \"device\": \"d\", \"measured_at\": \"t\", \"key\": \"()\", \"best\": {\"num_warps\": 3}}]}",
         TC_ERR_SYNTAX, "num_warps must be a power of 2"},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [{\"kernel\": \"k\", \"device\": \"d\", \"measured_at\": \"t\", \"key\": \"()\", \"best\": {\"num_warps\": \"4\"}}]}",
         TC_ERR_SYNTAX, "\"num_warps\" must be an integer in [1, 64]"},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [{\"kernel\": \"k\", \"device\": \"d\", \"measured_at\": \"t\", \"key\": \"()\", \"best\": {\"num_warps\": 1e999}}]}",
         TC_ERR_SYNTAX, "\"num_warps\" must be an integer"},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [{\"kernel\": \"k\", \"device\": \"d\", \"measured_at\": \"t\", \"key\": \"()\", \"best\": {\"kwargs\": {\"B\": [1]}}}]}",
         TC_ERR_SYNTAX, "kwargs.B: must be a number, bool, string or null"},
        {"{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [{\"kernel\": 5}]}", TC_ERR_SYNTAX, "\"kernel\" must be a string"},
        {"{\"format\": \"\\ud800\"}", TC_ERR_SYNTAX, "lone surrogate"},
        {"{\"format\": \"\\u12", TC_ERR_SYNTAX, "truncated \\u escape"},
        {"{\"format\": \"a\nb\"}", TC_ERR_SYNTAX, "control character in a string"},
        {"{\"format\": \"tritonc-tuning-db\"} x", TC_ERR_SYNTAX, "extra text after the JSON value"},
        {"{\"a\": tru}", TC_ERR_SYNTAX, "expected a value"},
        {"{\"a\": 01}", TC_ERR_SYNTAX, "expected ',' or '}'"},
        {"{\"a\": 1.}", TC_ERR_SYNTAX, "bad number"},
        {"{\"a\" 1}", TC_ERR_SYNTAX, "line 1, column 6: expected ':'"},
        {"{\"a\": \"\\x\"}", TC_ERR_SYNTAX, "bad escape in a string"},
        {"\n\n  {\"a\": [1, 2,, 3]}", TC_ERR_SYNTAX, "line 3, column 15: expected a value"},
    };
    char path[700];
    snprintf(path, sizeof path, "%s/hostile.json", scratch());
    tc_context *ctx = kt_ctx();
    for (int i = 0; i < COUNT_OF(cases); i++) {
        write_text(path, cases[i].text);
        tc_status s = tc_tuning_db_load(ctx, path);
        CHECK_INT(cases[i].code, s);
        CHECK_CONTAINS(tc_errmsg(ctx), cases[i].msg);
        CHECK_CONTAINS(tc_errmsg(ctx), "hostile.json");
    }
    /* nesting 100000 deep */
    size_t deep = 100000;
    char *t = malloc(deep * 2 + 1);
    memset(t, '[', deep);
    memset(t + deep, ']', deep);
    t[deep * 2] = 0;
    write_text(path, t);
    CHECK_INT(TC_ERR_SYNTAX, tc_tuning_db_load(ctx, path));
    CHECK_CONTAINS(tc_errmsg(ctx), "nested more than 64 deep");
    free(t);
    /* a NUL byte */
    FILE *f = fopen(path, "wb");
    fwrite("{\"a\"\0: 1}", 1, 9, f);
    fclose(f);
    CHECK_INT(TC_ERR_SYNTAX, tc_tuning_db_load(ctx, path));
    CHECK_CONTAINS(tc_errmsg(ctx), "contains a NUL byte");
    /* a number of 100000 digits */
    t = malloc(100020);
    strcpy(t, "{\"a\": ");
    memset(t + 6, '7', 100000);
    strcpy(t + 100006, "}");
    write_text(path, t);
    CHECK_INT(TC_ERR_SYNTAX, tc_tuning_db_load(ctx, path));
    CHECK_CONTAINS(tc_errmsg(ctx), "number longer than 64 characters");
    free(t);
    /* larger than 16 MiB */
    f = fopen(path, "wb");
    static char chunk[1 << 20];
    memset(chunk, ' ', sizeof chunk);
    for (int i = 0; i < 17; i++) fwrite(chunk, 1, sizeof chunk, f);
    fclose(f);
    CHECK_INT(TC_ERR_LIMIT, tc_tuning_db_load(ctx, path));
    CHECK_CONTAINS(tc_errmsg(ctx), "larger than 16 MiB");
    /* after all that the context still works, with no entries */
    char out[800];
    snprintf(out, sizeof out, "%s/empty.json", tdir);
    CHECK_INT(TC_OK, tc_tuning_db_save(ctx, out));
    tc_context_free(ctx);
}

/* Random damage to a valid database: never a crash (ASan/UBSan in `make SAN=1 test`). */
TEST(tune_db_fuzz) {
    size_t n = strlen(DB_HAND);
    char *buf = malloc(n + 1);
    uint64_t s = 0x9e3779b97f4a7c15ull;
    int ok = 0, rejected = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(buf, DB_HAND, n + 1);
        size_t len = n;
        int edits = 1 + (int)(it % 4);
        for (int e = 0; e < edits; e++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            if (len == 0) break;
            size_t pos = (size_t)(s >> 8) % len;
            switch ((s >> 3) % 4) {
            case 0: buf[pos] = (char)(s >> 40); break;
            case 1: len = pos; break;                                   /* truncate */
            case 2: buf[pos] = "{}[]\",:\\0e-"[(s >> 20) % 11]; break;
            default: memmove(buf + pos, buf + pos + 1, len - pos); len--; break;
            }
        }
        char msg[512];
        int c = tune_db_check("fuzz.json", buf, len, msg, sizeof msg);
        if (c >= 0) ok++; else rejected++;
    }
    free(buf);
    CHECK(rejected > 1000);
    CHECK_INT(3000, ok + rejected);
}

/* ---- configs through the API ------------------------------------------------------------------ */

TEST(tune_api_configs) {
    const char *src =
        "import triton\nimport triton.language as tl\n"
        "@triton.jit\n"
        "def fill(x_ptr, n, BLOCK: tl.constexpr, V: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    tl.store(x_ptr + offs, offs * 1.0 + V, mask=offs < n)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_module_load_string(ctx, "api.py", src, &m);
    tc_kernel *k = NULL;
    tc_module_kernel(m, "fill", &k);
    tc_tune_info ti;
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(0, ti.autotuned);
    const char *names[2] = {"BLOCK", "V"};
    tc_value v1[2] = {tc_int(16), tc_float(0.5)}, v2[2] = {tc_int(32), tc_float(0.5)};
    tc_autotune_config cf[2] = {{2, names, v1, 2, 0, 0, 0}, {2, names, v2, 8, 4, 0, 0}};
    const char *key[1] = {"n"};
    tc_autotune_spec spec = {cf, 2, key, 1, NULL, 0, NULL, 0, 10, 50};
    CHECK_INT(TC_OK, tc_kernel_set_autotune(k, &spec));
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(1, ti.autotuned);
    CHECK_INT(2, ti.nconfigs);
    CHECK_NEAR(10, ti.warmup_ms, 0, 0);
    CHECK_STR("BLOCK: 32, V: 0.5, num_warps: 8, num_ctas: 1, num_stages: 4, maxnreg: None", tc_kernel_config_str(k, 1));
    /* bad specs are refused and leave the kernel as it was */
    const char *bad_names[1] = {"NOPE"};
    tc_autotune_config bad = {1, bad_names, v1, 4, 0, 0, 0};
    tc_autotune_spec bs = {&bad, 1, key, 1, NULL, 0, NULL, 0, 0, 0};
    CHECK_INT(TC_ERR_ARG, tc_kernel_set_autotune(k, &bs));
    CHECK_CONTAINS(tc_errmsg(ctx), "config 0: 'NOPE' is not a parameter of fill");
    tc_autotune_config bad2 = {2, names, v1, 6, 0, 0, 0};
    bs.configs = &bad2;
    CHECK_INT(TC_ERR_ARG, tc_kernel_set_autotune(k, &bs));
    CHECK_CONTAINS(tc_errmsg(ctx), "num_warps must be a power of 2 (got 6)");
    const char *rz[1] = {"y"};
    tc_autotune_spec bs3 = {cf, 2, key, 1, rz, 1, NULL, 0, 0, 0};
    CHECK_INT(TC_ERR_ARG, tc_kernel_set_autotune(k, &bs3));
    CHECK_CONTAINS(tc_errmsg(ctx), "reset_to_zero: 'y' is not a parameter of fill");
    CHECK_INT(TC_ERR_ARG, tc_kernel_set_autotune(k, NULL));
    CHECK_INT(TC_OK, tc_kernel_tune_info(k, &ti));
    CHECK_INT(2, ti.nconfigs);
    /* two configs under the interpreter with no database: the first runs */
    int64_t n = 40;
    tc_tensor *t = NULL;
    tc_tensor_new(ctx, TC_FP32, 1, &n, &t);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(t));
    tc_args_set(a, "n", tc_int(40));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 3;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_tune_report fr;
    CHECK_INT(TC_OK, tc_last_tune(ctx, &fr));
    CHECK_INT(TC_TUNE_FIRST, fr.source);
    /* one config through the API: runs with it */
    tc_autotune_spec one = {&cf[0], 1, key, 1, NULL, 0, NULL, 0, 0, 0};
    CHECK_INT(TC_OK, tc_kernel_set_autotune(k, &one));
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    float out[40];
    tc_tensor_to_host(t, out, sizeof out);
    CHECK(out[0] == 0.5f && out[39] == 39.5f);
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_CONTAINS(r.specialization, "BLOCK=16, V=0.5");
    CHECK_INT(2, r.num_warps);
    tc_args_free(a);
    tc_tensor_free(t);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- the commands ------------------------------------------------------------------------------- */

static char cout[65536];

static int tcmd(const char *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int tcmd(const char *env, const char *fmt, ...) {
    char args[4096], cmd[6000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u TRITON_PRINT_AUTOTUNING -u FAKE_CUDA_LAUNCH -u TRITONC_BENCH_FLUSH_BYTES TRITONC_CACHE_DIR=%s/cache %s %s/tritonc %s",
             tdir, env, test_build_dir(), args);
    return test_run(cmd, cout, sizeof cout);
}

#define ADD_ARGS "'x_ptr=fp32:arange(1000)' 'y_ptr=fp32:arange(1000)' 'out_ptr=fp32:zeros(1000)' 'total=fp32:zeros(1)' n=1000"

TEST(tune_cli) {
    char db[700];
    snprintf(db, sizeof db, "%s/hand.json", scratch());
    write_text(db, DB_HAND);
    const char *nodrv = "TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1";
    /* no driver: exit 3 and the chapter's words */
    CHECK_INT(3, tcmd(nodrv, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)'", KFILE));
    CHECK_CONTAINS(cout, "0 active drivers ([]). There should only be one.");
    CHECK_INT(3, tcmd(nodrv, "bench %s scale_kernel 'x_ptr=fp32:zeros(64)' 'out_ptr=fp32:zeros(64)' n=64 --num-warps 1 --num-warps 4", KFILE));
    CHECK_CONTAINS(cout, "0 active drivers ([]). There should only be one.");
    /* the interpreter without a database: still exit 3, with the reason */
    CHECK_INT(3, tcmd(nodrv, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --interpret", KFILE));
    CHECK_CONTAINS(cout, "0 active drivers ([]). There should only be one.");
    CHECK_CONTAINS(cout, "add_sum_kernel is autotuned over 3 configs");
    CHECK_INT(0, tcmd(nodrv, "run %s add_sum_kernel " ADD_ARGS " --grid 4 --interpret --verbose", KFILE));
    CHECK_CONTAINS(cout, "autotune: config 0 of 3, the first surviving pruning");
    /* with a database recorded on a GPU: the config, where and when */
    char exp[800];
    snprintf(exp, sizeof exp, "%s/cli-export.json", tdir);
    CHECK_INT(0, tcmd(nodrv, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --interpret --tuning-db %s --export %s", KFILE, db, exp));
    CHECK_CONTAINS(cout, "best config: BLOCK: 256, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None");
    CHECK_CONTAINS(cout, "measured on NVIDIA H200 (cc 9.0) at 2026-11-29T23:59:00Z");
    CHECK_CONTAINS(cout, "no benchmarking now");
    CHECK_CONTAINS(cout, "skipped: out of resource: shared memory");
    CHECK_CONTAINS(cout, "exported to");
    CHECK(access(exp, R_OK) == 0);
    CHECK_INT(0, tcmd(nodrv, "run %s add_sum_kernel " ADD_ARGS " --grid 4 --interpret --tuning-db %s --print total --verbose", KFILE, exp));
    CHECK_CONTAINS(cout, "total = [999000.0]");
    CHECK_CONTAINS(cout, "note: autotune: BLOCK: 256, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None, measured on NVIDIA H200 (cc 9.0) at 2026-11-29T23:59:00Z");
    /* run --grid takes Triton's lambda META as an expression over arguments and config values */
    CHECK_INT(0, tcmd(nodrv, "run %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --interpret --tuning-db %s --print total", KFILE, db));
    CHECK_CONTAINS(cout, "total = [999000.0]");
    CHECK_INT(2, tcmd(nodrv, "run %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOK)' --interpret --tuning-db %s", KFILE, db));
    CHECK_CONTAINS(cout, "--grid cdiv(n, BLOK): 'BLOK' is not an argument of the launch");
    CHECK_INT(2, tcmd(nodrv, "run %s add_sum_kernel " ADD_ARGS " --grid 'n;1' --interpret", KFILE));
    /* heuristics-only kernels run anywhere */
    CHECK_INT(0, tcmd(nodrv, "run %s scale_kernel 'x_ptr=fp32[1,2,3,4]' 'out_ptr=fp32:zeros(4)' n=4 --interpret --print out_ptr", KFILE));
    CHECK_CONTAINS(cout, "out_ptr = [4.0, 7.0, 10.0, 13.0]");
    /* usage errors */
    CHECK_INT(2, tcmd(nodrv, "tune %s scale_kernel 'x_ptr=fp32:zeros(4)' 'out_ptr=fp32:zeros(4)' n=4 --interpret", KFILE));
    CHECK_CONTAINS(cout, "scale_kernel has no @triton.autotune decorator");
    CHECK_INT(2, tcmd(nodrv, "tune %s", KFILE));
    CHECK_INT(2, tcmd(nodrv, "bench %s scale_kernel --num-warps 3", KFILE));
    CHECK_CONTAINS(cout, "--num-warps takes a power of two");
    CHECK_INT(2, tcmd(nodrv, "tune %s add_sum_kernel --bogus", KFILE));
    CHECK_INT(0, tcmd(nodrv, "tune --help"));
    CHECK_CONTAINS(cout, "usage: tritonc tune FILE KERNEL");
    CHECK_INT(0, tcmd(nodrv, "bench --help"));
    CHECK_CONTAINS(cout, "256 MB buffer");
    /* a hostile database on the command line */
    char hostile[800];
    snprintf(hostile, sizeof hostile, "%s/cli-hostile.json", tdir);
    write_text(hostile, "{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [{]}");
    CHECK_INT(1, tcmd(nodrv, "run %s add_sum_kernel " ADD_ARGS " --grid 4 --interpret --tuning-db %s", KFILE, hostile));
    CHECK_CONTAINS(cout, "cli-hostile.json: line 1, column 60: expected a string key");
}

/* With the fake driver (device queries work, launches fail): every config is skipped with
 * the driver's reason and the tuning fails, naming it. */
TEST(tune_cli_fake_driver) {
    char fake[700];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake, R_OK) != 0) return;
    scratch();
    char env[900];
    snprintf(env, sizeof env, "TRITONC_LIBCUDA_PATH=%s TRITONC_BENCH_FLUSH_BYTES=4096", fake);
    char penv[1000];
    snprintf(penv, sizeof penv, "%s TRITON_PRINT_AUTOTUNING=1", env);
    int rc = tcmd(penv, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)'", KFILE);
    CHECK_INT(1, rc);
    CHECK_CONTAINS(cout, "Autotuning skipped config BLOCK: 256, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None: cuLaunchKernel failed: CUDA_ERROR_NOT_SUPPORTED (801)");
    CHECK_CONTAINS(cout, "tuning add_sum_kernel: 3 configs");
    CHECK_CONTAINS(cout, "[1/3] BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None: skipped");
    CHECK_CONTAINS(cout, "[3/3] BLOCK: 1024");
    CHECK_CONTAINS(cout, "every one of its 3 configs failed");
    /* a grid expression naming something the launch does not have */
    rc = tcmd(env, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, NOPE)'", KFILE);
    CHECK_INT(1, rc);
    CHECK_CONTAINS(cout, "skipped (--grid cdiv(n, NOPE): 'NOPE' is not an argument of the launch "
                         "(add_sum_kernel's parameters: x_ptr, y_ptr, out_ptr, total, n, BLOCK))\n");
}

/* The whole tuning path on the fake driver with launches that succeed (and do nothing;
 * every event pair measures 0.5 ms): benchmark, persist, reuse in a second process, force,
 * export, import on the "GPU" and under the interpreter, a damaged cache entry. */
TEST(tune_cli_fake_gpu_path) {
    char fake[700];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake, R_OK) != 0) return;
    scratch();
    char cmd[2048], o[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s/gcache %s/gcache2 %s/gcache3", tdir, tdir, tdir);
    test_run(cmd, o, sizeof o);
    char env[1500], env2[1500], exp[800];
    snprintf(env, sizeof env, "TRITONC_LIBCUDA_PATH=%s FAKE_CUDA_LAUNCH=ok TRITONC_BENCH_FLUSH_BYTES=4096 "
             "TRITONC_CACHE_DIR=%s/gcache", fake, tdir);
    snprintf(env2, sizeof env2, "TRITONC_LIBCUDA_PATH=%s FAKE_CUDA_LAUNCH=ok TRITONC_BENCH_FLUSH_BYTES=4096 "
             "TRITONC_CACHE_DIR=%s/gcache2", fake, tdir);
    snprintf(exp, sizeof exp, "%s/gpu-export.json", tdir);
    char penv[1600];
    snprintf(penv, sizeof penv, "%s TRITON_PRINT_AUTOTUNING=1", env);
    /* process 1: benchmarks every config, persists the choice */
    CHECK_INT(0, tcmd(penv, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --export %s", KFILE, exp));
    CHECK_CONTAINS(cout, "[1/3] BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None: 0.5000 ms (p20 0.5000, p80 0.5000)");
    CHECK_CONTAINS(cout, "[3/3] BLOCK: 1024, num_warps: 8");
    CHECK_CONTAINS(cout, "Triton autotuning for function add_sum_kernel,\nwith key as (1000, 'torch.float32', "
                         "'torch.float32', 'torch.float32', 'torch.float32'),\nfinished after ");
    CHECK_CONTAINS(cout, "best config selected: BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None;");
    CHECK_CONTAINS(cout, "benchmarked on NVIDIA H200 (cc 9.0) in ");
    CHECK_CONTAINS(cout, "/gcache/tune/add_sum_kernel-");
    /* process 2: reused from disk, nothing benchmarked */
    CHECK_INT(0, tcmd(env, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)'", KFILE));
    CHECK_CONTAINS(cout, "from the disk cache ");
    CHECK_CONTAINS(cout, "measured on NVIDIA H200 (cc 9.0) at ");
    CHECK_CONTAINS(cout, "no benchmarking now");
    CHECK(strstr(cout, "[1/3]") == NULL);
    /* a launch (tritonc bench) uses it and its note says so */
    CHECK_INT(0, tcmd(env, "bench %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --bytes 12000 --warmup 1 --rep 2", KFILE));
    CHECK_CONTAINS(cout, "note: autotune: BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None, measured on NVIDIA H200 (cc 9.0)");
    CHECK_CONTAINS(cout, "(tuning cache add_sum_kernel-");
    /* --force benchmarks again */
    CHECK_INT(0, tcmd(env, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --force", KFILE));
    CHECK_CONTAINS(cout, "[2/3]");
    CHECK_CONTAINS(cout, "benchmarked on NVIDIA H200");
    /* another key: tuned separately */
    CHECK_INT(0, tcmd(env, "tune %s add_sum_kernel 'x_ptr=fp32:zeros(64)' 'y_ptr=fp32:zeros(64)' 'out_ptr=fp32:zeros(64)' "
                      "'total=fp32:zeros(1)' n=64 --grid 'cdiv(n, BLOCK)'", KFILE));
    CHECK_CONTAINS(cout, "key: (64, 'torch.float32'");
    CHECK_CONTAINS(cout, "benchmarked on");
    /* a damaged cache entry: tuned again and rewritten */
    snprintf(cmd, sizeof cmd, "for f in %s/gcache/tune/*.json; do printf '{\"format\": 1' > $f; done", tdir);
    test_run(cmd, o, sizeof o);
    CHECK_INT(0, tcmd(env, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)'", KFILE));
    CHECK_CONTAINS(cout, "benchmarked on NVIDIA H200");
    CHECK_INT(0, tcmd(env, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)'", KFILE));
    CHECK_CONTAINS(cout, "no benchmarking now");
    /* the exported database on the same device, with an empty cache: no benchmarking */
    CHECK_INT(0, tcmd(env2, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --tuning-db %s", KFILE, exp));
    CHECK_CONTAINS(cout, "from the tuning database ");
    CHECK_CONTAINS(cout, "no benchmarking now");
    /* under the interpreter with no driver: the recorded choice, where and when */
    CHECK_INT(0, tcmd("TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1", "run %s add_sum_kernel " ADD_ARGS
                      " --grid 8 --interpret --tuning-db %s --verbose --print total", KFILE, exp));
    CHECK_CONTAINS(cout, "total = [999000.0]");
    CHECK_CONTAINS(cout, "note: autotune: BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None, measured on NVIDIA H200 (cc 9.0) at 20");
    /* reset_to_zero on the device (the fake's memory is host memory, its kernels do
     * nothing): `total` starts at 5 and is zeroed by the tuning's runs */
    char env3[2100];
    snprintf(env3, sizeof env3, "%s TRITONC_CACHE_DIR=%s/gcache3", env, tdir);
    CHECK_INT(0, tcmd(env3, "run %s add_sum_kernel 'x_ptr=fp32:arange(1000)' 'y_ptr=fp32:arange(1000)' "
                      "'out_ptr=fp32:zeros(1000)' 'total=fp32[5]' n=1000 --grid 'cdiv(n, BLOCK)' --print total --verbose", KFILE));
    CHECK_CONTAINS(cout, "total = [0.0]");
    CHECK_CONTAINS(cout, "note: autotune: benchmarked 3 configs (0 skipped) on NVIDIA H200 in ");
    /* --json */
    CHECK_INT(0, tcmd(env, "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --json", KFILE));
    CHECK_CONTAINS(cout, "{\"kernel\": \"add_sum_kernel\", \"key\": \"(1000, 'torch.float32', 'torch.float32', "
                         "'torch.float32', 'torch.float32')\", \"source\": \"disk cache\", \"best\": 0, ");
    CHECK_CONTAINS(cout, "\"device\": \"NVIDIA H200\", \"capability\": [9, 0]");
    CHECK_CONTAINS(cout, "\"results\": [{\"config\": \"BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None\", \"ms\": [0.5, 0.5, 0.5]}");
    CHECK_INT(0, tcmd(env, "bench %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --warmup 1 --rep 2 --json", KFILE));
    CHECK_CONTAINS(cout, "{\"kernel\": \"add_sum_kernel\", \"num_warps\": 4, \"num_stages\": 3, \"median_ms\": 0.5, ");
    CHECK_CONTAINS(cout, "\"n_repeat\": 20, \"note\": \"autotune: BLOCK: 128");
    /* bench sweeps num_warps x num_stages of a plain kernel: a table of 4 rows */
    CHECK_INT(0, tcmd(env, "bench tests/kernels/vector_add.py add_kernel 'x_ptr=fp32:zeros(4096)' 'y_ptr=fp32:zeros(4096)' "
                      "'output_ptr=fp32:zeros(4096)' n_elements=4096 BLOCK_SIZE=1024 --grid 'cdiv(n_elements, BLOCK_SIZE)' "
                      "--num-warps 1 --num-warps 2 --num-stages 2 --num-stages 3 --bytes 49152 --flops 4096 --warmup 1 --rep 2"));
    CHECK_CONTAINS(cout, "num_warps  num_stages    median ms       p20 ms       p80 ms      mean ms       GB/s    TFLOP/s   runs");
    CHECK_CONTAINS(cout, "\n1          2                0.5000");
    CHECK_CONTAINS(cout, "\n1          3  ");
    CHECK_CONTAINS(cout, "\n2          2  ");
    CHECK_CONTAINS(cout, "\n2          3                0.5000       0.5000       0.5000       0.5000        0.1       0.00   20\n");
}

/* Decorator order, as Triton stacks them: autotune above heuristics lets the heuristics see
 * the config's values; heuristics above autotune computes them from the caller's arguments
 * only (the config's values are not there yet). */
TEST(tune_decorator_order) {
    const char *src =
        "import triton\nimport triton.language as tl\n"
        "@triton.autotune(configs=[triton.Config({'BLOCK': 8})], key=['n'])\n"
        "@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})\n"
        "@triton.jit\n"
        "def inner(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    if EVEN:\n"
        "        tl.store(x_ptr + offs, offs * 1.0)\n"
        "    else:\n"
        "        tl.store(x_ptr + offs, offs * -1.0, mask=offs < n)\n"
        "@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})\n"
        "@triton.autotune(configs=[triton.Config({'BLOCK': 8})], key=['n'])\n"
        "@triton.jit\n"
        "def outer(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):\n"
        "    tl.store(x_ptr, 1.0)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "order.py", src, &m));
    int64_t n = 16;
    tc_tensor *t = NULL;
    tc_tensor_new(ctx, TC_FP32, 1, &n, &t);
    tc_kernel *k = NULL;
    tc_module_kernel(m, "inner", &k);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(t));
    tc_args_set(a, "n", tc_int(16));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_CONTAINS(r.specialization, "BLOCK=8, EVEN=True");
    float out[16];
    tc_tensor_to_host(t, out, sizeof out);
    CHECK(out[15] == 15.0f);
    tc_args_set(a, "n", tc_int(12));
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_CONTAINS(r.specialization, "BLOCK=8, EVEN=False");
    tc_tensor_to_host(t, out, sizeof out);
    CHECK(out[11] == -11.0f && out[12] == 12.0f);
    tc_args_free(a);
    tc_module_kernel(m, "outer", &k);
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(t));
    tc_args_set(a, "n", tc_int(16));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &o));
    CHECK_CONTAINS(tc_errmsg(ctx), "heuristics value 'EVEN': KeyError: 'BLOCK' (the launch does not give it)");
    tc_args_free(a);
    tc_tensor_free(t);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- the tuning database's files: symlinks, threads, FIFOs, size, ownership ------------------- */

/* A database of n entries with distinct keys (about 80 bytes each). */
static char *db_of(int n) {
    size_t cap = (size_t)n * 100 + 100, o = 0;
    char *s = malloc(cap);
    o += (size_t)snprintf(s + o, cap - o, "{\"format\": \"tritonc-tuning-db\", \"version\": 1, \"entries\": [");
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(s + o, cap - o, "%s{\"kernel\":\"k\",\"device\":\"d\",\"measured_at\":\"t\",\"key\":\"(%d,)\",\"best\":{}}",
                              i ? ",\n" : "", i);
    snprintf(s + o, cap - o, "]}\n");
    return s;
}

/* A regular file's text (the first 64 KiB); NULL for anything else, never blocking. */
static char *slurp(const char *path, size_t *n) {
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fd < 0) return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) { close(fd); return NULL; }
    static char buf[1 << 16];
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got < 0) return NULL;
    buf[got] = 0;
    if (n) *n = (size_t)got;
    return buf;
}

/* Saving never writes through a symlink planted where the temporary file would go (the old
 * name was PATH.tmp.PID) nor at the path itself: the victim is untouched. */
TEST(tune_db_save_symlinks) {
    char dir[700], db[800], out[800], victim[800], link[900];
    snprintf(dir, sizeof dir, "%s/symlinks", scratch());
    char cmd[2000], o[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    test_run(cmd, o, sizeof o);
    snprintf(db, sizeof db, "%s/hand.json", dir);
    snprintf(out, sizeof out, "%s/out.json", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    write_text(db, DB_HAND);
    write_text(victim, "precious\n");
    snprintf(link, sizeof link, "%s.tmp.%ld", out, (long)getpid());
    CHECK(symlink("victim", link) == 0);   /* relative to the link's folder */
    tc_context *ctx = kt_ctx();
    CHECK_INT(TC_OK, tc_tuning_db_load(ctx, db));
    if (tc_tuning_db_save(ctx, out) != TC_OK) fprintf(stderr, "%s\n", tc_errmsg(ctx));
    CHECK_STR("precious\n", slurp(victim, NULL));
    struct stat st;
    CHECK(lstat(out, &st) == 0 && S_ISREG(st.st_mode));
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));   /* left alone, not used */
    /* a symlink at the path itself is replaced, not followed */
    unlink(out);
    CHECK(symlink("victim", out) == 0);
    CHECK_INT(TC_OK, tc_tuning_db_save(ctx, out));
    CHECK_STR("precious\n", slurp(victim, NULL));
    CHECK(lstat(out, &st) == 0 && S_ISREG(st.st_mode));
    size_t n = 0;
    char msg[512];
    const char *text = slurp(out, &n);
    CHECK_INT(4, tune_db_check(out, text, n, msg, sizeof msg));
    tc_context_free(ctx);
}

typedef struct Saver { const char *path; tc_context *ctx; int fails; } Saver;

static void *saver(void *u) {
    Saver *s = u;
    for (int i = 0; i < 60; i++) s->fails += tc_tuning_db_save(s->ctx, s->path) != TC_OK;
    return NULL;
}

/* Two threads of one process save to one path while a third loads it: every save succeeds
 * and every load sees a whole database (the old scheme shared PATH.tmp.PID between them). */
TEST(tune_db_save_threads) {
    char dir[700], db[800], out[800];
    snprintf(dir, sizeof dir, "%s/threads", scratch());
    char cmd[2000], o[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    test_run(cmd, o, sizeof o);
    snprintf(db, sizeof db, "%s/in.json", dir);
    snprintf(out, sizeof out, "%s/out.json", dir);
    char *text = db_of(2000);
    write_text(db, text);
    write_text(out, text);
    free(text);
    Saver s[2] = {{out, kt_ctx(), 0}, {out, kt_ctx(), 0}};
    CHECK_INT(TC_OK, tc_tuning_db_load(s[0].ctx, db));
    CHECK_INT(TC_OK, tc_tuning_db_load(s[1].ctx, db));
    pthread_t th[2];
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, saver, &s[i]);
    tc_context *rd = kt_ctx();
    int loads = 0, bad = 0;
    char why[300] = "";
    for (int i = 0; i < 60; i++, loads++)
        if (tc_tuning_db_load(rd, out) != TC_OK && !bad++) snprintf(why, sizeof why, "%s", tc_errmsg(rd));
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK_INT(0, s[0].fails + s[1].fails);
    CHECK_STR("", why);
    CHECK_INT(0, bad);
    CHECK_INT(TC_OK, tc_tuning_db_load(rd, out));
    /* no temporary file left behind */
    snprintf(cmd, sizeof cmd, "ls -a %s | grep -c tmp", dir);
    test_run(cmd, o, sizeof o);
    CHECK_STR("0\n", o);
    tc_context_free(s[0].ctx);
    tc_context_free(s[1].ctx);
    tc_context_free(rd);
}

/* A FIFO where a database is read: refused at once, never waited on. The load runs in a
 * child with an alarm so that a hang fails the test instead of stopping the suite. */
TEST(tune_db_fifo) {
    char fifo[800];
    snprintf(fifo, sizeof fifo, "%s/fifo.json", scratch());
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10);
        tc_context *ctx = kt_ctx();
        tc_status s = tc_tuning_db_load(ctx, fifo);
        bool ok = s == TC_ERR_IO && strstr(tc_errmsg(ctx), "fifo.json: not a regular file (a FIFO)");
        if (!ok) fprintf(stderr, "tc_tuning_db_load of a FIFO: %d: %s\n", s, tc_errmsg(ctx));
        _exit(ok ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st));   /* not killed by the alarm */
    CHECK_INT(0, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    unlink(fifo);
}

/* Loading is linear: 100000 entries (the most a database may hold) in well under the 10 s
 * allowed here (a bound on a complexity bug, quadratic took a minute; not a benchmark). The
 * time is this process's CPU time, so that other work on the machine cannot fail it. */
TEST(tune_db_load_large) {
    char path[800];
    snprintf(path, sizeof path, "%s/large.json", scratch());
    char *text = db_of(100000);
    write_text(path, text);
    free(text);
    tc_context *ctx = kt_ctx();
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    CHECK_INT(TC_OK, tc_tuning_db_load(ctx, path));
    CHECK_INT(TC_OK, tc_tuning_db_load(ctx, path));   /* again: every entry replaces its twin */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK(s < 10.0);
    if (s >= 10.0) fprintf(stderr, "loading 100000 entries twice took %.1f s of CPU\n", s);
    char out[800];
    snprintf(out, sizeof out, "%s/large-out.json", tdir);
    CHECK_INT(TC_OK, tc_tuning_db_save(ctx, out));
    tc_context_free(ctx);
    FILE *f = fopen(out, "rb");
    int entries = 0, c, prev = 0;
    while (f && (c = fgetc(f)) != EOF) { entries += prev == '{' && c == '\n'; prev = c; }
    if (f) fclose(f);
    CHECK_INT(100000 + 1, entries);   /* the top-level object and one per entry, none twice */
}

static char senv[2000], sdir[900];   /* the fake GPU's environment, the tuning cache folder */
#define TUNE_ADD "tune %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)'"

/* Runs sh in the tuning cache folder; then a tuning benchmarks again (and says note, when
 * not NULL), and the one after reads back what it saved. */
static void spoiled_then_retuned(const char *sh, const char *note) {
    char cmd[4000], o[4096];
    snprintf(cmd, sizeof cmd, "cd %s && %s", sdir, sh);
    test_run(cmd, o, sizeof o);
    CHECK_INT(0, tcmd(senv, TUNE_ADD, KFILE));
    CHECK_CONTAINS(cout, "benchmarked on NVIDIA H200");
    if (note) CHECK_CONTAINS(cout, note);
    CHECK_INT(0, tcmd(senv, TUNE_ADD, KFILE));
    CHECK_CONTAINS(cout, "from the disk cache");
}

/* The on-disk tuning cache on the fake GPU: a FIFO, a symlink, a file or folder others may
 * write or another user owns are never read (the tuning is benchmarked again and a note
 * says why); the folder is created 0700. Runs under timeout: a hang ends with 124. */
TEST(tune_cache_files_safety) {
    char fake[700];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake, R_OK) != 0) return;
    scratch();
    char cmd[4000], o[4096], cache[800], victim[900];
    snprintf(cache, sizeof cache, "%s/scache", tdir);
    snprintf(sdir, sizeof sdir, "%s/tune", cache);
    snprintf(victim, sizeof victim, "%s/victim", tdir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
    test_run(cmd, o, sizeof o);
    snprintf(senv, sizeof senv, "TRITONC_LIBCUDA_PATH=%s FAKE_CUDA_LAUNCH=ok TRITONC_BENCH_FLUSH_BYTES=4096 "
             "TRITONC_CACHE_DIR=%s timeout 60", fake, cache);
    spoiled_then_retuned("true", NULL);
    struct stat st;
    CHECK(stat(sdir, &st) == 0 && (st.st_mode & 0777) == 0700);
    spoiled_then_retuned("for f in *.json; do rm $f && mkfifo $f; done", "not a regular file (a FIFO)");
    /* a symlink to a good entry elsewhere: not followed but replaced, its target untouched */
    spoiled_then_retuned("for f in *.json; do mv $f ../../victim && printf ' \\n \\n' >> ../../victim && "
                         "ln -s ../../victim $f; done", "a symbolic link (not followed)");
    const char *v = slurp(victim, NULL);
    CHECK_CONTAINS(v, "\"format\": \"tritonc-tuning-db\"");
    CHECK(v && strlen(v) > 4 && !strcmp(v + strlen(v) - 4, " \n \n"));   /* as it was left */
    spoiled_then_retuned("chmod 0666 *.json", "writable by others (mode 0666)");
    if (geteuid() == 0) spoiled_then_retuned("chown 65534 *.json", "not owned by this user");
    /* a folder others may write or another user owns: neither read nor written */
    for (int i = 0; i < 2 + (geteuid() == 0); i++) {
        if (i < 2) chmod(sdir, i ? 0770 : 0707);
        else CHECK(chown(sdir, 65534, (gid_t)-1) == 0);
        CHECK_INT(0, tcmd(senv, TUNE_ADD, KFILE));
        CHECK_CONTAINS(cout, "benchmarked on NVIDIA H200");
        CHECK_CONTAINS(cout, i < 2 ? (i ? "not used: writable by others (mode 0770)" : "writable by others (mode 0707)")
                                   : "not used: not owned by this user");
        CHECK_CONTAINS(cout, "saved to (no tuning cache directory)");
        if (i == 2) CHECK(chown(sdir, geteuid(), (gid_t)-1) == 0);
        chmod(sdir, 0700);
        CHECK_INT(0, tcmd(senv, TUNE_ADD, KFILE));
        CHECK_CONTAINS(cout, "from the disk cache");
    }
    /* the launch report's note says it too */
    chmod(sdir, 0777);
    CHECK_INT(0, tcmd(senv, "run %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --verbose", KFILE));
    CHECK_CONTAINS(cout, "note: autotune: benchmarked 3 configs");
    CHECK_CONTAINS(cout, "maxnreg: None; tuning cache ");
    chmod(sdir, 0700);
}

/* bench and tune take run's argument forms: --tensor NAME=VALUE named by desc(...), and bench
 * takes --config (one config timed, none benchmarked for the choice). Fake GPU as above. */
TEST(tune_cli_bench_tensor_desc_config) {
    char fake[700];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake, R_OK) != 0) return;
    scratch();
    char env[1000];
    snprintf(env, sizeof env, "TRITONC_LIBCUDA_PATH=%s FAKE_CUDA_LAUNCH=ok TRITONC_BENCH_FLUSH_BYTES=4096", fake);
    const char *dargs = "--tensor 'x=fp32:arange(30)' --tensor 'y=fp32:zeros(5,6)' "
                        "'src_desc=desc(x,[4,4],shape=[5,6])' 'dst_desc=desc(y,[4,4])' M=5 N=6 BM=4 BN=4 "
                        "--grid 2,2 --warmup 1 --rep 2";
    CHECK_INT(0, tcmd(env, "bench tests/kernels/desc.py tile_copy %s", dargs));
    CHECK_CONTAINS(cout, "ms");
    /* a desc() naming no tensor, and --tensor without NAME=: usage errors */
    CHECK_INT(2, tcmd(env, "bench tests/kernels/desc.py tile_copy 'src_desc=desc(z,[4,4])' M=5"));
    CHECK_CONTAINS(cout, "no tensor named 'z'");
    CHECK_INT(2, tcmd(env, "bench tests/kernels/desc.py tile_copy --tensor x"));
    CHECK_CONTAINS(cout, "--tensor takes NAME=VALUE");
    /* --config: that config, nothing tuned */
    CHECK_INT(0, tcmd(env, "bench %s add_sum_kernel " ADD_ARGS " --grid 'cdiv(n, BLOCK)' --config 2 --warmup 1 --rep 2", KFILE));
    CHECK_CONTAINS(cout, "BLOCK: 1024");
    CHECK(strstr(cout, "benchmarked on") == NULL);
    CHECK_INT(2, tcmd(env, "bench %s add_sum_kernel " ADD_ARGS " --config 7", KFILE));
    CHECK_INT(2, tcmd(env, "tune %s add_sum_kernel " ADD_ARGS " --config 1", KFILE));
    CHECK_CONTAINS(cout, "tune times every config");
    /* tuning compiles each config after its pre_hook (which sets the descriptors' block
     * shapes, as tutorial 06 does): before, every config failed on the 1x1 blocks */
    char env0[1100];   /* no tuning cache: a choice from an earlier run would skip the compiles */
    snprintf(env0, sizeof env0, "%s TRITONC_TUNING_CACHE=0", env);
    CHECK_INT(0, tcmd(env0, "bench tests/kernels/desc.py hooked_copy_tuned --tensor 'x=fp32:arange(18)' "
                      "--tensor 'y=fp32:zeros(6,3)' 'x_desc=desc(x,[1,1],shape=[6,3])' 'y_desc=desc(y,[1,1])' "
                      "M=6 N=3 --grid 3,3 --warmup 1 --rep 2"));
    CHECK(strstr(cout, "failed") == NULL);
    CHECK_CONTAINS(cout, "BM: ");
}
