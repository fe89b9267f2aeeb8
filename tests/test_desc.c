/* test_desc.c — host tensor descriptors (tc_tensor_descriptor, the CLI's desc(...)) and the
 * kernel side (tl.tensor_descriptor: attributes, desc.load / desc.store with partial tiles),
 * a pre_hook setting block_shape, and the errors. Kernels: tests/kernels/desc.py. */
#include "test.h"
#include "tritonc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *DFILE = "tests/kernels/desc.py";

static tc_context *ictx(void) {
    tc_context *ctx = NULL;
    tc_context_new(&ctx);
    tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    return ctx;
}

static tc_kernel *kern(tc_context *ctx, tc_module **m, const char *name) {
    tc_kernel *k = NULL;
    if (tc_module_load_file(ctx, DFILE, m) != TC_OK) return NULL;
    tc_module_kernel(*m, name, &k);
    return k;
}

TEST(desc_tile_copy_partial_tiles) {
    /* a 5x6 fp32 matrix copied (+1) through 4x4 blocks: a 2x2 grid whose edge tiles hang
     * over the matrix; out-of-bounds elements read as zero and are not written */
    tc_context *ctx = ictx();
    tc_module *m = NULL;
    tc_kernel *k = kern(ctx, &m, "tile_copy");
    CHECK(k != NULL);
    enum { M = 5, N = 6 };
    float x[M * N];
    for (int i = 0; i < M * N; i++) x[i] = (float)i;
    int64_t shape[2] = {M, N}, big[2] = {M + 1, N};   /* dst has a guard row */
    int64_t blk[2] = {4, 4};
    tc_tensor *src = NULL, *dst = NULL, *sd = NULL, *dd = NULL;
    tc_tensor_from_host(ctx, TC_FP32, 2, shape, x, &src);
    tc_tensor_new(ctx, TC_FP32, 2, big, &dst);
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, src, 2, NULL, NULL, blk, &sd));
    /* dst's descriptor covers only its first M rows: the guard row must stay 0 */
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, dst, 2, shape, NULL, blk, &dd));
    int64_t s[2], st[2], b[2];
    CHECK_INT(2, tc_tensor_descriptor_info(dd, s, st, b));
    CHECK(s[0] == M && s[1] == N && st[0] == N && st[1] == 1 && b[0] == 4 && b[1] == 4);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "src_desc", tc_tens(sd));
    tc_args_set(a, "dst_desc", tc_tens(dd));
    tc_args_set(a, "M", tc_int(M));
    tc_args_set(a, "N", tc_int(N));
    tc_args_set(a, "BM", tc_int(4));
    tc_args_set(a, "BN", tc_int(4));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2; o.grid[1] = 2; o.grid[2] = 1;
    o.check = 1;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    float y[(M + 1) * N];
    tc_tensor_to_host(dst, y, sizeof y);
    int bad = 0;
    for (int i = 0; i < M * N; i++) bad += y[i] != (float)i + 1;
    for (int i = M * N; i < (M + 1) * N; i++) bad += y[i] != 0;
    CHECK_INT(0, bad);
    tc_launch_report lr;
    tc_last_launch(ctx, &lr, sizeof lr);
    CHECK_CONTAINS(lr.specialization, "desc<fp32:16,[4,4],shape=[5,6],strides=[6,1]>");
    tc_args_free(a);
    tc_tensor_free(sd);
    tc_tensor_free(dd);
    tc_tensor_free(src);
    tc_tensor_free(dst);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(desc_attributes_in_the_kernel) {
    tc_context *ctx = ictx();
    tc_module *m = NULL;
    tc_kernel *k = kern(ctx, &m, "desc_info");
    CHECK(k != NULL);
    /* a 3x8 fp16 tensor seen through a strided 3x4 descriptor (every other column) */
    int64_t shape[2] = {3, 8}, dshape[2] = {3, 4}, dstr[2] = {8, 2}, blk[2] = {2, 4}, seven = 7;
    tc_tensor *t = NULL, *d = NULL, *out = NULL;
    tc_tensor_new(ctx, TC_FP16, 2, shape, &t);
    tc_tensor_new(ctx, TC_I64, 1, &seven, &out);
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, t, 2, dshape, dstr, blk, &d));
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "d", tc_tens(d));
    tc_args_set(a, "out_ptr", tc_tens(out));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 1;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    if (tc_errmsg(ctx)[0]) printf("%s\n", tc_errmsg(ctx));
    int64_t r[7] = {0};
    tc_tensor_to_host(out, r, sizeof r);
    CHECK(r[0] == 2 && r[1] == 4 && r[2] == 3 && r[3] == 4 && r[4] == 8 && r[5] == 2 && r[6] == 1);
    tc_args_free(a);
    tc_tensor_free(d);
    tc_tensor_free(t);
    tc_tensor_free(out);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(desc_strided_1d_offsets_outside) {
    /* a 1-D descriptor of shape 5, stride 2 over 10 ints: elements 0,2,4,6,8 (values 0,20,...) */
    tc_context *ctx = ictx();
    tc_module *m = NULL;
    tc_kernel *k = kern(ctx, &m, "row_sum");
    CHECK(k != NULL);
    int32_t v[10];
    for (int i = 0; i < 10; i++) v[i] = 10 * i;
    int64_t n = 10, sh = 5, st = 2, blk = 4;
    tc_tensor *t = NULL, *d = NULL, *out = NULL;
    tc_tensor_from_host(ctx, TC_I32, 1, &n, v, &t);
    tc_tensor_new(ctx, TC_I32, 1, &blk, &out);
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, t, 1, &sh, &st, &blk, &d));
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "d", tc_tens(d));
    tc_args_set(a, "out_ptr", tc_tens(out));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 1;
    o.check = 1;
    /* offset -2: indices -2..1 -> 0, 0, v[0], v[2] */
    tc_args_set(a, "off", tc_int(-2));
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    int32_t r[4];
    tc_tensor_to_host(out, r, sizeof r);
    CHECK(r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 20);
    /* offset 3: indices 3..6 -> v[6], v[8], 0, 0 */
    tc_args_set(a, "off", tc_int(3));
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    tc_tensor_to_host(out, r, sizeof r);
    CHECK(r[0] == 60 && r[1] == 80 && r[2] == 0 && r[3] == 0);
    tc_args_free(a);
    tc_tensor_free(d);
    tc_tensor_free(t);
    tc_tensor_free(out);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(desc_host_errors) {
    tc_context *ctx = ictx();
    int64_t shape[2] = {4, 4}, blk[2] = {4, 4}, blk3[2] = {3, 4}, st[2] = {5, 1}, neg[2] = {-1, 1};
    tc_tensor *t = NULL, *d = NULL;
    tc_tensor_new(ctx, TC_FP32, 2, shape, &t);
    CHECK_INT(TC_ERR_ARG, tc_tensor_descriptor(ctx, t, 2, NULL, NULL, blk3, &d));
    CHECK_CONTAINS(tc_errmsg(ctx), "block dimension 0 is 3; block dimensions are powers of two");
    CHECK_INT(TC_ERR_ARG, tc_tensor_descriptor(ctx, t, 1, NULL, NULL, blk, &d));
    CHECK_CONTAINS(tc_errmsg(ctx), "block shape has 1 dimensions but the tensor has 2");
    /* strides 5,1 over a 4x4 reach element 3*5+3 = 18 of 16 */
    CHECK_INT(TC_ERR_ARG, tc_tensor_descriptor(ctx, t, 2, shape, st, blk, &d));
    CHECK_CONTAINS(tc_errmsg(ctx), "reach element 18 of a tensor of 16");
    CHECK_INT(TC_ERR_ARG, tc_tensor_descriptor(ctx, t, 2, shape, neg, blk, &d));
    CHECK_CONTAINS(tc_errmsg(ctx), "negative");
    CHECK(d == NULL);
    tc_tensor_free(t);
    tc_context_free(ctx);
}

