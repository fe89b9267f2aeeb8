# The forward of Triton's fused-attention tutorial (the file at argv[1], unchanged), or with
# PASS=bwd its backward kernel at the file's config, run by tritonc through its C API
# (libtritonc.so, ctypes) and by Triton, in one process, on the same tensors, timed twice: by
# triton.testing.do_bench in mirrored rounds, then by single runs interleaved (cubin_ab.py),
# so that neither the harness nor the GPU's heating can pass for a kernel's difference. tritonc
# launches on the tensors' own memory (tc_tensor_wrap) in torch's context (the device's
# primary one, which tritonc also uses) with host descriptors (tc_tensor_descriptor).
# Usage: python3 attention_ab.py FILE Z H N_CTX HEAD_DIM CAUSAL
# env: CONFIG=BLOCK_M=64,BLOCK_N=64,num_warps=4,num_stages=2 (the forward on both sides at that
# config; unset: each side autotunes over the file's configs), LIB (default
# build-gpu/libtritonc.so), ROUNDS (default 3), PAIRS (default 400), TRITON_WS=1 (Triton's
# forward with warp_specialize=True; tritonc runs its loop as an ordinary one either way).
# Prints each side's error against torch SDPA (the backward: tritonc's dq, dk, dv against
# Triton's), one line per round and the interleaved medians.
import ctypes as C, os, sys
import torch, triton
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cubin_ab import mirrored_rounds, interleaved
from tut06 import load, pin_config

lib = C.CDLL(os.environ.get("LIB", "build-gpu/libtritonc.so"))


class Value(C.Structure):   # tc_value
    class U(C.Union):
        _fields_ = [("i", C.c_int64), ("f", C.c_double), ("b", C.c_int), ("s", C.c_char_p),
                    ("t", C.c_void_p)]
    _fields_ = [("kind", C.c_int), ("u", U)]


GRID_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint32), C.c_void_p)


class LaunchOpts(C.Structure):   # tc_launch_opts
    _fields_ = [("size", C.c_size_t), ("grid", C.c_uint32 * 3), ("grid_fn", GRID_FN),
                ("grid_user", C.c_void_p), ("num_warps", C.c_int), ("num_stages", C.c_int),
                ("check", C.c_int), ("stream", C.c_void_p), ("threads", C.c_int),
                ("shuffle_seed", C.c_uint64), ("timeout_s", C.c_double),
                ("progress", C.c_void_p), ("progress_user", C.c_void_p)]


class Report(C.Structure):   # tc_launch_report, up to the fields read here
    _fields_ = [("backend", C.c_int), ("num_warps", C.c_int), ("num_stages", C.c_int), ("compiled", C.c_int),
                ("specialization", C.c_char * 512), ("note", C.c_char * 256), ("compile_ms", C.c_double),
                ("run_ms", C.c_double), ("disk_cache", C.c_int), ("check", C.c_int), ("check_findings", C.c_int),
                ("check_notes", C.c_int), ("check_seed", C.c_uint64), ("threads", C.c_int), ("dot", C.c_char * 48)]


TC_VAL_INT, TC_VAL_FLOAT, TC_VAL_BOOL, TC_VAL_TENSOR = 1, 2, 3, 5
TC_FP16, TC_FP32 = 10, 12
lib.tc_errmsg.restype = C.c_char_p
ctx = C.c_void_p()


def check(rc, what):
    if rc:
        sys.exit(f"{what}: {lib.tc_errmsg(ctx).decode()}")


def value(kind, **u):
    v = Value(kind=kind)
    for k, x in u.items():
        setattr(v.u, k, x)
    return v


def wrap(t, dt):
    """a tc_tensor over torch tensor t's memory, as 2-D (rows, last dim) or 1-D"""
    shape = (C.c_int64 * 2)(t.numel() // t.shape[-1], t.shape[-1]) if t.dim() > 1 else (C.c_int64 * 1)(t.numel())
    out = C.c_void_p()
    check(lib.tc_tensor_wrap(ctx, dt, len(shape), shape, C.c_void_p(t.data_ptr()), C.byref(out)), "tc_tensor_wrap")
    return out


def desc(t):
    """the tutorial's host descriptor: block [1, 1] until its pre_hook sets the block"""
    out = C.c_void_p()
    one = (C.c_int64 * 2)(1, 1)
    check(lib.tc_tensor_descriptor(ctx, t, 2, None, None, one, C.byref(out)), "tc_tensor_descriptor")
    return out


tut = load(sys.argv[1])
Z, H, N, D, causal = (int(x) for x in sys.argv[2:7])
one = os.environ.get("CONFIG")
if one:   # Triton at that config alone (as attention_triton.py)
    pin_config(tut, one)
torch.manual_seed(0)
q, k, v = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(3))
sm_scale = 0.5
ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal), scale=sm_scale)

