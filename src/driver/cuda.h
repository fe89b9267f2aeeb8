/* cuda.h — the CUDA driver, loaded at run time with dlopen (never linked), and driver
 * discovery. Every driver call goes through one checked wrapper that turns a CUresult into
 * a TC_ERR_DRIVER error naming the call and the driver's name for the code. */
#ifndef CUDA_H
#define CUDA_H

#include "base/context.h"

typedef uint64_t CuDevPtr;   /* CUdeviceptr */

/* Loads libcuda (TRITONC_LIBCUDA_PATH, else libcuda.so.1) and calls cuInit once per
 * process; later calls return the recorded outcome. TC_ERR_NO_DRIVER when the library is
 * missing, cuInit fails or there are no devices, with the reason in e. */
tc_status cuda_init(Err *e);

/* The active-driver discovery of Triton's runtime/driver.py: walks the backend table (CUDA;
 * room for HIP), demands exactly one active. On failure e->msg is exactly
 * "0 active drivers ([]). There should only be one.\n<why>" (or "N active drivers
 * ([cuda, hip]). There should only be one.") and the code TC_ERR_NO_DRIVER. */
tc_status driver_active(const char **name, Err *e);
/* The selection rule itself, over n backends (names, is-active flags, why-not reasons);
 * driver_active calls it with the backend table. Exposed for tests. */
tc_status driver_select(int n, const char *const *names, const bool *active,
                        const char *const *why, const char **name, Err *e);
/* The library that was opened ("libcuda.so.1" or TRITONC_LIBCUDA_PATH) and
 * cuDriverGetVersion's answer (13000 for 13.0; 0 if unknown). */
tc_status cuda_driver_version(const char **library, int *version, Err *e);

tc_status cuda_device_count(int *n, Err *e);
/* Properties, read once per device and kept. */
tc_status cuda_device_props(int dev, tc_device_props *p, Err *e);
/* The compilation target of a device; TRITON_OVERRIDE_ARCH=sm80 overrides arch, and
 * *overridden tells whether it did. */
tc_status cuda_target(int dev, tc_target *t, bool *overridden, Err *e);

/* What host code's hardware queries answer (torch.cuda.*, driver.active.*): with use_env
 * and TRITONC_TARGET set (cuda:90), that target and its nominal device (target_nominal), and
 * *assumed true; else the active driver's device dev (TC_ERR_NO_DRIVER with Triton's words
 * when there is none). p may be NULL. TC_ERR_ARG for a TRITONC_TARGET tritonc does not know
 * or that has no nominal device. */
tc_status hw_answer(int dev, bool use_env, tc_target *t, tc_device_props *p, bool *assumed, Err *e);

/* Makes the device's primary context current on this thread. */
tc_status cuda_use_device(int dev, Err *e);
/* Makes cuctx (a caller's CUcontext on dev) current on this thread, or with cuctx NULL the
 * primary one (cuda_use_device). A caller's context is checked with cuCtxGetCurrent on
 * every call (the program may switch); the primary one is remembered per thread. */
tc_status cuda_use_context(int dev, void *cuctx, Err *e);
/* The CUcontext this thread was last made to use by cuda_use_* (NULL: none yet). */
void *cuda_current_context(void);
/* ctx's device and CUDA context made current on this thread (device.c). */
tc_status ctx_use_cuda(tc_context *ctx, Err *e);

tc_status cuda_alloc(size_t n, CuDevPtr *out, Err *e);
void cuda_free(CuDevPtr p);
/* Stream-ordered (cuMemAllocAsync / cuMemFreeAsync): usable by work queued on stream after
 * the allocation, freed after the work queued before the free. */
tc_status cuda_alloc_async(size_t n, void *stream, CuDevPtr *out, Err *e);
void cuda_free_async(CuDevPtr p, void *stream);
tc_status cuda_htod(CuDevPtr dst, const void *src, size_t n, Err *e);
tc_status cuda_dtoh(void *dst, CuDevPtr src, size_t n, Err *e);
tc_status cuda_memset0(CuDevPtr dst, size_t n, Err *e);

typedef struct CuModule CuModule;   /* a loaded module and its one kernel function */
/* JIT-loads PTX (cuModuleLoadDataEx with error/info logs; on failure the log and the
 * failing PTX line are in e). shared_bytes above 48 KB is opted in on the function. */
