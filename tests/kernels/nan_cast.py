# Float -> integer casts of NaN: the GPU's cvt (PTX ISA) gives 1 << (bits - 1) from fp64 or
# into a 64-bit integer, 0 otherwise; the interpreter models it.
import triton
import triton.language as tl


@triton.jit
def nan_to_int(x_ptr, out_ptr, TO: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if TO == "i64":
        y = x.to(tl.int64)
    elif TO == "u64":
        y = x.to(tl.uint64)
    elif TO == "i32":
        y = x.to(tl.int32)
    elif TO == "u32":
        y = x.to(tl.uint32)
    elif TO == "i16":
        y = x.to(tl.int16)
    elif TO == "u16":
        y = x.to(tl.uint16)
    elif TO == "i8":
        y = x.to(tl.int8)
    elif TO == "u8":
        y = x.to(tl.uint8)
    else:
        y = x.to(tl.int1)
    tl.store(out_ptr + offs, y)
