/* mma.c — tl.dot on tensor cores: mma.sync (sm_80 and newer), wgmma (sm_90a), and the loop
 * pipeliner that feeds them (num_stages: cp.async into a ring of shared-memory slots).
 *
 * The accumulator is a distributed layout like any other (gpuint.h): the m16n8 C fragment
 * of the PTX ISA (element (r, c) of a 16x8 tile in lane (r%8)*4 + (c%8)/2, register
 * (c%2) + 2*(r/8)), warps tiling M and N, and repetitions in registers. Operands go through
 * shared memory: each is stored in its own row-major order, swizzled so that ldmatrix reads
 * 16-byte rows without bank conflicts, then read as fragments (ldmatrix, or ld.shared where
 * ldmatrix cannot transpose the element size) and fed to mma.sync.
 *
 * Shared tiles: a [R, C] tile of esz-byte elements is split into column slabs of
 * min(C*esz, 128) bytes; row r of a slab starts at r*slab and its 16-byte chunk j is stored
 * at chunk j ^ ((r / (128/slab)) % (slab/16)). With 128-byte slabs this is the hardware's
 * 128-byte swizzle (codegen.md §3.5). The map from an element's flat index to its byte
 * offset is linear over GF(2), so a thread's part and a register's part combine by XOR, and
 * they overlap only in the chunk bits 4..6. */
#include "gpu/mma_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


Tile tile_of(int64_t numel, int cols, int esz, int off) {
    Tile t;
    t.cols = cols;
    t.rows = (int)(numel / cols);
    t.esz = esz;
    t.slab = cols * esz < 128 ? cols * esz : 128;
    t.off = off;
    return t;
}

int64_t tile_bytes(const Tile *t) { return (int64_t)t->rows * t->cols * t->esz; }

/* byte offset of flat element f (row-major over the tile) */
int64_t swz(const Tile *t, int64_t f) {
    int64_t r = f / t->cols, c = f % t->cols;
    int se = t->slab / t->esz;
    int64_t slab = c / se, cc = c % se;
    int per = 128 / t->slab < 1 ? 1 : 128 / t->slab, maxp = t->slab / 16 < 1 ? 1 : t->slab / 16;
    int64_t chunk = (cc * t->esz) >> 4, within = (cc * t->esz) & 15;
    int64_t phase = (r / per) % maxp;
    return slab * t->rows * t->slab + r * t->slab + ((chunk ^ phase) << 4) + within;
}

/* A register holding swz() of this thread's part: tbit[j] is the flat bit that bit j of
 * %tid.x selects (-1: none). Emitted in the prologue. */
int thread_off(G *g, const int8_t *tbit, int ntb, const Tile *t) {
    int r = nr(g, CR);
    EP(g, "mov.u32 %s, 0;", rn(g, r));
    for (int j = 0; j < ntb; j++) {
        if (tbit[j] < 0) continue;
        int64_t w = swz(t, (int64_t)1 << tbit[j]);
        if (!w) continue;
        int x = nr(g, CR);
        EP(g, "bfe.u32 %s, %s, %d, 1;", rn(g, x), rn(g, g->tid), j);
        EP(g, "mul.lo.u32 %s, %s, %lld;", rn(g, x), rn(g, x), (long long)w);
        EP(g, "xor.b32 %s, %s, %s;", rn(g, r), rn(g, r), rn(g, x));
    }
    return r;
}


void addr_init(Addr *a, int toff, const Tile *t, int base) {
    a->toff = toff;
    a->t = t;
    a->base = base;
    for (int i = 0; i < 8; i++) a->reg[i] = 0;
}

/* "%r5+1234" for constant byte offset c within the tile */
const char *addr_at(G *g, Addr *a, int64_t c, char *buf, size_t n) {
    int p = (int)((c >> 4) & 7);
    if (!a->reg[p]) {
        int r = nr(g, CR);
        EP(g, "xor.b32 %s, %s, %d;", rn(g, r), rn(g, a->toff), p << 4);
        if (a->base == g->smem) EP(g, "add.u32 %s, %s, %s;", rn(g, r), rn(g, r), rn(g, g->smem));
        a->reg[p] = r;
    }
    int r = a->reg[p];
    if (a->base != g->smem) {
        r = nr(g, CR);
        E(g, "add.u32 %s, %s, %s;", rn(g, r), rn(g, a->reg[p]), rn(g, a->base));
    }
    snprintf(buf, n, "%s+%lld", rn(g, r), (long long)((c & ~(int64_t)0x70) + a->t->off));
    return buf;
}

/* ---- choosing the path and the accumulator layout ------------------------------------ */

int mma_kind(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    if (!(g->ti->features & TF_MMA)) return -1;
    Type at = f->types[in->args[0]], bt = f->types[in->args[1]], rt = f->types[in->res[0]];
    if (rt.rank < 2 || rt.rank > 3) return -1;
    /* fp8 (e5m2, e4m3; either for either operand) where the target has it; fp8e4b15 is
     * not a hardware type (Triton widens it to fp16) */
    bool f8 = (at.dt == DT_FP8E5 || at.dt == DT_FP8E4NV) && (bt.dt == DT_FP8E5 || bt.dt == DT_FP8E4NV);
    if (at.dt != bt.dt && !f8) return -1;
    int M = rt.shape[rt.rank - 2], N = rt.shape[rt.rank - 1], K = at.shape[at.rank - 1];
    int kind, kstep;
    if (at.dt == DT_FP16 && (rt.dt == DT_FP32 || rt.dt == DT_FP16)) kind = MMA_F16, kstep = 16;
    else if (at.dt == DT_BF16 && rt.dt == DT_FP32) kind = MMA_BF16, kstep = 16;
    else if (at.dt == DT_FP32 && rt.dt == DT_FP32 && in->attr.kind != DOT_IEEE)
        kind = in->attr.kind == DOT_TF32X3 ? MMA_TF32X3 : in->attr.kind == DOT_BF16X3 ? MMA_BF16X3
               : in->attr.kind == DOT_BF16X6 ? MMA_BF16X6 : MMA_TF32,
        kstep = kind == MMA_BF16X3 || kind == MMA_BF16X6 ? 16 : 8;
    else if (at.dt == DT_I8 && rt.dt == DT_I32) kind = MMA_S8, kstep = 32;
    else if (f8 && rt.dt == DT_FP32 && (g->ti->features & TF_MMA_FP8)) kind = MMA_F8, kstep = 32;
    else return -1;
    /* M and N from 1: the instruction's 16 x 8 tile is padded, as Triton pads it */
    if (M < 1 || N < 1 || K < kstep) return -1;
    return kind;
}

static int kstep_of(int kind) {
    return kind == MMA_TF32 || kind == MMA_TF32X3 ? 8 : kind == MMA_S8 || kind == MMA_F8 ? 32 : 16;
}

/* warps over M and N: each to the dim whose per-warp extent is larger (square warp tiles
 * need the fewest fragment loads) */
static void warp_split(int M, int N, int nwbits, int *wmb, int *wnb) {
    int wm = 0, wn = 0;
    for (int i = 0; i < nwbits; i++) {
        bool mfree = (M >> (4 + wm)) > 1, nfree = (N >> (3 + wn)) > 1;
        if (mfree && (!nfree || (M >> wm) >= (N >> wn))) wm++;
        else if (nfree) wn++;
    }
    *wmb = wm;
    *wnb = wn;
}

