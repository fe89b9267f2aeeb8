/* parse.c — a kernel module: imports, @triton.jit functions, constexpr globals.
 *
 * Top-level host code is skipped token by token (a simple statement to its NEWLINE, a
 * compound one through its indented block), so any Python around the kernels is accepted.
 * Bodies of jit functions are parsed fully into Stmt/Expr with Python's grammar and
 * precedence; constructs the kernel language rejects still parse (ST_UNSUPPORTED,
 * EX_OTHER) so that the tracer can report them only if it reaches them, as Triton does. */
#include "front/ast.h"

#include <stdlib.h>
#include <string.h>

/* Recursion is bounded by this count of nested constructs; the costly kind (brackets, about
 * 17 C frames each) is already capped at 200 by the lexer, so the C stack stays small. */
#define MAX_DEPTH 1000

typedef struct Parser {
    const Source *src;
    Module *m;
    Arena *a;
    Err *e;
    Token *t;        /* current token */
    Token *toks;
    int ntok;
    int depth;       /* recursion depth, bounded by MAX_DEPTH */
    int hostcap;     /* capacity of m->host */
} Parser;

static const char *keywords[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
    "return", "try", "while", "with", "yield",
};

static bool is_keyword(const Token *t) {
    if (t->kind != TK_NAME) return false;
    for (int i = 0; i < COUNT_OF(keywords); i++)
        if (tok_is(t, keywords[i])) return true;
    return false;
}

/* ---- helpers ---------------------------------------------------------------------- */

TC_NORETURN static void fail_at(Parser *P, const Token *t, const char *msg) {
    err_fail(P->e, TC_ERR_SYNTAX, t->loc, "%s", msg);
}

TC_NORETURN static void syntax_error(Parser *P) {
    if (P->t->kind == TK_INDENT) fail_at(P, P->t, "unexpected indent");
    if (P->t->kind == TK_DEDENT)
        fail_at(P, P->t, "unindent does not match any outer indentation level");
    if (P->t->kind == TK_EOF) fail_at(P, P->t, "unexpected EOF while parsing");
    fail_at(P, P->t, "invalid syntax");
}

static bool is(Parser *P, const char *s) { return tok_is(P->t, s); }
static bool peek_is(Parser *P, int k, const char *s) { return tok_is(P->t + k, s); }
static void advance(Parser *P) { if (P->t->kind != TK_EOF) P->t++; }

static bool consume(Parser *P, const char *s) {
    if (!is(P, s)) return false;
    advance(P);
    return true;
}

/* ---- operators -------------------------------------------------------------------- */

const PyOpInfo py_ops[PY_OP_COUNT] = {
    [PY_NOOP] = {"?", 0, 0},
    [PY_ADD] = {"+", PYOP_BINARY, PREC_ARITH},         [PY_SUB] = {"-", PYOP_BINARY, PREC_ARITH},
    [PY_MUL] = {"*", PYOP_BINARY, PREC_TERM},          [PY_DIV] = {"/", PYOP_BINARY, PREC_TERM},
    [PY_FLOORDIV] = {"//", PYOP_BINARY, PREC_TERM},    [PY_MOD] = {"%", PYOP_BINARY, PREC_TERM},
    [PY_MATMUL] = {"@", PYOP_BINARY, PREC_TERM},       [PY_POW] = {"**", PYOP_BINARY, PREC_POWER},
    [PY_LSHIFT] = {"<<", PYOP_BINARY, PREC_SHIFT},     [PY_RSHIFT] = {">>", PYOP_BINARY, PREC_SHIFT},
    [PY_BITAND] = {"&", PYOP_BINARY, PREC_BITAND},     [PY_BITXOR] = {"^", PYOP_BINARY, PREC_BITXOR},
    [PY_BITOR] = {"|", PYOP_BINARY, PREC_BITOR},
    [PY_UADD] = {"+", PYOP_UNARY, PREC_FACTOR},        [PY_USUB] = {"-", PYOP_UNARY, PREC_FACTOR},
    [PY_INVERT] = {"~", PYOP_UNARY, PREC_FACTOR},      [PY_NOT] = {"not", PYOP_UNARY, PREC_NOT},
    [PY_AND] = {"and", PYOP_BOOL, PREC_AND},           [PY_OR] = {"or", PYOP_BOOL, PREC_OR},
    [PY_EQ] = {"==", PYOP_COMPARE, PREC_COMPARE},      [PY_NE] = {"!=", PYOP_COMPARE, PREC_COMPARE},
    [PY_LT] = {"<", PYOP_COMPARE, PREC_COMPARE},       [PY_LE] = {"<=", PYOP_COMPARE, PREC_COMPARE},
    [PY_GT] = {">", PYOP_COMPARE, PREC_COMPARE},       [PY_GE] = {">=", PYOP_COMPARE, PREC_COMPARE},
    [PY_IS] = {"is", PYOP_COMPARE, PREC_COMPARE},      [PY_IS_NOT] = {"is not", PYOP_COMPARE, PREC_COMPARE},
    [PY_IN] = {"in", PYOP_COMPARE, PREC_COMPARE},      [PY_NOT_IN] = {"not in", PYOP_COMPARE, PREC_COMPARE},
};

PyOp py_op_find(const char *text, size_t len, unsigned kinds) {
    for (int i = 1; i < PY_OP_COUNT; i++)
        if ((py_ops[i].kind & kinds) && len && py_ops[i].text[0] == text[0] &&
            strlen(py_ops[i].text) == len &&
            memcmp(py_ops[i].text, text, len) == 0)
            return (PyOp)i;
    return PY_NOOP;
}

/* The operator of one of `kinds` at precedence prec that the current token spells. */
static PyOp op_here(Parser *P, unsigned kinds, int prec) {
    if (P->t->kind != TK_OP && P->t->kind != TK_NAME) return PY_NOOP;
    PyOp op = py_op_find(P->t->s, (size_t)P->t->len, kinds);
    return py_ops[op].prec == prec ? op : PY_NOOP;
}

static void expect(Parser *P, const char *s) {
    if (consume(P, s)) return;
    if (strcmp(s, ":") == 0) fail_at(P, P->t, "expected ':'");
    syntax_error(P);
}

static const char *name_str(Parser *P, const Token *t) {
    return arena_strndup(P->a, t->s, (size_t)t->len);
}

static const char *expect_name(Parser *P) {
    if (P->t->kind != TK_NAME || is_keyword(P->t)) syntax_error(P);
    const char *s = name_str(P, P->t);
    advance(P);
    return s;
}

static void enter(Parser *P) {
    if (++P->depth > MAX_DEPTH)
        err_fail(P->e, TC_ERR_LIMIT, P->t->loc, "expression nested too deeply");
}
static void leave(Parser *P) { P->depth--; }

static Expr *new_expr(Parser *P, int kind, SrcLoc loc) {
    Expr *x = arena_alloc(P->a, sizeof *x);
    x->kind = (uint8_t)kind;
    x->loc = loc;
    return x;
}

static Expr *new_other(Parser *P, const char *name, SrcLoc loc) {
    Expr *x = new_expr(P, EX_OTHER, loc);
    x->name = name;
    return x;
}

static Stmt *new_stmt(Parser *P, int kind, SrcLoc loc) {
    Stmt *s = arena_alloc(P->a, sizeof *s);
    s->kind = (uint8_t)kind;
    s->loc = loc;
    return s;
}

