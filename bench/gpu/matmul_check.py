# Checks a tritonc matmul result saved by bench/gpu/matmul.sh (`tritonc run --save`) against
# torch.matmul of the same saved inputs, in fp32 on the GPU: prints "tritonc,check,maxerr=E"
# in matmul_triton.py's terms. Usage: matmul_check.py DTYPE DIR (DIR holds a.npy b.npy c.npy;
# bf16 and fp8 arrive as their raw bits, '<u2' and '<u1'; fp8 B as [N, K], as the tutorial runs it).
import sys, numpy as np, torch
dt, d = getattr(torch, sys.argv[1]), sys.argv[2]
RAW = {np.dtype("<u1"): (np.uint8, torch.float8_e5m2), np.dtype("<u2"): (np.int16, torch.bfloat16)}
def load(name):
    x = np.load(f"{d}/{name}.npy")
    if x.dtype not in RAW: return torch.from_numpy(x).cuda()
    bits, dt = RAW[x.dtype]
    return torch.from_numpy(x.view(bits)).cuda().view(dt)
a, b, c = load("a"), load("b"), load("c")
if dt == torch.float8_e5m2: b = b.T
ref = torch.matmul(a.float(), b.float())
print(f"tritonc,check {tuple(c.shape)},maxerr={(c.float() - ref).abs().max().item():.3g}")
