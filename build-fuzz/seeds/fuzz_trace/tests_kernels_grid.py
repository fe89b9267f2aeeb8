# 2-D and 3-D grids, program order, device_print.
import triton
import triton.language as tl


@triton.jit
def grid3d_kernel(out_ptr, order_ptr, cnt_ptr):
    p0 = tl.program_id(0)
    p1 = tl.program_id(axis=1)
    p2 = tl.program_id(2)
    n0 = tl.num_programs(0)
    n1 = tl.num_programs(1)
    n2 = tl.num_programs(2)
    idx = (p0 * n1 + p1) * n2 + p2
    base = out_ptr + idx * 4
    tl.store(base, p0)
    tl.store(base + 1, p1)
    tl.store(base + 2, p2)
    tl.store(base + 3, n0 * 100 + n1 * 10 + n2)
    t = tl.atomic_add(cnt_ptr, 1)
    tl.store(order_ptr + idx, t)


@triton.jit
def tile2d_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offs = rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, x * 2 + pid_m * 1000 + pid_n, mask=mask)


@triton.jit
def print_kernel(x_ptr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid)
    tl.device_print("val", x)