/* A growable list of expressions in the arena. */
typedef struct EList { Expr **v; int n, cap; } EList;
static void elist_push(Parser *P, EList *l, Expr *x) { ARENA_PUSH(P->a, l->v, l->n, l->cap, x); }

/* ---- expressions ------------------------------------------------------------------ */

static Expr *expr_test(Parser *P);
static Expr *expr_or(Parser *P);
static Expr *expr_bitor(Parser *P);
static Expr *star_or_test(Parser *P);

static bool at_expr_end(Parser *P) {
    return P->t->kind == TK_NEWLINE || P->t->kind == TK_EOF || is(P, ")") || is(P, "]") ||
           is(P, "}") || is(P, "=") || is(P, ":") || is(P, ";") || P->t->kind == TK_DEDENT ||
           P->t->kind == TK_INDENT;
}

// comp_for = ("async"? "for" targets "in" or_test ("if" or_test)*)+
// (kept for host code; comprehensions are never valid kernels)
static void comp_for(Parser *P, Expr *x) {
    int cap = 0;
    while (is(P, "for") || (is(P, "async") && peek_is(P, 1, "for"))) {
        consume(P, "async");
        advance(P);
        Comp c = {0};
        EList tl = {0};
        SrcLoc tloc = P->t->loc;
        bool comma = false;
        do {
            if (is(P, "in")) break;
            if (is(P, "*")) {
                Expr *st = new_expr(P, EX_STARRED, P->t->loc);
                advance(P);
                st->lhs = expr_bitor(P);
                elist_push(P, &tl, st);
            } else elist_push(P, &tl, expr_bitor(P));
        } while (consume(P, ",") && (comma = true));
        if (tl.n == 1 && !comma) c.target = tl.v[0];
        else {
            c.target = new_expr(P, EX_TUPLE, tloc);
            c.target->items = tl.v;
            c.target->n = tl.n;
        }
        expect(P, "in");
        c.iter = expr_or(P);
        EList ifs = {0};
        while (consume(P, "if")) elist_push(P, &ifs, expr_or(P));
        c.ifs = ifs.v;
        c.nifs = ifs.n;
        ARENA_PUSH(P->a, x->comps, x->ncomps, cap, c);
    }
}

static bool at_comp_for(Parser *P) {
    return is(P, "for") || (is(P, "async") && peek_is(P, 1, "for"));
}

// lambda = "lambda" [params] ":" test
static Expr *expr_lambda(Parser *P) {
    Expr *x = new_expr(P, EX_LAMBDA, P->t->loc);
    advance(P);
    const char **names = NULL;
    Expr **defs = NULL;
    uint8_t *stars = NULL;
    int n = 0, cap = 0, dcap = 0, scap = 0, dn = 0, sn = 0;
    while (!is(P, ":")) {
        if (consume(P, "/")) {
        } else if (is(P, "**") || is(P, "*")) {
            uint8_t star = is(P, "**") ? 2 : 1;
            advance(P);
            if (P->t->kind == TK_NAME && !is_keyword(P->t)) {
                ARENA_PUSH(P->a, names, n, cap, expect_name(P));
                ARENA_PUSH(P->a, defs, dn, dcap, NULL);
                ARENA_PUSH(P->a, stars, sn, scap, star);
            }
        } else {
            ARENA_PUSH(P->a, names, n, cap, expect_name(P));
            Expr *d = consume(P, "=") ? expr_test(P) : NULL;
            ARENA_PUSH(P->a, defs, dn, dcap, d);
            ARENA_PUSH(P->a, stars, sn, scap, 0);
        }
        if (!consume(P, ",")) break;
    }
    expect(P, ":");
    x->params = names;
    x->nparams = n;
    x->pdefaults = defs;
    x->pstar = stars;
    x->lhs = expr_test(P);
    return x;
}

static Expr *expr_paren(Parser *P);
static Expr *expr_list(Parser *P);
static Expr *expr_brace(Parser *P);

// strings = STRING+  (adjacent literals concatenate)
static Expr *expr_strings(Parser *P) {
    Expr *x = new_expr(P, EX_STR, P->t->loc);
    bool f = false;
    size_t total = 0;
    for (Token *t = P->t; t->kind == TK_STRING; t++) {
        f |= t->fstring;
        total += (size_t)t->slen * 2;  /* room for doubled braces */
    }
    char *s = arena_alloc(P->a, total + 1);
    size_t n = 0;
    for (; P->t->kind == TK_STRING; advance(P)) {
        Token *t = P->t;
        for (int i = 0; i < t->slen; i++) {
            s[n++] = t->str[i];
            /* a plain part of an f-string concatenation: its braces are literal */
            if (f && !t->fstring && (t->str[i] == '{' || t->str[i] == '}')) s[n++] = t->str[i];
        }
    }
    s[n] = 0;
    x->str = s;
    x->fstring = f;
    return x;
}

// atom = NAME | NUMBER | STRING+ | "..." | True | False | None
//      | "(" [yield | testlist_comp] ")" | "[" [testlist_comp] "]" | "{" [dictorsetmaker] "}"
static Expr *expr_atom(Parser *P) {
    Token *t = P->t;
    SrcLoc loc = t->loc;
    switch (t->kind) {
    case TK_INT: {
        Expr *x = new_expr(P, EX_INT, loc);
        x->ival = t->ival;
        x->big = t->big;
        advance(P);
        return x;
    }
    case TK_FLOAT: {
        Expr *x = t->imag ? new_other(P, "Constant", loc) : new_expr(P, EX_FLOAT, loc);
        x->fval = t->fval;
        advance(P);
        return x;
    }
    case TK_STRING:
        return expr_strings(P);
    case TK_NAME: {
        int kind = tok_is(t, "True") ? EX_TRUE : tok_is(t, "False") ? EX_FALSE
                 : tok_is(t, "None") ? EX_NONE : -1;
        if (kind >= 0) {
            advance(P);
            return new_expr(P, kind, loc);
        }
        if (is_keyword(t)) syntax_error(P);
        Expr *x = new_expr(P, EX_NAME, loc);
        x->name = expect_name(P);
        return x;
    }
    case TK_OP:
        if (tok_is(t, "...")) {
            advance(P);
            return new_expr(P, EX_ELLIPSIS, loc);
        }
        if (tok_is(t, "(")) return expr_paren(P);
        if (tok_is(t, "[")) return expr_list(P);
        if (tok_is(t, "{")) return expr_brace(P);
        break;
    }
    syntax_error(P);
}

// yield_expr = "yield" ["from" test | testlist]
static Expr *expr_yield(Parser *P) {
    SrcLoc loc = P->t->loc;
    advance(P);
    if (consume(P, "from")) {
        Expr *x = new_other(P, "YieldFrom", loc);
        x->lhs = expr_test(P);
        return x;
    }
    Expr *x = new_other(P, "Yield", loc);
    if (!at_expr_end(P)) x->lhs = star_or_test(P);
    while (consume(P, ",")) if (!at_expr_end(P)) star_or_test(P);
    return x;
}

// named = NAME ":=" test | test;  star_named = "*" bitor | named
static Expr *star_named(Parser *P) {
    if (is(P, "*")) {
        Expr *x = new_expr(P, EX_STARRED, P->t->loc);
        advance(P);
        x->lhs = expr_bitor(P);
        return x;
    }
    if (P->t->kind == TK_NAME && peek_is(P, 1, ":=")) {
        Expr *x = new_other(P, "NamedExpr", P->t->loc);
        x->lhs = expr_atom(P);
        advance(P);
        x->rhs = expr_test(P);
        return x;
    }
    return expr_test(P);
}

