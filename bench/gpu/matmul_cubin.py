# Times tritonc's compiled matmul (a cubin from `tritonc compile ... --emit cubin`) and
# Triton's, one after the other in the same process under the same harness
# (triton.testing.do_bench: L2 flushed by a torch kernel before each run, CUDA events), so
# that a difference between `tritonc bench` and do_bench cannot pass for a kernel's, in
# rounds that cancel the GPU's warming (below). The cubin
# is launched through libcuda by ctypes; its parameters are bench/gpu/matmul.py's with
# stride_ak, stride_bn and stride_cn specialized to 1 (a, b, c, M, N, K, stride_am,
# stride_bk, stride_cm). Usage: matmul_cubin.py CUBIN SHARED_BYTES M N K BM BN BK GROUP WARPS STAGES
import ctypes, os, sys, importlib.util
import torch, triton
cubin, shared = sys.argv[1], int(sys.argv[2])
M, N, K, BM, BN, BK, GM, W, S = (int(x) for x in sys.argv[3:12])
spec = importlib.util.spec_from_file_location("mm", os.path.join(os.path.dirname(__file__), "matmul.py"))
mm = importlib.util.module_from_spec(spec); spec.loader.exec_module(mm)
torch.manual_seed(0)
a = torch.randn((M, K), device="cuda", dtype=torch.float16)
b = torch.randn((K, N), device="cuda", dtype=torch.float16)
c = torch.empty((M, N), device="cuda", dtype=torch.float16)
torch.cuda.synchronize()   # torch's context is current: the module loads into it
cu = ctypes.CDLL("libcuda.so.1")
def ok(r, what):
    if r: sys.exit(f"{what}: CUresult {r}")
mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
data = open(cubin, "rb").read()
ok(cu.cuModuleLoadData(ctypes.byref(mod), data), "cuModuleLoadData")
ok(cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"matmul_kernel"), "cuModuleGetFunction")
ok(cu.cuFuncSetAttribute(fn, 8, shared), "cuFuncSetAttribute")   # MAX_DYNAMIC_SHARED_SIZE_BYTES
vals = [ctypes.c_uint64(a.data_ptr()), ctypes.c_uint64(b.data_ptr()), ctypes.c_uint64(c.data_ptr()),
        ctypes.c_int32(M), ctypes.c_int32(N), ctypes.c_int32(K),
        ctypes.c_int32(a.stride(0)), ctypes.c_int32(b.stride(0)), ctypes.c_int32(c.stride(0))]
params = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
grid = triton.cdiv(M, BM) * triton.cdiv(N, BN)
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
def run_tritonc():
    ok(cu.cuLaunchKernel(fn, grid, 1, 1, W * 32, 1, 1, shared, stream, params, None), "cuLaunchKernel")
def run_triton():
    mm.matmul_kernel[(grid,)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                              c.stride(0), c.stride(1), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK,
                              GROUP_SIZE_M=GM, ACTIVATION="", num_warps=W, num_stages=S)
ref = torch.matmul(a.float(), b.float())
for name, f in (("tritonc", run_tritonc), ("triton", run_triton)):
    c.zero_(); f(); torch.cuda.synchronize()
    print(f"{name} maxerr={(c.float() - ref).abs().max().item():.3g}")
# ABBA rounds: the GPU's clock falls as it heats under a matmul, so whichever runs second in
# a pair is slowed; each round runs tritonc, Triton, Triton, tritonc and pairs them mirrored
flops = 2 * M * N * K
ratios = []
for r in range(int(os.environ.get("ROUNDS", "3"))):
    t1, p1, p2, t2 = (triton.testing.do_bench(f) for f in (run_tritonc, run_triton, run_triton, run_tritonc))
    ratio = (p1 + p2) / (t1 + t2)
    ratios.append(ratio)
    print(f"round {r + 1}: tritonc {flops / t1 * 1e-9:.1f} {flops / t2 * 1e-9:.1f}  "
          f"triton {flops / p1 * 1e-9:.1f} {flops / p2 * 1e-9:.1f}  TFLOP/s, ratio {ratio:.3f}")
ratios.sort()
print(f"tritonc-cubin,{M}x{N}x{K} {BM}x{BN}x{BK} w{W} s{S},median ratio {ratios[len(ratios) // 2]:.3f}")
