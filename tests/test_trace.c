/* test_trace.c — the tracer (trace.c): constexpr evaluation, scopes, control flow, inlined
 * calls, the IR it builds, and its error messages with file:line:col. Kernels that trace are
 * also run through the interpreter and compared with plain C loops. */
#include "test.h"
#include "trace/trace.h"
#include "interp/interp.h"

#include <stdlib.h>

/* Lines 1-4 of every test module; the kernel's `def` is line 5, its body starts at line 6. */
#define HDR "import triton\nimport triton.language as tl\n\n@triton.jit\n"

typedef struct TCtx {
    Source *src;
    Module *m;
    Arena a;
    Err e;
    IrFunc *f;
    Buf ir, out;
} TCtx;

static void tctx_free(TCtx *c) {
    if (c->m) module_free(c->m);
    if (c->src) source_free(c->src);
    arena_free(&c->a);
    buf_free(&c->ir);
    buf_free(&c->out);
    memset(c, 0, sizeof *c);
}

/* Parses text, traces kernel kname with args; returns the IR (printed into c->ir) or NULL. */
static IrFunc *tr(TCtx *c, const char *text, const char *kname, const SpecArg *args) {
    memset(c, 0, sizeof *c);
    c->src = source_new("k.py", text, strlen(text));
    c->m = parse_module(c->src, &c->e);
    arena_init(&c->a, &c->e);
    if (!c->m) {
        fprintf(stderr, "parse error: %s\n", c->e.msg);
        return NULL;
    }
    const Func *k = module_find(c->m, kname);
    if (!k) {
        fprintf(stderr, "no kernel %s\n", kname);
        return NULL;
    }
    c->f = trace_kernel(c->m, k, args, &c->a, &c->e, &c->out);
    if (c->f) ir_print(c->f, &c->ir);
    return c->f;
}

static SpecArg A_PTR(int dt) { SpecArg s; memset(&s, 0, sizeof s); s.type = type_ptr(dt); s.div16 = true; return s; }
static SpecArg A_NUM(int dt) { SpecArg s; memset(&s, 0, sizeof s); s.type = type_scalar(dt); return s; }
static SpecArg A_C(int64_t v) { SpecArg s; memset(&s, 0, sizeof s); s.is_constexpr = true; s.cv = cv_int(v); return s; }
static SpecArg A_CV(CVal cv) { SpecArg s; memset(&s, 0, sizeof s); s.is_constexpr = true; s.cv = cv; return s; }
static SpecArg A_MISS(void) { SpecArg s; memset(&s, 0, sizeof s); s.missing = true; return s; }

static int count_sub(const char *h, const char *n) {
    int k = 0;
    if (!h) return 0;
    for (const char *p = strstr(h, n); p; p = strstr(p + 1, n)) k++;
    return k;
}

/* Traces and expects an error with this code whose message contains want. */
#define EXPECT_ERR(text, args, ecode, want) do { \
        TCtx c_; \
        IrFunc *f_ = tr(&c_, (text), "k", (args)); \
        CHECK(f_ == NULL); \
        CHECK_INT((ecode), c_.e.code); \
        CHECK_CONTAINS(c_.e.msg, (want)); \
        tctx_free(&c_); \
    } while (0)

#define EXPECT_OK(text, args) do { \
        TCtx c_; \
        IrFunc *f_ = tr(&c_, (text), "k", (args)); \
        CHECK(f_ != NULL); \
        if (!f_) fprintf(stderr, "  %s\n", c_.e.msg); \
        tctx_free(&c_); \
    } while (0)

/* ---- running on the interpreter -------------------------------------------------------- */

static tc_status run1(IrFunc *f, const ArgBits *args, uint32_t gx, MemRegion *mem, int nmem,
                      Err *e) {
    InterpLaunch l;
    memset(&l, 0, sizeof l);
    l.f = f;
    l.args = args;
    l.grid[0] = gx;
    l.grid[1] = l.grid[2] = 1;
    l.mem = mem;
    l.nmem = nmem;
    return interp_run(&l, e);
}

static MemRegion region(const void *p, size_t bytes, const char *name) {
    MemRegion r;
    memset(&r, 0, sizeof r);
    r.lo = (uint64_t)(uintptr_t)p;
    r.hi = r.lo + bytes;
    r.name = name;
    return r;
}

/* ---- tutorial kernels -------------------------------------------------------------------- */

static const char *VADD =
    HDR
    "def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n"
    "    pid = tl.program_id(axis=0)\n"
    "    block_start = pid * BLOCK_SIZE\n"
    "    offsets = block_start + tl.arange(0, BLOCK_SIZE)\n"
    "    mask = offsets < n_elements\n"
    "    x = tl.load(x_ptr + offsets, mask=mask)\n"
    "    y = tl.load(y_ptr + offsets, mask=mask)\n"
    "    output = x + y\n"
    "    tl.store(output_ptr + offsets, output, mask=mask)\n";

TEST(trace_vector_add) {
    TCtx c;
    SpecArg args[5] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_PTR(DT_FP32), A_NUM(DT_I32), A_C(64)};
    IrFunc *f = tr(&c, VADD, "add_kernel", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_INT(4, f->nparams);
    CHECK_STR("add_kernel", f->name);
    CHECK_CONTAINS(c.ir.s, "program_id axis=0");
    CHECK_CONTAINS(c.ir.s, "arange");
    CHECK_CONTAINS(c.ir.s, "<64xi32>");
    CHECK_CONTAINS(c.ir.s, "load");
    CHECK_CONTAINS(c.ir.s, "store");
    CHECK_CONTAINS(c.ir.s, "<64x*fp32>");
    CHECK_CONTAINS(c.ir.s, "<64xfp32> = add");
    /* run it: 200 elements, 4 programs */
    enum { N = 200 };
    float x[N], y[N], out[N], want[N];
    for (int i = 0; i < N; i++) { x[i] = (float)i * 0.5f; y[i] = 3.0f - (float)i; out[i] = -1; }
    for (int i = 0; i < N; i++) want[i] = x[i] + y[i];
    ArgBits ab[4];
    ab[0].u = (uint64_t)(uintptr_t)x;
    ab[1].u = (uint64_t)(uintptr_t)y;
    ab[2].u = (uint64_t)(uintptr_t)out;
    ab[3].i = N;
    MemRegion mem[3] = {region(x, sizeof x, "x"), region(y, sizeof y, "y"), region(out, sizeof out, "out")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, (N + 63) / 64, mem, 3, &e));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != want[i];
    CHECK_INT(0, bad);
    tctx_free(&c);
}

/* ir_optimize moves a loop's invariant scalar integer work before it (BK * s, and s - 1
 * from the loop inside), and leaves what a zero-trip loop must not compute (a division, a
 * float) and what changes with the loop (i * s) */
static const char *LICM =
    HDR
    "def k(x_ptr, s, n, BK: tl.constexpr):\n"
    "    p = x_ptr + tl.arange(0, BK)\n"
    "    acc = tl.zeros((BK,), tl.int32)\n"
    "    for i in range(0, n):\n"
    "        for j in range(0, 2):\n"
    "            acc += s - 1\n"
    "        acc += tl.load(p) + s // 2 + (s * 0.5).to(tl.int32) + i * s\n"
    "        p += BK * s\n"
    "    tl.store(x_ptr + tl.arange(0, BK), acc)\n";

TEST(trace_loop_invariant_scalars_move_out) {
    TCtx c;
    SpecArg args[4] = {A_PTR(DT_I32), A_NUM(DT_I32), A_NUM(DT_I32), A_C(4)};
    IrFunc *f = tr(&c, LICM, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    const Region *loop = NULL;
    for (int i = 0; i < f->body->ninsts; i++)
        if (f->body->insts[i]->op == OP_FOR) loop = f->body->insts[i]->regions[0];
    CHECK(loop != NULL);
    if (!loop) { tctx_free(&c); return; }
    CHECK_INT(2, ir_count(loop, OP_MUL));   /* i * s and the float s * 0.5; BK * s went out */
    CHECK_INT(1, ir_count(loop, OP_DIV));
    /* the inner loop's body keeps only its add to acc: s - 1 went out of both loops */
    CHECK_INT(0, ir_count(loop, OP_SUB));
    /* x = [1, 2, 3, 4], s = 3, n = 2: each element reads x[e] then x[e + 12] (past the
     * tile, so the buffer holds 16) */
    int32_t x[16];
    for (int i = 0; i < 16; i++) x[i] = i + 1;
    int32_t want[4];
    for (int e = 0; e < 4; e++) {
        int32_t acc = 0;
        for (int i = 0; i < 2; i++) acc += 2 * (3 - 1) + x[e + 12 * i] + 3 / 2 + 1 + i * 3;
        want[e] = acc;
    }
    ArgBits ab[3];
    ab[0].u = (uint64_t)(uintptr_t)x;
    ab[1].i = 3;
    ab[2].i = 2;
    MemRegion mem[1] = {region(x, sizeof x, "x")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 1, &e));
    for (int i = 0; i < 4; i++) CHECK_INT(want[i], x[i]);
    tctx_free(&c);
}

