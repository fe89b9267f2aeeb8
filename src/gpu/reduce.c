/* reduce.c — tl.sum, tl.max, tl.min, argmax/argmin, xor/or/and over an axis: each thread
 * combines its own registers, then the lanes along the axis by butterfly shuffles, then the
 * warps along it through shared memory (Triton's order of the three steps). */
#include "gpu/lower.h"

static void combine(G *g, int kind, int dt, int a, int b, int ia, int ib, int *oa, int *oi) {
    switch (kind) {
    case RED_SUM: case RED_MAX: case RED_MIN: case RED_XOR: case RED_OR: case RED_AND: {
        static const int ops[] = {OP_ADD, OP_MAX, OP_MIN, 0, 0, OP_XOR, OP_OR, OP_AND};
        Inst tmp = {0};
        tmp.op = (uint16_t)ops[kind];
        tmp.attr.kind = 0;
        if (dt_is_float(dt) && (kind == RED_XOR || kind == RED_OR || kind == RED_AND))
            unsupported(g, "bitwise reductions on floats");
        *oa = binop(g, &tmp, dt, a, b);
        return;
    }
    default: {
        /* argmax/argmin: take b when strictly better, or equal with a smaller index; NaN is
         * ignored (maxnum) */
        bool mx = kind == RED_ARGMAX;
        int A = a, B = b, cdt = dt;
        if (is_half(dt)) { A = up(g, a, dt); B = up(g, b, dt); cdt = DT_FP32; }
        if (dt_is_fp8(dt)) { A = fp8_up(g, a, dt); B = fp8_up(g, b, dt); cdt = DT_FP32; }
        if (dt == DT_I1) { A = pred_to_u32(g, a); B = pred_to_u32(g, b); cdt = DT_U32; }
        const char *t = cdt == DT_FP32 ? "f32" : cdt == DT_FP64 ? "f64" : ity(cdt);
        int better = nr(g, CP), eq = nr(g, CP), lt = nr(g, CP), take = nr(g, CP);
        E(g, "setp.%s.%s %s, %s, %s;", mx ? "gt" : "lt", t, rn(g, better), rn(g, B), rn(g, A));
        E(g, "setp.eq.%s %s, %s, %s;", t, rn(g, eq), rn(g, B), rn(g, A));
        E(g, "setp.lt.s32 %s, %s, %s;", rn(g, lt), rn(g, ib), rn(g, ia));
        E(g, "and.pred %s, %s, %s;", rn(g, eq), rn(g, eq), rn(g, lt));
        E(g, "or.pred %s, %s, %s;", rn(g, take), rn(g, better), rn(g, eq));
        if (dt_is_float(cdt)) {
            int an = nr(g, CP), bn = nr(g, CP);
            E(g, "setp.nan.%s %s, %s, %s;", t, rn(g, an), rn(g, A), rn(g, A));
            E(g, "setp.num.%s %s, %s, %s;", t, rn(g, bn), rn(g, B), rn(g, B));
            E(g, "and.pred %s, %s, %s;", rn(g, an), rn(g, an), rn(g, bn));
            E(g, "or.pred %s, %s, %s;", rn(g, take), rn(g, take), rn(g, an));
        }
        *oa = select1(g, take, b, a);
        *oi = select1(g, take, ib, ia);
        return;
    }
    }
}

static int shfl(G *g, int r, int lanemask) {
    int cls = RCLS(r);
    if (cls == CR) {
        int d = nr(g, CR);
        E(g, "shfl.sync.bfly.b32 %s, %s, %d, 31, -1;", rn(g, d), rn(g, r), lanemask);
        return d;
    }
    if (cls == CD) {
        int lo = nr(g, CR), hi = nr(g, CR), d = nr(g, CD);
        E(g, "mov.b64 {%s, %s}, %s;", rn(g, lo), rn(g, hi), rn(g, r));
        E(g, "shfl.sync.bfly.b32 %s, %s, %d, 31, -1;", rn(g, lo), rn(g, lo), lanemask);
        E(g, "shfl.sync.bfly.b32 %s, %s, %d, 31, -1;", rn(g, hi), rn(g, hi), lanemask);
        E(g, "mov.b64 %s, {%s, %s};", rn(g, d), rn(g, lo), rn(g, hi));
        return d;
    }
    if (cls == CH) {
        int t = nr(g, CR), d = nr(g, CH);
        E(g, "cvt.u32.u16 %s, %s;", rn(g, t), rn(g, r));
        E(g, "shfl.sync.bfly.b32 %s, %s, %d, 31, -1;", rn(g, t), rn(g, t), lanemask);
        E(g, "cvt.u16.u32 %s, %s;", rn(g, d), rn(g, t));
        return d;
    }
    int t = pred_to_u32(g, r), d = nr(g, CP);
    E(g, "shfl.sync.bfly.b32 %s, %s, %d, 31, -1;", rn(g, t), rn(g, t), lanemask);
    E(g, "setp.ne.u32 %s, %s, 0;", rn(g, d), rn(g, t));
    return d;
}

