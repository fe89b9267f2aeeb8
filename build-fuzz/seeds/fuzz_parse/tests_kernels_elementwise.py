# where, maximum/minimum (NaN handling), abs, math functions.
import triton
import triton.language as tl


@triton.jit
def where_kernel(x_ptr, y_ptr, out_ptr, out2_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.where(x > y, x, y * 2.0), mask=mask)
    tl.store(out2_ptr + offs, tl.where(x < 0, 0.0, x), mask=mask)


@triton.jit
def minmax_kernel(x_ptr, y_ptr, max_ptr, min_ptr, maxall_ptr, minall_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(max_ptr + offs, tl.maximum(x, y))
    tl.store(min_ptr + offs, tl.minimum(x, y))
    tl.store(maxall_ptr + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(minall_ptr + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL))


@triton.jit
def minmax_int_kernel(x_ptr, y_ptr, max_ptr, min_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(max_ptr + offs, tl.maximum(x, y))
    tl.store(min_ptr + offs, tl.minimum(x, y))


@triton.jit
def abs_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.abs(tl.load(x_ptr + offs)))


@triton.jit
def math_kernel(x_ptr, out_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    if FN == "exp":
        y = tl.exp(x)
    elif FN == "exp2":
        y = tl.exp2(x)
    elif FN == "log":
        y = tl.log(x)
    elif FN == "log2":
        y = tl.log2(x)
    elif FN == "sqrt":
        y = tl.sqrt(x)
    elif FN == "rsqrt":
        y = tl.rsqrt(x)
    elif FN == "sin":
        y = tl.sin(x)
    elif FN == "cos":
        y = tl.cos(x)
    elif FN == "floor":
        y = tl.floor(x)
    elif FN == "ceil":
        y = tl.ceil(x)
    elif FN == "sigmoid":
        y = tl.sigmoid(x)
    elif FN == "exp_method":
        y = x.exp()
    elif FN == "fdiv":
        y = tl.fdiv(x, x + 3.0)
    else:
        y = x
    tl.store(out_ptr + offs, y, mask=mask)
