/* jit.c — the launch path: Triton's specialization rules, the specialization key, the
 * per-kernel in-memory cache, and the launch on the interpreter or the GPU.
 *
 * Key (as Triton specializes) = hash of the module's whole source text (which covers the
 * kernel, every jit function it may call and the constexpr globals) + per parameter: how it
 * was specialized (runtime type and the div-16 flag, or the constexpr value) + the backend,
 * + under CUDA num_warps, num_stages and the target arch. Under the interpreter num_warps and
 * num_stages do not change the IR, so they are not part of the key there.
 *
 * A cached launch (no allocation, no string work on the hot path) computes the key hash from the arguments, probes the
 * table, compares the stored key and launches: no allocation, no string formatting. */
#include "runtime/jit.h"
#include "driver/cuda.h"
#include "gpu/gpu.h"
#include "interp/interp.h"
#include "trace/trace.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { KA_MISSING = 0, KA_CONST, KA_RUNTIME };
/* Most CUDA contexts (devices, or a caller's contexts) one specialization is loaded in. */
enum { JIT_MAX_CUCTX = 16 };

/* How one parameter was specialized. */
typedef struct KeyArg {
    uint8_t how;     /* KA_* */
    uint8_t dt;      /* KA_RUNTIME: DType of the value (DT_PTR for tensors) */
    uint8_t elem;    /* pointee for DT_PTR */
    bool div16;
    CVal cv;         /* KA_CONST; strings point into the slot (probe) or are owned (entry) */
    TDesc desc;      /* DT_PTR given a tensor descriptor (rank > 0), else zeros */
} KeyArg;

struct JitEntry {
    uint64_t hash;
    int nparams;
    KeyArg *key;               /* nparams of them; CV_STR strings malloc'd */
    tc_backend backend;
    int num_warps, num_stages, arch;
    Err err;                   /* the arena's error record (must outlive the arena) */
    Arena arena;               /* owns ir */
    IrFunc *ir;
    int *ir_param;             /* ir->nparams: index of the kernel parameter */
    CuModule *cu;              /* loaded in the CUDA context it was compiled in */
    CuModule *more[JIT_MAX_CUCTX]; /* the same code loaded in other contexts (devices) */
    int nmore;
    int threads, shared;
    int disk_cache;            /* tc_cache_event of the compile (CUDA) */
    char note[256];            /* the disk cache's remark, if any */
    char dot[48];              /* how tl.dot ran (GPU) */
    GpuTmap tmap[GPU_MAX_TMAPS];  /* the tensor maps encoded at each launch (TMA) */
    int ntmap;
    int scratch;               /* global scratch bytes per program, allocated at each launch */
    char spec[512];            /* "*fp32:16, *fp32:16, i32, BLOCK=4" */
};

/* A launch's global scratch (tc_set_allocator; default cuMemAllocAsync on its stream), and
 * its return once the launch is queued. */
static void scratch_give(tc_context *ctx, uint64_t addr, size_t n, void *stream) {
    if (!ctx->alloc) cuda_free_async(addr, stream);
    else if (ctx->release) ctx->release(addr, n, stream, ctx->alloc_user);
}

static tc_status scratch_take(tc_context *ctx, const tc_kernel *k, size_t n, void *stream, uint64_t *addr) {
    if (!ctx->alloc) {
        Err ae = {0};
        return cuda_alloc_async(n, stream, addr, &ae) ? ctx_take(ctx, &ae) : TC_OK;
    }
    *addr = ctx->alloc(n, 128, stream, ctx->alloc_user);
    if (!*addr)
        return ctx_fail(ctx, TC_ERR_NOMEM, "%s: the allocator (tc_set_allocator) gave no %zu bytes of "
                        "global scratch", k->signature, n);
    if (*addr % 128) {
        scratch_give(ctx, *addr, n, stream);
        *addr = 0;
        return ctx_fail(ctx, TC_ERR_ARG, "%s: the allocator (tc_set_allocator) gave global scratch "
                        "not 128-byte aligned", k->signature);
    }
    return TC_OK;
}

/* TRITONC_LAUNCH_BLOCKING=1 (read once per process, race-free): synchronize after every GPU
 * launch. */
