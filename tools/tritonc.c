/* tritonc.c — the command line: `tritonc run`, `tritonc compile`, and the dispatch to the
 * other subcommands (info.c). It uses only the public API, tritonc.h.
 *
 * Exit statuses: 0 success, 1 compile or run error, 2 usage error, 3 no active driver,
 * 4 `tritonc check` found problems. */
#include "cli.h"
#include "npy.h"
#include "tritonc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *usage_main =
    "usage: tritonc <command> [options]\n"
    "\n"
    "Runs Triton kernels (Triton's Python syntax) on a CPU interpreter or compiles them to\n"
    "PTX for the GPU the CUDA driver reports.\n"
    "\n"
    "commands:\n"
    "  run FILE KERNEL ...      run a kernel (tritonc run --help)\n"
    "  check FILE KERNEL ...    run a kernel on the interpreter looking for what real hardware\n"
    "                           would break: races, missing barriers, reads of never-written\n"
    "                           memory, NaN/Inf from finite inputs, order dependence\n"
    "                           (tritonc check --help)\n"
    "  compile FILE KERNEL ...  compile a kernel to PTX ahead of time (tritonc compile --help)\n"
    "  info                     the active driver, target and device properties\n"
    "  cache ls|clear|dir       the disk cache of compiled kernels (tritonc cache --help)\n"
    "  bench FILE KERNEL ...    time a kernel as triton.testing.do_bench, sweeping num_warps and\n"
    "                           num_stages (tritonc bench --help)\n"
    "  tune FILE KERNEL ...     run a kernel's @triton.autotune tuning, persist and export it\n"
    "                           (tritonc tune --help)\n"
    "\n"
    "options:\n"
    "  --help      this text\n"
    "  --version   the version\n"
    "\n"
    "exit status: 0 success, 1 compile or run error, 2 usage error, 3 no active driver,\n"
    "4 `check` found problems\n";

static const char *usage_run =
    "usage: tritonc run FILE KERNEL [options] NAME=VALUE...\n"
    "\n"
    "Runs KERNEL from the Triton file FILE once, with the arguments given as NAME=VALUE.\n"
    "Without an active GPU driver set TRITON_INTERPRET=1 or pass --interpret.\n"
    "`tritonc run FILE` with no KERNEL lists FILE's kernels and their parameters.\n"
    "\n"
    "options:\n"
    "  --grid X[,Y[,Z]]     the launch grid (default 1, i.e. (1, 1, 1)); a 0 launches nothing;\n"
    "                       each may be Python over the arguments and constexprs,\n"
    "                       autotuned configs' included, as the body of Triton's lambda META:\n"
    "                       'cdiv(n, BLOCK)', '(cdiv(M, BM) * cdiv(N, BN), 1)' (tc_grid_eval)\n"
    "  --num-warps N        warps per program, a power of two (default 4)\n"
    "  --num-stages N       software-pipelining depth, >= 1 (default 3)\n"
    "  --interpret          run on the CPU interpreter (as TRITON_INTERPRET=1)\n"
    "  --device N           run on GPU N of this host (default 0; compiled once per\n"
    "                       architecture, loaded per device; the interpreter ignores it)\n"
    "  --parallel[=N]       interpreter: run the programs on N threads (default: one per CPU);\n"
    "                       atomics are real atomics, device_print lines stay whole; the order\n"
    "                       of programs is not defined\n"
    "  --shuffle SEED       interpreter: run the programs in an order shuffled by SEED (not 0)\n"
    "  --timeout SECONDS    stop the run after SECONDS (exit 1): the interpreter stops where\n"
    "                       it is, naming the program and the loop; on a GPU tritonc stops\n"
    "                       waiting for the kernel (tc_launch_opts.timeout_s)\n"
    "  --seed S             seed for rand/randn (default 0)\n"
    "  --print NAME         after the run, print argument NAME as Python prints a list:\n"
    "                       out = [11.0, 22.0, 33.0, 44.0]   (repeatable)\n"
    "  --save NAME=PATH     after the run, save tensor NAME as a numpy .npy file (format 1.0,\n"
    "                       little-endian, C order; bf16 has no numpy dtype and is saved as\n"
    "                       '<u2', its raw bits, the fp8 types as '<u1')   (repeatable);\n"
    "                       PATH is checked before the run (its directory must exist and\n"
    "                       be writable)\n"
    "  --tuning-db FILE     autotuned kernels: use the configs recorded in FILE (tritonc tune\n"
    "                       --export), also under the interpreter\n"
    "  --stats              print the specializations compiled and the cache hits\n"
    "  --verbose            print the launch report (backend, specialization, options, times;\n"
    "                       on the GPU whether tensor descriptors moved through TMA)\n"
    "  --json               print one JSON object on stdout instead of text: command, file,\n"
    "                       kernel, launch (backend, specialization, grid, num_warps,\n"
    "                       num_stages, threads, compiled, disk_cache, compile_ms, run_ms,\n"
    "                       note, dot: how tl.dot ran on the GPU, shared_bytes), stats, arguments (tensors: dtype, shape, numel, min, max,\n"
    "                       mean over the finite elements, nan, inf counts; values of those\n"
    "                       named by --print), output (device_print text); for check also\n"
    "                       check: findings, notes, seed and records (kind, note, where and\n"
    "                       other {file, line, col}, program, other_program, lane, address,\n"
    "                       tensor, element, count, message). NaN/Inf numbers are null;\n"
    "                       a launch that fails prints command, file, kernel, error (status,\n"
    "                       exit, message, where) and for check the records so far; other\n"
    "                       errors leave stdout empty (the message is on stderr)\n"
    "  --config N|K=V,...   autotuned kernels: run config N (0-based, as the file lists them,\n"
    "                       before pruning) or the one config with these values\n"
    "                       ('BLOCK_SIZE_M=64,num_warps=4'); no benchmarking. Under the\n"
    "                       interpreter, without it or --tuning-db, the first config that\n"
    "                       survives pruning runs (--verbose says so)\n"
    "  --tensor NAME=VALUE  an auxiliary tensor (any tensor VALUE form), not a parameter: what\n"
    "                       ptrs(...) refers to; --print and --save take its NAME (repeatable)\n"
    "  --target cuda:90     the GPU host code's hardware queries assume when none answers\n"
    "                       (as TRITONC_TARGET; on a GPU it must be the device's own)\n"
    "  --help               this text\n"
    "\n"
    "VALUE forms:\n"
    "  4  -3  0x10  0.5  1e-3  true  false  None      a scalar (ints as Triton specializes\n"
    "                                                  them: i32 if it fits, else i64)\n"
    "  for constexpr parameters: numbers, true/false/None; any other text is a string\n"
    "                                                  (KIND=relu)\n"
    "  DTYPE[v0,v1,...]        a tensor literal, nested for more dimensions: fp32[[1,2],[3,4]]\n"
    "  DTYPE:zeros(d0[,d1...]) zero-filled\n"
    "  DTYPE:empty(d0[,...])   never written (zero bytes; marked uninitialized for checks)\n"
    "  DTYPE:rand(d0[,...])    uniform in [0, 1) (integer dtypes: integers in [0, 100))\n"
    "  DTYPE:randn(d0[,...])   standard normal (Box-Muller; integer dtypes: round(10*x))\n"
    "  DTYPE:arange(n)         0, 1, ..., n-1\n"
    "  @PATH.npy               a numpy file (its dtype and shape)\n"
    "  ptrs(A,B,...)           an i64 table of the addresses of --tensor A, B, ... (Triton's\n"
    "                          grouped GEMM: group_a_ptrs); the interpreter checks accesses\n"
    "                          through them against those tensors\n"
    "DTYPE: i1 i8 i16 i32 i64 u8 u16 u32 u64 fp16 bf16 fp32 fp64\n"
    "       fp8e5 fp8e4nv fp8e4b15 (8-bit floats; literals rounded as .to() rounds fp32)\n"
    "rand/randn draw from splitmix64 seeded with --seed: x = next() >> 11, u = x * 2^-53.\n"
    "\n"
    "exit status: 0 success, 1 compile or run error (message with file:line:col on stderr),\n"
    "2 usage error, 3 no active driver\n";

