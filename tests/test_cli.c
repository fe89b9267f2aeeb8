/* test_cli.c — the `tritonc` command, run as a separate process: exit statuses, --help,
 * usage errors, --print's Python list format, .npy files (read back here by an independent
 * reader written from numpy's format documentation), error messages with file:line:col,
 * and the chapter's standalone example. */
#include "test.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char out[65536];
static char dir[512];
static char tc[600];

/* A scratch directory under the build directory, and the kernel file the tests use. */
static const char *KFILE_SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def copy(src, dst, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(dst + offs, tl.load(src + offs, mask=mask), mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def oob(x, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(x + offs, tl.load(x + offs) + 1.0)\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    print('host code is skipped')\n";

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, n, f);
    fclose(f);
}

static void setup(void) {
    snprintf(dir, sizeof dir, "%s/tests/cli", test_build_dir());
    char cmd[700];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    test_run(cmd, out, sizeof out);
    snprintf(tc, sizeof tc, "%s/tritonc", test_build_dir());
    char p[700];
    snprintf(p, sizeof p, "%s/k.py", dir);
    write_file(p, KFILE_SRC, strlen(KFILE_SRC));
}

static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...) {
    char args[4096], cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET %s %s", tc, args);
    return test_run(cmd, out, sizeof out);
}

TEST(cli_help_and_usage) {
    setup();
    CHECK_INT(0, run("--help"));
    CHECK_CONTAINS(out, "usage: tritonc");
    CHECK_CONTAINS(out, "run FILE KERNEL");
    CHECK_INT(0, run("--version"));
    CHECK_STR("tritonc 0.1.0\n", out);
    CHECK_INT(0, run("run --help"));
    CHECK_CONTAINS(out, "--grid X[,Y[,Z]]");
    CHECK_CONTAINS(out, "DTYPE:zeros(d0[,d1...])");
    CHECK_CONTAINS(out, "DTYPE:randn");
    CHECK_CONTAINS(out, "@PATH.npy");
    CHECK_CONTAINS(out, "'<u2'");
    CHECK_CONTAINS(out, "exit status");
    CHECK_INT(0, run("compile --help"));
    CHECK_CONTAINS(out, "--target");
    CHECK_INT(2, run("%s", ""));
    CHECK_INT(2, run("frobnicate"));
    CHECK_CONTAINS(out, "unknown command 'frobnicate'");
    CHECK_INT(2, run("run"));
    CHECK_CONTAINS(out, "expected FILE and KERNEL");
    CHECK_INT(2, run("run %s/k.py add --interpret --bogus", dir));
    CHECK_CONTAINS(out, "unknown option '--bogus'");
    CHECK_INT(2, run("run %s/k.py add --interpret --grid 1,2,3,4", dir));
    CHECK_INT(2, run("run %s/k.py add --interpret --grid x", dir));
    CHECK_INT(2, run("run %s/k.py add --interpret --num-warps 3", dir));
    CHECK_CONTAINS(out, "num_warps must be a power of 2");
    CHECK_INT(2, run("run %s/k.py add --interpret --num-stages 0", dir));
    CHECK_INT(2, run("run %s/k.py nope --interpret", dir));
    CHECK_CONTAINS(out, "no kernel named 'nope'");
    CHECK_CONTAINS(out, "(kernels: add, copy, oob)");
    CHECK_INT(2, run("run %s/k.py add --interpret zz=4", dir));
    CHECK_CONTAINS(out, "(parameters: x, y, out, n, BLOCK)");
    CHECK_INT(2, run("run %s/k.py add --interpret x=fp99[1,2]", dir));
    CHECK_CONTAINS(out, "fp99");
    CHECK_INT(2, run("run %s/k.py add --interpret x=fp32[1,2", dir));
    CHECK_INT(2, run("run %s/k.py add --interpret 'x=fp32:ones2(3)'", dir));
    CHECK_INT(2, run("run %s/k.py add --interpret x=hello", dir));
    CHECK_INT(2, run("run %s/k.py add --interpret --print nothere x=fp32[1]", dir));
    CHECK_INT(2, run("run %s/k.py add --interpret --save x", dir));
    /* a missing argument is a usage error too */
    CHECK_INT(2, run("run %s/k.py add --interpret x=fp32[1] y=fp32[1] 'out=fp32:zeros(1)' BLOCK=4", dir));
    CHECK_CONTAINS(out, "missing argument 'n'");
    /* a file that does not exist */
    CHECK_INT(1, run("run %s/none.py add --interpret", dir));
    CHECK_CONTAINS(out, "none.py");
}

