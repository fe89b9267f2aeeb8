/* trace.c — specialization: walks a kernel's AST with its constexprs known and builds tile
 * IR, as Triton's code_generator.py does. This file owns scopes, names, expressions and
 * inlined @jit calls; stmt.c the statements (trace-time and run-time control flow), the two
 * sharing walk.h; eval.c computes on constexprs (Python semantics), semantic.c owns what
 * tensor operations mean and builtins*.c what the tl.* builtins do (sem_*).
 *
 * Notes on choices where Triton leaves room:
 *  - `assert` statements are compiled away unless TRITON_DEBUG=1 (read once per trace), as
 *    Triton does without debug=True; then they become tl.device_assert.
 *  - A run-time `for` step must be positive (scf.for); a negative constexpr step is
 *    handled like Triton (bounds swapped, iv recomputed as lb + ub - iv').
 *  - A kernel parameter missing from the launch takes its default "as if passed": a
 *    constexpr parameter gets the value as a constexpr; a plain parameter gets what the host
 *    binder would make of the value (int 1 and None -> constexpr, other ints -> i32/i64,
 *    floats -> fp32, bools -> i1), materialized as a constant of that type.
 *  - @jit calls are inlined at the call site (noinline=True too: same semantics). A `return`
 *    inside a run-time `if` of a called function is lowered structurally: the rest of the
 *    function (the rest of every enclosing block, up to the body) is traced into the arm
 *    that did not return, so the `if` yields the return value; falling off the end returns
 *    poison, as Triton does. Not supported inside a loop body of the callee (TC_ERR_UNSUPPORTED
 *    unless every path returns within the body; a `return` directly in a loop is Triton's
 *    error). In the kernel, a `return` in a run-time `if` becomes OP_RETURN in that region
 *    (the region still ends with a YIELD, of poison where the types need it).
 *  - Loop-carried names are found by a pre-scan of the body's assignment targets (Triton does
 *    a dry run): names live before the loop and assigned anywhere in the body, including
 *    branches that are dead for this specialization. A live constexpr number among them is
 *    materialized (sem_to_tensor) first; other constexprs (dtypes, None) are not carried.
 *  - `and`/`or` follow the newest code generator: a constexpr operand that decides the result
 *    short-circuits, one that does not is dropped; two tensors -> sem_logical. Three or more
 *    operands are rejected (the v3.3 message).
 *  - Constexpr ints are Python ints limited to the int64/uint64 range (TC_ERR_LIMIT beyond;
 *    eval.h). */
#include "trace/walk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- values ------------------------------------------------------------------------------ */

Val val_const(CVal c) { Val v; memset(&v, 0, sizeof v); v.kind = V_CONST; v.c = c; return v; }
Val val_tensor(int id, Type t) {
    Val v; memset(&v, 0, sizeof v); v.kind = V_TENSOR; v.id = id; v.type = t; return v;
}
Val val_void(void) { Val v; memset(&v, 0, sizeof v); v.kind = V_VOID; return v; }

Val tr_val_tuple(Val *items, int n) {
    Val v; memset(&v, 0, sizeof v); v.kind = V_TUPLE; v.items = items; v.n = n; return v;
}
static Val val_builtin(const char *path) {
    Val v; memset(&v, 0, sizeof v); v.kind = V_BUILTIN; v.path = path; return v;
}
static Val val_module(const char *path) {
    Val v; memset(&v, 0, sizeof v); v.kind = V_MODULE; v.path = path; return v;
}
static Val val_func(const Func *fn) {
    Val v; memset(&v, 0, sizeof v); v.kind = V_FUNC; v.fn = fn; return v;
}

/* ---- scopes and frames (walk.h) -------------------------------------------------------- */

static Val call_func(Trace *t, const Func *fn, Val *args, int nargs, const char **kwn,
                     Val *kwv, int nkw, SrcLoc loc);

Scope tr_scope_copy(Trace *t, const Scope *s) {
    Scope c = {0};
    c.n = s->n;
    c.cap = s->n + 4;
    c.b = arena_alloc(t->arena, sizeof(Binding) * (size_t)c.cap);
    if (s->n) memcpy(c.b, s->b, sizeof(Binding) * (size_t)s->n);
    return c;
}

Binding *tr_scope_find(const Scope *s, const char *name) {
    for (int i = s->n - 1; i >= 0; i--)
        if (strcmp(s->b[i].name, name) == 0) return &s->b[i];
    return NULL;
}

void tr_scope_set(Trace *t, Scope *s, const char *name, Val v) {
    Binding *b = tr_scope_find(s, name);
    if (b) { b->v = v; return; }
    Binding nb = {name, v};
    ARENA_PUSH(t->arena, s->b, s->n, s->cap, nb);
}

/* ---- small helpers ---------------------------------------------------------------------- */

void tr_enter(Trace *t, SrcLoc loc) {
    if (++t->depth > MAX_DEPTH)
        err_fail(t->err, TC_ERR_LIMIT, loc, "nesting too deep (more than %d levels)", MAX_DEPTH);
    if (++TS(t)->steps > MAX_STEPS)
        err_fail(t->err, TC_ERR_LIMIT, loc,
                 "kernel too large to trace: more than %d statements and expressions evaluated "
                 "(exponential inlining of @jit calls or nested tl.static_range unrolling?)",
                 MAX_STEPS);
}
void tr_leave(Trace *t) { t->depth--; }

const char *tr_kind_name(const Val *v) {
    switch (v->kind) {
    case V_CONST: return eval_type_name(&v->c);
    case V_TENSOR: case V_BLOCKPTR: return "tensor";
    case V_TUPLE: return "tuple";
    case V_FUNC: return "JITFunction";
    case V_BUILTIN: return "builtin_function";
    case V_MODULE: return "module";
    default: return "NoneType";
    }
}

void tr_val_desc(Trace *t, const Val *v, char *buf, size_t n) {
    if (v->kind == V_CONST) { cv_repr(&v->c, buf, n); return; }
    if (v->kind == V_TENSOR) {
        char ty[96];
        type_str(v->type, ty, sizeof ty);
        snprintf(buf, n, "tensor of type %s", ty);
        return;
    }
    if (v->kind == V_BLOCKPTR) { sem_bptr_str(v, buf, n); return; }
    snprintf(buf, n, "%s", tr_kind_name(v));
}

/* ---- constexpr evaluation (eval.c), its errors raised as every tracer error is ------- */

static EvalCtx *ecx(Trace *t, EvalCtx *cx) {
    cx->arena = t->arena;
    cx->err = t->err;
    return cx;
}
/* The evaluator has recorded the error in t->err: unwind to trace_kernel as err_fail does. */
TC_NORETURN static void raise_eval(Trace *t) { longjmp(*t->err->jump, 1); }

static CVal cbinop(Trace *t, PyOp op, const CVal *a, const CVal *b, SrcLoc loc) {
    EvalCtx cx;
    CVal r;
    if (!eval_binop(ecx(t, &cx), op, a, b, loc, &r)) raise_eval(t);
    return r;
}
static CVal ccompare(Trace *t, PyOp op, const CVal *a, const CVal *b, SrcLoc loc) {
    EvalCtx cx;
    CVal r;
    if (!eval_compare(ecx(t, &cx), op, a, b, loc, &r)) raise_eval(t);
    return r;
}
static int corder(Trace *t, PyOp op, const CVal *a, const CVal *b, SrcLoc loc) {
    EvalCtx cx;
    int r;
    if (!eval_order(ecx(t, &cx), op, a, b, loc, &r)) raise_eval(t);
    return r;
}
CVal tr_cunary(Trace *t, PyOp op, const CVal *a, SrcLoc loc) {
    EvalCtx cx;
    CVal r;
    if (!eval_unary(ecx(t, &cx), op, a, loc, &r)) raise_eval(t);
    return r;
}
static CVal cint(Trace *t, const CVal *a, SrcLoc loc) {
    EvalCtx cx;
    CVal r;
    if (!eval_int(ecx(t, &cx), a, loc, &r)) raise_eval(t);
    return r;
}
static CVal cfloat(Trace *t, const CVal *a, SrcLoc loc) {
    EvalCtx cx;
    CVal r;
    if (!eval_float(ecx(t, &cx), a, loc, &r)) raise_eval(t);
    return r;
}

