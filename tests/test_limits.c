/* test_limits.c — absurd inputs through the public API and the command:
 * a block of 2^40 elements, a grid of 2^31 programs, recursion between @jit functions, a
 * 100 MB source file, expressions and blocks nested 100000 deep, exponential inlining and
 * unrolling, a 10^6-element tensor on the command line. Each must come back in bounded time
 * and memory, refused with a status and a message that says what limit was hit (or, where
 * noted, accepted).
 *
 * Every case runs in a child process watched by the parent: it is killed and reported if it
 * runs past LIM_SECONDS or its resident memory passes LIM_RSS_MB, so that a missing limit
 * fails the test instead of hanging the suite or exhausting the machine.
 *
 * Documented limits these tests hold the library to:
 *   source file          4 MiB (TC_ERR_LIMIT beyond; tc_module_load_string and _file)
 *   bracket nesting      200, indentation 100 levels (as CPython), parser nesting 200
 *   tensor numel         2^20 elements per block (Triton's TRITON_MAX_TENSOR_NUMEL)
 *   @jit call depth      64 (recursion is refused)
 *   grid                 CUDA's (2^31-1, 65535, 65535); the interpreter runs at most 2^26
 *                        programs per launch
 *   tracing              2000000 statements and expressions evaluated per kernel (inlined
 *                        calls and tl.static_range unrolling included) */
#include "test.h"
#include "tritonc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LIM_SECONDS 30.0
#define LIM_RSS_MB 1536

typedef struct LimOut {
    int status;           /* tc_status, or exit status for commands */
    char msg[4096];
} LimOut;

typedef struct LimRes {
    LimOut out;
    int timed_out;        /* killed after LIM_SECONDS */
    int too_big;          /* killed at LIM_RSS_MB */
    int signaled;         /* died of a signal on its own */
    int exited;           /* exit status of the child when not signaled */
    double secs;
    long peak_rss_mb;
} LimRes;