/* Items of a display up to and including `close`; *comma is set when a comma was seen. */
static void display_items(Parser *P, EList *l, const char *close, bool *comma) {
    while (!is(P, close)) {
        elist_push(P, l, star_named(P));
        if (!consume(P, ",")) break;
        *comma = true;
    }
    expect(P, close);
}

static Expr *expr_paren(Parser *P) {
    SrcLoc loc = P->t->loc;
    advance(P);
    if (consume(P, ")")) {
        Expr *x = new_expr(P, EX_TUPLE, loc);
        x->parens = true;
        return x;
    }
    if (is(P, "yield")) {
        Expr *x = expr_yield(P);
        expect(P, ")");
        x->parens = true;
        return x;
    }
    Expr *first = star_named(P);
    if (at_comp_for(P)) {
        Expr *x = new_other(P, "GeneratorExp", loc);
        x->lhs = first;
        comp_for(P, x);
        expect(P, ")");
        x->parens = true;
        return x;
    }
    if (consume(P, ")")) {
        if (first->kind == EX_STARRED) fail_at(P, P->t - 1, "cannot use starred expression here");
        first->parens = true;
        return first;
    }
    if (!is(P, ",")) syntax_error(P);
    advance(P);
    EList l = {0};
    elist_push(P, &l, first);
    bool comma = true;
    display_items(P, &l, ")", &comma);
    Expr *x = new_expr(P, EX_TUPLE, loc);
    x->items = l.v;
    x->n = l.n;
    x->parens = true;
    return x;
}

static Expr *expr_list(Parser *P) {
    SrcLoc loc = P->t->loc;
    advance(P);
    EList l = {0};
    if (!is(P, "]")) {
        Expr *first = star_named(P);
        if (at_comp_for(P)) {
            Expr *x = new_other(P, "ListComp", loc);
            x->lhs = first;
            comp_for(P, x);
            expect(P, "]");
            return x;
        }
        elist_push(P, &l, first);
        bool comma = false;
        if (consume(P, ",")) display_items(P, &l, "]", &comma);
        else expect(P, "]");
    } else {
        advance(P);
    }
    Expr *x = new_expr(P, EX_LIST, loc);
    x->items = l.v;
    x->n = l.n;
    return x;
}

// dictorsetmaker = (test ":" test | "**" bitor) ("," ...)* | comprehension | set items
static Expr *expr_brace(Parser *P) {
    SrcLoc loc = P->t->loc;
    advance(P);
    EList keys = {0}, vals = {0};
    if (consume(P, "}")) return new_expr(P, EX_DICT, loc);
    if (!is(P, "**")) {
        Expr *first = star_named(P);
        if (consume(P, ":")) {
            elist_push(P, &keys, first);
            elist_push(P, &vals, expr_test(P));
            if (at_comp_for(P)) {
                Expr *x = new_other(P, "DictComp", loc);
                x->lhs = first;
                x->rhs = vals.v[0];
                comp_for(P, x);
                expect(P, "}");
                return x;
            }
            if (!consume(P, ",")) { expect(P, "}"); goto done; }
        } else {
            if (at_comp_for(P)) {
                Expr *x = new_other(P, "SetComp", loc);
                x->lhs = first;
                comp_for(P, x);
                expect(P, "}");
                return x;
            }
            elist_push(P, &vals, first);
            bool comma = false;
            if (consume(P, ",")) display_items(P, &vals, "}", &comma);
            else expect(P, "}");
            Expr *x = new_other(P, "Set", loc);
            x->items = vals.v;
            x->n = vals.n;
            return x;
        }
    }
    while (!is(P, "}")) {
        if (consume(P, "**")) {
            elist_push(P, &keys, NULL);  /* {**other}: no key */
            elist_push(P, &vals, expr_bitor(P));
        } else {
            elist_push(P, &keys, expr_test(P));
            expect(P, ":");
            elist_push(P, &vals, expr_test(P));
        }
        if (!consume(P, ",")) break;
    }
    expect(P, "}");
done:;
    Expr *x = new_expr(P, EX_DICT, loc);
    x->keys = keys.v;
    x->items = vals.v;
    x->n = vals.n;
    return x;
}

// arglist = arg ("," arg)* [","];  arg = test [comp_for] | NAME "=" test | "*" test | "**" test
static void call_args(Parser *P, Expr *call) {
    EList args = {0};
    KwArg *kw = NULL;
    int nkw = 0, cap = 0;
    while (!is(P, ")")) {
        SrcLoc loc = P->t->loc;
        if (consume(P, "*")) {
            Expr *x = new_expr(P, EX_STARRED, loc);
            x->lhs = expr_test(P);
            elist_push(P, &args, x);
        } else if (consume(P, "**")) {
            Expr *x = new_other(P, "DoubleStarred", loc);
            x->lhs = expr_test(P);
            elist_push(P, &args, x);
        } else if (P->t->kind == TK_NAME && peek_is(P, 1, "=")) {
            KwArg k = {expect_name(P), NULL, loc};
            advance(P);
            k.value = expr_test(P);
            ARENA_PUSH(P->a, kw, nkw, cap, k);
        } else {
            Expr *x = star_named(P);
            if (at_comp_for(P)) {
                Expr *g = new_other(P, "GeneratorExp", loc);
                g->lhs = x;
                comp_for(P, g);
                x = g;
            }
            elist_push(P, &args, x);
        }
        if (!consume(P, ",")) break;
    }
    expect(P, ")");
    call->items = args.v;
    call->n = args.n;
    call->kw = kw;
    call->nkw = nkw;
}

// subscript = slice ("," slice)* [","];  slice = [test] ":" [test] [":" [test]] | test | "*" bitor
static Expr *subscript_item(Parser *P) {
    SrcLoc loc = P->t->loc;
    Expr *lo = NULL;
    if (is(P, "*")) return star_named(P);
    if (!is(P, ":")) {
        lo = star_named(P);
        if (!is(P, ":")) return lo;
    }
    Expr *x = new_expr(P, EX_SLICE, loc);
    x->lhs = lo;
    advance(P);  /* ':' */
    if (!is(P, ":") && !is(P, ",") && !is(P, "]")) x->rhs = expr_test(P);
    if (consume(P, ":") && !is(P, ",") && !is(P, "]")) x->cond = expr_test(P);
    return x;
}

// primary = atom ("(" arglist ")" | "[" subscript "]" | "." NAME)*
static Expr *expr_primary(Parser *P) {
    Expr *x = expr_atom(P);
    for (;;) {
        if (consume(P, "(")) {
            Expr *c = new_expr(P, EX_CALL, x->loc);
            c->lhs = x;
            call_args(P, c);
            x = c;
        } else if (consume(P, "[")) {
            Expr *s = new_expr(P, EX_SUBSCRIPT, x->loc);
            s->lhs = x;
            EList l = {0};
            bool comma = false;
            do {
                if (is(P, "]") && l.n > 0) break;
                elist_push(P, &l, subscript_item(P));
            } while (consume(P, ",") && (comma = true));
            expect(P, "]");
            if (comma && l.n == 1) {  /* x[a,] indexes with a 1-tuple */
                Expr *t = new_expr(P, EX_TUPLE, l.v[0]->loc);
                t->items = l.v;
                t->n = 1;
                EList one = {0};
                elist_push(P, &one, t);
                l = one;
            }
            s->items = l.v;
            s->n = l.n;
            x = s;
        } else if (consume(P, ".")) {
            Expr *at = new_expr(P, EX_ATTR, x->loc);
            at->lhs = x;
            at->name = expect_name(P);
            x = at;
        } else {
            return x;
        }
    }
}

