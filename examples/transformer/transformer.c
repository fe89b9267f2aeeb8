/* transformer.c — one GPT-2-style transformer block, forward, run from C with tritonc:
 *
 *   h  = layernorm(x)            qkv = h @ Wqkv + bqkv        a  = causal_attention(qkv)
 *   x1 = x + a @ Wproj + bproj   h2  = layernorm(x1)           f  = gelu(h2 @ Wfc + bfc)
 *   y  = x1 + f @ Wfc2 + bfc2
 *
 * The kernels are examples/transformer/kernels.py (Triton syntax). The program owns its
 * memory: one buffer it allocates itself (malloc under the interpreter, cuMemAlloc from the
 * CUDA driver on a GPU), wrapped with tc_tensor_wrap, every weight and activation a
 * tc_tensor_view into it. It runs the seven launches as a sequence and as a replayed graph
 * (tc_graph_*) and checks both against a plain C reference.
 *
 *   transformer [--interpret] [--fp16] [--check] [--bench] [-B 2] [-T 16] [-C 32] [-H 2]
 *               [--kernels FILE]
 *
 * --check compares with the C reference (exit 1 when off by more than the tolerance);
 * --bench times the sequence and the graph with tc_do_bench (GPU) and reports the time of
 * the first forward, which compiles (from a cold cache when TRITONC_CACHE_DIR is empty). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* clock_gettime, RTLD_NOLOAD */
#endif
#include <tritonc.h>

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TRITONC_EXAMPLES_DIR
#define TRITONC_EXAMPLES_DIR "examples"
#endif

typedef struct Cfg { int B, T, C, H, fp16, interpret, check, bench; const char *kernels; } Cfg;

/* ---- fp16 by hand (round to nearest even) ------------------------------------------- */

static uint16_t f2h(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000, mant = x & 0x7fffff;
    int exp = (int)((x >> 23) & 0xff) - 127 + 15;
    if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 : 0));
    if (exp >= 31) return (uint16_t)(sign | 0x7c00);
    if (exp <= 0) {
        if (exp < -10) return (uint16_t)sign;
        mant |= 0x800000;
        int shift = 14 - exp;
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = (uint32_t)exp << 10 | mant >> 13, rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

static float h2f(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float f;
    if (exp == 0) f = ldexpf((float)mant, -24);
    else if (exp == 31) f = mant ? NAN : INFINITY;
    else f = ldexpf((float)(mant | 0x400), (int)exp - 25);
    uint32_t x;
    memcpy(&x, &f, 4);
    x |= sign;
    memcpy(&f, &x, 4);
    return f;
}

/* ---- the plain C reference -------------------------------------------------------------- */

static void ref_layernorm(const float *x, float *y, const float *w, const float *b, int M, int C) {
    for (int i = 0; i < M; i++) {
        double mean = 0, var = 0;
        for (int j = 0; j < C; j++) mean += x[i * C + j];
        mean /= C;
        for (int j = 0; j < C; j++) var += (x[i * C + j] - mean) * (x[i * C + j] - mean);
        var /= C;
        double rstd = 1.0 / sqrt(var + 1e-5);
        for (int j = 0; j < C; j++) y[i * C + j] = (float)((x[i * C + j] - mean) * rstd * w[j] + b[j]);
    }
}

static double gelu(double x) { return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

/* y[M,N] = act(a[M,K] @ w[K,N] + bias) (+ r) */
static void ref_linear(const float *a, const float *w, const float *bias, const float *r, float *y,
                       int M, int N, int K, int act) {
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = bias[j];
            for (int k = 0; k < K; k++) s += (double)a[i * K + k] * w[k * N + j];
            if (act) s = gelu(s);
            if (r) s += r[i * N + j];
            y[i * N + j] = (float)s;
        }
}

static void ref_attention(const float *qkv, float *o, int B, int T, int C, int H) {
    int D = C / H;
    double *p = malloc(sizeof *p * (size_t)T);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                const float *q = qkv + (size_t)(b * T + i) * 3 * C + h * D;
                double mx = -INFINITY, sum = 0;
                for (int j = 0; j <= i; j++) {
                    const float *k = qkv + (size_t)(b * T + j) * 3 * C + C + h * D;
                    double s = 0;
                    for (int d = 0; d < D; d++) s += (double)q[d] * k[d];
                    p[j] = s / sqrt((double)D);
                    if (p[j] > mx) mx = p[j];
                }
                for (int j = 0; j <= i; j++) sum += p[j] = exp(p[j] - mx);
                for (int d = 0; d < D; d++) {
                    double s = 0;
                    for (int j = 0; j <= i; j++) s += p[j] * qkv[(size_t)(b * T + j) * 3 * C + 2 * C + h * D + d];
                    o[(size_t)(b * T + i) * C + h * D + d] = (float)(s / sum);
                }
            }
    free(p);
}

