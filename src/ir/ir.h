/* ir.h — the tile IR: typed SSA values, structured control flow. The tracer (trace/)
 * builds it, the optimizer (opt.c) simplifies it, the interpreter (interp/) and the GPU
 * backend (gpu/) consume it; elementwise.c says what its element-wise ops compute, for the
 * interpreter and for folding alike. Nothing about threads, warps or layouts lives here. */
#ifndef IR_H
#define IR_H

#include "base/tc.h"

typedef enum OpCode {
#define OP(name, str, nargs) OP_##name,
#include "ir/ops.h"
#undef OP
    OP_COUNT
} OpCode;

extern const char *const op_names[OP_COUNT];
extern const int op_nargs[OP_COUNT];

typedef enum CmpKind { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } CmpKind;
typedef enum RedKind { RED_SUM, RED_MAX, RED_MIN, RED_ARGMAX, RED_ARGMIN, RED_XOR, RED_OR,
                       RED_AND } RedKind;
typedef enum AtomKind { ATOM_ADD, ATOM_MAX, ATOM_MIN, ATOM_AND, ATOM_OR, ATOM_XOR,
                        ATOM_XCHG } AtomKind;
/* fp32 dot input precision (Triton's input_precision): IEEE exact FMA; TF32 inputs rounded to
 * tf32; TF32X3, BF16X3, BF16X6 the split products of Triton's F32DotTC pass. */
typedef enum DotPrec { DOT_IEEE, DOT_TF32, DOT_TF32X3, DOT_BF16X3, DOT_BF16X6 } DotPrec;
/* MATH1 / MATH2's functions (their names: math_fn_names); FAST_* are libdevice's __nv_fast_*
 * (the interpreter computes them exactly; the GPU with the .approx instructions). */
#define MATH_FNS(X) \
    X(TRUNC, "trunc") X(ROUND, "round") X(RINT, "rint") X(CBRT, "cbrt") X(RCBRT, "rcbrt") \
    X(EXP10, "exp10") X(EXPM1, "expm1") X(LOG10, "log10") X(LOG1P, "log1p") X(TAN, "tan") \
    X(ASIN, "asin") X(ACOS, "acos") X(ATAN, "atan") X(SINH, "sinh") X(COSH, "cosh") \
    X(ASINH, "asinh") X(ACOSH, "acosh") X(ATANH, "atanh") X(ERFC, "erfc") X(ERFINV, "erfinv") \
    X(LOGB, "logb") X(SINPI, "sinpi") X(COSPI, "cospi") X(SATURATE, "saturatef") \
    X(RCP, "rcp") X(FAST_EXP, "fast_expf") X(FAST_EXP10, "fast_exp10f") \
    X(FAST_LOG, "fast_logf") X(FAST_LOG2, "fast_log2f") X(FAST_LOG10, "fast_log10f") \
    X(FAST_SIN, "fast_sinf") X(FAST_COS, "fast_cosf") X(FAST_TAN, "fast_tanf") \
    X(POW, "pow") X(ATAN2, "atan2") X(HYPOT, "hypot") X(RHYPOT, "rhypot") \
    X(REMAINDER, "remainder") X(COPYSIGN, "copysign") X(FDIM, "fdim") \
    X(NEXTAFTER, "nextafter") X(LDEXP, "ldexp") X(FAST_POW, "fast_powf")
#define MATH_ENUM(e, s) MF_##e,
typedef enum MathFn { MATH_FNS(MATH_ENUM) MF_COUNT } MathFn;
#undef MATH_ENUM
extern const char *const math_fn_names[MF_COUNT];
/* The first MATH2 function (MATH1's are below it). */
#define MF_FIRST2 MF_POW

typedef struct Region Region;

