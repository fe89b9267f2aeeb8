/* device.c — the public hardware API: which driver is active, which target, which device
 * properties, and which backend a context runs on. A thin layer over cuda.c that puts the
 * answers and errors on the context. */
#include "base/context.h"
#include "driver/cuda.h"

#include <ctype.h>
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

/* "cuda:80", "cuda:90a", "sm_90a", "sm80", "80". Hopper and later always compile for the
 * arch-specific "a" variant (Triton's rule: suffix "a" when arch >= 90). */
tc_status tc_target_parse(const char *s, tc_target *out) {
    if (!s || !out) return TC_ERR_ARG;
    const char *p = s;
    if (strncmp(p, "cuda:", 5) == 0) p += 5;
    else if (strchr(p, ':')) return TC_ERR_UNSUPPORTED; /* hip:gfx942 and others */
    if (strncmp(p, "sm_", 3) == 0) p += 3;
    else if (strncmp(p, "sm", 2) == 0) p += 2;
    if (!isdigit((unsigned char)*p)) return TC_ERR_ARG;
    int arch = 0, digits = 0;
    while (isdigit((unsigned char)*p)) {
        arch = arch * 10 + (*p++ - '0');
        if (++digits > 4) return TC_ERR_ARG;
    }
    bool a = false;
    if (*p == 'a') a = true, p++;
    if (*p || arch < 10 || arch > 999) return TC_ERR_ARG;
    if (a && arch < 90) return TC_ERR_ARG; /* sm_80a does not exist */
    memset(out, 0, sizeof *out);
    snprintf(out->backend, sizeof out->backend, "cuda");
    out->arch = arch;
    out->warp_size = 32;
    out->arch_suffix_a = arch >= 90;
    return TC_OK;
}

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

tc_status tc_set_device(tc_context *ctx, int device) {
    NEED_CTX(ctx);
    Err e = {0};
    int n = 0;
    if (cuda_device_count(&n, &e)) return ctx_take(ctx, &e);
    if (device < 0 || device >= n)
        return ctx_fail(ctx, TC_ERR_NOT_FOUND, "invalid device %d: there %s %d CUDA device%s",
                        device, n == 1 ? "is" : "are", n, n == 1 ? "" : "s");
    ctx->device = device;
    return TC_OK;
}

int tc_current_device(const tc_context *ctx) { return ctx ? ctx->device : 0; }

/* ---- the context's backend ----------------------------------------------------------- */

tc_status tc_context_set_backend(tc_context *ctx, tc_backend b) {
    if (!ctx) return TC_ERR_ARG;
    if (b != TC_BACKEND_AUTO && b != TC_BACKEND_INTERPRET && b != TC_BACKEND_CUDA)
        return ctx_fail(ctx, TC_ERR_ARG, "unknown backend %d", (int)b);
    ctx->backend = b;
    ctx->backend_resolved = false;
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
    if (ctx->backend_resolved) { *out = ctx->resolved; return TC_OK; }
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
    ctx->resolved = b;
    ctx->backend_resolved = true;
    *out = b;
    return TC_OK;
}

tc_status tc_context_backend(tc_context *ctx, tc_backend *out) {
    if (!ctx || !out) return TC_ERR_ARG;
    return ctx_backend(ctx, out);
}
