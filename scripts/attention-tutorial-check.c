/* attention-tutorial-check.c — Triton's fused-attention tutorial (06-fused-attention.py, the
 * file as Triton ships it) forward and backward through the C API, against the double
 * reference of tests/attention_ref.h. Built and run by scripts/attention-tutorial-check.sh.
 *
 * As the tutorial's _attention.forward / .backward launch them: _attn_fwd (autotuned: the
 * config is chosen, not benchmarked) with host tensor descriptors over q, k, v, o (or, with
 * --plain, the tensors themselves: descriptors made in the kernel), then _attn_bwd_preprocess
 * (PRE_BLOCK 128) and _attn_bwd (BLOCK_M1 32, BLOCK_N1 128, BLOCK_M2 128, BLOCK_N2 32,
 * BLK_SLICE_FACTOR 2, num_warps 4, num_stages 5) with arg_k = k * (sm_scale / ln 2) rounded
 * to fp16 as torch computes it. Inputs as the tutorial's test: q, k, v normal(0, 0.5), dO
 * normal(0, 1), sm_scale 0.5 (from a fixed seed).
 *
 * Usage: attention-tutorial-check FILE [--gpu] [--gpu-only] [--plain] [--fp8] [--ws] [--z Z]
 *            [--h H] [--n N]... [--d D]... [--causal 0|1]... [--config SPEC]
 *   default: the interpreter, Z 1, H 2, N 128 and 256, D 64 and 128, causal 0 and 1,
 *            config "BLOCK_M=64,BLOCK_N=32,num_stages=2,num_warps=4";
 *   --gpu:   the same on the GPU too, each output compared with the interpreter's;
 *   --gpu-only: the GPU alone against the reference (large N_CTX: 1024 to 4096);
 *   --fp8:   the fp8 forward (FP8_OUTPUT: q, k, v e5m2, v stored transposed), O and M only,
 *            one head (--z 1 --h 1), P and O rounded to e5m2 in the bound;
 *   --ws:    warp_specialize=True, IS_HOPPER=False (the forward's Blackwell path, which splits
 *            the accumulator in two when BLOCK_M and HEAD_DIM are 128).
 * Each output must be within the reference's per-element fp16 bound, its relative rms error
 * at most 2^-10 (twice fp16's unit roundoff; fp8: 2^-2), and (the tutorial's own test) within
 * 1e-2 of the reference (fp8: 3). Exit status 0
 * when every check passed, 1 when one failed, 2 on a usage or setup error. */
#include "tritonc.h"

#include "../tests/test_kernels_util.h"
#include "../tests/attention_ref.h"

#include <stdarg.h>

/* test_kernels_util.h reports through the test framework's hooks: these print them */
int test_passed, test_failed;
const char *test_current = "attention-tutorial-check";
void test_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "error: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    (void)file; (void)line;
    test_failed++;
}

typedef struct Case { int Z, H, N, D, causal; } Case;
typedef struct Outs { double *v[6]; } Outs;   /* O, M, delta, dQ, dK, dV */
static const char *const out_names[6] = {"O", "M", "delta", "dQ", "dK", "dV"};

static const char *cfg_spec = "BLOCK_M=64,BLOCK_N=32,num_stages=2,num_warps=4";
static int plain, fp8, ws, failures;

static double randn(void) {
    double a = kt_frand(1e-7f, 1.0f), b = kt_frand(0.0f, 1.0f);
    return sqrt(-2 * log(a)) * cos(2 * M_PI * b);
}

static tc_status fwd_grid(const tc_args *meta, uint32_t grid[3], void *user) {
    (void)user;
    return tc_grid_eval(meta, "(cdiv(N_CTX, BLOCK_M), Z * H, 1)", grid);
}

#define TRY(x) do { if ((s = (x)) != TC_OK) { what = #x; goto done; } } while (0)