static void acc_layout(G *g, const Type *rt, Layout *L) {
    int rank = rt->rank;
    int M = rt->shape[rank - 2], N = rt->shape[rank - 1];
    int nb = lg2i(N), mb = lg2i(M);
    int wm, wn;
    warp_split(M, N, g->nwbits, &wm, &wn);
    memset(L, 0, sizeof *L);
    L->rank = rank;
    for (int d = 0; d < rank; d++) {
        L->shape[d] = rt->shape[d];
        L->nbits += lg2i(rt->shape[d]);
    }
    L->nwarp = g->nwbits;
    for (int j = 0; j < 5; j++) L->lane[j] = L->warp[j] = -1;
    /* below the instruction's 16 x 8 the lanes past the shape hold copies and the registers
     * past it are dropped (frag_of) */
    if (nb >= 1) L->reg[L->nreg++] = 0;                 /* n0 */
    if (mb >= 4) L->reg[L->nreg++] = (int8_t)(nb + 3);  /* m3 */
    for (int j = 0; j < 2; j++) L->lane[j] = (int8_t)(nb > j + 1 ? j + 1 : -1);
    for (int j = 0; j < 3; j++) L->lane[2 + j] = (int8_t)(mb > j ? nb + j : -1);
    int k = 0;
    for (int i = 0; i < wn; i++) L->warp[k++] = (int8_t)(3 + i);
    for (int i = 0; i < wm; i++) L->warp[k++] = (int8_t)(nb + 4 + i);
    for (int p = 3 + wn; p < nb; p++) L->reg[L->nreg++] = (int8_t)p;           /* n tiles */
    for (int p = nb + 4 + wm; p < nb + mb; p++) L->reg[L->nreg++] = (int8_t)p; /* m tiles */
    for (int p = nb + mb; p < L->nbits; p++) L->reg[L->nreg++] = (int8_t)p;    /* batch */
}

static void wg_layout(G *g, const Type *rt, Layout *L);
static void lower_dot_wgmma(G *g, const Inst *in, int L, int kind, int instN);

int mma_lay(G *g, const Inst *dot) {
    int kind = mma_kind(g, dot);
    if (kind < 0) return -1;
    Layout L;
    if (wg_inst_n(g, dot, kind)) wg_layout(g, &g->f->types[dot->res[0]], &L);
    else acc_layout(g, &g->f->types[dot->res[0]], &L);
    int id = lay_id(g, &L);
    g->lays[id].mma = true;
    return id;
}

/* ---- seeding: accumulators stay in the mma layout through loops and epilogues --------- */


static bool elementwise(int op) {
    switch (op) {
    case OP_LOAD: case OP_STORE: case OP_ATOMIC: case OP_ATOMIC_CAS: case OP_DOT: case OP_REDUCE:
    case OP_SPLAT: case OP_BROADCAST: case OP_EXPAND_DIMS: case OP_RESHAPE: case OP_PERMUTE:
    case OP_IF: case OP_FOR: case OP_WHILE: case OP_YIELD: case OP_CONDITION: case OP_PRINT:
    case OP_ASSERT: case OP_RETURN: case OP_BARRIER: case OP_CONST: case OP_ARANGE:
    case OP_PROGRAM_ID: case OP_NUM_PROGRAMS:
        return false;
    default:
        return true;
    }
}

/* The layout a [K, N] tile contiguous along K is copied in, transposed: runs of 16 bytes
 * along K, the default layout of the [N, K] shape seen from [K, N]. */
int tr_layout(G *g, int v) {
    Type t = g->f->types[v];
    int32_t ts[2] = {t.shape[1], t.shape[0]};
    int8_t perm[2] = {1, 0};
    Layout Lt, Lx;
    lay_default(&Lt, 2, ts, g->nwbits, lg2i(16 / dt_size(t.dt)));
    lay_permute(&Lt, perm, false, &Lx);
    return lay_id(g, &Lx);
}

/* Whether dot's B is a wgmma operand loaded contiguous along K, which the pipeliner copies
 * into its transpose, K-major: fp8's (the tutorial gives B transposed; f8_b_kmajor checked
 * the load), or a 16-bit one in 16-byte runs along K (the flash-attention backward's qT, kT
 * and vT; its other uses are multi_use_ok's to judge). Loaded so, each thread reads 16 bytes
 * along K rather than one element of each of 8 rows. */
bool b_tr(G *g, const Inst *dot) {
    int b = dot->args[1], kind = mma_kind(g, dot);
    const Inst *ld = g->def[b];
    if (!ld || ld->op != OP_LOAD || ir_desc_rank(ld) || kind < 0 || !wg_inst_n(g, dot, kind)) return false;
    if (kind == MMA_F8) return g->uses[b] == 1;
    if ((kind != MMA_F16 && kind != MMA_BF16) || g->f->types[b].rank != 2) return false;
    const AxInfo *a = &g->ax[ld->args[0]];
    return a->contig[1] == 1 && a->contig[0] * dt_size(g->f->types[b].dt) >= 16;
}

/* The layout a wgmma operand's load (k: 0 A, 1 B) and its pointers get from the start, or
 * -1. B contiguous along K: runs of 16 bytes along K (tr_layout). fp8's A: 1-byte elements
 * in the default layout go one per thread and register, too narrow for cp.async; the tile
 * never lives in registers. */
static int seed_layout(G *g, const Inst *dot, int k) {
    if (k == 1) return b_tr(g, dot) ? tr_layout(g, dot->args[1]) : -1;
    int a = dot->args[0];
    const Inst *ld = g->def[a];
    if (mma_kind(g, dot) != MMA_F8 || !wg_inst_n(g, dot, MMA_F8)) return -1;
    if (!ld || ld->op != OP_LOAD || g->f->types[a].rank != 2 || g->uses[a] != 1) return -1;
    Type t = g->f->types[a];
    Layout L;
    lay_default(&L, 2, t.shape, g->nwbits, lg2i(16 / dt_size(t.dt)));
    return lay_id(g, &L);
}

/* Whether v is seeded: an accumulator's layout, or the slice of one that a reduction leaves
 * (every pref set before pref_region is a seed). */
static bool seeded(G *g, int v) {
    return v >= 0 && g->pref[v] >= 0;
}

static void seed_region(G *g, const Region *r) {
    const IrFunc *f = g->f;
    for (int i = 0; r && i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < 2; k++) seed_region(g, in->regions[k]);
        if (in->op == OP_DOT) {
            int L = mma_lay(g, in);
            if (L >= 0 && g->pref[in->res[0]] < 0) g->pref[in->res[0]] = L;
            /* wgmma's operands copied transposed or from 1-byte elements: their loads,
             * pointers and masks in the layout the pipeliner copies them in, not converted
             * to it each iteration */
            for (int k = 0; k < 2 && L >= 0; k++) {
                int sl = seed_layout(g, in, k);
                if (sl >= 0 && g->pref[in->args[k]] < 0) g->pref[in->args[k]] = sl;
            }
        } else if (in->op == OP_REDUCE) {
            /* flash attention's row statistics (tl.max, tl.sum of the scores, and m_i, l_i
             * carried through the loop) stay in the layout the reduction leaves them in,
             * rather than a round trip through shared memory each iteration */
            int x = in->args[0], v = in->res[0];
            if (in->nres == 1 && f->types[v].rank > 0 && seeded(g, x) && g->pref[v] < 0) {
                Layout Lo;
                int8_t map[LMAXB];
                lay_slice(&g->lays[g->pref[x]].L, in->attr.axis, &Lo, map);
                g->pref[v] = lay_id(g, &Lo);
            }
        } else if (in->op == OP_FOR) {
            const Region *b = in->regions[0];
            const Inst *y = b->ninsts ? b->insts[b->ninsts - 1] : NULL;
            /* those operands' pointers carried by the loop (`b_ptrs += ...`): the loop's
             * values in that layout too, so that no iteration converts them */
            for (int i2 = 0; i2 < b->ninsts; i2++) {
                const Inst *d = b->insts[i2];
                for (int k = 0; d->op == OP_DOT && k < 2; k++) {
                    int sl = seed_layout(g, d, k);
                    if (sl < 0) continue;
                    int ptr = g->def[d->args[k]]->args[0];
                    for (int j = 1; j < b->nparams; j++)
                        if (b->params[j] == ptr && j - 1 < in->nres && g->pref[in->res[j - 1]] < 0)
                            g->pref[in->res[j - 1]] = sl;
                }
            }
            for (int j = 0; y && y->op == OP_YIELD && j < in->nres && j < y->nargs; j++)
                if (seeded(g, y->args[j]) && g->pref[in->res[j]] < 0)
                    g->pref[in->res[j]] = g->pref[y->args[j]];
        } else if (in->nres == 1 && elementwise(in->op)) {
            int v = in->res[0];
            Type t = f->types[v];
            for (int k = 0; k < in->nargs && g->pref[v] < 0; k++) {
                int a = in->args[k];
                if (!seeded(g, a)) continue;
                Type at = f->types[a];
                bool same = at.rank == t.rank;
                for (int d = 0; same && d < t.rank; d++) same = at.shape[d] == t.shape[d];
                if (same) g->pref[v] = g->pref[a];
            }
        }
    }
}

