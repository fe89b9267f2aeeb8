/* test_kern.c — issue 15's items 4, 5, 7 and 9 (part): the interpreter's pairwise float
 * tl.sum, jit options and debug mode, the math library, time limits and progress. The tests
 * are named i15_*: scripts/gpu-check.sh shadows the kern_* tests on a GPU, and these have
 * loops that never end (the GPU side is scripts/gpu-math-check.sh). */
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
TEST(i15_sum_pairwise_fp32) {
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
TEST(i15_timeout_while_loop) {
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
    CHECK_CONTAINS(tc_errmsg(ctx), "kern.py:18:5");
    CHECK_CONTAINS(tc_errmsg(ctx), "time limit of 0.6 s in program (0, 0, 0)");
    CHECK(pl.calls >= 1);
    CHECK_STR("programs", pl.what);
    CHECK_INT(4, pl.total);
    CHECK_INT(0, pl.last_done);
    tc_tensor_free(to);
    KT_TEARDOWN();
}

/* range(2**31 - 1) on two threads stops too; without a limit a short launch is unchanged. */
TEST(i15_timeout_long_range_parallel) {
    KT_SETUP("kern.py", "long_range");
    tc_tensor *to = kt_t1(ctx, TC_I32, 1, NULL);
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2;
    o.threads = 2;
    o.timeout_s = 0.2;
    tc_status s = kt_launch_opts(ctx, k, &o, KT_ARGS({"out_ptr", tc_tens(to)}));
    CHECK_INT(TC_ERR_TIMEOUT, s);
    CHECK_CONTAINS(tc_errmsg(ctx), "kern.py:26:5");
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
TEST(i15_cli_timeout) {
    char cmd[1024], out[8192];
    const char *b = test_build_dir();
    snprintf(cmd, sizeof cmd, "./%s/tritonc run tests/kernels/kern.py spin_while --interpret "
             "out_ptr='i32:zeros(1)' n=100 --timeout 0.2", b);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "kern.py:18:5: error: the launch passed its time limit of 0.2 s");
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
TEST(i15_cli_progress_on_tty) {
    char cmd[1024], out[8192];
    if (test_run("command -v script >/dev/null", out, sizeof out) != 0) return;
    snprintf(cmd, sizeof cmd, "script -qec \"./%s/tritonc run tests/kernels/kern.py spin_while "
             "--interpret --grid 3 out_ptr='i32:zeros(1)' n=100 --timeout 1.3\" /dev/null",
             test_build_dir());
    test_run(cmd, out, sizeof out);
    CHECK_CONTAINS(out, "\rtritonc: programs 0/3 (0%), 1.");
    CHECK_CONTAINS(out, "s\r\ntests/kernels/kern.py:18:5: error: the launch passed its time limit");
    snprintf(cmd, sizeof cmd, "./%s/tritonc run tests/kernels/kern.py spin_while --interpret "
             "out_ptr='i32:zeros(1)' n=100 --timeout 1.1 2>&1 | cat", test_build_dir());
    test_run(cmd, out, sizeof out);
    CHECK(!strstr(out, "programs 0/1"));   /* not a terminal: no progress */
}

/* ---- item 4: jit options ------------------------------------------------------------- */

/* jit(debug=True) turns device_assert on for that kernel (as TRITON_DEBUG=1 does for all). */
TEST(i15_jit_debug_enables_device_assert) {
    KT_SETUP("kern.py", "assert_debug");
    float x[4] = {1, 2, -3, 4};
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 4, x);
    tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"BLOCK", tc_int(4)}));
    CHECK_INT(TC_ERR_RUNTIME, s);
    CHECK_CONTAINS(tc_errmsg(ctx), "device assertion failed: x must be positive (program (0, 0, 0), lane 2)");
    CHECK_CONTAINS(tc_errmsg(ctx), "kern.py:41:5");
    tc_kernel *k2 = KT_KERNEL(ctx, m, "assert_plain");   /* no debug: compiled away */
    CHECK_INT(TC_OK, kt_launch(ctx, k2, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"BLOCK", tc_int(4)})));
    tc_tensor_free(tx);
    KT_TEARDOWN();
}

/* Debug mode checks + - * (and unary -) of integers narrower than 64 bits, as Triton 3.6's
 * sanitize_overflow: the exact result must fit the type. */
