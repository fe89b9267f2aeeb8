/* test_cache.c — the disk cache: SHA-256, the entry format and its hardened reader,
 * keys, hits in one process and across processes, concurrent writers, corruption recovery,
 * TRITONC_ALWAYS_COMPILE, listing and clearing, no $HOME. Every test uses its own
 * TRITONC_CACHE_DIR under /tmp and removes it. */
#include "test.h"
#include "runtime/cache.h"
#include "aot/aot.h"
#include "trace/trace.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *ADD_SRC =
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

static const char *SIG_A[4] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32"};
static const char *SIG_B[4] = {"*fp32", "*fp32", "*fp32", "i32"};

static char cdir[256];

static void cache_begin(const char *tag) {
    char cmd[400], out[64];
    snprintf(cdir, sizeof cdir, "/tmp/tritonc-test-cache-%d-%s", (int)getpid(), tag);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cdir);
    test_run(cmd, out, sizeof out);
    setenv("TRITONC_CACHE_DIR", cdir, 1);
    unsetenv("TRITONC_ALWAYS_COMPILE");
}

static void cache_end(void) {
    char cmd[400], out[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cdir);
    test_run(cmd, out, sizeof out);
    unsetenv("TRITONC_CACHE_DIR");
    unsetenv("TRITONC_ALWAYS_COMPILE");
}

typedef struct Kern { tc_context *ctx; tc_module *m; tc_kernel *k; tc_args *a; } Kern;

static int kern_open(Kern *K, const char *src, int block) {
    memset(K, 0, sizeof *K);
    if (tc_context_new(&K->ctx)) return 0;
    if (tc_module_load_string(K->ctx, "add.py", src, &K->m)) return 0;
    if (tc_module_kernel(K->m, "add_kernel", &K->k)) return 0;
    if (tc_args_new(K->k, &K->a)) return 0;
    return tc_args_set(K->a, "BLOCK", tc_int(block)) == TC_OK;
}

static void kern_close(Kern *K) {
    tc_args_free(K->a);
    tc_module_free(K->m);
    tc_context_free(K->ctx);
}

static tc_compiled *compile_for(Kern *K, const char *target, const char **sig) {
    tc_target t;
    tc_compiled *c = NULL;
    if (tc_target_parse(target, &t)) return NULL;
    if (tc_compile(K->k, &t, sig, 4, K->a, 4, 3, &c)) return NULL;
    return c;
}

/* The one entry file in cdir (path into buf); the count of entries. */
static int entry_files(char *buf, size_t n) {
    DIR *d = opendir(cdir);
    int cnt = 0;
    if (!d) return 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l == 68 && strcmp(de->d_name + 64, ".tcc") == 0) {
            cnt++;
            if (buf) snprintf(buf, n, "%s/%s", cdir, de->d_name);
        }
    }
    closedir(d);
    return cnt;
}

static int tmp_files(void) {
    DIR *d = opendir(cdir);
    int cnt = 0;
    if (!d) return 0;
    struct dirent *de;
    while ((de = readdir(d))) cnt += strncmp(de->d_name, ".tmp.", 5) == 0;
    closedir(d);
    return cnt;
}

static uint8_t *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
    *n = b ? fread(b, 1, (size_t)len, f) : 0;
    fclose(f);
    return b;
}

static void spit(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    if (n) fwrite(p, 1, n, f);
    fclose(f);
}

/* ---- SHA-256 and the entry format ------------------------------------------------------ */

