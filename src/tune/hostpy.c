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
 * HostPy's arena, freed with the kernel's tuning state.
 *
 * This file holds the tune layer's entry points (the autotuner's configs, pruning, pre_hooks,
 * heuristics); hostpy_value.c the values and the builtins, hostpy_stmt.c names, expressions
 * and statements, the three sharing hostpy_int.h. */
#include "tune/hostpy_int.h"

#include <stdlib.h>

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
        FAIL(F, TC_ERR_ARG, loc, "configs: expected triton.Config objects, got a '%s'", hp_tname(&c));
    SrcLoc cl = c.o->loc;
    HV *kw = hp_dict_get(c.o->attrs, "kwargs");
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
        default: FAIL(F, TC_ERR_ARG, cl, "triton.Config value '%s' is a %s, not a number, bool or string", k.s, hp_tname(&v));
        }
        if (out->nkw >= TUNE_MAX_KW) FAIL(F, TC_ERR_LIMIT, cl, "more than %d config values", TUNE_MAX_KW);
        if (!tconfig_add(out, k.s, tv)) FAIL(F, TC_ERR_NOMEM, cl, "out of memory");
    }
    static const char *const opt[] = {"num_warps", "num_stages", "num_ctas", "maxnreg"};
    int *dst[] = {&out->num_warps, &out->num_stages, &out->num_ctas, &out->maxnreg};
    int lo[] = {1, 1, 1, 1}, hi[] = {64, 64, 16, 255}, dv[] = {4, 3, 1, 0};
    for (int i = 0; i < 4; i++) {
        HV *v = hp_dict_get(c.o->attrs, opt[i]);
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
    HSeq *s = hp_iter_items(F, v, loc);
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
    HV cfgs = hp_eval(&F, arg[0]);
    HSeq *cs = hp_iter_items(&F, cfgs, arg[0]->loc);
    if (cs->n > TUNE_MAX_CONFIGS) FAIL(&F, TC_ERR_LIMIT, arg[0]->loc, "more than %d configs", TUNE_MAX_CONFIGS);
    H->configs = hp_seq_new(H);
    if (!cs->n) {   /* Triton's default: Config({}, num_warps=4, num_stages=3, num_ctas=1) */
        HV d = hv(H_DICT);
        d.d = hp_dict_new(H);
        hp_seq_push(H, H->configs, hp_config_new(&F, &d, 1, NULL, NULL, 0, call->loc));
    } else {
        for (int i = 0; i < cs->n; i++) hp_seq_push(H, H->configs, cs->v[i]);
    }
    t->cfg = calloc((size_t)H->configs->n, sizeof *t->cfg);
    if (!t->cfg) FAIL(&F, TC_ERR_NOMEM, call->loc, "out of memory");
    for (int i = 0; i < H->configs->n; i++) {
        t->ncfg++;   /* counted first: a partly filled config is freed with the rest */
        to_tconfig(&F, H->configs->v[i], &t->cfg[i], arg[0]->loc);
    }
    int nk = 0;
    const char **keys = name_list(&F, hp_eval(&F, arg[1]), "key", &nk, arg[1]->loc);
    t->key = calloc(nk ? (size_t)nk : 1, sizeof *t->key);
    if (!t->key) FAIL(&F, TC_ERR_NOMEM, arg[1]->loc, "out of memory");
    for (int i = 0; i < nk; i++) {
        if (!(t->key[i] = strdup(keys[i]))) FAIL(&F, TC_ERR_NOMEM, arg[1]->loc, "out of memory");
        t->nkey++;
    }
    for (int pass = 3; pass <= 4; pass++) {
        if (!arg[pass]) continue;
        int nn = 0;
        const char **names = name_list(&F, hp_eval(&F, arg[pass]), pos[pass], &nn, arg[pass]->loc);
        to_params(&F, names, nn, pos[pass], pass == 3 ? &t->reset : &t->restore, arg[pass]->loc);
        if (pass == 3) t->nreset = nn; else t->nrestore = nn;
    }
    H->prune = H->perf_model = H->pre_hook = H->post_hook = hv(H_NONE);
    H->top_k = hfloat(1.0);
    if (arg[2]) {
        HV p = hp_eval(&F, arg[2]);
        if (p.kind == H_DICT) {
            HV *x;
            if ((x = hp_dict_get(p.d, "early_config_prune"))) H->prune = *x;
            if ((x = hp_dict_get(p.d, "perf_model"))) H->perf_model = *x;
            if ((x = hp_dict_get(p.d, "top_k"))) H->top_k = *x;
        } else if (p.kind != H_NONE) FAIL(&F, TC_ERR_ARG, arg[2]->loc, "prune_configs_by must be a dict");
    }
    if (arg[5]) H->pre_hook = hp_eval(&F, arg[5]);
    if (arg[6]) H->post_hook = hp_eval(&F, arg[6]);
    int w = 25, r = 100;
    for (int i = 7; i <= 8; i++) {
        if (!arg[i]) continue;
        HV v = hp_eval(&F, arg[i]);
        if (v.kind == H_NONE) continue;
        if (v.kind != H_INT || v.i < 1 || v.i > 1000000) FAIL(&F, TC_ERR_ARG, arg[i]->loc, "%s must be an integer in [1, 1000000]", pos[i]);
        if (i == 7) w = (int)v.i; else r = (int)v.i;
    }
    t->warmup = w;
    t->rep = r;
    if (arg[9]) hp_eval(&F, arg[9]);    /* use_cuda_graph: accepted; timed with events */
    if (arg[11]) hp_eval(&F, arg[11]);  /* cache_results: tritonc always keeps its tuning cache */
    HPY_LEAVE(err);
    return true;
}

