/* test_abi.c — the library boundary: libtritonc.so and libtritonc.a export exactly the TC_API
 * functions of tritonc.h (all tc_*), the shared library's SONAME and file names follow
 * TRITONC_VERSION, a program with its own buf_puts, lex and sha256 links against either
 * library and keeps both its functions and the library's, and the structs that grow are read
 * and filled only up to the caller's size (the ABI policy at the top of tritonc.h). */
#include "test.h"
#include "tritonc.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char out[65536];

static int have_tool(const char *name) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s", name);
    return test_run(cmd, NULL, 0) == 0;
}

static const char *cc(void) {
    const char *c = getenv("CC");
    return c && *c ? c : "cc";
}

static int is_san(void) { return strstr(test_build_dir(), "san") != NULL; }

/* ---- exported symbols ----------------------------------------------------------------- */

#define MAX_NAMES 512
typedef struct Names { char *v[MAX_NAMES]; int n; } Names;

static int names_has(const Names *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0) return 1;
    return 0;
}

static void names_add(Names *s, const char *name, size_t len) {
    char buf[128];
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, name, len);
    buf[len] = 0;
    if (s->n < MAX_NAMES && !names_has(s, buf)) s->v[s->n++] = strdup(buf);
}

static void names_free(Names *s) {
    for (int i = 0; i < s->n; i++) free(s->v[i]);
    s->n = 0;
}

/* The last field of each line of `cmd`'s output with `fields` fields (nm: value type name). */
static void nm_names(const char *cmd, int fields, Names *s) {
    test_run(cmd, out, sizeof out);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        char a[128], b[128], c[128];
        int got = sscanf(line, "%127s %127s %127s", a, b, c);
        if (got == fields) names_add(s, fields == 3 ? c : b, strlen(fields == 3 ? c : b));
    }
}

/* Functions declared by tritonc.h (comments removed), and those of them that are static
 * inline (not exported). */
static int header_names(Names *decl, Names *inl) {
    FILE *f = fopen("include/tritonc.h", "rb");
    if (!f) return 0;
    static char src[1 << 17];
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = 0;
    for (char *p = strstr(src, "/*"); p; p = strstr(p, "/*")) {
        char *e = strstr(p + 2, "*/");
        if (!e) break;
        memset(p, ' ', (size_t)(e + 2 - p));
    }
    for (char *p = src; (p = strstr(p, "tc_")); p++) {
        if (p > src && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
        char *e = p;
        while (isalnum((unsigned char)*e) || *e == '_') e++;
        char *q = e;
        while (*q == ' ') q++;
        if (*q != '(') continue;
        /* the statement it is in starts after the last ';', '{' or '}' */
        char *st = p;
        while (st > src && !strchr(";{}", st[-1])) st--;
        char stmt[256];  /* its last 255 bytes before the name */
        size_t sl = (size_t)(p - st) < sizeof stmt - 1 ? (size_t)(p - st) : sizeof stmt - 1;
        memcpy(stmt, p - sl, sl);
        stmt[sl] = 0;
        if (strstr(stmt, "typedef") || strchr(stmt, '=') || strchr(stmt, '(')) continue;
        if (!strstr(stmt, "TC_API") && !strstr(stmt, "static inline")) {
            /* a declaration without TC_API would be hidden */
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(e - p), p);
            if (!strstr(stmt, "return") && strspn(stmt, " \n") != strlen(stmt))
                test_fail(__FILE__, __LINE__, "tritonc.h declares %s without TC_API", name);
            continue;
        }
        names_add(strstr(stmt, "static inline") ? inl : decl, p, (size_t)(e - p));
    }
    return 1;
}

static void check_exports(const char *what, const Names *got, const Names *decl) {
    int bad = 0;
    for (int i = 0; i < got->n; i++)
        if (strncmp(got->v[i], "tc_", 3) != 0) {
            test_fail(__FILE__, __LINE__, "%s exports %s, not a tc_ name", what, got->v[i]);
            bad++;
        }
    for (int i = 0; i < got->n; i++)
        if (strncmp(got->v[i], "tc_", 3) == 0 && !names_has(decl, got->v[i]))
            test_fail(__FILE__, __LINE__, "%s exports %s, which tritonc.h does not declare",
                      what, got->v[i]);
    for (int i = 0; i < decl->n; i++)
        if (!names_has(got, decl->v[i]))
            test_fail(__FILE__, __LINE__, "%s does not export %s (declared in tritonc.h)", what,
                      decl->v[i]);
    CHECK_INT(0, bad);
    CHECK_INT(decl->n, got->n);
}

