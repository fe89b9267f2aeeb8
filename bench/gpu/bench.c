/* bench.c — the tritonc side of bench/gpu (run by bench/gpu/run.sh on a GPU machine).
 *
 *   bench kernels KERNELS.py   times vector add, row softmax and layernorm forward (one CSV
 *                              line per configuration: tool,kernel,shape,num_warps,ms,GB/s,check)
 *   bench launch KERNELS.py    host cost of a cached launch, µs per call over 20000 calls
 *   bench cold KERNELS.py      a new kernel in this fresh process, to the first result
 *   bench cold_matmul KERNELS.py MATMUL.py, bench cold_attn KERNELS.py TUT06.py D CAUSAL
 *                              a tensor-core kernel's compile after vector add has run
 *
 * Kernel times use the same method as triton.testing.do_bench: each run is preceded by
 * writing a 256 MB buffer (L2 flush) and timed alone with CUDA events; the mean is
 * reported. Kernels are compiled through the library's own stages (trace -> gpu_compile ->
 * cuda_module_load) and launched with cuda_launch, so the times are the kernels' own. The
 * launch-overhead figure uses the public API (tc_launch), i.e. what a user pays. */
#include "front/ast.h"
#include "driver/cuda.h"
#include "gpu/gpu.h"
#include "trace/trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static Err E;
enum { CHUNK = 250 };  /* launches timed together by the host-cost measurement */

#define CK(x) do { if ((x) != TC_OK) { fprintf(stderr, "%s:%d: %s\n%s\n", __FILE__, __LINE__, #x, E.msg); exit(1); } } while (0)

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static Module *g_mod;
static tc_target g_tgt;
static tc_device_props g_props;
static CuDevPtr g_flush;
static const size_t FLUSH_BYTES = 256u << 20;

typedef struct Arg { const char *name; int kind; /* 0 ptr, 1 i32, 2 f32, 3 constexpr int */ int64_t i; double f; CuDevPtr p; } Arg;

typedef struct Compiled { CuModule *mod; int threads, shared; IrFunc *f; Arena arena; int map[32]; } Compiled;

static void compile(const char *kname, const Arg *args, int nargs, int nw, Compiled *c) {
    Func *k = module_find(g_mod, kname);
    if (!k) { fprintf(stderr, "no kernel %s\n", kname); exit(1); }
    SpecArg sa[32];
    memset(sa, 0, sizeof sa);
    for (int i = 0; i < k->nparams; i++) {
        const Arg *a = NULL;
        for (int j = 0; j < nargs; j++)
            if (strcmp(args[j].name, k->params[i].name) == 0) a = &args[j];
        if (!a) { sa[i].missing = true; continue; }
        if (a->kind == 3) { sa[i].is_constexpr = true; sa[i].cv = cv_int(a->i); }
        else if (a->kind == 0) { sa[i].type = type_ptr(DT_FP32); sa[i].div16 = a->p % 16 == 0; }
        else if (a->kind == 1) {
            if (a->i == 1) { sa[i].is_constexpr = true; sa[i].cv = cv_int(1); }
            else { sa[i].type = type_scalar(DT_I32); sa[i].div16 = a->i % 16 == 0; }
        } else sa[i].type = type_scalar(DT_FP32);
    }
    arena_init(&c->arena, &E);
    c->f = trace_kernel(g_mod, k, sa, &c->arena, &E, NULL);
    if (!c->f) { fprintf(stderr, "trace: %s\n", E.msg); exit(1); }
    GpuKernel gk;
    CK(gpu_compile(c->f, &g_tgt, nw, 3, g_props.max_shared_memory_per_block_optin, false, &gk, &E));
    /* as the JIT does (src/runtime/pipeline.c); TRITONC_OCCUPANCY=0 turns the step off */
    char *occ = NULL;
    CK(cuda_module_build(gk.ptx, gk.name, gk.shared_bytes, true, &occ, &c->mod, &E));
    if (getenv("BENCH_DUMP_PTX")) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s-nw%d.ptx", getenv("BENCH_DUMP_PTX"), kname, nw);
        FILE *fp = fopen(path, "w");
        if (fp) { fputs(occ ? occ : gk.ptx, fp); fclose(fp); }
    }
    free(occ);
    c->threads = gk.threads;
    c->shared = gk.shared_bytes;
    gpu_kernel_free(&gk);
    for (int j = 0; j < c->f->nparams; j++) {
        c->map[j] = -1;
        for (int i = 0; i < nargs; i++)
            if (strcmp(args[i].name, c->f->params[j].name) == 0) c->map[j] = i;
        if (c->map[j] < 0) { fprintf(stderr, "param %s not given\n", c->f->params[j].name); exit(1); }
    }
}

