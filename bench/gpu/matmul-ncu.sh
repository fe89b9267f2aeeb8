#!/bin/bash
# bench/gpu/matmul-ncu.sh — on a GPU machine with ncu (Firecracker machines read the
# counters): tritonc's and Triton's matmul (bench/gpu/matmul.py, fp16 4096^3, 128x256x64,
# 8 warps, 3 stages) under ncu side by side: stall reasons per issued instruction, issued
# instructions, shared-memory bank conflicts, tensor-pipe activity, registers, shared memory,
# DRAM and L2 traffic; and Triton's SASS and PTX for comparison with tritonc's
# (`tritonc compile ... --emit cubin` + cuobjdump -sass). Writes to LOG (default
# /tmp/matmul-ncu); keep caches out of the device tool's $OUT (it drops files past a count).
set -u
cd "$(dirname "$0")/../.."
B=${B:-build-gpu}
LOG=${LOG:-/tmp/matmul-ncu}
mkdir -p "$LOG"
make B="$B" -j"$(nproc)" "$B/tritonc" >"$LOG/build.log" 2>&1 || { tail -20 "$LOG/build.log"; exit 1; }
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,launch__shared_mem_per_block_dynamic,launch__registers_per_thread,gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum'
A='a_ptr=fp16:randn(4096,4096) b_ptr=fp16:randn(4096,4096) c_ptr=fp16:zeros(4096,4096) M=4096 N=4096 K=4096 stride_am=4096 stride_ak=1 stride_bk=4096 stride_bn=1 stride_cm=4096 stride_cn=1 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=""'
timeout 300 ncu --clock-control none $M -k regex:matmul -c 1 "$B/tritonc" run bench/gpu/matmul.py matmul_kernel \
    --num-warps 8 --num-stages 3 --grid 512 $A >"$LOG/ncu_tritonc.txt" 2>&1
TRITON_CACHE_DIR="$LOG/triton-cache" timeout 300 ncu --clock-control none $M -k regex:matmul -c 1 \
    python3 bench/gpu/matmul_triton.py 4096 4096 4096 float16 128 256 64 8 8 3 >"$LOG/ncu_triton.txt" 2>&1
f=$(find "$LOG/triton-cache" -name 'matmul_kernel.cubin' | head -1)
[ -n "$f" ] && { cuobjdump -sass "$f" >"$LOG/triton.sass"; cp "${f%.cubin}.ptx" "$LOG/triton.ptx"; }
S='a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32:16 N=i32:16 K=i32:16 stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 stride_cn=1 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=""'
"$B/tritonc" compile bench/gpu/matmul.py matmul_kernel --target cuda:90a --num-warps 8 --num-stages 3 $S \
    --emit cubin -o "$LOG/tritonc.cubin" && cuobjdump -sass "$LOG/tritonc.cubin" >"$LOG/tritonc.sass"
echo "metric tritonc triton"
paste <(grep -E "stalled|inst_executed|conflicts|gmma|shared_mem|registers|duration|bytes|sectors" "$LOG/ncu_tritonc.txt" | awk '{print $1, $NF}') \
      <(grep -E "stalled|inst_executed|conflicts|gmma|shared_mem|registers|duration|bytes|sectors" "$LOG/ncu_triton.txt" | awk '{print $NF}') |
    sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' | column -t
wc -l "$LOG"/*.sass 2>/dev/null
