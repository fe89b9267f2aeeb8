/* stmt.c — the statements of a kernel or an inlined @jit function, traced with their
 * constexprs known (trace.c has the notes on choices): assignments, trace-time and run-time
 * `if`, `for` (static_range unrolled, range/tl.range as scf.for with the loop-carried names
 * found by a pre-scan), `while`, `return`, `assert`. */
#include "trace/walk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void assign_target(Trace *t, const Expr *target, Val v, SrcLoc loc) {
    Frame *fr = TS(t)->fr;
    if (target->kind == EX_NAME) {
        tr_scope_set(t, &fr->sc, target->name, tr_sanitize(t, v, loc));
        return;
    }
    if (target->kind == EX_TUPLE || target->kind == EX_LIST) {
        Val *it; int n;
        if (!tr_tuple_items(t, v, &it, &n))
            err_fail(t->err, TC_ERR_COMPILE, target->loc,
                     "cannot unpack non-iterable %s object", tr_kind_name(&v));
        if (n != target->n) {
            if (n > target->n)
                err_fail(t->err, TC_ERR_COMPILE, target->loc,
                         "too many values to unpack (expected %d)", target->n);
            err_fail(t->err, TC_ERR_COMPILE, target->loc,
                     "not enough values to unpack (expected %d, got %d)", target->n, n);
        }
        for (int i = 0; i < n; i++) assign_target(t, target->items[i], it[i], loc);
        return;
    }
    err_fail(t->err, TC_ERR_SYNTAX, target->loc, "unsupported assignment target: %s",
             target->kind == EX_SUBSCRIPT ? "Subscript (tensors and tuples are immutable)"
             : target->kind == EX_ATTR    ? "Attribute"
                                          : "expression");
}

/* Names assigned anywhere in a block (not for-loop targets), for loop-carried values. */
static void collect_target_names(Trace *t, const Expr *e, const char ***names, int *n, int *cap) {
    if (!e) return;
    if (e->kind == EX_NAME) {
        for (int i = 0; i < *n; i++)
            if (!strcmp((*names)[i], e->name)) return;
        ARENA_PUSH(t->arena, *names, *n, *cap, e->name);
    } else if (e->kind == EX_TUPLE || e->kind == EX_LIST) {
        for (int i = 0; i < e->n; i++) collect_target_names(t, e->items[i], names, n, cap);
    }
}

static void collect_assigned(Trace *t, const Block *b, const char ***names, int *n, int *cap) {
    for (int i = 0; i < b->n; i++) {
        const Stmt *s = b->stmts[i];
        switch (s->kind) {
        case ST_ASSIGN: case ST_ANNASSIGN: case ST_AUGASSIGN:
            collect_target_names(t, s->target, names, n, cap);
            break;
        case ST_IF: case ST_FOR: case ST_WHILE:
            collect_assigned(t, &s->body, names, n, cap);
            collect_assigned(t, &s->orelse, names, n, cap);
            break;
        default: break;
        }
    }
}

static bool is_constexpr_annotation(Trace *t, const Expr *ann) {
    const char *p = module_resolve(t->mod, ann, t->arena);
    return p && (!strcmp(p, "triton.language.constexpr") ||
                 !strcmp(p, "triton.language.core.constexpr") || !strcmp(p, "constexpr"));
}

static void stmt_return(Trace *t, const Stmt *s) {
    Frame *fr = TS(t)->fr;
    if (fr->loop_depth > 0)
        err_fail(t->err, TC_ERR_SYNTAX, s->loc,
                 "Cannot have `return` statements inside `while` or `for` statements in triton "
                 "(note that this also applies to `return` statements that are inside functions "
                 "transitively called from within `while`/`for` statements)");
    Val v = s->value ? tr_eval(t, s->value) : val_void();
    if (fr->is_kernel) {
        if (v.kind != V_VOID && !(v.kind == V_CONST && v.c.kind == CV_NONE))
            err_fail(t->err, TC_ERR_COMPILE, s->loc,
                     "a kernel cannot return a value (kernels write results through pointers)");
        if (t->cur != t->f->body)
            ir_emit(t->f, t->cur, OP_RETURN, NULL, 0, type_scalar(DT_VOID), s->loc);
        fr->returned = true;
        return;
    }
    /* decay: constexpr numbers become tensors, None means no value */
    if (v.kind == V_CONST && v.c.kind == CV_NONE) v = val_void();
    if (v.kind == V_CONST && cv_is_num(&v.c)) v = sem_to_tensor(t, v, s->loc);
    if (v.kind == V_TUPLE || (v.kind == V_CONST && v.c.kind == CV_TUPLE)) {
        Val *it; int n;
        tr_tuple_items(t, v, &it, &n);
        Val *o = arena_alloc(t->arena, sizeof(Val) * (size_t)(n + 1));
        for (int i = 0; i < n; i++)
            o[i] = (it[i].kind == V_CONST && cv_is_num(&it[i].c)) ? sem_to_tensor(t, it[i], s->loc)
                                                                : it[i];
        v = tr_val_tuple(o, n);
    }
    fr->returned = true;
    fr->has_ret = v.kind != V_VOID;
    fr->ret = v;
}


