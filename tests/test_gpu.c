/* test_gpu.c — the GPU backend without a GPU: hand-built IR functions lowered to PTX for
 * sm_80, sm_90a, sm_100a and sm_120 under num_warps 1, 2, 4, 8 and assembled by ptxas where
 * it exists (TRITONC_PTXAS, default /usr/local/cuda/bin/ptxas); vectorization decisions; resource and
 * unsupported-op errors; and every launch of the kernel suite lowered and
 * assembled, through tests/gpu_shadow.c. */
#include "test.h"
#include "base/tc.h"
#include "ir/ir.h"
#include "gpu/gpu.h"

#include <stdlib.h>
#include <unistd.h>

static const char *ptxas_path(void) {
    const char *p = getenv("TRITONC_PTXAS");
    return p && *p ? p : "/usr/local/cuda/bin/ptxas";
}
static int have_ptxas(void) {
    static int warned;
    int ok = access(ptxas_path(), X_OK) == 0;
    if (!ok && !warned) {
        warned = 1;
        printf("note: %s not found: PTX is generated but not assembled\n", ptxas_path());
    }
    return ok;
}

/* ---- a tiny IR builder ---------------------------------------------------------------- */

typedef struct Bld { Arena a; Err e; IrFunc *f; Region *r; } Bld;

static void bld_init(Bld *b, const char *name) {
    memset(b, 0, sizeof *b);
    arena_init(&b->a, &b->e);
    b->f = ir_func_new(&b->a, name);
    b->r = b->f->body;
}
static Type blk(int dt, int rank, int d0, int d1) {
    int32_t s[2] = {d0, d1};
    return type_block(dt, rank, s);
}
static int emit(Bld *b, int op, Type t, int a0, int a1, int a2, int nargs) {
    int args[3] = {a0, a1, a2};
    Inst *in = ir_emit(b->f, b->r, op, args, nargs, t, (SrcLoc){0});
    return t.dt == DT_VOID ? -1 : in->res[0];
}
static Inst *emit_in(Bld *b, int op, Type t, int a0, int a1, int a2, int nargs) {
    int args[3] = {a0, a1, a2};
    return ir_emit(b->f, b->r, op, args, nargs, t, (SrcLoc){0});
}
static int cint(Bld *b, int dt, int64_t v, Type shape) {
    Type t = type_with_shape(type_scalar(dt), shape.rank, shape.shape);
    Inst *in = emit_in(b, OP_CONST, t, 0, 0, 0, 0);
    in->attr.i = v;
    return in->res[0];
}
static int cflt(Bld *b, int dt, double v, Type shape) {
    Type t = type_with_shape(type_scalar(dt), shape.rank, shape.shape);
    Inst *in = emit_in(b, OP_CONST, t, 0, 0, 0, 0);
    in->attr.f = v;
    return in->res[0];
}
static int arange(Bld *b, int n) {
    Inst *in = emit_in(b, OP_ARANGE, blk(DT_I32, 1, n, 0), 0, 0, 0, 0);
    return in->res[0];
}
static int splat(Bld *b, int x, Type t) { return emit(b, OP_SPLAT, t, x, 0, 0, 1); }
static int bin(Bld *b, int op, int x, int y) { return emit(b, op, b->f->types[x], x, y, 0, 2); }
static int cmp(Bld *b, int kind, int x, int y) {
    Type t = type_with_shape(type_scalar(DT_I1), b->f->types[x].rank, b->f->types[x].shape);
    Inst *in = emit_in(b, OP_CMP, t, x, y, 0, 2);
    in->attr.kind = kind;
    return in->res[0];
}
static int addptr(Bld *b, int p, int off) {
    Type pt = b->f->types[p], ot = b->f->types[off];
    Type t = type_with_shape(pt, ot.rank, ot.shape);
    if (pt.rank == 0 && ot.rank > 0) p = splat(b, p, t);
    return emit(b, OP_ADDPTR, t, p, off, 0, 2);
}
static int load(Bld *b, int p, int mask, int other) {
    Type pt = b->f->types[p];
    Type t = type_with_shape(type_scalar(pt.elem), pt.rank, pt.shape);
    return emit(b, OP_LOAD, t, p, mask, other, 3);
}
static void store(Bld *b, int p, int v, int mask) { emit(b, OP_STORE, type_scalar(DT_VOID), p, v, mask, 3); }
static int expand(Bld *b, int x, int axis) {
    Type t = b->f->types[x];
    int32_t s[TC_MAX_RANK];
    int r = 0;
    for (int d = 0; d <= t.rank; d++) s[d] = d == axis ? 1 : t.shape[r++];
    Inst *in = emit_in(b, OP_EXPAND_DIMS, type_with_shape(t, t.rank + 1, s), x, 0, 0, 1);
    in->attr.axis = axis;
    return in->res[0];
}
static int bcast(Bld *b, int x, int d0, int d1) {
    return emit(b, OP_BROADCAST, type_with_shape(b->f->types[x], 2, (int32_t[]){d0, d1}), x, 0, 0, 1);
}
static int reduce(Bld *b, int x, int axis, int kind) {
    Type t = b->f->types[x];
    int32_t s[TC_MAX_RANK];
    int r = 0;
    for (int d = 0; d < t.rank; d++)
        if (d != axis) s[r++] = t.shape[d];
    Type rt = type_with_shape(t, r, s);
    if (kind == RED_ARGMAX || kind == RED_ARGMIN) rt.dt = DT_I32;
    Inst *in = emit_in(b, OP_REDUCE, rt, x, 0, 0, 1);
    in->attr.axis = axis;
    in->attr.kind = kind;
    return in->res[0];
}

