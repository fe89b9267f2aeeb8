/* tune.c — adapting to the hardware that is there: @triton.heuristics (computed on every
 * launch, no device needed), @triton.autotune (benchmark every config on the device, keep
 * the fastest), do_bench (Triton's triton.testing.do_bench), and the tuning database (the
 * on-disk cache of choices, and JSON files that export and import them).
 *
 * Decorators are evaluated from the AST by a small evaluator with Python semantics; what it
 * cannot evaluate (prune_configs_by, pre_hook, a lambda calling host code, ...) is refused
 * with TC_ERR_UNSUPPORTED naming file:line:col, never dropped.
 *
 * Honesty (design decision 5): autotuning needs a device to benchmark on. Without an active
 * driver an autotuned launch fails with the driver error; under the interpreter it runs only
 * from a tuning database recorded on a GPU, and the launch report's note says which config
 * it used and where and when that config was measured. A kernel with a single config needs
 * no benchmarking (as Triton) and runs anywhere.
 *
 * Configs are compiled one after another before any timing (not in parallel threads: the
 * kernel's specialization cache is not thread-safe); the report says so (compile_parallel). */
#include "tune/tune.h"
#include "driver/cuda.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TUNE_MAX_CONFIGS 1024
#define TUNE_MAX_KW 64
#define EVAL_MAX_DEPTH 64
#define JSON_MAX_BYTES ((size_t)16 << 20)
#define JSON_MAX_DEPTH 64

/* ---- state ------------------------------------------------------------------------------ */

typedef struct TConfig {
    int nkw;
    char **names;
    tc_value *vals;          /* TC_VAL_STR strings owned */
    int num_warps, num_stages, num_ctas, maxnreg;
    char str[256];           /* str(Config) */
} TConfig;

typedef struct THeur {
    char *name;
    int pidx;                /* the kernel parameter it sets */
    const Expr *body;        /* the lambda's body (module arena) */
    const char *param;       /* the lambda's parameter name */
    SrcLoc loc;
} THeur;

typedef struct Memo {
    char *key;
    int best;
    tc_tune_source src;
    char device[128];
    int ccM, ccm;
    char at[32];
    char where[256];
    double tune_s;
} Memo;

typedef struct TuneKernel {
    bool parsed;
    Err perr;                /* the decorators' error, reported on every use */
    bool autotune, heur_outer;
    TConfig *cfg; int ncfg;
    char **key; int nkey;
    int *reset; int nreset;
    int *restore; int nrestore;
    double warmup, rep;
    THeur *heur; int nheur;
    uint64_t cfg_hash;
    Memo *memo; int nmemo, capmemo;
    /* the parameters the configs set, in the order they first appear (cfg_params_of) */
    int *cfg_params; const char **cfg_param_names; int ncfg_params; bool cfg_params_known;
} TuneKernel;

typedef struct DbEntry {
    char *kernel, *source_hash, *device, *tritonc, *at, *key, *origin;
    int ccM, ccm;
    uint64_t cfg_hash; bool has_cfg_hash;
    TConfig best;
    tc_tune_result *res; int nres;
    double tune_s;
} DbEntry;

typedef struct TuneContext {
    DbEntry *db; int ndb, capdb;
    tc_tune_report last;
    tc_tune_result *last_res;
    bool has_last;
} TuneContext;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* snprintf for text that may be cut short on purpose (notes, messages). */
static void tfmt(char *buf, size_t n, const char *fmt, ...) TC_PRINTF(3, 4);
static void tfmt(char *buf, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

static void cpy(char *dst, size_t n, const char *src) {
    if (!n) return;
    snprintf(dst, n, "%s", src ? src : "");
}


static bool env_true(const char *name) {
    const char *v = getenv(name);
    if (!v) return false;
    return !strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on");
}

static TuneContext *tctx(tc_context *ctx) {
    if (!ctx->tune) ctx->tune = calloc(1, sizeof(TuneContext));
    return ctx->tune;
}

static void config_free(TConfig *c) {
    for (int i = 0; i < c->nkw; i++) {
        free(c->names[i]);
        if (c->vals[i].kind == TC_VAL_STR) free((char *)c->vals[i].u.s);
    }
    free(c->names);
    free(c->vals);
    memset(c, 0, sizeof *c);
}

static void entry_free(DbEntry *d) {
    free(d->kernel); free(d->source_hash); free(d->device); free(d->tritonc); free(d->at);
    free(d->key); free(d->origin);
    config_free(&d->best);
    free(d->res);
    memset(d, 0, sizeof *d);
}

static void spec_clear(TuneKernel *t) {
    for (int i = 0; i < t->ncfg; i++) config_free(&t->cfg[i]);
    free(t->cfg);
    for (int i = 0; i < t->nkey; i++) free(t->key[i]);
    free(t->key);
    free(t->reset);
    free(t->restore);
    for (int i = 0; i < t->nheur; i++) free(t->heur[i].name);
    free(t->heur);
    for (int i = 0; i < t->nmemo; i++) free(t->memo[i].key);
    free(t->memo);
    free(t->cfg_params);
    free(t->cfg_param_names);
    t->cfg = NULL; t->key = NULL; t->reset = t->restore = NULL; t->heur = NULL; t->memo = NULL;
    t->ncfg = t->nkey = t->nreset = t->nrestore = t->nheur = t->nmemo = t->capmemo = 0;
    t->cfg_params = NULL; t->cfg_param_names = NULL; t->ncfg_params = 0;
    t->cfg_params_known = false;
}

void tune_kernel_free(tc_kernel *k) {
    if (!k || !k->tune) return;
    spec_clear(k->tune);
    free(k->tune);
    k->tune = NULL;
}

void tune_context_free(tc_context *ctx) {
    if (!ctx || !ctx->tune) return;
    TuneContext *t = ctx->tune;
    for (int i = 0; i < t->ndb; i++) entry_free(&t->db[i]);
    free(t->db);
    free(t->last_res);
    free(t);
    ctx->tune = NULL;
}

bool tune_wanted(const tc_kernel *k) {
    return k && (k->fn->autotune || k->fn->heuristics ||
                 (k->tune && (k->tune->autotune)));
}

/* ---- values ------------------------------------------------------------------------------ */

static const char *torch_dtype(tc_dtype d) {
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
    }
    return "torch.unknown";
}

/* Python's repr of a value. */
static void value_repr(const tc_value *v, char *buf, size_t n) {
    switch (v->kind) {
    case TC_VAL_INT: snprintf(buf, n, "%lld", (long long)v->u.i); break;
    case TC_VAL_FLOAT: tc_format_double(v->u.f, buf, n); break;
    case TC_VAL_BOOL: snprintf(buf, n, "%s", v->u.b ? "True" : "False"); break;
    case TC_VAL_STR: snprintf(buf, n, "'%s'", v->u.s); break;
    case TC_VAL_TENSOR: snprintf(buf, n, "'%s'", torch_dtype(v->u.t->dtype)); break;
    default: snprintf(buf, n, "None");
    }
}

static bool value_eq(const tc_value *a, const tc_value *b) {
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

static void config_format(TConfig *c) {
    size_t o = 0;
    c->str[0] = 0;
    for (int i = 0; i < c->nkw && o < sizeof c->str; i++) {
        char r[96];
        value_repr(&c->vals[i], r, sizeof r);
        /* str(v) in Python: strings without quotes */
        const char *shown = c->vals[i].kind == TC_VAL_STR ? c->vals[i].u.s : r;
        o += (size_t)snprintf(c->str + o, sizeof c->str - o, "%s: %s, ", c->names[i], shown);
    }
    if (o < sizeof c->str) {
        char mr[16];
        if (c->maxnreg) snprintf(mr, sizeof mr, "%d", c->maxnreg);
        else snprintf(mr, sizeof mr, "None");
        snprintf(c->str + o, sizeof c->str - o, "num_warps: %d, num_ctas: %d, num_stages: %d, maxnreg: %s",
                 c->num_warps, c->num_ctas, c->num_stages, mr);
    }
}

static bool config_eq(const TConfig *a, const TConfig *b) {
    if (a->nkw != b->nkw || a->num_warps != b->num_warps || a->num_stages != b->num_stages ||
        a->num_ctas != b->num_ctas || a->maxnreg != b->maxnreg)
        return false;
    for (int i = 0; i < a->nkw; i++) {
        int j = 0;
        while (j < b->nkw && strcmp(a->names[i], b->names[j])) j++;
        if (j == b->nkw || !value_eq(&a->vals[i], &b->vals[j])) return false;
    }
    return true;
}

/* Adds kw=value (copied) to a config; false on out of memory. */
static bool config_add(TConfig *c, const char *name, tc_value v) {
    char **nn = realloc(c->names, sizeof *nn * (size_t)(c->nkw + 1));
    if (!nn) return false;
    c->names = nn;
    tc_value *nv = realloc(c->vals, sizeof *nv * (size_t)(c->nkw + 1));
    if (!nv) return false;
    c->vals = nv;
    char *s = strdup(name);
    if (!s) return false;
    if (v.kind == TC_VAL_STR) {
        char *t = strdup(v.u.s ? v.u.s : "");
        if (!t) { free(s); return false; }
        v.u.s = t;
    }
    c->names[c->nkw] = s;
    c->vals[c->nkw] = v;
    c->nkw++;
    return true;
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
} Eval;

/* "a.b.c" for a name/attribute chain, the first part through the file's import aliases. */
static bool dotted(const Module *m, const Expr *e, char *buf, size_t n) {
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

static bool binop(Eval *E, PyOp op, tc_value a, tc_value b, SrcLoc loc, tc_value *r) {
    if (op == PY_ADD && a.kind == TC_VAL_STR && b.kind == TC_VAL_STR)
        return evfail(E, TC_ERR_UNSUPPORTED, loc, "string concatenation is not supported here");
    if (!is_num(&a) || !is_num(&b))
        return evfail(E, TC_ERR_ARG, loc, "TypeError: unsupported operand type(s) for %s: '%s' and '%s'",
                      py_op_str(op), type_name(&a), type_name(&b));
    bool ints = is_intlike(&a) && is_intlike(&b);
    if (ints) {
        int64_t x = as_int(&a), y = as_int(&b), z = 0;
        bool ovf = false;
        if (op == PY_ADD) ovf = __builtin_add_overflow(x, y, &z);
        else if (op == PY_SUB) ovf = __builtin_sub_overflow(x, y, &z);
        else if (op == PY_MUL) ovf = __builtin_mul_overflow(x, y, &z);
        else if (op == PY_FLOORDIV || op == PY_MOD) {
            if (y == 0) return evfail(E, TC_ERR_ARG, loc, "ZeroDivisionError: integer division or modulo by zero");
            if (x == INT64_MIN && y == -1) { ovf = true; }
            else {
                int64_t q = x / y, m = x % y;
                if (m != 0 && ((m < 0) != (y < 0))) { q--; m += y; }
                z = op == PY_FLOORDIV ? q : m;
            }
        } else if (op == PY_POW) {
            if (y < 0) { *r = tc_float(pow((double)x, (double)y)); return true; }
            z = 1;
            for (int64_t i = 0; i < y && !ovf; i++) ovf = __builtin_mul_overflow(z, x, &z);
        } else if (op == PY_LSHIFT) {
            if (y < 0) return evfail(E, TC_ERR_ARG, loc, "ValueError: negative shift count");
            if (y >= 63 || (x != 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y)))) ovf = true;
            else z = (int64_t)((uint64_t)x << y);
        } else if (op == PY_RSHIFT) {
            if (y < 0) return evfail(E, TC_ERR_ARG, loc, "ValueError: negative shift count");
            z = y >= 63 ? (x < 0 ? -1 : 0) : x >> y;
        } else if (op == PY_BITAND) z = x & y;
        else if (op == PY_BITOR) z = x | y;
        else if (op == PY_BITXOR) z = x ^ y;
        else if (op == PY_DIV) {
            if (y == 0) return evfail(E, TC_ERR_ARG, loc, "ZeroDivisionError: division by zero");
            *r = tc_float((double)x / (double)y);
            return true;
        } else return evfail(E, TC_ERR_UNSUPPORTED, loc, "operator '%s' is not supported here", py_op_str(op));
        if (ovf) return evfail(E, TC_ERR_LIMIT, loc, "integer overflow in '%s' (beyond 64 bits)", py_op_str(op));
        if ((op == PY_BITAND || op == PY_BITOR || op == PY_BITXOR) && a.kind == TC_VAL_BOOL &&
            b.kind == TC_VAL_BOOL) { *r = tc_bool(z != 0); return true; }
        *r = tc_int(z);
        return true;
    }
    double x = as_f(&a), y = as_f(&b);
    if (op == PY_ADD) *r = tc_float(x + y);
    else if (op == PY_SUB) *r = tc_float(x - y);
    else if (op == PY_MUL) *r = tc_float(x * y);
    else if (op == PY_DIV) {
        if (y == 0) return evfail(E, TC_ERR_ARG, loc, "ZeroDivisionError: float division by zero");
        *r = tc_float(x / y);
    } else if (op == PY_FLOORDIV || op == PY_MOD) {
        if (y == 0) return evfail(E, TC_ERR_ARG, loc, "ZeroDivisionError: float floor division by zero");
        double m = fmod(x, y);
        if (m != 0 && ((m < 0) != (y < 0))) m += y;
        *r = tc_float(op == PY_MOD ? m : floor(x / y));
    } else if (op == PY_POW) *r = tc_float(pow(x, y));
    else return evfail(E, TC_ERR_ARG, loc, "TypeError: unsupported operand type(s) for %s: '%s' and '%s'",
                       py_op_str(op), type_name(&a), type_name(&b));
    return true;
}

