/* fuzz_trace.c — libFuzzer target: (mutated) kernel files, parsed, each @jit function
 * traced with fixed specializations (constexprs 16 or 4, pointers *fp32 or *fp16, other
 * runtime parameters i32), the IR printed, and — when the IR is known to finish quickly (no
 * while loops, bounded for loops) — run on the interpreter over a 1..2 x 1..2 grid with
 * 4096-element guard tensors. A first byte >= 0x80 is a salt that picks the variants.
 * FUZZ_NO_INTERP=1 skips the interpreter. */
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
    static int interp = -1;
    if (interp < 0) {
        const char *s = getenv("FUZZ_NO_INTERP");
        interp = !(s && *s == '1');
    }
    const char *why = fz_trace_one(data, n, interp);
    if (why) {
        fprintf(stderr, "fuzz_trace: %s\n", why);
        abort();
    }
    return 0;
}
