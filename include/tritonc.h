/* tritonc — Triton kernels, compiled and run from C.
 *
 * A kernel file is a Python file written in Triton's own syntax. tritonc reads it,
 * specializes each @triton.jit kernel for its arguments, and either runs it in a CPU
 * interpreter or compiles it to PTX for the GPU the CUDA driver reports.
 *
 * Conventions: every function that can fail returns a tc_status; TC_OK is 0. The
 * message of the last failure on a context is tc_errmsg(ctx); it names the kernel
 * file, line and column where there is one. The library never exits and never prints.
 *
 * ABI policy. The shared library is libtritonc.so.MAJOR.MINOR.PATCH (TRITONC_VERSION) with
 * the SONAME libtritonc.so.MAJOR; a program linked against it keeps working with every
 * later library of the same SONAME.
 *  - Exported are exactly the functions declared here with TC_API (all named tc_*); every
 *    other symbol is hidden in libtritonc.so and local in libtritonc.a.
 *  - Functions are only added (MINOR goes up). Enum values are only appended.
 *  - Structs that grow carry or pass their size and only gain fields at their end, where a
 *    field's 0 keeps the older behaviour:
 *      tc_launch_opts (read by the library): its first field, size, is set by
 *        tc_launch_defaults(), the way to initialise one; the library reads the fields that
 *        fit within size and takes defaults for the rest; a size below 0.1's is TC_ERR_ARG.
 *      tc_launch_report, tc_stats (written by the library): the caller passes sizeof its
 *        struct; the library fills that many bytes, zeros for fields it does not know.
 *    tc_compiled is only reached through the library's pointer and may also grow at its end.
 *    Every other struct is frozen: its size and fields stay as they are within a SONAME.
 *  - The opaque handles (tc_context, tc_module, ...) change freely.
 *  - The SONAME changes (MAJOR goes up) when a function is removed or its parameters,
 *    result or meaning change, when a struct field's type, offset or meaning changes, when
 *    a frozen struct changes, or when an enum value changes.
 */
#ifndef TRITONC_H
#define TRITONC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRITONC_VERSION "0.1.0"

/* Marks the exported API (the library is built with -fvisibility=hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define TC_API __attribute__((visibility("default")))
#else
#define TC_API
#endif

typedef enum tc_status {
    TC_OK = 0,
    TC_ERR_SYNTAX,      /* the kernel file does not parse, or uses a construct Triton rejects */
    TC_ERR_COMPILE,     /* type, shape or specialization error while tracing a kernel */
    TC_ERR_RUNTIME,     /* the kernel failed while running (out-of-bounds access, device fault) */
    TC_ERR_ARG,         /* bad argument to an API call or a launch */
    TC_ERR_NOT_FOUND,   /* no such kernel, file, device or name */
    TC_ERR_NO_DRIVER,   /* no active driver: "0 active drivers ([]). There should only be one." */
    TC_ERR_DRIVER,      /* a CUDA driver call failed */
    TC_ERR_RESOURCES,   /* out of resource (shared memory, registers, threads) */
    TC_ERR_IO,          /* a file could not be read or written */
    TC_ERR_NOMEM,       /* out of memory */
    TC_ERR_LIMIT,       /* input beyond a documented limit (nesting, size, recursion) */
    TC_ERR_UNSUPPORTED, /* valid Triton that tritonc does not implement yet */
    TC_ERR_INTERNAL,    /* a tritonc bug: an invariant failed */
    TC_ERR_TIMEOUT      /* the launch passed tc_launch_opts.timeout_s */
} tc_status;

/* Element types, with Triton's names (tc_dtype_name gives "fp32", "i32", ...). */
typedef enum tc_dtype {
    TC_I1 = 1, TC_I8, TC_I16, TC_I32, TC_I64,
    TC_U8, TC_U16, TC_U32, TC_U64,
    TC_FP16, TC_BF16, TC_FP32, TC_FP64,
    /* 8-bit floats (one byte each; .npy files hold their bits as '<u1'): e5m2 (IEEE-like,
     * with inf), e4m3 "fn" (no inf, NaN 0x7f/0xff; the GPU needs sm_89), e4m3 with
     * exponent bias 15 (no inf or NaN; max 1.875) */
    TC_FP8E5, TC_FP8E4NV, TC_FP8E4B15
} tc_dtype;

typedef struct tc_context tc_context;
typedef struct tc_module tc_module;
typedef struct tc_kernel tc_kernel;
typedef struct tc_tensor tc_tensor;
typedef struct tc_args tc_args;

TC_API const char *tc_status_name(tc_status s);   /* "TC_ERR_SYNTAX" */
TC_API const char *tc_dtype_name(tc_dtype t);      /* "fp32"; NULL if invalid */
/* Accepts fp32, float32, i32, int32, ...; TC_ERR_ARG for an unknown name or NULL. */
TC_API tc_status tc_dtype_from_name(const char *name, tc_dtype *out);
TC_API size_t tc_dtype_size(tc_dtype t);           /* bytes per element (i1 is stored as 1 byte) */
/* The value of the 8-bit float bits of type t (TC_FP8*; NaN for another t), and the bits of
 * v rounded to t as Triton's .to(t) rounds an fp32 (to nearest even, saturating to the largest
 * finite value, NaN to 0x7f; TC_FP8E4B15 as Triton's own conversion: fp16 toward zero, then
 * nearest with ties away, saturating to 1.75, NaN to 1.75). */
TC_API double tc_fp8_decode(tc_dtype t, unsigned bits);
TC_API unsigned tc_fp8_encode(tc_dtype t, double v);

/* ---- context -------------------------------------------------------------------- */

