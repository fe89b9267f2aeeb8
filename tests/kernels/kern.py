# kern.py — kernels of tests/test_kern.c: the float tl.sum's order, debug mode and its
# overflow checks, jit options, the math library, time limits and progress.
import triton
import triton.language as tl


@triton.jit
def row_mean(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr, tl.sum(x, axis=0) / N)
