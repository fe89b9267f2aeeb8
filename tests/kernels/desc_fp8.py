# A tensor descriptor over fp8 data, as tutorial 06's fp8 forward reads q, k and the
# transposed v: desc.load of a block partly out of bounds (zeros there), widened to fp32.
import triton
import triton.language as tl


@triton.jit
def fp8_block_to_fp32(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    x = desc.load([tl.program_id(0) * BM, 0])
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    tl.store(out_ptr + tl.program_id(0) * BM * BN + rows[:, None] * BN + cols[None, :], x.to(tl.float32))
