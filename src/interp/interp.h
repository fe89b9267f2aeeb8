/* interp.h — the CPU interpreter: runs an IrFunc for every program of a grid, on host
 * memory, checking every access against the tensors of the launch. */
#ifndef INTERP_H
#define INTERP_H

#include "ir/ir.h"

#include <string.h>

/* One runtime argument's bits: ints sign- (or zero-) extended, floats as double,
 * pointers as host addresses. */
typedef union ArgBits { int64_t i; uint64_t u; double f; } ArgBits;

/* A block of memory the kernel may touch: one tensor of the launch. */
typedef struct MemRegion {
    uint64_t lo, hi;       /* [lo, hi) host addresses */
    const char *name;      /* the argument's name, for messages */
    uint8_t *uninit;       /* optional: one bit per byte (uninit_* below), 1 = never written
                              (check mode); stores clear it in every mode */
} MemRegion;

/* The never-written shadow: bit (i & 7) of byte i >> 3 stands for byte i of the tensor (LSB
 * first), so a 4 MiB tensor's shadow is 512 KiB: fewer pages to fault in and to scan. */
static inline size_t uninit_size(size_t nbytes) { return (nbytes + 7) >> 3; }

/* Marks bytes [0, nbytes) never written; the unused bits of the last byte stay clear. */
static inline void uninit_set_all(uint8_t *u, size_t nbytes) {
    memset(u, 0xff, nbytes >> 3);
    if (nbytes & 7) u[nbytes >> 3] = (uint8_t)((1u << (nbytes & 7)) - 1);
}

/* Clears bytes [off, off + len): partial end bytes by mask, the whole ones between in one
 * memset (contiguous stores take this path once per access). A shadow byte covers 8 tensor
 * bytes, which neighbouring stores of programs on other threads (run --parallel) may share:
 * the partial bytes are cleared atomically. */
static inline void uninit_clear(uint8_t *u, uint64_t off, uint64_t len) {
    if (!len) return;
    uint64_t end = off + len, b0 = off >> 3, b1 = end >> 3;
    unsigned h = (unsigned)(off & 7), t = (unsigned)(end & 7);
    if (b0 == b1) {  /* within one shadow byte: bits h..t-1 */
        __atomic_fetch_and(&u[b0], (uint8_t)~(((1u << t) - 1) & ~((1u << h) - 1)), __ATOMIC_RELAXED);
        return;
    }
    if (h) __atomic_fetch_and(&u[b0++], (uint8_t)((1u << h) - 1), __ATOMIC_RELAXED);
    if (b1 > b0) memset(u + b0, 0, (size_t)(b1 - b0));
    if (t) __atomic_fetch_and(&u[b1], (uint8_t)~((1u << t) - 1), __ATOMIC_RELAXED);
    /* t == 0: b1 may be past the shadow */
}

/* The first never-written byte of [off, off + len), relative to off; -1 when none. */
static inline int64_t uninit_find(const uint8_t *u, uint64_t off, uint64_t len) {
    uint64_t i = off, end = off + len;
    for (; i < end && (i & 7); i++)
        if (u[i >> 3] >> (i & 7) & 1) return (int64_t)(i - off);
    for (; i + 64 <= end; i += 64) {  /* 8 shadow bytes at a time while all clear */
        uint64_t w;
        memcpy(&w, u + (i >> 3), sizeof w);
        if (w) break;
    }
    for (; i + 8 <= end; i += 8)
        if (u[i >> 3]) break;
    for (; i < end; i++)
        if (u[i >> 3] >> (i & 7) & 1) return (int64_t)(i - off);
    return -1;
}

/* The region (index into mem) holding address a, or -1. */
static inline int mem_region_of(const MemRegion *mem, int nmem, uint64_t a) {
    for (int i = 0; i < nmem; i++)
        if (a >= mem[i].lo && a < mem[i].hi) return i;
    return -1;
}

typedef struct InterpLaunch {
    const IrFunc *f;
    const ArgBits *args;       /* f->nparams of them */
    uint32_t grid[3];          /* each >= 1 */
    const MemRegion *mem; int nmem;
    const int *mem_dt;         /* optional, nmem of them: each region's element DType (0 =
                                  unknown). Check mode records and compares per element of
                                  that size and prints values with it (else per byte) */
    tc_print_fn print; void *print_user;   /* device_print output (may be NULL) */
    int check;                 /* check mode (see check.h): record races, hazards, reads of
                                  never-written memory and NaN/Inf production, and compare the
                                  results with a shuffled (and, threads > 1, parallel) run */
    int threads;               /* 0/1 = sequential; >1: programs on that many threads */
    uint64_t shuffle_seed;     /* 0 = in order (x outermost, then y, then z); else the programs
                                  run in an order shuffled by this seed. Check mode compares
                                  with this seed's order (0: a fixed default, reported) */
    Buf *report;               /* check-mode findings, one per line, and a summary (may be NULL) */
    int findings;              /* out: number of check findings (deduplicated reports) */
    int notes;                 /* out: check-mode notes (division by zero, rounding) */
    uint64_t seed_used;        /* out: the shuffle seed check mode compared with (0: none) */
    tc_check_finding *records; int nrecords;   /* out: check mode's findings as records
                                                  (malloc'd; the caller frees them) */
    double timeout_s;          /* > 0: stop with TC_ERR_TIMEOUT after this many seconds,
                                  checked between programs and every few loop iterations */
    tc_progress_fn progress;   /* called on the launching thread ("programs", done, total) */
    void *progress_user;
    /* interp_run's own: */
    double start, deadline, last_report;
    uint64_t done;             /* atomic: programs finished in the current pass */
    int reported;
} InterpLaunch;

/* Region i's element DType, or 0 when unknown. */
static inline int interp_region_dt(const InterpLaunch *l, int i) {
    int d = l->mem_dt ? l->mem_dt[i] : 0;
    return d > 0 && d < DT_COUNT && d != DT_VOID ? d : 0;
}

/* The order used by the shuffled mode: a permutation of [0, n) from a seed: Fisher-Yates
 * (splitmix64) up to SHUFFLE_TABLE_MAX programs, never the identity; beyond, a bijection
 * without storage (affine maps and xor-shifts, cycle-walked). Free with shuffle_free. */
#define SHUFFLE_TABLE_MAX (1ULL << 22)
typedef struct Shuffle { uint64_t n, mask, a, b, c; int half; uint32_t *order; } Shuffle;
void shuffle_init(Shuffle *s, uint64_t n, uint64_t seed);
uint64_t shuffle_at(const Shuffle *s, uint64_t i);
void shuffle_free(Shuffle *s);

/* The shuffle seed check mode uses when InterpLaunch.shuffle_seed is 0. */
#define INTERP_CHECK_DEFAULT_SEED 0x5eedULL

/* Runs the launch. A load or store outside every region is TC_ERR_RUNTIME naming the
 * kernel's file:line:col, the program id and the offending offset; nothing is touched. */
tc_status interp_run(InterpLaunch *l, Err *e);

#endif
