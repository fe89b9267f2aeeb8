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

#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static bool params_match(const CacheMeta *m, const IrFunc *f) {
    if (m->nparams != f->nparams) return false;
    for (int j = 0; j < f->nparams; j++) {
        const IrParam *p = &f->params[j];
        bool ptr = p->type.dt == DT_PTR;
        int dt = ptr ? p->type.elem : p->type.dt;
        if (!!(m->params[j].flags & CACHE_PARAM_PTR) != ptr || m->params[j].dtype != dt)
            return false;
    }
    return true;
}

/* cache_lookup, and an entry for other parameters counts as damaged. */
static CacheResult lookup(const CacheKey *key, const IrFunc *f, CacheEntry *ent, void **mem,
                          char *note, size_t noten) {
    CacheResult cr = cache_lookup(key, ent, mem, note, noten);
    if (cr == CACHE_HIT && !params_match(&ent->meta, f)) {
        snprintf(note, noten, "disk cache entry %s.tcc does not match the kernel's parameters: "
                 "recompiled", key->hex);
        free(*mem);
        *mem = NULL;
        cr = CACHE_CORRUPT;
    }
    return cr;
}

/* Triton's switch `on` (set, not "" or "0") and its directory: $dirvar, else ~/.triton/<sub>.
 * 0: switched off; -1: on, but neither the variable nor HOME is set; 1: dir filled. */
static int triton_dir(const char *on, const char *dirvar, const char *sub, char *dir, size_t n) {
    const char *v = getenv(on), *d = getenv(dirvar), *home = getenv("HOME");
    if (!v || !*v || !strcmp(v, "0")) return 0;
    if (d && *d) snprintf(dir, n, "%s", d);
    else if (home && *home) snprintf(dir, n, "%s/.triton/%s", home, sub);
    else return -1;
    return 1;
}

/* TRITON_KERNEL_DUMP=1, as Triton names it: the PTX a launch loads (and the tile IR it was
 * lowered from) go to $TRITON_DUMP_DIR (default ~/.triton/dump)/<key>/<kernel>.ptx and
 * <kernel>.tcir, for a new specialization whether compiled or read from the disk cache. A
 * failure is a note for --verbose, never an error. */
static void dump_kernel(const IrFunc *f, const char *hex, const char *name, const char *ptx,
                        char *note, size_t noten) {
    char dir[4096], path[4200], why[256];
    int at = triton_dir("TRITON_KERNEL_DUMP", "TRITON_DUMP_DIR", "dump", dir, sizeof dir);
    if (at == 0) return;
    if (at < 0) { snprintf(note, noten, "TRITON_KERNEL_DUMP: neither TRITON_DUMP_DIR nor HOME is set"); return; }
    char hx[65];
    if (hex && hex[0]) snprintf(hx, sizeof hx, "%s", hex);
    else snprintf(hx, sizeof hx, "%016llx", (unsigned long long)hash_bytes(ptx, strlen(ptx), 0));
    /* the directory and the key's folder under it (mkdir -p) */
    for (char *p = dir + 1; ; p++) {
        char c = *p;
        if (c == '/' || c == 0) {
            *p = 0;
            if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
                snprintf(note, noten, "TRITON_KERNEL_DUMP: cannot create %.200s: %s", dir, strerror(errno));
                return;
            }
            *p = c;
        }
        if (!c) break;
    }
    snprintf(path, sizeof path, "%s/%s", dir, hx);
    if (mkdir(path, 0700) != 0 && errno != EEXIST) {
        snprintf(note, noten, "TRITON_KERNEL_DUMP: cannot create %.200s: %s", path, strerror(errno));
        return;
    }
    snprintf(path, sizeof path, "%s/%s/%s.ptx", dir, hx, name);
    bool ok = write_file_atomic(path, ptx, strlen(ptx), 0600, true, why, sizeof why);
    if (ok && f) {
        Buf ir = {0};
        ir_print(f, &ir);
        snprintf(path, sizeof path, "%s/%s/%s.tcir", dir, hx, name);
        ok = ir.oom || write_file_atomic(path, ir.s ? ir.s : "", ir.len, 0600, true, why, sizeof why);
        buf_free(&ir);
    }
    if (!ok) snprintf(note, noten, "TRITON_KERNEL_DUMP: %.200s", why);
}

