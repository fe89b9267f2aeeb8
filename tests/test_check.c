/* test_check.c — check mode: the kernels of tests/kernels/hazards.py with each
 * hazard a GPU would expose (races between programs, a missing barrier inside a program,
 * reads of never-written memory, NaN/Inf made from finite inputs, order dependence) and
 * clean kernels that must not raise a false alarm; exact report contents; the shuffled and
 * parallel modes; `tritonc check` and its exit status. */
#include "test.h"
#include "tritonc.h"

#include "interp/check.h"

#include <stdlib.h>

#define HZ "tests/kernels/hazards.py"

static char report[1 << 16];
static size_t report_len;

static void capture(const char *text, void *user) {
    (void)user;
    size_t n = strlen(text);
    if (report_len + n + 1 > sizeof report) n = sizeof report - 1 - report_len;
    memcpy(report + report_len, text, n);
    report_len += n;
    report[report_len] = 0;
}

static tc_context *ctx_new(void) {
    tc_context *c = NULL;
    if (tc_context_new(&c)) return NULL;
    tc_context_set_backend(c, TC_BACKEND_INTERPRET);
    tc_set_print(c, capture, NULL);
    return c;
}

static tc_tensor *f32(tc_context *c, const float *v, int64_t n) {
    tc_tensor *t = NULL;
    tc_tensor_from_host(c, TC_FP32, 1, &n, v, &t);
    return t;
}

static tc_tensor *i32t(tc_context *c, const int32_t *v, int64_t n) {
    tc_tensor *t = NULL;
    tc_tensor_from_host(c, TC_I32, 1, &n, v, &t);
    return t;
}

static tc_tensor *zeros(tc_context *c, tc_dtype dt, int64_t n) {
    tc_tensor *t = NULL;
    tc_tensor_new(c, dt, 1, &n, &t);
    return t;
}

typedef struct Arg { const char *name; tc_value v; } Arg;

/* Launches kernel `name` of hazards.py with grid (gx) and the arguments; check, threads and
 * shuffle as given. The report is in `report`, the launch report in *r. */
static tc_status launch(tc_context *c, const char *name, uint32_t gx, const Arg *args, int n,
                        int check, int threads, uint64_t seed, tc_launch_report *r) {
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    tc_args *a = NULL;
    report_len = 0;
    report[0] = 0;
    tc_status s = tc_module_load_file(c, HZ, &m);
    if (!s) s = tc_module_kernel(m, name, &k);
    if (!s) s = tc_args_new(k, &a);
    for (int i = 0; i < n && !s; i++) s = tc_args_set(a, args[i].name, args[i].v);
    if (!s) {
        tc_launch_opts o = tc_launch_defaults();
        o.grid[0] = gx;
        o.check = check;
        o.threads = threads;
        o.shuffle_seed = seed;
        s = tc_launch(k, a, &o);
    }
    if (r) tc_last_launch(c, r, sizeof *r);
    tc_args_free(a);
    tc_module_free(m);
    return s;
}

static int count_lines(const char *s, const char *needle) {
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* ---- hazards ----------------------------------------------------------------------------- */

TEST(check_write_write_race) {
    tc_context *c = ctx_new();
    float xv[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8];
    tc_tensor *x = f32(c, xv, 8), *o = zeros(c, TC_FP32, 8);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(o)}, {"BLOCK", tc_int(4)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "all_write_first_block", 4, a, 3, 1, 0, 0, &r));
    CHECK_INT(1, r.check);
    CHECK_INT(1, r.check_findings);
    CHECK_INT(0, r.check_notes);
    CHECK_CONTAINS(report, HZ ":13:5: race: program (1, 0, 0) writes out_ptr[0] (store at "
                   HZ ":13:5) that program (0, 0, 0) wrote (store at " HZ ":13:5)");
    CHECK_CONTAINS(report, "[12 times]");     /* 3 later programs x 4 elements */
    CHECK_CONTAINS(report, "(address 0x");
    CHECK_CONTAINS(report, "check: all_write_first_block: 1 finding, 0 notes (4 programs; "
                   "results compared with a shuffled order, seed 24301)");
    CHECK_INT(0, count_lines(report, "order dependence")); /* all write the same values */
    tc_tensor_to_host(o, out, sizeof out);
    CHECK_NEAR(4.0, out[3], 0, 0);            /* the program-order result is kept */
    CHECK_NEAR(0.0, out[4], 0, 0);
    /* without check: no report, no counts */
    CHECK_INT(TC_OK, launch(c, "all_write_first_block", 4, a, 3, 0, 0, 0, &r));
    CHECK_INT(0, r.check);
    CHECK_INT(0, r.check_findings);
    CHECK_INT(0, (int)report_len);
    tc_tensor_free(x);
    tc_tensor_free(o);
    tc_context_free(c);
}