/* Poison of the same structure as v (for a path that falls off the end of a function). */
static Val poison_like(Trace *t, Val v, SrcLoc loc) {
    if (v.kind == V_TUPLE || v.kind == V_BLOCKPTR) {
        Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(v.n + 1));
        for (int i = 0; i < v.n; i++) it[i] = poison_like(t, v.items[i], loc);
        Val r = tr_val_tuple(it, v.n);
        r.kind = v.kind;
        r.bp = v.bp;
        return r;
    }
    if (v.kind == V_TENSOR) return tr_const_tensor(t, v.type, 0, 0, loc);
    return v;
}

static void stmt_if(Trace *t, const Stmt *s) {
    TState *ts = TS(t);
    Frame *fr = ts->fr;
    Val c = tr_eval(t, s->cond);
    if (c.kind != V_TENSOR) {
        tr_check_cond_type(t, c, s->cond->loc);
        tr_walk_block(t, eval_truthy(&c.c) ? &s->body : &s->orelse);
        return;
    }
    c = tr_to_i1_scalar(t, c, "if", s->cond->loc);
    Region *saved = t->cur;
    Inst *in = ir_emit(t->f, saved, OP_IF, &c.id, 1, type_scalar(DT_VOID), s->loc);
    Region *rr[2] = {ir_region_new(t->f), ir_region_new(t->f)};
    in->regions[0] = rr[0];
    in->regions[1] = rr[1];
    Scope before = fr->sc;
    Scope arm[2];
    bool ret[2];
    bool hasr[2];
    Val rv[2];
    for (int k = 0; k < 2; k++) {
        fr->sc = tr_scope_copy(t, &before);
        fr->returned = false;
        fr->has_ret = false;
        fr->ret = val_void();
        t->cur = rr[k];
        /* an arm continues with the rest of the enclosing blocks on its own path */
        tr_walk_stmts_from(t, k == 0 ? &s->body : &s->orelse, 0, CONT_PLAIN);
        arm[k] = fr->sc;
        ret[k] = fr->returned;
        hasr[k] = fr->has_ret;
        rv[k] = fr->ret;
    }
    if (!fr->is_kernel && ret[0] != ret[1]) {
        /* a return on one path only: trace the rest of the function into the other arm */
        int k = ret[0] ? 1 : 0;
        fr->sc = arm[k];
        fr->returned = false;
        fr->has_ret = false;
        fr->ret = val_void();
        t->cur = rr[k];
        bool falloff = false;
        /* walking the continuation rewrites the entries it passes through; the other arm
         * of an enclosing if still needs them as they are now */
        int ncont0 = fr->ncont;
        Cont *snap = arena_alloc(t->arena, sizeof(Cont) * (size_t)(ncont0 + 1));
        if (ncont0) memcpy(snap, fr->cont, sizeof(Cont) * (size_t)ncont0);
        for (int j = fr->ncont - 1; j >= 0 && !fr->returned; j--) {
            Cont en = fr->cont[j];
            if (en.kind == CONT_BARRIER)
                err_fail(t->err, TC_ERR_UNSUPPORTED, s->loc,
                         "a `return` inside a run-time `if` within a loop of a @jit function is "
                         "not supported unless every path returns within the loop body");
            int saved_n = fr->ncont;
            fr->ncont = j;
            tr_walk_stmts_from(t, en.b, en.next, en.kind);
            fr->ncont = saved_n;
            if (!fr->returned && en.kind == CONT_BODY) falloff = true;
            if (falloff) break;
        }
        if (ncont0) memcpy(fr->cont, snap, sizeof(Cont) * (size_t)ncont0);
        fr->ncont = ncont0;
        if (!fr->returned) {
            if (!falloff)
                err_fail(t->err, TC_ERR_INTERNAL, s->loc, "continuation without a function body");
            /* fell off the end of the function: poison, as Triton */
            fr->ret = poison_like(t, rv[1 - k], s->loc);
            fr->has_ret = hasr[1 - k];
            fr->returned = true;
        }
        arm[k] = fr->sc;
        ret[k] = true;
        hasr[k] = fr->has_ret;
        rv[k] = fr->ret;
    }
    t->cur = saved;
    Leaves la = {0}, lb = {0};
    if (fr->is_kernel && ret[0] && ret[1]) {
        tr_emit_yield(t, rr[0], OP_YIELD, &la, NULL, s->loc);
        tr_emit_yield(t, rr[1], OP_YIELD, &lb, NULL, s->loc);
        fr->sc = before;
        fr->returned = true;
        return;
    }
    if (!fr->is_kernel && ret[0] && ret[1]) {
        /* both paths return: the if yields the return values */
        if (hasr[0] != hasr[1] ||
            (hasr[0] && !tr_pair_leaves(t, &rv[0], &rv[1], rr[0], rr[1], &la, &lb, s->loc)))
            err_fail(t->err, TC_ERR_COMPILE, s->loc, "Inconsistent return types");
        for (int i = 0; i < la.n; i++)
            if (!type_eq(la.v[i].type, lb.v[i].type)) {
                char ta[96], tb[96];
                tr_tystr(la.v[i].type, ta, sizeof ta);
                tr_tystr(lb.v[i].type, tb, sizeof tb);
                err_fail(t->err, TC_ERR_COMPILE, s->loc,
                         "Inconsistent return types: %s and %s", ta, tb);
            }
        tr_emit_yield(t, rr[0], OP_YIELD, &la, NULL, s->loc);
        tr_emit_yield(t, rr[1], OP_YIELD, &lb, NULL, s->loc);
        int *ids = arena_alloc(t->arena, sizeof(int) * (size_t)(la.n + 1));
        for (int i = 0; i < la.n; i++) ids[i] = ir_inst_add_result(t->f, in, la.v[i].type);
        int kk = 0;
        fr->ret = tr_rebuild(t, rv[0], ids, &kk);
        fr->has_ret = hasr[0];
        fr->returned = true;
        fr->sc = before;
        return;
    }
    /* merge names: live before and changed in an arm, or defined in both arms */
    Scope out = tr_scope_copy(t, &before);
    typedef struct { const char *name; Val tmpl; } Merge;
    Merge *mg = NULL;
    int nm = 0, capm = 0;
    int cont = ret[0] ? 1 : 0;        /* the arm whose values continue after the if */
    bool one_returned = ret[0] != ret[1];
    for (int i = 0; i < arm[0].n; i++) {
        const char *name = arm[0].b[i].name;
        Binding *bb = tr_scope_find(&arm[1], name);
        if (!bb) continue;
        Val a = arm[0].b[i].v, b = bb->v;
        if (tr_val_same(&a, &b)) {
            tr_scope_set(t, &out, name, a);
            continue;
        }
        if (one_returned) {
            /* kernel: only one path continues; the returning arm yields poison */
            Val v = cont ? b : a;
            Binding *bf = tr_scope_find(&before, name);
            if (bf && tr_val_same(&bf->v, &v)) continue;
            Leaves lv = {0};
            tr_flatten(t, v, &lv);
            Region *rret = rr[1 - cont];
            for (int j = 0; j < lv.n; j++) {
                t->cur = rret;
                Val p = tr_const_tensor(t, lv.v[j].type, 0, 0, s->loc);
                t->cur = saved;
                tr_leaves_push(t, cont ? &lb : &la, lv.v[j]);
                tr_leaves_push(t, cont ? &la : &lb, p);
            }
            Merge m = {name, v};
            ARENA_PUSH(t->arena, mg, nm, capm, m);
            continue;
        }
        int first = la.n;
        bool ok = tr_pair_leaves(t, &a, &b, rr[0], rr[1], &la, &lb, s->loc);
        for (int j = first; ok && j < la.n; j++)
            if (!type_eq(la.v[j].type, lb.v[j].type)) ok = false;
        if (!ok) {
            char ta[128], tb[128];
            if (a.kind == V_TENSOR) tr_tystr(a.type, ta, sizeof ta); else tr_val_desc(t, &a, ta, sizeof ta);
            if (b.kind == V_TENSOR) tr_tystr(b.type, tb, sizeof tb); else tr_val_desc(t, &b, tb, sizeof tb);
            err_fail(t->err, TC_ERR_COMPILE, s->loc,
                     "Mismatched type for %s between then block and else block of if "
                     "statement: %s and %s", name, ta, tb);
        }
        Merge m = {name, a};
        ARENA_PUSH(t->arena, mg, nm, capm, m);
    }
    tr_emit_yield(t, rr[0], OP_YIELD, &la, NULL, s->loc);
    tr_emit_yield(t, rr[1], OP_YIELD, &lb, NULL, s->loc);
    int *ids = arena_alloc(t->arena, sizeof(int) * (size_t)(la.n + 1));
    for (int i = 0; i < la.n; i++) ids[i] = ir_inst_add_result(t->f, in, la.v[i].type);
    int k = 0;
    for (int i = 0; i < nm; i++) tr_scope_set(t, &out, mg[i].name, tr_rebuild(t, mg[i].tmpl, ids, &k));
    fr->sc = out;
    fr->returned = ret[0] && ret[1];
    fr->has_ret = false;
}

