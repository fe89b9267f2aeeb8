# What matmul_triton.py and matmul_cubin.py share: bench/gpu/matmul.py's kernel (Triton's
# tutorial 03 pattern) and the inputs of one row. float8_e5m2 runs as tutorial 03 runs fp8:
# B given transposed (a [K, N] view of an [N, K] tensor, contiguous along K), C fp16.
import os, importlib.util
import torch

def kernel():
    spec = importlib.util.spec_from_file_location("mm", os.path.join(os.path.dirname(__file__), "matmul.py"))
    mm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mm)
    return mm.matmul_kernel

def inputs(M, N, K, dt):
    """a, b, c on the GPU, seeded; c fp32 for fp32 inputs, else fp16"""
    torch.manual_seed(0)
    a = torch.randn((M, K), device="cuda", dtype=torch.float32).to(dt)
    if dt == torch.float8_e5m2:
        b = torch.randn((N, K), device="cuda", dtype=torch.float32).to(dt).T
    else:
        b = torch.randn((K, N), device="cuda", dtype=torch.float32).to(dt)
    c = torch.empty((M, N), device="cuda", dtype=torch.float32 if dt == torch.float32 else torch.float16)
    return a, b, c
