#!/bin/bash
# bench/gpu/attention_fwd-ncu.sh — on a GPU machine with ncu: the forward kernel of Triton's
# fused-attention tutorial ($TUT/06-fused-attention.py, unchanged), _attn_fwd, run once by
# tritonc and once by Triton (attention_triton.py with CONFIG) at one config, each under ncu
# with per-instruction counters (SourceCounters). Writes the SASS-level tables to
# $LOG/src_tritonc.csv and $LOG/src_triton.csv (ncu's source page; bench/gpu/sass_loops.py
# sums them per loop) and prints the time of each. Usage: TUT=dir
# bench/gpu/attention_fwd-ncu.sh Z H N_CTX HEAD_DIM CAUSAL CONFIG, CONFIG as
# BLOCK_M=128,BLOCK_N=64,num_warps=4,num_stages=3 (env: LOG, default /tmp/attn-fwd-ncu)
set -u
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
LOG=${LOG:-/tmp/attn-fwd-ncu}
Z=$1 H=$2 N=$3 D=$4 C=$5 CONFIG=$6
F="$TUT/06-fused-attention.py"
[ -f "$F" ] || { echo "attention_fwd-ncu.sh: no $F (set TUT)" >&2; exit 2; }
mkdir -p "$LOG"
make B="$B" -j"$(nproc)" "$B/tritonc" >"$LOG/build.log" 2>&1 || { tail -20 "$LOG/build.log"; exit 1; }
Y=$((Z * H * N))
STAGE=1; [ "$C" = 1 ] && STAGE=3
NCU="ncu --clock-control none --section SourceCounters --metrics gpu__time_duration.sum -k regex:_attn_fwd -c 1"
# shellcheck disable=SC2086
timeout 300 $NCU -o "$LOG/tritonc" -f "$B/tritonc" run "$F" _attn_fwd --config "$CONFIG" \
    --grid "(cdiv(N_CTX, BLOCK_M), Z * H, 1)" --tensor "q=fp16:randn($Y,$D)" --tensor "k=fp16:randn($Y,$D)" \
    --tensor "v=fp16:randn($Y,$D)" --tensor "o=fp16:zeros($Y,$D)" 'desc_q=desc(q,[1,1])' 'desc_k=desc(k,[1,1])' \
    'desc_v=desc(v,[1,1])' 'desc_o=desc(o,[1,1])' sm_scale=0.5 "M=fp32:zeros($Y)" Z="$Z" H="$H" N_CTX="$N" \
    HEAD_DIM="$D" FP8_OUTPUT=false STAGE=$STAGE warp_specialize=false IS_HOPPER=true >"$LOG/tritonc.txt" 2>&1
# shellcheck disable=SC2086
CONFIG="$CONFIG" TRITON_CACHE_DIR="$LOG/triton-cache" timeout 300 $NCU -o "$LOG/triton" -f \
    python3 bench/gpu/attention_triton.py "$F" "$Z" "$H" "$N" "$D" "$C" >"$LOG/triton.txt" 2>&1
for s in tritonc triton; do
    ncu -i "$LOG/$s.ncu-rep" --page source --csv --print-source sass >"$LOG/src_$s.csv" 2>&1
    echo "$s: $(ncu -i "$LOG/$s.ncu-rep" --page details 2>/dev/null | grep -E "gpu__time_duration" | tr -s ' ')"
    python3 bench/gpu/sass_loops.py "$LOG/src_$s.csv"
done
