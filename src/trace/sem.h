/* sem.h — what semantic.c and the builtin families (builtins*.c) share; the tracer uses
 * trace.h only. semantic.c holds the core every builtin builds on: Triton's dtype names,
 * emitting IR, constants, splat/reshape/broadcast, casts and binary-operator type checking.
 * builtins.c holds the call side: the Call record, argument accessors and the dispatch to
 * each family's table of {name, parameter list, handler}. */
#ifndef SEM_H
#define SEM_H

#include "trace/eval.h"
#include "trace/trace.h"

/* Fail with Triton's error at `loc`; both need `t` (Trace *) and `loc` in scope. */
#define FAIL(...) err_fail(t->err, TC_ERR_COMPILE, loc, __VA_ARGS__)
#define UNSUP(...) err_fail(t->err, TC_ERR_UNSUPPORTED, loc, __VA_ARGS__)
#define MAX_NUMEL (1 << 20)   /* Triton's TRITON_MAX_TENSOR_NUMEL */

/* ---- semantic.c: values, names, IR ------------------------------------------------------ */

Val sem_tuple(Trace *t, const Val *items, int n);   /* a V_TUPLE with its own copy of items */
CVal sem_cv_dtype(Type elem);                        /* the constexpr dtype of an element type */
bool sem_is_num(const Val *v);                       /* a constexpr int, bool or float */
const char *sem_tl_name(int d);                      /* dtype.name: "int8", "uint32", "fp16" */
const char *sem_tl_repr(Trace *t, Type e);           /* "triton.language.float32", "pointer<fp32>" */
const char *sem_type_s(Trace *t, Type ty);           /* type_str in the arena */
const char *sem_shape_s(Trace *t, int rank, const int32_t *shape);   /* "[4, 8]" */
bool sem_same_elem(Type a, Type b);
bool sem_str_in(const char *s, const char *const *set);              /* set ends with NULL */
/* Shape elements powers of two, rank and numel within Triton's limits. */
void sem_check_shape(Trace *t, int rank, const int32_t *shape, SrcLoc loc);
Type sem_i1_like(Type ty);                           /* an i1 of ty's shape */

Val sem_emit_v(Trace *t, int op, const int *args, int nargs, Type rt, Attr attr, SrcLoc loc);
Val sem_emit1(Trace *t, int op, Val a, Type rt, SrcLoc loc);
Val sem_emit2(Trace *t, int op, Val a, Val b, Type rt, int kind, SrcLoc loc);
/* A CONST of type ty (scalar or block) holding the Python number c converted to ty's element
 * type; sem_const_num the same for a double. */
Val sem_const(Trace *t, Type ty, const CVal *c, SrcLoc loc);
Val sem_const_num(Trace *t, Type ty, double f, SrcLoc loc);

/* ---- semantic.c: shapes, casts, operand checks -------------------------------------------- */

Val sem_splat(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc);
Val sem_reshape(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc);
/* tl.reshape: sem_reshape that refuses to change the number of elements. */
Val sem_reshape_checked(Trace *t, Val x, int rank, const int32_t *shape, SrcLoc loc);
/* Both operands to their common (numpy) shape, Triton's broadcast_impl_value. */
void sem_bcast_pair(Trace *t, Val *a, Val *b, SrcLoc loc);
/* Broadcast to shape, allowing rank extension (leading 1s). */
Val sem_bcast_ext(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc);
Val sem_expand_dims(Trace *t, Val v, int axis, SrcLoc loc);         /* one axis, in range */
int sem_wrap_axis(Trace *t, int64_t axis, int ndim, SrcLoc loc);     /* -1 -> ndim-1, checked */
Val sem_permute(Trace *t, Val x, const int *dims, int n, SrcLoc loc);
/* Triton's semantic.cast; rounding 1 = rtz for truncating float casts. */
Val sem_cast_impl(Trace *t, Val v, Type elem, int rounding, SrcLoc loc);
Val sem_bitcast(Trace *t, Val v, Type elem, SrcLoc loc);
Val sem_promote_bf16(Trace *t, Val x, SrcLoc loc);   /* bf16 -> fp32, others unchanged */
/* Triton's binary_op_type_checking_impl: a and b become tensors of one shape; unless a
 * pointer is involved (or !arith), both are cast to the computation type, with Python
 * numbers treated as weak scalars. op decides the promotion (PY_NOOP for builtins such as
 * maximum), `what` names the operation in messages. */
void sem_bin_check(Trace *t, PyOp op, const char *what, Val *a, Val *b, bool lptr, bool rptr,
                   bool arith, SrcLoc loc);

/* ---- builtins.c: calls ------------------------------------------------------------------- */