void mma_seed(G *g) { seed_region(g, g->f->body); }

/* ---- acc += tl.dot(a, b) ------------------------------------------------------------------ */

bool is_zero_const(G *g, int v) {
    const Inst *d = v >= 0 ? g->def[v] : NULL;
    while (d && (d->op == OP_SPLAT || d->op == OP_BROADCAST)) d = g->def[d->args[0]];
    return d && d->op == OP_CONST && d->attr.i == 0 && d->attr.f == 0;
}


static int index_in(const Region *r, const Inst *in) {
    for (int i = 0; in && i < r->ninsts; i++)
        if (r->insts[i] == in) return i;
    return -1;
}

/* An add of a dot whose own accumulator is zero and whose result nothing else uses, to a value
 * x of the dot's type that exists where the dot runs: the dot accumulates into x, as Triton's
 * combine pass rewrites `x + dot(a, b, 0)` into `dot(a, b, x)`, rather than into registers of
 * its own added afterwards (twice the accumulator registers: tutorial 06's backward has three
 * such `+=`). The sum's rounding differs from the interpreter's, as it does in Triton. */
static void fold_region(G *g, const Region *r) {
    const IrFunc *f = g->f;
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) fold_region(g, in->regions[k]);
        if (in->op != OP_ADD || in->nargs != 2) continue;
        for (int k = 0; k < 2; k++) {
            int d = in->args[k], x = in->args[1 - k];
            const Inst *dot = g->def[d];
            int at = index_in(r, dot);
            if (at < 0 || dot->op != OP_DOT || g->uses[d] != 1 || !is_zero_const(g, dot->args[2])) continue;
            Type td = f->types[d], tx = f->types[x];
            bool same = td.dt == tx.dt && td.rank == tx.rank;
            for (int j = 0; same && j < td.rank; j++) same = td.shape[j] == tx.shape[j];
            int xi = index_in(r, g->def[x]);   /* else a parameter or from outside r */
            if (!same || (xi >= 0 && xi >= at)) continue;
            g->fold_acc[d] = x;
            g->fold_alias[in->res[0]] = d;
            break;
        }
    }
}

void mma_fold(G *g) {
    fold_region(g, g->f->body);
}

/* ---- staging an operand in shared memory ----------------------------------------------- */

/* Where flat bit b of a [.., K, N] value (N = 2^nb, K = 2^kb) is in its transpose
 * [.., N, K]; and a whole flat index so moved. nb = kb = 0: no transpose. */
int tr_bit(int b, int nb, int kb) { return b < 0 || b >= nb + kb ? b : b < nb ? b + kb : b - nb; }
int64_t tr_flat(int64_t f, int nb, int kb) {
    int64_t n = f & (((int64_t)1 << nb) - 1), k = (f >> nb) & (((int64_t)1 << kb) - 1);
    return (f >> (nb + kb) << (nb + kb)) | n << kb | k;
}

/* Stores a value, its registers regs in layout S, into tile t in its row-major order, t's
 * offset counted from the shared-memory address in register base; with nb, kb (see tr_bit)
 * the value's transpose, element by element (fp8 wgmma reads B only K-major). */
static void stage_regs(G *g, const Layout *Sp, const int *regs, const Tile *t, int base, int nb, int kb) {
    Layout S = *Sp;
    int8_t tb[10];
    for (int j = 0; j < 5; j++) tb[j] = (int8_t)tr_bit(S.lane[j], nb, kb);
    for (int k = 0; k < 5; k++) tb[5 + k] = (int8_t)(k < S.nwarp ? tr_bit(S.warp[k], nb, kb) : -1);
    Addr a;
    addr_init(&a, thread_off(g, tb, 5 + S.nwarp, t), t, base);
    int vb = lay_vec_bits(&S);
    int maxv = 16 / t->esz;
    int vec = 1 << vb < maxv ? 1 << vb : maxv;
    if (t->esz == 1 || nb + kb) vec = 1;
    int n = 1 << S.nreg;
    char ab[48];
    for (int r = 0; r < n; r += vec) {
        int64_t c = swz(t, tr_flat(lay_reg_flat(&S, r), nb, kb));
        const char *ad = addr_at(g, &a, c, ab, sizeof ab);
        if (vec == 1) {
            if (t->esz == 1) E(g, "st.shared.u8 [%s], %s;", ad, rn(g, regs[r]));
            else E(g, "st.shared.b%d [%s], %s;", t->esz * 8, ad, rn(g, regs[r]));
            continue;
        }
        int w[4], nw = 0;
        if (t->esz == 2) {
            for (int j = 0; j < vec; j += 2) {
                w[nw] = nr(g, CR);
                E(g, "mov.b32 %s, {%s, %s};", rn(g, w[nw]), rn(g, regs[r + j]), rn(g, regs[r + j + 1]));
                nw++;
            }
        } else {
            for (int j = 0; j < vec; j++) w[nw++] = regs[r + j];
        }
        if (nw == 1) E(g, "st.shared.b32 [%s], %s;", ad, rn(g, w[0]));
        else if (nw == 2) E(g, "st.shared.v2.b32 [%s], {%s, %s};", ad, rn(g, w[0]), rn(g, w[1]));
        else E(g, "st.shared.v4.b32 [%s], {%s, %s, %s, %s};", ad, rn(g, w[0]), rn(g, w[1]), rn(g, w[2]),
               rn(g, w[3]));
    }
}

/* value v, in whatever layout it has */
static void stage_tr(G *g, int v, const Tile *t, int base, int nb, int kb) {
    stage_regs(g, &g->lays[g->vlay[v]].L, g->vr[v], t, base, nb, kb);
}

void stage_at(G *g, int v, const Tile *t, int base) { stage_tr(g, v, t, base, 0, 0); }
void stage_lay(G *g, const Layout *S, const int *regs, const Tile *t, int base) {
    stage_regs(g, S, regs, t, base, 0, 0);
}
static void stage(G *g, int v, const Tile *t) { stage_at(g, v, t, g->smem); }

/* ---- the dot ---------------------------------------------------------------------------- */

