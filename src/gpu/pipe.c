/* pipe.c — num_stages: the loop pipeliner that feeds tensor-core dots (mma.c): a loop's
 * loads issued ahead by cp.async (or TMA) into a ring of shared-memory slots. */
#include "gpu/mma_int.h"

#include <stdio.h>
#include <string.h>

/* elements per cp.async of load ld in layout L: 4, 8 or 16 bytes when it can go so. Runs
 * contiguous in the slot: along the last dim, or along K for a tile copied transposed (tr,
 * b_tr). */
static int cp_vec(G *g, int L, const Inst *ld, bool tr) {
    const Layout *Lo = &g->lays[L].L;
    int low = tr ? lg2i(g->f->types[ld->res[0]].shape[1]) : 0;
    if (Lo->nreg == 0 || Lo->reg[0] != low) return 1;
    return lay_mem_vec(g, L, ld->args[0], ld->args[1], true);
}

/* ---- num_stages: software pipelining of the loads that feed a dot ---------------------
 *
 * In a loop `for iv in range(lb, ub, st)`, a load whose only use is an mma dot of the same
 * body, with `other` absent or zero, is issued D = num_stages - 1 iterations ahead with
 * cp.async straight into a ring of D shared-memory slots (the tile layout the dot reads; D + 1
 * when a wgmma stays in flight into the next iteration, D + 2 with top), as Triton's pipeliner does
 * (codegen.md §4.2). The instructions that compute its pointer and mask (set P) are lowered
 * once more for iteration iv + D*st, with the loop-carried values they use (`a_ptrs += ...`)
 * kept D iterations ahead in registers of their own. Iteration i waits for its group
 * (cp.async.wait_group D-1), computes, and after a barrier fills the slot of iteration i + D
 * (the one it read, or with the spare slot the one iteration i - 1 read; a TMA ring refills
 * that one as soon as a wgmma wait has freed it, pipe_waited; with top, the one iteration
 * i - 2 read, right after the wait's own barrier or, top_late, once the body's first dot is
 * issued, pipe_issued). Masked-off elements and
 * iterations past the end are zero-filled by cp.async's source size. */

#define PIPE_MAXLD 6

typedef struct Pipe {
    int nld;
    const Inst *ld[PIPE_MAXLD];
    int off[PIPE_MAXLD];      /* tile offset within a slot */
    int use[PIPE_MAXLD];      /* the dot's operand: the load, or its transpose (kmaj) */
    bool kmaj[PIPE_MAXLD];
    int use2[PIPE_MAXLD];     /* a second dot's operand from the same tile (multiuse), 0 none */
    bool kmaj2[PIPE_MAXLD];
    bool tma[PIPE_MAXLD];     /* copied by TMA into the slot (tmaring), else by cp.async */
    int ntma, tma_bytes;      /* how many; their bytes per slot (the barrier's expect_tx) */
    bool ringfree;            /* all by TMA: no cp.async group to wait for before a refill */
    bool counted;             /* ringfree over two warpgroups: the slot is refilled by the last
                               * warp done with it (last_warp_done), not after a bar.sync */
    bool tr[PIPE_MAXLD];      /* a [K][N] load copied transposed, [N][K] (b_tr) */
    int8_t trnb[PIPE_MAXLD], trkb[PIPE_MAXLD];  /* its dims' bits (tr_bit) */
    int lay[PIPE_MAXLD];      /* the layout the copy is issued in */
    Tile tile[PIPE_MAXLD];
    Addr addr[PIPE_MAXLD];
    const Inst **P;           /* body instructions of the address computation, in order */
    int nP;
    bool *first;              /* P index -> the loads need it (else: it steps carried values) */
    int *pb_step, *pb_off;    /* body param index -> ptrbase: the register of its step (bytes,
                               * computed before the loop), of the offset it has reached; its
                               * p->ahead then holds the pointers it started from, 0: not so */
    bool *pb_skip;            /* P index -> the step that pb_off replaces */
    bool *carried;            /* body param index -> kept ahead */
    int D, slot_bytes;
    bool wgmma;               /* a consumer reads through the async proxy: fence after the wait */
    const Inst *defer;        /* a wgmma dot left in flight across iterations (wait_group 1) */
    int nslots;               /* D, or D + 1 when a wgmma is in flight while the next loads go */
    bool top;                 /* D + 2 slots: refilled at the iteration's top, one bar.sync */
    bool top_late;            /*   refilled once the body's first wgmma is issued (pipe_issued) */
    int **ahead;              /* body param index -> registers D iterations ahead */
    int slot;                 /* register: the slot this iteration reads */
    int ninv;                 /* dot operands defined before the loop: staged once, after */
    int inv[PIPE_MAXLD];      /*   the ring's slots (values), at inv_off in it */
    int inv_off[PIPE_MAXLD];
    Tile inv_tile[PIPE_MAXLD];
    int inv_base;             /* register: where they start */
    bool inv_staged[PIPE_MAXLD];  /* kept (g->inv_kept) and staged by an earlier loop */
    int base;                 /* register: this iteration's slot (pipe_begin) */
    const Inst *loop;         /* the loop, its induction register, bound, step and type */
    int iv, ub, st, ivdt;
    int depth;                /* g->depth of the body's own instructions */
    bool refilled;            /* the body refilled the spare slot already (pipe_waited) */
} Pipe;

static bool in_body(const Region *b, const Inst *d, int *pos) {
    for (int i = 0; i < b->ninsts; i++)
        if (b->insts[i] == d) { *pos = i; return true; }
    return false;
}

/* how many operands of body b's own instructions are v */
static int uses_in(const Region *b, int v) {
    int n = 0;
    for (int i = 0; i < b->ninsts; i++)
        for (int k = 0; k < b->insts[i]->nargs; k++) n += b->insts[i]->args[k] == v;
    return n;
}

/* the region, r or one inside it, whose own instructions include in; NULL none */
static const Region *region_of(const Region *r, const Inst *in) {
    for (int i = 0; r && i < r->ninsts; i++) {
        if (r->insts[i] == in) return r;
        for (int k = 0; k < 2; k++) {
            const Region *x = region_of(r->insts[i]->regions[k], in);
            if (x) return x;
        }
    }
    return NULL;
}

static int param_index(const Region *b, int v) {
    for (int i = 0; i < b->nparams; i++)
        if (b->params[i] == v) return i;
    return -1;
}