static void launch(Compiled *c, const Arg *args, uint32_t grid) {
    uint64_t slots[32];
    void *params[32];
    for (int j = 0; j < c->f->nparams; j++) {
        const Arg *a = &args[c->map[j]];
        slots[j] = 0;
        if (a->kind == 0) slots[j] = a->p;
        else if (a->kind == 2) { float x = (float)a->f; memcpy(&slots[j], &x, 4); }
        else { int32_t x = (int32_t)a->i; memcpy(&slots[j], &x, 4); }
        params[j] = &slots[j];
    }
    uint32_t g[3] = {grid, 1, 1};
    CK(cuda_launch(c->mod, g, c->threads, c->shared, NULL, params, &E));
}

/* do_bench-like: mean of individually timed runs, L2 flushed before each */
static double time_ms(Compiled *c, const Arg *args, uint32_t grid) {
    static CuEvent *ev[2 * 400];
    static bool made;
    if (!made) {
        for (int i = 0; i < 2 * 400; i++) CK(cuda_event_new(&ev[i], &E));
        made = true;
    }
    for (int i = 0; i < 5; i++) launch(c, args, grid);
    CK(cuda_sync(&E));
    double t0 = now_s();
    for (int i = 0; i < 5; i++) launch(c, args, grid);
    CK(cuda_sync(&E));
    double est = (now_s() - t0) / 5 * 1e3;
    int n = (int)(100.0 / (est > 1e-3 ? est : 1e-3));
    if (n < 10) n = 10;
    if (n > 400) n = 400;
    for (int i = 0; i < n; i++) {
        CK(cuda_memset0(g_flush, FLUSH_BYTES, &E));
        CK(cuda_event_record(ev[2 * i], NULL, &E));
        launch(c, args, grid);
        CK(cuda_event_record(ev[2 * i + 1], NULL, &E));
    }
    CK(cuda_sync(&E));
    double sum = 0;
    for (int i = 0; i < n; i++) {
        float ms;
        CK(cuda_event_elapsed_ms(ev[2 * i], ev[2 * i + 1], &ms, &E));
        sum += ms;
    }
    return sum / n;
}

static float *rand_host(size_t n, unsigned seed) {
    float *h = malloc(n * sizeof(float));
    uint32_t s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        h[i] = (float)((s >> 8) / 16777216.0 * 4.0 - 2.0);
    }
    return h;
}

static CuDevPtr dev_from(const float *h, size_t n) {
    CuDevPtr p;
    CK(cuda_alloc(n * 4, &p, &E));
    if (h) CK(cuda_htod(p, h, n * 4, &E));
    else CK(cuda_memset0(p, n * 4, &E));
    return p;
}

static int next_pow2(int n) { int p = 1; while (p < n) p *= 2; return p; }