static const char *usage_check =
    "usage: tritonc check FILE KERNEL [options] NAME=VALUE...\n"
    "\n"
    "Runs KERNEL once on the CPU interpreter, as `tritonc run` does (same options and\n"
    "arguments), recording every access to every tensor element: which program and which\n"
    "source line wrote it last, and which read it. Reports, each once per pair of source\n"
    "locations with a count and an example (programs, element, address):\n"
    "  race                 two programs write the same element, or one reads what another\n"
    "                       writes (atomics on both sides never count); their order is\n"
    "                       undefined on a GPU; or two lanes of one store write different\n"
    "                       values to one element\n"
    "  hazard               a load reads what an earlier store of the same program wrote, with\n"
    "                       no tl.debug_barrier() between, in another lane (the same lane of a\n"
    "                       same-shaped tile is only a note)\n"
    "  uninitialized read   a load of memory never written (DTYPE:empty(...) arguments)\n"
    "  non-finite           a store of NaN/Inf when the program loaded only finite values,\n"
    "                       with the instruction that produced it\n"
    "  order dependence     the results differ when the programs run in a shuffled order\n"
    "                       (seed: --shuffle SEED, default 24301 = 0x5eed; reported) or, with\n"
    "                       --parallel[=N], on N threads\n"
    "Notes (not problems): integer division by zero (tritonc gives 0; unspecified on GPUs),\n"
    "float results that differ by rounding only with the order (as float atomics do).\n"
    "The report goes to standard output; the tensors keep the program-order results.\n"
    "--json prints one JSON object instead (as `tritonc run --json`, with \"check\": the\n"
    "findings as records: kind, file:line:col, programs, lane, tensor, element, address;\n"
    "a run stopped by an error, such as an out-of-bounds access, gives \"error\": status,\n"
    "exit, message and \"where\": file, line, col).\n"
    "--timeout SECONDS stops the check after SECONDS (exit 1), as for `run`.\n"
    "TRITONC_CHECK=1 turns the same checks on for every interpreter launch (tritonc run, the\n"
    "library).\n"
    "\n"
    "exit status: 0 nothing found, 4 problems found, 1 compile or run error, 2 usage error\n";

void cli_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tritonc: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tritonc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see tritonc %s%s--help)\n", cmd, *cmd ? " " : "");
    return EXIT_USAGE;
}

int cli_api_error(tc_context *ctx, tc_status s, int hint) {
    const char *m = tc_errmsg(ctx);
    if (s == TC_ERR_NO_DRIVER) {
        fprintf(stderr, "tritonc: error: %s\n", m);
        if (!hint || strstr(m, "TRITONC_TARGET")) return EXIT_NODRIVER;   /* host code's own hint */
        fprintf(stderr, "(no GPU driver: set TRITON_INTERPRET=1 or pass --interpret to run on "
                        "the CPU interpreter)\n");
        return EXIT_NODRIVER;
    }
    /* one prefix: "tritonc: error: ", or the kernel's "FILE:LINE:COL: error: " */
    if (strncmp(m, "error:", 6) == 0) fprintf(stderr, "tritonc: %s\n", m);
    else if (strstr(m, ": error: ")) fprintf(stderr, "%s\n", m);
    else fprintf(stderr, "tritonc: error: %s\n", m);
    return s == TC_ERR_ARG ? EXIT_USAGE : EXIT_ERR;
}

/* ---- numbers ------------------------------------------------------------------------ */

/* An integer literal (underscores, 0x/0b/0o): 0 when s is none, 1 in int64 (*out), 2 in
 * [2^63, 2^64) (*uout), 3 beyond (Triton refuses those). */
static int parse_intx(const char *s, int64_t *out, uint64_t *uout) {
    char buf[96];
    size_t j = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '_') continue;
        if (j + 1 >= sizeof buf) return 0;
        buf[j++] = *p;
    }
    buf[j] = 0;
    if (!j) return 0;
    const char *b = buf;
    int neg = 0;
    if (*b == '-' || *b == '+') { neg = *b == '-'; b++; }
    if (!*b || !(*b >= '0' && *b <= '9')) return 0;
    int base = 10;
    if (b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) { base = 16; b += 2; }
    else if (b[0] == '0' && (b[1] == 'b' || b[1] == 'B')) { base = 2; b += 2; }
    else if (b[0] == '0' && (b[1] == 'o' || b[1] == 'O')) { base = 8; b += 2; }
    if (!*b) return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(b, &end, base);
    if (*end || (errno && errno != ERANGE)) return 0;
    if (errno == ERANGE) return 3;
    if (neg) {
        if (v > (unsigned long long)INT64_MAX + 1) return 3;
        *out = (int64_t)(0 - v);
    } else if (v > INT64_MAX) {
        *uout = v;
        return 2;
    } else {
        *out = (int64_t)v;
    }
    return 1;
}

static int parse_int(const char *s, int64_t *out) {
    uint64_t u;
    return parse_intx(s, out, &u) == 1;
}

static int parse_float(const char *s, double *out) {
    if (!*s) return 0;
    const char *p = s;
    if (*p == '-' || *p == '+') p++;
    if (!(*p == '.' || (*p >= '0' && *p <= '9') || strncasecmp(p, "inf", 3) == 0 ||
          strncasecmp(p, "nan", 3) == 0))
        return 0;
    char *end;
    double v = strtod(s, &end);
    if (*end) return 0;
    *out = v;
    return 1;
}

/* ---- element conversion ------------------------------------------------------------- */

static uint16_t f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000;
    int32_t exp = (int32_t)((x >> 23) & 0xff);
    uint32_t man = x & 0x7fffff;
    if (exp == 0xff) return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
    int32_t e = exp - 127 + 15;
    if (e >= 0x1f) return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        man |= 0x800000;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

static float f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    uint32_t x;
    if (exp == 0) {
        if (!man) x = sign;
        else {
            int e = -1;
            do { man <<= 1; e++; } while (!(man & 0x400));
            x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ff) << 13);
        }
    } else if (exp == 0x1f) {
        x = sign | 0x7f800000 | (man << 13);
    } else {
        x = sign | ((exp + 127 - 15) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static uint16_t f32_to_bf16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffff) > 0x7f800000) return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fff + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