static double lim_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long rss_mb(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    FILE *fp = fopen(path, "r");
    if (!fp) return 0;
    long size = 0, res = 0;
    if (fscanf(fp, "%ld %ld", &size, &res) != 2) res = 0;
    fclose(fp);
    return res * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

/* Watches pid: kills it past the time or memory limit. Drains fd (non-blocking, may be
 * -1) into r->out.msg meanwhile. */
static void watch(pid_t pid, LimRes *r, int fd) {
    double t0 = lim_now();
    int st = 0;
    size_t len = 0;
    for (;;) {
        if (fd >= 0) {
            char chunk[4096];
            ssize_t got;
            while ((got = read(fd, chunk, sizeof chunk)) > 0) {
                size_t take = (size_t)got;
                if (len + take > sizeof r->out.msg - 1) take = sizeof r->out.msg - 1 - len;
                memcpy(r->out.msg + len, chunk, take);
                len += take;
                r->out.msg[len] = 0;
            }
        }
        struct rusage ru;
        pid_t w = wait4(pid, &st, WNOHANG, &ru);
        if (w == pid) {
            long m = ru.ru_maxrss / 1024;
            if (m > r->peak_rss_mb) r->peak_rss_mb = m;
            break;
        }
        long m = rss_mb(pid);
        if (m > r->peak_rss_mb) r->peak_rss_mb = m;
        double el = lim_now() - t0;
        if (m > LIM_RSS_MB || el > LIM_SECONDS) {
            if (m > LIM_RSS_MB) r->too_big = 1;
            else r->timed_out = 1;
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            break;
        }
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    r->secs = lim_now() - t0;
    if (!r->timed_out && !r->too_big) {
        if (WIFSIGNALED(st)) r->signaled = WTERMSIG(st);
        else r->exited = WEXITSTATUS(st);
    }
}

/* Runs body(arg, out) in a child. */
static LimRes bounded(void (*body)(const void *arg, LimOut *out), const void *arg) {
    LimRes r;
    memset(&r, 0, sizeof r);
    r.out.status = -1;
    int pfd[2];
    if (pipe(pfd) != 0) { r.signaled = -1; return r; }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        LimOut o;
        memset(&o, 0, sizeof o);
        body(arg, &o);
        size_t off = 0;
        while (off < sizeof o) {
            ssize_t w = write(pfd[1], (char *)&o + off, sizeof o - off);
            if (w <= 0) break;
            off += (size_t)w;
        }
        _exit(0);
    }
    close(pfd[1]);
    /* The child writes sizeof(LimOut) (under the pipe's buffer) and then exits. */
    watch(pid, &r, -1);
    size_t off = 0;
    while (off < sizeof r.out) {
        ssize_t got = read(pfd[0], (char *)&r.out + off, sizeof r.out - off);
        if (got <= 0) break;
        off += (size_t)got;
    }
    if (off != sizeof r.out) r.out.status = -1;
    close(pfd[0]);
    return r;
}

/* The verdict every case shares: finished on its own, within the limits. */
#define CHECK_BOUNDED(r, what) \
    do { \
        if ((r).timed_out) test_fail(__FILE__, __LINE__, "%s: still running after %.0f s", what, LIM_SECONDS); \
        else if ((r).too_big) test_fail(__FILE__, __LINE__, "%s: resident memory passed %d MB", what, LIM_RSS_MB); \
        else if ((r).signaled) test_fail(__FILE__, __LINE__, "%s: died of signal %d", what, (r).signaled); \
        else if ((r).out.status < 0) test_fail(__FILE__, __LINE__, "%s: child exited %d without a result", what, (r).exited); \
        else test_passed++; \
    } while (0)

/* Refused with one of the given statuses and a message. */
static void check_refused(const LimRes *r, const char *what, int line, tc_status a, tc_status b,
                          const char *needle) {
    if (r->timed_out || r->too_big || r->signaled || r->out.status < 0) return;  /* reported */
    if (r->out.status == TC_OK) {
        test_fail(__FILE__, line, "%s: accepted (TC_OK); expected %s", what, tc_status_name(a));
        return;
    }
    if (r->out.status != (int)a && r->out.status != (int)b)
        test_fail(__FILE__, line, "%s: %s; expected %s or %s: %s", what,
                  tc_status_name((tc_status)r->out.status), tc_status_name(a), tc_status_name(b),
                  r->out.msg);
    else
        test_passed++;
    if (!r->out.msg[0]) test_fail(__FILE__, line, "%s: refused with an empty message", what);
    else if (needle && !strstr(r->out.msg, needle))
        test_fail(__FILE__, line, "%s: message does not mention \"%s\": %s", what, needle,
                  r->out.msg);
    else
        test_passed++;
}

/* ---- cases through the public API ----------------------------------------------------- */

static tc_context *interp_ctx(void) {
    tc_context *ctx = NULL;
    if (tc_context_new(&ctx) != TC_OK) return NULL;
    tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    return ctx;
}

static void out_err(tc_context *ctx, tc_status s, LimOut *o) {
    o->status = (int)s;
    if (s != TC_OK) snprintf(o->msg, sizeof o->msg, "%s", tc_errmsg(ctx) ? tc_errmsg(ctx) : "");
}

/* A source, its kernel, and a launch: every runtime parameter named *_ptr gets a 64-element
 * fp32 tensor, every other runtime parameter 16; constexprs come from `cx` (NAME=INT,...). */
typedef struct Launch {
    const char *src;        /* NULL: build with make_src(arg) */
    char *(*make_src)(void);
    const char *kernel;
    uint32_t grid[3];
    int load_only;          /* stop after loading the module */
} Launch;

static void launch_body(const void *arg, LimOut *o) {
    const Launch *L = arg;
    tc_context *ctx = interp_ctx();
    if (!ctx) { o->status = TC_ERR_NOMEM; return; }
    char *owned = L->src ? NULL : L->make_src();
    const char *src = L->src ? L->src : owned;
    if (!src) { o->status = TC_ERR_NOMEM; snprintf(o->msg, sizeof o->msg, "test: no memory"); return; }
    tc_module *m = NULL;
    tc_status s = tc_module_load_string(ctx, "limits.py", src, &m);
    free(owned);
    if (s != TC_OK || L->load_only) { out_err(ctx, s, o); tc_module_free(m); tc_context_free(ctx); return; }
    tc_kernel *k = NULL;
    s = tc_module_kernel(m, L->kernel, &k);
    if (s != TC_OK) { out_err(ctx, s, o); tc_module_free(m); tc_context_free(ctx); return; }
    tc_args *a = NULL;
    s = tc_args_new(k, &a);
    tc_tensor *ts[16];
    int nt = 0;
    for (int i = 0; s == TC_OK && i < tc_kernel_param_count(k); i++) {
        int cx = 0;
        const char *name = tc_kernel_param_name(k, i, &cx);
        if (cx) { s = tc_args_set(a, name, tc_int(16)); continue; }
        if (strstr(name, "ptr") && nt < 16) {
            int64_t shape[1] = {64};
            s = tc_tensor_new(ctx, TC_FP32, 1, shape, &ts[nt]);
            if (s == TC_OK) s = tc_args_set(a, name, tc_tens(ts[nt++]));
        } else {
            s = tc_args_set(a, name, tc_int(16));
        }
    }
    if (s == TC_OK) {
        tc_launch_opts opts = tc_launch_defaults();
        opts.grid[0] = L->grid[0] ? L->grid[0] : 1;
        opts.grid[1] = L->grid[1] ? L->grid[1] : 1;
        opts.grid[2] = L->grid[2] ? L->grid[2] : 1;
        s = tc_launch(k, a, &opts);
    }
    out_err(ctx, s, o);
    tc_args_free(a);
    for (int i = 0; i < nt; i++) tc_tensor_free(ts[i]);
    tc_module_free(m);
    tc_context_free(ctx);
}

#define HDR "import triton\nimport triton.language as tl\n\n"

static LimRes run_launch(const char *src, const char *kernel, uint32_t g0, uint32_t g1, uint32_t g2) {
    Launch L = {src, NULL, kernel, {g0, g1, g2}, 0};
    return bounded(launch_body, &L);
}

TEST(limits_arange_2_40) {
    LimRes r = run_launch(HDR "@triton.jit\ndef k(x_ptr):\n"
                              "    o = tl.arange(0, 2**40)\n"
                              "    tl.store(x_ptr + o, 1.0)\n", "k", 1, 1, 1);
    CHECK_BOUNDED(r, "tl.arange(0, 2**40)");
    check_refused(&r, "tl.arange(0, 2**40)", __LINE__, TC_ERR_COMPILE, TC_ERR_LIMIT, "limits.py:6");
}

TEST(limits_zeros_2_20_squared) {
    LimRes r = run_launch(HDR "@triton.jit\ndef k(x_ptr):\n"
                              "    z = tl.zeros((2**20, 2**20), dtype=tl.float32)\n"
                              "    tl.store(x_ptr + tl.arange(0, 16), tl.sum(tl.sum(z, 1), 0))\n",
                          "k", 1, 1, 1);
    CHECK_BOUNDED(r, "tl.zeros((2**20, 2**20))");
    check_refused(&r, "tl.zeros((2**20, 2**20))", __LINE__, TC_ERR_COMPILE, TC_ERR_LIMIT,
                  "limits.py:6");
}

TEST(limits_block_of_8_dims_2_40) {
    /* 2^5 per dim in 8 dims: each dim small, the product 2^40 */
    LimRes r = run_launch(HDR "@triton.jit\ndef k(x_ptr):\n"
                              "    z = tl.full((32, 32, 32, 32, 32, 32, 32, 32), 1.0, tl.float32)\n"
                              "    tl.store(x_ptr, tl.sum(tl.reshape(z, (2**40,)), 0))\n", "k", 1, 1, 1);
    CHECK_BOUNDED(r, "tl.full of 2^40 elements in 8 dims");
    check_refused(&r, "tl.full of 2^40 elements in 8 dims", __LINE__, TC_ERR_COMPILE,
                  TC_ERR_LIMIT, "limits.py:6");
}

static const char *TRIVIAL = HDR "@triton.jit\ndef k(x_ptr):\n"
                                 "    pid = tl.program_id(0)\n"
                                 "    tl.store(x_ptr + pid % 64, 1.0, mask=pid < 0)\n";

TEST(limits_grid_2_31_on_one_axis) {
    LimRes r = run_launch(TRIVIAL, "k", 1u << 31, 1, 1);
    CHECK_BOUNDED(r, "grid (2^31, 1, 1)");
    check_refused(&r, "grid (2^31, 1, 1)", __LINE__, TC_ERR_ARG, TC_ERR_LIMIT, "grid");
}

TEST(limits_grid_2_31_programs_interp) {
    /* Within CUDA's per-axis limits, 2^31 programs in all: the interpreter must refuse it
     * (or finish) in bounded time. */
    LimRes r = run_launch(TRIVIAL, "k", 65536, 32768, 1);
    CHECK_BOUNDED(r, "grid (65536, 32768, 1) on the interpreter");
    check_refused(&r, "grid (65536, 32768, 1) on the interpreter", __LINE__, TC_ERR_LIMIT,
                  TC_ERR_ARG, "grid");
}

TEST(limits_grid_max_cuda_interp) {
    LimRes r = run_launch(TRIVIAL, "k", 0x7fffffffu, 65535, 65535);
    CHECK_BOUNDED(r, "grid (2^31-1, 65535, 65535) on the interpreter");
    check_refused(&r, "grid (2^31-1, 65535, 65535) on the interpreter", __LINE__, TC_ERR_LIMIT,
                  TC_ERR_ARG, "grid");
}

TEST(limits_recursion_mutual) {
    LimRes r = run_launch(HDR "@triton.jit\ndef a(x):\n    return b(x + 1)\n\n"
                              "@triton.jit\ndef b(x):\n    return a(x * 2)\n\n"
                              "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, a(tl.load(x_ptr)))\n",
                          "k", 1, 1, 1);
    CHECK_BOUNDED(r, "a calls b calls a");
    check_refused(&r, "a calls b calls a", __LINE__, TC_ERR_LIMIT, TC_ERR_COMPILE, "recursion");
}

TEST(limits_recursion_self_constexpr) {
    /* Recursion that a constexpr would end — Triton still rejects recursion. */
    LimRes r = run_launch(HDR "@triton.jit\ndef f(x, N: tl.constexpr):\n"
                              "    if N == 0:\n        return x\n"
                              "    return f(x + 1, N - 1)\n\n"
                              "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f(tl.load(x_ptr), 1000000))\n",
                          "k", 1, 1, 1);
    CHECK_BOUNDED(r, "f calls f 10^6 times");
    check_refused(&r, "f calls f 10^6 times", __LINE__, TC_ERR_LIMIT, TC_ERR_COMPILE, "recursion");
}

static char *exp_calls_src(void) {
    /* f0 .. f40, each calling the one below twice: 2^40 inlined calls, depth only 41. */
    size_t cap = 1 << 16;
    char *s = malloc(cap);
    if (!s) return NULL;
    size_t o = (size_t)snprintf(s, cap, HDR "@triton.jit\ndef f0(x):\n    return x + 1\n\n");
    for (int i = 1; i <= 40; i++)
        o += (size_t)snprintf(s + o, cap - o, "@triton.jit\ndef f%d(x):\n    return f%d(x) + f%d(x)\n\n",
                              i, i - 1, i - 1);
    snprintf(s + o, cap - o, "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, f40(tl.load(x_ptr)))\n");
    return s;
}

TEST(limits_inlining_exponential) {
    Launch L = {NULL, exp_calls_src, "k", {1, 1, 1}, 0};
    LimRes r = bounded(launch_body, &L);
    CHECK_BOUNDED(r, "2^40 inlined calls");
    check_refused(&r, "2^40 inlined calls", __LINE__, TC_ERR_LIMIT, TC_ERR_COMPILE, NULL);
}

TEST(limits_static_range_nested) {
    /* Each loop is within MAX_UNROLL; together 2^48 unrolled iterations. */
    LimRes r = run_launch(HDR "@triton.jit\ndef k(x_ptr):\n"
                              "    acc = 0.0\n"
                              "    for i in tl.static_range(65536):\n"
                              "        for j in tl.static_range(65536):\n"
                              "            for l in tl.static_range(65536):\n"
                              "                acc += tl.load(x_ptr + (i + j + l) % 64)\n"
                              "    tl.store(x_ptr, acc)\n", "k", 1, 1, 1);
    CHECK_BOUNDED(r, "nested tl.static_range(65536) x3");
    check_refused(&r, "nested tl.static_range(65536) x3", __LINE__, TC_ERR_LIMIT, TC_ERR_COMPILE,
                  NULL);
}

TEST(limits_constexpr_tuples_in_static_range) {
    /* Each tuple is within the 2^16-item bound of one sequence; 1000 of them (2^26 values,
     * more than 256 MiB) are not: the tracer's memory limit, at the statement that hits it. */
    LimRes r = run_launch(HDR "@triton.jit\ndef k(x_ptr):\n"
                              "    for i in tl.static_range(1000):\n"
                              "        c = ((1,) * 256) * 256\n"
                              "    tl.store(x_ptr, 1.0)\n", "k", 1, 1, 1);
    CHECK_BOUNDED(r, "1000 constexpr tuples of 2^16 items");
    check_refused(&r, "1000 constexpr tuples of 2^16 items", __LINE__, TC_ERR_LIMIT, TC_ERR_LIMIT,
                  ":7:9: error: kernel too large to trace: k needs more than 256 MiB");
}

TEST(limits_constexpr_tuple_of_2_20) {
    LimRes r = run_launch(HDR "@triton.jit\ndef k(x_ptr):\n"
                              "    c = ((1,) * 1024) * 1024\n"
                              "    t = (1, 2) + c\n"
                              "    tl.store(x_ptr, 1.0)\n", "k", 1, 1, 1);
    CHECK_BOUNDED(r, "a constexpr tuple of 2^20 items");
    check_refused(&r, "a constexpr tuple of 2^20 items", __LINE__, TC_ERR_LIMIT, TC_ERR_LIMIT,
                  ":6:10: error: constexpr tuple repetition longer than 2^16 items");
    /* 2^16 items are fine; two more by concatenation are not */
    r = run_launch(HDR "@triton.jit\ndef k(x_ptr):\n"
                       "    c = ((1,) * 256) * 256\n"
                       "    t = (1, 2) + c\n"
                       "    tl.store(x_ptr, 1.0)\n", "k", 1, 1, 1);
    CHECK_BOUNDED(r, "a constexpr tuple of 2^16 + 2 items");
    check_refused(&r, "a constexpr tuple of 2^16 + 2 items", __LINE__, TC_ERR_LIMIT, TC_ERR_LIMIT,
                  ":7:9: error: tuple longer than 2^16 items");
}

/* ---- sources too large ------------------------------------------------------------------ */

#define BIG_SOURCE ((size_t)100 << 20)

static char *big_comment_src(void) {
    /* one small kernel, then 100 MB of comment lines */
    char *s = malloc(BIG_SOURCE + 1);
    if (!s) return NULL;
    const char *k = HDR "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, 1.0)\n";
    size_t o = strlen(k);
    memcpy(s, k, o);
    const char *pad = "# padding padding padding padding padding padding padding pad\n";
    size_t pl = strlen(pad);
    while (o + pl < BIG_SOURCE) {
        memcpy(s + o, pad, pl);
        o += pl;
    }
    s[o] = 0;
    return s;
}

TEST(limits_source_100mb_string) {
    Launch L = {NULL, big_comment_src, "k", {1, 1, 1}, 1};
    LimRes r = bounded(launch_body, &L);
    CHECK_BOUNDED(r, "100 MB source (tc_module_load_string)");
    check_refused(&r, "100 MB source (tc_module_load_string)", __LINE__, TC_ERR_LIMIT,
                  TC_ERR_LIMIT, "source");
}

static void big_file_body(const void *arg, LimOut *o) {
    const char *path = arg;
    /* a 100 MB file made sparse (ftruncate): reading it costs no disk */
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)BIG_SOURCE) != 0) {
        o->status = TC_ERR_IO;
        snprintf(o->msg, sizeof o->msg, "test: cannot make %s", path);
        if (fd >= 0) close(fd);
        return;
    }
    close(fd);
    tc_context *ctx = interp_ctx();
    tc_module *m = NULL;
    tc_status s = tc_module_load_file(ctx, path, &m);
    out_err(ctx, s, o);
    tc_module_free(m);
    tc_context_free(ctx);
    unlink(path);
}

