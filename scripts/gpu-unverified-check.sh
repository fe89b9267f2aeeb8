#!/bin/sh
# gpu-unverified-check.sh — on a machine with an NVIDIA GPU (sm_90a to reach the wgmma and TMA
# paths): every check of the lowerings used only under TRITONC_GPU_UNVERIFIED (README, "Not
# yet checked on a GPU": tma1d, which gpu-tma-check.sh runs apart, and whatever AREAS names),
# then the whole shadowed suite with the switch on (scripts/gpu-check.sh) so that
# nothing else changed. Prints one line per check last. A lowering whose check passes can
# become the default: delete its `g->unverified` condition (src/gpu) and its README entry.
# Usage: TUT=<Triton>/python/tutorials [BENCH=1] [AREAS=a,b] scripts/gpu-unverified-check.sh
#        (env: B=build dir [build-gpu], LOG=log dir [/tmp/tritonc-unverified])
set -u
cd "$(dirname "$0")/.."
export B=${B:-build-gpu}
LOG=${LOG:-/tmp/tritonc-unverified}
mkdir -p "$LOG"
: >"$LOG/summary"
# every area but tma1d, which the H200 stopped with an illegal instruction (that would spoil
# every later launch in the process); gpu-tma-check.sh runs it apart
export TRITONC_GPU_UNVERIFIED=${AREAS:-invshare}
export TRITONC_CACHE_DIR="$LOG/cache"
check() {   # NAME COMMAND...: its output in $LOG/NAME.txt, its exit status in the summary
    name=$1; shift
    echo "== $name: $*"
    "$@" >"$LOG/$name.txt" 2>&1
    rc=$?
    tail -5 "$LOG/$name.txt"
    echo "$name: $([ $rc = 0 ] && echo passed || echo "FAILED (exit $rc)")" >>"$LOG/summary"
}
check tma env TUT="${TUT:-}" scripts/gpu-tma-check.sh   # reports the tma1d run apart
# the dot and attention kernels, the suite's and the tutorial's (then bench/gpu/attention.sh
# with SETS naming the areas, and bench/gpu/matmul.sh)
check dots env NOBENCH=1 scripts/gpu-dot-check.sh attn_ kern_dot kern_matmul kern_autotune kern_attention blockptr
[ -n "${TUT:-}" ] && check attention-tutorial env GPU=1 QUICK=1 TUT="$TUT" scripts/attention-tutorial-check.sh
check suite scripts/gpu-check.sh
echo "== summary (TRITONC_GPU_UNVERIFIED=$TRITONC_GPU_UNVERIFIED)"
cat "$LOG/summary"
# BENCH=1 (with TUT): what the areas are worth, tutorial 06's forward and backward with and
# without them
# (the sets are read into a variable first: a prefix assignment that empties
# TRITONC_GPU_UNVERIFIED would empty it in SETS' expansion too)
if [ "${BENCH:-0}" = 1 ] && [ -n "${TUT:-}" ]; then
    sets="0 $TRITONC_GPU_UNVERIFIED"
    for row in "4 32 4096 64 1" "4 32 4096 128 1"; do
        echo "== attention forward $row"
        TRITONC_GPU_UNVERIFIED= SETS="$sets" TUT="$TUT" \
            timeout 200 sh bench/gpu/attention.sh $row 2>&1 | grep -E "TRITONC_GPU|^ *[0-9]|triton-|sdpa|rror"
    done
    for row in "4 32 4096 64 1" "4 32 4096 128 1"; do
        echo "== attention backward $row"
        TRITONC_GPU_UNVERIFIED= SETS="$sets" TUT="$TUT" \
            timeout 200 sh bench/gpu/attention_bwd.sh $row 2>&1 | grep -E "TRITONC_GPU|^ *[0-9]|triton-|rror"
    done
fi
! grep -q FAILED "$LOG/summary"
