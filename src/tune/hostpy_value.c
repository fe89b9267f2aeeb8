/* hostpy_value.c — the host subset's values (sequences, dicts, objects; Python's view of them,
 * numbers through trace/eval.h), environment variables, hardware questions, attributes, and
 * the calls of builtins and methods (hostpy.c has the notes). */
#include "tune/hostpy_int.h"
#include "driver/cuda.h"
#include "base/target.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>

HSeq *hp_seq_new(HostPy *H) { return arena_alloc(&H->a, sizeof(HSeq)); }
void hp_seq_push(HostPy *H, HSeq *s, HV v) {
    if (s->n >= HP_MAX_ITEMS) err_fail(H->err, TC_ERR_LIMIT, (SrcLoc){0}, "host code built a sequence of more than %d items", HP_MAX_ITEMS);
    ARENA_PUSH(&H->a, s->v, s->n, s->cap, v);
}
HDict *hp_dict_new(HostPy *H) { return arena_alloc(&H->a, sizeof(HDict)); }

int hp_dict_find(const HDict *d, const HV *k) {
    for (int i = 0; i < d->n; i++)
        if (hp_hv_eq(&d->k[i], k)) return i;
    return -1;
}
void hp_dict_set(HostPy *H, HDict *d, HV k, HV v) {
    int i = hp_dict_find(d, &k);
    if (i >= 0) { d->v[i] = v; return; }
    int c1 = d->cap, c2 = d->cap;
    ARENA_PUSH(&H->a, d->k, d->n, c1, k);
    d->n--;
    ARENA_PUSH(&H->a, d->v, d->n, c2, v);
    d->cap = c1 < c2 ? c1 : c2;
}
HV *hp_dict_get(const HDict *d, const char *key) {
    for (int i = 0; i < d->n; i++)
        if (d->k[i].kind == H_STR && !strcmp(d->k[i].s, key)) return &d->v[i];
    return NULL;
}
void hp_dict_sets(HostPy *H, HDict *d, const char *k, HV v) { hp_dict_set(H, d, hstr(k), v); }

static HV hobj(HostPy *H, const char *type, SrcLoc loc) {
    HV v = hv(H_OBJ);
    v.o = arena_alloc(&H->a, sizeof(HObj));
    v.o->type = type;
    v.o->attrs = hp_dict_new(H);
    v.o->loc = loc;
    return v;
}

/* ---- Python's view of values ------------------------------------------------------------- */

const char *hp_tname(const HV *v) {
    switch (v->kind) {
    case H_NONE: return "NoneType";
    case H_BOOL: return "bool";
    case H_INT: return "int";
    case H_FLOAT: return "float";
    case H_STR: return "str";
    case H_TUPLE: return "tuple";
    case H_LIST: return "list";
    case H_SET: return "set";
    case H_DICT: return "dict";
    case H_FUNC: return "function";
    case H_NS: return "module";
    case H_OBJ: return v->o->type;
    case H_TENSOR: return v->t->drank ? "TensorDescriptor" : "Tensor";
    default: return "builtin_function_or_method";
    }
}

bool hp_truthy(const HV *v) {
    switch (v->kind) {
    case H_NONE: return false;
    case H_BOOL: case H_INT: return v->i != 0;
    case H_FLOAT: return v->f != 0;
    case H_STR: return v->s[0] != 0;
    case H_TUPLE: case H_LIST: case H_SET: return v->seq->n != 0;
    case H_DICT: return v->d->n != 0;
    default: return true;
    }
}

bool hp_is_num(const HV *v) { return v->kind == H_INT || v->kind == H_BOOL || v->kind == H_FLOAT; }

bool hp_hv_eq(const HV *a, const HV *b) {
    if (hp_is_num(a) && hp_is_num(b)) {
        if (a->kind != H_FLOAT && b->kind != H_FLOAT) return a->i == b->i;
        double x = a->kind == H_FLOAT ? a->f : (double)a->i, y = b->kind == H_FLOAT ? b->f : (double)b->i;
        return x == y;
    }
    bool sa = a->kind == H_TUPLE || a->kind == H_LIST, sb = b->kind == H_TUPLE || b->kind == H_LIST;
    if (sa && sb) {
        if (a->kind != b->kind || a->seq->n != b->seq->n) return false;
        for (int i = 0; i < a->seq->n; i++)
            if (!hp_hv_eq(&a->seq->v[i], &b->seq->v[i])) return false;
        return true;
    }
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case H_NONE: return true;
    case H_STR: case H_NS: return !strcmp(a->s, b->s);
    case H_DICT:
        if (a->d->n != b->d->n) return false;
        for (int i = 0; i < a->d->n; i++) {
            int j = hp_dict_find(b->d, &a->d->k[i]);
            if (j < 0 || !hp_hv_eq(&a->d->v[i], &b->d->v[j])) return false;
        }
        return true;
    case H_SET:
        if (a->seq->n != b->seq->n) return false;
        for (int i = 0; i < a->seq->n; i++) {
            bool f = false;
            for (int j = 0; j < b->seq->n && !f; j++) f = hp_hv_eq(&a->seq->v[i], &b->seq->v[j]);
            if (!f) return false;
        }
        return true;
    case H_FUNC: return a->fn == b->fn;
    case H_OBJ: return a->o == b->o;
    case H_TENSOR: return a->t == b->t;
    default: return false;
    }
}

static void seq_repr(const HSeq *s, Buf *b, const char *open, const char *close, bool tuple) {
    buf_puts(b, open);
    for (int i = 0; i < s->n; i++) {
        if (i) buf_puts(b, ", ");
        hp_repr_into(&s->v[i], b, false);
    }
    if (tuple && s->n == 1) buf_puts(b, ",");
    buf_puts(b, close);
}
void hp_repr_into(const HV *v, Buf *b, bool str) {
    char t[64];
    switch (v->kind) {
    case H_NONE: buf_puts(b, "None"); break;
    case H_BOOL: buf_puts(b, v->i ? "True" : "False"); break;
    case H_INT: buf_printf(b, "%lld", (long long)v->i); break;
    case H_FLOAT: tc_format_double(v->f, t, sizeof t); buf_puts(b, t); break;
    case H_STR: if (str) buf_puts(b, v->s); else buf_printf(b, "'%s'", v->s); break;
    case H_TUPLE: seq_repr(v->seq, b, "(", ")", true); break;
    case H_LIST: seq_repr(v->seq, b, "[", "]", false); break;
    case H_SET: if (!v->seq->n) buf_puts(b, "set()"); else seq_repr(v->seq, b, "{", "}", false); break;
    case H_DICT:
        buf_puts(b, "{");
        for (int i = 0; i < v->d->n; i++) {
            if (i) buf_puts(b, ", ");
            hp_repr_into(&v->d->k[i], b, false);
            buf_puts(b, ": ");
            hp_repr_into(&v->d->v[i], b, false);
        }
        buf_puts(b, "}");
        break;
    case H_NS: buf_puts(b, v->s); break;
    case H_FUNC: buf_printf(b, "<function %s>", v->fn->def ? v->fn->def->name : "<lambda>"); break;
    case H_OBJ:
        if (!strcmp(v->o->type, "GPUTarget")) {
            HV *be = hp_dict_get(v->o->attrs, "backend"), *ar = hp_dict_get(v->o->attrs, "arch"),
               *ws = hp_dict_get(v->o->attrs, "warp_size");
            buf_printf(b, "GPUTarget(backend='%s', arch=%lld, warp_size=%lld)", be ? be->s : "?",
                       ar ? (long long)ar->i : 0LL, ws ? (long long)ws->i : 0LL);
        } else buf_printf(b, "<%s object>", v->o->type);
        break;
    case H_TENSOR: buf_printf(b, "<tensor %s>", heval_torch_dtype(v->t->dtype)); break;
    default: buf_printf(b, "<built-in method %s>", v->s); break;
    }
}