TEST(limits_source_100mb_file) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/tc_limits_%d.py", (int)getpid());
    LimRes r = bounded(big_file_body, path);
    unlink(path);
    CHECK_BOUNDED(r, "100 MB file (tc_module_load_file)");
    check_refused(&r, "100 MB file (tc_module_load_file)", __LINE__, TC_ERR_LIMIT, TC_ERR_LIMIT,
                  "source");
}

/* ---- nesting -------------------------------------------------------------------------- */

#define DEEP 100000

/* HDR + kernel k(x_ptr) whose body is `    v = <pre * DEEP> <mid> <post * DEEP>` then a store. */
typedef struct Deep { const char *pre, *mid, *post; } Deep;
static const Deep *deep_cur;

static char *deep_src(void) {
    const Deep *d = deep_cur;
    size_t lp = strlen(d->pre), lq = strlen(d->post);
    size_t cap = 256 + (lp + lq) * DEEP + strlen(d->mid);
    char *s = malloc(cap);
    if (!s) return NULL;
    size_t o = (size_t)snprintf(s, cap, HDR "@triton.jit\ndef k(x_ptr):\n    x = tl.load(x_ptr)\n    v = ");
    for (int i = 0; i < DEEP; i++) { memcpy(s + o, d->pre, lp); o += lp; }
    o += (size_t)snprintf(s + o, cap - o, "%s", d->mid);
    for (int i = 0; i < DEEP; i++) { memcpy(s + o, d->post, lq); o += lq; }
    snprintf(s + o, cap - o, "\n    tl.store(x_ptr, v)\n");
    return s;
}