TEST(i15_jit_debug_overflow_checks) {
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
TEST(i15_jit_do_not_specialize) {
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
TEST(i15_jit_unknown_keyword_refused) {
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
TEST(i15_jit_debug_overflow_ptx) {
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
TEST(i15_atomic_cas_16bit) {
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

/* ---- item 5: libdevice's elementary functions ---------------------------------------- */

/* Runs math1 (y == NULL) or math2 of kern.py on n inputs of dtype dt (fp32 or fp64; y's
 * dtype ydt) with function fn; the results, widened to double, in out. 0 on failure. */
static int run_math(tc_context *ctx, tc_module *m, const char *fn, tc_dtype dt, const double *x,
                    const double *y, tc_dtype ydt, tc_dtype odt, int n, double *out) {
    tc_kernel *k = KT_KERNEL(ctx, m, y ? "math2" : "math1");
    if (!k) return 0;
    unsigned char bx[8 * 8], by[8 * 8], bo[8 * 8];
    if (!y) ydt = dt;   /* math1 has no y */
    for (int i = 0; i < 8; i++) {
        double xv = i < n ? x[i] : 1, yv = y && i < n ? y[i] : 1;
        if (dt == TC_FP32) ((float *)bx)[i] = (float)xv; else ((double *)bx)[i] = xv;
        if (ydt == TC_FP32) ((float *)by)[i] = (float)yv;
        else if (ydt == TC_FP64) ((double *)by)[i] = yv;
        else ((int32_t *)by)[i] = (int32_t)yv;
    }
    tc_tensor *tx = kt_t1(ctx, dt, 8, bx), *ty = kt_t1(ctx, ydt, 8, by), *to = kt_t1(ctx, odt, 8, NULL);
    tc_status s = y ? kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                {"out_ptr", tc_tens(to)}, {"FN", tc_str(fn)}, {"BLOCK", tc_int(8)}))
                    : kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                                {"FN", tc_str(fn)}, {"BLOCK", tc_int(8)}));
    int ok = s == TC_OK;
    if (!ok) test_fail(__FILE__, __LINE__, "%s: %s", fn, tc_errmsg(ctx));
    else {
        kt_get(to, bo);
        for (int i = 0; i < n; i++)
            out[i] = odt == TC_FP32 ? ((float *)bo)[i] : odt == TC_FP64 ? ((double *)bo)[i]
                   : odt == TC_I64 ? (double)((int64_t *)bo)[i] : odt == TC_I1 ? bo[i]
                   : ((int32_t *)bo)[i];
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    return ok;
}

/* Every elementary function on both float types against values known in closed form
 * (identities, exact cases, tables), within 2 ulp of fp32 / 4 of fp64 (exact where exact). */
TEST(i15_libdevice_values) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    const double PI = 3.14159265358979323846, E = 2.71828182845904523536, LN3 = 1.09861228866810969140;
    const double NaN = NAN, Inf = INFINITY;
    static struct { const char *fn; int n; double x[4], e[4]; int exact; } one[19];
    int k = 0;
#define ONE(F, N, X, EX, EXACT) do { one[k].fn = F; one[k].n = N; \
        memcpy(one[k].x, (double[4])X, sizeof one[k].x); memcpy(one[k].e, (double[4])EX, sizeof one[k].e); \
        one[k].exact = EXACT; k++; } while (0)
#define L(...) {__VA_ARGS__}
    ONE("trunc", 4, L(-2.7, 2.7, -0.5, 1e20), L(-2, 2, -0.0, 1e20), 1);
    ONE("round", 4, L(2.5, -2.5, 0.49999997, -1.5), L(3, -3, 0, -2), 1);
    ONE("rint", 4, L(2.5, 3.5, -2.5, 0.75), L(2, 4, -2, 1), 1);
    ONE("nearbyint", 4, L(2.5, 3.5, -2.5, -0.75), L(2, 4, -2, -1), 1);
    ONE("cbrt", 4, L(27, -8, 0.125, 1e-300), L(3, -2, 0.5, 1e-100), 0);
    ONE("rcbrt", 3, L(27, -8, 0.125), L(1.0 / 3, -0.5, 2), 0);
    ONE("exp10", 3, L(3, -2, 0.5), L(1000, 0.01, 3.16227766016837933), 0);
    ONE("expm1", 3, L(1e-10, 1, -Inf), L(1.00000000005e-10, E - 1, -1), 0);
    ONE("log10", 3, L(1000, 0.001, 0), L(3, -3, -Inf), 0);
    ONE("log1p", 3, L(1e-10, E - 1, -1), L(9.9999999995e-11, 1, -Inf), 0);
    ONE("tan", 3, L(PI / 4, 0, -PI / 4), L(1, 0, -1), 0);
    ONE("asin", 3, L(0.5, 1, 2), L(PI / 6, PI / 2, NaN), 0);
    ONE("acos", 3, L(0.5, -1, 1), L(PI / 3, PI, 0), 0);
    ONE("atan", 3, L(1, -Inf, 0), L(PI / 4, -PI / 2, 0), 0);
    ONE("sinh", 2, L(1, -1), L((E - 1 / E) / 2, -(E - 1 / E) / 2), 0);
    ONE("cosh", 2, L(1, 0), L((E + 1 / E) / 2, 1), 0);
    ONE("asinh", 2, L(0.75, -0.75), L(0.69314718055994531, -0.69314718055994531), 0);   /* ln 2 */
    ONE("acosh", 2, L(1, 1.25), L(0, 0.69314718055994531), 0);
    ONE("atanh", 2, L(0.5, -0.5), L(LN3 / 2, -LN3 / 2), 0);
    for (int dti = 0; dti < 2; dti++) {
        tc_dtype dt = dti ? TC_FP64 : TC_FP32;
        double tol = dti ? 4 * 2.2e-16 : 2 * 1.2e-7;
        for (int i = 0; i < k; i++) {
            double got[4], ex[4];
            for (int j = 0; j < one[i].n; j++) ex[j] = dti ? one[i].e[j] : (double)(float)one[i].e[j];
            if (!dti && !strcmp(one[i].fn, "cbrt")) one[i].n = 3;   /* 1e-300 is 0 in fp32 */
            if (!run_math(ctx, m, one[i].fn, dt, one[i].x, NULL, 0, dt, one[i].n, got)) continue;
            if (one[i].exact) KT_CHECK_ARR(ex, got, one[i].n, 0, 0);
            else KT_CHECK_ARR(ex, got, one[i].n, tol, 1e-300);
            for (int j = 0; j < one[i].n; j++)   /* -0.0 stays -0.0 */
                if (ex[j] == 0 && signbit(ex[j]) != signbit(got[j]))
                    test_fail(__FILE__, __LINE__, "%s: the sign of zero", one[i].fn);
        }
        double got[4];
        double xs[4] = {0.5204998778130465, -0.8427007929497149, 0, 0.999999};   /* erf(0.5), erf(-1) */
        if (run_math(ctx, m, "erfinv", dt, xs, NULL, 0, dt, 3, got)) {
            double ex[3] = {0.5, -1, 0};
            KT_CHECK_ARR(ex, got, 3, dti ? 1e-14 : 4e-7, 0);
        }
        /* near 1, where erf(y) - x has no digits left: mpmath's erfinv (40 digits), in
         * fp64 within 2 ulp */
        double x1[4] = {0.99, 0.9999, -0.999999999, 1 - 0x1p-53};
        if (dti && run_math(ctx, m, "erfinv", dt, x1, NULL, 0, dt, 4, got)) {
            double ex[4] = {1.8213863677184494, 2.75106390571208, -4.320005388105362, 5.8635847487551676};
            KT_CHECK_ARR(ex, got, 4, 4.5e-16, 0);
        }
        double xe[3] = {0, 1e9, -1e9};
        if (run_math(ctx, m, "erfc", dt, xe, NULL, 0, dt, 3, got)) {
            double ex[3] = {1, 0, 2};
            KT_CHECK_ARR(ex, got, 3, 0, 0);
        }
        double xl[4] = {8, 0.75, 1e-40, -Inf};
        if (run_math(ctx, m, "logb", dt, xl, NULL, 0, dt, 2, got)) {
            double ex[2] = {3, -1};
            KT_CHECK_ARR(ex, got, 2, 0, 0);
        }
        double xp[4] = {0.5, 1, 2.5, 1e300};
        if (run_math(ctx, m, "sinpi", dt, xp, NULL, 0, dt, 3, got)) {
            double ex[3] = {1, 0, 1};
            KT_CHECK_ARR(ex, got, 3, 0, 0);
        }
        if (run_math(ctx, m, "cospi", dt, xp, NULL, 0, dt, 3, got)) {
            double ex[3] = {0, -1, 0};
            KT_CHECK_ARR(ex, got, 3, 0, 0);
        }
        /* classification: int1 (isnan, isinf, finite), int32 (signbit, ilogb), int64 (llrint) */
        double xc[4] = {NaN, -Inf, -0.0, 8};
        const char *cls[] = {"isnan", "isinf", dti ? "isfinited" : "finitef"};
        double cex[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 1}};
        for (int c = 0; c < 3; c++)
            if (run_math(ctx, m, cls[c], dt, xc, NULL, 0, TC_I1, 4, got)) KT_CHECK_ARR(cex[c], got, 4, 0, 0);
        if (run_math(ctx, m, "signbit", dt, xc, NULL, 0, TC_I32, 4, got)) {
            double ex[4] = {0, 1, 1, 0};
            KT_CHECK_ARR(ex, got, 4, 0, 0);
        }
        if (run_math(ctx, m, "ilogb", dt, xc, NULL, 0, TC_I32, 4, got)) {
            double ex[4] = {INT32_MIN, INT32_MAX, INT32_MIN, 3};
            KT_CHECK_ARR(ex, got, 4, 0, 0);
        }
        double xr[4] = {2.5, -3.5, 1e10, 0.5};
        if (run_math(ctx, m, "llrint", dt, xr, NULL, 0, TC_I64, 4, got)) {
            double ex[4] = {2, -4, 1e10, 0};
            KT_CHECK_ARR(ex, got, 4, 0, 0);
        }
        if (run_math(ctx, m, "llround", dt, xr, NULL, 0, TC_I64, 4, got)) {
            double ex[4] = {3, -4, 1e10, 1};
            KT_CHECK_ARR(ex, got, 4, 0, 0);
        }
        /* two arguments */
        static const struct { const char *fn; int n; double x[4], y[4], e[4]; int yint; int exact; } two[] = {
            {"pow", 4, {2, 9, -2, 0}, {10, 0.5, 3, -1}, {1024, 3, -8, INFINITY}, 0, 0},
            {"pow", 3, {2, -3, 1.5}, {-2, 3, 2}, {0.25, -27, 2.25}, 1, 0},
            {"atan2", 4, {1, 1, -1, 0}, {1, -1, -1, -1}, {0.78539816339744831, 2.35619449019234492,
                                                        -2.35619449019234492, 3.14159265358979324}, 0, 0},
            {"hypot", 3, {3, 5, INFINITY}, {4, 12, NAN}, {5, 13, INFINITY}, 0, 0},
            {"rhypot", 2, {3, 5}, {4, 12}, {0.2, 1.0 / 13}, 0, 0},
            {"remainder", 4, {7.5, 5, -7.5, 6}, {2, 2, 2, 4}, {-0.5, 1, 0.5, -2}, 0, 1},
            {"fmod", 3, {7.5, -7.5, 5}, {2, 2, 3}, {1.5, -1.5, 2}, 0, 1},
            {"copysign", 4, {3, -3, 2, 0}, {-0.0, 1, -INFINITY, -1}, {-3, 3, -2, -0.0}, 0, 1},
            {"fdim", 3, {5, 3, NAN}, {3, 5, 1}, {2, 0, NAN}, 0, 1},
            {"ldexp", 4, {1.5, 1, 3, 1}, {4, -3, 0, 5000}, {24, 0.125, 3, INFINITY}, 1, 1},
            {"scalbn", 2, {1.5, -1}, {4, -1}, {24, -0.5}, 1, 1},
        };
        for (int i = 0; i < COUNT_OF_CASES(two); i++) {
            double ex[4];
            for (int j = 0; j < two[i].n; j++) ex[j] = dti ? two[i].e[j] : (double)(float)two[i].e[j];
            if (!run_math(ctx, m, two[i].fn, dt, two[i].x, two[i].y, two[i].yint ? TC_I32 : dt, dt,
                          two[i].n, got))
                continue;
            if (two[i].exact) KT_CHECK_ARR(ex, got, two[i].n, 0, 0);
            else KT_CHECK_ARR(ex, got, two[i].n, dti ? 4 * 2.2e-16 : 2 * 1.2e-7, 0);
        }
        double xn[4] = {1, 1, 0, -1}, yn[4] = {2, 0, -1, -1};
        if (run_math(ctx, m, "nextafter", dt, xn, yn, dt, dt, 4, got)) {
            double ex[4] = {1 + (dti ? 0x1p-52 : 0x1p-23), 1 - (dti ? 0x1p-53 : 0x1p-24),
                            -(dti ? 0x1p-1074 : 0x1p-149), -1};
            KT_CHECK_ARR(ex, got, 4, 0, 0);
        }
    }
    /* fp32-only forms: fast_* (computed exactly by the interpreter), saturatef */
    static const struct { const char *fn; double x, e; } f32[] = {
        {"fast_expf", 1, E}, {"fast_exp10f", 2, 100}, {"fast_logf", E, 1}, {"fast_log2f", 8, 3},
        {"fast_log10f", 100, 2}, {"fast_sinf", PI / 2, 1}, {"fast_cosf", 0, 1},
        {"fast_tanf", PI / 4, 1}, {"saturatef", 1.5, 1},
    };
    for (int i = 0; i < COUNT_OF_CASES(f32); i++) {
        double got[1], ex[1] = {(float)f32[i].e};
        if (run_math(ctx, m, f32[i].fn, TC_FP32, &f32[i].x, NULL, 0, TC_FP32, 1, got))
            KT_CHECK_ARR(ex, got, 1, 2.4e-7, 0);
    }
    double got[1], x2 = 3, y2 = 4, ex2[1] = {81};
    if (run_math(ctx, m, "fast_powf", TC_FP32, &x2, &y2, TC_FP32, TC_FP32, 1, got)) KT_CHECK_ARR(ex2, got, 1, 2.4e-7, 0);
    /* fp32-only functions refuse fp64, as Triton's libdevice does */
    tc_kernel *k1 = KT_KERNEL(ctx, m, "math1");
    double xd[8] = {0};
    tc_tensor *tx = kt_t1(ctx, TC_FP64, 8, xd), *to = kt_t1(ctx, TC_FP64, 8, NULL);
    tc_status s = kt_launch(ctx, k1, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                            {"FN", tc_str("fast_expf")}, {"BLOCK", tc_int(8)}));
    CHECK_INT(TC_ERR_COMPILE, s);
    CHECK_CONTAINS(tc_errmsg(ctx), "Expected dtype ['fp32'] but got fp64");
    tc_tensor_free(tx); tc_tensor_free(to);
    /* special functions: refused, named */
    tc_kernel *ks = KT_KERNEL(ctx, m, "special");
    float xf = 0.5f;
    tc_tensor *tf = kt_t1(ctx, TC_FP32, 1, &xf);
    s = kt_launch(ctx, ks, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tf)}));
    CHECK_INT(TC_ERR_UNSUPPORTED, s);
    CHECK_CONTAINS(tc_errmsg(ctx), "libdevice.lgamma is a special function, not yet supported");
    tc_tensor_free(tf);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* The functions the GPU backend has lower to PTX that ptxas takes for sm_80 and sm_90a, in
 * fp32 and fp64 (the fast_* forms fp32 only); fp64 erfinv too. */
