/* test_eval.c — the constexpr evaluator (eval.c) called as any stage would: an arena, an
 * Err with no jump buffer, return codes. Expected values are Python's (3.x) results for the
 * same expressions, worked out from the language's definitions (floor division rounds toward
 * -inf, % takes the divisor's sign, ints are exact), not from this code; where Python's int
 * would grow past 64 bits the evaluator must refuse (TC_ERR_LIMIT) instead. */
#include "test.h"
#include "trace/eval.h"

typedef struct EV { Arena arena; Err err; EvalCtx cx; CVal r; } EV;

static void ev_init(EV *x) {
    memset(x, 0, sizeof *x);
    arena_init(&x->arena, &x->err);
    x->cx.arena = &x->arena;
    x->cx.err = &x->err;
}

static CVal I(int64_t v) { return cv_int(v); }
static CVal U(uint64_t v) {   /* an int in [2^63, 2^64) */
    CVal c = cv_int(0);
    c.big = true;
    c.v.u = v;
    return c;
}

/* a op b; false (and the message in x->err) on a Python error */
static bool bin(EV *x, PyOp op, CVal a, CVal b) {
    x->err.code = TC_OK;
    x->err.msg[0] = 0;
    return eval_binop(&x->cx, op, &a, &b, (SrcLoc){0}, &x->r);
}
static bool un(EV *x, PyOp op, CVal a) {
    x->err.code = TC_OK;
    return eval_unary(&x->cx, op, &a, (SrcLoc){0}, &x->r);
}
static bool cmp(EV *x, PyOp op, CVal a, CVal b) {
    x->err.code = TC_OK;
    return eval_compare(&x->cx, op, &a, &b, (SrcLoc){0}, &x->r);
}

#define CHECK_I(x, expected)                                              \
    do { CHECK_INT(CV_INT, (x)->r.kind); CHECK(!(x)->r.big);               \
         CHECK_INT((expected), (x)->r.v.i); } while (0)
#define CHECK_F(x, expected)                                              \
    do { CHECK_INT(CV_FLOAT, (x)->r.kind); CHECK_NEAR((expected), (x)->r.v.f, 0, 0); } while (0)
#define CHECK_B(x, expected)                                              \
    do { CHECK_INT(CV_BOOL, (x)->r.kind); CHECK_INT((expected), (x)->r.v.i); } while (0)

TEST(eval_floor_division_and_modulo) {
    EV x;
    ev_init(&x);
    CHECK(bin(&x, PY_FLOORDIV, I(7), I(-2)));  CHECK_I(&x, -4);
    CHECK(bin(&x, PY_FLOORDIV, I(-7), I(2)));  CHECK_I(&x, -4);
    CHECK(bin(&x, PY_FLOORDIV, I(-7), I(-2))); CHECK_I(&x, 3);
    CHECK(bin(&x, PY_FLOORDIV, I(7), I(2)));   CHECK_I(&x, 3);
    CHECK(bin(&x, PY_MOD, I(-7), I(3)));       CHECK_I(&x, 2);
    CHECK(bin(&x, PY_MOD, I(7), I(-3)));       CHECK_I(&x, -2);
    CHECK(bin(&x, PY_MOD, I(-7), I(-3)));      CHECK_I(&x, -1);
    CHECK(bin(&x, PY_MOD, I(7), I(3)));        CHECK_I(&x, 1);
    CHECK(bin(&x, PY_DIV, I(7), I(2)));        CHECK_F(&x, 3.5);
    CHECK(bin(&x, PY_DIV, I(-1), I(4)));       CHECK_F(&x, -0.25);
    /* -2**63 // -1 is 2**63: past int64, still within the width */
    CHECK(bin(&x, PY_FLOORDIV, I(INT64_MIN), I(-1)));
    CHECK(x.r.big && x.r.v.u == (1ULL << 63));
    /* floats floor too */
    CHECK(bin(&x, PY_FLOORDIV, cv_float(7.5), I(2)));        CHECK_F(&x, 3.0);
    CHECK(bin(&x, PY_FLOORDIV, cv_float(-7.5), I(2)));       CHECK_F(&x, -4.0);
    CHECK(bin(&x, PY_MOD, cv_float(-7.5), I(2)));            CHECK_F(&x, 0.5);
    CHECK(bin(&x, PY_MOD, cv_float(7.5), I(-2)));            CHECK_F(&x, -0.5);
    CHECK(bin(&x, PY_FLOORDIV, I(6), cv_float(4.0)));        CHECK_F(&x, 1.0);
    CHECK(bin(&x, PY_MOD, cv_float(0.0), cv_float(-1.0)));   CHECK_F(&x, 0.0);
    CHECK(signbit(x.r.v.f));                                 /* 0.0 % -1.0 is -0.0 */
    /* ZeroDivisionError in all its forms */
    CHECK(!bin(&x, PY_FLOORDIV, I(5), I(0)));
    CHECK_INT(TC_ERR_COMPILE, x.err.code);
    CHECK_CONTAINS(x.err.msg, "ZeroDivisionError: integer division or modulo by zero");
    CHECK(!bin(&x, PY_MOD, I(5), cv_bool(false)));
    CHECK_CONTAINS(x.err.msg, "integer division or modulo by zero");
    CHECK(!bin(&x, PY_DIV, I(1), I(0)));
    CHECK_CONTAINS(x.err.msg, "ZeroDivisionError: division by zero");
    CHECK(!bin(&x, PY_FLOORDIV, cv_float(1.0), cv_float(0.0)));
    CHECK_CONTAINS(x.err.msg, "ZeroDivisionError: float floor division by zero");
    CHECK(!bin(&x, PY_MOD, cv_float(1.0), I(0)));
    CHECK_CONTAINS(x.err.msg, "ZeroDivisionError: float modulo by zero");
    arena_free(&x.arena);
}