/* The tiles of a dot's operands (A [.., M, K], B [.., K, N], each in its row-major order) and
 * the registers of their bases: where the pipeliner put them, else staged into the scratch
 * area now. async: wgmma reads them through the async proxy (a fence after st.shared).
 * b_kmaj: B wanted K-major ([N][K]), staged transposed when the pipeliner did not so place it. */
static void operands(G *g, const Inst *in, bool async, bool a_regs, bool b_kmaj, Tile *ta, Tile *tb,
                     int *basea, int *baseb) {
    const IrFunc *f = g->f;
    Type at = f->types[in->args[0]], rt = f->types[in->res[0]];
    int M = rt.shape[rt.rank - 2], N = rt.shape[rt.rank - 1], K = at.shape[at.rank - 1];
    int esz = dt_size(at.dt);
    int64_t bat = type_numel(rt) / ((int64_t)M * N);
    *ta = tile_of(bat * M * K, K, esz, 0);
    int boff = (int)((tile_bytes(ta) + 1023) & ~1023);
    *tb = tile_of(bat * K * N, N, dt_size(f->types[in->args[1]].dt), boff);
    int va = in->args[0], vb = in->args[1];
    bool pa = a_regs || g->smop_base[va] != 0, pb = g->smop_base[vb] != 0;
    *basea = pa && !a_regs ? g->smop_base[va] : g->smem;
    *baseb = pb ? g->smop_base[vb] : g->smem;
    if (pa && !a_regs) ta->off = g->smop_off[va];
    if (pb && g->smop_kmaj[vb]) *tb = tile_of(bat * K * N, K, dt_size(f->types[vb].dt), 0);  /* [N][K] */
    if (pb) tb->off = g->smop_off[vb];
    if (pa && pb) return;
    if (!pb && b_kmaj) *tb = tile_of(bat * K * N, K, dt_size(f->types[vb].dt), boff);
    need_smem(g, boff + tile_bytes(tb));
    E(g, "bar.sync 0;");
    if (!pa) stage(g, va, ta);
    if (!pb && b_kmaj) stage_tr(g, vb, tb, g->smem, lg2i(N), lg2i(K));
    else if (!pb) stage(g, vb, tb);
    if (async) E(g, "fence.proxy.async.shared::cta;");
    E(g, "bar.sync 0;");
}

/* The acc layout's register of fragment element j (0..3: row g + 8*(j>>1), column
 * 2t + (j&1)) of (batch, m tile, n tile), or -1 where the tile pads the shape (M < 16: no
 * rows g + 8; N = 1: no odd columns). Low register bits are n0 and m3 where the shape has
 * them, then n tiles, m tiles, batch. */
typedef struct Frag { int nt, mt, bt; int ntb, mtb; int n0, m3; } Frag;

static Frag frag_of(const Layout *L, int M, int N) {
    Frag fr;
    int nb = lg2i(N), mb = lg2i(M);
    fr.n0 = N >= 2;
    fr.m3 = M >= 16;
    fr.ntb = 0;
    fr.mtb = 0;
    for (int i = fr.n0 + fr.m3; i < L->nreg; i++) {
        if (L->reg[i] < nb) fr.ntb++;
        else if (L->reg[i] < nb + mb) fr.mtb++;
    }
    fr.nt = 1 << fr.ntb;
    fr.mt = 1 << fr.mtb;
    fr.bt = 1 << (L->nreg - fr.n0 - fr.m3 - fr.ntb - fr.mtb);
    return fr;
}

static int acc_reg(const Frag *fr, int b, int mi, int ni, int j) {
    int jn = j & 1, jm = j >> 1;
    if ((jn && !fr->n0) || (jm && !fr->m3)) return -1;
    return (ni | mi << fr->ntb | b << (fr->ntb + fr->mtb)) << (fr->n0 + fr->m3) | jn | jm << fr->n0;
}

/* How B fragments are read: ldmatrix.trans (16-bit, N >= 8), or ld.shared of 16-bit pairs,
 * 32-bit elements (the tf32 layout) or bytes */
enum { BL_LDM, BL_B16, BL_B32, BL_B8 };

/* one mma.sync dot: shapes, the accumulator layout and the operand tiles' addresses */
typedef struct MmaDot {
    int kind, M, N, K, nb, mb, bload;
    Layout R;
    Frag fr;
    Tile ta, tb;
    Addr aa, ab;
} MmaDot;

/* the A fragment (4 registers, ldmatrix) of m tile mi at k0, batch b */
static void load_a(G *g, MmaDot *d, int b, int mi, int k0, int *q) {
    int64_t fa = lay_reg_flat(&d->R, acc_reg(&d->fr, b, mi, 0, 0));
    int64_t m = (fa >> d->nb) & (d->M - 1), bb = fa >> (d->nb + d->mb);
    int64_t flat = (bb * d->M + m) * d->K + k0;
    char b1[48];
    for (int j = 0; j < 4; j++) q[j] = nr(g, CR);
    E(g, "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%s, %s, %s, %s}, [%s];", rn(g, q[0]), rn(g, q[1]),
      rn(g, q[2]), rn(g, q[3]), addr_at(g, &d->aa, swz(&d->ta, flat), b1, sizeof b1));
}

/* the B fragments (2 registers each) of every n tile at k0, batch b */
static void load_b(G *g, MmaDot *d, int b, int k0, int (*bf)[2]) {
    int N = d->N;
    char b1[48];
    for (int ni = 0; ni < d->fr.nt; ni++) {
        int64_t fb = lay_reg_flat(&d->R, acc_reg(&d->fr, b, 0, ni, 0));
        int64_t nn = fb & (N - 1), bb = fb >> (d->nb + d->mb);
        int64_t flat = (bb * d->K + k0) * N + nn;
        if (d->bload == BL_LDM) {
            if (d->fr.nt >= 2 && (ni & 1)) continue;   /* loaded with its pair */
            int q[4];
            for (int j = 0; j < 4; j++) q[j] = nr(g, CR);
            const char *ad = addr_at(g, &d->ab, swz(&d->tb, flat), b1, sizeof b1);
            if (d->fr.nt >= 2) {
                E(g, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%s, %s, %s, %s}, [%s];", rn(g, q[0]),
                  rn(g, q[1]), rn(g, q[2]), rn(g, q[3]), ad);
                bf[ni][0] = q[0]; bf[ni][1] = q[1];
                bf[ni + 1][0] = q[2]; bf[ni + 1][1] = q[3];
            } else {
                E(g, "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%s, %s}, [%s];", rn(g, q[0]), rn(g, q[1]),
                  ad);
                bf[ni][0] = q[0]; bf[ni][1] = q[1];
            }
            continue;
        }
        for (int h = 0; h < 2; h++) {
            if (d->bload == BL_B32) {   /* b0: k = t, b1: k = t + 4 */
                int r = nr(g, CR);
                E(g, "ld.shared.b32 %s, [%s];", rn(g, r),
                  addr_at(g, &d->ab, swz(&d->tb, flat + (int64_t)4 * h * N), b1, sizeof b1));
                bf[ni][h] = r;
            } else if (d->bload == BL_B16) {   /* register h: k = 2t + 8h, +1 */
                int x[2], w = nr(g, CR);
                for (int e = 0; e < 2; e++) {
                    x[e] = nr(g, CH);
                    E(g, "ld.shared.b16 %s, [%s];", rn(g, x[e]),
                      addr_at(g, &d->ab, swz(&d->tb, flat + (int64_t)(8 * h + e) * N), b1, sizeof b1));
                }
                E(g, "mov.b32 %s, {%s, %s};", rn(g, w), rn(g, x[0]), rn(g, x[1]));
                bf[ni][h] = w;
            } else {   /* s8, fp8: register h holds k = 16h + 4t .. +3 */
                int by[4];
                for (int e = 0; e < 4; e++) {
                    by[e] = nr(g, CR);
                    E(g, "ld.shared.u8 %s, [%s];", rn(g, by[e]),
                      addr_at(g, &d->ab, swz(&d->tb, flat + (int64_t)(16 * h + e) * N), b1, sizeof b1));
                }
                int lo = nr(g, CR), hi = nr(g, CR), w = nr(g, CR);
                E(g, "prmt.b32 %s, %s, %s, 0x3340;", rn(g, lo), rn(g, by[0]), rn(g, by[1]));
                E(g, "prmt.b32 %s, %s, %s, 0x3340;", rn(g, hi), rn(g, by[2]), rn(g, by[3]));
                E(g, "prmt.b32 %s, %s, %s, 0x5410;", rn(g, w), rn(g, lo), rn(g, hi));
                bf[ni][h] = w;
            }
        }
    }
}

