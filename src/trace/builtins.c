/* builtins.c — calling builtins: the one binder of arguments to parameters (Python's rules
 * and messages, for builtins and @jit functions alike), the constexpr argument accessors,
 * and sem_call, which finds a builtin by its path in the family tables (builtins_memory.c,
 * builtins_math.c, builtins_reduce.c, builtins_shape.c, builtins_program.c), binds its
 * arguments and runs its handler. The Python builtins that reach here (min, max, abs, int,
 * float, bool, len, print), triton.cdiv / triton.next_power_of_2 and the dtype predicates
 * live here too, as does the list of Triton names tritonc knows but does not implement. */
#include "trace/sem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- binding ------------------------------------------------------------------------------ */

void bind_args(Trace *t, SrcLoc loc, const ParamList *pl, Val *pos, int npos, const char **kwn,
               Val *kwv, int nkw, Val **out, Val **rest, int *nrest) {
    int n = pl->n;
    for (int i = 0; i < n; i++) out[i] = NULL;
    if (rest) {
        *rest = NULL;
        *nrest = 0;
    }
    if (npos > pl->npos) {
        if (!pl->varargs || !rest)
            FAIL("%s() takes %d positional argument%s but %d %s given", pl->fname, pl->npos,
                 pl->npos == 1 ? "" : "s", npos, npos == 1 ? "was" : "were");
        *rest = pos + pl->npos;
        *nrest = npos - pl->npos;
    }
    int take = npos < pl->npos ? npos : pl->npos;
    for (int i = 0; i < take; i++) out[i] = &pos[i];
    for (int k = 0; k < nkw; k++) {
        int idx = -1;
        for (int i = 0; i < n; i++)
            if (strcmp(pl->p[i].name, kwn[k]) == 0) idx = i;
        if (idx < 0) FAIL("%s() got an unexpected keyword argument '%s'", pl->fname, kwn[k]);
        if (out[idx]) FAIL("%s() got multiple values for argument '%s'", pl->fname, kwn[k]);
        out[idx] = &kwv[k];
    }
    for (int i = 0; i < n; i++) {
        if (pl->none_absent && pl->p[i].optional && out[i] && out[i]->kind == V_CONST &&
            out[i]->c.kind == CV_NONE)
            out[i] = NULL;
        if (out[i]) continue;
        if (!pl->p[i].optional)
            FAIL("%s() missing 1 required positional argument: '%s'", pl->fname, pl->p[i].name);
        if (pl->dflt) out[i] = pl->dflt(t, pl->ctx, i);
    }
}

#define MAX_PARAMS 16

/* Binds c's arguments to b's parameter list (see Builtin), then runs its handler. */
static Val invoke(Call *c, const Builtin *b) {
    char names[MAX_PARAMS][40];
    ParamSpec ps[MAX_PARAMS];
    ParamList pl = {0};
    pl.fname = c->fname;
    pl.p = ps;
    pl.npos = -1;
    pl.none_absent = true;
    for (const char *p = b->params; *p && pl.n < MAX_PARAMS;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        const char *next = e ? e + 1 : p + len;
        if (len == 1 && *p == '*') {
            pl.npos = pl.n;
        } else {
            if (len >= sizeof names[0]) len = sizeof names[0] - 1;
            memcpy(names[pl.n], p, len);
            names[pl.n][len] = 0;
            ps[pl.n].optional = len > 0 && names[pl.n][len - 1] == '?';
            if (ps[pl.n].optional) names[pl.n][len - 1] = 0;
            ps[pl.n].name = names[pl.n];
            pl.n++;
        }
        p = next;
    }
    pl.varargs = pl.npos >= 0;
    if (!pl.varargs) pl.npos = pl.n;
    Val *a[MAX_PARAMS];
    bind_args(c->t, c->loc, &pl, c->pos, c->npos, c->kwn, c->kwv, c->nkw, a, &c->rest, &c->nrest);
    c->b = b;
    return b->fn(c, a);
}

/* ---- constexpr arguments ------------------------------------------------------------------ */

