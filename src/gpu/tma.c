/* tma.c — desc.load / desc.store of host tensor descriptors through the Tensor Memory
 * Accelerator (sm_90+): a LOAD or STORE carrying descriptor operands (ops.h) becomes one
 * cp.async.bulk.tensor of the whole block between global memory and a shared-memory tile,
 * instead of one access per element. Out-of-bounds elements are the hardware's: zero-filled
 * on loads, not written by stores, which is Triton's definition (and what the ordinary
 * masked access computes).
 *
 * The tensor map of descriptor parameter j travels by value after the kernel's own
 * parameters, as `.param .align 64 .b8 <kernel>_tma_<j>_<swizzle>[128]` (Triton's
 * __grid_constant__ CUtensorMap); the runtime encodes it at launch with
 * cuTensorMapEncodeTiled and finds which maps a kernel takes in its PTX (gpu_tma_maps), so
 * code from the disk cache needs no other record.
 *
 * A load: every thread fences its earlier shared-memory accesses to the async proxy and
 * meets the others at bar.sync (the tile lives in the scratch area other ops share); thread
 * 0 arms the kernel's one mbarrier with the tile's byte count and issues the copy; all wait
 * on the barrier's phase (a register toggled after each wait), then read their elements of
 * the row-major tile in the value's layout. The tile is unswizzled (SWIZZLE_NONE); the loads
 * that the pipeliner (pipe.c) issues ahead for a wgmma dot go into its ring's slots instead
 * (tma_ring_copy, one mbarrier per slot).
 * A store: the threads write the value into the tile, fence it to the async proxy, meet, and
 * thread 0 issues the copy out, commits it and waits until the tile has been read. A 2-D
 * block with rows a multiple of 8 is written swizzled, as a dot's operand tile (below), one
 * copy out per slab: the accumulator's layout put the rows of a warp's 4-byte stores 128
 * bytes apart, into the same banks, in an unswizzled tile.
 *
 * A 2-D load whose one use is an operand of a tensor-core dot, the dot's other operand such a
 * load too, is copied straight into the operand tile the dot reads (mma.c's Tile: slabs of
 * min(row bytes, 128) bytes, 16-byte chunks XOR-swizzled as TMA's 128/64/32-byte modes lay
 * them out), one copy per slab, in an area of its own after all other shared memory; the dot
 * reads it there with no trip through registers. So does a load of the outermost block
 * that only wgmma dots read as their A (plan_invariant), waited for late. The descriptor's map
 * then has that swizzle and a box of the slab's width; if another load of the same
 * descriptor needs another map, no load of the kernel goes direct (a store takes the map's
 * swizzle if its block fits it, else goes element by element).
 *
 * A descriptor the kernel makes (tl.make_tensor_descriptor, the IR's TMAP) has its map
 * filled by the kernel, as Triton does: where the kernel makes it, a warp (map k: warp k mod
 * num_warps, so that consecutive maps fill at once) zeroes 128 bytes of shared memory, its
 * lane 0 sets the fields with tensormap.replace, and the warp copies the map to this
 * program's part of a global scratch area with the release fence of the tensor-map proxy,
 * then acquires it; one barrier after a run of maps. The scratch area is the launch's (`.param .u64
 * <kernel>_scratch_<bytes per program>`, last; the runtime allocates it, gpu_scratch_bytes).
 * Only maps made once per program (in the kernel's outermost block) over a 16-byte aligned
 * parameter with strides known to be multiples of 16 bytes; others stay ordinary accesses. */
#include "gpu/mma_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int param_of(const IrFunc *f, int value) {
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].value == value) return i;
    return -1;
}

/* The bytes of one slab of a dot operand tile with rows of `row` bytes (mma.c's tile_of), and
 * the TMA swizzle that lays a box of that width out the same way. */
static int slab_of(int row) { return row < 128 ? row : 128; }
static int swizzle_of(int slab) { return slab == 128 ? 3 : slab == 64 ? 2 : slab == 32 ? 1 : 0; }

/* Whether map value m can be a tensor map: a 16-byte aligned descriptor parameter (the
 * runtime encodes its map), or a TMAP the kernel fills. */
static bool map_ok(G *g, int m) {
    int j = param_of(g->f, m);
    if (j >= 0) return g->f->params[j].div16 && g->f->params[j].type.dt == DT_PTR;
    return m >= 0 && g->tmap_ok[m];
}

/* A LOAD TMA can copy into an operand tile: 2-D, rows a multiple of 8 (so that each slab
 * starts on a swizzle period), a map. */
static bool tile_ok(G *g, const Inst *ld) {
    if (!ld || ld->op != OP_LOAD || ir_desc_rank(ld) != 2) return false;
    Type t = g->f->types[ld->res[0]];
    return map_ok(g, ld->args[3]) && t.shape[0] % 8 == 0 && t.shape[1] * dt_size(t.dt) >= 16;
}

/* ... straight into its dot's operand tile: used once */
static bool direct_ok(G *g, const Inst *ld) { return tile_ok(g, ld) && g->uses[ld->res[0]] == 1; }

/* A dot operand's load in loop body r, seen through a transpose (attention's k.T), if
 * TMA may copy it into the pipeliner's ring: as direct_ok, 16-bit elements (the pipeliner
 * takes them for fp16/bf16 wgmma only), i32 block offsets. */