TEST(cli_run_print) {
    setup();
    int rc = run("run %s/k.py add --interpret x=fp32[1,2,3,4] y=fp32[10,20,30,40] "
                 "'out=fp32:zeros(4)' n=4 BLOCK=4 --print out", dir);
    CHECK_INT(0, rc);
    CHECK_STR("out = [11.0, 22.0, 33.0, 44.0]\n", out);
    /* the chapter's own file and kernel; options after the arguments; TRITON_INTERPRET=1 */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "TRITON_INTERPRET=1 %s run examples/chapter10.py add_kernel "
             "x_ptr=fp32[1,2,3,4] y_ptr=fp32[10,20,30,40] 'out_ptr=fp32:empty(4)' n=4 BLOCK=4 "
             "--num-warps 8 --print out_ptr", tc);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_STR("out_ptr = [11.0, 22.0, 33.0, 44.0]\n", out);
    snprintf(cmd, sizeof cmd, "TRITON_INTERPRET=1 %s run examples/chapter10.py hw_aware_kernel "
             "x_ptr=fp32[1,2,3,4] 'out_ptr=fp32:zeros(4)' n=4 USE_FAST_PATH=true BLOCK=4 "
             "--print out_ptr", tc);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_STR("out_ptr = [2.0, 4.0, 6.0, 8.0]\n", out);
    snprintf(cmd, sizeof cmd, "TRITON_INTERPRET=1 %s run examples/chapter10.py hw_aware_kernel "
             "x_ptr=fp32[1,2,3,4] 'out_ptr=fp32:zeros(4)' n=4 USE_FAST_PATH=false BLOCK=4 "
             "--print out_ptr --print n", tc);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_STR("out_ptr = [2.0, 4.0, 6.0, 8.0]\nn = 4\n", out);

    /* floats print as Python's repr of the float32 value */
    CHECK_INT(0, run("run %s/k.py copy --interpret src=fp32[0.1,1e20,-0.0,2.5] 'dst=fp32:zeros(4)' "
                     "n=4 BLOCK=4 --print dst", dir));
    CHECK_STR("dst = [0.10000000149011612, 1.0000000200408773e+20, -0.0, 2.5]\n", out);
    /* fp16 0.1 rounds to 1638/16384 = 0.0999755859375; 65504 is fp16's largest */
    CHECK_INT(0, run("run %s/k.py copy --interpret src=fp16[0.1,65504,-2] 'dst=fp16:zeros(3)' "
                     "n=3 BLOCK=4 --print dst", dir));
    CHECK_STR("dst = [0.0999755859375, 65504.0, -2.0]\n", out);
    /* bf16 keeps 8 significant bits: 1.01 -> 1.0078125 */
    CHECK_INT(0, run("run %s/k.py copy --interpret src=bf16[1.01,3] 'dst=bf16:zeros(2)' n=2 "
                     "BLOCK=2 --print dst", dir));
    CHECK_STR("dst = [1.0078125, 3.0]\n", out);
    /* ints, arange, bools, fp64 */
    CHECK_INT(0, run("run %s/k.py copy --interpret 'src=i32:arange(5)' 'dst=i32:zeros(5)' n=5 "
                     "BLOCK=8 --print dst", dir));
    CHECK_STR("dst = [0, 1, 2, 3, 4]\n", out);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=i64[-3,9000000000] 'dst=i64:zeros(2)' n=2 "
                     "BLOCK=2 --print dst", dir));
    CHECK_STR("dst = [-3, 9000000000]\n", out);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=u8[255,0,7] 'dst=u8:zeros(3)' n=3 "
                     "BLOCK=4 --print dst", dir));
    CHECK_STR("dst = [255, 0, 7]\n", out);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=i1[true,false,1] 'dst=i1:zeros(3)' n=3 "
                     "BLOCK=4 --print dst", dir));
    CHECK_STR("dst = [True, False, True]\n", out);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=fp64[0.1,0.2] 'dst=fp64:zeros(2)' n=2 "
                     "BLOCK=2 --print dst", dir));
    CHECK_STR("dst = [0.1, 0.2]\n", out);
    /* two dimensions: nested lists */
    CHECK_INT(0, run("run %s/k.py copy --interpret 'src=fp32[[1,2,3],[4,5,6]]' 'dst=fp32:zeros(2,3)' "
                     "n=6 BLOCK=8 --print dst", dir));
    CHECK_STR("dst = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]\n", out);
    /* a grid: 3 programs of 4 cover 10 elements */
    CHECK_INT(0, run("run %s/k.py copy --interpret --grid 3 'src=i32:arange(10)' 'dst=i32:zeros(10)' "
                     "n=10 BLOCK=4 --print dst", dir));
    CHECK_STR("dst = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n", out);
    CHECK_INT(0, run("run %s/k.py copy --interpret --grid 2 'src=i32:arange(10)' 'dst=i32:zeros(10)' "
                     "n=10 BLOCK=4 --print dst", dir));
    CHECK_STR("dst = [0, 1, 2, 3, 4, 5, 6, 7, 0, 0]\n", out);
}

