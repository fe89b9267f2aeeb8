import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    c = tl.full((16,), 2147483647, tl.int32) + 1
    tl.store(x_ptr + offs, c.to(tl.float32))
