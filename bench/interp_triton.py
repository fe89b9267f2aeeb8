"""Triton's own interpreter (TRITON_INTERPRET=1) on bench/interp.sh's three kernels, so that
tritonc's interpreter can be compared on the same machine in the same run.

Usage: TRITON_INTERPRET=1 python3 bench/interp_triton.py   (prints one line per kernel:
kernel, best of 3 wall seconds for the launch alone)."""
import os
import sys
import time

os.environ.setdefault("TRITON_INTERPRET", "1")
import torch  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "kernels"))
from matmul import matmul_kernel  # noqa: E402
from softmax import softmax_kernel  # noqa: E402
from vector_add import add_kernel  # noqa: E402


def best(fn, reps=3):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


n = 1 << 20
x, y = torch.rand(n), torch.rand(n)
out = torch.empty(n)
t_add = best(lambda: add_kernel[(n // 1024,)](x, y, out, n, BLOCK_SIZE=1024))
assert torch.allclose(out, x + y)
print(f"triton-interpreter vector_add {t_add:.4f}", flush=True)

rows, cols = 256, 1024
a = torch.randn(rows, cols)
o = torch.empty(rows, cols)
try:  # tutorial 02's persistent loop: `tl.range(row_start, n_rows, row_step)` over arguments
    t_sm = best(lambda: softmax_kernel[(rows,)](o, a, cols, cols, rows, cols, BLOCK_SIZE=1024,
                                                num_stages=3))
    assert torch.allclose(o, torch.softmax(a, dim=1), atol=1e-6)
    print(f"triton-interpreter softmax {t_sm:.4f}")
except Exception as e:  # noqa: BLE001 - report whatever Triton's interpreter raises
    print(f"triton-interpreter softmax failed: {type(e).__name__}: {str(e).splitlines()[-1]}")

S = 1024
ha, hb = torch.randn(S, S, dtype=torch.float16), torch.randn(S, S, dtype=torch.float16)
hc = torch.empty(S, S, dtype=torch.float16)
t_mm = best(lambda: matmul_kernel[(S // 64 * S // 64,)](ha, hb, hc, S, S, S, S, 1, S, 1, S, 1,
                                                      BLOCK_M=64, BLOCK_N=64, BLOCK_K=32), reps=1)
assert torch.allclose(hc.float(), ha.float() @ hb.float(), atol=0.5, rtol=1e-2)
print(f"triton-interpreter matmul {t_mm:.4f}")
