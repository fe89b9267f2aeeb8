/* fuzz_one.h — what one fuzz input does, shared by the libFuzzer targets (fuzz/fuzz_*.c)
 * and by the regression replay in `make test` (tests/test_fuzz_regress.c), so that a saved
 * input takes exactly the path that found it.
 *
 * Each fz_*_one() returns NULL when the input was handled (accepted, or refused with a
 * status and a message), or a static string naming what went wrong otherwise: a refusal
 * with no message, a status out of range, TC_ERR_INTERNAL (an invariant failed: a tritonc
 * bug). Crashes, leaks, undefined behaviour and hangs are the sanitizers' and libFuzzer's to
 * report. Set FUZZ_ALLOW_INTERNAL=1 to let TC_ERR_INTERNAL pass (for long runs that should
 * look past a known one). */
#ifndef FUZZ_ONE_H
#define FUZZ_ONE_H

#include "front/ast.h"
#include "gpu/gpu.h"
#include "interp/interp.h"
#include "ir/ir.h"
#include "trace/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define FZ_UNUSED __attribute__((unused))
#else
#define FZ_UNUSED
#endif

static char fz_why[4400];

/* A refusal must carry a known status and a message (no refusal is silent). */
FZ_UNUSED static const char *fz_check_err(const char *stage, const Err *e) {
    if (e->code == TC_OK) {
        snprintf(fz_why, sizeof fz_why, "%s failed with status TC_OK", stage);
        return fz_why;
    }
    if ((int)e->code < 0 || e->code > TC_ERR_INTERNAL) {
        snprintf(fz_why, sizeof fz_why, "%s failed with unknown status %d", stage, (int)e->code);
        return fz_why;
    }
    if (!e->msg[0]) {
        snprintf(fz_why, sizeof fz_why, "%s failed (%s) with an empty message", stage,
                 tc_status_name(e->code));
        return fz_why;
    }
    if (!memchr(e->msg, 0, sizeof e->msg)) {
        snprintf(fz_why, sizeof fz_why, "%s: message not NUL-terminated", stage);
        return fz_why;
    }
    if (e->code == TC_ERR_INTERNAL) {
        const char *allow = getenv("FUZZ_ALLOW_INTERNAL");
        if (!(allow && *allow == '1')) {
            snprintf(fz_why, sizeof fz_why, "%s: TC_ERR_INTERNAL: %s", stage, e->msg);
            return fz_why;
        }
    }
    return NULL;
}

/* ---- fuzz_parse: arbitrary bytes -> lex, then parse_module ----------------------------- */

FZ_UNUSED static const char *fz_parse_one(const uint8_t *data, size_t n) {
    Source *src = source_new("fuzz.py", (const char *)data, n);
    if (!src) return NULL;
    const char *why = NULL;

    /* The lexer alone, as parse_module's first step but with its own arena. */
    {
        static Err e;
        static Arena a;
        memset(&e, 0, sizeof e);
        arena_init(&a, &e);
        jmp_buf jb;
        if (ERR_TRY(&e, jb)) {
            e.jump = NULL;
            why = fz_check_err("lex", &e);
        } else {
            int ntok = 0;
            Token *t = lex(src, &a, &e, &ntok);
            e.jump = NULL;
            if (!t || ntok < 1 || t[ntok - 1].kind != TK_EOF) {
                snprintf(fz_why, sizeof fz_why, "lex: token array does not end with TK_EOF");
                why = fz_why;
            }
            for (int i = 0; t && i < ntok && !why; i++) {
                if (t[i].kind > TK_OP) {
                    snprintf(fz_why, sizeof fz_why, "lex: token %d has kind %d", i, t[i].kind);
                    why = fz_why;
                } else if (t[i].kind != TK_EOF && t[i].kind != TK_DEDENT &&
                           t[i].kind != TK_INDENT && t[i].kind != TK_NEWLINE &&
                           (t[i].s < src->text || t[i].len < 0 ||
                            t[i].s + t[i].len > src->text + src->len)) {
                    snprintf(fz_why, sizeof fz_why, "lex: token %d lies outside the source", i);
                    why = fz_why;
                }
            }
        }
        arena_free(&a);
    }

    if (!why) {
        Err e;
        memset(&e, 0, sizeof e);
        Module *m = parse_module(src, &e);
        if (!m) {
            why = fz_check_err("parse_module", &e);
        } else {
            /* Walk what the parser made: names, resolution of decorators, lookups. */
            Arena a;
            Err ae;
            memset(&ae, 0, sizeof ae);
            arena_init(&a, &ae);
            jmp_buf jb;
            if (ERR_TRY(&ae, jb)) {
                ae.jump = NULL;
                if (!why) why = fz_check_err("module_resolve", &ae);
            } else {
                for (int i = 0; i < m->nfuncs; i++) {
                    const Func *f = m->funcs[i];
                    if (!f || !f->name || module_find(m, f->name) == NULL) {
                        snprintf(fz_why, sizeof fz_why, "parse_module: function %d unnamed", i);
                        why = fz_why;
                        break;
                    }
                    for (int d = 0; d < f->ndecos; d++) (void)module_resolve(m, f->decos[d].expr, &a);
                    for (int p = 0; p < f->nparams; p++)
                        if (f->params[p].annotation)
                            (void)module_resolve(m, f->params[p].annotation, &a);
                }
                ae.jump = NULL;
            }
            arena_free(&a);
            module_free(m);
        }
    }
    source_free(src);
    return why;
}

