/* cuda.c — the CUDA driver, loaded at run time with dlopen (never linked), driver discovery,
 * device properties, memory, modules, launches and events.
 *
 * No CUDA header is included: the few types, enum values and entry points used are declared
 * here (values from the driver API's cuda.h). The library is opened and cuInit called once
 * per process (pthread_once); the outcome, good or bad, is kept. Every driver call goes
 * through CU_CALL, which turns a CUresult into a tritonc error naming the call and the
 * driver's name for the code: "cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2)". */
#include "driver/cuda.h"
#include "base/target.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ---- the driver API, declared by hand ------------------------------------------------ */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUevent_st *CUevent;
typedef struct CUstream_st *CUstream;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUgraphNode_st *CUgraphNode;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CU_MISSING_ENTRY = -1, /* ours: the library lacks the entry point */
};

enum { /* CUdevice_attribute */
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

enum { /* CUfunction_attribute */
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

enum { /* CUjit_option */
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* The entry points, named exactly as the library exports them. */
static struct {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int *v);
    CUresult (*cuGetErrorName)(CUresult r, const char **s);
    CUresult (*cuDeviceGetCount)(int *n);
    CUresult (*cuDeviceGet)(CUdevice *d, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice d);
    CUresult (*cuDeviceGetAttribute)(int *v, int attr, CUdevice d);
    CUresult (*cuDeviceTotalMem_v2)(size_t *bytes, CUdevice d);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *c, CUdevice d);
    CUresult (*cuCtxSetCurrent)(CUcontext c);
    CUresult (*cuCtxGetCurrent)(CUcontext *c);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuMemAlloc_v2)(CuDevPtr *p, size_t n);
    CUresult (*cuMemFree_v2)(CuDevPtr p);
    CUresult (*cuMemAllocAsync)(CuDevPtr *p, size_t n, CUstream s);
    CUresult (*cuMemFreeAsync)(CuDevPtr p, CUstream s);
    CUresult (*cuMemcpyHtoD_v2)(CuDevPtr dst, const void *src, size_t n);
    CUresult (*cuMemcpyDtoH_v2)(void *dst, CuDevPtr src, size_t n);
    CUresult (*cuMemsetD8_v2)(CuDevPtr dst, unsigned char v, size_t n);
    CUresult (*cuModuleLoadDataEx)(CUmodule *m, const void *image, unsigned nopt, int *opts,
                                   void **vals);
    CUresult (*cuModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
    CUresult (*cuModuleUnload)(CUmodule m);
    CUresult (*cuFuncSetAttribute)(CUfunction f, int attr, int v);
    CUresult (*cuFuncGetAttribute)(int *v, int attr, CUfunction f);
    CUresult (*cuLaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shared, CUstream s,
                               void **params, void **extra);
    CUresult (*cuEventCreate)(CUevent *ev, unsigned flags);
    CUresult (*cuEventRecord)(CUevent ev, CUstream s);
    CUresult (*cuEventSynchronize)(CUevent ev);
    CUresult (*cuEventElapsedTime)(float *ms, CUevent a, CUevent b);
    CUresult (*cuEventDestroy_v2)(CUevent ev);
    CUresult (*cuStreamQuery)(CUstream s);
    CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
    CUresult (*cuStreamDestroy_v2)(CUstream s);
    CUresult (*cuStreamSynchronize)(CUstream s);
    CUresult (*cuStreamBeginCapture_v2)(CUstream s, int mode);
    CUresult (*cuStreamEndCapture)(CUstream s, CUgraph *g);
    CUresult (*cuStreamIsCapturing)(CUstream s, int *status);
    CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *x, CUgraph g, unsigned long long flags);
    CUresult (*cuGraphGetNodes)(CUgraph g, CUgraphNode *nodes, size_t *n);
    CUresult (*cuGraphLaunch)(CUgraphExec x, CUstream s);
    CUresult (*cuGraphExecDestroy)(CUgraphExec x);
    CUresult (*cuGraphDestroy)(CUgraph g);
    CUresult (*cuTensorMapEncodeTiled)(void *map, int dtype, unsigned rank, void *addr,
                                       const uint64_t *dims, const uint64_t *strides,
                                       const unsigned *box, const unsigned *estrides,
                                       int interleave, int swizzle, int l2promo, int oobfill);
} cu;

/* Symbols to resolve. An entry whose slot is already filled is skipped, so a later name is
 * a fallback for an earlier one (cuEventElapsedTime_v2, then the older name). */
static const struct { const char *name; size_t off; bool required; } cu_syms[] = {
#define SYM(f, req) {#f, offsetof(__typeof__(cu), f), req}
    SYM(cuInit, true),
    SYM(cuDriverGetVersion, false),
    SYM(cuGetErrorName, false),
    SYM(cuDeviceGetCount, true),
    SYM(cuDeviceGet, true),
    SYM(cuDeviceGetName, true),
    SYM(cuDeviceGetAttribute, true),
    SYM(cuDeviceTotalMem_v2, true),
    SYM(cuDevicePrimaryCtxRetain, false),
    SYM(cuCtxSetCurrent, false),
    SYM(cuCtxGetCurrent, false),
    SYM(cuCtxSynchronize, false),
    SYM(cuMemAlloc_v2, false),
    SYM(cuMemFree_v2, false),
    SYM(cuMemAllocAsync, false),
    SYM(cuMemFreeAsync, false),
    SYM(cuMemcpyHtoD_v2, false),
    SYM(cuMemcpyDtoH_v2, false),
    SYM(cuMemsetD8_v2, false),
    SYM(cuModuleLoadDataEx, false),
    SYM(cuModuleGetFunction, false),
    SYM(cuModuleUnload, false),
    SYM(cuFuncSetAttribute, false),
    SYM(cuFuncGetAttribute, false),
    SYM(cuLaunchKernel, false),
    SYM(cuEventCreate, false),
    SYM(cuEventRecord, false),
    SYM(cuEventSynchronize, false),
    {"cuEventElapsedTime_v2", offsetof(__typeof__(cu), cuEventElapsedTime), false},
    SYM(cuEventElapsedTime, false),
    SYM(cuEventDestroy_v2, false),
    SYM(cuStreamQuery, false),
    SYM(cuStreamCreate, false),
    SYM(cuStreamDestroy_v2, false),
    SYM(cuStreamSynchronize, false),
    SYM(cuStreamBeginCapture_v2, false),
    SYM(cuStreamEndCapture, false),
    SYM(cuStreamIsCapturing, false),
    SYM(cuGraphInstantiateWithFlags, false),
    SYM(cuGraphGetNodes, false),
    SYM(cuGraphLaunch, false),
    SYM(cuGraphExecDestroy, false),
    SYM(cuGraphDestroy, false),
    SYM(cuTensorMapEncodeTiled, false),
#undef SYM
};

