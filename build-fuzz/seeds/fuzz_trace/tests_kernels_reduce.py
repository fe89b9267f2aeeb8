# Reductions: sum/max/min/argmax/argmin over axis 0, 1 and None, keep_dims, result dtypes.
import triton
import triton.language as tl


@triton.jit
def reduce2d_kernel(x_ptr, sum0_ptr, sum1_ptr, sumall_ptr, max0_ptr, max1_ptr, min0_ptr, min1_ptr,
                    amax0_ptr, amax1_ptr, amin0_ptr, amin1_ptr, maxall_ptr, aminall_ptr,
                    M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(sum0_ptr + rn, tl.sum(x, axis=0))
    tl.store(sum1_ptr + rm, tl.sum(x, axis=1))
    tl.store(sumall_ptr, tl.sum(x))
    tl.store(max0_ptr + rn, tl.max(x, axis=0))
    tl.store(max1_ptr + rm, tl.max(x, 1))
    tl.store(min0_ptr + rn, tl.min(x, axis=0))
    tl.store(min1_ptr + rm, x.min(axis=1))
    tl.store(amax0_ptr + rn, tl.argmax(x, axis=0))
    tl.store(amax1_ptr + rm, tl.argmax(x, axis=1))
    tl.store(amin0_ptr + rn, tl.argmin(x, axis=0))
    tl.store(amin1_ptr + rm, tl.argmin(x, axis=-1))
    tl.store(maxall_ptr, tl.max(x, axis=None))
    tl.store(aminall_ptr, tl.argmin(tl.reshape(x, (M * N,)), axis=0))


@triton.jit
def keepdims_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    s = tl.sum(x, axis=1, keep_dims=True)
    tl.static_assert(s.shape[0] == M)
    tl.static_assert(s.shape[1] == 1)
    mx = tl.max(x, axis=0, keep_dims=True)
    tl.static_assert(mx.shape[0] == 1)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], x * 1000 - s + mx)


@triton.jit
def reduce_dtypes_kernel(xh_ptr, xi8_ptr, maxh_ptr, sumh_ptr, sumi8_ptr, maxi8_ptr,
                         BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    xh = tl.load(xh_ptr + offs)
    m = tl.max(xh, axis=0)
    tl.static_assert(m.dtype == tl.float32)
    s = tl.sum(xh, axis=0)
    tl.static_assert(s.dtype == tl.float16)
    tl.store(maxh_ptr, m)
    tl.store(sumh_ptr, s)
    xi = tl.load(xi8_ptr + offs)
    si = tl.sum(xi, axis=0)
    tl.static_assert(si.dtype == tl.int32)
    tl.store(sumi8_ptr, si)
    mi = tl.max(xi, axis=0)
    tl.static_assert(mi.dtype == tl.int32)
    tl.store(maxi8_ptr, mi)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))
