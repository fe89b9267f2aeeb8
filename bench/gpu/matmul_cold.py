# Triton's side of bench.c's cold_matmul: in a fresh process with an empty TRITON_CACHE_DIR
# (set by the caller) and CUDA_CACHE_DISABLE=1, launch kernels.py's vector add first, then
# time matmul.py's kernel (128x256x64, 8 warps, 3 stages, fp16 1024^3) from the launch call
# to the first result. Prints "triton,cold_compile_matmul,1024,8,<ms>".
import os, sys, time, importlib.util
import torch
HERE = os.path.dirname(os.path.abspath(__file__))
def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
K, MM = load("kernels"), load("matmul")
n = 1 << 20
x = torch.rand(n, device="cuda"); o = torch.empty_like(x)
K.add_kernel[(n // 1024,)](x, x, o, n, BLOCK_SIZE=1024)
torch.cuda.synchronize()
M = 1024
a = torch.ones((M, M), device="cuda", dtype=torch.float16)
c = torch.empty((M, M), device="cuda", dtype=torch.float16)
torch.cuda.synchronize()
t0 = time.perf_counter()
MM.matmul_kernel[((M // 128) * (M // 256),)](a, a, c, M, M, M, M, 1, M, 1, M, 1, BLOCK_SIZE_M=128,
                                             BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
                                             ACTIVATION="", num_warps=8, num_stages=3)
r = c.cpu()
t1 = time.perf_counter()
print(f"triton,cold_compile_matmul,{M},8,{(t1 - t0) * 1e3:.3f},,check={'ok' if r[0, 5].item() == 1024 else 'FAIL'}")
