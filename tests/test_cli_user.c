/* test_cli_user.c — what a new user trips over (issue 15), tried through the `tritonc`
 * command as a separate process: argument values refused rather than wrapped, duplicate
 * arguments, the grid that ran, messages, --json output and the small ones. */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char out[65536];
static char dir[512];

static const char *KSRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def nop(x, BLOCK: tl.constexpr):\n"
    "    pass\n"
    "\n"
    "@triton.jit\n"
    "def add(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def racy(x, BLOCK: tl.constexpr):\n"
    "    tl.store(x + tl.arange(0, BLOCK), tl.program_id(0) * 1.0)\n";

static void setup(void) {
    snprintf(dir, sizeof dir, "%s/tests/cli_user", test_build_dir());
    char cmd[700];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    test_run(cmd, out, sizeof out);
    char p[700];
    snprintf(p, sizeof p, "%s/k.py", dir);
    FILE *f = fopen(p, "w");
    if (f) { fputs(KSRC, f); fclose(f); }
}

static char tcbin[1200];

/* Runs `tritonc ARGS` in the scratch directory (k.py is there), with no TRITON_INTERPRET
 * from outside, no driver (TRITONC_LIBCUDA_PATH names none) and the disk cache there. */
static int tc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int tc(const char *fmt, ...) {
    char args[4096], cmd[8192];
    if (!tcbin[0]) {
        char cwd[1024] = "";
        if (test_build_dir()[0] != '/' && !getcwd(cwd, sizeof cwd)) cwd[0] = 0;
        snprintf(tcbin, sizeof tcbin, "%s%s%s/tritonc", cwd, cwd[0] ? "/" : "", test_build_dir());
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "cd %s && env -u TRITON_INTERPRET TRITONC_LIBCUDA_PATH=/nonexistent "
             "TRITONC_CACHE_DIR=cache %s %s", dir, tcbin, args);
    return test_run(cmd, out, sizeof out);
}

/* ---- 1. argument values ---------------------------------------------------------------- */

TEST(cli_user_int_literals_fit_their_dtype) {
    setup();
    /* numpy 2: np.array([256], dtype=np.uint8) and [-1] raise OverflowError */
    CHECK_INT(2, tc("run k.py nop --interpret x='u8[255,256]' BLOCK=1"));
    CHECK_CONTAINS(out, "argument x=");
    CHECK_CONTAINS(out, "element 256 is out of range for u8 (0 to 255)");
    CHECK_INT(2, tc("run k.py nop --interpret x='u8[-1]' BLOCK=1"));
    CHECK_CONTAINS(out, "element -1 is out of range for u8");
    CHECK_INT(2, tc("run k.py nop --interpret x='i32[3000000000]' BLOCK=1"));
    CHECK_CONTAINS(out, "element 3000000000 is out of range for i32");
    CHECK_INT(2, tc("run k.py nop --interpret x='i8[[1,2],[3,-129]]' BLOCK=1"));
    CHECK_CONTAINS(out, "element -129 is out of range for i8 (-128 to 127)");
    CHECK_INT(2, tc("run k.py nop --interpret x='u8[1.7]' BLOCK=1"));
    CHECK_CONTAINS(out, "element 1.7 is not an integer");
    CHECK_INT(2, tc("run k.py nop --interpret x='i64[1e300]' BLOCK=1"));
    CHECK_CONTAINS(out, "out of range for i64");
    CHECK_INT(2, tc("run k.py nop --interpret x='i64[9223372036854775808]' BLOCK=1"));
    CHECK_CONTAINS(out, "out of range for i64");
    /* the edges themselves fit; an integral float is an integer; u64 takes up to 2**64-1 */
    CHECK_INT(0, tc("run k.py nop --interpret x='u8[0,255,2.0]' BLOCK=1 --print x"));
    CHECK_CONTAINS(out, "x = [0, 255, 2]");
    CHECK_INT(0, tc("run k.py nop --interpret x='i32[-2147483648,2147483647]' BLOCK=1 --print x"));
    CHECK_CONTAINS(out, "x = [-2147483648, 2147483647]");
    CHECK_INT(0, tc("run k.py nop --interpret x='u64[18446744073709551615,9223372036854775808]' "
                    "BLOCK=1 --print x"));
    CHECK_CONTAINS(out, "x = [18446744073709551615, 9223372036854775808]");
    CHECK_INT(0, tc("run k.py nop --interpret x='i16[-32768,32767]' BLOCK=1 --print x"));
    CHECK_CONTAINS(out, "x = [-32768, 32767]");
    CHECK_INT(2, tc("run k.py nop --interpret x='u16[65536]' BLOCK=1"));
    CHECK_INT(2, tc("run k.py nop --interpret x='u32[4294967296]' BLOCK=1"));
    CHECK_INT(0, tc("run k.py nop --interpret x='u32[4294967295]' BLOCK=1 --print x"));
    CHECK_CONTAINS(out, "x = [4294967295]");
    /* scalars follow Triton's typing (i32, i64, u64): past 2**64-1 is refused */
    CHECK_INT(2, tc("run k.py nop --interpret x='fp32[1]' BLOCK=18446744073709551616"));
    CHECK_CONTAINS(out, "argument BLOCK=");
}

