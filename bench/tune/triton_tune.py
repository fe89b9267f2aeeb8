"""Triton's own autotuner on the same kernels and configs as `tritonc tune` (issue 5).

Imports tests/kernels/autotune.py (its @triton.autotune / @triton.heuristics decorators are
Triton's own), runs the first launch of each kernel (which compiles every config and
benchmarks it with triton.testing.do_bench, 25 ms warm-up / 100 ms repetitions) and prints
one JSON line per kernel: the time to tune, the chosen config, and the time of a second
launch with the same key (no tuning).

Usage: python3 bench/tune/triton_tune.py SIZE ROWS COLS   (matmul SIZE^3 fp16; softmax ROWS x COLS fp32)
Run it with a fresh TRITON_CACHE_DIR so that compilation is part of the time, as it is for
tritonc with a fresh TRITONC_CACHE_DIR.
"""
import importlib.util
import json
import os
import sys
import time

import torch
import triton

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "autotune_kernels", os.path.join(here, "..", "..", "tests", "kernels", "autotune.py"))
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)


def cfg_str(c):
    return str(c) if c is not None else "?"


def timed(fn):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    return time.perf_counter() - t0


def matmul(size):
    a = torch.randn((size, size), device="cuda", dtype=torch.float16)
    b = torch.randn((size, size), device="cuda", dtype=torch.float16)
    c = torch.empty((size, size), device="cuda", dtype=torch.float16)
    grid = lambda META: (triton.cdiv(size, META["BLOCK_SIZE_M"]) * triton.cdiv(size, META["BLOCK_SIZE_N"]),)

    def run():
        K.matmul_kernel[grid](a, b, c, size, size, size, a.stride(0), a.stride(1),
                              b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    t_tune = timed(run)
    t_again = timed(run)
    ok = torch.allclose(c.float(), (a.float() @ b.float()), atol=0.5, rtol=0.05)
    best = K.matmul_kernel.best_config
    ms = triton.testing.do_bench(run)
    return {"kernel": "matmul_kernel", "size": f"{size}^3 fp16", "tune_s": t_tune, "again_s": t_again,
            "best": cfg_str(best), "best_ms": ms, "tflops": 2 * size ** 3 / (ms * 1e-3) / 1e12,
            "correct": bool(ok),
            "timings": {str(k): list(v) if isinstance(v, (list, tuple)) else v
                        for k, v in (K.matmul_kernel.configs_timings or {}).items()}}


def softmax(rows, cols):
    x = torch.randn((rows, cols), device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)

    def run():
        K.softmax_kernel[(rows,)](y, x, x.stride(0), y.stride(0), cols)
    t_tune = timed(run)
    t_again = timed(run)
    ok = torch.allclose(y, torch.softmax(x, dim=1), atol=1e-5)
    best = K.softmax_kernel.best_config
    ms = triton.testing.do_bench(run)
    return {"kernel": "softmax_kernel", "size": f"{rows}x{cols} fp32", "tune_s": t_tune, "again_s": t_again,
            "best": cfg_str(best), "best_ms": ms, "gbs": 2 * rows * cols * 4 / (ms * 1e-3) / 1e9,
            "correct": bool(ok),
            "timings": {str(k): list(v) if isinstance(v, (list, tuple)) else v
                        for k, v in (K.softmax_kernel.configs_timings or {}).items()}}


def main():
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
    cols = int(sys.argv[3]) if len(sys.argv) > 3 else 4096
    print(json.dumps({"triton": triton.__version__, "torch": torch.__version__,
                      "device": torch.cuda.get_device_name(0)}))
    for f in (lambda: matmul(size), lambda: softmax(rows, cols)):
        try:
            print(json.dumps(f()), flush=True)
        except Exception as e:  # report, keep going
            print(json.dumps({"error": f"{type(e).__name__}: {e}"}), flush=True)


if __name__ == "__main__":
    main()