/* Launches kernel `name` of desc.py with d (a 4x4 fp32 descriptor, block 4x4) as parameter
 * `d` (and out_ptr a 4-float tensor when the kernel has one); the status and message. */
static tc_status launch_d(tc_context *ctx, const char *name, char *msg, size_t n) {
    tc_module *m = NULL;
    tc_kernel *k = kern(ctx, &m, name);
    int64_t shape[2] = {4, 4}, blk[2] = {4, 4}, four = 4;
    tc_tensor *t = NULL, *d = NULL, *out = NULL;
    tc_tensor_new(ctx, TC_FP32, 2, shape, &t);
    tc_tensor_new(ctx, TC_FP32, 1, &four, &out);
    tc_tensor_descriptor(ctx, t, 2, NULL, NULL, blk, &d);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "d", tc_tens(d));
    if (tc_kernel_param_count(k) > 1) tc_args_set(a, "out_ptr", tc_tens(out));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 1;
    tc_status rc = tc_launch(k, a, &o);
    snprintf(msg, n, "%s", tc_errmsg(ctx));
    tc_args_free(a);
    tc_tensor_free(d);
    tc_tensor_free(t);
    tc_tensor_free(out);
    tc_module_free(m);
    return rc;
}

TEST(desc_kernel_errors) {
    tc_context *ctx = ictx();
    char msg[1024];
    CHECK(launch_d(ctx, "as_pointer", msg, sizeof msg) != TC_OK);
    CHECK_CONTAINS(msg, "desc.py:40:17:");
    CHECK_CONTAINS(msg, "a tensor descriptor is not a pointer");
    CHECK(launch_d(ctx, "bad_store", msg, sizeof msg) != TC_OK);
    CHECK_CONTAINS(msg, "desc.py:46:5:");
    CHECK_CONTAINS(msg, "desc.store: the value has shape [2, 2] but the descriptor's block shape is [4, 4]");
    CHECK(launch_d(ctx, "bad_rank", msg, sizeof msg) != TC_OK);
    CHECK_CONTAINS(msg, "desc.py:51:9:");
    CHECK_CONTAINS(msg, "desc.load: 1 offsets given for a descriptor of rank 2");
    tc_context_free(ctx);
}

