/* test_fuzz_regress.c — replays every input that a fuzz target ever failed on (the files
 * under fuzz/regressions/<target>/) through the same entry points as the target, with no
 * libFuzzer: each input runs in a child process (so that a crash or a hang is reported as
 * a failure of that input, not of the whole suite) and must finish within a time limit,
 * either accepted or refused with a status and a message.
 *
 *   fuzz_parse/  bytes -> source_new, lex, parse_module           (fuzz/fuzz_one.h)
 *   fuzz_trace/  kernel file -> parse, trace each @jit, interpret, lower to PTX
 *                                                                   (fuzz/fuzz_one.h)
 *   fuzz_args/   first byte n/v/c/g/i as in fuzz/fuzz_args.c; replayed through the real
 *                command, `tritonc run fuzz/args_kernel.py k ...` (the value parser is
 *                static in tools/tritonc.c): exit 0, 1 or 2, never a signal or a sanitizer
 *                report, and a message on stderr whenever it is not 0.
 *
 * FUZZ_REGRESS_DIR overrides fuzz/regressions (to replay a libFuzzer artifact directory). */
#include "test.h"

#include "../fuzz/fuzz_one.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REGRESS_TIMEOUT_S 60
#define SAN_EXIT 99   /* ASan/UBSan report in a child of the command */

static const char *regress_dir(void) {
    const char *d = getenv("FUZZ_REGRESS_DIR");
    return d && *d ? d : "fuzz/regressions";
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Reads a whole file (malloc'd). */
static uint8_t *read_all(const char *path, size_t *n) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    size_t cap = 4096, len = 0;
    uint8_t *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + len, 1, cap - len, fp)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(b, cap * 2);
            if (!nb) { free(b); b = NULL; break; }
            b = nb;
            cap *= 2;
        }
    }
    fclose(fp);
    *n = len;
    return b;
}

/* Waits for pid up to timeout seconds (draining fd into out if fd >= 0); kills it after.
 * Returns the wait status, or -1 on a timeout. */
static int wait_bounded(pid_t pid, int fd, char *out, size_t outn, double timeout) {
    double end = now_s() + timeout;
    size_t len = 0;
    if (outn) out[0] = 0;
    int st = 0;
    for (;;) {
        if (fd >= 0) {
            struct pollfd p = {fd, POLLIN, 0};
            if (poll(&p, 1, 50) > 0) {
                char chunk[4096];
                ssize_t r = read(fd, chunk, sizeof chunk);
                if (r > 0) {
                    size_t take = (size_t)r;
                    if (len + take >= outn) take = outn > len + 1 ? outn - len - 1 : 0;
                    memcpy(out + len, chunk, take);
                    len += take;
                    if (outn) out[len] = 0;
                    continue;
                }
                if (r == 0) { close(fd); fd = -1; }
            }
        } else {
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) break;
        if (now_s() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            if (fd >= 0) close(fd);
            return -1;
        }
    }
    if (fd >= 0) close(fd);
    return st;
}

/* In-process targets: the input runs in a forked child. */
static void replay_inproc(const char *target, const char *path, const uint8_t *data, size_t n) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) { CHECK(pid >= 0); return; }
    if (pid == 0) {
        const char *why = strcmp(target, "fuzz_parse") == 0 ? fz_parse_one(data, n)
                                                            : fz_trace_one(data, n, FZ_INTERP | FZ_GPU);
        if (why) {
            fprintf(stderr, "%s: %s\n", path, why);
            _exit(1);
        }
        _exit(0);
    }
    int st = wait_bounded(pid, -1, NULL, 0, REGRESS_TIMEOUT_S);
    if (st == -1)
        test_fail(__FILE__, __LINE__, "%s: still running after %d s (hang)", path, REGRESS_TIMEOUT_S);
    else if (WIFSIGNALED(st))
        test_fail(__FILE__, __LINE__, "%s: crashed with signal %d", path, WTERMSIG(st));
    else if (WEXITSTATUS(st) != 0)
        test_fail(__FILE__, __LINE__, "%s: exit %d (see the message above)", path, WEXITSTATUS(st));
    else
        test_passed++;
}

