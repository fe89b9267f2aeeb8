/* check.c — what check mode records while the interpreter runs, behind the hooks of
 * check.h: the shadow memory of every tensor (races, hazards, reads of never-written
 * bytes), NaN/Inf stored from finite inputs with the instruction that made it, integer
 * division by zero; then the findings, deduplicated, and the report. */
#include "interp/check.h"
#include "ir/elem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FOR_N for (int64_t i = 0; i < n; i++)

#define SITE_MAX 0x7fffu

/* One execution of a memory instruction by one program: what a shadow cell points at. */
typedef struct Rec {
    uint32_t prog;     /* linear program index */
    uint32_t epoch;    /* barrier epoch (unique per program and barrier interval) */
    uint16_t site;
    uint8_t atomic;
    uint8_t contig;    /* lanes at base, base + size, ... (all lanes, active or not) */
    uint32_t size;
    uint32_t inner;    /* lanes in rows of `inner` at base + row * stride + col * size (the
                          lane of an address can be recovered); 0: unknown */
    uint64_t stride;
    uint64_t base;
} Rec;

/* A tensor's shadow: per element (granule), record ids (0 = none), each array allocated on
 * first need, so a tensor only read costs 4 bytes per element and one only written 4. */
typedef struct Shadow {
    uint32_t *w;       /* last write */
    uint32_t *r;       /* first read since that write */
    uint32_t *r2;      /* a read by another program than r's (allocated on the first one) */
    uint8_t *snap;     /* contents before the first write of the launch (for the order runs) */
    uint64_t ncells;
    int shift;         /* log2 of the granule */
    bool failed;       /* allocation failed: not checked */
} Shadow;

/* The example of a finding, for tc_check_finding (programs: linear indices, UINT64_MAX for
 * none; lane -1 and addr 0 for none). */
typedef struct Example { uint64_t pa, pb; int64_t lane; uint64_t addr; } Example;

typedef struct Finding {
    CheckKind kind;
    SrcLoc a, b;
    int aux;
    uint64_t count;
    char *text;
    Example ex;
} Finding;

struct Checker {
    const InterpLaunch *l;
    Shadow *sh;
    /* sites: open hash Inst* -> index, and the list */
    const Inst **site_inst;   /* [0] unused */
    int nsites, cap_sites;
    const Inst **hkeys;
    uint16_t *hvals;
    int hcap;
    uint32_t epoch;    /* the running program's barrier epoch (the last one handed out) */
    uint64_t prog;     /* the running program (linear index, x outermost) */
    bool nonfinite_in; /* it loaded a NaN/Inf (or has a NaN/Inf float argument) */
    bool args_nonfinite;
    const Inst **def;  /* defining instruction of each value (NaN/Inf origins) */
    Rec *rec;          /* [0] unused */
    uint64_t nrec, caprec;
    bool rec_full;
    Finding *f;
    int nf, capf;
    Example ex;        /* the next check_add's example (check_example) */
    bool has_ex;
};

/* Large zeroed blocks come straight from mmap: pages the check never touches are never
 * faulted in, and munmap gives them back at once (the shadow of a 4 MB tensor is tens of MB).
 * Transparent huge pages were tried and were slower on the VMs measured. */
#define BIG_MIN ((size_t)1 << 20)

void *check_big_alloc(size_t n) {
    if (n < BIG_MIN) return calloc(n ? n : 1, 1);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    return p;
}

void check_big_free(void *p, size_t n) {
    if (!p) return;
    if (n < BIG_MIN) free(p);
    else munmap(p, n);
}

/* def[v]: the instruction that defines value v (NULL for parameters of f and regions). */
static void defs_of(const Region *r, const Inst **def) {
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < in->nres; k++) def[in->res[k]] = in;
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) defs_of(in->regions[k], def);
    }
}

static int ilog2(int x) { int s = 0; while ((1 << s) < x) s++; return s; }

Checker *check_new(const InterpLaunch *l) {
    Checker *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->l = l;
    k->sh = calloc(l->nmem > 0 ? (size_t)l->nmem : 1, sizeof *k->sh);
    k->hcap = 256;
    k->hkeys = calloc((size_t)k->hcap, sizeof *k->hkeys);
    k->hvals = calloc((size_t)k->hcap, sizeof *k->hvals);
    k->cap_sites = 64;
    k->site_inst = calloc((size_t)k->cap_sites, sizeof *k->site_inst);
    k->def = calloc((size_t)l->f->nvalues + 1, sizeof *k->def);
    if (!k->sh || !k->hkeys || !k->hvals || !k->site_inst || !k->def) {
        check_free(k);
        return NULL;
    }
    defs_of(l->f->body, k->def);
    k->nsites = 1;
    for (int i = 0; i < l->nmem; i++) {
        const MemRegion *m = &l->mem[i];
        int dt = interp_region_dt(l, i);
        int es = dt ? dt_size(dt) : 1;
        k->sh[i].shift = ilog2(es);
        k->sh[i].ncells = ((m->hi - m->lo) + (uint64_t)es - 1) >> k->sh[i].shift;
    }
    for (int i = 0; i < l->f->nparams; i++)
        if (dt_is_float(l->f->params[i].type.dt) && !isfinite(l->args[i].f))
            k->args_nonfinite = true;
    return k;
}

