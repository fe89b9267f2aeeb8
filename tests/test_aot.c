/* test_aot.c — ahead of time: signature types, tc_compile for targets with no
 * device, ptxas, the generated C pair (compiles with -Wall -Werror under gcc and clang),
 * dispatch by alignment (a small program against the generated pair, no GPU needed), target
 * selection at load time (fake driver), and `tritonc compile`. */
#include "test.h"
#include "aot/aot.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *AOT_SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=mask)\n"
    "    y = tl.load(y_ptr + offs, mask=mask)\n"
    "    tl.store(out_ptr + offs, x + y, mask=mask)\n";

static char tdir[256];

static void tdir_begin(const char *tag) {
    char cmd[700], out[64];
    snprintf(tdir, sizeof tdir, "/tmp/tritonc-test-aot-%d-%s", (int)getpid(), tag);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s/cache'", tdir, tdir);
    test_run(cmd, out, sizeof out);
    char c[300];
    snprintf(c, sizeof c, "%s/cache", tdir);
    setenv("TRITONC_CACHE_DIR", c, 1);
}

static void tdir_end(void) {
    char cmd[400], out[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tdir);
    test_run(cmd, out, sizeof out);
    unsetenv("TRITONC_CACHE_DIR");
}

typedef struct AK { tc_context *ctx; tc_module *m; tc_kernel *k; tc_args *a; } AK;

static int ak_open(AK *K, int block) {
    memset(K, 0, sizeof *K);
    if (tc_context_new(&K->ctx) || tc_module_load_string(K->ctx, "add.py", AOT_SRC, &K->m) ||
        tc_module_kernel(K->m, "add_kernel", &K->k) || tc_args_new(K->k, &K->a))
        return 0;
    return tc_args_set(K->a, "BLOCK", tc_int(block)) == TC_OK;
}

static void ak_close(AK *K) {
    tc_args_free(K->a);
    tc_module_free(K->m);
    tc_context_free(K->ctx);
}

static tc_compiled *ak_compile(AK *K, const char *target, const char *s0, const char *s1,
                               const char *s2, const char *s3) {
    const char *sig[4] = {s0, s1, s2, s3};
    tc_target t;
    tc_compiled *c = NULL;
    if (tc_target_parse(target, &t)) return NULL;
    if (tc_compile(K->k, &t, sig, 4, K->a, 4, 3, &c)) return NULL;
    return c;
}

static int is_san(void) { return strstr(test_build_dir(), "san") != NULL; }

static int have_cc(const char *cc) {
    char cmd[128], out[256];
    snprintf(cmd, sizeof cmd, "command -v %s", cc);
    return test_run(cmd, out, sizeof out) == 0;
}

/* ---- signatures ------------------------------------------------------------------------ */

TEST(aot_parse_signature_types) {
    tc_compiled_param p;
    CHECK(aot_parse_sig("*fp32:16", &p));
    CHECK(p.is_ptr && p.typed && p.dtype == TC_FP32 && p.hint == 16 && !p.fixed);
    CHECK(aot_parse_sig("*fp16", &p));
    CHECK(p.is_ptr && p.dtype == TC_FP16 && p.hint == 0);
    CHECK(aot_parse_sig("*kbf16", &p));
    CHECK(p.is_ptr && p.dtype == TC_BF16);
    CHECK(aot_parse_sig("i32", &p));
    CHECK(!p.is_ptr && p.dtype == TC_I32 && !p.hint);
    CHECK(aot_parse_sig("i64:16", &p));
    CHECK(p.dtype == TC_I64 && p.hint == 16);
    CHECK(aot_parse_sig("i32:1", &p));
    CHECK(p.hint == 1 && p.fixed && p.value == 1 && p.typed);
    CHECK(aot_parse_sig("u1", &p));
    CHECK(p.dtype == TC_I1);
    CHECK(aot_parse_sig("fp32", &p));
    CHECK(p.dtype == TC_FP32);
    CHECK(aot_parse_sig("1024", &p));
    CHECK(p.fixed && !p.typed && p.value == 1024);
    CHECK(aot_parse_sig("-3", &p));
    CHECK(p.fixed && p.value == -3);
    CHECK(!aot_parse_sig("fp32:16", &p));   /* floats have no divisibility */
    CHECK(!aot_parse_sig("*fp32:8", &p));   /* only 1 and 16 are hints */
    CHECK(!aot_parse_sig("*fp32:1", &p));   /* a pointer equal to 1? */
    CHECK(!aot_parse_sig("i32:", &p));
    CHECK(!aot_parse_sig("bogus", &p));
    CHECK(!aot_parse_sig("", &p));
    CHECK(!aot_parse_sig("*", &p));
    CHECK(!aot_parse_sig(NULL, &p));
}