TEST(cli_user_duplicate_argument) {
    setup();
    CHECK_INT(2, tc("run k.py add --interpret x='fp32[1]' y='fp32[2]' out='fp32:zeros(1)' "
                    "out='fp32:zeros(1)' n=1 BLOCK=1 --print out"));
    CHECK_CONTAINS(out, "argument out is given twice");
    CHECK(!strstr(out, "out = "));
    CHECK_INT(2, tc("run k.py add --interpret x='fp32[1]' y='fp32[2]' out='fp32:zeros(1)' "
                    "n=3 BLOCK=1 n=2"));
    CHECK_CONTAINS(out, "argument n is given twice (n=3 and n=2)");
    CHECK_INT(2, tc("check k.py add x='fp32[1]' y='fp32[2]' out='fp32:zeros(1)' n=1 n=1 BLOCK=1"));
    CHECK_CONTAINS(out, "argument n is given twice");
}

TEST(cli_user_missing_arguments_at_once) {
    setup();
    CHECK_INT(2, tc("run k.py add --interpret x='fp32[1]' BLOCK=1"));
    CHECK_CONTAINS(out, "missing 3 arguments: 'y', 'out', and 'n'");
    CHECK_INT(2, tc("run k.py add --interpret x='fp32[1]' y='fp32[1]' BLOCK=1"));
    CHECK_CONTAINS(out, "missing 2 arguments: 'out' and 'n'");
    CHECK_INT(2, tc("run k.py add --interpret x='fp32[1]' y='fp32[1]' out='fp32[1]' BLOCK=1"));
    CHECK_CONTAINS(out, "missing argument 'n'");
}

/* ---- 9. the small ones ---------------------------------------------------------------- */

TEST(cli_user_bench_checks_arguments_first) {
    setup();
    /* no driver here: each mistake is still a usage error naming it, not exit 3 */
    CHECK_INT(2, tc("bench k.py add x='fp32:rand(4)' y='u8[256]' out='fp32:zeros(4)' n=4 BLOCK=4"));
    CHECK_CONTAINS(out, "element 256 is out of range for u8");
    CHECK_INT(2, tc("bench k.py add x='fp32:rand(4)' bogus=1"));
    CHECK_CONTAINS(out, "unexpected argument 'bogus'");
    CHECK_INT(2, tc("bench k.py add x='fp32:rand(4)' y='fp32:rand(4)' out='fp32:zeros(4)' n=4 n=4 BLOCK=4"));
    CHECK_CONTAINS(out, "argument n is given twice");
    CHECK_INT(2, tc("tune k.py add x='fp32:rand(4)' y='fp32:nope(4)' out='fp32:zeros(4)' n=4 BLOCK=4"));
    CHECK_CONTAINS(out, "unknown function 'nope'");
    /* correct arguments: then the driver's refusal */
    CHECK_INT(3, tc("bench k.py add x='fp32:rand(4)' y='fp32:rand(4)' out='fp32:zeros(4)' n=4 BLOCK=4"));
    CHECK_CONTAINS(out, "0 active drivers");
}

/* ---- 3. the grid that ran --------------------------------------------------------------- */

