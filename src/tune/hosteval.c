/* hosteval.c — the evaluator of @triton.heuristics lambda bodies and launch grids (the
 * module's other host code, autotune's arguments included, is hostpy.c's), with Python semantics
 * (floor division and modulo as Python's, ints of 64 bits with overflow refused, repr and
 * ==). It sees the lambda's argument (the launch's arguments by name, tensors' shape, numel(),
 * dtype...), module-level constexprs and a few builtins; anything else is TC_ERR_UNSUPPORTED at
 * the expression, never guessed (a heuristic then goes to hostpy.c; a grid is refused). */
#include "tune/tuneint.h"
#include "trace/eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EVAL_MAX_DEPTH 64

/* ---- values as Python shows them ------------------------------------------------------- */

const char *heval_torch_dtype(tc_dtype d) {
    switch (d) {
    case TC_I1: return "torch.bool";
    case TC_I8: return "torch.int8";
    case TC_I16: return "torch.int16";
    case TC_I32: return "torch.int32";
    case TC_I64: return "torch.int64";
    case TC_U8: return "torch.uint8";
    case TC_U16: return "torch.uint16";
    case TC_U32: return "torch.uint32";
    case TC_U64: return "torch.uint64";
    case TC_FP16: return "torch.float16";
    case TC_BF16: return "torch.bfloat16";
    case TC_FP32: return "torch.float32";
    case TC_FP64: return "torch.float64";
    case TC_FP8E5: return "torch.float8_e5m2";
    case TC_FP8E4NV: return "torch.float8_e4m3fn";
    case TC_FP8E4B15: return "torch.uint8";  /* torch has no e4m3 with bias 15 */
    }
    return "torch.unknown";
}

/* Python's repr of a value. */
void heval_repr(const tc_value *v, char *buf, size_t n) {
    switch (v->kind) {
    case TC_VAL_INT: snprintf(buf, n, "%lld", (long long)v->u.i); break;
    case TC_VAL_FLOAT: tc_format_double(v->u.f, buf, n); break;
    case TC_VAL_BOOL: snprintf(buf, n, "%s", v->u.b ? "True" : "False"); break;
    case TC_VAL_STR: snprintf(buf, n, "'%s'", v->u.s); break;
    case TC_VAL_TENSOR: snprintf(buf, n, "'%s'", heval_torch_dtype(v->u.t->dtype)); break;
    default: snprintf(buf, n, "None");
    }
}

bool heval_eq(const tc_value *a, const tc_value *b) {
    bool an = a->kind == TC_VAL_INT || a->kind == TC_VAL_BOOL || a->kind == TC_VAL_FLOAT;
    bool bn = b->kind == TC_VAL_INT || b->kind == TC_VAL_BOOL || b->kind == TC_VAL_FLOAT;
    if (an && bn) {
        double x = a->kind == TC_VAL_FLOAT ? a->u.f : a->kind == TC_VAL_BOOL ? a->u.b : (double)a->u.i;
        double y = b->kind == TC_VAL_FLOAT ? b->u.f : b->kind == TC_VAL_BOOL ? b->u.b : (double)b->u.i;
        if (a->kind != TC_VAL_FLOAT && b->kind != TC_VAL_FLOAT)
            return (a->kind == TC_VAL_BOOL ? a->u.b : a->u.i) == (b->kind == TC_VAL_BOOL ? b->u.b : b->u.i);
        return x == y;
    }
    if (a->kind != b->kind) return false;
    if (a->kind == TC_VAL_STR) return strcmp(a->u.s, b->u.s) == 0;
    if (a->kind == TC_VAL_NONE) return true;
    return a->kind == TC_VAL_TENSOR && a->u.t == b->u.t;
}

/* ---- a small evaluator for decorator expressions (Python semantics) ----------------------- */

enum { EV_VAL, EV_ARGS, EV_TENSOR, EV_SHAPE, EV_METHOD, EV_FUNC };

typedef struct EV {
    int k;
    tc_value v;              /* EV_VAL */
    tc_tensor *t;            /* EV_TENSOR, EV_SHAPE, EV_METHOD */
    const char *name;        /* EV_METHOD: "numel"/"element_size"/"dim"; EV_FUNC: resolved */
} EV;

