/* test_grid.c — launch grids written as Python (tc_grid_eval, `tritonc run --grid`), and the
 * one numeric model shared by grids, heuristics and constexprs in kernels. Expected values
 * are Python's: cdiv(a, b) == -(-a // b), // and % floor, 0 ** -1 raises. */
#include "test.h"
#include "tritonc.h"

#include <stdlib.h>

static const char grid_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def k(x_ptr, n, m, BLOCK: tl.constexpr, KIND: tl.constexpr):\n"
    "    tl.store(x_ptr + tl.program_id(0), n)\n"
    "@triton.heuristics({'B': lambda args: args['n'] ** -1})\n"
    "@triton.jit\n"
    "def h(x_ptr, n, B: tl.constexpr):\n"
    "    tl.store(x_ptr, n)\n"
    "@triton.jit\n"
    "def c(x_ptr, P: tl.constexpr):\n"
    "    tl.store(x_ptr, P ** -1)\n";

typedef struct Fixture { tc_context *ctx; tc_module *m; tc_kernel *k; tc_args *a; tc_tensor *x; } Fixture;

static void fx_open(Fixture *f, const char *kernel) {
    memset(f, 0, sizeof *f);
    tc_context_new(&f->ctx);
    tc_context_set_backend(f->ctx, TC_BACKEND_INTERPRET);
    CHECK_INT(TC_OK, tc_module_load_string(f->ctx, "grid.py", grid_src, &f->m));
    CHECK_INT(TC_OK, tc_module_kernel(f->m, kernel, &f->k));
    int64_t n = 4;
    tc_tensor_new(f->ctx, TC_FP32, 1, &n, &f->x);
    tc_args_new(f->k, &f->a);
    tc_args_set(f->a, "x_ptr", tc_tens(f->x));
}

static void fx_close(Fixture *f) {
    tc_args_free(f->a);
    tc_tensor_free(f->x);
    tc_module_free(f->m);
    tc_context_free(f->ctx);
}

/* grid of expr, or the status; g holds the grid */
static tc_status grid(Fixture *f, const char *expr, uint32_t g[3]) {
    g[0] = g[1] = g[2] = 77;
    return tc_grid_eval(f->a, expr, g);
}

TEST(grid_eval_python) {
    Fixture f;
    fx_open(&f, "k");
    tc_args_set(f.a, "n", tc_int(1000));
    tc_args_set(f.a, "m", tc_int(-7));
    tc_args_set(f.a, "BLOCK", tc_int(128));
    tc_args_set(f.a, "KIND", tc_str("relu"));
    uint32_t g[3];
    CHECK_INT(TC_OK, grid(&f, "cdiv(n, BLOCK)", g));   /* -(-1000 // 128) = 8 */
    CHECK_INT(8, g[0]); CHECK_INT(1, g[1]); CHECK_INT(1, g[2]);
    CHECK_INT(TC_OK, grid(&f, "(triton.cdiv(n, BLOCK),)", g));
    CHECK_INT(8, g[0]); CHECK_INT(1, g[1]);
    CHECK_INT(TC_OK, grid(&f, "(n // BLOCK, 3, 2)", g));   /* 1000 // 128 = 7 */
    CHECK_INT(7, g[0]); CHECK_INT(3, g[1]); CHECK_INT(2, g[2]);
    CHECK_INT(TC_OK, grid(&f, "4, 2", g));
    CHECK_INT(4, g[0]); CHECK_INT(2, g[1]); CHECK_INT(1, g[2]);
    CHECK_INT(TC_OK, grid(&f, "m // 2 + 10, m % 3", g));  /* -7 // 2 = -4; -7 % 3 = 2 */
    CHECK_INT(6, g[0]); CHECK_INT(2, g[1]);
    CHECK_INT(TC_OK, grid(&f, "max(1, min(n, 2 ** 10)) >> 2", g));   /* 1000 >> 2 = 250 */
    CHECK_INT(250, g[0]);
    CHECK_INT(TC_OK, grid(&f, "next_power_of_2(n) // BLOCK if KIND == 'relu' else 1", g));
    CHECK_INT(8, g[0]);   /* 1024 // 128 */
    fx_close(&f);
}

TEST(grid_eval_errors) {
    Fixture f;
    fx_open(&f, "k");
    tc_args_set(f.a, "n", tc_int(1000));
    tc_args_set(f.a, "m", tc_int(0));
    tc_args_set(f.a, "BLOCK", tc_int(128));
    uint32_t g[3];
    CHECK_INT(TC_ERR_ARG, grid(&f, "cdiv(n, BLOK)", g));
    CHECK_CONTAINS(tc_errmsg(f.ctx), "'BLOK' is not an argument of the launch");
    CHECK_INT(TC_ERR_ARG, grid(&f, "n // m", g));
    CHECK_CONTAINS(tc_errmsg(f.ctx), "ZeroDivisionError: integer division or modulo by zero");
    CHECK_INT(TC_ERR_ARG, grid(&f, "0 ** -1", g));
    CHECK_CONTAINS(tc_errmsg(f.ctx), "ZeroDivisionError");
    /* past 64 bits is an error, never a wrapped (or undefined) value */
    CHECK_INT(TC_ERR_ARG, grid(&f, "9223372036854775807 * 2", g));
    CHECK_INT(TC_ERR_ARG, grid(&f, "4611686018427387904 * 4", g));
    CHECK_INT(TC_ERR_ARG, grid(&f, "n - 1001", g));
    CHECK_CONTAINS(tc_errmsg(f.ctx), "grid dimension 0 is -1, outside 0..4294967295");
    CHECK_INT(TC_ERR_ARG, grid(&f, "2 ** 32", g));
    CHECK_INT(TC_ERR_ARG, grid(&f, "1, 2, 3, 4", g));
    CHECK_CONTAINS(tc_errmsg(f.ctx), "1 to 3 dimensions, not 4");
    CHECK_INT(TC_ERR_ARG, grid(&f, "n / 2", g));   /* a float: Python's / is true division */
    CHECK_CONTAINS(tc_errmsg(f.ctx), "not an integer");
    CHECK_INT(TC_ERR_ARG, grid(&f, "n;1", g));
    CHECK_INT(TC_ERR_ARG, grid(&f, "x_ptr", g));
    CHECK_INT(TC_ERR_ARG, grid(&f, "1\nimport os", g));
    CHECK_INT(TC_ERR_ARG, grid(&f, "", g));
    CHECK_INT(TC_ERR_ARG, tc_grid_eval(f.a, NULL, g));
    CHECK_INT(TC_ERR_ARG, tc_grid_eval(f.a, "1", NULL));
    CHECK_INT(TC_ERR_ARG, tc_grid_eval(NULL, "1", g));
    fx_close(&f);
}

/* The same expression fails the same way in a heuristic, a kernel's constexpr and a grid. */
TEST(grid_one_numeric_model) {
    Fixture f;
    fx_open(&f, "h");
    tc_args_set(f.a, "n", tc_int(0));
    CHECK_INT(TC_ERR_ARG, tc_launch(f.k, f.a, NULL));
    CHECK_CONTAINS(tc_errmsg(f.ctx), "heuristics value 'B': ZeroDivisionError: 0.0 cannot be raised to a negative power");
    fx_close(&f);
    fx_open(&f, "c");
    tc_args_set(f.a, "P", tc_int(0));
    CHECK(tc_launch(f.k, f.a, NULL) != TC_OK);
    CHECK_CONTAINS(tc_errmsg(f.ctx), "ZeroDivisionError: 0.0 cannot be raised to a negative power");
    fx_close(&f);
}
