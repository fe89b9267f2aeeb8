/* math64.c — the fp64 transcendentals on the GPU (exp, log and pow families, tanh/sinh/cosh,
 * sin/cos/tan with Payne-Hanek reduction, atan family, sinpi/cospi, cbrt, hypot, the inverse
 * hyperbolics, erf/erfc/erfinv), called from math.c's math1/math2 and for tl.exp and friends
 * on fp64. */
#include "gpu/math.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- fp64 transcendentals -------------------------------------------------------------- *
 * Each reduces its argument with extra-precision constants (ln 2 as hi + lo, hi with
 * trailing zeros so that n * hi is exact), evaluates a Taylor series (fma, far beyond fp64's
 * precision on the reduced range) and carries a low part (hi + lo) where one rounding would
 * cost more than half an ulp. Special values follow C's libm (the interpreter). */

#define LN2_HI 0x1.62e42fefa3800p-1      /* ln 2's first 42 bits: e * LN2_HI exact */
#define LN2_LO (0x1.62e42fefa39efp-1 - LN2_HI + 0x1.abc9e3b39803fp-56)
#define LOG2E_HI 0x1.71547652b82fep+0
#define LOG2E_LO 0x1.777d0ffda0d24p-56
#define LOG10E_HI 0x1.bcb7b1526e50ep-2
#define LOG10E_LO 0x1.95355baaafad3p-57
#define LN10_HI 0x1.26bb1bbb55516p+1
#define LN10_LO (-0x1.f48ad494ea3e9p-53)

/* hi + lo of a + b exactly (Knuth's two-sum) */
static void two_sum(G *g, int a, int b, int *hi, int *lo) {
    int s = d2(g, "add.rn.f64", a, b), bb = d2(g, "sub.rn.f64", s, a), t = d2(g, "sub.rn.f64", s, bb);
    int e1 = d2(g, "sub.rn.f64", a, t), e2 = d2(g, "sub.rn.f64", b, bb);
    *hi = s;
    *lo = d2(g, "add.rn.f64", e1, e2);
}

/* hi + lo of a * (ch + cl) for a constant split ch + cl: ch a, its fma residual, cl a */
static void mul_dd_k(G *g, int ah, int al, double ch, double cl, int *hi, int *lo) {
    int h = nr(g, CD), r = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, h), rn(g, ah), D64(ch));
    E(g, "neg.f64 %s, %s;", rn(g, r), rn(g, h));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, r), rn(g, ah), D64(ch), rn(g, r));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, r), rn(g, ah), D64(cl), rn(g, r));
    if (al) E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, r), rn(g, al), D64(ch), rn(g, r));
    int s = d2(g, "add.rn.f64", h, r), t = d2(g, "sub.rn.f64", s, h);
    *hi = s;
    *lo = d2(g, "sub.rn.f64", r, t);
}

/* h + l (|l| <= ulp(h)) clamped to [-746, 710] and reduced: e^(h + l) = 2^n e^(r + rl), n =
 * rint(h log2 e), r = h - n ln 2 + l rounded (n * LN2_HI exact, ln 2's low part and l added
 * after), rl its low part; 2^n as two normal factors *b1 *b2. Returns r. */
static int exp_reduce(G *g, int h, int l, int *rl_out, int *b1, int *b2) {
    int xc = nr(g, CD), t = nr(g, CD), nn = nr(g, CD), rh = nr(g, CD), rl = nr(g, CD);
    E(g, "max.f64 %s, %s, 0d%016llX;", rn(g, xc), rn(g, h), D64(-746.0));
    E(g, "min.f64 %s, %s, 0d%016llX;", rn(g, xc), rn(g, xc), D64(710.0));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, t), rn(g, xc), D64(LOG2E_HI));
    E(g, "cvt.rni.f64.f64 %s, %s;", rn(g, nn), rn(g, t));
    E(g, "neg.f64 %s, %s;", rn(g, t), rn(g, nn));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, rh), rn(g, t), D64(LN2_HI), rn(g, xc));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, rl), rn(g, t), D64(LN2_LO));
    if (l) E(g, "add.rn.f64 %s, %s, %s;", rn(g, rl), rn(g, rl), rn(g, l));
    int r = d2(g, "add.rn.f64", rh, rl), u = d2(g, "sub.rn.f64", r, rh);
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, rl), rn(g, rl), rn(g, u));   /* r + rl = rh + rl' */
    int ni = nr(g, CR), n1 = nr(g, CR), n2 = nr(g, CR);
    E(g, "cvt.rni.s32.f64 %s, %s;", rn(g, ni), rn(g, nn));
    E(g, "shr.s32 %s, %s, 1;", rn(g, n1), rn(g, ni));
    E(g, "sub.s32 %s, %s, %s;", rn(g, n2), rn(g, ni), rn(g, n1));
    *b1 = pow2_f64(g, n1);
    *b2 = pow2_f64(g, n2);
    *rl_out = rl;
    return r;
}

/* e^(h + l) for h finite (exp_reduce), e^r - 1 by its Taylor series (|r| <= 0.35: 1e-19),
 * 1 + that with one rounding, times 2^n (so subnormal results round once more). No special
 * cases. */
static int em1_taylor(G *g, int r);
static int exp_dd(G *g, int h, int l) {
    int rl, b1, b2, r = exp_reduce(g, h, l, &rl, &b1, &b2);
    /* e^(r + rl) - 1 = q + rl (q + 1) */
    int q = em1_taylor(g, r), acc = nr(g, CD), u = nr(g, CD), d = nr(g, CD);
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, u), rn(g, rl), rn(g, q), rn(g, rl));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, u), rn(g, u), rn(g, q));
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, acc), rn(g, u));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, acc), rn(g, acc), rn(g, b1));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, d), rn(g, acc), rn(g, b2));
    return d;
}

/* the special values of an exp-like function of x whose result overflows above `over` and
 * underflows to `under_val` below `under`: NaN -> NaN */
static void exp_specials(G *g, int d, int x, double over, double under, double under_val) {
    int p = nr(g, CP);
    E(g, "setp.gt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, x), D64(over));
    E(g, "@%s mov.f64 %s, 0d7FF0000000000000;", rn(g, p), rn(g, d));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, x), D64(under));
    E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, p), rn(g, d), D64(under_val));
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
}

/* ln x as hi + lo for a positive finite x (subnormals scaled by 2^54 first): x = 2^e m,
 * m in [sqrt(1/2), sqrt(2)); c = k/16 nearest m, ln c as hi + lo (long double at generation
 * time); s = (m - c) / (m + c) with its low part (m + c by two-sum, the residual by fma);
 * ln m = ln c + 2s + 2s^3/3 + 2s^5/5 + ...; e ln 2 with ln 2 in two parts.
 * Garbage (no trap) for other x: callers select their special values. */
static int log_dd(G *g, int x, int *lo) {
    int xs = nr(g, CD), b = nr(g, CD), eb = nr(g, CD), e = nr(g, CR), m = nr(g, CD), p = nr(g, CP);
    E(g, "mov.f64 %s, %s;", rn(g, xs), rn(g, x));
    E(g, "setp.lt.f64 %s, %s, 0d0010000000000000;", rn(g, p), rn(g, x));
    E(g, "@%s mul.rn.f64 %s, %s, 0d4350000000000000;", rn(g, p), rn(g, xs), rn(g, xs));
    E(g, "mov.b64 %s, %s;", rn(g, b), rn(g, xs));
    E(g, "shr.u64 %s, %s, 52;", rn(g, eb), rn(g, b));
    E(g, "cvt.u32.u64 %s, %s;", rn(g, e), rn(g, eb));
    E(g, "and.b32 %s, %s, 2047;", rn(g, e), rn(g, e));
    E(g, "sub.s32 %s, %s, 1023;", rn(g, e), rn(g, e));
    E(g, "@%s sub.s32 %s, %s, 54;", rn(g, p), rn(g, e), rn(g, e));
    E(g, "and.b64 %s, %s, 0x000FFFFFFFFFFFFF;", rn(g, b), rn(g, b));
    E(g, "or.b64 %s, %s, 0x3FF0000000000000;", rn(g, b), rn(g, b));
    E(g, "mov.b64 %s, %s;", rn(g, m), rn(g, b));
    E(g, "setp.gt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, m), D64(1.4142135623730951));
    E(g, "@%s mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, p), rn(g, m), rn(g, m));
    E(g, "@%s add.s32 %s, %s, 1;", rn(g, p), rn(g, e), rn(g, e));
    /* c = k/16 nearest m (k in 11..23): ln m = ln c + 2 atanh((m - c) / (m + c)), |s| < 0.023 */
    int kf = nr(g, CD), c = nr(g, CD), ch = dk(g, 0), cl = dk(g, 0), pk = nr(g, CP);
    E(g, "mul.rn.f64 %s, %s, 0d4030000000000000;", rn(g, kf), rn(g, m));
    E(g, "cvt.rni.f64.f64 %s, %s;", rn(g, kf), rn(g, kf));
    E(g, "mul.rn.f64 %s, %s, 0d3FB0000000000000;", rn(g, c), rn(g, kf));
    for (int k = 11; k <= 23; k++) {
        if (k == 16) continue;
        long double L = logl((long double)k / 16);
        double hi = (double)L, lo = (double)(L - hi);
        E(g, "setp.eq.f64 %s, %s, 0d%016llX;", rn(g, pk), rn(g, kf), D64(k));
        E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, pk), rn(g, ch), D64(hi));
        E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, pk), rn(g, cl), D64(lo));
    }
    int f = d2(g, "sub.rn.f64", m, c), dh, dl;   /* exact (Sterbenz) */
    two_sum(g, m, c, &dh, &dl);
    int sh = d2(g, "div.rn.f64", f, dh), r = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, r), rn(g, sh));
    int r1 = nr(g, CD);
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, r1), rn(g, r), rn(g, dh), rn(g, f));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, r1), rn(g, r), rn(g, dl), rn(g, r1));
    int sl = d2(g, "div.rn.f64", r1, dh);
    int z = d2(g, "mul.rn.f64", sh, sh);
    double cs[8];
    for (int k = 0; k < 8; k++) cs[k] = 2.0 / (2 * k + 3);
    int q = horner_d(g, z, cs, 8);
    q = d2(g, "mul.rn.f64", q, z);
    q = d2(g, "mul.rn.f64", q, sh);              /* 2s^3/3 + ... */
    int ef = nr(g, CD), A = nr(g, CD), B = d2(g, "add.rn.f64", sh, sh), t1, e1;
    E(g, "cvt.rn.f64.s32 %s, %s;", rn(g, ef), rn(g, e));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, A), rn(g, ef), D64(LN2_HI));
    two_sum(g, A, ch, &t1, &e1);
    int t = d2(g, "add.rn.f64", t1, B), err = d2(g, "sub.rn.f64", t1, t);
    err = d2(g, "add.rn.f64", err, B);           /* |t1| >= |B| or t1 = 0: exact */
    int l = d2(g, "add.rn.f64", sl, sl);
    l = d2(g, "add.rn.f64", l, q);
    l = d2(g, "add.rn.f64", l, cl);
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, l), rn(g, ef), D64(LN2_LO), rn(g, l));
    l = d2(g, "add.rn.f64", l, e1);
    l = d2(g, "add.rn.f64", l, err);
    int h = d2(g, "add.rn.f64", t, l), u = d2(g, "sub.rn.f64", h, t);
    *lo = d2(g, "sub.rn.f64", l, u);
    return h;
}