check(lib.tc_context_new(C.byref(ctx)), "tc_context_new")
mod, kern, args = C.c_void_p(), C.c_void_p(), C.c_void_p()
check(lib.tc_module_load_file(ctx, sys.argv[1].encode(), C.byref(mod)), "tc_module_load_file")
bwd = os.environ.get("PASS", "fwd") == "bwd"
check(lib.tc_module_kernel(mod, b"_attn_bwd" if bwd else b"_attn_fwd", C.byref(kern)), "tc_module_kernel")
if one and not bwd:
    idx = C.c_int()
    check(lib.tc_kernel_find_config(kern, one.encode(), C.byref(idx)), "tc_kernel_find_config")
    check(lib.tc_kernel_set_config(kern, idx), "tc_kernel_set_config")
opts = LaunchOpts()
lib.tc_launch_opts_init(C.byref(opts), C.sizeof(opts))
check(lib.tc_args_new(kern, C.byref(args)), "tc_args_new")
ws = os.environ.get("TRITON_WS", "0") == "1"
if not bwd:
    o = torch.empty_like(q)
    m = torch.empty((Z, H, N), device="cuda", dtype=torch.float32)
    tq, tk, tv, to, tm = wrap(q, TC_FP16), wrap(k, TC_FP16), wrap(v, TC_FP16), wrap(o, TC_FP16), wrap(m, TC_FP32)
    named = (("sm_scale", value(TC_VAL_FLOAT, f=sm_scale)), ("M", value(TC_VAL_TENSOR, t=tm)),
             ("Z", value(TC_VAL_INT, i=Z)), ("H", value(TC_VAL_INT, i=H)),
             ("desc_q", value(TC_VAL_TENSOR, t=desc(tq))), ("desc_k", value(TC_VAL_TENSOR, t=desc(tk))),
             ("desc_v", value(TC_VAL_TENSOR, t=desc(tv))), ("desc_o", value(TC_VAL_TENSOR, t=desc(to))),
             ("N_CTX", value(TC_VAL_INT, i=N)), ("HEAD_DIM", value(TC_VAL_INT, i=D)),
             ("FP8_OUTPUT", value(TC_VAL_BOOL, b=0)), ("STAGE", value(TC_VAL_INT, i=3 if causal else 1)),
             ("warp_specialize", value(TC_VAL_BOOL, b=0)), ("IS_HOPPER", value(TC_VAL_BOOL, b=1)))

    @GRID_FN
    def grid(meta, g, user):
        return lib.tc_grid_eval(C.c_void_p(meta), b"(cdiv(N_CTX, BLOCK_M), Z * H, 1)", g)
    opts.grid_fn = grid

    def run_triton():
        return tut.attention(q, k, v, bool(causal), sm_scale, False, ws)
