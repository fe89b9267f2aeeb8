/* test_api_report.c — what tc_last_launch reports beyond the counts: the grid that ran, when
 * a grid callback computed it (issue 15 item 3). */
#include "test.h"
#include "tritonc.h"

#include <stddef.h>

static const char *SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def fill(out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(out + offs, tl.program_id(0) + 0 * offs, mask=offs < n)\n";

static tc_status grid_cdiv(const tc_args *meta, uint32_t grid[3], void *user) {
    (void)user;
    return tc_grid_eval(meta, "(cdiv(n, BLOCK), 2)", grid);
}

TEST(api_report_grid_from_callback) {
    tc_context *ctx;
    tc_module *m;
    tc_kernel *k;
    tc_args *a;
    tc_tensor *t;
    int64_t n = 10;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "fill.py", SRC, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "fill", &k));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_I32, 1, &n, &t));
    tc_args_new(k, &a);
    tc_args_set(a, "out", tc_tens(t));
    tc_args_set(a, "n", tc_int(10));
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_launch_opts o = tc_launch_defaults();
    o.grid_fn = grid_cdiv;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_launch_report r;
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_INT(3, r.grid[0]);   /* cdiv(10, 4) */
    CHECK_INT(2, r.grid[1]);
    CHECK_INT(1, r.grid[2]);
    /* a caller of the older size gets no grid written past its struct */
    union { tc_launch_report r; unsigned char b[sizeof(tc_launch_report)]; } old;
    memset(&old, 0xAB, sizeof old);
    tc_last_launch(ctx, &old.r, offsetof(tc_launch_report, grid));
    CHECK_INT(0xAB, old.b[offsetof(tc_launch_report, grid)]);
    /* numbers: the callback's grid ran (programs 0..2 wrote their ids) */
    int32_t got[10];
    tc_tensor_to_host(t, got, sizeof got);
    CHECK_INT(0, got[3]);
    CHECK_INT(1, got[4]);
    CHECK_INT(2, got[9]);
    o.grid_fn = NULL;
    o.grid[0] = 5; o.grid[1] = 0; o.grid[2] = 0;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_last_launch(ctx, &r, sizeof r);
    CHECK_INT(5, r.grid[0]);
    CHECK_INT(1, r.grid[1]);
    CHECK_INT(1, r.grid[2]);
    tc_args_free(a);
    tc_tensor_free(t);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* Check mode's findings as records (tc_last_check_findings), also at a smaller struct size. */
TEST(api_report_check_findings_records) {
    static const char *RACY =
        "import triton\n"
        "import triton.language as tl\n"
        "@triton.jit\n"
        "def racy(x, BLOCK: tl.constexpr):\n"
        "    tl.store(x + tl.arange(0, BLOCK), tl.program_id(0) * 1.0)\n"
        "@triton.jit\n"
        "def div0(x, d):\n"
        "    tl.store(x, 7 // d)\n";
    tc_context *ctx;
    tc_module *m;
    tc_kernel *k;
    tc_args *a;
    tc_tensor *t;
    int64_t n = 4;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    tc_set_print(ctx, NULL, NULL);
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "racy.py", RACY, &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "racy", &k));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 1, &n, &t));
    tc_args_new(k, &a);
    tc_args_set(a, "x", tc_tens(t));
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2;
    o.check = 1;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_free(tc_take_output(ctx));
    tc_check_finding *r = NULL;
    int nr = -1;
    CHECK_INT(TC_OK, tc_last_check_findings(ctx, &r, &nr, sizeof *r));
    CHECK_INT(2, nr);   /* the race and the order dependence */
    if (r && nr == 2) {
        CHECK_STR("race", r[0].kind);
        CHECK_INT(0, r[0].note);
        CHECK_STR("racy.py", r[0].file);
        CHECK_INT(5, r[0].line);
        CHECK_INT(5, r[0].col);
        CHECK_INT(5, r[0].line2);
        CHECK_INT(1, r[0].program[0]);   /* program 1 overwrote what program 0 wrote */
        CHECK_INT(0, r[0].program2[0]);
        CHECK_STR("x", r[0].tensor);
        CHECK_INT(0, r[0].element);
        CHECK_INT(4, r[0].count);        /* 4 elements, once each */
        CHECK(r[0].address == tc_tensor_address(t));
        CHECK_CONTAINS(r[0].message, "race: program (1, 0, 0) writes x[0]");
        CHECK_STR("order dependence", r[1].kind);
        CHECK_STR("", r[1].file);
        CHECK_INT(-1, r[1].program[0]);
    }
    tc_free(r);
    /* an older, shorter struct: records of that size, nothing past it */
    size_t old = offsetof(tc_check_finding, count);
    unsigned char *ro = NULL;
    CHECK_INT(TC_OK, tc_last_check_findings(ctx, (tc_check_finding **)&ro, &nr, old));
    CHECK_INT(2, nr);
    if (ro && nr == 2) {
        tc_check_finding second;
        memcpy(&second, ro + old, old);
        CHECK_STR("order dependence", second.kind);
    }
    tc_free(ro);
    /* a launch without check mode has none; a note is marked as one */
    o.check = 0;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    CHECK_INT(TC_OK, tc_last_check_findings(ctx, &r, &nr, sizeof *r));
    CHECK_INT(0, nr);
    CHECK(r == NULL);
    tc_args_free(a);
    CHECK_INT(TC_OK, tc_module_kernel(m, "div0", &k));
    tc_args_new(k, &a);
    tc_args_set(a, "x", tc_tens(t));
    tc_args_set(a, "d", tc_int(0));
    o.check = 1;
    o.grid[0] = 1;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_free(tc_take_output(ctx));
    CHECK_INT(TC_OK, tc_last_check_findings(ctx, &r, &nr, sizeof *r));
    CHECK_INT(1, nr);
    if (r && nr == 1) {
        CHECK_STR("division by zero", r[0].kind);
        CHECK_INT(1, r[0].note);
        CHECK_INT(8, r[0].line);
        CHECK_INT(0, r[0].program[0]);
        CHECK_INT(0, r[0].lane);
    }
    tc_free(r);
    CHECK_INT(TC_ERR_ARG, tc_last_check_findings(ctx, NULL, &nr, sizeof *r));
    tc_args_free(a);
    tc_tensor_free(t);
    tc_module_free(m);
    tc_context_free(ctx);
}
