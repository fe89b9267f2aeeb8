/* ast.h — tokens (lex.c) and the syntax tree of a kernel module (parse.c). */
#ifndef AST_H
#define AST_H

#include "base/tc.h"

/* ---- tokens (lex.c) ----------------------------------------------------------------- */

typedef enum TokKind {
    TK_EOF = 0,
    TK_NEWLINE,   /* end of a logical line */
    TK_INDENT,
    TK_DEDENT,
    TK_NAME,      /* identifiers and keywords (check with tok_is) */
    TK_INT,       /* integer literal: value in ival, or big=true if >= 2^64 */
    TK_FLOAT,     /* float literal (also imaginary literals, flagged imag) */
    TK_STRING,    /* one string literal, prefixes handled; decoded text in str */
    TK_OP         /* operator or delimiter: text in [s, s+len) */
} TokKind;

typedef struct Token {
    uint8_t kind;     /* TokKind */
    bool big;         /* TK_INT too large for uint64 */
    bool imag;        /* TK_FLOAT with a j suffix */
    bool fstring;     /* TK_STRING with an f prefix (str holds the raw template) */
    bool bytes;       /* TK_STRING with a b prefix */
    const char *s;    /* start in the source text */
    int len;          /* length in the source text */
    SrcLoc loc;
    uint64_t ival;    /* TK_INT */
    double fval;      /* TK_FLOAT */
    char *str;        /* TK_STRING: decoded contents (NUL-terminated; may contain no NULs) */
    int slen;
} Token;

/* Tokenizes a whole file. Fails (err_fail) on a lexical error: an unterminated string,
 * inconsistent dedent, a stray character, unbalanced brackets at EOF. The array ends
 * with TK_EOF (after the closing NEWLINE and DEDENTs). */
Token *lex(const Source *src, Arena *a, Err *e, int *ntok);
bool tok_is(const Token *t, const char *text);  /* same kind NAME/OP and exact text */

/* ---- operators ---------------------------------------------------------------------- */

/* Python's operators as the AST holds them. Unary + and - are their own members (Python's
 * UAdd/USub), so that an operator says what it does without its node kind. */
typedef enum PyOp {
    PY_NOOP = 0,
    PY_ADD, PY_SUB, PY_MUL, PY_DIV, PY_FLOORDIV, PY_MOD, PY_POW, PY_MATMUL,     /* binary */
    PY_LSHIFT, PY_RSHIFT, PY_BITAND, PY_BITXOR, PY_BITOR,
    PY_UADD, PY_USUB, PY_INVERT, PY_NOT,                                        /* unary */
    PY_AND, PY_OR,                                                              /* boolean */
    PY_EQ, PY_NE, PY_LT, PY_LE, PY_GT, PY_GE, PY_IS, PY_IS_NOT, PY_IN, PY_NOT_IN, /* compare */
    PY_OP_COUNT
} PyOp;

enum { PYOP_BINARY = 1, PYOP_UNARY = 2, PYOP_BOOL = 4, PYOP_COMPARE = 8 };

/* Python's precedence levels, loosest first: what the parser climbs. */
enum {
    PREC_OR = 1, PREC_AND, PREC_NOT, PREC_COMPARE, PREC_BITOR, PREC_BITXOR, PREC_BITAND,
    PREC_SHIFT, PREC_ARITH, PREC_TERM, PREC_FACTOR, PREC_POWER
};

/* The one table of operators (parse.c): spelling as Python writes it (and as messages print
 * it), kind (PYOP_*) and precedence (PREC_*). Indexed by PyOp. */
typedef struct PyOpInfo { const char *text; uint8_t kind, prec; } PyOpInfo;
extern const PyOpInfo py_ops[PY_OP_COUNT];
static inline const char *py_op_str(PyOp op) { return py_ops[op].text; }
/* The operator of one of `kinds` spelled by text[0..len); PY_NOOP if none. */
PyOp py_op_find(const char *text, size_t len, unsigned kinds);

/* ---- expressions -------------------------------------------------------------------- */

