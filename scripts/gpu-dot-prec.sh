#!/bin/sh
# gpu-dot-prec.sh — on a machine with an NVIDIA GPU: the dots that reach the tensor cores by
# padding (M and N from 1, K from 16, 32 for 8-bit operands) or by splitting fp32
# (input_precision tf32x3 / bf16x3 / bf16x6 as Triton's F32DotTC), from
# tests/test_kernels_dot_tc.c, shadowed on the GPU under num_warps 1, 2, 4 and 8 and compared
# with the interpreter (tests/gpu_shadow.c: exact for the small-integer cases; fp32 within
# rtol 1e-5, which the positive inputs make a relative bound, against the formats' own
# errors of 2^-11 for tf32 and 2^-16 for bf16x3 per product), printing the worst relative
# difference of each launch. Needs no Triton. Exit status 0 only when nothing mismatched.
# Usage: scripts/gpu-dot-prec.sh [test-name-filter...]   (build dir: $B, default build-gpu)
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- kern_dot_small_shapes kern_dot_f32_
B=${B:-build-gpu}
export B
TRITONC_SHADOW_VERBOSE=1 NOBENCH=1 scripts/gpu-dot-check.sh "$@"
out="$B/gpu-dot-check.out"
[ -f "$out" ] || exit 1
echo "== worst relative differences (gpu vs interpreter), largest last"
grep -o "within tolerance (max rel [^)]*)" "$out" | sort -t' ' -k5 -g | tail -3
bad=$(grep -c -E "MISMATCH|GPU launch failed" "$out")
grep -E "MISMATCH|GPU launch failed" "$out" | cut -c1-400 | head -20
echo "gpu-dot-prec: $bad mismatching or failed launches"
[ "$bad" = 0 ]
