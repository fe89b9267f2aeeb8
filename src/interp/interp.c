/* interp.c — the CPU tile interpreter.
 *
 * Every SSA value has a static type, so each value gets one buffer per launch (numel *
 * dt_size bytes; 0-d values one element), reused by every program and loop iteration.
 * Ops are tight loops over whole tiles with the dtype switch outside the loop; the
 * element-wise ones are ir_eval's (ir/elementwise.c), which constant folding runs too. Storage
 * (ir/elem.h): i1 as uint8 0/1, fp16/bf16 as uint16 bit patterns, pointers as uint64 host
 * addresses. EXPAND_DIMS, RESHAPE and BITCAST alias their operand's buffer (SSA values
 * never change while visible, so sharing storage is safe); CONST and ARANGE are filled once
 * per launch.
 *
 * Programs run sequentially: x outermost, then y, then z (Triton's interpreter order), or
 * in an order shuffled by InterpLaunch.shuffle_seed, or on InterpLaunch.threads threads
 * (pthreads, each with its own value buffers; programs handed out in chunks; atomics are
 * compare-and-swap loops on __atomic builtins; the lines of one device_print stay together
 * under a lock; a failure reports the failing program with the lowest index).
 *
 * Numerics (documented choices; the element-wise ones at the top of ir/elementwise.c):
 *  - integer division (and remainder) by zero is unspecified on GPUs: tritonc gives 0, with
 *    no error (lanes a mask drops later often divide by zero); check mode notes it.
 *  - fp16/bf16 ops are computed in float and rounded back to 16 bits per op (round to
 *    nearest even); exact since float has >= 2p+2 bits.
 *  - REDUCE sums integers in index order; float sums are pairwise (red_pairwise: blocks of
 *    up to 8 added in index order, then halves added recursively, the split at a power of
 *    two), in the element type (fp16 rounds per step): error O(log n) ulps, as good as or
 *    better than the GPU's per-thread runs followed by a butterfly.
 *  - DOT: per output element a sequential fp32 FMA chain over k = 0..K-1 (fp64 for fp64,
 *    wrapping i32 for 8-bit ints), then + acc, then rounded to the result dtype (blocked so
 *    the compiler vectorizes across columns; the order per element stays). tf32: fp32
 *    inputs are first rounded to a 10-bit mantissa (nearest, ties away, like
 *    cvt.rna.tf32.f32); tf32x3, bf16x3, bf16x6: Triton's split products (F32DotTC), each a
 *    dot of the parts with the previous pass as its accumulator. fp8 inputs: their values.
 *  - a store (or atomic) whose lanes hit the same address: lanes apply in lane order, so
 *    the last lane wins.
 *
 * Every memory access of a LOAD/STORE/ATOMIC goes through mem_check() first (where check
 * mode records it); nothing is written by an instruction unless all of its lanes pass.
 * It checks the active lanes' address span against one MemRegion at once and falls back to
 * lane-by-lane checks (for the message, or spans over several regions) only when that fails;
 * fully active, contiguous accesses are copied with one memcpy.
 *
 * A launch of more than 2^26 programs is refused (TC_ERR_LIMIT).
 *
 * Check mode (InterpLaunch.check) is check.h's: the interpreter only calls its hooks when
 * Ctx.chk is set (the recorded run), and check_launch.c runs the launch again in other
 * orders through interp_programs. */
#include "interp/interp.h"
#include "interp/check.h"

/* The tile loops are simple enough for the vectorizer, which GCC runs at -O2 only with its
 * "very cheap" cost model (no loops of unknown trip count). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("O3")
#endif

#include "ir/elem.h" /* after the pragma: its helpers run in the tile loops */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Programs per launch the interpreter accepts: even a trivial program costs ~100 ns, so
 * 2^26 of them stay within seconds; CUDA's full grid (2^31 x 2^16 x 2^16) never would. */
#define INTERP_MAX_PROGRAMS (1ULL << 26)

typedef struct Ctx {
    const IrFunc *f;
    InterpLaunch *l;
    Err *e;
    Arena arena;
    void **buf;         /* per value */
    void **shadow;      /* per loop-region param: temporaries for loop-carried copies */
    uint32_t pid[3];
    int returned;
    int last_mem;       /* cached MemRegion index for the bounds check */
    void *scratch; size_t scratch_cap;
    Checker *chk;       /* check mode's recorded run: the hooks' target (NULL otherwise) */
    uint64_t prog;      /* linear index of the running program (x outermost) */
    bool has_uninit;    /* some region has uninit marks (stores clear them) */
    /* parallel runs */
    int par;            /* atomics through __atomic builtins */
    pthread_mutex_t *print_lock;
    Shuffle order;      /* run_seq's shuffled order (order.order freed on every exit) */
    unsigned ticks;     /* loop iterations and programs: every TICK_EVERY, tick_slow */
    bool reporter;      /* this thread calls the progress callback */
} Ctx;

static void program_str(const Ctx *c, char *buf, size_t n) {
    snprintf(buf, n, "(%u, %u, %u)", c->pid[0], c->pid[1], c->pid[2]);
}

#define FAIL(c, in, ...) err_fail((c)->e, TC_ERR_RUNTIME, (in)->loc, __VA_ARGS__)
#define BAD(c, in) \
    err_fail((c)->e, TC_ERR_INTERNAL, (in)->loc, "interpreter: unsupported %s on %s (%s:%d)", \
             op_names[(in)->op], dt_name(TY(c, (in)->res[0]).dt), __FILE__, __LINE__)
#define TY(c, v) ((c)->f->types[(v)])
#define V(c, v) ((c)->buf[(v)])

/* ---- time limit and progress ------------------------------------------------------------ */

#define TICK_EVERY 64u

static double mono_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report_progress(InterpLaunch *l, double now) {
    l->last_report = now;
    l->reported = 1;
    l->progress("programs", __atomic_load_n(&l->done, __ATOMIC_RELAXED),
                (uint64_t)l->grid[0] * l->grid[1] * l->grid[2], now - l->start, l->progress_user);
}

/* The time limit (in: the loop being run, or NULL between programs) and progress. */
static void tick_slow(Ctx *c, const Inst *in) {
    InterpLaunch *l = c->l;
    double now = mono_s();
    if (l->deadline > 0 && now >= l->deadline) {
        char p[64];
        program_str(c, p, sizeof p);
        err_fail(c->e, TC_ERR_TIMEOUT, in ? in->loc : (SrcLoc){0},
                 "the launch passed its time limit of %g s in program %s%s", l->timeout_s, p,
                 in ? ", in this loop (one that never ends?)" : "");
    }
    if (c->reporter && l->progress && now - l->last_report >= 0.25) report_progress(l, now);
}

static inline void tick(Ctx *c, const Inst *in) {
    if (++c->ticks % TICK_EVERY == 0 && (c->l->deadline > 0 || c->l->progress)) tick_slow(c, in);
}

static void *scratch(Ctx *c, size_t n) {
    if (n > c->scratch_cap) {
        size_t cap = n < 65536 ? 65536 : n;
        c->scratch = arena_alloc(&c->arena, cap);
        c->scratch_cap = cap;
    }
    return c->scratch;
}

/* ---- element-wise ------------------------------------------------------------------- */

#define FOR_N for (int64_t i = 0; i < n; i++)

/* Element-wise ops: ir_eval has their semantics (shared with constant folding). */
static void ex_elementwise(Ctx *c, const Inst *in) {
    int v = in->res[0], dt = TY(c, v).dt;
    int64_t n = type_numel(TY(c, v));
    const void *a[3] = {NULL, NULL, NULL};
    for (int k = 0; k < in->nargs && k < 3; k++) a[k] = V(c, in->args[k]);
    if (c->chk) check_operands(c->chk, in, dt, a, n);
    if (!ir_eval(c->f, in, n, V(c, v), a)) BAD(c, in);
}

static void ex_addptr(Ctx *c, const Inst *in) {
    Type t = TY(c, in->res[0]);
    Type ot = TY(c, in->args[1]);
    int64_t n = type_numel(t);
    uint64_t es = (uint64_t)dt_size(t.elem);
    int sh = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3;
    uint64_t *R = V(c, in->res[0]);
    const uint64_t *P = V(c, in->args[0]);
    const void *o = V(c, in->args[1]);
    switch (ot.dt) {
    case DT_I32: { const int32_t *O = o; FOR_N R[i] = P[i] + ((uint64_t)(int64_t)O[i] << sh); break; }
    case DT_I64: { const int64_t *O = o; FOR_N R[i] = P[i] + ((uint64_t)O[i] << sh); break; }
    default: FOR_N R[i] = P[i] + (uint64_t)rdi(ot.dt, o, i) * es; break;
    }
}

/* ---- shapes --------------------------------------------------------------------------- */

static void fill(void *dst, const void *src, int64_t n, int es) {
    switch (es) {
    case 1: { uint8_t v = *(const uint8_t *)src; memset(dst, v, (size_t)n); break; }
    case 2: { uint16_t v, *D = dst; memcpy(&v, src, 2); FOR_N D[i] = v; break; }
    case 4: { uint32_t v, *D = dst; memcpy(&v, src, 4); FOR_N D[i] = v; break; }
    default: { uint64_t v, *D = dst; memcpy(&v, src, 8); FOR_N D[i] = v; break; }
    }
}