/* the special values of a log of x: 0 -> -inf, below 0 -> NaN, +inf -> +inf, NaN -> NaN */
static void log_specials(G *g, int d, int x) {
    int p = nr(g, CP);
    E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, x));
    E(g, "@%s mov.f64 %s, 0dFFF0000000000000;", rn(g, p), rn(g, d));
    E(g, "setp.lt.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, x));
    E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
    E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
}

/* ln (base 0), log2 (2) or log10 (10) of x */
int log_f64_fn(G *g, int base, int x) {
    int lo, h = log_dd(g, x, &lo), d;
    if (base == 0) d = d2(g, "add.rn.f64", h, lo);
    else {
        int hh, ll;
        if (base == 2) mul_dd_k(g, h, lo, LOG2E_HI, LOG2E_LO, &hh, &ll);
        else mul_dd_k(g, h, lo, LOG10E_HI, LOG10E_LO, &hh, &ll);
        d = d2(g, "add.rn.f64", hh, ll);
    }
    log_specials(g, d, x);
    return d;
}

/* e^r - 1 for |r| <= 0.7 as r^2 (1/2 + r/6 + ... + r^17/19!) + r: one rounding at the end */
static int em1_taylor(G *g, int r) {
    double c[18], fact = 2;
    for (int k = 0; k < 18; k++) { c[k] = 1.0 / fact; fact *= k + 3; }
    int q = horner_d(g, r, c, 18), z = d2(g, "mul.rn.f64", r, r), d = nr(g, CD);
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, d), rn(g, z), rn(g, q), rn(g, r));
    return d;
}

/* e^x, 2^x, 10^x (base 0, 2, 10): x (times ln 2 or ln 10 as hi + lo) into exp_dd */
int exp_f64_fn(G *g, int base, int x) {
    int h = x, l = 0;
    if (base == 2) mul_dd_k(g, x, 0, 0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56, &h, &l);
    if (base == 10) mul_dd_k(g, x, 0, LN10_HI, LN10_LO, &h, &l);
    int d = exp_dd(g, h, l);
    if (base == 0) exp_specials(g, d, x, 0x1.62e42fefa39efp+9, -0x1.74910d52d3052p+9, 0);
    if (base == 2) exp_specials(g, d, x, 0x1.fffffffffffffp+9, -1075.0, 0);
    if (base == 10) exp_specials(g, d, x, 0x1.34413509f79fep+8, -0x1.439b746e36b52p+8, 0);
    return d;
}

/* e^x - 1: |x| < 0.7: the series; x > 40: e^x; else 2^n (e^r - 1) + (2^n - 1) with
 * n = rint(x log2 e), r = x - n ln 2 (hi + lo), one rounding (2^n - 1 exact for n >= -53; below that,
 * 2^n e^r - 1); x clamped at -60 (the result is -1 there) */
int expm1_f64_fn(G *g, int x) {
    int small = em1_taylor(g, x), big = exp_dd(g, x, 0);
    int xc = nr(g, CD), t = nr(g, CD), nn = nr(g, CD), r = nr(g, CD);
    E(g, "max.f64 %s, %s, 0d%016llX;", rn(g, xc), rn(g, x), D64(-60.0));
    E(g, "min.f64 %s, %s, 0d%016llX;", rn(g, xc), rn(g, xc), D64(41.0));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, t), rn(g, xc), D64(LOG2E_HI));
    E(g, "cvt.rni.f64.f64 %s, %s;", rn(g, nn), rn(g, t));
    E(g, "neg.f64 %s, %s;", rn(g, t), rn(g, nn));
    int rh = nr(g, CD), rl = nr(g, CD), u = nr(g, CD);
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, rh), rn(g, t), D64(LN2_HI), rn(g, xc));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, r), rn(g, t), D64(LN2_LO), rn(g, rh));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, rl), rn(g, rh), rn(g, r));   /* r's low part */
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, rl), rn(g, t), D64(LN2_LO), rn(g, rl));
    int p = em1_taylor(g, r);   /* e^(r + rl) - 1 = p + rl (p + 1) */
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, u), rn(g, p));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, p), rn(g, rl), rn(g, u), rn(g, p));
    int ni = nr(g, CD), sc = nr(g, CD), sm1 = nr(g, CD), mid = nr(g, CD), alt = nr(g, CD), d = nr(g, CD);
    int pp = nr(g, CP);
    E(g, "cvt.rni.s64.f64 %s, %s;", rn(g, ni), rn(g, nn));
    E(g, "add.s64 %s, %s, 1023;", rn(g, ni), rn(g, ni));
    E(g, "shl.b64 %s, %s, 52;", rn(g, ni), rn(g, ni));
    E(g, "mov.b64 %s, %s;", rn(g, sc), rn(g, ni));
    E(g, "sub.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, sm1), rn(g, sc));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, mid), rn(g, sc), rn(g, p), rn(g, sm1));
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, alt), rn(g, p));
    E(g, "fma.rn.f64 %s, %s, %s, 0dBFF0000000000000;", rn(g, alt), rn(g, sc), rn(g, alt));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, pp), rn(g, nn), D64(-53.0));
    E(g, "@%s mov.f64 %s, %s;", rn(g, pp), rn(g, mid), rn(g, alt));
    E(g, "setp.gt.f64 %s, %s, 0d%016llX;", rn(g, pp), rn(g, x), D64(40.0));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, d), rn(g, big), rn(g, mid), rn(g, pp));
    int ax = nr(g, CD);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, pp), rn(g, ax), D64(0.7));
    E(g, "@%s mov.f64 %s, %s;", rn(g, pp), rn(g, d), rn(g, small));
    exp_specials(g, d, x, 0x1.62e42fefa39efp+9, -INFINITY, -1.0);
    return d;
}

/* ln(1 + x): 1 + x as hi + lo (two-sum), ln hi + lo / hi; +-0 itself */
int log1p_f64_fn(G *g, int x) {
    int one = dk(g, 1.0), uh, ul, lo;
    two_sum(g, one, x, &uh, &ul);
    int h = log_dd(g, uh, &lo), q = d2(g, "div.rn.f64", ul, uh);
    q = d2(g, "add.rn.f64", q, lo);
    int d = d2(g, "add.rn.f64", h, q), p = nr(g, CP);
    log_specials(g, d, uh);
    E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    return d;
}

/* x^y = e^(y ln|x|) with ln|x| as hi + lo and y ln|x| as hi + lo (fma), negative for x's
 * sign set and y an odd integer; then C's special cases as fp32 pow's */
int pow_f64_fn(G *g, int x, int y) {
    int ax = nr(g, CD), lo, p = nr(g, CP), q = nr(g, CP);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    int lh = log_dd(g, ax, &lo);
    E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, ax));
    E(g, "@%s mov.f64 %s, 0dFFF0000000000000;", rn(g, p), rn(g, lh));
    E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, q), rn(g, ax));
    E(g, "@%s mov.f64 %s, 0d7FF0000000000000;", rn(g, q), rn(g, lh));
    E(g, "or.pred %s, %s, %s;", rn(g, p), rn(g, p), rn(g, q));
    E(g, "@%s mov.f64 %s, 0d0000000000000000;", rn(g, p), rn(g, lo));
    int ph = d2(g, "mul.rn.f64", y, lh), pl = nr(g, CD), aph = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, pl), rn(g, ph));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, pl), rn(g, y), rn(g, lh), rn(g, pl));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, pl), rn(g, y), rn(g, lo), rn(g, pl));
    E(g, "abs.f64 %s, %s;", rn(g, aph), rn(g, ph));
    E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, aph));
    E(g, "@%s mov.f64 %s, 0d0000000000000000;", rn(g, p), rn(g, pl));
    int d = exp_dd(g, ph, pl);
    E(g, "setp.gt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ph), D64(710.0));
    E(g, "@%s mov.f64 %s, 0d7FF0000000000000;", rn(g, p), rn(g, d));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ph), D64(-746.0));
    E(g, "@%s mov.f64 %s, 0d0000000000000000;", rn(g, p), rn(g, d));
    pow_specials(g, true, d, x, y, y);
    return d;
}

/* x + x^3 P(x^2) for an odd series with coefficients c[0] (of x^3), c[1] (x^5), ...: one
 * rounding at the end */
static int odd_series(G *g, int x, const double *c, int n) {
    int z = d2(g, "mul.rn.f64", x, x), q = horner_d(g, z, c, n), d = nr(g, CD);
    q = d2(g, "mul.rn.f64", q, z);
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, d), rn(g, q), rn(g, x), rn(g, x));
    return d;
}

/* tanh: |x| < 0.55: its Taylor series (coefficients from T' = 1 - T^2); else
 * t / (t + 2), t = expm1(2|x|), x's sign; |x| > 22: +-1 */
static int tanh_f64_fn(G *g, int x) {
    double a[24] = {1};
    for (int k = 1; k < 24; k++) {
        double s = 0;
        for (int i = 0; i < k; i++) s += a[i] * a[k - 1 - i];
        a[k] = -s / (2 * k + 1);
    }
    int small = odd_series(g, x, a + 1, 23);
    int ax = nr(g, CD), x2 = nr(g, CD), p = nr(g, CP);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "min.f64 %s, %s, 0d4036000000000000;", rn(g, x2), rn(g, ax));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, x2), rn(g, x2), rn(g, x2));
    int t = expm1_f64_fn(g, x2), u = nr(g, CD), d = nr(g, CD);
    E(g, "add.rn.f64 %s, %s, 0d4000000000000000;", rn(g, u), rn(g, t));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, d), rn(g, t), rn(g, u));
    E(g, "setp.gt.f64 %s, %s, 0d4036000000000000;", rn(g, p), rn(g, ax));
    E(g, "@%s mov.f64 %s, 0d3FF0000000000000;", rn(g, p), rn(g, d));
    E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ax), D64(0.55));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, small));
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    return d;
}

/* sinh (cosh false) or cosh: H = e^(|x| - ln 2) (= e^|x| / 2, no early overflow), H -+ 1/(4H);
 * sinh below |x| = 0.7: its Taylor series; x's sign */
