/* fuzz_trace.c — libFuzzer target: (mutated) kernel files, parsed, each @jit function
 * traced with fixed specializations (constexprs 16 or 4, pointers *fp32 or *fp16, other
 * runtime parameters i32), the IR printed, and — when the IR is known to finish quickly (no
 * while loops, bounded for loops) — run on the interpreter over a 1..2 x 1..2 grid with
 * 4096-element guard tensors, then lowered to PTX (gpu_compile, sm_90a or sm_80, 4 or 1
 * warps; no device is needed). A first byte >= 0x80 is a salt that picks the variants.
 * FUZZ_NO_INTERP=1 skips the interpreter, FUZZ_NO_GPU=1 the PTX lowering. */
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
    static int flags = -1;
    if (flags < 0) {
        const char *s = getenv("FUZZ_NO_INTERP"), *g = getenv("FUZZ_NO_GPU");
        flags = (s && *s == '1' ? 0 : FZ_INTERP) | (g && *g == '1' ? 0 : FZ_GPU);
    }
    const char *why = fz_trace_one(data, n, flags);
    if (why) {
        fprintf(stderr, "fuzz_trace: %s\n", why);
        abort();
    }
    return 0;
}