TEST(aot_compile_errors) {
    AK K;
    CHECK(ak_open(&K, 128));
    tc_target t;
    tc_target_parse("cuda:80", &t);
    const char *sig3[3] = {"*fp32", "*fp32", "*fp32"};
    tc_compiled *c = NULL;
    CHECK_INT(TC_ERR_ARG, tc_compile(K.k, &t, sig3, 3, K.a, 4, 3, &c));
    CHECK_CONTAINS(tc_errmsg(K.ctx), "4 runtime parameters but 3");
    const char *bad[4] = {"*fp32", "*fp32", "*fp32", "int"};
    CHECK_INT(TC_ERR_ARG, tc_compile(K.k, &t, bad, 4, K.a, 4, 3, &c));
    CHECK_CONTAINS(tc_errmsg(K.ctx), "bad signature type 'int' for parameter 'n'");
    const char *ok[4] = {"*fp32", "*fp32", "*fp32", "i32"};
    CHECK_INT(TC_ERR_ARG, tc_compile(K.k, &t, ok, 4, K.a, 3, 3, &c));
    CHECK_CONTAINS(tc_errmsg(K.ctx), "power of 2");
    tc_args *empty = NULL;
    tc_args_new(K.k, &empty);
    CHECK_INT(TC_ERR_ARG, tc_compile(K.k, &t, ok, 4, empty, 4, 3, &c));
    CHECK_CONTAINS(tc_errmsg(K.ctx), "missing constexpr 'BLOCK'");
    tc_args_free(empty);
    CHECK(c == NULL);
    ak_close(&K);
}

TEST(aot_compile_targets_without_device) {
    tdir_begin("tgt");
    AK K;
    CHECK(ak_open(&K, 256));
    tc_compiled *a = ak_compile(&K, "cuda:80", "*fp32:16", "*fp32:16", "*fp32:16", "i32");
    tc_compiled *b = ak_compile(&K, "sm_90a", "*fp32:16", "*fp32:16", "*fp32:16", "i32");
    CHECK(a && b);
    if (a && b) {
        CHECK_CONTAINS(a->ptx, ".target sm_80");
        CHECK_CONTAINS(b->ptx, ".target sm_90a");
        CHECK_STR("cuda:80", a->target_name);
        CHECK_STR("cuda:90a", b->target_name);
        CHECK_STR("add_kernel", a->name);
        CHECK_INT(128, a->threads);
        CHECK_INT(4, a->nparams);
        CHECK_INT(4, a->nargs);
        CHECK_STR("out_ptr", a->args[2].name);
        CHECK_INT(2, a->args[2].index);
        CHECK(a->args[0].is_ptr && a->args[0].hint == 16);
        CHECK_STR("*fp32:16, *fp32:16, *fp32:16, i32, BLOCK=256", a->specialization);
    }
    tc_compiled_free(a);
    tc_compiled_free(b);
    /* n equal to 1 is folded: three entry parameters */
    tc_compiled *c = ak_compile(&K, "cuda:80", "*fp32", "*fp32", "*fp32", "i32:1");
    CHECK(c && c->nparams == 3 && c->nargs == 4 && c->args[3].fixed);
    CHECK(c && strstr(c->specialization, "n=1"));
    tc_compiled_free(c);
    /* a bare number is baked in too */
    c = ak_compile(&K, "cuda:80", "*fp32", "*fp32", "*fp32", "1000");
    CHECK(c && c->nparams == 3 && !c->args[3].typed && c->args[3].value == 1000);
    tc_compiled_free(c);
    /* num_warps reaches the code */
    const char *sig[4] = {"*fp32", "*fp32", "*fp32", "i32"};
    tc_target t;
    tc_target_parse("cuda:90a", &t);
    CHECK_INT(TC_OK, tc_compile(K.k, &t, sig, 4, K.a, 8, 2, &c));
    CHECK(c && c->threads == 256 && c->num_warps == 8 && c->num_stages == 2);
    tc_compiled_free(c);
    ak_close(&K);
    tdir_end();
}