const char *hp_repr_str(HostPy *H, const HV *v, bool str) {
    Buf b = {0};
    hp_repr_into(v, &b, str);
    char *s = arena_strdup(&H->a, b.s ? b.s : "");
    buf_free(&b);
    return s;
}

/* ---- numbers, through the tracer's evaluator ------------------------------------------- */

static CVal to_cv(Frame *F, const HV *v, SrcLoc loc) {
    switch (v->kind) {
    case H_BOOL: return cv_bool(v->i != 0);
    case H_INT: return cv_int(v->i);
    case H_FLOAT: return cv_float(v->f);
    case H_STR: return cv_str(v->s);
    case H_NONE: return cv_none();
    default: FAIL(F, TC_ERR_INTERNAL, loc, "internal error: not a number");
    }
}

static HV from_cv(Frame *F, const CVal *z, SrcLoc loc) {
    if (z->kind == CV_BOOL) return hbool(z->v.i != 0);
    if (z->kind == CV_FLOAT) return hfloat(z->v.f);
    if (z->kind == CV_INT && !z->big) return hint(z->v.i);
    if (z->kind == CV_STR) return hstr(arena_strdup(&F->H->a, z->v.s));
    if (z->kind == CV_INT) FAIL(F, TC_ERR_LIMIT, loc, "OverflowError: %llu is beyond the 64-bit range of host values", (unsigned long long)z->v.u);
    FAIL(F, TC_ERR_INTERNAL, loc, "internal error: a %s from an operator", eval_type_name(z));
}

/* a op b through eval.h; its message comes back with this expression's location. */
HV hp_cv_op(Frame *F, PyOp op, const HV *a, const HV *b, bool cmp, SrcLoc loc) {
    Err ee = {0};
    Arena ar;
    arena_init(&ar, &ee);
    EvalCtx cx = {&ar, &ee};
    CVal x = to_cv(F, a, loc), y = b ? to_cv(F, b, loc) : cv_none(), z;
    bool ok = cmp ? eval_compare(&cx, op, &x, &y, loc, &z)
              : b ? eval_binop(&cx, op, &x, &y, loc, &z) : eval_unary(&cx, op, &x, loc, &z);
    HV r = hv(H_NONE);
    if (ok) {
        if (z.kind == CV_STR) z.v.s = arena_strdup(&F->H->a, z.v.s);
        r = z.kind == CV_STR ? hstr(z.v.s) : hv(H_NONE);
        if (z.kind != CV_STR) { arena_free(&ar); return from_cv(F, &z, loc); }
    }
    arena_free(&ar);
    if (!ok) {
        const char *m = strstr(ee.msg, "error: ");
        m = m ? m + 7 : ee.msg;
        FAIL(F, ee.code == TC_ERR_COMPILE ? TC_ERR_ARG : ee.code, loc, "%.*s", (int)strcspn(m, "\n"), m);
    }
    return r;
}

static bool scalarish(const HV *v) { return hp_is_num(v) || v->kind == H_STR || v->kind == H_NONE; }

HV hp_binop(Frame *F, PyOp op, HV a, HV b, SrcLoc loc) {
    HostPy *H = F->H;
    bool sa = a.kind == H_LIST || a.kind == H_TUPLE, sb = b.kind == H_LIST || b.kind == H_TUPLE;
    if (op == PY_ADD && sa && a.kind == b.kind) {
        HSeq *s = hp_seq_new(H);
        for (int i = 0; i < a.seq->n; i++) hp_seq_push(H, s, a.seq->v[i]);
        for (int i = 0; i < b.seq->n; i++) hp_seq_push(H, s, b.seq->v[i]);
        return hseq(a.kind, s);
    }
    if (op == PY_MUL && (sa || sb) && (a.kind == H_INT || b.kind == H_INT)) {
        HV s = sa ? a : b;
        int64_t n = sa ? b.i : a.i;
        if (n * (int64_t)s.seq->n > HP_MAX_ITEMS) FAIL(F, TC_ERR_LIMIT, loc, "sequence too long");
        HSeq *r = hp_seq_new(H);
        for (int64_t k = 0; k < n; k++)
            for (int i = 0; i < s.seq->n; i++) hp_seq_push(H, r, s.seq->v[i]);
        return hseq(s.kind, r);
    }
    if (op == PY_BITOR && a.kind == H_DICT && b.kind == H_DICT) {
        HDict *d = hp_dict_new(H);
        for (int i = 0; i < a.d->n; i++) hp_dict_set(H, d, a.d->k[i], a.d->v[i]);
        for (int i = 0; i < b.d->n; i++) hp_dict_set(H, d, b.d->k[i], b.d->v[i]);
        HV r = hv(H_DICT);
        r.d = d;
        return r;
    }
    if (op == PY_MOD && a.kind == H_STR)
        FAIL(F, TC_ERR_UNSUPPORTED, loc, "'%%' string formatting is not in tritonc's host subset (use an f-string)");
    if (!scalarish(&a) || !scalarish(&b) || a.kind == H_NONE || b.kind == H_NONE)
        FAIL(F, TC_ERR_ARG, loc, "TypeError: unsupported operand type(s) for %s: '%s' and '%s'", py_op_str(op), hp_tname(&a), hp_tname(&b));
    return hp_cv_op(F, op, &a, &b, false, loc);
}

int hp_order(Frame *F, const HV *a, const HV *b, PyOp op, SrcLoc loc) {
    if ((a->kind == H_TUPLE || a->kind == H_LIST) && a->kind == b->kind) {
        for (int i = 0; i < a->seq->n && i < b->seq->n; i++) {
            int o = hp_order(F, &a->seq->v[i], &b->seq->v[i], op, loc);
            if (o) return o;
        }
        return a->seq->n < b->seq->n ? -1 : a->seq->n > b->seq->n;
    }
    if (!((hp_is_num(a) && hp_is_num(b)) || (a->kind == H_STR && b->kind == H_STR)))
        FAIL(F, TC_ERR_ARG, loc, "TypeError: '%s' not supported between instances of '%s' and '%s'", py_op_str(op), hp_tname(a), hp_tname(b));
    HV lt = hp_cv_op(F, PY_LT, a, b, true, loc), gt = hp_cv_op(F, PY_GT, a, b, true, loc);
    return lt.i ? -1 : gt.i ? 1 : 0;
}


