/* semantic.c — what operations mean, as Triton's semantic.py / core.py / standard.py /
 * math.py define it: literal typing, weak Python scalars, promotion, broadcasting, casts,
 * pointer arithmetic and every tl.* builtin. The tracer (trace.c) evaluates expressions and
 * calls in here; everything emitted obeys src/ops.h (operands of element-wise ops already
 * share the result's shape and, except CMP/WHERE/ADDPTR/CAST, its dtype). */
#include "trace/trace.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) err_fail(t->err, TC_ERR_COMPILE, loc, __VA_ARGS__)
#define UNSUP(...) err_fail(t->err, TC_ERR_UNSUPPORTED, loc, __VA_ARGS__)
#define MAX_NUMEL (1 << 20)

/* ---- small helpers ------------------------------------------------------------------- */

static Val mk_const(CVal c) { Val v; memset(&v, 0, sizeof v); v.kind = V_CONST; v.c = c; return v; }
static Val mk_tensor(int id, Type ty) {
    Val v; memset(&v, 0, sizeof v); v.kind = V_TENSOR; v.id = id; v.type = ty; return v;
}
static Val mk_void(void) { Val v; memset(&v, 0, sizeof v); v.kind = V_VOID; return v; }
static Val mk_tuple(Trace *t, const Val *items, int n) {
    Val v; memset(&v, 0, sizeof v);
    v.kind = V_TUPLE;
    v.n = n;
    v.items = arena_alloc(t->arena, sizeof(Val) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) v.items[i] = items[i];
    return v;
}
static CVal cv_dtype_of(Type elem) {
    CVal c = {0};
    c.kind = CV_DTYPE;
    c.dtype = elem.dt;
    c.elem = elem.dt == DT_PTR ? elem.elem : 0;
    return c;
}

static bool is_num(const Val *v) {
    return v->kind == V_CONST &&
           (v->c.kind == CV_INT || v->c.kind == CV_BOOL || v->c.kind == CV_FLOAT);
}
static double cv_num(const CVal *c) {
    if (c->kind == CV_FLOAT) return c->v.f;
    if (c->big) return (double)c->v.u;
    return (double)c->v.i;
}
static bool cv_negative(const CVal *c) {
    if (c->kind == CV_FLOAT) return c->v.f < 0;
    return !c->big && c->v.i < 0;
}

/* Triton's dtype.name: "int8", "uint32", "int1", "fp16", "bf16", "fp32". */
static const char *tl_name(int d) {
    switch (d) {
    case DT_I1: return "int1";
    case DT_I8: return "int8";
    case DT_I16: return "int16";
    case DT_I32: return "int32";
    case DT_I64: return "int64";
    case DT_U8: return "uint8";
    case DT_U16: return "uint16";
    case DT_U32: return "uint32";
    case DT_U64: return "uint64";
    case DT_VOID: return "void";
    default: return dt_name(d);
    }
}
/* Triton's dtype.__repr__ ("triton.language.float32"), pointers "pointer<fp32>". */
static const char *tl_repr(Trace *t, Type e) {
    static const char *const cg[DT_COUNT] = {
        [DT_I1] = "int1", [DT_I8] = "int8", [DT_I16] = "int16", [DT_I32] = "int32",
        [DT_I64] = "int64", [DT_U8] = "uint8", [DT_U16] = "uint16", [DT_U32] = "uint32",
        [DT_U64] = "uint64", [DT_FP16] = "float16", [DT_BF16] = "bfloat16",
        [DT_FP32] = "float32", [DT_FP64] = "float64", [DT_VOID] = "void"};
    if (e.dt == DT_PTR) return arena_printf(t->arena, "pointer<%s>", tl_name(e.elem));
    return arena_printf(t->arena, "triton.language.%s", e.dt < DT_COUNT && cg[e.dt] ? cg[e.dt] : "?");
}
static const char *type_s(Trace *t, Type ty) {
    char buf[160];
    type_str(ty, buf, sizeof buf);
    return arena_strdup(t->arena, buf);
}
static const char *shape_s(Trace *t, int rank, const int32_t *shape) {
    char buf[160];
    size_t o = 0;
    o += (size_t)snprintf(buf, sizeof buf, "[");
    for (int i = 0; i < rank && o < sizeof buf; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, i ? ", %d" : "%d", shape[i]);
    if (o < sizeof buf) snprintf(buf + o, sizeof buf - o, "]");
    return arena_strdup(t->arena, buf);
}

static Type elem_of(Type ty) { return type_elem(ty); }
static Type scalar_t(int dt) { return type_scalar(dt); }
static bool same_elem(Type a, Type b) { return a.dt == b.dt && (a.dt != DT_PTR || a.elem == b.elem); }

/* dtype kind as Triton orders it: BOOLEAN < INTEGRAL < FLOATING */
static int dt_kind(int d) { return d == DT_I1 ? 0 : dt_is_int(d) ? 1 : 2; }

static void check_shape(Trace *t, int rank, const int32_t *shape, SrcLoc loc) {
    if (rank > TC_MAX_RANK) UNSUP("tensors of rank %d are not supported by tritonc (at most %d)", rank, TC_MAX_RANK);
    int64_t numel = 1;
    for (int i = 0; i < rank; i++) {
        if (!is_pow2(shape[i])) FAIL("Shape element %d must be a power of 2", i);
        numel *= shape[i];
    }
    if (numel > MAX_NUMEL)
        FAIL("numel (%lld) exceeds triton maximum tensor numel (%d)", (long long)numel, MAX_NUMEL);
}

int sem_emit(Trace *t, int op, const int *args, int nargs, Type rt, Attr attr, SrcLoc loc) {
    Inst *in = ir_emit(t->f, t->cur, op, args, nargs, rt, loc);
    in->attr = attr;
    return rt.dt != DT_VOID ? in->res[0] : -1;
}

static Val emit_v(Trace *t, int op, const int *args, int nargs, Type rt, Attr attr, SrcLoc loc) {
    int id = sem_emit(t, op, args, nargs, rt, attr, loc);
    return mk_tensor(id, rt);
}
static Val emit1(Trace *t, int op, Val a, Type rt, SrcLoc loc) {
    Attr at = {0};
    return emit_v(t, op, &a.id, 1, rt, at, loc);
}
static Val emit2(Trace *t, int op, Val a, Val b, Type rt, int kind, SrcLoc loc) {
    Attr at = {0};
    at.kind = kind;
    int args[2] = {a.id, b.id};
    return emit_v(t, op, args, 2, rt, at, loc);
}

/* ---- constants ------------------------------------------------------------------------ */

static double round_float(double x, int mant, int emin, double maxv) {
    if (!isfinite(x) || x == 0) return x;
    int e2;
    frexp(x, &e2);
    int e = e2 - 1;
    if (e < emin) e = emin;
    double ulp = ldexp(1.0, e - mant);
    double r = nearbyint(x / ulp) * ulp;
    if (fabs(r) > maxv) return copysign(INFINITY, x);
    return r;
}
/* The value Triton's builder.get_<dtype>(value) produces (Python float -> C float first
 * for 16/32-bit types), as a double. */
static double round_to_dtype(double x, int dt) {
    switch (dt) {
    case DT_FP64: return x;
    case DT_FP32: return (double)(float)x;
    case DT_FP16: return round_float((double)(float)x, 10, -14, 65504.0);
    case DT_BF16: return round_float((double)(float)x, 7, -126, 3.3895313892515355e38);
    default: return x;
    }
}
static int64_t wrap_int(int64_t v, int dt) {
    switch (dt) {
    case DT_I1: return v != 0;
    case DT_I8: return (int8_t)v;
    case DT_I16: return (int16_t)v;
    case DT_I32: return (int32_t)v;
    case DT_U8: return (uint8_t)v;
    case DT_U16: return (uint16_t)v;
    case DT_U32: return (uint32_t)v;
    default: return v;
    }
}

/* A CONST of type ty (scalar or block) holding the Python number c converted to ty's
 * element type. */
static Val emit_const(Trace *t, Type ty, const CVal *c, SrcLoc loc) {
    Attr at = {0};
    int dt = ty.dt;
    if (dt_is_float(dt)) {
        at.f = round_to_dtype(cv_num(c), dt);
    } else if (dt_is_int(dt)) {
        int64_t i;
        if (c->kind == CV_FLOAT) {
            double f = c->v.f;
            if (dt == DT_I1) i = f != 0;
            else if (!isfinite(f) || fabs(f) >= 9.2e18) FAIL("cannot convert %g to %s", f, tl_name(dt));
            else i = (int64_t)f;
        } else {
            i = c->v.i;
        }
        at.i = wrap_int(i, dt);
    } else {
        at.i = c->kind == CV_FLOAT ? (int64_t)c->v.f : c->v.i;
    }
    return emit_v(t, OP_CONST, NULL, 0, ty, at, loc);
}
static Val const_num(Trace *t, Type ty, double f, SrcLoc loc) {
    CVal c = f == floor(f) && fabs(f) < 9e18 ? cv_int((int64_t)f) : cv_float(f);
    if (dt_is_float(ty.dt)) c = cv_float(f);
    return emit_const(t, ty, &c, loc);
}

Val sem_to_tensor(Trace *t, Val v, SrcLoc loc) {
    if (v.kind == V_TENSOR) return v;
    if (v.kind == V_CONST) {
        int dt;
        if (literal_dtype(&v.c, &dt)) return emit_const(t, scalar_t(dt), &v.c, loc);
        char buf[128];
        cv_repr(&v.c, buf, sizeof buf);
        FAIL("cannot convert %s of type %s to tensor", buf,
             v.c.kind == CV_NONE ? "NoneType" : v.c.kind == CV_STR ? "str"
             : v.c.kind == CV_DTYPE ? "dtype" : "tuple");
    }
    if (v.kind == V_TUPLE) FAIL("cannot convert a tuple to a tensor");
    FAIL("expected a tensor or a number here");
}

/* ---- shapes ----------------------------------------------------------------------------- */

static Val splat(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc) {
    if (rank == 0) return v;
    check_shape(t, rank, shape, loc);
    return emit1(t, OP_SPLAT, v, type_with_shape(v.type, rank, shape), loc);
}

static Val reshape_v(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc) {
    if (v.type.rank == rank) {
        bool same = true;
        for (int i = 0; i < rank; i++) same = same && v.type.shape[i] == shape[i];
        if (same) return v;
    }
    if (v.type.rank == 0) return splat(t, v, rank, shape, loc);
    check_shape(t, rank, shape, loc);
    return emit1(t, OP_RESHAPE, v, type_with_shape(v.type, rank, shape), loc);
}

/* Triton's broadcast_impl_shape: equal rank (scalars splat), size-1 dims stretched. */
Val sem_broadcast_to(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    if (v.type.rank == 0) return splat(t, v, rank, shape, loc);
    const int32_t *src = v.type.shape;
    if (v.type.rank != rank)
        FAIL("Cannot broadcast, rank mismatch: %s, %s", shape_s(t, v.type.rank, src),
             shape_s(t, rank, shape));
    bool same = true;
    for (int i = 0; i < rank; i++) {
        if (shape[i] != src[i] && src[i] != 1)
            FAIL("Cannot broadcast, the expanded size of the tensor (%d) must match the existing "
                 "size (%d) at non-singleton dimension %d: %s, %s",
                 shape[i], src[i], i, shape_s(t, rank, src), shape_s(t, rank, shape));
        same = same && shape[i] == src[i];
    }
    if (same) return v;
    check_shape(t, rank, shape, loc);
    return emit1(t, OP_BROADCAST, v, type_with_shape(v.type, rank, shape), loc);
}

/* Triton's broadcast_impl_value: both operands to their common (numpy) shape. */
static void bcast_pair(Trace *t, Val *a, Val *b, SrcLoc loc) {
    Type ta = a->type, tb = b->type;
    if (ta.rank == 0 && tb.rank == 0) return;
    if (ta.rank == 0) { *a = splat(t, *a, tb.rank, tb.shape, loc); return; }
    if (tb.rank == 0) { *b = splat(t, *b, ta.rank, ta.shape, loc); return; }
    int rank;
    int32_t shape[TC_MAX_RANK];
    char msg[256];
    if (!broadcast_shapes(&ta, &tb, &rank, shape, msg, sizeof msg)) FAIL("%s", msg);
    Val *ops[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        Val *x = ops[k];
        if (x->type.rank < rank) {
            int32_t s[TC_MAX_RANK + 1];
            int pad = rank - x->type.rank;
            for (int i = 0; i < rank; i++) s[i] = i < pad ? 1 : x->type.shape[i - pad];
            *x = reshape_v(t, *x, rank, s, loc);
        }
        *x = sem_broadcast_to(t, *x, rank, shape, loc);
    }
}

/* ---- casts ------------------------------------------------------------------------------ */

static Val ne_zero(Trace *t, Val v, SrcLoc loc) {
    CVal z = dt_is_float(v.type.dt) ? cv_float(0) : cv_int(0);
    Val zero = emit_const(t, v.type, &z, loc);
    return emit2(t, OP_CMP, v, zero, type_with_shape(scalar_t(DT_I1), v.type.rank, v.type.shape),
                 CMP_NE, loc);
}

/* Triton's semantic.cast; rounding 1 = rtz for truncating float casts. */
static Val cast_impl(Trace *t, Val v, Type elem, int rounding, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    Type src = v.type;
    int s = src.dt, d = elem.dt;
    if (same_elem(elem_of(src), elem)) return v;
    Type rt = type_with_shape(elem, src.rank, src.shape);
    if ((s == DT_FP16 || s == DT_BF16) && d != DT_FP32) {
        Val mid = cast_impl(t, v, scalar_t(DT_FP32), 0, loc);
        return cast_impl(t, mid, elem, rounding, loc);
    }
    bool truncate_fp = dt_is_float(s) && dt_is_float(d) && dt_bits(s) > dt_bits(d);
    if (rounding && !truncate_fp)
        FAIL("fp_downcast_rounding should be set only for truncating fp conversions, source scalar "
             "type is %s and destination type is %s", tl_name(s), tl_name(d == DT_PTR ? DT_I64 : d));
    Attr at = {0};
    if (truncate_fp) {
        at.kind = rounding;
        return emit_v(t, OP_CAST, &v.id, 1, rt, at, loc);
    }
    if (dt_is_float(s) && dt_is_float(d)) return emit_v(t, OP_CAST, &v.id, 1, rt, at, loc);
    if ((dt_is_int(s) || dt_is_float(s)) && d == DT_I1) return ne_zero(t, v, loc);
    if ((dt_is_int(s) || dt_is_float(s)) && (dt_is_int(d) || dt_is_float(d)))
        return emit_v(t, OP_CAST, &v.id, 1, rt, at, loc);
    if (s == DT_PTR && dt_is_int(d)) {
        if (dt_bits(d) == 64) return emit_v(t, OP_BITCAST, &v.id, 1, rt, at, loc);
        if (d == DT_I1) return ne_zero(t, cast_impl(t, v, scalar_t(DT_I64), 0, loc), loc);
    }
    if (dt_is_int(s) && d == DT_PTR) {
        if (dt_bits(s) != 64) v = cast_impl(t, v, scalar_t(dt_is_signed(s) ? DT_I64 : DT_U64), 0, loc);
        return emit_v(t, OP_BITCAST, &v.id, 1, rt, at, loc);
    }
    if (s == DT_PTR && d == DT_PTR) return emit_v(t, OP_BITCAST, &v.id, 1, rt, at, loc);
    FAIL("cannot cast %s to %s", type_s(t, src), type_s(t, rt));
}

static Val bitcast_impl(Trace *t, Val v, Type elem, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    if (v.type.dt == DT_PTR || elem.dt == DT_PTR) return cast_impl(t, v, elem, 0, loc);
    int sb = dt_bits(v.type.dt), db = dt_bits(elem.dt);
    if (sb != db)
        FAIL("Cannot bitcast data-type of size %d to data-type of size %d", sb, db);
    if (same_elem(elem_of(v.type), elem)) return v;
    Attr at = {0};
    return emit_v(t, OP_BITCAST, &v.id, 1, type_with_shape(elem, v.type.rank, v.type.shape), at, loc);
}

