/* analysis.c — facts the lowering needs before it emits anything:
 *   1. axis info (contiguity, divisibility, constancy per dim; Triton's AxisInfo), forward;
 *   2. the per-shape vector width (Triton's Coalesce: 16-byte accesses where provable);
 *   3. layout preferences, backward from the uses (stores, dots, elementwise chains), so
 *      that expand_dims/broadcast chains get slice layouts of their consumers and need no
 *      data movement. */
#include "gpu/lower.h"

#include <string.h>

/* The id of a layout in this kernel's table, added when new (analysis picks layouts first;
 * lowering asks for more as it converts). */
int lay_id(G *g, const Layout *L) {
    for (int i = 0; i < g->nlays; i++)
        if (lay_eq(&g->lays[i].L, L)) return i;
    LayEnt e = {*L, 0, -1, false};
    ARENA_PUSH(g->a, g->lays, g->nlays, g->caplays, e);
    return g->nlays - 1;
}

#define DIV_BIG ((int64_t)1 << 30)

static int64_t gcd64(int64_t a, int64_t b) {
    while (b) { int64_t t = a % b; a = b; b = t; }
    return a < 0 ? -a : a;
}
static int64_t pow2_factor(int64_t v) {
    if (v == 0) return DIV_BIG;
    int64_t p = 1;
    while (p < DIV_BIG && v % (p * 2) == 0) p *= 2;
    return p;
}
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t floor_pow2(int64_t v) {
    int64_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

/* the divisibility every element has */
static int64_t elemdiv(const AxInfo *a, int rank) {
    if (rank == 0) return a->div[0];
    int64_t m = DIV_BIG;
    for (int d = 0; d < rank; d++) m = min64(m, a->contig[d] > 1 ? 1 : a->div[d]);
    return m;
}

static void ax_plain(AxInfo *a, const Type *t, int64_t div) {
    for (int d = 0; d < TC_MAX_RANK; d++) {
        a->div[d] = div;
        a->contig[d] = 1;
        a->cnst[d] = 1;
    }
    (void)t;
}

static void ax_splat(AxInfo *a, const Type *t, int64_t div) {
    ax_plain(a, t, div);
    for (int d = 0; d < t->rank; d++) a->cnst[d] = t->shape[d];
}

static bool is_const_int(G *g, int v, int64_t val) {
    const Inst *d = v >= 0 ? g->def[v] : NULL;
    while (d && (d->op == OP_SPLAT || d->op == OP_BROADCAST)) d = g->def[d->args[0]];
    return d && d->op == OP_CONST && dt_is_int(g->f->types[d->res[0]].dt) && d->attr.i == val;
}

static void ax_inst(G *g, const Inst *in);

static void ax_region(G *g, const Region *r) {
    for (int i = 0; i < r->ninsts; i++) ax_inst(g, r->insts[i]);
}

static void ax_inst(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    if (!g->ax_again)
        for (int k = 0; k < in->nargs; k++)
            if (in->args[k] >= 0 && in->args[k] < f->nvalues) g->uses[in->args[k]]++;
    for (int k = 0; k < in->nres; k++) {
        int v = in->res[k];
        g->def[v] = (Inst *)in;
        ax_plain(&g->ax[v], &f->types[v], 1);
    }
    for (int k = 0; k < 2; k++) {
        Region *rg = in->regions[k];
        if (!rg) continue;
        for (int p = 0; p < rg->nparams; p++) ax_plain(&g->ax[rg->params[p]], &f->types[rg->params[p]], 1);
    }
    if (in->op == OP_FOR) {
        /* iv = lb + k*step */
        int iv = in->regions[0]->params[0];
        g->ax[iv].div[0] = gcd64(elemdiv(&g->ax[in->args[0]], 0), elemdiv(&g->ax[in->args[2]], 0));
        if (g->ax[iv].div[0] == 0) g->ax[iv].div[0] = 1;
    }
    if (in->op == OP_FOR) {
        /* loop-carried values: start from the initial values and meet with what the body
         * yields until nothing changes (pointers advanced by a multiple of 16 bytes keep
         * their alignment, so their loads stay vectorized) */
        Region *b = in->regions[0];
        const Inst *y = b->ninsts ? b->insts[b->ninsts - 1] : NULL;
        for (int j = 1; j < b->nparams && 3 + j - 1 < in->nargs; j++) g->ax[b->params[j]] = g->ax[in->args[3 + j - 1]];
        bool again = g->ax_again;
        for (int round = 0; round < 4; round++) {
            ax_region(g, b);
            g->ax_again = true;
            bool changed = false;
            for (int j = 1; y && y->op == OP_YIELD && j < b->nparams && j - 1 < y->nargs; j++) {
                AxInfo *pa = &g->ax[b->params[j]];
                const AxInfo *ya = &g->ax[y->args[j - 1]];
                for (int d = 0; d < TC_MAX_RANK; d++) {
                    AxInfo o = *pa;
                    o.div[d] = gcd64(pa->div[d], ya->div[d]);
                    o.contig[d] = (int32_t)gcd64(pa->contig[d], ya->contig[d]);
                    o.cnst[d] = (int32_t)gcd64(pa->cnst[d], ya->cnst[d]);
                    if (o.div[d] != pa->div[d] || o.contig[d] != pa->contig[d] || o.cnst[d] != pa->cnst[d]) {
                        *pa = o;
                        changed = true;
                    }
                }
            }
            if (!changed) break;
            if (round == 3) {   /* no fixed point yet: assume nothing */
                for (int j = 1; j < b->nparams; j++) ax_plain(&g->ax[b->params[j]], &f->types[b->params[j]], 1);
                ax_region(g, b);
            }
        }
        g->ax_again = again;
        if (in->regions[1]) ax_region(g, in->regions[1]);
    } else {
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) ax_region(g, in->regions[k]);
    }
    if (in->nres != 1) return;
    int v = in->res[0];
    Type t = f->types[v];
    AxInfo *o = &g->ax[v];
    const AxInfo *a = in->nargs > 0 && in->args[0] >= 0 ? &g->ax[in->args[0]] : NULL;
    const AxInfo *b = in->nargs > 1 && in->args[1] >= 0 ? &g->ax[in->args[1]] : NULL;
    int rank = t.rank;
    switch (in->op) {
    case OP_CONST:
        ax_splat(o, &t, dt_is_int(t.dt) ? pow2_factor(in->attr.i) : 1);
        break;
    case OP_ARANGE:
        ax_plain(o, &t, pow2_factor(in->attr.i));
        o->contig[0] = t.shape[0];
        break;
    case OP_SPLAT:
        ax_splat(o, &t, a->div[0]);
        break;
    case OP_BROADCAST: {
        Type at = f->types[in->args[0]];
        *o = *a;
        for (int d = 0; d < rank; d++)
            if (at.shape[d] == 1 && t.shape[d] > 1) {
                o->contig[d] = 1;
                o->cnst[d] = t.shape[d];
            }
        break;
    }
    case OP_EXPAND_DIMS: {
        int ax = in->attr.axis, ar = f->types[in->args[0]].rank;
        int64_t ed = elemdiv(a, ar);
        int j = 0;
        for (int d = 0; d < rank; d++) {
            if (d == ax) { o->div[d] = ed; o->contig[d] = 1; o->cnst[d] = 1; }
            else { o->div[d] = a->div[j]; o->contig[d] = a->contig[j]; o->cnst[d] = a->cnst[j]; j++; }
        }
        break;
    }
    case OP_PERMUTE:
        for (int d = 0; d < rank; d++) {
            o->div[d] = a->div[in->attr.perm[d]];
            o->contig[d] = a->contig[in->attr.perm[d]];
            o->cnst[d] = a->cnst[in->attr.perm[d]];
        }
        break;
    case OP_RESHAPE:
        ax_plain(o, &t, elemdiv(a, f->types[in->args[0]].rank));
        break;
    case OP_CAST: {
        int from = f->types[in->args[0]].dt;
        if (dt_is_int(from) && from != DT_I1 && dt_is_int(t.dt) && t.dt != DT_I1 &&
            dt_bits(t.dt) >= dt_bits(from))
            *o = *a;
        break;
    }
    case OP_ADD: case OP_SUB: case OP_ADDPTR: {
        AxInfo bb = *b;
        int brank = f->types[in->args[1]].rank;
        if (in->op == OP_ADDPTR) {
            int esz = dt_size(t.elem);
            for (int d = 0; d < (brank ? brank : 1); d++) bb.div[d] = min64(DIV_BIG, bb.div[d] * esz);
        }
        if (rank == 0) { o->div[0] = gcd64(a->div[0], bb.div[0]); break; }
        for (int d = 0; d < rank; d++) {
            int32_t c1 = (int32_t)gcd64(a->contig[d], bb.cnst[d]);
            int32_t c2 = in->op == OP_SUB ? 1 : (int32_t)gcd64(a->cnst[d], bb.contig[d]);
            o->contig[d] = c1 > c2 ? c1 : c2;
            o->div[d] = gcd64(a->div[d], bb.div[d]);
            o->cnst[d] = (int32_t)gcd64(a->cnst[d], bb.cnst[d]);
        }
        break;
    }
    case OP_MUL: {
        if (rank == 0) { o->div[0] = min64(DIV_BIG, a->div[0] * b->div[0]); break; }
        bool a1 = is_const_int(g, in->args[0], 1), b1 = is_const_int(g, in->args[1], 1);
        for (int d = 0; d < rank; d++) {
            o->cnst[d] = (int32_t)gcd64(a->cnst[d], b->cnst[d]);
            if (b1) { o->contig[d] = a->contig[d]; o->div[d] = a->div[d]; }
            else if (a1) { o->contig[d] = b->contig[d]; o->div[d] = b->div[d]; }
            else {
                o->contig[d] = 1;
                o->div[d] = min64(DIV_BIG, (a->contig[d] > 1 ? 1 : a->div[d]) *
                                               (b->contig[d] > 1 ? 1 : b->div[d]));
            }
        }
        break;
    }
    case OP_REM: {
        /* (pid*B + arange(0, B)) % N, as the matmul tutorial wraps its offsets: runs of
         * consecutive values that start on a multiple of the divisibility of N survive (as
         * Triton's AxisInfo, for non-negative values) */
        if (!dt_is_int(t.dt)) break;
        if (rank == 0) { o->div[0] = gcd64(a->div[0], b->div[0]); break; }
        for (int d = 0; d < rank; d++) {
            int64_t c = gcd64(gcd64(a->contig[d], b->div[d]), a->div[d]);
            o->contig[d] = (int32_t)min64(c, b->cnst[d]);
            o->div[d] = gcd64(a->div[d], b->div[d]);
            o->cnst[d] = (int32_t)gcd64(a->cnst[d], b->cnst[d]);
        }
        break;
    }
    case OP_CMP: {
        if (rank == 0) break;
        int k = in->attr.kind;
        for (int d = 0; d < rank; d++) {
            o->cnst[d] = (int32_t)gcd64(a->cnst[d], b->cnst[d]);
            /* offs < n over aligned groups where n is a multiple of the group size */
            if ((k == CMP_LT || k == CMP_GE) && a->contig[d] > 1 && b->cnst[d] > 1) {
                int64_t c = min64(min64(a->contig[d], b->cnst[d]), min64(a->div[d], b->div[d]));
                c = floor_pow2(c);
                if (c > o->cnst[d]) o->cnst[d] = (int32_t)c;
            }
            if ((k == CMP_GT || k == CMP_LE) && b->contig[d] > 1 && a->cnst[d] > 1) {
                int64_t c = min64(min64(b->contig[d], a->cnst[d]), min64(a->div[d], b->div[d]));
                c = floor_pow2(c);
                if (c > o->cnst[d]) o->cnst[d] = (int32_t)c;
            }
        }
        break;
    }
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT:
        for (int d = 0; d < rank; d++)
            o->cnst[d] = (int32_t)(b ? gcd64(a->cnst[d], b->cnst[d]) : a->cnst[d]);
        break;
    case OP_WHERE: {
        const AxInfo *c = &g->ax[in->args[2]];
        for (int d = 0; d < rank; d++)
            o->cnst[d] = (int32_t)gcd64(gcd64(a->cnst[d], b->cnst[d]), c->cnst[d]);
        break;
    }
    default:
        break;
    }
}