static float bf16_to_f32(uint16_t h) {
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static int dt_is_fp8(tc_dtype dt) { return dt == TC_FP8E5 || dt == TC_FP8E4NV || dt == TC_FP8E4B15; }
static int dt_is_float(tc_dtype dt) {
    return dt == TC_FP16 || dt == TC_BF16 || dt == TC_FP32 || dt == TC_FP64 || dt_is_fp8(dt);
}

/* Whether an element fits integer dtype dt (floats and i1 take anything): an integer iv
 * (is_u: iv holds u64 bits past INT64_MAX) or an integral double fv. */
static int int_fits(tc_dtype dt, int is_u, int is_int, int64_t iv, double fv) {
    if (dt_is_float(dt) || dt == TC_I1) return 1;
    if (is_u) return dt == TC_U64;
    if (!is_int) {   /* an integral double: within int64 first, then as an integer */
        if (dt == TC_U64) return fv >= 0 && fv < 0x1p64;
        if (!(fv >= -0x1p63 && fv < 0x1p63)) return 0;
        iv = (int64_t)fv;
    }
    switch (dt) {
    case TC_I8: return iv >= INT8_MIN && iv <= INT8_MAX;
    case TC_I16: return iv >= INT16_MIN && iv <= INT16_MAX;
    case TC_I32: return iv >= INT32_MIN && iv <= INT32_MAX;
    case TC_U8: return iv >= 0 && iv <= UINT8_MAX;
    case TC_U16: return iv >= 0 && iv <= UINT16_MAX;
    case TC_U32: return iv >= 0 && iv <= (int64_t)UINT32_MAX;
    case TC_U64: return iv >= 0;
    default: return 1;
    }
}

/* " (from MIN to MAX)" for an integer dtype's message. */
static const char *int_range_text(tc_dtype dt) {
    switch (dt) {
    case TC_I8: return " (-128 to 127)";
    case TC_I16: return " (-32768 to 32767)";
    case TC_I32: return " (-2147483648 to 2147483647)";
    case TC_I64: return " (-2**63 to 2**63-1)";
    case TC_U8: return " (0 to 255)";
    case TC_U16: return " (0 to 65535)";
    case TC_U32: return " (0 to 4294967295)";
    case TC_U64: return " (0 to 2**64-1)";
    default: return "";
    }
}

/* Stores element i: from an integer (is_int) or a double. */
static void put_elem(tc_dtype dt, void *base, int64_t i, int is_int, int64_t iv, double fv) {
    double d = is_int ? (double)iv : fv;
    /* float elements reach integer dtypes only when they fit (lit_list checks int_fits) */
    int64_t v = is_int ? iv : dt_is_float(dt) || dt == TC_I1 || dt == TC_U64 ? 0 : (int64_t)fv;
    switch (dt) {
    case TC_I1: ((uint8_t *)base)[i] = is_int ? iv != 0 : fv != 0; break;
    case TC_I8: ((int8_t *)base)[i] = (int8_t)v; break;
    case TC_U8: ((uint8_t *)base)[i] = (uint8_t)v; break;
    case TC_I16: ((int16_t *)base)[i] = (int16_t)v; break;
    case TC_U16: ((uint16_t *)base)[i] = (uint16_t)v; break;
    case TC_I32: ((int32_t *)base)[i] = (int32_t)v; break;
    case TC_U32: ((uint32_t *)base)[i] = (uint32_t)v; break;
    case TC_I64: ((int64_t *)base)[i] = v; break;
    case TC_U64: ((uint64_t *)base)[i] = is_int ? (uint64_t)v : (uint64_t)fv; break;
    case TC_FP16: ((uint16_t *)base)[i] = f32_to_f16((float)d); break;
    case TC_BF16: ((uint16_t *)base)[i] = f32_to_bf16((float)d); break;
    case TC_FP32: ((float *)base)[i] = (float)d; break;
    case TC_FP64: ((double *)base)[i] = d; break;
    case TC_FP8E5: case TC_FP8E4NV: case TC_FP8E4B15: /* as .to() rounds an fp32 */
        ((uint8_t *)base)[i] = (uint8_t)tc_fp8_encode(dt, (float)d);
        break;
    }
}

/* Appends element i as Python's repr of tensor.tolist() would show it. */
static void fmt_elem(tc_dtype dt, const void *base, int64_t i, FILE *out) {
    char buf[64];
    switch (dt) {
    case TC_I1: fputs(((const uint8_t *)base)[i] ? "True" : "False", out); return;
    case TC_I8: fprintf(out, "%d", ((const int8_t *)base)[i]); return;
    case TC_U8: fprintf(out, "%u", ((const uint8_t *)base)[i]); return;
    case TC_I16: fprintf(out, "%d", ((const int16_t *)base)[i]); return;
    case TC_U16: fprintf(out, "%u", ((const uint16_t *)base)[i]); return;
    case TC_I32: fprintf(out, "%d", ((const int32_t *)base)[i]); return;
    case TC_U32: fprintf(out, "%u", ((const uint32_t *)base)[i]); return;
    case TC_I64: fprintf(out, "%lld", (long long)((const int64_t *)base)[i]); return;
    case TC_U64: fprintf(out, "%llu", (unsigned long long)((const uint64_t *)base)[i]); return;
    case TC_FP16: tc_format_double(f16_to_f32(((const uint16_t *)base)[i]), buf, sizeof buf); break;
    case TC_BF16: tc_format_double(bf16_to_f32(((const uint16_t *)base)[i]), buf, sizeof buf); break;
    case TC_FP32: tc_format_double(((const float *)base)[i], buf, sizeof buf); break;
    case TC_FP64: tc_format_double(((const double *)base)[i], buf, sizeof buf); break;
    case TC_FP8E5: case TC_FP8E4NV: case TC_FP8E4B15:
        tc_format_double(tc_fp8_decode(dt, ((const uint8_t *)base)[i]), buf, sizeof buf);
        break;
    default: snprintf(buf, sizeof buf, "?");
    }
    fputs(buf, out);
}

static void fmt_nested(tc_dtype dt, const void *base, int rank, const int64_t *shape, int dim,
                       int64_t *idx, FILE *out) {
    if (dim == rank) { fmt_elem(dt, base, (*idx)++, out); return; }
    fputc('[', out);
    for (int64_t i = 0; i < shape[dim]; i++) {
        if (i) fputs(", ", out);
        fmt_nested(dt, base, rank, shape, dim + 1, idx, out);
    }
    fputc(']', out);
}

/* ---- the PRNG: splitmix64 ---------------------------------------------------------- */

static uint64_t rng_state;
static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline double u53(uint64_t x) { return (double)(x >> 11) * 0x1.0p-53; }
static uint64_t rng_next(void) { return splitmix64(&rng_state); }
static double rng_uniform(void) { return u53(rng_next()); }
/* Box-Muller gives two normals per pair of uniforms: the cosine one now, the sine one on
 * the next call (input generation dominated `run`'s start-up before). */
static int rng_spare_ok;
static double rng_spare;
static double rng_normal(void) {
    if (rng_spare_ok) { rng_spare_ok = 0; return rng_spare; }
    double u1 = rng_uniform(), u2 = rng_uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    double r = sqrt(-2.0 * log(u1)), t = 6.283185307179586 * u2;
    rng_spare = r * sin(t);
    rng_spare_ok = 1;
    return r * cos(t);
}

/* ---- argument values ---------------------------------------------------------------- */

typedef struct HostArr {
    tc_dtype dt;
    int rank;
    int64_t shape[TC_MAX_RANK];
    void *data;
    int64_t numel;
} HostArr;

/* A nested list literal: [1, 2, 3] or [[1, 2], [3, 4]]. Two passes: shape, then values. */
typedef struct LitP {
    const char *s;
    int rank;            /* -1 until the first leaf fixes it */
    int64_t shape[TC_MAX_RANK];
    tc_dtype dt;
    void *data;          /* NULL in the shape pass */
    int64_t n;
    char err[200];
} LitP;

static void lit_ws(LitP *p) { while (*p->s == ' ' || *p->s == '\t') p->s++; }

static int lit_list(LitP *p, int depth) {
    lit_ws(p);
    if (*p->s != '[') { snprintf(p->err, sizeof p->err, "expected '['"); return 0; }
    if (depth >= TC_MAX_RANK) { snprintf(p->err, sizeof p->err, "more than %d dimensions", TC_MAX_RANK); return 0; }
    p->s++;
    lit_ws(p);
    int64_t count = 0;
    if (*p->s == ']') {
        p->s++;
    } else {
        for (;;) {
            lit_ws(p);
            if (*p->s == '[') {
                if (!lit_list(p, depth + 1)) return 0;
            } else {
                if (p->rank >= 0 && p->rank != depth + 1) {
                    snprintf(p->err, sizeof p->err, "ragged list");
                    return 0;
                }
                p->rank = depth + 1;
                const char *st = p->s;
                while (*p->s && *p->s != ',' && *p->s != ']' && *p->s != ' ') p->s++;
                char tok[64];
                size_t len = (size_t)(p->s - st);
                if (!len || len >= sizeof tok) { snprintf(p->err, sizeof p->err, "bad element"); return 0; }
                memcpy(tok, st, len);
                tok[len] = 0;
                int64_t iv = 0;
                uint64_t uv = 0;
                double fv = 0;
                int ik = parse_intx(tok, &iv, &uv);
                int is_int = ik == 1;
                if (ik == 2 || ik == 3) {   /* past int64: only u64 holds it (as uint64) */
                    if (p->dt != TC_U64 || ik == 3) {
                        snprintf(p->err, sizeof p->err, "element %s is out of range for %s%s", tok,
                                 tc_dtype_name(p->dt), int_range_text(p->dt));
                        return 0;
                    }
                    is_int = 1;
                    iv = (int64_t)uv;
                } else if (!is_int) {
                    if (strcmp(tok, "true") == 0 || strcmp(tok, "True") == 0) { is_int = 1; iv = 1; }
                    else if (strcmp(tok, "false") == 0 || strcmp(tok, "False") == 0) { is_int = 1; iv = 0; }
                    else if (!parse_float(tok, &fv)) {
                        snprintf(p->err, sizeof p->err, "bad element '%s'", tok);
                        return 0;
                    }
                }
                /* numpy 2's rule for an integer dtype: a float element must be integral and
                 * every element must fit the dtype (u8 256 and -1 are refused, not wrapped) */
                if (!is_int && !dt_is_float(p->dt) && p->dt != TC_I1 && fv != floor(fv)) {
                    snprintf(p->err, sizeof p->err, "element %s is not an integer, and %s holds "
                             "integers only", tok, tc_dtype_name(p->dt));
                    return 0;
                }
                if (!int_fits(p->dt, ik == 2 || ik == 3, is_int, iv, fv)) {
                    snprintf(p->err, sizeof p->err, "element %s is out of range for %s%s", tok,
                             tc_dtype_name(p->dt), int_range_text(p->dt));
                    return 0;
                }
                if (p->data) put_elem(p->dt, p->data, p->n, is_int, iv, fv);
                p->n++;
            }
            count++;
            lit_ws(p);
            if (*p->s == ',') { p->s++; lit_ws(p); if (*p->s == ']') { p->s++; break; } continue; }
            if (*p->s == ']') { p->s++; break; }
            snprintf(p->err, sizeof p->err, "expected ',' or ']'");
            return 0;
        }
    }
    if (count == 0 && p->rank < 0) p->rank = depth + 1;
    if (p->rank <= depth && count > 0 && p->rank != depth + 1) {
        snprintf(p->err, sizeof p->err, "ragged list");
        return 0;
    }
    if (!p->data) {
        if (p->shape[depth] == -1) p->shape[depth] = count;
        else if (p->shape[depth] != count) { snprintf(p->err, sizeof p->err, "ragged list"); return 0; }
    }
    return 1;
}

static int parse_literal(const char *dtname, const char *body, HostArr *h, char *err, size_t errn) {
    LitP p;
    memset(&p, 0, sizeof p);
    p.s = body;
    p.rank = -1;
    for (int i = 0; i < TC_MAX_RANK; i++) p.shape[i] = -1;
    if (tc_dtype_from_name(dtname, &p.dt) != TC_OK) { snprintf(err, errn, "unknown dtype '%s'", dtname); return 0; }
    if (!lit_list(&p, 0)) { snprintf(err, errn, "bad tensor literal: %s", p.err); return 0; }
    lit_ws(&p);
    if (*p.s) { snprintf(err, errn, "bad tensor literal: text after the closing ']'"); return 0; }
    if (p.rank < 1) p.rank = 1;
    int64_t numel = 1;
    for (int i = 0; i < p.rank; i++) numel *= p.shape[i] < 0 ? 0 : p.shape[i];
    if (numel != p.n) { snprintf(err, errn, "bad tensor literal: ragged list"); return 0; }
    h->dt = p.dt;
    h->rank = p.rank;
    for (int i = 0; i < p.rank; i++) h->shape[i] = p.shape[i] < 0 ? 0 : p.shape[i];
    h->numel = numel;
    h->data = calloc(numel ? (size_t)numel : 1, tc_dtype_size(p.dt));
    if (!h->data) { snprintf(err, errn, "out of memory"); return 0; }
    LitP q = p;
    q.s = body;
    q.data = h->data;
    q.n = 0;
    q.rank = -1;
    if (!lit_list(&q, 0)) { snprintf(err, errn, "bad tensor literal: %s", q.err); return 0; }
    return 1;
}

/* The functions of DTYPE:fn(...), in the order of parse_factory's names. */
enum { FAC_ZEROS, FAC_EMPTY, FAC_RAND, FAC_RANDN, FAC_ARANGE, FAC_ONES };

/* DTYPE:fn(d0,d1,...): the dtype, shape and function (*kind); h->data stays NULL, the values
 * are made by fill_factory once the tensor exists. */
static int parse_factory(const char *s, HostArr *h, int *kind_out, char *err, size_t errn) {
    const char *colon = strchr(s, ':');
    char dtname[16];
    size_t dl = (size_t)(colon - s);
    if (dl == 0 || dl >= sizeof dtname) { snprintf(err, errn, "bad dtype in '%s'", s); return 0; }
    memcpy(dtname, s, dl);
    dtname[dl] = 0;
    if (tc_dtype_from_name(dtname, &h->dt) != TC_OK) { snprintf(err, errn, "unknown dtype '%s'", dtname); return 0; }
    const char *fn = colon + 1, *lp = strchr(fn, '(');
    if (!lp) { snprintf(err, errn, "expected DTYPE:fn(dims) in '%s'", s); return 0; }
    char fname[16];
    size_t fl = (size_t)(lp - fn);
    if (fl == 0 || fl >= sizeof fname) { snprintf(err, errn, "bad function in '%s'", s); return 0; }
    memcpy(fname, fn, fl);
    fname[fl] = 0;
    const char *rp = strchr(lp, ')');
    if (!rp || rp[1]) { snprintf(err, errn, "expected ')' at the end of '%s'", s); return 0; }
    h->rank = 0;
    const char *p = lp + 1;
    while (p < rp) {
        while (*p == ' ') p++;
        if (p == rp) break;
        char num[32];
        size_t n = strcspn(p, ",)");
        if (n == 0 || n >= sizeof num) { snprintf(err, errn, "bad dimension in '%s'", s); return 0; }
        memcpy(num, p, n);
        num[n] = 0;
        int64_t d;
        if (!parse_int(num, &d) || d < 0) { snprintf(err, errn, "bad dimension '%s' in '%s'", num, s); return 0; }
        if (h->rank >= TC_MAX_RANK) { snprintf(err, errn, "more than %d dimensions", TC_MAX_RANK); return 0; }
        h->shape[h->rank++] = d;
        p += n;
        if (*p == ',') p++;
    }
    if (h->rank == 0) { snprintf(err, errn, "'%s' needs at least one dimension", s); return 0; }
    int64_t numel = 1;
    for (int i = 0; i < h->rank; i++) {
        if (h->shape[i] && numel > ((int64_t)1 << 34) / h->shape[i]) {
            snprintf(err, errn, "'%s' is too large (limit 2^34 elements)", s);
            return 0;
        }
        numel *= h->shape[i];
    }
    h->numel = numel;
    int kind;
    if (strcmp(fname, "zeros") == 0) kind = FAC_ZEROS;
    else if (strcmp(fname, "empty") == 0) kind = FAC_EMPTY;
    else if (strcmp(fname, "rand") == 0) kind = FAC_RAND;
    else if (strcmp(fname, "randn") == 0) kind = FAC_RANDN;
    else if (strcmp(fname, "arange") == 0) kind = FAC_ARANGE;
    else if (strcmp(fname, "ones") == 0) kind = FAC_ONES;
    else { snprintf(err, errn, "unknown function '%s' (zeros, ones, empty, rand, randn, arange)", fname); return 0; }
    if (kind == FAC_ARANGE && h->rank != 1) { snprintf(err, errn, "arange takes one number: '%s'", s); return 0; }
    *kind_out = kind;
    return 1;
}

/* Writes the numel values of function `kind` to data (zeroed memory: zeros and empty leave
 * it as it is), drawing from the PRNG in element order. */
static void fill_factory(int kind, tc_dtype dt, void *data, int64_t numel) {
    if (kind == FAC_ZEROS || kind == FAC_EMPTY) return;
    int fl_dt = dt_is_float(dt);
    if (kind == FAC_RAND && dt == TC_FP32) {  /* the common case: no switch, and the state in
                                                 a register, not reloaded from memory */
        float *p = data;
        uint64_t st = rng_state;
        for (int64_t i = 0; i < numel; i++) p[i] = (float)u53(splitmix64(&st));
        rng_state = st;
        return;
    }
    if (kind == FAC_RANDN && dt == TC_FP32) {
        float *p = data;
        for (int64_t i = 0; i < numel; i++) p[i] = (float)rng_normal();
        return;
    }
    for (int64_t i = 0; i < numel; i++) {
        switch (kind) {
        case FAC_RAND:
            if (fl_dt) put_elem(dt, data, i, 0, 0, rng_uniform());
            else put_elem(dt, data, i, 1, dt == TC_I1 ? (int64_t)(rng_next() >> 63)
                                                     : (int64_t)(rng_next() % 100), 0);
            break;
        case FAC_RANDN:
            if (fl_dt) put_elem(dt, data, i, 0, 0, rng_normal());
            else put_elem(dt, data, i, 1, (int64_t)llround(10 * rng_normal()), 0);
            break;
        case FAC_ARANGE: put_elem(dt, data, i, 1, i, 0); break;
        case FAC_ONES: put_elem(dt, data, i, 1, 1, 0); break;
        default: break;
        }
    }
}

/* parse_value for DTYPE:fn(...). An interpreter tensor is filled in place: no host copy,
 * and the untouched pages of a zero tensor are never faulted in. */
static int factory_value(tc_context *ctx, const char *name, const char *val, RunArg *ra) {
    char err[300] = "";
    HostArr h;
    memset(&h, 0, sizeof h);
    int kind;
    if (!parse_factory(val, &h, &kind, err, sizeof err))
        return cli_usage_error("run", "argument %s=%s: %s", name, val, err);
    if (!ctx) return 0;   /* only checked (cli_parse_value with no context) */
    tc_status s = tc_tensor_new(ctx, h.dt, h.rank, h.shape, &ra->t);
    if (s) return 100 + (int)s;
    void *data = tc_tensor_host_data(ra->t);
    if (data) {
        fill_factory(kind, h.dt, data, h.numel);
    } else if (kind != FAC_ZEROS && kind != FAC_EMPTY) {  /* a device tensor: through a copy */
        h.data = calloc(h.numel ? (size_t)h.numel : 1, tc_dtype_size(h.dt));
        if (!h.data) {
            tc_tensor_free(ra->t);
            ra->t = NULL;
            return cli_usage_error("run", "argument %s=%s: out of memory", name, val);
        }
        fill_factory(kind, h.dt, h.data, h.numel);
        s = tc_tensor_copy_from_host(ra->t, h.data, tc_tensor_nbytes(ra->t));
        free(h.data);
        if (s) {
            tc_tensor_free(ra->t);
            ra->t = NULL;
            return 100 + (int)s;
        }
    }
    if (kind == FAC_EMPTY) tc_tensor_mark_uninit(ra->t);
    ra->v = tc_tens(ra->t);
    return 0;
}

/* Parses VALUE for parameter `name`; returns 0 (ok), EXIT_USAGE, or an API error status. */
static int parse_value(tc_context *ctx, const char *name, const char *val, int is_constexpr,
                       RunArg *ra) {
    char err[300] = "";
    ra->name = name;
    ra->t = NULL;
    int64_t iv;
    uint64_t uv;
    double fv;
    switch (parse_intx(val, &iv, &uv)) {   /* as Triton: i32, i64, u64, then an error */
    case 1: ra->v = tc_int(iv); return 0;
    case 2: ra->v = tc_uint(uv); return 0;
    case 3: return cli_usage_error("run", "argument %s=%s: integers range from -2**63 to "
                                   "2**64-1", name, val);
    default: break;
    }
    if (parse_float(val, &fv)) { ra->v = tc_float(fv); return 0; }
    if (strcmp(val, "true") == 0 || strcmp(val, "True") == 0) { ra->v = tc_bool(1); return 0; }
    if (strcmp(val, "false") == 0 || strcmp(val, "False") == 0) { ra->v = tc_bool(0); return 0; }
    if (strcmp(val, "None") == 0 || strcmp(val, "none") == 0) { ra->v = tc_none(); return 0; }
    if (is_constexpr) { ra->v = tc_str(val); return 0; }

    HostArr h;
    memset(&h, 0, sizeof h);
    const char *lb = strchr(val, '[');
    if (val[0] == '@') {
        size_t nb;
        if (npy_read(val + 1, &h.dt, &h.rank, h.shape, &h.data, &nb, err, sizeof err)) {
            cli_error("error: argument %s: %s", name, err);
            return EXIT_ERR;
        }
    } else if (strchr(val, ':') && (!lb || strchr(val, ':') < lb)) {
        return factory_value(ctx, name, val, ra);
    } else if (lb && lb > val) {
        char dtname[16];
        size_t dl = (size_t)(lb - val);
        if (dl >= sizeof dtname) return cli_usage_error("run", "argument %s: bad dtype", name);
        memcpy(dtname, val, dl);
        dtname[dl] = 0;
        if (!parse_literal(dtname, lb, &h, err, sizeof err)) {
            free(h.data);
            return cli_usage_error("run", "argument %s=%s: %s", name, val, err);
        }
    } else {
        return cli_usage_error("run", "argument %s: cannot read the value '%s' (a number, true, "
                         "false, None, DTYPE[...], DTYPE:zeros(...), @FILE.npy)", name, val);
    }
    if (!ctx) { free(h.data); return 0; }   /* only checked */
    tc_status s = tc_tensor_from_host(ctx, h.dt, h.rank, h.shape, h.data, &ra->t);
    free(h.data);
    if (s) return 100 + (int)s;
    ra->v = tc_tens(ra->t);
    return 0;
}

/* The earlier of assigns[0..i) that sets the same NAME as assigns[i] ("NAME=VALUE"), or NULL. */
const char *cli_dup_arg(const char *const *assigns, int i) {
    size_t nl = strcspn(assigns[i], "=");
    for (int j = 0; j < i; j++)
        if (strcspn(assigns[j], "=") == nl && strncmp(assigns[j], assigns[i], nl) == 0) return assigns[j];
    return NULL;
}

/* For tools/tune.c (bench, tune): parse_value, with the tensor it made (or NULL) in *owned. */
int cli_parse_value(tc_context *ctx, const char *name, const char *val, int is_constexpr,
                    tc_value *v, tc_tensor **owned) {
    RunArg ra;
    memset(&ra, 0, sizeof ra);
    int rc = parse_value(ctx, name, val, is_constexpr, &ra);
    *v = ra.v;
    *owned = ra.t;
    return rc;
}

/* --grid X[,Y[,Z]] */
static int parse_grid(const char *s, uint32_t g[3]) {
    g[0] = g[1] = g[2] = 1;
    int n = 0;
    const char *p = s;
    while (*p) {
        if (n == 3) return 0;
        char num[32];
        size_t l = strcspn(p, ",");
        if (!l || l >= sizeof num) return 0;
        memcpy(num, p, l);
        num[l] = 0;
        int64_t v;
        if (!parse_int(num, &v) || v < 0 || v > 0xffffffffll) return 0;
        g[n++] = (uint32_t)v;
        p += l;
        if (*p == ',') { p++; if (!*p) return 0; }
    }
    return n > 0;
}

static void print_to_stdout(const char *text, void *user) {
    (void)user;
    fputs(text, stdout);
}

typedef struct Opt { const char *name; const char *val; } Opt;

/* Progress on stderr when it is a terminal and the work has run a second: one line,
 * rewritten in place, ended when done reaches total (or by cli_progress_end). */
static int progress_shown;

static void progress_to_tty(const char *what, uint64_t done, uint64_t total, double elapsed,
                            void *user) {
    (void)user;
    if (!progress_shown && (elapsed < 1.0 || done >= total)) return;
    fprintf(stderr, "\rtritonc: %s %llu/%llu (%.0f%%), %.1f s%s", what,
            (unsigned long long)done, (unsigned long long)total,
            total ? 100.0 * (double)done / (double)total : 100.0, elapsed,
            done >= total ? "\n" : "");
    progress_shown = done < total;
    fflush(stderr);
}

void cli_progress_bind(tc_progress_fn *fn, void **user) {
    *fn = isatty(2) ? progress_to_tty : NULL;
    *user = NULL;
}

void cli_progress_end(void) {
    if (progress_shown) fputc('\n', stderr);
    progress_shown = 0;
}

/* An option with a value: "--grid 4" or "--grid=4". Returns 1 and the value, advancing *i. */
int cli_opt_val(int argc, char **argv, int *i, const char *name, const char **val) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return 0;
    if (argv[*i][n] == '=') { *val = argv[*i] + n + 1; return 1; }
    if (argv[*i][n] != 0) return 0;
    if (*i + 1 >= argc) { *val = NULL; return 1; }
    *val = argv[++*i];
    return 1;
}

