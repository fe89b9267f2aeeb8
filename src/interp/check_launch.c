/* check_launch.c — a checked launch: the programs run in order on the real tensors,
 * recorded by a Checker; then, from the snapshots of the tensors they wrote, on copies with
 * the programs shuffled (and on several threads when asked), and every copy is compared with
 * the program-order results: differences are order dependence (or rounding notes). */
#include "interp/check.h"
#include "ir/elem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void elem_str(int dt, const uint8_t *p, char *buf, size_t n) {
    if (dt_is_float(dt)) fmt_double_repr(rdf(dt, p, 0), buf, n);
    else if (dt_is_unsigned(dt)) snprintf(buf, n, "%llu", (unsigned long long)rdi(dt, p, 0));
    else if (dt_is_int(dt)) snprintf(buf, n, "%lld", (long long)rdi(dt, p, 0));
    else snprintf(buf, n, "0x%02x", p[0]);
}

/* Compares region r's memory after the program-order run (ref) with a run in another order
 * (other); differences become findings (or rounding notes for floats within tol). */
static void compare_region(Checker *k, const InterpLaunch *l, int r, const uint8_t *ref,
                           const uint8_t *other, const char *how, int variant) {
    const MemRegion *m = &l->mem[r];
    int dt = interp_region_dt(l, r);
    if (!dt || dt == DT_PTR) dt = DT_U8;
    int es = dt_size(dt);
    uint64_t nel = (m->hi - m->lo) / (uint64_t)es, ndiff = 0, nround = 0;
    int64_t first = -1, first_round = -1;
    if (memcmp(ref, other, (size_t)(m->hi - m->lo)) == 0) return;
    double tol = dt == DT_FP16 || dt == DT_BF16 ? 1e-2 : dt == DT_FP32 ? 1e-5 : 1e-12;
    for (uint64_t i = 0; i < nel; i++) {
        const uint8_t *a = ref + i * (uint64_t)es, *b = other + i * (uint64_t)es;
        if (memcmp(a, b, (size_t)es) == 0) continue;
        if (dt_is_float(dt)) {
            double x = rdf(dt, a, 0), y = rdf(dt, b, 0);
            if (isnan(x) && isnan(y)) continue;
            if (isfinite(x) && isfinite(y) &&
                fabs(x - y) <= tol * (fabs(x) > fabs(y) ? fabs(x) : fabs(y))) {
                if (first_round < 0) first_round = (int64_t)i;
                nround++;
                continue;
            }
        }
        if (first < 0) first = (int64_t)i;
        ndiff++;
    }
    const char *name = m->name ? m->name : "?";
    char va[64], vb[64], text[1200];
    SrcLoc z = {0};
    if (ndiff) {
        const uint8_t *a = ref + (uint64_t)first * (uint64_t)es, *b = other + (uint64_t)first * (uint64_t)es;
        elem_str(dt, a, va, sizeof va);
        elem_str(dt, b, vb, sizeof vb);
        snprintf(text, sizeof text, "order dependence: %s[%lld] is %s with the programs in order "
                 "(x, then y, then z) but %s %s; %llu of %llu element(s) of '%s' differ", name,
                 (long long)first, va, vb, how, (unsigned long long)ndiff,
                 (unsigned long long)nel, name);
        check_example(k, UINT64_MAX, UINT64_MAX, -1, m->lo + (uint64_t)first * (uint64_t)es);
        check_add(k, CK_ORDER, z, z, r * 4 + variant, text);
    } else if (nround) {
        const uint8_t *a = ref + (uint64_t)first_round * (uint64_t)es;
        const uint8_t *b = other + (uint64_t)first_round * (uint64_t)es;
        elem_str(dt, a, va, sizeof va);
        elem_str(dt, b, vb, sizeof vb);
        snprintf(text, sizeof text, "note: %s[%lld] is %s with the programs in order but %s %s "
                 "(%llu element(s) of '%s' differ by rounding only, relative difference <= %g, as "
                 "float atomics do on GPUs)", name, (long long)first_round, va, vb, how,
                 (unsigned long long)nround, name, tol);
        check_example(k, UINT64_MAX, UINT64_MAX, -1, m->lo + (uint64_t)first_round * (uint64_t)es);
        check_add(k, CK_NOTE_ROUND, z, z, r * 4 + variant, text);
    }
}

