/* test_interp.c — the verifier, the optimizer and the interpreter on hand-built IR.
 * Expected values come from plain C loops or independently computed bit patterns. */
#include "test.h"

#include <stdlib.h>

#include "interp/interp.h"

typedef struct B {
    Arena a;
    Err e;
    IrFunc *f;
    Region *r;
    Inst *last;
    SrcLoc loc;
    Source *src;
} B;

static void b_init(B *b) {
    memset(b, 0, sizeof *b);
    arena_init(&b->a, &b->e);
    b->f = ir_func_new(&b->a, "k");
    b->r = b->f->body;
    static const char text[] = "def k(x_ptr, y_ptr, out_ptr, n):\n"
                               "    pid = tl.program_id(0)\n"
                               "    x = tl.load(x_ptr + offs)\n"
                               "    tl.store(out_ptr + offs, x)\n";
    b->src = source_new("k.py", text, sizeof text - 1);
}

static void b_free(B *b) {
    arena_free(&b->a);
    source_free(b->src);
}

static int emit_(B *b, int op, Type t, const int *args, int n) {
    b->last = ir_emit(b->f, b->r, op, args, n, t, b->loc);
    return b->last->nres ? b->last->res[0] : -1;
}
#define EM(b, op, t, ...) \
    emit_((b), (op), (t), (int[]){__VA_ARGS__}, (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)))
#define EM0(b, op, t) emit_((b), (op), (t), NULL, 0)
#define VOID type_scalar(DT_VOID)

static Type blk(int dt, int n) { int32_t s[1] = {n}; return type_block(dt, 1, s); }
static Type blk2(int dt, int m, int n) { int32_t s[2] = {m, n}; return type_block(dt, 2, s); }
static Type pblk(int elem, int n) { int32_t s[1] = {n}; return type_with_shape(type_ptr(elem), 1, s); }
static Type pblk2(int elem, int m, int n) {
    int32_t s[2] = {m, n};
    return type_with_shape(type_ptr(elem), 2, s);
}

static int ci(B *b, Type t, int64_t v) {
    int r = EM0(b, OP_CONST, t);
    b->last->attr.i = v;
    return r;
}
static int cf(B *b, Type t, double v) {
    int r = EM0(b, OP_CONST, t);
    b->last->attr.f = v;
    return r;
}

/* pointer block p + arange(n) (+ base), 1-D */
static int ptr_range(B *b, int p, int elem, int n) {
    int ar = EM0(b, OP_ARANGE, blk(DT_I32, n));
    int ps = EM(b, OP_SPLAT, pblk(elem, n), p);
    return EM(b, OP_ADDPTR, pblk(elem, n), ps, ar);
}

/* 2-D pointer grid p + i*N + j for an MxN row-major tile */
static int ptr_grid(B *b, int p, int elem, int M, int N) {
    int32_t s1[2] = {M, 1}, s2[2] = {1, N};
    int ri = EM0(b, OP_ARANGE, blk(DT_I32, M));
    int rj = EM0(b, OP_ARANGE, blk(DT_I32, N));
    int ei = EM(b, OP_EXPAND_DIMS, type_block(DT_I32, 2, s1), ri);
    b->last->attr.axis = 1;
    int ej = EM(b, OP_EXPAND_DIMS, type_block(DT_I32, 2, s2), rj);
    b->last->attr.axis = 0;
    int bi = EM(b, OP_BROADCAST, blk2(DT_I32, M, N), ei);
    int bj = EM(b, OP_BROADCAST, blk2(DT_I32, M, N), ej);
    int cn = ci(b, blk2(DT_I32, M, N), N);
    int off = EM(b, OP_ADD, blk2(DT_I32, M, N), EM(b, OP_MUL, blk2(DT_I32, M, N), bi, cn), bj);
    int ps = EM(b, OP_SPLAT, pblk2(elem, M, N), p);
    return EM(b, OP_ADDPTR, pblk2(elem, M, N), ps, off);
}

static MemRegion region(const void *p, size_t bytes, const char *name) {
    MemRegion m = {(uint64_t)(uintptr_t)p, (uint64_t)(uintptr_t)p + bytes, name, NULL};
    return m;
}

static tc_status run(B *b, const ArgBits *args, uint32_t gx, const MemRegion *mem, int nmem) {
    InterpLaunch l = {0};
    l.f = b->f;
    l.args = args;
    l.grid[0] = gx;
    l.grid[1] = l.grid[2] = 1;
    l.mem = mem;
    l.nmem = nmem;
    return interp_run(&l, &b->e);
}

static ArgBits P(const void *p) { ArgBits a; a.u = (uint64_t)(uintptr_t)p; return a; }
static ArgBits I(int64_t i) { ArgBits a; a.i = i; return a; }

/* A unary/binary test harness: out[i] = op(x[i], y[i]) over n elements of dtype dt (result
 * dtype rdt), one program. */
static tc_status binop(int op, int kind, int dt, int rdt, int n, const void *x, const void *y,
                       void *out, B *b) {
    b_init(b);
    int px = ir_param_add(b->f, "x_ptr", type_ptr(dt), false, b->loc);
    int py = ir_param_add(b->f, "y_ptr", type_ptr(dt), false, b->loc);
    int po = ir_param_add(b->f, "out_ptr", type_ptr(rdt), false, b->loc);
    int xv = EM(b, OP_LOAD, blk(dt, n), ptr_range(b, px, dt, n), -1, -1);
    int yv = EM(b, OP_LOAD, blk(dt, n), ptr_range(b, py, dt, n), -1, -1);
    int r;
    if (op_nargs[op] == 1) r = EM(b, op, blk(rdt, n), xv);
    else r = EM(b, op, blk(rdt, n), xv, yv);
    b->last->attr.kind = kind;
    EM(b, OP_STORE, VOID, ptr_range(b, po, rdt, n), r, -1);
    Err ve = {0};
    if (!ir_verify(b->f, &ve)) {
        fprintf(stderr, "verify: %s\n", ve.msg);
        return ve.code;
    }
    ArgBits args[3] = {P(x), P(y), P(out)};
    size_t es = (size_t)dt_size(dt), rs = (size_t)dt_size(rdt);
    MemRegion mem[3] = {region(x, es * (size_t)n, "x_ptr"), region(y, es * (size_t)n, "y_ptr"),
                        region(out, rs * (size_t)n, "out_ptr")};
    return run(b, args, 1, mem, 3);
}

/* ---- vector add ------------------------------------------------------------------------ */

static void build_vadd(B *b, int BLOCK, bool masked) {
    int px = ir_param_add(b->f, "x_ptr", type_ptr(DT_FP32), true, b->loc);
    int py = ir_param_add(b->f, "y_ptr", type_ptr(DT_FP32), true, b->loc);
    int po = ir_param_add(b->f, "out_ptr", type_ptr(DT_FP32), true, b->loc);
    int pn = ir_param_add(b->f, "n", type_scalar(DT_I32), false, b->loc);
    b->loc = (SrcLoc){b->src, 2, 11};
    int pid = EM0(b, OP_PROGRAM_ID, type_scalar(DT_I32));
    b->last->attr.axis = 0;
    int start = EM(b, OP_MUL, type_scalar(DT_I32), pid, ci(b, type_scalar(DT_I32), BLOCK));
    int ar = EM0(b, OP_ARANGE, blk(DT_I32, BLOCK));
    int offs = EM(b, OP_ADD, blk(DT_I32, BLOCK), EM(b, OP_SPLAT, blk(DT_I32, BLOCK), start), ar);
    int mask = EM(b, OP_CMP, blk(DT_I1, BLOCK), offs, EM(b, OP_SPLAT, blk(DT_I32, BLOCK), pn));
    b->last->attr.kind = CMP_LT;
    int xa = EM(b, OP_ADDPTR, pblk(DT_FP32, BLOCK), EM(b, OP_SPLAT, pblk(DT_FP32, BLOCK), px), offs);
    int ya = EM(b, OP_ADDPTR, pblk(DT_FP32, BLOCK), EM(b, OP_SPLAT, pblk(DT_FP32, BLOCK), py), offs);
    int oa = EM(b, OP_ADDPTR, pblk(DT_FP32, BLOCK), EM(b, OP_SPLAT, pblk(DT_FP32, BLOCK), po), offs);
    b->loc = (SrcLoc){b->src, 3, 9};
    int xv = EM(b, OP_LOAD, blk(DT_FP32, BLOCK), xa, masked ? mask : -1, -1);
    b->loc = (SrcLoc){b->src, 2, 11};
    int yv = EM(b, OP_LOAD, blk(DT_FP32, BLOCK), ya, masked ? mask : -1, -1);
    int s = EM(b, OP_ADD, blk(DT_FP32, BLOCK), xv, yv);
    b->loc = (SrcLoc){b->src, 4, 5};
    EM(b, OP_STORE, VOID, oa, s, masked ? mask : -1);
}

TEST(interp_vector_add) {
    B b;
    b_init(&b);
    build_vadd(&b, 256, true);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    enum { N = 1000 };
    float *x = malloc(N * 4), *y = malloc(N * 4), *o = malloc(N * 4);
    for (int i = 0; i < N; i++) { x[i] = (float)i * 0.5f; y[i] = 1.0f / (float)(i + 1); o[i] = -1; }
    ArgBits args[4] = {P(x), P(y), P(o), I(N)};
    MemRegion mem[3] = {region(x, N * 4, "x_ptr"), region(y, N * 4, "y_ptr"), region(o, N * 4, "out_ptr")};
    CHECK_INT(TC_OK, run(&b, args, 4, mem, 3));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += o[i] != x[i] + y[i];
    CHECK_INT(0, bad);
    /* the optimizer keeps the results */
    ir_optimize(b.f);
    CHECK(ir_verify(b.f, &ve));
    for (int i = 0; i < N; i++) o[i] = -1;
    CHECK_INT(TC_OK, run(&b, args, 4, mem, 3));
    bad = 0;
    for (int i = 0; i < N; i++) bad += o[i] != x[i] + y[i];
    CHECK_INT(0, bad);
    free(x); free(y); free(o);
    b_free(&b);
}

