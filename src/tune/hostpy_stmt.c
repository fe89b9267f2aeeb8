/* hostpy_stmt.c — the host subset's names (module-level lookup, evaluated on demand),
 * expressions, assignments and statements, and calls of defs and lambdas (hostpy.c has the
 * notes). */
#include "tune/hostpy_int.h"

/* ---- names -------------------------------------------------------------------------------- */

static void exec_block(Frame *F, const Block *b);

static HV *env_find(HEnv *env, const char *name) {
    for (HEnv *e = env; e; e = e->up)
        for (int i = e->n - 1; i >= 0; i--)
            if (!strcmp(e->names[i], name)) return &e->vals[i];
    return NULL;
}
static void env_set(HostPy *H, HEnv *env, const char *name, HV v) {
    for (int i = 0; i < env->n; i++)
        if (!strcmp(env->names[i], name)) { env->vals[i] = v; return; }
    int c1 = env->cap, c2 = env->cap;
    ARENA_PUSH(&H->a, env->names, env->n, c1, name);
    env->n--;
    ARENA_PUSH(&H->a, env->vals, env->n, c2, v);
    env->cap = c1 < c2 ? c1 : c2;
}

static bool target_binds(const Expr *t, const char *name) {
    if (!t) return false;
    if (t->kind == EX_NAME) return !strcmp(t->name, name);
    if (t->kind == EX_TUPLE || t->kind == EX_LIST) {
        for (int i = 0; i < t->n; i++)
            if (target_binds(t->items[i], name)) return true;
    }
    if (t->kind == EX_STARRED) return target_binds(t->lhs, name);
    return false;
}

static bool block_binds(const Block *b, const char *name);
/* Whether the statements call a method of name (name.append(...)): a change of its value. */
static bool block_mutates(const Block *b, const char *name) {
    for (int i = 0; i < b->n; i++) {
        const Stmt *s = b->stmts[i];
        if (s->kind == ST_EXPR && s->value->kind == EX_CALL && s->value->lhs->kind == EX_ATTR &&
            s->value->lhs->lhs->kind == EX_NAME && !strcmp(s->value->lhs->lhs->name, name))
            return true;
        if ((s->kind == ST_IF || s->kind == ST_FOR || s->kind == ST_WHILE) &&
            (block_mutates(&s->body, name) || block_mutates(&s->orelse, name)))
            return true;
    }
    return false;
}
static bool stmt_binds(const Stmt *s, const char *name) {
    switch (s->kind) {
    case ST_DEF: return !strcmp(s->fn->name, name);
    case ST_ASSIGN: case ST_ANNASSIGN: case ST_AUGASSIGN: return target_binds(s->target, name);
    case ST_IF: case ST_FOR: case ST_WHILE:
        return target_binds(s->target, name) || block_binds(&s->body, name) || block_binds(&s->orelse, name);
    default: return false;
    }
}
static bool block_binds(const Block *b, const char *name) {
    for (int i = 0; i < b->n; i++)
        if (stmt_binds(b->stmts[i], name)) return true;
    return false;
}

static SMemo *memo_of(HostPy *H, const Stmt *s) {
    for (int i = 0; i < H->nmemo; i++)
        if (H->memo[i].s == s) return &H->memo[i];
    SMemo m = {s, 0, hv(H_NONE)};
    ARENA_PUSH(&H->a, H->memo, H->nmemo, H->capmemo, m);
    return &H->memo[H->nmemo - 1];
}

static void assign(Frame *F, const Expr *t, HV v);
static bool module_lookup(Frame *F, const Pos *p, const char *name, SrcLoc use, HV *out);

/* The value a module-level statement gives name (it binds it). */
static HV module_stmt_value(Frame *F, const Pos *at, const Stmt *s, const char *name) {
    HostPy *H = F->H;
    SMemo *m = memo_of(H, s);
    if (m->state == 1)
        FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "the module-level value of '%s' depends on itself", name);
    if (m->state == 0) {
        m->state = 1;
        Frame G = {H, NULL, at, false, false, false, hv(H_NONE)};
        HV v;
        if (s->kind == ST_AUGASSIGN) {
            HV old;
            if (!module_lookup(&G, at, s->target->name, s->loc, &old))
                FAIL(F, TC_ERR_ARG, s->loc, "NameError: name '%s' is not defined", s->target->name);
            v = hp_binop(&G, s->op, old, hp_eval(&G, s->value), s->loc);
        } else {
            v = hp_eval(&G, s->value);
        }
        m = memo_of(H, s);
        m->v = v;
        m->state = 2;
    }
    if (s->target->kind == EX_NAME) return m->v;
    /* a, b = ...: unpack into a scratch scope */
    HEnv tmp = {0};
    Frame G = {H, &tmp, at, false, false, false, hv(H_NONE)};
    assign(&G, s->target, m->v);
    HV *r = env_find(&tmp, name);
    return r ? *r : hv(H_NONE);
}