/* The order runs' tensors: copies of those the recorded run wrote, and the launch moved
 * onto them. */
typedef struct Copies {
    const InterpLaunch *l;
    const Checker *k;
    int nm;
    int *alias;        /* region i is the same tensor as the earlier region alias[i], or -1 */
    uint8_t **cp;      /* region i's copy; NULL: shared with the recorded run (not written) */
    MemRegion *mem;    /* the regions on the copies */
    ArgBits *args;     /* the arguments, pointers moved onto the copies */
} Copies;

static bool copies_new(Copies *c, const InterpLaunch *l, const Checker *k) {
    int nm = l->nmem;
    c->l = l;
    c->k = k;
    c->nm = nm;
    c->mem = calloc((size_t)nm, sizeof *c->mem);
    c->args = calloc((size_t)(l->f->nparams + 1), sizeof *c->args);
    c->cp = calloc((size_t)nm, sizeof *c->cp);
    c->alias = calloc((size_t)nm, sizeof *c->alias);
    if (!c->mem || !c->args || !c->cp || !c->alias) return false;
    for (int i = 0; i < nm; i++) {
        c->alias[i] = -1;
        for (int j = 0; j < i && c->alias[i] < 0; j++)
            if (l->mem[j].lo == l->mem[i].lo && l->mem[j].hi == l->mem[i].hi) c->alias[i] = j;
    }
    return true;
}

static void copies_free(Copies *c) {
    free(c->mem);
    free(c->args);
    free(c->cp);
    free(c->alias);
}

/* Written tensors start from their snapshot (the last run may mutate the snapshot itself);
 * the others are shared with the recorded run, which did not write them. False when a copy
 * finds no memory. */
static bool copies_fill(Copies *c, bool last) {
    const InterpLaunch *l = c->l;
    for (int i = 0; i < c->nm; i++) {
        const uint8_t *sn = check_snapshot(c->k, i);
        size_t sz = (size_t)(l->mem[i].hi - l->mem[i].lo);
        c->cp[i] = NULL;
        if (c->alias[i] >= 0) { c->cp[i] = c->cp[c->alias[i]]; continue; }
        if (!sn) continue;
        if (last) { c->cp[i] = (uint8_t *)sn; continue; }
        c->cp[i] = check_big_alloc(sz);
        if (!c->cp[i]) return false;
        if (sz) memcpy(c->cp[i], sn, sz);
    }
    return true;
}

/* Frees the copies that are not snapshots. */
static void copies_release(Copies *c) {
    const InterpLaunch *l = c->l;
    for (int i = 0; i < c->nm; i++)
        if (c->alias[i] < 0 && c->cp[i] && c->cp[i] != check_snapshot(c->k, i))
            check_big_free(c->cp[i], (size_t)(l->mem[i].hi - l->mem[i].lo));
}

/* The launch on the copies: regions and pointer arguments moved, no printing, unchecked. */
static InterpLaunch copies_launch(Copies *c) {
    const InterpLaunch *l = c->l;
    MemRegion *m2 = c->mem;
    ArgBits *a2 = c->args;
    for (int i = 0; i < c->nm; i++) {
        m2[i] = l->mem[i];
        m2[i].uninit = NULL;
        if (!c->cp[i]) continue;
        m2[i].lo = (uint64_t)(uintptr_t)c->cp[i];
        m2[i].hi = m2[i].lo + (l->mem[i].hi - l->mem[i].lo);
    }
    for (int j = 0; j < l->f->nparams; j++) {
        a2[j] = l->args[j];
        if (l->f->params[j].type.dt != DT_PTR) continue;
        for (int i = 0; i < c->nm; i++)
            if (a2[j].u >= l->mem[i].lo && a2[j].u <= l->mem[i].hi) {
                a2[j].u = m2[i].lo + (a2[j].u - l->mem[i].lo);
                break;
            }
    }
    InterpLaunch l2 = *l;
    l2.args = a2;
    l2.mem = m2;
    l2.print = NULL;
    l2.check = 0;
    l2.report = NULL;
    return l2;
}