/* dst (contiguous, shape[rank]) = src gathered with element strides sstr[rank]. */
static void gather(void *dst, const void *src, int rank, const int32_t *shape,
                   const int64_t *sstr, int es) {
    if (rank == 0) { memcpy(dst, src, (size_t)es); return; }
    int64_t inner = shape[rank - 1], ls = sstr[rank - 1], outer = 1;
    for (int d = 0; d < rank - 1; d++) outer *= shape[d];
    int32_t idx[TC_MAX_RANK] = {0};
    int64_t soff = 0;
    const char *S = src;
    char *D = dst;
    for (int64_t o = 0; o < outer; o++) {
        char *row = D + o * inner * es;
        const char *sp = S + soff * es;
        if (ls == 0) fill(row, sp, inner, es);
        else if (ls == 1) memcpy(row, sp, (size_t)(inner * es));
        else {
            int64_t n = inner;
            switch (es) {
            case 1: { uint8_t *R = (uint8_t *)row; const uint8_t *A = (const uint8_t *)sp; FOR_N R[i] = A[i * ls]; break; }
            case 2: { uint16_t *R = (uint16_t *)row; const uint16_t *A = (const uint16_t *)sp; FOR_N R[i] = A[i * ls]; break; }
            case 4: { uint32_t *R = (uint32_t *)row; const uint32_t *A = (const uint32_t *)sp; FOR_N R[i] = A[i * ls]; break; }
            default: { uint64_t *R = (uint64_t *)row; const uint64_t *A = (const uint64_t *)sp; FOR_N R[i] = A[i * ls]; break; }
            }
        }
        for (int d = rank - 2; d >= 0; d--) {
            idx[d]++;
            soff += sstr[d];
            if (idx[d] < shape[d]) break;
            soff -= sstr[d] * idx[d];
            idx[d] = 0;
        }
    }
}

static void strides_of(Type t, int64_t *str) {
    int64_t s = 1;
    for (int d = t.rank - 1; d >= 0; d--) {
        str[d] = s;
        s *= t.shape[d];
    }
}

static void ex_broadcast(Ctx *c, const Inst *in) {
    Type st = TY(c, in->args[0]), rt = TY(c, in->res[0]);
    int64_t ss[TC_MAX_RANK];
    strides_of(st, ss);
    for (int d = 0; d < rt.rank; d++)
        if (st.shape[d] == 1 && rt.shape[d] != 1) ss[d] = 0;
    gather(V(c, in->res[0]), V(c, in->args[0]), rt.rank, rt.shape, ss, dt_size(rt.dt));
}

static void ex_permute(Ctx *c, const Inst *in) {
    Type st = TY(c, in->args[0]), rt = TY(c, in->res[0]);
    int64_t ss[TC_MAX_RANK], ps[TC_MAX_RANK];
    strides_of(st, ss);
    for (int d = 0; d < rt.rank; d++) ps[d] = ss[in->attr.perm[d]];
    gather(V(c, in->res[0]), V(c, in->args[0]), rt.rank, rt.shape, ps, dt_size(rt.dt));
}

/* ---- reductions ----------------------------------------------------------------------- */

#define RED_GEN(T, C, LD, ST, COMB) \
    do { const T *X = x; T *R = r; \
        for (int64_t o = 0; o < outer; o++) \
            for (int64_t j = 0; j < inner; j++) { \
                const T *p = X + o * len * inner + j; \
                C acc = LD(p[0]); \
                for (int64_t k = 1; k < len; k++) { C v = LD(p[k * inner]); acc = COMB(acc, v); } \
                R[o * inner + j] = ST(acc); \
            } } while (0)

#define C_ADD(a, b) ((a) + (b))
#define C_XOR(a, b) ((a) ^ (b))
#define C_OR(a, b) ((a) | (b))
#define C_AND(a, b) ((a) & (b))
#define C_IMAX(a, b) ((a) > (b) ? (a) : (b))
#define C_IMIN(a, b) ((a) < (b) ? (a) : (b))
#define ID(x) (x)
#define H_ADD(a, b) h2f(f2h((a) + (b)))
#define BF_ADD(a, b) bf2f(f2bf((a) + (b)))
#define TO_U64(x) ((uint64_t)(x))
/* 8-bit floats: combined in float, a sum rounded back to the type at each step */
#define F8_FNS(NAME, DT) \
    static inline float NAME##_f(uint8_t b) { return (float)fp8_to_double(DT, b); } \
    static inline uint8_t NAME##_b(float f) { return (uint8_t)fp8_from_double(DT, f, 0); } \
    static inline float NAME##_add(float a, float b) { return NAME##_f(NAME##_b(a + b)); }