TEST(interp_oob_load) {
    B b;
    b_init(&b);
    build_vadd(&b, 256, false); /* no mask: program 3 reads past the end */
    enum { N = 1000 };
    float *x = calloc(1024, 4), *y = calloc(1024, 4), *o = calloc(1024, 4);
    for (int i = 0; i < 1024; i++) o[i] = -1;
    ArgBits args[4] = {P(x), P(y), P(o), I(N)};
    MemRegion mem[3] = {region(x, N * 4, "x_ptr"), region(y, 1024 * 4, "y_ptr"), region(o, 1024 * 4, "out_ptr")};
    CHECK_INT(TC_ERR_RUNTIME, run(&b, args, 4, mem, 3));
    CHECK_CONTAINS(b.e.msg, "out-of-bounds load");
    CHECK_CONTAINS(b.e.msg, "is 4 bytes past the end of 'x_ptr' (offset 1000 elements)");
    CHECK_CONTAINS(b.e.msg, "in program (3, 0, 0)");
    CHECK_CONTAINS(b.e.msg, "k.py:3:9");
    CHECK_CONTAINS(b.e.msg, "x = tl.load(x_ptr + offs)");
    /* programs 0..2 ran, program 3 stored nothing */
    CHECK(o[767] == 0.0f);
    CHECK(o[768] == -1.0f);
    /* masked: fine */
    b_free(&b);
    b_init(&b);
    build_vadd(&b, 256, true);
    CHECK_INT(TC_OK, run(&b, args, 4, mem, 3));
    CHECK(o[999] == 0.0f && o[1000] == -1.0f);
    /* before the start */
    ArgBits args2[4] = {P(x + 4), P(y), P(o), I(N)};
    MemRegion mem2[3] = {region(x + 8, 992 * 4, "x_ptr"), region(y, 1024 * 4, "y_ptr"), region(o, 1024 * 4, "out_ptr")};
    CHECK_INT(TC_ERR_RUNTIME, run(&b, args2, 4, mem2, 3));
    CHECK_CONTAINS(b.e.msg, "16 bytes before the start of 'x_ptr' (offset -4 elements)");
    CHECK_CONTAINS(b.e.msg, "program (0, 0, 0)");
    free(x); free(y); free(o);
    b_free(&b);
}

TEST(interp_oob_store_writes_nothing) {
    B b;
    b_init(&b);
    build_vadd(&b, 256, false);
    float *x = calloc(1024, 4), *y = calloc(1024, 4), *o = calloc(1024, 4);
    for (int i = 0; i < 1024; i++) { x[i] = 1; y[i] = 2; o[i] = -1; }
    ArgBits args[4] = {P(x), P(y), P(o), I(1024)};
    MemRegion mem[3] = {region(x, 1024 * 4, "x_ptr"), region(y, 1024 * 4, "y_ptr"), region(o, 1000 * 4, "out_ptr")};
    CHECK_INT(TC_ERR_RUNTIME, run(&b, args, 4, mem, 3));
    CHECK_CONTAINS(b.e.msg, "out-of-bounds store");
    CHECK_CONTAINS(b.e.msg, "past the end of 'out_ptr' (offset 1000 elements)");
    CHECK_CONTAINS(b.e.msg, "program (3, 0, 0)");
    CHECK_CONTAINS(b.e.msg, "k.py:4:5");
    CHECK(o[767] == 3.0f);
    CHECK(o[768] == -1.0f); /* the failing store wrote none of its lanes */
    CHECK(o[999] == -1.0f);
    /* misaligned pointer */
    ArgBits args2[4] = {P((char *)x + 2), P(y), P(o), I(4)};
    CHECK_INT(TC_ERR_RUNTIME, run(&b, args2, 1, mem, 3));
    CHECK_CONTAINS(b.e.msg, "misaligned load");
    /* a grid with too many programs is refused before anything runs */
    InterpLaunch big = {0};
    big.f = b.f;
    big.args = args;
    big.grid[0] = 65536;
    big.grid[1] = 32768;
    big.grid[2] = 1;
    CHECK_INT(TC_ERR_LIMIT, interp_run(&big, &b.e));
    CHECK_CONTAINS(b.e.msg, "grid (65536, 32768, 1) has 2147483648 programs");
    big.grid[1] = 0;
    CHECK_INT(TC_ERR_ARG, interp_run(&big, &b.e));
    /* no region at all */
    CHECK_INT(TC_ERR_RUNTIME, run(&b, args, 1, NULL, 0));
    CHECK_CONTAINS(b.e.msg, "not inside any tensor");
    free(x); free(y); free(o);
    b_free(&b);
}

TEST(interp_masked_lanes_never_touch_memory) {
    B b;
    b_init(&b);
    int px = ir_param_add(b.f, "x_ptr", type_ptr(DT_I32), false, b.loc);
    int po = ir_param_add(b.f, "out_ptr", type_ptr(DT_I32), false, b.loc);
    /* lanes 0..3 valid; lanes 4..7 point at garbage (address 16 + ...) and are masked off */
    int ar = EM0(&b, OP_ARANGE, blk(DT_I32, 8));
    int m = EM(&b, OP_CMP, blk(DT_I1, 8), ar, ci(&b, blk(DT_I32, 8), 4));
    b.last->attr.kind = CMP_LT;
    int good = EM(&b, OP_ADDPTR, pblk(DT_I32, 8), EM(&b, OP_SPLAT, pblk(DT_I32, 8), px), ar);
    int junk = ci(&b, pblk(DT_I32, 8), 16);
    int ptrs = EM(&b, OP_WHERE, pblk(DT_I32, 8), m, good, junk);
    int v = EM(&b, OP_LOAD, blk(DT_I32, 8), ptrs, m, ci(&b, blk(DT_I32, 8), 77));
    EM(&b, OP_STORE, VOID, ptr_range(&b, po, DT_I32, 8), v, -1);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    int32_t x[4] = {1, 2, 3, 4}, o[8] = {0};
    ArgBits args[2] = {P(x), P(o)};
    MemRegion mem[2] = {region(x, sizeof x, "x_ptr"), region(o, sizeof o, "out_ptr")};
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 2));
    CHECK_INT(1, o[0]);
    CHECK_INT(4, o[3]);
    CHECK_INT(77, o[4]);
    CHECK_INT(77, o[7]);
    b_free(&b);
}

/* ---- integer semantics ------------------------------------------------------------------ */

TEST(interp_int_wrap_and_div) {
    B b;
    int8_t a8[4] = {100, -128, 127, -1}, b8[4] = {100, -1, 1, 1}, r8[4];
    CHECK_INT(TC_OK, binop(OP_ADD, 0, DT_I8, DT_I8, 4, a8, b8, r8, &b));
    CHECK_INT(-56, r8[0]);
    CHECK_INT(127, r8[1]);
    CHECK_INT(-128, r8[2]);
    CHECK_INT(0, r8[3]);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_MUL, 0, DT_I8, DT_I8, 4, a8, b8, r8, &b));
    CHECK_INT(16, r8[0]); /* 10000 mod 256 = 16 */
    CHECK_INT(-128, r8[1]);
    b_free(&b);
    int32_t a[8] = {-7, 7, -7, 7, INT32_MIN, 100, -1, 5}, d[8] = {2, -2, -2, 2, -1, 7, 3, 5}, r[8];
    CHECK_INT(TC_OK, binop(OP_DIV, 0, DT_I32, DT_I32, 8, a, d, r, &b));
    CHECK_INT(-3, r[0]);
    CHECK_INT(-3, r[1]);
    CHECK_INT(3, r[2]);
    CHECK_INT(3, r[3]);
    CHECK_INT(INT32_MIN, r[4]);
    CHECK_INT(14, r[5]);
    CHECK_INT(0, r[6]);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_REM, 0, DT_I32, DT_I32, 8, a, d, r, &b));
    CHECK_INT(-1, r[0]);
    CHECK_INT(1, r[1]);
    CHECK_INT(-1, r[2]);
    CHECK_INT(1, r[3]);
    CHECK_INT(0, r[4]);
    CHECK_INT(2, r[5]);
    CHECK_INT(-1, r[6]);
    b_free(&b);
    /* integer division by zero: unspecified on GPUs, tritonc gives 0 and no error (lanes a
     * mask drops later may divide by zero); check mode notes it */
    int32_t z[8] = {1, 1, 1, 0, 1, 1, 1, 1};
    CHECK_INT(TC_OK, binop(OP_DIV, 0, DT_I32, DT_I32, 8, a, z, r, &b));
    CHECK_INT(-7, r[0]);
    CHECK_INT(0, r[3]);
    CHECK_INT(100, r[5]);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_REM, 0, DT_I32, DT_I32, 8, a, z, r, &b));
    CHECK_INT(0, r[3]);
    CHECK_INT(0, r[0]);
    b_free(&b);
    uint8_t u8a[4] = {7, 200, 3, 0}, u8z[4] = {0, 3, 0, 0}, u8r[4];
    CHECK_INT(TC_OK, binop(OP_DIV, 0, DT_U8, DT_U8, 4, u8a, u8z, u8r, &b));
    CHECK_INT(0, u8r[0]);
    CHECK_INT(66, u8r[1]);
    CHECK_INT(0, u8r[2]);
    b_free(&b);
    uint32_t ua[4] = {0xffffffffu, 3, 0x80000000u, 10}, ub[4] = {0xffffffffu, 0xffffffffu, 2, 3}, ur[4];
    CHECK_INT(TC_OK, binop(OP_UMULHI, 0, DT_U32, DT_U32, 4, ua, ub, ur, &b));
    CHECK_INT(0xfffffffeu, ur[0]);
    CHECK_INT(2, ur[1]);
    CHECK_INT(1, ur[2]);
    CHECK_INT(0, ur[3]);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_DIV, 0, DT_U32, DT_U32, 4, ua, ub, ur, &b));
    CHECK_INT(1, ur[0]);
    CHECK_INT(0x40000000u, ur[2]);
    b_free(&b);
    /* shifts: >= width gives 0 (logical) or the sign fill (arithmetic) */
    int32_t sa[4] = {-16, -16, 1, -1}, sb[4] = {2, 40, 31, 32}, sr[4];
    CHECK_INT(TC_OK, binop(OP_SHR, 1, DT_I32, DT_I32, 4, sa, sb, sr, &b));
    CHECK_INT(-4, sr[0]);
    CHECK_INT(-1, sr[1]);
    CHECK_INT(0, sr[2]);
    CHECK_INT(-1, sr[3]);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_SHR, 0, DT_I32, DT_I32, 4, sa, sb, sr, &b));
    CHECK_INT(0x3ffffffc, sr[0]);
    CHECK_INT(0, sr[1]);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_SHL, 0, DT_I32, DT_I32, 4, sa, sb, sr, &b));
    CHECK_INT(-64, sr[0]);
    CHECK_INT(0, sr[1]);
    CHECK_INT(INT32_MIN, sr[2]);
    CHECK_INT(0, sr[3]);
    b_free(&b);
    int16_t na[4] = {-32768, 5, -5, 0}, nr[4];
    CHECK_INT(TC_OK, binop(OP_NEG, 0, DT_I16, DT_I16, 4, na, na, nr, &b));
    CHECK_INT(-32768, nr[0]);
    CHECK_INT(-5, nr[1]);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_ABS, 0, DT_I16, DT_I16, 4, na, na, nr, &b));
    CHECK_INT(-32768, nr[0]);
    CHECK_INT(5, nr[2]);
    b_free(&b);
}