static void bench_add(void) {
    static const int logs[] = {20, 24, 28};
    for (int li = 0; li < 3; li++) {
        size_t n = (size_t)1 << logs[li];
        float *hx = rand_host(n, 1), *hy = rand_host(n, 2);
        CuDevPtr x = dev_from(hx, n), y = dev_from(hy, n), o = dev_from(NULL, n);
        for (int nw = 1; nw <= 8; nw *= 2) {
            Arg args[] = {{"x_ptr", 0, 0, 0, x}, {"y_ptr", 0, 0, 0, y}, {"output_ptr", 0, 0, 0, o},
                          {"n_elements", 1, (int64_t)n, 0, 0}, {"BLOCK_SIZE", 3, 1024, 0, 0}};
            Compiled c;
            compile("add_kernel", args, 5, nw, &c);
            uint32_t grid = (uint32_t)((n + 1023) / 1024);
            double ms = time_ms(&c, args, grid);
            float *ho = malloc(n * 4);
            CK(cuda_dtoh(ho, o, n * 4, &E));
            size_t bad = 0;
            for (size_t i = 0; i < n; i++) bad += ho[i] != hx[i] + hy[i];
            free(ho);
            printf("tritonc,add,%zu,%d,%.5f,%.1f,%s r%d\n", n, nw, ms, 3.0 * n * 4 / (ms * 1e-3) / 1e9,
                   bad ? "FAIL" : "ok", cuda_module_num_regs(c.mod));
            fflush(stdout);
            cuda_module_unload(c.mod);
            arena_free(&c.arena);
        }
        cuda_free(x); cuda_free(y); cuda_free(o);
        free(hx); free(hy);
    }
}

static const int shapes[3][2] = {{4096, 4096}, {16384, 1024}, {4096, 16384}};

static void bench_softmax(void) {
    for (int si = 0; si < 3; si++) {
        int M = shapes[si][0], N = shapes[si][1];
        size_t n = (size_t)M * N;
        float *hx = rand_host(n, 3);
        CuDevPtr x = dev_from(hx, n), o = dev_from(NULL, n);
        for (int nw = 4; nw <= 16; nw *= 2) {
            Arg args[] = {{"output_ptr", 0, 0, 0, o}, {"input_ptr", 0, 0, 0, x},
                          {"input_row_stride", 1, N, 0, 0}, {"output_row_stride", 1, N, 0, 0},
                          {"n_cols", 1, N, 0, 0}, {"BLOCK_SIZE", 3, next_pow2(N), 0, 0}};
            Compiled c;
            compile("softmax_kernel", args, 6, nw, &c);
            double ms = time_ms(&c, args, (uint32_t)M);
            float *ho = malloc(n * 4);
            CK(cuda_dtoh(ho, o, n * 4, &E));
            int bad = 0;
            for (int r = 0; r < M; r += M / 16) {
                const float *xr = hx + (size_t)r * N, *orow = ho + (size_t)r * N;
                double mx = -INFINITY, s = 0;
                for (int j = 0; j < N; j++) mx = fmax(mx, xr[j]);
                for (int j = 0; j < N; j++) s += exp(xr[j] - mx);
                for (int j = 0; j < N; j++) {
                    double ref = exp(xr[j] - mx) / s;
                    if (fabs(orow[j] - ref) > 1e-5 * ref + 1e-9) bad++;
                }
            }
            free(ho);
            printf("tritonc,softmax,%dx%d,%d,%.5f,%.1f,%s r%d\n", M, N, nw, ms, 2.0 * n * 4 / (ms * 1e-3) / 1e9,
                   bad ? "FAIL" : "ok", cuda_module_num_regs(c.mod));
            fflush(stdout);
            cuda_module_unload(c.mod);
            arena_free(&c.arena);
        }
        cuda_free(x); cuda_free(o);
        free(hx);
    }
}

