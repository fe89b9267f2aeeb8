#!/bin/sh
# gpu-tma-check.sh — tensor descriptors through TMA (issue 13 item 2) on a machine with an
# NVIDIA GPU (sm_90+ to see TMA; elsewhere the same kernels run as ordinary loads):
#  1. the unit tests tma_ and desc_ (PTX for sm_90a and sm_80, ptxas, the tensor maps the
#     runtime encodes, against the fake driver);
#  2. tests/kernels/tma.py on the GPU and on the interpreter, outputs compared element by
#     element (OK / MISMATCH lines), each GPU run's path printed from --verbose ("note:
#     tensor descriptors through TMA ..." or "... as ordinary loads and stores"):
#       tile_scale  fp32 37x40 through 16x16 blocks (ragged edges), written into a 40x48
#                   buffer through a 37x40 descriptor (the rest must stay 0: clipped stores);
#                   also fp16 100x72 through 32x64 blocks
#       row_shift   1-D fp32, 1000 elements, 128-blocks read at i+shift (shift -5 and 7:
#                   zero fill on both ends): ordinary accesses, 1-D copies being refused by
#                   the H200 (illegal instruction); then once more with
#                   TRITONC_GPU_UNVERIFIED=tma1d, reported and not counted
#       batch_copy  3-D int32 5x20x16 through 2x8x16 blocks
#       desc_matmul fp16 256x128 @ 128x192 -> fp32 (64x64x32 and 64x64x64 blocks, 4 and 8
#                   warps): with 1 stage the loads copied straight into the dot's swizzled
#                   operand tiles, with 3 the loop's loads on the cp.async pipeline
#       tile_scale  fp32 5x6 4x4 blocks: rows of 24 bytes, TMA impossible -> ordinary path
#       made_tile   descriptors the kernel makes (tl.make_tensor_descriptor): fp32 37x48 and
#                   fp16 64x32, their maps filled by the kernel (tensormap.replace) in the
#                   launch's global scratch; fp32 37x40 (N = 40, not known to be a multiple of
#                   16) -> ordinary path
#  3. with TUT=/path/to/Triton/python/tutorials: 06-fused-attention's _attn_fwd with host
#     descriptors, GPU against interpreter (as scripts/gpu-desc-check.sh does); then with
#     plain tensors, so that the kernel makes its descriptors (causal and not).
# Usage: scripts/gpu-tma-check.sh      (env: B=build dir [build-gpu], TUT, TRITONC_GPU_UNVERIFIED:
# the areas to check with, all but tma1d)
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
# the caller's TRITONC_GPU_UNVERIFIED areas stay on (gpu-unverified-check.sh), all but tma1d,
# which runs apart below
AREAS=$(printf '%s' "${TRITONC_GPU_UNVERIFIED:-}" | sed 's/^all$/1/; s/^1$/invshare/' |
    tr ',' '\n' | grep -v '^tma1d$' | grep -v '^0$' | paste -sd, -)
