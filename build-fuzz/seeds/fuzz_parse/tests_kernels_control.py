# Control flow: runtime if/elif/else, ternaries, while, jit helpers, static_range, tuples,
# constexpr globals, cdiv / next_power_of_2, early return, loops with run-time bounds.
import triton
import triton.language as tl

BLOCK_G = tl.constexpr(8)
SCALE_G = tl.constexpr(3)


@triton.jit
def branch_kernel(x_ptr, out_ptr):
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    if v > 10:
        r = v * 2
    elif v < 0:
        r = -v
    else:
        r = v + 100
    tl.store(out_ptr + pid, r)


@triton.jit
def ternary_kernel(x_ptr, out_ptr):
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    r = v * 3 if v % 2 == 0 else v - 1
    tl.store(out_ptr + pid, r)


@triton.jit
def collatz_kernel(x_ptr, out_ptr):
    pid = tl.program_id(0)
    n = tl.load(x_ptr + pid)
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    tl.store(out_ptr + pid, steps)


@triton.jit
def _minmax_scaled(x, SCALE: tl.constexpr):
    return tl.min(x, axis=0) * SCALE, tl.max(x, axis=0) * SCALE


@triton.jit
def _add_sub(a, b):
    return a + b, a - b


@triton.jit
def _twice(a, b):
    s, d = _add_sub(a, b)
    return s * 2, d * 2


@triton.jit
def helper_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    lo, hi = _minmax_scaled(x, 3)
    tl.store(out_ptr, lo)
    tl.store(out_ptr + 1, hi)
    t = _minmax_scaled(x, SCALE=2)
    tl.store(out_ptr + 2, t[0])
    tl.store(out_ptr + 3, t[1])
    s2, d2 = _twice(lo, hi)
    tl.store(out_ptr + 4, s2)
    tl.store(out_ptr + 5, d2)


@triton.jit
def static_range_kernel(x_ptr, out_ptr, out2_ptr, BLOCK: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for i in tl.static_range(N):
        tl.static_assert(i < N)
        acc += tl.load(x_ptr + i * BLOCK + offs) * (i + 1)
    tl.store(out_ptr + offs, acc)
    acc2 = 0
    for j in tl.static_range(1, 8, 3):
        acc2 += j * 10
    tl.store(out2_ptr, acc2)


@triton.jit
def tuple_kernel(x_ptr, out_ptr):
    a, b = tl.load(x_ptr), tl.load(x_ptr + 1)
    t = (a + b, a - b, a * b)
    s, d, p = t
    tl.store(out_ptr, s)
    tl.store(out_ptr + 1, d)
    tl.store(out_ptr + 2, p)
    b, a = a, b
    tl.store(out_ptr + 3, a - b)
    tl.store(out_ptr + 4, t[2] + len(t))


@triton.jit
def globals_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, BLOCK_G)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * SCALE_G)


@triton.jit
def cdiv_kernel(out_ptr, n, N: tl.constexpr):
    P2: tl.constexpr = triton.next_power_of_2(N)
    offs = tl.arange(0, P2)
    tl.store(out_ptr + offs, tl.full((P2,), P2, tl.int32), mask=offs < N)
    tl.store(out_ptr + N, tl.cdiv(n, 16))
    tl.store(out_ptr + N + 1, tl.cdiv(N, 4))


@triton.jit
def early_return_kernel(x_ptr, out_ptr, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    x = tl.load(x_ptr + pid)
    if x < 0:
        tl.store(out_ptr + pid, -1)
        return
    tl.store(out_ptr + pid, x * 2)


@triton.jit
def loop_arg_kernel(out_ptr, n, start, step):
    acc = 0
    for i in range(n):
        acc += i
    tl.store(out_ptr, acc)
    acc2 = 0
    for i in range(start, n, step):
        acc2 += i * i
    tl.store(out_ptr + 1, acc2)
    cnt = 0
    for i in tl.range(0, n):
        for j in range(i, n):
            cnt += 1
    tl.store(out_ptr + 2, cnt)
    acc3 = 0
    for i in range(10, 0, -3):
        acc3 += i
    tl.store(out_ptr + 3, acc3)
    acc4 = 0.0
    for i in range(0, n, 2):
        acc4 += 0.5
    tl.store(out_ptr + 4, acc4.to(tl.int32))


@triton.jit
def dead_branch_kernel(x_ptr, out_ptr, FLAG: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if FLAG:
        y = tl.exp(x.to(tl.float16))
    else:
        y = x * 2.0
    tl.store(out_ptr + offs, y)