Val sem_cast(Trace *t, Val v, Type elem, bool bitcast, SrcLoc loc) {
    elem = elem_of(elem);
    return bitcast ? bitcast_impl(t, v, elem, loc) : cast_impl(t, v, elem, 0, loc);
}

/* ---- binary operators --------------------------------------------------------------------- */

static bool op_in(const char *op, const char *const *set) {
    for (; *set; set++)
        if (strcmp(op, *set) == 0) return true;
    return false;
}
static const char *const CMP_OPS[] = {"<", "<=", ">", ">=", "==", "!=", NULL};

static void check_ptr_operands(Trace *t, Type a, Type b, bool allow, SrcLoc loc) {
    if (a.dt != DT_PTR) return;
    if (!allow || (b.dt == DT_PTR && !same_elem(a, b)) || dt_is_float(b.dt))
        FAIL("invalid operands of type %s and %s", tl_repr(t, a), tl_repr(t, b));
}

static void scalar_range_check(Trace *t, const CVal *c, int r, SrcLoc loc) {
    if (cv_negative(c) && dt_is_unsigned(r) && c->kind != CV_FLOAT)
        FAIL("Cannot perform a binary operation between an unsigned tensor and a negative scalar. "
             "Perform a explicit cast on one of them.");
    if (!dt_is_int(r) || c->kind == CV_FLOAT) return;
    bool ok;
    int bits = dt_bits(r);
    if (c->big) ok = r == DT_U64;
    else if (dt_is_unsigned(r)) ok = c->v.i >= 0 && (bits == 64 || c->v.i <= (int64_t)((1ULL << bits) - 1));
    else ok = bits == 64 || (c->v.i >= -(1LL << (bits - 1)) && c->v.i <= (1LL << (bits - 1)) - 1);
    if (!ok) {
        char buf[64];
        cv_repr(c, buf, sizeof buf);
        FAIL("Scalar %s is out of range for type %s", buf, tl_name(r));
    }
}

/* Triton's binary_op_type_checking_impl: a and b become tensors of one shape; unless a
 * pointer is involved (or !arith), both are cast to the computation type, with Python
 * numbers treated as weak scalars. */
static void bin_check(Trace *t, const char *op, Val *a, Val *b, bool lptr, bool rptr, bool arith,
                      SrcLoc loc) {
    bool as = a->kind == V_CONST, bs = b->kind == V_CONST;
    if (as && !is_num(a)) *a = sem_to_tensor(t, *a, loc); /* fails with Triton's message */
    if (bs && !is_num(b)) *b = sem_to_tensor(t, *b, loc);
    if (a->kind != V_CONST && a->kind != V_TENSOR) FAIL("unsupported operand for '%s'", op);
    if (b->kind != V_CONST && b->kind != V_TENSOR) FAIL("unsupported operand for '%s'", op);
    Type ta, tb;
    int d;
    if (as) { literal_dtype(&a->c, &d); ta = scalar_t(d); } else ta = elem_of(a->type);
    if (bs) { literal_dtype(&b->c, &d); tb = scalar_t(d); } else tb = elem_of(b->type);
    check_ptr_operands(t, ta, tb, lptr, loc);
    check_ptr_operands(t, tb, ta, rptr, loc);
    if (arith && ta.dt != DT_PTR && tb.dt != DT_PTR) {
        char msg[512];
        int r;
        if (as != bs) {
            Type st = as ? ta : tb, tt = as ? tb : ta;
            if (dt_kind(st.dt) <= dt_kind(tt.dt)) r = promote_dtypes(tt.dt, tt.dt, op, msg, sizeof msg);
            else r = promote_dtypes(ta.dt, tb.dt, op, msg, sizeof msg);
        } else {
            r = promote_dtypes(ta.dt, tb.dt, op, msg, sizeof msg);
        }
        if (r == DT_VOID) FAIL("%s", msg);
        if (as) scalar_range_check(t, &a->c, r, loc);
        if (bs) scalar_range_check(t, &b->c, r, loc);
        *a = as ? emit_const(t, scalar_t(r), &a->c, loc) : cast_impl(t, *a, scalar_t(r), 0, loc);
        *b = bs ? emit_const(t, scalar_t(r), &b->c, loc) : cast_impl(t, *b, scalar_t(r), 0, loc);
    } else {
        *a = sem_to_tensor(t, *a, loc);
        *b = sem_to_tensor(t, *b, loc);
    }
    bcast_pair(t, a, b, loc);
}

static Type i1_like(Type ty) { return type_with_shape(scalar_t(DT_I1), ty.rank, ty.shape); }

static Val sub_from_zero(Trace *t, Val x, SrcLoc loc) {
    Val zero = const_num(t, x.type, 0, loc);
    return emit2(t, OP_SUB, zero, x, x.type, 0, loc);
}

static Val add_ptr(Trace *t, Val p, Val off, SrcLoc loc) {
    if (dt_is_unsigned(off.type.dt) && dt_bits(off.type.dt) < 64)
        off = cast_impl(t, off, scalar_t(DT_I64), 0, loc);
    return emit2(t, OP_ADDPTR, p, off, p.type, 0, loc);
}

Val sem_binary(Trace *t, const char *op, Val a, Val b, SrcLoc loc) {
    static const char *const known[] = {"+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>",
                                        "<", "<=", ">", ">=", "==", "!=", NULL};
    if (!op_in(op, known)) {
        if (strcmp(op, "@") == 0) FAIL("AST binary operator 'MatMult' is not implemented");
        if (strcmp(op, "**") == 0) FAIL("unsupported operand type(s) for ** or pow(): 'tensor'");
        FAIL("unsupported binary operator '%s'", op);
    }
    bool cmp = op_in(op, CMP_OPS);
    if (cmp) {
        /* comparisons convert Python numbers to typed tensors first (strong typing) */
        if (a.kind == V_CONST) a = sem_to_tensor(t, a, loc);
        if (b.kind == V_CONST) b = sem_to_tensor(t, b, loc);
    }
    /* >> is arithmetic when the tensor operand it dispatches on is signed */
    bool shr_signed = a.kind == V_TENSOR ? dt_is_signed(a.type.dt)
                      : b.kind == V_TENSOR ? dt_is_signed(b.type.dt) : false;
    bool is_add = strcmp(op, "+") == 0, is_sub = strcmp(op, "-") == 0;
    bin_check(t, op, &a, &b, is_add || is_sub, is_add, true, loc);
    Type rt = a.type;
    if (is_add) {
        if (a.type.dt == DT_PTR && b.type.dt == DT_PTR) FAIL("cannot add pointers together");
        if (b.type.dt == DT_PTR) { Val x = a; a = b; b = x; }
        if (a.type.dt == DT_PTR) return add_ptr(t, a, b, loc);
        return emit2(t, OP_ADD, a, b, rt, 0, loc);
    }
    if (is_sub) {
        if (a.type.dt == DT_PTR) return add_ptr(t, a, sub_from_zero(t, b, loc), loc);
        return emit2(t, OP_SUB, a, b, rt, 0, loc);
    }
    if (strcmp(op, "*") == 0) return emit2(t, OP_MUL, a, b, rt, 0, loc);
    if (strcmp(op, "/") == 0) {
        if (dt_is_int(a.type.dt)) {
            a = cast_impl(t, a, scalar_t(DT_FP32), 0, loc);
            b = cast_impl(t, b, scalar_t(DT_FP32), 0, loc);
        }
        return emit2(t, OP_DIV, a, b, a.type, 0, loc);
    }
    if (strcmp(op, "//") == 0) return emit2(t, OP_DIV, a, b, rt, 0, loc);
    if (strcmp(op, "%") == 0) return emit2(t, OP_REM, a, b, rt, 0, loc);
    if (strcmp(op, "&") == 0) return emit2(t, OP_AND, a, b, rt, 0, loc);
    if (strcmp(op, "|") == 0) return emit2(t, OP_OR, a, b, rt, 0, loc);
    if (strcmp(op, "^") == 0) return emit2(t, OP_XOR, a, b, rt, 0, loc);
    if (strcmp(op, "<<") == 0) return emit2(t, OP_SHL, a, b, rt, 0, loc);
    if (strcmp(op, ">>") == 0) return emit2(t, OP_SHR, a, b, rt, shr_signed ? 1 : 0, loc);
    int kind = strcmp(op, "==") == 0 ? CMP_EQ : strcmp(op, "!=") == 0 ? CMP_NE
             : strcmp(op, "<") == 0 ? CMP_LT : strcmp(op, "<=") == 0 ? CMP_LE
             : strcmp(op, ">") == 0 ? CMP_GT : CMP_GE;
    return emit2(t, OP_CMP, a, b, i1_like(rt), kind, loc);
}

static Val to_i1_logical(Trace *t, Val v, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    if (v.type.dt != DT_I1) v = bitcast_impl(t, v, scalar_t(DT_I1), loc);
    return v;
}

Val sem_unary(Trace *t, const char *op, Val a, SrcLoc loc) {
    a = sem_to_tensor(t, a, loc);
    if (strcmp(op, "+") == 0) return a;
    if (strcmp(op, "-") == 0) {
        if (a.type.dt == DT_PTR)
            FAIL("wrong type argument to unary minus (%s)", tl_repr(t, elem_of(a.type)));
        return sub_from_zero(t, a, loc);
    }
    if (strcmp(op, "~") == 0) {
        if (a.type.dt == DT_PTR || dt_is_float(a.type.dt))
            FAIL("wrong type argument to unary invert (%s)", tl_repr(t, elem_of(a.type)));
        return emit1(t, OP_NOT, a, a.type, loc);
    }
    if (strcmp(op, "not") == 0) {
        a = to_i1_logical(t, a, loc);
        return emit1(t, OP_NOT, a, a.type, loc);
    }
    FAIL("unsupported unary operator '%s'", op);
}

Val sem_logical(Trace *t, const char *op, Val a, Val b, SrcLoc loc) {
    a = to_i1_logical(t, a, loc);
    b = to_i1_logical(t, b, loc);
    bcast_pair(t, &a, &b, loc);
    if (strcmp(op, "and") == 0) return emit2(t, OP_AND, a, b, a.type, 0, loc);
    if (strcmp(op, "or") == 0) return emit2(t, OP_OR, a, b, a.type, 0, loc);
    FAIL("unsupported logical operator '%s'", op);
}

/* ---- calls: argument binding ---------------------------------------------------------- */

typedef struct Call {
    Trace *t;
    const char *fname;    /* for messages: "load" */
    SrcLoc loc;
    Val *pos; int npos;   /* positional arguments (a bound self first) */
    const char **kwn; Val *kwv; int nkw;
    Val *rest; int nrest; /* extra positionals of a *args function */
    bool method;          /* called as tensor.NAME */
} Call;

/* spec: "input,axis?,*,keep_dims?" — names in order; '?' = optional; after '*' keyword-only
 * names, and extra positionals go to c->rest (only when '*' is present). Returns the bound
 * values in out[] (NULL when absent or None). */
static void bind(Call *c, const char *spec, Val **out) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    char names[16][40];
    bool opt[16];
    int n = 0, npos_params = -1;
    const char *p = spec;
    while (*p && n < 16) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 1 && *p == '*') {
            npos_params = n;
        } else {
            if (len >= sizeof names[0]) len = sizeof names[0] - 1;
            memcpy(names[n], p, len);
            names[n][len] = 0;
            opt[n] = len > 0 && names[n][len - 1] == '?';
            if (opt[n]) names[n][len - 1] = 0;
            n++;
        }
        p = e ? e + 1 : p + len;
    }
    bool varargs = npos_params >= 0;
    if (!varargs) npos_params = n;
    for (int i = 0; i < n; i++) out[i] = NULL;
    c->rest = NULL;
    c->nrest = 0;
    int take = c->npos < npos_params ? c->npos : npos_params;
    if (c->npos > npos_params) {
        if (!varargs)
            FAIL("%s() takes %d positional argument%s but %d %s given", c->fname, npos_params,
                 npos_params == 1 ? "" : "s", c->npos, c->npos == 1 ? "was" : "were");
        c->rest = c->pos + npos_params;
        c->nrest = c->npos - npos_params;
    }
    for (int i = 0; i < take; i++) out[i] = &c->pos[i];
    for (int k = 0; k < c->nkw; k++) {
        int idx = -1;
        for (int i = 0; i < n; i++)
            if (strcmp(names[i], c->kwn[k]) == 0) idx = i;
        if (idx < 0) FAIL("%s() got an unexpected keyword argument '%s'", c->fname, c->kwn[k]);
        if (out[idx]) FAIL("%s() got multiple values for argument '%s'", c->fname, c->kwn[k]);
        out[idx] = &c->kwv[k];
    }
    for (int i = 0; i < n; i++) {
        /* an optional argument given as None counts as absent; a required one stays None */
        if (opt[i] && out[i] && out[i]->kind == V_CONST && out[i]->c.kind == CV_NONE) out[i] = NULL;
        if (!out[i] && !opt[i])
            FAIL("%s() missing 1 required positional argument: '%s'", c->fname, names[i]);
    }
}

static int64_t arg_int(Call *c, const Val *v, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!v || v->kind != V_CONST || (v->c.kind != CV_INT && v->c.kind != CV_BOOL))
        FAIL("%s() argument '%s' must be a constexpr int", c->fname, what);
    return v->c.v.i;
}
static bool arg_bool(Call *c, const Val *v, bool dflt, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!v) return dflt;
    if (v->kind != V_CONST || (v->c.kind != CV_INT && v->c.kind != CV_BOOL))
        FAIL("%s() argument '%s' must be a constexpr bool", c->fname, what);
    return v->c.v.i != 0;
}
static const char *arg_str(Call *c, const Val *v, const char *dflt, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!v) return dflt;
    if (v->kind != V_CONST || v->c.kind != CV_STR)
        FAIL("%s() argument '%s' must be a constexpr string", c->fname, what);
    return v->c.v.s;
}
static Type arg_dtype(Call *c, const Val *v, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (v && v->kind == V_CONST && v->c.kind == CV_DTYPE) {
        if (v->c.dtype == DT_PTR) return type_ptr(v->c.elem);
        return scalar_t(v->c.dtype);
    }
    if (v && v->kind == V_CONST && v->c.kind == CV_STR) {
        int d = dtype_from_tl_name(v->c.v.s);
        if (d != DT_VOID) return scalar_t(d);
    }
    if (v && (v->kind == V_BUILTIN || v->kind == V_MODULE) && v->path && strstr(v->path, "float8"))
        UNSUP("fp8 dtypes (%s) are not supported by tritonc", v->path);
    FAIL("%s() argument '%s' must be a dtype", c->fname, what);
}

static int tuple_len(const Val *v) {
    if (v->kind == V_TUPLE) return v->n;
    if (v->kind == V_CONST && v->c.kind == CV_TUPLE) return v->c.v.tup.n;
    return -1;
}
static Val tuple_item(const Val *v, int i) {
    if (v->kind == V_TUPLE) return v->items[i];
    return mk_const(v->c.v.tup.items[i]);
}