/* adds v's computation inside body b to the set (inP[pos]); false if it cannot be redone */
static bool closure(G *g, const Region *b, int v, bool *inP, bool *carried) {
    if (v < 0) return true;
    int pi = param_index(b, v);
    if (pi == 0) return true;                        /* the induction variable */
    if (pi > 0) {
        if (carried[pi]) return true;
        carried[pi] = true;
        const Inst *y = b->ninsts ? b->insts[b->ninsts - 1] : NULL;
        if (!y || y->op != OP_YIELD || pi - 1 >= y->nargs) return false;
        return closure(g, b, y->args[pi - 1], inP, carried);
    }
    const Inst *d = g->def[v];
    int pos;
    if (!d || !in_body(b, d, &pos)) return true;     /* defined outside the loop */
    if (inP[pos]) return true;
    switch (d->op) {
    case OP_LOAD: case OP_STORE: case OP_ATOMIC: case OP_ATOMIC_CAS: case OP_DOT: case OP_REDUCE:
    case OP_IF: case OP_FOR: case OP_WHILE: case OP_PRINT: case OP_ASSERT: case OP_BARRIER:
    case OP_RETURN:
        return false;
    default:
        break;
    }
    inP[pos] = true;
    for (int k = 0; k < d->nargs; k++)
        if (!closure(g, b, d->args[k], inP, carried)) return false;
    return true;
}

/* adds the computations of a load's address operands a0 and a1 to the set, or leaves the set
 * as it was and returns false when one cannot be redone ahead of time */
static bool closure_of(G *g, const Region *b, int a0, int a1, bool *inP, bool *carried) {
    bool *save = arena_alloc(g->a, (size_t)b->ninsts + (size_t)b->nparams + 2);
    memcpy(save, inP, (size_t)b->ninsts + 1);
    memcpy(save + b->ninsts + 1, carried, (size_t)b->nparams + 1);
    if (closure(g, b, a0, inP, carried) && closure(g, b, a1, inP, carried)) return true;
    memcpy(inP, save, (size_t)b->ninsts + 1);
    memcpy(carried, save + b->ninsts + 1, (size_t)b->nparams + 1);
    return false;
}

/* value -> it is computed in body b from a tensor-core dot's result (so after its wait) */
static bool *after_dots(G *g, const Region *b) {
    bool *late = arena_alloc(g->a, (size_t)g->f->nvalues + 1);
    for (int i = 0; i < b->ninsts; i++) {
        const Inst *d = b->insts[i];
        bool l = d->op == OP_DOT && d->nres && g->pref[d->res[0]] >= 0 && g->lays[g->pref[d->res[0]]].mma;
        for (int k = 0; !l && k < d->nargs; k++) l = d->args[k] >= 0 && late[d->args[k]];
        for (int k = 0; k < d->nres; k++) late[d->res[k]] = l;
    }
    return late;
}

/* Flash attention's `acc = tl.dot(p, v, acc * alpha[:, None])`: a dot accumulator c that is
 * the carried accumulator times a factor computed after another dot of the body (whose
 * wait_group 0 then also finishes the previous iteration's dot). Returns that carried value,
 * or -1. The multiply then writes into the carried registers (g->inplace), so the dot can stay
 * in flight across iterations as Triton's does: nothing touches its registers before that
 * wait, and no copy of them is needed at the loop's end. */
static int rescaled_acc(G *g, const Region *b, const bool *late, int c) {
    const Inst *m = g->def[c];
    int pos;
    if (!m || m->op != OP_MUL || !in_body(b, m, &pos) || g->uses[c] != 1) return -1;
    for (int k = 0; k < 2; k++) {
        int x = m->args[k], s = m->args[1 - k];
        if (param_index(b, x) > 0 && g->uses[x] == 1 && g->f->types[x].dt == DT_FP32 && s >= 0 && late[s])
            return x;
    }
    return -1;
}

/* 32-bit registers per thread that stay live while wgmma dot d is in flight into the next
 * iteration: its accumulator, its A operand when that is held in registers (flash attention's
 * P), and the results of the body's other tensor-core dots, computed meanwhile. Above
 * DEFER_MAX_REGS the dot is waited for in its own iteration, as Triton does: attention's
 * forward at head_dim 128, 128x128 on 4 warps (320) spills 7.7 KB in flight and 3.6 KB
 * waited for (ptxas -v, sm_90a); at 256 and below (head_dim 64 at 128x128, head_dim 128 at
 * 128x64, both on 4 warps) leaving it in flight spills less. */
#define DEFER_MAX_REGS 256

static int64_t words(const IrFunc *f, int v) {
    return type_numel(f->types[v]) * dt_size(f->types[v].dt) / 4;
}

static int defer_regs(G *g, const Region *b, const Inst *d) {
    int64_t r = words(g->f, d->res[0]);
    const Inst *a = g->def[d->args[0]];
    int pos;
    if (a && a->op == OP_PERMUTE) a = g->def[a->args[0]];
    if (!a || a->op != OP_LOAD || !in_body(b, a, &pos)) r += words(g->f, d->args[0]);
    for (int i = 0; i < b->ninsts; i++)
        if (b->insts[i] != d && b->insts[i]->op == OP_DOT) r += words(g->f, b->insts[i]->res[0]);
    return (int)(r / (32 * g->nw));
}

/* Whether every use of loaded tile v in body b is a wgmma operand read from shared memory
 * where the pipeliner puts it: A or B as loaded, or B through its transpose (the backward
 * of flash attention reads do so, twice); with the tile copied transposed (tr), B only;
 * two uses at most (checked on the H200: bench/results/gpu-2026-12-02.md §13). */
static bool multi_use_ok(G *g, const Region *b, int v, bool tr) {
    if (g->uses[v] > 2) return false;
    int found = 0;
    for (int i = 0; i < b->ninsts; i++) {
        const Inst *x = b->insts[i];
        for (int k = 0; k < x->nargs; k++) {
            if (x->args[k] != v) continue;
            found++;
            const Inst *d = x;
            int at = k;
            if (x->op == OP_PERMUTE) {   /* its one use: a dot's B */
                if (x->attr.perm[0] != 1 || g->f->types[v].rank != 2 || g->uses[x->res[0]] != 1) return false;
                d = NULL;
                for (int j = i + 1; j < b->ninsts && !d; j++)
                    for (int q = 0; q < 2; q++)
                        if (b->insts[j]->op == OP_DOT && b->insts[j]->args[q] == x->res[0]) d = b->insts[j], at = q;
                if (!d || at != 1) return false;
            }
            if (d->op != OP_DOT || at > 1 || (tr && at != 1) || g->pref[d->res[0]] < 0 || !g->lays[g->pref[d->res[0]]].mma ||
                mma_kind(g, d) < 0 || mma_kind(g, d) == MMA_F8 || !wg_inst_n(g, d, mma_kind(g, d)))
                return false;
        }
    }
    return found == g->uses[v];
}

