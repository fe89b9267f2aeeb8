/* api.c — the top of the library: the public calls that span layers. A launch goes to the
 * autotuner (tune/) when the kernel has @triton.autotune or @triton.heuristics, else
 * straight to the JIT (runtime/); freeing a context or a module frees what the autotuner
 * keeps on it first. Every other public call lives in the layer that owns it:
 * base/context.c (contexts, errors, values), driver/device.c (driver, target, devices,
 * backend), runtime/ (modules, kernels, tensors, arguments, the disk cache), aot/
 * (ahead-of-time compilation) and tune/ (benchmarking and autotuning). */
#include "runtime/jit.h"
#include "tune/tune.h"

#include <stdlib.h>
#include <string.h>

/* ---- graphs: CUDA graphs, or under the interpreter a recorded list of launches ---------- */

typedef struct GraphRec { tc_kernel *k; tc_args *a; tc_launch_opts o; } GraphRec;

struct tc_graph {
    tc_context *ctx;
    tc_backend backend;
    void *exec;              /* CUDA: the instantiated graph */
    int nkernels;            /* launches captured */
    GraphRec *recs; int cap; /* interpreter: the launches, with copies of their arguments */
};

/* What a thread is capturing (CtxThread.capture). */
struct CtxCapture { tc_graph *g; void *stream; };

static void graph_free_recs(tc_graph *g) {
    for (int i = 0; i < g->nkernels && g->recs; i++) tc_args_free(g->recs[i].a);
    free(g->recs);
    g->recs = NULL;
}

/* An interpreter launch while recording: the kernel, a copy of the arguments, the options. */
static tc_status graph_record(tc_graph *g, tc_kernel *k, const tc_args *a, const tc_launch_opts *o) {
    tc_context *ctx = g->ctx;
    if (!a) return ctx_fail(ctx, TC_ERR_ARG, "tc_launch: NULL argument list");
    if (a->k != k)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_launch: the argument list was made for %s, not %s",
                        a->k->signature, k->signature);
    if (g->nkernels == g->cap) {
        int nc = g->cap ? g->cap * 2 : 16;
        GraphRec *r = realloc(g->recs, sizeof *r * (size_t)nc);
        if (!r) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory recording a launch");
        g->recs = r;
        g->cap = nc;
    }
    tc_args *c = NULL;
    tc_status rc = tc_args_new(k, &c);
    for (int i = 0; rc == TC_OK && i < a->n; i++)
        if (a->slots[i].set) rc = tc_args_set_at(c, i, a->slots[i].v);
    if (rc) { tc_args_free(c); return rc; }
    g->recs[g->nkernels++] = (GraphRec){k, c, *o};
    return TC_OK;
}

tc_status tc_graph_begin(tc_context *ctx, void *stream) {
    if (!ctx) return TC_ERR_ARG;
    CtxThread *t = ctx_thread(ctx);
    if (t->capture)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_graph_begin: this thread is already capturing a graph");
    tc_backend b;
    tc_status rc = ctx_backend(ctx, &b);
    if (rc) return rc;
    if (b == TC_BACKEND_CUDA && !stream)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_graph_begin: the default (NULL) stream cannot be "
                        "captured; use a stream of your own (tc_stream_new)");
    tc_graph *g = calloc(1, sizeof *g);
    struct CtxCapture *c = calloc(1, sizeof *c);
    if (!g || !c) { free(g); free(c); return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); }
    g->ctx = ctx;
    g->backend = b;
    c->g = g;
    c->stream = stream;
    if (b == TC_BACKEND_CUDA) {
        Err e = {0};
        if (ctx_use_cuda(ctx, &e) || cuda_capture_begin(stream, &e)) {
            free(g);
            free(c);
            return ctx_take(ctx, &e);
        }
    }
    t->capture = c;
    return TC_OK;
}

tc_status tc_graph_end(tc_context *ctx, void *stream, tc_graph **out) {
    if (!ctx) return TC_ERR_ARG;
    if (out) *out = NULL;
    CtxThread *t = ctx_thread(ctx);
    struct CtxCapture *c = t->capture;
    if (!c) return ctx_fail(ctx, TC_ERR_ARG, "tc_graph_end: this thread is not capturing a graph "
                            "(tc_graph_begin)");
    if (c->stream != stream)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_graph_end: the capture began on stream %p, not %p",
                        c->stream, stream);
    t->capture = NULL;
    tc_graph *g = c->g;
    free(c);
    tc_status rc = TC_OK;
    if (g->backend == TC_BACKEND_CUDA) {
        Err e = {0};
        int nodes = 0;
        if (ctx_use_cuda(ctx, &e) || cuda_capture_end(stream, &g->exec, &nodes, &e))
            rc = ctx_take(ctx, &e);
    }
    if (!rc && !out) rc = ctx_fail(ctx, TC_ERR_ARG, "tc_graph_end: NULL output pointer");
    if (rc) { tc_graph_free(g); return rc; }
    *out = g;
    return TC_OK;
}

tc_status tc_graph_launch(tc_graph *g, void *stream) {
    if (!g) return TC_ERR_ARG;
    tc_context *ctx = g->ctx;
    if (g->backend == TC_BACKEND_CUDA) {
        Err e = {0};
        if (ctx_use_cuda(ctx, &e) || cuda_graph_launch(g->exec, stream, &e)) return ctx_take(ctx, &e);
        return TC_OK;
    }
    for (int i = 0; i < g->nkernels; i++) {
        tc_status rc = tc_launch(g->recs[i].k, g->recs[i].a, &g->recs[i].o);
        if (rc) return rc;
    }
    return TC_OK;
}

int tc_graph_kernel_count(const tc_graph *g) { return g ? g->nkernels : 0; }

void tc_graph_free(tc_graph *g) {
    if (!g) return;
    if (g->exec) {
        Err e = {0};
        if (ctx_use_cuda(g->ctx, &e) == TC_OK) cuda_graph_free(g->exec);
    }
    graph_free_recs(g);
    free(g);
}

/* ---- launch ------------------------------------------------------------------------------ */

tc_status tc_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    tc_launch_opts o;
    tc_status rc = jit_opts(ctx, opts, &o);
    if (rc) return rc;
    struct CtxCapture *cap = ctx_thread(ctx)->capture;
    if (cap && cap->g->backend != TC_BACKEND_CUDA) return graph_record(cap->g, k, a, &o);
    if (tune_wanted(k)) {   /* the autotuner's state is the context's: one launch at a time */
        pthread_mutex_lock(&ctx->tune_lock);
        rc = tune_launch(k, a, &o);
        pthread_mutex_unlock(&ctx->tune_lock);
    } else {
        rc = jit_launch(k, a, &o);
    }
    if (rc == TC_OK && cap) cap->g->nkernels++;
    return rc;
}

void tc_context_free(tc_context *ctx) {
    if (!ctx) return;
    for (CtxThread *t = ctx->threads; t; t = t->next)   /* captures never ended */
        if (t->capture) {
            tc_graph_free(t->capture->g);
            free(t->capture);
            t->capture = NULL;
        }
    tune_context_free(ctx);
    ctx_free(ctx);
}

void tc_module_free(tc_module *m) {
    if (!m) return;
    for (int i = 0; i < m->nkernels; i++)
        if (m->kernels[i]) tune_kernel_free(m->kernels[i]);
    module_handle_free(m);
}
