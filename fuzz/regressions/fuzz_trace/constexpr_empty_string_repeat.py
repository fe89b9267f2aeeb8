import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    c: tl.constexpr = "" * 1000000000
    tl.static_print(c)
    tl.static_print(("x" * 600000) + ("y" * 600000))
