/* opt.c — ir_optimize: small and safe.
 *  1. constant folding of element-wise ops (and CAST, SPLAT, BROADCAST) whose operands are
 *     all CONST, evaluated by ir_eval, the code the interpreter runs on tiles, so folded
 *     values are bit-identical to what it would compute (integer division by zero folds to
 *     0, as it computes); math functions (exp, log, sin, ...) are not folded (the GPU
 *     computes them with its own approximations);
 *  2. common subexpressions of pure ops: an op equal to a visible earlier one (same op,
 *     attributes, operands and result type; earlier in the same region or in an enclosing
 *     one) is dropped and its uses rewritten. LOAD is never merged;
 *  3. dead code: pure ops (and LOAD) whose results are unused are removed, repeatedly.
 *     STORE, ATOMIC*, PRINT, ASSERT, BARRIER, RETURN and control flow are always kept;
 *  4. loop-invariant scalars: a scalar integer op on scalar integers, in a `for` body, whose
 *     operands are all defined outside the loop moves before it (index arithmetic such as BLOCK_K * stride,
 *     which the GPU then computes once), innermost loops first so that it may keep moving.
 *     Not division or remainder, nor floats: a loop that runs zero times must not compute
 *     anything the checking interpreter could report.
 * Its tables are malloc'd (on failure it simply stops optimizing); the regions that 4. grows
 * come from the function's arena, like the rest of the IR. */
#include "ir/ir.h"
#include "ir/elem.h"

#include <stdlib.h>
#include <string.h>

typedef struct Opt {
    IrFunc *f;
    int *repl;            /* value -> replacement */
    Inst **def;           /* value -> defining instruction (NULL for params) */
    Inst **avail;         /* CSE candidates visible at this point (a stack) */
    uint64_t *hash;
    int *next;            /* hash chain: the next older candidate in the same bucket */
    int *head;            /* per bucket: the newest candidate, or -1 */
    uint64_t mask;        /* buckets - 1 */
    int navail, cap;
} Opt;

static bool is_pure(int op) {
    switch (op) {
    case OP_LOAD: case OP_STORE: case OP_ATOMIC: case OP_ATOMIC_CAS: case OP_PRINT:
    case OP_ASSERT: case OP_BARRIER: case OP_IF: case OP_FOR: case OP_WHILE: case OP_YIELD:
    case OP_CONDITION: case OP_RETURN:
        return false;
    default:
        return op < OP_COUNT;
    }
}

static bool foldable(int op) {
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_REM: case OP_AND: case OP_OR:
    case OP_XOR: case OP_SHL: case OP_SHR: case OP_MAX: case OP_MIN: case OP_UMULHI:
    case OP_CMP: case OP_FMA: case OP_WHERE: case OP_NEG: case OP_NOT: case OP_ABS:
    case OP_FLOOR: case OP_CEIL: case OP_CAST:
        return true;
    default:
        return false;
    }
}

static uint64_t inst_hash(const IrFunc *f, const Inst *in) {
    uint64_t h = hash_bytes(&in->op, sizeof in->op, 1469598103934665603ULL);
    h = hash_bytes(&in->nargs, sizeof in->nargs, h);
    if (in->nargs) h = hash_bytes(in->args, sizeof(int) * (size_t)in->nargs, h);
    h = hash_bytes(&in->attr.i, sizeof in->attr.i, h);
    h = hash_bytes(&in->attr.f, sizeof in->attr.f, h);
    h = hash_bytes(&in->attr.kind, sizeof in->attr.kind, h);
    h = hash_bytes(&in->attr.axis, sizeof in->attr.axis, h);
    Type t = f->types[in->res[0]];
    h = hash_bytes(&t.dt, 1, h);
    h = hash_bytes(&t.rank, 1, h);
    return h;
}

static bool inst_same(const IrFunc *f, const Inst *a, const Inst *b) {
    if (a->op != b->op || a->nargs != b->nargs || a->nres != 1 || b->nres != 1) return false;
    for (int k = 0; k < a->nargs; k++)
        if (a->args[k] != b->args[k]) return false;
    if (!type_eq(f->types[a->res[0]], f->types[b->res[0]])) return false;
    if (a->attr.i != b->attr.i || memcmp(&a->attr.f, &b->attr.f, sizeof a->attr.f) != 0 ||
        a->attr.axis != b->attr.axis || a->attr.kind != b->attr.kind ||
        memcmp(a->attr.perm, b->attr.perm, sizeof a->attr.perm) != 0)
        return false;
    if (!a->attr.str != !b->attr.str) return false;
    if (a->attr.str && strcmp(a->attr.str, b->attr.str) != 0) return false;
    return true;
}