TEST(cache_sha256_vectors) {
    uint8_t h[32];
    char hx[65];
    sha256("", 0, h);
    sha256_hex(h, hx);
    CHECK_STR("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hx);
    sha256("abc", 3, h);
    sha256_hex(h, hx);
    CHECK_STR("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hx);
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256(m, strlen(m), h);
    sha256_hex(h, hx);
    CHECK_STR("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", hx);
    /* incremental in odd pieces equals one shot */
    static char big[1000];
    for (int i = 0; i < 1000; i++) big[i] = (char)('a' + i % 26);
    uint8_t h1[32], h2[32];
    sha256(big, sizeof big, h1);
    Sha256 s;
    sha256_init(&s);
    for (size_t o = 0; o < sizeof big; o += 7) sha256_update(&s, big + o, sizeof big - o < 7 ? sizeof big - o : 7);
    sha256_final(&s, h2);
    CHECK(memcmp(h1, h2, 32) == 0);
}

static CacheMeta sample_meta(void) {
    CacheMeta m;
    memset(&m, 0, sizeof m);
    snprintf(m.kernel, sizeof m.kernel, "add_kernel");
    snprintf(m.target, sizeof m.target, "cuda:90a");
    m.threads = 128; m.shared_bytes = 512; m.num_regs = 30; m.num_warps = 4; m.num_stages = 3;
    m.nparams = 2;
    m.params[0] = (CacheParam){0, TC_FP32, CACHE_PARAM_PTR | CACHE_PARAM_DIV16};
    m.params[1] = (CacheParam){3, TC_I32, 0};
    return m;
}

TEST(cache_entry_roundtrip) {
    CacheMeta m = sample_meta();
    const char cub[5] = {1, 2, 0, 4, 5};
    size_t n = 0;
    uint8_t *b = cache_entry_build("key text\n", &m, ".version 8.0\n", cub, sizeof cub, &n);
    CHECK(b != NULL);
    if (!b) return;
    CacheEntry e;
    char why[128];
    CHECK_INT(0, cache_entry_parse(b, n, &e, why, sizeof why));
    CHECK_STR("key text\n", e.key);
    CHECK_STR(".version 8.0\n", e.ptx);
    CHECK_INT(13, e.ptx_len);
    CHECK_INT(5, e.cubin_len);
    CHECK(e.cubin && memcmp(e.cubin, cub, 5) == 0);
    CHECK_STR("add_kernel", e.meta.kernel);
    CHECK_STR("cuda:90a", e.meta.target);
    CHECK_INT(128, e.meta.threads);
    CHECK_INT(512, e.meta.shared_bytes);
    CHECK_INT(30, e.meta.num_regs);
    CHECK_INT(2, e.meta.nparams);
    CHECK_INT(3, e.meta.params[1].index);
    CHECK_INT(CACHE_PARAM_PTR | CACHE_PARAM_DIV16, e.meta.params[0].flags);
    /* no cubin */
    size_t n2 = 0;
    uint8_t *b2 = cache_entry_build("k", &m, "p", NULL, 0, &n2);
    CHECK(b2 && cache_entry_parse(b2, n2, &e, why, sizeof why) == 0 && e.cubin == NULL && e.cubin_len == 0);
    free(b2);
    free(b);
}

TEST(cache_entry_rejects_damage) {
    CacheMeta m = sample_meta();
    size_t n = 0;
    uint8_t *b = cache_entry_build("tritonc key\n", &m, "// ptx\n.entry add_kernel()\n", "CUBIN", 5, &n);
    CHECK(b != NULL);
    if (!b) return;
    CacheEntry e;
    char why[128];
    CHECK_INT(-1, cache_entry_parse(b, 0, &e, why, sizeof why));
    CHECK_CONTAINS(why, "empty");
    CHECK_INT(-1, cache_entry_parse(b, 50, &e, why, sizeof why));
    CHECK_CONTAINS(why, "truncated header");
    /* every truncation is refused */
    int refused = 0;
    for (size_t k = 0; k < n; k++) refused += cache_entry_parse(b, k, &e, why, sizeof why) == -1;
    CHECK_INT((long long)n, refused);
    CHECK_INT(-1, cache_entry_parse(b, n - 3, &e, why, sizeof why));
    CHECK_CONTAINS(why, "truncated");
    /* every single flipped bit is refused */
    uint8_t *c = malloc(n + 8);
    refused = 0;
    int total = 0;
    for (size_t k = 0; k < n; k++) {
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(c, b, n);
            c[k] ^= (uint8_t)(1u << bit);
            refused += cache_entry_parse(c, n, &e, why, sizeof why) == -1;
            total++;
        }
    }
    CHECK_INT(total, refused);
    /* specific reasons */
    memcpy(c, b, n);
    c[0] = 'X';
    CHECK_INT(-1, cache_entry_parse(c, n, &e, why, sizeof why));
    CHECK_CONTAINS(why, "magic");
    memcpy(c, b, n);
    c[8] = 2;
    CHECK_INT(-1, cache_entry_parse(c, n, &e, why, sizeof why));
    CHECK_CONTAINS(why, "format 2");
    memcpy(c, b, n);
    c[n - 1] ^= 0x40;
    CHECK_INT(-1, cache_entry_parse(c, n, &e, why, sizeof why));
    CHECK_CONTAINS(why, "checksum");
    memcpy(c, b, n);
    c[n] = 0;
    CHECK_INT(-1, cache_entry_parse(c, n + 1, &e, why, sizeof why));
    CHECK_CONTAINS(why, "trailing");
    /* lengths that overflow or point past the end */
    memcpy(c, b, n);
    c[56] = c[57] = c[58] = c[59] = 0xff;
    CHECK_INT(-1, cache_entry_parse(c, n, &e, why, sizeof why));
    CHECK_CONTAINS(why, "truncated");
    /* garbage of every small size */
    uint8_t g[300];
    for (int i = 0; i < 300; i++) g[i] = (uint8_t)(i * 37 + 11);
    refused = 0;
    for (size_t k = 0; k <= sizeof g; k++) refused += cache_entry_parse(g, k, &e, why, sizeof why) == -1;
    CHECK_INT(301, refused);
    /* a valid header over garbage is refused by the checksum */
    memcpy(g, b, 96);
    CHECK_INT(-1, cache_entry_parse(g, sizeof g, &e, why, sizeof why));
    free(c);
    free(b);
}

TEST(cache_entry_build_limits) {
    CacheMeta m = sample_meta();
    size_t n = 0;
    m.nparams = CACHE_MAX_PARAMS + 1;
    CHECK(cache_entry_build("k", &m, "p", NULL, 0, &n) == NULL);
    m.nparams = CACHE_MAX_PARAMS;
    uint8_t *b = cache_entry_build("k", &m, "p", NULL, 0, &n);
    CacheEntry e;
    char why[64];
    /* params beyond the sample are zero: index 0, dtype 0 -> refused as a bad parameter */
    CHECK(b && cache_entry_parse(b, n, &e, why, sizeof why) == -1);
    free(b);
}

/* Every input that changes the generated code changes the key; nothing else does. */
TEST(cache_key_components) {
    tc_target a, b, c;
    tc_target_parse("cuda:80", &a);
    tc_target_parse("cuda:90a", &b);
    c = b;
    c.arch_suffix_a = 0;
    const char *src = "def f(): pass\n";
    CacheKeyIn base = {src, strlen(src), "f", "*fp32:16, i32", 4, 3, &b, false, false, NULL, false};
    CacheKey k1, k2;
    CHECK(cache_key_make(&k1, &base));
    CHECK_INT(64, strlen(k1.hex));
    CHECK_CONTAINS(k1.text, "tritonc " TRITONC_VERSION);
    CHECK_CONTAINS(k1.text, "target cuda:90a\n");
    CHECK_CONTAINS(k1.text, cache_build_id());
    CHECK(cache_key_make(&k2, &base));
    CHECK_STR(k1.hex, k2.hex);
    struct { const char *what; CacheKeyIn in; } v[] = {
        {"source", {"def f(): pass \n", 15, "f", "*fp32:16, i32", 4, 3, &b, false, false, NULL, false}},
        {"kernel", {src, strlen(src), "g", "*fp32:16, i32", 4, 3, &b, false, false, NULL, false}},
        {"specialization", {src, strlen(src), "f", "*fp32, i32", 4, 3, &b, false, false, NULL, false}},
        {"num_warps", {src, strlen(src), "f", "*fp32:16, i32", 8, 3, &b, false, false, NULL, false}},
        {"num_stages", {src, strlen(src), "f", "*fp32:16, i32", 4, 2, &b, false, false, NULL, false}},
        {"target arch", {src, strlen(src), "f", "*fp32:16, i32", 4, 3, &a, false, false, NULL, false}},
        {"target suffix", {src, strlen(src), "f", "*fp32:16, i32", 4, 3, &c, false, false, NULL, false}},
        {"TRITON_DEBUG", {src, strlen(src), "f", "*fp32:16, i32", 4, 3, &b, true, false, NULL, false}},
        {"occupancy", {src, strlen(src), "f", "*fp32:16, i32", 4, 3, &b, false, true, NULL, false}},
        {"build", {src, strlen(src), "f", "*fp32:16, i32", 4, 3, &b, false, false, "another build", false}},
    };
    for (int i = 0; i < COUNT_OF(v); i++) {
        CHECK(cache_key_make(&k2, &v[i].in));
        if (!strcmp(k1.hex, k2.hex)) fprintf(stderr, "  (%s does not change the key)\n", v[i].what);
        CHECK(strcmp(k1.hex, k2.hex) != 0);
        for (int j = 0; j < i; j++) {   /* and no two of them give the same key */
            CacheKey k3;
            cache_key_make(&k3, &v[j].in);
            CHECK(strcmp(k3.hex, k2.hex) != 0);
        }
    }
    /* a JIT launch's scratch area: keyed only for sources that make descriptors, so that other
     * kernels' entries stay shared between JIT launches and ahead-of-time compiles */
    CacheKeyIn gs = base;
    gs.global_scratch = true;
    CHECK(cache_key_make(&k2, &gs));
    CHECK_STR(k1.hex, k2.hex);
    const char *made = "def f(x):\n    d = tl.make_tensor_descriptor(x, [4], [1], [4])\n";
    CacheKeyIn m1 = base, m2 = base;
    m1.src = m2.src = made;
    m1.src_len = m2.src_len = strlen(made);
    m2.global_scratch = true;
    CacheKey k3;
    CHECK(cache_key_make(&k2, &m1));
    CHECK(cache_key_make(&k3, &m2));
    CHECK(strcmp(k2.hex, k3.hex) != 0);
    CHECK_CONTAINS(k3.text, "global_scratch 1\n");
    /* the environment the code generator reads: TRITON_DEBUG through trace_debug, the target
     * (TRITON_OVERRIDE_ARCH) through cuda_target, TRITONC_OCCUPANCY through the occupancy
     * flag (cache_jit_occupancy_keys) */
    setenv("TRITON_DEBUG", "1", 1);
    CHECK(trace_debug());
    unsetenv("TRITON_DEBUG");
    CHECK(!trace_debug());
    static char huge[3000];
    memset(huge, 'x', sizeof huge - 1);
    CacheKeyIn big = base;
    big.spec = huge;
    CHECK(!cache_key_make(&k2, &big));
}

/* The build id is the Makefile's hash of the sources (not the binary's size and mtime). */
TEST(cache_build_id_is_content_hash) {
    char path[600];
    snprintf(path, sizeof path, "%s/gen/build_id.h", test_build_dir());
    size_t n = 0;
    uint8_t *b = slurp(path, &n);
    CHECK(b != NULL);
    if (!b) return;
    char want[200];
    snprintf(want, sizeof want, "#define TRITONC_BUILD_ID \"%s\"", cache_build_id());
    CHECK(strlen(cache_build_id()) >= 16);
    b[n - 1] = 0;
    CHECK_CONTAINS((char *)b, want);
    free(b);
}

/* TRITON_DEBUG compiles assertions in: its kernel is another entry. */
TEST(cache_key_triton_debug) {
    static const char *ASSERT_SRC =
        "import triton\nimport triton.language as tl\n\n@triton.jit\n"
        "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    x = tl.load(x_ptr + offs)\n"
        "    tl.device_assert(x > 0, \"positive\")\n"
        "    tl.store(out_ptr + offs, x)\n";
    cache_begin("debug");
    unsetenv("TRITON_DEBUG");
    Kern K;
    CHECK(kern_open(&K, ASSERT_SRC, 64));
    tc_compiled *c1 = compile_for(&K, "cuda:80", SIG_A);
    setenv("TRITON_DEBUG", "1", 1);
    tc_compiled *c2 = compile_for(&K, "cuda:80", SIG_A);
    tc_compiled *c3 = compile_for(&K, "cuda:80", SIG_A);
    unsetenv("TRITON_DEBUG");
    tc_compiled *c4 = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c1 && c2 && c3 && c4);
    if (c1 && c2 && c3 && c4) {
        CHECK_INT(TC_CACHE_MISS, c1->disk_cache);
        CHECK_INT(TC_CACHE_MISS, c2->disk_cache);
        CHECK(strcmp(c1->ptx, c2->ptx) != 0);
        CHECK_INT(TC_CACHE_HIT, c3->disk_cache);
        CHECK_STR(c2->ptx, c3->ptx);
        CHECK_INT(TC_CACHE_HIT, c4->disk_cache);
        CHECK_STR(c1->ptx, c4->ptx);
    }
    tc_compiled_free(c1); tc_compiled_free(c2); tc_compiled_free(c3); tc_compiled_free(c4);
    kern_close(&K);
    cache_end();
}