void check_free(Checker *k) {
    if (!k) return;
    if (k->sh)
        for (int i = 0; i < k->l->nmem; i++) {
            Shadow *h = &k->sh[i];
            size_t nb = (size_t)(h->ncells ? h->ncells : 1) * 4;
            check_big_free(h->w, nb);
            check_big_free(h->r, nb);
            check_big_free(h->r2, nb);
            bool shared = false;
            for (int j = 0; j < i; j++) shared |= k->sh[j].snap == h->snap;
            if (!shared) check_big_free(h->snap, (size_t)(k->l->mem[i].hi - k->l->mem[i].lo));
        }
    free(k->rec);
    free(k->def);
    free(k->sh);
    free(k->hkeys);
    free(k->hvals);
    free(k->site_inst);
    for (int i = 0; i < k->nf; i++) free(k->f[i].text);
    free(k->f);
    free(k);
}

static size_t ptr_hash(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 29;
    return (size_t)x;
}

/* The site (small integer) of a memory instruction, for the shadow cells. */
static int check_site(Checker *k, const Inst *in) {
    size_t m = (size_t)k->hcap - 1, h = ptr_hash(in) & m;
    while (k->hkeys[h]) {
        if (k->hkeys[h] == in) return k->hvals[h];
        h = (h + 1) & m;
    }
    if (k->nsites > (int)SITE_MAX) return 0;  /* too many: "unknown site" */
    if (k->nsites * 2 >= k->hcap) {      /* grow the hash */
        int ncap = k->hcap * 2;
        const Inst **nk = calloc((size_t)ncap, sizeof *nk);
        uint16_t *nv = calloc((size_t)ncap, sizeof *nv);
        if (!nk || !nv) { free(nk); free(nv); return 0; }
        for (int i = 0; i < k->hcap; i++)
            if (k->hkeys[i]) {
                size_t j = ptr_hash(k->hkeys[i]) & (size_t)(ncap - 1);
                while (nk[j]) j = (j + 1) & (size_t)(ncap - 1);
                nk[j] = k->hkeys[i];
                nv[j] = k->hvals[i];
            }
        free(k->hkeys);
        free(k->hvals);
        k->hkeys = nk;
        k->hvals = nv;
        k->hcap = ncap;
        m = (size_t)ncap - 1;
        h = ptr_hash(in) & m;
        while (k->hkeys[h]) h = (h + 1) & m;
    }
    if (k->nsites >= k->cap_sites) {
        int nc = k->cap_sites * 2;
        const Inst **ns = realloc(k->site_inst, sizeof *ns * (size_t)nc);
        if (!ns) return 0;
        k->site_inst = ns;
        k->cap_sites = nc;
    }
    int s = k->nsites++;
    k->site_inst[s] = in;
    k->hkeys[h] = in;
    k->hvals[h] = (uint16_t)s;
    return s;
}

void check_program(Checker *k, uint64_t prog) {
    k->prog = prog;
    k->epoch++;
    k->nonfinite_in = k->args_nonfinite;
}

void check_barrier(Checker *k) { k->epoch++; }

/* ---- findings ---------------------------------------------------------------------- */

static bool loc_eq(SrcLoc a, SrcLoc b) {
    return a.src == b.src && a.line == b.line && a.col == b.col;
}

static Finding *find(Checker *k, CheckKind kind, SrcLoc a, SrcLoc b, int aux) {
    for (int i = 0; i < k->nf; i++) {
        Finding *f = &k->f[i];
        if (f->kind == kind && f->aux == aux && loc_eq(f->a, a) && loc_eq(f->b, b)) return f;
    }
    return NULL;
}

bool check_count(Checker *k, CheckKind kind, SrcLoc a, SrcLoc b, int aux) {
    Finding *f = find(k, kind, a, b, aux);
    if (!f) return false;
    f->count++;
    return true;
}

void check_example(Checker *k, uint64_t prog, uint64_t prog2, int64_t lane, uint64_t addr) {
    k->ex = (Example){prog, prog2, lane, addr};
    k->has_ex = true;
}

void check_add(Checker *k, CheckKind kind, SrcLoc a, SrcLoc b, int aux, const char *text) {
    if (check_count(k, kind, a, b, aux)) { k->has_ex = false; return; }
    if (k->nf == k->capf) {
        int nc = k->capf ? k->capf * 2 : 16;
        Finding *nf = realloc(k->f, sizeof *nf * (size_t)nc);
        if (!nf) return;
        k->f = nf;
        k->capf = nc;
    }
    char *t = strdup(text);
    if (!t) return;
    Finding *f = &k->f[k->nf++];
    Example none = {UINT64_MAX, UINT64_MAX, -1, 0};
    f->ex = k->has_ex ? k->ex : none;
    k->has_ex = false;
    f->kind = kind;
    f->a = a;
    f->b = b;
    f->aux = aux;
    f->count = 1;
    f->text = t;
}