/* ---- the block on tritonc -------------------------------------------------------------- */

enum { X, LN1W, LN1B, WQKV, BQKV, WPROJ, BPROJ, LN2W, LN2B, WFC, BFC, WFC2, BFC2,   /* inputs */
       H1, QKV, ATT, X1, H2, F, Y, NT };
static const char *const names[NT] = {"x", "ln1_w", "ln1_b", "w_qkv", "b_qkv", "w_proj", "b_proj",
                                      "ln2_w", "ln2_b", "w_fc", "b_fc", "w_fc2", "b_fc2", "h1",
                                      "qkv", "att", "x1", "h2", "f", "y"};

typedef struct Block {
    tc_context *ctx;
    tc_module *mod;
    tc_kernel *ln, *lin, *att;
    tc_tensor *pool, *t[NT];
    int64_t rows[NT], cols[NT], off[NT];
    tc_args *a[7];
    tc_kernel *k[7];
    tc_launch_opts o[7];
    void *stream;
    void *mem;                       /* the program's own buffer */
    void (*free_mem)(void *);
} Block;

static int fail(Block *b, const char *what) {
    fprintf(stderr, "transformer: %s: %s\n", what, tc_errmsg(b->ctx));
    return 1;
}

/* Device memory the program allocates itself, from the CUDA driver (no CUDA runtime). */
typedef int (*MemAllocFn)(uint64_t *, size_t);
typedef int (*MemFreeFn)(uint64_t);
static MemFreeFn cu_free;
static void free_device(void *p) { if (cu_free) cu_free((uint64_t)(uintptr_t)p); }

static void *alloc_memory(Block *b, size_t n, int gpu) {
    if (!gpu) {
        b->free_mem = free;
        return calloc(1, n);
    }
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h) h = dlopen("libcuda.so.1", RTLD_NOW);
    MemAllocFn alloc = h ? (MemAllocFn)dlsym(h, "cuMemAlloc_v2") : NULL;
    cu_free = h ? (MemFreeFn)dlsym(h, "cuMemFree_v2") : NULL;
    uint64_t p = 0;
    if (!alloc || alloc(&p, n) != 0) return NULL;   /* tritonc made the context current */
    b->free_mem = free_device;
    return (void *)(uintptr_t)p;
}

static void set(tc_args *a, const char *name, tc_value v) { tc_args_set(a, name, v); }

static int next_pow2(int n) { int p = 1; while (p < n) p <<= 1; return p; }

static void setup_linear(Block *b, int i, int A, int W, int Bi, int R, int Cc, int M, int N, int K,
                         int gelu, int small) {
    tc_args *a;
    tc_args_new(b->lin, &a);
    set(a, "A", tc_tens(b->t[A])); set(a, "W", tc_tens(b->t[W])); set(a, "Bias", tc_tens(b->t[Bi]));
    set(a, "R", R >= 0 ? tc_tens(b->t[R]) : tc_tens(b->t[Cc]));
    set(a, "C", tc_tens(b->t[Cc]));
    set(a, "M", tc_int(M)); set(a, "N", tc_int(N)); set(a, "K", tc_int(K));
    set(a, "stride_am", tc_int(K)); set(a, "stride_wk", tc_int(N)); set(a, "stride_cm", tc_int(N));
    set(a, "GELU", tc_bool(gelu)); set(a, "RESIDUAL", tc_bool(R >= 0));
    int bm = small ? 16 : 128, bn = small ? 16 : 128, bk = small ? 16 : 32;
    set(a, "BLOCK_M", tc_int(bm)); set(a, "BLOCK_N", tc_int(bn)); set(a, "BLOCK_K", tc_int(bk));
    set(a, "GROUP_M", tc_int(8));
    b->a[i] = a;
    b->k[i] = b->lin;
    b->o[i] = tc_launch_defaults();
    b->o[i].grid[0] = (uint32_t)(((M + bm - 1) / bm) * ((N + bn - 1) / bn));
    b->o[i].num_warps = small ? 4 : 8;
}

