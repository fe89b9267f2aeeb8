# tl.dot: fp32 with input_precision="ieee", fp16 inputs with fp32 accumulation, an `acc`
# argument and `+=` in a K loop with masks on K.
import triton
import triton.language as tl


@triton.jit
def dot_ieee_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, K)
    a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :])
    c = tl.dot(a, b, input_precision="ieee")
    tl.static_assert(c.dtype == tl.float32)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], c)


@triton.jit
def dot_f16_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, K)
    a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :])
    c = tl.dot(a, b)
    tl.static_assert(c.dtype == tl.float32)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], c)


@triton.jit
def dot_acc_kernel(a_ptr, b_ptr, bias_ptr, c_ptr, K,
                   M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr, USE_PLUS_EQ: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, BK)
    acc = tl.load(bias_ptr + offs_m[:, None] * N + offs_n[None, :])
    for k0 in range(0, K, BK):
        kk = k0 + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * K + kk[None, :], mask=kk[None, :] < K, other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + offs_n[None, :], mask=kk[:, None] < K, other=0.0)
        if USE_PLUS_EQ:
            acc += tl.dot(a, b, input_precision="ieee")
        else:
            acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)


@triton.jit
def dot_i8_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, K)
    a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :])
    c = tl.dot(a, b)
    tl.static_assert(c.dtype == tl.int32)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], c)


@triton.jit
def dot_f16_out_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    offs_m = tl.arange(0, M)
    offs_n = tl.arange(0, N)
    offs_k = tl.arange(0, K)
    a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * N + offs_n[None, :])
    c = tl.dot(a, b, out_dtype=tl.float16)
    tl.static_assert(c.dtype == tl.float16)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], c)
