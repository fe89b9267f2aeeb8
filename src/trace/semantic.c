/* semantic.c — what operations mean, as Triton's semantic.py / core.py define them: the core
 * that the tracer and every builtin family build on. Literal typing and weak Python scalars,
 * constants, splat/reshape/broadcast, casts, pointer arithmetic, the binary and unary
 * operators with Triton's promotion and errors, and the attributes of tensors and dtypes.
 * The builtins themselves (tl.load, tl.sum, ...) are in builtins*.c; everything emitted
 * obeys src/ir/ops.h (operands of element-wise ops already share the result's shape and,
 * except CMP/WHERE/ADDPTR/CAST, its dtype). */
#include "trace/sem.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------------------- */

Val sem_tuple(Trace *t, const Val *items, int n) {
    Val v; memset(&v, 0, sizeof v);
    v.kind = V_TUPLE;
    v.n = n;
    v.items = arena_alloc(t->arena, sizeof(Val) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) v.items[i] = items[i];
    return v;
}

CVal sem_cv_dtype(Type elem) {
    CVal c = {0};
    c.kind = CV_DTYPE;
    c.dtype = elem.dt;
    c.elem = elem.dt == DT_PTR ? elem.elem : 0;
    return c;
}

bool sem_is_num(const Val *v) {
    return v->kind == V_CONST &&
           (v->c.kind == CV_INT || v->c.kind == CV_BOOL || v->c.kind == CV_FLOAT);
}

static bool cv_negative(const CVal *c) {
    if (c->kind == CV_FLOAT) return c->v.f < 0;
    return !c->big && c->v.i < 0;
}

