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
    uint8_t *uninit;       /* optional: one byte per byte, 1 = never written (check mode) */
} MemRegion;

typedef struct InterpLaunch {
    const IrFunc *f;
    const ArgBits *args;       /* f->nparams of them */
    uint32_t grid[3];          /* each >= 1 */
    const MemRegion *mem; int nmem;
    tc_print_fn print; void *print_user;   /* device_print output (may be NULL) */
    int check;                 /* issue "checks": record races and hazards */
    int threads;               /* 0/1 = sequential; >1: programs in parallel (order-independent
                                  kernels only; the checker decides) */
    uint64_t shuffle_seed;     /* 0 = in order (x outermost... see interp.c); else shuffled */
    Buf *report;               /* check-mode findings, one per line (may be NULL) */
    int findings;              /* out: number of check findings */
} InterpLaunch;

/* Runs the launch. A load or store outside every region is TC_ERR_RUNTIME naming the
 * kernel's file:line:col, the program id and the offending offset; nothing is touched. */
tc_status interp_run(InterpLaunch *l, Err *e);

/* For opt.c's constant folding: evaluates the element-wise instruction `in` of f whose
 * operands are the CONST instructions defs[0..nargs) with exactly the interpreter's
 * semantics, writing the scalar result into out->f (float result) or out->i (int, signed
 * values sign-extended, unsigned zero-extended). False when it cannot (division by zero). */
bool interp_fold(const IrFunc *f, const Inst *in, const Inst *const *defs, Attr *out);

#endif
