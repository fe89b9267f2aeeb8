#!/usr/bin/env bash
# gpu-cli-check.sh — run on a GPU machine: what issue 15 changed in the command line, on the
# real driver. `run --verbose` shows the grid a --grid expression gave; `run --json` reports
# the GPU launch; TRITON_KERNEL_DUMP=1 writes the PTX the launch loaded, with .file/.loc
# line information, and the driver loads that PTX; the README's commands run as written
# (bench and tune measure on the GPU: exit 0). Prints everything; with $OUT set, also saves
# each output under $OUT/gpu-cli/. Exit status: 0 all checks passed, 1 otherwise.
#
#   scripts/gpu-cli-check.sh                       # uses build/ (runs make first)
#   SKIP_MAKE=1 B=/path/to/build scripts/gpu-cli-check.sh
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
SAVE=${OUT:+$OUT/gpu-cli}
[ -n "$SAVE" ] && mkdir -p "$SAVE"
fail=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

say() { printf '%s\n' "$*"; }
check() { # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then say "ok:   $what"; else say "FAIL: $what"; fail=1; fi
}
run() { # run NAME EXPECTED_RC COMMAND...: prints and saves the output, checks the status
    local name=$1 want=$2; shift 2
    say ""
    say "\$ $*"
    "$@" >"$TMP/$name.txt" 2>&1
    local rc=$?
    cat "$TMP/$name.txt"
    say "(exit status $rc)"
    [ -n "$SAVE" ] && { printf '$ %s\n' "$*"; cat "$TMP/$name.txt"; printf '(exit status %d)\n' $rc; } >"$SAVE/$name.txt"
    check "$name exits $want" test "$rc" = "$want"
}
has() { grep -qF -- "$2" "$TMP/$1.txt"; }

say "== $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
if [ -z "${SKIP_MAKE:-}" ]; then make -j"$(nproc)" B="$B" >/dev/null || { say "FAIL: make"; exit 1; }; fi
T="$PWD/$B/tritonc"
[ -x "$T" ] || T="$B/tritonc"
export TRITONC_CACHE_DIR="$TMP/cache"
unset TRITON_INTERPRET

ARGS="x=fp32:rand(100000) y=fp32:rand(100000) out=fp32:zeros(100000) n=100000 BLOCK=1024"
# shellcheck disable=SC2086
run verbose-grid 0 "$T" run examples/add.py add --grid 'cdiv(n, BLOCK)' $ARGS --verbose
check "verbose shows the evaluated grid (98, 1, 1) on the GPU" has verbose-grid "grid (98, 1, 1)"
check "verbose says GPU" has verbose-grid "on the GPU (cuda)"

# shellcheck disable=SC2086
run json 0 "$T" run examples/add.py add --grid 'cdiv(n, BLOCK)' $ARGS --json --print out
check "json: cuda backend" has json '"backend": "cuda"'
check "json: the grid" has json '"grid": [98, 1, 1]'
if command -v python3 >/dev/null; then
    check "json parses" python3 -c "import json,sys; d=json.load(open('$TMP/json.txt')); \
v=d['arguments'][2]['values']; assert len(v)==100000 and d['launch']['backend']=='cuda'"
fi

# shellcheck disable=SC2086
TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR="$TMP/dump" TRITONC_ALWAYS_COMPILE=1 \
    run dump 0 "$T" run examples/add.py add --grid 'cdiv(n, BLOCK)' $ARGS --verbose
PTX=$(ls "$TMP"/dump/*/add.ptx 2>/dev/null | head -1)
check "TRITON_KERNEL_DUMP wrote add.ptx" test -s "$PTX"
check "TRITON_KERNEL_DUMP wrote add.tcir" test -s "${PTX%.ptx}.tcir"
check "the PTX has .file and .loc" sh -c "grep -q '^.file 1' '$PTX' && grep -q '.loc 1 9 ' '$PTX'"
if command -v ptxas >/dev/null; then
    ARCH=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' "$PTX")
    run ptxas-lineinfo 0 ptxas -arch="$ARCH" -lineinfo "$PTX" -o "$TMP/add.cubin"
    if command -v cuobjdump >/dev/null; then   # the line table made it into the cubin
        run lineinfo 0 sh -c "cuobjdump -sass '$TMP/add.cubin' | head -40; nvdisasm -g '$TMP/add.cubin' 2>/dev/null | grep -m3 'add.py' || true"
    fi
fi

# the README's commands as written (tests/test_cli_readme.c does the same without a GPU;
# here bench and tune run on the device)
run readme 0 env TRITONC_BUILD="$B" "$B/run_tests" cli_readme
check "README commands all pass" has readme "0 failed"

say ""
if [ $fail = 0 ]; then say "== all checks passed"; else say "== some checks FAILED"; fi
exit $fail
