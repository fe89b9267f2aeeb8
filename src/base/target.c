/* target.c — the target table and what is looked up in it (target.h). */
#include "base/target.h"
#include "base/tc.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define F_SM80 (TF_BF16 | TF_REDUX | TF_CP_ASYNC | TF_MMA)
#define F_SM89 (F_SM80 | TF_MMA_FP8)
#define F_SM90 (F_SM89 | TF_BF16_ATOMIC | TF_TMA)

/* One row per arch: the PTX ISA of sm_<arch> and of sm_<arch>a (0: none), whether a bare
 * name (cuda:90) means the `a` variant, shared memory per block (opt-in) and per SM in KB,
 * resident threads and blocks per SM, the features of sm_<arch> and those only sm_<arch>a
 * adds. Every row has 64 K registers per SM and per block, 255 per thread, and 1 KB of
 * shared memory reserved per block.
 * Limits: CUDA C++ Programming Guide, "Device and Streaming Multiprocessor (SM) Information
 * per Compute Capability" and "Memory Information per Compute Capability" (KB = 1024
 * bytes). PTX ISA versions: PTX ISA manual, "PTX Release History"; ptxas 13.0 accepts each
 * and rejects the version below it. */
#define ROW(arch, ptx, ptx_a, use_a, block_kb, sm_kb, threads, blocks, f, f_a)                  \
    {arch, "sm_" #arch, ptx, ptx_a, use_a, (block_kb) * 1024, (sm_kb) * 1024, 1024, 65536, 65536, \
     255, threads, blocks, f, f_a}
static const TargetInfo targets[] = {
    ROW(80, 70, 0, false, 163, 164, 2048, 32, F_SM80, 0),
    ROW(86, 71, 0, false, 99, 100, 1536, 16, F_SM80, 0),
    ROW(87, 74, 0, false, 163, 164, 1536, 16, F_SM80, 0),
    ROW(89, 78, 0, false, 99, 100, 1536, 24, F_SM89, 0),
    /* as Triton: Hopper and Blackwell datacenter GPUs get their `a` variant */
    ROW(90, 78, 80, true, 227, 228, 2048, 32, F_SM90, TF_WGMMA | TF_TENSORMAP),
    ROW(100, 86, 86, true, 227, 228, 2048, 32, F_SM90, TF_TENSORMAP),
    ROW(103, 88, 88, true, 227, 228, 2048, 32, F_SM90, TF_TENSORMAP),
    /* nothing the backend emits needs sm_120a, and sm_120 PTX also runs on later GPUs */
    ROW(120, 87, 87, false, 99, 100, 1536, 24, F_SM90, TF_TENSORMAP),
    ROW(121, 88, 88, false, 99, 100, 1536, 24, F_SM90, TF_TENSORMAP),
};

/* The PTX ISA that introduced each TF_* bit, in bit order (PTX ISA manual, each
 * instruction's "PTX ISA Notes"; checked with ptxas). */
static const struct { int ptx; const char *name; } features[TF_COUNT] = {
    {70, "bf16 arithmetic (fma.rn.bf16)"},
    {78, "bf16 atomics (atom.add.noftz.bf16)"},
    {70, "redux.sync"},
    {70, "cp.async"},
    {70, "mma.sync"},
    {84, "mma.sync on fp8"},
    {80, "TMA (cp.async.bulk)"},
    {80, "wgmma"},
    /* introduced in 8.3, but ptxas before CUDA 12.7 reads its global_stride in 16-byte units
     * (Triton works around it below PTX 8.6, TMAToLLVM.cpp): 8.6 gives bytes on every ptxas */
    {86, "tensormap.replace"},
};

/* cuDriverGetVersion -> the newest PTX ISA that driver loads (PTX Release History). */
static const struct { int cuda, ptx; } drivers[] = {
    {11000, 70}, {11010, 71}, {11020, 72}, {11030, 73}, {11040, 74}, {11050, 75},
    {11060, 76}, {11070, 77}, {11080, 78}, {12000, 80}, {12010, 81}, {12020, 82},
    {12030, 83}, {12040, 84}, {12050, 85}, {12060, 85}, {12070, 86}, {12080, 87},
    {12090, 88}, {13000, 90}, {13010, 91},
};

const TargetInfo *target_info(int arch) {
    for (int i = 0; i < COUNT_OF(targets); i++)
        if (targets[i].arch == arch) return &targets[i];
    return NULL;
}

static char names[COUNT_OF(targets) * 12];
static void names_init(void) {
    size_t o = 0;
    for (int i = 0; i < COUNT_OF(targets); i++)
        o += (size_t)snprintf(names + o, sizeof names - o, "%scuda:%d%s", i ? ", " : "",
                              targets[i].arch, targets[i].use_a ? "a" : "");
}

