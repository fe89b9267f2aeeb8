/* gpu_shadow.c — runs the kernel conformance suite (tests/test_kernels*.c) as the GPU
 * backend's test bench. Linked into a copy of the test binary with
 *   -Wl,--wrap=tc_launch,--wrap=tc_module_load_string,--wrap=tc_module_load_file,
 *   --wrap=tc_module_kernel
 * it sees every launch the suite makes on the interpreter, and with TRITONC_SHADOW=
 *   lower  lowers each distinct specialization to PTX for sm_80, sm_90a, sm_100a and sm_120
 *          (num_warps 1, 2, 4, 8, or TRITONC_SHADOW_WARPS) and, where ptxas exists
 *          (TRITONC_PTXAS, default /usr/local/cuda/bin/ptxas), assembles it: sm_100a and
 *          sm_120, whose code differs only in .version and .target, at the largest num_warps;
 *   gpu    runs it on the GPU (a second context on the CUDA backend) under num_warps 1, 2,
 *          4 and 8 with the same inputs, and compares every element of every tensor argument
 *          with the interpreter's result: bitwise for integers and bools; floats bitwise, or
 *          within |d| <= rtol*|ref| + atol (fp32/fp64 rtol 1e-5 atol 1e-6; fp16/bf16 rtol 1e-2
 *          atol 1e-3; fp8: one unit in the last place; fp32 from an fp8 tensor-core dot: rtol
 *          1e-3) where the op is not exact on the GPU (approximate exp/log/sqrt/div, sums in
 *          a different order, fp8 tensor cores' accumulation).
 *   dce    lowers each specialization for sm_80 and sm_90a (num_warps 4, or the largest of
 *          TRITONC_SHADOW_WARPS) twice, as usual and with TRITONC_PTX_DCE=0 (no removal of
 *          dead instructions: src/gpu/ptxdce.c), and has ptxas assemble both without their
 *          .loc lines: the two cubins' machine code (.text) must be the same bytes (the
 *          removal changed nothing ptxas would not have removed itself).
 * A summary goes to stderr at exit, and the exit status is 3 when anything failed.
 * Uses only the public API. */
#include "tritonc.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

tc_status __real_tc_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts);
tc_status __real_tc_module_load_string(tc_context *ctx, const char *name, const char *source,
                                       tc_module **out);
tc_status __real_tc_module_load_file(tc_context *ctx, const char *path, tc_module **out);
tc_status __real_tc_module_kernel(tc_module *m, const char *name, tc_kernel **out);

typedef struct ModRec { tc_module *m; tc_context *ctx; char *name; char *src; tc_module *gm; } ModRec;
typedef struct KerRec { tc_kernel *k; int mod; char *name; } KerRec;

static ModRec mods[4096];
static int nmods;
static KerRec kers[8192];
static int nkers;
static char **seen;
static int nseen, capseen;
static int n_spec, n_lowered, n_ptxas, n_fail, n_gpu_runs, n_mismatch, n_unsupported;
static int n_dce_same, n_dce_differ;   /* dce mode: cubins compared */
static int mode = -1;  /* 0 off, 1 lower, 2 gpu */
static tc_context *gctx;
static FILE *shlog;

static int get_mode(void) {
    if (mode >= 0) return mode;
    const char *s = getenv("TRITONC_SHADOW");
    mode = !s ? 0 : strcmp(s, "gpu") == 0 ? 2 : strcmp(s, "lower") == 0 ? 1 : strcmp(s, "dce") == 0 ? 3 : 0;
    shlog = stderr;
    return mode;
}

static void summary(void) {
    fprintf(stderr,
            "gpu-shadow: %d specializations, %d lowered, %d assembled by ptxas, %d unsupported, "
            "%d GPU runs, %d mismatching runs, %d failures\n",
            n_spec, n_lowered, n_ptxas, n_unsupported, n_gpu_runs, n_mismatch, n_fail);
    if (mode == 3)
        fprintf(stderr, "gpu-shadow: dce: %d cubin pairs the same, %d differing\n", n_dce_same, n_dce_differ);
    if (n_fail || n_mismatch) _exit(3);
}