/* ---- fp32 dots: tf32, and tf32x3 / bf16x3 / bf16x6 as Triton's F32DotTC splits them ------
 *
 * Each operand element x is split into parts: tf32x3 big = tf32(x), small = tf32(x - big);
 * bf16x3 and bf16x6 hi = bf16(x), mid = bf16(x - hi), lo = bf16(x - hi - mid). The products
 * of small parts are summed from zero over the whole K, NaNs (inf - inf of a split infinity)
 * zeroed, then the big x big product accumulates on top, then + acc: the interpreter's order.
 * bf16 products run on m16n8k16 with the fragments of two tf32 k8 steps (k0 and k0 + 8)
 * packed pairwise into bf16x2 registers: lane t's halves then hold k = t and t + 8 (and
 * t + 4, t + 12) where the bf16 layout has 2t and 2t + 1 (2t + 8, 2t + 9), the same
 * permutation of k for A and B, so each sum is the dot's. */

static const int8_t split_prods[3][5][2] = {
    {{1, 0}, {0, 1}},                           /* tf32x3: small x big, big x small */
    {{1, 0}, {0, 1}},                           /* bf16x3: mid x hi, hi x mid */
    {{1, 1}, {2, 0}, {0, 2}, {1, 0}, {0, 1}},   /* bf16x6: then lo x hi, hi x lo, ... */
};

/* the first np tf32 parts of fp32 registers x[0..n) into p[part][i] */
static void tf32_parts(G *g, const int *x, int n, int np, int (*p)[4]) {
    for (int i = 0; i < n; i++) {
        p[0][i] = nr(g, CR);
        E(g, "cvt.rna.tf32.f32 %s, %s;", rn(g, p[0][i]), rn(g, x[i]));
        if (np < 2) continue;
        int r = nr(g, CR);
        p[1][i] = nr(g, CR);
        E(g, "sub.f32 %s, %s, %s;", rn(g, r), rn(g, x[i]), rn(g, p[0][i]));
        E(g, "cvt.rna.tf32.f32 %s, %s;", rn(g, p[1][i]), rn(g, r));
    }
}

/* the first np bf16x2 parts of fp32 pairs (x0[i]: low half, x1[i]: high half) */
static void bf16_parts(G *g, const int *x0, const int *x1, int n, int np, int (*p)[4]) {
    for (int i = 0; i < n; i++) {
        int r0 = x0[i], r1 = x1[i];
        for (int k = 0; k < np; k++) {
            int w = nr(g, CR);
            E(g, "cvt.rn.bf16x2.f32 %s, %s, %s;", rn(g, w), rn(g, r1), rn(g, r0));
            p[k][i] = w;
            if (k + 1 == np) break;
            int h0 = nr(g, CR), h1 = nr(g, CR), s0 = nr(g, CR), s1 = nr(g, CR);
            E(g, "shl.b32 %s, %s, 16;", rn(g, h0), rn(g, w));
            E(g, "and.b32 %s, %s, -65536;", rn(g, h1), rn(g, w));
            E(g, "sub.f32 %s, %s, %s;", rn(g, s0), rn(g, r0), rn(g, h0));
            E(g, "sub.f32 %s, %s, %s;", rn(g, s1), rn(g, r1), rn(g, h1));
            r0 = s0;
            r1 = s1;
        }
    }
}