/* Triton's dtype.name: "int8", "uint32", "int1", "fp16", "bf16", "fp32". */
const char *sem_tl_name(int d) {
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
const char *sem_tl_repr(Trace *t, Type e) {
    static const char *const cg[DT_COUNT] = {
        [DT_I1] = "int1", [DT_I8] = "int8", [DT_I16] = "int16", [DT_I32] = "int32",
        [DT_I64] = "int64", [DT_U8] = "uint8", [DT_U16] = "uint16", [DT_U32] = "uint32",
        [DT_U64] = "uint64", [DT_FP16] = "float16", [DT_BF16] = "bfloat16",
        [DT_FP32] = "float32", [DT_FP64] = "float64", [DT_VOID] = "void",
        [DT_FP8E5] = "float8e5", [DT_FP8E4NV] = "float8e4nv", [DT_FP8E4B15] = "float8e4b15"};
    if (e.dt == DT_PTR) return arena_printf(t->arena, "pointer<%s>", sem_tl_name(e.elem));
    return arena_printf(t->arena, "triton.language.%s", e.dt < DT_COUNT && cg[e.dt] ? cg[e.dt] : "?");
}

const char *sem_type_s(Trace *t, Type ty) {
    char buf[160];
    type_str(ty, buf, sizeof buf);
    return arena_strdup(t->arena, buf);
}

const char *sem_shape_s(Trace *t, int rank, const int32_t *shape) {
    char buf[160];
    size_t o = 0;
    o += (size_t)snprintf(buf, sizeof buf, "[");
    for (int i = 0; i < rank && o < sizeof buf; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, i ? ", %d" : "%d", shape[i]);
    if (o < sizeof buf) snprintf(buf + o, sizeof buf - o, "]");
    return arena_strdup(t->arena, buf);
}

bool sem_same_elem(Type a, Type b) { return a.dt == b.dt && (a.dt != DT_PTR || a.elem == b.elem); }

/* dtype kind as Triton orders it: BOOLEAN < INTEGRAL < FLOATING */
static int dt_kind(int d) { return d == DT_I1 ? 0 : dt_is_int(d) ? 1 : 2; }

void sem_check_shape(Trace *t, int rank, const int32_t *shape, SrcLoc loc) {
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

Val sem_emit_v(Trace *t, int op, const int *args, int nargs, Type rt, Attr attr, SrcLoc loc) {
    int id = sem_emit(t, op, args, nargs, rt, attr, loc);
    return val_tensor(id, rt);
}

Val sem_emit1(Trace *t, int op, Val a, Type rt, SrcLoc loc) {
    Attr at = {0};
    return sem_emit_v(t, op, &a.id, 1, rt, at, loc);
}

Val sem_emit2(Trace *t, int op, Val a, Val b, Type rt, int kind, SrcLoc loc) {
    Attr at = {0};
    at.kind = kind;
    int args[2] = {a.id, b.id};
    return sem_emit_v(t, op, args, 2, rt, at, loc);
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
    case DT_FP8E5: case DT_FP8E4NV: case DT_FP8E4B15: /* get_fp32, then truncated */
        return fp8_to_double(dt, fp8_from_double(dt, (double)(float)x, 0));
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
Val sem_const(Trace *t, Type ty, const CVal *c, SrcLoc loc) {
    Attr at = {0};
    int dt = ty.dt;
    if (dt_is_float(dt)) {
        at.f = round_to_dtype(cv_to_double(c), dt);
    } else if (dt_is_int(dt)) {
        int64_t i;
        if (c->kind == CV_FLOAT) {
            double f = c->v.f;
            if (dt == DT_I1) i = f != 0;
            else if (!isfinite(f) || fabs(f) >= 9.2e18) FAIL("cannot convert %g to %s", f, sem_tl_name(dt));
            else i = (int64_t)f;
        } else {
            i = c->v.i;
        }
        at.i = wrap_int(i, dt);
    } else {
        at.i = c->kind == CV_FLOAT ? (int64_t)c->v.f : c->v.i;
    }
    return sem_emit_v(t, OP_CONST, NULL, 0, ty, at, loc);
}

Val sem_const_num(Trace *t, Type ty, double f, SrcLoc loc) {
    CVal c = f == floor(f) && fabs(f) < 9e18 ? cv_int((int64_t)f) : cv_float(f);
    if (dt_is_float(ty.dt)) c = cv_float(f);
    return sem_const(t, ty, &c, loc);
}

Val sem_to_tensor(Trace *t, Val v, SrcLoc loc) {
    if (v.kind == V_TENSOR) return v;
    if (v.kind == V_CONST) {
        int dt;
        if (literal_dtype(&v.c, &dt)) return sem_const(t, type_scalar(dt), &v.c, loc);
        char buf[128];
        cv_repr(&v.c, buf, sizeof buf);
        FAIL("cannot convert %s of type %s to tensor", buf,
             v.c.kind == CV_NONE ? "NoneType" : v.c.kind == CV_STR ? "str"
             : v.c.kind == CV_DTYPE ? "dtype" : "tuple");
    }
    if (v.kind == V_TUPLE) FAIL("cannot convert a tuple to a tensor");
    if (v.kind == V_BLOCKPTR) FAIL("a block pointer is not a tensor of values here; tl.load(bp) reads its block");
    FAIL("expected a tensor or a number here");
}

/* ---- shapes ----------------------------------------------------------------------------- */

Val sem_splat(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc) {
    if (rank == 0) return v;
    sem_check_shape(t, rank, shape, loc);
    return sem_emit1(t, OP_SPLAT, v, type_with_shape(v.type, rank, shape), loc);
}

Val sem_reshape(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc) {
    if (v.type.rank == rank) {
        bool same = true;
        for (int i = 0; i < rank; i++) same = same && v.type.shape[i] == shape[i];
        if (same) return v;
    }
    if (v.type.rank == 0) return sem_splat(t, v, rank, shape, loc);
    sem_check_shape(t, rank, shape, loc);
    return sem_emit1(t, OP_RESHAPE, v, type_with_shape(v.type, rank, shape), loc);
}

/* Triton's broadcast_impl_shape: equal rank (scalars splat), size-1 dims stretched. */
Val sem_broadcast_to(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    if (v.type.rank == 0) return sem_splat(t, v, rank, shape, loc);
    const int32_t *src = v.type.shape;
    if (v.type.rank != rank)
        FAIL("Cannot broadcast, rank mismatch: %s, %s", sem_shape_s(t, v.type.rank, src),
             sem_shape_s(t, rank, shape));
    bool same = true;
    for (int i = 0; i < rank; i++) {
        if (shape[i] != src[i] && src[i] != 1)
            FAIL("Cannot broadcast, the expanded size of the tensor (%d) must match the existing "
                 "size (%d) at non-singleton dimension %d: %s, %s",
                 shape[i], src[i], i, sem_shape_s(t, rank, src), sem_shape_s(t, rank, shape));
        same = same && shape[i] == src[i];
    }
    if (same) return v;
    sem_check_shape(t, rank, shape, loc);
    return sem_emit1(t, OP_BROADCAST, v, type_with_shape(v.type, rank, shape), loc);
}

/* Triton's broadcast_impl_value: both operands to their common (numpy) shape. */
void sem_bcast_pair(Trace *t, Val *a, Val *b, SrcLoc loc) {
    Type ta = a->type, tb = b->type;
    if (ta.rank == 0 && tb.rank == 0) return;
    if (ta.rank == 0) { *a = sem_splat(t, *a, tb.rank, tb.shape, loc); return; }
    if (tb.rank == 0) { *b = sem_splat(t, *b, ta.rank, ta.shape, loc); return; }
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
            *x = sem_reshape(t, *x, rank, s, loc);
        }
        *x = sem_broadcast_to(t, *x, rank, shape, loc);
    }
}

/* numpy broadcast of v to shape, allowing rank extension (leading 1s). */
Val sem_bcast_ext(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    if (v.type.rank > 0 && v.type.rank < rank) {
        int32_t s[TC_MAX_RANK + 1];
        int pad = rank - v.type.rank;
        for (int i = 0; i < rank; i++) s[i] = i < pad ? 1 : v.type.shape[i - pad];
        v = sem_reshape(t, v, rank, s, loc);
    }
    return sem_broadcast_to(t, v, rank, shape, loc);
}

Val sem_expand_dims(Trace *t, Val v, int axis, SrcLoc loc) {
    int32_t s[TC_MAX_RANK + 1];
    int r = v.type.rank;
    if (r + 1 > TC_MAX_RANK) UNSUP("tensors of rank %d are not supported by tritonc (at most %d)", r + 1, TC_MAX_RANK);
    for (int i = 0, j = 0; i <= r; i++) s[i] = i == axis ? 1 : v.type.shape[j++];
    if (r == 0) return sem_splat(t, v, 1, s, loc);
    Attr at = {0};
    at.axis = axis;
    return sem_emit_v(t, OP_EXPAND_DIMS, &v.id, 1, type_with_shape(v.type, r + 1, s), at, loc);
}

int sem_wrap_axis(Trace *t, int64_t axis, int ndim, SrcLoc loc) {
    if (axis < -ndim || axis >= ndim)
        FAIL("invalid axis %lld. Expected %d <= axis < %d", (long long)axis, -ndim, ndim);
    return (int)(axis < 0 ? axis + ndim : axis);
}

Val sem_permute(Trace *t, Val x, const int *dims, int n, SrcLoc loc) {
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
    return sem_emit_v(t, OP_PERMUTE, &x.id, 1, type_with_shape(x.type, n, s), at, loc);
}

Val sem_reshape_checked(Trace *t, Val x, int rank, const int32_t *shape, SrcLoc loc) {
    x = sem_to_tensor(t, x, loc);
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    if (n != type_numel(x.type)) FAIL("reshape() cannot change total number of elements in tensor");
    if (rank == 0) {
        if (x.type.rank == 0) return x;
        return sem_emit1(t, OP_RESHAPE, x, type_elem(x.type), loc);
    }
    return sem_reshape(t, x, rank, shape, loc);
}

/* ---- casts ------------------------------------------------------------------------------ */

static Val ne_zero(Trace *t, Val v, SrcLoc loc) {
    CVal z = dt_is_float(v.type.dt) ? cv_float(0) : cv_int(0);
    Val zero = sem_const(t, v.type, &z, loc);
    return sem_emit2(t, OP_CMP, v, zero, type_with_shape(type_scalar(DT_I1), v.type.rank, v.type.shape),
                 CMP_NE, loc);
}

/* Casts to and from the 8-bit floats: one CAST, with the conversions Triton's NVIDIA backend
 * has (fp8 <-> fp16, bf16, fp32; fp8e4b15 only <-> fp16, fp32; rtz only to fp8e5 from fp16 or
 * fp32); the rest is refused as Triton refuses it. */
static Val sem_cast_fp8(Trace *t, Val v, Type rt, int rounding, SrcLoc loc) {
    int s = v.type.dt, d = rt.dt;
    int o = dt_is_fp8(s) ? d : s; /* the other side */
    bool b15 = s == DT_FP8E4B15 || d == DT_FP8E4B15;
    if (!(o == DT_FP16 || o == DT_FP32 || (o == DT_BF16 && !b15)))
        FAIL("cannot cast %s to %s: %s converts only to and from %s", sem_tl_name(s),
             sem_tl_name(d == DT_PTR ? DT_I64 : d), sem_tl_name(dt_is_fp8(s) ? s : d),
             b15 ? "fp16 and fp32" : "fp16, bf16 and fp32");
    if (rounding && !(d == DT_FP8E5 && s != DT_BF16) && !(d == DT_FP8E4B15))
        FAIL("Unsupported rounding mode for conversion from %s to %s: rtz", sem_tl_name(s), sem_tl_name(d));
    Attr at = {0};
    at.kind = d == DT_FP8E4B15 ? 0 : rounding; /* Triton's fp8e4b15 conversion ignores it */
    return sem_emit_v(t, OP_CAST, &v.id, 1, rt, at, loc);
}

/* Triton's semantic.cast; rounding 1 = rtz for truncating float casts. */
Val sem_cast_impl(Trace *t, Val v, Type elem, int rounding, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    Type src = v.type;
    int s = src.dt, d = elem.dt;
    if (sem_same_elem(type_elem(src), elem)) return v;
    Type rt = type_with_shape(elem, src.rank, src.shape);
    if (dt_is_fp8(s) || dt_is_fp8(d)) return sem_cast_fp8(t, v, rt, rounding, loc);
    if ((s == DT_FP16 || s == DT_BF16) && d != DT_FP32) {
        Val mid = sem_cast_impl(t, v, type_scalar(DT_FP32), 0, loc);
        return sem_cast_impl(t, mid, elem, rounding, loc);
    }
    bool truncate_fp = dt_is_float(s) && dt_is_float(d) && dt_bits(s) > dt_bits(d);
    if (rounding && !truncate_fp)
        FAIL("fp_downcast_rounding should be set only for truncating fp conversions, source scalar "
             "type is %s and destination type is %s", sem_tl_name(s), sem_tl_name(d == DT_PTR ? DT_I64 : d));
    Attr at = {0};
    if (truncate_fp) {
        at.kind = rounding;
        return sem_emit_v(t, OP_CAST, &v.id, 1, rt, at, loc);
    }
    if (dt_is_float(s) && dt_is_float(d)) return sem_emit_v(t, OP_CAST, &v.id, 1, rt, at, loc);
    if ((dt_is_int(s) || dt_is_float(s)) && d == DT_I1) return ne_zero(t, v, loc);
    if ((dt_is_int(s) || dt_is_float(s)) && (dt_is_int(d) || dt_is_float(d)))
        return sem_emit_v(t, OP_CAST, &v.id, 1, rt, at, loc);
    if (s == DT_PTR && dt_is_int(d)) {
        if (dt_bits(d) == 64) return sem_emit_v(t, OP_BITCAST, &v.id, 1, rt, at, loc);
        if (d == DT_I1) return ne_zero(t, sem_cast_impl(t, v, type_scalar(DT_I64), 0, loc), loc);
    }
    if (dt_is_int(s) && d == DT_PTR) {
        if (dt_bits(s) != 64) v = sem_cast_impl(t, v, type_scalar(dt_is_signed(s) ? DT_I64 : DT_U64), 0, loc);
        return sem_emit_v(t, OP_BITCAST, &v.id, 1, rt, at, loc);
    }
    if (s == DT_PTR && d == DT_PTR) return sem_emit_v(t, OP_BITCAST, &v.id, 1, rt, at, loc);
    FAIL("cannot cast %s to %s", sem_type_s(t, src), sem_type_s(t, rt));
}

Val sem_bitcast(Trace *t, Val v, Type elem, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    if (v.type.dt == DT_PTR || elem.dt == DT_PTR) return sem_cast_impl(t, v, elem, 0, loc);
    int sb = dt_bits(v.type.dt), db = dt_bits(elem.dt);
    if (sb != db)
        FAIL("Cannot bitcast data-type of size %d to data-type of size %d", sb, db);
    if (sem_same_elem(type_elem(v.type), elem)) return v;
    Attr at = {0};
    return sem_emit_v(t, OP_BITCAST, &v.id, 1, type_with_shape(elem, v.type.rank, v.type.shape), at, loc);
}

Val sem_cast(Trace *t, Val v, Type elem, bool bitcast, SrcLoc loc) {
    elem = type_elem(elem);
    return bitcast ? sem_bitcast(t, v, elem, loc) : sem_cast_impl(t, v, elem, 0, loc);
}

Val sem_promote_bf16(Trace *t, Val x, SrcLoc loc) {
    if (x.type.dt == DT_BF16) return sem_cast_impl(t, x, type_scalar(DT_FP32), 0, loc);
    return x;
}

/* ---- binary and unary operators ---------------------------------------------------------- */

bool sem_str_in(const char *s, const char *const *set) {
    for (; *set; set++)
        if (strcmp(s, *set) == 0) return true;
    return false;
}

static void check_ptr_operands(Trace *t, Type a, Type b, bool allow, SrcLoc loc) {
    if (a.dt != DT_PTR) return;
    if (!allow || (b.dt == DT_PTR && !sem_same_elem(a, b)) || dt_is_float(b.dt))
        FAIL("invalid operands of type %s and %s", sem_tl_repr(t, a), sem_tl_repr(t, b));
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
        FAIL("Scalar %s is out of range for type %s", buf, sem_tl_name(r));
    }
}