static bool compare(Eval *E, PyOp op, tc_value a, tc_value b, SrcLoc loc, bool *r) {
    if (op == PY_EQ || op == PY_NE) {
        bool eq = value_eq(&a, &b);
        *r = op == PY_EQ ? eq : !eq;
        return true;
    }
    if (op == PY_IS || op == PY_IS_NOT) {
        bool same = a.kind == b.kind && (a.kind == TC_VAL_NONE || value_eq(&a, &b));
        *r = op == PY_IS ? same : !same;
        return true;
    }
    int c;
    if (is_num(&a) && is_num(&b)) {
        if (is_intlike(&a) && is_intlike(&b)) {
            int64_t x = as_int(&a), y = as_int(&b);
            c = x < y ? -1 : x > y;
        } else {
            double x = as_f(&a), y = as_f(&b);
            if (isnan(x) || isnan(y)) { *r = false; return true; }
            c = x < y ? -1 : x > y;
        }
    } else if (a.kind == TC_VAL_STR && b.kind == TC_VAL_STR) {
        c = strcmp(a.u.s, b.u.s);
        c = c < 0 ? -1 : c > 0;
    } else {
        return evfail(E, TC_ERR_ARG, loc, "TypeError: '%s' not supported between instances of '%s' and '%s'",
                      py_op_str(op), type_name(&a), type_name(&b));
    }
    if (op == PY_LT) *r = c < 0;
    else if (op == PY_LE) *r = c <= 0;
    else if (op == PY_GT) *r = c > 0;
    else if (op == PY_GE) *r = c >= 0;
    else return evfail(E, TC_ERR_UNSUPPORTED, loc, "comparison '%s' is not supported here", py_op_str(op));
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
        bool found;
        if (!eval_global(E, e->name, e->loc, out, &found)) { ok = false; break; }
        if (found) break;
        const char *b = builtin_path(e->name);
        char d[256];
        if (!b && dotted(E->m, e, d, sizeof d)) {
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
        if (dotted(E->m, e, d, sizeof d)) {
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
            out->v = tc_str(E->check ? "torch.float32" : torch_dtype(base.t->dtype));
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
        if (e->op == PY_UADD) out->v = a.v.kind == TC_VAL_BOOL ? tc_int(a.v.u.b) : a.v;
        else if (e->op == PY_USUB) {
            if (a.v.kind == TC_VAL_FLOAT) out->v = tc_float(-a.v.u.f);
            else if (as_int(&a.v) == INT64_MIN) ok = evfail(E, TC_ERR_LIMIT, e->loc, "integer overflow");
            else out->v = tc_int(-as_int(&a.v));
        } else if (e->op == PY_INVERT && is_intlike(&a.v)) out->v = tc_int(~as_int(&a.v));
        else ok = evfail(E, TC_ERR_ARG, e->loc, "TypeError: bad operand type for unary %s: '%s'", py_op_str(e->op), type_name(&a.v));
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

/* ---- the decorators ------------------------------------------------------------------------ */

typedef struct DP {
    tc_kernel *k;
    const Module *m;
    TuneKernel *t;
    Err *err;
} DP;

static bool dfail(DP *P, tc_status code, SrcLoc loc, const char *fmt, ...) TC_PRINTF(4, 5);
static bool dfail(DP *P, tc_status code, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_setv(P->err, code, loc, fmt, ap);
    va_end(ap);
    return false;
}

static int param_idx(const tc_kernel *k, const char *name) {
    for (int i = 0; i < k->fn->nparams; i++)
        if (!strcmp(k->fn->params[i].name, name)) return i;
    return -1;
}

/* A constant value (no lambda parameter) of a decorator argument. */
static bool const_value(DP *P, const Expr *e, tc_value *v, const char *what) {
    Eval E = {.m = P->m, .k = P->k, .err = P->err, .what = what};
    EV x;
    if (!ev(&E, e, &x)) return false;
    if (x.k != EV_VAL) return dfail(P, TC_ERR_UNSUPPORTED, e->loc, "%s: not a value tritonc can evaluate", what);
    *v = x.v;
    return true;
}

static bool int_value(DP *P, const Expr *e, const char *what, int lo, int hi, int *out) {
    tc_value v = tc_none();
    if (!const_value(P, e, &v, what)) return false;
    if (v.kind == TC_VAL_NONE) return true;   /* keep the default */
    if (v.kind != TC_VAL_INT || v.u.i < lo || v.u.i > hi)
        return dfail(P, TC_ERR_ARG, e->loc, "%s must be an integer in [%d, %d]", what, lo, hi);
    *out = (int)v.u.i;
    return true;
}

/* A list/tuple of names (key=, reset_to_zero=, restore_value=). */
static bool name_list(DP *P, const Expr *e, const char *what, char ***out, int *n) {
    if (e->kind == EX_NONE) return true;
    if (e->kind != EX_LIST && e->kind != EX_TUPLE)
        return dfail(P, TC_ERR_UNSUPPORTED, e->loc, "%s must be a list of parameter names written "
                     "in the decorator (tritonc does not run host code)", what);
    char **l = calloc(e->n ? (size_t)e->n : 1, sizeof *l);
    if (!l) return dfail(P, TC_ERR_NOMEM, e->loc, "out of memory");
    *out = l;
    for (int i = 0; i < e->n; i++) {
        const Expr *x = e->items[i];
        if (x->kind != EX_STR || x->fstring) return dfail(P, TC_ERR_UNSUPPORTED, x->loc, "%s: expected a parameter name as a string", what);
        if (!(l[i] = strdup(x->str))) return dfail(P, TC_ERR_NOMEM, x->loc, "out of memory");
        (*n)++;
    }
    return true;
}

static bool names_to_params(DP *P, char **names, int n, const Expr *loc_e, const char *what, int **idx) {
    *idx = calloc(n ? (size_t)n : 1, sizeof **idx);
    if (!*idx) return dfail(P, TC_ERR_NOMEM, loc_e->loc, "out of memory");
    for (int i = 0; i < n; i++) {
        int j = param_idx(P->k, names[i]);
        if (j < 0) return dfail(P, TC_ERR_ARG, loc_e->items[i]->loc, "%s: '%s' is not a parameter of %s",
                                what, names[i], P->k->signature);
        (*idx)[i] = j;
    }
    return true;
}

static bool is_callee(DP *P, const Expr *e, const char *path) {
    char d[256];
    return e->kind == EX_CALL && dotted(P->m, e->lhs, d, sizeof d) && !strcmp(d, path);
}

/* triton.Config(kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None) */
static bool parse_config(DP *P, const Expr *e, TConfig *c) {
    memset(c, 0, sizeof *c);
    c->num_warps = 4; c->num_stages = 3; c->num_ctas = 1;
    if (!is_callee(P, e, "triton.Config") && !is_callee(P, e, "triton.runtime.Config") &&
        !is_callee(P, e, "triton.runtime.autotuner.Config"))
        return dfail(P, TC_ERR_UNSUPPORTED, e->loc, "configs: expected triton.Config(...) written in "
                     "the decorator; tritonc does not run host code that builds configs");
    static const char *const pos[] = {"kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook"};
    const Expr *arg[6] = {0};
    if (e->n > 6) return dfail(P, TC_ERR_ARG, e->loc, "triton.Config() takes at most 6 positional arguments");
    for (int i = 0; i < e->n; i++) {
        if (e->items[i]->kind == EX_STARRED) return dfail(P, TC_ERR_UNSUPPORTED, e->items[i]->loc, "*args in triton.Config() is not supported");
        arg[i] = e->items[i];
    }
    for (int i = 0; i < e->nkw; i++) {
        int j = 0;
        while (j < 6 && strcmp(pos[j], e->kw[i].name ? e->kw[i].name : "")) j++;
        if (j == 6) {
            if (!e->kw[i].name) return dfail(P, TC_ERR_UNSUPPORTED, e->kw[i].loc, "**kwargs in triton.Config() is not supported");
            return dfail(P, TC_ERR_ARG, e->kw[i].loc, "triton.Config() got an unexpected keyword argument '%s'", e->kw[i].name);
        }
        arg[j] = e->kw[i].value;
    }
    if (arg[5] && arg[5]->kind != EX_NONE)
        return dfail(P, TC_ERR_UNSUPPORTED, arg[5]->loc, "triton.Config(pre_hook=...) is a Python function; "
                     "tritonc cannot run it (remove it, or zero tensors with reset_to_zero)");
    if (!arg[0]) return dfail(P, TC_ERR_ARG, e->loc, "triton.Config() missing 1 required positional argument: 'kwargs'");
    if (arg[0]->kind != EX_DICT)
        return dfail(P, TC_ERR_UNSUPPORTED, arg[0]->loc, "triton.Config: the kwargs must be a dict literal {'NAME': value, ...}");
    for (int i = 0; i < arg[0]->n; i++) {
        const Expr *kx = arg[0]->keys[i], *vx = arg[0]->items[i];
        if (!kx) return dfail(P, TC_ERR_UNSUPPORTED, vx->loc, "**mapping in a config dict is not supported");
        if (kx->kind != EX_STR || kx->fstring) return dfail(P, TC_ERR_UNSUPPORTED, kx->loc, "config keys must be string literals");
        if (param_idx(P->k, kx->str) < 0)
            return dfail(P, TC_ERR_ARG, kx->loc, "triton.Config: '%s' is not a parameter of %s", kx->str, P->k->signature);
        for (int j = 0; j < c->nkw; j++)
            if (!strcmp(c->names[j], kx->str)) return dfail(P, TC_ERR_ARG, kx->loc, "triton.Config: '%s' given twice", kx->str);
        if (c->nkw >= TUNE_MAX_KW) return dfail(P, TC_ERR_LIMIT, kx->loc, "more than %d config values", TUNE_MAX_KW);
        tc_value v;
        if (!const_value(P, vx, &v, "triton.Config value")) return false;
        if (!config_add(c, kx->str, v)) return dfail(P, TC_ERR_NOMEM, vx->loc, "out of memory");
    }
    if (arg[1] && !int_value(P, arg[1], "num_warps", 1, 64, &c->num_warps)) return false;
    if (c->num_warps & (c->num_warps - 1)) return dfail(P, TC_ERR_ARG, arg[1]->loc, "num_warps must be a power of 2 (got %d)", c->num_warps);
    if (arg[2] && !int_value(P, arg[2], "num_stages", 1, 64, &c->num_stages)) return false;
    if (arg[3] && !int_value(P, arg[3], "num_ctas", 1, 16, &c->num_ctas)) return false;
    if (c->num_ctas != 1) return dfail(P, TC_ERR_UNSUPPORTED, arg[3]->loc, "num_ctas=%d (thread block clusters) is not supported by tritonc; use 1", c->num_ctas);
    if (arg[4] && !int_value(P, arg[4], "maxnreg", 1, 255, &c->maxnreg)) return false;
    config_format(c);
    return true;
}

static bool collect_configs(DP *P, const Expr *e) {
    if (e->kind == EX_BINOP && e->op == PY_ADD)
        return collect_configs(P, e->lhs) && collect_configs(P, e->rhs);
    if (e->kind != EX_LIST && e->kind != EX_TUPLE)
        return dfail(P, TC_ERR_UNSUPPORTED, e->loc, "configs must be a list of triton.Config(...) written "
                     "in the decorator; %s is host code tritonc does not run",
                     e->kind == EX_CALL ? "a function call" : e->kind == EX_NAME ? "a variable" :
                     e->kind == EX_OTHER ? "a comprehension" : "this expression");
    for (int i = 0; i < e->n; i++) {
        if (P->t->ncfg >= TUNE_MAX_CONFIGS) return dfail(P, TC_ERR_LIMIT, e->items[i]->loc, "more than %d configs", TUNE_MAX_CONFIGS);
        TConfig c;
        if (!parse_config(P, e->items[i], &c)) { config_free(&c); return false; }
        TConfig *nc = realloc(P->t->cfg, sizeof *nc * (size_t)(P->t->ncfg + 1));
        if (!nc) { config_free(&c); return dfail(P, TC_ERR_NOMEM, e->loc, "out of memory"); }
        P->t->cfg = nc;
        P->t->cfg[P->t->ncfg++] = c;
    }
    return true;
}

static bool parse_autotune(DP *P, const Expr *call_e) {
    static const char *const pos[] = {"configs", "key", "prune_configs_by", "reset_to_zero",
                                      "restore_value", "pre_hook", "post_hook", "warmup", "rep",
                                      "use_cuda_graph", "do_bench", "cache_results"};
    const Expr *arg[12] = {0};
    if (call_e->n > 12) return dfail(P, TC_ERR_ARG, call_e->loc, "triton.autotune() takes at most 12 arguments");
    for (int i = 0; i < call_e->n; i++) arg[i] = call_e->items[i];
    for (int i = 0; i < call_e->nkw; i++) {
        int j = 0;
        while (j < 12 && strcmp(pos[j], call_e->kw[i].name ? call_e->kw[i].name : "")) j++;
        if (j == 12) {
            if (!call_e->kw[i].name) return dfail(P, TC_ERR_UNSUPPORTED, call_e->kw[i].loc, "**kwargs in triton.autotune() is not supported");
            return dfail(P, TC_ERR_ARG, call_e->kw[i].loc, "triton.autotune() got an unexpected keyword argument '%s'", call_e->kw[i].name);
        }
        arg[j] = call_e->kw[i].value;
    }
    TuneKernel *t = P->t;
    t->autotune = true;
    if (arg[2] && arg[2]->kind != EX_NONE)
        return dfail(P, TC_ERR_UNSUPPORTED, arg[2]->loc, "triton.autotune(prune_configs_by=...) calls Python "
                     "functions (early_config_prune, perf_model) that tritonc cannot run; remove it "
                     "or list only the configs to try");
    if (arg[5] && arg[5]->kind != EX_NONE)
        return dfail(P, TC_ERR_UNSUPPORTED, arg[5]->loc, "triton.autotune(pre_hook=...) is a Python function "
                     "tritonc cannot run; use reset_to_zero/restore_value instead");
    if (arg[6] && arg[6]->kind != EX_NONE)
        return dfail(P, TC_ERR_UNSUPPORTED, arg[6]->loc, "triton.autotune(post_hook=...) is a Python function "
                     "tritonc cannot run; use restore_value instead");
    if (arg[9] && arg[9]->kind != EX_NONE && arg[9]->kind != EX_FALSE)
        return dfail(P, TC_ERR_UNSUPPORTED, arg[9]->loc, "triton.autotune(use_cuda_graph=True): tritonc "
                     "benchmarks with CUDA events only (do_bench), not CUDA graphs");
    if (arg[10] && arg[10]->kind != EX_NONE)
        return dfail(P, TC_ERR_UNSUPPORTED, arg[10]->loc, "triton.autotune(do_bench=...) is a Python "
                     "function tritonc cannot run; tritonc times configs with its own do_bench "
                     "(warmup=/rep= set its budgets)");
    if (arg[11]) {
        tc_value v;
        if (!const_value(P, arg[11], &v, "cache_results")) return false;
        /* tritonc always persists; cache_results=False is accepted and noted in the docs */
    }
    if (!arg[0]) return dfail(P, TC_ERR_ARG, call_e->loc, "triton.autotune() missing 1 required argument: 'configs'");
    if (!arg[1]) return dfail(P, TC_ERR_ARG, call_e->loc, "triton.autotune() missing 1 required argument: 'key'");
    if (!collect_configs(P, arg[0])) return false;
    if (!name_list(P, arg[1], "key", &t->key, &t->nkey)) return false;
    char **names = NULL;
    int n = 0;
    bool ok = true;
    if (arg[3]) {
        ok = name_list(P, arg[3], "reset_to_zero", &names, &n) &&
             (arg[3]->kind == EX_NONE || names_to_params(P, names, n, arg[3], "reset_to_zero", &t->reset));
        if (ok) t->nreset = n;
        for (int i = 0; i < n; i++) free(names[i]);
        free(names);
        if (!ok) return false;
        names = NULL; n = 0;
    }
    if (arg[4]) {
        ok = name_list(P, arg[4], "restore_value", &names, &n) &&
             (arg[4]->kind == EX_NONE || names_to_params(P, names, n, arg[4], "restore_value", &t->restore));
        if (ok) t->nrestore = n;
        for (int i = 0; i < n; i++) free(names[i]);
        free(names);
        if (!ok) return false;
    }
    int w = 25, r = 100;
    if (arg[7] && !int_value(P, arg[7], "warmup", 1, 1000000, &w)) return false;
    if (arg[8] && !int_value(P, arg[8], "rep", 1, 1000000, &r)) return false;
    t->warmup = w;
    t->rep = r;
    if (!t->ncfg) {   /* Triton's default: Config({}, num_warps=4, num_stages=3, num_ctas=1) */
        t->cfg = calloc(1, sizeof *t->cfg);
        if (!t->cfg) return dfail(P, TC_ERR_NOMEM, call_e->loc, "out of memory");
        t->cfg[0].num_warps = 4; t->cfg[0].num_stages = 3; t->cfg[0].num_ctas = 1;
        config_format(&t->cfg[0]);
        t->ncfg = 1;
    }
    return true;
}

static bool parse_heuristics(DP *P, const Expr *call_e) {
    const Expr *d = NULL;
    if (call_e->n == 1 && call_e->nkw == 0) d = call_e->items[0];
    else if (call_e->n == 0 && call_e->nkw == 1 && call_e->kw[0].name && !strcmp(call_e->kw[0].name, "values"))
        d = call_e->kw[0].value;
    else return dfail(P, TC_ERR_ARG, call_e->loc, "triton.heuristics() takes one argument: values={NAME: lambda args: ...}");
    if (d->kind != EX_DICT)
        return dfail(P, TC_ERR_UNSUPPORTED, d->loc, "triton.heuristics: the values must be a dict literal "
                     "{'NAME': lambda args: ...} written in the decorator");
    TuneKernel *t = P->t;
    for (int i = 0; i < d->n; i++) {
        const Expr *kx = d->keys[i], *vx = d->items[i];
        if (!kx) return dfail(P, TC_ERR_UNSUPPORTED, vx->loc, "**mapping in triton.heuristics is not supported");
        if (kx->kind != EX_STR || kx->fstring) return dfail(P, TC_ERR_UNSUPPORTED, kx->loc, "heuristics keys must be string literals");
        int pi = param_idx(P->k, kx->str);
        if (pi < 0) return dfail(P, TC_ERR_ARG, kx->loc, "triton.heuristics: '%s' is not a parameter of %s", kx->str, P->k->signature);
        if (vx->kind != EX_LAMBDA)
            return dfail(P, TC_ERR_UNSUPPORTED, vx->loc, "triton.heuristics: the value for '%s' must be a lambda "
                         "written in the decorator; %s is host code tritonc does not run", kx->str,
                         vx->kind == EX_NAME ? "a function name" : "this expression");
        if (vx->nparams != 1)
            return dfail(P, TC_ERR_ARG, vx->loc, "triton.heuristics: the lambda for '%s' must take one argument (the dict of arguments)", kx->str);
        Eval E = {.m = P->m, .k = P->k, .param = vx->params[0], .err = P->err, .check = true, .heur = kx->str};
        EV x;
        if (!ev(&E, vx->lhs, &x)) return false;
        THeur *nh = realloc(t->heur, sizeof *nh * (size_t)(t->nheur + 1));
        if (!nh) return dfail(P, TC_ERR_NOMEM, vx->loc, "out of memory");
        t->heur = nh;
        THeur h = {strdup(kx->str), pi, vx->lhs, vx->params[0], vx->loc};
        if (!h.name) return dfail(P, TC_ERR_NOMEM, vx->loc, "out of memory");
        t->heur[t->nheur++] = h;
    }
    return true;
}

static uint64_t configs_hash(const TuneKernel *t) {
    uint64_t h = 0x7475e1;
    for (int i = 0; i < t->ncfg; i++) h = hash_bytes(t->cfg[i].str, strlen(t->cfg[i].str) + 1, h);
    return h;
}

/* Parses the decorators once per kernel; returns the kernel's tuning state or NULL with the
 * error on the context. */
static TuneKernel *tune_spec(tc_kernel *k) {
    tc_context *ctx = k->m->ctx;
    if (!k->tune) {
        k->tune = calloc(1, sizeof(TuneKernel));
        if (!k->tune) { ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); return NULL; }
    }
    TuneKernel *t = k->tune;
    if (!t->parsed) {
        t->parsed = true;
        DP P = {k, k->m->mod, t, &t->perr};
        const Func *f = k->fn;
        bool ok = true;
        int at_pos = -1, he_pos = -1;
        for (int i = 0; i < f->ndecos; i++) {
            if (f->decos[i].expr == f->autotune) at_pos = i;
            if (f->decos[i].expr == f->heuristics) he_pos = i;
        }
        /* every heuristics decorator (a kernel may stack several) */
        for (int i = 0; ok && i < f->ndecos; i++) {
            const Expr *x = f->decos[i].expr;
            if (x->kind == EX_CALL && is_callee(&P, x, "triton.heuristics")) ok = parse_heuristics(&P, x);
        }
        if (ok && f->autotune) ok = parse_autotune(&P, f->autotune);
        t->heur_outer = he_pos >= 0 && at_pos >= 0 && he_pos < at_pos;
        if (!ok) {
            if (t->perr.code == TC_OK) t->perr.code = TC_ERR_INTERNAL;
            spec_clear(t);
            t->autotune = false;
        }
        t->cfg_hash = configs_hash(t);
    }
    if (t->perr.code) { ctx_take(ctx, &t->perr); return NULL; }
    return t;
}

tc_status tc_kernel_set_autotune(tc_kernel *k, const tc_autotune_spec *s) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    if (!s || s->nconfigs < 1 || !s->configs)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_kernel_set_autotune: give at least one config");
    if (s->nconfigs > TUNE_MAX_CONFIGS) return ctx_fail(ctx, TC_ERR_LIMIT, "more than %d configs", TUNE_MAX_CONFIGS);
    TuneKernel *t = tune_spec(k);
    if (!t) return tc_errcode(ctx);
    TuneKernel nt = {0};
    nt.parsed = true;
    nt.heur = t->heur; nt.nheur = t->nheur; nt.heur_outer = t->heur_outer;
    tc_status rc = TC_OK;
#define FAIL(code, ...) do { rc = ctx_fail(ctx, code, __VA_ARGS__); goto bad; } while (0)
    nt.cfg = calloc((size_t)s->nconfigs, sizeof *nt.cfg);
    if (!nt.cfg) FAIL(TC_ERR_NOMEM, "out of memory");
    for (int i = 0; i < s->nconfigs; i++) {
        const tc_autotune_config *c = &s->configs[i];
        TConfig *d = &nt.cfg[nt.ncfg++];
        d->num_warps = c->num_warps ? c->num_warps : 4;
        d->num_stages = c->num_stages ? c->num_stages : 3;
        d->num_ctas = c->num_ctas ? c->num_ctas : 1;
        d->maxnreg = c->maxnreg;
        if (d->num_warps < 1 || d->num_warps > 64 || (d->num_warps & (d->num_warps - 1)))
            FAIL(TC_ERR_ARG, "config %d: num_warps must be a power of 2 (got %d)", i, d->num_warps);
        if (d->num_stages < 1 || d->num_stages > 64) FAIL(TC_ERR_ARG, "config %d: num_stages must be in [1, 64]", i);
        if (d->num_ctas != 1) FAIL(TC_ERR_UNSUPPORTED, "config %d: num_ctas=%d is not supported by tritonc; use 1", i, d->num_ctas);
        if (c->nkw < 0 || c->nkw > TUNE_MAX_KW || (c->nkw && (!c->kw_names || !c->kw_values)))
            FAIL(TC_ERR_ARG, "config %d: bad kwargs", i);
        for (int j = 0; j < c->nkw; j++) {
            if (!c->kw_names[j] || param_idx(k, c->kw_names[j]) < 0)
                FAIL(TC_ERR_ARG, "config %d: '%s' is not a parameter of %s", i, c->kw_names[j] ? c->kw_names[j] : "(null)", k->signature);
            tc_value v = c->kw_values[j];
            if (v.kind == TC_VAL_TENSOR || (v.kind == TC_VAL_STR && !v.u.s) || (int)v.kind < 0 || v.kind > TC_VAL_TENSOR)
                FAIL(TC_ERR_ARG, "config %d: '%s' must be a number, bool, string or None", i, c->kw_names[j]);
            if (!config_add(d, c->kw_names[j], v)) FAIL(TC_ERR_NOMEM, "out of memory");
        }
        config_format(d);
    }
    if (s->nkey < 0 || (s->nkey && !s->key)) FAIL(TC_ERR_ARG, "bad key list");
    nt.key = calloc(s->nkey ? (size_t)s->nkey : 1, sizeof *nt.key);
    if (!nt.key) FAIL(TC_ERR_NOMEM, "out of memory");
    for (int i = 0; i < s->nkey; i++) {
        if (!s->key[i] || !(nt.key[i] = strdup(s->key[i]))) FAIL(TC_ERR_ARG, "bad key name");
        nt.nkey++;
    }
    for (int pass = 0; pass < 2; pass++) {
        const char *const *l = pass ? s->restore_value : s->reset_to_zero;
        int n = pass ? s->nrestore : s->nreset;
        if (n < 0 || (n && !l)) FAIL(TC_ERR_ARG, "bad %s list", pass ? "restore_value" : "reset_to_zero");
        int *idx = calloc(n ? (size_t)n : 1, sizeof *idx);
        if (!idx) FAIL(TC_ERR_NOMEM, "out of memory");
        if (pass) nt.restore = idx; else nt.reset = idx;
        for (int i = 0; i < n; i++) {
            int j = l[i] ? param_idx(k, l[i]) : -1;
            if (j < 0) FAIL(TC_ERR_ARG, "%s: '%s' is not a parameter of %s", pass ? "restore_value" : "reset_to_zero", l[i] ? l[i] : "(null)", k->signature);
            idx[i] = j;
            if (pass) nt.nrestore++; else nt.nreset++;
        }
    }
    nt.warmup = s->warmup_ms > 0 ? s->warmup_ms : 25;
    nt.rep = s->rep_ms > 0 ? s->rep_ms : 100;
    nt.autotune = true;
    /* keep the heuristics; replace everything else */
    t->heur = NULL; t->nheur = 0;
    spec_clear(t);
    *t = nt;
    t->cfg_hash = configs_hash(t);
    return TC_OK;
bad:
    nt.heur = NULL; nt.nheur = 0;
    spec_clear(&nt);
    return rc;
#undef FAIL
}

tc_status tc_kernel_tune_info(tc_kernel *k, tc_tune_info *out) {
    if (!k || !out) return TC_ERR_ARG;
    memset(out, 0, sizeof *out);
    TuneKernel *t = tune_spec(k);
    if (!t) return tc_errcode(k->m->ctx);
    out->autotuned = t->autotune;
    out->heuristics = t->nheur;
    out->nconfigs = t->autotune ? t->ncfg : 0;
    out->nkey = t->nkey;
    out->warmup_ms = t->autotune ? t->warmup : 0;
    out->rep_ms = t->autotune ? t->rep : 0;
    return TC_OK;
}

const char *tc_kernel_config_str(tc_kernel *k, int i) {
    if (!k) return NULL;
    TuneKernel *t = tune_spec(k);
    if (!t || !t->autotune || i < 0 || i >= t->ncfg) return NULL;
    return t->cfg[i].str;
}

const char *tc_kernel_heuristic_name(tc_kernel *k, int i) {
    if (!k) return NULL;
    TuneKernel *t = tune_spec(k);
    if (!t || i < 0 || i >= t->nheur) return NULL;
    return t->heur[i].name;
}

/* ---- heuristics on a launch ------------------------------------------------------------------ */

static tc_status apply_heuristics(tc_kernel *k, TuneKernel *t, tc_args *a) {
    tc_context *ctx = k->m->ctx;
    for (int i = 0; i < t->nheur; i++) {
        THeur *h = &t->heur[i];
        Err e;   /* not zeroed whole (4 KB) on every launch: err_set fills what it uses */
        e.code = TC_OK;
        e.msg[0] = 0;
        e.loc = (SrcLoc){0};
        e.jump = NULL;
        Eval E = {.m = k->m->mod, .k = k, .param = h->param, .args = a, .err = &e, .heur = h->name};
        EV x;
        if (!ev(&E, h->body, &x)) return ctx_take(ctx, &e);
        if (x.k != EV_VAL)
            return ctx_fail(ctx, TC_ERR_UNSUPPORTED, "heuristics value '%s' is not a number, bool or string", h->name);
        /* Triton sets it as a keyword argument: it overrides a value the caller gave */
        a->slots[h->pidx].set = true;
        a->slots[h->pidx].v = x.v;
    }
    return TC_OK;
}

/* ---- JSON ------------------------------------------------------------------------------------- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct JV JV;
struct JV {
    int kind;
    bool b;
    double num;
    bool isint;
    int64_t i;
    char *s;
    JV *items;
    char **keys;
    int n;
};

typedef struct JP {
    const char *p, *end, *start;
    Arena *a;
    Err *e;
    const char *name;
    int depth;
} JP;

TC_NORETURN static void jfail(JP *P, const char *what) {
    int line = 1, col = 1;
    for (const char *q = P->start; q < P->p && q < P->end; q++) {
        if (*q == '\n') { line++; col = 1; } else col++;
    }
    err_fail(P->e, TC_ERR_SYNTAX, (SrcLoc){0}, "%s: line %d, column %d: %s (not a valid tuning "
             "database)", P->name, line, col, what);
}

static void jws(JP *P) {
    while (P->p < P->end && (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r')) P->p++;
}

static size_t put_utf8(char *o, uint32_t c) {
    if (c < 0x80) { o[0] = (char)c; return 1; }
    if (c < 0x800) { o[0] = (char)(0xc0 | (c >> 6)); o[1] = (char)(0x80 | (c & 0x3f)); return 2; }
    if (c < 0x10000) {
        o[0] = (char)(0xe0 | (c >> 12)); o[1] = (char)(0x80 | ((c >> 6) & 0x3f)); o[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (c >> 18)); o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((c >> 6) & 0x3f)); o[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

static int hex4(JP *P) {
    if (P->end - P->p < 4) jfail(P, "truncated \\u escape");
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *P->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else jfail(P, "bad \\u escape");
    }
    return v;
}

/* A string: decoded into the arena (never longer than its source text, so nothing else is
 * allocated and a failure part-way leaks nothing). */
static char *jstring(JP *P) {
    P->p++;  /* " */
    const char *q = P->p;
    while (q < P->end && *q != '"') q += (*q == '\\' && q + 1 < P->end) ? 2 : 1;
    size_t raw = (size_t)(q - P->p);
    if (raw > 65536) jfail(P, "string longer than 64 KiB");
    char *out = arena_alloc(P->a, raw + 1);
    size_t o = 0;
    while (1) {
        if (P->p >= P->end) jfail(P, "unterminated string");
        unsigned char c = (unsigned char)*P->p;
        if (c == '"') { P->p++; break; }
        if (c < 0x20) jfail(P, "control character in a string");
        if (c != '\\') { out[o++] = (char)c; P->p++; continue; }
        P->p++;
        if (P->p >= P->end) jfail(P, "unterminated string");
        char x = *P->p++;
        switch (x) {
        case '"': out[o++] = '"'; break;
        case '\\': out[o++] = '\\'; break;
        case '/': out[o++] = '/'; break;
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            uint32_t u = (uint32_t)hex4(P);
            if (u >= 0xd800 && u < 0xdc00) {
                if (P->end - P->p < 6 || P->p[0] != '\\' || P->p[1] != 'u') jfail(P, "lone surrogate in \\u escape");
                P->p += 2;
                uint32_t lo = (uint32_t)hex4(P);
                if (lo < 0xdc00 || lo >= 0xe000) jfail(P, "bad surrogate pair");
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            } else if (u >= 0xdc00 && u < 0xe000) {
                jfail(P, "lone surrogate in \\u escape");
            }
            if (u == 0) jfail(P, "\\u0000 in a string");
            o += put_utf8(out + o, u);
            break;
        }
        default: jfail(P, "bad escape in a string");
        }
    }
    out[o] = 0;
    return out;
}

