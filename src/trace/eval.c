/* eval.c — the constexpr evaluator (eval.h): Python's binary, unary and comparison
 * operators, truthiness and int()/float() on CVals. Ints are 64-bit operands (int64, or
 * uint64 flagged `big`) computed in 128 bits (a GCC/Clang extension) and checked against
 * that range, so no operation wraps or overflows a C type. Errors are recorded in cx->err
 * and reported by returning false; see eval.h for the contract. */
#include "trace/eval.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

__extension__ typedef __int128 i128;

TC_PRINTF(4, 5) static bool fail(EvalCtx *cx, tc_status code, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_setv(cx->err, code, loc, fmt, ap);
    va_end(ap);
    return false;
}

static bool out_of_range(EvalCtx *cx, SrcLoc loc) {
    return fail(cx, TC_ERR_LIMIT, loc,
                "integer constant out of range: constexpr arithmetic beyond 64 bits is not "
                "supported");
}

static i128 to_i128(const CVal *c) { return c->big ? (i128)c->v.u : (i128)c->v.i; }

/* x as a Python int: int64, or uint64 flagged big; beyond that an error. */
static bool from_i128(EvalCtx *cx, i128 x, SrcLoc loc, CVal *out) {
    if (x >= INT64_MIN && x <= INT64_MAX) {
        *out = cv_int((int64_t)x);
        return true;
    }
    if (x > 0 && x <= (i128)UINT64_MAX) {
        *out = cv_int(0);
        out->big = true;
        out->v.u = (uint64_t)x;
        return true;
    }
    return out_of_range(cx, loc);
}

const char *eval_type_name(const CVal *c) {
    switch (c->kind) {
    case CV_NONE: return "NoneType";
    case CV_BOOL: return "bool";
    case CV_INT: return "int";
    case CV_FLOAT: return "float";
    case CV_STR: return "str";
    case CV_DTYPE: return "dtype";
    case CV_TUPLE: return "tuple";
    }
    return "constexpr";
}

bool eval_truthy(const CVal *c) {
    switch (c->kind) {
    case CV_NONE: return false;
    case CV_BOOL: case CV_INT: return c->big ? true : c->v.i != 0;
    case CV_FLOAT: return c->v.f != 0;
    case CV_STR: return c->v.s[0] != 0;
    case CV_TUPLE: return c->v.tup.n > 0;
    default: return true;
    }
}

static bool type_err(EvalCtx *cx, SrcLoc loc, PyOp op, const CVal *a, const CVal *b) {
    return fail(cx, TC_ERR_COMPILE, loc, "unsupported operand type(s) for %s: '%s' and '%s'",
                py_op_str(op), eval_type_name(a), eval_type_name(b));
}

/* Python's float floor division (float_floor_div in CPython), the remainder in *modp. */
static double py_floordiv_f(double vx, double wx, double *modp) {
    double mod = fmod(vx, wx), div = (vx - mod) / wx, fd;
    if (mod != 0) {
        if ((wx < 0) != (mod < 0)) { mod += wx; div -= 1.0; }
    } else {
        mod = copysign(0.0, wx);
    }
    if (div != 0) {
        fd = floor(div);
        if (div - fd > 0.5) fd += 1.0;
    } else {
        fd = copysign(0.0, vx / wx);
    }
    if (modp) *modp = mod;
    return fd;
}

/* ---- comparisons ----------------------------------------------------------------------- */

