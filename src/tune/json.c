/* json.c — the JSON the tuning database is written in: a reader into a tree in an arena
 * (strict: no NUL, no lone surrogates, at most 16 MiB, nesting at most 64, 100000 items in
 * one list or object, so that a hostile file costs bounded time and memory) and the two
 * writers of scalars the database's own writer needs. */
#include "tune/tuneint.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef struct JP {
    const char *p, *end, *start;
    Arena *a;
    Err *e;
    const char *name;
    int depth;
} JP;

TC_NORETURN static void jfail(JP *P, const char *what) {
    int line = 1, col = 1;
    for (const char *q = P->start; q < P->p && q < P->end; q++) {
        if (*q == '\n') { line++; col = 1; } else col++;
    }
    err_fail(P->e, TC_ERR_SYNTAX, (SrcLoc){0}, "%s: line %d, column %d: %s (not a valid tuning "
             "database)", P->name, line, col, what);
}

static void jws(JP *P) {
    while (P->p < P->end && (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r')) P->p++;
}

static size_t put_utf8(char *o, uint32_t c) {
    if (c < 0x80) { o[0] = (char)c; return 1; }
    if (c < 0x800) { o[0] = (char)(0xc0 | (c >> 6)); o[1] = (char)(0x80 | (c & 0x3f)); return 2; }
    if (c < 0x10000) {
        o[0] = (char)(0xe0 | (c >> 12)); o[1] = (char)(0x80 | ((c >> 6) & 0x3f)); o[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (c >> 18)); o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((c >> 6) & 0x3f)); o[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

static int hex4(JP *P) {
    if (P->end - P->p < 4) jfail(P, "truncated \\u escape");
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *P->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else jfail(P, "bad \\u escape");
    }
    return v;
}

/* A string: decoded into the arena (never longer than its source text, so nothing else is
 * allocated and a failure part-way leaks nothing). */
static char *jstring(JP *P) {
    P->p++;  /* " */
    const char *q = P->p;
    while (q < P->end && *q != '"') q += (*q == '\\' && q + 1 < P->end) ? 2 : 1;
    size_t raw = (size_t)(q - P->p);
    if (raw > 65536) jfail(P, "string longer than 64 KiB");
    char *out = arena_alloc(P->a, raw + 1);
    size_t o = 0;
    while (1) {
        if (P->p >= P->end) jfail(P, "unterminated string");
        unsigned char c = (unsigned char)*P->p;
        if (c == '"') { P->p++; break; }
        if (c < 0x20) jfail(P, "control character in a string");
        if (c != '\\') { out[o++] = (char)c; P->p++; continue; }
        P->p++;
        if (P->p >= P->end) jfail(P, "unterminated string");
        char x = *P->p++;
        switch (x) {
        case '"': out[o++] = '"'; break;
        case '\\': out[o++] = '\\'; break;
        case '/': out[o++] = '/'; break;
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            uint32_t u = (uint32_t)hex4(P);
            if (u >= 0xd800 && u < 0xdc00) {
                if (P->end - P->p < 6 || P->p[0] != '\\' || P->p[1] != 'u') jfail(P, "lone surrogate in \\u escape");
                P->p += 2;
                uint32_t lo = (uint32_t)hex4(P);
                if (lo < 0xdc00 || lo >= 0xe000) jfail(P, "bad surrogate pair");
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            } else if (u >= 0xdc00 && u < 0xe000) {
                jfail(P, "lone surrogate in \\u escape");
            }
            if (u == 0) jfail(P, "\\u0000 in a string");
            o += put_utf8(out + o, u);
            break;
        }
        default: jfail(P, "bad escape in a string");
        }
    }
    out[o] = 0;
    return out;
}

static void jvalue(JP *P, JV *v);

static void jnumber(JP *P, JV *v) {
    const char *s = P->p;
    if (P->p < P->end && *P->p == '-') P->p++;
    if (P->p >= P->end || !(*P->p >= '0' && *P->p <= '9')) jfail(P, "expected a value");
    if (*P->p == '0') P->p++;
    else while (P->p < P->end && *P->p >= '0' && *P->p <= '9') P->p++;
    bool isint = true;
    if (P->p < P->end && *P->p == '.') {
        isint = false;
        P->p++;
        if (P->p >= P->end || !(*P->p >= '0' && *P->p <= '9')) jfail(P, "bad number");
        while (P->p < P->end && *P->p >= '0' && *P->p <= '9') P->p++;
    }
    if (P->p < P->end && (*P->p == 'e' || *P->p == 'E')) {
        isint = false;
        P->p++;
        if (P->p < P->end && (*P->p == '+' || *P->p == '-')) P->p++;
        if (P->p >= P->end || !(*P->p >= '0' && *P->p <= '9')) jfail(P, "bad number");
        while (P->p < P->end && *P->p >= '0' && *P->p <= '9') P->p++;
    }
    size_t n = (size_t)(P->p - s);
    if (n > 64) jfail(P, "number longer than 64 characters");
    char tmp[80];
    memcpy(tmp, s, n);
    tmp[n] = 0;
    v->kind = J_NUM;
    v->num = strtod(tmp, NULL);
    if (isint) {
        errno = 0;
        long long x = strtoll(tmp, NULL, 10);
        if (errno == 0) { v->isint = true; v->i = x; }
    }
}

static void jvalue(JP *P, JV *v) {
    memset(v, 0, sizeof *v);
    jws(P);
    if (P->p >= P->end) jfail(P, "unexpected end of file");
    char c = *P->p;
    if (c == '{' || c == '[') {
        if (++P->depth > JSON_MAX_DEPTH) jfail(P, "nested more than 64 deep");
        bool obj = c == '{';
        char close = obj ? '}' : ']';
        P->p++;
        v->kind = obj ? J_OBJ : J_ARR;
        int cap = 0;
        jws(P);
        if (P->p < P->end && *P->p == close) { P->p++; P->depth--; return; }
        while (1) {
            jws(P);
            char *key = NULL;
            if (obj) {
                if (P->p >= P->end || *P->p != '"') jfail(P, "expected a string key");
                key = jstring(P);
                jws(P);
                if (P->p >= P->end || *P->p != ':') jfail(P, "expected ':'");
                P->p++;
            }
            JV item;
            jvalue(P, &item);
            if (v->n >= 100000) jfail(P, "more than 100000 items in one list or object");
            if (v->n >= cap) {
                int nc = cap ? cap * 2 : 8;
                JV *ni = arena_alloc(P->a, sizeof *ni * (size_t)nc);
                if (v->n) memcpy(ni, v->items, sizeof *ni * (size_t)v->n);
                v->items = ni;
                if (obj) {
                    char **nk = arena_alloc(P->a, sizeof *nk * (size_t)nc);
                    if (v->n) memcpy(nk, v->keys, sizeof *nk * (size_t)v->n);
                    v->keys = nk;
                }
                cap = nc;
            }
            v->items[v->n] = item;
            if (obj) v->keys[v->n] = key;
            v->n++;
            jws(P);
            if (P->p < P->end && *P->p == ',') { P->p++; continue; }
            if (P->p < P->end && *P->p == close) { P->p++; break; }
            jfail(P, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
        P->depth--;
        return;
    }
    if (c == '"') { v->kind = J_STR; v->s = jstring(P); return; }
    if (P->end - P->p >= 4 && !memcmp(P->p, "true", 4)) { P->p += 4; v->kind = J_BOOL; v->b = true; return; }
    if (P->end - P->p >= 5 && !memcmp(P->p, "false", 5)) { P->p += 5; v->kind = J_BOOL; return; }
    if (P->end - P->p >= 4 && !memcmp(P->p, "null", 4)) { P->p += 4; v->kind = J_NULL; return; }
    jnumber(P, v);
}

bool json_parse(const char *name, const char *text, size_t len, Arena *a, Err *e, JV *out) {
    if (len > JSON_MAX_BYTES) {
        err_set(e, TC_ERR_LIMIT, (SrcLoc){0}, "%s: larger than 16 MiB (not a tuning database)", name);
        return false;
    }
    if (memchr(text, 0, len)) {
        err_set(e, TC_ERR_SYNTAX, (SrcLoc){0}, "%s: contains a NUL byte (not a valid tuning database)", name);
        return false;
    }
    jmp_buf jb;
    jmp_buf *saved = e->jump;
    if (ERR_TRY(e, jb)) { e->jump = saved; return false; }
    a->err = e;
    JP P = {text, text + len, text, a, e, name, 0};
    jvalue(&P, out);
    jws(&P);
    if (P.p != P.end) jfail(&P, "extra text after the JSON value");
    e->jump = saved;
    return true;
}

const JV *json_get(const JV *o, const char *key) {
    if (!o || o->kind != J_OBJ) return NULL;
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->keys[i], key)) return &o->items[i];
    return NULL;
}

void json_put_str(Buf *b, const char *s) {
    buf_putn(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"') buf_puts(b, "\\\"");
        else if (*p == '\\') buf_puts(b, "\\\\");
        else if (*p == '\n') buf_puts(b, "\\n");
        else if (*p == '\t') buf_puts(b, "\\t");
        else if (*p < 0x20) buf_printf(b, "\\u%04x", *p);
        else buf_putn(b, (const char *)p, 1);
    }
    buf_putn(b, "\"", 1);
}

void json_put_num(Buf *b, double v) {
    if (!isfinite(v)) { buf_puts(b, "null"); return; }
    char s[64];
    tc_format_double(v, s, sizeof s);
    buf_puts(b, s);
}