// power = ["await"] primary ["**" factor]
static Expr *expr_factor(Parser *P);
static Expr *expr_power(Parser *P) {
    Expr *x;
    if (is(P, "await")) {
        x = new_other(P, "Await", P->t->loc);
        advance(P);
        x->lhs = expr_primary(P);
    } else {
        x = expr_primary(P);
    }
    if (op_here(P, PYOP_BINARY, PREC_POWER)) {
        enter(P);
        advance(P);
        Expr *b = new_expr(P, EX_BINOP, x->loc);
        b->op = PY_POW;
        b->lhs = x;
        b->rhs = expr_factor(P);
        x = b;
        leave(P);
    }
    return x;
}

// factor = ("+" | "-" | "~") factor | power
static Expr *expr_factor(Parser *P) {
    PyOp op = op_here(P, PYOP_UNARY, PREC_FACTOR);
    if (op) {
        enter(P);
        Expr *x = new_expr(P, EX_UNARY, P->t->loc);
        x->op = op;
        advance(P);
        x->lhs = expr_factor(P);
        leave(P);
        return x;
    }
    return expr_power(P);
}

/* Left-associative binary operators from precedence prec (PREC_BITOR: bitor = bitxor ("|"
 * bitxor)*) up to PREC_TERM (term = factor (("*" | "/" | "//" | "%" | "@") factor)*). */
static Expr *expr_binary(Parser *P, int prec) {
    if (prec > PREC_TERM) return expr_factor(P);
    Expr *x = expr_binary(P, prec + 1);
    for (PyOp op; (op = op_here(P, PYOP_BINARY, prec));) {
        advance(P);
        Expr *b = new_expr(P, EX_BINOP, x->loc);
        b->op = op;
        b->lhs = x;
        b->rhs = expr_binary(P, prec + 1);
        x = b;
    }
    return x;
}

static Expr *expr_bitor(Parser *P) { return expr_binary(P, PREC_BITOR); }

/* A comparison operator at the current token (consumed), else PY_NOOP. */
static PyOp comp_op(Parser *P) {
    if (is(P, "not") && peek_is(P, 1, "in")) {
        advance(P);
        advance(P);
        return PY_NOT_IN;
    }
    PyOp op = op_here(P, PYOP_COMPARE, PREC_COMPARE);
    if (!op) return PY_NOOP;
    advance(P);
    if (op == PY_IS && consume(P, "not")) return PY_IS_NOT;
    return op;
}

// comparison = bitor (comp_op bitor)*   (a chain is one EX_COMPARE)
static Expr *expr_comparison(Parser *P) {
    Expr *x = expr_bitor(P);
    PyOp op = comp_op(P);
    if (!op) return x;
    Expr *c = new_expr(P, EX_COMPARE, x->loc);
    EList items = {0};
    PyOp *ops = NULL;
    int nops = 0, cap = 0;
    elist_push(P, &items, x);
    for (; op; op = comp_op(P)) {
        ARENA_PUSH(P->a, ops, nops, cap, op);
        elist_push(P, &items, expr_bitor(P));
    }
    c->items = items.v;
    c->n = items.n;
    c->ops = ops;
    return c;
}

// not_test = "not" not_test | comparison
static Expr *expr_not(Parser *P) {
    if (!op_here(P, PYOP_UNARY, PREC_NOT)) return expr_comparison(P);
    enter(P);
    Expr *x = new_expr(P, EX_UNARY, P->t->loc);
    x->op = PY_NOT;
    advance(P);
    x->lhs = expr_not(P);
    leave(P);
    return x;
}

/* and_test / or_test: a BOOLOP over all operands of one operator. */
static Expr *boolop(Parser *P, PyOp op, Expr *(*sub)(Parser *)) {
    Expr *x = sub(P);
    if (!is(P, py_op_str(op))) return x;
    Expr *b = new_expr(P, EX_BOOLOP, x->loc);
    b->op = op;
    EList l = {0};
    elist_push(P, &l, x);
    while (consume(P, py_op_str(op))) elist_push(P, &l, sub(P));
    b->items = l.v;
    b->n = l.n;
    return b;
}

// and_test = not_test ("and" not_test)*
static Expr *expr_and(Parser *P) { return boolop(P, PY_AND, expr_not); }
// or_test = and_test ("or" and_test)*
static Expr *expr_or(Parser *P) { return boolop(P, PY_OR, expr_and); }

// test = or_test ["if" or_test "else" test] | lambda
static Expr *expr_test(Parser *P) {
    enter(P);
    Expr *x;
    if (is(P, "lambda")) {
        x = expr_lambda(P);
    } else {
        x = expr_or(P);
        if (is(P, "if")) {
            Expr *c = new_expr(P, EX_IFEXP, x->loc);
            advance(P);
            c->lhs = x;
            c->cond = expr_or(P);
            expect(P, "else");
            c->orelse = expr_test(P);
            x = c;
        }
    }
    leave(P);
    return x;
}

static Expr *star_or_test(Parser *P) {
    if (is(P, "*")) {
        Expr *x = new_expr(P, EX_STARRED, P->t->loc);
        advance(P);
        x->lhs = expr_bitor(P);
        return x;
    }
    return star_named(P);
}

/* testlist: one expression, or an unparenthesized tuple when a comma follows. `item`
 * parses one element (tests, or bitor-level targets of a for). */
static Expr *exprlist(Parser *P, Expr *(*item)(Parser *)) {
    SrcLoc loc = P->t->loc;
    Expr *x = item(P);
    if (!is(P, ",")) return x;
    EList l = {0};
    elist_push(P, &l, x);
    while (consume(P, ",")) {
        if (at_expr_end(P) || is(P, "in")) break;
        elist_push(P, &l, item(P));
    }
    Expr *t = new_expr(P, EX_TUPLE, loc);
    t->items = l.v;
    t->n = l.n;
    return t;
}

static Expr *star_bitor(Parser *P) {
    if (is(P, "*")) {
        Expr *x = new_expr(P, EX_STARRED, P->t->loc);
        advance(P);
        x->lhs = expr_bitor(P);
        return x;
    }
    return expr_bitor(P);
}

/* ---- statements ------------------------------------------------------------------- */

/* Skips to the end of the current logical line (its NEWLINE is consumed), then over an
 * indented block if one follows. Brackets never hold NEWLINE tokens (the lexer drops them),
 * so this is a flat scan. */
static void skip_line_and_block(Parser *P) {
    while (P->t->kind != TK_NEWLINE && P->t->kind != TK_EOF) advance(P);
    if (P->t->kind == TK_NEWLINE) advance(P);
    if (P->t->kind != TK_INDENT) return;
    int level = 0;
    do {
        if (P->t->kind == TK_INDENT) level++;
        else if (P->t->kind == TK_DEDENT) level--;
        advance(P);
    } while (level > 0 && P->t->kind != TK_EOF);
}

/* Skips one simple statement: up to ';' or NEWLINE (not consumed). */
static void skip_simple(Parser *P) {
    while (P->t->kind != TK_NEWLINE && P->t->kind != TK_EOF && !is(P, ";")) advance(P);
}

static void stmt_into(Parser *P, Block *b, int *cap);
static Block block(Parser *P, const Token *hdr, const char *what);

