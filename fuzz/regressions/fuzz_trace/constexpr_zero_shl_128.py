import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    c = 0 << 128
    tl.store(x_ptr, c)
