/* jit.h — the handles behind the public API (modules, kernels, tensors, argument lists)
 * and the launch path with its in-memory specialization cache (jit.c). api.c creates and
 * frees the handles; jit.c specializes, compiles, caches and launches. */
#ifndef JIT_H
#define JIT_H

#include "runtime/api.h"
#include "front/ast.h"

/* Most parameters a kernel may have (Triton has no limit; CUDA's parameter space is 4 KB). */
#define JIT_MAX_PARAMS 128
/* Most programs one interpreter launch runs (more would not finish in bounded time). */
#define JIT_INTERP_MAX_PROGRAMS ((uint64_t)1 << 26)
/* Largest kernel source file or string: 4 MiB (kernel files are tens of KB; parsing
 * costs about 100 bytes of memory per source byte, so this bounds it near 400 MB). */
#define API_MAX_SOURCE ((size_t)4 << 20)

/* The size of tc_launch_opts in 0.1: the least a caller's opts->size may say. */
#define JIT_OPTS_SIZE_0_1 (offsetof(tc_launch_opts, shuffle_seed) + sizeof(uint64_t))
/* in (the caller's, read up to in->size; NULL: defaults) as this library's struct. */
tc_status jit_opts(tc_context *ctx, const tc_launch_opts *in, tc_launch_opts *out);

struct tc_module {
    tc_context *ctx;
    Source *src;             /* kept alive for error messages */
    Module *mod;
    uint64_t hash;           /* hash of the whole source text: kernels, callees, globals */
    tc_kernel **kernels;     /* one per @jit function, created lazily by tc_module_kernel */
    int nkernels;
    int arch_dev, arch_key;  /* the target of device arch_dev, read once (-1: not yet) */
};

typedef struct JitEntry JitEntry;

struct tc_kernel {
    tc_module *m;
    const Func *fn;
    int index;               /* in m->mod->funcs */
    char *signature;         /* "add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK)" for messages */
    /* the specialization cache: open addressing on the key hash */
    JitEntry **table; int table_cap, nentries;
    tc_stats stats;
    void *tune;              /* tune.c: decorators, configs, chosen configs (tune_kernel_free) */
};

struct tc_tensor {
    tc_context *ctx;
    tc_backend backend;      /* TC_BACKEND_INTERPRET: host memory; TC_BACKEND_CUDA: device */
    tc_dtype dtype;
    int rank;
    int64_t shape[TC_MAX_RANK];
    int64_t numel;
    size_t nbytes;
    void *host;              /* interpreter: 64-byte aligned host memory, inside host_base */
    void *host_base;         /* interpreter: what was allocated (and is freed) */
    uint64_t dev;            /* CUDA: device pointer */
    uint8_t *uninit;         /* tc_tensor_mark_uninit: one bit per byte (interp.h, uninit_*) */
};

typedef struct ArgSlot {
    bool set;
    tc_value v;              /* TC_VAL_STR: s owned by the slot */
} ArgSlot;

struct tc_args {
    tc_kernel *k;
    int n;
    ArgSlot *slots;          /* one per kernel parameter */
};

/* Resolves the context's backend (AUTO -> interpreter or the active driver). */
tc_status api_backend(tc_context *ctx, tc_backend *out);

/* The value of a parameter's literal default (`n=10`, `K: tl.constexpr = None`). */
bool api_param_default(const Param *p, tc_value *out);
/* A tc_print_fn that keeps text for tc_take_output (user = the context). */
void api_keep_output(const char *text, void *user);

/* The launch (tc_launch is in jit.c). Frees a kernel's cache. */
void jit_kernel_free_cache(tc_kernel *k);
/* Compiles PTX for a target from signature strings (tc_compile_ptx). */
tc_status jit_compile_ptx(tc_kernel *k, const tc_target *target, const char *const *sig,
                          int nsig, tc_args *constexprs, int num_warps, char **ptx_out);

#endif