const char *target_names(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, names_init);
    return names;
}

const TargetInfo *target_lookup(const tc_target *t, char *msg, size_t n) {
    const TargetInfo *ti = t ? target_info(t->arch) : NULL;
    if (ti && (!t->arch_suffix_a || ti->ptx_a)) return ti;
    if (msg && n) {
        if (t) snprintf(msg, n, "unknown target 'cuda:%d%s' (known targets: %s)", t->arch,
                        t->arch_suffix_a ? "a" : "", target_names());
        else snprintf(msg, n, "no target (known targets: %s)", target_names());
    }
    return NULL;
}

/* One representative GPU per architecture (from NVIDIA's data sheets): what
 * TRITONC_TARGET=cuda:<arch> makes host code see as the device. */
static const NominalDevice nominal[] = {
    {80, "NVIDIA A100-SXM4-80GB", 108, 80LL << 30, 40 << 20},
    {86, "NVIDIA GeForce RTX 3090", 82, 24LL << 30, 6 << 20},
    {89, "NVIDIA L40S", 142, 48LL << 30, 96 << 20},
    {90, "NVIDIA H100 80GB HBM3", 132, 80LL << 30, 50 << 20},
    {100, "NVIDIA B200", 148, 180LL << 30, 126 << 20},
    {120, "NVIDIA GeForce RTX 5090", 170, 32LL << 30, 96 << 20},
};

const NominalDevice *target_nominal(int arch) {
    for (int i = 0; i < COUNT_OF(nominal); i++)
        if (nominal[i].arch == arch) return &nominal[i];
    return NULL;
}

void target_of_arch(int arch, tc_target *out) {
    const TargetInfo *ti = target_info(arch);
    memset(out, 0, sizeof *out);
    snprintf(out->backend, sizeof out->backend, "cuda");
    out->arch = arch;
    out->warp_size = 32;
    /* an arch the table does not know: Triton's rule, `a` from Hopper on */
    out->arch_suffix_a = ti ? ti->use_a : arch >= 90;
}

tc_status target_parse(const char *s, tc_target *out) {
    if (!s || !out) return TC_ERR_ARG;
    const char *p = s;
    if (strncmp(p, "cuda:", 5) == 0) p += 5;
    else if (strchr(p, ':')) return TC_ERR_UNSUPPORTED; /* hip:gfx942 and others */
    if (strncmp(p, "sm_", 3) == 0) p += 3;
    else if (strncmp(p, "sm", 2) == 0) p += 2;
    if (!isdigit((unsigned char)*p)) return TC_ERR_ARG;
    int arch = 0, digits = 0;
    while (isdigit((unsigned char)*p)) {
        arch = arch * 10 + (*p++ - '0');
        if (++digits > 4) return TC_ERR_ARG;
    }
    bool a = false;
    if (*p == 'a') a = true, p++;
    if (*p || arch < 10 || arch > 999) return TC_ERR_ARG;
    const TargetInfo *ti = target_info(arch);
    if (a && (ti ? !ti->ptx_a : arch < 90)) return TC_ERR_ARG; /* sm_80a does not exist */
    target_of_arch(arch, out);
    if (a) out->arch_suffix_a = 1;
    return TC_OK;
}

int target_ptx_version(const TargetInfo *t, bool a, unsigned features_used, unsigned *missing) {
    a = a && t->ptx_a;
    unsigned have = t->features | (a ? t->features_a : 0);
    int v = a ? t->ptx_a : t->ptx;
    for (int i = 0; i < TF_COUNT; i++)
        if (features_used & (1u << i) && features[i].ptx > v) v = features[i].ptx;
    if (missing) *missing = features_used & ~have;
    return v;
}

const char *target_feature_name(unsigned f) {
    for (int i = 0; i < TF_COUNT; i++)
        if (f == 1u << i) return features[i].name;
    return "?";
}

int target_driver_ptx(int cuda_version) {
    int v = 0;
    for (int i = 0; i < COUNT_OF(drivers) && drivers[i].cuda <= cuda_version; i++) v = drivers[i].ptx;
    return v;
}

int target_tmap_dtype(int dt) {
    switch (dt) {
    case DT_I8: case DT_U8: case DT_FP8E5: case DT_FP8E4NV: case DT_FP8E4B15: return 0;
    case DT_I16: case DT_U16: return 1;
    case DT_U32: return 2;
    case DT_I32: return 3;
    case DT_U64: return 4;
    case DT_I64: return 5;
    case DT_FP16: return 6;
    case DT_FP32: return 7;
    case DT_FP64: return 8;
    case DT_BF16: return 9;
    default: return -1;
    }
}
