/* decorators.c — what a kernel asks of the autotuner: @triton.autotune (configs, key,
 * reset_to_zero, restore_value, warmup, rep), @triton.heuristics (a lambda per value),
 * triton.Config, read from the AST once per kernel, or the same set through the API
 * (tc_kernel_set_autotune); the TuneKernel they fill and its configs (str(Config), equality).
 * The autotune decorator's arguments are evaluated by the host-Python subset (hostpy.c):
 * configs built by functions and comprehensions, prune_configs_by, hooks; what it cannot
 * evaluate is refused with TC_ERR_UNSUPPORTED naming file:line:col, never dropped. */
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
    hpy_free(t->py);
    t->py = NULL;
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

static bool is_callee(DP *P, const Expr *e, const char *path) {
    char d[256];
    return e->kind == EX_CALL && heval_dotted(P->m, e->lhs, d, sizeof d) && !strcmp(d, path);
}

/* @triton.autotune(...): evaluated by the host subset (hostpy.c), with the module's code
 * as it stands where the kernel is defined. */
static bool parse_autotune(DP *P, const Expr *call_e) {
    TuneKernel *t = P->t;
    if (!t->py && !(t->py = hpy_new(P->k))) return dfail(P, TC_ERR_NOMEM, call_e->loc, "out of memory");
    return hpy_autotune(t->py, call_e, t, P->err);
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
        if (vx->kind == EX_LAMBDA && vx->nparams != 1)
            return dfail(P, TC_ERR_ARG, vx->loc, "triton.heuristics: the lambda for '%s' must take one argument (the dict of arguments)", kx->str);
        /* a lambda the older evaluator reads is checked now; anything else (a function of
         * the module, a lambda calling host code) goes to the host subset at the launch */
        const Expr *py = NULL;
        if (vx->kind != EX_LAMBDA) py = vx;
        else {
            Err chk = {0};
            if (!heval_heuristic(P->m, P->k, vx->params[0], vx->lhs, NULL, kx->str, &chk, NULL)) {
                if (chk.code != TC_ERR_UNSUPPORTED) { *P->err = chk; return false; }
                py = vx;
            }
        }
        if (py && !t->py && !(t->py = hpy_new(P->k))) return dfail(P, TC_ERR_NOMEM, vx->loc, "out of memory");
        THeur *nh = realloc(t->heur, sizeof *nh * (size_t)(t->nheur + 1));
        if (!nh) return dfail(P, TC_ERR_NOMEM, vx->loc, "out of memory");
        t->heur = nh;
        THeur h = {strdup(kx->str), pi, py ? NULL : vx->lhs, py ? NULL : vx->params[0], vx->loc, py};
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
        t->cfg_hash0 = configs_hash(t);
        /* and what the host code read: environment variables, an assumed target */
        t->cfg_hash = hpy_env_hash(t->py, t->cfg_hash0);
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
    /* keep the heuristics (and the host code they may use); replace everything else */
    nt.py = t->py;
    hpy_forget_autotune(nt.py);
    t->py = NULL;
    t->heur = NULL; t->nheur = 0;
    tune_spec_clear(t);
    *t = nt;
    t->cfg_hash = t->cfg_hash0 = configs_hash(t);
    return TC_OK;
bad:
    nt.heur = NULL; nt.nheur = 0;
    nt.py = NULL;
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

tc_status tc_kernel_set_config(tc_kernel *k, int index) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    TuneKernel *t = tune_spec(k);
    if (!t) return tc_errcode(ctx);
    if (!t->autotune) return ctx_fail(ctx, TC_ERR_ARG, "%s is not autotuned: there is no config to choose", k->signature);
    if (index < -1 || index >= t->ncfg)
        return ctx_fail(ctx, TC_ERR_ARG, "config %d: %s has %d configs (0 to %d)", index, k->fn->name, t->ncfg, t->ncfg - 1);
    t->chosen = index + 1;
    return TC_OK;
}

/* Whether config c has NAME=TEXT (TEXT as Python writes the value). */
static bool config_has(const TConfig *c, const char *name, const char *text) {
    char r[128];
    if (!strcmp(name, "num_warps") || !strcmp(name, "num_stages") || !strcmp(name, "num_ctas") || !strcmp(name, "maxnreg")) {
        int v = !strcmp(name, "num_warps") ? c->num_warps : !strcmp(name, "num_stages") ? c->num_stages
              : !strcmp(name, "num_ctas") ? c->num_ctas : c->maxnreg;
        if (!strcmp(name, "maxnreg") && !v) snprintf(r, sizeof r, "None");
        else snprintf(r, sizeof r, "%d", v);
        return !strcmp(r, text);
    }
    for (int i = 0; i < c->nkw; i++) {
        if (strcmp(c->names[i], name)) continue;
        heval_repr(&c->vals[i], r, sizeof r);
        if (!strcmp(r, text)) return true;
        /* strings also without quotes */
        return c->vals[i].kind == TC_VAL_STR && !strcmp(c->vals[i].u.s, text);
    }
    return false;
}

tc_status tc_kernel_find_config(tc_kernel *k, const char *spec, int *index) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    if (!spec || !index) return ctx_fail(ctx, TC_ERR_ARG, "tc_kernel_find_config: NULL argument");
    TuneKernel *t = tune_spec(k);
    if (!t) return tc_errcode(ctx);
    if (!t->autotune) return ctx_fail(ctx, TC_ERR_ARG, "%s is not autotuned: there is no config to choose", k->signature);
    char buf[1024];
    if (strlen(spec) >= sizeof buf) return ctx_fail(ctx, TC_ERR_ARG, "config '%.40s...' is too long", spec);
    int found = -1, nfound = 0;
    for (int i = 0; i < t->ncfg; i++) {
        snprintf(buf, sizeof buf, "%s", spec);
        bool all = true, any = false;
        for (char *save = NULL, *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
            while (*item == ' ') item++;
            char *eq = strchr(item, '=');
            if (!eq) return ctx_fail(ctx, TC_ERR_ARG, "config '%s': expected NAME=VALUE items separated by commas", spec);
            *eq = 0;
            char *name = item, *val = eq + 1;
            for (char *e = name + strlen(name); e > name && e[-1] == ' '; e--) e[-1] = 0;
            while (*val == ' ') val++;
            for (char *e = val + strlen(val); e > val && e[-1] == ' '; e--) e[-1] = 0;
            any = true;
            if (!config_has(&t->cfg[i], name, val)) all = false;
        }
        if (!any) return ctx_fail(ctx, TC_ERR_ARG, "config '%s': expected NAME=VALUE items separated by commas", spec);
        if (all) { if (found < 0) found = i; nfound++; }
    }
    if (nfound == 1) { *index = found; return TC_OK; }
    Buf b = {0};
    buf_printf(&b, "config '%s' matches %d of the %d configs of %s (it must match one); they are:",
               spec, nfound, t->ncfg, k->fn->name);
    for (int i = 0; i < t->ncfg; i++) buf_printf(&b, "\n  %d: %s", i, t->cfg[i].str);
    tc_status rc = ctx_fail(ctx, TC_ERR_ARG, "%s", b.s ? b.s : "out of memory");
    buf_free(&b);
    return rc;
}