/* ---- process-wide state ---------------------------------------------------------------- */

enum { FAIL_NONE = 0, FAIL_NO_LIBRARY, FAIL_BAD_LIBRARY, FAIL_INIT, FAIL_NO_DEVICES };

static struct {
    pthread_once_t once;
    tc_status status;        /* outcome of the one initialization */
    int fail;                /* FAIL_* */
    char reason[1024];       /* why it failed, one line */
    char library[1024];      /* the file given to dlopen */
    void *handle;
    int version;             /* cuDriverGetVersion: 13000 */
    int ndev;
    pthread_mutex_t lock;    /* guards the caches below */
    tc_device_props *props;  /* [ndev], filled on first query */
    bool *props_read;        /* [ndev] */
    CUcontext *ctx;          /* [ndev], primary contexts once retained */
} g = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

/* The device whose context this thread made current (for the shared-memory opt-in check),
 * that context, and whether it is the device's primary one. */
static _Thread_local int tl_device = -1;
static _Thread_local CUcontext tl_ctx;
static _Thread_local bool tl_primary;

/* ---- errors ---------------------------------------------------------------------------- */

static const struct { int code; const char *name; } cu_names[] = {
    {0, "CUDA_SUCCESS"}, {1, "CUDA_ERROR_INVALID_VALUE"}, {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"}, {4, "CUDA_ERROR_DEINITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"}, {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"}, {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"}, {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
    {200, "CUDA_ERROR_INVALID_IMAGE"}, {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"}, {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
    {218, "CUDA_ERROR_INVALID_PTX"}, {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"}, {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
    {300, "CUDA_ERROR_INVALID_SOURCE"}, {301, "CUDA_ERROR_FILE_NOT_FOUND"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"}, {304, "CUDA_ERROR_OPERATING_SYSTEM"},
    {400, "CUDA_ERROR_INVALID_HANDLE"}, {401, "CUDA_ERROR_ILLEGAL_STATE"},
    {500, "CUDA_ERROR_NOT_FOUND"}, {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"}, {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"}, {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"},
    {710, "CUDA_ERROR_ASSERT"}, {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"}, {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"}, {718, "CUDA_ERROR_INVALID_PC"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"}, {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
    {800, "CUDA_ERROR_NOT_PERMITTED"}, {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY"}, {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"}, {999, "CUDA_ERROR_UNKNOWN"},
};

/* "CUDA_ERROR_NO_DEVICE (100)" into buf: the driver's own name when it has one. */
static void cu_result_str(CUresult r, char *buf, size_t n) {
    const char *s = NULL;
    if (cu.cuGetErrorName && cu.cuGetErrorName(r, &s) != CUDA_SUCCESS) s = NULL;
    for (int i = 0; !s && i < COUNT_OF(cu_names); i++)
        if (cu_names[i].code == r) s = cu_names[i].name;
    if (s) snprintf(buf, n, "%s (%d)", s, r);
    else snprintf(buf, n, "CUresult %d", r);
}

/* Kernel faults are runtime errors of the kernel; resource exhaustion is its own code;
 * everything else is a driver error. */
static tc_status cu_status(CUresult r) {
    if (r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) return TC_ERR_RESOURCES;
    if (r == 700 || (r >= 710 && r <= 720)) return TC_ERR_RUNTIME;
    return TC_ERR_DRIVER;
}

/* The one checked wrapper: TC_OK, or e set to "<call> failed: <NAME> (<code>)". */
static tc_status cu_check(Err *e, CUresult r, const char *call) {
    if (r == CUDA_SUCCESS) return TC_OK;
    if (r == CU_MISSING_ENTRY) {
        err_set(e, TC_ERR_DRIVER, (SrcLoc){0}, "%s is not available in %s", call, g.library);
        return e->code;
    }
    char name[128];
    cu_result_str(r, name, sizeof name);
    err_set(e, cu_status(r), (SrcLoc){0}, "%s failed: %s", call, name);
    return e->code;
}

/* CU_CALL(e, cuMemAlloc_v2, &p, n): calls the entry point if the library has it. */
#define CU_CALL(e, fn, ...) \
    cu_check((e), cu.fn ? cu.fn(__VA_ARGS__) : CU_MISSING_ENTRY, #fn)

/* ---- initialization ---------------------------------------------------------------------- */

static void init_fail(int kind, const char *fmt, ...) TC_PRINTF(2, 3);
static void init_fail(int kind, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g.reason, sizeof g.reason, fmt, ap);
    va_end(ap);
    g.fail = kind;
    g.status = TC_ERR_NO_DRIVER;
}

static void do_init(void) {
    const char *env = getenv("TRITONC_LIBCUDA_PATH");
    bool from_env = env && *env;
    struct stat st;
    if (!from_env) snprintf(g.library, sizeof g.library, "libcuda.so.1");
    else if (stat(env, &st) == 0 && S_ISDIR(st.st_mode)) /* a directory, as Triton's knob */
        snprintf(g.library, sizeof g.library, "%s/libcuda.so.1", env);
    else snprintf(g.library, sizeof g.library, "%s", env);

    g.handle = dlopen(g.library, RTLD_NOW | RTLD_LOCAL);
    if (!g.handle) {
        const char *why = dlerror();
        init_fail(FAIL_NO_LIBRARY, "%s not found (%sdlopen: %s)", g.library,
                  from_env ? "TRITONC_LIBCUDA_PATH; " : "", why ? why : "unknown error");
        return;
    }
    for (int i = 0; i < COUNT_OF(cu_syms); i++) {
        void **slot = (void **)((char *)&cu + cu_syms[i].off);
        if (*slot) continue;
        void *p = dlsym(g.handle, cu_syms[i].name);
        if (p) memcpy(slot, &p, sizeof p);
    }
    for (int i = 0; i < COUNT_OF(cu_syms); i++) {
        void **slot = (void **)((char *)&cu + cu_syms[i].off);
        if (cu_syms[i].required && !*slot) {
            init_fail(FAIL_BAD_LIBRARY, "%s is not a CUDA driver: it has no %s", g.library,
                      cu_syms[i].name);
            return;
        }
    }
    char name[128];
    CUresult r = cu.cuInit(0);
    if (r != CUDA_SUCCESS) {
        cu_result_str(r, name, sizeof name);
        init_fail(FAIL_INIT, "cuInit failed: %s", name);
        return;
    }
    if (cu.cuDriverGetVersion && cu.cuDriverGetVersion(&g.version) != CUDA_SUCCESS)
        g.version = 0;
    int n = 0;
    r = cu.cuDeviceGetCount(&n);
    if (r != CUDA_SUCCESS) {
        cu_result_str(r, name, sizeof name);
        init_fail(FAIL_INIT, "cuDeviceGetCount failed: %s", name);
        return;
    }
    if (n <= 0) {
        const char *vis = getenv("CUDA_VISIBLE_DEVICES");
        if (vis) init_fail(FAIL_NO_DEVICES, "no CUDA devices (CUDA_VISIBLE_DEVICES='%s')", vis);
        else init_fail(FAIL_NO_DEVICES, "no CUDA devices");
        return;
    }
    g.props = calloc((size_t)n, sizeof *g.props);
    g.props_read = calloc((size_t)n, sizeof *g.props_read);
    g.ctx = calloc((size_t)n, sizeof *g.ctx);
    if (!g.props || !g.props_read || !g.ctx) {
        free(g.props); free(g.props_read); free(g.ctx);
        g.props = NULL; g.props_read = NULL; g.ctx = NULL;
        snprintf(g.reason, sizeof g.reason, "out of memory initializing the CUDA driver");
        g.fail = FAIL_INIT;
        g.status = TC_ERR_NOMEM;
        return;
    }
    g.ndev = n;
    g.status = TC_OK;
}

tc_status cuda_init(Err *e) {
    pthread_once(&g.once, do_init);
    if (g.status == TC_OK) return TC_OK;
    err_set(e, g.status, (SrcLoc){0}, "%s", g.reason);
    return e->code;
}

tc_status cuda_driver_version(const char **library, int *version, Err *e) {
    if (cuda_init(e)) return e->code;
    if (library) *library = g.library;
    if (version) *version = g.version;
    return TC_OK;
}

/* ---- which driver is active? ------------------------------------------------------------- */

tc_status driver_select(int n, const char *const *names, const bool *active,
                        const char *const *why, const char **name, Err *e) {
    int nactive = 0, which = -1;
    for (int i = 0; i < n; i++)
        if (active[i]) nactive++, which = i;
    if (nactive == 1) {
        *name = names[which];
        return TC_OK;
    }
    Buf b = {0};
    buf_printf(&b, "%d active drivers ([", nactive);
    for (int i = 0, k = 0; i < n; i++)
        if (active[i]) buf_printf(&b, "%s%s", k++ ? ", " : "", names[i]);
    buf_puts(&b, "]). There should only be one.");
    if (nactive == 0)
        for (int i = 0; i < n; i++) {
            if (n > 1) buf_printf(&b, "\n%s: %s", names[i], why[i] ? why[i] : "inactive");
            else buf_printf(&b, "\n%s", why[i] ? why[i] : "inactive");
        }
    err_set(e, TC_ERR_NO_DRIVER, (SrcLoc){0}, "%s",
            b.oom || !b.s ? "0 active drivers ([]). There should only be one." : b.s);
    buf_free(&b);
    *name = NULL;
    return e->code;
}

/* The backend table: each says whether it is active and, if not, why. A second backend
 * (HIP: libamdhip64.so, hipInit, hipGetDeviceCount) goes here. */
static bool cuda_is_active(char *why, size_t n) {
    Err e = {0};
    if (cuda_init(&e) == TC_OK) return true;
    snprintf(why, n, "%s", e.msg);
    return false;
}

static const struct { const char *name; bool (*is_active)(char *why, size_t n); } backends[] = {
    {"cuda", cuda_is_active},
};

tc_status driver_active(const char **name, Err *e) {
    enum { N = COUNT_OF(backends) };
    const char *names[N];
    bool active[N];
    char whybuf[N][sizeof(((Err *)0)->msg)];
    const char *why[N];
    for (int i = 0; i < N; i++) {
        whybuf[i][0] = 0;
        names[i] = backends[i].name;
        active[i] = backends[i].is_active(whybuf[i], sizeof whybuf[i]);
        why[i] = whybuf[i];
    }
    return driver_select(N, names, active, why, name, e);
}

/* ---- devices ---------------------------------------------------------------------------- */

#define NO_NVIDIA_DRIVER \
    "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and " \
    "installed a driver from http://www.nvidia.com/Download/index.aspx"

/* The device questions with no driver: torch's words when there is no library at all, else
 * the plain reason (cuInit failed, no devices). */
static tc_status devices_init(Err *e) {
    if (cuda_init(e) == TC_OK) return TC_OK;
    if (g.fail == FAIL_NO_LIBRARY)
        err_set(e, g.status, (SrcLoc){0}, NO_NVIDIA_DRIVER "\n%s", g.reason);
    return e->code;
}

static tc_status check_device(int dev, Err *e) {
    if (devices_init(e)) return e->code;
    if (dev < 0 || dev >= g.ndev) {
        err_set(e, TC_ERR_NOT_FOUND, (SrcLoc){0}, "invalid device %d: there %s %d CUDA device%s",
                dev, g.ndev == 1 ? "is" : "are", g.ndev, g.ndev == 1 ? "" : "s");
        return e->code;
    }
    return TC_OK;
}

tc_status cuda_device_count(int *n, Err *e) {
    if (devices_init(e)) return e->code;
    *n = g.ndev;
    return TC_OK;
}

static tc_status read_props(int dev, tc_device_props *p, Err *e) {
    CUdevice d;
    memset(p, 0, sizeof *p);
    if (CU_CALL(e, cuDeviceGet, &d, dev)) return e->code;
    if (CU_CALL(e, cuDeviceGetName, p->name, (int)sizeof p->name - 1, d)) return e->code;
    p->name[sizeof p->name - 1] = 0;
    if (CU_CALL(e, cuDeviceTotalMem_v2, &p->total_memory, d)) return e->code;
    static const struct { int attr; size_t off; } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, offsetof(tc_device_props, major)},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, offsetof(tc_device_props, minor)},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, offsetof(tc_device_props, multiprocessor_count)},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, offsetof(tc_device_props, l2_cache_size)},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
         offsetof(tc_device_props, max_shared_memory_per_block_optin)},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
         offsetof(tc_device_props, max_shared_memory_per_multiprocessor)},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, offsetof(tc_device_props, max_registers_per_block)},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, offsetof(tc_device_props, warp_size)},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, offsetof(tc_device_props, max_threads_per_block)},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, offsetof(tc_device_props, sm_clock_khz)},
        {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, offsetof(tc_device_props, mem_clock_khz)},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, offsetof(tc_device_props, mem_bus_width_bits)},
    };
    for (int i = 0; i < COUNT_OF(attrs); i++) {
        int v = 0;
        if (CU_CALL(e, cuDeviceGetAttribute, &v, attrs[i].attr, d)) return e->code;
        memcpy((char *)p + attrs[i].off, &v, sizeof v);
    }
    /* Double data rate: two transfers per memory clock, bus_width/8 bytes each. */
    p->peak_bandwidth_gbs =
        2.0 * (double)p->mem_clock_khz * 1e3 * ((double)p->mem_bus_width_bits / 8.0) / 1e9;
    return TC_OK;
}

