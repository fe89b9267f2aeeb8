/* test_parse.c — the module parser: kernels, decorators, globals, imports, statement and
 * expression structure, host code skipping, errors. Expected trees follow Python's ast. */
#include "front/ast.h"
#include "test.h"

#include <stdlib.h>

/* ---- rendering trees as compact S-expressions --------------------------------------- */

static void dump_expr(Buf *b, const Expr *x);

static void dump_list(Buf *b, Expr **v, int n) {
    for (int i = 0; i < n; i++) {
        buf_puts(b, " ");
        dump_expr(b, v[i]);
    }
}

static void dump_expr(Buf *b, const Expr *x) {
    if (!x) { buf_puts(b, "_"); return; }
    switch (x->kind) {
    case EX_NAME: buf_puts(b, x->name); break;
    case EX_INT:
        if (x->big) buf_puts(b, "BIG");
        else buf_printf(b, "%llu", (unsigned long long)x->ival);
        break;
    case EX_FLOAT: buf_printf(b, "%g", x->fval); break;
    case EX_STR: buf_printf(b, "%s'%s'", x->fstring ? "f" : "", x->str); break;
    case EX_TRUE: buf_puts(b, "True"); break;
    case EX_FALSE: buf_puts(b, "False"); break;
    case EX_NONE: buf_puts(b, "None"); break;
    case EX_ELLIPSIS: buf_puts(b, "..."); break;
    case EX_BINOP: case EX_UNARY:
        buf_printf(b, "(%s ", py_op_str(x->op));
        dump_expr(b, x->lhs);
        if (x->kind == EX_BINOP) { buf_puts(b, " "); dump_expr(b, x->rhs); }
        buf_puts(b, ")");
        break;
    case EX_BOOLOP:
        buf_printf(b, "(%s", py_op_str(x->op));
        dump_list(b, x->items, x->n);
        buf_puts(b, ")");
        break;
    case EX_COMPARE:
        buf_puts(b, "(cmp ");
        dump_expr(b, x->items[0]);
        for (int i = 1; i < x->n; i++) {
            buf_printf(b, " %s ", py_op_str(x->ops[i - 1]));
            dump_expr(b, x->items[i]);
        }
        buf_puts(b, ")");
        break;
    case EX_IFEXP:
        buf_puts(b, "(ifexp ");
        dump_expr(b, x->cond);
        buf_puts(b, " ");
        dump_expr(b, x->lhs);
        buf_puts(b, " ");
        dump_expr(b, x->orelse);
        buf_puts(b, ")");
        break;
    case EX_CALL:
        buf_puts(b, "(call ");
        dump_expr(b, x->lhs);
        dump_list(b, x->items, x->n);
        for (int i = 0; i < x->nkw; i++) {
            buf_printf(b, " %s=", x->kw[i].name);
            dump_expr(b, x->kw[i].value);
        }
        buf_puts(b, ")");
        break;
    case EX_ATTR: dump_expr(b, x->lhs); buf_printf(b, ".%s", x->name); break;
    case EX_SUBSCRIPT:
        dump_expr(b, x->lhs);
        buf_puts(b, "[");
        for (int i = 0; i < x->n; i++) {
            if (i) buf_puts(b, ", ");
            dump_expr(b, x->items[i]);
        }
        buf_puts(b, "]");
        break;
    case EX_SLICE:
        dump_expr(b, x->lhs); buf_puts(b, ":"); dump_expr(b, x->rhs); buf_puts(b, ":");
        dump_expr(b, x->cond);
        break;
    case EX_STARRED: buf_puts(b, "*"); dump_expr(b, x->lhs); break;
    case EX_TUPLE: buf_puts(b, x->parens ? "(tuple" : "(tuple-"); dump_list(b, x->items, x->n); buf_puts(b, ")"); break;
    case EX_LIST: buf_puts(b, "(list"); dump_list(b, x->items, x->n); buf_puts(b, ")"); break;
    case EX_DICT:
        buf_puts(b, "{");
        for (int i = 0; i < x->n; i++) {
            if (i) buf_puts(b, ", ");
            dump_expr(b, x->keys[i]);
            buf_puts(b, ": ");
            dump_expr(b, x->items[i]);
        }
        buf_puts(b, "}");
        break;
    case EX_LAMBDA:
        buf_puts(b, "(lambda");
        for (int i = 0; i < x->nparams; i++) buf_printf(b, " %s", x->params[i]);
        buf_puts(b, ": ");
        dump_expr(b, x->lhs);
        buf_puts(b, ")");
        break;
    case EX_OTHER: buf_printf(b, "<%s>", x->name); break;
    }
}

