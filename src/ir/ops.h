/* ops.h — the tile IR's operations, one line each: OP(NAME, "printed name", nargs)
 * nargs is the fixed operand count, or -1 when it varies. Attributes (Inst.attr) are
 * described beside each op. Included with different OP definitions by ir.h, ir.c,
 * interp.c and the GPU backend. Types follow Triton's: operands of element-wise ops
 * already have the result's shape and (except CMP, WHERE, ADDPTR, CAST) its dtype; the
 * tracer inserts BROADCAST/SPLAT/CAST first. */

/* values */
OP(CONST,       "const",        0)  /* splat of a constant: attr.f (floats) or attr.i (ints,
                                       pointers as raw bits); result may be scalar or block */
OP(PROGRAM_ID,  "program_id",   0)  /* attr.axis; i32 scalar */
OP(NUM_PROGRAMS,"num_programs", 0)  /* attr.axis; i32 scalar */
OP(ARANGE,      "arange",       0)  /* attr.i = start; result <n x i32>, values start..start+n-1 */

/* shape */
OP(SPLAT,       "splat",        1)  /* scalar -> block of the result's shape */
OP(BROADCAST,   "broadcast",    1)  /* block -> block of equal rank; size-1 dims stretched */
OP(EXPAND_DIMS, "expand_dims",  1)  /* attr.axis: insert a size-1 dim there */
OP(RESHAPE,     "reshape",      1)  /* same numel, row-major order kept */
OP(PERMUTE,     "permute",      1)  /* attr.perm[0..rank): result dim d = operand dim perm[d] */
OP(REDUCE,      "reduce",       1)  /* attr.kind (RedKind), attr.axis; result drops the axis
                                       (rank-1 -> scalar). ARGMAX/ARGMIN give i32 indices,
                                       smallest index among equal extrema. Float MAX/MIN
                                       ignore NaN like maxnum. */

/* conversion */
OP(CAST,        "cast",         1)  /* numeric conversion to the result dtype, Triton's rules:
                                       fp->int truncates, int->i1 is != 0, float narrowing RTNE
                                       (attr.kind = 1: round toward zero) */
OP(BITCAST,     "bitcast",      1)  /* same bit width reinterpretation (int<->ptr included) */

/* element-wise binary; both operands and the result share shape and dtype */
OP(ADD,  "add",  2)
OP(SUB,  "sub",  2)
OP(MUL,  "mul",  2)
OP(DIV,  "div",  2)   /* floats: true division (IEEE); ints: truncating division (C) */
OP(REM,  "rem",  2)   /* floats: fmod; ints: C remainder (sign of the dividend) */
OP(AND,  "and",  2)
OP(OR,   "or",   2)
OP(XOR,  "xor",  2)
OP(SHL,  "shl",  2)
OP(SHR,  "shr",  2)   /* arithmetic if attr.kind == 1, logical if 0 (Triton decides by the
                         left operand's dtype before promotion) */
OP(MAX,  "max",  2)   /* floats: attr.kind 0 = NaN-ignoring (maxnum), 1 = NaN wins */
OP(MIN,  "min",  2)
OP(UMULHI,"umulhi",2) /* high half of the full product */
OP(CMP,  "cmp",  2)   /* attr.kind = CmpKind; result i1 of the operands' shape; floats ordered
                         except NE (unordered) */
OP(FMA,  "fma",  3)   /* a*b+c, one rounding */
OP(WHERE,"where",3)   /* cond (i1) ? a : b; all three of the result's shape */
OP(ADDPTR,"addptr",2) /* pointer + integer offset (in elements of the pointee) */

/* element-wise unary (same dtype in and out) */
OP(NEG,   "neg",   1)
OP(NOT,   "not",   1)   /* bitwise complement (~); on i1 this is logical not */
OP(ABS,   "abs",   1)
OP(EXP,   "exp",   1)
OP(EXP2,  "exp2",  1)
OP(LOG,   "log",   1)
OP(LOG2,  "log2",  1)
OP(SQRT,  "sqrt",  1)
OP(RSQRT, "rsqrt", 1)
OP(SIN,   "sin",   1)
OP(COS,   "cos",   1)
OP(FLOOR, "floor", 1)
OP(CEIL,  "ceil",  1)
OP(ERF,   "erf",   1)
OP(TANH,  "tanh",  1)

/* memory */
OP(LOAD,   "load",   3)  /* ptr, mask (or -1), other (or -1); result has the pointee dtype and
                            the pointer's shape; masked-off lanes read `other` (0 if absent)
                            and never touch memory. attr.kind bit 0: volatile */
OP(STORE,  "store",  3)  /* ptr, value (pointee dtype), mask (or -1); no result */
/* LOAD and STORE of a tensor descriptor's block that TMA can express carry more operands
 * after those 3: the descriptor's map (a host descriptor's base pointer, a parameter; or the
 * TMAP of a descriptor the kernel made) and one i32 scalar offset per dimension
 * (ir_desc_rank). The 3 operands keep the meaning; the rest is a hint a backend may use
 * instead (the GPU: cp.async.bulk.tensor on sm_90+). */
OP(TMAP,   "tmap",  -1)  /* base, shape[0..rank) (i64), strides[0..rank-1) (i64; the last is 1):
                            where tl.make_tensor_descriptor made a descriptor, a hint for its
                            blocks' TMA copies. The result is a scalar pointer like base: the
                            GPU may fill a tensor map there (tensormap.replace, in a global
                            scratch area); the interpreter gives a null pointer. rank = nargs/2 */
OP(ATOMIC, "atomic", 3)  /* ptr, val, mask (or -1); attr.kind = AtomKind; result = old values */
OP(ATOMIC_CAS,"atomic_cas",3) /* ptr, cmp, val; result = old values */

/* linear algebra */
OP(DOT,    "dot",    3)  /* a <MxK>, b <KxN>, acc <MxN> (result dtype; never -1 — the tracer
                            makes a zero acc); attr.kind = DotPrec; 3-D batched allowed */

/* debugging and synchronization */
OP(PRINT,  "print", -1)  /* args: values to print; attr.str = prefix; attr.kind bit 0: hex */
OP(ASSERT, "assert", 1)  /* cond (i1, any shape); attr.str = message */
OP(BARRIER,"barrier", 0) /* tl.debug_barrier() */

/* control flow (structured, like MLIR's scf) */
OP(IF,     "if",    1)   /* cond (i1 scalar); regions[0] then, regions[1] else; each ends with
                            YIELD of the results (nres of them) */
OP(FOR,    "for",  -1)   /* lb, ub, step, inits...; regions[0] has params (iv, carried...);
                            ends with YIELD of the new carried values; results = final carried.
                            iv runs lb, lb+step, ... while iv < ub (step > 0) */
OP(WHILE,  "while",-1)   /* inits...; regions[0] "before" has params (carried...) and ends with
                            CONDITION(cond, values...); regions[1] "after" has params
                            (values...) and ends with YIELD(carried...); results = the values
                            of the CONDITION that ended the loop */
OP(YIELD,  "yield",-1)
OP(CONDITION,"condition",-1)
OP(RETURN, "return", 0)  /* leave the kernel (this program instance) now */

/* more element-wise math (libdevice's elementary functions), fp32 and fp64 only; the result
 * has the operands' dtype. attr.kind = MathFn (ir.h). MATH2's LDEXP takes its exponent as a
 * float holding an integer. */
OP(MATH1, "math1", 1)
OP(MATH2, "math2", 2)
