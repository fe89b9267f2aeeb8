/* jit.h — the runtime: the handles behind the public API (modules, kernels, tensors,
 * argument lists: module.c, tensor.c), the launch path with its in-memory specialization
 * cache (jit.c) and the pipeline that compiles one specialization (pipeline.c). */
#ifndef JIT_H
#define JIT_H

#include "base/context.h"
#include "front/ast.h"
#include "trace/trace.h"
#include "driver/cuda.h"
#include "gpu/gpu.h"

/* Most parameters a kernel may have (Triton has no limit; CUDA's parameter space is 4 KB). */
#define JIT_MAX_PARAMS 128
#define JIT_MAX_REGIONS 1024  /* tensors one interpreter launch may touch (tables' included) */
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
    /* the target of a device, read once: (device + 1) << 32 | arch key (0: not yet) */
    _Atomic uint64_t arch_cache;
    pthread_mutex_t lock;    /* guards kernels[] (created lazily from several threads) */
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
    pthread_mutex_t lock;    /* guards table, nentries, stats and the entries' modules */
    struct TuneKernel *tune; /* owned by tune/: decorators, configs, chosen configs */
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
    int device;              /* CUDA: the device it was allocated on */
    uint8_t *uninit;         /* tc_tensor_mark_uninit: one bit per byte (interp.h, uninit_*) */
    bool uninit_shared;      /* a view's uninit points into its root's (not freed with it) */
    bool owns;               /* the memory is tritonc's (tc_tensor_new); else the caller's */
    tc_tensor *root;         /* a view: the tensor whose memory it is (NULL: its own) */
    _Atomic int refs;        /* a root: 1 for its handle + 1 per live view */
    tc_tensor **ptab; int nptab;  /* tc_tensor_ptr_table: the tensors whose addresses it holds */
    /* tc_tensor_descriptor: a view of its tensor with drank > 0, the descriptor's shape,
     * strides (in elements) and block shape (which a pre_hook may change) */
    int drank;
    int64_t dshape[TC_MAX_RANK], dstrides[TC_MAX_RANK], dblock[TC_MAX_RANK];
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

/* The value of a parameter's literal default (`n=10`, `K: tl.constexpr = None`). */
bool param_default(const Param *p, tc_value *out);
/* Frees a module and its kernels (module.c); tune/ frees its own state on them first. */
void module_handle_free(tc_module *m);

/* The plain launch: specialize, compile or hit the cache, run (tc_launch in api.c calls it,
 * or the autotuner does). */
tc_status jit_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts);
/* Frees a kernel's specialization cache. */
void jit_kernel_free_cache(tc_kernel *k);
/* Compiles PTX for a target from signature strings (tc_compile_ptx). */
tc_status jit_compile_ptx(tc_kernel *k, const tc_target *target, const char *const *sig,
                          int nsig, tc_args *constexprs, int num_warps, char **ptx_out);

/* ---- the pipeline (pipeline.c) ------------------------------------------------------ */

/* What a GPU compilation is for. */
typedef struct PipelineGpu {
    const tc_target *target;
    int num_warps, num_stages;
    int max_shared;          /* bytes of shared memory per block the device allows */
} PipelineGpu;

/* What it gave: the loaded module and how to launch it. */
typedef struct PipelineCode {
    CuModule *cu;
    int threads, shared_bytes;
    int cache_event;         /* tc_cache_event */
    char note[256];          /* the disk cache's remark for --verbose, if any */
    char dot[48];            /* how tl.dot ran (gpu_dot_summary) */
    GpuTmap tmap[GPU_MAX_TMAPS];  /* the tensor maps it takes after its parameters (TMA) */
    int ntmap;
    int scratch;             /* bytes of global scratch per program it takes last (0: none) */
} PipelineCode;

/* One specialization from the AST to code: traced into *ir (allocated in arena; static_print
 * text into text) with *ir_param[j] the kernel parameter of IR parameter j, and with gpu
 * set, compiled or found in the disk cache and loaded into *code. spec is the
 * specialization string (the disk cache's key). Errors in e. */
tc_status pipeline_compile(const tc_kernel *k, const SpecArg *args, const char *spec,
                           const PipelineGpu *gpu, Arena *arena, Buf *text, IrFunc **ir,
                           int **ir_param, PipelineCode *code, Err *e);

#endif