/* Lowers f for each target x num_warps 1..8 and assembles each (sm_100a and sm_120, whose
 * code differs only in .version and .target, at num_warps 4); returns the PTX for sm_90a
 * with num_warps 4 (caller frees). */
static char *lower_all(IrFunc *f, const char *tag) {
    static const struct { int arch, a; const char *name; bool every_nw; } targets[] = {
        {80, 0, "sm_80", true}, {90, 1, "sm_90a", true}, {100, 1, "sm_100a", false},
        {120, 0, "sm_120", false}};
    char *last = NULL;
    for (int t = 0; t < 4; t++)
        for (int nw = 1; nw <= 8; nw *= 2) {
            tc_target tg = {"cuda", targets[t].arch, 32, targets[t].a};
            GpuKernel k;
            Err e = {0};
            tc_status s = gpu_compile(f, &tg, nw, 3, 0, true, &k, &e);
            if (s != TC_OK) {
                test_fail(__FILE__, __LINE__, "%s %s nw=%d: %s", tag, targets[t].name, nw, e.msg);
                continue;
            }
            CHECK_INT(nw * 32, k.threads);
            char line[32];
            snprintf(line, sizeof line, ".target %s\n", targets[t].name);
            CHECK(strstr(k.ptx, line) != NULL);
            if (have_ptxas() && (targets[t].every_nw || nw == 4)) {
                char path[128], cmd[512], out[4096];
                snprintf(path, sizeof path, "/tmp/tritonc-test-gpu-%d.ptx", (int)getpid());
                FILE *fp = fopen(path, "w");
                if (fp) { fputs(k.ptx, fp); fclose(fp); }
                snprintf(cmd, sizeof cmd, "%s -arch=%s %s -o /dev/null", ptxas_path(),
                         targets[t].name, path);
                int rc = test_run(cmd, out, sizeof out);
                if (rc != 0) test_fail(__FILE__, __LINE__, "ptxas %s %s nw=%d:\n%s", tag, targets[t].name, nw, out);
                else test_passed++;
                unlink(path);
            }
            if (t == 1 && nw == 4) {
                free(last);
                last = k.ptx;
                k.ptx = NULL;
            }
            gpu_kernel_free(&k);
        }
    return last;
}