/* Loop-carried names: live before and assigned in the body. Materializes constexpr numbers
 * (emitting at the current point) and returns them with their initial values. */
typedef struct Carried { const char **names; Val *init; int n; Leaves leaves; } Carried;

static void find_carried(Trace *t, const Block *body, SrcLoc loc, Carried *cr) {
    Frame *fr = TS(t)->fr;
    const char **names = NULL;
    int n = 0, cap = 0;
    collect_assigned(t, body, &names, &n, &cap);
    memset(cr, 0, sizeof *cr);
    cr->names = arena_alloc(t->arena, sizeof(char *) * (size_t)(n + 1));
    cr->init = arena_alloc(t->arena, sizeof(Val) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        Binding *b = tr_scope_find(&fr->sc, names[i]);
        if (!b) continue;
        Val v = b->v;
        if (v.kind == V_CONST && cv_is_num(&v.c)) v = sem_to_tensor(t, v, loc);
        Leaves l = {0};
        tr_flatten(t, v, &l);
        if (v.kind != V_TENSOR && !(v.kind == V_TUPLE && l.n > 0)) {
            /* a non-tensor (dtype, None, function...) re-assigned in a loop */
            if (v.kind == V_CONST || v.kind == V_FUNC || v.kind == V_BUILTIN) continue;
        }
        cr->names[cr->n] = names[i];
        cr->init[cr->n] = v;
        cr->n++;
        for (int j = 0; j < l.n; j++) tr_leaves_push(t, &cr->leaves, l.v[j]);
    }
}

