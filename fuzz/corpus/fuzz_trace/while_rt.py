import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    i = 0
    while i < n:
        i += 1
    tl.store(x_ptr, i.to(tl.float32))
