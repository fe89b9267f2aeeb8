# tl.dot as Triton 3.6 defines it: input_precision (tf32, tf32x3, ieee, bf16x3, bf16x6, the
# default from TRITON_F32_DEFAULT), allow_tf32, fp8 operands, out_dtype, 3-D batches.
import triton
import triton.language as tl


@triton.jit
def dot_prec_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                    PREC: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    if PREC == "default":
        c = tl.dot(a, b, acc)
    elif PREC == "no_tf32":
        c = tl.dot(a, b, acc, allow_tf32=False)
    else:
        c = tl.dot(a, b, acc, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def dot_fp8_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                   OUT16: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if OUT16:
        c = tl.dot(a, b, out_dtype=tl.float16, max_num_imprecise_acc=K)
        tl.static_assert(c.dtype == tl.float16)
    else:
        c = tl.dot(a, b)
        tl.static_assert(c.dtype == tl.float32)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def dot_batched_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                       K: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb * M * K + rm[None, :, None] * K + rk[None, None, :])
    b = tl.load(b_ptr + rb * K * N + rk[None, :, None] * N + rn[None, None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + rb * M * N + rm[None, :, None] * N + rn[None, None, :], c)


@triton.jit
def dot_bad_kernel(a_ptr, WHAT: tl.constexpr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    if WHAT == 0:
        c = tl.dot(a.to(tl.float8e5), a.to(tl.float8e5), max_num_imprecise_acc=64)
    elif WHAT == 1:
        c = tl.dot(a, a, input_precision="hf32")
    elif WHAT == 2:
        c = tl.dot(a, a, input_precision="ieee", allow_tf32=True)
    else:
        s = tl.arange(0, 16)
        x = tl.load(a_ptr + s[:, None] * 16 + s[None, :]).to(tl.float8e5)
        c = tl.dot(x, x)
    tl.store(a_ptr + r[:, None] * 32 + r[None, :], c)