/* Evaluates `in` on its CONST operands defs[0..nargs), one element each, into out->f
 * (float result) or out->i (int: signed sign-extended, unsigned zero-extended). */
static bool fold_scalar(const IrFunc *f, const Inst *in, const Inst *const *defs, Attr *out) {
    uint64_t store[5] = {0};
    const void *args[4];
    for (int k = 0; k < in->nargs; k++) {
        int dt = f->types[in->args[k]].dt;
        if (dt_is_float(dt)) wrf(dt, &store[k], 0, defs[k]->attr.f, 0);
        else wri(dt, &store[k], 0, (uint64_t)defs[k]->attr.i);
        args[k] = &store[k];
    }
    int rdt = f->types[in->res[0]].dt;
    void *r = &store[in->nargs];
    if (!ir_eval(f, in, 1, r, args)) return false;
    if (dt_is_float(rdt)) out->f = rdf(rdt, r, 0);
    else out->i = rdi(rdt, r, 0);
    return true;
}

static void try_fold(Opt *o, Inst *in) {
    IrFunc *f = o->f;
    if (in->nres != 1 || in->regions[0] || in->regions[1]) return;
    Type rt = f->types[in->res[0]];
    if (in->op == OP_SPLAT || in->op == OP_BROADCAST) {
        Inst *d = in->nargs == 1 && in->args[0] >= 0 ? o->def[in->args[0]] : NULL;
        if (!d || d->op != OP_CONST) return;
        Attr at = {0};
        at.i = d->attr.i;
        at.f = d->attr.f;
        in->op = OP_CONST;
        in->nargs = 0;
        in->attr = at;
        return;
    }
    if (!foldable(in->op) || in->nargs > 4 || rt.dt == DT_PTR || rt.dt == DT_VOID) return;
    const Inst *defs[4];
    for (int k = 0; k < in->nargs; k++) {
        int a = in->args[k];
        if (a < 0 || !o->def[a] || o->def[a]->op != OP_CONST) return;
        if (f->types[a].dt == DT_PTR) return;
        defs[k] = o->def[a];
    }
    Attr out = {0};
    if (!fold_scalar(f, in, defs, &out)) return;
    in->op = OP_CONST;
    in->nargs = 0;
    in->attr = out;
}

static void cse_region(Opt *o, Region *r) {
    IrFunc *f = o->f;
    int mark = o->navail, w = 0;
    for (int i = 0; i < r->ninsts; i++) {
        Inst *in = r->insts[i];
        for (int k = 0; k < in->nargs; k++)
            if (in->args[k] >= 0 && in->args[k] < f->nvalues) in->args[k] = o->repl[in->args[k]];
        try_fold(o, in);
        bool drop = false;
        if (is_pure(in->op) && in->nres == 1) {
            uint64_t h = inst_hash(f, in);
            int bk = (int)(h & o->mask);
            for (int j = o->head[bk]; j >= 0; j = o->next[j])
                if (o->hash[j] == h && inst_same(f, o->avail[j], in)) {
                    o->repl[in->res[0]] = o->avail[j]->res[0];
                    drop = true;
                    break;
                }
            if (!drop && o->navail < o->cap) {
                int j = o->navail++;
                o->avail[j] = in;
                o->hash[j] = h;
                o->next[j] = o->head[bk];
                o->head[bk] = j;
            }
        }
        for (int k = 0; k < in->nres; k++) o->def[in->res[k]] = in;
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) cse_region(o, in->regions[k]);
        if (!drop) r->insts[w++] = in;
    }
    r->ninsts = w;
    /* leave the scope: pop newest first, so each is its bucket's head */
    while (o->navail > mark) {
        int j = --o->navail;
        o->head[o->hash[j] & o->mask] = o->next[j];
    }
}

static void count_uses(const Region *r, int *uses) {
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < in->nargs; k++)
            if (in->args[k] >= 0) uses[in->args[k]]++;
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) count_uses(in->regions[k], uses);
    }
}

