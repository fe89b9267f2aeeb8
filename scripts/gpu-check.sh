#!/bin/sh
# gpu-check.sh — on a machine with an NVIDIA GPU: builds tritonc, then runs the
# whole kernel conformance suite (tests/test_kernels*.c) with every launch shadowed on the GPU
# under num_warps 1, 2, 4 and 8, comparing every element of every tensor argument with the
# interpreter's result (tests/gpu_shadow.c: bitwise for integers and bools; floats bitwise or
# within rtol 1e-5 / atol 1e-6 for fp32/fp64 and rtol 1e-2 / atol 1e-3 for fp16/bf16, where
# the GPU op is approximate: exp/log/sqrt/div.full, sums in another order). Then runs the
# chapter's example on the GPU with the real target printed.
# Usage: scripts/gpu-check.sh            (build dir: $B, default build-gpu)
# Exit status 0 only when every lowering, launch and comparison succeeded.
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
CC=${CC:-cc}
JOBS=$(nproc 2>/dev/null || echo 8)
make B="$B" -j"$JOBS" all "$B/run_tests" >"$B.log" 2>&1 || { cat "$B.log"; exit 1; }
$CC -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -o "$B/gpu_shadow" "$B/tests/main.o" "$B"/tests/test_*.o \
    tests/gpu_shadow.c "$B/libtritonc-internal.a" -lm -ldl -lpthread \
    -Wl,--wrap=tc_launch,--wrap=tc_module_load_string,--wrap=tc_module_load_file,--wrap=tc_module_kernel
echo "== tritonc info"
"./$B/tritonc" info || true
echo "== kernel suite: interpreter vs GPU, num_warps 1 2 4 8"
status=0
TRITONC_SHADOW=gpu TRITONC_PTXAS=/nonexistent TRITONC_BUILD="$B" "./$B/gpu_shadow" kern_ >"$B/gpu-check.out" 2>&1 || status=$?
grep -E "gpu-shadow|^[0-9]+ (tests run|passed)" "$B/gpu-check.out" | cut -c1-600
if [ -x "$B/examples/04_standalone_complete" ]; then
    echo "== chapter example on the GPU"
    "./$B/examples/04_standalone_complete" || status=1
fi
# the suite's own assertions run on the interpreter; only the shadow's verdict counts here
if [ "$status" = 3 ]; then echo "gpu-check: FAILED"; exit 1; fi
echo "gpu-check: done"
