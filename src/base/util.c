/* util.c — errors, sources, arenas, strings, dtypes, types and constexpr values. */
#include "base/tc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sources ---------------------------------------------------------------------- */

Source *source_new(const char *path, const char *text, size_t len) {
    Source *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->path = strdup(path ? path : "<string>");
    s->text = malloc(len + 1);
    if (!s->path || !s->text) { source_free(s); return NULL; }
    memcpy(s->text, text, len);
    s->text[len] = 0;
    s->len = len;
    return s;
}

Source *source_read_file(const char *path, Err *e) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        err_set(e, TC_ERR_IO, (SrcLoc){0}, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    Buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) buf_putn(&b, chunk, n);
    int bad = ferror(fp);
    fclose(fp);
    if (bad || b.oom) {
        buf_free(&b);
        err_set(e, bad ? TC_ERR_IO : TC_ERR_NOMEM, (SrcLoc){0}, "cannot read %s", path);
        return NULL;
    }
    Source *s = source_new(path, b.s ? b.s : "", b.len);
    buf_free(&b);
    if (!s) err_set(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory reading %s", path);
    return s;
}

void source_free(Source *s) {
    if (!s) return;
    free(s->path);
    free(s->text);
    free(s);
}

void src_line(const SrcLoc *loc, char *buf, size_t n) {
    if (n == 0) return;
    buf[0] = 0;
    if (!loc->src || loc->line < 1) return;
    const char *p = loc->src->text, *end = p + loc->src->len;
    for (int line = 1; line < loc->line && p < end; p++)
        if (*p == '\n') line++;
    const char *q = p;
    while (q < end && *q != '\n' && *q != '\r') q++;
    size_t len = (size_t)(q - p);
    if (len >= n) len = n - 1;
    memcpy(buf, p, len);
    buf[len] = 0;
}

/* ---- errors ----------------------------------------------------------------------- */

void err_setv(Err *e, tc_status code, SrcLoc loc, const char *fmt, va_list ap) {
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    e->code = code;
    e->loc = loc;
    if (!loc.src) {
        snprintf(e->msg, sizeof e->msg, "%s", msg);
        return;
    }
    char line[512];
    src_line(&loc, line, sizeof line);
    /* The caret goes under column col; tabs in the prefix are kept so it lines up. */
    char caret[600];
    int i = 0;
    for (; i < loc.col - 1 && i < (int)sizeof caret - 2 && line[i]; i++)
        caret[i] = line[i] == '\t' ? '\t' : ' ';
    caret[i++] = '^';
    caret[i] = 0;
    snprintf(e->msg, sizeof e->msg, "%s:%d:%d: error: %s\n    %s\n    %s", loc.src->path,
             loc.line, loc.col, msg, line, caret);
}

void err_set(Err *e, tc_status code, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_setv(e, code, loc, fmt, ap);
    va_end(ap);
}

void err_fail(Err *e, tc_status code, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_setv(e, code, loc, fmt, ap);
    va_end(ap);
    if (!e->jump) abort(); /* a stage forgot ERR_TRY: a tritonc bug, never user input */
    longjmp(*e->jump, 1);
}

/* ---- arena ------------------------------------------------------------------------ */

