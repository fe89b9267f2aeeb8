#!/bin/sh
# attention-tutorial-check.sh — Triton's fused-attention tutorial (06-fused-attention.py, the
# file as Triton ships it, never copied here) forward and backward, fp16, causal and not,
# head_dim 64 and 128:
#  1. on the interpreter through the C API (scripts/attention-tutorial-check.c): _attn_fwd
#     with host descriptors (and once with plain tensors), then _attn_bwd_preprocess and
#     _attn_bwd as the tutorial's backward launches them, Z 1, H 2, N_CTX 128 and 256; O, M,
#     delta, dQ, dK, dV against the double reference of tests/attention_ref.h (its fp16 error
#     bound, relative rms <= 2^-10, and the tutorial's own atol 1e-2); the fp8 forward and the
#     warp_specialize forward too;
#  2. the same kernels through `tritonc run --interpret` (the command line loads and runs them);
#  3. _attn_fwd (plain tensors), _attn_bwd_preprocess and _attn_bwd lowered for sm_80 and
#     sm_90a: the dots on mma.sync / wgmma, and ptxas (where installed) accepts the PTX;
#  4. with GPU=1, on a machine with an NVIDIA GPU: step 1 on the GPU too, each output against
#     the interpreter's and the reference; then the GPU alone against the reference at N_CTX
#     1024 and 4096; then the suite's own attention kernels (tests/test_attention.c) shadowed
#     on the GPU (scripts/gpu-dot-check.sh attn_fwd_bwd).
# Usage: TUT=/path/to/06-fused-attention.py (or its directory) scripts/attention-tutorial-check.sh
#        (env: B=build dir [build, or build-gpu with GPU=1], GPU=1, QUICK=1 with GPU=1: step 4's
#        first checks only, PTXAS=path)
set -e
cd "$(dirname "$0")/.."
[ -n "$TUT" ] || { echo "attention-tutorial-check: set TUT to Triton's 06-fused-attention.py" >&2; exit 2; }
F=$TUT
[ -d "$F" ] && F="$F/06-fused-attention.py"
[ -f "$F" ] || { echo "attention-tutorial-check: no $F" >&2; exit 2; }
if [ "${GPU:-0}" = 1 ]; then B=${B:-build-gpu}; else B=${B:-build}; fi
case "$B" in /*) ;; *) B="./$B" ;; esac
CC=${CC:-cc}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
JOBS=$(nproc 2>/dev/null || echo 2)
[ "${GPU:-0}" = 1 ] || JOBS=2
mkdir -p "$B"
make B="$B" -j"$JOBS" "$B/libtritonc.a" "$B/tritonc" >"$B/attention-check.log" 2>&1 || { tail -30 "$B/attention-check.log"; exit 1; }
$CC -std=c11 -D_GNU_SOURCE -O2 -Iinclude -o "$B/attention-tutorial-check" scripts/attention-tutorial-check.c \
    "$B/libtritonc.a" -lm -ldl -lpthread
unset TRITON_INTERPRET
# without a GPU, the tutorial's host code (is_hopper(), supports_host_descriptor()) is
# answered for an assumed H100-class cuda:90; on a GPU machine the device answers
[ "${GPU:-0}" = 1 ] && unset TRITONC_TARGET || export TRITONC_TARGET=cuda:90
export TRITONC_CACHE_DIR=$(mktemp -d /tmp/attn-check.XXXXXX)
trap 'rm -rf "$TRITONC_CACHE_DIR"' EXIT
status=0
CHK="$B/attention-tutorial-check"

if [ "${QUICK:-0}" = 1 ] && [ "${GPU:-0}" = 1 ]; then
    # QUICK=1 GPU=1: only the GPU against the interpreter and the reference (no sections 1-3,
    # no N_CTX 4096, no shadowed suite), for a GPU call with little time
    "$CHK" "$F" --gpu --z 1 --h 2 --n 128 || status=1
    "$CHK" "$F" --gpu --fp8 --z 1 --h 1 --n 128 || status=1
    "$CHK" "$F" --gpu-only --n 1024 || status=1
    [ $status = 0 ] && echo "attention-tutorial-check: passed" || echo "attention-tutorial-check: FAILED"
    exit $status
fi

echo "== 1. forward and backward on the interpreter against the reference"
"$CHK" "$F" || status=1
"$CHK" "$F" --plain --n 256 --d 64 --causal 1 --z 2 --h 1 || status=1
# the forward's other paths: fp8 (one head: see --fp8 in the .c), and warp_specialize without
# IS_HOPPER, which splits the accumulator at BLOCK_M = HEAD_DIM = 128
"$CHK" "$F" --fp8 --z 1 --h 1 --n 128 || status=1
"$CHK" "$F" --ws --n 256 --d 128 --config BLOCK_M=128,BLOCK_N=64,num_stages=2,num_warps=4 || status=1

echo "== 2. tritonc run --interpret"
TC="$B/tritonc"
# runs a command; prints its launch report, or the end of its output when it fails
cli() {
    if out=$("$@" 2>&1); then echo "$out" | grep "^launch:"; else echo "$out" | tail -5; status=1; fi
}
S=128 D=64 BH=2
cli "$TC" run "$F" _attn_fwd --interpret --config 0 --seed 1 \
    --tensor "q=fp16:randn($((BH * S)),$D)" --tensor "k=fp16:randn($((BH * S)),$D)" \
    --tensor "v=fp16:randn($((BH * S)),$D)" --tensor "o=fp16:zeros($((BH * S)),$D)" \
    'desc_q=desc(q,[1,1])' 'desc_k=desc(k,[1,1])' 'desc_v=desc(v,[1,1])' 'desc_o=desc(o,[1,1])' \
    sm_scale=0.5 "M=fp32:zeros($BH,$S)" Z=1 H=$BH N_CTX=$S HEAD_DIM=$D FP8_OUTPUT=false STAGE=3 \
    warp_specialize=false IS_HOPPER=true --grid "(cdiv($S, BLOCK_M), $BH)" --verbose
cli "$TC" run "$F" _attn_bwd_preprocess --interpret --seed 1 "O=fp16:randn(1,$BH,$S,$D)" \
    "DO=fp16:randn(1,$BH,$S,$D)" "Delta=fp32:zeros(1,$BH,$S)" Z=1 H=$BH N_CTX=$S BLOCK_M=128 \
    HEAD_DIM=$D --grid "($S // 128, $BH)" --verbose
cli "$TC" run "$F" _attn_bwd --interpret --seed 1 --num-warps 4 --num-stages 5 \
    "Q=fp16:randn(1,$BH,$S,$D)" "K=fp16:randn(1,$BH,$S,$D)" "V=fp16:randn(1,$BH,$S,$D)" sm_scale=0.5 \
    "DO=fp16:randn(1,$BH,$S,$D)" "DQ=fp16:zeros(1,$BH,$S,$D)" "DK=fp16:zeros(1,$BH,$S,$D)" \
    "DV=fp16:zeros(1,$BH,$S,$D)" "M=fp32:zeros(1,$BH,$S)" "D=fp32:zeros(1,$BH,$S)" \
    stride_z=$((BH * S * D)) stride_h=$((S * D)) stride_tok=$D stride_d=1 H=$BH N_CTX=$S BLOCK_M1=32 \
    BLOCK_N1=128 BLOCK_M2=128 BLOCK_N2=32 BLK_SLICE_FACTOR=2 HEAD_DIM=$D CAUSAL=true \
    --grid "($S // 128, 1, $BH)" --verbose

echo "== 3. lowered for sm_80 and sm_90a"
P="$TRITONC_CACHE_DIR/ptx"
mkdir -p "$P"
for D in 64 128; do
    "$TC" compile "$F" _attn_fwd --target cuda:80 --target cuda:90a --num-warps 4 --num-stages 3 \
        -o "$P/fwd$D" sm_scale=fp32 M='*fp32:16' Z=i32 H=i32 desc_q='*fp16:16' desc_k='*fp16:16' \
        desc_v='*fp16:16' desc_o='*fp16:16' N_CTX=i32:16 HEAD_DIM=$D BLOCK_M=128 BLOCK_N=64 \
        FP8_OUTPUT=false STAGE=3 warp_specialize=false IS_HOPPER=true || status=1
    "$TC" compile "$F" _attn_bwd_preprocess --target cuda:80 --target cuda:90a -o "$P/pre$D" \
        O='*fp16:16' DO='*fp16:16' Delta='*fp32:16' Z=i32 H=i32 N_CTX=i32:16 BLOCK_M=128 HEAD_DIM=$D || status=1
    "$TC" compile "$F" _attn_bwd --target cuda:80 --target cuda:90a --num-warps 4 --num-stages 5 \
        -o "$P/bwd$D" Q='*fp16:16' K='*fp16:16' V='*fp16:16' sm_scale=fp32 DO='*fp16:16' DQ='*fp16:16' \
        DK='*fp16:16' DV='*fp16:16' M='*fp32:16' D='*fp32:16' stride_z=i32:16 stride_h=i32:16 \
        stride_tok=i32:16 stride_d=1 H=i32 N_CTX=i32:16 BLOCK_M1=32 BLOCK_N1=128 BLOCK_M2=128 \
        BLOCK_N2=32 BLK_SLICE_FACTOR=2 HEAD_DIM=$D CAUSAL=true || status=1
done
for f in "$P"/*.ptx; do
    n=$(basename "$f")
    case "$n" in
        *sm_80*) arch=sm_80 want='mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' ;;
        *) arch=sm_90a want='wgmma.mma_async.sync.aligned' ;;
    esac
    dots=yes
    case "$n" in pre*) dots=no ;; esac
    msg="$n: no dot"
    if [ $dots = yes ]; then
        if grep -q "$want" "$f" && ! grep -q 'fma.rn.f32' "$f"; then msg="$n: tensor cores ($want)"
        else msg="$n: FAILED: a dot is not on tensor cores"; status=1; fi
    fi
    if [ -x "$PTXAS" ]; then
        if "$PTXAS" -arch=$arch "$f" -o /dev/null; then msg="$msg, ptxas ok"; else msg="$msg, ptxas FAILED"; status=1; fi
    fi
    echo "  $msg"
done

if [ "${GPU:-0}" = 1 ]; then
    echo "== 4. on the GPU: against the interpreter and the reference"
    "$CHK" "$F" --gpu || status=1
    "$CHK" "$F" --gpu --fp8 --z 1 --h 1 --n 128 || status=1
    "$CHK" "$F" --gpu-only --n 1024 || status=1
    "$CHK" "$F" --gpu-only --n 4096 --z 1 --h 1 --causal 1 || status=1
    "$CHK" "$F" --gpu-only --n 4096 --z 1 --h 1 --causal 0 --d 128 || status=1
    echo "== 4b. tests/test_attention.c's kernels shadowed on the GPU"
    NOBENCH=1 B="$B" scripts/gpu-dot-check.sh attn_fwd_bwd || status=1
fi
[ $status = 0 ] && echo "attention-tutorial-check: passed" || echo "attention-tutorial-check: FAILED"
exit $status
