/* api.c — the top of the library: the public calls that span layers. A launch goes to the
 * autotuner (tune/) when the kernel has @triton.autotune or @triton.heuristics, else
 * straight to the JIT (runtime/); freeing a context or a module frees what the autotuner
 * keeps on it first. Every other public call lives in the layer that owns it:
 * base/context.c (contexts, errors, values), driver/device.c (driver, target, devices,
 * backend), runtime/ (modules, kernels, tensors, arguments, the disk cache), aot/
 * (ahead-of-time compilation) and tune/ (benchmarking and autotuning). */
#include "runtime/jit.h"
#include "tune/tune.h"

tc_status tc_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts) {
    if (!k) return TC_ERR_ARG;
    tc_launch_opts o;
    tc_status rc = jit_opts(k->m->ctx, opts, &o);
    if (rc) return rc;
    if (tune_wanted(k)) return tune_launch(k, a, &o);
    return jit_launch(k, a, &o);
}

void tc_context_free(tc_context *ctx) {
    if (!ctx) return;
    tune_context_free(ctx);
    ctx_free(ctx);
}

void tc_module_free(tc_module *m) {
    if (!m) return;
    for (int i = 0; i < m->nkernels; i++)
        if (m->kernels[i]) tune_kernel_free(m->kernels[i]);
    module_handle_free(m);
}