/* Walks a module-level block backwards from p->upto for the binding of name. */
static bool module_lookup(Frame *F, const Pos *p, const char *name, SrcLoc use, HV *out) {
    HostPy *H = F->H;
    for (; p; p = p->outer) {
        for (int i = p->upto - 1; i >= 0; i--) {
            const Stmt *s = p->st[i];
            Pos here = {p->st, i, p->outer};
            if (s->kind == ST_EXPR && s->value->kind == EX_CALL && s->value->lhs->kind == EX_ATTR &&
                s->value->lhs->lhs->kind == EX_NAME && !strcmp(s->value->lhs->lhs->name, name))
                FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "module-level code changes '%s' here (%s.%s(...)); "
                     "tritonc's host subset evaluates module-level assignments, defs and if "
                     "statements, not statements that change a value", name, name, s->value->lhs->name);
            if ((s->kind == ST_FOR || s->kind == ST_WHILE) &&
                (block_mutates(&s->body, name) || block_mutates(&s->orelse, name)))
                FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "'%s' is changed by a module-level %s loop; "
                     "tritonc's host subset does not run module-level loops", name,
                     s->kind == ST_FOR ? "for" : "while");
            if (!stmt_binds(s, name)) continue;
            if (s->kind == ST_DEF) {
                HV v = hv(H_FUNC);
                v.fn = arena_alloc(&H->a, sizeof(HFn));
                v.fn->def = s->fn;
                *out = v;
                return true;
            }
            if (s->kind == ST_ASSIGN || s->kind == ST_ANNASSIGN || s->kind == ST_AUGASSIGN) {
                if (s->kind == ST_ANNASSIGN && !s->value) continue;
                /* X = tl.constexpr(4): the value inside, as the kernel sees it */
                *out = module_stmt_value(F, &here, s, name);
                return true;
            }
            if (s->kind == ST_IF) {
                SMemo *m = memo_of(H, s);
                if (m->state == 1) FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "this condition depends on itself");
                if (m->state == 0) {
                    m->state = 1;
                    Frame G = {H, NULL, &here, false, false, false, hv(H_NONE)};
                    bool c = hp_truthy((HV[]){hp_eval(&G, s->cond)});
                    m = memo_of(H, s);
                    m->v = hbool(c);
                    m->state = 2;
                }
                const Block *b = m->v.i ? &s->body : &s->orelse;
                Pos in = {b->stmts, b->n, &here};
                if (module_lookup(F, &in, name, use, out)) return true;
                continue;
            }
            FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "'%s' is bound by a module-level %s loop; tritonc's "
                 "host subset does not run module-level loops", name, s->kind == ST_FOR ? "for" : "while");
        }
    }
    return false;
}

static const char *const builtin_names[] = {
    "len", "min", "max", "abs", "int", "float", "str", "bool", "range", "list", "tuple", "dict",
    "set", "sorted", "reversed", "zip", "enumerate", "filter", "map", "any", "all", "sum",
    "isinstance", "hasattr", "getattr", "print", "round", "divmod", "pow",
};

static HV lookup(Frame *F, const char *name, SrcLoc loc) {
    HV *v = env_find(F->env, name);
    if (v) return *v;
    HV r;
    if (F->gpos && module_lookup(F, F->gpos, name, loc, &r)) return r;
    const Module *m = F->H->m;
    for (int i = 0; i < m->naliases; i++)
        if (!strcmp(m->aliases[i].name, name)) return hns(m->aliases[i].target);
    for (int i = 0; i < COUNT_OF(builtin_names); i++)
        if (!strcmp(builtin_names[i], name)) return hns(arena_printf(&F->H->a, "builtins.%s", name));
    if (!strcmp(name, "__name__")) return hstr("__tritonc__");
    FAIL(F, TC_ERR_ARG, loc, "NameError: name '%s' is not defined", name);
}

/* ---- expressions --------------------------------------------------------------------------- */

