/* device.c — the public hardware API: which driver is active, which target, which device
 * properties, and which backend a context runs on. A thin layer over cuda.c that puts the
 * answers and errors on the context. */
#include "base/context.h"
#include "base/target.h"
#include "driver/cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEED_CTX(ctx) do { if (!(ctx)) return TC_ERR_ARG; } while (0)
#define NEED_OUT(ctx, p, what) \
    do { if (!(p)) return ctx_fail((ctx), TC_ERR_ARG, "%s: NULL output pointer", (what)); } while (0)

tc_status tc_active_driver(tc_context *ctx, const char **name) {
    NEED_CTX(ctx);
    NEED_OUT(ctx, name, "tc_active_driver");
    Err e = {0};
    if (driver_active(name, &e)) return ctx_take(ctx, &e);
    return TC_OK;
}

tc_status tc_driver_version(tc_context *ctx, const char **library, int *version) {
    NEED_CTX(ctx);
    if (!library && !version) return ctx_fail(ctx, TC_ERR_ARG, "tc_driver_version: NULL outputs");
    const char *name;
    Err e = {0};
    if (driver_active(&name, &e)) return ctx_take(ctx, &e);
    if (cuda_driver_version(library, version, &e)) return ctx_take(ctx, &e);
    return TC_OK;
}

tc_status tc_current_target(tc_context *ctx, tc_target *out) {
    NEED_CTX(ctx);
    NEED_OUT(ctx, out, "tc_current_target");
    const char *name;
    Err e = {0};
    /* As Triton: the target question goes through driver discovery first, so with no
     * driver it fails with the same words as the first question. */
    if (driver_active(&name, &e)) return ctx_take(ctx, &e);
    bool overridden = false;
    if (cuda_target(ctx->device, out, &overridden, &e)) return ctx_take(ctx, &e);
    return TC_OK;
}

void tc_target_str(const tc_target *t, char *buf, size_t n) {
    if (!buf || !n) return;
    if (!t) { snprintf(buf, n, "(none)"); return; }
    snprintf(buf, n, "%s:%d", t->backend, t->arch);
}

void tc_target_triton_str(const tc_target *t, char *buf, size_t n) {
    if (!buf || !n) return;
    if (!t) { snprintf(buf, n, "None"); return; }
    snprintf(buf, n, "GPUTarget(backend='%s', arch=%d, warp_size=%d)", t->backend, t->arch,
             t->warp_size);
}

/* The syntax is target_parse's; the table decides which archs are targets. */
tc_status tc_target_parse(const char *s, tc_target *out) {
    tc_target t;
    tc_status st = target_parse(s, &t);
    if (st) return st;
    if (!out || !target_lookup(&t, NULL, 0)) return TC_ERR_ARG;
    *out = t;
    return TC_OK;
}

const char *tc_target_names(void) { return target_names(); }

tc_status tc_device_count(tc_context *ctx, int *count) {
    NEED_CTX(ctx);
    NEED_OUT(ctx, count, "tc_device_count");
    Err e = {0};
    *count = 0;
    if (cuda_device_count(count, &e)) return ctx_take(ctx, &e);
    return TC_OK;
}

tc_status tc_device_properties(tc_context *ctx, int device, tc_device_props *out) {
    NEED_CTX(ctx);
    NEED_OUT(ctx, out, "tc_device_properties");
    Err e = {0};
    if (cuda_device_props(device, out, &e)) return ctx_take(ctx, &e);
    return TC_OK;
}

/* TC_OK if device is one of the driver's, else the error on ctx. */
static tc_status device_arg(tc_context *ctx, int device) {
    Err e = {0};
    int n = 0;
    if (cuda_device_count(&n, &e)) return ctx_take(ctx, &e);
    if (device < 0 || device >= n)
        return ctx_fail(ctx, TC_ERR_NOT_FOUND, "invalid device %d: there %s %d CUDA device%s",
                        device, n == 1 ? "is" : "are", n, n == 1 ? "" : "s");
    return TC_OK;
}

tc_status tc_set_device(tc_context *ctx, int device) {
    NEED_CTX(ctx);
    tc_status rc = device_arg(ctx, device);
    if (rc) return rc;
    ctx->device = device;
    ctx->cu_ctx = NULL;   /* the new device's primary context */
    return TC_OK;
}

int tc_current_device(const tc_context *ctx) { return ctx ? ctx->device : 0; }

tc_status tc_context_set_cuda_context(tc_context *ctx, int device, void *cu_context) {
    NEED_CTX(ctx);
    tc_status rc = device_arg(ctx, device);
    if (rc) return rc;
    ctx->device = device;
    ctx->cu_ctx = cu_context;
    return TC_OK;
}

tc_status ctx_use_cuda(tc_context *ctx, Err *e) {
    return cuda_use_context(ctx->device, ctx->cu_ctx, e);
}

/* ---- streams ------------------------------------------------------------------------- */

tc_status tc_stream_new(tc_context *ctx, void **stream) {
    NEED_CTX(ctx);
    NEED_OUT(ctx, stream, "tc_stream_new");
    *stream = NULL;
    tc_backend b;
    tc_status rc = ctx_backend(ctx, &b);
    if (rc || b != TC_BACKEND_CUDA) return rc;
    Err e = {0};
    if (ctx_use_cuda(ctx, &e) || cuda_stream_new(stream, &e)) return ctx_take(ctx, &e);
    return TC_OK;
}