/* Items of a tuple value (V_TUPLE or a constexpr tuple), as Vals. */
bool tr_tuple_items(Trace *t, Val v, Val **items, int *n) {
    if (v.kind == V_TUPLE) { *items = v.items; *n = v.n; return true; }
    if (v.kind == V_CONST && v.c.kind == CV_TUPLE) {
        int k = v.c.v.tup.n;
        Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(k ? k : 1));
        for (int i = 0; i < k; i++) it[i] = val_const(v.c.v.tup.items[i]);
        *items = it;
        *n = k;
        return true;
    }
    return false;
}

/* A tuple of Vals: a constexpr tuple when every item is a constexpr. */
static Val make_tuple(Trace *t, Val *items, int n) {
    bool allc = true;
    for (int i = 0; i < n; i++)
        if (items[i].kind != V_CONST) allc = false;
    if (allc) {
        CVal c = {0};
        c.kind = CV_TUPLE;
        c.v.tup.n = n;
        c.v.tup.items = arena_alloc(t->arena, sizeof(CVal) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++) c.v.tup.items[i] = items[i].c;
        return val_const(c);
    }
    Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(n ? n : 1));
    if (n) memcpy(it, items, sizeof(Val) * (size_t)n);
    return tr_val_tuple(it, n);
}

bool tr_val_same(const Val *a, const Val *b) {
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case V_CONST: return a->c.kind == b->c.kind && cv_eq(&a->c, &b->c);
    case V_TENSOR: return a->id == b->id;
    case V_TUPLE:
        if (a->n != b->n) return false;
        for (int i = 0; i < a->n; i++)
            if (!tr_val_same(&a->items[i], &b->items[i])) return false;
        return true;
    case V_BLOCKPTR:
        if (!sem_bptr_same_kind(a, b)) return false;
        for (int i = 0; i < a->n; i++)
            if (!tr_val_same(&a->items[i], &b->items[i])) return false;
        return true;
    case V_FUNC: return a->fn == b->fn;
    case V_BUILTIN: case V_MODULE:
        if (strcmp(a->path, b->path) != 0 || a->n != b->n) return false;
        return a->n == 0 || tr_val_same(&a->items[0], &b->items[0]);
    default: return true;
    }
}

Val tr_const_tensor(Trace *t, Type ty, int64_t i, double f, SrcLoc loc) {
    Attr at;
    memset(&at, 0, sizeof at);
    at.i = i;
    at.f = f;
    int id = sem_emit(t, OP_CONST, NULL, 0, ty, at, loc);
    return val_tensor(id, ty);
}

void tr_tystr(Type ty, char *buf, size_t n) { type_str(ty, buf, n); }

/* Triton's visit_Assign: any non-tensor, non-dtype Python value becomes a tensor. */
Val tr_sanitize(Trace *t, Val v, SrcLoc loc) {
    switch (v.kind) {
    case V_VOID: return val_const(cv_none());
    case V_TUPLE: {
        Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(v.n ? v.n : 1));
        for (int i = 0; i < v.n; i++) it[i] = tr_sanitize(t, v.items[i], loc);
        return tr_val_tuple(it, v.n);
    }
    case V_CONST:
        switch (v.c.kind) {
        case CV_NONE: case CV_DTYPE: return v;
        case CV_TUPLE: {
            Val *items; int n;
            tr_tuple_items(t, v, &items, &n);
            for (int i = 0; i < n; i++) items[i] = tr_sanitize(t, items[i], loc);
            return tr_val_tuple(items, n);
        }
        case CV_STR: {
            char buf[256];
            cv_repr(&v.c, buf, sizeof buf);
            err_fail(t->err, TC_ERR_COMPILE, loc,
                     "cannot convert %s of type <class 'str'> to tensor (annotate the variable "
                     "with tl.constexpr to keep a compile-time value)", buf);
        }
        default: return sem_to_tensor(t, v, loc);
        }
    default: return v;
    }
}

/* ---- names ------------------------------------------------------------------------------- */

static const char *const module_paths[] = {
    "triton", "triton.language", "triton.language.math", "triton.language.core",
    "triton.language.standard", "triton.language.extra", "triton.language.extra.cuda",
    "triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice",
    "triton.language.extra.hip", "triton.language.extra.hip.libdevice", "math",
    "triton.language.semantic", "triton.compiler",
};

static bool is_module_path(const char *p) {
    for (int i = 0; i < COUNT_OF(module_paths); i++)
        if (!strcmp(p, module_paths[i])) return true;
    return false;
}

/* What a dotted path names: a module, a dtype, or a callable/other builtin object. */
static Val resolve_path(Trace *t, const char *path) {
    if (is_module_path(path)) return val_module(path);
    const char *dot = strrchr(path, '.');
    if (dot && (!strncmp(path, "triton.language.", 16) &&
                (size_t)(dot - path) == 15)) {
        int dt = dtype_from_tl_name(dot + 1);
        if (dt > 0 && dt < DT_COUNT && dt != DT_PTR && strcmp(dot + 1, "constexpr") != 0) {
            CVal c = {0};
            c.kind = CV_DTYPE;
            c.dtype = (uint8_t)dt;
            return val_const(c);
        }
    }
    if (!strcmp(path, "math.pi")) return val_const(cv_float(M_PI));
    if (!strcmp(path, "math.e")) return val_const(cv_float(M_E));
    if (!strcmp(path, "math.inf")) return val_const(cv_float(INFINITY));
    if (!strcmp(path, "math.nan")) return val_const(cv_float(NAN));
    return val_builtin(path);
}

static const char *const py_builtins[] = {
    "range", "min", "max", "print", "int", "float", "len", "abs", "isinstance", "getattr",
    "list", "tuple", "bool", "str", "hasattr",
};

static Val eval_global(Trace *t, int gi) {
    TState *ts = TS(t);
    const Global *g = &t->mod->globals[gi];
    if (ts->gstate[gi] == 2) return ts->gcache[gi];
    if (ts->gstate[gi] == 1)
        err_fail(t->err, TC_ERR_COMPILE, g->loc, "global constexpr %s refers to itself", g->name);
    ts->gstate[gi] = 1;
    Frame fr;
    memset(&fr, 0, sizeof fr);
    Frame *saved = ts->fr;
    ts->fr = &fr;
    Val v = tr_eval(t, g->value);
    ts->fr = saved;
    if (v.kind != V_CONST && v.kind != V_FUNC && v.kind != V_BUILTIN && v.kind != V_MODULE)
        err_fail(t->err, TC_ERR_COMPILE, g->loc,
                 "global %s must be a compile-time constant (tl.constexpr)", g->name);
    ts->gcache[gi] = v;
    ts->gstate[gi] = 2;
    return v;
}

/* For messages: the line of a module-level `def NAME(` (> 0) or `NAME = ...` (< 0) in the
 * source text, which the parser skips as host code; 0 if there is none. */