/* TRITON_KERNEL_OVERRIDE=1, as Triton names it: a specialization's PTX comes from
 * $TRITON_OVERRIDE_DIR (default ~/.triton/override)/<key>/<kernel>.ptx where that file
 * exists, the layout TRITON_KERNEL_DUMP writes (under the plain key, or the occupancy step's),
 * for hand-edited PTX. *text: the malloc'd text, with its path in path and its key in
 * *found, or NULL when off or absent; an error when the file is there but cannot be read. */
static tc_status override_ptx(const CacheKey *plain, const CacheKey *occk, const char *name,
                              char **text, const CacheKey **found, char *path, size_t pathn,
                              Err *e) {
    *text = NULL;
    char dir[4096];
    if (triton_dir("TRITON_KERNEL_OVERRIDE", "TRITON_OVERRIDE_DIR", "override", dir, sizeof dir) <= 0)
        return TC_OK;
    const CacheKey *keys[2] = {plain, occk};
    for (int i = 0; i < 2; i++) {
        snprintf(path, pathn, "%s/%s/%s.ptx", dir, keys[i]->hex, name);
        char why[256];
        int fd = open_regular(AT_FDCWD, path, false, NULL, why, sizeof why);
        if (fd < 0) {
            if (errno == ENOENT) continue;
            err_set(e, TC_ERR_IO, (SrcLoc){0}, "TRITON_KERNEL_OVERRIDE: %s", why);
            return e->code;
        }
        size_t len = 0;
        char *t = read_fd(fd, (size_t)64 << 20, &len);
        close(fd);
        if (!t || len > ((size_t)64 << 20) || strlen(t) != len) {
            err_set(e, TC_ERR_IO, (SrcLoc){0}, "TRITON_KERNEL_OVERRIDE: %s: %s", path,
                    t ? "not a PTX text of at most 64 MiB" : "cannot be read");
            free(t);
            return e->code;
        }
        *text = t;
        *found = keys[i];
        return TC_OK;
    }
    return TC_OK;
}

/* PTX to compile and load, the entry's flags (CACHE_META_*), and the cubin an entry made by
 * `tritonc compile` holds (ptxas's, of this PTX: kept when the entry is stored again). */
typedef struct GpuCode {
    const char *ptx, *name;
    int threads, shared_bytes, flags;
    const void *cubin;
    size_t cubin_len;
} GpuCode;

/* Compiles and loads c's PTX, with the occupancy step when occupancy (cuda_module_build: one
 * JIT, two when the step tries a cap), and, when store, stores the PTX that was kept: under
 * occk when the step changed it, else under plain (keys NULL: the cache is not used);
 * *stepped: whether the step changed it. The PTX that was loaded goes to TRITON_KERNEL_DUMP
 * under its key. The entry keeps no cubin: the driver's own JIT cache serves a warm start
 * (cuda.c cuda_module_build says why there is no cubin of the driver's to keep). */
