/* cache.c — the on-disk cache of compiled kernels: the key, the entry format and its
 * hardened reader, atomic stores, lookup with corruption recovery, listing and clearing.
 * The format and the rules are in cache.h. */
#include "runtime/cache.h"
#include "base/file.h"
#include "base/context.h"
#include "gpu/gpu.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------------------ */

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(Sha256 *s, const uint8_t *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
    uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
    s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

void sha256_init(Sha256 *s) {
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->len = 0;
    s->nbuf = 0;
}

void sha256_update(Sha256 *s, const void *data, size_t n) {
    const uint8_t *p = data;
    s->len += n;
    if (s->nbuf) {
        size_t k = 64 - s->nbuf < n ? 64 - s->nbuf : n;
        memcpy(s->buf + s->nbuf, p, k);
        s->nbuf += k; p += k; n -= k;
        if (s->nbuf < 64) return;
        sha256_block(s, s->buf);
        s->nbuf = 0;
    }
    for (; n >= 64; p += 64, n -= 64) sha256_block(s, p);
    if (n) { memcpy(s->buf, p, n); s->nbuf = n; }
}

void sha256_final(Sha256 *s, uint8_t out[32]) {
    uint64_t bits = s->len * 8;
    uint8_t pad[72] = {0x80};
    size_t padn = s->nbuf < 56 ? 56 - s->nbuf : 120 - s->nbuf;
    uint8_t lenb[8];
    for (int i = 0; i < 8; i++) lenb[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha256_update(s, pad, padn);
    sha256_update(s, lenb, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(s->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)s->h[i];
    }
}

void sha256(const void *p, size_t n, uint8_t out[32]) {
    Sha256 s;
    sha256_init(&s);
    sha256_update(&s, p, n);
    sha256_final(&s, out);
}

void sha256_hex(const uint8_t h[32], char out[65]) {
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hx[h[i] >> 4];
        out[2 * i + 1] = hx[h[i] & 15];
    }
    out[64] = 0;
}

/* ---- little-endian fields ------------------------------------------------------------- */

static uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static const char MAGIC[8] = {'T', 'R', 'C', 'C', 'A', 'C', 'H', 'E'};
enum { META_FIXED = 128 + 16 + 7 * 4 };

static int bad(char *why, size_t whyn, const char *fmt, ...) TC_PRINTF(3, 4);
static int bad(char *why, size_t whyn, const char *fmt, ...) {
    if (why && whyn) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whyn, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The checksum: SHA-256 of the header's first 64 bytes and of everything after it. */
static void entry_checksum(const uint8_t *b, size_t n, uint8_t out[32]) {
    Sha256 s;
    sha256_init(&s);
    sha256_update(&s, b, 64);
    sha256_update(&s, b + CACHE_HEADER, n - CACHE_HEADER);
    sha256_final(&s, out);
}

/* A NUL-terminated string filling exactly len bytes (len counts the NUL). */
static bool exact_cstr(const uint8_t *p, size_t len) {
    return len >= 1 && p[len - 1] == 0 && memchr(p, 0, len) == p + len - 1;
}

static bool ident_ok(const char *s) {
    if (!*s) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '$' || *s == '.'))
            return false;
    return true;
}

int cache_header_check(const void *hdr, uint64_t n, char *why, size_t whyn) {
    const uint8_t *b = hdr;
    if (n == 0) return bad(why, whyn, "empty file");
    if (n < CACHE_HEADER) return bad(why, whyn, "truncated header (%llu of %d bytes)", (unsigned long long)n, CACHE_HEADER);
    if (memcmp(b, MAGIC, 8) != 0) return bad(why, whyn, "bad magic (not a tritonc cache entry)");
    uint32_t fmt = rd32(b + 8), hsz = rd32(b + 12);
    if (fmt != CACHE_FORMAT) {
        bad(why, whyn, "format %u, this tritonc reads %d", fmt, CACHE_FORMAT);
        return -2;
    }
    if (hsz != CACHE_HEADER) return bad(why, whyn, "bad header size %u", hsz);
    if (n > CACHE_MAX_FILE) return bad(why, whyn, "entry of %llu bytes exceeds the limit", (unsigned long long)n);
    uint64_t klen = rd32(b + 48), mlen = rd32(b + 52), plen = rd32(b + 56), clen = rd32(b + 60);
    uint64_t total = CACHE_HEADER + klen + mlen + plen + clen;   /* no overflow: each < 2^32 */
    if (total > n) return bad(why, whyn, "truncated (%llu of %llu bytes)", (unsigned long long)n, (unsigned long long)total);
    if (total < n) return bad(why, whyn, "%llu trailing bytes", (unsigned long long)(n - total));
    return 0;
}

