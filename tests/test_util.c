/* test_util.c — errors, arenas, float repr, dtypes and types (util.c). */
#include "test.h"
#include "base/tc.h"

static const char *repr(double v) {
    static char buf[64];
    fmt_double_repr(v, buf, sizeof buf);
    return buf;
}

/* Expected strings are Python 3's repr() of the same doubles. */
TEST(float_repr) {
    CHECK_STR("11.0", repr(11.0));
    CHECK_STR("0.1", repr(0.1));
    CHECK_STR("-0.0", repr(-0.0));
    CHECK_STR("1e+16", repr(1e16));
    CHECK_STR("1234567890123456.0", repr(1234567890123456.0));
    CHECK_STR("0.0001", repr(0.0001));
    CHECK_STR("1e-05", repr(0.00001));
    CHECK_STR("inf", repr(INFINITY));
    CHECK_STR("-inf", repr(-INFINITY));
    CHECK_STR("nan", repr(NAN));
    CHECK_STR("0.30000000000000004", repr(0.1 + 0.2));
    CHECK_STR("3.4028234663852886e+38", repr(3.4028234663852886e+38));
    CHECK_STR("1.100000023841858", repr((double)1.1f));
    CHECK_STR("2.5", repr(2.5));
    CHECK_STR("100.0", repr(100.0));
    CHECK_STR("1.5e-07", repr(1.5e-7));
}

TEST(err_format) {
    Source *s = source_new("k.py", "x = 1\n  y = foo(\n", 17);
    Err e = {0};
    err_set(&e, TC_ERR_SYNTAX, (SrcLoc){s, 2, 7}, "bad %s", "thing");
    CHECK_STR("k.py:2:7: error: bad thing\n      y = foo(\n          ^", e.msg);
    CHECK_INT(TC_ERR_SYNTAX, e.code);
    source_free(s);
}

TEST(arena_and_types) {
    Err e = {0};
    Arena a;
    arena_init(&a, &e);
    int *arr = NULL, n = 0, cap = 0;
    for (int i = 0; i < 1000; i++) ARENA_PUSH(&a, arr, n, cap, i);
    CHECK_INT(1000, n);
    CHECK_INT(999, arr[999]);
    CHECK_STR("hi 3", arena_printf(&a, "hi %d", 3));
    arena_free(&a);
    char buf[64];
    int32_t shape[2] = {4, 8};
    type_str(type_block(DT_FP32, 2, shape), buf, sizeof buf);
    CHECK_STR("<4x8xfp32>", buf);
    type_str(type_ptr(DT_FP16), buf, sizeof buf);
    CHECK_STR("*fp16", buf);
    CHECK_INT(32, type_numel(type_block(DT_FP32, 2, shape)));
    tc_dtype d;
    CHECK(tc_dtype_from_name("bfloat16", &d) == TC_OK && d == TC_BF16);
    CHECK_INT(TC_ERR_ARG, tc_dtype_from_name("float7", &d));
    CHECK_INT(TC_ERR_ARG, tc_dtype_from_name(NULL, &d));
    CHECK_INT(TC_ERR_ARG, tc_dtype_from_name("fp32", NULL));
    CHECK_INT(2, tc_dtype_size(TC_FP16));
}

/* A tuple's repr is cut at the buffer, whatever its length: a 100-tuple once ran its pieces
 * past a 128-byte buffer (fuzz/FINDINGS.md F10; under SAN this test read past it). */
TEST(tuple_repr_cut_at_the_buffer) {
    CVal items[100];
    for (int i = 0; i < 100; i++) {
        memset(&items[i], 0, sizeof items[i]);
        items[i].kind = CV_INT;
        items[i].v.i = 1;
    }
    CVal t;
    memset(&t, 0, sizeof t);
    t.kind = CV_TUPLE;
    t.v.tup.n = 100;
    t.v.tup.items = items;
    for (size_t n = 1; n <= 130; n++) {
        char buf[130 + 8];
        memset(buf, 'x', sizeof buf);
        cv_repr(&t, buf, n);
        CHECK(strlen(buf) < n);
        CHECK(buf[n] == 'x');   /* nothing written past n */
    }
    char full[512];
    cv_repr(&t, full, sizeof full);
    CHECK_INT(300, (long long)strlen(full));   /* "(" + 99 × "1, " + "1" + ")" */
    t.v.tup.n = 1;
    cv_repr(&t, full, sizeof full);
    CHECK_STR("(1,)", full);
}
