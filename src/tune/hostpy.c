/* hostpy.c — the host-Python subset that configures kernels: the module's own statements
 * (constants, defs, module-level if/elif/else), evaluated on demand, never ahead, so that
 * only what a decorator or hook needs is run and an error is raised only for a value that
 * is needed. Numbers go through the tracer's evaluator (trace/eval.h): one numeric model.
 *
 * A name at module level is found by walking the module's statements backwards from where
 * it is used (Python's order of execution, for straight-line module code): a def, an
 * assignment (its value computed once and kept), an if whose taken branch binds it. Loops
 * and method calls at module level that would change a value are refused where they matter.
 * Hardware questions are answered by the driver layer (hw_answer): the GPU, a target the
 * user names to assume (TRITONC_TARGET), or Triton's "0 active drivers" error.
 *
 * Errors unwind with err_fail to the entry points' ERR_TRY; everything lives in the
 * HostPy's arena, freed with the kernel's tuning state. */
#include "tune/tuneint.h"
#include "trace/eval.h"
#include "driver/cuda.h"
#include "base/target.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HP_MAX_DEPTH 200
#define HP_MAX_ITEMS (1 << 20)
#define HP_MAX_STEPS 50000000LL

enum { H_NONE, H_BOOL, H_INT, H_FLOAT, H_STR, H_TUPLE, H_LIST, H_SET, H_DICT, H_FUNC, H_NS,
       H_OBJ, H_TENSOR, H_METHOD };

typedef struct HV HV;
typedef struct HSeq { HV *v; int n, cap; } HSeq;
typedef struct HDict { HV *k, *v; int n, cap; } HDict;
typedef struct HEnv HEnv;
typedef struct HFn { const Func *def; const Expr *lam; HEnv *env; } HFn;
typedef struct HObj { const char *type; HDict *attrs; SrcLoc loc; } HObj;

struct HV {
    uint8_t kind;
    int64_t i;          /* H_INT, H_BOOL */
    double f;           /* H_FLOAT */
    const char *s;      /* H_STR; H_NS path; H_METHOD name */
    HSeq *seq;          /* H_TUPLE, H_LIST, H_SET */
    HDict *d;           /* H_DICT */
    HFn *fn;
    HObj *o;
    tc_tensor *t;
    HV *self;           /* H_METHOD */
};

struct HEnv { HEnv *up; const char **names; HV *vals; int n, cap; };

typedef struct Pos { Stmt *const *st; int upto; const struct Pos *outer; } Pos;
typedef struct SMemo { const Stmt *s; int state; HV v; } SMemo;
typedef struct EnvRead { const char *name, *value; } EnvRead;
typedef struct PyParsed { Source *src; Module *m; } PyParsed;

struct HostPy {
    Arena a;
    Err *err;
    const Module *m;
    tc_kernel *k;
    tc_context *ctx;
    SMemo *memo; int nmemo, capmemo;
    EnvRead *envr; int nenvr, capenvr;
    PyParsed *parsed; int nparsed, capparsed;   /* f-string expressions */
    int depth;
    long long steps;
    bool assumed;            /* a hardware question was answered for TRITONC_TARGET */
    /* the autotuner's Python values */
    HSeq *configs;           /* Config objects, index-aligned with the TuneKernel's */
    HV prune, perf_model, top_k, pre_hook, post_hook;
};

typedef struct Frame {
    HostPy *H;
    HEnv *env;               /* NULL at module level */
    const Pos *gpos;         /* where module-level names are looked up */
    bool ret, brk, cont;
    HV rv;
} Frame;

static HV hv(int kind) { HV v; memset(&v, 0, sizeof v); v.kind = (uint8_t)kind; return v; }
static HV hint(int64_t i) { HV v = hv(H_INT); v.i = i; return v; }
static HV hbool(bool b) { HV v = hv(H_BOOL); v.i = b; return v; }
static HV hfloat(double f) { HV v = hv(H_FLOAT); v.f = f; return v; }
static HV hstr(const char *s) { HV v = hv(H_STR); v.s = s; return v; }
static HV hns(const char *p) { HV v = hv(H_NS); v.s = p; return v; }

#define FAIL(F, code, loc, ...) err_fail((F)->H->err, code, loc, __VA_ARGS__)

static HSeq *seq_new(HostPy *H) { return arena_alloc(&H->a, sizeof(HSeq)); }
static void seq_push(HostPy *H, HSeq *s, HV v) {
    if (s->n >= HP_MAX_ITEMS) err_fail(H->err, TC_ERR_LIMIT, (SrcLoc){0}, "host code built a sequence of more than %d items", HP_MAX_ITEMS);
    ARENA_PUSH(&H->a, s->v, s->n, s->cap, v);
}
static HV hseq(int kind, HSeq *s) { HV v = hv(kind); v.seq = s; return v; }
static HDict *dict_new(HostPy *H) { return arena_alloc(&H->a, sizeof(HDict)); }

static bool hv_eq(const HV *a, const HV *b);
static int dict_find(const HDict *d, const HV *k) {
    for (int i = 0; i < d->n; i++)
        if (hv_eq(&d->k[i], k)) return i;
    return -1;
}
static void dict_set(HostPy *H, HDict *d, HV k, HV v) {
    int i = dict_find(d, &k);
    if (i >= 0) { d->v[i] = v; return; }
    int c1 = d->cap, c2 = d->cap;
    ARENA_PUSH(&H->a, d->k, d->n, c1, k);
    d->n--;
    ARENA_PUSH(&H->a, d->v, d->n, c2, v);
    d->cap = c1 < c2 ? c1 : c2;
}
static HV *dict_get(const HDict *d, const char *key) {
    for (int i = 0; i < d->n; i++)
        if (d->k[i].kind == H_STR && !strcmp(d->k[i].s, key)) return &d->v[i];
    return NULL;
}
static void dict_sets(HostPy *H, HDict *d, const char *k, HV v) { dict_set(H, d, hstr(k), v); }

static HV hobj(HostPy *H, const char *type, SrcLoc loc) {
    HV v = hv(H_OBJ);
    v.o = arena_alloc(&H->a, sizeof(HObj));
    v.o->type = type;
    v.o->attrs = dict_new(H);
    v.o->loc = loc;
    return v;
}

/* ---- Python's view of values ------------------------------------------------------------- */

static const char *tname(const HV *v) {
    switch (v->kind) {
    case H_NONE: return "NoneType";
    case H_BOOL: return "bool";
    case H_INT: return "int";
    case H_FLOAT: return "float";
    case H_STR: return "str";
    case H_TUPLE: return "tuple";
    case H_LIST: return "list";
    case H_SET: return "set";
    case H_DICT: return "dict";
    case H_FUNC: return "function";
    case H_NS: return "module";
    case H_OBJ: return v->o->type;
    case H_TENSOR: return v->t->drank ? "TensorDescriptor" : "Tensor";
    default: return "builtin_function_or_method";
    }
}

static bool truthy(const HV *v) {
    switch (v->kind) {
    case H_NONE: return false;
    case H_BOOL: case H_INT: return v->i != 0;
    case H_FLOAT: return v->f != 0;
    case H_STR: return v->s[0] != 0;
    case H_TUPLE: case H_LIST: case H_SET: return v->seq->n != 0;
    case H_DICT: return v->d->n != 0;
    default: return true;
    }
}

static bool is_num(const HV *v) { return v->kind == H_INT || v->kind == H_BOOL || v->kind == H_FLOAT; }

static bool hv_eq(const HV *a, const HV *b) {
    if (is_num(a) && is_num(b)) {
        if (a->kind != H_FLOAT && b->kind != H_FLOAT) return a->i == b->i;
        double x = a->kind == H_FLOAT ? a->f : (double)a->i, y = b->kind == H_FLOAT ? b->f : (double)b->i;
        return x == y;
    }
    bool sa = a->kind == H_TUPLE || a->kind == H_LIST, sb = b->kind == H_TUPLE || b->kind == H_LIST;
    if (sa && sb) {
        if (a->kind != b->kind || a->seq->n != b->seq->n) return false;
        for (int i = 0; i < a->seq->n; i++)
            if (!hv_eq(&a->seq->v[i], &b->seq->v[i])) return false;
        return true;
    }
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case H_NONE: return true;
    case H_STR: case H_NS: return !strcmp(a->s, b->s);
    case H_DICT:
        if (a->d->n != b->d->n) return false;
        for (int i = 0; i < a->d->n; i++) {
            int j = dict_find(b->d, &a->d->k[i]);
            if (j < 0 || !hv_eq(&a->d->v[i], &b->d->v[j])) return false;
        }
        return true;
    case H_SET:
        if (a->seq->n != b->seq->n) return false;
        for (int i = 0; i < a->seq->n; i++) {
            bool f = false;
            for (int j = 0; j < b->seq->n && !f; j++) f = hv_eq(&a->seq->v[i], &b->seq->v[j]);
            if (!f) return false;
        }
        return true;
    case H_FUNC: return a->fn == b->fn;
    case H_OBJ: return a->o == b->o;
    case H_TENSOR: return a->t == b->t;
    default: return false;
    }
}

static void repr_into(const HV *v, Buf *b, bool str);
static void seq_repr(const HSeq *s, Buf *b, const char *open, const char *close, bool tuple) {
    buf_puts(b, open);
    for (int i = 0; i < s->n; i++) {
        if (i) buf_puts(b, ", ");
        repr_into(&s->v[i], b, false);
    }
    if (tuple && s->n == 1) buf_puts(b, ",");
    buf_puts(b, close);
}
static void repr_into(const HV *v, Buf *b, bool str) {
    char t[64];
    switch (v->kind) {
    case H_NONE: buf_puts(b, "None"); break;
    case H_BOOL: buf_puts(b, v->i ? "True" : "False"); break;
    case H_INT: buf_printf(b, "%lld", (long long)v->i); break;
    case H_FLOAT: tc_format_double(v->f, t, sizeof t); buf_puts(b, t); break;
    case H_STR: if (str) buf_puts(b, v->s); else buf_printf(b, "'%s'", v->s); break;
    case H_TUPLE: seq_repr(v->seq, b, "(", ")", true); break;
    case H_LIST: seq_repr(v->seq, b, "[", "]", false); break;
    case H_SET: if (!v->seq->n) buf_puts(b, "set()"); else seq_repr(v->seq, b, "{", "}", false); break;
    case H_DICT:
        buf_puts(b, "{");
        for (int i = 0; i < v->d->n; i++) {
            if (i) buf_puts(b, ", ");
            repr_into(&v->d->k[i], b, false);
            buf_puts(b, ": ");
            repr_into(&v->d->v[i], b, false);
        }
        buf_puts(b, "}");
        break;
    case H_NS: buf_puts(b, v->s); break;
    case H_FUNC: buf_printf(b, "<function %s>", v->fn->def ? v->fn->def->name : "<lambda>"); break;
    case H_OBJ:
        if (!strcmp(v->o->type, "GPUTarget")) {
            HV *be = dict_get(v->o->attrs, "backend"), *ar = dict_get(v->o->attrs, "arch"),
               *ws = dict_get(v->o->attrs, "warp_size");
            buf_printf(b, "GPUTarget(backend='%s', arch=%lld, warp_size=%lld)", be ? be->s : "?",
                       ar ? (long long)ar->i : 0LL, ws ? (long long)ws->i : 0LL);
        } else buf_printf(b, "<%s object>", v->o->type);
        break;
    case H_TENSOR: buf_printf(b, "<tensor %s>", heval_torch_dtype(v->t->dtype)); break;
    default: buf_printf(b, "<built-in method %s>", v->s); break;
    }
}

static const char *repr_str(HostPy *H, const HV *v, bool str) {
    Buf b = {0};
    repr_into(v, &b, str);
    char *s = arena_strdup(&H->a, b.s ? b.s : "");
    buf_free(&b);
    return s;
}

/* ---- numbers, through the tracer's evaluator ------------------------------------------- */

static CVal to_cv(Frame *F, const HV *v, SrcLoc loc) {
    switch (v->kind) {
    case H_BOOL: return cv_bool(v->i != 0);
    case H_INT: return cv_int(v->i);
    case H_FLOAT: return cv_float(v->f);
    case H_STR: return cv_str(v->s);
    case H_NONE: return cv_none();
    default: FAIL(F, TC_ERR_INTERNAL, loc, "internal error: not a number");
    }
}

static HV from_cv(Frame *F, const CVal *z, SrcLoc loc) {
    if (z->kind == CV_BOOL) return hbool(z->v.i != 0);
    if (z->kind == CV_FLOAT) return hfloat(z->v.f);
    if (z->kind == CV_INT && !z->big) return hint(z->v.i);
    if (z->kind == CV_STR) return hstr(arena_strdup(&F->H->a, z->v.s));
    if (z->kind == CV_INT) FAIL(F, TC_ERR_LIMIT, loc, "OverflowError: %llu is beyond the 64-bit range of host values", (unsigned long long)z->v.u);
    FAIL(F, TC_ERR_INTERNAL, loc, "internal error: a %s from an operator", eval_type_name(z));
}

/* a op b through eval.h; its message comes back with this expression's location. */
static HV cv_op(Frame *F, PyOp op, const HV *a, const HV *b, bool cmp, SrcLoc loc) {
    Err ee = {0};
    Arena ar;
    arena_init(&ar, &ee);
    EvalCtx cx = {&ar, &ee};
    CVal x = to_cv(F, a, loc), y = b ? to_cv(F, b, loc) : cv_none(), z;
    bool ok = cmp ? eval_compare(&cx, op, &x, &y, loc, &z)
              : b ? eval_binop(&cx, op, &x, &y, loc, &z) : eval_unary(&cx, op, &x, loc, &z);
    HV r = hv(H_NONE);
    if (ok) {
        if (z.kind == CV_STR) z.v.s = arena_strdup(&F->H->a, z.v.s);
        r = z.kind == CV_STR ? hstr(z.v.s) : hv(H_NONE);
        if (z.kind != CV_STR) { arena_free(&ar); return from_cv(F, &z, loc); }
    }
    arena_free(&ar);
    if (!ok) {
        const char *m = strstr(ee.msg, "error: ");
        m = m ? m + 7 : ee.msg;
        FAIL(F, ee.code == TC_ERR_COMPILE ? TC_ERR_ARG : ee.code, loc, "%.*s", (int)strcspn(m, "\n"), m);
    }
    return r;
}