int64_t hp_want_int(Frame *F, HV v, SrcLoc loc, const char *what) {
    if (v.kind != H_INT && v.kind != H_BOOL)
        FAIL(F, TC_ERR_ARG, loc, "TypeError: %s must be an integer, not '%s'", what, hp_tname(&v));
    return v.i;
}

static HV subscript(Frame *F, HV v, HV ix, SrcLoc loc) {
    HostPy *H = F->H;
    if (v.kind == H_DICT) {
        int i = hp_dict_find(v.d, &ix);
        if (i < 0) FAIL(F, TC_ERR_ARG, loc, "KeyError: %s", hp_repr_str(H, &ix, false));
        return v.d->v[i];
    }
    if (v.kind == H_NS && !strcmp(v.s, "os.environ")) {
        if (ix.kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "TypeError: str expected");
        const char *e = hp_env_read(H, ix.s);
        if (!e) FAIL(F, TC_ERR_ARG, loc, "KeyError: '%s'", ix.s);
        return hstr(e);
    }
    if (v.kind == H_TUPLE || v.kind == H_LIST || v.kind == H_STR) {
        int64_t n = v.kind == H_STR ? (int64_t)strlen(v.s) : v.seq->n;
        if (ix.kind == H_TUPLE && ix.seq->n == 3 && ix.o == (HObj *)1) {  /* a slice */
            int64_t st = ix.seq->v[2].kind == H_NONE ? 1 : hp_want_int(F, ix.seq->v[2], loc, "slice step");
            if (st == 0) FAIL(F, TC_ERR_ARG, loc, "ValueError: slice step cannot be zero");
            int64_t lo, hi;
            if (ix.seq->v[0].kind == H_NONE) lo = st > 0 ? 0 : n - 1;
            else { lo = hp_want_int(F, ix.seq->v[0], loc, "slice index"); if (lo < 0) lo += n; lo = st > 0 ? (lo < 0 ? 0 : lo > n ? n : lo) : (lo < -1 ? -1 : lo >= n ? n - 1 : lo); }
            if (ix.seq->v[1].kind == H_NONE) hi = st > 0 ? n : -1;
            else { hi = hp_want_int(F, ix.seq->v[1], loc, "slice index"); if (hi < 0) hi += n; hi = st > 0 ? (hi < 0 ? 0 : hi > n ? n : hi) : (hi < -1 ? -1 : hi >= n ? n - 1 : hi); }
            if (v.kind == H_STR) {
                Buf b = {0};
                for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) buf_printf(&b, "%c", v.s[i]);
                HV r = hstr(arena_strdup(&H->a, b.s ? b.s : ""));
                buf_free(&b);
                return r;
            }
            HSeq *s = hp_seq_new(H);
            for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) hp_seq_push(H, s, v.seq->v[i]);
            return hseq(v.kind, s);
        }
        int64_t i = hp_want_int(F, ix, loc, "indices");
        if (i < 0) i += n;
        if (i < 0 || i >= n) FAIL(F, TC_ERR_ARG, loc, "IndexError: %s index out of range", hp_tname(&v));
        if (v.kind == H_STR) return hstr(arena_strndup(&H->a, v.s + i, 1));
        return v.seq->v[i];
    }
    FAIL(F, TC_ERR_ARG, loc, "TypeError: '%s' object is not subscriptable", hp_tname(&v));
}

/* One {expression} of an f-string, parsed on first use (kept with the HostPy) and evaluated
 * here; its errors are reported at the f-string. */
static HV fstring_expr(Frame *F, const Expr *e, const char *text) {
    HostPy *H = F->H;
    char *src = arena_printf(&H->a, "__f__ = (%s)\n", text);
    Source *so = source_new("<f-string>", src, strlen(src));
    if (!so) FAIL(F, TC_ERR_NOMEM, e->loc, "out of memory");
    Err pe = {0};
    Module *m = parse_module(so, &pe);
    const Stmt *st = m && m->nhost == 1 && m->host[0]->kind == ST_ASSIGN ? m->host[0] : NULL;
    if (!st) {
        if (m) module_free(m);
        source_free(so);
        FAIL(F, TC_ERR_SYNTAX, e->loc, "f-string: invalid expression '%s'", text);
    }
    PyParsed pp = {so, m};
    ARENA_PUSH(&H->a, H->parsed, H->nparsed, H->capparsed, pp);
    Err *outer = H->err, inner = {0};
    jmp_buf jb;
    H->err = &inner;
    Arena *ar = &H->a;
    Err *aerr = ar->err;
    ar->err = &inner;
    if (ERR_TRY(&inner, jb)) {
        H->err = outer;
        ar->err = aerr;
        const char *msg = strstr(inner.msg, "error: ");
        msg = msg ? msg + 7 : inner.msg;
        FAIL(F, inner.code, e->loc, "in the f-string's {%s}: %.*s", text, (int)strcspn(msg, "\n"), msg);
    }
    HV v = hp_eval(F, st->value);
    H->err = outer;
    ar->err = aerr;
    return v;
}