TEST(cli_rand_seed) {
    setup();
    char a[2048], b[2048];
    CHECK_INT(0, run("run %s/k.py copy --interpret --seed 7 'src=fp32:rand(8)' 'dst=fp32:zeros(8)' "
                     "n=8 BLOCK=8 --print src --print dst", dir));
    snprintf(a, sizeof a, "%.2000s", out);
    CHECK_INT(0, run("run %s/k.py copy --interpret --seed 7 'src=fp32:rand(8)' 'dst=fp32:zeros(8)' "
                     "n=8 BLOCK=8 --print src --print dst", dir));
    snprintf(b, sizeof b, "%.2000s", out);
    CHECK_STR(a, b);
    CHECK_INT(0, run("run %s/k.py copy --interpret --seed 8 'src=fp32:rand(8)' 'dst=fp32:zeros(8)' "
                     "n=8 BLOCK=8 --print src", dir));
    CHECK(strncmp(a, out, strlen(out) - 1) != 0);
    /* src and dst print the same list */
    char *nl = strchr(a, '\n');
    CHECK(nl != NULL);
    if (nl) CHECK(strncmp(a + 6, nl + 7, (size_t)(nl - a - 6)) == 0);
    /* every value in [0, 1) */
    int in_range = 1, count = 0;
    for (char *p = strchr(a, '[') ? strchr(a, '[') + 1 : NULL; p && *p && *p != ']';) {
        double v = strtod(p, &p);
        count++;
        if (!(v >= 0 && v < 1)) in_range = 0;
        while (*p == ',' || *p == ' ') p++;
    }
    CHECK_INT(8, count);
    CHECK(in_range);
    CHECK_INT(0, run("run %s/k.py copy --interpret 'src=fp32:randn(64)' 'dst=fp32:zeros(64)' "
                     "n=64 BLOCK=64", dir));
}

/* An independent .npy reader, from numpy's format documentation (NEP 1): magic, version,
 * little-endian header length, the header text, padding to 64 bytes, then the data. */
typedef struct Npy { char header[512]; size_t data_off; unsigned char bytes[4096]; size_t n; } Npy;

static int read_npy(const char *path, Npy *r) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    r->n = fread(r->bytes, 1, sizeof r->bytes, f);
    fclose(f);
    if (r->n < 10 || memcmp(r->bytes, "\x93NUMPY", 6) != 0) return 0;
    size_t hl = r->bytes[8] | (size_t)r->bytes[9] << 8;
    if (10 + hl > r->n || hl >= sizeof r->header) return 0;
    memcpy(r->header, r->bytes + 10, hl);
    r->header[hl] = 0;
    r->data_off = 10 + hl;
    return 1;
}

TEST(cli_save_npy) {
    setup();
    char p[700];
    snprintf(p, sizeof p, "%s/out.npy", dir);
    remove(p);
    CHECK_INT(0, run("run %s/k.py add --interpret x=fp32[1,2,3,4] y=fp32[10,20,30,40] "
                     "'out=fp32:zeros(4)' n=4 BLOCK=4 --save out=%s", dir, p));
    Npy r;
    CHECK(read_npy(p, &r));
    CHECK_INT(1, r.bytes[6]);  /* version 1.0 */
    CHECK_INT(0, r.bytes[7]);
    CHECK_INT(0, (int)(r.data_off % 64));
    CHECK_CONTAINS(r.header, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }");
    CHECK(r.header[0] == '{');
    CHECK(r.header[strlen(r.header) - 1] == '\n');
    CHECK_INT((long long)r.data_off + 16, (long long)r.n);
    float v[4];
    memcpy(v, r.bytes + r.data_off, 16);
    CHECK(v[0] == 11.0f && v[1] == 22.0f && v[2] == 33.0f && v[3] == 44.0f);

    /* 2-D, int16 */
    snprintf(p, sizeof p, "%s/m.npy", dir);
    CHECK_INT(0, run("run %s/k.py copy --interpret 'src=i16[[1,-2,3],[4,5,-6]]' 'dst=i16:zeros(2,3)' "
                     "n=6 BLOCK=8 --save dst=%s", dir, p));
    CHECK(read_npy(p, &r));
    CHECK_CONTAINS(r.header, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }");
    int16_t m[6];
    memcpy(m, r.bytes + r.data_off, 12);
    CHECK(m[0] == 1 && m[1] == -2 && m[5] == -6);

    /* bool and bf16 descrs */
    snprintf(p, sizeof p, "%s/b.npy", dir);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=i1[1,0] 'dst=i1:zeros(2)' n=2 BLOCK=2 "
                     "--save dst=%s", dir, p));
    CHECK(read_npy(p, &r));
    CHECK_CONTAINS(r.header, "'descr': '|b1'");
    snprintf(p, sizeof p, "%s/h.npy", dir);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=bf16[1,2] 'dst=bf16:zeros(2)' n=2 BLOCK=2 "
                     "--save dst=%s", dir, p));
    CHECK(read_npy(p, &r));
    CHECK_CONTAINS(r.header, "'descr': '<u2'");
    uint16_t h[2];
    memcpy(h, r.bytes + r.data_off, 4);
    CHECK_INT(0x3f80, h[0]);  /* bf16 1.0: the top half of float 1.0 (0x3f800000) */
    CHECK_INT(0x4000, h[1]);
}