static bool blocking;
static void blocking_init(void) {
    const char *v = getenv("TRITONC_LAUNCH_BLOCKING");
    blocking = v && v[0] && strcmp(v, "0") != 0;
}
static bool launch_blocking(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, blocking_init);
    return blocking;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- specialization (Triton's specialize_impl) ------------------------------------- */

/* One parameter's KeyArg from its value. Pure: no allocation. */
static tc_status spec_one(tc_kernel *k, int i, const tc_value *v, KeyArg *ka) {
    const Param *p = &k->fn->params[i];
    tc_context *ctx = k->m->ctx;
    memset(ka, 0, sizeof *ka);
    if (p->is_constexpr) {
        ka->how = KA_CONST;
        switch (v->kind) {
        case TC_VAL_NONE: ka->cv = cv_none(); break;
        case TC_VAL_INT: ka->cv = cv_int(v->u.i); break;
        case TC_VAL_FLOAT: ka->cv = cv_float(v->u.f); break;
        case TC_VAL_BOOL: ka->cv = cv_bool(v->u.b != 0); break;
        case TC_VAL_STR: ka->cv = cv_str(v->u.s); break;
        case TC_VAL_UINT:
            return ctx_fail(ctx, TC_ERR_ARG, "%s: constexpr parameter '%s' got %llu; constexpr "
                            "integers range from -2**63 to 2**63-1", k->signature, p->name,
                            (unsigned long long)v->u.i);
        default:
            return ctx_fail(ctx, TC_ERR_ARG, "%s: constexpr parameter '%s' got a tensor; "
                            "constexprs take numbers, booleans, strings or None",
                            k->signature, p->name);
        }
        return TC_OK;
    }
    switch (v->kind) {
    case TC_VAL_NONE: ka->how = KA_CONST; ka->cv = cv_none(); return TC_OK;
    case TC_VAL_INT:   /* jit(do_not_specialize=...): no ==1; (..._on_alignment): no :16 */
        if (v->u.i == 1 && !p->no_spec) { ka->how = KA_CONST; ka->cv = cv_int(1); return TC_OK; }
        ka->how = KA_RUNTIME;
        ka->dt = v->u.i >= INT32_MIN && v->u.i <= INT32_MAX ? DT_I32 : DT_I64;
        ka->div16 = v->u.i % 16 == 0 && !p->no_spec && !p->no_align;
        return TC_OK;
    case TC_VAL_UINT:   /* at least 2^63: Triton's u64 */
        ka->how = KA_RUNTIME;
        ka->dt = DT_U64;
        ka->div16 = (uint64_t)v->u.i % 16 == 0 && !p->no_spec && !p->no_align;
        return TC_OK;
    case TC_VAL_BOOL: ka->how = KA_RUNTIME; ka->dt = DT_I1; return TC_OK;
    case TC_VAL_FLOAT: ka->how = KA_RUNTIME; ka->dt = DT_FP32; return TC_OK;
    case TC_VAL_TENSOR: {
        tc_tensor *t = v->u.t;
        uint64_t addr = t->backend == TC_BACKEND_CUDA ? t->dev : (uint64_t)(uintptr_t)t->host;
        ka->how = KA_RUNTIME;
        ka->dt = DT_PTR;
        ka->elem = (uint8_t)t->dtype;
        ka->div16 = addr % 16 == 0 && !p->no_spec && !p->no_align;
        if (t->drank) {   /* a descriptor: its shapes are part of the key */
            ka->desc.rank = t->drank;
            for (int d = 0; d < t->drank; d++) {
                ka->desc.block[d] = (int32_t)t->dblock[d];
                ka->desc.shape[d] = t->dshape[d];
                ka->desc.strides[d] = t->dstrides[d];
            }
        }
        return TC_OK;
    }
    case TC_VAL_STR:
        return ctx_fail(ctx, TC_ERR_ARG, "%s: parameter '%s' got the string '%s'; strings are "
                        "only valid for constexpr parameters (annotate it `: tl.constexpr`)",
                        k->signature, p->name, v->u.s);
    }
    return ctx_fail(ctx, TC_ERR_ARG, "%s: parameter '%s': invalid value", k->signature, p->name);
}

static uint64_t key_hash(const tc_kernel *k, const KeyArg *ka, int n, tc_backend b, int nw,
                         int ns, int arch) {
    uint64_t h = k->m->hash ^ ((uint64_t)k->index * 0x9e3779b97f4a7c15ull);
    uint64_t opt[4] = {(uint64_t)b, (uint64_t)nw, (uint64_t)ns, (uint64_t)arch};
    h = hash_bytes(opt, sizeof opt, h);
    for (int i = 0; i < n; i++) {
        uint8_t hd[4] = {ka[i].how, ka[i].dt, ka[i].elem, ka[i].div16};
        h = hash_bytes(hd, sizeof hd, h);
        if (ka[i].how == KA_CONST) h = cv_hash(&ka[i].cv, h);
        if (ka[i].desc.rank) h = hash_bytes(&ka[i].desc, sizeof ka[i].desc, h);
    }
    return h ? h : 1;
}

static bool key_eq(const JitEntry *e, const KeyArg *ka, int n, tc_backend b, int nw, int ns,
                   int arch) {
    if (e->nparams != n || e->backend != b || e->num_warps != nw || e->num_stages != ns ||
        e->arch != arch)
        return false;
    for (int i = 0; i < n; i++) {
        const KeyArg *x = &e->key[i], *y = &ka[i];
        if (x->how != y->how || x->dt != y->dt || x->elem != y->elem || x->div16 != y->div16)
            return false;
        if (x->how == KA_CONST && (x->cv.kind != y->cv.kind || !cv_eq(&x->cv, &y->cv)))
            return false;
        if (memcmp(&x->desc, &y->desc, sizeof x->desc) != 0) return false;
    }
    return true;
}

/* ---- the cache --------------------------------------------------------------------- */

static void entry_free(JitEntry *e) {
    if (!e) return;
    if (e->cu) cuda_module_unload(e->cu);
    for (int i = 0; i < e->nmore; i++) cuda_module_unload(e->more[i]);
    if (e->key)
        for (int i = 0; i < e->nparams; i++)
            if (e->key[i].how == KA_CONST && e->key[i].cv.kind == CV_STR) free((char *)e->key[i].cv.v.s);
    free(e->key);
    arena_free(&e->arena);
    free(e);
}

void jit_kernel_free_cache(tc_kernel *k) {
    for (int i = 0; i < k->table_cap; i++) entry_free(k->table[i]);
    free(k->table);
    k->table = NULL;
    k->table_cap = k->nentries = 0;
}

static JitEntry *cache_find(const tc_kernel *k, uint64_t h, const KeyArg *ka, int n,
                            tc_backend b, int nw, int ns, int arch) {
    if (!k->table_cap) return NULL;
    for (int i = (int)(h & (uint64_t)(k->table_cap - 1)), probes = 0; probes < k->table_cap;
         i = (i + 1) & (k->table_cap - 1), probes++) {
        JitEntry *e = k->table[i];
        if (!e) return NULL;
        if (e->hash == h && key_eq(e, ka, n, b, nw, ns, arch)) return e;
    }
    return NULL;
}

static bool cache_insert(tc_kernel *k, JitEntry *e) {
    if ((k->nentries + 1) * 2 > k->table_cap) {
        int cap = k->table_cap ? k->table_cap * 2 : 16;
        JitEntry **t = calloc((size_t)cap, sizeof *t);
        if (!t) return false;
        for (int i = 0; i < k->table_cap; i++) {
            JitEntry *x = k->table[i];
            if (!x) continue;
            int j = (int)(x->hash & (uint64_t)(cap - 1));
            while (t[j]) j = (j + 1) & (cap - 1);
            t[j] = x;
        }
        free(k->table);
        k->table = t;
        k->table_cap = cap;
    }
    int j = (int)(e->hash & (uint64_t)(k->table_cap - 1));
    while (k->table[j]) j = (j + 1) & (k->table_cap - 1);
    k->table[j] = e;
    k->nentries++;
    return true;
}

/* ---- compiling a specialization ------------------------------------------------------ */

static void spec_string(const tc_kernel *k, const KeyArg *ka, int n, char *buf, size_t cap) {
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < n && o + 1 < cap; i++) {
        char item[768];
        const char *name = k->fn->params[i].name;
        if (ka[i].how == KA_RUNTIME) {
            if (ka[i].dt == DT_PTR && ka[i].desc.rank) {
                /* all of it: the disk cache keys on this string */
                const TDesc *d = &ka[i].desc;
                char bs[3][192];
                for (int w = 0; w < 3; w++) {
                    size_t bo = 0;
                    bs[w][0] = 0;
                    for (int x = 0; x < d->rank && bo < sizeof bs[w]; x++) {
                        long long v = w == 0 ? d->block[x] : w == 1 ? d->shape[x] : d->strides[x];
                        bo += (size_t)snprintf(bs[w] + bo, sizeof bs[w] - bo, "%s%lld", x ? "," : "", v);
                    }
                }
                snprintf(item, sizeof item, "desc<%s%s,[%s],shape=[%s],strides=[%s]>", dt_name(ka[i].elem),
                         ka[i].div16 ? ":16" : "", bs[0], bs[1], bs[2]);
            } else if (ka[i].dt == DT_PTR)
                snprintf(item, sizeof item, "*%s%s", dt_name(ka[i].elem), ka[i].div16 ? ":16" : "");
            else
                snprintf(item, sizeof item, "%s%s", dt_name(ka[i].dt), ka[i].div16 ? ":16" : "");
        } else if (ka[i].how == KA_CONST) {
            char r[128];
            cv_repr(&ka[i].cv, r, sizeof r);
            snprintf(item, sizeof item, "%s=%s", name, r);
        } else {
            snprintf(item, sizeof item, "%s=<default>", name);
        }
        int w = snprintf(buf + o, cap - o, "%s%s", i ? ", " : "", item);
        if (w < 0) break;
        o += (size_t)w;
    }
    if (o >= cap && cap > 4) memcpy(buf + cap - 4, "...", 4);
}

