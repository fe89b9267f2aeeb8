/* cache.h — the on-disk cache of compiled kernels (cache.c), and SHA-256.
 *
 * Directory: $TRITONC_CACHE_DIR, else $HOME/.cache/tritonc; with neither set there is no
 * disk cache (not an error). It is created 0700; a directory or entry that is not the
 * user's or that others may write to is never read (nor the directory written). One file
 * per entry (0600), named <64 hex digits of the key>.tcc, written atomically (a temporary
 * file ".tmp.*" of a random name in the same directory, fsync, rename), so several
 * processes storing one key at once all succeed and readers never see half a file.
 *
 * The key is a text holding every input that changes the code:
 * tritonc's version and build (a hash of its sources and compiler flags), the SHA-256 of the
 * module's source, the kernel, the specialization string, num_warps, num_stages, the
 * target, TRITON_DEBUG and whether the PTX carries the JIT occupancy step's .minnctapersm;
 * never which path (JIT or `tritonc compile`) made it. The file name is the SHA-256 of that
 * text; the entry keeps the text and a lookup compares it, so a collision can never hand
 * back the wrong kernel.
 *
 * The occupancy step (cuda_module_build) runs only under the JIT. Its PTX is stored under
 * the key with occupancy set; when the step leaves the PTX as it was, the entry goes under
 * the plain key (the one `tritonc compile` uses) with CACHE_META_OCC_CHECKED, so that one
 * entry serves both.
 *
 * The JIT stores PTX only (the driver's JIT cache, ~/.nv/ComputeCache, serves a later
 * process); an entry made by `tritonc compile` keeps ptxas's cubin, which the JIT loads.
 *
 * File format 1 (little-endian):
 *   0   8  magic "TRCCACHE"
 *   8   4  format (1)
 *   12  4  header size (96)
 *   16 32  SHA-256 of the key text
 *   48  4  key length (with its NUL)     52 4 metadata length
 *   56  4  PTX length (with its NUL)     60 4 cubin length (0: none)
 *   64 32  SHA-256 of bytes [0, 64) and [96, end): the checksum of everything else
 *   96     key text, metadata, PTX, cubin
 * Metadata: kernel name char[128], target char[16], int32 threads, shared_bytes, num_regs,
 * num_warps, num_stages, nparams, flags (CACHE_META_*); then per parameter of the entry: uint16 index of
 * the kernel parameter, uint8 dtype (tc_dtype; the pointee for pointers), uint8 flags
 * (1 pointer, 2 divisible by 16). */
#ifndef CACHE_H
#define CACHE_H

#include "base/tc.h"

#define CACHE_FORMAT 1
#define CACHE_HEADER 96
#define CACHE_MAX_PARAMS 128
#define CACHE_MAX_FILE (512u << 20)   /* larger files are refused as corrupt */

enum { CACHE_PARAM_PTR = 1, CACHE_PARAM_DIV16 = 2 };
/* OCC_CHECKED: the JIT ran the occupancy step on this PTX and it changed nothing;
 * DRIVER_CUBIN, set by older builds only: the cubin is the driver's, not ptxas's (`tritonc
 * compile` ignores it, so that its output never depends on what the JIT did before). */
enum { CACHE_META_OCC_CHECKED = 1, CACHE_META_DRIVER_CUBIN = 2 };

typedef struct CacheParam {
    uint16_t index;   /* which kernel parameter */
    uint8_t dtype;    /* tc_dtype (pointee for pointers) */
    uint8_t flags;    /* CACHE_PARAM_* */
} CacheParam;

typedef struct CacheMeta {
    char kernel[128];   /* the .entry name */
    char target[16];    /* "cuda:90a" */
    int threads, shared_bytes, num_regs, num_warps, num_stages;
    int nparams;        /* parameters of the entry, in order */
    int flags;          /* CACHE_META_* */
    CacheParam params[CACHE_MAX_PARAMS];
} CacheMeta;

/* A parsed entry; key, ptx and cubin point into the parsed bytes. */
typedef struct CacheEntry {
    uint8_t keyhash[32];
    const char *key; size_t key_len;        /* NUL-terminated; length without the NUL */
    CacheMeta meta;
    const char *ptx; size_t ptx_len;        /* NUL-terminated; length without the NUL */
    const uint8_t *cubin; size_t cubin_len; /* NULL/0 when none */
} CacheEntry;