/* ---- vector width per shape ------------------------------------------------------- */

int inner_dim(const Type *t) {
    for (int d = t->rank - 1; d >= 0; d--)
        if (t->shape[d] > 1) return d;
    return -1;
}

/* At most v elements of esz bytes along dim d in one access: as far as the pointer's
 * contiguity and alignment and the mask's constancy along d allow, 16 bytes at most; a power
 * of two */
static int vec_along(G *g, int ptr, int mask, int d, int esz, int64_t v) {
    const AxInfo *a = &g->ax[ptr];
    v = min64(v, 16 / esz);
    v = min64(v, a->contig[d]);
    v = min64(v, a->div[d] / esz);
    if (mask >= 0) v = min64(v, g->ax[mask].cnst[d]);
    return v < 1 ? 1 : (int)floor_pow2(v);
}

/* How many elements of a memory op's pointer may go in one access along its last dim, before
 * a layout is chosen (1-byte elements: one, as registers do not pack them) */
int mem_vec(G *g, int ptr, int mask) {
    Type t = g->f->types[ptr];
    int d = inner_dim(&t);
    int esz = dt_size(t.elem);
    if (d < 0 || esz == 1 || t.elem == DT_I1) return 1;
    return vec_along(g, ptr, mask, d, esz, 16 / esz);
}