static void dump_block(Buf *b, const Block *bl);

static void dump_stmt(Buf *b, const Stmt *s) {
    switch (s->kind) {
    case ST_EXPR: dump_expr(b, s->value); break;
    case ST_ASSIGN:
        buf_printf(b, "(= ");
        if (s->ntargets != 1) buf_printf(b, "#%d ", s->ntargets);
        dump_expr(b, s->target); buf_puts(b, " "); dump_expr(b, s->value); buf_puts(b, ")");
        break;
    case ST_ANNASSIGN:
        buf_puts(b, "(: "); dump_expr(b, s->target); buf_puts(b, " "); dump_expr(b, s->annotation);
        buf_puts(b, " "); dump_expr(b, s->value); buf_puts(b, ")");
        break;
    case ST_AUGASSIGN:
        buf_printf(b, "(%s= ", py_op_str(s->op)); dump_expr(b, s->target); buf_puts(b, " ");
        dump_expr(b, s->value); buf_puts(b, ")");
        break;
    case ST_IF:
        buf_puts(b, "(if "); dump_expr(b, s->cond); buf_puts(b, " "); dump_block(b, &s->body);
        if (s->orelse.n) { buf_puts(b, " else "); dump_block(b, &s->orelse); }
        buf_puts(b, ")");
        break;
    case ST_FOR:
        buf_puts(b, "(for "); dump_expr(b, s->target); buf_puts(b, " "); dump_expr(b, s->value);
        buf_puts(b, " "); dump_block(b, &s->body);
        if (s->has_orelse) { buf_puts(b, " else "); dump_block(b, &s->orelse); }
        buf_puts(b, ")");
        break;
    case ST_WHILE:
        buf_puts(b, "(while "); dump_expr(b, s->cond); buf_puts(b, " "); dump_block(b, &s->body);
        if (s->has_orelse) { buf_puts(b, " else "); dump_block(b, &s->orelse); }
        buf_puts(b, ")");
        break;
    case ST_RETURN: buf_puts(b, "(return "); dump_expr(b, s->value); buf_puts(b, ")"); break;
    case ST_PASS: buf_puts(b, "pass"); break;
    case ST_ASSERT:
        buf_puts(b, "(assert "); dump_expr(b, s->cond); buf_puts(b, " "); dump_expr(b, s->value);
        buf_puts(b, ")");
        break;
    case ST_UNSUPPORTED: buf_printf(b, "!%s", s->name); break;
    }
}

static void dump_block(Buf *b, const Block *bl) {
    buf_puts(b, "[");
    for (int i = 0; i < bl->n; i++) {
        if (i) buf_puts(b, " ");
        dump_stmt(b, bl->stmts[i]);
    }
    buf_puts(b, "]");
}

/* ---- helpers ---------------------------------------------------------------------- */

static Source *src;
static Err perr;
static char text_buf[65536];

static Module *parse(const char *text) {
    source_free(src);
    src = source_new("k.py", text, strlen(text));
    memset(&perr, 0, sizeof perr);
    return parse_module(src, &perr);
}

/* The body of the only jit function in a kernel written after a standard header. */
static const char *body_of(const char *body) {
    static char out[8192];
    snprintf(text_buf, sizeof text_buf,
             "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, y):\n%s",
             body);
    Module *m = parse(text_buf);
    if (!m) {
        snprintf(out, sizeof out, "ERR %s", perr.msg);
        return out;
    }
    Buf b = {0};
    if (m->nfuncs == 1) dump_block(&b, &m->funcs[0]->body);
    else buf_printf(&b, "nfuncs=%d", m->nfuncs);
    snprintf(out, sizeof out, "%s", b.s ? b.s : "");
    buf_free(&b);
    module_free(m);
    return out;
}

