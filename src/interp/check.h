/* check.h — the recording and reporting half of check mode (issue 7), used by interp.c.
 *
 * Shadow memory: every execution of a memory instruction by a program gets a record
 * (program, barrier epoch, site, atomic, and the base address when its lanes are
 * contiguous, so that a lane can be recovered). For every tensor of a launch (MemRegion),
 * per element (the region's dtype; bytes when it has none): the record of the last write,
 * of the first read since, and of a read by a second program (allocated lazily: enough to
 * tell exactly whether some program other than the writer read the element). Before the
 * first write to a tensor its contents are kept (the snapshot the order runs start from).
 * Findings are deduplicated by (kind, both source locations)
 * and counted; the first occurrence is the example the report shows. */
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

/* A checker for launch l (its regions, grid and function). Allocation failure: NULL. */
Checker *check_new(const InterpLaunch *l);
void check_free(Checker *k);

/* The site (small integer) of a memory instruction, for the shadow cells. */
int check_site(Checker *k, const Inst *in);

/* The epoch of a new program instance / after a barrier (unique for the whole launch). */
uint32_t check_next_epoch(Checker *k);

/* Records one memory instruction of program `prog` (linear index in program order, x
 * outermost) in barrier epoch `epoch`: n lanes at addr (mask: active lanes or NULL), each
 * `size` bytes; kind 0 load, 1 store, 2 atomic. `region` is the region holding every lane
 * or -1 (then each lane is looked up). All lanes are in bounds (checked before). vals: a
 * store's values (n of `size` bytes), to tell lanes that write one element apart. */
void check_access(Checker *k, const Inst *in, uint64_t prog, uint32_t epoch,
                  const uint64_t *addr, const uint8_t *mask, int64_t n, int size, int kind,
                  int region, const void *vals);

/* Adds a finding (or counts another occurrence of the same key). a/b: the two source
 * locations that form the key (b may be the zero SrcLoc); aux: an extra key part (the
 * region for order findings). text: the example, printed after "<a>: " for the first
 * occurrence. */
void check_add(Checker *k, CheckKind kind, SrcLoc a, SrcLoc b, int aux, const char *text);
/* If a finding of this key exists, counts one more occurrence and returns true (so that
 * repeated occurrences cost no formatting). */
bool check_count(Checker *k, CheckKind kind, SrcLoc a, SrcLoc b, int aux);

/* "(x, y, z)" of a linear program index. */
void check_pid_str(const Checker *k, uint64_t prog, char *buf, size_t n);
/* "out[3]" (or "out byte 3", or "address 0x..." outside every region) for an address. */
void check_elem_str(const Checker *k, uint64_t addr, char *buf, size_t n);

/* Appends the findings (first-occurrence order) and a summary line to b (if not NULL);
 * returns the number of findings (notes excluded) and sets *notes. */
int check_report(Checker *k, Buf *b, const char *summary, int *notes);

/* Region r's contents before its first write in this launch (NULL: never written). */
const uint8_t *check_snapshot(const Checker *k, int r);

/* Zeroed memory for shadows and snapshots (mmap when large); free with its size. */
void *check_big_alloc(size_t n);
void check_big_free(void *p, size_t n);

/* The order used by the shuffled mode: a permutation of [0, n) from a seed: Fisher-Yates
 * (splitmix64) up to SHUFFLE_TABLE_MAX programs, never the identity; beyond, a bijection
 * without storage (affine maps and xor-shifts, cycle-walked). Free with shuffle_free. */
#define SHUFFLE_TABLE_MAX (1ULL << 22)
typedef struct Shuffle { uint64_t n, mask, a, b, c; int half; uint32_t *order; } Shuffle;
void shuffle_init(Shuffle *s, uint64_t n, uint64_t seed);
uint64_t shuffle_at(const Shuffle *s, uint64_t i);
void shuffle_free(Shuffle *s);

#endif
