# The kernels of the README's command-line examples (tritonc run, check, bench, compile).
# Plain Triton: the same file works under Triton.
import triton
import triton.language as tl


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


@triton.jit
def add_racy(x, y, out, n, BLOCK: tl.constexpr):
    # the mistake `tritonc check` is for: the program id is forgotten, so every program
    # reads and writes the same first BLOCK elements (a race between programs on a GPU)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)