static HV fstring(Frame *F, const Expr *e) {
    HostPy *H = F->H;
    Buf b = {0};
    const char *s = e->str;
    while (*s) {
        if ((s[0] == '{' && s[1] == '{') || (s[0] == '}' && s[1] == '}')) { buf_printf(&b, "%c", s[0]); s += 2; continue; }
        if (s[0] != '{') { buf_printf(&b, "%c", *s++); continue; }
        /* the matching '}' outside brackets and quotes */
        const char *p = s + 1, *stop = NULL;
        int depth = 0;
        char q = 0;
        for (; *p; p++) {
            if (q) { if (*p == q) q = 0; continue; }
            if (*p == '\'' || *p == '"') q = *p;
            else if (*p == '[' || *p == '(' || *p == '{') depth++;
            else if ((*p == ']' || *p == ')' || *p == '}') && depth) depth--;
            else if (*p == '}') break;
            else if (!depth && !stop && (*p == '!' || (*p == ':'))) stop = p;
        }
        if (!*p) { buf_free(&b); FAIL(F, TC_ERR_SYNTAX, e->loc, "f-string: expecting '}'"); }
        const char *end = stop ? stop : p;
        bool conv_r = stop && stop[0] == '!' && stop[1] == 'r';
        char *text = arena_strndup(&H->a, s + 1, (size_t)(end - s - 1));
        HV v = fstring_expr(F, e, text);
        hp_repr_into(&v, &b, !conv_r);
        s = p + 1;
    }
    HV r = hstr(arena_strdup(&H->a, b.s ? b.s : ""));
    buf_free(&b);
    return r;
}

static HV make_lambda(Frame *F, const Expr *e) {
    HV v = hv(H_FUNC);
    v.fn = arena_alloc(&F->H->a, sizeof(HFn));
    v.fn->lam = e;
    v.fn->env = F->env;
    return v;
}

static void comp_loop(Frame *F, const Expr *e, int ci, HSeq *out, HDict *dout) {
    if (ci == e->ncomps) {
        if (dout) { hp_dict_set(F->H, dout, hp_eval(F, e->lhs), hp_eval(F, e->rhs)); return; }
        HV x = hp_eval(F, e->lhs), cur = hseq(H_SET, out);
        if (strcmp(e->name, "SetComp") || !hp_contains(F, &cur, &x, e->loc)) hp_seq_push(F->H, out, x);
        return;
    }
    const Comp *c = &e->comps[ci];
    HSeq *items = hp_iter_items(F, hp_eval(F, c->iter), c->iter->loc);
    for (int i = 0; i < items->n; i++) {
        assign(F, c->target, items->v[i]);
        bool ok = true;
        for (int j = 0; j < c->nifs && ok; j++) ok = hp_truthy((HV[]){hp_eval(F, c->ifs[j])});
        if (ok) comp_loop(F, e, ci + 1, out, dout);
    }
}

static HV comprehension(Frame *F, const Expr *e) {
    HEnv *scope = arena_alloc(&F->H->a, sizeof(HEnv));
    scope->up = F->env;
    Frame G = *F;
    G.env = scope;
    if (!strcmp(e->name, "DictComp")) {
        HV r = hv(H_DICT);
        r.d = hp_dict_new(F->H);
        comp_loop(&G, e, 0, NULL, r.d);
        return r;
    }
    HSeq *s = hp_seq_new(F->H);
    comp_loop(&G, e, 0, s, NULL);
    return hseq(!strcmp(e->name, "SetComp") ? H_SET : H_LIST, s);
}