typedef enum ExprKind {
    EX_NAME, EX_INT, EX_FLOAT, EX_STR, EX_TRUE, EX_FALSE, EX_NONE, EX_ELLIPSIS,
    EX_BINOP,     /* lhs op rhs */
    EX_UNARY,     /* op operand: -x, +x, ~x, not x */
    EX_BOOLOP,    /* and/or over items (n >= 2) */
    EX_COMPARE,   /* items[0] ops[0] items[1] ops[1] items[2] ...; n-1 operators */
    EX_IFEXP,     /* body if cond else orelse */
    EX_CALL,      /* func(args..., kw=...) */
    EX_ATTR,      /* value.name */
    EX_SUBSCRIPT, /* value[items] */
    EX_SLICE,     /* lo:hi:step inside a subscript (any may be NULL) */
    EX_STARRED,   /* *value */
    EX_TUPLE, EX_LIST,
    EX_DICT,      /* keys[i]: items[i] (in decorators: triton.Config({...})) */
    EX_LAMBDA,    /* lambda params: body (in decorators: heuristics) */
    EX_OTHER      /* parsed but never valid in a kernel: comprehension, walrus, await, ...
                     `name` says which AST node Python would build ("ListComp") */
} ExprKind;

typedef struct Expr Expr;
/* One `for target in iter if ...` clause of a comprehension (host code only). */
typedef struct Comp { Expr *target, *iter; Expr **ifs; int nifs; } Comp;
typedef struct KwArg { const char *name; Expr *value; SrcLoc loc; } KwArg;

struct Expr {
    uint8_t kind;          /* ExprKind */
    SrcLoc loc;            /* first token of the expression */
    const char *name;      /* EX_NAME, EX_ATTR attribute, EX_OTHER node name */
    PyOp op;               /* EX_BINOP binary, EX_UNARY unary, EX_BOOLOP PY_AND/PY_OR */
    PyOp *ops;             /* EX_COMPARE: the n-1 comparison operators */
    Expr *lhs, *rhs;       /* EX_BINOP; EX_ATTR/EX_SUBSCRIPT/EX_STARRED value in lhs;
                              EX_UNARY operand in lhs; EX_CALL callee in lhs;
                              EX_LAMBDA body in lhs */
    Expr *cond, *orelse;   /* EX_IFEXP: lhs if cond else orelse; EX_SLICE: lhs:rhs:cond */
    Expr **items; int n;   /* args, tuple/list items, compare operands, subscript items,
                              dict values, boolop operands */
    Expr **keys;           /* EX_DICT keys (n of them) */
    KwArg *kw; int nkw;    /* EX_CALL keyword arguments */
    const char **params; int nparams; /* EX_LAMBDA parameter names */
    uint64_t ival; bool big; /* EX_INT */
    double fval;           /* EX_FLOAT */
    const char *str;       /* EX_STR (decoded); fstring set for f-strings */
    bool fstring;
    bool parens;           /* written in parentheses: (a, b) vs a, b; (x) */
    /* host code (never valid in a kernel): */
    Comp *comps; int ncomps; /* EX_OTHER ListComp/SetComp/GeneratorExp (element in lhs) and
                                DictComp (key in lhs, value in rhs): the for clauses */
    Expr **pdefaults;      /* EX_LAMBDA: each parameter's default, or NULL */
    uint8_t *pstar;        /* EX_LAMBDA: 1 for *args, 2 for **kwargs, else 0 */
};

/* ---- statements --------------------------------------------------------------------- */

typedef enum StmtKind {
    ST_EXPR,        /* value */
    ST_ASSIGN,      /* target = value  (target: NAME, TUPLE of names, SUBSCRIPT, ATTR) */
    ST_ANNASSIGN,   /* target: annotation = value (value may be NULL) */
    ST_AUGASSIGN,   /* target op= value; op is the binary operator (PY_ADD, PY_LSHIFT, ...) */
    ST_IF,          /* if cond: body else: orelse (elif = an ST_IF alone in orelse) */
    ST_FOR,         /* for target in value: body  (orelse non-NULL for for-else) */
    ST_WHILE,       /* while cond: body  (orelse non-NULL for while-else) */
    ST_RETURN,      /* return value? */
    ST_PASS,
    ST_ASSERT,      /* assert cond, msg? */
    ST_UNSUPPORTED, /* a statement the kernel language rejects; name is Python's AST node
                       name: "Break", "Continue", "FunctionDef" (nested def), "With", "Try",
                       "Global", "Nonlocal", "Delete", "Raise", "ClassDef", "Import",
                       "AsyncFunctionDef", "Match", ... Its body was parsed or skipped. */
    ST_DEF          /* module level only (Module.host): a def, fn says which */
} StmtKind;