int64_t sem_arg_int(Call *c, const Val *v, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!v || v->kind != V_CONST || (v->c.kind != CV_INT && v->c.kind != CV_BOOL))
        FAIL("%s() argument '%s' must be a constexpr int", c->fname, what);
    return v->c.v.i;
}

bool sem_arg_bool(Call *c, const Val *v, bool dflt, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!v) return dflt;
    if (v->kind != V_CONST || (v->c.kind != CV_INT && v->c.kind != CV_BOOL))
        FAIL("%s() argument '%s' must be a constexpr bool", c->fname, what);
    return v->c.v.i != 0;
}

const char *sem_arg_str(Call *c, const Val *v, const char *dflt, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!v) return dflt;
    if (v->kind != V_CONST || v->c.kind != CV_STR)
        FAIL("%s() argument '%s' must be a constexpr string", c->fname, what);
    return v->c.v.s;
}

static bool tl_name_known(const char *name);

Type sem_arg_dtype(Call *c, const Val *v, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (v && v->kind == V_CONST && v->c.kind == CV_DTYPE) {
        if (v->c.dtype == DT_PTR) return type_ptr(v->c.elem);
        return type_scalar(v->c.dtype);
    }
    if (v && v->kind == V_CONST && v->c.kind == CV_STR) {
        int d = dtype_from_tl_name(v->c.v.s);
        if (d != DT_VOID) return type_scalar(d);
    }
    if (v && (v->kind == V_BUILTIN || v->kind == V_MODULE) && v->path && strstr(v->path, "float8"))
        UNSUP("%s is an AMD (gfx942) type that tritonc does not support; tritonc has "
              "tl.float8e5, tl.float8e4nv and tl.float8e4b15", v->path);
    if (v && v->kind == V_BUILTIN && v->n == 0 && v->path && !strncmp(v->path, "triton.language.", 16) &&
        !strchr(v->path + 16, '.') && !tl_name_known(v->path + 16))   /* a misspelt dtype */
        FAIL("module 'triton.language' has no attribute '%s' (%s() argument '%s' must be a dtype: "
             "tl.int1, int8, int16, int32, int64, uint8 ... uint64, float16, bfloat16, float32, "
             "float64, float8e5, float8e4nv, float8e4b15)", v->path + 16, c->fname, what);
    FAIL("%s() argument '%s' must be a dtype", c->fname, what);
}

int sem_tuple_len(const Val *v) {
    if (v->kind == V_TUPLE) return v->n;
    if (v->kind == V_CONST && v->c.kind == CV_TUPLE) return v->c.v.tup.n;
    return -1;
}

Val sem_tuple_item(const Val *v, int i) {
    if (v->kind == V_TUPLE) return v->items[i];
    return val_const(v->c.v.tup.items[i]);
}

/* A shape from `*shape` varargs or a single tuple/list argument (_unwrap_iterable). */
void sem_arg_shape_list(Call *c, const Val *items, int n, int *rank, int32_t *shape) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    const Val *src = items;
    Val tmp[TC_MAX_RANK + 1];
    if (n == 1 && sem_tuple_len(&items[0]) >= 0) {
        n = sem_tuple_len(&items[0]);
        if (n > TC_MAX_RANK) UNSUP("tensors of rank %d are not supported by tritonc (at most %d)", n, TC_MAX_RANK);
        for (int i = 0; i < n; i++) tmp[i] = sem_tuple_item(&items[0], i);
        src = tmp;
    }
    if (n > TC_MAX_RANK) UNSUP("tensors of rank %d are not supported by tritonc (at most %d)", n, TC_MAX_RANK);
    for (int i = 0; i < n; i++) {
        if (src[i].kind != V_CONST || src[i].c.kind != CV_INT)
            FAIL("Shape element %d must have type `constexpr[int]`", i);
        if (src[i].c.v.i <= 0 || src[i].c.v.i > MAX_NUMEL || !is_pow2(src[i].c.v.i))
            FAIL("Shape element %d must be a power of 2", i);
        shape[i] = (int32_t)src[i].c.v.i;
    }
    *rank = n;
    sem_check_shape(t, n, shape, loc);
}