static void bench_layernorm(void) {
    for (int si = 0; si < 3; si++) {
        int M = shapes[si][0], N = shapes[si][1];
        size_t n = (size_t)M * N;
        float *hx = rand_host(n, 4), *hw = rand_host((size_t)N, 5), *hb = rand_host((size_t)N, 6);
        CuDevPtr x = dev_from(hx, n), y = dev_from(NULL, n), w = dev_from(hw, (size_t)N),
                 b = dev_from(hb, (size_t)N), mean = dev_from(NULL, (size_t)M), rstd = dev_from(NULL, (size_t)M);
        int block = next_pow2(N);
        if (block > 16384) block = 16384;
        for (int nw = 4; nw <= 16; nw *= 2) {
            Arg args[] = {{"X", 0, 0, 0, x}, {"Y", 0, 0, 0, y}, {"W", 0, 0, 0, w}, {"B", 0, 0, 0, b},
                          {"Mean", 0, 0, 0, mean}, {"Rstd", 0, 0, 0, rstd}, {"stride", 1, N, 0, 0},
                          {"N", 1, N, 0, 0}, {"eps", 2, 0, 1e-5, 0}, {"BLOCK_SIZE", 3, block, 0, 0}};
            Compiled c;
            compile("layer_norm_fwd", args, 10, nw, &c);
            double ms = time_ms(&c, args, (uint32_t)M);
            float *ho = malloc(n * 4);
            CK(cuda_dtoh(ho, y, n * 4, &E));
            int bad = 0;
            for (int r = 0; r < M; r += M / 16) {
                const float *xr = hx + (size_t)r * N, *orow = ho + (size_t)r * N;
                double mu = 0, var = 0;
                for (int j = 0; j < N; j++) mu += xr[j];
                mu /= N;
                for (int j = 0; j < N; j++) var += (xr[j] - mu) * (xr[j] - mu);
                var /= N;
                double rs = 1 / sqrt(var + 1e-5);
                for (int j = 0; j < N; j++) {
                    double ref = (xr[j] - mu) * rs * hw[j] + hb[j];
                    if (fabs(orow[j] - ref) > 1e-4 * fabs(ref) + 1e-4) bad++;
                }
            }
            free(ho);
            printf("tritonc,layernorm,%dx%d,%d,%.5f,%.1f,%s r%d\n", M, N, nw, ms,
                   (2.0 * n + 2.0 * N + 2.0 * M) * 4 / (ms * 1e-3) / 1e9, bad ? "FAIL" : "ok",
                   cuda_module_num_regs(c.mod));
            fflush(stdout);
            cuda_module_unload(c.mod);
            arena_free(&c.arena);
        }
        cuda_free(x); cuda_free(y); cuda_free(w); cuda_free(b); cuda_free(mean); cuda_free(rstd);
        free(hx); free(hw); free(hb);
    }
}

/* public API: what a user's cached launch costs */
static void bench_launch(const char *path) {
    tc_context *ctx;
    tc_context_new(&ctx);
    tc_context_set_backend(ctx, TC_BACKEND_CUDA);
    tc_module *m;
    if (tc_module_load_file(ctx, path, &m)) { fprintf(stderr, "%s\n", tc_errmsg(ctx)); exit(1); }
    tc_kernel *k;
    tc_module_kernel(m, "add_kernel", &k);
    int64_t n = 1024;
    tc_tensor *x, *y, *o;
    tc_tensor_new(ctx, TC_FP32, 1, &n, &x);
    tc_tensor_new(ctx, TC_FP32, 1, &n, &y);
    tc_tensor_new(ctx, TC_FP32, 1, &n, &o);
    tc_args *a;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "y_ptr", tc_tens(y));
    tc_args_set(a, "output_ptr", tc_tens(o));
    tc_args_set(a, "n_elements", tc_int(n));
    tc_args_set(a, "BLOCK_SIZE", tc_int(1024));
    tc_launch_opts op = tc_launch_defaults();
    op.grid[0] = 1;
    for (int i = 0; i < 100; i++)
        if (tc_launch(k, a, &op)) { fprintf(stderr, "%s\n", tc_errmsg(ctx)); exit(1); }
    int iters = 20000;
    double t0 = now_s();
    for (int i = 0; i < iters; i++) tc_launch(k, a, &op);
    double t1 = now_s();
    printf("tritonc,launch_api,1024,4,%.3f,,us_per_call\n", (t1 - t0) / iters * 1e6);
    /* Back to back, 20000 launches fill the driver's queue and the loop then runs at the
     * GPU's pace for tiny kernels. The host's own cost: chunks of CHUNK launches, each timed
     * alone, with the synchronization between chunks left out. */
    double host = 0;
    for (int c = 0; c < iters / CHUNK; c++) {
        tc_synchronize(ctx);
        double c0 = now_s();
        for (int i = 0; i < CHUNK; i++) tc_launch(k, a, &op);
        host += now_s() - c0;
    }
    tc_synchronize(ctx);
    printf("tritonc,launch_api_host,1024,4,%.3f,,us_per_call(chunks_of_%d)\n", host / iters * 1e6, CHUNK);
    /* the floor: cuda_launch of a loaded module, no API work */
    Arg args[] = {{"x_ptr", 0, 0, 0, 0}, {"y_ptr", 0, 0, 0, 0}, {"output_ptr", 0, 0, 0, 0},
                  {"n_elements", 1, 1024, 0, 0}, {"BLOCK_SIZE", 3, 1024, 0, 0}};
    CuDevPtr d;
    CK(cuda_alloc(3 * 4096, &d, &E));
    args[0].p = d; args[1].p = d + 4096; args[2].p = d + 8192;
    Compiled c;
    compile("add_kernel", args, 5, 4, &c);
    for (int i = 0; i < 100; i++) launch(&c, args, 1);
    CK(cuda_sync(&E));
    t0 = now_s();
    for (int i = 0; i < iters; i++) launch(&c, args, 1);
    CK(cuda_sync(&E));
    t1 = now_s();
    printf("tritonc,launch_raw,1024,4,%.3f,,us_per_call\n", (t1 - t0) / iters * 1e6);
    host = 0;
    for (int ch = 0; ch < iters / CHUNK; ch++) {
        CK(cuda_sync(&E));
        double c0 = now_s();
        for (int i = 0; i < CHUNK; i++) launch(&c, args, 1);
        host += now_s() - c0;
    }
    CK(cuda_sync(&E));
    printf("tritonc,launch_raw_host,1024,4,%.3f,,us_per_call(chunks_of_%d)\n", host / iters * 1e6, CHUNK);
}