struct ArenaChunk {
    ArenaChunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void arena_init(Arena *a, Err *err) {
    memset(a, 0, sizeof *a);
    a->err = err;
}

void *arena_alloc(Arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (n == 0) n = 16;
    a->total += n;
    if (a->limit && a->total > a->limit)
        err_fail(a->err, TC_ERR_LIMIT, (SrcLoc){0}, "memory limit of %zu bytes exceeded",
                 a->limit);
    ArenaChunk *c = a->head;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        c = malloc(sizeof *c + cap);
        if (!c) err_fail(a->err, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory (%zu bytes)", n);
        c->used = 0;
        c->cap = cap;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(Arena *a, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void *arena_grow(Arena *a, void *arr, int *cap, int need, size_t elem) {
    if (need <= *cap) return arr;
    int ncap = *cap ? *cap * 2 : 8;
    while (ncap < need) ncap *= 2;
    void *p = arena_alloc(a, (size_t)ncap * elem);
    if (arr && *cap) memcpy(p, arr, (size_t)*cap * elem);
    *cap = ncap;
    return p;
}

void arena_free(Arena *a) {
    for (ArenaChunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    a->head = NULL;
    a->total = 0;
}

/* ---- strings ---------------------------------------------------------------------- */

void buf_putn(Buf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) { b->oom = true; return; }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void buf_puts(Buf *b, const char *s) { buf_putn(b, s, strlen(s)); }

void buf_printf(Buf *b, const char *fmt, ...) {
    char small[512];
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) { va_end(ap2); return; }
    if ((size_t)n < sizeof small) {
        buf_putn(b, small, (size_t)n);
    } else {
        char *p = malloc((size_t)n + 1);
        if (!p) { b->oom = true; va_end(ap2); return; }
        vsnprintf(p, (size_t)n + 1, fmt, ap2);
        buf_putn(b, p, (size_t)n);
        free(p);
    }
    va_end(ap2);
}

void buf_free(Buf *b) {
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* Python's float repr: the shortest digit string that reads back to the same double,
 * laid out in positional notation when the decimal exponent is in [-4, 16), else as
 * d.ddde+XX. */
void fmt_double_repr(double v, char *buf, size_t n) {
    if (isnan(v)) { snprintf(buf, n, "nan"); return; }
    if (isinf(v)) { snprintf(buf, n, v < 0 ? "-inf" : "inf"); return; }
    char tmp[64];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
        if (strtod(tmp, NULL) == v) break;
    }
    /* tmp = [-]d.ddddde[+-]XX */
    char digits[32];
    int nd = 0;
    const char *p = tmp;
    bool neg = false;
    if (*p == '-') { neg = true; p++; }
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    digits[nd] = 0;
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = 0;
    char out[64];
    int o = 0;
    if (neg) out[o++] = '-';
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            out[o++] = '0';
            out[o++] = '.';
            for (int i = 0; i < -exp10 - 1; i++) out[o++] = '0';
            for (int i = 0; i < nd; i++) out[o++] = digits[i];
        } else {
            for (int i = 0; i <= exp10; i++) out[o++] = i < nd ? digits[i] : '0';
            out[o++] = '.';
            if (nd > exp10 + 1)
                for (int i = exp10 + 1; i < nd; i++) out[o++] = digits[i];
            else
                out[o++] = '0';
        }
        out[o] = 0;
    } else {
        out[o++] = digits[0];
        if (nd > 1) {
            out[o++] = '.';
            for (int i = 1; i < nd; i++) out[o++] = digits[i];
        }
        out[o] = 0;
        snprintf(out + o, sizeof out - (size_t)o, "e%c%02d", exp10 < 0 ? '-' : '+',
                 exp10 < 0 ? -exp10 : exp10);
    }
    snprintf(buf, n, "%s", out);
}

uint64_t hash_bytes(const void *p, size_t n, uint64_t seed) {
    uint64_t h = 1469598103934665603ull ^ seed;
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* ---- dtypes ----------------------------------------------------------------------- */

static const struct { const char *name; int bits; } dt_info[DT_COUNT] = {
    [DT_VOID] = {"void", 0}, [DT_I1] = {"i1", 1},    [DT_I8] = {"i8", 8},
    [DT_I16] = {"i16", 16},  [DT_I32] = {"i32", 32}, [DT_I64] = {"i64", 64},
    [DT_U8] = {"u8", 8},     [DT_U16] = {"u16", 16}, [DT_U32] = {"u32", 32},
    [DT_U64] = {"u64", 64},  [DT_FP16] = {"fp16", 16}, [DT_BF16] = {"bf16", 16},
    [DT_FP32] = {"fp32", 32}, [DT_FP64] = {"fp64", 64}, [DT_FP8E5] = {"fp8e5", 8},
    [DT_FP8E4NV] = {"fp8e4nv", 8}, [DT_FP8E4B15] = {"fp8e4b15", 8}, [DT_PTR] = {"ptr", 64},
};

int dt_bits(int d) { return d > 0 && d < DT_COUNT ? dt_info[d].bits : 0; }
int dt_size(int d) { return d == DT_I1 ? 1 : dt_bits(d) / 8; }
const char *dt_name(int d) { return d >= 0 && d < DT_COUNT ? dt_info[d].name : "?"; }

const char *tc_dtype_name(tc_dtype t) {
    return (int)t >= TC_I1 && (int)t <= TC_FP8E4B15 ? dt_info[t].name : NULL;
}

size_t tc_dtype_size(tc_dtype t) {
    return (int)t >= TC_I1 && (int)t <= TC_FP8E4B15 ? (size_t)dt_size((int)t) : 0;
}

/* ---- 8-bit floats ---------------------------------------------------------------------
 * fp8e5 (e5m2): bias 15, 2 mantissa bits, inf 0x7c, NaN 0x7d..0x7f. fp8e4nv (e4m3fn): bias
 * 7, 3 bits, no inf, NaN only 0x7f (and 0xff), max 448. fp8e4b15: bias 15, 3 bits, every
 * code finite (0x7f is 1.875). */
static void fp8_fmt(int dt, int *mb, int *bias, double *maxv) {
    switch (dt) {
    case DT_FP8E5: *mb = 2; *bias = 15; *maxv = 57344.0; break;
    case DT_FP8E4NV: *mb = 3; *bias = 7; *maxv = 448.0; break;
    default: *mb = 3; *bias = 15; *maxv = 1.875; break;
    }
}

double fp8_to_double(int dt, unsigned b) {
    int mb, bias;
    double maxv;
    if (!dt_is_fp8(dt)) return NAN;
    fp8_fmt(dt, &mb, &bias, &maxv);
    unsigned mag = b & 0x7f, e = mag >> mb, m = mag & ((1u << mb) - 1);
    double v;
    if (dt == DT_FP8E5 && e == 31) v = m ? NAN : INFINITY;
    else if (dt == DT_FP8E4NV && mag == 0x7f) v = NAN;
    else if (e == 0) v = ldexp((double)m, 1 - bias - mb);
    else v = ldexp((double)((1u << mb) | m), (int)e - bias - mb);
    return (b & 0x80) ? -v : v;
}

/* |v| (finite, >= 0) to nearest even (or toward zero) on the format's grid, subnormals
 * included, with no upper limit */
static double fp8_round(double a, int mb, int bias, int rtz) {
    if (a == 0) return 0;
    int e2;
    frexp(a, &e2);
    int e = e2 - 1 < 1 - bias ? 1 - bias : e2 - 1;
    double q = ldexp(a, mb - e);  /* a in units of the ulp */
    double r = rtz ? floor(q) : nearbyint(q);
    return ldexp(r, e - mb);
}

static unsigned fp8_bits(double a, int mb, int bias) { /* a on the grid, finite, >= 0 */
    if (a == 0) return 0;
    int e2;
    frexp(a, &e2);
    int e = e2 - 1;
    if (e < 1 - bias) return (unsigned)ldexp(a, bias - 1 + mb);
    return ((unsigned)(e + bias) << mb) | ((unsigned)ldexp(a, mb - e) & ((1u << mb) - 1));
}

unsigned fp8_from_double(int dt, double v, int rtz) {
    int mb, bias;
    double maxv;
    if (!dt_is_fp8(dt)) return 0;
    fp8_fmt(dt, &mb, &bias, &maxv);
    unsigned sign = signbit(v) ? 0x80 : 0;
    if (dt == DT_FP8E4B15) {
        /* Triton's software conversion: fp16 toward zero, clamp |h| to 1.75 (NaN too), add
         * half of the dropped byte (ties away), keep the high byte */
        uint64_t h = 0;
        double a = fabs(v);
        if (isnan(v)) a = 1.75;
        else if (a > 1.75) a = 1.75;
        double r = fp8_round(a, 10, 15, 1); /* the fp16 (RTZ) value, below its overflow */
        int e2;
        frexp(r, &e2);
        if (r == 0) h = 0;
        else if (e2 - 1 < -14) h = (uint64_t)ldexp(r, 24);
        else h = ((uint64_t)(e2 - 1 + 15) << 10) | ((uint64_t)ldexp(r, 11 - e2) & 0x3ff);
        return sign | (unsigned)(((h << 1) + 0x80) >> 8);
    }
    if (isnan(v)) return 0x7f;
    double a = fabs(v);
    if (isinf(v)) return sign | (dt == DT_FP8E5 && rtz ? 0x7cu : fp8_bits(maxv, mb, bias));
    double r = fp8_round(a, mb, bias, rtz);
    if (r > maxv) r = maxv;
    return sign | fp8_bits(r, mb, bias);
}

double tc_fp8_decode(tc_dtype t, unsigned bits) { return fp8_to_double((int)t, bits & 0xff); }
unsigned tc_fp8_encode(tc_dtype t, double v) { return fp8_from_double((int)t, v, 0); }

tc_status tc_dtype_from_name(const char *name, tc_dtype *out) {
    static const struct { const char *name; int dt; } names[] = {
        {"i1", DT_I1},     {"bool", DT_I1},      {"int1", DT_I1},     {"i8", DT_I8},
        {"int8", DT_I8},   {"i16", DT_I16},      {"int16", DT_I16},   {"i32", DT_I32},
        {"int32", DT_I32}, {"i64", DT_I64},      {"int64", DT_I64},   {"u8", DT_U8},
        {"uint8", DT_U8},  {"u16", DT_U16},      {"uint16", DT_U16},  {"u32", DT_U32},
        {"uint32", DT_U32}, {"u64", DT_U64},     {"uint64", DT_U64},  {"fp16", DT_FP16},
        {"float16", DT_FP16}, {"bf16", DT_BF16}, {"bfloat16", DT_BF16}, {"fp32", DT_FP32},
        {"float32", DT_FP32}, {"fp64", DT_FP64}, {"float64", DT_FP64},
        {"fp8e5", DT_FP8E5}, {"float8e5", DT_FP8E5}, {"float8_e5m2", DT_FP8E5},
        {"fp8e4nv", DT_FP8E4NV}, {"float8e4nv", DT_FP8E4NV}, {"float8_e4m3fn", DT_FP8E4NV},
        {"fp8e4b15", DT_FP8E4B15}, {"float8e4b15", DT_FP8E4B15},
    };
    if (!name || !out) return TC_ERR_ARG;
    for (int i = 0; i < COUNT_OF(names); i++)
        if (strcmp(names[i].name, name) == 0) {
            *out = (tc_dtype)names[i].dt;
            return TC_OK;
        }
    return TC_ERR_ARG;
}

const char *tc_status_name(tc_status s) {
    static const char *const names[] = {
        "TC_OK", "TC_ERR_SYNTAX", "TC_ERR_COMPILE", "TC_ERR_RUNTIME", "TC_ERR_ARG",
        "TC_ERR_NOT_FOUND", "TC_ERR_NO_DRIVER", "TC_ERR_DRIVER", "TC_ERR_RESOURCES",
        "TC_ERR_IO", "TC_ERR_NOMEM", "TC_ERR_LIMIT", "TC_ERR_UNSUPPORTED", "TC_ERR_INTERNAL",
        "TC_ERR_TIMEOUT",
    };
    return (unsigned)s < (unsigned)COUNT_OF(names) ? names[s] : "TC_ERR_UNKNOWN";
}

/* ---- types ------------------------------------------------------------------------ */

Type type_scalar(int dt) { Type t = {0}; t.dt = (uint8_t)dt; return t; }

Type type_ptr(int elem) {
    Type t = {0};
    t.dt = DT_PTR;
    t.elem = (uint8_t)elem;
    return t;
}

Type type_with_shape(Type t, int rank, const int32_t *shape) {
    memset(t.shape, 0, sizeof t.shape);
    t.rank = (uint8_t)rank;
    for (int i = 0; i < rank; i++) t.shape[i] = shape[i];
    return t;
}

Type type_block(int dt, int rank, const int32_t *shape) {
    return type_with_shape(type_scalar(dt), rank, shape);
}

Type type_elem(Type t) { return type_with_shape(t, 0, NULL); }

bool type_eq(Type a, Type b) {
    if (a.dt != b.dt || a.rank != b.rank) return false;
    if (a.dt == DT_PTR && a.elem != b.elem) return false;
    for (int i = 0; i < a.rank; i++)
        if (a.shape[i] != b.shape[i]) return false;
    return true;
}

int64_t type_numel(Type t) {
    int64_t n = 1;
    for (int i = 0; i < t.rank; i++) n *= t.shape[i];
    return n;
}

void type_str(Type t, char *buf, size_t n) {
    char elem[16];
    if (t.dt == DT_PTR) snprintf(elem, sizeof elem, "*%s", dt_name(t.elem));
    else snprintf(elem, sizeof elem, "%s", dt_name(t.dt));
    if (t.rank == 0) { snprintf(buf, n, "%s", elem); return; }
    size_t o = 0;
    o += (size_t)snprintf(buf + o, n > o ? n - o : 0, "<");
    for (int i = 0; i < t.rank; i++)
        o += (size_t)snprintf(buf + o, n > o ? n - o : 0, "%dx", t.shape[i]);
    snprintf(buf + o, n > o ? n - o : 0, "%s>", elem);
}

/* ---- constexpr values ------------------------------------------------------------- */

CVal cv_none(void) { CVal c = {0}; c.kind = CV_NONE; return c; }
CVal cv_bool(bool b) { CVal c = {0}; c.kind = CV_BOOL; c.v.i = b; return c; }
CVal cv_int(int64_t i) { CVal c = {0}; c.kind = CV_INT; c.v.i = i; return c; }
CVal cv_float(double f) { CVal c = {0}; c.kind = CV_FLOAT; c.v.f = f; return c; }
CVal cv_str(const char *s) { CVal c = {0}; c.kind = CV_STR; c.v.s = s; return c; }

bool cv_eq(const CVal *a, const CVal *b) {
    if (a->kind != b->kind) {
        /* Python: 1 == 1.0 == True */
        bool an = a->kind == CV_INT || a->kind == CV_BOOL || a->kind == CV_FLOAT;
        bool bn = b->kind == CV_INT || b->kind == CV_BOOL || b->kind == CV_FLOAT;
        if (!an || !bn || a->big || b->big) return false;
        double x = a->kind == CV_FLOAT ? a->v.f : (double)a->v.i;
        double y = b->kind == CV_FLOAT ? b->v.f : (double)b->v.i;
        return x == y;
    }
    switch (a->kind) {
    case CV_NONE: return true;
    case CV_BOOL: case CV_INT: return a->big == b->big && a->v.i == b->v.i;
    case CV_FLOAT: return a->v.f == b->v.f;
    case CV_STR: return strcmp(a->v.s, b->v.s) == 0;
    case CV_DTYPE: return a->dtype == b->dtype && a->elem == b->elem;
    case CV_TUPLE:
        if (a->v.tup.n != b->v.tup.n) return false;
        for (int i = 0; i < a->v.tup.n; i++)
            if (!cv_eq(&a->v.tup.items[i], &b->v.tup.items[i])) return false;
        return true;
    }
    return false;
}

void cv_repr(const CVal *v, char *buf, size_t n) {
    switch (v->kind) {
    case CV_NONE: snprintf(buf, n, "None"); return;
    case CV_BOOL: snprintf(buf, n, v->v.i ? "True" : "False"); return;
    case CV_INT:
        if (v->big) snprintf(buf, n, "%llu", (unsigned long long)v->v.u);
        else snprintf(buf, n, "%lld", (long long)v->v.i);
        return;
    case CV_FLOAT: fmt_double_repr(v->v.f, buf, n); return;
    case CV_STR: snprintf(buf, n, "'%s'", v->v.s); return;
    case CV_DTYPE:
        if (v->dtype == DT_PTR) snprintf(buf, n, "pointer<%s>", dt_name(v->elem));
        else snprintf(buf, n, "%s", dt_name(v->dtype));
        return;
    case CV_TUPLE: {
        /* o stays below n, on the NUL each piece ends with: a long tuple is cut, never read
         * or written past the buffer (fuzz/FINDINGS.md F10) */
        if (!n) return;
        snprintf(buf, n, "(");
        size_t o = strlen(buf);
        for (int i = 0; i < v->v.tup.n && o + 1 < n; i++) {
            if (i) {
                snprintf(buf + o, n - o, ", ");
                o += strlen(buf + o);
            }
            if (o + 1 < n) {
                cv_repr(&v->v.tup.items[i], buf + o, n - o);
                o += strlen(buf + o);
            }
        }
        if (o + 1 < n) snprintf(buf + o, n - o, v->v.tup.n == 1 ? ",)" : ")");
        return;
    }
    }
    snprintf(buf, n, "?");
}

uint64_t cv_hash(const CVal *v, uint64_t seed) {
    uint64_t h = hash_bytes(&v->kind, 1, seed);
    switch (v->kind) {
    case CV_BOOL: case CV_INT: return hash_bytes(&v->v.i, 8, h ^ v->big);
    case CV_FLOAT: return hash_bytes(&v->v.f, 8, h);
    case CV_STR: return hash_bytes(v->v.s, strlen(v->v.s), h);
    case CV_DTYPE: h = hash_bytes(&v->dtype, 1, h); return hash_bytes(&v->elem, 1, h);
    case CV_TUPLE:
        for (int i = 0; i < v->v.tup.n; i++) h = cv_hash(&v->v.tup.items[i], h);
        return h;
    }
    return h;
}