TEST(desc_pre_hook_sets_block_shape) {
    /* the descriptors are made with 1x1 blocks; the config's pre_hook makes them 4x2 */
    tc_context *ctx = ictx();
    tc_module *m = NULL;
    tc_kernel *k = kern(ctx, &m, "hooked_copy");
    CHECK(k != NULL);
    enum { M = 6, N = 3 };
    float x[M * N];
    for (int i = 0; i < M * N; i++) x[i] = (float)i;
    int64_t shape[2] = {M, N}, one[2] = {1, 1};
    tc_tensor *xt = NULL, *yt = NULL, *xd = NULL, *yd = NULL;
    tc_tensor_from_host(ctx, TC_FP32, 2, shape, x, &xt);
    tc_tensor_new(ctx, TC_FP32, 2, shape, &yt);
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, xt, 2, NULL, NULL, one, &xd));
    CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, yt, 2, NULL, NULL, one, &yd));
    tc_args *a = NULL;
    tc_args_new(k, &a);
    tc_args_set(a, "x_desc", tc_tens(xd));
    tc_args_set(a, "y_desc", tc_tens(yd));
    tc_args_set(a, "M", tc_int(M));
    tc_args_set(a, "N", tc_int(N));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2; o.grid[1] = 2; o.grid[2] = 1;   /* cdiv(6, 4) x cdiv(3, 2) */
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    if (tc_errmsg(ctx)[0]) printf("%s\n", tc_errmsg(ctx));
    float y[M * N];
    tc_tensor_to_host(yt, y, sizeof y);
    int bad = 0;
    for (int i = 0; i < M * N; i++) bad += y[i] != 2.0f * (float)i;
    CHECK_INT(0, bad);
    int64_t b[2];
    tc_tensor_descriptor_info(xd, NULL, NULL, b);
    CHECK(b[0] == 4 && b[1] == 2);
    /* a block shape of the wrong rank, set by the hook, is refused with its location */
    tc_args_set(a, "N", tc_int(99));
    CHECK(tc_launch(k, a, &o) != TC_OK);
    CHECK_CONTAINS(tc_errmsg(ctx), "desc.py:59:9:");
    CHECK_CONTAINS(tc_errmsg(ctx), "block_shape has 1 entries but the descriptor has rank 2");
    tc_args_free(a);
    tc_tensor_free(xd);
    tc_tensor_free(yd);
    tc_tensor_free(xt);
    tc_tensor_free(yt);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(desc_cli_form) {
    char out[8192], cmd[2048];
    /* a 1-D arange(30) seen as 5x6 through 4x4 blocks, copied +1 into y */
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET %s/tritonc run %s tile_copy --interpret "
             "--tensor 'x=fp32:arange(30)' --tensor 'y=fp32:zeros(5,6)' "
             "'src_desc=desc(x, [4,4], shape=[5,6])' 'dst_desc=desc(y,[4,4])' M=5 N=6 BM=4 BN=4 "
             "--grid 2,2 --print y", test_build_dir(), DFILE);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "y = [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0], "
                        "[13.0, 14.0, 15.0, 16.0, 17.0, 18.0], [19.0, 20.0, 21.0, 22.0, 23.0, 24.0], "
                        "[25.0, 26.0, 27.0, 28.0, 29.0, 30.0]]");
    /* strides given: every other element of arange(8), block 2 at offset 1 -> x[2], x[4] */
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET %s/tritonc run %s row_sum --interpret "
             "--tensor 'x=i32:arange(8)' 'd=desc(x,[2],shape=[4],strides=[2])' 'out_ptr=i32:zeros(2)' "
             "off=1 --grid 1 --print out_ptr", test_build_dir(), DFILE);
    CHECK_INT(0, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "out_ptr = [2, 4]");
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET %s/tritonc run %s row_sum --interpret "
             "'d=desc(q,[2])' 'out_ptr=i32:zeros(2)' off=1 --grid 1", test_build_dir(), DFILE);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "argument d: desc(): no tensor named 'q'");
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET %s/tritonc run %s row_sum --interpret "
             "--tensor 'x=i32:arange(8)' 'd=desc(x,[2],shape=[4,4])' 'out_ptr=i32:zeros(2)' off=1 --grid 1",
             test_build_dir(), DFILE);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "one entry per dimension");
    snprintf(cmd, sizeof cmd, "env -u TRITON_INTERPRET %s/tritonc run %s row_sum --interpret "
             "--tensor 'x=i32:arange(8)' 'd=desc(x,[2]' 'out_ptr=i32:zeros(2)' off=1 --grid 1",
             test_build_dir(), DFILE);
    CHECK_INT(2, test_run(cmd, out, sizeof out));
    CHECK_CONTAINS(out, "expected desc(TENSOR,[B0,B1,...])");
}