/* ---- floats ------------------------------------------------------------------------------ */

TEST(interp_fp16_bf16_rounding) {
    B b;
    /* 1 + 2^-11 is a tie: to even (1.0). 1 + 3*2^-11: tie, to even 1+2^-9 (0x3c02).
       65504 + 16 = 65520: tie between 65504 (odd) and 65536 -> inf. 65504 + 8 -> 65504.
       2^-12 * 2^-12 = 2^-24 = smallest subnormal; 2^-13 * 2^-12: tie with 0 -> 0. */
    uint16_t ha[4] = {0x3c00, 0x3c00, 0x7bff, 0x7bff}, hb[4] = {0x1000, 0x1600, 0x4c00, 0x4800}, hr[4];
    CHECK_INT(TC_OK, binop(OP_ADD, 0, DT_FP16, DT_FP16, 4, ha, hb, hr, &b));
    CHECK_INT(0x3c00, hr[0]);
    CHECK_INT(0x3c02, hr[1]);
    CHECK_INT(0x7c00, hr[2]);
    CHECK_INT(0x7bff, hr[3]);
    b_free(&b);
    uint16_t ma[3] = {0x0c00, 0x0800, 0x0c00}, mb[3] = {0x0c00, 0x0c00, 0x8c00}, mr[3];
    CHECK_INT(TC_OK, binop(OP_MUL, 0, DT_FP16, DT_FP16, 3, ma, mb, mr, &b));
    CHECK_INT(0x0001, mr[0]);
    CHECK_INT(0x0000, mr[1]);
    CHECK_INT(0x8001, mr[2]);
    b_free(&b);
    /* bf16: ulp at 1 is 2^-7; 1 + 2^-8 ties to 1.0 (0x3f80); 1 + 3*2^-8 -> 0x3f82 */
    uint16_t ba[2] = {0x3f80, 0x3f80}, bb[2] = {0x3b80, 0x3c40}, br[2];
    CHECK_INT(TC_OK, binop(OP_ADD, 0, DT_BF16, DT_BF16, 2, ba, bb, br, &b));
    CHECK_INT(0x3f80, br[0]);
    CHECK_INT(0x3f82, br[1]);
    b_free(&b);
}

TEST(interp_float_max_nan_cmp) {
    B b;
    float a[4] = {NAN, 1.0f, NAN, -0.5f}, c[4] = {2.0f, NAN, NAN, -1.0f}, r[4];
    CHECK_INT(TC_OK, binop(OP_MAX, 0, DT_FP32, DT_FP32, 4, a, c, r, &b));
    CHECK(r[0] == 2.0f);
    CHECK(r[1] == 1.0f);
    CHECK(isnan(r[2]));
    CHECK(r[3] == -0.5f);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_MAX, 1, DT_FP32, DT_FP32, 4, a, c, r, &b));
    CHECK(isnan(r[0]) && isnan(r[1]));
    CHECK(r[3] == -0.5f);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_MIN, 0, DT_FP32, DT_FP32, 4, a, c, r, &b));
    CHECK(r[0] == 2.0f && r[3] == -1.0f);
    b_free(&b);
    uint8_t cr[4];
    CHECK_INT(TC_OK, binop(OP_CMP, CMP_NE, DT_FP32, DT_I1, 4, a, c, cr, &b));
    CHECK(cr[0] == 1 && cr[1] == 1 && cr[2] == 1 && cr[3] == 1);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_CMP, CMP_LT, DT_FP32, DT_I1, 4, a, c, cr, &b));
    CHECK(cr[0] == 0 && cr[1] == 0 && cr[2] == 0 && cr[3] == 0);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_CMP, CMP_GE, DT_FP32, DT_I1, 4, a, c, cr, &b));
    CHECK(cr[0] == 0 && cr[3] == 1);
    b_free(&b);
    float e[4] = {0.0f, 1.0f, -2.0f, 4.0f}, er[4];
    CHECK_INT(TC_OK, binop(OP_EXP, 0, DT_FP32, DT_FP32, 4, e, e, er, &b));
    CHECK_NEAR(1.0, er[0], 1e-7, 0);
    CHECK_NEAR(exp(1.0), er[1], 1e-6, 0);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_REM, 0, DT_FP32, DT_FP32, 4, c, e, er, &b));
    CHECK(isnan(er[0]));
    CHECK(er[3] == -1.0f); /* fmod(-1, 4) */
    b_free(&b);
}

TEST(interp_casts) {
    B b;
    float f[8] = {2.7f, -2.7f, NAN, 1e10f, -1e10f, 0.0f, -0.0f, 0.5f};
    int32_t i[8];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_FP32, DT_I32, 8, f, f, i, &b));
    CHECK_INT(2, i[0]);
    CHECK_INT(-2, i[1]);
    CHECK_INT(0, i[2]);
    CHECK_INT(INT32_MAX, i[3]);
    CHECK_INT(INT32_MIN, i[4]);
    b_free(&b);
    uint8_t bo[8];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_FP32, DT_I1, 8, f, f, bo, &b));
    CHECK(bo[0] == 1 && bo[2] == 1 && bo[5] == 0 && bo[6] == 0 && bo[7] == 1);
    b_free(&b);
    int32_t ii[4] = {0, 3, -1, 300}, io[4];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_I32, DT_I1, 4, ii, ii, bo, &b));
    CHECK(bo[0] == 0 && bo[1] == 1 && bo[2] == 1 && bo[3] == 1);
    b_free(&b);
    int8_t i8[4];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_I32, DT_I8, 4, ii, ii, i8, &b));
    CHECK_INT(44, i8[3]);
    CHECK_INT(-1, i8[2]);
    b_free(&b);
    int8_t s8[4] = {-1, 127, -128, 0};
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_I8, DT_I32, 4, s8, s8, io, &b));
    CHECK_INT(-1, io[0]);
    CHECK_INT(-128, io[2]);
    b_free(&b);
    uint8_t u8[4] = {255, 1, 128, 0};
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_U8, DT_I32, 4, u8, u8, io, &b));
    CHECK_INT(255, io[0]);
    CHECK_INT(128, io[2]);
    b_free(&b);
    /* fp32 -> fp16: RTNE and RTZ */
    float hf[4] = {1.0f + 0x1p-11f, 1.0f + 0x1p-10f + 0x1p-11f, 70000.0f, -1.0f - 0x1p-10f * 0.75f};
    uint16_t h[4];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_FP32, DT_FP16, 4, hf, hf, h, &b));
    CHECK_INT(0x3c00, h[0]);
    CHECK_INT(0x3c02, h[1]);
    CHECK_INT(0x7c00, h[2]);
    CHECK_INT(0xbc01, h[3]);
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_CAST, 1, DT_FP32, DT_FP16, 4, hf, hf, h, &b));
    CHECK_INT(0x3c00, h[0]);
    CHECK_INT(0x3c01, h[1]);
    CHECK_INT(0x7bff, h[2]);
    CHECK_INT(0xbc00, h[3]);
    b_free(&b);
    uint16_t hs[4] = {0x0001, 0x7c00, 0xc000, 0x3555};
    float fo[4];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_FP16, DT_FP32, 4, hs, hs, fo, &b));
    CHECK(fo[0] == 0x1p-24f);
    CHECK(isinf(fo[1]));
    CHECK(fo[2] == -2.0f);
    CHECK(fo[3] == 0x1.554p-2f);
    b_free(&b);
    uint8_t bools[2] = {1, 0};
    float bf[2];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_I1, DT_FP32, 2, bools, bools, bf, &b));
    CHECK(bf[0] == 1.0f && bf[1] == 0.0f);
    b_free(&b);
    int32_t big[2] = {16777217, -3};
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_I32, DT_FP32, 2, big, big, bf, &b));
    CHECK(bf[0] == 16777216.0f && bf[1] == -3.0f);
    b_free(&b);
    uint32_t ub[2];
    float fneg[2] = {-5.0f, 5e9f};
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_FP32, DT_U32, 2, fneg, fneg, ub, &b));
    CHECK_INT(0, ub[0]);
    CHECK_INT(0xffffffffu, ub[1]);
    b_free(&b);
    /* bitcast */
    float one[2] = {1.0f, -2.0f};
    int32_t bits[2];
    CHECK_INT(TC_OK, binop(OP_BITCAST, 0, DT_FP32, DT_I32, 2, one, one, bits, &b));
    CHECK_INT(0x3f800000, bits[0]);
    CHECK_INT((int32_t)0xc0000000u, bits[1]);
    b_free(&b);
}

/* ---- reductions, shapes ------------------------------------------------------------------ */

/* out[M] = reduce(x[M][N], axis) (axis 1) or out[N] (axis 0) */
static tc_status reduce2(int kind, int axis, int dt, int rdt, int M, int N, const void *x,
                         void *out, B *b) {
    b_init(b);
    int px = ir_param_add(b->f, "x_ptr", type_ptr(dt), false, b->loc);
    int po = ir_param_add(b->f, "out_ptr", type_ptr(rdt), false, b->loc);
    int xv = EM(b, OP_LOAD, blk2(dt, M, N), ptr_grid(b, px, dt, M, N), -1, -1);
    int L = axis == 1 ? M : N;
    int r = EM(b, OP_REDUCE, blk(rdt, L), xv);
    b->last->attr.kind = kind;
    b->last->attr.axis = axis;
    EM(b, OP_STORE, VOID, ptr_range(b, po, rdt, L), r, -1);
    Err ve = {0};
    if (!ir_verify(b->f, &ve)) {
        fprintf(stderr, "%s\n", ve.msg);
        return ve.code;
    }
    ArgBits args[2] = {P(x), P(out)};
    MemRegion mem[2] = {region(x, (size_t)(M * N * dt_size(dt)), "x_ptr"),
                        region(out, (size_t)(L * dt_size(rdt)), "out_ptr")};
    return run(b, args, 1, mem, 2);
}

