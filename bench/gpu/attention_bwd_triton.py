# Times the backward kernel of Triton's fused-attention tutorial file (path in argv[1]),
# _attn_bwd, under Triton for one row: Z H N_CTX HEAD_DIM causal(0|1), launched as the file's
# _attention.backward launches it (BLOCK_M1 32, BLOCK_N1 128, BLOCK_M2 128, BLOCK_N2 32,
# BLK_SLICE_FACTOR 2, 4 warps, 5 stages; K pre-scaled by sm_scale / ln 2), on random inputs
# with M and delta zero, which changes no instruction the kernel runs. FLOPs as the file
# counts the backward: 2.5 times the forward's. Prints "triton-bwd,<row>,ms,tflops".
import sys, types, importlib.util
import torch, triton
sys.modules.setdefault("attention_tma", types.SimpleNamespace(_attention_bwd_tma=None))
spec = importlib.util.spec_from_file_location("tut06", sys.argv[1])
tut = importlib.util.module_from_spec(spec); spec.loader.exec_module(tut)
Z, H, N, D, causal = (int(x) for x in sys.argv[2:7])
torch.manual_seed(0)
q, k, v, do = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(4))
dq, dk, dv = (torch.empty_like(q) for _ in range(3))
M = torch.zeros((Z, H, N), device="cuda", dtype=torch.float32)
delta = torch.zeros_like(M)
sm_scale = 0.5
arg_k = k * (sm_scale * 1.4426950408889634)
grid = (N // 128, 1, Z * H)
def run():
    tut._attn_bwd[grid](q, arg_k, v, sm_scale, do, dq, dk, dv, M, delta,
                        q.stride(0), q.stride(1), q.stride(2), q.stride(3), H, N,
                        BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2,
                        HEAD_DIM=D, num_warps=4, num_stages=5, CAUSAL=bool(causal))
run()
ms = triton.testing.do_bench(run)
flops = 2.5 * 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
print(f"triton-bwd,Z{Z} H{H} N{N} D{D} causal{causal},{ms:.4f},{flops / ms * 1e-9:.1f}")
