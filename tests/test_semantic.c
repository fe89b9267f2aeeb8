/* test_semantic.c — semantic.c driven directly: a hand-made Trace, sem_* calls, and checks
 * of result types, emitted ops and error messages. Expected types and messages come from
 * reference/triton-language.md (Triton 3.x semantics), not from the implementation. */
#include "test.h"
#include "trace/sem.h"

#include <setjmp.h>
#include <stdlib.h>

typedef struct TT {
    Err err;
    Arena a;
    Trace t;
    Buf out;
    jmp_buf jb;
} TT;

static TT *tt_new(void) {
    TT *x = calloc(1, sizeof *x);
    arena_init(&x->a, &x->err);
    x->t.f = ir_func_new(&x->a, "k");
    x->t.cur = x->t.f->body;
    x->t.arena = &x->a;
    x->t.err = &x->err;
    x->t.out = &x->out;
    return x;
}
/* Everything a test emitted must pass the IR verifier (operand shapes/dtypes per ops.h). */
#define tt_free(x) tt_free_at((x), __LINE__)
static void tt_free_at(TT *x, int line) {
    Err ve = {0};
    if (ir_verify(x->t.f, &ve)) test_passed++;
    else test_fail(__FILE__, line, "ir_verify: %s", ve.msg);
    arena_free(&x->a);
    buf_free(&x->out);
    free(x);
}

static Val param(TT *x, Type ty) {
    Val v;
    memset(&v, 0, sizeof v);
    v.kind = V_TENSOR;
    v.type = ty;
    v.id = ir_param_add(x->t.f, "p", ty, false, (SrcLoc){0});
    return v;
}
/* a block value (made by a splat of a parameter) */
static Val blk(TT *x, int dt, int r, int d0, int d1, int d2) {
    int32_t s[3] = {d0, d1, d2};
    Val p = param(x, dt == DT_PTR ? type_ptr(DT_FP32) : type_scalar(dt));
    Type ty = type_with_shape(p.type, r, s);
    Val v = p;
    v.type = ty;
    v.id = sem_emit(&x->t, OP_SPLAT, &p.id, 1, ty, (Attr){0}, (SrcLoc){0});
    return v;
}
static Val K(CVal c) {
    Val v;
    memset(&v, 0, sizeof v);
    v.kind = V_CONST;
    v.c = c;
    return v;
}
static Val Ki(int64_t i) { return K(cv_int(i)); }
static Val Kf(double f) { return K(cv_float(f)); }
static Val Kdt(int dt) {
    CVal c = {0};
    c.kind = CV_DTYPE;
    c.dtype = (uint8_t)dt;
    return K(c);
}
static Val Ktup(TT *x, int n, const int64_t *v) {
    CVal c = {0};
    c.kind = CV_TUPLE;
    c.v.tup.n = n;
    c.v.tup.items = arena_alloc(&x->a, sizeof(CVal) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) c.v.tup.items[i] = cv_int(v[i]);
    return K(c);
}
static const char *ts(Type ty) {
    static char buf[8][64];
    static int k;
    k = (k + 1) % 8;
    type_str(ty, buf[k], sizeof buf[k]);
    return buf[k];
}
static int last_op(TT *x) {
    Region *r = x->t.cur;
    return r->ninsts ? r->insts[r->ninsts - 1]->op : -1;
}
static Inst *last_inst(TT *x) {
    Region *r = x->t.cur;
    return r->ninsts ? r->insts[r->ninsts - 1] : NULL;
}
static bool has_op(TT *x, int op) {
    Region *r = x->t.cur;
    for (int i = 0; i < r->ninsts; i++)
        if (r->insts[i]->op == op) return true;
    return false;
}

/* Run an expression that must succeed / must fail with a message containing needle. */
#define OK(x, var, expr) do { \
        (x)->err.jump = &(x)->jb; \
        if (setjmp((x)->jb) == 0) { var = (expr); test_passed++; } \
        else { memset(&var, 0, sizeof var); \
               test_fail(__FILE__, __LINE__, "unexpected error: %s", (x)->err.msg); } \
    } while (0)
#define FAILS(x, expr, needle) do { \
        (x)->err.jump = &(x)->jb; \
        if (setjmp((x)->jb) == 0) { (void)(expr); \
            test_fail(__FILE__, __LINE__, "expected an error containing \"%s\"", needle); } \
        else CHECK_CONTAINS((x)->err.msg, needle); \
    } while (0)

static Val call(TT *x, const char *path, int n, Val *args) {
    return sem_call(&x->t, path, NULL, args, n, NULL, NULL, 0, (SrcLoc){0});
}
static Val callkw(TT *x, const char *path, int n, Val *args, int nkw, const char **kwn, Val *kwv) {
    return sem_call(&x->t, path, NULL, args, n, kwn, kwv, nkw, (SrcLoc){0});
}
static Val bin(TT *x, const char *op, Val a, Val b) {
    PyOp o = py_op_find(op, strlen(op), PYOP_BINARY | PYOP_COMPARE);
    return sem_binary(&x->t, o, a, b, (SrcLoc){0});
}

TEST(sem_weak_scalars) {
    TT *x = tt_new();
    Val r;
    Val i8 = blk(x, DT_I8, 1, 16, 0, 0);
    OK(x, r, bin(x, "+", i8, Ki(100)));
    CHECK_STR("<16xi8>", ts(r.type));
    OK(x, r, bin(x, "+", Ki(100), i8));
    CHECK_STR("<16xi8>", ts(r.type));
    FAILS(x, bin(x, "+", i8, Ki(300)), "Scalar 300 is out of range for type int8");
    Val u8 = blk(x, DT_U8, 1, 16, 0, 0);
    FAILS(x, bin(x, "*", u8, Ki(-1)),
          "Cannot perform a binary operation between an unsigned tensor and a negative scalar");
    Val h = blk(x, DT_FP16, 1, 16, 0, 0);
    OK(x, r, bin(x, "*", h, Kf(0.5)));
    CHECK_STR("<16xfp16>", ts(r.type));
    OK(x, r, bin(x, "/", h, Ki(2)));       /* fp16 / scalar -> fp32 */
    CHECK_STR("<16xfp32>", ts(r.type));
    OK(x, r, bin(x, "%", h, Kf(2.0)));
    CHECK_STR("<16xfp32>", ts(r.type));
    OK(x, r, bin(x, "*", i8, Kf(0.5)));    /* float scalar over int tensor: literal fp32 */
    CHECK_STR("<16xfp32>", ts(r.type));
    OK(x, r, bin(x, "+", i8, Kf(1e50)));   /* fp64 literal */
    CHECK_STR("<16xfp64>", ts(r.type));
    Val i32 = blk(x, DT_I32, 1, 16, 0, 0);
    /* a scalar of the same kind is weak: the result stays i32, so 2**40 does not fit */
    FAILS(x, bin(x, "+", i32, Ki(1LL << 40)), "out of range for type int32");
    OK(x, r, bin(x, "&", i8, Ki(0x7f)));
    CHECK_STR("<16xi8>", ts(r.type));
    OK(x, r, bin(x, "+", param(x, type_scalar(DT_I64)), Ki(1)));
    CHECK_STR("i64", ts(r.type));
    tt_free(x);
}

/* The instruction defining value id, looking through SPLATs. */
static Inst *def_of(TT *x, int id) {
    Region *b = x->t.cur;
    for (int i = b->ninsts - 1; i >= 0; i--)
        if (b->insts[i]->nres && b->insts[i]->res[0] == id)
            return b->insts[i]->op == OP_SPLAT ? def_of(x, b->insts[i]->args[0]) : b->insts[i];
    return NULL;
}

TEST(sem_scalar_constants_rounded) {
    TT *x = tt_new();
    Val r;
    /* a weak scalar takes the tensor's dtype: fp16(0.1) = 1638 * 2^-14, bf16(0.1) = 205 * 2^-11 */
    OK(x, r, bin(x, "*", blk(x, DT_FP16, 1, 16, 0, 0), Kf(0.1)));
    Inst *c = def_of(x, last_inst(x)->args[1]);
    CHECK(c && c->op == OP_CONST && x->t.f->types[c->res[0]].dt == DT_FP16);
    CHECK(c && c->attr.f == 0.0999755859375);
    OK(x, r, bin(x, "+", Kf(0.1), blk(x, DT_BF16, 1, 16, 0, 0)));
    CHECK_STR("<16xbf16>", ts(r.type));
    c = def_of(x, last_inst(x)->args[0]);
    CHECK(c && c->op == OP_CONST && c->attr.f == 0.10009765625);
    /* int constants wrap to their dtype; fp32 literals are rounded to float */
    OK(x, r, call(x, "triton.language.full", 3, (Val[]){Ki(4), Ki(255), Kdt(DT_I8)}));
    CHECK_INT(-1, last_inst(x)->attr.i);
    OK(x, r, sem_to_tensor(&x->t, Kf(0.1), (SrcLoc){0}));
    CHECK(last_inst(x)->attr.f == (double)0.1f);
    tt_free(x);
}