/* ---- fuzz_trace: kernel text -> parse -> trace every @jit function (-> interpret, -> PTX) --- */

/* The specialization each parameter gets: constexprs 16 (their default when they have one
 * and the input's salt says so), runtime parameters a pointer when the name looks like one
 * (x_ptr, Out, Q), else i32 (16 when interpreted). */
static int fz_looks_like_ptr(const char *name) {
    if (strstr(name, "ptr") || strstr(name, "Ptr") || strstr(name, "PTR")) return 1;
    if (name[0] >= 'A' && name[0] <= 'Z') {
        if (!name[1]) return name[0] != 'M' && name[0] != 'N' && name[0] != 'K';
        for (const char *p = name + 1; *p; p++)
            if (*p >= 'a' && *p <= 'z') return 1;  /* Out, Mean, Rstd */
        return 0;                                   /* BLOCK, N_COLS */
    }
    static const char *const ptrs[] = {"x", "y", "z", "out", "output", "input", "a", "b",
                                       "c", "src", "dst", "inp", "res", "acc_ptr"};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        if (strcmp(name, ptrs[i]) == 0) return 1;
    return 0;
}

#define FZ_MAX_PARAMS 64
#define FZ_GUARD_ELEMS 4096
#define FZ_MAX_TRIPS 4096
#define FZ_MAX_VALUE_BYTES ((int64_t)64 << 20)

typedef struct FzWalk {
    const IrFunc *f;
    const Inst **def;      /* defining instruction of each value (NULL for params) */
    const int64_t *pval;   /* value of each runtime parameter value id, or INT64_MIN */
    int64_t trips;         /* product of the trip counts seen on the current path */
    bool ok;
} FzWalk;

static bool fz_const_of(FzWalk *w, int v, int64_t *out) {
    if (v < 0 || v >= w->f->nvalues) return false;
    if (w->pval[v] != INT64_MIN) { *out = w->pval[v]; return true; }
    const Inst *d = w->def[v];
    if (!d || d->op != OP_CONST || w->f->types[v].rank != 0 || !dt_is_int(w->f->types[v].dt))
        return false;
    *out = d->attr.i;
    return true;
}

static void fz_defs(FzWalk *w, const Region *r, const Inst **def) {
    if (!r) return;
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < in->nres; k++)
            if (in->res[k] >= 0 && in->res[k] < w->f->nvalues) def[in->res[k]] = in;
        fz_defs(w, in->regions[0], def);
        fz_defs(w, in->regions[1], def);
    }
}

/* The interpreter runs only programs known to finish quickly: no while loops, for loops
 * with bounds that are constants or parameters, at most FZ_MAX_TRIPS nested iterations. */