static void jvalue(JP *P, JV *v);

static void jnumber(JP *P, JV *v) {
    const char *s = P->p;
    if (P->p < P->end && *P->p == '-') P->p++;
    if (P->p >= P->end || !(*P->p >= '0' && *P->p <= '9')) jfail(P, "expected a value");
    if (*P->p == '0') P->p++;
    else while (P->p < P->end && *P->p >= '0' && *P->p <= '9') P->p++;
    bool isint = true;
    if (P->p < P->end && *P->p == '.') {
        isint = false;
        P->p++;
        if (P->p >= P->end || !(*P->p >= '0' && *P->p <= '9')) jfail(P, "bad number");
        while (P->p < P->end && *P->p >= '0' && *P->p <= '9') P->p++;
    }
    if (P->p < P->end && (*P->p == 'e' || *P->p == 'E')) {
        isint = false;
        P->p++;
        if (P->p < P->end && (*P->p == '+' || *P->p == '-')) P->p++;
        if (P->p >= P->end || !(*P->p >= '0' && *P->p <= '9')) jfail(P, "bad number");
        while (P->p < P->end && *P->p >= '0' && *P->p <= '9') P->p++;
    }
    size_t n = (size_t)(P->p - s);
    if (n > 64) jfail(P, "number longer than 64 characters");
    char tmp[80];
    memcpy(tmp, s, n);
    tmp[n] = 0;
    v->kind = J_NUM;
    v->num = strtod(tmp, NULL);
    if (isint) {
        errno = 0;
        long long x = strtoll(tmp, NULL, 10);
        if (errno == 0) { v->isint = true; v->i = x; }
    }
}

