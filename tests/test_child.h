/* test_child.h — re-running this test binary as a child process with the fake libcuda
 * (build/fake/libcuda.so.1), for tests whose driver state must start fresh: the child runs
 * only the tests whose names start with `filter`, with `env` (VAR=value ...) set, and the
 * parent counts its checks. (test_driver.c and test_embed.c have their own older copies.) */
#ifndef TEST_CHILD_H
#define TEST_CHILD_H

#include "test.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Runs the child; fails the current test unless it exits 0 with at least min_passed checks
 * passed and none failed. Skips (with a note) when the fake driver is not built. The child
 * is never shadowed (TRITONC_SHADOW unset): on the fake driver there is nothing to compare,
 * and a shadow's extra launches would multiply the counts its tests check (the 2 failures
 * of bench/results/gpu-2026-12-03.md §6). */
static inline void test_run_child(const char *env, const char *filter, int min_passed) {
    char fake[1024], exe[1024], cmd[4096];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake, R_OK) != 0) { fprintf(stderr, "SKIP %s: no %s\n", test_current, fake); return; }
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) { fprintf(stderr, "SKIP %s: cannot find /proc/self/exe\n", test_current); return; }
    exe[len] = 0;
    snprintf(cmd, sizeof cmd,
             "env -u TRITON_INTERPRET -u TRITON_OVERRIDE_ARCH -u CUDA_VISIBLE_DEVICES -u FAKE_CUDA_MODE "
             "-u TEST_VERBOSE -u TRITONC_TARGET -u TRITONC_SHADOW TRITONC_LIBCUDA_PATH=%s %s '%s' %s", fake,
             env, exe, filter);
    static char out[1 << 16];
    int rc = test_run(cmd, out, sizeof out);
    int passed = 0, failed = 1;
    const char *p = NULL;
    for (const char *q = strstr(out, " passed, "); q; q = strstr(q + 1, " passed, ")) p = q;
    if (p) {
        while (p > out && p[-1] >= '0' && p[-1] <= '9') p--;
        if (sscanf(p, "%d passed, %d failed", &passed, &failed) != 2) failed = 1;
    }
    if (rc != 0 || failed || passed < min_passed) {
        test_fail(__FILE__, __LINE__, "child %s exited %d:\n%s", filter, rc, out);
        return;
    }
    test_passed += passed;
}

#endif