int cmd_run(int argc, char **argv) { return cli_run(argc, argv, 0); }

int cli_list_kernels(const char *file) {
    tc_context *ctx = NULL;
    tc_module *m = NULL;
    if (tc_context_new(&ctx)) { cli_error("error: out of memory"); return EXIT_ERR; }
    tc_status s = tc_module_load_file(ctx, file, &m);
    if (s) {
        int r = s == TC_ERR_NOT_FOUND || s == TC_ERR_IO ? (cli_error("error: %s", tc_errmsg(ctx)), EXIT_ERR) : cli_api_error(ctx, s, 0);
        tc_context_free(ctx);
        return r;
    }
    int nk = tc_module_kernel_count(m);
    printf("%s: %d kernel%s (tritonc run %s KERNEL NAME=VALUE...)\n", file, nk, nk == 1 ? "" : "s", file);
    for (int i = 0; i < nk; i++) {
        tc_kernel *k;
        if (tc_module_kernel(m, tc_module_kernel_name(m, i), &k)) continue;
        printf("  %s(", tc_module_kernel_name(m, i));
        for (int j = 0; j < tc_kernel_param_count(k); j++) {
            int cx = 0;
            const char *pn = tc_kernel_param_name(k, j, &cx);
            printf("%s%s%s", j ? ", " : "", pn, cx ? ": tl.constexpr" : "");
        }
        printf(")\n");
    }
    tc_module_free(m);
    tc_context_free(ctx);
    return EXIT_OK;
}