static void jvalue(JP *P, JV *v) {
    memset(v, 0, sizeof *v);
    jws(P);
    if (P->p >= P->end) jfail(P, "unexpected end of file");
    char c = *P->p;
    if (c == '{' || c == '[') {
        if (++P->depth > JSON_MAX_DEPTH) jfail(P, "nested more than 64 deep");
        bool obj = c == '{';
        char close = obj ? '}' : ']';
        P->p++;
        v->kind = obj ? J_OBJ : J_ARR;
        int cap = 0;
        jws(P);
        if (P->p < P->end && *P->p == close) { P->p++; P->depth--; return; }
        while (1) {
            jws(P);
            char *key = NULL;
            if (obj) {
                if (P->p >= P->end || *P->p != '"') jfail(P, "expected a string key");
                key = jstring(P);
                jws(P);
                if (P->p >= P->end || *P->p != ':') jfail(P, "expected ':'");
                P->p++;
            }
            JV item;
            jvalue(P, &item);
            if (v->n >= 100000) jfail(P, "more than 100000 items in one list or object");
            if (v->n >= cap) {
                int nc = cap ? cap * 2 : 8;
                JV *ni = arena_alloc(P->a, sizeof *ni * (size_t)nc);
                if (v->n) memcpy(ni, v->items, sizeof *ni * (size_t)v->n);
                v->items = ni;
                if (obj) {
                    char **nk = arena_alloc(P->a, sizeof *nk * (size_t)nc);
                    if (v->n) memcpy(nk, v->keys, sizeof *nk * (size_t)v->n);
                    v->keys = nk;
                }
                cap = nc;
            }
            v->items[v->n] = item;
            if (obj) v->keys[v->n] = key;
            v->n++;
            jws(P);
            if (P->p < P->end && *P->p == ',') { P->p++; continue; }
            if (P->p < P->end && *P->p == close) { P->p++; break; }
            jfail(P, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
        P->depth--;
        return;
    }
    if (c == '"') { v->kind = J_STR; v->s = jstring(P); return; }
    if (P->end - P->p >= 4 && !memcmp(P->p, "true", 4)) { P->p += 4; v->kind = J_BOOL; v->b = true; return; }
    if (P->end - P->p >= 5 && !memcmp(P->p, "false", 5)) { P->p += 5; v->kind = J_BOOL; return; }
    if (P->end - P->p >= 4 && !memcmp(P->p, "null", 4)) { P->p += 4; v->kind = J_NULL; return; }
    jnumber(P, v);
}

/* Parses text into a tree in arena a; false with e set. */
static bool json_parse(const char *name, const char *text, size_t len, Arena *a, Err *e, JV *out) {
    if (len > JSON_MAX_BYTES) {
        err_set(e, TC_ERR_LIMIT, (SrcLoc){0}, "%s: larger than 16 MiB (not a tuning database)", name);
        return false;
    }
    if (memchr(text, 0, len)) {
        err_set(e, TC_ERR_SYNTAX, (SrcLoc){0}, "%s: contains a NUL byte (not a valid tuning database)", name);
        return false;
    }
    jmp_buf jb;
    jmp_buf *saved = e->jump;
    if (ERR_TRY(e, jb)) { e->jump = saved; return false; }
    a->err = e;
    JP P = {text, text + len, text, a, e, name, 0};
    jvalue(&P, out);
    jws(&P);
    if (P.p != P.end) jfail(&P, "extra text after the JSON value");
    e->jump = saved;
    return true;
}

static const JV *jget(const JV *o, const char *key) {
    if (!o || o->kind != J_OBJ) return NULL;
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->keys[i], key)) return &o->items[i];
    return NULL;
}

static void jstr_put(Buf *b, const char *s) {
    buf_putn(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"') buf_puts(b, "\\\"");
        else if (*p == '\\') buf_puts(b, "\\\\");
        else if (*p == '\n') buf_puts(b, "\\n");
        else if (*p == '\t') buf_puts(b, "\\t");
        else if (*p < 0x20) buf_printf(b, "\\u%04x", *p);
        else buf_putn(b, (const char *)p, 1);
    }
    buf_putn(b, "\"", 1);
}

static void jnum_put(Buf *b, double v) {
    if (!isfinite(v)) { buf_puts(b, "null"); return; }
    char s[64];
    tc_format_double(v, s, sizeof s);
    buf_puts(b, s);
}

/* ---- the tuning database ---------------------------------------------------------------------- */

