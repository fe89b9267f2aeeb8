/* lex.c — Python's tokens, with NEWLINE/INDENT/DEDENT, for a whole file.
 *
 * The whole of Python's token syntax is accepted so that host code in a kernel file
 * (f-strings, bytes, complex literals, ...) tokenizes cleanly; the parser decides what
 * it needs. Every token keeps its line and byte column. */
#include "front/ast.h"

#include <stdlib.h>
#include <string.h>

#define MAX_BRACKETS 200  /* Python's own limit on nested parentheses */
#define MAX_INDENT 100    /* Python's "too many levels of indentation" */
/* The largest source accepted: far beyond any kernel file, and small enough that every
 * column, token length and count fits an int and a module stays within bounded memory. */
#define MAX_SOURCE_BYTES ((size_t)4 << 20)

typedef struct Lexer {
    const Source *src;
    Arena *a;
    Err *e;
    const char *p, *end;
    const char *bol;       /* start of the current physical line */
    int line;
    Token *toks; int ntok, cap;   /* malloc'd while lexing (realloc leaves no garbage
                                     behind, as growing an arena array would); copied into
                                     the arena at the end at its exact size */
    int indents[MAX_INDENT + 1]; int nindent;
    char brackets[MAX_BRACKETS]; SrcLoc bracket_loc[MAX_BRACKETS]; int nbracket;
} Lexer;

static SrcLoc loc_at(Lexer *L, const char *p) {
    return (SrcLoc){L->src, L->line, (int)(p - L->bol) + 1};
}

static Token *push(Lexer *L, int kind, const char *s, int len, SrcLoc loc) {
    Token t = {0};
    t.kind = (uint8_t)kind;
    t.s = s;
    t.len = len;
    t.loc = loc;
    if (L->ntok >= L->cap) {
        if (L->cap > INT32_MAX / 2)
            err_fail(L->e, TC_ERR_LIMIT, loc, "too many tokens");
        int ncap = L->cap ? L->cap * 2 : 256;
        Token *nt = realloc(L->toks, (size_t)ncap * sizeof *nt);
        if (!nt) err_fail(L->e, TC_ERR_NOMEM, loc, "out of memory (%d tokens)", ncap);
        L->toks = nt;
        L->cap = ncap;
    }
    L->toks[L->ntok++] = t;
    return &L->toks[L->ntok - 1];
}

bool tok_is(const Token *t, const char *text) {
    if (t->kind != TK_NAME && t->kind != TK_OP) return false;
    size_t n = strlen(text);
    return (size_t)t->len == n && memcmp(t->s, text, n) == 0;
}

