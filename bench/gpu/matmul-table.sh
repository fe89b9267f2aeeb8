#!/bin/sh
# bench/gpu/matmul-table.sh — on a GPU machine: the matmul rows of issue 11, each config
# timed by tritonc and Triton in the same run (bench/gpu/matmul.sh), Triton both on its
# default path and on its mma.sync path (DISABLE_MMA_V3=1), three interleaved repeats.
# Writes bench/results/matmul-<date>.md. Usage: bench/gpu/matmul-table.sh
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
make B="$B" -j"$(nproc 2>/dev/null || echo 8)" "$B/tritonc" "$B/libtritonc-internal.a" >/dev/null
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -Isrc -o "$B/bench" bench/gpu/bench.c "$B/libtritonc-internal.a" -lm -ldl -lpthread
OUT=bench/results/matmul-$(date -u +%Y-%m-%d).md
T=$(mktemp)
for rep in 1 2 3; do
  for cfg in "4096 4096 4096 float16 128 256 64 8 8 3" "4096 4096 4096 float16 128 128 32 8 4 3" \
             "8192 8192 8192 float16 128 256 64 8 8 3" "4096 4096 4096 bfloat16 128 256 64 8 8 3" \
             "4000 4000 4000 float16 128 256 64 8 8 3" "4096 4096 4096 float32 128 128 32 8 4 3"; do
    echo "== $cfg rep $rep" >> "$T"
    bench/gpu/matmul.sh $cfg >> "$T" 2>&1 || true
    DISABLE_MMA_V3=1 python3 bench/gpu/matmul_triton.py $cfg 2>&1 | sed 's/^triton,/triton-mmav2,/' | grep -v cublas >> "$T" || true
  done
done
# cold compile of one tensor-core specialization, both sides with empty caches
for rep in 1 2 3; do
    D=$(mktemp -d)
    CUDA_CACHE_DISABLE=1 TRITONC_CACHE_DIR="$D/tc" "./$B/bench" cold_matmul bench/gpu/kernels.py bench/gpu/matmul.py >> "$T" 2>&1 || true
    CUDA_CACHE_DISABLE=1 TRITON_CACHE_DIR="$D/tr" python3 bench/gpu/matmul_cold.py >> "$T" 2>&1 || true
    rm -rf "$D"
done
{
  echo "# matmul: tritonc vs Triton 3.6 on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  echo
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'). Command: \`bench/gpu/matmul-table.sh\` (per row:"
  echo "\`bench/gpu/matmul.sh M N K DTYPE BM BN BK GROUP WARPS STAGES\`). Kernel: bench/gpu/matmul.py"
  echo "(tutorial 03's pattern), the same file and config on both sides; tritonc timed by"
  echo "\`tritonc bench\` (median), Triton by triton.testing.do_bench (mean); triton-mmav2 is Triton"
  echo "with DISABLE_MMA_V3=1 (its mma.sync path). Raw lines:"
  echo
  echo '```'
  cat "$T"
  echo '```'
} > "$OUT"
cat "$OUT"
