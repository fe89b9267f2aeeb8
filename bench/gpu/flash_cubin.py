# Times tritonc's cubin of tests/kernels/flash_fwd.py (flash attention's forward with plain
# pointers: cp.async copies, no descriptors) against Triton's kernel of the same file in one
# process, as matmul_cubin.py times the matmul: both results checked against torch in fp32
# first, then mirrored rounds and interleaved single runs (cubin_ab.py). Each cubin is given
# as LABEL:SHARED_BYTES:PATH; every one is timed against Triton the same way (e.g. an older
# build's beside the current one).
# Usage: flash_cubin.py N_CTX HEAD_DIM BM BN WARPS STAGES LABEL:SHARED:CUBIN...
import ctypes, importlib.util, os, sys
import torch, triton
from cubin_ab import cu, ok, load_function, mirrored_rounds, interleaved
N, D, BM, BN, W, S = (int(x) for x in sys.argv[1:7])
cubins = [a.split(":", 2) for a in sys.argv[7:]]
spec = importlib.util.spec_from_file_location("fa", os.path.join(os.path.dirname(__file__), "../../tests/kernels/flash_fwd.py"))
fa = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fa)
torch.manual_seed(0)
q, k, v = (torch.randn((N, D), device="cuda", dtype=torch.float16) for _ in range(3))
o = torch.empty_like(q)
scale = D ** -0.5
torch.cuda.synchronize()   # torch's context is current: the modules load into it
grid = N // BM
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
vals = [ctypes.c_uint64(t.data_ptr()) for t in (q, k, v, o)] + [ctypes.c_float(scale), ctypes.c_int32(D)]
params = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(x), ctypes.c_void_p) for x in vals])
def launcher(shared, path):
    shared = int(shared)
    fn = load_function(path, b"fa_fwd")
    ok(cu.cuFuncSetAttribute(fn, 8, shared), "cuFuncSetAttribute")   # MAX_DYNAMIC_SHARED_SIZE_BYTES
    return lambda: ok(cu.cuLaunchKernel(fn, grid, 1, 1, W * 32, 1, 1, shared, stream, params, None), "cuLaunchKernel")
def run_triton():
    fa.fa_fwd[(grid,)](q, k, v, o, scale, D, N_CTX=N, HEAD_DIM=D, BLOCK_M=BM, BLOCK_N=BN, num_warps=W, num_stages=S)
ref = torch.softmax((q.float() @ k.float().T) * scale, dim=1) @ v.float()
runs = [(name, launcher(shared, path)) for name, shared, path in cubins]
for name, f in runs + [("triton", run_triton)]:
    o.zero_(); f(); torch.cuda.synchronize()
    err = (o.float() - ref).abs().max().item()
    print(f"{name} maxerr={err:.3g}")
    if not err <= 1e-2:   # fp16 rows of a softmax average: a few 1e-5 when right
        sys.exit(f"flash_cubin.py: {name}'s result is off by {err:.3g}")
flops = 4 * N * N * D
line = f"N_CTX {N} D {D} {BM}x{BN} w{W} s{S}"
for name, f in runs:
    ratios = sorted(r[4] for r in mirrored_rounds(triton.testing.do_bench, f, run_triton, int(os.environ.get("ROUNDS", "3"))))
    tc, tr, (q1, q2, q3), _ = interleaved(f, run_triton)
    print(f"flash-{name},{line},rounds median {ratios[len(ratios) // 2]:.3f},interleaved "
          f"{flops / tc * 1e-9:.1f} vs triton {flops / tr * 1e-9:.1f} TFLOP/s,median ratio {q2:.3f},quartiles {q1:.3f} {q3:.3f}")
