/* walk.h — what trace.c (values, names, expressions, calls, the kernel) and stmt.c
 * (statements: assignments, if, for, while, return) share: the walker's frames and scopes
 * and the helpers each side calls. Internal to src/trace/. */
#ifndef TRITONC_TRACE_WALK_H
#define TRITONC_TRACE_WALK_H

#include "trace/trace.h"
#include "trace/eval.h"

#define MAX_DEPTH 500          /* expression/statement nesting */
#define MAX_CALL_DEPTH 64      /* nested inlined @jit calls */
#define MAX_UNROLL 65536       /* static_range iterations */
#define MAX_STEPS 2000000      /* statements + expressions traced per kernel (bounds time and
                                  memory under exponential inlining or nested unrolling) */

typedef struct Binding { const char *name; Val v; } Binding;
typedef struct Scope { Binding *b; int n, cap; } Scope;

/* A block being walked: the rest of it (from next) is what follows the current statement.
 * kind: CONT_BODY the function body, CONT_PLAIN a block whose path continues with the rest
 * of the enclosing block (an if arm), CONT_BARRIER a loop body (its continuation is the next
 * iteration, which cannot be traced into one region). */
enum { CONT_PLAIN, CONT_BODY, CONT_BARRIER };
typedef struct Cont { const Block *b; int next; int kind; } Cont;

typedef struct Frame {
    const Func *fn;
    bool is_kernel;
    Scope sc;
    bool returned;       /* a return was reached on the path being traced */
    bool has_ret;        /* a return with a value (non-kernel) */
    Val ret;
    struct Cont *cont;   /* the blocks being walked, innermost last (for the continuation */
    int ncont, capcont;  /*   of a run-time if with a return in a callee) */
    int loop_depth;      /* run-time loops around the current point, in this frame */
} Frame;

typedef struct TState {
    Frame *fr;
    int call_depth;
    bool debug;           /* TRITON_DEBUG=1: asserts become device_assert */
    Val *gcache;          /* module globals, evaluated once */
    uint8_t *gstate;      /* 0 not yet, 1 evaluating, 2 done */
    long steps;           /* statements + expressions traced so far (MAX_STEPS) */
    SrcLoc stmt_loc;      /* the statement being traced, for errors that have no place of
                             their own (the arena's memory limit) */
} TState;

#define TS(t) ((TState *)(t)->priv)

/* Collects the tensor leaves of a value (tuples flattened). */
typedef struct Leaves { Val *v; int n, cap; } Leaves;

typedef struct CallArgs {
    Val *args; int n, cap;
    const char **kwn; Val *kwv; int nkw, capk, nkv, capv;
} CallArgs;

/* trace.c */
Val tr_binop(Trace *t, PyOp op, Val a, Val b, SrcLoc loc);
void tr_check_cond_type(Trace *t, Val c, SrcLoc loc);
Val tr_const_tensor(Trace *t, Type ty, int64_t i, double f, SrcLoc loc);
CVal tr_cunary(Trace *t, PyOp op, const CVal *a, SrcLoc loc);
void tr_emit_yield(Trace *t, Region *r, int op, const Leaves *l, const Val *first, SrcLoc loc);
void tr_enter(Trace *t, SrcLoc loc);
Val tr_eval(Trace *t, const Expr *e);
void tr_eval_call_args(Trace *t, const Expr *e, CallArgs *ca);
void tr_flatten(Trace *t, Val v, Leaves *l);
const char *tr_kind_name(const Val *v);
void tr_leave(Trace *t);
void tr_leaves_push(Trace *t, Leaves *l, Val v);
Val tr_lookup(Trace *t, const char *name, SrcLoc loc);
bool tr_pair_leaves(Trace *t, Val *a, Val *b, Region *ra, Region *rb, Leaves *la, Leaves *lb, SrcLoc loc);
Val tr_rebuild(Trace *t, Val tmpl, const int *ids, int *k);
Val tr_sanitize(Trace *t, Val v, SrcLoc loc);
Scope tr_scope_copy(Trace *t, const Scope *s);
Binding *tr_scope_find(const Scope *s, const char *name);
void tr_scope_set(Trace *t, Scope *s, const char *name, Val v);
Val tr_to_i1_scalar(Trace *t, Val c, const char *what, SrcLoc loc);
bool tr_tuple_items(Trace *t, Val v, Val **items, int *n);
void tr_tystr(Type ty, char *buf, size_t n);
void tr_val_desc(Trace *t, const Val *v, char *buf, size_t n);
bool tr_val_same(const Val *a, const Val *b);
Val tr_val_tuple(Val *items, int n);

/* stmt.c: a block's statements from `start` on (kind: CONT_*), a block, a loop body */
void tr_walk_block(Trace *t, const Block *b);
void tr_walk_loop_body(Trace *t, const Block *b);
void tr_walk_stmts_from(Trace *t, const Block *b, int start, int kind);

#endif