/* A hand-made .npy file (version 1.0 and 2.0) feeds a kernel through @PATH. */
static void make_npy(const char *path, int version, const char *descr, const char *shape,
                     const void *data, size_t n) {
    char hdr[256];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                      descr, shape);
    size_t pre = version == 1 ? 10 : 12;
    size_t total = pre + (size_t)hl + 1;
    size_t pad = (64 - total % 64) % 64;
    size_t hlen = (size_t)hl + pad + 1;
    unsigned char buf[2048];
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)version;
    buf[7] = 0;
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    if (version != 1) { buf[10] = 0; buf[11] = 0; }
    memcpy(buf + pre, hdr, (size_t)hl);
    memset(buf + pre + hl, ' ', pad);
    buf[pre + hlen - 1] = '\n';
    memcpy(buf + pre + hlen, data, n);
    write_file(path, buf, pre + hlen + n);
}

TEST(cli_load_npy) {
    setup();
    char p[700], q[700];
    snprintf(p, sizeof p, "%s/in1.npy", dir);
    int32_t a[3] = {5, -6, 7};
    make_npy(p, 1, "<i4", "(3,)", a, sizeof a);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=@%s 'dst=i32:zeros(3)' n=3 BLOCK=4 --print dst",
                     dir, p));
    CHECK_STR("dst = [5, -6, 7]\n", out);
    snprintf(p, sizeof p, "%s/in2.npy", dir);
    double d[2] = {0.5, -1.25};
    make_npy(p, 2, "<f8", "(2,)", d, sizeof d);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=@%s 'dst=fp64:zeros(2)' n=2 BLOCK=2 --print dst",
                     dir, p));
    CHECK_STR("dst = [0.5, -1.25]\n", out);
    /* round trip: --save, then @ the saved file */
    snprintf(q, sizeof q, "%s/rt.npy", dir);
    CHECK_INT(0, run("run %s/k.py copy --interpret src=@%s 'dst=fp64:zeros(2)' n=2 BLOCK=2 --save dst=%s",
                     dir, p, q));
    CHECK_INT(0, run("run %s/k.py copy --interpret src=@%s 'dst=fp64:zeros(2)' n=2 BLOCK=2 --print src",
                     dir, q));
    CHECK_STR("src = [0.5, -1.25]\n", out);

    /* malformed files: exit 1 with a message, never a crash */
    snprintf(p, sizeof p, "%s/bad1.npy", dir);
    write_file(p, "hello world", 11);
    CHECK_INT(1, run("run %s/k.py copy --interpret src=@%s 'dst=i32:zeros(3)' n=3 BLOCK=4", dir, p));
    CHECK_CONTAINS(out, "not a .npy file");
    snprintf(p, sizeof p, "%s/bad2.npy", dir);
    make_npy(p, 1, ">i4", "(3,)", a, sizeof a);
    CHECK_INT(1, run("run %s/k.py copy --interpret src=@%s 'dst=i32:zeros(3)' n=3 BLOCK=4", dir, p));
    CHECK_CONTAINS(out, "big-endian");
    snprintf(p, sizeof p, "%s/bad3.npy", dir);
    make_npy(p, 1, "<i4", "(300,)", a, sizeof a);
    CHECK_INT(1, run("run %s/k.py copy --interpret src=@%s 'dst=i32:zeros(3)' n=3 BLOCK=4", dir, p));
    CHECK_CONTAINS(out, "truncated");
    snprintf(p, sizeof p, "%s/bad4.npy", dir);
    make_npy(p, 1, "<c8", "(1,)", a, 8);
    CHECK_INT(1, run("run %s/k.py copy --interpret src=@%s 'dst=i32:zeros(3)' n=3 BLOCK=4", dir, p));
    CHECK_CONTAINS(out, "unsupported .npy dtype");
    snprintf(p, sizeof p, "%s/bad5.npy", dir);
    write_file(p, "\x93NUMPY\x01\x00\xff\x00{'descr'", 18);
    CHECK_INT(1, run("run %s/k.py copy --interpret src=@%s 'dst=i32:zeros(3)' n=3 BLOCK=4", dir, p));
    CHECK_CONTAINS(out, "truncated");
    snprintf(p, sizeof p, "%s/bad6.npy", dir);
    make_npy(p, 1, "<i4", "(3,", a, sizeof a);
    CHECK_INT(1, run("run %s/k.py copy --interpret src=@%s 'dst=i32:zeros(3)' n=3 BLOCK=4", dir, p));
    CHECK_CONTAINS(out, "malformed");
}

