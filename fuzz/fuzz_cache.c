/* fuzz_cache.c — libFuzzer target: the disk cache's entry reader (src/runtime/cache.c).
 *
 * The first byte is a salt, the rest an entry file:
 *   bit 0  repair the file's key hash and checksum before parsing (SHA-256 of the key text
 *          and of the rest), so that mutations reach the fields behind the checksum
 *   bit 1  also go through the file system: write the bytes as the entry of a fixed key in
 *          a private $TRITONC_CACHE_DIR and cache_lookup() it (hit, miss or corrupt-and-
 *          deleted), instead of only cache_entry_parse()
 *   bit 2  put that fixed key's text in place of the entry's key (then repair), so that the
 *          file-system path can reach a hit
 * An entry that parses must keep every pointer inside the bytes, NUL-terminate its texts,
 * and survive a round trip through cache_entry_build and cache_entry_parse unchanged. */
#include "runtime/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fz_dir[256];
static CacheKey fz_key;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    snprintf(fz_dir, sizeof fz_dir, "/tmp/tc_fuzz_cache_XXXXXX");
    if (!mkdtemp(fz_dir)) abort();
    setenv("TRITONC_CACHE_DIR", fz_dir, 1);
    unsetenv("TRITONC_ALWAYS_COMPILE");
    tc_target t;
    memset(&t, 0, sizeof t);
    snprintf(t.backend, sizeof t.backend, "cuda");
    t.arch = 90;
    t.warp_size = 32;
    t.arch_suffix_a = 1;
    const char *src = "@triton.jit\ndef k(x_ptr):\n    pass\n";
    CacheKeyIn in = {src, strlen(src), "k", "*fp32:16", 4, 3, &t, false, false, NULL};
    if (!cache_key_make(&fz_key, &in)) abort();
    return 0;
}

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void repair(uint8_t *b, size_t n) {
    if (n < CACHE_HEADER) return;
    uint64_t klen = rd32(b + 48);
    if (klen >= 1 && CACHE_HEADER + klen <= n) sha256(b + CACHE_HEADER, (size_t)klen - 1, b + 16);
    Sha256 s;
    sha256_init(&s);
    sha256_update(&s, b, 64);
    sha256_update(&s, b + CACHE_HEADER, n - CACHE_HEADER);
    sha256_final(&s, b + 64);
}