/* Binds the carried names in the current scope to region params (creating them). */
static void bind_params(Trace *t, const Carried *cr, Region *r, SrcLoc loc) {
    Frame *fr = TS(t)->fr;
    int *ids = arena_alloc(t->arena, sizeof(int) * (size_t)(cr->leaves.n + 1));
    for (int i = 0; i < cr->leaves.n; i++)
        ids[i] = ir_region_param(t->f, r, cr->leaves.v[i].type, loc);
    int k = 0;
    for (int i = 0; i < cr->n; i++) tr_scope_set(t, &fr->sc, cr->names[i], tr_rebuild(t, cr->init[i], ids, &k));
}

/* The carried values at the end of the body, checked against the initial types. */
static void body_yields(Trace *t, const Carried *cr, Leaves *out, SrcLoc loc) {
    Frame *fr = TS(t)->fr;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < cr->n; i++) {
        Val v = tr_scope_find(&fr->sc, cr->names[i])->v;
        Leaves li = {0}, lv = {0};
        tr_flatten(t, cr->init[i], &li);
        if (v.kind == V_CONST && cv_is_num(&v.c)) v = sem_to_tensor(t, v, loc);
        tr_flatten(t, v, &lv);
        bool ok = li.n == lv.n && (v.kind == cr->init[i].kind);
        if (ok && v.kind == V_BLOCKPTR) ok = sem_bptr_same_kind(&cr->init[i], &v);
        for (int j = 0; ok && j < li.n; j++)
            if (!type_eq(li.v[j].type, lv.v[j].type)) ok = false;
        if (!ok) {
            char ta[128], tb[128];
            if (cr->init[i].kind == V_TENSOR) tr_tystr(cr->init[i].type, ta, sizeof ta);
            else tr_val_desc(t, &cr->init[i], ta, sizeof ta);
            if (v.kind == V_TENSOR) tr_tystr(v.type, tb, sizeof tb); else tr_val_desc(t, &v, tb, sizeof tb);
            err_fail(t->err, TC_ERR_COMPILE, loc,
                     "Loop-carried variable %s has initial type %s but is re-assigned to %s in "
                     "loop! Please make sure that the type stays consistent.",
                     cr->names[i], ta, tb);
        }
        for (int j = 0; j < lv.n; j++) tr_leaves_push(t, out, lv.v[j]);
    }
}

