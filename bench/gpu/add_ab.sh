#!/bin/sh
# bench/gpu/add_ab.sh — on a GPU machine: vector add (bench/gpu/kernels.py) compiled by tritonc
# to cubins (`tritonc compile --emit cubin`, 1, 2, 4 and 8 warps, specialized as Triton
# specializes the call: pointers and n divisible by 16) and timed beside Triton's in one
# process under do_bench (add_cubin.py). Usage: bench/gpu/add_ab.sh LOG2N... (default 20 24)
# Needs build-gpu/tritonc (make B=build-gpu).
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
d=$(mktemp -d)
for w in 1 2 4 8; do
    "./$B/tritonc" compile bench/gpu/kernels.py add_kernel --target cuda:90a --num-warps $w \
        x_ptr="*fp32:16" y_ptr="*fp32:16" output_ptr="*fp32:16" n_elements=i32:16 BLOCK_SIZE=1024 \
        --emit cubin -o "$d/add-w$w.cubin"
done
python3 bench/gpu/add_cubin.py "$d" ${*:-20 24}
rm -rf "$d"
