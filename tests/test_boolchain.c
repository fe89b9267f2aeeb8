/* test_boolchain.c — chained `and`/`or` in kernels (A and B and C), as Triton 3.6's
 * code generator takes them (tutorial 06 writes `not IS_HOPPER and warp_specialize and ...`):
 * constexprs short-circuit or drop out, the tensors left combine with logical_and/or. */
#include "test.h"
#include "tritonc.h"

static const char *SRC =
    "import triton\nimport triton.language as tl\n\n"
    "@triton.jit\n"
    "def k(X, Y, A: tl.constexpr, B: tl.constexpr):\n"
    "    i = tl.arange(0, 8)\n"
    "    x = tl.load(X + i)\n"
    "    r = 0\n"
    "    if A and B and True:\n"
    "        r = 1\n"
    "    if not A or B or False:\n"
    "        r += 2\n"
    "    m = (x > 1) & (x < 6)\n"
    "    y = tl.where(A and (x > 1) and B and (x < 6), 10, r)\n"
    "    z = tl.where((x == 0) or (x == 7) or (x == 3), 100, 0)\n"
    "    tl.store(Y + i, y + z)\n";

static void run(int A, int B, int32_t *y) {
    tc_context *ctx = NULL;
    tc_context_new(&ctx);
    tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "k.py", SRC, &m));
    if (m) tc_module_kernel(m, "k", &k);
    int32_t x[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    int64_t n = 8;
    tc_tensor *xt = NULL, *yt = NULL;
    tc_tensor_from_host(ctx, TC_I32, 1, &n, x, &xt);
    tc_tensor_new(ctx, TC_I32, 1, &n, &yt);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "X", tc_tens(xt));
    tc_args_set(a, "Y", tc_tens(yt));
    tc_args_set(a, "A", tc_bool(A));
    tc_args_set(a, "B", tc_bool(B));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 1;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    if (tc_errmsg(ctx)[0]) printf("%s\n", tc_errmsg(ctx));
    tc_tensor_to_host(yt, y, 8 * sizeof *y);
    tc_args_free(a);
    tc_tensor_free(xt);
    tc_tensor_free(yt);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(boolchain_and_or_chains) {
    int32_t y[8];
    /* A, B true: r = 1 + 2 = 3; y = 10 where 1 < x < 6, else 3; +100 at x = 0, 3, 7 */
    run(1, 1, y);
    int32_t e1[8] = {103, 3, 10, 110, 10, 10, 3, 103};
    int bad = 0;
    for (int i = 0; i < 8; i++) bad += y[i] != e1[i];
    CHECK_INT(0, bad);
    /* A true, B false: r = 0 (not A or B or False is false); the where's chain is false */
    run(1, 0, y);
    int32_t e2[8] = {100, 0, 0, 100, 0, 0, 0, 100};
    bad = 0;
    for (int i = 0; i < 8; i++) bad += y[i] != e2[i];
    CHECK_INT(0, bad);
}