static HV eval_call(Frame *F, const Expr *e) {
    HostPy *H = F->H;
    HV f = hp_eval(F, e->lhs);
    HSeq *args = hp_seq_new(H);
    for (int i = 0; i < e->n; i++) {
        const Expr *a = e->items[i];
        if (a->kind == EX_STARRED) {
            HSeq *s = hp_iter_items(F, hp_eval(F, a->lhs), a->loc);
            for (int j = 0; j < s->n; j++) hp_seq_push(H, args, s->v[j]);
        } else if (!(a->kind == EX_OTHER && !strcmp(a->name, "DoubleStarred"))) {
            hp_seq_push(H, args, hp_eval(F, a));
        }
    }
    const char **kwn = NULL;
    HV *kwv = NULL;
    int nkw = 0, c1 = 0, c2 = 0;
    for (int i = 0; i < e->nkw; i++) {
        ARENA_PUSH(&H->a, kwn, nkw, c1, e->kw[i].name);
        nkw--;
        ARENA_PUSH(&H->a, kwv, nkw, c2, hp_eval(F, e->kw[i].value));
    }
    /* f(**d): the items of d as keywords */
    for (int i = 0; i < e->n; i++) {
        const Expr *a = e->items[i];
        if (a->kind != EX_OTHER || strcmp(a->name, "DoubleStarred")) continue;
        HV d = hp_eval(F, a->lhs);
        if (d.kind != H_DICT) FAIL(F, TC_ERR_ARG, a->loc, "TypeError: argument after ** must be a mapping, not %s", hp_tname(&d));
        for (int j = 0; j < d.d->n; j++) {
            if (d.d->k[j].kind != H_STR) FAIL(F, TC_ERR_ARG, a->loc, "TypeError: keywords must be strings");
            ARENA_PUSH(&H->a, kwn, nkw, c1, d.d->k[j].s);
            nkw--;
            ARENA_PUSH(&H->a, kwv, nkw, c2, d.d->v[j]);
        }
    }
    return hp_call_value(F, f, args->v, args->n, kwn, kwv, nkw, e->loc);
}