/* ---- the cache through tc_compile ------------------------------------------------------ */

TEST(cache_hit_same_process) {
    cache_begin("hit");
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c1 = compile_for(&K, "cuda:80", SIG_A);
    tc_compiled *c2 = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c1 && c2);
    if (c1 && c2) {
        CHECK_INT(TC_CACHE_MISS, c1->disk_cache);
        CHECK_INT(TC_CACHE_HIT, c2->disk_cache);
        CHECK_STR(c1->ptx, c2->ptx);
        CHECK_STR(c1->name, c2->name);
        CHECK_INT(c1->threads, c2->threads);
        CHECK_INT(c1->nparams, c2->nparams);
        CHECK_STR("*fp32:16, *fp32:16, *fp32:16, i32, BLOCK=256", c2->specialization);
        CHECK_STR("cache hit", tc_cache_event_name(c2->disk_cache));
    }
    CHECK_INT(1, entry_files(NULL, 0));
    /* another target, another signature, another BLOCK: new entries */
    tc_compiled *c3 = compile_for(&K, "cuda:90a", SIG_A);
    tc_compiled *c4 = compile_for(&K, "cuda:80", SIG_B);
    CHECK(c3 && c3->disk_cache == TC_CACHE_MISS);
    CHECK(c4 && c4->disk_cache == TC_CACHE_MISS);
    tc_args_set(K.a, "BLOCK", tc_int(512));
    tc_compiled *c5 = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c5 && c5->disk_cache == TC_CACHE_MISS);
    CHECK_INT(4, entry_files(NULL, 0));
    CHECK_INT(0, tmp_files());
    tc_compiled_free(c1); tc_compiled_free(c2); tc_compiled_free(c3);
    tc_compiled_free(c4); tc_compiled_free(c5);
    kern_close(&K);
    /* the same source loaded again (another module) hits */
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c6 = compile_for(&K, "cuda:90a", SIG_A);
    CHECK(c6 && c6->disk_cache == TC_CACHE_HIT);
    tc_compiled_free(c6);
    kern_close(&K);
    /* a changed source misses */
    char src2[2000];
    snprintf(src2, sizeof src2, "%s\n# a comment\n", ADD_SRC);
    CHECK(kern_open(&K, src2, 256));
    tc_compiled *c7 = compile_for(&K, "cuda:90a", SIG_A);
    CHECK(c7 && c7->disk_cache == TC_CACHE_MISS);
    tc_compiled_free(c7);
    kern_close(&K);
    cache_end();
}

/* A child process compiles and exits with its cache event (100 + event), 1 on failure. */
static int child_compile(const char *target, const char **sig) {
    Kern K;
    if (!kern_open(&K, ADD_SRC, 256)) _exit(1);
    tc_compiled *c = compile_for(&K, target, sig);
    int ev = c ? 100 + c->disk_cache : 1;
    tc_compiled_free(c);
    kern_close(&K);
    return ev;
}

static int run_child(const char *target, const char **sig) {
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) _exit(child_compile(target, sig));
    int st = 0;
    waitpid(p, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(cache_hit_new_process) {
    cache_begin("proc");
    CHECK_INT(100 + TC_CACHE_MISS, run_child("cuda:90a", SIG_B));
    CHECK_INT(100 + TC_CACHE_HIT, run_child("cuda:90a", SIG_B));
    CHECK_INT(100 + TC_CACHE_HIT, run_child("cuda:90a", SIG_B));
    CHECK_INT(100 + TC_CACHE_MISS, run_child("cuda:80", SIG_B));
    CHECK_INT(2, entry_files(NULL, 0));
    cache_end();
}

TEST(cache_concurrent_writers) {
    cache_begin("conc");
    setenv("TRITONC_ALWAYS_COMPILE", "1", 1);  /* every child compiles and stores */
    enum { NCH = 8 };
    pid_t kids[NCH];
    fflush(NULL);
    for (int i = 0; i < NCH; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            int r = 0;
            for (int j = 0; j < 5 && r != 1; j++) r = child_compile("cuda:90a", SIG_A);
            _exit(r);
        }
    }
    int ok = 0;
    for (int i = 0; i < NCH; i++) {
        int st = 0;
        waitpid(kids[i], &st, 0);
        ok += WIFEXITED(st) && WEXITSTATUS(st) == 100 + TC_CACHE_BYPASSED;
    }
    CHECK_INT(NCH, ok);
    unsetenv("TRITONC_ALWAYS_COMPILE");
    char path[512];
    CHECK_INT(1, entry_files(path, sizeof path));
    CHECK_INT(0, tmp_files());
    size_t n = 0;
    uint8_t *b = slurp(path, &n);
    CacheEntry e;
    char why[128];
    CHECK(b && cache_entry_parse(b, n, &e, why, sizeof why) == 0);
    free(b);
    CHECK_INT(100 + TC_CACHE_HIT, run_child("cuda:90a", SIG_A));
    /* concurrent readers and writers of one key: every lookup is a hit or a clean miss */
    fflush(NULL);
    for (int i = 0; i < NCH; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            if (i % 2) setenv("TRITONC_ALWAYS_COMPILE", "1", 1);
            int r = 0;
            for (int j = 0; j < 5; j++) {
                r = child_compile("cuda:90a", SIG_A);
                if (r != 100 + TC_CACHE_HIT && r != 100 + TC_CACHE_BYPASSED) break;
            }
            _exit(r);
        }
    }
    ok = 0;
    for (int i = 0; i < NCH; i++) {
        int st = 0;
        waitpid(kids[i], &st, 0);
        int want = i % 2 ? 100 + TC_CACHE_BYPASSED : 100 + TC_CACHE_HIT;
        ok += WIFEXITED(st) && WEXITSTATUS(st) == want;
    }
    CHECK_INT(NCH, ok);
    CHECK_INT(1, entry_files(NULL, 0));
    CHECK_INT(0, tmp_files());
    cache_end();
}

/* Damages the one entry with `how`, then checks that a compile detects it, recompiles the
 * same PTX and leaves a valid entry behind. */
