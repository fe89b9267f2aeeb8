/* api.c — the public API over the stages: contexts and errors, modules and kernels,
 * tensors, values and argument lists. The launch itself and the specialization cache are
 * in jit.c; the hardware half (driver, target, devices) is in device.c. */
#include "runtime/jit.h"
#include "tune/tune.h"
#include "driver/cuda.h"
#include "interp/interp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct ApiState {
    bool resolved;            /* AUTO resolved once per context */
    tc_backend backend;
    char errfile[512];        /* the last error's file, kept past the module's life */
    Buf output;               /* device_print text when no print callback is set */
} ApiState;

static ApiState *st(const tc_context *ctx) { return (ApiState *)ctx->priv; }

/* ---- errors ------------------------------------------------------------------------ */

tc_status ctx_fail(tc_context *ctx, tc_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ctx->err.jump = NULL;
    err_setv(&ctx->err, code, (SrcLoc){0}, fmt, ap);
    va_end(ap);
    if (ctx->priv) st(ctx)->errfile[0] = 0;
    return code;
}

tc_status ctx_take(tc_context *ctx, const Err *e) {
    if (e == &ctx->err) {
        ctx->err.jump = NULL;
    } else {
        ctx->err.code = e->code;
        ctx->err.loc = e->loc;
        ctx->err.jump = NULL;
        memcpy(ctx->err.msg, e->msg, sizeof ctx->err.msg);
        ctx->err.msg[sizeof ctx->err.msg - 1] = 0;
    }
    if (ctx->priv) {
        ApiState *s = st(ctx);
        s->errfile[0] = 0;
        if (ctx->err.loc.src && ctx->err.loc.src->path)
            snprintf(s->errfile, sizeof s->errfile, "%s", ctx->err.loc.src->path);
    }
    if (ctx->err.code == TC_OK) {  /* a stage failed without saying why: an invariant */
        ctx->err.code = TC_ERR_INTERNAL;
        if (!ctx->err.msg[0]) snprintf(ctx->err.msg, sizeof ctx->err.msg, "internal error");
    }
    return ctx->err.code;
}

tc_status tc_errcode(const tc_context *ctx) { return ctx ? ctx->err.code : TC_ERR_ARG; }

const char *tc_errmsg(const tc_context *ctx) {
    if (!ctx) return "no context";
    return ctx->err.code == TC_OK && !ctx->err.msg[0] ? "" : ctx->err.msg;
}

tc_srcloc tc_errloc(const tc_context *ctx) {
    tc_srcloc l = {NULL, 0, 0};
    if (!ctx || ctx->err.loc.line <= 0) return l;
    ApiState *s = st(ctx);
    l.file = s && s->errfile[0] ? s->errfile
             : ctx->err.loc.src ? ctx->err.loc.src->path : NULL;
    l.line = ctx->err.loc.line;
    l.col = ctx->err.loc.col;
    return l;
}

/* ---- context ----------------------------------------------------------------------- */

tc_status tc_context_new(tc_context **out) {
    if (!out) return TC_ERR_ARG;
    *out = NULL;
    tc_context *ctx = calloc(1, sizeof *ctx);
    ApiState *s = calloc(1, sizeof *s);
    if (!ctx || !s) { free(ctx); free(s); return TC_ERR_NOMEM; }
    ctx->priv = s;
    ctx->backend = TC_BACKEND_AUTO;
    ctx->device = 0;
    *out = ctx;
    return TC_OK;
}

void tc_context_free(tc_context *ctx) {
    if (!ctx) return;
    tune_context_free(ctx);
    if (ctx->priv) buf_free(&st(ctx)->output);
    free(ctx->priv);
    free(ctx);
}

tc_status tc_context_set_backend(tc_context *ctx, tc_backend b) {
    if (!ctx) return TC_ERR_ARG;
    if (b != TC_BACKEND_AUTO && b != TC_BACKEND_INTERPRET && b != TC_BACKEND_CUDA)
        return ctx_fail(ctx, TC_ERR_ARG, "unknown backend %d", (int)b);
    ctx->backend = b;
    st(ctx)->resolved = false;
    return TC_OK;
}

/* TRITON_INTERPRET: true for 1/y/yes/on/true (case-insensitive), as Triton's knobs. */
static bool env_interpret(void) {
    const char *v = getenv("TRITON_INTERPRET");
    if (!v) return false;
    static const char *const yes[] = {"1", "y", "yes", "on", "true"};
    for (int i = 0; i < COUNT_OF(yes); i++)
        if (strcasecmp(v, yes[i]) == 0) return true;
    return false;
}