HV hp_eval(Frame *F, const Expr *e) {
    HostPy *H = F->H;
    if (++H->depth > HP_MAX_DEPTH) FAIL(F, TC_ERR_LIMIT, e->loc, "RecursionError: host code nests deeper than %d", HP_MAX_DEPTH);
    if (++H->steps > HP_MAX_STEPS) FAIL(F, TC_ERR_LIMIT, e->loc, "host code ran for more than %lld steps", HP_MAX_STEPS);
    HV r = hv(H_NONE);
    switch (e->kind) {
    case EX_NAME: r = lookup(F, e->name, e->loc); break;
    case EX_INT:
        if (e->big || e->ival > INT64_MAX) FAIL(F, TC_ERR_LIMIT, e->loc, "integer literal beyond 64 bits");
        r = hint((int64_t)e->ival);
        break;
    case EX_FLOAT: r = hfloat(e->fval); break;
    case EX_STR: r = e->fstring ? fstring(F, e) : hstr(e->str); break;
    case EX_TRUE: r = hbool(true); break;
    case EX_FALSE: r = hbool(false); break;
    case EX_NONE: break;
    case EX_BINOP: {
        HV a = hp_eval(F, e->lhs), b = hp_eval(F, e->rhs);
        r = hp_binop(F, e->op, a, b, e->loc);
        break;
    }
    case EX_UNARY: {
        HV a = hp_eval(F, e->lhs);
        if (e->op == PY_NOT) r = hbool(!hp_truthy(&a));
        else if (!hp_is_num(&a)) FAIL(F, TC_ERR_ARG, e->loc, "TypeError: bad operand type for unary %s: '%s'", py_op_str(e->op), hp_tname(&a));
        else r = hp_cv_op(F, e->op, &a, NULL, false, e->loc);
        break;
    }
    case EX_BOOLOP:
        for (int i = 0; i < e->n; i++) {
            r = hp_eval(F, e->items[i]);
            if (hp_truthy(&r) == (e->op == PY_OR)) break;
        }
        break;
    case EX_COMPARE: {
        HV a = hp_eval(F, e->items[0]);
        r = hbool(true);
        for (int i = 1; i < e->n; i++) {
            HV b = hp_eval(F, e->items[i]);
            if (!hp_compare(F, e->ops[i - 1], a, b, e->loc)) { r = hbool(false); break; }
            a = b;
        }
        break;
    }
    case EX_IFEXP: r = hp_truthy((HV[]){hp_eval(F, e->cond)}) ? hp_eval(F, e->lhs) : hp_eval(F, e->orelse); break;
    case EX_CALL: r = eval_call(F, e); break;
    case EX_ATTR: r = hp_getattr(F, hp_eval(F, e->lhs), e->name, e->loc); break;
    case EX_SUBSCRIPT: {
        HV v = hp_eval(F, e->lhs);
        HV ix;
        if (e->n == 1 && e->items[0]->kind == EX_SLICE) {
            const Expr *s = e->items[0];
            HSeq *q = hp_seq_new(H);
            hp_seq_push(H, q, s->lhs ? hp_eval(F, s->lhs) : hv(H_NONE));
            hp_seq_push(H, q, s->rhs ? hp_eval(F, s->rhs) : hv(H_NONE));
            hp_seq_push(H, q, s->cond ? hp_eval(F, s->cond) : hv(H_NONE));
            ix = hseq(H_TUPLE, q);
            ix.o = (HObj *)1;   /* marks a slice */
        } else if (e->n == 1) {
            ix = hp_eval(F, e->items[0]);
        } else {
            HSeq *q = hp_seq_new(H);
            for (int i = 0; i < e->n; i++) hp_seq_push(H, q, hp_eval(F, e->items[i]));
            ix = hseq(H_TUPLE, q);
        }
        r = subscript(F, v, ix, e->loc);
        break;
    }
    case EX_TUPLE: case EX_LIST: {
        HSeq *s = hp_seq_new(H);
        for (int i = 0; i < e->n; i++) {
            if (e->items[i]->kind == EX_STARRED) {
                HSeq *in = hp_iter_items(F, hp_eval(F, e->items[i]->lhs), e->items[i]->loc);
                for (int j = 0; j < in->n; j++) hp_seq_push(H, s, in->v[j]);
            } else hp_seq_push(H, s, hp_eval(F, e->items[i]));
        }
        r = hseq(e->kind == EX_TUPLE ? H_TUPLE : H_LIST, s);
        break;
    }
    case EX_DICT: {
        r = hv(H_DICT);
        r.d = hp_dict_new(H);
        for (int i = 0; i < e->n; i++) {
            if (!e->keys[i]) {
                HV o = hp_eval(F, e->items[i]);
                if (o.kind != H_DICT) FAIL(F, TC_ERR_ARG, e->items[i]->loc, "TypeError: '%s' object is not a mapping", hp_tname(&o));
                for (int j = 0; j < o.d->n; j++) hp_dict_set(H, r.d, o.d->k[j], o.d->v[j]);
            } else {
                HV k = hp_eval(F, e->keys[i]);
                hp_dict_set(H, r.d, k, hp_eval(F, e->items[i]));
            }
        }
        break;
    }
    case EX_LAMBDA: r = make_lambda(F, e); break;
    case EX_OTHER:
        if (e->ncomps) { r = comprehension(F, e); break; }   /* a generator: a list */
        if (!strcmp(e->name, "Set")) {
            HSeq *s = hp_seq_new(H);
            for (int i = 0; i < e->n; i++) {
                HV x = hp_eval(F, e->items[i]), set = hseq(H_SET, s);
                if (!hp_contains(F, &set, &x, e->loc)) hp_seq_push(H, s, x);
            }
            r = hseq(H_SET, s);
            break;
        }
        /* fall through */
    default:
        FAIL(F, TC_ERR_UNSUPPORTED, e->loc, "%s is not in tritonc's host subset",
             e->kind == EX_OTHER && e->name ? e->name : e->kind == EX_STARRED ? "a starred expression" : "this expression");
    }
    H->depth--;
    return r;
}

/* ---- assignment and statements ------------------------------------------------------------- */

static void setattr_(Frame *F, HV obj, const char *name, HV v, SrcLoc loc) {
    if (obj.kind == H_OBJ) { hp_dict_sets(F->H, obj.o->attrs, name, v); return; }
    if (obj.kind == H_TENSOR && obj.t->drank && !strcmp(name, "block_shape")) {
        /* a pre_hook choosing the descriptor's block shape for the launch */
        HSeq *s = hp_iter_items(F, v, loc);
        if (s->n != obj.t->drank)
            FAIL(F, TC_ERR_ARG, loc, "ValueError: block_shape has %d entries but the descriptor has rank %d",
                 s->n, obj.t->drank);
        int64_t b[TC_MAX_RANK];
        for (int i = 0; i < s->n; i++) {
            b[i] = hp_want_int(F, s->v[i], loc, "block_shape");
            if (b[i] < 1 || b[i] > (1 << 20) || (b[i] & (b[i] - 1)))
                FAIL(F, TC_ERR_ARG, loc, "ValueError: block_shape[%d] is %lld; block dimensions are powers of two",
                     i, (long long)b[i]);
        }
        for (int i = 0; i < s->n; i++) obj.t->dblock[i] = b[i];
        return;
    }
    FAIL(F, TC_ERR_UNSUPPORTED, loc, "setting .%s of a %s is not in tritonc's host subset", name, hp_tname(&obj));
}

