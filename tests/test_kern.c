/* test_kern.c — issue 15's items 4, 5, 7 and 9 (part): the interpreter's pairwise float
 * tl.sum, jit options and debug mode, the math library, time limits and progress. */
#include "test_kernels_util.h"

#include <unistd.h>

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

/* ---- item 7: time limits and progress ------------------------------------------------ */

typedef struct ProgressLog { int calls; uint64_t last_done, total; char what[16]; } ProgressLog;

static void log_progress(const char *what, uint64_t done, uint64_t total, double el, void *u) {
    ProgressLog *p = u;
    p->calls++;
    p->last_done = done;
    p->total = total;
    snprintf(p->what, sizeof p->what, "%s", what);
    (void)el;
}

/* A while loop that never ends stops at the limit, naming the loop's line and the program;
 * the progress callback saw the programs done of the grid's total meanwhile. */
TEST(kern_timeout_while_loop) {
    KT_SETUP("kern.py", "spin_while");
    CHECK_STR("TC_ERR_TIMEOUT", tc_status_name(TC_ERR_TIMEOUT));
    tc_tensor *to = kt_t1(ctx, TC_I32, 1, NULL);
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 4;
    o.timeout_s = 0.6;
    ProgressLog pl = {0};
    o.progress = log_progress;
    o.progress_user = &pl;
    tc_status s = kt_launch_opts(ctx, k, &o, KT_ARGS({"out_ptr", tc_tens(to)}, {"n", tc_int(100)}));
    CHECK_INT(TC_ERR_TIMEOUT, s);
    CHECK_CONTAINS(tc_errmsg(ctx), "kern.py:17:5");
    CHECK_CONTAINS(tc_errmsg(ctx), "time limit of 0.6 s in program (0, 0, 0)");
    CHECK(pl.calls >= 1);
    CHECK_STR("programs", pl.what);
    CHECK_INT(4, pl.total);
    CHECK_INT(0, pl.last_done);
    tc_tensor_free(to);
    KT_TEARDOWN();
}

/* range(2**31 - 1) on two threads stops too; without a limit a short launch is unchanged. */
TEST(kern_timeout_long_range_parallel) {
    KT_SETUP("kern.py", "long_range");
    tc_tensor *to = kt_t1(ctx, TC_I32, 1, NULL);
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2;
    o.threads = 2;
    o.timeout_s = 0.2;
    tc_status s = kt_launch_opts(ctx, k, &o, KT_ARGS({"out_ptr", tc_tens(to)}));
    CHECK_INT(TC_ERR_TIMEOUT, s);
    CHECK_CONTAINS(tc_errmsg(ctx), "kern.py:25:5");
    tc_tensor_free(to);
    tc_kernel *k2 = KT_KERNEL(ctx, m, "add_one");
    float x[5] = {1, 2, 3, 4, 5}, e[5] = {2, 3, 4, 5, 6}, r[5];
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 5, x);
    o = tc_launch_defaults();
    o.grid[0] = 3;
    o.timeout_s = 30;
    s = kt_launch_opts(ctx, k2, &o, KT_ARGS({"x_ptr", tc_tens(tx)}, {"n", tc_int(5)}, {"BLOCK", tc_int(2)}));
    CHECK_INT(TC_OK, s);
    kt_get(tx, r);
    CHECK(memcmp(e, r, sizeof e) == 0);
    tc_tensor_free(tx);
    KT_TEARDOWN();
}

/* tritonc run/check --timeout: exit 1 with the message; a bad value is a usage error; on a
 * GPU (the fake driver, whose stream never finishes) the command stops waiting. */
TEST(kern_cli_timeout) {
    char cmd[1024], out[8192];
    const char *b = test_build_dir();
    snprintf(cmd, sizeof cmd, "./%s/tritonc run tests/kernels/kern.py spin_while --interpret "
             "out_ptr='i32:zeros(1)' n=100 --timeout 0.2", b);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "kern.py:17:5: error: the launch passed its time limit of 0.2 s");
    snprintf(cmd, sizeof cmd, "./%s/tritonc check tests/kernels/kern.py spin_while "
             "out_ptr='i32:zeros(1)' n=100 --timeout=0.2", b);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "time limit of 0.2 s");
    snprintf(cmd, sizeof cmd, "./%s/tritonc run tests/kernels/kern.py spin_while --interpret "
             "out_ptr='i32:zeros(1)' n=100 --timeout -1", b);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "--timeout takes a number of seconds > 0");
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR= HOME= TRITONC_LIBCUDA_PATH=%s/fake "
             "FAKE_CUDA_LAUNCH=ok FAKE_CUDA_STREAM=busy ./%s/tritonc run tests/kernels/kern.py "
             "add_one x_ptr='fp32:zeros(4)' n=4 BLOCK=4 --timeout 0.2", b, b);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "did not finish within its time limit of 0.2 s; stopped waiting");
}