void tc_stream_free(tc_context *ctx, void *stream) {
    Err e = {0};
    if (ctx && stream && ctx_use_cuda(ctx, &e) == TC_OK) cuda_stream_free(stream);
}

tc_status tc_stream_synchronize(tc_context *ctx, void *stream) {
    NEED_CTX(ctx);
    tc_backend b;
    tc_status rc = ctx_backend(ctx, &b);
    if (rc || b != TC_BACKEND_CUDA) return rc;
    Err e = {0};
    if (ctx_use_cuda(ctx, &e) || cuda_stream_sync(stream, &e)) return ctx_take(ctx, &e);
    return TC_OK;
}

/* ---- the context's backend ----------------------------------------------------------- */

tc_status tc_context_set_backend(tc_context *ctx, tc_backend b) {
    if (!ctx) return TC_ERR_ARG;
    if (b != TC_BACKEND_AUTO && b != TC_BACKEND_INTERPRET && b != TC_BACKEND_CUDA)
        return ctx_fail(ctx, TC_ERR_ARG, "unknown backend %d", (int)b);
    ctx->backend = b;
    atomic_store(&ctx->backend_resolved, false);
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

tc_status ctx_backend(tc_context *ctx, tc_backend *out) {
    /* resolved once; launches on several threads read it (acquire pairs with the release) */
    if (atomic_load_explicit(&ctx->backend_resolved, memory_order_acquire)) {
        *out = ctx->resolved;
        return TC_OK;
    }
    pthread_mutex_lock(&ctx->lock);
    bool done = atomic_load_explicit(&ctx->backend_resolved, memory_order_relaxed);
    tc_backend b = done ? ctx->resolved : ctx->backend;
    pthread_mutex_unlock(&ctx->lock);
    if (done) { *out = b; return TC_OK; }
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
    pthread_mutex_lock(&ctx->lock);   /* the first thread to finish decides */
    if (!atomic_load_explicit(&ctx->backend_resolved, memory_order_relaxed)) {
        ctx->resolved = b;
        atomic_store_explicit(&ctx->backend_resolved, true, memory_order_release);
    }
    b = ctx->resolved;
    pthread_mutex_unlock(&ctx->lock);
    *out = b;
    return TC_OK;
}

tc_status tc_context_backend(tc_context *ctx, tc_backend *out) {
    if (!ctx || !out) return TC_ERR_ARG;
    return ctx_backend(ctx, out);
}

/* ---- the answers host code gets ------------------------------------------------------- */

tc_status hw_answer(int dev, bool use_env, tc_target *t, tc_device_props *p, bool *assumed, Err *e) {
    const char *env = use_env ? getenv("TRITONC_TARGET") : NULL;
    *assumed = false;
    if (env && *env) {
        tc_target tt;
        const TargetInfo *ti = target_parse(env, &tt) == TC_OK ? target_lookup(&tt, NULL, 0) : NULL;
        const NominalDevice *nd = ti ? target_nominal(tt.arch) : NULL;
        if (!ti || !nd) {
            err_set(e, TC_ERR_ARG, (SrcLoc){0}, "TRITONC_TARGET=%s: %s", env,
                    ti ? "tritonc has no nominal device of that architecture to assume "
                         "(cuda:80, 86, 89, 90, 100, 120 have one)"
                       : "not a target tritonc knows");
            return TC_ERR_ARG;
        }
        *t = tt;
        *assumed = true;
        if (p) {
            memset(p, 0, sizeof *p);
            snprintf(p->name, sizeof p->name, "%s", nd->name);
            p->major = tt.arch / 10;
            p->minor = tt.arch % 10;
            p->multiprocessor_count = nd->sms;
            p->total_memory = (size_t)nd->total_memory;
            p->l2_cache_size = nd->l2_cache;
            p->max_shared_memory_per_block_optin = ti->smem_block;
            p->max_shared_memory_per_multiprocessor = ti->smem_sm;
            p->max_registers_per_block = ti->regs_block;
            p->warp_size = 32;
            p->max_threads_per_block = 1024;
        }
        return TC_OK;
    }
    const char *name;
    if (driver_active(&name, e)) return e->code;
    bool overridden = false;
    if (cuda_target(dev, t, &overridden, e)) return e->code;
    if (p && cuda_device_props(dev, p, e)) return e->code;
    return TC_OK;
}

tc_status tc_assumed_device(tc_context *ctx, tc_target *t, tc_device_props *p) {
    NEED_CTX(ctx);
    NEED_OUT(ctx, t, "tc_assumed_device");
    const char *env = getenv("TRITONC_TARGET");
    if (!env || !*env) return ctx_fail(ctx, TC_ERR_NOT_FOUND, "TRITONC_TARGET is not set: no target is assumed");
    Err e = {0};
    bool assumed;
    if (hw_answer(ctx->device, true, t, p, &assumed, &e)) return ctx_take(ctx, &e);
    return TC_OK;
}