TEST(interp_reductions) {
    B b;
    enum { M = 4, N = 8 };
    float x[M * N], r[N];
    for (int i = 0; i < M * N; i++) x[i] = (float)((i * 7) % 11) - 3.25f;
    CHECK_INT(TC_OK, reduce2(RED_SUM, 1, DT_FP32, DT_FP32, M, N, x, r, &b));
    for (int i = 0; i < M; i++) {
        float s = 0;
        for (int j = 0; j < N; j++) s += x[i * N + j];
        CHECK(r[i] == s);
    }
    b_free(&b);
    CHECK_INT(TC_OK, reduce2(RED_SUM, 0, DT_FP32, DT_FP32, M, N, x, r, &b));
    for (int j = 0; j < N; j++) {
        float s = 0;
        for (int i = 0; i < M; i++) s += x[i * N + j];
        CHECK(r[j] == s);
    }
    b_free(&b);
    x[1] = NAN;
    x[8] = NAN;
    x[9] = NAN;
    CHECK_INT(TC_OK, reduce2(RED_MAX, 1, DT_FP32, DT_FP32, M, N, x, r, &b));
    for (int i = 0; i < M; i++) {
        float m = -INFINITY;
        for (int j = 0; j < N; j++)
            if (!isnan(x[i * N + j]) && x[i * N + j] > m) m = x[i * N + j];
        CHECK(r[i] == m);
    }
    b_free(&b);
    /* argmax / argmin ties: smallest index */
    float t[M * N];
    for (int i = 0; i < M * N; i++) t[i] = (float)(i % 3);
    t[0] = NAN;
    int32_t ri[8];
    CHECK_INT(TC_OK, reduce2(RED_ARGMAX, 1, DT_FP32, DT_I32, M, N, t, ri, &b));
    for (int i = 0; i < M; i++) {
        int best = -1;
        for (int j = 0; j < N; j++)
            if (!isnan(t[i * N + j]) && (best < 0 || t[i * N + j] > t[i * N + best])) best = j;
        CHECK_INT(best, ri[i]);
    }
    b_free(&b);
    CHECK_INT(TC_OK, reduce2(RED_ARGMIN, 0, DT_FP32, DT_I32, M, N, t, ri, &b));
    for (int j = 0; j < N; j++) {
        int best = -1;
        for (int i = 0; i < M; i++)
            if (!isnan(t[i * N + j]) && (best < 0 || t[i * N + j] < t[best * N + j])) best = i;
        CHECK_INT(best, ri[j]);
    }
    b_free(&b);
    int8_t xi[M * N], ro[M];
    for (int i = 0; i < M * N; i++) xi[i] = (int8_t)(100 - i);
    CHECK_INT(TC_OK, reduce2(RED_SUM, 1, DT_I8, DT_I8, M, N, xi, ro, &b));
    for (int i = 0; i < M; i++) {
        int s = 0;
        for (int j = 0; j < N; j++) s += xi[i * N + j];
        CHECK_INT((int8_t)(uint8_t)(s & 0xff), ro[i]);
    }
    b_free(&b);
    CHECK_INT(TC_OK, reduce2(RED_MIN, 1, DT_I8, DT_I8, M, N, xi, ro, &b));
    CHECK_INT(93, ro[0]);
    CHECK_INT(69, ro[3]);
    b_free(&b);
    int32_t xx[M * N], rx[M];
    for (int i = 0; i < M * N; i++) xx[i] = i * 37;
    CHECK_INT(TC_OK, reduce2(RED_XOR, 1, DT_I32, DT_I32, M, N, xx, rx, &b));
    for (int i = 0; i < M; i++) {
        int s = 0;
        for (int j = 0; j < N; j++) s ^= xx[i * N + j];
        CHECK_INT(s, rx[i]);
    }
    b_free(&b);
    /* fp16 sum rounds per step: 2048 + 1 + 1 + ... stays 2048 in fp16 */
    uint16_t hx[1 * 8] = {0x6800, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00, 0x3c00}, hr[1];
    CHECK_INT(TC_OK, reduce2(RED_SUM, 1, DT_FP16, DT_FP16, 1, 8, hx, hr, &b));
    CHECK_INT(0x6800, hr[0]);
    b_free(&b);
}

TEST(interp_shapes_where) {
    /* out[i][j] = where(x[j] > 0, x[j] * i, -1) via expand_dims/broadcast, then permute */
    B b;
    b_init(&b);
    enum { M = 4, N = 8 };
    int px = ir_param_add(b.f, "x_ptr", type_ptr(DT_FP32), false, b.loc);
    int po = ir_param_add(b.f, "out_ptr", type_ptr(DT_FP32), false, b.loc);
    int po2 = ir_param_add(b.f, "out2_ptr", type_ptr(DT_FP32), false, b.loc);
    int po3 = ir_param_add(b.f, "out3_ptr", type_ptr(DT_FP32), false, b.loc);
    int xv = EM(&b, OP_LOAD, blk(DT_FP32, N), ptr_range(&b, px, DT_FP32, N), -1, -1);
    int32_t s1n[2] = {1, N}, sm1[2] = {M, 1};
    int xe = EM(&b, OP_EXPAND_DIMS, type_block(DT_FP32, 2, s1n), xv);
    b.last->attr.axis = 0;
    int xb = EM(&b, OP_BROADCAST, blk2(DT_FP32, M, N), xe);
    int ri = EM(&b, OP_CAST, blk(DT_FP32, M), EM0(&b, OP_ARANGE, blk(DT_I32, M)));
    int rie = EM(&b, OP_EXPAND_DIMS, type_block(DT_FP32, 2, sm1), ri);
    b.last->attr.axis = 1;
    int rib = EM(&b, OP_BROADCAST, blk2(DT_FP32, M, N), rie);
    int prod = EM(&b, OP_MUL, blk2(DT_FP32, M, N), xb, rib);
    int pos = EM(&b, OP_CMP, blk2(DT_I1, M, N), xb, cf(&b, blk2(DT_FP32, M, N), 0.0));
    b.last->attr.kind = CMP_GT;
    int w = EM(&b, OP_WHERE, blk2(DT_FP32, M, N), pos, prod, cf(&b, blk2(DT_FP32, M, N), -1.0));
    EM(&b, OP_STORE, VOID, ptr_grid(&b, po, DT_FP32, M, N), w, -1);
    int tr = EM(&b, OP_PERMUTE, blk2(DT_FP32, N, M), w);
    b.last->attr.perm[0] = 1;
    b.last->attr.perm[1] = 0;
    EM(&b, OP_STORE, VOID, ptr_grid(&b, po2, DT_FP32, N, M), tr, -1);
    int fl = EM(&b, OP_RESHAPE, blk(DT_FP32, M * N), tr);
    EM(&b, OP_STORE, VOID, ptr_range(&b, po3, DT_FP32, M * N), fl, -1);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    float x[N] = {1, -2, 3, 0, 5, -6, 7, 8}, o[M * N], o2[M * N], o3[M * N];
    ArgBits args[4] = {P(x), P(o), P(o2), P(o3)};
    MemRegion mem[4] = {region(x, sizeof x, "x"), region(o, sizeof o, "o"), region(o2, sizeof o2, "o2"),
                        region(o3, sizeof o3, "o3")};
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 4));
    int bad = 0, bad2 = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float want = x[j] > 0 ? x[j] * (float)i : -1.0f;
            bad += o[i * N + j] != want;
            bad2 += o2[j * M + i] != want || o3[j * M + i] != want;
        }
    CHECK_INT(0, bad);
    CHECK_INT(0, bad2);
    CHECK(o[1 * N + 2] == 3.0f);
    b_free(&b);
}

/* ---- dot ---------------------------------------------------------------------------------- */

static tc_status dot_run(int dt, int M, int N, int K, const void *a, const void *bm, float *c,
                         int prec, B *b) {
    b_init(b);
    int pa = ir_param_add(b->f, "a_ptr", type_ptr(dt), false, b->loc);
    int pb = ir_param_add(b->f, "b_ptr", type_ptr(dt), false, b->loc);
    int pc = ir_param_add(b->f, "c_ptr", type_ptr(DT_FP32), false, b->loc);
    int av = EM(b, OP_LOAD, blk2(dt, M, K), ptr_grid(b, pa, dt, M, K), -1, -1);
    int bv = EM(b, OP_LOAD, blk2(dt, K, N), ptr_grid(b, pb, dt, K, N), -1, -1);
    int cp = ptr_grid(b, pc, DT_FP32, M, N);
    int acc = EM(b, OP_LOAD, blk2(DT_FP32, M, N), cp, -1, -1);
    int d = EM(b, OP_DOT, blk2(DT_FP32, M, N), av, bv, acc);
    b->last->attr.kind = prec;
    EM(b, OP_STORE, VOID, cp, d, -1);
    Err ve = {0};
    if (!ir_verify(b->f, &ve)) {
        fprintf(stderr, "%s\n", ve.msg);
        return ve.code;
    }
    ArgBits args[3] = {P(a), P(bm), P(c)};
    int es = dt_size(dt);
    MemRegion mem[3] = {region(a, (size_t)(M * K * es), "a"), region(bm, (size_t)(K * N * es), "b"),
                        region(c, (size_t)(M * N * 4), "c")};
    return run(b, args, 1, mem, 3);
}