/* A shape from `*shape` varargs or a single tuple/list argument (_unwrap_iterable). */
static void arg_shape_list(Call *c, const Val *items, int n, int *rank, int32_t *shape) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    const Val *src = items;
    Val tmp[TC_MAX_RANK + 1];
    if (n == 1 && tuple_len(&items[0]) >= 0) {
        n = tuple_len(&items[0]);
        if (n > TC_MAX_RANK) UNSUP("tensors of rank %d are not supported by tritonc (at most %d)", n, TC_MAX_RANK);
        for (int i = 0; i < n; i++) tmp[i] = tuple_item(&items[0], i);
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
    check_shape(t, n, shape, loc);
}
static void arg_shape(Call *c, const Val *v, int *rank, int32_t *shape) {
    if (v && v->kind == V_CONST && v->c.kind == CV_INT) {
        arg_shape_list(c, v, 1, rank, shape);
        return;
    }
    if (!v || tuple_len(v) < 0) {
        Trace *t = c->t;
        SrcLoc loc = c->loc;
        FAIL("%s(): shape must be a tuple of constexpr ints", c->fname);
    }
    arg_shape_list(c, v, 1, rank, shape);
}

/* ---- shape operations -------------------------------------------------------------------- */

static Val expand_dims1(Trace *t, Val v, int axis, SrcLoc loc) {
    int32_t s[TC_MAX_RANK + 1];
    int r = v.type.rank;
    if (r + 1 > TC_MAX_RANK) UNSUP("tensors of rank %d are not supported by tritonc (at most %d)", r + 1, TC_MAX_RANK);
    for (int i = 0, j = 0; i <= r; i++) s[i] = i == axis ? 1 : v.type.shape[j++];
    if (r == 0) return splat(t, v, 1, s, loc);
    Attr at = {0};
    at.axis = axis;
    return emit_v(t, OP_EXPAND_DIMS, &v.id, 1, type_with_shape(v.type, r + 1, s), at, loc);
}

static int wrap_axis(Trace *t, int64_t axis, int ndim, SrcLoc loc) {
    if (axis < -ndim || axis >= ndim)
        FAIL("invalid axis %lld. Expected %d <= axis < %d", (long long)axis, -ndim, ndim);
    return (int)(axis < 0 ? axis + ndim : axis);
}

static Val expand_dims_v(Call *c, Val x, const Val *axisv) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_to_tensor(t, x, loc);
    int64_t axes[TC_MAX_RANK + 1];
    int na;
    if (axisv && tuple_len(axisv) >= 0) {
        na = tuple_len(axisv);
        if (na > TC_MAX_RANK) UNSUP("too many axes");
        for (int i = 0; i < na; i++) {
            Val it = tuple_item(axisv, i);
            axes[i] = arg_int(c, &it, "axis");
        }
    } else {
        na = 1;
        axes[0] = arg_int(c, axisv, "axis");
    }
    int nd = x.type.rank + na;
    int w[TC_MAX_RANK + 1];
    for (int i = 0; i < na; i++) {
        w[i] = wrap_axis(t, axes[i], nd, loc);
        for (int j = 0; j < i; j++)
            if (w[j] == w[i]) {
                char buf[64];
                size_t o = 0;
                for (int k = 0; k < na && o < sizeof buf; k++) {
                    int ak = (int)(axes[k] < 0 ? axes[k] + nd : axes[k]);
                    o += (size_t)snprintf(buf + o, sizeof buf - o, k ? ", %d" : "%d", ak);
                }
                FAIL("expand_dims received duplicate axes, normalized axes = [%s]", buf);
            }
    }
    /* sorted insertion */
    for (int i = 0; i < na; i++)
        for (int j = i + 1; j < na; j++)
            if (w[j] < w[i]) { int x2 = w[i]; w[i] = w[j]; w[j] = x2; }
    for (int i = 0; i < na; i++) x = expand_dims1(t, x, w[i], loc);
    return x;
}

static Val permute_v(Trace *t, Val x, const int *dims, int n, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    if (x.type.rank != n) FAIL("permute dims must have the same length as input shape");
    bool seen[TC_MAX_RANK] = {0};
    for (int i = 0; i < n; i++) {
        if (dims[i] < 0 || dims[i] >= n || seen[dims[i]]) {
            char buf[64];
            size_t o = 0;
            for (int k = 0; k < n && o < sizeof buf; k++)
                o += (size_t)snprintf(buf + o, sizeof buf - o, k ? ", %d" : "%d", dims[k]);
            FAIL("permute dims must be a permutation of 0, 1, ..., n-1, but were (%s%s)", buf,
                 n == 1 ? "," : "");
        }
        seen[dims[i]] = true;
    }
    bool ident = true;
    int32_t s[TC_MAX_RANK + 1];
    Attr at = {0};
    for (int i = 0; i < n; i++) {
        s[i] = x.type.shape[dims[i]];
        at.perm[i] = (int8_t)dims[i];
        ident = ident && dims[i] == i;
    }
    if (ident) return x;
    return emit_v(t, OP_PERMUTE, &x.id, 1, type_with_shape(x.type, n, s), at, loc);
}

static Val reshape_checked(Trace *t, Val x, int rank, const int32_t *shape, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    if (n != type_numel(x.type)) FAIL("reshape() cannot change total number of elements in tensor");
    if (rank == 0) {
        if (x.type.rank == 0) return x;
        return emit1(t, OP_RESHAPE, x, type_elem(x.type), loc);
    }
    return reshape_v(t, x, rank, shape, loc);
}

/* numpy broadcast of v to shape, allowing rank extension (leading 1s). */
static Val bcast_ext(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    if (v.type.rank > 0 && v.type.rank < rank) {
        int32_t s[TC_MAX_RANK + 1];
        int pad = rank - v.type.rank;
        for (int i = 0; i < rank; i++) s[i] = i < pad ? 1 : v.type.shape[i - pad];
        v = reshape_v(t, v, rank, s, loc);
    }
    return sem_broadcast_to(t, v, rank, shape, loc);
}

/* join(a, b): a new trailing dimension of size 2, built from where(arange(0, 2) == 0, a, b). */
static Val join_v(Trace *t, Val a, Val b, SrcLoc loc) {
    a = sem_to_tensor(t, a, loc);
    b = sem_to_tensor(t, b, loc);
    bcast_pair(t, &a, &b, loc);
    if (!same_elem(elem_of(a.type), elem_of(b.type)))
        FAIL("join() requires operands of the same dtype, got %s and %s", tl_name(a.type.dt),
             tl_name(b.type.dt));
    int r = a.type.rank;
    a = expand_dims1(t, a, r, loc);
    b = expand_dims1(t, b, r, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i < r; i++) s[i] = a.type.shape[i];
    s[r] = 2;
    check_shape(t, r + 1, s, loc);
    a = sem_broadcast_to(t, a, r + 1, s, loc);
    b = sem_broadcast_to(t, b, r + 1, s, loc);
    Attr at = {0};
    int32_t two = 2;
    Val idx = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &two), at, loc);
    Val zero = const_num(t, idx.type, 0, loc);
    Val sel = emit2(t, OP_CMP, idx, zero, i1_like(idx.type), CMP_EQ, loc);
    sel = bcast_ext(t, sel, r + 1, s, loc);
    int args[3] = {sel.id, a.id, b.id};
    return emit_v(t, OP_WHERE, args, 3, a.type, at, loc);
}

static Val reduce_axis(Trace *t, Val x, int axis, int kind, SrcLoc loc);

/* split(a): the inverse of join; the last dimension must be 2. */
static Val split_v(Trace *t, Val a, SrcLoc loc) {
    a = sem_to_tensor(t, a, loc);
    int r = a.type.rank;
    if (r == 0 || a.type.shape[r - 1] != 2)
        FAIL("split: last dimension must have size 2, got shape %s", shape_s(t, r, a.type.shape));
    if (!dt_is_int(a.type.dt) && !dt_is_float(a.type.dt)) UNSUP("split() of pointers is not supported by tritonc");
    Attr at = {0};
    int32_t two = 2;
    Val idx = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &two), at, loc);
    Val outs[2];
    for (int k = 0; k < 2; k++) {
        Val kk = const_num(t, idx.type, k, loc);
        Val sel = emit2(t, OP_CMP, idx, kk, i1_like(idx.type), CMP_EQ, loc);
        sel = bcast_ext(t, sel, r, a.type.shape, loc);
        /* x + (-0.0) == x exactly for floats; x | 0 == x for integers */
        Val fill = dt_is_float(a.type.dt) ? const_num(t, a.type, -0.0, loc)
                                          : const_num(t, a.type, 0, loc);
        int args[3] = {sel.id, a.id, fill.id};
        Val m = emit_v(t, OP_WHERE, args, 3, a.type, at, loc);
        outs[k] = reduce_axis(t, m, r - 1, dt_is_float(a.type.dt) ? RED_SUM : RED_OR, loc);
    }
    return mk_tuple(t, outs, 2);
}

/* ---- reductions ------------------------------------------------------------------------------ */

static Val reduce_axis(Trace *t, Val x, int axis, int kind, SrcLoc loc) {
    int32_t s[TC_MAX_RANK + 1];
    int r = x.type.rank;
    for (int i = 0, j = 0; i < r; i++)
        if (i != axis) s[j++] = x.type.shape[i];
    Type et = (kind == RED_ARGMAX || kind == RED_ARGMIN) ? scalar_t(DT_I32) : elem_of(x.type);
    Attr at = {0};
    at.kind = kind;
    at.axis = axis;
    return emit_v(t, OP_REDUCE, &x.id, 1, type_with_shape(et, r - 1, s), at, loc);
}

/* core.reduce for one input: axis None flattens; keep_dims re-inserts size-1 dims. */
static Val do_reduce(Call *c, Val x, const Val *axisv, int kind, bool keep) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int orig_rank = x.type.rank;
    int axis;
    if (!axisv) {
        if (x.type.rank != 1) {
            int32_t n = (int32_t)type_numel(x.type);
            x = reshape_v(t, x, 1, &n, loc);
        }
        axis = 0;
    } else {
        int64_t a = arg_int(c, axisv, "axis");
        if (x.type.rank == 0) FAIL("reduction axis must be < inputs rank (0)");
        axis = wrap_axis(t, a, x.type.rank, loc);
    }
    Val r = reduce_axis(t, x, axis, kind, loc);
    if (keep) {
        if (axisv) {
            r = expand_dims1(t, r, axis, loc);
        } else if (orig_rank > 0) {
            int32_t ones[TC_MAX_RANK];
            for (int i = 0; i < orig_rank; i++) ones[i] = 1;
            r = reshape_v(t, r, orig_rank, ones, loc);
        }
    }
    return r;
}

static Val promote_bf16(Trace *t, Val x, SrcLoc loc) {
    if (x.type.dt == DT_BF16) return cast_impl(t, x, scalar_t(DT_FP32), 0, loc);
    return x;
}

/* ---- memory ---------------------------------------------------------------------------------- */

static void check_cache(Call *c, const char *s, bool load) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    static const char *const ld[] = {"", ".ca", ".cg", ".cv", NULL};
    static const char *const st[] = {"", ".wb", ".cg", ".cs", ".wt", NULL};
    if (!op_in(s, load ? ld : st)) FAIL("Cache modifier %s not supported", s);
}
static void check_evict(Call *c, const char *s) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    static const char *const ev[] = {"", "evict_last", "evict_first", "evict_normal", NULL};
    if (!op_in(s, ev)) FAIL("Eviction policy %s not supported", s);
}
static bool nonempty_seq(const Val *v) {
    if (!v) return false;
    int n = tuple_len(v);
    if (n >= 0) return n > 0;
    if (v->kind == V_CONST && v->c.kind == CV_STR) return v->c.v.s[0] != 0;
    return true;
}
static Val ptr_as_i8(Trace *t, Val ptr, SrcLoc loc) {
    Attr at = {0};
    return emit_v(t, OP_BITCAST, &ptr.id, 1, type_with_shape(type_ptr(DT_I8), ptr.type.rank, ptr.type.shape),
                  at, loc);
}
static void check_ptr_arg(Call *c, Val ptr, const char *what) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (ptr.kind != V_TENSOR || ptr.type.dt != DT_PTR) {
        Type ty = ptr.kind == V_TENSOR ? ptr.type : scalar_t(DT_I32);
        FAIL("Unsupported ptr type %s in `tl.%s`", tl_repr(t, elem_of(ty)), what);
    }
}

static Val do_load(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[8];
    bind(c, "pointer,mask?,other?,boundary_check?,padding_option?,cache_modifier?,eviction_policy?,volatile?", a);
    if (a[0]->kind == V_CONST) *a[0] = sem_to_tensor(t, *a[0], loc);
    Val ptr = *a[0];
    check_ptr_arg(c, ptr, "load");
    bool has_mask = a[1] != NULL, has_other = a[2] != NULL;
    Val mask = has_mask ? sem_to_tensor(t, *a[1], loc) : mk_void();
    Val other = has_other ? sem_to_tensor(t, *a[2], loc) : mk_void();
    if (!has_mask && has_other) FAIL("`other` cannot be provided without `mask`");
    if (nonempty_seq(a[3]) || nonempty_seq(a[4]))
        FAIL("`padding_option` or `boundary_check` argument is not supported for loading a tensor of"
             "pointers or loading a scalar. Because the compiler does not know the boundary; please "
             "use block pointers (defined by `make_block_ptr`) instead");
    check_cache(c, arg_str(c, a[5], "", "cache_modifier"), true);
    check_evict(c, arg_str(c, a[6], "", "eviction_policy"));
    bool vol = arg_bool(c, a[7], false, "volatile");
    if (ptr.type.rank == 0) {
        if (has_mask && mask.type.rank > 0)
            FAIL("Mask argument cannot be block type if pointer argument is not a block");
        if (has_other && other.type.rank > 0)
            FAIL("Other argument cannot be block type if pointer argument is not a block");
    } else {
        if (has_mask) bcast_pair(t, &ptr, &mask, loc);
        if (has_other) {
            bcast_pair(t, &ptr, &other, loc);
            if (has_mask) mask = sem_broadcast_to(t, mask, ptr.type.rank, ptr.type.shape, loc);
        }
    }
    if (has_mask && mask.type.dt != DT_I1) FAIL("Mask must have boolean scalar type");
    int elem = ptr.type.elem;
    bool is_bool = elem == DT_I1;
    if (is_bool) { ptr = ptr_as_i8(t, ptr, loc); elem = DT_I8; }
    if (has_other) other = cast_impl(t, other, scalar_t(elem), 0, loc);
    Attr at = {0};
    at.kind = vol ? 1 : 0;
    int args[3] = {ptr.id, has_mask ? mask.id : -1, has_other ? other.id : -1};
    Val r = emit_v(t, OP_LOAD, args, 3, type_block(elem, ptr.type.rank, ptr.type.shape), at, loc);
    if (is_bool) r = cast_impl(t, r, scalar_t(DT_I1), 0, loc);
    return r;
}

static Val do_store(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[6];
    bind(c, "pointer,value,mask?,boundary_check?,cache_modifier?,eviction_policy?", a);
    if (a[0]->kind == V_CONST) *a[0] = sem_to_tensor(t, *a[0], loc);
    Val ptr = *a[0];
    check_ptr_arg(c, ptr, "store");
    if (!a[1]) FAIL("store() missing 1 required positional argument: 'value'");
    Val val = sem_to_tensor(t, *a[1], loc);
    bool has_mask = a[2] != NULL;
    Val mask = has_mask ? sem_to_tensor(t, *a[2], loc) : mk_void();
    if (nonempty_seq(a[3]))
        FAIL("`boundary_check` argument is not supported for storing a tensor of pointers or storing a "
             "scalar. Because the compiler does not know the boundary; please use block pointers "
             "(defined by `make_block_ptr`) instead");
    check_cache(c, arg_str(c, a[4], "", "cache_modifier"), false);
    check_evict(c, arg_str(c, a[5], "", "eviction_policy"));
    if (ptr.type.rank == 0) {
        if (val.type.rank > 0) FAIL("Value argument cannot be block type if pointer argument is not a block");
        if (has_mask && mask.type.rank > 0)
            FAIL("Mask argument cannot be block type if pointer argument is not a block");
    } else {
        int rank;
        int32_t shape[TC_MAX_RANK];
        char msg[256];
        Type pt = ptr.type;
        if (!broadcast_shapes(&ptr.type, &val.type, &rank, shape, msg, sizeof msg)) FAIL("%s", msg);
        Type tmp = type_block(DT_I32, rank, shape);
        if (has_mask && !broadcast_shapes(&tmp, &mask.type, &rank, shape, msg, sizeof msg)) FAIL("%s", msg);
        bool same = rank == pt.rank;
        for (int i = 0; same && i < rank; i++) same = shape[i] == pt.shape[i];
        if (!same)
            FAIL("Expected pointer argument to have shape %s but got %s", shape_s(t, rank, shape),
                 shape_s(t, pt.rank, pt.shape));
        val = bcast_ext(t, val, pt.rank, pt.shape, loc);
        if (has_mask) mask = bcast_ext(t, mask, pt.rank, pt.shape, loc);
    }
    int elem = ptr.type.elem;
    if (elem == DT_I1) { ptr = ptr_as_i8(t, ptr, loc); elem = DT_I8; }
    val = cast_impl(t, val, scalar_t(elem), 0, loc);
    if (has_mask && mask.type.dt != DT_I1) FAIL("Mask must have boolean scalar type");
    Attr at = {0};
    int args[3] = {ptr.id, val.id, has_mask ? mask.id : -1};
    sem_emit(t, OP_STORE, args, 3, scalar_t(DT_VOID), at, loc);
    return mk_void();
}