TEST(eval_int_width) {
    EV x;
    ev_init(&x);
    /* 2**62 * 2 == 2**63 needs 64 unsigned bits: kept (uint64, flagged big) */
    CHECK(bin(&x, PY_MUL, I(1LL << 62), I(2)));
    CHECK(x.r.big && x.r.v.u == (1ULL << 63));
    /* 2**62 * 4 == 2**64 does not fit: an error, never a wrapped 0 */
    CHECK(!bin(&x, PY_MUL, I(1LL << 62), I(4)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK_CONTAINS(x.err.msg, "beyond 64 bits");
    CHECK(bin(&x, PY_ADD, I(INT64_MAX), I(1)));
    CHECK(x.r.big && x.r.v.u == (1ULL << 63));
    CHECK(!bin(&x, PY_ADD, U(UINT64_MAX), I(1)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(!bin(&x, PY_SUB, I(INT64_MIN), I(1)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(bin(&x, PY_SUB, U(1ULL << 63), I(1)));   CHECK_I(&x, INT64_MAX);
    CHECK(bin(&x, PY_MUL, I(-3), I(-5)));          CHECK_I(&x, 15);
    /* powers */
    CHECK(bin(&x, PY_POW, I(2), I(63)));
    CHECK(x.r.big && x.r.v.u == (1ULL << 63));
    CHECK(!bin(&x, PY_POW, I(2), I(64)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(bin(&x, PY_POW, I(-2), I(63)));          CHECK_I(&x, INT64_MIN);
    CHECK(!bin(&x, PY_POW, I(-2), I(64)));
    CHECK(bin(&x, PY_POW, I(3), I(40)));           /* 12157665459056928801 */
    CHECK(x.r.big && x.r.v.u == 12157665459056928801ULL);
    CHECK(!bin(&x, PY_POW, I(3), I(41)));
    CHECK(!bin(&x, PY_POW, U(UINT64_MAX), I(3)));  /* past 128 bits on the way: refused */
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(bin(&x, PY_POW, I(-1), I(1000001)));     CHECK_I(&x, -1);
    CHECK(bin(&x, PY_POW, I(0), I(0)));            CHECK_I(&x, 1);
    CHECK(bin(&x, PY_POW, I(7), I(0)));            CHECK_I(&x, 1);
    CHECK(bin(&x, PY_POW, I(0), U(UINT64_MAX)));   CHECK_I(&x, 0);
    CHECK(bin(&x, PY_POW, I(2), I(-1)));           CHECK_F(&x, 0.5);
    CHECK(bin(&x, PY_POW, I(-2), I(-2)));          CHECK_F(&x, 0.25);
    CHECK(!bin(&x, PY_POW, I(0), I(-1)));
    CHECK_INT(TC_ERR_COMPILE, x.err.code);
    CHECK_CONTAINS(x.err.msg, "ZeroDivisionError: 0.0 cannot be raised to a negative power");
    CHECK(!bin(&x, PY_POW, cv_float(0.0), I(-1)));
    CHECK_CONTAINS(x.err.msg, "ZeroDivisionError");
    /* shifts */
    CHECK(!bin(&x, PY_LSHIFT, I(1), I(64)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(bin(&x, PY_LSHIFT, I(1), I(63)));
    CHECK(x.r.big && x.r.v.u == (1ULL << 63));
    CHECK(bin(&x, PY_LSHIFT, I(-1), I(63)));       CHECK_I(&x, INT64_MIN);
    CHECK(!bin(&x, PY_LSHIFT, I(-1), I(64)));
    CHECK(bin(&x, PY_LSHIFT, I(0), I(1000)));      CHECK_I(&x, 0);
    CHECK(bin(&x, PY_LSHIFT, I(3), I(4)));         CHECK_I(&x, 48);
    CHECK(!bin(&x, PY_LSHIFT, I(1), I(-1)));
    CHECK_INT(TC_ERR_COMPILE, x.err.code);
    CHECK_CONTAINS(x.err.msg, "ValueError: negative shift count");
    CHECK(bin(&x, PY_RSHIFT, I(-8), I(1)));        CHECK_I(&x, -4);
    CHECK(bin(&x, PY_RSHIFT, I(-7), I(1)));        CHECK_I(&x, -4);
    CHECK(bin(&x, PY_RSHIFT, I(-1), I(1000)));     CHECK_I(&x, -1);
    CHECK(bin(&x, PY_RSHIFT, I(5), I(100)));       CHECK_I(&x, 0);
    CHECK(bin(&x, PY_RSHIFT, U(UINT64_MAX), I(63))); CHECK_I(&x, 1);
    CHECK(!bin(&x, PY_RSHIFT, I(1), I(-3)));
    CHECK(bin(&x, PY_BITAND, I(-1), U(UINT64_MAX)));  /* -1 & (2**64-1) == 2**64-1 */
    CHECK(x.r.big && x.r.v.u == UINT64_MAX);
    CHECK(bin(&x, PY_BITXOR, I(6), I(3)));         CHECK_I(&x, 5);
    CHECK(bin(&x, PY_BITOR, I(-8), I(3)));         CHECK_I(&x, -5);
    /* unary operators */
    CHECK(un(&x, PY_USUB, I(INT64_MIN)));
    CHECK(x.r.big && x.r.v.u == (1ULL << 63));
    CHECK(un(&x, PY_USUB, U(1ULL << 63)));         CHECK_I(&x, INT64_MIN);
    CHECK(!un(&x, PY_USUB, U(UINT64_MAX)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(un(&x, PY_INVERT, I(0)));                CHECK_I(&x, -1);
    CHECK(un(&x, PY_INVERT, I(-6)));               CHECK_I(&x, 5);
    CHECK(!un(&x, PY_INVERT, U(UINT64_MAX)));      /* ~(2**64-1) == -2**64 */
    arena_free(&x.arena);
}

TEST(eval_bools_sequences_and_type_errors) {
    EV x;
    ev_init(&x);
    CHECK(bin(&x, PY_ADD, cv_bool(true), cv_bool(true)));   CHECK_I(&x, 2);
    CHECK(bin(&x, PY_BITAND, cv_bool(true), cv_bool(false))); CHECK_B(&x, 0);
    CHECK(bin(&x, PY_BITXOR, cv_bool(true), cv_bool(false))); CHECK_B(&x, 1);
    CHECK(bin(&x, PY_BITOR, cv_bool(true), I(2)));           CHECK_I(&x, 3);
    CHECK(bin(&x, PY_MUL, cv_bool(true), cv_float(2.5)));    CHECK_F(&x, 2.5);
    CHECK(un(&x, PY_USUB, cv_bool(true)));                   CHECK_I(&x, -1);
    CHECK(un(&x, PY_UADD, cv_bool(true)));                   CHECK_I(&x, 1);
    CHECK(un(&x, PY_INVERT, cv_bool(true)));                 CHECK_I(&x, -2);
    CHECK(un(&x, PY_NOT, cv_str("")));                       CHECK_B(&x, 1);
    CHECK(un(&x, PY_NOT, I(3)));                             CHECK_B(&x, 0);
    CHECK(un(&x, PY_USUB, cv_float(0.0)));                   CHECK_F(&x, 0.0);
    CHECK(signbit(x.r.v.f));
    CHECK(!un(&x, PY_INVERT, cv_float(1.5)));
    CHECK_CONTAINS(x.err.msg, "bad operand type for unary ~: 'float'");
    CHECK(!un(&x, PY_USUB, cv_str("a")));
    CHECK_CONTAINS(x.err.msg, "bad operand type for unary -: 'str'");
    /* strings and tuples */
    CHECK(bin(&x, PY_MUL, cv_str("ab"), I(3)));
    CHECK_INT(CV_STR, x.r.kind);
    CHECK_STR("ababab", x.r.v.s);
    CHECK(bin(&x, PY_MUL, I(2), cv_str("xy")));
    CHECK_STR("xyxy", x.r.v.s);
    CHECK(bin(&x, PY_MUL, cv_str("ab"), I(-1)));
    CHECK_STR("", x.r.v.s);
    CHECK(bin(&x, PY_ADD, cv_str("tri"), cv_str("ton")));
    CHECK_STR("triton", x.r.v.s);
    CVal items[3] = {I(1), I(2), I(3)};
    CVal t12 = {.kind = CV_TUPLE, .v.tup = {items, 2}}, t3 = {.kind = CV_TUPLE, .v.tup = {items + 2, 1}};
    CHECK(bin(&x, PY_ADD, t12, t3));
    CHECK_INT(CV_TUPLE, x.r.kind);
    CHECK_INT(3, x.r.v.tup.n);
    CHECK_INT(3, x.r.v.tup.items[2].v.i);
    CHECK(bin(&x, PY_MUL, t12, I(3)));
    CHECK_INT(6, x.r.v.tup.n);
    CHECK_INT(2, x.r.v.tup.items[5].v.i);
    CHECK(!bin(&x, PY_MUL, cv_str("ab"), U(1ULL << 63)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(!bin(&x, PY_ADD, cv_str("a"), I(1)));
    CHECK_INT(TC_ERR_COMPILE, x.err.code);
    CHECK_CONTAINS(x.err.msg, "unsupported operand type(s) for +: 'str' and 'int'");
    CHECK(!bin(&x, PY_ADD, cv_none(), I(1)));
    CHECK_CONTAINS(x.err.msg, "unsupported operand type(s) for +: 'NoneType' and 'int'");
    CHECK(!bin(&x, PY_SUB, t12, t3));
    CHECK_CONTAINS(x.err.msg, "unsupported operand type(s) for -: 'tuple' and 'tuple'");
    CHECK(!bin(&x, PY_LSHIFT, cv_float(1.5), I(1)));
    CHECK_CONTAINS(x.err.msg, "unsupported operand type(s) for <<: 'float' and 'int'");
    arena_free(&x.arena);
}

TEST(eval_comparisons) {
    EV x;
    ev_init(&x);
    CVal items[3] = {I(1), I(2), I(3)}, items2[3] = {I(1), I(2), I(0)};
    CVal t12 = {.kind = CV_TUPLE, .v.tup = {items, 2}}, t13 = {.kind = CV_TUPLE, .v.tup = {items, 3}};
    CVal t120 = {.kind = CV_TUPLE, .v.tup = {items2, 3}};
    CHECK(cmp(&x, PY_LT, I(1), cv_float(2.5)));       CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_EQ, I(2), cv_float(2.0)));       CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_EQ, cv_bool(true), I(1)));       CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_NE, I(2), I(3)));                CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_GT, U(1ULL << 63), I(INT64_MAX))); CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_LT, I(-1), U(UINT64_MAX)));      CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_LT, t12, t13));                  CHECK_B(&x, 1);   /* prefix first */
    CHECK(cmp(&x, PY_LT, t120, t12));                 CHECK_B(&x, 0);   /* (1,2,0) > (1,2) */
    CHECK(cmp(&x, PY_GE, t13, t120));                 CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_LT, cv_str("abc"), cv_str("abd"))); CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_LT, cv_float(NAN), I(1)));       CHECK_B(&x, 0);
    CHECK(cmp(&x, PY_GE, cv_float(NAN), cv_float(NAN))); CHECK_B(&x, 0);
    CHECK(cmp(&x, PY_NE, cv_float(NAN), cv_float(NAN))); CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_IN, cv_str("a"), cv_str("cat"))); CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_IN, I(3), t12));                 CHECK_B(&x, 0);
    CHECK(cmp(&x, PY_NOT_IN, I(3), t12));             CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_IS, cv_none(), cv_none()));      CHECK_B(&x, 1);
    CHECK(cmp(&x, PY_IS, I(1), cv_bool(true)));       CHECK_B(&x, 0);
    CHECK(cmp(&x, PY_IS_NOT, I(1), cv_bool(true)));   CHECK_B(&x, 1);
    CHECK(!cmp(&x, PY_IN, I(1), I(5)));
    CHECK_INT(TC_ERR_COMPILE, x.err.code);
    CHECK_CONTAINS(x.err.msg, "argument of type 'int' is not iterable");
    CHECK(!cmp(&x, PY_LT, I(1), cv_str("a")));
    CHECK_CONTAINS(x.err.msg, "'<' not supported between instances of 'int' and 'str'");
    CHECK(!cmp(&x, PY_GE, cv_none(), cv_none()));
    CHECK_CONTAINS(x.err.msg, "'>=' not supported between instances of 'NoneType' and 'NoneType'");
    int order = 9;
    CHECK(eval_order(&x.cx, PY_LT, &items[2], &items[0], (SrcLoc){0}, &order));
    CHECK_INT(1, order);
    CVal nan = cv_float(NAN);
    CHECK(eval_order(&x.cx, PY_LT, &nan, &items[0], (SrcLoc){0}, &order));
    CHECK_INT(2, order);
    arena_free(&x.arena);
}

