# Block pointers: tl.make_block_ptr, tl.advance, tl.load / tl.store with boundary_check and
# padding_option (tests/test_blockptr.c, scripts/gpu-blockptr-check.sh).
import triton
import triton.language as tl


@triton.jit
def copy2d(x_ptr, y_ptr, M, N, stride_xm, stride_ym, BM: tl.constexpr, BN: tl.constexpr,
           CHECK: tl.constexpr):
    # y = x + 1 one tile at a time; CHECK picks the dims checked: 0, 1, or 2 for both
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    xb = tl.make_block_ptr(x_ptr, (M, N), (stride_xm, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    yb = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride_ym, 1),
                           offsets=(pid_m * BM, pid_n * BN), block_shape=(BM, BN), order=(1, 0))
    if CHECK == 2:
        x = tl.load(xb, boundary_check=(1, 0), padding_option="zero")
        tl.store(yb, x + 1, boundary_check=(0, 1))
    elif CHECK == 0:
        x = tl.load(xb, boundary_check=(0, ))
        tl.store(yb, x + 1, boundary_check=(0, ))
    else:
        x = tl.load(xb, boundary_check=(1, ))
        tl.store(yb, x + 1, boundary_check=(1, ))


@triton.jit
def pad_tile(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, PAD: tl.constexpr):
    # the whole padded BM x BN tile at (1, 1) is written to out, padding included;
    # PAD: 0 the default padding, 1 "zero", 2 "nan"
    xb = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (1, 1), (BM, BN), (1, 0))
    if PAD == 2:
        x = tl.load(xb, boundary_check=(0, 1), padding_option="nan")
    elif PAD == 1:
        x = tl.load(xb, boundary_check=(0, 1), padding_option="zero")
    else:
        x = tl.load(xb, boundary_check=(0, 1))
    ob = tl.make_block_ptr(out_ptr, (BM, BN), (BN, 1), (0, 0), (BM, BN), (0, 1))
    tl.store(ob, x)


@triton.jit
def matmul_bp(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
              stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # the classic block-pointer matmul: the operands' block pointers advance along K
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_bp, boundary_check=(0, 1))
        b = tl.load(b_bp, boundary_check=(0, 1))
        acc += tl.dot(a, b)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn), (pid_m * BM, pid_n * BN), (BM, BN),
                             (1, 0))
    tl.store(c_bp, acc, boundary_check=(0, 1))


@triton.jit
def vec_sum(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # 1-D: sums x in BLOCK-long steps (tl.range, the method form of advance); the last
    # block is partial
    bp = tl.make_block_ptr(x_ptr, (N, ), (1, ), (0, ), (BLOCK, ), (0, ))
    acc = tl.zeros((BLOCK, ), dtype=tl.int32)
    for i in tl.range(0, tl.cdiv(N, BLOCK)):
        acc += tl.load(bp, boundary_check=(0, ))
        bp = bp.advance((BLOCK, ))
    tl.store(out_ptr, tl.sum(acc, axis=0))


@triton.jit
def pick_row(x_ptr, out_ptr, M, N, BN: tl.constexpr):
    # a block pointer through a run-time `if`: even programs read their row, odd ones the
    # row after it (wrapping to row 0 past the end through a fresh block pointer)
    pid = tl.program_id(0)
    bp = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (pid, 0), (1, BN), (1, 0))
    if pid % 2 == 1:
        if pid + 1 < M:
            bp = tl.advance(bp, (1, 0))
        else:
            bp = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (0, 0), (1, BN), (1, 0))
    row = tl.load(bp, boundary_check=(1, ))
    ob = tl.make_block_ptr(out_ptr, (M, N), (N, 1), (pid, 0), (1, BN), (1, 0))
    tl.store(ob, row, boundary_check=(1, ))