TEST(cli_errors) {
    setup();
    char p[700];
    /* a syntax error: exit 1, file:line:col on stderr */
    snprintf(p, sizeof p, "%s/bad.py", dir);
    const char *bad = "import triton\n\n@triton.jit\ndef k(x):\n    y = (x +\n";
    write_file(p, bad, strlen(bad));
    CHECK_INT(1, run("run %s k --interpret x=1", p));
    char loc[800];
    snprintf(loc, sizeof loc, "%s:", p);
    CHECK_CONTAINS(out, loc);
    CHECK_CONTAINS(out, "error:");
    /* a break statement: Triton's rejection, with its line */
    snprintf(p, sizeof p, "%s/brk.py", dir);
    const char *brk = "import triton\n\n@triton.jit\ndef k(x):\n    for i in range(4):\n        break\n";
    write_file(p, brk, strlen(brk));
    CHECK_INT(1, run("run %s k --interpret x=1", p));
    snprintf(loc, sizeof loc, "%s:6:", p);
    CHECK_CONTAINS(out, loc);
    /* out of bounds: program 1 of 2; exit 1, naming the line and the program */
    CHECK_INT(1, run("run %s/k.py oob --interpret --grid 2 'x=fp32:zeros(4)' BLOCK=4", dir));
    snprintf(loc, sizeof loc, "%s/k.py:19:", dir);
    CHECK_CONTAINS(out, loc);
    CHECK_CONTAINS(out, "program");
    CHECK_CONTAINS(out, "1");
    CHECK_INT(0, run("run %s/k.py oob --interpret --grid 1 'x=fp32:zeros(4)' BLOCK=4 --print x", dir));
    CHECK_STR("x = [1.0, 1.0, 1.0, 1.0]\n", out);
    /* a factory that does not exist: a usage error that lists the ones that do */
    CHECK_INT(2, run("run %s/k.py oob --interpret 'x=fp32:full(4)' BLOCK=4", dir));
    CHECK_CONTAINS(out, "unknown function 'full' (zeros, ones, empty, rand, randn, arange)");
    /* no driver and no --interpret: exit 3 with Triton's words */
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1 "
             "%s run %s/k.py oob 'x=fp32:zeros(4)' BLOCK=4", tc, dir);
    CHECK_INT(3, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "0 active drivers ([]). There should only be one.");
}

/* --grid expressions that leave int64 are usage errors, never a wrapped grid. */
TEST(cli_grid_overflow) {
    setup();
    const char *bad[] = {"9223372036854775807*2", "4611686018427387904*4", "99999999999999999999",
                         "-(-9223372036854775807-1)", "9223372036854775807+1",
                         "-9223372036854775807-2", "next_power_of_2(4611686018427387905)",
                         "cdiv(n, 0)", "(-9223372036854775807-1)//-1"};
    for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        int r = run("run %s/k.py copy --interpret --grid '%s' 'src=fp32[1,2]' 'dst=fp32:zeros(2)' "
                    "n=2 BLOCK=2", dir, bad[i]);
        if (r != 2) fprintf(stderr, "  --grid %s: exit %d\n%s", bad[i], r, out);
        CHECK_INT(2, r);
    }
    CHECK_CONTAINS(out, "--grid");
    CHECK_INT(2, run("run %s/k.py copy --interpret --grid '4611686018427387904*4' 'src=fp32[1,2]' "
                     "'dst=fp32:zeros(2)' n=2 BLOCK=2", dir));
    CHECK_CONTAINS(out, "beyond 64 bits");   /* the tracer's own words: one evaluator */
    CHECK_INT(0, run("run %s/k.py copy --interpret --grid 'cdiv(n, BLOCK) - 1 + 1' 'src=fp32[1,2,3]' "
                     "'dst=fp32:zeros(3)' n=3 BLOCK=2 --print dst", dir));
    CHECK_STR("dst = [1.0, 2.0, 3.0]\n", out);
}

