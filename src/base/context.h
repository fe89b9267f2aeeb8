/* context.h — the context every public call works in: its backend, where device_print text
 * goes, and per thread its last error and what the last launch did. The bottom layer, so that every
 * layer above can fail through ctx_fail/ctx_take (context.c). Fields may be added; existing
 * ones keep their meaning. */
#ifndef CONTEXT_H
#define CONTEXT_H

#include "base/tc.h"

#include <pthread.h>
#include <stdatomic.h>

struct TuneContext;            /* the autotuner's state (tune/), created on first use */
struct CtxCapture;             /* an interpreter graph being recorded (runtime/graph.c) */

/* What one thread's calls on a context did: its last error, last launch and last tuning
 * (tritonc.h: these are per thread). Created on a thread's first use of the context, kept
 * until the context is freed. */
typedef struct CtxThread {
    struct CtxThread *next;
    pthread_t tid;
    Err err;                   /* the last error (code, message, location) */
    char errfile[512];         /* the last error's file, kept past the module's life */
    tc_launch_report last;     /* what the last launch did */
    tc_tune_report tune;       /* the last autotuning decision (tune/ fills it) */
    tc_tune_result *tune_res;  /* its results (malloc'd) */
    bool has_tune;
    struct CtxCapture *capture; /* interpreter: the graph this thread is recording, if any */
    tc_check_finding *findings; int nfindings;  /* the last launch's check findings (malloc'd) */
} CtxThread;

struct tc_context {
    tc_backend backend;        /* as set; AUTO resolves at the first launch */
    _Atomic bool backend_resolved; /* ctx_backend's answer, once per context (driver/device.c) */
    tc_backend resolved;
    int device;                /* current device (tc_set_device / --device) */
    void *cu_ctx;              /* the caller's CUcontext for device (NULL: the primary one) */
    tc_print_fn print; void *print_user;
    tc_alloc_fn alloc; tc_release_fn release; void *alloc_user;  /* tc_set_allocator */
    Buf output;                /* device_print text when no print callback is set */
    struct TuneContext *tune;  /* owned by tune/ (tune_context_free) */
    uint64_t id;               /* unique per context in this process (never reused) */
    pthread_mutex_t lock;      /* guards threads, output, backend resolution */
    pthread_mutex_t tune_lock; /* autotuned launches run one at a time (recursive) */
    CtxThread *threads;        /* one per thread that used the context */
    CtxThread shared;          /* used when a thread's record cannot be allocated */
};

/* The calling thread's record on ctx (never NULL: ctx->shared when out of memory). */
CtxThread *ctx_thread(const tc_context *ctx);
/* This thread's last error and last launch report on ctx. */
#define ctx_err(ctx) (&ctx_thread(ctx)->err)
#define ctx_last(ctx) (&ctx_thread(ctx)->last)
/* Drops every thread's error location pointing into src (a module being freed). */
void ctx_forget_source(tc_context *ctx, const void *src);

/* Sets this thread's error on ctx and returns its code (for `return ctx_fail(ctx, ...)`). */
tc_status ctx_fail(tc_context *ctx, tc_status code, const char *fmt, ...) TC_PRINTF(3, 4);
/* Copies an Err from a stage into this thread's error and returns its code. */
tc_status ctx_take(tc_context *ctx, const Err *e);
/* Text for the user (device_print, static_print, tuning notes): to the print callback, or
 * kept for tc_take_output. ctx_keep_output is the tc_print_fn that keeps it. */
void ctx_deliver(tc_context *ctx, const char *text);
void ctx_keep_output(const char *text, void *ctx);
/* Frees the context itself; what upper layers hang on it is theirs to free first. */
void ctx_free(tc_context *ctx);

#endif
