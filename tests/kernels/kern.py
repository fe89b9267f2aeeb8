# kern.py — kernels of tests/test_kern.c: the float tl.sum's order, debug mode and its
# overflow checks, jit options, the math library, time limits and progress.
import triton
import triton.language as tl
from triton.language.extra import libdevice


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


@triton.jit
def math1(x_ptr, out_ptr, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if FN == "trunc":
        y = libdevice.trunc(x)
    elif FN == "round":
        y = libdevice.round(x)
    elif FN == "rint":
        y = libdevice.rint(x)
    elif FN == "nearbyint":
        y = libdevice.nearbyint(x)
    elif FN == "cbrt":
        y = libdevice.cbrt(x)
    elif FN == "rcbrt":
        y = libdevice.rcbrt(x)
    elif FN == "exp10":
        y = libdevice.exp10(x)
    elif FN == "expm1":
        y = libdevice.expm1(x)
    elif FN == "log10":
        y = libdevice.log10(x)
    elif FN == "log1p":
        y = libdevice.log1p(x)
    elif FN == "tan":
        y = libdevice.tan(x)
    elif FN == "asin":
        y = libdevice.asin(x)
    elif FN == "acos":
        y = libdevice.acos(x)
    elif FN == "atan":
        y = libdevice.atan(x)
    elif FN == "sinh":
        y = libdevice.sinh(x)
    elif FN == "cosh":
        y = libdevice.cosh(x)
    elif FN == "asinh":
        y = libdevice.asinh(x)
    elif FN == "acosh":
        y = libdevice.acosh(x)
    elif FN == "atanh":
        y = libdevice.atanh(x)
    elif FN == "erfc":
        y = libdevice.erfc(x)
    elif FN == "erfinv":
        y = libdevice.erfinv(x)
    elif FN == "logb":
        y = libdevice.logb(x)
    elif FN == "sinpi":
        y = libdevice.sinpi(x)
    elif FN == "cospi":
        y = libdevice.cospi(x)
    elif FN == "saturatef":
        y = libdevice.saturatef(x)
    elif FN == "fast_expf":
        y = libdevice.fast_expf(x)
    elif FN == "fast_exp10f":
        y = libdevice.fast_exp10f(x)
    elif FN == "fast_logf":
        y = libdevice.fast_logf(x)
    elif FN == "fast_log2f":
        y = libdevice.fast_log2f(x)
    elif FN == "fast_log10f":
        y = libdevice.fast_log10f(x)
    elif FN == "fast_sinf":
        y = libdevice.fast_sinf(x)
    elif FN == "fast_cosf":
        y = libdevice.fast_cosf(x)
    elif FN == "fast_tanf":
        y = libdevice.fast_tanf(x)
    elif FN == "isnan":
        y = libdevice.isnan(x)
    elif FN == "isinf":
        y = libdevice.isinf(x)
    elif FN == "finitef":
        y = libdevice.finitef(x)
    elif FN == "isfinited":
        y = libdevice.isfinited(x)
    elif FN == "signbit":
        y = libdevice.signbit(x)
    elif FN == "ilogb":
        y = libdevice.ilogb(x)
    elif FN == "llrint":
        y = libdevice.llrint(x)
    elif FN == "llround":
        y = libdevice.llround(x)
    elif FN == "exp":
        y = libdevice.exp(x)
    elif FN == "log":
        y = libdevice.log(x)
    elif FN == "sqrt":
        y = libdevice.sqrt(x)
    elif FN == "sin":
        y = libdevice.sin(x)
    elif FN == "cos":
        y = libdevice.cos(x)
    elif FN == "erf":
        y = libdevice.erf(x)
    elif FN == "floor":
        y = libdevice.floor(x)
    elif FN == "ceil":
        y = libdevice.ceil(x)
    elif FN == "abs":
        y = libdevice.abs(x)
    elif FN == "tanh":
        y = libdevice.tanh(x)
    elif FN == "exp2":
        y = libdevice.exp2(x)
    elif FN == "log2":
        y = libdevice.log2(x)
    elif FN == "rsqrt":
        y = libdevice.rsqrt(x)
    else:
        tl.static_assert(False, "unknown FN")
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty))


@triton.jit
def math2(x_ptr, y_ptr, out_ptr, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    if FN == "pow":
        r = libdevice.pow(x, y)
    elif FN == "atan2":
        r = libdevice.atan2(x, y)
    elif FN == "hypot":
        r = libdevice.hypot(x, y)
    elif FN == "rhypot":
        r = libdevice.rhypot(x, y)
    elif FN == "remainder":
        r = libdevice.remainder(x, y)
    elif FN == "copysign":
        r = libdevice.copysign(x, y)
    elif FN == "fdim":
        r = libdevice.fdim(x, y)
    elif FN == "nextafter":
        r = libdevice.nextafter(x, y)
    elif FN == "ldexp":
        r = libdevice.ldexp(x, y)
    elif FN == "scalbn":
        r = libdevice.scalbn(x, y)
    elif FN == "fast_powf":
        r = libdevice.fast_powf(x, y)
    elif FN == "fmod":
        r = libdevice.fmod(x, y)
    elif FN == "fast_dividef":
        r = libdevice.fast_dividef(x, y)
    else:
        tl.static_assert(False, "unknown FN")
    tl.store(out_ptr + offs, r.to(out_ptr.dtype.element_ty))


@triton.jit
def special(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, libdevice.lgamma(x))


@triton.jit
def copy16(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # 16-bit integers loaded and stored two to a 32-bit word, masked, with `other`
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=-3)
    tl.store(out_ptr + offs, x * 2 + 1, mask=m)