F8_FNS(f8e5, DT_FP8E5)
F8_FNS(f8e4nv, DT_FP8E4NV)
F8_FNS(f8e4b15, DT_FP8E4B15)
#define RED_F8(DT, NAME) \
    case DT: \
        switch (kind) { \
        case RED_SUM: RED_GEN(uint8_t, float, NAME##_f, NAME##_b, NAME##_add); break; \
        case RED_MAX: RED_GEN(uint8_t, float, NAME##_f, NAME##_b, fmaxf); break; \
        case RED_MIN: RED_GEN(uint8_t, float, NAME##_f, NAME##_b, fminf); break; \
        default: BAD(c, in); \
        } \
        break;

#define RED_INT(DT, T, UT) \
    case DT: \
        switch (kind) { \
        case RED_SUM: RED_GEN(T, uint64_t, (uint64_t)(UT), (T), C_ADD); break; \
        case RED_XOR: RED_GEN(T, uint64_t, (uint64_t)(UT), (T), C_XOR); break; \
        case RED_OR: RED_GEN(T, uint64_t, (uint64_t)(UT), (T), C_OR); break; \
        case RED_AND: RED_GEN(T, uint64_t, (uint64_t)(UT), (T), C_AND); break; \
        case RED_MAX: RED_GEN(T, T, ID, ID, C_IMAX); break; \
        case RED_MIN: RED_GEN(T, T, ID, ID, C_IMIN); break; \
        default: BAD(c, in); \
        } break;

/* arg-reductions: value compare, smallest index among equal extrema, NaN ignored. */
static void red_arg(Ctx *c, const Inst *in, int dt, const void *x, int32_t *R, int64_t outer,
                    int64_t len, int64_t inner, bool want_max) {
    bool flt = dt_is_float(dt), uns = dt_is_unsigned(dt) || dt == DT_PTR;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < inner; j++) {
            int64_t base = o * len * inner + j, best = 0;
            if (flt) {
                double bv = rdf(dt, x, base);
                for (int64_t k = 1; k < len; k++) {
                    double v = rdf(dt, x, base + k * inner);
                    if (isnan(v)) continue;
                    if (isnan(bv) || (want_max ? v > bv : v < bv)) { bv = v; best = k; }
                }
            } else {
                int64_t bv = rdi(dt, x, base);
                if (uns) bv ^= INT64_MIN;
                for (int64_t k = 1; k < len; k++) {
                    int64_t v = rdi(dt, x, base + k * inner);
                    if (uns) v ^= INT64_MIN;
                    if (want_max ? v > bv : v < bv) { bv = v; best = k; }
                }
            }
            R[o * inner + j] = (int32_t)best;
        }
}

/* Pairwise float sums: n elements p[0], p[s], ... ; leaves of up to 8 summed in order, then
 * the two halves (the first of a power-of-two length) added. */
#define RED_PAIRWISE(NAME, T, C, LD, COMB) \
    static C NAME(const T *p, int64_t n, int64_t s) { \
        if (n <= 8) { \
            C acc = LD(p[0]); \
            for (int64_t k = 1; k < n; k++) { C v = LD(p[k * s]); acc = COMB(acc, v); } \
            return acc; \
        } \
        int64_t h = 8; \
        while (h * 2 < n) h *= 2; \
        C a = NAME(p, h, s), b = NAME(p + h * s, n - h, s); \
        return COMB(a, b); \
    }
RED_PAIRWISE(pw_f32, float, float, ID, C_ADD)
RED_PAIRWISE(pw_f64, double, double, ID, C_ADD)
RED_PAIRWISE(pw_f16, uint16_t, float, h2f, H_ADD)
RED_PAIRWISE(pw_bf16, uint16_t, float, bf2f, BF_ADD)

#define RED_PW(T, FN, ST) \
    do { const T *X = x; T *R = r; \
        for (int64_t o = 0; o < outer; o++) \
            for (int64_t j = 0; j < inner; j++) R[o * inner + j] = ST(FN(X + o * len * inner + j, len, inner)); \
    } while (0)

static void ex_reduce(Ctx *c, const Inst *in) {
    Type st = TY(c, in->args[0]);
    int axis = in->attr.axis, kind = in->attr.kind;
    if (st.rank == 0) { /* reducing a scalar: identity (argmax -> 0) */
        if (kind == RED_ARGMAX || kind == RED_ARGMIN) *(int32_t *)V(c, in->res[0]) = 0;
        else memcpy(V(c, in->res[0]), V(c, in->args[0]), (size_t)dt_size(st.dt));
        return;
    }
    if (axis < 0 || axis >= st.rank) BAD(c, in);
    int64_t outer = 1, inner = 1, len = st.shape[axis];
    for (int d = 0; d < axis; d++) outer *= st.shape[d];
    for (int d = axis + 1; d < st.rank; d++) inner *= st.shape[d];
    const void *x = V(c, in->args[0]);
    void *r = V(c, in->res[0]);
    if (kind == RED_ARGMAX || kind == RED_ARGMIN) {
        red_arg(c, in, st.dt, x, r, outer, len, inner, kind == RED_ARGMAX);
        return;
    }
    switch (st.dt) {
    RED_INT(DT_I8, int8_t, uint8_t)
    RED_INT(DT_I16, int16_t, uint16_t)
    RED_INT(DT_I32, int32_t, uint32_t)
    RED_INT(DT_I64, int64_t, uint64_t)
    RED_INT(DT_U8, uint8_t, uint8_t)
    RED_INT(DT_U16, uint16_t, uint16_t)
    RED_INT(DT_U32, uint32_t, uint32_t)
    RED_INT(DT_U64, uint64_t, uint64_t)
    case DT_I1:
        switch (kind) {
        case RED_SUM: case RED_XOR: RED_GEN(uint8_t, uint8_t, ID, ID, C_XOR); break;
        case RED_OR: case RED_MAX: RED_GEN(uint8_t, uint8_t, ID, ID, C_OR); break;
        case RED_AND: case RED_MIN: RED_GEN(uint8_t, uint8_t, ID, ID, C_AND); break;
        default: BAD(c, in);
        }
        break;
    case DT_FP32:
        switch (kind) {
        case RED_SUM: RED_PW(float, pw_f32, ID); break;
        case RED_MAX: RED_GEN(float, float, ID, ID, fmaxf); break;
        case RED_MIN: RED_GEN(float, float, ID, ID, fminf); break;
        default: BAD(c, in);
        }
        break;
    case DT_FP64:
        switch (kind) {
        case RED_SUM: RED_PW(double, pw_f64, ID); break;
        case RED_MAX: RED_GEN(double, double, ID, ID, fmax); break;
        case RED_MIN: RED_GEN(double, double, ID, ID, fmin); break;
        default: BAD(c, in);
        }
        break;
    case DT_FP16:
        switch (kind) {
        case RED_SUM: RED_PW(uint16_t, pw_f16, f2h); break;
        case RED_MAX: RED_GEN(uint16_t, float, h2f, f2h, fmaxf); break;
        case RED_MIN: RED_GEN(uint16_t, float, h2f, f2h, fminf); break;
        default: BAD(c, in);
        }
        break;
    case DT_BF16:
        switch (kind) {
        case RED_SUM: RED_PW(uint16_t, pw_bf16, f2bf); break;
        case RED_MAX: RED_GEN(uint16_t, float, bf2f, f2bf, fmaxf); break;
        case RED_MIN: RED_GEN(uint16_t, float, bf2f, f2bf, fminf); break;
        default: BAD(c, in);
        }
        break;
    RED_F8(DT_FP8E5, f8e5)
    RED_F8(DT_FP8E4NV, f8e4nv)
    RED_F8(DT_FP8E4B15, f8e4b15)
    default: BAD(c, in);
    }
}

/* ---- dot ------------------------------------------------------------------------------ */

static inline float tf32_round(float x) {
    uint32_t b;
    memcpy(&b, &x, 4);
    if ((b & 0x7f800000u) != 0x7f800000u) b = (b + 0x1000u) & 0xffffe000u;
    memcpy(&x, &b, 4);
    return x;
}

static inline float bf16_round(float x) { return bf2f(f2bf(x)); } /* arith.truncf: nearest even */

/* S (M x N) = the fp32 FMA chains of A (M x K) by B (K x N), row-major: for each element
 * s = fma(a[k], b[k], s) for k = 0, 1, ..., K-1 from s = 0, in exactly that order. Blocked
 * DOT_MB rows by DOT_NB columns so the column loop vectorizes (the order per element stays);
 * built for AVX-512 and AVX2+FMA too, chosen at run time, since plain x86-64 has no fma
 * instruction (fmaf would be a call per element). */
enum { DOT_MB = 4, DOT_NB = 32 };

#define DOT_CHAIN_BODY \
    for (int64_t m0 = 0; m0 < M; m0 += DOT_MB) { \
        int64_t mb = M - m0 < DOT_MB ? M - m0 : DOT_MB; \
        for (int64_t n0 = 0; n0 < N; n0 += DOT_NB) { \
            int64_t nb = N - n0 < DOT_NB ? N - n0 : DOT_NB; \
            if (mb == DOT_MB && nb == DOT_NB) { \
                float acc[DOT_MB][DOT_NB]; \
                memset(acc, 0, sizeof acc); \
                for (int64_t k = 0; k < K; k++) { \
                    const float *br = B + k * N + n0; \
                    for (int i = 0; i < DOT_MB; i++) { \
                        float av = A[(m0 + i) * K + k]; \
                        for (int j = 0; j < DOT_NB; j++) acc[i][j] = fmaf(av, br[j], acc[i][j]); \
                    } \
                } \
                for (int i = 0; i < DOT_MB; i++) \
                    memcpy(S + (m0 + i) * N + n0, acc[i], sizeof acc[i]); \
            } else { \
                for (int64_t i = 0; i < mb; i++) \
                    for (int64_t j = 0; j < nb; j++) { \
                        float sacc = 0; \
                        for (int64_t k = 0; k < K; k++) \
                            sacc = fmaf(A[(m0 + i) * K + k], B[k * N + n0 + j], sacc); \
                        S[(m0 + i) * N + n0 + j] = sacc; \
                    } \
            } \
        } \
    }

static void dot_chain_plain(const float *A, const float *B, float *S, int64_t M, int64_t N, int64_t K) {
    DOT_CHAIN_BODY
}
#if defined(__x86_64__) && defined(__GNUC__)
#define DOT_X86 1
#include <immintrin.h>
__attribute__((target("avx2,fma"))) static void dot_chain_avx2(const float *A, const float *B, float *S,
                                                               int64_t M, int64_t N, int64_t K) {
    DOT_CHAIN_BODY
}
__attribute__((target("avx512f"))) static void dot_chain_avx512(const float *A, const float *B, float *S,
                                                                int64_t M, int64_t N, int64_t K) {
    DOT_CHAIN_BODY
}
#endif

/* fp16 -> fp32 of n elements (exact; F16C's vcvtph2ps where the CPU has it) */
#ifdef DOT_X86
__attribute__((target("avx,f16c"))) static void h2f_f16c(const uint16_t *h, float *f, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i x;
        memcpy(&x, h + i, sizeof x);
        __m256 y = _mm256_cvtph_ps(x);
        memcpy(f + i, &y, sizeof y);
    }
    for (; i < n; i++) f[i] = h2f(h[i]);
}
#endif

static void h2f_n(const uint16_t *h, float *f, int64_t n) {
#ifdef DOT_X86
    /* every AVX2 CPU has F16C; clang's __builtin_cpu_supports does not know "f16c" */
    if (__builtin_cpu_supports("avx2")) { h2f_f16c(h, f, n); return; }
#endif
    for (int64_t i = 0; i < n; i++) f[i] = h2f(h[i]);
}

static void dot_chain(const float *A, const float *B, float *S, int64_t M, int64_t N, int64_t K) {
#ifdef DOT_X86
    if (__builtin_cpu_supports("avx512f")) { dot_chain_avx512(A, B, S, M, N, K); return; }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        dot_chain_avx2(A, B, S, M, N, K);
        return;
    }
#endif
    dot_chain_plain(A, B, S, M, N, K);
}

/* R = chain(A, B) + R: a dot of the split-product passes with its accumulator */
static void dot_pass(const float *A, const float *B, float *R, float *S, int64_t M, int64_t N, int64_t K) {
    dot_chain(A, B, S, M, N, K);
    for (int64_t i = 0; i < M * N; i++) R[i] = S[i] + R[i];
}

static void nan_to_zero(float *R, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        if (isnan(R[i])) R[i] = 0;
}

/* The split parts of x: hi = round(x), the rest from x - hi (fp32 subtractions); tf32: hi
 * rounded to tf32, lo = tf32(x - hi) as the tf32 dot rounds it again; bf16: up to 3 parts. */
static void dot_split(float *x, int64_t n, int kind, float *p1, float *p2) {
    for (int64_t i = 0; i < n; i++) {
        float v = x[i];
        if (kind == DOT_TF32X3) {
            float hi = tf32_round(v);
            x[i] = hi;
            p1[i] = tf32_round(v - hi);
        } else {
            float hi = bf16_round(v), r = v - hi, mid = bf16_round(r);
            x[i] = hi;
            p1[i] = mid;
            if (p2) p2[i] = bf16_round(r - mid);
        }
    }
}

/* fp32 results R (M x N, without acc) of one batch of float inputs fa (M x K), fb (K x N)
 * under input precision kind (Triton's F32DotTC: each pass a dot with the previous result as
 * its accumulator, NaNs of the small passes zeroed before the big one). */