TEST(abi_exports_only_tc_api) {
    if (!have_tool("nm")) {
        fprintf(stderr, "SKIP %s: nm is not installed (binutils)\n", test_current);
        return;
    }
    const char *b = test_build_dir();
    Names decl = {0}, inl = {0}, so = {0}, ar = {0};
    CHECK(header_names(&decl, &inl));
    CHECK(decl.n > 80);  /* the API as of 0.1 has 88 functions */
    CHECK(names_has(&decl, "tc_launch") && names_has(&decl, "tc_launch_opts_init"));
    CHECK(names_has(&inl, "tc_launch_defaults") && !names_has(&decl, "tc_launch_defaults"));

    char cmd[1200];
    snprintf(cmd, sizeof cmd, "nm -D --defined-only %s/libtritonc.so", b);
    nm_names(cmd, 3, &so);
    check_exports("libtritonc.so", &so, &decl);
    /* archive member headers ("libtritonc.o:") have one field; symbols three */
    snprintf(cmd, sizeof cmd, "nm -g --defined-only %s/libtritonc.a", b);
    nm_names(cmd, 3, &ar);
    check_exports("libtritonc.a", &ar, &decl);
    /* internal names are still in the archive, local */
    snprintf(cmd, sizeof cmd, "nm %s/libtritonc.a | grep -c ' [tT] buf_puts$'", b);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    names_free(&decl); names_free(&inl); names_free(&so); names_free(&ar);
}

TEST(abi_soname_and_file_names) {
    const char *b = test_build_dir();
    char p[600], target[600];
    snprintf(p, sizeof p, "%s/libtritonc.so." TRITONC_VERSION, b);
    struct stat sb;
    CHECK(lstat(p, &sb) == 0 && S_ISREG(sb.st_mode));
    char major[16];
    snprintf(major, sizeof major, "%.*s", (int)strcspn(TRITONC_VERSION, "."), TRITONC_VERSION);
    const char *links[2] = {"libtritonc.so", NULL};
    char soname[64];
    snprintf(soname, sizeof soname, "libtritonc.so.%s", major);
    links[1] = soname;
    for (int i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/%s", b, links[i]);
        ssize_t n = readlink(p, target, sizeof target - 1);
        CHECK(n > 0);
        target[n > 0 ? n : 0] = 0;
        CHECK_STR("libtritonc.so." TRITONC_VERSION, target);
    }
    if (!have_tool("objdump")) {
        fprintf(stderr, "SKIP %s (SONAME): objdump is not installed (binutils)\n", test_current);
        return;
    }
    char cmd[700];
    snprintf(cmd, sizeof cmd, "objdump -p %s/libtritonc.so | grep SONAME", b);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    char want[100];
    snprintf(want, sizeof want, "%s\n", soname);
    CHECK(strlen(out) > strlen(want) && strcmp(out + strlen(out) - strlen(want), want) == 0);
    snprintf(cmd, sizeof cmd, "grep -x 'Version: %s' %s/tritonc.pc", TRITONC_VERSION, b);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
}

/* ---- a program whose names are also the library's internal names --------------------- */

static const char *CLASH_MAIN =
    "#include <tritonc.h>\n"
    "#include <stdio.h>\n"
    "#include <string.h>\n"
    "/* the program's own, with other signatures than the library's internal ones */\n"
    "const char *buf_puts(int x) { return x == 1 ? \"program buf_puts\" : \"?\"; }\n"
    "int lex(int x) { return x + 1; }\n"
    "unsigned sha256(unsigned x) { return x * 2; }\n"
    "static const char *SRC =\n"
    "    \"import triton\\n\"\n"
    "    \"import triton.language as tl\\n\"\n"
    "    \"@triton.jit\\n\"\n"
    "    \"def add(x, y, out, n, BLOCK: tl.constexpr):\\n\"\n"
    "    \"    offs = tl.arange(0, BLOCK)\\n\"\n"
    "    \"    m = offs < n\\n\"\n"
    "    \"    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)\\n\";\n"
    "int main(void) {\n"
    "    tc_context *ctx; tc_module *m, *bad; tc_kernel *k; tc_args *a; tc_tensor *x, *y, *o;\n"
    "    float hx[4] = {1, 2, 3, 4}, hy[4] = {10, 20, 30, 40}, r[4];\n"
    "    int64_t n = 4;\n"
    "    if (tc_context_new(&ctx) || tc_context_set_backend(ctx, TC_BACKEND_INTERPRET)) return 1;\n"
    "    if (tc_module_load_string(ctx, \"k.py\", SRC, &m) || tc_module_kernel(m, \"add\", &k) ||\n"
    "        tc_args_new(k, &a)) { printf(\"setup: %s\\n\", tc_errmsg(ctx)); return 1; }\n"
    "    tc_tensor_from_host(ctx, TC_FP32, 1, &n, hx, &x);\n"
    "    tc_tensor_from_host(ctx, TC_FP32, 1, &n, hy, &y);\n"
    "    tc_tensor_new(ctx, TC_FP32, 1, &n, &o);\n"
    "    tc_args_set(a, \"x\", tc_tens(x)); tc_args_set(a, \"y\", tc_tens(y));\n"
    "    tc_args_set(a, \"out\", tc_tens(o)); tc_args_set(a, \"n\", tc_int(4));\n"
    "    tc_args_set(a, \"BLOCK\", tc_int(4));\n"
    "    tc_launch_opts opts = tc_launch_defaults();\n"
    "    if (tc_launch(k, a, &opts)) { printf(\"launch: %s\\n\", tc_errmsg(ctx)); return 1; }\n"
    "    tc_tensor_to_host(o, r, sizeof r);\n"
    "    printf(\"out %g %g %g %g\\n\", r[0], r[1], r[2], r[3]);\n"
    "    tc_status s = tc_module_load_string(ctx, \"bad.py\", \"@triton.jit\\ndef f(:\\n\", &bad);\n"
    "    printf(\"bad %s %s\\n\", tc_status_name(s), strstr(tc_errmsg(ctx), \"bad.py:2:\") ? \"located\" : tc_errmsg(ctx));\n"
    "    printf(\"mine %s %d %u\\n\", buf_puts(1), lex(41), sha256(21));\n"
    "    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o);\n"
    "    tc_args_free(a); tc_module_free(m); tc_context_free(ctx);\n"
    "    return 0;\n"
    "}\n";

