#!/bin/sh
# bench/gpu/run.sh — on a GPU machine: builds tritonc, times tritonc (bench.c) and the
# machine's Triton (triton_bench.py) on the same kernels (kernels.py) and sizes, and writes
# bench/results/gpu-<date>.md with the ratios. Usage: bench/gpu/run.sh [add|softmax|layernorm|all]
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
WHICH=${1:-all}
make B="$B" -j"$(nproc 2>/dev/null || echo 8)" "$B/libtritonc-internal.a" >/dev/null
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -Isrc -o "$B/bench" bench/gpu/bench.c "$B/libtritonc-internal.a" -lm -ldl -lpthread
T=$(mktemp -d)
"./$B/bench" kernels bench/gpu/kernels.py "$WHICH" > "$T/tritonc.csv"
if [ "$WHICH" = all ]; then
    "./$B/bench" launch bench/gpu/kernels.py >> "$T/tritonc.csv"
    # an empty disk cache of its own: the runs above stored this kernel in the default one,
    # which made the cold row a cache hit
    CUDA_CACHE_DISABLE=1 TRITONC_CACHE_DIR="$T/cold-cache" "./$B/bench" cold bench/gpu/kernels.py >> "$T/tritonc.csv"
fi
python3 bench/gpu/triton_bench.py "$WHICH" > "$T/triton.csv" 2> "$T/triton.err" || cat "$T/triton.err"
mkdir -p bench/results
OUT=bench/results/gpu-$(date -u +%Y-%m-%d).md
{
    echo "# tritonc vs Triton on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    echo
    echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'). Command: \`bench/gpu/run.sh $WHICH\`. $(head -1 "$T/triton.err")"
    echo "Method: both sides time each run alone with CUDA events after flushing L2 (256 MB write), mean"
    echo "over runs (triton.testing.do_bench; bench/gpu/bench.c does the same). ratio > 1: tritonc faster. check: correctness, then rN = registers per thread."
    echo
    python3 bench/gpu/compare.py "$T/tritonc.csv" "$T/triton.csv"
    echo
    echo "Launch overhead and cold compile (raw lines):"
    echo
    echo '```'
    grep -E "launch|cold" "$T/tritonc.csv" "$T/triton.csv" | sed "s|$T/||" || true
    echo '```'
} > "$OUT"
cat "$OUT"
