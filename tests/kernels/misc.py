# Miscellaneous semantics: fp64, float %, unsigned // and %, int64 wrap-around, logical
# and/or on masks, builtin max/min, unary minus, scalar where, hints, tl.full with a run-time
# value, zeros_like, tensor methods, masked scalar loads.
import triton
import triton.language as tl


@triton.jit
def fp64_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs * 3, x * y + 1.0)
    tl.store(out_ptr + offs * 3 + 1, tl.exp(x))
    tl.store(out_ptr + offs * 3 + 2, x / y)


@triton.jit
def fmod_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, x % y)


@triton.jit
def unsigned_divmod_kernel(x_ptr, y_ptr, q_ptr, r_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(q_ptr + offs, x // y)
    tl.store(r_ptr + offs, x % y)


@triton.jit
def int64_wrap_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x * 6364136223846793005 + 1442695040888963407)


@triton.jit
def logic_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    a = (x > 0) and (y > 0)
    o = (x > 0) or (y > 0)
    tl.store(out_ptr + offs * 6, a)
    tl.store(out_ptr + offs * 6 + 1, o)
    tl.store(out_ptr + offs * 6 + 2, max(x, y))
    tl.store(out_ptr + offs * 6 + 3, min(x, y))
    tl.store(out_ptr + offs * 6 + 4, -x)
    tl.store(out_ptr + offs * 6 + 5, (x > y) ^ (y > 0))


@triton.jit
def scalar_where_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + pid * BLOCK + offs, tl.where(pid == 0, x, y))


@triton.jit
def full_runtime_kernel(v_ptr, out_ptr, BLOCK: tl.constexpr):
    v = tl.load(v_ptr)
    offs = tl.arange(0, BLOCK)
    f = tl.full((BLOCK,), v, tl.int32)
    z = tl.zeros_like(f)
    tl.store(out_ptr + offs, f + z + offs)
    tl.store(out_ptr + BLOCK + offs, tl.full((BLOCK,), 2.75, tl.float32).to(tl.int32) + offs.sum(axis=0))


@triton.jit
def scalar_load_kernel(x_ptr, out_ptr, n):
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid, mask=pid < n, other=-1)
    tl.store(out_ptr + pid, v)