/* On a terminal (script(1) gives one), a run that passes a second shows programs done of the
 * total on stderr, one line rewritten in place and ended before the error. */
TEST(kern_cli_progress_on_tty) {
    char cmd[1024], out[8192];
    if (test_run("command -v script >/dev/null", out, sizeof out) != 0) return;
    snprintf(cmd, sizeof cmd, "script -qec \"./%s/tritonc run tests/kernels/kern.py spin_while "
             "--interpret --grid 3 out_ptr='i32:zeros(1)' n=100 --timeout 1.3\" /dev/null",
             test_build_dir());
    test_run(cmd, out, sizeof out);
    CHECK_CONTAINS(out, "\rtritonc: programs 0/3 (0%), 1.");
    CHECK_CONTAINS(out, "s\r\ntests/kernels/kern.py:17:5: error: the launch passed its time limit");
    snprintf(cmd, sizeof cmd, "./%s/tritonc run tests/kernels/kern.py spin_while --interpret "
             "out_ptr='i32:zeros(1)' n=100 --timeout 1.1 2>&1 | cat", test_build_dir());
    test_run(cmd, out, sizeof out);
    CHECK(!strstr(out, "programs 0/1"));   /* not a terminal: no progress */
}

/* ---- item 4: jit options ------------------------------------------------------------- */

/* jit(debug=True) turns device_assert on for that kernel (as TRITON_DEBUG=1 does for all). */
TEST(kern_jit_debug_enables_device_assert) {
    KT_SETUP("kern.py", "assert_debug");
    float x[4] = {1, 2, -3, 4};
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 4, x);
    tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"BLOCK", tc_int(4)}));
    CHECK_INT(TC_ERR_RUNTIME, s);
    CHECK_CONTAINS(tc_errmsg(ctx), "device assertion failed: x must be positive (program (0, 0, 0), lane 2)");
    CHECK_CONTAINS(tc_errmsg(ctx), "kern.py:40:5");
    tc_kernel *k2 = KT_KERNEL(ctx, m, "assert_plain");   /* no debug: compiled away */
    CHECK_INT(TC_OK, kt_launch(ctx, k2, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"BLOCK", tc_int(4)})));
    tc_tensor_free(tx);
    KT_TEARDOWN();
}

/* Debug mode checks + - * (and unary -) of integers narrower than 64 bits, as Triton 3.6's
 * sanitize_overflow: the exact result must fit the type. */
TEST(kern_jit_debug_overflow_checks) {
    KT_SETUP("kern.py", "overflow_debug");
    static const struct { const char *op; tc_dtype dt; int64_t x, y; int bad; const char *msg; } cases[] = {
        {"add", TC_I32, 2147483647, 1, 1, "int32 overflow detected for operation add"},
        {"add", TC_I32, 2147483646, 1, 0, NULL},
        {"sub", TC_I32, -2147483647 - 1, 1, 1, "int32 overflow detected for operation sub"},
        {"sub", TC_I32, -2147483647, 1, 0, NULL},
        {"mul", TC_I32, 65536, 32768, 1, "int32 overflow detected for operation mul"},
        {"mul", TC_I32, 65535, 32768, 0, NULL},
        {"neg", TC_I32, -2147483647 - 1, 0, 1, "int32 overflow detected for operation sub"},
        {"sub", TC_U32, 0, 1, 1, "int32 overflow detected for operation sub"},
        {"mul", TC_I16, 256, 128, 1, "int16 overflow detected for operation mul"},
        {"add", TC_I64, INT64_MAX, 1, 0, NULL},   /* 64-bit: not checked (wraps) */
    };
    for (int i = 0; i < COUNT_OF_CASES(cases); i++) {
        int64_t xs[4] = {1, 2, cases[i].x, 3}, ys[4] = {1, 1, cases[i].y, 1};
        uint8_t bx[32], by[32];
        size_t es = tc_dtype_size(cases[i].dt);
        for (int j = 0; j < 4; j++) {   /* little-endian truncation to the element size */
            memcpy(bx + j * es, &xs[j], es);
            memcpy(by + j * es, &ys[j], es);
        }
        tc_tensor *tx = kt_t1(ctx, cases[i].dt, 4, bx), *ty = kt_t1(ctx, cases[i].dt, 4, by),
                  *to = kt_t1(ctx, cases[i].dt, 4, NULL);
        tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                {"out_ptr", tc_tens(to)}, {"OP", tc_str(cases[i].op)}, {"BLOCK", tc_int(4)}));
        if (cases[i].bad) {
            CHECK_INT(TC_ERR_RUNTIME, s);
            CHECK_CONTAINS(tc_errmsg(ctx), cases[i].msg);
            CHECK_CONTAINS(tc_errmsg(ctx), "lane 2");
        } else {
            if (s) fprintf(stderr, "  case %d: %s\n", i, tc_errmsg(ctx));
            CHECK_INT(TC_OK, s);
        }
        tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    }
    /* without debug the same multiplication wraps (two's complement), as Triton */
    tc_kernel *k2 = KT_KERNEL(ctx, m, "overflow_plain");
    int32_t x[2] = {65536, 3}, y[2] = {32768, 4}, o[2];
    tc_tensor *tx = kt_t1(ctx, TC_I32, 2, x), *ty = kt_t1(ctx, TC_I32, 2, y), *to = kt_t1(ctx, TC_I32, 2, NULL);
    CHECK_INT(TC_OK, kt_launch(ctx, k2, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                 {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(2)})));
    kt_get(to, o);
    CHECK_INT(INT32_MIN, o[0]);
    CHECK_INT(12, o[1]);
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* do_not_specialize / do_not_specialize_on_alignment, by name or index: no ==1 constexpr and
 * no :16 for those parameters (the specialization key and its text change accordingly). */
