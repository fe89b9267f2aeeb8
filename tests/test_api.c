/* test_api.c — the public API (tritonc.h): contexts, errors, modules, kernels, tensors,
 * arguments, launches on the interpreter, the specialization cache and its statistics.
 * Expected numbers are worked out by hand or by plain C loops, never read back from tritonc. */
#include "test.h"
#include "tritonc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *KSRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "def host_helper(x):\n"
    "    return x + 1\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offsets = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offsets < n\n"
    "    x = tl.load(x_ptr + offsets, mask=mask)\n"
    "    y = tl.load(y_ptr + offsets, mask=mask)\n"
    "    tl.store(out_ptr + offsets, x + y, mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def scale_kernel(x_ptr, out_ptr, s, n, BLOCK: tl.constexpr = 8):\n"
    "    offsets = tl.arange(0, BLOCK)\n"
    "    mask = offsets < n\n"
    "    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * s, mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def act_kernel(x_ptr, out_ptr, n, KIND: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    offsets = tl.arange(0, BLOCK)\n"
    "    mask = offsets < n\n"
    "    x = tl.load(x_ptr + offsets, mask=mask)\n"
    "    if KIND == \"relu\":\n"
    "        x = tl.maximum(x, 0.0)\n"
    "    else:\n"
    "        x = -x\n"
    "    tl.store(out_ptr + offsets, x, mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def oob_kernel(x_ptr, BLOCK: tl.constexpr):\n"
    "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets) + 1.0)\n"
    "\n"
    "@triton.jit\n"
    "def bad_type_kernel(x_ptr, BLOCK: tl.constexpr):\n"
    "    offsets = tl.arange(0, BLOCK)\n"
    "    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets) + undefined_name)\n";

static tc_context *new_ctx(void) {
    tc_context *ctx = NULL;
    tc_context_new(&ctx);
    tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    return ctx;
}

static tc_module *load(tc_context *ctx) {
    tc_module *m = NULL;
    tc_status s = tc_module_load_string(ctx, "k.py", KSRC, &m);
    if (s) fprintf(stderr, "load failed: %s\n", tc_errmsg(ctx));
    return m;
}

static tc_tensor *f32(tc_context *ctx, const float *v, int64_t n) {
    tc_tensor *t = NULL;
    tc_tensor_from_host(ctx, TC_FP32, 1, &n, v, &t);
    return t;
}

TEST(api_context_and_names) {
    tc_context *ctx = NULL;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    CHECK(ctx != NULL);
    CHECK_INT(TC_OK, tc_context_set_backend(ctx, TC_BACKEND_INTERPRET));
    tc_backend b = TC_BACKEND_AUTO;
    CHECK_INT(TC_OK, tc_context_backend(ctx, &b));
    CHECK_INT(TC_BACKEND_INTERPRET, b);
    CHECK_INT(TC_ERR_ARG, tc_context_set_backend(ctx, (tc_backend)42));
    CHECK_INT(TC_ERR_ARG, tc_errcode(ctx));
    CHECK_STR("TC_ERR_SYNTAX", tc_status_name(TC_ERR_SYNTAX));
    CHECK_STR("fp32", tc_dtype_name(TC_FP32));
    CHECK_INT(2, (int)tc_dtype_size(TC_BF16));
    char buf[64];
    tc_format_double(11.0, buf, sizeof buf);
    CHECK_STR("11.0", buf);
    tc_format_double(0.1f, buf, sizeof buf);  /* the float32 nearest 0.1, as a double */
    CHECK_STR("0.10000000149011612", buf);
    tc_launch_opts o = tc_launch_defaults();
    CHECK_INT(4, o.num_warps);
    CHECK_INT(3, o.num_stages);
    CHECK_INT(1, o.grid[0]);
    tc_context_free(ctx);

    /* TRITON_INTERPRET=1 selects the interpreter for an AUTO context */
    char *old = getenv("TRITON_INTERPRET") ? strdup(getenv("TRITON_INTERPRET")) : NULL;
    setenv("TRITON_INTERPRET", "1", 1);
    tc_context_new(&ctx);
    CHECK_INT(TC_OK, tc_context_backend(ctx, &b));
    CHECK_INT(TC_BACKEND_INTERPRET, b);
    tc_context_free(ctx);
    setenv("TRITON_INTERPRET", "true", 1);
    tc_context_new(&ctx);
    CHECK_INT(TC_OK, tc_context_backend(ctx, &b));
    CHECK_INT(TC_BACKEND_INTERPRET, b);
    tc_context_free(ctx);
    if (old) setenv("TRITON_INTERPRET", old, 1); else unsetenv("TRITON_INTERPRET");
    free(old);
}