int sinhcosh_f64_fn(G *g, int x, bool cosh) {
    int ax = nr(g, CD), nl = dk(g, -0x1.62e42fefa39efp-1), hh, hl, p = nr(g, CP);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    two_sum(g, ax, nl, &hh, &hl);
    E(g, "add.rn.f64 %s, %s, 0d%016llX;", rn(g, hl), rn(g, hl), D64(-0x1.abc9e3b39803fp-56));
    int H = exp_dd(g, hh, hl), r = nr(g, CD), d = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, 0d4010000000000000;", rn(g, r), rn(g, H));
    E(g, "rcp.rn.f64 %s, %s;", rn(g, r), rn(g, r));
    E(g, "%s.rn.f64 %s, %s, %s;", cosh ? "add" : "sub", rn(g, d), rn(g, H), rn(g, r));
    E(g, "setp.gt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ax), D64(711.0));
    E(g, "@%s mov.f64 %s, 0d7FF0000000000000;", rn(g, p), rn(g, d));
    if (!cosh) {
        double c[20], fact = 6;
        for (int k = 0; k < 20; k++) { c[k] = 1.0 / fact; fact *= (2 * k + 4) * (2 * k + 5); }
        int small = odd_series(g, ax, c, 20);
        E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ax), D64(0.7));
        E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, small));
        E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
    }
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    return d;
}

/* ---- sin, cos, tan ------------------------------------------------------------------- */

#define PIO2_HI 0x1.921fb54442d18p+0
#define PIO2_LO 0x1.1a62633145c07p-54

/* 2/pi's first 1216 bits (19 words, most significant first), after a word of zeros */
static const uint64_t two_over_pi[20] = {0,
    0xA2F9836E4E441529ull, 0xFC2757D1F534DDC0ull, 0xDB6295993C439041ull, 0xFE5163ABDEBBC561ull,
    0xB7246E3A424DD2E0ull, 0x06492EEA09D1921Cull, 0xFE1DEB1CB129A73Eull, 0xE88235F52EBB4484ull,
    0xE99C7026B45F7E41ull, 0x3991D639835339F4ull, 0x9C845F8BBDF9283Bull, 0x1FF897FFDE05980Full,
    0xEF2F118B5A0A6D1Full, 0x6D367ECF27CB09B7ull, 0x4F463F669E5FEA2Dull, 0x7527BAC7EBE5F17Bull,
    0x3D0739F78A5292EAull, 0x6BFB5FB11F8D5D08ull, 0x56033046FC7B6BABull};

/* x = k pi/2 + r, |r| <= pi/4, r as rh + rl (~2^-120 relative), k mod 4 in *kq (u32), for
 * any finite x (Payne-Hanek): x = M 2^(E-52) with M the 53-bit significand; the bits of 2/pi
 * from b_(E-53) on, as a 192-bit integer W, give x 2/pi mod 4 = (M W mod 2^192) / 2^190 (the
 * bits before contribute multiples of 4, those after less than 2^-130). The top two bits are k,
 * the next 190 the fraction, rounded to the nearest (k + 1, fraction - 1 at one half), then
 * normalized to hi + lo and multiplied by pi/2 (hi + lo). |x| < pi/4: r = x, k = 0. */
static void reduce_pio2(G *g, int x, int *rh_out, int *rl_out, int *kq_out) {
    if (!g->two_over_pi) {
        g->two_over_pi = true;
        buf_puts(&g->glob, ".const .align 8 .b64 $two_over_pi[20] = {");
        for (int i = 0; i < 20; i++) buf_printf(&g->glob, i ? ", %llu" : "%llu", (unsigned long long)two_over_pi[i]);
        buf_puts(&g->glob, "};\n");
    }
    int b = nr(g, CD), eb = nr(g, CD), M = nr(g, CD), q0 = nr(g, CR), wi = nr(g, CR), sh = nr(g, CR),
        sr = nr(g, CR), base = nr(g, CD), off = nr(g, CD);
    E(g, "mov.b64 %s, %s;", rn(g, b), rn(g, x));
    E(g, "shr.u64 %s, %s, 52;", rn(g, eb), rn(g, b));
    E(g, "and.b64 %s, %s, 2047;", rn(g, eb), rn(g, eb));
    E(g, "cvt.u32.u64 %s, %s;", rn(g, q0), rn(g, eb));
    E(g, "max.u32 %s, %s, 1022;", rn(g, q0), rn(g, q0));   /* E >= -1 (smaller x: not used) */
    E(g, "sub.u32 %s, %s, 1013;", rn(g, q0), rn(g, q0));   /* q0 = (E - 53) + 63 = E + 10 */
    E(g, "and.b64 %s, %s, 0x000FFFFFFFFFFFFF;", rn(g, M), rn(g, b));
    E(g, "or.b64 %s, %s, 0x0010000000000000;", rn(g, M), rn(g, M));
    E(g, "shr.u32 %s, %s, 6;", rn(g, wi), rn(g, q0));
    E(g, "and.b32 %s, %s, 63;", rn(g, sh), rn(g, q0));
    E(g, "sub.u32 %s, 64, %s;", rn(g, sr), rn(g, sh));
    E(g, "mov.u64 %s, $two_over_pi;", rn(g, base));
    E(g, "mul.wide.u32 %s, %s, 8;", rn(g, off), rn(g, wi));
    E(g, "add.s64 %s, %s, %s;", rn(g, base), rn(g, base), rn(g, off));
    int Z[4], w[3];
    for (int i = 0; i < 4; i++) {
        Z[i] = nr(g, CD);
        E(g, "ld.const.u64 %s, [%s+%d];", rn(g, Z[i]), rn(g, base), 8 * i);
    }
    for (int i = 0; i < 3; i++) {   /* w_i = Z_i << sh | Z_(i+1) >> (64 - sh) (0 when sh = 0) */
        int t = nr(g, CD);
        w[i] = nr(g, CD);
        E(g, "shl.b64 %s, %s, %s;", rn(g, w[i]), rn(g, Z[i]), rn(g, sh));
        E(g, "shr.u64 %s, %s, %s;", rn(g, t), rn(g, Z[i + 1]), rn(g, sr));
        E(g, "or.b64 %s, %s, %s;", rn(g, w[i]), rn(g, w[i]), rn(g, t));
    }
    /* M W mod 2^192 = R2:R1:R0 */
    int lo0 = nr(g, CD), lo1 = nr(g, CD), hi1 = nr(g, CD), lo2 = nr(g, CD), hi2 = nr(g, CD),
        R1 = nr(g, CD), R2 = nr(g, CD);
    E(g, "mul.lo.u64 %s, %s, %s;", rn(g, lo0), rn(g, M), rn(g, w[0]));
    E(g, "mul.lo.u64 %s, %s, %s;", rn(g, lo1), rn(g, M), rn(g, w[1]));
    E(g, "mul.hi.u64 %s, %s, %s;", rn(g, hi1), rn(g, M), rn(g, w[1]));
    E(g, "mul.lo.u64 %s, %s, %s;", rn(g, lo2), rn(g, M), rn(g, w[2]));
    E(g, "mul.hi.u64 %s, %s, %s;", rn(g, hi2), rn(g, M), rn(g, w[2]));
    E(g, "add.cc.u64 %s, %s, %s;", rn(g, R1), rn(g, hi2), rn(g, lo1));
    E(g, "addc.u64 %s, %s, %s;", rn(g, R2), rn(g, hi1), rn(g, lo0));
    /* k = the top two bits, plus one when the fraction's first bit is set */
    int k = nr(g, CD), kr = nr(g, CD), kq = nr(g, CR);
    E(g, "shr.u64 %s, %s, 62;", rn(g, k), rn(g, R2));
    E(g, "shr.u64 %s, %s, 61;", rn(g, kr), rn(g, R2));
    E(g, "and.b64 %s, %s, 1;", rn(g, kr), rn(g, kr));
    E(g, "add.s64 %s, %s, %s;", rn(g, k), rn(g, k), rn(g, kr));
    E(g, "cvt.u32.u64 %s, %s;", rn(g, kq), rn(g, k));
    /* the fraction as a signed 192-bit S (R2:R1:R0 << 2), its magnitude A2:A1:A0 */
    int S2 = nr(g, CD), S1 = nr(g, CD), S0 = nr(g, CD), t = nr(g, CD), neg = nr(g, CP);
    E(g, "shl.b64 %s, %s, 2;", rn(g, S2), rn(g, R2));
    E(g, "shr.u64 %s, %s, 62;", rn(g, t), rn(g, R1));
    E(g, "or.b64 %s, %s, %s;", rn(g, S2), rn(g, S2), rn(g, t));
    E(g, "shl.b64 %s, %s, 2;", rn(g, S1), rn(g, R1));
    E(g, "shr.u64 %s, %s, 62;", rn(g, t), rn(g, lo2));
    E(g, "or.b64 %s, %s, %s;", rn(g, S1), rn(g, S1), rn(g, t));
    E(g, "shl.b64 %s, %s, 2;", rn(g, S0), rn(g, lo2));
    E(g, "setp.lt.s64 %s, %s, 0;", rn(g, neg), rn(g, S2));
    int N2 = nr(g, CD), N1 = nr(g, CD), N0 = nr(g, CD);
    E(g, "not.b64 %s, %s;", rn(g, N0), rn(g, S0));
    E(g, "not.b64 %s, %s;", rn(g, N1), rn(g, S1));
    E(g, "not.b64 %s, %s;", rn(g, N2), rn(g, S2));
    E(g, "add.cc.u64 %s, %s, 1;", rn(g, N0), rn(g, N0));
    E(g, "addc.cc.u64 %s, %s, 0;", rn(g, N1), rn(g, N1));
    E(g, "addc.u64 %s, %s, 0;", rn(g, N2), rn(g, N2));
    E(g, "selp.b64 %s, %s, %s, %s;", rn(g, S0), rn(g, N0), rn(g, S0), rn(g, neg));
    E(g, "selp.b64 %s, %s, %s, %s;", rn(g, S1), rn(g, N1), rn(g, S1), rn(g, neg));
    E(g, "selp.b64 %s, %s, %s, %s;", rn(g, S2), rn(g, N2), rn(g, S2), rn(g, neg));
    /* normalize: B2:B1 = the top 128 bits from the first set bit; |f| = (B2:B1) 2^(-128-lz) */
    int lz = nr(g, CR), lzr = nr(g, CR), B2 = nr(g, CD), B1 = nr(g, CD);
    E(g, "clz.b64 %s, %s;", rn(g, lz), rn(g, S2));
    E(g, "sub.u32 %s, 64, %s;", rn(g, lzr), rn(g, lz));
    E(g, "shl.b64 %s, %s, %s;", rn(g, B2), rn(g, S2), rn(g, lz));
    E(g, "shr.u64 %s, %s, %s;", rn(g, t), rn(g, S1), rn(g, lzr));
    E(g, "or.b64 %s, %s, %s;", rn(g, B2), rn(g, B2), rn(g, t));
    E(g, "shl.b64 %s, %s, %s;", rn(g, B1), rn(g, S1), rn(g, lz));
    E(g, "shr.u64 %s, %s, %s;", rn(g, t), rn(g, S0), rn(g, lzr));
    E(g, "or.b64 %s, %s, %s;", rn(g, B1), rn(g, B1), rn(g, t));
    /* hi = (B2 >> 11) 2^75 exactly, lo = (B2 & 2047) 2^64 + B1, both times 2^(-128-lz) */
    int fh = nr(g, CD), fl = nr(g, CD), u = nr(g, CD), sc = nr(g, CD), e64 = nr(g, CD);
    E(g, "shr.u64 %s, %s, 11;", rn(g, t), rn(g, B2));
    E(g, "cvt.rn.f64.u64 %s, %s;", rn(g, fh), rn(g, t));
    E(g, "and.b64 %s, %s, 2047;", rn(g, t), rn(g, B2));
    E(g, "cvt.rn.f64.u64 %s, %s;", rn(g, fl), rn(g, t));
    E(g, "cvt.rn.f64.u64 %s, %s;", rn(g, u), rn(g, B1));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, fl), rn(g, fl), D64(0x1p64), rn(g, u));
    E(g, "cvt.u64.u32 %s, %s;", rn(g, e64), rn(g, lz));
    E(g, "sub.s64 %s, %d, %s;", rn(g, e64), 1023 - 128, rn(g, e64));
    E(g, "shl.b64 %s, %s, 52;", rn(g, e64), rn(g, e64));
    E(g, "mov.b64 %s, %s;", rn(g, sc), rn(g, e64));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, fh), rn(g, fh), D64(0x1p75));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, fh), rn(g, fh), rn(g, sc));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, fl), rn(g, fl), rn(g, sc));
    /* r = f pi/2 as hi + lo; the sign of S */
    int rh = nr(g, CD), rl = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, rh), rn(g, fh), D64(PIO2_HI));
    E(g, "neg.f64 %s, %s;", rn(g, rl), rn(g, rh));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, rl), rn(g, fh), D64(PIO2_HI), rn(g, rl));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, rl), rn(g, fh), D64(PIO2_LO), rn(g, rl));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, rl), rn(g, fl), D64(PIO2_HI), rn(g, rl));
    int s = d2(g, "add.rn.f64", rh, rl);
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, u), rn(g, s), rn(g, rh));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, rl), rn(g, rl), rn(g, u));
    E(g, "@%s neg.f64 %s, %s;", rn(g, neg), rn(g, s), rn(g, s));
    E(g, "@%s neg.f64 %s, %s;", rn(g, neg), rn(g, rl), rn(g, rl));
    /* x's sign: x = -|x| gives -r and -k */
    int sx = nr(g, CP), ax = nr(g, CD), p = nr(g, CP);
    E(g, "setp.lt.s64 %s, %s, 0;", rn(g, sx), rn(g, b));
    E(g, "@%s neg.f64 %s, %s;", rn(g, sx), rn(g, s), rn(g, s));
    E(g, "@%s neg.f64 %s, %s;", rn(g, sx), rn(g, rl), rn(g, rl));
    E(g, "@%s neg.s32 %s, %s;", rn(g, sx), rn(g, kq), rn(g, kq));
    E(g, "and.b32 %s, %s, 3;", rn(g, kq), rn(g, kq));
    /* |x| < pi/4: x itself */
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ax), D64(0.78539816339744828));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, s), rn(g, x));
    E(g, "@%s mov.f64 %s, 0d0000000000000000;", rn(g, p), rn(g, rl));
    E(g, "@%s mov.u32 %s, 0;", rn(g, p), rn(g, kq));
    *rh_out = s;
    *rl_out = rl;
    *kq_out = kq;
}