static void dot_f32(int kind, float *fa, float *fb, float *R, float *a1, int64_t M, int64_t N, int64_t K) {
    int64_t mn = M * N, mk = M * K, kn = K * N;
    if (kind == DOT_IEEE || kind == DOT_TF32) {
        if (kind == DOT_TF32) {
            for (int64_t i = 0; i < mk; i++) fa[i] = tf32_round(fa[i]);
            for (int64_t i = 0; i < kn; i++) fb[i] = tf32_round(fb[i]);
        }
        dot_chain(fa, fb, R, M, N, K);
        return;
    }
    bool six = kind == DOT_BF16X6;
    float *a2 = a1 + mk, *b1 = a2 + mk, *b2 = b1 + kn, *S = b2 + kn;
    dot_split(fa, mk, kind, a1, six ? a2 : NULL);
    dot_split(fb, kn, kind, b1, six ? b2 : NULL);
    for (int64_t i = 0; i < mn; i++) R[i] = 0;
    if (kind == DOT_TF32X3) {
        dot_pass(a1, fb, R, S, M, N, K);   /* aSmall x bBig */
        dot_pass(fa, b1, R, S, M, N, K);   /* aBig x bSmall */
    } else {
        if (six) {
            dot_pass(a1, b1, R, S, M, N, K); /* mid x mid */
            dot_pass(a2, fb, R, S, M, N, K); /* lo x hi */
            dot_pass(fa, b2, R, S, M, N, K); /* hi x lo */
        }
        dot_pass(a1, fb, R, S, M, N, K);     /* mid x hi */
        dot_pass(fa, b1, R, S, M, N, K);     /* hi x mid */
    }
    nan_to_zero(R, mn);
    dot_pass(fa, fb, R, S, M, N, K);         /* hi x hi */
}

static void ex_dot(Ctx *c, const Inst *in) {
    Type at = TY(c, in->args[0]), bt = TY(c, in->args[1]), rt = TY(c, in->res[0]);
    int rank = rt.rank;
    if (rank != 2 && rank != 3) BAD(c, in);
    int64_t B = rank == 3 ? rt.shape[0] : 1;
    int64_t M = rt.shape[rank - 2], N = rt.shape[rank - 1], K = at.shape[rank - 1];
    const void *A = V(c, in->args[0]), *Bm = V(c, in->args[1]), *Acc = V(c, in->args[2]);
    void *R = V(c, in->res[0]);
    int adt = at.dt, bdt = bt.dt;
    if (adt == DT_FP64 || rt.dt == DT_FP64) {
        for (int64_t bb = 0; bb < B; bb++)
            for (int64_t m = 0; m < M; m++)
                for (int64_t nn = 0; nn < N; nn++) {
                    double s = 0;
                    for (int64_t k = 0; k < K; k++)
                        s = fma(rdf(adt, A, (bb * M + m) * K + k), rdf(bdt, Bm, (bb * K + k) * N + nn), s);
                    int64_t o = (bb * M + m) * N + nn;
                    wrf(rt.dt, R, o, s + rdf(rt.dt, Acc, o), 0);
                }
        return;
    }
    if (dt_is_int(adt)) { /* wrapping i32: the order of the sum does not matter */
        int32_t *ia = scratch(c, sizeof(int32_t) * (size_t)(M * K + K * N + N));
        int32_t *ib = ia + M * K, *row = ib + K * N;
        for (int64_t bb = 0; bb < B; bb++) {
            for (int64_t i = 0; i < M * K; i++) ia[i] = (int32_t)rdi(adt, A, bb * M * K + i);
            for (int64_t i = 0; i < K * N; i++) ib[i] = (int32_t)rdi(bdt, Bm, bb * K * N + i);
            for (int64_t m = 0; m < M; m++) {
                for (int64_t nn = 0; nn < N; nn++) row[nn] = 0;
                for (int64_t k = 0; k < K; k++) {
                    uint32_t av = (uint32_t)ia[m * K + k];
                    const int32_t *br = ib + k * N;
                    for (int64_t nn = 0; nn < N; nn++) row[nn] = (int32_t)((uint32_t)row[nn] + av * (uint32_t)br[nn]);
                }
                for (int64_t nn = 0; nn < N; nn++) {
                    int64_t o = (bb * M + m) * N + nn;
                    wri(rt.dt, R, o, (uint64_t)((uint32_t)row[nn] + (uint32_t)rdi(rt.dt, Acc, o)));
                }
            }
        }
        return;
    }
    /* float inputs: a (M x K) and b (K x N) to fp32 once per batch */
    int kind = adt == DT_FP32 ? in->attr.kind : DOT_IEEE;
    bool split = kind != DOT_IEEE && kind != DOT_TF32; /* room for the parts of dot_f32 */
    float *fa = scratch(c, sizeof(float) * (size_t)(M * K + K * N + M * N) * (split ? 3 : 1));
    float *fb = fa + M * K, *S = fb + K * N, *parts = S + M * N;
    for (int64_t bb = 0; bb < B; bb++) {
        const int64_t oa = bb * M * K, ob = bb * K * N;
        if (adt == DT_FP32) memcpy(fa, (const float *)A + oa, sizeof(float) * (size_t)(M * K));
        else if (adt == DT_FP16) h2f_n((const uint16_t *)A + oa, fa, M * K);
        else for (int64_t i = 0; i < M * K; i++) fa[i] = (float)rdf(adt, A, oa + i);
        if (bdt == DT_FP32) memcpy(fb, (const float *)Bm + ob, sizeof(float) * (size_t)(K * N));
        else if (bdt == DT_FP16) h2f_n((const uint16_t *)Bm + ob, fb, K * N);
        else for (int64_t i = 0; i < K * N; i++) fb[i] = (float)rdf(bdt, Bm, ob + i);
        dot_f32(kind, fa, fb, S, parts, M, N, K);
        const int64_t o0 = bb * M * N;
        if (rt.dt == DT_FP32) {
            float *Rf = (float *)R + o0;
            const float *Af = (const float *)Acc + o0;
            for (int64_t i = 0; i < M * N; i++) Rf[i] = S[i] + Af[i];
        } else {
            for (int64_t i = 0; i < M * N; i++)
                wrf(rt.dt, R, o0 + i, (double)(S[i] + (float)rdf(rt.dt, Acc, o0 + i)), 0);
        }
    }
}

/* ---- memory --------------------------------------------------------------------------- */

static const char *const access_names[] = {"load", "store", "atomic"};

static TC_NORETURN void mem_fail(Ctx *c, const Inst *in, uint64_t addr, int size, int kind) {
    const InterpLaunch *l = c->l;
    char p[64];
    program_str(c, p, sizeof p);
    const char *what = access_names[kind];
    int best = -1;
    uint64_t bestd = UINT64_MAX;
    for (int i = 0; i < l->nmem; i++) {
        const MemRegion *m = &l->mem[i];
        uint64_t d;
        if (addr >= m->lo && addr < m->hi) d = 0;
        else if (addr < m->lo) d = m->lo - addr;
        else d = addr - m->hi + 1;
        if (d < bestd) { bestd = d; best = i; }
    }
    if (best < 0)
        FAIL(c, in, "out-of-bounds %s: address 0x%llx is not inside any tensor of the launch "
             "in program %s", what, (unsigned long long)addr, p);
    const MemRegion *m = &l->mem[best];
    const char *name = m->name ? m->name : "?";
    long long off = (long long)(addr - m->lo) / size;
    if (addr >= m->lo && addr % (uint64_t)size != 0 && addr + (uint64_t)size <= m->hi)
        FAIL(c, in, "misaligned %s: address 0x%llx is not a multiple of %d bytes ('%s', byte "
             "offset %lld) in program %s", what, (unsigned long long)addr, size, name,
             (long long)(addr - m->lo), p);
    if (addr < m->lo)
        FAIL(c, in, "out-of-bounds %s: address 0x%llx is %llu bytes before the start of '%s' "
             "(offset %lld elements) in program %s", what, (unsigned long long)addr,
             (unsigned long long)(m->lo - addr), name, off, p);
    FAIL(c, in, "out-of-bounds %s: address 0x%llx is %llu bytes past the end of '%s' (offset "
         "%lld elements) in program %s", what, (unsigned long long)addr,
         (unsigned long long)(addr + (uint64_t)size - m->hi), name, off, p);
}

static inline bool in_region(const MemRegion *m, uint64_t lo, uint64_t hi_incl_end) {
    return lo >= m->lo && hi_incl_end <= m->hi && hi_incl_end >= lo;
}

static bool lane_ok(Ctx *c, uint64_t a, int size) {
    if (a & (uint64_t)(size - 1)) return false;
    const InterpLaunch *l = c->l;
    if (a + (uint64_t)size < a) return false;
    for (int i = 0; i < l->nmem; i++)
        if (in_region(&l->mem[i], a, a + (uint64_t)size)) return true;
    return false;
}

static bool contiguous(const uint64_t *P, int64_t n, int es);

/* Checks every active lane of an access (the one place every memory access goes through,
 * so check mode records it here; vals: a store's values). Fails naming the first bad lane.
 * Returns the number of active lanes. */
/* The smallest and largest of n addresses, and their OR (for the alignment). Unsigned 64-bit
 * min/max only vectorize with AVX-512 (vpminuq), hence a build for it chosen at run time. */
#define ADDR_SPAN_BODY \
    uint64_t l = UINT64_MAX, h = 0, o = 0; \
    for (int64_t i = 0; i < n; i++) { \
        uint64_t a = addr[i]; \
        l = a < l ? a : l; \
        h = a > h ? a : h; \
        o |= a; \
    } \
    *lo = l; *hi = h; *orr = o;