static bool is_ident_start(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
static bool is_ident(int c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

/* A newline at p ("\n", "\r\n" or "\r"): its length, else 0. */
static int newline_len(Lexer *L, const char *p) {
    if (p >= L->end) return 0;
    if (*p == '\n') return 1;
    if (*p == '\r') return p + 1 < L->end && p[1] == '\n' ? 2 : 1;
    return 0;
}

static void next_line(Lexer *L, const char *after) {
    L->line++;
    L->bol = after;
}

/* ---- numbers ---------------------------------------------------------------------- */

static int digit_val(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 99;
}

/* Digits of base `base` with single underscores between them (a leading underscore is
 * allowed right after a 0x/0o/0b prefix). */
static const char *scan_digits(Lexer *L, const char *p, int base, bool lead_us) {
    const char *start = p;
    while (p < L->end) {
        if (*p == '_') {
            if ((p == start && !lead_us) || p + 1 >= L->end || digit_val(p[1]) >= base)
                err_fail(L->e, TC_ERR_SYNTAX, loc_at(L, p), "invalid decimal literal");
            p++;
            continue;
        }
        if (digit_val((unsigned char)*p) >= base) break;
        p++;
    }
    return p;
}

// number = ("0x"|"0o"|"0b") digits | decimal ["." digits] [exponent] ["j"]
static void lex_number(Lexer *L) {
    const char *start = L->p, *p = L->p;
    SrcLoc loc = loc_at(L, start);
    int base = 10;
    bool is_float = false;
    if (p[0] == '0' && p + 1 < L->end && strchr("xXoObB", p[1]) && p[1]) {
        base = (p[1] == 'x' || p[1] == 'X') ? 16 : (p[1] == 'o' || p[1] == 'O') ? 8 : 2;
        const char *q = scan_digits(L, p + 2, base, true);
        if (q == p + 2)
            err_fail(L->e, TC_ERR_SYNTAX, loc_at(L, q - 1), "invalid %s literal",
                     base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary");
        p = q;
    } else {
        p = scan_digits(L, p, 10, false);
        if (p < L->end && *p == '.') {
            is_float = true;
            p++;
            if (p < L->end && *p >= '0' && *p <= '9') p = scan_digits(L, p, 10, false);
        }
        if (p < L->end && (*p == 'e' || *p == 'E')) {
            const char *q = p + 1;
            if (q < L->end && (*q == '+' || *q == '-')) q++;
            if (q < L->end && *q >= '0' && *q <= '9') {
                p = scan_digits(L, q, 10, false);
                is_float = true;
            }
        }
    }
    bool imag = false;
    if (base == 10 && p < L->end && (*p == 'j' || *p == 'J')) {
        imag = true;
        p++;
    }
    Token *t = push(L, (is_float || imag) ? TK_FLOAT : TK_INT, start, (int)(p - start), loc);
    t->imag = imag;
    if (is_float || imag) {
        char buf[512];
        int n = 0;
        for (const char *q = start; q < p && n < (int)sizeof buf - 1; q++)
            if (*q != '_' && *q != 'j' && *q != 'J') buf[n++] = *q;
        buf[n] = 0;
        t->fval = strtod(buf, NULL);
    } else {
        uint64_t v = 0;
        const char *q = base == 10 ? start : start + 2;
        for (; q < p; q++) {
            if (*q == '_') continue;
            uint64_t d = (uint64_t)digit_val((unsigned char)*q);
            if (v > (UINT64_MAX - d) / (uint64_t)base) t->big = true;
            v = v * (uint64_t)base + d;
        }
        t->ival = t->big ? 0 : v;
    }
    L->p = p;
}

/* ---- strings ---------------------------------------------------------------------- */

/* Decoded text never is longer than its source, so it is written straight into an arena
 * buffer of that size (no malloc to leak when an escape error longjmps). */
typedef struct Out { char *s; size_t len; } Out;

static void out_n(Out *b, const char *s, size_t n) {
    memcpy(b->s + b->len, s, n);
    b->len += n;
}

static void out_ch(Out *b, char c) { b->s[b->len++] = c; }

static void put_utf8(Out *b, uint32_t c) {
    char s[4];
    int n;
    if (c < 0x80) { s[0] = (char)c; n = 1; }
    else if (c < 0x800) { s[0] = (char)(0xC0 | (c >> 6)); s[1] = (char)(0x80 | (c & 63)); n = 2; }
    else if (c < 0x10000) {
        s[0] = (char)(0xE0 | (c >> 12)); s[1] = (char)(0x80 | ((c >> 6) & 63));
        s[2] = (char)(0x80 | (c & 63)); n = 3;
    } else {
        s[0] = (char)(0xF0 | (c >> 18)); s[1] = (char)(0x80 | ((c >> 12) & 63));
        s[2] = (char)(0x80 | ((c >> 6) & 63)); s[3] = (char)(0x80 | (c & 63)); n = 4;
    }
    out_n(b, s, (size_t)n);
}

/* Decodes the escapes of a non-raw literal body [p, end) into b. */
static void decode_escapes(Lexer *L, Out *b, const char *p, const char *end, bool bytes,
                           SrcLoc loc) {
    while (p < end) {
        if (*p != '\\' || p + 1 >= end) {
            out_n(b, p++, 1);
            continue;
        }
        char c = p[1];
        p += 2;
        switch (c) {
        case '\n': break;
        case '\r': if (p < end && *p == '\n') p++; break;
        case '\\': out_ch(b, '\\'); break;
        case '\'': out_ch(b, '\''); break;
        case '"': out_ch(b, '"'); break;
        case 'a': out_ch(b, '\a'); break;
        case 'b': out_ch(b, '\b'); break;
        case 'f': out_ch(b, '\f'); break;
        case 'n': out_ch(b, '\n'); break;
        case 'r': out_ch(b, '\r'); break;
        case 't': out_ch(b, '\t'); break;
        case 'v': out_ch(b, '\v'); break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            uint32_t v = (uint32_t)(c - '0');
            for (int i = 0; i < 2 && p < end && *p >= '0' && *p <= '7'; i++)
                v = v * 8 + (uint32_t)(*p++ - '0');
            if (bytes || v < 0x80) { char ch = (char)v; out_n(b, &ch, 1); }
            else put_utf8(b, v);
            break;
        }
        case 'x': case 'u': case 'U': {
            if (bytes && c != 'x') { out_n(b, p - 2, 2); break; }
            int n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            uint32_t v = 0;
            for (int i = 0; i < n; i++) {
                if (p >= end || digit_val((unsigned char)*p) >= 16)
                    err_fail(L->e, TC_ERR_SYNTAX, loc,
                             "(unicode error) truncated \\%cXX escape", c);
                v = v * 16 + (uint32_t)digit_val((unsigned char)*p++);
            }
            if (v > 0x10FFFF)
                err_fail(L->e, TC_ERR_SYNTAX, loc, "(unicode error) illegal Unicode character");
            if (bytes || (c == 'x' && v < 0x80)) { char ch = (char)v; out_n(b, &ch, 1); }
            else put_utf8(b, v);
            break;
        }
        default:  /* unknown escapes (and \N{...}) stay as written */
            out_n(b, p - 2, 2);
            break;
        }
    }
}

static const char *scan_string_body(Lexer *L, const char *p, char q, bool triple, bool raw,
                                    bool fstr, SrcLoc loc, int depth);

TC_NORETURN static void unterminated(Lexer *L, bool triple, SrcLoc loc) {
    if (triple) {
        /* Python counts a final newline as ending the last line, not starting another */
        int line = L->line;
        if (L->end > L->src->text && (L->end[-1] == '\n' || L->end[-1] == '\r') && line > 1) line--;
        err_fail(L->e, TC_ERR_SYNTAX, loc,
                 "unterminated triple-quoted string literal (detected at line %d)", line);
    }
    err_fail(L->e, TC_ERR_SYNTAX, loc, "unterminated string literal (detected at line %d)",
             L->line);
}

/* The length of a string prefix at p followed by a quote (r, b, f, u, rb, br, fr, rf in any
 * case), else -1. */
static int string_prefix(Lexer *L, const char *p) {
    int n = 0;
    while (n < 3 && p + n < L->end && is_ident((unsigned char)p[n]) &&
           !(p[n] >= '0' && p[n] <= '9'))
        n++;
    if (n > 2 || p + n >= L->end || (p[n] != '\'' && p[n] != '"')) {
        if (n == 0 && p < L->end && (*p == '\'' || *p == '"')) return 0;
        return -1;
    }
    char a = (char)(p[0] | 32), b = n == 2 ? (char)(p[1] | 32) : 0;
    if (n == 0) return 0;
    if (n == 1) return strchr("rbfu", a) ? 1 : -1;
    if ((a == 'r' && (b == 'b' || b == 'f')) || ((a == 'b' || a == 'f') && b == 'r')) return 2;
    return -1;
}

/* Inside an f-string replacement field `{...}`: skips the expression (with nested strings
 * and brackets), conversion and format spec, up to and including the closing `}`. */
static const char *scan_fexpr(Lexer *L, const char *p, SrcLoc loc, bool triple, int depth) {
    if (depth > MAX_BRACKETS)
        err_fail(L->e, TC_ERR_LIMIT, loc, "f-string: too deeply nested");
    int nest = 0;
    while (p < L->end) {
        char c = *p;
        int nl = newline_len(L, p);
        if (nl) {
            p += nl;
            next_line(L, p);
            continue;
        }
        int pre = string_prefix(L, p);
        if (pre >= 0 && (pre > 0 || c == '\'' || c == '"')) {
            bool raw = false, f = false;
            for (int i = 0; i < pre; i++) {
                raw |= (p[i] | 32) == 'r';
                f |= (p[i] | 32) == 'f';
            }
            p += pre;
            char q = *p;
            bool tri = p + 2 < L->end && p[1] == q && p[2] == q;
            p = scan_string_body(L, p + (tri ? 3 : 1), q, tri, raw, f, loc, depth + 1);
            continue;
        }
        if (is_ident_start((unsigned char)c)) {
            while (p < L->end && is_ident((unsigned char)*p)) p++;
            continue;
        }
        if (c == '#') {  /* a comment in a multi-line replacement field */
            while (p < L->end && *p != '\n' && *p != '\r') p++;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') nest++;
        else if ((c == ')' || c == ']') && nest > 0) nest--;
        else if (c == '}') {
            if (nest == 0) return p + 1;
            nest--;
        } else if (c == ':' && nest == 0) {
            /* the format spec: literal text with nested fields, up to the closing brace */
            p++;
            while (p < L->end && *p != '}') {
                if (*p == '{') p = scan_fexpr(L, p + 1, loc, triple, depth + 1);
                else if (*p == '\n' || *p == '\r') {
                    if (!triple) unterminated(L, false, loc);
                    int k = newline_len(L, p);
                    p += k;
                    next_line(L, p);
                } else p++;
            }
            if (p >= L->end) unterminated(L, triple, loc);
            return p + 1;
        }
        p++;
    }
    unterminated(L, triple, loc);
}

/* Scans a literal body after its opening quote(s); returns the position after the closing
 * quote(s). Tracks lines inside triple-quoted strings. */
static const char *scan_string_body(Lexer *L, const char *p, char q, bool triple, bool raw,
                                    bool fstr, SrcLoc loc, int depth) {
    while (p < L->end) {
        char c = *p;
        if (c == q && (!triple || (p + 2 < L->end && p[1] == q && p[2] == q)))
            return p + (triple ? 3 : 1);
        int nl = newline_len(L, p);
        if (nl) {
            if (!triple) unterminated(L, false, loc);
            p += nl;
            next_line(L, p);
            continue;
        }
        if (c == '\\' && p + 1 < L->end && !(fstr && (p[1] == '{' || p[1] == '}'))) {
            int k = newline_len(L, p + 1);
            if (k) {
                p += 1 + k;
                next_line(L, p);
            } else {
                p += 2;
            }
            continue;
        }
        if (fstr && c == '{') {
            if (p + 1 < L->end && p[1] == '{') { p += 2; continue; }
            p = scan_fexpr(L, p + 1, loc, triple, depth);
            continue;
        }
        p++;
    }
    unterminated(L, triple, loc);
}

static void lex_string(Lexer *L, int prefix) {
    const char *start = L->p, *p = L->p;
    SrcLoc loc = loc_at(L, start);
    bool raw = false, bytes = false, fstr = false;
    for (int i = 0; i < prefix; i++) {
        char c = (char)(p[i] | 32);
        raw |= c == 'r';
        bytes |= c == 'b';
        fstr |= c == 'f';
    }
    p += prefix;
    char q = *p;
    bool triple = p + 2 < L->end && p[1] == q && p[2] == q;
    const char *body = p + (triple ? 3 : 1);
    const char *after = scan_string_body(L, body, q, triple, raw, fstr, loc, 0);
    const char *body_end = after - (triple ? 3 : 1);
    Token *t = push(L, TK_STRING, start, (int)(after - start), loc);
    t->bytes = bytes;
    t->fstring = fstr;
    Out b = {arena_alloc(L->a, (size_t)(body_end - body) + 1), 0};
    if (raw || fstr) out_n(&b, body, (size_t)(body_end - body));
    else decode_escapes(L, &b, body, body_end, bytes, loc);
    b.s[b.len] = 0;
    t->str = b.s;
    t->slen = (int)b.len;
    L->p = after;
}

/* ---- operators -------------------------------------------------------------------- */

static const char *ops3[] = {"**=", "//=", ">>=", "<<=", "..."};
static const char *ops2[] = {"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", ":=",
                             "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="};
static const char ops1[] = "+-*/%@&|^~<>()[]{},:;.=!";

static void lex_op(Lexer *L) {
    const char *p = L->p;
    SrcLoc loc = loc_at(L, p);
    size_t left = (size_t)(L->end - p);
    int len = 0;
    for (int i = 0; i < COUNT_OF(ops3) && !len; i++)
        if (left >= 3 && memcmp(p, ops3[i], 3) == 0) len = 3;
    for (int i = 0; i < COUNT_OF(ops2) && !len; i++)
        if (left >= 2 && memcmp(p, ops2[i], 2) == 0) len = 2;
    if (!len && *p && strchr(ops1, *p)) len = 1;
    if (!len) {
        if (*p == 0) err_fail(L->e, TC_ERR_SYNTAX, loc, "source code cannot contain null bytes");
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            err_fail(L->e, TC_ERR_SYNTAX, loc, "unexpected character (code 0x%02x)",
                     (unsigned char)*p);
        err_fail(L->e, TC_ERR_SYNTAX, loc, "unexpected character '%c'", *p);
    }
    char c = *p;
    if (len == 1 && strchr("([{", c)) {
        if (L->nbracket >= MAX_BRACKETS)
            err_fail(L->e, TC_ERR_LIMIT, loc, "too deeply nested (more than %d open brackets)",
                     MAX_BRACKETS);
        L->bracket_loc[L->nbracket] = loc;
        L->brackets[L->nbracket++] = c;
    } else if (len == 1 && strchr(")]}", c)) {
        if (L->nbracket == 0) err_fail(L->e, TC_ERR_SYNTAX, loc, "unmatched '%c'", c);
        char open = L->brackets[L->nbracket - 1];
        char want = open == '(' ? ')' : open == '[' ? ']' : '}';
        if (c != want) {
            SrcLoc ol = L->bracket_loc[L->nbracket - 1];
            if (ol.line != loc.line)
                err_fail(L->e, TC_ERR_SYNTAX, loc,
                         "closing parenthesis '%c' does not match opening parenthesis '%c' "
                         "on line %d",
                         c, open, ol.line);
            err_fail(L->e, TC_ERR_SYNTAX, loc,
                     "closing parenthesis '%c' does not match opening parenthesis '%c'", c, open);
        }
        L->nbracket--;
    }
    push(L, TK_OP, p, len, loc);
    L->p = p + len;
}

/* ---- lines and indentation -------------------------------------------------------- */

/* At the start of a logical line: measures the indentation (tabs to multiples of 8, a form
 * feed resets), skips blank and comment-only lines, emits INDENT/DEDENTs. Returns false at
 * end of input. */
static bool begin_line(Lexer *L) {
    for (;;) {
        int col = 0;
        const char *p = L->p;
        for (; p < L->end; p++) {
            if (*p == ' ') col++;
            else if (*p == '\t') col = (col / 8 + 1) * 8;
            else if (*p == '\f') col = 0;
            else break;
        }
        if (p < L->end && *p == '#')
            while (p < L->end && *p != '\n' && *p != '\r') p++;
        int nl = newline_len(L, p);
        if (nl) {  /* a blank line: nothing */
            L->p = p + nl;
            next_line(L, L->p);
            continue;
        }
        if (p >= L->end) { L->p = p; return false; }
        if (*p == '\\' && newline_len(L, p + 1)) {
            /* a backslash continuation on an otherwise empty line joins the next line */
            L->p = p;
            return true;
        }
        L->p = p;
        SrcLoc loc = loc_at(L, p);
        if (col > L->indents[L->nindent]) {
            if (L->nindent >= MAX_INDENT)
                err_fail(L->e, TC_ERR_LIMIT, loc, "too many levels of indentation");
            L->indents[++L->nindent] = col;
            push(L, TK_INDENT, p, 0, loc);
        } else {
            while (col < L->indents[L->nindent]) {
                L->nindent--;
                push(L, TK_DEDENT, p, 0, loc);
            }
            if (col != L->indents[L->nindent])
                err_fail(L->e, TC_ERR_SYNTAX, loc,
                         "unindent does not match any outer indentation level");
        }
        return true;
    }
}

/* The lexing proper, kept out of lex()'s frame so that no local lives across its setjmp. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static Token *lex_run(Lexer *LP, const Source *src, Arena *a, Err *e, int *ntok) {
#define L (*LP)  /* the state lives in lex()'s frame, where the error path frees toks */
    L.src = src;
    L.a = a;
    L.e = e;
    L.p = L.bol = src->text;
    L.end = src->text + src->len;
    L.line = 1;
    if (src->len > MAX_SOURCE_BYTES)
        err_fail(e, TC_ERR_LIMIT, (SrcLoc){0},
                 "%s: source is %zu bytes; the limit is 4 MiB (%zu bytes)",
                 src->path ? src->path : "<string>", src->len, MAX_SOURCE_BYTES);
    /* a UTF-8 byte order mark is not part of the first line */
    if (src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0) L.p = L.bol = src->text + 3;

    bool bol = true;
    for (;;) {
        if (bol) {
            if (!begin_line(&L)) break;
            bol = false;
        }
        if (L.p >= L.end) break;
        char c = *L.p;
        if (c == ' ' || c == '\t' || c == '\f') { L.p++; continue; }
        if (c == '#') {
            while (L.p < L.end && *L.p != '\n' && *L.p != '\r') L.p++;
            continue;
        }
        int nl = newline_len(&L, L.p);
        if (nl) {
            if (L.nbracket == 0) {
                push(&L, TK_NEWLINE, L.p, nl, loc_at(&L, L.p));
                bol = true;
            }
            L.p += nl;
            next_line(&L, L.p);
            continue;
        }
        if (c == '\\') {
            int k = newline_len(&L, L.p + 1);
            if (!k) {
                if (L.p + 1 >= L.end)
                    err_fail(e, TC_ERR_SYNTAX, loc_at(&L, L.p), "unexpected EOF while parsing");
                err_fail(e, TC_ERR_SYNTAX, loc_at(&L, L.p + 1),
                         "unexpected character after line continuation character");
            }
            L.p += 1 + k;
            next_line(&L, L.p);
            if (L.p >= L.end)
                err_fail(e, TC_ERR_SYNTAX, loc_at(&L, L.p), "unexpected EOF while parsing");
            continue;
        }
        int pre = string_prefix(&L, L.p);
        if (pre >= 0) { lex_string(&L, pre); continue; }
        if (is_ident_start((unsigned char)c)) {
            const char *s = L.p;
            while (L.p < L.end && is_ident((unsigned char)*L.p)) L.p++;
            push(&L, TK_NAME, s, (int)(L.p - s), loc_at(&L, s));
            continue;
        }
        if ((c >= '0' && c <= '9') ||
            (c == '.' && L.p + 1 < L.end && L.p[1] >= '0' && L.p[1] <= '9')) {
            lex_number(&L);
            continue;
        }
        lex_op(&L);
    }
    if (L.nbracket > 0)
        err_fail(e, TC_ERR_SYNTAX, L.bracket_loc[L.nbracket - 1], "'%c' was never closed",
                 L.brackets[L.nbracket - 1]);
    SrcLoc eof = loc_at(&L, L.p);
    if (L.ntok > 0) {
        int k = L.toks[L.ntok - 1].kind;
        if (k != TK_NEWLINE && k != TK_DEDENT && k != TK_INDENT)
            push(&L, TK_NEWLINE, L.p, 0, eof);
    }
    while (L.nindent > 0) {
        L.nindent--;
        push(&L, TK_DEDENT, L.p, 0, eof);
    }
    push(&L, TK_EOF, L.p, 0, eof);
    Token *out = arena_alloc(a, (size_t)L.ntok * sizeof *out);
    memcpy(out, L.toks, (size_t)L.ntok * sizeof *out);
    free(L.toks);
    L.toks = NULL;
    *ntok = L.ntok;
    return out;
#undef L
}

Token *lex(const Source *src, Arena *a, Err *e, int *ntok) {
    Lexer L = {0};
    Lexer *volatile LP = &L;
    jmp_buf *saved = e->jump;
    jmp_buf jb;
    if (ERR_TRY(e, jb)) {   /* free the token array, then fail on to the caller */
        free(LP->toks);
        LP->toks = NULL;
        e->jump = saved;
        if (!saved) abort();  /* as err_fail: lex() is always called under ERR_TRY */
        longjmp(*saved, 1);
    }
    Token *out = lex_run(LP, src, a, e, ntok);
    e->jump = saved;
    return out;
}
