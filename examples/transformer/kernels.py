# One GPT-2-style transformer block, forward, as Triton kernels (tritonc's own, written in
# the style of Triton's tutorials: 05-layer-norm, 03-matrix-multiplication,
# 06-fused-attention). transformer.c runs them from C on buffers it allocated itself.
# Every kernel accumulates in fp32 and stores in the element type of its output, so the
# same file serves the fp32 check on the interpreter and the fp16 run on the GPU.
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(X, Y, W, B, stride, N, eps, BLOCK_N: tl.constexpr):
    # one row per program: y = (x - mean) / sqrt(var + eps) * w + b
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
    y = xc * rstd * w + b
    tl.store(Y + row * stride + cols, y.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def gelu_tanh(x):
    # GPT-2's GELU: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), tanh(u) = 1 - 2/(1+e^2u)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    return 0.5 * x * (2.0 - 2.0 / (1.0 + tl.exp(2.0 * u)))


@triton.jit
def linear_kernel(A, W, Bias, R, C, M, N, K,
                  stride_am, stride_wk, stride_cm,
                  GELU: tl.constexpr, RESIDUAL: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    # C[M, N] = act(A[M, K] @ W[K, N] + Bias[N]) (+ R[M, N]); rows contiguous
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    # grouped ordering, for L2 reuse (the matmul tutorial's)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_m[:, None] * stride_am + offs_k[None, :]
    w_ptrs = W + offs_k[:, None] * stride_wk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, w, acc)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K * stride_wk
    acc += tl.load(Bias + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
    if GELU:
        acc = gelu_tanh(acc)
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    if RESIDUAL:
        acc += tl.load(R + offs_m[:, None] * stride_cm + offs_n[None, :], mask=c_mask,
                       other=0.0).to(tl.float32)
    tl.store(C + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(C.dtype.element_ty),
             mask=c_mask)


@triton.jit
def attention_kernel(QKV, O, sm_scale, T, D, stride_qkv, stride_o,
                     H: tl.constexpr, HEAD_DIM: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # causal attention of one block of queries of one (batch, head), online softmax as the
    # fused-attention tutorial. QKV rows are [q | k | v], each D = H * HEAD_DIM wide.
    start_m = tl.program_id(0)
    off_bh = tl.program_id(1)
    b = off_bh // H
    h = off_bh % H
    row0 = b * T
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q_ptrs = QKV + (row0 + offs_m)[:, None] * stride_qkv + h * HEAD_DIM + offs_d[None, :]
    q = tl.load(q_ptrs, mask=offs_m[:, None] < T, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634  # log2(e): exp2 below
    hi = tl.minimum((start_m + 1) * BLOCK_M, T)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(QKV + (row0 + cols)[None, :] * stride_qkv + D + h * HEAD_DIM + offs_d[:, None],
                    mask=cols[None, :] < T, other=0.0)
        qk = tl.dot(q, k)
        keep = (offs_m[:, None] >= cols[None, :]) & (cols[None, :] < T)
        qk = tl.where(keep, qk * qk_scale, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(QKV + (row0 + cols)[:, None] * stride_qkv + 2 * D + h * HEAD_DIM + offs_d[None, :],
                    mask=cols[:, None] < T, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + (row0 + offs_m)[:, None] * stride_o + h * HEAD_DIM + offs_d[None, :],
             acc.to(O.dtype.element_ty), mask=offs_m[:, None] < T)