static void assign(Frame *F, const Expr *t, HV v) {
    HostPy *H = F->H;
    switch (t->kind) {
    case EX_NAME:
        if (!F->env) FAIL(F, TC_ERR_INTERNAL, t->loc, "internal error: assignment at module level");
        env_set(H, F->env, t->name, v);
        return;
    case EX_TUPLE: case EX_LIST: {
        HSeq *s = hp_iter_items(F, v, t->loc);
        if (s->n != t->n)
            FAIL(F, TC_ERR_ARG, t->loc, "ValueError: %s values to unpack (expected %d, got %d)",
                 s->n > t->n ? "too many" : "not enough", t->n, s->n);
        for (int i = 0; i < t->n; i++) assign(F, t->items[i], s->v[i]);
        return;
    }
    case EX_ATTR: setattr_(F, hp_eval(F, t->lhs), t->name, v, t->loc); return;
    case EX_SUBSCRIPT: {
        HV c = hp_eval(F, t->lhs);
        HV ix = t->n == 1 ? hp_eval(F, t->items[0]) : hv(H_NONE);
        if (c.kind == H_DICT && t->n == 1) { hp_dict_set(H, c.d, ix, v); return; }
        if (c.kind == H_LIST && t->n == 1) {
            int64_t i = hp_want_int(F, ix, t->loc, "list indices");
            if (i < 0) i += c.seq->n;
            if (i < 0 || i >= c.seq->n) FAIL(F, TC_ERR_ARG, t->loc, "IndexError: list assignment index out of range");
            c.seq->v[i] = v;
            return;
        }
        FAIL(F, TC_ERR_ARG, t->loc, "TypeError: '%s' object does not support item assignment", hp_tname(&c));
    }
    default:
        FAIL(F, TC_ERR_UNSUPPORTED, t->loc, "this assignment target is not in tritonc's host subset");
    }
}

static void exec_stmt(Frame *F, const Stmt *s) {
    HostPy *H = F->H;
    switch (s->kind) {
    case ST_EXPR: hp_eval(F, s->value); break;
    case ST_ASSIGN: assign(F, s->target, hp_eval(F, s->value)); break;
    case ST_ANNASSIGN: if (s->value) assign(F, s->target, hp_eval(F, s->value)); break;
    case ST_AUGASSIGN: {
        HV old = hp_eval(F, s->target);
        HV v = hp_eval(F, s->value);
        if (old.kind == H_LIST && s->op == PY_ADD) {
            HSeq *in = hp_iter_items(F, v, s->loc);
            for (int i = 0; i < in->n; i++) hp_seq_push(H, old.seq, in->v[i]);
            break;
        }
        assign(F, s->target, hp_binop(F, s->op, old, v, s->loc));
        break;
    }
    case ST_IF:
        if (hp_truthy((HV[]){hp_eval(F, s->cond)})) exec_block(F, &s->body);
        else exec_block(F, &s->orelse);
        break;
    case ST_FOR: {
        HSeq *items = hp_iter_items(F, hp_eval(F, s->value), s->value->loc);
        int n = items->n;
        bool broke = false;
        for (int i = 0; i < n && !F->ret; i++) {
            assign(F, s->target, items->v[i]);
            exec_block(F, &s->body);
            F->cont = false;
            if (F->brk) { F->brk = false; broke = true; break; }
        }
        if (!broke && !F->ret && s->has_orelse) exec_block(F, &s->orelse);
        break;
    }
    case ST_WHILE: {
        bool broke = false;
        while (!F->ret && hp_truthy((HV[]){hp_eval(F, s->cond)})) {
            exec_block(F, &s->body);
            F->cont = false;
            if (F->brk) { F->brk = false; broke = true; break; }
        }
        if (!broke && !F->ret && s->has_orelse) exec_block(F, &s->orelse);
        break;
    }
    case ST_RETURN:
        F->rv = s->value ? hp_eval(F, s->value) : hv(H_NONE);
        F->ret = true;
        break;
    case ST_PASS: break;
    case ST_ASSERT:
        if (!hp_truthy((HV[]){hp_eval(F, s->cond)})) {
            HV m = s->value ? hp_eval(F, s->value) : hstr("");
            FAIL(F, TC_ERR_ARG, s->loc, "AssertionError: %s", hp_repr_str(H, &m, true));
        }
        break;
    case ST_UNSUPPORTED:
        if (!strcmp(s->name, "Break")) { F->brk = true; break; }
        if (!strcmp(s->name, "Continue")) { F->cont = true; break; }
        if (!strcmp(s->name, "Raise"))
            FAIL(F, TC_ERR_ARG, s->loc, "host code raised an exception here (a raise statement)");
        FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "%s is not in tritonc's host subset", s->name);
    default:
        FAIL(F, TC_ERR_UNSUPPORTED, s->loc, "this statement is not in tritonc's host subset");
    }
}