/* The elements of one access of a memory op in layout lay: the run of registers that walks
 * one dim of the tile from its first element, usually the last (a tile contiguous along its
 * first dim, b_tr's, walks that one), as far as the pointer's contiguity and alignment and
 * the mask's constancy along that dim allow. bytes: 1-byte elements too (cp.async copies
 * bytes; loads into registers do not pack them). */
int lay_mem_vec(G *g, int lay, int ptr, int mask, bool bytes) {
    const Layout *L = &g->lays[lay].L;
    Type t = g->f->types[ptr];
    int esz = dt_size(t.elem);
    if (t.rank == 0 || L->nreg == 0 || (!bytes && (esz == 1 || t.elem == DT_I1))) return 1;
    int d = -1, low = 0;   /* the dim whose lowest flat bit the first register holds */
    for (int j = t.rank - 1; j >= 0 && d < 0; j--) {
        int b = lg2i(t.shape[j]);
        if (b && L->reg[0] == low) d = j;
        else low += b;
    }
    if (d < 0) return 1;
    int run = 0, db = lg2i(t.shape[d]);
    while (run < L->nreg && run < db && L->reg[run] == low + run) run++;
    return vec_along(g, ptr, mask, d, esz, (int64_t)1 << run);
}

static int shape_slot(G *g, const Type *t) {
    for (int i = 0; i < g->nshapes; i++) {
        ShapeEnt *s = &g->shapes[i];
        if (s->rank != t->rank) continue;
        bool same = true;
        for (int d = 0; d < t->rank; d++) same &= s->shape[d] == t->shape[d];
        if (same) return i;
    }
    ShapeEnt s = {0};
    s.rank = t->rank;
    for (int d = 0; d < t->rank; d++) s.shape[d] = t->shape[d];
    s.sptbits = -1;
    s.lay = -1;
    ARENA_PUSH(g->a, g->shapes, g->nshapes, g->capshapes, s);
    return g->nshapes - 1;
}

