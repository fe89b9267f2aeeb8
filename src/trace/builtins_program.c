/* builtins_program.c — what a program asks of the compiler and says back: program_id and
 * num_programs, the hints (multiple_of, max_contiguous, max_constancy, assume), static_assert
 * and static_print (at trace time), device_print and device_assert (at run time; assertions
 * only with TRITON_DEBUG=1), debug_barrier, and tl.constexpr(value). */
#include "trace/sem.h"

#include <stdlib.h>
#include <string.h>

/* str() of a value, as Python's print shows it after unwrapping constexprs */
static void val_str(Trace *t, const Val *v, Buf *b) {
    char buf[512];
    switch (v->kind) {
    case V_CONST:
        if (v->c.kind == CV_STR) buf_puts(b, v->c.v.s);
        else { cv_repr(&v->c, buf, sizeof buf); buf_puts(b, buf); }
        return;
    case V_TENSOR:
        if (v->type.dt == DT_PTR) buf_printf(b, "pointer<%s>[", sem_tl_name(v->type.elem));
        else buf_printf(b, "%s[", sem_tl_name(v->type.dt));
        for (int i = 0; i < v->type.rank; i++) buf_printf(b, i ? ", constexpr[%d]" : "constexpr[%d]", v->type.shape[i]);
        buf_puts(b, "]");
        return;
    case V_TUPLE:
        buf_puts(b, "(");
        for (int i = 0; i < v->n; i++) {
            if (i) buf_puts(b, ", ");
            if (v->items[i].kind == V_CONST) { cv_repr(&v->items[i].c, buf, sizeof buf); buf_puts(b, buf); }
            else val_str(t, &v->items[i], b);
        }
        buf_puts(b, v->n == 1 ? ",)" : ")");
        return;
    case V_BLOCKPTR: sem_bptr_str(v, buf, sizeof buf); buf_puts(b, buf); return;
    case V_FUNC: buf_printf(b, "JITFunction(%s)", v->fn ? v->fn->name : "?"); return;
    case V_BUILTIN: case V_MODULE: buf_puts(b, v->path ? v->path : "?"); return;
    default: buf_puts(b, "None"); return;
    }
}

static Val device_print_v(Call *c, const Val *prefixv, const Val *args, int nargs, bool hex) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!prefixv || prefixv->kind != V_CONST || prefixv->c.kind != CV_STR) {
        Buf b = {0};
        if (prefixv) val_str(t, prefixv, &b);
        char *s = arena_strdup(t->arena, b.s ? b.s : "None");
        buf_free(&b);
        FAIL("%s is not string", s);
    }
    const char *p = prefixv->c.v.s;
    for (const char *q = p; *q; q++)
        if ((unsigned char)*q >= 0x7f || ((unsigned char)*q < 0x20 && !strchr("\t\n\r\x0b\x0c", *q)))
            FAIL("%s is not an ascii string", p);
    int *ids = arena_alloc(t->arena, sizeof(int) * (size_t)(nargs ? nargs : 1));
    for (int i = 0; i < nargs; i++) ids[i] = sem_to_tensor(t, args[i], loc).id;
    /* semantic.device_print: prefix ends in ": " when there are args, starts with " " */
    size_t n = strlen(p);
    char *pre = arena_alloc(t->arena, n + 4);
    memcpy(pre, p, n + 1);
    if (nargs) {
        if (n == 0 || pre[n - 1] != ' ') { pre[n++] = ' '; pre[n] = 0; }
        if (!(n >= 2 && pre[n - 2] == ':' && pre[n - 1] == ' ')) {
            pre[n - 1] = ':'; pre[n++] = ' '; pre[n] = 0;
        }
    }
    if (n > 2 && pre[0] != ' ') {
        memmove(pre + 1, pre, n + 1);
        pre[0] = ' ';
    }
    Attr at = {0};
    at.str = pre;
    at.kind = hex ? 1 : 0;
    sem_emit(t, OP_PRINT, ids, nargs, type_scalar(DT_VOID), at, loc);
    return val_void();
}

static Val static_print_v(Call *c, const Val *vals, int n, const char *sep, const char *end) {
    Trace *t = c->t;
    if (!t->out) return val_void();
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(t->out, sep);
        val_str(t, &vals[i], t->out);
    }
    buf_puts(t->out, end);
    return val_void();
}