tc_status cuda_device_props(int dev, tc_device_props *p, Err *e) {
    if (check_device(dev, e)) return e->code;
    pthread_mutex_lock(&g.lock);
    tc_status st = TC_OK;
    if (!g.props_read[dev]) {
        st = read_props(dev, &g.props[dev], e);
        if (st == TC_OK) g.props_read[dev] = true;
    }
    if (st == TC_OK) *p = g.props[dev];
    pthread_mutex_unlock(&g.lock);
    return st;
}

tc_status cuda_target(int dev, tc_target *t, bool *overridden, Err *e) {
    tc_device_props p;
    if (cuda_device_props(dev, &p, e)) return e->code;
    if (overridden) *overridden = false;
    const char *ov = getenv("TRITON_OVERRIDE_ARCH");
    if (ov && *ov) {
        tc_target o;
        if (target_parse(ov, &o) != TC_OK) {
            err_set(e, TC_ERR_ARG, (SrcLoc){0},
                    "TRITON_OVERRIDE_ARCH must have the form sm<NN> (sm80, sm_90a), got '%s'", ov);
            return e->code;
        }
        *t = o;
        if (overridden) *overridden = true;
        return TC_OK;
    }
    target_of_arch(p.major * 10 + p.minor, t);
    return TC_OK;
}