TEST(api_modules_and_kernels) {
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    CHECK(m != NULL);
    if (!m) { tc_context_free(ctx); return; }
    /* host_helper is not a kernel */
    CHECK_INT(5, tc_module_kernel_count(m));
    CHECK_STR("add_kernel", tc_module_kernel_name(m, 0));
    CHECK_STR("scale_kernel", tc_module_kernel_name(m, 1));
    CHECK(tc_module_kernel_name(m, 5) == NULL);
    tc_kernel *k = NULL;
    CHECK_INT(TC_ERR_NOT_FOUND, tc_module_kernel(m, "nope", &k));
    CHECK_STR("no kernel named 'nope' in k.py (kernels: add_kernel, scale_kernel, act_kernel, "
              "oob_kernel, bad_type_kernel)", tc_errmsg(ctx));
    CHECK_INT(TC_ERR_NOT_FOUND, tc_module_kernel(m, "host_helper", &k));
    CHECK_INT(TC_OK, tc_module_kernel(m, "add_kernel", &k));
    CHECK_INT(5, tc_kernel_param_count(k));
    int cx = -1;
    CHECK_STR("x_ptr", tc_kernel_param_name(k, 0, &cx));
    CHECK_INT(0, cx);
    CHECK_STR("n", tc_kernel_param_name(k, 3, &cx));
    CHECK_INT(0, cx);
    CHECK_STR("BLOCK", tc_kernel_param_name(k, 4, &cx));
    CHECK_INT(1, cx);
    CHECK(tc_kernel_param_name(k, 5, &cx) == NULL);
    tc_kernel *k2 = NULL;
    CHECK_INT(TC_OK, tc_module_kernel(m, "add_kernel", &k2));
    CHECK(k == k2);
    tc_module_free(m);

    /* a file that does not exist */
    tc_module *mf = NULL;
    CHECK_INT(TC_ERR_NOT_FOUND, tc_module_load_file(ctx, "/nonexistent/dir/k.py", &mf));
    CHECK(mf == NULL);
    CHECK_CONTAINS(tc_errmsg(ctx), "/nonexistent/dir/k.py");
    /* a source beyond 4 MiB */
    size_t big = ((size_t)4 << 20) + 10;
    char *huge = malloc(big + 1);
    if (huge) {
        memset(huge, '#', big);
        huge[big] = 0;
        CHECK_INT(TC_ERR_LIMIT, tc_module_load_string(ctx, "huge.py", huge, &mf));
        CHECK_CONTAINS(tc_errmsg(ctx), "4 MiB");
        free(huge);
    }
    tc_context_free(ctx);
}

TEST(api_syntax_error_location) {
    tc_context *ctx = new_ctx();
    tc_module *m = NULL;
    const char *src = "import triton\n@triton.jit\ndef k(x_ptr):\n    x = (1 +\n";
    tc_status s = tc_module_load_string(ctx, "bad.py", src, &m);
    CHECK_INT(TC_ERR_SYNTAX, s);
    CHECK(m == NULL);
    tc_srcloc loc = tc_errloc(ctx);
    CHECK_STR("bad.py", loc.file);
    CHECK(loc.line >= 4);
    CHECK_CONTAINS(tc_errmsg(ctx), "bad.py:");
    CHECK_CONTAINS(tc_errmsg(ctx), "error:");
    /* an API error has no location */
    tc_module *ok = load(ctx);
    tc_kernel *k;
    tc_module_kernel(ok, "zzz", &k);
    loc = tc_errloc(ctx);
    CHECK(loc.file == NULL);
    CHECK_INT(0, loc.line);
    tc_module_free(ok);
    tc_context_free(ctx);
}

TEST(api_tensor_round_trip) {
    tc_context *ctx = new_ctx();
    static const tc_dtype all[] = {TC_I1, TC_I8, TC_I16, TC_I32, TC_I64, TC_U8, TC_U16,
                                   TC_U32, TC_U64, TC_FP16, TC_BF16, TC_FP32, TC_FP64};
    static const int sizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8};
    for (int d = 0; d < 13; d++) {
        int64_t shape[2] = {3, 5};
        size_t nb = 15 * (size_t)sizes[d];
        unsigned char src[120], dst[128];
        for (size_t i = 0; i < nb; i++) src[i] = all[d] == TC_I1 ? (unsigned char)(i % 2) : (unsigned char)(i * 7 + 3);
        tc_tensor *t = NULL;
        CHECK_INT(TC_OK, tc_tensor_from_host(ctx, all[d], 2, shape, src, &t));
        if (!t) continue;
        CHECK_INT(all[d], tc_tensor_dtype(t));
        CHECK_INT(2, tc_tensor_rank(t));
        CHECK_INT(3, tc_tensor_shape(t)[0]);
        CHECK_INT(5, tc_tensor_shape(t)[1]);
        CHECK_INT(15, tc_tensor_numel(t));
        CHECK_INT((long long)nb, (long long)tc_tensor_nbytes(t));
        memset(dst, 0xAA, sizeof dst);
        CHECK_INT(TC_OK, tc_tensor_to_host(t, dst, sizeof dst));
        CHECK(memcmp(src, dst, nb) == 0);
        CHECK_INT(0xAA, dst[nb]);  /* nothing written past the tensor */
        tc_tensor_free(t);
    }
    /* new tensors are zero-filled */
    int64_t n = 100;
    tc_tensor *z = NULL;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP64, 1, &n, &z));
    double zb[100];
    memset(zb, 0xff, sizeof zb);
    CHECK_INT(TC_OK, tc_tensor_to_host(z, zb, sizeof zb));
    int zeros = 0;
    for (int i = 0; i < 100; i++) zeros += zb[i] == 0.0;
    CHECK_INT(100, zeros);
    /* too small a destination */
    CHECK_INT(TC_ERR_ARG, tc_tensor_to_host(z, zb, 8));
    CHECK_CONTAINS(tc_errmsg(ctx), "800");
    /* copy_from_host */
    for (int i = 0; i < 100; i++) zb[i] = i * 0.5;
    CHECK_INT(TC_OK, tc_tensor_copy_from_host(z, zb, sizeof zb));
    double back[100];
    CHECK_INT(TC_OK, tc_tensor_to_host(z, back, sizeof back));
    CHECK(back[99] == 49.5);
    tc_tensor_free(z);
    /* bad shapes and dtypes */
    tc_tensor *bad = NULL;
    int64_t neg = -1;
    CHECK_INT(TC_ERR_ARG, tc_tensor_new(ctx, TC_FP32, 1, &neg, &bad));
    CHECK_INT(TC_ERR_ARG, tc_tensor_new(ctx, (tc_dtype)99, 1, &n, &bad));
    CHECK_INT(TC_ERR_ARG, tc_tensor_new(ctx, TC_FP32, TC_MAX_RANK + 1, &n, &bad));
    int64_t huge[2] = {(int64_t)1 << 40, (int64_t)1 << 40};
    CHECK_INT(TC_ERR_LIMIT, tc_tensor_new(ctx, TC_FP32, 2, huge, &bad));
    CHECK(bad == NULL);
    /* a 0-d tensor and an empty one */
    tc_tensor *s0 = NULL;
    float one = 1.5f, got = 0;
    CHECK_INT(TC_OK, tc_tensor_from_host(ctx, TC_FP32, 0, NULL, &one, &s0));
    CHECK_INT(1, tc_tensor_numel(s0));
    CHECK_INT(TC_OK, tc_tensor_to_host(s0, &got, sizeof got));
    CHECK(got == 1.5f);
    tc_tensor_free(s0);
    int64_t zero = 0;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_I32, 1, &zero, &s0));
    CHECK_INT(0, tc_tensor_numel(s0));
    tc_tensor_free(s0);
    tc_context_free(ctx);
}