/* Integers beyond int64 are u64 up to 2**64-1, as in Triton; beyond that an error. */
TEST(cli_u64_scalars) {
    setup();
    char p[700];
    snprintf(p, sizeof p, "%s/u.py", dir);
    const char *src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                      "def k(out_ptr, n):\n    tl.store(out_ptr, n)\n";
    write_file(p, src, strlen(src));
    CHECK_INT(0, run("run %s k --interpret 'out_ptr=u64:zeros(1)' n=9223372036854775813 "
                     "--print out_ptr --verbose", p));
    CHECK_CONTAINS(out, "k(*u64:16, u64)");
    CHECK_CONTAINS(out, "out_ptr = [9223372036854775813]");
    CHECK_INT(0, run("run %s k --interpret 'out_ptr=u64:zeros(1)' n=0xffff_ffff_ffff_ffff "
                     "--print out_ptr --print n", p));
    CHECK_CONTAINS(out, "out_ptr = [18446744073709551615]");
    CHECK_CONTAINS(out, "n = 18446744073709551615");
    CHECK_INT(2, run("run %s k --interpret 'out_ptr=u64:zeros(1)' n=18446744073709551616", p));
    CHECK_CONTAINS(out, "integers range from -2**63 to 2**64-1");
    CHECK_INT(2, run("run %s k --interpret 'out_ptr=i64:zeros(1)' n=-9223372036854775809", p));
    CHECK_INT(0, run("run %s k --interpret 'out_ptr=i64:zeros(1)' n=-9223372036854775808 "
                     "--print out_ptr --verbose", p));
    CHECK_CONTAINS(out, "k(*i64:16, i64:16)");
    CHECK_CONTAINS(out, "out_ptr = [-9223372036854775808]");
}

TEST(cli_stats_verbose) {
    setup();
    CHECK_INT(0, run("run %s/k.py add --interpret x=fp32[1,2] y=fp32[3,4] 'out=fp32:zeros(2)' n=2 "
                     "BLOCK=2 --stats", dir));
    CHECK_STR("specializations: 1, hits: 0, launches: 1\n", out);
    CHECK_INT(0, run("run %s/k.py add --interpret x=fp32[1,2] y=fp32[3,4] 'out=fp32:zeros(2)' n=2 "
                     "BLOCK=2 --verbose --num-warps 2 --num-stages 5", dir));
    CHECK_CONTAINS(out, "the interpreter does not model num_warps/num_stages");
    CHECK_CONTAINS(out, "num_warps=2");
    CHECK_CONTAINS(out, "num_stages=5");
    CHECK_CONTAINS(out, "*fp32:16, *fp32:16, *fp32:16, i32, BLOCK=2");
}

TEST(cli_compile) {
    setup();
    char p[700];
    snprintf(p, sizeof p, "%s/add.ptx", dir);
    remove(p);
    CHECK_INT(0, run("compile examples/chapter10.py add_kernel --target cuda:80 -o %s "
                     "x_ptr=*fp32:16 y_ptr=*fp32:16 out_ptr=*fp32:16 n=i32 BLOCK=1024", p));
    FILE *f = fopen(p, "rb");
    CHECK(f != NULL);
    if (f) {
        size_t n = fread(out, 1, sizeof out - 1, f);
        out[n] = 0;
        fclose(f);
        CHECK_CONTAINS(out, ".target sm_80");
        CHECK_CONTAINS(out, ".entry");
    }
    CHECK_INT(2, run("compile examples/chapter10.py add_kernel x_ptr=*fp32"));
    CHECK_CONTAINS(out, "--target");
    CHECK_INT(2, run("compile examples/chapter10.py add_kernel --target cuda:80 x_ptr=*fp32"));
    CHECK_CONTAINS(out, "needs a type");
    CHECK_INT(2, run("compile examples/chapter10.py add_kernel --target cuda:80 x_ptr=*fp99 "
                     "y_ptr=*fp32 out_ptr=*fp32 n=i32 BLOCK=4"));
}