static void check_sem_scope(Call *c, const Val *sem, const Val *scope) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    static const char *const sems[] = {"", "acquire", "release", "acq_rel", "relaxed", NULL};
    static const char *const scopes[] = {"", "gpu", "cta", "sys", NULL};
    const char *s = arg_str(c, sem, "", "sem");
    if (!op_in(s, sems)) FAIL("Memory semantic %s not supported", s);
    s = arg_str(c, scope, "", "scope");
    if (!op_in(s, scopes)) FAIL("Memory semantic %s not supported", s);
}

/* The pointer operand of an atomic (a constexpr is made a tensor first, then refused). */
static Val atomic_pointer(Call *c, Val *p) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (p->kind == V_CONST) *p = sem_to_tensor(t, *p, loc);
    if (p->kind != V_TENSOR || p->type.dt != DT_PTR)
        FAIL("Pointer argument of store instruction is %s",
             p->kind == V_TENSOR ? tl_repr(t, elem_of(p->type)) : "a constant");
    return *p;
}

static Val do_atomic(Call *c, const char *opname, int kind) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[5];
    bind(c, "pointer,val,mask?,sem?,scope?", a);
    Val ptr = atomic_pointer(c, a[0]);
    if (!a[1]) FAIL("atomic_%s() missing 1 required positional argument: 'val'", opname);
    check_sem_scope(c, a[3], a[4]);
    int elem = ptr.type.elem;
    if (elem == DT_FP16 && kind != ATOM_ADD) FAIL("atomic_%s does not support fp16", opname);
    if (elem == DT_BF16 && kind != ATOM_ADD) FAIL("atomic_%s does not support bf16", opname);
    if (elem == DT_I1 || elem == DT_I8 || elem == DT_I16 || elem == DT_U8 || elem == DT_U16)
        FAIL("atomic_%s does not support %s", opname, tl_name(elem));
    if (dt_is_float(elem) && (kind == ATOM_AND || kind == ATOM_OR || kind == ATOM_XOR))
        FAIL("atomic_%s does not support %s", opname, tl_name(elem));
    Val val = sem_to_tensor(t, *a[1], loc);
    bool has_mask = a[2] != NULL;
    Val mask = has_mask ? sem_to_tensor(t, *a[2], loc) : mk_void();
    if (ptr.type.rank > 0) {
        val = sem_broadcast_to(t, val, ptr.type.rank, ptr.type.shape, loc);
        if (has_mask) mask = sem_broadcast_to(t, mask, ptr.type.rank, ptr.type.shape, loc);
    } else {
        if (val.type.rank > 0) FAIL("Value argument cannot be block type if pointer argument is not a block");
        if (has_mask && mask.type.rank > 0)
            FAIL("Mask argument cannot be block type if pointer argument is not a block");
    }
    val = cast_impl(t, val, scalar_t(elem), 0, loc);
    if (has_mask && mask.type.dt != DT_I1) FAIL("Mask must have boolean scalar type");
    Attr at = {0};
    at.kind = kind;
    int args[3] = {ptr.id, val.id, has_mask ? mask.id : -1};
    return emit_v(t, OP_ATOMIC, args, 3, val.type, at, loc);
}

static Val do_atomic_cas(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[5];
    bind(c, "pointer,cmp,val,sem?,scope?", a);
    Val ptr = atomic_pointer(c, a[0]);
    if (!a[1] || !a[2]) FAIL("atomic_cas() requires cmp and val");
    check_sem_scope(c, a[3], a[4]);
    int elem = ptr.type.elem;
    int bits = dt_bits(elem);
    if (bits != 16 && bits != 32 && bits != 64)
        FAIL("atomic_cas only supports elements with width {16, 32, 64}");
    Val cmp = sem_to_tensor(t, *a[1], loc), val = sem_to_tensor(t, *a[2], loc);
    if (ptr.type.rank > 0) {
        cmp = sem_broadcast_to(t, cmp, ptr.type.rank, ptr.type.shape, loc);
        val = sem_broadcast_to(t, val, ptr.type.rank, ptr.type.shape, loc);
    } else if (cmp.type.rank > 0 || val.type.rank > 0) {
        FAIL("Value argument cannot be block type if pointer argument is not a block");
    }
    cmp = cast_impl(t, cmp, scalar_t(elem), 0, loc);
    val = cast_impl(t, val, scalar_t(elem), 0, loc);
    Attr at = {0};
    int args[3] = {ptr.id, cmp.id, val.id};
    return emit_v(t, OP_ATOMIC_CAS, args, 3, val.type, at, loc);
}

/* ---- dot ------------------------------------------------------------------------------------- */

static Val do_dot(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[7];
    bind(c, "input,other,acc?,input_precision?,allow_tf32?,max_num_imprecise_acc?,out_dtype?", a);
    if (!a[1]) FAIL("dot() missing 1 required positional argument: 'other'");
    Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
    if (a[3] && a[4]) FAIL("Only one of input_precision and allow_tf32 can be specified");
    int prec = DOT_TF32;
    if (a[3]) {
        const char *p = arg_str(c, a[3], "", "input_precision");
        if (strcmp(p, "tf32") == 0) prec = DOT_TF32;
        else if (strcmp(p, "tf32x3") == 0) prec = DOT_TF32X3;
        else if (strcmp(p, "ieee") == 0) prec = DOT_IEEE;
        else if (strcmp(p, "bf16x3") == 0 || strcmp(p, "bf16x6") == 0 || strcmp(p, "hf32") == 0)
            UNSUP("input_precision=\"%s\" is not supported by tritonc", p);
        else FAIL("input_precision must be one of ('tf32', 'tf32x3', 'ieee'). Got %s", p);
    } else if (a[4] && !arg_bool(c, a[4], true, "allow_tf32")) {
        prec = DOT_IEEE;
    }
    int ra = x.type.rank, rb = y.type.rank;
    if (!((ra == 2 && rb == 2) || (ra == 3 && rb == 3)))
        FAIL("Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)", shape_s(t, ra, x.type.shape),
             shape_s(t, rb, y.type.shape));
    int K = x.type.shape[ra - 1], M = x.type.shape[ra - 2], N = y.type.shape[rb - 1];
    if (y.type.shape[rb - 2] != K)
        FAIL("First input shape (%s) and second input shape %s are not compatible for matmul (second "
             "index of first shape (%d) must be equal to first index of second shape (%d)",
             shape_s(t, ra, x.type.shape), shape_s(t, rb, y.type.shape), K, y.type.shape[rb - 2]);
    if (ra == 3 && x.type.shape[0] != y.type.shape[0])
        FAIL("Batch dimensions of dot operands must match (lhs: %s vs rhs: %s)",
             shape_s(t, ra, x.type.shape), shape_s(t, rb, y.type.shape));
    int d = x.type.dt;
    if (d != y.type.dt)
        FAIL("Both operands must be same dtype. Got %s and %s", tl_name(d), tl_name(y.type.dt));
    if (!(d == DT_I8 || d == DT_U8 || d == DT_FP16 || d == DT_BF16 || d == DT_FP32 || d == DT_FP64))
        FAIL("Unsupported dtype for tl.dot: %s", tl_name(d));
    int minK = dt_bits(d) == 8 ? 32 : 16;
    if (K < minK) FAIL("Input shapes should have M >= 1, N >= 1 and K >= %d", minK);
    Type out = a[6] ? arg_dtype(c, a[6], "out_dtype") : scalar_t(DT_FP32);
    int ret;
    if (dt_is_int(d)) ret = DT_I32;
    else if (out.dt == DT_BF16)
        FAIL("out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 and cast with "
             "`.to(tl.bfloat16)`");
    else if (d == DT_FP32 || d == DT_BF16) ret = DT_FP32;
    else if (d == DT_FP64) ret = DT_FP64;
    else {
        if (out.dt != DT_FP16 && out.dt != DT_FP32) FAIL("out_dtype must be float16 or float32 for fp16 dot");
        ret = out.dt;
    }
    int32_t s[3];
    if (ra == 3) { s[0] = x.type.shape[0]; s[1] = M; s[2] = N; }
    else { s[0] = M; s[1] = N; }
    Type rt = type_block(ret, ra, s);
    Val acc;
    if (a[2]) {
        acc = sem_to_tensor(t, *a[2], loc);
        if (!type_eq(acc.type, rt))
            FAIL("acc must have type %s to match the dot result, but got %s", type_s(t, rt),
                 type_s(t, acc.type));
    } else {
        acc = const_num(t, rt, 0, loc);
    }
    Attr at = {0};
    at.kind = prec;
    int args[3] = {x.id, y.id, acc.id};
    return emit_v(t, OP_DOT, args, 3, rt, at, loc);
}

/* ---- element-wise builtins -------------------------------------------------------------------- */

static void check_float_dtype(Call *c, Val x, bool fp32_only) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (x.type.dt == DT_FP32 || (!fp32_only && x.type.dt == DT_FP64)) return;
    FAIL("Expected dtype %s but got %s", fp32_only ? "['fp32']" : "['fp32', 'fp64']",
         x.type.dt == DT_PTR ? "pointer" : tl_name(x.type.dt));
}

static int nan_mode(Call *c, const Val *v) {
    if (!v) return 0;
    if (v->kind == V_CONST && (v->c.kind == CV_INT || v->c.kind == CV_BOOL)) return v->c.v.i != 0;
    if (v->kind == V_CONST && v->c.kind == CV_STR) return strcmp(v->c.v.s, "ALL") == 0;
    if ((v->kind == V_BUILTIN || v->kind == V_MODULE) && v->path) {
        size_t n = strlen(v->path);
        if (n >= 4 && strcmp(v->path + n - 4, ".ALL") == 0) return 1;
        if (n >= 5 && strcmp(v->path + n - 5, ".NONE") == 0) return 0;
    }
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    FAIL("propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL");
}

static Val minmax(Call *c, Val x, Val y, int op, int nan) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = promote_bf16(t, sem_to_tensor(t, x, loc), loc);
    y = promote_bf16(t, sem_to_tensor(t, y, loc), loc);
    bin_check(t, "max", &x, &y, false, false, true, loc);
    if (x.type.dt == DT_PTR) FAIL("Unexpected dtype %s", tl_repr(t, elem_of(x.type)));
    return emit2(t, op, x, y, x.type, dt_is_float(x.type.dt) ? nan : 0, loc);
}

static Val where_v(Trace *t, Val cond, Val x, Val y, SrcLoc loc) {
    cond = sem_to_tensor(t, cond, loc);
    if (cond.type.dt != DT_I1) cond = cast_impl(t, cond, scalar_t(DT_I1), 0, loc);
    bin_check(t, "where", &x, &y, true, true, true, loc);
    if (x.type.dt == DT_PTR || y.type.dt == DT_PTR) {
        if (!same_elem(elem_of(x.type), elem_of(y.type)))
            FAIL("invalid operands of type %s and %s", tl_repr(t, elem_of(x.type)), tl_repr(t, elem_of(y.type)));
    }
    bcast_pair(t, &cond, &x, loc);
    bcast_pair(t, &x, &y, loc);
    cond = sem_broadcast_to(t, cond, x.type.rank, x.type.shape, loc);
    Attr at = {0};
    int args[3] = {cond.id, x.id, y.id};
    return emit_v(t, OP_WHERE, args, 3, x.type, at, loc);
}

static Val unary_math(Call *c, Val x, int op, bool fp32_only) {
    Trace *t = c->t;
    x = sem_to_tensor(t, x, c->loc);
    check_float_dtype(c, x, fp32_only);
    return emit1(t, op, x, x.type, c->loc);
}

static Val abs_v(Trace *t, Val x, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    if (dt_is_float(x.type.dt) || dt_is_signed(x.type.dt)) return emit1(t, OP_ABS, x, x.type, loc);
    if (dt_is_unsigned(x.type.dt)) return x;
    FAIL("Unexpected dtype %s", tl_repr(t, elem_of(x.type)));
}

/* Python's floor division / modulo / min / max on constexprs (triton.cdiv etc.) */
static int64_t py_floordiv(Trace *t, int64_t a, int64_t b, SrcLoc loc) {
    if (b == 0) FAIL("integer division or modulo by zero");
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

static Val cdiv_v(Call *c, Val x, Val d) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (x.kind == V_CONST && d.kind == V_CONST) {
        if (x.c.kind == CV_INT && d.c.kind == CV_INT)
            return mk_const(cv_int(py_floordiv(t, x.c.v.i + d.c.v.i - 1, d.c.v.i, loc)));
        if (is_num(&x) && is_num(&d)) {
            double dd = cv_num(&d.c);
            if (dd == 0) FAIL("float floor division by zero");
            return mk_const(cv_float(floor((cv_num(&x.c) + dd - 1) / dd)));
        }
        FAIL("cdiv() arguments must be numbers");
    }
    Val s = sem_binary(t, "+", x, d, loc);
    s = sem_binary(t, "-", s, mk_const(cv_int(1)), loc);
    return sem_binary(t, "//", s, d, loc);
}

static Val fdiv_v(Call *c, Val x, Val y) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_to_tensor(t, x, loc);
    y = sem_to_tensor(t, y, loc);
    if (!dt_is_float(x.type.dt) || !dt_is_float(y.type.dt))
        FAIL("both operands of fdiv must have floating scalar type");
    if (x.type.dt != y.type.dt)
        FAIL("both operands of fdiv must have the same type, got %s and %s", tl_name(x.type.dt),
             tl_name(y.type.dt));
    bcast_pair(t, &x, &y, loc);
    return emit2(t, OP_DIV, x, y, x.type, 0, loc);
}

/* str() of a value, as Python's print shows it after unwrapping constexprs */
static void val_str(Trace *t, const Val *v, Buf *b) {
    char buf[512];
    switch (v->kind) {
    case V_CONST:
        if (v->c.kind == CV_STR) buf_puts(b, v->c.v.s);
        else { cv_repr(&v->c, buf, sizeof buf); buf_puts(b, buf); }
        return;
    case V_TENSOR:
        if (v->type.dt == DT_PTR) buf_printf(b, "pointer<%s>[", tl_name(v->type.elem));
        else buf_printf(b, "%s[", tl_name(v->type.dt));
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
    sem_emit(t, OP_PRINT, ids, nargs, scalar_t(DT_VOID), at, loc);
    return mk_void();
}

static Val static_print_v(Call *c, const Val *vals, int n, const char *sep, const char *end) {
    Trace *t = c->t;
    if (!t->out) return mk_void();
    for (int i = 0; i < n; i++) {
        if (i) buf_puts(t->out, sep);
        val_str(t, &vals[i], t->out);
    }
    buf_puts(t->out, end);
    return mk_void();
}

static Val hint_v(Call *c, Val x, const Val *values, const char *name) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_to_tensor(t, x, loc);
    int n = values ? tuple_len(values) : -1;
    if (values && n < 0) {
        arg_int(c, values, "values");
        n = 1;
    } else if (values) {
        for (int i = 0; i < n; i++) {
            Val it = tuple_item(values, i);
            arg_int(c, &it, "values");
        }
    }
    int rank = x.type.rank > 1 ? x.type.rank : 1;
    if (values && n != rank) FAIL("Shape of input to %s does not match the length of values", name);
    return x;
}