typedef struct Stmt Stmt;
typedef struct Block { Stmt **stmts; int n; } Block;

struct Stmt {
    uint8_t kind;        /* StmtKind */
    SrcLoc loc;
    const char *name;    /* ST_UNSUPPORTED: node name */
    PyOp op;             /* ST_AUGASSIGN: the binary operator */
    Expr *target;        /* ST_ASSIGN/ANNASSIGN/AUGASSIGN/FOR target */
    Expr *value;         /* assigned value, ST_EXPR expr, ST_FOR iterable, ST_RETURN value,
                            ST_ASSERT message */
    Expr *annotation;    /* ST_ANNASSIGN */
    Expr *cond;          /* ST_IF / ST_WHILE / ST_ASSERT */
    int ntargets;        /* ST_ASSIGN: number of '=' targets (a = b = c gives 2) */
    Block body, orelse;
    bool has_orelse;     /* for/while ... else present */
    struct Func *fn;     /* ST_DEF */
};

/* ---- module ------------------------------------------------------------------------- */

typedef struct Param {
    const char *name;
    SrcLoc loc;
    Expr *annotation;    /* NULL if none */
    Expr *deflt;         /* NULL if none */
    bool is_constexpr;   /* annotation names tl.constexpr / triton.language.constexpr */
    bool is_const;       /* annotation is tl.const (read-only pointer) */
    bool no_spec;        /* jit(do_not_specialize=[...]) names it: no ==1, no divisibility */
    bool no_align;       /* jit(do_not_specialize_on_alignment=[...]): no divisibility */
    uint8_t star;        /* host functions: 1 for *args, 2 for **kwargs */
    bool kwonly;         /* after * or *args */
} Param;

typedef struct Decorator {
    Expr *expr;          /* the decorator expression: triton.jit, triton.autotune(...), ... */
    SrcLoc loc;
} Decorator;

typedef struct Func {
    const char *name;
    SrcLoc loc;          /* of the `def` */
    Param *params; int nparams;
    Block body;
    Decorator *decos; int ndecos;  /* all decorators, outermost first */
    bool is_jit;         /* decorated with triton.jit / jit (also jit(...)) */
    bool noinline;       /* @triton.jit(noinline=True) */
    bool debug;          /* @triton.jit(debug=True): device_assert and overflow checks on */
    Expr *autotune;      /* the triton.autotune(...) call, if any */
    Expr *heuristics;    /* the triton.heuristics(...) call, if any */
    const char *text;    /* the function's source text (decorators through body), for hashing */
    size_t text_len;
    uint64_t hash;       /* hash of text */
    int host_pos;        /* its index in Module.host: the module's statements before it */
} Func;

typedef struct Global {
    const char *name;
    Expr *value;         /* X = tl.constexpr(4): the argument 4;  X: tl.constexpr = 4: 4 */
    SrcLoc loc;
} Global;

/* How the file imported things: names that refer to modules or to functions. */
typedef struct Alias {
    const char *name;    /* the local name: "tl", "triton", "jit", "libdevice" */
    const char *target;  /* what it names: "triton.language", "triton", "triton.jit",
                            "triton.language.extra.libdevice", ... */
} Alias;

typedef struct Module {
    const Source *src;
    Func **funcs; int nfuncs;         /* every @jit function, in file order */
    Global *globals; int nglobals;    /* module-level constexprs */
    Alias *aliases; int naliases;     /* from imports */
    Stmt **host; int nhost;           /* the module's statements in order (host code the
                                         tune layer evaluates on demand; ST_DEF for each def,
                                         @jit ones included); what did not parse is absent */
    Arena arena;                      /* owns every node */
} Module;

/* Parses a module. Host code (other statements, other functions, classes) is tokenized
 * and skipped, never rejected. On error returns NULL with e set (no longjmp escapes). */
Module *parse_module(const Source *src, Err *e);
void module_free(Module *m);
Func *module_find(const Module *m, const char *name);
/* The dotted name an expression spells through the aliases, e.g. `tl.arange` with
 * `import triton.language as tl` -> "triton.language.arange"; NULL if not a dotted name. */
const char *module_resolve(const Module *m, const Expr *e, Arena *a);

#endif