TEST(sem_comparisons_strong) {
    TT *x = tt_new();
    Val r;
    Val i32 = blk(x, DT_I32, 1, 16, 0, 0);
    OK(x, r, bin(x, "<", i32, Ki(300)));
    CHECK_STR("<16xi1>", ts(r.type));
    CHECK_INT(OP_CMP, last_op(x));
    CHECK_INT(CMP_LT, last_inst(x)->attr.kind);
    Val i8 = blk(x, DT_I8, 1, 16, 0, 0);
    OK(x, r, bin(x, "<", i8, Ki(300)));     /* compares in int32, no range error */
    CHECK_STR("<16xi1>", ts(r.type));
    Inst *in = last_inst(x);
    CHECK_STR("<16xi32>", ts(x->t.f->types[in->args[0]]));
    Val h = blk(x, DT_FP16, 1, 16, 0, 0);
    OK(x, r, bin(x, "!=", h, Kf(0.5)));     /* fp16 vs fp32 literal -> fp32 */
    CHECK_INT(CMP_NE, last_inst(x)->attr.kind);
    CHECK_STR("<16xfp32>", ts(x->t.f->types[last_inst(x)->args[0]]));
    OK(x, r, bin(x, ">=", Ki(3), i32));
    CHECK_INT(CMP_GE, last_inst(x)->attr.kind);
    tt_free(x);
}

TEST(sem_arith_rules) {
    TT *x = tt_new();
    Val r;
    Val h = blk(x, DT_FP16, 1, 16, 0, 0), h2 = blk(x, DT_FP16, 1, 16, 0, 0);
    OK(x, r, bin(x, "/", h, h2));
    CHECK_STR("<16xfp32>", ts(r.type));
    OK(x, r, bin(x, "+", h, h2));
    CHECK_STR("<16xfp16>", ts(r.type));
    Val a = blk(x, DT_I32, 1, 16, 0, 0), b = blk(x, DT_I64, 1, 16, 0, 0);
    OK(x, r, bin(x, "/", a, b));             /* int / int -> fp32 even for int64 */
    CHECK_STR("<16xfp32>", ts(r.type));
    CHECK_INT(OP_DIV, last_op(x));
    OK(x, r, bin(x, "//", a, b));
    CHECK_STR("<16xi64>", ts(r.type));
    CHECK_INT(OP_DIV, last_op(x));
    OK(x, r, bin(x, "%", a, a));
    CHECK_INT(OP_REM, last_op(x));
    Val f = blk(x, DT_FP32, 1, 16, 0, 0);
    FAILS(x, bin(x, "//", f, f), "unexpected type fp32");
    FAILS(x, bin(x, "&", f, a), "invalid operands of type");
    Val u = blk(x, DT_U32, 1, 16, 0, 0);
    FAILS(x, bin(x, "/", a, u), "because they have different signedness");
    OK(x, r, bin(x, ">>", a, Ki(3)));
    CHECK_INT(OP_SHR, last_op(x));
    CHECK_INT(1, last_inst(x)->attr.kind);   /* signed: arithmetic */
    OK(x, r, bin(x, ">>", u, Ki(3)));
    CHECK_INT(0, last_inst(x)->attr.kind);   /* unsigned: logical */
    OK(x, r, sem_unary(&x->t, PY_USUB, h, (SrcLoc){0}));
    CHECK_STR("<16xfp16>", ts(r.type));
    CHECK_INT(OP_SUB, last_op(x));           /* 0 - x */
    OK(x, r, sem_unary(&x->t, PY_INVERT, a, (SrcLoc){0}));
    CHECK_INT(OP_NOT, last_op(x));
    FAILS(x, sem_unary(&x->t, PY_INVERT, f, (SrcLoc){0}), "wrong type argument to unary invert");
    FAILS(x, sem_unary(&x->t, PY_NOT, a, (SrcLoc){0}), "Cannot bitcast data-type of size 32 to data-type of size 1");
    Val m1 = blk(x, DT_I1, 1, 16, 0, 0), m2 = blk(x, DT_I1, 1, 16, 0, 0);
    OK(x, r, sem_logical(&x->t, PY_AND, m1, m2, (SrcLoc){0}));
    CHECK_STR("<16xi1>", ts(r.type));
    FAILS(x, bin(x, "@", f, f), "MatMult");
    tt_free(x);
}

TEST(sem_broadcast_and_pointers) {
    TT *x = tt_new();
    Val r;
    Val a = blk(x, DT_FP32, 2, 4, 1, 0), b = blk(x, DT_FP32, 2, 1, 8, 0);
    OK(x, r, bin(x, "+", a, b));
    CHECK_STR("<4x8xfp32>", ts(r.type));
    Val c = blk(x, DT_FP32, 1, 8, 0, 0);
    OK(x, r, bin(x, "*", c, blk(x, DT_FP32, 2, 4, 8, 0)));
    CHECK_STR("<4x8xfp32>", ts(r.type));
    FAILS(x, bin(x, "+", blk(x, DT_FP32, 1, 4, 0, 0), blk(x, DT_FP32, 1, 8, 0, 0)),
          "Cannot make_shape_compatible: incompatible dimensions at index 0: 4 and 8");
    Val p = param(x, type_ptr(DT_FP16));
    Val offs;
    OK(x, offs, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(128)}));
    CHECK_STR("<128xi32>", ts(offs.type));
    OK(x, r, bin(x, "+", p, offs));
    CHECK_STR("<128x*fp16>", ts(r.type));
    CHECK_INT(OP_ADDPTR, last_op(x));
    OK(x, r, bin(x, "+", offs, p));          /* int + ptr commutes */
    CHECK_STR("<128x*fp16>", ts(r.type));
    OK(x, r, bin(x, "-", p, Ki(4)));
    CHECK_STR("*fp16", ts(r.type));
    CHECK_INT(OP_ADDPTR, last_op(x));
    FAILS(x, bin(x, "+", p, Kf(1.5)), "invalid operands of type");
    FAILS(x, bin(x, "+", p, p), "cannot add pointers together");
    FAILS(x, bin(x, "*", p, Ki(2)), "invalid operands of type");
    FAILS(x, bin(x, "-", Ki(2), p), "invalid operands of type");
    Val u = param(x, type_scalar(DT_U32));
    OK(x, r, bin(x, "+", p, u));             /* unsigned offsets are zero-extended to i64 */
    CHECK_STR("i64", ts(x->t.f->types[last_inst(x)->args[1]]));
    tt_free(x);
}

TEST(sem_creation) {
    TT *x = tt_new();
    Val r;
    FAILS(x, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(100)}), "arange's range must be a power of 2");
    FAILS(x, call(x, "triton.language.arange", 2, (Val[]){Ki(8), Ki(8)}), "arange's end argument must be greater");
    OK(x, r, call(x, "triton.language.arange", 2, (Val[]){Ki(7), Ki(15)}));
    CHECK_STR("<8xi32>", ts(r.type));
    CHECK_INT(7, last_inst(x)->attr.i);
    int64_t s48[] = {4, 8}, s3[] = {3}, big[] = {2048, 1024};
    OK(x, r, call(x, "triton.language.zeros", 2, (Val[]){Ktup(x, 2, s48), Kdt(DT_FP32)}));
    CHECK_STR("<4x8xfp32>", ts(r.type));
    CHECK_INT(OP_CONST, last_op(x));
    FAILS(x, call(x, "triton.language.zeros", 2, (Val[]){Ktup(x, 1, s3), Kdt(DT_FP32)}),
          "Shape element 0 must be a power of 2");
    FAILS(x, call(x, "triton.language.zeros", 2, (Val[]){Ktup(x, 2, big), Kdt(DT_FP32)}),
          "exceeds triton maximum tensor numel (1048576)");
    OK(x, r, call(x, "triton.language.full", 3, (Val[]){Ktup(x, 2, s48), Ki(7), Kdt(DT_I8)}));
    CHECK_STR("<4x8xi8>", ts(r.type));
    CHECK_INT(7, last_inst(x)->attr.i);
    OK(x, r, call(x, "triton.language.full", 3, (Val[]){Ktup(x, 0, s48), Kf(1.5), Kdt(DT_FP16)}));
    CHECK_STR("fp16", ts(r.type));
    OK(x, r, call(x, "triton.language.program_id", 1, (Val[]){Ki(2)}));
    CHECK_STR("i32", ts(r.type));
    CHECK_INT(OP_PROGRAM_ID, last_op(x));
    FAILS(x, call(x, "triton.language.program_id", 1, (Val[]){Ki(3)}), "program_id axis must be 0, 1, or 2 but got 3");
    OK(x, r, call(x, "triton.language.num_programs", 1, (Val[]){Ki(0)}));
    CHECK_INT(OP_NUM_PROGRAMS, last_op(x));
    Val z;
    OK(x, z, call(x, "triton.language.zeros_like", 1, (Val[]){blk(x, DT_BF16, 2, 2, 4, 0)}));
    CHECK_STR("<2x4xbf16>", ts(z.type));
    tt_free(x);
}