TEST(kern_jit_do_not_specialize) {
    KT_SETUP("kern.py", "no_spec");
    float x[32] = {0}, r[32];
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 32, x);
    CHECK_INT(TC_OK, kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"n", tc_int(16)},
                                {"m", tc_int(16)}, {"BLOCK", tc_int(32)})));
    tc_launch_report rep;
    tc_last_launch(ctx, &rep, sizeof rep);
    CHECK_STR("*fp32, i32, i32:16, BLOCK=32", rep.specialization);
    CHECK_INT(TC_OK, kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"n", tc_int(1)},
                                {"m", tc_int(1)}, {"BLOCK", tc_int(32)})));
    tc_last_launch(ctx, &rep, sizeof rep);
    CHECK_STR("*fp32, i32, m=1, BLOCK=32", rep.specialization);
    kt_get(tx, r);
    for (int i = 0; i < 32; i++) x[i] = i < 32 ? 1.0f + (i < 2) : 0;
    CHECK(memcmp(x, r, sizeof r) == 0);
    tc_stats st;
    tc_kernel_stats(k, &st, sizeof st);
    CHECK_INT(2, st.specializations);
    tc_tensor_free(tx);
    KT_TEARDOWN();
}

/* Unknown jit keywords, positional options and bad values are refused where they are. */
TEST(kern_jit_unknown_keyword_refused) {
    tc_context *ctx = kt_ctx();
    static const struct { const char *src; const char *msg; } cases[] = {
        {"import triton\n@triton.jit(debug=True, fast=1)\ndef k(x):\n    pass\n",
         "<k>:2:25: error: jit() got an unexpected keyword argument 'fast'"},
        {"import triton\n@triton.jit(debug=3)\ndef k(x):\n    pass\n",
         "<k>:2:19: error: triton.jit(debug=...) takes True, False or None here"},
        {"import triton\n@triton.jit(do_not_specialize=\"x\")\ndef k(x):\n    pass\n",
         "takes a list of parameter names or indices"},
        {"import triton\n@triton.jit(1)\ndef k(x):\n    pass\n",
         "jit() takes its options as keywords"},
    };
    for (int i = 0; i < COUNT_OF_CASES(cases); i++) {
        tc_module *m = NULL;
        tc_status s = tc_module_load_string(ctx, "<k>", cases[i].src, &m);
        CHECK_INT(TC_ERR_SYNTAX, s);
        CHECK_CONTAINS(tc_errmsg(ctx), cases[i].msg);
        tc_module_free(m);
    }
    tc_context_free(ctx);
}

/* ---- PTX of these kernels, assembled by ptxas for sm_80 and sm_90a --------------------- */

static const char *kern_ptxas(void) {
    const char *p = getenv("TRITONC_PTXAS");
    return p && *p ? p : "/usr/local/cuda/bin/ptxas";
}

/* Lowers kernel `name` of kern.py for sm_80 and sm_90a with the signature sig (runtime
 * parameters) and the constexprs cx, and assembles each with ptxas when it exists. Returns
 * the sm_90a PTX (malloc'd; caller frees) or NULL after recording a failure. */
