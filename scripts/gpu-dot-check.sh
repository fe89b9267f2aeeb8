#!/bin/sh
# gpu-dot-check.sh — on a machine with an NVIDIA GPU: the dot-bearing kernels of the suite
# (tests/test_kernels*.c: kern_dot*, kern_matmul*, kern_autotune*, kern_attention*) shadowed on
# the GPU under num_warps 1, 2, 4 and 8 and compared with the interpreter (tests/gpu_shadow.c),
# then matmul timings against Triton and cuBLAS (bench/gpu/matmul.sh) unless NOBENCH=1.
# Usage: scripts/gpu-dot-check.sh [test-name-filter...]   (build dir: $B, default build-gpu)
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
CC=${CC:-cc}
make B="$B" -j"$(nproc 2>/dev/null || echo 8)" all "$B/run_tests" >"$B.log" 2>&1 || { tail -30 "$B.log"; exit 1; }
$CC -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -o "$B/gpu_shadow" "$B/tests/main.o" "$B"/tests/test_*.o \
    tests/gpu_shadow.c "$B/libtritonc-internal.a" -lm -ldl -lpthread \
    -Wl,--wrap=tc_launch,--wrap=tc_module_load_string,--wrap=tc_module_load_file,--wrap=tc_module_kernel
[ $# -gt 0 ] || set -- kern_dot kern_matmul kern_autotune kern_attention
status=0
TRITONC_SHADOW=gpu TRITONC_PTXAS=/nonexistent TRITONC_BUILD="$B" "./$B/gpu_shadow" "$@" >"$B/gpu-dot-check.out" 2>&1 || status=$?
grep -E "gpu-shadow|^[0-9]+ (tests run|passed)" "$B/gpu-dot-check.out" | cut -c1-400 | tail -40
[ "$status" = 3 ] && echo "gpu-dot-check: FAILED"
[ "${NOBENCH:-0}" = 1 ] && exit 0
for cfg in "4096 4096 4096 float16 128 128 32 8 4 3" "4096 4096 4096 float16 128 256 64 8 8 3"; do
    bench/gpu/matmul.sh $cfg || true
done