/* Threads. One context may be used from several threads at once for loading modules,
 * looking up kernels, creating and freeing tensors (each tensor, argument list, compiled
 * variant and binary belongs to one thread at a time), launching (tc_launch, tc_graph_*,
 * tc_synchronize) and reading errors and reports: the compilation and kernel caches are
 * locked, and two threads that need the same new specialization compile it once (one
 * waits for the other). The last error (tc_errcode, tc_errmsg, tc_errloc), the last launch
 * (tc_last_launch) and the last tuning (tc_last_tune) are per thread: each thread reads
 * what its own calls did. Autotuned launches (and tc_tune, tc_bench_kernel) on one context
 * run one at a time. Configuration calls (tc_context_set_backend, tc_set_device,
 * tc_context_set_cuda_context, tc_set_print, tc_set_allocator, tc_tuning_db_load) and the freeing of modules
 * and of the context must not overlap other calls on that context. The print callback may
 * be called from several threads, one at a time. The calls that take no context
 * (tc_context_new, names, values, targets, tc_cache_dir, tc_cache_max_bytes, tc_free,
 * tc_format_double) may be made from any thread at any time.
 *
 * Blocking. Calls that wait for the device say so below: tc_synchronize,
 * tc_stream_synchronize, tc_tensor_to_host, tc_tensor_copy_from_host (a synchronous copy),
 * tc_tensor_new / tc_tensor_from_host (cuMemAlloc and a memset/copy, which may synchronize),
 * tc_tensor_free of owned device memory (cuMemFree may synchronize), benchmarking and
 * tuning, tc_graph_free, and a launch with TRITONC_LAUNCH_BLOCKING=1. A GPU launch
 * (tc_launch, tc_binary_launch, tc_graph_launch) only enqueues, but its first use of a
 * specialization compiles and loads a module, which may take milliseconds to seconds.
 * Everything else neither waits for the device nor synchronizes. */

typedef enum tc_backend { TC_BACKEND_AUTO = 0, TC_BACKEND_INTERPRET, TC_BACKEND_CUDA } tc_backend;

/* A new context. The backend defaults to AUTO: the interpreter when TRITON_INTERPRET=1,
 * else the active driver. tc_context_new never touches the driver. */
TC_API tc_status tc_context_new(tc_context **out);
TC_API void tc_context_free(tc_context *ctx);
TC_API tc_status tc_context_set_backend(tc_context *ctx, tc_backend b);
/* The backend launches will use (resolves AUTO; may fail with TC_ERR_NO_DRIVER). */
TC_API tc_status tc_context_backend(tc_context *ctx, tc_backend *out);

/* The last error: its status, full message (file:line:col, source line, caret) and location. */
TC_API tc_status tc_errcode(const tc_context *ctx);
TC_API const char *tc_errmsg(const tc_context *ctx);
typedef struct tc_srcloc { const char *file; int line, col; } tc_srcloc;
TC_API tc_srcloc tc_errloc(const tc_context *ctx);

/* ---- hardware: driver, target, devices ------------------------------------------- */

/* From several threads at once, each on its own context: driver discovery runs once per
 * process and the device properties are cached under a lock. tc_set_device applies to the context; the device's
 * primary CUDA context is made current on each thread that launches with it. */

/* The active driver's name ("cuda"). Fails with TC_ERR_NO_DRIVER and the message
 * "0 active drivers ([]). There should only be one.\n<why>" when there is none. */
TC_API tc_status tc_active_driver(tc_context *ctx, const char **name);
/* The active driver's library as opened ("libcuda.so.1", or TRITONC_LIBCUDA_PATH) and its
 * version as the driver reports it (13000 for CUDA 13.0); either output may be NULL, not
 * both. Fails as tc_active_driver. */
TC_API tc_status tc_driver_version(tc_context *ctx, const char **library, int *version);

typedef struct tc_target {
    char backend[16];   /* "cuda" */
    int arch;           /* major*10 + minor: 90 */
    int warp_size;      /* 32 */
    int arch_suffix_a;  /* 1 for sm_90a-style targets used for compilation */
} tc_target;

/* The target of the current device (TRITON_OVERRIDE_ARCH=sm80 overrides the arch). */
TC_API tc_status tc_current_target(tc_context *ctx, tc_target *out);
/* "cuda:90" and "GPUTarget(backend='cuda', arch=90, warp_size=32)" */
TC_API void tc_target_str(const tc_target *t, char *buf, size_t n);
TC_API void tc_target_triton_str(const tc_target *t, char *buf, size_t n);
/* Parses "cuda:80", "cuda:90a", "sm_90a", "sm80" naming a target tritonc compiles for:
 * TC_ERR_ARG for bad syntax or an arch it does not know, TC_ERR_UNSUPPORTED for another
 * backend ("hip:gfx942"). */
TC_API tc_status tc_target_parse(const char *s, tc_target *out);
/* The targets tritonc compiles for, for messages: "cuda:80, cuda:86, ..., cuda:121". */
TC_API const char *tc_target_names(void);

typedef struct tc_device_props {
    char name[256];
    int major, minor;
    int multiprocessor_count;
    size_t total_memory;              /* bytes */
    int l2_cache_size;                /* bytes */
    int max_shared_memory_per_block_optin;
    int max_shared_memory_per_multiprocessor;
    int max_registers_per_block;
    int warp_size;
    int max_threads_per_block;
    int sm_clock_khz;
    int mem_clock_khz;
    int mem_bus_width_bits;
    double peak_bandwidth_gbs;        /* 2 * mem_clock * bus_width / 8 */
} tc_device_props;

TC_API tc_status tc_device_count(tc_context *ctx, int *count);
TC_API tc_status tc_device_properties(tc_context *ctx, int device, tc_device_props *out);
TC_API tc_status tc_set_device(tc_context *ctx, int device);
TC_API int tc_current_device(const tc_context *ctx);

/* ---- modules and kernels ---------------------------------------------------------- */

/* On the context's thread. Loading parses the file; nothing is compiled until a launch. */

TC_API tc_status tc_module_load_file(tc_context *ctx, const char *path, tc_module **out);
/* name is used in error messages in place of a file path. */
TC_API tc_status tc_module_load_string(tc_context *ctx, const char *name, const char *source,
                                       tc_module **out);
TC_API void tc_module_free(tc_module *m);
TC_API int tc_module_kernel_count(const tc_module *m);
TC_API const char *tc_module_kernel_name(const tc_module *m, int i);
TC_API tc_status tc_module_kernel(tc_module *m, const char *name, tc_kernel **out);

/* Parameters of a kernel, in order; is_constexpr marks `P: tl.constexpr`. */
TC_API int tc_kernel_param_count(const tc_kernel *k);
TC_API const char *tc_kernel_param_name(const tc_kernel *k, int i, int *is_constexpr);