/* The plan for loop `in`, or false when nothing in it is pipelined. */
bool pipe_plan(G *g, const Inst *in, Pipe **out) {
    int S = in->attr.i > 0 ? (int)in->attr.i : g->num_stages;
    if (S <= 1 || !(g->ti->features & TF_CP_ASYNC)) return false;
    const Region *b = in->regions[0];
    const IrFunc *f = g->f;
    Pipe *p = arena_alloc(g->a, sizeof *p);
    memset(p, 0, sizeof *p);
    p->D = S - 1;
    bool *inP = arena_alloc(g->a, (size_t)b->ninsts + 1);
    const bool *late = after_dots(g, b);
    p->carried = arena_alloc(g->a, (size_t)b->nparams + 1);
    memset(inP, 0, (size_t)b->ninsts + 1);
    memset(p->carried, 0, (size_t)b->nparams + 1);
    int off = 0;
    for (int i = 0; i < b->ninsts && p->nld < PIPE_MAXLD; i++) {
        const Inst *d = b->insts[i];
        if (d->op != OP_DOT || g->pref[d->res[0]] < 0 || !g->lays[g->pref[d->res[0]]].mma || mma_kind(g, d) < 0)
            continue;
        if (wg_inst_n(g, d, mma_kind(g, d))) {
            p->wgmma = true;
            /* acc = dot(a, b, acc) carried by the loop and used nowhere else: the next
             * iteration may start before it finishes, as Triton's wait_group 1. A folded
             * `acc += dot(a, b)` (mma_fold) too: its sum is the dot's result, yielded */
            int c = g->fold_acc[d->res[0]] >= 0 ? g->fold_acc[d->res[0]] : d->args[2];
            int scaled = rescaled_acc(g, b, late, c);
            if (scaled >= 0) c = scaled;
            int pi = param_index(b, c);
            const Inst *y = b->ninsts ? b->insts[b->ninsts - 1] : NULL;
            int out = pi > 0 && y && y->op == OP_YIELD && pi - 1 < y->nargs ? y->args[pi - 1] : -1;
            bool yielded = out == d->res[0] || (out >= 0 && g->fold_alias[out] == d->res[0] && g->uses[out] == 1);
            /* not from a tile a direct load may copy into again (tma.c; a late one's is
             * copied once, before any loop) */
            bool again = (g->tma_direct[d->args[0]] && !g->tma_late[d->args[0]]) ||
                         (g->tma_direct[d->args[1]] && !g->tma_late[d->args[1]]);
            if (!p->defer && yielded && !again &&
                g->uses[c] == 1 && g->uses[d->res[0]] == 1 && f->types[d->res[0]].dt == DT_FP32 &&
                defer_regs(g, b, d) <= DEFER_MAX_REGS) {
                p->defer = d;
                if (scaled >= 0) g->inplace[d->args[2]] = c;
            }
        }
        for (int k = 0; k < 2 && p->nld < PIPE_MAXLD; k++) {
            int v = d->args[k], use = v;
            const Inst *ld = g->def[v];
            int pos;
            /* wgmma's B given as a loaded tile's transpose (attention's k.T): the tile as
             * loaded is B K-major, which wgmma reads without its transpose */
            bool kmaj = false;
            if (k == 1 && ld && ld->op == OP_PERMUTE && ld->attr.perm[0] == 1 &&
                f->types[v].rank == 2 && g->uses[v] == 1 && in_body(b, ld, &pos) &&
                wg_inst_n(g, d, mma_kind(g, d))) {
                v = ld->args[0];
                ld = g->def[v];
                kmaj = true;
            }
            if (!ld || ld->op != OP_LOAD || !in_body(b, ld, &pos)) continue;
            bool multi = g->uses[v] > 1;
            if (multi && g->piped[v]) {   /* planned for an earlier dot: this one reads it too */
                for (int j = 0; j < p->nld; j++)
                    if (p->ld[j] == ld)   /* a copy transposed is K-major as loaded */
                        p->use2[j] = use, p->kmaj2[j] = kmaj != p->tr[j], g->piped[use] = true;
                continue;
            }
            /* a B tile contiguous along K (b_tr) is copied into its transpose: fp8 wgmma reads
             * B only K-major (one copied as loaded, [K][N], would not do, and operands()
             * stages it transposed from registers instead); 16-bit B as loaded, or its
             * transpose read by a second dot (the attention backward's qT, kT) */
            bool tr = false;
            if (k == 1 && !kmaj && b_tr(g, d)) tr = kmaj = true;
            else if (k == 1 && !kmaj && mma_kind(g, d) == MMA_F8 && wg_inst_n(g, d, MMA_F8)) continue;
            if (multi && !multi_use_ok(g, b, v, tr)) continue;
            if (g->tma_direct[v]) continue;                           /* TMA's (tma.c) */
            bool tma = g->tma_ring[v] && wg_inst_n(g, d, mma_kind(g, d)) && mma_kind(g, d) != MMA_F8;
            if (ld->attr.kind & 1) continue;                          /* volatile */
            if (ld->args[2] >= 0 && !is_zero_const(g, ld->args[2])) continue;
            int esz = dt_size(f->types[v].dt);
            int L = res_lay(g, v);
            if (tr) {
                L = tr_layout(g, v);   /* the pointers' too (seed_region) */
                if (cp_vec(g, L, ld, true) * esz < 4) continue;
            } else if (kmaj || multi) {
                /* the tile never lives in registers: copy it in a layout of 16-byte runs
                 * along its rows rather than the one the transpose asked of the load */
                Type lt = f->types[v];
                Layout Lx;
                lay_default(&Lx, lt.rank, lt.shape, g->nwbits, lg2i(16 / esz));
                L = lay_id(g, &Lx);
            }
            if (!tma && !tr && cp_vec(g, L, ld, false) * esz < 4) continue;
            /* the address computation must be redoable ahead of time: a TMA copy's is the
             * block's offsets */
            int a0 = tma ? 4 : 0, a1 = tma ? 5 : 1;
            if (!closure_of(g, b, ld->args[a0], ld->args[a1], inP, p->carried)) continue;
            Type t = f->types[v];
            p->tr[p->nld] = tr;
            p->trnb[p->nld] = (int8_t)(tr ? lg2i(t.shape[1]) : 0);
            p->trkb[p->nld] = (int8_t)(tr ? lg2i(t.shape[0]) : 0);
            p->tile[p->nld] = tile_of(type_numel(t), t.shape[tr ? 0 : t.rank - 1], esz, off);
            p->off[p->nld] = off;
            off += (int)((tile_bytes(&p->tile[p->nld]) + 1023) & ~1023);
            g->piped[v] = true;
            g->piped[use] = true;
            p->use[p->nld] = use;
            p->lay[p->nld] = L;
            p->kmaj[p->nld] = kmaj;
            p->use2[p->nld] = 0;
            p->tma[p->nld] = tma;
            p->ntma += tma;
            p->tma_bytes += tma ? (int)tile_bytes(&p->tile[p->nld]) : 0;
            p->ld[p->nld++] = ld;
        }
    }
    if (!p->nld) return false;
    /* the body's other loads of 32-bit elements whose addresses can be computed ahead (the
     * attention backward's m and delta): into the ring too, and read back into registers
     * where they stand (pipe_load), as Triton's pipeliner does, rather than waited for from
     * global memory in each iteration. Each thread reads back what it copied. */
    for (int i = 0; i < b->ninsts && p->nld < PIPE_MAXLD; i++) {
        const Inst *ld = b->insts[i];
        if (ld->op != OP_LOAD || ir_desc_rank(ld) || (ld->attr.kind & 1)) continue;
        int v = ld->res[0];
        Type t = f->types[v];
        if (g->piped[v] || t.rank == 0 || dt_size(t.dt) != 4) continue;
        if (ld->args[2] >= 0 && !is_zero_const(g, ld->args[2])) continue;
        if (!closure_of(g, b, ld->args[0], ld->args[1], inP, p->carried)) continue;
        p->tile[p->nld] = tile_of(type_numel(t), t.shape[t.rank - 1], 4, off);
        p->off[p->nld] = off;
        off += (int)((tile_bytes(&p->tile[p->nld]) + 15) & ~15);
        g->ring_load[v] = p;
        p->use[p->nld] = v;
        p->lay[p->nld] = res_lay(g, v);
        p->ld[p->nld++] = ld;
    }
    off = (off + 1023) & ~1023;   /* each slot's tiles on their swizzle atoms */
    p->slot_bytes = off;
    /* a tensor-core dot's operand computed before the loop (attention's q): stored into
     * shared memory once, before the loop, rather than in every iteration from registers
     * held throughout it */
    int inv_bytes = 0;
    for (int i = 0; !g->no_inv && i < b->ninsts; i++) {
        const Inst *d = b->insts[i];
        if (d->op != OP_DOT || g->pref[d->res[0]] < 0 || !g->lays[g->pref[d->res[0]]].mma) continue;
        for (int k = 0; k < 2 && p->ninv < PIPE_MAXLD; k++) {
            int v = d->args[k], pos;
            if (g->piped[v] || !g->def[v] || in_body(b, g->def[v], &pos) || param_index(b, v) >= 0 ||
                g->tma_direct[v])   /* in a tile of its own already (tma.c) */
                continue;
            bool dup = false;
            for (int j = 0; j < p->ninv; j++) dup |= p->inv[j] == v;
            if (dup) continue;
            Type t = f->types[v];
            p->inv[p->ninv] = v;
            /* staged there by a loop that always runs before this one: one earlier in the
             * same region (lowered in order), not one in a branch that may not run */
            p->inv_staged[p->ninv] = g->inv_kept[v] >= 0 &&
                                     region_of(g->f->body, g->kept_by[v]) == region_of(g->f->body, in);
            if (g->inv_kept[v] < 0 && (g->unverified & GPU_UNV_INVSHARE) && !g->no_kept &&
                g->uses[v] > uses_in(b, v)) {
                /* read after this loop too (the causal attention backward's k and v, by its
                 * second loop): staged once into an area nothing else uses, so that the
                 * registers need not hold it through this loop for the next one */
                g->inv_kept[v] = g->kept_bytes;
                g->kept_by[v] = in;
                g->kept_bytes += (int)((type_numel(t) * dt_size(t.dt) + 1023) & ~1023);
                if (!g->kept) g->kept = nr(g, CR);
            }
            int at = g->inv_kept[v] >= 0 ? g->inv_kept[v] : inv_bytes;
            p->inv_off[p->ninv] = at;
            p->inv_tile[p->ninv] = tile_of(type_numel(t), t.shape[t.rank - 1], dt_size(t.dt), at);
            if (g->inv_kept[v] < 0) inv_bytes += (int)((tile_bytes(&p->inv_tile[p->ninv]) + 1023) & ~1023);
            p->ninv++;
            g->used_inv = true;
        }
    }
    p->P = arena_alloc(g->a, sizeof(Inst *) * (size_t)(b->ninsts + 1));
    for (int i = 0; i < b->ninsts; i++)
        if (inP[i]) p->P[p->nP++] = b->insts[i];
    /* a wgmma left in flight reads its operands during the next iteration: only from the
     * ring or the loop-invariant tiles (a late direct load's too), never from the scratch
     * area the next iteration stages into. Or an A computed after another dot of the body (attention's p), when the
     * other dots' operands are all held: the next iteration writes its registers (or stages
     * it) only after that dot's wait_group 0, which also waits for this one */
    bool held_all = true;
    for (int i = 0; i < b->ninsts; i++) {
        const Inst *d = b->insts[i];
        if (d->op != OP_DOT || d == p->defer) continue;
        for (int k = 0; k < 2; k++) {
            bool h = g->piped[d->args[k]] || g->tma_late[d->args[k]];
            for (int j = 0; j < p->ninv; j++) h |= p->inv[j] == d->args[k];
            held_all &= h;
        }
    }
    for (int k = 0; p->defer && k < 2; k++) {
        int v = p->defer->args[k];
        bool held = g->piped[v] || g->tma_late[v] || (k == 0 && held_all && late[v]);
        for (int j = 0; j < p->ninv; j++) held |= p->inv[j] == v;
        if (!held) p->defer = NULL;
    }
    if (!p->defer)   /* no rescaling in place either */
        for (int i = 0; i < b->ninsts; i++)
            if (b->insts[i]->nres) g->inplace[b->insts[i]->res[0]] = -1;
    /* a wgmma in flight over a ring of cp.async copies: with one slot more, the slot to refill
     * at the iteration's top is the one read two iterations back, which the top's bar.sync
     * already shows done (each warp waited for it with its wait_group 1), so the iteration
     * meets once, not again before the refill. Taken where the programs per SM stay as many
     * (gpu_compile): tutorial 03's matmul at 128x128x32 on 4 warps, 3 stages, went from 1.008
     * to 1.073 of Triton's (bench/results/gpu-2026-12-03.md §9). The check's register
     * estimate is defer_regs's: the accumulators and an A operand held in registers
     * (attention's p); from the accumulators alone it kept the slot from pointer-based
     * attention where registers already allowed no more programs (tests/kernels/flash_fwd.py
     * at 64x64 on 4 warps, 2 stages: 0.98 to 1.34 of Triton's, §10) */
    p->top = p->defer && p->ntma == 0 && !g->no_top;
    if (p->top) {
        int regs = defer_regs(g, b, p->defer);
        const Inst *first = NULL;
        for (int i = 0; i < b->ninsts && !first; i++)
            if (b->insts[i]->op == OP_DOT) first = b->insts[i];
        /* With the copies two iterations ahead, a body whose first dot waits (attention's
         * q @ k.T) issues it before the refill, and the tensor cores start sooner: flash_fwd.py
         * at head_dim 128, 128x64, 8 warps, 3 stages went from 0.95 to 0.98 of Triton's.
         * Not one iteration ahead (128x128 on 8 warps, 2 stages: 1.28 to 1.18), nor with one
         * dot, in flight at the top (tutorial 03's matmul, 1.07 to 1.03; §10) */
        p->top_late = p->D >= 2 && first != p->defer;
        g->used_top = true;
        if (off > g->top_bytes) g->top_bytes = off;
        if (regs > g->top_regs) g->top_regs = regs;
    }
    p->nslots = p->D + (p->defer ? 1 : 0) + (p->top ? 1 : 0);
    if (p->D + 1 > g->piped_stages) g->piped_stages = p->D + 1;
    int64_t ring = (int64_t)p->nslots * off + inv_bytes;
    if (ring > g->ring_bytes) g->ring_bytes = (int)ring;
    if (!g->ring) g->ring = nr(g, CR);
    need(g, TF_CP_ASYNC);
    if (p->ntma) {   /* the slots' barriers, placed and initialised by tma_finish */
        if (!g->ring_mbar) g->ring_mbar = nr(g, CR), g->ring_phase = nr(g, CR);
        if (p->nslots > g->ring_mbar_n) g->ring_mbar_n = p->nslots;
        p->ringfree = p->ntma == p->nld;
        p->counted = p->ringfree && g->nw > 4;
        if (p->counted && !g->ring_free) g->ring_free = nr(g, CR);
    }
    for (int j = 0; j < p->nld; j++) {
        Layout L = g->lays[p->lay[j]].L;
        int nb = p->trnb[j], kb = p->trkb[j];
        int8_t tb[10];
        for (int q = 0; q < 5; q++) tb[q] = (int8_t)tr_bit(L.lane[q], nb, kb);
        for (int q = 0; q < 5; q++) tb[5 + q] = (int8_t)(q < L.nwarp ? tr_bit(L.warp[q], nb, kb) : -1);
        addr_init(&p->addr[j], thread_off(g, tb, 5 + L.nwarp, &p->tile[j]), &p->tile[j], 0);
    }
    *out = p;
    return true;
}

