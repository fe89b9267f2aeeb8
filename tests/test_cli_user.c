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
 * from outside and no driver (TRITONC_LIBCUDA_PATH names none). */
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
             "%s %s", dir, tcbin, args);
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