TEST(interp_dot) {
    B b;
    enum { M = 16, N = 32, K = 16 };
    float a[M * K], bm[K * N], c[M * N], ref[M * N];
    for (int i = 0; i < M * K; i++) a[i] = (float)((i * 13) % 17) / 8.0f - 1.0f;
    for (int i = 0; i < K * N; i++) bm[i] = (float)((i * 7) % 19) / 4.0f - 2.0f;
    for (int i = 0; i < M * N; i++) c[i] = ref[i] = (float)(i % 5);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += (double)a[m * K + k] * bm[k * N + n];
            ref[m * N + n] += (float)s;
        }
    CHECK_INT(TC_OK, dot_run(DT_FP32, M, N, K, a, bm, c, DOT_IEEE, &b));
    int bad = 0;
    for (int i = 0; i < M * N; i++) bad += fabsf(c[i] - ref[i]) > 1e-5f * (1 + fabsf(ref[i]));
    CHECK_INT(0, bad);
    b_free(&b);
    /* fp16 inputs (values exact in fp16) */
    uint16_t ha[M * K], hb[K * N];
    for (int i = 0; i < M * K; i++) {
        float v = a[i];
        uint32_t u;
        memcpy(&u, &v, 4);
        /* these values are multiples of 1/8 in [-1, 1]: exact in fp16 */
        int e = (int)((u >> 23) & 0xff) - 127;
        ha[i] = v == 0 ? 0 : (uint16_t)(((u >> 16) & 0x8000) | ((e + 15) << 10) | ((u >> 13) & 0x3ff));
    }
    for (int i = 0; i < K * N; i++) {
        float v = bm[i];
        uint32_t u;
        memcpy(&u, &v, 4);
        int e = (int)((u >> 23) & 0xff) - 127;
        hb[i] = v == 0 ? 0 : (uint16_t)(((u >> 16) & 0x8000) | ((e + 15) << 10) | ((u >> 13) & 0x3ff));
    }
    for (int i = 0; i < M * N; i++) c[i] = (float)(i % 5);
    CHECK_INT(TC_OK, dot_run(DT_FP16, M, N, K, ha, hb, c, DOT_IEEE, &b));
    bad = 0;
    for (int i = 0; i < M * N; i++) bad += fabsf(c[i] - ref[i]) > 1e-5f * (1 + fabsf(ref[i]));
    CHECK_INT(0, bad);
    b_free(&b);
    /* tf32 rounds inputs: 1 + 2^-12 becomes 1 */
    float ta[M * K], tb[K * N], tc[M * N];
    for (int i = 0; i < M * K; i++) ta[i] = 1.0f + 0x1p-12f;
    for (int i = 0; i < K * N; i++) tb[i] = 1.0f;
    for (int i = 0; i < M * N; i++) tc[i] = 0;
    CHECK_INT(TC_OK, dot_run(DT_FP32, M, N, K, ta, tb, tc, DOT_TF32, &b));
    CHECK(tc[0] == (float)K);
    b_free(&b);
    for (int i = 0; i < M * N; i++) tc[i] = 0;
    CHECK_INT(TC_OK, dot_run(DT_FP32, M, N, K, ta, tb, tc, DOT_IEEE, &b));
    CHECK(tc[0] == (float)K * (1.0f + 0x1p-12f));
    b_free(&b);
}

/* ---- control flow ------------------------------------------------------------------------ */

TEST(interp_for_swap_and_fib) {
    /* a, b = 0, 1; for i in range(lb, n, 1): a, b = b, a + b; c, d = d, c (swap) */
    B b;
    b_init(&b);
    Type i32 = type_scalar(DT_I32);
    int po = ir_param_add(b.f, "out_ptr", type_ptr(DT_I32), false, b.loc);
    int pn = ir_param_add(b.f, "n", i32, false, b.loc);
    int z = ci(&b, i32, 0), one = ci(&b, i32, 1), seven = ci(&b, i32, 7), nine = ci(&b, i32, 9);
    Inst *f = ir_emit(b.f, b.r, OP_FOR, (int[]){z, pn, one, z, one, seven, nine}, 7, VOID, b.loc);
    Region *body = ir_region_new(b.f);
    f->regions[0] = body;
    int iv = ir_region_param(b.f, body, i32, b.loc);
    int pa = ir_region_param(b.f, body, i32, b.loc);
    int pb = ir_region_param(b.f, body, i32, b.loc);
    int pc = ir_region_param(b.f, body, i32, b.loc);
    int pd = ir_region_param(b.f, body, i32, b.loc);
    for (int k = 0; k < 4; k++) ir_inst_add_result(b.f, f, i32);
    Region *outer = b.r;
    b.r = body;
    int s = EM(&b, OP_ADD, i32, pa, pb);
    (void)iv;
    EM(&b, OP_YIELD, VOID, pb, s, pd, pc);
    b.r = outer;
    EM(&b, OP_STORE, VOID, po, f->res[0], -1);
    int o1 = EM(&b, OP_ADDPTR, type_ptr(DT_I32), po, one);
    EM(&b, OP_STORE, VOID, o1, f->res[2], -1);
    int o2 = EM(&b, OP_ADDPTR, type_ptr(DT_I32), po, ci(&b, i32, 2));
    EM(&b, OP_STORE, VOID, o2, f->res[3], -1);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    int32_t out[3];
    MemRegion mem[1] = {region(out, sizeof out, "out")};
    ArgBits args[2] = {P(out), I(10)};
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 1));
    CHECK_INT(55, out[0]);
    CHECK_INT(7, out[1]); /* ten swaps */
    CHECK_INT(9, out[2]);
    ArgBits args2[2] = {P(out), I(11)};
    CHECK_INT(TC_OK, run(&b, args2, 1, mem, 1));
    CHECK_INT(89, out[0]);
    CHECK_INT(9, out[1]);
    CHECK_INT(7, out[2]);
    ArgBits args3[2] = {P(out), I(0)};
    CHECK_INT(TC_OK, run(&b, args3, 1, mem, 1));
    CHECK_INT(0, out[0]);
    CHECK_INT(7, out[1]);
    b_free(&b);
}

TEST(interp_for_block_accumulate) {
    /* acc = zeros(8); for k in range(0, n, 8): acc += load(x + k + arange) ; store */
    B b;
    b_init(&b);
    Type i32 = type_scalar(DT_I32);
    int px = ir_param_add(b.f, "x_ptr", type_ptr(DT_FP32), false, b.loc);
    int po = ir_param_add(b.f, "out_ptr", type_ptr(DT_FP32), false, b.loc);
    int pn = ir_param_add(b.f, "n", i32, false, b.loc);
    int acc0 = cf(&b, blk(DT_FP32, 8), 0.0);
    Inst *f = ir_emit(b.f, b.r, OP_FOR, (int[]){ci(&b, i32, 0), pn, ci(&b, i32, 8), acc0}, 4, VOID, b.loc);
    Region *body = ir_region_new(b.f);
    f->regions[0] = body;
    int iv = ir_region_param(b.f, body, i32, b.loc);
    int acc = ir_region_param(b.f, body, blk(DT_FP32, 8), b.loc);
    ir_inst_add_result(b.f, f, blk(DT_FP32, 8));
    Region *outer = b.r;
    b.r = body;
    int xb = EM(&b, OP_ADDPTR, type_ptr(DT_FP32), px, iv);
    int v = EM(&b, OP_LOAD, blk(DT_FP32, 8), ptr_range(&b, xb, DT_FP32, 8), -1, -1);
    EM(&b, OP_YIELD, VOID, EM(&b, OP_ADD, blk(DT_FP32, 8), acc, v));
    b.r = outer;
    EM(&b, OP_STORE, VOID, ptr_range(&b, po, DT_FP32, 8), f->res[0], -1);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    float x[64], o[8], ref[8] = {0};
    for (int i = 0; i < 64; i++) x[i] = (float)i * 0.25f;
    for (int i = 0; i < 64; i++) ref[i % 8] += x[i];
    MemRegion mem[2] = {region(x, sizeof x, "x"), region(o, sizeof o, "o")};
    ArgBits args[3] = {P(x), P(o), I(64)};
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 2));
    int bad = 0;
    for (int i = 0; i < 8; i++) bad += o[i] != ref[i];
    CHECK_INT(0, bad);
    /* a negative step is an error */
    b_free(&b);
}

TEST(interp_while_if_return) {
    /* x = n; while x < 100: x = x * 2;  y = if pid == 1 then x + 1 else x - 1;
       if pid == 2: return; store out[pid] = y */
    B b;
    b_init(&b);
    Type i32 = type_scalar(DT_I32), i1 = type_scalar(DT_I1);
    int po = ir_param_add(b.f, "out_ptr", type_ptr(DT_I32), false, b.loc);
    int pn = ir_param_add(b.f, "n", i32, false, b.loc);
    int pid = EM0(&b, OP_PROGRAM_ID, i32);
    Inst *w = ir_emit(b.f, b.r, OP_WHILE, (int[]){pn}, 1, VOID, b.loc);
    ir_inst_add_result(b.f, w, i32);
    Region *before = ir_region_new(b.f), *after = ir_region_new(b.f), *outer = b.r;
    w->regions[0] = before;
    w->regions[1] = after;
    int bx = ir_region_param(b.f, before, i32, b.loc);
    int ax = ir_region_param(b.f, after, i32, b.loc);
    b.r = before;
    int c = EM(&b, OP_CMP, i1, bx, ci(&b, i32, 100));
    b.last->attr.kind = CMP_LT;
    EM(&b, OP_CONDITION, VOID, c, bx);
    b.r = after;
    EM(&b, OP_YIELD, VOID, EM(&b, OP_MUL, i32, ax, ci(&b, i32, 2)));
    b.r = outer;
    int x = w->res[0];
    int is1 = EM(&b, OP_CMP, i1, pid, ci(&b, i32, 1));
    b.last->attr.kind = CMP_EQ;
    Inst *ifi = ir_emit(b.f, b.r, OP_IF, (int[]){is1}, 1, VOID, b.loc);
    ir_inst_add_result(b.f, ifi, i32);
    ifi->regions[0] = ir_region_new(b.f);
    ifi->regions[1] = ir_region_new(b.f);
    b.r = ifi->regions[0];
    EM(&b, OP_YIELD, VOID, EM(&b, OP_ADD, i32, x, ci(&b, i32, 1)));
    b.r = ifi->regions[1];
    EM(&b, OP_YIELD, VOID, EM(&b, OP_SUB, i32, x, ci(&b, i32, 1)));
    b.r = outer;
    int is2 = EM(&b, OP_CMP, i1, pid, ci(&b, i32, 2));
    b.last->attr.kind = CMP_EQ;
    Inst *ret = ir_emit(b.f, b.r, OP_IF, (int[]){is2}, 1, VOID, b.loc);
    ret->regions[0] = ir_region_new(b.f);
    b.r = ret->regions[0];
    EM0(&b, OP_RETURN, VOID);
    b.r = outer;
    EM(&b, OP_STORE, VOID, EM(&b, OP_ADDPTR, type_ptr(DT_I32), po, pid), ifi->res[0], -1);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    int32_t out[4] = {-9, -9, -9, -9};
    MemRegion mem[1] = {region(out, sizeof out, "out")};
    ArgBits args[2] = {P(out), I(3)};
    CHECK_INT(TC_OK, run(&b, args, 4, mem, 1));
    CHECK_INT(191, out[0]); /* 3 -> 192, minus 1 */
    CHECK_INT(193, out[1]);
    CHECK_INT(-9, out[2]); /* returned early */
    CHECK_INT(191, out[3]);
    ArgBits args2[2] = {P(out), I(500)};
    CHECK_INT(TC_OK, run(&b, args2, 2, mem, 1));
    CHECK_INT(499, out[0]);
    CHECK_INT(501, out[1]);
    b_free(&b);
}

