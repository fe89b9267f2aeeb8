#!/bin/sh
# bench/gpu/attention-table.sh — on a GPU machine: issue 13's table in one run, tutorial 06
# ($TUT/06-fused-attention.py, unchanged) forward (autotuned on both sides,
# bench/gpu/attention.sh) and backward (the file's config, bench/gpu/attention_bwd.sh), head
# dim 64 and 128, causal or not, Z 4, H 32, N_CTX 4096: TFLOP/s of tritonc, of Triton's best
# (warp_specialize False or True), their ratio, and torch SDPA's forward. The raw output of
# each row goes to $LOG (default /tmp/attention-table). Usage: TUT=dir bench/gpu/attention-table.sh
set -u
cd "$(dirname "$0")/../.."
LOG=${LOG:-/tmp/attention-table}
mkdir -p "$LOG"
[ -f "${TUT:-}/06-fused-attention.py" ] || { echo "attention-table.sh: set TUT to Triton's tutorials" >&2; exit 2; }
printf '%-8s %-4s %-6s %10s %10s %7s %10s\n' pass D causal tritonc Triton ratio SDPA
for pass in fwd bwd; do
    for row in "64 0" "128 0" "64 1" "128 1"; do
        set -- $row
        f="$LOG/$pass-d$1-c$2.txt"
        if [ $pass = fwd ]; then timeout 300 sh bench/gpu/attention.sh 4 32 4096 "$1" "$2" >"$f" 2>&1
        else timeout 200 sh bench/gpu/attention_bwd.sh 4 32 4096 "$1" "$2" >"$f" 2>&1; fi
        # tritonc: its bench row's TFLOP/s at the mean time (columns: warps, stages, median,
        # p20, p80, mean, TFLOP/s at the median, runs), the statistic Triton's do_bench
        # returns; Triton: the best of its rows
        tc=$(awk '$1 ~ /^[0-9]+$/ && NF == 8 {printf "%.2f\n", $7 * $3 / $6}' "$f" | tail -1)
        tr=$(awk -F, '/^triton-(ws[01]|bwd),/ && $3 ~ /^[0-9.]+$/ {if ($4 > b) b = $4} END {if (b) print b}' "$f")
        sd=$(awk -F, '/^sdpa,/ {print $4}' "$f")
        ratio=$(awk -v a="${tc:-0}" -v b="${tr:-0}" 'BEGIN {if (a > 0 && b > 0) printf "%.3f", a / b; else print "-"}')
        printf '%-8s %-4s %-6s %10s %10s %7s %10s\n' $pass "$1" "$2" "${tc:--}" "${tr:--}" "$ratio" "${sd:--}"
    done
done