static const Inst *ring_load(G *g, const Region *r, int v) {
    const Inst *d = g->def[v];
    if (d && d->op == OP_PERMUTE && d->attr.perm[0] == 1 && g->uses[v] == 1) d = g->def[d->args[0]];
    if (!direct_ok(g, d) || dt_size(g->f->types[d->res[0]].dt) != 2) return NULL;
    bool in_r = false;
    for (int i = 0; i < r->ninsts; i++) in_r |= r->insts[i] == d;
    for (int k = 0; in_r && k < ir_desc_rank(d); k++)
        if (g->f->types[d->args[4 + k]].dt != DT_I32 || g->f->types[d->args[4 + k]].rank) in_r = false;
    return in_r ? d : NULL;
}

/* The 2-D wgmma dots in r and the regions inside it that take v as A (and not as B) */
static int dot_a_uses(G *g, const Region *r, int v) {
    int n = 0;
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) n += dot_a_uses(g, in->regions[k], v);
        if (in->op != OP_DOT || in->args[0] != v || in->args[1] == v || g->f->types[in->res[0]].rank != 2)
            continue;
        int L = g->pref[in->res[0]];
        n += L >= 0 && g->lays[L].mma && wg_inst_n(g, in, mma_kind(g, in));
    }
    return n;
}

/* piped: r is the body of a loop that pipe.c runs with more than one stage. Its
 * dots' descriptor loads go by TMA into the pipeliner's ring's slots (tma_ring); outside such
 * loops a dot's two loads are copied straight into its operand tiles (tma_direct). */
static void plan_dots(G *g, const Region *r, bool piped) {
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        int S = in->op == OP_FOR ? (in->attr.i > 0 ? (int)in->attr.i : g->num_stages) : 1;
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) plan_dots(g, in->regions[k], in->op == OP_FOR ? S > 1 : piped);
        if (in->op != OP_DOT || g->f->types[in->res[0]].rank != 2) continue;
        int L = g->pref[in->res[0]];
        if (L < 0 || !g->lays[L].mma) continue;
        if (piped) {
            for (int k = 0; k < 2; k++) {
                const Inst *ld = ring_load(g, r, in->args[k]);
                if (ld) g->tma_ring[ld->res[0]] = true;
            }
            continue;
        }
        const Inst *a = g->def[in->args[0]], *b = g->def[in->args[1]];
        if (direct_ok(g, a) && direct_ok(g, b) && a != b)
            g->tma_direct[a->res[0]] = g->tma_direct[b->res[0]] = true;
    }
}

/* A load of the kernel's outermost block that only wgmma dots read, as their A (attention's
 * q, read by the dots of one loop or, causal, of two), is copied once straight into an
 * operand tile of its own, the dots read it there, and it is waited for late (tma_flush:
 * before anything that may read it or arm the barrier again, and after the next loop's
 * prologue has issued its copies, so that the two latencies overlap). */
static void plan_invariant(G *g) {
    const Region *r = g->f->body;
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *ld = r->insts[i];
        if (!tile_ok(g, ld)) continue;
        int v = ld->res[0];
        /* 16-bit: fp16 is what ran on the H200 (gpu-2026-12-03.md §8) */
        if (g->tma_direct[v] || dt_size(g->f->types[v].dt) != 2) continue;
        if (g->uses[v] && dot_a_uses(g, r, v) == g->uses[v]) g->tma_direct[v] = g->tma_late[v] = true;
    }
}

/* The swizzle a 2-D store's block can be written out with, staged into a tile as a dot's
 * operand is (mma.c's Tile; rows a multiple of 8, so that each slab starts on a swizzle
 * period); 0: none. 16- and 32-bit elements, the sizes checked on the H200
 * (bench/results/gpu-2026-12-03.md §8). */
static int store_swizzle(G *g, const Inst *st) {
    if (st->op != OP_STORE || ir_desc_rank(st) != 2) return 0;
    Type t = g->f->types[st->args[1]];
    int esz = dt_size(t.dt), row = t.shape[1] * esz;
    return (esz == 2 || esz == 4) && t.shape[0] % 8 == 0 && row >= 16 ? swizzle_of(slab_of(row)) : 0;
}

/* The swizzle each descriptor load asks of its map (demand: -1 none yet), false on a
 * conflict; and the one its stores would like (want: -1 none yet, 0 when they differ),
 * which they get where no load asks otherwise. */
static bool plan_maps(G *g, const Region *r, int *demand, int *want) {
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < 2; k++)
            if (in->regions[k] && !plan_maps(g, in->regions[k], demand, want)) return false;
        if (!ir_desc_rank(in)) continue;
        int m = in->args[3];
        if (!map_ok(g, m)) continue;
        if (in->op == OP_STORE) {
            int sw = store_swizzle(g, in);
            want[m] = want[m] < 0 || want[m] == sw ? sw : 0;
            continue;
        }
        int sw = 0;
        if (in->op == OP_LOAD && (g->tma_direct[in->res[0]] || g->tma_ring[in->res[0]])) {
            Type t = g->f->types[in->res[0]];
            sw = swizzle_of(slab_of(t.shape[1] * dt_size(t.dt)));
        }
        if (demand[m] >= 0 && demand[m] != sw) return false;
        demand[m] = sw;
    }
    return true;
}

/* Whether integer value v is known to be a multiple of 16 / esz (so v * esz of 16): a
 * constant, a parameter specialized as divisible by 16, a widening of one, or a product with
 * one. */
