/* tc.h — what every stage shares: sources and locations, errors, arenas, strings, dtypes,
 * types and compile-time (constexpr) values. Each stage has its own header beside this one:
 * ast.h (lex.c, parse.c), ir.h (ir.c, opt.c, interp.c, gpu/), trace.h (trace.c; semantic.c
 * and builtins*.c share sem.h too), eval.h (eval.c), cuda.h (cuda.c), jit.h (jit.c, api.c). */
#ifndef TC_H
#define TC_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tritonc.h"

#if defined(__GNUC__)
#define TC_NORETURN __attribute__((noreturn))
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TC_NORETURN
#define TC_PRINTF(a, b)
#endif

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- sources and locations --------------------------------------------------------- */

typedef struct Source {
    char *path;   /* as given, for messages */
    char *text;   /* NUL-terminated copy of the file */
    size_t len;
} Source;

typedef struct SrcLoc {
    const Source *src;  /* NULL when there is no source position */
    int line, col;      /* 1-based; col counts bytes */
} SrcLoc;

/* ---- errors ----------------------------------------------------------------------- */

/* One error record per call into the library. Deep stages (lexer, parser, tracer,
 * interpreter) fail with err_fail(), which longjmps to the jmp_buf the stage's entry point
 * set with ERR_TRY; everything they allocated lives in an Arena, so nothing leaks. */
typedef struct Err {
    tc_status code;
    char msg[4096];    /* the full message, ready to print */
    SrcLoc loc;
    jmp_buf *jump;     /* where err_fail goes; NULL means "just record and return" */
} Err;

/* Formats "file:line:col: error: MSG\n    <source line>\n    ^" into e->msg.
 * With no location, just "error: MSG". */
void err_set(Err *e, tc_status code, SrcLoc loc, const char *fmt, ...) TC_PRINTF(4, 5);
void err_setv(Err *e, tc_status code, SrcLoc loc, const char *fmt, va_list ap);
/* err_set, then longjmp to e->jump (which must be set). */
TC_NORETURN void err_fail(Err *e, tc_status code, SrcLoc loc, const char *fmt, ...)
    TC_PRINTF(4, 5);
