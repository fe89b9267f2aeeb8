# Times the forward of Triton's fused-attention tutorial file (path in argv[1]) under Triton
# (its own autotuned `attention`, warp_specialize False and True) and torch SDPA, for one row:
# Z H N_CTX HEAD_DIM causal(0|1). Prints "triton-ws<0|1>,<row>,ms,tflops" and "sdpa,...".
# The file is loaded as tut06.py does. On Hopper the file itself passes plain tensors when
# warp_specialize is on (the kernel makes its descriptors, its allocator set); MADE=1 in the
# environment makes it do so for ws0 too (rows "triton-made-ws<0|1>").
import os, sys
import torch, triton
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tut06 import load, pin_config
tut = load(sys.argv[1])
made = os.environ.get("MADE") == "1"
if made:
    tut.supports_host_descriptor = lambda: False
# CONFIG="BLOCK_M=128,BLOCK_N=64,num_warps=4,num_stages=3" in the environment: that config
# alone, warp_specialize False only, no SDPA (for ncu: the first _attn_fwd launch is the run).
# REP: do_bench's repetition budget in ms (default 100)
one = os.environ.get("CONFIG")
if one:
    pin_config(tut, one)
Z, H, N, D, causal = (int(x) for x in sys.argv[2:7])
torch.manual_seed(0)
q, k, v = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(3))
sm_scale = 0.5
flops = 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
row = f"Z{Z} H{H} N{N} D{D} causal{causal}"
ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal), scale=sm_scale)
for ws in ((0,) if one else (0, 1)):
    try:
        fn = lambda: tut.attention(q, k, v, bool(causal), sm_scale, False, bool(ws))
        err = (fn().float() - ref.float()).abs().max().item()
        ms = triton.testing.do_bench(fn, rep=int(os.environ.get("REP", "100")))
        best = tut._attn_fwd.best_config
        print(f"triton-{'made-' if made else ''}ws{ws},{row},{ms:.4f},{flops / ms * 1e-9:.1f},maxerr={err:.3g},{best}")
    except Exception as e:  # warp_specialize may not compile on this GPU
        print(f"triton-{'made-' if made else ''}ws{ws},{row},failed: {type(e).__name__}: {str(e)[:120]}")
if one:
    sys.exit(0)
ms = triton.testing.do_bench(lambda: torch.nn.functional.scaled_dot_product_attention(
    q, k, v, is_causal=bool(causal), scale=sm_scale))
print(f"sdpa,{row},{ms:.4f},{flops / ms * 1e-9:.1f}")