bool eval_order(EvalCtx *cx, PyOp op, const CVal *a, const CVal *b, SrcLoc loc, int *order) {
    if (cv_is_num(a) && cv_is_num(b)) {
        if (a->kind != CV_FLOAT && b->kind != CV_FLOAT) {
            i128 x = to_i128(a), y = to_i128(b);
            *order = x < y ? -1 : x > y ? 1 : 0;
            return true;
        }
        double x = cv_to_double(a), y = cv_to_double(b);
        *order = isnan(x) || isnan(y) ? 2 : x < y ? -1 : x > y ? 1 : 0;
        return true;
    }
    if (a->kind == CV_STR && b->kind == CV_STR) {
        int r = strcmp(a->v.s, b->v.s);
        *order = r < 0 ? -1 : r > 0;
        return true;
    }
    if (a->kind == CV_TUPLE && b->kind == CV_TUPLE) {
        int n = a->v.tup.n < b->v.tup.n ? a->v.tup.n : b->v.tup.n;
        for (int i = 0; i < n; i++) {
            if (cv_eq(&a->v.tup.items[i], &b->v.tup.items[i])) continue;
            return eval_order(cx, op, &a->v.tup.items[i], &b->v.tup.items[i], loc, order);
        }
        *order = a->v.tup.n < b->v.tup.n ? -1 : a->v.tup.n > b->v.tup.n;
        return true;
    }
    return fail(cx, TC_ERR_COMPILE, loc, "'%s' not supported between instances of '%s' and '%s'",
                py_op_str(op), eval_type_name(a), eval_type_name(b));
}

bool eval_compare(EvalCtx *cx, PyOp op, const CVal *a, const CVal *b, SrcLoc loc, CVal *out) {
    switch (op) {
    case PY_EQ: *out = cv_bool(cv_eq(a, b)); return true;
    case PY_NE: *out = cv_bool(!cv_eq(a, b)); return true;
    case PY_IS: case PY_IS_NOT: {
        bool same = a->kind == b->kind && cv_eq(a, b);
        *out = cv_bool(op == PY_IS_NOT ? !same : same);
        return true;
    }
    case PY_IN: case PY_NOT_IN: {
        bool found = false;
        if (b->kind == CV_TUPLE) {
            for (int i = 0; i < b->v.tup.n; i++)
                if (cv_eq(a, &b->v.tup.items[i])) found = true;
        } else if (b->kind == CV_STR && a->kind == CV_STR) {
            found = strstr(b->v.s, a->v.s) != NULL;
        } else {
            return fail(cx, TC_ERR_COMPILE, loc, "argument of type '%s' is not iterable",
                        eval_type_name(b));
        }
        *out = cv_bool(op == PY_IN ? found : !found);
        return true;
    }
    case PY_LT: case PY_LE: case PY_GT: case PY_GE: {
        int r;
        if (!eval_order(cx, op, a, b, loc, &r)) return false;
        *out = cv_bool(r != 2 && (op == PY_LT ? r < 0 : op == PY_LE ? r <= 0
                                  : op == PY_GT ? r > 0 : r >= 0));
        return true;
    }
    default:
        return fail(cx, TC_ERR_INTERNAL, loc, "'%s' is not a comparison", py_op_str(op));
    }
}

/* ---- binary operators ------------------------------------------------------------------ */

static size_t seq_limit(const CVal *seq) {
    return seq->kind == CV_TUPLE ? MAX_TUPLE_ITEMS : MAX_CONST_STRING;
}

static CVal concat_tuples(EvalCtx *cx, const CVal *a, const CVal *b) {
    CVal c = {0};
    c.kind = CV_TUPLE;
    int n = a->v.tup.n + b->v.tup.n;
    c.v.tup.n = n;
    c.v.tup.items = arena_alloc(cx->arena, sizeof(CVal) * (size_t)(n ? n : 1));
    for (int i = 0; i < a->v.tup.n; i++) c.v.tup.items[i] = a->v.tup.items[i];
    for (int i = 0; i < b->v.tup.n; i++) c.v.tup.items[a->v.tup.n + i] = b->v.tup.items[i];
    return c;
}

