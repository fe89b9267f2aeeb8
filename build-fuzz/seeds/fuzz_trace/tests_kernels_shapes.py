# Broadcasting and shape manipulation.
import triton
import triton.language as tl


@triton.jit
def outer_kernel(x_ptr, y_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm)
    y = tl.load(y_ptr + rn)
    z = x[:, None] * 10 + y[None, :]
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], z)


@triton.jit
def reshape_kernel(out_ptr, out2_ptr):
    r = tl.reshape(tl.arange(0, 32), (4, 8))
    rm = tl.arange(0, 4)
    rn = tl.arange(0, 8)
    tl.store(out_ptr + rm[:, None] * 8 + rn[None, :], r * 2)
    tl.store(out2_ptr + rm, tl.sum(r, axis=1))


@triton.jit
def trans_kernel(x_ptr, out_ptr, out_t_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    t = tl.trans(x)
    tl.static_assert(t.shape[0] == N)
    tl.store(out_ptr + rn[:, None] * M + rm[None, :], t)
    tl.store(out_t_ptr + rn[:, None] * M + rm[None, :], x.T + 1)


@triton.jit
def permute_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ra = tl.arange(0, A)
    rb = tl.arange(0, B)
    rc = tl.arange(0, C)
    offs = ra[:, None, None] * (B * C) + rb[None, :, None] * C + rc[None, None, :]
    x = tl.load(x_ptr + offs)
    y = tl.permute(x, (2, 0, 1))
    out_offs = rc[:, None, None] * (A * B) + ra[None, :, None] * B + rb[None, None, :]
    tl.store(out_ptr + out_offs, y)


@triton.jit
def expand_kernel(x_ptr, out_ptr, out2_ptr, N: tl.constexpr, R: tl.constexpr):
    rn = tl.arange(0, N)
    rr = tl.arange(0, R)
    x = tl.load(x_ptr + rn)
    e = tl.expand_dims(x, 0)
    tl.static_assert(e.shape[0] == 1)
    b = tl.broadcast_to(e, (R, N))
    tl.store(out_ptr + rr[:, None] * N + rn[None, :], b + rr[:, None])
    c = tl.expand_dims(x, 1)
    tl.store(out2_ptr + rn[:, None] * R + rr[None, :], tl.broadcast_to(c, (N, R)) * (rr[None, :] + 1))


@triton.jit
def arange_start_kernel(out_ptr):
    tl.store(out_ptr + tl.arange(0, 8), tl.arange(7, 15))
    tl.store(out_ptr + 8 + tl.arange(0, 4), tl.full((4,), -3, tl.int32))
    tl.store(out_ptr + 12 + tl.arange(0, 4), tl.zeros((4,), dtype=tl.int32) + 5)