/* ---- contexts and memory ------------------------------------------------------------------ */

tc_status cuda_use_device(int dev, Err *e) {
    /* The launch hot path: this thread already made dev's context current. tritonc
     * assumes that a host program sharing the thread keeps its primary context current
     * (the README says so) and skips cuCtxSetCurrent then. */
    if (dev == tl_device && tl_primary) return TC_OK;
    if (check_device(dev, e)) return e->code;
    pthread_mutex_lock(&g.lock);
    tc_status st = TC_OK;
    if (!g.ctx[dev]) {
        CUdevice d;
        CUcontext c = NULL;
        if (!(st = CU_CALL(e, cuDeviceGet, &d, dev)) &&
            !(st = CU_CALL(e, cuDevicePrimaryCtxRetain, &c, d)))
            g.ctx[dev] = c;
    }
    CUcontext c = g.ctx[dev];
    pthread_mutex_unlock(&g.lock);
    if (st) return st;
    if (CU_CALL(e, cuCtxSetCurrent, c)) return e->code;
    tl_device = dev;
    tl_ctx = c;
    tl_primary = true;
    return TC_OK;
}

tc_status cuda_use_context(int dev, void *cuctx, Err *e) {
    if (!cuctx) return cuda_use_device(dev, e);
    if (check_device(dev, e)) return e->code;
    CUcontext cur = NULL;
    if (!(cu.cuCtxGetCurrent && cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur == cuctx) &&
        CU_CALL(e, cuCtxSetCurrent, (CUcontext)cuctx))
        return e->code;
    tl_device = dev;
    tl_ctx = cuctx;
    tl_primary = false;
    return TC_OK;
}

