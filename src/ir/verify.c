/* verify.c — ir_verify: operand counts, definitions before use with region scoping,
 * types and shapes per ops.h, region structure (YIELD/CONDITION counts and types).
 * Values of an enclosing region are visible inside nested regions; a region's params and
 * the values defined inside it are visible only there. Fails with TC_ERR_INTERNAL naming
 * the function, the op and the kernel location. Never longjmps. */
#include "ir/ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Vf {
    const IrFunc *f;
    Err *e;
    uint8_t *state;   /* per value: 0 never defined, 1 visible, 2 defined but out of scope */
    int *stack;       /* values defined, in order, for scope exit */
    int nstack, cap;
} Vf;

static bool vfail(Vf *v, const Inst *in, const char *fmt, ...) TC_PRINTF(3, 4);
static bool vfail(Vf *v, const Inst *in, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    err_set(v->e, TC_ERR_INTERNAL, in ? in->loc : (SrcLoc){0}, "invalid IR in '%s': %s: %s",
            v->f->name ? v->f->name : "?", in && in->op < OP_COUNT ? op_names[in->op] : "?",
            msg);
    return false;
}

static bool define(Vf *v, const Inst *in, int id) {
    if (id < 0 || id >= v->f->nvalues) return vfail(v, in, "result %%%d is not a value", id);
    if (v->state[id]) return vfail(v, in, "value %%%d is defined twice", id);
    if (v->nstack >= v->cap) {
        int cap = v->cap ? v->cap * 2 : 64;
        int *s = realloc(v->stack, sizeof(int) * (size_t)cap);
        if (!s) return vfail(v, in, "out of memory");
        v->stack = s;
        v->cap = cap;
    }
    v->stack[v->nstack++] = id;
    v->state[id] = 1;
    return true;
}

static void scope_exit(Vf *v, int mark) {
    while (v->nstack > mark) v->state[v->stack[--v->nstack]] = 2;
}

static Type T(const Vf *v, int id) { return v->f->types[id]; }

static bool same_shape(Type a, Type b) {
    if (a.rank != b.rank) return false;
    for (int i = 0; i < a.rank; i++)
        if (a.shape[i] != b.shape[i]) return false;
    return true;
}

static void tstr(Type t, char *buf) { type_str(t, buf, 96); }

static bool want_eq(Vf *v, const Inst *in, int a, Type want, const char *what) {
    if (type_eq(T(v, a), want)) return true;
    char x[96], y[96];
    tstr(T(v, a), x);
    tstr(want, y);
    return vfail(v, in, "%s %%%d has type %s, expected %s", what, a, x, y);
}

static bool check_region(Vf *v, const Inst *owner, const Region *r, const Type *params,
                         int nparams, int term, const int *want, int nwant);

static bool is_int_scalar(Type t) { return t.rank == 0 && dt_is_int(t.dt); }