/* Runs forward and backward of the tutorial on ctx; fills o (doubles). */
static int run_case(tc_context *ctx, const char *file, const Case *c, const uint16_t *const in[5],
                    float sm_scale, Outs *o) {
    int BH = c->Z * c->H, N = c->N, D = c->D;
    int64_t sh4[4] = {c->Z, c->H, N, D}, sh3[3] = {c->Z, c->H, N};
    int64_t dshape[2] = {(int64_t)BH * N, D}, dstrides[2] = {D, 1}, dblock[2] = {1, 1};
    long nd = (long)BH * N * D, n1 = (long)BH * N;
    tc_module *m = NULL;
    tc_kernel *fwd = NULL, *pre = NULL, *bwd = NULL;
    tc_tensor *t[11] = {0}, *desc[4] = {0};
    tc_args *a = NULL;
    tc_status s = TC_OK;
    const char *what = "";
    int idx;
    TRY(tc_module_load_file(ctx, file, &m));
    TRY(tc_module_kernel(m, "_attn_fwd", &fwd));
    TRY(tc_module_kernel(m, "_attn_bwd_preprocess", &pre));
    TRY(tc_module_kernel(m, "_attn_bwd", &bwd));
    /* q k v do arg_k, then o M delta dq dk dv */
    if (fp8) {   /* q, k and o fp8e5; v stored transposed, [Z, H, HEAD_DIM, N_CTX] */
        int64_t shv[4] = {c->Z, c->H, D, N};
        uint8_t *b = malloc((size_t)nd);
        for (int i = 0; b && i < 3; i++) {
            for (long j = 0; j < nd; j++) {
                long h = j / ((long)N * D), n = j / D % N, d = j % D;
                b[i == 2 ? (h * D + d) * N + n : j] = (uint8_t)(in[i][j] >> 8);   /* e5m2 = fp16's top byte */
            }
            s = tc_tensor_from_host(ctx, TC_FP8E5, 4, i == 2 ? shv : sh4, b, &t[i]);
            if (s) break;
        }
        free(b);
        if (!b) s = TC_ERR_NOMEM;
        if (s) { what = "fp8 tensors"; goto done; }
        TRY(tc_tensor_new(ctx, TC_FP8E5, 4, sh4, &t[5]));
    } else {
        for (int i = 0; i < 5; i++) TRY(tc_tensor_from_host(ctx, TC_FP16, 4, sh4, in[i], &t[i]));
        TRY(tc_tensor_new(ctx, TC_FP16, 4, sh4, &t[5]));
    }
    TRY(tc_tensor_new(ctx, TC_FP32, 3, sh3, &t[6]));
    TRY(tc_tensor_new(ctx, TC_FP32, 3, sh3, &t[7]));
    for (int i = 8; i < 11; i++) TRY(tc_tensor_new(ctx, TC_FP16, 4, sh4, &t[i]));
    tc_tensor *qkvo[4] = {t[0], t[1], t[2], t[5]};
    /* as the tutorial's forward makes them; fp8's v: shape [HEAD_DIM, y_dim], strides [N_CTX, 1] */
    int64_t vshape[2] = {D, (int64_t)BH * N}, vstrides[2] = {N, 1};
    for (int i = 0; i < 4; i++)
        if (!plain)
            TRY(tc_tensor_descriptor(ctx, qkvo[i], 2, fp8 && i == 2 ? vshape : dshape,
                                     fp8 && i == 2 ? vstrides : dstrides, dblock, &desc[i]));
    /* forward */
    TRY(tc_kernel_find_config(fwd, cfg_spec, &idx));
    TRY(tc_kernel_set_config(fwd, idx));
    TRY(tc_args_new(fwd, &a));
    static const char *const dn[4] = {"desc_q", "desc_k", "desc_v", "desc_o"};
    TRY(tc_args_set(a, "sm_scale", tc_float(sm_scale)));
    TRY(tc_args_set(a, "M", tc_tens(t[6])));
    TRY(tc_args_set(a, "Z", tc_int(c->Z)));
    TRY(tc_args_set(a, "H", tc_int(c->H)));
    for (int i = 0; i < 4; i++) TRY(tc_args_set(a, dn[i], tc_tens(plain ? qkvo[i] : desc[i])));
    TRY(tc_args_set(a, "N_CTX", tc_int(N)));
    TRY(tc_args_set(a, "HEAD_DIM", tc_int(D)));
    TRY(tc_args_set(a, "FP8_OUTPUT", tc_bool(fp8)));
    TRY(tc_args_set(a, "STAGE", tc_int(c->causal ? 3 : 1)));
    TRY(tc_args_set(a, "warp_specialize", tc_bool(ws)));
    TRY(tc_args_set(a, "IS_HOPPER", tc_bool(!ws)));
    tc_launch_opts op = tc_launch_defaults();
    op.grid_fn = fwd_grid;
    TRY(tc_launch(fwd, a, &op));
    tc_args_free(a);
    a = NULL;
    if (fp8) goto results;   /* the tutorial has no fp8 backward */
    /* backward: delta, then dK, dV and dQ */
    TRY(tc_args_new(pre, &a));
    TRY(tc_args_set(a, "O", tc_tens(t[5])));
    TRY(tc_args_set(a, "DO", tc_tens(t[3])));
    TRY(tc_args_set(a, "Delta", tc_tens(t[7])));
    TRY(tc_args_set(a, "Z", tc_int(c->Z)));
    TRY(tc_args_set(a, "H", tc_int(c->H)));
    TRY(tc_args_set(a, "N_CTX", tc_int(N)));
    TRY(tc_args_set(a, "BLOCK_M", tc_int(128)));
    TRY(tc_args_set(a, "HEAD_DIM", tc_int(D)));
    op = tc_launch_defaults();
    op.grid[0] = (uint32_t)(N / 128);
    op.grid[1] = (uint32_t)BH;
    TRY(tc_launch(pre, a, &op));
    tc_args_free(a);
    a = NULL;
    TRY(tc_args_new(bwd, &a));
    static const char *const bn[10] = {"Q", "K", "V", "sm_scale", "DO", "DQ", "DK", "DV", "M", "D"};
    tc_value bv[10] = {tc_tens(t[0]), tc_tens(t[4]), tc_tens(t[2]), tc_float(sm_scale),
                       tc_tens(t[3]), tc_tens(t[8]), tc_tens(t[9]), tc_tens(t[10]),
                       tc_tens(t[6]), tc_tens(t[7])};
    for (int i = 0; i < 10; i++) TRY(tc_args_set(a, bn[i], bv[i]));
    TRY(tc_args_set(a, "stride_z", tc_int((int64_t)c->H * N * D)));
    TRY(tc_args_set(a, "stride_h", tc_int((int64_t)N * D)));
    TRY(tc_args_set(a, "stride_tok", tc_int(D)));
    TRY(tc_args_set(a, "stride_d", tc_int(1)));
    TRY(tc_args_set(a, "H", tc_int(c->H)));
    TRY(tc_args_set(a, "N_CTX", tc_int(N)));
    TRY(tc_args_set(a, "BLOCK_M1", tc_int(32)));
    TRY(tc_args_set(a, "BLOCK_N1", tc_int(128)));
    TRY(tc_args_set(a, "BLOCK_M2", tc_int(128)));
    TRY(tc_args_set(a, "BLOCK_N2", tc_int(32)));
    TRY(tc_args_set(a, "BLK_SLICE_FACTOR", tc_int(2)));
    TRY(tc_args_set(a, "HEAD_DIM", tc_int(D)));
    TRY(tc_args_set(a, "CAUSAL", tc_bool(c->causal)));
    op = tc_launch_defaults();
    op.grid[0] = (uint32_t)(N / 128);
    op.grid[2] = (uint32_t)BH;
    op.num_warps = 4;
    op.num_stages = 5;
    TRY(tc_launch(bwd, a, &op));
results:;  /* O, M, delta, dQ, dK, dV */
    tc_tensor *res[6] = {t[5], t[6], t[7], t[8], t[9], t[10]};
    for (int i = 0; i < (fp8 ? 2 : 6); i++) {
        long n = i == 1 || i == 2 ? n1 : nd;
        void *h = malloc((size_t)n * 4);
        if (!h) { s = TC_ERR_NOMEM; what = "malloc"; goto done; }
        s = tc_tensor_to_host(res[i], h, tc_tensor_nbytes(res[i]));
        for (long j = 0; s == TC_OK && j < n; j++)
            o->v[i][j] = i == 1 || i == 2 ? ((float *)h)[j]
                         : fp8 ? kt_h2d((uint16_t)(((uint8_t *)h)[j] << 8)) : kt_h2d(((uint16_t *)h)[j]);
        free(h);
        if (s) { what = "tc_tensor_to_host"; goto done; }
    }
done:
    if (s) fprintf(stderr, "error: %s: %s: %s\n", what, tc_status_name(s), tc_errmsg(ctx));
    tc_args_free(a);
    for (int i = 0; i < 4; i++) tc_tensor_free(desc[i]);
    for (int i = 0; i < 11; i++) tc_tensor_free(t[i]);
    tc_module_free(m);
    return s == TC_OK;
}