void sem_arg_shape(Call *c, const Val *v, int *rank, int32_t *shape) {
    if (v && v->kind == V_CONST && v->c.kind == CV_INT) {
        sem_arg_shape_list(c, v, 1, rank, shape);
        return;
    }
    if (!v || sem_tuple_len(v) < 0) {
        Trace *t = c->t;
        SrcLoc loc = c->loc;
        FAIL("%s(): shape must be a tuple of constexpr ints", c->fname);
    }
    sem_arg_shape_list(c, v, 1, rank, shape);
}

/* ---- Python builtins, triton.*, dtype predicates -------------------------------------------- */

static Val py_minmax(Call *c, Val *items, int n, bool is_max) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (n == 1 && sem_tuple_len(&items[0]) >= 0) {
        int m = sem_tuple_len(&items[0]);
        Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(m ? m : 1));
        for (int i = 0; i < m; i++) it[i] = sem_tuple_item(&items[0], i);
        items = it;
        n = m;
    }
    if (n == 0) FAIL("%s expected at least 1 argument, got 0", is_max ? "max" : "min");
    bool all_const = true;
    for (int i = 0; i < n; i++) all_const = all_const && sem_is_num(&items[i]);
    if (all_const) {
        int best = 0;
        for (int i = 1; i < n; i++) {
            double a = cv_to_double(&items[i].c), b = cv_to_double(&items[best].c);
            if (is_max ? a > b : a < b) best = i;
        }
        return items[best];
    }
    Val r = items[0];
    for (int i = 1; i < n; i++) r = sem_minmax(c, r, items[i], is_max ? OP_MAX : OP_MIN, 0);
    return r;
}

static Val py_min_max(Call *c, Val **a) { return py_minmax(c, c->rest, c->nrest, c->b->arg); }

static Val py_abs(Call *c, Val **a) {
    Trace *t = c->t;
    Val x = *a[0];
    if (x.kind == V_CONST && x.c.kind == CV_FLOAT) return val_const(cv_float(fabs(x.c.v.f)));
    if (x.kind == V_CONST && (x.c.kind == CV_INT || x.c.kind == CV_BOOL) && !x.c.big)
        return val_const(cv_int(x.c.v.i < 0 ? -x.c.v.i : x.c.v.i));
    return sem_abs(t, x, c->loc);
}

/* int(x), float(x), bool(x) */
static Val py_number(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    const char *m = c->fname;
    if (!a[0]) return val_const(m[0] == 'i' ? cv_int(0) : m[0] == 'f' ? cv_float(0) : cv_bool(false));
    Val x = *a[0];
    if (x.kind != V_CONST) FAIL("%s() of a tensor cannot be evaluated at compile time", m);
    double f;
    if (x.c.kind == CV_STR) {
        char *e;
        if (m[0] == 'b') return val_const(cv_bool(x.c.v.s[0] != 0));
        if (m[0] == 'i') {
            long long v = strtoll(x.c.v.s, &e, 10);
            if (*e || e == x.c.v.s) FAIL("invalid literal for int() with base 10: '%s'", x.c.v.s);
            return val_const(cv_int(v));
        }
        f = strtod(x.c.v.s, &e);
        while (*e == ' ') e++;
        if (*e || e == x.c.v.s) FAIL("could not convert string to float: '%s'", x.c.v.s);
        return val_const(cv_float(f));
    }
    if (!sem_is_num(&x)) FAIL("%s() argument must be a string or a number", m);
    if (m[0] == 'b') return val_const(cv_bool(cv_to_double(&x.c) != 0));
    if (m[0] == 'f') return val_const(cv_float(cv_to_double(&x.c)));
    if (x.c.kind != CV_FLOAT) return val_const(cv_int(x.c.v.i));
    if (!isfinite(x.c.v.f)) FAIL("cannot convert float %s to integer", isnan(x.c.v.f) ? "NaN" : "infinity");
    return val_const(cv_int((int64_t)trunc(x.c.v.f)));
}

static Val py_len(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int n = sem_tuple_len(a[0]);
    if (n >= 0) return val_const(cv_int(n));
    if (a[0]->kind == V_CONST && a[0]->c.kind == CV_STR) return val_const(cv_int((int64_t)strlen(a[0]->c.v.s)));
    if (a[0]->kind == V_TENSOR && a[0]->type.rank > 0) return val_const(cv_int(a[0]->type.shape[0]));
    FAIL("object has no len()");
}

