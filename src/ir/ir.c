/* ir.c — building and printing the tile IR. The verifier is in verify.c. */
#include "ir/ir.h"

#include <string.h>

const char *const op_names[OP_COUNT] = {
#define OP(name, str, nargs) str,
#include "ir/ops.h"
#undef OP
};

#define MATH_NAME(e, s) s,
const char *const math_fn_names[MF_COUNT] = {MATH_FNS(MATH_NAME)};
#undef MATH_NAME

const int op_nargs[OP_COUNT] = {
#define OP(name, str, nargs) nargs,
#include "ir/ops.h"
#undef OP
};

IrFunc *ir_func_new(Arena *a, const char *name) {
    IrFunc *f = arena_alloc(a, sizeof *f);
    f->arena = a;
    f->name = arena_strdup(a, name);
    f->body = ir_region_new(f);
    return f;
}

int ir_value_new(IrFunc *f, Type t, SrcLoc loc) {
    if (f->nvalues >= f->cap_values) {
        int cap = f->cap_values;
        f->types = arena_grow(f->arena, f->types, &cap, f->nvalues + 1, sizeof *f->types);
        cap = f->cap_values;
        f->value_locs =
            arena_grow(f->arena, f->value_locs, &cap, f->nvalues + 1, sizeof *f->value_locs);
        f->cap_values = cap;
    }
    f->types[f->nvalues] = t;
    f->value_locs[f->nvalues] = loc;
    return f->nvalues++;
}

int ir_param_add(IrFunc *f, const char *name, Type t, bool div16, SrcLoc loc) {
    IrParam *p = arena_alloc(f->arena, sizeof *p * (size_t)(f->nparams + 1));
    if (f->nparams) memcpy(p, f->params, sizeof *p * (size_t)f->nparams);
    f->params = p;
    IrParam *np = &f->params[f->nparams++];
    np->name = arena_strdup(f->arena, name);
    np->type = t;
    np->div16 = div16;
    np->value = ir_value_new(f, t, loc);
    return np->value;
}

Region *ir_region_new(IrFunc *f) { return arena_alloc(f->arena, sizeof(Region)); }

int ir_region_param(IrFunc *f, Region *r, Type t, SrcLoc loc) {
    int v = ir_value_new(f, t, loc);
    int *p = arena_alloc(f->arena, sizeof *p * (size_t)(r->nparams + 1));
    if (r->nparams) memcpy(p, r->params, sizeof *p * (size_t)r->nparams);
    p[r->nparams++] = v;
    r->params = p;
    return v;
}

Inst *ir_emit(IrFunc *f, Region *r, int op, const int *args, int nargs, Type rt, SrcLoc loc) {
    Inst *in = arena_alloc(f->arena, sizeof *in);
    in->op = (uint16_t)op;
    in->loc = loc;
    in->nargs = nargs;
    if (nargs) {
        in->args = arena_alloc(f->arena, sizeof(int) * (size_t)nargs);
        memcpy(in->args, args, sizeof(int) * (size_t)nargs);
    }
    if (rt.dt != DT_VOID) ir_inst_add_result(f, in, rt);
    ARENA_PUSH(f->arena, r->insts, r->ninsts, r->cap, in);
    return in;
}

int ir_inst_add_result(IrFunc *f, Inst *in, Type t) {
    int v = ir_value_new(f, t, in->loc);
    int *res = arena_alloc(f->arena, sizeof(int) * (size_t)(in->nres + 1));
    if (in->nres) memcpy(res, in->res, sizeof(int) * (size_t)in->nres);
    res[in->nres++] = v;
    in->res = res;
    return v;
}

/* ---- printing ------------------------------------------------------------------------ */

static void print_value(const IrFunc *f, Buf *b, int v) {
    if (v < 0) { buf_puts(b, "_"); return; }
    char ty[128];
    type_str(f->types[v], ty, sizeof ty);
    buf_printf(b, "%%%d: %s", v, ty);
}

static void print_region(const IrFunc *f, const Region *r, Buf *b, int indent);