static const char *SOFTMAX =
    HDR
    "def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows,\n"
    "                   n_cols, BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):\n"
    "    row_start = tl.program_id(0)\n"
    "    row_step = tl.num_programs(0)\n"
    "    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):\n"
    "        row_start_ptr = input_ptr + row_idx * input_row_stride\n"
    "        col_offsets = tl.arange(0, BLOCK_SIZE)\n"
    "        input_ptrs = row_start_ptr + col_offsets\n"
    "        mask = col_offsets < n_cols\n"
    "        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))\n"
    "        row_minus_max = row - tl.max(row, axis=0)\n"
    "        numerator = tl.exp(row_minus_max)\n"
    "        denominator = tl.sum(numerator, axis=0)\n"
    "        softmax_output = numerator / denominator\n"
    "        output_row_start_ptr = output_ptr + row_idx * output_row_stride\n"
    "        output_ptrs = output_row_start_ptr + col_offsets\n"
    "        tl.store(output_ptrs, softmax_output, mask=mask)\n";

TEST(trace_softmax) {
    TCtx c;
    SpecArg args[8] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_NUM(DT_I32), A_NUM(DT_I32),
                       A_NUM(DT_I32), A_NUM(DT_I32), A_C(32), A_C(2)};
    IrFunc *f = tr(&c, SOFTMAX, "softmax_kernel", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_CONTAINS(c.ir.s, "num_programs");
    CHECK_CONTAINS(c.ir.s, " for ");
    CHECK_CONTAINS(c.ir.s, "reduce max");
    CHECK_CONTAINS(c.ir.s, "reduce sum");
    CHECK_CONTAINS(c.ir.s, "exp");
    enum { R = 5, C = 20, S = 24 };
    float in[R * S], out[R * S], want[R * S];
    for (int i = 0; i < R * S; i++) { in[i] = (float)((i * 37) % 11) * 0.25f - 1.0f; out[i] = 0; want[i] = 0; }
    for (int r = 0; r < R; r++) {
        float mx = -INFINITY, sum = 0;
        for (int j = 0; j < C; j++) mx = in[r * S + j] > mx ? in[r * S + j] : mx;
        for (int j = 0; j < C; j++) sum += expf(in[r * S + j] - mx);
        for (int j = 0; j < C; j++) want[r * S + j] = expf(in[r * S + j] - mx) / sum;
    }
    ArgBits ab[6];
    ab[0].u = (uint64_t)(uintptr_t)out;
    ab[1].u = (uint64_t)(uintptr_t)in;
    ab[2].i = S;
    ab[3].i = S;
    ab[4].i = R;
    ab[5].i = C;
    MemRegion mem[2] = {region(in, sizeof in, "in"), region(out, sizeof out, "out")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 2, mem, 2, &e));
    if (e.code) fprintf(stderr, "%s\n", e.msg);
    double maxerr = 0;
    for (int i = 0; i < R * S; i++) maxerr = fmax(maxerr, fabs(out[i] - want[i]));
    CHECK(maxerr < 1e-5);
    tctx_free(&c);
}

static const char *LAYERNORM =
    HDR
    "def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):\n"
    "    row = tl.program_id(0)\n"
    "    Y += row * stride\n"
    "    X += row * stride\n"
    "    mean = 0\n"
    "    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)\n"
    "    for off in range(0, N, BLOCK_SIZE):\n"
    "        cols = off + tl.arange(0, BLOCK_SIZE)\n"
    "        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)\n"
    "        _mean += a\n"
    "    mean = tl.sum(_mean, axis=0) / N\n"
    "    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)\n"
    "    for off in range(0, N, BLOCK_SIZE):\n"
    "        cols = off + tl.arange(0, BLOCK_SIZE)\n"
    "        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)\n"
    "        x = tl.where(cols < N, x - mean, 0.)\n"
    "        _var += x * x\n"
    "    var = tl.sum(_var, axis=0) / N\n"
    "    rstd = 1 / tl.sqrt(var + eps)\n"
    "    tl.store(Mean + row, mean)\n"
    "    tl.store(Rstd + row, rstd)\n"
    "    for off in range(0, N, BLOCK_SIZE):\n"
    "        cols = off + tl.arange(0, BLOCK_SIZE)\n"
    "        mask = cols < N\n"
    "        w = tl.load(W + cols, mask=mask)\n"
    "        b = tl.load(B + cols, mask=mask)\n"
    "        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)\n"
    "        x_hat = (x - mean) * rstd\n"
    "        y = x_hat * w + b\n"
    "        tl.store(Y + cols, y, mask=mask)\n";

TEST(trace_layernorm) {
    TCtx c;
    SpecArg args[10] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_PTR(DT_FP32), A_PTR(DT_FP32),
                        A_PTR(DT_FP32), A_PTR(DT_FP32), A_NUM(DT_I32), A_NUM(DT_I32),
                        A_NUM(DT_FP32), A_C(16)};
    IrFunc *f = tr(&c, LAYERNORM, "_layer_norm_fwd_fused", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_INT(3, count_sub(c.ir.s, " for "));
    CHECK_CONTAINS(c.ir.s, "sqrt");
    CHECK_CONTAINS(c.ir.s, "yield");
    enum { R = 3, N = 37, S = 40 };
    float X[R * S], Y[R * S], W[N], Bv[N], Mean[R], Rstd[R];
    for (int i = 0; i < R * S; i++) { X[i] = (float)((i * 13) % 17) * 0.125f - 0.7f; Y[i] = 0; }
    for (int i = 0; i < N; i++) { W[i] = 1.0f + 0.01f * (float)i; Bv[i] = 0.5f - 0.02f * (float)i; }
    ArgBits ab[9];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].u = (uint64_t)(uintptr_t)Y;
    ab[2].u = (uint64_t)(uintptr_t)W; ab[3].u = (uint64_t)(uintptr_t)Bv;
    ab[4].u = (uint64_t)(uintptr_t)Mean; ab[5].u = (uint64_t)(uintptr_t)Rstd;
    ab[6].i = S; ab[7].i = N; ab[8].f = 1e-5;
    MemRegion mem[6] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y"), region(W, sizeof W, "W"),
                        region(Bv, sizeof Bv, "B"), region(Mean, sizeof Mean, "Mean"),
                        region(Rstd, sizeof Rstd, "Rstd")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, R, mem, 6, &e));
    if (e.code) fprintf(stderr, "%s\n", e.msg);
    double maxerr = 0;
    for (int r = 0; r < R; r++) {
        double m = 0, v = 0;
        for (int j = 0; j < N; j++) m += X[r * S + j];
        m /= N;
        for (int j = 0; j < N; j++) v += (X[r * S + j] - m) * (X[r * S + j] - m);
        v /= N;
        double rs = 1 / sqrt(v + 1e-5);
        maxerr = fmax(maxerr, fabs(Mean[r] - m) + fabs(Rstd[r] - rs) * 1e-3);
        for (int j = 0; j < N; j++)
            maxerr = fmax(maxerr, fabs(Y[r * S + j] - ((X[r * S + j] - m) * rs * W[j] + Bv[j])));
    }
    CHECK(maxerr < 1e-4);
    tctx_free(&c);
}

/* ---- jit calls ------------------------------------------------------------------------- */

static const char *CALLS =
    "import triton\nimport triton.language as tl\n\n"
    "@triton.jit\n"
    "def minmax(a, b):\n"                       /* 5 */
    "    return tl.minimum(a, b), tl.maximum(a, b)\n"
    "\n"
    "@triton.jit\n"
    "def scale(x, F: tl.constexpr = 2, G=3):\n" /* 9 */
    "    if F == 2:\n"
    "        return x * F + G\n"
    "    else:\n"
    "        return x * F - 'str'\n"            /* dead: never typed */
    "\n"
    "@triton.jit\n"
    "def k(X, Y, Z, N, BLOCK: tl.constexpr):\n" /* 16 */
    "    offs = tl.arange(0, BLOCK)\n"
    "    m = offs < N\n"
    "    x = tl.load(X + offs, mask=m)\n"
    "    y = tl.load(Y + offs, mask=m)\n"
    "    lo, hi = minmax(x, y)\n"
    "    lo = scale(lo)\n"
    "    hi = scale(hi, G=1, F=2)\n"
    "    tl.store(Z + offs, lo + hi, mask=m)\n";

