#!/bin/sh
# bench/gpu/graph_chain.sh — issue 16, item 3 on a GPU machine: the 100-kernel chain, plain
# and as a replayed CUDA graph, for tritonc, Triton and PyTorch in one run (same kernel body:
# x += 1 on 128 floats). Goal: tritonc's replay <= PyTorch's and <= 1 us per kernel.
#   make -j && sh bench/gpu/graph_chain.sh
set -e
B=${B:-build}
cc -std=c11 -O2 -Iinclude -o "$B/graph_chain" bench/gpu/graph_chain.c "$B/libtritonc.a" -lm -ldl -lpthread
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
"$B/graph_chain" bench/gpu/graph_chain.py
python3 bench/gpu/graph_chain.py