/* Triton's binary_op_type_checking_impl: a and b become tensors of one shape; unless a
 * pointer is involved (or !arith), both are cast to the computation type, with Python
 * numbers treated as weak scalars. op decides the promotion (PY_NOOP for builtins such as
 * maximum), what names the operation in messages. */
void sem_bin_check(Trace *t, PyOp op, const char *what, Val *a, Val *b, bool lptr, bool rptr,
                      bool arith, SrcLoc loc) {
    bool as = a->kind == V_CONST, bs = b->kind == V_CONST;
    if (as && !sem_is_num(a)) *a = sem_to_tensor(t, *a, loc); /* fails with Triton's message */
    if (bs && !sem_is_num(b)) *b = sem_to_tensor(t, *b, loc);
    if (a->kind != V_CONST && a->kind != V_TENSOR) FAIL("unsupported operand for '%s'", what);
    if (b->kind != V_CONST && b->kind != V_TENSOR) FAIL("unsupported operand for '%s'", what);
    Type ta, tb;
    int d;
    if (as) { literal_dtype(&a->c, &d); ta = type_scalar(d); } else ta = type_elem(a->type);
    if (bs) { literal_dtype(&b->c, &d); tb = type_scalar(d); } else tb = type_elem(b->type);
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
        *a = as ? sem_const(t, type_scalar(r), &a->c, loc) : sem_cast_impl(t, *a, type_scalar(r), 0, loc);
        *b = bs ? sem_const(t, type_scalar(r), &b->c, loc) : sem_cast_impl(t, *b, type_scalar(r), 0, loc);
    } else {
        *a = sem_to_tensor(t, *a, loc);
        *b = sem_to_tensor(t, *b, loc);
    }
    sem_bcast_pair(t, a, b, loc);
}

