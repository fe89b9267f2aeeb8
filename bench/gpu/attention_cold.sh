#!/bin/sh
# bench/gpu/attention_cold.sh — on a GPU machine: the compile time of one specialization of
# each kernel of the fused-attention tutorial (the file at $TUT/06-fused-attention.py,
# unchanged), both sides with empty caches and CUDA_CACHE_DISABLE=1, each in a process that
# has launched vector add first (issue 11's protocol): tritonc through the C API (bench.c
# cold_attn: the launch call to its result, and the launch report's compile time), Triton
# through the file's `attention` (attention_cold.py: the first call less a second). Forward:
# BLOCK_M 128, BLOCK_N min(128, HEAD_DIM), 4 warps, 3 stages; backward: the file's launch.
# Usage: TUT=dir bench/gpu/attention_cold.sh HEAD_DIM CAUSAL(0|1) [repeats, default 1]
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
D=$1 C=$2
F="$TUT/06-fused-attention.py"
[ -f "$F" ] || { echo "attention_cold.sh: no $F (set TUT)" >&2; exit 2; }
make B="$B" -j"$(nproc 2>/dev/null || echo 8)" "$B/libtritonc-internal.a" >/dev/null
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -Isrc -o "$B/bench" bench/gpu/bench.c "$B/libtritonc-internal.a" -lm -ldl -lpthread
for rep in $(seq "${3:-1}"); do
    T=$(mktemp -d)
    CUDA_CACHE_DISABLE=1 TRITONC_CACHE_DIR="$T/tc" "./$B/bench" cold_attn bench/gpu/kernels.py "$F" "$D" "$C"
    CUDA_CACHE_DISABLE=1 TRITON_CACHE_DIR="$T/tr" python3 bench/gpu/attention_cold.py "$F" "$D" "$C"
    rm -rf "$T"
done