tc_status __wrap_tc_module_load_string(tc_context *ctx, const char *name, const char *source,
                                       tc_module **out) {
    tc_status s = __real_tc_module_load_string(ctx, name, source, out);
    if (s == TC_OK && get_mode() && nmods < 4096) {
        mods[nmods++] = (ModRec){*out, ctx, strdup(name ? name : "?"), strdup(source), NULL};
    }
    return s;
}

tc_status __wrap_tc_module_load_file(tc_context *ctx, const char *path, tc_module **out) {
    tc_status s = __real_tc_module_load_file(ctx, path, out);
    if (s == TC_OK && get_mode() && nmods < 4096) {
        FILE *f = fopen(path, "rb");
        char *src = NULL;
        if (f) {
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            src = calloc(1, (size_t)n + 1);
            if (src && fread(src, 1, (size_t)n, f) != (size_t)n) src[0] = 0;
            fclose(f);
        }
        if (src) mods[nmods++] = (ModRec){*out, ctx, strdup(path), src, NULL};
    }
    return s;
}

tc_status __wrap_tc_module_kernel(tc_module *m, const char *name, tc_kernel **out) {
    tc_status s = __real_tc_module_kernel(m, name, out);
    if (s == TC_OK && get_mode() && nkers < 8192) {
        for (int i = nmods - 1; i >= 0; i--)
            if (mods[i].m == m) {
                kers[nkers++] = (KerRec){*out, i, strdup(name)};
                break;
            }
    }
    return s;
}

static KerRec *find_kernel(tc_kernel *k) {
    for (int i = nkers - 1; i >= 0; i--)
        if (kers[i].k == k) return &kers[i];
    return NULL;
}

/* Triton signature strings for the runtime parameters, and a key for the specialization */
static int build_sig(tc_kernel *k, tc_args *a, char sig[][64], int *nsig, char *key, size_t nkey) {
    int n = tc_kernel_param_count(k);
    size_t o = 0;
    *nsig = 0;
    for (int i = 0; i < n; i++) {
        int isc = 0;
        const char *name = tc_kernel_param_name(k, i, &isc);
        tc_value v;
        if (tc_args_get(a, name, &v) != TC_OK) return 0;
        char buf[64];
        if (isc) {
            if (v.kind == TC_VAL_INT) snprintf(buf, sizeof buf, "%lld", (long long)v.u.i);
            else if (v.kind == TC_VAL_FLOAT) snprintf(buf, sizeof buf, "%g", v.u.f);
            else if (v.kind == TC_VAL_BOOL) snprintf(buf, sizeof buf, "%d", v.u.b);
            else if (v.kind == TC_VAL_STR) snprintf(buf, sizeof buf, "%s", v.u.s);
            else snprintf(buf, sizeof buf, "None");
            o += (size_t)snprintf(key + o, o < nkey ? nkey - o : 0, "%s=%s,", name, buf);
            continue;
        }
        switch (v.kind) {
        case TC_VAL_TENSOR: snprintf(buf, sizeof buf, "*%s:16", tc_dtype_name(tc_tensor_dtype(v.u.t))); break;
        case TC_VAL_INT:
            if (v.u.i < INT32_MIN || v.u.i > INT32_MAX) snprintf(buf, sizeof buf, "i64%s", v.u.i % 16 ? "" : ":16");
            else if (v.u.i == 1) snprintf(buf, sizeof buf, "1");
            else snprintf(buf, sizeof buf, "i32%s", v.u.i % 16 ? "" : ":16");
            break;
        case TC_VAL_FLOAT: snprintf(buf, sizeof buf, "fp32"); break;
        case TC_VAL_BOOL: snprintf(buf, sizeof buf, "i1"); break;
        default: return 0;
        }
        if (*nsig < 64) snprintf(sig[(*nsig)++], 64, "%s", buf);
        o += (size_t)snprintf(key + o, o < nkey ? nkey - o : 0, "%s=%s,", name, buf);
    }
    return 1;
}