/* tc_tensor_host_data: the interpreter tensor's own memory, written and read in place. */
TEST(api_tensor_host_data) {
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    if (!m) { tc_context_free(ctx); return; }
    CHECK(tc_tensor_host_data(NULL) == NULL);
    int64_t n = 10;  /* 40 bytes: not a multiple of the 64-byte alignment */
    tc_tensor *x = NULL, *y = NULL, *o = NULL;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 1, &n, &x));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 1, &n, &y));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 1, &n, &o));
    float *px = tc_tensor_host_data(x), *py = tc_tensor_host_data(y), *po = tc_tensor_host_data(o);
    CHECK(px && py && po);
    if (!px || !py || !po) goto done;
    CHECK_INT(0, (long long)((uintptr_t)px % 64));
    CHECK(tc_tensor_host_data(x) == px);  /* the same memory every time */
    int zeros = 0;
    for (int i = 0; i < 10; i++) zeros += px[i] == 0.0f;
    CHECK_INT(10, zeros);  /* tc_tensor_new's zeros, seen in place */
    for (int i = 0; i < 10; i++) { px[i] = (float)i; py[i] = 100.0f * (float)i; }
    /* writes through the pointer are the tensor's contents... */
    float got[10];
    CHECK_INT(TC_OK, tc_tensor_to_host(x, got, sizeof got));
    CHECK(got[0] == 0.0f && got[3] == 3.0f && got[9] == 9.0f);
    /* ... for a kernel too, whose stores are seen through the pointer: out = x + y for
     * the first 8 (n = 8), the last two untouched */
    tc_kernel *k;
    tc_args *a = NULL;
    CHECK_INT(TC_OK, tc_module_kernel(m, "add_kernel", &k));
    CHECK_INT(TC_OK, tc_args_new(k, &a));
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "y_ptr", tc_tens(y));
    tc_args_set(a, "out_ptr", tc_tens(o));
    tc_args_set(a, "n", tc_int(8));
    tc_args_set(a, "BLOCK", tc_int(16));
    tc_status s = tc_launch(k, a, NULL);
    CHECK_INT(TC_OK, s);
    if (s) fprintf(stderr, "%s\n", tc_errmsg(ctx));
    CHECK(po[0] == 0.0f && po[1] == 101.0f && po[7] == 707.0f);
    CHECK(po[8] == 0.0f && po[9] == 0.0f);
    /* copy_from_host lands in the same memory */
    float v[10] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
    CHECK_INT(TC_OK, tc_tensor_copy_from_host(o, v, sizeof v));
    CHECK(po[0] == 5.0f && po[9] == 5.0f);
    tc_args_free(a);
