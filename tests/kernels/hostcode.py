# Host code that configures kernels, in the patterns of Triton's tutorials (matmul,
# attention, grouped GEMM, persistent matmul), written for tritonc's tests (test_hostpy.c).
import os
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def is_hip():
    return triton.runtime.driver.active.get_current_target().backend == "hip"


def sm_count():
    if is_cuda():
        return torch.cuda.get_device_properties("cuda").multi_processor_count
    return 80


def cuda_configs():
    return [
        triton.Config({'BLOCK': b, 'SPLIT': s}, num_warps=w, num_stages=st)
        for b in [64, 32, 16]
        for s in [1, 2] if b * s <= 64
        for (w, st) in zip([2, 4], [3, 4])
    ]


def hip_configs():
    return [triton.Config({'BLOCK': 8, 'SPLIT': 1})]


def get_configs():
    if is_cuda():
        return cuda_configs()
    else:
        return hip_configs()


if is_hip():
    STAGES = [1]
elif is_cuda() and torch.cuda.get_device_capability()[0] >= 9:
    STAGES = [2, 3]
else:
    STAGES = [2]

if "TRITONC_TEST_STAGES" in os.environ:
    STAGES = [int(os.environ.get("TRITONC_TEST_STAGES"))]


def keep_small(conf, limit=64):
    return conf.kwargs["BLOCK"] * conf.kwargs.get("SPLIT", 1) <= limit


def prune(configs, named_args, **kwargs):
    n = kwargs["n"]
    return [c for c in configs if c.kwargs["BLOCK"] <= n and named_args["x_ptr"].shape[0] >= c.kwargs["BLOCK"]]


@triton.autotune(configs=list(filter(keep_small, get_configs())), key=['n'],
                 prune_configs_by={'early_config_prune': prune})
@triton.jit
def fill(x_ptr, n, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, (offs * SPLIT).to(tl.float32), mask=offs < n)


@triton.autotune(configs=[triton.Config({'BLOCK': 8}, num_stages=s) for s in STAGES], key=['n'])
@triton.jit
def staged(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)


@triton.autotune(configs=[triton.Config({'NUM_SM': sm_count(), 'BLOCK': 4}),
                          triton.Config({'NUM_SM': 2, 'BLOCK': 4})], key=[])
@triton.jit
def persistent(x_ptr, n, NUM_SM: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, NUM_SM * 1.0, mask=offs < n)


def battery(*args, scale=2, **kw):
    d = {'a': 1, 'b': 2} | {'c': 3}
    s = {x % 3 for x in range(10)}
    pairs = sorted(zip(['z', 'y', 'x'], [1, 2, 3]), key=lambda p: p[0])
    ev = [i * scale for i, v in enumerate(args) if v]
    m = list(map(lambda x: x + 1, filter(lambda x: x > 1, [1, 2, 3])))
    t = (1, 2, 3)[::-1][:2]
    name = f"{kw['tag']}-{len(d)}"
    ok = any(x > 2 for x in m) and all(isinstance(x, int) for x in m) and 'b' in d and 5 not in s
    acc = 0
    for k, v in d.items():
        if k == 'a':
            continue
        acc += v
    else:
        acc += 100
    return [d.get('q', 7), len(s), pairs[0], ev, m, t, name, ok, acc, min(3, 1, 2), max([4, 9]),
            abs(-3), int("12") + int(2.7), float(1) / 4, -7 // 2, -7 % 3, 2 ** 10, bool(0),
            os.getenv("TRITONC_TEST_UNSET_VARIABLE", "dflt")]


def check_hook(nargs):
    n = nargs["n"]
    BLOCK = nargs["BLOCK"]
    if not isinstance(nargs["x_ptr"], TensorDescriptor):
        assert n < 30, f"hook saw n={n} BLOCK={BLOCK} num_warps={nargs['num_warps']}"


def data_hook(nargs):
    nargs["x_ptr"].zero_()


@triton.autotune(configs=[triton.Config({'KIND': str(battery(0, 5, 1, tag='T'))}, pre_hook=check_hook)], key=[])
@triton.jit
def evaluated(x_ptr, n, KIND: tl.constexpr, BLOCK: tl.constexpr = 4):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 2.0, mask=offs < n)


@triton.autotune(configs=[triton.Config({'BLOCK': 4}, pre_hook=data_hook), triton.Config({'BLOCK': 8})], key=[])
@triton.jit
def data_hooked(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 3.0, mask=offs < n)


def broken_configs():
    return [triton.Config({'BLOCK': b}) for b in torch.arange(4)]


def never_called():
    return torch.empty(3).cuda()


@triton.autotune(configs=broken_configs(), key=[])
@triton.jit
def broken(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


@triton.jit
def plain(x_ptr, n, BLOCK: tl.constexpr = 4):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 5.0, mask=offs < n)


# work code: skipped, never run
x = torch.rand(100, device=DEVICE)
print(f"{fill.__name__}")
configs = []
for n in [1, 2]:
    configs.append(n)


def pick_block(n):
    return triton.next_power_of_2(n)


# grouped GEMM's pattern: a table of the addresses of tensors that are not parameters
@triton.heuristics({'BLOCK': lambda args: pick_block(args['group_size'] * 3)})
@triton.jit
def gather_sum(table, out_ptr, sizes, group_size, BLOCK: tl.constexpr):
    for g in range(group_size):
        n = tl.load(sizes + g)
        p = tl.load(table + g).to(tl.pointer_type(tl.float32))
        offs = tl.arange(0, BLOCK)
        x = tl.load(p + offs, mask=offs < n, other=0.0)
        tl.store(out_ptr + g, tl.sum(x, axis=0))


def device_hook(nargs):
    assert DEVICE is not None


@triton.autotune(configs=[triton.Config({'BLOCK': 4}, pre_hook=device_hook), triton.Config({'BLOCK': 8})], key=[])
@triton.jit
def device_hooked(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 7.0, mask=offs < n)
