/* trace.h — specialization: walking a kernel's AST with its constexprs known, producing
 * tile IR. trace.c owns the walk (scopes, control flow, calls) and folds constexprs with
 * eval.c (eval.h); semantic.c owns what operations mean (Triton's type promotion,
 * broadcasting, casts) and builtins*.c every tl.* builtin, as Triton's code_generator.py and
 * semantic.py divide the work. */
#ifndef TRACE_H
#define TRACE_H

#include "front/ast.h"
#include "ir/ir.h"

/* ---- what a specialization is made of ------------------------------------------------ */

/* A tensor descriptor (Triton's tl.tensor_descriptor): the block shape, shape and strides
 * (elements) a parameter was specialized on; the value itself is its base pointer. One made
 * in the kernel (tl.make_tensor_descriptor) has its shape and strides as values in dyn
 * (rank shapes, then rank strides: constexprs or scalars) instead. */
typedef struct TDesc {
    int rank;
    int32_t block[TC_MAX_RANK];
    int64_t shape[TC_MAX_RANK], strides[TC_MAX_RANK];
    const struct Val *dyn;
    int tmap;          /* made in the kernel: the id + 1 of its TMAP (ops.h); 0: none */
} TDesc;

/* One kernel parameter, as the launch specializes it. */
typedef struct SpecArg {
    bool missing;      /* not given: use the parameter's default (error if none) */
    bool is_constexpr; /* value in cv (annotated constexprs, ints equal to 1, None) */
    CVal cv;
    Type type;         /* runtime: a scalar number type or a scalar pointer type */
    bool div16;        /* runtime int or pointer divisible by 16 */
    const TDesc *desc; /* runtime pointer given as a tensor descriptor, else NULL */
} SpecArg;

/* Traces kernel `k` of module `m` with one SpecArg per parameter (in order). Returns the
 * verified, optimized IR function, allocated in `a`; NULL with e set on error (the
 * message names file:line:col). static_print output is appended to `out` (may be NULL). */
IrFunc *trace_kernel(const Module *m, const Func *k, const SpecArg *args, Arena *a, Err *e,
                     Buf *out);
/* TRITON_DEBUG=1: assertions become device assertions (the disk cache keys on it). */
bool trace_debug(void);
const char *trace_f32_default(void);
int trace_f32_default_key(void);

/* ---- values while tracing -------------------------------------------------------------- */

typedef enum ValKind {
    V_CONST,    /* a constexpr (Python value): c */
    V_TENSOR,   /* a runtime value: id (IR value), type */
    V_TUPLE,    /* items[0..n) */
    V_FUNC,     /* a @jit function: fn */
    V_BUILTIN,  /* a callable from triton / triton.language / Python builtins: path, e.g.
                   "triton.language.arange", "triton.cdiv", "builtins.range", or a bound
                   method "tensor.to" with self in items[0] */
    V_MODULE,   /* a module: path, e.g. "triton.language", "triton.language.math" */
    V_VOID,     /* result of a call that returns nothing */
    V_BLOCKPTR  /* a block pointer (tl.make_block_ptr): bp its fixed parts, items[0..n) its
                   values: the base pointer, then rank offsets (i32 scalars), rank shape and
                   rank strides entries (constexpr ints or integer scalars) */
} ValKind;

/* A block pointer's parts fixed at trace time (Triton's pointer<block_type>): the block
 * shape and `order` (a layout hint; results do not depend on it). */
typedef struct BlockPtr {
    int rank;
    int32_t block[TC_MAX_RANK];
    int8_t order[TC_MAX_RANK];
} BlockPtr;

typedef struct Val Val;
struct Val {
    uint8_t kind;        /* ValKind */
    CVal c;              /* V_CONST */
    int id;              /* V_TENSOR */
    Type type;           /* V_TENSOR */
    Val *items; int n;   /* V_TUPLE; V_BUILTIN bound self (n == 1) */
    const Func *fn;      /* V_FUNC */
    const char *path;    /* V_BUILTIN, V_MODULE */
    const TDesc *desc;   /* V_TENSOR: a tensor descriptor whose base pointer this is */
    const BlockPtr *bp;  /* V_BLOCKPTR */
};

/* The tracer's state, shared with semantic.c. */
/* The most arena memory tracing one specialization may take (constexpr values, IR). */
#define TRACE_MEMORY_LIMIT ((size_t)256 << 20)

typedef struct Trace {
    const Module *mod;
    IrFunc *f;
    Region *cur;         /* where instructions are emitted now */
    Arena *arena;
    Err *err;
    Buf *out;            /* static_print output */
    int depth;           /* call/expression nesting, for TC_ERR_LIMIT */
    void *priv;          /* trace.c's own state (scopes, call stack) */
    bool debug;          /* debug mode: jit(debug=True) or TRITON_DEBUG=1 (device_assert on) */
    bool no_sanitize;    /* debug mode's overflow checks of + - * are off (Triton's own
                            sanitize_overflow=False calls, random.py) */
} Trace;

Val val_const(CVal c);
Val val_tensor(int id, Type t);
Val val_void(void);

/* trace.c: inlines a call of the @jit function fn at the current point (t->cur) with
 * positional arguments (constexprs stay constexprs in the callee), as a call in the kernel
 * would; for semantic.c's combine_fn of tl.reduce / tl.associative_scan. Returns the
 * callee's return value (V_VOID if none). Fails with err_fail like any traced call. */
Val trace_call_func(Trace *t, const Func *fn, Val *args, int nargs, SrcLoc loc);

/* builtins_desc.c: desc.NAME of a tensor descriptor (an attribute, or a bound method
 * "tensor_descriptor.load"/"store" with self in items[0]); desc.load(offsets) and
 * desc.store(offsets, value) as masked loads and stores of the block. */