static bool scalarish(const HV *v) { return is_num(v) || v->kind == H_STR || v->kind == H_NONE; }

static HV binop(Frame *F, PyOp op, HV a, HV b, SrcLoc loc) {
    HostPy *H = F->H;
    bool sa = a.kind == H_LIST || a.kind == H_TUPLE, sb = b.kind == H_LIST || b.kind == H_TUPLE;
    if (op == PY_ADD && sa && a.kind == b.kind) {
        HSeq *s = seq_new(H);
        for (int i = 0; i < a.seq->n; i++) seq_push(H, s, a.seq->v[i]);
        for (int i = 0; i < b.seq->n; i++) seq_push(H, s, b.seq->v[i]);
        return hseq(a.kind, s);
    }
    if (op == PY_MUL && (sa || sb) && (a.kind == H_INT || b.kind == H_INT)) {
        HV s = sa ? a : b;
        int64_t n = sa ? b.i : a.i;
        if (n * (int64_t)s.seq->n > HP_MAX_ITEMS) FAIL(F, TC_ERR_LIMIT, loc, "sequence too long");
        HSeq *r = seq_new(H);
        for (int64_t k = 0; k < n; k++)
            for (int i = 0; i < s.seq->n; i++) seq_push(H, r, s.seq->v[i]);
        return hseq(s.kind, r);
    }
    if (op == PY_BITOR && a.kind == H_DICT && b.kind == H_DICT) {
        HDict *d = dict_new(H);
        for (int i = 0; i < a.d->n; i++) dict_set(H, d, a.d->k[i], a.d->v[i]);
        for (int i = 0; i < b.d->n; i++) dict_set(H, d, b.d->k[i], b.d->v[i]);
        HV r = hv(H_DICT);
        r.d = d;
        return r;
    }
    if (op == PY_MOD && a.kind == H_STR)
        FAIL(F, TC_ERR_UNSUPPORTED, loc, "'%%' string formatting is not in tritonc's host subset (use an f-string)");
    if (!scalarish(&a) || !scalarish(&b) || a.kind == H_NONE || b.kind == H_NONE)
        FAIL(F, TC_ERR_ARG, loc, "TypeError: unsupported operand type(s) for %s: '%s' and '%s'", py_op_str(op), tname(&a), tname(&b));
    return cv_op(F, op, &a, &b, false, loc);
}

static int order(Frame *F, const HV *a, const HV *b, PyOp op, SrcLoc loc) {
    if ((a->kind == H_TUPLE || a->kind == H_LIST) && a->kind == b->kind) {
        for (int i = 0; i < a->seq->n && i < b->seq->n; i++) {
            int o = order(F, &a->seq->v[i], &b->seq->v[i], op, loc);
            if (o) return o;
        }
        return a->seq->n < b->seq->n ? -1 : a->seq->n > b->seq->n;
    }
    if (!((is_num(a) && is_num(b)) || (a->kind == H_STR && b->kind == H_STR)))
        FAIL(F, TC_ERR_ARG, loc, "TypeError: '%s' not supported between instances of '%s' and '%s'", py_op_str(op), tname(a), tname(b));
    HV lt = cv_op(F, PY_LT, a, b, true, loc), gt = cv_op(F, PY_GT, a, b, true, loc);
    return lt.i ? -1 : gt.i ? 1 : 0;
}

static bool contains(Frame *F, const HV *c, const HV *x, SrcLoc loc);

static bool compare(Frame *F, PyOp op, HV a, HV b, SrcLoc loc) {
    switch (op) {
    case PY_EQ: return hv_eq(&a, &b);
    case PY_NE: return !hv_eq(&a, &b);
    case PY_IS: case PY_IS_NOT: {
        bool same = a.kind == b.kind && (a.kind == H_NONE || (a.kind == H_BOOL && a.i == b.i) ||
                                         ((a.kind == H_OBJ || a.kind == H_LIST || a.kind == H_DICT || a.kind == H_FUNC) && hv_eq(&a, &b)) ||
                                         (a.kind == H_NS && !strcmp(a.s, b.s)));
        return op == PY_IS ? same : !same;
    }
    case PY_IN: return contains(F, &b, &a, loc);
    case PY_NOT_IN: return !contains(F, &b, &a, loc);
    default: {
        if (is_num(&a) && is_num(&b)) return cv_op(F, op, &a, &b, true, loc).i != 0;
        int o = order(F, &a, &b, op, loc);
        return op == PY_LT ? o < 0 : op == PY_LE ? o <= 0 : op == PY_GT ? o > 0 : o >= 0;
    }
    }
}

/* ---- environment variables (recorded: they are part of the tuning key) ------------------ */

static const char *env_read(HostPy *H, const char *name) {
    const char *v = getenv(name);
    for (int i = 0; i < H->nenvr; i++)
        if (!strcmp(H->envr[i].name, name)) return v;
    EnvRead r = {arena_strdup(&H->a, name), v ? arena_strdup(&H->a, v) : NULL};
    ARENA_PUSH(&H->a, H->envr, H->nenvr, H->capenvr, r);
    return v;
}

static bool contains(Frame *F, const HV *c, const HV *x, SrcLoc loc) {
    switch (c->kind) {
    case H_STR:
        if (x->kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "TypeError: 'in <string>' requires string as left operand, not %s", tname(x));
        return strstr(c->s, x->s) != NULL;
    case H_TUPLE: case H_LIST: case H_SET:
        for (int i = 0; i < c->seq->n; i++)
            if (hv_eq(&c->seq->v[i], x)) return true;
        return false;
    case H_DICT: return dict_find(c->d, x) >= 0;
    case H_NS:
        if (!strcmp(c->s, "os.environ") && x->kind == H_STR) return env_read(F->H, x->s) != NULL;
        break;
    case H_OBJ: return dict_find(c->o->attrs, x) >= 0;
    }
    FAIL(F, TC_ERR_ARG, loc, "TypeError: argument of type '%s' is not iterable", tname(c));
}

/* ---- iteration --------------------------------------------------------------------------- */

static HSeq *iter_items(Frame *F, HV v, SrcLoc loc) {
    HostPy *H = F->H;
    switch (v.kind) {
    case H_TUPLE: case H_LIST: case H_SET: return v.seq;
    case H_DICT: {
        HSeq *s = seq_new(H);
        for (int i = 0; i < v.d->n; i++) seq_push(H, s, v.d->k[i]);
        return s;
    }
    case H_STR: {
        HSeq *s = seq_new(H);
        for (const char *p = v.s; *p; p++) seq_push(H, s, hstr(arena_strndup(&H->a, p, 1)));
        return s;
    }
    case H_TENSOR: break;
    }
    FAIL(F, TC_ERR_ARG, loc, "TypeError: '%s' object is not iterable", tname(&v));
}

/* ---- names -------------------------------------------------------------------------------- */

static HV eval(Frame *F, const Expr *e);
static void exec_block(Frame *F, const Block *b);
static HV call_value(Frame *F, HV f, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc);

static HV *env_find(HEnv *env, const char *name) {
    for (HEnv *e = env; e; e = e->up)
        for (int i = e->n - 1; i >= 0; i--)
            if (!strcmp(e->names[i], name)) return &e->vals[i];
    return NULL;
}
static void env_set(HostPy *H, HEnv *env, const char *name, HV v) {
    for (int i = 0; i < env->n; i++)
        if (!strcmp(env->names[i], name)) { env->vals[i] = v; return; }
    int c1 = env->cap, c2 = env->cap;
    ARENA_PUSH(&H->a, env->names, env->n, c1, name);
    env->n--;
    ARENA_PUSH(&H->a, env->vals, env->n, c2, v);
    env->cap = c1 < c2 ? c1 : c2;
}

static bool target_binds(const Expr *t, const char *name) {
    if (!t) return false;
    if (t->kind == EX_NAME) return !strcmp(t->name, name);
    if (t->kind == EX_TUPLE || t->kind == EX_LIST) {
        for (int i = 0; i < t->n; i++)
            if (target_binds(t->items[i], name)) return true;
    }
    if (t->kind == EX_STARRED) return target_binds(t->lhs, name);
    return false;
}

static bool block_binds(const Block *b, const char *name);
/* Whether the statements call a method of name (name.append(...)): a change of its value. */
static bool block_mutates(const Block *b, const char *name) {
    for (int i = 0; i < b->n; i++) {
        const Stmt *s = b->stmts[i];
        if (s->kind == ST_EXPR && s->value->kind == EX_CALL && s->value->lhs->kind == EX_ATTR &&
            s->value->lhs->lhs->kind == EX_NAME && !strcmp(s->value->lhs->lhs->name, name))
            return true;
        if ((s->kind == ST_IF || s->kind == ST_FOR || s->kind == ST_WHILE) &&
            (block_mutates(&s->body, name) || block_mutates(&s->orelse, name)))
            return true;
    }
    return false;
}
static bool stmt_binds(const Stmt *s, const char *name) {
    switch (s->kind) {
    case ST_DEF: return !strcmp(s->fn->name, name);
    case ST_ASSIGN: case ST_ANNASSIGN: case ST_AUGASSIGN: return target_binds(s->target, name);
    case ST_IF: case ST_FOR: case ST_WHILE:
        return target_binds(s->target, name) || block_binds(&s->body, name) || block_binds(&s->orelse, name);
    default: return false;
    }
}
static bool block_binds(const Block *b, const char *name) {
    for (int i = 0; i < b->n; i++)
        if (stmt_binds(b->stmts[i], name)) return true;
    return false;
}

static SMemo *memo_of(HostPy *H, const Stmt *s) {
    for (int i = 0; i < H->nmemo; i++)
        if (H->memo[i].s == s) return &H->memo[i];
    SMemo m = {s, 0, hv(H_NONE)};
    ARENA_PUSH(&H->a, H->memo, H->nmemo, H->capmemo, m);
    return &H->memo[H->nmemo - 1];
}

static void assign(Frame *F, const Expr *t, HV v);
static bool module_lookup(Frame *F, const Pos *p, const char *name, SrcLoc use, HV *out);

/* The value a module-level statement gives name (it binds it). */
static HV module_stmt_value(Frame *F, const Pos *at, const Stmt *s, const char *name) {
    HostPy *H = F->H;
    SMemo *m = memo_of(H, s);
    if (m->state == 1)
        FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "the module-level value of '%s' depends on itself", name);
    if (m->state == 0) {
        m->state = 1;
        Frame G = {H, NULL, at, false, false, false, hv(H_NONE)};
        HV v;
        if (s->kind == ST_AUGASSIGN) {
            HV old;
            if (!module_lookup(&G, at, s->target->name, s->loc, &old))
                FAIL(F, TC_ERR_ARG, s->loc, "NameError: name '%s' is not defined", s->target->name);
            v = binop(&G, s->op, old, eval(&G, s->value), s->loc);
        } else {
            v = eval(&G, s->value);
        }
        m = memo_of(H, s);
        m->v = v;
        m->state = 2;
    }
    if (s->target->kind == EX_NAME) return m->v;
    /* a, b = ...: unpack into a scratch scope */
    HEnv tmp = {0};
    Frame G = {H, &tmp, at, false, false, false, hv(H_NONE)};
    assign(&G, s->target, m->v);
    HV *r = env_find(&tmp, name);
    return r ? *r : hv(H_NONE);
}

/* Walks a module-level block backwards from p->upto for the binding of name. */
static bool module_lookup(Frame *F, const Pos *p, const char *name, SrcLoc use, HV *out) {
    HostPy *H = F->H;
    for (; p; p = p->outer) {
        for (int i = p->upto - 1; i >= 0; i--) {
            const Stmt *s = p->st[i];
            Pos here = {p->st, i, p->outer};
            if (s->kind == ST_EXPR && s->value->kind == EX_CALL && s->value->lhs->kind == EX_ATTR &&
                s->value->lhs->lhs->kind == EX_NAME && !strcmp(s->value->lhs->lhs->name, name))
                FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "module-level code changes '%s' here (%s.%s(...)); "
                     "tritonc's host subset evaluates module-level assignments, defs and if "
                     "statements, not statements that change a value", name, name, s->value->lhs->name);
            if ((s->kind == ST_FOR || s->kind == ST_WHILE) &&
                (block_mutates(&s->body, name) || block_mutates(&s->orelse, name)))
                FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "'%s' is changed by a module-level %s loop; "
                     "tritonc's host subset does not run module-level loops", name,
                     s->kind == ST_FOR ? "for" : "while");
            if (!stmt_binds(s, name)) continue;
            if (s->kind == ST_DEF) {
                HV v = hv(H_FUNC);
                v.fn = arena_alloc(&H->a, sizeof(HFn));
                v.fn->def = s->fn;
                *out = v;
                return true;
            }
            if (s->kind == ST_ASSIGN || s->kind == ST_ANNASSIGN || s->kind == ST_AUGASSIGN) {
                if (s->kind == ST_ANNASSIGN && !s->value) continue;
                /* X = tl.constexpr(4): the value inside, as the kernel sees it */
                *out = module_stmt_value(F, &here, s, name);
                return true;
            }
            if (s->kind == ST_IF) {
                SMemo *m = memo_of(H, s);
                if (m->state == 1) FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "this condition depends on itself");
                if (m->state == 0) {
                    m->state = 1;
                    Frame G = {H, NULL, &here, false, false, false, hv(H_NONE)};
                    bool c = truthy((HV[]){eval(&G, s->cond)});
                    m = memo_of(H, s);
                    m->v = hbool(c);
                    m->state = 2;
                }
                const Block *b = m->v.i ? &s->body : &s->orelse;
                Pos in = {b->stmts, b->n, &here};
                if (module_lookup(F, &in, name, use, out)) return true;
                continue;
            }
            FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "'%s' is bound by a module-level %s loop; tritonc's "
                 "host subset does not run module-level loops", name, s->kind == ST_FOR ? "for" : "while");
        }
    }
    return false;
}

