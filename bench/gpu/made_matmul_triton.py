# Times tests/kernels/dot_tc.py's made_desc_matmul_kernel (a persistent matmul whose
# descriptors the kernel makes with tl.make_tensor_descriptor) under Triton, with the launch
# bench/gpu/made_matmul.sh gives tritonc: fp16 a (M x K) and b (N x K), fp32 c = a @ b.T,
# the scratch area from torch (triton.set_allocator). Prints "triton-made,M,N,K,ms,tflops".
# Usage: python3 made_matmul_triton.py M N K BM BN BK NPROG STAGES WARPS
import sys, importlib.util
import torch, triton
spec = importlib.util.spec_from_file_location("dot_tc", "tests/kernels/dot_tc.py")
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
M, N, K, BM, BN, BK, NPROG, STAGES, WARPS = (int(x) for x in sys.argv[1:10])
triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
torch.manual_seed(0)
a = torch.randn((M, K), device="cuda", dtype=torch.float16)
b = torch.randn((N, K), device="cuda", dtype=torch.float16)
c = torch.empty((M, N), device="cuda", dtype=torch.float32)
def run():
    mod.made_desc_matmul_kernel[(NPROG, 1, 1)](a, b, c, M, N, K, BM=BM, BN=BN, BK=BK, NPROG=NPROG,
                                               STAGES=STAGES, num_warps=WARPS)
run()
err = (c - (a.float() @ b.float().T)).abs().max().item()
ms = triton.testing.do_bench(run)
print(f"triton-made,{M},{N},{K},{ms:.4f},{2.0 * M * N * K / ms * 1e-9:.1f},maxerr={err:.3g}")