static void bench_cold(const char *path) {
    double t0 = now_s();
    tc_context *ctx;
    tc_context_new(&ctx);
    tc_context_set_backend(ctx, TC_BACKEND_CUDA);
    int64_t n = 1 << 20;
    float *h = rand_host((size_t)n, 7);
    tc_tensor *x, *y, *o;
    if (tc_tensor_from_host(ctx, TC_FP32, 1, &n, h, &x)) { fprintf(stderr, "%s\n", tc_errmsg(ctx)); exit(1); }
    tc_tensor_from_host(ctx, TC_FP32, 1, &n, h, &y);
    tc_tensor_new(ctx, TC_FP32, 1, &n, &o);
    double t1 = now_s();
    tc_module *m;
    if (tc_module_load_file(ctx, path, &m)) { fprintf(stderr, "%s\n", tc_errmsg(ctx)); exit(1); }
    tc_kernel *k;
    tc_module_kernel(m, "add_kernel", &k);
    tc_args *a;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "y_ptr", tc_tens(y));
    tc_args_set(a, "output_ptr", tc_tens(o));
    tc_args_set(a, "n_elements", tc_int(n));
    tc_args_set(a, "BLOCK_SIZE", tc_int(1024));
    tc_launch_opts op = tc_launch_defaults();
    op.grid[0] = (uint32_t)(n / 1024);
    if (tc_launch(k, a, &op)) { fprintf(stderr, "%s\n", tc_errmsg(ctx)); exit(1); }
    float *r = malloc((size_t)n * 4);
    tc_tensor_to_host(o, r, (size_t)n * 4);
    double t2 = now_s();
    printf("tritonc,cold_compile,%lld,4,%.3f,,ms_to_first_result(driver_init_ms=%.1f) check=%s\n", (long long)n,
           (t2 - t1) * 1e3, (t1 - t0) * 1e3, r[5] == h[5] * 2 ? "ok" : "FAIL");
}

/* A tensor-core matmul specialization (bench/gpu/matmul.py, 128x256x64, 8 warps, 3 stages,
 * fp16 1024^3) compiled in a process that has already launched another kernel (vector
 * add), from the launch call to the first result (issue 11's protocol). */
#define TC_CK(ctx, x) do { if ((x) != TC_OK) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, tc_errmsg(ctx)); exit(1); } } while (0)

/* A CUDA context that has launched vector add (add_path's add_kernel): the driver and its
 * compiler are up, as issue 11's protocol for a cold compile asks. */
