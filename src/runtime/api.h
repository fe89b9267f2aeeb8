/* api.h — the internal shape of the public handles, shared by api.c (modules, kernels,
 * tensors, launch), device.c (driver, target, devices) and jit.c (specialization cache).
 * Fields may be added; existing ones keep their meaning. */
#ifndef API_H
#define API_H

#include "base/tc.h"

struct tc_context {
    Err err;                   /* the last error (code, message, location) */
    tc_backend backend;        /* as set; AUTO resolves at launch */
    int device;                /* current device (tc_set_device / --device) */
    tc_print_fn print; void *print_user;
    tc_launch_report last;     /* what the last launch did */
    void *priv;                /* api.c's own state */
    void *tune;                /* tune.c's state: tuning database, last tuning (tune_context_free) */
};

/* Sets ctx->err and returns its code (for `return ctx_fail(ctx, ...)`). */
tc_status ctx_fail(tc_context *ctx, tc_status code, const char *fmt, ...) TC_PRINTF(3, 4);
/* Copies an Err from a stage into ctx->err and returns its code. */
tc_status ctx_take(tc_context *ctx, const Err *e);

#endif