static void corrupt_and_recover(const char *how, const char *ref_ptx) {
    char path[512];
    if (entry_files(path, sizeof path) != 1) { CHECK(!"one entry"); return; }
    size_t n = 0;
    uint8_t *b = slurp(path, &n);
    if (!b) { CHECK(!"read"); return; }
    if (!strcmp(how, "truncate")) spit(path, b, n / 2);
    else if (!strcmp(how, "truncate-header")) spit(path, b, 40);
    else if (!strcmp(how, "flip")) { b[n - 20] ^= 0x01; spit(path, b, n); }
    else if (!strcmp(how, "flip-meta")) { b[96 + 10] ^= 0x20; spit(path, b, n); }
    else if (!strcmp(how, "garbage-header")) { memset(b, 0xA5, 96); spit(path, b, n); }
    else if (!strcmp(how, "zero")) spit(path, b, 0);
    else if (!strcmp(how, "append")) { spit(path, b, n); FILE *f = fopen(path, "ab"); fputs("junk", f); fclose(f); }
    else if (!strcmp(how, "ptx-swap")) {
        /* a well-formed entry whose PTX was replaced (checksum recomputed): a forged file
         * with the right key still only contains what its writer put in; here we check the
         * writer's key is enforced: the entry names another key */
        CacheMeta m = sample_meta();
        size_t n2 = 0;
        uint8_t *f = cache_entry_build("some other key\n", &m, "// wrong kernel\n", NULL, 0, &n2);
        spit(path, f, n2);
        free(f);
    }
    free(b);
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c != NULL);
    if (c) {
        if (c->disk_cache != TC_CACHE_CORRUPT) fprintf(stderr, "  (damage: %s)\n", how);
        CHECK_INT(TC_CACHE_CORRUPT, c->disk_cache);
        CHECK_CONTAINS(c->cache_note, "damaged");
        CHECK_STR(ref_ptx, c->ptx);
    }
    tc_compiled_free(c);
    /* the entry was rewritten and is valid: the next compile hits */
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_HIT && !strcmp(c->ptx, ref_ptx));
    tc_compiled_free(c);
    kern_close(&K);
}

TEST(cache_corruption_recovery) {
    cache_begin("corrupt");
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *ref = compile_for(&K, "cuda:80", SIG_A);
    CHECK(ref && ref->disk_cache == TC_CACHE_MISS);
    kern_close(&K);
    if (!ref) { cache_end(); return; }
    const char *hows[] = {"truncate", "truncate-header", "flip", "flip-meta", "garbage-header",
                          "zero", "append", "ptx-swap"};
    for (int i = 0; i < COUNT_OF(hows); i++) corrupt_and_recover(hows[i], ref->ptx);
    /* the damage is reported through the note */
    char path[512];
    entry_files(path, sizeof path);
    spit(path, "x", 1);
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && strstr(c->cache_note, "truncated header") && strstr(c->cache_note, "recompiled"));
    CHECK_STR("cache miss (damaged entry replaced)", tc_cache_event_name(TC_CACHE_CORRUPT));
    tc_compiled_free(c);
    /* a directory where the entry should be: a miss, the compile still succeeds */
    entry_files(path, sizeof path);
    unlink(path);
    mkdir(path, 0755);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->ptx && !strcmp(c->ptx, ref->ptx));
    CHECK(c && c->disk_cache != TC_CACHE_HIT);
    tc_compiled_free(c);
    rmdir(path);
    /* a FIFO there: never blocks, replaced */
    CHECK_INT(0, mkfifo(path, 0644));
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->ptx && !strcmp(c->ptx, ref->ptx) && c->disk_cache == TC_CACHE_CORRUPT);
    tc_compiled_free(c);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_HIT);
    tc_compiled_free(c);
    kern_close(&K);
    tc_compiled_free(ref);
    cache_end();
}

/* Rewrites the one entry with the same key and metadata but other PTX (a forger's), then
 * gives it mode `mode`. */
static void forge_entry(int mode) {
    char path[512];
    if (entry_files(path, sizeof path) != 1) { CHECK(!"one entry"); return; }
    size_t n = 0, n2 = 0;
    uint8_t *b = slurp(path, &n);
    CacheEntry e;
    char why[128];
    if (!b || cache_entry_parse(b, n, &e, why, sizeof why) != 0) { CHECK(!"parse"); free(b); return; }
    char key[2048];
    snprintf(key, sizeof key, "%s", e.key);
    uint8_t *f = cache_entry_build(key, &e.meta, "// forged\n.visible .entry add_kernel()\n", NULL, 0, &n2);
    unlink(path);
    spit(path, f, n2);
    chmod(path, (mode_t)mode);
    free(f);
    free(b);
}

/* A cache shared with others (or an entry planted in it) is never read: compiled instead,
 * with the reason in the note; the directory is made 0700 with its parents, entries 0600. */
TEST(cache_refuses_unsafe_owner_or_mode) {
    cache_begin("unsafe");
    char sub[400];
    snprintf(sub, sizeof sub, "%s/a/b", cdir);
    setenv("TRITONC_CACHE_DIR", sub, 1);
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *ref = compile_for(&K, "cuda:80", SIG_A), *c;
    CHECK(ref && ref->disk_cache == TC_CACHE_MISS);
    struct stat st;
    CHECK(stat(sub, &st) == 0 && (st.st_mode & 07777) == 0700);
    snprintf(sub, sizeof sub, "%s/a", cdir);
    CHECK(stat(sub, &st) == 0 && (st.st_mode & 07777) == 0700);
    snprintf(sub, sizeof sub, "%s/a/b", cdir);
    snprintf(cdir + strlen(cdir), sizeof cdir - strlen(cdir), "/a/b");  /* entry_files */
    char path[512];
    CHECK_INT(1, entry_files(path, sizeof path));
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600);
    if (!ref) { kern_close(&K); return; }
    /* an entry others may write: not read, replaced */
    forge_entry(0666);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && !strcmp(c->ptx, ref->ptx) && c->disk_cache == TC_CACHE_UNSAFE);
    CHECK(c && strstr(c->cache_note, "writable by others (mode 0666)") &&
          strstr(c->cache_note, "not read"));
    tc_compiled_free(c);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && !strcmp(c->ptx, ref->ptx) && c->disk_cache == TC_CACHE_HIT);
    tc_compiled_free(c);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600);
    /* group-writable, a link to a forged file */
    forge_entry(0620);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && !strcmp(c->ptx, ref->ptx) && strstr(c->cache_note, "writable by its group"));
    tc_compiled_free(c);
    char other[600];
    snprintf(other, sizeof other, "%s/../forged", sub);
    rename(path, other);
    CHECK(symlink(other, path) == 0);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && !strcmp(c->ptx, ref->ptx) && strstr(c->cache_note, "symbolic link"));
    tc_compiled_free(c);
    unlink(other);
    /* another user's entry (root can make one) */
    if (geteuid() == 0) {
        forge_entry(0600);
        CHECK_INT(0, chown(path, 4242, 4242));
        c = compile_for(&K, "cuda:80", SIG_A);
        CHECK(c && !strcmp(c->ptx, ref->ptx) && strstr(c->cache_note, "belongs to uid 4242"));
        tc_compiled_free(c);
        tc_cache_item *it = NULL;
        int n = 0;
        forge_entry(0600);
        chown(path, 4242, 4242);
        CHECK_INT(TC_OK, tc_cache_list(K.ctx, &it, &n));
        CHECK(n == 1 && !it[0].valid && strstr(it[0].note, "not read: belongs to uid 4242"));
        tc_free(it);
    }
    /* a directory others may write: neither read nor written */
    forge_entry(0600);
    CHECK_INT(0, chmod(sub, 0777));
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && !strcmp(c->ptx, ref->ptx) && c->disk_cache == TC_CACHE_UNSAFE);
    CHECK(c && strstr(c->cache_note, "is writable by others (mode 0777): the disk cache is not used"));
    tc_compiled_free(c);
    tc_cache_item *it = NULL;
    int n = 0, removed = 0;
    CHECK_INT(TC_ERR_IO, tc_cache_list(K.ctx, &it, &n));
    CHECK_CONTAINS(tc_errmsg(K.ctx), "writable by others");
    CHECK_INT(TC_ERR_IO, tc_cache_clear(K.ctx, &removed));
    CHECK_INT(1, entry_files(NULL, 0));
    char cmd[1000], out[2000];
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s %s/tritonc cache ls", sub, test_build_dir());
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "is writable by others (mode 0777)");
    if (geteuid() == 0) {
        chmod(sub, 0700);
        CHECK_INT(0, chown(sub, 4242, 4242));
        c = compile_for(&K, "cuda:80", SIG_A);
        CHECK(c && !strcmp(c->ptx, ref->ptx) && strstr(c->cache_note, "belongs to uid 4242"));
        tc_compiled_free(c);
        chown(sub, 0, 0);
    }
    tc_compiled_free(ref);
    kern_close(&K);
    cdir[strlen(cdir) - 4] = 0;
    cache_end();
}

