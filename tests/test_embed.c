/* test_embed.c — tritonc inside a C program (issue 16): the caller's memory (tc_tensor_wrap,
 * tc_tensor_view), one context shared by threads (per-thread errors and reports, one compile
 * per specialization), graphs (recorded launches under the interpreter, CUDA graphs on the
 * fake driver), the caller's CUDA context and several devices.
 *
 * The fake-driver tests run in a fresh process each (the driver is loaded once per process):
 * embed_fake_* re-run this binary with TC_EMBED_CHILD=<mode> and only the embchild_* tests,
 * which do nothing otherwise. Expected values are computed here by hand (x + y, counts). */
#include "test.h"
#include "tritonc.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static const char KSRC[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)\n"
    "@triton.jit\n"
    "def inc(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1.0, mask=m)\n"
    "@triton.jit\n"
    "def over(x_ptr, n):\n"
    "    tl.store(x_ptr + n, 1.0)\n";

typedef struct Env { tc_context *ctx; tc_module *m; tc_kernel *add, *inc, *over; } Env;

static int env_open(Env *e, tc_backend b) {
    memset(e, 0, sizeof *e);
    if (tc_context_new(&e->ctx)) return 0;
    if (b != TC_BACKEND_AUTO) tc_context_set_backend(e->ctx, b);
    if (tc_module_load_string(e->ctx, "embed.py", KSRC, &e->m) ||
        tc_module_kernel(e->m, "add", &e->add) || tc_module_kernel(e->m, "inc", &e->inc) ||
        tc_module_kernel(e->m, "over", &e->over)) {
        fprintf(stderr, "env_open: %s\n", tc_errmsg(e->ctx));
        return 0;
    }
    return 1;
}

static void env_close(Env *e) {
    tc_module_free(e->m);
    tc_context_free(e->ctx);
}

static tc_status launch_add(Env *e, tc_tensor *x, tc_tensor *y, tc_tensor *o, int64_t n, int block,
                            void *stream) {
    tc_args *a = NULL;
    tc_status rc = tc_args_new(e->add, &a);
    if (rc) return rc;
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "y_ptr", tc_tens(y));
    tc_args_set(a, "out_ptr", tc_tens(o));
    tc_args_set(a, "n", tc_int(n));
    tc_args_set(a, "BLOCK", tc_int(block));
    tc_launch_opts opts = tc_launch_defaults();
    opts.grid[0] = (uint32_t)((n + block - 1) / block);
    opts.stream = stream;
    rc = tc_launch(e->add, a, &opts);
    tc_args_free(a);
    return rc;
}

static tc_status launch_inc(Env *e, tc_tensor *x, int64_t n, void *stream) {
    tc_args *a = NULL;
    tc_status rc = tc_args_new(e->inc, &a);
    if (rc) return rc;
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "n", tc_int(n));
    tc_args_set(a, "BLOCK", tc_int(16));
    tc_launch_opts opts = tc_launch_defaults();
    opts.grid[0] = (uint32_t)((n + 15) / 16);
    opts.stream = stream;
    rc = tc_launch(e->inc, a, &opts);
    tc_args_free(a);
    return rc;
}

static tc_status launch_over(Env *e, tc_tensor *x, int64_t n) {
    tc_args *a = NULL;
    tc_status rc = tc_args_new(e->over, &a);
    if (rc) return rc;
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "n", tc_int(n));
    rc = tc_launch(e->over, a, NULL);
    tc_args_free(a);
    return rc;
}

/* ---- the caller's memory (interpreter) ------------------------------------------------- */