/* + and * where a string or a tuple is involved. */
static bool seq_binop(EvalCtx *cx, PyOp op, const CVal *a, const CVal *b, SrcLoc loc, CVal *out) {
    if (op == PY_ADD && a->kind == b->kind) {
        /* the same bound as repetition below: doubling in a static_range must not run the
         * host out of memory */
        size_t na = a->kind == CV_TUPLE ? (size_t)a->v.tup.n : strlen(a->v.s);
        size_t nb = b->kind == CV_TUPLE ? (size_t)b->v.tup.n : strlen(b->v.s);
        if (na + nb > seq_limit(a))
            return fail(cx, TC_ERR_LIMIT, loc, "constexpr %s longer than %s",
                        a->kind == CV_TUPLE ? "tuple" : "string",
                        a->kind == CV_TUPLE ? "2^16 items" : "2^20 characters");
        if (a->kind == CV_TUPLE) *out = concat_tuples(cx, a, b);
        else *out = cv_str(arena_printf(cx->arena, "%s%s", a->v.s, b->v.s));
        return true;
    }
    if (op != PY_MUL || (!cv_is_intlike(a) && !cv_is_intlike(b))) return type_err(cx, loc, op, a, b);
    const CVal *seq = cv_is_intlike(a) ? b : a, *k = cv_is_intlike(a) ? a : b;
    if (seq->kind != CV_TUPLE && seq->kind != CV_STR) return type_err(cx, loc, op, a, b);
    int64_t reps = k->big ? 1 << 20 : k->v.i;
    if (reps < 0) reps = 0;
    size_t unit = seq->kind == CV_TUPLE ? (size_t)seq->v.tup.n : strlen(seq->v.s);
    if (unit && (uint64_t)reps > (uint64_t)seq_limit(seq) / unit)
        return fail(cx, TC_ERR_LIMIT, loc, "constexpr %s repetition longer than %s",
                    seq->kind == CV_TUPLE ? "tuple" : "string",
                    seq->kind == CV_TUPLE ? "2^16 items" : "2^20 characters");
    if (unit == 0) reps = 0;  /* "" * 10**9 is "" (and must not loop 10**9 times) */
    if (seq->kind == CV_STR) {
        char *s = arena_alloc(cx->arena, unit * (size_t)reps + 1);
        for (int64_t i = 0; i < reps; i++) memcpy(s + unit * (size_t)i, seq->v.s, unit);
        *out = cv_str(s);
        return true;
    }
    CVal c = {0};
    c.kind = CV_TUPLE;
    c.v.tup.n = (int)(unit * (size_t)reps);
    c.v.tup.items = arena_alloc(cx->arena, sizeof(CVal) * (size_t)(c.v.tup.n + 1));
    for (int i = 0; i < c.v.tup.n; i++) c.v.tup.items[i] = seq->v.tup.items[i % (int)unit];
    *out = c;
    return true;
}

static bool float_binop(EvalCtx *cx, PyOp op, const CVal *a, const CVal *b, SrcLoc loc,
                        CVal *out) {
    double x = cv_to_double(a), y = cv_to_double(b);
    switch (op) {
    case PY_ADD: *out = cv_float(x + y); return true;
    case PY_SUB: *out = cv_float(x - y); return true;
    case PY_MUL: *out = cv_float(x * y); return true;
    case PY_FLOORDIV: case PY_MOD: {
        if (y == 0)
            return fail(cx, TC_ERR_COMPILE, loc, "ZeroDivisionError: float %s by zero",
                        op == PY_FLOORDIV ? "floor division" : "modulo");
        double m, q = py_floordiv_f(x, y, &m);
        *out = cv_float(op == PY_FLOORDIV ? q : m);
        return true;
    }
    case PY_POW:
        if (x == 0 && y < 0)
            return fail(cx, TC_ERR_COMPILE, loc,
                        "ZeroDivisionError: 0.0 cannot be raised to a negative power");
        *out = cv_float(pow(x, y));
        return true;
    default: return type_err(cx, loc, op, a, b);
    }
}