static const char *const builtin_names[] = {
    "len", "min", "max", "abs", "int", "float", "str", "bool", "range", "list", "tuple", "dict",
    "set", "sorted", "reversed", "zip", "enumerate", "filter", "map", "any", "all", "sum",
    "isinstance", "hasattr", "getattr", "print", "round", "divmod", "pow",
};

static HV lookup(Frame *F, const char *name, SrcLoc loc) {
    HV *v = env_find(F->env, name);
    if (v) return *v;
    HV r;
    if (F->gpos && module_lookup(F, F->gpos, name, loc, &r)) return r;
    const Module *m = F->H->m;
    for (int i = 0; i < m->naliases; i++)
        if (!strcmp(m->aliases[i].name, name)) return hns(m->aliases[i].target);
    for (int i = 0; i < COUNT_OF(builtin_names); i++)
        if (!strcmp(builtin_names[i], name)) return hns(arena_printf(&F->H->a, "builtins.%s", name));
    if (!strcmp(name, "__name__")) return hstr("__tritonc__");
    FAIL(F, TC_ERR_ARG, loc, "NameError: name '%s' is not defined", name);
}

/* ---- hardware ----------------------------------------------------------------------------- */

static void hw(Frame *F, SrcLoc loc, tc_target *t, tc_device_props *p, const char *what) {
    HostPy *H = F->H;
    Err e = {0};
    bool assumed = false;
    /* on the GPU the device answers; a target to assume must be that one */
    tc_backend b = TC_BACKEND_AUTO;
    const char *env = getenv("TRITONC_TARGET");
    bool gpu = ctx_backend(H->ctx, &b) == TC_OK && b == TC_BACKEND_CUDA;
    if (gpu && env && *env) {
        tc_target want;
        if (hw_answer(H->ctx->device, false, t, p, &assumed, &e) == TC_OK && target_parse(env, &want) == TC_OK &&
            want.arch != t->arch)
            FAIL(F, TC_ERR_ARG, loc, "TRITONC_TARGET=%s names another GPU than the device's (cuda:%d); "
                 "a target to assume is for the interpreter", env, t->arch);
    }
    if (hw_answer(H->ctx->device, !gpu, t, p, &assumed, &e)) {
        size_t l = strcspn(e.msg, "\n");
        if (e.code == TC_ERR_NO_DRIVER && !strncmp(e.msg, "0 active", 8)) {
            Err *E = H->err;
            err_set(E, TC_ERR_NO_DRIVER, loc, "RuntimeError: %.*s", (int)l, e.msg);
            size_t n = strlen(E->msg);
            snprintf(E->msg + n, sizeof E->msg - n, "\n(%s asks for the GPU and none answers; to run "
                     "this host code anyway, name the GPU to assume: TRITONC_TARGET=cuda:90, or "
                     "--target cuda:90 on tritonc run and check)", what);
            longjmp(*E->jump, 1);
        }
        FAIL(F, e.code, loc, "%s", e.msg);
    }
    H->assumed |= assumed;
}

static HV target_obj(Frame *F, SrcLoc loc) {
    tc_target t;
    hw(F, loc, &t, NULL, "get_current_target()");
    HV o = hobj(F->H, "GPUTarget", loc);
    dict_sets(F->H, o.o->attrs, "backend", hstr(arena_strdup(&F->H->a, t.backend)));
    dict_sets(F->H, o.o->attrs, "arch", hint(t.arch));
    dict_sets(F->H, o.o->attrs, "warp_size", hint(t.warp_size));
    return o;
}

/* Triton's driver.active.utils.get_device_properties (a dict) or torch's object. */
static HV props_value(Frame *F, SrcLoc loc, bool torch) {
    HostPy *H = F->H;
    tc_target t;
    tc_device_props p;
    hw(F, loc, &t, &p, torch ? "torch.cuda.get_device_properties()" : "get_device_properties()");
    HDict *d;
    HV r;
    if (torch) { r = hobj(H, "_CudaDeviceProperties", loc); d = r.o->attrs; }
    else { r = hv(H_DICT); r.d = d = dict_new(H); }
    if (torch) {
        dict_sets(H, d, "name", hstr(arena_strdup(&H->a, p.name)));
        dict_sets(H, d, "major", hint(p.major));
        dict_sets(H, d, "minor", hint(p.minor));
        dict_sets(H, d, "multi_processor_count", hint(p.multiprocessor_count));
        dict_sets(H, d, "total_memory", hint((int64_t)p.total_memory));
        dict_sets(H, d, "L2_cache_size", hint(p.l2_cache_size));
        dict_sets(H, d, "warp_size", hint(p.warp_size));
        dict_sets(H, d, "max_threads_per_multi_processor", hint(2048));
        dict_sets(H, d, "shared_memory_per_block_optin", hint(p.max_shared_memory_per_block_optin));
        dict_sets(H, d, "shared_memory_per_multiprocessor", hint(p.max_shared_memory_per_multiprocessor));
        dict_sets(H, d, "regs_per_multiprocessor", hint(65536));
    } else {
        dict_sets(H, d, "max_shared_mem", hint(p.max_shared_memory_per_block_optin));
        dict_sets(H, d, "max_num_regs", hint(p.max_registers_per_block));
        dict_sets(H, d, "multiprocessor_count", hint(p.multiprocessor_count));
        dict_sets(H, d, "warpSize", hint(p.warp_size));
        dict_sets(H, d, "sm_clock_rate", hint(p.sm_clock_khz));
        dict_sets(H, d, "mem_clock_rate", hint(p.mem_clock_khz));
        dict_sets(H, d, "mem_bus_width", hint(p.mem_bus_width_bits));
    }
    return r;
}

/* ---- attributes ---------------------------------------------------------------------------- */

static HV method(HostPy *H, HV self, const char *name) {
    HV m = hv(H_METHOD);
    m.self = arena_alloc(&H->a, sizeof(HV));
    *m.self = self;
    m.s = name;
    return m;
}

static HV tensor_shape(HostPy *H, const tc_tensor *t) {
    HSeq *s = seq_new(H);
    for (int i = 0; i < t->rank; i++) seq_push(H, s, hint(t->shape[i]));
    return hseq(H_TUPLE, s);
}

static HV getattr_(Frame *F, HV v, const char *name, SrcLoc loc) {
    HostPy *H = F->H;
    switch (v.kind) {
    case H_NS: {
        const char *p = arena_printf(&H->a, "%s.%s", v.s, name);
        if (!strcmp(p, "torch.version.hip")) return hv(H_NONE);
        if (!strcmp(p, "torch.version.cuda")) return hstr("12.8");
        return hns(p);
    }
    case H_OBJ: {
        HV *a = dict_get(v.o->attrs, name);
        if (a) return *a;
        if (!strcmp(v.o->type, "Config") && !strcmp(name, "all_kwargs")) return method(H, v, name);
        FAIL(F, TC_ERR_ARG, loc, "AttributeError: '%s' object has no attribute '%s'", v.o->type, name);
    }
    case H_TENSOR:
        if (v.t->drank && (!strcmp(name, "shape") || !strcmp(name, "strides") || !strcmp(name, "block_shape"))) {
            /* a TensorDescriptor's lists */
            const int64_t *x = name[1] == 'h' ? v.t->dshape : name[1] == 't' ? v.t->dstrides : v.t->dblock;
            HSeq *s = seq_new(H);
            for (int i = 0; i < v.t->drank; i++) seq_push(H, s, hint(x[i]));
            return hseq(H_LIST, s);
        }
        if (!strcmp(name, "shape")) return tensor_shape(H, v.t);
        if (!strcmp(name, "dtype")) return hns(heval_torch_dtype(v.t->dtype));
        if (!strcmp(name, "ndim")) return hint(v.t->rank);
        if (!strcmp(name, "device")) return hns("cuda");
        return method(H, v, name);
    case H_DICT: case H_LIST: case H_STR: case H_TUPLE: case H_SET: {
        static const char *const known[] = {
            "|append|extend|copy|pop|index|count|",                                    /* list */
            "|get|keys|values|items|copy|update|setdefault|pop|",                      /* dict */
            "|startswith|endswith|lower|upper|strip|split|join|",                      /* str */
            "|index|count|", "|copy|"};                                                /* tuple, set */
        int w = v.kind == H_LIST ? 0 : v.kind == H_DICT ? 1 : v.kind == H_STR ? 2 : v.kind == H_TUPLE ? 3 : 4;
        char pat[64];
        snprintf(pat, sizeof pat, "|%s|", name);
        if (strstr(known[w], pat)) return method(H, v, name);
        FAIL(F, TC_ERR_ARG, loc, "AttributeError: '%s' object has no attribute '%s'", tname(&v), name);
    }
    case H_FUNC:
        if (!strcmp(name, "__name__")) return hstr(v.fn->def ? v.fn->def->name : "<lambda>");
        break;
    }
    FAIL(F, TC_ERR_ARG, loc, "AttributeError: '%s' object has no attribute '%s'", tname(&v), name);
}

/* ---- expressions --------------------------------------------------------------------------- */

static int64_t want_int(Frame *F, HV v, SrcLoc loc, const char *what) {
    if (v.kind != H_INT && v.kind != H_BOOL)
        FAIL(F, TC_ERR_ARG, loc, "TypeError: %s must be an integer, not '%s'", what, tname(&v));
    return v.i;
}

static HV subscript(Frame *F, HV v, HV ix, SrcLoc loc) {
    HostPy *H = F->H;
    if (v.kind == H_DICT) {
        int i = dict_find(v.d, &ix);
        if (i < 0) FAIL(F, TC_ERR_ARG, loc, "KeyError: %s", repr_str(H, &ix, false));
        return v.d->v[i];
    }
    if (v.kind == H_NS && !strcmp(v.s, "os.environ")) {
        if (ix.kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "TypeError: str expected");
        const char *e = env_read(H, ix.s);
        if (!e) FAIL(F, TC_ERR_ARG, loc, "KeyError: '%s'", ix.s);
        return hstr(e);
    }
    if (v.kind == H_TUPLE || v.kind == H_LIST || v.kind == H_STR) {
        int64_t n = v.kind == H_STR ? (int64_t)strlen(v.s) : v.seq->n;
        if (ix.kind == H_TUPLE && ix.seq->n == 3 && ix.o == (HObj *)1) {  /* a slice */
            int64_t st = ix.seq->v[2].kind == H_NONE ? 1 : want_int(F, ix.seq->v[2], loc, "slice step");
            if (st == 0) FAIL(F, TC_ERR_ARG, loc, "ValueError: slice step cannot be zero");
            int64_t lo, hi;
            if (ix.seq->v[0].kind == H_NONE) lo = st > 0 ? 0 : n - 1;
            else { lo = want_int(F, ix.seq->v[0], loc, "slice index"); if (lo < 0) lo += n; lo = st > 0 ? (lo < 0 ? 0 : lo > n ? n : lo) : (lo < -1 ? -1 : lo >= n ? n - 1 : lo); }
            if (ix.seq->v[1].kind == H_NONE) hi = st > 0 ? n : -1;
            else { hi = want_int(F, ix.seq->v[1], loc, "slice index"); if (hi < 0) hi += n; hi = st > 0 ? (hi < 0 ? 0 : hi > n ? n : hi) : (hi < -1 ? -1 : hi >= n ? n - 1 : hi); }
            if (v.kind == H_STR) {
                Buf b = {0};
                for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) buf_printf(&b, "%c", v.s[i]);
                HV r = hstr(arena_strdup(&H->a, b.s ? b.s : ""));
                buf_free(&b);
                return r;
            }
            HSeq *s = seq_new(H);
            for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) seq_push(H, s, v.seq->v[i]);
            return hseq(v.kind, s);
        }
        int64_t i = want_int(F, ix, loc, "indices");
        if (i < 0) i += n;
        if (i < 0 || i >= n) FAIL(F, TC_ERR_ARG, loc, "IndexError: %s index out of range", tname(&v));
        if (v.kind == H_STR) return hstr(arena_strndup(&H->a, v.s + i, 1));
        return v.seq->v[i];
    }
    FAIL(F, TC_ERR_ARG, loc, "TypeError: '%s' object is not subscriptable", tname(&v));
}

/* One {expression} of an f-string, parsed on first use (kept with the HostPy) and evaluated
 * here; its errors are reported at the f-string. */
static HV fstring_expr(Frame *F, const Expr *e, const char *text) {
    HostPy *H = F->H;
    char *src = arena_printf(&H->a, "__f__ = (%s)\n", text);
    Source *so = source_new("<f-string>", src, strlen(src));
    if (!so) FAIL(F, TC_ERR_NOMEM, e->loc, "out of memory");
    Err pe = {0};
    Module *m = parse_module(so, &pe);
    const Stmt *st = m && m->nhost == 1 && m->host[0]->kind == ST_ASSIGN ? m->host[0] : NULL;
    if (!st) {
        if (m) module_free(m);
        source_free(so);
        FAIL(F, TC_ERR_SYNTAX, e->loc, "f-string: invalid expression '%s'", text);
    }
    PyParsed pp = {so, m};
    ARENA_PUSH(&H->a, H->parsed, H->nparsed, H->capparsed, pp);
    Err *outer = H->err, inner = {0};
    jmp_buf jb;
    H->err = &inner;
    Arena *ar = &H->a;
    Err *aerr = ar->err;
    ar->err = &inner;
    if (ERR_TRY(&inner, jb)) {
        H->err = outer;
        ar->err = aerr;
        const char *msg = strstr(inner.msg, "error: ");
        msg = msg ? msg + 7 : inner.msg;
        FAIL(F, inner.code, e->loc, "in the f-string's {%s}: %.*s", text, (int)strcspn(msg, "\n"), msg);
    }
    HV v = eval(F, st->value);
    H->err = outer;
    ar->err = aerr;
    return v;
}