int cache_entry_parse(const void *bytes, size_t n, CacheEntry *out, char *why, size_t whyn) {
    const uint8_t *b = bytes;
    if (why && whyn) why[0] = 0;
    if (!b || !out) return bad(why, whyn, "no entry");
    memset(out, 0, sizeof *out);
    if (cache_header_check(b, n, why, whyn) != 0) return -1;
    uint64_t klen = rd32(b + 48), mlen = rd32(b + 52), plen = rd32(b + 56), clen = rd32(b + 60);
    uint8_t sum[32];
    entry_checksum(b, n, sum);
    if (memcmp(sum, b + 64, 32) != 0) return bad(why, whyn, "checksum mismatch");

    const uint8_t *key = b + CACHE_HEADER, *meta = key + klen, *ptx = meta + mlen, *cub = ptx + plen;
    if (klen < 2 || klen > sizeof(((CacheKey *)0)->text) || !exact_cstr(key, (size_t)klen))
        return bad(why, whyn, "bad key text");
    uint8_t kh[32];
    sha256(key, (size_t)klen - 1, kh);
    if (memcmp(kh, b + 16, 32) != 0) return bad(why, whyn, "key hash does not match the key");
    if (mlen < META_FIXED) return bad(why, whyn, "metadata too short");
    CacheMeta *m = &out->meta;
    memcpy(m->kernel, meta, 128);
    memcpy(m->target, meta + 128, 16);
    if (!memchr(m->kernel, 0, 128) || !ident_ok(m->kernel)) return bad(why, whyn, "bad kernel name");
    if (!memchr(m->target, 0, 16) || strncmp(m->target, "cuda:", 5) != 0)
        return bad(why, whyn, "bad target");
    int32_t f[7];
    for (int i = 0; i < 7; i++) f[i] = (int32_t)rd32(meta + 144 + 4 * i);
    m->threads = f[0]; m->shared_bytes = f[1]; m->num_regs = f[2];
    m->num_warps = f[3]; m->num_stages = f[4]; m->nparams = f[5]; m->flags = f[6];
    if (m->threads < 32 || m->threads > 1024 || m->threads % 32)
        return bad(why, whyn, "bad thread count %d", m->threads);
    if (m->shared_bytes < 0 || m->shared_bytes > (1 << 20)) return bad(why, whyn, "bad shared memory size");
    if (m->num_regs < 0 || m->num_regs > 255) return bad(why, whyn, "bad register count");
    if (m->num_warps < 1 || m->num_warps > 32 || (m->num_warps & (m->num_warps - 1)))
        return bad(why, whyn, "bad num_warps");
    if (m->num_stages < 0 || m->num_stages > 64) return bad(why, whyn, "bad num_stages");
    if (m->nparams < 0 || m->nparams > CACHE_MAX_PARAMS) return bad(why, whyn, "bad parameter count");
    if (m->flags & ~(CACHE_META_OCC_CHECKED | CACHE_META_DRIVER_CUBIN)) return bad(why, whyn, "bad flags");
    if (mlen != (uint64_t)META_FIXED + 4u * (uint64_t)m->nparams)
        return bad(why, whyn, "metadata length does not match its parameter count");
    for (int i = 0; i < m->nparams; i++) {
        const uint8_t *q = meta + META_FIXED + 4 * i;
        CacheParam *p = &m->params[i];
        p->index = (uint16_t)(q[0] | q[1] << 8);
        p->dtype = q[2];
        p->flags = q[3];
        if (p->index >= 1024 || p->dtype < TC_I1 || p->dtype > TC_FP8E4B15 || (p->flags & ~3u))
            return bad(why, whyn, "bad parameter %d", i);
    }
    if (plen < 2 || !exact_cstr(ptx, (size_t)plen)) return bad(why, whyn, "bad PTX text");
    out->key = (const char *)key;
    out->key_len = (size_t)klen - 1;
    memcpy(out->keyhash, b + 16, 32);
    out->ptx = (const char *)ptx;
    out->ptx_len = (size_t)plen - 1;
    out->cubin = clen ? cub : NULL;
    out->cubin_len = (size_t)clen;
    return 0;
}