typedef struct Eval {
    const Module *m;
    const tc_kernel *k;
    const char *param;       /* the lambda's parameter (the args dict), or NULL */
    const tc_args *args;
    Err *err;
    int depth;
    bool check;              /* static check only: args[...] is an unknown number */
    const char *what;        /* "triton.Config value" for messages */
    const char *heur;        /* or the heuristics value's name: "heuristics value 'BLOCK'" */
    bool bare_args;          /* a grid: bare names are the launch's arguments (tc_grid_eval) */
} Eval;

/* "a.b.c" for a name/attribute chain, the first part through the file's import aliases. */
bool heval_dotted(const Module *m, const Expr *e, char *buf, size_t n) {
    const char *parts[16];
    int np = 0;
    while (e && e->kind == EX_ATTR && np < 15) { parts[np++] = e->name; e = e->lhs; }
    if (!e || e->kind != EX_NAME) return false;
    const char *head = e->name;
    for (int i = 0; i < m->naliases; i++)
        if (strcmp(m->aliases[i].name, e->name) == 0) head = m->aliases[i].target;
    size_t o = (size_t)snprintf(buf, n, "%s", head);
    for (int i = np - 1; i >= 0 && o < n; i--) o += (size_t)snprintf(buf + o, n - o, ".%s", parts[i]);
    return o < n;
}

static bool evfail(Eval *E, tc_status code, SrcLoc loc, const char *fmt, ...) TC_PRINTF(4, 5);
static bool evfail(Eval *E, tc_status code, SrcLoc loc, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (E->heur) err_set(E->err, code, loc, "heuristics value '%s': %s", E->heur, msg);
    else if (E->what) err_set(E->err, code, loc, "%s: %s", E->what, msg);
    else err_set(E->err, code, loc, "%s", msg);
    return false;
}

static const char *const known_funcs[] = {
    "builtins.min", "builtins.max", "builtins.abs", "builtins.int", "builtins.float",
    "builtins.bool", "builtins.len", "triton.next_power_of_2", "triton.cdiv",
    "triton.language.cdiv", "math.ceil", "math.floor", "math.log2", "math.sqrt",
};

static const char *builtin_path(const char *name) {
    static const char *const b[] = {"min", "max", "abs", "int", "float", "bool", "len"};
    static const char *const p[] = {"builtins.min", "builtins.max", "builtins.abs", "builtins.int",
                                    "builtins.float", "builtins.bool", "builtins.len"};
    for (int i = 0; i < COUNT_OF(b); i++)
        if (strcmp(b[i], name) == 0) return p[i];
    return NULL;
}

static bool ev(Eval *E, const Expr *e, EV *out);

static bool is_num(const tc_value *v) {
    return v->kind == TC_VAL_INT || v->kind == TC_VAL_BOOL || v->kind == TC_VAL_FLOAT;
}
static bool is_intlike(const tc_value *v) { return v->kind == TC_VAL_INT || v->kind == TC_VAL_BOOL; }
static int64_t as_int(const tc_value *v) { return v->kind == TC_VAL_BOOL ? (v->u.b != 0) : v->u.i; }
static double as_f(const tc_value *v) {
    return v->kind == TC_VAL_FLOAT ? v->u.f : (double)as_int(v);
}
static bool truthy(const tc_value *v) {
    switch (v->kind) {
    case TC_VAL_INT: return v->u.i != 0;
    case TC_VAL_BOOL: return v->u.b != 0;
    case TC_VAL_FLOAT: return v->u.f != 0;
    case TC_VAL_STR: return v->u.s[0] != 0;
    case TC_VAL_TENSOR: return true;
    default: return false;
    }
}
static const char *type_name(const tc_value *v) {
    switch (v->kind) {
    case TC_VAL_INT: return "int";
    case TC_VAL_BOOL: return "bool";
    case TC_VAL_FLOAT: return "float";
    case TC_VAL_STR: return "str";
    case TC_VAL_TENSOR: return "Tensor";
    default: return "NoneType";
    }
}

static bool want_val(Eval *E, const EV *x, SrcLoc loc) {
    if (x->k == EV_VAL) return true;
    if (x->k == EV_TENSOR) return true;
    return evfail(E, TC_ERR_UNSUPPORTED, loc, "this expression is not a value tritonc can evaluate");
}

/* Arithmetic and ordering go through the tracer's evaluator (trace/eval.h), so a heuristic,
 * a config value and a grid compute exactly what the same expression computes as a constexpr
 * in a kernel: Python's floor division, errors for 0 ** -1 and for results beyond 64 bits. */