void *cuda_current_context(void) { return tl_ctx; }

/* Makes sure this thread has a current context (device 0's primary one if none). */
static tc_status ensure_context(Err *e) {
    if (cuda_init(e)) return e->code;
    CUcontext c = NULL;
    if (tl_device >= 0) return TC_OK;
    if (cu.cuCtxGetCurrent && cu.cuCtxGetCurrent(&c) == CUDA_SUCCESS && c) return TC_OK;
    return cuda_use_device(0, e);
}

tc_status cuda_alloc(size_t n, CuDevPtr *out, Err *e) {
    *out = 0;
    if (ensure_context(e)) return e->code;
    if (n == 0) return TC_OK; /* an empty tensor owns no memory */
    return CU_CALL(e, cuMemAlloc_v2, out, n);
}

void cuda_free(CuDevPtr p) {
    Err e = {0};
    if (p && g.status == TC_OK && cu.cuMemFree_v2 && ensure_context(&e) == TC_OK)
        cu.cuMemFree_v2(p);
}

tc_status cuda_alloc_async(size_t n, void *stream, CuDevPtr *out, Err *e) {
    *out = 0;
    if (ensure_context(e)) return e->code;
    return CU_CALL(e, cuMemAllocAsync, out, n, (CUstream)stream);
}

void cuda_free_async(CuDevPtr p, void *stream) {
    Err e = {0};
    if (p && g.status == TC_OK && cu.cuMemFreeAsync && ensure_context(&e) == TC_OK)
        cu.cuMemFreeAsync(p, (CUstream)stream);
}

tc_status cuda_htod(CuDevPtr dst, const void *src, size_t n, Err *e) {
    if (ensure_context(e)) return e->code;
    if (n == 0) return TC_OK;
    return CU_CALL(e, cuMemcpyHtoD_v2, dst, src, n);
}

tc_status cuda_dtoh(void *dst, CuDevPtr src, size_t n, Err *e) {
    if (ensure_context(e)) return e->code;
    if (n == 0) return TC_OK;
    return CU_CALL(e, cuMemcpyDtoH_v2, dst, src, n);
}

tc_status cuda_memset0(CuDevPtr dst, size_t n, Err *e) {
    if (ensure_context(e)) return e->code;
    if (n == 0) return TC_OK;
    return CU_CALL(e, cuMemsetD8_v2, dst, 0, n);
}

/* ---- modules ----------------------------------------------------------------------------- */

struct CuModule {
    CUmodule mod;
    CUfunction fn;
    CUcontext ctx;
    int num_regs;
    /* what was loaded, kept to load it again in another context (cuda_module_reload) */
    void *image; size_t image_size; bool is_ptx;
    char *kernel; int shared_bytes;
};

/* The first "line N" in a ptxas log, or 0. */
static int log_line_number(const char *log) {
    for (const char *p = strstr(log, "line "); p; p = strstr(p + 1, "line ")) {
        char *end;
        long v = strtol(p + 5, &end, 10);
        if (end != p + 5 && v > 0 && v < 100000000) return (int)v;
    }
    return 0;
}

