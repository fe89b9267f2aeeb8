/* test_kept.h — for kernel tests that free everything they make at their end: tensors and
 * modules made through kt_t1/kt_t2/kt_tensor/KT_MODULE are kept and freed by free_all(ctx),
 * then the context. Include after test_kernels_util.h. */
#ifndef TEST_KEPT_H
#define TEST_KEPT_H

#include "test_kernels_util.h"

static tc_tensor *kept_t[512];
static tc_module *kept_m[8];
static int nkept_t, nkept_m;
static tc_tensor *keep_t(tc_tensor *t) {
    if (t && nkept_t < 512) kept_t[nkept_t++] = t;
    return t;
}
static tc_module *keep_m(tc_module *m) {
    if (m && nkept_m < 8) kept_m[nkept_m++] = m;
    return m;
}
static void free_all(tc_context *ctx) {
    for (int i = 0; i < nkept_t; i++) tc_tensor_free(kept_t[i]);
    for (int i = 0; i < nkept_m; i++) tc_module_free(kept_m[i]);
    nkept_t = nkept_m = 0;
    tc_context_free(ctx);
}
#define kt_t1(...) keep_t(kt_t1(__VA_ARGS__))
#define kt_t2(...) keep_t(kt_t2(__VA_ARGS__))
#define kt_tensor(...) keep_t(kt_tensor(__VA_ARGS__))
#undef KT_MODULE
#define KT_MODULE(ctx, file) keep_m(kt_module_((ctx), (file), __FILE__, __LINE__))

#endif