TEST(i15_libdevice_ptx) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    static const char *const gpu1[] = {"trunc", "round", "rint", "nearbyint", "logb", "isnan",
        "isinf", "signbit", "ilogb", "llrint", "llround", "fast_expf", "fast_exp10f", "fast_logf",
        "fast_log2f", "fast_log10f", "fast_sinf", "fast_cosf", "fast_tanf", "saturatef", "finitef",
        "isfinited"};
    static const char *const gpu2[] = {"copysign", "fdim", "nextafter", "fmod", "hypot",
        "rhypot", "remainder", "fast_powf", "fast_dividef"};
    for (int dti = 0; dti < 2; dti++) {
        const char *t = dti ? "*fp64:16" : "*fp32:16";
        for (int i = 0; i < COUNT_OF_CASES(gpu1); i++) {
            const char *f = gpu1[i];
            if (dti && (!strncmp(f, "fast_", 5) || !strcmp(f, "saturatef") || !strcmp(f, "finitef"))) continue;
            if (!dti && !strcmp(f, "isfinited")) continue;
            const char *ot = !strcmp(f, "signbit") || !strcmp(f, "ilogb") ? "*i32:16"
                           : !strncmp(f, "ll", 2) ? "*i64:16"
                           : !strncmp(f, "is", 2) || !strcmp(f, "finitef") ? "*i1:16" : t;
            const char *sig[] = {t, ot};
            char *ptx = kern_ptx_(ctx, m, "math1", sig, 2, KT_ARGS({"FN", tc_str(f)}, {"BLOCK", tc_int(128)}),
                                  __FILE__, __LINE__);
            if (!ptx) fprintf(stderr, "  (math1 %s %s)\n", f, t);
            free(ptx);
        }
        for (int i = 0; i < COUNT_OF_CASES(gpu2); i++) {
            const char *f = gpu2[i];
            if (dti && (!strncmp(f, "fast_", 5) || strstr(f, "hypot"))) continue;
            const char *sig[] = {t, t, t};
            char *ptx = kern_ptx_(ctx, m, "math2", sig, 3, KT_ARGS({"FN", tc_str(f)}, {"BLOCK", tc_int(128)}),
                                  __FILE__, __LINE__);
            if (!ptx) fprintf(stderr, "  (math2 %s %s)\n", f, t);
            free(ptx);
        }
    }
    tc_kernel *k = KT_KERNEL(ctx, m, "math1");
    tc_target tg = {"cuda", 90, 32, 1};
    const char *sig[] = {"*fp64:16", "*fp64:16"};
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "FN", tc_str("erfinv"));
    tc_args_set(a, "BLOCK", tc_int(128));
    char *ptx = NULL;
    CHECK_INT(TC_OK, tc_compile_ptx(k, &tg, sig, 2, a, 4, &ptx));
    tc_free(ptx);
    tc_args_free(a);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* scripts/gpu-math-check.c (run on a GPU by scripts/gpu-math-check.sh) builds against the
 * public API. */