static bool stride_ok(G *g, int v, int esz, int depth) {
    const Inst *d = g->def[v];
    int j = param_of(g->f, v);
    if (j >= 0) return g->f->params[j].div16;
    if (!d || depth > 4) return false;
    if (d->op == OP_CONST) return d->attr.i > 0 && d->attr.i * esz % 16 == 0 && d->attr.i < ((int64_t)1 << 36);
    if (d->op == OP_CAST) return dt_is_int(g->f->types[d->args[0]].dt) && stride_ok(g, d->args[0], esz, depth + 1);
    if (d->op == OP_MUL) return stride_ok(g, d->args[0], esz, depth + 1) || stride_ok(g, d->args[1], esz, depth + 1);
    return false;
}

/* The element type tensormap.replace takes: the driver's numbering, one more from f64 on
 * (PTX counts f32.ftz before it); -1 for none. */
static int elemtype_of(int dt) {
    int t = target_tmap_dtype(dt);
    return t < 8 ? t : t + 1;
}

/* The block a descriptor access moves: a LOAD's result, a STORE's value. */
static Type block_of(G *g, const Inst *in) {
    return g->f->types[in->op == OP_LOAD ? in->res[0] : in->args[1]];
}

/* A map has one box: a TMAP whose accesses have blocks of different shapes (two descriptors
 * that differ only in block_shape share one TMAP) stays unmade. tmap_use: each map's first
 * access (tma_create takes the box and the dtype from it). */
static void one_block(G *g, const Region *r) {
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) one_block(g, in->regions[k]);
        int m = ir_desc_rank(in) ? in->args[3] : -1;
        if (m < 0 || !g->tmap_ok[m]) continue;
        Type t = block_of(g, in);
        const Inst *u = g->tmap_use[m];
        if (!u) { g->tmap_use[m] = in; continue; }
        Type t0 = block_of(g, u);
        bool same = t.rank == t0.rank;
        for (int d = 0; same && d < t.rank; d++) same = t.shape[d] == t0.shape[d];
        if (!same) g->tmap_ok[m] = false;
    }
}

/* The TMAPs the kernel can fill: once per program (the outermost block), a target with
 * tensormap.replace, a launch with a scratch area, a 16-byte aligned parameter as base,
 * strides multiples of 16 bytes (cuTensorMapEncodeTiled's rules; the rest is the kernel's, as
 * in Triton). */
static void plan_tmaps(G *g) {
    unsigned missing;
    target_ptx_version(g->ti, g->arch_a, TF_TENSORMAP | TF_TMA, &missing);
    if (missing || !g->scratch_ok) return;
    const Region *r = g->f->body;
    int n = 0;
    for (int i = 0; i < r->ninsts && n < GPU_MAX_TMAPS; i++) {
        const Inst *in = r->insts[i];
        if (in->op != OP_TMAP) continue;
        int rank = in->nargs / 2, elem = g->f->types[in->args[0]].elem, esz = dt_size(elem);
        int j = param_of(g->f, in->args[0]);
        bool ok = j >= 0 && g->f->params[j].div16 && elemtype_of(elem) >= 0 && rank >= 1 && rank <= 5;
        for (int k = 0; ok && k < rank - 1; k++) ok = stride_ok(g, in->args[1 + rank + k], esz, 0);
        if (ok) { g->tmap_ok[in->res[0]] = true; n++; }
    }
    one_block(g, g->f->body);
}

void tma_plan(G *g) {
    const IrFunc *f = g->f;
    size_t nv = (size_t)f->nvalues + 1;
    g->tma_sw = arena_alloc(g->a, sizeof(int) * nv);
    g->tma_direct = arena_alloc(g->a, nv);
    g->tma_late = arena_alloc(g->a, nv);
    g->tma_ring = arena_alloc(g->a, nv);
    g->tmap_ok = arena_alloc(g->a, nv);
    g->tmap_use = arena_alloc(g->a, sizeof(Inst *) * nv);
    memset(g->tma_sw, 0, sizeof(int) * nv);
    memset(g->tma_direct, 0, nv);
    memset(g->tma_late, 0, nv);
    memset(g->tma_ring, 0, nv);
    memset(g->tmap_ok, 0, nv);
    memset(g->tmap_use, 0, sizeof(Inst *) * nv);
    if (!(g->ti->features & TF_TMA)) return;
    plan_tmaps(g);
    plan_dots(g, f->body, false);
    plan_invariant(g);
    int *demand = arena_alloc(g->a, sizeof(int) * nv), *want = arena_alloc(g->a, sizeof(int) * nv);
    for (size_t m = 0; m < nv; m++) demand[m] = want[m] = -1;
    if (!plan_maps(g, f->body, demand, want)) {   /* loads go unswizzled then */
        memset(g->tma_direct, 0, nv);
        memset(g->tma_late, 0, nv);
        memset(g->tma_ring, 0, nv);
        for (size_t m = 0; m < nv; m++) demand[m] = 0;
    }
    for (size_t m = 0; m < nv; m++) g->tma_sw[m] = demand[m] >= 0 ? demand[m] : want[m] > 0 ? want[m] : 0;
}

/* The tensor-map slot of map value m, created on first use; -1 when it is no map (map_ok: a
 * TMAP the kernel did not fill is none). */
static int tma_slot(G *g, int m) {
    const IrFunc *f = g->f;
    if (!map_ok(g, m)) return -1;
    for (int s = 0; s < g->ntma; s++)
        if (g->tma_map[s] == m) return s;
    if (g->ntma == GPU_MAX_TMAPS) return -1;
    int j = param_of(f, m);
    int s = g->ntma++;
    g->tma_map[s] = m;
    if (j < 0) {
        g->tma_addr[s] = g->vr[m][0];
        return s;
    }
    int a = nr(g, CD);
    g->tma_addr[s] = nr(g, CD);
    EP(g, "mov.b64 %s, %s_tma_%d_%d;", rn(g, a), f->name, j, g->tma_sw[m]);
    EP(g, "cvta.param.u64 %s, %s;", rn(g, g->tma_addr[s]), rn(g, a));
    return s;
}

