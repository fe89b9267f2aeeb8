#!/usr/bin/env bash
# gpu-aot-check.sh — ahead-of-time compilation on a machine with an NVIDIA GPU:
#   1. builds tritonc and the AOT example (examples/aot: add_kernel compiled ahead of time for
#      cuda:80 and cuda:90a, embedded in a C program);
#   2. runs the example and compares its result with the JIT path (`tritonc run`);
#   3. checks the JIT's disk cache across processes: miss, hit, a damaged entry recompiled
#      with the right result, TRITONC_ALWAYS_COMPILE;
#   4. times warm start (a new process, the kernel in the disk cache, to the first result) for
#      `tritonc run`, for the AOT example, and for Triton (a small Python script, Triton's cache
#      warm), in the same run; median of $REPEAT runs each.
# Everything is printed; with $OUT set, also saved under $OUT/gpu-aot/.
#
#   scripts/gpu-aot-check.sh                 # uses build/ (runs make first)
#   SKIP_MAKE=1 B=build scripts/gpu-aot-check.sh
#   REPEAT=20 PYTHON=python3 scripts/gpu-aot-check.sh
# Exit status: 0 when every check passed, 1 otherwise.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
B=${B:-build}
REPEAT=${REPEAT:-10}
PYTHON=${PYTHON:-python3}
SAVE=${OUT:+$OUT/gpu-aot}
[ -n "$SAVE" ] && mkdir -p "$SAVE"
WORK=$(mktemp -d /tmp/gpu-aot.XXXXXX)
export TRITONC_CACHE_DIR=$WORK/tritonc-cache
unset TRITONC_ALWAYS_COMPILE TRITON_INTERPRET
fail=0
LOG=$WORK/log.txt
: >"$LOG"

say() { printf '%s\n' "$*" | tee -a "$LOG"; }
check() { # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then say "ok:   $what"; else say "FAIL: $what"; fail=1; fi
}
runc() { # runc NAME COMMAND...: output in $WORK/NAME.txt, status in $WORK/NAME.rc
    local name=$1; shift
    "$@" >"$WORK/$name.txt" 2>&1
    echo $? >"$WORK/$name.rc"
    { printf '$ %s\n' "$*"; cat "$WORK/$name.txt"; printf '(exit status %s)\n\n' "$(cat "$WORK/$name.rc")"; } | tee -a "$LOG"
}
rc_is() { [ "$(cat "$WORK/$1.rc")" = "$2" ]; }
quiet() { "$@" >/dev/null 2>&1; }
has() { grep -qF -- "$2" "$WORK/$1.txt"; }
now_ns() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

say "== $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname)"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$LOG"

say ""
say "== build ($B)"
if [ -z "${SKIP_MAKE:-}" ]; then
    make -j"$(nproc)" all >"$WORK/make.txt" 2>&1 || { tail -30 "$WORK/make.txt"; say "FAIL: make"; exit 1; }
