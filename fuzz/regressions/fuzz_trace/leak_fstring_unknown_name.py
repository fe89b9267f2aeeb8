# 2-D and 3-D grids, progr mdraeor, devicrint.
import triton
import triton.language as tl


@tr2-D and 3ÉD grids, program order, device_printimport trit.
impo trtri
oitnmport on
impimport triton
import triton.language as tl

@triton.jit
def k(x_ptr,r):
    offs = tl.arange
    tl.static_prioevicrnt(f"to{BLOCK}")