TEST(embed_wrap_interp) {
    Env e;
    if (!env_open(&e, TC_BACKEND_INTERPRET)) { CHECK(0); return; }
    enum { N = 40 };
    float *xs = malloc(N * sizeof *xs), *ys = malloc(N * sizeof *ys), *os = malloc(N * sizeof *os);
    for (int i = 0; i < N; i++) { xs[i] = (float)i; ys[i] = 100.0f * i; os[i] = -1; }
    int64_t n = N;
    tc_tensor *x, *y, *o;
    CHECK_INT(TC_OK, tc_tensor_wrap(e.ctx, TC_FP32, 1, &n, xs, &x));
    CHECK_INT(TC_OK, tc_tensor_wrap(e.ctx, TC_FP32, 1, &n, ys, &y));
    CHECK_INT(TC_OK, tc_tensor_wrap(e.ctx, TC_FP32, 1, &n, os, &o));
    CHECK(tc_tensor_host_data(o) == os);   /* no copy: the caller's memory itself */
    CHECK_INT((int64_t)(uintptr_t)xs, (int64_t)tc_tensor_address(x));
    CHECK_INT(TC_OK, launch_add(&e, x, y, o, N, 16, NULL));
    for (int i = 0; i < N; i++) CHECK_NEAR(101.0 * i, os[i], 0, 0);
    /* the checks guard exactly the caller's N floats: a store at index N is out of bounds */
    CHECK_INT(TC_ERR_RUNTIME, launch_over(&e, o, N));
    CHECK_CONTAINS(tc_errmsg(e.ctx), "x_ptr");
    CHECK_INT(TC_OK, launch_over(&e, o, N - 1));
    CHECK_NEAR(1.0, os[N - 1], 0, 0);
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o);
    os[0] = 7;   /* still the caller's (ASan would catch a free) */
    CHECK_NEAR(7.0, os[0], 0, 0);
    /* bad input */
    tc_tensor *t = NULL;
    CHECK_INT(TC_ERR_ARG, tc_tensor_wrap(e.ctx, TC_FP32, 1, &n, NULL, &t));
    CHECK_INT(TC_ERR_ARG, tc_tensor_wrap(e.ctx, TC_FP32, 1, &n, (char *)xs + 2, &t));
    CHECK_CONTAINS(tc_errmsg(e.ctx), "aligned");
    int64_t zero = 0;
    CHECK_INT(TC_OK, tc_tensor_wrap(e.ctx, TC_FP32, 1, &zero, NULL, &t));
    tc_tensor_free(t);
    free(xs); free(ys); free(os);
    env_close(&e);
}

TEST(embed_view_interp) {
    Env e;
    if (!env_open(&e, TC_BACKEND_INTERPRET)) { CHECK(0); return; }
    enum { N = 24 };
    int64_t total = 3 * N + 5, n = N;
    tc_tensor *pool;
    CHECK_INT(TC_OK, tc_tensor_new(e.ctx, TC_FP32, 1, &total, &pool));
    float *p = tc_tensor_host_data(pool);
    for (int64_t i = 0; i < total; i++) p[i] = (float)i;
    tc_tensor *x, *y, *o, *bad = NULL;
    CHECK_INT(TC_OK, tc_tensor_view(pool, 1, 1, &n, &x));        /* elements 1..24 */
    CHECK_INT(TC_OK, tc_tensor_view(pool, 1 + N, 1, &n, &y));    /* 25..48 */
    CHECK_INT(TC_OK, tc_tensor_view(pool, 2 + 2 * N, 1, &n, &o)); /* 50..73 */
    CHECK(tc_tensor_host_data(y) == p + 1 + N);
    CHECK_INT(TC_ERR_ARG, tc_tensor_view(pool, total - N + 1, 1, &n, &bad));
    CHECK_CONTAINS(tc_errmsg(e.ctx), "outside");
    CHECK_INT(TC_ERR_ARG, tc_tensor_view(pool, -1, 1, &n, &bad));
    int64_t two[2] = {4, 6};
    tc_tensor *v2;
    CHECK_INT(TC_OK, tc_tensor_view(o, 0, 2, two, &v2));  /* a view of a view: same memory */
    CHECK(tc_tensor_host_data(v2) == p + 2 + 2 * N);
    CHECK_INT(2, tc_tensor_rank(v2));
    tc_tensor_free(v2);
    /* the base's handle goes first: the views keep its memory alive */
    tc_tensor_free(pool);
    CHECK_INT(TC_OK, launch_add(&e, x, y, o, N, 8, NULL));
    float r[N];
    CHECK_INT(TC_OK, tc_tensor_to_host(o, r, sizeof r));
    for (int i = 0; i < N; i++) CHECK_NEAR((1.0 + i) + (1.0 + N + i), r[i], 0, 0);
    /* the checks guard the view's own extent, though the pool continues past it */
    CHECK_INT(TC_ERR_RUNTIME, launch_over(&e, x, N));
    CHECK_INT(TC_OK, launch_over(&e, x, N - 1));
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o);
    env_close(&e);
}

