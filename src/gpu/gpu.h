/* gpu.h — the GPU backend: tile IR -> PTX for an NVIDIA target. Layouts (which thread holds
 * which elements) are chosen here and never leak back into the IR. */
#ifndef GPU_H
#define GPU_H

#include "base/target.h"
#include "ir/ir.h"

typedef struct GpuKernel {
    char *ptx;            /* malloc'd PTX text (caller frees with free()) */
    char name[128];       /* the .entry name */
    int threads;          /* num_warps * 32 */
    int shared_bytes;     /* dynamic shared memory the kernel needs */
    int num_warps, num_stages;
} GpuKernel;

/* The .entry's parameters are f's params in order, each read from the value cuLaunchKernel
 * is given for it: pointers .u64 (8-byte device address); i1 .u8 (one byte, 0 or 1: a
 * pointer to a bool/uint8_t, or to any little-endian integer holding 0/1); i8/u8 .s8/.u8;
 * i16/u16 .s16/.u16; i32 .s32; u32 .u32; i64 .s64; u64 .u64; fp16/bf16 .b16 (the bits);
 * fp32 .f32; fp64 .f64. The kernel needs exactly `threads` threads per program (.maxntid)
 * and `shared_bytes` of dynamic shared memory (0 when it uses none). .target sm_<arch>, or
 * sm_<arch>a with arch_suffix_a; .version is the lowest PTX ISA that the target and every
 * feature the code uses have (target.h). max_shared <= 0: the target's opt-in maximum.
 *
 * Lowers f for a target of the table (target.h; NULL or arch 0: sm_80) with num_warps.
 * Fails with TC_ERR_RESOURCES ("out of resource: shared memory, Required: N, Hardware
 * limit: M") or TC_ERR_UNSUPPORTED for a target not in the table, or naming the op (or a
 * feature the target lacks) and its kernel line. global_scratch: the launch passes a global
 * scratch area (gpu_scratch_bytes), so descriptors the kernel makes may go through TMA; false
 * for ahead-of-time code, whose launchers pass the kernel's own parameters only. */
tc_status gpu_compile(const IrFunc *f, const tc_target *target, int num_warps, int num_stages,
                      int max_shared, bool global_scratch, GpuKernel *out, Err *e);
void gpu_kernel_free(GpuKernel *k);

/* TMA (tma.c): the tensor maps a kernel takes, by value after its own parameters
 * (`.param .align 64 .b8 <kernel>_tma_<param>_<swizzle>[128]`, one per host descriptor
 * parameter whose blocks move through cp.async.bulk.tensor), in order: param is the IR
 * parameter the map describes, swizzle CUtensorMapSwizzle (0: none). Read from the PTX, so
 * that code from the disk cache needs no other record. Returns how many (<= GPU_MAX_TMAPS). */
#define GPU_MAX_TMAPS 16
typedef struct GpuTmap { int param, swizzle; } GpuTmap;
int gpu_tma_maps(const char *ptx, const char *kernel, GpuTmap *out);
/* The global scratch area a kernel takes as its last parameter (`.param .u64
 * <kernel>_scratch_<bytes>`): bytes per program (the tensor maps of descriptors it makes,
 * tma.c), to allocate times the grid's programs, 128-byte aligned; 0 when it takes none. */
int gpu_scratch_bytes(const char *ptx, const char *kernel);

/* TRITONC_GPU_UNVERIFIED: which lowerings a GPU has not passed (README, "Not yet checked on
 * a GPU") a compile may use, as a mask of areas: "1" or "all" every one, else a
 * comma-separated list of their names (tma1d, invshare; others are ignored); unset,
 * "" or "0" none. Part of the disk-cache key. An area checked on a GPU leaves the list. */
enum { GPU_UNV_TMA1D = 1, GPU_UNV_INVSHARE = 2, GPU_UNV_ALL = 3 };
unsigned gpu_unverified(void);

/* Triton's TRITON_DEFAULT_FP_FUSION: whether fp32/fp64 multiplies and adds may contract into
 * fma (unset or anything but "0": yes, Triton's default). Part of the disk-cache key. */
bool gpu_fp_fusion(void);

/* How f's tl.dot ran in ptx, for the launch report: "wgmma, 3 stages", "mma.sync, loads not
 * pipelined", "fma"; "" when f has no dot. */
void gpu_dot_summary(const IrFunc *f, const char *ptx, char *out, size_t n);

#endif