static void print_inst(const IrFunc *f, const Inst *in, Buf *b, int indent) {
    buf_printf(b, "%*s", indent, "");
    for (int i = 0; i < in->nres; i++) {
        if (i) buf_puts(b, ", ");
        print_value(f, b, in->res[i]);
    }
    if (in->nres) buf_puts(b, " = ");
    buf_puts(b, op_names[in->op]);
    switch (in->op) {
    case OP_CONST:
        if (dt_is_float(f->types[in->res[0]].dt)) {
            char num[40];
            fmt_double_repr(in->attr.f, num, sizeof num);
            buf_printf(b, " %s", num);
        } else {
            buf_printf(b, " %lld", (long long)in->attr.i);
        }
        break;
    case OP_PROGRAM_ID: case OP_NUM_PROGRAMS: case OP_EXPAND_DIMS:
        buf_printf(b, " axis=%d", in->attr.axis);
        break;
    case OP_REDUCE: {
        static const char *const k[] = {"sum", "max", "min", "argmax", "argmin", "xor", "or", "and"};
        buf_printf(b, " %s axis=%d", in->attr.kind >= 0 && in->attr.kind < 8 ? k[in->attr.kind] : "?",
                   in->attr.axis);
        break;
    }
    case OP_CMP: {
        static const char *const k[] = {"eq", "ne", "lt", "le", "gt", "ge"};
        buf_printf(b, " %s", in->attr.kind >= 0 && in->attr.kind < 6 ? k[in->attr.kind] : "?");
        break;
    }
    case OP_ARANGE: buf_printf(b, " start=%lld", (long long)in->attr.i); break;
    case OP_FOR:
        if (in->attr.i) buf_printf(b, " num_stages=%lld", (long long)in->attr.i);
        break;
    case OP_PERMUTE: {
        int rank = in->nres ? f->types[in->res[0]].rank : 0;
        buf_puts(b, " perm=(");
        for (int i = 0; i < rank; i++) buf_printf(b, i ? ",%d" : "%d", in->attr.perm[i]);
        buf_puts(b, ")");
        break;
    }
    case OP_MATH1: case OP_MATH2:
        buf_printf(b, " %s", in->attr.kind >= 0 && in->attr.kind < MF_COUNT ? math_fn_names[in->attr.kind] : "?");
        break;
    case OP_ATOMIC: case OP_SHR: case OP_MAX: case OP_MIN: case OP_DOT: case OP_CAST:
        buf_printf(b, " kind=%d", in->attr.kind);
        break;
    default: break;
    }
    if (in->attr.str) buf_printf(b, " \"%s\"", in->attr.str);
    for (int i = 0; i < in->nargs; i++) {
        buf_puts(b, i ? ", " : " ");
        if (in->args[i] < 0) buf_puts(b, "_");
        else buf_printf(b, "%%%d", in->args[i]);
    }
    buf_puts(b, "\n");
    for (int i = 0; i < 2; i++)
        if (in->regions[i]) print_region(f, in->regions[i], b, indent + 2);
}

static void print_region(const IrFunc *f, const Region *r, Buf *b, int indent) {
    buf_printf(b, "%*s{", indent, "");
    if (r->nparams) {
        buf_puts(b, " (");
        for (int i = 0; i < r->nparams; i++) {
            if (i) buf_puts(b, ", ");
            print_value(f, b, r->params[i]);
        }
        buf_puts(b, ")");
    }
    buf_puts(b, "\n");
    for (int i = 0; i < r->ninsts; i++) print_inst(f, r->insts[i], b, indent + 2);
    buf_printf(b, "%*s}\n", indent, "");
}

int ir_count(const Region *r, int op) {
    int n = 0;
    for (int i = 0; i < r->ninsts; i++) {
        n += op < 0 || r->insts[i]->op == op;
        for (int k = 0; k < 2; k++)
            if (r->insts[i]->regions[k]) n += ir_count(r->insts[i]->regions[k], op);
    }
    return n;
}

void ir_print(const IrFunc *f, Buf *b) {
    buf_printf(b, "func %s(", f->name);
    for (int i = 0; i < f->nparams; i++) {
        if (i) buf_puts(b, ", ");
        buf_printf(b, "%s ", f->params[i].name);
        print_value(f, b, f->params[i].value);
        if (f->params[i].div16) buf_puts(b, " {div16}");
    }
    buf_puts(b, ")\n");
    print_region(f, f->body, b, 0);
}