/* ---- graphs under the interpreter: recorded, then replayed ------------------------------- */

TEST(embed_graph_interp) {
    Env e;
    if (!env_open(&e, TC_BACKEND_INTERPRET)) { CHECK(0); return; }
    int64_t n = 20;
    tc_tensor *x;
    CHECK_INT(TC_OK, tc_tensor_new(e.ctx, TC_FP32, 1, &n, &x));
    tc_graph *g = NULL;
    CHECK_INT(TC_OK, tc_graph_begin(e.ctx, NULL));
    CHECK_INT(TC_ERR_ARG, tc_graph_begin(e.ctx, NULL));   /* already capturing */
    for (int i = 0; i < 3; i++) CHECK_INT(TC_OK, launch_inc(&e, x, n, NULL));
    float *p = tc_tensor_host_data(x);
    CHECK_NEAR(0.0, p[0], 0, 0);   /* recorded, not run */
    CHECK_INT(TC_OK, tc_graph_end(e.ctx, NULL, &g));
    CHECK_INT(3, tc_graph_kernel_count(g));
    CHECK_INT(TC_OK, tc_graph_launch(g, NULL));
    CHECK_INT(TC_OK, tc_graph_launch(g, NULL));
    for (int i = 0; i < n; i++) CHECK_NEAR(6.0, p[i], 0, 0);
    tc_graph_free(g);
    CHECK_INT(TC_ERR_ARG, tc_graph_end(e.ctx, NULL, &g));   /* not capturing */
    /* a capture left open is freed with the context */
    CHECK_INT(TC_OK, tc_graph_begin(e.ctx, NULL));
    CHECK_INT(TC_OK, launch_inc(&e, x, n, NULL));
    tc_tensor_free(x);
    env_close(&e);
}

/* ---- one context, several threads ------------------------------------------------------ */

enum { NT = 4, TN = 64 };
typedef struct ThreadJob {
    Env *e;
    int id;
    int ok;
    int values;   /* check the results (not on the fake driver, which runs nothing) */
    pthread_barrier_t *bar;
} ThreadJob;

/* Each thread: its own error, then launches of one specialization shared by all, and one of
 * its own (BLOCK 8 << id); its last error and last launch must be its own. */
static void *shared_ctx_thread(void *p) {
    ThreadJob *j = p;
    Env *e = j->e;
    int good = 1;
    int64_t n = TN, bad = -(int64_t)j->id - 1;
    tc_tensor *t = NULL;
    good &= tc_tensor_new(e->ctx, TC_FP32, 1, &bad, &t) == TC_ERR_ARG;
    pthread_barrier_wait(j->bar);   /* every thread has failed differently */
    char want[64];
    snprintf(want, sizeof want, "negative dimension %d", -j->id - 1);
    good &= strstr(tc_errmsg(e->ctx), want) != NULL;
    good &= tc_errcode(e->ctx) == TC_ERR_ARG;
    float xs[TN], ys[TN], r[TN];
    for (int i = 0; i < TN; i++) { xs[i] = (float)(i + j->id); ys[i] = 1000.0f * j->id; }
    tc_tensor *x = NULL, *y = NULL, *o = NULL;
    good &= !tc_tensor_from_host(e->ctx, TC_FP32, 1, &n, xs, &x);
    good &= !tc_tensor_from_host(e->ctx, TC_FP32, 1, &n, ys, &y);
    good &= !tc_tensor_new(e->ctx, TC_FP32, 1, &n, &o);
    for (int rep = 0; good && rep < 5; rep++) good &= launch_add(e, x, y, o, TN, 16, NULL) == TC_OK;
    good &= launch_add(e, x, y, o, TN, 8 << j->id, NULL) == TC_OK;
    pthread_barrier_wait(j->bar);   /* every thread has launched its own last */
    tc_launch_report rep;
    tc_last_launch(e->ctx, &rep, sizeof rep);
    char spec[64];
    snprintf(spec, sizeof spec, "BLOCK=%d", 8 << j->id);
    good &= strstr(rep.specialization, spec) != NULL;
    good &= tc_tensor_to_host(o, r, sizeof r) == TC_OK;
    for (int i = 0; good && j->values && i < TN; i++) good &= r[i] == (float)(i + j->id) + 1000.0f * j->id;
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o);
    j->ok = good;
    return NULL;
}