TEST(i15_gpu_math_check_builds) {
    char cmd[1024], out[8192];
    snprintf(cmd, sizeof cmd, "${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Werror -Iinclude -fsyntax-only "
             "scripts/gpu-math-check.c");
    CHECK_INT(0, test_run(cmd, out, sizeof out));
}

/* The GPU benchmarks' C programs (bench/gpu/, built on the GPU machine only) build against
 * the library's headers: bench.c calls internal functions, whose signatures move. */
TEST(gpu_bench_programs_build) {
    const char *progs[] = {"bench/gpu/bench.c", "bench/gpu/graph_chain.c", "bench/gpu/launch_streams.c"};
    for (int i = 0; i < 3; i++) {
        char cmd[1024], out[8192];
        snprintf(cmd, sizeof cmd, "${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Werror -Iinclude -Isrc "
                 "-fsyntax-only %s 2>&1", progs[i]);
        int rc = test_run(cmd, out, sizeof out);
        if (rc) fprintf(stderr, "%s:\n%s\n", progs[i], out);
        CHECK_INT(0, rc);
    }
}

/* `cols < N` with N a multiple of 16 is constant over aligned runs of 16 columns
 * (analysis.c's constancy): the lowering compares once per run a thread holds, as Triton's
 * does, not once per column (tutorial 05's layer norm: 48 registers, 5 programs per SM,
 * before; the comparisons' indices held the rest). The where() in its variance loop reuses
 * the loads' mask. */
