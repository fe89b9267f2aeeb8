# Flash-attention forward in tutorial 06's pattern with plain pointers: the fp32 result of
# QK^T, rescaled, exponentiated and cast to fp16, is the A operand of the second dot.
import triton
import triton.language as tl


@triton.jit
def fa_fwd(Q, K, V, Out, sm_scale, stride_m, N_CTX: tl.constexpr, HEAD_DIM: tl.constexpr,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(Q + offs_m[:, None] * stride_m + offs_d[None, :])
    for start_n in range(0, N_CTX, BLOCK_N):
        k = tl.load(K + (start_n + offs_n)[:, None] * stride_m + offs_d[None, :])
        qk = tl.dot(q, k.T)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + (start_n + offs_n)[:, None] * stride_m + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(Out.type.element_ty))
