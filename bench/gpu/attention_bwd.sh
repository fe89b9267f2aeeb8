#!/bin/sh
# bench/gpu/attention_bwd.sh — on a GPU machine: the backward kernel of Triton's
# fused-attention tutorial (the file at $TUT/06-fused-attention.py, unchanged), _attn_bwd,
# timed by `tritonc bench` and by Triton (attention_bwd_triton.py) with the same launch: the
# file's own config (BLOCK_M1 32, BLOCK_N1 128, BLOCK_M2 128, BLOCK_N2 32, BLK_SLICE_FACTOR 2,
# 4 warps, 5 stages), random fp16 inputs, M and delta zero. Usage:
# TUT=dir bench/gpu/attention_bwd.sh Z H N_CTX HEAD_DIM CAUSAL
# (env: SETS, the TRITONC_GPU_UNVERIFIED settings to time, default "0"; TRITON=0 skips Triton)
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
Z=$1 H=$2 N=$3 D=$4 C=$5
F="$TUT/06-fused-attention.py"
[ -f "$F" ] || { echo "attention_bwd.sh: no $F (set TUT)" >&2; exit 2; }
CAUSAL=false; [ "$C" = 1 ] && CAUSAL=true
flops=$((10 * Z * H * N * N * D)); [ "$C" = 1 ] && flops=$((flops / 2))
S="$Z,$H,$N,$D"
for u in ${SETS:-0}; do
    echo "tritonc TRITONC_GPU_UNVERIFIED=$u"
    TRITONC_GPU_UNVERIFIED=$u "./$B/tritonc" bench "$F" _attn_bwd --grid "$((N / 128)),1,$((Z * H))" \
        --num-warps 4 --num-stages 5 --flops $flops \
        "Q=fp16:randn($S)" "K=fp16:randn($S)" "V=fp16:randn($S)" "DO=fp16:randn($S)" \
        "DQ=fp16:zeros($S)" "DK=fp16:zeros($S)" "DV=fp16:zeros($S)" "M=fp32:zeros($((Z * H * N)))" \
        "D=fp32:zeros($((Z * H * N)))" sm_scale=0.5 stride_z=$((H * N * D)) stride_h=$((N * D)) \
        stride_tok=$D stride_d=1 H=$H N_CTX=$N BLOCK_M1=32 BLOCK_N1=128 BLOCK_M2=128 BLOCK_N2=32 \
        BLK_SLICE_FACTOR=2 HEAD_DIM=$D CAUSAL=$CAUSAL 2>&1 | tail -3
done
if [ "${TRITON:-1}" = 1 ]; then python3 bench/gpu/attention_bwd_triton.py "$F" $Z $H $N $D $C; fi