typedef struct Builtin Builtin;
typedef struct Call {
    Trace *t;
    const Builtin *b;     /* the table entry being called */
    const char *fname;    /* for messages: "load" (or "print" for builtins.print) */
    SrcLoc loc;
    Val *pos; int npos;   /* positional arguments (a bound self first) */
    const char **kwn; Val *kwv; int nkw;
    Val *rest; int nrest; /* extra positionals of a *args parameter list */
    bool method;          /* called as tensor.NAME */
    bool libdevice;       /* called as libdevice.NAME */
} Call;

/* One builtin: its name after the module path ("load" for tl.load, tensor.load and
 * triton.language.core.load), its parameter list, and the handler that gets the bound
 * arguments: a[i] is the argument of parameter i, NULL when an optional one is absent or
 * None. Parameter list syntax: "pointer,mask?,other?" ('?' optional); a '*' entry takes
 * extra positionals into c->rest and makes the names after it keyword-only. Handlers are
 * named h_NAME after the builtin they serve. */
struct Builtin {
    const char *name;
    const char *params;
    Val (*fn)(Call *c, Val **a);
    int arg;              /* the handler's own datum: an IR op, an atomic or reduction kind */
};

/* tl.make_tensor_descriptor(base, shape, strides, block_shape) (builtins_desc.c) */
Val sem_h_make_tensor_descriptor(Call *c, Val **a);
/* The pointers and in-bounds mask of a block (builtins_desc.c; tensor descriptors and block
 * pointers): base + sum_i (offs[i] + arange(block[i])) * strides[i], the mask over the dims
 * whose bit is set in `check` (V_VOID when none), 64-bit indices where `wide`; `split`: the
 * offsets' part added to the base first (block pointers). */
void sem_block_addr(Trace *t, Val base, int rank, const int32_t *block, const Val *offs,
                    const Val *shape, const Val *strides, unsigned check, bool wide, bool split,
                    Val *ptr, Val *mask, SrcLoc loc);
/* tl.make_block_ptr, tl.advance, and tl.load / tl.store of a block pointer (builtins_blockptr.c;
 * h_load and h_store hand a block pointer over after checking the cache and eviction hints) */
Val sem_h_make_block_ptr(Call *c, Val **a);
Val sem_h_advance(Call *c, Val **a);
Val sem_bptr_load(Call *c, Val **a);
Val sem_bptr_store(Call *c, Val **a);

/* The families' tables, each ended by an entry with a NULL name. */
extern const Builtin sem_builtins_memory[], sem_builtins_math[], sem_builtins_reduce[],
    sem_builtins_shape[], sem_builtins_program[];
/* libdevice.NAME only (builtins_math.c): the elementary functions beyond tl.math */
extern const Builtin sem_builtins_libdevice[];
/* libdevice's special functions (Bessel, gamma, ...): refused as not yet supported */
bool sem_libdevice_special(const char *name);

/* Constexpr arguments: fail with "f() argument 'what' must be a constexpr int" etc. */
int64_t sem_arg_int(Call *c, const Val *v, const char *what);
bool sem_arg_bool(Call *c, const Val *v, bool dflt, const char *what);
const char *sem_arg_str(Call *c, const Val *v, const char *dflt, const char *what);
Type sem_arg_dtype(Call *c, const Val *v, const char *what);
/* A shape from `*shape` varargs or one tuple argument (Triton's _unwrap_iterable). */
void sem_arg_shape_list(Call *c, const Val *items, int n, int *rank, int32_t *shape);
void sem_arg_shape(Call *c, const Val *v, int *rank, int32_t *shape);
int sem_tuple_len(const Val *v);                     /* -1 when v is not a tuple */
Val sem_tuple_item(const Val *v, int i);

/* ---- helpers one family lends another ---------------------------------------------------- */

/* math */
void sem_check_float(Call *c, Val x, bool fp32_only);
Val sem_minmax(Call *c, Val x, Val y, int op, int nan);
Val sem_where(Trace *t, Val cond, Val x, Val y, SrcLoc loc);
Val sem_abs(Trace *t, Val x, SrcLoc loc);
Val sem_cdiv(Call *c, Val x, Val d);
Val sem_fdiv(Call *c, Val x, Val y);
/* reduce */
Val sem_reduce_axis(Trace *t, Val x, int axis, int kind, SrcLoc loc);
/* shape */
Val sem_join(Trace *t, Val a, Val b, SrcLoc loc);
Val sem_split(Trace *t, Val a, SrcLoc loc);
Val sem_select_along(Trace *t, Val x, int axis, Val sel, SrcLoc loc);
Val sem_flip(Trace *t, Val x, int axis, SrcLoc loc);

#endif
