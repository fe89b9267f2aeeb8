# Triton's side of attention_cold.sh (bench.c cold_attn is tritonc's): in a fresh process with
# an empty TRITON_CACHE_DIR (set by the caller) and CUDA_CACHE_DISABLE=1, launch kernels.py's
# vector add first, then time the first forward of the fused-attention tutorial file (argv[1])
# with one config (BLOCK_M 128, BLOCK_N min(128, HEAD_DIM), 4 warps, 3 stages; no
# autotuning) and its first backward (_attn_bwd_preprocess and _attn_bwd), each from the call
# to the result, less the same call run again (what is left is the compile). Z 1, H 2,
# N_CTX 1024; argv: file HEAD_DIM causal.
# Prints "triton,cold_attn_fwd,D<d> causal<c>,<ms>" and "triton,cold_attn_bwd,...".
import os, sys, time, types, importlib.util
import torch, triton
HERE = os.path.dirname(os.path.abspath(__file__))
sys.modules.setdefault("attention_tma", types.SimpleNamespace(_attention_bwd_tma=None))
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
K = load("kernels", os.path.join(HERE, "kernels.py"))
tut = load("tut06", sys.argv[1])
D, causal = int(sys.argv[2]), bool(int(sys.argv[3]))
tut._attn_fwd.configs = [triton.Config(dict(BLOCK_M=128, BLOCK_N=min(128, D)), num_warps=4, num_stages=3,
                                       pre_hook=tut._host_descriptor_pre_hook)]
n = 1 << 20
x = torch.rand(n, device="cuda"); o = torch.empty_like(x)
K.add_kernel[(n // 1024,)](x, x, o, n, BLOCK_SIZE=1024)
torch.cuda.synchronize()
q, k, v = (torch.randn((1, 2, 1024, D), device="cuda", dtype=torch.float16, requires_grad=True)
           for _ in range(3))
do = torch.randn((1, 2, 1024, D), device="cuda", dtype=torch.float16)
def timed(f):
    torch.cuda.synchronize(); t0 = time.perf_counter(); r = f(); torch.cuda.synchronize()
    return r, (time.perf_counter() - t0) * 1e3
fwd = lambda: tut.attention(q, k, v, causal, 0.5, False, False)
out, first = timed(fwd)
out2, again = timed(fwd)
row = f"D{D} causal{int(causal)}"
print(f"triton,cold_attn_fwd,{row},{first - again:.1f},first call {first:.1f} ms, again {again:.1f} ms")
_, first = timed(lambda: out.backward(do))
_, again = timed(lambda: out2.backward(do))
print(f"triton,cold_attn_bwd,{row},{first - again:.1f},first call {first:.1f} ms, again {again:.1f} ms")