static void spt_inst(G *g, const Inst *in) {
    for (int k = 0; k < 2; k++)
        if (in->regions[k])
            for (int i = 0; i < in->regions[k]->ninsts; i++) spt_inst(g, in->regions[k]->insts[i]);
    if (in->op != OP_LOAD && in->op != OP_STORE) return;
    int ptr = in->args[0];
    Type t = g->f->types[ptr];
    if (t.rank == 0) return;
    int mask = in->op == OP_LOAD ? in->args[1] : in->args[2];
    int v = mem_vec(g, ptr, mask);
    if (ir_desc_rank(in) && (g->ti->features & TF_TMA))   /* a TMA tile (tma.c): 16 bytes */
        v = 16 / dt_size(t.elem);
    int64_t per = type_numel(t) / (32 * g->nw);
    if (per < 1) per = 1;
    if (v > per) v = (int)per;
    int bits = lg2i(v);
    int s = shape_slot(g, &t);
    if (bits > g->shapes[s].sptbits) g->shapes[s].sptbits = bits;
}

int default_lay(G *g, const Type *t) {
    if (t->rank == 0) return 0;
    int s = shape_slot(g, t);
    if (g->shapes[s].lay >= 0) return g->shapes[s].lay;
    int bits = g->shapes[s].sptbits;
    if (bits < 0) {
        int64_t per = type_numel(*t) / (32 * g->nw);
        bits = per >= 4 ? 2 : per >= 2 ? 1 : 0;
    }
    Layout L;
    lay_default(&L, t->rank, t->shape, g->nwbits, bits);
    int id = lay_id(g, &L);
    g->shapes[s].lay = id;
    return id;
}