/* sin(rh + rl) for |rh| <= pi/4: rh + (rh^3 S(rh^2) + rl (1 - rh^2/2)), one rounding at the end */
static int sin_poly(G *g, int rh, int rl) {
    double c[12], fact = 6;
    for (int k = 0; k < 12; k++) { c[k] = (k % 2 ? 1.0 : -1.0) / fact; fact *= (2 * k + 4) * (2 * k + 5); }
    int z = d2(g, "mul.rn.f64", rh, rh), s = horner_d(g, z, c, 12), t = nr(g, CD), d = nr(g, CD);
    s = d2(g, "mul.rn.f64", s, z);
    s = d2(g, "mul.rn.f64", s, rh);
    E(g, "fma.rn.f64 %s, %s, 0dBFE0000000000000, 0d3FF0000000000000;", rn(g, t), rn(g, z));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, t), rn(g, t), rn(g, rl), rn(g, s));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, d), rn(g, rh), rn(g, t));
    return d;
}

/* cos(rh + rl) for |rh| <= pi/4: w = 1 - rh^2/2, then w + (((1 - w) - rh^2/2) + rh^4 C(rh^2)
 * - rh rl) */
static int cos_poly(G *g, int rh, int rl) {
    double c[12], fact = 24;
    for (int k = 0; k < 12; k++) { c[k] = (k % 2 ? -1.0 : 1.0) / fact; fact *= (2 * k + 5) * (2 * k + 6); }
    int z = d2(g, "mul.rn.f64", rh, rh), q = horner_d(g, z, c, 12), hz = nr(g, CD), w = nr(g, CD),
        t = nr(g, CD), d = nr(g, CD);
    q = d2(g, "mul.rn.f64", q, z);
    q = d2(g, "mul.rn.f64", q, z);
    E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, hz), rn(g, z));
    E(g, "sub.rn.f64 %s, 0d3FF0000000000000, %s;", rn(g, w), rn(g, hz));
    E(g, "sub.rn.f64 %s, 0d3FF0000000000000, %s;", rn(g, t), rn(g, w));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, t), rn(g, t), rn(g, hz));
    E(g, "neg.f64 %s, %s;", rn(g, d), rn(g, rh));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, q), rn(g, d), rn(g, rl), rn(g, q));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, t), rn(g, t), rn(g, q));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, d), rn(g, w), rn(g, t));
    return d;
}

/* sin (fn OP_SIN), cos (OP_COS) or tan (MF_TAN, as -1) of any fp64 x: reduce_pio2, then the
 * polynomial the quadrant picks; tan: t = tan(r) as hi + lo (its Taylor series, coefficients
 * from T' = 1 + T^2), -1/t in odd quadrants (one Newton correction). inf: NaN; +-0: itself
 * (cos: 1). */
int trig_f64_fn(G *g, int fn, int x) {
    int rh, rl, kq, d = nr(g, CD), p = nr(g, CP), k1 = nr(g, CR);
    reduce_pio2(g, x, &rh, &rl, &kq);
    if (fn == OP_SIN || fn == OP_COS) {
        int s = sin_poly(g, rh, rl), c = cos_poly(g, rh, rl);
        if (fn == OP_COS) E(g, "add.u32 %s, %s, 1;", rn(g, kq), rn(g, kq));
        E(g, "and.b32 %s, %s, 1;", rn(g, k1), rn(g, kq));
        E(g, "setp.ne.u32 %s, %s, 0;", rn(g, p), rn(g, k1));
        E(g, "selp.f64 %s, %s, %s, %s;", rn(g, d), rn(g, c), rn(g, s), rn(g, p));
        E(g, "and.b32 %s, %s, 2;", rn(g, k1), rn(g, kq));
        E(g, "setp.ne.u32 %s, %s, 0;", rn(g, p), rn(g, k1));
        E(g, "@%s neg.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, d));
    } else {
        double a[30] = {1};
        for (int k = 1; k < 30; k++) {
            double s = 0;
            for (int i = 0; i < k; i++) s += a[i] * a[k - 1 - i];
            a[k] = s / (2 * k + 1);
        }
        int z = d2(g, "mul.rn.f64", rh, rh), q = horner_d(g, z, a + 1, 29), th = nr(g, CD), tl = nr(g, CD),
            u = nr(g, CD);
        q = d2(g, "mul.rn.f64", q, z);
        q = d2(g, "mul.rn.f64", q, rh);
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, th), rn(g, rh), rn(g, q));
        E(g, "sub.rn.f64 %s, %s, %s;", rn(g, u), rn(g, th), rn(g, rh));
        E(g, "sub.rn.f64 %s, %s, %s;", rn(g, tl), rn(g, q), rn(g, u));
        E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, u), rn(g, th), rn(g, th));
        E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, tl), rn(g, rl), rn(g, u), rn(g, tl));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, d), rn(g, th), rn(g, tl));
        /* odd quadrant: y = -1/t; q = -1/th, e = 1 + q th + q tl, y = q + q e */
        int qq = nr(g, CD), e = nr(g, CD);
        E(g, "div.rn.f64 %s, 0dBFF0000000000000, %s;", rn(g, qq), rn(g, th));
        E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, e), rn(g, qq), rn(g, th));
        E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, e), rn(g, qq), rn(g, tl), rn(g, e));
        E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, qq), rn(g, qq), rn(g, e), rn(g, qq));
        E(g, "and.b32 %s, %s, 1;", rn(g, k1), rn(g, kq));
        E(g, "setp.ne.u32 %s, %s, 0;", rn(g, p), rn(g, k1));
        E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, qq));
    }
    int ax = nr(g, CD);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, ax));
    E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
    if (fn != OP_COS) {
        E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, x));
        E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    }
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    return d;
}

/* ---- atan, atan2, asin, acos; sinpi, cospi --------------------------------------------- */

#define PI_HI 0x1.921fb54442d18p+1
#define PI_LO 0x1.1a62633145c07p-53

/* atan(a / b) in [0, pi/2] for magnitudes a, b (not both 0 or both inf: callers fix those), and
 * pi minus that when bneg: t = min/max as hi + lo (fma residual), c = k/8 nearest t,
 * atan t = atan c + atan((t - c) / (1 + t c)) (atan c as hi + lo from long double at
 * generation time; the quotient with its low part), the odd series of the small quotient
 * (|u| < 0.07); a > b: pi/2 - that. */