/* For --verbose: how the descriptor parameters' blocks move, before the disk cache's
 * remark. */
static void tma_note(const tc_kernel *k, JitEntry *e, const KeyArg *ka, int n) {
    int ndesc = 0;
    for (int i = 0; i < n; i++) ndesc += ka[i].desc.rank > 0;
    if (!ndesc && !e->scratch) return;
    char s[2 * sizeof e->note];
    size_t o = 0;
    if (e->scratch)   /* descriptors made in the kernel (tma.c) */
        o += (size_t)snprintf(s, sizeof s, "%d tensor map%s made in the kernel for TMA (%d bytes of "
                              "global scratch per program)%s", e->scratch / 128,
                              e->scratch > 128 ? "s" : "", e->scratch, ndesc ? "; " : "");
    if (ndesc && e->ntmap) {
        o += (size_t)snprintf(s + o, sizeof s - o, "tensor descriptors through TMA (cp.async.bulk.tensor):");
        for (int m = 0; m < e->ntmap && o < sizeof s; m++)
            o += (size_t)snprintf(s + o, sizeof s - o, "%s %s", m ? "," : "",
                                  k->fn->params[e->ir_param[e->tmap[m].param]].name);
    } else if (ndesc) {
        o += (size_t)snprintf(s + o, sizeof s - o, "tensor descriptors as ordinary loads and stores (no TMA: "
                              "the target lacks it, or the rank, strides, block or alignment "
                              "rule it out)");
    }
    if (e->note[0] && o < sizeof s) snprintf(s + o, sizeof s - o, "; %s", e->note);
    memcpy(e->note, s, sizeof e->note);
    e->note[sizeof e->note - 1] = 0;
}

/* For --verbose: a GPU compile under TRITONC_GPU_UNVERIFIED may use lowerings no GPU has
 * passed yet; said first, so that a wrong result is not taken for the checked code's. */
static void unverified_note(JitEntry *e) {
    if (!gpu_unverified()) return;
    char s[2 * sizeof e->note];
    snprintf(s, sizeof s, "TRITONC_GPU_UNVERIFIED=%s: lowerings not yet checked on a GPU may be in use%s%s",
             getenv("TRITONC_GPU_UNVERIFIED"), e->note[0] ? "; " : "", e->note);
    memcpy(e->note, s, sizeof e->note);
    e->note[sizeof e->note - 1] = 0;
}