uint8_t *cache_entry_build(const char *key, const CacheMeta *m, const char *ptx,
                           const void *cubin, size_t cubin_len, size_t *n) {
    size_t klen = strlen(key) + 1, plen = strlen(ptx) + 1;
    if (m->nparams < 0 || m->nparams > CACHE_MAX_PARAMS) return NULL;
    size_t mlen = META_FIXED + 4 * (size_t)m->nparams;
    if (klen > 0xffffffffu || plen > 0xffffffffu || cubin_len > 0xffffffffu) return NULL;
    size_t total = CACHE_HEADER + klen + mlen + plen + cubin_len;
    if (total > CACHE_MAX_FILE) return NULL;
    uint8_t *b = calloc(1, total);
    if (!b) return NULL;
    memcpy(b, MAGIC, 8);
    wr32(b + 8, CACHE_FORMAT);
    wr32(b + 12, CACHE_HEADER);
    sha256(key, klen - 1, b + 16);
    wr32(b + 48, (uint32_t)klen);
    wr32(b + 52, (uint32_t)mlen);
    wr32(b + 56, (uint32_t)plen);
    wr32(b + 60, (uint32_t)cubin_len);
    uint8_t *p = b + CACHE_HEADER;
    memcpy(p, key, klen); p += klen;
    snprintf((char *)p, 128, "%s", m->kernel);
    snprintf((char *)p + 128, 16, "%s", m->target);
    int32_t f[7] = {m->threads, m->shared_bytes, m->num_regs, m->num_warps, m->num_stages,
                    m->nparams, m->flags};
    for (int i = 0; i < 7; i++) wr32(p + 144 + 4 * i, (uint32_t)f[i]);
    for (int i = 0; i < m->nparams; i++) {
        uint8_t *q = p + META_FIXED + 4 * i;
        q[0] = (uint8_t)m->params[i].index;
        q[1] = (uint8_t)(m->params[i].index >> 8);
        q[2] = m->params[i].dtype;
        q[3] = m->params[i].flags;
    }
    p += mlen;
    memcpy(p, ptx, plen); p += plen;
    if (cubin_len) memcpy(p, cubin, cubin_len);
    entry_checksum(b, total, b + 64);
    *n = total;
    return b;
}

/* ---- the key ------------------------------------------------------------------------------ */

void cache_target_name(const tc_target *t, char *buf, size_t n) {
    snprintf(buf, n, "%s:%d%s", t->backend[0] ? t->backend : "cuda", t->arch,
             t->arch_suffix_a ? "a" : "");
}

/* Which build of tritonc made an entry (cache.h). The Makefile writes TRITONC_BUILD_ID;
 * a build without it hashes the file that holds this code (libtritonc.so, or the program
 * libtritonc.a was linked into), once per process. */
#if defined(__has_include)
#if __has_include("build_id.h")
#include "build_id.h"
#endif
#endif
static char build_id[72];
static void build_id_init(void) {
#ifdef TRITONC_BUILD_ID
    snprintf(build_id, sizeof build_id, "%s", TRITONC_BUILD_ID);
#else
    Dl_info di;
    const char *path = "/proc/self/exe";
    if (dladdr((void *)&build_id_init, &di) && di.dli_fname && di.dli_fname[0]) path = di.dli_fname;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    Sha256 s;
    sha256_init(&s);
    uint8_t buf[65536], h[32];
    ssize_t r = fd < 0 ? -1 : 0;
    while (fd >= 0 && (r = read(fd, buf, sizeof buf)) != 0) {
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        sha256_update(&s, buf, (size_t)r);
    }
    if (fd >= 0) close(fd);
    sha256_final(&s, h);
    char hx[65];
    sha256_hex(h, hx);
    snprintf(build_id, sizeof build_id, "%s", r == 0 ? hx : "unknown");
#endif
}

const char *cache_build_id(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_id_init);
    return build_id;
}

bool cache_key_make(CacheKey *k, const CacheKeyIn *in) {
    uint8_t sh[32];
    char shx[65], tn[48];
    sha256(in->src, in->src_len, sh);
    sha256_hex(sh, shx);
    cache_target_name(in->target, tn, sizeof tn);
    int w = snprintf(k->text, sizeof k->text,
                     "tritonc %s cache %d build %s\nsource %s\nkernel %s\nspec %s\n"
                     "num_warps %d\nnum_stages %d\ntarget %s\ndebug %d\nminnctapersm %d\n",
                     TRITONC_VERSION, CACHE_FORMAT, in->build ? in->build : cache_build_id(), shx,
                     in->kernel, in->spec, in->num_warps, in->num_stages, tn, in->debug ? 1 : 0,
                     in->occupancy ? 1 : 0);
    if (w < 0 || (size_t)w >= sizeof k->text) { k->hex[0] = 0; return false; }
    /* Triton's DISABLE_MMA_V3 picks mma.sync over wgmma (src/gpu/mma.c) */
    const char *nomma3 = getenv("DISABLE_MMA_V3");
    /* TRITONC_GPU_UNVERIFIED adds lowerings not yet checked on a GPU; TRITON_DEFAULT_FP_FUSION
     * (gpu/gpu.h) */
    int w2 = snprintf(k->text + w, sizeof k->text - (size_t)w,
                      "disable_mma_v3 %d\nunverified %u\nfp_fusion %d\n",
                      nomma3 && *nomma3 && strcmp(nomma3, "0") != 0, gpu_unverified(), gpu_fp_fusion());
    if (w2 < 0 || (size_t)(w + w2) >= sizeof k->text) { k->hex[0] = 0; return false; }
    w += w2;
    if (in->global_scratch && memmem(in->src, in->src_len, "make_tensor_descriptor", 22)) {
        w2 = snprintf(k->text + w, sizeof k->text - (size_t)w, "global_scratch 1\n");
        if (w2 < 0 || (size_t)(w + w2) >= sizeof k->text) { k->hex[0] = 0; return false; }
        w += w2;
    }
    uint8_t kh[32];
    sha256(k->text, (size_t)w, kh);
    sha256_hex(kh, k->hex);
    return true;
}