fi
case $B in /*) BA=$B ;; *) BA=$ROOT/$B ;; esac
make -C examples/aot B="$BA" >"$WORK/make-aot.txt" 2>&1
mrc=$?
tail -3 "$WORK/make-aot.txt" | tee -a "$LOG"
check "the AOT example builds (make -C examples/aot)" test $mrc = 0 -a -x "$B/examples/aot/add_example"
EX=$B/examples/aot/add_example
TC=$B/tritonc
K=examples/chapter10.py
JIT_ARGS=(run $K add_kernel 'x_ptr=fp32[1,2,3,4]' 'y_ptr=fp32[10,20,30,40]' 'out_ptr=fp32:zeros(4)' n=4 BLOCK=1024 --print out_ptr)

say ""
say "== 1. the AOT example against the JIT path"
"$TC" info 2>&1 | head -3 | tee -a "$LOG"
runc aot "$EX"
check "AOT example exits 0" rc_is aot 0
check "AOT example: 1000 elements, aligned pointers -> signature 0, ok" has aot "pointers aligned: signature 0, ok"
check "AOT example: pointers off alignment -> signature 1, ok" has aot "4 bytes off alignment: signature 1, ok"
runc jit "$TC" "${JIT_ARGS[@]}"
check "JIT run exits 0" rc_is jit 0
grep '^out_ptr = ' "$WORK/aot.txt" >"$WORK/aot.out" 2>/dev/null
grep '^out_ptr = ' "$WORK/jit.txt" >"$WORK/jit.out" 2>/dev/null
check "AOT result equals the JIT result ($(cat "$WORK/jit.out" 2>/dev/null))" \
    sh -c "[ -s '$WORK/jit.out' ] && cmp -s '$WORK/aot.out' '$WORK/jit.out'"
check "the result is the chapter's [11.0, 22.0, 33.0, 44.0]" grep -qx 'out_ptr = \[11.0, 22.0, 33.0, 44.0\]' "$WORK/aot.out"
runc aot-nodriver env TRITONC_LIBCUDA_PATH=/nonexistent "$EX"
check "AOT example without a driver: exit 3" rc_is aot-nodriver 3
check "AOT example without a driver: the honest refusal" has aot-nodriver "0 active drivers ([]). There should only be one."

say ""
say "== 2. the JIT's disk cache across processes"
"$TC" cache clear >/dev/null 2>&1
runc jit-miss "$TC" "${JIT_ARGS[@]}" --verbose
check "first run: disk cache miss" has jit-miss "disk cache: cache miss"
runc jit-hit "$TC" "${JIT_ARGS[@]}" --verbose
check "second run (new process): disk cache hit" has jit-hit "disk cache: cache hit"
check "cache hit: same result" sh -c "[ -s '$WORK/jit.out' ] && grep '^out_ptr = ' '$WORK/jit-hit.txt' | cmp -s - '$WORK/jit.out'"
runc cache-ls "$TC" cache ls
check "cache ls lists add_kernel" has cache-ls "add_kernel"
for e in "$TRITONC_CACHE_DIR"/*.tcc; do   # damage every entry: flip bytes in the middle
    [ -f "$e" ] || continue
    sz=$(stat -c %s "$e"); printf 'XXXXXXXX' | dd of="$e" bs=1 seek=$((sz / 2)) conv=notrunc status=none
done
runc jit-corrupt "$TC" "${JIT_ARGS[@]}" --verbose
check "damaged entry: detected and reported" has jit-corrupt "damaged"
check "damaged entry: recompiled, right result" sh -c "[ -s '$WORK/jit.out' ] && grep '^out_ptr = ' '$WORK/jit-corrupt.txt' | cmp -s - '$WORK/jit.out'"
runc jit-after "$TC" "${JIT_ARGS[@]}" --verbose
check "after recovery: disk cache hit" has jit-after "disk cache: cache hit"
runc jit-always env TRITONC_ALWAYS_COMPILE=1 "$TC" "${JIT_ARGS[@]}" --verbose
check "TRITONC_ALWAYS_COMPILE=1: the cache is bypassed" has jit-always "TRITONC_ALWAYS_COMPILE"
runc aot-compile-verbose "$TC" compile $K add_kernel --target cuda:90a -s '*fp32:16, *fp32:16, *fp32:16, i32' BLOCK=1024 --verbose -o /dev/null
check "tritonc compile --verbose reports the cache" grep -qE "cache (hit|miss)" "$WORK/aot-compile-verbose.txt"

say ""
say "== 3. warm start: a new process, the kernel in the disk cache, to the first result (median of $REPEAT)"
t_jit=(); t_aot=(); t_tri=(); t_tri_in=()
"$TC" "${JIT_ARGS[@]}" >/dev/null 2>&1   # warm the disk cache (and the driver's)
check "warm-start subject: tritonc run succeeds" quiet "$TC" "${JIT_ARGS[@]}"
check "warm-start subject: the AOT example succeeds" quiet "$EX"
for i in $(seq "$REPEAT"); do
    a=$(now_ns); "$TC" "${JIT_ARGS[@]}" >/dev/null 2>&1; b=$(now_ns)
    t_jit+=($(( (b - a) / 1000 )))
    a=$(now_ns); "$EX" >/dev/null 2>&1; b=$(now_ns)
    t_aot+=($(( (b - a) / 1000 )))
done
cat >"$WORK/triton_warm.py" <<'PY'
import time
t0 = time.perf_counter()
import torch
import triton
import triton.language as tl
t1 = time.perf_counter()

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)

x = torch.tensor([1.0, 2.0, 3.0, 4.0], device="cuda")
y = torch.tensor([10.0, 20.0, 30.0, 40.0], device="cuda")
out = torch.zeros(4, device="cuda")
t2 = time.perf_counter()
add_kernel[(1,)](x, y, out, 4, BLOCK=1024)
print("out_ptr =", out.tolist())
t3 = time.perf_counter()
print("triton %s: imports %.3f s, first launch to result %.3f s (tensors %.3f s)" % (triton.__version__, t1 - t0, t3 - t2, t2 - t1))
PY
have_triton=0
if "$PYTHON" -c 'import triton, torch' >/dev/null 2>&1; then
    have_triton=1
    export TRITON_CACHE_DIR=$WORK/triton-cache
    runc triton-cold "$PYTHON" "$WORK/triton_warm.py"
    check "Triton's result equals tritonc's" sh -c "[ -s '$WORK/jit.out' ] && grep '^out_ptr = ' '$WORK/triton-cold.txt' | cmp -s - '$WORK/jit.out'"
    for i in $(seq "$REPEAT"); do
        a=$(now_ns); "$PYTHON" "$WORK/triton_warm.py" >"$WORK/tri.txt" 2>&1; b=$(now_ns)
        t_tri+=($(( (b - a) / 1000 )))
        t_tri_in+=($(sed -n 's/.*first launch to result \([0-9.]*\) s.*/\1/p' "$WORK/tri.txt" | awk '{printf "%d", $1 * 1e6}'))
    done
    tail -1 "$WORK/tri.txt" | tee -a "$LOG"