static Val py_minmax(Call *c, Val *items, int n, bool is_max) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (n == 1 && tuple_len(&items[0]) >= 0) {
        int m = tuple_len(&items[0]);
        Val *it = arena_alloc(t->arena, sizeof(Val) * (size_t)(m ? m : 1));
        for (int i = 0; i < m; i++) it[i] = tuple_item(&items[0], i);
        items = it;
        n = m;
    }
    if (n == 0) FAIL("%s expected at least 1 argument, got 0", is_max ? "max" : "min");
    bool all_const = true;
    for (int i = 0; i < n; i++) all_const = all_const && is_num(&items[i]);
    if (all_const) {
        int best = 0;
        for (int i = 1; i < n; i++) {
            double a = cv_num(&items[i].c), b = cv_num(&items[best].c);
            if (is_max ? a > b : a < b) best = i;
        }
        return items[best];
    }
    Val r = items[0];
    for (int i = 1; i < n; i++) r = minmax(c, r, items[i], is_max ? OP_MAX : OP_MIN, 0);
    return r;
}

static Val softmax_v(Call *c, Val x, const Val *dimv, bool keep) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    x = sem_to_tensor(t, x, loc);
    Val zero = mk_const(cv_int(0));
    const Val *axis = dimv ? dimv : &zero;
    Val m = x.type.dt == DT_BF16 ? promote_bf16(t, x, loc) : x;
    if (dt_bits(m.type.dt) < 32) m = cast_impl(t, m, scalar_t(dt_is_float(m.type.dt) ? DT_FP32 : DT_I32), 0, loc);
    m = do_reduce(c, m, axis, RED_MAX, keep);
    Val z = sem_binary(t, "-", x, m, loc);
    check_float_dtype(c, z, false);
    Val num = emit1(t, OP_EXP, z, z.type, loc);
    Val den = do_reduce(c, num, axis, RED_SUM, keep);
    return fdiv_v(c, num, den);
}

static Val sum_v(Call *c, Val x, const Val *axis, bool keep, const Val *dtype) {
    Trace *t = c->t;
    x = sem_to_tensor(t, x, c->loc);
    int out = DT_VOID;
    if (dtype) out = arg_dtype(c, dtype, "dtype").dt;
    else if (dt_is_signed(x.type.dt) && dt_bits(x.type.dt) < 32) out = DT_I32;
    else if (dt_is_unsigned(x.type.dt) && dt_bits(x.type.dt) < 32) out = DT_U32;
    if (out != DT_VOID) x = cast_impl(t, x, scalar_t(out), 0, c->loc);
    return do_reduce(c, x, axis, RED_SUM, keep);
}

static Val maxmin_reduce(Call *c, bool is_max, bool argonly) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[5];
    bool ret_idx, tie_left, keep;
    if (argonly) {
        bind(c, "input,axis?,tie_break_left?,keep_dims?", a);
        ret_idx = true;
        tie_left = arg_bool(c, a[2], true, "tie_break_left");
        keep = arg_bool(c, a[3], false, "keep_dims");
    } else {
        bind(c, "input,axis?,return_indices?,return_indices_tie_break_left?,keep_dims?", a);
        ret_idx = arg_bool(c, a[2], false, "return_indices");
        tie_left = arg_bool(c, a[3], true, "return_indices_tie_break_left");
        keep = arg_bool(c, a[4], false, "keep_dims");
    }
    Val x = promote_bf16(t, sem_to_tensor(t, *a[0], loc), loc);
    if (x.type.dt == DT_PTR) FAIL("Unexpected dtype %s", tl_repr(t, elem_of(x.type)));
    if (ret_idx) {
        /* tie_break_left=False leaves the index among equal extrema unspecified; the
         * leftmost one is a valid answer */
        (void)tie_left;
        Val idx = do_reduce(c, x, a[1], is_max ? RED_ARGMAX : RED_ARGMIN, keep);
        if (argonly) return idx;
        Val v = do_reduce(c, x, a[1], is_max ? RED_MAX : RED_MIN, keep);
        Val items[2] = {v, idx};
        return mk_tuple(t, items, 2);
    }
    if (dt_bits(x.type.dt) < 32)
        x = cast_impl(t, x, scalar_t(dt_is_float(x.type.dt) ? DT_FP32 : DT_I32), 0, loc);
    return do_reduce(c, x, a[1], is_max ? RED_MAX : RED_MIN, keep);
}

/* ---- random numbers (language/random.py: Philox 4x32/4x64, traced as Triton's @jit code) ---- */

static Val kbig(uint64_t v) {
    CVal c = cv_int((int64_t)v);
    if (v >> 63) { c.big = true; c.v.u = v; }
    return mk_const(c);
}

static Val umulhi_v(Trace *t, Val x, Val y, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    y = sem_to_tensor(t, y, loc);
    bin_check(t, "umulhi", &x, &y, false, false, true, loc);
    return emit2(t, OP_UMULHI, x, y, x.type, 0, loc);
}

static void philox_v(Call *c, Val seed, Val c0, Val c1, Val c2, Val c3, int64_t rounds, Val out[4]) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    seed = sem_to_tensor(t, seed, loc);
    if (!dt_is_int(seed.type.dt)) FAIL("philox: the seed must be an integer, got %s", tl_name(seed.type.dt));
    Val cs[4] = {sem_to_tensor(t, c0, loc), sem_to_tensor(t, c1, loc), sem_to_tensor(t, c2, loc),
                 sem_to_tensor(t, c3, loc)};
    seed = cast_impl(t, seed, scalar_t(DT_U64), 0, loc);
    int bits = dt_bits(cs[0].type.dt);
    Type it;
    Val k0, k1;
    if (bits == 32) {
        it = scalar_t(DT_U32);
        Val hi = sem_binary(t, "&", sem_binary(t, ">>", seed, mk_const(cv_int(32)), loc),
                            mk_const(cv_int(0xffffffffLL)), loc);
        k1 = cast_impl(t, hi, it, 0, loc);
        k0 = cast_impl(t, sem_binary(t, "&", seed, mk_const(cv_int(0xffffffffLL)), loc), it, 0, loc);
    } else if (bits == 64) {
        it = scalar_t(DT_U64);
        int32_t one = 1;
        k1 = const_num(t, type_block(DT_U64, 1, &one), 0, loc);
        k0 = seed;
    } else {
        FAIL("static_assert failed: bitwidth not supported in philox");
    }
    for (int i = 0; i < 4; i++) cs[i] = bitcast_impl(t, cs[i], it, loc);
    uint64_t KA = bits == 32 ? 0x9E3779B9ULL : 0x9E3779B97F4A7C15ULL;
    uint64_t KB = bits == 32 ? 0xBB67AE85ULL : 0xBB67AE8584CAA73BULL;
    uint64_t RA = bits == 32 ? 0xD2511F53ULL : 0xD2E7470EE14C6C93ULL;
    uint64_t RB = bits == 32 ? 0xCD9E8D57ULL : 0xCA5A826395121157ULL;
    for (int64_t r = 0; r < rounds; r++) {
        Val A = sem_to_tensor(t, kbig(RA), loc), B = sem_to_tensor(t, kbig(RB), loc);
        Val _c0 = cs[0], _c2 = cs[2];
        cs[0] = sem_binary(t, "^", sem_binary(t, "^", umulhi_v(t, B, _c2, loc), cs[1], loc), k0, loc);
        cs[2] = sem_binary(t, "^", sem_binary(t, "^", umulhi_v(t, A, _c0, loc), cs[3], loc), k1, loc);
        cs[1] = sem_binary(t, "*", B, _c2, loc);
        cs[3] = sem_binary(t, "*", A, _c0, loc);
        k0 = sem_binary(t, "+", k0, kbig(KA), loc);
        k1 = sem_binary(t, "+", k1, kbig(KB), loc);
    }
    for (int i = 0; i < 4; i++) out[i] = cs[i];
}

static Val uint_to_uniform_float_v(Trace *t, Val x, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    Val scale;
    if (x.type.dt == DT_U32 || x.type.dt == DT_I32) {
        x = bitcast_impl(t, x, scalar_t(DT_I32), loc);
        scale = sem_to_tensor(t, mk_const(cv_float(4.6566127342e-10)), loc);
    } else if (x.type.dt == DT_U64 || x.type.dt == DT_I64) {
        x = bitcast_impl(t, x, scalar_t(DT_I64), loc);
        scale = sem_to_tensor(t, mk_const(cv_float(1.0842020432385337e-19)), loc);
    } else {
        FAIL("static_assert failed");
    }
    Val neg = sem_binary(t, "<", x, mk_const(cv_int(0)), loc);
    Val alt = sem_binary(t, "-", sem_unary(t, "-", x, loc), mk_const(cv_int(1)), loc);
    x = where_v(t, neg, alt, x, loc);
    return sem_binary(t, "*", x, scale, loc);
}

static void pair_uniform_to_normal_v(Call *c, Val u1, Val u2, Val out[2]) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    u1 = minmax(c, mk_const(cv_float(1.0e-7)), u1, OP_MAX, 0);
    Val th = sem_binary(t, "*", mk_const(cv_float(6.283185307179586)), u2, loc);
    Val lg = unary_math(c, u1, OP_LOG, false);
    Val r = unary_math(c, sem_binary(t, "*", mk_const(cv_float(-2.0)), lg, loc), OP_SQRT, false);
    out[0] = sem_binary(t, "*", r, unary_math(c, th, OP_COS, false), loc);
    out[1] = sem_binary(t, "*", r, unary_math(c, th, OP_SIN, false), loc);
}

static Val random_v(Call *c, const char *name) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[6];
    if (strcmp(name, "philox") == 0) {
        bind(c, "seed,c0,c1,c2,c3,n_rounds?", a);
        Val o[4];
        philox_v(c, *a[0], *a[1], *a[2], *a[3], *a[4], a[5] ? arg_int(c, a[5], "n_rounds") : 10, o);
        return mk_tuple(t, o, 4);
    }
    if (strcmp(name, "uint_to_uniform_float") == 0) {
        bind(c, "x", a);
        return uint_to_uniform_float_v(t, *a[0], loc);
    }
    if (strcmp(name, "pair_uniform_to_normal") == 0) {
        bind(c, "u1,u2", a);
        Val o[2];
        pair_uniform_to_normal_v(c, *a[0], *a[1], o);
        return mk_tuple(t, o, 2);
    }
    bind(c, "seed,offset,n_rounds?", a);
    int64_t rounds = a[2] ? arg_int(c, a[2], "n_rounds") : 10;
    Val off = sem_to_tensor(t, *a[1], loc);
    Val zero = sem_binary(t, "*", off, mk_const(cv_int(0)), loc);
    Val o[4];
    philox_v(c, *a[0], off, zero, zero, zero, rounds, o);
    if (strcmp(name, "randint") == 0) return o[0];
    if (strcmp(name, "randint4x") == 0) return mk_tuple(t, o, 4);
    Val u[4];
    int nu = strcmp(name, "rand") == 0 ? 1 : strcmp(name, "randn") == 0 ? 2 : 4;
    for (int i = 0; i < nu; i++) u[i] = uint_to_uniform_float_v(t, o[i], loc);
    if (strcmp(name, "rand") == 0) return u[0];
    if (strcmp(name, "rand4x") == 0) return mk_tuple(t, u, 4);
    Val n[4];
    pair_uniform_to_normal_v(c, u[0], u[1], n);
    if (strcmp(name, "randn") == 0) return n[0];
    pair_uniform_to_normal_v(c, u[2], u[3], n + 2);
    return mk_tuple(t, n, 4);
}

/* ---- standard.py helpers traced like Triton's @jit code -------------------------------------- */

/* A binary operator with Python semantics on two constexpr ints (as the tracer folds them). */
static Val arith(Trace *t, const char *op, Val a, Val b, SrcLoc loc) {
    if (a.kind == V_CONST && b.kind == V_CONST && a.c.kind == CV_INT && b.c.kind == CV_INT &&
        !a.c.big && !b.c.big) {
        int64_t x = a.c.v.i, y = b.c.v.i;
        switch (op[0]) {
        case '+': return mk_const(cv_int(x + y));
        case '-': return mk_const(cv_int(x - y));
        case '*': return mk_const(cv_int(x * y));
        case '/': return mk_const(cv_int(py_floordiv(t, x, y, loc)));
        case '%': return mk_const(cv_int(x - py_floordiv(t, x, y, loc) * y));
        default: break;
        }
    }
    return sem_binary(t, op, a, b, loc);
}

static Val swizzle2d_v(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[5];
    bind(c, "i,j,size_i,size_j,size_g", a);
    Val i = *a[0], j = *a[1], size_i = *a[2], size_j = *a[3], size_g = *a[4];
    Val ij = arith(t, "+", arith(t, "*", i, size_j, loc), j, loc);
    Val size_gj = arith(t, "*", size_g, size_j, loc);
    Val group_id = arith(t, "//", ij, size_gj, loc);
    Val off_i = arith(t, "*", group_id, size_g, loc);
    Val rem = arith(t, "-", size_i, off_i, loc);
    if (rem.kind == V_CONST && size_g.kind == V_CONST && is_num(&rem) && is_num(&size_g))
        size_g = cv_num(&rem.c) < cv_num(&size_g.c) ? rem : size_g;
    else
        size_g = minmax(c, rem, size_g, OP_MIN, 0);
    ij = arith(t, "%", ij, size_gj, loc);
    Val out[2] = {arith(t, "+", off_i, arith(t, "%", ij, size_g, loc), loc), arith(t, "//", ij, size_g, loc)};
    return mk_tuple(t, out, 2);
}

/* histogram(input, num_bins, mask=None): counts of the values 0..num_bins-1 (int32), computed
 * as a sum over input == arange(num_bins) */
static Val histogram_v(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[3];
    bind(c, "input,num_bins,mask?", a);
    Val x = sem_to_tensor(t, *a[0], loc);
    int64_t nb = arg_int(c, a[1], "num_bins");
    if (x.type.rank != 1 || !dt_is_int(x.type.dt)) FAIL("histogram() expects a 1-D integer tensor");
    if (nb <= 0 || nb > MAX_NUMEL) FAIL("histogram(): num_bins must be positive");
    int32_t n32 = (int32_t)nb;
    check_shape(t, 1, &n32, loc);
    if ((int64_t)x.type.shape[0] * nb > MAX_NUMEL)
        UNSUP("histogram of %d values into %lld bins is too large for tritonc", x.type.shape[0], (long long)nb);
    Attr at = {0};
    Val idx = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &n32), at, loc);
    Val eq = sem_binary(t, "==", expand_dims1(t, x, 1, loc), expand_dims1(t, idx, 0, loc), loc);
    if (a[2]) {
        Val m = sem_to_tensor(t, *a[2], loc);
        if (m.type.dt != DT_I1) m = cast_impl(t, m, scalar_t(DT_I1), 0, loc);
        if (m.type.rank == 1) m = expand_dims1(t, m, 1, loc);
        eq = sem_binary(t, "&", eq, m, loc);
    }
    eq = cast_impl(t, eq, scalar_t(DT_I32), 0, loc);
    return reduce_axis(t, eq, 0, RED_SUM, loc);
}

/* ---- gather / flip: select along an axis through a one-hot compare and a reduction ---------- */

