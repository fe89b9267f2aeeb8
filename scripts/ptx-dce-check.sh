#!/bin/sh
# ptx-dce-check.sh — no GPU needed: every specialization the kernel suite launches
# (tests/test_kernels*.c, or the test-name filters given) is lowered for sm_80 and sm_90a with
# and without the removal of dead instructions (src/gpu/ptxdce.c; TRITONC_PTX_DCE=0 turns it
# off) and assembled by ptxas without .loc lines; the machine code (.text) of the two cubins
# must be the same bytes
# (tests/gpu_shadow.c, TRITONC_SHADOW=dce). Usage: scripts/ptx-dce-check.sh [FILTER...]
set -e
cd "$(dirname "$0")/.."
B=${B:-build}
CC=${CC:-cc}
make B="$B" -j"$(nproc 2>/dev/null || echo 2)" "$B/run_tests" >"$B.dce.log" 2>&1 || { tail -30 "$B.dce.log"; exit 1; }
$CC -std=c11 -D_GNU_SOURCE -O1 -g -Iinclude -o "$B/gpu_shadow" "$B/tests/main.o" "$B"/tests/test_*.o \
    tests/gpu_shadow.c "$B/libtritonc-internal.a" -lm -ldl -lpthread \
    -Wl,--wrap=tc_launch,--wrap=tc_module_load_string,--wrap=tc_module_load_file,--wrap=tc_module_kernel
[ $# -gt 0 ] || set -- kern_
status=0
TRITONC_SHADOW=dce TRITONC_BUILD="$B" "./$B/gpu_shadow" "$@" >"$B/ptx-dce-check.out" 2>&1 || status=$?
grep -E "gpu-shadow" "$B/ptx-dce-check.out" | cut -c1-300 | tail -20
[ "$status" = 3 ] && { echo "ptx-dce-check: FAILED"; exit 1; }
exit 0
