# Integer semantics: weak literals, C-like // and %, shifts, promotion, comparisons.
import triton
import triton.language as tl


@triton.jit
def int8_weak_kernel(x_ptr, out_ptr, out2_ptr, out3_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = x + 100
    tl.static_assert(y.dtype == tl.int8)
    tl.store(out_ptr + offs, y)
    z = x * 3 - 7
    tl.static_assert(z.dtype == tl.int8)
    tl.store(out2_ptr + offs, z)
    w = x + x
    tl.static_assert(w.dtype == tl.int8)
    tl.store(out3_ptr + offs, w)


@triton.jit
def divmod_kernel(x_ptr, y_ptr, q_ptr, r_ptr, fq_ptr, q2_ptr, r2_ptr, q3_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(q_ptr + offs, x // y)
    tl.store(r_ptr + offs, x % y)
    fq = x / y
    tl.static_assert(fq.dtype == tl.float32)
    tl.store(fq_ptr + offs, fq)
    tl.store(q2_ptr + offs, x // 4)
    tl.store(r2_ptr + offs, x % 4)
    tl.store(q3_ptr + offs, x // -3)


@triton.jit
def constexpr_floor_kernel(out_ptr, a, b):
    # constexpr arithmetic is Python's (floor), run-time arithmetic is C's (truncation)
    tl.store(out_ptr, -7 // 2)
    tl.store(out_ptr + 1, -7 % 2)
    tl.store(out_ptr + 2, a // b)
    tl.store(out_ptr + 3, a % b)
    C: tl.constexpr = 7 // -2
    tl.store(out_ptr + 4, C)


@triton.jit
def shift_kernel(x_ptr, s_ptr, u_ptr, shl_ptr, shr_ptr, ushr_ptr, bits_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s = tl.load(s_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.store(shl_ptr + offs, x << s)
    tl.store(shr_ptr + offs, x >> s)
    r = u >> s
    tl.static_assert(r.dtype == tl.uint32)
    tl.store(ushr_ptr + offs, r)
    tl.store(bits_ptr + offs * 5 + 0, x & 0xFF)
    tl.store(bits_ptr + offs * 5 + 1, x | s)
    tl.store(bits_ptr + offs * 5 + 2, x ^ s)
    tl.store(bits_ptr + offs * 5 + 3, ~x)
    tl.store(bits_ptr + offs * 5 + 4, x >> 3)


@triton.jit
def mixed_int_kernel(a_ptr, b_ptr, c_ptr, d_ptr, out1_ptr, out2_ptr, out3_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)  # int8
    b = tl.load(b_ptr + offs)  # uint8
    c = tl.load(c_ptr + offs)  # int32
    d = tl.load(d_ptr + offs)  # uint32
    r1 = a + b
    tl.static_assert(r1.dtype == tl.uint8)
    tl.store(out1_ptr + offs, r1)
    r2 = c + d
    tl.static_assert(r2.dtype == tl.uint32)
    tl.store(out2_ptr + offs, r2)
    r3 = a + c
    tl.static_assert(r3.dtype == tl.int32)
    tl.store(out3_ptr + offs, r3)


@triton.jit
def compare_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    m = x < y
    tl.static_assert(m.dtype == tl.int1)
    base = out_ptr + offs * 7
    tl.store(base + 0, m)
    tl.store(base + 1, x <= y)
    tl.store(base + 2, x > y)
    tl.store(base + 3, x >= y)
    tl.store(base + 4, x == y)
    tl.store(base + 5, x != y)
    tl.store(base + 6, (x > 0) & (y > 0))


@triton.jit
def compare_literal_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)  # int8
    # the literal keeps its own type in a comparison: int8 < int32 300
    tl.store(out_ptr + offs, x < 300)
    tl.store(out_ptr + BLOCK + offs, x > -1)
