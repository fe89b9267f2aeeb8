/* fake_libcuda.c — a stand-in libcuda.so.1 for tests on machines with no GPU. It exports
 * the handful of driver entry points tritonc uses and answers with canned H200-like values
 * (those measured on the real H200, reference/baseline-h200.md).
 *
 * FAKE_CUDA_MODE (read on every call):
 *   unset, "h200"  one NVIDIA H200 (9.0, 132 SMs)
 *   "two"          the H200 and an NVIDIA A100-SXM4-80GB (8.0, 108 SMs)
 *   "twoh200"      two H200s (one architecture, two devices)
 *   "zero"         cuInit succeeds, cuDeviceGetCount says 0
 *   "initfail"     cuInit returns CUDA_ERROR_NO_DEVICE (100)
 * Memory calls use host memory (an allocation above 1 TiB fails with OUT_OF_MEMORY).
 * cuModuleLoadDataEx accepts any image with an ".entry"; a PTX line containing "bogus"
 * fails with CUDA_ERROR_INVALID_PTX and a ptxas-style error log naming that line.
 * cuLaunchKernel returns CUDA_ERROR_NOT_SUPPORTED: nothing is ever executed; with
 * FAKE_CUDA_LAUNCH=ok it returns success, still executing nothing (the autotuning tests of the
 * tuning path: benchmark, persist, reuse). Events always measure 0.5 ms.
 * As the real driver, a module belongs to the context current when it was loaded: launching
 * its function with another context current fails with CUDA_ERROR_INVALID_HANDLE.
 * Streams, stream capture and graphs: a launch on a capturing stream is recorded (and
 * succeeds whatever FAKE_CUDA_LAUNCH says); cuGraphLaunch "runs" the recorded kernels.
 * fake_cuda_counters() (for tests, through dlsym) counts module loads, launches, graph
 * launches and the kernels they ran, and the tensor maps launches passed (checked or bad).
 * cuTensorMapEncodeTiled records its arguments (fake_cuda_tensor_maps: the last 16) and
 * writes "TMAP", the call's number and the address into the map; a launch checks that each
 * `.param .align 64 .b8 x[128]` of its entry points at such a map, 64-byte aligned.
 * cuMemAllocAsync/cuMemFreeAsync allocate from the heap (counters 7 and 8 count them, 9 is
 * the last size); a launch whose entry takes `.param .u64 <k>_scratch_<n>` last counts in
 * 10 when that points at a live cuMemAllocAsync block of n bytes per program, else in 11. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;

#define EXPORT __attribute__((visibility("default")))

enum {
    OK = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, NO_DEVICE = 100,
    INVALID_DEVICE = 101, INVALID_PTX = 218, INVALID_HANDLE = 400, NOT_FOUND = 500,
    NOT_SUPPORTED = 801,
};

static int initialized;

static const char *mode(void) {
    const char *m = getenv("FAKE_CUDA_MODE");
    return m && *m ? m : "h200";
}

static int ndevices(void) {
    const char *m = mode();
    if (!strcmp(m, "zero") || !strcmp(m, "initfail")) return 0;
    if (!strcmp(m, "two") || !strcmp(m, "twoh200")) return 2;
    return 1;
}

typedef struct {
    const char *name;
    size_t total;
    int attr[128];
} FakeDev;

static void fill(FakeDev *d, int which) {
    memset(d, 0, sizeof *d);
    int *a = d->attr;
    a[1] = 1024; a[10] = 32; a[12] = 65536; a[39] = 2048; a[82] = 65536; a[106] = 32;
    if (which == 0 || !strcmp(mode(), "twoh200")) {
        d->name = "NVIDIA H200";
        d->total = 143155ull * 1024 * 1024;
        a[75] = 9; a[76] = 0; a[16] = 132; a[38] = 62914560; a[97] = 232448; a[81] = 233472;
        a[13] = 1980000; a[36] = 3201000; a[37] = 6016;
    } else {
        d->name = "NVIDIA A100-SXM4-80GB";
        d->total = 81920ull * 1024 * 1024;
        a[75] = 8; a[76] = 0; a[16] = 108; a[38] = 41943040; a[97] = 166912; a[81] = 167936;
        a[13] = 1410000; a[36] = 1593000; a[37] = 5120;
    }
}

EXPORT CUresult cuInit(unsigned flags) {
    if (flags != 0) return INVALID_VALUE;
    if (!strcmp(mode(), "initfail")) return NO_DEVICE;
    initialized = 1;
    return OK;
}

EXPORT CUresult cuDriverGetVersion(int *v) {
    if (!v) return INVALID_VALUE;
    *v = 13000;
    return OK;
}

static const struct { int code; const char *name; } names[] = {
    {0, "CUDA_SUCCESS"}, {1, "CUDA_ERROR_INVALID_VALUE"}, {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"}, {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"}, {218, "CUDA_ERROR_INVALID_PTX"},
    {400, "CUDA_ERROR_INVALID_HANDLE"}, {500, "CUDA_ERROR_NOT_FOUND"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
};

EXPORT CUresult cuGetErrorName(CUresult r, const char **s) {
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == r) { *s = names[i].name; return OK; }
    *s = NULL;
    return INVALID_VALUE;
}

EXPORT CUresult cuDeviceGetCount(int *n) {
    if (!initialized) return NOT_INITIALIZED;
    *n = ndevices();
    return OK;
}

EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
    if (!initialized) return NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= ndevices()) return INVALID_DEVICE;
    *d = ordinal;
    return OK;
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    if (!initialized) return NOT_INITIALIZED;
    if (d < 0 || d >= ndevices() || len <= 0) return INVALID_DEVICE;
    FakeDev f;
    fill(&f, d);
    snprintf(name, (size_t)len, "%s", f.name);
    return OK;
}

EXPORT CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
    if (!initialized) return NOT_INITIALIZED;
    if (d < 0 || d >= ndevices()) return INVALID_DEVICE;
    if (attr <= 0 || attr >= 128) return INVALID_VALUE;
    FakeDev f;
    fill(&f, d);
    *v = f.attr[attr];
    return OK;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
    if (!initialized) return NOT_INITIALIZED;
    if (d < 0 || d >= ndevices()) return INVALID_DEVICE;
    FakeDev f;
    fill(&f, d);
    *bytes = f.total;
    return OK;
}

static int fake_ctx[8];

EXPORT CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d) {
    if (!initialized) return NOT_INITIALIZED;
    if (d < 0 || d >= ndevices()) return INVALID_DEVICE;
    *ctx = &fake_ctx[d];
    return OK;
}

static _Thread_local void *current;

EXPORT CUresult cuCtxSetCurrent(void *ctx) { current = ctx; return OK; }
EXPORT CUresult cuCtxGetCurrent(void **ctx) { *ctx = current; return OK; }
/* FAKE_CUDA_SYNC=fail: as after a kernel fault (CUDA_ERROR_ILLEGAL_ADDRESS). */
EXPORT CUresult cuCtxSynchronize(void) {
    const char *f = getenv("FAKE_CUDA_SYNC");
    if (f && !strcmp(f, "fail")) return 700;
    return current ? OK : 201;
}

