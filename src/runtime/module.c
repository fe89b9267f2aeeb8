/* module.c — modules, kernels and argument lists: a kernel file parsed once, its @jit
 * functions as kernels, and the values a launch binds to their parameters. */
#include "runtime/jit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- modules ------------------------------------------------------------------------ */

static tc_status module_from_source(tc_context *ctx, Source *src, tc_module **out) {
    Err e = {0};
    Module *mod = parse_module(src, &e);
    if (!mod) {
        tc_status rc = ctx_take(ctx, &e);
        /* the message may point into src: keep the text, drop the location's pointer */
        ctx_forget_source(ctx, src);
        source_free(src);
        return rc;
    }
    tc_module *m = calloc(1, sizeof *m);
    if (m && mod->nfuncs > 0) m->kernels = calloc((size_t)mod->nfuncs, sizeof *m->kernels);
    if (!m || (mod->nfuncs > 0 && !m->kernels)) {
        if (m) free(m->kernels);
        free(m);
        module_free(mod);
        source_free(src);
        return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory loading a module");
    }
    m->ctx = ctx;
    m->src = src;
    m->mod = mod;
    m->nkernels = mod->nfuncs;
    pthread_mutex_init(&m->lock, NULL);
    m->hash = hash_bytes(src->text, src->len, 0x747269746f6e63ull);
    *out = m;
    return TC_OK;
}

tc_status tc_module_load_file(tc_context *ctx, const char *path, tc_module **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!out || !path) return ctx_fail(ctx, TC_ERR_ARG, "tc_module_load_file: NULL argument");
    *out = NULL;
    /* read it here, with the limit, so that /dev/zero or a huge file cannot exhaust memory */
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        int err = errno;
        return ctx_fail(ctx, err == ENOENT || err == ENOTDIR ? TC_ERR_NOT_FOUND : TC_ERR_IO,
                        "cannot open %s: %s", path, strerror(err));
    }
    struct stat sb;
    if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(fp);
        return ctx_fail(ctx, TC_ERR_IO, "cannot read %s: it is a directory", path);
    }
    if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > API_MAX_SOURCE) {
        fclose(fp);
        return ctx_fail(ctx, TC_ERR_LIMIT, "%s: source file too large (%llu bytes; the limit is "
                        "%zu MiB)", path, (unsigned long long)sb.st_size, API_MAX_SOURCE >> 20);
    }
    Buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        buf_putn(&b, chunk, n);
        if (b.len > API_MAX_SOURCE || b.oom) break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (b.len > API_MAX_SOURCE) {
        buf_free(&b);
        return ctx_fail(ctx, TC_ERR_LIMIT, "%s: source file too large (more than %zu MiB)", path,
                        API_MAX_SOURCE >> 20);
    }
    if (bad || b.oom) {
        buf_free(&b);
        return ctx_fail(ctx, bad ? TC_ERR_IO : TC_ERR_NOMEM, "cannot read %s", path);
    }
    Source *src = source_new(path, b.s ? b.s : "", b.len);
    buf_free(&b);
    if (!src) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory reading %s", path);
    return module_from_source(ctx, src, out);
}

tc_status tc_module_load_string(tc_context *ctx, const char *name, const char *source,
                                tc_module **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!out || !source) return ctx_fail(ctx, TC_ERR_ARG, "tc_module_load_string: NULL argument");
    *out = NULL;
    size_t len = strnlen(source, API_MAX_SOURCE + 1);
    if (len > API_MAX_SOURCE)
        return ctx_fail(ctx, TC_ERR_LIMIT, "%s: source too large (more than %zu MiB)",
                        name ? name : "<string>", API_MAX_SOURCE >> 20);
    Source *src = source_new(name ? name : "<string>", source, len);
    if (!src) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    return module_from_source(ctx, src, out);
}


int tc_module_kernel_count(const tc_module *m) { return m ? m->nkernels : 0; }

const char *tc_module_kernel_name(const tc_module *m, int i) {
    if (!m || i < 0 || i >= m->nkernels) return NULL;
    return m->mod->funcs[i]->name;
}

static char *make_signature(const Func *f) {
    Buf b = {0};
    buf_printf(&b, "%s(", f->name);
    for (int i = 0; i < f->nparams; i++) buf_printf(&b, "%s%s", i ? ", " : "", f->params[i].name);
    buf_puts(&b, ")");
    if (b.oom) { buf_free(&b); return NULL; }
    return b.s;
}