static tc_context *warm_context(const char *add_path) {
    tc_context *ctx;
    tc_context_new(&ctx);
    tc_context_set_backend(ctx, TC_BACKEND_CUDA);
    int64_t n = 1 << 20;
    float *h = rand_host((size_t)n, 7);
    tc_tensor *x, *o;
    tc_module *ma;
    tc_kernel *ka;
    TC_CK(ctx, tc_tensor_from_host(ctx, TC_FP32, 1, &n, h, &x));
    TC_CK(ctx, tc_tensor_new(ctx, TC_FP32, 1, &n, &o));
    TC_CK(ctx, tc_module_load_file(ctx, add_path, &ma));
    TC_CK(ctx, tc_module_kernel(ma, "add_kernel", &ka));
    tc_args *a;
    tc_args_new(ka, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "y_ptr", tc_tens(x));
    tc_args_set(a, "output_ptr", tc_tens(o));
    tc_args_set(a, "n_elements", tc_int(n));
    tc_args_set(a, "BLOCK_SIZE", tc_int(1024));
    tc_launch_opts op = tc_launch_defaults();
    op.grid[0] = (uint32_t)(n / 1024);
    TC_CK(ctx, tc_launch(ka, a, &op));
    TC_CK(ctx, tc_synchronize(ctx));
    free(h);
    return ctx;
}

static void bench_cold_matmul(const char *add_path, const char *mm_path) {
    tc_context *ctx = warm_context(add_path);
    tc_module *mm;
    tc_kernel *km;
    TC_CK(ctx, tc_module_load_file(ctx, mm_path, &mm));
    TC_CK(ctx, tc_module_kernel(mm, "matmul_kernel", &km));
    int64_t M = 1024, sh[2] = {M, M};
    uint16_t *hh = malloc((size_t)(M * M) * 2);
    for (int64_t i = 0; i < M * M; i++) hh[i] = 0x3c00; /* 1.0 */
    tc_tensor *A, *B, *C;
    tc_tensor_from_host(ctx, TC_FP16, 2, sh, hh, &A);
    tc_tensor_from_host(ctx, TC_FP16, 2, sh, hh, &B);
    tc_tensor_new(ctx, TC_FP16, 2, sh, &C);
    tc_args *b;
    tc_args_new(km, &b);
    tc_args_set(b, "a_ptr", tc_tens(A));
    tc_args_set(b, "b_ptr", tc_tens(B));
    tc_args_set(b, "c_ptr", tc_tens(C));
    const char *ints[] = {"M", "N", "K", "stride_am", "stride_bk", "stride_cm"};
    for (int i = 0; i < 6; i++) tc_args_set(b, ints[i], tc_int(M));
    tc_args_set(b, "stride_ak", tc_int(1));
    tc_args_set(b, "stride_bn", tc_int(1));
    tc_args_set(b, "stride_cn", tc_int(1));
    tc_args_set(b, "BLOCK_SIZE_M", tc_int(128));
    tc_args_set(b, "BLOCK_SIZE_N", tc_int(256));
    tc_args_set(b, "BLOCK_SIZE_K", tc_int(64));
    tc_args_set(b, "GROUP_SIZE_M", tc_int(8));
    tc_args_set(b, "ACTIVATION", tc_str(""));
    tc_launch_opts om = tc_launch_defaults();
    om.grid[0] = (uint32_t)((M / 128) * (M / 256));
    om.num_warps = 8;
    om.num_stages = 3;
    double t1 = now_s();
    if (tc_launch(km, b, &om)) { fprintf(stderr, "%s\n", tc_errmsg(ctx)); exit(1); }
    tc_tensor_to_host(C, hh, (size_t)(M * M) * 2);
    double t2 = now_s();
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    printf("tritonc,cold_compile_matmul,%lld,8,%.3f,,ms_to_first_result(dot=%s) check=%s\n", (long long)M,
           (t2 - t1) * 1e3, r.dot, hh[5] == 0x6400 ? "ok" : "FAIL"); /* 1024.0 */
}

/* Times one launch from the call to its end; prints compile_ms from the launch report. */
static void timed_launch(tc_context *ctx, tc_kernel *k, tc_args *a, const tc_launch_opts *o,
                         const char *what, const char *row) {
    double t0 = now_s();
    TC_CK(ctx, tc_launch(k, a, o));
    TC_CK(ctx, tc_synchronize(ctx));
    double t1 = now_s();
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    printf("tritonc,%s,%s,%.1f,launch to result; compile %.1f ms (%s)\n", what, row,
           (t1 - t0) * 1e3, r.compile_ms, r.dot);
}