@triton.jit
def transpose3d(x_ptr, y_ptr, B, M, N, sxb, sxm, sxn, BB: tl.constexpr, BM: tl.constexpr,
                BN: tl.constexpr):
    # 3-D: y[b, m, n] = x seen through strides (sxb, sxm, sxn), partial blocks on every dim
    pb = tl.program_id(0)
    pm = tl.program_id(1)
    pn = tl.program_id(2)
    offs = (pb * BB, pm * BM, pn * BN)
    xb = tl.make_block_ptr(x_ptr, (B, M, N), (sxb, sxm, sxn), offs, (BB, BM, BN), (2, 1, 0))
    yb = tl.make_block_ptr(y_ptr, (B, M, N), (M * N, N, 1), offs, (BB, BM, BN), (2, 1, 0))
    tl.store(yb, tl.load(xb, boundary_check=(0, 1, 2)) * 2, boundary_check=(0, 1, 2))


@triton.jit
def const_shape_copy(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # constexpr shape and strides (a 6x10 matrix), tiles hanging over both edges
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    xb = tl.make_block_ptr(x_ptr, (6, 10), (10, 1), (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    yb = tl.make_block_ptr(y_ptr, (10, 6), (6, 1), (pid_n * BN, pid_m * BM), (BN, BM), (1, 0))
    tl.store(yb, tl.trans(tl.load(xb, boundary_check=(0, 1))), boundary_check=(0, 1))


@triton.jit
def _load_and_step(bp):
    # a @jit function taking and returning a block pointer
    return tl.load(bp, boundary_check=(0, 1)), tl.advance(bp, (1, 1))


@triton.jit
def walk_diag(x_ptr, out_ptr, n):
    # a while loop carrying a block pointer through a called function, then a run-time
    # conditional expression choosing between two: out = x[n-1:, n-1:] + (x[n:, n:] if n > 2
    # else x), over 4x4 tiles of a 4x4 matrix
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    tl.static_assert(isinstance(bp, tl.tensor))
    x = tl.zeros((4, 4), tl.int32)
    i = 0
    while i < n:
        x, bp = _load_and_step(bp)
        i += 1
    cp = bp if n > 2 else tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    ob = tl.make_block_ptr(out_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    tl.store(ob, x + tl.load(cp, boundary_check=(0, 1)))


# ---- misuse: each of these is refused with Triton's error and its location ----------------


@triton.jit
def bad_mask(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    x = tl.load(bp, mask=tl.full((4, 4), 1, tl.int1))


@triton.jit
def bad_check_dim(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    x = tl.load(bp, boundary_check=(0, 2))


@triton.jit
def bad_block_shape(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 3), (1, 0))


@triton.jit
def bad_rank(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, ), (4, 4), (1, 0))


@triton.jit
def bad_advance(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    bp = tl.advance(bp, (4, ))


@triton.jit
def bad_nan_int(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    x = tl.load(bp, boundary_check=(0, ), padding_option="nan")


@triton.jit
def bad_store_dtype(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    tl.store(bp, tl.zeros((4, 4), tl.float32))


@triton.jit
def bad_store_shape(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    tl.store(bp, tl.zeros((2, 4), tl.int32))


@triton.jit
def bad_order(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (0, 0))


@triton.jit
def bad_loop_carry(x_ptr, n):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    for i in range(n):
        bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (2, 4), (1, 0))


@triton.jit
def bad_sum(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    s = tl.sum(bp)


@triton.jit
def bad_atomic(x_ptr):
    bp = tl.make_block_ptr(x_ptr, (4, 4), (4, 1), (0, 0), (4, 4), (1, 0))
    tl.atomic_add(bp, 1)


@triton.jit
def wide_index(x_ptr, out_ptr, cols, BIG: tl.constexpr):
    # 64-bit index arithmetic: the row stride BIG (a constexpr past int32) and `cols` (64-bit
    # when the caller passes a value past int32); the one real row is x, row 1 is masked
    bp = tl.make_block_ptr(x_ptr, (1, cols), (BIG, 1), (0, 2), (2, 4), (1, 0))
    x = tl.load(bp, boundary_check=(0, 1))
    r = tl.arange(0, 2)[:, None] * 4 + tl.arange(0, 4)[None, :]
    tl.store(out_ptr + r, x)
