#!/bin/sh
# gpu-tune-check.sh — autotuning on a machine with an NVIDIA GPU (and python3 with torch+triton):
#  1. builds tritonc and runs the tuning unit tests (tests/test_tune.c);
#  2. `tritonc tune` of the tutorial-style matmul's six configs (tests/kernels/autotune.py,
#     SIZE^3 fp16, default 512: tritonc's tl.dot is an FMA loop for now) and of a row softmax
#     over num_warps 1..16 (ROWS x COLS fp32), each in a fresh process with an empty cache:
#     every config compiled, benchmarked with do_bench, the best persisted on disk;
#  3. shows the persisted choices, then a second process for each that reuses them with no
#     benchmarking (its closing lines say so), and `tritonc bench` timing the chosen config;
#  4. Triton's autotuner on the same configs, in the same run (bench/tune/triton_tune.py);
#  5. writes bench/results/tune-<date>.md (and $OUT/tune-<date>.md when $OUT is set) with the
#     time to tune and the chosen configs side by side.
# Usage: scripts/gpu-tune-check.sh      (env: B=build dir [build-gpu], SIZE, ROWS, COLS)
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
case "$B" in /*) ;; *) B="./$B" ;; esac
JOBS=$(nproc 2>/dev/null || echo 8)
make B="$B" -j"$JOBS" all "$B/run_tests" "$B/fake/libcuda.so.1" >"$B.log" 2>&1 || { tail -40 "$B.log"; exit 1; }
echo "== tritonc info"
"$B/tritonc" info || true
echo "== unit tests: tune"
TRITONC_BUILD="$B" "$B/run_tests" tune 2>&1 | tail -4
W=$(mktemp -d /tmp/tune-check.XXXXXX)
export TRITONC_CACHE_DIR="$W/tritonc-cache" TRITON_CACHE_DIR="$W/triton-cache"
S=${SIZE:-512}; R=${ROWS:-4096}; C=${COLS:-4096}
TC="$B/tritonc"
F=tests/kernels/autotune.py
MM="a_ptr=fp16:randn($S,$S) b_ptr=fp16:randn($S,$S) c_ptr=fp16:zeros($S,$S) M=$S N=$S K=$S stride_am=$S stride_ak=1 stride_bk=$S stride_bn=1 stride_cm=$S stride_cn=1"
MMG="cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)"
SM="out_ptr=fp32:zeros($R,$C) in_ptr=fp32:randn($R,$C) in_row_stride=$C out_row_stride=$C n_cols=$C"
now() { date +%s.%N; }
: >"$W/times.txt"
step() {  # step NAME COMMAND...: runs it, tees its output to $W/NAME.txt, records its wall time
    name=$1; shift
    t0=$(now)
    st=0
    "$@" >"$W/$name.txt" 2>&1 || st=$?
    t1=$(now)
    cat "$W/$name.txt"
    echo "$name $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") $st" >>"$W/times.txt"
    echo "-- $name: exit $st, $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") s wall"
}
echo "== process 1: tritonc tune matmul_kernel ($S^3 fp16, 6 configs; empty caches)"
step mm1 env TRITON_PRINT_AUTOTUNING=1 $TC tune $F matmul_kernel $MM --grid "$MMG" --export "$W/tune-export.json"
echo "== process 1: tritonc tune softmax_kernel ($R x $C fp32, num_warps 1..16)"
step sm1 env TRITON_PRINT_AUTOTUNING=1 $TC tune $F softmax_kernel $SM --grid "$R"
echo "== the persisted choices ($TRITONC_CACHE_DIR/tune)"
ls -l "$TRITONC_CACHE_DIR/tune" || true
for f in "$TRITONC_CACHE_DIR"/tune/*.json; do echo "--- $f"; head -c 1500 "$f"; echo; done
echo "== process 2: the same tunings, reused from disk with no benchmarking"
step mm2 $TC tune $F matmul_kernel $MM --grid "$MMG"
step sm2 $TC tune $F softmax_kernel $SM --grid "$R"
echo "== process 3: tritonc bench launching with the persisted choice"
step mmb $TC bench $F matmul_kernel $MM --grid "$MMG" --flops $((2 * S * S * S))
step smb $TC bench $F softmax_kernel $SM --grid "$R" --bytes $((2 * R * C * 4))
echo "== num_warps sweep of a plain kernel (tritonc bench)"
step sweep $TC bench tests/kernels/vector_add.py add_kernel "x_ptr=fp32:rand(16777216)" "y_ptr=fp32:rand(16777216)" \
    "output_ptr=fp32:zeros(16777216)" n_elements=16777216 BLOCK_SIZE=1024 --grid 16384 \
    --num-warps 1 --num-warps 2 --num-warps 4 --num-warps 8 --bytes $((3 * 16777216 * 4))
echo "== Triton's autotuner on the same configs"
t0=$(now)
python3 bench/tune/triton_tune.py "$S" "$R" "$C" >"$W/triton.jsonl" 2>"$W/triton.err" || true
t1=$(now)
cat "$W/triton.jsonl"; tail -5 "$W/triton.err"
echo "triton $(awk "BEGIN{printf \"%.3f\", $t1 - $t0}") 0" >>"$W/times.txt"
D=$(date -u +%Y-%m-%d)
mkdir -p bench/results
python3 bench/tune/report.py "$W" "$S" "$R" "$C" "scripts/gpu-tune-check.sh" >"bench/results/tune-$D.md"
if [ -n "$OUT" ]; then mkdir -p "$OUT"; cp "bench/results/tune-$D.md" "$OUT/"; cp -r "$W" "$OUT/tune-work"; fi
echo "== bench/results/tune-$D.md"
cat "bench/results/tune-$D.md"
grep -q "no benchmarking now" "$W/mm2.txt" && grep -q "no benchmarking now" "$W/sm2.txt" && echo "gpu-tune-check: done" \
    || { echo "gpu-tune-check: the second process did not reuse the persisted choice"; exit 1; }