static CVal to_cval(const tc_value *v) {
    if (v->kind == TC_VAL_BOOL) return cv_bool(v->u.b);
    if (v->kind == TC_VAL_FLOAT) return cv_float(v->u.f);
    if (v->kind == TC_VAL_STR) return cv_str(v->u.s);
    if (v->kind == TC_VAL_NONE) return cv_none();
    if (v->kind == TC_VAL_UINT) { CVal c = cv_int(v->u.i); c.big = true; return c; }
    return cv_int(v->u.i);
}

/* a op b (b NULL: op a), or the comparison a op b when cmp is set. */
static bool num_op(Eval *E, PyOp op, const tc_value *a, const tc_value *b, bool cmp, SrcLoc loc,
                   tc_value *r) {
    Err ee = {0};
    Arena ar;
    arena_init(&ar, &ee);
    EvalCtx cx = {&ar, &ee};
    CVal x = to_cval(a), y = b ? to_cval(b) : cv_none(), z;
    /* no location: the message comes back bare, and evfail adds this expression's */
    bool ok = cmp ? eval_compare(&cx, op, &x, &y, (SrcLoc){0}, &z)
              : b ? eval_binop(&cx, op, &x, &y, (SrcLoc){0}, &z)
                  : eval_unary(&cx, op, &x, (SrcLoc){0}, &z);
    arena_free(&ar);   /* numbers never allocate: z holds no pointer into it */
    /* Python's errors in host code are errors in what the launch was given */
    if (!ok) return evfail(E, ee.code == TC_ERR_COMPILE ? TC_ERR_ARG : ee.code, loc, "%s", ee.msg);
    if (z.kind == CV_BOOL) *r = tc_bool(z.v.i != 0);
    else if (z.kind == CV_FLOAT) *r = tc_float(z.v.f);
    else if (z.kind == CV_INT && !z.big) *r = tc_int(z.v.i);
    else if (z.kind == CV_INT)
        return evfail(E, TC_ERR_LIMIT, loc, "%llu is beyond the 64-bit signed range of a launch "
                      "value", (unsigned long long)z.v.u);
    else return evfail(E, TC_ERR_INTERNAL, loc, "internal error: '%s' gave a %s", py_op_str(op),
                       eval_type_name(&z));
    return true;
}

static bool binop(Eval *E, PyOp op, tc_value a, tc_value b, SrcLoc loc, tc_value *r) {
    if (op == PY_ADD && a.kind == TC_VAL_STR && b.kind == TC_VAL_STR)
        return evfail(E, TC_ERR_UNSUPPORTED, loc, "string concatenation is not supported here");
    if (!is_num(&a) || !is_num(&b))
        return evfail(E, TC_ERR_ARG, loc, "TypeError: unsupported operand type(s) for %s: '%s' and '%s'",
                      py_op_str(op), type_name(&a), type_name(&b));
    return num_op(E, op, &a, &b, false, loc, r);
}

static bool compare(Eval *E, PyOp op, tc_value a, tc_value b, SrcLoc loc, bool *r) {
    if (op == PY_EQ || op == PY_NE) {
        bool eq = heval_eq(&a, &b);
        *r = op == PY_EQ ? eq : !eq;
        return true;
    }
    if (op == PY_IS || op == PY_IS_NOT) {
        bool same = a.kind == b.kind && (a.kind == TC_VAL_NONE || heval_eq(&a, &b));
        *r = op == PY_IS ? same : !same;
        return true;
    }
    if (op != PY_LT && op != PY_LE && op != PY_GT && op != PY_GE)
        return evfail(E, TC_ERR_UNSUPPORTED, loc, "comparison '%s' is not supported here", py_op_str(op));
    if (!(is_num(&a) && is_num(&b)) && !(a.kind == TC_VAL_STR && b.kind == TC_VAL_STR))
        return evfail(E, TC_ERR_ARG, loc, "TypeError: '%s' not supported between instances of '%s' and '%s'",
                      py_op_str(op), type_name(&a), type_name(&b));
    tc_value v;
    if (!num_op(E, op, &a, &b, true, loc, &v)) return false;
    *r = v.u.b;
    return true;
}