done:
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_tensor_free(o);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(api_args_errors) {
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    if (!m) { tc_context_free(ctx); return; }
    tc_kernel *k;
    tc_module_kernel(m, "add_kernel", &k);
    tc_args *a = NULL;
    CHECK_INT(TC_OK, tc_args_new(k, &a));
    CHECK_INT(TC_ERR_ARG, tc_args_set(a, "z_ptr", tc_int(3)));
    CHECK_STR("add_kernel() got an unexpected argument 'z_ptr' (parameters: x_ptr, y_ptr, "
              "out_ptr, n, BLOCK)", tc_errmsg(ctx));
    CHECK_INT(TC_ERR_ARG, tc_args_set_at(a, 5, tc_int(3)));
    CHECK_CONTAINS(tc_errmsg(ctx), "takes 5 arguments");
    CHECK_INT(TC_ERR_ARG, tc_args_set_at(a, -1, tc_int(3)));
    CHECK_INT(TC_ERR_ARG, tc_args_set(a, "x_ptr", tc_tens(NULL)));

    float xs[4] = {1, 2, 3, 4};
    tc_tensor *x = f32(ctx, xs, 4), *y = f32(ctx, xs, 4), *o = f32(ctx, xs, 4);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "y_ptr", tc_tens(y));
    tc_args_set(a, "out_ptr", tc_tens(o));
    tc_args_set(a, "BLOCK", tc_int(4));
    /* n is missing */
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, NULL));
    CHECK_CONTAINS(tc_errmsg(ctx), "missing argument 'n'");
    tc_args_set(a, "n", tc_int(4));
    tc_launch_opts opts = tc_launch_defaults();
    opts.num_warps = 3;
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &opts));
    CHECK_CONTAINS(tc_errmsg(ctx), "num_warps must be a power of 2");
    opts.num_warps = -4;
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &opts));
    opts.num_warps = 4;
    opts.num_stages = -1;
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &opts));
    CHECK_CONTAINS(tc_errmsg(ctx), "num_stages");
    /* a constexpr may not be a tensor; a runtime parameter may not be a string */
    tc_args_set(a, "BLOCK", tc_tens(x));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, NULL));
    CHECK_CONTAINS(tc_errmsg(ctx), "constexpr parameter 'BLOCK'");
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_args_set(a, "n", tc_str("four"));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, NULL));
    CHECK_CONTAINS(tc_errmsg(ctx), "'n'");
    /* the grid beyond CUDA's limits */
    tc_args_set(a, "n", tc_int(4));
    opts = tc_launch_defaults();
    opts.grid[1] = 70000;
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &opts));
    /* within CUDA's limits but more programs than the interpreter runs: refused at once */
    opts = tc_launch_defaults();
    opts.grid[0] = 65536;
    opts.grid[1] = 32768;
    CHECK_INT(TC_ERR_LIMIT, tc_launch(k, a, &opts));
    CHECK_CONTAINS(tc_errmsg(ctx), "2147483648 programs");
    /* an argument list of another kernel */
    tc_kernel *k2;
    tc_module_kernel(m, "scale_kernel", &k2);
    CHECK_INT(TC_ERR_ARG, tc_launch(k2, a, NULL));
    /* tc_args_get: set, unset, unknown */
    tc_value v;
    CHECK_INT(TC_OK, tc_args_get(a, "n", &v));
    CHECK_INT(TC_VAL_INT, v.kind);
    CHECK_INT(4, v.u.i);
    CHECK_INT(TC_ERR_ARG, tc_args_get(a, "nope", &v));
    tc_args *b;
    tc_args_new(k, &b);
    CHECK_INT(TC_ERR_NOT_FOUND, tc_args_get(b, "n", &v));
    tc_args_free(b);
    tc_args_free(a);
    tc_tensor_free(x);
    tc_tensor_free(y);
    tc_tensor_free(o);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* out = x + y, by plain C */
static void ref_add(const float *x, const float *y, float *o, int n) {
    for (int i = 0; i < n; i++) o[i] = x[i] + y[i];
}

TEST(api_launch_by_position_and_name) {
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    if (!m) { tc_context_free(ctx); return; }
    tc_kernel *k;
    tc_module_kernel(m, "add_kernel", &k);
    float xs[4] = {1, 2, 3, 4}, ys[4] = {10, 20, 30, 40}, ref[4], got[4];
    ref_add(xs, ys, ref, 4);
    tc_tensor *x = f32(ctx, xs, 4), *y = f32(ctx, ys, 4), *o;
    int64_t n4 = 4;
    tc_tensor_new(ctx, TC_FP32, 1, &n4, &o);
    tc_args *a;
    tc_args_new(k, &a);
    CHECK_INT(TC_OK, tc_args_set_at(a, 0, tc_tens(x)));
    CHECK_INT(TC_OK, tc_args_set_at(a, 1, tc_tens(y)));
    CHECK_INT(TC_OK, tc_args_set(a, "out_ptr", tc_tens(o)));
    CHECK_INT(TC_OK, tc_args_set_at(a, 3, tc_int(4)));
    CHECK_INT(TC_OK, tc_args_set(a, "BLOCK", tc_int(4)));
    tc_status s = tc_launch(k, a, NULL);
    CHECK_INT(TC_OK, s);
    if (s) fprintf(stderr, "%s\n", tc_errmsg(ctx));
    tc_tensor_to_host(o, got, sizeof got);
    for (int i = 0; i < 4; i++) CHECK(got[i] == ref[i]);
    CHECK(got[0] == 11.0f && got[3] == 44.0f);

    tc_launch_report r;
    tc_last_launch(ctx, &r);
    CHECK_INT(TC_BACKEND_INTERPRET, r.backend);
    CHECK_INT(1, r.compiled);
    CHECK_INT(4, r.num_warps);
    CHECK_INT(3, r.num_stages);
    /* interpreter tensors are 64-byte aligned: pointers get :16; 4 is an i32 not divisible by 16 */
    CHECK_STR("*fp32:16, *fp32:16, *fp32:16, i32, BLOCK=4", r.specialization);
    CHECK_CONTAINS(r.note, "does not model num_warps/num_stages");

    /* setting an argument twice replaces it: a new output */
    tc_tensor *o2;
    tc_tensor_new(ctx, TC_FP32, 1, &n4, &o2);
    tc_args_set(a, "out_ptr", tc_tens(o2));
    tc_args_set(a, "n", tc_int(2));  /* only the first two elements */
    CHECK_INT(TC_OK, tc_launch(k, a, NULL));
    tc_tensor_to_host(o2, got, sizeof got);
    CHECK(got[0] == 11.0f && got[1] == 22.0f && got[2] == 0.0f && got[3] == 0.0f);
    tc_last_launch(ctx, &r);
    CHECK_INT(0, r.compiled);  /* 2 and 4 are both i32, neither ==1 nor divisible by 16 */

    /* a float scalar, and a default constexpr (BLOCK = 8) */
    tc_kernel *ks;
    tc_module_kernel(m, "scale_kernel", &ks);
    tc_args *b;
    tc_args_new(ks, &b);
    tc_tensor *so;
    tc_tensor_new(ctx, TC_FP32, 1, &n4, &so);
    tc_args_set(b, "x_ptr", tc_tens(x));
    tc_args_set(b, "out_ptr", tc_tens(so));
    tc_args_set(b, "s", tc_float(2.5));
    tc_args_set(b, "n", tc_int(4));
    s = tc_launch(ks, b, NULL);
    CHECK_INT(TC_OK, s);
    if (s) fprintf(stderr, "%s\n", tc_errmsg(ctx));
    tc_tensor_to_host(so, got, sizeof got);
    for (int i = 0; i < 4; i++) CHECK(got[i] == xs[i] * 2.5f);
    tc_last_launch(ctx, &r);
    CHECK_STR("*fp32:16, *fp32:16, fp32, i32, BLOCK=8", r.specialization);
    tc_value bv;
    CHECK_INT(TC_OK, tc_args_get(b, "BLOCK", &bv));  /* the literal default */
    CHECK_INT(8, bv.u.i);

    tc_args_free(a);
    tc_args_free(b);
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o); tc_tensor_free(o2); tc_tensor_free(so);
    tc_module_free(m);
    tc_context_free(ctx);
}

