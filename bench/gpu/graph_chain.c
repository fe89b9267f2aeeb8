/* bench/gpu/graph_chain.c — issue 16, item 3: wall time per kernel of a 100-kernel chain,
 * launched plainly (tc_launch x 100, then a synchronize) and replayed as a CUDA graph
 * (tc_graph_launch, then a synchronize), with the kernel of bench/gpu/graph_chain.py (x += 1
 * on 128 floats, one program). Best of 200 repetitions. bench/gpu/graph_chain.sh builds and
 * runs it beside Triton's and PyTorch's numbers from graph_chain.py. */
#define _POSIX_C_SOURCE 200809L
#include <tritonc.h>

#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CHAIN 100
#define REPS 200

int main(int argc, char **argv) {
    const char *file = argc > 1 ? argv[1] : "bench/gpu/graph_chain.py";
    tc_context *ctx;
    tc_module *m;
    tc_kernel *k;
    tc_args *a;
    tc_tensor *x;
    void *s;
    int64_t n = 128;
    tc_context_new(&ctx);
    if (tc_module_load_file(ctx, file, &m) || tc_module_kernel(m, "chain_kernel", &k) ||
        tc_tensor_new(ctx, TC_FP32, 1, &n, &x) || tc_stream_new(ctx, &s) || tc_args_new(k, &a)) {
        fprintf(stderr, "graph_chain: %s\n", tc_errmsg(ctx));
        return 1;
    }
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "n", tc_int(128));
    tc_args_set(a, "BLOCK", tc_int(128));
    tc_launch_opts o = tc_launch_defaults();
    o.stream = s;
    for (int i = 0; i < 3 * CHAIN; i++)
        if (tc_launch(k, a, &o)) { fprintf(stderr, "graph_chain: %s\n", tc_errmsg(ctx)); return 1; }
    tc_stream_synchronize(ctx, s);
    double plain = 1e30, graph = 1e30;
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        for (int i = 0; i < CHAIN; i++) tc_launch(k, a, &o);
        tc_stream_synchronize(ctx, s);
        double t = now() - t0;
        if (t < plain) plain = t;
    }
    tc_graph *g;
    if (tc_graph_begin(ctx, s)) { fprintf(stderr, "graph_chain: %s\n", tc_errmsg(ctx)); return 1; }
    for (int i = 0; i < CHAIN; i++) tc_launch(k, a, &o);
    if (tc_graph_end(ctx, s, &g)) { fprintf(stderr, "graph_chain: %s\n", tc_errmsg(ctx)); return 1; }
    tc_graph_launch(g, s);
    tc_stream_synchronize(ctx, s);
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        tc_graph_launch(g, s);
        tc_stream_synchronize(ctx, s);
        double t = now() - t0;
        if (t < graph) graph = t;
    }
    float v[128];
    tc_tensor_to_host(x, v, sizeof v);
    /* 3*CHAIN + REPS*CHAIN plain launches, then 1 + REPS replays of CHAIN kernels */
    double want = 3.0 * CHAIN + (double)REPS * CHAIN + (1.0 + REPS) * CHAIN;
    printf("tritonc  plain %7.3f us/kernel   graph replay %7.3f us/kernel   (%d kernels captured; x = %s)\n",
           plain / CHAIN * 1e6, graph / CHAIN * 1e6, tc_graph_kernel_count(g),
           v[0] == (float)want && v[127] == (float)want ? "right" : "WRONG");
    tc_graph_free(g);
    tc_args_free(a);
    tc_tensor_free(x);
    tc_stream_free(ctx, s);
    tc_module_free(m);
    tc_context_free(ctx);
    return 0;
}