Type sem_i1_like(Type ty) { return type_with_shape(type_scalar(DT_I1), ty.rank, ty.shape); }

/* Debug mode's integer overflow check (Triton's binary_op_sanitize_overflow_impl): for
 * integers narrower than 64 bits, the operation is done again in int64 and a device
 * assertion checks that the result fits the operands' type. */
static void sanitize_overflow(Trace *t, int irop, Val a, Val b, SrcLoc loc) {
    int dt = a.type.dt, bits = dt_bits(dt);
    if (!t->debug || t->no_sanitize || !dt_is_int(dt) || dt == DT_I1 || bits >= 64) return;
    Val wa = sem_cast_impl(t, a, type_scalar(DT_I64), 0, loc);
    Val wb = sem_cast_impl(t, b, type_scalar(DT_I64), 0, loc);
    Val r = sem_emit2(t, irop, wa, wb, wa.type, 0, loc);
    bool sgn = dt_is_signed(dt);
    double hi = sgn ? ldexp(1, bits - 1) - 1 : ldexp(1, bits) - 1, lo = sgn ? -ldexp(1, bits - 1) : 0;
    Type bt = sem_i1_like(r.type);
    Val le = sem_emit2(t, OP_CMP, r, sem_const_num(t, r.type, hi, loc), bt, CMP_LE, loc);
    Val ge = sem_emit2(t, OP_CMP, r, sem_const_num(t, r.type, lo, loc), bt, CMP_GE, loc);
    Val ok = sem_emit2(t, OP_AND, le, ge, bt, 0, loc);
    char msg[96];
    snprintf(msg, sizeof msg, "int%d overflow detected for operation %s", bits,
             irop == OP_ADD ? "add" : irop == OP_SUB ? "sub" : "mul");
    Attr at = {0};
    at.str = arena_strdup(t->arena, msg);
    sem_emit(t, OP_ASSERT, &ok.id, 1, type_scalar(DT_VOID), at, loc);
}

