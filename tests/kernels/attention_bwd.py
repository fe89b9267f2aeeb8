# The backward of fused attention in the patterns of tutorial 06 (written for tritonc's
# tests, not copied): a preprocess kernel (delta = rowsum(O * dO)), a dK/dV kernel and a dQ
# kernel. Each recomputes P = exp2(Q Ks^T - M) from M, the base-2 log-sum-exp stored by the
# forward (attention.py: attn_fwd_lse), with Ks = K * sm_scale * log2(e) scaled on the host, so
# the scores come out in log2 units. Causal blocks on the diagonal run in BLOCK // SLICE steps
# with the mask, the blocks off the diagonal in full steps without it.
# Tensors: [Z*H, N_CTX, HEAD_DIM] (stride_bh, stride_tok, unit stride along HEAD_DIM), M and
# Delta [Z*H, N_CTX] fp32.
import triton
import triton.language as tl


@triton.jit
def attn_bwd_delta(O, DO, Delta, stride_bh, stride_tok, N_CTX,
                   BLOCK: tl.constexpr, HEAD_DIM: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    bh = tl.program_id(1)
    cols = tl.arange(0, HEAD_DIM)
    offs = bh * stride_bh + rows[:, None] * stride_tok + cols[None, :]
    o = tl.load(O + offs).to(tl.float32)
    do = tl.load(DO + offs).to(tl.float32)
    tl.store(Delta + bh * N_CTX + rows, tl.sum(o * do, axis=1))


@triton.jit
def _kv_block_steps(dk, dv, k, v, Q, DO, M, Delta, stride_tok,
                    start_n, start_m, num_steps,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
                    ON_DIAGONAL: tl.constexpr):
    # dK, dV of keys start_n .. start_n + BLOCK_N from query rows start_m, BLOCK_M at a time
    tl.static_assert(BLOCK_N % BLOCK_M == 0)
    keys = start_n + tl.arange(0, BLOCK_N)
    dims = tl.arange(0, HEAD_DIM)
    first = start_m + tl.arange(0, BLOCK_M)
    qT_ptrs = Q + first[None, :] * stride_tok + dims[:, None]      # [HEAD_DIM, BLOCK_M]
    do_ptrs = DO + first[:, None] * stride_tok + dims[None, :]     # [BLOCK_M, HEAD_DIM]
    row0 = start_m
    for _ in tl.range(0, num_steps):
        qT = tl.load(qT_ptrs)
        rows = row0 + tl.arange(0, BLOCK_M)
        lse = tl.load(M + rows)
        sT = tl.dot(k, qT)                                          # [BLOCK_N, BLOCK_M]
        pT = tl.math.exp2(sT - lse[None, :])
        if ON_DIAGONAL:
            pT = tl.where(rows[None, :] >= keys[:, None], pT, 0.0)
        do = tl.load(do_ptrs)
        dv += tl.dot(pT.to(tl.float16), do)
        delta = tl.load(Delta + rows)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - delta[None, :])
        dk += tl.dot(dsT.to(tl.float16), qT.T)
        row0 += BLOCK_M
        qT_ptrs += BLOCK_M * stride_tok
        do_ptrs += BLOCK_M * stride_tok
    return dk, dv