static HV fstring(Frame *F, const Expr *e) {
    HostPy *H = F->H;
    Buf b = {0};
    const char *s = e->str;
    while (*s) {
        if ((s[0] == '{' && s[1] == '{') || (s[0] == '}' && s[1] == '}')) { buf_printf(&b, "%c", s[0]); s += 2; continue; }
        if (s[0] != '{') { buf_printf(&b, "%c", *s++); continue; }
        /* the matching '}' outside brackets and quotes */
        const char *p = s + 1, *stop = NULL;
        int depth = 0;
        char q = 0;
        for (; *p; p++) {
            if (q) { if (*p == q) q = 0; continue; }
            if (*p == '\'' || *p == '"') q = *p;
            else if (*p == '[' || *p == '(' || *p == '{') depth++;
            else if ((*p == ']' || *p == ')' || *p == '}') && depth) depth--;
            else if (*p == '}') break;
            else if (!depth && !stop && (*p == '!' || (*p == ':'))) stop = p;
        }
        if (!*p) { buf_free(&b); FAIL(F, TC_ERR_SYNTAX, e->loc, "f-string: expecting '}'"); }
        const char *end = stop ? stop : p;
        bool conv_r = stop && stop[0] == '!' && stop[1] == 'r';
        char *text = arena_strndup(&H->a, s + 1, (size_t)(end - s - 1));
        HV v = fstring_expr(F, e, text);
        repr_into(&v, &b, !conv_r);
        s = p + 1;
    }
    HV r = hstr(arena_strdup(&H->a, b.s ? b.s : ""));
    buf_free(&b);
    return r;
}

static HV make_lambda(Frame *F, const Expr *e) {
    HV v = hv(H_FUNC);
    v.fn = arena_alloc(&F->H->a, sizeof(HFn));
    v.fn->lam = e;
    v.fn->env = F->env;
    return v;
}

static void comp_loop(Frame *F, const Expr *e, int ci, HSeq *out, HDict *dout) {
    if (ci == e->ncomps) {
        if (dout) { dict_set(F->H, dout, eval(F, e->lhs), eval(F, e->rhs)); return; }
        HV x = eval(F, e->lhs), cur = hseq(H_SET, out);
        if (strcmp(e->name, "SetComp") || !contains(F, &cur, &x, e->loc)) seq_push(F->H, out, x);
        return;
    }
    const Comp *c = &e->comps[ci];
    HSeq *items = iter_items(F, eval(F, c->iter), c->iter->loc);
    for (int i = 0; i < items->n; i++) {
        assign(F, c->target, items->v[i]);
        bool ok = true;
        for (int j = 0; j < c->nifs && ok; j++) ok = truthy((HV[]){eval(F, c->ifs[j])});
        if (ok) comp_loop(F, e, ci + 1, out, dout);
    }
}

static HV comprehension(Frame *F, const Expr *e) {
    HEnv *scope = arena_alloc(&F->H->a, sizeof(HEnv));
    scope->up = F->env;
    Frame G = *F;
    G.env = scope;
    if (!strcmp(e->name, "DictComp")) {
        HV r = hv(H_DICT);
        r.d = dict_new(F->H);
        comp_loop(&G, e, 0, NULL, r.d);
        return r;
    }
    HSeq *s = seq_new(F->H);
    comp_loop(&G, e, 0, s, NULL);
    return hseq(!strcmp(e->name, "SetComp") ? H_SET : H_LIST, s);
}

static HV eval_call(Frame *F, const Expr *e) {
    HostPy *H = F->H;
    HV f = eval(F, e->lhs);
    HSeq *args = seq_new(H);
    for (int i = 0; i < e->n; i++) {
        const Expr *a = e->items[i];
        if (a->kind == EX_STARRED) {
            HSeq *s = iter_items(F, eval(F, a->lhs), a->loc);
            for (int j = 0; j < s->n; j++) seq_push(H, args, s->v[j]);
        } else if (!(a->kind == EX_OTHER && !strcmp(a->name, "DoubleStarred"))) {
            seq_push(H, args, eval(F, a));
        }
    }
    const char **kwn = NULL;
    HV *kwv = NULL;
    int nkw = 0, c1 = 0, c2 = 0;
    for (int i = 0; i < e->nkw; i++) {
        ARENA_PUSH(&H->a, kwn, nkw, c1, e->kw[i].name);
        nkw--;
        ARENA_PUSH(&H->a, kwv, nkw, c2, eval(F, e->kw[i].value));
    }
    /* f(**d): the items of d as keywords */
    for (int i = 0; i < e->n; i++) {
        const Expr *a = e->items[i];
        if (a->kind != EX_OTHER || strcmp(a->name, "DoubleStarred")) continue;
        HV d = eval(F, a->lhs);
        if (d.kind != H_DICT) FAIL(F, TC_ERR_ARG, a->loc, "TypeError: argument after ** must be a mapping, not %s", tname(&d));
        for (int j = 0; j < d.d->n; j++) {
            if (d.d->k[j].kind != H_STR) FAIL(F, TC_ERR_ARG, a->loc, "TypeError: keywords must be strings");
            ARENA_PUSH(&H->a, kwn, nkw, c1, d.d->k[j].s);
            nkw--;
            ARENA_PUSH(&H->a, kwv, nkw, c2, d.d->v[j]);
        }
    }
    return call_value(F, f, args->v, args->n, kwn, kwv, nkw, e->loc);
}

static HV eval(Frame *F, const Expr *e) {
    HostPy *H = F->H;
    if (++H->depth > HP_MAX_DEPTH) FAIL(F, TC_ERR_LIMIT, e->loc, "RecursionError: host code nests deeper than %d", HP_MAX_DEPTH);
    if (++H->steps > HP_MAX_STEPS) FAIL(F, TC_ERR_LIMIT, e->loc, "host code ran for more than %lld steps", HP_MAX_STEPS);
    HV r = hv(H_NONE);
    switch (e->kind) {
    case EX_NAME: r = lookup(F, e->name, e->loc); break;
    case EX_INT:
        if (e->big || e->ival > INT64_MAX) FAIL(F, TC_ERR_LIMIT, e->loc, "integer literal beyond 64 bits");
        r = hint((int64_t)e->ival);
        break;
    case EX_FLOAT: r = hfloat(e->fval); break;
    case EX_STR: r = e->fstring ? fstring(F, e) : hstr(e->str); break;
    case EX_TRUE: r = hbool(true); break;
    case EX_FALSE: r = hbool(false); break;
    case EX_NONE: break;
    case EX_BINOP: {
        HV a = eval(F, e->lhs), b = eval(F, e->rhs);
        r = binop(F, e->op, a, b, e->loc);
        break;
    }
    case EX_UNARY: {
        HV a = eval(F, e->lhs);
        if (e->op == PY_NOT) r = hbool(!truthy(&a));
        else if (!is_num(&a)) FAIL(F, TC_ERR_ARG, e->loc, "TypeError: bad operand type for unary %s: '%s'", py_op_str(e->op), tname(&a));
        else r = cv_op(F, e->op, &a, NULL, false, e->loc);
        break;
    }
    case EX_BOOLOP:
        for (int i = 0; i < e->n; i++) {
            r = eval(F, e->items[i]);
            if (truthy(&r) == (e->op == PY_OR)) break;
        }
        break;
    case EX_COMPARE: {
        HV a = eval(F, e->items[0]);
        r = hbool(true);
        for (int i = 1; i < e->n; i++) {
            HV b = eval(F, e->items[i]);
            if (!compare(F, e->ops[i - 1], a, b, e->loc)) { r = hbool(false); break; }
            a = b;
        }
        break;
    }
    case EX_IFEXP: r = truthy((HV[]){eval(F, e->cond)}) ? eval(F, e->lhs) : eval(F, e->orelse); break;
    case EX_CALL: r = eval_call(F, e); break;
    case EX_ATTR: r = getattr_(F, eval(F, e->lhs), e->name, e->loc); break;
    case EX_SUBSCRIPT: {
        HV v = eval(F, e->lhs);
        HV ix;
        if (e->n == 1 && e->items[0]->kind == EX_SLICE) {
            const Expr *s = e->items[0];
            HSeq *q = seq_new(H);
            seq_push(H, q, s->lhs ? eval(F, s->lhs) : hv(H_NONE));
            seq_push(H, q, s->rhs ? eval(F, s->rhs) : hv(H_NONE));
            seq_push(H, q, s->cond ? eval(F, s->cond) : hv(H_NONE));
            ix = hseq(H_TUPLE, q);
            ix.o = (HObj *)1;   /* marks a slice */
        } else if (e->n == 1) {
            ix = eval(F, e->items[0]);
        } else {
            HSeq *q = seq_new(H);
            for (int i = 0; i < e->n; i++) seq_push(H, q, eval(F, e->items[i]));
            ix = hseq(H_TUPLE, q);
        }
        r = subscript(F, v, ix, e->loc);
        break;
    }
    case EX_TUPLE: case EX_LIST: {
        HSeq *s = seq_new(H);
        for (int i = 0; i < e->n; i++) {
            if (e->items[i]->kind == EX_STARRED) {
                HSeq *in = iter_items(F, eval(F, e->items[i]->lhs), e->items[i]->loc);
                for (int j = 0; j < in->n; j++) seq_push(H, s, in->v[j]);
            } else seq_push(H, s, eval(F, e->items[i]));
        }
        r = hseq(e->kind == EX_TUPLE ? H_TUPLE : H_LIST, s);
        break;
    }
    case EX_DICT: {
        r = hv(H_DICT);
        r.d = dict_new(H);
        for (int i = 0; i < e->n; i++) {
            if (!e->keys[i]) {
                HV o = eval(F, e->items[i]);
                if (o.kind != H_DICT) FAIL(F, TC_ERR_ARG, e->items[i]->loc, "TypeError: '%s' object is not a mapping", tname(&o));
                for (int j = 0; j < o.d->n; j++) dict_set(H, r.d, o.d->k[j], o.d->v[j]);
            } else {
                HV k = eval(F, e->keys[i]);
                dict_set(H, r.d, k, eval(F, e->items[i]));
            }
        }
        break;
    }
    case EX_LAMBDA: r = make_lambda(F, e); break;
    case EX_OTHER:
        if (e->ncomps) { r = comprehension(F, e); break; }   /* a generator: a list */
        if (!strcmp(e->name, "Set")) {
            HSeq *s = seq_new(H);
            for (int i = 0; i < e->n; i++) {
                HV x = eval(F, e->items[i]), set = hseq(H_SET, s);
                if (!contains(F, &set, &x, e->loc)) seq_push(H, s, x);
            }
            r = hseq(H_SET, s);
            break;
        }
        /* fall through */
    default:
        FAIL(F, TC_ERR_UNSUPPORTED, e->loc, "%s is not in tritonc's host subset",
             e->kind == EX_OTHER && e->name ? e->name : e->kind == EX_STARRED ? "a starred expression" : "this expression");
    }
    H->depth--;
    return r;
}

/* ---- assignment and statements ------------------------------------------------------------- */

static void setattr_(Frame *F, HV obj, const char *name, HV v, SrcLoc loc) {
    if (obj.kind == H_OBJ) { dict_sets(F->H, obj.o->attrs, name, v); return; }
    if (obj.kind == H_TENSOR && obj.t->drank && !strcmp(name, "block_shape")) {
        /* a pre_hook choosing the descriptor's block shape for the launch */
        HSeq *s = iter_items(F, v, loc);
        if (s->n != obj.t->drank)
            FAIL(F, TC_ERR_ARG, loc, "ValueError: block_shape has %d entries but the descriptor has rank %d",
                 s->n, obj.t->drank);
        int64_t b[TC_MAX_RANK];
        for (int i = 0; i < s->n; i++) {
            b[i] = want_int(F, s->v[i], loc, "block_shape");
            if (b[i] < 1 || b[i] > (1 << 20) || (b[i] & (b[i] - 1)))
                FAIL(F, TC_ERR_ARG, loc, "ValueError: block_shape[%d] is %lld; block dimensions are powers of two",
                     i, (long long)b[i]);
        }
        for (int i = 0; i < s->n; i++) obj.t->dblock[i] = b[i];
        return;
    }
    FAIL(F, TC_ERR_UNSUPPORTED, loc, "setting .%s of a %s is not in tritonc's host subset", name, tname(&obj));
}

static void assign(Frame *F, const Expr *t, HV v) {
    HostPy *H = F->H;
    switch (t->kind) {
    case EX_NAME:
        if (!F->env) FAIL(F, TC_ERR_INTERNAL, t->loc, "internal error: assignment at module level");
        env_set(H, F->env, t->name, v);
        return;
    case EX_TUPLE: case EX_LIST: {
        HSeq *s = iter_items(F, v, t->loc);
        if (s->n != t->n)
            FAIL(F, TC_ERR_ARG, t->loc, "ValueError: %s values to unpack (expected %d, got %d)",
                 s->n > t->n ? "too many" : "not enough", t->n, s->n);
        for (int i = 0; i < t->n; i++) assign(F, t->items[i], s->v[i]);
        return;
    }
    case EX_ATTR: setattr_(F, eval(F, t->lhs), t->name, v, t->loc); return;
    case EX_SUBSCRIPT: {
        HV c = eval(F, t->lhs);
        HV ix = t->n == 1 ? eval(F, t->items[0]) : hv(H_NONE);
        if (c.kind == H_DICT && t->n == 1) { dict_set(H, c.d, ix, v); return; }
        if (c.kind == H_LIST && t->n == 1) {
            int64_t i = want_int(F, ix, t->loc, "list indices");
            if (i < 0) i += c.seq->n;
            if (i < 0 || i >= c.seq->n) FAIL(F, TC_ERR_ARG, t->loc, "IndexError: list assignment index out of range");
            c.seq->v[i] = v;
            return;
        }
        FAIL(F, TC_ERR_ARG, t->loc, "TypeError: '%s' object does not support item assignment", tname(&c));
    }
    default:
        FAIL(F, TC_ERR_UNSUPPORTED, t->loc, "this assignment target is not in tritonc's host subset");
    }
}