void lower_dot_mma(G *g, const Inst *in, int L) {
    const IrFunc *f = g->f;
    int kind = mma_kind(g, in);
    int instN = wg_inst_n(g, in, kind);
    if (instN) {
        lower_dot_wgmma(g, in, L, kind, instN);
        return;
    }
    need(g, TF_MMA);
    int v = in->res[0];
    Type at = f->types[in->args[0]], rt = f->types[v];
    MmaDot d;
    d.kind = kind;
    d.M = rt.shape[rt.rank - 2];
    d.N = rt.shape[rt.rank - 1];
    d.K = at.shape[at.rank - 1];
    d.nb = lg2i(d.N);
    d.mb = lg2i(d.M);
    int nb = d.nb, mb = d.mb, K = d.K;
    int adt = at.dt, rdt = rt.dt;
    int esz = dt_size(adt);
    int ks = kstep_of(kind);
    bool f32 = kind == MMA_TF32 || kind >= MMA_TF32X3;    /* fp32 operands in the tf32 layout */
    bool bsplit = kind == MMA_BF16X3 || kind == MMA_BF16X6;
    int sp = kind == MMA_TF32X3 ? 0 : kind == MMA_BF16X3 ? 1 : kind == MMA_BF16X6 ? 2 : -1;
    int nparts = kind == MMA_BF16X6 ? 3 : sp >= 0 ? 2 : 1, nsmall = kind == MMA_BF16X6 ? 5 : sp >= 0 ? 2 : 0;
    d.R = g->lays[L].L;
    d.fr = frag_of(&d.R, d.M, d.N);
    Frag fr = d.fr;
    int basea, baseb;
    operands(g, in, false, false, false, &d.ta, &d.tb, &basea, &baseb);
    /* fragment addresses: A rows m (lanes 0-3 -> m0..m3, lane 4 -> the second 16-byte
     * column chunk), warps as in the accumulator; rows and columns past M and N wrap */
    int8_t tba[10], tbb[10];
    int lk = lg2i(K), ln = nb;
    int chunk_bit = lg2i(16 / esz);
    for (int j = 0; j < 4; j++) tba[j] = (int8_t)(j < mb ? lk + j : -1);
    tba[4] = (int8_t)chunk_bit;
    for (int k = 0; k < 5; k++) {
        int p = k < d.R.nwarp ? d.R.warp[k] : -1;
        tba[5 + k] = (int8_t)(p >= nb && p < nb + mb ? lk + (p - nb) : -1);
        tbb[5 + k] = (int8_t)(p >= 0 && p < nb ? p : -1);
    }
    d.bload = f32 ? BL_B32 : kind == MMA_S8 || kind == MMA_F8 ? BL_B8 : d.N >= 8 ? BL_LDM : BL_B16;
    /* the first n-tile register bit: its flat bit is where the second n tile starts */
    int ntile_bit = fr.ntb ? d.R.reg[fr.n0 + fr.m3] : -1;
    if (d.bload == BL_LDM) {
        for (int j = 0; j < 4; j++) tbb[j] = (int8_t)(ln + j);   /* k0..k3 */
        tbb[4] = (int8_t)(fr.nt >= 2 ? ntile_bit : -1);
    } else {
        /* element reads: lanes 0,1 (t) -> k = t (tf32), 2t (16-bit) or 4t (8-bit), lanes 2-4
         * (g) -> n0..n2 */
        int kt = d.bload == BL_B8 ? 2 : d.bload == BL_B16 ? 1 : 0;
        tbb[0] = (int8_t)(ln + kt);
        tbb[1] = (int8_t)(ln + kt + 1);
        for (int j = 0; j < 3; j++) tbb[2 + j] = (int8_t)(j < nb ? j : -1);
    }
    addr_init(&d.aa, thread_off(g, tba, 5 + d.R.nwarp, &d.ta), &d.ta, basea);
    addr_init(&d.ab, thread_off(g, tbb, 5 + d.R.nwarp, &d.tb), &d.tb, baseb);
    int *C = get(g, in->args[2], L);
    int n = nlay(g, L);
    int *acc = alloc_regs(g, n);
    /* accumulate in f32 (s32 for int8): an fp16 accumulator is widened first; the split
     * precisions start from zero and add the accumulator last */
    int zero = nr(g, CR);
    E(g, "mov.b32 %s, 0;", rn(g, zero));
    for (int r = 0; r < n; r++)
        acc[r] = sp >= 0 ? zero : rdt == DT_FP16 ? cast1(g, C[r], DT_FP16, DT_FP32, false) : C[r];
    char f8ins[64];
    int bdt = f->types[in->args[1]].dt;
    snprintf(f8ins, sizeof f8ins, "m16n8k32.row.col.f32.%s.%s.f32", adt == DT_FP8E5 ? "e5m2" : "e4m3",
             bdt == DT_FP8E5 ? "e5m2" : "e4m3");
    if (kind == MMA_F8) need(g, TF_MMA_FP8);
    const char *ins = kind == MMA_F16 ? "m16n8k16.row.col.f32.f16.f16.f32"
                      : kind == MMA_BF16 || bsplit ? "m16n8k16.row.col.f32.bf16.bf16.f32"
                      : kind == MMA_TF32 || kind == MMA_TF32X3 ? "m16n8k8.row.col.f32.tf32.tf32.f32"
                      : kind == MMA_F8 ? f8ins
                                         : "m16n8k32.row.col.s32.s8.s8.s32";
    static const int8_t big[1][2] = {{0, 0}};
    for (int pass = nsmall ? 0 : 1; pass < 2; pass++) {
        int np = pass ? 1 : nparts, nprod = pass ? 1 : nsmall;
        const int8_t (*prods)[2] = pass ? big : split_prods[sp];
        for (int b = 0; b < fr.bt; b++)
            for (int k0 = 0; k0 < K; k0 += ks) {
                /* the operands' fragments, raw, and as the parts the products multiply */
                int (*af)[3][4] = arena_alloc(g->a, sizeof(int[3][4]) * (size_t)fr.mt);
                int (*bf)[3][4] = arena_alloc(g->a, sizeof(int[3][4]) * (size_t)fr.nt);
                int (*raw)[2] = arena_alloc(g->a, sizeof(int[2]) * (size_t)fr.nt * 2);
                for (int mi = 0; mi < fr.mt; mi++) {
                    int x0[4], x1[4];
                    load_a(g, &d, b, mi, k0, x0);
                    if (bsplit) {
                        load_a(g, &d, b, mi, k0 + 8, x1);
                        bf16_parts(g, x0, x1, 4, np, af[mi]);
                    } else if (f32) {
                        tf32_parts(g, x0, 4, np, af[mi]);
                    } else {
                        memcpy(af[mi][0], x0, sizeof x0);
                    }
                }
                load_b(g, &d, b, k0, raw);
                if (bsplit) load_b(g, &d, b, k0 + 8, raw + fr.nt);
                for (int ni = 0; ni < fr.nt; ni++) {
                    if (bsplit) bf16_parts(g, raw[ni], raw[fr.nt + ni], 2, np, bf[ni]);
                    else if (f32) tf32_parts(g, raw[ni], 2, np, bf[ni]);
                    else memcpy(bf[ni][0], raw[ni], sizeof raw[ni]);
                }
                for (int p = 0; p < nprod; p++)
                    for (int mi = 0; mi < fr.mt; mi++)
                        for (int ni = 0; ni < fr.nt; ni++) {
                            const int *fa = af[mi][prods[p][0]], *fb = bf[ni][prods[p][1]];
                            int c[4], o[4];
                            for (int j = 0; j < 4; j++) {
                                int r = acc_reg(&fr, b, mi, ni, j);
                                c[j] = r >= 0 ? acc[r] : zero;   /* padding: computed, unused */
                                o[j] = nr(g, CR);
                            }
                            E(g, "mma.sync.aligned.%s {%s, %s, %s, %s}, {%s, %s, %s, %s}, {%s, %s}, "
                                 "{%s, %s, %s, %s};",
                              ins, rn(g, o[0]), rn(g, o[1]), rn(g, o[2]), rn(g, o[3]), rn(g, fa[0]),
                              rn(g, fa[1]), rn(g, fa[2]), rn(g, fa[3]), rn(g, fb[0]), rn(g, fb[1]), rn(g, c[0]),
                              rn(g, c[1]), rn(g, c[2]), rn(g, c[3]));
                            for (int j = 0; j < 4; j++) {
                                int r = acc_reg(&fr, b, mi, ni, j);
                                if (r >= 0) acc[r] = o[j];
                            }
                        }
            }
        if (pass == 0)   /* the small products' NaNs zeroed before the big one */
            for (int r = 0; r < n; r++) {
                int q = nr(g, CP), z = nr(g, CR);
                E(g, "setp.nan.f32 %s, %s, %s;", rn(g, q), rn(g, acc[r]), rn(g, acc[r]));
                E(g, "selp.b32 %s, 0, %s, %s;", rn(g, z), rn(g, acc[r]), rn(g, q));
                acc[r] = z;
            }
    }
    if (sp >= 0)
        for (int r = 0; r < n; r++) {
            int s = nr(g, CR);
            E(g, "add.f32 %s, %s, %s;", rn(g, s), rn(g, acc[r]), rn(g, C[r]));
            acc[r] = s;
        }
    int *out = acc;
    if (rdt == DT_FP16) {
        out = alloc_regs(g, n);
        for (int r = 0; r < n; r++) out[r] = cast1(g, acc[r], DT_FP32, DT_FP16, false);
    }
    set_val(g, v, L, out);
}


/* ---- wgmma (sm_90a): warpgroup MMA from shared-memory descriptors ----------------------
 *
 * Warpgroup w (warps 4w..4w+3) owns 64 rows of the tile per m64nNk16 instruction; N up to
 * 256 per instruction. The accumulator fragment of m64nN is the m16n8 one repeated along N
 * (register i: row 16*warp + g + 8*((i>>1)&1), column 8*(i>>2) + 2t + (i&1)), so the layout
 * is acc_layout's with the n tiles before the warps. Both operands are read from shared
 * memory through 64-bit matrix descriptors (codegen.md §3.6): A K-major, B N-major (trans-b),
 * each in the tile layout above, whose column slabs are the hardware's 32/64/128-byte
 * swizzle atoms when the tile sits on a 1024-byte boundary. DISABLE_MMA_V3=1 (Triton's
 * switch; part of the cache key) keeps mma.sync. */

/* Whether an fp8 dot's B can reach wgmma K-major without a trip through registers: a tile
 * loaded contiguous along K, or a loaded tile's transpose (attention's k.T). Others stay on
 * mma.sync (B through registers either way, and there with fewer of them held). */