/* The kernel's mbarrier (placed and initialised by tma_finish) and thread 0's predicate. */
static void tma_init(G *g) {
    need(g, TF_TMA);
    if (!g->mbar) {
        g->mbar = nr(g, CR);
        g->mbar_phase = nr(g, CR);
        g->leader = nr(g, CP);
        EP(g, "mov.u32 %s, 0;", rn(g, g->mbar_phase));
        EP(g, "setp.eq.u32 %s, %s, 0;", rn(g, g->leader), rn(g, g->tid));
        int w = nr(g, CR);   /* the warp's index through shfl: ptxas knows it uniform */
        g->warp0 = nr(g, CP);
        EP(g, "shr.u32 %s, %s, 5;", rn(g, w), rn(g, g->tid));
        EP(g, "shfl.sync.idx.b32 %s, %s, 0, 31, -1;", rn(g, w), rn(g, w));
        EP(g, "setp.eq.u32 %s, %s, 0;", rn(g, g->warp0), rn(g, w));
    }
    if (g->smem_align < 128) g->smem_align = 128;   /* the copies' shared addresses */
}

/* The predicate of the thread that issues a copy here: the lane elect.sync picks in warp 0
 * (or in g->issue_warp, a pipeline's refill: pipe.c).
 * ptxas then issues the copy once with uniform operands, as Triton's; under thread 0's
 * plain predicate it looped over the warp's lanes around each copy (ELECT ... BRA.U.ANY:
 * bench/results/gpu-2026-12-02.md §17). The store's commit and wait stay with thread 0. */
static int issuer(G *g, int pred) {
    int e = nr(g, CP), q = nr(g, CP);
    E(g, "elect.sync _|%s, -1;", rn(g, e));
    E(g, "and.pred %s, %s, %s;", rn(g, q), rn(g, e), rn(g, g->issue_warp ? g->issue_warp : g->warp0));
    if (pred) E(g, "and.pred %s, %s, %s;", rn(g, q), rn(g, q), rn(g, pred));
    return q;
}

/* Whether `in` goes through TMA here: descriptor operands, a target with TMA, i32 offsets
 * in registers, a map slot. Its slot in *slot. */
static bool tma_ok(G *g, const Inst *in, int *slot) {
    int rank = ir_desc_rank(in);
    if (!rank || !(g->ti->features & TF_TMA)) return false;
    /* 1-D blocks stay ordinary accesses unless TRITONC_GPU_UNVERIFIED names tma1d: the H200
     * stopped row_shift's 1-D copies with an illegal instruction (2026-12-01;
     * scripts/gpu-tma-check.sh), not yet understood */
    if (rank < 2 && !(g->unverified & GPU_UNV_TMA1D)) return false;
    for (int k = 0; k < rank; k++) {
        int o = in->args[4 + k];
        if (g->f->types[o].dt != DT_I32 || !g->vr[o] || RCLS(g->vr[o][0]) != CR) return false;
    }
    *slot = tma_slot(g, in->args[3]);
    if (*slot < 0) return false;
    tma_init(g);
    return true;
}

/* "{c_inner, ..., c_outer}": the block's offsets, innermost first as TMA counts dimensions */
static void coords(G *g, const Inst *in, char *out, size_t n) {
    int rank = ir_desc_rank(in);
    size_t o = 0;
    for (int k = rank - 1; k >= 0 && o < n; k--)
        o += (size_t)snprintf(out + o, n - o, "%s%s", k == rank - 1 ? "{" : ", ",
                              rn(g, g->vr[in->args[4 + k]][0]));
    if (o < n) snprintf(out + o, n - o, "}");
}

/* A thread's elements of the row-major tile at shared address a (this thread's part of the
 * flat index already in it), in layout L: read into regs, or written from them. Registers
 * that hold consecutive elements go as one vector of up to 16 bytes (aligned: the tile is,
 * and the thread's and the registers' flat parts have zero low bits); 16-bit floats two to
 * a word. 8-bit and 16-bit integers (kept widened in b32 registers) go one at a time. */