/* FAKE_CUDA_STREAM=busy: the stream's work never finishes (a kernel that runs forever). */
EXPORT CUresult cuStreamQuery(void *stream) {
    (void)stream;
    const char *f = getenv("FAKE_CUDA_STREAM");
    if (f && !strcmp(f, "busy")) return 600;
    return current ? OK : 201;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) {
    if (!current) return 201;
    if (n == 0) return INVALID_VALUE;
    if (n > (1ull << 40)) return OUT_OF_MEMORY;
    void *m = malloc(n);
    if (!m) return OUT_OF_MEMORY;
    *p = (CUdeviceptr)(uintptr_t)m;
    return OK;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return OK; }

/* the live stream-ordered blocks (at most 64 tracked) */
static struct { uint64_t addr; size_t n; } async_blocks[64];
static long counters[12];
static void count(int i, long v);
EXPORT CUresult cuMemAllocAsync(CUdeviceptr *p, size_t n, void *stream) {
    (void)stream;
    if (!current) return 201;
    if (n == 0) return INVALID_VALUE;
    void *m = aligned_alloc(256, (n + 255) & ~(size_t)255);
    if (!m) return OUT_OF_MEMORY;
    *p = (CUdeviceptr)(uintptr_t)m;
    for (int i = 0; i < 64; i++)
        if (!async_blocks[i].addr) { async_blocks[i].addr = *p; async_blocks[i].n = n; break; }
    count(7, 1);
    __atomic_store_n(&counters[9], (long)n, __ATOMIC_RELAXED);
    return OK;
}
EXPORT CUresult cuMemFreeAsync(CUdeviceptr p, void *stream) {
    (void)stream;
    for (int i = 0; i < 64; i++)
        if (async_blocks[i].addr == p) async_blocks[i].addr = 0;
    free((void *)(uintptr_t)p);
    count(8, 1);
    return OK;
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
    memcpy((void *)(uintptr_t)dst, src, n);
    return OK;
}

EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
    memcpy(dst, (const void *)(uintptr_t)src, n);
    return OK;
}

EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) {
    memset((void *)(uintptr_t)dst, v, n);
    return OK;
}

/* What tests read: [0] module loads, [1] kernels launched (plain, successful), [2] graph
 * launches, [3] kernels run by graph launches, [4] launches captured into graphs. */
EXPORT void fake_cuda_counters(long *out, int n) {
    for (int i = 0; i < n && i < 12; i++) out[i] = __atomic_load_n(&counters[i], __ATOMIC_RELAXED);
}
static void count(int i, long v) { __atomic_fetch_add(&counters[i], v, __ATOMIC_RELAXED); }

/* cuTensorMapEncodeTiled's arguments, as tests read them (tests/test_tma.c) */
typedef struct {
    int dtype; unsigned rank; uint64_t addr;
    uint64_t dims[5], strides[5];
    unsigned box[5], estrides[5];
    int interleave, swizzle, l2promo, oobfill;
} FakeTmap;
static FakeTmap tmaps[16];
static int ntmaps;
EXPORT int fake_cuda_tensor_maps(FakeTmap *out, int n) {
    int k = ntmaps < 16 ? ntmaps : 16;
    for (int i = 0; i < k && i < n; i++) out[i] = tmaps[(ntmaps - k + i) % 16];
    return k;
}
EXPORT CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank, void *addr,
                                       const uint64_t *dims, const uint64_t *strides,
                                       const unsigned *box, const unsigned *estrides,
                                       int interleave, int swizzle, int l2promo, int oobfill) {
    if (!map || (uintptr_t)map % 64 || rank < 1 || rank > 5 || (uintptr_t)addr % 16) return INVALID_VALUE;
    FakeTmap *t = &tmaps[ntmaps % 16];
    memset(t, 0, sizeof *t);
    *t = (FakeTmap){dtype, rank, (uint64_t)(uintptr_t)addr, {0}, {0}, {0}, {0}, interleave, swizzle, l2promo, oobfill};
    for (unsigned i = 0; i < rank; i++) {
        t->dims[i] = dims[i];
        t->box[i] = box[i];
        t->estrides[i] = estrides[i];
        if (i + 1 < rank) {
            t->strides[i] = strides[i];
            if (strides[i] % 16) return INVALID_VALUE;
        }
        if (box[i] == 0 || box[i] > 256) return INVALID_VALUE;
    }
    ntmaps++;
    memset(map, 0, 128);
    memcpy(map, "TMAP", 4);
    memcpy((char *)map + 8, &ntmaps, sizeof ntmaps);
    memcpy((char *)map + 16, &t->addr, 8);
    return OK;
}