TEST(abi_program_names_do_not_clash) {
    char dir[PATH_MAX + 20], abs_b[PATH_MAX], src[PATH_MAX + 40], cmd[4 * PATH_MAX + 400];
    if (!realpath(test_build_dir(), abs_b)) { CHECK(0); return; }
    snprintf(dir, sizeof dir, "%s/tests/abi", abs_b);
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    test_run(cmd, NULL, 0);
    snprintf(src, sizeof src, "%s/clash.c", dir);
    FILE *f = fopen(src, "w");
    if (!f) { CHECK(0); return; }
    fputs(CLASH_MAIN, f);
    fclose(f);
    const char *san = is_san() ? "-fsanitize=address,undefined" : "";
    const char *expect[] = {"out 11 22 33 44\n", "bad TC_ERR_SYNTAX located\n",
                            "mine program buf_puts 42 42\n"};
    for (int shared = 0; shared < 2; shared++) {
        if (shared)
            snprintf(cmd, sizeof cmd, "%s -std=c11 -Wall -Werror %s -Iinclude -o %s/clash_shared %s "
                     "-L%s -ltritonc -Wl,-rpath,%s -lm -ldl -lpthread", cc(), san, dir, src, abs_b,
                     abs_b);
        else
            snprintf(cmd, sizeof cmd, "%s -std=c11 -Wall -Werror %s -Iinclude -o %s/clash_static %s "
                     "%s/libtritonc.a -lm -ldl -lpthread", cc(), san, dir, src, abs_b);
        int r = test_run(cmd, out, sizeof out);
        if (r) fprintf(stderr, "%s: %s\n", shared ? "shared" : "static", out);
        CHECK_INT(0, r);
        if (r) continue;
        snprintf(cmd, sizeof cmd, "env -u LD_LIBRARY_PATH %s/clash_%s", dir,
                 shared ? "shared" : "static");
        r = test_run(cmd, out, sizeof out);
        if (r) fprintf(stderr, "%s: %s\n", shared ? "shared" : "static", out);
        CHECK_INT(0, r);
        for (int i = 0; i < 3; i++) CHECK_CONTAINS(out, expect[i]);
    }
    /* the dynamic program records the SONAME, not the file name */
    if (have_tool("objdump")) {
        snprintf(cmd, sizeof cmd, "objdump -p %s/clash_shared | grep NEEDED | grep -c tritonc", dir);
        test_run(cmd, out, sizeof out);
        CHECK_STR("1\n", out);
        snprintf(cmd, sizeof cmd, "objdump -p %s/clash_shared | grep NEEDED", dir);
        test_run(cmd, out, sizeof out);
        char want[64];
        snprintf(want, sizeof want, "libtritonc.so.%.*s\n", (int)strcspn(TRITONC_VERSION, "."),
                 TRITONC_VERSION);
        CHECK_CONTAINS(out, want);
    }
}

/* ---- structs read and filled up to the caller's size --------------------------------- */

static const char *KSRC =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def inc(x, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(x + offs, tl.load(x + offs, mask=offs < n) + 1.0, mask=offs < n)\n";

static int all_bytes(const void *p, size_t n, unsigned char v) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v) return 0;
    return 1;
}