TEST(sem_load_store) {
    TT *x = tt_new();
    Val r, offs;
    Val p = param(x, type_ptr(DT_FP16));
    OK(x, offs, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(64)}));
    Val ptrs = bin(x, "+", p, offs);
    Val mask = bin(x, "<", offs, param(x, type_scalar(DT_I32)));
    const char *kw_mo[] = {"mask", "other"};
    OK(x, r, callkw(x, "triton.language.load", 1, (Val[]){ptrs}, 2, kw_mo, (Val[]){mask, Kf(0.0)}));
    CHECK_STR("<64xfp16>", ts(r.type));
    CHECK_INT(OP_LOAD, last_op(x));
    CHECK_STR("<64xfp16>", ts(x->t.f->types[last_inst(x)->args[2]]));  /* other: pointee dtype */
    const char *kw_o[] = {"other"};
    FAILS(x, callkw(x, "triton.language.load", 1, (Val[]){ptrs}, 1, kw_o, (Val[]){Kf(0.0)}),
          "`other` cannot be provided without `mask`");
    const char *kw_bad[] = {"maks"};
    FAILS(x, callkw(x, "triton.language.load", 1, (Val[]){ptrs}, 1, kw_bad, (Val[]){mask}),
          "unexpected keyword argument 'maks'");
    FAILS(x, call(x, "triton.language.load", 1, (Val[]){offs}), "Unsupported ptr type");
    OK(x, r, call(x, "triton.language.load", 1, (Val[]){p}));
    CHECK_STR("fp16", ts(r.type));
    /* store: fp32 value through an fp16 pointer is cast */
    Val v32 = blk(x, DT_FP32, 1, 64, 0, 0);
    const char *kw_m[] = {"mask"};
    OK(x, r, callkw(x, "triton.language.store", 2, (Val[]){ptrs, v32}, 1, kw_m, (Val[]){mask}));
    CHECK_INT(V_VOID, r.kind);
    CHECK_INT(OP_STORE, last_op(x));
    CHECK_STR("<64xfp16>", ts(x->t.f->types[last_inst(x)->args[1]]));
    OK(x, r, call(x, "triton.language.store", 2, (Val[]){ptrs, Kf(1.0)}));  /* scalar value splat */
    CHECK_STR("<64xfp16>", ts(x->t.f->types[last_inst(x)->args[1]]));
    FAILS(x, call(x, "triton.language.store", 2, (Val[]){ptrs, blk(x, DT_FP32, 2, 2, 64, 0)}),
          "Expected pointer argument to have shape [2, 64] but got [64]");
    FAILS(x, call(x, "triton.language.store", 2, (Val[]){p, v32}),
          "Value argument cannot be block type if pointer argument is not a block");
    FAILS(x, callkw(x, "triton.language.load", 1, (Val[]){ptrs}, 1, kw_m, (Val[]){offs}),
          "Mask must have boolean scalar type");
    /* bool pointers go through int8 */
    Val pb = param(x, type_ptr(DT_I1));
    OK(x, r, call(x, "triton.language.load", 1, (Val[]){pb}));
    CHECK_STR("i1", ts(r.type));
    CHECK(has_op(x, OP_BITCAST));
    tt_free(x);
}

TEST(sem_reductions) {
    TT *x = tt_new();
    Val r;
    Val i8 = blk(x, DT_I8, 2, 4, 8, 0);
    OK(x, r, call(x, "triton.language.sum", 2, (Val[]){i8, Ki(1)}));
    CHECK_STR("<4xi32>", ts(r.type));
    CHECK_INT(OP_REDUCE, last_op(x));
    CHECK_INT(RED_SUM, last_inst(x)->attr.kind);
    CHECK_INT(1, last_inst(x)->attr.axis);
    OK(x, r, call(x, "triton.language.sum", 2, (Val[]){blk(x, DT_U8, 1, 8, 0, 0), Ki(0)}));
    CHECK_STR("u32", ts(r.type));
    const char *kw_d[] = {"dtype"};
    OK(x, r, callkw(x, "triton.language.sum", 2, (Val[]){i8, Ki(-1)}, 1, kw_d, (Val[]){Kdt(DT_I8)}));
    CHECK_STR("<4xi8>", ts(r.type));
    CHECK_INT(1, last_inst(x)->attr.axis);   /* -1 wraps */
    Val h = blk(x, DT_FP16, 2, 4, 8, 0);
    OK(x, r, call(x, "triton.language.sum", 1, (Val[]){h}));   /* axis=None: all elements */
    CHECK_STR("fp16", ts(r.type));
    OK(x, r, call(x, "triton.language.max", 2, (Val[]){h, Ki(0)}));
    CHECK_STR("<8xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.min", 2, (Val[]){i8, Ki(0)}));
    CHECK_STR("<8xi32>", ts(r.type));
    const char *kw_k[] = {"keep_dims"};
    OK(x, r, callkw(x, "triton.language.max", 2, (Val[]){h, Ki(1)}, 1, kw_k, (Val[]){K(cv_bool(true))}));
    CHECK_STR("<4x1xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.argmax", 2, (Val[]){h, Ki(1)}));
    CHECK_STR("<4xi32>", ts(r.type));
    CHECK_INT(RED_ARGMAX, last_inst(x)->attr.kind);
    const char *kw_ri[] = {"return_indices"};
    OK(x, r, callkw(x, "triton.language.max", 2, (Val[]){h, Ki(1)}, 1, kw_ri, (Val[]){K(cv_bool(true))}));
    CHECK_INT(V_TUPLE, r.kind);
    CHECK_INT(2, r.n);
    CHECK_STR("<4xfp16>", ts(r.items[0].type));   /* no upcast with return_indices */
    CHECK_STR("<4xi32>", ts(r.items[1].type));
    FAILS(x, call(x, "triton.language.sum", 2, (Val[]){h, Ki(2)}), "invalid axis 2. Expected -2 <= axis < 2");
    Val self = h;
    OK(x, r, sem_call(&x->t, "tensor.sum", &self, (Val[]){Ki(0)}, 1, NULL, NULL, 0, (SrcLoc){0}));
    CHECK_STR("<8xfp16>", ts(r.type));
    OK(x, r, call(x, "triton.language.xor_sum", 2, (Val[]){blk(x, DT_I1, 1, 8, 0, 0), Ki(0)}));
    CHECK_STR("i1", ts(r.type));
    FAILS(x, call(x, "triton.language.xor_sum", 2, (Val[]){h, Ki(0)}), "xor_sum only supported for integers");
    tt_free(x);
}