static Val hint_v(Call *c, Val x, const Val *values, const char *name) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_to_tensor(t, x, loc);
    int n = values ? sem_tuple_len(values) : -1;
    if (values && n < 0) {
        sem_arg_int(c, values, "values");
        n = 1;
    } else if (values) {
        for (int i = 0; i < n; i++) {
            Val it = sem_tuple_item(values, i);
            sem_arg_int(c, &it, "values");
        }
    }
    int rank = x.type.rank > 1 ? x.type.rank : 1;
    if (values && n != rank) FAIL("Shape of input to %s does not match the length of values", name);
    return x;
}

static Val h_program_id(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int64_t axis = sem_arg_int(c, a[0], "axis");
    if (axis < 0 || axis > 2) FAIL("%s axis must be 0, 1, or 2 but got %lld", c->b->name, (long long)axis);
    Attr at = {0};
    at.axis = (int)axis;
    return sem_emit_v(t, c->b->arg, NULL, 0, type_scalar(DT_I32), at, loc);
}

static Val h_hint(Call *c, Val **a) { return hint_v(c, *a[0], a[1], c->b->name); }

static Val h_assume(Call *c, Val **a) { return val_void(); }

static Val h_static_assert(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!a[0] || a[0]->kind != V_CONST || a[0]->c.kind != CV_BOOL)
        FAIL("Assertion condition could not be determined at compile-time. Make sure that it "
             "depends only on `constexpr` values");
    if (!a[0]->c.v.i) {
        if (a[1]) {
            Buf b = {0};
            val_str(t, a[1], &b);
            char *m = arena_strdup(t->arena, b.s ? b.s : "");
            buf_free(&b);
            if (*m) FAIL("static_assert failed: %s", m);
        }
        FAIL("static_assert failed");
    }
    return val_void();
}

static Val h_static_print(Call *c, Val **a) {
    return static_print_v(c, c->rest, c->nrest, sem_arg_str(c, a[0], " ", "sep"), sem_arg_str(c, a[1], "\n", "end"));
}

static Val h_device_print(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!a[0] && c->npos == 0) FAIL("device_print() missing 1 required positional argument: 'prefix'");
    Val none = val_const(cv_none());
    return device_print_v(c, a[0] ? a[0] : &none, c->rest, c->nrest, sem_arg_bool(c, a[1], false, "hex"));
}

static Val h_device_assert(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val cond = sem_to_tensor(t, *a[0], loc);
    if (cond.type.dt != DT_I1) cond = sem_cast_impl(t, cond, type_scalar(DT_I1), 0, loc);
    if (a[2]) {
        /* masked-off lanes pass: cond | ~mask */
        Val m = sem_to_tensor(t, *a[2], loc);
        if (m.type.dt != DT_I1) m = sem_cast_impl(t, m, type_scalar(DT_I1), 0, loc);
        m = sem_emit1(t, OP_NOT, m, m.type, loc);
        sem_bcast_pair(t, &cond, &m, loc);
        cond = sem_emit2(t, OP_OR, cond, m, cond.type, 0, loc);
    }
    const char *msg = sem_arg_str(c, a[1], "", "msg");
    /* semantic.device_assert: compiled away unless debugging (jit(debug=True) or
     * TRITON_DEBUG=1, as trace.c) */
    if (!t->debug && !trace_debug()) return val_void();
    Attr at = {0};
    at.str = arena_strdup(t->arena, msg);
    sem_emit(t, OP_ASSERT, &cond.id, 1, type_scalar(DT_VOID), at, loc);
    return val_void();
}

static Val h_debug_barrier(Call *c, Val **a) {
    Attr at = {0};
    sem_emit(c->t, OP_BARRIER, NULL, 0, type_scalar(DT_VOID), at, c->loc);
    return val_void();
}

static Val h_constexpr(Call *c, Val **a) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (a[0] && a[0]->kind != V_CONST) FAIL("constexpr() value must be known at compile time");
    return a[0] ? *a[0] : val_const(cv_none());
}

const Builtin sem_builtins_program[] = {
    {"program_id", "axis", h_program_id, OP_PROGRAM_ID},
    {"num_programs", "axis", h_program_id, OP_NUM_PROGRAMS},
    {"multiple_of", "input,values", h_hint, 0},
    {"max_contiguous", "input,values", h_hint, 0},
    {"max_constancy", "input,values", h_hint, 0},
    {"assume", "cond", h_assume, 0},
    {"static_assert", "cond,msg?", h_static_assert, 0},
    {"static_print", "*,sep?,end?,file?,flush?", h_static_print, 0},
    {"device_print", "prefix,*,hex?", h_device_print, 0},
    {"device_assert", "cond,msg?,mask?", h_device_assert, 0},
    {"debug_barrier", "", h_debug_barrier, 0},
    {"constexpr", "value", h_constexpr, 0},
    {NULL, NULL, NULL, 0},
};