/* ---- the directory --------------------------------------------------------------------- */

/* The cache directory's path must leave room for an entry's name within PATH_MAX. */
enum { CACHE_DIR_MAX = 4000 };

int cache_dir_why(char *buf, size_t n, char *why, size_t whyn) {
    const char *d = getenv("TRITONC_CACHE_DIR"), *h = getenv("HOME");
    size_t cap = n < CACHE_DIR_MAX ? n : CACHE_DIR_MAX;
    if (why && whyn) why[0] = 0;
    if (d && *d) {
        if (strlen(d) < cap) return snprintf(buf, n, "%s", d) >= 0;
        return bad(why, whyn, "TRITONC_CACHE_DIR is too long (%zu characters; at most %zu)", strlen(d),
            cap - 1);
    } else if (h && *h) {
        if (strlen(h) + 16 < cap) return snprintf(buf, n, "%s/.cache/tritonc", h) >= 0;
        return bad(why, whyn, "HOME is too long for a cache directory under it (%zu characters; at "
            "most %zu)", strlen(h), cap - 17);
    }
    bad(why, whyn, "neither TRITONC_CACHE_DIR nor HOME is set");
    return 0;
}

bool cache_dir(char *buf, size_t n) { return cache_dir_why(buf, n, NULL, 0) > 0; }

/* Creates the directory and its missing parents, private to the user (0700). */
static int mkdirs(const char *path) {
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) return -1;
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0700) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* A directory or entry is used only when it is the user's and no one else may write to it:
 * a shared cache could otherwise hand over a forged kernel. False with why ("belongs to uid
 * 0, not to you (uid 1000)"). */
static bool safe_owner(const struct stat *st, char *why, size_t whyn) {
    if (st->st_uid != geteuid()) {
        bad(why, whyn, "belongs to uid %u, not to you (uid %u)", (unsigned)st->st_uid,
            (unsigned)geteuid());
        return false;
    }
    if (st->st_mode & (S_IWGRP | S_IWOTH)) {
        bad(why, whyn, "is writable by %s (mode %04o)", st->st_mode & S_IWOTH ? "others" : "its group",
            (unsigned)(st->st_mode & 07777));
        return false;
    }
    return true;
}

/* Opens the cache directory dir: a descriptor; -1 with errno (ENOENT: there is none yet); -2
 * when it is not safe to use (why: "the cache directory D is writable by others (mode
 * 0777)"). */
static int dir_open(const char *dir, char *why, size_t whyn) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    char r[128];
    if (!safe_owner(&st, r, sizeof r)) {
        bad(why, whyn, "the cache directory %s %s", dir, r);
        close(fd);
        return -2;
    }
    return fd;
}

static bool always_compile(void) {
    const char *v = getenv("TRITONC_ALWAYS_COMPILE");
    return v && *v && strcmp(v, "0") != 0;
}

static bool read_at(int fd, void *p, size_t n, off_t off) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)p + got, n - got, off + (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        got += (size_t)r;
    }
    return true;
}

/* Reads an entry file: its header first, checked against the file's size, then the rest,
 * so that a damaged or hostile file (an 8 GiB sparse one) costs 96 bytes. -1 with why (-2:
 * another format). */