TEST(sem_shape_ops) {
    TT *x = tt_new();
    Val r;
    Val a = blk(x, DT_FP32, 1, 16, 0, 0);
    OK(x, r, call(x, "triton.language.expand_dims", 2, (Val[]){a, Ki(1)}));
    CHECK_STR("<16x1xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.expand_dims", 2, (Val[]){a, Ki(-2)}));
    CHECK_STR("<1x16xfp32>", ts(r.type));
    int64_t ax[] = {0, 0};
    FAILS(x, call(x, "triton.language.expand_dims", 2, (Val[]){a, Ktup(x, 2, ax)}), "expand_dims received duplicate axes");
    FAILS(x, call(x, "triton.language.expand_dims", 2, (Val[]){a, Ki(3)}), "invalid axis 3");
    OK(x, r, call(x, "triton.language.expand_dims", 2, (Val[]){param(x, type_scalar(DT_I32)), Ki(0)}));
    CHECK_STR("<1xi32>", ts(r.type));
    Val m = blk(x, DT_FP32, 2, 4, 8, 0);
    OK(x, r, call(x, "triton.language.reshape", 3, (Val[]){m, Ki(8), Ki(4)}));
    CHECK_STR("<8x4xfp32>", ts(r.type));
    int64_t s32[] = {32};
    OK(x, r, call(x, "triton.language.reshape", 2, (Val[]){m, Ktup(x, 1, s32)}));
    CHECK_STR("<32xfp32>", ts(r.type));
    FAILS(x, call(x, "triton.language.reshape", 2, (Val[]){m, Ki(16)}), "reshape() cannot change total number of elements");
    OK(x, r, call(x, "triton.language.trans", 1, (Val[]){m}));
    CHECK_STR("<8x4xfp32>", ts(r.type));
    CHECK_INT(OP_PERMUTE, last_op(x));
    Val T;
    CHECK(sem_attr(&x->t, m, "T", &T, (SrcLoc){0}));
    CHECK_STR("<8x4xfp32>", ts(T.type));
    Val m3 = blk(x, DT_FP32, 3, 2, 4, 8);
    OK(x, r, call(x, "triton.language.permute", 4, (Val[]){m3, Ki(2), Ki(0), Ki(1)}));
    CHECK_STR("<8x2x4xfp32>", ts(r.type));
    CHECK_INT(2, last_inst(x)->attr.perm[0]);
    FAILS(x, call(x, "triton.language.permute", 4, (Val[]){m3, Ki(0), Ki(0), Ki(1)}), "permute dims must be a permutation");
    OK(x, r, call(x, "triton.language.broadcast_to", 3, (Val[]){blk(x, DT_FP32, 2, 4, 1, 0), Ki(4), Ki(8)}));
    CHECK_STR("<4x8xfp32>", ts(r.type));
    FAILS(x, call(x, "triton.language.broadcast_to", 2, (Val[]){a, Ki(8)}), "Cannot broadcast");
    Val j;
    OK(x, j, call(x, "triton.language.join", 2, (Val[]){a, blk(x, DT_FP32, 1, 16, 0, 0)}));
    CHECK_STR("<16x2xfp32>", ts(j.type));
    OK(x, r, call(x, "triton.language.split", 1, (Val[]){j}));
    CHECK_INT(V_TUPLE, r.kind);
    CHECK_STR("<16xfp32>", ts(r.items[1].type));
    tt_free(x);
}

TEST(sem_attrs) {
    TT *x = tt_new();
    Val r;
    Val m = blk(x, DT_FP16, 2, 4, 8, 0);
    CHECK(sem_attr(&x->t, m, "dtype", &r, (SrcLoc){0}));
    CHECK_INT(CV_DTYPE, r.c.kind);
    CHECK_INT(DT_FP16, r.c.dtype);
    CHECK(sem_attr(&x->t, m, "shape", &r, (SrcLoc){0}));
    CHECK_INT(CV_TUPLE, r.c.kind);
    CHECK_INT(2, r.c.v.tup.n);
    CHECK_INT(8, r.c.v.tup.items[1].v.i);
    CHECK(sem_attr(&x->t, m, "numel", &r, (SrcLoc){0}));
    CHECK_INT(32, r.c.v.i);
    Val p = param(x, type_ptr(DT_BF16));
    Val dt, el;
    CHECK(sem_attr(&x->t, p, "dtype", &dt, (SrcLoc){0}));
    CHECK_INT(DT_PTR, dt.c.dtype);
    CHECK(sem_attr(&x->t, dt, "element_ty", &el, (SrcLoc){0}));
    CHECK_INT(DT_BF16, el.c.dtype);
    CHECK(sem_attr(&x->t, p, "type", &dt, (SrcLoc){0}));
    CHECK(sem_attr(&x->t, dt, "element_ty", &el, (SrcLoc){0}));
    CHECK_INT(DT_BF16, el.c.dtype);
    CHECK(!sem_attr(&x->t, m, "nonexistent", &r, (SrcLoc){0}));
    tt_free(x);
}

TEST(sem_elementwise_builtins) {
    TT *x = tt_new();
    Val r;
    Val h = blk(x, DT_FP16, 1, 16, 0, 0), f = blk(x, DT_FP32, 1, 16, 0, 0);
    OK(x, r, call(x, "triton.language.maximum", 2, (Val[]){h, Kf(0.0)}));   /* strong typing */
    CHECK_STR("<16xfp32>", ts(r.type));
    CHECK_INT(OP_MAX, last_op(x));
    OK(x, r, call(x, "builtins.min", 2, (Val[]){f, Ki(3)}));
    CHECK_STR("<16xfp32>", ts(r.type));
    CHECK_INT(OP_MIN, last_op(x));
    OK(x, r, call(x, "builtins.max", 3, (Val[]){Ki(3), Ki(9), Ki(-1)}));
    CHECK_INT(V_CONST, r.kind);
    CHECK_INT(9, r.c.v.i);
    FAILS(x, call(x, "triton.language.exp", 1, (Val[]){h}), "Expected dtype ['fp32', 'fp64'] but got fp16");
    OK(x, r, call(x, "triton.language.math.exp2", 1, (Val[]){f}));
    CHECK_INT(OP_EXP2, last_op(x));
    OK(x, r, call(x, "triton.language.sigmoid", 1, (Val[]){f}));
    CHECK_STR("<16xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.where", 3, (Val[]){blk(x, DT_I1, 2, 4, 1, 0), h, Kf(0.0)}));
    CHECK_STR("<4x16xfp16>", ts(r.type));   /* weak scalar keeps fp16, cond broadcast */
    CHECK_INT(OP_WHERE, last_op(x));
    OK(x, r, call(x, "triton.language.where", 3, (Val[]){blk(x, DT_I1, 1, 16, 0, 0), Ki(0), Kf(-1.0e6)}));
    CHECK_STR("<16xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.abs", 1, (Val[]){blk(x, DT_U8, 1, 16, 0, 0)}));
    CHECK_STR("<16xu8>", ts(r.type));
    OK(x, r, call(x, "triton.language.cdiv", 2, (Val[]){param(x, type_scalar(DT_I32)), Ki(16)}));
    CHECK_STR("i32", ts(r.type));
    CHECK_INT(OP_DIV, last_op(x));
    OK(x, r, call(x, "triton.cdiv", 2, (Val[]){Ki(1000), Ki(128)}));
    CHECK_INT(8, r.c.v.i);
    OK(x, r, call(x, "triton.next_power_of_2", 1, (Val[]){Ki(1000)}));
    CHECK_INT(1024, r.c.v.i);
    OK(x, r, call(x, "triton.language.softmax", 1, (Val[]){f}));
    CHECK_STR("<16xfp32>", ts(r.type));
    FAILS(x, call(x, "triton.language.clamp", 3, (Val[]){blk(x, DT_I32, 1, 16, 0, 0), Ki(0), Ki(1)}),
          "Only floating point clamp is supported");
    OK(x, r, call(x, "triton.language.umulhi", 2, (Val[]){blk(x, DT_I32, 1, 16, 0, 0), blk(x, DT_I32, 1, 16, 0, 0)}));
    CHECK_INT(OP_UMULHI, last_op(x));
    OK(x, r, call(x, "triton.language.fma", 3, (Val[]){f, f, Kf(1.0)}));
    CHECK_INT(OP_FMA, last_op(x));
    FAILS(x, call(x, "triton.language.frobnicate", 1, (Val[]){f}), "has no attribute 'frobnicate'");
    x->err.jump = &x->jb;
    if (setjmp(x->jb) == 0) { call(x, "triton.language.sort", 1, (Val[]){f}); CHECK(0); }
    else CHECK_INT(TC_ERR_UNSUPPORTED, x->err.code);
    tt_free(x);
}