/* issues the pipelined loads for the bindings now in g->vr into slot `slot` at `base`, valid
 * only where `ok` (a predicate register, 0: always): TMA's by thread 0, completing on the
 * slot's barrier, then the cp.async ones */
static void issue(G *g, Pipe *p, int slot, int base, int ok) {
    const IrFunc *f = g->f;
    char ab[48];
    if (p->ntma) {   /* the first copy arms the slot's barrier with all of their bytes */
        int mb = nr(g, CR), arm = p->tma_bytes;
        E(g, "mad.lo.u32 %s, %s, 8, %s;", rn(g, mb), rn(g, slot), rn(g, g->ring_mbar));
        for (int j = 0; j < p->nld; j++)
            if (p->tma[j]) tma_ring_copy(g, p->ld[j], base, p->off[j], mb, ok, arm), arm = 0;
    }
    if (p->ntma == p->nld) return;
    for (int j = 0; j < p->nld; j++) {
        if (p->tma[j]) continue;
        const Inst *ld = p->ld[j];
        int v = ld->res[0];
        int L = p->lay[j];
        Layout Lo = g->lays[L].L;
        int n = nlay(g, L);
        int *P = get(g, ld->args[0], L);
        int *M = ld->args[1] >= 0 ? get(g, ld->args[1], L) : NULL;
        int esz = dt_size(f->types[v].dt);
        int nb = p->trnb[j], kb = p->trkb[j];
        int vec = cp_vec(g, L, ld, p->tr[j]);
        int bytes = vec * esz;
        /* an element that several threads hold (the backward's m and delta in a slice of the
         * dot's layout) is copied by one of them: the others' copies wrote the same bytes, and
         * the ncu of bench/results/gpu-2026-12-03.md §8 counted them as bank conflicts. The
         * bar.sync after the wait (pipe_begin) shows the copy to the other holders. */
        int u = tred(g, L);
        char up[16] = "";
        if (u) snprintf(up, sizeof up, "@%s ", rn(g, u));
        p->addr[j].base = base;
        for (int r = 0; r < n; r += vec) {
            int64_t c = swz(&p->tile[j], tr_flat(lay_reg_flat(&Lo, r), nb, kb));
            const char *ad = addr_at(g, &p->addr[j], c, ab, sizeof ab);
            int pr = M ? M[r] : 0;
            if (pr && ok) {
                int q = nr(g, CP);
                E(g, "and.pred %s, %s, %s;", rn(g, q), rn(g, pr), rn(g, ok));
                pr = q;
            } else if (ok) pr = ok;
            if (pr) {
                int sz = nr(g, CR);
                E(g, "selp.u32 %s, %d, 0, %s;", rn(g, sz), bytes, rn(g, pr));
                E(g, "%scp.async.%s.shared.global [%s], [%s], %d, %s;", up, bytes == 16 ? "cg" : "ca", ad,
                  rn(g, P[r]), bytes, rn(g, sz));
            } else {
                E(g, "%scp.async.%s.shared.global [%s], [%s], %d;", up, bytes == 16 ? "cg" : "ca", ad,
                  rn(g, P[r]), bytes);
            }
        }
    }
    E(g, "cp.async.commit_group;");
}