/* builtins.NAME (builtins.print is tl.device_print) */
static const Builtin PY_BUILTINS[] = {
    {"min", "*", py_min_max, 0},
    {"max", "*", py_min_max, 1},
    {"abs", "x", py_abs, 0},
    {"int", "x?", py_number, 0},
    {"float", "x?", py_number, 0},
    {"bool", "x?", py_number, 0},
    {"len", "obj", py_len, 0},
    {NULL, NULL, NULL, 0},
};

static Val triton_cdiv(Call *c, Val **a) { return sem_cdiv(c, *a[0], *a[1]); }

static Val triton_next_power_of_2(Call *c, Val **a) {
    int64_t n = sem_arg_int(c, a[0], "n");
    uint64_t u = (uint64_t)(n - 1);
    for (int s = 1; s < 64; s <<= 1) u |= u >> s;
    return val_const(cv_int((int64_t)(u + 1)));
}

/* triton.NAME */
static const Builtin TRITON_FNS[] = {
    {"cdiv", "x,y", triton_cdiv, 0},
    {"next_power_of_2", "n", triton_next_power_of_2, 0},
    {NULL, NULL, NULL, 0},
};

bool sem_dtype_pred(const char *name, int dt, bool *out) {
    bool isptr = dt == DT_PTR;
    struct { const char *n; bool v; } tab[] = {
        {"is_floating", dt_is_float(dt)}, {"is_int", dt_is_int(dt)},
        {"is_int_signed", dt_is_signed(dt)}, {"is_int_unsigned", dt_is_unsigned(dt) && dt != DT_I1},
        {"is_bool", dt == DT_I1}, {"is_int1", dt == DT_I1}, {"is_int8", dt == DT_I8},
        {"is_int16", dt == DT_I16}, {"is_int32", dt == DT_I32}, {"is_int64", dt == DT_I64},
        {"is_uint8", dt == DT_U8}, {"is_uint16", dt == DT_U16}, {"is_uint32", dt == DT_U32},
        {"is_uint64", dt == DT_U64}, {"is_fp16", dt == DT_FP16}, {"is_bf16", dt == DT_BF16},
        {"is_fp32", dt == DT_FP32}, {"is_fp64", dt == DT_FP64}, {"is_ptr", isptr},
        {"is_standard_floating", dt_is_float(dt) && !dt_is_fp8(dt)}, {"is_block", false},
        {"is_void", dt == DT_VOID}, {"is_fp8", dt_is_fp8(dt)}, {"is_fp8e5", dt == DT_FP8E5},
        {"is_fp8e4nv", dt == DT_FP8E4NV}, {"is_fp8e4b15", dt == DT_FP8E4B15},
        {"is_fp8e4b8", false}, {"is_fp8e5b16", false},
    };
    for (int i = 0; i < COUNT_OF(tab); i++)
        if (!strcmp(name, tab[i].n)) { *out = tab[i].v; return true; }
    return false;
}

/* ---- dispatch ------------------------------------------------------------------------------- */

static const Builtin *const FAMILIES[] = {
    sem_builtins_memory, sem_builtins_math, sem_builtins_reduce, sem_builtins_shape,
    sem_builtins_program,
};

static const Builtin *lookup(const Builtin *tab, const char *name) {
    for (; tab->name; tab++)
        if (strcmp(tab->name, name) == 0) return tab;
    return NULL;
}

/* Names that exist in triton.language but that tritonc does not implement. */
static const char *const KNOWN_UNSUPPORTED[] = {
    "sort",
    "topk", "inline_asm_elementwise",
    "load_tensor_descriptor", "store_tensor_descriptor", "dot_scaled", "map_elementwise",
    "atomic_add_fp8", "device_assert_fp", "extra", "tensor_descriptor", "condition",
    "max_num_imprecise_acc", "PropagateNan", "range", "static_range", "interleave_fp", "view_as",
    NULL,
};