static bool f8_b_kmajor(G *g, const Inst *dot) {
    const Inst *d = g->def[dot->args[1]];
    if (d && d->op == OP_PERMUTE && d->attr.perm[0] == 1 && g->f->types[dot->args[1]].rank == 2)
        return g->def[d->args[0]] && g->def[d->args[0]]->op == OP_LOAD;
    if (!d || d->op != OP_LOAD || g->f->types[dot->args[1]].rank != 2) return false;
    const AxInfo *a = &g->ax[d->args[0]];
    return a->contig[1] == 1 && a->contig[0] * dt_size(g->f->types[dot->args[1]].dt) >= 4;
}

int wg_inst_n(G *g, const Inst *in, int kind) {
    if (!g->arch_a || !(g->ti->features_a & TF_WGMMA) || g->no_mma_v3) return 0;
    /* fp8: k32 steps, both operands K-major (B staged transposed where it is not loaded so) */
    bool f8 = kind == MMA_F8 && f8_b_kmajor(g, in);
    if ((kind != MMA_F16 && kind != MMA_BF16 && !f8) || g->nw % 4) return 0;
    Type rt = g->f->types[in->res[0]];
    if (rt.rank != 2) return 0;
    int M = rt.shape[0], N = rt.shape[1];
    int nwg = g->nw / 4;
    if (M < 64 * nwg || N < 16) return 0;
    return N < 256 ? N : 256;
}

static void wg_layout(G *g, const Type *rt, Layout *L) {
    int M = rt->shape[0], N = rt->shape[1];
    int nb = lg2i(N), mb = lg2i(M), wgb = g->nwbits - 2;
    memset(L, 0, sizeof *L);
    L->rank = 2;
    L->shape[0] = M;
    L->shape[1] = N;
    L->nbits = nb + mb;
    L->nwarp = g->nwbits;
    for (int j = 0; j < 5; j++) L->lane[j] = L->warp[j] = -1;
    L->reg[L->nreg++] = 0;
    L->reg[L->nreg++] = (int8_t)(nb + 3);
    L->lane[0] = 1; L->lane[1] = 2;
    L->lane[2] = (int8_t)nb; L->lane[3] = (int8_t)(nb + 1); L->lane[4] = (int8_t)(nb + 2);
    for (int p = 3; p < nb; p++) L->reg[L->nreg++] = (int8_t)p;                 /* n tiles */
    L->warp[0] = (int8_t)(nb + 4);
    L->warp[1] = (int8_t)(nb + 5);
    for (int i = 0; i < wgb; i++) L->warp[2 + i] = (int8_t)(nb + 6 + i);        /* warpgroups */
    for (int p = nb + 6 + wgb; p < nb + mb; p++) L->reg[L->nreg++] = (int8_t)p; /* m reps */
}

/* the warpgroup's index, read from lane 0 so that ptxas knows it is the same in the whole
 * warp: the descriptors built from it then live in uniform registers, as Triton's do,
 * rather than being moved there (R2UR) before every wgmma */
static int warpgroup(G *g) {
    if (g->wgid) return g->wgid;
    int w = nr(g, CR);
    g->wgid = nr(g, CR);
    EP(g, "shr.u32 %s, %s, 5;", rn(g, w), rn(g, g->tid));
    EP(g, "shfl.sync.idx.b32 %s, %s, 0, 31, -1;", rn(g, w), rn(g, w));
    EP(g, "shr.u32 %s, %s, 2;", rn(g, g->wgid), rn(g, w));
    return g->wgid;
}

/* the 64-bit descriptor fields other than the address, for a tile read by wgmma */
static uint64_t desc_hi(const Tile *t, bool kmajor) {
    int sw = t->slab == 128 ? 1 : t->slab == 64 ? 2 : 3;
    uint64_t sbo = (uint64_t)(8 * t->slab) >> 4;
    uint64_t lbo = kmajor ? 0 : ((uint64_t)t->rows * t->slab) >> 4;
    return (lbo & 0x3FFF) << 16 | (sbo & 0x3FFF) << 32 | (uint64_t)sw << 62;
}

/* a descriptor register for byte address base (its low 18 bits) */
static int desc_reg(G *g, int base, uint64_t hi) {
    int d = nr(g, CD);
    E(g, "cvt.u64.u32 %s, %s;", rn(g, d), rn(g, base));
    E(g, "shr.u64 %s, %s, 4;", rn(g, d), rn(g, d));
    E(g, "and.b64 %s, %s, 16383;", rn(g, d), rn(g, d));
    E(g, "or.b64 %s, %s, %llu;", rn(g, d), rn(g, d), (unsigned long long)hi);
    return d;
}

/* the descriptor of d's address plus off bytes: the address field is in 16-byte units
 * and never carries (shared memory is below 256 KiB) */
static int desc_at(G *g, int d, int64_t off) {
    if (!off) return d;
    int r = nr(g, CD);
    E(g, "add.s64 %s, %s, %lld;", rn(g, r), rn(g, d), (long long)(off >> 4));
    return r;
}

/* A operand registers for wgmma's register form (A from registers, B from shared memory),
 * or NULL: when A is held in the layout of a wgmma accumulator of A's own shape [M, K] (the
 * previous dot's result, scaled and cast elementwise, as flash attention's P), each thread
 * already has the k16 fragments wgmma wants: per k step and 64-row block, registers
 * (h, q0, q1) = (k0, m3, k3) of that layout, packed two to a register. No trip through
 * shared memory. */
static int *wg_a_regs(G *g, const Inst *in) {
    int va = in->args[0];
    Type at = g->f->types[va];
    if (g->smop_base[va] || dt_size(at.dt) != 2 || at.rank != 2 || g->vlay[va] < 0)
        return NULL;
    Layout want;
    wg_layout(g, &at, &want);
    if (!lay_eq(&g->lays[g->vlay[va]].L, &want)) return NULL;
    int M = at.shape[0], K = at.shape[1], kb = lg2i(K);
    int mreps = M / (64 * (g->nw / 4));
    int *r = get(g, va, g->vlay[va]);
    int *a = arena_alloc(g->a, sizeof(int) * (size_t)(K / 16) * (size_t)mreps * 4);
    for (int s = 0; s < K / 16; s++)
        for (int mi = 0; mi < mreps; mi++)
            for (int q = 0; q < 4; q++) {
                int idx = (q & 1) << 1 | (q >> 1) << 2 | s << 3 | mi << (kb - 1);
                int w = nr(g, CR);
                E(g, "mov.b32 %s, {%s, %s};", rn(g, w), rn(g, r[idx]), rn(g, r[idx | 1]));
                a[(s * mreps + mi) * 4 + q] = w;
            }
    return a;
}

static bool region_param(const Region *r, int v) {
    for (int i = 0; r && i < r->nparams; i++)
        if (r->params[i] == v) return true;
    return false;
}

