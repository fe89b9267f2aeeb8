# kern.py — kernels of tests/test_kern.c: the float tl.sum's order, debug mode and its
# overflow checks, jit options, the math library, time limits and progress.
import triton
import triton.language as tl


@triton.jit
def row_mean(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr, tl.sum(x, axis=0) / N)


@triton.jit
def spin_while(out_ptr, n):
    i = 0
    while i < n:
        i = (i + 1) % 7
    tl.store(out_ptr, i)


@triton.jit
def long_range(out_ptr):
    acc = 0
    for i in range(2**31 - 1):
        acc += 1
    tl.store(out_ptr, acc)


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1, mask=m)


@triton.jit(debug=True)
def assert_debug(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x > 0, "x must be positive")


@triton.jit
def assert_plain(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x > 0, "x must be positive")


@triton.jit(debug=True)
def overflow_debug(x_ptr, y_ptr, out_ptr, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    if OP == "add":
        r = x + y
    elif OP == "sub":
        r = x - y
    elif OP == "mul":
        r = x * y
    else:
        r = -x
    tl.store(out_ptr + offs, r)


@triton.jit
def overflow_plain(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * tl.load(y_ptr + offs))


@triton.jit(do_not_specialize=["n"], do_not_specialize_on_alignment=[0], version=2,
            repr=lambda meta: "k", launch_metadata=None, noinline=False)
def no_spec(x_ptr, n, m, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n + m
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1, mask=mask)


@triton.jit
def cas16(p_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_cas(p_ptr + offs, tl.load(out_ptr + offs), tl.load(out_ptr + offs) + 7)
    tl.store(out_ptr + offs, old)
