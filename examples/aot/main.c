/* examples/aot/main.c — add_kernel from examples/chapter10.py, compiled ahead of time by
 * `tritonc compile --emit c` for cuda:80 and cuda:90a (see the Makefile), called from C.
 * No kernel source is read: the code is embedded in the generated add_kernel.c, and the
 * generated loader picks the variant for the GPU at hand (the chapter's hardware branching,
 * done by the tool); the launcher picks the signature from the pointers' alignment.
 *
 * Prints the chapter's result in the form `tritonc run --print` uses, so that the output can
 * be compared with the JIT path:
 *   out_ptr = [11.0, 22.0, 33.0, 44.0]
 * Exit status: 0 success, 1 an error or a wrong result, 3 no active driver. */
#define _POSIX_C_SOURCE 200809L
#include "add_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void print_list(const char *name, const float *v, int n) {
    char b[64];
    printf("%s = [", name);
    for (int i = 0; i < n; i++) {
        tc_format_double(v[i], b, sizeof b);
        printf("%s%s", i ? ", " : "", b);
    }
    printf("]\n");
}

static int fail(tc_context *ctx, const char *what, tc_status s) {
    fprintf(stderr, "add_example: %s failed: %s\n%s\n", what, tc_status_name(s), tc_errmsg(ctx));
    return s == TC_ERR_NO_DRIVER ? 3 : 1;
}

int main(void) {
    double t0 = now_ms();
    tc_context *ctx = NULL;
    if (tc_context_new(&ctx)) return 1;
    int rc = 0;
    tc_tensor *x = NULL, *y = NULL, *out = NULL;
    tc_status s = add_kernel_load(ctx);
    if (s) {
        if (s == TC_ERR_NO_DRIVER) {
            /* the honest refusal: no GPU, and an AOT binary cannot fall back to an interpreter */
            fprintf(stderr, "add_example: error: %s\n", tc_errmsg(ctx));
            tc_context_free(ctx);
            return 3;
        }
        rc = fail(ctx, "add_kernel_load", s);
        goto done;
    }
    tc_target t;
    char tn[64];
    if (tc_current_target(ctx, &t) == TC_OK) tc_target_str(&t, tn, sizeof tn);
    else snprintf(tn, sizeof tn, "?");
    printf("device target %s; loaded: signature 0 (16-byte aligned) from %s, signature 1 (any) "
           "from %s\n", tn, add_kernel_loaded(0) ? add_kernel_loaded(0) : "-",
           add_kernel_loaded(1) ? add_kernel_loaded(1) : "-");

    /* the chapter's launch: add_kernel[(1,)](x, y, out, 4, BLOCK=...) */
    float hx[4] = {1, 2, 3, 4}, hy[4] = {10, 20, 30, 40}, ho[4] = {0};
    int64_t shape4 = 4;
    if ((s = tc_tensor_from_host(ctx, TC_FP32, 1, &shape4, hx, &x)) ||
        (s = tc_tensor_from_host(ctx, TC_FP32, 1, &shape4, hy, &y)) ||
        (s = tc_tensor_new(ctx, TC_FP32, 1, &shape4, &out))) {
        rc = fail(ctx, "allocating tensors", s);
        goto done;
    }
    uint32_t grid[3] = {1, 1, 1};
    int sig = add_kernel_select(tc_tensor_address(x), tc_tensor_address(y), tc_tensor_address(out), 4);
    if ((s = add_kernel_launch(grid, x, y, out, 4))) { rc = fail(ctx, "add_kernel_launch", s); goto done; }
    if ((s = tc_tensor_to_host(out, ho, sizeof ho))) { rc = fail(ctx, "tc_tensor_to_host", s); goto done; }
    double t1 = now_ms();
    print_list("out_ptr", ho, 4);
    printf("signature %d; first result %.1f ms after main() began\n", sig, t1 - t0);
    for (int i = 0; i < 4; i++)
        if (ho[i] != hx[i] + hy[i]) { fprintf(stderr, "add_example: wrong result at %d\n", i); rc = 1; }
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(out);
    x = y = out = NULL;

    /* 1000 elements, then the same through pointers 4 bytes off alignment (signature 1) */
    enum { N = 1000 };
    static float bx[N + 1], by[N + 1], bo[N + 1];
    for (int i = 0; i <= N; i++) { bx[i] = (float)i; by[i] = (float)(2 * i) + 0.5f; }
    int64_t shapeN = N + 1;
    if ((s = tc_tensor_from_host(ctx, TC_FP32, 1, &shapeN, bx, &x)) ||
        (s = tc_tensor_from_host(ctx, TC_FP32, 1, &shapeN, by, &y)) ||
        (s = tc_tensor_new(ctx, TC_FP32, 1, &shapeN, &out))) {
        rc = fail(ctx, "allocating tensors", s);
        goto done;
    }
    for (int off = 0; off <= 1; off++) {
        uint64_t px = tc_tensor_address(x) + 4u * off, py = tc_tensor_address(y) + 4u * off,
                 po = tc_tensor_address(out) + 4u * off;
        int sg = add_kernel_select(px, py, po, N);
        if ((s = add_kernel_launch_ptrs(NULL, grid, px, py, po, N))) {
            rc = fail(ctx, "add_kernel_launch_ptrs", s);
            goto done;
        }
        if ((s = tc_tensor_to_host(out, bo, sizeof bo))) { rc = fail(ctx, "tc_tensor_to_host", s); goto done; }
        int bad = 0;
        for (int i = 0; i < N; i++) bad += bo[i + off] != bx[i + off] + by[i + off];
        printf("%d elements, pointers %s: signature %d, %s\n", N, off ? "4 bytes off alignment" : "aligned",
               sg, bad ? "WRONG" : "ok");
        if (bad || sg != off) rc = 1;
    }
done:
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_tensor_free(out);
    add_kernel_unload();
    tc_context_free(ctx);
    return rc;
}