/* ---- layout preferences (backward) ------------------------------------------------ */

static void want(G *g, int v, int lay) {
    if (v < 0 || g->f->types[v].rank == 0) return;
    if (g->pref[v] < 0) g->pref[v] = lay;
}

int res_lay(G *g, int v) {
    if (g->f->types[v].rank == 0) return 0;
    if (g->pref[v] < 0) g->pref[v] = default_lay(g, &g->f->types[v]);
    return g->pref[v];
}

static void pref_region(G *g, const Region *r);

/* Whether an accumulator is better stored from layout L, after a trip through shared memory
 * (convert.c's convert_smem), than from its own: as Triton's epilogue, when L's threads write
 * wider runs than the fragments' pairs (16 bytes against 4 for fp16, two 32-byte sectors
 * written per sector's worth otherwise). Not when gpu_compile asks for lean shared memory. */
static bool acc_store_wide(G *g, const Inst *st, int L) {
    if (g->lean) return false;
    int ptr = st->args[0], acc = g->pref[st->args[1]];
    int v = lg2i(mem_vec(g, ptr, st->args[2]));
    int want = lay_vec_bits(&g->lays[L].L), have = lay_vec_bits(&g->lays[acc].L);
    if (want > v) want = v;
    if (have > v) have = v;
    if (want <= have || dt_size(g->f->types[st->args[1]].dt) < 2) return false;
    g->used_roomy = true;
    return true;
}

static const Inst *region_term(const Region *r) {
    return r && r->ninsts ? r->insts[r->ninsts - 1] : NULL;
}