/* fuzz_args inputs through the command line. */
static void replay_args(const char *path, const uint8_t *data, size_t n) {
    if (n < 1) { test_passed++; return; }
    int mode;
    switch (data[0]) {
    case 'n': mode = 0; break;
    case 'v': mode = 1; break;
    case 'c': mode = 2; break;
    case 'g': mode = 3; break;
    case 'i': mode = 4; break;
    default: mode = data[0] % 5; break;
    }
    data++;
    n--;
    char tool[512], npy[64] = "", value[8192];
    snprintf(tool, sizeof tool, "%s/tritonc", test_build_dir());
    if (access(tool, X_OK) != 0) {
        test_fail(__FILE__, __LINE__, "%s: %s is not built", path, tool);
        return;
    }
    /* Text values stop at the first NUL, as an argv string would. */
    size_t vl = strnlen((const char *)data, n);
    if (vl >= sizeof value - 16) vl = sizeof value - 17;
    char *argv[16];
    int argc = 0;
    argv[argc++] = tool;
    argv[argc++] = "run";
    argv[argc++] = "fuzz/args_kernel.py";
    argv[argc++] = "k";
    argv[argc++] = "--interpret";
    if (mode == 0) {
        snprintf(npy, sizeof npy, "/tmp/tc_fuzz_regress_%d.npy", (int)getpid());
        FILE *fp = fopen(npy, "wb");
        if (!fp || fwrite(data, 1, n, fp) != n) {
            if (fp) fclose(fp);
            test_fail(__FILE__, __LINE__, "cannot write %s", npy);
            return;
        }
        fclose(fp);
        snprintf(value, sizeof value, "x_ptr=@%s", npy);
        argv[argc++] = value;
        argv[argc++] = "n=0";
    } else if (mode == 3) {
        /* only the grid is parsed: x_ptr is left out so that nothing is launched */
        argv[argc++] = "--grid";
        memcpy(value, data, vl);
        value[vl] = 0;
        argv[argc++] = value;
    } else {
        const char *pre = mode == 1 ? "x_ptr=" : mode == 2 ? "K=" : "n=";
        size_t pl = strlen(pre);
        memcpy(value, pre, pl);
        memcpy(value + pl, data, vl);
        value[pl + vl] = 0;
        argv[argc++] = value;
        if (mode != 1) argv[argc++] = "x_ptr=fp32:zeros(16)";
        if (mode != 4) argv[argc++] = "n=0";
        if (mode != 2) argv[argc++] = "K=1";
    }
    argv[argc] = NULL;
    int pfd[2];
    if (pipe(pfd) != 0) { CHECK(0); return; }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, 1);
        dup2(pfd[1], 2);
        setenv("ASAN_OPTIONS", "exitcode=99:detect_leaks=1", 1);
        setenv("UBSAN_OPTIONS", "exitcode=99:print_stacktrace=1", 1);
        execv(tool, argv);
        _exit(127);
    }
    close(pfd[1]);
    char err[8192];
    int st = wait_bounded(pid, pfd[0], err, sizeof err, REGRESS_TIMEOUT_S);
    if (npy[0]) unlink(npy);
    if (st == -1) {
        test_fail(__FILE__, __LINE__, "%s: `tritonc run` still running after %d s (hang)", path,
                  REGRESS_TIMEOUT_S);
    } else if (WIFSIGNALED(st)) {
        test_fail(__FILE__, __LINE__, "%s: `tritonc run` died of signal %d:\n%s", path,
                  WTERMSIG(st), err);
    } else if (WEXITSTATUS(st) > 2) {
        test_fail(__FILE__, __LINE__, "%s: `tritonc run` exited %d%s:\n%s", path,
                  WEXITSTATUS(st), WEXITSTATUS(st) == SAN_EXIT ? " (sanitizer report)" : "", err);
    } else if (WEXITSTATUS(st) != 0 && !err[0]) {
        test_fail(__FILE__, __LINE__, "%s: `tritonc run` exited %d with nothing on stderr", path,
                  WEXITSTATUS(st));
    } else {
        test_passed++;
    }
}

static int replay_target(const char *target) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", regress_dir(), target);
    DIR *d = opendir(dir);
    if (!d) return 0;
    int count = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        if (strstr(de->d_name, ".md") || strstr(de->d_name, ".txt")) continue;  /* notes */
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
        size_t n = 0;
        uint8_t *data = read_all(path, &n);
        if (!data) { test_fail(__FILE__, __LINE__, "cannot read %s", path); continue; }
        if (strcmp(target, "fuzz_args") == 0) replay_args(path, data, n);
        else replay_inproc(target, path, data, n);
        free(data);
        count++;
    }
    closedir(d);
    return count;
}

TEST(fuzz_regress_parse) { replay_target("fuzz_parse"); }
TEST(fuzz_regress_trace) { replay_target("fuzz_trace"); }
TEST(fuzz_regress_args) { replay_target("fuzz_args"); }

/* The replay itself must notice what it is for: an input that fails is reported. */
TEST(fuzz_regress_self_check) {
    const char *ok = "import triton\n@triton.jit\ndef k(x_ptr):\n    pass\n";
    CHECK(fz_parse_one((const uint8_t *)ok, strlen(ok)) == NULL);
    CHECK(fz_trace_one((const uint8_t *)ok, strlen(ok), FZ_INTERP | FZ_GPU) == NULL);
    const char *bad = "def (:\n";
    CHECK(fz_parse_one((const uint8_t *)bad, strlen(bad)) == NULL);  /* refused with a message */
    Err e;
    memset(&e, 0, sizeof e);
    e.code = TC_ERR_SYNTAX;
    CHECK(fz_check_err("x", &e) != NULL);  /* no message: a finding */
}