TEST(aot_ptxas_cubin) {
    tdir_begin("ptxas");
    AK K;
    CHECK(ak_open(&K, 256));
    tc_compiled *c = ak_compile(&K, "cuda:90a", "*fp32:16", "*fp32:16", "*fp32:16", "i32");
    CHECK(c != NULL);
    char saved[4096] = "";
    const char *env = getenv("TRITONC_PTXAS");
    if (env) snprintf(saved, sizeof saved, "%s", env);
    setenv("TRITONC_PTXAS", "/nonexistent/ptxas", 1);
    char p[4096];
    CHECK_INT(TC_ERR_NOT_FOUND, tc_ptxas_path(p, sizeof p));
    if (c) {
        CHECK_INT(TC_ERR_NOT_FOUND, tc_compiled_assemble(K.ctx, c));
        CHECK_CONTAINS(tc_errmsg(K.ctx), "TRITONC_PTXAS=/nonexistent/ptxas");
    }
    if (saved[0]) setenv("TRITONC_PTXAS", saved, 1);
    else unsetenv("TRITONC_PTXAS");
    if (c && tc_ptxas_path(p, sizeof p) == TC_OK) {
        CHECK_INT(TC_OK, tc_compiled_assemble(K.ctx, c));
        CHECK(c->cubin && c->cubin_size > 64);
        CHECK(c->cubin && memcmp(c->cubin, "\177ELF", 4) == 0);
        CHECK(c->num_regs > 0);
        /* the cubin went into the disk cache entry: the next compile has it, and assembling
         * it again runs no ptxas */
        tc_compiled *again = ak_compile(&K, "cuda:90a", "*fp32:16", "*fp32:16", "*fp32:16", "i32");
        CHECK(again && again->disk_cache == TC_CACHE_HIT);
        CHECK(again && again->cubin_size == c->cubin_size && again->cubin &&
              memcmp(again->cubin, c->cubin, c->cubin_size) == 0);
        CHECK(again && again->num_regs == c->num_regs);
        setenv("TRITONC_PTXAS", "/nonexistent/ptxas", 1);
        CHECK(again && tc_compiled_assemble(K.ctx, again) == TC_OK);
        if (saved[0]) setenv("TRITONC_PTXAS", saved, 1);
        else unsetenv("TRITONC_PTXAS");
        tc_compiled_free(again);
        /* a broken PTX: ptxas's error with the repro command */
        free(c->cubin);
        c->cubin = NULL;
        c->cubin_size = 0;
        char *keep = c->ptx;
        c->ptx = (char *)".version 8.0\n.target sm_90a\nthis is not ptx\n";
        CHECK_INT(TC_ERR_COMPILE, tc_compiled_assemble(K.ctx, c));
        CHECK_CONTAINS(tc_errmsg(K.ctx), "`ptxas` failed with error code");
        CHECK_CONTAINS(tc_errmsg(K.ctx), "Repro command:");
        c->ptx = keep;
    } else {
        fprintf(stderr, "SKIP part of %s: no ptxas\n", test_current);
    }
    tc_compiled_free(c);
    ak_close(&K);
    tdir_end();
}

/* ---- the generated C ------------------------------------------------------------------- */