static void bind_results(Trace *t, const Carried *cr, Scope *sc, Inst *in, SrcLoc loc) {
    int *ids = arena_alloc(t->arena, sizeof(int) * (size_t)(cr->leaves.n + 1));
    for (int i = 0; i < cr->leaves.n; i++) ids[i] = ir_inst_add_result(t->f, in, cr->leaves.v[i].type);
    int k = 0;
    for (int i = 0; i < cr->n; i++) tr_scope_set(t, sc, cr->names[i], tr_rebuild(t, cr->init[i], ids, &k));
}

static void static_for(Trace *t, const Stmt *s, Val *args_in, int nargs, const char **kwn,
                       Val *kwv, int nkw) {
    Frame *fr = TS(t)->fr;
    Val args[3];
    if (nargs > 3)
        err_fail(t->err, TC_ERR_COMPILE, s->value->loc,
                 "static_range expected 1 to 3 arguments, got %d", nargs);
    for (int i = 0; i < nargs; i++) args[i] = args_in[i];
    for (int i = 0; i < nkw; i++) {
        int slot = !strcmp(kwn[i], "arg1") ? 0 : !strcmp(kwn[i], "arg2") ? 1
                 : !strcmp(kwn[i], "step") ? 2 : -1;
        if (slot < 0 || slot != nargs)
            err_fail(t->err, TC_ERR_COMPILE, s->value->loc,
                     "static_range() got an unexpected keyword argument '%s'", kwn[i]);
        if (kwv[i].kind == V_CONST && kwv[i].c.kind == CV_NONE) continue;
        args[nargs++] = kwv[i];
    }
    if (nargs < 1 || nargs > 3)
        err_fail(t->err, TC_ERR_COMPILE, s->value->loc,
                 "static_range expected 1 to 3 arguments, got %d", nargs);
    int64_t v[3];
    for (int i = 0; i < nargs; i++) {
        if (args[i].kind != V_CONST || !cv_is_intlike(&args[i].c) || args[i].c.big) {
            char d[128];
            tr_val_desc(t, &args[i], d, sizeof d);
            err_fail(t->err, TC_ERR_COMPILE, s->value->loc,
                     "%s used as tl.static_range %s value is not a constexpr", d,
                     nargs == 1 || i == 1 ? "end" : i == 0 ? "start" : "step");
        }
        v[i] = args[i].c.v.i;
    }
    int64_t lo = nargs == 1 ? 0 : v[0], hi = nargs == 1 ? v[0] : v[1], st = nargs == 3 ? v[2] : 1;
    if (st == 0) err_fail(t->err, TC_ERR_COMPILE, s->value->loc, "static_range() step must not be zero");
    if (s->target->kind != EX_NAME)
        err_fail(t->err, TC_ERR_UNSUPPORTED, s->target->loc, "for-loop target must be a name");
    int64_t count = 0;
    for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) {
        if (++count > MAX_UNROLL)
            err_fail(t->err, TC_ERR_LIMIT, s->loc,
                     "tl.static_range unrolls more than %d iterations", MAX_UNROLL);
        tr_scope_set(t, &fr->sc, s->target->name, val_const(cv_int(i)));
        tr_walk_loop_body(t, &s->body);
        if (fr->returned) return;
    }
}