static char *kern_ptx_(tc_context *ctx, tc_module *m, const char *name, const char *const *sig,
                       int nsig, const KtArg *cx, const char *cf, int cl) {
    tc_kernel *k = kt_kernel_(ctx, m, name, cf, cl);
    if (!k) return NULL;
    char *last = NULL;
    for (int t = 0; t < 2; t++) {
        tc_target tg = {"cuda", t ? 90 : 80, 32, t};
        tc_args *a = NULL;
        tc_args_new(k, &a);
        for (const KtArg *p = cx; p && p->name; p++) tc_args_set(a, p->name, p->v);
        char *ptx = NULL;
        tc_status s = tc_compile_ptx(k, &tg, sig, nsig, a, 4, &ptx);
        tc_args_free(a);
        if (s) { test_fail(cf, cl, "%s sm_%d: %s", name, tg.arch, tc_errmsg(ctx)); free(last); return NULL; }
        test_passed++;
        if (access(kern_ptxas(), X_OK) == 0) {
            char path[256], cmd[600], out[8192];
            snprintf(path, sizeof path, "/tmp/tc_kern_%d_%s.ptx", (int)getpid(), name);
            FILE *f = fopen(path, "w");
            if (f) { fputs(ptx, f); fclose(f); }
            snprintf(cmd, sizeof cmd, "%s -arch=sm_%d%s %s -o /dev/null", kern_ptxas(), tg.arch,
                     t ? "a" : "", path);
            int rc = test_run(cmd, out, sizeof out);
            if (rc) test_fail(cf, cl, "ptxas %s sm_%d:\n%s", name, tg.arch, out);
            else test_passed++;
            unlink(path);
        }
        free(last);
        last = ptx;
    }
    return last;
}
#define KERN_PTX(ctx, m, name, sig, cx) \
    kern_ptx_((ctx), (m), (name), (sig), COUNT_OF_CASES(sig), (cx), __FILE__, __LINE__)

/* Debug mode's checks lower to PTX too (64-bit recomputation, compares, the assertion's
 * trap), for both targets; without debug there is no check. */
TEST(kern_jit_debug_overflow_ptx) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    static const char *const sig[] = {"*i32:16", "*i32:16", "*i32:16"};
    const char *ops[] = {"add", "sub", "mul", "neg"};
    for (int i = 0; i < 4; i++) {
        char *ptx = KERN_PTX(ctx, m, "overflow_debug", sig,
                             KT_ARGS({"OP", tc_str(ops[i])}, {"BLOCK", tc_int(128)}));
        CHECK(ptx && strstr(ptx, "trap;"));
        free(ptx);
    }
    char *ptx = KERN_PTX(ctx, m, "overflow_plain", sig, KT_ARGS({"BLOCK", tc_int(128)}));
    CHECK(ptx && !strstr(ptx, "trap;"));
    free(ptx);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- item 5: 16-bit atomic_cas (Triton allows widths 16, 32, 64) ---------------------- */

/* On the GPU a 16-bit CAS touches its 2 bytes only (atom.cas.b16; i16/u16 used to be a 4-byte
 * b32 CAS over the neighbour); under the interpreter the old values come back. */
TEST(kern_atomic_cas_16bit) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    const char *types[] = {"*i16:16", "*u16:16", "*fp16:16", "*bf16:16"};
    for (int i = 0; i < 4; i++) {
        const char *sig[] = {types[i], types[i]};
        char *ptx = kern_ptx_(ctx, m, "cas16", sig, 2, KT_ARGS({"BLOCK", tc_int(4)}), __FILE__, __LINE__);
        CHECK(ptx && strstr(ptx, ".cas.b16 ") && !strstr(ptx, ".cas.b32 "));
        free(ptx);
    }
    tc_kernel *k = KT_KERNEL(ctx, m, "cas16");
    int16_t p[4] = {5, -3, 7, 100}, o[4] = {5, -3, 1, 99};
    tc_tensor *tp = kt_t1(ctx, TC_I16, 4, p), *to = kt_t1(ctx, TC_I16, 4, o);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"p_ptr", tc_tens(tp)}, {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(4)})) {
        int16_t rp[4], ro[4];
        kt_get(tp, rp);
        kt_get(to, ro);
        int16_t ep[4] = {12, 4, 7, 100}, eo[4] = {5, -3, 7, 100};   /* swapped where equal */
        CHECK(memcmp(ep, rp, sizeof rp) == 0);
        CHECK(memcmp(eo, ro, sizeof ro) == 0);
    }
    tc_tensor_free(tp); tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}
