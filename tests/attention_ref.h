/* attention_ref.h — fused attention, forward and backward, in double precision, written from
 * the math (not from any kernel), with a bound on the error an fp16 flash-attention kernel may
 * make, for tests/test_attention.c and scripts/attention-tutorial-check.c.
 *
 * Per head (Q, K, V, dO: N x D; s = the softmax scale):
 *   S = s Q K^T (causal: S_ij = -inf for j > i),  P = softmax_rows(S),  O = P V,
 *   M_i = log2(sum_j exp(S_ij)) (base 2, as tutorial 06 stores it: its forward works with
 *         S log2(e) and exp2, and adds log2(l) to the running maximum),
 *   delta_i = sum_d O_id dO_id,
 *   dP = dO V^T,  dS = P * (dP - delta)  (elementwise, delta broadcast along rows),
 *   dV = P^T dO,  dQ = s dS K,  dK = s dS^T Q.
 * (dS_ij = dL/dS_ij: d softmax gives P_ij (dP_ij - sum_k P_ik dP_ik), and
 *  sum_k P_ik dP_ik = sum_d dO_id sum_k P_ik V_kd = sum_d dO_id O_id = delta_i.)
 *
 * The tolerance of each output element is a first-order bound on what fp16 rounding does in
 * such a kernel, with u = 2^-11 (fp16's unit roundoff) and everything else computed in fp32;
 * each fp16 rounding also adds 2^-25 (half the step of fp16's subnormals) to what is shown:
 *   O:  P rounded to fp16 before P V, O rounded to fp16:   u (|O| + sum_j P_ij |V_jd|)
 *   dV: P rounded before P^T dO, dV rounded:              u (|dV| + sum_i P_ij |dO_id|)
 *   delta from the fp16 O (its error above):       e_i = sum_d tolO_id |dO_id|
 *   dS rounded to fp16 before the dots, plus delta's error through P:
 *                                                   eS_ij = u |dS_ij| + P_ij e_i
 *   dQ: u |dQ| + s sum_j eS_ij |K_jd|;    dK: u |dK| + s sum_i eS_ij |Q_id|
 *   M:  fp32 only: 2^-16 (1 + |M| + the scores' magnitudes).
 * With ks_rounded (tutorial 06's backward takes K * s * log2(e) rounded to fp16), each
 * recomputed P_ij is off by a relative u s sum_d |Q_id K_jd| more, which is added through P.
 * Every bound also gets 2^-16 times the sum of the magnitudes it adds up (fp32 sums, exp2 and
 * the fp32 sm_scale). Errors are random in sign, so real ones stay well inside.
 * With r->mbits = 2 (fp8e5 P and O), u = 2^-3 and the subnormal step 2^-17. With r->acc_bits
 * set, the scores' sums keep only that many bits (2^(1 - acc_bits) relative to the sum of the
 * magnitudes instead of 2^-16). */
#ifndef ATTENTION_REF_H
#define ATTENTION_REF_H

#include <math.h>
#include <stdlib.h>

typedef struct AttnRef {
    int BH, N, D;
    int mbits;   /* set before attn_ref_compute: mantissa bits of the type P and O are rounded to
                    in the forward (0: fp16's 10; 2: fp8e5, tutorial 06's fp8 forward, whose
                    backward tolerances then mean nothing) */
    int acc_bits;   /* 0, or the mantissa bits the scores' dot keeps while adding up (sm_90's
                       fp8 tensor cores: fewer than fp32's, see attention-tutorial-check.c) */
    /* [BH][N][D], except M and delta: [BH][N] */
    double *O, *M, *delta, *dQ, *dK, *dV;
    double *tO, *tM, *tdelta, *tdQ, *tdK, *tdV;   /* the tolerances, element by element */
} AttnRef;

static void attn_ref_free(AttnRef *r) {
    double **a[] = {&r->O, &r->M, &r->delta, &r->dQ, &r->dK, &r->dV,
                    &r->tO, &r->tM, &r->tdelta, &r->tdQ, &r->tdK, &r->tdV};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) { free(*a[i]); *a[i] = NULL; }
}