/* ---- tensors ---------------------------------------------------------------------- */

/* On the context's thread. Device tensors: tc_tensor_to_host waits for the device's pending
 * work (the copy synchronizes), tc_tensor_copy_from_host copies before it returns, and
 * tc_tensor_free may wait for the device. Interpreter tensors are plain host memory. */

#define TC_MAX_RANK 8

/* A tensor in the memory of the context's backend (host memory for the interpreter,
 * device memory under CUDA). New tensors are zero-filled. */
TC_API tc_status tc_tensor_new(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                               tc_tensor **out);
TC_API tc_status tc_tensor_from_host(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                                     const void *data, tc_tensor **out);
/* Copies numel*dtype_size bytes to dst (nbytes must be at least that). */
TC_API tc_status tc_tensor_to_host(tc_tensor *t, void *dst, size_t nbytes);
TC_API tc_status tc_tensor_copy_from_host(tc_tensor *t, const void *src, size_t nbytes);
TC_API void tc_tensor_free(tc_tensor *t);
TC_API tc_dtype tc_tensor_dtype(const tc_tensor *t);
TC_API int tc_tensor_rank(const tc_tensor *t);
TC_API const int64_t *tc_tensor_shape(const tc_tensor *t);
TC_API int64_t tc_tensor_numel(const tc_tensor *t);
TC_API size_t tc_tensor_nbytes(const tc_tensor *t);
/* Interpreter (host) tensors: the tensor's own memory (nbytes, 64-byte aligned), to fill or
 * read in place without a copy; valid until tc_tensor_free. NULL for device (CUDA) tensors:
 * use tc_tensor_copy_from_host and tc_tensor_to_host there. Writes through it do not clear
 * tc_tensor_mark_uninit's marks. */
TC_API void *tc_tensor_host_data(tc_tensor *t);
/* Marks a tensor's contents as never written (as torch.empty); `tritonc check` reports
 * reads of such bytes. */
TC_API void tc_tensor_mark_uninit(tc_tensor *t);

/* ---- arguments and launch ---------------------------------------------------------- */

/* On the context's thread. tc_launch on the GPU enqueues the kernel and returns (launches are
 * asynchronous, as in Triton; TRITONC_LAUNCH_BLOCKING=1 waits after each one); on the
 * interpreter it runs the whole grid before returning, on opts.threads worker threads when
 * asked. The grid callback runs on the launching thread; the print callback too, except for
 * device_print in a launch with threads > 1: then worker threads call it, one at a time. */

typedef enum tc_value_kind {
    TC_VAL_NONE = 0, TC_VAL_INT, TC_VAL_FLOAT, TC_VAL_BOOL, TC_VAL_STR, TC_VAL_TENSOR,
    TC_VAL_UINT         /* an integer in [2^63, 2^64) (tc_uint); u.i holds its bits */
} tc_value_kind;

typedef struct tc_value {
    tc_value_kind kind;
    union { int64_t i; double f; int b; const char *s; tc_tensor *t; } u;
} tc_value;

TC_API tc_value tc_int(int64_t v);
/* An unsigned integer: tc_int(v) up to INT64_MAX, beyond a TC_VAL_UINT, which a runtime
 * parameter takes as u64 (Triton's rule: i32, i64, u64; constexprs stay within int64). */
TC_API tc_value tc_uint(uint64_t v);
TC_API tc_value tc_float(double v);
TC_API tc_value tc_bool(int v);
TC_API tc_value tc_str(const char *s);    /* copied when set */
TC_API tc_value tc_none(void);
TC_API tc_value tc_tens(tc_tensor *t);

/* An argument list for one kernel. Arguments may be set by name (runtime arguments and
 * constexprs alike) or by position; setting one twice replaces it. */
TC_API tc_status tc_args_new(tc_kernel *k, tc_args **out);
TC_API void tc_args_free(tc_args *a);
TC_API tc_status tc_args_set(tc_args *a, const char *name, tc_value v);
TC_API tc_status tc_args_set_at(tc_args *a, int position, tc_value v);
/* Reads a value back (used by grid callbacks: Triton's `lambda META: ...`). */
TC_API tc_status tc_args_get(const tc_args *a, const char *name, tc_value *out);
/* A launch grid written as Python, as the body of Triton's `lambda META: ...` sees it: one to
 * three expressions, or a tuple ("cdiv(n, BLOCK)", "(cdiv(M, BM) * cdiv(N, BN), 1)"), over
 * the launch's arguments by name (constexprs included) with + - * // % ** << >>, cdiv,
 * next_power_of_2, min, max (also as triton.cdiv, ...). Numbers follow the tracer's
 * constexpr rules (Python's floor division; past 64 bits an error). Fills grid (missing
 * axes 1); TC_ERR_ARG with the reason on the kernel's context for a bad expression or a
 * dimension outside 0..2^32-1. Call it from a tc_grid_fn. */
TC_API tc_status tc_grid_eval(const tc_args *meta, const char *expr, uint32_t grid[3]);

typedef tc_status (*tc_grid_fn)(const tc_args *meta, uint32_t grid[3], void *user);

/* Progress of long work, on the thread that started it: `what` is "programs" (an
 * interpreter launch), "compiled" or "timed" (autotuning configs); done of total; elapsed
 * seconds since the work began. Interpreter: called at most about 4 times a second, and
 * once more with done == total at the end when it was called before. */
typedef void (*tc_progress_fn)(const char *what, uint64_t done, uint64_t total, double elapsed_s,
                               void *user);