tc_status api_backend(tc_context *ctx, tc_backend *out) {
    ApiState *s = st(ctx);
    if (s->resolved) { *out = s->backend; return TC_OK; }
    tc_backend b = ctx->backend;
    if (b == TC_BACKEND_AUTO) {
        if (env_interpret()) {
            b = TC_BACKEND_INTERPRET;
        } else {
            const char *name = NULL;
            Err e = {0};
            if (driver_active(&name, &e) != TC_OK) return ctx_take(ctx, &e);
            b = TC_BACKEND_CUDA;
        }
    }
    if (b == TC_BACKEND_CUDA) {
        Err e = {0};
        if (cuda_init(&e) != TC_OK) return ctx_take(ctx, &e);
    }
    s->backend = b;
    s->resolved = true;
    *out = b;
    return TC_OK;
}

tc_status tc_context_backend(tc_context *ctx, tc_backend *out) {
    if (!ctx || !out) return TC_ERR_ARG;
    return api_backend(ctx, out);
}

void tc_set_print(tc_context *ctx, tc_print_fn fn, void *user) {
    if (!ctx) return;
    ctx->print = fn;
    ctx->print_user = user;
}

/* Kept output (device_print with no callback set). */
void api_keep_output(const char *text, void *user) {
    tc_context *ctx = user;
    buf_puts(&st(ctx)->output, text);
}

char *tc_take_output(tc_context *ctx) {
    if (!ctx) return NULL;
    Buf *b = &st(ctx)->output;
    if (!b->s || b->oom) { buf_free(b); return NULL; }
    char *s = b->s;
    memset(b, 0, sizeof *b);
    return s;
}

/* An output struct the caller declared with size bytes: what the library has, then zeros
 * (src NULL: all zeros). */
static void fill_out(void *out, size_t size, const void *src, size_t have) {
    if (!out) return;
    memset(out, 0, size);
    if (src) memcpy(out, src, size < have ? size : have);
}

void tc_last_launch(const tc_context *ctx, tc_launch_report *out, size_t size) {
    fill_out(out, size, ctx ? &ctx->last : NULL, sizeof ctx->last);
}

void tc_free(void *p) { free(p); }

void tc_format_double(double v, char *buf, size_t n) {
    if (buf && n) fmt_double_repr(v, buf, n);
}

/* ---- modules ------------------------------------------------------------------------ */