static void run_deep(const char *what, const char *pre, const char *mid, const char *post,
                     int may_accept, int line) {
    Deep d = {pre, mid, post};
    deep_cur = &d;   /* read by the child after fork */
    Launch L = {NULL, deep_src, "k", {1, 1, 1}, 0};
    LimRes r = bounded(launch_body, &L);
    CHECK_BOUNDED(r, what);
    if (may_accept) {
        /* accepted, or refused with any status and a message */
        if (r.out.status > 0 && !r.out.msg[0])
            test_fail(__FILE__, line, "%s: refused with an empty message", what);
        else
            test_passed++;
        return;
    }
    check_refused(&r, what, line, TC_ERR_LIMIT, TC_ERR_LIMIT, "limits.py:");
}

TEST(limits_nested_parens) { run_deep("((((x)))) 10^5 deep", "(", "x", ")", 0, __LINE__); }
TEST(limits_nested_unary) { run_deep("- - - x 10^5 deep", "-", "x", "", 0, __LINE__); }
TEST(limits_nested_not) { run_deep("not not x 10^5 deep", "not ", "x", "", 0, __LINE__); }
TEST(limits_nested_power) { run_deep("x ** x ** ... 10^5 deep", "x ** ", "x", "", 0, __LINE__); }
TEST(limits_nested_calls) { run_deep("tl.abs(tl.abs(...)) 10^5 deep", "tl.abs(", "x", ")", 0, __LINE__); }
TEST(limits_nested_lists) { run_deep("[[[[x]]]] 10^5 deep", "[", "x", "]", 0, __LINE__); }
TEST(limits_nested_ifexp) { run_deep("x if x else x if ... 10^5 deep", "x if x > 0 else ", "x", "", 0, __LINE__); }
TEST(limits_nested_lambda) { run_deep("lambda: lambda: ... 10^5 deep", "lambda: ", "x", "", 0, __LINE__); }
/* Long flat chains are nested on the left in the tree: refusing them is allowed, and so is
 * tracing them, but not crashing or taking unbounded time. */
