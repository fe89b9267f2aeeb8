/* test_kernels_misc.c — kernel conformance tests, part 4: fp64, float %, unsigned // and %,
 * int64 wrap-around, logical and/or, builtin max/min, scalar where, hints, tl.full with a
 * run-time value, masked scalar loads; the API around kernels (load_file, kernel and
 * parameter listing, grid callbacks); more front-end errors. */
#include "test_kernels_util.h"

#define KT_SETUP(file, name) \
    tc_context *ctx = kt_ctx(); \
    tc_module *m = KT_MODULE(ctx, file); \
    tc_kernel *k = KT_KERNEL(ctx, m, name)
#define KT_TEARDOWN() do { tc_module_free(m); tc_context_free(ctx); } while (0)

TEST(kern_fp64) {
    KT_SETUP("misc.py", "fp64_kernel");
    enum { B = 32 };
    double x[B], y[B], o[3 * B], e[3 * B];
    kt_seed(7000);
    for (int i = 0; i < B; i++) { x[i] = kt_frand(-5, 5) + kt_frand(0, 1) * 1e-9; y[i] = kt_frand(0.5f, 3); }
    for (int i = 0; i < B; i++) {
        volatile double p = x[i] * y[i];
        e[3 * i] = p + 1.0;
        e[3 * i + 1] = exp(x[i]);
        e[3 * i + 2] = x[i] / y[i];
    }
    tc_tensor *tx = kt_t1(ctx, TC_FP64, B, x), *ty = kt_t1(ctx, TC_FP64, B, y),
              *to = kt_t1(ctx, TC_FP64, 3 * B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_CHECK_ARR(e, o, 3 * B, 1e-14, 0); /* fp64 stays fp64 (fp32 would be off by ~1e-7) */
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_float_mod_is_fmod) {
    KT_SETUP("misc.py", "fmod_kernel");
    enum { B = 32 };
    float x[B], y[B], o[B];
    double e[B], g[B];
    kt_seed(7100);
    for (int i = 0; i < B; i++) {
        x[i] = kt_frand(-20, 20);
        do y[i] = kt_frand(-6, 6); while (fabsf(y[i]) < 0.5f);
    }
    x[0] = -7.0f; y[0] = 2.0f; x[1] = 7.5f; y[1] = -2.0f;
    for (int i = 0; i < B; i++) e[i] = fmodf(x[i], y[i]);
    tc_tensor *tx = kt_t1(ctx, TC_FP32, B, x), *ty = kt_t1(ctx, TC_FP32, B, y),
              *to = kt_t1(ctx, TC_FP32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, B);
        KT_CHECK_ARR(e, g, B, 0, 0);
        CHECK_NEAR(-1.0, o[0], 0, 0); /* sign follows the dividend */
        CHECK_NEAR(1.5, o[1], 0, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_unsigned_divmod) {
    KT_SETUP("misc.py", "unsigned_divmod_kernel");
    enum { B = 32 };
    uint32_t x[B], y[B], q[B], r[B];
    int64_t e[B], g[B];
    kt_seed(7200);
    for (int i = 0; i < B; i++) { x[i] = (kt_rand() << 8) ^ kt_rand(); y[i] = 1 + kt_rand() % 100000; }
    x[0] = 0xfffffff9u; y[0] = 2; /* as int32 this would be -7 // 2 */
    tc_tensor *tx = kt_t1(ctx, TC_U32, B, x), *ty = kt_t1(ctx, TC_U32, B, y),
              *tq = kt_t1(ctx, TC_U32, B, NULL), *tr = kt_t1(ctx, TC_U32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"q_ptr", tc_tens(tq)}, {"r_ptr", tc_tens(tr)}, {"BLOCK", tc_int(B)})) {
        kt_get(tq, q); kt_get(tr, r);
        for (int i = 0; i < B; i++) e[i] = x[i] / y[i];
        KT_WIDEN(g, q, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) e[i] = x[i] % y[i];
        KT_WIDEN(g, r, B);
        KT_CHECK_IARR(e, g, B);
        CHECK_INT(0x7ffffffcu, q[0]);
        CHECK_INT(1, r[0]);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(tq); tc_tensor_free(tr);
    KT_TEARDOWN();
}

TEST(kern_int64_wraps) {
    KT_SETUP("misc.py", "int64_wrap_kernel");
    enum { B = 16 };
    int64_t x[B], o[B], e[B];
    kt_seed(7300);
    for (int i = 0; i < B; i++) x[i] = (int64_t)(((uint64_t)kt_rand() << 40) ^ ((uint64_t)kt_rand() << 16) ^ kt_rand());
    x[0] = -1; x[1] = INT64_MAX;
    for (int i = 0; i < B; i++)
        e[i] = (int64_t)((uint64_t)x[i] * 6364136223846793005ULL + 1442695040888963407ULL);
    tc_tensor *tx = kt_t1(ctx, TC_I64, B, x), *to = kt_t1(ctx, TC_I64, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_CHECK_IARR(e, o, B);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_logical_ops_builtin_minmax) {
    KT_SETUP("misc.py", "logic_kernel");
    enum { B = 32 };
    int32_t x[B], y[B], o[6 * B];
    int64_t e[6 * B], g[6 * B];
    kt_seed(7400);
    for (int i = 0; i < B; i++) { x[i] = kt_irand(-5, 5); y[i] = kt_irand(-5, 5); }
    for (int i = 0; i < B; i++) {
        e[6 * i] = x[i] > 0 && y[i] > 0;
        e[6 * i + 1] = x[i] > 0 || y[i] > 0;
        e[6 * i + 2] = x[i] > y[i] ? x[i] : y[i];
        e[6 * i + 3] = x[i] < y[i] ? x[i] : y[i];
        e[6 * i + 4] = -x[i];
        e[6 * i + 5] = (x[i] > y[i]) ^ (y[i] > 0);
    }
    tc_tensor *tx = kt_t1(ctx, TC_I32, B, x), *ty = kt_t1(ctx, TC_I32, B, y),
              *to = kt_t1(ctx, TC_I32, 6 * B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, 6 * B);
        KT_CHECK_IARR(e, g, 6 * B);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_scalar_where_and_hints) {
    KT_SETUP("misc.py", "scalar_where_kernel");
    enum { B = 16 };
    float x[B], y[B], o[2 * B];
    double e[2 * B], g[2 * B];
    for (int i = 0; i < B; i++) { x[i] = i + 0.5f; y[i] = -i - 0.25f; e[i] = x[i]; e[B + i] = y[i]; }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, B, x), *ty = kt_t1(ctx, TC_FP32, B, y),
              *to = kt_t1(ctx, TC_FP32, 2 * B, NULL);
    if (k && KT_RUN(ctx, k, 2, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, 2 * B);
        KT_CHECK_ARR(e, g, 2 * B, 0, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_full_runtime_value) {
    KT_SETUP("misc.py", "full_runtime_kernel");
    enum { B = 16 };
    int32_t v = -41, o[2 * B];
    int64_t e[2 * B], g[2 * B];
    for (int i = 0; i < B; i++) { e[i] = v + i; e[B + i] = 2 + B * (B - 1) / 2; }
    tc_tensor *tv = kt_t1(ctx, TC_I32, 1, &v), *to = kt_t1(ctx, TC_I32, 2 * B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"v_ptr", tc_tens(tv)}, {"out_ptr", tc_tens(to)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, 2 * B);
        KT_CHECK_IARR(e, g, 2 * B);
    }
    tc_tensor_free(tv); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_masked_scalar_load) {
    KT_SETUP("misc.py", "scalar_load_kernel");
    int32_t x[5] = {10, 20, 30, 40, 50}, o[8];
    int64_t e[8] = {10, 20, 30, 40, 50, -1, -1, -1}, g[8];
    tc_tensor *tx = kt_t1(ctx, TC_I32, 5, x), *to = kt_t1(ctx, TC_I32, 8, NULL);
    /* programs 5..7 are masked off: their addresses lie past the end of x and are never read */
    if (k && KT_RUN(ctx, k, 8, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"n", tc_int(5)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, 8);
        KT_CHECK_IARR(e, g, 8);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* ---- the API around kernels ------------------------------------------------------------------- */

static tc_status kt_grid_cdiv(const tc_args *meta, uint32_t grid[3], void *user) {
    tc_value n, b;
    tc_status s = tc_args_get(meta, "n_elements", &n);
    if (s != TC_OK) return s;
    s = tc_args_get(meta, "BLOCK_SIZE", &b);
    if (s != TC_OK) return s;
    if (n.kind != TC_VAL_INT || b.kind != TC_VAL_INT) return TC_ERR_ARG;
    grid[0] = (uint32_t)((n.u.i + b.u.i - 1) / b.u.i);
    grid[1] = grid[2] = 1;
    (*(int *)user)++;
    return TC_OK;
}

TEST(kern_api_load_file_params_grid_fn) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    CHECK_INT(TC_OK, tc_module_load_file(ctx, "tests/kernels/vector_add.py", &m));
    if (!m) { tc_context_free(ctx); return; }
    int nk = tc_module_kernel_count(m), found = 0;
    for (int i = 0; i < nk; i++)
        if (!strcmp(tc_module_kernel_name(m, i), "add_kernel")) found = 1;
    CHECK(nk >= 4);
    CHECK(found);
    tc_kernel *k = KT_KERNEL(ctx, m, "add_kernel");
    if (k) {
        CHECK_INT(5, tc_kernel_param_count(k));
        int ce = -1;
        CHECK_STR("x_ptr", tc_kernel_param_name(k, 0, &ce));
        CHECK_INT(0, ce);
        CHECK_STR("BLOCK_SIZE", tc_kernel_param_name(k, 4, &ce));
        CHECK_INT(1, ce);
        /* the grid from a callback that sees the arguments (Triton's lambda META: ...) */
        enum { N = 5000 };
        static float x[N], y[N], o[N];
        static double e[N], g[N];
        kt_seed(7500);
        for (int i = 0; i < N; i++) { x[i] = kt_frand(-1, 1); y[i] = kt_frand(-1, 1); float s = x[i] + y[i]; e[i] = s; }
        tc_tensor *tx = kt_t1(ctx, TC_FP32, N, x), *ty = kt_t1(ctx, TC_FP32, N, y),
                  *to = kt_t1(ctx, TC_FP32, N, NULL);
        int calls = 0;
        tc_launch_opts op = tc_launch_defaults();
        op.grid_fn = kt_grid_cdiv;
        op.grid_user = &calls;
        tc_status s = kt_launch_opts(ctx, k, &op,
                                     KT_ARGS({"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                                             {"output_ptr", tc_tens(to)}, {"n_elements", tc_int(N)},
                                             {"BLOCK_SIZE", tc_int(512)}));
        CHECK_INT(TC_OK, s);
        CHECK_INT(1, calls);
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_ARR(e, g, N, 0, 0); /* 10 programs cover all 5000 elements */
        /* a missing argument is an argument error, not a crash */
        s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"BLOCK_SIZE", tc_int(512)}));
        CHECK_INT(TC_ERR_ARG, s);
        tc_tensor_free(tx); tc_tensor_free(ty); tc_tensor_free(to);
    }
    tc_kernel *none = NULL;
    CHECK_INT(TC_ERR_NOT_FOUND, tc_module_kernel(m, "no_such_kernel", &none));
    tc_module_free(m);
    tc_context_free(ctx);
}

/* ---- more front-end errors ----------------------------------------------------------------------- */

/* want | KT_OR_COMPILE: want or TC_ERR_COMPILE (a rejected construct may be found by the
 * parser or by the tracer). */
#define KT_OR_COMPILE 0x100
static void kt_expect_err2_(const char *src, const char *kname, const KtArg *args,
                            int want, const char *msg, const char *at, const char *cf,
                            int cl) {
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    tc_status s = tc_module_load_string(ctx, "err2.py", src, &m);
    if (s == TC_OK) s = tc_module_kernel(m, kname, &k);
    tc_tensor *out = kt_t1(ctx, TC_FP32, 16, NULL);
    if (s == TC_OK) {
        tc_args *a = NULL;
        s = tc_args_new(k, &a);
        if (s == TC_OK) s = tc_args_set(a, "out_ptr", tc_tens(out));
        for (const KtArg *q = args; s == TC_OK && q->name; q++) s = tc_args_set(a, q->name, q->v);
        tc_launch_opts o = tc_launch_defaults();
        o.grid[0] = 1;
        if (s == TC_OK) s = tc_launch(k, a, &o);
        tc_args_free(a);
    }
    tc_tensor_free(out);
    int base = want & ~KT_OR_COMPILE;
    int okst = (int)s == base || ((want & KT_OR_COMPILE) && s == TC_ERR_COMPILE);
    if (okst) test_passed++;
    else test_fail(cf, cl, "expected %s, got %s: %s", tc_status_name((tc_status)base),
                   tc_status_name(s), tc_errmsg(ctx));
    const char *em = tc_errmsg(ctx);
    if (em && strstr(em, msg)) test_passed++;
    else test_fail(cf, cl, "message does not contain \"%s\":\n%s", msg, em ? em : "(null)");
    const char *p = strstr(src, at);
    int line = 1, col = 1;
    const char *ls = src;
    for (const char *q = src; p && q < p; q++) if (*q == '\n') { line++; ls = q + 1; }
    if (p) col = (int)(p - ls) + 1;
    tc_srcloc loc = tc_errloc(ctx);
    if (loc.line == line && loc.col == col) test_passed++;
    else test_fail(cf, cl, "location: expected %d:%d, got %d:%d\n%s", line, col, loc.line,
                   loc.col, em ? em : "");
    tc_module_free(m);
    tc_context_free(ctx);
}
#define KT_EXPECT_ERR2(src, kname, want, msg, at, ...) \
    kt_expect_err2_((src), (kname), KT_ARGS(__VA_ARGS__), (want), (msg), (at), __FILE__, __LINE__)

#define KT_HDR "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"

TEST(kern_err_more) {
    KT_EXPECT_ERR2(KT_HDR "def k(out_ptr, BLOCK: tl.constexpr):\n"
                          "    tl.static_assert(BLOCK == 8, \"BLOCK must be 8\")\n"
                          "    tl.store(out_ptr, BLOCK)\n",
                   "k", TC_ERR_COMPILE, "BLOCK must be 8", "tl.static_assert",
                   {"BLOCK", tc_int(16)});
    KT_EXPECT_ERR2(KT_HDR "def k(out_ptr):\n"
                          "    tl.store(out_ptr, tl.program_id(3))\n",
                   "k", TC_ERR_COMPILE, "program_id axis must be 0, 1, or 2 but got 3",
                   "tl.program_id(3)", {NULL, {TC_VAL_NONE, {0}}});
    KT_EXPECT_ERR2(KT_HDR "def k(out_ptr):\n"
                          "    tl.store(out_ptr, undefined_name + 1)\n",
                   "k", TC_ERR_COMPILE, "is not defined", "undefined_name",
                   {NULL, {TC_VAL_NONE, {0}}});
    KT_EXPECT_ERR2(KT_HDR "def k(out_ptr):\n"
                          "    acc = 0\n"
                          "    for i in tl.arange(0, 4):\n"
                          "        acc += i\n"
                          "    tl.store(out_ptr, acc)\n",
                   "k", TC_ERR_SYNTAX | KT_OR_COMPILE,
                   "Only `range` and `static_range` iterators are currently supported",
                   "for i in", {NULL, {TC_VAL_NONE, {0}}});
    KT_EXPECT_ERR2(KT_HDR "def k(out_ptr):\n"
                          "    x = tl.zeros((12,), dtype=tl.float32)\n"
                          "    tl.store(out_ptr, tl.sum(x, axis=0))\n",
                   "k", TC_ERR_COMPILE, "must be a power of 2", "tl.zeros",
                   {NULL, {TC_VAL_NONE, {0}}});
}

/* ---- loops and calls ported from test_core.py ------------------------------------------------- */

TEST(kern_for_iv_int64_and_negative_steps) {
    KT_SETUP("loops.py", "for_iv_kernel");
    const int64_t base = (int64_t)1 << 35;
    static const struct { int lo, hi, step; } cases[] = {
        {0, 20, 1}, {0, 20, 2}, {0, 20, 3}, {20, 0, -1}, {20, 0, -2}, {20, 0, -3}, {0, 20, -1},
    };
    for (int c = 0; k && c < COUNT_OF_CASES(cases); c++) {
        int64_t lo = base + cases[c].lo, hi = base + cases[c].hi, st = cases[c].step, e = 0, o = -1;
        if (st > 0) for (int64_t i = lo; i < hi; i += st) e += i;
        else for (int64_t i = lo; i > hi; i += st) e += i;
        tc_tensor *to = kt_t1(ctx, TC_I64, 1, NULL);
        if (KT_RUN(ctx, k, 1, 1, 1, {"out_ptr", tc_tens(to)}, {"LO", tc_int(lo)}, {"HI", tc_int(hi)},
                   {"STEP", tc_int(st)})) {
            kt_get(to, &o);
            CHECK_INT(e, o);
        }
        tc_tensor_free(to);
    }
    KT_TEARDOWN();
}

TEST(kern_nested_while) {
    KT_SETUP("loops.py", "nested_while_kernel");
    int32_t counts[] = {4, 5, 0};
    float expect[] = {20, 30, 0};
    for (int c = 0; k && c < 3; c++) {
        float d = 0;
        tc_tensor *td = kt_t1(ctx, TC_FP32, 1, &d), *tc = kt_t1(ctx, TC_I32, 1, &counts[c]);
        if (KT_RUN(ctx, k, 1, 1, 1, {"data", tc_tens(td)}, {"countPtr", tc_tens(tc)})) {
            kt_get(td, &d);
            CHECK_NEAR(expect[c], d, 0, 0);
        }
        tc_tensor_free(td); tc_tensor_free(tc);
    }
    KT_TEARDOWN();
}

TEST(kern_temp_var_in_loop) {
    KT_SETUP("loops.py", "temp_var_in_loop_kernel");
    int32_t o[16];
    int64_t e[16], g[16];
    for (int i = 0; i < 16; i++) e[i] = 3 + 2 * (10 - 1);
    tc_tensor *to = kt_t1(ctx, TC_I32, 16, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"Z", tc_tens(to)}, {"N", tc_int(10)}, {"BLOCK", tc_int(16)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, 16);
        KT_CHECK_IARR(e, g, 16);
    }
    tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_calls_constexpr_if_return_defaults) {
    KT_SETUP("loops.py", "calls_kernel");
    enum { B = 16 };
    int32_t x[B], oi[B], od[3 * B];
    float of[B];
    int64_t e[3 * B], g[3 * B];
    double ef[B], gf[B];
    for (int i = 0; i < B; i++) x[i] = 3 * i - 20;
    tc_tensor *tx = kt_t1(ctx, TC_I32, B, x), *tf = kt_t1(ctx, TC_FP32, B, NULL),
              *ti = kt_t1(ctx, TC_I32, B, NULL), *td = kt_t1(ctx, TC_I32, 3 * B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"f_ptr", tc_tens(tf)},
                    {"i_ptr", tc_tens(ti)}, {"d_ptr", tc_tens(td)}, {"BLOCK", tc_int(B)})) {
        kt_get(tf, of); kt_get(ti, oi); kt_get(td, od);
        for (int i = 0; i < B; i++) ef[i] = x[i] * 0.5;
        KT_WIDEN(gf, of, B);
        KT_CHECK_ARR(ef, gf, B, 0, 0);
        for (int i = 0; i < B; i++) e[i] = 2 * x[i];
        KT_WIDEN(g, oi, B);
        KT_CHECK_IARR(e, g, B);
        for (int i = 0; i < B; i++) { e[i] = 3 * x[i] + 1; e[B + i] = 5 * x[i] + 1; e[2 * B + i] = 2 * x[i] - 7; }
        KT_WIDEN(g, od, 3 * B);
        KT_CHECK_IARR(e, g, 3 * B);
    }
    tc_tensor_free(tx); tc_tensor_free(tf); tc_tensor_free(ti); tc_tensor_free(td);
    KT_TEARDOWN();
}

