# 8-bit floats: casts with Triton's rounding, loads and stores of fp8 pointers, arithmetic
# and promotion, and tl.dot on fp8 operands.
import triton
import triton.language as tl


@triton.jit
def fp8_roundtrip_kernel(x_ptr, q_ptr, out_ptr, n, BLOCK: tl.constexpr, DT: tl.constexpr,
                         RTZ: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if RTZ:
        q = x.to(DT, fp_downcast_rounding="rtz")
    else:
        q = x.to(DT)
    tl.static_assert(q.dtype.is_fp8())
    tl.store(q_ptr + offs, q, mask=m)
    tl.store(out_ptr + offs, q.to(tl.float32), mask=m)


@triton.jit
def fp8_from_f16_kernel(x_ptr, q_ptr, BLOCK: tl.constexpr, DT: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(x_ptr + offs).to(tl.float16)
    tl.store(q_ptr + offs, h.to(DT))


@triton.jit
def fp8_arith_kernel(a_ptr, b_ptr, c_ptr, s_ptr, m_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.static_assert(a.dtype == tl.float8e5)
    c = a * b + a
    tl.static_assert(c.dtype == tl.float8e5)
    tl.store(c_ptr + offs, c)
    # different fp8 types promote to fp16
    e4 = b.to(tl.float32).to(tl.float8e4nv)
    s = a + e4
    tl.static_assert(s.dtype == tl.float16)
    tl.store(s_ptr + offs, s)
    tl.store(m_ptr + offs, tl.where(a < b, a, b))


@triton.jit
def fp8_bad_cast_kernel(x_ptr, y_ptr, WHAT: tl.constexpr):
    x = tl.load(x_ptr)
    if WHAT == 0:
        tl.store(y_ptr, x.to(tl.int32).to(tl.float8e5))
    elif WHAT == 1:
        tl.store(y_ptr, x.to(tl.float8e4b15).to(tl.bfloat16).to(tl.float32))
    elif WHAT == 2:
        tl.store(y_ptr, x.to(tl.float8e4nv, fp_downcast_rounding="rtz").to(tl.float32))
    elif WHAT == 3:
        tl.store(y_ptr, x.to(tl.float8e4b8).to(tl.float32))
    elif WHAT == 4:
        tl.store(y_ptr, x.to(tl.float8e5) + x.to(tl.int32))
    else:
        tl.store(y_ptr, x.to(tl.float64).to(tl.float8e5).to(tl.float32))


@triton.jit
def fp8_reduce_kernel(x_ptr, y_ptr, i_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o)
    s = tl.sum(x, axis=0)
    tl.static_assert(s.dtype == tl.float8e5)
    tl.store(y_ptr, s)
    tl.store(y_ptr + 1, tl.max(x, axis=0))
    tl.store(y_ptr + 2, tl.min(x, axis=0))
    tl.store(i_ptr, tl.argmax(x, axis=0))