TEST(cache_always_compile) {
    cache_begin("always");
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_MISS);
    tc_compiled_free(c);
    setenv("TRITONC_ALWAYS_COMPILE", "1", 1);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_BYPASSED);
    CHECK(c && strstr(c->cache_note, "TRITONC_ALWAYS_COMPILE"));
    tc_compiled_free(c);
    setenv("TRITONC_ALWAYS_COMPILE", "0", 1);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_HIT);
    tc_compiled_free(c);
    kern_close(&K);
    cache_end();
}

TEST(cache_no_home) {
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    unsetenv("TRITONC_CACHE_DIR");
    unsetenv("HOME");
    char d[256];
    CHECK(!cache_dir(d, sizeof d));
    CHECK_INT(TC_ERR_NOT_FOUND, tc_cache_dir(d, sizeof d));
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_UNUSED && c->ptx);
    tc_compiled_free(c);
    tc_cache_item *it = NULL;
    int n = -1;
    CHECK_INT(TC_ERR_NOT_FOUND, tc_cache_list(K.ctx, &it, &n));
    CHECK_CONTAINS(tc_errmsg(K.ctx), "HOME");
    kern_close(&K);
    setenv("HOME", "/home/someone", 1);
    CHECK(cache_dir(d, sizeof d));
    CHECK_STR("/home/someone/.cache/tritonc", d);
    setenv("TRITONC_CACHE_DIR", "/x/y", 1);
    CHECK(cache_dir(d, sizeof d));
    CHECK_STR("/x/y", d);
    unsetenv("TRITONC_CACHE_DIR");
    if (home) { setenv("HOME", home, 1); free(home); }
    else unsetenv("HOME");
}

TEST(cache_unwritable_dir) {
    cache_begin("ro");
    /* the cache "directory" is a regular file: nothing can be stored; compiling still works */
    spit(cdir, "not a directory", 15);
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->ptx && strstr(c->cache_note, "not stored"));
    tc_compiled_free(c);
    kern_close(&K);
    unlink(cdir);
    cache_end();
}

TEST(cache_list_and_clear) {
    cache_begin("ls");
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *a = compile_for(&K, "cuda:80", SIG_A), *b = compile_for(&K, "cuda:90a", SIG_B);
    CHECK(a && b);
    tc_compiled_free(a);
    tc_compiled_free(b);
    tc_cache_item *it = NULL;
    int n = 0;
    CHECK_INT(TC_OK, tc_cache_list(K.ctx, &it, &n));
    CHECK_INT(2, n);
    int seen80 = 0, seen90 = 0;
    for (int i = 0; i < n; i++) {
        CHECK_STR("add_kernel", it[i].kernel);
        CHECK(it[i].valid);
        CHECK(it[i].size > 96);
        CHECK(it[i].age_s >= 0 && it[i].age_s < 3600);
        CHECK_INT(64, strlen(it[i].key));
        seen80 += !strcmp(it[i].target, "cuda:80");
        seen90 += !strcmp(it[i].target, "cuda:90a");
    }
    CHECK(seen80 == 1 && seen90 == 1);
    tc_free(it);
    /* a damaged entry is listed as such */
    char path[600];
    snprintf(path, sizeof path, "%s/%064d.tcc", cdir, 0);
    spit(path, "garbage", 7);
    CHECK_INT(TC_OK, tc_cache_list(K.ctx, &it, &n));
    CHECK_INT(3, n);
    int damaged = 0;
    for (int i = 0; i < n; i++) damaged += !it[i].valid;
    CHECK_INT(1, damaged);
    tc_free(it);
    /* clear */
    int removed = -1;
    CHECK_INT(TC_OK, tc_cache_clear(K.ctx, &removed));
    CHECK_INT(3, removed);
    CHECK_INT(TC_OK, tc_cache_list(K.ctx, &it, &n));
    CHECK_INT(0, n);
    tc_free(it);
    /* a missing directory is an empty list */
    cache_end();
    setenv("TRITONC_CACHE_DIR", "/tmp/tritonc-test-no-such-dir/x", 1);
    CHECK_INT(TC_OK, tc_cache_list(K.ctx, &it, &n));
    CHECK_INT(0, n);
    CHECK_INT(TC_OK, tc_cache_clear(K.ctx, &removed));
    CHECK_INT(0, removed);
    unsetenv("TRITONC_CACHE_DIR");
    kern_close(&K);
}

/* ---- the command line ---------------------------------------------------------------- */

static int cli_has_cache(char *exe, size_t n) {
    char out[256];
    snprintf(exe, n, "%s/tritonc", test_build_dir());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "%s cache --help", exe);
    if (test_run(cmd, out, sizeof out) == 0 && strstr(out, "cache ls")) return 1;
    fprintf(stderr, "SKIP %s: %s has no `cache` command yet\n", test_current, exe);
    return 0;
}

TEST(cache_cli_hit_and_ls_clear) {
    char exe[512], cmd[2000], out[8192];
    if (!cli_has_cache(exe, sizeof exe)) return;
    cache_begin("cli");
    const char *k = "examples/chapter10.py add_kernel --target cuda:90a x_ptr='*fp32:16' "
                    "y_ptr='*fp32:16' out_ptr='*fp32:16' n=i32 BLOCK=1024 --verbose -o /dev/null";
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s %s compile %s", cdir, exe, k);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "cache miss");
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "cache hit");
    snprintf(cmd, sizeof cmd, "TRITONC_ALWAYS_COMPILE=1 TRITONC_CACHE_DIR=%s %s compile %s", cdir, exe, k);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "TRITONC_ALWAYS_COMPILE");
    /* damaged: reported with --verbose, recompiled */
    char path[512];
    CHECK_INT(1, entry_files(path, sizeof path));
    spit(path, "TRCCACHE", 8);
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s %s compile %s", cdir, exe, k);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "damaged");
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "cache hit");
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s %s cache ls", cdir, exe);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "KEY");
    CHECK_CONTAINS(out, "add_kernel");
    CHECK_CONTAINS(out, "cuda:90a");
    CHECK_CONTAINS(out, "1 entry in");
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s %s cache dir", cdir, exe);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, cdir);
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s %s cache clear", cdir, exe);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "removed 1 file");
    CHECK_INT(0, entry_files(NULL, 0));
    snprintf(cmd, sizeof cmd, "%s cache frobnicate", exe);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    snprintf(cmd, sizeof cmd, "env -u HOME -u TRITONC_CACHE_DIR %s cache ls", exe);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "HOME");
    cache_end();
}