TEST(sem_casts) {
    TT *x = tt_new();
    Val r;
    Val f = blk(x, DT_FP32, 1, 16, 0, 0), h = blk(x, DT_FP16, 1, 16, 0, 0);
    Val self = f;
    OK(x, r, sem_call(&x->t, "tensor.to", &self, (Val[]){Kdt(DT_FP16)}, 1, NULL, NULL, 0, (SrcLoc){0}));
    CHECK_STR("<16xfp16>", ts(r.type));
    CHECK_INT(OP_CAST, last_op(x));
    OK(x, r, sem_cast(&x->t, f, type_scalar(DT_I1), false, (SrcLoc){0}));
    CHECK_STR("<16xi1>", ts(r.type));
    CHECK_INT(OP_CMP, last_op(x));          /* x != 0 */
    CHECK_INT(CMP_NE, last_inst(x)->attr.kind);
    OK(x, r, sem_cast(&x->t, h, type_scalar(DT_I32), false, (SrcLoc){0}));
    CHECK_STR("<16xi32>", ts(r.type));      /* through fp32 */
    CHECK_STR("<16xfp32>", ts(x->t.f->types[last_inst(x)->args[0]]));
    OK(x, r, sem_cast(&x->t, f, type_scalar(DT_I32), true, (SrcLoc){0}));
    CHECK_INT(OP_BITCAST, last_op(x));
    FAILS(x, sem_cast(&x->t, f, type_scalar(DT_FP16), true, (SrcLoc){0}),
          "Cannot bitcast data-type of size 32 to data-type of size 16");
    self = f;
    const char *kw_r[] = {"fp_downcast_rounding"};
    OK(x, r, sem_call(&x->t, "tensor.to", &self, (Val[]){Kdt(DT_BF16)}, 1, kw_r, (Val[]){K(cv_str("rtz"))}, 0 + 1, (SrcLoc){0}));
    CHECK_INT(1, last_inst(x)->attr.kind);
    FAILS(x, sem_call(&x->t, "tensor.to", &self, (Val[]){Kdt(DT_FP64)}, 1, kw_r, (Val[]){K(cv_str("rtz"))}, 1, (SrcLoc){0}),
          "fp_downcast_rounding should be set only for truncating fp conversions");
    OK(x, r, sem_cast(&x->t, f, type_scalar(DT_FP32), false, (SrcLoc){0}));
    CHECK_INT(f.id, r.id);                  /* same type: no-op */
    OK(x, r, sem_to_tensor(&x->t, Ki(1LL << 40), (SrcLoc){0}));
    CHECK_STR("i64", ts(r.type));
    OK(x, r, sem_to_tensor(&x->t, Kf(0.1), (SrcLoc){0}));
    CHECK_STR("fp32", ts(r.type));
    tt_free(x);
}

TEST(sem_dot) {
    TT *x = tt_new();
    Val r;
    Val a = blk(x, DT_FP16, 2, 16, 16, 0), b = blk(x, DT_FP16, 2, 16, 32, 0);
    OK(x, r, call(x, "triton.language.dot", 2, (Val[]){a, b}));
    CHECK_STR("<16x32xfp32>", ts(r.type));
    CHECK_INT(OP_DOT, last_op(x));
    const char *kw_o[] = {"out_dtype"};
    OK(x, r, callkw(x, "triton.language.dot", 2, (Val[]){a, b}, 1, kw_o, (Val[]){Kdt(DT_FP16)}));
    CHECK_STR("<16x32xfp16>", ts(r.type));
    Val i8a = blk(x, DT_I8, 2, 16, 32, 0), i8b = blk(x, DT_I8, 2, 32, 16, 0);
    OK(x, r, call(x, "triton.language.dot", 2, (Val[]){i8a, i8b}));
    CHECK_STR("<16x16xi32>", ts(r.type));
    FAILS(x, call(x, "triton.language.dot", 2, (Val[]){blk(x, DT_I8, 2, 16, 16, 0), blk(x, DT_I8, 2, 16, 16, 0)}),
          "K >= 32");
    FAILS(x, call(x, "triton.language.dot", 2, (Val[]){blk(x, DT_FP16, 2, 16, 8, 0), blk(x, DT_FP16, 2, 8, 16, 0)}),
          "Input shapes should have M >= 1, N >= 1 and K >= 16");
    FAILS(x, call(x, "triton.language.dot", 2, (Val[]){a, blk(x, DT_FP32, 2, 16, 16, 0)}), "Both operands must be same dtype");
    FAILS(x, call(x, "triton.language.dot", 2, (Val[]){a, blk(x, DT_FP16, 2, 32, 16, 0)}), "are not compatible for matmul");
    Val acc = blk(x, DT_FP32, 2, 16, 32, 0);
    OK(x, r, call(x, "triton.language.dot", 3, (Val[]){a, b, acc}));
    CHECK_INT(acc.id, last_inst(x)->args[2]);
    const char *kw_p[] = {"input_precision"};
    OK(x, r, callkw(x, "triton.language.dot", 2, (Val[]){blk(x, DT_FP32, 2, 16, 16, 0), blk(x, DT_FP32, 2, 16, 16, 0)},
                    1, kw_p, (Val[]){K(cv_str("ieee"))}));
    CHECK_INT(DOT_IEEE, last_inst(x)->attr.kind);
    OK(x, r, call(x, "triton.language.dot", 2, (Val[]){blk(x, DT_FP32, 3, 2, 16, 16), blk(x, DT_FP32, 3, 2, 16, 16)}));
    CHECK_STR("<2x16x16xfp32>", ts(r.type));
    tt_free(x);
}

TEST(sem_atomics_and_debug) {
    TT *x = tt_new();
    Val r, offs;
    Val p = param(x, type_ptr(DT_FP32));
    OK(x, offs, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(32)}));
    Val ptrs = bin(x, "+", p, offs);
    OK(x, r, call(x, "triton.language.atomic_add", 2, (Val[]){ptrs, Ki(1)}));
    CHECK_STR("<32xfp32>", ts(r.type));
    CHECK_INT(OP_ATOMIC, last_op(x));
    CHECK_INT(ATOM_ADD, last_inst(x)->attr.kind);
    FAILS(x, call(x, "triton.language.atomic_and", 2, (Val[]){ptrs, Ki(1)}), "atomic_and does not support fp32");
    Val ph = param(x, type_ptr(DT_FP16));
    FAILS(x, call(x, "triton.language.atomic_max", 2, (Val[]){ph, Kf(1.0)}), "atomic_max does not support fp16");
    Val pi8 = param(x, type_ptr(DT_I8));
    FAILS(x, call(x, "triton.language.atomic_add", 2, (Val[]){pi8, Ki(1)}), "does not support int8");
    Val lock = param(x, type_ptr(DT_I32));
    OK(x, r, call(x, "triton.language.atomic_cas", 3, (Val[]){lock, Ki(0), Ki(1)}));
    CHECK_STR("i32", ts(r.type));
    CHECK_INT(OP_ATOMIC_CAS, last_op(x));
    const char *kw_s[] = {"sem"};
    FAILS(x, callkw(x, "triton.language.atomic_xchg", 2, (Val[]){lock, Ki(0)}, 1, kw_s, (Val[]){K(cv_str("weird"))}),
          "Memory semantic weird not supported");
    OK(x, r, call(x, "triton.language.debug_barrier", 0, NULL));
    CHECK_INT(OP_BARRIER, last_op(x));
    OK(x, r, call(x, "triton.language.device_print", 2, (Val[]){K(cv_str("x")), offs}));
    CHECK_INT(OP_PRINT, last_op(x));
    CHECK_STR(" x: ", last_inst(x)->attr.str);  /* semantic.device_print's prefix rules */
    OK(x, r, call(x, "triton.language.static_print", 2, (Val[]){K(cv_str("BLOCK")), Ki(128)}));
    CHECK_STR("BLOCK 128\n", x->out.s);
    OK(x, r, call(x, "triton.language.static_assert", 1, (Val[]){K(cv_bool(true))}));
    CHECK_INT(V_VOID, r.kind);
    FAILS(x, call(x, "triton.language.static_assert", 2, (Val[]){K(cv_bool(false)), K(cv_str("too big"))}),
          "static_assert failed: too big");
    FAILS(x, call(x, "triton.language.static_assert", 1, (Val[]){offs}), "could not be determined at compile-time");
    OK(x, r, call(x, "triton.language.multiple_of", 2, (Val[]){offs, Ki(16)}));
    CHECK_INT(offs.id, r.id);
    OK(x, r, call(x, "triton.language.assume", 1, (Val[]){offs}));
    CHECK_INT(V_VOID, r.kind);
    tt_free(x);
}

