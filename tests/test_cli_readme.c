/* test_cli_readme.c — the README's examples run as written (issue 15 item 2): every command
 * of "The command line at a glance" (continuation lines joined), with build/ on PATH, in a
 * scratch directory that links examples/ and tests/, with a temporary HOME and disk cache.
 * A command exits 0, or the status its trailing comment names ("# exit 4: ..."), or 3 with
 * the driver's refusal (the GPU-only ones on a machine without a GPU). Then the C API's
 * program, built against `make install` as the README says, prints 11 22 33 44. */
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char out[1 << 16];

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 17];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* The next ```LANG block after *p (its body copied into body), advancing *p past it. */
static int next_block(const char **p, const char *lang, char *body, size_t n) {
    char fence[32];
    snprintf(fence, sizeof fence, "\n```%s\n", lang);
    const char *s = strstr(*p, fence);
    if (!s) return 0;
    s += strlen(fence);
    const char *e = strstr(s, "\n```");
    if (!e || (size_t)(e - s) + 2 > n) return 0;
    memcpy(body, s, (size_t)(e - s) + 1);
    body[e - s + 1] = 0;
    *p = e + 4;
    return 1;
}

/* Where the trailing comment of a command line begins (a '#' after white space, outside
 * quotes), or NULL. */
static char *comment_of(char *line) {
    char q = 0;
    for (char *c = line; *c; c++) {
        if (q) { if (*c == q) q = 0; continue; }
        if (*c == '\'' || *c == '"') q = *c;
        else if (*c == '#' && (c == line || c[-1] == ' ')) return c;
    }
    return NULL;
}

static char root[1024], bin[1200], scratch[1400];

static void prepare(void) {
    if (!getcwd(root, sizeof root)) root[0] = 0;
    const char *b = test_build_dir();
    if (b[0] == '/') snprintf(bin, sizeof bin, "%s", b);
    else snprintf(bin, sizeof bin, "%s/%s", root, b);
    snprintf(scratch, sizeof scratch, "%s/tests/readme", bin);
    char cmd[6000];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/home' && ln -s '%s/examples' '%s/examples' && "
             "ln -s '%s/tests' '%s/tests'", scratch, scratch, root, scratch, root, scratch);
    test_run(cmd, out, sizeof out);
}

/* Runs script (sh) in the scratch directory with the README's environment. */
static int in_scratch(const char *script) {
    static char cmd[16384];
    snprintf(cmd, sizeof cmd, "cd '%s' && env -u TRITON_INTERPRET -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "
             "HOME='%s/home' TRITONC_CACHE_DIR='%s/cache' PATH='%s':\"$PATH\" sh -c '%s'", scratch,
             scratch, scratch, bin, script);
    return test_run(cmd, out, sizeof out);
}

TEST(cli_readme_commands_run_as_written) {
    char *md = read_all("README.md");
    CHECK(md != NULL);
    if (!md) return;
    prepare();
    const char *sec = strstr(md, "## The command line at a glance");
    CHECK(sec != NULL);
    if (!sec) return;
    const char *end = strstr(sec + 3, "\n## ");
    static char body[16384];
    const char *p = sec;
    int ncmd = 0;
    while (next_block(&p, "sh", body, sizeof body) && (!end || p < end)) {
        /* join continuation lines, then one command per line */
        static char joined[16384];
        size_t j = 0;
        for (const char *c = body; *c && j + 1 < sizeof joined; c++) {
            if (c[0] == '\\' && c[1] == '\n') { c++; continue; }
            joined[j++] = *c;
        }
        joined[j] = 0;
        for (char *line = strtok(joined, "\n"); line; line = strtok(NULL, "\n")) {
            while (*line == ' ') line++;
            if (strncmp(line, "tritonc ", 8) != 0) continue;
            int expect = 0;
            char *cm = comment_of(line);
            if (cm) {
                const char *ex = strstr(cm, "exit ");
                if (ex && ex[5] >= '0' && ex[5] <= '9' && !strstr(cm, "refusal")) expect = ex[5] - '0';
                *cm = 0;
            }
            ncmd++;
            static char script[8192];
            /* the script is in single quotes: each ' becomes '\'' */
            size_t k = 0;
            for (const char *c = line; *c && k + 5 < sizeof script; c++) {
                if (*c == '\'') { memcpy(script + k, "'\\''", 4); k += 4; }
                else script[k++] = *c;
            }
            script[k] = 0;
            int rc = in_scratch(script);
            int ok = rc == expect || (rc == 3 && strstr(out, "0 active drivers"));
            if (ok) test_passed++;
            else test_fail(__FILE__, __LINE__, "README command exited %d (expected %d):\n  %s\n%s",
                           rc, expect, line, out);
        }
    }
    CHECK(ncmd >= 10);   /* the section's commands were found */
    /* what they wrote: the .npy file, the PTX, the C launcher pair */
    CHECK_INT(0, in_scratch("test -s out.npy && test -s add.ptx && test -s add_kernel.h && test -s add_kernel.c"));
}

TEST(cli_readme_c_program_installed) {
    /* the installed library, built as the README says; not under the sanitizers (a program
     * linked against the ASan-built library needs their runtime first) */
    if (strcmp(test_build_dir(), "build") != 0) return;
    if (test_run("command -v pkg-config", out, sizeof out) != 0) return;   /* the README's tool */
    char *md = read_all("README.md");
    CHECK(md != NULL);
    if (!md) return;
    prepare();
    const char *p = strstr(md, "## The C API at a glance");
    CHECK(p != NULL);
    if (!p) return;
    static char prog[16384], build[4096], script[8192];
    CHECK(next_block(&p, "c", prog, sizeof prog));
    CHECK(next_block(&p, "sh", build, sizeof build));
    char path[1600];
    snprintf(path, sizeof path, "%s/app.c", scratch);
    FILE *f = fopen(path, "w");
    if (f) { fputs(prog, f); fclose(f); }
    /* the block as a script: `make` runs in the repository; its last line runs the program */
    size_t k = 0;
    for (char *line = strtok(build, "\n"); line; line = strtok(NULL, "\n")) {
        char *cm = comment_of(line);
        if (cm) *cm = 0;
        int n;
        if (!strncmp(line, "make ", 5))
            n = snprintf(script + k, sizeof script - k, "make -s -C \"%s\" %s >/dev/null && ", root, line + 5);
        else
            n = snprintf(script + k, sizeof script - k, "%s && ", line);
        if (n < 0 || (size_t)n >= sizeof script - k) break;
        k += (size_t)n;
    }
    snprintf(script + k, sizeof script - k, "echo built");
    for (char *c = script; *c; c++) if (*c == '\'') *c = '"';   /* inside sh -c '...' */
    CHECK_INT(0, in_scratch(script));
    CHECK_CONTAINS(out, "11 22 33 44\nbuilt");
    /* not linked with LD_LIBRARY_PATH: the rpath finds the installed shared library */
    CHECK_INT(0, in_scratch("ldd ./app | grep -q \"$HOME/tritonc/lib/libtritonc.so.0\" && echo shared"));
    CHECK_CONTAINS(out, "shared");
    /* without TRITON_INTERPRET and with no driver: the refusal and exit 3, not 0 0 0 0 */
    int rc = in_scratch("TRITONC_LIBCUDA_PATH=/nonexistent ./app");
    CHECK_INT(3, rc);
    CHECK_CONTAINS(out, "TC_ERR_NO_DRIVER: 0 active drivers");
    CHECK(!strstr(out, "0 0 0 0"));
}