/* ---- the size cap, stale and temporary files, headers first --------------------------- */

static void set_times(const char *path, time_t atime, time_t mtime) {
    struct timespec ts[2] = {{atime, 0}, {mtime, 0}};
    utimensat(AT_FDCWD, path, ts, 0);
}

TEST(cache_size_cap_lru) {
    setenv("TRITONC_CACHE_MAX_BYTES", "3K", 1);
    CHECK_INT(3072, tc_cache_max_bytes());
    setenv("TRITONC_CACHE_MAX_BYTES", "2MiB", 1);
    CHECK_INT(2 << 20, tc_cache_max_bytes());
    setenv("TRITONC_CACHE_MAX_BYTES", "0", 1);
    CHECK_INT(0, tc_cache_max_bytes());
    setenv("TRITONC_CACHE_MAX_BYTES", "lots", 1);
    CHECK_INT(1 << 30, tc_cache_max_bytes());
    unsetenv("TRITONC_CACHE_MAX_BYTES");
    CHECK_INT(1 << 30, tc_cache_max_bytes());
    cache_begin("cap");
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *a = compile_for(&K, "cuda:80", SIG_A), *b = compile_for(&K, "cuda:80", SIG_B);
    CHECK(a && b && a->disk_cache == TC_CACHE_MISS && b->disk_cache == TC_CACHE_MISS);
    tc_compiled_free(a);
    tc_compiled_free(b);
    char pa[512], pb[512];
    tc_cache_item *it = NULL;
    int n = 0;
    CHECK_INT(TC_OK, tc_cache_list(K.ctx, &it, &n));
    CHECK_INT(2, n);
    uint64_t one = n == 2 ? it[0].size : 2000;
    tc_free(it);
    /* a written long ago, b less long ago; then a is used */
    entry_files(NULL, 0);
    time_t now = time(NULL);
    DIR *d = opendir(cdir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (strlen(de->d_name) != 68) continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", cdir, de->d_name);
        set_times(p, now - 1000, now - 1000);
        snprintf(pa, sizeof pa, "%s", p);
    }
    if (d) closedir(d);
    a = compile_for(&K, "cuda:80", SIG_A);   /* a hit: now the most recently used */
    CHECK(a && a->disk_cache == TC_CACHE_HIT);
    tc_compiled_free(a);
    d = opendir(cdir);
    while (d && (de = readdir(d))) {
        struct stat st;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", cdir, de->d_name);
        if (strlen(de->d_name) != 68 || stat(p, &st) != 0) continue;
        if (st.st_atime >= now) snprintf(pa, sizeof pa, "%s", p);
        else snprintf(pb, sizeof pb, "%s", p);
    }
    if (d) closedir(d);
    CHECK(strcmp(pa, pb) != 0);
    /* a third entry passes a cap of 2.5 entries: b, the least recently used, goes */
    char cap[32];
    snprintf(cap, sizeof cap, "%llu", (unsigned long long)(one * 5 / 2));
    setenv("TRITONC_CACHE_MAX_BYTES", cap, 1);
    tc_compiled *c = compile_for(&K, "cuda:90a", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_MISS);
    tc_compiled_free(c);
    CHECK_INT(2, entry_files(NULL, 0));
    CHECK(access(pa, F_OK) == 0);
    CHECK(access(pb, F_OK) != 0);
    /* a cap below one entry keeps the one just stored */
    setenv("TRITONC_CACHE_MAX_BYTES", "1", 1);
    b = compile_for(&K, "cuda:80", SIG_B);
    CHECK(b && b->disk_cache == TC_CACHE_MISS);
    tc_compiled_free(b);
    CHECK_INT(1, entry_files(NULL, 0));
    unsetenv("TRITONC_CACHE_MAX_BYTES");
    kern_close(&K);
    cache_end();
}

/* Bytes this process has read through read(2) and pread(2); -1 when unknown. */
static long long bytes_read(void) {
    FILE *f = fopen("/proc/self/io", "r");
    long long v = -1;
    char line[128];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "rchar: %lld", &v) == 1) break;
    if (f) fclose(f);
    return v;
}

/* An entry's header is checked against the file's size before the rest is read. */
TEST(cache_header_before_body) {
    cache_begin("sparse");
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *ref = compile_for(&K, "cuda:80", SIG_A);
    CHECK(ref && ref->disk_cache == TC_CACHE_MISS);
    char path[512];
    CHECK_INT(1, entry_files(path, sizeof path));
    int fd = open(path, O_WRONLY);
    int big = fd >= 0 && ftruncate(fd, (off_t)8 << 30) == 0;   /* 8 GiB, sparse */
    if (fd >= 0) close(fd);
    if (!big) {
        fprintf(stderr, "SKIP %s: no 8 GiB sparse file here\n", test_current);
    } else {
        long long r0 = bytes_read();
        tc_compiled *c = compile_for(&K, "cuda:80", SIG_A);
        long long r1 = bytes_read();
        CHECK(c && c->disk_cache == TC_CACHE_CORRUPT && strstr(c->cache_note, "exceeds the limit"));
        if (r0 >= 0) CHECK(r1 - r0 < (1 << 20));
        tc_compiled_free(c);
        fd = open(path, O_WRONLY);
        CHECK(fd >= 0 && ftruncate(fd, (off_t)8 << 30) == 0);
        if (fd >= 0) close(fd);
        tc_cache_item *it = NULL;
        int n = 0;
        r0 = bytes_read();
        CHECK_INT(TC_OK, tc_cache_list(K.ctx, &it, &n));
        r1 = bytes_read();
        CHECK(n == 1 && !it[0].valid && strstr(it[0].note, "damaged: entry of 8589934592 bytes"));
        if (r0 >= 0) CHECK(r1 - r0 < (1 << 20));
        tc_free(it);
    }
    tc_compiled_free(ref);
    kern_close(&K);
    cache_end();
}

/* `cache ls` shows stale entries and temporary files with their sizes; `cache clear`
 * removes them, the tuning records only with --tuning or --all. */
/* Runs `tritonc cache ARGS` on cdir with env. */
static int cache_cmd(const char *env, const char *exe, const char *args, char *out, size_t n) {
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "%s TRITONC_CACHE_DIR=%s %s cache %s", env, cdir, exe, args);
    return test_run(cmd, out, n);
}

TEST(cache_ls_stale_temp_and_clear_tuning) {
    char exe[512], out[8192];
    if (!cli_has_cache(exe, sizeof exe)) return;
    cache_begin("stale");
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c != NULL);
    tc_compiled_free(c);
    kern_close(&K);
    /* an entry of another build, a temporary file, a tuning record */
    CacheMeta m = sample_meta();
    size_t n = 0;
    uint8_t *b = cache_entry_build("tritonc 0.0.9 cache 1 build 1234\nsource x\n", &m,
                                   ".version 8.0\n", NULL, 0, &n);
    char key_hex[65], path[600];
    uint8_t h[32];
    const char *kt = "tritonc 0.0.9 cache 1 build 1234\nsource x\n";
    sha256(kt, strlen(kt), h);
    sha256_hex(h, key_hex);
    snprintf(path, sizeof path, "%s/%s.tcc", cdir, key_hex);
    spit(path, b, n);
    chmod(path, 0600);
    free(b);
    snprintf(path, sizeof path, "%s/.tmp.0123456789abcdef.fedcba9876543210", cdir);
    spit(path, "0123456789", 10);
    chmod(path, 0600);
    snprintf(path, sizeof path, "%s/tune", cdir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/tune/k.json", cdir);
    spit(path, "{}", 2);
    CHECK_INT(0, cache_cmd("TRITONC_CACHE_MAX_BYTES=64M", exe, "ls", out, sizeof out));
    CHECK_CONTAINS(out, "stale: made by another build of tritonc");
    CHECK_CONTAINS(out, "temporary: an unfinished or interrupted write");
    CHECK_CONTAINS(out, "1 entry in");
    CHECK_CONTAINS(out, "(cap 64.0M)");
    CHECK_CONTAINS(out, "1 stale entry of other builds of tritonc: ");
    CHECK_CONTAINS(out, "1 temporary file: 10B");
    CHECK_INT(0, cache_cmd("", exe, "clear", out, sizeof out));
    CHECK_CONTAINS(out, "removed 3 files");
    CHECK_INT(0, entry_files(NULL, 0));
    CHECK_INT(0, tmp_files());
    CHECK(access(path, F_OK) == 0);
    CHECK_INT(0, cache_cmd("", exe, "clear --tuning", out, sizeof out));
    CHECK_CONTAINS(out, "removed 1 autotuning record");
    CHECK(access(path, F_OK) != 0);
    spit(path, "{}", 2);
    CHECK_INT(0, cache_cmd("", exe, "clear --all", out, sizeof out));
    CHECK_CONTAINS(out, "removed 0 files");
    CHECK_CONTAINS(out, "removed 1 autotuning record");
    CHECK(access(path, F_OK) != 0);
    CHECK_INT(2, cache_cmd("", exe, "clear --bogus", out, sizeof out));
    cache_end();
}

