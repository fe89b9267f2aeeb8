/* test_lex.c — the tokenizer: indentation, continuation, numbers, strings, operators,
 * errors. Expected streams follow Python's own tokenize module. */
#include "front/ast.h"
#include "test.h"

#include <stdlib.h>

/* Lexes text and renders the tokens compactly: names and operators as written, INT as
 * its value (or BIG), FLOAT as %g, strings as "decoded" with f/b marks, NL IN DE EOF.
 * On error returns "ERR <code> <line>:<col> <message first line>". */
static char out[8192];
static Err lex_err;

static const char *lexs(const char *text) {
    Source *s = source_new("t.py", text, strlen(text));
    Arena a;
    Err *e = &lex_err;
    memset(e, 0, sizeof *e);
    arena_init(&a, e);
    jmp_buf jb;
    out[0] = 0;
    if (ERR_TRY(e, jb)) {
        char first[4096];
        memcpy(first, e->msg, sizeof first);
        char *nl = strchr(first, '\n');
        if (nl) *nl = 0;
        snprintf(out, sizeof out, "ERR %d %d:%d %s", (int)e->code, e->loc.line, e->loc.col,
                 first);
        arena_free(&a);
        source_free(s);
        return out;
    }
    int n = 0;
    Token *t = lex(s, &a, e, &n);
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        char one[600];
        switch (t[i].kind) {
        case TK_EOF: snprintf(one, sizeof one, "EOF"); break;
        case TK_NEWLINE: snprintf(one, sizeof one, "NL"); break;
        case TK_INDENT: snprintf(one, sizeof one, "IN"); break;
        case TK_DEDENT: snprintf(one, sizeof one, "DE"); break;
        case TK_INT:
            if (t[i].big) snprintf(one, sizeof one, "BIG");
            else snprintf(one, sizeof one, "%llu", (unsigned long long)t[i].ival);
            break;
        case TK_FLOAT: snprintf(one, sizeof one, "%g%s", t[i].fval, t[i].imag ? "j" : ""); break;
        case TK_STRING:
            snprintf(one, sizeof one, "%s%s\"%s\"", t[i].fstring ? "f" : "", t[i].bytes ? "b" : "",
                     t[i].str);
            break;
        default: snprintf(one, sizeof one, "%.*s", t[i].len, t[i].s); break;
        }
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%s", i ? " " : "", one);
        if (len >= sizeof out) break;
    }
    e->jump = NULL;
    arena_free(&a);
    source_free(s);
    return out;
}

/* The token at index i of text, for location checks. */
static Token tok_at(const char *text, int i, Source **keep, Arena *a) {
    *keep = source_new("t.py", text, strlen(text));
    Err e = {0};
    arena_init(a, &e);
    jmp_buf jb;
    Token none = {0};
    if (ERR_TRY(&e, jb)) return none;
    int n = 0;
    Token *t = lex(*keep, a, &e, &n);
    return i < n ? t[i] : none;
}

TEST(lex_simple) {
    CHECK_STR("x = 1 NL EOF", lexs("x = 1\n"));
    CHECK_STR("x = 1 NL EOF", lexs("x = 1"));  /* NEWLINE added at EOF */
    CHECK_STR("EOF", lexs(""));
    CHECK_STR("EOF", lexs("\n\n# only a comment\n   \n"));
    CHECK_STR("a . b ( c , d = 2 ) NL EOF", lexs("a.b(c, d=2)  # comment\n"));
}

TEST(lex_indent) {
    CHECK_STR("if x : NL IN y NL DE z NL EOF", lexs("if x:\n    y\nz\n"));
    /* blank and comment-only lines produce nothing, whatever their indentation */
    CHECK_STR("if x : NL IN y NL z NL DE EOF", lexs("if x:\n    y\n\n  # c\n        \n    z\n"));
    /* two levels closed at once, and at EOF */
    CHECK_STR("a : NL IN b : NL IN c NL DE DE d NL EOF", lexs("a:\n  b:\n    c\nd\n"));
    CHECK_STR("a : NL IN b : NL IN c NL DE DE EOF", lexs("a:\n  b:\n    c"));
    /* a tab goes to the next multiple of 8: "\t" and 8 spaces are the same level */
    CHECK_STR("a : NL IN b NL c NL DE EOF", lexs("a:\n\tb\n        c\n"));
    CHECK_STR("a : NL IN b NL c NL DE EOF", lexs("a:\n  \tb\n        c\n"));
    /* CRLF and lone CR line ends */
    CHECK_STR("a : NL IN b NL DE c NL EOF", lexs("a:\r\n  b\r\nc\r\n"));
    CHECK_STR("a NL b NL EOF", lexs("a\rb\r"));
}