/* Traces (and under CUDA compiles and loads) one specialization. */
static tc_status compile_entry(tc_kernel *k, const KeyArg *ka, int n, uint64_t h,
                               tc_backend b, int nw, int ns, int arch, JitEntry **out) {
    tc_context *ctx = k->m->ctx;
    JitEntry *e = calloc(1, sizeof *e);
    if (!e) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    arena_init(&e->arena, &e->err);
    e->hash = h;
    e->nparams = n;
    e->backend = b;
    e->num_warps = nw;
    e->num_stages = ns;
    e->arch = arch;
    e->key = calloc(n > 0 ? (size_t)n : 1, sizeof *e->key);
    SpecArg *sa = calloc(n > 0 ? (size_t)n : 1, sizeof *sa);
    if (!e->key || !sa) { free(sa); entry_free(e); return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); }
    for (int i = 0; i < n; i++) {
        e->key[i] = ka[i];
        if (ka[i].how == KA_CONST && ka[i].cv.kind == CV_STR) {
            char *s = strdup(ka[i].cv.v.s);
            if (!s) {
                e->key[i].how = KA_MISSING;
                free(sa);
                entry_free(e);
                return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
            }
            e->key[i].cv.v.s = s;
        }
        SpecArg *s = &sa[i];
        if (ka[i].how == KA_MISSING) { s->missing = true; continue; }
        if (ka[i].how == KA_CONST) { s->is_constexpr = true; s->cv = e->key[i].cv; continue; }
        s->type = ka[i].dt == DT_PTR ? type_ptr(ka[i].elem) : type_scalar(ka[i].dt);
        s->div16 = ka[i].div16;
        if (e->key[i].desc.rank) s->desc = &e->key[i].desc;
    }
    spec_string(k, ka, n, e->spec, sizeof e->spec);
    if (trace_f32_default()) { /* in the disk cache's key too */
        size_t sl = strlen(e->spec);
        snprintf(e->spec + sl, sizeof e->spec - sl, "; TRITON_F32_DEFAULT=%s", trace_f32_default());
    }

    PipelineGpu gpu = {0}, *gp = NULL;
    tc_target t;
    if (b == TC_BACKEND_CUDA) {
        Err ce = {0};
        bool overridden = false;
        tc_device_props props;
        if (cuda_target(ctx->device, &t, &overridden, &ce) ||
            cuda_device_props(ctx->device, &props, &ce)) {
            free(sa);
            entry_free(e);
            return ctx_take(ctx, &ce);
        }
        if (nw * 32 > props.max_threads_per_block && props.max_threads_per_block > 0) {
            free(sa);
            entry_free(e);
            return ctx_fail(ctx, TC_ERR_RESOURCES, "out of resource: threads, Required: %d, "
                            "Hardware limit: %d (num_warps=%d)", nw * 32,
                            props.max_threads_per_block, nw);
        }
        gpu = (PipelineGpu){&t, nw, ns, props.max_shared_memory_per_block_optin};
        gp = &gpu;
    }
    Buf text = {0};
    Err pe = {0};
    PipelineCode code = {0};
    tc_status rc = pipeline_compile(k, sa, e->spec, gp, &e->arena, &text, &e->ir, &e->ir_param,
                                    &code, &pe);
    free(sa);
    if (text.s) ctx_deliver(ctx, text.s);
    buf_free(&text);
    if (rc) {
        entry_free(e);
        return ctx_take(ctx, &pe);
    }
    e->cu = code.cu;
    e->threads = code.threads > 0 ? code.threads : nw * 32;
    e->shared = code.shared_bytes;
    e->disk_cache = code.cache_event;
    memcpy(e->note, code.note, sizeof e->note);
    memcpy(e->dot, code.dot, sizeof e->dot);
    memcpy(e->tmap, code.tmap, sizeof e->tmap);
    e->ntmap = code.ntmap;
    e->scratch = code.scratch;
    if (b == TC_BACKEND_CUDA) {
        tma_note(k, e, ka, n);
        unverified_note(e);
    }
    if (!cache_insert(k, e)) { entry_free(e); return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); }
    *out = e;
    return TC_OK;
}

/* The entry's code loaded in the current CUDA context: compiled once per architecture, loaded
 * once per context (device) from the same PTX or cubin. Under the kernel's lock. */
static CuModule *entry_module(JitEntry *e, tc_context *ctx, tc_status *rc) {
    void *cur = cuda_current_context();
    if (cuda_module_context(e->cu) == cur) return e->cu;
    for (int i = 0; i < e->nmore; i++)
        if (cuda_module_context(e->more[i]) == cur) return e->more[i];
    if (e->nmore == JIT_MAX_CUCTX) {
        *rc = ctx_fail(ctx, TC_ERR_LIMIT, "a kernel is loaded in at most %d CUDA contexts",
                       JIT_MAX_CUCTX + 1);
        return NULL;
    }
    Err ce = {0};
    CuModule *m = NULL;
    if (cuda_module_reload(e->cu, &m, &ce)) { *rc = ctx_take(ctx, &ce); return NULL; }
    e->more[e->nmore++] = m;
    return m;
}

/* ---- launch -------------------------------------------------------------------------- */

/* Fills size bytes (the caller's sizeof): the defaults, then zeros for fields this library
 * does not know. */
void tc_launch_opts_init(tc_launch_opts *o, size_t size) {
    if (!o || size < sizeof o->size) return;
    tc_launch_opts d;
    memset(&d, 0, sizeof d);
    d.size = size;
    d.grid[0] = d.grid[1] = d.grid[2] = 1;
    d.num_warps = 4;
    d.num_stages = 3;
    memset(o, 0, size);
    memcpy(o, &d, size < sizeof d ? size : sizeof d);
}

tc_status jit_opts(tc_context *ctx, const tc_launch_opts *in, tc_launch_opts *out) {
    tc_launch_opts_init(out, sizeof *out);
    if (!in) return TC_OK;
    if (in->size < JIT_OPTS_SIZE_0_1)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_launch_opts.size is %zu, less than %zu: initialise "
                        "the options with tc_launch_defaults()", in->size, JIT_OPTS_SIZE_0_1);
    memcpy(out, in, in->size < sizeof *out ? in->size : sizeof *out);
    out->size = sizeof *out;
    return TC_OK;
}

/* The value given for parameter i, or its literal default; false if neither. */
static bool arg_value(const tc_args *a, int i, tc_value *v) {
    if (a->slots[i].set) { *v = a->slots[i].v; return true; }
    return param_default(&a->k->fn->params[i], v);
}

/* Fails naming every parameter with neither a value nor a default, in one message as Python
 * does: "add(x, y, out, n, BLOCK): missing 2 arguments: 'y' and 'out'" (one: "missing
 * argument 'y'"). */