@triton.jit
def attn_bwd_dkdv(Q, K, V, DO, DK, DV, M, Delta, sm_scale,
                  stride_bh, stride_tok, N_CTX,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, SLICE: tl.constexpr,
                  HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    # grid (N_CTX // BLOCK_N, Z*H); K is Ks (scaled by sm_scale * log2 e)
    start_n = tl.program_id(0) * BLOCK_N
    bh = tl.program_id(1)
    head = (bh * stride_bh).to(tl.int64)
    Q += head
    K += head
    V += head
    DO += head
    DK += head
    DV += head
    M += bh * N_CTX
    Delta += bh * N_CTX
    keys = start_n + tl.arange(0, BLOCK_N)
    dims = tl.arange(0, HEAD_DIM)
    kv = keys[:, None] * stride_tok + dims[None, :]
    k = tl.load(K + kv)
    v = tl.load(V + kv)
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    start_m = 0
    if CAUSAL:
        SUB_M: tl.constexpr = BLOCK_M // SLICE
        start_m = start_n
        steps = BLOCK_N // SUB_M
        dk, dv = _kv_block_steps(dk, dv, k, v, Q, DO, M, Delta, stride_tok,
                                 start_n, start_m, steps, SUB_M, BLOCK_N, HEAD_DIM, True)
        start_m += steps * SUB_M
    steps = (N_CTX - start_m) // BLOCK_M
    dk, dv = _kv_block_steps(dk, dv, k, v, Q, DO, M, Delta, stride_tok,
                             start_n, start_m, steps, BLOCK_M, BLOCK_N, HEAD_DIM, False)
    tl.store(DV + kv, dv.to(DV.dtype.element_ty))
    # dS came from Ks, but dK = sm_scale * dS^T Q: the scale goes on here
    dk *= sm_scale
    tl.store(DK + kv, dk.to(DK.dtype.element_ty))


@triton.jit
def _q_block_steps(dq, q, do, lse, delta, K, V, stride_tok,
                   start_m, start_n, num_steps,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
                   ON_DIAGONAL: tl.constexpr):
    # dQ of query rows start_m .. start_m + BLOCK_M from keys start_n, BLOCK_N at a time
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    rows = start_m + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    first = start_n + tl.arange(0, BLOCK_N)
    kT_ptrs = K + first[None, :] * stride_tok + dims[:, None]      # [HEAD_DIM, BLOCK_N]
    vT_ptrs = V + first[None, :] * stride_tok + dims[:, None]
    col0 = start_n
    for _ in range(num_steps):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        p = tl.math.exp2(tl.dot(q, kT) - lse)                      # [BLOCK_M, BLOCK_N]
        if ON_DIAGONAL:
            cols = col0 + tl.arange(0, BLOCK_N)
            p = tl.where(rows[:, None] >= cols[None, :], p, 0.0)
        dp = tl.dot(do, vT)
        ds = (p * (dp - delta[:, None])).to(tl.float16)
        dq += tl.dot(ds, tl.trans(kT))
        col0 += BLOCK_N
        kT_ptrs += BLOCK_N * stride_tok
        vT_ptrs += BLOCK_N * stride_tok
    return dq


@triton.jit
def attn_bwd_dq(Q, K, V, DO, DQ, M, Delta,
                stride_bh, stride_tok, N_CTX,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, SLICE: tl.constexpr,
                HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    # grid (N_CTX // BLOCK_M, Z*H); K is Ks, so dQ = ln 2 * dS Ks
    LN2: tl.constexpr = 0.6931471824645996
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1)
    head = (bh * stride_bh).to(tl.int64)
    rows = start_m + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    qo = head + rows[:, None] * stride_tok + dims[None, :]
    q = tl.load(Q + qo)
    do = tl.load(DO + qo)
    lse = tl.load(M + bh * N_CTX + rows)[:, None]
    delta = tl.load(Delta + bh * N_CTX + rows)
    dq = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    K += head
    V += head
    start_n = 0
    steps = N_CTX // BLOCK_N
    if CAUSAL:
        SUB_N: tl.constexpr = BLOCK_N // SLICE
        end_n = start_m + BLOCK_M
        steps = BLOCK_M // SUB_N
        dq = _q_block_steps(dq, q, do, lse, delta, K, V, stride_tok,
                            start_m, end_n - steps * SUB_N, steps,
                            BLOCK_M, SUB_N, HEAD_DIM, True)
        end_n -= steps * SUB_N
        steps = end_n // BLOCK_N
        start_n = end_n - steps * BLOCK_N
    dq = _q_block_steps(dq, q, do, lse, delta, K, V, stride_tok,
                        start_m, start_n, steps, BLOCK_M, BLOCK_N, HEAD_DIM, False)
    dq *= LN2
    tl.store(DQ + qo, dq.to(DQ.dtype.element_ty))