/* One expression statement inside a kernel, rendered. */
static const char *expr_of(const char *e) {
    static char line[4096];
    snprintf(line, sizeof line, "    %s\n", e);
    const char *r = body_of(line);
    static char out[8192];
    if (r[0] == '[') {  /* strip the block's brackets */
        snprintf(out, sizeof out, "%.*s", (int)strlen(r) - 2, r + 1);
        return out;
    }
    return r;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* ---- tests ------------------------------------------------------------------------ */

TEST(parse_chapter_file) {
    const char *text = read_file("tests/kernels/04_standalone_complete.py");
    CHECK(text != NULL);
    if (!text) return;
    Module *m = parse(text);
    CHECK(m != NULL);
    if (!m) { fprintf(stderr, "%s\n", perr.msg); return; }
    CHECK_INT(2, m->nfuncs);
    CHECK_STR("add_kernel", m->funcs[0]->name);
    CHECK_STR("hw_aware_kernel", m->funcs[1]->name);
    Func *f = module_find(m, "add_kernel");
    CHECK(f == m->funcs[0]);
    CHECK(module_find(m, "main") == NULL);         /* host functions are skipped */
    CHECK(module_find(m, "launch_for_hardware") == NULL);
    CHECK(f->is_jit);
    CHECK_INT(5, f->nparams);
    CHECK_STR("x_ptr", f->params[0].name);
    CHECK(!f->params[3].is_constexpr);
    CHECK(f->params[4].is_constexpr);
    CHECK_STR("BLOCK", f->params[4].name);
    CHECK_INT(7, f->loc.line);
    CHECK_INT(1, f->decos[0].loc.col);
    CHECK_INT(6, f->decos[0].loc.line);
    CHECK_INT(5, f->body.n);
    Buf b = {0};
    dump_block(&b, &f->body);
    CHECK_STR("[(= offsets (call tl.arange 0 BLOCK)) (= mask (cmp offsets < n)) "
              "(= x (call tl.load (+ x_ptr offsets) mask=mask)) "
              "(= y (call tl.load (+ y_ptr offsets) mask=mask)) "
              "(call tl.store (+ out_ptr offsets) (+ x y) mask=mask)]", b.s);
    buf_free(&b);
    Func *g = m->funcs[1];
    CHECK(g->params[3].is_constexpr && g->params[4].is_constexpr);
    b = (Buf){0};
    dump_stmt(&b, g->body.stmts[3]);
    CHECK_STR("(if USE_FAST_PATH [(= result (* x 2))] else [(= result (+ x x))])", b.s);
    buf_free(&b);
    /* the text runs from the decorator to the end of the body */
    CHECK(strncmp(f->text, "@triton.jit\ndef add_kernel(", 27) == 0);
    CHECK(strncmp(f->text + f->text_len - 17, "x + y, mask=mask)", 17) == 0);
    CHECK(f->hash == hash_bytes(f->text, f->text_len, 0));
    CHECK(f->hash != g->hash);
    CHECK_INT(0, m->nglobals);
    /* torch, triton, tl */
    CHECK_INT(3, m->naliases);
    CHECK_STR("tl", m->aliases[2].name);
    CHECK_STR("triton.language", m->aliases[2].target);
    module_free(m);
}

TEST(parse_imports_and_resolve) {
    Module *m = parse("import triton.language\n"
                      "import numpy as np, os.path\n"
                      "from triton import language as tl, jit\n"
                      "from triton.language.extra import libdevice\n"
                      "from triton.language.extra.cuda import libdevice as ld\n"
                      "from triton.language import (constexpr,\n    float32 as f32,)\n"
                      "from . import sibling\n"
                      "from math import *\n");
    CHECK(m != NULL);
    if (!m) return;
    CHECK_INT(9, m->naliases);
    CHECK_STR("triton", m->aliases[0].name);
    CHECK_STR("triton", m->aliases[0].target);
    CHECK_STR("np", m->aliases[1].name);
    CHECK_STR("numpy", m->aliases[1].target);
    CHECK_STR("os", m->aliases[2].name);
    CHECK_STR("jit", m->aliases[4].name);
    CHECK_STR("triton.jit", m->aliases[4].target);
    CHECK_STR("triton.language.extra.libdevice", m->aliases[5].target);
    CHECK_STR("ld", m->aliases[6].name);
    CHECK_STR("triton.language.extra.libdevice", m->aliases[6].target);
    CHECK_STR("f32", m->aliases[8].name);
    CHECK_STR("triton.language.float32", m->aliases[8].target);
    Arena a;
    Err e = {0};
    arena_init(&a, &e);
    Expr n_tl = {.kind = EX_NAME, .name = "tl"};
    Expr ar = {.kind = EX_ATTR, .name = "arange", .lhs = &n_tl};
    CHECK_STR("triton.language.arange", module_resolve(m, &ar, &a));
    Expr n_tr = {.kind = EX_NAME, .name = "triton"};
    Expr lang = {.kind = EX_ATTR, .name = "language", .lhs = &n_tr};
    Expr f32 = {.kind = EX_ATTR, .name = "float32", .lhs = &lang};
    CHECK_STR("triton.language.float32", module_resolve(m, &f32, &a));
    Expr n_ld = {.kind = EX_NAME, .name = "libdevice"};
    Expr tanh = {.kind = EX_ATTR, .name = "tanh", .lhs = &n_ld};
    CHECK_STR("triton.language.extra.libdevice.tanh", module_resolve(m, &tanh, &a));
    Expr n_x = {.kind = EX_NAME, .name = "x"};
    Expr xa = {.kind = EX_ATTR, .name = "a", .lhs = &n_x};
    CHECK(module_resolve(m, &xa, &a) == NULL);   /* not an alias */
    Expr call = {.kind = EX_CALL, .lhs = &ar};
    CHECK(module_resolve(m, &call, &a) == NULL); /* not a dotted name */
    Expr n_c = {.kind = EX_NAME, .name = "constexpr"};
    CHECK_STR("triton.language.constexpr", module_resolve(m, &n_c, &a));
    arena_free(&a);
    module_free(m);
}

TEST(parse_decorators) {
    Module *m = parse(
        "import triton\nimport triton.language as tl\nfrom triton import jit\n"
        "@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=4),\n"
        "                          triton.Config({'BLOCK': 256, 'X': -1}, num_stages=2)],\n"
        "                 key=['n'])\n"
        "@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})\n"
        "@triton.jit\n"
        "def tuned(x, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):\n"
        "    pass\n"
        "@jit\ndef a(): pass\n"
        "@triton.jit(noinline=True)\ndef b(p: tl.const, q: 'tl.constexpr', r=3): return r\n"
        "@pytest.mark.parametrize('x', [1, 2])\ndef test_x(x):\n    assert x\n"
        "@functools.lru_cache(maxsize=None)\ndef helper(): return 1\n");
    CHECK(m != NULL);
    if (!m) { fprintf(stderr, "%s\n", perr.msg); return; }
    CHECK_INT(3, m->nfuncs);
    Func *t = module_find(m, "tuned");
    CHECK(t && t->ndecos == 3);
    if (!t) return;
    CHECK(t->autotune == t->decos[0].expr);
    CHECK(t->heuristics == t->decos[1].expr);
    CHECK(!t->noinline);
    Buf b = {0};
    dump_expr(&b, t->autotune);
    CHECK_STR("(call triton.autotune configs=(list (call triton.Config {'BLOCK': 128} num_warps=4) "
              "(call triton.Config {'BLOCK': 256, 'X': (- 1)} num_stages=2)) key=(list 'n'))", b.s);
    buf_free(&b);
    b = (Buf){0};
    dump_expr(&b, t->heuristics);
    CHECK_STR("(call triton.heuristics {'EVEN': (lambda args: (cmp (% args['n'] args['BLOCK']) == 0))})",
              b.s);
    buf_free(&b);
    CHECK_INT(7, t->decos[1].loc.line);
    CHECK(strncmp(t->text, "@triton.autotune(", 17) == 0);
    Func *a = module_find(m, "a");
    CHECK(a && a->is_jit && a->nparams == 0 && a->body.n == 1 && !a->autotune);
    Func *f = module_find(m, "b");
    CHECK(f && f->noinline);
    if (f) {
        CHECK(f->params[0].is_const && !f->params[0].is_constexpr);
        CHECK(f->params[1].is_constexpr);  /* a string annotation counts, as in Triton */
        CHECK(!f->params[2].is_constexpr && f->params[2].deflt && f->params[2].deflt->ival == 3);
        CHECK_INT(ST_RETURN, f->body.stmts[0]->kind);
    }
    module_free(m);
}

TEST(parse_globals) {
    Module *m = parse("import triton.language as tl\n"
                      "from triton.language import constexpr\n"
                      "BLOCK = tl.constexpr(128)\n"
                      "SCALE: tl.constexpr = 0.5\n"
                      "NAME: constexpr = 'relu'\n"
                      "OTHER = 4\n"
                      "x: int = 3\n"
                      "Y = tl.constexpr(1 + 2)\n"
                      "Z = [i for i in range(3)]\n"
                      "BLOCK = tl.constexpr(64)\n");
    CHECK(m != NULL);
    if (!m) return;
    CHECK_INT(4, m->nglobals);
    CHECK_STR("BLOCK", m->globals[0].name);
    CHECK_INT(64, m->globals[0].value->ival);   /* the later definition wins */
    CHECK_INT(10, m->globals[0].loc.line);
    CHECK_STR("SCALE", m->globals[1].name);
    CHECK_INT(EX_FLOAT, m->globals[1].value->kind);
    CHECK_STR("relu", m->globals[2].value->str);
    CHECK_STR("Y", m->globals[3].name);
    CHECK_INT(EX_BINOP, m->globals[3].value->kind);
    module_free(m);
}

TEST(parse_statements) {
    CHECK_STR("[(= (tuple- a b) (tuple- b a)) (= #2 a c) (+= x 1) (**= y 2) (//= z (call f))]",
              body_of("    a, b = b, a\n    a = b = c\n    x += 1\n    y **= 2\n    z //= f()\n"));
    CHECK_STR("[(: c tl.constexpr 4) (: d int _)]",
              body_of("    c: tl.constexpr = 4\n    d: int\n"));
    CHECK_STR("[(if a [pass] else [(if b [(return 1)] else [(return (tuple- 2 3))])])]",
              body_of("    if a:\n        pass\n    elif b:\n        return 1\n    else:\n"
                      "        return 2, 3\n"));
    CHECK_STR("[(for i (call range 0 n 2) [(+= acc i)]) (for (tuple- i j) (call zip a b) [pass] else [pass])]",
              body_of("    for i in range(0, n, 2):\n        acc += i\n"
                      "    for i, j in zip(a, b): pass\n    else: pass\n"));
    CHECK_STR("[(while (cmp (call tl.atomic_cas L 0 1) == 1) [pass])]",
              body_of("    while tl.atomic_cas(L, 0, 1) == 1:\n        pass\n"));
    CHECK_STR("[(assert (cmp x > 0) 'x must be positive') (assert y _) (return _)]",
              body_of("    assert x > 0, \"x must be \" 'positive'\n    assert y\n    return\n"));
    CHECK_STR("['doc string' (= x 1) (= y 2) pass]",
              body_of("    \"\"\"doc string\"\"\"\n    x = 1; y = 2;\n    pass\n"));
    CHECK_STR("[(= x (tuple 1)) (= y (tuple)) (= z (list 1 2)) (= w (tuple- 1))]",
              body_of("    x = (1,)\n    y = ()\n    z = [1, 2,]\n    w = 1,\n"));
}

TEST(parse_unsupported_stmts) {
    CHECK_STR("[(for i (call range 10) [!Break !Continue]) !FunctionDef !AsyncFunctionDef "
              "!ClassDef !With !Try !Global !Nonlocal !Delete !Raise !Import !ImportFrom "
              "!Match (= x 1)]",
              body_of("    for i in range(10):\n        break\n        continue\n"
                      "    def inner(a):\n        return a\n"
                      "    async def co():\n        await x\n"
                      "    class C:\n        z = 1\n"
                      "    with open(f) as g:\n        pass\n"
                      "    try:\n        x = 1\n    except ValueError as e:\n        pass\n"
                      "    else:\n        pass\n    finally:\n        y = 2\n"
                      "    global G\n    nonlocal n\n    del a[0]\n    raise ValueError('no')\n"
                      "    import os\n    from os import path\n"
                      "    match cmd:\n        case [a, b]:\n            pass\n        case _:\n"
                      "            pass\n"
                      "    x = 1\n"));
    CHECK_STR("[!FunctionDef (= x <Yield>) <Yield> <YieldFrom>]",
              body_of("    @deco\n    def inner(): pass\n    x = yield 1\n    yield\n    yield from g\n"));
}

TEST(parse_expressions) {
    CHECK_STR("(+ a (* b c))", expr_of("a + b * c"));
    CHECK_STR("(- (- a b) c)", expr_of("a - b - c"));
    CHECK_STR("(- (** a b))", expr_of("-a ** b"));
    CHECK_STR("(** a (** b c))", expr_of("a ** b ** c"));
    CHECK_STR("(** a (- b))", expr_of("a ** -b"));
    CHECK_STR("(| (^ a (& b (<< c 1))) d)", expr_of("a ^ b & c << 1 | d"));
    CHECK_STR("(% (// (/ a b) c) (@ d e))", expr_of("a / b // c % (d @ e)"));
    CHECK_STR("(not (cmp a == b))", expr_of("not a == b"));
    CHECK_STR("(or (and a b) c d)", expr_of("a and b or c or d"));
    CHECK_STR("(cmp a < b <= c)", expr_of("a < b <= c"));
    CHECK_STR("(cmp a is not None is b not in c in d != e)", expr_of("a is not None is b not in c in d != e"));
    CHECK_STR("(ifexp c a (ifexp d b e))", expr_of("a if c else b if d else e"));
    CHECK_STR("(~ (+ (- x)))", expr_of("~+-x"));
    CHECK_STR("x[_:_:_, None]", expr_of("x[:, None]"));
    CHECK_STR("x[None, _:_:_]", expr_of("x[None, :]"));
    CHECK_STR("x[1:2:3, _:_:(- 1), a:_:_]", expr_of("x[1:2:3, ::-1, a:]"));
    CHECK_STR("x[(tuple- 0)]", expr_of("x[0,]"));
    CHECK_STR("x[...]", expr_of("x[...]"));
    CHECK_STR("(call f a *b <DoubleStarred> k=1)", expr_of("f(a, *b, k=1, **kw)"));
    CHECK_STR("(call tl.program_id axis=0).to", expr_of("tl.program_id(axis=0).to"));
    CHECK_STR("(call (call x.to tl.float32).sum 1)", expr_of("x.to(tl.float32).sum(1)"));
    CHECK_STR("(call f <GeneratorExp>)", expr_of("f(x for x in y)"));
    CHECK_STR("(tuple- (list) {} <Set> <ListComp> <SetComp> <DictComp> <GeneratorExp>)",
              expr_of("[], {}, {1, 2}, [x for x in y if x], {x for x in y}, {k: v for k, v in d}, (x for x in y)"));
    CHECK_STR("(tuple <NamedExpr>)", expr_of("(n := 10,)"));
    CHECK_STR("(lambda a b: (+ a b))", expr_of("lambda a, b=1: a + b"));
    CHECK_STR("f'ab{{c}}{x}'", expr_of("'ab' '{c}' f'{x}'"));
    CHECK_STR("(tuple- True False None ... BIG 1.5 <Constant>)",
              expr_of("True, False, None, ..., 99999999999999999999, 1.5, 2j"));
    CHECK_STR("<Await>", expr_of("await x"));
    CHECK_STR("(call print f'{x!r}' {'a': 1, _: d})", expr_of("print(f'{x!r}', {'a': 1, **d})"));
}

TEST(parse_compare_structure) {
    const char *text = "import triton\n@triton.jit\ndef k(a, b, c):\n    a < b < c\n";
    Module *m = parse(text);
    CHECK(m != NULL);
    if (!m) return;
    Expr *x = m->funcs[0]->body.stmts[0]->value;
    CHECK_INT(EX_COMPARE, x->kind);
    CHECK_INT(3, x->n);
    CHECK_STR("<", py_op_str(x->ops[0]));
    CHECK_STR("<", py_op_str(x->ops[1]));
    CHECK_STR("c", x->items[2]->name);
    CHECK_INT(4, x->loc.line);
    CHECK_INT(5, x->loc.col);
    CHECK_INT(9, x->items[1]->loc.col);
    module_free(m);
}

TEST(parse_host_code) {
    const char *text =
        "#!/usr/bin/env python3\n"
        "\"\"\"A module docstring.\"\"\"\n"
        "from __future__ import annotations\n"
        "import asyncio, dataclasses\n"
        "import triton\n"
        "x = {'a': [1, 2, {3, 4}], **other}\n"
        "y = [i * 2 for i in range(10) if i % 2 if i > 3]\n"
        "z = (lambda *a, **k: sum(a))(1, 2)\n"
        "w = f\"{x['a']!r:>{10}} {y[0]:.2f} {'nested' + \"q\"}\"\n"
        "v = rb'\\x00' + Rb\"raw\"\n"
        "if (n := len(y)) > 3:\n    print(n)\nelif n:\n    pass\nelse:\n    ...\n"
        "@dataclasses.dataclass(frozen=True)\n"
        "class Point:\n    x: int = 0\n    def norm(self) -> float:\n        return (self.x ** 2) ** .5\n"
        "async def main():\n    async with lock:\n        await asyncio.sleep(1)\n"
        "    async for item in gen():\n        yield item\n"
        "match command.split():\n    case [\"go\", direction]:\n        pass\n"
        "    case {\"k\": v, **rest}:\n        pass\n    case Point(x=0) | None:\n        pass\n"
        "try:\n    import torch\nexcept ImportError:\n    torch = None\nfinally:\n    pass\n"
        "with open('f') as f, open('g') as g:\n    data = f.read()\n"
        "def gen(*args, **kwargs) -> 'Iterator[int]':\n    global counter\n    yield from args\n"
        "@triton.testing.perf_report(triton.testing.Benchmark(x_names=['N'], x_vals=[2**i for i in range(12, 20)],\n"
        "    line_arg='provider', line_vals=['triton'], line_names=['Triton'], ylabel='GB/s', plot_name='p', args={}))\n"
        "def bench(N, provider):\n    return 1\n"
        "print(*[1, 2], sep='')\n"
        "a = b = c = 0\n"
        "assert a == 0, 'msg'\n"
        "del a\n"
        "lst[1:2] = [3]\n"
        "type Alias = int\n"
        "match = 3\n"
        "for i in range(3): print(i)\n"
        "else: pass\n"
        "while False:\n    break\n"
        "x = 1 if y else \\\n    2\n"
        "if __name__ == \"__main__\":\n    asyncio.run(main())\n";
    Module *m = parse(text);
    CHECK(m != NULL);
    if (!m) { fprintf(stderr, "%s\n", perr.msg); return; }
    CHECK_INT(0, m->nfuncs);
    CHECK_INT(0, m->nglobals);
    CHECK_INT(TC_OK, perr.code);
    module_free(m);
}

TEST(parse_errors) {
    /* a syntax error inside a kernel, at the offending token */
    const char *r = body_of("    x = (1 +\n        )\n");
    CHECK_STR("ERR k.py:7:9: error: invalid syntax\n            )\n            ^", r);
    r = body_of("    if x\n        pass\n");
    CHECK_CONTAINS(r, "k.py:6:9: error: expected ':'");
    r = body_of("    if x:\n    pass\n");
    CHECK_CONTAINS(r, "k.py:7:5: error: expected an indented block after 'if' statement on line 6");
    r = body_of("    x = 1\n        y = 2\n");
    CHECK_CONTAINS(r, "k.py:7:9: error: unexpected indent");
    r = body_of("    f(x) = 3\n");
    CHECK_CONTAINS(r, "k.py:6:5: error: cannot assign to function call here");
    r = body_of("    x = = 3\n");
    CHECK_CONTAINS(r, "k.py:6:9: error: invalid syntax");
    r = body_of("    return def\n");
    CHECK_CONTAINS(r, "k.py:6:12: error: invalid syntax");
    r = body_of("    a, b += 1\n");
    CHECK_CONTAINS(r, "k.py:6:5: error: 'tuple' is an illegal expression for augmented assignment");
    r = body_of("    x = [1, 2\n");
    CHECK_CONTAINS(r, "k.py:6:9: error: '[' was never closed");
    CHECK_INT(TC_ERR_SYNTAX, perr.code);
    CHECK_INT(6, perr.loc.line);
    /* variadic parameters in a jit function */
    Module *m = parse("import triton\n@triton.jit\ndef k(x, *args, **kw):\n    pass\n");
    CHECK(m == NULL);
    CHECK_INT(TC_ERR_SYNTAX, perr.code);
    CHECK_CONTAINS(perr.msg, "k.py:3:10: error: variadic parameters are not supported in @triton.jit functions");
    m = parse("import triton\n@triton.jit\ndef k(x, **kw):\n    pass\n");
    CHECK_CONTAINS(perr.msg, "k.py:3:10: error: variadic");
    /* the same thing in host code is fine */
    m = parse("import triton\ndef k(x, *args, **kw):\n    x = = 1\n@other\ndef j(x, *a): ]\n");
    CHECK(m == NULL);  /* ']' is a lexical error: unmatched, even in host code */
    m = parse("import triton\ndef k(x, *args, **kw):\n    x = = 1\n@other\ndef j(x, *a): pass\n");
    CHECK(m != NULL);
    CHECK_INT(0, m ? m->nfuncs : -1);
    module_free(m);
    /* a broken triton decorator is reported */
    m = parse("import triton\n@triton.jit(\n    noinline=)\ndef k(x):\n    pass\n");
    CHECK(m == NULL);
    CHECK_CONTAINS(perr.msg, "k.py:3:14: error: invalid syntax");
    /* duplicate parameter */
    m = parse("import triton\n@triton.jit\ndef k(x, x):\n    pass\n");
    CHECK_CONTAINS(perr.msg, "k.py:3:10: error: duplicate argument 'x' in function definition");
}

TEST(parse_limits) {
    /* deep nesting fails cleanly with TC_ERR_LIMIT, never with a crash */
    static char body[40000];
    int n = sprintf(body, "    x = ");
    for (int i = 0; i < 5000; i++) body[n++] = '-';
    n += sprintf(body + n, "1\n");
    const char *r = body_of(body);
    CHECK_CONTAINS(r, "expression nested too deeply");
    CHECK_INT(TC_ERR_LIMIT, perr.code);
    n = sprintf(body, "    x = 1");
    for (int i = 0; i < 3000; i++) n += sprintf(body + n, "**1");
    sprintf(body + n, "\n");
    CHECK_CONTAINS(body_of(body), "expression nested too deeply");
    n = sprintf(body, "    x = ");
    for (int i = 0; i < 3000; i++) n += sprintf(body + n, "not ");
    sprintf(body + n, "1\n");
    CHECK_CONTAINS(body_of(body), "expression nested too deeply");
    n = sprintf(body, "    x = ");
    for (int i = 0; i < 150; i++) body[n++] = '(';
    body[n++] = '1';
    for (int i = 0; i < 150; i++) body[n++] = ')';
    sprintf(body + n, "\n");
    CHECK_STR("[(= x 1)]", body_of(body));  /* 150 levels are fine */
    /* 20 levels of mixed nesting (120 brackets): valid Python, accepted */
    n = sprintf(body, "    x = ");
    for (int i = 0; i < 20; i++) n += sprintf(body + n, "f([a[{(-~(not (lambda: ");
    n += sprintf(body + n, "1");
    for (int i = 0; i < 20; i++) n += sprintf(body + n, ")))}]])");
    sprintf(body + n, "\n");
    CHECK(strncmp(body_of(body), "[(= x (call f (list a[<Set>])))]", 40) == 0);
    n = sprintf(body, "    x = ");
    for (int i = 0; i < 3000; i++) n += sprintf(body + n, "lambda: ");
    sprintf(body + n, "1\n");
    CHECK_CONTAINS(body_of(body), "expression nested too deeply");
    /* host code with deep nesting is limited too */
    n = 0;
    for (int i = 0; i < 150; i++) n += sprintf(body + n, "if x:\n%*s", i + 1, "");
    CHECK(parse(body) == NULL);
    CHECK_INT(TC_ERR_LIMIT, perr.code);
    source_free(src);
    src = NULL;
}