int cli_check_out_path(const char *cmd, const char *opt, const char *path) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return cli_usage_error(cmd, "%s %s: a directory, not a file", opt, path);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))   /* a device is written in place */
        return access(path, W_OK) == 0 ? EXIT_OK : cli_usage_error(cmd, "%s %s: not writable", opt, path);
    char d[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(d, sizeof d, ".");
    else snprintf(d, sizeof d, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode))
        return cli_usage_error(cmd, "%s %s: no directory %s to write it in", opt, path, d);
    if (access(d, W_OK) != 0)
        return cli_usage_error(cmd, "%s %s: the directory %s is not writable", opt, path, d);
    return EXIT_OK;
}

/* --target: the target host code's hardware queries assume (TRITONC_TARGET); on a GPU only
 * the device's own. Nonzero (message printed) when refused. */
static int cli_run_target(tc_context *ctx, const char *cmdn, const char *target) {
    tc_backend b;
    tc_target want, have;
    tc_target_parse(target, &want);
    if (tc_context_backend(ctx, &b) == TC_OK && b == TC_BACKEND_CUDA &&
        tc_current_target(ctx, &have) == TC_OK && have.arch != want.arch) {
        cli_usage_error(cmdn, "--target %s: the GPU here is cuda:%d; --target names the GPU to "
                        "assume under the interpreter (--interpret)", target, have.arch);
        return 1;
    }
    setenv("TRITONC_TARGET", target, 1);
    return 0;
}

/* NAME='ptrs(A,B,...)': a table of the addresses of the --tensor arguments A, B, ... into
 * ra[nra]; 0, an exit status, or 100 + a tc_status. */
static int cli_ptr_table(tc_context *ctx, const char *cmdn, const char *name, const char *val,
                         RunArg *ra, int nra) {
    size_t len = strlen(val);
    if (len < 7 || val[len - 1] != ')' || len > 4000)
        return cli_usage_error(cmdn, "argument %s=%s: expected ptrs(NAME,NAME,...)", name, val);
    char buf[4096];
    memcpy(buf, val + 5, len - 6);
    buf[len - 6] = 0;
    tc_tensor *ts[256];
    int n = 0;
    for (char *save = NULL, *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
        while (*it == ' ') it++;
        for (char *e = it + strlen(it); e > it && e[-1] == ' '; e--) e[-1] = 0;
        int j = 0;
        while (j < nra && !(ra[j].t && !strcmp(ra[j].name, it))) j++;
        if (j == nra) return cli_usage_error(cmdn, "argument %s: ptrs(): no --tensor named '%s'", name, it);
        if (n == 256) return cli_usage_error(cmdn, "argument %s: ptrs() of more than 256 tensors", name);
        ts[n++] = ra[j].t;
    }
    if (!n) return cli_usage_error(cmdn, "argument %s=%s: expected ptrs(NAME,NAME,...)", name, val);
    ra[nra].name = name;
    ra[nra].t = NULL;
    tc_status s = tc_tensor_ptr_table(ctx, ts, n, &ra[nra].t);
    if (s) return 100 + (int)s;
    ra[nra].v = tc_tens(ra[nra].t);
    return 0;
}

