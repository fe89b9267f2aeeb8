#!/bin/sh
# gpu-desc-check.sh — tensor descriptors (issue 12 item 5) on a machine with an NVIDIA GPU:
#  1. the desc unit tests (tests/test_desc.c; the ptxas check of desc.load/store included);
#  2. tests/kernels/desc.py's tile_copy (partial 4x4 tiles of a 5x6 matrix, +1) and made_copy
#     (descriptors made in the kernel, transposed tiles) on the GPU: the printed y must equal
#     the interpreter's, which the script prints after it;
#  3. with TUT=/path/to/Triton/python/tutorials: 06-fused-attention's _attn_fwd with host
#     descriptors on the GPU and on the interpreter; the largest difference is printed
#     (expect fp16 rounding, about 1e-3 or less).
# Usage: scripts/gpu-desc-check.sh      (env: B=build dir [build-gpu], TUT)
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
case "$B" in /*) ;; *) B="./$B" ;; esac
JOBS=$(nproc 2>/dev/null || echo 8)
make B="$B" -j"$JOBS" all "$B/run_tests" "$B/fake/libcuda.so.1" >"$B.log" 2>&1 || { tail -40 "$B.log"; exit 1; }
unset TRITONC_TARGET TRITON_INTERPRET
TC="$B/tritonc"
F=tests/kernels/desc.py
export TRITONC_CACHE_DIR=$(mktemp -d /tmp/desc-check.XXXXXX)
echo "== unit tests: desc"
TRITONC_BUILD="$B" "$B/run_tests" desc_ 2>&1 | tail -4
for mode in "" --interpret; do
    echo "== tile_copy $mode (y = 1..30 as 5x6)"
    "$TC" run $F tile_copy $mode --tensor 'x=fp32:arange(30)' --tensor 'y=fp32:zeros(5,6)' \
        'src_desc=desc(x,[4,4],shape=[5,6])' 'dst_desc=desc(y,[4,4])' M=5 N=6 BM=4 BN=4 \
        --grid 2,2 --print y --verbose
    echo "== made_copy $mode (y = x[:, :3] transposed: rows 0 4 8 12 16 / 1 5 ... / 2 6 ...)"
    "$TC" run $F made_copy $mode 'x=fp32:arange(20)' 'y=fp32:zeros(3,5)' M=5 N=3 stride_m=4 \
        BM=4 BN=2 --grid 2,2 --print y
done
if [ -n "$TUT" ] && [ -f "$TUT/06-fused-attention.py" ]; then
    S=256
    for mode in gpu interp; do
        X=; [ $mode = interp ] && X="--interpret --target cuda:90"
        echo "== tutorial 06 _attn_fwd ($mode, host descriptors, --config 0)"
        "$TC" run "$TUT/06-fused-attention.py" _attn_fwd $X --config 0 --seed 1 \
            --tensor "q=fp16:randn($S,64)" --tensor "k=fp16:randn($S,64)" --tensor "v=fp16:randn($S,64)" \
            --tensor "o=fp16:zeros($S,64)" 'desc_q=desc(q,[1,1])' 'desc_k=desc(k,[1,1])' \
            'desc_v=desc(v,[1,1])' 'desc_o=desc(o,[1,1])' sm_scale=0.125 "M=fp32:zeros($S)" Z=1 H=1 \
            N_CTX=$S HEAD_DIM=64 FP8_OUTPUT=false STAGE=1 warp_specialize=false IS_HOPPER=true \
            --grid "(cdiv($S, BLOCK_M), 1)" --save "o=$TRITONC_CACHE_DIR/o_$mode.npy" --verbose || true
    done
    python3 - "$TRITONC_CACHE_DIR" <<'PY' || true
import ast, struct, sys
def load(p):
    b = open(p, 'rb').read(); hl = struct.unpack('<H', b[8:10])[0]
    d = b[10 + hl:]; return struct.unpack('<%de' % (len(d) // 2), d)
g, i = (load('%s/o_%s.npy' % (sys.argv[1], m)) for m in ('gpu', 'interp'))
print('06: largest |gpu - interpreter| =', max(abs(x - y) for x, y in zip(g, i)))
PY
fi
rm -rf "$TRITONC_CACHE_DIR"