TEST(lex_continuation) {
    /* inside brackets: no NEWLINE, no INDENT */
    CHECK_STR("f ( a , b ) NL EOF", lexs("f(a,\n        b)\n"));
    CHECK_STR("x = [ 1 , 2 , ] NL EOF", lexs("x = [\n  1,\n\n  2,  # two\n]\n"));
    /* backslash continuation */
    CHECK_STR("x = 1 + 2 NL EOF", lexs("x = 1 + \\\n    2\n"));
    CHECK_STR("if a : NL IN x = 1 + 2 NL DE EOF", lexs("if a:\n    x = 1 + \\\n2\n"));
    CHECK_STR("ERR 1 1:4 t.py:1:4: error: unexpected character after line continuation character",
              lexs("a \\ b\n"));
}

TEST(lex_numbers) {
    CHECK_STR("0 7 255 8 5 1000 NL EOF", lexs("0 7 0xff 0o10 0b101 1_000\n"));
    CHECK_STR("255 255 NL EOF", lexs("0x_ff 0XF_F\n"));
    CHECK_STR("1 0.5 0.001 1e+10 2.5 150 NL EOF", lexs("1. .5 1e-3 1E10 2_5e-1 1.5e2\n"));
    CHECK_STR("18446744073709551615 BIG NL EOF",
              lexs("18446744073709551615 18446744073709551616\n"));
    CHECK_STR("BIG ** 1 NL EOF", lexs("0x1_0000_0000_0000_0000**1\n"));
    CHECK_STR("3j 1.5j 0j NL EOF", lexs("3j 1.5J 0j\n"));
    CHECK_STR("1 if x else 2 NL EOF", lexs("1if x else 2\n"));
    CHECK_STR("x . real NL EOF", lexs("x.real\n"));
    CHECK_STR("ERR 1 1:2 t.py:1:2: error: invalid decimal literal", lexs("1__0\n"));
    CHECK_STR("ERR 1 1:2 t.py:1:2: error: invalid hexadecimal literal", lexs("0x\n"));
    Source *s;
    Arena a;
    Token t = tok_at("x = 2**63 + 4_294_967_296\n", 6, &s, &a);
    CHECK_INT(TK_INT, t.kind);
    CHECK(t.ival == 4294967296ull);
    CHECK_INT(13, t.loc.col);
    arena_free(&a);
    source_free(s);
}

TEST(lex_strings) {
    CHECK_STR("\"a\" \"b\" NL EOF", lexs("'a' \"b\"\n"));
    CHECK_STR("\"tab\tnl\nq'\"\\\" NL EOF", lexs("'tab\\tnl\\nq\\'\\\"\\\\'\n"));
    CHECK_STR("\"AB\" \"\xc3\xa9\" \"\xe2\x82\xac\" NL EOF", lexs("'\\x41\\102' '\\xe9' '\\u20ac'\n"));
    CHECK_STR("\"\\N{DASH}\" \"\\q\" NL EOF", lexs("'\\N{DASH}' '\\q'\n"));
    /* raw strings keep backslashes; a backslash still protects a quote */
    CHECK_STR("\"a\\nb\" \"\\'\" b\"x\\d\" NL EOF", lexs("r'a\\nb' R'\\'' rb'x\\d'\n"));
    CHECK_STR("b\"\xff\" b\"\\u1\" NL EOF", lexs("b'\\xff' B'\\u1'\n"));
    CHECK_STR("\"u\" \"x\" NL EOF", lexs("u'u' U\"x\"\n"));
    /* triple-quoted, spanning lines, with quotes inside */
    CHECK_STR("x = \"a\n'b' \"\"c\" NL y NL EOF", lexs("x = '''a\n'b' \"\"c'''\ny\n"));
    CHECK_STR("\"\" \"\" NL EOF", lexs("\"\"\"\"\"\" \"\"\n"));
    /* backslash-newline inside a string joins the lines */
    CHECK_STR("\"ab\" NL EOF", lexs("'a\\\nb'\n"));
    /* prefixes in any case and order */
    CHECK_STR("f\"{x}\" f\"{x}\" f\"{x!r:>{w}}\" b\"\\d\" b\"\\d\" NL EOF",
              lexs("f'{x}' Rf'{x}' F\"{x!r:>{w}}\" Br'\\d' bR'\\d'\n"));
    /* names that only start like prefixes are names */
    CHECK_STR("rbx \"a\" bar NL EOF", lexs("rbx 'a' bar\n"));
}

