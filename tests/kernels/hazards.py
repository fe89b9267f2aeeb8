# Kernels for `tritonc check` (tests/test_check.c): each hazard a GPU would expose and the
# interpreter alone would not, and clean kernels that must not raise false alarms.
# Line numbers matter: test_check.c checks the reported file:line:col.
import triton
import triton.language as tl


@triton.jit
def all_write_first_block(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # every program writes out[0:BLOCK]: two programs write the same element
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x)


@triton.jit
def read_neighbour_output(x_ptr, out_ptr, y_ptr, BLOCK: tl.constexpr):
    # each program writes its block of out, then reads the next program's block of out
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1.0)
    nxt = (offs + BLOCK) % (BLOCK * tl.num_programs(0))
    tl.store(y_ptr + offs, tl.load(out_ptr + nxt))


@triton.jit
def shift_without_barrier(x_ptr, tmp_ptr, out_ptr, BLOCK: tl.constexpr):
    # the chapter's trap: lane i reads what lane i+1 stored, with no barrier between
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(tmp_ptr + offs, tl.load(x_ptr + offs))
    nb = tl.load(tmp_ptr + pid * BLOCK + (tl.arange(0, BLOCK) + 1) % BLOCK)
    tl.store(out_ptr + offs, nb)


@triton.jit
def shift_with_barrier(x_ptr, tmp_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(tmp_ptr + offs, tl.load(x_ptr + offs))
    tl.debug_barrier()
    nb = tl.load(tmp_ptr + pid * BLOCK + (tl.arange(0, BLOCK) + 1) % BLOCK)
    tl.store(out_ptr + offs, nb)


@triton.jit
def same_lane_reload(x_ptr, tmp_ptr, out_ptr, BLOCK: tl.constexpr):
    # store then load of the same elements by the same lanes: only a note
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(tmp_ptr + offs, tl.load(x_ptr + offs) * 2.0)
    tl.store(out_ptr + offs, tl.load(tmp_ptr + offs) + 1.0)


@triton.jit
def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def log_of(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.log(x)
    tl.store(out_ptr + offs, y * 2.0, mask=mask)


@triton.jit
def ratio(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    r = x / y
    tl.store(out_ptr + offs, r * 0.5 + 1.0, mask=mask)


@triton.jit
def int_div(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, x // y, mask=mask)


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def stencil(x_ptr, out_ptr, n, PER: tl.constexpr, BLOCK: tl.constexpr):
    # program p writes out[p*PER : p*PER+PER] (BLOCK lanes, the last ones masked off), right
    # next to its neighbours' ranges, and reads x around them (overlapping reads are fine)
    offs = tl.program_id(0) * PER + tl.arange(0, BLOCK)
    mask = (tl.arange(0, BLOCK) < PER) & (offs < n)
    left = tl.load(x_ptr + offs - 1, mask=mask & (offs > 0), other=0.0)
    mid = tl.load(x_ptr + offs, mask=mask, other=0.0)
    right = tl.load(x_ptr + offs + 1, mask=mask & (offs + 1 < n), other=0.0)
    tl.store(out_ptr + offs, left + mid + right, mask=mask)


@triton.jit
def count_atomic(counter_ptr, sum_ptr, x_ptr, BLOCK: tl.constexpr):
    # many programs add into one counter and one float sum, atomically
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(counter_ptr, 1)
    tl.atomic_add(sum_ptr, tl.sum(tl.load(x_ptr + offs), axis=0))


@triton.jit
def counter_rmw(counter_ptr):
    # non-atomic read-modify-write of one cell: the result depends on the program order
    c = tl.load(counter_ptr)
    tl.store(counter_ptr, c * 2 + tl.program_id(0))


@triton.jit
def atomic_then_read(counter_ptr, out_ptr):
    # an atomic increment, then a plain load of the counter: not both atomics
    tl.atomic_add(counter_ptr, 1)
    tl.store(out_ptr + tl.program_id(0), tl.load(counter_ptr))


@triton.jit
def print_pid(x_ptr):
    tl.device_print("pid", tl.program_id(0))


@triton.jit
def scatter_halves(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # lanes 2i and 2i+1 store different values to out[i] (a scatter that needed an atomic)
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs // 2, tl.load(x_ptr + offs))


@triton.jit
def scatter_same(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # lanes 2i and 2i+1 store the same value to out[i]: harmless
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs // 2, tl.load(x_ptr + offs // 2))


@triton.jit
def tile_reload(x_ptr, tmp_ptr, out_ptr, M, N, SHIFT: tl.constexpr, BM: tl.constexpr,
                BN: tl.constexpr):
    # a 2-D tile of a 16-wide matrix, masked at its edges, stored and read back: by the same
    # lanes (SHIFT=0: a note) or by the lanes of the next column (SHIFT=1: a hazard)
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    offs = rm * 16 + rn
    tl.store(tmp_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0, mask=mask)
    tl.store(out_ptr + offs, tl.load(tmp_ptr + offs + SHIFT, mask=mask) * 2.0, mask=mask)


@triton.jit
def copy_range(x_ptr, out_ptr, start, n, BLOCK: tl.constexpr):
    # out[start:start+n] = x[start:start+n]: accesses that begin at any element (any byte
    # offset for 1- and 2-byte elements); n == BLOCK is one unmasked contiguous access
    offs = start + tl.arange(0, BLOCK)
    mask = tl.arange(0, BLOCK) < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
