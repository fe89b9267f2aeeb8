# Times tritonc's compiled matmul (a cubin from `tritonc compile ... --emit cubin`, as
# bench/gpu/matmul_ab.sh makes it) and Triton's, one after the other in the same process under
# the same harness (triton.testing.do_bench: L2 flushed by a torch kernel before each run, CUDA
# events), so that a difference between `tritonc bench` and do_bench cannot pass for a
# kernel's, in rounds that cancel the GPU's warming (below); cuBLAS (torch.matmul) last, as the
# next mark. Both results are checked against torch.matmul in fp32 at full size first. The
# cubin is launched through libcuda by ctypes; its parameters are bench/gpu/matmul.py's less
# the strides specialized to 1 (stride_ak, stride_bn and stride_cn; for float8_e5m2, which
# runs as tutorial 03 runs fp8, B given transposed, stride_bk instead of stride_bn).
# DISABLE_MMA_V3=1 in the environment puts Triton on its mma.sync path (compile the cubin with
# it too). TUNED=<tutorial 03's file>: Triton runs that file's autotuned matmul_kernel (its
# own choice) instead of this config (matmul_tuned.sh). Usage: matmul_cubin.py CUBIN SHARED_BYTES M N K DTYPE BM BN BK GROUP WARPS STAGES
import ctypes, os, sys
import torch, triton
from matmul_args import kernel, inputs
from cubin_ab import cu, ok, load_function, mirrored_rounds, interleaved
cubin, shared = sys.argv[1], int(sys.argv[2])
M, N, K = (int(x) for x in sys.argv[3:6]); dts = sys.argv[6]; dt = getattr(torch, dts)
BM, BN, BK, GM, W, S = (int(x) for x in sys.argv[7:13])
matmul_kernel = kernel()
f8 = dt == torch.float8_e5m2
a, b, c = inputs(M, N, K, dt)
torch.cuda.synchronize()   # torch's context is current: the module loads into it
fn = load_function(cubin, b"matmul_kernel")
ok(cu.cuFuncSetAttribute(fn, 8, shared), "cuFuncSetAttribute")   # MAX_DYNAMIC_SHARED_SIZE_BYTES
strides = [a.stride(0), b.stride(1) if f8 else b.stride(0), c.stride(0)]
vals = [ctypes.c_uint64(a.data_ptr()), ctypes.c_uint64(b.data_ptr()), ctypes.c_uint64(c.data_ptr()),
        ctypes.c_int32(M), ctypes.c_int32(N), ctypes.c_int32(K)] + [ctypes.c_int32(s) for s in strides]
params = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
grid = triton.cdiv(M, BM) * triton.cdiv(N, BN)
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
def run_tritonc():
    ok(cu.cuLaunchKernel(fn, grid, 1, 1, W * 32, 1, 1, shared, stream, params, None), "cuLaunchKernel")
def run_triton():
    matmul_kernel[(grid,)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                           c.stride(0), c.stride(1), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK,
                           GROUP_SIZE_M=GM, ACTIVATION="", num_warps=W, num_stages=S)
if os.environ.get("TUNED"):
    # the file's definitions (everything before its host function `matmul`), not its tests
    src = open(os.environ["TUNED"]).read()
    env = {"__name__": "tutorial03"}
    exec(compile(src[:src.index("\ndef matmul(")], os.environ["TUNED"], "exec"), env)
    tuned = env["matmul_kernel"]
    def run_triton():
        tuned[lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)](
            a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
            ACTIVATION="")
    run_triton()
    print(f"triton tuned: {tuned.best_config}")
ref = torch.matmul(a.float(), b.float())
for name, f in (("tritonc", run_tritonc), ("triton", run_triton)):
    c.zero_(); f(); torch.cuda.synchronize()
    print(f"{name} maxerr={(c.float() - ref).abs().max().item():.3g}")
# mirrored rounds (cubin_ab.py: the GPU slows as a matmul heats it)
flops = 2 * M * N * K
ratios = []
for r, (t1, t2, p1, p2, ratio) in enumerate(
        mirrored_rounds(triton.testing.do_bench, run_tritonc, run_triton, int(os.environ.get("ROUNDS", "3")))):
    ratios.append(ratio)
    print(f"round {r + 1}: tritonc {flops / t1 * 1e-9:.1f} {flops / t2 * 1e-9:.1f}  "
          f"triton {flops / p1 * 1e-9:.1f} {flops / p2 * 1e-9:.1f}  TFLOP/s, ratio {ratio:.3f}")
ratios.sort()
path = "mma.sync" if os.environ.get("DISABLE_MMA_V3") == "1" else "default"
path += ", Triton autotuned" if os.environ.get("TUNED") else ""
line = f"{M}x{N}x{K} {dts} {BM}x{BN}x{BK} w{W} s{S} {path}"
print(f"tritonc-cubin,{line},median ratio {ratios[len(ratios) // 2]:.3f},"
      f"rounds {' '.join(f'{x:.3f}' for x in ratios)}")
tc, tr, (q1, q2, q3), (o1, o2) = interleaved(run_tritonc, run_triton)
print(f"tritonc-interleaved,{line},tritonc {flops / tc * 1e-9:.1f} triton {flops / tr * 1e-9:.1f} TFLOP/s,"
      f"median ratio {q2:.3f},quartiles {q1:.3f} {q3:.3f},tritonc first {o1:.3f},triton first {o2:.3f}")
if not f8:
    cb = triton.testing.do_bench(lambda: torch.matmul(a, b))
    print(f"cublas,{M}x{N}x{K} {dts},{cb:.4f} ms,{flops / cb * 1e-9:.1f} TFLOP/s")