static void tile_access(G *g, int dt, int a, const Layout *L, int *regs, bool store) {
    int n = 1 << L->nreg, esz = dt_size(dt);
    bool half = dt == DT_FP16 || dt == DT_BF16;
    int vec = 1 << lay_vec_bits(L);
    if (vec > 16 / esz) vec = 16 / esz;
    if (!(half || esz >= 4) || dt == DT_I1) vec = 1;
    if (half && vec < 2) vec = 1;
    for (int r = 0; r < n; r += vec) {
        int64_t off = lay_reg_flat(L, r) * esz;
        if (vec == 1) {
            if (store) st_shared(g, dt, a, off, regs[r]);
            else regs[r] = ld_shared(g, dt, a, off);
            continue;
        }
        int nw = half ? vec / 2 : vec, wcls = esz == 8 ? CD : CR;
        int w[8];
        char list[256];
        size_t o = 0;
        for (int j = 0; j < nw; j++) {
            if (half && store) {
                w[j] = nr(g, CR);
                E(g, "mov.b32 %s, {%s, %s};", rn(g, w[j]), rn(g, regs[r + 2 * j]), rn(g, regs[r + 2 * j + 1]));
            } else if (store) {
                w[j] = regs[r + j];
            } else {
                w[j] = nr(g, wcls);
            }
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", j ? ", " : "", rn(g, w[j]));
        }
        const char *ty = wcls == CD ? "b64" : "b32";
        char vs[8] = "";
        if (nw > 1) snprintf(vs, sizeof vs, ".v%d", nw);
        if (store) {
            E(g, "st.shared%s.%s [%s+%lld], %s%s%s;", vs, ty, rn(g, a), (long long)off,
              nw > 1 ? "{" : "", list, nw > 1 ? "}" : "");
            continue;
        }
        E(g, "ld.shared%s.%s %s%s%s, [%s+%lld];", vs, ty, nw > 1 ? "{" : "", list,
          nw > 1 ? "}" : "", rn(g, a), (long long)off);
        for (int j = 0; j < nw; j++) {
            if (!half) { regs[r + j] = w[j]; continue; }
            regs[r + 2 * j] = nr(g, CH);
            regs[r + 2 * j + 1] = nr(g, CH);
            E(g, "mov.b32 {%s, %s}, %s;", rn(g, regs[r + 2 * j]), rn(g, regs[r + 2 * j + 1]), rn(g, w[j]));
        }
    }
}

/* The mbarrier wait of every load: the phase, then the next one. */
static void wait_phase(G *g) {
    int lw = ++g->labels, p = nr(g, CP);
    buf_printf(&g->body, "$L%d:\n", lw);
    E(g, "mbarrier.try_wait.parity.shared::cta.b64 %s, [%s], %s;", rn(g, p), rn(g, g->mbar),
      rn(g, g->mbar_phase));
    E(g, "@!%s bra $L%d;", rn(g, p), lw);
    E(g, "xor.b32 %s, %s, 1;", rn(g, g->mbar_phase), rn(g, g->mbar_phase));
}

/* A 2-D load's block into an operand tile (mma.c's Tile: slabs of min(row bytes, 128) bytes)
 * at shared address base + off, one copy per slab, completing on mbarrier mb, issued where
 * predicate q holds (thread 0's); the barrier first armed with `arm` bytes (0: not). A
 * store's block (ld a STORE, mb unused) goes out of such a tile the same way. */
static void slab_copies(G *g, const Inst *ld, int slot, int base, int64_t off, int mb, int q, int64_t arm) {
    Type t = block_of(g, ld);
    int esz = dt_size(t.dt), rows = t.shape[0];
    int slab = slab_of(t.shape[1] * esz), nsl = t.shape[1] * esz / slab;
    int inner = g->vr[ld->args[5]][0], outer = g->vr[ld->args[4]][0];
    if (arm) {
        int st = nr(g, CD);
        E(g, "@%s mbarrier.arrive.expect_tx.shared::cta.b64 %s, [%s], %lld;", rn(g, q), rn(g, st), rn(g, mb),
          (long long)arm);
    }
    for (int s = 0; s < nsl; s++) {
        int c = inner, d = nr(g, CR);
        if (s) {
            c = nr(g, CR);
            E(g, "add.s32 %s, %s, %d;", rn(g, c), rn(g, inner), s * slab / esz);
        }
        E(g, "add.u32 %s, %s, %lld;", rn(g, d), rn(g, base), (long long)off + (long long)s * rows * slab);
        if (ld->op == OP_STORE)
            E(g, "@%s cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%s, {%s, %s}], [%s];", rn(g, q),
              rn(g, g->tma_addr[slot]), rn(g, c), rn(g, outer), rn(g, d));
        else
            E(g, "@%s cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
              "[%s], [%s, {%s, %s}], [%s];", rn(g, q), rn(g, d), rn(g, g->tma_addr[slot]), rn(g, c),
              rn(g, outer), rn(g, mb));
    }
}

/* A load straight into its dot's operand tile: one copy per slab. */
static bool direct_load(G *g, const Inst *in, int slot, int64_t bytes) {
    int v = in->res[0];
    if (!g->tma_area) g->tma_area = nr(g, CR);
    int off = g->tma_area_bytes;
    g->tma_area_bytes += (int)((bytes + 1023) & ~1023);
    g->smem_align = 1024;
    E(g, "fence.proxy.async.shared::cta;");
    E(g, "bar.sync 0;");
    slab_copies(g, in, slot, g->tma_area, off, g->mbar, issuer(g, 0), bytes);
    if (g->tma_late[v]) g->tma_pending = true;
    else wait_phase(g);
    g->smop_base[v] = g->tma_area;
    g->smop_off[v] = off;
    return true;
}

void tma_flush(G *g) {
    if (!g->tma_pending) return;
    g->tma_pending = false;
    wait_phase(g);
}