typedef struct tc_launch_opts {
    size_t size;            /* sizeof(tc_launch_opts) of the caller: set by tc_launch_defaults */
    uint32_t grid[3];       /* unused axes are 0 or 1 */
    tc_grid_fn grid_fn;     /* if set, called to fill grid */
    void *grid_user;
    int num_warps;          /* 0 = default 4; must be a power of two */
    int num_stages;         /* 0 = default 3 */
    int check;              /* interpreter: record and report races/hazards (tritonc check);
                               also on when the environment has TRITONC_CHECK=1. The report
                               goes to the print callback (tc_set_print); the counts to
                               tc_launch_report.check_findings/check_notes */
    void *stream;           /* CUstream, or NULL for the default stream */
    int threads;            /* interpreter: run the programs on this many threads (0 or 1: one;
                               -1: one per online CPU). With check, a parallel run on copies
                               of the tensors is compared with the program-order run */
    uint64_t shuffle_seed;  /* interpreter: 0 runs programs in order (x, then y, then z);
                               else in an order shuffled by this seed. With check: the seed of
                               the shuffled comparison run (0: a fixed default, reported) */
    /* since 0.1 + issue 15 (0 keeps the older behaviour): */
    double timeout_s;       /* > 0: a time limit in seconds. The interpreter stops the launch
                               when it passes (TC_ERR_TIMEOUT naming the program and the line
                               it was running); on the GPU the launch waits at most that long
                               for the kernel (TC_ERR_TIMEOUT: it may still be running) */
    tc_progress_fn progress; /* interpreter: programs done of the grid's total; autotuning
                               (tc_tune, a tuning launch): configs "compiled", then "timed",
                               after each one */
    void *progress_user;
} tc_launch_opts;

/* Fills size bytes of *o: the defaults (grid (1,1,1), num_warps 4, num_stages 3, the rest 0)
 * with o->size = size. Use tc_launch_defaults(). */
TC_API void tc_launch_opts_init(tc_launch_opts *o, size_t size);
/* Inline, so that the size is the program's: a newer library never writes past it. */
static inline tc_launch_opts tc_launch_defaults(void) {
    tc_launch_opts o;
    tc_launch_opts_init(&o, sizeof o);
    return o;
}

TC_API tc_status tc_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts);

/* What the last launch on this context by the calling thread did, for --verbose / --stats. */
typedef struct tc_launch_report {
    tc_backend backend;
    int num_warps, num_stages;
    int compiled;                    /* 1 if this launch compiled a new specialization */
    char specialization[512];        /* "*fp32:16, *fp32:16, *fp32:16, i32, BLOCK=1024" */
    char note[256];                  /* e.g. "the interpreter does not model num_warps/num_stages" */
    double compile_ms;
    double run_ms;     /* interpreter: the whole run; GPU: the enqueue only (launches are
                          asynchronous) unless TRITONC_LAUNCH_BLOCKING=1 */
    int disk_cache;                  /* a tc_cache_event: what the disk cache did (CUDA) */
    int check;                       /* 1 if the launch ran in check mode */
    int check_findings;              /* check mode: problems reported (0 = clean) */
    int check_notes;                 /* check mode: notes (division by zero, rounding, ...) */
    uint64_t check_seed;             /* check mode: the shuffle seed compared with (0: none) */
    int threads;                     /* interpreter threads used for the (plain) run */
    char dot[48];                    /* GPU: how tl.dot ran: "wgmma, 3 stages", "mma.sync, 2
                                        stages", "mma.sync, loads not pipelined", "fma"; "";
                                        ", warp_specialize ignored" added where tl.range asked
                                        for it (such loops run as ordinary ones) */
    int shared_bytes;                /* GPU: dynamic shared memory per program */
    uint32_t grid[3];                /* the grid that ran (a grid_fn's result) */
    int64_t scratch_bytes;           /* GPU: the global scratch area allocated for the launch
                                        (tc_set_allocator), 0 when none */
} tc_launch_report;
/* size: sizeof *out (the ABI policy above). */
TC_API void tc_last_launch(const tc_context *ctx, tc_launch_report *out, size_t size);

typedef struct tc_stats { int specializations; int hits; int launches; } tc_stats;
TC_API void tc_kernel_stats(const tc_kernel *k, tc_stats *out, size_t size); /* size: sizeof *out */

/* Global scratch memory for launches that need it, Triton's triton.set_allocator: on
 * sm_90a a kernel that makes tensor descriptors (tl.make_tensor_descriptor) fills their TMA
 * maps in it, 128 bytes per descriptor and program (tc_launch_report.scratch_bytes). Before
 * such a launch, alloc(size, align, stream, user) returns the device address of at least
 * size bytes aligned to align, for work queued on stream (0: it failed, and the launch fails
 * with TC_ERR_NOMEM); once the launch is queued (or failed), release(addr, size, stream,
 * user) gives it back: the memory must stay valid for the work already queued on stream,
 * as cuMemFreeAsync and PyTorch's caching allocator keep it. release may be NULL.
 * alloc NULL (the default): cuMemAllocAsync and cuMemFreeAsync on the launch's stream, so
 * that launches on several streams never share the area and a captured graph (tc_graph_*)
 * allocates it at each replay (CUDA 11.4 or newer). A configuration call (see Threads). */
typedef uint64_t (*tc_alloc_fn)(size_t size, size_t align, void *stream, void *user);
typedef void (*tc_release_fn)(uint64_t addr, size_t size, void *stream, void *user);
TC_API void tc_set_allocator(tc_context *ctx, tc_alloc_fn alloc, tc_release_fn release, void *user);

/* Output of device_print/print/static_print goes to this callback (default: none, the
 * text is kept and can be read with tc_take_output). */
typedef void (*tc_print_fn)(const char *text, void *user);
TC_API void tc_set_print(tc_context *ctx, tc_print_fn fn, void *user);
/* The output kept since the last call when no print callback is set (malloc'd; free with
 * tc_free), or NULL if there is none. */
TC_API char *tc_take_output(tc_context *ctx);

/* ---- ahead of time ----------------------------------------------------------------- */

/* On the kernel's context's thread; no device is used, so several contexts may compile on
 * several threads at once. The disk cache is shared safely between threads and processes. */

/* Lowers a kernel to PTX for a target with no device: sig is Triton's signature string
 * list, one per runtime parameter ("*fp32:16", "i32", "fp32"), constexprs come from a. */
TC_API tc_status tc_compile_ptx(tc_kernel *k, const tc_target *target, const char *const *sig,
                                int nsig, tc_args *constexprs, int num_warps, char **ptx_out);