static int atan2_core(G *g, int a, int b, int bneg) {
    int mn = d2(g, "min.f64", a, b), mx = d2(g, "max.f64", a, b), sw = nr(g, CP);
    int th = d2(g, "div.rn.f64", mn, mx), tl = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, tl), rn(g, th));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, tl), rn(g, tl), rn(g, mx), rn(g, mn));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, tl), rn(g, tl), rn(g, mx));
    E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, sw), rn(g, mx));   /* t = 0 exactly */
    E(g, "@%s mov.f64 %s, 0d0000000000000000;", rn(g, sw), rn(g, tl));
    E(g, "setp.gt.f64 %s, %s, %s;", rn(g, sw), rn(g, a), rn(g, b));
    int kf = nr(g, CD), c = nr(g, CD), ch = dk(g, 0), cl = dk(g, 0), pk = nr(g, CP);
    E(g, "mul.rn.f64 %s, %s, 0d4020000000000000;", rn(g, kf), rn(g, th));
    E(g, "cvt.rni.f64.f64 %s, %s;", rn(g, kf), rn(g, kf));
    E(g, "mul.rn.f64 %s, %s, 0d3FC0000000000000;", rn(g, c), rn(g, kf));
    for (int k = 1; k <= 8; k++) {
        long double L = atanl((long double)k / 8);
        double hi = (double)L, lo = (double)(L - hi);
        E(g, "setp.eq.f64 %s, %s, 0d%016llX;", rn(g, pk), rn(g, kf), D64(k));
        E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, pk), rn(g, ch), D64(hi));
        E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, pk), rn(g, cl), D64(lo));
    }
    /* u = (t - c) / (1 + t c): t - c exact (Sterbenz, or c = 0), plus tl; the denominator as
     * dh + dl */
    int nh = d2(g, "sub.rn.f64", th, c), dh = nr(g, CD), dl = nr(g, CD), one = dk(g, 1.0);
    E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, dh), rn(g, th), rn(g, c));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, dl), rn(g, one), rn(g, dh));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, dl), rn(g, th), rn(g, c), rn(g, dl));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, dl), rn(g, tl), rn(g, c), rn(g, dl));
    int nsum, nlo;
    two_sum(g, nh, tl, &nsum, &nlo);
    int uh = d2(g, "div.rn.f64", nsum, dh), ul = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, ul), rn(g, uh));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, ul), rn(g, ul), rn(g, dh), rn(g, nsum));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, ul), rn(g, ul), rn(g, nlo));
    int nu = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, nu), rn(g, uh));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, ul), rn(g, nu), rn(g, dl), rn(g, ul));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, ul), rn(g, ul), rn(g, dh));
    /* atan u = u + u^3 P(u^2) */
    double co[10];
    for (int k = 0; k < 10; k++) co[k] = (k % 2 ? 1.0 : -1.0) / (2 * k + 3);
    int z = d2(g, "mul.rn.f64", uh, uh), q = horner_d(g, z, co, 10);
    q = d2(g, "mul.rn.f64", q, z);
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, q), rn(g, q), rn(g, uh), rn(g, ul));
    /* r = ch + uh + (cl + q): ch + uh by two-sum */
    int rh, rl;
    two_sum(g, ch, uh, &rh, &rl);
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, rl), rn(g, rl), rn(g, q));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, rl), rn(g, rl), rn(g, cl));
    /* swapped: pi/2 - r; bneg: pi - that (hi + lo each) */
    int sh, sl, n1 = nr(g, CD), n2 = nr(g, CD), k1 = dk(g, PIO2_HI);
    E(g, "neg.f64 %s, %s;", rn(g, n1), rn(g, rh));
    E(g, "neg.f64 %s, %s;", rn(g, n2), rn(g, rl));
    two_sum(g, k1, n1, &sh, &sl);
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, sl), rn(g, sl), rn(g, n2));
    E(g, "add.rn.f64 %s, %s, 0d%016llX;", rn(g, sl), rn(g, sl), D64(PIO2_LO));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, rh), rn(g, sh), rn(g, rh), rn(g, sw));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, rl), rn(g, sl), rn(g, rl), rn(g, sw));
    int ph, pl, k2 = dk(g, PI_HI);
    E(g, "neg.f64 %s, %s;", rn(g, n1), rn(g, rh));
    E(g, "neg.f64 %s, %s;", rn(g, n2), rn(g, rl));
    two_sum(g, k2, n1, &ph, &pl);
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, pl), rn(g, pl), rn(g, n2));
    E(g, "add.rn.f64 %s, %s, 0d%016llX;", rn(g, pl), rn(g, pl), D64(PI_LO));
    if (bneg) {
        E(g, "selp.f64 %s, %s, %s, %s;", rn(g, rh), rn(g, ph), rn(g, rh), rn(g, bneg));
        E(g, "selp.f64 %s, %s, %s, %s;", rn(g, rl), rn(g, pl), rn(g, rl), rn(g, bneg));
    }
    return d2(g, "add.rn.f64", rh, rl);
}

/* atan (MF_ATAN), asin, acos of x; atan2 (MF_ATAN2) of x over y; special values as C's */
int atan_f64_fn(G *g, int fn, int x, int y) {
    int ax = nr(g, CD), p = nr(g, CP), d;
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    if (fn == MF_ATAN) {
        d = atan2_core(g, ax, dk(g, 1.0), 0);
        E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
        E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
        E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
        return d;
    }
    if (fn == MF_ASIN || fn == MF_ACOS) {   /* s = sqrt(1 - x^2), atan2(|x|, s) or atan2(s, x) */
        int s = nr(g, CD), bn = nr(g, CP);
        E(g, "neg.f64 %s, %s;", rn(g, s), rn(g, ax));
        E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, s), rn(g, s), rn(g, ax));
        E(g, "sqrt.rn.f64 %s, %s;", rn(g, s), rn(g, s));
        if (fn == MF_ASIN) {
            d = atan2_core(g, ax, s, 0);
            E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
            E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, x));
            E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
        } else {
            E(g, "setp.lt.f64 %s, %s, 0d0000000000000000;", rn(g, bn), rn(g, x));
            d = atan2_core(g, s, ax, bn);
        }
        E(g, "setp.gtu.f64 %s, %s, 0d3FF0000000000000;", rn(g, p), rn(g, ax));   /* |x| > 1, NaN */
        E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
        E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
        E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
        return d;
    }
    /* atan2(x, y): a = |x|, b = |y|; both 0 -> atan 0 (then pi for y's sign); both inf -> 1 */
    int ay = nr(g, CD), sy = nr(g, CD), bn = nr(g, CP), a = nr(g, CD), b = nr(g, CD);
    E(g, "abs.f64 %s, %s;", rn(g, ay), rn(g, y));
    E(g, "mov.b64 %s, %s;", rn(g, sy), rn(g, y));
    E(g, "setp.lt.s64 %s, %s, 0;", rn(g, bn), rn(g, sy));
    E(g, "mov.f64 %s, %s;", rn(g, a), rn(g, ax));
    E(g, "mov.f64 %s, %s;", rn(g, b), rn(g, ay));
    E(g, "setp.eq.f64 %s, %s, %s;", rn(g, p), rn(g, ax), rn(g, ay));
    E(g, "@%s mov.f64 %s, 0d3FF0000000000000;", rn(g, p), rn(g, a));   /* equal: atan 1 */
    E(g, "@%s mov.f64 %s, 0d3FF0000000000000;", rn(g, p), rn(g, b));
    E(g, "setp.eq.and.f64 %s, %s, 0d0000000000000000, %s;", rn(g, p), rn(g, ax), rn(g, p));
    E(g, "@%s mov.f64 %s, 0d0000000000000000;", rn(g, p), rn(g, a));   /* both 0: atan 0 */
    d = atan2_core(g, a, b, bn);
    E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, y));
    E(g, "@%s add.f64 %s, %s, %s;", rn(g, p), rn(g, d), rn(g, x), rn(g, y));
    return d;
}

/* sinpi, cospi (cos true) of any x: r = x mod 2 (exact), n = rint(2r), f = r - n/2 in
 * [-1/4, 1/4] (exact), pi f as hi + lo, sin or cos of it by the quadrant n mod 4 (cos: + 1);
 * sinpi's zeros x's sign, cospi's +0; inf: NaN */
int sinpi_f64_fn(G *g, int x, bool cos) {
    int h = nr(g, CD), rr = nr(g, CD), n = nr(g, CD), f = nr(g, CD), yh = nr(g, CD), yl = nr(g, CD),
        ni = nr(g, CR), qd = nr(g, CR), p = nr(g, CP), d = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, h), rn(g, x));
    E(g, "cvt.rzi.f64.f64 %s, %s;", rn(g, h), rn(g, h));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, h), rn(g, h), rn(g, h));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, rr), rn(g, x), rn(g, h));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, n), rn(g, rr), rn(g, rr));
    E(g, "cvt.rni.f64.f64 %s, %s;", rn(g, n), rn(g, n));
    E(g, "fma.rn.f64 %s, %s, 0dBFE0000000000000, %s;", rn(g, f), rn(g, n), rn(g, rr));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, yh), rn(g, f), D64(PI_HI));
    E(g, "neg.f64 %s, %s;", rn(g, yl), rn(g, yh));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, yl), rn(g, f), D64(PI_HI), rn(g, yl));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, yl), rn(g, f), D64(PI_LO), rn(g, yl));
    int s = sin_poly(g, yh, yl), c = cos_poly(g, yh, yl);
    E(g, "cvt.rni.s32.f64 %s, %s;", rn(g, ni), rn(g, n));
    if (cos) E(g, "add.s32 %s, %s, 1;", rn(g, ni), rn(g, ni));
    E(g, "and.b32 %s, %s, 3;", rn(g, qd), rn(g, ni));
    E(g, "and.b32 %s, %s, 1;", rn(g, ni), rn(g, qd));
    E(g, "setp.ne.u32 %s, %s, 0;", rn(g, p), rn(g, ni));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, d), rn(g, c), rn(g, s), rn(g, p));
    E(g, "setp.ge.u32 %s, %s, 2;", rn(g, p), rn(g, qd));
    E(g, "@%s neg.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, d));
    E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, d));
    if (!cos) E(g, "@%s copysign.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, d), rn(g, x));
    else E(g, "@%s mov.f64 %s, 0d0000000000000000;", rn(g, p), rn(g, d));
    int ax = nr(g, CD);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, ax));
    E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    return d;
}

/* ---- cbrt, rcbrt, hypot, rhypot ---------------------------------------------------------- */

/* 1/(h + l) for h + l normal: q = 1/h, e = 1 - q h - q l (fma), q + q e */
static int rcp_dd(G *g, int h, int l) {
    int q = nr(g, CD), e = nr(g, CD), d = nr(g, CD);
    E(g, "rcp.rn.f64 %s, %s;", rn(g, q), rn(g, h));
    E(g, "neg.f64 %s, %s;", rn(g, d), rn(g, q));
    E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, e), rn(g, d), rn(g, h));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, e), rn(g, d), rn(g, l), rn(g, e));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, d), rn(g, q), rn(g, e), rn(g, q));
    return d;
}

/* cbrt (rcbrt false) or rcbrt of x: |x| = 2^(3q) m (subnormals scaled by 2^54 first), m in
 * [1, 8); y0 = ex2(lg2(m) / 3) (the fp32 .approx instructions), two Newton steps, a third with
 * y^3 - m exact (fma) giving cbrt m as y + c (hi + lo); times 2^q, x's sign. 0, inf, NaN:
 * x itself (rcbrt: 1/x). */
