import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.zeros((-16,), tl.float32)
    tl.store(x_ptr, tl.sum(y, 0))
