/* hostpy_int.h — what hostpy.c (the entry points: autotune, prune, pre_hook, heuristics),
 * hostpy_value.c (values, numbers, hardware, attributes, builtins and methods) and
 * hostpy_stmt.c (names, expressions, statements, calls of defs) share: the values, the
 * interpreter's state and frames, and the helpers each side calls. Internal to src/tune/. */
#ifndef TRITONC_TUNE_HOSTPY_INT_H
#define TRITONC_TUNE_HOSTPY_INT_H
#include "tune/tuneint.h"
#include "trace/eval.h"

#include <string.h>

#define HP_MAX_DEPTH 200
#define HP_MAX_ITEMS (1 << 20)
#define HP_MAX_STEPS 50000000LL

enum { H_NONE, H_BOOL, H_INT, H_FLOAT, H_STR, H_TUPLE, H_LIST, H_SET, H_DICT, H_FUNC, H_NS,
       H_OBJ, H_TENSOR, H_METHOD };

typedef struct HV HV;
typedef struct HSeq { HV *v; int n, cap; } HSeq;
typedef struct HDict { HV *k, *v; int n, cap; } HDict;
typedef struct HEnv HEnv;
typedef struct HFn { const Func *def; const Expr *lam; HEnv *env; } HFn;
typedef struct HObj { const char *type; HDict *attrs; SrcLoc loc; } HObj;

struct HV {
    uint8_t kind;
    int64_t i;          /* H_INT, H_BOOL */
    double f;           /* H_FLOAT */
    const char *s;      /* H_STR; H_NS path; H_METHOD name */
    HSeq *seq;          /* H_TUPLE, H_LIST, H_SET */
    HDict *d;           /* H_DICT */
    HFn *fn;
    HObj *o;
    tc_tensor *t;
    HV *self;           /* H_METHOD */
};

struct HEnv { HEnv *up; const char **names; HV *vals; int n, cap; };

typedef struct Pos { Stmt *const *st; int upto; const struct Pos *outer; } Pos;
typedef struct SMemo { const Stmt *s; int state; HV v; } SMemo;
typedef struct EnvRead { const char *name, *value; } EnvRead;
typedef struct PyParsed { Source *src; Module *m; } PyParsed;

struct HostPy {
    Arena a;
    Err *err;
    const Module *m;
    tc_kernel *k;
    tc_context *ctx;
    SMemo *memo; int nmemo, capmemo;
    EnvRead *envr; int nenvr, capenvr;
    PyParsed *parsed; int nparsed, capparsed;   /* f-string expressions */
    int depth;
    long long steps;
    bool assumed;            /* a hardware question was answered for TRITONC_TARGET */
    /* the autotuner's Python values */
    HSeq *configs;           /* Config objects, index-aligned with the TuneKernel's */
    HV prune, perf_model, top_k, pre_hook, post_hook;
};

typedef struct Frame {
    HostPy *H;
    HEnv *env;               /* NULL at module level */
    const Pos *gpos;         /* where module-level names are looked up */
    bool ret, brk, cont;
    HV rv;
} Frame;

static inline HV hv(int kind) { HV v; memset(&v, 0, sizeof v); v.kind = (uint8_t)kind; return v; }
static inline HV hint(int64_t i) { HV v = hv(H_INT); v.i = i; return v; }
static inline HV hbool(bool b) { HV v = hv(H_BOOL); v.i = b; return v; }
static inline HV hfloat(double f) { HV v = hv(H_FLOAT); v.f = f; return v; }
static inline HV hstr(const char *s) { HV v = hv(H_STR); v.s = s; return v; }
static inline HV hns(const char *p) { HV v = hv(H_NS); v.s = p; return v; }
static inline HV hseq(int kind, HSeq *s) { HV v = hv(kind); v.seq = s; return v; }

#define FAIL(F, code, loc, ...) err_fail((F)->H->err, code, loc, __VA_ARGS__)

/* hostpy_value.c */
HV hp_binop(Frame *F, PyOp op, HV a, HV b, SrcLoc loc);
HV hp_call_method(Frame *F, HV self, const char *m, HV *a, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc);
HV hp_call_value(Frame *F, HV f, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc);
bool hp_compare(Frame *F, PyOp op, HV a, HV b, SrcLoc loc);
HV hp_config_new(Frame *F, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc);
bool hp_contains(Frame *F, const HV *c, const HV *x, SrcLoc loc);
HV hp_cv_op(Frame *F, PyOp op, const HV *a, const HV *b, bool cmp, SrcLoc loc);
int hp_dict_find(const HDict *d, const HV *k);
HV *hp_dict_get(const HDict *d, const char *key);
HDict *hp_dict_new(HostPy *H);
void hp_dict_set(HostPy *H, HDict *d, HV k, HV v);
void hp_dict_sets(HostPy *H, HDict *d, const char *k, HV v);
const char *hp_env_read(HostPy *H, const char *name);
HV hp_getattr(Frame *F, HV v, const char *name, SrcLoc loc);
bool hp_hv_eq(const HV *a, const HV *b);
bool hp_is_num(const HV *v);
HSeq *hp_iter_items(Frame *F, HV v, SrcLoc loc);
int hp_order(Frame *F, const HV *a, const HV *b, PyOp op, SrcLoc loc);
void hp_repr_into(const HV *v, Buf *b, bool str);
const char *hp_repr_str(HostPy *H, const HV *v, bool str);
HSeq *hp_seq_new(HostPy *H);
void hp_seq_push(HostPy *H, HSeq *s, HV v);
const char *hp_tname(const HV *v);
bool hp_truthy(const HV *v);
/* hostpy_stmt.c */
HV hp_call_function(Frame *F, HFn *fn, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc);
HV hp_eval(Frame *F, const Expr *e);
int64_t hp_want_int(Frame *F, HV v, SrcLoc loc, const char *what);
#endif