static void value_json(Buf *b, const tc_value *v) {
    switch (v->kind) {
    case TC_VAL_INT: buf_printf(b, "%lld", (long long)v->u.i); break;
    case TC_VAL_FLOAT: jnum_put(b, v->u.f); break;
    case TC_VAL_BOOL: buf_puts(b, v->u.b ? "true" : "false"); break;
    case TC_VAL_STR: jstr_put(b, v->u.s); break;
    default: buf_puts(b, "null");
    }
}

static void entry_json(Buf *b, const DbEntry *d, const char *indent) {
    buf_printf(b, "%s{\n%s  \"kernel\": ", indent, indent);
    jstr_put(b, d->kernel);
    if (d->source_hash) { buf_printf(b, ",\n%s  \"source_hash\": ", indent); jstr_put(b, d->source_hash); }
    buf_printf(b, ",\n%s  \"device\": ", indent);
    jstr_put(b, d->device);
    buf_printf(b, ",\n%s  \"capability\": [%d, %d]", indent, d->ccM, d->ccm);
    buf_printf(b, ",\n%s  \"tritonc\": ", indent);
    jstr_put(b, d->tritonc ? d->tritonc : TRITONC_VERSION);
    buf_printf(b, ",\n%s  \"measured_at\": ", indent);
    jstr_put(b, d->at);
    buf_printf(b, ",\n%s  \"key\": ", indent);
    jstr_put(b, d->key);
    if (d->has_cfg_hash) buf_printf(b, ",\n%s  \"configs_hash\": \"%016llx\"", indent, (unsigned long long)d->cfg_hash);
    buf_printf(b, ",\n%s  \"best\": {\"kwargs\": {", indent);
    for (int i = 0; i < d->best.nkw; i++) {
        if (i) buf_puts(b, ", ");
        jstr_put(b, d->best.names[i]);
        buf_puts(b, ": ");
        value_json(b, &d->best.vals[i]);
    }
    buf_printf(b, "}, \"num_warps\": %d, \"num_stages\": %d, \"num_ctas\": %d", d->best.num_warps,
               d->best.num_stages, d->best.num_ctas);
    if (d->best.maxnreg) buf_printf(b, ", \"maxnreg\": %d", d->best.maxnreg);
    buf_puts(b, "}");
    buf_printf(b, ",\n%s  \"best_str\": ", indent);
    jstr_put(b, d->best.str);
    buf_printf(b, ",\n%s  \"tune_seconds\": ", indent);
    jnum_put(b, d->tune_s);
    buf_printf(b, ",\n%s  \"timings\": [", indent);
    for (int i = 0; i < d->nres; i++) {
        const tc_tune_result *r = &d->res[i];
        buf_printf(b, "%s\n%s    {\"config\": ", i ? "," : "", indent);
        jstr_put(b, r->config);
        if (r->status) {
            buf_puts(b, ", \"skipped\": ");
            jstr_put(b, r->reason);
        } else {
            buf_puts(b, ", \"ms\": [");
            jnum_put(b, r->ms); buf_puts(b, ", ");
            jnum_put(b, r->p20_ms); buf_puts(b, ", ");
            jnum_put(b, r->p80_ms);
            buf_puts(b, "]");
        }
        buf_puts(b, "}");
    }
    buf_printf(b, "%s]\n%s}", d->nres ? "\n" : "", indent);
}

static char *db_json(const DbEntry *e, int n) {
    Buf b = {0};
    buf_puts(&b, "{\n  \"format\": \"tritonc-tuning-db\",\n  \"version\": 1,\n  \"entries\": [");
    for (int i = 0; i < n; i++) {
        buf_puts(&b, i ? ",\n" : "\n");
        entry_json(&b, &e[i], "    ");
    }
    buf_puts(&b, n ? "\n  ]\n}\n" : "]\n}\n");
    if (b.oom) { buf_free(&b); return NULL; }
    return b.s;
}

static bool jstr_field(const JV *o, const char *k, bool required, char **out, char *msg, size_t n,
                       const char *where) {
    const JV *v = jget(o, k);
    if (!v) {
        if (!required) return true;
        snprintf(msg, n, "%s: missing \"%s\"", where, k);
        return false;
    }
    if (v->kind != J_STR || strlen(v->s) > 1000) {
        snprintf(msg, n, "%s: \"%s\" must be a string (at most 1000 bytes)", where, k);
        return false;
    }
    *out = strdup(v->s);
    if (!*out) { snprintf(msg, n, "out of memory"); return false; }
    return true;
}

static bool jint_field(const JV *o, const char *k, int lo, int hi, int *out, char *msg, size_t n,
                       const char *where) {
    const JV *v = jget(o, k);
    if (!v) return true;
    if (v->kind != J_NUM || !v->isint || v->i < lo || v->i > hi) {
        snprintf(msg, n, "%s: \"%s\" must be an integer in [%d, %d]", where, k, lo, hi);
        return false;
    }
    *out = (int)v->i;
    return true;
}

/* One entry from its JSON object; false with msg. */
static bool entry_from_json(const JV *o, DbEntry *d, char *msg, size_t n, const char *where) {
    memset(d, 0, sizeof *d);
    if (o->kind != J_OBJ) { snprintf(msg, n, "%s: not an object", where); return false; }
    if (!jstr_field(o, "kernel", true, &d->kernel, msg, n, where) ||
        !jstr_field(o, "source_hash", false, &d->source_hash, msg, n, where) ||
        !jstr_field(o, "device", true, &d->device, msg, n, where) ||
        !jstr_field(o, "tritonc", false, &d->tritonc, msg, n, where) ||
        !jstr_field(o, "measured_at", true, &d->at, msg, n, where) ||
        !jstr_field(o, "key", true, &d->key, msg, n, where))
        return false;
    const JV *cc = jget(o, "capability");
    if (cc) {
        if (cc->kind != J_ARR || cc->n != 2 || cc->items[0].kind != J_NUM || !cc->items[0].isint ||
            cc->items[1].kind != J_NUM || !cc->items[1].isint || cc->items[0].i < 0 ||
            cc->items[0].i > 100 || cc->items[1].i < 0 || cc->items[1].i > 100) {
            snprintf(msg, n, "%s: \"capability\" must be [major, minor]", where);
            return false;
        }
        d->ccM = (int)cc->items[0].i;
        d->ccm = (int)cc->items[1].i;
    }
    const JV *ch = jget(o, "configs_hash");
    if (ch) {
        char *end;
        if (ch->kind != J_STR || strlen(ch->s) != 16) { snprintf(msg, n, "%s: bad \"configs_hash\"", where); return false; }
        d->cfg_hash = strtoull(ch->s, &end, 16);
        if (*end) { snprintf(msg, n, "%s: bad \"configs_hash\"", where); return false; }
        d->has_cfg_hash = true;
    }
    const JV *ts = jget(o, "tune_seconds");
    if (ts && ts->kind == J_NUM && ts->num >= 0 && ts->num < 1e9) d->tune_s = ts->num;
    const JV *best = jget(o, "best");
    char w2[300];
    tfmt(w2, sizeof w2, "%s.best", where);
    if (!best || best->kind != J_OBJ) { snprintf(msg, n, "%s: missing \"best\" (an object)", where); return false; }
    TConfig *c = &d->best;
    c->num_warps = 4; c->num_stages = 3; c->num_ctas = 1;
    if (!jint_field(best, "num_warps", 1, 64, &c->num_warps, msg, n, w2) ||
        !jint_field(best, "num_stages", 1, 64, &c->num_stages, msg, n, w2) ||
        !jint_field(best, "num_ctas", 1, 16, &c->num_ctas, msg, n, w2) ||
        !jint_field(best, "maxnreg", 0, 255, &c->maxnreg, msg, n, w2))
        return false;
    if (c->num_warps & (c->num_warps - 1)) { snprintf(msg, n, "%s: num_warps must be a power of 2", w2); return false; }
    const JV *kw = jget(best, "kwargs");
    if (kw) {
        if (kw->kind != J_OBJ || kw->n > TUNE_MAX_KW) { snprintf(msg, n, "%s: \"kwargs\" must be an object of at most %d values", w2, TUNE_MAX_KW); return false; }
        for (int i = 0; i < kw->n; i++) {
            const JV *v = &kw->items[i];
            tc_value x;
            if (v->kind == J_NUM) x = v->isint ? tc_int(v->i) : tc_float(v->num);
            else if (v->kind == J_BOOL) x = tc_bool(v->b);
            else if (v->kind == J_STR) x = tc_str(v->s);
            else if (v->kind == J_NULL) x = tc_none();
            else { snprintf(msg, n, "%s.kwargs.%s: must be a number, bool, string or null", w2, kw->keys[i]); return false; }
            if (strlen(kw->keys[i]) > 200) { snprintf(msg, n, "%s.kwargs: name too long", w2); return false; }
            if (!config_add(c, kw->keys[i], x)) { snprintf(msg, n, "out of memory"); return false; }
        }
    }
    config_format(c);
    const JV *tm = jget(o, "timings");
    if (tm) {
        if (tm->kind != J_ARR || tm->n > TUNE_MAX_CONFIGS) { snprintf(msg, n, "%s: \"timings\" must be a list of at most %d", where, TUNE_MAX_CONFIGS); return false; }
        d->res = calloc(tm->n ? (size_t)tm->n : 1, sizeof *d->res);
        if (!d->res) { snprintf(msg, n, "out of memory"); return false; }
        for (int i = 0; i < tm->n; i++) {
            const JV *r = &tm->items[i];
            const JV *cs = jget(r, "config"), *ms = jget(r, "ms"), *sk = jget(r, "skipped");
            tc_tune_result *x = &d->res[d->nres];
            if (!cs || cs->kind != J_STR) { snprintf(msg, n, "%s.timings[%d]: missing \"config\"", where, i); return false; }
            cpy(x->config, sizeof x->config, cs->s);
            if (sk && sk->kind == J_STR) { x->status = TC_ERR_RESOURCES; cpy(x->reason, sizeof x->reason, sk->s); }
            else if (ms && ms->kind == J_ARR && ms->n == 3 && ms->items[0].kind == J_NUM &&
                     ms->items[1].kind == J_NUM && ms->items[2].kind == J_NUM &&
                     isfinite(ms->items[0].num) && isfinite(ms->items[1].num) && isfinite(ms->items[2].num)) {
                x->ms = ms->items[0].num; x->p20_ms = ms->items[1].num; x->p80_ms = ms->items[2].num;
            } else { snprintf(msg, n, "%s.timings[%d]: needs \"ms\": [median, p20, p80] or \"skipped\"", where, i); return false; }
            d->nres++;
        }
    }
    return true;
}

/* Parses a database file's text into entries (malloc'd); -1 with msg on error. */
/* -1 on failure, with the message in msg and, when code is not NULL, the status: the JSON
 * reader's own (TC_ERR_LIMIT for a file too large), TC_ERR_SYNTAX for a wrong structure. */
static int db_parse(const char *name, const char *text, size_t len, DbEntry **out, char *msg,
                    size_t n, tc_status *code) {
    if (code) *code = TC_ERR_SYNTAX;
    Err e = {0};
    Arena a;
    arena_init(&a, &e);
    a.limit = (size_t)256 << 20;   /* a hostile file of tiny items cannot take more */
    JV root;
    *out = NULL;
    if (!json_parse(name, text, len, &a, &e, &root)) {
        const char *m = e.msg;
        if (!strncmp(m, "error: ", 7)) m += 7;
        snprintf(msg, n, "%s", m);
        if (code && e.code == TC_ERR_LIMIT) *code = TC_ERR_LIMIT;
        arena_free(&a);
        return -1;
    }
    int count = -1;
    const JV *fmt = jget(&root, "format"), *ver = jget(&root, "version"), *ents = jget(&root, "entries");
    if (root.kind != J_OBJ || !fmt || fmt->kind != J_STR || strcmp(fmt->s, "tritonc-tuning-db") != 0) {
        snprintf(msg, n, "%s: not a tritonc tuning database (expected {\"format\": \"tritonc-tuning-db\", ...})", name);
    } else if (!ver || ver->kind != J_NUM || !ver->isint || ver->i != 1) {
        snprintf(msg, n, "%s: unsupported tuning database version (this tritonc reads version 1)", name);
    } else if (!ents || ents->kind != J_ARR) {
        snprintf(msg, n, "%s: \"entries\" must be a list", name);
    } else if (ents->n > 100000) {
        snprintf(msg, n, "%s: more than 100000 entries", name);
    } else {
        DbEntry *d = calloc(ents->n ? (size_t)ents->n : 1, sizeof *d);
        if (!d) snprintf(msg, n, "out of memory");
        else {
            count = 0;
            for (int i = 0; i < ents->n; i++) {
                char where[300];
                snprintf(where, sizeof where, "%s: entries[%d]", name, i);
                if (!entry_from_json(&ents->items[i], &d[count], msg, n, where)) {
                    entry_free(&d[count]);
                    for (int j = 0; j < count; j++) entry_free(&d[j]);
                    free(d);
                    d = NULL;
                    count = -1;
                    break;
                }
                count++;
            }
            *out = d;
        }
    }
    arena_free(&a);
    return count;
}