bool hp_compare(Frame *F, PyOp op, HV a, HV b, SrcLoc loc) {
    switch (op) {
    case PY_EQ: return hp_hv_eq(&a, &b);
    case PY_NE: return !hp_hv_eq(&a, &b);
    case PY_IS: case PY_IS_NOT: {
        bool same = a.kind == b.kind && (a.kind == H_NONE || (a.kind == H_BOOL && a.i == b.i) ||
                                         ((a.kind == H_OBJ || a.kind == H_LIST || a.kind == H_DICT || a.kind == H_FUNC) && hp_hv_eq(&a, &b)) ||
                                         (a.kind == H_NS && !strcmp(a.s, b.s)));
        return op == PY_IS ? same : !same;
    }
    case PY_IN: return hp_contains(F, &b, &a, loc);
    case PY_NOT_IN: return !hp_contains(F, &b, &a, loc);
    default: {
        if (hp_is_num(&a) && hp_is_num(&b)) return hp_cv_op(F, op, &a, &b, true, loc).i != 0;
        int o = hp_order(F, &a, &b, op, loc);
        return op == PY_LT ? o < 0 : op == PY_LE ? o <= 0 : op == PY_GT ? o > 0 : o >= 0;
    }
    }
}

/* ---- environment variables (recorded: they are part of the tuning key) ------------------ */

const char *hp_env_read(HostPy *H, const char *name) {
    const char *v = getenv(name);
    for (int i = 0; i < H->nenvr; i++)
        if (!strcmp(H->envr[i].name, name)) return v;
    EnvRead r = {arena_strdup(&H->a, name), v ? arena_strdup(&H->a, v) : NULL};
    ARENA_PUSH(&H->a, H->envr, H->nenvr, H->capenvr, r);
    return v;
}

bool hp_contains(Frame *F, const HV *c, const HV *x, SrcLoc loc) {
    switch (c->kind) {
    case H_STR:
        if (x->kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "TypeError: 'in <string>' requires string as left operand, not %s", hp_tname(x));
        return strstr(c->s, x->s) != NULL;
    case H_TUPLE: case H_LIST: case H_SET:
        for (int i = 0; i < c->seq->n; i++)
            if (hp_hv_eq(&c->seq->v[i], x)) return true;
        return false;
    case H_DICT: return hp_dict_find(c->d, x) >= 0;
    case H_NS:
        if (!strcmp(c->s, "os.environ") && x->kind == H_STR) return hp_env_read(F->H, x->s) != NULL;
        break;
    case H_OBJ: return hp_dict_find(c->o->attrs, x) >= 0;
    }
    FAIL(F, TC_ERR_ARG, loc, "TypeError: argument of type '%s' is not iterable", hp_tname(c));
}

/* ---- iteration --------------------------------------------------------------------------- */

HSeq *hp_iter_items(Frame *F, HV v, SrcLoc loc) {
    HostPy *H = F->H;
    switch (v.kind) {
    case H_TUPLE: case H_LIST: case H_SET: return v.seq;
    case H_DICT: {
        HSeq *s = hp_seq_new(H);
        for (int i = 0; i < v.d->n; i++) hp_seq_push(H, s, v.d->k[i]);
        return s;
    }
    case H_STR: {
        HSeq *s = hp_seq_new(H);
        for (const char *p = v.s; *p; p++) hp_seq_push(H, s, hstr(arena_strndup(&H->a, p, 1)));
        return s;
    }
    case H_TENSOR: break;
    }
    FAIL(F, TC_ERR_ARG, loc, "TypeError: '%s' object is not iterable", hp_tname(&v));
}

/* ---- hardware ----------------------------------------------------------------------------- */

static void hw(Frame *F, SrcLoc loc, tc_target *t, tc_device_props *p, const char *what) {
    HostPy *H = F->H;
    Err e = {0};
    bool assumed = false;
    /* on the GPU the device answers; a target to assume must be that one */
    tc_backend b = TC_BACKEND_AUTO;
    const char *env = getenv("TRITONC_TARGET");
    bool gpu = ctx_backend(H->ctx, &b) == TC_OK && b == TC_BACKEND_CUDA;
    if (gpu && env && *env) {
        tc_target want;
        if (hw_answer(H->ctx->device, false, t, p, &assumed, &e) == TC_OK && target_parse(env, &want) == TC_OK &&
            want.arch != t->arch)
            FAIL(F, TC_ERR_ARG, loc, "TRITONC_TARGET=%s names another GPU than the device's (cuda:%d); "
                 "a target to assume is for the interpreter", env, t->arch);
    }
    if (hw_answer(H->ctx->device, !gpu, t, p, &assumed, &e)) {
        size_t l = strcspn(e.msg, "\n");
        if (e.code == TC_ERR_NO_DRIVER && !strncmp(e.msg, "0 active", 8)) {
            Err *E = H->err;
            err_set(E, TC_ERR_NO_DRIVER, loc, "RuntimeError: %.*s", (int)l, e.msg);
            size_t n = strlen(E->msg);
            snprintf(E->msg + n, sizeof E->msg - n, "\n(%s asks for the GPU and none answers; to run "
                     "this host code anyway, name the GPU to assume: TRITONC_TARGET=cuda:90, or "
                     "--target cuda:90 on tritonc run and check)", what);
            longjmp(*E->jump, 1);
        }
        FAIL(F, e.code, loc, "%s", e.msg);
    }
    H->assumed |= assumed;
}

static HV target_obj(Frame *F, SrcLoc loc) {
    tc_target t;
    hw(F, loc, &t, NULL, "get_current_target()");
    HV o = hobj(F->H, "GPUTarget", loc);
    hp_dict_sets(F->H, o.o->attrs, "backend", hstr(arena_strdup(&F->H->a, t.backend)));
    hp_dict_sets(F->H, o.o->attrs, "arch", hint(t.arch));
    hp_dict_sets(F->H, o.o->attrs, "warp_size", hint(t.warp_size));
    return o;
}

/* Triton's driver.active.utils.get_device_properties (a dict) or torch's object. */
static HV props_value(Frame *F, SrcLoc loc, bool torch) {
    HostPy *H = F->H;
    tc_target t;
    tc_device_props p;
    hw(F, loc, &t, &p, torch ? "torch.cuda.get_device_properties()" : "get_device_properties()");
    HDict *d;
    HV r;
    if (torch) { r = hobj(H, "_CudaDeviceProperties", loc); d = r.o->attrs; }
    else { r = hv(H_DICT); r.d = d = hp_dict_new(H); }
    if (torch) {
        hp_dict_sets(H, d, "name", hstr(arena_strdup(&H->a, p.name)));
        hp_dict_sets(H, d, "major", hint(p.major));
        hp_dict_sets(H, d, "minor", hint(p.minor));
        hp_dict_sets(H, d, "multi_processor_count", hint(p.multiprocessor_count));
        hp_dict_sets(H, d, "total_memory", hint((int64_t)p.total_memory));
        hp_dict_sets(H, d, "L2_cache_size", hint(p.l2_cache_size));
        hp_dict_sets(H, d, "warp_size", hint(p.warp_size));
        hp_dict_sets(H, d, "max_threads_per_multi_processor", hint(2048));
        hp_dict_sets(H, d, "shared_memory_per_block_optin", hint(p.max_shared_memory_per_block_optin));
        hp_dict_sets(H, d, "shared_memory_per_multiprocessor", hint(p.max_shared_memory_per_multiprocessor));
        hp_dict_sets(H, d, "regs_per_multiprocessor", hint(65536));
    } else {
        hp_dict_sets(H, d, "max_shared_mem", hint(p.max_shared_memory_per_block_optin));
        hp_dict_sets(H, d, "max_num_regs", hint(p.max_registers_per_block));
        hp_dict_sets(H, d, "multiprocessor_count", hint(p.multiprocessor_count));
        hp_dict_sets(H, d, "warpSize", hint(p.warp_size));
        hp_dict_sets(H, d, "sm_clock_rate", hint(p.sm_clock_khz));
        hp_dict_sets(H, d, "mem_clock_rate", hint(p.mem_clock_khz));
        hp_dict_sets(H, d, "mem_bus_width", hint(p.mem_bus_width_bits));
    }
    return r;
}