/* The checks of one output against the reference; returns 1 when all passed. */
static int check_out(const char *tag, int i, const AttnRef *r, const double *got) {
    const double *e[6] = {r->O, r->M, r->delta, r->dQ, r->dK, r->dV};
    const double *tol[6] = {r->tO, r->tM, r->tdelta, r->tdQ, r->tdK, r->tdV};
    long n = (long)r->BH * r->N * (i == 1 || i == 2 ? 1 : r->D), at;
    double worst, se = 0, sr = 0, maxd = 0;
    long bad = attn_ref_compare(e[i], tol[i], got, n, &worst, &at);
    for (long j = 0; j < n; j++) {
        se += (got[j] - e[i][j]) * (got[j] - e[i][j]);
        sr += e[i][j] * e[i][j];
        maxd = fmax(maxd, fabs(got[j] - e[i][j]));
    }
    double rms = sqrt(se / sr);
    /* the tutorial's test: atol 1e-2 on O, dQ, dK, dV (fp8: 3 on O) */
    int tut = i == 1 || i == 2 || maxd <= (fp8 ? 3 : 1e-2);
    int ok = !bad && rms <= ldexp(1.0, -(r->mbits ? r->mbits : 10)) && tut;
    printf("  %-5s %-6s max |err| %.3g, worst err/bound %.3f, relative rms %.3g%s\n", out_names[i],
           tag, maxd, worst, rms, ok ? "" : "  FAILED");
    if (bad) printf("        %ld outside the bound; worst at [%ld]: expected %.7g, got %.7g\n", bad, at,
                    e[i][at], got[at]);
    return ok;
}