/* Splits P into what the loads need and the steps of the carried values (p->first), and
 * finds the pointer tiles kept as a base plus one offset (ptrbase). */
static void split_steps(G *g, Pipe *p, const Inst *in) {
    const Region *b = in->regions[0];
    int nv = g->f->nvalues;
    bool *need = arena_alloc(g->a, (size_t)nv);
    for (int j = 0; j < p->nld; j++)
        for (int k = 0; k < p->ld[j]->nargs; k++)
            if (p->ld[j]->args[k] >= 0) need[p->ld[j]->args[k]] = true;
    p->first = arena_alloc(g->a, (size_t)(p->nP + 1));
    for (int i = p->nP - 1; i >= 0; i--) {
        const Inst *x = p->P[i];
        for (int k = 0; k < x->nres; k++) p->first[i] |= need[x->res[k]];
        for (int k = 0; p->first[i] && k < x->nargs; k++)
            if (x->args[k] >= 0) need[x->args[k]] = true;
    }
    /* ptrbase: a carried pointer tile whose step is `p + splat(s)`, s with a byte offset
     * computed before the loop (loop_steps), is kept as the tile it started from plus one
     * carried offset: each
     * iteration adds the offset into fresh registers for the copies, as Triton's loop does,
     * so no pointer a copy has just read is rewritten (long scoreboard), and the step is one
     * add of two registers, which ptxas cannot turn back into a multiply (IMAD.WIDE): on the
     * H200, the tutorial matmul's loop went from 321,625 cycles to Triton's 295,000
     * (bench/results/gpu-2026-12-02.md §10) */
    p->pb_step = arena_alloc(g->a, sizeof(int) * (size_t)(b->nparams + 1));
    p->pb_off = arena_alloc(g->a, sizeof(int) * (size_t)(b->nparams + 1));
    p->pb_skip = arena_alloc(g->a, (size_t)(p->nP + 1));
    const Inst *y = b->ninsts ? b->insts[b->ninsts - 1] : NULL;
    if (!y || y->op != OP_YIELD) return;
    for (int j = 1; j < b->nparams && j - 1 < y->nargs; j++) {
        int v = y->args[j - 1];
        const Inst *d = p->carried[j] && v >= 0 ? g->def[v] : NULL;
        if (!d || d->op != OP_ADDPTR || d->args[0] != b->params[j]) continue;
        int s = offset_scalar(g, d->args[1]), at = -1;
        if (s < 0 || !g->step[s] || g->step_esz[s] != dt_size(g->f->types[v].elem)) continue;
        bool other = false;   /* the stepped tile read by another instruction of P */
        for (int i = 0; i < p->nP; i++) {
            if (p->P[i] == d) at = i;
            for (int k = 0; p->P[i] != d && k < p->P[i]->nargs; k++) other |= p->P[i]->args[k] == v;
        }
        if (at < 0 || p->first[at] || other) continue;
        p->pb_step[j] = g->step[s];
        p->pb_skip[at] = true;
    }
}

