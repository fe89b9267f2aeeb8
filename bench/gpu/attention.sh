#!/bin/sh
# bench/gpu/attention.sh — on a GPU machine: the forward kernel of Triton's fused-attention
# tutorial (the file at $TUT/06-fused-attention.py, unchanged) timed by `tritonc bench`
# (autotuned over the file's own configs, host tensor descriptors) and by Triton and torch
# SDPA (attention_triton.py) in the same run. Usage: TUT=dir bench/gpu/attention.sh Z H N_CTX HEAD_DIM CAUSAL
# (env: SETS, the TRITONC_GPU_UNVERIFIED settings to time, default "0"; TRITON=0 skips Triton;
# MADE=1 passes plain tensors, so that the kernel makes its descriptors: tensormap.replace)
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
Z=$1 H=$2 N=$3 D=$4 C=$5
F="$TUT/06-fused-attention.py"
Y=$((Z * H * N))
STAGE=1; [ "$C" = 1 ] && STAGE=3
flops=$((4 * Z * H * N * N * D)); [ "$C" = 1 ] && flops=$((flops / 2))
# one tritonc row per TRITONC_GPU_UNVERIFIED setting in SETS (default: the checked path
# only; e.g. SETS="0 tma1d" to measure an area before it becomes the default)
if [ "${MADE:-0}" = 1 ]; then
    set -- "desc_q=fp16:randn($Y,$D)" "desc_k=fp16:randn($Y,$D)" "desc_v=fp16:randn($Y,$D)" \
        "desc_o=fp16:zeros($Y,$D)"
else
    set -- --tensor "q=fp16:randn($Y,$D)" --tensor "k=fp16:randn($Y,$D)" --tensor "v=fp16:randn($Y,$D)" \
        --tensor "o=fp16:zeros($Y,$D)" 'desc_q=desc(q,[1,1])' 'desc_k=desc(k,[1,1])' \
        'desc_v=desc(v,[1,1])' 'desc_o=desc(o,[1,1])'
fi
for u in ${SETS:-0}; do
    echo "tritonc TRITONC_GPU_UNVERIFIED=$u${MADE:+ MADE=$MADE}"
    TRITONC_GPU_UNVERIFIED=$u "./$B/tritonc" bench "$F" _attn_fwd --grid "(cdiv(N_CTX, BLOCK_M), Z * H, 1)" --flops $flops \
        "$@" sm_scale=0.5 "M=fp32:zeros($Y)" Z=$Z H=$H \
        N_CTX=$N HEAD_DIM=$D FP8_OUTPUT=false STAGE=$STAGE warp_specialize=false IS_HOPPER=true 2>&1 | tail -3
done
if [ "${TRITON:-1}" = 1 ]; then python3 bench/gpu/attention_triton.py "$F" $Z $H $N $D $C; fi