/* "[4, 8, 16]" at *p: up to TC_MAX_RANK integers; advances *p past ']'. The count, or -1. */
static int cli_int_list(const char **p, int64_t *v) {
    const char *s = *p;
    while (*s == ' ') s++;
    if (*s++ != '[') return -1;
    int n = 0;
    for (;;) {
        while (*s == ' ') s++;
        if (*s == ']' && n == 0) { s++; break; }
        char num[32];
        size_t l = strcspn(s, ",]");
        if (!s[l] || l == 0 || l >= sizeof num || n == TC_MAX_RANK) return -1;
        memcpy(num, s, l);
        num[l] = 0;
        while (l && num[l - 1] == ' ') num[--l] = 0;
        if (!parse_int(num, &v[n++])) return -1;
        s += strcspn(s, ",]");
        if (*s++ == ']') break;
    }
    *p = s;
    return n;
}

/* --json: the object's first members, and a check's findings (run and check share them) */
static void json_head(const char *cmd, const char *file, const char *kernel) {
    printf("{\"command\": \"%s\", \"file\": ", cmd);
    cli_json_str(stdout, file);
    printf(", \"kernel\": ");
    cli_json_str(stdout, kernel);
}

static void json_check(tc_context *ctx, const tc_launch_report *r) {
    printf(",\n  \"check\": {\"findings\": %d, \"notes\": %d, \"seed\": %llu, \"records\": ",
           r->check_findings, r->check_notes, (unsigned long long)r->check_seed);
    cli_json_findings(stdout, ctx);
    printf("}");
}

/* NAME='desc(T,[B0,B1,...][,shape=[...]][,strides=[...]])': a tensor descriptor over the
 * --tensor (or earlier argument) T into ra[nra]; 0, an exit status, or 100 + a tc_status. */
static int cli_desc(tc_context *ctx, const char *cmdn, const char *name, const char *val,
                    RunArg *ra, int nra) {
    const char *form = "expected desc(TENSOR,[B0,B1,...]) with optional shape=[...], strides=[...]";
    const char *s = val + 5;
    size_t tl = strcspn(s, ",)");
    if (s[tl] != ',' || tl == 0 || tl >= 128) return cli_usage_error(cmdn, "argument %s=%s: %s", name, val, form);
    char tn[128];
    memcpy(tn, s, tl);
    tn[tl] = 0;
    int j = 0;
    while (j < nra && !(ra[j].t && ra[j].name && !strcmp(ra[j].name, tn))) j++;
    if (j == nra)
        return cli_usage_error(cmdn, "argument %s: desc(): no tensor named '%s' (a --tensor or an earlier argument)", name, tn);
    s += tl + 1;
    int64_t blk[TC_MAX_RANK], shp[TC_MAX_RANK], str[TC_MAX_RANK];
    int nb = cli_int_list(&s, blk), ns = -1, nt = -1;
    if (nb < 0) return cli_usage_error(cmdn, "argument %s=%s: %s", name, val, form);
    while (*s == ',') {
        s++;
        while (*s == ' ') s++;
        if (!strncmp(s, "shape=", 6)) { s += 6; if ((ns = cli_int_list(&s, shp)) < 0) break; }
        else if (!strncmp(s, "strides=", 8)) { s += 8; if ((nt = cli_int_list(&s, str)) < 0) break; }
        else break;
    }
    if (strcmp(s, ")") != 0) return cli_usage_error(cmdn, "argument %s=%s: %s", name, val, form);
    if ((ns >= 0 && ns != nb) || (nt >= 0 && nt != nb))
        return cli_usage_error(cmdn, "argument %s: desc(): the block shape, shape and strides must have one entry per dimension", name);
    ra[nra].name = name;
    ra[nra].t = NULL;
    tc_status st = tc_tensor_descriptor(ctx, ra[j].t, nb, ns >= 0 ? shp : NULL, nt >= 0 ? str : NULL, blk, &ra[nra].t);
    if (st) return 100 + (int)st;
    ra[nra].v = tc_tens(ra[nra].t);
    return 0;
}

int cli_build_args(tc_context *ctx, tc_kernel *k, tc_args *args, const char *cmdn,
                   const char *const *auxs, int naux, const char *const *assigns, int nassign,
                   RunArg *ra, int *nrap, char (*auxname)[128]) {
    int nra = *nrap, rc = 0;
    tc_status s;
    for (int i = 0; i < naux; i++) {   /* --tensor NAME=VALUE */
        size_t nl = (size_t)(strchr(auxs[i], '=') - auxs[i]);
        memcpy(auxname[i], auxs[i], nl);
        auxname[i][nl] = 0;
        for (int j = 0; j < nra; j++)
            if (!strcmp(ra[j].name, auxname[i])) { rc = cli_usage_error(cmdn, "--tensor %s given twice", auxname[i]); goto out; }
        int pr = parse_value(ctx, auxname[i], auxs[i] + nl + 1, 0, &ra[nra]);
        if (pr >= 100) { rc = cli_api_error(ctx, (tc_status)(pr - 100), 1); goto out; }
        if (pr) { rc = pr; goto out; }
        if (!ra[nra++].t) { rc = cli_usage_error(cmdn, "--tensor %s: the value is not a tensor", auxname[i]); goto out; }
    }
    for (int i = 0; i < nassign; i++) {
        const char *eq = strchr(assigns[i], '=');
        char name[128];
        size_t nl = (size_t)(eq - assigns[i]);
        if (nl >= sizeof name) { rc = cli_usage_error(cmdn, "argument name too long"); goto out; }
        memcpy(name, assigns[i], nl);
        name[nl] = 0;
        if (cli_dup_arg(assigns, i)) { rc = cli_usage_error(cmdn, "argument %s is given twice (%s and %s)", name, cli_dup_arg(assigns, i), assigns[i]); goto out; }
        int idx = -1, is_cx = 0;
        for (int j = 0; j < tc_kernel_param_count(k); j++)
            if (strcmp(tc_kernel_param_name(k, j, &is_cx), name) == 0) { idx = j; break; }
        if (idx < 0) {
            s = tc_args_set(args, name, tc_none());  /* for the message naming the parameters */
            cli_error("error: %s", tc_errmsg(ctx));
            rc = EXIT_USAGE;
            goto out;
        }
        tc_kernel_param_name(k, idx, &is_cx);
        ra[nra].name = NULL;
        ra[nra].t = NULL;
        int pr = !strncmp(eq + 1, "ptrs(", 5) ? cli_ptr_table(ctx, cmdn, tc_kernel_param_name(k, idx, NULL), eq + 1, ra, nra)
                 : !strncmp(eq + 1, "desc(", 5) ? cli_desc(ctx, cmdn, tc_kernel_param_name(k, idx, NULL), eq + 1, ra, nra)
                 : parse_value(ctx, tc_kernel_param_name(k, idx, NULL), eq + 1, is_cx, &ra[nra]);
        if (pr >= 100) { rc = cli_api_error(ctx, (tc_status)(pr - 100), 1); goto out; }
        if (pr) { rc = pr; goto out; }
        nra++;
        if ((s = tc_args_set(args, name, ra[nra - 1].v))) { rc = cli_api_error(ctx, s, 1); goto out; }
    }
out:
    *nrap = nra;
    return rc;
}

int cli_run_config(tc_context *ctx, tc_kernel *k, const char *cmdn, const char *config) {
    int64_t n;
    int idx = -1;
    tc_tune_info ti;   /* the decorators' own errors are not usage errors */
    tc_status s = tc_kernel_tune_info(k, &ti);
    if (s) return cli_api_error(ctx, s, 1);
    s = parse_int(config, &n) ? (n < -1 || n > INT32_MAX ? tc_kernel_set_config(k, -2)
                                                               : tc_kernel_set_config(k, (int)n))
                                         : tc_kernel_find_config(k, config, &idx);
    if (s == TC_OK && idx >= 0) s = tc_kernel_set_config(k, idx);
    if (s == TC_ERR_ARG) return cli_usage_error(cmdn, "--config: %s", tc_errmsg(ctx));
    return s ? cli_api_error(ctx, s, 1) : 0;
}