int tune_db_check(const char *name, const char *text, size_t len, char *msg, size_t n) {
    DbEntry *d = NULL;
    int c = db_parse(name, text, len, &d, msg, n, NULL);
    for (int i = 0; i < c; i++) entry_free(&d[i]);
    free(d);
    return c;
}

static char *read_all(const char *path, size_t *len, char *msg, size_t n) {
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(msg, n, "%s: %s", path, strerror(errno)); return NULL; }
    Buf b = {0};
    char tmp[65536];
    size_t r;
    while ((r = fread(tmp, 1, sizeof tmp, f)) > 0) {
        buf_putn(&b, tmp, r);
        if (b.len > JSON_MAX_BYTES) break;
    }
    bool err = ferror(f);
    fclose(f);
    if (err || b.oom) { snprintf(msg, n, "%s: read error", path); buf_free(&b); return NULL; }
    if (!b.s) buf_putn(&b, "", 0);
    *len = b.len;
    return b.s;
}

static bool db_add(TuneContext *t, DbEntry *d) {
    /* the same (kernel, source, device, key, configs) replaces an older entry */
    for (int i = 0; i < t->ndb; i++) {
        DbEntry *o = &t->db[i];
        if (!strcmp(o->kernel, d->kernel) && !strcmp(o->device, d->device) && !strcmp(o->key, d->key) &&
            o->ccM == d->ccM && o->ccm == d->ccm &&
            !strcmp(o->source_hash ? o->source_hash : "", d->source_hash ? d->source_hash : "") &&
            o->has_cfg_hash == d->has_cfg_hash && o->cfg_hash == d->cfg_hash) {
            entry_free(o);
            *o = *d;
            return true;
        }
    }
    if (t->ndb == t->capdb) {
        int nc = t->capdb ? t->capdb * 2 : 8;
        DbEntry *n = realloc(t->db, sizeof *n * (size_t)nc);
        if (!n) return false;
        t->db = n;
        t->capdb = nc;
    }
    t->db[t->ndb++] = *d;
    return true;
}

tc_status tc_tuning_db_load(tc_context *ctx, const char *path) {
    if (!ctx) return TC_ERR_ARG;
    if (!path) return ctx_fail(ctx, TC_ERR_ARG, "tc_tuning_db_load: NULL path");
    TuneContext *t = tctx(ctx);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    char msg[1024];
    size_t len;
    char *text = read_all(path, &len, msg, sizeof msg);
    if (!text) return ctx_fail(ctx, TC_ERR_IO, "cannot read the tuning database %s", msg);
    DbEntry *d = NULL;
    tc_status why;
    int n = db_parse(path, text, len, &d, msg, sizeof msg, &why);
    free(text);
    if (n < 0) return ctx_fail(ctx, why, "%s", msg);
    for (int i = 0; i < n; i++) {
        d[i].origin = strdup(path);
        if (!d[i].origin || !db_add(t, &d[i])) {
            for (int j = i; j < n; j++) entry_free(&d[j]);
            free(d);
            return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
        }
    }
    free(d);
    return TC_OK;
}

static bool write_atomic(const char *path, const char *text, char *msg, size_t n) {
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) { tfmt(msg, n, "%s: %s", tmp, strerror(errno)); return false; }
    size_t len = strlen(text);
    bool ok = fwrite(text, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(msg, n, "%s: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

tc_status tc_tuning_db_save(tc_context *ctx, const char *path) {
    if (!ctx) return TC_ERR_ARG;
    if (!path) return ctx_fail(ctx, TC_ERR_ARG, "tc_tuning_db_save: NULL path");
    TuneContext *t = tctx(ctx);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    char *s = db_json(t->db, t->ndb);
    if (!s) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    char msg[1024];
    bool ok = write_atomic(path, s, msg, sizeof msg);
    free(s);
    if (!ok) return ctx_fail(ctx, TC_ERR_IO, "cannot write the tuning database %s", msg);
    return TC_OK;
}

tc_status tc_tuning_cache_dir(char *buf, size_t n) {
    if (!buf || n < 2) return TC_ERR_ARG;
    char d[4096];
    if (tc_cache_dir(d, sizeof d) != TC_OK) { buf[0] = 0; return TC_ERR_NOT_FOUND; }
    if ((size_t)snprintf(buf, n, "%s/tune", d) >= n) { buf[0] = 0; return TC_ERR_LIMIT; }
    return TC_OK;
}

static void mkdirs(const char *path) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(tmp, 0755);
        *p = '/';
    }
    mkdir(tmp, 0755);
}

const char *tc_tune_source_name(tc_tune_source s) {
    switch (s) {
    case TC_TUNE_NONE: return "not autotuned";
    case TC_TUNE_SINGLE: return "single config";
    case TC_TUNE_BENCHMARKED: return "benchmarked";
    case TC_TUNE_MEMORY: return "in-memory cache";
    case TC_TUNE_DISK: return "disk cache";
    case TC_TUNE_DB: return "tuning database";
    }
    return "?";
}

/* ---- do_bench ------------------------------------------------------------------------------- */

static int dcmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(const double *s, int n, double q) {
    double pos = q * (n - 1);
    int lo = (int)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
    double f = pos - lo;
    return s[lo] + (s[hi] - s[lo]) * f;
}

tc_status tc_do_bench(tc_context *ctx, tc_bench_fn fn, void *user, const tc_bench_opts *opts,
                      tc_bench_result *out) {
    if (!ctx) return TC_ERR_ARG;
    if (!fn || !out) return ctx_fail(ctx, TC_ERR_ARG, "tc_do_bench: NULL function or result");
    memset(out, 0, sizeof *out);
    double warmup = opts && opts->warmup_ms > 0 ? opts->warmup_ms : 25;
    double rep = opts && opts->rep_ms > 0 ? opts->rep_ms : 100;
    size_t flush = opts && opts->flush_bytes ? opts->flush_bytes : (size_t)256 << 20;
    const char *fb = getenv("TRITONC_BENCH_FLUSH_BYTES");   /* for tests on the fake driver */
    if (!(opts && opts->flush_bytes) && fb && atoll(fb) > 0) flush = (size_t)atoll(fb);
    const char *drv = NULL;
    Err e = {0};
    if (driver_active(&drv, &e) != TC_OK) return ctx_take(ctx, &e);
    if (cuda_init(&e) || cuda_use_device(ctx->device, &e)) return ctx_take(ctx, &e);
    tc_status rc = fn(user);   /* compiles */
    if (rc) return rc;
    if (cuda_sync(&e)) return ctx_take(ctx, &e);
    CuDevPtr cache = 0;
    if (cuda_alloc(flush, &cache, &e)) return ctx_take(ctx, &e);
    CuEvent *s0 = NULL, *e0 = NULL, **ev = NULL;
    double *times = NULL;
    int nrep = 0, nev = 0;
    if (cuda_event_new(&s0, &e) || cuda_event_new(&e0, &e)) goto driver_err;
    if (cuda_event_record(s0, NULL, &e)) goto driver_err;
    for (int i = 0; i < 5; i++) {
        if (cuda_memset0(cache, flush, &e)) goto driver_err;
        if ((rc = fn(user))) goto fail;
    }
    if (cuda_event_record(e0, NULL, &e) || cuda_sync(&e)) goto driver_err;
    float est_f = 0;
    if (cuda_event_elapsed_ms(s0, e0, &est_f, &e)) goto driver_err;
    double est = est_f / 5.0;
    if (est <= 0) est = 1e-3;
    double nw = warmup / est, nr = rep / est;
    int n_warmup = nw < 1 ? 1 : nw > 1e6 ? 1000000 : (int)nw;
    nrep = nr < 1 ? 1 : nr > 1e5 ? 100000 : (int)nr;
    out->estimate_ms = est;
    out->n_warmup = n_warmup;
    out->n_repeat = nrep;
    for (int i = 0; i < n_warmup; i++)
        if ((rc = fn(user))) goto fail;
    ev = calloc((size_t)nrep * 2, sizeof *ev);
    times = calloc((size_t)nrep, sizeof *times);
    if (!ev || !times) { rc = ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); goto fail; }
    for (int i = 0; i < nrep * 2; i++, nev++)
        if (cuda_event_new(&ev[i], &e)) goto driver_err;
    for (int i = 0; i < nrep; i++) {
        if (cuda_memset0(cache, flush, &e)) goto driver_err;
        if (cuda_event_record(ev[2 * i], NULL, &e)) goto driver_err;
        if ((rc = fn(user))) goto fail;
        if (cuda_event_record(ev[2 * i + 1], NULL, &e)) goto driver_err;
    }
    if (cuda_sync(&e)) goto driver_err;
    for (int i = 0; i < nrep; i++) {
        float ms;
        if (cuda_event_elapsed_ms(ev[2 * i], ev[2 * i + 1], &ms, &e)) goto driver_err;
        times[i] = ms;
    }
    qsort(times, (size_t)nrep, sizeof *times, dcmp);
    double sum = 0;
    for (int i = 0; i < nrep; i++) sum += times[i];
    out->median_ms = quantile(times, nrep, 0.5);
    out->p20_ms = quantile(times, nrep, 0.2);
    out->p80_ms = quantile(times, nrep, 0.8);
    out->mean_ms = sum / nrep;
    out->min_ms = times[0];
    out->max_ms = times[nrep - 1];
    rc = TC_OK;
    goto done;
driver_err:
    rc = ctx_take(ctx, &e);
fail:
done:
    for (int i = 0; i < nev; i++) cuda_event_free(ev[i]);
    free(ev);
    free(times);
    if (s0) cuda_event_free(s0);
    if (e0) cuda_event_free(e0);
    cuda_free(cache);
    return rc;
}

/* ---- autotuning -------------------------------------------------------------------------------- */

typedef struct Ctl {
    tc_kernel *k;
    TuneKernel *t;
    tc_args *a;
    tc_launch_opts o;        /* the options of the run being timed */
    ArgSlot *base;           /* the slots before a config is applied */
} Ctl;

/* Sets config c (and the inner heuristics) on a's slots, from base. */
static tc_status apply_config(Ctl *c, const TConfig *cf, tc_launch_opts *o) {
    tc_context *ctx = c->k->m->ctx;
    memcpy(c->a->slots, c->base, sizeof *c->base * (size_t)c->a->n);
    for (int i = 0; i < cf->nkw; i++) {
        int pi = param_idx(c->k, cf->names[i]);
        if (pi < 0) return ctx_fail(ctx, TC_ERR_ARG, "config '%s': '%s' is not a parameter of %s", cf->str, cf->names[i], c->k->signature);
        c->a->slots[pi].set = true;
        c->a->slots[pi].v = cf->vals[i];
    }
    o->num_warps = cf->num_warps;
    o->num_stages = cf->num_stages;
    if (!c->t->heur_outer) return apply_heuristics(c->k, c->t, c->a);
    return TC_OK;
}

static tc_status zero_tensor(tc_context *ctx, tc_tensor *t) {
    if (t->backend == TC_BACKEND_CUDA) {
        Err e = {0};
        if (cuda_memset0(t->dev, t->nbytes, &e)) return ctx_take(ctx, &e);
    } else if (t->host) {
        memset(t->host, 0, t->nbytes);
    }
    return TC_OK;
}

static tc_status bench_call(void *u) {
    Ctl *c = u;
    tc_context *ctx = c->k->m->ctx;
    for (int i = 0; i < c->t->nreset; i++) {
        const ArgSlot *s = &c->a->slots[c->t->reset[i]];
        if (s->set && s->v.kind == TC_VAL_TENSOR) {
            tc_status rc = zero_tensor(ctx, s->v.u.t);
            if (rc) return rc;
        }
    }
    return jit_launch(c->k, c->a, &c->o);
}

/* Triton's tuning key: the key arguments' values, then str(dtype) of every tensor argument. */
static void tuning_key(const tc_kernel *k, const TuneKernel *t, const ArgSlot *slots, char *buf, size_t n) {
    size_t o = 0;
    int items = 0;
    o += (size_t)snprintf(buf + o, n - o, "(");
    for (int i = 0; i < t->nkey && o < n; i++) {
        int pi = param_idx(k, t->key[i]);
        if (pi < 0) continue;  /* as Triton: names that are not arguments are left out */
        tc_value v;
        if (slots[pi].set) v = slots[pi].v;
        else if (!param_default(&k->fn->params[pi], &v)) continue;
        char r[128];
        value_repr(&v, r, sizeof r);
        o += (size_t)snprintf(buf + o, n - o, "%s%s", items++ ? ", " : "", r);
    }
    for (int i = 0; i < k->fn->nparams && o < n; i++) {
        if (!slots[i].set || slots[i].v.kind != TC_VAL_TENSOR) continue;
        o += (size_t)snprintf(buf + o, n - o, "%s'%s'", items++ ? ", " : "", torch_dtype(slots[i].v.u.t->dtype));
    }
    if (o < n) snprintf(buf + o, n - o, "%s)", items == 1 ? "," : "");
}