TEST(limits_chain_add) { run_deep("x + x + ... 10^5 terms", "x + ", "x", "", 1, __LINE__); }
TEST(limits_chain_compare) { run_deep("x < x < ... 10^5 terms", "x < ", "x", "", 1, __LINE__); }
TEST(limits_chain_and) { run_deep("x and x and ... 10^5 terms", "(x > 0) and ", "(x > 0)", "", 1, __LINE__); }
TEST(limits_chain_subscript) { run_deep("x[None][0]... 10^5 deep", "", "x", "[None]", 1, __LINE__); }
TEST(limits_chain_attr) { run_deep("tl.tl.tl... 10^5 deep", "", "tl", ".tl", 1, __LINE__); }
TEST(limits_chain_method) { run_deep("x.to(tl.float32).to(...)... 10^5 deep", "", "x", ".to(tl.float32)", 1, __LINE__); }

static char *deep_blocks_src(void) {
    /* `if x > 0:` nested 2000 deep, one more space per level (2 MB, under the 4 MiB source
     * limit; 10^5 levels would take 5 GB of indentation) — 20 times Python's limit of 100. */
    size_t levels = 2000, need = 256;
    for (size_t i = 0; i < levels; i++) need += i + 16;
    char *s = malloc(need + levels + 64);
    if (!s) return NULL;
    size_t o = (size_t)snprintf(s, need, HDR "@triton.jit\ndef k(x_ptr):\n x = tl.load(x_ptr)\n");
    for (size_t i = 0; i < levels; i++) {
        memset(s + o, ' ', i + 1);
        o += i + 1;
        memcpy(s + o, "if x > 0:\n", 10);
        o += 10;
    }
    memset(s + o, ' ', levels + 1);
    o += levels + 1;
    sprintf(s + o, "x = x + 1\n tl.store(x_ptr, x)\n");
    return s;
}