int cli_run(int argc, char **argv, int check) {
    const char *cmdn = check ? "check" : "run";
    const char *tdbs[16];   /* --tuning-db */
    int ntdb = 0;
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    tc_launch_opts opts = tc_launch_defaults();
    int interpret = 0, stats = 0, verbose = 0, json = 0, device = -1;
    CliText captured = {0};   /* --json: device_print and check reports go into the JSON */
    uint64_t seed = 0;
    const char *prints[64];
    int nprints = 0;
    const char *saves[64];
    int nsaves = 0;
    const char *assigns[256];
    int nassign = 0;
    const char *config = NULL, *target = NULL;
    const char *auxs[64];   /* --tensor */
    int naux = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(check ? usage_check : usage_run, stdout);
            return 0;
        }
        if (strcmp(a, "--parallel") == 0) {
            opts.threads = -1;
        } else if (strncmp(a, "--parallel=", 11) == 0) {
            int64_t n;
            if (!parse_int(a + 11, &n) || n < 1 || n > 256)
                return cli_usage_error(cmdn, "--parallel=N takes a thread count from 1 to 256");
            opts.threads = (int)n;
        } else if (cli_opt_val(argc, argv, &i, "--timeout", &v)) {
            char *end;
            double t = v ? strtod(v, &end) : 0;
            if (!v || !*v || *end || !(t > 0) || t > 1e9)
                return cli_usage_error(cmdn, "--timeout takes a number of seconds > 0");
            opts.timeout_s = t;
        } else if (cli_opt_val(argc, argv, &i, "--device", &v)) {
            if (cli_parse_device(cmdn, v, &device)) return EXIT_USAGE;
        } else if (cli_opt_val(argc, argv, &i, "--shuffle", &v)) {
            int64_t n;
            if (!v || !parse_int(v, &n) || n == 0)
                return cli_usage_error(cmdn, "--shuffle takes a non-zero integer seed");
            opts.shuffle_seed = (uint64_t)n;
        } else if (cli_opt_val(argc, argv, &i, "--grid", &v)) {
            if (!v || !parse_grid(v, opts.grid)) {
                /* expressions over the arguments and constexprs (a config's too) */
                if (!v || !cli_grid_expr(v, &opts))
                    return cli_usage_error(cmdn, "--grid takes X[,Y[,Z]] (non-negative integers or "
                                     "expressions such as 'cdiv(n, BLOCK)')");
            }
        } else if (cli_opt_val(argc, argv, &i, "--num-warps", &v)) {
            int64_t n;
            if (!v || !parse_int(v, &n) || n < 1 || n > 1024)
                return cli_usage_error(cmdn, "--num-warps takes a power of two");
            if (n & (n - 1)) return cli_usage_error(cmdn, "num_warps must be a power of 2 (got %lld)", (long long)n);
            opts.num_warps = (int)n;
        } else if (cli_opt_val(argc, argv, &i, "--num-stages", &v)) {
            int64_t n;
            if (!v || !parse_int(v, &n) || n < 1 || n > 64)
                return cli_usage_error(cmdn, "--num-stages takes a number >= 1");
            opts.num_stages = (int)n;
        } else if (cli_opt_val(argc, argv, &i, "--tuning-db", &v)) {
            if (!v || !*v) return cli_usage_error(cmdn, "--tuning-db takes a file");
            if (ntdb == 16) return cli_usage_error(cmdn, "too many --tuning-db options");
            tdbs[ntdb++] = v;
        } else if (cli_opt_val(argc, argv, &i, "--seed", &v)) {
            int64_t n;
            if (!v || !parse_int(v, &n)) return cli_usage_error(cmdn, "--seed takes an integer");
            seed = (uint64_t)n;
        } else if (cli_opt_val(argc, argv, &i, "--print", &v)) {
            if (!v || !*v) return cli_usage_error(cmdn, "--print takes an argument name");
            if (nprints == 64) return cli_usage_error(cmdn, "too many --print options");
            prints[nprints++] = v;
        } else if (cli_opt_val(argc, argv, &i, "--save", &v)) {
            if (!v || !strchr(v, '=') || v[0] == '=' || !strchr(v, '=')[1])
                return cli_usage_error(cmdn, "--save takes NAME=PATH.npy");
            if (nsaves == 64) return cli_usage_error(cmdn, "too many --save options");
            saves[nsaves++] = v;
        } else if (cli_opt_val(argc, argv, &i, "--tensor", &v)) {
            if (!v || !strchr(v, '=') || v[0] == '=' || strchr(v, '=') - v >= 128)
                return cli_usage_error(cmdn, "--tensor takes NAME=VALUE");
            if (naux == 64) return cli_usage_error(cmdn, "too many --tensor options");
            auxs[naux++] = v;
        } else if (cli_opt_val(argc, argv, &i, "--config", &v)) {
            if (!v || !*v) return cli_usage_error(cmdn, "--config takes N or NAME=VALUE,...");
            config = v;
        } else if (cli_opt_val(argc, argv, &i, "--target", &v)) {
            tc_target tt;
            if (!v || tc_target_parse(v, &tt))
                return cli_usage_error(cmdn, "--target: unknown target '%s' (known targets: %s)", v ? v : "", tc_target_names());
            target = v;
        } else if (strcmp(a, "--interpret") == 0) {
            interpret = 1;
        } else if (strcmp(a, "--stats") == 0) {
            stats = 1;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            verbose = 1;
        } else if (a[0] == '-' && a[1] == '-') {
            return cli_usage_error(cmdn, "unknown option '%s'", a);
        } else if (npos < 2) {
            pos[npos++] = a;
        } else if (strchr(a, '=') && a[0] != '=') {
            if (nassign == 256) return cli_usage_error(cmdn, "too many arguments");
            assigns[nassign++] = a;
        } else {
            return cli_usage_error(cmdn, "expected NAME=VALUE, got '%s'", a);
        }
    }
    if (npos == 1) return cli_list_kernels(pos[0]);
    if (npos < 2) return cli_usage_error(cmdn, "expected FILE and KERNEL");
    for (int i = 0; i < nsaves; i++) {   /* before the run, not after it */
        int r = cli_check_out_path(cmdn, "--save", strchr(saves[i], '=') + 1);
        if (r) return r;
    }
    rng_state = seed;
    rng_spare_ok = 0;

    tc_context *ctx = NULL;
    if (tc_context_new(&ctx)) { cli_error("error: out of memory"); return EXIT_ERR; }
    if (json) tc_set_print(ctx, cli_text_append, &captured);
    else tc_set_print(ctx, print_to_stdout, NULL);
    cli_grid_bind(&opts, ctx);
    for (int i = 0; i < ntdb; i++)   /* autotuning choices recorded on a GPU */
        if (tc_tuning_db_load(ctx, tdbs[i])) { int r = cli_api_error(ctx, tc_errcode(ctx), 1); tc_context_free(ctx); return r; }
    if (interpret || check) tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    opts.check = check;
    if (target && cli_run_target(ctx, cmdn, target)) { tc_context_free(ctx); return EXIT_USAGE; }
    cli_progress_bind(&opts.progress, &opts.progress_user);
    int rc = cli_use_device(ctx, cmdn, device);
    if (rc) { tc_context_free(ctx); return rc; }
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    tc_args *args = NULL;
    RunArg ra[256 + 64 + 64];
    int nra = 0;
    char auxname[64][128];
    tc_status s = tc_module_load_file(ctx, pos[0], &m);
    if (s) { rc = s == TC_ERR_NOT_FOUND || s == TC_ERR_IO ? (cli_error("error: %s", tc_errmsg(ctx)), EXIT_ERR) : cli_api_error(ctx, s, 1); goto done; }
    s = tc_module_kernel(m, pos[1], &k);
    if (s) { cli_error("error: %s", tc_errmsg(ctx)); rc = EXIT_USAGE; goto done; }
    if ((s = tc_args_new(k, &args))) { rc = cli_api_error(ctx, s, 1); goto done; }
    if (config && (rc = cli_run_config(ctx, k, cmdn, config))) goto done;
    if ((rc = cli_build_args(ctx, k, args, cmdn, auxs, naux, assigns, nassign, ra, &nra, auxname)))
        goto done;
    /* --print / --save names must be arguments */
    for (int i = 0; i < nprints; i++) {
        int found = 0;
        for (int j = 0; j < nra; j++) found |= strcmp(ra[j].name, prints[i]) == 0;
        if (!found) { rc = cli_usage_error(cmdn, "--print %s: no argument named '%s' was given", prints[i], prints[i]); goto done; }
    }
    for (int i = 0; i < nsaves; i++) {
        size_t nl = (size_t)(strchr(saves[i], '=') - saves[i]);
        int found = 0;
        for (int j = 0; j < nra; j++)
            found |= strlen(ra[j].name) == nl && strncmp(ra[j].name, saves[i], nl) == 0 && ra[j].t;
        if (!found) { rc = cli_usage_error(cmdn, "--save %.*s: no tensor argument of that name was given", (int)nl, saves[i]); goto done; }
    }

    s = tc_launch(k, args, &opts);
    cli_progress_end();
    if (s == TC_OK) s = tc_synchronize(ctx);  /* GPU launches are asynchronous */
    fflush(stdout);
    if (s && cli_grid_error(&opts)) { cli_error("error: %s", cli_grid_error(&opts)); rc = EXIT_USAGE; goto done; }
    if (s) {
        rc = cli_api_error(ctx, s, 1);
        const char *fa = strstr(tc_errmsg(ctx), "computed from argument '");
        for (int i = 0; fa && i < nassign; i++) {   /* the value given, where the message names it */
            size_t nl = strcspn(assigns[i], "=");
            if (!strncmp(fa + 24, assigns[i], nl) && fa[24 + nl] == '\'')
                fprintf(stderr, "tritonc: note: the command line gave %s\n", assigns[i]);
        }
        if (json) {   /* the error as an object too (a check's out-of-bounds access stops it) */
            tc_launch_report r;
            tc_last_launch(ctx, &r, sizeof r);
            json_head(cmdn, pos[0], pos[1]);
            printf(",\n  \"error\": {\"status\": \"%s\", \"exit\": %d, \"message\": ", tc_status_name(s), rc);
            cli_json_str(stdout, tc_errmsg(ctx));
            tc_srcloc l = tc_errloc(ctx);
            if (l.file && l.file[0]) {
                printf(", \"where\": {\"file\": ");
                cli_json_str(stdout, l.file);
                printf(", \"line\": %d, \"col\": %d}", l.line, l.col);
            } else {
                printf(", \"where\": null");
            }
            printf("}");
            if (check) json_check(ctx, &r);
            printf("\n}\n");
        }
        goto done;
    }
    if (check) {
        tc_launch_report r;
        tc_last_launch(ctx, &r, sizeof r);
        if (r.check_findings > 0) rc = EXIT_CHECK;
    }
    if (verbose) {
        tc_launch_report r;
        tc_last_launch(ctx, &r, sizeof r);
        fprintf(stderr, "launch: %s(%s) on the %s, grid (%u, %u, %u), num_warps=%d, num_stages=%d\n",
                pos[1], r.specialization, r.backend == TC_BACKEND_CUDA ? "GPU (cuda)" : "interpreter",
                r.grid[0], r.grid[1], r.grid[2], r.num_warps, r.num_stages);
        fprintf(stderr, "launch: %s (%.3f ms), ran in %.3f ms\n",
                !r.compiled ? "in-memory cache hit"
                : r.disk_cache == TC_CACHE_HIT ? "new specialization, loaded from the disk cache"
                : "compiled a new specialization", r.compile_ms, r.run_ms);
        if (r.backend == TC_BACKEND_CUDA && r.compiled)
            fprintf(stderr, "launch: disk cache: %s\n", tc_cache_event_name(r.disk_cache));
        if (r.backend == TC_BACKEND_CUDA && r.dot[0])
            fprintf(stderr, "launch: tl.dot on %s; %d bytes of shared memory per program\n", r.dot,
                    r.shared_bytes);
        if (r.note[0]) fprintf(stderr, "note: %s\n", r.note);
        tc_target at;
        tc_device_props ap;
        if (r.backend != TC_BACKEND_CUDA && tc_assumed_device(ctx, &at, &ap) == TC_OK)
            fprintf(stderr, "note: hardware queries in host code answered for an assumed cuda:%d, "
                    "a nominal %s (%d SMs), not a GPU (TRITONC_TARGET / --target)\n", at.arch, ap.name,
                    ap.multiprocessor_count);
    }
    for (int i = 0; i < nprints && !json; i++) {
        for (int j = 0; j < nra; j++) {
            if (strcmp(ra[j].name, prints[i]) != 0) continue;
            printf("%s = ", ra[j].name);
            if (ra[j].t) {
                size_t nb = tc_tensor_nbytes(ra[j].t);
                void *buf = malloc(nb ? nb : 1);
                if (!buf) { cli_error("error: out of memory"); rc = EXIT_ERR; goto done; }
                if ((s = tc_tensor_to_host(ra[j].t, buf, nb))) { free(buf); rc = cli_api_error(ctx, s, 1); goto done; }
                int64_t idx = 0;
                fmt_nested(tc_tensor_dtype(ra[j].t), buf, tc_tensor_rank(ra[j].t),
                           tc_tensor_shape(ra[j].t), 0, &idx, stdout);
                free(buf);
            } else {
                char b[64];
                switch (ra[j].v.kind) {
                case TC_VAL_INT: printf("%lld", (long long)ra[j].v.u.i); break;
                case TC_VAL_UINT: printf("%llu", (unsigned long long)ra[j].v.u.i); break;
                case TC_VAL_FLOAT: tc_format_double(ra[j].v.u.f, b, sizeof b); fputs(b, stdout); break;
                case TC_VAL_BOOL: fputs(ra[j].v.u.b ? "True" : "False", stdout); break;
                case TC_VAL_STR: printf("'%s'", ra[j].v.u.s); break;
                default: fputs("None", stdout);
                }
            }
            putchar('\n');
            break;
        }
    }
    for (int i = 0; i < nsaves; i++) {
        const char *eq = strchr(saves[i], '=');
        size_t nl = (size_t)(eq - saves[i]);
        for (int j = 0; j < nra; j++) {
            if (!(strlen(ra[j].name) == nl && strncmp(ra[j].name, saves[i], nl) == 0 && ra[j].t)) continue;
            size_t nb = tc_tensor_nbytes(ra[j].t);
            void *buf = malloc(nb ? nb : 1);
            char err[300];
            if (!buf) { cli_error("error: out of memory"); rc = EXIT_ERR; goto done; }
            if ((s = tc_tensor_to_host(ra[j].t, buf, nb))) { free(buf); rc = cli_api_error(ctx, s, 1); goto done; }
            int w = npy_write(ctx, eq + 1, tc_tensor_dtype(ra[j].t), tc_tensor_rank(ra[j].t),
                              tc_tensor_shape(ra[j].t), buf, err, sizeof err);
            free(buf);
            if (w) { cli_error("error: %s", err); rc = EXIT_ERR; goto done; }
            break;
        }
    }
    if (json) {   /* one object: the launch, the arguments (tensors summarized), output */
        tc_launch_report r;
        tc_stats st;
        tc_last_launch(ctx, &r, sizeof r);
        tc_kernel_stats(k, &st, sizeof st);
        json_head(cmdn, pos[0], pos[1]);
        printf(",\n  \"launch\": {");
        cli_json_report(stdout, &r);
        printf("},\n  \"stats\": {\"specializations\": %d, \"hits\": %d, \"launches\": %d},\n"
               "  \"arguments\": [", st.specializations, st.hits, st.launches);
        for (int j = 0; j < nra; j++) {
            printf("%s\n    {\"name\": ", j ? "," : "");
            cli_json_str(stdout, ra[j].name);
            if (ra[j].t) {
                int vals = 0;
                for (int i = 0; i < nprints; i++) vals |= !strcmp(prints[i], ra[j].name);
                printf(", \"tensor\": true, ");
                if (cli_json_tensor(stdout, ra[j].t, vals)) { cli_error("error: cannot read %s", ra[j].name); rc = EXIT_ERR; goto done; }
            } else {
                printf(", \"tensor\": false, \"value\": ");
                switch (ra[j].v.kind) {
                case TC_VAL_INT: printf("%lld", (long long)ra[j].v.u.i); break;
                case TC_VAL_UINT: printf("%llu", (unsigned long long)ra[j].v.u.i); break;
                case TC_VAL_FLOAT: cli_json_double(stdout, ra[j].v.u.f); break;
                case TC_VAL_BOOL: fputs(ra[j].v.u.b ? "true" : "false", stdout); break;
                case TC_VAL_STR: cli_json_str(stdout, ra[j].v.u.s); break;
                default: fputs("null", stdout);
                }
            }
            printf("}");
        }
        printf("\n  ],\n  \"output\": ");
        cli_json_str(stdout, captured.s ? captured.s : "");
        if (r.check) json_check(ctx, &r);
        printf("\n}\n");
    }
    if (stats && !json) {
        tc_stats st;
        tc_kernel_stats(k, &st, sizeof st);
        printf("specializations: %d, hits: %d, launches: %d\n", st.specializations, st.hits,
               st.launches);
    }
done:
    fflush(stdout);
    free(captured.s);
    for (int i = 0; i < nra; i++) tc_tensor_free(ra[i].t);
    tc_args_free(args);
    tc_module_free(m);
    tc_context_free(ctx);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) { fputs(usage_main, stderr); return EXIT_USAGE; }
    const char *c = argv[1];
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) {
        fputs(usage_main, stdout);
        return 0;
    }
    if (strcmp(c, "--version") == 0) { printf("tritonc %s\n", TRITONC_VERSION); return 0; }
    if (strcmp(c, "run") == 0) return cmd_run(argc - 1, argv + 1);
    if (strcmp(c, "compile") == 0) return cmd_compile_aot(argc - 1, argv + 1);
    if (strcmp(c, "cache") == 0) return cmd_cache(argc - 1, argv + 1);
    if (strcmp(c, "check") == 0) return cmd_check(argc - 1, argv + 1);
    if (strcmp(c, "bench") == 0) return cmd_bench(argc - 1, argv + 1);
    if (strcmp(c, "tune") == 0) return cmd_tune(argc - 1, argv + 1);
    if (strcmp(c, "info") == 0) return cmd_info(argc - 1, argv + 1);
    return cli_usage_error("", "unknown command '%s'", c);
}