TEST(kern_cmp_shares_constant_runs) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "layernorm.py");
    /* 4 warps, BLOCK 4096: each thread holds 4 runs of 8 contiguous fp16 columns */
    const char *sig16[] = {"*fp16:16", "*fp16:16", "*fp16:16", "*fp16:16", "*fp32:16", "*fp32:16",
                           "i32:16", "i32:16", "fp32"};
    const char *sig[] = {"*fp16:16", "*fp16:16", "*fp16:16", "*fp16:16", "*fp32:16", "*fp32:16",
                         "i32:16", "i32", "fp32"};
    char *p16 = KERN_PTX(ctx, m, "_layer_norm_fwd_fused", sig16, KT_ARGS({"BLOCK_SIZE", tc_int(4096)}));
    char *p = KERN_PTX(ctx, m, "_layer_norm_fwd_fused", sig, KT_ARGS({"BLOCK_SIZE", tc_int(4096)}));
    /* three loops of 4 runs each */
    CHECK_INT(12, test_count(p16, "setp.lt.s32 "));
    /* N of unknown divisibility: every column compared (vectors of one) */
    CHECK(p && test_count(p, "setp.lt.s32 ") >= 3 * 32);
    free(p16);
    free(p);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- issue 15 item 5, GPU results: fixes of what scripts/gpu-math-check.sh found ------- */