void lower_reduce(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    int x = in->args[0], v = in->res[0], axis = in->attr.axis, kind = in->attr.kind;
    int dt = f->types[x].dt;
    bool arg = kind == RED_ARGMAX || kind == RED_ARGMIN;
    int Lin = g->vlay[x];
    Layout Li = g->lays[Lin].L, Lo;
    int8_t regmap[LMAXB];
    lay_slice(&Li, axis, &Lo, regmap);
    int Lout = lay_id(g, &Lo);
    int lo[TC_MAX_RANK];
    lay_lo(Li.rank, Li.shape, lo);
    int alo = lo[axis], abits = lg2i(Li.shape[axis]);
#define IN_AXIS(p) ((p) >= alo && (p) < alo + abits)
    int nin = 1 << Li.nreg, nout = 1 << Lo.nreg;
    int *X = g->vr[x];
    int *acc = alloc_regs(g, nout), *idx = alloc_regs(g, nout);
    for (int o = 0; o < nout; o++) acc[o] = -1;
    int tf = arg ? tflat(g, Lin) : 0;
    for (int r = 0; r < nin; r++) {
        int o = 0;
        for (int i = 0; i < Li.nreg; i++)
            if ((r >> i & 1) && regmap[i] >= 0) o |= 1 << regmap[i];
        int ir = 0;
        if (arg) {
            int t = nr(g, CR);
            ir = nr(g, CR);
            E(g, "add.u32 %s, %s, %lld;", rn(g, t), rn(g, tf), (long long)lay_reg_flat(&Li, r));
            E(g, "bfe.u32 %s, %s, %d, %d;", rn(g, ir), rn(g, t), alo, abits);
        }
        if (acc[o] < 0) { acc[o] = X[r]; idx[o] = ir; continue; }
        combine(g, kind, dt, acc[o], X[r], idx[o], ir, &acc[o], &idx[o]);
    }
    for (int j = 0; j < 5; j++) {
        if (!IN_AXIS(Li.lane[j]) || Li.lane[j] < 0) continue;
        for (int o = 0; o < nout; o++) {
            int b = shfl(g, acc[o], 1 << j);
            int ib = arg ? shfl(g, idx[o], 1 << j) : 0;
            combine(g, kind, dt, acc[o], b, idx[o], ib, &acc[o], &idx[o]);
        }
    }
    int wk[5], nwk = 0;
    for (int k = 0; k < Li.nwarp; k++)
        if (Li.warp[k] >= 0 && IN_AXIS(Li.warp[k])) wk[nwk++] = k;
#undef IN_AXIS
    if (nwk) {
        int nwa = 1 << nwk;
        int slot = dt == DT_I1 || dt_size(dt) <= 4 ? 4 : 8;
        int64_t outel = (int64_t)1 << Lo.nbits;
        int64_t vbytes = outel * nwa * slot;
        need_smem(g, vbytes + (arg ? outel * nwa * 4 : 0));
        int wai = nr(g, CR);
        E(g, "mov.u32 %s, 0;", rn(g, wai));
        for (int c = 0; c < nwk; c++) {
            int t = nr(g, CR);
            E(g, "bfe.u32 %s, %s, %d, 1;", rn(g, t), rn(g, g->tid), 5 + wk[c]);
            if (c) E(g, "shl.b32 %s, %s, %d;", rn(g, t), rn(g, t), c);
            E(g, "or.b32 %s, %s, %s;", rn(g, wai), rn(g, wai), rn(g, t));
        }
        int tfo = tflat(g, Lout);
        int row = nr(g, CR);
        E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, row), rn(g, tfo), nwa, rn(g, wai));
        int sdt = dt;
        E(g, "bar.sync 0;");
        int a = smem_addr(g, row, slot);
        int ai = arg ? nr(g, CR) : 0;
        if (arg) {
            E(g, "mad.lo.u32 %s, %s, 4, %s;", rn(g, ai), rn(g, row), rn(g, g->smem));
            E(g, "add.u32 %s, %s, %lld;", rn(g, ai), rn(g, ai), (long long)vbytes);
        }
        for (int o = 0; o < nout; o++) {
            int64_t off = lay_reg_flat(&Lo, o) * nwa;
            st_shared(g, sdt, a, off * slot, acc[o]);
            if (arg) E(g, "st.shared.b32 [%s+%lld], %s;", rn(g, ai), (long long)(off * 4), rn(g, idx[o]));
        }
        E(g, "bar.sync 0;");
        /* Second stage. When no lane bit below log2(nwa) selects the output element, the
         * lanes of each aligned group of nwa lanes share their output elements: lane l loads
         * partial (l mod nwa) and a butterfly over those lanes combines them (Triton's
         * scheme, without the write-back). Otherwise every thread combines all partials. */
        bool lanes_ok = true;
        for (int j = 0; j < nwk; j++) lanes_ok &= Lo.lane[j] < 0;
        if (lanes_ok) {
            int lw = nr(g, CR), rowl = nr(g, CR);
            E(g, "and.b32 %s, %s, %d;", rn(g, lw), rn(g, g->tid), nwa - 1);
            E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, rowl), rn(g, tfo), nwa, rn(g, lw));
            int b = smem_addr(g, rowl, slot);
            int bi = arg ? nr(g, CR) : 0;
            if (arg) {
                E(g, "mad.lo.u32 %s, %s, 4, %s;", rn(g, bi), rn(g, rowl), rn(g, g->smem));
                E(g, "add.u32 %s, %s, %lld;", rn(g, bi), rn(g, bi), (long long)vbytes);
            }
            for (int o = 0; o < nout; o++) {
                int64_t off = lay_reg_flat(&Lo, o) * nwa;
                acc[o] = ld_shared(g, sdt, b, off * slot);
                if (arg) {
                    idx[o] = nr(g, CR);
                    E(g, "ld.shared.b32 %s, [%s+%lld];", rn(g, idx[o]), rn(g, bi), (long long)(off * 4));
                }
            }
            for (int m = nwa / 2; m >= 1; m /= 2)
                for (int o = 0; o < nout; o++) {
                    int bb = shfl(g, acc[o], m);
                    int ib = arg ? shfl(g, idx[o], m) : 0;
                    combine(g, kind, dt, acc[o], bb, idx[o], ib, &acc[o], &idx[o]);
                }
            set_val(g, v, Lout, arg ? idx : acc);
            return;
        }
        int row0 = nr(g, CR);
        E(g, "mul.lo.u32 %s, %s, %d;", rn(g, row0), rn(g, tfo), nwa);
        int b = smem_addr(g, row0, slot);
        int bi = arg ? nr(g, CR) : 0;
        if (arg) {
            E(g, "mad.lo.u32 %s, %s, 4, %s;", rn(g, bi), rn(g, row0), rn(g, g->smem));
            E(g, "add.u32 %s, %s, %lld;", rn(g, bi), rn(g, bi), (long long)vbytes);
        }
        for (int o = 0; o < nout; o++) {
            int64_t off = lay_reg_flat(&Lo, o) * nwa;
            int cur = -1, ci = 0;
            for (int w = 0; w < nwa; w++) {
                int t = ld_shared(g, sdt, b, (off + w) * slot);
                int ti = 0;
                if (arg) {
                    ti = nr(g, CR);
                    E(g, "ld.shared.b32 %s, [%s+%lld];", rn(g, ti), rn(g, bi), (long long)((off + w) * 4));
                }
                if (cur < 0) { cur = t; ci = ti; }
                else combine(g, kind, dt, cur, t, ci, ti, &cur, &ci);
            }
            acc[o] = cur;
            idx[o] = ci;
        }
    }
    set_val(g, v, Lout, arg ? idx : acc);
}

