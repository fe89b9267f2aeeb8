#!/bin/sh
# bench/gpu/session.sh — everything a change to the GPU path must be measured with, in one
# device run (device time is scarce): the GPU conformance check (scripts/gpu-check.sh), the
# benchmarks against Triton (bench/gpu/run.sh all, written to bench/results/gpu-<date>.md),
# tritonc's softmax and layernorm again with TRITONC_OCCUPANCY=0 (the occupancy step off),
# and the interpreter benchmark next to Triton's interpreter on the same host CPU.
# Logs go to $OUT (default /tmp/tritonc-session). Usage: bench/gpu/session.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tritonc-session}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed -n 1p), $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | sed -n 1p)"
make -j"$(nproc)" >"$OUT/make.log" 2>&1 || { tail -20 "$OUT/make.log"; exit 1; }

echo "== scripts/gpu-check.sh"
scripts/gpu-check.sh >"$OUT/gpu-check.txt" 2>&1; echo "exit $?" >>"$OUT/gpu-check.txt"
grep -E "gpu-shadow:|^exit|num_warps=|compute_capability=" "$OUT/gpu-check.txt"

echo "== bench/gpu/run.sh all"
bench/gpu/run.sh all >"$OUT/bench.txt" 2>&1; echo "exit $?" >>"$OUT/bench.txt"
cp bench/results/gpu-"$(date -u +%Y-%m-%d)".md "$OUT/" 2>/dev/null

echo "== TRITONC_OCCUPANCY=0: tritonc's softmax and layernorm as generated"
for k in softmax layernorm; do
    TRITONC_OCCUPANCY=0 ./build-gpu/bench kernels bench/gpu/kernels.py "$k"
done >"$OUT/occupancy-off.csv" 2>&1

echo "== interpreter: bench/interp.sh and Triton's interpreter"
REPEAT=5 bench/interp.sh --no-build --no-save >"$OUT/interp.txt" 2>&1
TRITON_INTERPRET=1 python3 bench/interp_triton.py >>"$OUT/interp.txt" 2>&1

echo "== summary"
sed -n '/^Best configuration/,/^$/p;/^| kernel | shape | tritonc best/,/^$/p' "$OUT/bench.txt" | grep "^|"
grep -E "launch|cold" "$OUT/bench.txt" | grep -v "^|"
echo "occupancy off (tritonc ms):"
cut -d, -f2-5,7 "$OUT/occupancy-off.csv"
grep -E "^\|" "$OUT/interp.txt" | tail -3
grep -v "^|" "$OUT/interp.txt" | tail -3