/* An invariant failed: TC_ERR_INTERNAL with the C file and line. */
#define TC_ASSERT(e, cond) \
    do { if (!(cond)) err_fail((e), TC_ERR_INTERNAL, (SrcLoc){0}, \
                               "internal error at %s:%d: %s", __FILE__, __LINE__, #cond); } while (0)

/* Usage:  jmp_buf jb; if (ERR_TRY(err, jb)) { cleanup; return err->code; } ...; err->jump = saved */
#define ERR_TRY(e, jb) ((e)->jump = &(jb), setjmp(jb) != 0)

/* The source line containing loc, without its newline, into buf. */
void src_line(const SrcLoc *loc, char *buf, size_t n);
Source *source_new(const char *path, const char *text, size_t len); /* malloc'd copy */
Source *source_read_file(const char *path, Err *e);                 /* NULL + e on failure */
void source_free(Source *s);

/* ---- memory ----------------------------------------------------------------------- */

/* A bump allocator; freed all at once. Allocation failure longjmps through err. */
typedef struct ArenaChunk ArenaChunk;
typedef struct Arena {
    ArenaChunk *head;
    Err *err;          /* used when malloc fails (err_fail TC_ERR_NOMEM) */
    size_t total;      /* bytes handed out, for limits */
    size_t limit;      /* 0 = none; beyond it: TC_ERR_LIMIT */
} Arena;

void arena_init(Arena *a, Err *err);
void *arena_alloc(Arena *a, size_t n);         /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) TC_PRINTF(2, 3);
void arena_free(Arena *a);
/* Grows an arena array: *arr has *cap slots; ensures room for need. */
void *arena_grow(Arena *a, void *arr, int *cap, int need, size_t elem);
#define ARENA_PUSH(a, arr, n, cap, v) \
    do { if ((n) >= (cap)) (arr) = arena_grow((a), (arr), &(cap), (n) + 1, sizeof(*(arr))); \
         (arr)[(n)++] = (v); } while (0)

/* A growable malloc'd string; never fails silently (sets oom). */
typedef struct Buf { char *s; size_t len, cap; bool oom; } Buf;
void buf_puts(Buf *b, const char *s);
void buf_putn(Buf *b, const char *s, size_t n);
void buf_printf(Buf *b, const char *fmt, ...) TC_PRINTF(2, 3);
void buf_free(Buf *b);

/* Shortest decimal that round-trips, as Python's repr(float): "11.0", "0.1", "1e+20",
 * "inf", "nan", "-0.0". */
void fmt_double_repr(double v, char *buf, size_t n);
/* As repr of a float32 value converted to Python float (i.e. the double value). */

uint64_t hash_bytes(const void *p, size_t n, uint64_t seed);  /* FNV-1a 64 */

/* ---- dtypes and types --------------------------------------------------------------- */

/* Scalar element types: the public tc_dtype values plus pointers and void. */
typedef enum DType {
    DT_VOID = 0,
    DT_I1 = TC_I1, DT_I8, DT_I16, DT_I32, DT_I64,
    DT_U8, DT_U16, DT_U32, DT_U64,
    DT_FP16, DT_BF16, DT_FP32, DT_FP64,
    DT_FP8E5, DT_FP8E4NV, DT_FP8E4B15, /* 8-bit floats: e5m2, e4m3fn, e4m3 with bias 15 */
    DT_PTR,      /* pointer; Type.elem is the pointee */
    DT_COUNT
} DType;

static inline bool dt_is_int(int d) { return d >= DT_I1 && d <= DT_U64; }
static inline bool dt_is_signed(int d) { return d >= DT_I8 && d <= DT_I64; }
static inline bool dt_is_unsigned(int d) { return d == DT_I1 || (d >= DT_U8 && d <= DT_U64); }
static inline bool dt_is_fp8(int d) { return d >= DT_FP8E5 && d <= DT_FP8E4B15; }
static inline bool dt_is_float(int d) { return (d >= DT_FP16 && d <= DT_FP64) || dt_is_fp8(d); }
int dt_bits(int d);          /* 1, 8, ..., 64; pointers 64 */
int dt_size(int d);          /* storage bytes: i1 -> 1, ptr -> 8 */
const char *dt_name(int d);  /* Triton's short names: "i1", "fp32", "fp8e5", "ptr" */
/* 8-bit floats (dt_is_fp8): the value of bits b, and v rounded to the format as Triton's
 * .to() rounds (tc_fp8_encode); rtz: toward zero (fp8e5 only, as Triton allows). */
double fp8_to_double(int dt, unsigned b);
unsigned fp8_from_double(int dt, double v, int rtz);

/* A value's type: a scalar (rank 0) or a block (rank >= 1) of elements. */
typedef struct Type {
    uint8_t dt;         /* DType */
    uint8_t elem;       /* pointee DType when dt == DT_PTR */
    uint8_t rank;
    int32_t shape[TC_MAX_RANK];
} Type;

Type type_scalar(int dt);
Type type_ptr(int elem);                      /* scalar pointer */
Type type_block(int dt, int rank, const int32_t *shape);
Type type_with_shape(Type t, int rank, const int32_t *shape); /* same element, new shape */
Type type_elem(Type t);                       /* the scalar type of one element */
bool type_eq(Type a, Type b);
int64_t type_numel(Type t);                   /* 1 for scalars */
/* "fp32", "<1024xfp32>", "*fp32", "<4x8x*fp16>" */
void type_str(Type t, char *buf, size_t n);

/* ---- constexpr values ---------------------------------------------------------------- */

/* A Python value known at trace time. */
typedef enum CKind {
    CV_NONE = 0, CV_BOOL, CV_INT, CV_FLOAT, CV_STR, CV_DTYPE, CV_TUPLE
} CKind;

typedef struct CVal CVal;
struct CVal {
    uint8_t kind;     /* CKind */
    uint8_t dtype;    /* CV_DTYPE: a DType (DT_PTR uses elem) */
    uint8_t elem;
    bool big;         /* CV_INT beyond int64 range but within uint64: value in u */
    union {
        int64_t i;    /* CV_INT, CV_BOOL (0/1) */
        uint64_t u;
        double f;
        const char *s;
        struct { CVal *items; int n; } tup;
    } v;
};

CVal cv_none(void);
CVal cv_bool(bool b);
CVal cv_int(int64_t i);
CVal cv_float(double f);
CVal cv_str(const char *s);   /* s must outlive the value (arena) */
bool cv_eq(const CVal *a, const CVal *b);
/* Python's repr: 4, 0.5, True, None, 'relu', fp32, (1, 2). */
void cv_repr(const CVal *v, char *buf, size_t n);
uint64_t cv_hash(const CVal *v, uint64_t seed);

#endif
