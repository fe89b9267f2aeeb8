# kern.py — kernels of tests/test_kern.c: the float tl.sum's order, debug mode and its
# overflow checks, jit options, the math library, time limits and progress.
import triton
import triton.language as tl


@triton.jit
def row_mean(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr, tl.sum(x, axis=0) / N)


@triton.jit
def spin_while(out_ptr, n):
    i = 0
    while i < n:
        i = (i + 1) % 7
    tl.store(out_ptr, i)


@triton.jit
def long_range(out_ptr):
    acc = 0
    for i in range(2**31 - 1):
        acc += 1
    tl.store(out_ptr, acc)


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1, mask=m)
