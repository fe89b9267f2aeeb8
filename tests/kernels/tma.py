# Tensor descriptors lowered to TMA on sm_90+ (tests/test_tma.c, scripts/gpu-tma-check.sh).
import triton
import triton.language as tl


@triton.jit
def tile_scale(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    # y = 2 * x + 1 one block at a time; edge blocks hang over the matrix
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    t = x_desc.load([m, n])
    y_desc.store([m, n], t * 2 + 1)


@triton.jit
def row_shift(x_desc, y_desc, shift, BN: tl.constexpr):
    # 1-D: y[i] = x[i + shift] (zero past either end), block i of y
    i = tl.program_id(0) * BN
    y_desc.store([i], x_desc.load([i + shift]))


@triton.jit
def desc_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr):
    # c = a @ b with a [M, K], b [K, N] and c [M, N] as descriptors, fp32 accumulation
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([m, k])
        b = b_desc.load([k, n])
        acc = tl.dot(a, b, acc)
    c_desc.store([m, n], acc.to(c_desc.dtype))


@triton.jit
def batch_copy(x_desc, y_desc, BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # 3-D blocks, read with a runtime-free offset in the middle dimension
    b = tl.program_id(0) * BB
    m = tl.program_id(1) * BM
    y_desc.store([b, m, 0], x_desc.load([b, m, 0]) - 3)


@triton.jit
def made_tile(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # descriptors made in the kernel: their maps filled by the kernel on sm_90a (tensormap.replace)
    xd = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN])
    yd = tl.make_tensor_descriptor(y, [M, N], [N, 1], [BM, BN])
    m = tl.program_id(0) * BM
    yd.store([m, 0], xd.load([m, 0]) + 1)


@triton.jit
def desc_attn_fwd(q_desc, k_desc, v_desc, o_desc, sm_scale, N_CTX, BM: tl.constexpr, BN: tl.constexpr,
                  D: tl.constexpr):
    # flash attention's forward over [heads * N_CTX, D] descriptors (tutorial 06's pattern):
    # head program_id(1), query rows program_id(0); K's block read transposed as QK^T's B,
    # the carried offset stepped by BN
    row0 = tl.program_id(1) * N_CTX
    m0 = row0 + tl.program_id(0) * BM
    q = q_desc.load([m0, 0])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    off = row0
    for _ in tl.range(0, N_CTX, BN):
        k = k_desc.load([off, 0]).T
        qk = tl.dot(q, k)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = v_desc.load([off, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
        off += BN
    o_desc.store([m0, 0], (acc / l_i[:, None]).to(tl.float16))


@triton.jit
def desc_attn_blocks(acc, l_i, m_i, q, k_desc, v_desc, row0, lo, hi, offs_m, qk_scale,
                     BN: tl.constexpr, DIAG: tl.constexpr):
    # key blocks [lo, hi) of desc_attn_fwd_causal; DIAG: the diagonal's, masked
    offs_n = tl.arange(0, BN)
    for start in tl.range(lo, hi, BN):
        k = k_desc.load([row0 + start, 0]).T
        qk = tl.dot(q, k)
        if DIAG:
            mask = offs_m[:, None] >= (start + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = v_desc.load([row0 + start, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def desc_attn_fwd_causal(q_desc, k_desc, v_desc, o_desc, sm_scale, N_CTX, BM: tl.constexpr,
                         BN: tl.constexpr, D: tl.constexpr):
    # the causal forward as tutorial 06 runs it (STAGE 3): the key blocks left of the
    # diagonal in one loop, the diagonal's, masked, in a second; q read by the dots of both
    start_m = tl.program_id(0)
    row0 = tl.program_id(1) * N_CTX
    q = q_desc.load([row0 + start_m * BM, 0])
    offs_m = start_m * BM + tl.arange(0, BM)
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    acc, l_i, m_i = desc_attn_blocks(acc, l_i, m_i, q, k_desc, v_desc, row0, 0, start_m * BM,
                                     offs_m, qk_scale, BN, False)
    acc, l_i, m_i = desc_attn_blocks(acc, l_i, m_i, q, k_desc, v_desc, row0, start_m * BM,
                                     (start_m + 1) * BM, offs_m, qk_scale, BN, True)
    o_desc.store([row0 + start_m * BM, 0], (acc / l_i[:, None]).to(tl.float16))


@triton.jit
def made_two_blocks(x, y, M, N, BM: tl.constexpr):
    # two descriptors over x that differ only in their block shape (one tensor map cannot
    # serve both)
    a = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, 16])
    b = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, 32])
    yd = tl.make_tensor_descriptor(y, [M, N], [N, 1], [BM, 16])
    m = tl.program_id(0) * BM
    yd.store([m, 0], a.load([m, 0]) + tl.sum(b.load([m, 0]), axis=1)[:, None])
