# What attention_triton.py and attention_ab.py share: Triton's fused-attention tutorial file
# loaded as a module (its `from attention_tma import ...`, a file beside it in Triton's repo
# that only its TMA backward uses, stubbed), and its forward's autotune list cut to one config.
import importlib.util, sys, types
import triton


def load(path):
    sys.modules.setdefault("attention_tma", types.SimpleNamespace(_attention_bwd_tma=None))
    spec = importlib.util.spec_from_file_location("tut06", path)
    tut = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tut)
    return tut


def pin_config(tut, one):
    """_attn_fwd autotuned over `one` alone: "BLOCK_M=128,BLOCK_N=64,num_warps=4,num_stages=3" """
    kv = dict(x.split("=") for x in one.split(","))
    nw, ns = int(kv.pop("num_warps")), int(kv.pop("num_stages"))
    tut._attn_fwd.configs = [triton.Config({k: int(v) for k, v in kv.items()}, num_warps=nw, num_stages=ns,
                                           pre_hook=tut._host_descriptor_pre_hook)]