export TRITONC_GPU_UNVERIFIED="$AREAS"
status=0
case "$B" in /*) ;; *) B="./$B" ;; esac
JOBS=$(nproc 2>/dev/null || echo 8)
make B="$B" -j"$JOBS" all "$B/run_tests" "$B/fake/libcuda.so.1" >"$B.log" 2>&1 || { tail -40 "$B.log"; exit 1; }
unset TRITONC_TARGET TRITON_INTERPRET
TC="$B/tritonc"
F=tests/kernels/tma.py
D=$(mktemp -d /tmp/tma-check.XXXXXX)
export TRITONC_CACHE_DIR="$D/cache"
echo "== unit tests: tma_ desc_"
TRITONC_BUILD="$B" "$B/run_tests" tma_ desc_ >"$D/unit.log" 2>&1 || status=1
tail -3 "$D/unit.log"
"$TC" info 2>&1 | head -3 || true

# compare NAME: $D/NAME_gpu.npy against $D/NAME_interp.npy (fp16/fp32/int32, no numpy)
compare() {
    python3 - "$D" "$1" "${2:-0}" <<'PY' || { echo "$1: compare failed"; status=1; }
import struct, sys
d, name, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
def load(p):
    b = open(p, 'rb').read(); hl = struct.unpack('<H', b[8:10])[0]
    h = b[10:10 + hl].decode(); data = b[10 + hl:]
    code = h.split("'descr': '")[1].split("'")[0][1:]
    fmt = {'f2': 'e', 'f4': 'f', 'i4': 'i', 'f8': 'd'}[code]
    return struct.unpack('<%d%s' % (len(data) // struct.calcsize(fmt), fmt), data)
g, i = load('%s/%s_gpu.npy' % (d, name)), load('%s/%s_interp.npy' % (d, name))
bad = [k for k, (x, y) in enumerate(zip(g, i)) if not (abs(x - y) <= tol * max(1.0, abs(y)))]
big = max((abs(x - y) for x, y in zip(g, i)), default=0)
print('%s: %s (%d elements, %d differ, largest |gpu - interpreter| = %g)' %
      (name, 'OK' if not bad and len(g) == len(i) else 'MISMATCH', len(g), len(bad), big))
if bad: print('  first differing flat indices:', bad[:8])
sys.exit(1 if bad or len(g) != len(i) else 0)
PY
}

# run NAME KERNEL ARGS...: on the GPU (path printed) and on the interpreter, saving y
run() {
    name=$1; shift
    for mode in gpu interp; do
        X=; [ $mode = interp ] && X="--interpret --target cuda:90"
        if ! "$TC" run $F "$@" $X --save "y=$D/${name}_$mode.npy" --verbose >"$D/$name.$mode.log" 2>&1; then
            echo "$name ($mode) FAILED:"; tail -15 "$D/$name.$mode.log"
        fi
        [ $mode = gpu ] && { printf '%s path: ' "$name"; grep -E '^note: .*tensor (descriptors|maps? made)|tl.dot on' "$D/$name.gpu.log" | tr '\n' ' '; echo; }
    done
    compare "$name" "$TOL"
}

TOL=0
echo "== tile_scale fp32 37x40, 16x16 blocks, into a 40x48 buffer"
run tile32 tile_scale --tensor 'x=fp32:randn(37,40)' --tensor 'y=fp32:zeros(40,48)' \
    'x_desc=desc(x,[16,16])' 'y_desc=desc(y,[16,16],shape=[37,40],strides=[48,1])' BM=16 BN=16 \
    --grid 3,3 --seed 1
echo "== tile_scale fp16 100x72, 32x64 blocks"
run tile16 tile_scale --tensor 'x=fp16:randn(100,72)' --tensor 'y=fp16:zeros(100,72)' \
    'x_desc=desc(x,[32,64])' 'y_desc=desc(y,[32,64])' BM=32 BN=64 --grid 4,2 --seed 2
for s in -5 7; do
    echo "== row_shift shift=$s"
    run "shift$s" row_shift --tensor 'x=fp32:randn(1000)' --tensor 'y=fp32:zeros(1000)' \
        'x_desc=desc(x,[128])' 'y_desc=desc(y,[128])' shift=$s BN=128 --grid 8 --seed 3
done
echo "== row_shift shift=7 with TRITONC_GPU_UNVERIFIED=tma1d (1-D copies; not counted)"
keep=$status
export TRITONC_GPU_UNVERIFIED=tma1d
run shift7-tma1d row_shift --tensor 'x=fp32:randn(1000)' --tensor 'y=fp32:zeros(1000)' \
    'x_desc=desc(x,[128])' 'y_desc=desc(y,[128])' shift=7 BN=128 --grid 8 --seed 3
export TRITONC_GPU_UNVERIFIED="$AREAS"
status=$keep
echo "== batch_copy int32 5x20x16, 2x8x16 blocks"
run batch batch_copy --tensor 'x=i32:arange(1600)' --tensor 'y=i32:zeros(5,20,16)' \
    'x_desc=desc(x,[2,8,16],shape=[5,20,16],strides=[320,16,1])' 'y_desc=desc(y,[2,8,16])' \
    BB=2 BM=8 BN=16 --grid 3,3
echo "== tile_scale fp32 5x6, 4x4 blocks (no TMA: rows of 24 bytes)"
run small tile_scale --tensor 'x=fp32:randn(5,6)' --tensor 'y=fp32:zeros(5,6)' \
    'x_desc=desc(x,[4,4])' 'y_desc=desc(y,[4,4])' BM=4 BN=4 --grid 2,2 --seed 4
echo "== made_tile fp32 37x48 and fp16 64x32 (descriptors made in the kernel: tensormap.replace)"
run made32 made_tile 'x=fp32:randn(37,48)' 'y=fp32:zeros(37,48)' M=37 N=48 BM=16 BN=32 \
    --grid 3 --seed 6
run made16 made_tile 'x=fp16:randn(64,32)' 'y=fp16:zeros(64,32)' M=64 N=32 BM=16 BN=32 \
    --grid 4 --seed 7
echo "== made_tile fp32 37x40 (N = 40: the ordinary path)"
run made40 made_tile 'x=fp32:randn(37,40)' 'y=fp32:zeros(37,40)' M=37 N=40 BM=16 BN=32 \
    --grid 3 --seed 8
# desc_matmul NAME BK WARPS STAGES [env]: fp16 256x128 @ 128x192 -> fp32, 64x64xBK blocks
mm() {
    name=$1 bk=$2 nw=$3 ns=$4; shift 4
    for mode in gpu interp; do
        X=; [ $mode = interp ] && X="--interpret --target cuda:90"
        env "$@" "$TC" run $F desc_matmul --tensor 'a=fp16:randn(256,128)' --tensor 'b=fp16:randn(128,192)' \
            --tensor 'c=fp32:zeros(256,192)' "a_desc=desc(a,[64,$bk])" "b_desc=desc(b,[$bk,64])" \
            'c_desc=desc(c,[64,64])' K=128 BM=64 BN=64 BK=$bk --num-warps $nw --num-stages $ns --grid 4,3 --seed 5 $X \
            --save "c=$D/${name}_$mode.npy" --verbose >"$D/$name.$mode.log" 2>&1 || { echo "$name ($mode) FAILED:"; tail -15 "$D/$name.$mode.log"; }
        [ $mode = gpu ] && { printf '%s path: ' "$name"; grep -E '^note: .*tensor (descriptors|maps? made)|tl.dot on' "$D/$name.gpu.log" | tr '\n' ' '; echo; }
    done
    compare "$name" 1e-3
}
echo "== desc_matmul fp16 256x128 @ 128x192 -> fp32, 1 stage (TMA straight into swizzled operand tiles: 64B and 128B)"
mm mmdot32 32 4 1
mm mmdot64 64 4 1
mm mmdot64w8 64 8 1
echo "== the same, 3 stages (the loop's loads on the cp.async pipeline, the store by TMA)"
mm mmpipe32 32 4 3
mm mmpipe64w8 64 8 3

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
            --grid "(cdiv($S, BLOCK_M), 1)" --save "o=$D/att_$mode.npy" --verbose 2>&1 |
            grep -E '^note|^launch|rror' || true
    done
    compare att 1e-2
    for st in 1 3; do   # plain tensors: the kernel makes its descriptors (not causal, causal)
        for mode in gpu interp; do
            X=; [ $mode = interp ] && X="--interpret --target cuda:90"
            echo "== tutorial 06 _attn_fwd ($mode, descriptors made in the kernel, STAGE=$st)"
            "$TC" run "$TUT/06-fused-attention.py" _attn_fwd $X --config 0 --seed 1 \
                "desc_q=fp16:randn($S,64)" "desc_k=fp16:randn($S,64)" \
                "desc_v=fp16:randn($S,64)" "desc_o=fp16:zeros($S,64)" sm_scale=0.125 \
                "M=fp32:zeros($S)" Z=1 H=1 N_CTX=$S HEAD_DIM=64 FP8_OUTPUT=false STAGE=$st \
                warp_specialize=false IS_HOPPER=true --grid "(cdiv($S, BLOCK_M), 1)" \
                --save "desc_o=$D/attmade${st}_$mode.npy" --verbose 2>&1 | grep -E '^note|^launch|rror' || true
        done
        compare "attmade$st" 1e-2
    done
fi
rm -rf "$D"
echo "gpu-tma-check: $([ $status = 0 ] && echo passed || echo FAILED)"
exit $status