TEST(limits_nested_blocks) {
    Launch L = {NULL, deep_blocks_src, "k", {1, 1, 1}, 0};
    LimRes r = bounded(launch_body, &L);
    CHECK_BOUNDED(r, "if-blocks nested 2000 deep");
    check_refused(&r, "if-blocks nested 2000 deep", __LINE__, TC_ERR_LIMIT, TC_ERR_LIMIT,
                  "indentation");
}

static char *deep_blocks_host_src(void) {
    /* the same nesting in host code (skipped, never rejected — but still bounded) */
    size_t levels = 2000, need = 256;
    for (size_t i = 0; i < levels; i++) need += i + 16;
    char *s = malloc(need + levels + 64);
    if (!s) return NULL;
    size_t o = (size_t)snprintf(s, need, HDR "def host():\n");
    for (size_t i = 0; i < levels; i++) {
        memset(s + o, ' ', i + 1);
        o += i + 1;
        memcpy(s + o, "if x > 0:\n", 10);
        o += 10;
    }
    memset(s + o, ' ', levels + 1);
    o += levels + 1;
    sprintf(s + o, "pass\n\n@triton.jit\ndef k(x_ptr):\n    pass\n");
    return s;
}

TEST(limits_nested_blocks_host_code) {
    Launch L = {NULL, deep_blocks_host_src, "k", {1, 1, 1}, 1};
    LimRes r = bounded(launch_body, &L);
    CHECK_BOUNDED(r, "host-code blocks nested 2000 deep");
    /* CPython refuses this file too ("too many levels of indentation"); so may we. */
    if (r.out.status != TC_OK)
        check_refused(&r, "host-code blocks nested 2000 deep", __LINE__, TC_ERR_LIMIT, TC_ERR_SYNTAX,
                      NULL);
}

