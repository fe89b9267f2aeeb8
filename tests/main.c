/* main.c — runs every TEST in the suite (optionally only those whose names contain one of
 * the arguments) and ends with "N passed, N failed" (counting assertions). */
#include "test.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int test_passed, test_failed;
const char *test_current;

void test_fail(const char *file, int line, const char *fmt, ...) {
    test_failed++;
    fprintf(stderr, "FAIL %s (%s:%d): ", test_current, file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

const char *test_build_dir(void) {
    const char *b = getenv("TRITONC_BUILD");
    return b && *b ? b : "build";
}

int test_run(const char *cmd, char *out, size_t n) {
    char full[8192];
    snprintf(full, sizeof full, "(%s) 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (!p) return -1;
    size_t len = 0;
    if (n) out[0] = 0;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, p)) > 0) {
        if (n && len + 1 < n) {
            size_t take = got < n - 1 - len ? got : n - 1 - len;
            memcpy(out + len, chunk, take);
            len += take;
            out[len] = 0;
        }
    }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int test_count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay ? strstr(hay, needle) : NULL; p; p = strstr(p + 1, needle)) n++;
    return n;
}

void test_fake_counters(long *c, int n) {
    memset(c, 0, (size_t)n * sizeof *c);
    const char *path = getenv("TRITONC_LIBCUDA_PATH");
    void *h = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    void (*f)(long *, int) = h ? (void (*)(long *, int))dlsym(h, "fake_cuda_counters") : NULL;
    if (f) f(c, n);
    if (h) dlclose(h);
}

#define X(name) void test_##name(void);
#include "list.inc"
#undef X

static const struct { const char *name; void (*fn)(void); } tests[] = {
#define X(name) {#name, test_##name},
#include "list.inc"
#undef X
};

static char home[64];
static pid_t home_owner;
static void remove_home(void) {
    if (getpid() != home_owner) return;   /* a forked child that called exit() */
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", home);
}

int main(int argc, char **argv) {
    int ran = 0;
    /* the tests never touch the user's home: its disk caches are in a directory of our own */
    snprintf(home, sizeof home, "/tmp/tritonc-tests-XXXXXX");
    if (!mkdtemp(home)) { perror("mkdtemp"); return 1; }
    home_owner = getpid();
    atexit(remove_home);
    setenv("HOME", home, 1);
    unsetenv("TRITONC_CACHE_DIR");
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        int chosen = argc < 2;   /* the tests whose names contain any argument */
        for (int a = 1; a < argc && !chosen; a++) chosen = strstr(tests[i].name, argv[a]) != NULL;
        if (!chosen) continue;
        test_current = tests[i].name;
        int before = test_failed;
        tests[i].fn();
        ran++;
        if (getenv("TEST_VERBOSE") || test_failed != before)
            fprintf(stderr, "%s %s\n", test_failed != before ? "failed:" : "ok:", tests[i].name);
    }
    printf("%d tests run\n", ran);
    printf("%d passed, %d failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}
