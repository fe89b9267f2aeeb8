#!/bin/sh
# gpu-fp8.sh — on a machine with an NVIDIA GPU: the 8-bit float casts and arithmetic of
# tests/test_fp8.c (kern_fp8_*) run on the GPU and compared bit for bit with the interpreter
# (tests/gpu_shadow.c, as scripts/gpu-check.sh does), three times: for the GPU's own target
# (sm_90a on an H200: cvt ...e5m2x2/e4m3x2), and with TRITON_OVERRIDE_ARCH=sm89 and sm80
# (PTX for those targets runs on newer GPUs through the driver's JIT), so that the sm_80 bit
# manipulation (fp8e5, fp8e4b15) is checked too; fp8e4nv is refused for sm80, as in Triton,
# so that run's verdict is read from its mismatch lines, not its exit status.
# Usage: scripts/gpu-fp8.sh            (build dir: $B, default build-gpu)
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
CC=${CC:-cc}
JOBS=$(nproc 2>/dev/null || echo 8)
make B="$B" -j"$JOBS" all "$B/run_tests" >"$B.log" 2>&1 || { cat "$B.log"; exit 1; }
$CC -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -o "$B/gpu_shadow" "$B/tests/main.o" "$B"/tests/test_*.o \
    tests/gpu_shadow.c "$B/libtritonc-internal.a" -lm -ldl -lpthread \
    -Wl,--wrap=tc_launch,--wrap=tc_module_load_string,--wrap=tc_module_load_file,--wrap=tc_module_kernel
status=0
for arch in "" sm89 sm80; do
    echo "== kern_fp8: interpreter vs GPU, target ${arch:-of the device}"
    s=0
    TRITON_OVERRIDE_ARCH=$arch TRITONC_SHADOW=gpu TRITONC_PTXAS=/nonexistent \
        "./$B/gpu_shadow" kern_fp8 >"$B/gpu-fp8-${arch:-dev}.out" 2>&1 || s=$?
    grep -E "gpu-shadow|^[0-9]+ (tests run|passed)" "$B/gpu-fp8-${arch:-dev}.out" | cut -c1-600
    # under sm80 the fp8e4nv launches are refused (as Triton refuses them): read its lines
    if [ "$s" = 3 ] && [ "$arch" != sm80 ]; then status=1; fi
done
if [ "$status" != 0 ]; then echo "gpu-fp8: FAILED"; exit 1; fi
echo "gpu-fp8: done"