/* The launch's arguments as the host subset sees them: name -> value (tensors as views). */
static HV nargs_of(HostPy *H, const tc_args *a) {
    HV d = hv(H_DICT);
    d.d = hp_dict_new(H);
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
        hp_dict_sets(H, d.d, k->fn->params[i].name, x);
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
        HV r = hp_call_value(&F, H->prune, args, 2, kwn, nargs.d->v, nkw, loc);
        cur = hp_iter_items(&F, r, loc);
        if (!cur->n) FAIL(&F, TC_ERR_ARG, loc, "AutotunerError: No valid autotuner configs after pruning. "
                          "`early_config_prune` should return at least one config.");
    }
    if (H->perf_model.kind != H_NONE) {
        int64_t top_k;
        if (H->top_k.kind == H_FLOAT && H->top_k.f <= 1.0) top_k = (int64_t)(H->configs->n * H->top_k.f);
        else if (H->top_k.kind == H_INT) top_k = H->top_k.i;
        else FAIL(&F, TC_ERR_ARG, loc, "TypeError: Error while pruning configs, top_k must be either 1) a float <= 1.0 or 2) an int");
        if (cur->n > top_k) {
            HSeq *timed = hp_seq_new(H);
            HV *est = arena_alloc(&H->a, sizeof(HV) * (size_t)(cur->n + 1));
            for (int i = 0; i < cur->n; i++) {
                HV all = hp_call_method(&F, cur->v[i], "all_kwargs", NULL, 0, NULL, NULL, 0, loc);
                HV kw = hp_binop(&F, PY_BITOR, nargs, all, loc);
                const char **kn = arena_alloc(&H->a, sizeof(char *) * (size_t)(kw.d->n + 1));
                for (int j = 0; j < kw.d->n; j++) kn[j] = kw.d->k[j].s;
                est[i] = hp_call_value(&F, H->perf_model, NULL, 0, kn, kw.d->v, kw.d->n, loc);
            }
            /* sorted by estimate, stable; the first top_k */
            HSeq idx = {0};
            for (int i = 0; i < cur->n; i++) {
                int j = idx.n;
                hp_seq_push(H, &idx, hint(i));
                while (j > 0 && hp_order(&F, &est[idx.v[j - 1].i], &est[i], PY_LT, loc) > 0) { idx.v[j] = idx.v[j - 1]; j--; }
                idx.v[j] = hint(i);
            }
            for (int i = 0; i < idx.n && i < top_k; i++) hp_seq_push(H, timed, cur->v[idx.v[i].i]);
            cur = timed;
        }
    }
    *nsurv = 0;
    for (int i = 0; i < cur->n; i++) {
        int j = 0;
        while (j < H->configs->n && !hp_hv_eq(&H->configs->v[j], &cur->v[i])) j++;
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
    HV *ph = H->configs->v[cfg].kind == H_OBJ ? hp_dict_get(H->configs->v[cfg].o->attrs, "pre_hook") : NULL;
    if (!ph || ph->kind == H_NONE) return true;   /* the autotuner's own pre_hook runs only when benchmarking */
    HPY_ENTER(H, err);
    Pos end = {H->m->host, H->m->nhost, NULL};
    Frame F = {H, NULL, &end, false, false, false, hv(H_NONE)};
    SrcLoc loc = H->k->fn->autotune ? H->k->fn->autotune->loc : H->k->fn->loc;
    HV all = hp_call_method(&F, H->configs->v[cfg], "all_kwargs", NULL, 0, NULL, NULL, 0, loc);
    HV full = hp_binop(&F, PY_BITOR, nargs_of(H, a), all, loc);
    hp_call_value(&F, *ph, &full, 1, NULL, NULL, 0, loc);
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
    HV f = hp_eval(&F, fn);
    Pos end = {H->m->host, H->m->nhost, NULL};
    F.gpos = &end;
    HV nargs = nargs_of(H, a);
    HV v = hp_call_value(&F, f, &nargs, 1, NULL, NULL, 0, fn->loc);
    switch (v.kind) {
    case H_INT: *out = tc_int(v.i); break;
    case H_BOOL: *out = tc_bool((int)v.i); break;
    case H_FLOAT: *out = tc_float(v.f); break;
    case H_NONE: *out = tc_none(); break;
    case H_STR: *out = tc_str(v.s); break;   /* lives in H's arena, as long as the kernel */
    default: FAIL(&F, TC_ERR_ARG, fn->loc, "heuristics value '%s' is a %s, not a number, bool or string", name, hp_tname(&v));
    }
    HPY_LEAVE(err);
    return true;
}

void hpy_forget_autotune(HostPy *H) {
    if (!H) return;
    H->configs = NULL;
    H->prune = H->perf_model = H->pre_hook = H->post_hook = hv(H_NONE);
}
