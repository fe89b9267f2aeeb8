#!/bin/sh
# bench/gpu/matmul_tuned.sh — on a GPU machine: issue 11's autotuned row. Both sides tune
# tutorial 03's matmul_kernel (the file at $TUT/03-matrix-multiplication.py, unchanged) over
# the file's own CUDA config list: tritonc with `tritonc tune`, Triton with its autotuner.
# Then tritonc's choice, compiled to a cubin from the same file, and Triton's tuned kernel
# are timed in one process in mirrored rounds (matmul_ab.sh with FILE and TUNED the file),
# results checked against torch first. Usage: TUT=dir bench/gpu/matmul_tuned.sh M N K (fp16)
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
M=$1 N=$2 K=$3
F="$TUT/03-matrix-multiplication.py"
[ -f "$F" ] || { echo "matmul_tuned.sh: no $F (set TUT)" >&2; exit 2; }
d=$(mktemp -d)
"./$B/tritonc" tune "$F" matmul_kernel --force --grid 'cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)' \
    a_ptr="fp16:randn($M,$K)" b_ptr="fp16:randn($K,$N)" c_ptr="fp16:empty($M,$N)" M=$M N=$N K=$K \
    stride_am=$K stride_ak=1 stride_bk=$N stride_bn=1 stride_cm=$N stride_cn=1 ACTIVATION='""' >"$d/tune.txt" 2>&1 ||
    { cat "$d/tune.txt"; exit 1; }
grep -E "^\*|best config|benchmarked" "$d/tune.txt" | sed 's/^/tritonc tune: /'
best=$(sed -n 's/^best config: //p' "$d/tune.txt")
val() { echo "$best" | tr ',' '\n' | sed -n "s/^ *$1: //p"; }
BM=$(val BLOCK_SIZE_M) BN=$(val BLOCK_SIZE_N) BK=$(val BLOCK_SIZE_K) GM=$(val GROUP_SIZE_M)
W=$(val num_warps) S=$(val num_stages)
FILE="$F" TUNED="$F" sh bench/gpu/matmul_ab.sh $M $N $K float16 $BM $BN $BK $GM $W $S
rm -rf "$d"