/* Lowers P again for induction value `iv` with the carried values in p->ahead: issues the
 * loads into the slot at `base`, valid where `ok`, then advances p->ahead by one iteration
 * (after the copies: a pointer rewritten before them would wait for the copy reading it). */
static void prefetch(G *g, Pipe *p, const Inst *in, int iv, int slot, int base, int ok) {
    const Region *b = in->regions[0];
    const IrFunc *f = g->f;
    int nv = f->nvalues;
    /* save the current bindings of everything P touches */
    int **svr = arena_alloc(g->a, sizeof(int *) * (size_t)nv);
    int *svl = arena_alloc(g->a, sizeof(int) * (size_t)nv);
    memcpy(svr, g->vr, sizeof(int *) * (size_t)nv);
    memcpy(svl, g->vlay, sizeof(int) * (size_t)nv);
    int *ivr = alloc_regs(g, 1);
    ivr[0] = iv;
    set_val(g, b->params[0], 0, ivr);
    g->relow[b->params[0]] = true;
    for (int j = 1; j < b->nparams; j++)
        if (p->carried[j]) {
            int lay = svl[b->params[j]], *regs = p->ahead[j];
            if (p->pb_step[j]) {   /* the pointers it started from, plus the offset reached */
                int n = nlay(g, lay);
                regs = alloc_regs(g, n);
                for (int i = 0; i < n; i++) {
                    regs[i] = nr(g, CD);
                    E(g, "add.s64 %s, %s, %s;", rn(g, regs[i]), rn(g, p->ahead[j][i]), rn(g, p->pb_off[j]));
                }
            }
            set_val(g, b->params[j], lay, regs);
            g->relow[b->params[j]] = true;
        }
    for (int i = 0; i < p->nP; i++)
        for (int k = 0; k < p->P[i]->nres; k++) g->relow[p->P[i]->res[k]] = true;
    int depth = g->relow_depth;
    g->relow_depth = g->depth + 1;
    scope_enter(g);
    for (int i = 0; i < p->nP; i++)
        if (p->first[i]) lower_inst(g, p->P[i]);
    issue(g, p, slot, base, ok);
    for (int i = 0; i < p->nP; i++)
        if (!p->first[i] && !p->pb_skip[i]) lower_inst(g, p->P[i]);
    /* the carried values one iteration further */
    const Inst *y = b->insts[b->ninsts - 1];
    int cnt = 0;
    for (int j = 1; j < b->nparams; j++) {
        cnt += p->carried[j] && !p->pb_step[j];
        if (p->pb_step[j])
            E(g, "add.s64 %s, %s, %s;", rn(g, p->pb_off[j]), rn(g, p->pb_off[j]), rn(g, p->pb_step[j]));
    }
    int **dst = arena_alloc(g->a, sizeof(int *) * (size_t)(cnt + 1));
    int **src = arena_alloc(g->a, sizeof(int *) * (size_t)(cnt + 1));
    int *ns = arena_alloc(g->a, sizeof(int) * (size_t)(cnt + 1));
    int c = 0;
    for (int j = 1; j < b->nparams; j++)
        if (p->carried[j] && !p->pb_step[j]) {
            int lay = svl[b->params[j]];
            dst[c] = p->ahead[j];
            src[c] = get(g, y->args[j - 1], lay);
            ns[c] = nlay(g, lay);
            c++;
        }
    par_copy(g, dst, src, ns, c);
    scope_leave(g);
    g->relow_depth = depth;
    memset(g->relow, 0, (size_t)nv);
    memcpy(g->vr, svr, sizeof(int *) * (size_t)nv);
    memcpy(g->vlay, svl, sizeof(int) * (size_t)nv);
}