static int host_def_line(const Source *src, const char *name) {
    if (!src || !src->text) return 0;
    size_t nl = strlen(name);
    int line = 1;
    for (const char *p = src->text; *p; line++) {
        const char *q = p;
        if (!strncmp(q, "async ", 6)) q += 6;
        if (!strncmp(q, "def ", 4)) {
            q += 4;
            while (*q == ' ') q++;
            if (!strncmp(q, name, nl) && (q[nl] == '(' || q[nl] == ' ')) return line;
        } else if (!strncmp(p, name, nl)) {
            q = p + nl;
            while (*q == ' ') q++;
            if (*q == ':' || (*q == '=' && q[1] != '=')) return -line;
        }
        p = strchr(p, '\n');
        if (!p) break;
        p++;
    }
    return 0;
}

Val tr_lookup(Trace *t, const char *name, SrcLoc loc) {
    TState *ts = TS(t);
    Binding *b = tr_scope_find(&ts->fr->sc, name);
    if (b) return b->v;
    const Module *m = t->mod;
    for (int i = m->nglobals - 1; i >= 0; i--)
        if (!strcmp(m->globals[i].name, name)) return eval_global(t, i);
    for (int i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i]->name, name)) return val_func(m->funcs[i]);
    for (int i = m->naliases - 1; i >= 0; i--)
        if (!strcmp(m->aliases[i].name, name)) return resolve_path(t, m->aliases[i].target);
    for (int i = 0; i < COUNT_OF(py_builtins); i++)
        if (!strcmp(py_builtins[i], name))
            return val_builtin(arena_printf(t->arena, "builtins.%s", name));
    int hl = host_def_line(m->src, name);
    if (hl > 0)
        err_fail(t->err, TC_ERR_COMPILE, loc, "'%s' (line %d) is a plain Python function, not "
                 "@triton.jit: a kernel calls only @triton.jit functions and builtins; did you "
                 "forget to add @triton.jit ?", name, hl);
    if (hl < 0)
        err_fail(t->err, TC_ERR_COMPILE, loc, "Cannot access global variable %s (line %d) from "
                 "within @jit'ed function: Triton kernels can only access global variables that "
                 "are instantiated as constexpr (%s = tl.constexpr(...))", name, -hl, name);
    err_fail(t->err, TC_ERR_COMPILE, loc, "NameError: name '%s' is not defined", name);
}

/* ---- attributes -------------------------------------------------------------------------- */

static Val dtype_const(int dt) {
    CVal c = {0};
    c.kind = CV_DTYPE;
    c.dtype = (uint8_t)dt;
    return val_const(c);
}

static Val bound(Trace *t, const char *path, Val self) {
    Val v = val_builtin(path);
    v.items = arena_alloc(t->arena, sizeof(Val));
    v.items[0] = self;
    v.n = 1;
    return v;
}

static Val get_attr(Trace *t, Val v, const char *name, SrcLoc loc) {
    Val out;
    switch (v.kind) {
    case V_MODULE: {
        const char *p = arena_printf(t->arena, "%s.%s", v.path, name);
        if (!strcmp(p, "triton.language.constexpr") || !strcmp(p, "triton.language.core.constexpr"))
            return val_builtin("triton.language.constexpr");
        return resolve_path(t, p);
    }
    case V_BUILTIN:
        if (v.n == 0) return val_builtin(arena_printf(t->arena, "%s.%s", v.path, name));
        break;
    case V_TENSOR:
        if (v.desc) {
            out = sem_desc_attr(t, v, name, loc);
            return out.kind == V_VOID ? bound(t, arena_printf(t->arena, "tensor_descriptor.%s", name), v) : out;
        }
        if (sem_attr(t, v, name, &out, loc) && out.kind != V_VOID) return out;
        return bound(t, arena_printf(t->arena, "tensor.%s", name), v);
    case V_CONST:
        if (!strcmp(name, "value")) return v;
        if (v.c.kind == CV_DTYPE) {
            if (v.c.dtype == DT_PTR && !strcmp(name, "element_ty")) return dtype_const(v.c.elem);
            if (sem_attr(t, v, name, &out, loc) && out.kind != V_VOID) return out;
            if (!strncmp(name, "is_", 3)) return bound(t, arena_printf(t->arena, "dtype.%s", name), v);
            break;
        }
        if (sem_attr(t, v, name, &out, loc) && out.kind != V_VOID) return out;
        break;
    case V_TUPLE:
        if (sem_attr(t, v, name, &out, loc) && out.kind != V_VOID) return out;
        break;
    case V_BLOCKPTR:   /* a block pointer's one method */
        if (!strcmp(name, "advance")) return bound(t, "tensor.advance", v);
        break;
    default: break;
    }
    err_fail(t->err, TC_ERR_COMPILE, loc, "AttributeError: '%s' object has no attribute '%s'",
             tr_kind_name(&v), name);
}

/* ---- expressions ------------------------------------------------------------------------- */

Val tr_binop(Trace *t, PyOp op, Val a, Val b, SrcLoc loc) {
    if (op == PY_MATMUL)
        err_fail(t->err, TC_ERR_SYNTAX, loc, "AST binary operator 'MatMult' is not implemented");
    if (a.kind == V_CONST && b.kind == V_CONST) return val_const(cbinop(t, op, &a.c, &b.c, loc));
    /* tuple concatenation / repetition with non-constexpr items */
    Val *ia, *ib;
    int na, nb;
    bool ta = tr_tuple_items(t, a, &ia, &na), tb = tr_tuple_items(t, b, &ib, &nb);
    if (ta && tb && op == PY_ADD) {
        if ((size_t)na + (size_t)nb > MAX_TUPLE_ITEMS)
            err_fail(t->err, TC_ERR_LIMIT, loc, "tuple longer than 2^16 items");
        Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(na + nb + 1));
        memcpy(it, ia, sizeof(Val) * (size_t)na);
        memcpy(it + na, ib, sizeof(Val) * (size_t)nb);
        return make_tuple(t, it, na + nb);
    }
    if ((ta || tb) && op == PY_MUL) {
        Val k = ta ? b : a;
        Val *items = ta ? ia : ib;
        int n = ta ? na : nb;
        if (k.kind == V_CONST && cv_is_intlike(&k.c) && !k.c.big && k.c.v.i <= 4096) {
            int reps = k.c.v.i < 0 ? 0 : (int)k.c.v.i;
            if ((size_t)n * (size_t)reps > MAX_TUPLE_ITEMS)
                err_fail(t->err, TC_ERR_LIMIT, loc, "tuple repetition longer than 2^16 items");
            Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(n * reps + 1));
            for (int i = 0; i < n * reps; i++) it[i] = items[i % n];
            return make_tuple(t, it, n * reps);
        }
    }
    if (a.kind == V_TENSOR || b.kind == V_TENSOR) {
        if (op == PY_POW)
            err_fail(t->err, TC_ERR_COMPILE, loc,
                     "unsupported operand type(s) for **: '%s' and '%s' (tensors have no "
                     "__pow__; use tl.math functions)", tr_kind_name(&a), tr_kind_name(&b));
        return sem_binary(t, op, a, b, loc);
    }
    err_fail(t->err, TC_ERR_COMPILE, loc, "unsupported operand type(s) for %s: '%s' and '%s'",
             py_op_str(op), tr_kind_name(&a), tr_kind_name(&b));
}