static const char *DISPATCH_MAIN =
    "#include \"add_kernel.h\"\n"
    "#include <stdio.h>\n"
    "int main(void) {\n"
    "    printf(\"select %d %d %d %d %d %d\\n\",\n"
    "           add_kernel_select(0x1000, 0x2000, 0x3000, 32),\n"
    "           add_kernel_select(0x1000, 0x2000, 0x3000, 33),\n"
    "           add_kernel_select(0x1004, 0x2000, 0x3000, 32),\n"
    "           add_kernel_select(0x1000, 0x2000, 0x3000, 1),\n"
    "           add_kernel_select(0x1001, 0x2001, 0x3001, 1),\n"
    "           add_kernel_select(0x1000, 0x2000, 0x3008, 48));\n"
    "    uint32_t grid[3] = {1, 1, 1};\n"
    "    printf(\"unloaded launch %s\\n\", tc_status_name(add_kernel_launch_ptrs(NULL, grid, 0, 0, 0, 4)));\n"
    "    tc_context *ctx = NULL;\n"
    "    if (tc_context_new(&ctx)) return 1;\n"
    "    tc_status s = add_kernel_load(ctx);\n"
    "    printf(\"load %s\\n\", tc_status_name(s));\n"
    "    if (s) printf(\"message %s\\n\", tc_errmsg(ctx));\n"
    "    else printf(\"loaded %s | %s | %s\\n\", add_kernel_loaded(0), add_kernel_loaded(1), add_kernel_loaded(2));\n"
    "    static const unsigned char cub[4] = {1, 2, 3, 4};\n"
    "    tc_binary_desc d[3] = {{\"k\", \"cuda:80\", \"ptx\", NULL, 0, 128, 0, 0},\n"
    "                           {\"k\", \"cuda:90a\", \"ptx\", NULL, 0, 128, 0, 0},\n"
    "                           {\"k\", \"cuda:86\", NULL, cub, 4, 128, 0, 0}};\n"
    "    int i = -1;\n"
    "    s = tc_binary_select(ctx, d, 3, &i);\n"
    "    printf(\"binary_select %s %d\\n\", tc_status_name(s), i);\n"
    "    if (s) printf(\"message %s\\n\", tc_errmsg(ctx));\n"
    "    add_kernel_unload();\n"
    "    tc_context_free(ctx);\n"
    "    return 0;\n"
    "}\n";

/* Writes the pair for three signatures (all aligned; n == 1; anything) x two targets. */
static int make_pair(AK *K, const char *dir) {
    tc_compiled *v[6] = {0};
    const char *tg[2] = {"cuda:80", "cuda:90a"};
    int n = 0;
    for (int t = 0; t < 2; t++) {
        v[n++] = ak_compile(K, tg[t], "*fp32", "*fp32", "*fp32", "i32");              /* any */
        v[n++] = ak_compile(K, tg[t], "*fp32:16", "*fp32:16", "*fp32:16", "i32:16");  /* aligned */
        v[n++] = ak_compile(K, tg[t], "*fp32", "*fp32", "*fp32", "i32:1");            /* n == 1 */
    }
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= v[i] != NULL;
    char h[512], c[512];
    snprintf(h, sizeof h, "%s/add_kernel.h", dir);
    snprintf(c, sizeof c, "%s/add_kernel.c", dir);
    if (ok) ok = tc_emit_c(K->k, v, n, "add_kernel", h, c, "add_kernel.h") == TC_OK;
    if (!ok) fprintf(stderr, "  %s\n", tc_errmsg(K->ctx));
    for (int i = 0; i < n; i++) tc_compiled_free(v[i]);
    return ok;
}

TEST(aot_generated_c_compiles_cleanly) {
    tdir_begin("gen");
    AK K;
    CHECK(ak_open(&K, 256));
    CHECK(make_pair(&K, tdir));
    char cmd[2000], out[8192], hp[512];
    snprintf(hp, sizeof hp, "%s/add_kernel.h", tdir);
    FILE *f = fopen(hp, "r");
    CHECK(f != NULL);
    if (f) {
        size_t n = fread(out, 1, sizeof out - 1, f);
        out[n] = 0;
        fclose(f);
        CHECK_CONTAINS(out, "tc_status add_kernel_load(tc_context *ctx);");
        CHECK_CONTAINS(out, "tc_status add_kernel_launch(const uint32_t grid[3], tc_tensor *x_ptr, "
                            "tc_tensor *y_ptr, tc_tensor *out_ptr, int32_t n);");
        CHECK_CONTAINS(out, "int add_kernel_select(uint64_t x_ptr, uint64_t y_ptr, uint64_t out_ptr, int32_t n);");
        CHECK_CONTAINS(out, "#include <tritonc.h>");
        CHECK_CONTAINS(out, "#define ADD_KERNEL_NUM_SIGNATURES 3");
        CHECK_CONTAINS(out, "0: *fp32:16, *fp32:16, *fp32:16, i32:16, BLOCK=256  [cuda:80 cuda:90a]");
    }
    const char *ccs[2] = {"gcc", "clang"};
    for (int i = 0; i < 2; i++) {
        if (!have_cc(ccs[i])) { fprintf(stderr, "SKIP %s with %s\n", test_current, ccs[i]); continue; }
        snprintf(cmd, sizeof cmd, "%s -std=c11 -Wall -Werror -Iinclude -c %s/add_kernel.c -o %s/ak_%s.o",
                 ccs[i], tdir, tdir, ccs[i]);
        int r = test_run(cmd, out, sizeof out);
        if (r) fprintf(stderr, "%s\n", out);
        CHECK_INT(0, r);
        snprintf(cmd, sizeof cmd, "%s -std=c11 -Wall -Wextra -pedantic -Werror -Iinclude -c %s/add_kernel.c -o /dev/null",
                 ccs[i], tdir);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
    }
    if (have_cc("g++")) {
        snprintf(cmd, sizeof cmd, "g++ -x c++ -Wall -Werror -Iinclude -c %s/add_kernel.c -o /dev/null", tdir);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
    }
    ak_close(&K);
    tdir_end();
}

