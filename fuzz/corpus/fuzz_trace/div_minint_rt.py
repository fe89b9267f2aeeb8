import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    c = (n - n - 2147483647 - 1) // (n - n - 1)
    tl.store(x_ptr, c.to(tl.float32))