/* One compiled variant (a signature for a target) with what a launcher needs. */
typedef struct tc_compiled_param {
    char name[64];      /* the kernel parameter's name */
    int index;          /* its position among the kernel's parameters */
    int typed;          /* 0 for a bare number in the signature (no type, value fixed) */
    tc_dtype dtype;     /* the pointee for pointers */
    int is_ptr;
    int hint;           /* 16: divisible by 16 (pointers: 16-byte aligned), 1: equal to 1, 0 */
    int fixed;          /* the value is baked in (hint 1 or a number): not an entry parameter */
    int64_t value;      /* the fixed value */
} tc_compiled_param;

typedef struct tc_compiled {
    tc_target target;
    char target_name[16];           /* "cuda:90a" */
    char name[128];                 /* the .entry name */
    char specialization[512];       /* "*fp32:16, *fp32:16, *fp32:16, i32, BLOCK=1024" */
    int threads, shared_bytes, num_warps, num_stages, num_regs;  /* num_regs: from ptxas, else 0 */
    char *ptx;                      /* NUL-terminated */
    unsigned char *cubin;           /* after tc_compiled_assemble; else NULL */
    size_t cubin_size;
    int nargs;                      /* the kernel's runtime (non-constexpr) parameters */
    tc_compiled_param *args;
    int nparams;                    /* parameters of the entry: the args that are not fixed */
    int disk_cache;                 /* a tc_cache_event */
    char cache_note[256];           /* why a cache entry was refused, for --verbose */
    void *priv;                     /* the library's (the disk cache key) */
} tc_compiled;

/* Compiles a kernel for a target with no device. sig: one type per runtime parameter, in
 * order: "*fp32", "*fp16:16" (16-byte aligned), "i32", "i64:16" (divisible by 16), "i32:1"
 * (equal to 1: folded, as Triton does), "fp32", or a number (the value is baked in).
 * Constexprs come from a. num_stages 0 = 3. Uses the disk cache. */
TC_API tc_status tc_compile(tc_kernel *k, const tc_target *target, const char *const *sig, int nsig,
                            tc_args *constexprs, int num_warps, int num_stages, tc_compiled **out);
TC_API void tc_compiled_free(tc_compiled *c);
/* Runs ptxas on c->ptx and keeps the cubin in c (ptxas: $TRITONC_PTXAS, else ptxas on
 * PATH, else /usr/local/cuda/bin/ptxas). TC_ERR_NOT_FOUND when there is none. The cubin is
 * added to the disk cache entry (a JIT launch on that arch then loads it directly); a cubin
 * already there (c->cubin set by tc_compile) is kept and ptxas is not run. */
TC_API tc_status tc_compiled_assemble(tc_context *ctx, tc_compiled *c);
/* The ptxas that tc_compiled_assemble would run (into buf); TC_ERR_NOT_FOUND if none. */
TC_API tc_status tc_ptxas_path(char *buf, size_t n);

/* Writes out_h and out_c: a C pair embedding the variants (several signatures and targets
 * of kernel k; all with the same runtime parameter types) with functions to load them on
 * the current device and to launch the kernel with typed arguments, using only tritonc.h.
 * prefix names the functions (prefix_load, prefix_launch, ...); include_name is what the
 * .c file #includes. */
TC_API tc_status tc_emit_c(tc_kernel *k, tc_compiled *const *variants, int n, const char *prefix,
                           const char *out_h, const char *out_c, const char *include_name);

/* ---- loading ahead-of-time binaries (what the generated C calls) ---------------------- */

/* On the context's thread. tc_binary_launch is asynchronous; tc_synchronize waits for all
 * the work of the context's device. */

typedef struct tc_binary_desc {
    const char *name;               /* the .entry name */
    const char *target;             /* "cuda:90a" */
    const char *ptx;                /* NUL-terminated PTX, or NULL */
    const unsigned char *cubin;     /* or NULL */
    size_t cubin_size;
    int threads, shared_bytes;
    int nparams;                    /* parameters of the entry */
} tc_binary_desc;

typedef struct tc_binary tc_binary;

/* Which of n descriptors suits the current device: the exact arch (cubin or PTX), else the
 * highest arch below the device's that has PTX and no arch-specific ("a") features (PTX is
 * forward compatible). Fails as tc_current_target with no driver, and with
 * TC_ERR_NOT_FOUND naming the targets when none fits. */
TC_API tc_status tc_binary_select(tc_context *ctx, const tc_binary_desc *descs, int n, int *index);
/* Loads one descriptor on the current device (the cubin on an exact arch match, else the
 * PTX, which the driver compiles). */
TC_API tc_status tc_binary_load(tc_context *ctx, const tc_binary_desc *desc, tc_binary **out);
/* Launches with params[i] pointing at the value of the entry's i-th parameter, as
 * cuLaunchKernel takes them (uint64_t device addresses, int32_t, float, ...). Asynchronous
 * on stream (NULL: the default stream); nparams must equal the descriptor's. A grid with a
 * 0 launches nothing. */
TC_API tc_status tc_binary_launch(tc_binary *b, const uint32_t grid[3], void *stream, void **params,
                                  int nparams);
TC_API void tc_binary_free(tc_binary *b);
/* Waits for the device to finish (errors of asynchronous launches surface here). */
TC_API tc_status tc_synchronize(tc_context *ctx);
/* A tensor's address: the device pointer under CUDA, the host pointer under the interpreter. */
TC_API uint64_t tc_tensor_address(const tc_tensor *t);

/* ---- the disk cache -------------------------------------------------------------------- */

/* Several threads (each on its own context) and processes at once: entries are written to
 * temporary files and renamed, so a reader never sees half an entry; tc_cache_clear may
 * remove an entry another process is about to read (that one then compiles). */

typedef enum tc_cache_event {
    TC_CACHE_UNUSED = 0,   /* no disk cache ($TRITONC_CACHE_DIR and $HOME unset), or the interpreter */
    TC_CACHE_HIT,
    TC_CACHE_MISS,         /* compiled and stored */
    TC_CACHE_CORRUPT,      /* an entry was damaged: deleted, recompiled, stored (note says why) */
    TC_CACHE_BYPASSED,     /* TRITONC_ALWAYS_COMPILE=1: compiled and stored */
    TC_CACHE_UNSAFE        /* the entry or the cache directory is not the user's or others may
                              write to it: not read, compiled (the entry replaced, unless the
                              directory is the problem; note says why) */
} tc_cache_event;
TC_API const char *tc_cache_event_name(int ev);   /* "cache hit", "cache miss", ... */