/* "(x, y, z)" of a linear program index. Out of line: inlined, it costs race() and
 * hazard() a bigger frame on the early return they take for every repeated occurrence. */
static __attribute__((noinline)) void check_pid_str(const Checker *k, uint64_t prog, char *buf, size_t n) {
    const uint32_t *g = k->l->grid;
    uint64_t gz = g[2] ? g[2] : 1, gy = g[1] ? g[1] : 1;
    snprintf(buf, n, "(%llu, %llu, %llu)", (unsigned long long)(prog / (gy * gz)),
             (unsigned long long)((prog / gz) % gy), (unsigned long long)(prog % gz));
}

/* "out[3]" (or "out byte 3", or "address 0x..." outside every region) for an address. */
static void check_elem_str(const Checker *k, uint64_t addr, char *buf, size_t n) {
    const InterpLaunch *l = k->l;
    for (int i = 0; i < l->nmem; i++) {
        const MemRegion *m = &l->mem[i];
        if (addr < m->lo || addr >= m->hi) continue;
        const char *name = m->name ? m->name : "?";
        int dt = interp_region_dt(l, i);
        if (dt)
            snprintf(buf, n, "%s[%llu]", name,
                     (unsigned long long)((addr - m->lo) / (uint64_t)dt_size(dt)));
        else
            snprintf(buf, n, "%s byte %llu", name, (unsigned long long)(addr - m->lo));
        return;
    }
    snprintf(buf, n, "address 0x%llx", (unsigned long long)addr);
}

static void loc_str(SrcLoc l, char *buf, size_t n) {
    if (l.src) snprintf(buf, n, "%s:%d:%d", l.src->path ? l.src->path : "?", l.line, l.col);
    else snprintf(buf, n, "?");
}

static const char *site_op(const Inst *in) {
    if (!in) return "access";
    switch (in->op) {
    case OP_LOAD: return "load";
    case OP_STORE: return "store";
    case OP_ATOMIC: return "atomic";
    case OP_ATOMIC_CAS: return "atomic_cas";
    default: return op_names[in->op];
    }
}

/* "store at k.py:7:4" */
static void site_str(const Checker *k, int site, char *buf, size_t n) {
    const Inst *in = site > 0 && site < k->nsites ? k->site_inst[site] : NULL;
    char l[512];
    if (in) loc_str(in->loc, l, sizeof l);
    else snprintf(l, sizeof l, "an unknown site");
    snprintf(buf, n, "%s at %s", site_op(in), l);
}

static SrcLoc site_loc(const Checker *k, int site) {
    SrcLoc z = {0};
    return site > 0 && site < k->nsites ? k->site_inst[site]->loc : z;
}

/* ---- recording ------------------------------------------------------------------------ */

static void race(Checker *k, CheckKind kind, int cur_site, int prev_site, uint64_t cur_prog,
                 uint64_t prev_prog, uint64_t addr) {
    SrcLoc a = site_loc(k, cur_site), b = site_loc(k, prev_site);
    if (check_count(k, kind, a, b, 0)) return;
    char p1[80], p2[80], el[200], s1[600], s2[600], text[2400];
    check_pid_str(k, cur_prog, p1, sizeof p1);
    check_pid_str(k, prev_prog, p2, sizeof p2);
    check_elem_str(k, addr, el, sizeof el);
    site_str(k, cur_site, s1, sizeof s1);
    site_str(k, prev_site, s2, sizeof s2);
    const char *verb = kind == CK_RACE_RAW ? "reads" : "writes";
    const char *pverb = kind == CK_RACE_WAR ? "read" : "wrote";
    snprintf(text, sizeof text,
             "race: program %s %s %s (%s) that program %s %s (%s); the order of two programs "
             "is undefined on a GPU (address 0x%llx)", p1, verb, el, s1, p2, pverb, s2,
             (unsigned long long)addr);
    check_example(k, cur_prog, prev_prog, -1, addr);
    check_add(k, kind, a, b, 0, text);
}