TEST(cli_user_verbose_grid_expression) {
    setup();
    /* cdiv(10, 4) = 3 programs; (3 * 2, 5 // 2) = (6, 2) */
    CHECK_INT(0, tc("run k.py add --interpret --grid 'cdiv(n, BLOCK)' x='fp32:ones(10)' "
                    "y='fp32:ones(10)' out='fp32:zeros(10)' n=10 BLOCK=4 --verbose --print out"));
    CHECK_CONTAINS(out, "grid (3, 1, 1)");
    CHECK_CONTAINS(out, "out = [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]");
    CHECK_INT(0, tc("run k.py add --interpret --grid '(cdiv(n, BLOCK) * 2, 5 // 2)' x='fp32:ones(10)' "
                    "y='fp32:ones(10)' out='fp32:zeros(10)' n=10 BLOCK=4 --verbose"));
    CHECK_CONTAINS(out, "grid (6, 2, 1)");
    CHECK_INT(0, tc("run k.py add --interpret --grid 2,3 x='fp32:ones(10)' "
                    "y='fp32:ones(10)' out='fp32:zeros(10)' n=10 BLOCK=4 --verbose"));
    CHECK_CONTAINS(out, "grid (2, 3, 1)");
}

TEST(cli_user_run_file_lists_kernels) {
    setup();
    CHECK_INT(0, tc("run k.py"));
    CHECK_CONTAINS(out, "k.py: 3 kernels");
    CHECK_CONTAINS(out, "  nop(x, BLOCK: tl.constexpr)\n");
    CHECK_CONTAINS(out, "  add(x, y, out, n, BLOCK: tl.constexpr)\n");
    CHECK_CONTAINS(out, "  racy(x, BLOCK: tl.constexpr)\n");
    CHECK_INT(0, tc("check k.py"));
    CHECK_CONTAINS(out, "  add(x, y, out, n, BLOCK: tl.constexpr)\n");
    CHECK_INT(1, tc("run nosuch.py"));
    CHECK_CONTAINS(out, "nosuch.py");
}

TEST(cli_user_save_path_checked_before_the_run) {
    setup();
    /* the kernel would print; nothing runs when --save's path cannot be written */
    static const char *P =
        "import triton\nimport triton.language as tl\n@triton.jit\ndef say(x):\n"
        "    tl.device_print('ran', tl.program_id(0))\n";
    char p[700];
    snprintf(p, sizeof p, "%s/say.py", dir);
    FILE *f = fopen(p, "w");
    if (f) { fputs(P, f); fclose(f); }
    CHECK_INT(2, tc("run say.py say --interpret x='fp32[1]' --save x=/nonexistent-dir/x.npy"));
    CHECK_CONTAINS(out, "--save /nonexistent-dir/x.npy: no directory /nonexistent-dir");
    CHECK(!strstr(out, "ran"));
    CHECK_INT(2, tc("run say.py say --interpret x='fp32[1]' --save x=."));
    CHECK_CONTAINS(out, "a directory, not a file");
    CHECK(!strstr(out, "ran"));
    CHECK_INT(0, tc("run say.py say --interpret x='fp32[1]' --save x=x.npy --save x=/dev/null"));
    CHECK_CONTAINS(out, "ran");
}

/* ---- 6. messages: what is wrong, where, what to do, once -------------------------------- */

static const char *MSRC =
    "import triton\n"                                                   /* 1 */
    "import triton.language as tl\n"                                    /* 2 */
    "\n"                                                                /* 3 */
    "def host_helper(x):\n"                                             /* 4 */
    "    return x * 2\n"                                                /* 5 */
    "\n"                                                                /* 6 */
    "SCALE = 3\n"                                                       /* 7 */
    "\n"                                                                /* 8 */
    "@triton.jit\n"                                                     /* 9 */
    "def uses_helper(x_ptr, BLOCK: tl.constexpr):\n"                    /* 10 */
    "    offs = tl.arange(0, BLOCK)\n"                                  /* 11 */
    "    tl.store(x_ptr + offs, host_helper(tl.load(x_ptr + offs)))\n"  /* 12 */
    "\n"                                                                /* 13 */
    "@triton.jit\n"                                                     /* 14 */
    "def bad_dtype(x_ptr, BLOCK: tl.constexpr):\n"                      /* 15 */
    "    offs = tl.arange(0, BLOCK)\n"                                  /* 16 */
    "    y = tl.load(x_ptr + offs).to(tl.float33)\n"                    /* 17 */
    "    tl.store(x_ptr + offs, y)\n"                                   /* 18 */
    "\n"                                                                /* 19 */
    "@triton.jit\n"                                                     /* 20 */
    "def loads(x_ptr, BLOCK: tl.constexpr):\n"                          /* 21 */
    "    offs = tl.arange(0, BLOCK)\n"                                  /* 22 */
    "    v = tl.load(x_ptr + offs)\n"                                   /* 23 */
    "    tl.store(x_ptr + offs, v + 1)\n"                               /* 24 */
    "\n"                                                                /* 25 */
    "@triton.jit\n"                                                     /* 26 */
    "def uses_global(x_ptr):\n"                                         /* 27 */
    "    tl.store(x_ptr, tl.load(x_ptr) * SCALE)\n";                    /* 28 */

