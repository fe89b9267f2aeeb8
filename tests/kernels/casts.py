# Casts with .to(): truncation, rounding, wrapping, bool.
import triton
import triton.language as tl


@triton.jit
def f32_to_i32_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.int32))


@triton.jit
def f16_roundtrip_kernel(x_ptr, out_ptr, h_ptr, h2_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    h = x.to(tl.float16)
    tl.static_assert(h.dtype == tl.float16)
    tl.store(h_ptr + offs, h)
    tl.store(out_ptr + offs, h.to(tl.float32))
    # the store itself casts fp32 -> fp16 (RTNE)
    tl.store(h2_ptr + offs, x)


@triton.jit
def f32_to_bf16_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x.to(tl.bfloat16))


@triton.jit
def int_narrow_kernel(x_ptr, i8_ptr, i16_ptr, i8_as_i32_ptr, u8_as_i32_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(i8_ptr + offs, x.to(tl.int8))
    tl.store(i16_ptr + offs, x.to(tl.int16))
    # int8 -> int32 sign-extends, uint8 -> int32 zero-extends
    tl.store(i8_as_i32_ptr + offs, x.to(tl.int8))
    tl.store(u8_as_i32_ptr + offs, x.to(tl.uint8))


@triton.jit
def to_bool_kernel(x_ptr, f_ptr, b_ptr, fb_ptr, bmask_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    f = tl.load(f_ptr + offs)
    b = x.to(tl.int1)
    tl.static_assert(b.dtype == tl.int1)
    tl.store(b_ptr + offs, b.to(tl.int32))
    tl.store(fb_ptr + offs, f.to(tl.int1))
    tl.store(bmask_ptr + offs, b)


@triton.jit
def int_to_float_kernel(i_ptr, u_ptr, fi_ptr, fu_ptr, fb_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    tl.store(fi_ptr + offs, i.to(tl.float32))
    tl.store(fu_ptr + offs, u.to(tl.float32))
    tl.store(fb_ptr + offs, (i > 0).to(tl.float32))


@triton.jit
def f16_to_i32_kernel(h_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(h_ptr + offs)
    tl.store(out_ptr + offs, h.to(tl.int32))
