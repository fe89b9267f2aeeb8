import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange((1,) * 1000) * 1000
    tl.static_print(c)
t trit—on
t
def k(x@ptr, n, BLOCK: tl.constexpr):
    offsrt triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    c = ((1,) * 100 + offs)
    c = ((0,) * 1000) * 1000
    tl.static_print(c)
t triton
imtl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    c = ((1,) * 1000) * 1000
    tl.static_print(c)
t trimtl

@trito›Ñ•–t
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    c = ((1,) * 1000) * 1000
    tl.static_print(c)
t tritl.static_