tc_status tc_module_kernel(tc_module *m, const char *name, tc_kernel **out) {
    if (!m) return TC_ERR_ARG;
    tc_context *ctx = m->ctx;
    if (!out || !name) return ctx_fail(ctx, TC_ERR_ARG, "tc_module_kernel: NULL argument");
    *out = NULL;
    int idx = -1;
    for (int i = 0; i < m->nkernels; i++)
        if (m->mod->funcs[i]->is_jit && strcmp(m->mod->funcs[i]->name, name) == 0) { idx = i; break; }
    if (idx < 0) {
        Buf b = {0};
        for (int i = 0; i < m->nkernels; i++)
            if (m->mod->funcs[i]->is_jit)
                buf_printf(&b, "%s%s", b.len ? ", " : "", m->mod->funcs[i]->name);
        tc_status rc = ctx_fail(ctx, TC_ERR_NOT_FOUND, "no kernel named '%s' in %s (kernels: %s)",
                                name, m->src->path, b.s ? b.s : "none");
        buf_free(&b);
        return rc;
    }
    pthread_mutex_lock(&m->lock);   /* kernels are made once, whichever thread asks first */
    if (!m->kernels[idx]) {
        tc_kernel *k = calloc(1, sizeof *k);
        char *sig = k ? make_signature(m->mod->funcs[idx]) : NULL;
        if (!k || !sig || pthread_mutex_init(&k->lock, NULL)) {
            free(k);
            free(sig);
            pthread_mutex_unlock(&m->lock);
            return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
        }
        k->m = m;
        k->fn = m->mod->funcs[idx];
        k->index = idx;
        k->signature = sig;
        m->kernels[idx] = k;
    }
    *out = m->kernels[idx];
    pthread_mutex_unlock(&m->lock);
    return TC_OK;
}

int tc_kernel_param_count(const tc_kernel *k) { return k ? k->fn->nparams : 0; }

const char *tc_kernel_param_name(const tc_kernel *k, int i, int *is_constexpr) {
    if (!k || i < 0 || i >= k->fn->nparams) return NULL;
    if (is_constexpr) *is_constexpr = k->fn->params[i].is_constexpr;
    return k->fn->params[i].name;
}

/* size: the caller's sizeof; past what the library has, zeros. */
void tc_kernel_stats(const tc_kernel *k, tc_stats *out, size_t size) {
    if (!out) return;
    memset(out, 0, size);
    if (!k) return;
    tc_kernel *mk = (tc_kernel *)k;   /* the lock is the kernel's mutable part */
    pthread_mutex_lock(&mk->lock);
    tc_stats s = {k->stats.specializations, k->stats.hits,
                  __atomic_load_n(&k->stats.launches, __ATOMIC_RELAXED)};
    pthread_mutex_unlock(&mk->lock);
    memcpy(out, &s, size < sizeof s ? size : sizeof s);
}


/* zero: fill with zeros (tc_tensor_new); from_host overwrites every byte anyway. */

/* Frees a module and its kernels; what upper layers hang on the kernels (tune_kernel_free)
 * is theirs to free first. */