/* ---- attributes ---------------------------------------------------------------------------- */

static HV method(HostPy *H, HV self, const char *name) {
    HV m = hv(H_METHOD);
    m.self = arena_alloc(&H->a, sizeof(HV));
    *m.self = self;
    m.s = name;
    return m;
}

static HV tensor_shape(HostPy *H, const tc_tensor *t) {
    HSeq *s = hp_seq_new(H);
    for (int i = 0; i < t->rank; i++) hp_seq_push(H, s, hint(t->shape[i]));
    return hseq(H_TUPLE, s);
}

HV hp_getattr(Frame *F, HV v, const char *name, SrcLoc loc) {
    HostPy *H = F->H;
    switch (v.kind) {
    case H_NS: {
        const char *p = arena_printf(&H->a, "%s.%s", v.s, name);
        if (!strcmp(p, "torch.version.hip")) return hv(H_NONE);
        if (!strcmp(p, "torch.version.cuda")) return hstr("12.8");
        return hns(p);
    }
    case H_OBJ: {
        HV *a = hp_dict_get(v.o->attrs, name);
        if (a) return *a;
        if (!strcmp(v.o->type, "Config") && !strcmp(name, "all_kwargs")) return method(H, v, name);
        FAIL(F, TC_ERR_ARG, loc, "AttributeError: '%s' object has no attribute '%s'", v.o->type, name);
    }
    case H_TENSOR:
        if (v.t->drank && (!strcmp(name, "shape") || !strcmp(name, "strides") || !strcmp(name, "block_shape"))) {
            /* a TensorDescriptor's lists */
            const int64_t *x = name[1] == 'h' ? v.t->dshape : name[1] == 't' ? v.t->dstrides : v.t->dblock;
            HSeq *s = hp_seq_new(H);
            for (int i = 0; i < v.t->drank; i++) hp_seq_push(H, s, hint(x[i]));
            return hseq(H_LIST, s);
        }
        if (!strcmp(name, "shape")) return tensor_shape(H, v.t);
        if (!strcmp(name, "dtype")) return hns(heval_torch_dtype(v.t->dtype));
        if (!strcmp(name, "ndim")) return hint(v.t->rank);
        if (!strcmp(name, "device")) return hns("cuda");
        return method(H, v, name);
    case H_DICT: case H_LIST: case H_STR: case H_TUPLE: case H_SET: {
        static const char *const known[] = {
            "|append|extend|copy|pop|index|count|",                                    /* list */
            "|get|keys|values|items|copy|update|setdefault|pop|",                      /* dict */
            "|startswith|endswith|lower|upper|strip|split|join|",                      /* str */
            "|index|count|", "|copy|"};                                                /* tuple, set */
        int w = v.kind == H_LIST ? 0 : v.kind == H_DICT ? 1 : v.kind == H_STR ? 2 : v.kind == H_TUPLE ? 3 : 4;
        char pat[64];
        snprintf(pat, sizeof pat, "|%s|", name);
        if (strstr(known[w], pat)) return method(H, v, name);
        FAIL(F, TC_ERR_ARG, loc, "AttributeError: '%s' object has no attribute '%s'", hp_tname(&v), name);
    }
    case H_FUNC:
        if (!strcmp(name, "__name__")) return hstr(v.fn->def ? v.fn->def->name : "<lambda>");
        break;
    }
    FAIL(F, TC_ERR_ARG, loc, "AttributeError: '%s' object has no attribute '%s'", hp_tname(&v), name);
}

/* ---- calls ---------------------------------------------------------------------------------- */

static HV kwarg(const char **kwn, HV *kwv, int nkw, const char *name, HV dflt) {
    for (int i = 0; i < nkw; i++)
        if (!strcmp(kwn[i], name)) return kwv[i];
    return dflt;
}

static void nargs_check(Frame *F, const char *fname, int n, int lo, int hi, SrcLoc loc) {
    if (n < lo || n > hi)
        FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() takes %d to %d arguments (%d given)", fname, lo, hi, n);
}

static HV call1(Frame *F, HV f, HV a, SrcLoc loc) { return hp_call_value(F, f, &a, 1, NULL, NULL, 0, loc); }

/* sorted()/min()/max() with key=: a stable insertion sort by key. */
static HSeq *sort_items(Frame *F, HSeq *in, HV key, bool reverse, SrcLoc loc) {
    HostPy *H = F->H;
    HSeq *s = hp_seq_new(H);
    HV *keys = arena_alloc(&H->a, sizeof(HV) * (size_t)(in->n + 1));
    for (int i = 0; i < in->n; i++) {
        HV k = key.kind == H_NONE ? in->v[i] : call1(F, key, in->v[i], loc);
        int j = s->n;
        hp_seq_push(H, s, in->v[i]);
        while (j > 0) {
            int o = hp_order(F, &keys[j - 1], &k, PY_LT, loc);
            if (reverse ? o >= 0 : o <= 0) break;
            s->v[j] = s->v[j - 1];
            keys[j] = keys[j - 1];
            j--;
        }
        s->v[j] = in->v[i];
        keys[j] = k;
    }
    return s;
}

HV hp_config_new(Frame *F, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    HostPy *H = F->H;
    static const char *const pos[] = {"kwargs", "num_warps", "num_stages", "num_ctas", "maxnreg", "pre_hook"};
    static const char *const extra[] = {"ir_override", "minRegAutoWS", "maxRegAutoWS", "pingpongAutoWS", "occupancy", "opt_level"};
    HV o = hobj(H, "Config", loc);
    HV vals[6] = {hv(H_NONE), hint(4), hint(3), hint(1), hv(H_NONE), hv(H_NONE)};
    bool set[6] = {0};
    if (n > 6) FAIL(F, TC_ERR_ARG, loc, "TypeError: Config() takes at most 6 positional arguments");
    for (int i = 0; i < n; i++) { vals[i] = args[i]; set[i] = true; }
    for (int k = 0; k < nkw; k++) {
        int j = 0;
        while (j < 6 && strcmp(pos[j], kwn[k])) j++;
        if (j == 6) {
            int x = 0;
            while (x < COUNT_OF(extra) && strcmp(extra[x], kwn[k])) x++;
            if (x == COUNT_OF(extra)) FAIL(F, TC_ERR_ARG, loc, "TypeError: Config() got an unexpected keyword argument '%s'", kwn[k]);
            hp_dict_sets(H, o.o->attrs, kwn[k], kwv[k]);
            continue;
        }
        vals[j] = kwv[k];
        set[j] = true;
    }
    if (!set[0]) FAIL(F, TC_ERR_ARG, loc, "TypeError: Config() missing 1 required positional argument: 'kwargs'");
    if (vals[0].kind != H_DICT) FAIL(F, TC_ERR_ARG, loc, "triton.Config: kwargs must be a dict, not '%s'", hp_tname(&vals[0]));
    HV kw = hv(H_DICT);
    kw.d = hp_dict_new(H);
    for (int i = 0; i < vals[0].d->n; i++) hp_dict_set(H, kw.d, vals[0].d->k[i], vals[0].d->v[i]);
    hp_dict_sets(H, o.o->attrs, "kwargs", kw);
    for (int j = 1; j < 6; j++) hp_dict_sets(H, o.o->attrs, pos[j], vals[j]);
    return o;
}