else
    say "note: Triton is not importable with $PYTHON: its warm start is not measured here"
fi
ms() { printf '%s\n' "$@" | median | awk '{printf "%.1f", $1 / 1000}'; }
m_jit=$(ms "${t_jit[@]}"); m_aot=$(ms "${t_aot[@]}")
say ""
say "| warm start, new process to first result | median ms |"
say "|---|---|"
say "| tritonc run (JIT, disk cache warm) | $m_jit |"
say "| AOT example (code embedded, no compile) | $m_aot |"
if [ $have_triton = 1 ]; then
    m_tri=$(ms "${t_tri[@]}"); m_tri_in=$(ms "${t_tri_in[@]}")
    say "| Triton, whole process (imports included) | $m_tri |"
    say "| Triton, first launch to result after imports | $m_tri_in |"
    say ""
    say "ratio Triton (after imports) / tritonc run: $(awk -v a="$m_tri_in" -v b="$m_jit" 'BEGIN{printf "%.1fx", a / b}')"
    say "ratio Triton (whole process) / tritonc run: $(awk -v a="$m_tri" -v b="$m_jit" 'BEGIN{printf "%.1fx", a / b}')"
    say "ratio Triton (whole process) / AOT example: $(awk -v a="$m_tri" -v b="$m_aot" 'BEGIN{printf "%.1fx", a / b}')"
fi
say "(reference: Triton's warm start on the H200 machine, 0.53 s, shared/reference/baseline-h200.md)"
say "raw us: jit ${t_jit[*]} | aot ${t_aot[*]} | triton ${t_tri[*]:-} | triton-in ${t_tri_in[*]:-}"

[ -n "$SAVE" ] && cp "$LOG" "$SAVE/gpu-aot-check.txt" && cp "$WORK"/*.txt "$SAVE/" 2>/dev/null
say ""
if [ $fail = 0 ]; then say "gpu-aot-check: all checks passed"; else say "gpu-aot-check: FAILED"; fi
rm -rf "$WORK"
exit $fail