static void exec_stmt(Frame *F, const Stmt *s) {
    HostPy *H = F->H;
    switch (s->kind) {
    case ST_EXPR: eval(F, s->value); break;
    case ST_ASSIGN: assign(F, s->target, eval(F, s->value)); break;
    case ST_ANNASSIGN: if (s->value) assign(F, s->target, eval(F, s->value)); break;
    case ST_AUGASSIGN: {
        HV old = eval(F, s->target);
        HV v = eval(F, s->value);
        if (old.kind == H_LIST && s->op == PY_ADD) {
            HSeq *in = iter_items(F, v, s->loc);
            for (int i = 0; i < in->n; i++) seq_push(H, old.seq, in->v[i]);
            break;
        }
        assign(F, s->target, binop(F, s->op, old, v, s->loc));
        break;
    }
    case ST_IF:
        if (truthy((HV[]){eval(F, s->cond)})) exec_block(F, &s->body);
        else exec_block(F, &s->orelse);
        break;
    case ST_FOR: {
        HSeq *items = iter_items(F, eval(F, s->value), s->value->loc);
        int n = items->n;
        bool broke = false;
        for (int i = 0; i < n && !F->ret; i++) {
            assign(F, s->target, items->v[i]);
            exec_block(F, &s->body);
            F->cont = false;
            if (F->brk) { F->brk = false; broke = true; break; }
        }
        if (!broke && !F->ret && s->has_orelse) exec_block(F, &s->orelse);
        break;
    }
    case ST_WHILE: {
        bool broke = false;
        while (!F->ret && truthy((HV[]){eval(F, s->cond)})) {
            exec_block(F, &s->body);
            F->cont = false;
            if (F->brk) { F->brk = false; broke = true; break; }
        }
        if (!broke && !F->ret && s->has_orelse) exec_block(F, &s->orelse);
        break;
    }
    case ST_RETURN:
        F->rv = s->value ? eval(F, s->value) : hv(H_NONE);
        F->ret = true;
        break;
    case ST_PASS: break;
    case ST_ASSERT:
        if (!truthy((HV[]){eval(F, s->cond)})) {
            HV m = s->value ? eval(F, s->value) : hstr("");
            FAIL(F, TC_ERR_ARG, s->loc, "AssertionError: %s", repr_str(H, &m, true));
        }
        break;
    case ST_UNSUPPORTED:
        if (!strcmp(s->name, "Break")) { F->brk = true; break; }
        if (!strcmp(s->name, "Continue")) { F->cont = true; break; }
        if (!strcmp(s->name, "Raise"))
            FAIL(F, TC_ERR_ARG, s->loc, "host code raised an exception here (a raise statement)");
        FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "%s is not in tritonc's host subset", s->name);
    default:
        FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "this statement is not in tritonc's host subset");
    }
}

static void exec_block(Frame *F, const Block *b) {
    for (int i = 0; i < b->n && !F->ret && !F->brk && !F->cont; i++) exec_stmt(F, b->stmts[i]);
}

/* ---- calls ---------------------------------------------------------------------------------- */

static HV call_function(Frame *F, HFn *fn, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    HostPy *H = F->H;
    HEnv *env = arena_alloc(&H->a, sizeof(HEnv));
    env->up = fn->env;
    Frame G = {H, env, F->gpos, false, false, false, hv(H_NONE)};
    const char *fname = fn->def ? fn->def->name : "<lambda>";
    int np = fn->def ? fn->def->nparams : fn->lam->nparams;
    int used = 0;
    HSeq *rest = NULL;
    HDict *kwrest = NULL;
    bool *given = arena_alloc(&H->a, (size_t)(np + 1));
    for (int i = 0; i < np; i++) {
        const char *pn = fn->def ? fn->def->params[i].name : fn->lam->params[i];
        int star = fn->def ? fn->def->params[i].star : fn->lam->pstar[i];
        bool kwonly = fn->def ? fn->def->params[i].kwonly : false;
        if (star == 1) {
            rest = seq_new(H);
            while (used < n) seq_push(H, rest, args[used++]);
            env_set(H, env, pn, hseq(H_TUPLE, rest));
            given[i] = true;
        } else if (star == 2) {
            kwrest = dict_new(H);
            HV d = hv(H_DICT);
            d.d = kwrest;
            env_set(H, env, pn, d);
            given[i] = true;
        } else if (!kwonly && used < n) {
            env_set(H, env, pn, args[used++]);
            given[i] = true;
        }
    }
    if (used < n)
        FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() takes %d positional arguments but %d were given", fname, used, n);
    for (int k = 0; k < nkw; k++) {
        int i = 0;
        for (; i < np; i++) {
            const char *pn = fn->def ? fn->def->params[i].name : fn->lam->params[i];
            int star = fn->def ? fn->def->params[i].star : fn->lam->pstar[i];
            if (!star && !strcmp(pn, kwn[k])) break;
        }
        if (i < np) {
            if (given[i]) FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() got multiple values for argument '%s'", fname, kwn[k]);
            env_set(H, env, kwn[k], kwv[k]);
            given[i] = true;
        } else if (kwrest) {
            dict_set(H, kwrest, hstr(kwn[k]), kwv[k]);
        } else FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() got an unexpected keyword argument '%s'", fname, kwn[k]);
    }
    for (int i = 0; i < np; i++) {
        if (given[i]) continue;
        const Expr *d = fn->def ? fn->def->params[i].deflt : fn->lam->pdefaults[i];
        const char *pn = fn->def ? fn->def->params[i].name : fn->lam->params[i];
        if (!d) FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() missing 1 required positional argument: '%s'", fname, pn);
        Frame D = {H, fn->env, F->gpos, false, false, false, hv(H_NONE)};
        env_set(H, env, pn, eval(&D, d));
    }
    if (fn->lam) return eval(&G, fn->lam->lhs);
    if (fn->def->is_jit)
        FAIL(F, TC_ERR_UNSUPPORTED, loc, "%s is a @triton.jit function; host code calling it is not evaluated", fname);
    exec_block(&G, &fn->def->body);
    return G.ret ? G.rv : hv(H_NONE);
}

static HV kwarg(const char **kwn, HV *kwv, int nkw, const char *name, HV dflt) {
    for (int i = 0; i < nkw; i++)
        if (!strcmp(kwn[i], name)) return kwv[i];
    return dflt;
}

static void nargs_check(Frame *F, const char *fname, int n, int lo, int hi, SrcLoc loc) {
    if (n < lo || n > hi)
        FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() takes %d to %d arguments (%d given)", fname, lo, hi, n);
}

static HV call1(Frame *F, HV f, HV a, SrcLoc loc) { return call_value(F, f, &a, 1, NULL, NULL, 0, loc); }

/* sorted()/min()/max() with key=: a stable insertion sort by key. */
static HSeq *sort_items(Frame *F, HSeq *in, HV key, bool reverse, SrcLoc loc) {
    HostPy *H = F->H;
    HSeq *s = seq_new(H);
    HV *keys = arena_alloc(&H->a, sizeof(HV) * (size_t)(in->n + 1));
    for (int i = 0; i < in->n; i++) {
        HV k = key.kind == H_NONE ? in->v[i] : call1(F, key, in->v[i], loc);
        int j = s->n;
        seq_push(H, s, in->v[i]);
        while (j > 0) {
            int o = order(F, &keys[j - 1], &k, PY_LT, loc);
            if (reverse ? o >= 0 : o <= 0) break;
            s->v[j] = s->v[j - 1];
            keys[j] = keys[j - 1];
            j--;
        }
        s->v[j] = in->v[i];
        keys[j] = k;
    }
    return s;
}

static HV config_new(Frame *F, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    HostPy *H = F->H;
    static const char *const pos[] = {"kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook"};
    static const char *const extra[] = {"ir_override", "minRegAutoWS", "maxRegAutoWS", "pingpongAutoWS", "occupancy", "opt_level"};
    HV o = hobj(H, "Config", loc);
    HV vals[6] = {hv(H_NONE), hint(4), hint(3), hint(1), hv(H_NONE), hv(H_NONE)};
    bool set[6] = {0};
    if (n > 6) FAIL(F, TC_ERR_ARG, loc, "TypeError: Config() takes at most 6 positional arguments");
    for (int i = 0; i < n; i++) { vals[i] = args[i]; set[i] = true; }
    for (int k = 0; k < nkw; k++) {
        int j = 0;
        while (j < 6 && strcmp(pos[j], kwn[k])) j++;
        if (j == 6) {
            int x = 0;
            while (x < COUNT_OF(extra) && strcmp(extra[x], kwn[k])) x++;
            if (x == COUNT_OF(extra)) FAIL(F, TC_ERR_ARG, loc, "TypeError: Config() got an unexpected keyword argument '%s'", kwn[k]);
            dict_sets(H, o.o->attrs, kwn[k], kwv[k]);
            continue;
        }
        vals[j] = kwv[k];
        set[j] = true;
    }
    if (!set[0]) FAIL(F, TC_ERR_ARG, loc, "TypeError: Config() missing 1 required positional argument: 'kwargs'");
    if (vals[0].kind != H_DICT) FAIL(F, TC_ERR_ARG, loc, "triton.Config: kwargs must be a dict, not '%s'", tname(&vals[0]));
    HV kw = hv(H_DICT);
    kw.d = dict_new(H);
    for (int i = 0; i < vals[0].d->n; i++) dict_set(H, kw.d, vals[0].d->k[i], vals[0].d->v[i]);
    dict_sets(H, o.o->attrs, "kwargs", kw);
    for (int j = 1; j < 6; j++) dict_sets(H, o.o->attrs, pos[j], vals[j]);
    return o;
}