static int read_entry(int fd, uint8_t **out, size_t *n, char *why, size_t whyn) {
    struct stat st;
    *out = NULL;
    *n = 0;
    if (fstat(fd, &st) != 0) return bad(why, whyn, "unreadable: %s", strerror(errno));
    if (!S_ISREG(st.st_mode)) return bad(why, whyn, "not a regular file");
    uint8_t h[CACHE_HEADER];
    uint64_t size = (uint64_t)st.st_size;
    size_t hn = size < CACHE_HEADER ? (size_t)size : CACHE_HEADER;
    if (!read_at(fd, h, hn, 0)) return bad(why, whyn, "unreadable");
    int r = cache_header_check(h, size, why, whyn);
    if (r) return r;
    uint8_t *b = malloc((size_t)size);
    if (!b) return bad(why, whyn, "out of memory");
    memcpy(b, h, CACHE_HEADER);
    if (!read_at(fd, b + CACHE_HEADER, (size_t)size - CACHE_HEADER, CACHE_HEADER)) {
        free(b);
        return bad(why, whyn, "unreadable (changed while read?)");
    }
    *out = b;
    *n = (size_t)size;
    return 0;
}

/* ---- the size cap: least recently used entries go first ----------------------------------- */

uint64_t tc_cache_max_bytes(void) {
    const char *v = getenv("TRITONC_CACHE_MAX_BYTES");
    uint64_t def = (uint64_t)1 << 30;
    if (!v || !*v) return def;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || end == v || *v == '-') return def;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && *end == 'i') end++;
    if (*end == 'B') end++;
    if (*end || (shift && x > (UINT64_MAX >> shift))) return def;
    return (uint64_t)x << shift;
}

/* When an entry was last used: a hit sets the access time (cache_lookup), a store the
 * modification time. */
static double last_used(const struct stat *st) {
    double a = st->st_atim.tv_sec + st->st_atim.tv_nsec * 1e-9;
    double m = st->st_mtim.tv_sec + st->st_mtim.tv_nsec * 1e-9;
    return a > m ? a : m;
}

typedef struct Aged { char name[72]; uint64_t size; double used; } Aged;

static int aged_cmp(const void *a, const void *b) {
    const Aged *x = a, *y = b;
    return x->used < y->used ? -1 : x->used > y->used ? 1 : strcmp(x->name, y->name);
}

static bool is_entry_name(const char *s);

/* Removes the least recently used entries of the directory dfd, never `keep`, until they
 * take at most the cap. */
static void cache_trim(int dfd, const char *keep) {
    uint64_t cap = tc_cache_max_bytes(), total = 0;
    if (cap == 0) return;
    int fd = dup(dfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) { if (fd >= 0) close(fd); return; }
    Aged *v = NULL;
    size_t n = 0, vcap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        struct stat st;
        if (!is_entry_name(de->d_name) || fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (n == vcap) {
            size_t nc = vcap ? vcap * 2 : 64;
            Aged *nv = realloc(v, nc * sizeof *nv);
            if (!nv) break;
            v = nv;
            vcap = nc;
        }
        snprintf(v[n].name, sizeof v[n].name, "%.68s", de->d_name);
        v[n].size = (uint64_t)st.st_size;
        v[n].used = last_used(&st);
        total += v[n].size;
        n++;
    }
    closedir(d);
    if (total > cap) {
        qsort(v, n, sizeof *v, aged_cmp);
        for (size_t i = 0; i < n && total > cap; i++) {
            if (strcmp(v[i].name, keep) == 0) continue;
            if (unlinkat(dfd, v[i].name, 0) == 0 || errno == ENOENT) total -= v[i].size;
        }
    }
    free(v);
}

