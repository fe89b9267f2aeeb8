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
    # descriptors made in the kernel: ordinary loads and stores on every target (for now)
    xd = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN])
    yd = tl.make_tensor_descriptor(y, [M, N], [N, 1], [BM, BN])
    m = tl.program_id(0) * BM
    yd.store([m, 0], xd.load([m, 0]) + 1)