static void hazard(Checker *k, int cur_site, int prev_site, uint64_t prog, int64_t lane,
                   int64_t wlane, uint64_t addr) {
    const Inst *ci = cur_site > 0 && cur_site < k->nsites ? k->site_inst[cur_site] : NULL;
    const Inst *pi = prev_site > 0 && prev_site < k->nsites ? k->site_inst[prev_site] : NULL;
    bool same = false;
    if (ci && pi && wlane == lane && wlane >= 0) {
        Type ct = k->l->f->types[ci->args[0]], pt = k->l->f->types[pi->args[0]];
        same = ct.rank >= 1 && ct.rank == pt.rank &&
               memcmp(ct.shape, pt.shape, sizeof(int32_t) * ct.rank) == 0;
    }
    CheckKind kind = same ? CK_NOTE_LANE : CK_HAZARD;
    SrcLoc a = site_loc(k, cur_site), b = site_loc(k, prev_site);
    if (check_count(k, kind, a, b, 0)) return;
    char p[80], el[200], s1[600], s2[600], wl[32], text[2400];
    check_pid_str(k, prog, p, sizeof p);
    check_elem_str(k, addr, el, sizeof el);
    site_str(k, cur_site, s1, sizeof s1);
    site_str(k, prev_site, s2, sizeof s2);
    if (wlane < 0) snprintf(wl, sizeof wl, "a lane");
    else snprintf(wl, sizeof wl, "lane %lld", (long long)wlane);
    if (same)
        snprintf(text, sizeof text,
                 "note: program %s reads %s in lane %lld (%s) that the same lane stored (%s) "
                 "with no tl.debug_barrier() between; safe only while both tiles get the same "
                 "layout (address 0x%llx)", p, el, (long long)lane, s1, s2,
                 (unsigned long long)addr);
    else
        snprintf(text, sizeof text,
                 "hazard: program %s reads %s in lane %lld (%s) that %s of the same program "
                 "stored (%s) with no tl.debug_barrier() between; on a GPU another thread may "
                 "not have stored it yet (address 0x%llx)", p, el, (long long)lane, s1, wl, s2,
                 (unsigned long long)addr);
    check_example(k, prog, UINT64_MAX, lane, addr);
    check_add(k, kind, a, b, 0, text);
}

static void uninit_read(Checker *k, int site, uint64_t prog, uint64_t addr) {
    SrcLoc a = site_loc(k, site), z = {0};
    if (check_count(k, CK_UNINIT, a, z, 0)) return;
    char p[80], el[200], s1[600], text[1600];
    check_pid_str(k, prog, p, sizeof p);
    check_elem_str(k, addr, el, sizeof el);
    site_str(k, site, s1, sizeof s1);
    snprintf(text, sizeof text, "uninitialized read: program %s reads %s (%s), which was never "
             "written (address 0x%llx)", p, el, s1, (unsigned long long)addr);
    check_example(k, prog, UINT64_MAX, -1, addr);
    check_add(k, CK_UNINIT, a, z, 0, text);
}

static bool alloc_fail(Checker *k, int r) {
    Shadow *s = &k->sh[r];
    if (s->failed) return true;
    s->failed = true;
    const MemRegion *m = &k->l->mem[r];
    char text[300];
    SrcLoc z = {0};
    snprintf(text, sizeof text, "note: no memory for the shadow of '%s'; its accesses were "
             "not checked", m->name ? m->name : "?");
    check_add(k, CK_NOTE_OOM, z, z, r, text);
    return true;
}

static uint32_t *arr(Checker *k, int r, uint32_t **slot) {
    if (!*slot && !k->sh[r].failed) {
        *slot = check_big_alloc((size_t)(k->sh[r].ncells ? k->sh[r].ncells : 1) * 4);
        if (!*slot) alloc_fail(k, r);
    }
    return *slot;
}

/* Keeps the region's contents before its first write (and its aliases': the same tensor
 * passed twice). */
static void snapshot(Checker *k, int r) {
    Shadow *h = &k->sh[r];
    if (h->snap || h->failed) return;
    const MemRegion *m = &k->l->mem[r];
    size_t sz = (size_t)(m->hi - m->lo);
    h->snap = check_big_alloc(sz);
    if (!h->snap) { alloc_fail(k, r); return; }
    if (sz) memcpy(h->snap, (const void *)(uintptr_t)m->lo, sz);
    for (int j = 0; j < k->l->nmem; j++)
        if (j != r && k->l->mem[j].lo == m->lo && k->l->mem[j].hi == m->hi) k->sh[j].snap = h->snap;
}

const uint8_t *check_snapshot(const Checker *k, int r) { return k->sh[r].snap; }

