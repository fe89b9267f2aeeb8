/* tuneint.h — what the files of src/tune/ share: the state a kernel's decorators produce
 * (TuneKernel, TConfig), the tuning database's entries and the context's share (DbEntry,
 * TuneContext), the JSON tree, and the functions one file offers the others. tune.h is the
 * layer's interface to api.c; nothing outside src/tune/ includes this header. */
#ifndef TUNEINT_H
#define TUNEINT_H

#include "tune/tune.h"

#include <stdarg.h>
#include <stdio.h>

#define TUNE_MAX_CONFIGS 1024
#define TUNE_MAX_KW 64
#define JSON_MAX_BYTES ((size_t)16 << 20)

/* ---- state ------------------------------------------------------------------------------ */

typedef struct TConfig {
    int nkw;
    char **names;
    tc_value *vals;          /* TC_VAL_STR strings owned */
    int num_warps, num_stages, num_ctas, maxnreg;
    char str[256];           /* str(Config) */
} TConfig;

typedef struct THeur {
    char *name;
    int pidx;                /* the kernel parameter it sets */
    const Expr *body;        /* the lambda's body (module arena) */
    const char *param;       /* the lambda's parameter name */
    SrcLoc loc;
    const Expr *py;          /* else: the value expression, for the host subset (hostpy.c) */
} THeur;

typedef struct Memo {
    char *key;
    int best;
    tc_tune_source src;
    char device[128];
    int ccM, ccm;
    char at[32];
    char where[256];
    double tune_s;
} Memo;

typedef struct HostPy HostPy;

typedef struct TuneKernel {
    bool parsed;
    HostPy *py;              /* the module's host code as this kernel's decorators see it */
    int chosen;              /* tc_kernel_set_config: index + 1; 0: choose */
    Err perr;                /* the decorators' error, reported on every use */
    bool autotune, heur_outer;
    TConfig *cfg; int ncfg;
    char **key; int nkey;
    int *reset; int nreset;
    int *restore; int nrestore;
    double warmup, rep;
    THeur *heur; int nheur;
    uint64_t cfg_hash;       /* cfg_hash0 with what the host code read (hpy_env_hash) */
    uint64_t cfg_hash0;      /* the configs' str() */
    Memo *memo; int nmemo, capmemo;
    /* the parameters the configs set, in the order they first appear (cfg_params_of) */
    int *cfg_params; const char **cfg_param_names; int ncfg_params; bool cfg_params_known;
} TuneKernel;

typedef struct DbEntry {
    char *kernel, *source_hash, *device, *tritonc, *at, *key, *origin;
    int ccM, ccm;
    uint64_t cfg_hash; bool has_cfg_hash;
    TConfig best;
    tc_tune_result *res; int nres;
    double tune_s;
} DbEntry;

typedef struct TuneContext {
    DbEntry *db; int ndb, capdb;
    unsigned *slot; size_t nslot;   /* index of db by entry_hash: i + 1 for db[i], 0 empty */
} TuneContext;

