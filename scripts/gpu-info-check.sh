#!/usr/bin/env bash
# gpu-info-check.sh — run on a GPU machine: builds tritonc, asks the three hardware
# questions of the real driver (`tritonc info`, `--json`, `--device 0`, an arch override)
# and the no-driver path, and checks the answers against the H200 baseline where the GPU
# is an H200 (reference/baseline-h200.md). Prints everything; with $OUT set, also saves
# each output under $OUT/gpu-info/. Exit status: 0 all checks passed, 1 otherwise.
#
#   scripts/gpu-info-check.sh            # uses build/ (runs make first)
#   B=build-san scripts/gpu-info-check.sh
#   SKIP_MAKE=1 B=/path/to/build scripts/gpu-info-check.sh   # an existing build
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
SAVE=${OUT:+$OUT/gpu-info}
[ -n "$SAVE" ] && mkdir -p "$SAVE"
fail=0

say() { printf '%s\n' "$*"; }
check() { # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then say "ok:   $what"; else say "FAIL: $what"; fail=1; fi
}
run() { # run NAME EXPECTED_RC COMMAND...: prints and saves the output, checks the status
    local name=$1 want=$2; shift 2
    say ""
    say "\$ $*"
    "$@" >"/tmp/gpu-info-$name.txt" 2>&1
    local rc=$?
    cat "/tmp/gpu-info-$name.txt"
    say "(exit status $rc)"
    [ -n "$SAVE" ] && { printf '$ %s\n' "$*"; cat "/tmp/gpu-info-$name.txt"; printf '(exit status %d)\n' $rc; } >"$SAVE/$name.txt"
    check "$name exits $want" test "$rc" = "$want"
}
has() { grep -qF -- "$2" "/tmp/gpu-info-$1.txt"; }

say "== $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 | tee ${SAVE:+"$SAVE/nvidia-smi.txt"}

say ""
say "== make ($B)"
if [ -n "${SKIP_MAKE:-}" ]; then say "(skipped)"; mrc=0; : >/tmp/gpu-info-make.txt
elif [ "$B" = build-san ]; then make SAN=1 -j"$(nproc)" >/tmp/gpu-info-make.txt 2>&1
else make -j"$(nproc)" >/tmp/gpu-info-make.txt 2>&1; fi
mrc=$?
tail -5 /tmp/gpu-info-make.txt
if [ $mrc -ne 0 ] || [ ! -x "$B/tritonc" ]; then
    say "FAIL: make failed (exit $mrc); see above"
    exit 1
fi

run info 0 "$B/tritonc" info
run info-json 0 "$B/tritonc" info --json
run info-device0 0 "$B/tritonc" info --device 0
run info-override 0 env TRITON_OVERRIDE_ARCH=sm80 "$B/tritonc" info
run info-nodriver 3 env TRITONC_LIBCUDA_PATH=/nonexistent "$B/tritonc" info
run info-nodriver-json 3 env TRITONC_LIBCUDA_PATH=/nonexistent "$B/tritonc" info --json

say ""
say "== checks"
check "driver is cuda" grep -q '^cuda (libcuda' /tmp/gpu-info-info.txt
check "target line in Triton's form" has info "  GPUTarget(backend='cuda', arch="
check "no RuntimeError with a driver" bash -c '! grep -q RuntimeError /tmp/gpu-info-info.txt'
check "override reported" has info-override "(overridden by TRITON_OVERRIDE_ARCH=sm80"
check "override target" has info-override "cuda:80  GPUTarget(backend='cuda', arch=80, warp_size=32)"
check "no-driver refusal" has info-nodriver "RuntimeError: 0 active drivers ([]). There should only be one."
check "no-driver properties answer" has info-nodriver "RuntimeError: Found no NVIDIA driver on your system"
if command -v python3 >/dev/null; then
    check "--json parses" python3 -c 'import json,sys; d=json.load(open("/tmp/gpu-info-info-json.txt")); assert d["driver"]["name"]=="cuda" and d["devices"]'
    check "no-driver --json parses" python3 -c 'import json; d=json.load(open("/tmp/gpu-info-info-nodriver-json.txt")); assert d["error"].startswith("0 active drivers")'
fi
if has info "device 0: NVIDIA H200"; then
    say "(an H200: checking the baseline values)"
    check "H200 target cuda:90" has info "cuda:90  GPUTarget(backend='cuda', arch=90, warp_size=32)"
    check "H200 compiles for sm_90a" has info "compiles to PTX for sm_90a"
    check "H200 compute capability 9.0" has info "  compute capability     9.0"
    check "H200 132 SMs" has info "  multiprocessors        132"
    check "H200 232448 bytes opt-in shared memory" has info "  shared memory / block  232448 bytes"
    check "H200 60 MiB L2" has info "  L2 cache               62914560 bytes (60.0 MiB)"
    check "H200 65536 registers" has info "  registers / block      65536"
    check "H200 warp 32" has info "  warp size              32"
    check "H200 ~143 GB" grep -qE "total memory +[0-9]+ bytes \(14[0-9][0-9][0-9][0-9] MiB" /tmp/gpu-info-info.txt
fi
say ""
if [ $fail -eq 0 ]; then say "gpu-info-check: all checks passed"; else say "gpu-info-check: FAILED"; fi
exit $fail
