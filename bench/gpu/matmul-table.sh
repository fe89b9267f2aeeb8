#!/bin/sh
# bench/gpu/matmul-table.sh — on a GPU machine: the matmul rows of issue 11, each config
# timed by tritonc and Triton in one process (bench/gpu/matmul_ab.sh: three mirrored rounds,
# results checked against torch), on the default paths and both on mma.sync
# (DISABLE_MMA_V3=1), cuBLAS beside; then the cold compile of one tensor-core specialization.
# Writes bench/results/matmul-<date>.md. Usage: bench/gpu/matmul-table.sh
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
make B="$B" -j"$(nproc 2>/dev/null || echo 8)" "$B/tritonc" "$B/libtritonc-internal.a" >/dev/null
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -Isrc -o "$B/bench" bench/gpu/bench.c "$B/libtritonc-internal.a" -lm -ldl -lpthread
OUT=bench/results/matmul-$(date -u +%Y-%m-%d).md
T=$(mktemp)
# each row: tritonc's cubin and Triton's kernel in one process, mirrored rounds
# (matmul_ab.sh); the mma.sync rows put both sides on it (DISABLE_MMA_V3=1)
for cfg in "4096 4096 4096 float16 128 256 64 8 8 3" "4096 4096 4096 float16 128 128 32 8 4 3" \
           "8192 8192 8192 float16 128 256 64 8 8 3" "4096 4096 4096 bfloat16 128 256 64 8 8 3" \
           "4000 4000 4000 float16 128 256 64 8 8 3" "4096 4096 4096 float32 128 128 32 8 4 3" \
           "4096 4096 4096 float8_e5m2 128 256 128 8 8 3" \
           "mma.sync 4096 4096 4096 float16 128 256 64 8 8 3" "mma.sync 8192 8192 8192 float16 128 256 64 8 8 3"; do
    echo "== $cfg" >> "$T"
    case $cfg in
    mma.sync*) DISABLE_MMA_V3=1 bench/gpu/matmul_ab.sh ${cfg#mma.sync } >> "$T" 2>&1 || true;;
    *) bench/gpu/matmul_ab.sh $cfg >> "$T" 2>&1 || true;;
    esac
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
  echo "\`bench/gpu/matmul_ab.sh M N K DTYPE BM BN BK GROUP WARPS STAGES\`). Kernel: bench/gpu/matmul.py"
  echo "(tutorial 03's pattern), the same file and config on both sides; tritonc's cubin and Triton's"
  echo "kernel timed in one process by triton.testing.do_bench, in three mirrored rounds (tritonc,"
  echo "Triton, Triton, tritonc); ratio: Triton's time over tritonc's (> 1: tritonc faster)."
  echo
  echo "| row | rounds | median ratio |"
  echo "|---|---|---|"
  sed -n 's/^tritonc-cubin,\(.*\),median ratio \([0-9.]*\),rounds \(.*\)$/| \1 | \3 | \2 |/p' "$T"
  echo
  echo "Raw lines:"
  echo
  echo '```'
  cat "$T"
  echo '```'
} > "$OUT"
cat "$OUT"
