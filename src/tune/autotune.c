/* autotune.c — the launch of a kernel with @triton.heuristics and/or @triton.autotune:
 * heuristics are computed on every launch (no device needed); a config is chosen per tuning
 * key, from this process's memory, the tuning database, the on-disk tuning cache, or by
 * benchmarking every config on the device with do_bench and keeping the fastest; then the
 * plain launch (jit_launch) runs with it. The launch report says which and where any timing
 * came from.
 *
 * Autotuning needs a device to benchmark on. Under the interpreter a config comes from the
 * caller (tc_kernel_set_config), a tuning database recorded on a GPU, or else is the first
 * config that survives pruning, and the launch report says which. A kernel with a single config needs no benchmarking (as Triton) and runs
 * anywhere. Configs are compiled one after another before any timing, not in parallel
 * threads, as the kernel's specialization cache is not thread-safe (compile_parallel = 0). */
#include "tune/tuneint.h"
#include "driver/cuda.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool env_true(const char *name) {
    const char *v = getenv(name);
    if (!v) return false;
    return !strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on");
}

/* a flag of choose(): the choice is for a launch (tc_tune benchmarks, or fails trying) */
#define TUNE_LAUNCH (1 << 30)

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
        tc_value v;
        if (h->py ? !hpy_heuristic(t->py, h->py, a, h->name, &e, &v)
                  : !heval_heuristic(k->m->mod, k, h->param, h->body, a, h->name, &e, &v))
            return ctx_take(ctx, &e);
        /* Triton sets it as a keyword argument: it overrides a value the caller gave */
        a->slots[h->pidx].set = true;
        a->slots[h->pidx].v = v;
    }
    return TC_OK;
}

/* ---- autotuning -------------------------------------------------------------------------------- */

typedef struct Ctl {
    tc_kernel *k;
    TuneKernel *t;
    tc_args *a;
    tc_launch_opts o;        /* the options of the run being timed */
    ArgSlot *base;           /* the slots before a config is applied */
    int cfg;                 /* the config being timed */
} Ctl;

