# The kernel `tritonc run` is given when tests/test_fuzz_regress.c replays the inputs of
# fuzz/regressions/fuzz_args/ through the command line. n=0 masks every access off.
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, K: tl.constexpr):
    offs = tl.arange(0, 16)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