TEST(trace_jit_calls) {
    TCtx c;
    SpecArg args[5] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_PTR(DT_FP32), A_NUM(DT_I32), A_C(16)};
    IrFunc *f = tr(&c, CALLS, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_CONTAINS(c.ir.s, "min");
    CHECK_CONTAINS(c.ir.s, "max");
    enum { N = 13 };
    float X[N], Y[N], Z[N];
    for (int i = 0; i < N; i++) { X[i] = (float)i - 6; Y[i] = 6 - 2 * (float)i; Z[i] = 0; }
    ArgBits ab[4];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].u = (uint64_t)(uintptr_t)Y;
    ab[2].u = (uint64_t)(uintptr_t)Z; ab[3].i = N;
    MemRegion mem[3] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y"), region(Z, sizeof Z, "Z")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 3, &e));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float lo = fminf(X[i], Y[i]), hi = fmaxf(X[i], Y[i]);
        if (Z[i] != (lo * 2 + 3) + (hi * 2 + 1)) bad++;
    }
    CHECK_INT(0, bad);
    tctx_free(&c);
}

/* ---- constexpr evaluation (Python semantics) --------------------------------------------- */

TEST(trace_constexpr_python_semantics) {
    /* static_assert fails the trace if any of these is False */
    static const char *src =
        HDR
        "def k(X, A: tl.constexpr, S: tl.constexpr):\n"
        "    tl.static_assert(-7 // 2 == -4)\n"
        "    tl.static_assert(-7 % 2 == 1)\n"
        "    tl.static_assert(7 % -2 == -1)\n"
        "    tl.static_assert(7 / 2 == 3.5)\n"
        "    tl.static_assert(2 ** 10 == 1024)\n"
        "    tl.static_assert(2 ** -1 == 0.5)\n"
        "    tl.static_assert(-7.5 // 2 == -4.0)\n"
        "    tl.static_assert(1 << 40 == 1099511627776)\n"
        "    tl.static_assert(-9 >> 1 == -5)\n"
        "    tl.static_assert(((6 & 3) == 2 and (6 | 3) == 7) and (6 ^ 3) == 5)\n"
        "    tl.static_assert(~5 == -6)\n"
        "    tl.static_assert(A * 2 == 8)\n"
        "    tl.static_assert(S + 'x' == 'relux')\n"
        "    tl.static_assert(S == 'relu')\n"
        "    tl.static_assert(None is None)\n"
        "    tl.static_assert(A is not None)\n"
        "    tl.static_assert(not (A == 5))\n"
        "    tl.static_assert(3 in (1, 2, 3))\n"
        "    tl.static_assert((1, 2) + (3,) == (1, 2, 3))\n"
        "    tl.static_assert((1, 2, 3)[-1] == 3)\n"
        "    tl.static_assert((1, 2, 3, 4)[1:3] == (2, 3))\n"
        "    tl.static_assert(len((1, 2, 3)) == 3)\n"
        "    tl.static_assert(min(3, 1, 2) == 1 and max(3, 1, 2) == 3)\n"
        "    tl.static_assert(int(3.9) == 3 and float('inf') > 1e308)\n"
        "    tl.static_assert((0 or 5) == 5 and (3 and 0) == 0)\n"
        "    tl.static_assert(True + True == 2)\n"
        "    tl.static_assert(abs(-3) == 3)\n"
        "    tl.static_assert((5 if A > 2 else 6) == 5)\n"
        "    tl.static_assert(X.dtype.element_ty == tl.float16)\n"
        "    tl.static_assert(tl.float32 != tl.float16)\n"
        "    tl.static_assert(f'{S}_{A}' == 'relu_4')\n"
        "    tl.static_assert(0.1 + 0.2 != 0.3)\n";
    SpecArg args[3] = {A_PTR(DT_FP16), A_C(4), A_CV(cv_str("relu"))};
    EXPECT_OK(src, args);
    /* a false static_assert does fail */
    static const char *bad = HDR "def k(A: tl.constexpr):\n    tl.static_assert(-7 // 2 == -3)\n";
    SpecArg a1[1] = {A_C(4)};
    TCtx c;
    CHECK(tr(&c, bad, "k", a1) == NULL);
    CHECK_CONTAINS(c.e.msg, "k.py:6:");
    tctx_free(&c);
    /* overflow beyond 64 bits */
    static const char *ovf = HDR "def k(A: tl.constexpr):\n    x: tl.constexpr = A << 70\n";
    EXPECT_ERR(ovf, a1, TC_ERR_LIMIT, "k.py:6:23: error: integer constant out of range");
    static const char *zd = HDR "def k(A: tl.constexpr):\n    x: tl.constexpr = A // 0\n";
    EXPECT_ERR(zd, a1, TC_ERR_COMPILE, "ZeroDivisionError");
}

TEST(trace_module_globals) {
    static const char *src =
        "import triton\nimport triton.language as tl\n"
        "BLOCK = tl.constexpr(16)\n"
        "ACT: tl.constexpr = 'relu'\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    x = tl.load(X + offs)\n"
        "    if ACT == 'relu':\n"
        "        x = tl.maximum(x, 0.0)\n"
        "    tl.store(X + offs, x)\n";
    TCtx c;
    SpecArg args[1] = {A_PTR(DT_FP32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    CHECK_CONTAINS(c.ir.s, "<16xfp32>");
    CHECK_CONTAINS(c.ir.s, "max");
    tctx_free(&c);
    static const char *undef = HDR "def k(X):\n    y = X + zzz\n";
    EXPECT_ERR(undef, args, TC_ERR_COMPILE, "k.py:6:13: error: NameError: name 'zzz' is not defined");
}

/* ---- trace-time if ------------------------------------------------------------------------- */

TEST(trace_dead_constexpr_branch) {
    static const char *src =
        HDR
        "def k(X, MODE: tl.constexpr, P: tl.constexpr = None):\n"
        "    x = tl.load(X)\n"
        "    if MODE == 1:\n"
        "        x = x + 1.0\n"
        "    elif MODE == 2:\n"
        "        x = x + 'not a number' + undefined_name\n"
        "    else:\n"
        "        x = x * (1, 2)\n"
        "    if P is not None:\n"
        "        x = x + P.this_does_not_exist\n"
        "    tl.store(X, x)\n";
    SpecArg args[3] = {A_PTR(DT_FP32), A_C(1), A_MISS()};
    TCtx c;
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) fprintf(stderr, "%s\n", c.e.msg);
    CHECK_CONTAINS(c.ir.s, "add");
    CHECK(!strstr(c.ir.s ? c.ir.s : "", " if "));
    tctx_free(&c);
    /* the other branch is typed when taken */
    SpecArg a2[3] = {A_PTR(DT_FP32), A_C(2), A_MISS()};
    EXPECT_ERR(src, a2, TC_ERR_COMPILE, "k.py:10:13: error:");
    /* float conditions are rejected */
    static const char *fl = HDR "def k(X):\n    if 1.5:\n        pass\n";
    SpecArg a3[1] = {A_PTR(DT_FP32)};
    EXPECT_ERR(fl, a3, TC_ERR_COMPILE,
               "k.py:6:8: error: `if` conditionals can only accept values of type {bool, int, "
               "NoneType}, not objects of type float");
}

/* ---- run-time if ---------------------------------------------------------------------------- */

static const char *RTIF =
    HDR
    "def k(X, Y, N):\n"
    "    i = tl.program_id(0)\n"
    "    x = tl.load(X + i)\n"
    "    y = 0.0\n"
    "    if x > 0:\n"
    "        y = x * 2.0\n"
    "        t = 1\n"
    "    else:\n"
    "        y = -x\n"
    "    z = 3.0 if i < N else 4.0\n"
    "    tl.store(Y + i, y + z)\n";

TEST(trace_runtime_if) {
    TCtx c;
    SpecArg args[3] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_NUM(DT_I32)};
    IrFunc *f = tr(&c, RTIF, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_INT(2, count_sub(c.ir.s, " = if "));
    CHECK_CONTAINS(c.ir.s, "%");
    float X[6] = {1, -2, 3, -4, 0, 5}, Y[6] = {0};
    ArgBits ab[3];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].u = (uint64_t)(uintptr_t)Y; ab[2].i = 3;
    MemRegion mem[2] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 6, mem, 2, &e));
    int bad = 0;
    for (int i = 0; i < 6; i++) {
        float y = X[i] > 0 ? X[i] * 2 : -X[i];
        if (Y[i] != y + (i < 3 ? 3.0f : 4.0f)) bad++;
    }
    CHECK_INT(0, bad);
    tctx_free(&c);
    /* a name defined only in one arm is not visible afterwards */
    static const char *scope =
        HDR "def k(X):\n    x = tl.load(X)\n    if x > 0:\n        t = 1\n    tl.store(X, t)\n";
    SpecArg a1[1] = {A_PTR(DT_FP32)};
    EXPECT_ERR(scope, a1, TC_ERR_COMPILE, "k.py:9:17: error: NameError: name 't' is not defined");
    static const char *mism =
        HDR "def k(X):\n    x = tl.load(X)\n    y = 0\n    if x > 0:\n        y = 1.0\n    tl.store(X, y)\n";
    EXPECT_ERR(mism, a1, TC_ERR_COMPILE,
               "k.py:8:5: error: Mismatched type for y between then block and else block of if "
               "statement: fp32 and i32");
    static const char *tern =
        HDR "def k(X):\n    x = tl.load(X)\n    y = 1 if x > 0 else 2.0\n";
    EXPECT_ERR(tern, a1, TC_ERR_COMPILE,
               "k.py:7:9: error: Ternary expression with dynamic condition has inconsistent types");
}

