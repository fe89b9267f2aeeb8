#!/bin/sh
# scripts/gpu-embed.sh — issue 16 on a GPU machine: the caller's memory and views, one
# context from several threads, CUDA graphs and (with 2+ GPUs) another device, checked on the
# real GPU (tests/test_embed.c, TEST(embed_gpu)), then the same under ThreadSanitizer, then
# the transformer example against its C reference on the GPU (fp32 and fp16).
#   sh scripts/gpu-embed.sh          (run from the repository root)
set -e
make -j build/run_tests build/examples/transformer
TC_EMBED_GPU=1 ./build/run_tests embed_gpu
make -j TSAN=1 build-tsan/run_tests
TC_EMBED_GPU=1 TSAN_OPTIONS="suppressions=$PWD/tests/tsan.supp" ./build-tsan/run_tests embed_gpu
./build/examples/transformer --check
./build/examples/transformer --check --fp16 -B 2 -T 100 -C 256 -H 4
