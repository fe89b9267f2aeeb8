/* check.h — check mode: the interpreter's checks, beside it rather than inside it.
 *
 * Check mode (InterpLaunch.check; tc_launch_opts.check, TRITONC_CHECK=1, `tritonc check`)
 * looks for what real hardware would break and the sequential interpreter hides. It runs
 * the programs in order on the real tensors, recording every access in check.c's shadow
 * memory (per element: last write, readers since; see below), and reports:
 *  - race: two programs write the same element, or one reads an element another wrote
 *    (either order), unless both accesses are atomics. Atomics never race with atomics;
 *    an atomic against a plain load or store of another program does. Also two lanes of
 *    one store that write different values to one element (different threads on a GPU).
 *  - hazard: a program loads an element that an earlier store of the same program wrote,
 *    with no BARRIER (tl.debug_barrier) executed in between, from another lane (or a scalar
 *    / a different tile shape): on a GPU those are different threads. When the same lane
 *    of a tile of the same shape reads it back, it is a note (Triton gives same-shaped
 *    tiles the same layout, so the same thread does both).
 *  - uninitialized read: a load of bytes marked never written (MemRegion.uninit). Stores
 *    clear the marks in every mode, so a tensor one launch fills is clean for the next.
 *  - non-finite: a store of NaN/Inf (first active lane) when this program has loaded only
 *    finite values (active lanes of loads, old values of atomics) and has no NaN/Inf float
 *    argument. The origin is found by walking back from the stored value: through
 *    element-wise operands at the same lane (scalars at lane 0; WHERE follows the selected
 *    side), other operands at any non-finite element, until an instruction whose operands
 *    are all finite: that instruction is named. A constant NaN/Inf (tl.where(m, x, -inf))
 *    is deliberate and not reported; a loop-carried origin is reported without one.
 *  - order dependence: the launch is run again from the tensors' contents before their
 *    first write (snapshots taken at the first store), on copies, with the programs
 *    shuffled (seed InterpLaunch.shuffle_seed, else INTERP_CHECK_DEFAULT_SEED; reported)
 *    and, when threads > 1, on that many threads; tensors that differ from the program-
 *    order results are reported with the first differing element and both values. Float
 *    differences within a relative 1e-5 (fp32; 1e-2 fp16/bf16, 1e-12 fp64) are a note
 *    (rounding, as float atomics give on GPUs). A run that fails only in another order is
 *    reported too. Tensors the program-order run never wrote are shared with these runs.
 *  - notes: integer division by zero (location, program, lane).
 * Each report names both source locations, the programs, an example element and address;
 * it appears once per (kind, both locations) with a count. The tensors keep the program-
 * order results. The recorded run is sequential; InterpLaunch.threads only adds the
 * parallel comparison.
 *
 * Shadow memory: every execution of a memory instruction by a program gets a record
 * (program, barrier epoch, site, atomic, and the base address when its lanes are
 * contiguous, so that a lane can be recovered). For every tensor of a launch (MemRegion),
 * per element (the region's dtype; bytes when it has none): the record of the last write,
 * of the first read since, and of a read by a second program (allocated lazily: enough to
 * tell exactly whether some program other than the writer read the element). Before the
 * first write to a tensor its contents are kept (the snapshot the order runs start from).
 * Findings are deduplicated by (kind, both source locations) and counted; the first
 * occurrence is the example the report shows.
 *
 * Files: check.c records (the hooks below) and reports; check_launch.c runs a checked
 * launch and compares the orders. interp.c calls the hooks, each behind one test of its
 * Checker pointer, which is NULL outside the recorded run. */
#ifndef CHECK_H
#define CHECK_H

#include "interp/interp.h"

typedef enum CheckKind {
    CK_RACE_WW,     /* two programs write the same element, not both atomically */
    CK_RACE_RAW,    /* a program reads what another wrote */
    CK_RACE_WAR,    /* a program writes what another read */
    CK_HAZARD,      /* same program: load of what an earlier store wrote, no barrier between */
    CK_UNINIT,      /* read of bytes never written (tc_tensor_mark_uninit, DTYPE:empty) */
    CK_NONFINITE,   /* a store of NaN/Inf produced from finite inputs */
    CK_ORDER,       /* results differ when the programs run in another order */
    CK_FAIL_ORDER,  /* the launch fails in another order (but not in program order) */
    CK_RACE_LANES,  /* two lanes of one store write different values to one element */
    CK_NOTE_DIV0,   /* note: integer division by zero (gives 0) */
    CK_NOTE_ROUND,  /* note: float results differ only by rounding with the order */
    CK_NOTE_LANE,   /* note: like CK_HAZARD, but the same lane of a same-shaped tile */
    CK_NOTE_OOM,    /* note: no memory for a region's shadow; it was not checked */
    CK_COUNT
} CheckKind;

