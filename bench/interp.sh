#!/bin/sh
# bench/interp.sh — the CPU interpreter's speed.
#
# Builds tritonc with `make`, then times two kernels under the interpreter, best of
# $REPEAT runs (default 5):
#   vector add, 2^20 fp32, BLOCK=1024 (1024 programs)   (tutorial 01)
#   row softmax, 256 x 1024 fp32 (256 programs)          (tutorial 02)
#   matmul, fp16 1024^3, 64x64x32 tiles, fp32 accumulator (256 programs; tl.dot)
# For each it records (a) the whole `tritonc run` process, wall clock, including start-up,
# parsing, input generation and compilation, and (b) the kernel alone, as the launch
# report of `tritonc run --verbose` gives it ("ran in X ms"). It prints a markdown table
# next to Triton's own interpreter figures (Triton 3.6.0, TRITON_INTERPRET=1, on the Xeon
# host of an H200 machine: shared/reference/baseline-h200.md) and the speedups, with this
# machine's CPU, and writes the same text to bench/results/interp-<date>.md.
#
# Usage: bench/interp.sh [--no-build] [--no-save]     (REPEAT=N to change the repetitions)
set -eu

cd "$(dirname "$0")/.."
BUILD=1
SAVE=1
for a in "$@"; do
    case "$a" in
        --no-build) BUILD=0 ;;
        --no-save) SAVE=0 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/interp.sh: unknown option $a" >&2; exit 2 ;;
    esac
done
REPEAT=${REPEAT:-5}
B=${TRITONC_BUILD:-build}
TRITONC=./$B/tritonc

if [ "$BUILD" = 1 ]; then
    make -s >/dev/null
fi
[ -x "$TRITONC" ] || { echo "bench/interp.sh: $TRITONC not built" >&2; exit 1; }

# Triton's interpreter, from baseline-h200.md (seconds).
TRITON_ADD=1.37
TRITON_SOFTMAX=0.68
TRITON_MATMUL=23.1   # issue 15: bench/kernels/matmul.py's kernel, 1024^3, on the same host

now_ns() { date +%s%N; }

# run_best NAME CMD... : runs CMD $REPEAT times; sets BEST_WALL_MS and BEST_KERNEL_MS.
run_best() {
    name=$1; shift
    BEST_WALL_MS=
    BEST_KERNEL_MS=
    i=0
    while [ "$i" -lt "$REPEAT" ]; do
        t0=$(now_ns)
        if ! out=$("$@" 2>&1); then
            echo "bench/interp.sh: $name failed:" >&2
            echo "$out" >&2
            exit 1
        fi
        t1=$(now_ns)
        wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
        kern=$(printf '%s\n' "$out" | sed -n 's/.*ran in \([0-9.]*\) ms.*/\1/p' | tail -n 1)
        [ -n "$kern" ] || { echo "bench/interp.sh: no 'ran in X ms' in the --verbose output of $name:" >&2; echo "$out" >&2; exit 1; }
        BEST_WALL_MS=$(awk -v a="$wall" -v b="${BEST_WALL_MS:-}" 'BEGIN { if (b == "" || a + 0 < b + 0) print a; else print b }')
        BEST_KERNEL_MS=$(awk -v a="$kern" -v b="${BEST_KERNEL_MS:-}" 'BEGIN { if (b == "" || a + 0 < b + 0) print a; else print b }')
        i=$((i + 1))
    done
}

export TRITON_INTERPRET=1

N=1048576
run_best "vector add" "$TRITONC" run --interpret --verbose bench/kernels/vector_add.py add_kernel \
    --grid 1024 --seed 1 "x_ptr=fp32:rand($N)" "y_ptr=fp32:rand($N)" "output_ptr=fp32:empty($N)" \
    n_elements=$N BLOCK_SIZE=1024
ADD_WALL=$BEST_WALL_MS
ADD_KERN=$BEST_KERNEL_MS

run_best "softmax" "$TRITONC" run --interpret --verbose bench/kernels/softmax.py softmax_kernel \
    --grid 256 --seed 1 "output_ptr=fp32:empty(256,1024)" "input_ptr=fp32:randn(256,1024)" \
    input_row_stride=1024 output_row_stride=1024 n_rows=256 n_cols=1024 BLOCK_SIZE=1024 \
    num_stages=3
SM_WALL=$BEST_WALL_MS
SM_KERN=$BEST_KERNEL_MS

S=1024
run_best "matmul" "$TRITONC" run --interpret --verbose bench/kernels/matmul.py matmul_kernel \
    --grid 256 --seed 1 "a_ptr=fp16:randn($S,$S)" "b_ptr=fp16:randn($S,$S)" "c_ptr=fp16:empty($S,$S)" \
    M=$S N=$S K=$S stride_am=$S stride_ak=1 stride_bk=$S stride_bn=1 stride_cm=$S stride_cn=1 \
    BLOCK_M=64 BLOCK_N=64 BLOCK_K=32
MM_WALL=$BEST_WALL_MS
MM_KERN=$BEST_KERNEL_MS

CPU=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
[ -n "$CPU" ] || CPU=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
NCPU=$(nproc 2>/dev/null || echo "?")
DATE=$(date -u +%Y-%m-%d)
STAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo "unknown")

speedup() { awk -v t="$1" -v ms="$2" 'BEGIN { printf "%.0f×", t * 1000 / ms }'; }
secs() { awk -v ms="$1" 'BEGIN { printf "%.4f s", ms / 1000 }'; }

report() {
    cat <<EOF
# tritonc interpreter benchmark — $STAMP

- machine: $CPU ($NCPU CPUs, \`lscpu\` model name); commit $COMMIT
- command: \`bench/interp.sh\` (best of $REPEAT runs; TRITON_INTERPRET=1, \`tritonc run --interpret --verbose\`)
- "whole process" is the wall clock of one \`tritonc run\` (start-up, parsing, random inputs,
  compilation, run); "kernel" is the launch report's run time (all programs of the grid).
- Triton's figures: Triton 3.6.0 with TRITON_INTERPRET=1 on the Xeon host of an H200 machine
  (shared/reference/baseline-h200.md). Different CPUs: read the ratio as indicative only.

| kernel | Triton interpreter | tritonc whole process | speedup | tritonc kernel | speedup |
|---|---|---|---|---|---|
| vector add, 2^20 fp32, BLOCK=1024 (1024 programs) | ${TRITON_ADD} s | $(secs "$ADD_WALL") | $(speedup "$TRITON_ADD" "$ADD_WALL") | $(secs "$ADD_KERN") | $(speedup "$TRITON_ADD" "$ADD_KERN") |
| row softmax 256×1024 fp32 (256 programs) | ${TRITON_SOFTMAX} s | $(secs "$SM_WALL") | $(speedup "$TRITON_SOFTMAX" "$SM_WALL") | $(secs "$SM_KERN") | $(speedup "$TRITON_SOFTMAX" "$SM_KERN") |
| matmul fp16 1024³, 64×64×32 tiles (256 programs) | ${TRITON_MATMUL} s | $(secs "$MM_WALL") | $(speedup "$TRITON_MATMUL" "$MM_WALL") | $(secs "$MM_KERN") | $(speedup "$TRITON_MATMUL" "$MM_KERN") |

Goal: at least 100× faster than Triton's interpreter on comparable hardware.
EOF
}

report
if [ "$SAVE" = 1 ]; then
    mkdir -p bench/results
    report > "bench/results/interp-$DATE.md"
    echo
    echo "written to bench/results/interp-$DATE.md"
fi