TEST(sem_more_shapes) {
    TT *x = tt_new();
    Val r;
    Val a = blk(x, DT_I32, 1, 8, 0, 0), b = blk(x, DT_I32, 1, 8, 0, 0);
    OK(x, r, call(x, "triton.language.interleave", 2, (Val[]){a, b}));
    CHECK_STR("<16xi32>", ts(r.type));
    OK(x, r, call(x, "triton.language.cat", 3, (Val[]){a, b, K(cv_bool(true))}));
    CHECK_STR("<16xi32>", ts(r.type));
    OK(x, r, call(x, "triton.language.join", 2, (Val[]){param(x, type_scalar(DT_FP32)), Kf(1.0)}));
    CHECK_STR("<2xfp32>", ts(r.type));
    int64_t ax[] = {0, 2};
    OK(x, r, call(x, "triton.language.expand_dims", 2, (Val[]){a, Ktup(x, 2, ax)}));
    CHECK_STR("<1x8x1xi32>", ts(r.type));
    const char *kw_k[] = {"keep_dims"};
    OK(x, r, callkw(x, "triton.language.sum", 1, (Val[]){blk(x, DT_FP32, 2, 4, 8, 0)}, 1, kw_k,
                    (Val[]){K(cv_bool(true))}));
    CHECK_STR("<1x1xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.ravel", 1, (Val[]){blk(x, DT_FP32, 2, 4, 8, 0)}));
    CHECK_STR("<32xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.broadcast", 2, (Val[]){blk(x, DT_FP32, 2, 4, 1, 0), a}));
    CHECK_INT(V_TUPLE, r.kind);
    CHECK_STR("<4x8xfp32>", ts(r.items[0].type));
    CHECK_STR("<4x8xi32>", ts(r.items[1].type));
    OK(x, r, call(x, "triton.language.full", 3, (Val[]){Ki(8), param(x, type_scalar(DT_I32)), Kdt(DT_FP32)}));
    CHECK_STR("<8xfp32>", ts(r.type));
    CHECK_INT(OP_SPLAT, last_op(x));
    tt_free(x);
}

TEST(sem_builtins_python) {
    TT *x = tt_new();
    Val r;
    OK(x, r, call(x, "builtins.int", 1, (Val[]){Kf(-3.7)}));
    CHECK_INT(CV_INT, r.c.kind);
    CHECK_INT(-3, r.c.v.i);
    OK(x, r, call(x, "builtins.float", 1, (Val[]){K(cv_str("-inf"))}));
    CHECK(isinf(r.c.v.f) && r.c.v.f < 0);
    OK(x, r, call(x, "builtins.float", 1, (Val[]){Ki(3)}));
    CHECK_INT(CV_FLOAT, r.c.kind);
    OK(x, r, call(x, "builtins.min", 2, (Val[]){Ki(4), Kf(2.5)}));
    CHECK_INT(CV_FLOAT, r.c.kind);
    OK(x, r, call(x, "builtins.abs", 1, (Val[]){Ki(-5)}));
    CHECK_INT(5, r.c.v.i);
    OK(x, r, call(x, "triton.cdiv", 2, (Val[]){Ki(-5), Ki(2)}));
    CHECK_INT(-2, r.c.v.i);                 /* Python floor: (-5 + 1) // 2 */
    OK(x, r, call(x, "triton.next_power_of_2", 1, (Val[]){Ki(1)}));
    CHECK_INT(1, r.c.v.i);
    OK(x, r, call(x, "triton.next_power_of_2", 1, (Val[]){Ki(129)}));
    CHECK_INT(256, r.c.v.i);
    Val dt = Kdt(DT_FP16), out;
    CHECK(sem_attr(&x->t, dt, "is_floating", &out, (SrcLoc){0}));
    OK(x, r, sem_call(&x->t, out.path, &out.items[0], NULL, 0, NULL, NULL, 0, (SrcLoc){0}));
    CHECK_INT(1, r.c.v.i);
    OK(x, r, sem_call(&x->t, "dtype.is_int_signed", &dt, NULL, 0, NULL, NULL, 0, (SrcLoc){0}));
    CHECK_INT(0, r.c.v.i);
    CHECK(sem_attr(&x->t, dt, "primitive_bitwidth", &out, (SrcLoc){0}));
    CHECK_INT(16, out.c.v.i);
    Val f = blk(x, DT_FP32, 1, 8, 0, 0);
    FAILS(x, sem_call(&x->t, "tensor.frobnicate", &f, NULL, 0, NULL, NULL, 0, (SrcLoc){0}),
          "'tensor' object has no attribute 'frobnicate'");
    x->err.jump = &x->jb;
    if (setjmp(x->jb) == 0) { call(x, "triton.language.extra.libdevice.lgamma", 1, (Val[]){f}); CHECK(0); }
    else CHECK_INT(TC_ERR_UNSUPPORTED, x->err.code);
    OK(x, r, call(x, "triton.language.extra.libdevice.tanh", 1, (Val[]){f}));
    CHECK_INT(OP_TANH, last_op(x));
    FAILS(x, call(x, "triton.language.math.sqrt_rn", 1, (Val[]){blk(x, DT_FP64, 1, 8, 0, 0)}),
          "Expected dtype ['fp32'] but got fp64");
    tt_free(x);
}

TEST(sem_misc_semantics) {
    TT *x = tt_new();
    Val r;
    Val m1 = blk(x, DT_I1, 1, 8, 0, 0);
    OK(x, r, sem_logical(&x->t, PY_OR, m1, param(x, type_scalar(DT_I1)), (SrcLoc){0}));
    CHECK_STR("<8xi1>", ts(r.type));
    CHECK_INT(OP_OR, last_op(x));
    Val p = param(x, type_ptr(DT_FP32)), q = param(x, type_ptr(DT_FP32));
    OK(x, r, call(x, "triton.language.where", 3, (Val[]){param(x, type_scalar(DT_I1)), p, q}));
    CHECK_STR("*fp32", ts(r.type));
    FAILS(x, call(x, "triton.language.where", 3, (Val[]){m1, p, param(x, type_ptr(DT_I32))}),
          "invalid operands of type");
    OK(x, r, call(x, "triton.language.static_print", 2, (Val[]){Kdt(DT_BF16), blk(x, DT_FP32, 2, 4, 8, 0)}));
    CHECK_STR("bf16 fp32[constexpr[4], constexpr[8]]\n", x->out.s);
    /* device_assert is compiled away unless TRITON_DEBUG=1 */
    const char *volatile old_dbg = getenv("TRITON_DEBUG");
    char *volatile saved = old_dbg ? strdup(old_dbg) : NULL;
    setenv("TRITON_DEBUG", "0", 1);
    OK(x, r, call(x, "triton.language.device_assert", 2, (Val[]){m1, K(cv_str("oops"))}));
    CHECK(!has_op(x, OP_ASSERT));
    setenv("TRITON_DEBUG", "1", 1);
    OK(x, r, call(x, "triton.language.device_assert", 2, (Val[]){m1, K(cv_str("oops"))}));
    CHECK_INT(OP_ASSERT, last_op(x));
    CHECK_STR("oops", last_inst(x)->attr.str);
    if (saved) { setenv("TRITON_DEBUG", saved, 1); free(saved); }
    else unsetenv("TRITON_DEBUG");
    const char *kw_n[] = {"propagate_nan"};
    Val all;
    memset(&all, 0, sizeof all);
    all.kind = V_BUILTIN;
    all.path = "triton.language.PropagateNan.ALL";
    Val f = blk(x, DT_FP32, 1, 8, 0, 0);
    OK(x, r, callkw(x, "triton.language.minimum", 2, (Val[]){f, f}, 1, kw_n, (Val[]){all}));
    CHECK_INT(1, last_inst(x)->attr.kind);
    OK(x, r, call(x, "triton.language.clamp", 3, (Val[]){f, Kf(-1.0), Kf(1.0)}));
    CHECK_STR("<8xfp32>", ts(r.type));
    CHECK_INT(OP_MIN, last_op(x));
    /* a store through an int1 pointer writes bytes */
    Val pb = param(x, type_ptr(DT_I1));
    OK(x, r, call(x, "triton.language.store", 2, (Val[]){pb, param(x, type_scalar(DT_I1))}));
    CHECK_STR("*i8", ts(x->t.f->types[last_inst(x)->args[0]]));
    CHECK_STR("i8", ts(x->t.f->types[last_inst(x)->args[1]]));
    FAILS(x, bin(x, "-", p, q), "invalid operands of type");
    FAILS(x, sem_unary(&x->t, PY_USUB, p, (SrcLoc){0}), "wrong type argument to unary minus");
    FAILS(x, call(x, "triton.language.load", 1, (Val[]){K(cv_none())}), "cannot convert None");
    FAILS(x, call(x, "triton.language.arange", 2, (Val[]){Ki(0), param(x, type_scalar(DT_I32))}),
          "arange's arguments must be of type tl.constexpr");
    FAILS(x, call(x, "triton.language.dot", 2, (Val[]){blk(x, DT_FP16, 1, 16, 0, 0), blk(x, DT_FP16, 1, 16, 0, 0)}),
          "Both inputs must be either 2D or 3D");
    const char *kw_od[] = {"out_dtype"};
    FAILS(x, callkw(x, "triton.language.dot", 2, (Val[]){blk(x, DT_FP16, 2, 16, 16, 0), blk(x, DT_FP16, 2, 16, 16, 0)},
                    1, kw_od, (Val[]){Kdt(DT_BF16)}), "out_dtype=bfloat16 is unsupported");
    tt_free(x);
}

