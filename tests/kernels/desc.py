# Tensor descriptors given as kernel arguments (tests/test_desc.c).
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def tile_copy(src_desc, dst_desc, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # copies src into dst one block at a time, adding 1; tiles past the edge are partial
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tile = src_desc.load([pid_m * BM, pid_n * BN])
    dst_desc.store([pid_m * BM, pid_n * BN], tile + 1)


@triton.jit
def desc_info(d, out_ptr):
    # the descriptor's attributes as the tracer sees them
    tl.static_assert(isinstance(d, tl.tensor_descriptor))
    tl.static_assert(not isinstance(d, tl.tensor))
    bs = d.block_shape
    tl.store(out_ptr + 0, bs[0])
    tl.store(out_ptr + 1, bs[1])
    tl.store(out_ptr + 2, d.shape[0])
    tl.store(out_ptr + 3, d.shape[1])
    tl.store(out_ptr + 4, d.strides[0])
    tl.store(out_ptr + 5, d.strides[1])
    tl.store(out_ptr + 6, d.dtype == tl.float16)


@triton.jit
def row_sum(d, out_ptr, off):
    # a 1-D descriptor read at a runtime offset that may be negative or past the end
    x = d.load([off])
    tl.store(out_ptr + tl.arange(0, d.block_shape[0]), x)


@triton.jit
def as_pointer(d, out_ptr):
    x = tl.load(d + tl.arange(0, 4))
    tl.store(out_ptr + tl.arange(0, 4), x)


@triton.jit
def bad_store(d):
    d.store([0, 0], tl.zeros([2, 2], tl.float32))


@triton.jit
def bad_rank(d):
    x = d.load([0])


def _set_block(nargs):
    # Triton's tutorial pattern: the pre_hook fixes the descriptor's block shape per config
    if not isinstance(nargs["x_desc"], TensorDescriptor):
        return
    if nargs["N"] == 99:
        nargs["x_desc"].block_shape = [nargs["BM"]]
    nargs["x_desc"].block_shape = [nargs["BM"], nargs["BN"]]
    nargs["y_desc"].block_shape = [nargs["BM"], nargs["BN"]]


@triton.autotune(configs=[triton.Config({"BM": 4, "BN": 2}, pre_hook=_set_block)], key=["M"])
@triton.jit
def hooked_copy(x_desc, y_desc, M, N, BM: tl.constexpr, BN: tl.constexpr):
    tl.static_assert(x_desc.block_shape[0] == BM)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    y_desc.store([pid_m * BM, pid_n * BN], x_desc.load([pid_m * BM, pid_n * BN]) * 2)


@triton.jit
def _as_desc(desc_or_ptr, shape, strides, block_shape):
    # a host descriptor is used as it is; a pointer gets a descriptor made in the kernel
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)


@triton.jit
def made_copy(x, y, M, N, stride_m, BM: tl.constexpr, BN: tl.constexpr):
    # x, y: pointers or host descriptors; the tiles transposed into y (N x M)
    xd = _as_desc(x, [M, N], [stride_m, 1], [BM, BN])
    yd = _as_desc(y, [N, M], [M, 1], [BN, BM])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tile = xd.load([pid_m * BM, pid_n * BN])
    yd.store([pid_n * BN, pid_m * BM], tile.T)


@triton.jit
def bad_make(d, out_ptr):
    e = tl.make_tensor_descriptor(out_ptr, [4, 4], [4, 2], [4, 4])


# two configs: tuning compiles each after its pre_hook has set the block shapes
@triton.autotune(configs=[triton.Config({"BM": 4, "BN": 2}, pre_hook=_set_block),
                          triton.Config({"BM": 2, "BN": 4}, pre_hook=_set_block)], key=["M"])
@triton.jit
def hooked_copy_tuned(x_desc, y_desc, M, N, BM: tl.constexpr, BN: tl.constexpr):
    tl.static_assert(x_desc.block_shape[0] == BM)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    y_desc.store([pid_m * BM, pid_n * BN], x_desc.load([pid_m * BM, pid_n * BN]) * 2)