/* ---- the GPU backend: desc.load / desc.store lower to masked loads and stores ------------ */

#include "trace/trace.h"
#include "gpu/gpu.h"
#include <unistd.h>

TEST(desc_gpu_lowering_assembles) {
    static const char *src =
        "import triton\nimport triton.language as tl\n\n@triton.jit\n"
        "def k(a_desc, c_desc, BM: tl.constexpr, BN: tl.constexpr):\n"
        "    m = tl.program_id(0) * BM\n"
        "    n = tl.program_id(1) * BN\n"
        "    x = a_desc.load([m, n]).to(tl.float32)\n"
        "    c_desc.store([m, n], (x * 2).to(tl.float16))\n"
        "\n@triton.jit\n"
        "def k2(a, c, M, N, sm, BM: tl.constexpr, BN: tl.constexpr):\n"
        "    ad = tl.make_tensor_descriptor(a, [M, N], [sm, 1], [BM, BN])\n"
        "    cd = tl.make_tensor_descriptor(c, [M, N], [N, 1], [BM, BN])\n"
        "    m = tl.program_id(0) * BM\n"
        "    cd.store([m, 0], ad.load([m, 0]) + 1)\n";
    Err e = {0};
    Source *s = source_new("k.py", src, strlen(src));
    Module *m = parse_module(s, &e);
    CHECK(m != NULL);
    if (!m) { source_free(s); return; }
    Arena a;
    arena_init(&a, &e);
    /* fp16 100x70 (row stride 72) through 32x64 blocks */
    TDesc d = {0};
    d.rank = 2;
    d.block[0] = 32; d.block[1] = 64;
    d.shape[0] = 100; d.shape[1] = 70;
    d.strides[0] = 72; d.strides[1] = 1;
    SpecArg args[4];
    memset(args, 0, sizeof args);
    for (int i = 0; i < 2; i++) { args[i].type = type_ptr(DT_FP16); args[i].div16 = true; args[i].desc = &d; }
    args[2].is_constexpr = true; args[2].cv = cv_int(32);
    args[3].is_constexpr = true; args[3].cv = cv_int(64);
    SpecArg args2[7];
    memset(args2, 0, sizeof args2);
    for (int i = 0; i < 2; i++) { args2[i].type = type_ptr(DT_FP16); args2[i].div16 = true; }
    for (int i = 2; i < 5; i++) args2[i].type = type_scalar(DT_I32);
    args2[5] = args[2];
    args2[6] = args[3];
    for (int which = 0; which < 2; which++) {
        IrFunc *f = trace_kernel(m, module_find(m, which ? "k2" : "k"), which ? args2 : args, &a, &e, NULL);
        if (!f) printf("%s\n", e.msg);
        CHECK(f != NULL);
        if (!f) continue;
        tc_target tg = {"cuda", 90, 32, 1};
        GpuKernel gk = {0};
        CHECK_INT(TC_OK, gpu_compile(f, &tg, 4, 3, 0, true, &gk, &e));
        const char *px = getenv("TRITONC_PTXAS");
        if (!px || !*px) px = "/usr/local/cuda/bin/ptxas";
        if (gk.ptx && access(px, X_OK) == 0) {
            char path[] = "/tmp/tc_desc_XXXXXX";
            int fd = mkstemp(path);
            if (fd >= 0) {
                if (write(fd, gk.ptx, strlen(gk.ptx)) < 0) {}
                close(fd);
                char cmd[512], out[4096];
                snprintf(cmd, sizeof cmd, "%s -arch=sm_90a %s -o /dev/null", px, path);
                CHECK_INT(0, test_run(cmd, out, sizeof out));
                unlink(path);
            }
        }
        if (gk.ptx) gpu_kernel_free(&gk);
    }
    arena_free(&a);
    module_free(m);
    source_free(s);
}