Val sem_desc_attr(Trace *t, Val d, const char *name, SrcLoc loc);
Val sem_desc_call(Trace *t, const char *method, Val d, Val *args, int nargs, const char **kwn,
                  Val *kwv, int nkw, SrcLoc loc);

/* builtins_blockptr.c: whether two block pointers have the same block shape, order, element
 * type, constexpr parts and scalar types (so that one can stand for the other where a loop
 * or an `if` carries it); a block pointer's type for messages. */
bool sem_bptr_same_kind(const Val *a, const Val *b);
void sem_bptr_str(const Val *v, char *buf, size_t n);

/* ---- builtins.c: binding a call's arguments to parameters ----------------------------- */

/* One parameter: of a @jit function or of a builtin. */
typedef struct ParamSpec { const char *name; bool optional; } ParamSpec;

typedef struct ParamList {
    const char *fname;       /* the callee, for messages */
    const ParamSpec *p; int n;
    int npos;                /* how many may be given by position; the rest are keyword-only */
    bool varargs;            /* extra positionals go to *rest (a builtin's `*`) */
    bool none_absent;        /* an optional argument given as None counts as absent (builtins) */
    /* a value for each absent optional parameter, in order (a @jit default); NULL: left NULL */
    Val *(*dflt)(Trace *t, const void *ctx, int i);
    const void *ctx;
} ParamList;

/* Binds positional and keyword arguments to pl as Python does, failing with its TypeErrors
 * ("f() takes 2 positional arguments but 3 were given", "f() got an unexpected keyword
 * argument 'x'", "f() got multiple values for argument 'x'", "f() missing 1 required
 * positional argument: 'x'"). out[i] (pl->n of them) points at parameter i's argument, or
 * at pl->dflt's value, or is NULL; a varargs list's extra positionals go to *rest. */
void bind_args(Trace *t, SrcLoc loc, const ParamList *pl, Val *pos, int npos, const char **kwn,
               Val *kwv, int nkw, Val **out, Val **rest, int *nrest);

/* dtype.is_floating(), .is_int_signed(), ...: false if name is no such predicate. */
bool sem_dtype_pred(const char *name, int dt, bool *out);

/* ---- semantic.c: the meaning of operations ------------------------------------------- */

/* Emits one instruction at the current point (a thin wrapper over ir_emit). */
int sem_emit(Trace *t, int op, const int *args, int nargs, Type rt, Attr attr, SrcLoc loc);

/* A constexpr or Python number as a 0-d tensor of its literal type (Triton's to_tensor:
 * int -> i32/u32/i64/u64 by range, float -> fp32 or fp64, bool -> i1). */
Val sem_to_tensor(Trace *t, Val v, SrcLoc loc);
/* Cast a tensor to another element dtype (shape kept), Triton's cast rules. */
Val sem_cast(Trace *t, Val v, Type elem, bool bitcast, SrcLoc loc);
/* Broadcast a tensor (or splat a scalar) to a shape. */
Val sem_broadcast_to(Trace *t, Val v, int rank, const int32_t *shape, SrcLoc loc);

/* Binary operator: op is arithmetic, bitwise or a comparison (PY_ADD ... PY_BITOR except
 * PY_POW and PY_MATMUL, PY_EQ ... PY_GE). At least one operand is a tensor (two constexprs
 * are folded by the tracer). Implements weak-literal typing, promotion, broadcasting and the
 * errors Triton raises. */
Val sem_binary(Trace *t, PyOp op, Val a, Val b, SrcLoc loc);
/* Unary PY_USUB, PY_UADD, PY_INVERT, PY_NOT on a tensor. */
Val sem_unary(Trace *t, PyOp op, Val a, SrcLoc loc);
/* Logical PY_AND / PY_OR on tensors (both int1, or error as Triton). */
Val sem_logical(Trace *t, PyOp op, Val a, Val b, SrcLoc loc);

/* Calls a builtin (V_BUILTIN path) with evaluated positional and keyword arguments
 * (builtins.c): triton.language.* and its submodules, libdevice and tensor methods
 * ("tensor.to", "tensor.sum") from the family tables of builtins_*.c, triton.cdiv /
 * triton.next_power_of_2, dtype predicates and the Python builtins min/max/print/int/float/
 * bool/len/abs. Returns V_VOID for calls without a value. */
Val sem_call(Trace *t, const char *path, const Val *self, Val *args, int nargs,
             const char **kwnames, Val *kwvals, int nkw, SrcLoc loc);
/* Attribute of a tensor value: dtype, shape, T, type, numel; NULL-kind V_VOID if none. */
bool sem_attr(Trace *t, Val v, const char *name, Val *out, SrcLoc loc);

/* ---- types.c: Triton's type rules (pure functions, no IR) ------------------------------ */

/* The literal type of a Python number (Triton's to_tensor_type); false if not representable. */
bool literal_dtype(const CVal *c, int *dt);
/* Computation dtype for a binary arithmetic op (Triton's computation_type_impl) after the
 * weak-scalar step; writes an error message into msg (n bytes) and returns DT_VOID on a
 * TypeError. op as in sem_binary. */
int promote_dtypes(int a, int b, PyOp op, char *msg, size_t n);
/* Numpy broadcasting of two shapes; false with a message on incompatibility. */
bool broadcast_shapes(const Type *a, const Type *b, int *rank, int32_t *shape, char *msg,
                      size_t n);
bool is_pow2(int64_t v);
int dtype_from_tl_name(const char *name);  /* "float32"/"fp32"/"int1"/"bfloat16"... -> DType */

#endif