TEST(check_read_neighbour_output) {
    tc_context *c = ctx_new();
    float xv[16];
    for (int i = 0; i < 16; i++) xv[i] = (float)i;
    tc_tensor *x = f32(c, xv, 16), *o = zeros(c, TC_FP32, 16), *y = zeros(c, TC_FP32, 16);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(o)}, {"y_ptr", tc_tens(y)},
               {"BLOCK", tc_int(4)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "read_neighbour_output", 4, a, 4, 1, 0, 0, &r));
    CHECK_INT(3, r.check_findings);
    /* program 1 overwrites what program 0 read before it */
    CHECK_CONTAINS(report, HZ ":21:5: race: program (1, 0, 0) writes out_ptr[4] (store at "
                   HZ ":21:5) that program (0, 0, 0) read (load at " HZ ":23:28)");
    /* program 3 reads what program 0 wrote */
    CHECK_CONTAINS(report, HZ ":23:28: race: program (3, 0, 0) reads out_ptr[0] (load at "
                   HZ ":23:28) that program (0, 0, 0) wrote (store at " HZ ":21:5)");
    CHECK_CONTAINS(report, "[4 times]");
    CHECK_CONTAINS(report, "read_neighbour_output: order dependence: y_ptr[0] is 0.0 with the "
                   "programs in order (x, then y, then z) but ");
    CHECK_CONTAINS(report, "with the programs shuffled (seed 24301)");
    CHECK_CONTAINS(report, "of 16 element(s) of 'y_ptr' differ");
    CHECK_INT(1, count_lines(report, "order dependence"));
    CHECK_INT(24301, (int)r.check_seed);
    tc_tensor_free(x);
    tc_tensor_free(o);
    tc_tensor_free(y);
    tc_context_free(c);
}

