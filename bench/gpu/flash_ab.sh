#!/bin/sh
# bench/gpu/flash_ab.sh — on a GPU machine: tests/kernels/flash_fwd.py's fa_fwd (flash
# attention's forward with plain pointers) compiled by tritonc to a cubin and timed against
# Triton's kernel of the same file in one process (flash_cubin.py). SETS: the
# TRITONC_GPU_UNVERIFIED settings to time, one cubin each (default "0"; "+" for ","), e.g.
# SETS="0 tma1d"; OLD=path/to/another/tritonc adds that build's cubin. Each is timed against
# Triton the same way.
# Usage: bench/gpu/flash_ab.sh N_CTX HEAD_DIM BM BN WARPS STAGES   (needs build-gpu/tritonc)
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
N=$1 D=$2 BM=$3 BN=$4 W=$5 S=$6
d=$(mktemp -d)
cubin() {   # tritonc binary, output cubin; prints the shared bytes
    "$1" compile tests/kernels/flash_fwd.py fa_fwd --target cuda:90a --num-warps $W --num-stages $S \
        Q='*fp16:16' K='*fp16:16' V='*fp16:16' Out='*fp16:16' sm_scale=fp32 stride_m=i32:16 \
        N_CTX=$N HEAD_DIM=$D BLOCK_M=$BM BLOCK_N=$BN --emit cubin -o "$2" --verbose >"$2.txt" 2>&1 || { cat "$2.txt" >&2; exit 1; }
    grep -o "[0-9]* bytes of shared" "$2.txt" | head -1 | cut -d' ' -f1
}
set --
for s in ${SETS:-0}; do
    sh_new=$(TRITONC_GPU_UNVERIFIED=$(echo "$s" | tr + ,) cubin "./$B/tritonc" "$d/$s.cubin")
    set -- "$@" "tritonc $s:$sh_new:$d/$s.cubin"
done
if [ -n "$OLD" ]; then
    sh_old=$(cubin "$OLD" "$d/old.cubin")
    set -- "$@" "old:$sh_old:$d/old.cubin"
fi
python3 bench/gpu/flash_cubin.py $N $D $BM $BN $W $S "$@"
rm -rf "$d"