static HV call_builtin(Frame *F, const char *p, HV *a, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    HostPy *H = F->H;
    const char *b = !strncmp(p, "builtins.", 9) ? p + 9 : NULL;
    if (b && !strcmp(b, "len")) {
        nargs_check(F, "len", n, 1, 1, loc);
        if (a[0].kind == H_STR) return hint((int64_t)strlen(a[0].s));
        if (a[0].kind == H_DICT) return hint(a[0].d->n);
        if (a[0].kind == H_TENSOR) return hint(a[0].t->rank ? a[0].t->shape[0] : 0);
        return hint(iter_items(F, a[0], loc)->n);
    }
    if (b && (!strcmp(b, "min") || !strcmp(b, "max"))) {
        HSeq *s;
        if (n == 1) s = iter_items(F, a[0], loc);
        else { s = seq_new(H); for (int i = 0; i < n; i++) seq_push(H, s, a[i]); }
        HV key = kwarg(kwn, kwv, nkw, "key", hv(H_NONE));
        if (!s->n) {
            HV d = kwarg(kwn, kwv, nkw, "default", hv(H_METHOD));
            if (d.kind != H_METHOD) return d;
            FAIL(F, TC_ERR_ARG, loc, "ValueError: %s() arg is an empty sequence", b);
        }
        bool mx = !strcmp(b, "max");
        HV best = s->v[0], bk = key.kind == H_NONE ? best : call1(F, key, best, loc);
        for (int i = 1; i < s->n; i++) {
            HV k = key.kind == H_NONE ? s->v[i] : call1(F, key, s->v[i], loc);
            int o = order(F, &k, &bk, mx ? PY_GT : PY_LT, loc);
            if (mx ? o > 0 : o < 0) { best = s->v[i]; bk = k; }
        }
        return best;
    }
    if (b && !strcmp(b, "abs")) {
        nargs_check(F, "abs", n, 1, 1, loc);
        if (!is_num(&a[0])) FAIL(F, TC_ERR_ARG, loc, "TypeError: bad operand type for abs(): '%s'", tname(&a[0]));
        if (a[0].kind == H_FLOAT) return hfloat(fabs(a[0].f));
        return a[0].i < 0 ? cv_op(F, PY_USUB, &a[0], NULL, false, loc) : hint(a[0].i);
    }
    if (b && (!strcmp(b, "int") || !strcmp(b, "float"))) {
        if (n == 0) return !strcmp(b, "int") ? hint(0) : hfloat(0);
        nargs_check(F, b, n, 1, 1, loc);
        if (!scalarish(&a[0]) || a[0].kind == H_NONE)
            FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() argument must be a string or a number, not '%s'", b, tname(&a[0]));
        Err ee = {0};
        Arena ar;
        arena_init(&ar, &ee);
        EvalCtx cx = {&ar, &ee};
        CVal x = to_cv(F, &a[0], loc), z;
        bool ok = !strcmp(b, "int") ? eval_int(&cx, &x, loc, &z) : eval_float(&cx, &x, loc, &z);
        arena_free(&ar);
        if (!ok) {
            const char *m = strstr(ee.msg, "error: ");
            m = m ? m + 7 : ee.msg;
            FAIL(F, TC_ERR_ARG, loc, "%.*s", (int)strcspn(m, "\n"), m);
        }
        return from_cv(F, &z, loc);
    }
    if (b && !strcmp(b, "str")) return n ? hstr(repr_str(H, &a[0], true)) : hstr("");
    if (b && !strcmp(b, "bool")) return hbool(n && truthy(&a[0]));
    if (b && !strcmp(b, "range")) {
        nargs_check(F, "range", n, 1, 3, loc);
        int64_t lo = 0, hi, st = 1;
        if (n == 1) hi = want_int(F, a[0], loc, "range() argument");
        else { lo = want_int(F, a[0], loc, "range() argument"); hi = want_int(F, a[1], loc, "range() argument"); }
        if (n == 3) st = want_int(F, a[2], loc, "range() argument");
        if (!st) FAIL(F, TC_ERR_ARG, loc, "ValueError: range() arg 3 must not be zero");
        HSeq *s = seq_new(H);
        for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) seq_push(H, s, hint(i));
        return hseq(H_LIST, s);
    }
    if (b && (!strcmp(b, "list") || !strcmp(b, "tuple") || !strcmp(b, "set"))) {
        HSeq *s = seq_new(H);
        HSeq *in = n ? iter_items(F, a[0], loc) : s;
        bool set = !strcmp(b, "set");
        for (int i = 0; i < in->n; i++) {
            HV cur = hseq(H_SET, s);
            if (!set || !contains(F, &cur, &in->v[i], loc)) seq_push(H, s, in->v[i]);
        }
        return hseq(!strcmp(b, "list") ? H_LIST : set ? H_SET : H_TUPLE, s);
    }
    if (b && !strcmp(b, "dict")) {
        HV r = hv(H_DICT);
        r.d = dict_new(H);
        if (n == 1 && a[0].kind == H_DICT)
            for (int i = 0; i < a[0].d->n; i++) dict_set(H, r.d, a[0].d->k[i], a[0].d->v[i]);
        else if (n == 1) {
            HSeq *in = iter_items(F, a[0], loc);
            for (int i = 0; i < in->n; i++) {
                HSeq *kv = iter_items(F, in->v[i], loc);
                if (kv->n != 2) FAIL(F, TC_ERR_ARG, loc, "ValueError: dictionary update sequence element #%d has length %d; 2 is required", i, kv->n);
                dict_set(H, r.d, kv->v[0], kv->v[1]);
            }
        }
        for (int k = 0; k < nkw; k++) dict_sets(H, r.d, kwn[k], kwv[k]);
        return r;
    }
    if (b && !strcmp(b, "sorted")) {
        nargs_check(F, "sorted", n, 1, 1, loc);
        return hseq(H_LIST, sort_items(F, iter_items(F, a[0], loc), kwarg(kwn, kwv, nkw, "key", hv(H_NONE)),
                                       truthy((HV[]){kwarg(kwn, kwv, nkw, "reverse", hbool(false))}), loc));
    }
    if (b && !strcmp(b, "reversed")) {
        HSeq *in = iter_items(F, a[0], loc), *s = seq_new(H);
        for (int i = in->n - 1; i >= 0; i--) seq_push(H, s, in->v[i]);
        return hseq(H_LIST, s);
    }
    if (b && !strcmp(b, "zip")) {
        HSeq *s = seq_new(H);
        HSeq **ins = arena_alloc(&H->a, sizeof(HSeq *) * (size_t)(n + 1));
        int m = n ? INT32_MAX : 0;
        for (int i = 0; i < n; i++) { ins[i] = iter_items(F, a[i], loc); if (ins[i]->n < m) m = ins[i]->n; }
        for (int j = 0; j < m; j++) {
            HSeq *t = seq_new(H);
            for (int i = 0; i < n; i++) seq_push(H, t, ins[i]->v[j]);
            seq_push(H, s, hseq(H_TUPLE, t));
        }
        return hseq(H_LIST, s);
    }
    if (b && !strcmp(b, "enumerate")) {
        nargs_check(F, "enumerate", n, 1, 2, loc);
        int64_t start = n == 2 ? want_int(F, a[1], loc, "start") : 0;
        HSeq *in = iter_items(F, a[0], loc), *s = seq_new(H);
        for (int i = 0; i < in->n; i++) {
            HSeq *t = seq_new(H);
            seq_push(H, t, hint(start + i));
            seq_push(H, t, in->v[i]);
            seq_push(H, s, hseq(H_TUPLE, t));
        }
        return hseq(H_LIST, s);
    }
    if (b && (!strcmp(b, "filter") || !strcmp(b, "map"))) {
        nargs_check(F, b, n, 2, 2, loc);
        HSeq *in = iter_items(F, a[1], loc), *s = seq_new(H);
        bool flt = !strcmp(b, "filter");
        for (int i = 0; i < in->n; i++) {
            if (flt && a[0].kind == H_NONE) { if (truthy(&in->v[i])) seq_push(H, s, in->v[i]); continue; }
            HV r = call1(F, a[0], in->v[i], loc);
            if (!flt) seq_push(H, s, r);
            else if (truthy(&r)) seq_push(H, s, in->v[i]);
        }
        return hseq(H_LIST, s);
    }
    if (b && (!strcmp(b, "any") || !strcmp(b, "all"))) {
        nargs_check(F, b, n, 1, 1, loc);
        HSeq *in = iter_items(F, a[0], loc);
        bool any = !strcmp(b, "any");
        for (int i = 0; i < in->n; i++)
            if (truthy(&in->v[i]) == any) return hbool(any);
        return hbool(!any);
    }
    if (b && !strcmp(b, "sum")) {
        HSeq *in = iter_items(F, a[0], loc);
        HV r = n > 1 ? a[1] : hint(0);
        for (int i = 0; i < in->n; i++) r = binop(F, PY_ADD, r, in->v[i], loc);
        return r;
    }
    if (b && !strcmp(b, "isinstance")) {
        nargs_check(F, "isinstance", n, 2, 2, loc);
        HSeq *types;
        if (a[1].kind == H_TUPLE) types = a[1].seq;
        else { types = seq_new(H); seq_push(H, types, a[1]); }
        for (int i = 0; i < types->n; i++) {
            HV t = types->v[i];
            if (t.kind != H_NS) FAIL(F, TC_ERR_ARG, loc, "TypeError: isinstance() arg 2 must be a type");
            const char *tn = strrchr(t.s, '.') ? strrchr(t.s, '.') + 1 : t.s;
            const char *have = a[0].kind == H_OBJ ? a[0].o->type : tname(&a[0]);
            if (!strcmp(tn, have) || (!strcmp(tn, "int") && a[0].kind == H_BOOL)) return hbool(true);
            static const char *const known[] = {"int", "float", "str", "bool", "list", "tuple", "dict",
                                                "set", "Tensor", "TensorDescriptor", "Config", "NoneType"};
            bool k = false;
            for (int j = 0; j < COUNT_OF(known) && !k; j++) k = !strcmp(known[j], tn);
            if (!k) FAIL(F, TC_ERR_UNSUPPORTED, loc, "isinstance(..., %s): tritonc's host subset knows the types "
                         "int, float, str, bool, list, tuple, dict, set, torch.Tensor, TensorDescriptor, triton.Config", t.s);
        }
        return hbool(false);
    }
    if (b && (!strcmp(b, "hasattr") || !strcmp(b, "getattr"))) {
        nargs_check(F, b, n, 2, 3, loc);
        if (a[1].kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "TypeError: attribute name must be string");
        bool has = a[0].kind == H_NS || a[0].kind == H_TENSOR ||
                   (a[0].kind == H_OBJ && dict_get(a[0].o->attrs, a[1].s));
        if (!strcmp(b, "hasattr")) return hbool(has);
        if (!has && n == 3) return a[2];
        return getattr_(F, a[0], a[1].s, loc);
    }
    if (b && !strcmp(b, "print")) return hv(H_NONE);
    if (b && !strcmp(b, "round")) {
        nargs_check(F, "round", n, 1, 1, loc);
        if (a[0].kind != H_FLOAT) return a[0];
        double r = nearbyint(a[0].f);
        if (!isfinite(r) || fabs(r) > 9.2e18) FAIL(F, TC_ERR_ARG, loc, "OverflowError: cannot convert float to integer");
        return hint((int64_t)r);
    }
    if (b && !strcmp(b, "pow")) { nargs_check(F, "pow", n, 2, 2, loc); return binop(F, PY_POW, a[0], a[1], loc); }
    if (b && !strcmp(b, "divmod")) {
        nargs_check(F, "divmod", n, 2, 2, loc);
        HSeq *t = seq_new(H);
        seq_push(H, t, binop(F, PY_FLOORDIV, a[0], a[1], loc));
        seq_push(H, t, binop(F, PY_MOD, a[0], a[1], loc));
        return hseq(H_TUPLE, t);
    }
    if (!strcmp(p, "triton.cdiv") || !strcmp(p, "triton.language.cdiv")) {
        nargs_check(F, "cdiv", n, 2, 2, loc);
        HV s = binop(F, PY_SUB, binop(F, PY_ADD, a[0], a[1], loc), hint(1), loc);
        return binop(F, PY_FLOORDIV, s, a[1], loc);
    }
    if (!strcmp(p, "triton.next_power_of_2")) {
        nargs_check(F, "next_power_of_2", n, 1, 1, loc);
        int64_t v = want_int(F, a[0], loc, "next_power_of_2() argument"), r = 1;
        while (r < v && r < ((int64_t)1 << 62)) r <<= 1;
        return hint(r);
    }
    if (!strncmp(p, "math.", 5)) {
        nargs_check(F, p, n, 1, 1, loc);
        if (!is_num(&a[0])) FAIL(F, TC_ERR_ARG, loc, "TypeError: must be real number, not %s", tname(&a[0]));
        double x = a[0].kind == H_FLOAT ? a[0].f : (double)a[0].i;
        const char *fnm = p + 5;
        if (!strcmp(fnm, "ceil") || !strcmp(fnm, "floor")) {
            if (a[0].kind != H_FLOAT) return hint(a[0].i);
            double r = !strcmp(fnm, "ceil") ? ceil(x) : floor(x);
            if (!isfinite(r) || fabs(r) > 9.2e18) FAIL(F, TC_ERR_ARG, loc, "OverflowError: cannot convert float to integer");
            return hint((int64_t)r);
        }
        if (!strcmp(fnm, "log2")) { if (x <= 0) FAIL(F, TC_ERR_ARG, loc, "ValueError: math domain error"); return hfloat(log2(x)); }
        if (!strcmp(fnm, "sqrt")) { if (x < 0) FAIL(F, TC_ERR_ARG, loc, "ValueError: math domain error"); return hfloat(sqrt(x)); }
        if (!strcmp(fnm, "log")) { if (x <= 0) FAIL(F, TC_ERR_ARG, loc, "ValueError: math domain error"); return hfloat(log(x)); }
    }
    if (!strcmp(p, "triton.language.constexpr")) {   /* X = tl.constexpr(4): the value */
        nargs_check(F, "constexpr", n, 1, 1, loc);
        return a[0];
    }
    if (!strcmp(p, "triton.Config") || !strcmp(p, "triton.runtime.Config") || !strcmp(p, "triton.runtime.autotuner.Config"))
        return config_new(F, a, n, kwn, kwv, nkw, loc);
    if (!strcmp(p, "triton.runtime.driver.active.get_current_target")) return target_obj(F, loc);
    if (!strcmp(p, "triton.runtime.driver.active.get_active_torch_device")) {
        tc_target t;
        hw(F, loc, &t, NULL, "get_active_torch_device()");
        return hns("cuda:0");
    }
    if (!strcmp(p, "triton.runtime.driver.active.utils.get_device_properties")) return props_value(F, loc, false);
    if (!strcmp(p, "triton.runtime.driver.active.get_current_device") || !strcmp(p, "torch.cuda.current_device")) {
        tc_target t;
        hw(F, loc, &t, NULL, "current_device()");
        return hint(H->ctx->device);
    }
    if (!strcmp(p, "torch.cuda.get_device_capability")) {
        tc_target t;
        hw(F, loc, &t, NULL, "torch.cuda.get_device_capability()");
        HSeq *s = seq_new(H);
        seq_push(H, s, hint(t.arch / 10));
        seq_push(H, s, hint(t.arch % 10));
        return hseq(H_TUPLE, s);
    }
    if (!strcmp(p, "torch.cuda.get_device_properties")) return props_value(F, loc, true);
    if (!strcmp(p, "torch.cuda.is_available")) {
        tc_target t;
        tc_device_props pr;
        bool as;
        Err e = {0};
        tc_backend bk = TC_BACKEND_AUTO;
        bool gpu = ctx_backend(H->ctx, &bk) == TC_OK && bk == TC_BACKEND_CUDA;
        bool ok = hw_answer(H->ctx->device, !gpu, &t, &pr, &as, &e) == TC_OK;
        H->assumed |= ok && as;
        return hbool(ok);
    }
    if (!strcmp(p, "torch.cuda.device_count")) {
        tc_target t;
        hw(F, loc, &t, NULL, "torch.cuda.device_count()");
        int c = 1;
        Err e = {0};
        if (!H->assumed) cuda_device_count(&c, &e);
        return hint(c);
    }
    if (!strcmp(p, "torch.device")) return n ? hns(repr_str(H, &a[0], true)) : hns("cuda");
    if (!strcmp(p, "os.environ.get") || !strcmp(p, "os.getenv")) {
        nargs_check(F, p, n, 1, 2, loc);
        if (a[0].kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "TypeError: str expected, not %s", tname(&a[0]));
        const char *v = env_read(H, a[0].s);
        return v ? hstr(v) : n > 1 ? a[1] : kwarg(kwn, kwv, nkw, "default", hv(H_NONE));
    }
    FAIL(F, TC_ERR_UNSUPPORTED, loc, "%s() is not in tritonc's host subset (host code that does work, "
         "such as creating tensors or benchmarking, is not run)", p);
}