static void iso_now(char *buf, size_t n) {
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const char *base_name(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static void src_hash_hex(const tc_kernel *k, char *buf, size_t n) {
    snprintf(buf, n, "%016llx", (unsigned long long)k->m->hash);
}

static int find_config(const TuneKernel *t, const TConfig *c) {
    for (int i = 0; i < t->ncfg; i++)
        if (config_eq(&t->cfg[i], c)) return i;
    return -1;
}

/* The on-disk cache file of a tuning (device, cc, version, source, key, configs). */
static bool disk_path(const tc_kernel *k, const TuneKernel *t, const char *device, int ccM, int ccm,
                      const char *key, char *buf, size_t n) {
    char dir[4096];
    if (tc_tuning_cache_dir(dir, sizeof dir) != TC_OK) return false;
    uint64_t h = hash_bytes(device, strlen(device), 0x74756e65);
    int cc[2] = {ccM, ccm};
    h = hash_bytes(cc, sizeof cc, h);
    h = hash_bytes(TRITONC_VERSION, strlen(TRITONC_VERSION), h);
    h = hash_bytes(&k->m->hash, sizeof k->m->hash, h);
    h = hash_bytes(k->fn->name, strlen(k->fn->name), h);
    h = hash_bytes(key, strlen(key), h);
    h = hash_bytes(&t->cfg_hash, sizeof t->cfg_hash, h);
    char name[80];
    snprintf(name, sizeof name, "%.48s", k->fn->name);
    return (size_t)snprintf(buf, n, "%s/%s-%016llx.json", dir, name, (unsigned long long)h) < n;
}

static void set_report(tc_context *ctx, const tc_kernel *k, const TuneKernel *t, tc_tune_source src,
                       int best, const char *key, const char *device, int ccM, int ccm, const char *at,
                       const char *where, double tune_s, const tc_tune_result *res, int nres) {
    TuneContext *tc = tctx(ctx);
    if (!tc) return;
    tc_tune_report *r = &tc->last;
    memset(r, 0, sizeof *r);
    r->source = src;
    r->best = best;
    cpy(r->best_config, sizeof r->best_config, best >= 0 && best < t->ncfg ? t->cfg[best].str : "");
    cpy(r->kernel, sizeof r->kernel, k->fn->name);
    cpy(r->key, sizeof r->key, key);
    cpy(r->device, sizeof r->device, device);
    r->cc_major = ccM;
    r->cc_minor = ccm;
    cpy(r->measured_at, sizeof r->measured_at, at);
    cpy(r->where, sizeof r->where, where);
    r->tune_s = tune_s;
    r->compile_parallel = 0;
    free(tc->last_res);
    tc->last_res = NULL;
    if (nres > 0) {
        tc->last_res = malloc(sizeof *res * (size_t)nres);
        if (tc->last_res) { memcpy(tc->last_res, res, sizeof *res * (size_t)nres); r->nresults = nres; }
    }
    r->results = tc->last_res;
    tc->has_last = true;
}

tc_status tc_last_tune(const tc_context *ctx, tc_tune_report *out) {
    if (!ctx || !out) return TC_ERR_ARG;
    memset(out, 0, sizeof *out);
    const TuneContext *t = ctx->tune;
    if (!t || !t->has_last) return TC_ERR_NOT_FOUND;
    *out = t->last;
    return TC_OK;
}

static bool memo_add(TuneKernel *t, const char *key, int best, tc_tune_source src, const char *device,
                     int ccM, int ccm, const char *at, const char *where, double tune_s) {
    if (t->nmemo == t->capmemo) {
        int nc = t->capmemo ? t->capmemo * 2 : 4;
        Memo *n = realloc(t->memo, sizeof *n * (size_t)nc);
        if (!n) return false;
        t->memo = n;
        t->capmemo = nc;
    }
    Memo *m = &t->memo[t->nmemo];
    memset(m, 0, sizeof *m);
    if (!(m->key = strdup(key))) return false;
    m->best = best;
    m->src = src;
    cpy(m->device, sizeof m->device, device);
    m->ccM = ccM; m->ccm = ccm;
    cpy(m->at, sizeof m->at, at);
    cpy(m->where, sizeof m->where, where);
    m->tune_s = tune_s;
    t->nmemo++;
    return true;
}

/* A database entry for this kernel and key: on a GPU only one measured on the same device. */
static const DbEntry *db_find(tc_context *ctx, const tc_kernel *k, const TuneKernel *t, const char *key,
                              const char *device, int ccM, int ccm, int *best, char *why, size_t nwhy) {
    TuneContext *tc = ctx->tune;
    if (!tc) return NULL;
    char sh[32];
    src_hash_hex(k, sh, sizeof sh);
    int stale = 0, other_dev = 0, not_listed = 0, same_kernel = 0;
    for (int i = tc->ndb - 1; i >= 0; i--) {
        const DbEntry *d = &tc->db[i];
        if (strcmp(d->kernel, k->fn->name)) continue;
        same_kernel++;
        if (strcmp(d->key, key)) continue;
        if (d->source_hash && strcmp(d->source_hash, sh)) { stale++; continue; }
        if (device && (strcmp(d->device, device) || d->ccM != ccM || d->ccm != ccm)) { other_dev++; continue; }
        int b = find_config(t, &d->best);
        if (b < 0) { not_listed++; continue; }
        *best = b;
        return d;
    }
    if (why && nwhy) {
        if (!same_kernel) snprintf(why, nwhy, "it has no entry for %s", k->fn->name);
        else if (stale) snprintf(why, nwhy, "its entries for %s with key %s were measured on a different "
                                 "version of the kernel's source", k->fn->name, key);
        else if (not_listed) snprintf(why, nwhy, "its best config for %s with key %s is not one of the "
                                      "kernel's configs", k->fn->name, key);
        else if (other_dev) snprintf(why, nwhy, "its entries for %s with key %s were measured on another device",
                                     k->fn->name, key);
        else snprintf(why, nwhy, "it has no entry for %s with key %s", k->fn->name, key);
    }
    return NULL;
}

static void db_note(char *note, size_t n, const TConfig *c, const char *device, int ccM, int ccm,
                    const char *at, const char *src, const char *where) {
    tfmt(note, n, "autotune: %s, measured on %s (cc %d.%d) at %s (%s %s)", c->str, device, ccM, ccm,
             at, src, base_name(where));
}

/* The parameters the configs set, worked out once (every launch checks them against the
 * caller's arguments); false when out of memory. */
static bool cfg_params_of(const tc_kernel *k, TuneKernel *t) {
    if (t->cfg_params_known) return true;
    int cap = 0;
    for (int i = 0; i < t->ncfg; i++) cap += t->cfg[i].nkw;
    t->cfg_params = calloc(cap ? (size_t)cap : 1, sizeof *t->cfg_params);
    t->cfg_param_names = calloc(cap ? (size_t)cap : 1, sizeof *t->cfg_param_names);
    if (!t->cfg_params || !t->cfg_param_names) {
        free(t->cfg_params); free(t->cfg_param_names);
        t->cfg_params = NULL; t->cfg_param_names = NULL;
        return false;
    }
    for (int i = 0; i < t->ncfg; i++)
        for (int j = 0; j < t->cfg[i].nkw; j++) {
            int pi = param_idx(k, t->cfg[i].names[j]), seen = 0;
            if (pi < 0) continue;
            for (int q = 0; q < t->ncfg_params && !seen; q++) seen = t->cfg_params[q] == pi;
            if (seen) continue;
            t->cfg_params[t->ncfg_params] = pi;
            t->cfg_param_names[t->ncfg_params++] = t->cfg[i].names[j];
        }
    t->cfg_params_known = true;
    return true;
}

/* Chooses the config of a launch. *note gets what the launch report should say. */
static tc_status choose(Ctl *c, int flags, tc_tune_progress_fn progress, void *puser, int *best_out,
                        char *note, size_t nnote) {
    tc_kernel *k = c->k;
    TuneKernel *t = c->t;
    tc_context *ctx = k->m->ctx;
    char key[512];
    tuning_key(k, t, c->base, key, sizeof key);
    note[0] = 0;
    /* conflicting meta-parameters: the caller gave a value a config sets */
    if (!cfg_params_of(k, t)) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    for (int q = 0; q < t->ncfg_params; q++)
        if (c->base[t->cfg_params[q]].set)
            return ctx_fail(ctx, TC_ERR_ARG, "Conflicting meta-parameters: %s. Make sure that you "
                            "don't re-define auto-tuned symbols.", t->cfg_param_names[q]);
    if (t->ncfg == 1) {
        *best_out = 0;
        tfmt(note, nnote, "autotune: one config (%s), used without benchmarking", t->cfg[0].str);
        set_report(ctx, k, t, TC_TUNE_SINGLE, 0, key, "", 0, 0, "", "", 0, NULL, 0);
        return TC_OK;
    }
    if (!(flags & TC_TUNE_FORCE)) {
        for (int i = 0; i < t->nmemo; i++) {
            Memo *m = &t->memo[i];
            if (strcmp(m->key, key)) continue;
            *best_out = m->best;
            if (m->src == TC_TUNE_DB || m->src == TC_TUNE_DISK)
                db_note(note, nnote, &t->cfg[m->best], m->device, m->ccM, m->ccm, m->at,
                        m->src == TC_TUNE_DB ? "tuning database" : "tuning cache", m->where);
            else
                tfmt(note, nnote, "autotune: %s (benchmarked earlier in this process on %s)",
                         t->cfg[m->best].str, m->device);
            set_report(ctx, k, t, TC_TUNE_MEMORY, m->best, key, m->device, m->ccM, m->ccm, m->at, m->where,
                       m->tune_s, NULL, 0);
            return TC_OK;
        }
    }
    tc_backend b;
    tc_status rc = ctx_backend(ctx, &b);
    if (rc) return rc;
    if (b == TC_BACKEND_INTERPRET) {
        int best = -1;
        char why[600] = "no tuning database was loaded";
        const DbEntry *d = ctx->tune ? db_find(ctx, k, t, key, NULL, 0, 0, &best, why, sizeof why) : NULL;
        if (d) {
            *best_out = best;
            db_note(note, nnote, &t->cfg[best], d->device, d->ccM, d->ccm, d->at, "tuning database", d->origin ? d->origin : "");
            memo_add(t, key, best, TC_TUNE_DB, d->device, d->ccM, d->ccm, d->at, d->origin ? d->origin : "", d->tune_s);
            set_report(ctx, k, t, TC_TUNE_DB, best, key, d->device, d->ccM, d->ccm, d->at, d->origin ? d->origin : "",
                       d->tune_s, d->res, d->nres);
            return TC_OK;
        }
        const char *drv = NULL;
        Err e = {0};
        if (driver_active(&drv, &e) != TC_OK) {
            /* the chapter's honest failure: autotuning needs the driver that is not there */
            size_t l = strlen(e.msg);
            snprintf(e.msg + l, sizeof e.msg - l, "\n(%s is autotuned over %d configs: choosing one "
                     "means benchmarking on a GPU; under the interpreter tritonc can only replay a "
                     "tuning database recorded on one (--tuning-db), and %s)", k->fn->name, t->ncfg, why);
            return ctx_take(ctx, &e);
        }
        return ctx_fail(ctx, TC_ERR_UNSUPPORTED, "%s is autotuned over %d configs, and the interpreter "
                        "cannot measure GPU performance: run it on the GPU, or give a tuning database "
                        "recorded on one (--tuning-db; %s)", k->fn->name, t->ncfg, why);
    }
    /* on the GPU */
    tc_device_props props;
    Err e = {0};
    if (cuda_device_props(ctx->device, &props, &e)) return ctx_take(ctx, &e);
    char path[4400] = "";
    const char *tcache = getenv("TRITONC_TUNING_CACHE");   /* 0: no on-disk tuning cache */
    bool have_path = !(tcache && !strcmp(tcache, "0")) &&
                     disk_path(k, t, props.name, props.major, props.minor, key, path, sizeof path);
    char sh[32];
    src_hash_hex(k, sh, sizeof sh);
    if (!(flags & TC_TUNE_FORCE)) {
        int best = -1;
        const DbEntry *d = db_find(ctx, k, t, key, props.name, props.major, props.minor, &best, NULL, 0);
        if (d) {
            *best_out = best;
            db_note(note, nnote, &t->cfg[best], d->device, d->ccM, d->ccm, d->at, "tuning database", d->origin ? d->origin : "");
            memo_add(t, key, best, TC_TUNE_DB, d->device, d->ccM, d->ccm, d->at, d->origin ? d->origin : "", d->tune_s);
            set_report(ctx, k, t, TC_TUNE_DB, best, key, d->device, d->ccM, d->ccm, d->at, d->origin ? d->origin : "",
                       d->tune_s, d->res, d->nres);
            return TC_OK;
        }
        char msg[512];
        size_t len;
        char *text = have_path ? read_all(path, &len, msg, sizeof msg) : NULL;
        if (text) {
            DbEntry *de = NULL;
            int n = db_parse(path, text, len, &de, msg, sizeof msg, NULL);
            free(text);
            int bi = -1;
            if (n == 1 && !strcmp(de[0].kernel, k->fn->name) && !strcmp(de[0].device, props.name) &&
                de[0].ccM == props.major && de[0].ccm == props.minor && !strcmp(de[0].key, key) &&
                de[0].source_hash && !strcmp(de[0].source_hash, sh) && de[0].has_cfg_hash &&
                de[0].cfg_hash == t->cfg_hash && de[0].tritonc && !strcmp(de[0].tritonc, TRITONC_VERSION) &&
                (bi = find_config(t, &de[0].best)) >= 0) {
                *best_out = bi;
                db_note(note, nnote, &t->cfg[bi], de[0].device, de[0].ccM, de[0].ccm, de[0].at, "tuning cache", path);
                memo_add(t, key, bi, TC_TUNE_DISK, de[0].device, de[0].ccM, de[0].ccm, de[0].at, path, de[0].tune_s);
                set_report(ctx, k, t, TC_TUNE_DISK, bi, key, de[0].device, de[0].ccM, de[0].ccm, de[0].at, path,
                           de[0].tune_s, de[0].res, de[0].nres);
                /* also known to the context, for export */
                TuneContext *tc = tctx(ctx);
                de[0].origin = strdup(path);
                if (!tc || !de[0].origin || !db_add(tc, &de[0])) entry_free(&de[0]);
                free(de);
                return TC_OK;
            }
            for (int i = 0; i < n; i++) entry_free(&de[i]);
            free(de);
            /* damaged or stale: tune again and overwrite */
        }
    }

    /* benchmark: compile every config first, then time each */
    double t0 = now_s();
    tc_tune_result *res = calloc((size_t)t->ncfg, sizeof *res);
    void **saved = calloc(t->nrestore ? (size_t)t->nrestore : 1, sizeof *saved);
    if (!res || !saved) { free(res); free(saved); return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); }
    for (int i = 0; i < t->nrestore; i++) {
        const ArgSlot *s = &c->base[t->restore[i]];
        if (!s->set || s->v.kind != TC_VAL_TENSOR) continue;
        size_t nb = s->v.u.t->nbytes;
        saved[i] = malloc(nb ? nb : 1);
        if (!saved[i] || tc_tensor_to_host(s->v.u.t, saved[i], nb)) { rc = saved[i] ? tc_errcode(ctx) : ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); goto out; }
    }
    bool print = env_true("TRITON_PRINT_AUTOTUNING");
    for (int i = 0; i < t->ncfg; i++) {
        cpy(res[i].config, sizeof res[i].config, t->cfg[i].str);
        tc_launch_opts o = c->o;
        rc = apply_config(c, &t->cfg[i], &o);
        if (rc) goto out;
        o.grid_fn = NULL;
        o.grid[0] = 0; o.grid[1] = o.grid[2] = 1;   /* compile only: Triton launches nothing on a 0 grid */
        rc = jit_launch(k, c->a, &o);
        if (rc == TC_ERR_NO_DRIVER || rc == TC_ERR_NOMEM || rc == TC_ERR_INTERNAL) goto out;
        if (rc) {
            res[i].status = rc;
            const char *m = tc_errmsg(ctx);
            if (!strncmp(m, "error: ", 7)) m += 7;
            snprintf(res[i].reason, sizeof res[i].reason, "%.*s", (int)strcspn(m, "\n"), m);
            rc = TC_OK;
        }
    }
    for (int i = 0; i < t->ncfg; i++) {
        if (!res[i].status) {
            tc_launch_opts o = c->o;
            rc = apply_config(c, &t->cfg[i], &o);
            if (rc) goto out;
            c->o = o;
            tc_bench_opts bo = {t->warmup, t->rep, 0};
            tc_bench_result br;
            rc = tc_do_bench(ctx, bench_call, c, &bo, &br);
            if (rc == TC_ERR_NO_DRIVER || rc == TC_ERR_NOMEM || rc == TC_ERR_INTERNAL) goto out;
            if (rc) {
                res[i].status = rc;
                const char *m = tc_errmsg(ctx);
                if (!strncmp(m, "error: ", 7)) m += 7;
                snprintf(res[i].reason, sizeof res[i].reason, "%.*s", (int)strcspn(m, "\n"), m);
                rc = TC_OK;
            } else {
                res[i].ms = br.median_ms; res[i].p20_ms = br.p20_ms; res[i].p80_ms = br.p80_ms;
            }
            for (int j = 0; j < t->nrestore; j++) {
                const ArgSlot *s = &c->base[t->restore[j]];
                if (saved[j] && tc_tensor_copy_from_host(s->v.u.t, saved[j], s->v.u.t->nbytes)) { rc = tc_errcode(ctx); goto out; }
            }
        }
        if (print && res[i].status) {
            char line[700];
            snprintf(line, sizeof line, "Autotuning skipped config %s: %s\n", res[i].config, res[i].reason);
            ctx_deliver(ctx, line);
        }
        if (progress) progress(i, t->ncfg, &res[i], puser);
    }
    int best = -1;
    for (int i = 0; i < t->ncfg; i++) {
        if (res[i].status) continue;
        if (best < 0 || res[i].ms < res[best].ms ||
            (res[i].ms == res[best].ms && (res[i].p20_ms < res[best].p20_ms ||
                                           (res[i].p20_ms == res[best].p20_ms && res[i].p80_ms < res[best].p80_ms))))
            best = i;
    }
    if (best < 0) {
        rc = ctx_fail(ctx, TC_ERR_COMPILE, "autotuning %s: every one of its %d configs failed; the first: %s: %s",
                      k->fn->name, t->ncfg, res[0].config, res[0].reason);
        goto out;
    }
    double tune_s = now_s() - t0;
    char at[32];
    iso_now(at, sizeof at);
    DbEntry d = {0};
    d.kernel = strdup(k->fn->name);
    d.source_hash = strdup(sh);
    d.device = strdup(props.name);
    d.tritonc = strdup(TRITONC_VERSION);
    d.at = strdup(at);
    d.key = strdup(key);
    d.origin = strdup(have_path ? path : "");
    d.ccM = props.major; d.ccm = props.minor;
    d.cfg_hash = t->cfg_hash; d.has_cfg_hash = true;
    d.tune_s = tune_s;
    d.res = malloc(sizeof *res * (size_t)t->ncfg);
    bool ok = d.kernel && d.source_hash && d.device && d.tritonc && d.at && d.key && d.origin && d.res;
    d.best.num_warps = t->cfg[best].num_warps; d.best.num_stages = t->cfg[best].num_stages;
    d.best.num_ctas = t->cfg[best].num_ctas; d.best.maxnreg = t->cfg[best].maxnreg;
    for (int i = 0; ok && i < t->cfg[best].nkw; i++) ok = config_add(&d.best, t->cfg[best].names[i], t->cfg[best].vals[i]);
    if (ok) {
        config_format(&d.best);
        memcpy(d.res, res, sizeof *res * (size_t)t->ncfg);
        d.nres = t->ncfg;
    }
    if (!ok) { entry_free(&d); rc = ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); goto out; }
    /* persist: one file per tuning, written atomically; failure to write is not fatal */
    char where[4400] = "";
    if (have_path) {
        char *s = db_json(&d, 1);
        char msg[512], dir[4096];
        if (s && tc_tuning_cache_dir(dir, sizeof dir) == TC_OK) {
            mkdirs(dir);
            if (write_atomic(path, s, msg, sizeof msg)) cpy(where, sizeof where, path);
        }
        free(s);
    }
    memo_add(t, key, best, TC_TUNE_BENCHMARKED, props.name, props.major, props.minor, at, where, tune_s);
    set_report(ctx, k, t, TC_TUNE_BENCHMARKED, best, key, props.name, props.major, props.minor, at, where,
               tune_s, res, t->ncfg);
    TuneContext *tc = tctx(ctx);
    if (!tc || !db_add(tc, &d)) entry_free(&d);
    int nskip = 0;
    for (int i = 0; i < t->ncfg; i++) nskip += res[i].status != 0;
    tfmt(note, nnote, "autotune: benchmarked %d configs (%d skipped) on %s in %.2fs; best %s",
             t->ncfg, nskip, props.name, tune_s, t->cfg[best].str);
    if (print) {
        char line[1400];
        snprintf(line, sizeof line, "Triton autotuning for function %s,\nwith key as %s,\nfinished after "
                 "%.2fs,\nbest config selected: %s;\n", k->fn->name, key, tune_s, t->cfg[best].str);
        ctx_deliver(ctx, line);
    }
    /* as Triton's pre_hook(reset_only=True) after tuning: the real launch starts from zeros */
    for (int i = 0; i < t->nreset; i++) {
        const ArgSlot *s = &c->base[t->reset[i]];
        if (s->set && s->v.kind == TC_VAL_TENSOR && (rc = zero_tensor(ctx, s->v.u.t))) goto out;
    }
    *best_out = best;
    rc = TC_OK;
