# A fused-attention forward in the shape of tutorial 06 (plain pointers instead of block
# pointers): an inner @jit function with a runtime loop and three return values, called with
# constexpr arguments computed from STAGE. attn_fwd_lse is the same forward over Z*H heads
# that also stores M, the row log-sum-exp in base 2, for the backward (attention_bwd.py).
import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_kn, stride_vn,
                    start_m, qk_scale,
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
                    STAGE: tl.constexpr, offs_m: tl.constexpr, offs_n: tl.constexpr,
                    N_CTX: tl.constexpr):
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    K_ptrs += lo * stride_kn
    V_ptrs += lo * stride_vn
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(K_ptrs)
        qk = tl.dot(q, k.T)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V_ptrs)
        # P rounded to the inputs' dtype before the dot, as tutorial 06 does (fp32: no-op)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
        K_ptrs += BLOCK_N * stride_kn
        V_ptrs += BLOCK_N * stride_vn
    return acc, l_i, m_i


@triton.jit
def attn_fwd(Q, K, V, Out, sm_scale, stride_m,
             N_CTX: tl.constexpr, HEAD_DIM: tl.constexpr,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale
    qk_scale *= 1.44269504
    q = tl.load(Q + offs_m[:, None] * stride_m + offs_d[None, :])
    K_ptrs = K + offs_n[:, None] * stride_m + offs_d[None, :]
    V_ptrs = V + offs_n[:, None] * stride_m + offs_d[None, :]
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_m, stride_m,
                                        start_m, qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        4 - STAGE, offs_m, offs_n, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_ptrs, V_ptrs, stride_m, stride_m,
                                        start_m, qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        2, offs_m, offs_n, N_CTX)
    acc = acc / l_i[:, None]
    tl.store(Out + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(Out.type.element_ty))


@triton.jit
def attn_fwd_lse(Q, K, V, Out, M, sm_scale,
                 N_CTX: tl.constexpr, HEAD_DIM: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    # Q, K, V, Out: [Z*H, N_CTX, HEAD_DIM] contiguous; M: [Z*H, N_CTX] fp32; grid
    # (N_CTX // BLOCK_M, Z*H). M = log2(sum_j 2^(qk_j * sm_scale * log2 e)), the base-2
    # log-sum-exp of the scaled scores, which the backward subtracts before its exp2.
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    head = (bh * N_CTX * HEAD_DIM).to(tl.int64)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.full([BLOCK_M], 1.0, tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(Q + head + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    kv = head + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K + kv, V + kv, HEAD_DIM, HEAD_DIM,
                                        start_m, qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        4 - STAGE, offs_m, offs_n, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K + kv, V + kv, HEAD_DIM, HEAD_DIM,
                                        start_m, qk_scale, BLOCK_M, HEAD_DIM, BLOCK_N,
                                        2, offs_m, offs_n, N_CTX)
    m_i += tl.math.log2(l_i)
    tl.store(M + bh * N_CTX + offs_m, m_i)
    o = acc / l_i[:, None]
    tl.store(Out + head + offs_m[:, None] * HEAD_DIM + offs_d[None, :], o.to(Out.dtype.element_ty))