/* SPLAT, BROADCAST, EXPAND_DIMS, RESHAPE, PERMUTE, REDUCE: dtype kept, shapes related. */
static bool check_shape_op(Vf *v, const Inst *in, Type rt) {
    const int *a = in->args;
    switch (in->op) {
    case OP_SPLAT:
        if (!type_eq(type_elem(T(v, a[0])), type_elem(rt)) || T(v, a[0]).rank)
            return vfail(v, in, "operand must be a scalar of the result's dtype");
        return true;
    case OP_BROADCAST: {
        Type s = T(v, a[0]);
        if (!type_eq(type_elem(s), type_elem(rt)) || s.rank != rt.rank)
            return vfail(v, in, "operand and result differ in dtype or rank");
        for (int d = 0; d < s.rank; d++)
            if (s.shape[d] != rt.shape[d] && s.shape[d] != 1)
                return vfail(v, in, "dim %d: %d cannot broadcast to %d", d, s.shape[d], rt.shape[d]);
        return true;
    }
    case OP_EXPAND_DIMS: {
        Type s = T(v, a[0]);
        int ax = in->attr.axis;
        if (!type_eq(type_elem(s), type_elem(rt)) || rt.rank != s.rank + 1 || ax < 0 || ax > s.rank ||
            rt.shape[ax] != 1)
            return vfail(v, in, "bad shapes or axis %d", ax);
        for (int d = 0, k = 0; d < rt.rank; d++) {
            if (d == ax) continue;
            if (rt.shape[d] != s.shape[k++]) return vfail(v, in, "shape mismatch at dim %d", d);
        }
        return true;
    }
    case OP_RESHAPE:
        if (!type_eq(type_elem(T(v, a[0])), type_elem(rt)) || type_numel(T(v, a[0])) != type_numel(rt))
            return vfail(v, in, "operand and result differ in dtype or element count");
        return true;
    case OP_PERMUTE: {
        Type s = T(v, a[0]);
        if (!type_eq(type_elem(s), type_elem(rt)) || s.rank != rt.rank)
            return vfail(v, in, "operand and result differ in dtype or rank");
        unsigned seen = 0;
        for (int d = 0; d < rt.rank; d++) {
            int p = in->attr.perm[d];
            if (p < 0 || p >= rt.rank || (seen & (1u << p)) || rt.shape[d] != s.shape[p])
                return vfail(v, in, "bad permutation at dim %d", d);
            seen |= 1u << p;
        }
        return true;
    }
    case OP_REDUCE: {
        Type s = T(v, a[0]);
        int ax = in->attr.axis, k = in->attr.kind;
        if (k < RED_SUM || k > RED_AND) return vfail(v, in, "bad reduction kind %d", k);
        if (s.rank == 0 || ax < 0 || ax >= s.rank) return vfail(v, in, "bad axis %d", ax);
        if (rt.rank != s.rank - 1) return vfail(v, in, "result rank must be %d", s.rank - 1);
        for (int d = 0, j = 0; d < s.rank; d++) {
            if (d == ax) continue;
            if (rt.shape[j++] != s.shape[d]) return vfail(v, in, "result shape mismatch");
        }
        int want = (k == RED_ARGMAX || k == RED_ARGMIN) ? DT_I32 : s.dt;
        if (rt.dt != want) return vfail(v, in, "result dtype %s, expected %s", dt_name(rt.dt), dt_name(want));
        return true;
    }
    default:
        return true;
    }
}

/* LOAD, STORE, ATOMIC, ATOMIC_CAS: pointer tiles, masks and values of their shape. */
static bool check_memory_op(Vf *v, const Inst *in, Type rt) {
    const int *a = in->args;
    int op = in->op;
    int drank = ir_desc_rank(in);
    if (drank) {   /* descriptor operands: base pointer, one i32 offset per block dimension */
        for (int k = 3; k < in->nargs; k++)
            if (a[k] < 0) return vfail(v, in, "descriptor operand %d is absent", k);
        Type b = T(v, a[3]), p = T(v, a[0]);
        if (b.dt != DT_PTR || b.rank != 0 || b.elem != p.elem || p.rank != drank)
            return vfail(v, in, "descriptor operands: base must be a scalar pointer like the block's");
        for (int k = 0; k < drank; k++)
            if (T(v, a[4 + k]).dt != DT_I32 || T(v, a[4 + k]).rank != 0)
                return vfail(v, in, "descriptor offset %d must be an i32 scalar", k);
    }
    switch (op) {
    case OP_LOAD: {
        Type p = T(v, a[0]);
        if (p.dt != DT_PTR) return vfail(v, in, "operand is not a pointer");
        if (rt.dt != p.elem || !same_shape(rt, p))
            return vfail(v, in, "result must be the pointee dtype of the pointer's shape");
        if (a[1] >= 0 && (T(v, a[1]).dt != DT_I1 || !same_shape(T(v, a[1]), p)))
            return vfail(v, in, "mask must be i1 of the pointer's shape");
        if (a[2] >= 0) return want_eq(v, in, a[2], rt, "other");
        return true;
    }
    case OP_STORE: case OP_ATOMIC: case OP_ATOMIC_CAS: {
        Type p = T(v, a[0]), val = T(v, a[1]);
        if (p.dt != DT_PTR) return vfail(v, in, "operand is not a pointer");
        if (val.dt != p.elem || !same_shape(val, p))
            return vfail(v, in, "value must be the pointee dtype of the pointer's shape");
        if (op == OP_ATOMIC_CAS) {
            if (!want_eq(v, in, a[2], val, "value")) return false;
        } else if (a[2] >= 0 && (T(v, a[2]).dt != DT_I1 || !same_shape(T(v, a[2]), p)))
            return vfail(v, in, "mask must be i1 of the pointer's shape");
        if (op != OP_STORE && in->nres && !type_eq(rt, val))
            return vfail(v, in, "result must have the value's type");
        return true;
    }
    default:
        return true;
    }
}