static tc_status module_from_source(tc_context *ctx, Source *src, tc_module **out) {
    Err e = {0};
    Module *mod = parse_module(src, &e);
    if (!mod) {
        tc_status rc = ctx_take(ctx, &e);
        /* the message may point into src: keep the text, drop the location's pointer */
        ctx->err.loc.src = NULL;
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
    m->arch_dev = -1;
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

void tc_module_free(tc_module *m) {
    if (!m) return;
    for (int i = 0; i < m->nkernels; i++) {
        tc_kernel *k = m->kernels[i];
        if (!k) continue;
        jit_kernel_free_cache(k);
        tune_kernel_free(k);
        free(k->signature);
        free(k);
    }
    free(m->kernels);
    tc_context *ctx = m->ctx;
    if (ctx && ctx->err.loc.src == m->src) ctx->err.loc.src = NULL;  /* errfile keeps the name */
    module_free(m->mod);
    source_free(m->src);
    free(m);
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
    if (!m->kernels[idx]) {
        tc_kernel *k = calloc(1, sizeof *k);
        char *sig = k ? make_signature(m->mod->funcs[idx]) : NULL;
        if (!k || !sig) { free(k); free(sig); return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); }
        k->m = m;
        k->fn = m->mod->funcs[idx];
        k->index = idx;
        k->signature = sig;
        m->kernels[idx] = k;
    }
    *out = m->kernels[idx];
    return TC_OK;
}

int tc_kernel_param_count(const tc_kernel *k) { return k ? k->fn->nparams : 0; }

const char *tc_kernel_param_name(const tc_kernel *k, int i, int *is_constexpr) {
    if (!k || i < 0 || i >= k->fn->nparams) return NULL;
    if (is_constexpr) *is_constexpr = k->fn->params[i].is_constexpr;
    return k->fn->params[i].name;
}

void tc_kernel_stats(const tc_kernel *k, tc_stats *out, size_t size) {
    fill_out(out, size, k ? &k->stats : NULL, sizeof k->stats);
}

/* ---- tensors ------------------------------------------------------------------------ */

/* zero: fill with zeros (tc_tensor_new); from_host overwrites every byte anyway. */
static tc_status tensor_alloc(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                              bool zero, tc_tensor **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!out) return ctx_fail(ctx, TC_ERR_ARG, "tensor: NULL output pointer");
    *out = NULL;
    if (!tc_dtype_name(dt)) return ctx_fail(ctx, TC_ERR_ARG, "tensor: invalid dtype %d", (int)dt);
    if (rank < 0 || rank > TC_MAX_RANK)
        return ctx_fail(ctx, TC_ERR_ARG, "tensor: rank %d is outside 0..%d", rank, TC_MAX_RANK);
    if (rank > 0 && !shape) return ctx_fail(ctx, TC_ERR_ARG, "tensor: NULL shape");
    int64_t numel = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] < 0)
            return ctx_fail(ctx, TC_ERR_ARG, "tensor: negative dimension %lld", (long long)shape[i]);
        if (shape[i] > 0 && numel > ((int64_t)1 << 48) / shape[i])
            return ctx_fail(ctx, TC_ERR_LIMIT, "tensor: more than 2^48 elements");
        numel *= shape[i];
    }
    size_t esz = tc_dtype_size(dt);
    size_t nbytes = (size_t)numel * esz;
    tc_backend b;
    tc_status rc = api_backend(ctx, &b);
    if (rc) return rc;
    tc_tensor *t = calloc(1, sizeof *t);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    t->ctx = ctx;
    t->backend = b;
    t->dtype = dt;
    t->rank = rank;
    for (int i = 0; i < rank; i++) t->shape[i] = shape[i];
    t->numel = numel;
    t->nbytes = nbytes;
    if (b == TC_BACKEND_CUDA) {
        Err e = {0};
        CuDevPtr p = 0;
        if (cuda_use_device(ctx->device, &e) || cuda_alloc(nbytes ? nbytes : 1, &p, &e) ||
            (zero && cuda_memset0(p, nbytes ? nbytes : 1, &e))) {
            if (p) cuda_free(p);
            free(t);
            return ctx_take(ctx, &e);
        }
        t->dev = p;
    } else {
        size_t alloc = (nbytes + 63) & ~(size_t)63;
        if (alloc == 0) alloc = 64;
        /* 63 spare bytes to align by hand: calloc's large blocks are fresh pages the OS
         * zeroes on first touch, so a zero tensor costs no page faults until it is used
         * (aligned_alloc + memset touched every page up front) */
        t->host_base = zero ? calloc(1, alloc + 63) : malloc(alloc + 63);
        if (!t->host_base) {
            free(t);
            return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory allocating a tensor of %zu bytes",
                            nbytes);
        }
        t->host = (void *)(((uintptr_t)t->host_base + 63) & ~(uintptr_t)63);
        if (!zero) memset((char *)t->host + nbytes, 0, alloc - nbytes);  /* only the padding */
    }
    *out = t;
    return TC_OK;
}

tc_status tc_tensor_new(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                        tc_tensor **out) {
    return tensor_alloc(ctx, dt, rank, shape, true, out);
}

tc_status tc_tensor_from_host(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                              const void *data, tc_tensor **out) {
    if (ctx && !data) return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_from_host: NULL data");
    tc_status rc = tensor_alloc(ctx, dt, rank, shape, false, out);
    if (rc) return rc;
    rc = tc_tensor_copy_from_host(*out, data, (*out)->nbytes);
    if (rc) { tc_tensor_free(*out); *out = NULL; }
    return rc;
}

tc_status tc_tensor_to_host(tc_tensor *t, void *dst, size_t nbytes) {
    if (!t) return TC_ERR_ARG;
    if (!dst) return ctx_fail(t->ctx, TC_ERR_ARG, "tc_tensor_to_host: NULL destination");
    if (nbytes < t->nbytes)
        return ctx_fail(t->ctx, TC_ERR_ARG,
                        "tc_tensor_to_host: destination has %zu bytes, the tensor %zu", nbytes,
                        t->nbytes);
    if (t->nbytes == 0) return TC_OK;
    if (t->backend == TC_BACKEND_CUDA) {
        Err e = {0};
        if (cuda_dtoh(dst, t->dev, t->nbytes, &e)) return ctx_take(t->ctx, &e);
        return TC_OK;
    }
    memcpy(dst, t->host, t->nbytes);
    return TC_OK;
}