TEST(lex_fstrings) {
    /* nested quotes of the other kind, and (3.12) of the same kind */
    CHECK_STR("f\"{d['k']}\" NL EOF", lexs("f\"{d['k']}\"\n"));
    CHECK_STR("f\"{d[\"k\"]} {'}'}\" NL EOF", lexs("f\"{d[\"k\"]} {'}'}\"\n"));
    CHECK_STR("f\"{{literal}} {x:{w}.{p}f}\" NL EOF", lexs("f'{{literal}} {x:{w}.{p}f}'\n"));
    CHECK_STR("f\"a{f\"{x}\"}b\" NL EOF", lexs("f'a{f\"{x}\"}b'\n"));
    CHECK_STR("f\"\n{x}\n\" y NL EOF", lexs("f'''\n{x}\n''' y\n"));
    CHECK_STR("f\"{a: {b}}\" NL EOF", lexs("f\"{a: {b}}\"\n"));
    CHECK_STR("f\"{x['a':'b']}\" NL EOF", lexs("f\"{x['a':'b']}\"\n"));
}

TEST(lex_operators) {
    CHECK_STR("**= //= >>= <<= ... != -> := @= ** // >> << <= >= == NL EOF",
              lexs("**= //= >>= <<= ... != -> := @= ** // >> << <= >= ==\n"));
    CHECK_STR("+= -= *= /= %= &= |= ^= + - * / % @ & | ^ ~ < > = . , : ; NL EOF",
              lexs("+= -= *= /= %= &= |= ^= + - * / % @ & | ^ ~ < > = . , : ;\n"));
    CHECK_STR("a ** - b // c NL EOF", lexs("a**-b//c\n"));
    CHECK_STR("x [ : , None ] NL EOF", lexs("x[:, None]\n"));
    CHECK_STR(". . . ... NL EOF", lexs(". . . ...\n"));
    CHECK_STR("\xce\xbb = 1 NL EOF", lexs("\xce\xbb = 1\n"));  /* UTF-8 identifier */
}

TEST(lex_locations) {
    Source *s;
    Arena a;
    Token t = tok_at("if x:\n    y = 'ab'  +  z\n", 8, &s, &a);
    CHECK(tok_is(&t, "+"));
    CHECK_INT(2, t.loc.line);
    CHECK_INT(15, t.loc.col);
    CHECK(t.loc.src == s);
    arena_free(&a);
    source_free(s);
    t = tok_at("s = '''a\nb'''; q\n", 4, &s, &a);  /* after a multi-line string */
    CHECK(tok_is(&t, "q"));
    CHECK_INT(2, t.loc.line);
    CHECK_INT(7, t.loc.col);
    arena_free(&a);
    source_free(s);
    t = tok_at("f(1,\n  2)\n", 4, &s, &a);
    CHECK_INT(TK_INT, t.kind);
    CHECK_INT(2, t.loc.line);
    CHECK_INT(3, t.loc.col);
    arena_free(&a);
    source_free(s);
    CHECK(!tok_is(&t, "2"));  /* tok_is is for names and operators only */
}

