/* context.h — the context every public call works in: its last error, its backend, where
 * device_print text goes and what the last launch did. The bottom layer, so that every
 * layer above can fail through ctx_fail/ctx_take (context.c). Fields may be added; existing
 * ones keep their meaning. */
#ifndef CONTEXT_H
#define CONTEXT_H

#include "base/tc.h"

struct TuneContext;            /* the autotuner's state (tune/), created on first use */

struct tc_context {
    Err err;                   /* the last error (code, message, location) */
    char errfile[512];         /* the last error's file, kept past the module's life */
    tc_backend backend;        /* as set; AUTO resolves at the first launch */
    bool backend_resolved;     /* ctx_backend's answer, once per context (driver/device.c) */
    tc_backend resolved;
    int device;                /* current device (tc_set_device / --device) */
    tc_print_fn print; void *print_user;
    Buf output;                /* device_print text when no print callback is set */
    tc_launch_report last;     /* what the last launch did */
    struct TuneContext *tune;  /* owned by tune/ (tune_context_free) */
    tc_check_finding *findings; int nfindings;  /* the last launch's check findings (malloc'd) */
};

/* Sets ctx->err and returns its code (for `return ctx_fail(ctx, ...)`). */
tc_status ctx_fail(tc_context *ctx, tc_status code, const char *fmt, ...) TC_PRINTF(3, 4);
/* Copies an Err from a stage into ctx->err and returns its code. */
tc_status ctx_take(tc_context *ctx, const Err *e);
/* Text for the user (device_print, static_print, tuning notes): to the print callback, or
 * kept for tc_take_output. ctx_keep_output is the tc_print_fn that keeps it. */
void ctx_deliver(tc_context *ctx, const char *text);
void ctx_keep_output(const char *text, void *ctx);
/* Frees the context itself; what upper layers hang on it is theirs to free first. */
void ctx_free(tc_context *ctx);

#endif