/* args['name']: the launch's value for a parameter (set, or its literal default). */
static bool arg_lookup(Eval *E, const char *name, SrcLoc loc, EV *out) {
    memset(out, 0, sizeof *out);
    const tc_kernel *k = E->k;
    int idx = -1;
    for (int i = 0; i < k->fn->nparams; i++)
        if (strcmp(k->fn->params[i].name, name) == 0) idx = i;
    if (idx < 0)
        return evfail(E, TC_ERR_ARG, loc, "KeyError: '%s' (not a parameter of %s)", name, k->fn->name);
    if (E->check) { out->k = EV_VAL; out->v = tc_int(1); return true; }
    tc_value v;
    if (E->args->slots[idx].set) v = E->args->slots[idx].v;
    else if (!param_default(&k->fn->params[idx], &v))
        return evfail(E, TC_ERR_ARG, loc, "KeyError: '%s' (the launch does not give it)", name);
    if (v.kind == TC_VAL_TENSOR) { out->k = EV_TENSOR; out->t = v.u.t; return true; }
    out->k = EV_VAL;
    out->v = v;
    return true;
}

static bool eval_global(Eval *E, const char *name, SrcLoc loc, EV *out, bool *found) {
    *found = false;
    for (int i = E->m->nglobals - 1; i >= 0; i--) {
        if (strcmp(E->m->globals[i].name, name) != 0) continue;
        *found = true;
        Eval G = *E;
        G.param = NULL;   /* a global cannot see the lambda's parameter */
        return ev(&G, E->m->globals[i].value, out);
    }
    return true;
}