static void fz_bound(FzWalk *w, const Region *r, int64_t outer) {
    if (!r || !w->ok) return;
    for (int i = 0; i < r->ninsts && w->ok; i++) {
        const Inst *in = r->insts[i];
        if (in->op == OP_WHILE) { w->ok = false; return; }
        int64_t mult = 1;
        if (in->op == OP_FOR) {
            int64_t lb, ub, st;
            if (in->nargs < 3 || !fz_const_of(w, in->args[0], &lb) ||
                !fz_const_of(w, in->args[1], &ub) || !fz_const_of(w, in->args[2], &st) ||
                st <= 0 || lb < -(1 << 20) || ub > (1 << 20)) {
                w->ok = false;
                return;
            }
            mult = ub > lb ? (ub - lb + st - 1) / st : 0;
            if (mult < 1) mult = 1;
            if (mult > FZ_MAX_TRIPS || outer * mult > FZ_MAX_TRIPS) { w->ok = false; return; }
        }
        fz_bound(w, in->regions[0], outer * mult);
        fz_bound(w, in->regions[1], outer * mult);
    }
}

static bool fz_interp_safe(const IrFunc *f, const int64_t *pval) {
    int64_t bytes = 0;
    for (int v = 0; v < f->nvalues; v++) {
        bytes += type_numel(f->types[v]) * 8;
        if (bytes > FZ_MAX_VALUE_BYTES) return false;
    }
    const Inst **def = calloc((size_t)f->nvalues + 1, sizeof *def);
    if (!def) return false;
    FzWalk w = {f, def, pval, 1, true};
    fz_defs(&w, f->body, def);
    fz_bound(&w, f->body, 1);
    free(def);
    return w.ok;
}

static void fz_discard_print(const char *text, void *user) { (void)text; (void)user; }

static const char *fz_interpret(const IrFunc *f, const SpecArg *sa, const Func *k,
                                unsigned salt) {
    int64_t *pval = malloc(((size_t)f->nvalues + 1) * sizeof *pval);
    ArgBits *args = calloc((size_t)f->nparams + 1, sizeof *args);
    MemRegion *mem = calloc((size_t)f->nparams + 1, sizeof *mem);
    void **bufs = calloc((size_t)f->nparams + 1, sizeof *bufs);
    const char *why = NULL;
    if (!pval || !args || !mem || !bufs) goto done;
    for (int v = 0; v < f->nvalues; v++) pval[v] = INT64_MIN;
    int nmem = 0;
    for (int i = 0; i < f->nparams; i++) {
        const IrParam *p = &f->params[i];
        if (p->type.dt == DT_PTR) {
            int es = dt_size(p->type.elem);
            if (es < 1) es = 1;
            size_t nb = (size_t)FZ_GUARD_ELEMS * (size_t)es;
            bufs[i] = malloc(nb);
            if (!bufs[i]) goto done;
            for (size_t b = 0; b < nb; b++) ((uint8_t *)bufs[i])[b] = (uint8_t)(b * 7 + 1);
            args[i].u = (uint64_t)(uintptr_t)bufs[i];
            mem[nmem].lo = args[i].u;
            mem[nmem].hi = args[i].u + nb;
            mem[nmem].name = p->name;
            nmem++;
        } else if (dt_is_float(p->type.dt)) {
            args[i].f = 1.5;
        } else {
            args[i].i = 16;
            if (p->value >= 0 && p->value < f->nvalues) pval[p->value] = 16;
        }
    }
    (void)sa;
    (void)k;
    if (!fz_interp_safe(f, pval)) goto done;
    InterpLaunch l;
    memset(&l, 0, sizeof l);
    l.f = f;
    l.args = args;
    l.grid[0] = 1 + (salt & 1);
    l.grid[1] = 1 + ((salt >> 1) & 1);
    l.grid[2] = 1;
    l.mem = mem;
    l.nmem = nmem;
    l.print = fz_discard_print;
    l.check = (salt >> 2) & 1;
    l.shuffle_seed = (salt >> 3) & 1 ? 12345 : 0;
    Buf report = {0};
    l.report = &report;
    Err e;
    memset(&e, 0, sizeof e);
    tc_status rc = interp_run(&l, &e);
    if (rc != TC_OK) {
        if (e.code == TC_OK) e.code = rc;
        why = fz_check_err("interp_run", &e);
    }
    free(l.records);   /* check mode's findings: the caller's to free (interp.h; F11) */
    buf_free(&report);
done:
    if (bufs)
        for (int i = 0; i < f->nparams; i++) free(bufs[i]);
    free(bufs);
    free(mem);
    free(args);
    free(pval);
    return why;
}

