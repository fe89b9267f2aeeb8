/* context.c — contexts and their errors, kept output and last launch, and the plain values
 * (tc_int, tc_str...) every layer passes around. */
#include "base/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-thread records ------------------------------------------------------------ */

static _Atomic uint64_t next_ctx_id = 1;

/* A one-entry cache per thread: the record of the context it used last. Context ids are
 * never reused, so a freed context's entry never matches a new one. */
static _Thread_local struct { uint64_t id; CtxThread *t; } tl_rec;

CtxThread *ctx_thread(const tc_context *cctx) {
    if (tl_rec.id == cctx->id) return tl_rec.t;
    tc_context *ctx = (tc_context *)cctx;   /* the records are the context's mutable part */
    pthread_t self = pthread_self();
    pthread_mutex_lock(&ctx->lock);
    CtxThread *t = ctx->threads;
    while (t && !pthread_equal(t->tid, self)) t = t->next;
    if (!t && (t = calloc(1, sizeof *t))) {
        t->tid = self;
        t->next = ctx->threads;
        ctx->threads = t;
    }
    pthread_mutex_unlock(&ctx->lock);
    if (!t) return &ctx->shared;
    tl_rec.id = ctx->id;
    tl_rec.t = t;
    return t;
}

void ctx_forget_source(tc_context *ctx, const void *src) {
    pthread_mutex_lock(&ctx->lock);
    for (CtxThread *t = ctx->threads; t; t = t->next)
        if ((const void *)t->err.loc.src == src) t->err.loc.src = NULL;
    if ((const void *)ctx->shared.err.loc.src == src) ctx->shared.err.loc.src = NULL;
    pthread_mutex_unlock(&ctx->lock);
}

/* ---- errors ------------------------------------------------------------------------ */

tc_status ctx_fail(tc_context *ctx, tc_status code, const char *fmt, ...) {
    CtxThread *t = ctx_thread(ctx);
    va_list ap;
    va_start(ap, fmt);
    t->err.jump = NULL;
    err_setv(&t->err, code, (SrcLoc){0}, fmt, ap);
    va_end(ap);
    t->errfile[0] = 0;
    return code;
}

tc_status ctx_take(tc_context *ctx, const Err *e) {
    CtxThread *t = ctx_thread(ctx);
    Err *err = &t->err;
    if (e == err) {
        err->jump = NULL;
    } else {
        err->code = e->code;
        err->loc = e->loc;
        err->jump = NULL;
        memcpy(err->msg, e->msg, sizeof err->msg);
        err->msg[sizeof err->msg - 1] = 0;
    }
    t->errfile[0] = 0;
    if (err->loc.src && err->loc.src->path)
        snprintf(t->errfile, sizeof t->errfile, "%s", err->loc.src->path);
    if (err->code == TC_OK) {  /* a stage failed without saying why: an invariant */
        err->code = TC_ERR_INTERNAL;
        if (!err->msg[0]) snprintf(err->msg, sizeof err->msg, "internal error");
    }
    return err->code;
}

tc_status tc_errcode(const tc_context *ctx) { return ctx ? ctx_err(ctx)->code : TC_ERR_ARG; }

const char *tc_errmsg(const tc_context *ctx) {
    if (!ctx) return "no context";
    const Err *e = ctx_err(ctx);
    return e->code == TC_OK && !e->msg[0] ? "" : e->msg;
}

tc_srcloc tc_errloc(const tc_context *ctx) {
    tc_srcloc l = {NULL, 0, 0};
    if (!ctx) return l;
    const CtxThread *t = ctx_thread(ctx);
    if (t->err.loc.line <= 0) return l;
    l.file = t->errfile[0] ? t->errfile : t->err.loc.src ? t->err.loc.src->path : NULL;
    l.line = t->err.loc.line;
    l.col = t->err.loc.col;
    return l;
}

/* ---- context ----------------------------------------------------------------------- */

tc_status tc_context_new(tc_context **out) {
    if (!out) return TC_ERR_ARG;
    *out = NULL;
    tc_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return TC_ERR_NOMEM;
    ctx->backend = TC_BACKEND_AUTO;
    ctx->device = 0;
    ctx->id = atomic_fetch_add(&next_ctx_id, 1);
    pthread_mutexattr_t ra;
    pthread_mutexattr_init(&ra);
    pthread_mutexattr_settype(&ra, PTHREAD_MUTEX_RECURSIVE);
    if (pthread_mutex_init(&ctx->lock, NULL) || pthread_mutex_init(&ctx->tune_lock, &ra)) {
        pthread_mutexattr_destroy(&ra);
        free(ctx);
        return TC_ERR_NOMEM;
    }
    pthread_mutexattr_destroy(&ra);
    *out = ctx;
    return TC_OK;
}