/* out[.., k, ..] = x[.., sel[.., k, ..], ..] along `axis`. sel is an integer tensor of x's rank
 * (size K along axis, other dims equal to x's or 1). The selection is exact: every output
 * element reduces exactly one chosen value with neutral fills (-0.0 for floats, 0 with OR for
 * integers); an index outside the axis gives -0.0 / 0. */
static Val select_along(Trace *t, Val x, int axis, Val sel, SrcLoc loc) {
    int r = x.type.rank, m = x.type.shape[axis];
    if (!dt_is_int(x.type.dt) && !dt_is_float(x.type.dt))
        UNSUP("gather/flip of pointers is not supported by tritonc");
    int64_t big = type_numel(x.type) / m * (int64_t)sel.type.shape[axis] * m;
    if (big > MAX_NUMEL || r + 1 > TC_MAX_RANK)
        UNSUP("this gather/flip is too large for tritonc's lowering (%lld elements)", (long long)big);
    Val sel_e = expand_dims1(t, sel, axis + 1, loc);      /* [.., K, 1, ..] */
    Val x_e = expand_dims1(t, x, axis, loc);              /* [.., 1, m, ..] */
    Attr at = {0};
    int32_t mm = m;
    Val idx = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &mm), at, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i <= r; i++) s[i] = i == axis + 1 ? m : 1;
    idx = reshape_v(t, idx, r + 1, s, loc);
    Val cmp = sem_binary(t, "==", sel_e, idx, loc);
    Val fill = mk_const(dt_is_float(x.type.dt) ? cv_float(-0.0) : cv_int(0));
    fill = emit_const(t, elem_of(x_e.type), &fill.c, loc);
    Val v = where_v(t, cmp, x_e, fill, loc);
    return reduce_axis(t, v, axis + 1, dt_is_float(x.type.dt) ? RED_SUM : RED_OR, loc);
}

static Val gather_v(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[3];
    bind(c, "src,index,axis", a);
    Val src = sem_to_tensor(t, *a[0], loc), index = sem_to_tensor(t, *a[1], loc);
    if (!dt_is_int(index.type.dt)) FAIL("index must be an integer tensor");
    if (src.type.rank == 0) FAIL("src must be a tensor, got a scalar");
    int rank = src.type.rank;
    if (index.type.rank != rank) FAIL("source and index tensors must have the same rank");
    int64_t ax = arg_int(c, a[2], "axis");
    if (ax < -rank || ax >= rank) FAIL("gather axis %lld must be < source rank (%d)", (long long)ax, rank);
    int axis = (int)(ax < 0 ? ax + rank : ax);
    for (int d = 0; d < rank; d++)
        if (d != axis && index.type.shape[d] != src.type.shape[d])
            FAIL("index dim %d must match the corresponding source dim", axis);
    return select_along(t, src, axis, index, loc);
}

static Val flip_v(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[2];
    bind(c, "x,dim?", a);
    Val x = sem_to_tensor(t, *a[0], loc);
    int rank = x.type.rank;
    if (rank == 0) FAIL("flip() expects a tensor");
    int64_t d = a[1] ? arg_int(c, a[1], "dim") : rank - 1;
    int axis = wrap_axis(t, d, rank, loc);
    int32_t m = x.type.shape[axis];
    Attr at = {0};
    Val idx = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &m), at, loc);
    Val rev = sem_binary(t, "-", mk_const(cv_int(m - 1)), idx, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i < rank; i++) s[i] = i == axis ? m : 1;
    rev = reshape_v(t, rev, rank, s, loc);
    return select_along(t, x, axis, rev, loc);
}

/* cumsum(input, axis=0, reverse=False, dtype=None): out[.., i, ..] = sum of x[.., j, ..] for
 * j <= i (j >= i reversed), as a masked reduction over an [.., n, n, ..] intermediate. Integer
 * results are exact; float sums may round differently from Triton's parallel scan. */
static Val cumsum_v(Call *c) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[4];
    bind(c, "input,axis?,reverse?,dtype?", a);
    Val x = promote_bf16(t, sem_to_tensor(t, *a[0], loc), loc);
    int64_t ax = a[1] ? arg_int(c, a[1], "axis") : 0;
    bool rev = arg_bool(c, a[2], false, "reverse");
    int out = DT_VOID;
    if (a[3]) out = arg_dtype(c, a[3], "dtype").dt;
    else if (dt_is_signed(x.type.dt) && dt_bits(x.type.dt) < 32) out = DT_I32;
    else if (dt_is_unsigned(x.type.dt) && dt_bits(x.type.dt) < 32) out = DT_U32;
    if (out != DT_VOID) x = cast_impl(t, x, scalar_t(out), 0, loc);
    int rank = x.type.rank;
    if (rank == 0) FAIL("cumsum() expects a tensor");
    int axis = wrap_axis(t, ax, rank, loc);
    int32_t n = x.type.shape[axis];
    if (type_numel(x.type) * n > MAX_NUMEL || rank + 1 > TC_MAX_RANK)
        UNSUP("cumsum over %d elements of a %lld-element tensor is too large for tritonc", n,
              (long long)type_numel(x.type));
    if (!dt_is_int(x.type.dt) && !dt_is_float(x.type.dt)) FAIL("cumsum() of pointers");
    Attr at = {0};
    Val ii = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &n), at, loc);
    int32_t si[TC_MAX_RANK + 1], sj[TC_MAX_RANK + 1];
    for (int i = 0; i <= rank; i++) {
        si[i] = i == axis ? n : 1;
        sj[i] = i == axis + 1 ? n : 1;
    }
    Val vi = reshape_v(t, ii, rank + 1, si, loc), vj = reshape_v(t, ii, rank + 1, sj, loc);
    Val keep = sem_binary(t, rev ? ">=" : "<=", vj, vi, loc);   /* [.., i, j, ..] */
    Val x_e = expand_dims1(t, x, axis, loc);                   /* [.., 1, j, ..] */
    CVal z = dt_is_float(x.type.dt) ? cv_float(-0.0) : cv_int(0);
    Val fill = emit_const(t, elem_of(x.type), &z, loc);
    Val v = where_v(t, keep, x_e, fill, loc);
    return reduce_axis(t, v, axis + 1, RED_SUM, loc);
}

/* ---- tl.reduce / tl.associative_scan with a combine function ----------------------------------
 * Unrolled at trace time: adjacent elements along the axis are paired (reshape to [.., n/2, 2, ..]
 * and split), and the combine function (a @jit function, inlined by trace_call_func, applied
 * element-wise to whole blocks) merges each pair, so every combine sees its operands in order
 * (a valid parenthesization; associativity is all that is assumed). */

typedef struct Combiner { const Func *fn; int op; } Combiner;

static void combine_apply(Call *c, const Combiner *cb, const Val *a, const Val *b, int k, Val *out) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!cb->fn) {
        out[0] = emit2(t, cb->op, a[0], b[0], a[0].type, 0, loc);
        return;
    }
    Val *args = arena_alloc(t->arena, sizeof(Val) * (size_t)(2 * k));
    for (int i = 0; i < k; i++) { args[i] = a[i]; args[k + i] = b[i]; }
    Val r = trace_call_func(t, cb->fn, args, 2 * k, loc);
    if (k == 1 && r.kind == V_TUPLE && r.n == 1) r = r.items[0];
    if (k > 1 && (r.kind != V_TUPLE || r.n != k))
        FAIL("combine_fn must return %d values", k);
    for (int i = 0; i < k; i++) {
        Val v = sem_to_tensor(t, k == 1 ? r : r.items[i], loc);
        if (!same_elem(elem_of(v.type), elem_of(a[i].type)))
            FAIL("combine_fn returned %s where %s was expected", type_s(t, v.type), type_s(t, a[i].type));
        out[i] = bcast_ext(t, v, a[i].type.rank, a[i].type.shape, loc);
    }
}

/* even (x[.., 2p, ..]) and odd (x[.., 2p+1, ..]) halves along axis */
static void split_pairs(Trace *t, Val x, int axis, Val *ev, Val *od, SrcLoc loc) {
    int r = x.type.rank;
    if (r + 1 > TC_MAX_RANK) UNSUP("tensors of rank %d are not supported by tritonc (at most %d)", r + 1, TC_MAX_RANK);
    int32_t s[TC_MAX_RANK + 1] = {0};
    for (int i = 0, j = 0; i < r; i++) {
        if (i == axis) { s[j++] = x.type.shape[i] / 2; s[j++] = 2; }
        else s[j++] = x.type.shape[i];
    }
    Val y = reshape_v(t, x, r + 1, s, loc);
    int perm[TC_MAX_RANK];
    for (int i = 0, j = 0; i <= r; i++)
        if (i != axis + 1) perm[j++] = i;
    perm[r] = axis + 1;
    y = permute_v(t, y, perm, r + 1, loc);
    Val parts = split_v(t, y, loc);
    *ev = parts.items[0];
    *od = parts.items[1];
}

static Val drop_axis(Trace *t, Val x, int axis, SrcLoc loc) {
    int32_t s[TC_MAX_RANK + 1];
    int r = x.type.rank;
    for (int i = 0, j = 0; i < r; i++)
        if (i != axis) s[j++] = x.type.shape[i];
    return reshape_checked(t, x, r - 1, s, loc);
}

static int unpack_inputs(Call *c, Val in, Val *items) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int k = in.kind == V_TUPLE ? in.n : 1;
    if (k < 1 || k > 8) UNSUP("reductions over %d inputs are not supported by tritonc", k);
    for (int i = 0; i < k; i++) items[i] = sem_to_tensor(t, in.kind == V_TUPLE ? in.items[i] : in, loc);
    for (int i = 1; i < k; i++)
        if (items[i].type.rank != items[0].type.rank ||
            memcmp(items[i].type.shape, items[0].type.shape, sizeof(int32_t) * items[0].type.rank) != 0)
            FAIL("reduction/scan inputs must have the same shape");
    return k;
}

static Combiner combiner_of(Call *c, const Val *fn) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    if (!fn || fn->kind != V_FUNC || !fn->fn) FAIL("combine_fn must be a @triton.jit function");
    Combiner cb = {fn->fn, 0};
    return cb;
}

static Val reduce_generic(Call *c, Val in, const Val *axisv, const Combiner *cb, bool keep) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x[8] = {{0}}, ev[8] = {{0}}, od[8] = {{0}};
    int k = unpack_inputs(c, in, x);
    int orig_rank = x[0].type.rank, axis;
    if (!axisv) {
        for (int i = 0; i < k; i++) {
            int32_t n = (int32_t)type_numel(x[i].type);
            x[i] = reshape_v(t, x[i], 1, &n, loc);
        }
        axis = 0;
    } else {
        if (orig_rank == 0) FAIL("reduction axis must be < inputs rank (0)");
        axis = wrap_axis(t, arg_int(c, axisv, "axis"), orig_rank, loc);
    }
    while (x[0].type.shape[axis] > 1) {
        for (int i = 0; i < k; i++) split_pairs(t, x[i], axis, &ev[i], &od[i], loc);
        combine_apply(c, cb, ev, od, k, x);
    }
    for (int i = 0; i < k; i++) {
        x[i] = drop_axis(t, x[i], axis, loc);
        if (keep) {
            if (axisv) x[i] = expand_dims1(t, x[i], axis, loc);
            else if (orig_rank > 0) {
                int32_t ones[TC_MAX_RANK];
                for (int d = 0; d < orig_rank; d++) ones[d] = 1;
                x[i] = reshape_v(t, x[i], orig_rank, ones, loc);
            }
        }
    }
    return k == 1 && in.kind != V_TUPLE ? x[0] : mk_tuple(t, x, k);
}

/* x shifted by one along axis: y[j] = x[j-1], y[0] = a neutral fill (never used) */
static Val shift_right(Trace *t, Val x, int axis, SrcLoc loc) {
    int32_t m = x.type.shape[axis];
    Attr at = {0};
    Val idx = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &m), at, loc);
    Val sel = sem_binary(t, "-", idx, mk_const(cv_int(1)), loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i < x.type.rank; i++) s[i] = i == axis ? m : 1;
    sel = reshape_v(t, sel, x.type.rank, s, loc);
    return select_along(t, x, axis, sel, loc);
}

/* inclusive scan of k parallel inputs along axis (length a power of two) */
static void scan_rec(Call *c, const Combiner *cb, Val *x, int k, int axis, Val *out) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    int32_t n = x[0].type.shape[axis];
    if (n == 1) {
        for (int i = 0; i < k; i++) out[i] = x[i];
        return;
    }
    Val a[8] = {{0}}, b[8] = {{0}}, p[8] = {{0}}, S[8] = {{0}}, sh[8] = {{0}}, E[8] = {{0}};
    for (int i = 0; i < k; i++) split_pairs(t, x[i], axis, &a[i], &b[i], loc);
    combine_apply(c, cb, a, b, k, p);          /* p[j] = a[j] (+) b[j] */
    scan_rec(c, cb, p, k, axis, S);            /* S[j] = x[0] (+) ... (+) x[2j+1] */
    for (int i = 0; i < k; i++) sh[i] = shift_right(t, S[i], axis, loc);
    combine_apply(c, cb, sh, a, k, E);         /* E[j] = S[j-1] (+) a[j], j >= 1 */
    int r = x[0].type.rank;
    int32_t h = n / 2;
    Attr at = {0};
    Val idx = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &h), at, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int d = 0; d < r; d++) s[d] = d == axis ? h : 1;
    Val first = reshape_v(t, sem_binary(t, "==", idx, mk_const(cv_int(0)), loc), r, s, loc);
    for (int i = 0; i < k; i++) {
        Val ev = where_v(t, first, a[i], E[i], loc);
        /* interleave ev (even positions) and S (odd positions) along axis */
        Val j = join_v(t, ev, S[i], loc);       /* [.., h, .., 2] */
        int perm[TC_MAX_RANK];
        for (int d = 0, q = 0; d <= r; d++) {
            if (d == axis + 1) perm[d] = r;
            else perm[d] = q++;
        }
        j = permute_v(t, j, perm, r + 1, loc);  /* [.., h, 2, ..] */
        int32_t os[TC_MAX_RANK + 1];
        for (int d = 0; d < r; d++) os[d] = d == axis ? n : x[i].type.shape[d];
        out[i] = reshape_v(t, j, r, os, loc);
    }
}

static Val flip_axis(Trace *t, Val x, int axis, SrcLoc loc) {
    int32_t m = x.type.shape[axis];
    Attr at = {0};
    Val idx = emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &m), at, loc);
    Val rev = sem_binary(t, "-", mk_const(cv_int(m - 1)), idx, loc);
    int32_t s[TC_MAX_RANK + 1];
    for (int i = 0; i < x.type.rank; i++) s[i] = i == axis ? m : 1;
    rev = reshape_v(t, rev, x.type.rank, s, loc);
    return select_along(t, x, axis, rev, loc);
}

static Val scan_generic(Call *c, Val in, const Val *axisv, const Combiner *cb, bool reverse) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val x[8] = {{0}}, out[8] = {{0}};
    int k = unpack_inputs(c, in, x);
    int rank = x[0].type.rank;
    if (rank == 0) FAIL("associative_scan() expects a tensor");
    int axis = wrap_axis(t, axisv ? arg_int(c, axisv, "axis") : 0, rank, loc);
    for (int i = 0; i < k; i++)
        if (!dt_is_int(x[i].type.dt) && !dt_is_float(x[i].type.dt))
            UNSUP("scans of pointers are not supported by tritonc");
    if (reverse)
        for (int i = 0; i < k; i++) x[i] = flip_axis(t, x[i], axis, loc);
    scan_rec(c, cb, x, k, axis, out);
    if (reverse)
        for (int i = 0; i < k; i++) out[i] = flip_axis(t, out[i], axis, loc);
    return k == 1 && in.kind != V_TUPLE ? out[0] : mk_tuple(t, out, k);
}