/* ---- a failed write keeps the old file ---------------------------------------------------- */

static void put(const char *dir, const char *name, const char *text) {
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f) { fputs(text, f); fclose(f); }
}

static int holds(const char *dir, const char *name, const char *text) {
    char p[600], b[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    if (!f) return 0;
    size_t n = fread(b, 1, sizeof b - 1, f);
    b[n] = 0;
    fclose(f);
    return strcmp(b, text) == 0;
}

/* Files in dir other than those named (NULL-terminated). */
static int others(const char *dir, const char *const *names) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        int known = 0;
        for (const char *const *q = names; *q; q++) known |= !strcmp(*q, de->d_name);
        if (!known) { fprintf(stderr, "  left behind: %s\n", de->d_name); n++; }
    }
    if (d) closedir(d);
    return n;
}

/* tc_emit_c, `tritonc compile -o`, `compile --emit c` and `run --save` under a file size
 * limit (as on a full disk): each fails, and the old files are as they were with no
 * temporary file left beside them. */
TEST(aot_failed_write_keeps_old_file) {
    tdir_begin("fsize");
    char out[4096], cmd[2000], dir[400];
    snprintf(dir, sizeof dir, "%s/out", tdir);
    mkdir(dir, 0755);
    put(dir, "add_kernel.h", "old h\n");
    put(dir, "add_kernel.c", "old c\n");
    put(dir, "k.ptx", "old ptx\n");
    put(dir, "o.npy", "old npy\n");
    AK K;
    CHECK(ak_open(&K, 256));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl = {200, 200};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &rl);
        _exit(make_pair(&K, dir) ? 0 : strstr(tc_errmsg(K.ctx), "File too large") ? 3 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3);
    ak_close(&K);
    /* the command: a shell that ignores SIGXFSZ with a limit of one 512-byte block */
    const char *lim = "trap '' XFSZ; ulimit -f 1;";
    snprintf(cmd, sizeof cmd, "%s %s/tritonc compile examples/chapter10.py add_kernel --target cuda:80 "
             "x_ptr='*fp32' y_ptr='*fp32' out_ptr='*fp32' n=i32 BLOCK=1024 -o %s/k.ptx",
             lim, test_build_dir(), dir);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "cannot write");
    snprintf(cmd, sizeof cmd, "%s %s/tritonc compile examples/chapter10.py add_kernel --target cuda:80 "
             "x_ptr='*fp32' y_ptr='*fp32' out_ptr='*fp32' n=i32 BLOCK=1024 --emit c -o %s/add_kernel",
             lim, test_build_dir(), dir);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    snprintf(cmd, sizeof cmd, "%s %s/tritonc run examples/chapter10.py add_kernel --interpret "
             "x_ptr='fp32:ones(4096)' y_ptr='fp32:ones(4096)' out_ptr='fp32:zeros(4096)' n=4096 "
             "BLOCK=1024 --grid 4 --save out_ptr=%s/o.npy", lim, test_build_dir(), dir);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "File too large");
    CHECK(holds(dir, "add_kernel.h", "old h\n"));
    CHECK(holds(dir, "add_kernel.c", "old c\n"));
    CHECK(holds(dir, "k.ptx", "old ptx\n"));
    CHECK(holds(dir, "o.npy", "old npy\n"));
    const char *names[] = {"add_kernel.h", "add_kernel.c", "k.ptx", "o.npy", NULL};
    CHECK_INT(0, others(dir, names));
    /* without the limit they are replaced, keeping their mode */
    char kp[600];
    snprintf(kp, sizeof kp, "%s/k.ptx", dir);
    chmod(kp, 0640);
    snprintf(cmd, sizeof cmd, "%s/tritonc compile examples/chapter10.py add_kernel --target cuda:80 "
             "x_ptr='*fp32' y_ptr='*fp32' out_ptr='*fp32' n=i32 BLOCK=1024 -o %s/k.ptx", test_build_dir(), dir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK(!holds(dir, "k.ptx", "old ptx\n"));
    struct stat sb;
    CHECK(stat(kp, &sb) == 0 && (sb.st_mode & 07777) == 0640 && sb.st_size > 200);
    CHECK_INT(0, others(dir, names));
    tdir_end();
}