int cbrt_f64_fn(G *g, int x, bool rcp) {
    int ax = nr(g, CD), b = nr(g, CD), eb = nr(g, CD), e = nr(g, CR), q = nr(g, CR), r = nr(g, CR),
        m = nr(g, CD), p = nr(g, CP), ps = nr(g, CP);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.lt.f64 %s, %s, 0d0010000000000000;", rn(g, ps), rn(g, ax));
    E(g, "@%s mul.rn.f64 %s, %s, 0d4350000000000000;", rn(g, ps), rn(g, ax), rn(g, ax));
    E(g, "mov.b64 %s, %s;", rn(g, b), rn(g, ax));
    E(g, "shr.u64 %s, %s, 52;", rn(g, eb), rn(g, b));
    E(g, "cvt.u32.u64 %s, %s;", rn(g, e), rn(g, eb));
    E(g, "add.u32 %s, %s, 177;", rn(g, e), rn(g, e));          /* e - 1023 + 1200 >= 0 */
    E(g, "div.u32 %s, %s, 3;", rn(g, q), rn(g, e));
    E(g, "mul.lo.u32 %s, %s, 3;", rn(g, r), rn(g, q));
    E(g, "sub.u32 %s, %s, %s;", rn(g, r), rn(g, e), rn(g, r));
    E(g, "sub.s32 %s, %s, 400;", rn(g, q), rn(g, q));
    E(g, "@%s sub.s32 %s, %s, 18;", rn(g, ps), rn(g, q), rn(g, q));
    E(g, "and.b64 %s, %s, 0x000FFFFFFFFFFFFF;", rn(g, b), rn(g, b));
    E(g, "add.u32 %s, %s, 1023;", rn(g, r), rn(g, r));
    E(g, "cvt.u64.u32 %s, %s;", rn(g, eb), rn(g, r));
    E(g, "shl.b64 %s, %s, 52;", rn(g, eb), rn(g, eb));
    E(g, "or.b64 %s, %s, %s;", rn(g, b), rn(g, b), rn(g, eb));
    E(g, "mov.b64 %s, %s;", rn(g, m), rn(g, b));
    int y = cbrt_est(g, m), t = nr(g, CD), dd = nr(g, CD);
    /* y^3 - m exactly enough: y^2 = h + l, y^3 = h y + l y, minus m */
    int h = d2(g, "mul.rn.f64", y, y), l = nr(g, CD), h3 = nr(g, CD), res = nr(g, CD), c = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, l), rn(g, h));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, l), rn(g, y), rn(g, y), rn(g, l));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, h3), rn(g, h), rn(g, y));
    E(g, "neg.f64 %s, %s;", rn(g, res), rn(g, h3));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, res), rn(g, h), rn(g, y), rn(g, res));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, res), rn(g, l), rn(g, y), rn(g, res));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, t), rn(g, h3), rn(g, m));   /* exact (Sterbenz) */
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, res), rn(g, res), rn(g, t));
    E(g, "mul.rn.f64 %s, %s, 0d4008000000000000;", rn(g, dd), rn(g, h));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, c), rn(g, res), rn(g, dd));
    E(g, "neg.f64 %s, %s;", rn(g, c), rn(g, c));
    int v = rcp ? rcp_dd(g, y, c) : d2(g, "add.rn.f64", y, c);
    int sc = nr(g, CD), d = nr(g, CD);
    if (rcp) E(g, "neg.s32 %s, %s;", rn(g, q), rn(g, q));
    E(g, "add.s32 %s, %s, 1023;", rn(g, q), rn(g, q));
    E(g, "cvt.u64.u32 %s, %s;", rn(g, sc), rn(g, q));
    E(g, "shl.b64 %s, %s, 52;", rn(g, sc), rn(g, sc));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, d), rn(g, v), rn(g, sc));
    E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
    E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, x));
    E(g, "setp.eq.or.f64 %s, %s, 0d7FF0000000000000, %s;", rn(g, p), rn(g, ax), rn(g, p));
    E(g, "setp.nan.or.f64 %s, %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x), rn(g, p));
    if (rcp) E(g, "@%s rcp.rn.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    else E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    return d;
}

/* hypot (rhypot false) or rhypot: the larger magnitude scaled by 2^-600 or 2^600 away from
 * the ends of the range, a^2 + b^2 as hi + lo (fma), its square root corrected by the residual
 * (hi + lo), scaled back; an infinite operand gives inf (rhypot 0) even with a NaN */
int hypot_f64_fn(G *g, int x, int y, bool rcp) {
    int a = nr(g, CD), b = nr(g, CD), mx = nr(g, CD), mn = nr(g, CD), s = dk(g, 1.0), is = dk(g, 1.0),
        p = nr(g, CP);
    E(g, "abs.f64 %s, %s;", rn(g, a), rn(g, x));
    E(g, "abs.f64 %s, %s;", rn(g, b), rn(g, y));
    E(g, "max.f64 %s, %s, %s;", rn(g, mx), rn(g, a), rn(g, b));
    E(g, "min.f64 %s, %s, %s;", rn(g, mn), rn(g, a), rn(g, b));
    E(g, "setp.gt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, mx), D64(0x1p500));
    E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, p), rn(g, s), D64(0x1p-600));
    E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, p), rn(g, is), D64(0x1p600));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, mx), D64(0x1p-500));
    E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, p), rn(g, s), D64(0x1p600));
    E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, p), rn(g, is), D64(0x1p-600));
    int A = d2(g, "mul.rn.f64", mx, s), B = d2(g, "mul.rn.f64", mn, s);
    int ah = d2(g, "mul.rn.f64", A, A), bh = d2(g, "mul.rn.f64", B, B), al = nr(g, CD), bl = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, al), rn(g, ah));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, al), rn(g, A), rn(g, A), rn(g, al));
    E(g, "neg.f64 %s, %s;", rn(g, bl), rn(g, bh));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, bl), rn(g, B), rn(g, B), rn(g, bl));
    int sh, sl;
    two_sum(g, ah, bh, &sh, &sl);
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, sl), rn(g, sl), rn(g, al));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, sl), rn(g, sl), rn(g, bl));
    int r = nr(g, CD), res = nr(g, CD), c = nr(g, CD);
    E(g, "sqrt.rn.f64 %s, %s;", rn(g, r), rn(g, sh));
    E(g, "neg.f64 %s, %s;", rn(g, res), rn(g, r));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, res), rn(g, res), rn(g, r), rn(g, sh));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, res), rn(g, res), rn(g, sl));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, c), rn(g, r), rn(g, r));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, c), rn(g, res), rn(g, c));
    int v = rcp ? rcp_dd(g, r, c) : d2(g, "add.rn.f64", r, c), d = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, d), rn(g, v), rcp ? rn(g, s) : rn(g, is));
    E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, mx));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rcp ? "0d7FF0000000000000" : "0d0000000000000000");
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, y));
    E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
    E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, a));
    E(g, "setp.eq.or.f64 %s, %s, 0d7FF0000000000000, %s;", rn(g, p), rn(g, b), rn(g, p));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rcp ? "0d0000000000000000" : "0d7FF0000000000000");
    return d;
}

/* ---- asinh, acosh, atanh --------------------------------------------------------------- */

/* asinh (MF_ASINH), acosh, atanh of x through log1p: asinh: log1p(|x| + x^2 / (1 +
 * sqrt(1 + x^2))), x's sign; acosh: log1p(t + sqrt(t (x + 1))), t = x - 1; both ln|x| + ln 2
 * from 2^28 on; atanh: log1p(2|x| / (1 - |x|)) / 2, x's sign. Special values as C's. */
int ahyp_f64_fn(G *g, int fn, int x) {
    int ax = nr(g, CD), u = nr(g, CD), q = nr(g, CD), p = nr(g, CP), d;
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    if (fn == MF_ATANH) {
        E(g, "sub.rn.f64 %s, 0d3FF0000000000000, %s;", rn(g, q), rn(g, ax));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, u), rn(g, ax), rn(g, ax));
        E(g, "div.rn.f64 %s, %s, %s;", rn(g, u), rn(g, u), rn(g, q));
        d = log1p_f64_fn(g, u);
        E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, d), rn(g, d));
        E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
        E(g, "setp.eq.f64 %s, %s, 0d3FF0000000000000;", rn(g, p), rn(g, ax));
        E(g, "@%s copysign.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, d), rn(g, x));
        E(g, "setp.gt.f64 %s, %s, 0d3FF0000000000000;", rn(g, p), rn(g, ax));
        E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
    } else {
        if (fn == MF_ASINH) {
            E(g, "mul.rn.f64 %s, %s, %s;", rn(g, q), rn(g, ax), rn(g, ax));
            E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, u), rn(g, q));
            E(g, "sqrt.rn.f64 %s, %s;", rn(g, u), rn(g, u));
            E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, u), rn(g, u));
            E(g, "div.rn.f64 %s, %s, %s;", rn(g, u), rn(g, q), rn(g, u));
            E(g, "add.rn.f64 %s, %s, %s;", rn(g, u), rn(g, u), rn(g, ax));
        } else {
            int t = nr(g, CD);
            E(g, "sub.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, t), rn(g, x));
            E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, q), rn(g, x));
            E(g, "mul.rn.f64 %s, %s, %s;", rn(g, q), rn(g, q), rn(g, t));
            E(g, "sqrt.rn.f64 %s, %s;", rn(g, q), rn(g, q));
            E(g, "add.rn.f64 %s, %s, %s;", rn(g, u), rn(g, q), rn(g, t));
        }
        d = log1p_f64_fn(g, u);
        int lo, h = log_dd(g, ax, &lo), k = dk(g, 0x1.62e42fefa39efp-1), sh, sl;
        two_sum(g, h, k, &sh, &sl);
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, sl), rn(g, sl), rn(g, lo));
        E(g, "add.rn.f64 %s, %s, 0d%016llX;", rn(g, sl), rn(g, sl), D64(0x1.abc9e3b39803fp-56));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, sh), rn(g, sh), rn(g, sl));
        E(g, "setp.ge.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ax), D64(0x1p28));
        E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, sh));
        if (fn == MF_ASINH) {
            E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
            E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, x));
            E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
        } else {
            E(g, "setp.lt.f64 %s, %s, 0d3FF0000000000000;", rn(g, p), rn(g, x));
            E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
        }
        E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, ax));
        E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, fn == MF_ASINH ? x : ax));
        if (fn == MF_ACOSH) {
            E(g, "setp.lt.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, x));
            E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
        }
    }
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    return d;
}

/* ---- erf, erfc, erfinv ------------------------------------------------------------------ *
 * erf x = x + x P(x^2) below 0.5; above, erfc through erfcx = e^(x^2) erfc x, a polynomial in
 * x - m on each of four pieces to 3.875 and x erfcx x one in 1/x^2 - m from there to 27.5
 * (erfc underflows at 27.23), times e^(-x^2) (x^2 as hi + lo, exp_reduce) with the product
 * kept as hi + lo; erf = 1 - erfc, erfc(-x) = 2 - erfc x. erfinv: a guess and one Halley
 * step on those. Measured (ptxsim, against long double): erf 0.7 ulp, erfc 0.65 (0.75 for
 * subnormal results, rounded twice), erfinv 0.7. */

