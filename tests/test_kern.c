/* test_kern.c — issue 15's items 4, 5, 7 and 9 (part): the interpreter's pairwise float
 * tl.sum, jit options and debug mode, the math library, time limits and progress. */
#include "test_kernels_util.h"

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