void module_handle_free(tc_module *m) {
    for (int i = 0; i < m->nkernels; i++) {
        tc_kernel *k = m->kernels[i];
        if (!k) continue;
        jit_kernel_free_cache(k);
        pthread_mutex_destroy(&k->lock);
        free(k->signature);
        free(k);
    }
    free(m->kernels);
    tc_context *ctx = m->ctx;
    if (ctx) ctx_forget_source(ctx, m->src);  /* errfile keeps the name */
    module_free(m->mod);
    source_free(m->src);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* ---- argument lists ---------------------------------------------------------------- */

tc_status tc_args_new(tc_kernel *k, tc_args **out) {
    if (!k) return TC_ERR_ARG;
    if (!out) return ctx_fail(k->m->ctx, TC_ERR_ARG, "tc_args_new: NULL output pointer");
    tc_args *a = calloc(1, sizeof *a);
    int n = k->fn->nparams;
    if (a) a->slots = calloc(n > 0 ? (size_t)n : 1, sizeof *a->slots);
    if (!a || !a->slots) {
        if (a) free(a->slots);
        free(a);
        return ctx_fail(k->m->ctx, TC_ERR_NOMEM, "out of memory");
    }
    a->k = k;
    a->n = n;
    *out = a;
    return TC_OK;
}

static void slot_clear(ArgSlot *s) {
    if (s->set && s->v.kind == TC_VAL_STR) free((char *)s->v.u.s);
    memset(s, 0, sizeof *s);
}

void tc_args_free(tc_args *a) {
    if (!a) return;
    for (int i = 0; i < a->n; i++) slot_clear(&a->slots[i]);
    free(a->slots);
    free(a);
}

static tc_status slot_set(tc_args *a, int i, tc_value v) {
    tc_context *ctx = a->k->m->ctx;
    if (v.kind > TC_VAL_UINT || (int)v.kind < 0)
        return ctx_fail(ctx, TC_ERR_ARG, "argument '%s': invalid value kind %d",
                        a->k->fn->params[i].name, (int)v.kind);
    if (v.kind == TC_VAL_TENSOR && !v.u.t)
        return ctx_fail(ctx, TC_ERR_ARG, "argument '%s': NULL tensor", a->k->fn->params[i].name);
    if (v.kind == TC_VAL_STR) {
        if (!v.u.s) return ctx_fail(ctx, TC_ERR_ARG, "argument '%s': NULL string",
                                    a->k->fn->params[i].name);
        char *c = strdup(v.u.s);
        if (!c) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
        v.u.s = c;
    }
    slot_clear(&a->slots[i]);
    a->slots[i].set = true;
    a->slots[i].v = v;
    return TC_OK;
}

static int param_index(const tc_kernel *k, const char *name) {
    for (int i = 0; i < k->fn->nparams; i++)
        if (strcmp(k->fn->params[i].name, name) == 0) return i;
    return -1;
}

static tc_status unknown_param(tc_kernel *k, const char *name) {
    Buf b = {0};
    for (int i = 0; i < k->fn->nparams; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", k->fn->params[i].name);
    tc_status rc = ctx_fail(k->m->ctx, TC_ERR_ARG,
                            "%s() got an unexpected argument '%s' (parameters: %s)", k->fn->name,
                            name, b.s ? b.s : "none");
    buf_free(&b);
    return rc;
}

tc_status tc_args_set(tc_args *a, const char *name, tc_value v) {
    if (!a) return TC_ERR_ARG;
    if (!name) return ctx_fail(a->k->m->ctx, TC_ERR_ARG, "tc_args_set: NULL name");
    int i = param_index(a->k, name);
    if (i < 0) return unknown_param(a->k, name);
    return slot_set(a, i, v);
}

tc_status tc_args_set_at(tc_args *a, int position, tc_value v) {
    if (!a) return TC_ERR_ARG;
    if (position < 0 || position >= a->n)
        return ctx_fail(a->k->m->ctx, TC_ERR_ARG,
                        "%s takes %d argument%s but position %d was given", a->k->signature,
                        a->n, a->n == 1 ? "" : "s", position);
    return slot_set(a, position, v);
}

/* The value of a literal default (`n=10`, `X: tl.constexpr = None`, `-1.5`). */
bool param_default(const Param *p, tc_value *out) {
    const Expr *e = p->deflt;
    if (!e) return false;
    bool neg = false;
    if (e->kind == EX_UNARY && e->op == PY_USUB && e->lhs) { neg = true; e = e->lhs; }
    switch (e->kind) {
    case EX_INT:
        if (e->big || e->ival > (uint64_t)INT64_MAX + (neg ? 1u : 0u)) return false;
        *out = tc_int(neg ? (int64_t)(0 - e->ival) : (int64_t)e->ival);
        return true;
    case EX_FLOAT: *out = tc_float(neg ? -e->fval : e->fval); return true;
    case EX_TRUE: if (neg) return false; *out = tc_bool(1); return true;
    case EX_FALSE: if (neg) return false; *out = tc_bool(0); return true;
    case EX_NONE: if (neg) return false; *out = tc_none(); return true;
    case EX_STR: if (neg || e->fstring) return false; *out = tc_str(e->str); return true;
    default: return false;
    }
}

tc_status tc_args_get(const tc_args *a, const char *name, tc_value *out) {
    if (!a) return TC_ERR_ARG;
    tc_context *ctx = a->k->m->ctx;
    if (!name || !out) return ctx_fail(ctx, TC_ERR_ARG, "tc_args_get: NULL argument");
    int i = param_index(a->k, name);
    if (i < 0) return unknown_param(a->k, name);
    if (a->slots[i].set) { *out = a->slots[i].v; return TC_OK; }
    if (param_default(&a->k->fn->params[i], out)) return TC_OK;
    return ctx_fail(ctx, TC_ERR_NOT_FOUND, "argument '%s' of %s is not set", name, a->k->signature);
}