static bool valid_target(Expr *x) {
    switch (x->kind) {
    case EX_NAME: case EX_ATTR: case EX_SUBSCRIPT: return true;
    case EX_STARRED: return valid_target(x->lhs);
    case EX_TUPLE: case EX_LIST:
        for (int i = 0; i < x->n; i++)
            if (!valid_target(x->items[i])) return false;
        return true;
    }
    return false;
}

static void check_target(Parser *P, Expr *x, const char *assign_kind) {
    if (valid_target(x)) return;
    const char *what = x->kind == EX_CALL ? "function call"
                     : (x->kind <= EX_ELLIPSIS && x->kind != EX_NAME) ? "literal"
                     : "expression";
    err_fail(P->e, TC_ERR_SYNTAX, x->loc, "cannot %s %s here", assign_kind, what);
}

/* The binary operator of an augmented assignment token ("+=" -> PY_ADD), else PY_NOOP. */
static PyOp augassign_op(Parser *P) {
    const Token *t = P->t;
    if (t->kind != TK_OP || t->len < 2 || t->s[t->len - 1] != '=') return PY_NOOP;
    return py_op_find(t->s, (size_t)t->len - 1, PYOP_BINARY);
}

static Expr *rhs_value(Parser *P) {
    if (is(P, "yield")) return expr_yield(P);
    return exprlist(P, star_or_test);
}

// expr_stmt = testlist (augassign rhs | ":" test ["=" rhs] | ("=" rhs)*)
static Stmt *expr_stmt(Parser *P) {
    SrcLoc loc = P->t->loc;
    Expr *lhs = is(P, "yield") ? expr_yield(P) : exprlist(P, star_or_test);
    PyOp aug = augassign_op(P);
    if (aug) {
        if (lhs->kind != EX_NAME && lhs->kind != EX_ATTR && lhs->kind != EX_SUBSCRIPT)
            err_fail(P->e, TC_ERR_SYNTAX, lhs->loc,
                     "'%s' is an illegal expression for augmented assignment",
                     lhs->kind == EX_TUPLE ? "tuple" : "expression");
        advance(P);
        Stmt *s = new_stmt(P, ST_AUGASSIGN, loc);
        s->op = aug;
        s->target = lhs;
        s->value = rhs_value(P);
        return s;
    }
    if (is(P, ":")) {
        if (lhs->kind != EX_NAME && lhs->kind != EX_ATTR && lhs->kind != EX_SUBSCRIPT)
            err_fail(P->e, TC_ERR_SYNTAX, lhs->loc, "only single target (not %s) can be annotated",
                     lhs->kind == EX_TUPLE ? "tuple" : "expression");
        advance(P);
        Stmt *s = new_stmt(P, ST_ANNASSIGN, loc);
        s->target = lhs;
        s->annotation = expr_test(P);
        if (consume(P, "=")) s->value = rhs_value(P);
        return s;
    }
    if (!is(P, "=")) {
        Stmt *s = new_stmt(P, ST_EXPR, loc);
        s->value = lhs;
        return s;
    }
    Stmt *s = new_stmt(P, ST_ASSIGN, loc);
    s->target = lhs;
    Expr *value = lhs;
    while (consume(P, "=")) {
        check_target(P, value, "assign to");
        s->ntargets++;
        value = rhs_value(P);
    }
    s->value = value;
    return s;
}

static Stmt *unsupported(Parser *P, const char *name, SrcLoc loc) {
    Stmt *s = new_stmt(P, ST_UNSUPPORTED, loc);
    s->name = name;
    return s;
}

// simple_stmt = pass | break | continue | return [testlist] | assert test ["," test]
//             | raise ... | global ... | nonlocal ... | del ... | import ... | expr_stmt
static Stmt *simple_stmt(Parser *P) {
    SrcLoc loc = P->t->loc;
    if (consume(P, "pass")) return new_stmt(P, ST_PASS, loc);
    if (consume(P, "break")) return unsupported(P, "Break", loc);
    if (consume(P, "continue")) return unsupported(P, "Continue", loc);
    if (consume(P, "return")) {
        Stmt *s = new_stmt(P, ST_RETURN, loc);
        if (!at_expr_end(P)) s->value = exprlist(P, star_or_test);
        return s;
    }
    if (consume(P, "assert")) {
        Stmt *s = new_stmt(P, ST_ASSERT, loc);
        s->cond = expr_test(P);
        if (consume(P, ",")) s->value = expr_test(P);
        return s;
    }
    static const struct { const char *kw, *node; } skipped[] = {
        {"raise", "Raise"}, {"global", "Global"}, {"nonlocal", "Nonlocal"},
        {"del", "Delete"}, {"import", "Import"}, {"from", "ImportFrom"},
    };
    for (int i = 0; i < COUNT_OF(skipped); i++) {
        if (!is(P, skipped[i].kw)) continue;
        skip_simple(P);
        return unsupported(P, skipped[i].node, loc);
    }
    /* Python 3.12 `type X = ...` */
    if (is(P, "type") && P->t[1].kind == TK_NAME && !is_keyword(&P->t[1])) {
        skip_simple(P);
        return unsupported(P, "TypeAlias", loc);
    }
    return expr_stmt(P);
}

// simple_stmts = simple_stmt (";" simple_stmt)* [";"] NEWLINE
static void simple_stmts(Parser *P, Block *b, int *cap) {
    for (;;) {
        Stmt *s = simple_stmt(P);
        ARENA_PUSH(P->a, b->stmts, b->n, *cap, s);
        if (!consume(P, ";")) break;
        if (P->t->kind == TK_NEWLINE) break;
    }
    if (P->t->kind != TK_NEWLINE) syntax_error(P);
    advance(P);
}

/* Skips a compound statement the kernel language rejects (header, block, and for `try`
 * its except/else/finally clauses). */
static Stmt *skip_compound(Parser *P, const char *node, const char *const *clauses) {
    SrcLoc loc = P->t->loc;
    skip_line_and_block(P);
    for (bool more = true; more && clauses;) {
        more = false;
        for (int i = 0; clauses[i]; i++)
            if (is(P, clauses[i])) {
                skip_line_and_block(P);
                more = true;
            }
    }
    return unsupported(P, node, loc);
}

// if_stmt = "if" test ":" block ("elif" test ":" block)* ["else" ":" block]
static Stmt *if_stmt(Parser *P) {
    Token *hdr = P->t;
    Stmt *s = new_stmt(P, ST_IF, hdr->loc);
    advance(P);
    s->cond = star_named(P);
    expect(P, ":");
    s->body = block(P, hdr, tok_is(hdr, "if") ? "'if' statement" : "'elif' statement");
    if (is(P, "elif")) {
        Stmt *e = if_stmt(P);
        s->orelse.stmts = arena_alloc(P->a, sizeof(Stmt *));
        s->orelse.stmts[0] = e;
        s->orelse.n = 1;
    } else if (is(P, "else")) {
        Token *el = P->t;
        advance(P);
        expect(P, ":");
        s->orelse = block(P, el, "'else' statement");
    }
    return s;
}

static void loop_else(Parser *P, Stmt *s) {
    if (!is(P, "else")) return;
    Token *el = P->t;
    advance(P);
    expect(P, ":");
    s->orelse = block(P, el, "'else' statement");
    s->has_orelse = true;
}