typedef struct { char buf[2048]; size_t len; } KtOut;
static void kt_out_cb(const char *text, void *user) {
    KtOut *p = user;
    size_t n = strlen(text);
    if (p->len + n >= sizeof p->buf) n = sizeof p->buf - 1 - p->len;
    memcpy(p->buf + p->len, text, n);
    p->len += n;
    p->buf[p->len] = 0;
}

TEST(kern_static_print_and_print) {
    KT_SETUP("loops.py", "static_print_kernel");
    KtOut out = {{0}, 0};
    tc_set_print(ctx, kt_out_cb, &out);
    int32_t o[3];
    tc_tensor *to = kt_t1(ctx, TC_I32, 3, NULL);
    if (k && KT_RUN(ctx, k, 3, 1, 1, {"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(16)})) {
        kt_get(to, o);
        CHECK_INT(2, o[2]);
        CHECK_CONTAINS(out.buf, "static BLOCK is");
        CHECK_CONTAINS(out.buf, "16");
        CHECK_CONTAINS(out.buf, "pid");
        /* the static print happens once, at compile time, not once per program */
        const char *p = strstr(out.buf, "static BLOCK is");
        CHECK(p && !strstr(p + 1, "static BLOCK is"));
    }
    tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_masked_load_other_broadcast) {
    KT_SETUP("loops.py", "masked_other_kernel");
    enum { B = 16, N = 10 };
    float x[N], o[9 * B];
    double e[9 * B], g[9 * B];
    for (int i = 0; i < N; i++) x[i] = 10.0f + i;
    for (int i = 0; i < B; i++) e[i] = i < N ? x[i] : 1.5;
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < B; i++) {
            e[B + r * B + i] = (r < 2 && i < N) ? x[i] : -2.0;
            e[5 * B + r * B + i] = r > 1 ? e[i] : r;
        }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, N, x), *to = kt_t1(ctx, TC_FP32, 9 * B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"n", tc_int(N)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, 9 * B);
        KT_CHECK_ARR(e, g, 9 * B, 0, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_dot_int8_and_fp16_out) {
    KT_SETUP("dot.py", "dot_i8_kernel");
    enum { M = 16, N = 16, K = 32 };
    int8_t a[M * K], b[K * N];
    int32_t o[M * N];
    int64_t e[M * N], g[M * N];
    kt_seed(7600);
    for (int i = 0; i < M * K; i++) a[i] = (int8_t)kt_irand(-128, 127);
    for (int i = 0; i < K * N; i++) b[i] = (int8_t)kt_irand(-128, 127);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int64_t s = 0;
            for (int kk = 0; kk < K; kk++) s += a[i * K + kk] * b[kk * N + j];
            e[i * N + j] = s;
        }
    tc_tensor *ta = kt_t2(ctx, TC_I8, M, K, a), *tb = kt_t2(ctx, TC_I8, K, N, b),
              *to = kt_t2(ctx, TC_I32, M, N, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"a_ptr", tc_tens(ta)}, {"b_ptr", tc_tens(tb)},
                    {"c_ptr", tc_tens(to)}, {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, M * N);
        KT_CHECK_IARR(e, g, M * N); /* int8 x int8 accumulates exactly in int32 */
    }
    tc_tensor_free(ta); tc_tensor_free(tb); tc_tensor_free(to);
    tc_kernel *k2 = KT_KERNEL(ctx, m, "dot_f16_out_kernel");
    uint16_t ha[M * K], hb[K * N], hc[M * N];
    double ef[M * N], gf[M * N];
    for (int i = 0; i < M * K; i++) ha[i] = kt_f16(kt_frand(-1, 1));
    for (int i = 0; i < K * N; i++) hb[i] = kt_f16(kt_frand(-1, 1));
    kt_matmul_f16(ha, hb, ef, M, N, K);
    tc_tensor *tha = kt_t2(ctx, TC_FP16, M, K, ha), *thb = kt_t2(ctx, TC_FP16, K, N, hb),
              *thc = kt_t2(ctx, TC_FP16, M, N, NULL);
    if (k2 && KT_RUN(ctx, k2, 1, 1, 1, {"a_ptr", tc_tens(tha)}, {"b_ptr", tc_tens(thb)},
                     {"c_ptr", tc_tens(thc)}, {"M", tc_int(M)}, {"N", tc_int(N)}, {"K", tc_int(K)})) {
        kt_get(thc, hc);
        for (int i = 0; i < M * N; i++) gf[i] = kt_h2d(hc[i]);
        KT_CHECK_ARR(ef, gf, M * N, 1e-2, 5e-2); /* out_dtype=fp16: fp16 result */
    }
    tc_tensor_free(tha); tc_tensor_free(thb); tc_tensor_free(thc);
    KT_TEARDOWN();
}