static Val compare(Trace *t, PyOp op, Val a, Val b, SrcLoc loc) {
    if (op == PY_IS || op == PY_IS_NOT) {
        bool same;
        if (a.kind == V_CONST && b.kind == V_CONST) same = a.c.kind == b.c.kind && cv_eq(&a.c, &b.c);
        else same = tr_val_same(&a, &b);
        return val_const(cv_bool(op == PY_IS_NOT ? !same : same));
    }
    if (op == PY_IN || op == PY_NOT_IN) {
        if (a.kind == V_CONST && b.kind == V_CONST)
            return val_const(ccompare(t, op, &a.c, &b.c, loc));
        err_fail(t->err, TC_ERR_SYNTAX, loc,
                 "'%s' is not supported on tensors (only on compile-time tuples)", py_op_str(op));
    }
    if (a.kind == V_CONST && b.kind == V_CONST) return val_const(ccompare(t, op, &a.c, &b.c, loc));
    if (a.kind == V_TENSOR || b.kind == V_TENSOR) return sem_binary(t, op, a, b, loc);
    if (op == PY_EQ || op == PY_NE) {
        bool eq = tr_val_same(&a, &b);
        return val_const(cv_bool(op == PY_EQ ? eq : !eq));
    }
    err_fail(t->err, TC_ERR_COMPILE, loc, "'%s' not supported between instances of '%s' and '%s'",
             py_op_str(op), tr_kind_name(&a), tr_kind_name(&b));
}

static Val unary(Trace *t, PyOp op, Val a, SrcLoc loc) {
    if (a.kind == V_TENSOR) return sem_unary(t, op, a, loc);
    if (a.kind != V_CONST) {
        if (op == PY_NOT) return val_const(cv_bool(false)); /* objects are truthy */
        err_fail(t->err, TC_ERR_COMPILE, loc, "bad operand type for unary %s: '%s'",
                 py_op_str(op), tr_kind_name(&a));
    }
    return val_const(tr_cunary(t, op, &a.c, loc));
}

static int64_t const_index(Trace *t, Val v, int n, SrcLoc loc, bool clamp) {
    if (v.kind != V_CONST || !cv_is_intlike(&v.c) || v.c.big)
        err_fail(t->err, TC_ERR_COMPILE, loc, "tuple indices must be constexpr integers, not %s",
                 tr_kind_name(&v));
    int64_t i = v.c.v.i;
    if (i < 0) i += n;
    if (clamp) return i < 0 ? 0 : i > n ? n : i;
    if (i < 0 || i >= n) err_fail(t->err, TC_ERR_COMPILE, loc, "IndexError: tuple index out of range");
    return i;
}

static Val subscript(Trace *t, const Expr *e) {
    Val base = tr_eval(t, e->lhs);
    SrcLoc loc = e->loc;
    if (base.kind == V_TENSOR) {
        Val cur = base;
        int axis = 0;
        for (int i = 0; i < e->n; i++) {
            const Expr *it = e->items[i];
            if (it->kind == EX_NONE) {
                Val args[2] = {cur, val_const(cv_int(axis))};
                cur = sem_call(t, "triton.language.expand_dims", NULL, args, 2, NULL, NULL, 0,
                               it->loc);
                axis++;
            } else if (it->kind == EX_SLICE && !it->lhs && !it->rhs && !it->cond) {
                axis++;
            } else {
                err_fail(t->err, TC_ERR_SYNTAX, loc,
                         "unsupported tensor index: only `None` and `:` are allowed (got %s)",
                         it->kind == EX_SLICE ? "a slice with bounds" : "an index expression");
            }
        }
        return cur;
    }
    Val *items;
    int n;
    if (!tr_tuple_items(t, base, &items, &n))
        err_fail(t->err, TC_ERR_COMPILE, loc, "'%s' object is not subscriptable", tr_kind_name(&base));
    if (e->n != 1)
        err_fail(t->err, TC_ERR_COMPILE, loc, "tuple indices must be integers or slices, not tuple");
    const Expr *ix = e->items[0];
    if (ix->kind == EX_SLICE) {
        int64_t lo, hi, st = 1;
        if (ix->cond) {
            Val s = tr_eval(t, ix->cond);
            if (s.kind != V_CONST || !cv_is_intlike(&s.c) || s.c.big)
                err_fail(t->err, TC_ERR_COMPILE, ix->loc, "slice step must be a constexpr integer");
            st = s.c.v.i;
            if (st == 0) err_fail(t->err, TC_ERR_COMPILE, ix->loc, "ValueError: slice step cannot be zero");
        }
        if (st > 0) {
            lo = ix->lhs ? const_index(t, tr_eval(t, ix->lhs), n, ix->loc, true) : 0;
            hi = ix->rhs ? const_index(t, tr_eval(t, ix->rhs), n, ix->loc, true) : n;
        } else {
            lo = ix->lhs ? const_index(t, tr_eval(t, ix->lhs), n, ix->loc, true) : n - 1;
            hi = ix->rhs ? const_index(t, tr_eval(t, ix->rhs), n, ix->loc, true) : -1;
            if (lo >= n) lo = n - 1;
        }
        Val *out = arena_alloc(t->arena, sizeof(Val) * (size_t)(n + 1));
        int k = 0;
        for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) out[k++] = items[i];
        return make_tuple(t, out, k);
    }
    Val idx = tr_eval(t, ix);
    return items[const_index(t, idx, n, ix->loc, false)];
}

/* A growing string in the trace arena: an error may longjmp out of fstring at any point
 * (an unknown name, say), and arena memory is freed with the arena, never leaked. */
typedef struct ArenaStr { char *s; int len, cap; } ArenaStr;

static void astr_put(Trace *t, ArenaStr *a, const char *s, size_t n) {
    a->s = arena_grow(t->arena, a->s, &a->cap, a->len + (int)n + 1, 1);
    memcpy(a->s + a->len, s, n);
    a->len += (int)n;
    a->s[a->len] = 0;
}

static Val fstring(Trace *t, const Expr *e) {
    ArenaStr b = {0};
    const char *s = e->str;
    while (*s) {
        if (s[0] == '{' && s[1] == '{') { astr_put(t, &b, "{", 1); s += 2; continue; }
        if (s[0] == '}' && s[1] == '}') { astr_put(t, &b, "}", 1); s += 2; continue; }
        if (s[0] != '{') { astr_put(t, &b, s, 1); s++; continue; }
        const char *end = strchr(s, '}');
        if (!end) break;
        char name[128];
        size_t len = (size_t)(end - s - 1);
        const char *stop = memchr(s + 1, '!', len);
        bool conv_r = stop && stop[1] == 'r';
        if (!stop) stop = memchr(s + 1, ':', len);
        if (stop) len = (size_t)(stop - s - 1);
        while (len && s[1] == ' ') { s++; len--; }
        while (len && s[len] == ' ') len--;
        if (len == 0 || len >= sizeof name)
            err_fail(t->err, TC_ERR_UNSUPPORTED, e->loc, "unsupported f-string expression");
        memcpy(name, s + 1, len);
        name[len] = 0;
        for (size_t i = 0; i < len; i++)
            if (!(name[i] == '_' || name[i] == '.' || (name[i] >= '0' && name[i] <= '9') ||
                  ((name[i] | 32) >= 'a' && (name[i] | 32) <= 'z')))
                err_fail(t->err, TC_ERR_UNSUPPORTED, e->loc,
                         "unsupported f-string expression '%s' (only names are supported)", name);
        /* dotted names: look up the first part, then attributes */
        char *dot = strchr(name, '.');
        if (dot) *dot = 0;
        Val v = tr_lookup(t, arena_strdup(t->arena, name), e->loc);
        while (dot) {
            char *next = strchr(dot + 1, '.');
            if (next) *next = 0;
            v = get_attr(t, v, arena_strdup(t->arena, dot + 1), e->loc);
            dot = next;
        }
        if (v.kind != V_CONST)
            err_fail(t->err, TC_ERR_COMPILE, e->loc,
                     "f-strings may only format compile-time (constexpr) values");
        char rep[512];
        if (v.c.kind == CV_STR && !conv_r) snprintf(rep, sizeof rep, "%s", v.c.v.s);
        else cv_repr(&v.c, rep, sizeof rep);
        astr_put(t, &b, rep, strlen(rep));
        s = end + 1;
    }
    return val_const(cv_str(b.s ? b.s : arena_strdup(t->arena, "")));
}