// for_stmt = "for" targets "in" testlist ":" block ["else" ":" block]
static Stmt *for_stmt(Parser *P) {
    Token *hdr = P->t;
    Stmt *s = new_stmt(P, ST_FOR, hdr->loc);
    advance(P);
    s->target = exprlist(P, star_bitor);
    check_target(P, s->target, "assign to");
    expect(P, "in");
    s->value = exprlist(P, star_or_test);
    expect(P, ":");
    s->body = block(P, hdr, "'for' statement");
    loop_else(P, s);
    return s;
}

// while_stmt = "while" test ":" block ["else" ":" block]
static Stmt *while_stmt(Parser *P) {
    Token *hdr = P->t;
    Stmt *s = new_stmt(P, ST_WHILE, hdr->loc);
    advance(P);
    s->cond = star_named(P);
    expect(P, ":");
    s->body = block(P, hdr, "'while' statement");
    loop_else(P, s);
    return s;
}

static bool is_match_stmt(Parser *P) {
    /* `match` is a soft keyword: a match statement's header line ends in ':' NEWLINE */
    if (!is(P, "match")) return false;
    Token *t = P->t + 1;
    if (t->kind == TK_NEWLINE || (t->kind == TK_OP && !tok_is(t, "(") && !tok_is(t, "[") &&
                                  !tok_is(t, "-") && !tok_is(t, "{") && !tok_is(t, "*")))
        return false;
    for (; t->kind != TK_NEWLINE && t->kind != TK_EOF; t++) {}
    return tok_is(t - 1, ":");
}

// stmt = compound_stmt | simple_stmts
static void stmt_into(Parser *P, Block *b, int *cap) {
    static const char *const try_clauses[] = {"except", "else", "finally", NULL};
    SrcLoc loc = P->t->loc;
    Stmt *s = NULL;
    enter(P);
    if (is(P, "if")) s = if_stmt(P);
    else if (is(P, "for")) s = for_stmt(P);
    else if (is(P, "while")) s = while_stmt(P);
    else if (is(P, "def")) s = skip_compound(P, "FunctionDef", NULL);
    else if (is(P, "class")) s = skip_compound(P, "ClassDef", NULL);
    else if (is(P, "with")) s = skip_compound(P, "With", NULL);
    else if (is(P, "try")) s = skip_compound(P, "Try", try_clauses);
    else if (is(P, "async")) {
        const char *node = peek_is(P, 1, "def") ? "AsyncFunctionDef"
                         : peek_is(P, 1, "for") ? "AsyncFor" : "AsyncWith";
        s = skip_compound(P, node, NULL);
    } else if (is(P, "@")) {
        /* decorators of a nested def or class */
        while (is(P, "@")) skip_line_and_block(P);
        const char *node = is(P, "class") ? "ClassDef"
                         : is(P, "async") ? "AsyncFunctionDef" : "FunctionDef";
        s = skip_compound(P, node, NULL);
        s->loc = loc;
    } else if (is_match_stmt(P)) {
        s = skip_compound(P, "Match", NULL);
    } else if (P->t->kind == TK_INDENT) {
        fail_at(P, P->t, "unexpected indent");
    } else if (is(P, "else") || is(P, "elif") || is(P, "except") || is(P, "finally")) {
        syntax_error(P);
    }
    if (s) ARENA_PUSH(P->a, b->stmts, b->n, *cap, s);
    else simple_stmts(P, b, cap);
    leave(P);
}

// block = simple_stmts | NEWLINE INDENT stmt+ DEDENT
static Block block(Parser *P, const Token *hdr, const char *what) {
    Block b = {0};
    int cap = 0;
    if (P->t->kind != TK_NEWLINE) {
        simple_stmts(P, &b, &cap);
        return b;
    }
    advance(P);
    if (P->t->kind != TK_INDENT)
        err_fail(P->e, TC_ERR_SYNTAX, P->t->loc, "expected an indented block after %s on line %d",
                 what, hdr->loc.line);
    advance(P);
    while (P->t->kind != TK_DEDENT && P->t->kind != TK_EOF) stmt_into(P, &b, &cap);
    if (P->t->kind == TK_DEDENT) advance(P);
    return b;
}

/* ---- module level ------------------------------------------------------------------ */

static void add_alias(Parser *P, const char *name, const char *target) {
    Module *m = P->m;
    int cap = m->naliases;  /* grow exactly: aliases are few */
    Alias *n = arena_alloc(P->a, sizeof(Alias) * (size_t)(cap + 1));
    if (cap) memcpy(n, m->aliases, sizeof(Alias) * (size_t)cap);
    n[cap] = (Alias){name, target};
    m->aliases = n;
    m->naliases = cap + 1;
}

/* dotted_name = NAME ("." NAME)* */
static const char *dotted_name(Parser *P, const char **first) {
    const char *s = expect_name(P);
    if (first) *first = s;
    while (consume(P, "."))
        s = arena_printf(P->a, "%s.%s", s, expect_name(P));
    return s;
}

/* The libdevice module has one name for every backend. */
static const char *canonical_module(Parser *P, const char *target) {
    static const char *const libdev[] = {"triton.language.extra.cuda.libdevice",
                                         "triton.language.extra.hip.libdevice",
                                         "triton.language.math.libdevice"};
    for (int i = 0; i < COUNT_OF(libdev); i++)
        if (strcmp(target, libdev[i]) == 0) return "triton.language.extra.libdevice";
    return target;
}

// import_stmt = "import" dotted_name ["as" NAME] ("," ...)*
//             | "from" dotted_name "import" ("*" | "(" names ")" | names)
static void import_stmt(Parser *P) {
    if (consume(P, "import")) {
        do {
            const char *head;
            const char *full = dotted_name(P, &head);
            if (consume(P, "as")) add_alias(P, expect_name(P), canonical_module(P, full));
            else add_alias(P, head, head);
        } while (consume(P, ","));
        return;
    }
    expect(P, "from");
    if (is(P, ".") || is(P, "...")) {  /* relative imports name nothing we know */
        skip_simple(P);
        return;
    }
    const char *mod = dotted_name(P, NULL);
    expect(P, "import");
    if (consume(P, "*")) return;
    bool paren = consume(P, "(");
    do {
        if (paren && is(P, ")")) break;
        const char *n = expect_name(P);
        const char *target = canonical_module(P, arena_printf(P->a, "%s.%s", mod, n));
        if (consume(P, "as")) n = expect_name(P);
        add_alias(P, n, target);
    } while (consume(P, ","));
    if (paren) expect(P, ")");
}

/* The dotted name an expression spells, unresolved ("tl.constexpr"); NULL if none. */
static const char *dotted_of(const Expr *x, Arena *a) {
    if (!x) return NULL;
    if (x->kind == EX_NAME) return x->name;
    if (x->kind != EX_ATTR) return NULL;
    const char *base = dotted_of(x->lhs, a);
    return base ? arena_printf(a, "%s.%s", base, x->name) : NULL;
}

const char *module_resolve(const Module *m, const Expr *e, Arena *a) {
    if (!a) a = &((Module *)m)->arena;
    int depth = 0;
    const Expr *h = e;
    while (h && h->kind == EX_ATTR && depth++ < 1000) h = h->lhs;
    if (!h || h->kind != EX_NAME) return NULL;
    const Alias *al = NULL;
    for (int i = 0; i < m->naliases; i++)  /* the last import of a name wins */
        if (strcmp(m->aliases[i].name, h->name) == 0) al = &m->aliases[i];
    if (!al) return NULL;
    const char *full = dotted_of(e, a);
    if (!full) return NULL;
    return arena_printf(a, "%s%s", al->target, full + strlen(h->name));
}