static void run_shared_ctx(Env *e, int values) {
    pthread_t th[NT];
    ThreadJob jobs[NT];
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, NT);
    for (int i = 0; i < NT; i++) {
        jobs[i] = (ThreadJob){e, i, 0, values, &bar};
        CHECK_INT(0, pthread_create(&th[i], NULL, shared_ctx_thread, &jobs[i]));
    }
    for (int i = 0; i < NT; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < NT; i++) CHECK(jobs[i].ok);
    pthread_barrier_destroy(&bar);
    tc_stats s;
    tc_kernel_stats(e->add, &s, sizeof s);
    /* BLOCK=16 once for all threads, plus BLOCK=8, 16 (again), 32, 64: 4 in all */
    CHECK_INT(4, s.specializations);
    CHECK_INT(NT * 6, s.launches);
}

TEST(embed_threads_shared_context) {
    Env e;
    if (!env_open(&e, TC_BACKEND_INTERPRET)) { CHECK(0); return; }
    run_shared_ctx(&e, 1);
    env_close(&e);
}

/* ---- the fake driver, one process per mode ---------------------------------------------- */

static void run_embed_child(const char *mode, const char *env) {
    char fake[1024], exe[1024], cmd[4096];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake, R_OK) != 0) { fprintf(stderr, "SKIP %s: no %s\n", test_current, fake); return; }
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return;
    exe[len] = 0;
    snprintf(cmd, sizeof cmd,
             "env -u TRITON_INTERPRET -u TRITON_OVERRIDE_ARCH -u CUDA_VISIBLE_DEVICES -u FAKE_CUDA_MODE -u TRITONC_SHADOW "
             "-u TEST_VERBOSE TC_EMBED_CHILD=%s TRITONC_LIBCUDA_PATH=%s TRITONC_OCCUPANCY=0 "
             "TRITONC_CACHE_DIR=/nonexistent-tritonc-embed-test FAKE_CUDA_LAUNCH=ok %s '%s' embchild_%s",
             mode, fake, env, exe, mode);
    static char out[1 << 16];
    int rc = test_run(cmd, out, sizeof out);
    int passed = 0, failed = 1;
    const char *p = NULL;
    for (const char *q = strstr(out, " passed, "); q; q = strstr(q + 1, " passed, ")) p = q;
    if (p) {
        while (p > out && p[-1] >= '0' && p[-1] <= '9') p--;
        if (sscanf(p, "%d passed, %d failed", &passed, &failed) != 2) failed = 1;
    }
    if (rc != 0 || failed || passed < 3) {
        test_fail(__FILE__, __LINE__, "child %s exited %d:\n%s", mode, rc, out);
        return;
    }
    test_passed += passed;
}

static int in_child(const char *mode) {
    const char *m = getenv("TC_EMBED_CHILD");
    return m && strcmp(m, mode) == 0;
}

static void fake_counters(long c[8]) { test_fake_counters(c, 8); }