typedef struct tc_cache_item {
    char key[65];          /* hex hash: the file name without ".tcc" (a temporary file: its name) */
    char kernel[128];      /* the .entry name */
    char target[16];       /* "cuda:90a" */
    uint64_t size;         /* bytes on disk */
    double age_s;          /* seconds since written */
    int valid;             /* 1: an entry this build reads; 0: see note */
    char note[128];        /* valid: "ptx" or "ptx+cubin"; else it begins with what the file is:
                              "stale: ..." (an entry of another build or format of tritonc),
                              "temporary: ..." (an unfinished or interrupted write),
                              "damaged: why", or "not read: why" (not the user's, writable by
                              others, a link) */
} tc_cache_item;

/* The directory ($TRITONC_CACHE_DIR, else $HOME/.cache/tritonc); TC_ERR_NOT_FOUND if none. */
TC_API tc_status tc_cache_dir(char *buf, size_t n);
/* The entries and temporary files, oldest first (malloc'd array; free with tc_free). A
 * missing directory is an empty list; one that is not the user's or that others may write
 * to is TC_ERR_IO, saying so (tritonc neither reads nor writes it). */
TC_API tc_status tc_cache_list(tc_context *ctx, tc_cache_item **items, int *n);
/* Removes every entry (stale and damaged ones too) and temporary file; *removed counts
 * them. The autotuning records stay (tc_cache_clear_tuning). */
TC_API tc_status tc_cache_clear(tc_context *ctx, int *removed);
/* Removes the autotuning choices kept on disk (the files of tc_tuning_cache_dir). */
TC_API tc_status tc_cache_clear_tuning(tc_context *ctx, int *removed);
/* The cap on the entries' total size: TRITONC_CACHE_MAX_BYTES (bytes, or with K, M, G, T:
 * KiB ... TiB), default 1 GiB; 0: no cap. A store that passes it removes the least
 * recently used entries (a hit counts as a use). */
TC_API uint64_t tc_cache_max_bytes(void);

/* ---- benchmarking, autotuning and heuristics (src/tune/) ----------------------------- */

/* On the context's thread. Benchmarking and tuning wait for the device (CUDA events). */

/* do_bench as triton.testing.do_bench: one call (compiles), an estimate from 5 timed runs,
 * max(1, warmup_ms/estimate) untimed runs, then max(1, rep_ms/estimate) runs, each after an
 * L2 flush (a flush_bytes buffer written outside the timed region) and timed by a pair of
 * CUDA events. Needs the active driver: without one it fails with TC_ERR_NO_DRIVER. */
typedef struct tc_bench_opts {
    double warmup_ms;      /* 0 = 25 */
    double rep_ms;         /* 0 = 100 */
    size_t flush_bytes;    /* 0 = $TRITONC_BENCH_FLUSH_BYTES, else 256 MB */
} tc_bench_opts;

typedef struct tc_bench_result {
    double median_ms, p20_ms, p80_ms;   /* linear-interpolated quantiles, as torch.quantile */
    double mean_ms, min_ms, max_ms;
    double estimate_ms;                 /* from the 5 estimate runs */
    int n_warmup, n_repeat;
} tc_bench_result;

typedef tc_status (*tc_bench_fn)(void *user);

/* Times fn on the context's current device. opts may be NULL (defaults). */
TC_API tc_status tc_do_bench(tc_context *ctx, tc_bench_fn fn, void *user, const tc_bench_opts *opts,
                             tc_bench_result *out);
/* Times launches of k with a and opts (autotuned kernels: the launch picks its config). */
TC_API tc_status tc_bench_kernel(tc_kernel *k, tc_args *a, const tc_launch_opts *lopts,
                                 const tc_bench_opts *opts, tc_bench_result *out);

/* A configuration, as triton.Config(kwargs, num_warps, num_stages, num_ctas, maxnreg). */
typedef struct tc_autotune_config {
    int nkw;
    const char *const *kw_names;    /* constexpr parameters the config sets */
    const tc_value *kw_values;      /* numbers, booleans, strings (copied) */
    int num_warps;                  /* 0 = 4 */
    int num_stages;                 /* 0 = 3 */
    int num_ctas;                   /* 0 = 1 */
    int maxnreg;                    /* 0 = None */
} tc_autotune_config;

/* What @triton.autotune(configs=..., key=..., reset_to_zero=..., restore_value=...,
 * warmup=..., rep=...) says, given through the API; replaces the decorator's. */
typedef struct tc_autotune_spec {
    const tc_autotune_config *configs; int nconfigs;
    const char *const *key; int nkey;
    const char *const *reset_to_zero; int nreset;
    const char *const *restore_value; int nrestore;
    double warmup_ms, rep_ms;       /* 0 = 25 / 100 */
} tc_autotune_spec;
TC_API tc_status tc_kernel_set_autotune(tc_kernel *k, const tc_autotune_spec *spec);

/* What the kernel's decorators say. Fails with the decorator's error (TC_ERR_UNSUPPORTED for
 * what tritonc cannot evaluate: prune_configs_by, pre_hook, ...; file:line:col). */
typedef struct tc_tune_info {
    int autotuned;          /* @triton.autotune (or tc_kernel_set_autotune) */
    int heuristics;         /* number of @triton.heuristics values */
    int nconfigs;
    int nkey;
    double warmup_ms, rep_ms;
} tc_tune_info;
TC_API tc_status tc_kernel_tune_info(tc_kernel *k, tc_tune_info *out);
/* str(config) as Triton prints it: "BLOCK: 128, num_warps: 4, num_ctas: 1, num_stages: 3,
 * maxnreg: None"; NULL if out of range. Valid until the kernel is freed or re-specified. */
TC_API const char *tc_kernel_config_str(tc_kernel *k, int i);
/* The name of the i-th heuristics value ("EVEN_K"); NULL if out of range. */
TC_API const char *tc_kernel_heuristic_name(tc_kernel *k, int i);