static bool resolves_to(Parser *P, const Expr *x, const char *target) {
    const char *r = module_resolve(P->m, x, P->a);
    return r && strcmp(r, target) == 0;
}

/* The callee when x is a call, else x itself. */
static const Expr *callee(const Expr *x) { return x->kind == EX_CALL ? x->lhs : x; }

/* Triton calls a parameter constexpr when its annotation's text contains "constexpr"
 * (and const when it contains "const" otherwise). */
static void classify_param(Parser *P, Param *p) {
    if (!p->annotation) return;
    const char *text = p->annotation->kind == EX_STR ? p->annotation->str
                                                     : dotted_of(p->annotation, P->a);
    const char *r = module_resolve(P->m, p->annotation, P->a);
    if (!text) return;
    p->is_constexpr = strstr(text, "constexpr") || (r && strstr(r, "constexpr"));
    p->is_const = !p->is_constexpr && (strstr(text, "const") || (r && strstr(r, "const")));
}

// funcdef = "def" NAME "(" [params] ")" ["->" test] ":" block
static Func *funcdef(Parser *P, Decorator *decos, int ndecos, const Token *first, bool host) {
    Func *f = arena_alloc(P->a, sizeof *f);
    f->decos = decos;
    f->ndecos = ndecos;
    f->loc = P->t->loc;
    Token *hdr = P->t;
    expect(P, "def");
    f->name = expect_name(P);
    expect(P, "(");
    int cap = 0;
    bool kwonly = false;
    while (!is(P, ")")) {
        uint8_t star = 0;
        if (is(P, "*") || is(P, "**")) {
            if (is(P, "*") && (peek_is(P, 1, ",") || peek_is(P, 1, ")"))) {
                advance(P);  /* a bare `*`: keyword-only parameters follow */
                kwonly = true;
                if (!consume(P, ",")) break;
                continue;
            }
            if (!host) fail_at(P, P->t, "variadic parameters are not supported in @triton.jit functions");
            star = is(P, "**") ? 2 : 1;
            advance(P);
        }
        if (consume(P, "/")) {
            if (!consume(P, ",")) break;
            continue;
        }
        Param p = {0};
        p.loc = P->t->loc;
        p.star = star;
        p.kwonly = kwonly && !star;
        if (star == 1) kwonly = true;
        p.name = expect_name(P);
        if (consume(P, ":")) p.annotation = expr_test(P);
        if (consume(P, "=")) p.deflt = expr_test(P);
        classify_param(P, &p);
        for (int i = 0; i < f->nparams; i++)
            if (strcmp(f->params[i].name, p.name) == 0)
                err_fail(P->e, TC_ERR_SYNTAX, p.loc,
                         "duplicate argument '%s' in function definition", p.name);
        ARENA_PUSH(P->a, f->params, f->nparams, cap, p);
        if (!consume(P, ",")) break;
    }
    expect(P, ")");
    if (consume(P, "->")) expr_test(P);
    expect(P, ":");
    f->body = block(P, hdr, "function definition");
    /* the text ends with the last real token of the body */
    const Token *last = P->t - 1;
    while (last > first && (last->kind == TK_NEWLINE || last->kind == TK_DEDENT ||
                            last->kind == TK_INDENT))
        last--;
    f->text = first->s;
    f->text_len = (size_t)(last->s + last->len - first->s);
    f->hash = hash_bytes(f->text, f->text_len, 0);
    return f;
}

/* Tries fn(P, arg); on a syntax error (or nesting beyond our limit) rewinds to where it
 * started and returns false: host code must never be rejected. Out-of-memory still fails. */
static bool attempt(Parser *P, void (*fn)(Parser *, void *), void *arg) {
    Token *volatile start = P->t;
    volatile int depth = P->depth;
    jmp_buf *saved = P->e->jump;
    jmp_buf jb;
    if (ERR_TRY(P->e, jb)) {
        P->e->jump = saved;
        if (P->e->code != TC_ERR_SYNTAX && P->e->code != TC_ERR_LIMIT) longjmp(*saved, 1);
        P->t = start;
        P->depth = depth;
        P->e->code = TC_OK;
        P->e->msg[0] = 0;
        P->e->loc = (SrcLoc){0};
        return false;
    }
    fn(P, arg);
    P->e->jump = saved;
    return true;
}

static void try_import(Parser *P, void *arg) {
    import_stmt(P);
    if (P->t->kind != TK_NEWLINE) syntax_error(P);
    advance(P);
}

static void try_decorator(Parser *P, void *arg) {
    *(Expr **)arg = expr_test(P);  /* PEP 614: any expression */
    if (P->t->kind != TK_NEWLINE) syntax_error(P);
    advance(P);
}

static void add_global(Parser *P, const char *name, Expr *value, SrcLoc loc) {
    Module *m = P->m;
    for (int i = 0; i < m->nglobals; i++)  /* a later definition replaces an earlier one */
        if (strcmp(m->globals[i].name, name) == 0) {
            m->globals[i].value = value;
            m->globals[i].loc = loc;
            return;
        }
    Global *n = arena_alloc(P->a, sizeof(Global) * (size_t)(m->nglobals + 1));
    if (m->nglobals) memcpy(n, m->globals, sizeof(Global) * (size_t)m->nglobals);
    n[m->nglobals++] = (Global){name, value, loc};
    m->globals = n;
}

static void push_host(Parser *P, Stmt *s) {
    ARENA_PUSH(P->a, P->m->host, P->m->nhost, P->hostcap, s);
}

/* One module-level statement (or several, with `;`) into the Block at arg. */
static void try_host_stmt(Parser *P, void *arg) {
    int cap = 0;
    stmt_into(P, (Block *)arg, &cap);
}

/* A module-level statement: kept for the host evaluator; NAME = tl.constexpr(v) and
 * NAME: tl.constexpr = v are also the module's constexprs. */
static void host_stmt(Parser *P) {
    Block b = {0};
    if (!attempt(P, try_host_stmt, &b)) {
        skip_line_and_block(P);
        return;
    }
    for (int i = 0; i < b.n; i++) {
        Stmt *s = b.stmts[i];
        if (s->kind == ST_UNSUPPORTED) continue;
        push_host(P, s);
        if (s->kind == ST_ASSIGN && s->ntargets == 1 && s->target->kind == EX_NAME &&
            s->value->kind == EX_CALL && s->value->n == 1 && s->value->nkw == 0 &&
            resolves_to(P, s->value->lhs, "triton.language.constexpr"))
            add_global(P, s->target->name, s->value->items[0], s->loc);
        else if (s->kind == ST_ANNASSIGN && s->target->kind == EX_NAME && s->value &&
                 resolves_to(P, s->annotation, "triton.language.constexpr"))
            add_global(P, s->target->name, s->value, s->loc);
    }
}

static void push_def(Parser *P, Func *f) {
    Stmt *s = new_stmt(P, ST_DEF, f->loc);
    s->fn = f;
    f->host_pos = P->m->nhost;
    push_host(P, s);
}

typedef struct HostDef { const Token *first; Func *f; } HostDef;

static void try_host_def(Parser *P, void *arg) {
    HostDef *h = arg;
    h->f = funcdef(P, NULL, 0, h->first, true);
}

/* jit(fn=None, *, version, repr, launch_metadata, do_not_specialize,
 * do_not_specialize_on_alignment, debug, noinline): Triton's keywords; others are refused. */
