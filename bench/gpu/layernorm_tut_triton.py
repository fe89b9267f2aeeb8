# Triton's side of layernorm_tut.sh: the forward kernel of Triton's layer-norm tutorial (the
# file at argv[1], unchanged; only its definitions run, not its test and benchmark at the
# end), launched as the file's LayerNorm.forward launches it (BLOCK_SIZE next_power_of_2(N)
# capped at 64 KB of row, num_warps min(max(BLOCK_SIZE // 256, 1), 8)), on random inputs of
# argv[2] (float16|float32) M x N; median of triton.testing.do_bench.
# Prints "triton,layernorm_tut,<dtype> MxN,<ms>,<GB/s>" (bytes: X read and Y written, as the file counts).
import sys
import torch, triton
path, dtype, M, N = sys.argv[1], getattr(torch, sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
src = open(path).read()
src = src[:src.index("\ntest_layer_norm(")]   # the definitions only
g = {"__name__": "tut05", "__file__": path}
exec(compile(src, path, "exec"), g)
torch.manual_seed(0)
x = torch.randn((M, N), device="cuda", dtype=dtype)
w, b = torch.rand(N, device="cuda", dtype=dtype), torch.rand(N, device="cuda", dtype=dtype)
y = torch.empty_like(x)
mean, rstd = (torch.empty(M, device="cuda", dtype=torch.float32) for _ in range(2))
BLOCK = min(65536 // x.element_size(), triton.next_power_of_2(N))
nw = min(max(BLOCK // 256, 1), 8)
run = lambda: g["_layer_norm_fwd_fused"][(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5,
                                               BLOCK_SIZE=BLOCK, num_warps=nw)
run()
ref = torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5)
err = (y.float() - ref).abs().max().item()
ms = triton.testing.do_bench(run, return_mode="median")
print(f"triton,layernorm_tut,{sys.argv[2]} {M}x{N},{ms:.5f},{2 * x.numel() * x.element_size() / ms * 1e-6:.1f},maxerr={err:.3g}")