TEST(embed_fake_graph) { run_embed_child("graph", ""); }
TEST(embchild_graph) {
    if (!in_child("graph")) return;
    Env e;
    if (!env_open(&e, TC_BACKEND_CUDA)) { CHECK(0); return; }
    int64_t n = 256;
    tc_tensor *x;
    CHECK_INT(TC_OK, tc_tensor_new(e.ctx, TC_FP32, 1, &n, &x));
    void *s = NULL;
    CHECK_INT(TC_OK, tc_stream_new(e.ctx, &s));
    CHECK(s != NULL);
    CHECK_INT(TC_ERR_ARG, tc_graph_begin(e.ctx, NULL));
    CHECK_CONTAINS(tc_errmsg(e.ctx), "cannot be captured");
    /* a specialization not compiled yet is refused inside a capture */
    CHECK_INT(TC_OK, tc_graph_begin(e.ctx, s));
    CHECK_INT(TC_ERR_ARG, launch_inc(&e, x, n, s));
    CHECK_CONTAINS(tc_errmsg(e.ctx), "launch it once before capturing");
    tc_graph *g = NULL;
    CHECK_INT(TC_OK, tc_graph_end(e.ctx, s, &g));
    CHECK_INT(0, tc_graph_kernel_count(g));
    tc_graph_free(g);
    long c0[8], c1[8];
    CHECK_INT(TC_OK, launch_inc(&e, x, n, s));   /* compiles */
    fake_counters(c0);
    CHECK_INT(TC_OK, tc_graph_begin(e.ctx, s));
    for (int i = 0; i < 100; i++) CHECK_INT(TC_OK, launch_inc(&e, x, n, s));
    CHECK_INT(TC_OK, tc_graph_end(e.ctx, s, &g));
    CHECK_INT(100, tc_graph_kernel_count(g));
    CHECK_INT(TC_OK, tc_graph_launch(g, s));
    CHECK_INT(TC_OK, tc_graph_launch(g, s));
    CHECK_INT(TC_OK, tc_stream_synchronize(e.ctx, s));
    fake_counters(c1);
    CHECK_INT(0, c1[0] - c0[0]);     /* nothing loaded while capturing */
    CHECK_INT(100, c1[4] - c0[4]);   /* captured */
    CHECK_INT(0, c1[1] - c0[1]);     /* none ran outside the graph */
    CHECK_INT(2, c1[2] - c0[2]);
    CHECK_INT(200, c1[3] - c0[3]);
    tc_graph_free(g);
    tc_stream_free(e.ctx, s);
    tc_tensor_free(x);
    env_close(&e);
}

/* Two devices of one architecture: compiled once, loaded on each; and a caller's context. */
TEST(embed_fake_devices) { run_embed_child("devices", "FAKE_CUDA_MODE=twoh200"); }
TEST(embchild_devices) {
    if (!in_child("devices")) return;
    Env e;
    if (!env_open(&e, TC_BACKEND_CUDA)) { CHECK(0); return; }
    int64_t n = 64;
    long c0[8], c1[8];
    fake_counters(c0);
    tc_tensor *x0, *x1;
    CHECK_INT(TC_OK, tc_tensor_new(e.ctx, TC_FP32, 1, &n, &x0));
    CHECK_INT(TC_OK, launch_inc(&e, x0, n, NULL));
    CHECK_INT(TC_OK, tc_set_device(e.ctx, 1));
    CHECK_INT(TC_OK, tc_tensor_new(e.ctx, TC_FP32, 1, &n, &x1));
    CHECK_INT(TC_OK, launch_inc(&e, x1, n, NULL));
    CHECK_INT(TC_OK, launch_inc(&e, x1, n, NULL));
    CHECK_INT(TC_ERR_ARG, launch_inc(&e, x0, n, NULL));   /* device 0's memory */
    CHECK_CONTAINS(tc_errmsg(e.ctx), "device 0");
    fake_counters(c1);
    tc_stats s;
    tc_kernel_stats(e.inc, &s, sizeof s);
    CHECK_INT(1, s.specializations);   /* one architecture: compiled once */
    CHECK_INT(2, c1[0] - c0[0]);       /* loaded on each device */
    CHECK_INT(3, c1[1] - c0[1]);
    /* a caller's own CUDA context on device 0: the kernel is loaded there too */
    static int callers_context;
    CHECK_INT(TC_OK, tc_context_set_cuda_context(e.ctx, 0, &callers_context));
    float buf[64] = {0};
    tc_tensor *w;
    CHECK_INT(TC_OK, tc_tensor_wrap(e.ctx, TC_FP32, 1, &n, buf, &w));   /* "device" memory */
    CHECK_INT((int64_t)(uintptr_t)buf, (int64_t)tc_tensor_address(w));
    CHECK_INT(TC_OK, launch_inc(&e, w, n, NULL));
    fake_counters(c0);
    CHECK_INT(1, c0[0] - c1[0]);       /* loaded once more, in the caller's context */
    CHECK_INT(TC_ERR_NOT_FOUND, tc_context_set_cuda_context(e.ctx, 2, &callers_context));
    tc_tensor_free(w);
    tc_tensor_free(x1);
    tc_tensor_free(x0);
    env_close(&e);
}