/* Neither the tests nor the build write to the user's home: the runner (tests/main.c) gives
 * them a HOME of their own, and the ahead-of-time example keeps its cache in the build. */
TEST(cache_tests_and_build_stay_out_of_home) {
    const char *h = getenv("HOME");
    CHECK(h && strncmp(h, "/tmp/tritonc-tests-", 19) == 0);
    char p[600];
    snprintf(p, sizeof p, "%s/tritonc-cache", test_build_dir());
    struct stat st;
    CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode));
}

/* ---- the JIT's use of the disk cache (fake driver: modules load, launches are refused) ---- */

static const char *JIT_MAIN =
    "#include <tritonc.h>\n"
    "#include <stdio.h>\n"
    "int main(int argc, char **argv) {\n"
    "    tc_context *ctx; tc_module *m; tc_kernel *k; tc_args *a;\n"
    "    tc_tensor *x, *y, *o;\n"
    "    float hx[4] = {1, 2, 3, 4};\n"
    "    int64_t shape = 4;\n"
    "    if (argc < 2 || tc_context_new(&ctx) || tc_module_load_file(ctx, argv[1], &m) ||\n"
    "        tc_module_kernel(m, \"add_kernel\", &k) || tc_args_new(k, &a)) { puts(\"setup failed\"); return 1; }\n"
    "    if (tc_tensor_from_host(ctx, TC_FP32, 1, &shape, hx, &x) || tc_tensor_from_host(ctx, TC_FP32, 1, &shape, hx, &y) ||\n"
    "        tc_tensor_new(ctx, TC_FP32, 1, &shape, &o)) { printf(\"tensors: %s\\n\", tc_errmsg(ctx)); return 1; }\n"
    "    tc_args_set(a, \"x_ptr\", tc_tens(x)); tc_args_set(a, \"y_ptr\", tc_tens(y));\n"
    "    tc_args_set(a, \"out_ptr\", tc_tens(o)); tc_args_set(a, \"n\", tc_int(4));\n"
    "    tc_args_set(a, \"BLOCK\", tc_int(128));\n"
    "    tc_status s = tc_launch(k, a, NULL);\n"
    "    tc_launch_report r;\n"
    "    tc_last_launch(ctx, &r, sizeof r);\n"
    "    printf(\"launch %s compiled %d disk %d (%s) note [%s]\\n\", tc_status_name(s), r.compiled,\n"
    "           r.disk_cache, tc_cache_event_name(r.disk_cache), r.note);\n"
    "    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o);\n"
    "    tc_args_free(a); tc_module_free(m); tc_context_free(ctx);\n"
    "    return 0;\n"
    "}\n";

/* The command that runs prog with the fake driver, env and the cache directory cdir. */
static void jit_cmd(char *run, size_t runn, const char *env, const char *prog) {
    snprintf(run, runn, "%s TRITONC_CACHE_DIR=%s TRITONC_LIBCUDA_PATH=%s/fake/libcuda.so.1 %s "
             "examples/chapter10.py", env, cdir, test_build_dir(), prog);
}

/* Builds JIT_MAIN into prog (outside the cache directory) and puts jit_cmd into run; 0 when
 * that is not possible (skipped). */
static int jit_prog(const char *tag, char *prog, size_t progn, char *run, size_t runn) {
    char fake[600], lib[600];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    snprintf(lib, sizeof lib, "%s/libtritonc.a", test_build_dir());
    if (access(fake, R_OK) != 0 || access(lib, R_OK) != 0) {
        fprintf(stderr, "SKIP %s: %s or %s is missing\n", test_current, fake, lib);
        return 0;
    }
    char mp[600], cmd[3000], out[4096];
    snprintf(prog, progn, "/tmp/tritonc-test-jitprog-%d-%s", (int)getpid(), tag);
    snprintf(mp, sizeof mp, "%s.c", prog);
    FILE *f = fopen(mp, "w");
    if (f) { fputs(JIT_MAIN, f); fclose(f); }
    snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall %s -Iinclude -o %s %s %s -lm -ldl -lpthread",
             strstr(test_build_dir(), "san") ? "-fsanitize=address,undefined" : "", prog, mp, lib);
    int r = test_run(cmd, out, sizeof out);
    unlink(mp);
    if (r) fprintf(stderr, "%s\n", out);
    CHECK_INT(0, r);
    jit_cmd(run, runn, "", prog);
    return r == 0;
}

TEST(cache_jit_launch_path) {
    char prog[600], run[1500], out[4096];
    cache_begin("jit");
    if (!jit_prog("jit", prog, sizeof prog, run, sizeof run)) { cache_end(); return; }
    CHECK_INT(0, test_run(run, out, sizeof out));
    CHECK_CONTAINS(out, "compiled 1 disk 2 (cache miss)");
    CHECK_INT(1, entry_files(NULL, 0));
    CHECK_INT(0, test_run(run, out, sizeof out));
    CHECK_CONTAINS(out, "compiled 1 disk 1 (cache hit)");
    /* damaged: detected, reported in the launch note, replaced */
    char path[512];
    entry_files(path, sizeof path);
    size_t n = 0;
    uint8_t *b = slurp(path, &n);
    if (b) { b[n / 2] ^= 0xff; spit(path, b, n); free(b); }
    CHECK_INT(0, test_run(run, out, sizeof out));
    CHECK_CONTAINS(out, "disk 3 (cache miss (damaged entry replaced))");
    CHECK_CONTAINS(out, "checksum mismatch");
    CHECK_INT(0, test_run(run, out, sizeof out));
    CHECK_CONTAINS(out, "disk 1 (cache hit)");
    char run2[1600];
    snprintf(run2, sizeof run2, "TRITONC_ALWAYS_COMPILE=1 %s", run);
    CHECK_INT(0, test_run(run2, out, sizeof out));
    CHECK_CONTAINS(out, "disk 4 (cache bypassed");
    CHECK_CONTAINS(out, "TRITONC_ALWAYS_COMPILE is set");
    unlink(prog);
    cache_end();
}

/* `tritonc compile` of what the JIT launches (JIT_MAIN: BLOCK=128, n=4, on the fake H200). */
static int aot_compile(char *out, size_t n) {
    char cmd[2000], ptx[600];
    snprintf(ptx, sizeof ptx, "%s.ptx", cdir);
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s %s/tritonc compile examples/chapter10.py "
             "add_kernel --target cuda:90a x_ptr='*fp32:16' y_ptr='*fp32:16' out_ptr='*fp32:16' "
             "n=i32 BLOCK=128 --verbose -o %s && cat %s", cdir, test_build_dir(), ptx, ptx);
    int r = test_run(cmd, out, n);
    unlink(ptx);
    return r;
}