int main(int argc, char **argv) {
    const char *file = NULL;
    int gpu = 0, interp = 1, nz = 1, nh = 2;
    int ns[8], nn = 0, ds[8], ndd = 0, cs[2], nc = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(o, "--gpu")) gpu = 1;
        else if (!strcmp(o, "--gpu-only")) gpu = 1, interp = 0;
        else if (!strcmp(o, "--plain")) plain = 1;
        else if (!strcmp(o, "--fp8")) fp8 = 1;
        else if (!strcmp(o, "--ws")) ws = 1;
        else if (!strcmp(o, "--z") && more) nz = atoi(argv[++i]);
        else if (!strcmp(o, "--h") && more) nh = atoi(argv[++i]);
        else if (!strcmp(o, "--n") && more && nn < 8) ns[nn++] = atoi(argv[++i]);
        else if (!strcmp(o, "--d") && more && ndd < 8) ds[ndd++] = atoi(argv[++i]);
        else if (!strcmp(o, "--causal") && more && nc < 2) cs[nc++] = atoi(argv[++i]) != 0;
        else if (!strcmp(o, "--config") && more) cfg_spec = argv[++i];
        else if (o[0] != '-' && !file) file = o;
        else {
            fprintf(stderr, "usage: %s FILE [--gpu|--gpu-only] [--plain] [--fp8] [--ws] [--z Z] [--h H] "
                            "[--n N]... [--d D]... [--causal 0|1]... [--config SPEC]\n", argv[0]);
            return 2;
        }
    }
    if (!file || nz < 1 || nh < 1) {
        fprintf(stderr, "%s: no tutorial file given (06-fused-attention.py)\n", argv[0]);
        return 2;
    }
    if (fp8 && nz * nh != 1) {
        /* its fp8 v descriptor (shape [HEAD_DIM, Z*H*N_CTX], strides [N_CTX, 1]) reaches head
         * h's columns at h*N_CTX*HEAD_DIM: past its shape for every head but the first */
        fprintf(stderr, "--fp8: tutorial 06's fp8 forward addresses one head only: give --z 1 --h 1\n");
        return 2;
    }
    if (!nn) ns[nn++] = 128, ns[nn++] = 256;
    if (!ndd) ds[ndd++] = 64, ds[ndd++] = 128;
    if (!nc) cs[nc++] = 0, cs[nc++] = 1;
    tc_context *ci = NULL, *cg = NULL;
    if (interp && (tc_context_new(&ci) || tc_context_set_backend(ci, TC_BACKEND_INTERPRET))) return 2;
    if (gpu) {
        tc_backend b;
        tc_status s;
        if ((s = tc_context_new(&cg)) || (s = tc_context_set_backend(cg, TC_BACKEND_CUDA)) ||
            (s = tc_context_backend(cg, &b))) {
            fprintf(stderr, "no GPU: %s: %s\n", tc_status_name(s), cg ? tc_errmsg(cg) : "");
            return 2;
        }
    }
    const float sm_scale = 0.5f;
    for (int a = 0; a < nn; a++)
        for (int b = 0; b < ndd; b++)
            for (int k = 0; k < nc; k++) {
                Case c = {nz, nh, ns[a], ds[b], cs[k]};
                int BH = c.Z * c.H;
                long nd = (long)BH * c.N * c.D;
                if (c.N % 128) { fprintf(stderr, "N_CTX must be a multiple of 128\n"); return 2; }
                printf("== %s Z %d H %d N_CTX %d HEAD_DIM %d causal %d %s(%s, config %s%s)\n", file, c.Z,
                       c.H, c.N, c.D, c.causal, fp8 ? "fp8 forward " : "",
                       plain ? "plain tensors" : "host descriptors", cfg_spec,
                       ws ? ", warp_specialize, not IS_HOPPER" : "");
                fflush(stdout);
                kt_seed(20);
                uint16_t *in[5];
                double *ind[4];
                for (int i = 0; i < 5; i++) in[i] = malloc((size_t)nd * 2);
                for (int i = 0; i < 4; i++) ind[i] = malloc((size_t)nd * sizeof(double));
                for (int i = 0; i < 5; i++) if (!in[i] || (i < 4 && !ind[i])) return 2;
                for (int i = 0; i < 4; i++)
                    for (long j = 0; j < nd; j++) {
                        double x = randn() * (i == 3 ? 1.0 : 0.5);
                        if (fp8 && i < 3) x = kt_round_fp(x, 2, -14, 57344.0);   /* e5m2 values */
                        in[i][j] = kt_f16(x);
                        ind[i][j] = kt_h2d(in[i][j]);
                    }
                /* arg_k = k * (sm_scale * RCP_LN2): torch multiplies fp16 by a scalar in fp32 */
                float kscale = (float)((double)sm_scale * 1.4426950408889634);
                for (long j = 0; j < nd; j++)
                    in[4][j] = kt_f16((double)(float)(ind[1][j] * (double)kscale));
                AttnRef r = {0};
                r.mbits = fp8 ? 2 : 10;
                /* sm_90's fp8 wgmma adds its products up with fewer bits than fp32 (on the
                 * H200 the fp8 forward's M moved by up to 6.3e-4 from the interpreter's, while
                 * its fp16 forward's stays within 2e-6; bench/results/gpu-2026-12-02.md §11),
                 * and Triton keeps that: max_num_imprecise_acc defaults to 2^30 on sm_90 */
                if (fp8) r.acc_bits = 14;
                if (!attn_ref_compute(&r, BH, c.N, c.D, c.causal, sm_scale, 1, ind[0], ind[1], ind[2],
                                      ind[3]))
                    return 2;
                Outs oi = {{0}}, og = {{0}};
                for (int i = 0; i < 6; i++) {
                    oi.v[i] = calloc((size_t)nd, sizeof(double));
                    og.v[i] = calloc((size_t)nd, sizeof(double));
                }
                const uint16_t *const cin[5] = {in[0], in[1], in[2], in[3], in[4]};
                int ri = interp && run_case(ci, file, &c, cin, sm_scale, &oi);
                int rg = gpu && run_case(cg, file, &c, cin, sm_scale, &og);
                if ((interp && !ri) || (gpu && !rg)) failures++;
                for (int i = 0; i < (fp8 ? 2 : 6); i++) {
                    if (ri && !check_out("interp", i, &r, oi.v[i])) failures++;
                    if (rg && !check_out("gpu", i, &r, og.v[i])) failures++;
                    if (ri && rg) {   /* both within the bound: they differ by at most twice it */
                        const double *tol[6] = {r.tO, r.tM, r.tdelta, r.tdQ, r.tdK, r.tdV};
                        long n = (long)BH * c.N * (i == 1 || i == 2 ? 1 : c.D), bad = 0;
                        double md = 0;
                        for (long j = 0; j < n; j++) {
                            double d = fabs(oi.v[i][j] - og.v[i][j]);
                            md = fmax(md, d);
                            if (!(d <= 2 * tol[i][j])) bad++;
                        }
                        printf("  %-5s gpu-interp max |diff| %.3g%s\n", out_names[i], md,
                               bad ? "  FAILED" : "");
                        if (bad) failures++;
                    }
                }
                for (int i = 0; i < 6; i++) { free(oi.v[i]); free(og.v[i]); }
                for (int i = 0; i < 5; i++) free(in[i]);
                for (int i = 0; i < 4; i++) free(ind[i]);
                attn_ref_free(&r);
                fflush(stdout);
            }
    tc_context_free(ci);
    tc_context_free(cg);
    printf("attention-tutorial-check: %s\n", failures ? "FAILED" : "all within bounds");
    return failures ? 1 : 0;
}
