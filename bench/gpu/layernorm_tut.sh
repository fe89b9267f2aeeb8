#!/bin/sh
# bench/gpu/layernorm_tut.sh — on a GPU machine: the forward kernel of Triton's layer-norm
# tutorial (the file at $TUT/05-layer-norm.py, unchanged), _layer_norm_fwd_fused, timed by
# `tritonc bench` and by Triton (layernorm_tut_triton.py) with the launch the file makes
# (BLOCK_SIZE next_power_of_2(N), num_warps min(BLOCK_SIZE // 256, 8); fp16 weights and
# bias as the file's, fp32 mean and rstd), in three alternating rounds; medians of each.
# Usage: TUT=dir bench/gpu/layernorm_tut.sh [M N [float16|float32]] (default 4096 4096 float16)
set -e
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
M=${1:-4096} N=${2:-4096} DT=${3:-float16}
F="$TUT/05-layer-norm.py"
[ -f "$F" ] || { echo "layernorm_tut.sh: no $F (set TUT)" >&2; exit 2; }
make B="$B" -j"$(nproc 2>/dev/null || echo 8)" "$B/tritonc" >/dev/null
T=fp16; ES=2; [ "$DT" = float32 ] && { T=fp32; ES=4; }
BLOCK=1; while [ "$BLOCK" -lt "$N" ]; do BLOCK=$((BLOCK * 2)); done
[ "$BLOCK" -gt $((65536 / ES)) ] && BLOCK=$((65536 / ES))
NW=$((BLOCK / 256)); [ "$NW" -lt 1 ] && NW=1; [ "$NW" -gt 8 ] && NW=8
# correctness first: 64 rows on the GPU against the interpreter (same inputs)
D=$(mktemp -d)
for be in gpu interp; do
    [ $be = interp ] && I=--interpret || I=
    "./$B/tritonc" run $I "$F" _layer_norm_fwd_fused --grid 64 --num-warps "$NW" \
        "X=$T:randn(64,$N)" "Y=$T:zeros(64,$N)" "W=$T:rand($N)" "B=$T:rand($N)" \
        "Mean=fp32:zeros(64)" "Rstd=fp32:zeros(64)" stride=$N N=$N eps=1e-5 BLOCK_SIZE=$BLOCK \
        --save "Y=$D/y_$be.npy" --save "Rstd=$D/r_$be.npy"
done
python3 -c "
import numpy as np, sys
d = sys.argv[1]
ey = np.abs(np.load(d + '/y_gpu.npy').astype(np.float64) - np.load(d + '/y_interp.npy')).max()
er = np.abs(np.load(d + '/r_gpu.npy').astype(np.float64) - np.load(d + '/r_interp.npy')).max()
print(f'check: GPU vs interpreter, 64 rows: max |dY| {ey:.3g}, max |dRstd| {er:.3g}', 'ok' if ey < 1e-2 and er < 1e-4 else 'FAIL')
" "$D"
rm -rf "$D"
for round in 1 2 3; do
    "./$B/tritonc" bench "$F" _layer_norm_fwd_fused --grid "$M" --num-warps "$NW" --json \
        --bytes $((2 * M * N * ES)) "X=$T:randn($M,$N)" "Y=$T:zeros($M,$N)" "W=$T:rand($N)" \
        "B=$T:rand($N)" "Mean=fp32:zeros($M)" "Rstd=fp32:zeros($M)" stride=$N N=$N eps=1e-5 \
        BLOCK_SIZE=$BLOCK | sed -n 's/.*"median_ms": \([0-9.e-]*\).*"gbs": \([0-9.e+]*\).*/tritonc,layernorm_tut,'"$DT $M"x"$N"',\1,\2/p'
    python3 bench/gpu/layernorm_tut_triton.py "$F" "$DT" "$M" "$N"
done
