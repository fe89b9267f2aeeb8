# fp16 / bf16 arithmetic: + - * stay 16-bit (rounded per operation), / gives fp32.
import triton
import triton.language as tl


@triton.jit
def fp16_arith_kernel(x_ptr, y_ptr, out_ptr, out2_ptr, div_ptr, max_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = x * y + x
    tl.static_assert(z.dtype == tl.float16)
    tl.store(out_ptr + offs, z)
    w = z - y * 0.5
    tl.static_assert(w.dtype == tl.float16)
    tl.store(out2_ptr + offs, w)
    q = x / y
    tl.static_assert(q.dtype == tl.float32)
    tl.store(div_ptr + offs, q)
    mx = tl.maximum(x, 0.0)
    tl.static_assert(mx.dtype == tl.float32)
    tl.store(max_ptr + offs, mx)


@triton.jit
def bf16_add_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = x + y * y
    tl.static_assert(z.dtype == tl.bfloat16)
    tl.store(out_ptr + offs, z)