static void write_m(void) {
    char p[700];
    snprintf(p, sizeof p, "%s/m.py", dir);
    FILE *f = fopen(p, "w");
    if (f) { fputs(MSRC, f); fclose(f); }
}

/* how many times needle occurs in hay */
static int count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

TEST(cli_user_message_plain_python_helper) {
    setup();
    write_m();
    CHECK_INT(1, tc("run m.py uses_helper --interpret x_ptr='fp32[1]' BLOCK=1"));
    CHECK_CONTAINS(out, "m.py:12:28: error: 'host_helper' (line 4) is a plain Python function, "
                        "not @triton.jit");
    CHECK_CONTAINS(out, "did you forget to add @triton.jit ?");
    CHECK(!strstr(out, "NameError"));
    CHECK_INT(1, tc("run m.py uses_global --interpret x_ptr='fp32[1]'"));
    CHECK_CONTAINS(out, "m.py:28:38: error: Cannot access global variable SCALE (line 7)");
    CHECK_CONTAINS(out, "SCALE = tl.constexpr(...)");
}

TEST(cli_user_message_scalar_for_pointer) {
    setup();
    write_m();
    CHECK_INT(1, tc("run m.py loads --interpret x_ptr=3 BLOCK=1"));
    CHECK_CONTAINS(out, "m.py:23:9: error: Unsupported ptr type triton.language.int32 in `tl.load`: "
                        "the pointer is computed from argument 'x_ptr', which was given a scalar "
                        "(i32), not a tensor; pass a tensor (a pointer) for 'x_ptr'");
    CHECK_CONTAINS(out, "tritonc: note: the command line gave x_ptr=3\n");
    CHECK_INT(1, tc("run m.py loads --interpret x_ptr=2.5 BLOCK=1"));
    CHECK_CONTAINS(out, "argument 'x_ptr', which was given a scalar (fp32)");
}

TEST(cli_user_message_unknown_dtype) {
    setup();
    write_m();
    CHECK_INT(1, tc("run m.py bad_dtype --interpret x_ptr='fp32[1]' BLOCK=1"));
    CHECK_CONTAINS(out, "m.py:17:9: error: module 'triton.language' has no attribute 'float33'");
    CHECK_CONTAINS(out, "float16, bfloat16, float32");
}

TEST(cli_user_message_one_prefix_once) {
    setup();
    /* usage errors, API errors and grid errors: "tritonc: error: ", each said once */
    CHECK_INT(2, tc("run k.py add --interpret --grid 'cdiv(m, BLOCK)' x='fp32[1]' y='fp32[1]' "
                    "out='fp32[1]' n=1 BLOCK=1"));
    CHECK_CONTAINS(out, "tritonc: error: --grid cdiv(m, BLOCK): 'm' is not an argument of the "
                        "launch (add's parameters: x, y, out, n, BLOCK)\n");
    CHECK_INT(1, count_of(out, "'m'"));
    CHECK(!strstr(out, "unexpected argument"));
    CHECK_INT(2, tc("run k.py add --interpret --bogus"));
    CHECK_CONTAINS(out, "tritonc: error: unknown option '--bogus'");
    CHECK_INT(2, tc("run k.py nosuch --interpret"));
    CHECK_CONTAINS(out, "tritonc: error: no kernel named 'nosuch'");
    CHECK_INT(2, tc("run k.py add --interpret x='fp32[1]' BLOCK=1"));
    CHECK_CONTAINS(out, "tritonc: error: add(");
    CHECK_INT(1, count_of(out, "error"));
}

/* ---- 8. --json ------------------------------------------------------------------------ */

