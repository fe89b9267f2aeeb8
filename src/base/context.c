/* context.c — contexts and their errors, kept output and last launch, and the plain values
 * (tc_int, tc_str...) every layer passes around. */
#include "base/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------------------ */

tc_status ctx_fail(tc_context *ctx, tc_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ctx->err.jump = NULL;
    err_setv(&ctx->err, code, (SrcLoc){0}, fmt, ap);
    va_end(ap);
    ctx->errfile[0] = 0;
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
    ctx->errfile[0] = 0;
    if (ctx->err.loc.src && ctx->err.loc.src->path)
        snprintf(ctx->errfile, sizeof ctx->errfile, "%s", ctx->err.loc.src->path);
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
    l.file = ctx->errfile[0] ? ctx->errfile
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
    if (!ctx) return TC_ERR_NOMEM;
    ctx->backend = TC_BACKEND_AUTO;
    ctx->device = 0;
    *out = ctx;
    return TC_OK;
}

void ctx_free(tc_context *ctx) {
    buf_free(&ctx->output);
    free(ctx->findings);
    free(ctx);
}

void tc_set_print(tc_context *ctx, tc_print_fn fn, void *user) {
    if (!ctx) return;
    ctx->print = fn;
    ctx->print_user = user;
}

/* Kept output (device_print with no callback set). */
void ctx_keep_output(const char *text, void *user) {
    tc_context *ctx = user;
    buf_puts(&ctx->output, text);
}

void ctx_deliver(tc_context *ctx, const char *text) {
    if (!text || !*text) return;
    if (ctx->print) ctx->print(text, ctx->print_user);
    else ctx_keep_output(text, ctx);
}

char *tc_take_output(tc_context *ctx) {
    if (!ctx) return NULL;
    Buf *b = &ctx->output;
    if (!b->s || b->oom) { buf_free(b); return NULL; }
    char *s = b->s;
    memset(b, 0, sizeof *b);
    return s;
}

/* size: the caller's sizeof; past what the library has, zeros. */
void tc_last_launch(const tc_context *ctx, tc_launch_report *out, size_t size) {
    if (!out) return;
    memset(out, 0, size);
    if (ctx) memcpy(out, &ctx->last, size < sizeof ctx->last ? size : sizeof ctx->last);
}

void tc_free(void *p) { free(p); }

tc_status tc_last_check_findings(const tc_context *ctx, tc_check_finding **records, int *n,
                                 size_t size) {
    if (!ctx || !records || !n || size == 0) return TC_ERR_ARG;
    *records = NULL;
    *n = 0;
    if (!ctx->nfindings) return TC_OK;
    unsigned char *out = calloc((size_t)ctx->nfindings, size);
    if (!out) return TC_ERR_NOMEM;
    for (int i = 0; i < ctx->nfindings; i++)
        memcpy(out + (size_t)i * size, &ctx->findings[i],
               size < sizeof *ctx->findings ? size : sizeof *ctx->findings);
    *records = (tc_check_finding *)out;
    *n = ctx->nfindings;
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