typedef enum tc_tune_source {
    TC_TUNE_NONE = 0,       /* the kernel is not autotuned */
    TC_TUNE_SINGLE,         /* one config: used without benchmarking (as Triton) */
    TC_TUNE_BENCHMARKED,    /* every config was benchmarked now */
    TC_TUNE_MEMORY,         /* chosen earlier in this process */
    TC_TUNE_DISK,           /* read from the on-disk tuning cache (no benchmarking) */
    TC_TUNE_DB,             /* from a tuning database loaded by tc_tuning_db_load */
    TC_TUNE_CHOSEN,         /* the caller chose it (tc_kernel_set_config, tritonc run --config) */
    TC_TUNE_FIRST           /* interpreter, nothing to replay: the first config surviving pruning */
} tc_tune_source;
TC_API const char *tc_tune_source_name(tc_tune_source s);   /* "benchmarked", "disk cache", ... */

typedef struct tc_tune_result {
    char config[256];       /* str(config) */
    tc_status status;       /* TC_OK, or why the config was skipped */
    char reason[256];       /* the first line of the skip reason */
    double ms, p20_ms, p80_ms;   /* median and quantiles; 0 when skipped or not measured */
} tc_tune_result;

typedef struct tc_tune_report {
    tc_tune_source source;
    int best;                   /* index of the chosen config */
    char best_config[256];
    char kernel[128];
    char key[512];              /* Triton's tuning key: "(512, 512, 'torch.float16', ...)" */
    char device[128];           /* where the choice was measured */
    int cc_major, cc_minor;
    char measured_at[32];       /* "2026-11-29T23:59:00Z" */
    char where[512];            /* the database or cache file it came from / went to */
    double tune_s;              /* seconds the tuning took (benchmarked) */
    int compile_parallel;       /* 0: configs were compiled one after another */
    int nresults;
    const tc_tune_result *results;  /* one per config (benchmarked, or as recorded) */
} tc_tune_report;
/* The last autotuning decision on this context by the calling thread (valid until its next
 * launch). */
TC_API tc_status tc_last_tune(const tc_context *ctx, tc_tune_report *out);

/* Runs the autotuning of k for these arguments now. flags: TC_TUNE_FORCE benchmarks even
 * when a cached or database choice exists. progress (may be NULL) is called once per config
 * after it is measured or skipped. Nothing is launched beyond the benchmark runs. */
#define TC_TUNE_FORCE 1
typedef void (*tc_tune_progress_fn)(int i, int n, const tc_tune_result *r, void *user);
TC_API tc_status tc_tune(tc_kernel *k, tc_args *a, const tc_launch_opts *opts, int flags,
                         tc_tune_progress_fn progress, void *user, tc_tune_report *out);

/* Tuning databases (JSON): load merges the file's entries into the context (a launch under
 * the interpreter replays them; on a GPU an entry for the same device is reused); save
 * writes every entry the context knows (loaded and measured). Hostile files fail with
 * TC_ERR_IO or TC_ERR_SYNTAX naming the file and the problem. */
TC_API tc_status tc_tuning_db_load(tc_context *ctx, const char *path);
TC_API tc_status tc_tuning_db_save(tc_context *ctx, const char *path);
/* The on-disk tuning cache directory ($TRITONC_CACHE_DIR/tune, else ~/.cache/tritonc/tune). */
TC_API tc_status tc_tuning_cache_dir(char *buf, size_t n);

TC_API void tc_free(void *p);  /* frees strings returned by the library */

/* Writes n bytes to path atomically: to a new temporary file of a random name in the same
 * directory, fsynced, then renamed over path (whose mode is kept; a link is followed, a
 * device is written in place). On failure (TC_ERR_IO: a full disk, a size limit) the old
 * file is intact and no temporary file is left. tc_emit_c and the command write this way. */
TC_API tc_status tc_write_file(tc_context *ctx, const char *path, const void *data, size_t n);

/* Python's repr() of a float: the shortest decimal that reads back to the same double
 * ("11.0", "0.1", "1e-05", "inf", "nan"), as `print(list)` shows it. */
TC_API void tc_format_double(double v, char *buf, size_t n);

/* ---- check findings as records ---------------------------------------------------------- */

/* One finding (or note) of a check-mode launch (tc_launch_opts.check, `tritonc check`), as
 * structured data for CI; message is the report's line. Size-versioned like
 * tc_launch_report: fields are only appended. */
typedef struct tc_check_finding {
    char kind[32];          /* "race", "hazard", "uninitialized read", "non-finite", "order
                               dependence"; notes: "division by zero", "rounding", "same
                               lane", "not checked" */
    int note;               /* 1: a note, not a problem (not counted in check_findings) */
    char file[256];         /* where: the access reported (a store, a load, ...); "" if none */
    int line, col;
    char file2[256];        /* the other access of a pair (race, hazard) or the instruction
                               that made a NaN/Inf; "" if none */
    int line2, col2;
    int64_t program[3];     /* the example's program id; -1s if none */
    int64_t program2[3];    /* the other program of a race; -1s if none */
    int64_t lane;           /* the example's lane, or -1 */
    uint64_t address;       /* the example's address (host memory under the interpreter), or 0 */
    char tensor[64];        /* the argument holding the address, or "" */
    int64_t element;        /* the element index in it, or -1 */
    uint64_t count;         /* occurrences of this (kind, locations) */
    char message[1024];     /* the report's line, without the location prefix */
} tc_check_finding;

/* The findings and notes of the last launch on ctx, in report order (none unless it ran in
 * check mode): *records is a malloc'd array of *n records of `size` bytes each (the caller's
 * sizeof(tc_check_finding)), NULL when there are none; free it with tc_free. */
TC_API tc_status tc_last_check_findings(const tc_context *ctx, tc_check_finding **records, int *n,
                                        size_t size);
/* ---- inside a C program: the caller's memory, context, streams, graphs (0.2) ---------- */

/* The caller's memory, with no copy. Under CUDA ptr is a device address (cuMemAlloc,
 * cudaMalloc, a pool: cast the CUdeviceptr to void *) on the context's device; under the
 * interpreter a host pointer, and the interpreter's checks then guard exactly the bytes
 * [ptr, ptr + numel*dtype_size). ptr must be aligned to the element size (TC_ERR_ARG) and
 * may be NULL only for an empty tensor. The caller keeps ownership: tc_tensor_free frees the
 * handle and leaves the memory alone. Never blocks. */