/* Lowers the traced function to PTX (no device needed): sm_90a or sm_80, 4 or 1 warps. */
static const char *fz_gpu(const IrFunc *f, unsigned salt) {
    tc_target t;
    target_of_arch((salt & 8) ? 80 : 90, &t);
    GpuKernel gk;
    memset(&gk, 0, sizeof gk);
    Err e;
    memset(&e, 0, sizeof e);
    tc_status rc = gpu_compile(f, &t, (salt & 4) ? 1 : 4, 3, 0, true, &gk, &e);
    const char *why = NULL;
    if (rc != TC_OK) {
        if (e.code == TC_OK) e.code = rc;
        why = fz_check_err("gpu_compile", &e);
    } else if (!gk.ptx || !strstr(gk.ptx, ".entry")) {
        snprintf(fz_why, sizeof fz_why, "gpu_compile: TC_OK without a PTX .entry");
        why = fz_why;
    }
    gpu_kernel_free(&gk);
    return why;
}

enum { FZ_INTERP = 1, FZ_GPU = 2 };

/* Traces each @jit function of the module once. The first byte of the input (if it is not
 * printable text) is a salt choosing variants; otherwise the salt is 0. */
FZ_UNUSED static const char *fz_trace_one(const uint8_t *data, size_t n, int flags) {
    bool interpret = (flags & FZ_INTERP) != 0;
    unsigned salt = 0;
    if (n > 0 && data[0] >= 0x80) { salt = data[0]; data++; n--; }
    Source *src = source_new("fuzz.py", (const char *)data, n);
    if (!src) return NULL;
    const char *why = NULL;
    Err pe;
    memset(&pe, 0, sizeof pe);
    Module *m = parse_module(src, &pe);
    if (!m) {
        why = fz_check_err("parse_module", &pe);
        source_free(src);
        return why;
    }
    for (int fi = 0; fi < m->nfuncs && fi < 8 && !why; fi++) {
        const Func *k = m->funcs[fi];
        if (k->nparams > FZ_MAX_PARAMS) continue;
        SpecArg sa[FZ_MAX_PARAMS];
        memset(sa, 0, sizeof sa);
        for (int i = 0; i < k->nparams; i++) {
            const Param *p = &k->params[i];
            if (p->is_constexpr) {
                if (p->deflt && (salt & 16)) { sa[i].missing = true; continue; }
                sa[i].is_constexpr = true;
                sa[i].cv = cv_int((salt & 32) ? 4 : 16);
            } else if (fz_looks_like_ptr(p->name)) {
                sa[i].type = type_ptr((salt & 64) ? DT_FP16 : DT_FP32);
                sa[i].div16 = true;
            } else {
                sa[i].type = type_scalar(DT_I32);
                sa[i].div16 = true;
            }
        }
        /* The arena reports through the tracer's own Err, whose jump trace_kernel sets, so
         * that its limit (and malloc failure) unwinds like any other trace error. */
        Err te;
        memset(&te, 0, sizeof te);
        Arena a;
        arena_init(&a, &te);
        a.limit = (size_t)256 << 20;
        Buf out = {0};
        IrFunc *f = trace_kernel(m, k, sa, &a, &te, &out);
        if (!f) {
            why = fz_check_err("trace_kernel", &te);
        } else {
            Buf pr = {0};
            ir_print(f, &pr);
            buf_free(&pr);
            if (interpret) why = fz_interpret(f, sa, k, salt);
            if (!why && (flags & FZ_GPU)) why = fz_gpu(f, salt);
        }
        buf_free(&out);
        arena_free(&a);
    }
    module_free(m);
    source_free(src);
    return why;
}

#endif