TEST(aot_dispatch_by_alignment) {
    tdir_begin("disp");
    AK K;
    CHECK(ak_open(&K, 256));
    CHECK(make_pair(&K, tdir));
    ak_close(&K);
    char cmd[3000], out[8192], mp[512];
    snprintf(mp, sizeof mp, "%s/main.c", tdir);
    FILE *f = fopen(mp, "w");
    if (f) { fputs(DISPATCH_MAIN, f); fclose(f); }
    char lib[512];
    snprintf(lib, sizeof lib, "%s/libtritonc.a", test_build_dir());
    if (access(lib, R_OK) != 0) {
        fprintf(stderr, "SKIP %s: %s is missing\n", test_current, lib);
        tdir_end();
        return;
    }
    snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall -Werror %s -Iinclude -I%s -o %s/prog %s %s/add_kernel.c %s -lm -ldl -lpthread",
             is_san() ? "-fsanitize=address,undefined" : "", tdir, tdir, mp, tdir, lib);
    int r = test_run(cmd, out, sizeof out);
    if (r) fprintf(stderr, "%s\n", out);
    CHECK_INT(0, r);
    if (r) { tdir_end(); return; }
    /* signatures in order: 0 aligned (4 conditions), 1 n == 1, 2 anything */
    snprintf(cmd, sizeof cmd, "TRITONC_LIBCUDA_PATH=/nonexistent %s/prog", tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "select 0 2 2 1 1 2\n");
    CHECK_CONTAINS(out, "unloaded launch TC_ERR_NOT_FOUND\n");
    /* no GPU: the honest refusal */
    CHECK_CONTAINS(out, "load TC_ERR_NO_DRIVER\n");
    CHECK_CONTAINS(out, "message 0 active drivers ([]). There should only be one.");
    CHECK_CONTAINS(out, "binary_select TC_ERR_NO_DRIVER -1");
    /* the fake driver (an H200: sm_90): the exact arch is picked at load time */
    char fake[600];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake, R_OK) != 0) {
        fprintf(stderr, "SKIP part of %s: %s is missing\n", test_current, fake);
        tdir_end();
        return;
    }
    snprintf(cmd, sizeof cmd, "TRITONC_LIBCUDA_PATH=%s %s/prog", fake, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "load TC_OK\n");
    CHECK_CONTAINS(out, "loaded cuda:90a (ptx) | cuda:90a (ptx) | cuda:90a (ptx)\n");
    CHECK_CONTAINS(out, "binary_select TC_OK 1\n");
    /* an sm_86 device: its cubin-only entry (exact); an sm_89: the PTX of cuda:80 */
    snprintf(cmd, sizeof cmd, "TRITON_OVERRIDE_ARCH=sm86 TRITONC_LIBCUDA_PATH=%s %s/prog", fake, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "binary_select TC_OK 2\n");
    CHECK_CONTAINS(out, "loaded cuda:80 (ptx) | cuda:80 (ptx) | cuda:80 (ptx)\n");
    snprintf(cmd, sizeof cmd, "TRITON_OVERRIDE_ARCH=sm89 TRITONC_LIBCUDA_PATH=%s %s/prog", fake, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "binary_select TC_OK 0\n");
    /* an sm_75 device: nothing fits */
    snprintf(cmd, sizeof cmd, "TRITON_OVERRIDE_ARCH=sm75 TRITONC_LIBCUDA_PATH=%s %s/prog", fake, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "load TC_ERR_NOT_FOUND\n");
    CHECK_CONTAINS(out, "compiled for: cuda:80, cuda:90a");
    CHECK_CONTAINS(out, "binary_select TC_ERR_NOT_FOUND -1");
    /* an sm_100 device: sm_90a code is arch-specific, so cuda:80's PTX */
    snprintf(cmd, sizeof cmd, "TRITON_OVERRIDE_ARCH=sm100 TRITONC_LIBCUDA_PATH=%s %s/prog", fake, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "loaded cuda:80 (ptx)");
    tdir_end();
}

