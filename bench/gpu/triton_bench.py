"""Triton side of bench/gpu: the same kernels (kernels.py), sizes and num_warps as bench.c,
timed with triton.testing.do_bench (mean, L2 flushed before each run). CSV on stdout:
tool,kernel,shape,num_warps,ms,GB/s,check"""
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

import torch
import triton
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_kernels", os.path.join(HERE, "kernels.py"))
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)


def out(*f):
    print(",".join(str(x) for x in f), flush=True)


def bench_add():
    for lg in (20, 24, 28):
        n = 1 << lg
        x = torch.rand(n, device="cuda")
        y = torch.rand(n, device="cuda")
        o = torch.empty_like(x)
        grid = (triton.cdiv(n, 1024),)
        for nw in (1, 2, 4, 8):
            fn = lambda: K.add_kernel[grid](x, y, o, n, BLOCK_SIZE=1024, num_warps=nw)
            r = fn().n_regs
            ok = torch.equal(o, x + y)
            ms = do_bench(fn)
            out("triton", "add", n, nw, f"{ms:.5f}", f"{3 * n * 4 / (ms * 1e-3) / 1e9:.1f}", f"{'ok' if ok else 'FAIL'} r{r}")
        del x, y, o


SHAPES = [(4096, 4096), (16384, 1024), (4096, 16384)]


def bench_softmax():
    for M, N in SHAPES:
        x = torch.randn(M, N, device="cuda")
        o = torch.empty_like(x)
        for nw in (4, 8, 16):
            fn = lambda: K.softmax_kernel[(M,)](o, x, x.stride(0), o.stride(0), N,
                                                BLOCK_SIZE=triton.next_power_of_2(N), num_warps=nw)
            r = fn().n_regs
            ok = torch.allclose(o, torch.softmax(x, dim=1), rtol=1e-4, atol=1e-6)
            ms = do_bench(fn)
            out("triton", "softmax", f"{M}x{N}", nw, f"{ms:.5f}", f"{2 * M * N * 4 / (ms * 1e-3) / 1e9:.1f}",
                f"{'ok' if ok else 'FAIL'} r{r}")


def bench_layernorm():
    for M, N in SHAPES:
        x = torch.randn(M, N, device="cuda")
        w = torch.rand(N, device="cuda")
        b = torch.rand(N, device="cuda")
        y = torch.empty_like(x)
        mean = torch.empty(M, device="cuda")
        rstd = torch.empty(M, device="cuda")
        block = min(16384, triton.next_power_of_2(N))
        for nw in (4, 8, 16):
            fn = lambda: K.layer_norm_fwd[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5,
                                                BLOCK_SIZE=block, num_warps=nw)
            r = fn().n_regs
            ref = torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5)
            ok = torch.allclose(y, ref, rtol=1e-4, atol=1e-4)
            ms = do_bench(fn)
            out("triton", "layernorm", f"{M}x{N}", nw, f"{ms:.5f}",
                f"{(2 * M * N + 2 * N + 2 * M) * 4 / (ms * 1e-3) / 1e9:.1f}", f"{'ok' if ok else 'FAIL'} r{r}")


def bench_launch():
    n = 1024
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    o = torch.empty_like(x)
    for _ in range(100):
        K.add_kernel[(1,)](x, y, o, n, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    iters = 20000
    t0 = time.perf_counter()
    for _ in range(iters):
        K.add_kernel[(1,)](x, y, o, n, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    out("triton", "launch_api", n, 4, f"{(t1 - t0) / iters * 1e6:.3f}", "", "us_per_call")
    # the host's own cost, as bench.c measures it: chunks of 250 launches, the
    # synchronization between chunks left out
    chunk, host = 250, 0.0
    for _ in range(iters // chunk):
        torch.cuda.synchronize()
        c0 = time.perf_counter()
        for _ in range(chunk):
            K.add_kernel[(1,)](x, y, o, n, BLOCK_SIZE=1024)
        host += time.perf_counter() - c0
    torch.cuda.synchronize()
    out("triton", "launch_api_host", n, 4, f"{host / iters * 1e6:.3f}", "", f"us_per_call(chunks_of_{chunk})")


COLD = r"""
import importlib.util, sys, time, torch, triton
spec = importlib.util.spec_from_file_location("bench_kernels", sys.argv[1])
K = importlib.util.module_from_spec(spec); spec.loader.exec_module(K)
n = 1 << 20
x = torch.rand(n, device="cuda"); y = torch.rand(n, device="cuda"); o = torch.empty_like(x)
torch.cuda.synchronize()
t0 = time.perf_counter()
K.add_kernel[(n // 1024,)](x, y, o, n, BLOCK_SIZE=1024)
r = o.cpu()
t1 = time.perf_counter()
print(f"{(t1 - t0) * 1e3:.3f}")
"""


def bench_cold():
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, TRITON_CACHE_DIR=d, CUDA_CACHE_DISABLE="1")
        r = subprocess.run([sys.executable, "-c", COLD, os.path.join(HERE, "kernels.py")], env=env,
                           capture_output=True, text=True)
        ms = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "nan"
        out("triton", "cold_compile", 1 << 20, 4, ms, "", "ms_to_first_result")


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}",
          file=sys.stderr)
    for name, f in (("add", bench_add), ("softmax", bench_softmax), ("layernorm", bench_layernorm),
                    ("launch", bench_launch), ("cold", bench_cold)):
        if which in ("all", name):
            f()
