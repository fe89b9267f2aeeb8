# bench/gpu/graph_chain.py — the kernel of the 100-kernel chain benchmark (issue 16, item 3),
# and Triton's and PyTorch's side of it. The trivial body, the same on every side: one
# program adds 1.0 to 128 floats in place (x += 1). graph_chain.c times tritonc on it.
#   python3 bench/gpu/graph_chain.py        (prints the Triton and PyTorch lines)
import triton
import triton.language as tl


@triton.jit
def chain_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1.0, mask=m)


def _time_chain(launch, chain, reps):
    import time
    import torch
    for _ in range(3):           # warm up (compiles)
        for _ in range(chain):
            launch()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(chain):
            launch()
        torch.cuda.synchronize()
        best = min(best, time.perf_counter() - t0)
    return best / chain * 1e6


def _time_graph(launch, chain, reps):
    import time
    import torch
    s = torch.cuda.Stream()
    for _ in range(3):
        launch()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=s):
        for _ in range(chain):
            launch()
    g.replay()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        g.replay()
        torch.cuda.synchronize()
        best = min(best, time.perf_counter() - t0)
    return best / chain * 1e6


def main():
    import torch
    chain, reps = 100, 200
    x = torch.zeros(128, device="cuda", dtype=torch.float32)
    tri = lambda: chain_kernel[(1,)](x, 128, BLOCK=128)
    tor = lambda: x.add_(1.0)
    for name, f in (("triton", tri), ("pytorch", tor)):
        plain = _time_chain(f, chain, reps)
        graph = _time_graph(f, chain, reps)
        print(f"{name:8s} plain {plain:7.3f} us/kernel   graph replay {graph:7.3f} us/kernel")


if __name__ == "__main__":
    main()