/* 16-bit integers loaded or stored two to a word (BLOCK 256 on 4 warps: 2 contiguous per
 * thread) are unpacked into and packed from their b32 registers through cvt; the vector path
 * used to give the b16 halves straight to 32-bit instructions, which ptxas refused. */
TEST(mathfix_i16_vector_load_store_ptx) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    const char *types[] = {"*i16:16", "*u16:16"};
    for (int i = 0; i < 2; i++) {
        const char *sig[] = {types[i], types[i]};
        char *ptx = kern_ptx_(ctx, m, "cas16", sig, 2, KT_ARGS({"BLOCK", tc_int(256)}), __FILE__, __LINE__);
        CHECK(ptx && strstr(ptx, "ld.global.b32 ") && strstr(ptx, ".cas.b16 "));
        CHECK(ptx && strstr(ptx, i ? "cvt.u32.u16 " : "cvt.s32.s16 "));
        free(ptx);
        const char *sig3[] = {types[i], types[i], "i32:16"};   /* masked, with other */
        ptx = kern_ptx_(ctx, m, "copy16", sig3, 3, KT_ARGS({"BLOCK", tc_int(1024)}), __FILE__, __LINE__);
        CHECK(ptx && strstr(ptx, "ld.global.v4.b32 ") && strstr(ptx, "st.global.v4.b32 "));
        free(ptx);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* fmod (float %) and remainder are exact on the GPU for any quotient, fp32 and fp64: binary
 * long division (a loop of exact subtractions), not a - trunc(a/b)*b through fp64, which was
 * wrong once |a/b| passed 2^53 (1e30 fmod 0.018 on the H200). Results are checked against
 * the interpreter on the GPU by scripts/gpu-math-check.sh; here: it assembles and no
 * division is left. */
TEST(mathfix_fmod_remainder_exact_ptx) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    const char *fns[] = {"fmod", "remainder"};
    for (int dti = 0; dti < 2; dti++)
        for (int i = 0; i < 2; i++) {
            const char *t = dti ? "*fp64:16" : "*fp32:16";
            const char *sig[] = {t, t, t};
            char *ptx = kern_ptx_(ctx, m, "math2", sig, 3, KT_ARGS({"FN", tc_str(fns[i])}, {"BLOCK", tc_int(128)}),
                                  __FILE__, __LINE__);
            CHECK(ptx && !strstr(ptx, "div.") && strstr(ptx, "bra $L"));
            if (!ptx) fprintf(stderr, "  (%s %s)\n", fns[i], t);
            free(ptx);
        }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* llrint/llround of NaN give INT64_MIN, as libdevice's __nv_llrint does on the GPU (PTX ISA:
 * a NaN converted to a 64-bit integer is 1 << 63); infinities saturate. */