/* out[i] = x[i] + y[i] over BLOCK elements with offs < n (Triton tutorial 01) */
static IrFunc *build_add2(Bld *b, int dt, bool aligned, bool n16, int block) {
    bld_init(b, "add_kernel");
    int x = ir_param_add(b->f, "x_ptr", type_ptr(dt), aligned, (SrcLoc){0});
    int y = ir_param_add(b->f, "y_ptr", type_ptr(dt), aligned, (SrcLoc){0});
    int o = ir_param_add(b->f, "out_ptr", type_ptr(dt), aligned, (SrcLoc){0});
    int n = ir_param_add(b->f, "n", type_scalar(DT_I32), n16, (SrcLoc){0});
    Type bt = blk(DT_I32, 1, block, 0);
    int pid = emit(b, OP_PROGRAM_ID, type_scalar(DT_I32), 0, 0, 0, 0);
    int start = bin(b, OP_MUL, pid, cint(b, DT_I32, block, type_scalar(DT_I32)));
    int offs = bin(b, OP_ADD, splat(b, start, bt), arange(b, block));
    int mask = cmp(b, CMP_LT, offs, splat(b, n, bt));
    int xv = load(b, addptr(b, x, offs), mask, -1);
    int yv = load(b, addptr(b, y, offs), mask, -1);
    store(b, addptr(b, o, offs), bin(b, OP_ADD, xv, yv), mask);
    return b->f;
}

static IrFunc *build_add(Bld *b, int dt, bool aligned, int block) {
    return build_add2(b, dt, aligned, aligned, block);
}

TEST(gpu_vector_add_vectorized) {
    Bld b;
    char *ptx = lower_all(build_add(&b, DT_FP32, true, 1024), "add fp32 aligned");
    CHECK(ptx && strstr(ptx, "ld.global.v4.b32"));
    CHECK(ptx && strstr(ptx, "st.global.v4.b32"));
    CHECK(ptx && strstr(ptx, ".maxntid 128, 1, 1"));
    free(ptx);
    arena_free(&b.a);
    /* without the divisibility facts: scalar accesses only */
    ptx = lower_all(build_add(&b, DT_FP32, false, 1024), "add fp32 unaligned");
    CHECK(ptx && !strstr(ptx, "ld.global.v"));
    CHECK(ptx && strstr(ptx, "ld.global.b32"));
    free(ptx);
    arena_free(&b.a);
    /* aligned pointers but n not known to be a multiple of 16: the mask `offs < n` may change
     * inside a vector, so masked accesses stay scalar */
    ptx = lower_all(build_add2(&b, DT_FP32, true, false, 1024), "add fp32 n unaligned");
    CHECK(ptx && !strstr(ptx, "ld.global.v"));
    CHECK(ptx && !strstr(ptx, "st.global.v"));
    free(ptx);
    arena_free(&b.a);
    /* fp16: 8 halves per 16-byte access */
    ptx = lower_all(build_add(&b, DT_FP16, true, 2048), "add fp16");
    CHECK(ptx && strstr(ptx, "ld.global.v4.b32"));
    CHECK(ptx && strstr(ptx, "cvt.rn.f16.f32"));
    free(ptx);
    arena_free(&b.a);
    /* small tile: fewer elements than threads */
    ptx = lower_all(build_add(&b, DT_FP32, true, 16), "add small");
    free(ptx);
    arena_free(&b.a);
}