static int slot_base(G *g, Pipe *p, int slot) {
    int r = nr(g, CR);
    E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, r), rn(g, slot), p->slot_bytes, rn(g, g->ring));
    return r;
}

/* before the loop: the first D iterations' loads; carried params start at their inits */
void pipe_prologue(G *g, Pipe *p, const Inst *in, int lb, int ub, int st, int ivdt) {
    const Region *b = in->regions[0];
    /* the ring may share its bytes with the scratch area (gpu_compile): nobody may still be
     * reading a conversion there when the first copies land (TMA's: through the async proxy) */
    if (p->ntma) E(g, "fence.proxy.async.shared::cta;");
    E(g, "bar.sync 0;");
    g->ring_live++;
    split_steps(g, p, in);
    p->ahead = arena_alloc(g->a, sizeof(int *) * (size_t)(b->nparams + 1));
    for (int j = 1; j < b->nparams; j++) {
        if (!p->carried[j]) continue;
        int v = b->params[j];
        int lay = g->vlay[v];
        int n = nlay(g, lay);
        p->ahead[j] = alloc_regs(g, n);
        for (int i = 0; i < n; i++) {
            p->ahead[j][i] = nr(g, RCLS(g->vr[v][i]));
            mov(g, p->ahead[j][i], g->vr[v][i]);
        }
        if (p->pb_step[j]) {
            p->pb_off[j] = nr(g, CD);
            E(g, "mov.u64 %s, 0;", rn(g, p->pb_off[j]));
        }
    }
    if (p->ninv) {   /* the loop-invariant operands, once */
        p->inv_base = nr(g, CR);
        E(g, "add.u32 %s, %s, %d;", rn(g, p->inv_base), rn(g, g->ring), p->nslots * p->slot_bytes);
        for (int j = 0; j < p->ninv; j++)
            if (!p->inv_staged[j])
                stage_at(g, p->inv[j], &p->inv_tile[j], g->inv_kept[p->inv[j]] >= 0 ? g->kept : p->inv_base);
        if (p->wgmma) E(g, "fence.proxy.async.shared::cta;");
    }
    const char *it = ity(ivdt);
    int cls = dcls(ivdt);
    p->slot = nr(g, CR);
    for (int d = 0; d < p->D; d++) {
        int iv = nr(g, cls), ok = nr(g, CP);
        E(g, "mul.lo.%s %s, %s, %d;", it, rn(g, iv), rn(g, st), d);
        E(g, "add.%s %s, %s, %s;", it, rn(g, iv), rn(g, iv), rn(g, lb));
        E(g, "setp.lt.%s %s, %s, %s;", it, rn(g, ok), rn(g, iv), rn(g, ub));
        E(g, "mov.u32 %s, %d;", rn(g, p->slot), d);
        prefetch(g, p, in, iv, p->slot, slot_base(g, p, p->slot), ok);
    }
    E(g, "mov.u32 %s, 0;", rn(g, p->slot));
}

static void refill(G *g, Pipe *p);

/* at the top of an iteration: wait for its slot and point the dot's operands at it */
void pipe_begin(G *g, Pipe *p, const Inst *in, int iv, int ub, int st, int ivdt) {
    p->loop = in, p->iv = iv, p->ub = ub, p->st = st, p->ivdt = ivdt;
    p->depth = g->depth;
    p->refilled = false;
    if (p->ntma) tma_ring_wait(g, p->slot);
    if (p->ntma < p->nld) {
        E(g, "cp.async.wait_group %d;", p->D - 1);
        E(g, "bar.sync 0;");
    }
    if (p->top && !p->top_late) {
        refill(g, p);
        p->refilled = true;
    }
    g->pipe_top = p->top && !p->refilled ? p : NULL;
    int base = slot_base(g, p, p->slot);
    for (int j = 0; j < p->nld; j++)
        for (int u = 0; u < 2; u++) {
            int v = u ? p->use2[j] : p->use[j];
            if (u && !v) continue;
            g->smop_base[v] = base;
            g->smop_off[v] = p->off[j];
            g->smop_kmaj[v] = u ? p->kmaj2[j] : p->kmaj[j];
        }
    for (int j = 0; j < p->ninv; j++) {
        g->smop_base[p->inv[j]] = g->inv_kept[p->inv[j]] >= 0 ? g->kept : p->inv_base;
        g->smop_off[p->inv[j]] = p->inv_off[j];
    }
    p->base = base;
    g->defer = p->defer;
    /* a TMA ring with a spare slot is refilled as soon as the slot is free (pipe_waited) */
    g->pipe_early = p->ringfree && p->nslots != p->D ? p : NULL;
}

/* A load the plan put in the ring for registers (ring_load): each thread reads back, in the
 * layout it copied in, the elements it copied, so its own wait_group covers them */
bool pipe_load(G *g, const Inst *ld) {
    Pipe *p = g->ring_load[ld->res[0]];
    if (!p) return false;
    int j = 0;
    while (p->ld[j] != ld) j++;
    int L = p->lay[j];
    Layout Lo = g->lays[L].L;
    int n = nlay(g, L), vec = cp_vec(g, L, ld, false);
    int *out = alloc_regs(g, n);
    char ab[48], list[128];
    p->addr[j].base = p->base;
    for (int r = 0; r < n; r += vec) {
        const char *ad = addr_at(g, &p->addr[j], swz(&p->tile[j], lay_reg_flat(&Lo, r)), ab, sizeof ab);
        size_t o = 0;
        for (int k = 0; k < vec; k++) {
            out[r + k] = nr(g, CR);
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", k ? ", " : "", rn(g, out[r + k]));
        }
        if (vec == 1) E(g, "ld.shared.b32 %s, [%s];", list, ad);
        else E(g, "ld.shared.v%d.b32 {%s}, [%s];", vec, list, ad);
    }
    set_val(g, ld->res[0], L, out);
    return true;
}