Val tr_to_i1_scalar(Trace *t, Val c, const char *what, SrcLoc loc) {
    if (c.type.rank != 0) {
        if (type_numel(c.type) != 1)
            err_fail(t->err, TC_ERR_COMPILE, loc,
                     "Boolean value of Tensor with more than one value is ambiguous");
        /* a one-element block: unsplat */
        Type st = type_elem(c.type);
        Attr at;
        memset(&at, 0, sizeof at);
        c = val_tensor(sem_emit(t, OP_RESHAPE, &c.id, 1, st, at, loc), st);
    }
    if (c.type.dt != DT_I1) c = sem_cast(t, c, type_scalar(DT_I1), false, loc);
    return c;
}

void tr_check_cond_type(Trace *t, Val c, SrcLoc loc) {
    if (c.kind == V_CONST &&
        (c.c.kind == CV_BOOL || c.c.kind == CV_INT || c.c.kind == CV_NONE))
        return;
    err_fail(t->err, TC_ERR_COMPILE, loc,
             "`if` conditionals can only accept values of type {bool, int, NoneType}, not "
             "objects of type %s", tr_kind_name(&c));
}



void tr_leaves_push(Trace *t, Leaves *l, Val v) { ARENA_PUSH(t->arena, l->v, l->n, l->cap, v); }

void tr_flatten(Trace *t, Val v, Leaves *l) {
    if (v.kind == V_TUPLE || v.kind == V_BLOCKPTR) {
        for (int i = 0; i < v.n; i++) tr_flatten(t, v.items[i], l);
    } else if (v.kind == V_TENSOR) {
        tr_leaves_push(t, l, v);
    }
}

Val tr_rebuild(Trace *t, Val tmpl, const int *ids, int *k) {
    if (tmpl.kind == V_TUPLE || tmpl.kind == V_BLOCKPTR) {
        Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(tmpl.n ? tmpl.n : 1));
        for (int i = 0; i < tmpl.n; i++) it[i] = tr_rebuild(t, tmpl.items[i], ids, k);
        Val r = tr_val_tuple(it, tmpl.n);
        r.kind = tmpl.kind;
        r.bp = tmpl.bp;
        return r;
    }
    if (tmpl.kind == V_TENSOR) {
        Val v = val_tensor(ids[*k], tmpl.type);
        (*k)++;
        return v;
    }
    return tmpl;
}

/* Pairs up the leaves of a and b (same structure); constexpr numbers are materialized in
 * their region. Returns false if the structures differ. */
bool tr_pair_leaves(Trace *t, Val *a, Val *b, Region *ra, Region *rb, Leaves *la,
                        Leaves *lb, SrcLoc loc) {
    if ((a->kind == V_TUPLE && b->kind == V_TUPLE) || a->kind == V_BLOCKPTR || b->kind == V_BLOCKPTR) {
        if (a->n != b->n || ((a->kind == V_BLOCKPTR || b->kind == V_BLOCKPTR) && !sem_bptr_same_kind(a, b)))
            return false;
        Val *ia = arena_alloc(t->arena, sizeof(Val) * (size_t)(a->n + 1));
        Val *ib = arena_alloc(t->arena, sizeof(Val) * (size_t)(b->n + 1));
        memcpy(ia, a->items, sizeof(Val) * (size_t)a->n);
        memcpy(ib, b->items, sizeof(Val) * (size_t)b->n);
        for (int i = 0; i < a->n; i++)
            if (!tr_pair_leaves(t, &ia[i], &ib[i], ra, rb, la, lb, loc)) return false;
        a->items = ia;
        b->items = ib;
        return true;
    }
    if (a->kind == V_CONST && b->kind == V_CONST && a->c.kind == b->c.kind && cv_eq(&a->c, &b->c))
        return true;
    Region *saved = t->cur;
    if (a->kind == V_CONST && cv_is_num(&a->c) && b->kind == V_TENSOR) {
        t->cur = ra;
        *a = sem_to_tensor(t, *a, loc);
    } else if (b->kind == V_CONST && cv_is_num(&b->c) && a->kind == V_TENSOR) {
        t->cur = rb;
        *b = sem_to_tensor(t, *b, loc);
    }
    t->cur = saved;
    if (a->kind != V_TENSOR || b->kind != V_TENSOR) return false;
    tr_leaves_push(t, la, *a);
    tr_leaves_push(t, lb, *b);
    return true;
}

void tr_emit_yield(Trace *t, Region *r, int op, const Leaves *l, const Val *first, SrcLoc loc) {
    int n = l->n + (first ? 1 : 0);
    int *ids = arena_alloc(t->arena, sizeof(int) * (size_t)(n + 1));
    int k = 0;
    if (first) ids[k++] = first->id;
    for (int i = 0; i < l->n; i++) ids[k++] = l->v[i].id;
    ir_emit(t->f, r, op, ids, n, type_scalar(DT_VOID), loc);
}

static Val ifexp(Trace *t, const Expr *e) {
    Val c = tr_eval(t, e->cond);
    if (c.kind != V_TENSOR) {
        tr_check_cond_type(t, c, e->cond->loc);
        return tr_eval(t, eval_truthy(&c.c) ? e->lhs : e->orelse);
    }
    c = tr_to_i1_scalar(t, c, "ternary", e->cond->loc);
    Region *saved = t->cur;
    Inst *in = ir_emit(t->f, saved, OP_IF, &c.id, 1, type_scalar(DT_VOID), e->loc);
    in->regions[0] = ir_region_new(t->f);
    in->regions[1] = ir_region_new(t->f);
    /* Triton: both arms go through to_tensor */
    t->cur = in->regions[0];
    Val a = tr_eval(t, e->lhs);
    if (a.kind == V_CONST && cv_is_num(&a.c)) a = sem_to_tensor(t, a, e->lhs->loc);
    t->cur = in->regions[1];
    Val b = tr_eval(t, e->orelse);
    if (b.kind == V_CONST && cv_is_num(&b.c)) b = sem_to_tensor(t, b, e->orelse->loc);
    t->cur = saved;
    if (a.kind == V_VOID && b.kind == V_VOID) {
        Leaves none = {0};
        tr_emit_yield(t, in->regions[0], OP_YIELD, &none, NULL, e->loc);
        tr_emit_yield(t, in->regions[1], OP_YIELD, &none, NULL, e->loc);
        return val_void();
    }
    Leaves la = {0}, lb = {0};
    bool ok = tr_pair_leaves(t, &a, &b, in->regions[0], in->regions[1], &la, &lb, e->loc);
    if (ok)
        for (int i = 0; i < la.n; i++)
            if (!type_eq(la.v[i].type, lb.v[i].type)) ok = false;
    if (!ok || (a.kind == V_CONST)) {
        if (ok && a.kind == V_CONST) { /* both the same constexpr */
            Leaves none = {0};
            tr_emit_yield(t, in->regions[0], OP_YIELD, &none, NULL, e->loc);
            tr_emit_yield(t, in->regions[1], OP_YIELD, &none, NULL, e->loc);
            return a;
        }
        char ta[128], tb[128];
        if (a.kind == V_TENSOR) tr_tystr(a.type, ta, sizeof ta); else tr_val_desc(t, &a, ta, sizeof ta);
        if (b.kind == V_TENSOR) tr_tystr(b.type, tb, sizeof tb); else tr_val_desc(t, &b, tb, sizeof tb);
        err_fail(t->err, TC_ERR_COMPILE, e->loc,
                 "Ternary expression with dynamic condition has inconsistent types %s and %s", ta,
                 tb);
    }
    tr_emit_yield(t, in->regions[0], OP_YIELD, &la, NULL, e->loc);
    tr_emit_yield(t, in->regions[1], OP_YIELD, &lb, NULL, e->loc);
    int *ids = arena_alloc(t->arena, sizeof(int) * (size_t)(la.n + 1));
    for (int i = 0; i < la.n; i++) ids[i] = ir_inst_add_result(t->f, in, la.v[i].type);
    int k = 0;
    return tr_rebuild(t, a, ids, &k);
}