static bool call(Eval *E, const Expr *e, EV *out) {
    memset(out, 0, sizeof *out);
    EV f;
    if (!ev(E, e->lhs, &f)) return false;
    if (e->nkw) return evfail(E, TC_ERR_UNSUPPORTED, e->kw[0].loc, "keyword arguments are not supported in this call");
    if (f.k == EV_METHOD) {
        if (e->n) return evfail(E, TC_ERR_ARG, e->loc, "TypeError: %s() takes no arguments", f.name);
        out->k = EV_VAL;
        if (E->check) { out->v = tc_int(1); return true; }
        if (!strcmp(f.name, "numel")) out->v = tc_int(f.t->numel);
        else if (!strcmp(f.name, "element_size")) out->v = tc_int((int64_t)tc_dtype_size(f.t->dtype));
        else out->v = tc_int(f.t->rank);
        return true;
    }
    if (f.k != EV_FUNC) return evfail(E, TC_ERR_UNSUPPORTED, e->loc, "this call cannot be evaluated by tritonc");
    tc_value av[8];
    EV shape = {0};
    int na = e->n;
    if (na > 8) return evfail(E, TC_ERR_UNSUPPORTED, e->loc, "too many arguments");
    for (int i = 0; i < na; i++) {
        if (e->items[i]->kind == EX_STARRED)
            return evfail(E, TC_ERR_UNSUPPORTED, e->items[i]->loc, "*args is not supported here");
        EV x;
        if (!ev(E, e->items[i], &x)) return false;
        if (x.k == EV_SHAPE && na == 1) { shape = x; av[i] = tc_none(); continue; }
        if (x.k == EV_TENSOR) { av[i] = tc_tens(x.t); continue; }
        if (x.k != EV_VAL) return evfail(E, TC_ERR_UNSUPPORTED, e->items[i]->loc, "this argument cannot be evaluated by tritonc");
        av[i] = x.v;
    }
    const char *p = f.name;
    out->k = EV_VAL;
    if (!strcmp(p, "builtins.min") || !strcmp(p, "builtins.max")) {
        bool mn = !strcmp(p, "builtins.min");
        if (shape.k == EV_SHAPE) {
            if (E->check) { out->v = tc_int(1); return true; }
            if (shape.t->rank == 0) return evfail(E, TC_ERR_ARG, e->loc, "ValueError: %s() arg is an empty sequence", mn ? "min" : "max");
            int64_t r = shape.t->shape[0];
            for (int i = 1; i < shape.t->rank; i++) r = mn ? (shape.t->shape[i] < r ? shape.t->shape[i] : r) : (shape.t->shape[i] > r ? shape.t->shape[i] : r);
            out->v = tc_int(r);
            return true;
        }
        if (na < 2) return evfail(E, TC_ERR_UNSUPPORTED, e->loc, "%s() of one argument: only a tensor's .shape is supported", mn ? "min" : "max");
        tc_value best = av[0];
        for (int i = 1; i < na; i++) {
            bool lt;
            if (!compare(E, PY_LT, av[i], best, e->items[i]->loc, &lt)) return false;
            bool gt;
            if (!compare(E, PY_GT, av[i], best, e->items[i]->loc, &gt)) return false;
            if (mn ? lt : gt) best = av[i];
        }
        out->v = best;
        return true;
    }
    if (!strcmp(p, "builtins.len")) {
        if (na != 1 || shape.k != EV_SHAPE) return evfail(E, TC_ERR_UNSUPPORTED, e->loc, "len() is supported only of a tensor's .shape");
        out->v = tc_int(E->check ? 1 : shape.t->rank);
        return true;
    }
    if (shape.k == EV_SHAPE) return evfail(E, TC_ERR_UNSUPPORTED, e->loc, "a shape tuple is not a number");
    if (!strcmp(p, "triton.cdiv") || !strcmp(p, "triton.language.cdiv")) {
        if (na != 2) return evfail(E, TC_ERR_ARG, e->loc, "TypeError: cdiv() takes 2 arguments (%d given)", na);
        tc_value s;
        if (!binop(E, PY_ADD, av[0], av[1], e->loc, &s) || !binop(E, PY_SUB, s, tc_int(1), e->loc, &s) ||
            !binop(E, PY_FLOORDIV, s, av[1], e->loc, &out->v))
            return false;
        return true;
    }
    if (na != 1) return evfail(E, TC_ERR_ARG, e->loc, "TypeError: %s() takes 1 argument (%d given)", strrchr(p, '.') + 1, na);
    tc_value x = av[0];
    if (x.kind == TC_VAL_TENSOR) return evfail(E, TC_ERR_UNSUPPORTED, e->loc, "%s() of a tensor is not supported", strrchr(p, '.') + 1);
    if (!strcmp(p, "triton.next_power_of_2")) {
        if (!is_intlike(&x)) return evfail(E, TC_ERR_ARG, e->loc, "TypeError: next_power_of_2() needs an int, got %s", type_name(&x));
        uint64_t n = (uint64_t)as_int(&x);
        n -= 1; n |= n >> 1; n |= n >> 2; n |= n >> 4; n |= n >> 8; n |= n >> 16; n |= n >> 32; n += 1;
        out->v = tc_int((int64_t)n);
        return true;
    }
    if (!strcmp(p, "builtins.bool")) { out->v = tc_bool(truthy(&x)); return true; }
    if (!is_num(&x)) return evfail(E, TC_ERR_ARG, e->loc, "TypeError: %s() of %s", strrchr(p, '.') + 1, type_name(&x));
    if (!strcmp(p, "builtins.abs")) {
        if (is_intlike(&x)) { if (as_int(&x) == INT64_MIN) return evfail(E, TC_ERR_LIMIT, e->loc, "integer overflow"); out->v = tc_int(llabs((long long)as_int(&x))); }
        else out->v = tc_float(fabs(x.u.f));
        return true;
    }
    if (!strcmp(p, "builtins.float")) { out->v = tc_float(as_f(&x)); return true; }
    double d = as_f(&x);
    if (!strcmp(p, "math.log2") || !strcmp(p, "math.sqrt")) {
        if (d < 0 || (d == 0 && !strcmp(p, "math.log2"))) return evfail(E, TC_ERR_ARG, e->loc, "ValueError: math domain error");
        out->v = tc_float(!strcmp(p, "math.log2") ? log2(d) : sqrt(d));
        return true;
    }
    if (is_intlike(&x)) { out->v = tc_int(as_int(&x)); return true; }
    double r = !strcmp(p, "math.ceil") ? ceil(d) : !strcmp(p, "math.floor") ? floor(d) : trunc(d);
    if (!(r >= -9.2e18 && r <= 9.2e18)) return evfail(E, TC_ERR_ARG, e->loc, "OverflowError: cannot convert float %g to integer", d);
    out->v = tc_int((int64_t)r);
    return true;
}

