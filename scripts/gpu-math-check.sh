#!/bin/sh
# gpu-math-check.sh — on a machine with an NVIDIA GPU: builds tritonc and
# scripts/gpu-math-check.c, which runs every libdevice function the GPU backend lowers on a
# sweep of inputs (edge values: 0, -0, inf, NaN, subnormals, the largest finite, halves,
# large arguments; and random ones) on the GPU and on the interpreter and compares them
# within each function's tolerance (ulps; CUDA's bounds for the fast_* forms), plus 16-bit
# atomic_cas and masked 16-bit integer loads/stores packed two to a word. Usage:
# scripts/gpu-math-check.sh   (build dir: $B, default build-gpu)
# Exit status 0 only when every function agreed.
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
CC=${CC:-cc}
JOBS=$(nproc 2>/dev/null || echo 8)
make B="$B" -j"$JOBS" "$B/libtritonc.a" >"$B.math.log" 2>&1 || { cat "$B.math.log"; exit 1; }
$CC -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -o "$B/gpu-math-check" scripts/gpu-math-check.c \
    "$B/libtritonc.a" -lm -ldl -lpthread
"./$B/gpu-math-check"