static void pref_inst(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    switch (in->op) {
    case OP_YIELD: case OP_CONDITION: case OP_REDUCE: case OP_PRINT: case OP_ASSERT:
    case OP_SPLAT: case OP_RETURN: case OP_BARRIER:
        return;
    case OP_IF: {
        const Inst *y0 = region_term(in->regions[0]), *y1 = region_term(in->regions[1]);
        for (int j = 0; j < in->nres; j++) {
            int L = res_lay(g, in->res[j]);
            if (y0 && y0->op == OP_YIELD && j < y0->nargs) want(g, y0->args[j], L);
            if (y1 && y1->op == OP_YIELD && j < y1->nargs) want(g, y1->args[j], L);
        }
        pref_region(g, in->regions[0]);
        if (in->regions[1]) pref_region(g, in->regions[1]);
        return;
    }
    case OP_FOR: {
        Region *body = in->regions[0];
        const Inst *y = region_term(body);
        for (int j = 0; j < in->nres; j++) {
            int L = res_lay(g, in->res[j]);
            if (f->types[in->res[j]].rank) g->pref[body->params[j + 1]] = L;
            if (y && y->op == OP_YIELD) want(g, y->args[j], L);
            want(g, in->args[3 + j], L);
        }
        pref_region(g, body);
        return;
    }
    case OP_WHILE: {
        Region *bef = in->regions[0], *aft = in->regions[1];
        const Inst *c = region_term(bef), *y = region_term(aft);
        for (int j = 0; j < in->nres; j++) {
            int L = res_lay(g, in->res[j]);
            if (f->types[in->res[j]].rank) g->pref[aft->params[j]] = L;
            if (c && c->op == OP_CONDITION) want(g, c->args[j + 1], L);
        }
        for (int k = 0; k < bef->nparams; k++) {
            int p = bef->params[k];
            int L = res_lay(g, p);
            if (y && y->op == OP_YIELD) want(g, y->args[k], L);
            want(g, in->args[k], L);
        }
        pref_region(g, aft);
        pref_region(g, bef);
        return;
    }
    case OP_STORE: {
        int ptr = in->args[0];
        if (f->types[ptr].rank == 0) return;
        int val = in->args[1];
        int L = g->pref[ptr] >= 0 ? g->pref[ptr] : default_lay(g, &f->types[ptr]);
        if (val >= 0 && g->pref[val] >= 0 && g->lays[g->pref[val]].mma && !acc_store_wide(g, in, L))
            L = g->pref[val];   /* stored from the accumulator's own layout */
        want(g, ptr, L);
        want(g, in->args[1], L);
        want(g, in->args[2], L);
        return;
    }
    case OP_DOT: {
        int L = res_lay(g, in->res[0]);
        if (g->lays[L].mma) {   /* operands keep their own layouts: mma.c stages them */
            want(g, in->args[2], L);
            return;
        }
        Layout R = g->lays[L].L, A, B;
        int8_t map[LMAXB];
        int K = f->types[in->args[0]].shape[f->types[in->args[0]].rank - 1];
        lay_dot_a(&R, K, &A, map);
        lay_dot_b(&R, K, &B, map);
        want(g, in->args[0], lay_id(g, &A));
        want(g, in->args[1], lay_id(g, &B));
        want(g, in->args[2], L);
        return;
    }
    default:
        break;
    }
    if (in->nres != 1) return;
    int v = in->res[0];
    if (f->types[v].rank == 0) return;
    int L = res_lay(g, v);
    Layout R = g->lays[L].L, o;
    switch (in->op) {
    case OP_BROADCAST:
        lay_restrict(&R, f->types[in->args[0]].shape, &o, NULL);
        want(g, in->args[0], lay_id(g, &o));
        return;
    case OP_EXPAND_DIMS:
        lay_slice(&R, in->attr.axis, &o, NULL);
        want(g, in->args[0], lay_id(g, &o));
        return;
    case OP_PERMUTE:
        lay_permute(&R, in->attr.perm, true, &o);
        want(g, in->args[0], lay_id(g, &o));
        return;
    case OP_RESHAPE: {
        Type at = f->types[in->args[0]];
        lay_reshape(&R, at.rank, at.shape, &o);
        want(g, in->args[0], lay_id(g, &o));
        return;
    }
    default:
        for (int k = 0; k < in->nargs; k++) want(g, in->args[k], L);
        return;
    }
}

static void pref_region(G *g, const Region *r) {
    for (int i = r->ninsts - 1; i >= 0; i--) pref_inst(g, r->insts[i]);
}

void analyze(G *g) {
    const IrFunc *f = g->f;
    for (int i = 0; i < f->nparams; i++) {
        int v = f->params[i].value;
        ax_plain(&g->ax[v], &f->types[v], f->params[i].div16 ? 16 : 1);
    }
    ax_region(g, f->body);
    for (int i = 0; i < f->body->ninsts; i++) spt_inst(g, f->body->insts[i]);
    mma_fold(g);
    mma_seed(g);
    pref_region(g, f->body);
}