/* a [R x C] fp32 tile: row sums, column maxima, row argmax, whole-tile sum */
TEST(gpu_reductions) {
    Bld b;
    bld_init(&b, "reduce_kernel");
    const int R = 16, C = 64;
    int x = ir_param_add(b.f, "x_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int o = ir_param_add(b.f, "o_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int oi = ir_param_add(b.f, "oi_ptr", type_ptr(DT_I32), true, (SrcLoc){0});
    int rows = expand(&b, arange(&b, R), 1), cols = expand(&b, arange(&b, C), 0);
    int off = bin(&b, OP_ADD, bcast(&b, bin(&b, OP_MUL, rows, cint(&b, DT_I32, C, b.f->types[rows])), R, C),
                  bcast(&b, cols, R, C));
    int v = load(&b, addptr(&b, x, off), -1, -1);
    int rs = reduce(&b, v, 1, RED_SUM);
    store(&b, addptr(&b, o, arange(&b, R)), rs, -1);
    int cm = reduce(&b, v, 0, RED_MAX);
    store(&b, addptr(&b, o, bin(&b, OP_ADD, arange(&b, C), cint(&b, DT_I32, R, blk(DT_I32, 1, C, 0)))), cm, -1);
    int am = reduce(&b, v, 1, RED_ARGMAX);
    store(&b, addptr(&b, oi, arange(&b, R)), am, -1);
    int tot = reduce(&b, rs, 0, RED_SUM);
    store(&b, addptr(&b, o, cint(&b, DT_I32, R + C, type_scalar(DT_I32))), tot, -1);
    char *ptx = lower_all(b.f, "reductions");
    CHECK(ptx && strstr(ptx, "shfl.sync.bfly.b32"));
    CHECK(ptx && strstr(ptx, "bar.sync 0"));
    free(ptx);
    arena_free(&b.a);
}

/* acc = 0; for i in range(0, n, BLOCK): acc += load(x + i + arange) ; store(sum(acc)) */
TEST(gpu_loop_carried_tile) {
    Bld b;
    bld_init(&b, "loop_kernel");
    const int BLK = 256;
    int x = ir_param_add(b.f, "x_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int o = ir_param_add(b.f, "o_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int n = ir_param_add(b.f, "n", type_scalar(DT_I32), true, (SrcLoc){0});
    Type bt = blk(DT_FP32, 1, BLK, 0), it = blk(DT_I32, 1, BLK, 0);
    int zero = cflt(&b, DT_FP32, 0.0, bt);
    int args[4] = {cint(&b, DT_I32, 0, type_scalar(DT_I32)), n, cint(&b, DT_I32, BLK, type_scalar(DT_I32)), zero};
    Inst *loop = ir_emit(b.f, b.r, OP_FOR, args, 4, type_scalar(DT_VOID), (SrcLoc){0});
    ir_inst_add_result(b.f, loop, bt);
    Region *body = ir_region_new(b.f);
    loop->regions[0] = body;
    int iv = ir_region_param(b.f, body, type_scalar(DT_I32), (SrcLoc){0});
    int acc = ir_region_param(b.f, body, bt, (SrcLoc){0});
    Region *outer = b.r;
    b.r = body;
    int offs = bin(&b, OP_ADD, splat(&b, iv, it), arange(&b, BLK));
    int mask = cmp(&b, CMP_LT, offs, splat(&b, n, it));
    int v = load(&b, addptr(&b, x, offs), mask, cflt(&b, DT_FP32, 0.0, bt));
    int nacc = bin(&b, OP_ADD, acc, v);
    emit(&b, OP_YIELD, type_scalar(DT_VOID), nacc, 0, 0, 1);
    b.r = outer;
    int s = reduce(&b, loop->res[0], 0, RED_SUM);
    store(&b, o, s, -1);
    char *ptx = lower_all(b.f, "loop");
    CHECK(ptx && strstr(ptx, "bra.uni"));
    CHECK(ptx && strstr(ptx, "ld.global.v2.b32"));
    free(ptx);
    arena_free(&b.a);
}

/* if pid % 2 == 0: y = x * 2 else: y = x - 1 (a tile result through registers) */
TEST(gpu_runtime_if) {
    Bld b;
    bld_init(&b, "if_kernel");
    const int BLK = 128;
    int x = ir_param_add(b.f, "x_ptr", type_ptr(DT_I32), true, (SrcLoc){0});
    int o = ir_param_add(b.f, "o_ptr", type_ptr(DT_I32), true, (SrcLoc){0});
    Type it = blk(DT_I32, 1, BLK, 0);
    int pid = emit(&b, OP_PROGRAM_ID, type_scalar(DT_I32), 0, 0, 0, 0);
    int offs = bin(&b, OP_ADD, splat(&b, bin(&b, OP_MUL, pid, cint(&b, DT_I32, BLK, type_scalar(DT_I32))), it),
                   arange(&b, BLK));
    int v = load(&b, addptr(&b, x, offs), -1, -1);
    int c = cmp(&b, CMP_EQ, bin(&b, OP_REM, pid, cint(&b, DT_I32, 2, type_scalar(DT_I32))),
                cint(&b, DT_I32, 0, type_scalar(DT_I32)));
    Inst *in = emit_in(&b, OP_IF, type_scalar(DT_VOID), c, 0, 0, 1);
    ir_inst_add_result(b.f, in, it);
    Region *outer = b.r;
    for (int k = 0; k < 2; k++) {
        in->regions[k] = ir_region_new(b.f);
        b.r = in->regions[k];
        int y = k == 0 ? bin(&b, OP_MUL, v, cint(&b, DT_I32, 2, it)) : bin(&b, OP_SUB, v, cint(&b, DT_I32, 1, it));
        emit(&b, OP_YIELD, type_scalar(DT_VOID), y, 0, 0, 1);
    }
    b.r = outer;
    store(&b, addptr(&b, o, offs), in->res[0], -1);
    char *ptx = lower_all(b.f, "if");
    CHECK(ptx && strstr(ptx, "bra $L") != NULL);
    free(ptx);
    arena_free(&b.a);
}

/* out[i, j] = a[i] * b[j] (outer product: expand_dims + broadcast, no data movement) */
TEST(gpu_broadcast_2d) {
    Bld b;
    bld_init(&b, "outer_kernel");
    const int M = 32, N = 64;
    int pa = ir_param_add(b.f, "a_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int pb = ir_param_add(b.f, "b_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int po = ir_param_add(b.f, "o_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int rm = arange(&b, M), rn = arange(&b, N);
    int av = load(&b, addptr(&b, pa, rm), -1, -1), bv = load(&b, addptr(&b, pb, rn), -1, -1);
    int prod = bin(&b, OP_MUL, bcast(&b, expand(&b, av, 1), M, N), bcast(&b, expand(&b, bv, 0), M, N));
    int rows = bcast(&b, bin(&b, OP_MUL, expand(&b, rm, 1), cint(&b, DT_I32, N, blk(DT_I32, 2, M, 1))), M, N);
    int off = bin(&b, OP_ADD, rows, bcast(&b, expand(&b, rn, 0), M, N));
    store(&b, addptr(&b, po, off), prod, -1);
    char *ptx = lower_all(b.f, "broadcast");
    CHECK(ptx && strstr(ptx, "st.global.v4.b32"));
    free(ptx);
    arena_free(&b.a);
}

/* c = a @ b for fp32 (ieee: the exact FMA loop) and fp16 inputs with an fp32 accumulator
 * (tensor cores; input_precision concerns fp32 only) */
static void dot_case(int dt, const char *tag, const char *expect) {
    Bld b;
    bld_init(&b, "dot_kernel");
    const int M = 16, N = 32, K = 16;
    int pa = ir_param_add(b.f, "a_ptr", type_ptr(dt), true, (SrcLoc){0});
    int pb = ir_param_add(b.f, "b_ptr", type_ptr(dt), true, (SrcLoc){0});
    int pc = ir_param_add(b.f, "c_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int ra = bcast(&b, bin(&b, OP_MUL, expand(&b, arange(&b, M), 1), cint(&b, DT_I32, K, blk(DT_I32, 2, M, 1))), M, K);
    int ca = bcast(&b, expand(&b, arange(&b, K), 0), M, K);
    int a = load(&b, addptr(&b, pa, bin(&b, OP_ADD, ra, ca)), -1, -1);
    int rb = bcast(&b, bin(&b, OP_MUL, expand(&b, arange(&b, K), 1), cint(&b, DT_I32, N, blk(DT_I32, 2, K, 1))), K, N);
    int cb = bcast(&b, expand(&b, arange(&b, N), 0), K, N);
    int bv = load(&b, addptr(&b, pb, bin(&b, OP_ADD, rb, cb)), -1, -1);
    int acc = cflt(&b, DT_FP32, 0.0, blk(DT_FP32, 2, M, N));
    Inst *d = emit_in(&b, OP_DOT, blk(DT_FP32, 2, M, N), a, bv, acc, 3);
    d->attr.kind = DOT_IEEE;
    int rc = bcast(&b, bin(&b, OP_MUL, expand(&b, arange(&b, M), 1), cint(&b, DT_I32, N, blk(DT_I32, 2, M, 1))), M, N);
    int cc = bcast(&b, expand(&b, arange(&b, N), 0), M, N);
    store(&b, addptr(&b, pc, bin(&b, OP_ADD, rc, cc)), d->res[0], -1);
    char *ptx = lower_all(b.f, tag);
    CHECK(ptx && strstr(ptx, expect));
    free(ptx);
    arena_free(&b.a);
}

TEST(gpu_dot_fma) {
    dot_case(DT_FP32, "dot fp32", "fma.rn.f32");
    dot_case(DT_FP16, "dot fp16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
}

TEST(gpu_resource_and_unsupported_errors) {
    /* a cross-warp reduction needs scratch: with a 16-byte limit it does not fit */
    Bld b;
    bld_init(&b, "red_kernel");
    int x = ir_param_add(b.f, "x_ptr", type_ptr(DT_FP32), true, (SrcLoc){0});
    int v = load(&b, addptr(&b, x, arange(&b, 4096)), -1, -1);
    store(&b, x, reduce(&b, v, 0, RED_MAX), -1);
    tc_target tg = {"cuda", 90, 32, 1};
    GpuKernel k;
    Err e = {0};
    CHECK_INT(TC_ERR_RESOURCES, gpu_compile(b.f, &tg, 8, 3, 16, true, &k, &e));
    CHECK_CONTAINS(e.msg, "out of resource: shared memory, Required: 32, Hardware limit: 16");
    Err e2 = {0};
    CHECK_INT(TC_OK, gpu_compile(b.f, &tg, 8, 3, 0, true, &k, &e2));
    CHECK_INT(32, k.shared_bytes);
    gpu_kernel_free(&k);
    arena_free(&b.a);

    /* an fp64 fast_* form (the front end refuses it) is not lowered: the error names the
     * function and the kernel's line */
    bld_init(&b, "fast64_kernel");
    const char *text = "def k(x):\n    y = libdevice.fast_expf(x)\n";
    Source *src = source_new("k.py", text, strlen(text));
    int xp = ir_param_add(b.f, "x", type_scalar(DT_FP64), false, (SrcLoc){0});
    int args[1] = {xp};
    ir_emit(b.f, b.r, OP_MATH1, args, 1, type_scalar(DT_FP64), (SrcLoc){src, 2, 9})->attr.kind = MF_FAST_EXP;
    Err e3 = {0};
    CHECK_INT(TC_ERR_UNSUPPORTED, gpu_compile(b.f, &tg, 4, 3, 0, true, &k, &e3));
    CHECK_CONTAINS(e3.msg, "k.py:2:9");
    CHECK_CONTAINS(e3.msg, "the GPU backend does not support libdevice.fast_expf on fp64 yet");
    source_free(src);
    arena_free(&b.a);
}

/* Every launch of the kernel suite (tests/test_kernels*.c) lowered for sm_80
 * and sm_90a and assembled by ptxas, through the shadow binary (tests/gpu_shadow.c). */
#if defined(__SANITIZE_ADDRESS__)
#define SHADOW_SAN " -fsanitize=address,undefined"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHADOW_SAN " -fsanitize=address,undefined"
#endif
#endif
#ifndef SHADOW_SAN
#define SHADOW_SAN ""
#endif

TEST(gpu_kernel_suite_lowers) {
    if (getenv("TRITONC_SHADOW")) return; /* we are the nested run */
    const char *B = test_build_dir();
    char cmd[4096], out[16384];
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -D_GNU_SOURCE -O1" SHADOW_SAN " -Iinclude -o %s/gpu_shadow %s/tests/main.o %s/tests/test_*.o "
             "tests/gpu_shadow.c %s/libtritonc-internal.a -lm -ldl -lpthread "
             "-Wl,--wrap=tc_launch,--wrap=tc_module_load_string,--wrap=tc_module_load_file,"
             "--wrap=tc_module_kernel",
             B, B, B, B);
    int rc = test_run(cmd, out, sizeof out);
    if (rc != 0) {
        test_fail(__FILE__, __LINE__, "building the shadow suite failed:\n%s", out);
        return;
    }
    snprintf(cmd, sizeof cmd, "TRITONC_SHADOW=lower TRITONC_SHADOW_WARPS=1,4 %s/gpu_shadow kern_ 2>&1 | grep gpu-shadow",
             B);
    test_run(cmd, out, sizeof out);
    CHECK_CONTAINS(out, " 0 failures");
    CHECK(strstr(out, "ptxas failed") == NULL);
    if (!strstr(out, " 0 failures")) fprintf(stderr, "%s\n", out);
}