/* A JSON reader written from RFC 8259's grammar: checks the text is one well-formed value
 * and counts the objects, for structure checks (the members are then looked for as text). */
typedef struct Js { const char *p; int objects, arrays; } Js;
static int js_value(Js *j);
static void js_ws(Js *j) { while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r') j->p++; }
static int js_string(Js *j) {
    if (*j->p != '"') return 0;
    for (j->p++; *j->p != '"'; j->p++) {
        if ((unsigned char)*j->p < 0x20) return 0;
        if (*j->p == '\\') {
            j->p++;
            if (*j->p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", j->p[i]) || !j->p[i]) return 0;
                j->p += 4;
            } else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) {
                return 0;
            }
        }
    }
    j->p++;
    return 1;
}
static int js_number(Js *j) {
    const char *s = j->p;
    if (*j->p == '-') j->p++;
    if (*j->p == '0') j->p++;
    else if (*j->p >= '1' && *j->p <= '9') while (*j->p >= '0' && *j->p <= '9') j->p++;
    else return 0;
    if (*j->p == '.') { j->p++; if (!(*j->p >= '0' && *j->p <= '9')) return 0; while (*j->p >= '0' && *j->p <= '9') j->p++; }
    if (*j->p == 'e' || *j->p == 'E') {
        j->p++;
        if (*j->p == '+' || *j->p == '-') j->p++;
        if (!(*j->p >= '0' && *j->p <= '9')) return 0;
        while (*j->p >= '0' && *j->p <= '9') j->p++;
    }
    return j->p > s;
}
static int js_value(Js *j) {
    js_ws(j);
    if (*j->p == '{') {
        j->objects++;
        j->p++;
        js_ws(j);
        if (*j->p == '}') { j->p++; return 1; }
        for (;;) {
            js_ws(j);
            if (!js_string(j)) return 0;
            js_ws(j);
            if (*j->p++ != ':') return 0;
            if (!js_value(j)) return 0;
            js_ws(j);
            if (*j->p == ',') { j->p++; continue; }
            if (*j->p == '}') { j->p++; return 1; }
            return 0;
        }
    }
    if (*j->p == '[') {
        j->arrays++;
        j->p++;
        js_ws(j);
        if (*j->p == ']') { j->p++; return 1; }
        for (;;) {
            if (!js_value(j)) return 0;
            js_ws(j);
            if (*j->p == ',') { j->p++; continue; }
            if (*j->p == ']') { j->p++; return 1; }
            return 0;
        }
    }
    if (*j->p == '"') return js_string(j);
    if (!strncmp(j->p, "true", 4)) { j->p += 4; return 1; }
    if (!strncmp(j->p, "false", 5)) { j->p += 5; return 1; }
    if (!strncmp(j->p, "null", 4)) { j->p += 4; return 1; }
    return js_number(j);
}
/* 1 if s is exactly one JSON value (surrounding white space allowed) */
static int json_ok(const char *s, Js *j) {
    memset(j, 0, sizeof *j);
    j->p = s;
    if (!js_value(j)) return 0;
    js_ws(j);
    return *j->p == 0;
}

TEST(cli_user_json_reader_itself) {
    Js j;
    CHECK(json_ok("{\"a\": [1, -2.5e3, true, null, \"x\\n\"]}", &j));
    CHECK_INT(1, j.objects);
    CHECK(!json_ok("{\"a\": nan}", &j));
    CHECK(!json_ok("{\"a\": 1,}", &j));
    CHECK(!json_ok("[1] [2]", &j));
    CHECK(!json_ok("{\"a\": 01}", &j));
}

