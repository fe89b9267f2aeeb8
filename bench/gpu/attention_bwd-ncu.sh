#!/bin/bash
# bench/gpu/attention_bwd-ncu.sh — on a GPU machine with ncu: the backward kernel of Triton's
# fused-attention tutorial ($TUT/06-fused-attention.py, unchanged), _attn_bwd, run by tritonc
# and by Triton (attention_bwd_triton.py) under ncu side by side, one row (default Z 4, H 32,
# N_CTX 4096, HEAD_DIM 64, not causal): stall reasons per issued instruction, issued
# instructions, bank conflicts, tensor-pipe activity, registers, shared memory, time; and
# Triton's PTX and SASS next to tritonc's. Usage: TUT=dir bench/gpu/attention_bwd-ncu.sh
# [Z H N_CTX HEAD_DIM CAUSAL] (env: LOG, default /tmp/attn-bwd-ncu; TRITONC_GPU_UNVERIFIED
# passes through to tritonc)
set -u
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
LOG=${LOG:-/tmp/attn-bwd-ncu}
Z=${1:-4} H=${2:-32} N=${3:-4096} D=${4:-64} C=${5:-0}
F="$TUT/06-fused-attention.py"
[ -f "$F" ] || { echo "attention_bwd-ncu.sh: no $F (set TUT)" >&2; exit 2; }
mkdir -p "$LOG"
make B="$B" -j"$(nproc)" "$B/tritonc" >"$LOG/build.log" 2>&1 || { tail -20 "$LOG/build.log"; exit 1; }
CAUSAL=false; [ "$C" = 1 ] && CAUSAL=true
S="$Z,$H,$N,$D"
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,launch__shared_mem_per_block_dynamic,launch__registers_per_thread,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__cycles_active.avg'
KARGS="Q=fp16:randn($S) K=fp16:randn($S) V=fp16:randn($S) DO=fp16:randn($S) DQ=fp16:zeros($S)
 DK=fp16:zeros($S) DV=fp16:zeros($S) M=fp32:zeros($((Z * H * N))) D=fp32:zeros($((Z * H * N)))
 sm_scale=0.5 stride_z=$((H * N * D)) stride_h=$((N * D)) stride_tok=$D stride_d=1 H=$H N_CTX=$N
 BLOCK_M1=32 BLOCK_N1=128 BLOCK_M2=128 BLOCK_N2=32 BLK_SLICE_FACTOR=2 HEAD_DIM=$D CAUSAL=$CAUSAL"
# shellcheck disable=SC2086
timeout 300 ncu --clock-control none $M -k regex:_attn_bwd -c 1 "$B/tritonc" run "$F" _attn_bwd \
    --grid "$((N / 128)),1,$((Z * H))" --num-warps 4 --num-stages 5 $KARGS >"$LOG/ncu_tritonc.txt" 2>&1
TRITON_CACHE_DIR="$LOG/triton-cache" timeout 300 ncu --clock-control none $M -k regex:_attn_bwd -c 1 \
    python3 bench/gpu/attention_bwd_triton.py "$F" "$Z" "$H" "$N" "$D" "$C" >"$LOG/ncu_triton.txt" 2>&1
f=$(find "$LOG/triton-cache" -name '_attn_bwd.cubin' | head -1)
[ -n "$f" ] && { cuobjdump -sass "$f" >"$LOG/triton.sass"; cp "${f%.cubin}.ptx" "$LOG/triton.ptx"; }
SIG='*fp16:16, *fp16:16, *fp16:16, fp32, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, i32:16, i32:1, i32, i32:16'
"$B/tritonc" compile "$F" _attn_bwd --target cuda:90a --num-warps 4 --num-stages 5 --signature "$SIG" \
    BLOCK_M1=32 BLOCK_N1=128 BLOCK_M2=128 BLOCK_N2=32 BLK_SLICE_FACTOR=2 HEAD_DIM="$D" CAUSAL=$CAUSAL \
    --emit ptx -o "$LOG/tritonc.ptx" && "${PTXAS:-ptxas}" -arch=sm_90a "$LOG/tritonc.ptx" -o "$LOG/tritonc.cubin" &&
    cuobjdump -sass "$LOG/tritonc.cubin" >"$LOG/tritonc.sass"
echo "metric tritonc triton"
pat="stalled|inst_executed|conflicts|gmma|shared_mem|registers|duration|warps_active|cycles_active"
paste <(grep -E "$pat" "$LOG/ncu_tritonc.txt" | awk '{print $1, $NF}') <(grep -E "$pat" "$LOG/ncu_triton.txt" | awk '{print $NF}') |
    sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | awk '{printf "%-60s %16s %16s\n", $1, $2, $3}'
wc -l "$LOG"/*.sass 2>/dev/null