/* Philox through the interpreter, against the Random123 known-answer vectors for
 * philox4x32-10: counter 0 / key 0 -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8, and all-ones
 * counter and key -> 408f276d 41c83b0e a20bc7c6 6d5451fd. */
#include "interp/interp.h"

static void run_philox(TT *x, Val seed_arg, Val c0, Val c1, Val c2, Val c3, Val out, bool four) {
    Val r;
    if (four) {
        OK(x, r, call(x, "triton.language.philox", 5, (Val[]){seed_arg, c0, c1, c2, c3}));
    } else {
        OK(x, r, call(x, "triton.language.randint4x", 2, (Val[]){seed_arg, c0}));
    }
    CHECK_INT(V_TUPLE, r.kind);
    for (volatile int i = 0; r.kind == V_TUPLE && i < 4; i++) {
        CHECK_STR("u32", ts(r.items[i].type));
        Val p;
        OK(x, p, bin(x, "+", out, Ki(i)));
        OK(x, p, call(x, "triton.language.store", 2, (Val[]){p, r.items[i]}));
    }
}

TEST(sem_philox_known_answers) {
    uint32_t got[8] = {0};
    TT *x = tt_new();
    Val out = param(x, type_ptr(DT_U32));
    Val seed = param(x, type_scalar(DT_I64));
    run_philox(x, seed, Ki(0), Ki(0), Ki(0), Ki(0), out, false);
    Val out2;
    OK(x, out2, bin(x, "+", out, Ki(4)));
    run_philox(x, Ki(-1), Ki(-1), Ki(-1), Ki(-1), Ki(-1), out2, true);
    Err ve = {0};
    CHECK(ir_verify(x->t.f, &ve));
    ArgBits args[2];
    args[0].u = (uint64_t)(uintptr_t)got;
    args[1].i = 0;
    MemRegion mem = {(uint64_t)(uintptr_t)got, (uint64_t)(uintptr_t)(got + 8), "out", NULL};
    InterpLaunch l;
    memset(&l, 0, sizeof l);
    l.f = x->t.f;
    l.args = args;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.mem = &mem;
    l.nmem = 1;
    Err e = {0};
    CHECK_INT(TC_OK, interp_run(&l, &e));
    CHECK_INT(0x6627e8d5u, got[0]);
    CHECK_INT(0xe169c58du, got[1]);
    CHECK_INT(0xbc57ac4cu, got[2]);
    CHECK_INT(0x9b00dbd8u, got[3]);
    CHECK_INT(0x408f276du, got[4]);
    CHECK_INT(0x41c83b0eu, got[5]);
    CHECK_INT(0xa20bc7c6u, got[6]);
    CHECK_INT(0x6d5451fdu, got[7]);
    Val r;
    OK(x, r, call(x, "triton.language.rand", 2, (Val[]){seed, blk(x, DT_I32, 1, 8, 0, 0)}));
    CHECK_STR("<8xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.randn", 2, (Val[]){seed, blk(x, DT_I32, 1, 8, 0, 0)}));
    CHECK_STR("<8xfp32>", ts(r.type));
    tt_free(x);
}

TEST(sem_standard_helpers) {
    TT *x = tt_new();
    Val r;
    /* swizzle2d on constexprs is folded with Python arithmetic */
    OK(x, r, call(x, "triton.language.swizzle2d", 5, (Val[]){Ki(1), Ki(2), Ki(4), Ki(4), Ki(2)}));
    CHECK_INT(V_TUPLE, r.kind);
    CHECK_INT(0, r.items[0].c.v.i);
    CHECK_INT(3, r.items[1].c.v.i);
    OK(x, r, call(x, "triton.language.swizzle2d", 5, (Val[]){Ki(2), Ki(1), Ki(3), Ki(4), Ki(2)}));
    CHECK_INT(2, r.items[0].c.v.i);
    CHECK_INT(1, r.items[1].c.v.i);
    OK(x, r, call(x, "triton.language.swizzle2d", 5,
                  (Val[]){param(x, type_scalar(DT_I32)), param(x, type_scalar(DT_I32)), Ki(64), Ki(64), Ki(8)}));
    CHECK_STR("i32", ts(r.items[0].type));
    CHECK_STR("i32", ts(r.items[1].type));
    OK(x, r, call(x, "triton.language.histogram", 2, (Val[]){blk(x, DT_I32, 1, 64, 0, 0), Ki(16)}));
    CHECK_STR("<16xi32>", ts(r.type));
    CHECK_INT(RED_SUM, last_inst(x)->attr.kind);
    OK(x, r, call(x, "triton.language.reduce_or", 2, (Val[]){blk(x, DT_I1, 2, 4, 8, 0), Ki(1)}));
    CHECK_STR("<4xi1>", ts(r.type));
    CHECK_INT(RED_OR, last_inst(x)->attr.kind);
    tt_free(x);
}

/* histogram run through the interpreter: values outside [0, num_bins) are not counted. */
TEST(sem_histogram_runs) {
    int32_t in[8] = {0, 1, 1, 3, 3, 3, 2, 7}, out[4] = {-1, -1, -1, -1};
    TT *x = tt_new();
    Val pin = param(x, type_ptr(DT_I32)), pout = param(x, type_ptr(DT_I32));
    Val offs, v, h, r, offs4;
    OK(x, offs, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(8)}));
    OK(x, v, call(x, "triton.language.load", 1, (Val[]){bin(x, "+", pin, offs)}));
    OK(x, h, call(x, "triton.language.histogram", 2, (Val[]){v, Ki(4)}));
    OK(x, offs4, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(4)}));
    OK(x, r, call(x, "triton.language.store", 2, (Val[]){bin(x, "+", pout, offs4), h}));
    ArgBits args[2];
    args[0].u = (uint64_t)(uintptr_t)in;
    args[1].u = (uint64_t)(uintptr_t)out;
    MemRegion mem[2] = {{(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)(in + 8), "in", NULL},
                        {(uint64_t)(uintptr_t)out, (uint64_t)(uintptr_t)(out + 4), "out", NULL}};
    InterpLaunch l;
    memset(&l, 0, sizeof l);
    l.f = x->t.f;
    l.args = args;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.mem = mem;
    l.nmem = 2;
    Err e = {0};
    CHECK_INT(TC_OK, interp_run(&l, &e));
    CHECK_INT(1, out[0]);
    CHECK_INT(2, out[1]);
    CHECK_INT(1, out[2]);
    CHECK_INT(3, out[3]);
    tt_free(x);
}

/* flip and gather run through the interpreter against hand-computed results. */
TEST(sem_flip_gather_run) {
    float src[8] = {0.5f, -1.0f, 2.0f, -0.0f, 4.0f, 5.5f, -6.0f, 7.0f};
    int32_t idx[4] = {7, 0, 3, 3};
    float flipped[8], gathered[4];
    TT *x = tt_new();
    Val psrc = param(x, type_ptr(DT_FP32)), pidx = param(x, type_ptr(DT_I32));
    Val pf = param(x, type_ptr(DT_FP32)), pg = param(x, type_ptr(DT_FP32));
    Val o8, o4, v, i4, r;
    OK(x, o8, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(8)}));
    OK(x, o4, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(4)}));
    OK(x, v, call(x, "triton.language.load", 1, (Val[]){bin(x, "+", psrc, o8)}));
    OK(x, i4, call(x, "triton.language.load", 1, (Val[]){bin(x, "+", pidx, o4)}));
    OK(x, r, call(x, "triton.language.flip", 1, (Val[]){v}));
    CHECK_STR("<8xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.store", 2, (Val[]){bin(x, "+", pf, o8), r}));
    OK(x, r, call(x, "triton.language.gather", 3, (Val[]){v, i4, Ki(0)}));
    CHECK_STR("<4xfp32>", ts(r.type));
    OK(x, r, call(x, "triton.language.store", 2, (Val[]){bin(x, "+", pg, o4), r}));
    FAILS(x, call(x, "triton.language.gather", 3, (Val[]){blk(x, DT_FP32, 2, 4, 8, 0), blk(x, DT_I32, 2, 2, 4, 0), Ki(0)}),
          "must match the corresponding source dim");
    ArgBits args[4];
    args[0].u = (uint64_t)(uintptr_t)src;
    args[1].u = (uint64_t)(uintptr_t)idx;
    args[2].u = (uint64_t)(uintptr_t)flipped;
    args[3].u = (uint64_t)(uintptr_t)gathered;
    MemRegion mem[4] = {{(uint64_t)(uintptr_t)src, (uint64_t)(uintptr_t)(src + 8), "src", NULL},
                        {(uint64_t)(uintptr_t)idx, (uint64_t)(uintptr_t)(idx + 4), "idx", NULL},
                        {(uint64_t)(uintptr_t)flipped, (uint64_t)(uintptr_t)(flipped + 8), "f", NULL},
                        {(uint64_t)(uintptr_t)gathered, (uint64_t)(uintptr_t)(gathered + 4), "g", NULL}};
    InterpLaunch l;
    memset(&l, 0, sizeof l);
    l.f = x->t.f;
    l.args = args;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.mem = mem;
    l.nmem = 4;
    Err e = {0};
    CHECK_INT(TC_OK, interp_run(&l, &e));
    for (int i = 0; i < 8; i++) CHECK(flipped[i] == src[7 - i]);
    CHECK(signbit(flipped[4]));            /* -0.0 survives */
    CHECK(gathered[0] == 7.0f);
    CHECK(gathered[1] == 0.5f);
    CHECK(gathered[2] == 0.0f && signbit(gathered[2]));
    CHECK(gathered[3] == 0.0f);
    tt_free(x);
}

