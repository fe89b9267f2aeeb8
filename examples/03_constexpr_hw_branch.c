/* 03_constexpr_hw_branch.c — the chapter's 03_constexpr_hw_branch.py in C: a tl.constexpr
 * flag, computed from a compute capability supplied by hand (90 and 80), selects a branch
 * at trace time; each value is its own compiled specialization.
 *
 *   TRITON_INTERPRET=1 ./build/examples/03_constexpr_hw_branch */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tritonc.h"

static tc_context *ctx;

static int die(const char *what) {
    fprintf(stderr, "%s failed: %s\n", what, tc_errmsg(ctx));
    return tc_errcode(ctx) == TC_ERR_NO_DRIVER ? 3 : 1;
}

static tc_status load_chapter(const char *argv0, tc_module **m) {
    const char *env = getenv("TRITONC_EXAMPLES");
    char path[4096];
    if (env) snprintf(path, sizeof path, "%s/chapter10.py", env);
    else snprintf(path, sizeof path, "examples/chapter10.py");
    tc_status s = tc_module_load_file(ctx, path, m);
    if (s != TC_ERR_NOT_FOUND || env) return s;
    const char *slash = strrchr(argv0, '/');
    if (!slash) slash = argv0;
    snprintf(path, sizeof path, "%.*s/../../examples/chapter10.py", (int)(slash - argv0), argv0);
    s = tc_module_load_file(ctx, path, m);
#ifdef TRITONC_EXAMPLES_DIR /* the source tree the Makefile built from */
    if (s == TC_ERR_NOT_FOUND) s = tc_module_load_file(ctx, TRITONC_EXAMPLES_DIR "/chapter10.py", m);
#endif
    return s;
}

static void print_list(const char *label, const float *v, int n) {
    printf("%s[", label);
    for (int i = 0; i < n; i++) {
        char b[32];
        tc_format_double(v[i], b, sizeof b);
        printf("%s%s", i ? ", " : "", b);
    }
    printf("]\n");
}

/* def launch_for_hardware(x, out, n, BLOCK, compute_capability):
 *     use_fast_path = compute_capability >= 90
 *     hw_aware_kernel[(1,)](x, out, n, USE_FAST_PATH=use_fast_path, BLOCK=BLOCK) */
static tc_status launch_for_hardware(tc_kernel *k, tc_tensor *x, tc_tensor *out, int n,
                                     int block, int compute_capability) {
    int use_fast_path = compute_capability >= 90;
    tc_args *a;
    tc_status s = tc_args_new(k, &a);
    if (s) return s;
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "out_ptr", tc_tens(out));
    tc_args_set(a, "n", tc_int(n));
    tc_args_set(a, "USE_FAST_PATH", tc_bool(use_fast_path));
    tc_args_set(a, "BLOCK", tc_int(block));
    s = tc_launch(k, a, NULL);
    tc_args_free(a);
    return s;
}

int main(int argc, char **argv) {
    (void)argc;
    if (tc_context_new(&ctx)) return 1;
    tc_module *mod;
    tc_kernel *k;
    if (load_chapter(argv[0], &mod)) return die("loading examples/chapter10.py");
    if (tc_module_kernel(mod, "hw_aware_kernel", &k)) return die("kernel lookup");

    printf("=== Section 10.3: a tl.constexpr flag selecting between hardware-specific code paths ===\n");
    const float xs[4] = {1, 2, 3, 4};
    const int64_t shape[1] = {4};
    tc_tensor *x, *out_new, *out_old;
    float r[4];
    if (tc_tensor_from_host(ctx, TC_FP32, 1, shape, xs, &x) ||
        tc_tensor_new(ctx, TC_FP32, 1, shape, &out_new) ||
        tc_tensor_new(ctx, TC_FP32, 1, shape, &out_old))
        return die("tensor");

    if (launch_for_hardware(k, x, out_new, 4, 4, 90)) return die("hw_aware_kernel");
    if (tc_tensor_to_host(out_new, r, sizeof r)) return die("to_host");
    print_list("compute_capability=90 (fast path)   -> ", r, 4);
    tc_launch_report rep;
    tc_last_launch(ctx, &rep, sizeof rep);
    char spec90[512];
    snprintf(spec90, sizeof spec90, "%s", rep.specialization);

    if (launch_for_hardware(k, x, out_old, 4, 4, 80)) return die("hw_aware_kernel");
    if (tc_tensor_to_host(out_old, r, sizeof r)) return die("to_host");
    print_list("compute_capability=80 (fallback path) -> ", r, 4);
    tc_last_launch(ctx, &rep, sizeof rep);

    tc_stats st;
    tc_kernel_stats(k, &st, sizeof st);
    printf("\n%d specializations compiled, one per branch:\n  %s\n  %s\n", st.specializations,
           spec90, rep.specialization);
    tc_tensor_free(x);
    tc_tensor_free(out_new);
    tc_tensor_free(out_old);
    tc_module_free(mod);
    tc_context_free(ctx);
    return 0;
}