static void stmt_for(Trace *t, const Stmt *s) {
    TState *ts = TS(t);
    Frame *fr = ts->fr;
    if (s->has_orelse)
        err_fail(t->err, TC_ERR_SYNTAX, s->loc, "unsupported AST node type: For (for-else)");
    const Expr *it = s->value;
    Val fnv = it->kind == EX_CALL ? tr_eval(t, it->lhs) : val_void();
    const char *p = fnv.kind == V_BUILTIN && fnv.n == 0 ? fnv.path : "";
    bool is_static = !strcmp(p, "triton.language.static_range");
    bool is_tlrange = !strcmp(p, "triton.language.range");
    if (!is_static && !is_tlrange && strcmp(p, "builtins.range") != 0)
        err_fail(t->err, TC_ERR_SYNTAX, s->loc,
                 "Only `range` and `static_range` iterators are currently supported");
    CallArgs ca;
    tr_eval_call_args(t, it, &ca);
    if (is_static) { static_for(t, s, ca.args, ca.n, ca.kwn, ca.kwv, ca.nkw); return; }
    /* positional args, keyword forms of the bounds, and tl.range's hints */
    Val b[3];
    int nb = ca.n;
    /* tl.range's positional hints after the step (num_stages, loop_unroll_factor, ...) */
    int stages = 0;   /* tl.range(..., num_stages=N): the loop's own pipelining depth */
    bool warp_spec = false;   /* tl.range(..., warp_specialize=True): run as a plain loop */
    if (is_tlrange && nb > 3 && nb <= 9) {
        if (ca.args[3].kind == V_CONST && ca.args[3].c.kind == CV_INT) stages = (int)ca.args[3].c.v.i;
        nb = 3;
    }
    if (nb > 3) err_fail(t->err, TC_ERR_COMPILE, it->loc, "range expected at most 3 arguments, got %d", nb);
    for (int i = 0; i < nb; i++) b[i] = ca.args[i];
    static const char *const hints[] = {"num_stages", "loop_unroll_factor", "flatten",
                                        "warp_specialize", "disallow_acc_multi_buffer",
                                        "disable_licm"};
    Val kw_end = val_void(), kw_step = val_void();
    for (int i = 0; i < ca.nkw; i++) {
        bool ok = false;
        if (is_tlrange) {
            for (int j = 0; j < COUNT_OF(hints); j++)
                if (!strcmp(ca.kwn[i], hints[j])) ok = true;
            if (!strcmp(ca.kwn[i], "arg2") || !strcmp(ca.kwn[i], "end")) { kw_end = ca.kwv[i]; ok = true; }
            if (!strcmp(ca.kwn[i], "step")) { kw_step = ca.kwv[i]; ok = true; }
            if (!strcmp(ca.kwn[i], "num_stages") && ca.kwv[i].kind == V_CONST && ca.kwv[i].c.kind == CV_INT)
                stages = (int)ca.kwv[i].c.v.i;
            if (!strcmp(ca.kwn[i], "warp_specialize") && ca.kwv[i].kind == V_CONST &&
                (ca.kwv[i].c.kind == CV_BOOL || ca.kwv[i].c.kind == CV_INT) && ca.kwv[i].c.v.i)
                warp_spec = true;
        }
        if (!ok)
            err_fail(t->err, TC_ERR_COMPILE, it->loc, "range() got an unexpected keyword argument '%s'",
                     ca.kwn[i]);
    }
    if (kw_end.kind != V_VOID && !(kw_end.kind == V_CONST && kw_end.c.kind == CV_NONE) && nb == 1)
        b[nb++] = kw_end;
    if (kw_step.kind != V_VOID && !(kw_step.kind == V_CONST && kw_step.c.kind == CV_NONE) && nb == 2)
        b[nb++] = kw_step;
    if (nb < 1) err_fail(t->err, TC_ERR_COMPILE, it->loc, "range expected at least 1 argument, got 0");
    Val lb = nb == 1 ? val_const(cv_int(0)) : b[0];
    Val ub = nb == 1 ? b[0] : b[1];
    Val st = nb == 3 ? b[2] : val_const(cv_int(1));
    Val *bv[3] = {&lb, &ub, &st};
    /* the induction variable's type: integer promotion of the bound types */
    int ivdt = DT_VOID;
    for (int i = 0; i < 3; i++) {
        Val *x = bv[i];
        int dt;
        if (x->kind == V_CONST && x->c.kind == CV_BOOL) x->c = cv_int(x->c.v.i);
        if (x->kind == V_CONST && x->c.kind == CV_INT) {
            if (!literal_dtype(&x->c, &dt))
                err_fail(t->err, TC_ERR_COMPILE, it->loc, "range bound out of range");
        } else if (x->kind == V_TENSOR && x->type.rank == 0 && dt_is_int(x->type.dt)) {
            dt = x->type.dt;
        } else {
            char d[128];
            tr_val_desc(t, x, d, sizeof d);
            err_fail(t->err, TC_ERR_COMPILE, it->loc,
                     "range bounds and step must be integer scalars, got %s", d);
        }
        if (ivdt == DT_VOID) ivdt = dt;
        else if (ivdt != dt) {
            char msg[256];
            int r = promote_dtypes(ivdt, dt, PY_ADD, msg, sizeof msg);
            if (r == DT_VOID) err_fail(t->err, TC_ERR_COMPILE, it->loc, "%s", msg);
            ivdt = r;
        }
    }
    if (ivdt == DT_I1 || dt_bits(ivdt) < 32) ivdt = dt_is_signed(ivdt) || ivdt == DT_I1 ? DT_I32 : DT_U32;
    bool neg = false;
    if (st.kind == V_CONST) {
        if (!st.c.big && st.c.v.i == 0)
            err_fail(t->err, TC_ERR_COMPILE, it->loc, "ValueError: range() arg 3 must not be zero");
        if (!st.c.big && st.c.v.i < 0) {
            neg = true;
            Val tmp = lb; lb = ub; ub = tmp;
            st = val_const(tr_cunary(t, PY_USUB, &st.c, it->loc));
        }
    }
    Type ivt = type_scalar(ivdt);
    Val *bw[3] = {&lb, &ub, &st};
    for (int i = 0; i < 3; i++) {
        Val *x = bw[i];
        if (x->kind == V_CONST) *x = tr_const_tensor(t, ivt, x->c.big ? (int64_t)x->c.v.u : x->c.v.i, 0, it->loc);
        else if (x->type.dt != ivdt) *x = sem_cast(t, *x, ivt, false, it->loc);
    }
    if (s->target->kind != EX_NAME)
        err_fail(t->err, TC_ERR_UNSUPPORTED, s->target->loc, "for-loop target must be a name");
    Carried cr;
    find_carried(t, &s->body, s->loc, &cr);
    int nargs = 3 + cr.leaves.n;
    int *args = arena_alloc(t->arena, sizeof(int) * (size_t)nargs);
    args[0] = lb.id;
    args[1] = ub.id;
    args[2] = st.id;
    for (int i = 0; i < cr.leaves.n; i++) args[3 + i] = cr.leaves.v[i].id;
    Region *saved = t->cur;
    Inst *in = ir_emit(t->f, saved, OP_FOR, args, nargs, type_scalar(DT_VOID), s->loc);
    in->attr.i = stages > 0 ? stages : 0;
    in->attr.kind = warp_spec;   /* the launch report says it was not done */
    Region *body = ir_region_new(t->f);
    in->regions[0] = body;
    Scope before = fr->sc;
    fr->sc = tr_scope_copy(t, &before);
    int iv = ir_region_param(t->f, body, ivt, s->target->loc);
    bind_params(t, &cr, body, s->loc);
    t->cur = body;
    Val ivv = val_tensor(iv, ivt);
    if (neg) {
        /* Triton: iv = ub - iv' + lb (with the swapped bounds; builder ops, unchecked) */
        bool ns = t->no_sanitize;
        t->no_sanitize = true;
        ivv = sem_binary(t, PY_SUB, ub, ivv, s->target->loc);
        ivv = sem_binary(t, PY_ADD, ivv, lb, s->target->loc);
        t->no_sanitize = ns;
    }
    tr_scope_set(t, &fr->sc, s->target->name, ivv);
    fr->loop_depth++;
    tr_walk_loop_body(t, &s->body);
    fr->loop_depth--;
    Leaves y;
    body_yields(t, &cr, &y, s->loc);
    tr_emit_yield(t, body, OP_YIELD, &y, NULL, s->loc);
    t->cur = saved;
    fr->sc = tr_scope_copy(t, &before);
    bind_results(t, &cr, &fr->sc, in, s->loc);
}