/* A warp done reading slot ws of a TMA ring: one arrival on its release counter (lane 0,
 * acquire-release, so that every warp's reads come before the refill); the warp whose arrival
 * makes the count a multiple of the warps, the last one done, gets a warp-uniform true. No
 * warp waits for another here: a CTA-wide bar.sync at every iteration's end kept the two
 * warpgroups of an 8-warp attention in step, neither computing its softmax while the other
 * used the tensor cores (at head_dim 128 this is 2.8% faster; the bar.sync simply left out,
 * racing, 10%: bench/results/gpu-2026-12-03.md §6). One warpgroup is in step anyway (its
 * wgmma is collective), and there the counter's fenced atomic cost more than a bar.sync:
 * tutorial 06's forward on 4 warps ran 2-10% faster with the bar.sync (§9). */
static int last_warp_done(G *g, int ws) {
    int lane0 = nr(g, CP), l = nr(g, CR), a = nr(g, CR), old = nr(g, CR), last = nr(g, CP);
    E(g, "bar.warp.sync -1;");
    E(g, "and.b32 %s, %s, 31;", rn(g, l), rn(g, g->tid));
    E(g, "setp.eq.u32 %s, %s, 0;", rn(g, lane0), rn(g, l));
    E(g, "mad.lo.u32 %s, %s, 4, %s;", rn(g, a), rn(g, ws), rn(g, g->ring_free));
    E(g, "mov.u32 %s, 0;", rn(g, old));
    E(g, "@%s atom.acq_rel.cta.shared.add.u32 %s, [%s], 1;", rn(g, lane0), rn(g, old), rn(g, a));
    E(g, "shfl.sync.idx.b32 %s, %s, 0, 31, -1;", rn(g, old), rn(g, old));
    E(g, "and.b32 %s, %s, %d;", rn(g, old), rn(g, old), g->nw - 1);
    E(g, "setp.eq.u32 %s, %s, %d;", rn(g, last), rn(g, old), g->nw - 1);
    return last;
}

/* refills the slot of iteration i + D: the one this iteration read, or with a spare slot the
 * one iteration i - 1 read (its wgmma has finished) */
static void refill(G *g, Pipe *p) {
    const char *it = ity(p->ivdt);
    int cls = dcls(p->ivdt);
    int ws = p->slot;
    if (p->nslots != p->D) {
        int q = nr(g, CP), t = nr(g, CR);
        ws = nr(g, CR);
        E(g, "add.u32 %s, %s, %d;", rn(g, ws), rn(g, p->slot), p->D);
        E(g, "setp.ge.u32 %s, %s, %d;", rn(g, q), rn(g, ws), p->nslots);
        E(g, "sub.u32 %s, %s, %d;", rn(g, t), rn(g, ws), p->nslots);
        E(g, "selp.u32 %s, %s, %s, %s;", rn(g, ws), rn(g, t), rn(g, ws), rn(g, q));
    }
    /* every thread is done with it: a TMA ring's last warp refills it, else all meet first */
    if (p->counted) g->issue_warp = last_warp_done(g, ws);
    else if (!p->top) E(g, "bar.sync 0;");
    int ivn = nr(g, cls), ok = nr(g, CP);
    E(g, "mul.lo.%s %s, %s, %d;", it, rn(g, ivn), rn(g, p->st), p->D);
    E(g, "add.%s %s, %s, %s;", it, rn(g, ivn), rn(g, ivn), rn(g, p->iv));
    E(g, "setp.lt.%s %s, %s, %s;", it, rn(g, ok), rn(g, ivn), rn(g, p->ub));
    prefetch(g, p, p->loop, ivn, ws, slot_base(g, p, ws), ok);
    g->issue_warp = 0;
}

/* After a wgmma.wait_group among the body's own instructions: the dot iteration i - 1 left in
 * flight has finished (wait_group 0 waits for all; 1 follows this iteration's own deferred
 * dot), so the spare slot it read is free now rather than at the iteration's end. Refilling
 * it here gives the copies the rest of the iteration (attention's softmax and P @ V) to land
 * in. At 2 stages, refilled at the end, they were waited for at the next iteration's top with
 * nothing between: tutorial 06's forward at head_dim 64, 64x64 tiles, went from 0.88 to 0.99
 * of Triton's (bench/results/gpu-2026-12-03.md §7). */
void pipe_waited(G *g) {
    Pipe *p = g->pipe_early;
    if (!p || p->refilled || g->depth != p->depth) return;
    p->refilled = true;
    refill(g, p);
}

/* After the body's first wgmma is issued: a ring with the top's extra slot is refilled while
 * the tensor cores work */
void pipe_issued(G *g) {
    Pipe *p = g->pipe_top;
    if (!p || p->refilled || g->depth != p->depth) return;
    p->refilled = true;
    refill(g, p);
}

/* at the end of an iteration: refill (unless pipe_waited did) and step to the next slot */
void pipe_end(G *g, Pipe *p) {
    if (!p->refilled) refill(g, p);
    g->pipe_early = NULL;
    g->pipe_top = NULL;
    int q = nr(g, CP);
    E(g, "add.u32 %s, %s, 1;", rn(g, p->slot), rn(g, p->slot));
    E(g, "setp.ge.u32 %s, %s, %d;", rn(g, q), rn(g, p->slot), p->nslots);
    E(g, "selp.u32 %s, 0, %s, %s;", rn(g, p->slot), rn(g, p->slot), rn(g, q));
    for (int j = 0; j < p->nld; j++) g->smop_base[p->use[j]] = g->smop_base[p->use2[j]] = 0;
    for (int j = 0; j < p->ninv; j++) g->smop_base[p->inv[j]] = 0;
    g->defer = NULL;
}

void pipe_drain(G *g, Pipe *p) {
    if (p->defer) E(g, "wgmma.wait_group.sync.aligned 0;");
    if (p->ntma < p->nld) E(g, "cp.async.wait_all;");
    E(g, "bar.sync 0;");
    g->ring_live--;
}