static Val sub_from_zero(Trace *t, Val x, SrcLoc loc) {
    Val zero = sem_const_num(t, x.type, 0, loc);
    sanitize_overflow(t, OP_SUB, zero, x, loc);
    return sem_emit2(t, OP_SUB, zero, x, x.type, 0, loc);
}

static Val add_ptr(Trace *t, Val p, Val off, SrcLoc loc) {
    if (dt_is_unsigned(off.type.dt) && dt_bits(off.type.dt) < 64)
        off = sem_cast_impl(t, off, type_scalar(DT_I64), 0, loc);
    return sem_emit2(t, OP_ADDPTR, p, off, p.type, 0, loc);
}

Val sem_binary(Trace *t, PyOp op, Val a, Val b, SrcLoc loc) {
    /* the IR op of each operator sem_binary takes (comparisons are OP_CMP) */
    static const int ir_op[PY_OP_COUNT] = {
        [PY_ADD] = OP_ADD, [PY_SUB] = OP_SUB, [PY_MUL] = OP_MUL, [PY_DIV] = OP_DIV,
        [PY_FLOORDIV] = OP_DIV, [PY_MOD] = OP_REM, [PY_BITAND] = OP_AND, [PY_BITOR] = OP_OR,
        [PY_BITXOR] = OP_XOR, [PY_LSHIFT] = OP_SHL, [PY_RSHIFT] = OP_SHR,
        [PY_EQ] = OP_CMP, [PY_NE] = OP_CMP, [PY_LT] = OP_CMP, [PY_LE] = OP_CMP,
        [PY_GT] = OP_CMP, [PY_GE] = OP_CMP,
    };
    if (a.desc || b.desc)
        FAIL("a tensor descriptor is not a pointer: read and write it with desc.load(offsets) "
             "and desc.store(offsets, value)");
    if (!ir_op[op]) {
        if (op == PY_MATMUL) FAIL("AST binary operator 'MatMult' is not implemented");
        if (op == PY_POW) FAIL("unsupported operand type(s) for ** or pow(): 'tensor'");
        FAIL("unsupported binary operator '%s'", py_op_str(op));
    }
    bool cmp = ir_op[op] == OP_CMP;
    if (cmp) {
        /* comparisons convert Python numbers to typed tensors first (strong typing) */
        if (a.kind == V_CONST) a = sem_to_tensor(t, a, loc);
        if (b.kind == V_CONST) b = sem_to_tensor(t, b, loc);
    }
    /* >> is arithmetic when the tensor operand it dispatches on is signed */
    bool shr_signed = a.kind == V_TENSOR ? dt_is_signed(a.type.dt)
                      : b.kind == V_TENSOR ? dt_is_signed(b.type.dt) : false;
    bool is_add = op == PY_ADD, is_sub = op == PY_SUB;
    sem_bin_check(t, op, py_op_str(op), &a, &b, is_add || is_sub, is_add, true, loc);
    Type rt = a.type;
    if (is_add) {
        if (a.type.dt == DT_PTR && b.type.dt == DT_PTR) FAIL("cannot add pointers together");
        if (b.type.dt == DT_PTR) { Val x = a; a = b; b = x; }
        if (a.type.dt == DT_PTR) return add_ptr(t, a, b, loc);
        sanitize_overflow(t, OP_ADD, a, b, loc);
        return sem_emit2(t, OP_ADD, a, b, rt, 0, loc);
    }
    if (is_sub) {
        if (a.type.dt == DT_PTR) return add_ptr(t, a, sub_from_zero(t, b, loc), loc);
        sanitize_overflow(t, OP_SUB, a, b, loc);
        return sem_emit2(t, OP_SUB, a, b, rt, 0, loc);
    }
    if (op == PY_MUL) sanitize_overflow(t, OP_MUL, a, b, loc);
    if (op == PY_DIV) {
        if (dt_is_int(a.type.dt)) {
            a = sem_cast_impl(t, a, type_scalar(DT_FP32), 0, loc);
            b = sem_cast_impl(t, b, type_scalar(DT_FP32), 0, loc);
        }
        return sem_emit2(t, OP_DIV, a, b, a.type, 0, loc);
    }
    if (!cmp) return sem_emit2(t, ir_op[op], a, b, rt, op == PY_RSHIFT && shr_signed ? 1 : 0, loc);
    int kind = op == PY_EQ ? CMP_EQ : op == PY_NE ? CMP_NE : op == PY_LT ? CMP_LT
             : op == PY_LE ? CMP_LE : op == PY_GT ? CMP_GT : CMP_GE;
    return sem_emit2(t, OP_CMP, a, b, sem_i1_like(rt), kind, loc);
}