/* snprintf for text that may be cut short on purpose (notes, messages). */
static inline void tfmt(char *buf, size_t n, const char *fmt, ...) TC_PRINTF(3, 4);
static inline void tfmt(char *buf, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

static inline void cpy(char *dst, size_t n, const char *src) {
    if (!n) return;
    snprintf(dst, n, "%s", src ? src : "");
}

static inline void src_hash_hex(const tc_kernel *k, char *buf, size_t n) {
    snprintf(buf, n, "%016llx", (unsigned long long)k->m->hash);
}

/* ---- hosteval.c: decorator expressions, evaluated with Python semantics ------------------- */

/* A heuristics lambda's body (param: its argument, the dict of arguments). With args NULL it
 * is only checked, before any launch; with args it is evaluated for that launch into *out.
 * name is the value it sets, for messages. False with err set. */
bool heval_heuristic(const Module *m, const tc_kernel *k, const char *param, const Expr *body,
                     const tc_args *args, const char *name, Err *err, tc_value *out);
/* "a.b.c" for a name/attribute chain, the first part through the file's import aliases. */
bool heval_dotted(const Module *m, const Expr *e, char *buf, size_t n);
/* Python's repr of a value; == between values; str(tensor.dtype) as torch prints it. */
void heval_repr(const tc_value *v, char *buf, size_t n);
bool heval_eq(const tc_value *a, const tc_value *b);
const char *heval_torch_dtype(tc_dtype d);

/* ---- hostpy.c: the host-Python subset (module code, config functions, hooks) ----------- */

HostPy *hpy_new(tc_kernel *k);                        /* NULL: out of memory */
void hpy_free(HostPy *h);
/* Evaluates @triton.autotune(...) (call) with the module's code as it stands where the
 * kernel is defined: fills t's configs, key, reset_to_zero, restore_value, warmup, rep and
 * keeps prune_configs_by and the hooks. False with err set (file:line:col, Python's words). */
bool hpy_autotune(HostPy *h, const Expr *call, TuneKernel *t, Err *err);
/* Whether prune_configs_by names a function to run. */
bool hpy_has_prune(const HostPy *h);
/* Triton's prune_configs for a launch: the indices of the configs that survive, in Triton's
 * order, into surv (room for every config). */
bool hpy_prune(HostPy *h, const tc_args *a, int *surv, int *nsurv, Err *err);
/* Config cfg's pre_hook, run with the launch's arguments before the launch. */
bool hpy_pre_hook(HostPy *h, int cfg, const tc_args *a, Err *err);
/* A heuristics value (fn: the dict's value expression) for a launch, through the subset. */
bool hpy_heuristic(HostPy *h, const Expr *fn, const tc_args *a, const char *name, Err *err, tc_value *out);
/* The decorator's configs, pruning and hooks no longer apply (tc_kernel_set_autotune). */
void hpy_forget_autotune(HostPy *h);
/* Whether a hardware question was answered for an assumed target (TRITONC_TARGET). */
bool hpy_assumed(const HostPy *h);
/* h folded with the environment variables the host code read and the assumed target. */
uint64_t hpy_env_hash(const HostPy *h, uint64_t seed);

/* ---- decorators.c: what @triton.autotune / @triton.heuristics / the API ask for ----------- */

/* Parses the decorators once per kernel; the kernel's tuning state, or NULL with the error
 * on the context. */
TuneKernel *tune_spec(tc_kernel *k);
void tune_spec_clear(TuneKernel *t);
int tune_param_idx(const tc_kernel *k, const char *name);
void tconfig_free(TConfig *c);
bool tconfig_add(TConfig *c, const char *name, tc_value v);   /* false: out of memory */
void tconfig_format(TConfig *c);                               /* fills c->str */
bool tconfig_eq(const TConfig *a, const TConfig *b);
int tconfig_find(const TuneKernel *t, const TConfig *c);       /* its index in t, or -1 */

/* ---- json.c: JSON text to a tree and back --------------------------------------------------- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct JV JV;
struct JV {
    int kind;
    bool b;
    double num;
    bool isint;
    int64_t i;
    char *s;
    JV *items;
    char **keys;
    int n;
};

/* Parses text (at most JSON_MAX_BYTES) into a tree in arena a; false with e set. name is
 * used in messages. */
bool json_parse(const char *name, const char *text, size_t len, Arena *a, Err *e, JV *out);
const JV *json_get(const JV *o, const char *key);   /* o[key], or NULL */
void json_put_str(Buf *b, const char *s);
void json_put_num(Buf *b, double v);                 /* null when not finite */

/* ---- tunedb.c: the tuning database and the on-disk tuning cache ------------------------------ */

TuneContext *tune_ctx(tc_context *ctx);              /* created on first use; NULL: no memory */
void tdb_entry_free(DbEntry *d);
char *tdb_json(const DbEntry *e, int n);             /* malloc'd; NULL: out of memory */
int tdb_parse(const char *name, const char *text, size_t len, DbEntry **out, char *msg, size_t n,
              tc_status *code);
char *tdb_read(const char *path, size_t *len, char *msg, size_t n);
bool tdb_add(TuneContext *t, DbEntry *d);            /* takes d's contents */
const DbEntry *tdb_find(tc_context *ctx, const tc_kernel *k, const TuneKernel *t, const char *key,
                        const char *device, int ccM, int ccm, int *best, char *why, size_t nwhy);
bool tdb_disk_path(const tc_kernel *k, const TuneKernel *t, const char *device, int ccM, int ccm,
                   const char *key, char *buf, size_t n);
/* Whether the tuning cache folder may be used (missing is fine: it is created 0700 when
 * written); false with why when it is not a folder of this user's that only they can write. */
bool tdb_disk_usable(char *why, size_t nwhy);
/* The tuning cache file at path, when it holds exactly this tuning: true with the entry in
 * *out and its config's index in *best. A file refused as unsafe (not a regular file, not
 * this user's, writable by others) is not read, and why says so. */
bool tdb_disk_lookup(const char *path, const tc_kernel *k, const TuneKernel *t, const char *device,
                     int ccM, int ccm, const char *key, DbEntry *out, int *best, char *why, size_t nwhy);
/* Writes one entry to the tuning cache file at path; false when it could not. */
bool tdb_disk_store(const char *path, const DbEntry *d);

#endif