static tc_status build_and_store(const CacheKey *plain, const CacheKey *occk, bool store,
                                 const GpuCode *c, bool occupancy, const IrFunc *f,
                                 const PipelineGpu *g, CuModule **out, bool *stepped,
                                 char *note, size_t noten, Err *e) {
    char *occ = NULL;
    tc_status rc = cuda_module_build(c->ptx, c->name, c->shared_bytes, occupancy, &occ, out, e);
    *stepped = occ != NULL;
    const CacheKey *key = occ ? occk : plain;
    const char *ptx = occ ? occ : c->ptx;
    dump_kernel(f, key ? key->hex : NULL, c->name, ptx, note, noten);
    if (rc == TC_OK && key && store && f->nparams <= CACHE_MAX_PARAMS) {
        CacheMeta m;
        memset(&m, 0, sizeof m);
        snprintf(m.kernel, sizeof m.kernel, "%s", c->name);
        cache_target_name(g->target, m.target, sizeof m.target);
        m.threads = c->threads;
        m.shared_bytes = c->shared_bytes;
        m.num_regs = cuda_module_num_regs(*out);
        if (m.num_regs < 0 || m.num_regs > 255) m.num_regs = 0;
        m.num_warps = g->num_warps;
        m.num_stages = g->num_stages;
        m.flags = c->flags | (occupancy && !occ ? CACHE_META_OCC_CHECKED : 0);
        m.nparams = f->nparams;
        for (int j = 0; j < m.nparams; j++) {
            const IrParam *p = &f->params[j];
            bool ptr = p->type.dt == DT_PTR;
            m.params[j].index = (uint16_t)j;
            m.params[j].dtype = (uint8_t)(ptr ? p->type.elem : p->type.dt);
            m.params[j].flags = (uint8_t)((ptr ? CACHE_PARAM_PTR : 0) | (p->div16 ? CACHE_PARAM_DIV16 : 0));
        }
        char why[256];
        if (cache_store(key, &m, ptx, occ ? NULL : c->cubin, occ ? 0 : c->cubin_len, why,
                        sizeof why) != 0 && !note[0])
            snprintf(note, noten, "not stored in the disk cache: %.200s", why);
    }
    free(occ);
    return rc;
}

/* The code of one traced specialization under CUDA, from the disk cache when it holds it,
 * else lowered with gpu_compile (and stored); then loaded. spec is the launch's
 * specialization string. code->cache_event gets a tc_cache_event and code->note a sentence
 * for --verbose when an entry was refused or could not be stored.
 *
 * The occupancy step's PTX lives under its own key (cache.h); the plain key's entry serves
 * when the step changes nothing (CACHE_META_OCC_CHECKED), and an entry that `tritonc
 * compile` made gets the step once, here. */