TEST(trace_kernel_return_in_if) {
    static const char *src =
        HDR
        "def k(X, N):\n"
        "    i = tl.program_id(0)\n"
        "    if i >= N:\n"
        "        return\n"
        "    tl.store(X + i, i.to(tl.float32))\n";
    TCtx c;
    SpecArg args[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_CONTAINS(c.ir.s, "return");
    float X[8];
    for (int i = 0; i < 8; i++) X[i] = -1;
    ArgBits ab[2];
    ab[0].u = (uint64_t)(uintptr_t)X;
    ab[1].i = 5;
    MemRegion mem[1] = {region(X, sizeof X, "X")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 8, mem, 1, &e));
    int bad = 0;
    for (int i = 0; i < 8; i++) bad += X[i] != (i < 5 ? (float)i : -1.0f);
    CHECK_INT(0, bad);
    tctx_free(&c);
    static const char *val = HDR "def k(X):\n    return 1\n";
    SpecArg a1[1] = {A_PTR(DT_FP32)};
    EXPECT_ERR(val, a1, TC_ERR_COMPILE, "k.py:6:5: error: a kernel cannot return a value");
    static const char *inloop =
        HDR "def k(X, N):\n    for i in range(N):\n        if i > 2:\n            return\n";
    SpecArg a2[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    EXPECT_ERR(inloop, a2, TC_ERR_SYNTAX,
               "k.py:8:13: error: Cannot have `return` statements inside `while` or `for` statements in triton");
}

TEST(trace_callee_runtime_return) {
    static const char *src =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def pick(x):\n"
        "    if x > 0:\n"
        "        return x * 2.0\n"
        "    y = x - 1.0\n"
        "    return y\n"
        "\n"
        "@triton.jit\n"
        "def k(X, Y):\n"
        "    i = tl.program_id(0)\n"
        "    tl.store(Y + i, pick(tl.load(X + i)))\n";
    TCtx c;
    SpecArg args[2] = {A_PTR(DT_FP32), A_PTR(DT_FP32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    float X[4] = {1.5f, -1, 0, 3}, Y[4] = {0};
    ArgBits ab[2];
    ab[0].u = (uint64_t)(uintptr_t)X;
    ab[1].u = (uint64_t)(uintptr_t)Y;
    MemRegion mem[2] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 4, mem, 2, &e));
    int bad = 0;
    for (int i = 0; i < 4; i++) bad += Y[i] != (X[i] > 0 ? X[i] * 2 : X[i] - 1);
    CHECK_INT(0, bad);
    tctx_free(&c);
    static const char *incons =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def pick(x):\n"
        "    if x > 0:\n"
        "        return x\n"
        "    return 1\n"
        "\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    tl.store(X, pick(tl.load(X)))\n";
    SpecArg a1[1] = {A_PTR(DT_FP32)};
    EXPECT_ERR(incons, a1, TC_ERR_COMPILE, "k.py:6:5: error: Inconsistent return types");
}

/* ---- loops ---------------------------------------------------------------------------------- */

TEST(trace_for_loop_carried) {
    static const char *src =
        HDR
        "def k(X, Y, N):\n"
        "    acc = 0.0\n"
        "    cnt = 0\n"
        "    for i in range(N):\n"
        "        tmp = tl.load(X + i)\n"
        "        acc += tmp\n"
        "        cnt += 1\n"
        "    for j in range(10, 0, -3):\n"
        "        acc += j\n"
        "    tl.store(Y, acc + cnt)\n";
    TCtx c;
    SpecArg args[3] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_NUM(DT_I32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_INT(2, count_sub(c.ir.s, " for "));
    CHECK_CONTAINS(c.ir.s, "%");
    float X[7] = {1, 2, 3, 4, 5, 6, 7}, Y[1] = {0};
    ArgBits ab[3];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].u = (uint64_t)(uintptr_t)Y; ab[2].i = 7;
    MemRegion mem[2] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 2, &e));
    /* 28 + (10 + 7 + 4 + 1) + 7 */
    CHECK_NEAR(57.0, Y[0], 0, 0);
    tctx_free(&c);
    static const char *chg =
        HDR "def k(X, N):\n    acc = 0\n    for i in range(N):\n        acc += 1.5\n";
    SpecArg a2[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    EXPECT_ERR(chg, a2, TC_ERR_COMPILE,
               "k.py:7:5: error: Loop-carried variable acc has initial type i32 but is "
               "re-assigned to fp32 in loop! Please make sure that the type stays consistent.");
    static const char *after =
        HDR "def k(X, N):\n    for i in range(N):\n        t = 1\n    tl.store(X, t)\n";
    EXPECT_ERR(after, a2, TC_ERR_COMPILE, "k.py:8:17: error: NameError: name 't' is not defined");
    /* int64 induction variable from a large constexpr bound */
    static const char *big =
        HDR "def k(X, N):\n    for i in range(2**35, 2**35 + 10, N):\n        tl.store(X, i.to(tl.float32))\n";
    TCtx c2;
    IrFunc *f2 = tr(&c2, big, "k", a2);
    CHECK(f2 != NULL);
    if (!f2) fprintf(stderr, "%s\n", c2.e.msg);
    CHECK_CONTAINS(c2.ir.s, "i64");
    tctx_free(&c2);
}

TEST(trace_static_range) {
    static const char *src =
        HDR
        "def k(X, Y, BLOCK: tl.constexpr):\n"
        "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n"
        "    for s in tl.static_range(1, 4):\n"
        "        tl.static_assert(s >= 1)\n"
        "        acc += tl.load(X + s * BLOCK + tl.arange(0, BLOCK))\n"
        "    tl.store(Y + tl.arange(0, BLOCK), acc)\n";
    TCtx c;
    SpecArg args[3] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_C(4)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK(!strstr(c.ir.s, " for "));
    CHECK_INT(3, count_sub(c.ir.s, " = load "));
    float X[16], Y[4] = {0};
    for (int i = 0; i < 16; i++) X[i] = (float)i;
    ArgBits ab[2];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].u = (uint64_t)(uintptr_t)Y;
    MemRegion mem[2] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 2, &e));
    int bad = 0;
    for (int j = 0; j < 4; j++) bad += Y[j] != X[4 + j] + X[8 + j] + X[12 + j];
    CHECK_INT(0, bad);
    tctx_free(&c);
    static const char *rt = HDR "def k(X, N):\n    for s in tl.static_range(N):\n        pass\n";
    SpecArg a2[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    EXPECT_ERR(rt, a2, TC_ERR_COMPILE, "k.py:6:14: error:");
    EXPECT_ERR(rt, a2, TC_ERR_COMPILE, "is not a constexpr");
}

TEST(trace_while_loop) {
    static const char *src =
        HDR
        "def k(X, N):\n"
        "    i = 0\n"
        "    s = 0\n"
        "    while i < N:\n"
        "        s += i * i\n"
        "        i += 1\n"
        "    tl.store(X, s)\n";
    TCtx c;
    SpecArg args[2] = {A_PTR(DT_I32), A_NUM(DT_I32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_CONTAINS(c.ir.s, "while");
    CHECK_CONTAINS(c.ir.s, "condition");
    int32_t X[1] = {0};
    ArgBits ab[2];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].i = 10;
    MemRegion mem[1] = {region(X, sizeof X, "X")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 1, &e));
    CHECK_INT(285, X[0]);
    tctx_free(&c);
    static const char *wt = HDR "def k(X):\n    while True:\n        pass\n";
    SpecArg a1[1] = {A_PTR(DT_I32)};
    EXPECT_ERR(wt, a1, TC_ERR_COMPILE, "k.py:6:11: error: while-loop condition must be a run-time");
    static const char *we =
        HDR "def k(X, N):\n    i = 0\n    while i < N:\n        i += 1\n    else:\n        pass\n";
    SpecArg a2[2] = {A_PTR(DT_I32), A_NUM(DT_I32)};
    EXPECT_ERR(we, a2, TC_ERR_SYNTAX, "k.py:7:5: error: unsupported AST node type: While");
}