/* ---- the builtin table -------------------------------------------------------------------------- */

static const struct { const char *name; int op; bool fp32_only; } MATH1[] = {
    {"exp", OP_EXP, false},   {"exp2", OP_EXP2, false}, {"log", OP_LOG, false},
    {"log2", OP_LOG2, false}, {"sqrt", OP_SQRT, false}, {"rsqrt", OP_RSQRT, false},
    {"sin", OP_SIN, false},   {"cos", OP_COS, false},   {"floor", OP_FLOOR, false},
    {"ceil", OP_CEIL, false}, {"erf", OP_ERF, false},   {"tanh", OP_TANH, false},
    {"sqrt_rn", OP_SQRT, true},
};

/* Names that exist in triton.language but that tritonc does not implement. */
static const char *const KNOWN_UNSUPPORTED[] = {
    "sort",
    "topk", "inline_asm_elementwise", "make_block_ptr", "advance", "make_tensor_descriptor",
    "load_tensor_descriptor", "store_tensor_descriptor", "dot_scaled", "map_elementwise",
    "atomic_add_fp8", "device_assert_fp", "extra", "tensor_descriptor", "condition",
    "max_num_imprecise_acc", "PropagateNan", "range", "static_range", "interleave_fp", "view_as",
    "pow", "fast_expf", "fast_dividef", "log1p", "expm1", "atan", "atan2", "tan", "asin", "acos",
    "sinh", "cosh", "trunc", "round", "nearbyint", "isnan", "isinf", "signbit", "erfc", "lgamma",
    "tgamma", NULL,
};

static Val call_tl(Call *c, const char *name, bool libdevice);

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
            return call_tl(&c, path + n, i < 2);
        }
    }
    if (strncmp(path, "tensor.", 7) == 0) {
        c.fname = path + 7;
        const char *m = path + 7;
        if (!self) FAIL("tensor.%s called without a tensor", m);
        c.method = true;
        return call_tl(&c, m, false);
    }
    if (strncmp(path, "dtype.", 6) == 0) {
        c.fname = path + 6;
        const char *m = path + 6;
        if (!self || self->kind != V_CONST || self->c.kind != CV_DTYPE)
            FAIL("dtype.%s called without a dtype", m);
        if (nargs || nkw) FAIL("%s() takes no arguments", m);
        int d = self->c.dtype;
        bool r;
        if (strcmp(m, "is_floating") == 0) r = dt_is_float(d);
        else if (strcmp(m, "is_int") == 0) r = dt_is_int(d);
        else if (strcmp(m, "is_int_signed") == 0) r = dt_is_signed(d);
        else if (strcmp(m, "is_int_unsigned") == 0) r = dt_is_unsigned(d);
        else if (strcmp(m, "is_bool") == 0 || strcmp(m, "is_int1") == 0) r = d == DT_I1;
        else if (strcmp(m, "is_fp16") == 0) r = d == DT_FP16;
        else if (strcmp(m, "is_bf16") == 0) r = d == DT_BF16;
        else if (strcmp(m, "is_fp32") == 0) r = d == DT_FP32;
        else if (strcmp(m, "is_fp64") == 0) r = d == DT_FP64;
        else if (strcmp(m, "is_ptr") == 0) r = d == DT_PTR;
        else if (strcmp(m, "is_standard_floating") == 0) r = dt_is_float(d);
        else if (strcmp(m, "is_int8") == 0) r = d == DT_I8;
        else if (strcmp(m, "is_int16") == 0) r = d == DT_I16;
        else if (strcmp(m, "is_int32") == 0) r = d == DT_I32;
        else if (strcmp(m, "is_int64") == 0) r = d == DT_I64;
        else if (strcmp(m, "is_uint8") == 0) r = d == DT_U8;
        else if (strcmp(m, "is_uint16") == 0) r = d == DT_U16;
        else if (strcmp(m, "is_uint32") == 0) r = d == DT_U32;
        else if (strcmp(m, "is_uint64") == 0) r = d == DT_U64;
        else if (strcmp(m, "is_fp8") == 0 || strcmp(m, "is_block") == 0) r = false;
        else FAIL("'dtype' object has no attribute '%s'", m);
        return mk_const(cv_bool(r));
    }
    if (strcmp(path, "triton.cdiv") == 0) {
        c.fname = "cdiv";
        Val *a[2];
        bind(&c, "x,y", a);
        return cdiv_v(&c, *a[0], *a[1]);
    }
    if (strcmp(path, "triton.next_power_of_2") == 0) {
        c.fname = "next_power_of_2";
        Val *a[1];
        bind(&c, "n", a);
        int64_t n = arg_int(&c, a[0], "n");
        uint64_t u = (uint64_t)(n - 1);
        for (int s = 1; s < 64; s <<= 1) u |= u >> s;
        return mk_const(cv_int((int64_t)(u + 1)));
    }
    if (strncmp(path, "builtins.", 9) == 0) {
        const char *m = path + 9;
        c.fname = m;
        if (strcmp(m, "min") == 0 || strcmp(m, "max") == 0) {
            if (nkw) FAIL("%s() got an unexpected keyword argument '%s'", m, kwnames[0]);
            return py_minmax(&c, c.pos, c.npos, m[1] == 'a');
        }
        if (strcmp(m, "print") == 0) return call_tl(&c, "device_print", false);
        if (strcmp(m, "abs") == 0) {
            Val *a[1];
            bind(&c, "x", a);
            Val x = *a[0];
            if (x.kind == V_CONST && x.c.kind == CV_FLOAT) return mk_const(cv_float(fabs(x.c.v.f)));
            if (x.kind == V_CONST && (x.c.kind == CV_INT || x.c.kind == CV_BOOL) && !x.c.big)
                return mk_const(cv_int(x.c.v.i < 0 ? -x.c.v.i : x.c.v.i));
            return abs_v(t, x, loc);
        }
        if (strcmp(m, "int") == 0 || strcmp(m, "float") == 0 || strcmp(m, "bool") == 0) {
            Val *a[1];
            bind(&c, "x?", a);
            if (!a[0]) return mk_const(m[0] == 'i' ? cv_int(0) : m[0] == 'f' ? cv_float(0) : cv_bool(false));
            Val x = *a[0];
            if (x.kind != V_CONST) FAIL("%s() of a tensor cannot be evaluated at compile time", m);
            double f;
            if (x.c.kind == CV_STR) {
                char *e;
                if (m[0] == 'b') return mk_const(cv_bool(x.c.v.s[0] != 0));
                if (m[0] == 'i') {
                    long long v = strtoll(x.c.v.s, &e, 10);
                    if (*e || e == x.c.v.s) FAIL("invalid literal for int() with base 10: '%s'", x.c.v.s);
                    return mk_const(cv_int(v));
                }
                f = strtod(x.c.v.s, &e);
                while (*e == ' ') e++;
                if (*e || e == x.c.v.s) FAIL("could not convert string to float: '%s'", x.c.v.s);
                return mk_const(cv_float(f));
            }
            if (!is_num(&x)) FAIL("%s() argument must be a string or a number", m);
            if (m[0] == 'b') return mk_const(cv_bool(cv_num(&x.c) != 0));
            if (m[0] == 'f') return mk_const(cv_float(cv_num(&x.c)));
            if (x.c.kind != CV_FLOAT) return mk_const(cv_int(x.c.v.i));
            if (!isfinite(x.c.v.f)) FAIL("cannot convert float %s to integer", isnan(x.c.v.f) ? "NaN" : "infinity");
            return mk_const(cv_int((int64_t)trunc(x.c.v.f)));
        }
        if (strcmp(m, "len") == 0) {
            Val *a[1];
            bind(&c, "obj", a);
            int n = tuple_len(a[0]);
            if (n >= 0) return mk_const(cv_int(n));
            if (a[0]->kind == V_CONST && a[0]->c.kind == CV_STR) return mk_const(cv_int((int64_t)strlen(a[0]->c.v.s)));
            if (a[0]->kind == V_TENSOR && a[0]->type.rank > 0) return mk_const(cv_int(a[0]->type.shape[0]));
            FAIL("object has no len()");
        }
        UNSUP("the builtin %s() is not supported by tritonc", m);
    }
    UNSUP("%s is not supported by tritonc", path);
}

