/* decorators.c — what a kernel asks of the autotuner: @triton.autotune (configs, key,
 * reset_to_zero, restore_value, warmup, rep), @triton.heuristics (a lambda per value),
 * triton.Config, read from the AST once per kernel, or the same set through the API
 * (tc_kernel_set_autotune); the TuneKernel they fill and its configs (str(Config), equality).
 * What is host code tritonc cannot run (prune_configs_by, pre_hook, configs built by a
 * function, ...) is refused with TC_ERR_UNSUPPORTED naming file:line:col, never dropped. */
#include "tune/tuneint.h"

#include <stdlib.h>
#include <string.h>

/* ---- configs and the kernel's tuning state ------------------------------------------------- */

void tconfig_free(TConfig *c) {
    for (int i = 0; i < c->nkw; i++) {
        free(c->names[i]);
        if (c->vals[i].kind == TC_VAL_STR) free((char *)c->vals[i].u.s);
    }
    free(c->names);
    free(c->vals);
    memset(c, 0, sizeof *c);
}

void tune_spec_clear(TuneKernel *t) {
    for (int i = 0; i < t->ncfg; i++) tconfig_free(&t->cfg[i]);
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
    tune_spec_clear(k->tune);
    free(k->tune);
    k->tune = NULL;
}

bool tune_wanted(const tc_kernel *k) {
    return k && (k->fn->autotune || k->fn->heuristics ||
                 (k->tune && (k->tune->autotune)));
}

