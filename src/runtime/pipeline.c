/* pipeline.c — the compiler, start to end, for one specialization of a kernel:
 *
 *   source ─ lex, parse (front/, when the module loaded) ─► AST
 *          ─ trace (trace/): the AST walked with constexprs known ─► tile IR
 *          ─ verify, fold, CSE, DCE (ir/)
 *          ├─► the interpreter runs the IR (interp/)
 *          └─► GPU: the disk cache (cache.c), or layouts and lowering to PTX (gpu/) and
 *              stored; then loaded through the driver (driver/)
 *
 * pipeline_compile is that picture in code; jit.c calls it for each new specialization. */
#include "runtime/jit.h"
#include "runtime/cache.h"
#include "driver/cuda.h"
#include "gpu/gpu.h"
#include "trace/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The driver's cubin of our PTX, for the disk cache to keep so that a warm start loads it
 * with no PTX JIT; TRITONC_CACHE_CUBIN=0 keeps PTX only. -1: none (load the PTX). */
static int driver_cubin(const char *ptx, void **cubin, size_t *n) {
    const char *off = getenv("TRITONC_CACHE_CUBIN");
    if (off && strcmp(off, "0") == 0) return -1;
    return cuda_ptx_to_cubin(ptx, cubin, n);
}

/* The code of one traced specialization under CUDA, from the disk cache when it holds it,
 * else lowered with gpu_compile (and stored); then loaded. spec is the launch's
 * specialization string. code->cache_event gets a tc_cache_event and code->note a sentence
 * for --verbose when an entry was refused or could not be stored. */
static tc_status gpu_module(const tc_kernel *k, const IrFunc *f, const char *spec,
                            const PipelineGpu *g, PipelineCode *code, Err *e) {
    const tc_target *t = g->target;
    int num_warps = g->num_warps, num_stages = g->num_stages;
    CuModule **out = &code->cu;
    int *threads = &code->threads, *shared_bytes = &code->shared_bytes;
    int *cache_event = &code->cache_event;
    char *note = code->note;
    size_t noten = sizeof code->note;
    note[0] = 0;
    *cache_event = TC_CACHE_UNUSED;
    CacheKey key;
    /* a truncated specialization string ("...") cannot be a key */
    size_t sl = strlen(spec);
    bool use = !(sl >= 3 && strcmp(spec + sl - 3, "...") == 0) &&
               cache_key_make(&key, k->m->src->text, k->m->src->len, k->fn->name, spec,
                              num_warps, num_stages, t);
    CacheResult cr = CACHE_OFF;
    if (use) {
        CacheEntry ent;
        void *mem = NULL;
        cr = cache_lookup(&key, &ent, &mem, note, noten);
        bool ok = cr == CACHE_HIT && ent.meta.nparams == f->nparams;
        for (int j = 0; ok && j < f->nparams; j++) {
            const IrParam *p = &f->params[j];
            bool ptr = p->type.dt == DT_PTR;
            int dt = ptr ? p->type.elem : p->type.dt;
            if (!!(ent.meta.params[j].flags & CACHE_PARAM_PTR) != ptr || ent.meta.params[j].dtype != dt)
                ok = false;
        }
        if (cr == CACHE_HIT && !ok) {
            snprintf(note, noten, "disk cache entry %s.tcc does not match the kernel's "
                     "parameters: recompiled", key.hex);
            cr = CACHE_CORRUPT;
        }
        if (cr == CACHE_HIT) {
            tc_status rc = TC_ERR_DRIVER;
            if (ent.cubin_len) {
                rc = cuda_module_load_cubin(ent.cubin, ent.cubin_len, ent.meta.kernel,
                                            ent.meta.shared_bytes, out, e);
            } else {
                /* PTX only (stored by `tritonc compile`): have the driver make the cubin once
                 * and keep it in the entry, so that later processes skip the PTX JIT */
                void *cub = NULL;
                size_t cubn = 0;
                if (driver_cubin(ent.ptx, &cub, &cubn) == 0) {
                    Err le = {0};
                    rc = cuda_module_load_cubin(cub, cubn, ent.meta.kernel, ent.meta.shared_bytes, out, &le);
                    char why[256];
                    if (rc == TC_OK)
                        cache_store(&key, &ent.meta, ent.ptx, cub, cubn, why, sizeof why);
                    free(cub);
                }
            }
            if (rc) rc = cuda_module_load(ent.ptx, ent.meta.kernel, ent.meta.shared_bytes, out, e);
            *threads = ent.meta.threads;
            *shared_bytes = ent.meta.shared_bytes;
            free(mem);
            if (rc == TC_OK) *cache_event = TC_CACHE_HIT;
            return rc;
        }
        free(mem);
    }
    GpuKernel gk;
    memset(&gk, 0, sizeof gk);
    tc_status rc = gpu_compile(f, t, num_warps, num_stages, g->max_shared, &gk, e);
    if (rc) { gpu_kernel_free(&gk); return rc; }
    /* one more program per SM where the registers allow it; the cache keeps that PTX */
    char *occ = cuda_ptx_occupancy(gk.ptx, gk.name, gk.shared_bytes);
    if (occ) { free(gk.ptx); gk.ptx = occ; }
    *threads = gk.threads > 0 ? gk.threads : num_warps * 32;
    *shared_bytes = gk.shared_bytes;
    void *cub = NULL;
    size_t cubn = 0;
    rc = TC_ERR_NOT_FOUND;
    if (use && cr != CACHE_OFF && driver_cubin(gk.ptx, &cub, &cubn) == 0) {
        Err le = {0};
        rc = cuda_module_load_cubin(cub, cubn, gk.name, gk.shared_bytes, out, &le);
        if (rc) { free(cub); cub = NULL; cubn = 0; }
    }
    if (rc) rc = cuda_module_load(gk.ptx, gk.name, gk.shared_bytes, out, e);
    if (rc == TC_OK && use && cr != CACHE_OFF) {
        CacheMeta m;
        memset(&m, 0, sizeof m);
        snprintf(m.kernel, sizeof m.kernel, "%s", gk.name);
        cache_target_name(t, m.target, sizeof m.target);
        m.threads = *threads;
        m.shared_bytes = gk.shared_bytes;
        m.num_regs = cuda_module_num_regs(*out);
        if (m.num_regs < 0 || m.num_regs > 255) m.num_regs = 0;
        m.num_warps = num_warps;
        m.num_stages = num_stages;
        m.nparams = f->nparams <= CACHE_MAX_PARAMS ? f->nparams : 0;
        for (int j = 0; j < m.nparams; j++) {
            const IrParam *p = &f->params[j];
            bool ptr = p->type.dt == DT_PTR;
            m.params[j].index = (uint16_t)j;
            m.params[j].dtype = (uint8_t)(ptr ? p->type.elem : p->type.dt);
            m.params[j].flags = (uint8_t)((ptr ? CACHE_PARAM_PTR : 0) | (p->div16 ? CACHE_PARAM_DIV16 : 0));
        }
        char why[256];
        if (f->nparams <= CACHE_MAX_PARAMS &&
            cache_store(&key, &m, gk.ptx, cub, cubn, why, sizeof why) != 0 && note && !note[0])
            snprintf(note, noten, "not stored in the disk cache: %.200s", why);
        *cache_event = cr == CACHE_CORRUPT ? TC_CACHE_CORRUPT
                       : cr == CACHE_BYPASS ? TC_CACHE_BYPASSED : TC_CACHE_MISS;
    }
    free(cub);
    gpu_kernel_free(&gk);
    return rc;
}