static Val call_tl(Call *c, const char *name, bool libdevice) {
    Trace *t = c->t;
    SrcLoc loc = c->loc;
    Val *a[12];
    /* math */
    for (int i = 0; i < COUNT_OF(MATH1); i++)
        if (strcmp(name, MATH1[i].name) == 0) {
            bind(c, "x", a);
            return unary_math(c, *a[0], MATH1[i].op, MATH1[i].fp32_only);
        }
    if (strcmp(name, "program_id") == 0 || strcmp(name, "num_programs") == 0) {
        bind(c, "axis", a);
        int64_t axis = arg_int(c, a[0], "axis");
        if (axis < 0 || axis > 2) FAIL("%s axis must be 0, 1, or 2 but got %lld", name, (long long)axis);
        Attr at = {0};
        at.axis = (int)axis;
        return emit_v(t, name[0] == 'p' ? OP_PROGRAM_ID : OP_NUM_PROGRAMS, NULL, 0, scalar_t(DT_I32), at, loc);
    }
    if (strcmp(name, "arange") == 0) {
        bind(c, "start,end", a);
        if (!a[0] || !a[1] || a[0]->kind != V_CONST || a[1]->kind != V_CONST || a[0]->c.kind != CV_INT ||
            a[1]->c.kind != CV_INT)
            FAIL("arange's arguments must be of type tl.constexpr");
        int64_t s = a[0]->c.v.i, e = a[1]->c.v.i;
        if ((s >> 32) != 0 || (e >> 32) != 0 || a[0]->c.big || a[1]->c.big) FAIL("arange must fit in int32");
        if (e <= s) FAIL("arange's end argument must be greater than the start argument");
        int64_t range = e - s;
        if ((range & (range - 1)) != 0) FAIL("arange's range must be a power of 2");
        int32_t n = (int32_t)range;
        check_shape(t, 1, &n, loc);
        Attr at = {0};
        at.i = s;
        return emit_v(t, OP_ARANGE, NULL, 0, type_block(DT_I32, 1, &n), at, loc);
    }
    static const char *const RANDOM[] = {"rand", "randn", "randint", "randint4x", "rand4x", "randn4x",
                                         "philox", "uint_to_uniform_float",
                                         "pair_uniform_to_normal", NULL};
    if (op_in(name, RANDOM)) return random_v(c, name);
    if (strcmp(name, "swizzle2d") == 0) return swizzle2d_v(c);
    if (strcmp(name, "histogram") == 0) return histogram_v(c);
    if (strcmp(name, "gather") == 0) return gather_v(c);
    if (strcmp(name, "flip") == 0) return flip_v(c);
    if (strcmp(name, "cumsum") == 0) return cumsum_v(c);
    if (strcmp(name, "reduce") == 0) {
        bind(c, "input,axis,combine_fn,keep_dims?", a);
        Combiner cb = combiner_of(c, a[2]);
        Val *axisv = a[1] && !(a[1]->kind == V_CONST && a[1]->c.kind == CV_NONE) ? a[1] : NULL;
        return reduce_generic(c, *a[0], axisv, &cb, arg_bool(c, a[3], false, "keep_dims"));
    }
    if (strcmp(name, "associative_scan") == 0) {
        bind(c, "input,axis,combine_fn,reverse?", a);
        Combiner cb = combiner_of(c, a[2]);
        return scan_generic(c, *a[0], a[1], &cb, arg_bool(c, a[3], false, "reverse"));
    }
    if (strcmp(name, "cumprod") == 0) {
        bind(c, "input,axis?,reverse?", a);
        Val x = promote_bf16(t, sem_to_tensor(t, *a[0], loc), loc);
        Combiner cb = {NULL, OP_MUL};
        Val zero = mk_const(cv_int(0));
        return scan_generic(c, x, a[1] ? a[1] : &zero, &cb, arg_bool(c, a[2], false, "reverse"));
    }
    if (strcmp(name, "load") == 0) return do_load(c);
    if (strcmp(name, "store") == 0) return do_store(c);
    if (strncmp(name, "atomic_", 7) == 0) {
        static const struct { const char *n; int k; } at[] = {
            {"add", ATOM_ADD}, {"max", ATOM_MAX}, {"min", ATOM_MIN}, {"and", ATOM_AND},
            {"or", ATOM_OR},   {"xor", ATOM_XOR}, {"xchg", ATOM_XCHG}};
        if (strcmp(name + 7, "cas") == 0) return do_atomic_cas(c);
        for (int i = 0; i < COUNT_OF(at); i++)
            if (strcmp(name + 7, at[i].n) == 0) return do_atomic(c, at[i].n, at[i].k);
    }
    if (strcmp(name, "dot") == 0) return do_dot(c);
    if (strcmp(name, "full") == 0 || strcmp(name, "zeros") == 0) {
        bool full = name[0] == 'f';
        bind(c, full ? "shape,value,dtype?" : "shape,dtype?", a);
        int rank;
        int32_t shape[TC_MAX_RANK];
        arg_shape(c, a[0], &rank, shape);
        Val *valv = full ? a[1] : NULL, *dtv = full ? a[2] : a[1];
        Val zero = mk_const(cv_int(0));
        Val value = valv ? *valv : zero;
        if (full && !valv) FAIL("full() value must not be None");
        if (value.kind == V_TENSOR) {
            if (type_numel(value.type) != 1) FAIL("only accepts size-1 tensor");
            if (dtv) value = cast_impl(t, value, arg_dtype(c, dtv, "dtype"), 0, loc);
            if (value.type.rank) value = emit1(t, OP_RESHAPE, value, type_elem(value.type), loc);
            return splat(t, value, rank, shape, loc);
        }
        if (!dtv) FAIL("dtype must be specified when value is not a tensor");
        Type dt = arg_dtype(c, dtv, "dtype");
        if (!is_num(&value)) FAIL("full() value must be a number or a tensor");
        return emit_const(t, type_with_shape(dt, rank, shape), &value.c, loc);
    }
    if (strcmp(name, "zeros_like") == 0 || strcmp(name, "full_like") == 0) {
        bool fl = name[0] == 'f';
        bind(c, fl ? "input,value,dtype?" : "input,dtype?", a);
        Val x = sem_to_tensor(t, *a[0], loc);
        Type dt = (fl ? a[2] : a[1]) ? arg_dtype(c, fl ? a[2] : a[1], "dtype") : elem_of(x.type);
        Val v = fl && a[1] ? *a[1] : mk_const(cv_int(0));
        if (v.kind == V_TENSOR) {
            v = cast_impl(t, v, dt, 0, loc);
            return sem_broadcast_to(t, v, x.type.rank, x.type.shape, loc);
        }
        if (!is_num(&v)) FAIL("value must be a number");
        return emit_const(t, type_with_shape(dt, x.type.rank, x.type.shape), &v.c, loc);
    }
    if (strcmp(name, "where") == 0) {
        bind(c, "condition,x,y", a);
        return where_v(t, *a[0], *a[1], *a[2], loc);
    }
    if (strcmp(name, "maximum") == 0 || strcmp(name, "minimum") == 0) {
        bind(c, "x,y,propagate_nan?", a);
        return minmax(c, *a[0], *a[1], name[1] == 'a' ? OP_MAX : OP_MIN, nan_mode(c, a[2]));
    }
    if (strcmp(name, "clamp") == 0) {
        bind(c, "x,min,max,propagate_nan?", a);
        int nan = nan_mode(c, a[3]);
        Val x = promote_bf16(t, sem_to_tensor(t, *a[0], loc), loc);
        Val lo = promote_bf16(t, sem_to_tensor(t, *a[1], loc), loc);
        Val hi = promote_bf16(t, sem_to_tensor(t, *a[2], loc), loc);
        bin_check(t, "clamp", &lo, &hi, false, false, true, loc);
        bin_check(t, "clamp", &x, &lo, false, false, true, loc);
        bin_check(t, "clamp", &x, &hi, false, false, true, loc);
        if (!dt_is_float(x.type.dt))
            FAIL("Unexpected dtype %s. Only floating point clamp is supported", tl_name(x.type.dt));
        lo = sem_broadcast_to(t, lo, x.type.rank, x.type.shape, loc);
        Val m = emit2(t, OP_MAX, x, lo, x.type, nan, loc);
        return emit2(t, OP_MIN, m, hi, x.type, nan, loc);
    }
    if (strcmp(name, "abs") == 0) {
        bind(c, "x", a);
        return abs_v(t, *a[0], loc);
    }
    if (strcmp(name, "fma") == 0) {
        bind(c, "x,y,z", a);
        Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc), z = sem_to_tensor(t, *a[2], loc);
        bin_check(t, "fma", &x, &y, false, false, true, loc);
        bin_check(t, "fma", &z, &x, false, false, true, loc);
        bin_check(t, "fma", &z, &y, false, false, true, loc);
        bin_check(t, "fma", &z, &x, false, false, true, loc); /* z may have grown with y */
        if (!dt_is_float(z.type.dt)) FAIL("fma() requires floating point operands, got %s", tl_name(z.type.dt));
        Attr at = {0};
        int args[3] = {x.id, y.id, z.id};
        return emit_v(t, OP_FMA, args, 3, z.type, at, loc);
    }
    if (strcmp(name, "umulhi") == 0) {
        bind(c, "x,y", a);
        Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
        int ds[2] = {x.type.dt, y.type.dt};
        for (int i = 0; i < 2; i++)
            if (ds[i] != DT_I32 && ds[i] != DT_I64 && ds[i] != DT_U32 && ds[i] != DT_U64)
                FAIL("Expected dtype ['int32', 'int64', 'uint32', 'uint64'] but got %s", tl_name(ds[i]));
        bin_check(t, "umulhi", &x, &y, false, false, true, loc);
        return emit2(t, OP_UMULHI, x, y, x.type, 0, loc);
    }
    if (strcmp(name, "fdiv") == 0) {
        bind(c, "x,y,ieee_rounding?", a);
        return fdiv_v(c, *a[0], *a[1]);
    }
    if (strcmp(name, "div_rn") == 0) {
        bind(c, "x,y", a);
        Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
        check_float_dtype(c, x, true);
        check_float_dtype(c, y, true);
        bcast_pair(t, &x, &y, loc);
        return emit2(t, OP_DIV, x, y, x.type, 0, loc);
    }
    if (strcmp(name, "cdiv") == 0) {
        bind(c, "x,div", a);
        return cdiv_v(c, *a[0], *a[1]);
    }
    if (strcmp(name, "sigmoid") == 0) {
        bind(c, "x", a);
        Val x = sem_to_tensor(t, *a[0], loc);
        Val e = unary_math(c, sem_unary(t, "-", x, loc), OP_EXP, false);
        Val d = sem_binary(t, "+", mk_const(cv_int(1)), e, loc);
        return sem_binary(t, "/", mk_const(cv_int(1)), d, loc);
    }
    if (strcmp(name, "softmax") == 0) {
        bind(c, "x,dim?,keep_dims?,ieee_rounding?", a);
        return softmax_v(c, *a[0], a[1], arg_bool(c, a[2], false, "keep_dims"));
    }
    if (strcmp(name, "sum") == 0) {
        bind(c, "input,axis?,keep_dims?,dtype?", a);
        return sum_v(c, *a[0], a[1], arg_bool(c, a[2], false, "keep_dims"), a[3]);
    }
    if (strcmp(name, "max") == 0 || strcmp(name, "min") == 0) return maxmin_reduce(c, name[1] == 'a', false);
    if (strcmp(name, "argmax") == 0 || strcmp(name, "argmin") == 0)
        return maxmin_reduce(c, name[4] == 'a', true);
    if (strcmp(name, "xor_sum") == 0 || strcmp(name, "reduce_or") == 0) {
        bool x_or = name[0] == 'x';
        bind(c, "input,axis?,keep_dims?", a);
        Val x = sem_to_tensor(t, *a[0], loc);
        if (!dt_is_int(x.type.dt)) FAIL("%s only supported for integers", name);
        return do_reduce(c, x, a[1], x_or ? RED_XOR : RED_OR, arg_bool(c, a[2], false, "keep_dims"));
    }
    if (strcmp(name, "reshape") == 0 || strcmp(name, "view") == 0) {
        bind(c, "input,*,can_reorder?", a);
        Val x = sem_to_tensor(t, *a[0], loc);
        int rank = 0;
        int32_t shape[TC_MAX_RANK];
        if (c->nrest) arg_shape_list(c, c->rest, c->nrest, &rank, shape);
        return reshape_checked(t, x, rank, shape, loc);
    }
    if (strcmp(name, "ravel") == 0) {
        bind(c, "x,can_reorder?", a);
        Val x = sem_to_tensor(t, *a[0], loc);
        int32_t n = (int32_t)type_numel(x.type);
        return reshape_checked(t, x, 1, &n, loc);
    }
    if (strcmp(name, "trans") == 0 || strcmp(name, "permute") == 0) {
        bind(c, "input,*", a);
        Val x = sem_to_tensor(t, *a[0], loc);
        int dims[TC_MAX_RANK], n = 0;
        const Val *src = c->rest;
        int ns = c->nrest;
        Val tmp[TC_MAX_RANK + 1];
        if (ns == 1 && tuple_len(&src[0]) >= 0) {
            ns = tuple_len(&src[0]);
            if (ns > TC_MAX_RANK) FAIL("permute dims must have the same length as input shape");
            for (int i = 0; i < ns; i++) tmp[i] = tuple_item(&src[0], i);
            src = tmp;
        }
        if (ns > TC_MAX_RANK) FAIL("permute dims must have the same length as input shape");
        for (int i = 0; i < ns; i++) dims[n++] = (int)arg_int(c, &src[i], "dims");
        if (n == 0) {
            if (name[0] == 'p') FAIL("permute dims must have the same length as input shape");
            dims[0] = 1; dims[1] = 0; n = 2;
        }
        return permute_v(t, x, dims, n, loc);
    }
    if (strcmp(name, "expand_dims") == 0) {
        bind(c, "input,axis", a);
        return expand_dims_v(c, *a[0], a[1]);
    }
    if (strcmp(name, "broadcast_to") == 0) {
        bind(c, "input,*", a);
        int rank = 0;
        int32_t shape[TC_MAX_RANK];
        arg_shape_list(c, c->rest, c->nrest, &rank, shape);
        return sem_broadcast_to(t, *a[0], rank, shape, loc);
    }
    if (strcmp(name, "broadcast") == 0) {
        bind(c, "input,other", a);
        Val x = sem_to_tensor(t, *a[0], loc), y = sem_to_tensor(t, *a[1], loc);
        bcast_pair(t, &x, &y, loc);
        Val items[2] = {x, y};
        return mk_tuple(t, items, 2);
    }
    if (strcmp(name, "join") == 0) {
        bind(c, "a,b", a);
        return join_v(t, *a[0], *a[1], loc);
    }
    if (strcmp(name, "split") == 0) {
        bind(c, "a", a);
        return split_v(t, *a[0], loc);
    }
    if (strcmp(name, "interleave") == 0 || strcmp(name, "cat") == 0) {
        bool cat = name[0] == 'c';
        bind(c, cat ? "input,other,can_reorder?" : "a,b", a);
        Val j = join_v(t, *a[0], *a[1], loc);
        if (cat && (j.type.rank != 2)) FAIL("cat() only supports 1-D tensors");
        if (j.type.rank == 1) return j;
        int r = j.type.rank;
        if (cat) {
            int perm[2] = {1, 0};
            j = permute_v(t, j, perm, 2, loc);
            int32_t n = (int32_t)type_numel(j.type);
            return reshape_v(t, j, 1, &n, loc);
        }
        int32_t s[TC_MAX_RANK + 1];
        for (int i = 0; i < r - 2; i++) s[i] = j.type.shape[i];
        s[r - 2] = 2 * j.type.shape[r - 2];
        return reshape_v(t, j, r - 1, s, loc);
    }
    if (strcmp(name, "cast") == 0 || strcmp(name, "to") == 0) {
        bind(c, "input,dtype,fp_downcast_rounding?,bitcast?", a);
        Type dt = arg_dtype(c, a[1], "dtype");
        bool bc = arg_bool(c, a[3], false, "bitcast");
        const char *r = arg_str(c, a[2], NULL, "fp_downcast_rounding");
        int rounding = 0;
        if (r) {
            if (strcmp(r, "rtz") == 0) rounding = 1;
            else if (strcmp(r, "rtne") != 0) FAIL("unsupported rounding mode %s", r);
        }
        if (bc) return bitcast_impl(t, *a[0], dt, loc);
        Val x = sem_to_tensor(t, *a[0], loc);
        if (r && !(dt_is_float(x.type.dt) && dt_is_float(dt.dt) && dt_bits(x.type.dt) > dt_bits(dt.dt)))
            FAIL("fp_downcast_rounding should be set only for truncating fp conversions, source scalar "
                 "type is %s and destination type is %s", tl_name(x.type.dt), tl_name(dt.dt));
        return cast_impl(t, x, dt, rounding, loc);
    }
    if (strcmp(name, "multiple_of") == 0 || strcmp(name, "max_contiguous") == 0 ||
        strcmp(name, "max_constancy") == 0) {
        bind(c, "input,values", a);
        return hint_v(c, *a[0], a[1], name);
    }
    if (strcmp(name, "assume") == 0) {
        bind(c, "cond", a);
        return mk_void();
    }
    if (strcmp(name, "static_assert") == 0) {
        bind(c, "cond,msg?", a);
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
        return mk_void();
    }
    if (strcmp(name, "static_print") == 0) {
        bind(c, "*,sep?,end?,file?,flush?", a);
        return static_print_v(c, c->rest, c->nrest, arg_str(c, a[0], " ", "sep"), arg_str(c, a[1], "\n", "end"));
    }
    if (strcmp(name, "device_print") == 0) {
        bind(c, "prefix,*,hex?", a);
        if (!a[0] && c->npos == 0) FAIL("device_print() missing 1 required positional argument: 'prefix'");
        Val none = mk_const(cv_none());
        return device_print_v(c, a[0] ? a[0] : &none, c->rest, c->nrest, arg_bool(c, a[1], false, "hex"));
    }
    if (strcmp(name, "device_assert") == 0) {
        bind(c, "cond,msg?,mask?", a);
        Val cond = sem_to_tensor(t, *a[0], loc);
        if (cond.type.dt != DT_I1) cond = cast_impl(t, cond, scalar_t(DT_I1), 0, loc);
        if (a[2]) {
            /* masked-off lanes pass: cond | ~mask */
            Val m = sem_to_tensor(t, *a[2], loc);
            if (m.type.dt != DT_I1) m = cast_impl(t, m, scalar_t(DT_I1), 0, loc);
            m = emit1(t, OP_NOT, m, m.type, loc);
            bcast_pair(t, &cond, &m, loc);
            cond = emit2(t, OP_OR, cond, m, cond.type, 0, loc);
        }
        const char *msg = arg_str(c, a[1], "", "msg");
        /* semantic.device_assert: compiled away unless debugging (TRITON_DEBUG=1, as trace.c) */
        if (!trace_debug()) return mk_void();
        Attr at = {0};
        at.str = arena_strdup(t->arena, msg);
        sem_emit(t, OP_ASSERT, &cond.id, 1, scalar_t(DT_VOID), at, loc);
        return mk_void();
    }
    if (strcmp(name, "debug_barrier") == 0) {
        bind(c, "", a);
        Attr at = {0};
        sem_emit(t, OP_BARRIER, NULL, 0, scalar_t(DT_VOID), at, loc);
        return mk_void();
    }
    if (strcmp(name, "constexpr") == 0) {
        bind(c, "value", a);
        if (a[0] && a[0]->kind != V_CONST) FAIL("constexpr() value must be known at compile time");
        return a[0] ? *a[0] : mk_const(cv_none());
    }
    if (strcmp(name, "pointer_type") == 0) {
        bind(c, "element_ty,address_space?,const?", a);
        Type e = arg_dtype(c, a[0], "element_ty");
        if (e.dt == DT_PTR) UNSUP("pointers to pointers are not supported by tritonc");
        return mk_const(cv_dtype_of(type_ptr(e.dt)));
    }
    if (strcmp(name, "make_block_ptr") == 0 || strcmp(name, "advance") == 0)
        UNSUP("tl.%s is not supported by tritonc (block pointers); use tensors of pointers with masks", name);
    for (int i = 0; KNOWN_UNSUPPORTED[i]; i++)
        if (strcmp(name, KNOWN_UNSUPPORTED[i]) == 0) {
            if (libdevice) UNSUP("libdevice.%s is not supported by tritonc", name);
            UNSUP("tl.%s is not supported by tritonc", name);
        }
    if (libdevice) UNSUP("libdevice.%s is not supported by tritonc", name);
    if (c->method) FAIL("'tensor' object has no attribute '%s'", name);
    FAIL("module 'triton.language' has no attribute '%s'", name);
}

/* ---- attributes ---------------------------------------------------------------------------------- */

bool sem_attr(Trace *t, Val v, const char *name, Val *out, SrcLoc loc) {
    *out = mk_void();
    if (v.kind == V_TENSOR) {
        if (strcmp(name, "dtype") == 0) { *out = mk_const(cv_dtype_of(elem_of(v.type))); return true; }
        if (strcmp(name, "type") == 0) { *out = mk_const(cv_dtype_of(elem_of(v.type))); return true; }
        if (strcmp(name, "shape") == 0) {
            CVal c = {0};
            c.kind = CV_TUPLE;
            c.v.tup.n = v.type.rank;
            c.v.tup.items = arena_alloc(t->arena, sizeof(CVal) * (size_t)(v.type.rank ? v.type.rank : 1));
            for (int i = 0; i < v.type.rank; i++) c.v.tup.items[i] = cv_int(v.type.shape[i]);
            *out = mk_const(c);
            return true;
        }
        if (strcmp(name, "numel") == 0) { *out = mk_const(cv_int(type_numel(v.type))); return true; }
        if (strcmp(name, "T") == 0) {
            int perm[2] = {1, 0};
            *out = permute_v(t, v, perm, 2, loc);
            return true;
        }
        return false;
    }
    if (v.kind == V_CONST && v.c.kind == CV_DTYPE) {
        int d = v.c.dtype;
        if (strcmp(name, "element_ty") == 0) {
            if (d == DT_PTR) *out = mk_const(cv_dtype_of(scalar_t(v.c.elem)));
            else *out = v;
            return true;
        }
        if (strcmp(name, "primitive_bitwidth") == 0 || strcmp(name, "int_bitwidth") == 0) {
            *out = mk_const(cv_int(dt_bits(d)));
            return true;
        }
        if (strcmp(name, "fp_mantissa_width") == 0) {
            int w = d == DT_FP16 ? 10 : d == DT_BF16 ? 7 : d == DT_FP32 ? 23 : d == DT_FP64 ? 52 : 0;
            *out = mk_const(cv_int(w));
            return true;
        }
        if (strcmp(name, "name") == 0) {
            *out = mk_const(cv_str(d == DT_PTR ? arena_printf(t->arena, "pointer<%s>", tl_name(v.c.elem))
                                               : tl_name(d)));
            return true;
        }
        if (strncmp(name, "is_", 3) == 0) {
            Val b;
            memset(&b, 0, sizeof b);
            b.kind = V_BUILTIN;
            b.path = arena_printf(t->arena, "dtype.%s", name);
            b.items = arena_alloc(t->arena, sizeof(Val));
            b.items[0] = v;
            b.n = 1;
            *out = b;
            return true;
        }
        return false;
    }
    return false;
}