void tconfig_format(TConfig *c) {
    size_t o = 0;
    c->str[0] = 0;
    for (int i = 0; i < c->nkw && o < sizeof c->str; i++) {
        char r[96];
        heval_repr(&c->vals[i], r, sizeof r);
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

bool tconfig_eq(const TConfig *a, const TConfig *b) {
    if (a->nkw != b->nkw || a->num_warps != b->num_warps || a->num_stages != b->num_stages ||
        a->num_ctas != b->num_ctas || a->maxnreg != b->maxnreg)
        return false;
    for (int i = 0; i < a->nkw; i++) {
        int j = 0;
        while (j < b->nkw && strcmp(a->names[i], b->names[j])) j++;
        if (j == b->nkw || !heval_eq(&a->vals[i], &b->vals[j])) return false;
    }
    return true;
}

/* Adds kw=value (copied) to a config; false on out of memory. */
bool tconfig_add(TConfig *c, const char *name, tc_value v) {
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

int tconfig_find(const TuneKernel *t, const TConfig *c) {
    for (int i = 0; i < t->ncfg; i++)
        if (tconfig_eq(&t->cfg[i], c)) return i;
    return -1;
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

int tune_param_idx(const tc_kernel *k, const char *name) {
    for (int i = 0; i < k->fn->nparams; i++)
        if (!strcmp(k->fn->params[i].name, name)) return i;
    return -1;
}

/* A constant value (no lambda parameter) of a decorator argument. */
static bool const_value(DP *P, const Expr *e, tc_value *v, const char *what) {
    return heval_const(P->m, P->k, e, what, P->err, v);
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
        int j = tune_param_idx(P->k, names[i]);
        if (j < 0) return dfail(P, TC_ERR_ARG, loc_e->items[i]->loc, "%s: '%s' is not a parameter of %s",
                                what, names[i], P->k->signature);
        (*idx)[i] = j;
    }
    return true;
}

static bool is_callee(DP *P, const Expr *e, const char *path) {
    char d[256];
    return e->kind == EX_CALL && heval_dotted(P->m, e->lhs, d, sizeof d) && !strcmp(d, path);
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
        if (tune_param_idx(P->k, kx->str) < 0)
            return dfail(P, TC_ERR_ARG, kx->loc, "triton.Config: '%s' is not a parameter of %s", kx->str, P->k->signature);
        for (int j = 0; j < c->nkw; j++)
            if (!strcmp(c->names[j], kx->str)) return dfail(P, TC_ERR_ARG, kx->loc, "triton.Config: '%s' given twice", kx->str);
        if (c->nkw >= TUNE_MAX_KW) return dfail(P, TC_ERR_LIMIT, kx->loc, "more than %d config values", TUNE_MAX_KW);
        tc_value v;
        if (!const_value(P, vx, &v, "triton.Config value")) return false;
        if (!tconfig_add(c, kx->str, v)) return dfail(P, TC_ERR_NOMEM, vx->loc, "out of memory");
    }
    if (arg[1] && !int_value(P, arg[1], "num_warps", 1, 64, &c->num_warps)) return false;
    if (c->num_warps & (c->num_warps - 1)) return dfail(P, TC_ERR_ARG, arg[1]->loc, "num_warps must be a power of 2 (got %d)", c->num_warps);
    if (arg[2] && !int_value(P, arg[2], "num_stages", 1, 64, &c->num_stages)) return false;
    if (arg[3] && !int_value(P, arg[3], "num_ctas", 1, 16, &c->num_ctas)) return false;
    if (c->num_ctas != 1) return dfail(P, TC_ERR_UNSUPPORTED, arg[3]->loc, "num_ctas=%d (thread block clusters) is not supported by tritonc; use 1", c->num_ctas);
    if (arg[4] && !int_value(P, arg[4], "maxnreg", 1, 255, &c->maxnreg)) return false;
    tconfig_format(c);
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
        if (!parse_config(P, e->items[i], &c)) { tconfig_free(&c); return false; }
        TConfig *nc = realloc(P->t->cfg, sizeof *nc * (size_t)(P->t->ncfg + 1));
        if (!nc) { tconfig_free(&c); return dfail(P, TC_ERR_NOMEM, e->loc, "out of memory"); }
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
        tconfig_format(&t->cfg[0]);
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
        int pi = tune_param_idx(P->k, kx->str);
        if (pi < 0) return dfail(P, TC_ERR_ARG, kx->loc, "triton.heuristics: '%s' is not a parameter of %s", kx->str, P->k->signature);
        if (vx->kind != EX_LAMBDA)
            return dfail(P, TC_ERR_UNSUPPORTED, vx->loc, "triton.heuristics: the value for '%s' must be a lambda "
                         "written in the decorator; %s is host code tritonc does not run", kx->str,
                         vx->kind == EX_NAME ? "a function name" : "this expression");
        if (vx->nparams != 1)
            return dfail(P, TC_ERR_ARG, vx->loc, "triton.heuristics: the lambda for '%s' must take one argument (the dict of arguments)", kx->str);
        if (!heval_heuristic(P->m, P->k, vx->params[0], vx->lhs, NULL, kx->str, P->err, NULL)) return false;
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

TuneKernel *tune_spec(tc_kernel *k) {
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
            tune_spec_clear(t);
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
            if (!c->kw_names[j] || tune_param_idx(k, c->kw_names[j]) < 0)
                FAIL(TC_ERR_ARG, "config %d: '%s' is not a parameter of %s", i, c->kw_names[j] ? c->kw_names[j] : "(null)", k->signature);
            tc_value v = c->kw_values[j];
            if (v.kind == TC_VAL_TENSOR || (v.kind == TC_VAL_STR && !v.u.s) || (int)v.kind < 0 || v.kind > TC_VAL_TENSOR)
                FAIL(TC_ERR_ARG, "config %d: '%s' must be a number, bool, string or None", i, c->kw_names[j]);
            if (!tconfig_add(d, c->kw_names[j], v)) FAIL(TC_ERR_NOMEM, "out of memory");
        }
        tconfig_format(d);
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
            int j = l[i] ? tune_param_idx(k, l[i]) : -1;
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
    tune_spec_clear(t);
    *t = nt;
    t->cfg_hash = configs_hash(t);
    return TC_OK;
bad:
    nt.heur = NULL; nt.nheur = 0;
    tune_spec_clear(&nt);
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
