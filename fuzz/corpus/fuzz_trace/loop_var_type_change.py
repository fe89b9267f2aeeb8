import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    acc = 0
    for i in range(n):
        acc = acc + 1.5
    tl.store(x_ptr, acc)