TEST(mathfix_llrint_nan) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    double x[4] = {NAN, INFINITY, -INFINITY, -2.5}, got[4];
    for (int dti = 0; dti < 2; dti++) {
        tc_dtype dt = dti ? TC_FP64 : TC_FP32;
        if (run_math(ctx, m, "llrint", dt, x, NULL, 0, TC_I64, 4, got)) {
            double ex[4] = {-0x1p63, 0x1p63, -0x1p63, -2};
            KT_CHECK_ARR(ex, got, 4, 0, 0);
        }
        if (run_math(ctx, m, "llround", dt, x, NULL, 0, TC_I64, 4, got)) {
            double ex[4] = {-0x1p63, 0x1p63, -0x1p63, -3};
            KT_CHECK_ARR(ex, got, 4, 0, 0);
        }
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* The interpreter's fast_* forms follow libdevice's formulas, as the GPU's .approx.ftz
 * instructions do: subnormal inputs and results flush to zero, __logf(x) = lg2(x) * ln 2,
 * __powf(x, y) = ex2(y * lg2 x) (NaN for any negative x, where pow gives a value). */
TEST(mathfix_fast_forms_ftz) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    double x[4] = {0x1p-149, -0x1p-130, 8, -100}, got[4];
    if (run_math(ctx, m, "fast_log2f", TC_FP32, x, NULL, 0, TC_FP32, 3, got)) {
        double ex[3] = {-INFINITY, -INFINITY, 3};
        KT_CHECK_ARR(ex, got, 3, 0, 0);
    }
    if (run_math(ctx, m, "fast_logf", TC_FP32, x, NULL, 0, TC_FP32, 2, got)) {
        double ex[2] = {-INFINITY, -INFINITY};
        KT_CHECK_ARR(ex, got, 2, 0, 0);
    }
    if (run_math(ctx, m, "fast_log10f", TC_FP32, x, NULL, 0, TC_FP32, 2, got)) {
        double ex[2] = {-INFINITY, -INFINITY};
        KT_CHECK_ARR(ex, got, 2, 0, 0);
    }
    if (run_math(ctx, m, "fast_expf", TC_FP32, x, NULL, 0, TC_FP32, 4, got)) {
        double ex[4] = {1, 1, 2980.957987, 0};   /* exp(-100) is subnormal: flushed */
        KT_CHECK_ARR(ex, got, 4, 2e-6, 0);
    }
    if (run_math(ctx, m, "fast_sinf", TC_FP32, x, NULL, 0, TC_FP32, 2, got)) {
        double ex[2] = {0, -0.0};
        KT_CHECK_ARR(ex, got, 2, 0, 0);
        CHECK(!signbit(got[0]) && signbit(got[1]));
    }
    double px[4] = {-INFINITY, -2, 2, 0}, py[4] = {-5.4414157867431641, 2, 10, 0};
    if (run_math(ctx, m, "fast_powf", TC_FP32, px, py, TC_FP32, TC_FP32, 4, got)) {
        CHECK(isnan(got[0]) && isnan(got[1]) && isnan(got[3]));   /* 0 * lg2(0) = 0 * -inf */
        CHECK_NEAR(1024.0, got[2], 0, 0);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}

/* fp32 cbrt and rcbrt (an .approx estimate refined by Newton steps in fp64), exp10, expm1,
 * log10, log1p (series in fp64) on the GPU: PTX that ptxas takes; fp64 still refused naming
 * the function. The interpreter's values (through double, so correctly rounded nearly
 * always) at exact cases. */
TEST(mathfix_cbrt_gpu) {
    tc_context *ctx = kt_ctx();
    tc_module *m = KT_MODULE(ctx, "kern.py");
    const char *fns[] = {"cbrt", "rcbrt", "exp10", "expm1", "log10", "log1p", "asinh", "acosh",
                         "atanh", "sinh", "cosh", "atan", "asin", "acos", "sinpi", "cospi"};
    for (int i = 0; i < COUNT_OF_CASES(fns); i++) {
        const char *sig[] = {"*fp32:16", "*fp32:16"};
        char *ptx = kern_ptx_(ctx, m, "math1", sig, 2, KT_ARGS({"FN", tc_str(fns[i])}, {"BLOCK", tc_int(128)}),
                              __FILE__, __LINE__);
        CHECK(ptx && strstr(ptx, "cvt.rn.f32.f64") && strstr(ptx, "fma.rn.f64"));
        free(ptx);   /* fp64: test_gpumath.c */
    }
    double x[4] = {-27, 0x1p-147, -0.0, INFINITY}, got[4];
    if (run_math(ctx, m, "cbrt", TC_FP32, x, NULL, 0, TC_FP32, 4, got)) {
        double ex[4] = {-3, 0x1p-49, -0.0, INFINITY};
        KT_CHECK_ARR(ex, got, 4, 0, 0);
    }
    if (run_math(ctx, m, "rcbrt", TC_FP32, x, NULL, 0, TC_FP32, 4, got)) {
        double ex[4] = {-1.0 / 3, 0x1p49, -INFINITY, 0};
        KT_CHECK_ARR(ex, got, 4, 0x1p-24, 0);
    }
    double xe[4] = {-3, 0, 38, -INFINITY};
    if (run_math(ctx, m, "exp10", TC_FP32, xe, NULL, 0, TC_FP32, 4, got)) {
        double ex[4] = {0.001, 1, 1e38, 0};
        KT_CHECK_ARR(ex, got, 4, 0x1p-24, 0);
    }
    double xl[4] = {1000, 0x1p-149, -1, 1e-30};
    if (run_math(ctx, m, "log10", TC_FP32, xl, NULL, 0, TC_FP32, 3, got)) {
        double ex[3] = {3, -149 * 0.30102999566398120, NAN};
        KT_CHECK_ARR(ex, got, 2, 0x1p-24, 0);
        CHECK(isnan(got[2]));
    }
    if (run_math(ctx, m, "log1p", TC_FP32, xl + 2, NULL, 0, TC_FP32, 2, got)) {
        double ex[2] = {-INFINITY, 1e-30};   /* log1p(x) = x - x^2/2 ...: x itself in fp32 */
        KT_CHECK_ARR(ex, got, 2, 0x1p-24, 0);
    }
    if (run_math(ctx, m, "expm1", TC_FP32, xl + 3, NULL, 0, TC_FP32, 1, got)) CHECK_NEAR(1e-30, got[0], 0x1p-24, 0);
    double xh[4] = {-0.75, 1, 0.6, 2};   /* atanh(-3/4) = -ln(7)/2, acosh(1) = 0, asinh(3/4) = ln 2 */
    if (run_math(ctx, m, "atanh", TC_FP32, xh, NULL, 0, TC_FP32, 2, got)) {
        double ex[2] = {-0.97295507452765665, INFINITY};
        KT_CHECK_ARR(ex, got, 2, 0x1p-24, 0);
    }
    double xa[2] = {0.75, 1};
    if (run_math(ctx, m, "asinh", TC_FP32, xa, NULL, 0, TC_FP32, 1, got)) CHECK_NEAR(0.69314718055994531, got[0], 0x1p-24, 0);
    if (run_math(ctx, m, "acosh", TC_FP32, xa, NULL, 0, TC_FP32, 2, got)) CHECK(isnan(got[0]) && got[1] == 0);
    {   /* atan2 and pow (two arguments) */
        const char *sig[] = {"*fp32:16", "*fp32:16", "*fp32:16"};
        for (int i = 0; i < 2; i++) {
            char *ptx = kern_ptx_(ctx, m, "math2", sig, 3, KT_ARGS({"FN", tc_str(i ? "pow" : "atan2")},
                                  {"BLOCK", tc_int(128)}), __FILE__, __LINE__);
            CHECK(ptx && strstr(ptx, "cvt.rn.f32.f64"));
            free(ptx);
        }
        double px[4] = {-2, -8, -0.0, -1}, py[4] = {3, 1.0 / 3, -3, -INFINITY};   /* C's pow */
        if (run_math(ctx, m, "pow", TC_FP32, px, py, TC_FP32, TC_FP32, 4, got)) {
            CHECK(got[0] == -8 && isnan(got[1]) && got[2] == -INFINITY && got[3] == 1);
        }
        double ya[4] = {-0.0, 1, INFINITY, 0}, xa2[4] = {-1, -1, -INFINITY, 0};
        if (run_math(ctx, m, "atan2", TC_FP32, ya, xa2, TC_FP32, TC_FP32, 4, got)) {
            double ex[4] = {-3.1415926535897932, 2.3561944901923449, 2.3561944901923449, 0};
            KT_CHECK_ARR(ex, got, 4, 0x1p-24, 0);
            CHECK(signbit(got[0]) && !signbit(got[3]));
        }
    }
    double xt[4] = {1, -INFINITY, 0.5, -1};   /* atan(1) = pi/4, asin(1/2) = pi/6, acos(-1) = pi */
    if (run_math(ctx, m, "atan", TC_FP32, xt, NULL, 0, TC_FP32, 2, got)) {
        double ex[2] = {0.78539816339744831, -1.5707963267948966};
        KT_CHECK_ARR(ex, got, 2, 0x1p-24, 0);
    }
    if (run_math(ctx, m, "asin", TC_FP32, xt + 2, NULL, 0, TC_FP32, 1, got)) CHECK_NEAR(0.52359877559829887, got[0], 0x1p-24, 0);
    if (run_math(ctx, m, "acos", TC_FP32, xt + 3, NULL, 0, TC_FP32, 1, got)) CHECK_NEAR(3.1415926535897932, got[0], 0x1p-24, 0);
    double xs[2] = {0.69314718055994531, -0.69314718055994531};   /* sinh(ln 2) = 3/4, cosh = 5/4 */
    if (run_math(ctx, m, "sinh", TC_FP32, xs, NULL, 0, TC_FP32, 2, got)) {
        double ex[2] = {0.75, -0.75};
        KT_CHECK_ARR(ex, got, 2, 0x1p-23, 0);
    }
    if (run_math(ctx, m, "cosh", TC_FP32, xs, NULL, 0, TC_FP32, 2, got)) {
        double ex[2] = {1.25, 1.25};
        KT_CHECK_ARR(ex, got, 2, 0x1p-23, 0);
    }
    tc_module_free(m);
    tc_context_free(ctx);
}