/* Tutorial 06's kernels (the file at tut) compiled in a process that has launched vector
 * add: _attn_fwd at one config (BLOCK_M 128, BLOCK_N min(128, d), 4 warps, 3 stages; no
 * autotuning), then _attn_bwd_preprocess and _attn_bwd as the file launches them; Z 1, H 2,
 * N_CTX 1024, fp16. attention_cold.py is Triton's side. */
static void bench_cold_attn(const char *add_path, const char *tut, int d, int causal) {
    tc_context *ctx = warm_context(add_path);
    tc_module *m;
    tc_kernel *fwd, *pre, *bwd;
    TC_CK(ctx, tc_module_load_file(ctx, tut, &m));
    TC_CK(ctx, tc_module_kernel(m, "_attn_fwd", &fwd));
    TC_CK(ctx, tc_module_kernel(m, "_attn_bwd_preprocess", &pre));
    TC_CK(ctx, tc_module_kernel(m, "_attn_bwd", &bwd));
    int64_t Z = 1, H = 2, N = 1024, rows = Z * H * N;
    int64_t s4[4] = {Z, H, N, d}, s2[2] = {rows, d}, blk[2] = {1, 1};
    size_t elems = (size_t)(rows * d);
    uint16_t *hh = malloc(elems * 2);
    for (size_t i = 0; i < elems; i++) hh[i] = (uint16_t)(0x3000 + (i * 7919 % 1024));  /* 0.125..0.25 */
    tc_tensor *t[8], *M, *Dl, *dq[4];
    for (int i = 0; i < 8; i++) TC_CK(ctx, tc_tensor_from_host(ctx, TC_FP16, 4, s4, hh, &t[i]));
    TC_CK(ctx, tc_tensor_new(ctx, TC_FP32, 1, &rows, &M));
    TC_CK(ctx, tc_tensor_new(ctx, TC_FP32, 1, &rows, &Dl));
    for (int i = 0; i < 4; i++)  /* q, k, v, o as (rows, d) descriptors */
        TC_CK(ctx, tc_tensor_descriptor(ctx, t[i], 2, s2, NULL, blk, &dq[i]));
    char row[64], spec[96];
    snprintf(row, sizeof row, "D%d causal%d", d, causal);
    snprintf(spec, sizeof spec, "BLOCK_M=128,BLOCK_N=%d,num_warps=4,num_stages=3", d < 128 ? d : 128);
    int idx;
    TC_CK(ctx, tc_kernel_find_config(fwd, spec, &idx));
    TC_CK(ctx, tc_kernel_set_config(fwd, idx));
    tc_args *a;
    tc_args_new(fwd, &a);
    const char *dn[4] = {"desc_q", "desc_k", "desc_v", "desc_o"};
    tc_args_set(a, "sm_scale", tc_float(0.5));
    tc_args_set(a, "M", tc_tens(M));
    tc_args_set(a, "Z", tc_int(Z));
    tc_args_set(a, "H", tc_int(H));
    for (int i = 0; i < 4; i++) tc_args_set(a, dn[i], tc_tens(dq[i]));
    tc_args_set(a, "N_CTX", tc_int(N));
    tc_args_set(a, "HEAD_DIM", tc_int(d));
    tc_args_set(a, "FP8_OUTPUT", tc_bool(0));
    tc_args_set(a, "STAGE", tc_int(causal ? 3 : 1));
    tc_args_set(a, "warp_specialize", tc_bool(0));
    tc_args_set(a, "IS_HOPPER", tc_bool(1));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = (uint32_t)(N / 128);
    o.grid[1] = (uint32_t)(Z * H);
    timed_launch(ctx, fwd, a, &o, "cold_attn_fwd", row);
    tc_args *p;
    tc_args_new(pre, &p);
    tc_args_set(p, "O", tc_tens(t[3]));
    tc_args_set(p, "DO", tc_tens(t[4]));
    tc_args_set(p, "Delta", tc_tens(Dl));
    tc_args_set(p, "Z", tc_int(Z));
    tc_args_set(p, "H", tc_int(H));
    tc_args_set(p, "N_CTX", tc_int(N));
    tc_args_set(p, "BLOCK_M", tc_int(128));
    tc_args_set(p, "HEAD_DIM", tc_int(d));
    o = tc_launch_defaults();
    o.grid[0] = (uint32_t)(N / 128);
    o.grid[1] = (uint32_t)(Z * H);
    timed_launch(ctx, pre, p, &o, "cold_attn_bwd_preprocess", row);
    tc_args *b;
    tc_args_new(bwd, &b);
    const char *bn[7] = {"Q", "K", "V", "DO", "DQ", "DK", "DV"};
    int bt[7] = {0, 1, 2, 4, 5, 6, 7};
    for (int i = 0; i < 7; i++) tc_args_set(b, bn[i], tc_tens(t[bt[i]]));
    tc_args_set(b, "sm_scale", tc_float(0.5));
    tc_args_set(b, "M", tc_tens(M));
    tc_args_set(b, "D", tc_tens(Dl));
    tc_args_set(b, "stride_z", tc_int(H * N * d));
    tc_args_set(b, "stride_h", tc_int(N * d));
    tc_args_set(b, "stride_tok", tc_int(d));
    tc_args_set(b, "stride_d", tc_int(1));
    tc_args_set(b, "H", tc_int(H));
    tc_args_set(b, "N_CTX", tc_int(N));
    tc_args_set(b, "BLOCK_M1", tc_int(32));
    tc_args_set(b, "BLOCK_N1", tc_int(128));
    tc_args_set(b, "BLOCK_M2", tc_int(128));
    tc_args_set(b, "BLOCK_N2", tc_int(32));
    tc_args_set(b, "BLK_SLICE_FACTOR", tc_int(2));
    tc_args_set(b, "HEAD_DIM", tc_int(d));
    tc_args_set(b, "CAUSAL", tc_bool(causal));
    o = tc_launch_defaults();
    o.grid[0] = (uint32_t)(N / 128);
    o.grid[2] = (uint32_t)(Z * H);
    o.num_warps = 4;
    o.num_stages = 5;
    timed_launch(ctx, bwd, b, &o, "cold_attn_bwd", row);
    free(hh);
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "cold_matmul") == 0) {
        bench_cold_matmul(argv[2], argv[3]);
        return 0;
    }
    if (argc == 6 && strcmp(argv[1], "cold_attn") == 0) {
        bench_cold_attn(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
        return 0;
    }
    if (argc < 3) { fprintf(stderr, "usage: bench kernels|launch|cold KERNELS.py\n"); return 2; }
    if (strcmp(argv[1], "launch") == 0 || strcmp(argv[1], "cold") == 0) {
        Source *s = source_read_file(argv[2], &E);
        if (!s || !(g_mod = parse_module(s, &E))) { fprintf(stderr, "%s\n", E.msg); return 1; }
        CK(cuda_init(&E));
        CK(cuda_use_device(0, &E));
        bool ov;
        CK(cuda_target(0, &g_tgt, &ov, &E));
        CK(cuda_device_props(0, &g_props, &E));
        if (strcmp(argv[1], "launch") == 0) bench_launch(argv[2]);
        else bench_cold(argv[2]);
        return 0;
    }
    Source *s = source_read_file(argv[2], &E);
    if (!s || !(g_mod = parse_module(s, &E))) { fprintf(stderr, "%s\n", E.msg); return 1; }
    CK(cuda_init(&E));
    CK(cuda_use_device(0, &E));
    bool ov;
    CK(cuda_target(0, &g_tgt, &ov, &E));
    CK(cuda_device_props(0, &g_props, &E));
    CK(cuda_alloc(FLUSH_BYTES, &g_flush, &E));
    const char *which = argc > 3 ? argv[3] : "all";
    if (!strcmp(which, "all") || !strcmp(which, "add")) bench_add();
    if (!strcmp(which, "all") || !strcmp(which, "softmax")) bench_softmax();
    if (!strcmp(which, "all") || !strcmp(which, "layernorm")) bench_layernorm();
    return 0;
}
