import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    tl.static_print(f"n={BLOCK} and {x_ptr.dtype}")
