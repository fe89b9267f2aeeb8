/* eval.h — the constexpr evaluator: Python's operators and int()/float() on compile-time
 * values (CVal), needing nothing but an arena and an error record. The tracer folds
 * constexpr expressions with it; any other stage that evaluates Python on constants (a
 * grid expression, a heuristic) can call it the same way.
 *
 * The numeric model is Python's with a width: ints are exact within [-2^63, 2^64) (int64,
 * or uint64 flagged `big`), computed in 128 bits, and a result beyond that is an error
 * (TC_ERR_LIMIT), never a wrapped value; // and % floor as Python's do, for ints and floats;
 * bool is an int; strings and tuples support + and * (at most MAX_CONST_STRING characters,
 * MAX_TUPLE_ITEMS items).
 *
 * Contract: every eval_* function that can fail returns true with *out set, or false with
 * cx->err set (code, message, location loc) and *out untouched. It never longjmps itself;
 * only allocation from cx->arena can, as every arena allocation does (out of memory or past
 * the arena's limit: err_fail through cx->arena->err). Numbers never allocate; + and * on
 * strings and tuples do. Messages are Python's, with its exception name where the tracer
 * has always printed one ("ZeroDivisionError: integer division or modulo by zero"). */
#ifndef EVAL_H
#define EVAL_H

#include "front/ast.h"

typedef struct EvalCtx {
    Arena *arena;   /* where new strings and tuples go */
    Err *err;       /* where an error is recorded */
} EvalCtx;

/* The longest sequence + and * may build: strings 2^20 characters, tuples 2^16 items (each
 * item is a whole value, and printing formats every one). */
#define MAX_TUPLE_ITEMS ((size_t)1 << 16)
#define MAX_CONST_STRING ((size_t)1 << 20)

static inline bool cv_is_intlike(const CVal *c) { return c->kind == CV_INT || c->kind == CV_BOOL; }
static inline bool cv_is_num(const CVal *c) { return cv_is_intlike(c) || c->kind == CV_FLOAT; }
/* A number as a double (ints rounded to nearest). */
static inline double cv_to_double(const CVal *c) {
    if (c->kind == CV_FLOAT) return c->v.f;
    return c->big ? (double)c->v.u : (double)c->v.i;
}

/* Python's type(x).__name__: "int", "bool", "float", "str", "NoneType", "tuple", "dtype". */
const char *eval_type_name(const CVal *c);
/* bool(x). */
bool eval_truthy(const CVal *c);

/* a op b for a binary operator (PY_ADD ... PY_BITOR). */
bool eval_binop(EvalCtx *cx, PyOp op, const CVal *a, const CVal *b, SrcLoc loc, CVal *out);
/* op a for PY_UADD, PY_USUB, PY_INVERT, PY_NOT. */
bool eval_unary(EvalCtx *cx, PyOp op, const CVal *a, SrcLoc loc, CVal *out);
/* a op b for a comparison (PY_EQ ... PY_NOT_IN); *out is a bool. A NaN compares false. */
bool eval_compare(EvalCtx *cx, PyOp op, const CVal *a, const CVal *b, SrcLoc loc, CVal *out);
/* The order of a and b as < and > see it: *order is -1, 0 or 1, or 2 when unordered (a NaN).
 * op only names the comparison in the TypeError for values with no order. */
bool eval_order(EvalCtx *cx, PyOp op, const CVal *a, const CVal *b, SrcLoc loc, int *order);
/* int(x) of a number or a decimal string, float(x) of a number or a string. */
bool eval_int(EvalCtx *cx, const CVal *x, SrcLoc loc, CVal *out);
bool eval_float(EvalCtx *cx, const CVal *x, SrcLoc loc, CVal *out);

#endif