TEST(eval_conversions_and_truth) {
    EV x;
    ev_init(&x);
    CVal c;
#define INT_OF(v) (c = (v), x.err.code = TC_OK, eval_int(&x.cx, &c, (SrcLoc){0}, &x.r))
#define FLOAT_OF(v) (c = (v), x.err.code = TC_OK, eval_float(&x.cx, &c, (SrcLoc){0}, &x.r))
    CHECK(INT_OF(cv_float(3.7)));        CHECK_I(&x, 3);
    CHECK(INT_OF(cv_float(-3.7)));       CHECK_I(&x, -3);
    CHECK(INT_OF(cv_bool(true)));        CHECK_I(&x, 1);
    CHECK(INT_OF(cv_str("42")));         CHECK_I(&x, 42);
    CHECK(INT_OF(cv_str("-17 ")));       CHECK_I(&x, -17);
    CHECK(INT_OF(cv_float(1e19)));       /* 10000000000000000000 */
    CHECK(x.r.big && x.r.v.u == 10000000000000000000ULL);
    CHECK(INT_OF(cv_float(-9223372036854775808.0))); CHECK_I(&x, INT64_MIN);
    CHECK(!INT_OF(cv_float(2e19)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(!INT_OF(cv_float(-9.25e18)));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(INT_OF(cv_str("18446744073709551615")));
    CHECK(x.r.big && x.r.v.u == UINT64_MAX);
    CHECK(!INT_OF(cv_str("18446744073709551616")));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(!INT_OF(cv_str("-9223372036854775809")));
    CHECK_INT(TC_ERR_LIMIT, x.err.code);
    CHECK(!INT_OF(cv_str("4x")));
    CHECK_CONTAINS(x.err.msg, "invalid literal for int() with base 10: '4x'");
    CHECK(!INT_OF(cv_float(NAN)));
    CHECK_CONTAINS(x.err.msg, "cannot convert float NaN to integer");
    CHECK(!INT_OF(cv_float(-INFINITY)));
    CHECK_CONTAINS(x.err.msg, "cannot convert float infinity to integer");
    CHECK(!INT_OF(cv_none()));
    CHECK_CONTAINS(x.err.msg, "int() argument must be a string or a number, not 'NoneType'");
    CHECK(FLOAT_OF(I(3)));               CHECK_F(&x, 3.0);
    CHECK(FLOAT_OF(cv_str(" 1.5")));     CHECK_F(&x, 1.5);
    CHECK(FLOAT_OF(cv_str("-Infinity"))); CHECK(isinf(x.r.v.f) && x.r.v.f < 0);
    CHECK(FLOAT_OF(U(1ULL << 63)));      CHECK_F(&x, 9223372036854775808.0);
    CHECK(!FLOAT_OF(cv_str("x")));
    CHECK_CONTAINS(x.err.msg, "could not convert string to float: 'x'");
#undef INT_OF
#undef FLOAT_OF
    CHECK(!eval_truthy(&(CVal){.kind = CV_NONE}));
    CHECK(!eval_truthy(&(CVal){.kind = CV_FLOAT, .v.f = 0.0}));
    CHECK(!eval_truthy(&(CVal){.kind = CV_TUPLE}));
    CHECK(!eval_truthy(&(CVal){.kind = CV_STR, .v.s = ""}));
    CHECK(eval_truthy(&(CVal){.kind = CV_STR, .v.s = "0"}));
    CHECK(eval_truthy(&(CVal){.kind = CV_DTYPE, .dtype = DT_FP32}));
    CVal big = U(1ULL << 63);
    CHECK(eval_truthy(&big));
    CHECK_STR("NoneType", eval_type_name(&(CVal){.kind = CV_NONE}));
    CHECK_STR("bool", eval_type_name(&(CVal){.kind = CV_BOOL}));
    CHECK_STR("tuple", eval_type_name(&(CVal){.kind = CV_TUPLE}));
    arena_free(&x.arena);
}
