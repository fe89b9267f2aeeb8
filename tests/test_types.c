/* test_types.c — Triton's type rules (types.c). Expected values come from
 * reference/triton-language.md §3.2–§3.4 and §4 (Triton's semantic.py), not from the code. */
#include "test.h"
#include "trace/trace.h"

#include <float.h>

static int lit(CVal c) {
    int dt = -1;
    if (!literal_dtype(&c, &dt)) return -1;
    return dt;
}

TEST(types_literal_dtype) {
    CHECK_INT(DT_I1, lit(cv_bool(true)));
    CHECK_INT(DT_I32, lit(cv_int(5)));
    CHECK_INT(DT_I32, lit(cv_int(2147483647)));
    CHECK_INT(DT_I32, lit(cv_int(-2147483648LL)));
    CHECK_INT(DT_U32, lit(cv_int(2147483648LL)));
    CHECK_INT(DT_U32, lit(cv_int(4294967295LL)));
    CHECK_INT(DT_I64, lit(cv_int(4294967296LL)));
    CHECK_INT(DT_I64, lit(cv_int(-2147483649LL)));
    CHECK_INT(DT_I64, lit(cv_int(1LL << 40)));     /* test_constexpr: 2**40 -> i64 */
    CVal big = cv_int(0);
    big.big = true;
    big.v.u = 1ULL << 63;
    CHECK_INT(DT_U64, lit(big));
    CHECK_INT(DT_FP32, lit(cv_float(1e10)));        /* test_constexpr: 1e+10 -> f32 */
    CHECK_INT(DT_FP64, lit(cv_float(1e50)));        /* 1e+50 -> f64 */
    CHECK_INT(DT_FP64, lit(cv_float(1e-40)));       /* fp32 subnormal -> f64 */
    CHECK_INT(DT_FP32, lit(cv_float(NAN)));
    CHECK_INT(DT_FP32, lit(cv_float(-INFINITY)));
    CHECK_INT(DT_FP32, lit(cv_float(0.0)));
    CHECK_INT(DT_FP32, lit(cv_float(ldexp(1.0, -126))));
    CHECK_INT(DT_FP32, lit(cv_float(-(double)FLT_MAX)));
    CHECK_INT(DT_FP64, lit(cv_float(3.5e38)));
    CHECK_INT(DT_FP32, lit(cv_float(0.5)));
    CHECK_INT(-1, lit(cv_str("x")));
    CHECK_INT(-1, lit(cv_none()));
}

static int pr(int a, int b, const char *op) {
    char msg[512];
    return promote_dtypes(a, b, py_op_find(op, strlen(op), PYOP_BINARY | PYOP_COMPARE), msg, sizeof msg);
}

TEST(types_promote_float) {
    CHECK_INT(DT_FP64, pr(DT_FP64, DT_FP32, "+"));
    CHECK_INT(DT_FP64, pr(DT_I8, DT_FP64, "*"));
    CHECK_INT(DT_FP32, pr(DT_FP32, DT_FP16, "+"));
    CHECK_INT(DT_FP32, pr(DT_BF16, DT_FP32, "-"));
    CHECK_INT(DT_FP16, pr(DT_FP16, DT_FP16, "+"));
    CHECK_INT(DT_FP16, pr(DT_FP16, DT_FP16, "*"));
    CHECK_INT(DT_FP32, pr(DT_FP16, DT_FP16, "/"));
    CHECK_INT(DT_FP32, pr(DT_FP16, DT_FP16, "%"));
    CHECK_INT(DT_FP16, pr(DT_FP16, DT_BF16, "+"));  /* the fp16 rule fires first */
    CHECK_INT(DT_FP32, pr(DT_BF16, DT_FP16, "/"));
    CHECK_INT(DT_BF16, pr(DT_BF16, DT_BF16, "-"));
    CHECK_INT(DT_FP32, pr(DT_BF16, DT_BF16, "/"));
    CHECK_INT(DT_FP32, pr(DT_BF16, DT_I32, "+"));   /* exactly one bf16 -> fp32 */
    CHECK_INT(DT_FP32, pr(DT_I8, DT_BF16, "*"));
    CHECK_INT(DT_FP16, pr(DT_FP16, DT_I64, "+"));
    CHECK_INT(DT_FP32, pr(DT_I64, DT_FP32, "+"));
    CHECK_INT(DT_FP16, pr(DT_FP16, DT_FP16, "<"));
}

TEST(types_promote_int) {
    CHECK_INT(DT_I8, pr(DT_I8, DT_I8, "+"));        /* no C int promotion */
    CHECK_INT(DT_I16, pr(DT_I8, DT_I16, "+"));
    CHECK_INT(DT_U32, pr(DT_I32, DT_U32, "+"));
    CHECK_INT(DT_I64, pr(DT_I64, DT_U32, "*"));
    CHECK_INT(DT_U8, pr(DT_I8, DT_U8, "+"));
    CHECK_INT(DT_I16, pr(DT_U8, DT_I16, "-"));
    CHECK_INT(DT_I1, pr(DT_I1, DT_I1, "+"));
    CHECK_INT(DT_I8, pr(DT_I1, DT_I8, "+"));
    CHECK_INT(DT_U8, pr(DT_I1, DT_U8, "+"));
    CHECK_INT(DT_U32, pr(DT_U16, DT_U32, "+"));
    CHECK_INT(DT_U64, pr(DT_I64, DT_U64, "+"));
    CHECK_INT(DT_I64, pr(DT_I32, DT_I64, "&"));
    CHECK_INT(DT_U32, pr(DT_I32, DT_U32, "<<"));
    CHECK_INT(DT_I32, pr(DT_I32, DT_I32, "/"));     /* computation type; "/" casts to fp32 later */
    CHECK_INT(DT_I32, pr(DT_I32, DT_I32, "//"));
    CHECK_INT(DT_U32, pr(DT_I32, DT_U32, "<"));
}

