# Times tritonc's vector add (cubins from `tritonc compile kernels.py add_kernel --emit cubin`,
# as add_ab.sh makes them) and Triton's, in one process under one harness
# (triton.testing.do_bench: L2 flushed by a torch kernel before each run, CUDA events), so that
# a difference between bench.c's timing and do_bench cannot pass for a kernel's. Mirrored
# rounds (cubin_ab.py), results checked against torch first.
# Usage: add_cubin.py DIR LOG2N... (DIR holds add-w{1,2,4,8}.cubin)
import ctypes, importlib.util, os, sys
import torch, triton
from triton.testing import do_bench
from cubin_ab import cu, ok, load_function, mirrored_rounds, interleaved

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_kernels", os.path.join(HERE, "kernels.py"))
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)

torch.cuda.synchronize()   # torch's context is current: the modules load into it
d = sys.argv[1]
fns = {nw: load_function(f"{d}/add-w{nw}.cubin", b"add_kernel") for nw in (1, 2, 4, 8)}
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
for lg in (int(x) for x in sys.argv[2:]):
    n = 1 << lg
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    o = torch.empty_like(x)
    grid = triton.cdiv(n, 1024)
    vals = [ctypes.c_uint64(x.data_ptr()), ctypes.c_uint64(y.data_ptr()), ctypes.c_uint64(o.data_ptr()),
            ctypes.c_int32(n)]
    params = (ctypes.c_void_p * 4)(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
    for nw in (1, 2, 4, 8):
        def run_tritonc():
            ok(cu.cuLaunchKernel(fns[nw], grid, 1, 1, nw * 32, 1, 1, 0, stream, params, None), "cuLaunchKernel")

        def run_triton():
            K.add_kernel[(grid,)](x, y, o, n, BLOCK_SIZE=1024, num_warps=nw)
        checks = []
        for f in (run_tritonc, run_triton):
            o.zero_(); f(); torch.cuda.synchronize()
            checks.append("ok" if torch.equal(o, x + y) else "FAIL")
        ratios, times = [], []
        for t1, t2, p1, p2, ratio in mirrored_rounds(do_bench, run_tritonc, run_triton, 3):
            ratios.append(ratio)
            times.append((t1 + t2) / 2 * 1e3)
            times.append((p1 + p2) / 2 * 1e3)
        ratios.sort()
        print(f"add-same-harness,2^{lg},w{nw},tritonc/triton {checks[0]}/{checks[1]},"
              f"us (tritonc triton per round) {' '.join(f'{t:.2f}' for t in times)},"
              f"median ratio {ratios[1]:.3f},rounds {' '.join(f'{r:.3f}' for r in ratios)}", flush=True)
        tc, tr, (q1, q2, q3), (o1, o2) = interleaved(run_tritonc, run_triton, warm_s=0.5)
        print(f"add-interleaved,2^{lg},w{nw},us {tc * 1e3:.2f} {tr * 1e3:.2f},median ratio {q2:.3f},"
              f"quartiles {q1:.3f} {q3:.3f},tritonc first {o1:.3f},triton first {o2:.3f}", flush=True)