TEST(cli_user_json_run) {
    setup();
    Js j;
    /* y holds a NaN: out = x + y = [2, 3, ..., 10, nan]; finite: 2..10, mean 6 */
    CHECK_INT(0, tc("run k.py add --interpret --grid 'cdiv(n, BLOCK)' x='fp32:ones(10)' "
                    "y='fp32[1,2,3,4,5,6,7,8,9,nan]' out='fp32:zeros(10)' n=10 BLOCK=4 --json "
                    "--print out 2>/dev/null"));
    CHECK(json_ok(out, &j));
    CHECK_INT(8, j.objects);    /* the whole, launch, stats and the 5 arguments */
    CHECK_CONTAINS(out, "\"command\": \"run\"");
    CHECK_CONTAINS(out, "\"grid\": [3, 1, 1]");
    CHECK_CONTAINS(out, "\"backend\": \"interpreter\"");
    CHECK_CONTAINS(out, "\"compile_ms\": ");
    CHECK_CONTAINS(out, "\"run_ms\": ");
    CHECK_CONTAINS(out, "{\"name\": \"out\", \"tensor\": true, \"dtype\": \"fp32\", \"shape\": [10], "
                        "\"numel\": 10, \"min\": 2.0, \"max\": 10.0, \"mean\": 6.0, \"nan\": 1, \"inf\": 0, "
                        "\"values\": [2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, null]}");
    CHECK_CONTAINS(out, "{\"name\": \"n\", \"tensor\": false, \"value\": 10}");
    CHECK(!strstr(out, "out = ["));   /* --print's text is not mixed in */
}

TEST(cli_user_json_check_findings) {
    setup();
    Js j;
    /* racy: every program stores its id to x[0..4): programs 1 and 2 overwrite program 0 */
    CHECK_INT(4, tc("check k.py racy --grid 3 x='fp32:zeros(4)' BLOCK=4 --json 2>/dev/null"));
    CHECK(json_ok(out, &j));
    CHECK_CONTAINS(out, "\"command\": \"check\"");
    CHECK_CONTAINS(out, "\"check\": {\"findings\": 2, \"notes\": 0, \"seed\": 24301, \"records\": [");
    CHECK_CONTAINS(out, "{\"kind\": \"race\", \"note\": false, \"where\": {\"file\": \"k.py\", \"line\": 16, "
                        "\"col\": 5}, \"other\": {\"file\": \"k.py\", \"line\": 16, \"col\": 5}, "
                        "\"program\": [1, 0, 0], \"other_program\": [0, 0, 0], \"lane\": null, \"address\": \"0x");
    CHECK_CONTAINS(out, "\"tensor\": \"x\", \"element\": 0, \"count\": 8, \"message\": \"race: program (1, 0, 0) writes x[0]");
    CHECK_CONTAINS(out, "{\"kind\": \"order dependence\", \"note\": false, \"where\": null");
    /* a clean kernel: no records */
    CHECK_INT(0, tc("check k.py add --grid 2 x='fp32:ones(8)' y='fp32:ones(8)' out='fp32:zeros(8)' "
                    "n=8 BLOCK=4 --json 2>/dev/null"));
    CHECK(json_ok(out, &j));
    CHECK_CONTAINS(out, "\"check\": {\"findings\": 0, \"notes\": 0, \"seed\": 24301, \"records\": []}");
    /* an out-of-bounds access stops the run: still one object, the error with its location
     * (x has 6 elements, n says 8) */
    CHECK_INT(1, tc("check k.py add --grid 2 x='fp32:ones(6)' y='fp32:ones(8)' out='fp32:zeros(8)' "
                    "n=8 BLOCK=4 --json 2>/dev/null"));
    CHECK(json_ok(out, &j));
    CHECK_CONTAINS(out, "\"error\": {\"status\": \"TC_ERR_RUNTIME\", \"exit\": 1, \"message\": \"k.py:12:");
    CHECK_CONTAINS(out, "out-of-bounds load");
    CHECK_CONTAINS(out, "\"where\": {\"file\": \"k.py\", \"line\": 12, \"col\": ");
    CHECK_CONTAINS(out, "\"check\": {\"findings\": 0");
}

