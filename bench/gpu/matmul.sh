#!/bin/sh
# bench/gpu/matmul.sh — on a GPU machine: times bench/gpu/matmul.py's kernel under tritonc
# (`tritonc bench`) and Triton (matmul_triton.py, with cuBLAS through torch) for one shape and
# config. Usage: bench/gpu/matmul.sh M N K DTYPE BM BN BK GROUP WARPS STAGES
# (DTYPE: float16 | bfloat16 | float32 | float8_e5m2, the last as tutorial 03 runs fp8: B
# given transposed, contiguous along K). The two run one after the other, each heating the
# GPU for the next: bench/gpu/matmul_ab.sh gives the fairer ratio.
# Needs build-gpu/tritonc (make B=build-gpu).
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
M=$1 N=$2 K=$3 DT=$4 BM=$5 BN=$6 BK=$7 GM=$8 W=$9; shift 9; S=$1
case $DT in float16) T=fp16 O=fp16;; bfloat16) T=bf16 O=fp16;; float32) T=fp32 O=fp32;;
    float8_e5m2) T=fp8e5 O=fp16;; esac
BS="b_ptr=$T:randn($K,$N) stride_bk=$N stride_bn=1"
[ "$DT" = float8_e5m2 ] && BS="b_ptr=$T:randn($N,$K) stride_bk=1 stride_bn=$K"
flops=$((2 * M * N * K))
grid=$(( ((M + BM - 1) / BM) * ((N + BN - 1) / BN) ))
# launch CMD [options]: the kernel with this shape and config under `tritonc CMD`
# ($BS unquoted on purpose: three arguments)
launch() {
    cmd=$1; shift
    "./$B/tritonc" "$cmd" bench/gpu/matmul.py matmul_kernel --grid $grid --num-warps $W --num-stages $S \
        a_ptr="$T:randn($M,$K)" $BS c_ptr="$O:zeros($M,$N)" \
        M=$M N=$N K=$K stride_am=$K stride_ak=1 stride_cm=$N stride_cn=1 \
        BLOCK_SIZE_M=$BM BLOCK_SIZE_N=$BN BLOCK_SIZE_K=$BK GROUP_SIZE_M=$GM ACTIVATION="''" "$@"
}
launch bench --flops $flops 2>&1 | tail -3
# the same launch once more, its result checked against torch (CHECK=0 skips it)
if [ "${CHECK:-1}" = 1 ]; then
    d=$(mktemp -d)
    launch run --save a_ptr=$d/a.npy --save b_ptr=$d/b.npy --save c_ptr=$d/c.npy &&
        python3 bench/gpu/matmul_check.py $DT $d || echo "tritonc,check FAILED"
    rm -rf "$d"
fi
python3 bench/gpu/matmul_triton.py $M $N $K $DT $BM $BN $BK $GM $W $S