static void addr_span_plain(const uint64_t *addr, int64_t n, uint64_t *lo, uint64_t *hi, uint64_t *orr) {
    ADDR_SPAN_BODY
}
#ifdef DOT_X86
__attribute__((target("avx512f"))) static void addr_span_avx512(const uint64_t *addr, int64_t n, uint64_t *lo,
                                                                uint64_t *hi, uint64_t *orr) {
    ADDR_SPAN_BODY
}
#endif
static void addr_span(const uint64_t *addr, int64_t n, uint64_t *lo, uint64_t *hi, uint64_t *orr) {
#ifdef DOT_X86
    if (__builtin_cpu_supports("avx512f")) { addr_span_avx512(addr, n, lo, hi, orr); return; }
#endif
    addr_span_plain(addr, n, lo, hi, orr);
}

static int64_t mem_check(Ctx *c, const Inst *in, const uint64_t *addr, const uint8_t *mask,
                         int64_t n, int size, int kind, const void *vals, bool *contig) {
    uint64_t lo = UINT64_MAX, hi = 0, orr = 0;
    int64_t active = n;
    *contig = false;
    if (mask && !memchr(mask, 0, (size_t)n)) mask = NULL; /* all lanes active */
    if (!mask && n > 1 && contiguous(addr, n, size)) {
        *contig = true;
        lo = orr = addr[0];
        hi = addr[n - 1];
    } else if (mask) {
        active = 0;
        FOR_N {
            uint64_t a = addr[i], m = (uint64_t)0 - (uint64_t)(mask[i] != 0);
            uint64_t al = a | ~m, ah = a & m;
            lo = al < lo ? al : lo;
            hi = ah > hi ? ah : hi;
            orr |= ah;
            active += mask[i] != 0;
        }
    } else {
        addr_span(addr, n, &lo, &hi, &orr);
    }
    if (!active) return 0;
    const InterpLaunch *l = c->l;
    int region = -1;
    if (!(orr & (uint64_t)(size - 1)) && hi + (uint64_t)size > hi) {
        if (c->last_mem < l->nmem && in_region(&l->mem[c->last_mem], lo, hi + (uint64_t)size)) {
            region = c->last_mem;
        } else {
            for (int i = 0; i < l->nmem; i++)
                if (in_region(&l->mem[i], lo, hi + (uint64_t)size)) {
                    c->last_mem = region = i;
                    break;
                }
        }
    }
    if (region < 0) {
        FOR_N {
            if (mask && !mask[i]) continue;
            if (!lane_ok(c, addr[i], size)) mem_fail(c, in, addr[i], size, kind);
        }
    }
    if (kind != 0 && c->has_uninit) {
        /* stores clear never-written marks in every mode (a later checked launch reads them) */
        if (*contig && region >= 0) {  /* one run of bytes: one memset */
            const MemRegion *r = &l->mem[region];
            if (r->uninit) uninit_clear(r->uninit, lo - r->lo, hi - lo + (uint64_t)size);
        } else {
            FOR_N {
                if (mask && !mask[i]) continue;
                int r = region >= 0 ? region : mem_region_of(l->mem, l->nmem, addr[i]);
                if (r >= 0 && l->mem[r].uninit)
                    uninit_clear(l->mem[r].uninit, addr[i] - l->mem[r].lo, (uint64_t)size);
            }
        }
    }
    if (c->chk) check_access(c->chk, in, addr, mask, n, size, kind, region, vals);
    return active;
}

/* Are the n addresses consecutive elements of size es? */
static bool contiguous(const uint64_t *P, int64_t n, int es) {
    uint64_t base = P[0], bad = 0;
    int sh = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3;
    FOR_N bad |= P[i] ^ (base + ((uint64_t)i << sh));
    return bad == 0;
}

static void ex_load(Ctx *c, const Inst *in) {
    Type rt = TY(c, in->res[0]);
    int64_t n = type_numel(rt);
    int es = dt_size(rt.dt);
    const uint64_t *P = V(c, in->args[0]);
    const uint8_t *M = in->args[1] >= 0 ? V(c, in->args[1]) : NULL;
    const void *O = in->args[2] >= 0 ? V(c, in->args[2]) : NULL;
    void *r = V(c, in->res[0]);
    bool contig;
    int64_t active = mem_check(c, in, P, M, n, es, 0, NULL, &contig);
    if (active == n) M = NULL;
    if (contig) {
        memcpy(r, (const void *)(uintptr_t)P[0], (size_t)(n * es));
    } else switch (es) {
#define LD_CASE(SZ, T) \
    case SZ: { T *R = r; const T *OT = O; \
        if (!M) { FOR_N memcpy(&R[i], (const void *)(uintptr_t)P[i], SZ); } \
        else { FOR_N { if (M[i]) memcpy(&R[i], (const void *)(uintptr_t)P[i], SZ); \
                       else R[i] = OT ? OT[i] : 0; } } \
        break; }
    LD_CASE(1, uint8_t)
    LD_CASE(2, uint16_t)
    LD_CASE(4, uint32_t)
    LD_CASE(8, uint64_t)
#undef LD_CASE
    default: BAD(c, in);
    }
    if (rt.dt == DT_I1) {
        uint8_t *R = r;
        FOR_N R[i] = R[i] != 0;
    }
    if (c->chk && active) check_loaded(c->chk, rt.dt, r, M, n);
}

static void ex_store(Ctx *c, const Inst *in) {
    Type vt = TY(c, in->args[1]);
    int64_t n = type_numel(vt);
    int es = dt_size(vt.dt);
    const uint64_t *P = V(c, in->args[0]);
    const void *val = V(c, in->args[1]);
    const uint8_t *M = in->args[2] >= 0 ? V(c, in->args[2]) : NULL;
    bool contig;
    int64_t active = mem_check(c, in, P, M, n, es, 1, val, &contig);
    if (active == n) M = NULL;
    if (c->chk && active) check_store(c->chk, in, P, M, n, c->buf);
    if (contig) {
        memmove((void *)(uintptr_t)P[0], val, (size_t)(n * es));
        return;
    }
    switch (es) {
#define ST_CASE(SZ, T) \
    case SZ: { const T *A = val; \
        if (!M) { FOR_N memcpy((void *)(uintptr_t)P[i], &A[i], SZ); } \
        else { FOR_N if (M[i]) memcpy((void *)(uintptr_t)P[i], &A[i], SZ); } \
        break; }
    ST_CASE(1, uint8_t)
    ST_CASE(2, uint16_t)
    ST_CASE(4, uint32_t)
    ST_CASE(8, uint64_t)
#undef ST_CASE
    default: BAD(c, in);
    }
}

/* Compare-and-swap of es bytes at p (parallel runs): true if *p held *expect (then it holds
 * *desired); else *expect gets the current value. */