TEST(kern_while_tuple_assign_branch_in_loop) {
    KT_SETUP("loops.py", "fib_branch_kernel");
    int ns[] = {0, 2, 10, 30};
    for (int c = 0; k && c < 4; c++) {
        int n = ns[c];
        int64_t a = 0, b = 1, acc = 0;
        for (int i = 0; i < n; i++) { int64_t t = a + b; a = b; b = t; }
        for (int j = 0; j < n; j++) { if (j % 3 == 0) acc += j; else if (j % 3 == 1) acc -= 1; }
        int32_t o[2];
        tc_tensor *to = kt_t1(ctx, TC_I32, 2, NULL);
        if (KT_RUN(ctx, k, 1, 1, 1, {"out_ptr", tc_tens(to)}, {"n", tc_int(n)})) {
            kt_get(to, o);
            CHECK_INT(a, o[0]);
            CHECK_INT(acc, o[1]);
        }
        tc_tensor_free(to);
    }
    KT_TEARDOWN();
}

TEST(kern_sum_of_mask_is_uint32) {
    KT_SETUP("loops.py", "count_positive_kernel");
    enum { B = 64 };
    int8_t x[B];
    int32_t o[2];
    int64_t cnt = 0, sum = 0;
    kt_seed(7700);
    for (int i = 0; i < B; i++) { x[i] = (int8_t)kt_irand(-128, 127); cnt += x[i] > 0; sum += x[i]; }
    tc_tensor *tx = kt_t1(ctx, TC_I8, B, x), *to = kt_t1(ctx, TC_I32, 2, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        CHECK_INT(cnt, o[0]);
        CHECK_INT(sum, o[1]); /* int8 sums in int32 */
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_in_place_aliasing) {
    KT_SETUP("vector_add.py", "add_kernel");
    enum { N = 300 };
    float x[N], y[N], o[N];
    double e[N], g[N];
    for (int i = 0; i < N; i++) { x[i] = i * 0.25f; y[i] = 1000.0f - i; float s = x[i] + y[i]; e[i] = s; }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, N, x), *ty = kt_t1(ctx, TC_FP32, N, y);
    /* x += y: the output is the first input */
    if (k && KT_RUN(ctx, k, 3, 1, 1, {"x_ptr", tc_tens(tx)}, {"y_ptr", tc_tens(ty)},
                    {"output_ptr", tc_tens(tx)}, {"n_elements", tc_int(N)}, {"BLOCK_SIZE", tc_int(128)})) {
        kt_get(tx, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_ARR(e, g, N, 0, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(ty);
    KT_TEARDOWN();
}

TEST(kern_err_out_of_bounds_before_start) {
    const char *src = KT_HDR
        "def k(out_ptr, x_ptr, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK) - 3\n"
        "    x = tl.load(x_ptr + offs)\n"
        "    tl.store(out_ptr + offs + 3, x)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "before.py", src, &m));
    if (m) tc_module_kernel(m, "k", &k);
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 16, NULL), *to = kt_t1(ctx, TC_FP32, 16, NULL);
    tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"out_ptr", tc_tens(to)}, {"x_ptr", tc_tens(tx)},
                                                     {"BLOCK", tc_int(16)}));
    CHECK_INT(TC_ERR_RUNTIME, s);
    CHECK_CONTAINS(tc_errmsg(ctx), "before.py:8:9");
    CHECK_CONTAINS(tc_errmsg(ctx), "out-of-bounds load");
    CHECK_CONTAINS(tc_errmsg(ctx), "offset -3");
    tc_tensor_free(tx); tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* A @jit function returning from run-time ifs: both arms return; and (NESTED) an elif chain
 * whose last path falls through to a final return. */