static tc_status missing_args(tc_kernel *k, const tc_args *a) {
    int miss[JIT_MAX_PARAMS], nm = 0;
    for (int i = 0; i < k->fn->nparams && i < JIT_MAX_PARAMS; i++) {
        tc_value v;
        if (!arg_value(a, i, &v) && !k->fn->params[i].deflt) miss[nm++] = i;
    }
    if (!nm) return TC_OK;
    Buf b = {0};
    for (int j = 0; j < nm; j++)
        buf_printf(&b, "%s'%s'", j == 0 ? "" : j == nm - 1 ? (nm > 2 ? ", and " : " and ") : ", ",
                   k->fn->params[miss[j]].name);
    tc_status rc = nm == 1 ? ctx_fail(k->m->ctx, TC_ERR_ARG, "%s: missing argument %s", k->signature, b.s ? b.s : "")
                           : ctx_fail(k->m->ctx, TC_ERR_ARG, "%s: missing %d arguments: %s", k->signature, nm, b.s ? b.s : "");
    buf_free(&b);
    return rc;
}

static const char interp_note[] = "the interpreter does not model num_warps/num_stages: "
                                  "they were accepted and changed nothing";

tc_status jit_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    if (!a) return ctx_fail(ctx, TC_ERR_ARG, "tc_launch: NULL argument list");
    if (a->k != k)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_launch: the argument list was made for %s, not %s",
                        a->k->signature, k->signature);
    tc_launch_opts def = tc_launch_defaults();
    if (!opts) opts = &def;
    int nw = opts->num_warps ? opts->num_warps : 4;
    int ns = opts->num_stages ? opts->num_stages : 3;
    if (nw < 1 || (nw & (nw - 1)))
        return ctx_fail(ctx, TC_ERR_ARG, "num_warps must be a power of 2 (got %d)", nw);
    if (ns < 1) return ctx_fail(ctx, TC_ERR_ARG, "num_stages must be >= 1 (got %d)", ns);

    tc_status rc = missing_args(k, a);   /* all of them in one message, before the driver */
    if (rc) return rc;
    tc_backend b;
    rc = ctx_backend(ctx, &b);
    if (rc) return rc;

    int n = k->fn->nparams;
    if (n > JIT_MAX_PARAMS)
        return ctx_fail(ctx, TC_ERR_LIMIT, "%s has more than %d parameters", k->signature,
                        JIT_MAX_PARAMS);
    KeyArg ka[JIT_MAX_PARAMS];
    tc_value vals[JIT_MAX_PARAMS];
    for (int i = 0; i < n; i++) {
        if (!arg_value(a, i, &vals[i])) {
            if (k->fn->params[i].deflt) {  /* a default the tracer evaluates */
                memset(&ka[i], 0, sizeof ka[i]);
                vals[i] = tc_none();
                continue;
            }
            return ctx_fail(ctx, TC_ERR_ARG, "%s: missing argument '%s'", k->signature,
                            k->fn->params[i].name);
        }
        if (vals[i].kind == TC_VAL_TENSOR && vals[i].u.t->backend != b)
            return ctx_fail(ctx, TC_ERR_ARG, "%s: tensor '%s' is in %s memory but the launch "
                            "runs on %s", k->signature, k->fn->params[i].name,
                            vals[i].u.t->backend == TC_BACKEND_CUDA ? "device" : "host",
                            b == TC_BACKEND_CUDA ? "the GPU" : "the interpreter");
        if (vals[i].kind == TC_VAL_TENSOR && b == TC_BACKEND_CUDA && vals[i].u.t->device != ctx->device)
            return ctx_fail(ctx, TC_ERR_ARG, "%s: tensor '%s' is in the memory of device %d but the "
                            "launch runs on device %d", k->signature, k->fn->params[i].name,
                            vals[i].u.t->device, ctx->device);
        rc = spec_one(k, i, &vals[i], &ka[i]);
        if (rc) return rc;
    }
    int knw = b == TC_BACKEND_CUDA ? nw : 0, kns = b == TC_BACKEND_CUDA ? ns : 0;
    int arch = 0;
    if (b == TC_BACKEND_CUDA) {
        Err ce = {0};
        if (ctx_use_cuda(ctx, &ce)) return ctx_take(ctx, &ce);
        /* the target, read once per module and device (kernels on several threads share it) */
        uint64_t ac = atomic_load_explicit(&k->m->arch_cache, memory_order_relaxed);
        if ((int)(ac >> 32) != ctx->device + 1) {
            tc_target t;
            bool ov = false;
            if (cuda_target(ctx->device, &t, &ov, &ce)) return ctx_take(ctx, &ce);
            ac = (uint64_t)(ctx->device + 1) << 32 | (uint32_t)(t.arch * 2 + (t.arch_suffix_a ? 1 : 0));
            atomic_store_explicit(&k->m->arch_cache, ac, memory_order_relaxed);
        }
        arch = (int)(uint32_t)ac;
    }

    arch += trace_f32_default_key() << 16; /* TRITON_F32_DEFAULT is part of the key */
    /* The cache is shared by the threads launching this kernel: one lock, held while a
     * missing specialization compiles, so that it compiles once. */
    uint64_t h = key_hash(k, ka, n, b, knw, kns, arch);
    pthread_mutex_lock(&k->lock);
    JitEntry *e = cache_find(k, h, ka, n, b, knw, kns, arch);
    double t0 = now_ms(), compile_ms = 0;
    int compiled = 0;
    CuModule *cu = NULL;
    if (!e) {
        if (b == TC_BACKEND_CUDA &&
            (ctx_thread(ctx)->capture || (opts->stream && cuda_stream_capturing(opts->stream) == 1))) {
            pthread_mutex_unlock(&k->lock);
            char spec[512];
            spec_string(k, ka, n, spec, sizeof spec);
            return ctx_fail(ctx, TC_ERR_ARG, "%s: the specialization (%s) is not compiled yet and "
                            "the stream is being captured into a graph; launch it once before "
                            "capturing", k->signature, spec);
        }
        rc = compile_entry(k, ka, n, h, b, knw, kns, arch, &e);
        if (rc) { pthread_mutex_unlock(&k->lock); return rc; }
        compiled = 1;
        k->stats.specializations++;
        compile_ms = now_ms() - t0;
    } else {
        k->stats.hits++;
    }
    if (b == TC_BACKEND_CUDA && !(cu = entry_module(e, ctx, &rc))) {
        pthread_mutex_unlock(&k->lock);
        return rc;
    }
    pthread_mutex_unlock(&k->lock);

    /* the grid */
    uint32_t grid[3] = {opts->grid[0], opts->grid[1] ? opts->grid[1] : 1,
                        opts->grid[2] ? opts->grid[2] : 1};
    if (opts->grid_fn) {
        grid[0] = grid[1] = grid[2] = 1;
        rc = opts->grid_fn(a, grid, opts->grid_user);
        if (rc) {
            if (ctx_err(ctx)->code != rc) ctx_fail(ctx, rc, "the grid function failed (%s)",
                                                   tc_status_name(rc));
            return rc;
        }
    }
    if (grid[0] > 0x7fffffffu || grid[1] > 65535 || grid[2] > 65535)
        return ctx_fail(ctx, TC_ERR_ARG, "grid (%u, %u, %u) exceeds the limits (2^31-1, 65535, "
                        "65535)", grid[0], grid[1], grid[2]);

    if (b == TC_BACKEND_INTERPRET &&
        (uint64_t)grid[0] * grid[1] * grid[2] > JIT_INTERP_MAX_PROGRAMS)
        return ctx_fail(ctx, TC_ERR_LIMIT, "grid (%u, %u, %u) has %llu programs; the interpreter "
                        "runs at most 2^26 (%llu) per launch", grid[0], grid[1], grid[2],
                        (unsigned long long)grid[0] * grid[1] * grid[2],
                        (unsigned long long)JIT_INTERP_MAX_PROGRAMS);

    tc_launch_report *last = ctx_last(ctx);   /* this thread's */
    last->backend = b;
    last->num_warps = nw;
    last->num_stages = ns;
    last->compiled = compiled;
    memcpy(last->specialization, e->spec, sizeof e->spec);
    last->compile_ms = compile_ms;
    last->run_ms = 0;
    last->disk_cache = compiled ? e->disk_cache : TC_CACHE_UNUSED;
    last->check = last->check_findings = last->check_notes = 0;
    last->check_seed = 0;
    last->scratch_bytes = 0;
    last->threads = 1;
    memcpy(last->dot, e->dot, sizeof e->dot);
    last->shared_bytes = e->shared;
    memcpy(last->grid, grid, sizeof grid);
    CtxThread *th = ctx_thread(ctx);
    free(th->findings);
    th->findings = NULL;
    th->nfindings = 0;
    if (b == TC_BACKEND_INTERPRET)
        memcpy(last->note, interp_note, sizeof interp_note);
    else if (compiled && e->note[0])
        memcpy(last->note, e->note, sizeof e->note);
    else
        last->note[0] = 0;
    __atomic_fetch_add(&k->stats.launches, 1, __ATOMIC_RELAXED);   /* read by tc_kernel_stats */
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) return TC_OK;  /* Triton launches nothing */

    IrFunc *f = e->ir;
    double t1 = now_ms();
    if (b == TC_BACKEND_INTERPRET) {
        ArgBits bits[JIT_MAX_PARAMS];
        MemRegion mem[JIT_MAX_REGIONS];
        int mem_dt[JIT_MAX_REGIONS];
        int nmem = 0;
        char (*rname)[96] = NULL;   /* "table[1]": a tensor a table of addresses points into */
        for (int i = 0; i < n && !rname; i++)
            if (vals[i].kind == TC_VAL_TENSOR && vals[i].u.t->nptab &&
                !(rname = malloc(sizeof *rname * JIT_MAX_REGIONS)))
                return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
        for (int i = 0; i < n; i++) {
            if (vals[i].kind != TC_VAL_TENSOR) continue;
            tc_tensor *t = vals[i].u.t;
            /* the tensor, then those a table of addresses points into */
            for (int r = -1; r < t->nptab; r++) {
                const tc_tensor *u = r < 0 ? t : t->ptab[r];
                if (nmem == JIT_MAX_REGIONS) {
                    free(rname);
                    return ctx_fail(ctx, TC_ERR_LIMIT, "a launch may touch at most %d tensors "
                                    "(tables of addresses included)", JIT_MAX_REGIONS);
                }
                mem[nmem].lo = (uint64_t)(uintptr_t)u->host;
                mem[nmem].hi = mem[nmem].lo + u->nbytes;
                mem[nmem].name = k->fn->params[i].name;
                if (r >= 0) {
                    snprintf(rname[nmem], sizeof rname[nmem], "the tensor at %s[%d]", k->fn->params[i].name, r);
                    mem[nmem].name = rname[nmem];
                }
                mem[nmem].uninit = u->uninit;
                mem_dt[nmem] = (int)u->dtype;
                nmem++;
            }
        }
        for (int j = 0; j < f->nparams; j++) {
            const tc_value *v = &vals[e->ir_param[j]];
            Type pt = f->params[j].type;
            bits[j].u = 0;
            switch (v->kind) {
            case TC_VAL_TENSOR: bits[j].u = (uint64_t)(uintptr_t)v->u.t->host; break;
            case TC_VAL_INT:
                if (dt_is_float(pt.dt)) bits[j].f = (double)v->u.i;
                else bits[j].i = v->u.i;
                break;
            case TC_VAL_UINT: bits[j].u = (uint64_t)v->u.i; break;
            case TC_VAL_BOOL: bits[j].i = v->u.b ? 1 : 0; break;
            case TC_VAL_FLOAT:
                bits[j].f = pt.dt == DT_FP32 ? (double)(float)v->u.f : v->u.f;
                break;
            default: break;
            }
        }
        InterpLaunch l;
        memset(&l, 0, sizeof l);
        l.f = f;
        l.args = bits;
        l.grid[0] = grid[0]; l.grid[1] = grid[1]; l.grid[2] = grid[2];
        l.mem = mem;
        l.nmem = nmem;
        l.mem_dt = mem_dt;
        l.print = ctx->print ? ctx->print : ctx_keep_output;
        l.print_user = ctx->print ? ctx->print_user : ctx;
        const char *ce = getenv("TRITONC_CHECK");
        l.check = opts->check || (ce && ce[0] && strcmp(ce, "0") != 0);
        l.threads = opts->threads;
        if (l.threads < 0) {
            long nc = sysconf(_SC_NPROCESSORS_ONLN);
            l.threads = nc > 0 ? (int)nc : 1;
        }
        l.shuffle_seed = opts->shuffle_seed;
        l.timeout_s = opts->timeout_s;
        l.progress = opts->progress;
        l.progress_user = opts->progress_user;
        Buf report = {0};
        if (l.check) l.report = &report;
        Err ie = {0};
        rc = interp_run(&l, &ie);
        free(rname);   /* the messages are written */
        if (report.s) ctx_deliver(ctx, report.s);
        buf_free(&report);
        last->check = l.check;
        last->check_findings = l.findings;
        last->check_notes = l.notes;
        last->check_seed = l.seed_used;
        last->threads = l.threads > 1 ? l.threads : 1;
        ctx_thread(ctx)->findings = l.records;   /* cleared when the launch began */
        ctx_thread(ctx)->nfindings = l.nrecords;
        if (rc) {
            if (ie.code == TC_OK) ie.code = rc;
            return ctx_take(ctx, &ie);
        }
    } else {
        uint64_t slots[JIT_MAX_PARAMS];
        void *params[JIT_MAX_PARAMS + GPU_MAX_TMAPS + 1];
        for (int j = 0; j < f->nparams; j++) {
            const tc_value *v = &vals[e->ir_param[j]];
            int dt = f->params[j].type.dt;
            slots[j] = 0;
            if (v->kind == TC_VAL_TENSOR) {
                slots[j] = v->u.t->dev;
            } else if (dt == DT_FP32) {
                float x = v->kind == TC_VAL_FLOAT ? (float)v->u.f : (float)v->u.i;
                memcpy(&slots[j], &x, sizeof x);
            } else if (dt == DT_FP64) {
                double x = v->kind == TC_VAL_FLOAT ? v->u.f : (double)v->u.i;
                memcpy(&slots[j], &x, sizeof x);
            } else {
                int64_t x = v->kind == TC_VAL_BOOL ? (v->u.b != 0) : v->u.i;
                int sz = dt_size(dt);
                if (sz == 1) { uint8_t y = (uint8_t)x; memcpy(&slots[j], &y, 1); }
                else if (sz == 2) { int16_t y = (int16_t)x; memcpy(&slots[j], &y, 2); }
                else if (sz == 4) { int32_t y = (int32_t)x; memcpy(&slots[j], &y, 4); }
                else memcpy(&slots[j], &x, 8);
            }
            params[j] = &slots[j];
        }
        /* the tensor maps (TMA) by value after the parameters, encoded from the descriptors'
         * tensors on this stack frame: a launch allocates nothing and a graph keeps a copy */
        _Alignas(64) unsigned char tmaps[GPU_MAX_TMAPS][128];
        for (int m = 0; m < e->ntmap; m++) {
            const tc_value *v = &vals[e->ir_param[e->tmap[m].param]];
            const tc_tensor *t = v->kind == TC_VAL_TENSOR ? v->u.t : NULL;
            if (!t || !t->drank)
                return ctx_fail(ctx, TC_ERR_INTERNAL, "%s: parameter '%s' was compiled as a tensor "
                                "descriptor but is not one", k->signature,
                                k->fn->params[e->ir_param[e->tmap[m].param]].name);
            if (t->dev % 16)
                return ctx_fail(ctx, TC_ERR_ARG, "%s: the tensor of descriptor '%s' is not 16-byte "
                                "aligned, which TMA requires", k->signature,
                                k->fn->params[e->ir_param[e->tmap[m].param]].name);
            int32_t blk[TC_MAX_RANK];
            for (int d = 0; d < t->drank; d++) blk[d] = (int32_t)t->dblock[d];
            int sw = e->tmap[m].swizzle;   /* a swizzled map's box is one slab wide (tma.c) */
            if (sw && blk[t->drank - 1] > (16 << sw) / dt_size((int)t->dtype))
                blk[t->drank - 1] = (16 << sw) / dt_size((int)t->dtype);
            Err ce = {0};
            if (cuda_tensor_map(tmaps[m], (int)t->dtype, t->drank, t->dev, t->dshape, t->dstrides,
                                blk, e->tmap[m].swizzle, &ce))
                return ctx_take(ctx, &ce);
            params[f->nparams + m] = tmaps[m];
        }
        /* the global scratch area last (the maps of descriptors the kernel makes, tma.c):
         * allocated for this launch and given back once it is queued (tc_set_allocator) */
        uint64_t scratch = 0;
        uint64_t nprog = (uint64_t)grid[0] * (grid[1] ? grid[1] : 1) * (grid[2] ? grid[2] : 1);
        if (e->scratch && nprog > SIZE_MAX / 2 / (uint64_t)e->scratch)
            return ctx_fail(ctx, TC_ERR_LIMIT, "%s: a grid of %llu programs needs more global "
                            "scratch than can be allocated", k->signature, (unsigned long long)nprog);
        size_t scratch_n = (size_t)(nprog * (uint64_t)e->scratch);
        if (e->scratch && grid[0]) {
            tc_status rs = scratch_take(ctx, k, scratch_n, opts->stream, &scratch);
            if (rs) return rs;
            params[f->nparams + e->ntmap] = &scratch;
            last->scratch_bytes = (int64_t)scratch_n;
        }
        /* Launches are asynchronous, as in Triton: a kernel's fault surfaces at the next
         * synchronizing call (tc_synchronize, tc_tensor_to_host). TRITONC_LAUNCH_BLOCKING=1
         * waits after every launch, so the failing launch reports its own error. */
        Err ce = {0};
        bool failed = cuda_launch(cu, grid, e->threads, e->shared, opts->stream, params, &ce);
        if (scratch) scratch_give(ctx, scratch, scratch_n, opts->stream);
        if (failed ||
            (launch_blocking() && !ctx_thread(ctx)->capture &&
             !(opts->stream && cuda_stream_capturing(opts->stream) == 1) && cuda_sync(&ce)) ||
            (opts->timeout_s > 0 && !ctx_thread(ctx)->capture &&
             !(opts->stream && cuda_stream_capturing(opts->stream) == 1) &&
             cuda_wait(opts->stream, opts->timeout_s, &ce)))
            return ctx_take(ctx, &ce);
    }
    last->run_ms = now_ms() - t1;
    return TC_OK;
}