static char *many_stmts_src(void) {
    /* 280000 statements in one kernel (3.9 MB, just under the 4 MiB source limit): long,
     * not deep; parsed, traced and run in bounded time and memory (or refused) */
    size_t n = 280000, cap = 256 + n * 16;
    char *s = malloc(cap);
    if (!s) return NULL;
    size_t o = (size_t)snprintf(s, cap, HDR "@triton.jit\ndef k(x_ptr):\n    x = tl.load(x_ptr)\n");
    for (size_t i = 0; i < n; i++) { memcpy(s + o, "    x = x + 1\n", 14); o += 14; }
    snprintf(s + o, cap - o, "    tl.store(x_ptr, x)\n");
    return s;
}

TEST(limits_many_statements) {
    Launch L = {NULL, many_stmts_src, "k", {1, 1, 1}, 0};
    LimRes r = bounded(launch_body, &L);
    CHECK_BOUNDED(r, "280000 statements");
    if (r.out.status != TC_OK)
        check_refused(&r, "280000 statements", __LINE__, TC_ERR_LIMIT, TC_ERR_LIMIT, NULL);
    else
        test_passed++;
}

/* ---- the command line ------------------------------------------------------------------- */

typedef struct Cmd { char **argv; } Cmd;

static LimRes run_cmd(char **argv) {
    LimRes r;
    memset(&r, 0, sizeof r);
    int pfd[2];
    if (pipe(pfd) != 0) { r.signaled = -1; return r; }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, 1);
        dup2(pfd[1], 2);
        execv(argv[0], argv);
        fprintf(stderr, "exec %s: %s", argv[0], strerror(errno));
        _exit(errno == E2BIG ? 126 : 127);
    }
    close(pfd[1]);
    fcntl(pfd[0], F_SETFL, O_NONBLOCK);
    watch(pid, &r, pfd[0]);
    size_t len = strlen(r.out.msg);
    ssize_t got;
    while (len < sizeof r.out.msg - 1 &&
           (got = read(pfd[0], r.out.msg + len, sizeof r.out.msg - 1 - len)) > 0)
        len += (size_t)got;
    r.out.msg[len] = 0;
    close(pfd[0]);
    r.out.status = r.exited;
    return r;
}

static int tool(char *buf, size_t n) {
    snprintf(buf, n, "%s/tritonc", test_build_dir());
    return access(buf, X_OK) == 0;
}