out:
    for (int i = 0; i < t->nrestore; i++) free(saved[i]);
    free(saved);
    free(res);
    memcpy(c->a->slots, c->base, sizeof *c->base * (size_t)c->a->n);
    return rc;
}

static tc_status tune_run(tc_kernel *k, tc_args *a, const tc_launch_opts *opts, int flags,
                          tc_tune_progress_fn progress, void *puser, bool launch) {
    tc_context *ctx = k->m->ctx;
    if (!a) return ctx_fail(ctx, TC_ERR_ARG, "tc_launch: NULL argument list");
    if (a->k != k)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_launch: the argument list was made for %s, not %s",
                        a->k->signature, k->signature);
    TuneKernel *t = tune_spec(k);
    if (!t) return tc_errcode(ctx);
    tc_launch_opts def = tc_launch_defaults();
    if (!opts) opts = &def;
    if (!t->autotune && !t->nheur) return launch ? jit_launch(k, a, opts) : TC_OK;
    int n = a->n;
    ArgSlot saved[JIT_MAX_PARAMS], base[JIT_MAX_PARAMS];
    if (n > JIT_MAX_PARAMS) return ctx_fail(ctx, TC_ERR_LIMIT, "%s has more than %d parameters", k->signature, JIT_MAX_PARAMS);
    memcpy(saved, a->slots, sizeof *saved * (size_t)n);
    tc_status rc = TC_OK;
    tc_launch_opts o = *opts;
    char note[256] = "";
    if (t->heur_outer || !t->autotune) {
        rc = apply_heuristics(k, t, a);
        if (rc) goto done;
    }
    if (t->autotune) {
        memcpy(base, a->slots, sizeof *base * (size_t)n);
        Ctl c = {k, t, a, *opts, base};
        int best = 0;
        rc = choose(&c, flags, progress, puser, &best, note, sizeof note);
        if (rc) goto done;
        rc = apply_config(&c, &t->cfg[best], &o);
        if (rc) goto done;
    }
    if (launch) {
        rc = jit_launch(k, a, &o);
        if (rc == TC_OK && note[0]) {
            char prev[256];
            cpy(prev, sizeof prev, ctx->last.note);
            if (prev[0] && ctx->last.backend == TC_BACKEND_INTERPRET)
                tfmt(ctx->last.note, sizeof ctx->last.note, "%s; %s", note, prev);
            else
                cpy(ctx->last.note, sizeof ctx->last.note, note);
        }
    }
done:
    memcpy(a->slots, saved, sizeof *saved * (size_t)n);
    return rc;
}

tc_status tune_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts) {
    return tune_run(k, a, opts, 0, NULL, NULL, true);
}

tc_status tc_tune(tc_kernel *k, tc_args *a, const tc_launch_opts *opts, int flags,
                  tc_tune_progress_fn progress, void *user, tc_tune_report *out) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    TuneKernel *t = tune_spec(k);
    if (!t) return tc_errcode(ctx);
    if (!t->autotune)
        return ctx_fail(ctx, TC_ERR_ARG, "%s is not autotuned (no @triton.autotune and no "
                        "tc_kernel_set_autotune)", k->signature);
    tc_launch_opts o;
    tc_status rc = jit_opts(ctx, opts, &o);
    if (rc) return rc;
    rc = tune_run(k, a, &o, flags, progress, user, false);
    if (rc) return rc;
    if (out) tc_last_tune(ctx, out);
    return TC_OK;
}

/* ---- benchmarking a kernel ---------------------------------------------------------------------- */

typedef struct KB { tc_kernel *k; tc_args *a; const tc_launch_opts *o; } KB;

static tc_status kb_call(void *u) {
    KB *b = u;
    return tune_wanted(b->k) ? tune_launch(b->k, b->a, b->o) : jit_launch(b->k, b->a, b->o);
}

tc_status tc_bench_kernel(tc_kernel *k, tc_args *a, const tc_launch_opts *lopts,
                          const tc_bench_opts *opts, tc_bench_result *out) {
    if (!k) return TC_ERR_ARG;
    KB b = {k, a, lopts};
    return tc_do_bench(k->m->ctx, kb_call, &b, opts, out);
}