CacheResult cache_lookup(const CacheKey *k, CacheEntry *out, void **mem, char *why,
                         size_t whyn) {
    char dir[CACHE_DIR_MAX], name[72], reason[300] = "unreadable";
    *mem = NULL;
    if (why && whyn) why[0] = 0;
    if (!k->hex[0]) return CACHE_OFF;
    int have = cache_dir_why(dir, sizeof dir, reason, sizeof reason);
    if (have <= 0) {
        if (have < 0) snprintf(why, whyn, "%.200s: no disk cache", reason);
        return CACHE_OFF;
    }
    if (always_compile()) {
        snprintf(why, whyn, "TRITONC_ALWAYS_COMPILE is set: the disk cache was not read");
        return CACHE_BYPASS;
    }
    int dfd = dir_open(dir, reason, sizeof reason);
    if (dfd == -2) {
        snprintf(why, whyn, "%.220s: the disk cache is not used", reason);
        return CACHE_UNSAFE_DIR;
    }
    if (dfd < 0) return CACHE_MISS;
    snprintf(name, sizeof name, "%s.tcc", k->hex);
    /* never follows a link, never blocks on a FIFO */
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) {
        int err = errno;
        close(dfd);
        if (err != ELOOP) return CACHE_MISS;
        snprintf(why, whyn, "disk cache entry %s is a symbolic link: not read, compiled instead",
                 name);
        return CACHE_UNSAFE;
    }
    uint8_t *b = NULL;
    size_t n = 0;
    struct stat st0;
    bool have_st = fstat(fd, &st0) == 0;
    int r = -1;
    if (have_st && !safe_owner(&st0, reason, sizeof reason)) {
        close(fd);
        close(dfd);
        snprintf(why, whyn, "disk cache entry %s %.100s: not read, compiled instead", name, reason);
        return CACHE_UNSAFE;
    }
    r = read_entry(fd, &b, &n, reason, sizeof reason);
    if (r == 0 && cache_entry_parse(b, n, out, reason, sizeof reason) == 0) {
        char hx[65];
        sha256_hex(out->keyhash, hx);
        if (strcmp(hx, k->hex) != 0) {
            snprintf(reason, sizeof reason, "the entry belongs to another key (renamed file?)");
        } else if (out->key_len != strlen(k->text) || memcmp(out->key, k->text, out->key_len) != 0) {
            /* a SHA-256 collision or a forged file: never use it; leave it alone */
            free(b);
            close(fd);
            close(dfd);
            snprintf(why, whyn, "disk cache entry %s holds another key: ignored", name);
            return CACHE_MISS;
        } else {
            /* used now: the size cap evicts the least recently used first */
            struct timespec ts[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}};
            futimens(fd, ts);
            close(fd);
            close(dfd);
            *mem = b;
            return CACHE_HIT;
        }
    }
    close(fd);
    free(b);
    memset(out, 0, sizeof *out);
    /* Delete it, unless a writer has replaced it meanwhile; the note says which happened. */
    struct stat st1;
    char fate[120] = "deleted";
    if (!have_st || fstatat(dfd, name, &st1, AT_SYMLINK_NOFOLLOW) != 0 ||
        st1.st_ino != st0.st_ino || st1.st_dev != st0.st_dev)
        snprintf(fate, sizeof fate, "not deleted (another process has replaced or removed it)");
    else if (unlinkat(dfd, name, 0) != 0)
        snprintf(fate, sizeof fate, "could not be deleted (%s)", strerror(errno));
    close(dfd);
    snprintf(why, whyn, "disk cache entry %s was damaged (%.120s): %s; recompiled", name, reason,
             fate);
    return CACHE_CORRUPT;
}

int cache_store(const CacheKey *k, const CacheMeta *meta, const char *ptx, const void *cubin,
                size_t cubin_len, char *why, size_t whyn) {
    char dir[CACHE_DIR_MAX], name[72], tmp[96];
    if (why && whyn) why[0] = 0;
    if (!k->hex[0] || !cache_dir(dir, sizeof dir)) return 0;
    if (mkdirs(dir) != 0) return bad(why, whyn, "cannot create the cache directory %s: %s", dir, strerror(errno));
    char reason[300];
    int dfd = dir_open(dir, reason, sizeof reason);
    if (dfd == -2) return bad(why, whyn, "%s", reason);
    if (dfd < 0) return bad(why, whyn, "cannot open the cache directory %s: %s", dir, strerror(errno));
    size_t n = 0;
    uint8_t *b = cache_entry_build(k->text, meta, ptx, cubin, cubin_len, &n);
    if (!b) { close(dfd); return bad(why, whyn, "the entry is too large or out of memory"); }
    snprintf(name, sizeof name, "%s.tcc", k->hex);
    snprintf(tmp, sizeof tmp, ".tmp.%.16s.%016llx", k->hex, (unsigned long long)random_u64());
    int r = file_replace_at(dfd, name, tmp, 0600, b, n);
    int err = errno;
    free(b);
    if (r == 0) cache_trim(dfd, name);
    close(dfd);
    if (r != 0) return bad(why, whyn, "cannot write %s/%s: %s", dir, name, strerror(err));
    return 0;
}

/* ---- listing and clearing (public) -------------------------------------------------------- */