static HV call_builtin(Frame *F, const char *p, HV *a, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    HostPy *H = F->H;
    const char *b = !strncmp(p, "builtins.", 9) ? p + 9 : NULL;
    if (b && !strcmp(b, "len")) {
        nargs_check(F, "len", n, 1, 1, loc);
        if (a[0].kind == H_STR) return hint((int64_t)strlen(a[0].s));
        if (a[0].kind == H_DICT) return hint(a[0].d->n);
        if (a[0].kind == H_TENSOR) return hint(a[0].t->rank ? a[0].t->shape[0] : 0);
        return hint(hp_iter_items(F, a[0], loc)->n);
    }
    if (b && (!strcmp(b, "min") || !strcmp(b, "max"))) {
        HSeq *s;
        if (n == 1) s = hp_iter_items(F, a[0], loc);
        else { s = hp_seq_new(H); for (int i = 0; i < n; i++) hp_seq_push(H, s, a[i]); }
        HV key = kwarg(kwn, kwv, nkw, "key", hv(H_NONE));
        if (!s->n) {
            HV d = kwarg(kwn, kwv, nkw, "default", hv(H_METHOD));
            if (d.kind != H_METHOD) return d;
            FAIL(F, TC_ERR_ARG, loc, "ValueError: %s() arg is an empty sequence", b);
        }
        bool mx = !strcmp(b, "max");
        HV best = s->v[0], bk = key.kind == H_NONE ? best : call1(F, key, best, loc);
        for (int i = 1; i < s->n; i++) {
            HV k = key.kind == H_NONE ? s->v[i] : call1(F, key, s->v[i], loc);
            int o = hp_order(F, &k, &bk, mx ? PY_GT : PY_LT, loc);
            if (mx ? o > 0 : o < 0) { best = s->v[i]; bk = k; }
        }
        return best;
    }
    if (b && !strcmp(b, "abs")) {
        nargs_check(F, "abs", n, 1, 1, loc);
        if (!hp_is_num(&a[0])) FAIL(F, TC_ERR_ARG, loc, "TypeError: bad operand type for abs(): '%s'", hp_tname(&a[0]));
        if (a[0].kind == H_FLOAT) return hfloat(fabs(a[0].f));
        return a[0].i < 0 ? hp_cv_op(F, PY_USUB, &a[0], NULL, false, loc) : hint(a[0].i);
    }
    if (b && (!strcmp(b, "int") || !strcmp(b, "float"))) {
        if (n == 0) return !strcmp(b, "int") ? hint(0) : hfloat(0);
        nargs_check(F, b, n, 1, 1, loc);
        if (!scalarish(&a[0]) || a[0].kind == H_NONE)
            FAIL(F, TC_ERR_ARG, loc, "TypeError: %s() argument must be a string or a number, not '%s'", b, hp_tname(&a[0]));
        Err ee = {0};
        Arena ar;
        arena_init(&ar, &ee);
        EvalCtx cx = {&ar, &ee};
        CVal x = to_cv(F, &a[0], loc), z;
        bool ok = !strcmp(b, "int") ? eval_int(&cx, &x, loc, &z) : eval_float(&cx, &x, loc, &z);
        arena_free(&ar);
        if (!ok) {
            const char *m = strstr(ee.msg, "error: ");
            m = m ? m + 7 : ee.msg;
            FAIL(F, TC_ERR_ARG, loc, "%.*s", (int)strcspn(m, "\n"), m);
        }
        return from_cv(F, &z, loc);
    }
    if (b && !strcmp(b, "str")) return n ? hstr(hp_repr_str(H, &a[0], true)) : hstr("");
    if (b && !strcmp(b, "bool")) return hbool(n && hp_truthy(&a[0]));
    if (b && !strcmp(b, "range")) {
        nargs_check(F, "range", n, 1, 3, loc);
        int64_t lo = 0, hi, st = 1;
        if (n == 1) hi = hp_want_int(F, a[0], loc, "range() argument");
        else { lo = hp_want_int(F, a[0], loc, "range() argument"); hi = hp_want_int(F, a[1], loc, "range() argument"); }
        if (n == 3) st = hp_want_int(F, a[2], loc, "range() argument");
        if (!st) FAIL(F, TC_ERR_ARG, loc, "ValueError: range() arg 3 must not be zero");
        HSeq *s = hp_seq_new(H);
        for (int64_t i = lo; st > 0 ? i < hi : i > hi; i += st) hp_seq_push(H, s, hint(i));
        return hseq(H_LIST, s);
    }
    if (b && (!strcmp(b, "list") || !strcmp(b, "tuple") || !strcmp(b, "set"))) {
        HSeq *s = hp_seq_new(H);
        HSeq *in = n ? hp_iter_items(F, a[0], loc) : s;
        bool set = !strcmp(b, "set");
        for (int i = 0; i < in->n; i++) {
            HV cur = hseq(H_SET, s);
            if (!set || !hp_contains(F, &cur, &in->v[i], loc)) hp_seq_push(H, s, in->v[i]);
        }
        return hseq(!strcmp(b, "list") ? H_LIST : set ? H_SET : H_TUPLE, s);
    }
    if (b && !strcmp(b, "dict")) {
        HV r = hv(H_DICT);
        r.d = hp_dict_new(H);
        if (n == 1 && a[0].kind == H_DICT)
            for (int i = 0; i < a[0].d->n; i++) hp_dict_set(H, r.d, a[0].d->k[i], a[0].d->v[i]);
        else if (n == 1) {
            HSeq *in = hp_iter_items(F, a[0], loc);
            for (int i = 0; i < in->n; i++) {
                HSeq *kv = hp_iter_items(F, in->v[i], loc);
                if (kv->n != 2) FAIL(F, TC_ERR_ARG, loc, "ValueError: dictionary update sequence element #%d has length %d; 2 is required", i, kv->n);
                hp_dict_set(H, r.d, kv->v[0], kv->v[1]);
            }
        }
        for (int k = 0; k < nkw; k++) hp_dict_sets(H, r.d, kwn[k], kwv[k]);
        return r;
    }
    if (b && !strcmp(b, "sorted")) {
        nargs_check(F, "sorted", n, 1, 1, loc);
        return hseq(H_LIST, sort_items(F, hp_iter_items(F, a[0], loc), kwarg(kwn, kwv, nkw, "key", hv(H_NONE)),
                                       hp_truthy((HV[]){kwarg(kwn, kwv, nkw, "reverse", hbool(false))}), loc));
    }
    if (b && !strcmp(b, "reversed")) {
        HSeq *in = hp_iter_items(F, a[0], loc), *s = hp_seq_new(H);
        for (int i = in->n - 1; i >= 0; i--) hp_seq_push(H, s, in->v[i]);
        return hseq(H_LIST, s);
    }
    if (b && !strcmp(b, "zip")) {
        HSeq *s = hp_seq_new(H);
        HSeq **ins = arena_alloc(&H->a, sizeof(HSeq *) * (size_t)(n + 1));
        int m = n ? INT32_MAX : 0;
        for (int i = 0; i < n; i++) { ins[i] = hp_iter_items(F, a[i], loc); if (ins[i]->n < m) m = ins[i]->n; }
        for (int j = 0; j < m; j++) {
            HSeq *t = hp_seq_new(H);
            for (int i = 0; i < n; i++) hp_seq_push(H, t, ins[i]->v[j]);
            hp_seq_push(H, s, hseq(H_TUPLE, t));
        }
        return hseq(H_LIST, s);
    }
    if (b && !strcmp(b, "enumerate")) {
        nargs_check(F, "enumerate", n, 1, 2, loc);
        int64_t start = n == 2 ? hp_want_int(F, a[1], loc, "start") : 0;
        HSeq *in = hp_iter_items(F, a[0], loc), *s = hp_seq_new(H);
        for (int i = 0; i < in->n; i++) {
            HSeq *t = hp_seq_new(H);
            hp_seq_push(H, t, hint(start + i));
            hp_seq_push(H, t, in->v[i]);
            hp_seq_push(H, s, hseq(H_TUPLE, t));
        }
        return hseq(H_LIST, s);
    }
    if (b && (!strcmp(b, "filter") || !strcmp(b, "map"))) {
        nargs_check(F, b, n, 2, 2, loc);
        HSeq *in = hp_iter_items(F, a[1], loc), *s = hp_seq_new(H);
        bool flt = !strcmp(b, "filter");
        for (int i = 0; i < in->n; i++) {
            if (flt && a[0].kind == H_NONE) { if (hp_truthy(&in->v[i])) hp_seq_push(H, s, in->v[i]); continue; }
            HV r = call1(F, a[0], in->v[i], loc);
            if (!flt) hp_seq_push(H, s, r);
            else if (hp_truthy(&r)) hp_seq_push(H, s, in->v[i]);
        }
        return hseq(H_LIST, s);
    }
    if (b && (!strcmp(b, "any") || !strcmp(b, "all"))) {
        nargs_check(F, b, n, 1, 1, loc);
        HSeq *in = hp_iter_items(F, a[0], loc);
        bool any = !strcmp(b, "any");
        for (int i = 0; i < in->n; i++)
            if (hp_truthy(&in->v[i]) == any) return hbool(any);
        return hbool(!any);
    }
    if (b && !strcmp(b, "sum")) {
        HSeq *in = hp_iter_items(F, a[0], loc);
        HV r = n > 1 ? a[1] : hint(0);
        for (int i = 0; i < in->n; i++) r = hp_binop(F, PY_ADD, r, in->v[i], loc);
        return r;
    }
    if (b && !strcmp(b, "isinstance")) {
        nargs_check(F, "isinstance", n, 2, 2, loc);
        HSeq *types;
        if (a[1].kind == H_TUPLE) types = a[1].seq;
        else { types = hp_seq_new(H); hp_seq_push(H, types, a[1]); }
        for (int i = 0; i < types->n; i++) {
            HV t = types->v[i];
            if (t.kind != H_NS) FAIL(F, TC_ERR_ARG, loc, "TypeError: isinstance() arg 2 must be a type");
            const char *tn = strrchr(t.s, '.') ? strrchr(t.s, '.') + 1 : t.s;
            const char *have = a[0].kind == H_OBJ ? a[0].o->type : hp_tname(&a[0]);
            if (!strcmp(tn, have) || (!strcmp(tn, "int") && a[0].kind == H_BOOL)) return hbool(true);
            static const char *const known[] = {"int", "float", "str", "bool", "list", "tuple", "dict",
                                                "set", "Tensor", "TensorDescriptor", "Config", "NoneType"};
            bool k = false;
            for (int j = 0; j < COUNT_OF(known) && !k; j++) k = !strcmp(known[j], tn);
            if (!k) FAIL(F, TC_ERR_UNSUPPORTED, loc, "isinstance(..., %s): tritonc's host subset knows the types "
                         "int, float, str, bool, list, tuple, dict, set, torch.Tensor, TensorDescriptor, triton.Config", t.s);
        }
        return hbool(false);
    }
    if (b && (!strcmp(b, "hasattr") || !strcmp(b, "getattr"))) {
        nargs_check(F, b, n, 2, 3, loc);
        if (a[1].kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "TypeError: attribute name must be string");
        bool has = a[0].kind == H_NS || a[0].kind == H_TENSOR ||
                   (a[0].kind == H_OBJ && hp_dict_get(a[0].o->attrs, a[1].s));
        if (!strcmp(b, "hasattr")) return hbool(has);
        if (!has && n == 3) return a[2];
        return hp_getattr(F, a[0], a[1].s, loc);
    }
    if (b && !strcmp(b, "print")) return hv(H_NONE);
    if (b && !strcmp(b, "round")) {
        nargs_check(F, "round", n, 1, 1, loc);
        if (a[0].kind != H_FLOAT) return a[0];
        double r = nearbyint(a[0].f);
        if (!isfinite(r) || fabs(r) > 9.2e18) FAIL(F, TC_ERR_ARG, loc, "OverflowError: cannot convert float to integer");
        return hint((int64_t)r);
    }
    if (b && !strcmp(b, "pow")) { nargs_check(F, "pow", n, 2, 2, loc); return hp_binop(F, PY_POW, a[0], a[1], loc); }
    if (b && !strcmp(b, "divmod")) {
        nargs_check(F, "divmod", n, 2, 2, loc);
        HSeq *t = hp_seq_new(H);
        hp_seq_push(H, t, hp_binop(F, PY_FLOORDIV, a[0], a[1], loc));
        hp_seq_push(H, t, hp_binop(F, PY_MOD, a[0], a[1], loc));
        return hseq(H_TUPLE, t);
    }
    if (!strcmp(p, "triton.cdiv") || !strcmp(p, "triton.language.cdiv")) {
        nargs_check(F, "cdiv", n, 2, 2, loc);
        HV s = hp_binop(F, PY_SUB, hp_binop(F, PY_ADD, a[0], a[1], loc), hint(1), loc);
        return hp_binop(F, PY_FLOORDIV, s, a[1], loc);
    }
    if (!strcmp(p, "triton.next_power_of_2")) {
        nargs_check(F, "next_power_of_2", n, 1, 1, loc);
        int64_t v = hp_want_int(F, a[0], loc, "next_power_of_2() argument"), r = 1;
        while (r < v && r < ((int64_t)1 << 62)) r <<= 1;
        return hint(r);
    }
    if (!strncmp(p, "math.", 5)) {
        nargs_check(F, p, n, 1, 1, loc);
        if (!hp_is_num(&a[0])) FAIL(F, TC_ERR_ARG, loc, "TypeError: must be real number, not %s", hp_tname(&a[0]));
        double x = a[0].kind == H_FLOAT ? a[0].f : (double)a[0].i;
        const char *fnm = p + 5;
        if (!strcmp(fnm, "ceil") || !strcmp(fnm, "floor")) {
            if (a[0].kind != H_FLOAT) return hint(a[0].i);
            double r = !strcmp(fnm, "ceil") ? ceil(x) : floor(x);
            if (!isfinite(r) || fabs(r) > 9.2e18) FAIL(F, TC_ERR_ARG, loc, "OverflowError: cannot convert float to integer");
            return hint((int64_t)r);
        }
        if (!strcmp(fnm, "log2")) { if (x <= 0) FAIL(F, TC_ERR_ARG, loc, "ValueError: math domain error"); return hfloat(log2(x)); }
        if (!strcmp(fnm, "sqrt")) { if (x < 0) FAIL(F, TC_ERR_ARG, loc, "ValueError: math domain error"); return hfloat(sqrt(x)); }
        if (!strcmp(fnm, "log")) { if (x <= 0) FAIL(F, TC_ERR_ARG, loc, "ValueError: math domain error"); return hfloat(log(x)); }
    }
    if (!strcmp(p, "triton.language.constexpr")) {   /* X = tl.constexpr(4): the value */
        nargs_check(F, "constexpr", n, 1, 1, loc);
        return a[0];
    }
    if (!strcmp(p, "triton.Config") || !strcmp(p, "triton.runtime.Config") || !strcmp(p, "triton.runtime.autotuner.Config"))
        return hp_config_new(F, a, n, kwn, kwv, nkw, loc);
    if (!strcmp(p, "triton.runtime.driver.active.get_current_target")) return target_obj(F, loc);
    if (!strcmp(p, "triton.runtime.driver.active.get_active_torch_device")) {
        tc_target t;
        hw(F, loc, &t, NULL, "get_active_torch_device()");
        return hns("cuda:0");
    }
    if (!strcmp(p, "triton.runtime.driver.active.utils.get_device_properties")) return props_value(F, loc, false);
    if (!strcmp(p, "triton.runtime.driver.active.get_current_device") || !strcmp(p, "torch.cuda.current_device")) {
        tc_target t;
        hw(F, loc, &t, NULL, "current_device()");
        return hint(H->ctx->device);
    }
    if (!strcmp(p, "torch.cuda.get_device_capability")) {
        tc_target t;
        hw(F, loc, &t, NULL, "torch.cuda.get_device_capability()");
        HSeq *s = hp_seq_new(H);
        hp_seq_push(H, s, hint(t.arch / 10));
        hp_seq_push(H, s, hint(t.arch % 10));
        return hseq(H_TUPLE, s);
    }
    if (!strcmp(p, "torch.cuda.get_device_properties")) return props_value(F, loc, true);
    if (!strcmp(p, "torch.cuda.is_available")) {
        tc_target t;
        tc_device_props pr;
        bool as;
        Err e = {0};
        tc_backend bk = TC_BACKEND_AUTO;
        bool gpu = ctx_backend(H->ctx, &bk) == TC_OK && bk == TC_BACKEND_CUDA;
        bool ok = hw_answer(H->ctx->device, !gpu, &t, &pr, &as, &e) == TC_OK;
        H->assumed |= ok && as;
        return hbool(ok);
    }
    if (!strcmp(p, "torch.cuda.device_count")) {
        tc_target t;
        hw(F, loc, &t, NULL, "torch.cuda.device_count()");
        int c = 1;
        Err e = {0};
        if (!H->assumed) cuda_device_count(&c, &e);
        return hint(c);
    }
    if (!strcmp(p, "torch.device")) return n ? hns(hp_repr_str(H, &a[0], true)) : hns("cuda");
    if (!strcmp(p, "os.environ.get") || !strcmp(p, "os.getenv")) {
        nargs_check(F, p, n, 1, 2, loc);
        if (a[0].kind != H_STR) FAIL(F, TC_ERR_ARG, loc, "TypeError: str expected, not %s", hp_tname(&a[0]));
        const char *v = hp_env_read(H, a[0].s);
        return v ? hstr(v) : n > 1 ? a[1] : kwarg(kwn, kwv, nkw, "default", hv(H_NONE));
    }
    FAIL(F, TC_ERR_UNSUPPORTED, loc, "%s() is not in tritonc's host subset (host code that does work, "
         "such as creating tensors or benchmarking, is not run)", p);
}

