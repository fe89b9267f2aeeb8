# Checks a tritonc matmul result saved by bench/gpu/matmul.sh (`tritonc run --save`) against
# torch.matmul of the same saved inputs, in fp32 on the GPU: prints "tritonc,check,maxerr=E"
# in matmul_triton.py's terms. Usage: matmul_check.py DTYPE DIR (DIR holds a.npy b.npy c.npy;
# bf16 and fp8 arrive as their raw bits, '<u2' and '<u1'; fp8 B as [N, K], as the tutorial runs it).
import sys, numpy as np, torch
dt, d = getattr(torch, sys.argv[1]), sys.argv[2]
def load(name):
    x = torch.from_numpy(np.load(f"{d}/{name}.npy")).cuda()
    if x.dtype == torch.uint8: return x.view(torch.float8_e5m2)
    if x.dtype == torch.int16 or str(x.dtype) == "torch.uint16": return x.view(torch.bfloat16)
    return x
a, b, c = load("a"), load("b"), load("c")
if dt == torch.float8_e5m2: b = b.T
ref = torch.matmul(a.float(), b.float())
print(f"tritonc,check {tuple(c.shape)},maxerr={(c.float() - ref).abs().max().item():.3g}")
