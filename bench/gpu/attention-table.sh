#!/bin/sh
# bench/gpu/attention-table.sh — on a GPU machine: issue 13's table in one run, tutorial 06
# ($TUT/06-fused-attention.py, unchanged), each row by bench/gpu/attention_ab.py (tritonc and
# Triton in one process, single runs interleaved): the forward autotuned on both sides, Triton
# with warp_specialize False and then True (its best kept; a setting that fails to compile is
# left out), and the backward at the file's config; head dim 64 and 128, causal or not, Z 4,
# H 32, N_CTX 4096. Prints TFLOP/s of tritonc and of Triton's best, the interleaved median
# ratio (Triton's time over tritonc's), torch SDPA's forward, and the forward's config on
# each side (BLOCK_M x BLOCK_N, warps, stages, Triton's warp_specialize). The raw output of each
# run goes to $LOG (default /tmp/attention-table); REUSE=1 prints the table from the logs
# already there, running nothing; PASSES="fwd" (default "fwd bwd") runs only those passes.
# Usage: TUT=dir bench/gpu/attention-table.sh
set -u
cd "$(dirname "$0")/../.."
LOG=${LOG:-/tmp/attention-table}
mkdir -p "$LOG"
[ "${REUSE:-0}" = 1 ] || [ -f "${TUT:-}/06-fused-attention.py" ] ||
    { echo "attention-table.sh: set TUT to Triton's tutorials" >&2; exit 2; }
# "128x64 w4 s3" from tritonc's "... BLOCK_M=128, BLOCK_N=64, ..., 4 warps, 3 stages, ..." line
# or Triton's "BLOCK_M: 128, BLOCK_N: 64, num_warps: 4, ..., num_stages: 3" one
cfg() {
    sed -n 's/.*BLOCK_M[=:] *\([0-9]*\), BLOCK_N[=:] *\([0-9]*\).* \([0-9]*\) warps, \([0-9]*\) stages.*/\1x\2 w\3 s\4/p
            s/.*BLOCK_M: \([0-9]*\), BLOCK_N: \([0-9]*\), num_warps: \([0-9]*\),.*num_stages: \([0-9]*\).*/\1x\2 w\3 s\4/p' | head -1
}
printf '%-5s %-4s %-6s %10s %10s %7s %10s  %-14s %s\n' pass D causal tritonc Triton ratio SDPA "tritonc cfg" "Triton cfg"
for pass in ${PASSES:-fwd bwd}; do
    for row in "64 0" "128 0" "64 1" "128 1"; do
        set -- $row
        best= line= tcfg= rcfg=
        for ws in 0 1; do
            [ $pass = bwd ] && [ $ws = 1 ] && continue
            f="$LOG/$pass-d$1-c$2-ws$ws.txt"
            [ "${REUSE:-0}" = 1 ] ||
                PASS=$pass TRITON_WS=$ws ROUNDS=${ROUNDS:-1} timeout 300 python3 bench/gpu/attention_ab.py \
                    "$TUT/06-fused-attention.py" 4 32 4096 "$1" "$2" >"$f" 2>&1
            # attention-interleaved,<row>,<config>,ws,tritonc X TFLOP/s,triton Y,median ratio R,...
            l=$(grep '^attention-interleaved,' "$f" | tail -1)
            r=$(echo "$l" | sed -n 's/.*,median ratio \([0-9.]*\),.*/\1/p')
            [ -n "$r" ] || continue
            if [ -z "$best" ] || awk -v a="$r" -v b="$best" 'BEGIN {exit !(a < b)}'; then
                best=$r line=$l tcfg= rcfg=
                if [ $pass = fwd ]; then
                    tcfg=$(grep -h 'tritonc ran' "$f" | cfg)
                    rcfg="$(grep -h "triton's config" "$f" | sed "s/.*triton's config //" | cfg) ws$ws"
                fi
            fi
        done
        tc=$(echo "$line" | sed -n 's/.*,tritonc \([0-9.]*\) TFLOP\/s,.*/\1/p')
        tr=$(echo "$line" | sed -n 's/.*,triton \([0-9.]*\),median.*/\1/p')
        sd=$(grep -h '^sdpa,' "$LOG/$pass-d$1-c$2-ws0.txt" 2>/dev/null | cut -d, -f4 | cut -d' ' -f1)
        printf '%-5s %-4s %-6s %10s %10s %7s %10s  %-14s %s\n' $pass "$1" "$2" "${tc:--}" "${tr:--}" "${best:--}" \
            "${sd:--}" "${tcfg:--}" "${rcfg:--}"
    done
done