static void lower_dot_wgmma(G *g, const Inst *in, int L, int kind, int instN) {
    const IrFunc *f = g->f;
    need(g, TF_WGMMA);
    int v = in->res[0];
    Type at = f->types[in->args[0]], rt = f->types[v];
    int M = rt.shape[0], N = rt.shape[1], K = at.shape[1];
    int rdt = rt.dt, esz = dt_size(at.dt);
    Tile ta, tb;
    int basea, baseb;
    int *areg = wg_a_regs(g, in);
    operands(g, in, true, areg != NULL, kind == MMA_F8, &ta, &tb, &basea, &baseb);
    g->smem_align = 1024;
    int n = nlay(g, L);
    int *C = get(g, in->args[2], L);
    int *acc = alloc_regs(g, n);
    /* accumulate in the loop's own registers, in flight (`in` may be mma_fold's copy); a
     * rescaled one only where the multiply did write into them (rescaled_acc) */
    bool defer = g->defer && g->defer->res[0] == in->res[0];
    int ip = g->inplace[in->args[2]];
    if (defer && ip >= 0 && (g->vlay[ip] != L || memcmp(C, g->vr[ip], sizeof(int) * (size_t)n) != 0))
        defer = false;
    /* the last reader of a loop's carried fp32 accumulator writes into its registers too: no
     * copy in, none back at the yield. ptxas did not always merge those copies, and spilled
     * for them where the accumulators fill the registers (tutorial 06's backward at head_dim
     * 128: bench/results/gpu-2026-12-02.md §17). Only a parameter of the region the dot is
     * in: one of an outer loop is read again by each iteration of the inner one */
    int c = in->args[2];
    bool own = defer || (rdt == DT_FP32 && g->uses[c] == 1 && g->vlay[c] == L && region_param(g->region, c));
    /* a zero accumulator is never set: the first k step's scale-d is 0 (D = A * B), as
     * Triton's is, which spares the moves and the registers' early start */
    bool zero = !own && is_zero_const(g, c);
    for (int r = 0; r < n; r++) {
        if (own) { acc[r] = C[r]; continue; }
        acc[r] = nr(g, CR);
        if (zero) continue;
        if (rdt == DT_FP16) E(g, "cvt.f32.f16 %s, %s;", rn(g, acc[r]), rn(g, C[r]));
        else E(g, "mov.b32 %s, %s;", rn(g, acc[r]), rn(g, C[r]));
    }
    /* this warpgroup's first row */
    int rowa = nr(g, CR);
    E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, rowa), rn(g, warpgroup(g)), 64 * ta.slab, rn(g, basea));
    /* B stored [N][K] (fp8's always: operands() stages it so) */
    bool bk = kind == MMA_F8 || (g->smop_base[in->args[1]] && g->smop_kmaj[in->args[1]]);
    uint64_t ha = desc_hi(&ta, true), hb = desc_hi(&tb, bk);
    int dA = desc_reg(g, rowa, ha), dB = desc_reg(g, baseb, hb);
    int nwg = g->nw / 4;
    int mreps = M / (64 * nwg), nch = N / instN;
    int se_a = ta.slab / esz, se_b = tb.slab / esz;
    char ty[32];
    if (kind == MMA_F8)   /* e5m2 / e4m3 per operand; no transpose immediates for 8-bit types */
        snprintf(ty, sizeof ty, "%s.%s", at.dt == DT_FP8E5 ? "e5m2" : "e4m3",
                 f->types[in->args[1]].dt == DT_FP8E5 ? "e5m2" : "e4m3");
    else snprintf(ty, sizeof ty, "%s", kind == MMA_F16 ? "f16.f16" : "bf16.bf16");
    int ks = kind == MMA_F8 ? 32 : 16;
    int pt = nr(g, CP);
    E(g, "setp.eq.u32 %s, 0, 0;", rn(g, pt));   /* scale-d: accumulate into d */
    E(g, "wgmma.fence.sync.aligned;");
    char list[4096];
    for (int k0 = 0; k0 < K; k0 += ks) {
        char sd[16];   /* rn's names are reused after a few calls */
        snprintf(sd, sizeof sd, "%s", zero && k0 == 0 ? "0" : rn(g, pt));
        for (int mi = 0; mi < mreps; mi++) {
            int64_t offa = ta.off + (int64_t)(k0 / se_a) * ta.rows * ta.slab + (int64_t)(k0 % se_a) * esz +
                           (int64_t)mi * 64 * nwg * ta.slab;
            int da = desc_at(g, dA, offa);
            for (int c = 0; c < nch; c++) {
                int64_t n0 = (int64_t)c * instN;
                int64_t offb = bk ? tb.off + (int64_t)(k0 / se_b) * tb.rows * tb.slab + (int64_t)(k0 % se_b) * esz +
                                        n0 * tb.slab
                                  : tb.off + (n0 / se_b) * tb.rows * tb.slab + (n0 % se_b) * esz + (int64_t)k0 * tb.slab;
                int db = desc_at(g, dB, offb);
                int base = (c << (2 + lg2i(instN / 8))) | mi << (2 + lg2i(N / 8));
                size_t o = 0;
                for (int i = 0; i < instN / 2; i++)
                    o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "", rn(g, acc[base + i]));
                if (areg) {
                    const int *q = &areg[((k0 / 16) * mreps + mi) * 4];
                    E(g, "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s {%s}, {%s, %s, %s, %s}, %s, %s, 1, 1, %d;",
                      instN, ty, list, rn(g, q[0]), rn(g, q[1]), rn(g, q[2]), rn(g, q[3]), rn(g, db), sd, !bk);
                    continue;
                }
                if (kind == MMA_F8)
                    E(g, "wgmma.mma_async.sync.aligned.m64n%dk32.f32.%s {%s}, %s, %s, %s, 1, 1;", instN, ty,
                      list, rn(g, da), rn(g, db), sd);
                else
                    E(g, "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s {%s}, %s, %s, %s, 1, 1, 0, %d;", instN,
                      ty, list, rn(g, da), rn(g, db), sd, !bk);
            }
        }
    }
    E(g, "wgmma.commit_group.sync.aligned;");
    pipe_issued(g);
    E(g, "wgmma.wait_group.sync.aligned %d;", defer ? 1 : 0);
    pipe_waited(g);
    int *out = acc;
    if (rdt == DT_FP16) {
        out = alloc_regs(g, n);
        for (int r = 0; r < n; r++) out[r] = cast1(g, acc[r], DT_FP32, DT_FP16, false);
    }
    set_val(g, v, L, out);
}

/* ---- the launch report's summary ----------------------------------------------------- */

static bool has_dot(const Region *r) {
    for (int i = 0; r && i < r->ninsts; i++) {
        if (r->insts[i]->op == OP_DOT) return true;
        if (has_dot(r->insts[i]->regions[0]) || has_dot(r->insts[i]->regions[1])) return true;
    }
    return false;
}

static bool has_warp_spec(const Region *r) {
    for (int i = 0; r && i < r->ninsts; i++) {
        if (r->insts[i]->op == OP_FOR && r->insts[i]->attr.kind) return true;
        if (has_warp_spec(r->insts[i]->regions[0]) || has_warp_spec(r->insts[i]->regions[1])) return true;
    }
    return false;
}

void gpu_dot_summary(const IrFunc *f, const char *ptx, char *out, size_t n) {
    if (!n) return;
    out[0] = 0;
    if (!f || !ptx || !has_dot(f->body)) return;
    const char *path = strstr(ptx, "wgmma.mma_async") ? "wgmma" : strstr(ptx, "mma.sync") ? "mma.sync" : "fma";
    const char *w = strstr(ptx, "cp.async.wait_group "), *h = strstr(ptx, "// loads pipelined in ");
    int stages = w ? atoi(w + 20) + 2 : h ? atoi(h + 22) : 0;
    /* tl.range(warp_specialize=True) runs as an ordinary (pipelined) loop: said here */
    const char *ws = has_warp_spec(f->body) ? ", warp_specialize ignored" : "";
    if (stages) snprintf(out, n, "%s, %d stages%s", path, stages, ws);
    else if (strcmp(path, "fma")) snprintf(out, n, "%s, %s%s", path, *ws ? "unpipelined" : "loads not pipelined", ws);
    else snprintf(out, n, "%s%s", path, ws);
}
