#!/bin/sh
# bench/gpu/matmul_ab.sh — on a GPU machine: compiles bench/gpu/matmul.py's kernel for one
# shape and config to a cubin (`tritonc compile --emit cubin`, specialized as Triton
# specializes the same call: pointers and integers divisible by 16 marked so, integers equal
# to 1 made constant) and times it against Triton's in one process (matmul_cubin.py: checked
# against torch first, then mirrored rounds, ROUNDS of them, default 3, then single runs
# interleaved, PAIRS of them, default 400; cuBLAS after).
# DISABLE_MMA_V3=1 applies to both sides; FILE: the kernel's file (default bench/gpu/matmul.py;
# matmul_tuned.sh gives tutorial 03's). Usage: bench/gpu/matmul_ab.sh M N K DTYPE BM BN BK
# GROUP WARPS STAGES (DTYPE: float16 | bfloat16 | float32 | float8_e5m2, the last as tutorial
# 03 runs fp8: B given transposed). Needs build-gpu/tritonc (make B=build-gpu).
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
M=$1 N=$2 K=$3 DT=$4 BM=$5 BN=$6 BK=$7 GM=$8 W=$9; shift 9; S=$1
case $DT in float16) T=fp16 O=fp16;; bfloat16) T=bf16 O=fp16;; float32) T=fp32 O=fp32;;
    float8_e5m2) T=fp8e5 O=fp16;; *) echo "matmul_ab.sh: unknown DTYPE $DT" >&2; exit 2;; esac
int() { if [ "$1" = 1 ]; then echo 1; elif [ $(($1 % 16)) = 0 ]; then echo i32:16; else echo i32; fi; }
SB="stride_bk=$(int $N) stride_bn=1"
[ "$DT" = float8_e5m2 ] && SB="stride_bk=1 stride_bn=$(int $K)"
d=$(mktemp -d)
"./$B/tritonc" compile "${FILE:-bench/gpu/matmul.py}" matmul_kernel --target cuda:90a --num-warps $W --num-stages $S \
    a_ptr="*$T:16" b_ptr="*$T:16" c_ptr="*$O:16" M=$(int $M) N=$(int $N) K=$(int $K) \
    stride_am=$(int $K) stride_ak=1 $SB stride_cm=$(int $N) stride_cn=1 \
    BLOCK_SIZE_M=$BM BLOCK_SIZE_N=$BN BLOCK_SIZE_K=$BK GROUP_SIZE_M=$GM ACTIVATION='""' \
    --emit cubin -o "$d/mm.cubin" --verbose >"$d/verbose.txt" 2>&1 || { cat "$d/verbose.txt"; exit 1; }
shared=$(grep -o "[0-9]* bytes of shared" "$d/verbose.txt" | head -1 | cut -d' ' -f1)
python3 bench/gpu/matmul_cubin.py "$d/mm.cubin" "${shared:-0}" $M $N $K $DT $BM $BN $BK $GM $W $S
rm -rf "$d"