/* Q, K, V, dO: [BH][N][D] values (already fp16 values when the kernel reads fp16). Returns 0
 * when out of memory. */
static int attn_ref_compute(AttnRef *r, int BH, int N, int D, int causal, double scale,
                            int ks_rounded, const double *Q, const double *K, const double *V,
                            const double *dO) {
    int mb = r->mbits ? r->mbits : 10;
    const double u = ldexp(1.0, -mb - 1), e32 = ldexp(1.0, -16), sub = ldexp(1.0, -15 - mb);
    const double eacc = r->acc_bits ? ldexp(1.0, 1 - r->acc_bits) : e32;   /* the scores' sums */
    size_t nd = (size_t)BH * N * D, nn = (size_t)N * N, n1 = (size_t)BH * N;
    r->BH = BH; r->N = N; r->D = D;   /* r->mbits as the caller set it */
    r->O = calloc(nd, sizeof(double)); r->dQ = calloc(nd, sizeof(double));
    r->dK = calloc(nd, sizeof(double)); r->dV = calloc(nd, sizeof(double));
    r->tO = calloc(nd, sizeof(double)); r->tdQ = calloc(nd, sizeof(double));
    r->tdK = calloc(nd, sizeof(double)); r->tdV = calloc(nd, sizeof(double));
    r->M = calloc(n1, sizeof(double)); r->delta = calloc(n1, sizeof(double));
    r->tM = calloc(n1, sizeof(double)); r->tdelta = calloc(n1, sizeof(double));
    double *P = calloc(nn, sizeof(double)), *dS = calloc(nn, sizeof(double));
    double *eP = calloc(nn, sizeof(double)), *eS = calloc(nn, sizeof(double));
    int ok = r->O && r->dQ && r->dK && r->dV && r->tO && r->tdQ && r->tdK && r->tdV && r->M &&
             r->delta && r->tM && r->tdelta && P && dS && eP && eS;
    for (int h = 0; ok && h < BH; h++) {
        size_t b = (size_t)h * N * D;
        const double *q = Q + b, *k = K + b, *v = V + b, *g = dO + b;
        double *o = r->O + b, *tO = r->tO + b;
        for (int i = 0; i < N; i++) {   /* P, M */
            double mx = -INFINITY, l = 0, es = 0;
            for (int j = 0; j < N; j++) {
                double s = 0, a = 0;
                for (int d = 0; d < D; d++) {
                    s += q[(size_t)i * D + d] * k[(size_t)j * D + d];
                    a += fabs(q[(size_t)i * D + d] * k[(size_t)j * D + d]);
                }
                int masked = causal && j > i;
                P[(size_t)i * N + j] = masked ? -INFINITY : s * scale;
                /* relative error of the P the backward recomputes */
                eP[(size_t)i * N + j] = (ks_rounded ? ldexp(1.0, -11) : 0) * scale * a + e32 * (1 + scale * a);
                if (!masked && s * scale > mx) mx = s * scale;
                if (!masked && e32 + eacc * scale * a > es) es = e32 + eacc * scale * a;
            }
            for (int j = 0; j < N; j++) l += exp(P[(size_t)i * N + j] - mx);
            for (int j = 0; j < N; j++) P[(size_t)i * N + j] = exp(P[(size_t)i * N + j] - mx) / l;
            double m = (mx + log(l)) / log(2.0);
            r->M[(size_t)h * N + i] = m;
            r->tM[(size_t)h * N + i] = e32 * (1 + fabs(m)) + es / log(2.0);
        }
        for (int i = 0; i < N; i++)     /* O, delta */
            for (int d = 0; d < D; d++) {
                double s = 0, a = 0, b = 0;
                for (int j = 0; j < N; j++) {
                    s += P[(size_t)i * N + j] * v[(size_t)j * D + d];
                    a += P[(size_t)i * N + j] * fabs(v[(size_t)j * D + d]);
                    if (!(causal && j > i)) b += fabs(v[(size_t)j * D + d]);
                }
                o[(size_t)i * D + d] = s;
                tO[(size_t)i * D + d] = u * (fabs(s) + a) + e32 * a + sub * (1 + b);
            }
        for (int i = 0; i < N; i++) {
            double s = 0, e = 0;
            for (int d = 0; d < D; d++) {
                s += o[(size_t)i * D + d] * g[(size_t)i * D + d];
                e += (tO[(size_t)i * D + d] + e32 * fabs(o[(size_t)i * D + d])) * fabs(g[(size_t)i * D + d]);
            }
            r->delta[(size_t)h * N + i] = s;
            r->tdelta[(size_t)h * N + i] = e;
        }
        for (int i = 0; i < N; i++)     /* dS and its error */
            for (int j = 0; j < N; j++) {
                double dp = 0, a = 0, p = P[(size_t)i * N + j];
                for (int d = 0; d < D; d++) {
                    dp += g[(size_t)i * D + d] * v[(size_t)j * D + d];
                    a += fabs(g[(size_t)i * D + d] * v[(size_t)j * D + d]);
                }
                double ds = p * (dp - r->delta[(size_t)h * N + i]);
                dS[(size_t)i * N + j] = ds;
                eS[(size_t)i * N + j] = (u + eP[(size_t)i * N + j]) * fabs(ds) + (p > 0 ? sub : 0) +
                                        p * (r->tdelta[(size_t)h * N + i] + e32 * a);
            }
        for (int j = 0; j < N; j++)     /* dV, dK */
            for (int d = 0; d < D; d++) {
                double sv = 0, av = 0, bv = 0, sk = 0, ak = 0;
                for (int i = 0; i < N; i++) {
                    double p = P[(size_t)i * N + j], gd = g[(size_t)i * D + d], qd = q[(size_t)i * D + d];
                    sv += p * gd;
                    av += p * fabs(gd) * (1 + eP[(size_t)i * N + j] / u);
                    if (p > 0) bv += fabs(gd);
                    sk += dS[(size_t)i * N + j] * qd;
                    ak += (eS[(size_t)i * N + j] + e32 * fabs(dS[(size_t)i * N + j])) * fabs(qd);
                }
                size_t x = b + (size_t)j * D + d;
                r->dV[x] = sv;
                r->tdV[x] = u * (fabs(sv) + av) + e32 * av + sub * (1 + bv);
                r->dK[x] = scale * sk;
                r->tdK[x] = u * fabs(scale * sk) + scale * ak + sub;
            }
        for (int i = 0; i < N; i++)     /* dQ */
            for (int d = 0; d < D; d++) {
                double s = 0, a = 0;
                for (int j = 0; j < N; j++) {
                    s += dS[(size_t)i * N + j] * k[(size_t)j * D + d];
                    a += (eS[(size_t)i * N + j] + e32 * fabs(dS[(size_t)i * N + j])) *
                         fabs(k[(size_t)j * D + d]);
                }
                size_t x = b + (size_t)i * D + d;
                r->dQ[x] = scale * s;
                r->tdQ[x] = u * fabs(scale * s) + scale * a + sub;
            }
    }
    free(P); free(dS); free(eP); free(eS);
    if (!ok) attn_ref_free(r);
    return ok;
}

/* How many of n elements are outside their tolerance; *worst gets the largest |got - exp| /
 * tol (above 1: outside) and *at its index. */
static long attn_ref_compare(const double *exp_, const double *tol, const double *got, long n,
                             double *worst, long *at) {
    long bad = 0;
    *worst = 0;
    *at = 0;
    for (long i = 0; i < n; i++) {
        double e = fabs(got[i] - exp_[i]), q = tol[i] > 0 ? e / tol[i] : e > 0 ? INFINITY : 0;
        if (isnan(got[i])) q = INFINITY;
        if (q > *worst) { *worst = q; *at = i; }
        if (q > 1) bad++;
    }
    return bad;
}

#endif