typedef struct Checker Checker;

/* ---- hooks: what interp.c tells the checker during the recorded run ---------------- */

/* Program `prog` starts (linear index in program order, x outermost). */
void check_program(Checker *k, uint64_t prog);
/* The running program passed a tl.debug_barrier(). */
void check_barrier(Checker *k);
/* A memory instruction: n lanes at addr (mask: active lanes or NULL), each `size` bytes;
 * kind 0 load, 1 store, 2 atomic. `region` is the region holding every lane or -1 (then
 * each lane is looked up). All lanes are in bounds (checked before). vals: a store's
 * values (n of `size` bytes), to tell lanes that write one element apart; else NULL. */
void check_access(Checker *k, const Inst *in, const uint64_t *addr, const uint8_t *mask,
                  int64_t n, int size, int kind, int region, const void *vals);
/* Values that came from memory (a load's active lanes, an atomic's old values), n of dtype
 * dt: a NaN/Inf among them makes the program's later NaN/Inf stores unremarkable. */
void check_loaded(Checker *k, int dt, const void *v, const uint8_t *mask, int64_t n);
/* Before the store `in` of n lanes at addr (mask as above) writes: a NaN/Inf made from
 * finite inputs is reported with the instruction that made it, found by walking back
 * through the value buffers vals (per value id). */
void check_store(Checker *k, const Inst *in, const uint64_t *addr, const uint8_t *mask,
                 int64_t n, void *const *vals);
/* Before the element-wise op `in` runs on its operands a[] (n elements; dt: the result's
 * dtype): notes integer division by zero. */
void check_operands(Checker *k, const Inst *in, int dt, const void *const *a, int64_t n);

/* ---- the checked launch (check_launch.c) and what it uses ------------------------------ */

/* A recorded run in program order on the real tensors, then the same launch on copies in
 * other orders, compared; the findings go to l->report, l->findings and l->notes. */
tc_status check_launch(InterpLaunch *l, Err *e);

/* interp.c: runs every program of l on `threads` threads in the order of `seed` (0: program
 * order); with a checker, sequentially and recorded by it. */
tc_status interp_programs(InterpLaunch *l, int threads, uint64_t seed, Checker *k, Err *e);

/* A checker for launch l (its regions, grid and function). Allocation failure: NULL. */
Checker *check_new(const InterpLaunch *l);
void check_free(Checker *k);

/* Adds a finding (or counts another occurrence of the same key). a/b: the two source
 * locations that form the key (b may be the zero SrcLoc); aux: an extra key part (the
 * region for order findings). text: the example, printed after "<a>: " for the first
 * occurrence. */
void check_add(Checker *k, CheckKind kind, SrcLoc a, SrcLoc b, int aux, const char *text);
/* If a finding of this key exists, counts one more occurrence and returns true (so that
 * repeated occurrences cost no formatting). */
bool check_count(Checker *k, CheckKind kind, SrcLoc a, SrcLoc b, int aux);

/* The example of the next check_add (programs as linear indices, UINT64_MAX: none; lane -1
 * and addr 0: none), for the records of check_records. */
void check_example(Checker *k, uint64_t prog, uint64_t prog2, int64_t lane, uint64_t addr);
/* The findings as public records, in report order (malloc'd into *out; NULL and 0 when
 * there are none or no memory). */
int check_records(Checker *k, tc_check_finding **out);

/* Appends the findings (first-occurrence order) and a summary line to b (if not NULL);
 * returns the number of findings (notes excluded) and sets *notes. */
int check_report(Checker *k, Buf *b, const char *summary, int *notes);

/* Region r's contents before its first write in this launch (NULL: never written). */
const uint8_t *check_snapshot(const Checker *k, int r);

/* Zeroed memory for shadows and snapshots (mmap when large); free with its size. */
void *check_big_alloc(size_t n);
void check_big_free(void *p, size_t n);

#endif
