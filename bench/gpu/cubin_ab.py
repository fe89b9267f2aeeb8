# What matmul_cubin.py, add_cubin.py and attention_ab.py share: a kernel of a tritonc cubin
# loaded into the current (torch's) context through libcuda, and the two ways they time
# tritonc against Triton. The GPU's clock falls as it heats under load, so whichever kernel
# runs second is slowed: mirrored_rounds() runs tritonc, Triton, Triton, tritonc and pairs
# them mirrored; interleaved() alternates single runs, which leaves the GPU no time to change
# between the two.
import ctypes, sys

cu = ctypes.CDLL("libcuda.so.1")


def ok(r, what):
    if r:
        sys.exit(f"{what}: CUresult {r}")


def load_function(cubin, name):
    """kernel `name` (bytes) of the cubin file at path `cubin`"""
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    ok(cu.cuModuleLoadData(ctypes.byref(mod), open(cubin, "rb").read()), "cuModuleLoadData")
    ok(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name), "cuModuleGetFunction")
    return fn


def mirrored_rounds(bench, run_tritonc, run_triton, rounds):
    """per round, as it ends: tritonc's two times, Triton's two (bench's unit) and the ratio
    of Triton's sum to tritonc's (> 1: tritonc faster)"""
    for _ in range(rounds):
        t1, p1, p2, t2 = (bench(f) for f in (run_tritonc, run_triton, run_triton, run_tritonc))
        yield t1, t2, p1, p2, (p1 + p2) / (t1 + t2)


def interleaved(run_tritonc, run_triton, pairs=None, warm_s=None):
    """Both kernels timed in alternation, one run each per pair (tritonc first in even pairs,
    Triton first in odd ones), each run after the L2 flush do_bench does and timed by CUDA
    events, so that both see the GPU at the same clock: mirrored rounds of 100 ms each still
    compare two moments of a GPU whose clock falls, at its power limit, within a second
    (bench/results/gpu-2026-12-03.md §6). A warm-up of warm_s seconds (env WARM_S, default 2)
    brings the GPU to that steady state first. Returns tritonc's and Triton's median times (ms),
    the quartiles of the pairs' ratios, Triton's time over tritonc's (> 1: tritonc faster), and
    the median ratio of the pairs where tritonc ran first and of those where Triton did."""
    import os, time, torch
    pairs = pairs or int(os.environ.get("PAIRS", "400"))
    warm_s = float(os.environ.get("WARM_S", "2")) if warm_s is None else warm_s
    flush = torch.empty(int(256e6 // 4), dtype=torch.int, device="cuda")
    t0 = time.time()
    while time.time() - t0 < warm_s:
        for _ in range(10):
            run_tritonc(); run_triton()
        torch.cuda.synchronize()
    ev = [[torch.cuda.Event(enable_timing=True) for _ in range(4)] for _ in range(pairs)]
    for i, (s1, e1, s2, e2) in enumerate(ev):
        first, second = (run_tritonc, run_triton) if i % 2 == 0 else (run_triton, run_tritonc)
        flush.zero_(); s1.record(); first(); e1.record()
        flush.zero_(); s2.record(); second(); e2.record()
    torch.cuda.synchronize()
    tc, tr, ratio, order = [], [], [], ([], [])
    for i, (s1, e1, s2, e2) in enumerate(ev):
        a, b = s1.elapsed_time(e1), s2.elapsed_time(e2)
        if i % 2:
            a, b = b, a
        tc.append(a); tr.append(b); ratio.append(b / a); order[i % 2].append(b / a)
    for x in (tc, tr, ratio) + order:
        x.sort()
    q = lambda x, f: x[int(f * (len(x) - 1))]
    return (q(tc, 0.5), q(tr, 0.5), (q(ratio, 0.25), q(ratio, 0.5), q(ratio, 0.75)),
            (q(order[0], 0.5), q(order[1], 0.5)))
