# Times bench/gpu/matmul.py's kernel under Triton (do_bench) for the configs given on the
# command line: M N K dtype BM BN BK GROUP warps stages. Prints "triton,<cfg>,ms,tflops"
# and checks the result against torch.matmul. float8_e5m2 runs as tutorial 03 runs fp8: B
# given transposed (contiguous along K), C fp16, no cuBLAS row.
import sys
import torch, triton
from matmul_args import kernel, inputs
matmul_kernel = kernel()
M, N, K = (int(x) for x in sys.argv[1:4]); dt = getattr(torch, sys.argv[4])
BM, BN, BK, GM, W, S = (int(x) for x in sys.argv[5:11])
f8 = dt == torch.float8_e5m2
a, b, c = inputs(M, N, K, dt)
grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
def run():
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK,
                        GROUP_SIZE_M=GM, ACTIVATION="", num_warps=W, num_stages=S)
run()
ref = torch.matmul(a.float(), b.float())
err = (c.float() - ref).abs().max().item()
ms = triton.testing.do_bench(run)
print(f"triton,{M}x{N}x{K} {sys.argv[4]} {BM}x{BN}x{BK} w{W} s{S},{ms:.4f},{2*M*N*K/ms*1e-9:.1f},maxerr={err:.3g}")
if not f8:
    cb = triton.testing.do_bench(lambda: torch.matmul(a, b))
    print(f"cublas,{M}x{N}x{K} {sys.argv[4]},{cb:.4f},{2*M*N*K/cb*1e-9:.1f}")