TEST(check_missing_barrier) {
    tc_context *c = ctx_new();
    float xv[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8];
    tc_tensor *x = f32(c, xv, 8), *t = zeros(c, TC_FP32, 8), *o = zeros(c, TC_FP32, 8);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"tmp_ptr", tc_tens(t)}, {"out_ptr", tc_tens(o)},
               {"BLOCK", tc_int(4)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "shift_without_barrier", 2, a, 4, 1, 0, 0, &r));
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, HZ ":32:10: hazard: program (0, 0, 0) reads tmp_ptr[1] in lane 0 "
                   "(load at " HZ ":32:10) that lane 1 of the same program stored (store at "
                   HZ ":31:5) with no tl.debug_barrier() between");
    CHECK_CONTAINS(report, "[8 times]");
    CHECK_INT(0, count_lines(report, "race:"));  /* programs touch disjoint ranges */
    tc_tensor_to_host(o, out, sizeof out);
    CHECK_NEAR(2.0, out[0], 0, 0);
    CHECK_NEAR(1.0, out[3], 0, 0);   /* lane 3 reads lane 0's element (wraps) */
    CHECK_NEAR(8.0, out[6], 0, 0);
    /* with tl.debug_barrier() between: clean */
    CHECK_INT(TC_OK, launch(c, "shift_with_barrier", 2, a, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(0, r.check_notes);
    CHECK_CONTAINS(report, "check: shift_with_barrier: 0 findings, 0 notes");
    CHECK_INT(0, count_lines(report, "hazard"));
    /* the same lane reloading what it stored: a note, not a finding */
    CHECK_INT(TC_OK, launch(c, "same_lane_reload", 2, a, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(1, r.check_notes);
    CHECK_CONTAINS(report, HZ ":51:30: note: program (0, 0, 0) reads tmp_ptr[0] in lane 0 (load "
                   "at " HZ ":51:30) that the same lane stored (store at " HZ ":50:5)");
    tc_tensor_free(x);
    tc_tensor_free(t);
    tc_tensor_free(o);
    tc_context_free(c);
}

TEST(check_uninitialized_read) {
    tc_context *c = ctx_new();
    tc_tensor *x = zeros(c, TC_FP32, 8), *o = zeros(c, TC_FP32, 8);
    tc_tensor_mark_uninit(x);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(o)}, {"n", tc_int(8)},
               {"BLOCK", tc_int(4)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "copy", 2, a, 4, 1, 0, 0, &r));
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, HZ ":58:9: uninitialized read: program (0, 0, 0) reads x_ptr[0] (load "
                   "at " HZ ":58:9), which was never written");
    CHECK_CONTAINS(report, "[2 times]");
    /* `out` was written by that launch: copying it back is clean */
    Arg b[] = {{"x_ptr", tc_tens(o)}, {"out_ptr", tc_tens(x)}, {"n", tc_int(8)},
               {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "copy", 2, b, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    /* ... and x, written by it now, too */
    CHECK_INT(TC_OK, launch(c, "copy", 2, a, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    /* a write from the host clears the marks; a partial one only its bytes... the whole
     * tensor here */
    tc_tensor_mark_uninit(x);
    float v[8] = {0};
    tc_tensor_copy_from_host(x, v, sizeof v);
    CHECK_INT(TC_OK, launch(c, "copy", 2, a, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    /* a plain run (no check) that writes an uninit tensor clears its marks too */
    tc_tensor_mark_uninit(o);
    CHECK_INT(TC_OK, launch(c, "copy", 2, a, 4, 0, 0, 0, &r));
    Arg d[] = {{"x_ptr", tc_tens(o)}, {"out_ptr", tc_tens(x)}, {"n", tc_int(8)},
               {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "copy", 2, d, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    /* masked-off lanes never read: only the first 6 elements of an uninit tensor are read */
    tc_tensor_mark_uninit(x);
    Arg e[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(o)}, {"n", tc_int(6)},
               {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "copy", 2, e, 4, 1, 0, 0, &r));
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, "program (0, 0, 0) reads x_ptr[0]");
    tc_tensor_free(x);
    tc_tensor_free(o);
    tc_context_free(c);
}

/* copy_range(src, dst, start, n, BLOCK) on hazards.py: writes dst[start:start+n]; its load
 * is at CR (the report names the first never-written element a load reads). */
#define CR HZ ":171:30"
static tc_status copy_range(tc_context *c, tc_tensor *src, tc_tensor *dst, int start, int n,
                            int block, int check, tc_launch_report *r) {
    Arg a[] = {{"x_ptr", tc_tens(src)}, {"out_ptr", tc_tens(dst)}, {"start", tc_int(start)},
               {"n", tc_int(n)}, {"BLOCK", tc_int(block)}};
    return launch(c, "copy_range", 1, a, 5, check, 0, 0, r);
}

/* The never-written marks are one bit per byte: tensors whose size is not a multiple of 8
 * bytes, and accesses that begin and end inside a shadow byte (1- and 2-byte elements). */
TEST(check_uninitialized_bits) {
    tc_context *c = ctx_new();
    tc_launch_report r;
    /* i8, 13 bytes (the last shadow byte half used). Written: [1, 9) by one unmasked store
     * (check mode), [10, 13) by a masked one (plain run); never written: 0 and 9 */
    tc_tensor *s8 = zeros(c, TC_I8, 16), *t8 = zeros(c, TC_I8, 13), *o8 = zeros(c, TC_I8, 16);
    tc_tensor_mark_uninit(t8);
    CHECK_INT(TC_OK, copy_range(c, t8, o8, 8, 5, 8, 1, &r));      /* the last 5, all marked */
    CHECK_CONTAINS(report, "reads x_ptr[8] (");
    CHECK_INT(TC_OK, copy_range(c, s8, t8, 1, 8, 8, 1, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(TC_OK, copy_range(c, s8, t8, 10, 3, 4, 0, &r));
    CHECK_INT(TC_OK, copy_range(c, t8, o8, 1, 8, 8, 1, &r));      /* [1, 9): all written */
    CHECK_INT(0, r.check_findings);
    CHECK_INT(TC_OK, copy_range(c, t8, o8, 10, 3, 4, 1, &r));     /* [10, 13) to the end */
    CHECK_INT(0, r.check_findings);
    CHECK_INT(TC_OK, copy_range(c, t8, o8, 2, 8, 8, 1, &r));      /* [2, 10): 9 is not */
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, CR ": uninitialized read: program (0, 0, 0) reads x_ptr[9] (load at "
                   CR "), which was never written");
    CHECK_INT(TC_OK, copy_range(c, t8, o8, 9, 4, 4, 1, &r));      /* [9, 13) */
    CHECK_CONTAINS(report, "reads x_ptr[9] (");
    CHECK_INT(TC_OK, copy_range(c, t8, o8, 0, 3, 4, 1, &r));      /* masked, [0, 3) */
    CHECK_CONTAINS(report, "reads x_ptr[0] (");
    /* fp16, 11 elements = 22 bytes. Written [3, 7) = bytes 6..13, across a shadow byte */
    tc_tensor *s16 = zeros(c, TC_FP16, 16), *t16 = zeros(c, TC_FP16, 11), *o16 = zeros(c, TC_FP16, 16);
    tc_tensor_mark_uninit(t16);
    CHECK_INT(TC_OK, copy_range(c, s16, t16, 3, 4, 4, 1, &r));
    CHECK_INT(TC_OK, copy_range(c, t16, o16, 3, 4, 4, 1, &r));    /* exactly what was written */
    CHECK_INT(0, r.check_findings);
    CHECK_INT(TC_OK, copy_range(c, t16, o16, 3, 8, 8, 1, &r));    /* [3, 11): 7 is the first */
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, "reads x_ptr[7] (load at " CR ")");
    CHECK_INT(TC_OK, copy_range(c, t16, o16, 2, 4, 4, 1, &r));    /* [2, 6): 2 */
    CHECK_CONTAINS(report, "reads x_ptr[2] (");
    /* the rest written by a plain run: [7, 11) ends at the tensor's last byte, [0, 3) */
    CHECK_INT(TC_OK, copy_range(c, s16, t16, 7, 4, 4, 0, &r));
    CHECK_INT(TC_OK, copy_range(c, s16, t16, 0, 3, 4, 0, &r));
    CHECK_INT(TC_OK, copy_range(c, t16, o16, 3, 8, 8, 1, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(TC_OK, copy_range(c, t16, o16, 0, 8, 8, 1, &r));
    CHECK_INT(0, r.check_findings);
    /* fp32, 100 elements = 400 bytes: scans over whole shadow words; all written but 77 */
    tc_tensor *s32 = zeros(c, TC_FP32, 128), *t32 = zeros(c, TC_FP32, 100), *o32 = zeros(c, TC_FP32, 128);
    tc_tensor_mark_uninit(t32);
    CHECK_INT(TC_OK, copy_range(c, s32, t32, 0, 64, 64, 0, &r));
    CHECK_INT(TC_OK, copy_range(c, s32, t32, 64, 13, 16, 1, &r));
    CHECK_INT(TC_OK, copy_range(c, s32, t32, 78, 22, 32, 0, &r));
    CHECK_INT(TC_OK, copy_range(c, t32, o32, 13, 64, 64, 1, &r)); /* [13, 77) */
    CHECK_INT(0, r.check_findings);
    CHECK_INT(TC_OK, copy_range(c, t32, o32, 36, 64, 64, 1, &r)); /* [36, 100) */
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, "reads x_ptr[77] (load at " CR ")");
    CHECK_INT(TC_OK, copy_range(c, t32, o32, 78, 22, 32, 1, &r)); /* masked, after it */
    CHECK_INT(0, r.check_findings);
    tc_tensor_free(s8); tc_tensor_free(t8); tc_tensor_free(o8);
    tc_tensor_free(s16); tc_tensor_free(t16); tc_tensor_free(o16);
    tc_tensor_free(s32); tc_tensor_free(t32); tc_tensor_free(o32);
    tc_context_free(c);
}

TEST(check_nonfinite_from_finite_inputs) {
    tc_context *c = ctx_new();
    float xv[8] = {1, 2, 0, 4, 5, 6, 7, 8}, out[8];
    tc_tensor *x = f32(c, xv, 8), *o = zeros(c, TC_FP32, 8);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(o)}, {"n", tc_int(8)},
               {"BLOCK", tc_int(4)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "log_of", 2, a, 4, 1, 0, 0, &r));
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, HZ ":68:5: non-finite: program (0, 0, 0) stores -inf to out_ptr[2] "
                   "(lane 2); produced by log at " HZ ":67:9 from finite inputs");
    tc_tensor_to_host(o, out, sizeof out);
    CHECK(isinf(out[2]) && out[2] < 0);
    /* 0/0: the NaN goes through a multiply and an add; the division made it */
    float yv[8] = {1, 2, 0, 4, 5, 6, 7, 8};
    tc_tensor *y = f32(c, yv, 8);
    Arg b[] = {{"x_ptr", tc_tens(x)}, {"y_ptr", tc_tens(y)}, {"out_ptr", tc_tens(o)},
               {"n", tc_int(8)}, {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "ratio", 2, b, 5, 1, 0, 0, &r));
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, HZ ":78:5: non-finite: program (0, 0, 0) stores nan to out_ptr[2] "
                   "(lane 2); produced by div at " HZ ":77:9 from finite inputs");
    /* a NaN that was loaded is not the kernel's doing */
    float xn[8] = {1, 2, NAN, 4, 5, 6, 7, 8};
    tc_tensor_copy_from_host(x, xn, sizeof xn);
    CHECK_INT(TC_OK, launch(c, "ratio", 2, b, 5, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(TC_OK, launch(c, "log_of", 2, a, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    /* 3/0 = inf from finite inputs */
    float xf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    tc_tensor_copy_from_host(x, xf, sizeof xf);
    CHECK_INT(TC_OK, launch(c, "ratio", 2, b, 5, 1, 0, 0, &r));
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, "stores inf to out_ptr[2] (lane 2); produced by div at " HZ ":77:9");
    /* finite everywhere: clean */
    tc_tensor_copy_from_host(y, xf, sizeof xf);
    CHECK_INT(TC_OK, launch(c, "ratio", 2, b, 5, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(0, r.check_notes);
    /* the NaN lane masked off (n = 2): nothing stored, nothing reported */
    tc_tensor_copy_from_host(x, xv, sizeof xv);
    Arg d[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(o)}, {"n", tc_int(2)},
               {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "log_of", 1, d, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_tensor_free(o);
    tc_context_free(c);
}

TEST(check_integer_division_by_zero) {
    tc_context *c = ctx_new();
    int32_t xv[6] = {7, -8, 9, 10, 11, 12}, yv[6] = {2, 2, 3, 0, 4, 5}, out[6];
    tc_tensor *x = i32t(c, xv, 6), *y = i32t(c, yv, 6), *o = zeros(c, TC_I32, 6);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"y_ptr", tc_tens(y)}, {"out_ptr", tc_tens(o)},
               {"n", tc_int(6)}, {"BLOCK", tc_int(4)}};
    tc_launch_report r;
    /* a plain run: no error, 0 where the divisor is 0 */
    CHECK_INT(TC_OK, launch(c, "int_div", 2, a, 5, 0, 0, 0, &r));
    tc_tensor_to_host(o, out, sizeof out);
    CHECK_INT(3, out[0]);
    CHECK_INT(-4, out[1]);
    CHECK_INT(0, out[3]);
    CHECK_INT(2, out[5]);
    /* check mode: a note with the location, not a finding */
    CHECK_INT(TC_OK, launch(c, "int_div", 2, a, 5, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(1, r.check_notes);
    CHECK_CONTAINS(report, HZ ":87:30: note: integer division by zero in program (0, 0, 0), lane "
                   "3: unspecified on GPUs, tritonc gives 0");
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_tensor_free(o);
    tc_context_free(c);
}

TEST(check_lanes_of_one_store) {
    tc_context *c = ctx_new();
    float xv[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[4];
    tc_tensor *x = f32(c, xv, 8), *o = zeros(c, TC_FP32, 4);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(o)}, {"BLOCK", tc_int(8)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "scatter_halves", 1, a, 3, 1, 0, 0, &r));
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, HZ ":142:5: race: lanes 0 and 1 of one store of program (0, 0, 0) "
                   "write different values to out_ptr[0] (store at " HZ ":142:5); which lane "
                   "wins is undefined on a GPU");
    CHECK_CONTAINS(report, "[4 times]");
    tc_tensor_to_host(o, out, sizeof out);
    CHECK_NEAR(2.0, out[0], 0, 0);   /* the last lane wins in the interpreter */
    CHECK_NEAR(8.0, out[3], 0, 0);
    /* the same value from both lanes: clean */
    CHECK_INT(TC_OK, launch(c, "scatter_same", 1, a, 3, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(0, r.check_notes);
    tc_tensor_free(x);
    tc_tensor_free(o);
    tc_context_free(c);
}

TEST(check_tile_reload_lanes) {
    tc_context *c = ctx_new();
    float xv[128];
    for (int i = 0; i < 128; i++) xv[i] = (float)i;
    tc_tensor *x = f32(c, xv, 128), *t = zeros(c, TC_FP32, 128), *o = zeros(c, TC_FP32, 128);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"tmp_ptr", tc_tens(t)}, {"out_ptr", tc_tens(o)},
               {"M", tc_int(6)}, {"N", tc_int(5)}, {"SHIFT", tc_int(0)}, {"BM", tc_int(8)},
               {"BN", tc_int(8)}};
    tc_launch_report r;
    /* masked 2-D tile, strided rows: the lanes are recovered, the same lane reads back */
    CHECK_INT(TC_OK, launch(c, "tile_reload", 1, a, 8, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(1, r.check_notes);
    CHECK_CONTAINS(report, HZ ":162:30: note: program (0, 0, 0) reads tmp_ptr[0] in lane 0 (load "
                   "at " HZ ":162:30) that the same lane stored (store at " HZ ":161:5)");
    CHECK_CONTAINS(report, "[30 times]");   /* 6 x 5 active lanes */
    /* one column over: lane 0 reads what lane 1 stored */
    a[5].v = tc_int(1);
    CHECK_INT(TC_OK, launch(c, "tile_reload", 1, a, 8, 1, 0, 0, &r));
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, HZ ":162:30: hazard: program (0, 0, 0) reads tmp_ptr[1] in lane 0 "
                   "(load at " HZ ":162:30) that lane 1 of the same program stored (store at "
                   HZ ":161:5)");
    CHECK_CONTAINS(report, "[24 times]");   /* 6 rows x 4 columns read a stored element */
    tc_tensor_free(x);
    tc_tensor_free(t);
    tc_tensor_free(o);
    tc_context_free(c);
}

/* ---- clean kernels -------------------------------------------------------------------------- */

TEST(check_clean_kernels) {
    tc_context *c = ctx_new();
    enum { N = 1000 };
    static float xv[N], yv[N], out[N];
    for (int i = 0; i < N; i++) { xv[i] = (float)i * 0.5f; yv[i] = 1.0f - (float)i; }
    tc_tensor *x = f32(c, xv, N), *y = f32(c, yv, N), *o = zeros(c, TC_FP32, N);
    tc_tensor_mark_uninit(o);  /* written before any read: fine */
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"y_ptr", tc_tens(y)}, {"out_ptr", tc_tens(o)},
               {"n", tc_int(N)}, {"BLOCK", tc_int(128)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "add", 8, a, 5, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(0, r.check_notes);
    CHECK_STR("check: add: 0 findings, 0 notes (8 programs; results compared with a shuffled "
              "order, seed 24301)\n", report);
    tc_tensor_to_host(o, out, sizeof out);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != xv[i] + yv[i];
    CHECK_INT(0, bad);
    /* neighbouring but disjoint ranges (3 elements per program, 2-byte elements) with
     * overlapping reads */
    tc_tensor *h = zeros(c, TC_FP16, 10);
    Arg s[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(h)}, {"n", tc_int(10)},
               {"PER", tc_int(3)}, {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "stencil", 4, s, 5, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(0, r.check_notes);
    /* 4 elements per program, 4 lanes: exactly adjacent ranges */
    Arg s2[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(h)}, {"n", tc_int(10)},
                {"PER", tc_int(4)}, {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "stencil", 3, s2, 5, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    /* store, tl.debug_barrier(), load */
    tc_tensor *t = zeros(c, TC_FP32, 8);
    Arg b[] = {{"x_ptr", tc_tens(x)}, {"tmp_ptr", tc_tens(t)}, {"out_ptr", tc_tens(o)},
               {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "shift_with_barrier", 2, b, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    /* atomics-only reduction: 64 programs add into one counter and one float sum */
    static float ones[1024];
    for (int i = 0; i < 1024; i++) ones[i] = 1.0f;
    tc_tensor *cnt = zeros(c, TC_I32, 1), *sum = zeros(c, TC_FP32, 1), *xs = f32(c, ones, 1024);
    Arg d[] = {{"counter_ptr", tc_tens(cnt)}, {"sum_ptr", tc_tens(sum)}, {"x_ptr", tc_tens(xs)},
               {"BLOCK", tc_int(16)}};
    CHECK_INT(TC_OK, launch(c, "count_atomic", 64, d, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(0, r.check_notes);      /* sums of 16.0: exact in any order */
    int32_t cv = 0;
    float sv = 0;
    tc_tensor_to_host(cnt, &cv, sizeof cv);
    tc_tensor_to_host(sum, &sv, sizeof sv);
    CHECK_INT(64, cv);
    CHECK_NEAR(1024.0, sv, 0, 0);
    CHECK_INT(0, count_lines(report, "race"));
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_tensor_free(o);
    tc_tensor_free(h);
    tc_tensor_free(t);
    tc_tensor_free(cnt);
    tc_tensor_free(sum);
    tc_tensor_free(xs);
    tc_context_free(c);
}

TEST(check_float_atomics_rounding_is_a_note) {
    tc_context *c = ctx_new();
    static float xv[1024];
    uint32_t st = 1;
    for (int i = 0; i < 1024; i++) {
        st = st * 1664525u + 1013904223u;
        xv[i] = (float)(st >> 8) / 16777216.0f;
    }
    tc_tensor *cnt = zeros(c, TC_I32, 1), *sum = zeros(c, TC_FP32, 1), *xs = f32(c, xv, 1024);
    Arg d[] = {{"counter_ptr", tc_tens(cnt)}, {"sum_ptr", tc_tens(sum)}, {"x_ptr", tc_tens(xs)},
               {"BLOCK", tc_int(16)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "count_atomic", 64, d, 4, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK(r.check_notes <= 1);
    if (r.check_notes) CHECK_CONTAINS(report, "differ by rounding only");
    tc_tensor_free(cnt);
    tc_tensor_free(sum);
    tc_tensor_free(xs);
    tc_context_free(c);
}

/* ---- order dependence ------------------------------------------------------------------------ */

TEST(check_order_dependence) {
    tc_context *c = ctx_new();
    tc_tensor *cnt = zeros(c, TC_I32, 1);
    Arg a[] = {{"counter_ptr", tc_tens(cnt)}};
    tc_launch_report r;
    CHECK_INT(TC_OK, launch(c, "counter_rmw", 8, a, 1, 1, 0, 0, &r));
    CHECK_INT(3, r.check_findings);
    int32_t v = 0;
    tc_tensor_to_host(cnt, &v, sizeof v);
    /* program order: c = 2c + p for p = 0..7 */
    int32_t ref = 0;
    for (int p = 0; p < 8; p++) ref = ref * 2 + p;
    CHECK_INT(ref, v);
    CHECK_CONTAINS(report, "counter_rmw: order dependence: counter_ptr[0] is 247 with the "
                   "programs in order (x, then y, then z) but ");
    CHECK_CONTAINS(report, "1 of 1 element(s) of 'counter_ptr' differ");
    CHECK_CONTAINS(report, HZ ":122:9: race: program (1, 0, 0) reads counter_ptr[0] (load at "
                   HZ ":122:9) that program (0, 0, 0) wrote (store at " HZ ":123:5)");
    CHECK_CONTAINS(report, HZ ":123:5: race: program (1, 0, 0) writes counter_ptr[0] (store at "
                   HZ ":123:5) that program (0, 0, 0) wrote (store at " HZ ":123:5)");
    CHECK_CONTAINS(report, "[7 times]");
    /* another seed is reported as given */
    int32_t z = 0;
    tc_tensor_copy_from_host(cnt, &z, sizeof z);
    CHECK_INT(TC_OK, launch(c, "counter_rmw", 8, a, 1, 1, 0, 99, &r));
    CHECK_INT(99, (int)r.check_seed);
    CHECK_CONTAINS(report, "with the programs shuffled (seed 99)");
    CHECK_CONTAINS(report, "results compared with a shuffled order, seed 99)");
    /* a plain atomic then a plain load of the same counter: not both atomics */
    tc_tensor *o = zeros(c, TC_I32, 8);
    tc_tensor_copy_from_host(cnt, &z, sizeof z);
    Arg b[] = {{"counter_ptr", tc_tens(cnt)}, {"out_ptr", tc_tens(o)}};
    CHECK_INT(TC_OK, launch(c, "atomic_then_read", 8, b, 2, 1, 0, 0, &r));
    CHECK(r.check_findings >= 2);
    CHECK_CONTAINS(report, HZ ":129:5: race: program (1, 0, 0) writes counter_ptr[0] (atomic at "
                   HZ ":129:5) that program (0, 0, 0) read (load at " HZ ":130:42)");
    CHECK_CONTAINS(report, "atomic_then_read: order dependence: out_ptr[");
    /* one program: nothing to compare */
    tc_tensor_copy_from_host(cnt, &z, sizeof z);
    CHECK_INT(TC_OK, launch(c, "counter_rmw", 1, a, 1, 1, 0, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_INT(0, (int)r.check_seed);
    CHECK_STR("check: counter_rmw: 0 findings, 0 notes (1 program)\n", report);
    tc_tensor_free(cnt);
    tc_tensor_free(o);
    tc_context_free(c);
}

TEST(check_parallel_and_shuffled_runs) {
    tc_context *c = ctx_new();
    enum { N = 100000 };
    float *xv = malloc(sizeof(float) * N), *yv = malloc(sizeof(float) * N),
          *out = malloc(sizeof(float) * N);
    for (int i = 0; i < N; i++) { xv[i] = (float)(i % 97); yv[i] = (float)(i % 13) * 0.25f; }
    tc_tensor *x = f32(c, xv, N), *y = f32(c, yv, N), *o = zeros(c, TC_FP32, N);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"y_ptr", tc_tens(y)}, {"out_ptr", tc_tens(o)},
               {"n", tc_int(N)}, {"BLOCK", tc_int(64)}};
    tc_launch_report r;
    int bad = 0;
    /* plain runs on 4 threads and shuffled give the same numbers */
    CHECK_INT(TC_OK, launch(c, "add", (N + 63) / 64, a, 5, 0, 4, 0, &r));
    CHECK_INT(4, r.threads);
    tc_tensor_to_host(o, out, sizeof(float) * N);
    for (int i = 0; i < N; i++) bad += out[i] != xv[i] + yv[i];
    CHECK_INT(0, bad);
    float zero[1] = {0};
    (void)zero;
    CHECK_INT(TC_OK, launch(c, "add", (N + 63) / 64, a, 5, 0, 0, 12345, &r));
    tc_tensor_to_host(o, out, sizeof(float) * N);
    bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != xv[i] + yv[i];
    CHECK_INT(0, bad);
    CHECK_INT(TC_OK, launch(c, "add", (N + 63) / 64, a, 5, 0, -1, 0, &r));
    CHECK(r.threads >= 1);
    /* check with a parallel comparison: clean */
    CHECK_INT(TC_OK, launch(c, "add", (N + 63) / 64, a, 5, 1, 3, 0, &r));
    CHECK_INT(0, r.check_findings);
    CHECK_CONTAINS(report, "seed 24301, and with a parallel run)");
    /* atomics are real atomics on threads: 4096 programs, 4 threads, one counter */
    tc_tensor *cnt = zeros(c, TC_I32, 1), *sum = zeros(c, TC_FP32, 1);
    float *ones = malloc(sizeof(float) * 4096 * 4);
    for (int i = 0; i < 4096 * 4; i++) ones[i] = 1.0f;
    tc_tensor *xs = f32(c, ones, 4096 * 4);
    Arg d[] = {{"counter_ptr", tc_tens(cnt)}, {"sum_ptr", tc_tens(sum)}, {"x_ptr", tc_tens(xs)},
               {"BLOCK", tc_int(4)}};
    CHECK_INT(TC_OK, launch(c, "count_atomic", 4096, d, 4, 0, 4, 0, &r));
    int32_t cv = 0;
    float sv = 0;
    tc_tensor_to_host(cnt, &cv, sizeof cv);
    tc_tensor_to_host(sum, &sv, sizeof sv);
    CHECK_INT(4096, cv);
    CHECK_NEAR(16384.0, sv, 0, 0);
    /* a race shows up as an order dependence against the parallel run or the shuffle */
    tc_tensor *one = zeros(c, TC_I32, 1);
    Arg e[] = {{"counter_ptr", tc_tens(one)}};
    CHECK_INT(TC_OK, launch(c, "counter_rmw", 64, e, 1, 1, 2, 0, &r));
    CHECK(r.check_findings >= 3);
    CHECK_CONTAINS(report, "with the programs shuffled (seed 24301)");
    /* device_print on threads: every line whole, each program once */
    CHECK_INT(TC_OK, launch(c, "print_pid", 16, d + 2, 1, 0, 4, 0, &r));
    int lines = count_lines(report, "\n"), ok = 1;
    for (int p = 0; p < 16; p++) {
        char want[64];
        snprintf(want, sizeof want, "pid (%d, 0, 0) idx ()  pid: %d\n", p, p);
        ok &= count_lines(report, want) == 1;
    }
    CHECK_INT(16, lines);
    CHECK(ok);
    /* shuffled: the same lines (each program once) in another order */
    CHECK_INT(TC_OK, launch(c, "print_pid", 16, d + 2, 1, 0, 0, 5, &r));
    CHECK_INT(16, count_lines(report, "\n"));
    ok = 1;
    for (int p = 0; p < 16; p++) {
        char want[64];
        snprintf(want, sizeof want, "pid (%d, 0, 0) idx ()  pid: %d\n", p, p);
        ok &= count_lines(report, want) == 1;
    }
    CHECK(ok);
    /* a failure on threads: the error of the failing program, nothing else */
    tc_tensor *small = zeros(c, TC_FP32, 10);
    Arg f[] = {{"x_ptr", tc_tens(small)}, {"y_ptr", tc_tens(y)}, {"out_ptr", tc_tens(o)},
               {"n", tc_int(N)}, {"BLOCK", tc_int(64)}};
    CHECK_INT(TC_ERR_RUNTIME, launch(c, "add", (N + 63) / 64, f, 5, 0, 4, 0, &r));
    CHECK_CONTAINS(tc_errmsg(c), "out-of-bounds load");
    CHECK_CONTAINS(tc_errmsg(c), "past the end of 'x_ptr'");
    CHECK_INT(TC_ERR_RUNTIME, launch(c, "add", (N + 63) / 64, f, 5, 1, 4, 0, &r));
    CHECK_CONTAINS(report, "the launch failed");
    tc_tensor_free(small);
    CHECK(strncmp(report, "pid (0, 0, 0)", 13) != 0 || strstr(report, "pid (1, 0, 0)") !=
          strstr(report, "\n") + 1);
    free(xv);
    free(yv);
    free(out);
    free(ones);
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_tensor_free(o);
    tc_tensor_free(cnt);
    tc_tensor_free(sum);
    tc_tensor_free(xs);
    tc_tensor_free(one);
    tc_context_free(c);
}

TEST(check_env_switch) {
    tc_context *c = ctx_new();
    float xv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    tc_tensor *x = f32(c, xv, 8), *o = zeros(c, TC_FP32, 8);
    Arg a[] = {{"x_ptr", tc_tens(x)}, {"out_ptr", tc_tens(o)}, {"BLOCK", tc_int(4)}};
    tc_launch_report r;
    setenv("TRITONC_CHECK", "1", 1);
    CHECK_INT(TC_OK, launch(c, "all_write_first_block", 2, a, 3, 0, 0, 0, &r));
    unsetenv("TRITONC_CHECK");
    CHECK_INT(1, r.check);
    CHECK_INT(1, r.check_findings);
    CHECK_CONTAINS(report, "race: program (1, 0, 0) writes out_ptr[0]");
    CHECK_INT(TC_OK, launch(c, "all_write_first_block", 2, a, 3, 0, 0, 0, &r));
    CHECK_INT(0, r.check);
    tc_tensor_free(x);
    tc_tensor_free(o);
    tc_context_free(c);
}

TEST(check_shuffle_orders) {
    /* every order is a permutation: the table (Fisher-Yates) and the bijection beyond */
    uint64_t sizes[] = {2, 3, 7, 1000, SHUFFLE_TABLE_MAX + 3};
    for (int t = 0; t < 5; t++) {
        uint64_t n = sizes[t];
        uint8_t *seen = calloc((size_t)n, 1);
        Shuffle sh;
        shuffle_init(&sh, n, 24301 + (uint64_t)t);
        uint64_t dup = 0, out = 0, fixed = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = shuffle_at(&sh, i);
            if (v >= n) { out++; continue; }
            dup += seen[v];
            seen[v] = 1;
            fixed += v == i;
        }
        shuffle_free(&sh);
        free(seen);
        CHECK_INT(0, (long long)dup);
        CHECK_INT(0, (long long)out);
        CHECK(fixed < n);          /* never the identity */
        if (n >= 1000) CHECK(fixed < n / 10);
    }
    /* the same seed, the same order */
    Shuffle a, b;
    shuffle_init(&a, 100, 7);
    shuffle_init(&b, 100, 7);
    int same = 1;
    for (uint64_t i = 0; i < 100; i++) same &= shuffle_at(&a, i) == shuffle_at(&b, i);
    CHECK(same);
    shuffle_free(&a);
    shuffle_free(&b);
}

/* ---- the command ----------------------------------------------------------------------------- */

TEST(check_command) {
    char cmd[2048], out[16384];
    const char *b = test_build_dir();
    snprintf(cmd, sizeof cmd, "%s/tritonc check " HZ " shift_without_barrier --grid 2 "
             "'x_ptr=fp32:arange(8)' 'tmp_ptr=fp32:zeros(8)' 'out_ptr=fp32:zeros(8)' BLOCK=4", b);
    CHECK_INT(4, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, HZ ":32:10: hazard: program (0, 0, 0) reads tmp_ptr[1] in lane 0");
    CHECK_CONTAINS(out, "check: shift_without_barrier: 1 finding, 0 notes");
    snprintf(cmd, sizeof cmd, "%s/tritonc check " HZ " shift_with_barrier --grid 2 "
             "'x_ptr=fp32:arange(8)' 'tmp_ptr=fp32:zeros(8)' 'out_ptr=fp32:zeros(8)' BLOCK=4 "
             "--print out_ptr", b);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "out_ptr = [1.0, 2.0, 3.0, 0.0, 5.0, 6.0, 7.0, 4.0]");
    /* DTYPE:empty(...) arguments are never written */
    snprintf(cmd, sizeof cmd, "%s/tritonc check " HZ " copy --grid 2 'x_ptr=fp32:empty(8)' "
             "'out_ptr=fp32:zeros(8)' n=8 BLOCK=4", b);
    CHECK_INT(4, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "uninitialized read: program (0, 0, 0) reads x_ptr[0]");
    snprintf(cmd, sizeof cmd, "%s/tritonc check " HZ " counter_rmw --grid 8 --shuffle 7 "
             "'counter_ptr=i32:zeros(1)' --parallel=2", b);
    CHECK_INT(4, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "with the programs shuffled (seed 7)");
    CHECK_CONTAINS(out, "seed 7, and with a parallel run)");
    /* notes alone: exit 0 */
    snprintf(cmd, sizeof cmd, "%s/tritonc check " HZ " int_div --grid 2 'x_ptr=i32[1,2,3,4,5,6]' "
             "'y_ptr=i32[1,2,3,4,5,6]' 'out_ptr=i32:zeros(6)' n=6 BLOCK=4", b);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "note: integer division by zero in program (1, 0, 0), lane 2");
    /* run --parallel / --shuffle */
    snprintf(cmd, sizeof cmd, "%s/tritonc run --interpret " HZ " add --grid 4 --parallel "
             "'x_ptr=fp32:arange(10)' 'y_ptr=fp32:arange(10)' 'out_ptr=fp32:zeros(10)' n=10 "
             "BLOCK=4 --print out_ptr", b);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "out_ptr = [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0]");
    snprintf(cmd, sizeof cmd, "%s/tritonc run --interpret " HZ " add --grid 4 --shuffle 3 "
             "'x_ptr=fp32:arange(10)' 'y_ptr=fp32:arange(10)' 'out_ptr=fp32:zeros(10)' n=10 "
             "BLOCK=4 --print out_ptr", b);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "out_ptr = [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0]");
    snprintf(cmd, sizeof cmd, "%s/tritonc run --interpret " HZ " add --shuffle 0 n=1", b);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    snprintf(cmd, sizeof cmd, "%s/tritonc check --help", b);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "usage: tritonc check FILE KERNEL");
}