/* TRITONC_SHADOW_WARPS, e.g. "1,4"; default 1,2,4,8 */
static bool want_warps(int nw) {
    const char *ws = getenv("TRITONC_SHADOW_WARPS");
    if (!ws || !*ws) return true;
    char one[16];
    snprintf(one, sizeof one, "%d", nw);
    for (const char *q = ws; *q;) {
        size_t l = strcspn(q, ",");
        if (l == strlen(one) && strncmp(q, one, l) == 0) return true;
        q += l;
        if (*q == ',') q++;
    }
    return false;
}

/* The launch's signature as tc_compile_ptx takes it (sp[0..*nsig) point into sig); false
 * when it cannot be written. */
static bool launch_sig(tc_kernel *k, tc_args *a, char sig[64][64], const char *sp[64], int *nsig) {
    char dummy[4096];
    *nsig = 0;
    if (!build_sig(k, a, sig, nsig, dummy, sizeof dummy)) return false;
    for (int i = 0; i < *nsig; i++) sp[i] = sig[i];
    return true;
}

static const char *ptxas_path(void) {
    const char *ptxas = getenv("TRITONC_PTXAS");
    return ptxas ? ptxas : "/usr/local/cuda/bin/ptxas";
}

static void lower_all(tc_kernel *k, tc_args *a, const char *label, const char *key) {
    char sig[64][64];
    const char *sp[64];
    int nsig;
    if (!launch_sig(k, a, sig, sp, &nsig)) return;
    const char *ptxas = ptxas_path();
    bool have_ptxas = access(ptxas, X_OK) == 0;
    static const struct { const char *name, *arch; bool every_nw; } targets[] = {
        {"cuda:80", "sm_80", true}, {"cuda:90a", "sm_90a", true},
        {"cuda:100a", "sm_100a", false}, {"cuda:120", "sm_120", false}};
    int nw_last = 1;
    for (int nw = 1; nw <= 8; nw *= 2)
        if (want_warps(nw)) nw_last = nw;
    for (int t = 0; t < 4; t++)
        for (int nw = 1; nw <= 8; nw *= 2) {
            if (!want_warps(nw)) continue;
            tc_target tg;
            if (tc_target_parse(targets[t].name, &tg) != TC_OK) {
                n_fail++;
                fprintf(shlog, "gpu-shadow: %s is not a target\n", targets[t].name);
                return;
            }
            char *ptx = NULL;
            tc_status s = tc_compile_ptx(k, &tg, sp, nsig, a, nw, &ptx);
            if (s != TC_OK) {
                const char *msg = mods[find_kernel(k)->mod].ctx ? tc_errmsg(mods[find_kernel(k)->mod].ctx) : "";
                if (s == TC_ERR_UNSUPPORTED) n_unsupported++;
                else n_fail++;
                fprintf(shlog, "gpu-shadow: %s [%s] %s num_warps=%d: %s: %s\n", label, key, targets[t].name, nw,
                        tc_status_name(s), msg);
                return;
            }
            n_lowered++;
            if (have_ptxas && (targets[t].every_nw || nw == nw_last)) {
                char path[256], cmd[1024];
                snprintf(path, sizeof path, "/tmp/tritonc-shadow-%d.ptx", (int)getpid());
                FILE *f = fopen(path, "w");
                if (f) { fputs(ptx, f); fclose(f); }
                snprintf(cmd, sizeof cmd, "%s -arch=%s %s -o /dev/null 2>&1", ptxas, targets[t].arch, path);
                FILE *p = popen(cmd, "r");
                char out[2048] = "";
                size_t got = p ? fread(out, 1, sizeof out - 1, p) : 0;
                out[got] = 0;
                int rc = p ? pclose(p) : -1;
                if (rc != 0) {
                    n_fail++;
                    fprintf(shlog, "gpu-shadow: ptxas failed for %s [%s] %s num_warps=%d:\n%s\n", label, key,
                            targets[t].name, nw, out);
                    const char *keep = getenv("TRITONC_SHADOW_KEEP");
                    if (keep) {
                        char kp[512];
                        snprintf(kp, sizeof kp, "%s/%s-%d.ptx", keep, label, n_fail);
                        FILE *kf = fopen(kp, "w");
                        if (kf) { fputs(ptx, kf); fclose(kf); }
                    }
                } else n_ptxas++;
                unlink(path);
            }
            tc_free(ptx);
        }
}