/* printed by scripts/erf64-coeffs.py; max relative errors: erf_small 1.1e-17,
 * erfc_pieces 1.8e-19 1.9e-19 1.1e-19 2.3e-19 3.7e-19, erfinv_pieces 2.9e-10 1.2e-10 */
static const double erf_small[10] = {
    0x1.06eba8214db69p-3, -0x1.812746b037a18p-2, 0x1.ce2f21a045dfbp-4, -0x1.b82ce313fddf4p-6,
    0x1.565bcd6cd8045p-8, -0x1.c02dd00dd9a76p-11, 0x1.f9a826a12df84p-14, -0x1.f556bae33e99ap-17,
    0x1.c0d71cb7f465cp-20, -0x1.774d15d7e59d2p-23,
};
static const double erfc_pieces[100] = {
    0x1.0000000000000p-1, 0x1.a000000000000p-1, 0x1.f0723ff5acdf9p-2, -0x1.8152438dffcddp-58,
    -0x1.5cbc2c216df00p-2, 0x1.7dc1ac0a82722p-57, 0x1.aa32b83507196p-3, -0x1.d43ed8ca5d791p-4,
    0x1.d7f26045a16efp-5, -0x1.ba6d691687358p-6, 0x1.859d3cc70552ep-7, -0x1.44bd2e2aa2dffp-8,
    0x1.01b0615c8227dp-9, -0x1.87347d7b113b8p-11, 0x1.1d2999e766f3cp-12, -0x1.9085835d80a29p-14,
    0x1.0f9225534fe08p-15, -0x1.64fca51e1f598p-17, 0x1.d846e23046b9dp-19, -0x1.21e06087c1fa0p-20,
    0x1.2000000000000p+0, 0x1.8000000000000p+0, 0x1.494daffa2ad68p-2, 0x1.38aa60e89b687p-56,
    -0x1.4f1988444caf7p-3, 0x1.18e1600b3c605p-57, 0x1.37ea271bc54c1p-4, -0x1.0dc51d2941e62p-5,
    0x1.b65944f34e569p-7, -0x1.513ed7600e7d9p-8, 0x1.ee705e756b4fap-10, -0x1.5b0abfe55129ap-11,
    0x1.d4509b48d419bp-13, -0x1.30c0ecaaf04a6p-14, 0x1.7f9a4f3a455a8p-16, -0x1.d415a825d84c1p-18,
    0x1.15348831f23eap-19, -0x1.3fe357af350d3p-21, 0x1.7708276944145p-23, -0x1.97d693fba796ep-25,
    0x1.e000000000000p+0, 0x1.2800000000000p+1, 0x1.ce30e45ab6494p-3, 0x1.c3799bbf7486cp-57,
    -0x1.5a930ffb85474p-4, -0x1.9d6c0de2f2e0bp-62, 0x1.ebb6ceff21777p-6, -0x1.4c4757001fa17p-7,
    0x1.ae11499bf2922p-9, -0x1.0baab49fe35c6p-10, 0x1.418a6cb42d4c0p-12, -0x1.75d56393c1cdcp-14,
    0x1.a5ac3adfc2f5fp-16, -0x1.ce6a020f8f15dp-18, 0x1.ede42e5669916p-20, -0x1.014a07b074d19p-21,
    0x1.05a4e897a9a70p-23, -0x1.048a6f7d76355p-25, 0x1.093d0455afd53p-27, -0x1.f6f7ec9e2a95ep-30,
    0x1.6000000000000p+1, 0x1.a800000000000p+1, 0x1.4eb70f58ed3eap-3, 0x1.3c141add6b2fap-58,
    -0x1.75bb89d0a7de5p-5, -0x1.97c219d2d3116p-61, 0x1.937c138223a8fp-7, -0x1.a65dbc5ec39cep-9,
    0x1.adb39c1d4b38bp-11, -0x1.a9b993c3329d7p-13, 0x1.9b74f4017effbp-15, -0x1.848350f01ce48p-17,
    0x1.66e0d1458943fp-19, -0x1.44aeaf974bce2p-21, 0x1.20019e4ed294dp-23, -0x1.f56b112f8e050p-26,
    0x1.ac35c90cbb95cp-28, -0x1.68083fedd9fefp-30, 0x1.39aa531502906p-32, -0x1.fab47b0ebeb35p-35,
    0x1.f000000000000p+1, 0x1.1632df169accap-5, 0x1.1c30e5950c9fdp-1, 0x1.31bc4f65234dfp-55,
    -0x1.06aec28ef4989p-2, 0x1.653e9436b92cap-56, 0x1.57ed840d54587p-2, -0x1.63e16d978feeap-1,
    0x1.eab873d2ce55cp+0, -0x1.9f5831d3a5ca6p+2, 0x1.9b63bc9e15e6fp+4, -0x1.ce2fcd04389b8p+6,
    0x1.20219710e16f5p+9, -0x1.885b602df294ep+11, 0x1.20942b87149d5p+14, -0x1.c57030b0aab62p+16,
    0x1.6d5fdc254a7b4p+19, -0x1.3cd0fa950b90fp+22, 0x1.9047cade93c05p+25, -0x1.8f69e1a033ac6p+28,
};
static const double erfinv_pieces[34] = {
    0x0.0p+0, 0x1.0000000000000p+2, 0x1.dbd8f2a8f8f9fp+0, 0x1.d3ab9efe40cd6p-3,
    -0x1.d93d3e5300ec0p-8, -0x1.abc237b4385a1p-13, 0x1.f2990bb8d5d39p-14, -0x1.044ee49a05afcp-16,
    0x1.05e8662ebbf7cp-21, 0x1.7cce499474ca9p-23, -0x1.21c78fd640f4ap-25, 0x1.fc51019760241p-30,
    0x1.6907c72b0cb9cp-32, -0x1.43338a897d68dp-34, 0x1.7789a6efb62f3p-39, 0x1.8d5dbbf09d752p-41,
    -0x1.2b2c0ba9f13a9p-44,
    0x1.0000000000000p+3, 0x1.1d2877351bd10p+2, 0x1.13317a86a3a86p+2, 0x1.029c8a4e77be2p+0,
    0x1.954ff7c853c7ep-12, -0x1.dfa0d5b08f728p-12, 0x1.4a2f3a0a6e8b7p-13, -0x1.7024f4e2fcdaep-15,
    0x1.98410fa67ff0dp-17, -0x1.3be65fe08ec6dp-18, 0x1.2c94b3fa87200p-19, -0x1.8410ca43ab2aap-21,
    0x1.f5bf96d8440a9p-22, -0x1.044b420f10a9dp-21, 0x1.4472cfb019046p-23, 0x1.4a56eb5212720p-25,
    -0x1.4f47080b0b8c2p-26,
};

#define ERFC_NP 5    /* pieces of erfc_pieces */
#define ERFC_ROW 20  /* a row: start, m, c0 and c1 as hi + lo, c2 ... c15 */
#define ERFINV_ROW 17

/* the constants of a row of tab (np rows of `row`, each its start and row - 1 constants)
 * into c[]: the first row's, overwritten by each later row's whose start key reaches */
static void pick_row(G *g, int key, const double *tab, int np, int row, int *c) {
    int p = nr(g, CP);
    for (int k = 1; k < row; k++) c[k - 1] = dk(g, tab[k]);
    for (int i = 1; i < np; i++) {
        const double *t = tab + i * row;
        E(g, "setp.ge.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, key), D64(t[0]));
        for (int k = 1; k < row; k++) E(g, "@%s mov.f64 %s, 0d%016llX;", rn(g, p), rn(g, c[k - 1]), D64(t[k]));
    }
}

/* c[0] + c[1] z + ... + c[n-1] z^(n-1) with the c in registers */
static int horner_r(G *g, int z, const int *c, int n) {
    int r = c[n - 1];
    for (int i = n - 2; i >= 0; i--) {
        int d = nr(g, CD);
        E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, d), rn(g, r), rn(g, z), rn(g, c[i]));
        r = d;
    }
    return r;
}

/* what erf, erfc and erfinv need of x and a = |x| clamped to [0, 27.5]: p, with erf x =
 * x + x p for |x| < 0.5; for a >= 0.5, erfc a = (S + L) b1 b2 (b1, b2 powers of two; S + L
 * within ~0.1 ulp); e = e^(-a^2) / (b1 b2) */
typedef struct ErfParts { int p, S, L, b1, b2, e; } ErfParts;