/* One context on the (fake) GPU from several threads. */
TEST(embed_fake_threads) { run_embed_child("threads", ""); }
TEST(embchild_threads) {
    if (!in_child("threads")) return;
    Env e;
    if (!env_open(&e, TC_BACKEND_CUDA)) { CHECK(0); return; }
    run_shared_ctx(&e, 0);
    env_close(&e);
}

/* `tritonc run --device N` on the fake driver's two devices (an H200 and an A100). */
TEST(embed_cli_device) {
    char fake[1024], cli[1024], cmd[4096], out[8192];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    snprintf(cli, sizeof cli, "%s/tritonc", test_build_dir());
    if (access(fake, R_OK) || access(cli, X_OK)) { fprintf(stderr, "SKIP %s\n", test_current); return; }
    const char *run = "run examples/chapter10.py add_kernel x_ptr='fp32[1,2]' y_ptr='fp32[3,4]' "
                      "out_ptr='fp32:zeros(2)' n=2 BLOCK=2";
    const char *env = "env -u TRITON_INTERPRET -u TRITON_OVERRIDE_ARCH -u CUDA_VISIBLE_DEVICES -u TRITONC_SHADOW "
                      "FAKE_CUDA_MODE=two FAKE_CUDA_LAUNCH=ok TRITONC_OCCUPANCY=0 "
                      "TRITONC_CACHE_DIR=/nonexistent-tritonc-embed-test";
    snprintf(cmd, sizeof cmd, "%s TRITONC_LIBCUDA_PATH=%s %s %s --device 1 --verbose", env, fake, cli, run);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "GPU (cuda)");
    snprintf(cmd, sizeof cmd, "%s TRITONC_LIBCUDA_PATH=%s %s %s --device 2", env, fake, cli, run);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "invalid device 2: there are 2 CUDA devices");
    snprintf(cmd, sizeof cmd, "%s TRITONC_LIBCUDA_PATH=%s %s %s --device one", env, fake, cli, run);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "--device takes a device number");
    /* the interpreter has no devices: accepted, changes nothing */
    snprintf(cmd, sizeof cmd, "%s %s %s --device 3 --interpret --print out_ptr", env, cli, run);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "out_ptr = [4.0, 6.0]");
    snprintf(cmd, sizeof cmd, "%s TRITONC_LIBCUDA_PATH=%s %s bench examples/chapter10.py add_kernel "
             "--device 5 x_ptr='fp32[1]' y_ptr='fp32[1]' out_ptr='fp32:zeros(1)' n=1 BLOCK=2", env, fake, cli);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "invalid device 5");
}

/* The second example: a GPT-2-style block on the interpreter against its plain C reference,
 * as a launch sequence and as a replayed graph, in fp32 and fp16 (a T that is no multiple of
 * the blocks). */
TEST(embed_transformer_example) {
    char exe[1024], cmd[2048], out[8192];
    snprintf(exe, sizeof exe, "%s/examples/transformer", test_build_dir());
    if (access(exe, X_OK)) { fprintf(stderr, "SKIP %s: no %s\n", test_current, exe); return; }
    snprintf(cmd, sizeof cmd, "%s --interpret --check", exe);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "check, launch sequence: max |error|");
    CHECK_CONTAINS(out, "check, replayed graph of 7 kernels: max |error|");
    CHECK(strstr(out, "FAILED") == NULL);
    snprintf(cmd, sizeof cmd, "%s --interpret --check --fp16 -B 2 -T 21 -C 64 -H 4", exe);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "fp16 on the interpreter");
    CHECK(strstr(out, "FAILED") == NULL);
}