/* The chapter's standalone program, exactly (no GPU, TRITON_INTERPRET=1). */
TEST(cli_example_04) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "TRITON_INTERPRET=1 TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1 "
             "%s/examples/04_standalone_complete", test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_STR("=== Section 10.1: hardware queries without a GPU ===\n"
              "hardware query -> RuntimeError: 0 active drivers ([]). There should only be one.\n"
              "\n"
              "=== Section 10.2: num_warps / num_stages ===\n"
              "num_warps=1 -> [11.0, 22.0, 33.0, 44.0]\n"
              "num_warps=4 -> [11.0, 22.0, 33.0, 44.0]\n"
              "num_warps=8 -> [11.0, 22.0, 33.0, 44.0]\n"
              "\n"
              "=== Section 10.3: constexpr hardware branching ===\n"
              "compute_capability=90 -> [2.0, 4.0, 6.0, 8.0]\n"
              "compute_capability=80 -> [2.0, 4.0, 6.0, 8.0]\n",
              out);
    snprintf(cmd, sizeof cmd, "TRITON_INTERPRET=1 TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1 "
             "%s/examples/02_warps_and_stages", test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "num_stages=3 accepted -> [11.0, 22.0, 33.0, 44.0]");
    CHECK_CONTAINS(out, "does not model num_warps/num_stages");
    CHECK_CONTAINS(out, "1 specialization compiled, 3 cache hits");
    snprintf(cmd, sizeof cmd, "TRITON_INTERPRET=1 TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1 "
             "%s/examples/03_constexpr_hw_branch", test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "compute_capability=90 (fast path)   -> [2.0, 4.0, 6.0, 8.0]");
    CHECK_CONTAINS(out, "2 specializations compiled");
    CHECK_CONTAINS(out, "USE_FAST_PATH=True");
    CHECK_CONTAINS(out, "USE_FAST_PATH=False");
    snprintf(cmd, sizeof cmd, "TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1 "
             "%s/examples/01_hardware_queries", test_build_dir());
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "RuntimeError: 0 active drivers ([]). There should only be one.");
    CHECK_CONTAINS(out, "device available: False");
}

/* On a machine with a GPU (an active driver), the same runs go through PTX on the device;
 * elsewhere the command refuses with exit 3 and this test checks only that. */
TEST(cli_gpu_when_present) {
    setup();
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET TRITONC_CACHE_DIR=%s/cache %s run examples/chapter10.py add_kernel "
             "x_ptr=fp32[1,2,3,4] y_ptr=fp32[10,20,30,40] 'out_ptr=fp32:zeros(4)' n=4 BLOCK=4 "
             "--print out_ptr", dir, tc);
    int rc = test_run(cmd, out, sizeof out);
    if (rc == 3) {
        CHECK_CONTAINS(out, "active drivers");
        return;
    }
    CHECK_INT(0, rc);
    CHECK_STR("out_ptr = [11.0, 22.0, 33.0, 44.0]\n", out);
    /* 1000 elements, 4 programs of 256, three num_warps values: out[i] = i + i */
    static const int nws[3] = {1, 4, 8};
    for (int w = 0; w < 3; w++) {
        snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET TRITONC_CACHE_DIR=%s/cache %s run %s/k.py add --grid 4 --num-warps %d "
                 "'x=fp32:arange(1000)' 'y=fp32:arange(1000)' 'out=fp32:zeros(1000)' n=1000 BLOCK=256 "
                 "--print out", dir, tc, dir, nws[w]);
        CHECK_INT(0, test_run(cmd, out, sizeof out));
        char ref[16384];
        int r = snprintf(ref, sizeof ref, "out = [");
        for (int i = 0; i < 1000; i++) r += snprintf(ref + r, sizeof ref - (size_t)r, "%s%d.0", i ? ", " : "", 2 * i);
        snprintf(ref + r, sizeof ref - (size_t)r, "]\n");
        CHECK_STR(ref, out);
    }
    /* the GPU's report: no interpreter note, and the options shown */
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET TRITONC_CACHE_DIR=%s/cache %s run %s/k.py add --num-warps 2 "
             "x=fp32[1,2] y=fp32[3,4] 'out=fp32:zeros(2)' n=2 BLOCK=2 --verbose --stats", dir, tc, dir);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "GPU (cuda)");
    CHECK(strstr(out, "does not model") == NULL);
    CHECK_CONTAINS(out, "specializations: 1, hits: 0, launches: 1");
    /* the same specialization in a new process comes from the disk cache */
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "disk cache: cache hit");
    /* out of bounds on the GPU is not checked by tritonc: the interpreter is the checker */
}