TEST(types_promote_errors) {
    char msg[512];
    CHECK_INT(DT_VOID, promote_dtypes(DT_I32, DT_U32, PY_DIV, msg, sizeof msg));
    CHECK_STR("Cannot use /, #, or % with triton.language.int32 and triton.language.uint32 because "
              "they have different signedness;this is unlikely to result in a useful answer. Cast them "
              "to the same signedness.", msg);
    CHECK_INT(DT_VOID, promote_dtypes(DT_U8, DT_I8, PY_FLOORDIV, msg, sizeof msg));
    CHECK_CONTAINS(msg, "different signedness");
    CHECK_INT(DT_VOID, promote_dtypes(DT_I64, DT_U64, PY_MOD, msg, sizeof msg));
    CHECK_CONTAINS(msg, "different signedness");
    CHECK_INT(DT_VOID, promote_dtypes(DT_I1, DT_I8, PY_DIV, msg, sizeof msg)); /* int1 is unsigned */
    CHECK_INT(DT_VOID, promote_dtypes(DT_FP32, DT_FP32, PY_FLOORDIV, msg, sizeof msg));
    CHECK_STR("unexpected type fp32", msg);
    CHECK_INT(DT_VOID, promote_dtypes(DT_I32, DT_FP16, PY_FLOORDIV, msg, sizeof msg));
    CHECK_INT(DT_VOID, promote_dtypes(DT_FP32, DT_I32, PY_BITAND, msg, sizeof msg));
    CHECK_CONTAINS(msg, "invalid operands of type");
    CHECK_INT(DT_VOID, promote_dtypes(DT_FP16, DT_FP16, PY_BITXOR, msg, sizeof msg));
    CHECK_INT(DT_VOID, promote_dtypes(DT_FP32, DT_I32, PY_RSHIFT, msg, sizeof msg));
}

static bool bc(int ra, const int32_t *sa, int rb, const int32_t *sb, int *rank, int32_t *out, char *msg) {
    Type a = type_block(DT_FP32, ra, sa), b = type_block(DT_FP32, rb, sb);
    return broadcast_shapes(&a, &b, rank, out, msg, 256);
}

TEST(types_broadcast) {
    char msg[256];
    int rank;
    int32_t out[TC_MAX_RANK];
    int32_t a41[] = {4, 1}, a18[] = {1, 8}, a8[] = {8}, a48[] = {4, 8}, a4[] = {4}, a84[] = {8, 4};
    int32_t a324[] = {3, 2, 4}, a24[] = {2, 4};
    CHECK(bc(2, a41, 2, a18, &rank, out, msg));
    CHECK_INT(2, rank);
    CHECK_INT(4, out[0]);
    CHECK_INT(8, out[1]);
    CHECK(bc(1, a8, 2, a48, &rank, out, msg));
    CHECK_INT(2, rank);
    CHECK_INT(4, out[0]);
    CHECK_INT(8, out[1]);
    CHECK(bc(2, a24, 3, a324, &rank, out, msg));
    CHECK_INT(3, rank);
    CHECK_INT(3, out[0]);
    CHECK(bc(0, NULL, 2, a48, &rank, out, msg));
    CHECK_INT(2, rank);
    CHECK(!bc(1, a4, 1, a8, &rank, out, msg));
    CHECK_STR("Cannot make_shape_compatible: incompatible dimensions at index 0: 4 and 8", msg);
    CHECK(!bc(2, a48, 2, a84, &rank, out, msg));
    CHECK_CONTAINS(msg, "at index 0: 4 and 8");
    CHECK(!bc(1, a4, 2, a48, &rank, out, msg));
    CHECK_CONTAINS(msg, "at index 1: 4 and 8");
}

TEST(types_pow2_and_names) {
    CHECK(is_pow2(1));
    CHECK(is_pow2(2));
    CHECK(is_pow2(1024));
    CHECK(is_pow2(1 << 20));
    CHECK(!is_pow2(0));
    CHECK(!is_pow2(3));
    CHECK(!is_pow2(-4));
    CHECK(!is_pow2(96));
    CHECK_INT(DT_FP32, dtype_from_tl_name("float32"));
    CHECK_INT(DT_FP32, dtype_from_tl_name("fp32"));
    CHECK_INT(DT_BF16, dtype_from_tl_name("triton.language.bfloat16"));
    CHECK_INT(DT_FP16, dtype_from_tl_name("float16"));
    CHECK_INT(DT_I1, dtype_from_tl_name("int1"));
    CHECK_INT(DT_I8, dtype_from_tl_name("int8"));
    CHECK_INT(DT_U32, dtype_from_tl_name("uint32"));
    CHECK_INT(DT_I64, dtype_from_tl_name("i64"));
    CHECK_INT(DT_FP64, dtype_from_tl_name("float64"));
    CHECK_INT(DT_FP8E5, dtype_from_tl_name("float8e5"));
    CHECK_INT(DT_VOID, dtype_from_tl_name("float8e4b8")); /* AMD only */
    CHECK_INT(DT_VOID, dtype_from_tl_name("nonsense"));
}