static Val to_i1_logical(Trace *t, Val v, SrcLoc loc) {
    v = sem_to_tensor(t, v, loc);
    if (v.type.dt != DT_I1) v = sem_bitcast(t, v, type_scalar(DT_I1), loc);
    return v;
}

Val sem_unary(Trace *t, PyOp op, Val a, SrcLoc loc) {
    a = sem_to_tensor(t, a, loc);
    if (op == PY_UADD) return a;
    if (op == PY_USUB) {
        if (a.type.dt == DT_PTR)
            FAIL("wrong type argument to unary minus (%s)", sem_tl_repr(t, type_elem(a.type)));
        return sub_from_zero(t, a, loc);
    }
    if (op == PY_INVERT) {
        if (a.type.dt == DT_PTR || dt_is_float(a.type.dt))
            FAIL("wrong type argument to unary invert (%s)", sem_tl_repr(t, type_elem(a.type)));
        return sem_emit1(t, OP_NOT, a, a.type, loc);
    }
    if (op == PY_NOT) {
        a = to_i1_logical(t, a, loc);
        return sem_emit1(t, OP_NOT, a, a.type, loc);
    }
    FAIL("unsupported unary operator '%s'", py_op_str(op));
}

Val sem_logical(Trace *t, PyOp op, Val a, Val b, SrcLoc loc) {
    a = to_i1_logical(t, a, loc);
    b = to_i1_logical(t, b, loc);
    sem_bcast_pair(t, &a, &b, loc);
    if (op == PY_AND) return sem_emit2(t, OP_AND, a, b, a.type, 0, loc);
    if (op == PY_OR) return sem_emit2(t, OP_OR, a, b, a.type, 0, loc);
    FAIL("unsupported logical operator '%s'", py_op_str(op));
}