/* The GPU path with the fake libcuda (tests/fake_libcuda.c, H200-like): device tensors,
 * a PTX specialization loaded through the driver, then a launch the fake refuses. */
TEST(cli_fake_driver) {
    setup();
    char fake[600], cmd[2048];
    snprintf(fake, sizeof fake, "%s/fake/libcuda.so.1", test_build_dir());
    FILE *f = fopen(fake, "rb");
    if (!f) { fprintf(stderr, "SKIP %s: %s is missing (make test builds it)\n", test_current, fake); return; }
    fclose(f);
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u FAKE_CUDA_MODE -u TRITON_OVERRIDE_ARCH "
             "TRITONC_CACHE_DIR=%s/cache TRITONC_LIBCUDA_PATH=%s %s run examples/chapter10.py add_kernel x_ptr='fp32[1,2,3,4]' "
             "y_ptr='fp32[10,20,30,40]' 'out_ptr=fp32:zeros(4)' n=4 BLOCK=4 --print out_ptr", dir, fake, tc);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "cuLaunchKernel failed");
    CHECK(strstr(out, "out_ptr =") == NULL);
    /* the PTX was stored in the disk cache on the way */
    char ls[800];
    snprintf(ls, sizeof ls, "ls %s/cache | grep -c '[.]tcc$'", dir);
    test_run(ls, out, sizeof out);
    CHECK(atoi(out) >= 1);
    /* 64 warps = 2048 threads: beyond the device's 1024 per block */
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u FAKE_CUDA_MODE -u TRITON_OVERRIDE_ARCH "
             "TRITONC_CACHE_DIR=%s/cache TRITONC_LIBCUDA_PATH=%s %s run examples/chapter10.py add_kernel x_ptr='fp32[1]' "
             "y_ptr='fp32[1]' 'out_ptr=fp32:zeros(1)' n=4 BLOCK=4 --num-warps 64", dir, fake, tc);
    CHECK_INT(1, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "out of resource: threads, Required: 2048, Hardware limit: 1024");
    /* with --interpret the driver is not used at all */
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET TRITONC_LIBCUDA_PATH=%s %s run "
             "examples/chapter10.py add_kernel --interpret x_ptr='fp32[1,2]' y_ptr='fp32[3,4]' "
             "'out_ptr=fp32:zeros(2)' n=2 BLOCK=2 --print out_ptr", fake, tc);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_STR("out_ptr = [4.0, 6.0]\n", out);
    /* DTYPE:fn(...) on a device: made in a host buffer and copied (no memory to fill in
     * place); a launch the fake accepts executes nothing, so the values come back as made */
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u FAKE_CUDA_MODE -u TRITON_OVERRIDE_ARCH "
             "FAKE_CUDA_LAUNCH=ok TRITONC_CACHE_DIR=%s/cache TRITONC_LIBCUDA_PATH=%s %s run "
             "examples/chapter10.py add_kernel 'x_ptr=fp32:arange(4)' 'y_ptr=fp32:ones(4)' "
             "'out_ptr=fp32:empty(4)' n=4 BLOCK=4 --print x_ptr --print y_ptr --print out_ptr",
             dir, fake, tc);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_STR("x_ptr = [0.0, 1.0, 2.0, 3.0]\ny_ptr = [1.0, 1.0, 1.0, 1.0]\n"
              "out_ptr = [0.0, 0.0, 0.0, 0.0]\n", out);
    /* rand/randn: the same values for the same seed as the interpreter's in-place fill */
    static char dev_out[4096];
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET -u FAKE_CUDA_MODE -u TRITON_OVERRIDE_ARCH "
             "FAKE_CUDA_LAUNCH=ok TRITONC_CACHE_DIR=%s/cache TRITONC_LIBCUDA_PATH=%s %s run "
             "examples/chapter10.py add_kernel --seed 5 'x_ptr=fp32:rand(6)' 'y_ptr=fp16:randn(6)' "
             "'out_ptr=i32:rand(6)' n=0 BLOCK=8 --print x_ptr --print y_ptr --print out_ptr",
             dir, fake, tc);
    CHECK_INT(0, test_run(cmd, dev_out, sizeof dev_out));
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET %s run --interpret "
             "examples/chapter10.py add_kernel --seed 5 'x_ptr=fp32:rand(6)' 'y_ptr=fp16:randn(6)' "
             "'out_ptr=i32:rand(6)' n=0 BLOCK=8 --print x_ptr --print y_ptr --print out_ptr", tc);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_STR(out, dev_out);
    CHECK_CONTAINS(dev_out, "x_ptr = [0.");
}