/* ---- rejections ----------------------------------------------------------------------------- */

TEST(trace_rejections) {
    SpecArg a[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    EXPECT_ERR(HDR "def k(X, N):\n    for i in range(N):\n        break\n", a, TC_ERR_SYNTAX,
               "k.py:7:9: error: unsupported AST node type: Break");
    EXPECT_ERR(HDR "def k(X, N):\n    for i in range(N):\n        continue\n", a, TC_ERR_SYNTAX,
               "k.py:7:9: error: unsupported AST node type: Continue");
    EXPECT_ERR(HDR "def k(X, N):\n    f = lambda x: x\n", a, TC_ERR_SYNTAX,
               "k.py:6:9: error: unsupported AST node type: Lambda");
    EXPECT_ERR(HDR "def k(X, N):\n    def g(x):\n        return x\n", a, TC_ERR_SYNTAX,
               "k.py:6:5: error: nested function definition is not supported");
    EXPECT_ERR(HDR "def k(X, N):\n    y = 0 < N < 5\n", a, TC_ERR_SYNTAX,
               "k.py:6:9: error: simultaneous multiple comparison is not supported");
    EXPECT_ERR(HDR "def k(X, N):\n    y = N @ N\n", a, TC_ERR_SYNTAX,
               "k.py:6:9: error: AST binary operator 'MatMult' is not implemented");
    EXPECT_ERR(HDR "def k(X, N):\n    for i in (1, 2):\n        pass\n", a, TC_ERR_SYNTAX,
               "k.py:6:5: error: Only `range` and `static_range` iterators are currently supported");
    EXPECT_ERR(HDR "def k(X, N):\n    for i in range(N):\n        pass\n    else:\n        pass\n", a,
               TC_ERR_SYNTAX, "k.py:6:5: error: unsupported AST node type: For");
    EXPECT_ERR(HDR "def k(X, N):\n    a = b = N\n", a, TC_ERR_SYNTAX,
               "k.py:6:5: error: simultaneous multiple assignment is not supported.");
    EXPECT_ERR(HDR "def k(X, N):\n    y = tl.arange(0, 4)[1]\n", a, TC_ERR_SYNTAX,
               "k.py:6:9: error: unsupported tensor index");
    EXPECT_ERR(HDR "def k(X, N):\n    y = N ** 2\n", a, TC_ERR_COMPILE,
               "k.py:6:9: error: unsupported operand type(s) for **");
    EXPECT_ERR(HDR "def k(X, N):\n    y = N in (1, 2)\n", a, TC_ERR_SYNTAX,
               "k.py:6:9: error: 'in' is not supported on tensors");
    EXPECT_ERR(HDR "def k(X, N):\n    y = [i for i in range(3)]\n", a, TC_ERR_SYNTAX,
               "k.py:6:9: error: unsupported AST node type: ListComp");
    EXPECT_ERR(HDR "def k(X, N):\n    with foo:\n        pass\n", a, TC_ERR_SYNTAX,
               "k.py:6:5: error: unsupported AST node type: With");
    EXPECT_ERR(HDR "def k(X, N, B: tl.constexpr):\n    B: tl.constexpr = 4\n", ((SpecArg[3]){A_PTR(DT_FP32), A_NUM(DT_I32), A_C(2)}),
               TC_ERR_COMPILE, "k.py:6:5: error: B is already defined. constexpr cannot be reassigned.");
    EXPECT_ERR(HDR "def k(X, N):\n    r = range(N)\n", a, TC_ERR_COMPILE,
               "k.py:6:9: error: range can only be used as the iterator of a `for` loop");
    EXPECT_ERR(HDR "def k(X, N):\n    X[0] = 1\n", a, TC_ERR_SYNTAX,
               "k.py:6:5: error: unsupported assignment target");
    EXPECT_ERR(HDR "def k(X, N):\n    a, b = N\n", a, TC_ERR_COMPILE,
               "k.py:6:5: error: cannot unpack non-iterable tensor object");
    EXPECT_ERR(HDR "def k(X, N):\n    a, b = (1, 2, 3)\n", a, TC_ERR_COMPILE,
               "too many values to unpack (expected 2)");
    EXPECT_ERR(HDR "def k(X, N):\n    y = (1, 2)[N]\n", a, TC_ERR_COMPILE,
               "k.py:6:16: error: tuple indices must be constexpr integers");
    EXPECT_ERR(HDR "def k(X, N):\n    y = 'abc'\n", a, TC_ERR_COMPILE,
               "k.py:6:5: error: cannot convert 'abc' of type <class 'str'> to tensor");
}

TEST(trace_params) {
    static const char *src = HDR "def k(X, N, eps=1e-5, B: tl.constexpr = 8):\n"
                                 "    tl.store(X + tl.arange(0, B), eps + N)\n";
    SpecArg a[4] = {A_PTR(DT_FP32), A_NUM(DT_I32), A_MISS(), A_MISS()};
    TCtx c;
    IrFunc *f = tr(&c, src, "k", a);
    CHECK(f != NULL);
    if (f) {
        CHECK_INT(2, f->nparams);
        CHECK_CONTAINS(c.ir.s, "<8x*fp32>");
    }
    tctx_free(&c);
    SpecArg m[4] = {A_PTR(DT_FP32), A_MISS(), A_MISS(), A_MISS()};
    EXPECT_ERR(src, m, TC_ERR_ARG, "k.py:5:10: error: missing a required argument: 'N'");
    /* int-equal-to-1 specialization arrives as a constexpr */
    SpecArg one[4] = {A_PTR(DT_FP32), A_C(1), A_MISS(), A_C(4)};
    TCtx c2;
    IrFunc *f2 = tr(&c2, src, "k", one);
    CHECK(f2 != NULL);
    if (f2) CHECK_INT(1, f2->nparams);
    tctx_free(&c2);
}

TEST(trace_call_binding_errors) {
    static const char *src =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def g(a, b):\n"
        "    return a + b\n"
        "\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    y = g(X)\n";
    SpecArg a[1] = {A_PTR(DT_FP32)};
    EXPECT_ERR(src, a, TC_ERR_COMPILE, "k.py:10:9: error: g() missing 1 required positional argument: 'b'");
    static const char *rec =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def g(a):\n"
        "    return g(a)\n"
        "\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    y = g(X)\n";
    EXPECT_ERR(rec, a, TC_ERR_LIMIT, "recursion between @jit functions is not supported (depth 64)");
    static const char *kw =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def g(a, b):\n"
        "    return a + b\n"
        "\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    y = g(X, 1, 2)\n";
    EXPECT_ERR(kw, a, TC_ERR_COMPILE, "g() takes 2 positional arguments but 3 were given");
}

TEST(trace_depth_limit) {
    Buf b = {0};
    buf_puts(&b, HDR "def k(X, N):\n    y = ");
    buf_puts(&b, "N");
    for (int i = 0; i < 700; i++) buf_puts(&b, " + N");
    buf_puts(&b, "\n");
    SpecArg a[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    TCtx c;
    IrFunc *f = tr(&c, b.s, "k", a);
    CHECK(f == NULL);
    CHECK_INT(TC_ERR_LIMIT, c.e.code);
    CHECK_CONTAINS(c.e.msg, "nesting too deep");
    tctx_free(&c);
    buf_free(&b);
}

TEST(trace_tuples_and_subscripts) {
    static const char *src =
        HDR
        "def k(X, Y, BM: tl.constexpr, BN: tl.constexpr):\n"
        "    rm = tl.arange(0, BM)\n"
        "    rn = tl.arange(0, BN)\n"
        "    offs = rm[:, None] * BN + rn[None, :]\n"
        "    x = tl.load(X + offs)\n"
        "    shp: tl.constexpr = x.shape\n"
        "    tl.static_assert(shp[0] == BM and shp[1] == BN)\n"
        "    a, b = x, x * 2.0\n"
        "    a, b = b, a\n"
        "    t = (a, b)\n"
        "    tl.store(Y + offs, t[0] - t[1])\n";
    SpecArg a[4] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_C(2), A_C(4)};
    TCtx c;
    IrFunc *f = tr(&c, src, "k", a);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_CONTAINS(c.ir.s, "<2x4x*fp32>");
    float X[8], Y[8];
    for (int i = 0; i < 8; i++) X[i] = (float)i + 1;
    ArgBits ab[2];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].u = (uint64_t)(uintptr_t)Y;
    MemRegion mem[2] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 2, &e));
    int bad = 0;
    for (int i = 0; i < 8; i++) bad += Y[i] != X[i];
    CHECK_INT(0, bad);
    tctx_free(&c);
}