static void exec_block(Frame *F, const Block *b) {
    for (int i = 0; i < b->n && !F->ret && !F->brk && !F->cont; i++) exec_stmt(F, b->stmts[i]);
}

/* ---- calls ---------------------------------------------------------------------------------- */

HV hp_call_function(Frame *F, HFn *fn, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    HostPy *H = F->H;
    HEnv *env = arena_alloc(&H->a, sizeof(HEnv));
    env->up = fn->env;
    Frame G = {H, env, F->gpos, false, false, false, hv(H_NONE)};
    const char *fname = fn->def ? fn->def->name : "<lambda>";
    int np = fn->def ? fn->def->nparams : fn->lam->nparams;
    int used = 0;
    HSeq *rest = NULL;
    HDict *kwrest = NULL;
    bool *given = arena_alloc(&H->a, (size_t)(np + 1));
    for (int i = 0; i < np; i++) {
        const char *pn = fn->def ? fn->def->params[i].name : fn->lam->params[i];
        int star = fn->def ? fn->def->params[i].star : fn->lam->pstar[i];
        bool kwonly = fn->def ? fn->def->params[i].kwonly : false;
        if (star == 1) {
            rest = hp_seq_new(H);
            while (used < n) hp_seq_push(H, rest, args[used++]);
            env_set(H, env, pn, hseq(H_TUPLE, rest));
            given[i] = true;
        } else if (star == 2) {
            kwrest = hp_dict_new(H);
            HV d = hv(H_DICT);
            d.d = kwrest;
            env_set(H, env, pn, d);
            given[i] = true;
        } else if (!kwonly && used < n) {
            env_set(H, env, pn, args[used++]);
            given[i] = true;
        }
    }
    if (used < n)
        FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() takes %d positional arguments but %d were given", fname, used, n);
    for (int k = 0; k < nkw; k++) {
        int i = 0;
        for (; i < np; i++) {
            const char *pn = fn->def ? fn->def->params[i].name : fn->lam->params[i];
            int star = fn->def ? fn->def->params[i].star : fn->lam->pstar[i];
            if (!star && !strcmp(pn, kwn[k])) break;
        }
        if (i < np) {
            if (given[i]) FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() got multiple values for argument '%s'", fname, kwn[k]);
            env_set(H, env, kwn[k], kwv[k]);
            given[i] = true;
        } else if (kwrest) {
            hp_dict_set(H, kwrest, hstr(kwn[k]), kwv[k]);
        } else FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() got an unexpected keyword argument '%s'", fname, kwn[k]);
    }
    for (int i = 0; i < np; i++) {
        if (given[i]) continue;
        const Expr *d = fn->def ? fn->def->params[i].deflt : fn->lam->pdefaults[i];
        const char *pn = fn->def ? fn->def->params[i].name : fn->lam->params[i];
        if (!d) FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() missing 1 required positional argument: '%s'", fname, pn);
        Frame D = {H, fn->env, F->gpos, false, false, false, hv(H_NONE)};
        env_set(H, env, pn, hp_eval(&D, d));
    }
    if (fn->lam) return hp_eval(&G, fn->lam->lhs);
    if (fn->def->is_jit)
        FAIL(F, TC_ERR_UNSUPPORTED, loc, "%s is a @triton.jit function; host code calling it is not evaluated", fname);
    exec_block(&G, &fn->def->body);
    return G.ret ? G.rv : hv(H_NONE);
}
