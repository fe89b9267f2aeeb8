#!/bin/sh
# gpu-hostpy-check.sh — the host-Python subset (issue 12) on a machine with an NVIDIA GPU:
#  1. the hostpy unit tests (tests/test_hostpy.c: they take the GPU branch where one exists);
#  2. tests/kernels/hostcode.py on the GPU: `persistent` stores the device's SM count taken
#     from torch.cuda.get_device_properties(...).multi_processor_count (compare with the
#     multiprocessor count `tritonc info` prints); `fill` autotunes over the configs that
#     survive early_config_prune (n=40: 8 of 10, BLOCK 32 and 16) and must print x = i;
#  3. `--target` naming another architecture than the device's is refused (exit 2), the
#     device's own is accepted; `--config 4` runs without benchmarking (x = 2i);
#  4. with TUT=/path/to/Triton/python/tutorials: 03-matrix-multiplication's matmul_kernel
#     loads and chooses its config from the GPU's answers (tl.dot on GPU is the lead's).
# Usage: scripts/gpu-hostpy-check.sh      (env: B=build dir [build-gpu], TUT)
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
case "$B" in /*) ;; *) B="./$B" ;; esac
JOBS=$(nproc 2>/dev/null || echo 8)
make B="$B" -j"$JOBS" all "$B/run_tests" "$B/fake/libcuda.so.1" >"$B.log" 2>&1 || { tail -40 "$B.log"; exit 1; }
unset TRITONC_TARGET TRITON_INTERPRET
TC="$B/tritonc"
F=tests/kernels/hostcode.py
export TRITONC_CACHE_DIR=$(mktemp -d /tmp/hostpy-check.XXXXXX)
echo "== unit tests: hostpy"
TRITONC_BUILD="$B" "$B/run_tests" hostpy 2>&1 | tail -4
echo "== tritonc info (multiprocessor count)"
"$TC" info | grep -i -E "multiprocessor|name|target" || true
echo "== persistent: NUM_SM from the device's properties"
"$TC" run $F persistent 'x_ptr=fp32:zeros(4)' n=4 --print x_ptr --verbose
echo "== fill: autotuned over the configs early_config_prune keeps"
"$TC" run $F fill 'x_ptr=fp32:zeros(40)' n=40 --grid 'cdiv(n, BLOCK)' --print x_ptr --verbose
echo "== fill --config 4 (BLOCK 32, SPLIT 2): x = 2i"
"$TC" run $F fill 'x_ptr=fp32:zeros(40)' n=40 --grid 'cdiv(n, BLOCK)' --config 4 --print x_ptr --verbose
ARCH=$("$TC" info 2>/dev/null | sed -n 's/.*arch=\([0-9]*\).*/\1/p' | head -1)
OTHER=80; [ "$ARCH" = 80 ] && OTHER=90
echo "== --target cuda:$OTHER on a cuda:$ARCH GPU: refused (exit 2)"
st=0; "$TC" run $F plain 'x_ptr=fp32:zeros(4)' n=4 --target cuda:$OTHER || st=$?
echo "exit status $st (expected 2)"
echo "== --target cuda:$ARCH: accepted"
"$TC" run $F plain 'x_ptr=fp32:zeros(4)' n=4 --target cuda:$ARCH --print x_ptr
if [ -n "$TUT" ] && [ -f "$TUT/03-matrix-multiplication.py" ]; then
    echo "== tutorial 03: matmul_kernel's configs from the GPU's answers (--config 7)"
    S=256
    "$TC" run "$TUT/03-matrix-multiplication.py" matmul_kernel --config 7 \
        "a_ptr=fp16:randn($S,$S)" "b_ptr=fp16:randn($S,$S)" "c_ptr=fp16:zeros($S,$S)" M=$S N=$S K=$S \
        stride_am=$S stride_ak=1 stride_bk=$S stride_bn=1 stride_cm=$S stride_cn=1 ACTIVATION= \
        --grid 'cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)' --verbose || true
fi
rm -rf "$TRITONC_CACHE_DIR"