/* Checks an entry's header (its first min(n, 96) bytes at hdr) against the file's size n:
 * 0, -2 for an entry of another format, else -1; why says what is wrong. */
int cache_header_check(const void *hdr, uint64_t n, char *why, size_t whyn);
/* Validates and parses one entry file's bytes. Returns 0, or -1 with the reason in why
 * (bad magic, unknown format, truncated, checksum mismatch, ...). Reads nothing outside
 * bytes[0, n); the fuzz target calls it on hostile input. */
int cache_entry_parse(const void *bytes, size_t n, CacheEntry *out, char *why, size_t whyn);
/* Serializes an entry (malloc'd; NULL when out of memory or a field is out of range). */
uint8_t *cache_entry_build(const char *key, const CacheMeta *meta, const char *ptx,
                           const void *cubin, size_t cubin_len, size_t *n);

/* The key. */
typedef struct CacheKey {
    char text[1536];
    char hex[65];       /* SHA-256 of text: the entry's file name without ".tcc" */
} CacheKey;
/* What the key is made of. */
typedef struct CacheKeyIn {
    const char *src; size_t src_len;   /* the module's source text */
    const char *kernel, *spec;         /* the kernel's name, the specialization string */
    int num_warps, num_stages;
    const tc_target *target;
    bool debug;                        /* TRITON_DEBUG (trace_debug) */
    bool occupancy;                    /* the PTX has the occupancy step's .minnctapersm */
    const char *build;                 /* NULL: this build (cache_build_id) */
    bool global_scratch;               /* gpu_compile's: a JIT launch passes a scratch area
                                          (keyed only for sources that make descriptors, so
                                          that other kernels' entries stay shared with
                                          ahead-of-time compiles) */
} CacheKeyIn;
/* False when the key does not fit (then the cache is not used for it). */
bool cache_key_make(CacheKey *k, const CacheKeyIn *in);
/* This build of tritonc: a hash of its sources and flags (build/gen/build_id.h, made by the
 * Makefile), else of the binary holding this code. */
const char *cache_build_id(void);
/* "cuda:90a" */
void cache_target_name(const tc_target *t, char *buf, size_t n);

/* The directory: 1; 0 when $TRITONC_CACHE_DIR and $HOME are unset; -1 when the path is too
 * long (under 4000 bytes, room for an entry's name). why says which. */
int cache_dir_why(char *buf, size_t n, char *why, size_t whyn);
bool cache_dir(char *buf, size_t n);

typedef enum CacheResult {
    CACHE_OFF = 0,   /* no cache directory */
    CACHE_HIT,
    CACHE_MISS,
    CACHE_CORRUPT,   /* an entry was there but damaged: deleted; why says how */
    CACHE_BYPASS,    /* TRITONC_ALWAYS_COMPILE=1 */
    CACHE_UNSAFE,    /* the entry is not the user's, is writable by others, or is a link:
                        not read (a store replaces it); why says which */
    CACHE_UNSAFE_DIR /* the same of the directory: neither read nor written */
} CacheResult;

/* The tc_cache_event of a compilation after a lookup gave r; whether to store its result. */
int cache_event_of(CacheResult r);
bool cache_may_store(CacheResult r);

/* Looks a key up. On CACHE_HIT *mem owns the file's bytes (free() it) and *out points into
 * them. why gets a sentence for --verbose on every outcome but a plain miss. */
CacheResult cache_lookup(const CacheKey *k, CacheEntry *out, void **mem, char *why,
                         size_t whyn);
/* Stores an entry atomically. Returns 0, or -1 with why (nothing is left behind). With no
 * cache directory it does nothing and returns 0. */
int cache_store(const CacheKey *k, const CacheMeta *meta, const char *ptx, const void *cubin,
                size_t cubin_len, char *why, size_t whyn);

/* SHA-256. */
typedef struct Sha256 { uint32_t h[8]; uint64_t len; uint8_t buf[64]; size_t nbuf; } Sha256;
void sha256_init(Sha256 *s);
void sha256_update(Sha256 *s, const void *p, size_t n);
void sha256_final(Sha256 *s, uint8_t out[32]);
void sha256(const void *p, size_t n, uint8_t out[32]);
void sha256_hex(const uint8_t h[32], char out[65]);

#endif