/* ---- calls ------------------------------------------------------------------------------- */

static bool all_const(const Val *v, int n) {
    for (int i = 0; i < n; i++)
        if (v[i].kind != V_CONST) return false;
    return true;
}

static Val call_builtin(Trace *t, Val fnv, Val *args, int nargs, const char **kwn, Val *kwv,
                        int nkw, SrcLoc loc) {
    const char *p = fnv.path;
    const Val *self = fnv.n ? &fnv.items[0] : NULL;
    if (!strcmp(p, "triton.language.constexpr")) {
        if (nargs != 1 || nkw)
            err_fail(t->err, TC_ERR_COMPILE, loc, "tl.constexpr() takes exactly one argument");
        if (args[0].kind == V_TENSOR)
            err_fail(t->err, TC_ERR_COMPILE, loc, "tl.constexpr() of a tensor is not a constant");
        return args[0];
    }
    if (!strcmp(p, "builtins.range") || !strcmp(p, "triton.language.range") ||
        !strcmp(p, "triton.language.static_range"))
        err_fail(t->err, TC_ERR_COMPILE, loc,
                 "%s can only be used as the iterator of a `for` loop", strrchr(p, '.') + 1);
    if (self && !strncmp(p, "dtype.", 6) && self->kind == V_CONST && nargs == 0 && nkw == 0) {
        bool r;
        if (sem_dtype_pred(p + 6, self->c.dtype, &r)) return val_const(cv_bool(r));
    }
    if (!strncmp(p, "builtins.", 9) && nkw == 0) {
        const char *b = p + 9;
        bool ac = all_const(args, nargs);
        if (!strcmp(b, "int") && nargs == 1 && ac) return val_const(cint(t, &args[0].c, loc));
        if (!strcmp(b, "float") && nargs == 1 && ac) return val_const(cfloat(t, &args[0].c, loc));
        if (!strcmp(b, "bool") && nargs == 1 && ac) return val_const(cv_bool(eval_truthy(&args[0].c)));
        if (!strcmp(b, "str") && nargs == 1 && ac) {
            char buf[512];
            if (args[0].c.kind == CV_STR) return args[0];
            cv_repr(&args[0].c, buf, sizeof buf);
            return val_const(cv_str(arena_strdup(t->arena, buf)));
        }
        if ((!strcmp(b, "tuple") || !strcmp(b, "list")) && nargs <= 1) {
            if (nargs == 0) return make_tuple(t, NULL, 0);
            Val *it; int n;
            if (tr_tuple_items(t, args[0], &it, &n)) return make_tuple(t, it, n);
        }
        if (!strcmp(b, "len") && nargs == 1) {
            Val *it; int n;
            if (tr_tuple_items(t, args[0], &it, &n)) return val_const(cv_int(n));
            if (args[0].kind == V_CONST && args[0].c.kind == CV_STR)
                return val_const(cv_int((int64_t)strlen(args[0].c.v.s)));
        }
        if (!strcmp(b, "abs") && nargs == 1 && ac && cv_is_num(&args[0].c)) {
            const CVal *c = &args[0].c;
            if (c->kind == CV_FLOAT) return val_const(cv_float(fabs(c->v.f)));
            bool neg = !c->big && c->v.i < 0;
            return val_const(tr_cunary(t, neg ? PY_USUB : PY_UADD, c, loc));
        }
        if ((!strcmp(b, "min") || !strcmp(b, "max")) && nargs >= 1 && ac) {
            Val *it = args; int n = nargs;
            if (nargs == 1 && !tr_tuple_items(t, args[0], &it, &n))
                err_fail(t->err, TC_ERR_COMPILE, loc, "'%s' object is not iterable",
                         tr_kind_name(&args[0]));
            if (n == 0) err_fail(t->err, TC_ERR_COMPILE, loc, "%s() arg is an empty sequence", b);
            if (all_const(it, n)) {
                Val best = it[0];
                for (int i = 1; i < n; i++) {
                    int r = corder(t, b[1] == 'i' ? PY_LT : PY_GT, &it[i].c, &best.c, loc);
                    if (r != 2 && (b[1] == 'i' ? r < 0 : r > 0)) best = it[i];
                }
                return best;
            }
            args = it;
            nargs = n;
        }
        if (!strcmp(b, "isinstance") && nargs == 2) {
            Val x = args[0], ty = args[1];
            Val *tys = &ty; int nt = 1;
            if (ty.kind == V_TUPLE) { tys = ty.items; nt = ty.n; }
            bool r = false;
            for (int i = 0; i < nt; i++) {
                const char *tp = tys[i].kind == V_BUILTIN ? tys[i].path : "";
                if (!strcmp(tp, "builtins.int")) r |= x.kind == V_CONST && cv_is_intlike(&x.c);
                else if (!strcmp(tp, "builtins.float")) r |= x.kind == V_CONST && x.c.kind == CV_FLOAT;
                else if (!strcmp(tp, "builtins.bool")) r |= x.kind == V_CONST && x.c.kind == CV_BOOL;
                else if (!strcmp(tp, "builtins.str")) r |= x.kind == V_CONST && x.c.kind == CV_STR;
                else if (!strcmp(tp, "builtins.tuple") || !strcmp(tp, "triton.language.tuple"))
                    r |= x.kind == V_TUPLE || (x.kind == V_CONST && x.c.kind == CV_TUPLE);
                else if (!strcmp(tp, "triton.language.tensor"))
                    r |= (x.kind == V_TENSOR && !x.desc) || x.kind == V_BLOCKPTR;
                else if (!strcmp(tp, "triton.language.tensor_descriptor") ||
                         !strcmp(tp, "triton.language.tensor_descriptor_base") ||
                         !strcmp(tp, "triton.language.core.tensor_descriptor"))
                    r |= x.kind == V_TENSOR && x.desc;
                else if (!strcmp(tp, "triton.language.constexpr")) r |= x.kind == V_CONST;
                else if (!strcmp(tp, "triton.language.dtype"))
                    r |= x.kind == V_CONST && x.c.kind == CV_DTYPE;
                else
                    err_fail(t->err, TC_ERR_UNSUPPORTED, loc,
                             "isinstance() with this type is not supported");
            }
            return val_const(cv_bool(r));
        }
        if ((!strcmp(b, "getattr") || !strcmp(b, "hasattr")) && nargs >= 2 &&
            args[1].kind == V_CONST && args[1].c.kind == CV_STR) {
            if (b[0] == 'h')
                err_fail(t->err, TC_ERR_UNSUPPORTED, loc, "hasattr() is not supported in kernels");
            return get_attr(t, args[0], args[1].c.v.s, loc);
        }
    }
    if (!strncmp(p, "math.", 5) && all_const(args, nargs) && nkw == 0 && nargs >= 1 &&
        cv_is_num(&args[0].c)) {
        double x = cv_to_double(&args[0].c);
        const char *fn = p + 5;
        if (!strcmp(fn, "log2")) return val_const(cv_float(log2(x)));
        if (!strcmp(fn, "log")) return val_const(cv_float(log(x)));
        if (!strcmp(fn, "sqrt")) return val_const(cv_float(sqrt(x)));
        if (!strcmp(fn, "exp")) return val_const(cv_float(exp(x)));
        if (!strcmp(fn, "ceil")) return val_const(cint(t, &(CVal){.kind = CV_FLOAT, .v.f = ceil(x)}, loc));
        if (!strcmp(fn, "floor")) return val_const(cint(t, &(CVal){.kind = CV_FLOAT, .v.f = floor(x)}, loc));
        err_fail(t->err, TC_ERR_UNSUPPORTED, loc, "math.%s is not supported in kernels", fn);
    }
    if (!strncmp(p, "tensor_descriptor.", 18) && self)
        return sem_desc_call(t, p + 18, *self, args, nargs, kwn, kwv, nkw, loc);
    return sem_call(t, p, self, args, nargs, kwn, kwv, nkw, loc);
}