static uint32_t new_rec(Checker *k, const Inst *in, uint64_t prog, uint32_t epoch, int kind,
                        int size, const uint64_t *addr, const uint8_t *mask, int64_t n) {
    if (k->rec_full) return 0;
    if (k->nrec + 1 >= k->caprec) {
        uint64_t nc = k->caprec ? k->caprec * 2 : 1024;
        Rec *nr = nc < UINT32_MAX ? realloc(k->rec, sizeof *nr * (size_t)nc) : NULL;
        if (!nr) {
            k->rec_full = true;
            SrcLoc z = {0};
            check_add(k, CK_NOTE_OOM, z, z, -1, "note: too many memory accesses to record; "
                      "the rest of the launch was not checked");
            return 0;
        }
        k->rec = nr;
        k->caprec = nc;
        if (k->nrec == 0) k->nrec = 1;
    }
    uint32_t id = (uint32_t)k->nrec++;
    Rec *r = &k->rec[id];
    r->prog = (uint32_t)prog;
    r->epoch = epoch;
    r->site = (uint16_t)check_site(k, in);
    r->atomic = kind == 2;
    r->size = (uint32_t)size;
    r->base = addr[0];
    r->inner = 0;
    r->stride = 0;
    /* the addresses of all lanes (masked ones too: they are computed, just not used) */
    bool contig = n < (int64_t)UINT32_MAX;
    for (int64_t i = 1; contig && i < n; i++) contig = addr[i] == addr[0] + (uint64_t)i * (uint64_t)size;
    r->contig = contig;
    if (contig) {
        r->inner = (uint32_t)n;
        r->stride = (uint64_t)n * (uint64_t)size;
    } else if (in->nargs > 0 && in->args[0] >= 0) {
        /* a 2-D (or more) tile of rows: base + (i / inner) * stride + (i % inner) * size */
        Type t = k->l->f->types[in->args[0]];
        int64_t inner = t.rank >= 2 ? t.shape[t.rank - 1] : 0;
        if (inner > 0 && inner < n && n % inner == 0 && addr[inner] > addr[0]) {
            uint64_t stride = addr[inner] - addr[0];
            bool ok = stride >= (uint64_t)inner * (uint64_t)size;
            for (int64_t i = 0; ok && i < n; i++)
                ok = addr[i] == addr[0] + (uint64_t)(i / inner) * stride + (uint64_t)(i % inner) * (uint64_t)size;
            if (ok) { r->inner = (uint32_t)inner; r->stride = stride; }
        }
    }
    return id;
}

/* The lane of addr in record r's access, or -1 when it is not known. */
static int64_t rec_lane(const Rec *r, uint64_t addr) {
    if (!r->inner || addr < r->base || !r->stride) return -1;
    uint64_t off = addr - r->base, row = off / r->stride, col = off % r->stride;
    if (col % r->size || col / r->size >= r->inner) return -1;
    return (int64_t)(row * r->inner + col / r->size);
}

static void on_read(Checker *k, uint32_t *W, uint32_t *R, int reg, uint64_t c, uint32_t me,
                    uint64_t prog, uint32_t epoch, int64_t lane, uint64_t addr) {
    if (W && W[c]) {
        const Rec *w = &k->rec[W[c]], *cur = &k->rec[me];
        if (w->prog != prog) race(k, CK_RACE_RAW, cur->site, w->site, prog, w->prog, addr);
        else if (w->epoch == epoch) hazard(k, cur->site, w->site, prog, lane, rec_lane(w, addr), addr);
    }
    uint32_t r = R[c];
    if (!r) { R[c] = me; return; }
    if (k->rec[r].prog == prog) return;
    uint32_t *R2 = k->sh[reg].r2 ? k->sh[reg].r2 : arr(k, reg, &k->sh[reg].r2);
    if (R2 && (!R2[c] || k->rec[R2[c]].prog != prog)) R2[c] = me;
}

static void on_write(Checker *k, uint32_t *W, uint32_t *R, int reg, uint64_t c, uint32_t me,
                     uint64_t prog, uint64_t addr) {
    const Rec *cur = &k->rec[me];
    if (W[c]) {
        const Rec *w = &k->rec[W[c]];
        if (w->prog != prog && !(cur->atomic && w->atomic))
            race(k, CK_RACE_WW, cur->site, w->site, prog, w->prog, addr);
    }
    W[c] = me;
    if (!R || !R[c]) return;
    const Rec *r = &k->rec[R[c]];
    uint32_t *R2 = k->sh[reg].r2;
    if (r->prog != prog) race(k, CK_RACE_WAR, cur->site, r->site, prog, r->prog, addr);
    else if (R2 && R2[c] && k->rec[R2[c]].prog != prog) {
        const Rec *r2 = &k->rec[R2[c]];
        race(k, CK_RACE_WAR, cur->site, r2->site, prog, r2->prog, addr);
    }
    R[c] = 0;
    if (R2) R2[c] = 0;
}

/* Lane i of store record `me` writes where an earlier lane of the same store wrote: a race
 * among the threads of one program when the values differ. */
static void dup_lanes(Checker *k, uint32_t me, uint64_t prog, const uint64_t *addr,
                      const uint8_t *mask, int64_t i, int size, const void *vals) {
    const char *v = vals;
    for (int64_t j = 0; j < i; j++) {
        if ((mask && !mask[j]) || addr[j] != addr[i]) continue;
        if (memcmp(v + j * size, v + i * size, (size_t)size) == 0) return;
        int site = k->rec[me].site;
        SrcLoc a = site_loc(k, site), z = {0};
        if (check_count(k, CK_RACE_LANES, a, z, 0)) return;
        char p[80], el[200], s1[600], text[1600];
        check_pid_str(k, prog, p, sizeof p);
        check_elem_str(k, addr[i], el, sizeof el);
        site_str(k, site, s1, sizeof s1);
        snprintf(text, sizeof text, "race: lanes %lld and %lld of one store of program %s write "
                 "different values to %s (%s); which lane wins is undefined on a GPU (the "
                 "interpreter keeps the last) (address 0x%llx)", (long long)j, (long long)i, p,
                 el, s1, (unsigned long long)addr[i]);
        check_example(k, prog, UINT64_MAX, i, addr[i]);
        check_add(k, CK_RACE_LANES, a, z, 0, text);
        return;
    }
}