/* ---- atomics, print, assert --------------------------------------------------------------- */

TEST(interp_atomics) {
    /* old = atomic_add(cnt + (arange(16) % 4), 1) : duplicate addresses, lane order */
    B b;
    b_init(&b);
    int pc = ir_param_add(b.f, "cnt_ptr", type_ptr(DT_I32), false, b.loc);
    int po = ir_param_add(b.f, "old_ptr", type_ptr(DT_I32), false, b.loc);
    int pf = ir_param_add(b.f, "f_ptr", type_ptr(DT_FP32), false, b.loc);
    int ar = EM0(&b, OP_ARANGE, blk(DT_I32, 16));
    int idx = EM(&b, OP_REM, blk(DT_I32, 16), ar, ci(&b, blk(DT_I32, 16), 4));
    int ptr = EM(&b, OP_ADDPTR, pblk(DT_I32, 16), EM(&b, OP_SPLAT, pblk(DT_I32, 16), pc), idx);
    int old = EM(&b, OP_ATOMIC, blk(DT_I32, 16), ptr, ci(&b, blk(DT_I32, 16), 1), -1);
    b.last->attr.kind = ATOM_ADD;
    EM(&b, OP_STORE, VOID, ptr_range(&b, po, DT_I32, 16), old, -1);
    int fp = EM(&b, OP_SPLAT, pblk(DT_FP32, 16), pf);
    int fv = EM(&b, OP_CAST, blk(DT_FP32, 16), ar);
    EM(&b, OP_ATOMIC, blk(DT_FP32, 16), fp, fv, -1);
    b.last->attr.kind = ATOM_MAX;
    /* cas on cnt[0]: expect 8 (after two programs) -> 100 */
    int cold = EM(&b, OP_ATOMIC_CAS, type_scalar(DT_I32), pc, ci(&b, type_scalar(DT_I32), 8),
                  ci(&b, type_scalar(DT_I32), 100));
    (void)cold;
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    int32_t cnt[4] = {0}, olds[16];
    float fmx[1] = {-1.0f};
    MemRegion mem[3] = {region(cnt, sizeof cnt, "cnt"), region(olds, sizeof olds, "old"), region(fmx, 4, "f")};
    ArgBits args[3] = {P(cnt), P(olds), P(fmx)};
    CHECK_INT(TC_OK, run(&b, args, 2, mem, 3));
    CHECK_INT(100, cnt[0]); /* 8 then swapped */
    CHECK_INT(8, cnt[1]);
    CHECK_INT(8, cnt[3]);
    /* second program's old values: lane i sees 4 + i / 4 */
    int bad = 0;
    for (int i = 0; i < 16; i++) bad += olds[i] != 4 + i / 4;
    CHECK_INT(0, bad);
    CHECK(fmx[0] == 15.0f);
    b_free(&b);
}

static char print_buf[4096];
static void print_cb(const char *text, void *user) {
    (void)user;
    strncat(print_buf, text, sizeof print_buf - strlen(print_buf) - 1);
}

TEST(interp_print_assert) {
    B b;
    b_init(&b);
    int pn = ir_param_add(b.f, "n", type_scalar(DT_I32), false, b.loc);
    int ar = EM0(&b, OP_ARANGE, blk(DT_I32, 2));
    EM(&b, OP_PRINT, VOID, ar);
    b.last->attr.str = "x: ";
    int ok = EM(&b, OP_CMP, blk(DT_I1, 2), ar, EM(&b, OP_SPLAT, blk(DT_I32, 2), pn));
    b.last->attr.kind = CMP_LT;
    b.loc = (SrcLoc){b.src, 2, 5};
    EM(&b, OP_ASSERT, VOID, ok);
    b.last->attr.str = "idx < n";
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    InterpLaunch l = {0};
    ArgBits args[1] = {I(5)};
    l.f = b.f;
    l.args = args;
    l.grid[0] = 2;
    l.grid[1] = l.grid[2] = 1;
    l.print = print_cb;
    print_buf[0] = 0;
    CHECK_INT(TC_OK, interp_run(&l, &b.e));
    CHECK_STR("pid (0, 0, 0) idx (0) x: 0\npid (0, 0, 0) idx (1) x: 1\n"
              "pid (1, 0, 0) idx (0) x: 0\npid (1, 0, 0) idx (1) x: 1\n", print_buf);
    args[0] = I(1);
    CHECK_INT(TC_ERR_RUNTIME, interp_run(&l, &b.e));
    CHECK_CONTAINS(b.e.msg, "device assertion failed: idx < n");
    CHECK_CONTAINS(b.e.msg, "k.py:2:5");
    b_free(&b);
}

/* ---- verifier ------------------------------------------------------------------------------ */

TEST(verify_catches_malformed) {
    B b;
    Err ve;
    /* use before definition */
    b_init(&b);
    Type i32 = type_scalar(DT_I32);
    b.loc = (SrcLoc){b.src, 2, 11};
    int later = ir_value_new(b.f, i32, b.loc);
    EM(&b, OP_ADD, i32, later, later);
    memset(&ve, 0, sizeof ve);
    CHECK(!ir_verify(b.f, &ve));
    CHECK_INT(TC_ERR_INTERNAL, ve.code);
    CHECK_CONTAINS(ve.msg, "add");
    CHECK_CONTAINS(ve.msg, "before its definition");
    CHECK_CONTAINS(ve.msg, "k.py:2:11");
    b_free(&b);
    /* operand type mismatch */
    b_init(&b);
    int a = ci(&b, i32, 1), f = cf(&b, type_scalar(DT_FP32), 1.0);
    EM(&b, OP_ADD, i32, a, f);
    memset(&ve, 0, sizeof ve);
    CHECK(!ir_verify(b.f, &ve));
    CHECK_CONTAINS(ve.msg, "fp32");
    b_free(&b);
    /* wrong operand count */
    b_init(&b);
    a = ci(&b, i32, 1);
    EM(&b, OP_ADD, i32, a);
    memset(&ve, 0, sizeof ve);
    CHECK(!ir_verify(b.f, &ve));
    CHECK_CONTAINS(ve.msg, "operands");
    b_free(&b);
    /* value from a nested region used outside */
    b_init(&b);
    Inst *ifi = ir_emit(b.f, b.r, OP_IF, (int[]){ci(&b, type_scalar(DT_I1), 1)}, 1, VOID, b.loc);
    ifi->regions[0] = ir_region_new(b.f);
    Region *outer = b.r;
    b.r = ifi->regions[0];
    int inner = ci(&b, i32, 3);
    b.r = outer;
    EM(&b, OP_NEG, i32, inner);
    memset(&ve, 0, sizeof ve);
    CHECK(!ir_verify(b.f, &ve));
    CHECK_CONTAINS(ve.msg, "not visible");
    b_free(&b);
    /* yield count mismatch */
    b_init(&b);
    ifi = ir_emit(b.f, b.r, OP_IF, (int[]){ci(&b, type_scalar(DT_I1), 1)}, 1, VOID, b.loc);
    ir_inst_add_result(b.f, ifi, i32);
    ifi->regions[0] = ir_region_new(b.f);
    ifi->regions[1] = ir_region_new(b.f);
    b.r = ifi->regions[0];
    EM(&b, OP_YIELD, VOID, ci(&b, i32, 1));
    b.r = ifi->regions[1];
    EM0(&b, OP_YIELD, VOID);
    b.r = outer = b.f->body;
    memset(&ve, 0, sizeof ve);
    CHECK(!ir_verify(b.f, &ve));
    CHECK_CONTAINS(ve.msg, "yield");
    b_free(&b);
    /* load of a non-pointer; reduce with a bad axis */
    b_init(&b);
    EM(&b, OP_LOAD, i32, ci(&b, i32, 0), -1, -1);
    memset(&ve, 0, sizeof ve);
    CHECK(!ir_verify(b.f, &ve));
    CHECK_CONTAINS(ve.msg, "load");
    b_free(&b);
    b_init(&b);
    EM(&b, OP_REDUCE, i32, ci(&b, blk(DT_I32, 4), 0));
    b.last->attr.axis = 1;
    memset(&ve, 0, sizeof ve);
    CHECK(!ir_verify(b.f, &ve));
    CHECK_CONTAINS(ve.msg, "axis");
    b_free(&b);
}

/* ---- optimizer ------------------------------------------------------------------------------ */