static bool is_entry_name(const char *s) {
    if (strlen(s) != 68 || strcmp(s + 64, ".tcc") != 0) return false;
    for (int i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return false;
    return true;
}

tc_status tc_cache_dir(char *buf, size_t n) {
    if (!buf || !n) return TC_ERR_ARG;
    char d[CACHE_DIR_MAX];
    int have = cache_dir_why(d, sizeof d, NULL, 0);
    if (have <= 0) {
        buf[0] = 0;
        return have < 0 ? TC_ERR_LIMIT : TC_ERR_NOT_FOUND;
    }
    if ((size_t)snprintf(buf, n, "%s", d) >= n) { buf[0] = 0; return TC_ERR_ARG; }
    return TC_OK;
}

/* The cache directory (into dir) opened for listing: *d stays NULL when it does not exist.
 * A directory that is not safe to use is an error that says why. */
static tc_status open_listing(tc_context *ctx, char *dir, size_t n, DIR **d) {
    *d = NULL;
    char why[4200];
    int have = cache_dir_why(dir, n, why, sizeof why);
    if (have <= 0)
        return ctx_fail(ctx, have < 0 ? TC_ERR_LIMIT : TC_ERR_NOT_FOUND, "no disk cache: %s", why);
    int fd = dir_open(dir, why, sizeof why);
    if (fd == -2)
        return ctx_fail(ctx, TC_ERR_IO, "%s: tritonc neither reads nor writes it (make it yours "
                        "and not writable by others, e.g. chmod go-w)", why);
    if (fd < 0) {
        if (errno == ENOENT) return TC_OK;
        return ctx_fail(ctx, TC_ERR_IO, "cannot read the cache directory %s: %s", dir, strerror(errno));
    }
    if (!(*d = fdopendir(fd))) {
        int err = errno;
        close(fd);
        return ctx_fail(ctx, TC_ERR_IO, "cannot read the cache directory %s: %s", dir, strerror(err));
    }
    return TC_OK;
}

static int item_cmp(const void *a, const void *b) {
    const tc_cache_item *x = a, *y = b;
    if (x->age_s != y->age_s) return x->age_s < y->age_s ? 1 : -1;
    return strcmp(x->key, y->key);
}

static const char TEMP_NOTE[] = "temporary: an unfinished or interrupted write";

/* One file of the directory as `cache ls` shows it (item cache.h; false: not ours to list). */
static bool list_one(int dfd, const char *name, time_t now, const char *prefix, tc_cache_item *it) {
    bool entry = is_entry_name(name);
    if (!entry && strncmp(name, ".tmp.", 5) != 0) return false;
    memset(it, 0, sizeof *it);
    snprintf(it->key, sizeof it->key, "%.64s", name);
    struct stat st;
    /* never follows a link, never blocks on a FIFO */
    int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0 && errno == ELOOP && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        snprintf(it->note, sizeof it->note, "not read: a symbolic link");
    else if (fd < 0 || fstat(fd, &st) != 0) { if (fd >= 0) close(fd); return false; }
    it->size = (uint64_t)st.st_size;
    it->age_s = difftime(now, st.st_mtime);
    if (it->age_s < 0) it->age_s = 0;
    char why[128];
    uint8_t *b = NULL;
    size_t len = 0;
    CacheEntry e;
    if (fd < 0) {
    } else if (!entry) {
        snprintf(it->note, sizeof it->note, "%s", TEMP_NOTE);
    } else if (!safe_owner(&st, why, sizeof why)) {
        snprintf(it->note, sizeof it->note, "not read: %.110s", why);
    } else {
        int r = read_entry(fd, &b, &len, why, sizeof why);
        if (r == -2) snprintf(it->note, sizeof it->note, "stale: %.110s", why);
        else if (r || cache_entry_parse(b, len, &e, why, sizeof why) != 0)
            snprintf(it->note, sizeof it->note, "damaged: %.110s", why);
        else {
            char hx[65];
            sha256_hex(e.keyhash, hx);
            snprintf(it->kernel, sizeof it->kernel, "%s", e.meta.kernel);
            snprintf(it->target, sizeof it->target, "%s", e.meta.target);
            if (strcmp(hx, it->key) != 0)
                snprintf(it->note, sizeof it->note, "damaged: file name does not match its key");
            else if (strncmp(e.key, prefix, strlen(prefix)) != 0)
                snprintf(it->note, sizeof it->note, "stale: made by another build of tritonc");
            else {
                it->valid = 1;
                snprintf(it->note, sizeof it->note, "%s", e.cubin_len ? "ptx+cubin" : "ptx");
            }
        }
    }
    free(b);
    if (fd >= 0) close(fd);
    return true;
}

tc_status tc_cache_list(tc_context *ctx, tc_cache_item **items, int *n) {
    if (!ctx) return TC_ERR_ARG;
    if (!items || !n) return ctx_fail(ctx, TC_ERR_ARG, "tc_cache_list: NULL output");
    *items = NULL;
    *n = 0;
    char dir[CACHE_DIR_MAX];
    DIR *d = NULL;
    tc_status rc = open_listing(ctx, dir, sizeof dir, &d);
    if (rc || !d) return rc;
    char prefix[200];   /* how this build's keys begin (cache_key_make) */
    snprintf(prefix, sizeof prefix, "tritonc %s cache %d build %s\n", TRITONC_VERSION,
             CACHE_FORMAT, cache_build_id());
    tc_cache_item *v = NULL;
    int cnt = 0, cap = 0;
    struct dirent *de;
    time_t now = time(NULL);
    while ((de = readdir(d))) {
        if (cnt == cap) {
            int nc = cap ? cap * 2 : 32;
            tc_cache_item *nv = realloc(v, (size_t)nc * sizeof *nv);
            if (!nv) { free(v); closedir(d); return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); }
            v = nv;
            cap = nc;
        }
        cnt += list_one(dirfd(d), de->d_name, now, prefix, &v[cnt]);
    }
    closedir(d);
    if (cnt > 1) qsort(v, (size_t)cnt, sizeof *v, item_cmp);
    *items = v;
    *n = cnt;
    return TC_OK;
}