/* Line `line` (1-based) of text into buf, without its newline. */
static void text_line(const char *text, int line, char *buf, size_t n) {
    const char *p = text;
    for (int i = 1; i < line && p; i++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    buf[0] = 0;
    if (!p || !*p) return;
    size_t len = strcspn(p, "\r\n");
    if (len >= n) len = n - 1;
    memcpy(buf, p, len);
    buf[len] = 0;
}

/* The .version of a PTX text as major*10 + minor, or 0. */
static int ptx_version_of(const char *ptx) {
    const char *v = strstr(ptx, ".version ");
    int major, minor;
    if (!v || sscanf(v + 9, "%d.%d", &major, &minor) != 2) return 0;
    return major * 10 + minor;
}

static tc_status module_load(const void *image, size_t image_size, bool is_ptx,
                             const char *kernel_name, int shared_bytes, CuModule **out, Err *e) {
    *out = NULL;
    if (ensure_context(e)) return e->code;
    if (!image || !kernel_name) {
        err_set(e, TC_ERR_ARG, (SrcLoc){0}, "cuda_module_load: no image or kernel name");
        return e->code;
    }
    int dev = tl_device >= 0 ? tl_device : 0;
    if (shared_bytes > 48 * 1024) {
        tc_device_props p;
        if (cuda_device_props(dev, &p, e)) return e->code;
        if (shared_bytes > p.max_shared_memory_per_block_optin) {
            err_set(e, TC_ERR_RESOURCES, (SrcLoc){0},
                    "out of resource: shared memory, Required: %d, Hardware limit: %d. "
                    "Reducing block sizes or `num_stages` may help.",
                    shared_bytes, p.max_shared_memory_per_block_optin);
            return e->code;
        }
    }
    int need = is_ptx ? ptx_version_of(image) : 0, cap = target_driver_ptx(g.version);
    if (need && cap && need > cap) {
        /* said before the driver's JIT fails with CUDA_ERROR_UNSUPPORTED_PTX_VERSION */
        err_set(e, TC_ERR_DRIVER, (SrcLoc){0},
                "the PTX needs PTX ISA %d.%d, but the CUDA driver (%d.%d) loads PTX ISA %d.%d "
                "at most: a newer driver is needed", need / 10, need % 10, g.version / 1000,
                g.version % 1000 / 10, cap / 10, cap % 10);
        return e->code;
    }
    enum { ERRLOG = 16384, INFOLOG = 8192 };
    char *errlog = calloc(1, ERRLOG + INFOLOG);
    if (!errlog) {
        err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory loading a module");
        return e->code;
    }
    char *infolog = errlog + ERRLOG;
    int opts[4] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *vals[4] = {errlog, (void *)(uintptr_t)ERRLOG, infolog, (void *)(uintptr_t)INFOLOG};
    CUmodule mod = NULL;
    CUresult r = cu.cuModuleLoadDataEx ? cu.cuModuleLoadDataEx(&mod, image, 4, opts, vals)
                                       : CU_MISSING_ENTRY;
    if (r != CUDA_SUCCESS) {
        cu_check(e, r, "cuModuleLoadDataEx");
        errlog[ERRLOG - 1] = 0;
        if (errlog[0]) {
            Buf b = {0};
            buf_puts(&b, e->msg);
            size_t l = strlen(errlog);
            while (l && (errlog[l - 1] == '\n' || errlog[l - 1] == ' ')) errlog[--l] = 0;
            /* Keep the whole message within what an Err holds: the log's head, the line. */
            if (l > 1400) memcpy(errlog + 1400, "\n...", 5);
            buf_printf(&b, "\n%s", errlog);
            int line = is_ptx ? log_line_number(errlog) : 0;
            if (line) {
                char src[512];
                text_line(image, line, src, sizeof src);
                if (src[0]) buf_printf(&b, "\nPTX line %d: %s", line, src);
            }
            if (!b.oom && b.s) err_set(e, e->code, (SrcLoc){0}, "%s", b.s);
            buf_free(&b);
        }
        free(errlog);
        return e->code;
    }
    free(errlog);
    CuModule *m = calloc(1, sizeof *m);
    if (!m) {
        if (cu.cuModuleUnload) cu.cuModuleUnload(mod);
        err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory loading a module");
        return e->code;
    }
    m->mod = mod;
    if (cu.cuCtxGetCurrent) cu.cuCtxGetCurrent(&m->ctx);
    size_t isz = is_ptx ? strlen(image) + 1 : image_size;
    m->image = isz ? malloc(isz) : NULL;
    m->kernel = strdup(kernel_name);
    if (!m->image || !m->kernel) {
        cuda_module_unload(m);
        err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory loading a module");
        return e->code;
    }
    memcpy(m->image, image, isz);
    m->image_size = isz;
    m->is_ptx = is_ptx;
    m->shared_bytes = shared_bytes;
    if (CU_CALL(e, cuModuleGetFunction, &m->fn, mod, kernel_name)) {
        err_set(e, e->code, (SrcLoc){0}, "%s (kernel '%s')", e->msg, kernel_name);
        cuda_module_unload(m);
        return e->code;
    }
    int regs = 0;
    if (cu.cuFuncGetAttribute &&
        cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, m->fn) == CUDA_SUCCESS)
        m->num_regs = regs;
    if (shared_bytes > 48 * 1024 &&
        CU_CALL(e, cuFuncSetAttribute, m->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                shared_bytes)) {
        cuda_module_unload(m);
        return e->code;
    }
    *out = m;
    return TC_OK;
}

tc_status cuda_module_load(const char *ptx, const char *kernel_name, int shared_bytes,
                           CuModule **out, Err *e) {
    return module_load(ptx, 0, true, kernel_name, shared_bytes, out, e);
}

tc_status cuda_module_load_cubin(const void *image, size_t n, const char *kernel_name,
                                 int shared_bytes, CuModule **out, Err *e) {
    /* the driver reads the ELF header for the size; n is kept for reloading */
    return module_load(image, n, false, kernel_name, shared_bytes, out, e);
}

void cuda_module_unload(CuModule *m) {
    if (!m) return;
    if (m->mod && cu.cuModuleUnload) cu.cuModuleUnload(m->mod);
    free(m->image);
    free(m->kernel);
    free(m);
}

void *cuda_module_context(const CuModule *m) { return m ? m->ctx : NULL; }

tc_status cuda_module_reload(const CuModule *m, CuModule **out, Err *e) {
    return module_load(m->image, m->image_size, m->is_ptx, m->kernel, m->shared_bytes, out, e);
}

int cuda_module_num_regs(const CuModule *m) { return m ? m->num_regs : 0; }

/* ---- occupancy ---------------------------------------------------------------------------- */

/* Registers are handed out per warp in blocks of 256, so per thread in multiples of 8. */
static int round8(int r) { return (r + 7) & ~7; }

int cuda_ctas_per_sm(int regs, int threads, int shared, const CuSmLimits *l, int *cap) {
    *cap = 0;
    if (regs <= 0 || threads <= 0 || l->regs <= 0 || l->threads <= 0 || l->blocks <= 0) return 0;
    int warps = (threads + 31) / 32;
    /* every limit but registers: threads, programs, shared memory (and what each reserves) */
    int other = l->threads / (warps * 32);
    if (other > l->blocks) other = l->blocks;
    if (shared > 0 && l->shared > 0 && l->shared / (shared + l->reserved) < other)
        other = l->shared / (shared + l->reserved);
    int by_regs = l->regs / (round8(regs) * 32) / warps;
    int n = by_regs < other ? by_regs : other;
    if (n < other) {
        /* the most registers that still fit n + 1 programs */
        int r = (l->regs / ((n + 1) * warps * 32)) & ~7;
        if (l->regs_thread > 0 && r > l->regs_thread) r = l->regs_thread & ~7;
        if (r >= 16 && r < regs && r * 5 >= regs * 4) *cap = r;
    }
    return n;
}

