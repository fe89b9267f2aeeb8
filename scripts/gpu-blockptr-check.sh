#!/bin/sh
# gpu-blockptr-check.sh — block pointers (issue 13 item 1) on a machine with an NVIDIA GPU:
#  1. the blockptr unit tests (tests/test_blockptr.c: the interpreter against C references,
#     every kernel lowered for sm_80 and sm_90a and assembled by ptxas, the matmul's dot on
#     tensor cores with cp.async);
#  2. every kernel of tests/kernels/blockptr.py run on the GPU and on the interpreter with the
#     same inputs, partial tiles on every edge; the outputs must be equal element for element
#     (NaN equal to NaN: every case is exact, the matmuls' inputs are small integers). The
#     fp16 matmul with K and N multiples of 16 is the pipelined one (cp.async + mma.sync or
#     wgmma); with B transposed its B loads are ordinary ones. The matmuls are also compared
#     with a product computed by the script.
# Prints one line per case ("ok" or how many elements differ) and exits 1 if any differs.
# Usage: scripts/gpu-blockptr-check.sh      (env: B=build dir [build-gpu]; X_GPU=--interpret
#        runs both sides on the interpreter, to try the script on a machine without a GPU)
set -e
cd "$(dirname "$0")/.."
B=${B:-build-gpu}
case "$B" in /*) ;; *) B="./$B" ;; esac
JOBS=$(nproc 2>/dev/null || echo 8)
make B="$B" -j"$JOBS" all "$B/run_tests" "$B/fake/libcuda.so.1" >"$B.log" 2>&1 || { tail -40 "$B.log"; exit 1; }
unset TRITONC_TARGET TRITON_INTERPRET
TC="$B/tritonc"
F=tests/kernels/blockptr.py
D=$(mktemp -d /tmp/blockptr-check.XXXXXX)
export TRITONC_CACHE_DIR="$D/cache"
echo "== unit tests: blockptr"
TRITONC_BUILD="$B" "$B/run_tests" blockptr_ 2>&1 | tail -4

# inputs: small integers (exact in fp16, tf32 and fp32 sums whatever the order)
python3 - "$D" <<'PY'
import struct, sys
d = sys.argv[1]
def npy(name, code, shape, vals):
    hdr = "{'descr': '<%s', 'fortran_order': False, 'shape': (%s), }" % (
        code, ''.join('%d, ' % s for s in shape))
    hdr += ' ' * (63 - (10 + len(hdr)) % 64) + '\n'
    with open('%s/%s.npy' % (d, name), 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
        f.write(struct.pack('<%d%s' % (len(vals), {'f2': 'e', 'f4': 'f', 'i4': 'i'}[code]), *vals))
seed = 7
def small(n, lo=-3, hi=3):
    global seed
    out = []
    for _ in range(n):
        seed = (seed * 1103515245 + 12345) % 2**31
        out.append(lo + (seed >> 8) % (hi - lo + 1))
    return out
M, N, K = 300, 208, 336
a, b = small(M * K), small(K * N)
bt = [b[r * N + c] for c in range(N) for r in range(K)]   # b transposed: N x K
for code in ('f2', 'f4'):
    npy('a_' + code, code, (M, K), a)
    npy('b_' + code, code, (K, N), b)
    npy('bt_' + code, code, (N, K), bt)
c = [sum(a[i * K + q] * b[q * N + j] for q in range(K)) for i in range(M) for j in range(N)]
npy('c_ref', 'f4', (M, N), c)   # the matmul's reference, computed here
npy('v', 'i4', (1000,), small(1000, -50, 50))
npy('x77', 'f4', (77, 45), small(77 * 45, -100, 100))
npy('x3d', 'f4', (3, 45, 37), small(3 * 45 * 37, -100, 100))
npy('p20', 'f2', (20, 20), small(400, -100, 100))
PY

FAILS=0
# case NAME OUT_ARG KERNEL ARGS...: runs the kernel on the GPU and on the interpreter, saving
# argument OUT_ARG, and compares the two
case_() {
    name=$1; out=$2; shift 2
    for mode in gpu interp; do
        X=$X_GPU; [ $mode = interp ] && X=--interpret
        if ! "$TC" run $F "$@" $X --save "$out=$D/$name.$mode.npy" >"$D/$name.$mode.log" 2>&1; then
            echo "$name ($mode): FAILED"; cat "$D/$name.$mode.log"; FAILS=$((FAILS + 1)); return 0
        fi
    done
    python3 - "$D/$name.gpu.npy" "$D/$name.interp.npy" "$name" $REF <<'PY' || FAILS=$((FAILS + 1))
import ast, math, struct, sys
def load(p):
    b = open(p, 'rb').read(); hl = struct.unpack('<H', b[8:10])[0]
    h = ast.literal_eval(b[10:10 + hl].decode()); d = b[10 + hl:]
    c = {'<f2': 'e', '<f4': 'f', '<i4': 'i', '<f8': 'd', '<i8': 'q'}[h['descr']]
    return struct.unpack('<%d%s' % (len(d) // struct.calcsize(c), c), d)
g, i = load(sys.argv[1]), load(sys.argv[2])
same = lambda x, y: x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y))
refs = [('interpreter', i)] + ([('reference', load(sys.argv[4]))] if len(sys.argv) > 4 else [])
for what, r in refs:
    bad = [k for k in range(len(g)) if not same(g[k], r[k])]
    if bad:
        k = bad[0]
        print('%s: %d of %d elements differ; first [%d]: gpu %r, %s %r' % (sys.argv[3], len(bad), len(g), k, g[k], what, r[k]))
        sys.exit(1)
print('%s: ok (%d elements%s)' % (sys.argv[3], len(g), ', and the reference' if len(refs) > 1 else ''))
PY
}

echo "== GPU against the interpreter"
case_ copy_both y_ptr copy2d "x_ptr=@$D/x77.npy" 'y_ptr=fp32:zeros(78,46)' M=77 N=45 stride_xm=45 \
    stride_ym=46 BM=32 BN=16 CHECK=2 --grid 3,3
case_ copy_rows y_ptr copy2d 'x_ptr=fp32:arange(3696)' 'y_ptr=fp32:zeros(78,49)' M=77 N=48 stride_xm=48 \
    stride_ym=49 BM=32 BN=16 CHECK=0 --grid 3,3
case_ copy_cols y_ptr copy2d 'x_ptr=fp32:arange(2880)' 'y_ptr=fp32:zeros(65,46)' M=64 N=45 stride_xm=45 \
    stride_ym=46 BM=32 BN=16 CHECK=1 --grid 2,3
for pad in 0 1 2; do
    case_ pad$pad out_ptr pad_tile "x_ptr=@$D/p20.npy" 'out_ptr=fp16:zeros(32,32)' M=20 N=20 BM=32 BN=32 \
        PAD=$pad
done
REF=$D/c_ref.npy
for code in f2 f4; do
    for bm in "128 128 32" "64 64 32"; do
        set -- $bm
        case_ "matmul_${code}_$1" c_ptr matmul_bp "a_ptr=@$D/a_$code.npy" "b_ptr=@$D/b_$code.npy" \
            'c_ptr=fp32:zeros(300,208)' M=300 N=208 K=336 stride_am=336 stride_ak=1 stride_bk=208 \
            stride_bn=1 stride_cm=208 stride_cn=1 BM=$1 BN=$2 BK=$3 --grid "cdiv(300,$1),cdiv(208,$2)"
    done
    case_ "matmul_${code}_bt" c_ptr matmul_bp "a_ptr=@$D/a_$code.npy" "b_ptr=@$D/bt_$code.npy" \
        'c_ptr=fp32:zeros(300,208)' M=300 N=208 K=336 stride_am=336 stride_ak=1 stride_bk=1 \
        stride_bn=336 stride_cm=208 stride_cn=1 BM=64 BN=64 BK=32 --grid 5,4
done
echo "== the pipelined fp16 matmul's launch report (the dot's path on this GPU)"
"$TC" run $F matmul_bp $X_GPU "a_ptr=@$D/a_f2.npy" "b_ptr=@$D/b_f2.npy" 'c_ptr=fp32:zeros(300,208)' \
    M=300 N=208 K=336 stride_am=336 stride_ak=1 stride_bk=208 stride_bn=1 stride_cm=208 stride_cn=1 \
    BM=128 BN=128 BK=32 --grid 3,2 --verbose 2>&1 | grep -v '^c_ptr' || true
REF=
case_ vec_sum out_ptr vec_sum "x_ptr=@$D/v.npy" 'out_ptr=i32:zeros(1)' N=1000 BLOCK=256
case_ pick_row out_ptr pick_row 'x_ptr=fp32:arange(1000)' 'out_ptr=fp32:zeros(5,200)' M=5 N=200 BN=256 \
    --grid 5
case_ transpose3d y_ptr transpose3d "x_ptr=@$D/x3d.npy" 'y_ptr=fp32:zeros(3,37,45)' B=3 M=37 N=45 \
    sxb=1665 sxm=1 sxn=37 BB=2 BM=16 BN=32 --grid 2,3,2
for n in 1 3; do
    case_ walk_diag$n out_ptr walk_diag 'x_ptr=i32:arange(16)' 'out_ptr=i32:zeros(4,4)' n=$n
done
case_ wide_index out_ptr wide_index 'x_ptr=i32:arange(8)' 'out_ptr=i32:zeros(8)' cols=8589934592 \
    BIG=2147483648
case_ const_shape y_ptr const_shape_copy 'x_ptr=fp32:arange(60)' 'y_ptr=fp32:zeros(61)' BM=4 BN=8 --grid 2,2
echo "== $FAILS case(s) failed"
rm -rf "$D"
[ "$FAILS" = 0 ]