typedef struct Attr {
    int64_t i;        /* CONST ints (and pointer bits), ARANGE start, FOR num_stages (0: the launch's) */
    double f;         /* CONST floats */
    int axis;         /* PROGRAM_ID, NUM_PROGRAMS, EXPAND_DIMS, REDUCE */
    int kind;         /* CmpKind, RedKind, AtomKind, DotPrec, SHR/MAX/MIN/CAST/LOAD flags,
                       * FOR: 1 when tl.range asked for warp_specialize (not implemented) */
    int8_t perm[TC_MAX_RANK]; /* PERMUTE */
    const char *str;  /* PRINT prefix, ASSERT message */
} Attr;

/* One operation. Values are numbered per function (IrFunc.types[id]); -1 = absent. */
typedef struct Inst {
    uint16_t op;       /* OpCode */
    int nargs;
    int *args;
    int nres;          /* 0 or 1 for most ops; any for IF/FOR/WHILE */
    int *res;
    Attr attr;
    Region *regions[2];
    SrcLoc loc;        /* the kernel source position that produced it */
} Inst;

/* A straight-line list of instructions with block parameters (loop-carried values). */
struct Region {
    int nparams;
    int *params;
    Inst **insts;
    int ninsts, cap;
};

typedef struct IrParam {
    const char *name;
    int value;         /* the value id holding it */
    Type type;         /* scalar: pointer (dt == DT_PTR) or number */
    bool div16;        /* specialization: integer or address divisible by 16 */
} IrParam;

typedef struct IrFunc {
    const char *name;
    IrParam *params; int nparams;   /* runtime parameters only (constexprs are folded) */
    Region *body;
    Type *types;                    /* type of each value */
    SrcLoc *value_locs;             /* where each value was made */
    int nvalues, cap_values;
    Arena *arena;                   /* owns the function (not freed by ir_*) */
} IrFunc;

/* The rank of a LOAD/STORE's descriptor operands (ops.h): args[3] the descriptor's base
 * pointer, args[4 .. 4+rank) its block's offsets; 0 when it has none. */
static inline int ir_desc_rank(const Inst *in) {
    return (in->op == OP_LOAD || in->op == OP_STORE) && in->nargs > 4 ? in->nargs - 4 : 0;
}

/* building */
IrFunc *ir_func_new(Arena *a, const char *name);
int ir_value_new(IrFunc *f, Type t, SrcLoc loc);
int ir_param_add(IrFunc *f, const char *name, Type t, bool div16, SrcLoc loc);
Region *ir_region_new(IrFunc *f);
int ir_region_param(IrFunc *f, Region *r, Type t, SrcLoc loc);
/* Appends an instruction to r with the given operands and a fresh result of type rt
 * (rt.dt == DT_VOID means no result). Returns the instruction; its result is res[0]. */
Inst *ir_emit(IrFunc *f, Region *r, int op, const int *args, int nargs, Type rt, SrcLoc loc);
/* For IF/FOR/WHILE: adds a result of type t. */
int ir_inst_add_result(IrFunc *f, Inst *in, Type t);
/* The instructions of r and of the regions within whose op is op (-1: all of them). */
int ir_count(const Region *r, int op);

/* Prints the function in a readable SSA form into b. */
void ir_print(const IrFunc *f, Buf *b);
/* Checks operand counts, types and shapes, region structure and that every value is
 * defined before use. Returns false with e set (TC_ERR_INTERNAL) on the first problem. */
bool ir_verify(const IrFunc *f, Err *e);

/* elementwise.c: what an element-wise op (ADD .. UMULHI, CMP, NEG .. TANH, FMA, WHERE, CAST)
 * computes over n contiguous elements: r = op(a[0], a[1], a[2]), each array stored as
 * elem.h says for its value's dtype in f->types. False, with nothing written, for an op or
 * dtype it does not define. The interpreter runs it on tiles, ir_optimize on constants. */
bool ir_eval(const IrFunc *f, const Inst *in, int64_t n, void *r, const void *const *a);

/* opt.c: constant folding, common subexpressions, dead code (small and safe). */
void ir_optimize(IrFunc *f);

#endif
