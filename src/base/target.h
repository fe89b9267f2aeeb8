/* target.h — the one table of NVIDIA targets: per arch, the PTX ISA versions, the `a`
 * (arch-specific) variant, shared memory, registers, residency limits and the PTX features
 * it has. The GPU backend, the JIT, ahead-of-time compilation and the driver layer all read
 * it; no other file holds these numbers. A new GPU is one row in target.c. */
#ifndef BASE_TARGET_H
#define BASE_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "tritonc.h"

/* PTX features code may use. Each has a PTX ISA version that introduced it (target.c);
 * a target row says which it has. */
enum {
    TF_BF16 = 1u << 0,         /* bf16 arithmetic and conversions: fma.rn.bf16, cvt.rn.bf16.f32 */
    TF_BF16_ATOMIC = 1u << 1,  /* atom.add.noftz.bf16 */
    TF_REDUX = 1u << 2,        /* redux.sync */
    TF_CP_ASYNC = 1u << 3,     /* cp.async */
    TF_MMA = 1u << 4,          /* mma.sync on f16/bf16 */
    TF_MMA_FP8 = 1u << 5,      /* mma.sync on e4m3/e5m2 */
    TF_TMA = 1u << 6,          /* cp.async.bulk(.tensor) with mbarrier transaction counts */
    TF_WGMMA = 1u << 7,        /* wgmma.mma_async, setmaxnreg */
    TF_TENSORMAP = 1u << 8,    /* tensormap.replace */
};
#define TF_COUNT 9

/* PTX ISA versions are major*10 + minor: 86 is PTX ISA 8.6. */
typedef struct TargetInfo {
    int arch;             /* major*10 + minor: 90 */
    const char *name;     /* "sm_90"; the `a` variant appends "a" */
    int ptx;              /* the first PTX ISA with .target sm_<arch> */
    int ptx_a;            /* the same for sm_<arch>a; 0: there is no `a` variant */
    bool use_a;           /* a name without a suffix (cuda:90) means sm_<arch>a */
    int smem_block;       /* shared memory per block, opt-in maximum (bytes) */
    int smem_sm;          /* shared memory per SM */
    int smem_reserved;    /* of smem_sm, what the system keeps per resident block */
    int regs_sm, regs_block, regs_thread;
    int threads_sm, blocks_sm;  /* resident per SM */
    unsigned features;    /* TF_* on sm_<arch> */
    unsigned features_a;  /* TF_* that only sm_<arch>a has */
} TargetInfo;

/* The row of arch, or NULL when tritonc does not know it. */
const TargetInfo *target_info(int arch);
/* The row of t's arch when tritonc compiles for it (the `a` variant, when t asks for one,
 * must exist; the backend is the caller's to check); else NULL, with "unknown target
 * 'cuda:75' (known targets: ...)" in msg. */
const TargetInfo *target_lookup(const tc_target *t, char *msg, size_t n);
/* "cuda:80, cuda:86, ..., cuda:121": the targets tritonc compiles for, in table order. */
const char *target_names(void);

/* The device host code is told about when no GPU answers and the user names a target to
 * assume (TRITONC_TARGET=cuda:90, `tritonc run --target`): a documented representative
 * GPU of that architecture. NULL for an arch without one. */
typedef struct NominalDevice {
    int arch;
    const char *name;      /* as the driver names it */
    int sms;               /* multiprocessors */
    long long total_memory;  /* bytes */
    int l2_cache;          /* bytes */
} NominalDevice;
const NominalDevice *target_nominal(int arch);

/* Parses "cuda:80", "cuda:90a", "sm_90a", "sm80", "80": the syntax only, so that any arch
 * a device or TRITON_OVERRIDE_ARCH names can be represented (target_lookup says whether
 * tritonc compiles for it). Without a suffix, arch_suffix_a is the row's use_a. A
 * non-cuda backend ("hip:gfx942") is TC_ERR_UNSUPPORTED, bad syntax TC_ERR_ARG. */
tc_status target_parse(const char *s, tc_target *out);
/* The target of a device of compute capability arch (its row's use_a). */
void target_of_arch(int arch, tc_target *out);

/* The PTX ISA version for code on t (the `a` variant when a) that uses `features`: the
 * largest of the target's and each feature's. Features the target lacks go to *missing
 * (0 when none). */
int target_ptx_version(const TargetInfo *t, bool a, unsigned features, unsigned *missing);
/* "bf16 atomics (atom.add.noftz.bf16)": for messages; f is one TF_* bit. */
const char *target_feature_name(unsigned f);
/* The newest PTX ISA a CUDA driver loads, from cuDriverGetVersion (12040 -> 84); 0 for a
 * driver older than CUDA 11.0 or an unknown version. */
int target_driver_ptx(int cuda_version);

/* The tensor-map (TMA) element type of a dtype, as the driver's CUtensorMapDataType counts
 * them (8-bit floats as UINT8, as Triton); -1 for none (i1). The PTX of tensormap.replace
 * counts f32.ftz before f64: one more from f64 on (gpu/tma.c). */
int target_tmap_dtype(int dt);

#endif
