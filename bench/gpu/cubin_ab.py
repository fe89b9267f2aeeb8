# What matmul_cubin.py and add_cubin.py share: a kernel of a tritonc cubin loaded into the
# current (torch's) context through libcuda, and mirrored rounds. The GPU's clock falls as it
# heats under load, so whichever kernel runs second in a pair is slowed; each round runs
# tritonc, Triton, Triton, tritonc and pairs them mirrored.
import ctypes, sys

cu = ctypes.CDLL("libcuda.so.1")


def ok(r, what):
    if r:
        sys.exit(f"{what}: CUresult {r}")


def load_function(cubin, name):
    """kernel `name` (bytes) of the cubin file at path `cubin`"""
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    ok(cu.cuModuleLoadData(ctypes.byref(mod), open(cubin, "rb").read()), "cuModuleLoadData")
    ok(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name), "cuModuleGetFunction")
    return fn


def mirrored_rounds(bench, run_tritonc, run_triton, rounds):
    """per round, as it ends: tritonc's two times, Triton's two (bench's unit) and the ratio
    of Triton's sum to tritonc's (> 1: tritonc faster)"""
    for _ in range(rounds):
        t1, p1, p2, t2 = (bench(f) for f in (run_tritonc, run_triton, run_triton, run_tritonc))
        yield t1, t2, p1, p2, (p1 + p2) / (t1 + t2)