static bool dce_region(Region *r, int *uses) {
    bool changed = false;
    int w = 0;
    for (int i = r->ninsts - 1; i >= 0; i--) {
        Inst *in = r->insts[i];
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) changed |= dce_region(in->regions[k], uses);
    }
    /* backwards, so a chain of dead values goes in one pass */
    for (int i = r->ninsts - 1; i >= 0; i--) {
        Inst *in = r->insts[i];
        bool dead = (is_pure(in->op) || in->op == OP_LOAD) && in->nres == 1 &&
                    uses[in->res[0]] == 0;
        if (dead) {
            for (int k = 0; k < in->nargs; k++)
                if (in->args[k] >= 0) uses[in->args[k]]--;
            r->insts[i] = NULL;
            changed = true;
        }
    }
    for (int i = 0; i < r->ninsts; i++)
        if (r->insts[i]) r->insts[w++] = r->insts[i];
    r->ninsts = w;
    return changed;
}

static bool int_scalar(const IrFunc *f, int v) {
    return f->types[v].rank == 0 && dt_is_int(f->types[v].dt);
}

static bool hoistable(const IrFunc *f, const Inst *in) {
    if (in->nres != 1 || in->regions[0] || !is_pure(in->op) || in->op == OP_DIV || in->op == OP_REM)
        return false;
    for (int k = 0; k < in->nargs; k++)   /* no float operand either (a float-to-int cast) */
        if (in->args[k] >= 0 && !int_scalar(f, in->args[k])) return false;
    return int_scalar(f, in->res[0]);
}

static void mark_defs(const Region *r, bool *inside, bool on) {
    for (int j = 0; j < r->nparams; j++) inside[r->params[j]] = on;
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < in->nres; k++) inside[in->res[k]] = on;
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) mark_defs(in->regions[k], inside, on);
    }
}

/* moves the invariant scalars of each loop in r (and below) to just before that loop; r's
 * list is rebuilt only once something moves */
static void licm_region(IrFunc *f, Region *r, bool *inside) {
    for (int i = 0; i < r->ninsts; i++)
        for (int k = 0; k < 2; k++)
            if (r->insts[i]->regions[k]) licm_region(f, r->insts[i]->regions[k], inside);
    Inst **out = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < r->ninsts; i++) {
        Inst *loop = r->insts[i];
        if (loop->op == OP_FOR) {
            Region *body = loop->regions[0];
            mark_defs(body, inside, true);
            int w = 0;
            for (int j = 0; j < body->ninsts; j++) {
                Inst *in = body->insts[j];
                bool inv = hoistable(f, in);
                for (int k = 0; inv && k < in->nargs; k++) inv = in->args[k] < 0 || !inside[in->args[k]];
                if (!inv) {
                    body->insts[w++] = in;
                    continue;
                }
                inside[in->res[0]] = false;
                if (!out)   /* the first to move: r's instructions so far, then it */
                    for (int q = 0; q < i; q++) ARENA_PUSH(f->arena, out, n, cap, r->insts[q]);
                ARENA_PUSH(f->arena, out, n, cap, in);
            }
            body->ninsts = w;
            mark_defs(body, inside, false);
        }
        if (out) ARENA_PUSH(f->arena, out, n, cap, loop);
    }
    if (out) {
        r->insts = out;
        r->ninsts = n;
        r->cap = cap;
    }
}

void ir_optimize(IrFunc *f) {
    if (!f || !f->body || f->nvalues <= 0) return;
    Opt o = {0};
    o.f = f;
    o.repl = malloc(sizeof(int) * (size_t)f->nvalues);
    o.def = calloc((size_t)f->nvalues, sizeof *o.def);
    int *uses = calloc((size_t)f->nvalues, sizeof(int));
    int ninst = ir_count(f->body, -1);
    size_t buckets = 64;
    while (buckets < (size_t)ninst * 2) buckets *= 2;
    o.cap = ninst;
    o.mask = buckets - 1;
    o.avail = malloc(sizeof *o.avail * (size_t)(ninst + 1));
    o.hash = malloc(sizeof *o.hash * (size_t)(ninst + 1));
    o.next = malloc(sizeof *o.next * (size_t)(ninst + 1));
    o.head = malloc(sizeof *o.head * buckets);
    bool *inside = calloc((size_t)f->nvalues, sizeof *inside);
    if (inside && f->arena) licm_region(f, f->body, inside);
    free(inside);
    if (o.repl && o.def && uses && o.avail && o.hash && o.next && o.head) {
        for (size_t i = 0; i < buckets; i++) o.head[i] = -1;
        for (int i = 0; i < f->nvalues; i++) o.repl[i] = i;
        cse_region(&o, f->body);
        count_uses(f->body, uses);
        for (int it = 0; it < 100 && dce_region(f->body, uses); it++) {}
    }
    free(o.repl);
    free(o.def);
    free(o.avail);
    free(o.hash);
    free(o.next);
    free(o.head);
    free(uses);
}
