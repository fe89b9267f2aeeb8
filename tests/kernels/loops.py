# Loops and calls ported from test_core.py: for_iv (int64 and negative constexpr steps),
# nested_while, temp_var_in_loop, constexpr_if_return, default arguments, static_print.
import triton
import triton.language as tl


@triton.jit
def for_iv_kernel(out_ptr, LO: tl.constexpr, HI: tl.constexpr, STEP: tl.constexpr):
    acc = 0
    acc = acc.to(tl.int64)
    for i in range(LO, HI, STEP):
        acc += i
    tl.store(out_ptr, acc)


@triton.jit
def nested_while_kernel(data, countPtr):
    for i in range(10):
        count = tl.load(countPtr)
        while count > 0:
            tl.store(data, tl.load(data) + 1.0)
            count = count - 2


@triton.jit
def temp_var_in_loop_kernel(Z, N: tl.constexpr, BLOCK: tl.constexpr):
    acc = tl.full((BLOCK, ), 0, dtype=tl.int32)
    for i in range(N):
        if i == 0:
            temp = tl.full((BLOCK, ), 2, dtype=tl.int32)
            acc = temp
        else:
            acc += tl.full((BLOCK, ), 1, dtype=tl.int32)
        # re-use the temp variable and make sure to check that it isn't creating incorrect IR.
        temp = tl.full((BLOCK, ), 1, dtype=tl.int32)
        acc += temp
    z = Z + tl.arange(0, BLOCK)
    tl.store(z, acc)


@triton.jit
def _pick(x, AS_FLOAT: tl.constexpr):
    if AS_FLOAT:
        return x.to(tl.float32) * 0.5
    return x * 2


@triton.jit
def _scale(x, s: tl.constexpr = 3, bias=1):
    return x * s + bias


@triton.jit
def calls_kernel(x_ptr, f_ptr, i_ptr, d_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    f = _pick(x, True)
    tl.static_assert(f.dtype == tl.float32)
    i = _pick(x, False)
    tl.static_assert(i.dtype == tl.int32)
    tl.store(f_ptr + offs, f)
    tl.store(i_ptr + offs, i)
    tl.store(d_ptr + offs, _scale(x))
    tl.store(d_ptr + BLOCK + offs, _scale(x, 5))
    tl.store(d_ptr + 2 * BLOCK + offs, _scale(x, bias=-7, s=2))


@triton.jit
def static_print_kernel(out_ptr, BLOCK: tl.constexpr):
    tl.static_print("static BLOCK is", BLOCK)
    pid = tl.program_id(0)
    print("pid", pid)
    tl.store(out_ptr + pid, pid)


@triton.jit
def masked_other_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1.5)
    tl.store(out_ptr + offs, x)
    rows = tl.arange(0, 4)
    m2 = (rows[:, None] < 2) & (offs[None, :] < n)
    y = tl.load(x_ptr + offs[None, :] + rows[:, None] * 0, mask=m2, other=-2.0)
    tl.store(out_ptr + BLOCK + rows[:, None] * BLOCK + offs[None, :], y)
    w = tl.where(rows[:, None] > 1, x[None, :], rows[:, None].to(tl.float32))
    tl.store(out_ptr + 5 * BLOCK + rows[:, None] * BLOCK + offs[None, :], w)


@triton.jit
def fib_branch_kernel(out_ptr, n):
    a, b = 0, 1
    i = 0
    while i < n:
        a, b = b, a + b
        i += 1
    tl.store(out_ptr, a)
    acc = 0
    for j in range(n):
        if j % 3 == 0:
            acc += j
        elif j % 3 == 1:
            acc -= 1
    tl.store(out_ptr + 1, acc)


@triton.jit
def count_positive_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    c = tl.sum(x > 0, axis=0)
    tl.static_assert(c.dtype == tl.uint32)
    tl.store(out_ptr, c)
    tl.store(out_ptr + 1, tl.sum(x, axis=0))


@triton.jit
def _sign_scale(v):
    if v > 0:
        return v * 10
    elif v < 0:
        return v * 100
    return v + 7


@triton.jit
def _two_way(v):
    if v > 0:
        return v * 10
    else:
        return v * 100


@triton.jit
def callee_return_kernel(x_ptr, out_ptr, NESTED: tl.constexpr):
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    if NESTED:
        tl.store(out_ptr + pid, _sign_scale(v))
    else:
        tl.store(out_ptr + pid, _two_way(v))


@triton.jit
def nested_if_else_return_kernel(Cond1, Cond2, Cond3, Val1, Val2, Val3, Out):
    val = 0
    if tl.load(Cond1):
        if tl.load(Cond2):
            val = tl.load(Val1)
        else:
            return
    else:
        if tl.load(Cond3):
            val = tl.load(Val2)
        else:
            val = tl.load(Val3)
    tl.store(Out, val)


@triton.jit
def one_arm_if_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * BLOCK + offs)
    r = tl.zeros((BLOCK,), dtype=tl.int32)
    if tl.sum(x, axis=0) > 0:
        r = x * 2
    acc = tl.zeros((BLOCK,), dtype=tl.int32)
    for i in range(4):
        if i % 2 == 1:
            acc += x
    tl.store(out_ptr + pid * BLOCK + offs, r + acc)
