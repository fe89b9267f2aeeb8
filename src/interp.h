/* interp.h — the CPU interpreter: runs an IrFunc for every program of a grid, on host
 * memory, checking every access against the tensors of the launch. */
#ifndef INTERP_H
#define INTERP_H

#include "ir.h"

/* One runtime argument's bits: ints sign- (or zero-) extended, floats as double,
 * pointers as host addresses. */
typedef union ArgBits { int64_t i; uint64_t u; double f; } ArgBits;

/* A block of memory the kernel may touch: one tensor of the launch. */
typedef struct MemRegion {
    uint64_t lo, hi;       /* [lo, hi) host addresses */
    const char *name;      /* the argument's name, for messages */
    uint8_t *uninit;       /* optional: one byte per byte, 1 = never written (check mode);
                              stores clear it in every mode */
} MemRegion;

typedef struct InterpLaunch {
    const IrFunc *f;
    const ArgBits *args;       /* f->nparams of them */
    uint32_t grid[3];          /* each >= 1 */
    const MemRegion *mem; int nmem;
    const int *mem_dt;         /* optional, nmem of them: each region's element DType (0 =
                                  unknown). Check mode records and compares per element of
                                  that size and prints values with it (else per byte) */
    tc_print_fn print; void *print_user;   /* device_print output (may be NULL) */
    int check;                 /* check mode (see interp.c): record races, hazards, reads of
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
} InterpLaunch;

/* Region i's element DType, or 0 when unknown. */
static inline int interp_region_dt(const InterpLaunch *l, int i) {
    int d = l->mem_dt ? l->mem_dt[i] : 0;
    return d > 0 && d < DT_COUNT && d != DT_VOID ? d : 0;
}

/* The shuffle seed check mode uses when InterpLaunch.shuffle_seed is 0. */
#define INTERP_CHECK_DEFAULT_SEED 0x5eedULL

/* Runs the launch. A load or store outside every region is TC_ERR_RUNTIME naming the
 * kernel's file:line:col, the program id and the offending offset; nothing is touched. */
tc_status interp_run(InterpLaunch *l, Err *e);

/* For opt.c's constant folding: evaluates the element-wise instruction `in` of f whose
 * operands are the CONST instructions defs[0..nargs) with exactly the interpreter's
 * semantics, writing the scalar result into out->f (float result) or out->i (int, signed
 * values sign-extended, unsigned zero-extended). False when it cannot. Integer division
 * by zero folds to 0, as the interpreter computes it. */
bool interp_fold(const IrFunc *f, const Inst *in, const Inst *const *defs, Attr *out);

#endif