TEST(cli_user_json_compile_and_cache_ls) {
    setup();
    Js j;
    char c[1200];
    snprintf(c, sizeof c, "rm -rf %s/cache", dir);
    test_run(c, out, sizeof out);
    CHECK_INT(0, tc("cache ls --json"));   /* no cache directory yet */
    CHECK(json_ok(out, &j));
    CHECK_CONTAINS(out, "\"files\": [], \"entries\": 0");
    CHECK_INT(0, tc("compile k.py add --target cuda:90a --target cuda:80 "
                    "x='*fp32:16' y='*fp32:16' out='*fp32:16' n=i32 BLOCK=64 --json"));
    CHECK(json_ok(out, &j));
    CHECK_INT(3, j.objects);   /* the whole and two variants */
    CHECK_CONTAINS(out, "\"command\": \"compile\"");
    CHECK_CONTAINS(out, "{\"target\": \"cuda:90a\", \"entry\": \"add\", \"specialization\": "
                        "\"*fp32:16, *fp32:16, *fp32:16, i32, BLOCK=64\", \"threads\": 128");
    CHECK_CONTAINS(out, "\"disk_cache\": \"cache miss\", \"ptx\": \"//");
    CHECK_CONTAINS(out, ".target sm_80");
    CHECK_INT(0, tc("compile k.py add --target cuda:90a x='*fp32:16' "
                    "y='*fp32:16' out='*fp32:16' n=i32 BLOCK=64 --json -o add.ptx"));
    CHECK(json_ok(out, &j));
    CHECK_CONTAINS(out, "\"disk_cache\": \"cache hit\", \"path\": \"add.ptx\"}");
    CHECK_INT(0, tc("cache ls --json"));
    CHECK(json_ok(out, &j));
    CHECK_INT(3, j.objects);
    CHECK_CONTAINS(out, "\"kind\": \"entry\", \"kernel\": \"add\", \"target\": \"cuda:80\"");
    CHECK_CONTAINS(out, "\"entries\": 2");
}

/* The contents of file path (relative to the scratch directory) into out; 0 if none. */
static int slurp(const char *path) {
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", dir, path);
    FILE *f = fopen(p, "rb");
    out[0] = 0;
    if (!f) return 0;
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    fclose(f);
    return 1;
}

/* Runs a shell command in the scratch directory with $TC (the tritonc command), $FAKE (the
 * fake libcuda.so.1) and TRITONC_CACHE_DIR=cache set. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...) {
    char args[4096], cmd[8192], fake[1200];
    tc("--version");   /* sets tcbin */
    snprintf(fake, sizeof fake, "%s", tcbin);
    char *sl = strrchr(fake, '/');
    if (sl) snprintf(sl, sizeof fake - (size_t)(sl - fake), "/fake/libcuda.so.1");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "cd %s && export TC='%s' FAKE='%s' TRITONC_CACHE_DIR=cache && "
             "unset TRITON_INTERPRET TRITON_KERNEL_DUMP TRITON_DUMP_DIR TRITON_KERNEL_OVERRIDE "
             "TRITON_OVERRIDE_DIR && %s", dir, tcbin, fake, args);
    return test_run(cmd, out, sizeof out);
}

/* TRITON_KERNEL_DUMP=1: the PTX of a GPU launch (the fake driver: it loads the module and
 * launches nothing) and its tile IR land in TRITON_DUMP_DIR/<key>/. */
TEST(cli_user_kernel_dump) {
    setup();
    sh("rm -rf dump cache");
    CHECK_INT(0, sh("FAKE_CUDA_LAUNCH=ok TRITONC_LIBCUDA_PATH=$FAKE TRITON_KERNEL_DUMP=1 "
                    "TRITON_DUMP_DIR=dump $TC run k.py add x='fp32:ones(8)' y='fp32:ones(8)' "
                    "out='fp32:zeros(8)' n=8 BLOCK=8"));
    CHECK_INT(0, sh("ls dump/*/"));
    CHECK_CONTAINS(out, "add.ptx\nadd.tcir\n");
    CHECK_INT(0, sh("cat dump/*/add.ptx"));
    CHECK_CONTAINS(out, ".visible .entry add(");
    CHECK_CONTAINS(out, ".file 1 \"k.py\"");
    /* line 10 of k.py: offs = tl.program_id(0) * BLOCK + ...; program_id at column 12 */
    CHECK_CONTAINS(out, "\t.loc 1 10 12\n\tmov.u32 %r4, %ctaid.x;");
    CHECK_CONTAINS(out, "\t.loc 1 12 ");   /* the store's line */
    CHECK_INT(0, sh("cat dump/*/add.tcir"));
    CHECK_CONTAINS(out, "func add(");
    CHECK_CONTAINS(out, "program_id");
    /* from the disk cache too (a new process, the entry compiled above) */
    sh("rm -rf dump");
    CHECK_INT(0, sh("FAKE_CUDA_LAUNCH=ok TRITONC_LIBCUDA_PATH=$FAKE TRITON_KERNEL_DUMP=1 "
                    "TRITON_DUMP_DIR=dump $TC run k.py add x='fp32:ones(8)' y='fp32:ones(8)' "
                    "out='fp32:zeros(8)' n=8 BLOCK=8 --verbose && ls dump/*/"));
    CHECK_CONTAINS(out, "loaded from the disk cache");
    CHECK_CONTAINS(out, "add.ptx");
    /* without the variable: no dump */
    sh("rm -rf dump");
    CHECK_INT(0, sh("FAKE_CUDA_LAUNCH=ok TRITONC_LIBCUDA_PATH=$FAKE TRITON_DUMP_DIR=dump $TC run "
                    "k.py add x='fp32:ones(8)' y='fp32:ones(8)' out='fp32:zeros(8)' n=8 BLOCK=8"));
    CHECK(sh("ls dump") != 0);
}