static void check_entry(const uint8_t *b, size_t n, const CacheEntry *e) {
    const uint8_t *lo = b, *hi = b + n;
#define INSIDE(p, len) ((const uint8_t *)(p) >= lo && (const uint8_t *)(p) + (len) <= hi)
    if (!e->key || !INSIDE(e->key, e->key_len + 1) || e->key[e->key_len] != 0 ||
        strlen(e->key) != e->key_len) {
        fprintf(stderr, "fuzz_cache: key outside the entry or not NUL-terminated\n");
        abort();
    }
    if (!e->ptx || !INSIDE(e->ptx, e->ptx_len + 1) || e->ptx[e->ptx_len] != 0 ||
        strlen(e->ptx) != e->ptx_len) {
        fprintf(stderr, "fuzz_cache: PTX outside the entry or not NUL-terminated\n");
        abort();
    }
    if ((e->cubin_len && (!e->cubin || !INSIDE(e->cubin, e->cubin_len))) ||
        (!e->cubin_len && e->cubin)) {
        fprintf(stderr, "fuzz_cache: cubin outside the entry\n");
        abort();
    }
    if (e->meta.nparams < 0 || e->meta.nparams > CACHE_MAX_PARAMS ||
        !memchr(e->meta.kernel, 0, sizeof e->meta.kernel) ||
        !memchr(e->meta.target, 0, sizeof e->meta.target)) {
        fprintf(stderr, "fuzz_cache: metadata out of range\n");
        abort();
    }
#undef INSIDE
    /* round trip */
    size_t n2 = 0;
    uint8_t *b2 = cache_entry_build(e->key, &e->meta, e->ptx, e->cubin, e->cubin_len, &n2);
    if (!b2) {
        fprintf(stderr, "fuzz_cache: cache_entry_build refused a parsed entry\n");
        abort();
    }
    CacheEntry e2;
    char why[256];
    if (cache_entry_parse(b2, n2, &e2, why, sizeof why) != 0) {
        fprintf(stderr, "fuzz_cache: a rebuilt entry does not parse: %s\n", why);
        abort();
    }
    /* The ptx may hold a NUL before its end only if the parser let one through; equal texts
     * and metadata otherwise. */
    if (e2.key_len != e->key_len || memcmp(e2.key, e->key, e->key_len) != 0 ||
        e2.ptx_len != e->ptx_len || memcmp(e2.ptx, e->ptx, e->ptx_len) != 0 ||
        e2.cubin_len != e->cubin_len ||
        (e->cubin_len && memcmp(e2.cubin, e->cubin, e->cubin_len) != 0) ||
        e2.meta.nparams != e->meta.nparams || e2.meta.threads != e->meta.threads ||
        e2.meta.num_warps != e->meta.num_warps || e2.meta.num_stages != e->meta.num_stages ||
        e2.meta.shared_bytes != e->meta.shared_bytes || e2.meta.num_regs != e->meta.num_regs ||
        strcmp(e2.meta.kernel, e->meta.kernel) != 0 || strcmp(e2.meta.target, e->meta.target) != 0 ||
        memcmp(e2.meta.params, e->meta.params, sizeof(CacheParam) * (size_t)e->meta.nparams) != 0) {
        fprintf(stderr, "fuzz_cache: the round trip changed the entry\n");
        abort();
    }
    free(b2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
    if (n < 1) return 0;
    unsigned salt = data[0];
    data++;
    n--;
    /* an exact-size copy, so that ASan sees any read past the end */
    uint8_t *b = malloc(n ? n : 1);
    if (!b) return 0;
    memcpy(b, data, n);
    if ((salt & 4) && n >= CACHE_HEADER && CACHE_HEADER + (uint64_t)rd32(b + 48) <= n) {
        size_t klen = rd32(b + 48), nk = strlen(fz_key.text) + 1;
        size_t n2 = n - klen + nk;
        uint8_t *b2 = malloc(n2);
        if (!b2) { free(b); return 0; }
        memcpy(b2, b, CACHE_HEADER);
        memcpy(b2 + CACHE_HEADER, fz_key.text, nk);
        memcpy(b2 + CACHE_HEADER + nk, b + CACHE_HEADER + klen, n - CACHE_HEADER - klen);
        b2[48] = (uint8_t)nk;
        b2[49] = (uint8_t)(nk >> 8);
        b2[50] = b2[51] = 0;
        free(b);
        b = b2;
        n = n2;
        salt |= 1;
    }
    if (salt & 1) repair(b, n);
    char why[256];
    why[0] = 0;
    if (salt & 2) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.tcc", fz_dir, fz_key.hex);
        FILE *fp = fopen(path, "wb");
        if (!fp) abort();
        if (n) fwrite(b, 1, n, fp);
        fclose(fp);
        CacheEntry e;
        void *mem = NULL;
        CacheResult r = cache_lookup(&fz_key, &e, &mem, why, sizeof why);
        if (r == CACHE_HIT) {
            if (!mem) { fprintf(stderr, "fuzz_cache: a hit with no memory\n"); abort(); }
            if (e.key_len != strlen(fz_key.text)) { fprintf(stderr, "fuzz_cache: hit for another key\n"); abort(); }
        } else if (r == CACHE_CORRUPT) {
            if (!why[0]) { fprintf(stderr, "fuzz_cache: corrupt with no reason\n"); abort(); }
            if (access(path, F_OK) == 0) { fprintf(stderr, "fuzz_cache: corrupt entry not deleted\n"); abort(); }
        } else if (r != CACHE_MISS) {
            fprintf(stderr, "fuzz_cache: cache_lookup returned %d\n", (int)r);
            abort();
        }
        free(mem);
        unlink(path);
    } else {
        CacheEntry e;
        if (cache_entry_parse(b, n, &e, why, sizeof why) == 0) check_entry(b, n, &e);
        else if (!why[0]) { fprintf(stderr, "fuzz_cache: refused with no reason\n"); abort(); }
    }
    free(b);
    return 0;
}
