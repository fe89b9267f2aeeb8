#!/bin/sh
# bench/gpu/made_matmul.sh — on a GPU machine: tests/kernels/dot_tc.py's
# made_desc_matmul_kernel, a persistent matmul through descriptors the kernel makes
# (tensormap.replace on sm_90a), timed by `tritonc bench` and by Triton
# (made_matmul_triton.py) with the same launch. Usage: bench/gpu/made_matmul.sh [M N K]
# (env: BM BN BK [128 128 64], STAGES [3], WARPS [8], NPROG [the GPU's SMs: 132 on the H200];
# TRITON=0 skips Triton)
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
M=${1:-4096} N=${2:-4096} K=${3:-4096}
BM=${BM:-128} BN=${BN:-128} BK=${BK:-64} STAGES=${STAGES:-3} WARPS=${WARPS:-8} NPROG=${NPROG:-132}
ARGS="a_ptr=fp16:randn($M,$K) b_ptr=fp16:randn($N,$K) c_ptr=fp32:zeros($M,$N) M=$M N=$N K=$K BM=$BM BN=$BN BK=$BK NPROG=$NPROG STAGES=$STAGES"
# the path it took (--verbose), then the timing
"./$B/tritonc" run tests/kernels/dot_tc.py made_desc_matmul_kernel --grid "$NPROG" --num-warps "$WARPS" \
    --num-stages "$STAGES" $ARGS --verbose 2>&1 | grep -E "tensor map|tl.dot|rror" || true
"./$B/tritonc" bench tests/kernels/dot_tc.py made_desc_matmul_kernel --grid "$NPROG" \
    --num-warps "$WARPS" --num-stages "$STAGES" --flops $((2 * M * N * K)) $ARGS 2>&1 | tail -4
if [ "${TRITON:-1}" = 1 ]; then python3 bench/gpu/made_matmul_triton.py $M $N $K $BM $BN $BK $NPROG $STAGES $WARPS; fi