/* x ** y for y >= 0, exact or out of range */
static bool int_pow(EvalCtx *cx, i128 x, i128 y, SrcLoc loc, CVal *out) {
    if (x == 0 || x == 1) return from_i128(cx, y == 0 ? 1 : x, loc, out);
    if (x == -1) return from_i128(cx, y % 2 ? -1 : 1, loc, out);
    /* |r| stays within 2^70 (past 64 bits already), so r * x never leaves 128 bits */
    const i128 lim = (i128)1 << 70;
    i128 ax = x < 0 ? -x : x, r = 1;
    for (i128 i = 0; i < y; i++) {
        if ((r < 0 ? -r : r) > lim / ax) return out_of_range(cx, loc);
        r *= x;
    }
    return from_i128(cx, r, loc, out);
}

bool eval_binop(EvalCtx *cx, PyOp op, const CVal *a, const CVal *b, SrcLoc loc, CVal *out) {
    if (a->kind == CV_TUPLE || b->kind == CV_TUPLE || a->kind == CV_STR || b->kind == CV_STR)
        return seq_binop(cx, op, a, b, loc, out);
    if (!cv_is_num(a) || !cv_is_num(b)) return type_err(cx, loc, op, a, b);
    if (op == PY_DIV) {
        if (cv_to_double(b) == 0)
            return fail(cx, TC_ERR_COMPILE, loc, "ZeroDivisionError: division by zero");
        *out = cv_float(cv_to_double(a) / cv_to_double(b));
        return true;
    }
    if (a->kind == CV_FLOAT || b->kind == CV_FLOAT) return float_binop(cx, op, a, b, loc, out);
    bool bothbool = a->kind == CV_BOOL && b->kind == CV_BOOL;
    /* operands below 2^64 in magnitude: +, -, and * checked against 2^100 fit in 128 bits */
    i128 x = to_i128(a), y = to_i128(b), r;
    switch (op) {
    case PY_ADD: r = x + y; break;
    case PY_SUB: r = x - y; break;
    case PY_MUL: {
        i128 ax = x < 0 ? -x : x, lim = (i128)1 << 100;
        if (x != 0 && (y > lim / ax || y < -(lim / ax))) return out_of_range(cx, loc);
        r = x * y;
        break;
    }
    case PY_FLOORDIV: case PY_MOD: {
        if (y == 0)
            return fail(cx, TC_ERR_COMPILE, loc,
                        "ZeroDivisionError: integer division or modulo by zero");
        i128 q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) { q -= 1; m += y; }
        r = op == PY_FLOORDIV ? q : m;
        break;
    }
    case PY_POW:
        if (y >= 0) return int_pow(cx, x, y, loc, out);
        if (x == 0)
            return fail(cx, TC_ERR_COMPILE, loc,
                        "ZeroDivisionError: 0.0 cannot be raised to a negative power");
        *out = cv_float(pow((double)x, (double)y));
        return true;
    case PY_LSHIFT:
        if (y < 0) return fail(cx, TC_ERR_COMPILE, loc, "ValueError: negative shift count");
        if (x == 0) { r = 0; break; }  /* Python: 0 << n == 0 for any n */
        if (y >= 64) return out_of_range(cx, loc);
        r = x * ((i128)1 << (int)y);
        break;
    case PY_RSHIFT:
        if (y < 0) return fail(cx, TC_ERR_COMPILE, loc, "ValueError: negative shift count");
        r = y >= 100 ? (x < 0 ? -1 : 0) : (x >> (int)y);
        break;
    case PY_BITAND: r = x & y; break;
    case PY_BITOR: r = x | y; break;
    case PY_BITXOR: r = x ^ y; break;
    default: return type_err(cx, loc, op, a, b);
    }
    if (bothbool && (op == PY_BITAND || op == PY_BITOR || op == PY_BITXOR)) {
        *out = cv_bool(r != 0);
        return true;
    }
    return from_i128(cx, r, loc, out);
}

/* ---- unary operators, int(), float() ----------------------------------------------------- */

