# Atomics: add from many programs, max/min (int and float), a CAS spin lock, xchg.
import triton
import triton.language as tl


@triton.jit
def atomic_counter_kernel(cnt_ptr, ticket_ptr, hist_ptr, masked_ptr, x_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    t = tl.atomic_add(cnt_ptr, 1)
    tl.store(ticket_ptr + pid, t)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.atomic_add(hist_ptr + (x % 8), 1)
    tl.atomic_add(cnt_ptr + 1, tl.sum(x, axis=0))
    lanes = tl.arange(0, BLOCK)
    tl.atomic_add(masked_ptr + lanes, 1, mask=lanes < 5)


@triton.jit
def atomic_minmax_kernel(x_ptr, fx_ptr, imax_ptr, imin_ptr, fmax_ptr, fmin_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.atomic_max(imax_ptr, tl.max(x, axis=0))
    tl.atomic_min(imin_ptr, tl.min(x, axis=0))
    fx = tl.load(fx_ptr + offs)
    lanes = tl.arange(0, BLOCK)
    tl.atomic_max(fmax_ptr + lanes, fx)
    tl.atomic_min(fmin_ptr + lanes, fx)


@triton.jit
def atomic_fadd_kernel(x_ptr, sum_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    tl.atomic_add(sum_ptr + tl.arange(0, BLOCK), x)


@triton.jit
def lock_kernel(lock_ptr, count_ptr, out_ptr):
    pid = tl.program_id(0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    c = tl.load(count_ptr)
    tl.store(out_ptr + pid, c)
    tl.store(count_ptr, c + 1)
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def xchg_kernel(ptr, old_ptr):
    pid = tl.program_id(0)
    old = tl.atomic_xchg(ptr, pid + 100)
    tl.store(old_ptr + pid, old)


@triton.jit
def cas_kernel(ptr, out_ptr):
    a = tl.atomic_cas(ptr, 5, 9)
    b = tl.atomic_cas(ptr, 5, 11)
    tl.store(out_ptr, a)
    tl.store(out_ptr + 1, b)