/* DOT: a <[B x] M x K>, b <[B x] K x N>, acc and result <[B x] M x N>. */
static bool check_dot(Vf *v, const Inst *in, Type rt) {
    const int *a = in->args;
    char x[96], y[96];
    Type ta = T(v, a[0]), tb = T(v, a[1]);
    int r = ta.rank;
    if ((r != 2 && r != 3) || tb.rank != r || rt.rank != r)
        return vfail(v, in, "operands must be 2-D or 3-D");
    if (ta.shape[r - 1] != tb.shape[r - 2] || rt.shape[r - 2] != ta.shape[r - 2] ||
        rt.shape[r - 1] != tb.shape[r - 1] || (r == 3 && (ta.shape[0] != tb.shape[0] ||
                                                          rt.shape[0] != ta.shape[0]))) {
        tstr(ta, x);
        tstr(tb, y);
        return vfail(v, in, "shapes %s and %s do not multiply", x, y);
    }
    return want_eq(v, in, a[2], rt, "accumulator");
}

static bool check_types(Vf *v, const Inst *in) {
    const int *a = in->args;
    int op = in->op;
    Type rt = in->nres ? T(v, in->res[0]) : type_scalar(DT_VOID);
    char x[96], y[96];
    switch (op) {
    case OP_CONST: case OP_BARRIER: case OP_RETURN: case OP_PRINT:
        return true;
    case OP_TMAP: {
        int rank = in->nargs / 2;
        if (in->nargs % 2 || rank < 1 || rank > TC_MAX_RANK)
            return vfail(v, in, "%d operands: expected base, rank shapes, rank-1 strides", in->nargs);
        Type b = T(v, a[0]);
        if (b.dt != DT_PTR || b.rank || rt.dt != DT_PTR || rt.rank || rt.elem != b.elem)
            return vfail(v, in, "base and result must be scalar pointers of one element type");
        for (int k = 1; k < in->nargs; k++)
            if (T(v, a[k]).dt != DT_I64 || T(v, a[k]).rank)
                return vfail(v, in, "shape and stride operands must be i64 scalars");
        return true;
    }
    case OP_PROGRAM_ID: case OP_NUM_PROGRAMS:
        if (rt.dt != DT_I32 || rt.rank) return vfail(v, in, "result must be an i32 scalar");
        if (in->attr.axis < 0 || in->attr.axis > 2) return vfail(v, in, "axis %d", in->attr.axis);
        return true;
    case OP_ARANGE:
        if (rt.dt != DT_I32 || rt.rank != 1) return vfail(v, in, "result must be <N x i32>");
        return true;
    case OP_SPLAT: case OP_BROADCAST: case OP_EXPAND_DIMS: case OP_RESHAPE: case OP_PERMUTE:
    case OP_REDUCE:
        return check_shape_op(v, in, rt);
    case OP_CAST:
        if (!same_shape(T(v, a[0]), rt)) return vfail(v, in, "shape changes");
        return true;
    case OP_BITCAST: {
        Type s = T(v, a[0]);
        if (!same_shape(s, rt) || dt_bits(s.dt) != dt_bits(rt.dt))
            return vfail(v, in, "bit width or shape changes (%s to %s)", dt_name(s.dt), dt_name(rt.dt));
        return true;
    }
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_REM: case OP_AND: case OP_OR:
    case OP_XOR: case OP_SHL: case OP_SHR: case OP_MAX: case OP_MIN: case OP_UMULHI:
        if (rt.dt == DT_PTR) return vfail(v, in, "pointer operands");
        return want_eq(v, in, a[0], rt, "operand") && want_eq(v, in, a[1], rt, "operand");
    case OP_FMA:
        return want_eq(v, in, a[0], rt, "operand") && want_eq(v, in, a[1], rt, "operand") &&
               want_eq(v, in, a[2], rt, "operand");
    case OP_CMP:
        if (!type_eq(T(v, a[0]), T(v, a[1]))) {
            tstr(T(v, a[0]), x);
            tstr(T(v, a[1]), y);
            return vfail(v, in, "operands differ: %s and %s", x, y);
        }
        if (rt.dt != DT_I1 || !same_shape(rt, T(v, a[0])))
            return vfail(v, in, "result must be i1 of the operands' shape");
        if (in->attr.kind < CMP_EQ || in->attr.kind > CMP_GE) return vfail(v, in, "bad predicate");
        return true;
    case OP_WHERE:
        if (T(v, a[0]).dt != DT_I1 || !same_shape(T(v, a[0]), rt))
            return vfail(v, in, "condition must be i1 of the result's shape");
        return want_eq(v, in, a[1], rt, "operand") && want_eq(v, in, a[2], rt, "operand");
    case OP_ADDPTR:
        if (rt.dt != DT_PTR) return vfail(v, in, "result must be a pointer");
        if (!dt_is_int(T(v, a[1]).dt) || !same_shape(T(v, a[1]), rt))
            return vfail(v, in, "offset must be an integer of the result's shape");
        return want_eq(v, in, a[0], rt, "pointer");
    case OP_NEG: case OP_NOT: case OP_ABS: case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2:
    case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_FLOOR: case OP_CEIL:
    case OP_ERF: case OP_TANH:
        if (op >= OP_EXP && !dt_is_float(rt.dt)) return vfail(v, in, "needs a float operand");
        return want_eq(v, in, a[0], rt, "operand");
    case OP_MATH1: case OP_MATH2:
        if (rt.dt != DT_FP32 && rt.dt != DT_FP64) return vfail(v, in, "needs fp32 or fp64");
        if (in->attr.kind < 0 || in->attr.kind >= MF_COUNT || (in->attr.kind >= MF_FIRST2) != (op == OP_MATH2))
            return vfail(v, in, "bad function %d", in->attr.kind);
        return want_eq(v, in, a[0], rt, "operand") && (op == OP_MATH1 || want_eq(v, in, a[1], rt, "operand"));
    case OP_LOAD: case OP_STORE: case OP_ATOMIC: case OP_ATOMIC_CAS:
        return check_memory_op(v, in, rt);
    case OP_DOT: return check_dot(v, in, rt);
    case OP_ASSERT:
        if (T(v, a[0]).dt != DT_I1) return vfail(v, in, "condition must be i1");
        return true;
    default:
        return true;
    }
}