/* TRITON_KERNEL_OVERRIDE=1: the PTX in TRITON_OVERRIDE_DIR/<key>/<kernel>.ptx (where the
 * dump put it) is loaded in place of the lowering's, past the disk cache; a file that is not
 * one, a text with a NUL in it, or PTX the driver refuses, is an error naming the file. */
TEST(cli_user_kernel_override) {
    setup();
    const char *run = "FAKE_CUDA_LAUNCH=ok TRITONC_LIBCUDA_PATH=$FAKE $TC run k.py add "
                      "x='fp32:ones(8)' y='fp32:ones(8)' out='fp32:zeros(8)' n=8 BLOCK=8";
    sh("rm -rf dump dump2 over cache");
    CHECK_INT(0, sh("TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR=dump %s", run));
    CHECK_INT(0, sh("cp -r dump over && sed -i '1s|^|// hand-edited\\n|' over/*/add.ptx"));
    CHECK_INT(0, sh("TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=over TRITON_KERNEL_DUMP=1 "
                    "TRITON_DUMP_DIR=dump2 %s --verbose", run));
    CHECK_CONTAINS(out, "add.ptx (TRITON_KERNEL_OVERRIDE)");
    CHECK_CONTAINS(out, "disk cache: no disk cache");
    /* the launch loaded the edited text, and the dump keeps the override's key */
    CHECK_INT(0, sh("cd dump2/* && head -1 add.ptx && ls ../../over/$(basename $PWD)"));
    CHECK_CONTAINS(out, "// hand-edited\nadd.ptx");
    /* switched on with no file for this key: the disk cache serves as usual */
    CHECK_INT(0, sh("TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=nowhere %s --verbose", run));
    CHECK_CONTAINS(out, "cache hit");
    CHECK_INT(0, sh("for f in over/*/add.ptx; do printf 'not ptx\\n' > $f; done"));
    CHECK_INT(1, sh("TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=over %s", run));
    CHECK_CONTAINS(out, "error: TRITON_KERNEL_OVERRIDE: over/");
    CHECK_CONTAINS(out, "/add.ptx: cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX");
    CHECK_INT(0, sh("for f in over/*/add.ptx; do printf 'a\\000b' > $f; done"));
    CHECK_INT(1, sh("TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=over %s", run));
    CHECK_CONTAINS(out, "/add.ptx: not a PTX text of at most 64 MiB");
    CHECK_INT(0, sh("cd over/* && rm add.ptx && mkdir add.ptx"));
    CHECK_INT(1, sh("TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=over %s", run));
    CHECK_CONTAINS(out, "/add.ptx: not a regular file (a directory)");
}

/* The .loc line information assembles with ptxas (when there is one) for sm_80 and sm_90a,
 * with and without --generate-line-info. */
TEST(cli_user_loc_assembles) {
    setup();
    if (test_run("test -x /usr/local/cuda/bin/ptxas", out, sizeof out) != 0) return;
    CHECK_INT(0, tc("compile k.py add --target cuda:80 --target cuda:90a x='*fp32:16' y='*fp32:16' "
                    "out='*fp32:16' n=i32 BLOCK=256 -o loc"));
    CHECK_INT(0, sh("/usr/local/cuda/bin/ptxas -arch=sm_80 loc.0.sm_80.ptx -o loc80.cubin && "
                    "/usr/local/cuda/bin/ptxas -arch=sm_90a -lineinfo loc.0.sm_90a.ptx -o loc90.cubin"));
    CHECK(slurp("loc.0.sm_80.ptx"));
    CHECK_CONTAINS(out, ".file 1 \"k.py\"");
    CHECK_CONTAINS(out, ".loc 1 11 ");
}