static bool cas_bytes(void *p, void *expect, const void *desired, int es) {
    switch (es) {
    case 1: { uint8_t d; memcpy(&d, desired, 1);
              return __atomic_compare_exchange_n((uint8_t *)p, (uint8_t *)expect, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    case 2: { uint16_t d; memcpy(&d, desired, 2);
              return __atomic_compare_exchange_n((uint16_t *)p, (uint16_t *)expect, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    case 4: { uint32_t d; memcpy(&d, desired, 4);
              return __atomic_compare_exchange_n((uint32_t *)p, (uint32_t *)expect, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    default: { uint64_t d; memcpy(&d, desired, 8);
               return __atomic_compare_exchange_n((uint64_t *)p, (uint64_t *)expect, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); }
    }
}

static void atomic_read(const void *p, void *out, int es) {
    switch (es) {
    case 1: *(uint8_t *)out = __atomic_load_n((const uint8_t *)p, __ATOMIC_SEQ_CST); break;
    case 2: *(uint16_t *)out = __atomic_load_n((const uint16_t *)p, __ATOMIC_SEQ_CST); break;
    case 4: *(uint32_t *)out = __atomic_load_n((const uint32_t *)p, __ATOMIC_SEQ_CST); break;
    default: *(uint64_t *)out = __atomic_load_n((const uint64_t *)p, __ATOMIC_SEQ_CST); break;
    }
}

static void atomic_new(Ctx *c, const Inst *in, int dt, const uint8_t *oldb, uint8_t *newb,
                       const void *vals, int64_t i);

/* One atomic read-modify-write on host memory: returns the old value's bits. In parallel
 * runs it is a compare-and-swap loop, so it is atomic among the threads. */
static uint64_t atomic_one(Ctx *c, const Inst *in, int dt, void *p, const void *vals, int64_t i) {
    int es = dt_size(dt);
    uint64_t old = 0;
    uint8_t oldb[8] = {0}, newb[8] = {0};
    if (c->par) {
        atomic_read(p, oldb, es);
        do {
            atomic_new(c, in, dt, oldb, newb, vals, i);
        } while (!cas_bytes(p, oldb, newb, es));
        memcpy(&old, oldb, (size_t)es);
        return old;
    }
    memcpy(&old, p, (size_t)es);
    memcpy(oldb, p, (size_t)es);
    atomic_new(c, in, dt, oldb, newb, vals, i);
    memcpy(p, newb, (size_t)es);
    return old;
}

static void atomic_new(Ctx *c, const Inst *in, int dt, const uint8_t *oldb, uint8_t *newb,
                       const void *vals, int64_t i) {
    int es = dt_size(dt);
    int kind = in->attr.kind;
    if (dt_is_float(dt)) {
        double o = rdf(dt, oldb, 0), v = rdf(dt, vals, i), r;
        switch (kind) {
        case ATOM_ADD:
            if (dt == DT_FP32) r = (double)((float)o + (float)v);
            else r = o + v;
            break;
        case ATOM_MAX: r = (isnan(o) || v > o) ? v : o; break;
        case ATOM_MIN: r = (isnan(o) || v < o) ? v : o; break;
        case ATOM_XCHG: memcpy(newb, (const char *)vals + i * es, (size_t)es); return;
        default: BAD(c, in);
        }
        if (dt == DT_FP16 || dt == DT_BF16) r = (double)(float)r; /* computed in float */
        wrf(dt, newb, 0, r, 0);
    } else {
        int64_t o = rdi(dt, oldb, 0), v = rdi(dt, vals, i);
        uint64_t r;
        bool uns = !dt_is_signed(dt);
        switch (kind) {
        case ATOM_ADD: r = (uint64_t)o + (uint64_t)v; break;
        case ATOM_AND: r = (uint64_t)(o & v); break;
        case ATOM_OR: r = (uint64_t)(o | v); break;
        case ATOM_XOR: r = (uint64_t)(o ^ v); break;
        case ATOM_XCHG: r = (uint64_t)v; break;
        case ATOM_MAX: r = uns ? ((uint64_t)v > (uint64_t)o ? (uint64_t)v : (uint64_t)o) : (uint64_t)(v > o ? v : o); break;
        case ATOM_MIN: r = uns ? ((uint64_t)v < (uint64_t)o ? (uint64_t)v : (uint64_t)o) : (uint64_t)(v < o ? v : o); break;
        default: BAD(c, in);
        }
        wri(dt, newb, 0, r);
    }
}

static void ex_atomic(Ctx *c, const Inst *in) {
    Type vt = TY(c, in->args[1]);
    int64_t n = type_numel(vt);
    int es = dt_size(vt.dt);
    const uint64_t *P = V(c, in->args[0]);
    const void *val = V(c, in->args[1]);
    void *r = in->nres ? V(c, in->res[0]) : NULL;
    if (in->op == OP_ATOMIC) {
        const uint8_t *M = in->args[2] >= 0 ? V(c, in->args[2]) : NULL;
        bool contig;
        mem_check(c, in, P, M, n, es, 2, NULL, &contig);
        FOR_N {
            uint64_t old = 0;
            if (!M || M[i]) old = atomic_one(c, in, vt.dt, (void *)(uintptr_t)P[i], val, i);
            if (r) memcpy((char *)r + i * es, &old, (size_t)es);
        }
        if (c->chk && r) check_loaded(c->chk, vt.dt, r, M, n);
    } else {
        const void *cmp = val;
        const void *nv = V(c, in->args[2]);
        bool contig;
        mem_check(c, in, P, NULL, n, es, 2, NULL, &contig);
        FOR_N {
            void *p = (void *)(uintptr_t)P[i];
            uint64_t old = 0;
            if (c->par) {
                memcpy(&old, (const char *)cmp + i * es, (size_t)es);
                cas_bytes(p, &old, (const char *)nv + i * es, es); /* old: the value found */
            } else {
                memcpy(&old, p, (size_t)es);
                if (memcmp(p, (const char *)cmp + i * es, (size_t)es) == 0)
                    memcpy(p, (const char *)nv + i * es, (size_t)es);
            }
            if (r) memcpy((char *)r + i * es, &old, (size_t)es);
        }
    }
}

/* ---- debugging ---------------------------------------------------------------------- */

static void fmt_elem(int dt, const void *p, int64_t i, int hex, char *buf, size_t n) {
    if (hex) {
        uint64_t bits = 0;
        memcpy(&bits, (const char *)p + i * dt_size(dt), (size_t)dt_size(dt));
        snprintf(buf, n, "0x%llx", (unsigned long long)bits);
    } else if (dt_is_float(dt)) {
        snprintf(buf, n, "%f", rdf(dt, p, i));
    } else if (dt == DT_PTR) {
        snprintf(buf, n, "0x%llx", (unsigned long long)rdi(dt, p, i));
    } else if (dt_is_unsigned(dt)) {
        snprintf(buf, n, "%llu", (unsigned long long)rdi(dt, p, i));
    } else {
        snprintf(buf, n, "%lld", (long long)rdi(dt, p, i));
    }
}

static void ex_print(Ctx *c, const Inst *in) {
    InterpLaunch *l = c->l;
    if (!l->print) return;
    const char *prefix = in->attr.str ? in->attr.str : "";
    size_t plen = strlen(prefix);
    while (plen && (prefix[plen - 1] == ' ' || prefix[plen - 1] == ':')) plen--;
    int64_t n = 1;
    Type shape = type_scalar(DT_I32);
    if (in->nargs) { shape = TY(c, in->args[0]); n = type_numel(shape); }
    Buf b = {0};
    if (c->print_lock) pthread_mutex_lock(c->print_lock);
    for (int64_t e = 0; e < n; e++) {
        b.len = 0;
        buf_printf(&b, "pid (%u, %u, %u) idx (", c->pid[0], c->pid[1], c->pid[2]);
        int64_t rem = e, str[TC_MAX_RANK];
        strides_of(shape, str);
        for (int d = 0; d < shape.rank; d++) {
            buf_printf(&b, d ? ", %lld" : "%lld", (long long)(rem / str[d]));
            rem %= str[d];
        }
        buf_printf(&b, ") %.*s:", (int)plen, prefix);
        for (int k = 0; k < in->nargs; k++) {
            Type t = TY(c, in->args[k]);
            char v[64];
            fmt_elem(t.dt, V(c, in->args[k]), type_numel(t) == n ? e : 0, in->attr.kind & 1, v,
                     sizeof v);
            buf_printf(&b, k ? ", %s" : " %s", v);
        }
        buf_puts(&b, "\n");
        if (b.s && !b.oom) l->print(b.s, l->print_user);
    }
    if (c->print_lock) pthread_mutex_unlock(c->print_lock);
    buf_free(&b);
}

static void ex_assert(Ctx *c, const Inst *in) {
    Type t = TY(c, in->args[0]);
    int64_t n = type_numel(t);
    const uint8_t *C = V(c, in->args[0]);
    FOR_N if (!C[i]) {
        char p[64];
        program_str(c, p, sizeof p);
        FAIL(c, in, "device assertion failed: %s (program %s, lane %lld)",
             in->attr.str ? in->attr.str : "", p, (long long)i);
    }
}

/* ---- control flow ---------------------------------------------------------------------- */

static const Inst *exec_region(Ctx *c, const Region *r);

static size_t vbytes(const Ctx *c, int v) {
    Type t = TY(c, v);
    return (size_t)type_numel(t) * (size_t)(t.dt == DT_VOID ? 1 : dt_size(t.dt));
}

/* dst[i] = src[i] for all i at once (handles swaps through shadow buffers). */
static void copy_parallel(Ctx *c, const int *dst, const int *src, int n) {
    bool overlap = false;
    for (int i = 0; i < n && !overlap; i++)
        for (int j = 0; j < n; j++)
            if (i != j && V(c, src[i]) == V(c, dst[j]) && V(c, src[i]) != V(c, dst[i])) {
                overlap = true;
                break;
            }
    if (!overlap) {
        for (int i = 0; i < n; i++)
            if (V(c, dst[i]) != V(c, src[i])) memmove(V(c, dst[i]), V(c, src[i]), vbytes(c, dst[i]));
        return;
    }
    for (int i = 0; i < n; i++) memcpy(c->shadow[dst[i]], V(c, src[i]), vbytes(c, dst[i]));
    for (int i = 0; i < n; i++) memcpy(V(c, dst[i]), c->shadow[dst[i]], vbytes(c, dst[i]));
}

static void ex_if(Ctx *c, const Inst *in) {
    bool cond = *(const uint8_t *)V(c, in->args[0]) != 0;
    const Region *r = in->regions[cond ? 0 : 1];
    if (!r) return;
    const Inst *y = exec_region(c, r);
    if (c->returned || !y) return;
    int n = in->nres < y->nargs ? in->nres : y->nargs;
    copy_parallel(c, in->res, y->args, n);
}

static void ex_for(Ctx *c, const Inst *in) {
    int lbv = in->args[0], ubv = in->args[1], stv = in->args[2];
    int64_t lb = rdi(TY(c, lbv).dt, V(c, lbv), 0), ub = rdi(TY(c, ubv).dt, V(c, ubv), 0),
            step = rdi(TY(c, stv).dt, V(c, stv), 0);
    const Region *body = in->regions[0];
    int ncar = in->nargs - 3;
    if (step <= 0 && lb < ub) {
        char p[64];
        program_str(c, p, sizeof p);
        FAIL(c, in, "for-loop step must be positive (got %lld) in program %s", (long long)step, p);
    }
    copy_parallel(c, body->params + 1, in->args + 3, ncar);
    int ivv = body->params[0];
    int ivdt = TY(c, ivv).dt;
    for (int64_t iv = lb; iv < ub; iv += step) {
        wri(ivdt, V(c, ivv), 0, (uint64_t)iv);
        const Inst *y = exec_region(c, body);
        if (c->returned) return;
        if (y) copy_parallel(c, body->params + 1, y->args, ncar < y->nargs ? ncar : y->nargs);
        if (iv > INT64_MAX - step) break;
        tick(c, in);
    }
    copy_parallel(c, in->res, body->params + 1, in->nres);
}

static void ex_while(Ctx *c, const Inst *in) {
    const Region *before = in->regions[0], *after = in->regions[1];
    copy_parallel(c, before->params, in->args, in->nargs);
    for (;;) {
        const Inst *cnd = exec_region(c, before);
        if (c->returned) return;
        if (!cnd || cnd->op != OP_CONDITION || cnd->nargs < 1)
            err_fail(c->e, TC_ERR_INTERNAL, in->loc, "interpreter: while without condition");
        bool go = *(const uint8_t *)V(c, cnd->args[0]) != 0;
        if (!go) {
            copy_parallel(c, in->res, cnd->args + 1, in->nres);
            return;
        }
        if (after) {
            copy_parallel(c, after->params, cnd->args + 1, after->nparams);
            const Inst *y = exec_region(c, after);
            if (c->returned) return;
            if (y) copy_parallel(c, before->params, y->args, before->nparams);
        }
        tick(c, in);
    }
}

static void exec_inst(Ctx *c, const Inst *in) {
    switch (in->op) {
    case OP_CONST: case OP_ARANGE: case OP_EXPAND_DIMS: case OP_RESHAPE: case OP_BITCAST:
        break; /* precomputed or aliased */
    case OP_BARRIER:
        if (c->chk) check_barrier(c->chk);
        break;
    case OP_TMAP:   /* a hint for the GPU's TMA copies: no map here */
        *(uint64_t *)V(c, in->res[0]) = 0;
        break;
    case OP_PROGRAM_ID: {
        int a = in->attr.axis;
        *(int32_t *)V(c, in->res[0]) = (int32_t)(a >= 0 && a < 3 ? c->pid[a] : 0);
        break;
    }
    case OP_NUM_PROGRAMS: {
        int a = in->attr.axis;
        *(int32_t *)V(c, in->res[0]) = (int32_t)(a >= 0 && a < 3 ? c->l->grid[a] : 1);
        break;
    }
    case OP_SPLAT: {
        int v = in->res[0];
        fill(V(c, v), V(c, in->args[0]), type_numel(TY(c, v)), dt_size(TY(c, v).dt));
        break;
    }
    case OP_BROADCAST: ex_broadcast(c, in); break;
    case OP_PERMUTE: ex_permute(c, in); break;
    case OP_REDUCE: ex_reduce(c, in); break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_REM: case OP_AND: case OP_OR:
    case OP_XOR: case OP_SHL: case OP_SHR: case OP_MAX: case OP_MIN: case OP_UMULHI:
    case OP_CMP: case OP_FMA: case OP_WHERE: case OP_CAST:
    case OP_NEG: case OP_NOT: case OP_ABS: case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2:
    case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_FLOOR: case OP_CEIL:
    case OP_ERF: case OP_TANH: case OP_MATH1: case OP_MATH2:
        ex_elementwise(c, in);
        break;
    case OP_ADDPTR: ex_addptr(c, in); break;
    case OP_LOAD: ex_load(c, in); break;
    case OP_STORE: ex_store(c, in); break;
    case OP_ATOMIC: case OP_ATOMIC_CAS: ex_atomic(c, in); break;
    case OP_DOT: ex_dot(c, in); break;
    case OP_PRINT: ex_print(c, in); break;
    case OP_ASSERT: ex_assert(c, in); break;
    case OP_IF: ex_if(c, in); break;
    case OP_FOR: ex_for(c, in); break;
    case OP_WHILE: ex_while(c, in); break;
    case OP_RETURN: c->returned = 1; break;
    default:
        err_fail(c->e, TC_ERR_INTERNAL, in->loc, "interpreter: unexpected op %s",
                 in->op < OP_COUNT ? op_names[in->op] : "?");
    }
}

/* Runs a region; returns its terminating YIELD/CONDITION (NULL if none or returned). */
static const Inst *exec_region(Ctx *c, const Region *r) {
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        if (in->op == OP_YIELD || in->op == OP_CONDITION) return in;
        exec_inst(c, in);
        if (c->returned) return NULL;
    }
    return NULL;
}

/* ---- setup ---------------------------------------------------------------------------- */

static void *alloc_value(Ctx *c, int v) {
    size_t n = vbytes(c, v);
    return arena_alloc(&c->arena, n < 8 ? 8 : n);
}

static void fill_const(Ctx *c, const Inst *in) {
    int v = in->res[0];
    Type t = TY(c, v);
    uint8_t one[8] = {0};
    if (dt_is_float(t.dt)) wrf(t.dt, one, 0, in->attr.f, 0);
    else wri(t.dt, one, 0, (uint64_t)in->attr.i);
    fill(V(c, v), one, type_numel(t), dt_size(t.dt));
}

static void setup_region(Ctx *c, const Region *r, bool loop) {
    for (int i = 0; i < r->nparams; i++) {
        int p = r->params[i];
        c->buf[p] = alloc_value(c, p);
        if (loop) c->shadow[p] = alloc_value(c, p);
    }
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < in->nargs; k++) {
            int a = in->args[k];
            if (a >= c->f->nvalues || (a >= 0 && !c->buf[a]))
                err_fail(c->e, TC_ERR_INTERNAL, in->loc,
                         "interpreter: %s uses value %%%d before its definition",
                         op_names[in->op], a);
        }
        bool alias = (in->op == OP_EXPAND_DIMS || in->op == OP_RESHAPE || in->op == OP_BITCAST) &&
                     in->nres == 1 && in->nargs == 1 &&
                     vbytes(c, in->res[0]) == vbytes(c, in->args[0]);
        for (int k = 0; k < in->nres; k++) {
            int v = in->res[k];
            c->buf[v] = alias ? c->buf[in->args[0]] : alloc_value(c, v);
            if (in->op == OP_IF || in->op == OP_FOR || in->op == OP_WHILE)
                c->shadow[v] = alloc_value(c, v);
        }
        if (in->op == OP_CONST && in->nres == 1) fill_const(c, in);
        if (in->op == OP_ARANGE && in->nres == 1) {
            int32_t *R = V(c, in->res[0]);
            int64_t n = type_numel(TY(c, in->res[0]));
            FOR_N R[i] = (int32_t)(in->attr.i + i);
        }
        if ((in->op == OP_EXPAND_DIMS || in->op == OP_RESHAPE || in->op == OP_BITCAST) && !alias)
            err_fail(c->e, TC_ERR_INTERNAL, in->loc, "interpreter: %s changes the size",
                     op_names[in->op]);
        bool lp = in->op == OP_FOR || in->op == OP_WHILE;
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) setup_region(c, in->regions[k], lp);
    }
}

/* Allocates c's value buffers and fills the per-launch constants (c->f, c->l, c->e set). */
static void ctx_setup(Ctx *c) {
    const IrFunc *f = c->f;
    const InterpLaunch *l = c->l;
    c->buf = arena_alloc(&c->arena, sizeof(void *) * (size_t)(f->nvalues + 1));
    c->shadow = arena_alloc(&c->arena, sizeof(void *) * (size_t)(f->nvalues + 1));
    for (int i = 0; i < f->nparams; i++) {
        int v = f->params[i].value;
        c->buf[v] = alloc_value(c, v);
        int dt = f->params[i].type.dt;
        if (dt_is_float(dt)) wrf(dt, c->buf[v], 0, l->args[i].f, 0);
        else wri(dt, c->buf[v], 0, l->args[i].u);
    }
    for (int i = 0; i < l->nmem; i++) c->has_uninit |= l->mem[i].uninit != NULL;
    setup_region(c, f->body, false);
}

/* ---- program orders ----------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void shuffle_init(Shuffle *s, uint64_t n, uint64_t seed) {
    s->order = NULL;
    if (n > 1 && n <= SHUFFLE_TABLE_MAX) {
        /* Fisher-Yates with splitmix64; never the identity (programs 0 and 1 swapped then) */
        s->order = malloc(sizeof(uint32_t) * (size_t)n);
        if (s->order) {
            uint64_t st = seed;
            for (uint64_t i = 0; i < n; i++) s->order[i] = (uint32_t)i;
            for (uint64_t i = n - 1; i > 0; i--) {
                uint64_t j = splitmix(&st) % (i + 1);
                uint32_t t = s->order[i];
                s->order[i] = s->order[j];
                s->order[j] = t;
            }
            bool id = true;
            for (uint64_t i = 0; i < n && id; i++) id = s->order[i] == i;
            if (id) { s->order[0] = 1; s->order[1] = 0; }
        }
    }
    int bits = 1;
    while (bits < 63 && (1ULL << bits) < n) bits++;
    s->n = n;
    s->mask = (1ULL << bits) - 1;
    s->half = bits / 2 ? bits / 2 : 1;
    uint64_t st = seed;
    s->a = splitmix(&st) | 1;
    s->b = splitmix(&st);
    s->c = splitmix(&st) | 1;
}