TEST(limits_cli_literal_million_elements) {
    char t[512];
    if (!tool(t, sizeof t)) { test_fail(__FILE__, __LINE__, "%s not built", t); return; }
    /* 10^6 elements: "x_ptr=fp32[0,0,...]" is 2 MB, past Linux's 128 KiB per argument
     * (MAX_ARG_STRLEN), so exec itself refuses it (E2BIG): no command line can carry it. */
    size_t n = 1000000;
    char *arg = malloc(16 + 2 * n);
    if (!arg) { CHECK(arg != NULL); return; }
    size_t o = (size_t)sprintf(arg, "x_ptr=fp32[");
    for (size_t i = 0; i < n; i++) { arg[o++] = '0'; arg[o++] = i + 1 < n ? ',' : ']'; }
    arg[o] = 0;
    char *argv[] = {t, "run", "fuzz/args_kernel.py", "k", "--interpret", arg, "n=16", "K=1", NULL};
    LimRes r = run_cmd(argv);
    CHECK_BOUNDED(r, "tritonc run x_ptr=fp32[10^6 elements]");
    CHECK(r.exited != 0);   /* E2BIG (126) here; if a system ever allows it, it must work */

    /* The largest literal one argument can carry: 60000 elements (120 KB). */
    n = 60000;
    o = (size_t)sprintf(arg, "x_ptr=fp32[");
    for (size_t i = 0; i < n; i++) { arg[o++] = '1'; arg[o++] = i + 1 < n ? ',' : ']'; }
    arg[o] = 0;
    LimRes r2 = run_cmd(argv);
    CHECK_BOUNDED(r2, "tritonc run x_ptr=fp32[60000 elements]");
    if (r2.exited != 0)
        test_fail(__FILE__, __LINE__, "60000-element literal: exit %d: %s", r2.exited, r2.out.msg);
    else
        test_passed++;
    CHECK(r2.secs < 10);
    free(arg);
}

TEST(limits_cli_npy_million_elements) {
    char t[512];
    if (!tool(t, sizeof t)) { test_fail(__FILE__, __LINE__, "%s not built", t); return; }
    /* The way to pass 10^6 elements: a .npy file. */
    char path[64], arg[128];
    snprintf(path, sizeof path, "/tmp/tc_limits_%d.npy", (int)getpid());
    FILE *fp = fopen(path, "wb");
    if (!fp) { CHECK(fp != NULL); return; }
    char hdr[128];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000,), }");
    while ((10 + hl + 1) % 64) hdr[hl++] = ' ';
    hdr[hl++] = '\n';
    fwrite("\x93NUMPY\x01\x00", 1, 8, fp);
    unsigned char len[2] = {(unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
    fwrite(len, 1, 2, fp);
    fwrite(hdr, 1, (size_t)hl, fp);
    float zero = 0;
    for (int i = 0; i < 1000000; i++) fwrite(&zero, 4, 1, fp);
    fclose(fp);
    snprintf(arg, sizeof arg, "x_ptr=@%s", path);
    char *argv[] = {t, "run", "fuzz/args_kernel.py", "k", "--interpret", arg, "n=16", "K=1", NULL};
    LimRes r = run_cmd(argv);
    unlink(path);
    CHECK_BOUNDED(r, "tritonc run x_ptr=@(10^6 elements).npy");
    if (r.exited != 0) test_fail(__FILE__, __LINE__, "10^6-element .npy: exit %d: %s", r.exited, r.out.msg);
    else test_passed++;
}

TEST(limits_cli_factory_huge) {
    char t[512];
    if (!tool(t, sizeof t)) { test_fail(__FILE__, __LINE__, "%s not built", t); return; }
    /* 2^40 elements: past the command's 2^34 limit, refused with a usage error. */
    char *argv[] = {t, "run", "fuzz/args_kernel.py", "k", "--interpret",
                    "x_ptr=fp32:zeros(1099511627776)", "n=16", "K=1", NULL};
    LimRes r = run_cmd(argv);
    CHECK_BOUNDED(r, "x_ptr=fp32:zeros(2^40)");
    CHECK_INT(2, r.exited);
    CHECK_CONTAINS(r.out.msg, "too large");
    /* a literal nested past TC_MAX_RANK */
    char *argv3[] = {t, "run", "fuzz/args_kernel.py", "k", "--interpret",
                     "x_ptr=fp32[[[[[[[[[1]]]]]]]]]", "n=16", "K=1", NULL};
    LimRes r3 = run_cmd(argv3);
    CHECK_BOUNDED(r3, "x_ptr=fp32[[[[[[[[[1]]]]]]]]]");
    CHECK_INT(2, r3.exited);
    CHECK_CONTAINS(r3.out.msg, "dimensions");
}