TC_API tc_status tc_tensor_wrap(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                                void *ptr, tc_tensor **out);
/* A tensor of `shape` (its own dtype: base's) starting `offset` elements into base's
 * memory, contiguous, wholly inside base (TC_ERR_ARG otherwise, naming the extents). A view
 * keeps its base's memory alive: freeing the base while views live frees the handle only;
 * the memory goes with the last of them. A view of a view is a view of the same memory.
 * Under the interpreter the checks guard the view's own extent. Never blocks. */
TC_API tc_status tc_tensor_view(tc_tensor *base, int64_t offset, int rank, const int64_t *shape,
                                tc_tensor **out);

/* The caller's CUDA context (a CUcontext) for this context's launches, tensors and modules
 * on `device`, instead of the device's primary context; NULL returns to the primary one.
 * tritonc neither retains nor destroys it, and makes it current on each thread that uses
 * the tc_context (checking cuCtxGetCurrent before each launch, so a program may switch
 * contexts between calls). Kernels loaded in one CUDA context are loaded again, from the
 * same compiled code, for another. tc_set_device goes back to the primary context of the
 * device it sets. Never blocks. TC_ERR_NOT_FOUND for a bad device. */
TC_API tc_status tc_context_set_cuda_context(tc_context *ctx, int device, void *cu_context);

/* Streams, for programs without the CUDA runtime: a new non-blocking CUstream on the
 * context's device (cuStreamCreate), its destruction, and a wait for its work (blocks).
 * Under the interpreter *stream is NULL and the calls do nothing: work runs when launched. */
TC_API tc_status tc_stream_new(tc_context *ctx, void **stream);
TC_API void tc_stream_free(tc_context *ctx, void *stream);
TC_API tc_status tc_stream_synchronize(tc_context *ctx, void *stream);

/* CUDA graphs. tc_graph_begin starts capturing the launches made on stream by this thread
 * (cuStreamBeginCapture, thread-local mode; stream must not be NULL: the legacy default
 * stream cannot be captured); tc_graph_end ends the capture and instantiates the graph.
 * Launch every kernel once before capturing it: a launch that must compile a new
 * specialization inside a capture is refused (TC_ERR_ARG), since compiling loads modules;
 * a cached launch does no allocation, compilation or synchronization
 * (TRITONC_LAUNCH_BLOCKING is ignored while capturing). tc_graph_launch replays the whole
 * sequence with one cuGraphLaunch on stream (asynchronous; NULL: the default stream);
 * tensors are bound by address at capture time, so the same buffers are used on every
 * replay. Under the interpreter the same calls record the launches made by this thread on
 * this context and replay them in order (each replay runs them, synchronously).
 * tc_graph_free may wait for the device. */
typedef struct tc_graph tc_graph;
TC_API tc_status tc_graph_begin(tc_context *ctx, void *stream);
TC_API tc_status tc_graph_end(tc_context *ctx, void *stream, tc_graph **out);
TC_API tc_status tc_graph_launch(tc_graph *g, void *stream);
TC_API int tc_graph_kernel_count(const tc_graph *g);   /* launches captured */
TC_API void tc_graph_free(tc_graph *g);

/* Choosing an autotuned kernel's config without benchmarking, on any backend: every later
 * launch of k uses config index (0-based, into the config list as the file builds it, before
 * pruning); -1 goes back to choosing (benchmarking, a tuning database, or under the
 * interpreter the first config surviving pruning). TC_ERR_ARG for an index out of range or a
 * kernel that is not autotuned. tc_kernel_find_config finds the one config matching spec,
 * "NAME=V,NAME=V,num_warps=4,..." (every name given must match; configs are compared on the
 * names given); TC_ERR_ARG, with the configs listed in the message, when none or several do. */
TC_API tc_status tc_kernel_set_config(tc_kernel *k, int index);
/* A table of tensors' addresses, as Triton's grouped GEMM passes `group_a_ptrs` (an int64
 * tensor of data_ptr()s that the kernel loads and casts with .to(tl.pointer_type(...))): an
 * i64 tensor of n elements, on the tensors' backend, holding each one's address. Under the
 * interpreter an access through such an address is checked against the tensor it points
 * into. The tensors must outlive the table's launches; freeing the table frees none of them. */
TC_API tc_status tc_tensor_ptr_table(tc_context *ctx, tc_tensor *const *tensors, int n, tc_tensor **out);
TC_API tc_status tc_kernel_find_config(tc_kernel *k, const char *spec, int *index);
/* The target and device host code's hardware queries assume when no GPU answers
 * (TRITONC_TARGET=cuda:90: a nominal device of that architecture, e.g. an H100 SXM, 132
 * SMs); p may be NULL. TC_ERR_NOT_FOUND when TRITONC_TARGET is unset, TC_ERR_ARG when it
 * names no target with a nominal device. */
TC_API tc_status tc_assumed_device(tc_context *ctx, tc_target *t, tc_device_props *p);
/* A host tensor descriptor (Triton's TensorDescriptor) over `tensor`: rank dimensions of the
 * given shape and strides (in elements; NULL: the tensor's own shape and contiguous strides)
 * read and written in blocks of block_shape (powers of two). Pass it as tc_tens(desc) to a
 * parameter the kernel uses as a tl.tensor_descriptor (desc.load / desc.store); shape,
 * strides and block shape are part of the specialization key. TC_ERR_ARG when the strides
 * are negative or reach outside the tensor. Free it with tc_tensor_free (the tensor must
 * outlive it). On sm_90+ its blocks move by TMA where the strides and block allow (README:
 * the launch encodes its tensor map with cuTensorMapEncodeTiled, nothing allocated). */
TC_API tc_status tc_tensor_descriptor(tc_context *ctx, tc_tensor *tensor, int rank,
                                      const int64_t *shape, const int64_t *strides,
                                      const int64_t *block_shape, tc_tensor **out);
/* A descriptor's rank (0 for a plain tensor), and its shape, strides and block shape. */
TC_API int tc_tensor_descriptor_info(const tc_tensor *d, int64_t *shape, int64_t *strides,
                                     int64_t *block_shape);

#ifdef __cplusplus
}
#endif
#endif