/* Unlinks the files of d that keep() accepts; counts them into *removed. */
static tc_status remove_files(tc_context *ctx, DIR *d, const char *dir, bool (*keep)(const char *),
                              int *removed) {
    struct dirent *de;
    int cnt = 0, fails = 0;
    char failed[4600] = "";
    while ((de = readdir(d))) {
        if (!keep(de->d_name)) continue;
        if (unlinkat(dirfd(d), de->d_name, 0) == 0) cnt++;
        else if (errno != ENOENT) {
            fails++;
            snprintf(failed, sizeof failed, "%s/%s: %s", dir, de->d_name, strerror(errno));
        }
    }
    closedir(d);
    if (removed) *removed = cnt;
    if (fails) return ctx_fail(ctx, TC_ERR_IO, "could not remove %d cache file%s (%s)", fails,
                               fails == 1 ? "" : "s", failed);
    return TC_OK;
}

static bool is_cache_file(const char *s) { return is_entry_name(s) || strncmp(s, ".tmp.", 5) == 0; }

tc_status tc_cache_clear(tc_context *ctx, int *removed) {
    if (!ctx) return TC_ERR_ARG;
    if (removed) *removed = 0;
    char dir[CACHE_DIR_MAX];
    DIR *d = NULL;
    tc_status rc = open_listing(ctx, dir, sizeof dir, &d);
    if (rc || !d) return rc;
    return remove_files(ctx, d, dir, is_cache_file, removed);
}

static bool is_file_name(const char *s) { return strcmp(s, ".") != 0 && strcmp(s, "..") != 0; }

tc_status tc_cache_clear_tuning(tc_context *ctx, int *removed) {
    if (!ctx) return TC_ERR_ARG;
    if (removed) *removed = 0;
    char dir[CACHE_DIR_MAX], tune[CACHE_DIR_MAX + 8], why[4300];
    DIR *d = NULL;
    tc_status rc = open_listing(ctx, dir, sizeof dir, &d);
    if (rc || !d) return rc;
    closedir(d);
    /* the autotuner's records (tc_tuning_cache_dir) */
    snprintf(tune, sizeof tune, "%s/tune", dir);
    int fd = dir_open(tune, why, sizeof why);
    if (fd == -2) return ctx_fail(ctx, TC_ERR_IO, "%s: not cleared", why);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) return TC_OK;
        return ctx_fail(ctx, TC_ERR_IO, "cannot read %s: %s", tune, strerror(errno));
    }
    if (!(d = fdopendir(fd))) {
        close(fd);
        return ctx_fail(ctx, TC_ERR_IO, "cannot read %s", tune);
    }
    return remove_files(ctx, d, tune, is_file_name, removed);
}

int cache_event_of(CacheResult r) {
    switch (r) {
    case CACHE_OFF: return TC_CACHE_UNUSED;
    case CACHE_HIT: return TC_CACHE_HIT;
    case CACHE_CORRUPT: return TC_CACHE_CORRUPT;
    case CACHE_BYPASS: return TC_CACHE_BYPASSED;
    case CACHE_UNSAFE: case CACHE_UNSAFE_DIR: return TC_CACHE_UNSAFE;
    default: return TC_CACHE_MISS;
    }
}

bool cache_may_store(CacheResult r) { return r != CACHE_OFF && r != CACHE_UNSAFE_DIR; }

const char *tc_cache_event_name(int ev) {
    switch (ev) {
    case TC_CACHE_HIT: return "cache hit";
    case TC_CACHE_MISS: return "cache miss";
    case TC_CACHE_CORRUPT: return "cache miss (damaged entry replaced)";
    case TC_CACHE_BYPASSED: return "cache bypassed (TRITONC_ALWAYS_COMPILE)";
    case TC_CACHE_UNSAFE: return "cache not read (not yours, or writable by others)";
    default: return "no disk cache";
    }
}