/* Order run v (0: shuffled by seed; 1: on l->threads threads) on fresh copies; a failure
 * or a tensor that differs from the recorded run's becomes a finding. False when the copies
 * found no memory (nothing was run). */
static bool run_order(Checker *k, Copies *c, int v, bool last, uint64_t seed) {
    const InterpLaunch *l = c->l;
    bool ok = copies_fill(c, last);
    if (ok) {
        InterpLaunch l2 = copies_launch(c);
        char how[120];
        if (v == 0) snprintf(how, sizeof how, "with the programs shuffled (seed %llu)", (unsigned long long)seed);
        else snprintf(how, sizeof how, "with the programs on %d threads", l->threads);
        Err e2;
        memset(&e2, 0, sizeof e2);
        tc_status rc2 = v == 0 ? interp_programs(&l2, 1, seed, NULL, &e2)
                               : interp_programs(&l2, l->threads, 0, NULL, &e2);
        if (rc2) {
            char text[1400];
            SrcLoc z = {0};
            size_t ml = strcspn(e2.msg, "\n");
            snprintf(text, sizeof text, "order dependence: the launch fails %s but not "
                     "in program order: %.*s", how, (int)(ml > 900 ? 900 : ml), e2.msg);
            check_add(k, CK_FAIL_ORDER, e2.loc, z, v, text);
        } else {
            for (int i = 0; i < c->nm; i++)
                if (c->alias[i] < 0 && c->cp[i])
                    compare_region(k, l, i, (const uint8_t *)(uintptr_t)l->mem[i].lo,
                                   c->cp[i], how, v);
        }
    }
    if (!last) copies_release(c);
    return ok;
}

/* The findings and the summary line into l->report, l->findings and l->notes. */
static void report(Checker *k, InterpLaunch *l, tc_status rc, bool compared, uint64_t seed,
                   int variants) {
    uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    int nm = l->nmem;
    int notes = 0;
    int nf = check_report(k, NULL, NULL, &notes);
    char summary[400];
    const char *name = l->f->name ? l->f->name : "kernel";
    if (compared)
        snprintf(summary, sizeof summary, "check: %s: %d finding%s, %d note%s (%llu programs; "
                 "results compared with a shuffled order, seed %llu%s)\n", name, nf,
                 nf == 1 ? "" : "s", notes, notes == 1 ? "" : "s", (unsigned long long)n,
                 (unsigned long long)seed, variants > 1 ? ", and with a parallel run" : "");
    else
        snprintf(summary, sizeof summary, "check: %s: %d finding%s, %d note%s (%llu program%s%s)\n",
                 name, nf, nf == 1 ? "" : "s", notes, notes == 1 ? "" : "s",
                 (unsigned long long)n, n == 1 ? "" : "s",
                 rc ? "; the launch failed" : n > 1 && nm > 0 ? "; orders not compared: out of memory" : "");
    l->findings = check_report(k, l->report, summary, &l->notes);
    l->nrecords = check_records(k, &l->records);
}

tc_status check_launch(InterpLaunch *l, Err *e) {
    Checker *k = check_new(l);
    if (!k) {
        err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory");
        return TC_ERR_NOMEM;
    }
    uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    tc_status rc = interp_programs(l, 1, 0, k, e);
    uint64_t seed = l->shuffle_seed ? l->shuffle_seed : INTERP_CHECK_DEFAULT_SEED;
    int variants = l->threads > 1 ? 2 : 1;
    bool compared = false;
    if (rc == TC_OK && n > 1 && l->nmem > 0) {
        Copies c;
        compared = copies_new(&c, l, k);
        if (compared) l->seed_used = seed;
        for (int v = 0; compared && v < variants; v++)
            compared = run_order(k, &c, v, v == variants - 1, seed);
        copies_free(&c);
    }
    report(k, l, rc, compared, seed, variants);
    check_free(k);
    return rc;
}