void tr_eval_call_args(Trace *t, const Expr *e, CallArgs *ca) {
    memset(ca, 0, sizeof *ca);
    for (int i = 0; i < e->n; i++) {
        const Expr *a = e->items[i];
        if (a->kind == EX_STARRED) {
            Val v = tr_eval(t, a->lhs);
            Val *it; int n;
            if (!tr_tuple_items(t, v, &it, &n))
                err_fail(t->err, TC_ERR_COMPILE, a->loc,
                         "argument after * must be an iterable, not %s", tr_kind_name(&v));
            for (int j = 0; j < n; j++) ARENA_PUSH(t->arena, ca->args, ca->n, ca->cap, it[j]);
        } else {
            Val v = tr_eval(t, a);
            ARENA_PUSH(t->arena, ca->args, ca->n, ca->cap, v);
        }
    }
    for (int i = 0; i < e->nkw; i++) {
        if (!e->kw[i].name)
            err_fail(t->err, TC_ERR_UNSUPPORTED, e->kw[i].loc, "**kwargs in calls are not supported");
        Val v = tr_eval(t, e->kw[i].value);
        ARENA_PUSH(t->arena, ca->kwn, ca->nkw, ca->capk, e->kw[i].name);
        ARENA_PUSH(t->arena, ca->kwv, ca->nkv, ca->capv, v);
    }
}

static Val call(Trace *t, const Expr *e) {
    Val fn = tr_eval(t, e->lhs);
    CallArgs ca;
    tr_eval_call_args(t, e, &ca);
    switch (fn.kind) {
    case V_FUNC: return call_func(t, fn.fn, ca.args, ca.n, ca.kwn, ca.kwv, ca.nkw, e->loc);
    case V_BUILTIN: return call_builtin(t, fn, ca.args, ca.n, ca.kwn, ca.kwv, ca.nkw, e->loc);
    default:
        err_fail(t->err, TC_ERR_COMPILE, e->loc, "'%s' object is not callable", tr_kind_name(&fn));
    }
}

/* ---- expression dispatch ----------------------------------------------------------------- */

static Val eval_inner(Trace *t, const Expr *e) {
    switch (e->kind) {
    case EX_NAME: return tr_lookup(t, e->name, e->loc);
    case EX_INT:
        if (e->big)
            err_fail(t->err, TC_ERR_LIMIT, e->loc,
                     "integer literal too large (beyond 64 bits) for a kernel");
        if (e->ival > (uint64_t)INT64_MAX) {
            CVal c = cv_int(0);
            c.big = true;
            c.v.u = e->ival;
            return val_const(c);
        }
        return val_const(cv_int((int64_t)e->ival));
    case EX_FLOAT: return val_const(cv_float(e->fval));
    case EX_STR: return e->fstring ? fstring(t, e) : val_const(cv_str(e->str));
    case EX_TRUE: return val_const(cv_bool(true));
    case EX_FALSE: return val_const(cv_bool(false));
    case EX_NONE: return val_const(cv_none());
    case EX_ELLIPSIS:
        err_fail(t->err, TC_ERR_SYNTAX, e->loc, "unsupported AST node type: Ellipsis");
    case EX_BINOP: {
        if (e->op == PY_MATMUL)
            err_fail(t->err, TC_ERR_SYNTAX, e->loc,
                     "AST binary operator 'MatMult' is not implemented");
        Val a = tr_eval(t, e->lhs);
        Val b = tr_eval(t, e->rhs);
        return tr_binop(t, e->op, a, b, e->loc);
    }
    case EX_UNARY: return unary(t, e->op, tr_eval(t, e->lhs), e->loc);
    case EX_BOOLOP: {
        /* Triton: operands are visited in order; a constexpr that decides the result
         * short-circuits, one that does not is dropped; the tensors left are combined with
         * logical_and/or from the right; none left: the last value */
        bool is_and = e->op == PY_AND;
        Val *nt = arena_alloc(t->arena, sizeof(Val) * (size_t)e->n);
        int nn = 0;
        Val last = val_void();
        for (int i = 0; i < e->n; i++) {
            Val a = tr_eval(t, e->items[i]);
            last = a;
            if (a.kind != V_TENSOR) {
                bool tv = a.kind == V_CONST ? eval_truthy(&a.c) : a.kind != V_VOID;
                if (is_and ? !tv : tv) return a;
                continue;
            }
            nt[nn++] = a;
        }
        if (nn == 0) return last;
        while (nn >= 2) {
            Val rhs = nt[--nn], lhs = nt[--nn];
            nt[nn++] = sem_logical(t, e->op, lhs, rhs, e->loc);
        }
        return nt[0];
    }
    case EX_COMPARE: {
        if (e->n != 2)
            err_fail(t->err, TC_ERR_SYNTAX, e->loc,
                     "simultaneous multiple comparison is not supported");
        Val a = tr_eval(t, e->items[0]);
        Val b = tr_eval(t, e->items[1]);
        return compare(t, e->ops[0], a, b, e->loc);
    }
    case EX_IFEXP: return ifexp(t, e);
    case EX_CALL: return call(t, e);
    case EX_ATTR: return get_attr(t, tr_eval(t, e->lhs), e->name, e->loc);
    case EX_SUBSCRIPT: return subscript(t, e);
    case EX_TUPLE: case EX_LIST: {
        Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(e->n + 1));
        int n = 0, cap = e->n + 1;
        for (int i = 0; i < e->n; i++) {
            if (e->items[i]->kind == EX_STARRED) {
                Val v = tr_eval(t, e->items[i]->lhs);
                Val *si; int sn;
                if (!tr_tuple_items(t, v, &si, &sn))
                    err_fail(t->err, TC_ERR_COMPILE, e->items[i]->loc,
                             "cannot unpack a %s with *", tr_kind_name(&v));
                for (int j = 0; j < sn; j++) ARENA_PUSH(t->arena, it, n, cap, si[j]);
            } else {
                Val v = tr_eval(t, e->items[i]);
                ARENA_PUSH(t->arena, it, n, cap, v);
            }
        }
        return make_tuple(t, it, n);
    }
    case EX_SLICE:
        err_fail(t->err, TC_ERR_SYNTAX, e->loc, "unsupported AST node type: Slice");
    case EX_STARRED:
        err_fail(t->err, TC_ERR_SYNTAX, e->loc, "unsupported AST node type: Starred");
    case EX_DICT: err_fail(t->err, TC_ERR_SYNTAX, e->loc, "unsupported AST node type: Dict");
    case EX_LAMBDA: err_fail(t->err, TC_ERR_SYNTAX, e->loc, "unsupported AST node type: Lambda");
    case EX_OTHER:
        err_fail(t->err, TC_ERR_SYNTAX, e->loc, "unsupported AST node type: %s",
                 e->name ? e->name : "?");
    }
    err_fail(t->err, TC_ERR_INTERNAL, e->loc, "unknown expression kind %d", e->kind);
}