/* The occupancy step's PTX has its own key: `tritonc compile` never gets it, and a plain
 * entry serves the JIT when the step changes nothing (fake driver: FAKE_CUDA_REGS=40 makes
 * the step apply, 32 not). */
TEST(cache_jit_occupancy_keys) {
    char prog[600], run[1500], run40[1500];
    static char out[65536];
    cache_begin("occ");
    if (!jit_prog("occ", prog, sizeof prog, run, sizeof run)) { cache_end(); return; }
    jit_cmd(run40, sizeof run40, "FAKE_CUDA_REGS=40", prog);
    /* the JIT first, the step applies: `compile` does not get its PTX */
    CHECK_INT(0, test_run(run40, out, sizeof out));
    CHECK_CONTAINS(out, "(cache miss)");
    CHECK_INT(0, aot_compile(out, sizeof out));
    CHECK_CONTAINS(out, "cache miss");
    CHECK(!strstr(out, ".minnctapersm"));
    CHECK_INT(0, test_run(run40, out, sizeof out));
    CHECK_CONTAINS(out, "(cache hit)");
    CHECK_INT(0, aot_compile(out, sizeof out));
    CHECK_CONTAINS(out, "cache hit");
    CHECK(!strstr(out, ".minnctapersm"));
    CHECK_INT(2, entry_files(NULL, 0));
    /* `compile` first; the step changes nothing: its entry serves the JIT, then the JIT's
     * (with no new entry) serves `compile` */
    cache_end();
    cache_begin("occ2");
    jit_cmd(run, sizeof run, "", prog);
    CHECK_INT(0, aot_compile(out, sizeof out));
    CHECK_CONTAINS(out, "cache miss");
    CHECK_INT(0, test_run(run, out, sizeof out));
    CHECK_CONTAINS(out, "(cache hit)");
    CHECK_INT(0, test_run(run, out, sizeof out));
    CHECK_CONTAINS(out, "(cache hit)");
    CHECK_INT(1, entry_files(NULL, 0));
    CHECK_INT(0, aot_compile(out, sizeof out));
    CHECK_CONTAINS(out, "cache hit");
    CHECK(!strstr(out, ".minnctapersm"));
    /* `compile` first, the step applies: the JIT keeps its PTX under its own key */
    cache_end();
    cache_begin("occ3");
    jit_cmd(run40, sizeof run40, "FAKE_CUDA_REGS=40", prog);
    CHECK_INT(0, aot_compile(out, sizeof out));
    CHECK_INT(0, test_run(run40, out, sizeof out));
    CHECK_CONTAINS(out, "(cache miss)");
    CHECK_INT(0, test_run(run40, out, sizeof out));
    CHECK_CONTAINS(out, "(cache hit)");
    CHECK_INT(2, entry_files(NULL, 0));
    CHECK_INT(0, aot_compile(out, sizeof out));
    CHECK_CONTAINS(out, "cache hit");
    CHECK(!strstr(out, ".minnctapersm"));
    /* TRITONC_OCCUPANCY=0 reads the plain entry */
    char run0[1600];
    jit_cmd(run0, sizeof run0, "TRITONC_OCCUPANCY=0 FAKE_CUDA_REGS=40", prog);
    CHECK_INT(0, test_run(run0, out, sizeof out));
    CHECK_CONTAINS(out, "(cache hit)");
    CHECK_INT(2, entry_files(NULL, 0));
    unlink(prog);
    cache_end();
}

/* The launch report (--verbose) says why an entry was not read. */
TEST(cache_unsafe_jit_note) {
    char prog[600], run[1500], out[4096];
    cache_begin("unsafejit");
    if (!jit_prog("unsafejit", prog, sizeof prog, run, sizeof run)) { cache_end(); return; }
    CHECK_INT(0, test_run(run, out, sizeof out));
    CHECK_CONTAINS(out, "(cache miss)");
    chmod(cdir, 0775);
    CHECK_INT(0, test_run(run, out, sizeof out));
    CHECK_CONTAINS(out, "disk 5 (cache not read");
    CHECK_CONTAINS(out, "is writable by its group (mode 0775): the disk cache is not used");
    unlink(prog);
    cache_end();
}

/* TRITONC_LAUNCH_BLOCKING=1 waits after each launch, so that a fault surfaces there; unset (or
 * 0) a launch only enqueues. The fake driver's synchronize fails with FAKE_CUDA_SYNC=fail. */
TEST(cache_launch_blocking) {
    char prog[600], run[1500], out[4096];
    cache_begin("blocking");
    if (!jit_prog("blocking", prog, sizeof prog, run, sizeof run)) { cache_end(); return; }
    const char *envs[3] = {"env -u TRITONC_LAUNCH_BLOCKING FAKE_CUDA_LAUNCH=ok FAKE_CUDA_SYNC=fail",
                           "TRITONC_LAUNCH_BLOCKING=0 FAKE_CUDA_LAUNCH=ok FAKE_CUDA_SYNC=fail",
                           "TRITONC_LAUNCH_BLOCKING=1 FAKE_CUDA_LAUNCH=ok FAKE_CUDA_SYNC=fail"};
    for (int i = 0; i < 3; i++) {
        jit_cmd(run, sizeof run, envs[i], prog);
        CHECK_INT(0, test_run(run, out, sizeof out));
        CHECK_CONTAINS(out, i < 2 ? "launch TC_OK" : "launch TC_ERR_RUNTIME");
    }
    unlink(prog);
    cache_end();
}

/* The damaged entry's note says what became of it; a cache directory whose path is too long
 * is named as such. */
TEST(cache_notes_say_what_happened) {
    cache_begin("notes");
    Kern K;
    CHECK(kern_open(&K, ADD_SRC, 256));
    tc_compiled *c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_MISS);
    tc_compiled_free(c);
    char path[512];
    entry_files(path, sizeof path);
    spit(path, "TRCCACHE", 8);
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && strstr(c->cache_note, "damaged (truncated header (8 of 96 bytes)): deleted; recompiled"));
    tc_compiled_free(c);
    unlink(path);
    mkdir(path, 0700);   /* a directory where the entry goes: it cannot be deleted */
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_CORRUPT);
    CHECK(c && strstr(c->cache_note, "could not be deleted (Is a directory); recompiled"));
    CHECK(c && !strstr(c->cache_note, ": deleted"));
    tc_compiled_free(c);
    rmdir(path);
    static char longdir[4200];
    memset(longdir, 'd', sizeof longdir - 1);
    longdir[0] = '/';
    setenv("TRITONC_CACHE_DIR", longdir, 1);
    char d[64];
    CHECK_INT(TC_ERR_LIMIT, tc_cache_dir(d, sizeof d));
    c = compile_for(&K, "cuda:80", SIG_A);
    CHECK(c && c->disk_cache == TC_CACHE_UNUSED && strstr(c->cache_note, "TRITONC_CACHE_DIR is too long (4199 characters"));
    tc_compiled_free(c);
    tc_cache_item *it = NULL;
    int n = 0;
    CHECK_INT(TC_ERR_LIMIT, tc_cache_list(K.ctx, &it, &n));
    CHECK_CONTAINS(tc_errmsg(K.ctx), "TRITONC_CACHE_DIR is too long");
    CHECK(!strstr(tc_errmsg(K.ctx), "HOME"));
    char cmd[5000], out[512];
    snprintf(cmd, sizeof cmd, "TRITONC_CACHE_DIR=%s %s/tritonc cache dir", longdir, test_build_dir());
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "too long");
    kern_close(&K);
    cache_end();
}