TEST(trace_assign_materializes) {
    /* x = 0 is an i32 tensor, so x + x_fp16 ... here: `y = 3` then `y * v_fp16` promotes by the
     * i32 tensor (not weak): fp16 stays since fp16 kind is higher. `n: tl.constexpr = 3` keeps
     * a constexpr usable as a shape. */
    static const char *src =
        HDR
        "def k(X):\n"
        "    n: tl.constexpr = 4\n"
        "    r = tl.arange(0, n)\n"
        "    z = 0\n"
        "    tl.store(X + r, z + r)\n";
    SpecArg a[1] = {A_PTR(DT_I32)};
    TCtx c;
    IrFunc *f = tr(&c, src, "k", a);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_CONTAINS(c.ir.s, "<4xi32>");
    tctx_free(&c);
    /* a materialized value cannot be a shape */
    static const char *bad = HDR "def k(X):\n    n = 4\n    r = tl.arange(0, n)\n";
    TCtx c2;
    CHECK(tr(&c2, bad, "k", a) == NULL);
    CHECK_CONTAINS(c2.e.msg, "k.py:7:");
    tctx_free(&c2);
}

/* ---- kernel files --------------------------------------------------------------------------- */

static IrFunc *tr_file(TCtx *c, const char *path, const char *kname, const SpecArg *args) {
    memset(c, 0, sizeof *c);
    c->src = source_read_file(path, &c->e);
    arena_init(&c->a, &c->e);
    if (!c->src) { fprintf(stderr, "%s\n", c->e.msg); return NULL; }
    c->m = parse_module(c->src, &c->e);
    if (!c->m) { fprintf(stderr, "parse error: %s\n", c->e.msg); return NULL; }
    const Func *k = module_find(c->m, kname);
    if (!k) return NULL;
    c->f = trace_kernel(c->m, k, args, &c->a, &c->e, &c->out);
    if (c->f) ir_print(c->f, &c->ir);
    else fprintf(stderr, "%s\n", c->e.msg);
    return c->f;
}

static float half_to_float(uint16_t h) {
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                        : ldexpf((float)(m | 1024), e - 25);
    return s ? -v : v;
}

static uint16_t float_to_half_exact(float f) { /* f is a small integer or a multiple of 1/4 */
    if (f == 0) return 0;
    uint16_t s = f < 0 ? 0x8000 : 0;
    float a = fabsf(f);
    int e;
    float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    int mant = (int)(m * 2048.0f) - 1024;
    return (uint16_t)(s | ((e - 1 + 15) << 10) | mant);
}

static void attention_ref(const float *Q, const float *K, const float *V, float *O, int n, int d,
                          float scale, int causal) {
    for (int i = 0; i < n; i++) {
        double mx = -INFINITY, sum = 0;
        double *s = calloc((size_t)n, sizeof *s);
        for (int j = 0; j < n; j++) {
            double acc = 0;
            for (int k = 0; k < d; k++) acc += (double)Q[i * d + k] * K[j * d + k];
            s[j] = (causal && j > i) ? -INFINITY : acc * scale;
            if (s[j] > mx) mx = s[j];
        }
        for (int j = 0; j < n; j++) { s[j] = exp(s[j] - mx); sum += s[j]; }
        for (int k = 0; k < d; k++) {
            double acc = 0;
            for (int j = 0; j < n; j++) acc += s[j] * V[j * d + k];
            O[i * d + k] = (float)(acc / sum);
        }
        free(s);
    }
}

TEST(trace_attention_file) {
    enum { N = 64, D = 16 };
    for (int stage = 1; stage <= 3; stage += 2) {
        TCtx c;
        SpecArg args[11] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_PTR(DT_FP32), A_PTR(DT_FP32),
                            A_NUM(DT_FP32), A_NUM(DT_I32), A_C(N), A_C(D), A_C(16), A_C(16),
                            A_C(stage)};
        IrFunc *f = tr_file(&c, "tests/kernels/attention.py", "attn_fwd", args);
        CHECK(f != NULL);
        if (!f) { tctx_free(&c); return; }
        CHECK_INT(stage == 3 ? 2 : 1, count_sub(c.ir.s, " = for "));
        static float Q[N * D], K[N * D], V[N * D], O[N * D], R[N * D];
        for (int i = 0; i < N * D; i++) {
            Q[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
            K[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
            V[i] = (float)((i * 3) % 17) / 17.0f;
            O[i] = 0;
        }
        float scale = 0.5f;
        attention_ref(Q, K, V, R, N, D, scale, stage == 3);
        ArgBits ab[6];
        ab[0].u = (uint64_t)(uintptr_t)Q; ab[1].u = (uint64_t)(uintptr_t)K;
        ab[2].u = (uint64_t)(uintptr_t)V; ab[3].u = (uint64_t)(uintptr_t)O;
        ab[4].f = scale; ab[5].i = D;
        MemRegion mem[4] = {region(Q, sizeof Q, "Q"), region(K, sizeof K, "K"),
                            region(V, sizeof V, "V"), region(O, sizeof O, "Out")};
        Err e = {0};
        CHECK_INT(TC_OK, run1(f, ab, N / 16, mem, 4, &e));
        if (e.code) fprintf(stderr, "%s\n", e.msg);
        double maxerr = 0;
        for (int i = 0; i < N * D; i++) maxerr = fmax(maxerr, fabs(O[i] - R[i]));
        /* tl.dot on fp32 defaults to tf32 (10-bit mantissa inputs) */
        CHECK(maxerr < 5e-3);
        if (maxerr >= 5e-3) fprintf(stderr, "attention stage %d: max error %g\n", stage, maxerr);
        tctx_free(&c);
    }
}

TEST(trace_matmul_file) {
    enum { M = 40, N = 24, K = 36 };
    for (int act = 0; act < 2; act++) {
        TCtx c;
        SpecArg args[15] = {A_PTR(DT_FP16), A_PTR(DT_FP16), A_PTR(DT_FP16), A_NUM(DT_I32),
                            A_NUM(DT_I32), A_NUM(DT_I32), A_NUM(DT_I32), A_C(1), A_NUM(DT_I32),
                            A_C(1), A_NUM(DT_I32), A_C(1), A_C(16), A_C(16), A_C(16)};
        SpecArg all[17];
        memcpy(all, args, sizeof args);
        all[15] = A_C(2);
        all[16] = A_CV(cv_str(act ? "leaky_relu" : ""));
        IrFunc *f = tr_file(&c, "tests/kernels/matmul.py", "matmul_kernel", all);
        CHECK(f != NULL);
        if (!f) { tctx_free(&c); return; }
        CHECK_CONTAINS(c.ir.s, "dot");
        CHECK_INT(act, count_sub(c.ir.s, "where"));
        static uint16_t A[M * K], B[K * N], C[M * N];
        float ref[M * N];
        for (int i = 0; i < M * K; i++) A[i] = float_to_half_exact((float)((i * 7) % 5) - 2.0f);
        for (int i = 0; i < K * N; i++) B[i] = float_to_half_exact((float)((i * 3) % 7) - 3.0f);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float acc = 0;
                for (int k = 0; k < K; k++) acc += half_to_float(A[i * K + k]) * half_to_float(B[k * N + j]);
                ref[i * N + j] = act && acc < 0 ? 0.01f * acc : acc;
            }
        memset(C, 0, sizeof C);
        ArgBits ab[9];
        ab[0].u = (uint64_t)(uintptr_t)A; ab[1].u = (uint64_t)(uintptr_t)B; ab[2].u = (uint64_t)(uintptr_t)C;
        ab[3].i = M; ab[4].i = N; ab[5].i = K; ab[6].i = K; ab[7].i = N; ab[8].i = N;
        MemRegion mem[3] = {region(A, sizeof A, "a"), region(B, sizeof B, "b"), region(C, sizeof C, "c")};
        Err e = {0};
        int grid = ((M + 15) / 16) * ((N + 15) / 16);
        CHECK_INT(TC_OK, run1(f, ab, (uint32_t)grid, mem, 3, &e));
        if (e.code) fprintf(stderr, "%s\n", e.msg);
        int bad = 0;
        for (int i = 0; i < M * N; i++)
            if (fabsf(half_to_float(C[i]) - ref[i]) > 1e-3f * fabsf(ref[i]) + 1e-3f) bad++;
        CHECK_INT(0, bad);
        tctx_free(&c);
    }
}

/* ---- more control flow ------------------------------------------------------------------------- */