else:   # the file's backward kernel as its _attention.backward launches it (its config), with
    # M (the rows' log2-sum-exp2) and delta (rowsum(o * do)) computed by torch
    do = torch.randn_like(q)
    arg_k = k * (sm_scale * 1.4426950408889634)
    outs = [[torch.zeros_like(q) for _ in range(3)] for _ in range(2)]   # dq, dk, dv: tritonc's, Triton's
    m = torch.empty((Z, H, N), device="cuda", dtype=torch.float32)
    for z in range(Z):
        sc = (q[z].float() @ k[z].float().transpose(-1, -2)) * sm_scale
        if causal:
            sc.masked_fill_(torch.ones(N, N, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
        m[z] = torch.logsumexp(sc, -1) * 1.4426950408889634
        del sc
    delta = (ref.float() * do.float()).sum(-1)
    fixed = dict(BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2, HEAD_DIM=D)
    named = tuple((n, value(TC_VAL_TENSOR, t=wrap(t, TC_FP16))) for n, t in
                  (("Q", q), ("K", arg_k), ("V", v), ("DO", do), ("DQ", outs[0][0]), ("DK", outs[0][1]),
                   ("DV", outs[0][2])))
    named += (("M", value(TC_VAL_TENSOR, t=wrap(m, TC_FP32))), ("D", value(TC_VAL_TENSOR, t=wrap(delta, TC_FP32))),
              ("sm_scale", value(TC_VAL_FLOAT, f=sm_scale)), ("CAUSAL", value(TC_VAL_BOOL, b=causal)))
    named += tuple((n, value(TC_VAL_INT, i=x)) for n, x in
                   zip(("stride_z", "stride_h", "stride_tok", "stride_d"), q.stride()))
    named += tuple((n, value(TC_VAL_INT, i=x)) for n, x in (("H", H), ("N_CTX", N), *fixed.items()))
    opts.grid[0], opts.grid[1], opts.grid[2] = N // 128, 1, Z * H
    opts.num_warps, opts.num_stages = 4, 5

    def run_triton():
        tut._attn_bwd[(N // 128, 1, Z * H)](q, arg_k, v, sm_scale, do, *outs[1], m, delta, *q.stride(), H, N,
                                            **fixed, num_warps=4, num_stages=5, CAUSAL=bool(causal))
for name, val in named:
    check(lib.tc_args_set(args, name.encode(), val), f"tc_args_set {name}")


def run_tritonc():
    check(lib.tc_launch(kern, args, C.byref(opts)), "tc_launch")


run_tritonc()   # compiles (and autotunes without CONFIG)
out = run_triton()
torch.cuda.synchronize()
row = f"Z{Z} H{H} N{N} D{D} causal{causal}" + (" bwd" if bwd else "")
rep = Report()
lib.tc_last_launch(ctx, C.byref(rep), C.sizeof(rep))
print(f"{row}: tritonc ran {rep.specialization.decode()}, {rep.num_warps} warps, {rep.num_stages} stages, "
      f"dot: {rep.dot.decode()}")
if bwd:   # the same kernel on the same inputs: dq, dk and dv against Triton's
    err = max((a.float() - b.float()).abs().max().item() for a, b in zip(*outs))
    big = max(b.float().abs().max().item() for b in outs[1])
    print(f"{row}: maxerr of dq, dk, dv against Triton's {err:.3g} (their largest magnitude {big:.3g})")
else:
    print(f"{row}: maxerr against SDPA: tritonc {(o.float() - ref.float()).abs().max().item():.3g}, "
          f"triton {(out.float() - ref.float()).abs().max().item():.3g}; triton's config {tut._attn_fwd.best_config}")
flops = (2.5 if bwd else 1.0) * 4.0 * Z * H * N * N * D * (0.5 if causal else 1.0)
ratios, ts, ps = [], [], []
for r, (t1, t2, p1, p2, ratio) in enumerate(
        mirrored_rounds(triton.testing.do_bench, run_tritonc, run_triton, int(os.environ.get("ROUNDS", "3")))):
    ratios.append(ratio)
    ts += [t1, t2]
    ps += [p1, p2]
    print(f"round {r + 1}: tritonc {t1:.4f} {t2:.4f} ms, triton {p1:.4f} {p2:.4f} ms, ratio {ratio:.3f}")
for x in (ratios, ts, ps):
    x.sort()
med = lambda x: (x[(len(x) - 1) // 2] + x[len(x) // 2]) / 2
print(f"attention-ab,{row},{one or 'autotuned'},ws{int(ws)},tritonc {flops / med(ts) * 1e-9:.1f} TFLOP/s,"
      f"triton {flops / med(ps) * 1e-9:.1f} (medians of their times),median ratio {ratios[len(ratios) // 2]:.3f},"
      f"rounds {' '.join(f'{x:.3f}' for x in ratios)}")
tc, tr, (q1, q2, q3), (o1, o2) = interleaved(run_tritonc, run_triton)
print(f"attention-interleaved,{row},{one or 'autotuned'},ws{int(ws)},tritonc {flops / tc * 1e-9:.1f} TFLOP/s,"
      f"triton {flops / tr * 1e-9:.1f},median ratio {q2:.3f},quartiles {q1:.3f} {q3:.3f},"
      f"tritonc first {o1:.3f},triton first {o2:.3f}")
if not bwd:   # the next mark, in the same process
    sd = triton.testing.do_bench(lambda: torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=bool(causal), scale=sm_scale))
    print(f"sdpa,{row},{sd:.4f} ms,{flops / sd * 1e-9:.1f} TFLOP/s")