void check_access(Checker *k, const Inst *in, const uint64_t *addr, const uint8_t *mask,
                  int64_t n, int size, int kind, int region, const void *vals) {
    const InterpLaunch *l = k->l;
    uint64_t prog = k->prog;
    uint32_t epoch = k->epoch;
    uint32_t me = new_rec(k, in, prog, epoch, kind, size, addr, mask, n);
    if (me && region >= 0 && !mask && k->rec[me].contig && n > 0 && !k->sh[region].failed) {
        /* fast path: all lanes active, consecutive elements of one tensor */
        const MemRegion *m = &l->mem[region];
        Shadow *h = &k->sh[region];
        uint64_t off = addr[0] - m->lo, span = (uint64_t)n * (uint64_t)size;
        if (m->uninit && kind == 0) {  /* (stores cleared the marks in mem_check) */
            int64_t hit = uninit_find(m->uninit, off, span);
            if (hit >= 0) uninit_read(k, k->rec[me].site, prog, addr[hit / size]);
        }
        if (kind != 0) snapshot(k, region);
        uint32_t *W = kind != 0 ? arr(k, region, &h->w) : h->w;
        uint32_t *R = kind == 0 ? arr(k, region, &h->r) : h->r;
        if (h->failed) return;
        int sh = h->shift;
        if ((1 << sh) == size) {
            uint64_t c0 = off >> sh;
            if (kind == 0) {
                uint32_t *Rc = R + c0;
                if (!W) {
                    for (int64_t i = 0; i < n; i++) {
                        if (!Rc[i]) Rc[i] = me;
                        else on_read(k, NULL, R, region, c0 + (uint64_t)i, me, prog, epoch, i, addr[i]);
                    }
                } else {
                    const uint32_t *Wc = W + c0;
                    for (int64_t i = 0; i < n; i++) {
                        if (!Rc[i] && !Wc[i]) Rc[i] = me;
                        else on_read(k, W, R, region, c0 + (uint64_t)i, me, prog, epoch, i, addr[i]);
                    }
                }
            } else {
                uint32_t *Wc = W + c0;
                const uint32_t *Rc = R ? R + c0 : NULL;
                for (int64_t i = 0; i < n; i++) {
                    if (!Wc[i] && (!Rc || !Rc[i])) Wc[i] = me;
                    else on_write(k, W, R, region, c0 + (uint64_t)i, me, prog, addr[i]);
                }
            }
            return;
        }
    }
    int cr = -1;
    uint32_t *W = NULL, *R = NULL;
    const MemRegion *m = NULL;
    int sh = 0;
    for (int64_t i = 0; i < n; i++) {
        if (mask && !mask[i]) continue;
        uint64_t a = addr[i];
        int nr = region >= 0 ? region : mem_region_of(l->mem, l->nmem, a);
        if (nr < 0) continue;
        if (nr != cr) {
            cr = nr;
            m = &l->mem[cr];
            Shadow *h = &k->sh[cr];
            sh = h->shift;
            if (kind != 0) snapshot(k, cr);
            W = kind != 0 ? arr(k, cr, &h->w) : h->w;
            R = kind == 0 ? arr(k, cr, &h->r) : h->r;
            if (h->failed) W = R = NULL;
        }
        uint64_t off = a - m->lo;
        if (m->uninit && kind == 0 && uninit_find(m->uninit, off, (uint64_t)size) >= 0)
            uninit_read(k, k->rec[me].site, prog, a);
        if (!me || (kind == 0 ? !R : !W)) continue;
        uint64_t c0 = off >> sh, c1 = (off + (uint64_t)size - 1) >> sh;
        if (c1 >= k->sh[cr].ncells) c1 = k->sh[cr].ncells - 1;
        for (uint64_t c = c0; c <= c1; c++) {
            if (kind == 0) {
                on_read(k, W, R, cr, c, me, prog, epoch, i, a);
            } else {
                if (kind == 1 && vals && W[c] == me && c == c0)
                    dup_lanes(k, me, prog, addr, mask, i, size, vals);
                on_write(k, W, R, cr, c, me, prog, a);
            }
        }
    }
}

/* ---- values: NaN/Inf from finite inputs, zero divisors -------------------------------- */

