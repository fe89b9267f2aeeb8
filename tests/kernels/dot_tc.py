# fp32 tl.dot under each input_precision in a K loop over masked pointer tiles, as Triton's
# matmul tutorial writes it (single blocks of every shape: dot_prec.py's dot_prec_kernel).
import triton
import triton.language as tl


@triton.jit
def dot_prec_loop_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr, PREC: tl.constexpr, STAGES: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BK) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PREC)
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def dot_colscale_loop_kernel(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                             BK: tl.constexpr, STAGES: tl.constexpr):
    # c = sum over the K blocks kb of (A[:, kb] @ B[kb, :]) * s[kb, :]: s (fp32, one row of N
    # per block) is loaded in every iteration next to the dot's tiles and read by no dot
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BK) & (offs_n[None, :] < N), other=0.0)
        s = tl.load(s_ptr + k * N + offs_n, mask=offs_n < N, other=0.0)
        acc += tl.dot(a, b) * s[None, :]
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def dot_two_loops_kernel(a_ptr, b_ptr, c_ptr, K, FIRST, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr, BOTH: tl.constexpr):
    # c = a @ (B's K blocks summed), once more when FIRST > 0 (or BOTH): `a` is read by the
    # dots of two loops, the first of which may not run
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a = tl.load(a_ptr + offs_m[:, None] * BK + offs_k[None, :])
    b_ptrs = b_ptr + offs_k[:, None] * BN + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    if BOTH or FIRST > 0:
        for k in tl.range(0, K, BK, num_stages=2):
            acc += tl.dot(a, tl.load(b_ptrs + k * BN))
    for k in tl.range(0, K, BK, num_stages=2):
        acc += tl.dot(a, tl.load(b_ptrs + k * BN))
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)


@triton.jit
def dot_outer_acc_kernel(a_ptr, b_ptr, c_ptr, N_OUT, N_IN, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr):
    # the outer loop's carried acc is the accumulator of a dot in the inner loop, and its only
    # reader: every inner iteration reads acc as the outer iteration left it
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a = tl.load(a_ptr + offs_m[:, None] * BK + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * BN + offs_n[None, :])
    acc = tl.zeros((BM, BN), dtype=tl.float32) + 1.0
    out = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(N_OUT):
        for j in range(N_IN):
            out += tl.dot(a, b, acc)
        acc = out
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], out)


@triton.jit
def made_desc_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                            BK: tl.constexpr, NPROG: tl.constexpr, STAGES: tl.constexpr):
    # c = a @ b.T (a M x K, b N x K, c M x N fp32) through descriptors the kernel makes, once
    # per program, each program taking every NPROG-th output tile (a persistent matmul)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tiles_n = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BM) * tiles_n, NPROG):
        om = tile // tiles_n * BM
        on = tile % tiles_n * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for kb in tl.range(0, tl.cdiv(K, BK), num_stages=STAGES):
            acc = tl.dot(a_desc.load([om, kb * BK]), b_desc.load([on, kb * BK]).T, acc)
        c_desc.store([om, on], acc)