static int func_attr(CuModule *m, int attr) {
    int v = -1;
    if (!cu.cuFuncGetAttribute || cu.cuFuncGetAttribute(&v, attr, m->fn) != CUDA_SUCCESS) return -1;
    return v;
}

/* ptxas picks a register count for speed of one thread, and sometimes takes a few more
 * than the code needs at the cost of a whole program per SM (layernorm at 16 warps: 40
 * registers, 3 programs of 512 threads; at 32, 4). `.minnctapersm` (as CUDA's
 * __launch_bounds__) asks for one program more; the result is kept only when the driver's
 * compiler then meets the cap without spilling to local memory. */
bool cuda_occupancy_on(void) {
    const char *env = getenv("TRITONC_OCCUPANCY");
    return !(env && strcmp(env, "0") == 0);
}

/* ptx with `.minnctapersm` asking for one more program per SM than m0 (its code) gets,
 * when registers are what stops it and the cap (*cap) is near enough (cuda_ctas_per_sm);
 * NULL otherwise. */
static char *occupancy_ptx(const char *ptx, const CuModule *m0, int shared_bytes, int *cap) {
    if (strstr(ptx, ".minnctapersm")) return NULL;
    const char *mx = strstr(ptx, "\n.maxntid ");
    if (!mx) return NULL;
    int threads = atoi(mx + 10);
    Err e = {0};
    tc_device_props p;
    if (threads <= 0 || cuda_device_props(tl_device >= 0 ? tl_device : 0, &p, &e)) return NULL;
    /* the device's own arch (not TRITON_OVERRIDE_ARCH's): its SM runs the programs */
    const TargetInfo *ti = target_info(p.major * 10 + p.minor);
    if (!ti) return NULL;
    CuSmLimits l = {ti->regs_sm, ti->threads_sm, ti->blocks_sm, ti->smem_sm, ti->smem_reserved,
                    ti->regs_thread};
    int n = cuda_ctas_per_sm(m0->num_regs, threads, shared_bytes, &l, cap);
    const char *eol = strchr(mx + 1, '\n');
    if (!*cap || !eol) return NULL;
    size_t head = (size_t)(eol - ptx), len = strlen(ptx);
    char *out = malloc(len + 32);
    if (!out) return NULL;
    memcpy(out, ptx, head);
    int k = snprintf(out + head, 32, "\n.minnctapersm %d", n + 1);
    memcpy(out + head + k, eol, len - head + 1);
    return out;
}

/* The PTX is loaded as it is, never through the driver's linker (cuLinkCreate): that compiles
 * PTX as relocatable code, which on the H200 took more registers than the same PTX loaded
 * directly (tutorial 05's layer norm at 4 warps: 56 against 32; vector add at 1 warp: 96
 * against 72), so there is no cubin of the same code to keep. */