/* Sets config c (and the inner heuristics) on a's slots, from base. */
static tc_status apply_config(Ctl *c, const TConfig *cf, tc_launch_opts *o) {
    tc_context *ctx = c->k->m->ctx;
    memcpy(c->a->slots, c->base, sizeof *c->base * (size_t)c->a->n);
    for (int i = 0; i < cf->nkw; i++) {
        int pi = tune_param_idx(c->k, cf->names[i]);
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
    Err e = {0};
    if (!hpy_pre_hook(c->t->py, c->cfg, c->a, &e)) return ctx_take(ctx, &e);
    return jit_launch(c->k, c->a, &c->o);
}

/* Triton's tuning key: the key arguments' values, then str(dtype) of every tensor argument. */
static void tuning_key(const tc_kernel *k, const TuneKernel *t, const ArgSlot *slots, char *buf, size_t n) {
    size_t o = 0;
    int items = 0;
    o += (size_t)snprintf(buf + o, n - o, "(");
    for (int i = 0; i < t->nkey && o < n; i++) {
        int pi = tune_param_idx(k, t->key[i]);
        if (pi < 0) continue;  /* as Triton: names that are not arguments are left out */
        tc_value v;
        if (slots[pi].set) v = slots[pi].v;
        else if (!param_default(&k->fn->params[pi], &v)) continue;
        char r[128];
        heval_repr(&v, r, sizeof r);
        o += (size_t)snprintf(buf + o, n - o, "%s%s", items++ ? ", " : "", r);
    }
    for (int i = 0; i < k->fn->nparams && o < n; i++) {
        if (!slots[i].set || slots[i].v.kind != TC_VAL_TENSOR) continue;
        o += (size_t)snprintf(buf + o, n - o, "%s'%s'", items++ ? ", " : "", heval_torch_dtype(slots[i].v.u.t->dtype));
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

static void set_report(tc_context *ctx, const tc_kernel *k, const TuneKernel *t, tc_tune_source src,
                       int best, const char *key, const char *device, int ccM, int ccm, const char *at,
                       const char *where, double tune_s, const tc_tune_result *res, int nres) {
    CtxThread *tc = ctx_thread(ctx);   /* the last tuning is per thread (tritonc.h) */
    tc_tune_report *r = &tc->tune;
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
    free(tc->tune_res);
    tc->tune_res = NULL;
    if (nres > 0) {
        tc->tune_res = malloc(sizeof *res * (size_t)nres);
        if (tc->tune_res) { memcpy(tc->tune_res, res, sizeof *res * (size_t)nres); r->nresults = nres; }
    }
    r->results = tc->tune_res;
    tc->has_tune = true;
}

tc_status tc_last_tune(const tc_context *ctx, tc_tune_report *out) {
    if (!ctx || !out) return TC_ERR_ARG;
    memset(out, 0, sizeof *out);
    const CtxThread *t = ctx_thread(ctx);
    if (!t->has_tune) return TC_ERR_NOT_FOUND;
    *out = t->tune;
    return TC_OK;
}

const char *tc_tune_source_name(tc_tune_source s) {
    switch (s) {
    case TC_TUNE_NONE: return "not autotuned";
    case TC_TUNE_SINGLE: return "single config";
    case TC_TUNE_BENCHMARKED: return "benchmarked";
    case TC_TUNE_MEMORY: return "in-memory cache";
    case TC_TUNE_DISK: return "disk cache";
    case TC_TUNE_DB: return "tuning database";
    case TC_TUNE_CHOSEN: return "chosen";
    case TC_TUNE_FIRST: return "first surviving config";
    }
    return "?";
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
            int pi = tune_param_idx(k, t->cfg[i].names[j]), seen = 0;
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
/* The choice a tuning database entry d records (config best): noted, remembered for this
 * key and reported. */
static void use_db_entry(tc_context *ctx, const tc_kernel *k, TuneKernel *t, const char *key,
                         const DbEntry *d, int best, char *note, size_t nnote) {
    const char *origin = d->origin ? d->origin : "";
    db_note(note, nnote, &t->cfg[best], d->device, d->ccM, d->ccm, d->at, "tuning database", origin);
    memo_add(t, key, best, TC_TUNE_DB, d->device, d->ccM, d->ccm, d->at, origin, d->tune_s);
    set_report(ctx, k, t, TC_TUNE_DB, best, key, d->device, d->ccM, d->ccm, d->at, origin,
               d->tune_s, d->res, d->nres);
}

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
    if (t->chosen > 0) {
        int i = t->chosen - 1;
        *best_out = i;
        tfmt(note, nnote, "autotune: config %d (%s), chosen by the caller; not benchmarked", i, t->cfg[i].str);
        set_report(ctx, k, t, TC_TUNE_CHOSEN, i, key, "", 0, 0, "", "", 0, NULL, 0);
        return TC_OK;
    }
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
            if (m->src == TC_TUNE_FIRST && !(flags & TUNE_LAUNCH)) continue;   /* tc_tune measures */
            *best_out = m->best;
            if (m->src == TC_TUNE_FIRST)
                tfmt(note, nnote, "autotune: config %d of %d, the first surviving pruning (chosen "
                     "earlier for this key); the interpreter does not benchmark: --config chooses",
                     m->best, t->ncfg);
            else if (m->src == TC_TUNE_DB || m->src == TC_TUNE_DISK)
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
    /* Triton's prune_configs (early_config_prune, perf_model/top_k) before any choice */
    int surv[TUNE_MAX_CONFIGS], nsurv = t->ncfg;
    for (int i = 0; i < t->ncfg; i++) surv[i] = i;
    if (hpy_has_prune(t->py)) {
        Err e = {0};
        if (!hpy_prune(t->py, c->a, surv, &nsurv, &e)) return ctx_take(ctx, &e);
        t->cfg_hash = hpy_env_hash(t->py, t->cfg_hash0);   /* the prune function's reads too */
    }
    if (b == TC_BACKEND_INTERPRET) {
        int best = -1;
        char why[600] = "no tuning database was loaded";
        const DbEntry *d = ctx->tune ? tdb_find(ctx, k, t, key, NULL, 0, 0, &best, why, sizeof why) : NULL;
        if (d) {
            *best_out = best;
            use_db_entry(ctx, k, t, key, d, best, note, nnote);
            return TC_OK;
        }
        if (flags & TUNE_LAUNCH) {
            /* a launch: the interpreter's timings could not choose anyway, so the first config
             * surviving pruning runs, and the report says so (and why no database entry) */
            best = surv[0];
            *best_out = best;
            tfmt(note, nnote, "autotune: config %d of %d, the first surviving pruning (%d do); the "
                 "interpreter does not benchmark: --config chooses", best, t->ncfg, nsurv);
            set_report(ctx, k, t, TC_TUNE_FIRST, best, key, "", 0, 0, "", why, 0, NULL, 0);
            memo_add(t, key, best, TC_TUNE_FIRST, "", 0, 0, "", why, 0);   /* as Triton's cache */
            return TC_OK;
        }
        const char *drv = NULL;
        Err e = {0};
        if (driver_active(&drv, &e) != TC_OK) {
            /* the honest failure: autotuning needs the driver that is not there */
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
    bool pruned[TUNE_MAX_CONFIGS];
    for (int i = 0; i < t->ncfg; i++) pruned[i] = true;
    for (int i = 0; i < nsurv; i++) pruned[surv[i]] = false;
    /* on the GPU */
    tc_device_props props;
    Err e = {0};
    if (cuda_device_props(ctx->device, &props, &e)) return ctx_take(ctx, &e);
    char path[4400] = "";
    const char *tcache = getenv("TRITONC_TUNING_CACHE");   /* 0: no on-disk tuning cache */
    char unsafe[600] = "";   /* why the tuning cache was not trusted: told, and in the note */
    bool have_path = !(tcache && !strcmp(tcache, "0")) &&
                     tdb_disk_path(k, t, props.name, props.major, props.minor, key, path, sizeof path) &&
                     tdb_disk_usable(unsafe, sizeof unsafe);
    char sh[32];
    src_hash_hex(k, sh, sizeof sh);
    if (!(flags & TC_TUNE_FORCE)) {
        int best = -1;
        const DbEntry *d = tdb_find(ctx, k, t, key, props.name, props.major, props.minor, &best, NULL, 0);
        if (d) {
            *best_out = best;
            use_db_entry(ctx, k, t, key, d, best, note, nnote);
            return TC_OK;
        }
        DbEntry de;
        int bi = -1;
        if (have_path && tdb_disk_lookup(path, k, t, props.name, props.major, props.minor, key, &de, &bi,
                                         unsafe, sizeof unsafe)) {
            *best_out = bi;
            db_note(note, nnote, &t->cfg[bi], de.device, de.ccM, de.ccm, de.at, "tuning cache", path);
            memo_add(t, key, bi, TC_TUNE_DISK, de.device, de.ccM, de.ccm, de.at, path, de.tune_s);
            set_report(ctx, k, t, TC_TUNE_DISK, bi, key, de.device, de.ccM, de.ccm, de.at, path,
                       de.tune_s, de.res, de.nres);
            /* also known to the context, for export */
            TuneContext *tc = tune_ctx(ctx);
            de.origin = strdup(path);
            if (!tc || !de.origin || !tdb_add(tc, &de)) tdb_entry_free(&de);
            return TC_OK;
        }
        /* none, damaged or stale: tune again and overwrite */
    }
    if (unsafe[0]) {
        char line[700];
        snprintf(line, sizeof line, "tritonc: note: %s\n", unsafe);
        ctx_deliver(ctx, line);
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
        if (pruned[i]) {
            res[i].status = TC_ERR_NOT_FOUND;
            cpy(res[i].reason, sizeof res[i].reason, "pruned (prune_configs_by)");
            continue;
        }
        tc_launch_opts o = c->o;
        rc = apply_config(c, &t->cfg[i], &o);
        if (rc) goto out;
        o.grid_fn = NULL;
        o.grid[0] = 0; o.grid[1] = o.grid[2] = 1;   /* compile only: Triton launches nothing on a 0 grid */
        Err pe = {0};   /* the config's pre_hook first: it may set what the kernel specializes on
                         * (tutorial 06 sets its descriptors' block shapes there) */
        rc = hpy_pre_hook(t->py, i, c->a, &pe) ? jit_launch(k, c->a, &o) : ctx_take(ctx, &pe);
        if (rc == TC_ERR_NO_DRIVER || rc == TC_ERR_NOMEM || rc == TC_ERR_INTERNAL) goto out;
        if (rc) {
            res[i].status = rc;
            const char *m = tc_errmsg(ctx);
            if (!strncmp(m, "error: ", 7)) m += 7;
            snprintf(res[i].reason, sizeof res[i].reason, "%.*s", (int)strcspn(m, "\n"), m);
            rc = TC_OK;
        }
        if (c->o.progress) c->o.progress("compiled", (uint64_t)i + 1, (uint64_t)t->ncfg, now_s() - t0, c->o.progress_user);
    }
    for (int i = 0; i < t->ncfg; i++) {
        if (!res[i].status) {
            tc_launch_opts o = c->o;
            rc = apply_config(c, &t->cfg[i], &o);
            if (rc) goto out;
            c->o = o;
            c->cfg = i;
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
        if (c->o.progress) c->o.progress("timed", (uint64_t)i + 1, (uint64_t)t->ncfg, now_s() - t0, c->o.progress_user);
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
    for (int i = 0; ok && i < t->cfg[best].nkw; i++) ok = tconfig_add(&d.best, t->cfg[best].names[i], t->cfg[best].vals[i]);
    if (ok) {
        tconfig_format(&d.best);
        memcpy(d.res, res, sizeof *res * (size_t)t->ncfg);
        d.nres = t->ncfg;
    }
    if (!ok) { tdb_entry_free(&d); rc = ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); goto out; }
    /* persist: one file per tuning, written atomically; failure to write is not fatal */
    char where[4400] = "";
    if (have_path && tdb_disk_store(path, &d)) cpy(where, sizeof where, path);
    memo_add(t, key, best, TC_TUNE_BENCHMARKED, props.name, props.major, props.minor, at, where, tune_s);
    set_report(ctx, k, t, TC_TUNE_BENCHMARKED, best, key, props.name, props.major, props.minor, at, where,
               tune_s, res, t->ncfg);
    TuneContext *tc = tune_ctx(ctx);
    if (!tc || !tdb_add(tc, &d)) tdb_entry_free(&d);
    int nskip = 0;
    for (int i = 0; i < t->ncfg; i++) nskip += res[i].status != 0;
    tfmt(note, nnote, "autotune: benchmarked %d configs (%d skipped) on %s in %.2fs; best %s%s%s",
             t->ncfg, nskip, props.name, tune_s, t->cfg[best].str, unsafe[0] ? "; " : "", unsafe);
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
        Ctl c = {k, t, a, *opts, base, 0};
        int best = 0;
        rc = choose(&c, flags, progress, puser, &best, note, sizeof note);
        if (rc) goto done;
        rc = apply_config(&c, &t->cfg[best], &o);
        if (rc) goto done;
        Err e = {0};
        if (launch && !hpy_pre_hook(t->py, best, a, &e)) { rc = ctx_take(ctx, &e); goto done; }
    }
    if (launch) {
        rc = jit_launch(k, a, &o);
        if (rc == TC_OK && note[0]) {
            char prev[256];
            cpy(prev, sizeof prev, ctx_last(ctx)->note);
            if (prev[0] && ctx_last(ctx)->backend == TC_BACKEND_INTERPRET)
                tfmt(ctx_last(ctx)->note, sizeof ctx_last(ctx)->note, "%s; %s", note, prev);
            else
                cpy(ctx_last(ctx)->note, sizeof ctx_last(ctx)->note, note);
        }
    }
done:
    memcpy(a->slots, saved, sizeof *saved * (size_t)n);
    return rc;
}

tc_status tune_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts) {
    return tune_run(k, a, opts, TUNE_LAUNCH, NULL, NULL, true);
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
    pthread_mutex_lock(&ctx->tune_lock);   /* the autotuner's state: one at a time */
    rc = tune_run(k, a, &o, flags, progress, user, false);
    pthread_mutex_unlock(&ctx->tune_lock);
    if (rc) return rc;
    if (out) tc_last_tune(ctx, out);
    return TC_OK;
}