TEST(lex_errors) {
    CHECK_STR("ERR 1 1:5 t.py:1:5: error: unterminated string literal (detected at line 1)",
              lexs("x = 'abc\ny\n"));
    CHECK_STR("ERR 1 2:3 t.py:2:3: error: unterminated triple-quoted string literal (detected at line 4)",
              lexs("a\nb=\"\"\"x\ny\nz\n"));
    CHECK_STR("ERR 1 3:3 t.py:3:3: error: unindent does not match any outer indentation level",
              lexs("if x:\n    y\n  z\n"));
    CHECK_STR("ERR 1 1:3 t.py:1:3: error: unexpected character '$'", lexs("a $ b\n"));
    CHECK_STR("ERR 1 1:2 t.py:1:2: error: '(' was never closed", lexs("f(a, [b]\n\n"));
    CHECK_STR("ERR 1 1:3 t.py:1:3: error: unmatched ')'", lexs("a )\n"));
    CHECK_STR("ERR 1 2:1 t.py:2:1: error: closing parenthesis ']' does not match opening parenthesis '(' on line 1",
              lexs("f(a,\n]\n"));
    CHECK_STR("ERR 1 1:4 t.py:1:4: error: closing parenthesis '}' does not match opening parenthesis '['",
              lexs("x[1}\n"));
    CHECK_STR("ERR 1 1:1 t.py:1:1: error: (unicode error) truncated \\xXX escape", lexs("'\\x4'\n"));
    CHECK_STR("ERR 1 1:1 t.py:1:1: error: unterminated string literal (detected at line 1)",
              lexs("f'{x'\n"));
    /* the message carries the source line and a caret */
    lexs("x = 'abc\n");
    CHECK_CONTAINS(lex_err.msg, "\n    x = 'abc\n        ^");
}

TEST(lex_limits) {
    char *deep = malloc(2000);
    int n = 0;
    for (int i = 0; i < 300; i++) deep[n++] = '(';
    deep[n] = 0;
    const char *r = lexs(deep);
    CHECK(strncmp(r, "ERR 11 1:201", 12) == 0);  /* TC_ERR_LIMIT at the 201st bracket */
    CHECK_CONTAINS(r, "too deeply nested");
    /* 200 brackets are fine */
    n = 0;
    for (int i = 0; i < 200; i++) deep[n++] = '[';
    for (int i = 0; i < 200; i++) deep[n++] = ']';
    deep[n++] = '\n';
    deep[n] = 0;
    CHECK(strncmp(lexs(deep), "[ [ [", 5) == 0);
    free(deep);
}

TEST(lex_misc) {
    /* a UTF-8 byte order mark is skipped; a form feed resets the indentation count */
    CHECK_STR("x NL EOF", lexs("\xEF\xBB\xBFx\n"));
    CHECK_STR("a : NL IN b NL c NL DE EOF", lexs("a:\n  b\n\f  c\n"));
    /* lines are counted inside triple-quoted strings with CRLF ends */
    Source *s;
    Arena a;
    Token t = tok_at("'''a\r\nb\r\n''' ; z\r\n", 2, &s, &a);
    CHECK(tok_is(&t, "z"));
    CHECK_INT(3, t.loc.line);
    CHECK_INT(7, t.loc.col);
    arena_free(&a);
    source_free(s);
    /* NUL bytes and control characters are rejected */
    Source *nul = source_new("t.py", "x = 1\0\n", 7);
    Err e = {0};
    CHECK(parse_module(nul, &e) == NULL);
    CHECK_CONTAINS(e.msg, "t.py:1:6: error: source code cannot contain null bytes");
    source_free(nul);
    CHECK_STR("ERR 1 1:3 t.py:1:3: error: unexpected character (code 0x01)", lexs("a \x01\n"));
    /* ? and ` are not Python operators */
    CHECK_STR("ERR 1 1:2 t.py:1:2: error: unexpected character '?'", lexs("a?\n"));
    /* a comment right after a colon, then the block */
    CHECK_STR("if x : NL IN pass NL DE EOF", lexs("if x:  # why\n    pass\n"));
    /* flags of string tokens */
    t = tok_at("b'x' f'{y}'\n", 0, &s, &a);
    CHECK(t.bytes && !t.fstring && t.slen == 1);
    arena_free(&a);
    source_free(s);
    t = tok_at("b'x' f'{y}'\n", 1, &s, &a);
    CHECK(!t.bytes && t.fstring && t.slen == 3);
    CHECK_INT(6, t.len);
    arena_free(&a);
    source_free(s);
}