tc_status tc_tensor_copy_from_host(tc_tensor *t, const void *src, size_t nbytes) {
    if (!t) return TC_ERR_ARG;
    if (!src) return ctx_fail(t->ctx, TC_ERR_ARG, "tc_tensor_copy_from_host: NULL source");
    if (nbytes < t->nbytes)
        return ctx_fail(t->ctx, TC_ERR_ARG,
                        "tc_tensor_copy_from_host: source has %zu bytes, the tensor %zu", nbytes,
                        t->nbytes);
    if (t->nbytes == 0) return TC_OK;
    if (t->backend == TC_BACKEND_CUDA) {
        Err e = {0};
        if (cuda_htod(t->dev, src, t->nbytes, &e)) return ctx_take(t->ctx, &e);
        return TC_OK;
    }
    memcpy(t->host, src, t->nbytes);
    if (t->uninit) memset(t->uninit, 0, uninit_size(t->nbytes));
    return TC_OK;
}

void tc_tensor_free(tc_tensor *t) {
    if (!t) return;
    if (t->backend == TC_BACKEND_CUDA) {
        if (t->dev) cuda_free(t->dev);
    } else {
        free(t->host_base);
    }
    free(t->uninit);
    free(t);
}

tc_dtype tc_tensor_dtype(const tc_tensor *t) { return t ? t->dtype : (tc_dtype)0; }
int tc_tensor_rank(const tc_tensor *t) { return t ? t->rank : 0; }
const int64_t *tc_tensor_shape(const tc_tensor *t) { return t ? t->shape : NULL; }
int64_t tc_tensor_numel(const tc_tensor *t) { return t ? t->numel : 0; }
size_t tc_tensor_nbytes(const tc_tensor *t) { return t ? t->nbytes : 0; }

void tc_tensor_mark_uninit(tc_tensor *t) {
    if (!t || t->backend == TC_BACKEND_CUDA || t->nbytes == 0) return;
    if (!t->uninit) t->uninit = malloc(uninit_size(t->nbytes));
    if (t->uninit) uninit_set_all(t->uninit, t->nbytes);
}

void *tc_tensor_host_data(tc_tensor *t) {
    return t && t->backend != TC_BACKEND_CUDA ? t->host : NULL;
}

/* ---- values and argument lists ---------------------------------------------------- */

tc_value tc_int(int64_t v) { tc_value x = {0}; x.kind = TC_VAL_INT; x.u.i = v; return x; }
tc_value tc_float(double v) { tc_value x = {0}; x.kind = TC_VAL_FLOAT; x.u.f = v; return x; }
tc_value tc_bool(int v) { tc_value x = {0}; x.kind = TC_VAL_BOOL; x.u.b = v != 0; return x; }
tc_value tc_str(const char *s) { tc_value x = {0}; x.kind = TC_VAL_STR; x.u.s = s; return x; }
tc_value tc_none(void) { tc_value x = {0}; x.kind = TC_VAL_NONE; return x; }
tc_value tc_tens(tc_tensor *t) { tc_value x = {0}; x.kind = TC_VAL_TENSOR; x.u.t = t; return x; }

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
    if (v.kind > TC_VAL_TENSOR || (int)v.kind < 0)
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
bool api_param_default(const Param *p, tc_value *out) {
    const Expr *e = p->deflt;
    if (!e) return false;
    bool neg = false;
    if (e->kind == EX_UNARY && e->op && strcmp(e->op, "-") == 0 && e->lhs) { neg = true; e = e->lhs; }
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
    if (api_param_default(&a->k->fn->params[i], out)) return TC_OK;
    return ctx_fail(ctx, TC_ERR_NOT_FOUND, "argument '%s' of %s is not set", name, a->k->signature);
}

/* ---- ahead of time ----------------------------------------------------------------- */

tc_status tc_compile_ptx(tc_kernel *k, const tc_target *target, const char *const *sig,
                         int nsig, tc_args *constexprs, int num_warps, char **ptx_out) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    if (!target || !ptx_out || (nsig > 0 && !sig))
        return ctx_fail(ctx, TC_ERR_ARG, "tc_compile_ptx: NULL argument");
    *ptx_out = NULL;
    if (constexprs && constexprs->k != k)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_compile_ptx: the argument list belongs to another kernel");
    return jit_compile_ptx(k, target, sig, nsig, constexprs, num_warps, ptx_out);
}