/* A bijection of [0, 2^bits): affine maps (odd multipliers) and xor-shifts; cycle-walked
 * into [0, n). */
static uint64_t perm_bits(const Shuffle *s, uint64_t x) {
    for (int r = 0; r < 3; r++) {
        x = (x * s->a + s->b) & s->mask;
        x ^= x >> s->half;
        x = (x * s->c + (s->b >> 17)) & s->mask;
        x ^= x >> (s->half + 1 > 62 ? 1 : s->half + 1);
    }
    return x;
}

void shuffle_free(Shuffle *s) {
    free(s->order);
    s->order = NULL;
}

uint64_t shuffle_at(const Shuffle *s, uint64_t i) {
    if (s->n <= 1) return 0;
    if (s->order) return s->order[i];
    uint64_t x = perm_bits(s, i);
    while (x >= s->n) x = perm_bits(s, x);
    return x;
}

/* ---- sequential runs ---------------------------------------------------------------- */

/* Program `prog` (linear index: x outermost, then y, then z). */
static void run_one(Ctx *c, uint64_t prog) {
    const uint32_t *g = c->l->grid;
    uint64_t yz = (uint64_t)g[1] * g[2];
    c->pid[0] = (uint32_t)(prog / yz);
    c->pid[1] = (uint32_t)((prog / g[2]) % g[1]);
    c->pid[2] = (uint32_t)(prog % g[2]);
    c->prog = prog;
    c->returned = 0;
    if (c->chk) check_program(c->chk, prog);
    exec_region(c, c->f->body);
}

