# bench/gpu/transformer.py — PyTorch's side of the transformer-block benchmark (issue 16,
# item 6): the same GPT-2-style block as examples/transformer (layer norm, QKV, causal
# attention, projection + residual, layer norm, MLP with tanh-GELU + residual), fp16, timed
# with triton.testing.do_bench as eager, torch.compile (with its compile time) and
# torch.compile with CUDA graphs ("reduce-overhead").
#   python3 bench/gpu/transformer.py [B T C H]      (default 8 1024 1024 16)
import sys
import time

import torch
import torch.nn.functional as F
import triton


def block(x, p, H):
    B, T, C = x.shape
    h = F.layer_norm(x, (C,), p["ln1_w"], p["ln1_b"], 1e-5)
    qkv = h @ p["w_qkv"] + p["b_qkv"]
    q, k, v = qkv.split(C, dim=2)
    q, k, v = (t.view(B, T, H, C // H).transpose(1, 2) for t in (q, k, v))
    a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    a = a.transpose(1, 2).reshape(B, T, C)
    x1 = x + a @ p["w_proj"] + p["b_proj"]
    h2 = F.layer_norm(x1, (C,), p["ln2_w"], p["ln2_b"], 1e-5)
    f = F.gelu(h2 @ p["w_fc"] + p["b_fc"], approximate="tanh")
    return x1 + f @ p["w_fc2"] + p["b_fc2"]


def main():
    B, T, C, H = (int(a) for a in sys.argv[1:5]) if len(sys.argv) >= 5 else (8, 1024, 1024, 16)
    dev, dt = "cuda", torch.float16
    g = torch.Generator(device=dev).manual_seed(0)
    r = lambda *s, scale=1.0: (torch.rand(*s, device=dev, generator=g) * 2 - 1).mul(scale).to(dt)
    p = {"ln1_w": 1 + r(C, scale=0.1), "ln1_b": r(C, scale=0.1), "w_qkv": r(C, 3 * C, scale=C ** -0.5),
         "b_qkv": r(3 * C, scale=0.1), "w_proj": r(C, C, scale=C ** -0.5), "b_proj": r(C, scale=0.1),
         "ln2_w": 1 + r(C, scale=0.1), "ln2_b": r(C, scale=0.1), "w_fc": r(C, 4 * C, scale=C ** -0.5),
         "b_fc": r(4 * C, scale=0.1), "w_fc2": r(4 * C, C, scale=(4 * C) ** -0.5), "b_fc2": r(C, scale=0.1)}
    x = r(B, T, C)
    with torch.no_grad():
        eager = triton.testing.do_bench(lambda: block(x, p, H))
        print(f"pytorch eager:            {eager:.4f} ms")
        for mode in (None, "reduce-overhead"):
            torch._dynamo.reset()
            f = torch.compile(lambda x: block(x, p, H), mode=mode)
            t0 = time.perf_counter()
            f(x)
            torch.cuda.synchronize()
            ct = time.perf_counter() - t0
            ms = triton.testing.do_bench(lambda: f(x))
            print(f"torch.compile({mode}): {ms:.4f} ms (compile {ct:.1f} s)")


if __name__ == "__main__":
    main()
