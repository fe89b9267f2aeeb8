#!/bin/sh
# bench/gpu/transformer.sh — issue 16, item 6 on a GPU machine: the transformer block of
# examples/transformer checked against its C reference at a small size (fp32 and fp16), then
# timed at batch 8 x 1024 tokens, d_model 1024, 16 heads, fp16, as a launch sequence and as
# a replayed graph, with the first forward from a cold cache (compile time), beside PyTorch
# eager and torch.compile (bench/gpu/transformer.py) in the same run.
#   make -j && sh bench/gpu/transformer.sh
set -e
B=${B:-build}
"$B/examples/transformer" --check
"$B/examples/transformer" --check --fp16 -B 2 -T 100 -C 256 -H 4
COLD=$(mktemp -d)
TRITONC_CACHE_DIR=$COLD "$B/examples/transformer" --fp16 --bench -B 8 -T 1024 -C 1024 -H 16
rm -rf "$COLD"
python3 bench/gpu/transformer.py 8 1024 1024 16