/* Every loaded and stored tile is scanned: vectorized as the interpreter's own loops are. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("O3")
#endif

static inline bool nonfinite_at(int dt, const void *p, int64_t i) {
    switch (dt) {
    case DT_FP16: return (((const uint16_t *)p)[i] & 0x7c00u) == 0x7c00u;
    case DT_BF16: return (((const uint16_t *)p)[i] & 0x7f80u) == 0x7f80u;
    case DT_FP32: { uint32_t b; memcpy(&b, (const char *)p + i * 4, 4); return (b & 0x7f800000u) == 0x7f800000u; }
    case DT_FP64: { uint64_t b; memcpy(&b, (const char *)p + i * 8, 8);
                    return (b & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL; }
    default: return false;
    }
}

/* The first active lane holding NaN or Inf, or -1. */
static int64_t first_nonfinite(int dt, const void *p, const uint8_t *M, int64_t n) {
    if (!dt_is_float(dt)) return -1;
    bool any = false;
    if (dt == DT_FP32) {
        const uint32_t *B = p;
        uint32_t acc = 0;
        if (M) { FOR_N acc |= ((B[i] & 0x7f800000u) == 0x7f800000u) & (M[i] != 0); }
        else { FOR_N acc |= (B[i] & 0x7f800000u) == 0x7f800000u; }
        any = acc != 0;
    } else {
        FOR_N if ((!M || M[i]) && nonfinite_at(dt, p, i)) { any = true; break; }
    }
    if (!any) return -1;
    FOR_N if ((!M || M[i]) && nonfinite_at(dt, p, i)) return i;
    return -1;
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#define TY(v) (f->types[(v)])
#define V(v) (vals[(v)])

static const Inst trace_loaded, trace_const;

/* Follows a NaN/Inf in lane `lane` of value v back to the instruction that made it from
 * finite operands: element-wise operands at the same lane (scalars at lane 0), other
 * operands anywhere. Returns that instruction, &trace_loaded / &trace_const when the value
 * comes from memory or a constant, or NULL when it cannot tell (an argument, a loop-carried
 * value). */
static const Inst *nonfinite_origin(Checker *k, void *const *vals, int v, int64_t lane) {
    const IrFunc *f = k->l->f;
    for (int steps = 0; steps < 256; steps++) {
        const Inst *d = k->def[v];
        if (!d) return NULL;
        switch (d->op) {
        case OP_LOAD: case OP_ATOMIC: case OP_ATOMIC_CAS: return &trace_loaded;
        case OP_CONST: return &trace_const;
        case OP_IF: case OP_FOR: case OP_WHILE: return d;
        default: break;
        }
        int64_t rn = type_numel(TY(v));
        int next = -1;
        int64_t nl = 0;
        for (int k = 0; k < d->nargs && next < 0; k++) {
            int a = d->args[k];
            if (a < 0 || !dt_is_float(TY(a).dt)) continue;
            if (d->op == OP_WHERE) {
                int64_t cn = type_numel(TY(d->args[0]));
                bool cond = ((const uint8_t *)V(d->args[0]))[cn == rn ? lane : 0] != 0;
                if (k != (cond ? 1 : 2)) continue;
            }
            int64_t an = type_numel(TY(a));
            if (an == rn || an == 1) {
                int64_t j = an == rn ? lane : 0;
                if (nonfinite_at(TY(a).dt, V(a), j)) { next = a; nl = j; }
            } else {
                int64_t j = first_nonfinite(TY(a).dt, V(a), NULL, an);
                if (j >= 0) { next = a; nl = j; }
            }
        }
        if (next < 0) return d;
        v = next;
        lane = nl;
    }
    return NULL;
}

void check_store(Checker *k, const Inst *in, const uint64_t *P, const uint8_t *M, int64_t n,
                 void *const *vals) {
    const IrFunc *f = k->l->f;
    int v = in->args[1];
    Type t = TY(v);
    if (k->nonfinite_in || !dt_is_float(t.dt)) return;
    int64_t lane = first_nonfinite(t.dt, V(v), M, n);
    if (lane < 0) return;
    const Inst *o = nonfinite_origin(k, vals, v, lane);
    if (o == &trace_loaded || o == &trace_const) return;
    SrcLoc z = {0};
    SrcLoc b = o ? o->loc : z;
    if (check_count(k, CK_NONFINITE, in->loc, b, 0)) return;
    char p[80], el[200], val[32], text[1400], where[600];
    check_pid_str(k, k->prog, p, sizeof p);
    check_elem_str(k, P[lane], el, sizeof el);
    fmt_double_repr(rdf(t.dt, V(v), lane), val, sizeof val);
    if (o) {
        const char *path = o->loc.src && o->loc.src->path ? o->loc.src->path : "?";
        snprintf(where, sizeof where, "produced by %s at %s:%d:%d from finite inputs",
                 op_names[o->op], path, o->loc.line, o->loc.col);
    } else {
        snprintf(where, sizeof where, "from finite inputs (its origin is a loop-carried value "
                 "or an argument)");
    }
    snprintf(text, sizeof text, "non-finite: program %s stores %s to %s (lane %lld); %s", p,
             val, el, (long long)lane, where);
    check_example(k, k->prog, UINT64_MAX, lane, P[lane]);
    check_add(k, CK_NONFINITE, in->loc, b, 0, text);
}

void check_loaded(Checker *k, int dt, const void *v, const uint8_t *mask, int64_t n) {
    if (!k->nonfinite_in && first_nonfinite(dt, v, mask, n) >= 0) k->nonfinite_in = true;
}

void check_operands(Checker *k, const Inst *in, int dt, const void *const *a, int64_t n) {
    if ((in->op != OP_DIV && in->op != OP_REM) || !dt_is_int(dt)) return;
    int64_t lane = -1;
    FOR_N if (rdi(dt, a[1], i) == 0) { lane = i; break; }
    if (lane < 0) return;
    SrcLoc z = {0};
    if (check_count(k, CK_NOTE_DIV0, in->loc, z, 0)) return;
    char p[80], text[400];
    check_pid_str(k, k->prog, p, sizeof p);
    snprintf(text, sizeof text, "note: integer %s by zero in program %s, lane %lld: unspecified "
             "on GPUs, tritonc gives 0 (harmless if a mask drops that lane later)",
             in->op == OP_DIV ? "division" : "remainder", p, (long long)lane);
    check_example(k, k->prog, UINT64_MAX, lane, 0);
    check_add(k, CK_NOTE_DIV0, in->loc, z, 0, text);
}

#undef TY
#undef V

/* ---- report --------------------------------------------------------------------------- */

static const char *const kind_names[CK_COUNT] = {
    [CK_RACE_WW] = "race", [CK_RACE_RAW] = "race", [CK_RACE_WAR] = "race",
    [CK_HAZARD] = "hazard", [CK_UNINIT] = "uninitialized read", [CK_NONFINITE] = "non-finite",
    [CK_ORDER] = "order dependence", [CK_FAIL_ORDER] = "order dependence",
    [CK_RACE_LANES] = "race", [CK_NOTE_DIV0] = "division by zero", [CK_NOTE_ROUND] = "rounding",
    [CK_NOTE_LANE] = "same lane", [CK_NOTE_OOM] = "not checked",
};

static void rec_loc(SrcLoc l, char *file, size_t n, int *line, int *col) {
    snprintf(file, n, "%s", l.src && l.src->path ? l.src->path : "");
    *line = l.src ? l.line : 0;
    *col = l.src ? l.col : 0;
}

static void rec_pid(const Checker *k, uint64_t prog, int64_t p[3]) {
    const uint32_t *g = k->l->grid;
    uint64_t gz = g[2] ? g[2] : 1, gy = g[1] ? g[1] : 1;
    if (prog == UINT64_MAX) { p[0] = p[1] = p[2] = -1; return; }
    p[0] = (int64_t)(prog / (gy * gz));
    p[1] = (int64_t)((prog / gz) % gy);
    p[2] = (int64_t)(prog % gz);
}

int check_records(Checker *k, tc_check_finding **out) {
    *out = NULL;
    if (!k->nf) return 0;
    tc_check_finding *r = calloc((size_t)k->nf, sizeof *r);
    if (!r) return 0;
    for (int i = 0; i < k->nf; i++) {
        const Finding *f = &k->f[i];
        tc_check_finding *o = &r[i];
        snprintf(o->kind, sizeof o->kind, "%s", kind_names[f->kind] ? kind_names[f->kind] : "?");
        o->note = f->kind >= CK_NOTE_DIV0;
        rec_loc(f->a, o->file, sizeof o->file, &o->line, &o->col);
        rec_loc(f->b, o->file2, sizeof o->file2, &o->line2, &o->col2);
        rec_pid(k, f->ex.pa, o->program);
        rec_pid(k, f->ex.pb, o->program2);
        o->lane = f->ex.lane;
        o->address = f->ex.addr;
        o->element = -1;
        const InterpLaunch *l = k->l;
        for (int m = 0; f->ex.addr && m < l->nmem; m++) {
            if (f->ex.addr < l->mem[m].lo || f->ex.addr >= l->mem[m].hi) continue;
            int dt = interp_region_dt(l, m);
            snprintf(o->tensor, sizeof o->tensor, "%s", l->mem[m].name ? l->mem[m].name : "");
            o->element = (int64_t)((f->ex.addr - l->mem[m].lo) / (uint64_t)(dt ? dt_size(dt) : 1));
            break;
        }
        o->count = f->count;
        snprintf(o->message, sizeof o->message, "%s", f->text);
    }
    *out = r;
    return k->nf;
}

int check_report(Checker *k, Buf *b, const char *summary, int *notes) {
    int nf = 0, nn = 0;
    for (int i = 0; i < k->nf; i++) {
        const Finding *f = &k->f[i];
        if (f->kind >= CK_NOTE_DIV0) nn++;
        else nf++;
        if (!b) continue;
        char l[512];
        if (f->a.src) loc_str(f->a, l, sizeof l);
        else snprintf(l, sizeof l, "%s", k->l->f && k->l->f->name ? k->l->f->name : "kernel");
        buf_printf(b, "%s: %s", l, f->text);
        if (f->count > 1) buf_printf(b, " [%llu times]", (unsigned long long)f->count);
        buf_puts(b, "\n");
    }
    if (b && summary) buf_printf(b, "%s", summary);
    if (notes) *notes = nn;
    return nf;
}
