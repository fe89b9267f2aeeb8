/* convert.c — a value's registers in another layout (get): recomputed, or via shared memory. */
#include "gpu/lower.h"

#include <stdio.h>

/* v is integer arithmetic over constants, scalars and aranges (cheap to compute again) */
static bool remat_ok(G *g, int v, int depth) {
    Type t = g->f->types[v];
    if (t.rank == 0) return true;
    const Inst *d = g->def[v];
    if (!d || !(dt_is_int(t.dt) || t.dt == DT_PTR || t.dt == DT_I1)) return false;
    switch (d->op) {
    case OP_CONST: case OP_SPLAT: case OP_ARANGE: return true;
    case OP_EXPAND_DIMS: case OP_BROADCAST: case OP_RESHAPE: case OP_PERMUTE:
        /* shape ops relabel registers: `(i + offs)[:, None] * stride` in a loop is then
         * recomputed too */
        /* fall through */
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_REM: case OP_DIV: case OP_ADDPTR: case OP_CMP:
    case OP_AND: case OP_OR: case OP_XOR: case OP_CAST:
        if (depth >= 8) return false;
        for (int k = 0; k < d->nargs; k++) {
            int a = d->args[k];
            Type at = g->f->types[a];
            if (at.rank && !(dt_is_int(at.dt) || at.dt == DT_PTR || at.dt == DT_I1)) return false;
            if (at.rank && !remat_ok(g, a, depth + 1)) return false;
        }
        return true;
    default:
        return false;
    }
}

/* the registers of value v in layout lay */
/* Where element e of a row-major tile of rows 2^wb long sits in shared memory: rows padded
 * by pad bytes. Thread and register parts of e have disjoint bits, so each part's share adds. */
static int64_t conv_off(int64_t e, int esz, int wb, int pad) {
    return e * esz + (e >> wb) * pad;
}

static int conv_addr(G *g, int t, int esz, int wb, int pad) {
    int a = smem_addr(g, t, esz);
    if (!pad) return a;
    int row = nr(g, CR), p = nr(g, CR);
    E(g, "shr.u32 %s, %s, %d;", rn(g, row), rn(g, t), wb);
    E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, p), rn(g, row), pad, rn(g, a));
    return p;
}

/* v into layout lay through shared memory, row-major: runs of contiguous elements move as
 * vectors (up to 16 bytes, 8 for 16-bit types), and rows of 32 bytes or more are padded by
 * 16 so that the 8 rows a tensor-core fragment's lane groups hold fall in distinct banks
 * (without, a 512-byte row puts them all in one). */
static void convert_smem(G *g, int v, int lay, int *out) {
    Layout S = g->lays[g->vlay[v]].L, D = g->lays[lay].L;
    Type t = g->f->types[v];
    int dt = t.dt, esz = dt_size(dt), cls = dcls(dt);
    int wb = lg2i((int)t.shape[t.rank - 1]);
    int pad = !g->lean && t.rank >= 2 && ((int64_t)esz << wb) >= 32 ? 16 : 0;
    bool vec = !g->lean && esz == (cls == CH ? 2 : cls == CD ? 8 : cls == CR ? 4 : 0);
    int cap = esz == 2 ? 2 : lg2i(16 / esz);   /* log2 of the elements of one vector */
    int vs = vec ? (lay_vec_bits(&S) < cap ? lay_vec_bits(&S) : cap) : 0;
    int vd = vec ? (lay_vec_bits(&D) < cap ? lay_vec_bits(&D) : cap) : 0;
    int64_t nel = (int64_t)1 << S.nbits;
    need_smem(g, nel * esz + (pad ? (nel >> wb) * pad : 0));
    if (pad || vs || vd) g->used_roomy = true;
    int *in = g->vr[v];
    char list[256];
    E(g, "bar.sync 0;");
    int a = conv_addr(g, tflat(g, g->vlay[v]), esz, wb, pad);
    for (int r = 0; r < (1 << S.nreg); r += 1 << vs) {
        int64_t off = conv_off(lay_reg_flat(&S, r), esz, wb, pad);
        if (!vs) { st_shared(g, dt, a, off, in[r]); continue; }
        size_t o = 0;
        for (int j = 0; j < 1 << vs; j++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", j ? ", " : "", rn(g, in[r + j]));
        E(g, "st.shared.v%d.%s [%s+%lld], {%s};", 1 << vs, st_ty(dt), rn(g, a), (long long)off, list);
    }
    E(g, "bar.sync 0;");
    int b = conv_addr(g, tflat(g, lay), esz, wb, pad);
    for (int r = 0; r < (1 << D.nreg); r += 1 << vd) {
        int64_t off = conv_off(lay_reg_flat(&D, r), esz, wb, pad);
        if (!vd) { out[r] = ld_shared(g, dt, b, off); continue; }
        size_t o = 0;
        for (int j = 0; j < 1 << vd; j++) {
            out[r + j] = nr(g, cls);
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", j ? ", " : "", rn(g, out[r + j]));
        }
        E(g, "ld.shared.v%d.%s {%s}, [%s+%lld];", 1 << vd, st_ty(dt), list, rn(g, b), (long long)off);
    }
}

int *get(G *g, int v, int lay) {
    if (g->vlay[v] == lay || g->f->types[v].rank == 0) return g->vr[v];
    for (int i = g->nconv - 1; i >= 0; i--)
        if (g->conv[i].v == v && g->conv[i].lay == lay &&
            !(g->relow[v] && g->conv[i].depth < g->relow_depth))
            return g->conv[i].regs;
    int n = nlay(g, lay);
    int *out = alloc_regs(g, n);
    const Inst *d = g->def[v];
    int dt = g->f->types[v].dt;
    if (d && d->op == OP_CONST) {
        int r = konst(g, dt, d->attr.i, d->attr.f);
        for (int i = 0; i < n; i++) out[i] = r;
    } else if (d && d->op == OP_SPLAT) {
        for (int i = 0; i < n; i++) out[i] = g->vr[d->args[0]][0];
    } else if (d && d->op == OP_ARANGE) {
        emit_arange(g, d, lay, out);
    } else if (remat_ok(g, v, 0)) {
        /* recomputed in the wanted layout: a few integer ops beat a trip through shared
         * memory and two barriers (offsets used by both a load and an epilogue) */
        int sp = g->pref[v], sl = g->vlay[v];
        int *sr = g->vr[v];
        g->pref[v] = lay;
        if (d->op == OP_EXPAND_DIMS || d->op == OP_BROADCAST || d->op == OP_RESHAPE || d->op == OP_PERMUTE)
            lower_shape(g, d);
        else
            lower_elementwise(g, d);
        out = g->vr[v];
        g->pref[v] = sp;
        g->vlay[v] = sl;
        g->vr[v] = sr;
    } else {
        convert_smem(g, v, lay, out);
    }
    Conv c = {v, lay, g->depth, out};
    ARENA_PUSH(g->a, g->conv, g->nconv, g->capconv, c);
    return out;
}

void scope_enter(G *g) { g->depth++; }
void scope_leave(G *g) {
    g->depth--;
    while (g->nconv > 0 && g->conv[g->nconv - 1].depth > g->depth) g->nconv--;
}