static tc_status gpu_module(const tc_kernel *k, const IrFunc *f, const char *spec,
                            const PipelineGpu *g, PipelineCode *code, Err *e) {
    const tc_target *t = g->target;
    char *note = code->note;
    size_t noten = sizeof code->note;
    note[0] = 0;
    code->cache_event = TC_CACHE_UNUSED;
    bool occ_on = cuda_occupancy_on();
    CacheKeyIn in = {k->m->src->text, k->m->src->len, k->fn->name, spec, g->num_warps,
                     g->num_stages, t, trace_debug() || k->fn->debug, false, NULL, true};
    CacheKey plain, occk;
    /* a truncated specialization string ("...") cannot be a key */
    size_t sl = strlen(spec);
    bool use = !(sl >= 3 && strcmp(spec + sl - 3, "...") == 0) && cache_key_make(&plain, &in);
    in.occupancy = true;
    use = use && cache_key_make(&occk, &in);
    CacheResult cr = CACHE_OFF;
    CacheEntry ent;
    void *mem = NULL;
    const CacheKey *hit = NULL;
    char opath[4400];
    char *over = NULL;
    const CacheKey *okey = NULL;
    if (use && override_ptx(&plain, &occk, f->name, &over, &okey, opath, sizeof opath, e))
        return e->code;
    if (over) use = false;   /* the disk cache neither serves nor keeps it */
    if (use && occ_on) {
        cr = lookup(&occk, f, &ent, &mem, note, noten);
        if (cr == CACHE_HIT) hit = &occk;
    }
    if (use && !hit && cr != CACHE_BYPASS && cr != CACHE_UNSAFE_DIR) {
        char why[256];
        CacheResult c2 = lookup(&plain, f, &ent, &mem, why, sizeof why);
        if (!note[0]) snprintf(note, noten, "%s", why);
        if (c2 == CACHE_HIT) hit = &plain;
        if (cr == CACHE_OFF || cr == CACHE_MISS) cr = c2;
    }
    tc_status rc;
    bool stepped = false;
    if (hit) {
        code->threads = ent.meta.threads;
        code->shared_bytes = ent.meta.shared_bytes;
        gpu_dot_summary(f, ent.ptx, code->dot, sizeof code->dot);
        code->ntmap = gpu_tma_maps(ent.ptx, ent.meta.kernel, code->tmap);
        code->scratch = gpu_scratch_bytes(ent.ptx, ent.meta.kernel);
        /* made by `tritonc compile` or with TRITONC_OCCUPANCY=0: the step runs now */
        bool step = hit == &plain && occ_on && !(ent.meta.flags & CACHE_META_OCC_CHECKED);
        if (ent.cubin_len && !step) {
            dump_kernel(f, hit->hex, ent.meta.kernel, ent.ptx, note, noten);
            rc = cuda_module_load_cubin(ent.cubin, ent.cubin_len, ent.meta.kernel,
                                        ent.meta.shared_bytes, &code->cu, e);
        } else {
            /* the entry's PTX (its JIT hits the driver's cache after the first process);
             * stored again only when the occupancy step ran */
            GpuCode c = {ent.ptx, ent.meta.kernel, ent.meta.threads, ent.meta.shared_bytes,
                         ent.meta.flags, ent.cubin, ent.cubin_len};
            rc = build_and_store(hit, &occk, step, &c, step, f, g, &code->cu, &stepped, note,
                                 noten, e);
        }
        free(mem);
        /* the step's new PTX is a new entry */
        if (rc == TC_OK) code->cache_event = stepped ? TC_CACHE_MISS : TC_CACHE_HIT;
        return rc;
    }
    free(mem);
    GpuKernel gk;
    memset(&gk, 0, sizeof gk);
    rc = gpu_compile(f, t, g->num_warps, g->num_stages, g->max_shared, true, &gk, e);
    if (rc) { gpu_kernel_free(&gk); free(over); return rc; }
    /* an override keeps the lowering's threads and shared memory: the PTX is edited, the
     * launch it needs is the same */
    GpuCode c = {over ? over : gk.ptx, gk.name, gk.threads > 0 ? gk.threads : g->num_warps * 32,
                 gk.shared_bytes, 0, NULL, 0};
    code->threads = c.threads;
    code->shared_bytes = c.shared_bytes;
    gpu_dot_summary(f, gk.ptx, code->dot, sizeof code->dot);
    code->ntmap = gpu_tma_maps(c.ptx, gk.name, code->tmap);
    code->scratch = gpu_scratch_bytes(c.ptx, gk.name);
    /* one more program per SM where the registers allow it (not for an override: as written;
     * it is dumped under its own key and not stored) */
    rc = build_and_store(over ? okey : use ? &plain : NULL, use ? &occk : NULL,
                         use && cache_may_store(cr), &c, occ_on && !over, f, g, &code->cu,
                         &stepped, note, noten, e);
    if (rc == TC_OK && use) code->cache_event = cache_event_of(cr);
    if (over && !note[0]) snprintf(note, noten, "PTX from %.200s (TRITON_KERNEL_OVERRIDE)", opath);
    if (over && rc) {   /* the driver's complaint is about the file */
        char m[sizeof e->msg];
        snprintf(m, sizeof m, "%s", strncmp(e->msg, "error: ", 7) ? e->msg : e->msg + 7);
        err_set(e, rc, (SrcLoc){0}, "TRITON_KERNEL_OVERRIDE: %.200s: %.3800s", opath, m);
    }
    gpu_kernel_free(&gk);
    free(over);
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