static bool ev(Eval *E, const Expr *e, EV *out) {
    memset(out, 0, sizeof *out);
    out->k = EV_VAL;
    if (++E->depth > EVAL_MAX_DEPTH) {
        E->depth--;
        return evfail(E, TC_ERR_LIMIT, e->loc, "expression nested more than %d deep", EVAL_MAX_DEPTH);
    }
    bool ok = true;
    switch (e->kind) {
    case EX_INT:
        if (e->big || e->ival > (uint64_t)INT64_MAX) ok = evfail(E, TC_ERR_LIMIT, e->loc, "integer literal beyond 64 bits");
        else out->v = tc_int((int64_t)e->ival);
        break;
    case EX_FLOAT: out->v = tc_float(e->fval); break;
    case EX_STR:
        if (e->fstring) ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "f-strings are not supported here");
        else out->v = tc_str(e->str);
        break;
    case EX_TRUE: out->v = tc_bool(1); break;
    case EX_FALSE: out->v = tc_bool(0); break;
    case EX_NONE: out->v = tc_none(); break;
    case EX_NAME: {
        if (E->param && !strcmp(e->name, E->param)) { out->k = EV_ARGS; break; }
        if (E->bare_args) {
            if (!strcmp(e->name, "cdiv") || !strcmp(e->name, "next_power_of_2")) {
                out->k = EV_FUNC;
                out->name = e->name[0] == 'c' ? "triton.cdiv" : "triton.next_power_of_2";
                break;
            }
            bool is_param = false;
            for (int i = 0; i < E->k->fn->nparams && !is_param; i++)
                is_param = !strcmp(E->k->fn->params[i].name, e->name);
            if (is_param) { ok = arg_lookup(E, e->name, e->loc, out); break; }
            if (!builtin_path(e->name)) {
                char names[600] = "";   /* what to write instead */
                for (int i = 0, l = 0; i < E->k->fn->nparams && l < (int)sizeof names - 1; i++)
                    l += snprintf(names + l, sizeof names - (size_t)l, "%s%s", i ? ", " : "",
                                  E->k->fn->params[i].name);
                ok = evfail(E, TC_ERR_ARG, e->loc, "'%s' is not an argument of the launch (%s's "
                            "parameters: %s)", e->name, E->k->fn->name, names);
                break;
            }
        }
        bool found;
        if (!eval_global(E, e->name, e->loc, out, &found)) { ok = false; break; }
        if (found) break;
        const char *b = builtin_path(e->name);
        char d[256];
        if (!b && heval_dotted(E->m, e, d, sizeof d)) {
            for (int i = 0; i < COUNT_OF(known_funcs); i++)
                if (!strcmp(known_funcs[i], d)) b = known_funcs[i];
        }
        if (b) { out->k = EV_FUNC; out->name = b; break; }
        ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "name '%s' is not something tritonc can evaluate "
                    "(only the lambda's argument, module-level constexprs, min, max, abs, int, "
                    "float, bool, len, triton.cdiv and triton.next_power_of_2)", e->name);
        break;
    }
    case EX_ATTR: {
        char d[256];
        if (heval_dotted(E->m, e, d, sizeof d)) {
            for (int i = 0; i < COUNT_OF(known_funcs); i++)
                if (!strcmp(known_funcs[i], d)) { out->k = EV_FUNC; out->name = known_funcs[i]; goto done; }
            const Expr *h = e;
            while (h->kind == EX_ATTR) h = h->lhs;
            if (!(E->param && !strcmp(h->name, E->param))) {
                ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "'%s' is not something tritonc can evaluate "
                            "(only triton.cdiv and triton.next_power_of_2 among attributes)", d);
                break;
            }
        }
        EV base;
        if (!ev(E, e->lhs, &base)) { ok = false; break; }
        if (E->check && base.k == EV_VAL && e->lhs->kind == EX_SUBSCRIPT) {
            /* args['x'].shape etc.: the kind of args['x'] is unknown until a launch */
            base.k = EV_TENSOR;
        }
        if (base.k != EV_TENSOR) {
            ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "attribute '%s' of a %s is not supported", e->name,
                        base.k == EV_VAL ? type_name(&base.v) : "value");
            break;
        }
        if (!strcmp(e->name, "shape")) { out->k = EV_SHAPE; out->t = base.t; }
        else if (!strcmp(e->name, "numel") || !strcmp(e->name, "element_size") || !strcmp(e->name, "dim")) {
            out->k = EV_METHOD; out->t = base.t; out->name = e->name;
        } else if (!strcmp(e->name, "ndim")) {
            out->v = tc_int(E->check ? 1 : base.t->rank);
        } else if (!strcmp(e->name, "dtype")) {
            out->v = tc_str(E->check ? "torch.float32" : heval_torch_dtype(base.t->dtype));
        } else {
            ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "tensor attribute '%s' is not supported (shape, "
                        "numel(), element_size(), dim(), ndim, dtype are)", e->name);
        }
        break;
    }
    case EX_SUBSCRIPT: {
        EV base;
        if (!ev(E, e->lhs, &base)) { ok = false; break; }
        if (e->n != 1) { ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "one index expected"); break; }
        EV idx;
        if (!ev(E, e->items[0], &idx)) { ok = false; break; }
        if (base.k == EV_ARGS) {
            if (idx.k != EV_VAL || idx.v.kind != TC_VAL_STR) {
                ok = evfail(E, TC_ERR_UNSUPPORTED, e->items[0]->loc, "%s[...] takes a parameter name "
                            "as a string literal", E->param);
                break;
            }
            ok = arg_lookup(E, idx.v.u.s, e->loc, out);
            break;
        }
        if (base.k == EV_SHAPE || (E->check && base.k == EV_VAL && e->lhs->kind == EX_ATTR)) {
            if (idx.k != EV_VAL || !is_intlike(&idx.v)) {
                ok = evfail(E, TC_ERR_ARG, e->items[0]->loc, "TypeError: tuple indices must be integers");
                break;
            }
            if (E->check) { out->v = tc_int(1); break; }
            int64_t i = as_int(&idx.v);
            if (i < 0) i += base.t->rank;
            if (i < 0 || i >= base.t->rank) { ok = evfail(E, TC_ERR_ARG, e->loc, "IndexError: tuple index out of range"); break; }
            out->v = tc_int(base.t->shape[i]);
            break;
        }
        ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "subscript of this value is not supported");
        break;
    }
    case EX_BINOP: {
        EV a, b;
        if (!ev(E, e->lhs, &a) || !want_val(E, &a, e->lhs->loc) || !ev(E, e->rhs, &b) ||
            !want_val(E, &b, e->rhs->loc)) { ok = false; break; }
        if (a.k == EV_TENSOR) a.v = tc_tens(a.t);
        if (b.k == EV_TENSOR) b.v = tc_tens(b.t);
        if (E->check) { out->v = tc_int(1); break; }
        ok = binop(E, e->op, a.v, b.v, e->loc, &out->v);
        break;
    }
    case EX_UNARY: {
        EV a;
        if (!ev(E, e->lhs, &a) || !want_val(E, &a, e->lhs->loc)) { ok = false; break; }
        if (a.k == EV_TENSOR) a.v = tc_tens(a.t);
        if (e->op == PY_NOT) { out->v = tc_bool(!truthy(&a.v)); break; }
        if (E->check) { out->v = tc_int(1); break; }
        if (!is_num(&a.v)) { ok = evfail(E, TC_ERR_ARG, e->loc, "TypeError: bad operand type for unary %s: '%s'", py_op_str(e->op), type_name(&a.v)); break; }
        ok = num_op(E, e->op, &a.v, NULL, false, e->loc, &out->v);
        break;
    }
    case EX_BOOLOP: {
        bool is_and = e->op == PY_AND;
        for (int i = 0; i < e->n; i++) {
            EV x;
            if (!ev(E, e->items[i], &x) || !want_val(E, &x, e->items[i]->loc)) { ok = false; break; }
            if (x.k == EV_TENSOR) x.v = tc_tens(x.t);
            *out = x;
            if (!E->check && (is_and ? !truthy(&x.v) : truthy(&x.v))) break;
        }
        break;
    }
    case EX_COMPARE: {
        EV a;
        if (!ev(E, e->items[0], &a) || !want_val(E, &a, e->items[0]->loc)) { ok = false; break; }
        bool r = true;
        for (int i = 1; i < e->n && ok; i++) {
            EV b;
            if (!ev(E, e->items[i], &b) || !want_val(E, &b, e->items[i]->loc)) { ok = false; break; }
            if (a.k == EV_TENSOR) a.v = tc_tens(a.t);
            if (b.k == EV_TENSOR) b.v = tc_tens(b.t);
            if (e->ops[i - 1] == PY_IN || e->ops[i - 1] == PY_NOT_IN) {
                ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "'%s' is not supported here", py_op_str(e->ops[i - 1]));
                break;
            }
            bool c = true;
            if (!E->check && !compare(E, e->ops[i - 1], a.v, b.v, e->loc, &c)) { ok = false; break; }
            r = r && c;
            a = b;
            if (!r && !E->check) break;
        }
        out->k = EV_VAL;
        out->v = tc_bool(r);
        break;
    }
    case EX_IFEXP: {
        EV c;
        if (!ev(E, e->cond, &c) || !want_val(E, &c, e->cond->loc)) { ok = false; break; }
        if (c.k == EV_TENSOR) c.v = tc_tens(c.t);
        if (E->check) {
            EV x;
            ok = ev(E, e->lhs, out) && ev(E, e->orelse, &x);
            break;
        }
        ok = ev(E, truthy(&c.v) ? e->lhs : e->orelse, out);
        break;
    }
    case EX_CALL: ok = call(E, e, out); break;
    case EX_LAMBDA:
        ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "a nested lambda is not supported here");
        break;
    default:
        ok = evfail(E, TC_ERR_UNSUPPORTED, e->loc, "%s is not something tritonc can evaluate here",
                    e->kind == EX_OTHER && e->name ? e->name :
                    e->kind == EX_LIST ? "a list" : e->kind == EX_TUPLE ? "a tuple" :
                    e->kind == EX_DICT ? "a dict" : "this expression");
        break;
    }