/* made_copy: x (5x3 in a 5x4 buffer, row stride 4) transposed into y (3x5) through 4x2 tiles,
 * once with pointers (descriptors made in the kernel, runtime shapes), once with host ones */
static void run_made_copy(tc_context *ctx, tc_kernel *k, bool host) {
    float x[20];
    for (int i = 0; i < 20; i++) x[i] = (float)i;
    int64_t xs[2] = {5, 4}, ys[2] = {3, 5}, xv[2] = {5, 3}, xst[2] = {4, 1}, xb[2] = {4, 2}, yb[2] = {2, 4};
    tc_tensor *xt = NULL, *yt = NULL, *xd = NULL, *yd = NULL;
    tc_tensor_from_host(ctx, TC_FP32, 2, xs, x, &xt);
    tc_tensor_new(ctx, TC_FP32, 2, ys, &yt);
    tc_args *a = NULL;
    tc_args_new(k, &a);
    if (host) {
        CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, xt, 2, xv, xst, xb, &xd));
        CHECK_INT(TC_OK, tc_tensor_descriptor(ctx, yt, 2, NULL, NULL, yb, &yd));
        tc_args_set(a, "x", tc_tens(xd));
        tc_args_set(a, "y", tc_tens(yd));
    } else {
        tc_args_set(a, "x", tc_tens(xt));
        tc_args_set(a, "y", tc_tens(yt));
    }
    tc_args_set(a, "M", tc_int(5));
    tc_args_set(a, "N", tc_int(3));
    tc_args_set(a, "stride_m", tc_int(4));
    tc_args_set(a, "BM", tc_int(4));
    tc_args_set(a, "BN", tc_int(2));
    tc_launch_opts o = tc_launch_defaults();
    o.grid[0] = 2; o.grid[1] = 2; o.grid[2] = 1;
    o.check = 1;
    CHECK_INT(TC_OK, tc_launch(k, a, &o));
    if (tc_errmsg(ctx)[0]) printf("%s\n", tc_errmsg(ctx));
    float y[15];
    tc_tensor_to_host(yt, y, sizeof y);
    int bad = 0;   /* y[j][i] = x[i][j] = 4*i + j */
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 5; i++) bad += y[j * 5 + i] != (float)(4 * i + j);
    CHECK_INT(0, bad);
    tc_args_free(a);
    tc_tensor_free(xd);
    tc_tensor_free(yd);
    tc_tensor_free(xt);
    tc_tensor_free(yt);
}

TEST(desc_make_tensor_descriptor_in_kernel) {
    tc_context *ctx = ictx();
    tc_module *m = NULL;
    tc_kernel *k = kern(ctx, &m, "made_copy");
    CHECK(k != NULL);
    run_made_copy(ctx, k, false);
    run_made_copy(ctx, k, true);
    tc_module_free(m);
    char msg[1024];
    CHECK(launch_d(ctx, "bad_make", msg, sizeof msg) != TC_OK);
    CHECK_CONTAINS(msg, "desc.py:95:9: error: make_tensor_descriptor: the last stride must be the constexpr 1");
    tc_context_free(ctx);
}