/* cumsum through the interpreter: int8 input accumulates in int32; reverse sums the suffix. */
TEST(sem_cumsum_run) {
    int8_t in[8] = {100, 100, -3, 7, 0, 1, 2, 127};
    int32_t fwd[8], bwd[8];
    TT *x = tt_new();
    Val pin = param(x, type_ptr(DT_I8)), pf = param(x, type_ptr(DT_I32)), pb = param(x, type_ptr(DT_I32));
    Val o8, v, r;
    OK(x, o8, call(x, "triton.language.arange", 2, (Val[]){Ki(0), Ki(8)}));
    OK(x, v, call(x, "triton.language.load", 1, (Val[]){bin(x, "+", pin, o8)}));
    OK(x, r, call(x, "triton.language.cumsum", 2, (Val[]){v, Ki(0)}));
    CHECK_STR("<8xi32>", ts(r.type));
    OK(x, r, call(x, "triton.language.store", 2, (Val[]){bin(x, "+", pf, o8), r}));
    const char *kw_r[] = {"reverse"};
    OK(x, r, callkw(x, "triton.language.cumsum", 1, (Val[]){v}, 1, kw_r, (Val[]){K(cv_bool(true))}));
    OK(x, r, call(x, "triton.language.store", 2, (Val[]){bin(x, "+", pb, o8), r}));
    ArgBits args[3];
    args[0].u = (uint64_t)(uintptr_t)in;
    args[1].u = (uint64_t)(uintptr_t)fwd;
    args[2].u = (uint64_t)(uintptr_t)bwd;
    MemRegion mem[3] = {{(uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)(in + 8), "in", NULL},
                        {(uint64_t)(uintptr_t)fwd, (uint64_t)(uintptr_t)(fwd + 8), "f", NULL},
                        {(uint64_t)(uintptr_t)bwd, (uint64_t)(uintptr_t)(bwd + 8), "b", NULL}};
    InterpLaunch l;
    memset(&l, 0, sizeof l);
    l.f = x->t.f;
    l.args = args;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.mem = mem;
    l.nmem = 3;
    Err e = {0};
    CHECK_INT(TC_OK, interp_run(&l, &e));
    int32_t acc = 0;
    for (int i = 0; i < 8; i++) { acc += in[i]; CHECK_INT(acc, fwd[i]); }
    acc = 0;
    for (int i = 7; i >= 0; i--) { acc += in[i]; CHECK_INT(acc, bwd[i]); }
    tt_free(x);
}

/* tl.reduce / tl.associative_scan with @jit combine functions, and tl.cumprod, through the
 * public API on the interpreter. Expected values computed by hand from x below. */
static const char *REDUCE_SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def _add(a, b):\n"
    "    return a + b\n"
    "\n"
    "@triton.jit\n"
    "def _maxidx(v1, i1, v2, i2):\n"
    "    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))\n"
    "    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)\n"
    "\n"
    "@triton.jit\n"
    "def k(x_ptr, out_ptr, scan_ptr, N: tl.constexpr):\n"
    "    offs = tl.arange(0, N)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    s = tl.reduce(x, 0, _add)\n"
    "    v, i = tl.reduce((x, offs), 0, _maxidx)\n"
    "    tl.store(out_ptr, s)\n"
    "    tl.store(out_ptr + 1, v)\n"
    "    tl.store(out_ptr + 2, i.to(tl.float32))\n"
    "    tl.store(out_ptr + 3, tl.sum(tl.reduce(x[None, :], 1, _add, keep_dims=True)))\n"
    "    c = tl.associative_scan(x, 0, _add)\n"
    "    tl.store(scan_ptr + offs, c)\n"
    "    p = tl.cumprod(x, 0, reverse=True)\n"
    "    tl.store(scan_ptr + N + offs, p)\n";

TEST(sem_reduce_scan_combine_fn) {
    float x[8] = {1, 2, -1, 4, 0.5f, 3, 4, 2};
    float out[4] = {0}, scan[16] = {0};
    tc_context *ctx = NULL;
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    tc_args *a = NULL;
    tc_tensor *tx = NULL, *to = NULL, *ts = NULL;
    int64_t s8[1] = {8}, s4[1] = {4}, s16[1] = {16};
    tc_status st = tc_context_new(&ctx);
    if (st == TC_OK) st = tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    if (st == TC_OK) st = tc_module_load_string(ctx, "reduce.py", REDUCE_SRC, &m);
    if (st == TC_OK) st = tc_module_kernel(m, "k", &k);
    if (st == TC_OK) st = tc_tensor_from_host(ctx, TC_FP32, 1, s8, x, &tx);
    if (st == TC_OK) st = tc_tensor_new(ctx, TC_FP32, 1, s4, &to);
    if (st == TC_OK) st = tc_tensor_new(ctx, TC_FP32, 1, s16, &ts);
    if (st == TC_OK) st = tc_args_new(k, &a);
    if (st == TC_OK) st = tc_args_set(a, "x_ptr", tc_tens(tx));
    if (st == TC_OK) st = tc_args_set(a, "out_ptr", tc_tens(to));
    if (st == TC_OK) st = tc_args_set(a, "scan_ptr", tc_tens(ts));
    if (st == TC_OK) st = tc_args_set(a, "N", tc_int(8));
    if (st == TC_OK) {
        tc_launch_opts o = tc_launch_defaults();
        o.grid[0] = 1;
        st = tc_launch(k, a, &o);
    }
    if (st != TC_OK) test_fail(__FILE__, __LINE__, "launch: %s", ctx ? tc_errmsg(ctx) : "no context");
    CHECK_INT(TC_OK, st);
    if (st == TC_OK) {
        tc_tensor_to_host(to, out, sizeof out);
        tc_tensor_to_host(ts, scan, sizeof scan);
        CHECK(out[0] == 15.5f);
        CHECK(out[1] == 4.0f);
        CHECK(out[2] == 3.0f);                 /* first index of the maximum */
        CHECK(out[3] == 15.5f);
        const float csum[8] = {1, 3, 2, 6, 6.5f, 9.5f, 13.5f, 15.5f};
        const float cprod_rev[8] = {-96, -96, -48, 48, 12, 24, 8, 2};
        for (int i = 0; i < 8; i++) CHECK(scan[i] == csum[i]);
        for (int i = 0; i < 8; i++) CHECK(scan[8 + i] == cprod_rev[i]);
    }
    if (a) tc_args_free(a);
    if (tx) tc_tensor_free(tx);
    if (to) tc_tensor_free(to);
    if (ts) tc_tensor_free(ts);
    if (m) tc_module_free(m);
    if (ctx) tc_context_free(ctx);
}

/* Every builtin has one entry in one family table, with a parameter list and a handler. */
TEST(sem_builtin_tables) {
    const Builtin *tabs[] = {sem_builtins_memory, sem_builtins_math, sem_builtins_reduce,
                             sem_builtins_shape, sem_builtins_program};
    int n = 0;
    for (int i = 0; i < COUNT_OF(tabs); i++)
        for (const Builtin *b = tabs[i]; b->name; b++) {
            CHECK(b->params != NULL && b->fn != NULL);
            n++;
            for (int j = 0; j <= i; j++)
                for (const Builtin *o = tabs[j]; o->name && (j < i || o < b); o++)
                    if (strcmp(o->name, b->name) == 0) test_fail(__FILE__, __LINE__, "builtin %s twice", b->name);
        }
    CHECK_INT(95, n);   /* the tl.* names tritonc implements (make_block_ptr and advance: 95) */
}