static void setup_layernorm(Block *b, int i, int X_, int W, int Bi, int Y_, int M, int C) {
    tc_args *a;
    tc_args_new(b->ln, &a);
    set(a, "X", tc_tens(b->t[X_])); set(a, "Y", tc_tens(b->t[Y_]));
    set(a, "W", tc_tens(b->t[W])); set(a, "B", tc_tens(b->t[Bi]));
    set(a, "stride", tc_int(C)); set(a, "N", tc_int(C)); set(a, "eps", tc_float(1e-5));
    set(a, "BLOCK_N", tc_int(next_pow2(C)));
    b->a[i] = a;
    b->k[i] = b->ln;
    b->o[i] = tc_launch_defaults();
    b->o[i].grid[0] = (uint32_t)M;
    b->o[i].num_warps = C >= 1024 ? 8 : 4;
}

static void setup_attention(Block *b, int i, const Cfg *c, int small) {
    tc_args *a;
    tc_args_new(b->att, &a);
    int D = c->C / c->H, bm = small ? 16 : 64;
    set(a, "QKV", tc_tens(b->t[QKV])); set(a, "O", tc_tens(b->t[ATT]));
    set(a, "sm_scale", tc_float(1.0 / sqrt((double)D)));
    set(a, "T", tc_int(c->T)); set(a, "D", tc_int(c->C));
    set(a, "stride_qkv", tc_int(3 * c->C)); set(a, "stride_o", tc_int(c->C));
    set(a, "H", tc_int(c->H)); set(a, "HEAD_DIM", tc_int(D));
    set(a, "BLOCK_M", tc_int(bm)); set(a, "BLOCK_N", tc_int(bm));
    b->a[i] = a;
    b->k[i] = b->att;
    b->o[i] = tc_launch_defaults();
    b->o[i].grid[0] = (uint32_t)((c->T + bm - 1) / bm);
    b->o[i].grid[1] = (uint32_t)(c->B * c->H);
    b->o[i].num_warps = 4;
}

static tc_status forward(void *user) {
    Block *b = user;
    for (int i = 0; i < 7; i++) {
        b->o[i].stream = b->stream;
        tc_status rc = tc_launch(b->k[i], b->a[i], &b->o[i]);
        if (rc) return rc;
    }
    return TC_OK;
}

typedef struct GraphRun { tc_graph *g; void *stream; } GraphRun;
static tc_status replay(void *user) {
    GraphRun *r = user;
    return tc_graph_launch(r->g, r->stream);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads tensor i back as floats. */
static int read_back(Block *b, int i, float *out, int fp16) {
    size_t n = (size_t)(b->rows[i] * b->cols[i]);
    if (!fp16) return tc_tensor_to_host(b->t[i], out, n * 4) != TC_OK;
    uint16_t *h = malloc(n * 2);
    int bad = !h || tc_tensor_to_host(b->t[i], h, n * 2) != TC_OK;
    for (size_t j = 0; !bad && j < n; j++) out[j] = h2f(h[j]);
    free(h);
    return bad;
}

/* The largest |got - want| / (atol + rtol |want|); <= 1 passes. */
static double compare(const float *got, const float *want, size_t n, double rtol, double atol,
                      double *maxabs) {
    double worst = 0;
    *maxabs = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - want[i]);
        if (!(d == d)) return INFINITY;
        if (d > *maxabs) *maxabs = d;
        double r = d / (atol + rtol * fabs(want[i]));
        if (r > worst) worst = r;
    }
    return worst;
}