tc_status cuda_module_build(const char *ptx, const char *kernel, int shared_bytes, bool occupancy,
                            char **occ_ptx, CuModule **out, Err *e) {
    *occ_ptx = NULL;
    CuModule *m0 = NULL, *m1 = NULL;
    if (cuda_module_load(ptx, kernel, shared_bytes, &m0, e)) return e->code;
    *out = m0;
    int cap = 0;
    char *p1 = occupancy && cuda_occupancy_on() ? occupancy_ptx(ptx, m0, shared_bytes, &cap) : NULL;
    if (!p1) return TC_OK;
    /* kept only when the driver's compiler meets the cap without spilling more */
    Err e1 = {0};
    int local0 = func_attr(m0, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES), regs1 = 0, local1 = -1;
    if (local0 >= 0 && cuda_module_load(p1, kernel, shared_bytes, &m1, &e1) == TC_OK) {
        regs1 = m1->num_regs;
        local1 = func_attr(m1, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    }
    if (m1 && regs1 > 0 && regs1 <= cap && local1 >= 0 && local1 <= local0) {
        cuda_module_unload(m0);
        *out = m1;
        *occ_ptx = p1;
        return TC_OK;
    }
    cuda_module_unload(m1);
    free(p1);
    return TC_OK;
}

/* ---- tensor maps (TMA) ---------------------------------------------------------------------- */

tc_status cuda_tensor_map(void *map, int dtype, int rank, CuDevPtr addr, const int64_t *shape,
                          const int64_t *strides, const int32_t *block, int swizzle, Err *e) {
    int ty = target_tmap_dtype(dtype);
    if (ty < 0 || rank < 1 || rank > 5) {
        err_set(e, TC_ERR_INTERNAL, (SrcLoc){0}, "cuTensorMapEncodeTiled: no tensor map for a "
                "rank-%d %s tensor", rank, dt_name(dtype));
        return e->code;
    }
    uint64_t dims[5], st[5];
    unsigned box[5], one[5] = {1, 1, 1, 1, 1};
    int esz = dt_size(dtype);
    for (int i = 0; i < rank; i++) {   /* the driver counts dimensions innermost first */
        dims[i] = (uint64_t)shape[rank - 1 - i];
        box[i] = (unsigned)block[rank - 1 - i];
        if (i < rank - 1) st[i] = (uint64_t)strides[rank - 2 - i] * (uint64_t)esz;
    }
    /* CU_TENSOR_MAP_INTERLEAVE_NONE, L2_PROMOTION_L2_128B (2), FLOAT_OOB_FILL_NONE: zeros */
    return CU_CALL(e, cuTensorMapEncodeTiled, map, ty, (unsigned)rank, (void *)(uintptr_t)addr,
                   dims, st, box, one, 0, swizzle, 2, 0);
}

/* ---- launch, sync, events ------------------------------------------------------------------ */

tc_status cuda_launch(CuModule *m, const uint32_t grid[3], int threads, int shared_bytes,
                      void *stream, void **params, Err *e) {
    /* grid[0] == 0 launches nothing (as Triton); unused y/z axes may be 0 or 1. */
    if (grid[0] == 0) return TC_OK;
    if (tl_device < 0 && m->ctx && cu.cuCtxGetCurrent) {
        CUcontext c = NULL;
        if (cu.cuCtxGetCurrent(&c) == CUDA_SUCCESS && c == NULL && cu.cuCtxSetCurrent)
            cu.cuCtxSetCurrent(m->ctx);
    }
    return CU_CALL(e, cuLaunchKernel, m->fn, grid[0], grid[1] ? grid[1] : 1,
                   grid[2] ? grid[2] : 1, (unsigned)threads, 1, 1, (unsigned)shared_bytes,
                   (CUstream)stream, params, NULL);
}

tc_status cuda_sync(Err *e) {
    if (ensure_context(e)) return e->code;
    return cu_check(e, cu.cuCtxSynchronize ? cu.cuCtxSynchronize() : CU_MISSING_ENTRY,
                    "cuCtxSynchronize");
}

tc_status cuda_wait(void *stream, double timeout_s, Err *e) {
    if (ensure_context(e)) return e->code;
    if (!cu.cuStreamQuery) return cuda_sync(e);
    struct timespec t0, now, nap = {0, 50000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        CUresult r = cu.cuStreamQuery((CUstream)stream);
        if (r != 600) /* CUDA_ERROR_NOT_READY */
            return cu_check(e, r, "cuStreamQuery");
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9;
        if (el >= timeout_s) {
            err_set(e, TC_ERR_TIMEOUT, (SrcLoc){0}, "the kernel did not finish within its time "
                    "limit of %g s; stopped waiting for it (it may still be running on the GPU)",
                    timeout_s);
            return TC_ERR_TIMEOUT;
        }
        nanosleep(&nap, NULL);
        if (nap.tv_nsec < 10000000) nap.tv_nsec *= 2;
    }
}

/* ---- streams and graphs ------------------------------------------------------------------ */

enum { CU_STREAM_NON_BLOCKING = 1, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1 };

tc_status cuda_stream_new(void **stream, Err *e) {
    *stream = NULL;
    if (ensure_context(e)) return e->code;
    CUstream s = NULL;
    if (CU_CALL(e, cuStreamCreate, &s, CU_STREAM_NON_BLOCKING)) return e->code;
    *stream = s;
    return TC_OK;
}

void cuda_stream_free(void *stream) {
    if (stream && g.status == TC_OK && cu.cuStreamDestroy_v2) cu.cuStreamDestroy_v2(stream);
}

tc_status cuda_stream_sync(void *stream, Err *e) {
    if (ensure_context(e)) return e->code;
    return CU_CALL(e, cuStreamSynchronize, (CUstream)stream);
}

int cuda_stream_capturing(void *stream) {
    int st = 0;
    if (!cu.cuStreamIsCapturing || cu.cuStreamIsCapturing((CUstream)stream, &st) != CUDA_SUCCESS)
        return -1;
    return st == 1;   /* CU_STREAM_CAPTURE_STATUS_ACTIVE */
}

tc_status cuda_capture_begin(void *stream, Err *e) {
    if (ensure_context(e)) return e->code;
    return CU_CALL(e, cuStreamBeginCapture_v2, (CUstream)stream,
                   CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
}

tc_status cuda_capture_end(void *stream, void **exec, int *nodes, Err *e) {
    *exec = NULL;
    *nodes = 0;
    CUgraph gr = NULL;
    if (CU_CALL(e, cuStreamEndCapture, (CUstream)stream, &gr)) return e->code;
    size_t n = 0;
    if (cu.cuGraphGetNodes && cu.cuGraphGetNodes(gr, NULL, &n) == CUDA_SUCCESS) *nodes = (int)n;
    CUgraphExec x = NULL;
    tc_status st = CU_CALL(e, cuGraphInstantiateWithFlags, &x, gr, 0);
    if (cu.cuGraphDestroy) cu.cuGraphDestroy(gr);   /* the executable graph is independent */
    if (st) return st;
    *exec = x;
    return TC_OK;
}

tc_status cuda_graph_launch(void *exec, void *stream, Err *e) {
    return CU_CALL(e, cuGraphLaunch, (CUgraphExec)exec, (CUstream)stream);
}

void cuda_graph_free(void *exec) {
    if (exec && g.status == TC_OK && cu.cuGraphExecDestroy) cu.cuGraphExecDestroy(exec);
}

struct CuEvent { CUevent ev; };

tc_status cuda_event_new(CuEvent **out, Err *e) {
    *out = NULL;
    if (ensure_context(e)) return e->code;
    CUevent ev = NULL;
    if (CU_CALL(e, cuEventCreate, &ev, 0)) return e->code;
    CuEvent *x = malloc(sizeof *x);
    if (!x) {
        if (cu.cuEventDestroy_v2) cu.cuEventDestroy_v2(ev);
        err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory creating an event");
        return e->code;
    }
    x->ev = ev;
    *out = x;
    return TC_OK;
}

tc_status cuda_event_record(CuEvent *ev, void *stream, Err *e) {
    return CU_CALL(e, cuEventRecord, ev->ev, (CUstream)stream);
}

tc_status cuda_event_elapsed_ms(CuEvent *start, CuEvent *end, float *ms, Err *e) {
    *ms = 0;
    if (cu.cuEventSynchronize && CU_CALL(e, cuEventSynchronize, end->ev)) return e->code;
    return CU_CALL(e, cuEventElapsedTime, ms, start->ev, end->ev);
}

void cuda_event_free(CuEvent *ev) {
    if (!ev) return;
    if (ev->ev && cu.cuEventDestroy_v2) cu.cuEventDestroy_v2(ev->ev);
    free(ev);
}