/* Which kernel parameter each of the IR's parameters is (the tracer keeps only those given
 * at run time, in its own order). */
static tc_status bind_params(const tc_kernel *k, const SpecArg *args, const IrFunc *f,
                             Arena *arena, int **ir_param, Err *e) {
    if (f->nparams > JIT_MAX_PARAMS) {
        err_set(e, TC_ERR_LIMIT, (SrcLoc){0}, "%s has more than %d runtime parameters",
                k->signature, JIT_MAX_PARAMS);
        return e->code;
    }
    int *map = arena_alloc(arena, sizeof *map * (size_t)(f->nparams + 1));
    for (int j = 0; j < f->nparams; j++) {
        int idx = -1;
        for (int i = 0; i < k->fn->nparams; i++)
            if (strcmp(k->fn->params[i].name, f->params[j].name) == 0) { idx = i; break; }
        if (idx < 0) {
            err_set(e, TC_ERR_INTERNAL, (SrcLoc){0}, "internal error: traced parameter '%s' is "
                    "not a parameter of %s", f->params[j].name, k->signature);
            return e->code;
        }
        if (args[idx].missing || args[idx].is_constexpr) {
            err_set(e, TC_ERR_UNSUPPORTED, (SrcLoc){0}, "%s: parameter '%s' has a default that "
                    "is not a literal; pass it explicitly", k->signature, k->fn->params[idx].name);
            return e->code;
        }
        map[j] = idx;
    }
    *ir_param = map;
    return TC_OK;
}

tc_status pipeline_compile(const tc_kernel *k, const SpecArg *args, const char *spec,
                           const PipelineGpu *gpu, Arena *arena, Buf *text, IrFunc **ir,
                           int **ir_param, PipelineCode *code, Err *e) {
    jmp_buf jb;
    *ir = trace_kernel(k->m->mod, k->fn, args, arena, e, text);  /* trace, verify, optimize */
    if (!*ir) return e->code != TC_OK ? e->code : (e->code = TC_ERR_INTERNAL);
    Err *saved = arena->err;                  /* arena_alloc fails through e */
    arena->err = e;
    if (ERR_TRY(e, jb)) { arena->err = saved; e->jump = NULL; return e->code; }
    tc_status rc = bind_params(k, args, *ir, arena, ir_param, e);
    arena->err = saved;
    e->jump = NULL;
    if (rc || !gpu) return rc;                /* the interpreter runs the IR as it is */
    return gpu_module(k, *ir, spec, gpu, code, e);
}