/* ---- on a real GPU (scripts/gpu-embed.sh sets TC_EMBED_GPU=1; nothing happens otherwise) -- */

TEST(embed_gpu) {
    const char *on = getenv("TC_EMBED_GPU");
    if (!on || strcmp(on, "1")) return;
    Env e;
    if (!env_open(&e, TC_BACKEND_CUDA)) { CHECK(0); return; }
    /* one context, several threads, results checked */
    run_shared_ctx(&e, 1);
    /* the caller's device memory (here another tensor's) wrapped, and views into a pool */
    enum { N = 300 };
    int64_t n = N, total = 3 * N + 7;
    tc_tensor *pool, *x, *y, *o, *w;
    float v[3 * N + 7], r[N];
    for (int i = 0; i < 3 * N + 7; i++) v[i] = (float)i;
    CHECK_INT(TC_OK, tc_tensor_from_host(e.ctx, TC_FP32, 1, &total, v, &pool));
    CHECK_INT(TC_OK, tc_tensor_wrap(e.ctx, TC_FP32, 1, &total,
                                    (void *)(uintptr_t)tc_tensor_address(pool), &w));
    CHECK_INT(TC_OK, tc_tensor_view(w, 3, 1, &n, &x));
    CHECK_INT(TC_OK, tc_tensor_view(w, 3 + N, 1, &n, &y));
    CHECK_INT(TC_OK, tc_tensor_view(pool, 5 + 2 * N, 1, &n, &o));
    CHECK_INT(TC_OK, launch_add(&e, x, y, o, N, 64, NULL));
    CHECK_INT(TC_OK, tc_tensor_to_host(o, r, sizeof r));
    for (int i = 0; i < N; i++) CHECK_NEAR((3.0 + i) + (3.0 + N + i), r[i], 0, 0);
    /* a graph of 50 increments, replayed 3 times */
    void *s = NULL;
    tc_graph *g = NULL;
    CHECK_INT(TC_OK, tc_stream_new(e.ctx, &s));
    CHECK_INT(TC_OK, launch_inc(&e, x, N, s));
    CHECK_INT(TC_OK, tc_graph_begin(e.ctx, s));
    for (int i = 0; i < 50; i++) CHECK_INT(TC_OK, launch_inc(&e, x, N, s));
    CHECK_INT(TC_OK, tc_graph_end(e.ctx, s, &g));
    for (int i = 0; i < 3; i++) CHECK_INT(TC_OK, tc_graph_launch(g, s));
    CHECK_INT(TC_OK, tc_stream_synchronize(e.ctx, s));
    CHECK_INT(TC_OK, tc_tensor_to_host(x, r, sizeof r));
    for (int i = 0; i < N; i++) CHECK_NEAR(3.0 + i + 151.0, r[i], 0, 0);
    tc_graph_free(g);
    tc_stream_free(e.ctx, s);
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o); tc_tensor_free(w);
    tc_tensor_free(pool);
    /* the last device of the host too, when there are several */
    int nd = 0;
    tc_device_count(e.ctx, &nd);
    if (nd > 1) {
        float z[N];
        CHECK_INT(TC_OK, tc_set_device(e.ctx, nd - 1));
        CHECK_INT(TC_OK, tc_tensor_from_host(e.ctx, TC_FP32, 1, &n, v, &x));
        CHECK_INT(TC_OK, launch_inc(&e, x, N, NULL));
        CHECK_INT(TC_OK, tc_tensor_to_host(x, z, sizeof z));
        for (int i = 0; i < N; i++) CHECK_NEAR(i + 1.0, z[i], 0, 0);
        tc_tensor_free(x);
    }
    env_close(&e);
}
