/* memory.c — tl.load, tl.store and the atomics on the GPU: vector accesses up to 16 bytes
 * where the axis analysis proves contiguity, alignment and a mask constant over the vector
 * (analysis.c), masked loads pre-set to `other`, stores and atomics predicated to one owner
 * per element when a layout holds copies; descriptor blocks go to tma.c first. */
#include "gpu/lower.h"

#include <stdio.h>
#include <string.h>

int load_vec(G *g, int lay, int ptr, int mask) {
    return lay_mem_vec(g, lay, ptr, mask, false);
}

static const char *mem_ty(int dt, bool ld) {
    switch (dt) {
    case DT_I1: case DT_U8: case DT_FP8E5: case DT_FP8E4NV: case DT_FP8E4B15: return "u8";
    case DT_I8: return "s8";
    case DT_I16: return ld ? "s16" : "b16";
    case DT_U16: return "u16";
    case DT_FP16: case DT_BF16: return "b16";
    default: return dcls(dt) == CD ? "b64" : "b32";
    }
}

/* Two 16-bit values packed into a b32 word and back. fp16/bf16 live in b16 registers;
 * i16/u16 live sign/zero-extended in b32 registers, so they go through cvt. */
static int pack16(G *g, int dt, int a, int b) {
    int w = nr(g, CR);
    if (dt_is_float(dt)) {
        E(g, "mov.b32 %s, {%s, %s};", rn(g, w), rn(g, a), rn(g, b));
        return w;
    }
    int ha = nr(g, CH), hb = nr(g, CH);
    E(g, "cvt.u16.u32 %s, %s;", rn(g, ha), rn(g, a));
    E(g, "cvt.u16.u32 %s, %s;", rn(g, hb), rn(g, b));
    E(g, "mov.b32 %s, {%s, %s};", rn(g, w), rn(g, ha), rn(g, hb));
    return w;
}

static void unpack16(G *g, int dt, int w, int *a, int *b) {
    int ha = nr(g, CH), hb = nr(g, CH);
    E(g, "mov.b32 {%s, %s}, %s;", rn(g, ha), rn(g, hb), rn(g, w));
    if (dt_is_float(dt)) { *a = ha; *b = hb; return; }
    const char *c = dt == DT_I16 ? "cvt.s32.s16" : "cvt.u32.u16";
    *a = nr(g, CR);
    *b = nr(g, CR);
    E(g, "%s %s, %s;", c, rn(g, *a), rn(g, ha));
    E(g, "%s %s, %s;", c, rn(g, *b), rn(g, hb));
}