TEST(opt_fold_cse_dce) {
    B b;
    b_init(&b);
    Type i32 = type_scalar(DT_I32), i8 = type_scalar(DT_I8);
    int po = ir_param_add(b.f, "out_ptr", type_ptr(DT_I32), false, b.loc);
    int pn = ir_param_add(b.f, "n", i32, false, b.loc);
    /* (2 + 3) * n  computed twice (CSE), i8 100 + 100 folded with wrap, dead work removed */
    int five = EM(&b, OP_ADD, i32, ci(&b, i32, 2), ci(&b, i32, 3));
    int m1 = EM(&b, OP_MUL, i32, five, pn);
    int m2 = EM(&b, OP_MUL, i32, five, pn);
    int s = EM(&b, OP_ADD, i32, m1, m2);
    int w = EM(&b, OP_ADD, i8, ci(&b, i8, 100), ci(&b, i8, 100));
    int we = EM(&b, OP_CAST, i32, w);
    int dead = EM(&b, OP_MUL, i32, s, s);
    (void)dead;
    int q = EM(&b, OP_DIV, i32, ci(&b, i32, -7), ci(&b, i32, 2)); /* folds to -3 */
    int z = EM(&b, OP_DIV, i32, ci(&b, i32, 1), ci(&b, i32, 0));  /* 0 (unspecified), dead */
    (void)z;
    int h = EM(&b, OP_ADD, type_scalar(DT_FP16), cf(&b, type_scalar(DT_FP16), 1.0),
               cf(&b, type_scalar(DT_FP16), 0x1p-11));
    int hb = EM(&b, OP_BITCAST, type_scalar(DT_I16), h);
    int hi = EM(&b, OP_CAST, i32, hb);
    EM(&b, OP_STORE, VOID, po, s, -1);
    EM(&b, OP_STORE, VOID, EM(&b, OP_ADDPTR, type_ptr(DT_I32), po, ci(&b, i32, 1)), we, -1);
    EM(&b, OP_STORE, VOID, EM(&b, OP_ADDPTR, type_ptr(DT_I32), po, ci(&b, i32, 2)), q, -1);
    EM(&b, OP_STORE, VOID, EM(&b, OP_ADDPTR, type_ptr(DT_I32), po, ci(&b, i32, 3)), hi, -1);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    int32_t before[4], after[4];
    MemRegion mem[1] = {region(before, sizeof before, "out")};
    ArgBits args[2] = {P(before), I(4)};
    /* division by zero is dead code; it runs unoptimized and gives 0, no error */
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 1));
    CHECK_INT(40, before[0]);
    CHECK_INT(-3, before[2]);
    int ninst = b.f->body->ninsts;
    ir_optimize(b.f);
    CHECK(ir_verify(b.f, &ve));
    CHECK(b.f->body->ninsts < ninst);
    CHECK_INT(1, ir_count(b.f->body, OP_MUL));   /* CSE merged m1/m2, dead removed */
    CHECK_INT(0, ir_count(b.f->body, OP_DIV));
    CHECK_INT(4, ir_count(b.f->body, OP_STORE));
    MemRegion mem2[1] = {region(after, sizeof after, "out")};
    ArgBits args2[2] = {P(after), I(4)};
    CHECK_INT(TC_OK, run(&b, args2, 1, mem2, 1));
    CHECK_INT(40, after[0]);
    CHECK_INT(-56, after[1]);
    CHECK_INT(-3, after[2]);
    CHECK_INT(0x3c00, after[3]);
    /* the folded constants */
    int found = 0;
    for (int i = 0; i < b.f->body->ninsts; i++) {
        Inst *in = b.f->body->insts[i];
        if (in->op == OP_CONST && in->res[0] == we) found += in->attr.i == -56;
        if (in->op == OP_CONST && in->res[0] == five) found += in->attr.i == 5;
        /* h folded to 1.0, then merged with the equal constant operand */
        if (in->op == OP_BITCAST)
            for (int j = 0; j < i; j++)
                if (b.f->body->insts[j]->res && b.f->body->insts[j]->res[0] == in->args[0])
                    found += b.f->body->insts[j]->op == OP_CONST && b.f->body->insts[j]->attr.f == 1.0;
    }
    CHECK_INT(3, found);
    b_free(&b);
}

TEST(interp_dot_batched_int8) {
    /* 3-D batched fp32 dot and an int8 -> i32 dot, against triple loops */
    B b;
    b_init(&b);
    enum { BT = 2, M = 4, N = 8, K = 16 };
    int32_t sa[3] = {BT, M, K}, sb[3] = {BT, K, N}, sc[3] = {BT, M, N};
    int pa = ir_param_add(b.f, "a_ptr", type_ptr(DT_FP32), false, b.loc);
    int pb = ir_param_add(b.f, "b_ptr", type_ptr(DT_FP32), false, b.loc);
    int pc = ir_param_add(b.f, "c_ptr", type_ptr(DT_FP32), false, b.loc);
    int av = EM(&b, OP_RESHAPE, type_block(DT_FP32, 3, sa),
                EM(&b, OP_LOAD, blk(DT_FP32, BT * M * K), ptr_range(&b, pa, DT_FP32, BT * M * K), -1, -1));
    int bv = EM(&b, OP_RESHAPE, type_block(DT_FP32, 3, sb),
                EM(&b, OP_LOAD, blk(DT_FP32, BT * K * N), ptr_range(&b, pb, DT_FP32, BT * K * N), -1, -1));
    int d = EM(&b, OP_DOT, type_block(DT_FP32, 3, sc), av, bv, cf(&b, type_block(DT_FP32, 3, sc), 0.5));
    EM(&b, OP_STORE, VOID, ptr_range(&b, pc, DT_FP32, BT * M * N),
       EM(&b, OP_RESHAPE, blk(DT_FP32, BT * M * N), d), -1);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    float A[BT * M * K], Bm[BT * K * N], C[BT * M * N];
    for (int i = 0; i < BT * M * K; i++) A[i] = (float)(i % 7) - 3.0f;
    for (int i = 0; i < BT * K * N; i++) Bm[i] = (float)(i % 5) * 0.5f;
    ArgBits args[3] = {P(A), P(Bm), P(C)};
    MemRegion mem[3] = {region(A, sizeof A, "a"), region(Bm, sizeof Bm, "b"), region(C, sizeof C, "c")};
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 3));
    int bad = 0;
    for (int t = 0; t < BT; t++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                float s = 0;
                for (int k = 0; k < K; k++) s += A[(t * M + m) * K + k] * Bm[(t * K + k) * N + n];
                bad += C[(t * M + m) * N + n] != s + 0.5f;
            }
    CHECK_INT(0, bad);
    b_free(&b);

    b_init(&b);
    int qa = ir_param_add(b.f, "a_ptr", type_ptr(DT_I8), false, b.loc);
    int qb = ir_param_add(b.f, "b_ptr", type_ptr(DT_I8), false, b.loc);
    int qc = ir_param_add(b.f, "c_ptr", type_ptr(DT_I32), false, b.loc);
    int ia = EM(&b, OP_LOAD, blk2(DT_I8, 16, 32), ptr_grid(&b, qa, DT_I8, 16, 32), -1, -1);
    int ib = EM(&b, OP_LOAD, blk2(DT_I8, 32, 16), ptr_grid(&b, qb, DT_I8, 32, 16), -1, -1);
    int id = EM(&b, OP_DOT, blk2(DT_I32, 16, 16), ia, ib, ci(&b, blk2(DT_I32, 16, 16), 7));
    EM(&b, OP_STORE, VOID, ptr_grid(&b, qc, DT_I32, 16, 16), id, -1);
    CHECK(ir_verify(b.f, &ve));
    int8_t IA[16 * 32], IB[32 * 16];
    int32_t IC[16 * 16];
    for (int i = 0; i < 16 * 32; i++) { IA[i] = (int8_t)(i * 31); IB[i] = (int8_t)(i * 17 + 3); }
    ArgBits qargs[3] = {P(IA), P(IB), P(IC)};
    MemRegion qmem[3] = {region(IA, sizeof IA, "a"), region(IB, sizeof IB, "b"), region(IC, sizeof IC, "c")};
    CHECK_INT(TC_OK, run(&b, qargs, 1, qmem, 3));
    bad = 0;
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            int s = 7;
            for (int k = 0; k < 32; k++) s += IA[m * 32 + k] * IB[k * 16 + n];
            bad += IC[m * 16 + n] != s;
        }
    CHECK_INT(0, bad);
    b_free(&b);
}

TEST(interp_permute_3d_broadcast) {
    /* x <2x3x4> (padded to 2x4x4 via arange of 32) permuted (2,0,1), broadcast of <1x4x1> */
    B b;
    b_init(&b);
    int32_t s3[3] = {2, 4, 4}, sp[3] = {4, 2, 4}, s1[3] = {1, 4, 1};
    int px = ir_param_add(b.f, "x_ptr", type_ptr(DT_I32), false, b.loc);
    int po = ir_param_add(b.f, "out_ptr", type_ptr(DT_I32), false, b.loc);
    int po2 = ir_param_add(b.f, "out2_ptr", type_ptr(DT_I32), false, b.loc);
    int x = EM(&b, OP_RESHAPE, type_block(DT_I32, 3, s3),
               EM(&b, OP_LOAD, blk(DT_I32, 32), ptr_range(&b, px, DT_I32, 32), -1, -1));
    int p = EM(&b, OP_PERMUTE, type_block(DT_I32, 3, sp), x);
    b.last->attr.perm[0] = 2;
    b.last->attr.perm[1] = 0;
    b.last->attr.perm[2] = 1;
    EM(&b, OP_STORE, VOID, ptr_range(&b, po, DT_I32, 32), EM(&b, OP_RESHAPE, blk(DT_I32, 32), p), -1);
    int small = EM(&b, OP_RESHAPE, type_block(DT_I32, 3, s1), EM0(&b, OP_ARANGE, blk(DT_I32, 4)));
    int bc = EM(&b, OP_BROADCAST, type_block(DT_I32, 3, s3), small);
    int sum = EM(&b, OP_ADD, type_block(DT_I32, 3, s3), bc, x);
    EM(&b, OP_STORE, VOID, ptr_range(&b, po2, DT_I32, 32), EM(&b, OP_RESHAPE, blk(DT_I32, 32), sum), -1);
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    int32_t X[32], O[32], O2[32];
    for (int i = 0; i < 32; i++) X[i] = i * 3 + 1;
    ArgBits args[3] = {P(X), P(O), P(O2)};
    MemRegion mem[3] = {region(X, sizeof X, "x"), region(O, sizeof O, "o"), region(O2, sizeof O2, "o2")};
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 3));
    int bad = 0, bad2 = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++) {
                /* result[k][i][j] = x[i][j][k] */
                bad += O[(k * 2 + i) * 4 + j] != X[(i * 4 + j) * 4 + k];
                bad2 += O2[(i * 4 + j) * 4 + k] != X[(i * 4 + j) * 4 + k] + j;
            }
    CHECK_INT(0, bad);
    CHECK_INT(0, bad2);
    b_free(&b);
}

