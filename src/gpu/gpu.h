/* gpu.h — the GPU backend: tile IR -> PTX for an NVIDIA target. Layouts (which thread holds
 * which elements) are chosen here and never leak back into the IR. */
#ifndef GPU_H
#define GPU_H

#include "../ir.h"

typedef struct GpuKernel {
    char *ptx;            /* malloc'd PTX text (caller frees with free()) */
    char name[128];       /* the .entry name */
    int threads;          /* num_warps * 32 */
    int shared_bytes;     /* dynamic shared memory the kernel needs */
    int num_warps, num_stages;
} GpuKernel;

/* Lowers f for target (arch 80, 86, 89, 90; arch_suffix_a for sm_90a) with num_warps.
 * Fails with TC_ERR_RESOURCES ("out of resource: shared memory, Required: N, Hardware
 * limit: M") or TC_ERR_UNSUPPORTED naming the op and its kernel line. */
tc_status gpu_compile(const IrFunc *f, const tc_target *target, int num_warps, int num_stages,
                      int max_shared, GpuKernel *out, Err *e);
void gpu_kernel_free(GpuKernel *k);

#endif