static void erf_parts(G *g, int x, int a, ErfParts *o) {
    o->p = horner_d(g, d2(g, "mul.rn.f64", x, x), erf_small, (int)(sizeof erf_small / sizeof erf_small[0]));
    /* P = c0 + w (c1 + w R(w)) as Ph + Pl (c0, c1 as hi + lo, |w Q| < |c0|); the last
     * piece's times 1/a as hi + lo */
    int c[ERFC_ROW - 1], r = nr(g, CD), rl = nr(g, CD), v = nr(g, CD), w = nr(g, CD), pt = nr(g, CP);
    pick_row(g, a, erfc_pieces, ERFC_NP, ERFC_ROW, c);
    E(g, "rcp.rn.f64 %s, %s;", rn(g, r), rn(g, a));
    E(g, "neg.f64 %s, %s;", rn(g, rl), rn(g, a));
    E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, rl), rn(g, rl), rn(g, r));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, rl), rn(g, rl), rn(g, r));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, v), rn(g, r), rn(g, r));
    E(g, "setp.ge.f64 %s, %s, 0d%016llX;", rn(g, pt), rn(g, a), D64(erfc_pieces[(ERFC_NP - 1) * ERFC_ROW]));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, w), rn(g, v), rn(g, a), rn(g, pt));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, w), rn(g, w), rn(g, c[0]));   /* a - m exact */
    int R = horner_r(g, w, c + 5, ERFC_ROW - 6), tq = d2(g, "mul.rn.f64", w, R);
    int qh = d2(g, "add.rn.f64", c[3], tq), ql = d2(g, "sub.rn.f64", c[3], qh);
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, ql), rn(g, ql), rn(g, tq));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, ql), rn(g, ql), rn(g, c[4]));
    int th = d2(g, "mul.rn.f64", w, qh), tl = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, tl), rn(g, th));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, tl), rn(g, w), rn(g, qh), rn(g, tl));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, tl), rn(g, w), rn(g, ql), rn(g, tl));
    int ph = d2(g, "add.rn.f64", c[1], th), pl = d2(g, "sub.rn.f64", c[1], ph);
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, pl), rn(g, pl), rn(g, th));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, pl), rn(g, pl), rn(g, tl));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, pl), rn(g, pl), rn(g, c[2]));
    int f = dk(g, 1.0), fl = dk(g, 0), fh = nr(g, CD), fo = nr(g, CD);
    E(g, "@%s mov.f64 %s, %s;", rn(g, pt), rn(g, f), rn(g, r));
    E(g, "@%s mov.f64 %s, %s;", rn(g, pt), rn(g, fl), rn(g, rl));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, fh), rn(g, ph), rn(g, f));
    E(g, "neg.f64 %s, %s;", rn(g, fo), rn(g, fh));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, fo), rn(g, ph), rn(g, f), rn(g, fo));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, fo), rn(g, ph), rn(g, fl), rn(g, fo));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, fo), rn(g, pl), rn(g, f), rn(g, fo));
    /* e^(-a^2) = b1 b2 (1 + r + sh + sl): r exact, sh = r^2 / 2 exact, the rest in sl */
    int na = nr(g, CD), hn = nr(g, CD), ln = nr(g, CD), erl, r3;
    E(g, "neg.f64 %s, %s;", rn(g, na), rn(g, a));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, hn), rn(g, na), rn(g, a));
    E(g, "neg.f64 %s, %s;", rn(g, ln), rn(g, hn));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, ln), rn(g, na), rn(g, a), rn(g, ln));
    int er = exp_reduce(g, hn, ln, &erl, &o->b1, &o->b2);
    double k3[15], fact = 6;
    for (int k = 0; k < 15; k++) { k3[k] = 1.0 / fact; fact *= k + 4; }
    r3 = d2(g, "mul.rn.f64", er, horner_d(g, er, k3, 15));   /* (r^3/6 + r^4/24 + ...) / r^2 */
    int zh = d2(g, "mul.rn.f64", er, er), zl = nr(g, CD), sh = nr(g, CD), sl = nr(g, CD), op = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, zl), rn(g, zh));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, zl), rn(g, er), rn(g, er), rn(g, zl));
    E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, sh), rn(g, zh));
    E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, zl), rn(g, zl));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, sl), rn(g, zh), rn(g, r3), rn(g, zl));
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, op), rn(g, er));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, op), rn(g, op), rn(g, sh));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, sl), rn(g, erl), rn(g, op), rn(g, sl));
    /* (fh + fo)(1 + r + sh + sl): fh + fh r by two-sum (fh r exact by fma), the rest in L,
     * its largest term fh sh last */
    int qh2 = d2(g, "mul.rn.f64", fh, er), ql2 = nr(g, CD), L = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, ql2), rn(g, qh2));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, ql2), rn(g, fh), rn(g, er), rn(g, ql2));
    int S = d2(g, "add.rn.f64", fh, qh2), e1 = d2(g, "sub.rn.f64", S, fh);
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, e1), rn(g, qh2), rn(g, e1));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, L), rn(g, fh), rn(g, sl), rn(g, ql2));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, L), rn(g, fo), rn(g, er), rn(g, L));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, L), rn(g, L), rn(g, fo));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, L), rn(g, L), rn(g, e1));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, L), rn(g, fh), rn(g, sh), rn(g, L));
    o->S = S;
    o->L = L;
    o->e = nr(g, CD);
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, sh), rn(g, sh), rn(g, sl));
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, o->e), rn(g, er));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, o->e), rn(g, o->e), rn(g, sh));
}

/* k - (S + L) b1 b2 (k = 1 or 2, the product below 1/2): k - hi exactly as a sum, then lo */
static int k_minus(G *g, double k, const ErfParts *o) {
    int eh = d2(g, "mul.rn.f64", o->S, o->b1), el = d2(g, "mul.rn.f64", o->L, o->b1), kk = dk(g, k);
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, eh), rn(g, eh), rn(g, o->b2));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, el), rn(g, el), rn(g, o->b2));
    int s = d2(g, "sub.rn.f64", kk, eh), e = d2(g, "sub.rn.f64", kk, s);
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, e), rn(g, e), rn(g, eh));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, e), rn(g, e), rn(g, el));
    return d2(g, "add.rn.f64", s, e);
}

/* erf (erfc false) or erfc of x: |x| < 0.5: x + x p (erfc: 1 - x by two-sum, minus x p); erf
 * above: 1 - erfc|x|, x's sign; erfc: (S + L) b1 b2, below -0.5 2 - that. +-inf through |x|
 * clamped to 27.5; NaN: x. */
int erf_f64_fn(G *g, bool erfc, int x) {
    int ax = nr(g, CD), a = nr(g, CD), ps = nr(g, CP), d = nr(g, CD);
    ErfParts o;
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "min.f64 %s, %s, 0d403B800000000000;", rn(g, a), rn(g, ax));
    erf_parts(g, x, a, &o);
    E(g, "setp.lt.f64 %s, %s, 0d3FE0000000000000;", rn(g, ps), rn(g, ax));
    if (!erfc) {
        int big = k_minus(g, 1.0, &o), small = nr(g, CD);
        E(g, "copysign.f64 %s, %s, %s;", rn(g, big), rn(g, x), rn(g, big));
        E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, small), rn(g, x), rn(g, o.p), rn(g, x));
        E(g, "selp.f64 %s, %s, %s, %s;", rn(g, d), rn(g, small), rn(g, big), rn(g, ps));
    } else {
        int one = dk(g, 1.0), nx = nr(g, CD), sh, sl, q = d2(g, "mul.rn.f64", x, o.p), pn = nr(g, CP);
        E(g, "neg.f64 %s, %s;", rn(g, nx), rn(g, x));
        two_sum(g, one, nx, &sh, &sl);
        E(g, "sub.rn.f64 %s, %s, %s;", rn(g, sl), rn(g, sl), rn(g, q));
        int small = d2(g, "add.rn.f64", sh, sl), neg = k_minus(g, 2.0, &o);
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, d), rn(g, o.S), rn(g, o.L));
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, d), rn(g, d), rn(g, o.b1));
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, d), rn(g, d), rn(g, o.b2));
        E(g, "setp.lt.f64 %s, %s, 0d0000000000000000;", rn(g, pn), rn(g, x));
        E(g, "@%s mov.f64 %s, %s;", rn(g, pn), rn(g, d), rn(g, neg));
        E(g, "@%s mov.f64 %s, %s;", rn(g, ps), rn(g, d), rn(g, small));
    }
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, ps), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, ps), rn(g, d), rn(g, x));
    return d;
}

/* erfinv x: y0 = |x| R(w), w = -ln((1 - |x|)(1 + |x|)) (erfinv_pieces, relative 1e-9), then
 * one Halley step y - f / (f' (1 + y f / f')) on f(y) = erf y - |x| = (y - |x|) + y p below
 * y = 0.5, = (1 - |x|) - erfc y above (both exact but for the last rounding: y - |x| and
 * 1 - |x| exact), f' = 2/sqrt(pi) e^(-y^2); x's sign. +-1: +-inf; |x| > 1: NaN; NaN: x. */
int erfinv_f64_fn(G *g, int x) {
    int ax = nr(g, CD), om = nr(g, CD), t = nr(g, CD), w = nr(g, CD), lo, p = nr(g, CP);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "sub.rn.f64 %s, 0d3FF0000000000000, %s;", rn(g, om), rn(g, ax));
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, t), rn(g, ax));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, t), rn(g, t), rn(g, om));
    int l = log_dd(g, t, &lo), c[ERFINV_ROW - 1], s = nr(g, CD);
    E(g, "neg.f64 %s, %s;", rn(g, w), rn(g, l));
    pick_row(g, w, erfinv_pieces, 2, ERFINV_ROW, c);
    E(g, "sqrt.rn.f64 %s, %s;", rn(g, s), rn(g, w));
    E(g, "setp.ge.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, w), D64(erfinv_pieces[ERFINV_ROW]));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, s), rn(g, s), rn(g, w), rn(g, p));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, s), rn(g, s), rn(g, c[0]));
    int y = d2(g, "mul.rn.f64", ax, horner_r(g, s, c + 1, ERFINV_ROW - 2));
    ErfParts o;
    erf_parts(g, y, y, &o);
    int f = d2(g, "sub.rn.f64", y, ax), fb = d2(g, "mul.rn.f64", o.S, o.b1), fl = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, fl), rn(g, o.L), rn(g, o.b1));
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, f), rn(g, y), rn(g, o.p), rn(g, f));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, fb), rn(g, fb), rn(g, o.b2));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, fl), rn(g, fl), rn(g, o.b2));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, fb), rn(g, om), rn(g, fb));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, fb), rn(g, fb), rn(g, fl));
    E(g, "setp.ge.f64 %s, %s, 0d3FE0000000000000;", rn(g, p), rn(g, y));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, f), rn(g, fb));
    int dv = d2(g, "mul.rn.f64", o.e, o.b1), den = nr(g, CD), d = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, dv), rn(g, dv), rn(g, o.b2));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, dv), rn(g, dv), D64(0x1.20dd750429b6dp+0));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, f), rn(g, f), rn(g, dv));
    E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, den), rn(g, y), rn(g, f));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, f), rn(g, f), rn(g, den));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, d), rn(g, y), rn(g, f));
    /* below 2^-28: sqrt(pi)/2 |x| (hi + lo, |x| scaled by 2^60 so that the lo part counts) */
    int t60 = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, t60), rn(g, ax), D64(0x1p60));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, f), rn(g, t60), D64(-0x1.618f13eb7ca89p-55));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, f), rn(g, t60), D64(0x1.c5bf891b4ef6bp-1), rn(g, f));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, f), rn(g, f), D64(0x1p-60));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ax), D64(0x1p-28));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, f));
    E(g, "copysign.f64 %s, %s, %s;", rn(g, d), rn(g, x), rn(g, d));
    E(g, "setp.eq.f64 %s, %s, 0d3FF0000000000000;", rn(g, p), rn(g, ax));
    E(g, "@%s copysign.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, d), rn(g, x));
    E(g, "setp.gt.f64 %s, %s, 0d3FF0000000000000;", rn(g, p), rn(g, ax));
    E(g, "@%s mov.f64 %s, 0dFFF8000000000000;", rn(g, p), rn(g, d));
    E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, x), rn(g, x));
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, d), rn(g, x));
    return d;
}

/* fp64 tl.exp, exp2, log, log2, sin, cos, tanh, erf */
int unop_f64_math(G *g, int op, int a) {
    switch (op) {
    case OP_EXP: return exp_f64_fn(g, 0, a);
    case OP_EXP2: return exp_f64_fn(g, 2, a);
    case OP_LOG: return log_f64_fn(g, 0, a);
    case OP_LOG2: return log_f64_fn(g, 2, a);
    case OP_TANH: return tanh_f64_fn(g, a);
    case OP_SIN: case OP_COS: return trig_f64_fn(g, op, a);
    case OP_ERF: return erf_f64_fn(g, false, a);
    default: {
        char what[64];
        snprintf(what, sizeof what, "%s on fp64", op_names[op]);
        unsupported(g, what);
    }
    }
}