TEST(abi_launch_opts_size) {
    /* tc_launch_opts_init writes exactly size bytes */
    union { tc_launch_opts o; unsigned char b[sizeof(tc_launch_opts) + 32]; } u;
    memset(&u, 0xAB, sizeof u);
    size_t small = offsetof(tc_launch_opts, grid) + sizeof(uint32_t);
    tc_launch_opts_init(&u.o, small);
    CHECK_INT(small, u.o.size);
    CHECK_INT(1, u.o.grid[0]);
    CHECK(all_bytes(u.b + small, sizeof u - small, 0xAB));
    /* a newer program's larger struct: the fields this library does not know are zeroed */
    memset(&u, 0xAB, sizeof u);
    tc_launch_opts_init(&u.o, sizeof u);
    CHECK_INT(sizeof u, u.o.size);
    CHECK(all_bytes(u.b + sizeof(tc_launch_opts), 32, 0));
    tc_launch_opts d = tc_launch_defaults();
    CHECK_INT(sizeof d, d.size);
    CHECK(d.grid[0] == 1 && d.grid[1] == 1 && d.grid[2] == 1);
    CHECK_INT(4, d.num_warps);
    CHECK_INT(3, d.num_stages);
    CHECK(d.grid_fn == NULL && d.stream == NULL && d.check == 0 && d.threads == 0 &&
          d.shuffle_seed == 0);

    tc_context *ctx;
    tc_module *m;
    tc_kernel *k;
    tc_args *a;
    tc_tensor *x;
    tc_context_new(&ctx);
    tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "inc.py", KSRC, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "inc", &k));
    int64_t n = 8;
    float h[8] = {0}, r[8];
    tc_tensor_from_host(ctx, TC_FP32, 1, &n, h, &x);
    tc_args_new(k, &a);
    tc_args_set(a, "x", tc_tens(x));
    tc_args_set(a, "n", tc_int(8));
    tc_args_set(a, "BLOCK", tc_int(4));

    /* a size below 0.1's: not initialised by tc_launch_defaults */
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2;
    o.size = 0;
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &o));
    CHECK_CONTAINS(tc_errmsg(ctx), "tc_launch_defaults");
    o.size = offsetof(tc_launch_opts, shuffle_seed);
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &o));
    /* 0.1's size: every field it has is read (grid 2: both halves) */
    o.size = offsetof(tc_launch_opts, shuffle_seed) + sizeof(uint64_t);
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    /* a newer program's opts: the library reads its own part */
    u.o.grid[0] = 2;
    CHECK_INT(TC_OK, tc_launch(k, a, &u.o));
    tc_tensor_to_host(x, r, sizeof r);
    for (int i = 0; i < 8; i++) CHECK(r[i] == 2.0f);

    /* tc_last_launch and tc_kernel_stats fill the caller's size: no more, zeros past theirs */
    union { tc_launch_report r; unsigned char b[sizeof(tc_launch_report) + 16]; } lr;
    memset(&lr, 0xAB, sizeof lr);
    tc_last_launch(ctx, &lr.r, offsetof(tc_launch_report, num_warps));
    CHECK_INT(TC_BACKEND_INTERPRET, lr.r.backend);
    CHECK(all_bytes(lr.b + offsetof(tc_launch_report, num_warps),
                    sizeof lr - offsetof(tc_launch_report, num_warps), 0xAB));
    tc_last_launch(ctx, &lr.r, sizeof lr);
    CHECK_INT(0, lr.r.compiled);
    CHECK_INT(4, lr.r.num_warps);
    CHECK(all_bytes(lr.b + sizeof(tc_launch_report), 16, 0));
    memset(&lr, 0xAB, sizeof lr);
    tc_last_launch(NULL, &lr.r, sizeof lr.r);
    CHECK(all_bytes(lr.b, sizeof lr.r, 0) && all_bytes(lr.b + sizeof lr.r, 16, 0xAB));
    tc_last_launch(ctx, NULL, sizeof lr.r);  /* no crash */

    union { tc_stats s; unsigned char b[sizeof(tc_stats) + 8]; } st;
    memset(&st, 0xAB, sizeof st);
    tc_kernel_stats(k, &st.s, sizeof(int));
    CHECK_INT(1, st.s.specializations);
    CHECK(all_bytes(st.b + sizeof(int), sizeof st - sizeof(int), 0xAB));
    tc_kernel_stats(k, &st.s, sizeof st);
    CHECK_INT(2, st.s.launches);
    CHECK_INT(1, st.s.hits);
    CHECK(all_bytes(st.b + sizeof(tc_stats), 8, 0));

    tc_args_free(a);
    tc_tensor_free(x);
    tc_module_free(m);
    tc_context_free(ctx);
}