tc_status cuda_module_load(const char *ptx, const char *kernel_name, int shared_bytes,
                           CuModule **out, Err *e);
/* Loads a cubin image instead of PTX. */
tc_status cuda_module_load_cubin(const void *image, size_t n, const char *kernel_name,
                                 int shared_bytes, CuModule **out, Err *e);
void cuda_module_unload(CuModule *m);
/* The CUDA context a module was loaded in; modules are only valid there. */
void *cuda_module_context(const CuModule *m);
/* Loads m's code (the same PTX or cubin, kept with it) again in the current context. */
tc_status cuda_module_reload(const CuModule *m, CuModule **out, Err *e);
int cuda_module_num_regs(const CuModule *m);

/* Occupancy. The per-SM limits that decide how many programs run on one SM at a time:
 * registers, threads, programs, shared memory, the shared memory each program reserves,
 * and registers per thread (0: no limit). */
typedef struct CuSmLimits { int regs, threads, blocks, shared, reserved, regs_thread; } CuSmLimits;
/* Programs of `threads` threads, `regs` registers and `shared` bytes that fit on one SM.
 * *cap: the register count at which one more would fit, when that is at least 80% of
 * `regs` (else 0). */
int cuda_ctas_per_sm(int regs, int threads, int shared, const CuSmLimits *l, int *cap);
/* Compiles ptx once and loads it (cuda_module_load, its errors). With occupancy
 * (and TRITONC_OCCUPANCY not 0), when registers alone keep one more program per SM off
 * and the cap is near (cuda_ctas_per_sm), a copy of ptx with `.minnctapersm` asking for it
 * is compiled too and kept when the driver's compiler meets the cap without spilling more:
 * then *occ_ptx gets that copy (malloc'd; else NULL) and *out its module. */
tc_status cuda_module_build(const char *ptx, const char *kernel, int shared_bytes, bool occupancy,
                            char **occ_ptx, CuModule **out, Err *e);
/* False when TRITONC_OCCUPANCY=0. */
bool cuda_occupancy_on(void);

/* cuTensorMapEncodeTiled: the 128-byte CUtensorMap (map: 64-byte aligned) of a rank-dim
 * tensor of dtype at addr, with shape and strides in elements and block (the box) outermost
 * first as Triton writes them, element strides 1, swizzle a CUtensorMapSwizzle, zero fill. */
tc_status cuda_tensor_map(void *map, int dtype, int rank, CuDevPtr addr, const int64_t *shape,
                          const int64_t *strides, const int32_t *block, int swizzle, Err *e);

/* cuLaunchKernel with params[] = pointers to each argument value. */
tc_status cuda_launch(CuModule *m, const uint32_t grid[3], int threads, int shared_bytes,
                      void *stream, void **params, Err *e);
tc_status cuda_sync(Err *e);
/* Waits for the work queued on stream (NULL: the default one) for at most timeout_s seconds:
 * TC_ERR_TIMEOUT when it has not finished by then (it keeps running). */
tc_status cuda_wait(void *stream, double timeout_s, Err *e);

/* Streams (CU_STREAM_NON_BLOCKING) in the current context. */
tc_status cuda_stream_new(void **stream, Err *e);
void cuda_stream_free(void *stream);
tc_status cuda_stream_sync(void *stream, Err *e);
/* 1 if stream is being captured into a graph, 0 if not, -1 if the driver cannot say. */
int cuda_stream_capturing(void *stream);
/* Graph capture (thread-local mode), instantiation, replay. *nodes: the graph's nodes. */
tc_status cuda_capture_begin(void *stream, Err *e);
tc_status cuda_capture_end(void *stream, void **exec, int *nodes, Err *e);
tc_status cuda_graph_launch(void *exec, void *stream, Err *e);
void cuda_graph_free(void *exec);

/* Events for timing (do_bench). */
typedef struct CuEvent CuEvent;
tc_status cuda_event_new(CuEvent **out, Err *e);
tc_status cuda_event_record(CuEvent *ev, void *stream, Err *e);
tc_status cuda_event_elapsed_ms(CuEvent *start, CuEvent *end, float *ms, Err *e);
void cuda_event_free(CuEvent *ev);

/* The context's backend: AUTO resolves to the interpreter under TRITON_INTERPRET, else to
 * the active driver (device.c), once per context. */
tc_status ctx_backend(tc_context *ctx, tc_backend *out);

#endif