bool tma_load(G *g, const Inst *in) {
    int slot;
    if (!tma_ok(g, in, &slot)) return false;
    tma_flush(g);   /* the kernel's mbarrier is armed anew */
    const IrFunc *f = g->f;
    int v = in->res[0], dt = f->types[v].dt, esz = dt_size(dt), rank = ir_desc_rank(in);
    int64_t bytes = type_numel(f->types[v]) * esz;
    if (g->tma_direct[v]) return direct_load(g, in, slot, bytes);
    /* a ring load the pipeliner did not take: its map is swizzled for the ring's tile */
    if (g->tma_sw[g->tma_map[slot]]) return false;
    need_smem(g, bytes);
    char c[160];
    coords(g, in, c, sizeof c);
    E(g, "fence.proxy.async.shared::cta;");
    E(g, "bar.sync 0;");
    int st = nr(g, CD), q = issuer(g, 0);
    E(g, "@%s mbarrier.arrive.expect_tx.shared::cta.b64 %s, [%s], %lld;", rn(g, q), rn(g, st),
      rn(g, g->mbar), (long long)bytes);
    E(g, "@%s cp.async.bulk.tensor.%dd.shared::cluster.global.mbarrier::complete_tx::bytes "
      "[%s], [%s, %s], [%s];", rn(g, q), rank, rn(g, g->smem), rn(g, g->tma_addr[slot]), c,
      rn(g, g->mbar));
    wait_phase(g);
    int L = res_lay(g, v), n = nlay(g, L);
    Layout Lx = g->lays[L].L;
    int tf = tflat(g, L), a = nr(g, CR);   /* tflat may emit: never inside E's arguments */
    E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, a), rn(g, tf), esz, rn(g, g->smem));
    int *out = alloc_regs(g, n);
    tile_access(g, dt, a, &Lx, out, false);
    set_val(g, v, L, out);
    return true;
}

bool tma_store(G *g, const Inst *in) {
    int slot;
    if (!tma_ok(g, in, &slot)) return false;
    const IrFunc *f = g->f;
    int val = in->args[1], dt = f->types[val].dt, esz = dt_size(dt), rank = ir_desc_rank(in);
    int sw = g->tma_sw[g->tma_map[slot]];
    if (sw && sw != store_swizzle(g, in)) return false;   /* a map swizzled for other blocks */
    need_smem(g, type_numel(f->types[val]) * esz);
    int L = g->vlay[val] >= 0 ? g->vlay[val] : default_lay(g, &f->types[val]);
    int *V = get(g, val, L);
    Layout Lx = g->lays[L].L;
    /* swizzled, staged as a dot's operand tile (no bank conflicts) and out a copy per slab;
     * else in the value's own row-major order, one copy */
    char c[160];
    if (!sw) coords(g, in, c, sizeof c);
    E(g, "bar.sync 0;");
    if (sw) {
        Type t = f->types[val];
        Tile tl = tile_of(type_numel(t), t.shape[1], esz, 0);
        g->smem_align = 1024;
        stage_lay(g, &Lx, V, &tl, g->smem);
    } else {
        int tf = tflat(g, L), a = nr(g, CR);   /* tflat may emit: never inside E's arguments */
        E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, a), rn(g, tf), esz, rn(g, g->smem));
        tile_access(g, dt, a, &Lx, V, true);
    }
    E(g, "fence.proxy.async.shared::cta;");
    E(g, "bar.sync 0;");
    if (sw) slab_copies(g, in, slot, g->smem, 0, 0, g->leader, 0);
    else
        E(g, "@%s cp.async.bulk.tensor.%dd.global.shared::cta.bulk_group [%s, %s], [%s];", rn(g, g->leader),
          rank, rn(g, g->tma_addr[slot]), c, rn(g, g->smem));
    E(g, "@%s cp.async.bulk.commit_group;", rn(g, g->leader));
    E(g, "@%s cp.async.bulk.wait_group.read 0;", rn(g, g->leader));
    E(g, "bar.sync 0;");
    return true;
}

void tma_ring_copy(G *g, const Inst *ld, int base, int off, int mb, int pred, int arm) {
    int slot;
    if (!tma_ok(g, ld, &slot)) unsupported(g, "a pipelined descriptor load TMA cannot copy");
    slab_copies(g, ld, slot, base, off, mb, issuer(g, pred), arm);
}

/* Every thread waits for slot `slot`'s copies: the parity its barrier is at is bit `slot`
 * of ring_phase, flipped after the wait. */
void tma_ring_wait(G *g, int slot) {
    int mb = nr(g, CR), par = nr(g, CR), bit = nr(g, CR), lw = ++g->labels, p = nr(g, CP);
    E(g, "mad.lo.u32 %s, %s, 8, %s;", rn(g, mb), rn(g, slot), rn(g, g->ring_mbar));
    E(g, "shr.u32 %s, %s, %s;", rn(g, par), rn(g, g->ring_phase), rn(g, slot));
    E(g, "and.b32 %s, %s, 1;", rn(g, par), rn(g, par));
    buf_printf(&g->body, "$L%d:\n", lw);
    E(g, "mbarrier.try_wait.parity.shared::cta.b64 %s, [%s], %s;", rn(g, p), rn(g, mb), rn(g, par));
    E(g, "@!%s bra $L%d;", rn(g, p), lw);
    E(g, "shl.b32 %s, 1, %s;", rn(g, bit), rn(g, slot));
    E(g, "xor.b32 %s, %s, %s;", rn(g, g->ring_phase), rn(g, g->ring_phase), rn(g, bit));
}

/* The mbarrier after all other shared memory (8-byte aligned), initialised in the prologue
 * (its arrival count 1: thread 0's arrive.expect_tx), the pipeline ring's slot barriers after
 * it, and their release counters (zeroed). Returns the new shared size. */