TEST(trace_if_inside_loop) {
    static const char *src =
        HDR
        "def k(X, Y, N):\n"
        "    pos = 0.0\n"
        "    neg = 0.0\n"
        "    n = 0\n"
        "    for i in tl.range(0, N, 1, num_stages=2, loop_unroll_factor=2, flatten=True):\n"
        "        x = tl.load(X + i)\n"
        "        if x > 0:\n"
        "            pos += x\n"
        "            n += 1\n"
        "        elif x < -1:\n"
        "            neg += x\n"
        "    tl.store(Y, pos)\n"
        "    tl.store(Y + 1, neg)\n"
        "    tl.store(Y + 2, n.to(tl.float32))\n";
    TCtx c;
    SpecArg args[3] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_NUM(DT_I32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    float X[9] = {1, -0.5f, -2, 3, 0, -4, 5, -1, 2}, Y[3] = {0};
    ArgBits ab[3];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].u = (uint64_t)(uintptr_t)Y; ab[2].i = 9;
    MemRegion mem[2] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 2, &e));
    CHECK_NEAR(11.0, Y[0], 0, 0);
    CHECK_NEAR(-6.0, Y[1], 0, 0);
    CHECK_NEAR(4.0, Y[2], 0, 0);
    tctx_free(&c);
    EXPECT_ERR(HDR "def k(X, N):\n    for i in tl.range(N, bogus=1):\n        pass\n", args,
               TC_ERR_COMPILE, "k.py:6:14: error: range() got an unexpected keyword argument 'bogus'");
}