static bool check_inst(Vf *v, const Region *r, int idx) {
    const Inst *in = r->insts[idx];
    if (!in) return vfail(v, NULL, "null instruction");
    if (in->op >= OP_COUNT) return vfail(v, in, "unknown opcode %d", in->op);
    int op = in->op;
    int drank = ir_desc_rank(in);
    if (op_nargs[op] >= 0 && in->nargs != op_nargs[op] && !(drank >= 1 && drank <= TC_MAX_RANK))
        return vfail(v, in, "%d operands, expected %d", in->nargs, op_nargs[op]);
    if (op == OP_FOR && in->nargs < 3) return vfail(v, in, "needs lb, ub, step");
    for (int k = 0; k < in->nargs; k++) {
        int a = in->args[k];
        bool optional = (op == OP_LOAD && k >= 1) || ((op == OP_STORE || op == OP_ATOMIC) && k == 2);
        if (a == -1 && optional) continue;
        if (a < 0 || a >= v->f->nvalues) return vfail(v, in, "operand %d is not a value (%d)", k, a);
        if (v->state[a] == 0) return vfail(v, in, "operand %%%d is used before its definition", a);
        if (v->state[a] == 2) return vfail(v, in, "operand %%%d is not visible here", a);
    }
    bool no_res = op == OP_STORE || op == OP_PRINT || op == OP_ASSERT || op == OP_BARRIER ||
                  op == OP_YIELD || op == OP_CONDITION || op == OP_RETURN;
    bool any_res = op == OP_IF || op == OP_FOR || op == OP_WHILE || op == OP_ATOMIC ||
                   op == OP_ATOMIC_CAS;
    for (int k = 0; k < in->nres; k++)
        if (in->res[k] < 0 || in->res[k] >= v->f->nvalues)
            return vfail(v, in, "result %d is not a value (%d)", k, in->res[k]);
    if (no_res && in->nres) return vfail(v, in, "has %d results, expected none", in->nres);
    if (!no_res && !any_res && in->nres != 1) return vfail(v, in, "has %d results, expected 1", in->nres);
    if ((op == OP_ATOMIC || op == OP_ATOMIC_CAS) && in->nres > 1) return vfail(v, in, "too many results");
    if ((op == OP_YIELD || op == OP_CONDITION) && idx != r->ninsts - 1)
        return vfail(v, in, "terminator is not the last instruction of its region");
    if (op != OP_IF && op != OP_FOR && op != OP_WHILE && (in->regions[0] || in->regions[1]))
        return vfail(v, in, "unexpected region");
    if (!check_types(v, in)) return false;

    int n = in->nres;
    Type rts[64];
    int *ids = NULL;
    if (op == OP_IF || op == OP_FOR || op == OP_WHILE) {
        if (n > 64) return vfail(v, in, "too many results (%d)", n);
        for (int k = 0; k < n; k++) {
            if (in->res[k] < 0 || in->res[k] >= v->f->nvalues) return vfail(v, in, "bad result");
            rts[k] = T(v, in->res[k]);
        }
        ids = in->res;
    }
    switch (op) {
    case OP_IF: {
        Type c = T(v, in->args[0]);
        if (c.dt != DT_I1 || c.rank) return vfail(v, in, "condition must be an i1 scalar");
        if (!in->regions[0]) return vfail(v, in, "missing then-region");
        if (!in->regions[1] && n) return vfail(v, in, "missing else-region for %d results", n);
        for (int k = 0; k < 2; k++)
            if (in->regions[k] &&
                !check_region(v, in, in->regions[k], NULL, 0, OP_YIELD, ids, n))
                return false;
        break;
    }
    case OP_FOR: {
        int nc = in->nargs - 3;
        for (int k = 0; k < 3; k++)
            if (!is_int_scalar(T(v, in->args[k])))
                return vfail(v, in, "bounds and step must be integer scalars");
        if (n != nc) return vfail(v, in, "%d results for %d carried values", n, nc);
        if (!in->regions[0]) return vfail(v, in, "missing body");
        if (nc > 63) return vfail(v, in, "too many carried values");
        Type ps[64];
        ps[0] = T(v, in->args[0]);
        for (int k = 0; k < nc; k++) {
            ps[k + 1] = T(v, in->args[3 + k]);
            if (!type_eq(ps[k + 1], rts[k])) return vfail(v, in, "init %d and result types differ", k);
        }
        if (!check_region(v, in, in->regions[0], ps, nc + 1, OP_YIELD, ids, n)) return false;
        break;
    }
    case OP_WHILE: {
        if (!in->regions[0] || !in->regions[1]) return vfail(v, in, "needs before and after regions");
        if (in->nargs > 64) return vfail(v, in, "too many carried values");
        Type ps[64];
        for (int k = 0; k < in->nargs; k++) ps[k] = T(v, in->args[k]);
        if (!check_region(v, in, in->regions[0], ps, in->nargs, OP_CONDITION, ids, n)) return false;
        if (!check_region(v, in, in->regions[1], rts, n, OP_YIELD, NULL, in->nargs)) return false;
        break;
    }
    default: break;
    }
    for (int k = 0; k < in->nres; k++)
        if (!define(v, in, in->res[k])) return false;
    return true;
}