static uint64_t programs_of(const InterpLaunch *l) {
    return (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
}

/* All programs on this thread, in order or shuffled by seed; chk records (check mode). */
static tc_status run_seq(InterpLaunch *l, uint64_t seed, Checker *chk, Err *e) {
    Ctx *const c = calloc(1, sizeof *c);
    if (!c) {
        err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory");
        return TC_ERR_NOMEM;
    }
    jmp_buf *saved = e->jump;
    jmp_buf jb;
    arena_init(&c->arena, e);
    if (ERR_TRY(e, jb)) {
        shuffle_free(&c->order);
        arena_free(&c->arena);
        free(c);
        e->jump = saved;
        return e->code;
    }
    c->f = l->f;
    c->l = l;
    c->e = e;
    c->chk = chk;
    ctx_setup(c);
    uint64_t n = programs_of(l);
    if (seed) shuffle_init(&c->order, n, seed);
    c->reporter = true;
    for (uint64_t i = 0; i < n; i++) {
        run_one(c, seed ? shuffle_at(&c->order, i) : i);
        l->done = i + 1;
        tick(c, NULL);
    }
    shuffle_free(&c->order);
    arena_free(&c->arena);
    free(c);
    e->jump = saved;
    return TC_OK;
}

/* ---- parallel runs ----------------------------------------------------------------------- */

typedef struct Pool {
    InterpLaunch *l;
    uint64_t n, chunk;
    Shuffle sh;
    bool shuffled;
    uint64_t next;              /* atomic: the next program index to hand out */
    int stop;                   /* atomic: a program failed */
    pthread_mutex_t print_lock;
} Pool;

typedef struct Worker {
    Pool *p;
    Err err;
    tc_status rc;
    uint64_t fail_prog;
    bool reporter;              /* the launching thread's worker: it reports progress */
} Worker;

static void *worker_main(void *arg) {
    Worker *w = arg;
    Pool *p = w->p;
    Ctx *const c = calloc(1, sizeof *c);
    if (!c) {
        err_set(&w->err, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory");
        w->rc = TC_ERR_NOMEM;
        __atomic_store_n(&p->stop, 1, __ATOMIC_SEQ_CST);
        return NULL;
    }
    jmp_buf jb;
    arena_init(&c->arena, &w->err);
    c->prog = UINT64_MAX;
    if (ERR_TRY(&w->err, jb)) {
        w->rc = w->err.code ? w->err.code : TC_ERR_INTERNAL;
        w->fail_prog = c->prog;
        __atomic_store_n(&p->stop, 1, __ATOMIC_SEQ_CST);
        arena_free(&c->arena);
        free(c);
        return NULL;
    }
    c->f = p->l->f;
    c->l = p->l;
    c->e = &w->err;
    c->par = 1;
    c->reporter = w->reporter;
    c->print_lock = &p->print_lock;
    ctx_setup(c);
    for (;;) {
        if (__atomic_load_n(&p->stop, __ATOMIC_RELAXED)) break;
        uint64_t s = __atomic_fetch_add(&p->next, p->chunk, __ATOMIC_RELAXED);
        if (s >= p->n) break;
        uint64_t e = s + p->chunk < p->n ? s + p->chunk : p->n;
        for (uint64_t i = s; i < e; i++) {
            run_one(c, p->shuffled ? shuffle_at(&p->sh, i) : i);
            tick(c, NULL);
        }
        __atomic_fetch_add(&p->l->done, e - s, __ATOMIC_RELAXED);
    }
    arena_free(&c->arena);
    free(c);
    return NULL;
}

#define INTERP_MAX_THREADS 256

/* The programs on `threads` threads, each with its own value buffers; chunks of programs
 * are handed out in order (or in the shuffled order). Atomics are real atomics, device_print
 * lines of one print are kept together. On failure: the failing program with the lowest
 * index among those that failed. */
static tc_status run_par(InterpLaunch *l, int threads, uint64_t seed, Err *e) {
    uint64_t n = programs_of(l);
    if (threads > INTERP_MAX_THREADS) threads = INTERP_MAX_THREADS;
    if ((uint64_t)threads > n) threads = (int)n;
    Pool p;
    memset(&p, 0, sizeof p);
    p.l = l;
    p.n = n;
    p.chunk = n / ((uint64_t)threads * 8);
    if (p.chunk < 1) p.chunk = 1;
    if (p.chunk > 64) p.chunk = 64;
    p.shuffled = seed != 0;
    if (seed) shuffle_init(&p.sh, n, seed);
    pthread_mutex_init(&p.print_lock, NULL);
    Worker *w = calloc((size_t)threads, sizeof *w);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    bool *started = calloc((size_t)threads, sizeof *started);
    if (!w || !tid || !started) {
        free(w); free(tid); free(started);
        pthread_mutex_destroy(&p.print_lock);
        shuffle_free(&p.sh);
        return run_seq(l, seed, NULL, e);
    }
    for (int i = 0; i < threads; i++) {
        w[i].p = &p;
        w[i].fail_prog = UINT64_MAX;
        /* thread 0 is this one */
        if (i > 0 && pthread_create(&tid[i], NULL, worker_main, &w[i]) == 0) {
            started[i] = true;
        }
    }
    w[0].reporter = true;
    worker_main(&w[0]);
    for (int i = 1; i < threads; i++)
        if (started[i]) pthread_join(tid[i], NULL);
    tc_status rc = TC_OK;
    int worst = -1;
    for (int i = 0; i < threads; i++)
        if (w[i].rc && (worst < 0 || w[i].fail_prog < w[worst].fail_prog)) worst = i;
    if (worst >= 0) {
        jmp_buf *j = e->jump;
        *e = w[worst].err;
        e->jump = j;
        rc = w[worst].rc;
    }
    pthread_mutex_destroy(&p.print_lock);
    shuffle_free(&p.sh);
    free(w);
    free(tid);
    free(started);
    return rc;
}

tc_status interp_programs(InterpLaunch *l, int threads, uint64_t seed, Checker *k, Err *e) {
    l->done = 0;
    if (!k && threads > 1 && programs_of(l) > 1) return run_par(l, threads, seed, e);
    return run_seq(l, seed, k, e);
}

tc_status interp_run(InterpLaunch *l, Err *e) {
    const IrFunc *f = l->f;
    l->findings = 0;
    l->notes = 0;
    l->seed_used = 0;
    if (!f || !f->body) {
        err_set(e, TC_ERR_INTERNAL, (SrcLoc){0}, "interpreter: no function");
        return TC_ERR_INTERNAL;
    }
    for (int i = 0; i < 3; i++)
        if (l->grid[i] < 1) {
            err_set(e, TC_ERR_ARG, (SrcLoc){0}, "grid dimension %d is %u; it must be >= 1", i,
                    l->grid[i]);
            return TC_ERR_ARG;
        }
    uint64_t programs = programs_of(l);
    if (programs > INTERP_MAX_PROGRAMS) {
        err_set(e, TC_ERR_LIMIT, (SrcLoc){0},
                "grid (%u, %u, %u) has %llu programs; the interpreter runs at most %llu (2^26) "
                "per launch", l->grid[0], l->grid[1], l->grid[2], (unsigned long long)programs,
                (unsigned long long)INTERP_MAX_PROGRAMS);
        return TC_ERR_LIMIT;
    }
    l->start = l->last_report = mono_s();
    l->deadline = l->timeout_s > 0 ? l->start + l->timeout_s : 0;
    l->reported = 0;
    tc_status rc = l->check ? check_launch(l, e) : interp_programs(l, l->threads, l->shuffle_seed, NULL, e);
    if (rc == TC_OK && l->reported && l->progress) report_progress(l, mono_s());
    return rc;
}