int tma_finish(G *g, int shared) {
    if (!g->mbar) return shared;
    if (g->ntmap_dev) {   /* 128 bytes per warp that fills a map; this program's scratch */
        shared = (shared + 127) & ~127;
        EP(g, "add.u32 %s, %s, %d;", rn(g, g->tmap_stage), rn(g, g->smem), shared);
        shared += 128 * (g->ntmap_dev < g->nw ? g->ntmap_dev : g->nw);
        int x = nr(g, CR), y = nr(g, CR), z = nr(g, CR), nx = nr(g, CR), ny = nr(g, CR);
        int p = nr(g, CD), w = nr(g, CD), t = nr(g, CD);
        EP(g, "mov.u32 %s, %%ctaid.x;", rn(g, x));
        EP(g, "mov.u32 %s, %%ctaid.y;", rn(g, y));
        EP(g, "mov.u32 %s, %%ctaid.z;", rn(g, z));
        EP(g, "mov.u32 %s, %%nctaid.x;", rn(g, nx));
        EP(g, "mov.u32 %s, %%nctaid.y;", rn(g, ny));
        EP(g, "mul.wide.u32 %s, %s, %s;", rn(g, p), rn(g, z), rn(g, ny));   /* (z*ny + y)*nx + x */
        EP(g, "cvt.u64.u32 %s, %s;", rn(g, t), rn(g, y));
        EP(g, "add.u64 %s, %s, %s;", rn(g, p), rn(g, p), rn(g, t));
        EP(g, "cvt.u64.u32 %s, %s;", rn(g, t), rn(g, nx));
        EP(g, "mul.lo.u64 %s, %s, %s;", rn(g, p), rn(g, p), rn(g, t));
        EP(g, "cvt.u64.u32 %s, %s;", rn(g, t), rn(g, x));
        EP(g, "add.u64 %s, %s, %s;", rn(g, p), rn(g, p), rn(g, t));
        EP(g, "ld.param.u64 %s, [%s_scratch_%d];", rn(g, w), g->f->name, 128 * g->ntmap_dev);
        EP(g, "mad.lo.u64 %s, %s, %d, %s;", rn(g, g->scratch), rn(g, p), 128 * g->ntmap_dev, rn(g, w));
    }
    if (g->tma_area_bytes) {   /* the dot operand tiles, 1024-aligned (swizzle periods) */
        int base = (shared + 1023) & ~1023;
        EP(g, "add.u32 %s, %s, %d;", rn(g, g->tma_area), rn(g, g->smem), base);
        shared = base + g->tma_area_bytes;
    }
    int off = (shared + 7) & ~7;
    EP(g, "add.u32 %s, %s, %d;", rn(g, g->mbar), rn(g, g->smem), off);
    EP(g, "@%s mbarrier.init.shared::cta.b64 [%s], 1;", rn(g, g->leader), rn(g, g->mbar));
    off += 8;
    if (g->ring_mbar_n) {
        EP(g, "add.u32 %s, %s, %d;", rn(g, g->ring_mbar), rn(g, g->smem), off);
        EP(g, "mov.u32 %s, 0;", rn(g, g->ring_phase));
        for (int s = 0; s < g->ring_mbar_n; s++)
            EP(g, "@%s mbarrier.init.shared::cta.b64 [%s+%d], 1;", rn(g, g->leader), rn(g, g->ring_mbar), 8 * s);
        off += 8 * g->ring_mbar_n;
        if (g->ring_free) {
            EP(g, "add.u32 %s, %s, %d;", rn(g, g->ring_free), rn(g, g->smem), off);
            for (int s = 0; s < g->ring_mbar_n; s++)
                EP(g, "@%s st.shared.u32 [%s+%d], 0;", rn(g, g->leader), rn(g, g->ring_free), 4 * s);
            off += 4 * g->ring_mbar_n;
        }
    }
    EP(g, "fence.mbarrier_init.release.cluster;");
    EP(g, "bar.sync 0;");
    return off;
}

/* The .entry's tensor-map parameters, after f's own, then the scratch area's. */
void tma_params(G *g, Buf *b) {
    for (int s = 0; s < g->ntma; s++) {
        int j = param_of(g->f, g->tma_map[s]);
        if (j >= 0)
            buf_printf(b, ",\n\t.param .align 64 .b8 %s_tma_%d_%d[128]", g->f->name, j, g->tma_sw[g->tma_map[s]]);
    }
    if (g->ntmap_dev) buf_printf(b, ",\n\t.param .u64 %s_scratch_%d", g->f->name, 128 * g->ntmap_dev);
}