bool eval_unary(EvalCtx *cx, PyOp op, const CVal *a, SrcLoc loc, CVal *out) {
    if (op == PY_NOT) {
        *out = cv_bool(!eval_truthy(a));
        return true;
    }
    if (!cv_is_num(a))
        return fail(cx, TC_ERR_COMPILE, loc, "bad operand type for unary %s: '%s'", py_op_str(op),
                    eval_type_name(a));
    switch (op) {
    case PY_UADD:
        *out = a->kind == CV_BOOL ? cv_int(a->v.i) : *a;
        return true;
    case PY_USUB:
        if (a->kind == CV_FLOAT) {
            *out = cv_float(-a->v.f);
            return true;
        }
        return from_i128(cx, -to_i128(a), loc, out);
    case PY_INVERT:
        if (a->kind == CV_FLOAT)
            return fail(cx, TC_ERR_COMPILE, loc, "bad operand type for unary ~: 'float'");
        return from_i128(cx, ~to_i128(a), loc, out);
    default:
        return fail(cx, TC_ERR_INTERNAL, loc, "unknown unary operator %s", py_op_str(op));
    }
}

bool eval_int(EvalCtx *cx, const CVal *c, SrcLoc loc, CVal *out) {
    if (c->kind == CV_INT) { *out = *c; return true; }
    if (c->kind == CV_BOOL) { *out = cv_int(c->v.i); return true; }
    if (c->kind == CV_FLOAT) {
        if (isnan(c->v.f) || isinf(c->v.f))
            return fail(cx, TC_ERR_COMPILE, loc, "cannot convert float %s to integer",
                        isnan(c->v.f) ? "NaN" : "infinity");
        double tr = trunc(c->v.f);
        /* 2^64 and -2^63 are exact doubles: every tr strictly between converts exactly */
        if (tr >= 18446744073709551616.0 || tr < -9223372036854775808.0)
            return fail(cx, TC_ERR_LIMIT, loc, "integer constant out of 64-bit range");
        if (tr >= 9223372036854775808.0) {
            *out = cv_int(0);
            out->big = true;
            out->v.u = (uint64_t)tr;
        } else {
            *out = cv_int((int64_t)tr);
        }
        return true;
    }
    if (c->kind == CV_STR) {
        char *end;
        errno = 0;
        long long x = strtoll(c->v.s, &end, 10);
        bool range = errno == ERANGE;
        while (*end == ' ') end++;
        if (!*c->v.s || *end)
            return fail(cx, TC_ERR_COMPILE, loc, "invalid literal for int() with base 10: '%s'",
                        c->v.s);
        if (range) {
            errno = 0;
            unsigned long long u = x > 0 ? strtoull(c->v.s, NULL, 10) : 0;
            if (x < 0 || errno == ERANGE)
                return fail(cx, TC_ERR_LIMIT, loc, "integer constant out of 64-bit range");
            *out = cv_int(0);
            out->big = true;
            out->v.u = u;
            return true;
        }
        *out = cv_int(x);
        return true;
    }
    return fail(cx, TC_ERR_COMPILE, loc, "int() argument must be a string or a number, not '%s'",
                eval_type_name(c));
}

bool eval_float(EvalCtx *cx, const CVal *c, SrcLoc loc, CVal *out) {
    if (cv_is_num(c)) { *out = cv_float(cv_to_double(c)); return true; }
    if (c->kind == CV_STR) {
        const char *s = c->v.s;
        while (*s == ' ') s++;
        int sign = 1;
        const char *p = s;
        if (*p == '+' || *p == '-') { if (*p == '-') sign = -1; p++; }
        if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) {
            *out = cv_float(sign < 0 ? -INFINITY : INFINITY);
            return true;
        }
        if (!strcasecmp(p, "nan")) { *out = cv_float(NAN); return true; }
        char *end;
        double x = strtod(s, &end);
        while (*end == ' ') end++;
        if (*s && !*end) { *out = cv_float(x); return true; }
        return fail(cx, TC_ERR_COMPILE, loc, "could not convert string to float: '%s'", c->v.s);
    }
    return fail(cx, TC_ERR_COMPILE, loc,
                "float() argument must be a string or a real number, not '%s'", eval_type_name(c));
}