/* ---- ahead of time ------------------------------------------------------------------- */

/* "*fp32:16", "*fp16", "i32", "i64:16", "fp32", "i1"/"u1" */
static bool parse_sig(const char *s, KeyArg *ka) {
    memset(ka, 0, sizeof *ka);
    ka->how = KA_RUNTIME;
    bool ptr = false;
    if (*s == '*') { ptr = true; s++; if (*s == 'k') s++; }
    char name[16];
    size_t n = strcspn(s, ":");
    if (n == 0 || n >= sizeof name) return false;
    memcpy(name, s, n);
    name[n] = 0;
    if (s[n] == ':') {
        if (strcmp(s + n + 1, "16") != 0) return false;
        ka->div16 = true;
    }
    tc_dtype dt;
    if (strcmp(name, "u1") == 0) dt = TC_I1;
    else if (tc_dtype_from_name(name, &dt) != TC_OK) return false;
    if (ptr) { ka->dt = DT_PTR; ka->elem = (uint8_t)dt; }
    else ka->dt = (uint8_t)dt;
    if (!ptr && !dt_is_int(ka->dt) && ka->div16) return false;
    return true;
}

tc_status jit_compile_ptx(tc_kernel *k, const tc_target *target, const char *const *sig,
                          int nsig, tc_args *constexprs, int num_warps, char **ptx_out) {
    tc_context *ctx = k->m->ctx;
    int nw = num_warps ? num_warps : 4;
    if (nw < 1 || (nw & (nw - 1)))
        return ctx_fail(ctx, TC_ERR_ARG, "num_warps must be a power of 2 (got %d)", nw);
    char why[256];
    if (!target_lookup(target, why, sizeof why)) return ctx_fail(ctx, TC_ERR_ARG, "%s", why);
    int n = k->fn->nparams;
    if (n > JIT_MAX_PARAMS)
        return ctx_fail(ctx, TC_ERR_LIMIT, "%s has more than %d parameters", k->signature,
                        JIT_MAX_PARAMS);
    int nruntime = 0;
    for (int i = 0; i < n; i++) nruntime += !k->fn->params[i].is_constexpr;
    if (nsig != nruntime)
        return ctx_fail(ctx, TC_ERR_ARG, "%s has %d runtime parameter%s but %d signature "
                        "type%s were given", k->signature, nruntime, nruntime == 1 ? "" : "s",
                        nsig, nsig == 1 ? "" : "s");
    KeyArg ka[JIT_MAX_PARAMS];
    int si = 0;
    for (int i = 0; i < n; i++) {
        const Param *p = &k->fn->params[i];
        if (!p->is_constexpr) {
            const char *s = sig[si++];
            char *end;
            long long iv = s ? strtoll(s, &end, 10) : 0;
            if (s && *s && !*end) {  /* a number: the value is baked in, as Triton's "constexpr" */
                memset(&ka[i], 0, sizeof ka[i]);
                ka[i].how = KA_CONST;
                ka[i].cv = cv_int(iv);
                continue;
            }
            if (!s || !parse_sig(s, &ka[i]))
                return ctx_fail(ctx, TC_ERR_ARG, "%s: bad signature type '%s' for parameter '%s' "
                                "(expected e.g. *fp32, *fp16:16, i32, i64:16, fp32)",
                                k->signature, s ? s : "(null)", p->name);
            continue;
        }
        tc_value v;
        if (!(constexprs && arg_value(constexprs, i, &v))) {
            if (p->deflt) { memset(&ka[i], 0, sizeof ka[i]); continue; }
            return ctx_fail(ctx, TC_ERR_ARG, "%s: missing constexpr '%s'", k->signature, p->name);
        }
        tc_status rc = spec_one(k, i, &v, &ka[i]);
        if (rc) return rc;
    }
    SpecArg sa[JIT_MAX_PARAMS];
    memset(sa, 0, sizeof sa);
    for (int i = 0; i < n; i++) {
        if (ka[i].how == KA_MISSING) sa[i].missing = true;
        else if (ka[i].how == KA_CONST) { sa[i].is_constexpr = true; sa[i].cv = ka[i].cv; }
        else {
            sa[i].type = ka[i].dt == DT_PTR ? type_ptr(ka[i].elem) : type_scalar(ka[i].dt);
            sa[i].div16 = ka[i].div16;
        }
    }
    Err ae = {0};
    Arena arena;
    arena_init(&arena, &ae);
    Err te = {0};
    Buf out_text = {0};
    IrFunc *f = trace_kernel(k->m->mod, k->fn, sa, &arena, &te, &out_text);
    if (out_text.s) ctx_deliver(ctx, out_text.s);
    buf_free(&out_text);
    if (!f) {
        arena_free(&arena);
        if (te.code == TC_OK) te.code = TC_ERR_INTERNAL;
        return ctx_take(ctx, &te);
    }
    GpuKernel gk;
    memset(&gk, 0, sizeof gk);
    Err ge = {0};
    tc_status rc = gpu_compile(f, target, nw, 3, 0, false, &gk, &ge);
    arena_free(&arena);
    if (rc) {
        gpu_kernel_free(&gk);
        if (ge.code == TC_OK) ge.code = rc;
        return ctx_take(ctx, &ge);
    }
    *ptx_out = gk.ptx;
    gk.ptx = NULL;
    gpu_kernel_free(&gk);
    return TC_OK;
}