void tma_create(G *g, const Inst *in) {
    int v = in->res[0], rank = in->nargs / 2;
    const Inst *use = g->tmap_use[v];
    int *out = alloc_regs(g, 1);
    out[0] = nr(g, CD);
    if (!g->tmap_ok[v] || !use) {   /* ordinary accesses: no map */
        g->tmap_ok[v] = false;
        E(g, "mov.u64 %s, 0;", rn(g, out[0]));
        set_val(g, v, 0, out);
        return;
    }
    tma_init(g);
    need(g, TF_TENSORMAP);
    if (!g->scratch) {
        g->scratch = nr(g, CD);
        g->tmap_stage = nr(g, CR);
    }
    Type bt = block_of(g, use);
    int dt = bt.dt, esz = dt_size(dt), sw = g->tma_sw[v];
    int32_t box[TC_MAX_RANK];
    for (int k = 0; k < rank; k++) box[k] = bt.shape[k];
    if (sw && box[rank - 1] > (16 << sw) / esz) box[rank - 1] = (16 << sw) / esz;   /* one slab */
    /* map k is warp (k mod num_warps)'s, in its own 128 bytes of the stage: the maps a
     * kernel makes one after another are filled at once */
    int k = g->ntmap_dev++, w = k % g->nw;
    E(g, "add.u64 %s, %s, %d;", rn(g, out[0]), rn(g, g->scratch), 128 * k);
    int w0 = nr(g, CP), lead = nr(g, CP), a = nr(g, CR), st_w = nr(g, CR);
    char st[16], q[16];   /* kept: rn's names are overwritten after 24 more */
    E(g, "add.u32 %s, %s, %d;", rn(g, st_w), rn(g, g->tmap_stage), 128 * w);
    snprintf(st, sizeof st, "%s", rn(g, st_w));
    snprintf(q, sizeof q, "%s", rn(g, lead));
    E(g, "shr.u32 %s, %s, 5;", rn(g, a), rn(g, g->tid));
    E(g, "setp.eq.u32 %s, %s, %d;", rn(g, w0), rn(g, a), w);
    E(g, "setp.eq.u32 %s, %s, %d;", rn(g, lead), rn(g, g->tid), 32 * w);
    E(g, "and.b32 %s, %s, 31;", rn(g, a), rn(g, g->tid));
    E(g, "mad.lo.u32 %s, %s, 4, %s;", rn(g, a), rn(g, a), st);
    E(g, "@%s st.shared.u32 [%s], 0;", rn(g, w0), rn(g, a));
    E(g, "bar.warp.sync -1;");
    const char *tr = "tensormap.replace.tile";
    E(g, "@%s %s.global_address.shared::cta.b1024.b64 [%s], %s;", q, tr, st, rn(g, g->vr[in->args[0]][0]));
    E(g, "@%s %s.rank.shared::cta.b1024.b32 [%s], %d;", q, tr, st, rank - 1);
    for (int i = 0; i < rank; i++) {   /* TMA counts dimensions innermost first */
        int k = rank - 1 - i, dim = nr(g, CR);
        E(g, "@%s %s.box_dim.shared::cta.b1024.b32 [%s], %d, %d;", q, tr, st, i, box[k]);
        E(g, "cvt.u32.u64 %s, %s;", rn(g, dim), rn(g, g->vr[in->args[1 + k]][0]));
        E(g, "@%s %s.global_dim.shared::cta.b1024.b32 [%s], %d, %s;", q, tr, st, i, rn(g, dim));
        E(g, "@%s %s.element_stride.shared::cta.b1024.b32 [%s], %d, 1;", q, tr, st, i);
        if (i == 0) continue;
        int b = nr(g, CD);
        E(g, "mul.lo.s64 %s, %s, %d;", rn(g, b), rn(g, g->vr[in->args[1 + rank + k]][0]), esz);
        E(g, "@%s %s.global_stride.shared::cta.b1024.b64 [%s], %d, %s;", q, tr, st, i - 1, rn(g, b));
    }
    E(g, "@%s %s.elemtype.shared::cta.b1024.b32 [%s], %d;", q, tr, st, elemtype_of(dt));
    E(g, "@%s %s.interleave_layout.shared::cta.b1024.b32 [%s], 0;", q, tr, st);
    E(g, "@%s %s.swizzle_mode.shared::cta.b1024.b32 [%s], %d;", q, tr, st, sw);
    E(g, "@%s %s.fill_mode.shared::cta.b1024.b32 [%s], 0;", q, tr, st);
    E(g, "bar.warp.sync -1;");
    E(g, "@%s tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
      "[%s], [%s], 128;", rn(g, w0), rn(g, out[0]), st);
    E(g, "@%s fence.proxy.tensormap::generic.acquire.gpu [%s], 128;", rn(g, w0), rn(g, out[0]));
    E(g, "@%s cp.async.bulk.commit_group;", rn(g, w0));   /* after the acquire: Triton's ptxas workaround */
    E(g, "@%s cp.async.bulk.wait_group.read 0;", rn(g, w0));
    /* the others meet the warp that fenced the map (as Triton: one warp fences, a barrier
     * for the rest), once after a run of maps: until the next TMAP only scalar work */
    const Region *r = g->f->body;
    int i = 0;
    while (i < r->ninsts && r->insts[i] != in) i++;
    bool more = false;
    for (i++; i < r->ninsts && !more; i++) {
        const Inst *n = r->insts[i];
        if (n->op == OP_TMAP) { more = g->tmap_ok[n->res[0]]; continue; }
        if (n->nres != 1 || n->nargs > 3 || n->regions[0] || g->f->types[n->res[0]].rank ||
            n->op == OP_LOAD || n->op == OP_ATOMIC || n->op == OP_ATOMIC_CAS || n->op == OP_DOT)
            break;
    }
    if (!more) E(g, "bar.sync 0;");
    set_val(g, v, 0, out);
}

int gpu_tma_maps(const char *ptx, const char *kernel, GpuTmap *out) {
    int n = 0;
    char pat[160];
    snprintf(pat, sizeof pat, ".param .align 64 .b8 %s_tma_", kernel);
    size_t pl = strlen(pat);
    for (const char *p = ptx ? strstr(ptx, pat) : NULL; p && n < GPU_MAX_TMAPS; p = strstr(p + pl, pat)) {
        int j, sw;
        if (sscanf(p + pl, "%d_%d[128]", &j, &sw) != 2 || j < 0 || sw < 0 || sw > 3) continue;
        out[n].param = j;
        out[n].swizzle = sw;
        n++;
    }
    return n;
}

int gpu_scratch_bytes(const char *ptx, const char *kernel) {
    char pat[160];
    snprintf(pat, sizeof pat, ".param .u64 %s_scratch_", kernel);
    const char *p = ptx ? strstr(ptx, pat) : NULL;
    int n;
    if (!p || sscanf(p + strlen(pat), "%d", &n) != 1 || n <= 0 || n % 128) return 0;
    return n;
}
