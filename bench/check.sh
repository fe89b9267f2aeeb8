#!/bin/sh
# bench/check.sh — the cost of check mode : `tritonc check` against
# `tritonc run` on the interpreter benchmark (bench/interp.sh's two kernels):
#   vector add, 2^20 fp32, BLOCK=1024 (1024 programs)
#   row softmax, 256 x 1024 fp32 (256 programs)
# Kernel time only: the launch report's "ran in X ms" of --verbose (for check it covers the
# recorded run, the shuffled comparison run and the report), best of $REPEAT runs (default
# 5). Also times `run --parallel` (all CPUs). Prints a markdown table and writes it to
# bench/results/check-<date>.md. Goal: check no more than 10x slower than run.
#
# Usage: bench/check.sh [--no-build] [--no-save]   (REPEAT=N, TRITONC_BUILD=DIR)
set -eu

cd "$(dirname "$0")/.."
BUILD=1
SAVE=1
for a in "$@"; do
    case "$a" in
        --no-build) BUILD=0 ;;
        --no-save) SAVE=0 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench/check.sh: unknown option $a" >&2; exit 2 ;;
    esac
done
REPEAT=${REPEAT:-5}
B=${TRITONC_BUILD:-build}
TRITONC=$B/tritonc
case "$TRITONC" in /*) ;; *) TRITONC=./$TRITONC ;; esac

if [ "$BUILD" = 1 ]; then
    make -s >/dev/null
fi
[ -x "$TRITONC" ] || { echo "bench/check.sh: $TRITONC not built" >&2; exit 1; }

# best_kernel_ms CMD... : the smallest "ran in X ms" over $REPEAT runs (exit 4 of check is
# accepted: it means findings, not failure).
best_kernel_ms() {
    best=
    i=0
    while [ "$i" -lt "$REPEAT" ]; do
        set +e
        out=$("$@" 2>&1)
        st=$?
        set -e
        if [ "$st" != 0 ] && [ "$st" != 4 ]; then
            echo "bench/check.sh: failed ($st): $*" >&2
            echo "$out" >&2
            exit 1
        fi
        k=$(printf '%s\n' "$out" | sed -n 's/.*ran in \([0-9.]*\) ms.*/\1/p' | tail -n 1)
        [ -n "$k" ] || { echo "bench/check.sh: no 'ran in X ms' in: $out" >&2; exit 1; }
        best=$(awk -v a="$k" -v b="${best:-}" 'BEGIN { if (b == "" || a + 0 < b + 0) print a; else print b }')
        i=$((i + 1))
    done
    echo "$best"
}

export TRITON_INTERPRET=1
N=1048576
ADD_ARGS="bench/kernels/vector_add.py add_kernel --grid 1024 --seed 1 x_ptr=fp32:rand($N) y_ptr=fp32:rand($N) output_ptr=fp32:empty($N) n_elements=$N BLOCK_SIZE=1024"
SM_ARGS="bench/kernels/softmax.py softmax_kernel --grid 256 --seed 1 output_ptr=fp32:empty(256,1024) input_ptr=fp32:randn(256,1024) input_row_stride=1024 output_row_stride=1024 n_rows=256 n_cols=1024 BLOCK_SIZE=1024 num_stages=3"

# shellcheck disable=SC2086
ADD_RUN=$(best_kernel_ms "$TRITONC" run --interpret --verbose $ADD_ARGS)
ADD_PAR=$(best_kernel_ms "$TRITONC" run --interpret --verbose --parallel $ADD_ARGS)
ADD_CHECK=$(best_kernel_ms "$TRITONC" check --verbose $ADD_ARGS)
SM_RUN=$(best_kernel_ms "$TRITONC" run --interpret --verbose $SM_ARGS)
SM_PAR=$(best_kernel_ms "$TRITONC" run --interpret --verbose --parallel $SM_ARGS)
SM_CHECK=$(best_kernel_ms "$TRITONC" check --verbose $SM_ARGS)
ADD_FIND=$("$TRITONC" check $ADD_ARGS 2>&1 | grep '^check:' || true)
SM_FIND=$("$TRITONC" check $SM_ARGS 2>&1 | grep '^check:' || true)

CPU=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
[ -n "$CPU" ] || CPU=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
NCPU=$(nproc 2>/dev/null || echo "?")
DATE=$(date -u +%Y-%m-%d)
STAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo "unknown")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f×", a / b }'; }

report() {
    cat <<EOF
# tritonc check mode cost — $STAMP

- machine: $CPU ($NCPU CPUs); commit $COMMIT (plus the working tree)
- command: \`bench/check.sh\` (best of $REPEAT runs of each; TRITON_INTERPRET=1)
- times are the launch report's kernel time (\`--verbose\`: "ran in X ms"); for \`check\`
  it includes the recorded program-order run, the shuffled comparison run on copies of the
  written tensors, and the report. Goal: check ≤ 10× run.

| kernel | run | check | check / run | run --parallel ($NCPU threads) |
|---|---|---|---|---|
| vector add, 2^20 fp32, BLOCK=1024 (1024 programs) | $ADD_RUN ms | $ADD_CHECK ms | $(ratio "$ADD_CHECK" "$ADD_RUN") | $ADD_PAR ms ($(ratio "$ADD_RUN" "$ADD_PAR") faster) |
| row softmax 256×1024 fp32 (256 programs) | $SM_RUN ms | $SM_CHECK ms | $(ratio "$SM_CHECK" "$SM_RUN") | $SM_PAR ms ($(ratio "$SM_RUN" "$SM_PAR") faster) |

Check reports (both clean):

    $ADD_FIND
    $SM_FIND
EOF
}

report
if [ "$SAVE" = 1 ]; then
    mkdir -p bench/results
    report > "bench/results/check-$DATE.md"
    echo
    echo "written to bench/results/check-$DATE.md"
fi
