/* 02_warps_and_stages.c — the chapter's 02_warps_and_stages.py in C: add_kernel launched
 * with num_warps 1, 4 and 8, then num_stages=3. Under the interpreter the results are
 * identical and the launch report says plainly that num_warps/num_stages changed nothing;
 * on a GPU each num_warps is a separate compiled specialization.
 *
 *   TRITON_INTERPRET=1 ./build/examples/02_warps_and_stages */
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

/* add_kernel[(1,)](x, y, out, 4, BLOCK=4, num_warps=.., num_stages=..) */
static tc_status add(tc_kernel *k, tc_tensor *x, tc_tensor *y, tc_tensor *out, int nw, int ns) {
    tc_args *a;
    tc_status s = tc_args_new(k, &a);
    if (s) return s;
    tc_args_set_at(a, 0, tc_tens(x));
    tc_args_set_at(a, 1, tc_tens(y));
    tc_args_set_at(a, 2, tc_tens(out));
    tc_args_set_at(a, 3, tc_int(4));
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_launch_opts o = tc_launch_defaults();
    if (nw) o.num_warps = nw;
    if (ns) o.num_stages = ns;
    s = tc_launch(k, a, &o);
    tc_args_free(a);
    return s;
}

int main(int argc, char **argv) {
    (void)argc;
    if (tc_context_new(&ctx)) return 1;
    tc_module *mod;
    tc_kernel *k;
    if (load_chapter(argv[0], &mod)) return die("loading examples/chapter10.py");
    if (tc_module_kernel(mod, "add_kernel", &k)) return die("kernel lookup");

    tc_backend backend = TC_BACKEND_AUTO;
    tc_context_backend(ctx, &backend);
    printf("=== Section 10.2: num_warps / num_stages %s ===\n",
           backend == TC_BACKEND_CUDA ? "on the GPU" : "under the interpreter");
    const float xs[4] = {1, 2, 3, 4}, ys[4] = {10, 20, 30, 40};
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
        if (add(k, x, y, out, nws[i], 0)) return die("add_kernel");
        if (tc_tensor_to_host(out, r, sizeof r)) return die("to_host");
        char label[32];
        snprintf(label, sizeof label, "num_warps=%d -> ", nws[i]);
        print_list(label, r, 4);
        tc_tensor_free(out);
    }
    tc_tensor *out;
    float r[4];
    if (tc_tensor_new(ctx, TC_FP32, 1, shape, &out)) return die("tensor");
    if (add(k, x, y, out, 0, 3)) {
        const char *m = tc_errmsg(ctx);
        printf("num_stages=3 -> RuntimeError: %.*s\n", (int)strcspn(m, "\n"), m);
    } else {
        if (tc_tensor_to_host(out, r, sizeof r)) return die("to_host");
        print_list("num_stages=3 accepted -> ", r, 4);
    }
    tc_tensor_free(out);

    /* What the launches did: the honest part the Python version cannot show. */
    tc_launch_report rep;
    tc_last_launch(ctx, &rep, sizeof rep);
    tc_stats st;
    tc_kernel_stats(k, &st, sizeof st);
    printf("\nlast launch: %s, specialization (%s), num_warps=%d, num_stages=%d\n",
           rep.backend == TC_BACKEND_CUDA ? "GPU" : "interpreter", rep.specialization,
           rep.num_warps, rep.num_stages);
    if (rep.note[0]) printf("note: %s\n", rep.note);
    printf("add_kernel: %d launches, %d specialization%s compiled, %d cache hit%s\n", st.launches,
           st.specializations, st.specializations == 1 ? "" : "s", st.hits, st.hits == 1 ? "" : "s");

    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_module_free(mod);
    tc_context_free(ctx);
    return 0;
}