static const char *const JIT_KEYWORDS[] = {"version", "repr", "launch_metadata",
    "do_not_specialize", "do_not_specialize_on_alignment", "debug", "noinline", NULL};

static bool jit_flag(Parser *P, const KwArg *kw) {
    Expr *v = kw->value;
    if (v->kind == EX_TRUE) return true;
    if (v->kind == EX_FALSE || v->kind == EX_NONE) return false;
    err_fail(P->e, TC_ERR_SYNTAX, v->loc, "triton.jit(%s=...) takes True, False or None here",
             kw->name);
}

static void jit_keywords_check(Parser *P, const Expr *x) {
    if (x->kind != EX_CALL) return;
    if (x->n > 0)
        err_fail(P->e, TC_ERR_SYNTAX, x->items[0]->loc, "jit() takes its options as keywords "
                 "(version, repr, launch_metadata, do_not_specialize, "
                 "do_not_specialize_on_alignment, debug, noinline)");
    for (int i = 0; i < x->nkw; i++) {
        int j = 0;
        while (JIT_KEYWORDS[j] && strcmp(JIT_KEYWORDS[j], x->kw[i].name) != 0) j++;
        if (!JIT_KEYWORDS[j])
            err_fail(P->e, TC_ERR_SYNTAX, x->kw[i].loc, "jit() got an unexpected keyword argument "
                     "'%s' (Triton's are version, repr, launch_metadata, do_not_specialize, "
                     "do_not_specialize_on_alignment, debug, noinline)", x->kw[i].name);
        const char *n = x->kw[i].name;
        if (!strcmp(n, "debug") || !strcmp(n, "noinline")) jit_flag(P, &x->kw[i]);
    }
}

/* do_not_specialize[_on_alignment]=[...]: parameters by index or name (as Triton: a name or
 * index that matches no parameter is ignored). */
static void jit_no_spec(Parser *P, Func *f, const KwArg *kw, bool align_only) {
    Expr *v = kw->value;
    if (v->kind == EX_NONE) return;
    if (v->kind != EX_LIST && v->kind != EX_TUPLE)
        err_fail(P->e, TC_ERR_SYNTAX, v->loc, "triton.jit(%s=...) takes a list of parameter "
                 "names or indices", kw->name);
    for (int i = 0; i < v->n; i++) {
        Expr *it = v->items[i];
        if (it->kind != EX_STR && it->kind != EX_INT)
            err_fail(P->e, TC_ERR_SYNTAX, it->loc, "triton.jit(%s=...) takes parameter names "
                     "(strings) or indices (integers)", kw->name);
        for (int j = 0; j < f->nparams; j++) {
            if (it->kind == EX_STR ? strcmp(it->str, f->params[j].name) != 0
                                   : (it->big || it->ival != (uint64_t)j))
                continue;
            if (align_only) f->params[j].no_align = true;
            else f->params[j].no_spec = true;
        }
    }
}

static void jit_options(Parser *P, Func *f, const Expr *x) {
    if (!x || x->kind != EX_CALL) return;
    for (int i = 0; i < x->nkw; i++) {
        const KwArg *kw = &x->kw[i];
        if (!strcmp(kw->name, "debug")) f->debug = jit_flag(P, kw);
        else if (!strcmp(kw->name, "noinline")) f->noinline = jit_flag(P, kw);
        else if (!strcmp(kw->name, "do_not_specialize")) jit_no_spec(P, f, kw, false);
        else if (!strcmp(kw->name, "do_not_specialize_on_alignment")) jit_no_spec(P, f, kw, true);
    }
}

static void decorated(Parser *P) {
    const Token *first = P->t;
    Decorator *decos = NULL;
    int n = 0, cap = 0;
    bool jit = false;
    Expr *autotune = NULL, *heuristics = NULL, *jit_call = NULL;
    while (is(P, "@")) {
        Token *at = P->t;
        advance(P);
        Expr *x = NULL;
        if (!attempt(P, try_decorator, &x)) {
            /* not Python we understand: fatal only if it is meant for triton */
            Token *h = P->t;
            if (h->kind == TK_NAME) {
                Expr tmp = {.kind = EX_NAME, .name = name_str(P, h)};
                const char *r = module_resolve(P->m, &tmp, P->a);
                if (r && strncmp(r, "triton", 6) == 0) try_decorator(P, &x);
            }
            skip_line_and_block(P);
            continue;
        }
        Decorator d = {x, at->loc};
        ARENA_PUSH(P->a, decos, n, cap, d);
        const Expr *c = callee(x);
        if (resolves_to(P, c, "triton.jit") || resolves_to(P, c, "triton.runtime.jit.jit")) {
            jit = true;
            jit_keywords_check(P, x);
            jit_call = x;
        } else if (x->kind == EX_CALL && resolves_to(P, c, "triton.autotune")) {
            autotune = x;
        } else if (x->kind == EX_CALL && resolves_to(P, c, "triton.heuristics")) {
            heuristics = x;
        }
    }
    if (!jit || !is(P, "def")) {
        skip_line_and_block(P);
        return;
    }
    Func *f = funcdef(P, decos, n, first, false);
    push_def(P, f);
    f->is_jit = true;
    jit_options(P, f, jit_call);
    f->autotune = autotune;
    f->heuristics = heuristics;
    Module *m = P->m;
    Func **nf = arena_alloc(P->a, sizeof(Func *) * (size_t)(m->nfuncs + 1));
    if (m->nfuncs) memcpy(nf, m->funcs, sizeof(Func *) * (size_t)m->nfuncs);
    nf[m->nfuncs++] = f;
    m->funcs = nf;
}

// module = (import_stmt | decorated | def | <host statement>)* EOF
static void module(Parser *P) {
    while (P->t->kind != TK_EOF) {
        Token *t = P->t;
        if (t->kind == TK_NEWLINE) advance(P);
        else if (is(P, "@")) decorated(P);
        else if (is(P, "import") || is(P, "from")) {
            if (!attempt(P, try_import, NULL)) skip_line_and_block(P);
        } else if (is(P, "def")) {
            HostDef h = {t, NULL};
            if (attempt(P, try_host_def, &h)) push_def(P, h.f);
            else skip_line_and_block(P);
        } else if (t->kind == TK_DEDENT) advance(P);
        else host_stmt(P);
    }
}

Module *parse_module(const Source *src, Err *e) {
    Module *volatile m = calloc(1, sizeof *m);
    if (!m) {
        err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory");
        return NULL;
    }
    arena_init(&m->arena, e);
    m->src = src;
    /* The tokens (and their decoded strings) live in their own arena, freed once the tree
     * is built: nothing in the tree points into them, and they are the larger part. */
    Arena toks;
    Arena *volatile ta = &toks;
    arena_init(&toks, e);
    jmp_buf *saved = e->jump;
    jmp_buf jb;
    if (ERR_TRY(e, jb)) {
        e->jump = saved;
        arena_free(ta);
        arena_free(&m->arena);
        free(m);
        return NULL;
    }
    Parser P = {0};
    P.src = src;
    P.m = m;
    P.a = &m->arena;
    P.e = e;
    P.toks = lex(src, ta, e, &P.ntok);
    P.t = P.toks;
    module(&P);
    e->jump = saved;
    arena_free(ta);
    return m;
}

void module_free(Module *m) {
    if (!m) return;
    arena_free(&m->arena);
    free(m);
}

Func *module_find(const Module *m, const char *name) {
    for (int i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i]->name, name) == 0) return m->funcs[i];
    return NULL;
}