TEST(kern_callee_runtime_if_returns) {
    KT_SETUP("loops.py", "callee_return_kernel");
    enum { N = 9 };
    int32_t x[N] = {-4, -1, 0, 1, 5, 0, -7, 3, 100}, o[N];
    int64_t e[N], g[N];
    tc_tensor *tx = kt_t1(ctx, TC_I32, N, x), *to = kt_t1(ctx, TC_I32, N, NULL);
    for (int i = 0; i < N; i++) e[i] = x[i] > 0 ? x[i] * 10 : x[i] * 100;
    if (k && KT_RUN(ctx, k, N, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"NESTED", tc_bool(0)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_IARR(e, g, N);
    }
    for (int i = 0; i < N; i++) e[i] = x[i] > 0 ? x[i] * 10 : x[i] < 0 ? x[i] * 100 : x[i] + 7;
    if (k && KT_RUN(ctx, k, N, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"NESTED", tc_bool(1)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_IARR(e, g, N);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* test_core.py's test_nested_if_else_return: all eight condition combinations. */
TEST(kern_nested_if_else_return) {
    KT_SETUP("loops.py", "nested_if_else_return_kernel");
    for (int c = 0; k && c < 8; c++) {
        uint8_t c1 = c & 1, c2 = (c >> 1) & 1, c3 = (c >> 2) & 1;
        int32_t v1 = 1, v2 = 2, v3 = 3, out = -1;
        int32_t e = c1 ? (c2 ? 1 : -1) : (c3 ? 2 : 3);
        tc_tensor *t1 = kt_t1(ctx, TC_I1, 1, &c1), *t2 = kt_t1(ctx, TC_I1, 1, &c2),
                  *t3 = kt_t1(ctx, TC_I1, 1, &c3), *tv1 = kt_t1(ctx, TC_I32, 1, &v1),
                  *tv2 = kt_t1(ctx, TC_I32, 1, &v2), *tv3 = kt_t1(ctx, TC_I32, 1, &v3),
                  *to = kt_t1(ctx, TC_I32, 1, &out);
        if (KT_RUN(ctx, k, 1, 1, 1, {"Cond1", tc_tens(t1)}, {"Cond2", tc_tens(t2)},
                   {"Cond3", tc_tens(t3)}, {"Val1", tc_tens(tv1)}, {"Val2", tc_tens(tv2)},
                   {"Val3", tc_tens(tv3)}, {"Out", tc_tens(to)})) {
            kt_get(to, &out);
            CHECK_INT(e, out);
        }
        tc_tensor *all[] = {t1, t2, t3, tv1, tv2, tv3, to};
        for (int i = 0; i < 7; i++) tc_tensor_free(all[i]);
    }
    KT_TEARDOWN();
}

TEST(kern_if_on_reduction_and_in_loop) {
    KT_SETUP("loops.py", "one_arm_if_kernel");
    enum { G = 6, B = 8 };
    int32_t x[G * B], o[G * B];
    int64_t e[G * B], g[G * B];
    kt_seed(7800);
    for (int i = 0; i < G * B; i++) x[i] = kt_irand(-10, 9);
    for (int p = 0; p < G; p++) {
        int64_t s = 0;
        for (int j = 0; j < B; j++) s += x[p * B + j];
        for (int j = 0; j < B; j++) e[p * B + j] = (s > 0 ? 2 * x[p * B + j] : 0) + 2 * x[p * B + j];
    }
    tc_tensor *tx = kt_t1(ctx, TC_I32, G * B, x), *to = kt_t1(ctx, TC_I32, G * B, NULL);
    if (k && KT_RUN(ctx, k, G, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, G * B);
        KT_CHECK_IARR(e, g, G * B);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* Far-away addresses are errors, never crashes; masked-off lanes are never checked. */
TEST(kern_err_far_addresses_and_masked_off) {
    const char *src = KT_HDR
        "def k(x_ptr, out_ptr, off, MODE: tl.constexpr):\n"
        "    offs = tl.arange(0, 16)\n"
        "    if MODE == 0:\n"
        "        x = tl.load(x_ptr + off.to(tl.int64) * 4096 + offs)\n"
        "        tl.store(out_ptr + offs, x)\n"
        "    elif MODE == 1:\n"
        "        tl.atomic_add(out_ptr + off + offs, 1.0)\n"
        "    else:\n"
        "        x = tl.load(x_ptr + off + offs, mask=offs < 0, other=3.0)\n"
        "        tl.store(out_ptr + off + offs, x, mask=offs < 0)\n"
        "        tl.store(out_ptr + offs, x)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "far.py", src, &m));
    if (m) tc_module_kernel(m, "k", &k);
    float x[16] = {0}, o[16];
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 16, x), *to = kt_t1(ctx, TC_FP32, 16, NULL);
    static const int64_t offs[] = {1000000, -1000000, 2147483647};
    for (int i = 0; i < 3; i++) {
        tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                                                         {"off", tc_int(offs[i])}, {"MODE", tc_int(0)}));
        CHECK_INT(TC_ERR_RUNTIME, s);
        CHECK_CONTAINS(tc_errmsg(ctx), "far.py:9:13");
    }
    tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                                                     {"off", tc_int(5)}, {"MODE", tc_int(1)}));
    CHECK_INT(TC_ERR_RUNTIME, s); /* lanes 11..15 of the atomic are past the end */
    CHECK_CONTAINS(tc_errmsg(ctx), "far.py:12:9");
    s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                                           {"off", tc_int(-1000000)}, {"MODE", tc_int(2)}));
    CHECK_INT(TC_OK, s); /* every lane masked off: nothing is touched */
    kt_get(to, o);
    CHECK_NEAR(3.0, o[0], 0, 0);
    CHECK_NEAR(3.0, o[15], 0, 0);
    tc_tensor_free(tx); tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}