void ctx_free(tc_context *ctx) {
    buf_free(&ctx->output);
    for (CtxThread *t = ctx->threads, *n; t; t = n) {
        n = t->next;
        free(t->tune_res);
        free(t->findings);
        free(t);
    }
    free(ctx->shared.tune_res);
    free(ctx->shared.findings);
    pthread_mutex_destroy(&ctx->lock);
    pthread_mutex_destroy(&ctx->tune_lock);
    if (tl_rec.id == ctx->id) tl_rec.id = 0;
    free(ctx);
}

void tc_set_print(tc_context *ctx, tc_print_fn fn, void *user) {
    if (!ctx) return;
    ctx->print = fn;
    ctx->print_user = user;
}

void tc_set_allocator(tc_context *ctx, tc_alloc_fn alloc, tc_release_fn release, void *user) {
    if (!ctx) return;
    ctx->alloc = alloc;
    ctx->release = alloc ? release : NULL;
    ctx->alloc_user = user;
}

/* Kept output (device_print with no callback set). */
void ctx_keep_output(const char *text, void *user) {
    tc_context *ctx = user;
    pthread_mutex_lock(&ctx->lock);
    buf_puts(&ctx->output, text);
    pthread_mutex_unlock(&ctx->lock);
}

void ctx_deliver(tc_context *ctx, const char *text) {
    if (!text || !*text) return;
    if (ctx->print) ctx->print(text, ctx->print_user);
    else ctx_keep_output(text, ctx);
}

char *tc_take_output(tc_context *ctx) {
    if (!ctx) return NULL;
    pthread_mutex_lock(&ctx->lock);
    Buf *b = &ctx->output;
    char *s = NULL;
    if (!b->s || b->oom) buf_free(b);
    else { s = b->s; memset(b, 0, sizeof *b); }
    pthread_mutex_unlock(&ctx->lock);
    return s;
}

/* size: the caller's sizeof; past what the library has, zeros. */
void tc_last_launch(const tc_context *ctx, tc_launch_report *out, size_t size) {
    if (!out) return;
    memset(out, 0, size);
    if (ctx) memcpy(out, ctx_last(ctx), size < sizeof(tc_launch_report) ? size : sizeof(tc_launch_report));
}

void tc_free(void *p) { free(p); }

tc_status tc_last_check_findings(const tc_context *ctx, tc_check_finding **records, int *n,
                                 size_t size) {
    if (!ctx || !records || !n || size == 0) return TC_ERR_ARG;
    *records = NULL;
    *n = 0;
    const CtxThread *t = ctx_thread(ctx);   /* this thread's last launch */
    if (!t->nfindings) return TC_OK;
    unsigned char *out = calloc((size_t)t->nfindings, size);
    if (!out) return TC_ERR_NOMEM;
    for (int i = 0; i < t->nfindings; i++)
        memcpy(out + (size_t)i * size, &t->findings[i],
               size < sizeof *t->findings ? size : sizeof *t->findings);
    *records = (tc_check_finding *)out;
    *n = t->nfindings;
    return TC_OK;
}

void tc_format_double(double v, char *buf, size_t n) {
    if (buf && n) fmt_double_repr(v, buf, n);
}

/* ---- values ----------------------------------------------------------------------- */

tc_value tc_int(int64_t v) { tc_value x = {0}; x.kind = TC_VAL_INT; x.u.i = v; return x; }
tc_value tc_uint(uint64_t v) {
    if (v <= INT64_MAX) return tc_int((int64_t)v);
    tc_value x = {0};
    x.kind = TC_VAL_UINT;
    x.u.i = (int64_t)(v - (uint64_t)INT64_MAX - 1) + INT64_MIN;   /* the same bits */
    return x;
}
tc_value tc_float(double v) { tc_value x = {0}; x.kind = TC_VAL_FLOAT; x.u.f = v; return x; }
tc_value tc_bool(int v) { tc_value x = {0}; x.kind = TC_VAL_BOOL; x.u.b = v != 0; return x; }
tc_value tc_str(const char *s) { tc_value x = {0}; x.kind = TC_VAL_STR; x.u.s = s; return x; }
tc_value tc_none(void) { tc_value x = {0}; x.kind = TC_VAL_NONE; return x; }
tc_value tc_tens(tc_tensor *t) { tc_value x = {0}; x.kind = TC_VAL_TENSOR; x.u.t = t; return x; }
