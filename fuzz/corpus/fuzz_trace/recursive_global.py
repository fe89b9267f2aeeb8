import triton
import triton.language as tl
G = tl.constexpr(H)
H = tl.constexpr(G)
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr, G)