static void stmt_while(Trace *t, const Stmt *s) {
    Frame *fr = TS(t)->fr;
    if (s->has_orelse)
        err_fail(t->err, TC_ERR_SYNTAX, s->loc, "unsupported AST node type: While (while-else)");
    Carried cr;
    find_carried(t, &s->body, s->loc, &cr);
    int *args = arena_alloc(t->arena, sizeof(int) * (size_t)(cr.leaves.n + 1));
    for (int i = 0; i < cr.leaves.n; i++) args[i] = cr.leaves.v[i].id;
    Region *saved = t->cur;
    Inst *in = ir_emit(t->f, saved, OP_WHILE, args, cr.leaves.n, type_scalar(DT_VOID), s->loc);
    Region *before_r = ir_region_new(t->f), *after_r = ir_region_new(t->f);
    in->regions[0] = before_r;
    in->regions[1] = after_r;
    Scope before = fr->sc;
    /* before region: evaluate the condition */
    fr->sc = tr_scope_copy(t, &before);
    bind_params(t, &cr, before_r, s->loc);
    t->cur = before_r;
    fr->loop_depth++;
    Val c = tr_eval(t, s->cond);
    if (c.kind != V_TENSOR)
        err_fail(t->err, TC_ERR_COMPILE, s->cond->loc,
                 "while-loop condition must be a run-time scalar tensor; a constexpr condition "
                 "(such as `while True:`) is not supported");
    c = tr_to_i1_scalar(t, c, "while", s->cond->loc);
    Leaves cur = {0};
    for (int i = 0; i < cr.n; i++) tr_flatten(t, tr_scope_find(&fr->sc, cr.names[i])->v, &cur);
    tr_emit_yield(t, before_r, OP_CONDITION, &cur, &c, s->loc);
    /* after region: the body */
    fr->sc = tr_scope_copy(t, &before);
    bind_params(t, &cr, after_r, s->loc);
    t->cur = after_r;
    tr_walk_loop_body(t, &s->body);
    fr->loop_depth--;
    Leaves y;
    body_yields(t, &cr, &y, s->loc);
    tr_emit_yield(t, after_r, OP_YIELD, &y, NULL, s->loc);
    t->cur = saved;
    fr->sc = tr_scope_copy(t, &before);
    bind_results(t, &cr, &fr->sc, in, s->loc);
}