Val tr_eval(Trace *t, const Expr *e) {
    tr_enter(t, e->loc);
    Val v = eval_inner(t, e);
    tr_leave(t);
    return v;
}

/* ---- @jit calls -------------------------------------------------------------------------- */

static Val eval_default(Trace *t, const Param *p) {
    TState *ts = TS(t);
    Frame fr;
    memset(&fr, 0, sizeof fr);
    Frame *saved = ts->fr;
    ts->fr = &fr;
    Val v = tr_eval(t, p->deflt);
    ts->fr = saved;
    return v;
}

/* the default of parameter i of the @jit function ctx, as bind_args asks for it */
static Val *jit_default(Trace *t, const void *ctx, int i) {
    Val *v = arena_alloc(t->arena, sizeof(Val));
    *v = eval_default(t, &((const Func *)ctx)->params[i]);
    return v;
}

static Val call_func(Trace *t, const Func *fn, Val *args, int nargs, const char **kwn,
                     Val *kwv, int nkw, SrcLoc loc) {
    TState *ts = TS(t);
    if (ts->call_depth >= MAX_CALL_DEPTH)
        err_fail(t->err, TC_ERR_LIMIT, loc,
                 "recursion between @jit functions is not supported (depth %d)", MAX_CALL_DEPTH);
    int np = fn->nparams;
    ParamSpec *ps = arena_alloc(t->arena, sizeof(ParamSpec) * (size_t)(np + 1));
    for (int i = 0; i < np; i++) {
        ps[i].name = fn->params[i].name;
        ps[i].optional = fn->params[i].deflt != NULL;
    }
    ParamList pl = {0};
    pl.fname = fn->name;
    pl.p = ps;
    pl.n = pl.npos = np;
    pl.dflt = jit_default;
    pl.ctx = fn;
    Val **bound_v = arena_alloc(t->arena, sizeof(Val *) * (size_t)(np + 1));
    bind_args(t, loc, &pl, args, nargs, kwn, kwv, nkw, bound_v, NULL, NULL);
    Frame fr;
    memset(&fr, 0, sizeof fr);
    fr.fn = fn;
    for (int i = 0; i < np; i++) {
        Val v = *bound_v[i];
        if (v.kind == V_VOID) v = val_const(cv_none());
        tr_scope_set(t, &fr.sc, fn->params[i].name, v);
    }
    Frame *saved = ts->fr;
    ts->fr = &fr;
    ts->call_depth++;
    tr_enter(t, loc);
    tr_walk_stmts_from(t, &fn->body, 0, CONT_BODY);
    tr_leave(t);
    ts->call_depth--;
    ts->fr = saved;
    return fr.has_ret ? fr.ret : val_void();
}

Val trace_call_func(Trace *t, const Func *fn, Val *args, int nargs, SrcLoc loc) {
    return call_func(t, fn, args, nargs, NULL, NULL, 0, loc);
}

/* ---- the kernel -------------------------------------------------------------------------- */

static Val bind_kernel_default(Trace *t, const Param *p) {
    Val v = eval_default(t, p);
    if (p->is_constexpr || v.kind != V_CONST) return v;
    /* as the host binder would pass it */
    switch (v.c.kind) {
    case CV_INT:
        if (!v.c.big && v.c.v.i == 1) return v;
        return sem_to_tensor(t, v, p->loc);
    case CV_FLOAT: return tr_const_tensor(t, type_scalar(DT_FP32), 0, (double)(float)v.c.v.f, p->loc);
    case CV_BOOL: return tr_const_tensor(t, type_scalar(DT_I1), v.c.v.i, 0, p->loc);
    default: return v;
    }
}

/* TRITON_F32_DEFAULT: tl.dot's input_precision when a call names none (NULL: unset). */
const char *trace_f32_default(void) {
    const char *v = getenv("TRITON_F32_DEFAULT");
    return v && *v ? v : NULL;
}

/* It is part of the specialization key: 0 unset, else 1 + a hash of the text. */
int trace_f32_default_key(void) {
    const char *v = trace_f32_default();
    return v ? 1 + (int)(hash_bytes(v, strlen(v), 0) & 0x7fff) : 0;
}

bool trace_debug(void) {
    const char *dbg = getenv("TRITON_DEBUG");
    return dbg && dbg[0] == '1';
}

IrFunc *trace_kernel(const Module *m, const Func *k, const SpecArg *args, Arena *a, Err *e,
                     Buf *out) {
    jmp_buf jb;
    jmp_buf *saved_jump = e->jump;
    Trace tr;
    memset(&tr, 0, sizeof tr);
    TState ts;
    memset(&ts, 0, sizeof ts);
    Frame fr;
    memset(&fr, 0, sizeof fr);
    tr.mod = m;
    tr.arena = a;
    tr.err = e;
    tr.out = out;
    tr.priv = &ts;
    ts.debug = tr.debug = trace_debug() || k->debug;
    Trace *volatile t = &tr;
    /* allocation failures in `a` unwind here too, and tracing one specialization may take
     * at most TRACE_MEMORY_LIMIT more of it: constexpr tuples of 2^20 items built in a
     * static_range loop would otherwise take the host's memory */
    Err *saved_aerr = a->err;
    size_t saved_limit = a->limit;
    a->err = e;
    if (!a->limit || a->limit > a->total + TRACE_MEMORY_LIMIT) a->limit = a->total + TRACE_MEMORY_LIMIT;
    if (ERR_TRY(e, jb)) {
        e->jump = saved_jump;
        a->err = saved_aerr;
        a->limit = saved_limit;
        if (e->code == TC_ERR_LIMIT && !e->loc.src && TS(t)->stmt_loc.src)
            err_set(e, e->code, TS(t)->stmt_loc, "kernel too large to trace: %s needs more "
                    "than %zu MiB for its constexpr values and IR", k->name,
                    TRACE_MEMORY_LIMIT >> 20);
        return NULL;
    }
    ts.gcache = arena_alloc(a, sizeof(Val) * (size_t)(m->nglobals + 1));
    ts.gstate = arena_alloc(a, (size_t)(m->nglobals + 1));
    t->f = ir_func_new(a, k->name);
    t->cur = t->f->body;
    fr.fn = k;
    fr.is_kernel = true;
    ts.fr = &fr;
    for (int i = 0; i < k->nparams; i++) {
        const Param *p = &k->params[i];
        const SpecArg *sa = &args[i];
        Val v;
        if (sa->missing) {
            if (!p->deflt)
                err_fail(e, TC_ERR_ARG, p->loc, "missing a required argument: '%s'", p->name);
            v = bind_kernel_default(t, p);
        } else if (sa->is_constexpr) {
            v = val_const(sa->cv);
        } else {
            if (p->is_constexpr)
                err_fail(e, TC_ERR_ARG, p->loc,
                         "argument '%s' is a tl.constexpr and needs a compile-time value", p->name);
            if (sa->type.rank != 0 || sa->type.dt == DT_VOID || sa->type.dt >= DT_COUNT)
                err_fail(e, TC_ERR_ARG, p->loc, "argument '%s' has an invalid type", p->name);
            int id = ir_param_add(t->f, p->name, sa->type, sa->div16, p->loc);
            v = val_tensor(id, sa->type);
            v.desc = sa->desc;
        }
        tr_scope_set(t, &fr.sc, p->name, v);
    }
    tr_walk_stmts_from(t, &k->body, 0, CONT_BODY);
    IrFunc *f = t->f;
    if (!ir_verify(f, e)) {
        e->jump = saved_jump;
        a->err = saved_aerr;
        a->limit = saved_limit;
        return NULL;
    }
    ir_optimize(f);
    e->jump = saved_jump;
    a->err = saved_aerr;
    a->limit = saved_limit;
    return f;
}