TEST(aot_emit_c_refuses_disagreeing_types) {
    tdir_begin("dis");
    AK K;
    CHECK(ak_open(&K, 256));
    tc_compiled *v[2] = {ak_compile(&K, "cuda:80", "*fp32", "*fp32", "*fp32", "i32"),
                         ak_compile(&K, "cuda:80", "*fp32", "*fp32", "*fp32", "i64")};
    CHECK(v[0] && v[1]);
    char h[512], c[512];
    snprintf(h, sizeof h, "%s/x.h", tdir);
    snprintf(c, sizeof c, "%s/x.c", tdir);
    if (v[0] && v[1]) {
        CHECK_INT(TC_ERR_ARG, tc_emit_c(K.k, v, 2, "x", h, c, "x.h"));
        CHECK_CONTAINS(tc_errmsg(K.ctx), "disagree on the type of 'n'");
        CHECK_INT(TC_ERR_ARG, tc_emit_c(K.k, v, 1, "not an identifier", h, c, "x.h"));
        tc_compiled *same[2] = {v[0], v[0]};
        CHECK_INT(TC_ERR_ARG, tc_emit_c(K.k, same, 2, "x", h, c, "x.h"));
        CHECK_CONTAINS(tc_errmsg(K.ctx), "compiled twice for cuda:80");
    }
    tc_compiled_free(v[0]);
    tc_compiled_free(v[1]);
    ak_close(&K);
    tdir_end();
}

/* ---- tritonc compile --------------------------------------------------------------------- */

static int cli_has_aot(char *exe, size_t n) {
    char out[8192], cmd[600];
    snprintf(exe, n, "%s/tritonc", test_build_dir());
    snprintf(cmd, sizeof cmd, "%s compile --help", exe);
    if (test_run(cmd, out, sizeof out) == 0 && strstr(out, "--signature")) return 1;
    fprintf(stderr, "SKIP %s: %s compile has no --signature yet\n", test_current, exe);
    return 0;
}