done:
    E->depth--;
    return ok;
}

/* ---- the interface ---------------------------------------------------------------------------- */

bool heval_heuristic(const Module *m, const tc_kernel *k, const char *param, const Expr *body,
                     const tc_args *args, const char *name, Err *err, tc_value *out) {
    Eval E = {.m = m, .k = k, .param = param, .args = args, .err = err, .check = !args, .heur = name};
    EV x;
    if (!ev(&E, body, &x)) return false;
    if (!args) return true;
    if (x.k != EV_VAL) {
        err_set(err, TC_ERR_UNSUPPORTED, (SrcLoc){0}, "heuristics value '%s' is not a number, bool or string", name);
        return false;
    }
    *out = x.v;
    return true;
}

/* ---- launch grids ------------------------------------------------------------------------------ */

/* The bare message of an error recorded with a location ("file:l:c: error: MSG\n..."). */
static const char *bare_msg(const Err *e, char *buf, size_t n) {
    const char *m = strstr(e->msg, "error: ");
    m = m ? m + 7 : e->msg;
    size_t len = strcspn(m, "\n");
    snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), m);
    return buf;
}

tc_status tc_grid_eval(const tc_args *meta, const char *expr, uint32_t grid[3]) {
    if (!meta) return TC_ERR_ARG;
    tc_context *ctx = meta->k->m->ctx;
    if (!expr || !grid) return ctx_fail(ctx, TC_ERR_ARG, "tc_grid_eval: NULL argument");
    if (!*expr || strlen(expr) > 1000 || strpbrk(expr, "\n\r"))
        return ctx_fail(ctx, TC_ERR_ARG, "a grid is one line of at most 1000 characters");
    /* parsed as a module whose one constexpr global is (EXPR): "4, 2" and "(cdiv(n, B),)"
     * are tuples */
    char text[1100], msg[600];
    int len = snprintf(text, sizeof text, "import triton.language as tl\n"
                       "__grid__: tl.constexpr = (%s)\n", expr);
    Source *src = source_new("<grid>", text, (size_t)len);
    if (!src) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    Err e = {0};
    Module *m = parse_module(src, &e);
    const Expr *g = m && m->nglobals == 1 && !strcmp(m->globals[0].name, "__grid__")
                    ? m->globals[0].value : NULL;
    tc_status rc = TC_OK;
    if (!m) rc = ctx_fail(ctx, TC_ERR_ARG, "%s", bare_msg(&e, msg, sizeof msg));
    else if (!g) rc = ctx_fail(ctx, TC_ERR_ARG, "invalid syntax (one to three expressions expected)");
    int n = 0;
    const Expr *const *items = g && g->kind == EX_TUPLE ? (const Expr *const *)g->items : &g;
    int nitems = g && g->kind == EX_TUPLE ? g->n : 1;
    if (!rc && (nitems < 1 || nitems > 3))
        rc = ctx_fail(ctx, TC_ERR_ARG, "a grid has 1 to 3 dimensions, not %d", nitems);
    Eval E = {.m = m, .k = meta->k, .args = meta, .err = &e, .bare_args = true};
    for (; !rc && n < nitems; n++) {
        EV x;
        if (!ev(&E, items[n], &x)) { rc = ctx_fail(ctx, TC_ERR_ARG, "%s", bare_msg(&e, msg, sizeof msg)); break; }
        if (x.k != EV_VAL || (x.v.kind != TC_VAL_INT && x.v.kind != TC_VAL_BOOL)) {
            rc = ctx_fail(ctx, TC_ERR_ARG, "grid dimension %d is not an integer", n);
            break;
        }
        int64_t v = as_int(&x.v);
        if (v < 0 || v > (int64_t)UINT32_MAX) {
            rc = ctx_fail(ctx, TC_ERR_ARG, "grid dimension %d is %lld, outside 0..%u", n,
                          (long long)v, UINT32_MAX);
            break;
        }
        grid[n] = (uint32_t)v;
    }
    for (int i = nitems; !rc && i < 3; i++) grid[i] = 1;
    if (m) module_free(m);
    source_free(src);
    return rc;
}