static int grid_calls;
static tc_status grid_cdiv(const tc_args *meta, uint32_t grid[3], void *user) {
    tc_value n, block;
    grid_calls++;
    if (tc_args_get(meta, "n", &n) || tc_args_get(meta, "BLOCK", &block)) return TC_ERR_ARG;
    grid[0] = (uint32_t)((n.u.i + block.u.i - 1) / block.u.i);
    *(int *)user = (int)grid[0];
    return TC_OK;
}

static tc_status grid_fails(const tc_args *meta, uint32_t grid[3], void *user) {
    (void)meta; (void)grid; (void)user;
    return TC_ERR_ARG;
}

/* tc_uint: values from 2^63 are u64 parameters (Triton's rule); constexprs refuse them. */
TEST(api_uint_values) {
    tc_value v = tc_uint(5);
    CHECK(v.kind == TC_VAL_INT && v.u.i == 5);
    v = tc_uint(UINT64_MAX);
    CHECK(v.kind == TC_VAL_UINT && (uint64_t)v.u.i == UINT64_MAX);
    v = tc_uint((uint64_t)1 << 63);
    CHECK(v.kind == TC_VAL_UINT && (uint64_t)v.u.i == (uint64_t)1 << 63);
    tc_context *ctx = new_ctx();
    tc_module *m = NULL;
    const char *src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                      "def k(out_ptr, n, C: tl.constexpr):\n    tl.store(out_ptr, n + C)\n";
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "u.py", src, &m));
    tc_kernel *k = NULL;
    tc_args *a = NULL;
    tc_tensor *o = NULL;
    int64_t one = 1;
    CHECK_INT(TC_OK, tc_module_kernel(m, "k", &k));
    CHECK_INT(TC_OK, tc_args_new(k, &a));
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_U64, 1, &one, &o));
    tc_args_set(a, "out_ptr", tc_tens(o));
    tc_args_set(a, "n", tc_uint(UINT64_MAX - 10));
    tc_args_set(a, "C", tc_int(3));
    CHECK_INT(TC_OK, tc_launch(k, a, NULL));
    uint64_t r = 0;
    tc_tensor_to_host(o, &r, sizeof r);
    CHECK(r == UINT64_MAX - 7);
    tc_launch_report rep;
    tc_last_launch(ctx, &rep);
    CHECK_STR("*u64:16, u64, C=3", rep.specialization);
    tc_value g;
    CHECK_INT(TC_OK, tc_args_get(a, "n", &g));
    CHECK(g.kind == TC_VAL_UINT && (uint64_t)g.u.i == UINT64_MAX - 10);
    tc_args_set(a, "C", tc_uint(UINT64_MAX));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, NULL));
    CHECK_CONTAINS(tc_errmsg(ctx), "constexpr parameter 'C' got 18446744073709551615");
    tc_tensor_free(o);
    tc_args_free(a);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(api_grid_callback) {
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    if (!m) { tc_context_free(ctx); return; }
    tc_kernel *k;
    tc_module_kernel(m, "add_kernel", &k);
    enum { N = 10 };
    float xs[N], ys[N], ref[N], got[N];
    for (int i = 0; i < N; i++) { xs[i] = (float)i; ys[i] = 100.0f * i; }
    ref_add(xs, ys, ref, N);
    tc_tensor *x = f32(ctx, xs, N), *y = f32(ctx, ys, N), *o;
    int64_t n = N;
    tc_tensor_new(ctx, TC_FP32, 1, &n, &o);
    tc_args *a;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "y_ptr", tc_tens(y));
    tc_args_set(a, "out_ptr", tc_tens(o));
    tc_args_set(a, "n", tc_int(N));
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_launch_opts opts = tc_launch_defaults();
    int programs = 0;
    opts.grid_fn = grid_cdiv;
    opts.grid_user = &programs;
    grid_calls = 0;
    tc_status s = tc_launch(k, a, &opts);
    CHECK_INT(TC_OK, s);
    if (s) fprintf(stderr, "%s\n", tc_errmsg(ctx));
    CHECK_INT(1, grid_calls);
    CHECK_INT(3, programs);  /* cdiv(10, 4) */
    tc_tensor_to_host(o, got, sizeof got);
    int same = 0;
    for (int i = 0; i < N; i++) same += got[i] == ref[i];
    CHECK_INT(N, same);

    /* a static grid of 2 covers only 8 elements */
    tc_tensor *o2;
    tc_tensor_new(ctx, TC_FP32, 1, &n, &o2);
    tc_args_set(a, "out_ptr", tc_tens(o2));
    opts = tc_launch_defaults();
    opts.grid[0] = 2;
    CHECK_INT(TC_OK, tc_launch(k, a, &opts));
    tc_tensor_to_host(o2, got, sizeof got);
    CHECK(got[7] == ref[7]);
    CHECK(got[8] == 0.0f && got[9] == 0.0f);

    /* a grid of 0 launches nothing, as in Triton */
    tc_tensor *o3;
    tc_tensor_new(ctx, TC_FP32, 1, &n, &o3);
    tc_args_set(a, "out_ptr", tc_tens(o3));
    opts.grid[0] = 0;
    CHECK_INT(TC_OK, tc_launch(k, a, &opts));
    tc_tensor_to_host(o3, got, sizeof got);
    CHECK(got[0] == 0.0f);

    /* a failing grid function fails the launch */
    opts.grid_fn = grid_fails;
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, &opts));
    CHECK_CONTAINS(tc_errmsg(ctx), "grid");

    tc_args_free(a);
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o); tc_tensor_free(o2); tc_tensor_free(o3);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(api_specialization_cache) {
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    if (!m) { tc_context_free(ctx); return; }
    tc_kernel *k;
    tc_module_kernel(m, "add_kernel", &k);
    float xs[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    tc_tensor *x = f32(ctx, xs, 8), *y = f32(ctx, xs, 8), *o = f32(ctx, xs, 8);
    tc_args *a;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "y_ptr", tc_tens(y));
    tc_args_set(a, "out_ptr", tc_tens(o));
    tc_args_set(a, "BLOCK", tc_int(8));
    tc_stats st;
    tc_kernel_stats(k, &st);
    CHECK_INT(0, st.specializations);
    CHECK_INT(0, st.launches);

    /* value of n -> expected (specializations, hits) after the launch, by Triton's rules */
    static const struct { int64_t n; int specs, hits; const char *why; } steps[] = {
        {5, 1, 0, "first launch compiles (i32)"},
        {5, 1, 1, "same key: a hit"},
        {7, 1, 2, "another i32 not divisible by 16: same key"},
        {16, 2, 2, "divisible by 16: new key i32:16"},
        {32, 2, 3, "also divisible by 16: hit"},
        {1, 3, 3, "== 1: constexpr 1, new key"},
        {1, 3, 4, "== 1 again: hit"},
        {(int64_t)1 << 31, 4, 4, "2^31 does not fit i32: i64 (and divisible by 16)"},
        {((int64_t)1 << 31) + 3, 5, 4, "i64 not divisible by 16"},
        {-3, 5, 5, "negative i32: same key as 5"},
        {0, 5, 6, "0 is divisible by 16: the i32:16 key"},
    };
    for (int i = 0; i < (int)(sizeof steps / sizeof steps[0]); i++) {
        tc_args_set(a, "n", tc_int(steps[i].n));
        tc_status s = tc_launch(k, a, NULL);
        CHECK_INT(TC_OK, s);
        if (s) fprintf(stderr, "%s\n", tc_errmsg(ctx));
        tc_kernel_stats(k, &st);
        if (st.specializations != steps[i].specs || st.hits != steps[i].hits)
            fprintf(stderr, "step %d (%s)\n", i, steps[i].why);
        CHECK_INT(steps[i].specs, st.specializations);
        CHECK_INT(steps[i].hits, st.hits);
        CHECK_INT(i + 1, st.launches);
    }
    tc_launch_report r;
    tc_args_set(a, "n", tc_int(16));
    tc_launch(k, a, NULL);
    tc_last_launch(ctx, &r);
    CHECK_STR("*fp32:16, *fp32:16, *fp32:16, i32:16, BLOCK=8", r.specialization);
    tc_args_set(a, "n", tc_int(1));
    tc_launch(k, a, NULL);
    tc_last_launch(ctx, &r);
    CHECK_STR("*fp32:16, *fp32:16, *fp32:16, n=1, BLOCK=8", r.specialization);
    tc_args_set(a, "n", tc_int((int64_t)1 << 31));
    tc_launch(k, a, NULL);
    tc_last_launch(ctx, &r);
    CHECK_STR("*fp32:16, *fp32:16, *fp32:16, i64:16, BLOCK=8", r.specialization);

    /* a new constexpr value is a new specialization; num_warps is not one under the
     * interpreter (it changes nothing there) */
    tc_kernel_stats(k, &st);
    int before = st.specializations;
    tc_args_set(a, "n", tc_int(5));
    tc_args_set(a, "BLOCK", tc_int(4));
    CHECK_INT(TC_OK, tc_launch(k, a, NULL));
    tc_kernel_stats(k, &st);
    CHECK_INT(before + 1, st.specializations);
    tc_launch_opts opts = tc_launch_defaults();
    opts.num_warps = 8;
    CHECK_INT(TC_OK, tc_launch(k, a, &opts));
    tc_kernel_stats(k, &st);
    CHECK_INT(before + 1, st.specializations);
    tc_last_launch(ctx, &r);
    CHECK_INT(8, r.num_warps);
    CHECK_INT(0, r.compiled);

    /* a bool constexpr and an int constexpr with the same value are different keys */
    tc_kernel *ka;
    tc_module_kernel(m, "act_kernel", &ka);
    tc_args *b;
    tc_args_new(ka, &b);
    float vs[4] = {-1, 2, -3, 4}, got[4];
    tc_tensor *vx = f32(ctx, vs, 4), *vo = f32(ctx, vs, 4);
    tc_args_set(b, "x_ptr", tc_tens(vx));
    tc_args_set(b, "out_ptr", tc_tens(vo));
    tc_args_set(b, "n", tc_int(4));
    tc_args_set(b, "BLOCK", tc_int(4));
    tc_args_set(b, "KIND", tc_str("relu"));
    tc_status s = tc_launch(ka, b, NULL);
    CHECK_INT(TC_OK, s);
    if (s) fprintf(stderr, "%s\n", tc_errmsg(ctx));
    tc_tensor_to_host(vo, got, sizeof got);
    CHECK(got[0] == 0.0f && got[1] == 2.0f && got[2] == 0.0f && got[3] == 4.0f);
    tc_last_launch(ctx, &r);
    CHECK_STR("*fp32:16, *fp32:16, i32, KIND='relu', BLOCK=4", r.specialization);
    tc_args_set(b, "KIND", tc_str("neg"));
    CHECK_INT(TC_OK, tc_launch(ka, b, NULL));
    tc_tensor_to_host(vo, got, sizeof got);
    CHECK(got[0] == 1.0f && got[1] == -2.0f);
    tc_args_set(b, "KIND", tc_str("relu"));
    CHECK_INT(TC_OK, tc_launch(ka, b, NULL));
    tc_kernel_stats(ka, &st);
    CHECK_INT(2, st.specializations);
    CHECK_INT(1, st.hits);

    tc_args_free(a);
    tc_args_free(b);
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o); tc_tensor_free(vx); tc_tensor_free(vo);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(api_runtime_and_compile_errors) {
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    if (!m) { tc_context_free(ctx); return; }
    tc_kernel *k;
    tc_module_kernel(m, "oob_kernel", &k);
    float xs[4] = {0, 0, 0, 0}, got[4];
    tc_tensor *x = f32(ctx, xs, 4);
    tc_args *a;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_launch_opts opts = tc_launch_defaults();
    CHECK_INT(TC_OK, tc_launch(k, a, &opts));  /* program 0 stays inside the tensor */
    tc_tensor_to_host(x, got, sizeof got);
    CHECK(got[0] == 1.0f && got[3] == 1.0f);
    opts.grid[0] = 2;                          /* program 1 reads x[4..8): outside */
    CHECK_INT(TC_ERR_RUNTIME, tc_launch(k, a, &opts));
    CHECK_CONTAINS(tc_errmsg(ctx), "k.py:");
    CHECK_CONTAINS(tc_errmsg(ctx), "program");
    tc_srcloc loc = tc_errloc(ctx);
    CHECK_INT(36, loc.line);  /* the tl.store/tl.load line of oob_kernel */
    tc_args_free(a);

    tc_kernel *kb;
    tc_module_kernel(m, "bad_type_kernel", &kb);
    tc_args_new(kb, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_status s = tc_launch(kb, a, NULL);
    CHECK(s == TC_ERR_COMPILE || s == TC_ERR_SYNTAX);
    loc = tc_errloc(ctx);
    CHECK_INT(41, loc.line);
    CHECK_CONTAINS(tc_errmsg(ctx), "undefined_name");
    tc_stats st;
    tc_kernel_stats(kb, &st);
    CHECK_INT(0, st.specializations);  /* nothing cached for a failed compile */
    tc_args_free(a);
    tc_tensor_free(x);
    tc_module_free(m);
    /* the location's file outlives the module */
    loc = tc_errloc(ctx);
    CHECK_STR("k.py", loc.file);
    tc_context_free(ctx);
}

static char printed[4096];
static void collect(const char *text, void *user) {
    (void)user;
    strncat(printed, text, sizeof printed - strlen(printed) - 1);
}

TEST(api_print_callback) {
    tc_context *ctx = new_ctx();
    const char *src =
        "import triton\nimport triton.language as tl\n"
        "@triton.jit\n"
        "def p_kernel(x_ptr):\n"
        "    tl.device_print(\"val\", tl.load(x_ptr))\n";
    tc_module *m = NULL;
    if (tc_module_load_string(ctx, "p.py", src, &m)) {
        fprintf(stderr, "%s\n", tc_errmsg(ctx));
        CHECK(0);
        tc_context_free(ctx);
        return;
    }
    tc_kernel *k;
    tc_module_kernel(m, "p_kernel", &k);
    int32_t v = 42;
    int64_t one = 1;
    tc_tensor *x;
    tc_tensor_from_host(ctx, TC_I32, 1, &one, &v, &x);
    tc_args *a;
    tc_args_new(k, &a);
    tc_args_set(a, "x_ptr", tc_tens(x));
    printed[0] = 0;
    tc_set_print(ctx, collect, NULL);
    tc_status s = tc_launch(k, a, NULL);
    CHECK_INT(TC_OK, s);
    if (s) fprintf(stderr, "%s\n", tc_errmsg(ctx));
    CHECK_CONTAINS(printed, "42");
    CHECK_CONTAINS(printed, "val");
    /* without a callback, the text is kept */
    tc_set_print(ctx, NULL, NULL);
    CHECK_INT(TC_OK, tc_launch(k, a, NULL));
    char *kept = tc_take_output(ctx);
    CHECK_CONTAINS(kept, "42");
    tc_free(kept);
    CHECK(tc_take_output(ctx) == NULL);
    tc_args_free(a);
    tc_tensor_free(x);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(api_compile_ptx) {
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    if (!m) { tc_context_free(ctx); return; }
    tc_kernel *k;
    tc_module_kernel(m, "add_kernel", &k);
    tc_args *a;
    tc_args_new(k, &a);
    tc_args_set(a, "BLOCK", tc_int(256));
    tc_target t = {"cuda", 80, 32, 0};
    const char *sig[4] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32"};
    char *ptx = NULL;
    tc_status s = tc_compile_ptx(k, &t, sig, 4, a, 4, &ptx);
    CHECK_INT(TC_OK, s);
    if (s) fprintf(stderr, "%s\n", tc_errmsg(ctx));
    CHECK_CONTAINS(ptx, ".target sm_80");
    CHECK_CONTAINS(ptx, ".entry");
    tc_free(ptx);
    ptx = NULL;
    CHECK_INT(TC_ERR_ARG, tc_compile_ptx(k, &t, sig, 3, a, 4, &ptx));
    CHECK_CONTAINS(tc_errmsg(ctx), "4 runtime parameters");
    const char *bad[4] = {"*fp32:16", "*float99", "*fp32", "i32"};
    CHECK_INT(TC_ERR_ARG, tc_compile_ptx(k, &t, bad, 4, a, 4, &ptx));
    CHECK_CONTAINS(tc_errmsg(ctx), "*float99");
    CHECK_INT(TC_ERR_ARG, tc_compile_ptx(k, &t, sig, 4, a, 6, &ptx));
    tc_args *none;
    tc_args_new(k, &none);
    CHECK_INT(TC_ERR_ARG, tc_compile_ptx(k, &t, sig, 4, none, 4, &ptx));
    CHECK_CONTAINS(tc_errmsg(ctx), "BLOCK");
    CHECK(ptx == NULL);
    tc_args_free(none);
    tc_args_free(a);
    tc_module_free(m);
    tc_context_free(ctx);
}

/* The threading contract (tritonc.h): one context per thread, all at once — launches on the
 * interpreter (its own worker threads too) and ahead-of-time compiles through one disk cache.
 * `make TSAN=1 test` runs this under ThreadSanitizer. */
static void *api_thread(void *p) {
    int *ok = p;
    tc_context *ctx = new_ctx();
    tc_module *m = load(ctx);
    tc_kernel *k = NULL;
    tc_args *a = NULL;
    float xs[64], ys[64], r[64];
    for (int i = 0; i < 64; i++) { xs[i] = (float)i; ys[i] = (float)(2 * i); }
    tc_tensor *x = f32(ctx, xs, 64), *y = f32(ctx, ys, 64), *o = f32(ctx, ys, 64);
    int good = m && !tc_module_kernel(m, "add_kernel", &k) && !tc_args_new(k, &a) && x && y && o;
    if (good) {
        tc_args_set(a, "x_ptr", tc_tens(x));
        tc_args_set(a, "y_ptr", tc_tens(y));
        tc_args_set(a, "out_ptr", tc_tens(o));
        tc_args_set(a, "n", tc_int(64));
        tc_args_set(a, "BLOCK", tc_int(16));
        tc_launch_opts opts = tc_launch_defaults();
        opts.grid[0] = 4;
        opts.threads = 2;
        for (int i = 0; i < 3 && good; i++) good = tc_launch(k, a, &opts) == TC_OK;
        good = good && tc_tensor_to_host(o, r, sizeof r) == TC_OK;
        for (int i = 0; good && i < 64; i++) good = r[i] == 3.0f * i;
        tc_target t;
        tc_target_parse("cuda:90a", &t);
        const char *sig[4] = {"*fp32:16", "*fp32:16", "*fp32:16", "i32"};
        tc_compiled *c = NULL;
        good = good && tc_compile(k, &t, sig, 4, a, 4, 3, &c) == TC_OK && c->ptx;
        tc_compiled_free(c);
    }
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o);
    tc_args_free(a);
    tc_module_free(m);
    tc_context_free(ctx);
    *ok = good;
    return NULL;
}

TEST(api_threads_one_context_each) {
    char dir[] = "/tmp/tritonc-test-threads-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    setenv("TRITONC_CACHE_DIR", dir, 1);
    enum { NT = 4 };
    pthread_t th[NT];
    int ok[NT];
    for (int i = 0; i < NT; i++) CHECK_INT(0, pthread_create(&th[i], NULL, api_thread, &ok[i]));
    for (int i = 0; i < NT; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < NT; i++) CHECK(ok[i]);
    unsetenv("TRITONC_CACHE_DIR");
    char cmd[200], out[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    test_run(cmd, out, sizeof out);
}
