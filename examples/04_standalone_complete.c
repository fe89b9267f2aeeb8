/* 04_standalone_complete.c — the chapter's 04_standalone_complete.py in C: the hardware
 * query, add_kernel under three num_warps values, and the constexpr hardware branch, using
 * only tritonc.h and the kernels in examples/chapter10.py.
 *
 *   make example        (runs it with TRITON_INTERPRET=1)
 *
 * With no GPU and TRITON_INTERPRET=1 it prints the chapter's expected output line for line.
 * On a GPU machine the hardware line shows the real target, and without TRITON_INTERPRET=1
 * the kernels run on the GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tritonc.h"

static tc_context *ctx;

static int die(const char *what) {
    fprintf(stderr, "%s failed: %s\n", what, tc_errmsg(ctx));
    return tc_errcode(ctx) == TC_ERR_NO_DRIVER ? 3 : 1;
}

/* examples/chapter10.py, from the repository root or next to the build directory. */
static tc_status load_chapter(const char *argv0, tc_module **m) {
    const char *env = getenv("TRITONC_EXAMPLES");
    char path[4096];
    if (env) snprintf(path, sizeof path, "%s/chapter10.py", env);
    else snprintf(path, sizeof path, "examples/chapter10.py");
    tc_status s = tc_module_load_file(ctx, path, m);
    if (s != TC_ERR_NOT_FOUND || env) return s;
    const char *slash = strrchr(argv0, '/');   /* build/examples/04_... -> ../../examples */
    if (!slash) slash = argv0;
    snprintf(path, sizeof path, "%.*s/../../examples/chapter10.py", (int)(slash - argv0), argv0);
    s = tc_module_load_file(ctx, path, m);
#ifdef TRITONC_EXAMPLES_DIR /* the source tree the Makefile built from */
    if (s == TC_ERR_NOT_FOUND) s = tc_module_load_file(ctx, TRITONC_EXAMPLES_DIR "/chapter10.py", m);
#endif
    return s;
}

/* Prints "label -> [a, b, c, d]" as Python prints out.tolist(). */
static void print_list(const char *label, const float *v, int n) {
    printf("%s -> [", label);
    for (int i = 0; i < n; i++) {
        char b[32];
        tc_format_double(v[i], b, sizeof b);
        printf("%s%s", i ? ", " : "", b);
    }
    printf("]\n");
}

static int add(tc_kernel *k, tc_tensor *x, tc_tensor *y, tc_tensor *out, int num_warps) {
    tc_args *a;
    if (tc_args_new(k, &a)) return 1;
    tc_args_set_at(a, 0, tc_tens(x));
    tc_args_set_at(a, 1, tc_tens(y));
    tc_args_set_at(a, 2, tc_tens(out));
    tc_args_set_at(a, 3, tc_int(4));
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_launch_opts o = tc_launch_defaults();  /* grid (1,) */
    o.num_warps = num_warps;
    tc_status s = tc_launch(k, a, &o);
    tc_args_free(a);
    return s != TC_OK;
}

static int launch_for_hardware(tc_kernel *k, tc_tensor *x, tc_tensor *out, int n, int block,
                               int compute_capability) {
    int use_fast_path = compute_capability >= 90;
    tc_args *a;
    if (tc_args_new(k, &a)) return 1;
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "out_ptr", tc_tens(out));
    tc_args_set(a, "n", tc_int(n));
    tc_args_set(a, "USE_FAST_PATH", tc_bool(use_fast_path));
    tc_args_set(a, "BLOCK", tc_int(block));
    tc_status s = tc_launch(k, a, NULL);
    tc_args_free(a);
    return s != TC_OK;
}

int main(int argc, char **argv) {
    (void)argc;
    if (tc_context_new(&ctx)) return 1;

    printf("=== Section 10.1: hardware queries without a GPU ===\n");
    tc_target t;
    if (tc_current_target(ctx, &t) == TC_OK) {
        char s[128];
        tc_target_triton_str(&t, s, sizeof s);
        printf("hardware query -> %s\n", s);
    } else {
        const char *m = tc_errmsg(ctx);
        printf("hardware query -> RuntimeError: %.*s\n", (int)strcspn(m, "\n"), m);
    }

    tc_module *mod;
    tc_kernel *add_kernel, *hw_aware_kernel;
    if (load_chapter(argv[0], &mod)) return die("loading examples/chapter10.py");
    if (tc_module_kernel(mod, "add_kernel", &add_kernel) ||
        tc_module_kernel(mod, "hw_aware_kernel", &hw_aware_kernel))
        return die("kernel lookup");

    printf("\n=== Section 10.2: num_warps / num_stages ===\n");
    const float xs[4] = {1.0f, 2.0f, 3.0f, 4.0f}, ys[4] = {10.0f, 20.0f, 30.0f, 40.0f};
    const int64_t shape[1] = {4};
    tc_tensor *x, *y;
    if (tc_tensor_from_host(ctx, TC_FP32, 1, shape, xs, &x) ||
        tc_tensor_from_host(ctx, TC_FP32, 1, shape, ys, &y))
        return die("tensor");
    const int nws[3] = {1, 4, 8};
    for (int i = 0; i < 3; i++) {
        tc_tensor *out;
        float r[4];
        if (tc_tensor_new(ctx, TC_FP32, 1, shape, &out)) return die("tensor");
        if (add(add_kernel, x, y, out, nws[i])) return die("add_kernel");
        if (tc_tensor_to_host(out, r, sizeof r)) return die("to_host");
        char label[32];
        snprintf(label, sizeof label, "num_warps=%d", nws[i]);
        print_list(label, r, 4);
        tc_tensor_free(out);
    }

    printf("\n=== Section 10.3: constexpr hardware branching ===\n");
    const int ccs[2] = {90, 80};
    for (int i = 0; i < 2; i++) {
        tc_tensor *out;
        float r[4];
        if (tc_tensor_new(ctx, TC_FP32, 1, shape, &out)) return die("tensor");
        if (launch_for_hardware(hw_aware_kernel, x, out, 4, 4, ccs[i])) return die("hw_aware_kernel");
        if (tc_tensor_to_host(out, r, sizeof r)) return die("to_host");
        char label[32];
        snprintf(label, sizeof label, "compute_capability=%d", ccs[i]);
        print_list(label, r, 4);
        tc_tensor_free(out);
    }

    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_module_free(mod);
    tc_context_free(ctx);
    return 0;
}