TEST(interp_return_in_loop_and_64bit) {
    /* for i in range(0, 10): if i == 3: return; out[i] = i * INT64 stuff */
    B b;
    b_init(&b);
    Type i32 = type_scalar(DT_I32), i64 = type_scalar(DT_I64), i1 = type_scalar(DT_I1);
    int po = ir_param_add(b.f, "out_ptr", type_ptr(DT_I64), false, b.loc);
    Inst *f = ir_emit(b.f, b.r, OP_FOR, (int[]){ci(&b, i32, 0), ci(&b, i32, 10), ci(&b, i32, 1)}, 3,
                      VOID, b.loc);
    Region *body = ir_region_new(b.f), *outer = b.r;
    f->regions[0] = body;
    int iv = ir_region_param(b.f, body, i32, b.loc);
    b.r = body;
    int is3 = EM(&b, OP_CMP, i1, iv, ci(&b, i32, 3));
    b.last->attr.kind = CMP_EQ;
    Inst *ifi = ir_emit(b.f, b.r, OP_IF, (int[]){is3}, 1, VOID, b.loc);
    ifi->regions[0] = ir_region_new(b.f);
    b.r = ifi->regions[0];
    EM0(&b, OP_RETURN, VOID);
    b.r = body;
    int w = EM(&b, OP_CAST, i64, iv);
    int mn = EM(&b, OP_DIV, i64, ci(&b, i64, INT64_MIN), ci(&b, i64, -1));
    int v = EM(&b, OP_ADD, i64, mn, w);
    EM(&b, OP_STORE, VOID, EM(&b, OP_ADDPTR, type_ptr(DT_I64), po, iv), v, -1);
    EM0(&b, OP_YIELD, VOID);
    b.r = outer;
    EM(&b, OP_STORE, VOID, po, ci(&b, i64, 42), -1); /* never reached */
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    int64_t out[10] = {0};
    ArgBits args[1] = {P(out)};
    MemRegion mem[1] = {region(out, sizeof out, "out")};
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 1));
    CHECK(out[0] == INT64_MIN);
    CHECK(out[2] == INT64_MIN + 2);
    CHECK(out[3] == 0);
    CHECK(out[9] == 0);
    b_free(&b);
    uint64_t ua[2] = {UINT64_MAX, 1ULL << 63}, ub2[2] = {UINT64_MAX, 4}, ur[2];
    CHECK_INT(TC_OK, binop(OP_UMULHI, 0, DT_U64, DT_U64, 2, ua, ub2, ur, &b));
    CHECK(ur[0] == UINT64_MAX - 1);
    CHECK(ur[1] == 2);
    b_free(&b);
    double da[2] = {1.0, -0.0}, db[2] = {3.0, 0.0}, dr[2];
    CHECK_INT(TC_OK, binop(OP_DIV, 0, DT_FP64, DT_FP64, 2, da, db, dr, &b));
    CHECK(dr[0] == 1.0 / 3.0);
    CHECK(isnan(dr[1]));
    b_free(&b);
}

TEST(opt_fold_matches_interp) {
    /* fold random int/float ops on constants and compare with the unfolded run */
    static const int ops[] = {OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_REM, OP_AND, OP_OR, OP_XOR,
                              OP_SHL, OP_SHR, OP_MAX, OP_MIN, OP_UMULHI};
    static const int dts[] = {DT_I8, DT_I16, DT_I32, DT_I64, DT_U8, DT_U32, DT_FP32, DT_FP16, DT_BF16};
    static const int64_t ivals[] = {0, 1, -1, 7, -128, 127, 300, 65535, INT32_MIN, 31, 33};
    static const double fvals[] = {0.0, 1.0, -2.5, 1e-3, 65504.0, 3.140625, -0.0, 1e30};
    int mismatches = 0, checked = 0;
    uint32_t seed = 12345;
    for (int it = 0; it < 300; it++) {
        seed = seed * 1103515245u + 12345u;
        int dt = dts[(seed >> 8) % COUNT_OF(dts)];
        int op = ops[(seed >> 16) % COUNT_OF(ops)];
        if (dt_is_float(dt) && (op == OP_AND || op == OP_OR || op == OP_XOR || op == OP_SHL ||
                                op == OP_SHR || op == OP_UMULHI))
            continue;
        B b;
        b_init(&b);
        Type t = type_scalar(dt);
        int po = ir_param_add(b.f, "out_ptr", type_ptr(dt), false, b.loc);
        int a, c;
        if (dt_is_float(dt)) {
            a = cf(&b, t, fvals[(seed >> 3) % COUNT_OF(fvals)]);
            c = cf(&b, t, fvals[(seed >> 5) % COUNT_OF(fvals)]);
        } else {
            a = ci(&b, t, ivals[(seed >> 3) % COUNT_OF(ivals)]);
            c = ci(&b, t, ivals[(seed >> 5) % COUNT_OF(ivals)]);
        }
        int r = EM(&b, op, t, a, c);
        b.last->attr.kind = (int)((seed >> 20) & 1);
        EM(&b, OP_STORE, VOID, po, r, -1);
        uint64_t o1 = 0, o2 = 0;
        ArgBits args1[1] = {P(&o1)}, args2[1] = {P(&o2)};
        MemRegion m1[1] = {region(&o1, 8, "o")}, m2[1] = {region(&o2, 8, "o")};
        tc_status s1 = run(&b, args1, 1, m1, 1);
        ir_optimize(b.f);
        Err ve = {0};
        if (!ir_verify(b.f, &ve)) mismatches++;
        tc_status s2 = run(&b, args2, 1, m2, 1);
        if (s1 == TC_OK) {
            checked++;
            mismatches += s2 != TC_OK || o1 != o2;
            mismatches += ir_count(b.f->body, op) != 0; /* it was folded */
        } else {
            mismatches += s2 != s1; /* division by zero is not folded away */
        }
        b_free(&b);
    }
    CHECK_INT(0, mismatches);
    CHECK(checked > 100);
}

TEST(interp_more_casts_and_print) {
    B b;
    /* fp64 -> fp32: RTNE vs RTZ; fp16 -> bf16 through fp32 */
    double d[2] = {1.0 + 0x1p-24 + 0x1p-30, -(1.0 + 0x1p-23 * 0.75)};
    float fo[2];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_FP64, DT_FP32, 2, d, d, fo, &b));
    CHECK(fo[0] == 1.0f + 0x1p-23f);
    CHECK(fo[1] == -(1.0f + 0x1p-23f));
    b_free(&b);
    CHECK_INT(TC_OK, binop(OP_CAST, 1, DT_FP64, DT_FP32, 2, d, d, fo, &b));
    CHECK(fo[0] == 1.0f);
    CHECK(fo[1] == -1.0f);
    b_free(&b);
    uint16_t h[2] = {0x3c01, 0xfc00}, bo[2];
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_FP16, DT_BF16, 2, h, h, bo, &b));
    CHECK_INT(0x3f80, bo[0]); /* 1 + 2^-10 rounds to 1.0 in bf16 */
    CHECK_INT(0xff80, bo[1]); /* -inf */
    b_free(&b);
    /* bf16 NaN stays NaN; fp32 -> bf16 RTNE */
    float fb[2] = {NAN, 1.0f + 0x1p-8f + 0x1p-9f};
    CHECK_INT(TC_OK, binop(OP_CAST, 0, DT_FP32, DT_BF16, 2, fb, fb, bo, &b));
    CHECK((bo[0] & 0x7f80) == 0x7f80 && (bo[0] & 0x7f) != 0);
    CHECK_INT(0x3f81, bo[1]);
    b_free(&b);
    /* i1 loads and stores through i1 pointers (bytes other than 0/1 read as true) */
    uint8_t ib[4] = {0, 1, 2, 255}, io[4];
    CHECK_INT(TC_OK, binop(OP_NOT, 0, DT_I1, DT_I1, 4, ib, ib, io, &b));
    CHECK(io[0] == 1 && io[1] == 0 && io[2] == 0 && io[3] == 0);
    b_free(&b);

    /* print: floats and hex */
    b_init(&b);
    int pn = ir_param_add(b.f, "x", type_scalar(DT_FP32), false, b.loc);
    EM(&b, OP_PRINT, VOID, pn);
    b.last->attr.str = "val";
    int bits = EM(&b, OP_BITCAST, type_scalar(DT_I32), pn);
    EM(&b, OP_PRINT, VOID, bits);
    b.last->attr.str = "bits";
    b.last->attr.kind = 1;
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    InterpLaunch l = {0};
    ArgBits args[1];
    args[0].f = 1.5;
    l.f = b.f;
    l.args = args;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.print = print_cb;
    print_buf[0] = 0;
    CHECK_INT(TC_OK, interp_run(&l, &b.e));
    CHECK_STR("pid (0, 0, 0) idx () val: 1.500000\npid (0, 0, 0) idx () bits: 0x3fc00000\n", print_buf);
    b_free(&b);
}

TEST(interp_atomic_xchg_cas_masked) {
    B b;
    b_init(&b);
    int pc = ir_param_add(b.f, "p", type_ptr(DT_FP32), false, b.loc);
    int po = ir_param_add(b.f, "o", type_ptr(DT_FP32), false, b.loc);
    int ar = EM0(&b, OP_ARANGE, blk(DT_I32, 8));
    int m = EM(&b, OP_CMP, blk(DT_I1, 8), ar, ci(&b, blk(DT_I32, 8), 4));
    b.last->attr.kind = CMP_LT;
    int zero = EM(&b, OP_MUL, blk(DT_I32, 8), ar, ci(&b, blk(DT_I32, 8), 0));
    int ptr = EM(&b, OP_ADDPTR, pblk(DT_FP32, 8), EM(&b, OP_SPLAT, pblk(DT_FP32, 8), pc), zero);
    int v = EM(&b, OP_CAST, blk(DT_FP32, 8), ar);
    int old = EM(&b, OP_ATOMIC, blk(DT_FP32, 8), ptr, v, m);
    b.last->attr.kind = ATOM_XCHG;
    EM(&b, OP_STORE, VOID, ptr_range(&b, po, DT_FP32, 8), old, -1);
    /* cas: p[0] == 3.0 -> 42.0 */
    EM(&b, OP_ATOMIC_CAS, type_scalar(DT_FP32), pc, cf(&b, type_scalar(DT_FP32), 3.0),
       cf(&b, type_scalar(DT_FP32), 42.0));
    Err ve = {0};
    CHECK(ir_verify(b.f, &ve));
    float p[1] = {-1.0f}, o[8];
    ArgBits args[2] = {P(p), P(o)};
    MemRegion mem[2] = {region(p, sizeof p, "p"), region(o, sizeof o, "o")};
    CHECK_INT(TC_OK, run(&b, args, 1, mem, 2));
    CHECK(o[0] == -1.0f && o[1] == 0.0f && o[2] == 1.0f && o[3] == 2.0f);
    CHECK(o[4] == 0.0f && o[7] == 0.0f); /* masked-off lanes */
    CHECK(p[0] == 42.0f);
    b_free(&b);
}