/* The launch's tensor-map parameters: counters[5] += good ones, counters[6] += bad ones. */
static void count(int i, long v);
static void check_tensor_maps(const char *entry, void **params) {
    const char *end = strchr(entry, ')');
    int i = 0;
    for (const char *p = strstr(entry, ".param"); p && end && p < end; p = strstr(p + 1, ".param"), i++) {
        const char *nl = strchr(p, '\n');
        if (!nl || !strstr(p, ".align 64 .b8") || strstr(p, ".align 64 .b8") > nl) continue;
        const char *m = params ? params[i] : NULL;
        count(m && (uintptr_t)m % 64 == 0 && !memcmp(m, "TMAP", 4) ? 5 : 6, 1);
    }
}

typedef struct FakeModule FakeModule;
typedef struct { FakeModule *m; const char *entry; } FakeFunc;
struct FakeModule { char *text; void *ctx; FakeFunc fn[8]; int nfn; };

EXPORT CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned nopt, int *opts,
                                   void **vals) {
    if (!current) return 201;
    const char *text = image;
    char *errlog = NULL;
    size_t errcap = 0;
    for (unsigned i = 0; i < nopt; i++) {
        if (opts[i] == 5) errlog = vals[i];
        if (opts[i] == 6) errcap = (size_t)(uintptr_t)vals[i];
    }
    int line = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') { line++; continue; }
        if (!strncmp(p, "bogus", 5)) {
            if (errlog && errcap)
                snprintf(errlog, errcap,
                         "ptxas application ptx input, line %d; error   : Unknown symbol 'bogus'\n"
                         "ptxas fatal   : Ptx assembly aborted due to errors\n", line);
            return INVALID_PTX;
        }
    }
    if (!strstr(text, ".entry")) return INVALID_PTX;
    FakeModule *m = calloc(1, sizeof *m);
    size_t n = strlen(text);
    m->text = malloc(n + 1);
    memcpy(m->text, text, n + 1);
    m->ctx = current;
    *mod = m;
    count(0, 1);
    return OK;
}

EXPORT CUresult cuModuleGetFunction(void **fn, void *mod, const char *name) {
    FakeModule *m = mod;
    const char *p = strstr(m->text, ".entry");
    for (; p; p = strstr(p + 1, ".entry")) {
        const char *q = p + 6;
        while (*q == ' ' || *q == '\t') q++;
        size_t n = strlen(name);
        if (!strncmp(q, name, n) && (q[n] == '(' || q[n] == ' ' || q[n] == '\n')) {
            if (m->nfn == 8) return NOT_FOUND;
            m->fn[m->nfn] = (FakeFunc){m, q};
            *fn = &m->fn[m->nfn++];
            return OK;
        }
    }
    return NOT_FOUND;
}

EXPORT CUresult cuModuleUnload(void *mod) {
    FakeModule *m = mod;
    free(m->text);
    free(m);
    return OK;
}

EXPORT CUresult cuFuncSetAttribute(void *fn, int attr, int v) {
    if (attr == 8 && v > 232448) return INVALID_VALUE;
    return OK;
}

/* Registers (attr 4) and local bytes (attr 3) of a kernel: FAKE_CUDA_REGS (default 32)
 * and 0; for PTX that asks for `.minnctapersm`, FAKE_CUDA_REGS_CAPPED (default 32) and
 * FAKE_CUDA_SPILL (default 0), as ptxas meeting the cap by spilling or not. fn points into
 * the module's text at the entry's name, which comes before the directive. */
EXPORT CUresult cuFuncGetAttribute(int *v, int attr, void *fn) {
    int capped = fn && strstr(((FakeFunc *)fn)->entry, ".minnctapersm") != NULL;
    const char *r = getenv(capped ? "FAKE_CUDA_REGS_CAPPED" : "FAKE_CUDA_REGS");
    const char *sp = getenv("FAKE_CUDA_SPILL");
    if (attr == 4) *v = r ? atoi(r) : 32;
    else if (attr == 3) *v = capped && sp ? atoi(sp) : 0;
    else *v = 0;
    return OK;
}

typedef struct { int capturing; int recorded; } FakeStream;
typedef struct { int nodes; } FakeGraph;

EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shared, void *stream,
                               void **params, void **extra) {
    FakeFunc *fn = f;
    if (!fn || fn->m->ctx != current) return INVALID_HANDLE;
    check_tensor_maps(fn->entry, params);
    const char *end = strchr(fn->entry, ')'), *sc = strstr(fn->entry, "_scratch_");
    if (sc && end && sc < end) {   /* the last parameter */
        int np = 0, per = atoi(sc + 9);
        for (const char *p = strstr(fn->entry, ".param"); p && p < end; p = strstr(p + 1, ".param")) np++;
        uint64_t a = params && params[np - 1] ? *(uint64_t *)params[np - 1] : 0;
        int ok = 0;
        for (int i = 0; i < 64; i++)
            ok |= a && async_blocks[i].addr == a && async_blocks[i].n >= (size_t)per * gx * gy * gz;
        count(ok ? 10 : 11, 1);
    }
    FakeStream *s = stream;
    if (s && s->capturing) { s->recorded++; count(4, 1); return OK; }
    const char *l = getenv("FAKE_CUDA_LAUNCH");
    if (l && !strcmp(l, "ok")) { count(1, 1); return OK; }
    return NOT_SUPPORTED;
}

EXPORT CUresult cuStreamCreate(void **s, unsigned flags) {
    if (!current) return 201;
    *s = calloc(1, sizeof(FakeStream));
    return *s ? OK : OUT_OF_MEMORY;
}
EXPORT CUresult cuStreamDestroy_v2(void *s) { free(s); return OK; }
EXPORT CUresult cuStreamSynchronize(void *s) {
    FakeStream *st = s;
    return st && st->capturing ? 900 /* CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED */ : OK;
}
EXPORT CUresult cuStreamBeginCapture_v2(void *s, int mode) {
    FakeStream *st = s;
    if (!st || st->capturing) return 401;   /* the legacy stream, or already capturing */
    st->capturing = 1;
    st->recorded = 0;
    return OK;
}
EXPORT CUresult cuStreamIsCapturing(void *s, int *status) {
    FakeStream *st = s;
    *status = st && st->capturing ? 1 : 0;
    return OK;
}
EXPORT CUresult cuStreamEndCapture(void *s, void **graph) {
    FakeStream *st = s;
    if (!st || !st->capturing) return 401;
    FakeGraph *g = malloc(sizeof *g);
    if (!g) return OUT_OF_MEMORY;
    g->nodes = st->recorded;
    st->capturing = 0;
    *graph = g;
    return OK;
}
EXPORT CUresult cuGraphGetNodes(void *graph, void **nodes, size_t *n) {
    *n = (size_t)((FakeGraph *)graph)->nodes;
    return OK;
}
EXPORT CUresult cuGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags) {
    FakeGraph *x = malloc(sizeof *x);
    if (!x) return OUT_OF_MEMORY;
    *x = *(FakeGraph *)graph;
    *exec = x;
    return OK;
}
EXPORT CUresult cuGraphLaunch(void *exec, void *stream) {
    FakeStream *s = stream;
    if (s && s->capturing) return 900;
    count(2, 1);
    count(3, ((FakeGraph *)exec)->nodes);
    return OK;
}
EXPORT CUresult cuGraphExecDestroy(void *exec) { free(exec); return OK; }
EXPORT CUresult cuGraphDestroy(void *graph) { free(graph); return OK; }

EXPORT CUresult cuEventCreate(void **ev, unsigned flags) {
    *ev = malloc(1);
    return *ev ? OK : OUT_OF_MEMORY;
}
EXPORT CUresult cuEventRecord(void *ev, void *stream) { return ev ? OK : INVALID_HANDLE; }
EXPORT CUresult cuEventSynchronize(void *ev) { return ev ? OK : INVALID_HANDLE; }
EXPORT CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) {
    *ms = 0.5f;
    return OK;
}
EXPORT CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
    return cuEventElapsedTime_v2(ms, a, b);
}
EXPORT CUresult cuEventDestroy_v2(void *ev) { free(ev); return OK; }