TEST(aot_cli_compile) {
    char exe[512], cmd[3000], out[8192];
    if (!cli_has_aot(exe, sizeof exe)) return;
    tdir_begin("cli");
    const char *k = "examples/chapter10.py add_kernel";
    /* --emit c, two targets, two signatures */
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 --target cuda:90a --emit c "
             "--signature '*fp32:16, *fp32:16, *fp32:16, i32' -s '*fp32, *fp32, *fp32, i32' "
             "BLOCK=1024 -o %s/ak --verbose", exe, k, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "for cuda:90a: cache miss");
    CHECK_CONTAINS(out, "(4 variants)");
    char p[600];
    snprintf(p, sizeof p, "%s/ak.h", tdir);
    CHECK(access(p, R_OK) == 0);
    snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall -Werror -Iinclude -c %s/ak.c -o %s/ak.o", tdir, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    /* --name, constexprs inside the list */
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 --emit c --name vadd "
             "-s '*fp32, *fp32, *fp32, i32, 64' -o %s/vadd", exe, k, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    snprintf(cmd, sizeof cmd, "grep -c 'tc_status vadd_launch(' %s/vadd.h", tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    snprintf(cmd, sizeof cmd, "grep -q 'BLOCK=64' %s/vadd.h", tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    /* --emit ptx for two targets: two files */
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 --target cuda:90a x_ptr='*fp32' "
             "y_ptr='*fp32' out_ptr='*fp32' n=i32 BLOCK=128 -o %s/k.ptx && ls %s", exe, k, tdir, tdir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "k.ptx.0.sm_80.ptx");
    CHECK_CONTAINS(out, "k.ptx.0.sm_90a.ptx");
    /* one variant to standard output */
    snprintf(cmd, sizeof cmd, "%s compile %s --target sm_90a -s '*fp32, *fp32, *fp32, i32' BLOCK=128", exe, k);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, ".target sm_90a");
    CHECK_CONTAINS(out, ".entry add_kernel");
    /* --emit cubin without ptxas: a clear error */
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 --emit cubin --ptxas /nonexistent/ptxas "
             "-s '*fp32, *fp32, *fp32, i32' BLOCK=128 -o %s/k.cubin", exe, k, tdir);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "cannot find ptxas");
    char px[4096];
    if (tc_ptxas_path(px, sizeof px) == TC_OK) {
        snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:90a --emit cubin "
                 "-s '*fp32, *fp32, *fp32, i32' BLOCK=128 -o %s/k.cubin && head -c 4 %s/k.cubin", exe, k, tdir, tdir);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        CHECK_CONTAINS(out, "ELF");
    }
    /* usage errors */
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 -s '*fp32:8, *fp32, *fp32, i32' BLOCK=128", exe, k);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "bad signature type '*fp32:8'");
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 -s '*fp32, i32' BLOCK=128", exe, k);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "has 2 types");
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 --emit c -s '*fp32, *fp32, *fp32, i32' "
             "-s '*fp32, *fp32, *fp32, i64' BLOCK=128 -o %s/bad", exe, k, tdir);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "disagree");
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 --emit c BLOCK=128", exe, k);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    snprintf(cmd, sizeof cmd, "%s compile %s --target hip:gfx942 BLOCK=128", exe, k);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    /* no --target: a usage error, no device is asked */
    snprintf(cmd, sizeof cmd, "TRITONC_LIBCUDA_PATH=/nonexistent %s compile %s -s '*fp32, *fp32, *fp32, i32' BLOCK=128", exe, k);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "--target cuda:ARCH is required");
    /* the old form's messages still hold */
    snprintf(cmd, sizeof cmd, "%s compile %s --target cuda:80 x_ptr='*fp32'", exe, k);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "needs a type");
    tdir_end();
}

/* Parameter names that are C keywords or the launcher's own names still give valid C. */
TEST(aot_emit_c_awkward_names) {
    tdir_begin("names");
    static const char *src =
        "import triton\n"
        "import triton.language as tl\n"
        "\n"
        "@triton.jit\n"
        "def k(grid, s, p0, default, tc_s, N: tl.constexpr):\n"
        "    offs = tl.arange(0, N)\n"
        "    x = tl.load(s + offs) + tl.load(p0 + offs)\n"
        "    tl.store(grid + offs, x + default + tc_s)\n";
    tc_context *ctx = NULL;
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    tc_args *a = NULL;
    CHECK(!tc_context_new(&ctx) && !tc_module_load_string(ctx, "k.py", src, &m) &&
          !tc_module_kernel(m, "k", &k) && !tc_args_new(k, &a) && !tc_args_set(a, "N", tc_int(64)));
    const char *s1[5] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32:16", "i32"};
    const char *s2[5] = {"*fp32", "*fp32", "*fp32", "i32", "i32:1"};
    tc_target t;
    tc_target_parse("cuda:80", &t);
    tc_compiled *v[2] = {NULL, NULL};
    CHECK_INT(TC_OK, tc_compile(k, &t, s1, 5, a, 4, 3, &v[0]));
    CHECK_INT(TC_OK, tc_compile(k, &t, s2, 5, a, 4, 3, &v[1]));
    char h[512], c[512], cmd[2000], out[4096];
    snprintf(h, sizeof h, "%s/k.h", tdir);
    snprintf(c, sizeof c, "%s/k.c", tdir);
    if (v[0] && v[1]) {
        CHECK_INT(TC_OK, tc_emit_c(k, v, 2, "k", h, c, "k.h"));
        snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall -Wextra -Werror -Iinclude -c %s -o /dev/null", c);
        int r = test_run(cmd, out, sizeof out);
        if (r) fprintf(stderr, "%s\n", out);
        CHECK_INT(0, r);
        snprintf(cmd, sizeof cmd, "grep -c 'uint64_t grid_, uint64_t s, uint64_t p0, int32_t default_, int32_t tc_s_' %s", h);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
    }
    tc_compiled_free(v[0]);
    tc_compiled_free(v[1]);
    tc_args_free(a);
    tc_module_free(m);
    tc_context_free(ctx);
    tdir_end();
}