static HV call_method(Frame *F, HV self, const char *m, HV *a, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    HostPy *H = F->H;
    switch (self.kind) {
    case H_LIST:
        if (!strcmp(m, "append")) { nargs_check(F, m, n, 1, 1, loc); seq_push(H, self.seq, a[0]); return hv(H_NONE); }
        if (!strcmp(m, "extend")) {
            HSeq *in = iter_items(F, a[0], loc);
            int k = in->n;
            for (int i = 0; i < k; i++) seq_push(H, self.seq, in->v[i]);
            return hv(H_NONE);
        }
        if (!strcmp(m, "copy")) return call_builtin(F, "builtins.list", &self, 1, NULL, NULL, 0, loc);
        if (!strcmp(m, "pop")) {
            if (!self.seq->n) FAIL(F, TC_ERR_ARG, loc, "IndexError: pop from empty list");
            int64_t i = n ? want_int(F, a[0], loc, "index") : self.seq->n - 1;
            if (i < 0) i += self.seq->n;
            if (i < 0 || i >= self.seq->n) FAIL(F, TC_ERR_ARG, loc, "IndexError: pop index out of range");
            HV r = self.seq->v[i];
            memmove(&self.seq->v[i], &self.seq->v[i + 1], sizeof(HV) * (size_t)(self.seq->n - i - 1));
            self.seq->n--;
            return r;
        }
        /* fall through */
    case H_TUPLE:
        if (!strcmp(m, "index") || !strcmp(m, "count")) {
            nargs_check(F, m, n, 1, 1, loc);
            int c = 0;
            for (int i = 0; i < self.seq->n; i++)
                if (hv_eq(&self.seq->v[i], &a[0])) { if (!strcmp(m, "index")) return hint(i); c++; }
            if (!strcmp(m, "index")) FAIL(F, TC_ERR_ARG, loc, "ValueError: %s is not in list", repr_str(H, &a[0], false));
            return hint(c);
        }
        break;
    case H_DICT:
        if (!strcmp(m, "get")) {
            nargs_check(F, m, n, 1, 2, loc);
            int i = dict_find(self.d, &a[0]);
            return i >= 0 ? self.d->v[i] : n > 1 ? a[1] : hv(H_NONE);
        }
        if (!strcmp(m, "keys") || !strcmp(m, "values") || !strcmp(m, "items")) {
            HSeq *s = seq_new(H);
            for (int i = 0; i < self.d->n; i++) {
                if (m[0] == 'k') seq_push(H, s, self.d->k[i]);
                else if (m[0] == 'v') seq_push(H, s, self.d->v[i]);
                else {
                    HSeq *t = seq_new(H);
                    seq_push(H, t, self.d->k[i]);
                    seq_push(H, t, self.d->v[i]);
                    seq_push(H, s, hseq(H_TUPLE, t));
                }
            }
            return hseq(H_LIST, s);
        }
        if (!strcmp(m, "copy")) return call_builtin(F, "builtins.dict", &self, 1, NULL, NULL, 0, loc);
        if (!strcmp(m, "update")) {
            if (n) { HV d = call_builtin(F, "builtins.dict", a, 1, NULL, NULL, 0, loc); for (int i = 0; i < d.d->n; i++) dict_set(H, self.d, d.d->k[i], d.d->v[i]); }
            for (int k = 0; k < nkw; k++) dict_sets(H, self.d, kwn[k], kwv[k]);
            return hv(H_NONE);
        }
        if (!strcmp(m, "setdefault")) {
            int i = dict_find(self.d, &a[0]);
            if (i >= 0) return self.d->v[i];
            dict_set(H, self.d, a[0], n > 1 ? a[1] : hv(H_NONE));
            return n > 1 ? a[1] : hv(H_NONE);
        }
        if (!strcmp(m, "pop")) {
            int i = dict_find(self.d, &a[0]);
            if (i < 0) { if (n > 1) return a[1]; FAIL(F, TC_ERR_ARG, loc, "KeyError: %s", repr_str(H, &a[0], false)); }
            HV r = self.d->v[i];
            memmove(&self.d->k[i], &self.d->k[i + 1], sizeof(HV) * (size_t)(self.d->n - i - 1));
            memmove(&self.d->v[i], &self.d->v[i + 1], sizeof(HV) * (size_t)(self.d->n - i - 1));
            self.d->n--;
            return r;
        }
        break;
    case H_STR:
        if (!strcmp(m, "startswith") || !strcmp(m, "endswith")) {
            nargs_check(F, m, n, 1, 1, loc);
            if (a[0].kind != H_STR) break;
            size_t ls = strlen(self.s), la = strlen(a[0].s);
            if (la > ls) return hbool(false);
            return hbool(!strncmp(m[0] == 's' ? self.s : self.s + ls - la, a[0].s, la));
        }
        if (!strcmp(m, "lower") || !strcmp(m, "upper")) {
            char *s = arena_strdup(&H->a, self.s);
            for (char *c = s; *c; c++) *c = (char)(m[0] == 'l' ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
            return hstr(s);
        }
        if (!strcmp(m, "strip")) {
            const char *s = self.s;
            while (*s == ' ' || *s == '\t' || *s == '\n') s++;
            size_t l = strlen(s);
            while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\n')) l--;
            return hstr(arena_strndup(&H->a, s, l));
        }
        if (!strcmp(m, "split")) {
            HSeq *s = seq_new(H);
            const char *sep = n && a[0].kind == H_STR ? a[0].s : ",";
            if (!n) sep = " ";
            const char *p = self.s;
            for (;;) {
                const char *q = *sep ? strstr(p, sep) : NULL;
                if (!q) { seq_push(H, s, hstr(p)); break; }
                seq_push(H, s, hstr(arena_strndup(&H->a, p, (size_t)(q - p))));
                p = q + strlen(sep);
            }
            return hseq(H_LIST, s);
        }
        if (!strcmp(m, "join")) {
            HSeq *in = iter_items(F, a[0], loc);
            Buf bb = {0};
            for (int i = 0; i < in->n; i++) {
                if (in->v[i].kind != H_STR) { buf_free(&bb); FAIL(F, TC_ERR_ARG, loc, "TypeError: sequence item %d: expected str instance, %s found", i, tname(&in->v[i])); }
                if (i) buf_puts(&bb, self.s);
                buf_puts(&bb, in->v[i].s);
            }
            HV r = hstr(arena_strdup(&H->a, bb.s ? bb.s : ""));
            buf_free(&bb);
            return r;
        }
        break;
    case H_TENSOR:
        if (!strcmp(m, "stride")) {
            int64_t st[TC_MAX_RANK];
            int64_t acc = 1;
            for (int i = self.t->rank - 1; i >= 0; i--) { st[i] = acc; acc *= self.t->shape[i]; }
            if (n) {
                int64_t d = want_int(F, a[0], loc, "dim");
                if (d < 0) d += self.t->rank;
                if (d < 0 || d >= self.t->rank) FAIL(F, TC_ERR_ARG, loc, "IndexError: Dimension out of range");
                return hint(st[d]);
            }
            HSeq *s = seq_new(H);
            for (int i = 0; i < self.t->rank; i++) seq_push(H, s, hint(st[i]));
            return hseq(H_TUPLE, s);
        }
        if (!strcmp(m, "size")) {
            if (!n) return tensor_shape(H, self.t);
            int64_t d = want_int(F, a[0], loc, "dim");
            if (d < 0) d += self.t->rank;
            if (d < 0 || d >= self.t->rank) FAIL(F, TC_ERR_ARG, loc, "IndexError: Dimension out of range");
            return hint(self.t->shape[d]);
        }
        if (!strcmp(m, "numel")) return hint(self.t->numel);
        if (!strcmp(m, "element_size")) return hint((int64_t)tc_dtype_size(self.t->dtype));
        if (!strcmp(m, "dim")) return hint(self.t->rank);
        FAIL(F, TC_ERR_UNSUPPORTED, loc, "tensor.%s() is host code that works on the tensor's data; "
             "tritonc's host subset sees a tensor's name, dtype, shape and strides only", m);
    case H_OBJ:
        if (!strcmp(m, "all_kwargs")) {
            HV r = call_builtin(F, "builtins.dict", dict_get(self.o->attrs, "kwargs"), 1, NULL, NULL, 0, loc);
            static const char *const o[] = {"num_warps", "num_ctas", "num_stages", "maxnreg"};
            for (int i = 0; i < COUNT_OF(o); i++) {
                HV *v = dict_get(self.o->attrs, o[i]);
                if (v) dict_sets(H, r.d, o[i], *v);
            }
            return r;
        }
        break;
    }
    FAIL(F, TC_ERR_UNSUPPORTED, loc, "%s.%s() is not in tritonc's host subset", tname(&self), m);
}

static HV call_value(Frame *F, HV f, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    switch (f.kind) {
    case H_FUNC: return call_function(F, f.fn, args, n, kwn, kwv, nkw, loc);
    case H_NS: return call_builtin(F, f.s, args, n, kwn, kwv, nkw, loc);
    case H_METHOD: return call_method(F, *f.self, f.s, args, n, kwn, kwv, nkw, loc);
    }
    FAIL(F, TC_ERR_ARG, loc, "TypeError: '%s' object is not callable", tname(&f));
}

/* ---- the tune layer's entry points ------------------------------------------------------------- */

HostPy *hpy_new(tc_kernel *k) {
    HostPy *H = calloc(1, sizeof *H);
    if (!H) return NULL;
    H->k = k;
    H->m = k->m->mod;
    H->ctx = k->m->ctx;
    return H;
}

void hpy_free(HostPy *H) {
    if (!H) return;
    for (int i = 0; i < H->nparsed; i++) {
        module_free(H->parsed[i].m);
        source_free(H->parsed[i].src);
    }
    arena_free(&H->a);
    free(H);
}

bool hpy_assumed(const HostPy *H) { return H && H->assumed; }

uint64_t hpy_env_hash(const HostPy *H, uint64_t h) {
    if (!H) return h;
    for (int i = 0; i < H->nenvr; i++) {
        h = hash_bytes(H->envr[i].name, strlen(H->envr[i].name) + 1, h);
        const char *v = H->envr[i].value ? H->envr[i].value : "\x01unset";
        h = hash_bytes(v, strlen(v) + 1, h);
    }
    const char *t = getenv("TRITONC_TARGET");
    if (H->assumed && t) h = hash_bytes(t, strlen(t) + 1, h);
    return h;
}

#define HPY_ENTER(H, errp)                                   \
    jmp_buf jb;                                              \
    jmp_buf *saved = (errp)->jump;                           \
    (H)->err = (errp);                                       \
    arena_init_keep(H);                                      \
    if (ERR_TRY((errp), jb)) { (errp)->jump = saved; hpy_unwound(H); return false; }
#define HPY_LEAVE(errp) ((errp)->jump = saved)

/* After an error: statements whose evaluation was cut short are evaluated again next time
 * (and fail again with their own error, not as depending on themselves). */
static void hpy_unwound(HostPy *H) {
    H->depth = 0;
    for (int i = 0; i < H->nmemo; i++)
        if (H->memo[i].state == 1) H->memo[i].state = 0;
}

static void arena_init_keep(HostPy *H) {
    if (!H->a.err) arena_init(&H->a, H->err);
    H->a.err = H->err;
    H->steps = 0;
}

static bool to_tconfig(Frame *F, HV c, TConfig *out, SrcLoc loc) {
    memset(out, 0, sizeof *out);
    if (c.kind != H_OBJ || strcmp(c.o->type, "Config"))
        FAIL(F, TC_ERR_ARG, loc, "configs: expected triton.Config objects, got a '%s'", tname(&c));
    SrcLoc cl = c.o->loc;
    HV *kw = dict_get(c.o->attrs, "kwargs");
    for (int i = 0; kw && i < kw->d->n; i++) {
        HV k = kw->d->k[i], v = kw->d->v[i];
        if (k.kind != H_STR) FAIL(F, TC_ERR_ARG, cl, "triton.Config: keys must be strings");
        if (tune_param_idx(F->H->k, k.s) < 0)
            FAIL(F, TC_ERR_ARG, cl, "triton.Config: '%s' is not a parameter of %s", k.s, F->H->k->signature);
        tc_value tv;
        switch (v.kind) {
        case H_INT: tv = tc_int(v.i); break;
        case H_BOOL: tv = tc_bool((int)v.i); break;
        case H_FLOAT: tv = tc_float(v.f); break;
        case H_STR: tv = tc_str(v.s); break;
        case H_NONE: tv = tc_none(); break;
        default: FAIL(F, TC_ERR_ARG, cl, "triton.Config value '%s' is a %s, not a number, bool or string", k.s, tname(&v));
        }
        if (out->nkw >= TUNE_MAX_KW) FAIL(F, TC_ERR_LIMIT, cl, "more than %d config values", TUNE_MAX_KW);
        if (!tconfig_add(out, k.s, tv)) FAIL(F, TC_ERR_NOMEM, cl, "out of memory");
    }
    static const char *const opt[] = {"num_warps", "num_stages", "num_ctas", "maxnreg"};
    int *dst[] = {&out->num_warps, &out->num_stages, &out->num_ctas, &out->maxnreg};
    int lo[] = {1, 1, 1, 1}, hi[] = {64, 64, 16, 255}, dv[] = {4, 3, 1, 0};
    for (int i = 0; i < 4; i++) {
        HV *v = dict_get(c.o->attrs, opt[i]);
        *dst[i] = dv[i];
        if (!v || v->kind == H_NONE) continue;
        if (v->kind != H_INT || v->i < lo[i] || v->i > hi[i])
            FAIL(F, TC_ERR_ARG, cl, "triton.Config: %s must be an integer in [%d, %d]", opt[i], lo[i], hi[i]);
        *dst[i] = (int)v->i;
    }
    if (out->num_warps & (out->num_warps - 1)) FAIL(F, TC_ERR_ARG, cl, "num_warps must be a power of 2 (got %d)", out->num_warps);
    if (out->num_ctas != 1) FAIL(F, TC_ERR_UNSUPPORTED, cl, "num_ctas=%d (thread block clusters) is not supported by tritonc; use 1", out->num_ctas);
    tconfig_format(out);
    return true;
}

/* A list of parameter names (key=, reset_to_zero=, restore_value=), in the HostPy's arena. */
static const char **name_list(Frame *F, HV v, const char *what, int *n, SrcLoc loc) {
    *n = 0;
    if (v.kind == H_NONE) return NULL;
    HSeq *s = iter_items(F, v, loc);
    const char **l = arena_alloc(&F->H->a, sizeof *l * (size_t)(s->n + 1));
    for (int i = 0; i < s->n; i++) {
        if (s->v[i].kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "%s: expected parameter names as strings", what);
        l[i] = s->v[i].s;
    }
    *n = s->n;
    return l;
}

static void to_params(Frame *F, const char **names, int n, const char *what, int **idx, SrcLoc loc) {
    *idx = calloc(n ? (size_t)n : 1, sizeof **idx);
    if (!*idx) FAIL(F, TC_ERR_NOMEM, loc, "out of memory");
    for (int i = 0; i < n; i++) {
        int j = tune_param_idx(F->H->k, names[i]);
        if (j < 0) FAIL(F, TC_ERR_ARG, loc, "%s: '%s' is not a parameter of %s", what, names[i], F->H->k->signature);
        (*idx)[i] = j;
    }
}

bool hpy_autotune(HostPy *H, const Expr *call, TuneKernel *t, Err *err) {
    HPY_ENTER(H, err);
    Pos top = {H->m->host, H->k->fn->host_pos, NULL};
    Frame F = {H, NULL, &top, false, false, false, hv(H_NONE)};
    static const char *const pos[] = {"configs", "key", "prune_configs_by", "reset_to_zero",
                                      "restore_value", "pre_hook", "post_hook", "warmup", "rep",
                                      "use_cuda_graph", "do_bench", "cache_results"};
    const Expr *arg[12] = {0};
    if (call->n > 12) FAIL(&F, TC_ERR_ARG, call->loc, "triton.autotune() takes at most 12 arguments");
    for (int i = 0; i < call->n; i++) arg[i] = call->items[i];
    for (int i = 0; i < call->nkw; i++) {
        int j = 0;
        while (j < 12 && strcmp(pos[j], call->kw[i].name ? call->kw[i].name : "")) j++;
        if (j == 12) {
            if (!call->kw[i].name) FAIL(&F, TC_ERR_UNSUPPORTED, call->kw[i].loc, "**kwargs in triton.autotune() is not supported");
            FAIL(&F, TC_ERR_ARG, call->kw[i].loc, "triton.autotune() got an unexpected keyword argument '%s'", call->kw[i].name);
        }
        arg[j] = call->kw[i].value;
    }
    t->autotune = true;
    if (!arg[0]) FAIL(&F, TC_ERR_ARG, call->loc, "triton.autotune() missing 1 required argument: 'configs'");
    if (!arg[1]) FAIL(&F, TC_ERR_ARG, call->loc, "triton.autotune() missing 1 required argument: 'key'");
    if (arg[10] && arg[10]->kind != EX_NONE)
        FAIL(&F, TC_ERR_UNSUPPORTED, arg[10]->loc, "triton.autotune(do_bench=...) is a Python function tritonc "
             "cannot run; tritonc times configs with its own do_bench (warmup=/rep= set its budgets)");
    HV cfgs = eval(&F, arg[0]);
    HSeq *cs = iter_items(&F, cfgs, arg[0]->loc);
    if (cs->n > TUNE_MAX_CONFIGS) FAIL(&F, TC_ERR_LIMIT, arg[0]->loc, "more than %d configs", TUNE_MAX_CONFIGS);
    H->configs = seq_new(H);
    if (!cs->n) {   /* Triton's default: Config({}, num_warps=4, num_stages=3, num_ctas=1) */
        HV d = hv(H_DICT);
        d.d = dict_new(H);
        seq_push(H, H->configs, config_new(&F, &d, 1, NULL, NULL, 0, call->loc));
    } else {
        for (int i = 0; i < cs->n; i++) seq_push(H, H->configs, cs->v[i]);
    }
    t->cfg = calloc((size_t)H->configs->n, sizeof *t->cfg);
    if (!t->cfg) FAIL(&F, TC_ERR_NOMEM, call->loc, "out of memory");
    for (int i = 0; i < H->configs->n; i++) {
        t->ncfg++;   /* counted first: a partly filled config is freed with the rest */
        to_tconfig(&F, H->configs->v[i], &t->cfg[i], arg[0]->loc);
    }
    int nk = 0;
    const char **keys = name_list(&F, eval(&F, arg[1]), "key", &nk, arg[1]->loc);
    t->key = calloc(nk ? (size_t)nk : 1, sizeof *t->key);
    if (!t->key) FAIL(&F, TC_ERR_NOMEM, arg[1]->loc, "out of memory");
    for (int i = 0; i < nk; i++) {
        if (!(t->key[i] = strdup(keys[i]))) FAIL(&F, TC_ERR_NOMEM, arg[1]->loc, "out of memory");
        t->nkey++;
    }
    for (int pass = 3; pass <= 4; pass++) {
        if (!arg[pass]) continue;
        int nn = 0;
        const char **names = name_list(&F, eval(&F, arg[pass]), pos[pass], &nn, arg[pass]->loc);
        to_params(&F, names, nn, pos[pass], pass == 3 ? &t->reset : &t->restore, arg[pass]->loc);
        if (pass == 3) t->nreset = nn; else t->nrestore = nn;
    }
    H->prune = H->perf_model = H->pre_hook = H->post_hook = hv(H_NONE);
    H->top_k = hfloat(1.0);
    if (arg[2]) {
        HV p = eval(&F, arg[2]);
        if (p.kind == H_DICT) {
            HV *x;
            if ((x = dict_get(p.d, "early_config_prune"))) H->prune = *x;
            if ((x = dict_get(p.d, "perf_model"))) H->perf_model = *x;
            if ((x = dict_get(p.d, "top_k"))) H->top_k = *x;
        } else if (p.kind != H_NONE) FAIL(&F, TC_ERR_ARG, arg[2]->loc, "prune_configs_by must be a dict");
    }
    if (arg[5]) H->pre_hook = eval(&F, arg[5]);
    if (arg[6]) H->post_hook = eval(&F, arg[6]);
    int w = 25, r = 100;
    for (int i = 7; i <= 8; i++) {
        if (!arg[i]) continue;
        HV v = eval(&F, arg[i]);
        if (v.kind == H_NONE) continue;
        if (v.kind != H_INT || v.i < 1 || v.i > 1000000) FAIL(&F, TC_ERR_ARG, arg[i]->loc, "%s must be an integer in [1, 1000000]", pos[i]);
        if (i == 7) w = (int)v.i; else r = (int)v.i;
    }
    t->warmup = w;
    t->rep = r;
    if (arg[9]) eval(&F, arg[9]);    /* use_cuda_graph: accepted; timed with events */
    if (arg[11]) eval(&F, arg[11]);  /* cache_results: tritonc always keeps its tuning cache */
    HPY_LEAVE(err);
    return true;
}

/* The launch's arguments as the host subset sees them: name -> value (tensors as views). */
static HV nargs_of(HostPy *H, const tc_args *a) {
    HV d = hv(H_DICT);
    d.d = dict_new(H);
    const tc_kernel *k = H->k;
    for (int i = 0; i < k->fn->nparams; i++) {
        tc_value v;
        if (a->slots[i].set) v = a->slots[i].v;
        else if (!param_default(&k->fn->params[i], &v)) continue;
        HV x = hv(H_NONE);
        switch (v.kind) {
        case TC_VAL_INT: x = hint(v.u.i); break;
        case TC_VAL_UINT: x = hint(v.u.i); break;
        case TC_VAL_FLOAT: x = hfloat(v.u.f); break;
        case TC_VAL_BOOL: x = hbool(v.u.b != 0); break;
        case TC_VAL_STR: x = hstr(arena_strdup(&H->a, v.u.s)); break;
        case TC_VAL_TENSOR: x = hv(H_TENSOR); x.t = v.u.t; break;
        default: break;
        }
        dict_sets(H, d.d, k->fn->params[i].name, x);
    }
    return d;
}

bool hpy_has_prune(const HostPy *H) {
    return H && H->configs && (H->prune.kind != H_NONE || H->perf_model.kind != H_NONE);
}

/* Triton's Autotuner.prune_configs: early_config_prune(configs, named_args, **kwargs), then
 * perf_model's top_k. The launch's arguments are both the named arguments and the keyword
 * arguments (a tritonc launch does not tell them apart). keep[i] says whether config i
 * survives; *order gets the survivors in the order Triton benchmarks them. */
bool hpy_prune(HostPy *H, const tc_args *a, int *surv, int *nsurv, Err *err) {
    HPY_ENTER(H, err);
    Pos end = {H->m->host, H->m->nhost, NULL};
    Frame F = {H, NULL, &end, false, false, false, hv(H_NONE)};
    SrcLoc loc = H->k->fn->autotune ? H->k->fn->autotune->loc : H->k->fn->loc;
    HSeq *cur = H->configs;
    HV nargs = nargs_of(H, a);
    int nkw = nargs.d->n;
    const char **kwn = arena_alloc(&H->a, sizeof(char *) * (size_t)(nkw + 1));
    for (int i = 0; i < nkw; i++) kwn[i] = nargs.d->k[i].s;
    if (H->prune.kind != H_NONE) {
        HV args[2] = {hseq(H_LIST, cur), nargs};
        HV r = call_value(&F, H->prune, args, 2, kwn, nargs.d->v, nkw, loc);
        cur = iter_items(&F, r, loc);
        if (!cur->n) FAIL(&F, TC_ERR_ARG, loc, "AutotunerError: No valid autotuner configs after pruning. "
                          "`early_config_prune` should return at least one config.");
    }
    if (H->perf_model.kind != H_NONE) {
        int64_t top_k;
        if (H->top_k.kind == H_FLOAT && H->top_k.f <= 1.0) top_k = (int64_t)(H->configs->n * H->top_k.f);
        else if (H->top_k.kind == H_INT) top_k = H->top_k.i;
        else FAIL(&F, TC_ERR_ARG, loc, "TypeError: Error while pruning configs, top_k must be either 1) a float <= 1.0 or 2) an int");
        if (cur->n > top_k) {
            HSeq *timed = seq_new(H);
            HV *est = arena_alloc(&H->a, sizeof(HV) * (size_t)(cur->n + 1));
            for (int i = 0; i < cur->n; i++) {
                HV all = call_method(&F, cur->v[i], "all_kwargs", NULL, 0, NULL, NULL, 0, loc);
                HV kw = binop(&F, PY_BITOR, nargs, all, loc);
                const char **kn = arena_alloc(&H->a, sizeof(char *) * (size_t)(kw.d->n + 1));
                for (int j = 0; j < kw.d->n; j++) kn[j] = kw.d->k[j].s;
                est[i] = call_value(&F, H->perf_model, NULL, 0, kn, kw.d->v, kw.d->n, loc);
            }
            /* sorted by estimate, stable; the first top_k */
            HSeq idx = {0};
            for (int i = 0; i < cur->n; i++) {
                int j = idx.n;
                seq_push(H, &idx, hint(i));
                while (j > 0 && order(&F, &est[idx.v[j - 1].i], &est[i], PY_LT, loc) > 0) { idx.v[j] = idx.v[j - 1]; j--; }
                idx.v[j] = hint(i);
            }
            for (int i = 0; i < idx.n && i < top_k; i++) seq_push(H, timed, cur->v[idx.v[i].i]);
            cur = timed;
        }
    }
    *nsurv = 0;
    for (int i = 0; i < cur->n; i++) {
        int j = 0;
        while (j < H->configs->n && !hv_eq(&H->configs->v[j], &cur->v[i])) j++;
        if (j == H->configs->n) FAIL(&F, TC_ERR_UNSUPPORTED, loc, "early_config_prune returned a config that is not one of the autotuner's configs");
        surv[(*nsurv)++] = j;
    }
    HPY_LEAVE(err);
    return true;
}

/* Runs config i's pre_hook (and the autotuner's) with the launch's arguments and the config's
 * values, as Triton does before the launch. */
bool hpy_pre_hook(HostPy *H, int cfg, const tc_args *a, Err *err) {
    if (!H || !H->configs || cfg < 0 || cfg >= H->configs->n) return true;
    HV *ph = H->configs->v[cfg].kind == H_OBJ ? dict_get(H->configs->v[cfg].o->attrs, "pre_hook") : NULL;
    if (!ph || ph->kind == H_NONE) return true;   /* the autotuner's own pre_hook runs only when benchmarking */
    HPY_ENTER(H, err);
    Pos end = {H->m->host, H->m->nhost, NULL};
    Frame F = {H, NULL, &end, false, false, false, hv(H_NONE)};
    SrcLoc loc = H->k->fn->autotune ? H->k->fn->autotune->loc : H->k->fn->loc;
    HV all = call_method(&F, H->configs->v[cfg], "all_kwargs", NULL, 0, NULL, NULL, 0, loc);
    HV full = binop(&F, PY_BITOR, nargs_of(H, a), all, loc);
    call_value(&F, *ph, &full, 1, NULL, NULL, 0, loc);
    HPY_LEAVE(err);
    return true;
}

/* A @triton.heuristics value the older evaluator cannot read (a function of the module, a
 * lambda calling host code): the value expression evaluated where the kernel is defined,
 * called with the launch's arguments (Triton: {**dict(zip(arg_names, args)), **kwargs}). */
bool hpy_heuristic(HostPy *H, const Expr *fn, const tc_args *a, const char *name, Err *err, tc_value *out) {
    HPY_ENTER(H, err);
    Pos top = {H->m->host, H->k->fn->host_pos, NULL};
    Frame F = {H, NULL, &top, false, false, false, hv(H_NONE)};
    HV f = eval(&F, fn);
    Pos end = {H->m->host, H->m->nhost, NULL};
    F.gpos = &end;
    HV nargs = nargs_of(H, a);
    HV v = call_value(&F, f, &nargs, 1, NULL, NULL, 0, fn->loc);
    switch (v.kind) {
    case H_INT: *out = tc_int(v.i); break;
    case H_BOOL: *out = tc_bool((int)v.i); break;
    case H_FLOAT: *out = tc_float(v.f); break;
    case H_NONE: *out = tc_none(); break;
    case H_STR: *out = tc_str(v.s); break;   /* lives in H's arena, as long as the kernel */
    default: FAIL(&F, TC_ERR_ARG, fn->loc, "heuristics value '%s' is a %s, not a number, bool or string", name, tname(&v));
    }
    HPY_LEAVE(err);
    return true;
}

void hpy_forget_autotune(HostPy *H) {
    if (!H) return;
    H->configs = NULL;
    H->prune = H->perf_model = H->pre_hook = H->post_hook = hv(H_NONE);
}