/* Whether tl.NAME is a builtin tritonc knows (supported or not). */
static bool tl_name_known(const char *name) {
    for (int i = 0; i < COUNT_OF(FAMILIES); i++)
        if (lookup(FAMILIES[i], name)) return true;
    for (int i = 0; KNOWN_UNSUPPORTED[i]; i++)
        if (strcmp(name, KNOWN_UNSUPPORTED[i]) == 0) return true;
    return false;
}

/* tl.NAME, libdevice.NAME or tensor.NAME */
static Val call_tl(Call *c, const char *name) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    const Builtin *lb;
    if (c->libdevice && (lb = lookup(sem_builtins_libdevice, name))) return invoke(c, lb);
    if (c->libdevice && sem_libdevice_special(name))
        UNSUP("libdevice.%s is a special function, not yet supported by tritonc (its elementary "
              "functions are)", name);
    for (int i = 0; i < COUNT_OF(FAMILIES); i++) {
        const Builtin *b = lookup(FAMILIES[i], name);
        if (b) return invoke(c, b);
    }
    for (int i = 0; KNOWN_UNSUPPORTED[i]; i++)
        if (strcmp(name, KNOWN_UNSUPPORTED[i]) == 0) {
            if (c->libdevice) UNSUP("libdevice.%s is not supported by tritonc", name);
            UNSUP("tl.%s is not supported by tritonc", name);
        }
    if (c->libdevice) UNSUP("libdevice.%s is not supported by tritonc", name);
    if (c->method) FAIL("'tensor' object has no attribute '%s'", name);
    FAIL("module 'triton.language' has no attribute '%s'", name);
}

Val sem_call(Trace *t, const char *path, const Val *self, Val *args, int nargs,
             const char **kwnames, Val *kwvals, int nkw, SrcLoc loc) {
    Call c = {0};
    c.t = t;
    c.loc = loc;
    c.kwn = kwnames;
    c.kwv = kwvals;
    c.nkw = nkw;
    if (self) {
        c.pos = arena_alloc(t->arena, sizeof(Val) * (size_t)(nargs + 1));
        c.pos[0] = *self;
        for (int i = 0; i < nargs; i++) c.pos[i + 1] = args[i];
        c.npos = nargs + 1;
    } else {
        c.pos = args;
        c.npos = nargs;
    }
    static const char *const prefixes[] = {
        "triton.language.extra.cuda.libdevice.", "triton.language.extra.libdevice.",
        "triton.language.math.", "triton.language.standard.", "triton.language.core.",
        "triton.language.", NULL};
    for (int i = 0; prefixes[i]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) == 0) {
            c.fname = path + n;
            c.libdevice = i < 2;
            return call_tl(&c, path + n);
        }
    }
    if (strncmp(path, "tensor.", 7) == 0) {
        c.fname = path + 7;
        const char *m = path + 7;
        if (!self) FAIL("tensor.%s called without a tensor", m);
        c.method = true;
        return call_tl(&c, m);
    }
    if (strncmp(path, "dtype.", 6) == 0) {
        c.fname = path + 6;
        const char *m = path + 6;
        if (!self || self->kind != V_CONST || self->c.kind != CV_DTYPE)
            FAIL("dtype.%s called without a dtype", m);
        if (nargs || nkw) FAIL("%s() takes no arguments", m);
        bool r;
        if (!sem_dtype_pred(m, self->c.dtype, &r)) FAIL("'dtype' object has no attribute '%s'", m);
        return val_const(cv_bool(r));
    }
    const Builtin *b;
    if (strncmp(path, "triton.", 7) == 0 && (b = lookup(TRITON_FNS, path + 7))) {
        c.fname = path + 7;
        return invoke(&c, b);
    }
    if (strncmp(path, "builtins.", 9) == 0) {
        const char *m = path + 9;
        c.fname = m;
        if (strcmp(m, "print") == 0) return call_tl(&c, "device_print");
        if ((b = lookup(PY_BUILTINS, m))) return invoke(&c, b);
        UNSUP("the builtin %s() is not supported by tritonc", m);
    }
    UNSUP("%s is not supported by tritonc", path);
}