static void walk_stmt(Trace *t, const Stmt *s) {
    TState *ts = TS(t);
    Frame *fr = ts->fr;
    ts->stmt_loc = s->loc;
    switch (s->kind) {
    case ST_EXPR: tr_eval(t, s->value); break;
    case ST_PASS: break;
    case ST_ASSIGN:
        if (s->ntargets > 1)
            err_fail(t->err, TC_ERR_SYNTAX, s->loc,
                     "simultaneous multiple assignment is not supported.");
        assign_target(t, s->target, tr_eval(t, s->value), s->loc);
        break;
    case ST_ANNASSIGN:
        if (s->annotation && is_constexpr_annotation(t, s->annotation)) {
            if (s->target->kind != EX_NAME)
                err_fail(t->err, TC_ERR_SYNTAX, s->target->loc,
                         "a tl.constexpr annotation needs a plain name as target");
            if (tr_scope_find(&fr->sc, s->target->name))
                err_fail(t->err, TC_ERR_COMPILE, s->loc,
                         "%s is already defined. constexpr cannot be reassigned.", s->target->name);
            if (!s->value) break;
            Val v = tr_eval(t, s->value);
            if (v.kind == V_TENSOR)
                err_fail(t->err, TC_ERR_COMPILE, s->value->loc,
                         "cannot make a tl.constexpr from a run-time tensor value");
            tr_scope_set(t, &fr->sc, s->target->name, v);
            break;
        }
        if (s->value) assign_target(t, s->target, tr_eval(t, s->value), s->loc);
        break;
    case ST_AUGASSIGN: {
        if (s->target->kind != EX_NAME)
            err_fail(t->err, TC_ERR_SYNTAX, s->target->loc,
                     "augmented assignment is only supported on plain names");
        Val a = tr_lookup(t, s->target->name, s->target->loc);
        Val b = tr_eval(t, s->value);
        assign_target(t, s->target, tr_binop(t, s->op, a, b, s->loc), s->loc);
        break;
    }
    case ST_IF: stmt_if(t, s); break;
    case ST_FOR: stmt_for(t, s); break;
    case ST_WHILE: stmt_while(t, s); break;
    case ST_RETURN: stmt_return(t, s); break;
    case ST_ASSERT:
        if (ts->debug) {
            Val args[2];
            args[0] = tr_eval(t, s->cond);
            args[1] = s->value ? tr_eval(t, s->value) : val_const(cv_str(""));
            sem_call(t, "triton.language.device_assert", NULL, args, 2, NULL, NULL, 0, s->loc);
        }
        break;
    case ST_UNSUPPORTED:
        if (s->name && (!strcmp(s->name, "FunctionDef") || !strcmp(s->name, "AsyncFunctionDef")))
            err_fail(t->err, TC_ERR_SYNTAX, s->loc, "nested function definition is not supported");
        err_fail(t->err, TC_ERR_SYNTAX, s->loc, "unsupported AST node type: %s",
                 s->name ? s->name : "?");
    default:
        err_fail(t->err, TC_ERR_INTERNAL, s->loc, "unknown statement kind %d", s->kind);
    }
}

void tr_walk_stmts_from(Trace *t, const Block *b, int start, int kind) {
    Frame *fr = TS(t)->fr;
    int me = fr->ncont;
    Cont en = {b, start, kind};
    if (fr->ncont < fr->capcont) fr->cont[fr->ncont++] = en;
    else ARENA_PUSH(t->arena, fr->cont, fr->ncont, fr->capcont, en);
    for (int i = start; i < b->n; i++) {
        if (fr->returned) break;
        fr->cont[me].next = i + 1;
        tr_enter(t, b->stmts[i]->loc);
        walk_stmt(t, b->stmts[i]);
        tr_leave(t);
    }
    fr->ncont = me;
}

void tr_walk_block(Trace *t, const Block *b) { tr_walk_stmts_from(t, b, 0, CONT_PLAIN); }
void tr_walk_loop_body(Trace *t, const Block *b) { tr_walk_stmts_from(t, b, 0, CONT_BARRIER); }