void lower_load(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    int v = in->res[0], dt = f->types[v].dt;
    if (g->piped[v]) return;   /* issued ahead into shared memory by the pipeliner */
    if (pipe_load(g, in)) return;
    if (tma_load(g, in)) return;
    int L = res_lay(g, v);
    int n = nlay(g, L);
    int *P = get(g, in->args[0], L);
    int *M = in->args[1] >= 0 ? get(g, in->args[1], L) : NULL;
    int *O = in->args[2] >= 0 ? get(g, in->args[2], L) : NULL;
    int vec = load_vec(g, L, in->args[0], in->args[1]);
    const char *vol = in->attr.kind & 1 ? ".volatile" : "";
    int esz = dt_size(dt);
    int *out = alloc_regs(g, n);
    char pr[32];
    for (int r = 0; r < n; r += vec) {
        pr[0] = 0;
        if (M) snprintf(pr, sizeof pr, "@%s ", rn(g, M[r]));
        if (vec == 1) {
            int d = nr(g, dcls(dt));
            int t = dt == DT_I1 ? nr(g, CR) : d;
            if (M) {
                if (dt == DT_I1) {
                    if (O) E(g, "selp.u32 %s, 1, 0, %s;", rn(g, t), rn(g, O[r]));
                    else E(g, "mov.u32 %s, 0;", rn(g, t));
                } else if (O) mov(g, t, O[r]);
                else E(g, "mov.%s %s, 0;", bty(RCLS(t)), rn(g, t));
            }
            E(g, "%sld%s.global.%s %s, [%s];", pr, vol, mem_ty(dt, true), rn(g, t), rn(g, P[r]));
            if (dt == DT_I1) E(g, "setp.ne.u32 %s, %s, 0;", rn(g, d), rn(g, t));
            out[r] = d;
            continue;
        }
        /* vector: words of 32 bits (16-bit data packed two per word) or 64 bits */
        int nwords = esz == 2 ? vec / 2 : vec;
        int wcls = esz == 8 ? CD : CR;
        int w[8];
        for (int j = 0; j < nwords; j++) {
            w[j] = esz == 2 ? nr(g, wcls) : nr(g, dcls(dt));
            if (M) {
                if (esz == 2) {
                    if (O) mov(g, w[j], pack16(g, dt, O[r + 2 * j], O[r + 2 * j + 1]));
                    else E(g, "mov.b32 %s, 0;", rn(g, w[j]));
                } else if (O) mov(g, w[j], O[r + j]);
                else E(g, "mov.%s %s, 0;", bty(wcls), rn(g, w[j]));
            }
        }
        char list[256];
        size_t o = 0;
        for (int j = 0; j < nwords; j++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", j ? ", " : "", rn(g, w[j]));
        if (nwords == 1)
            E(g, "%sld%s.global.%s %s, [%s];", pr, vol, wcls == CD ? "b64" : "b32", list, rn(g, P[r]));
        else
            E(g, "%sld%s.global.v%d.%s {%s}, [%s];", pr, vol, nwords, wcls == CD ? "b64" : "b32", list,
              rn(g, P[r]));
        for (int j = 0; j < nwords; j++) {
            if (esz == 2) {
                unpack16(g, dt, w[j], &out[r + 2 * j], &out[r + 2 * j + 1]);
            } else {
                out[r + j] = w[j];
            }
        }
    }
    set_val(g, v, L, out);
}

/* predicate: mask (may be 0 = none) and the layout's unique-thread predicate */
static int and_pred(G *g, int a, int b) {
    if (!a) return b;
    if (!b) return a;
    int d = nr(g, CP);
    E(g, "and.pred %s, %s, %s;", rn(g, d), rn(g, a), rn(g, b));
    return d;
}

void lower_store(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    if (tma_store(g, in)) return;
    int ptr = in->args[0], dt = f->types[in->args[1]].dt;
    int L = f->types[ptr].rank ? (g->pref[ptr] >= 0 ? g->pref[ptr] : default_lay(g, &f->types[ptr])) : 0;
    int n = nlay(g, L);
    int *P = get(g, ptr, L);
    int *V = get(g, in->args[1], L);
    int *M = in->args[2] >= 0 ? get(g, in->args[2], L) : NULL;
    int vec = load_vec(g, L, ptr, in->args[2]);
    int red = tred(g, L);
    int esz = dt_size(dt);
    char pr[32];
    for (int r = 0; r < n; r += vec) {
        int p = and_pred(g, M ? M[r] : 0, red);
        pr[0] = 0;
        if (p) snprintf(pr, sizeof pr, "@%s ", rn(g, p));
        if (vec == 1) {
            int x = V[r];
            if (dt == DT_I1) x = pred_to_u32(g, x);
            E(g, "%sst.global.%s [%s], %s;", pr, mem_ty(dt, false), rn(g, P[r]), rn(g, x));
            continue;
        }
        int nwords = esz == 2 ? vec / 2 : vec;
        int w[8];
        for (int j = 0; j < nwords; j++) {
            if (esz == 2) w[j] = pack16(g, dt, V[r + 2 * j], V[r + 2 * j + 1]);
            else w[j] = V[r + j];
        }
        char list[256];
        size_t o = 0;
        for (int j = 0; j < nwords; j++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", j ? ", " : "", rn(g, w[j]));
        const char *wt = esz == 8 ? "b64" : "b32";
        if (nwords == 1) E(g, "%sst.global.%s [%s], %s;", pr, wt, rn(g, P[r]), list);
        else E(g, "%sst.global.v%d.%s [%s], {%s};", pr, nwords, wt, rn(g, P[r]), list);
    }
}

void lower_atomic(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    int v = in->res[0], dt = f->types[v].dt, ptr = in->args[0];
    int L = res_lay(g, v);
    int n = nlay(g, L);
    int *P = get(g, ptr, L);
    int *X = get(g, in->args[1], L);
    int *C = NULL, *M = NULL;
    bool cas = in->op == OP_ATOMIC_CAS;
    if (cas) { C = X; X = get(g, in->args[2], L); }
    else if (in->args[2] >= 0) M = get(g, in->args[2], L);
    int red = tred(g, L);
    int *out = alloc_regs(g, n);
    int cls = dcls(dt);
    if (dt == DT_I1) unsupported(g, "atomics on i1");
    const char *sem = "atom.acq_rel.gpu.global";
    for (int r = 0; r < n; r++) {
        int p = and_pred(g, M ? M[r] : 0, red);
        char pr[32] = "";
        if (p) snprintf(pr, sizeof pr, "@%s ", rn(g, p));
        int d = nr(g, cls);
        E(g, "mov.%s %s, 0;", bty(cls), rn(g, d));
        const char *D = rn(g, d), *A = rn(g, P[r]), *B = rn(g, X[r]);
        if (cas && (dt == DT_I16 || dt == DT_U16)) {
            /* 16-bit integers live in b32 registers: CAS the 2 bytes as b16 (sm_70+) */
            int c16 = nr(g, CH), x16 = nr(g, CH), d16 = nr(g, CH);
            E(g, "cvt.u16.u32 %s, %s;", rn(g, c16), rn(g, C[r]));
            E(g, "cvt.u16.u32 %s, %s;", rn(g, x16), B);
            E(g, "mov.b16 %s, 0;", rn(g, d16));
            E(g, "%s%s.cas.b16 %s, [%s], %s, %s;", pr, sem, rn(g, d16), A, rn(g, c16), rn(g, x16));
            E(g, "cvt.%s.%s %s, %s;", dt == DT_I16 ? "s32" : "u32", dt == DT_I16 ? "s16" : "u16", D,
              rn(g, d16));
            out[r] = d;
            continue;
        }
        if (cas) {
            if (is_small(dt)) unsupported(g, "atomic_cas on 8-bit integers");
            E(g, "%s%s.cas.%s %s, [%s], %s, %s;", pr, sem, bty(cls), D, A, rn(g, C[r]), B);
            out[r] = d;
            continue;
        }
        int k = in->attr.kind;
        bool fl = dt_is_float(dt);
        const char *it = dt == DT_FP32 ? "f32" : dt == DT_FP64 ? "f64" : dt == DT_FP16 ? "noftz.f16"
                       : dt == DT_BF16 ? "noftz.bf16" : ity(dt);
        if (is_small(dt)) unsupported(g, "atomics on 8/16-bit integers");
        switch (k) {
        case ATOM_ADD:
            if (dt == DT_BF16) need(g, TF_BF16_ATOMIC);
            E(g, "%s%s.add.%s %s, [%s], %s;", pr, sem, strcmp(it, "s64") == 0 ? "u64" : it, D, A, B);
            break;
        case ATOM_MAX: case ATOM_MIN:
            if (fl && dt == DT_FP32) {
                /* Triton's trick: non-negative values order as signed ints, negative ones
                 * in reverse as unsigned */
                int pos = nr(g, CP), pp = nr(g, CP), pn = nr(g, CP);
                E(g, "setp.ge.f32 %s, %s, 0f00000000;", rn(g, pos), rn(g, X[r]));
                if (p) E(g, "and.pred %s, %s, %s;", rn(g, pp), rn(g, pos), rn(g, p));
                else E(g, "mov.pred %s, %s;", rn(g, pp), rn(g, pos));
                E(g, "not.pred %s, %s;", rn(g, pn), rn(g, pos));
                if (p) E(g, "and.pred %s, %s, %s;", rn(g, pn), rn(g, pn), rn(g, p));
                E(g, "@%s %s.%s.s32 %s, [%s], %s;", rn(g, pp), sem, k == ATOM_MAX ? "max" : "min", rn(g, d),
                  rn(g, P[r]), rn(g, X[r]));
                E(g, "@%s %s.%s.u32 %s, [%s], %s;", rn(g, pn), sem, k == ATOM_MAX ? "min" : "max", rn(g, d),
                  rn(g, P[r]), rn(g, X[r]));
            } else if (fl) {
                unsupported(g, "atomic max/min on this float type");
            } else {
                E(g, "%s%s.%s.%s %s, [%s], %s;", pr, sem, k == ATOM_MAX ? "max" : "min", it, D, A, B);
            }
            break;
        case ATOM_AND: case ATOM_OR: case ATOM_XOR: {
            const char *o = k == ATOM_AND ? "and" : k == ATOM_OR ? "or" : "xor";
            if (fl) unsupported(g, "bitwise atomics on floats");
            E(g, "%s%s.%s.%s %s, [%s], %s;", pr, sem, o, bty(cls), D, A, B);
            break;
        }
        case ATOM_XCHG:
            E(g, "%s%s.exch.%s %s, [%s], %s;", pr, sem, bty(cls), D, A, B);
            break;
        default: unsupported(g, "this atomic kind");
        }
        out[r] = d;
    }
    if (f->types[v].rank > 0 && red && g->uses[v]) {
        /* only the owner of each element did it: give the old values to the copies too */
        Layout Lx = g->lays[L].L;
        int esz = dt_size(dt);
        need_smem(g, ((int64_t)1 << Lx.nbits) * esz);
        E(g, "bar.sync 0;");
        int a = smem_addr(g, tflat(g, L), esz);
        for (int r = 0; r < n; r++)
            E(g, "@%s st.shared.%s [%s+%lld], %s;", rn(g, red), st_ty(dt), rn(g, a),
              (long long)(lay_reg_flat(&Lx, r) * esz), rn(g, out[r]));
        E(g, "bar.sync 0;");
        for (int r = 0; r < n; r++) out[r] = ld_shared(g, dt, a, lay_reg_flat(&Lx, r) * esz);
    }
    if (f->types[v].rank == 0 && g->uses[v]) {
        /* one thread did it: broadcast the old value to every thread */
        need_smem(g, 8);
        int a = nr(g, CR);
        E(g, "mov.u32 %s, %s;", rn(g, a), rn(g, g->smem));
        E(g, "bar.sync 0;");
        E(g, "@%s st.shared.%s [%s], %s;", rn(g, red), st_ty(dt), rn(g, a), rn(g, out[0]));
        E(g, "bar.sync 0;");
        out[0] = ld_shared(g, dt, a, 0);
    }
    set_val(g, v, L, out);
}