int main(int argc, char **argv) {
    Cfg c = {2, 16, 32, 2, 0, 0, 0, 0, TRITONC_EXAMPLES_DIR "/transformer/kernels.py"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--interpret")) c.interpret = 1;
        else if (!strcmp(a, "--fp16")) c.fp16 = 1;
        else if (!strcmp(a, "--check")) c.check = 1;
        else if (!strcmp(a, "--bench")) c.bench = 1;
        else if (i + 1 < argc && !strcmp(a, "-B")) c.B = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(a, "-T")) c.T = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(a, "-C")) c.C = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(a, "-H")) c.H = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(a, "--kernels")) c.kernels = argv[++i];
        else {
            fprintf(stderr, "usage: transformer [--interpret] [--fp16] [--check] [--bench] [-B n] "
                            "[-T n] [-C n] [-H n] [--kernels FILE]\n");
            return 2;
        }
    }
    if (c.B < 1 || c.T < 1 || c.H < 1 || c.C < c.H || c.C % c.H || (c.C / c.H) % 16 ||
        ((c.C / c.H) & (c.C / c.H - 1))) {
        fprintf(stderr, "transformer: C/H must be a power of two and a multiple of 16\n");
        return 2;
    }
    Block blk;
    memset(&blk, 0, sizeof blk);
    Block *b = &blk;
    if (tc_context_new(&b->ctx)) return 1;
    if (c.interpret) tc_context_set_backend(b->ctx, TC_BACKEND_INTERPRET);
    tc_backend be;
    if (tc_context_backend(b->ctx, &be)) return fail(b, "backend");
    int gpu = be == TC_BACKEND_CUDA;
    int small = !gpu || c.C < 128;
    if (tc_module_load_file(b->ctx, c.kernels, &b->mod) ||
        tc_module_kernel(b->mod, "layernorm_kernel", &b->ln) ||
        tc_module_kernel(b->mod, "linear_kernel", &b->lin) ||
        tc_module_kernel(b->mod, "attention_kernel", &b->att))
        return fail(b, "kernels");
    if (tc_stream_new(b->ctx, &b->stream)) return fail(b, "stream");   /* NULL: interpreter */

    /* the layout of the one buffer: every tensor at a 64-element boundary */
    int M = c.B * c.T, C = c.C;
    int64_t shape[NT][2] = {{M, C}, {1, C}, {1, C}, {C, 3 * C}, {1, 3 * C}, {C, C}, {1, C},
                            {1, C}, {1, C}, {C, 4 * C}, {1, 4 * C}, {4 * C, C}, {1, C},
                            {M, C}, {M, 3 * C}, {M, C}, {M, C}, {M, C}, {M, 4 * C}, {M, C}};
    int64_t total = 0;
    for (int i = 0; i < NT; i++) {
        b->rows[i] = shape[i][0];
        b->cols[i] = shape[i][1];
        b->off[i] = total;
        total += (shape[i][0] * shape[i][1] + 63) / 64 * 64;
    }
    tc_dtype dt = c.fp16 ? TC_FP16 : TC_FP32;
    size_t esz = c.fp16 ? 2 : 4;
    b->mem = alloc_memory(b, (size_t)total * esz, gpu);
    if (!b->mem) { fprintf(stderr, "transformer: cannot allocate %lld bytes\n", (long long)total * (long long)esz); return 1; }
    if (tc_tensor_wrap(b->ctx, dt, 1, &total, b->mem, &b->pool)) return fail(b, "wrap");
    for (int i = 0; i < NT; i++)
        if (tc_tensor_view(b->pool, b->off[i], 2, shape[i], &b->t[i])) return fail(b, names[i]);

    /* inputs: x ~ U(-1, 1), weights ~ U(-1, 1) / sqrt(fan_in), norms' w ~ 1, b ~ 0.1 U */
    float *host[NT] = {0};
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < NT; i++) {
        size_t n = (size_t)(b->rows[i] * b->cols[i]);
        host[i] = calloc(n, sizeof(float));
        if (i > BFC2) continue;
        double scale = (i == WQKV || i == WPROJ || i == WFC || i == WFC2) ? 1 / sqrt((double)b->rows[i])
                       : (i == X) ? 1 : 0.1;
        for (size_t j = 0; j < n; j++) {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
            double u = (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
            float v = (float)((i == LN1W || i == LN2W) ? 1 + 0.1 * u : scale * u);
            host[i][j] = c.fp16 ? h2f(f2h(v)) : v;   /* the reference sees what the GPU sees */
        }
        int bad;
        if (c.fp16) {
            uint16_t *h = malloc(n * 2);
            for (size_t j = 0; j < n; j++) h[j] = f2h(host[i][j]);
            bad = tc_tensor_copy_from_host(b->t[i], h, n * 2) != TC_OK;
            free(h);
        } else {
            bad = tc_tensor_copy_from_host(b->t[i], host[i], n * 4) != TC_OK;
        }
        if (bad) return fail(b, names[i]);
    }

    setup_layernorm(b, 0, X, LN1W, LN1B, H1, M, C);
    setup_linear(b, 1, H1, WQKV, BQKV, -1, QKV, M, 3 * C, C, 0, small);
    setup_attention(b, 2, &c, small);
    setup_linear(b, 3, ATT, WPROJ, BPROJ, X, X1, M, C, C, 0, small);
    setup_layernorm(b, 4, X1, LN2W, LN2B, H2, M, C);
    setup_linear(b, 5, H2, WFC, BFC, -1, F, M, 4 * C, C, 1, small);
    setup_linear(b, 6, F, WFC2, BFC2, X1, Y, M, C, 4 * C, 0, small);

    double t0 = now_s();
    if (forward(b) || tc_synchronize(b->ctx)) return fail(b, "forward");
    double first_s = now_s() - t0;
    printf("transformer block: B=%d T=%d C=%d H=%d %s on %s; first forward (compiles) %.3f s\n",
           c.B, c.T, C, c.H, c.fp16 ? "fp16" : "fp32", gpu ? "the GPU" : "the interpreter", first_s);

    int rc = 0;
    float *got = malloc(sizeof(float) * (size_t)M * C), *want = NULL;
    if (c.check) {   /* the reference, then the launch sequence and the replayed graph */
        float *r[NT];
        for (int i = 0; i < NT; i++) r[i] = host[i];
        ref_layernorm(r[X], r[H1], r[LN1W], r[LN1B], M, C);
        ref_linear(r[H1], r[WQKV], r[BQKV], NULL, r[QKV], M, 3 * C, C, 0);
        ref_attention(r[QKV], r[ATT], c.B, c.T, C, c.H);
        ref_linear(r[ATT], r[WPROJ], r[BPROJ], r[X], r[X1], M, C, C, 0);
        ref_layernorm(r[X1], r[H2], r[LN2W], r[LN2B], M, C);
        ref_linear(r[H2], r[WFC], r[BFC], NULL, r[F], M, 4 * C, C, 1);
        ref_linear(r[F], r[WFC2], r[BFC2], r[X1], r[Y], M, C, 4 * C, 0);
        want = r[Y];
        /* fp32: tl.dot takes tf32 inputs by default (as Triton), 10 bits of mantissa */
        double rtol = c.fp16 ? 2e-2 : 2e-3, atol = c.fp16 ? 2e-2 : 2e-3, maxabs;
        if (read_back(b, Y, got, c.fp16)) return fail(b, "read y");
        double w = compare(got, want, (size_t)M * C, rtol, atol, &maxabs);
        printf("check, launch sequence: max |error| %.3g (%s)\n", maxabs, w <= 1 ? "ok" : "FAILED");
        rc |= w > 1;
    }
    GraphRun gr = {NULL, b->stream};
    if (tc_graph_begin(b->ctx, b->stream) || forward(b) ||
        tc_graph_end(b->ctx, b->stream, &gr.g))
        return fail(b, "graph capture");
    if (c.check) {
        size_t n = (size_t)(M * C);
        if (c.fp16) { uint16_t *z = calloc(n, 2); tc_tensor_copy_from_host(b->t[Y], z, n * 2); free(z); }
        else { float *z = calloc(n, 4); tc_tensor_copy_from_host(b->t[Y], z, n * 4); free(z); }
        double maxabs;
        if (tc_graph_launch(gr.g, b->stream) || tc_stream_synchronize(b->ctx, b->stream) ||
            read_back(b, Y, got, c.fp16))
            return fail(b, "graph replay");
        double w = compare(got, want, n, c.fp16 ? 2e-2 : 2e-3, c.fp16 ? 2e-2 : 2e-3, &maxabs);
        printf("check, replayed graph of %d kernels: max |error| %.3g (%s)\n",
               tc_graph_kernel_count(gr.g), maxabs, w <= 1 ? "ok" : "FAILED");
        rc |= w > 1;
    }
    if (c.bench && gpu) {
        tc_bench_result r1, r2;
        void *own = b->stream;
        b->stream = NULL;   /* do_bench times the default stream */
        gr.stream = NULL;
        if (tc_do_bench(b->ctx, forward, b, NULL, &r1) || tc_do_bench(b->ctx, replay, &gr, NULL, &r2))
            return fail(b, "bench");
        b->stream = own;
        printf("tritonc launch sequence: %.4f ms (p20 %.4f, p80 %.4f)\n", r1.median_ms, r1.p20_ms, r1.p80_ms);
        printf("tritonc replayed graph:  %.4f ms (p20 %.4f, p80 %.4f)\n", r2.median_ms, r2.p20_ms, r2.p80_ms);
        printf("tritonc first forward (compile + run): %.3f s\n", first_s);
    }
    tc_graph_free(gr.g);
    for (int i = 0; i < 7; i++) tc_args_free(b->a[i]);
    for (int i = 0; i < NT; i++) { tc_tensor_free(b->t[i]); free(host[i]); }
    tc_tensor_free(b->pool);
    tc_stream_free(b->ctx, b->stream);
    b->free_mem(b->mem);
    free(got);
    tc_module_free(b->mod);
    tc_context_free(b->ctx);
    return rc;
}