/* params: expected param types (NULL = none). term: the terminator op expected; want: the
 * value ids whose types its operands must have (NULL: the region params of the owner's
 * first region, for WHILE's after-region), nwant of them. */
static bool check_region(Vf *v, const Inst *owner, const Region *r, const Type *params,
                         int nparams, int term, const int *want, int nwant) {
    if (r->nparams != nparams)
        return vfail(v, owner, "region has %d params, expected %d", r->nparams, nparams);
    int mark = v->nstack;
    for (int k = 0; k < nparams; k++) {
        int p = r->params[k];
        if (p < 0 || p >= v->f->nvalues) return vfail(v, owner, "bad region param");
        if (!type_eq(T(v, p), params[k])) {
            char x[96], y[96];
            tstr(T(v, p), x);
            tstr(params[k], y);
            return vfail(v, owner, "region param %d has type %s, expected %s", k, x, y);
        }
        if (!define(v, owner, p)) return false;
    }
    for (int i = 0; i < r->ninsts; i++)
        if (!check_inst(v, r, i)) return false;
    const Inst *t = r->ninsts ? r->insts[r->ninsts - 1] : NULL;
    bool has = t && (t->op == OP_YIELD || t->op == OP_CONDITION);
    if (has && t->op != term) return vfail(v, t, "wrong terminator for %s", op_names[owner->op]);
    if (!has) {
        bool returns = t && t->op == OP_RETURN;
        if ((nwant > 0 || term == OP_CONDITION) && !returns)
            return vfail(v, owner, "region does not end with %s", op_names[term]);
    } else {
        int off = term == OP_CONDITION ? 1 : 0;
        if (t->nargs != nwant + off)
            return vfail(v, t, "%d operands, expected %d", t->nargs, nwant + off);
        if (term == OP_CONDITION) {
            Type c = T(v, t->args[0]);
            if (c.dt != DT_I1 || c.rank) return vfail(v, t, "condition must be an i1 scalar");
        }
        for (int k = 0; k < nwant; k++) {
            Type w = want ? T(v, want[k]) : T(v, owner->regions[0]->params[k]);
            if (!want_eq(v, t, t->args[k + off], w, "operand")) return false;
        }
    }
    scope_exit(v, mark);
    return true;
}

bool ir_verify(const IrFunc *f, Err *e) {
    Vf v = {0};
    v.f = f;
    v.e = e;
    v.state = calloc((size_t)f->nvalues + 1, 1);
    if (!v.state) {
        err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory");
        return false;
    }
    bool ok = true;
    for (int i = 0; i < f->nparams && ok; i++)
        ok = define(&v, NULL, f->params[i].value);
    if (ok && !f->body) ok = vfail(&v, NULL, "no body");
    if (ok && f->body->nparams) ok = vfail(&v, NULL, "the body has params");
    for (int i = 0; ok && i < f->body->ninsts; i++) {
        const Inst *in = f->body->insts[i];
        if (in && (in->op == OP_YIELD || in->op == OP_CONDITION)) ok = vfail(&v, in, "outside any region");
        else ok = check_inst(&v, f->body, i);
    }
    free(v.state);
    free(v.stack);
    return ok;
}