HV hp_call_method(Frame *F, HV self, const char *m, HV *a, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    HostPy *H = F->H;
    switch (self.kind) {
    case H_LIST:
        if (!strcmp(m, "append")) { nargs_check(F, m, n, 1, 1, loc); hp_seq_push(H, self.seq, a[0]); return hv(H_NONE); }
        if (!strcmp(m, "extend")) {
            HSeq *in = hp_iter_items(F, a[0], loc);
            int k = in->n;
            for (int i = 0; i < k; i++) hp_seq_push(H, self.seq, in->v[i]);
            return hv(H_NONE);
        }
        if (!strcmp(m, "copy")) return call_builtin(F, "builtins.list", &self, 1, NULL, NULL, 0, loc);
        if (!strcmp(m, "pop")) {
            if (!self.seq->n) FAIL(F, TC_ERR_ARG, loc, "IndexError: pop from empty list");
            int64_t i = n ? hp_want_int(F, a[0], loc, "index") : self.seq->n - 1;
            if (i < 0) i += self.seq->n;
            if (i < 0 || i >= self.seq->n) FAIL(F, TC_ERR_ARG, loc, "IndexError: pop index out of range");
            HV r = self.seq->v[i];
            memmove(&self.seq->v[i], &self.seq->v[i + 1], sizeof(HV) * (size_t)(self.seq->n - i - 1));
            self.seq->n--;
            return r;
        }
        /* fall through */
    case H_TUPLE:
        if (!strcmp(m, "index") || !strcmp(m, "count")) {
            nargs_check(F, m, n, 1, 1, loc);
            int c = 0;
            for (int i = 0; i < self.seq->n; i++)
                if (hp_hv_eq(&self.seq->v[i], &a[0])) { if (!strcmp(m, "index")) return hint(i); c++; }
            if (!strcmp(m, "index")) FAIL(F, TC_ERR_ARG, loc, "ValueError: %s is not in list", hp_repr_str(H, &a[0], false));
            return hint(c);
        }
        break;
    case H_DICT:
        if (!strcmp(m, "get")) {
            nargs_check(F, m, n, 1, 2, loc);
            int i = hp_dict_find(self.d, &a[0]);
            return i >= 0 ? self.d->v[i] : n > 1 ? a[1] : hv(H_NONE);
        }
        if (!strcmp(m, "keys") || !strcmp(m, "values") || !strcmp(m, "items")) {
            HSeq *s = hp_seq_new(H);
            for (int i = 0; i < self.d->n; i++) {
                if (m[0] == 'k') hp_seq_push(H, s, self.d->k[i]);
                else if (m[0] == 'v') hp_seq_push(H, s, self.d->v[i]);
                else {
                    HSeq *t = hp_seq_new(H);
                    hp_seq_push(H, t, self.d->k[i]);
                    hp_seq_push(H, t, self.d->v[i]);
                    hp_seq_push(H, s, hseq(H_TUPLE, t));
                }
            }
            return hseq(H_LIST, s);
        }
        if (!strcmp(m, "copy")) return call_builtin(F, "builtins.dict", &self, 1, NULL, NULL, 0, loc);
        if (!strcmp(m, "update")) {
            if (n) { HV d = call_builtin(F, "builtins.dict", a, 1, NULL, NULL, 0, loc); for (int i = 0; i < d.d->n; i++) hp_dict_set(H, self.d, d.d->k[i], d.d->v[i]); }
            for (int k = 0; k < nkw; k++) hp_dict_sets(H, self.d, kwn[k], kwv[k]);
            return hv(H_NONE);
        }
        if (!strcmp(m, "setdefault")) {
            int i = hp_dict_find(self.d, &a[0]);
            if (i >= 0) return self.d->v[i];
            hp_dict_set(H, self.d, a[0], n > 1 ? a[1] : hv(H_NONE));
            return n > 1 ? a[1] : hv(H_NONE);
        }
        if (!strcmp(m, "pop")) {
            int i = hp_dict_find(self.d, &a[0]);
            if (i < 0) { if (n > 1) return a[1]; FAIL(F, TC_ERR_ARG, loc, "KeyError: %s", hp_repr_str(H, &a[0], false)); }
            HV r = self.d->v[i];
            memmove(&self.d->k[i], &self.d->k[i + 1], sizeof(HV) * (size_t)(self.d->n - i - 1));
            memmove(&self.d->v[i], &self.d->v[i + 1], sizeof(HV) * (size_t)(self.d->n - i - 1));
            self.d->n--;
            return r;
        }
        break;
    case H_STR:
        if (!strcmp(m, "startswith") || !strcmp(m, "endswith")) {
            nargs_check(F, m, n, 1, 1, loc);
            if (a[0].kind != H_STR) break;
            size_t ls = strlen(self.s), la = strlen(a[0].s);
            if (la > ls) return hbool(false);
            return hbool(!strncmp(m[0] == 's' ? self.s : self.s + ls - la, a[0].s, la));
        }
        if (!strcmp(m, "lower") || !strcmp(m, "upper")) {
            char *s = arena_strdup(&H->a, self.s);
            for (char *c = s; *c; c++) *c = (char)(m[0] == 'l' ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
            return hstr(s);
        }
        if (!strcmp(m, "strip")) {
            const char *s = self.s;
            while (*s == ' ' || *s == '\t' || *s == '\n') s++;
            size_t l = strlen(s);
            while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\n')) l--;
            return hstr(arena_strndup(&H->a, s, l));
        }
        if (!strcmp(m, "split")) {
            HSeq *s = hp_seq_new(H);
            const char *sep = n && a[0].kind == H_STR ? a[0].s : ",";
            if (!n) sep = " ";
            const char *p = self.s;
            for (;;) {
                const char *q = *sep ? strstr(p, sep) : NULL;
                if (!q) { hp_seq_push(H, s, hstr(p)); break; }
                hp_seq_push(H, s, hstr(arena_strndup(&H->a, p, (size_t)(q - p))));
                p = q + strlen(sep);
            }
            return hseq(H_LIST, s);
        }
        if (!strcmp(m, "join")) {
            HSeq *in = hp_iter_items(F, a[0], loc);
            Buf bb = {0};
            for (int i = 0; i < in->n; i++) {
                if (in->v[i].kind != H_STR) { buf_free(&bb); FAIL(F, TC_ERR_ARG, loc, "TypeError: sequence item %d: expected str instance, %s found", i, hp_tname(&in->v[i])); }
                if (i) buf_puts(&bb, self.s);
                buf_puts(&bb, in->v[i].s);
            }
            HV r = hstr(arena_strdup(&H->a, bb.s ? bb.s : ""));
            buf_free(&bb);
            return r;
        }
        break;
    case H_TENSOR:
        if (!strcmp(m, "stride")) {
            int64_t st[TC_MAX_RANK];
            int64_t acc = 1;
            for (int i = self.t->rank - 1; i >= 0; i--) { st[i] = acc; acc *= self.t->shape[i]; }
            if (n) {
                int64_t d = hp_want_int(F, a[0], loc, "dim");
                if (d < 0) d += self.t->rank;
                if (d < 0 || d >= self.t->rank) FAIL(F, TC_ERR_ARG, loc, "IndexError: Dimension out of range");
                return hint(st[d]);
            }
            HSeq *s = hp_seq_new(H);
            for (int i = 0; i < self.t->rank; i++) hp_seq_push(H, s, hint(st[i]));
            return hseq(H_TUPLE, s);
        }
        if (!strcmp(m, "size")) {
            if (!n) return tensor_shape(H, self.t);
            int64_t d = hp_want_int(F, a[0], loc, "dim");
            if (d < 0) d += self.t->rank;
            if (d < 0 || d >= self.t->rank) FAIL(F, TC_ERR_ARG, loc, "IndexError: Dimension out of range");
            return hint(self.t->shape[d]);
        }
        if (!strcmp(m, "numel")) return hint(self.t->numel);
        if (!strcmp(m, "element_size")) return hint((int64_t)tc_dtype_size(self.t->dtype));
        if (!strcmp(m, "dim")) return hint(self.t->rank);
        FAIL(F, TC_ERR_UNSUPPORTED, loc, "tensor.%s() is host code that works on the tensor's data; "
             "tritonc's host subset sees a tensor's name, dtype, shape and strides only", m);
    case H_OBJ:
        if (!strcmp(m, "all_kwargs")) {
            HV r = call_builtin(F, "builtins.dict", hp_dict_get(self.o->attrs, "kwargs"), 1, NULL, NULL, 0, loc);
            static const char *const o[] = {"num_warps", "num_ctas", "num_stages", "maxnreg"};
            for (int i = 0; i < COUNT_OF(o); i++) {
                HV *v = hp_dict_get(self.o->attrs, o[i]);
                if (v) hp_dict_sets(H, r.d, o[i], *v);
            }
            return r;
        }
        break;
    }
    FAIL(F, TC_ERR_UNSUPPORTED, loc, "%s.%s() is not in tritonc's host subset", hp_tname(&self), m);
}

HV hp_call_value(Frame *F, HV f, HV *args, int n, const char **kwn, HV *kwv, int nkw, SrcLoc loc) {
    switch (f.kind) {
    case H_FUNC: return hp_call_function(F, f.fn, args, n, kwn, kwv, nkw, loc);
    case H_NS: return call_builtin(F, f.s, args, n, kwn, kwv, nkw, loc);
    case H_METHOD: return hp_call_method(F, *f.self, f.s, args, n, kwn, kwv, nkw, loc);
    }
    FAIL(F, TC_ERR_ARG, loc, "TypeError: '%s' object is not callable", hp_tname(&f));
}