/* ---- attributes -------------------------------------------------------------------------- */

bool sem_attr(Trace *t, Val v, const char *name, Val *out, SrcLoc loc) {
    *out = val_void();
    if (v.kind == V_TENSOR) {
        if (strcmp(name, "dtype") == 0) { *out = val_const(sem_cv_dtype(type_elem(v.type))); return true; }
        if (strcmp(name, "type") == 0) { *out = val_const(sem_cv_dtype(type_elem(v.type))); return true; }
        if (strcmp(name, "shape") == 0) {
            CVal c = {0};
            c.kind = CV_TUPLE;
            c.v.tup.n = v.type.rank;
            c.v.tup.items = arena_alloc(t->arena, sizeof(CVal) * (size_t)(v.type.rank ? v.type.rank : 1));
            for (int i = 0; i < v.type.rank; i++) c.v.tup.items[i] = cv_int(v.type.shape[i]);
            *out = val_const(c);
            return true;
        }
        if (strcmp(name, "numel") == 0) { *out = val_const(cv_int(type_numel(v.type))); return true; }
        if (strcmp(name, "T") == 0) {
            int perm[2] = {1, 0};
            *out = sem_permute(t, v, perm, 2, loc);
            return true;
        }
        return false;
    }
    if (v.kind == V_CONST && v.c.kind == CV_DTYPE) {
        int d = v.c.dtype;
        if (strcmp(name, "element_ty") == 0) {
            if (d == DT_PTR) *out = val_const(sem_cv_dtype(type_scalar(v.c.elem)));
            else *out = v;
            return true;
        }
        if (strcmp(name, "primitive_bitwidth") == 0 || strcmp(name, "int_bitwidth") == 0) {
            *out = val_const(cv_int(dt_bits(d)));
            return true;
        }
        if (strcmp(name, "fp_mantissa_width") == 0) {
            int w = d == DT_FP16 ? 10 : d == DT_BF16 ? 7 : d == DT_FP32 ? 23 : d == DT_FP64 ? 52
                  : d == DT_FP8E5 ? 2 : dt_is_fp8(d) ? 3 : 0;
            *out = val_const(cv_int(w));
            return true;
        }
        if (strcmp(name, "name") == 0) {
            *out = val_const(cv_str(d == DT_PTR ? arena_printf(t->arena, "pointer<%s>", sem_tl_name(v.c.elem))
                                               : sem_tl_name(d)));
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