/* ---- dead-instruction removal: the same cubin either way ---------------------------- */

/* PTX without .loc/.file lines assembled to path; false if ptxas failed. */
static bool assemble_noloc(const char *ptxas, const char *arch, const char *ptx, const char *path) {
    char src[256], cmd[1024];
    snprintf(src, sizeof src, "%s.ptx", path);
    FILE *f = fopen(src, "w");
    if (!f) return false;
    for (const char *p = ptx; *p;) {
        const char *q = strchr(p, '\n');
        size_t n = q ? (size_t)(q - p + 1) : strlen(p);
        const char *t = p;
        while (*t == '\t' || *t == ' ') t++;
        if (strncmp(t, ".loc ", 5) != 0 && strncmp(t, ".file ", 6) != 0) fwrite(p, 1, n, f);
        p += n;
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -arch=%s %s -o %s 2>&1", ptxas, arch, src, path);
    FILE *p = popen(cmd, "r");
    char out[1024] = "";
    size_t got = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[got] = 0;
    int rc = p ? pclose(p) : -1;
    if (rc != 0) fprintf(shlog, "gpu-shadow: dce: ptxas: %s\n", out);
    else unlink(src);   /* kept when ptxas failed, for a look */
    return rc == 0;
}

/* The bytes of a cubin's machine code: its .text.* sections, in order (an ELF64 file). */
static char *cubin_text(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = len > 64 ? malloc((size_t)len) : NULL;
    bool ok = b && fread(b, 1, (size_t)len, f) == (size_t)len;
    fclose(f);
    char *out = ok ? malloc((size_t)len) : NULL;
    *n = 0;
    if (!out) { free(b); return NULL; }
#define RD(T, o) (*(const T *)(b + (o)))
    uint64_t shoff = RD(uint64_t, 0x28);
    uint16_t shentsize = RD(uint16_t, 0x3a), shnum = RD(uint16_t, 0x3c), shstrndx = RD(uint16_t, 0x3e);
    if (shoff + (uint64_t)shnum * shentsize > (uint64_t)len || shstrndx >= shnum) { free(b); free(out); return NULL; }
    uint64_t stroff = RD(uint64_t, shoff + (uint64_t)shstrndx * shentsize + 0x18);
    for (int i = 0; i < shnum; i++) {
        uint64_t h = shoff + (uint64_t)i * shentsize;
        uint32_t name = RD(uint32_t, h);
        uint64_t off = RD(uint64_t, h + 0x18), size = RD(uint64_t, h + 0x20);
        if (stroff + name + 6 > (uint64_t)len || strncmp((const char *)b + stroff + name, ".text.", 6) != 0) continue;
        if (off + size > (uint64_t)len) continue;
        memcpy(out + *n, b + off, size);
        *n += size;
    }
#undef RD
    free(b);
    return out;
}

/* The same machine code in both cubins (their .text sections). Other sections may differ
 * where removed code named a symbol: a dead read of the shared-memory base makes ptxas note
 * a shared-memory reservation the code never uses. */
static bool same_text(const char *a, const char *b) {
    size_t na, nb;
    char *ta = cubin_text(a, &na), *tb = cubin_text(b, &nb);
    bool same = ta && tb && na == nb && na > 0 && memcmp(ta, tb, na) == 0;
    free(ta);
    free(tb);
    return same;
}

static void dce_compare(tc_kernel *k, tc_args *a, const char *label, const char *key) {
    char sig[64][64];
    const char *sp[64];
    int nsig;
    if (!launch_sig(k, a, sig, sp, &nsig)) return;
    const char *ptxas = ptxas_path();
    if (access(ptxas, X_OK) != 0) return;
    int nw = 4;
    for (int w = 1; w <= 8; w *= 2)
        if (getenv("TRITONC_SHADOW_WARPS") && want_warps(w)) nw = w;
    static const struct { const char *name, *arch; } targets[] = {{"cuda:80", "sm_80"}, {"cuda:90a", "sm_90a"}};
    for (int t = 0; t < 2; t++) {
        tc_target tg;
        if (tc_target_parse(targets[t].name, &tg) != TC_OK) return;
        char *ptx[2] = {NULL, NULL};
        for (int off = 0; off < 2; off++) {
            if (off) setenv("TRITONC_PTX_DCE", "0", 1);
            tc_status s = tc_compile_ptx(k, &tg, sp, nsig, a, nw, &ptx[off]);
            if (off) unsetenv("TRITONC_PTX_DCE");
            if (s != TC_OK) { tc_free(ptx[0]); return; }   /* unsupported: the lower mode says so */
        }
        n_lowered++;
        char p0[128], p1[128];
        snprintf(p0, sizeof p0, "/tmp/tritonc-dce-%d-a.cubin", (int)getpid());
        snprintf(p1, sizeof p1, "/tmp/tritonc-dce-%d-b.cubin", (int)getpid());
        if (!assemble_noloc(ptxas, targets[t].arch, ptx[0], p0) || !assemble_noloc(ptxas, targets[t].arch, ptx[1], p1)) {
            n_fail++;
            fprintf(shlog, "gpu-shadow: dce: ptxas failed for %s [%s] %s\n", label, key, targets[t].name);
        } else if (same_text(p0, p1)) {
            n_dce_same++;
        } else {
            n_dce_differ++;
            n_fail++;
            fprintf(shlog, "gpu-shadow: dce: the cubins differ for %s [%s] %s num_warps=%d\n", label, key,
                    targets[t].name, nw);
            const char *keep = getenv("TRITONC_SHADOW_KEEP");
            for (int i = 0; keep && i < 2; i++) {
                char kp[512];
                snprintf(kp, sizeof kp, "%s/dce-%d-%s.ptx", keep, n_dce_differ, i ? "whole" : "dce");
                FILE *kf = fopen(kp, "w");
                if (kf) { fputs(ptx[i], kf); fclose(kf); }
            }
        }
        unlink(p0);
        unlink(p1);
        tc_free(ptx[0]);
        tc_free(ptx[1]);
    }
}

/* ---- GPU comparison ----------------------------------------------------------------- */

typedef struct Snap { const char *name; tc_tensor *t; void *data; size_t n; } Snap;

static double rd(tc_dtype dt, const void *p, long i) {
    switch (dt) {
    case TC_FP32: return ((const float *)p)[i];
    case TC_FP64: return ((const double *)p)[i];
    case TC_FP16: {
        uint16_t h = ((const uint16_t *)p)[i];
        int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
        double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024.0 + m, e - 25);
        return s ? -v : v;
    }
    case TC_BF16: {
        uint32_t u = (uint32_t)((const uint16_t *)p)[i] << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    case TC_FP8E5: case TC_FP8E4NV: case TC_FP8E4B15:
        return tc_fp8_decode(dt, ((const uint8_t *)p)[i]);
    default: return 0;
    }
}

/* f8mma: the launch ran a tensor-core dot on fp8 operands, whose hardware accumulation is
 * not fp32-exact within an instruction (Triton's max_num_imprecise_acc): fp32 results
 * within 1e-3 relative */
static long compare(tc_dtype dt, const void *ref, const void *got, long n, long *first, double *maxrel,
                    bool f8mma) {
    size_t es = tc_dtype_size(dt);
    long bad = 0;
    bool f8 = dt == TC_FP8E5 || dt == TC_FP8E4NV || dt == TC_FP8E4B15;
    bool fl = dt == TC_FP32 || dt == TC_FP64 || dt == TC_FP16 || dt == TC_BF16 || f8;
    double rtol = dt == TC_FP16 || dt == TC_BF16 ? 1e-2 : 1e-5, atol = dt == TC_FP16 || dt == TC_BF16 ? 1e-3 : 1e-6;
    /* fp8 sums are rounded at every step, so their order shows: one unit in the last place
     * (2 mantissa bits for e5m2, 3 for the e4 types) */
    if (f8) rtol = dt == TC_FP8E5 ? 0.25 : 0.125, atol = 0;
    if (f8mma && dt == TC_FP32) rtol = 1e-3;
    for (long i = 0; i < n; i++) {
        if (memcmp((const char *)ref + i * es, (const char *)got + i * es, es) == 0) continue;
        if (fl) {
            double r = rd(dt, ref, i), g = rd(dt, got, i);
            if (isnan(r) && isnan(g)) continue;
            double d = fabs(r - g);
            if (d <= atol + rtol * fabs(r)) {
                double rel = r != 0 ? d / fabs(r) : d;
                if (rel > *maxrel) *maxrel = rel;
                continue;
            }
        }
        if (!bad) *first = i;
        bad++;
    }
    return bad;
}

/* Outputs that depend on the order in which programs run (tickets from an atomic counter,
 * lock order, exchanged values): compared as multisets of int32, all tensors of a group
 * together. */
static const struct { const char *kernel; const char *args[3]; } unordered[] = {
    {"atomic_counter_kernel", {"ticket_ptr"}},
    {"lock_kernel", {"out_ptr"}},
    {"xchg_kernel", {"ptr", "old_ptr"}},
    {"grid3d_kernel", {"order_ptr"}},
};

static int unordered_group(const char *kernel, const char *arg) {
    for (int i = 0; i < (int)(sizeof unordered / sizeof unordered[0]); i++)
        if (strcmp(unordered[i].kernel, kernel) == 0)
            for (int j = 0; j < 3 && unordered[i].args[j]; j++)
                if (strcmp(unordered[i].args[j], arg) == 0) return i;
    return -1;
}

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

static void gpu_run(tc_kernel *k, tc_args *a, const tc_launch_opts *opts, Snap *snaps, int nsnap,
                    const char *label, const char *key) {
    KerRec *kr = find_kernel(k);
    if (!kr) return;
    ModRec *mr = &mods[kr->mod];
    if (!gctx) {
        if (tc_context_new(&gctx) != TC_OK) { n_fail++; return; }
        tc_context_set_backend(gctx, TC_BACKEND_CUDA);
    }
    if (!mr->gm && __real_tc_module_load_string(gctx, mr->name, mr->src, &mr->gm) != TC_OK) {
        fprintf(shlog, "gpu-shadow: %s: module: %s\n", label, tc_errmsg(gctx));
        n_fail++;
        return;
    }
    tc_kernel *gk = NULL;
    if (__real_tc_module_kernel(mr->gm, kr->name, &gk) != TC_OK) { n_fail++; return; }
    int np = tc_kernel_param_count(k);
    for (int nw = 1; nw <= 8; nw *= 2) {
        tc_args *ga = NULL;
        if (tc_args_new(gk, &ga) != TC_OK) { n_fail++; return; }
        tc_tensor *dev[64] = {0}, *devsrc[64] = {0}, *devdesc[64] = {0};
        int ndev = 0;
        bool ok = true;
        for (int i = 0; i < np && ok; i++) {
            int isc = 0;
            const char *name = tc_kernel_param_name(k, i, &isc);
            tc_value v;
            if (tc_args_get(a, name, &v) != TC_OK) continue;
            if (v.kind == TC_VAL_TENSOR) {
                /* the same tensor passed twice (in place) is one device tensor */
                int prev = -1;
                for (int q = 0; q < ndev; q++)
                    if (devsrc[q] == v.u.t) prev = q;
                if (prev >= 0) {
                    if (tc_args_set(ga, name, tc_tens(devdesc[prev] ? devdesc[prev] : dev[prev])) != TC_OK) ok = false;
                    continue;
                }
                Snap *s = NULL;
                for (int j = 0; j < nsnap; j++)
                    if (snaps[j].t == v.u.t) s = &snaps[j];
                tc_tensor *t = NULL;
                if (!s || tc_tensor_from_host(gctx, tc_tensor_dtype(v.u.t), tc_tensor_rank(v.u.t),
                                              tc_tensor_shape(v.u.t), s->data, &t) != TC_OK) {
                    ok = false;
                    break;
                }
                devsrc[ndev] = v.u.t;
                dev[ndev] = t;
                /* a host descriptor (a view of its tensor, whose bytes the snapshot holds):
                 * the same descriptor over the device's copy */
                int64_t dsh[8], dst[8], dbl[8];
                int dr = tc_tensor_descriptor_info(v.u.t, dsh, dst, dbl);
                if (dr > 0 && tc_tensor_descriptor(gctx, t, dr, dsh, dst, dbl, &devdesc[ndev]) != TC_OK) ok = false;
                v = tc_tens(devdesc[ndev] ? devdesc[ndev] : t);
                ndev++;
            }
            if (tc_args_set(ga, name, v) != TC_OK) ok = false;
        }
        tc_launch_opts o = *opts;
        o.num_warps = nw;
        o.check = 0;
        o.stream = NULL;
        tc_status s = ok ? __real_tc_launch(gk, ga, &o) : TC_ERR_ARG;
        n_gpu_runs++;
        if (s != TC_OK) {
            if (s == TC_ERR_UNSUPPORTED) n_unsupported++;
            else n_fail++;
            fprintf(shlog, "gpu-shadow: %s [%s] num_warps=%d: GPU launch failed: %s: %s\n", label, key, nw,
                    tc_status_name(s), tc_errmsg(gctx));
        } else {
            int d = 0, bad_any = 0;
            tc_launch_report rep;
            tc_last_launch(gctx, &rep, sizeof rep);
            bool f8mma = false;
            if (strstr(rep.dot, "mma"))
                for (int i = 0; i < np; i++) {
                    int isc = 0;
                    tc_value v;
                    if (tc_args_get(a, tc_kernel_param_name(k, i, &isc), &v) == TC_OK && v.kind == TC_VAL_TENSOR) {
                        tc_dtype t = tc_tensor_dtype(v.u.t);
                        if (t == TC_FP8E5 || t == TC_FP8E4NV || t == TC_FP8E4B15) f8mma = true;
                    }
                }
            int32_t *ur = NULL, *ug = NULL;
            size_t un = 0;
            for (int i = 0; i < np; i++) {
                int isc = 0;
                const char *name = tc_kernel_param_name(k, i, &isc);
                tc_value v;
                if (tc_args_get(a, name, &v) != TC_OK || v.kind != TC_VAL_TENSOR) continue;
                tc_tensor *ref = v.u.t, *gt = NULL;
                bool dup = false;
                for (int q = 0; q < ndev; q++)
                    if (devsrc[q] == ref) gt = dev[q];
                for (int q = 0; q < i; q++) {
                    int isc2 = 0;
                    tc_value v2;
                    if (tc_args_get(a, tc_kernel_param_name(k, q, &isc2), &v2) == TC_OK &&
                        v2.kind == TC_VAL_TENSOR && v2.u.t == ref)
                        dup = true;
                }
                if (!gt || dup) continue;
                (void)d;
                if (unordered_group(kr->name, name) >= 0 && tc_dtype_size(tc_tensor_dtype(ref)) == 4) {
                    size_t ne = (size_t)tc_tensor_numel(ref);
                    ur = realloc(ur, (un + ne) * 4);
                    ug = realloc(ug, (un + ne) * 4);
                    if (ur && ug && tc_tensor_to_host(ref, ur + un, ne * 4) == TC_OK &&
                        tc_tensor_to_host(gt, ug + un, ne * 4) == TC_OK)
                        un += ne;
                    continue;
                }
                size_t nb = tc_tensor_nbytes(ref);
                void *r = malloc(nb ? nb : 1), *gbuf = malloc(nb ? nb : 1);
                if (r && gbuf && tc_tensor_to_host(ref, r, nb) == TC_OK &&
                    tc_tensor_to_host(gt, gbuf, nb) == TC_OK) {
                    long first = -1;
                    double maxrel = 0;
                    long bad = compare(tc_tensor_dtype(ref), r, gbuf, tc_tensor_numel(ref), &first, &maxrel,
                                       f8mma);
                    if (bad) {
                        bad_any = 1;
                        size_t es = tc_dtype_size(tc_tensor_dtype(ref));
                        uint64_t rb = 0, gb = 0;
                        memcpy(&rb, (char *)r + first * es, es < 8 ? es : 8);
                        memcpy(&gb, (char *)gbuf + first * es, es < 8 ? es : 8);
                        fprintf(shlog, "gpu-shadow: MISMATCH %s [%s] num_warps=%d: %s: %ld of %lld elements differ; "
                                "first [%ld]: interp 0x%llx (%g), gpu 0x%llx (%g)\n", label, key, nw, name, bad,
                                (long long)tc_tensor_numel(ref), first, (unsigned long long)rb,
                                rd(tc_tensor_dtype(ref), r, first), (unsigned long long)gb,
                                rd(tc_tensor_dtype(ref), gbuf, first));
                    } else if (maxrel > 0 && getenv("TRITONC_SHADOW_VERBOSE")) {
                        fprintf(shlog, "gpu-shadow: %s num_warps=%d: %s within tolerance (max rel %.3g)\n",
                                label, nw, name, maxrel);
                    }
                }
                free(r);
                free(gbuf);
            }
            if (un) {
                qsort(ur, un, 4, cmp_i32);
                qsort(ug, un, 4, cmp_i32);
                if (memcmp(ur, ug, un * 4) != 0) {
                    bad_any = 1;
                    fprintf(shlog, "gpu-shadow: MISMATCH %s [%s] num_warps=%d: order-dependent outputs differ "
                            "as multisets\n", label, key, nw);
                }
            }
            free(ur);
            free(ug);
            if (bad_any) n_mismatch++;
        }
        for (int i = 0; i < ndev; i++) tc_tensor_free(devdesc[i]), tc_tensor_free(dev[i]);
        tc_args_free(ga);
    }
}

tc_status __wrap_tc_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts) {
    if (!get_mode() || !k || !a) return __real_tc_launch(k, a, opts);
    static bool registered;
    if (!registered) { atexit(summary); registered = true; }
    KerRec *kr = find_kernel(k);
    char sig[64][64];
    int nsig = 0;
    char key[4096] = "";
    bool fresh = false;
    char label[256] = "?";
    if (kr) {
        snprintf(label, sizeof label, "%s:%s", mods[kr->mod].name, kr->name);
        if (build_sig(k, a, sig, &nsig, key, sizeof key)) {
            char full[4400];
            snprintf(full, sizeof full, "%s|%s|%d", label, key, opts ? opts->num_warps : 0);
            fresh = true;
            for (int i = 0; i < nseen; i++)
                if (strcmp(seen[i], full) == 0) fresh = false;
            if (fresh) {
                if (nseen == capseen) {
                    capseen = capseen ? capseen * 2 : 64;
                    seen = realloc(seen, sizeof *seen * (size_t)capseen);
                }
                seen[nseen++] = strdup(full);
            }
        }
    }
    /* snapshot every tensor argument before the interpreter touches it */
    Snap snaps[64];
    int nsnap = 0;
    if (fresh && mode == 2) {
        int np = tc_kernel_param_count(k);
        for (int i = 0; i < np && nsnap < 64; i++) {
            int isc = 0;
            const char *name = tc_kernel_param_name(k, i, &isc);
            tc_value v;
            if (tc_args_get(a, name, &v) != TC_OK || v.kind != TC_VAL_TENSOR) continue;
            size_t nb = tc_tensor_nbytes(v.u.t);
            void *d = malloc(nb ? nb : 1);
            if (d && tc_tensor_to_host(v.u.t, d, nb) == TC_OK) snaps[nsnap++] = (Snap){name, v.u.t, d, nb};
            else free(d);
        }
    }
    tc_status s = __real_tc_launch(k, a, opts);
    if (fresh && s == TC_OK) {
        n_spec++;
        if (mode == 1) lower_all(k, a, label, key); /* gpu mode: the launch lowers it */
        if (mode == 3) dce_compare(k, a, label, key);
        tc_launch_opts d = tc_launch_defaults();
        if (mode == 2) gpu_run(k, a, opts ? opts : &d, snaps, nsnap, label, key);
    }
    for (int i = 0; i < nsnap; i++) free(snaps[i].data);
    return s;
}