TEST(trace_jit_function_values) {
    static const char *src =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def mul(a, b):\n"
        "    return a * b\n"
        "\n"
        "@triton.jit\n"
        "def apply(x, y, fn: tl.constexpr):\n"
        "    return fn(x, y)\n"
        "\n"
        "@triton.jit\n"
        "def pair(x, FLAG: tl.constexpr):\n"
        "    if FLAG:\n"
        "        return x, x + 1\n"
        "    return x + 2, x\n"
        "    x = x / 0\n"   /* dead: after a return */
        "\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    x = tl.load(X)\n"
        "    y = apply(x, 3.0, mul)\n"
        "    a, b = pair(y, True)\n"
        "    c, d = pair(y, FLAG=False)\n"
        "    tl.store(X, a + b * 10.0 + c * 100.0 + d * 1000.0)\n";
    TCtx c;
    SpecArg args[1] = {A_PTR(DT_FP32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    float X[1] = {2};
    ArgBits ab[1];
    ab[0].u = (uint64_t)(uintptr_t)X;
    MemRegion mem[1] = {region(X, sizeof X, "X")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 1, &e));
    /* y = 6: a=6, b=7, c=8, d=6 */
    CHECK_NEAR(6 + 70 + 800 + 6000, X[0], 0, 0);
    tctx_free(&c);
}

TEST(trace_poison_fall_off) {
    /* Triton's test_poison_return: a runtime if returns, the other path falls off the end */
    static const char *src =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def f(x, A: tl.constexpr):\n"
        "    if A:\n"
        "        if x > 0:\n"
        "            return x + 1\n"
        "    return x - 1\n"
        "\n"
        "@triton.jit\n"
        "def g(x):\n"
        "    if x > 0:\n"
        "        return x\n"
        "\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    i = tl.program_id(0)\n"
        "    x = tl.load(X + i)\n"
        "    tl.store(X + i, f(x, True))\n"
        "    y = g(x)\n";
    TCtx c;
    SpecArg args[1] = {A_PTR(DT_FP32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    float X[2] = {3, -3};
    ArgBits ab[1];
    ab[0].u = (uint64_t)(uintptr_t)X;
    MemRegion mem[1] = {region(X, sizeof X, "X")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 2, mem, 1, &e));
    CHECK_NEAR(4.0, X[0], 0, 0);
    CHECK_NEAR(-4.0, X[1], 0, 0);
    tctx_free(&c);
}

TEST(trace_spin_lock_while) {
    static const char *src =
        HDR
        "def k(Lock, Count, Out):\n"
        "    while tl.atomic_cas(Lock, 0, 1) == 1:\n"
        "        pass\n"
        "    c = tl.load(Count)\n"
        "    if c == 0:\n"
        "        tl.atomic_xchg(Count, 1)\n"
        "    tl.store(Out + tl.program_id(0), c)\n"
        "    tl.debug_barrier()\n"
        "    tl.atomic_xchg(Lock, 0)\n";
    TCtx c;
    SpecArg args[3] = {A_PTR(DT_I32), A_PTR(DT_I32), A_PTR(DT_I32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_CONTAINS(c.ir.s, "atomic_cas");
    CHECK_CONTAINS(c.ir.s, "while");
    int32_t lock[1] = {0}, count[1] = {0}, out[3] = {-1, -1, -1};
    ArgBits ab[3];
    ab[0].u = (uint64_t)(uintptr_t)lock; ab[1].u = (uint64_t)(uintptr_t)count;
    ab[2].u = (uint64_t)(uintptr_t)out;
    MemRegion mem[3] = {region(lock, sizeof lock, "Lock"), region(count, sizeof count, "Count"),
                        region(out, sizeof out, "Out")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 3, mem, 3, &e));
    CHECK_INT(0, out[0]);
    CHECK_INT(1, out[1]);
    CHECK_INT(1, out[2]);
    CHECK_INT(0, lock[0]);
    tctx_free(&c);
}

TEST(trace_static_print_and_assert) {
    static const char *src =
        HDR
        "def k(X, B: tl.constexpr):\n"
        "    tl.static_print('block', B)\n"
        "    x = tl.load(X)\n"
        "    assert x > 0, 'x must be positive'\n"
        "    tl.store(X, x)\n";
    TCtx c;
    SpecArg args[2] = {A_PTR(DT_FP32), A_C(8)};
    unsetenv("TRITON_DEBUG");
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    CHECK_CONTAINS(c.out.s, "block");
    CHECK_CONTAINS(c.out.s, "8");
    CHECK(c.ir.s && !strstr(c.ir.s, "assert"));
    tctx_free(&c);
    setenv("TRITON_DEBUG", "1", 1);
    f = tr(&c, src, "k", args);
    unsetenv("TRITON_DEBUG");
    CHECK(f != NULL);
    CHECK_CONTAINS(c.ir.s, "assert");
    CHECK_CONTAINS(c.ir.s, "x must be positive");
    tctx_free(&c);
}

TEST(trace_negative_constexpr_step_empty) {
    /* test_for_iv: a negative step with lo < hi gives an empty loop */
    static const char *src =
        HDR
        "def k(X, STEP: tl.constexpr):\n"
        "    acc = 0\n"
        "    acc = acc.to(tl.int64)\n"
        "    for i in range(2**35, 2**35 + 20, STEP):\n"
        "        acc += i\n"
        "    tl.store(X, acc)\n";
    for (int step = -2; step <= 3; step++) {
        if (step == 0) continue;
        TCtx c;
        SpecArg args[2] = {A_PTR(DT_I64), A_C(step)};
        IrFunc *f = tr(&c, src, "k", args);
        CHECK(f != NULL);
        if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
        int64_t X[1] = {-1};
        ArgBits ab[1];
        ab[0].u = (uint64_t)(uintptr_t)X;
        MemRegion mem[1] = {region(X, sizeof X, "X")};
        Err e = {0};
        CHECK_INT(TC_OK, run1(f, ab, 1, mem, 1, &e));
        int64_t want = 0;
        int64_t lo = (int64_t)1 << 35, hi = lo + 20;
        if (step > 0)
            for (int64_t i = lo; i < hi; i += step) want += i;
        CHECK_INT(want, X[0]);
        tctx_free(&c);
    }
    /* and a negative step counting down */
    static const char *down =
        HDR "def k(X):\n    acc = 0\n    for i in range(10, -5, -4):\n        acc = acc * 100 + i\n    tl.store(X, acc)\n";
    TCtx c;
    SpecArg a1[1] = {A_PTR(DT_I32)};
    IrFunc *f = tr(&c, down, "k", a1);
    CHECK(f != NULL);
    if (f) {
        int32_t X[1] = {0};
        ArgBits ab[1];
        ab[0].u = (uint64_t)(uintptr_t)X;
        MemRegion mem[1] = {region(X, sizeof X, "X")};
        Err e = {0};
        CHECK_INT(TC_OK, run1(f, ab, 1, mem, 1, &e));
        /* 10, 6, 2, -2 */
        CHECK_INT(((10 * 100 + 6) * 100 + 2) * 100 - 2, X[0]);
    }
    tctx_free(&c);
}

TEST(trace_kernel_return_merge) {
    /* the returning arm's values never reach the code after the if */
    static const char *src =
        HDR
        "def k(X, N):\n"
        "    i = tl.program_id(0)\n"
        "    y = 1.0\n"
        "    if i >= N:\n"
        "        y = 5\n"
        "        return\n"
        "    else:\n"
        "        y = y + i\n"
        "        z = 2.0\n"
        "    if i == 0:\n"
        "        y = y * 10.0\n"
        "    else:\n"
        "        y = y * 100.0\n"
        "        return\n"
        "    tl.store(X + i, y)\n";
    TCtx c;
    SpecArg args[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_INT(2, count_sub(c.ir.s, "return"));
    float X[4] = {-1, -1, -1, -1};
    ArgBits ab[2];
    ab[0].u = (uint64_t)(uintptr_t)X;
    ab[1].i = 2;
    MemRegion mem[1] = {region(X, sizeof X, "X")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 4, mem, 1, &e));
    CHECK_NEAR(10.0, X[0], 0, 0);
    CHECK_NEAR(-1.0, X[1], 0, 0);
    CHECK_NEAR(-1.0, X[2], 0, 0);
    CHECK_NEAR(-1.0, X[3], 0, 0);
    tctx_free(&c);
}

TEST(trace_transpose_and_methods) {
    static const char *src =
        HDR
        "def k(X, Y, B: tl.constexpr):\n"
        "    r = tl.arange(0, B)\n"
        "    offs = r[:, None] * B + r[None, :]\n"
        "    x = tl.load(X + offs)\n"
        "    y = x.T + x.to(tl.float32).sum(axis=1)[:, None] * 0.0\n"
        "    tl.store(Y + offs, y)\n";
    TCtx c;
    SpecArg args[3] = {A_PTR(DT_FP32), A_PTR(DT_FP32), A_C(4)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    CHECK_CONTAINS(c.ir.s, "permute");
    float X[16], Y[16];
    for (int i = 0; i < 16; i++) X[i] = (float)i;
    ArgBits ab[2];
    ab[0].u = (uint64_t)(uintptr_t)X; ab[1].u = (uint64_t)(uintptr_t)Y;
    MemRegion mem[2] = {region(X, sizeof X, "X"), region(Y, sizeof Y, "Y")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 1, mem, 2, &e));
    int bad = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) bad += Y[i * 4 + j] != X[j * 4 + i];
    CHECK_INT(0, bad);
    tctx_free(&c);
}

TEST(trace_callee_void_returns) {
    static const char *src =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def put(X, i, v):\n"
        "    if v > 0:\n"
        "        tl.store(X + i, v)\n"
        "        return\n"
        "    tl.store(X + i, -v)\n"
        "    return\n"
        "\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    i = tl.program_id(0)\n"
        "    put(X, i, tl.load(X + i))\n";
    TCtx c;
    SpecArg args[1] = {A_PTR(DT_FP32)};
    IrFunc *f = tr(&c, src, "k", args);
    CHECK(f != NULL);
    if (!f) { fprintf(stderr, "%s\n", c.e.msg); tctx_free(&c); return; }
    float X[3] = {2, -3, 0};
    ArgBits ab[1];
    ab[0].u = (uint64_t)(uintptr_t)X;
    MemRegion mem[1] = {region(X, sizeof X, "X")};
    Err e = {0};
    CHECK_INT(TC_OK, run1(f, ab, 3, mem, 1, &e));
    CHECK_NEAR(2.0, X[0], 0, 0);
    CHECK_NEAR(3.0, X[1], 0, 0);
    CHECK_NEAR(0.0, X[2], 0, 0);
    tctx_free(&c);
    /* a void return on one path and a value on the other */
    static const char *mixed =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def g(v):\n"
        "    if v > 0:\n"
        "        return\n"
        "    return v\n"
        "\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    y = g(tl.load(X))\n";
    EXPECT_ERR(mixed, args, TC_ERR_COMPILE, "k.py:6:5: error: Inconsistent return types");
}

TEST(trace_more_errors) {
    SpecArg a[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    EXPECT_ERR(HDR "def k(X, N):\n    for i in tl.static_range(100000):\n        pass\n", a,
               TC_ERR_LIMIT, "k.py:6:5: error: tl.static_range unrolls more than 65536 iterations");
    EXPECT_ERR(HDR "def k(X, N):\n    x = tl.load(X + tl.arange(0, 4))\n    if x > 0:\n        pass\n", a,
               TC_ERR_COMPILE, "k.py:7:8: error: Boolean value of Tensor with more than one value is ambiguous");
    EXPECT_ERR(HDR "def k(X, N):\n    y = N if 2.5 else N\n", a, TC_ERR_COMPILE,
               "k.py:6:14: error: `if` conditionals can only accept values of type");
    EXPECT_ERR(HDR "def k(X, N):\n    y = N.nonexistent_method(3)\n", a, TC_ERR_COMPILE, "k.py:6:9: error:");
    EXPECT_ERR(HDR "def k(X, N):\n    y = tl.float32.bogus\n", a, TC_ERR_COMPILE,
               "k.py:6:9: error: AttributeError: 'dtype' object has no attribute 'bogus'");
    EXPECT_ERR(HDR "def k(X, N):\n    y = (1, 2)[5]\n", a, TC_ERR_COMPILE,
               "k.py:6:16: error: IndexError: tuple index out of range");
    EXPECT_ERR(HDR "def k(X, N):\n    y = 'a' < 1\n", a, TC_ERR_COMPILE,
               "k.py:6:9: error: '<' not supported between instances of 'str' and 'int'");
    EXPECT_ERR(HDR "def k(X, N):\n    y = X()\n", a, TC_ERR_COMPILE,
               "k.py:6:9: error: 'tensor' object is not callable");
    EXPECT_ERR(HDR "def k(X, N):\n    y = tl\n    z = y(1)\n", a, TC_ERR_COMPILE,
               "k.py:7:9: error: 'module' object is not callable");
    static const char *nested =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def g(x):\n"
        "    if x > 0:\n"
        "        if x > 1:\n"
        "            return x\n"
        "        y = x + 1.0\n"
        "    return x * 3.0\n"
        "\n"
        "@triton.jit\n"
        "def k(X, N):\n"
        "    tl.store(X, g(tl.load(X)))\n";
    {
        TCtx c;
        IrFunc *f = tr(&c, nested, "k", a);
        CHECK(f != NULL);
        if (f) {
            float X[1];
            ArgBits ab[2];
            ab[0].u = (uint64_t)(uintptr_t)X;
            ab[1].i = 0;
            MemRegion mem[1] = {region(X, sizeof X, "X")};
            float in[4] = {2, 0.5f, -1, 0}, want[4] = {2, 1.5f, -3, 0};
            for (int i = 0; i < 4; i++) {
                X[0] = in[i];
                Err e = {0};
                CHECK_INT(TC_OK, run1(f, ab, 1, mem, 1, &e));
                CHECK_NEAR(want[i], X[0], 0, 0);
            }
        } else fprintf(stderr, "%s\n", c.e.msg);
        tctx_free(&c);
    }
    static const char *inloop =
        "import triton\nimport triton.language as tl\n\n"
        "@triton.jit\n"
        "def g(x, n):\n"
        "    for i in range(n):\n"
        "        if x > i:\n"
        "            return x\n"
        "    return x * 3.0\n"
        "\n"
        "@triton.jit\n"
        "def k(X, N):\n"
        "    tl.store(X, g(tl.load(X), N))\n";
    EXPECT_ERR(inloop, a, TC_ERR_SYNTAX, "k.py:8:13: error: Cannot have `return` statements inside `while` or `for`");
    /* a constexpr parameter given a run-time value */
    SpecArg rt[2] = {A_PTR(DT_FP32), A_NUM(DT_I32)};
    EXPECT_ERR(HDR "def k(X, B: tl.constexpr):\n    pass\n", rt, TC_ERR_ARG,
               "k.py:5:10: error: argument 'B' is a tl.constexpr and needs a compile-time value");
}

TEST(trace_work_limit) {
    /* f0 .. f30, each calling the one below twice: 2^30 inlined calls at depth 31 */
    Buf b = {0};
    buf_puts(&b, "import triton\nimport triton.language as tl\n\n@triton.jit\ndef f0(x):\n    return x + 1\n\n");
    for (int i = 1; i <= 30; i++)
        buf_printf(&b, "@triton.jit\ndef f%d(x):\n    return f%d(x) + f%d(x)\n\n", i, i - 1, i - 1);
    buf_puts(&b, "@triton.jit\ndef k(X):\n    tl.store(X, f30(tl.load(X)))\n");
    SpecArg a[1] = {A_PTR(DT_FP32)};
    TCtx c;
    CHECK(tr(&c, b.s, "k", a) == NULL);
    CHECK_INT(TC_ERR_LIMIT, c.e.code);
    CHECK_CONTAINS(c.e.msg, "kernel too large to trace");
    tctx_free(&c);
    buf_free(&b);
    static const char *unroll =
        HDR "def k(X):\n    acc = 0.0\n    for i in tl.static_range(65536):\n"
        "        for j in tl.static_range(65536):\n            acc += 1.0\n    tl.store(X, acc)\n";
    EXPECT_ERR(unroll, a, TC_ERR_LIMIT, "kernel too large to trace");
}
