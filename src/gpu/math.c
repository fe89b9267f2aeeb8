/* math.c — libdevice's elementary functions on the GPU (MATH1, MATH2) and fmod/remainder by
 * exact long division; the fp64 transcendentals they and tl.exp (and friends) on fp64 call
 * are in math64.c.
 *
 * The exact ones are single instructions or short exact sequences. fp32 transcendentals are
 * evaluated in fp64 with series far more accurate than fp32 and rounded once. fp64 ones reduce
 * their argument exactly (or with multi-part constants) and evaluate a polynomial with fma.
 * What is not here is refused naming the function (math_unsupported). */
#include "gpu/math.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


/* fmod (rem false) or IEEE remainder (rem true) of a and b, exactly, in their own precision:
 * binary long division. t = |b|*2^k is doubled up to the largest with t <= |a|, then for each
 * k down to 0, r -= t when r >= t, and t halves. Every step is exact (r < 2t, so r - t by
 * Sterbenz; t*2 and t/2 are powers-of-two scalings of |b|). The last step's subtraction is the
 * quotient's parity, which remainder needs for its ties. NaN when either is NaN, b is 0 or a
 * infinite; the result carries a's sign (as a's zero when it is zero). */
int fmod_exact(G *g, bool f64, int a, int b, bool rem) {
    const char *ft = f64 ? "f64" : "f32";
    int cls = f64 ? CD : CR;
    const char *zero = f64 ? "0d0000000000000000" : "0f00000000";
    const char *inf = f64 ? "0d7FF0000000000000" : "0f7F800000";
    const char *one = f64 ? "0d3FF0000000000000" : "0f3F800000";
    const char *two = f64 ? "0d4000000000000000" : "0f40000000";
    const char *half = f64 ? "0d3FE0000000000000" : "0f3F000000";
    int ax = nr(g, cls), ay = nr(g, cls), r = nr(g, cls), t = nr(g, cls), t2 = nr(g, cls),
        sg = nr(g, cls), d = nr(g, cls);
    int pbad = nr(g, CP), p = nr(g, CP), odd = nr(g, CP);
    int ldbl = ++g->labels, ldown = ++g->labels, lend = ++g->labels;
    E(g, "abs.%s %s, %s;", ft, rn(g, ax), rn(g, a));
    E(g, "abs.%s %s, %s;", ft, rn(g, ay), rn(g, b));
    E(g, "copysign.%s %s, %s, %s;", ft, rn(g, sg), rn(g, a), one);
    E(g, "mov.%s %s, %s;", ft, rn(g, r), rn(g, ax));
    E(g, "mov.%s %s, %s;", ft, rn(g, t), rn(g, ay));
    int z = nr(g, CR);
    E(g, "mov.u32 %s, 0;", rn(g, z));
    E(g, "setp.ne.u32 %s, %s, 0;", rn(g, odd), rn(g, z));   /* false: quotient 0 is even */
    /* bad: b == 0 or NaN, a infinite or NaN */
    E(g, "setp.equ.%s %s, %s, %s;", ft, rn(g, pbad), rn(g, ay), zero);
    E(g, "setp.eq.or.%s %s, %s, %s, %s;", ft, rn(g, pbad), rn(g, ax), inf, rn(g, pbad));
    E(g, "setp.nan.or.%s %s, %s, %s, %s;", ft, rn(g, pbad), rn(g, ax), rn(g, ax), rn(g, pbad));
    E(g, "@%s bra $L%d;", rn(g, pbad), lend);
    E(g, "setp.lt.%s %s, %s, %s;", ft, rn(g, p), rn(g, ax), rn(g, ay));
    E(g, "@%s bra $L%d;", rn(g, p), lend);
    E(g, "$L%d:", ldbl);   /* t <= r: double while 2t <= r (2t = inf stops it) */
    E(g, "mul.rn.%s %s, %s, %s;", ft, rn(g, t2), rn(g, t), two);
    E(g, "setp.le.%s %s, %s, %s;", ft, rn(g, p), rn(g, t2), rn(g, r));
    E(g, "@%s mov.%s %s, %s;", rn(g, p), ft, rn(g, t), rn(g, t2));
    E(g, "@%s bra $L%d;", rn(g, p), ldbl);
    E(g, "$L%d:", ldown);  /* r < 2t */
    E(g, "setp.ge.%s %s, %s, %s;", ft, rn(g, odd), rn(g, r), rn(g, t));
    E(g, "@%s sub.rn.%s %s, %s, %s;", rn(g, odd), ft, rn(g, r), rn(g, r), rn(g, t));
    E(g, "setp.gt.%s %s, %s, %s;", ft, rn(g, p), rn(g, t), rn(g, ay));
    E(g, "@%s mul.rn.%s %s, %s, %s;", rn(g, p), ft, rn(g, t), rn(g, t), half);
    E(g, "@%s bra $L%d;", rn(g, p), ldown);
    E(g, "$L%d:", lend);
    if (rem) {
        /* r in [0, |b|): r - |b| when 2r > |b|, or 2r == |b| and the quotient is odd */
        int pt = nr(g, CP);
        E(g, "mul.rn.%s %s, %s, %s;", ft, rn(g, t2), rn(g, r), two);
        E(g, "setp.eq.%s %s, %s, %s;", ft, rn(g, pt), rn(g, t2), rn(g, ay));
        E(g, "and.pred %s, %s, %s;", rn(g, pt), rn(g, pt), rn(g, odd));
        E(g, "setp.gt.or.%s %s, %s, %s, %s;", ft, rn(g, pt), rn(g, t2), rn(g, ay), rn(g, pt));
        E(g, "@%s sub.rn.%s %s, %s, %s;", rn(g, pt), ft, rn(g, r), rn(g, r), rn(g, ay));
    }
    E(g, "mul.rn.%s %s, %s, %s;", ft, rn(g, d), rn(g, r), rn(g, sg));
    E(g, "@%s mov.%s %s, %s;", rn(g, pbad), ft, rn(g, d), f64 ? "0d7FFFFFFFFFFFFFFF" : "0f7FFFFFFF");
    return d;
}

/* ---- libdevice's elementary functions (MATH1, MATH2) ------------------------------------ *
 * On the GPU so far: the exact ones (trunc, rint/nearbyint, round, copysign, fdim, nextafter,
 * logb (so ilogb), saturatef, rcp, fmod and remainder by long division), hypot/rhypot of fp32
 * through fp64, fp32 cbrt/rcbrt/exp10/expm1/log10/log1p/sinh/cosh/asinh/acosh/atanh/asin/
 * acos/atan/atan2/pow/sinpi/cospi/tan/erfc/erfinv, the same on fp64 (math64.c), and the
 * fast_* forms as libdevice has them (the .approx instructions). The others are refused with
 * their name (the interpreter runs them all). */

TC_NORETURN static void math_unsupported(G *g, int fn, int dt) {
    err_fail(g->e, TC_ERR_UNSUPPORTED, g->cur ? g->cur->loc : (SrcLoc){0},
             "the GPU backend does not support libdevice.%s on %s yet (the interpreter runs it)",
             fn >= 0 && fn < MF_COUNT ? math_fn_names[fn] : "?", dt == DT_FP64 ? "fp64" : "fp32");
}

/* C's special cases of pow(x, y) on d, the computed |x|^y, in d's type (fp64 or fp32):
 * negative when x's sign is set and y an odd integer (tested on y64, y in fp64; infinities
 * count as even integers); NaN when x < 0 finite and y not an integer, or an operand is
 * NaN; 1 when y = +-0, x = 1, or x = -1 with |y| = inf. */
void pow_specials(G *g, bool f64, int d, int x, int y, int y64) {
    const char *ft = f64 ? "f64" : "f32";
    const char *zero = f64 ? "0d0000000000000000" : "0f00000000", *inf = f64 ? "0d7FF0000000000000" : "0f7F800000",
               *one = f64 ? "0d3FF0000000000000" : "0f3F800000", *mone = f64 ? "0dBFF0000000000000" : "0fBF800000",
               *nan = f64 ? "0dFFF8000000000000" : "0f7FFFFFFF";
    int cls = f64 ? CD : CR;
    int yi = nr(g, CD), h = nr(g, CD), hi = nr(g, CD), sx = nr(g, cls), ax = nr(g, cls), ay = nr(g, cls);
    int p = nr(g, CP), q = nr(g, CP), pint = nr(g, CP), podd = nr(g, CP);
    E(g, "cvt.rzi.f64.f64 %s, %s;", rn(g, yi), rn(g, y64));
    E(g, "setp.eq.f64 %s, %s, %s;", rn(g, pint), rn(g, yi), rn(g, y64));
    E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, h), rn(g, y64));
    E(g, "cvt.rzi.f64.f64 %s, %s;", rn(g, hi), rn(g, h));
    E(g, "setp.ne.and.f64 %s, %s, %s, %s;", rn(g, podd), rn(g, hi), rn(g, h), rn(g, pint));
    E(g, "mov.b%d %s, %s;", f64 ? 64 : 32, rn(g, sx), rn(g, x));
    E(g, "setp.lt.s%d %s, %s, 0;", f64 ? 64 : 32, rn(g, q), rn(g, sx));
    E(g, "and.pred %s, %s, %s;", rn(g, podd), rn(g, podd), rn(g, q));
    E(g, "@%s neg.%s %s, %s;", rn(g, podd), ft, rn(g, d), rn(g, d));
    E(g, "abs.%s %s, %s;", ft, rn(g, ax), rn(g, x));
    E(g, "abs.%s %s, %s;", ft, rn(g, ay), rn(g, y));
    E(g, "setp.lt.%s %s, %s, %s;", ft, rn(g, p), rn(g, x), zero);
    E(g, "setp.lt.and.%s %s, %s, %s, %s;", ft, rn(g, p), rn(g, ax), inf, rn(g, p));
    E(g, "not.pred %s, %s;", rn(g, q), rn(g, pint));
    E(g, "and.pred %s, %s, %s;", rn(g, p), rn(g, p), rn(g, q));
    E(g, "@%s mov.%s %s, %s;", rn(g, p), ft, rn(g, d), nan);
    E(g, "setp.nan.%s %s, %s, %s;", ft, rn(g, p), rn(g, x), rn(g, y));
    E(g, "@%s add.%s %s, %s, %s;", rn(g, p), ft, rn(g, d), rn(g, x), rn(g, y));
    E(g, "setp.eq.%s %s, %s, %s;", ft, rn(g, p), rn(g, x), mone);
    E(g, "setp.eq.and.%s %s, %s, %s, %s;", ft, rn(g, p), rn(g, ay), inf, rn(g, p));
    E(g, "setp.eq.or.%s %s, %s, %s, %s;", ft, rn(g, p), rn(g, x), one, rn(g, p));
    E(g, "setp.eq.or.%s %s, %s, %s, %s;", ft, rn(g, p), rn(g, y), zero, rn(g, p));
    E(g, "@%s mov.%s %s, %s;", rn(g, p), ft, rn(g, d), one);
}

/* ---- fp32 exp/log families through fp64 ---------------------------------------------- *
 * Evaluated in fp64 with series far more accurate than fp32 (~2^-40), then rounded once:
 * correctly rounded nearly always (libdevice promises 1-2 ulp). */


/* e^y - 1 for |y| <= 0.35: y (1 + y/2 (1 + y/3 (1 + ...))) to the 13th term */
static int em1_poly(G *g, int y) {
    int r = nr(g, CD), c = nr(g, CD);
    E(g, "mov.f64 %s, 0d3FF0000000000000;", rn(g, r));
    for (int k = 13; k >= 2; k--) {
        E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, c), rn(g, y), D64(1.0 / k));
        E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, r), rn(g, c), rn(g, r));
    }
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, r), rn(g, y), rn(g, r));
    return r;
}

/* 2^t for t clamped to [-200, 200] (beyond fp32 either way): 2^n e^((t-n) ln 2) */
static int exp2_f64(G *g, int t) {
    int tc = nr(g, CD), n = nr(g, CD), y = nr(g, CD), ni = nr(g, CD), d = nr(g, CD);
    E(g, "max.f64 %s, %s, 0dC069000000000000;", rn(g, tc), rn(g, t));
    E(g, "min.f64 %s, %s, 0d4069000000000000;", rn(g, tc), rn(g, tc));
    E(g, "cvt.rni.f64.f64 %s, %s;", rn(g, n), rn(g, tc));
    E(g, "sub.rn.f64 %s, %s, %s;", rn(g, y), rn(g, tc), rn(g, n));
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, y), rn(g, y), D64(0x1.62e42fefa39efp-1));
    int p = em1_poly(g, y);
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, p), rn(g, p));
    E(g, "cvt.rni.s64.f64 %s, %s;", rn(g, ni), rn(g, n));
    E(g, "add.s64 %s, %s, 1023;", rn(g, ni), rn(g, ni));
    E(g, "shl.b64 %s, %s, 52;", rn(g, ni), rn(g, ni));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, d), rn(g, p), rn(g, ni));
    return d;
}

/* 2 atanh(s) = 2 s (1 + s^2/3 + s^4/5 + ...) for |s| <= 0.25 */
static int atanh2_series(G *g, int sv) {
    int z = nr(g, CD), r = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, z), rn(g, sv), rn(g, sv));
    E(g, "mov.f64 %s, 0d%016llX;", rn(g, r), D64(1.0 / 21));
    for (int k = 9; k >= 0; k--)
        E(g, "fma.rn.f64 %s, %s, %s, 0d%016llX;", rn(g, r), rn(g, r), rn(g, z), D64(1.0 / (2 * k + 1)));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, r), rn(g, r), rn(g, sv));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, r), rn(g, r), rn(g, r));
    return r;
}

/* ln u for a positive finite normal fp64 u: u = 2^e m, m in [sqrt(1/2), sqrt(2)),
 * e ln 2 + 2 atanh((m-1)/(m+1)) */
static int log_f64(G *g, int u) {
    int b = nr(g, CD), eb = nr(g, CD), e = nr(g, CR), m = nr(g, CD), t = nr(g, CD), sv = nr(g, CD),
        ef = nr(g, CD), p = nr(g, CP);
    E(g, "mov.b64 %s, %s;", rn(g, b), rn(g, u));
    E(g, "shr.u64 %s, %s, 52;", rn(g, eb), rn(g, b));
    E(g, "cvt.u32.u64 %s, %s;", rn(g, e), rn(g, eb));
    E(g, "sub.s32 %s, %s, 1023;", rn(g, e), rn(g, e));
    E(g, "and.b64 %s, %s, 0x000FFFFFFFFFFFFF;", rn(g, b), rn(g, b));
    E(g, "or.b64 %s, %s, 0x3FF0000000000000;", rn(g, b), rn(g, b));
    E(g, "mov.b64 %s, %s;", rn(g, m), rn(g, b));
    E(g, "setp.gt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, m), D64(1.4142135623730951));
    E(g, "@%s mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, p), rn(g, m), rn(g, m));
    E(g, "@%s add.s32 %s, %s, 1;", rn(g, p), rn(g, e), rn(g, e));
    E(g, "sub.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, sv), rn(g, m));
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, t), rn(g, m));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, sv), rn(g, sv), rn(g, t));
    int r = atanh2_series(g, sv);
    E(g, "cvt.rn.f64.s32 %s, %s;", rn(g, ef), rn(g, e));
    E(g, "fma.rn.f64 %s, %s, 0d%016llX, %s;", rn(g, r), rn(g, ef), D64(0x1.62e42fefa39efp-1), rn(g, r));
    return r;
}

/* e^x - 1: |x| < 0.34: the series; else 2^(x log2 e) - 1 (no cancellation) */
static int expm1_f64(G *g, int x) {
    int t = nr(g, CD), ax = nr(g, CD), r = nr(g, CD), p = nr(g, CP);
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, t), rn(g, x), D64(0x1.71547652b82fep+0));
    int big = exp2_f64(g, t);
    E(g, "sub.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, big), rn(g, big));
    int small = em1_poly(g, x);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ax), D64(0.34));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, r), rn(g, small), rn(g, big), rn(g, p));
    return r;
}

/* ln(1 + x) for x > -1 finite: |x| < 0.4: 2 atanh(x / (2 + x)); else ln(1 + x) */
static int log1p_f64(G *g, int x) {
    int t = nr(g, CD), ax = nr(g, CD), u = nr(g, CD), r = nr(g, CD), p = nr(g, CP);
    E(g, "add.rn.f64 %s, %s, 0d4000000000000000;", rn(g, t), rn(g, x));
    E(g, "div.rn.f64 %s, %s, %s;", rn(g, t), rn(g, x), rn(g, t));
    int small = atanh2_series(g, t);
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, u), rn(g, x));
    E(g, "abs.f64 %s, %s;", rn(g, u), rn(g, u));   /* no trap for u <= 0 (the caller fixes it) */
    int big = log_f64(g, u);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.lt.f64 %s, %s, 0d%016llX;", rn(g, p), rn(g, ax), D64(0.4));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, r), rn(g, small), rn(g, big), rn(g, p));
    return r;
}

/* atan x: |x| > 1 through pi/2 - atan(1/|x|); two halvings t / (1 + sqrt(1 + t^2)) to
 * |t| <= tan(pi/16), the alternating series, times 4; x's sign */
static int atan_f64(G *g, int x) {
    int ax = nr(g, CD), t = nr(g, CD), q = nr(g, CD), z = nr(g, CD), r = nr(g, CD), p = nr(g, CP);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.gt.f64 %s, %s, 0d3FF0000000000000;", rn(g, p), rn(g, ax));
    E(g, "rcp.rn.f64 %s, %s;", rn(g, t), rn(g, ax));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, t), rn(g, t), rn(g, ax), rn(g, p));
    for (int i = 0; i < 2; i++) {
        E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, q), rn(g, t), rn(g, t));
        E(g, "sqrt.rn.f64 %s, %s;", rn(g, q), rn(g, q));
        E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, q), rn(g, q));
        E(g, "div.rn.f64 %s, %s, %s;", rn(g, t), rn(g, t), rn(g, q));
    }
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, z), rn(g, t), rn(g, t));
    E(g, "mov.f64 %s, 0d%016llX;", rn(g, r), D64(1.0 / 21));
    for (int k = 9; k >= 0; k--)
        E(g, "fma.rn.f64 %s, %s, %s, 0d%016llX;", rn(g, r), rn(g, r), rn(g, z), D64((k % 2 ? -1.0 : 1.0) / (2 * k + 1)));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, r), rn(g, r), rn(g, t));
    E(g, "mul.rn.f64 %s, %s, 0d4010000000000000;", rn(g, r), rn(g, r));
    E(g, "@%s sub.rn.f64 %s, 0d%016llX, %s;", rn(g, p), rn(g, r), D64(0x1.921fb54442d18p+0), rn(g, r));
    E(g, "copysign.f64 %s, %s, %s;", rn(g, r), rn(g, x), rn(g, r));
    return r;
}

/* ---- small emitters for the fp64 algorithms ---- */

int dk(G *g, double v) {
    int d = nr(g, CD);
    E(g, "mov.f64 %s, 0d%016llX;", rn(g, d), D64(v));
    return d;
}

/* ins (e.g. "mul.rn.f64") of a and b into a new register */
int d2(G *g, const char *ins, int a, int b) {
    int d = nr(g, CD);
    E(g, "%s %s, %s, %s;", ins, rn(g, d), rn(g, a), rn(g, b));
    return d;
}

/* 2^e for e an s32 register in [-1022, 1023] (a normal power of two) */
int pow2_f64(G *g, int e) {
    int b = nr(g, CD), d = nr(g, CD), t = nr(g, CR);
    E(g, "add.s32 %s, %s, 1023;", rn(g, t), rn(g, e));
    E(g, "cvt.u64.u32 %s, %s;", rn(g, b), rn(g, t));
    E(g, "shl.b64 %s, %s, 52;", rn(g, b), rn(g, b));
    E(g, "mov.b64 %s, %s;", rn(g, d), rn(g, b));
    return d;
}

/* c[0] + c[1] z + ... + c[n-1] z^(n-1) by Horner with fma */
int horner_d(G *g, int z, const double *c, int n) {
    int r = dk(g, c[n - 1]);
    for (int i = n - 2; i >= 0; i--) {
        int d = nr(g, CD);
        E(g, "fma.rn.f64 %s, %s, %s, 0d%016llX;", rn(g, d), rn(g, r), rn(g, z), D64(c[i]));
        r = d;
    }
    return r;
}

/* ---- erf, erfc, erfinv (fp32 through fp64) --------------------------------------------- */

#define ERF_SER_N 38   /* terms of the series below: relative 1e-12 for |x| < 2.5 */
#define ERFC_CF_K 40   /* levels of the continued fraction: relative 1e-14 for x >= 2.5 */

/* erf x for 0 <= x <= 2.5: 2/sqrt(pi) x e^(-x^2) sum_n (2x^2)^n / (1 3 5 ... (2n+1)), a
 * series of positive terms (no cancellation) */
static int erf_ser_f64(G *g, int x) {
    double c[ERF_SER_N];
    c[0] = 1;
    for (int n = 1; n < ERF_SER_N; n++) c[n] = c[n - 1] * 2 / (2 * n + 1);
    int z = d2(g, "mul.rn.f64", x, x);
    int s = horner_d(g, z, c, ERF_SER_N);
    int t = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, t), rn(g, z), D64(-0x1.71547652b82fep+0));
    int e = exp2_f64(g, t);
    int r = d2(g, "mul.rn.f64", s, e);
    r = d2(g, "mul.rn.f64", r, x);
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, r), rn(g, r), D64(1.1283791670955126));
    return r;
}

/* erfc x for x >= 2.5 (or +inf): e^(-x^2) / (sqrt(pi) (x + (1/2) / (x + 1 / (x + (3/2) /
 * (x + ...))))), Laplace's continued fraction evaluated from its ERFC_CF_K-th level up */
static int erfc_cf_f64(G *g, int x) {
    int f = nr(g, CD), q = nr(g, CD);
    E(g, "mov.f64 %s, %s;", rn(g, f), rn(g, x));
    for (int k = ERFC_CF_K; k >= 1; k--) {
        E(g, "div.rn.f64 %s, 0d%016llX, %s;", rn(g, q), D64(k * 0.5), rn(g, f));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, f), rn(g, x), rn(g, q));
    }
    int z = d2(g, "mul.rn.f64", x, x), t = nr(g, CD);
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, t), rn(g, z), D64(-0x1.71547652b82fep+0));
    int e = exp2_f64(g, t);
    E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, f), rn(g, f), D64(1.7724538509055160));
    return d2(g, "div.rn.f64", e, f);
}

/* erfc x for x >= 0: 1 - the series below 2.5, the continued fraction above */
static int erfc_pos_f64(G *g, int x) {
    int s = erf_ser_f64(g, x), c = erfc_cf_f64(g, x), r = nr(g, CD), p = nr(g, CP);
    E(g, "sub.rn.f64 %s, 0d3FF0000000000000, %s;", rn(g, s), rn(g, s));
    E(g, "setp.lt.f64 %s, %s, 0d4004000000000000;", rn(g, p), rn(g, x));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, r), rn(g, s), rn(g, c), rn(g, p));
    return r;
}

/* erfinv x for |x| < 1 (fp32 values), positive: y for |x|, x's sign. A first guess from
 * Giles' single-precision rational form (w = -ln(1 - x^2)), then two Newton steps on
 * f(y) = erf(y) - |x|, computed as erf(y) - |x| below y = 0.5 and as (1 - |x|) - erfc(y)
 * above (1 - |x| is exact), f'(y) = 2/sqrt(pi) e^(-y^2). */
static int erfinv_f64(G *g, int x) {
    static const double p1[] = {1.50140941, 0.246640727, -0.00417768164, -0.00125372503,
                                0.00021858087, -4.39150654e-06, -3.5233877e-06, 3.43273939e-07,
                                2.81022636e-08};
    static const double p2[] = {2.83297682, 1.00167406, 0.00943887047, -0.0076224613,
                                0.00573950773, -0.00367342844, 0.00134934322, 0.000100950558,
                                -0.000200214257};
    int ax = nr(g, CD), om = nr(g, CD), w = nr(g, CD), p = nr(g, CP), pb = nr(g, CP);
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "sub.rn.f64 %s, 0d3FF0000000000000, %s;", rn(g, om), rn(g, ax));
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, w), rn(g, ax));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, w), rn(g, w), rn(g, om));
    E(g, "max.f64 %s, %s, 0d0010000000000000;", rn(g, w), rn(g, w));   /* normal for log_f64 */
    int l = log_f64(g, w);
    E(g, "neg.f64 %s, %s;", rn(g, w), rn(g, l));
    int w1 = nr(g, CD), w2 = nr(g, CD);
    E(g, "sub.rn.f64 %s, %s, 0d4004000000000000;", rn(g, w1), rn(g, w));
    E(g, "sqrt.rn.f64 %s, %s;", rn(g, w2), rn(g, w));
    E(g, "sub.rn.f64 %s, %s, 0d4008000000000000;", rn(g, w2), rn(g, w2));
    int q1 = horner_d(g, w1, p1, 9), q2 = horner_d(g, w2, p2, 9), y = nr(g, CD);
    E(g, "setp.lt.f64 %s, %s, 0d4014000000000000;", rn(g, pb), rn(g, w));
    E(g, "selp.f64 %s, %s, %s, %s;", rn(g, y), rn(g, q1), rn(g, q2), rn(g, pb));
    E(g, "mul.rn.f64 %s, %s, %s;", rn(g, y), rn(g, y), rn(g, ax));
    for (int it = 0; it < 2; it++) {
        int es = erf_ser_f64(g, y), ec = erfc_pos_f64(g, y), f = nr(g, CD), f2 = nr(g, CD);
        E(g, "sub.rn.f64 %s, %s, %s;", rn(g, f), rn(g, es), rn(g, ax));
        E(g, "sub.rn.f64 %s, %s, %s;", rn(g, f2), rn(g, om), rn(g, ec));
        E(g, "setp.lt.f64 %s, %s, 0d3FE0000000000000;", rn(g, p), rn(g, y));
        E(g, "selp.f64 %s, %s, %s, %s;", rn(g, f), rn(g, f), rn(g, f2), rn(g, p));
        int z = d2(g, "mul.rn.f64", y, y), t = nr(g, CD);
        E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, t), rn(g, z), D64(-0x1.71547652b82fep+0));
        int e = exp2_f64(g, t);
        E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, e), rn(g, e), D64(1.1283791670955126));
        E(g, "div.rn.f64 %s, %s, %s;", rn(g, f), rn(g, f), rn(g, e));
        int yn = d2(g, "sub.rn.f64", y, f);
        y = yn;
    }
    E(g, "copysign.f64 %s, %s, %s;", rn(g, y), rn(g, x), rn(g, y));
    return y;
}

/* cbrt m for m > 0 within fp32's exponent range (or 0, inf, subnormal: garbage): y0 =
 * ex2(lg2(m) / 3) (the .approx instructions, ~2^-21 relative), two Newton steps
 * y -= (y^3 - m) / (3 y^2) in fp64 (~2^-50) */
int cbrt_est(G *g, int m) {
    int mf = nr(g, CR), y = nr(g, CD), y2 = nr(g, CD), t = nr(g, CD), dd = nr(g, CD);
    E(g, "cvt.rn.f32.f64 %s, %s;", rn(g, mf), rn(g, m));
    E(g, "lg2.approx.f32 %s, %s;", rn(g, mf), rn(g, mf));
    E(g, "mul.rn.f32 %s, %s, 0f3EAAAAAB;", rn(g, mf), rn(g, mf));
    E(g, "ex2.approx.f32 %s, %s;", rn(g, mf), rn(g, mf));
    E(g, "cvt.f64.f32 %s, %s;", rn(g, y), rn(g, mf));
    for (int it = 0; it < 2; it++) {
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, y2), rn(g, y), rn(g, y));
        E(g, "neg.f64 %s, %s;", rn(g, t), rn(g, m));
        E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, t), rn(g, y2), rn(g, y), rn(g, t));
        E(g, "mul.rn.f64 %s, %s, 0d4008000000000000;", rn(g, dd), rn(g, y2));
        E(g, "div.rn.f64 %s, %s, %s;", rn(g, t), rn(g, t), rn(g, dd));
        E(g, "sub.rn.f64 %s, %s, %s;", rn(g, y), rn(g, y), rn(g, t));
    }
    return y;
}

/* fp32 exp10, expm1, log10, log1p, asinh, acosh, atanh, sinh, cosh, atan, asin, acos; NaN
 * in, NaN out */
static int explog_f32(G *g, int fn, int a) {
    int x = nr(g, CD), r = nr(g, CD), d = nr(g, CR), p = nr(g, CP);
    E(g, "cvt.f64.f32 %s, %s;", rn(g, x), rn(g, a));
    switch (fn) {
    case MF_EXP10: {
        E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, r), rn(g, x), D64(0x1.a934f0979a371p+1));
        r = exp2_f64(g, r);
        break;
    }
    case MF_EXPM1: r = expm1_f64(g, x); break;
    case MF_LOG10: {
        int l = log_f64(g, x);
        E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, r), rn(g, l), D64(0x1.bcb7b1526e50ep-2));
        break;
    }
    case MF_LOG1P: r = log1p_f64(g, x); break;
    case MF_ASINH: {   /* log1p(|x| + x^2 / (1 + sqrt(x^2 + 1))), x's sign */
        int ax = nr(g, CD), x2 = nr(g, CD), q = nr(g, CD);
        E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, x2), rn(g, ax), rn(g, ax));
        E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, q), rn(g, x2));
        E(g, "sqrt.rn.f64 %s, %s;", rn(g, q), rn(g, q));
        E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, q), rn(g, q));
        E(g, "div.rn.f64 %s, %s, %s;", rn(g, q), rn(g, x2), rn(g, q));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, q), rn(g, q), rn(g, ax));
        r = log1p_f64(g, q);
        E(g, "copysign.f64 %s, %s, %s;", rn(g, r), rn(g, x), rn(g, r));
        break;
    }
    case MF_ACOSH: {   /* x >= 1: log1p((x - 1) + sqrt((x - 1)(x + 1))) */
        int t = nr(g, CD), q = nr(g, CD);
        E(g, "sub.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, t), rn(g, x));
        E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, q), rn(g, x));
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, q), rn(g, q), rn(g, t));
        E(g, "sqrt.rn.f64 %s, %s;", rn(g, q), rn(g, q));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, q), rn(g, q), rn(g, t));
        r = log1p_f64(g, q);
        break;
    }
    case MF_ATANH: {   /* |x| < 1: log1p(2|x| / (1 - |x|)) / 2, x's sign */
        int ax = nr(g, CD), q = nr(g, CD);
        E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
        E(g, "sub.rn.f64 %s, 0d3FF0000000000000, %s;", rn(g, q), rn(g, ax));
        E(g, "div.rn.f64 %s, %s, %s;", rn(g, q), rn(g, ax), rn(g, q));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, q), rn(g, q), rn(g, q));
        r = log1p_f64(g, q);
        E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, r), rn(g, r));
        E(g, "copysign.f64 %s, %s, %s;", rn(g, r), rn(g, x), rn(g, r));
        break;
    }
    case MF_ATAN: r = atan_f64(g, x); break;
    case MF_SINPI: case MF_COSPI: {
        /* x mod 2 (exact), n = rint(2r), f = r - n/2 in [-1/4, 1/4] (exact); sin/cos(pi f) by
         * their series; the quadrant n mod 4 picks and signs one */
        int h = nr(g, CD), rr = nr(g, CD), n = nr(g, CD), f = nr(g, CD), y = nr(g, CD), y2 = nr(g, CD),
            sn = nr(g, CD), cs = nr(g, CD), c = nr(g, CD), ni = nr(g, CR), qd = nr(g, CR), pq = nr(g, CP);
        E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, h), rn(g, x));
        E(g, "cvt.rzi.f64.f64 %s, %s;", rn(g, h), rn(g, h));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, h), rn(g, h), rn(g, h));
        E(g, "sub.rn.f64 %s, %s, %s;", rn(g, rr), rn(g, x), rn(g, h));
        E(g, "add.rn.f64 %s, %s, %s;", rn(g, n), rn(g, rr), rn(g, rr));
        E(g, "cvt.rni.f64.f64 %s, %s;", rn(g, n), rn(g, n));
        E(g, "fma.rn.f64 %s, %s, 0dBFE0000000000000, %s;", rn(g, f), rn(g, n), rn(g, rr));
        E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, y), rn(g, f), D64(0x1.921fb54442d18p+1));
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, y2), rn(g, y), rn(g, y));
        E(g, "mov.f64 %s, 0d3FF0000000000000;", rn(g, sn));
        E(g, "mov.f64 %s, 0d3FF0000000000000;", rn(g, cs));
        for (int k = 10; k >= 1; k--) {
            E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, c), rn(g, y2), D64(-1.0 / ((2.0 * k) * (2 * k + 1))));
            E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, sn), rn(g, c), rn(g, sn));
            E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, c), rn(g, y2), D64(-1.0 / ((2.0 * k - 1) * (2 * k))));
            E(g, "fma.rn.f64 %s, %s, %s, 0d3FF0000000000000;", rn(g, cs), rn(g, c), rn(g, cs));
        }
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, sn), rn(g, sn), rn(g, y));
        E(g, "cvt.rni.s32.f64 %s, %s;", rn(g, ni), rn(g, n));
        if (fn == MF_COSPI) E(g, "add.s32 %s, %s, 1;", rn(g, ni), rn(g, ni));   /* cos = sin(. + 1/2) */
        E(g, "and.b32 %s, %s, 3;", rn(g, qd), rn(g, ni));
        E(g, "and.b32 %s, %s, 1;", rn(g, ni), rn(g, qd));
        E(g, "setp.ne.u32 %s, %s, 0;", rn(g, pq), rn(g, ni));
        E(g, "selp.f64 %s, %s, %s, %s;", rn(g, r), rn(g, cs), rn(g, sn), rn(g, pq));
        E(g, "setp.ge.u32 %s, %s, 2;", rn(g, pq), rn(g, qd));
        E(g, "@%s neg.f64 %s, %s;", rn(g, pq), rn(g, r), rn(g, r));
        break;
    }
    case MF_ASIN: case MF_ACOS: {
        /* asin: atan(x / sqrt((1 - x)(1 + x))); acos: 2 atan(sqrt((1 - x) / (1 + x))) */
        int u = nr(g, CD), v = nr(g, CD);
        E(g, "sub.rn.f64 %s, 0d3FF0000000000000, %s;", rn(g, u), rn(g, x));
        E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, v), rn(g, x));
        if (fn == MF_ASIN) {
            E(g, "mul.rn.f64 %s, %s, %s;", rn(g, u), rn(g, u), rn(g, v));
            E(g, "sqrt.rn.f64 %s, %s;", rn(g, u), rn(g, u));
            E(g, "div.rn.f64 %s, %s, %s;", rn(g, u), rn(g, x), rn(g, u));
            r = atan_f64(g, u);
        } else {
            E(g, "div.rn.f64 %s, %s, %s;", rn(g, u), rn(g, u), rn(g, v));
            E(g, "sqrt.rn.f64 %s, %s;", rn(g, u), rn(g, u));
            r = atan_f64(g, u);
            E(g, "add.rn.f64 %s, %s, %s;", rn(g, r), rn(g, r), rn(g, r));
        }
        break;
    }
    case MF_SINH: case MF_COSH: {
        /* sinh: (e + e / (e + 1)) / 2 with e = expm1|x|, x's sign; cosh: (E + 1/E) / 2 */
        int ax = nr(g, CD), q = nr(g, CD);
        E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
        if (fn == MF_SINH) {
            int e = expm1_f64(g, ax);
            E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, q), rn(g, e));
            E(g, "div.rn.f64 %s, %s, %s;", rn(g, q), rn(g, e), rn(g, q));
            E(g, "add.rn.f64 %s, %s, %s;", rn(g, q), rn(g, q), rn(g, e));
            E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, r), rn(g, q));
            E(g, "copysign.f64 %s, %s, %s;", rn(g, r), rn(g, x), rn(g, r));
        } else {
            E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, q), rn(g, ax), D64(0x1.71547652b82fep+0));
            int e = exp2_f64(g, q);
            E(g, "rcp.rn.f64 %s, %s;", rn(g, q), rn(g, e));
            E(g, "add.rn.f64 %s, %s, %s;", rn(g, q), rn(g, q), rn(g, e));
            E(g, "mul.rn.f64 %s, %s, 0d3FE0000000000000;", rn(g, r), rn(g, q));
        }
        break;
    }
    case MF_ERFC: {   /* x < 0: 2 - erfc|x| */
        int ax = nr(g, CD), pn = nr(g, CP);
        E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
        r = erfc_pos_f64(g, ax);
        E(g, "setp.lt.f64 %s, %s, 0d0000000000000000;", rn(g, pn), rn(g, x));
        E(g, "@%s sub.rn.f64 %s, 0d4000000000000000, %s;", rn(g, pn), rn(g, r), rn(g, r));
        break;
    }
    case MF_ERFINV: r = erfinv_f64(g, x); break;
    default: math_unsupported(g, fn, DT_FP32);
    }
    E(g, "cvt.rn.f32.f64 %s, %s;", rn(g, d), rn(g, r));
    if (fn == MF_ASINH || fn == MF_ACOSH || fn == MF_ATANH) {
        int aa = nr(g, CR);
        E(g, "abs.f32 %s, %s;", rn(g, aa), rn(g, a));
        if (fn == MF_ATANH) {   /* +-1 -> +-inf, beyond NaN */
            E(g, "setp.eq.f32 %s, %s, 0f3F800000;", rn(g, p), rn(g, aa));
            E(g, "@%s copysign.f32 %s, %s, 0f7F800000;", rn(g, p), rn(g, d), rn(g, a));
            E(g, "setp.gt.f32 %s, %s, 0f3F800000;", rn(g, p), rn(g, aa));
            E(g, "@%s mov.f32 %s, 0f7FFFFFFF;", rn(g, p), rn(g, d));
        } else {   /* +-inf: itself; acosh below 1: NaN */
            E(g, "setp.eq.f32 %s, %s, 0f7F800000;", rn(g, p), rn(g, aa));
            E(g, "@%s mov.f32 %s, %s;", rn(g, p), rn(g, d), rn(g, a));
            if (fn == MF_ACOSH) {
                E(g, "setp.lt.f32 %s, %s, 0f3F800000;", rn(g, p), rn(g, a));
                E(g, "@%s mov.f32 %s, 0f7FFFFFFF;", rn(g, p), rn(g, d));
            }
        }
    }
    if (fn == MF_SINPI || fn == MF_COSPI) {   /* zeros: sinpi x's sign, cospi +0 */
        E(g, "setp.eq.f32 %s, %s, 0f00000000;", rn(g, p), rn(g, d));
        if (fn == MF_SINPI) E(g, "@%s copysign.f32 %s, %s, 0f00000000;", rn(g, p), rn(g, d), rn(g, a));
        else E(g, "@%s mov.f32 %s, 0f00000000;", rn(g, p), rn(g, d));
    }
    if (fn == MF_ERFINV) {   /* +-1: +-inf; |x| > 1: NaN */
        int aa = nr(g, CR);
        E(g, "abs.f32 %s, %s;", rn(g, aa), rn(g, a));
        E(g, "setp.eq.f32 %s, %s, 0f3F800000;", rn(g, p), rn(g, aa));
        E(g, "@%s copysign.f32 %s, %s, 0f7F800000;", rn(g, p), rn(g, d), rn(g, a));
        E(g, "setp.gt.f32 %s, %s, 0f3F800000;", rn(g, p), rn(g, aa));
        E(g, "@%s mov.f32 %s, 0f7FFFFFFF;", rn(g, p), rn(g, d));
    }
    if (fn == MF_ASIN || fn == MF_ACOS) {   /* |x| > 1: NaN */
        int aa = nr(g, CR);
        E(g, "abs.f32 %s, %s;", rn(g, aa), rn(g, a));
        E(g, "setp.gt.f32 %s, %s, 0f3F800000;", rn(g, p), rn(g, aa));
        E(g, "@%s mov.f32 %s, 0f7FFFFFFF;", rn(g, p), rn(g, d));
    }
    if (fn == MF_LOG10 || fn == MF_LOG1P) {
        /* the pole (0; -1 for log1p) -> -inf, below it NaN, +inf -> +inf */
        const char *pole = fn == MF_LOG10 ? "0f00000000" : "0fBF800000";
        E(g, "setp.eq.f32 %s, %s, %s;", rn(g, p), rn(g, a), pole);
        E(g, "@%s mov.f32 %s, 0fFF800000;", rn(g, p), rn(g, d));
        E(g, "setp.lt.f32 %s, %s, %s;", rn(g, p), rn(g, a), pole);
        E(g, "@%s mov.f32 %s, 0f7FFFFFFF;", rn(g, p), rn(g, d));
        E(g, "setp.eq.f32 %s, %s, 0f7F800000;", rn(g, p), rn(g, a));
        E(g, "@%s mov.f32 %s, 0f7F800000;", rn(g, p), rn(g, d));
    }
    E(g, "setp.nan.f32 %s, %s, %s;", rn(g, p), rn(g, a), rn(g, a));
    E(g, "@%s mov.f32 %s, %s;", rn(g, p), rn(g, d), rn(g, a));
    return d;
}

int math1(G *g, int fn, int dt, int a) {
    bool f64 = dt == DT_FP64;
    const char *ft = f64 ? "f64" : "f32";
    int cls = f64 ? CD : CR;
    int d = nr(g, cls);
    if (f64 && fn >= MF_FAST_EXP && fn <= MF_FAST_TAN) math_unsupported(g, fn, dt);
    if (f64) {
        switch (fn) {
        case MF_EXP10: return exp_f64_fn(g, 10, a);
        case MF_EXPM1: return expm1_f64_fn(g, a);
        case MF_LOG10: return log_f64_fn(g, 10, a);
        case MF_LOG1P: return log1p_f64_fn(g, a);
        case MF_TAN: return trig_f64_fn(g, -1, a);
        case MF_ATAN: case MF_ASIN: case MF_ACOS: return atan_f64_fn(g, fn, a, 0);
        case MF_SINPI: return sinpi_f64_fn(g, a, false);
        case MF_COSPI: return sinpi_f64_fn(g, a, true);
        case MF_CBRT: return cbrt_f64_fn(g, a, false);
        case MF_ASINH: case MF_ACOSH: case MF_ATANH: return ahyp_f64_fn(g, fn, a);
        case MF_RCBRT: return cbrt_f64_fn(g, a, true);
        case MF_SINH: return sinhcosh_f64_fn(g, a, false);
        case MF_COSH: return sinhcosh_f64_fn(g, a, true);
        case MF_ERFC: return erf_f64_fn(g, true, a);
        case MF_ERFINV: return erfinv_f64_fn(g, a);
        default: break;
        }
    }
    switch (fn) {
    case MF_TRUNC: E(g, "cvt.rzi.%s.%s %s, %s;", ft, ft, rn(g, d), rn(g, a)); break;
    case MF_RINT: E(g, "cvt.rni.%s.%s %s, %s;", ft, ft, rn(g, d), rn(g, a)); break;
    case MF_ROUND: {
        /* half away from zero: t = trunc(x); t + copysign(1, x) when |x - t| >= 0.5 (exact) */
        int t = nr(g, cls), r = nr(g, cls), o = nr(g, cls), p = nr(g, CP);
        E(g, "cvt.rzi.%s.%s %s, %s;", ft, ft, rn(g, t), rn(g, a));
        E(g, "sub.rn.%s %s, %s, %s;", ft, rn(g, r), rn(g, a), rn(g, t));
        E(g, "abs.%s %s, %s;", ft, rn(g, r), rn(g, r));
        E(g, "setp.ge.%s %s, %s, %s;", ft, rn(g, p), rn(g, r), f64 ? "0d3FE0000000000000" : "0f3F000000");
        E(g, "copysign.%s %s, %s, %s;", ft, rn(g, o), rn(g, a), f64 ? "0d3FF0000000000000" : "0f3F800000");
        E(g, "add.rn.%s %s, %s, %s;", ft, rn(g, o), rn(g, t), rn(g, o));
        E(g, "selp.%s %s, %s, %s, %s;", ft, rn(g, d), rn(g, o), rn(g, t), rn(g, p));
        break;
    }
    case MF_LOGB: {
        /* the exponent: normal e - bias; subnormal from the leading zeros; 0 -> -inf;
         * inf, NaN -> |x| */
        const char *bt = f64 ? "b64" : "b32";
        int ax = nr(g, cls), bits = nr(g, cls), e = nr(g, CR), lz = nr(g, CR), p = nr(g, CP);
        E(g, "abs.%s %s, %s;", ft, rn(g, ax), rn(g, a));
        E(g, "mov.%s %s, %s;", bt, rn(g, bits), rn(g, ax));
        if (f64) {
            int e64 = nr(g, CD);
            E(g, "shr.u64 %s, %s, 52;", rn(g, e64), rn(g, bits));
            E(g, "cvt.u32.u64 %s, %s;", rn(g, e), rn(g, e64));
        } else {
            E(g, "shr.u32 %s, %s, 23;", rn(g, e), rn(g, bits));
        }
        E(g, "sub.s32 %s, %s, %d;", rn(g, e), rn(g, e), f64 ? 1023 : 127);
        E(g, "clz.%s %s, %s;", bt, rn(g, lz), rn(g, bits));
        E(g, "sub.s32 %s, %d, %s;", rn(g, lz), f64 ? -1011 : -118, rn(g, lz));
        E(g, "setp.eq.s32 %s, %s, %d;", rn(g, p), rn(g, e), f64 ? -1023 : -127);
        E(g, "@%s mov.b32 %s, %s;", rn(g, p), rn(g, e), rn(g, lz));
        E(g, "cvt.rn.%s.s32 %s, %s;", ft, rn(g, d), rn(g, e));
        E(g, "setp.eq.%s %s, %s, 0%c%s;", ft, rn(g, p), rn(g, ax), f64 ? 'd' : 'f',
          f64 ? "0000000000000000" : "00000000");
        E(g, "@%s mov.%s %s, 0%c%s;", rn(g, p), bt, rn(g, d), f64 ? 'd' : 'f', f64 ? "FFF0000000000000" : "FF800000");
        E(g, "setp.gtu.%s %s, %s, %s;", ft, rn(g, p), rn(g, ax), f64 ? "0d7FEFFFFFFFFFFFFF" : "0f7F7FFFFF");
        E(g, "@%s mov.%s %s, %s;", rn(g, p), bt, rn(g, d), rn(g, ax));
        break;
    }
    case MF_EXP10: case MF_EXPM1: case MF_LOG10: case MF_LOG1P: case MF_ASINH: case MF_ACOSH:
    case MF_ATANH: case MF_SINH: case MF_COSH: case MF_ATAN: case MF_ASIN: case MF_ACOS:
    case MF_SINPI: case MF_COSPI: case MF_ERFC: case MF_ERFINV:
        if (f64) math_unsupported(g, fn, dt);
        return explog_f32(g, fn, a);
    case MF_TAN: {   /* fp32: the fp64 tan, rounded once */
        int x = nr(g, CD);
        E(g, "cvt.f64.f32 %s, %s;", rn(g, x), rn(g, a));
        int r = trig_f64_fn(g, -1, x);
        E(g, "cvt.rn.f32.f64 %s, %s;", rn(g, d), rn(g, r));
        break;
    }
    case MF_CBRT: case MF_RCBRT: {
        /* fp32: y0 = ex2(lg2|x| / 3) (the .approx instructions, ~2^-21 relative), two Newton
         * steps y -= (y^3 - |x|) / (3 y^2) in fp64 (~2^-42), x's sign, one rounding to fp32
         * (rcbrt: the reciprocal in fp64 first). 0, inf and NaN: x itself (rcbrt: 1/x). */
        if (f64) math_unsupported(g, fn, dt);
        int ax = nr(g, CR), a6 = nr(g, CD), p = nr(g, CP);
        E(g, "abs.f32 %s, %s;", rn(g, ax), rn(g, a));
        E(g, "cvt.f64.f32 %s, %s;", rn(g, a6), rn(g, ax));
        int y = cbrt_est(g, a6);
        if (fn == MF_RCBRT) E(g, "rcp.rn.f64 %s, %s;", rn(g, y), rn(g, y));
        E(g, "cvt.rn.f32.f64 %s, %s;", rn(g, d), rn(g, y));
        E(g, "copysign.f32 %s, %s, %s;", rn(g, d), rn(g, a), rn(g, d));
        E(g, "setp.equ.f32 %s, %s, 0f00000000;", rn(g, p), rn(g, ax));
        E(g, "setp.eq.or.f32 %s, %s, 0f7F800000, %s;", rn(g, p), rn(g, ax), rn(g, p));
        if (fn == MF_RCBRT) E(g, "@%s rcp.rn.f32 %s, %s;", rn(g, p), rn(g, d), rn(g, a));
        else E(g, "@%s mov.f32 %s, %s;", rn(g, p), rn(g, d), rn(g, a));
        break;
    }
    case MF_SATURATE: E(g, "cvt.sat.f32.f32 %s, %s;", rn(g, d), rn(g, a)); break;
    case MF_RCP: E(g, "rcp.rn.%s %s, %s;", ft, rn(g, d), rn(g, a)); break;
    case MF_FAST_EXP: case MF_FAST_EXP10: {
        int t = nr(g, CR);
        E(g, "mul.f32 %s, %s, %s;", rn(g, t), rn(g, a), fn == MF_FAST_EXP ? "0f3FB8AA3B" : "0f40549A78");
        E(g, "ex2.approx.ftz.f32 %s, %s;", rn(g, d), rn(g, t));
        break;
    }
    case MF_FAST_LOG2: E(g, "lg2.approx.ftz.f32 %s, %s;", rn(g, d), rn(g, a)); break;
    case MF_FAST_LOG: case MF_FAST_LOG10: {
        int t = nr(g, CR);
        E(g, "lg2.approx.ftz.f32 %s, %s;", rn(g, t), rn(g, a));
        E(g, "mul.f32 %s, %s, %s;", rn(g, d), rn(g, t), fn == MF_FAST_LOG ? "0f3F317218" : "0f3E9A209B");
        break;
    }
    case MF_FAST_SIN: E(g, "sin.approx.ftz.f32 %s, %s;", rn(g, d), rn(g, a)); break;
    case MF_FAST_COS: E(g, "cos.approx.ftz.f32 %s, %s;", rn(g, d), rn(g, a)); break;
    case MF_FAST_TAN: {
        int s = nr(g, CR), c = nr(g, CR);
        E(g, "sin.approx.ftz.f32 %s, %s;", rn(g, s), rn(g, a));
        E(g, "cos.approx.ftz.f32 %s, %s;", rn(g, c), rn(g, a));
        E(g, "div.approx.ftz.f32 %s, %s, %s;", rn(g, d), rn(g, s), rn(g, c));
        break;
    }
    default: math_unsupported(g, fn, dt);
    }
    return d;
}

/* ldexp(x, n) (n given as a float of an int32): fp32 in fp64 (x 2^n exact there for n
 * clamped to [-400, 400]), one rounding; fp64: x (a subnormal scaled up by 2^54 first) times
 * 2^n1 in three steps that keep it normal, n1 = max(n, -1022 - its exponent), then times
 * 2^(n - n1) (a subnormal power of two at the least), the only step that can round */
static int ldexp_fn(G *g, bool f64, int x, int y) {
    int n = nr(g, CR), d;
    E(g, "cvt.rzi.s32.%s %s, %s;", f64 ? "f64" : "f32", rn(g, n), rn(g, y));
    if (!f64) {
        int x6 = nr(g, CD), r = nr(g, CD);
        d = nr(g, CR);
        E(g, "max.s32 %s, %s, -400;", rn(g, n), rn(g, n));
        E(g, "min.s32 %s, %s, 400;", rn(g, n), rn(g, n));
        E(g, "cvt.f64.f32 %s, %s;", rn(g, x6), rn(g, x));
        int p2 = pow2_f64(g, n);
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, r), rn(g, x6), rn(g, p2));
        E(g, "cvt.rn.f32.f64 %s, %s;", rn(g, d), rn(g, r));
        return d;
    }
    int xs = nr(g, CD), ax = nr(g, CD), b = nr(g, CD), ex = nr(g, CR), n1 = nr(g, CR), c = nr(g, CR),
        n2 = nr(g, CR), p = nr(g, CP);
    E(g, "max.s32 %s, %s, -2200;", rn(g, n), rn(g, n));
    E(g, "min.s32 %s, %s, 2200;", rn(g, n), rn(g, n));
    E(g, "mov.f64 %s, %s;", rn(g, xs), rn(g, x));
    E(g, "abs.f64 %s, %s;", rn(g, ax), rn(g, x));
    E(g, "setp.lt.f64 %s, %s, 0d0010000000000000;", rn(g, p), rn(g, ax));
    E(g, "@%s mul.rn.f64 %s, %s, 0d4350000000000000;", rn(g, p), rn(g, xs), rn(g, xs));
    E(g, "@%s sub.s32 %s, %s, 54;", rn(g, p), rn(g, n), rn(g, n));
    E(g, "mov.b64 %s, %s;", rn(g, b), rn(g, xs));
    E(g, "shr.u64 %s, %s, 52;", rn(g, b), rn(g, b));
    E(g, "cvt.u32.u64 %s, %s;", rn(g, ex), rn(g, b));
    E(g, "and.b32 %s, %s, 2047;", rn(g, ex), rn(g, ex));
    E(g, "sub.s32 %s, 1, %s;", rn(g, ex), rn(g, ex));      /* -1022 - (eb - 1023) */
    E(g, "max.s32 %s, %s, %s;", rn(g, n1), rn(g, n), rn(g, ex));
    E(g, "sub.s32 %s, %s, %s;", rn(g, n2), rn(g, n), rn(g, n1));
    d = xs;
    for (int i = 0; i < 3; i++) {
        E(g, "max.s32 %s, %s, -1022;", rn(g, c), rn(g, n1));
        E(g, "min.s32 %s, %s, 1023;", rn(g, c), rn(g, c));
        E(g, "sub.s32 %s, %s, %s;", rn(g, n1), rn(g, n1), rn(g, c));
        d = d2(g, "mul.rn.f64", d, pow2_f64(g, c));
    }
    /* 2^n2, n2 in [-1074, 0]: a subnormal's bits below -1022 */
    int f = nr(g, CD), sb = nr(g, CD), t = nr(g, CR);
    E(g, "max.s32 %s, %s, -1074;", rn(g, n2), rn(g, n2));
    E(g, "add.s32 %s, %s, 1074;", rn(g, t), rn(g, n2));
    E(g, "mov.b64 %s, 1;", rn(g, sb));
    E(g, "shl.b64 %s, %s, %s;", rn(g, sb), rn(g, sb), rn(g, t));
    E(g, "mov.b64 %s, %s;", rn(g, f), rn(g, sb));
    E(g, "setp.ge.s32 %s, %s, -1022;", rn(g, p), rn(g, n2));
    int pn = pow2_f64(g, n2);
    E(g, "@%s mov.f64 %s, %s;", rn(g, p), rn(g, f), rn(g, pn));
    return d2(g, "mul.rn.f64", d, f);
}

int math2(G *g, int fn, int dt, int a, int b) {
    bool f64 = dt == DT_FP64;
    const char *ft = f64 ? "f64" : "f32";
    int cls = f64 ? CD : CR;
    int d = nr(g, cls);
    if (f64 && fn == MF_POW) return pow_f64_fn(g, a, b);
    if (fn == MF_LDEXP) return ldexp_fn(g, f64, a, b);
    if (f64 && fn == MF_ATAN2) return atan_f64_fn(g, fn, a, b);
    if (f64 && (fn == MF_HYPOT || fn == MF_RHYPOT)) return hypot_f64_fn(g, a, b, fn == MF_RHYPOT);
    switch (fn) {
    case MF_COPYSIGN: E(g, "copysign.%s %s, %s, %s;", ft, rn(g, d), rn(g, b), rn(g, a)); break;   /* |a|, b's sign */
    case MF_FDIM: {   /* a > b ? a - b : +0; NaN when either is */
        int p = nr(g, CP);
        E(g, "sub.rn.%s %s, %s, %s;", ft, rn(g, d), rn(g, a), rn(g, b));
        E(g, "setp.le.%s %s, %s, %s;", ft, rn(g, p), rn(g, a), rn(g, b));
        E(g, "@%s mov.b%d %s, 0;", rn(g, p), f64 ? 64 : 32, rn(g, d));
        break;
    }
    case MF_NEXTAFTER: {
        /* NaN: a + b; a == b: b; a == 0: the smallest subnormal with b's sign; else the bit
         * pattern of a steps by one toward b */
        const char *bt = f64 ? "b64" : "b32", *st = f64 ? "s64" : "s32";
        int pn = nr(g, CP), pe = nr(g, CP), pz = nr(g, CP), pu = nr(g, CP), one = nr(g, cls),
            z = nr(g, cls);
        E(g, "mov.%s %s, %s;", bt, rn(g, d), rn(g, a));
        E(g, "setp.lt.%s %s, %s, %s;", ft, rn(g, pu), rn(g, a), rn(g, b));   /* toward +inf */
        E(g, "setp.ge.xor.%s %s, %s, 0%c%s, %s;", ft, rn(g, pu), rn(g, a), f64 ? 'd' : 'f',
          f64 ? "0000000000000000" : "00000000", rn(g, pu));   /* away from zero iff a>=0 == up */
        E(g, "selp.%s %s, -1, 1, %s;", st, rn(g, one), rn(g, pu));   /* pu: toward zero */
        E(g, "add.%s %s, %s, %s;", st, rn(g, d), rn(g, d), rn(g, one));
        E(g, "mov.%s %s, 1;", bt, rn(g, z));
        E(g, "copysign.%s %s, %s, %s;", ft, rn(g, z), rn(g, b), rn(g, z));
        E(g, "setp.eq.%s %s, %s, 0%c%s;", ft, rn(g, pz), rn(g, a), f64 ? 'd' : 'f',
          f64 ? "0000000000000000" : "00000000");
        E(g, "@%s mov.%s %s, %s;", rn(g, pz), bt, rn(g, d), rn(g, z));
        E(g, "setp.eq.%s %s, %s, %s;", ft, rn(g, pe), rn(g, a), rn(g, b));
        E(g, "@%s mov.%s %s, %s;", rn(g, pe), bt, rn(g, d), rn(g, b));
        E(g, "setp.nan.%s %s, %s, %s;", ft, rn(g, pn), rn(g, a), rn(g, b));
        E(g, "@%s add.%s %s, %s, %s;", rn(g, pn), ft, rn(g, d), rn(g, a), rn(g, b));
        break;
    }
    case MF_FAST_POW: {
        if (f64) math_unsupported(g, fn, dt);
        int t = nr(g, CR);
        E(g, "lg2.approx.ftz.f32 %s, %s;", rn(g, t), rn(g, a));
        E(g, "mul.f32 %s, %s, %s;", rn(g, t), rn(g, t), rn(g, b));
        E(g, "ex2.approx.ftz.f32 %s, %s;", rn(g, d), rn(g, t));
        break;
    }
    case MF_REMAINDER: return fmod_exact(g, f64, a, b, true);
    case MF_POW: {
        /* fp32 pow in fp64: |a|^b = 2^(b ln|a| log2 e) (ln 0 = -inf, ln inf = inf), negative
         * when a's sign is set and b an odd integer; then C's special cases: a < 0 finite
         * with b finite and not an integer, or a NaN operand: NaN; b = +-0, a = 1, or a = -1
         * with b = +-inf: 1 */
        if (f64) math_unsupported(g, fn, dt);
        int a6 = nr(g, CD), b6 = nr(g, CD), l = nr(g, CD), t = nr(g, CD), p = nr(g, CP);
        E(g, "cvt.f64.f32 %s, %s;", rn(g, a6), rn(g, a));
        E(g, "cvt.f64.f32 %s, %s;", rn(g, b6), rn(g, b));
        E(g, "abs.f64 %s, %s;", rn(g, a6), rn(g, a6));
        int ln = log_f64(g, a6);
        E(g, "mov.f64 %s, %s;", rn(g, l), rn(g, ln));
        E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, p), rn(g, a6));
        E(g, "@%s mov.f64 %s, 0dFFF0000000000000;", rn(g, p), rn(g, l));
        E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, a6));
        E(g, "@%s mov.f64 %s, 0d7FF0000000000000;", rn(g, p), rn(g, l));
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, t), rn(g, b6), rn(g, l));
        E(g, "mul.rn.f64 %s, %s, 0d%016llX;", rn(g, t), rn(g, t), D64(0x1.71547652b82fep+0));
        int mag = exp2_f64(g, t);
        E(g, "cvt.rn.f32.f64 %s, %s;", rn(g, d), rn(g, mag));
        pow_specials(g, false, d, a, b, b6);
        break;
    }
    case MF_ATAN2: {
        /* fp32 atan2(a, b) (a over b) in fp64: r = atan(|a| / |b|) (0 when both are zero, 1
         * when both infinite); pi - r when b's sign is negative; a's sign; NaN if either is */
        if (f64) math_unsupported(g, fn, dt);
        int a6 = nr(g, CD), b6 = nr(g, CD), q = nr(g, CD), sb = nr(g, CR), p = nr(g, CP), pz = nr(g, CP);
        E(g, "cvt.f64.f32 %s, %s;", rn(g, a6), rn(g, a));
        E(g, "cvt.f64.f32 %s, %s;", rn(g, b6), rn(g, b));
        E(g, "abs.f64 %s, %s;", rn(g, a6), rn(g, a6));
        E(g, "abs.f64 %s, %s;", rn(g, b6), rn(g, b6));
        E(g, "div.rn.f64 %s, %s, %s;", rn(g, q), rn(g, a6), rn(g, b6));
        E(g, "setp.eq.f64 %s, %s, %s;", rn(g, p), rn(g, a6), rn(g, b6));
        E(g, "setp.eq.f64 %s, %s, 0d0000000000000000;", rn(g, pz), rn(g, a6));
        E(g, "@%s mov.f64 %s, 0d3FF0000000000000;", rn(g, p), rn(g, q));   /* inf, inf */
        E(g, "and.pred %s, %s, %s;", rn(g, pz), rn(g, pz), rn(g, p));
        E(g, "@%s mov.f64 %s, 0d0000000000000000;", rn(g, pz), rn(g, q));  /* 0, 0 */
        int r = atan_f64(g, q);
        E(g, "mov.b32 %s, %s;", rn(g, sb), rn(g, b));
        E(g, "setp.lt.s32 %s, %s, 0;", rn(g, p), rn(g, sb));
        E(g, "@%s sub.rn.f64 %s, 0d%016llX, %s;", rn(g, p), rn(g, r), D64(0x1.921fb54442d18p+1), rn(g, r));
        E(g, "cvt.rn.f32.f64 %s, %s;", rn(g, d), rn(g, r));
        E(g, "copysign.f32 %s, %s, %s;", rn(g, d), rn(g, a), rn(g, d));
        E(g, "setp.nan.f32 %s, %s, %s;", rn(g, p), rn(g, a), rn(g, b));
        E(g, "@%s add.f32 %s, %s, %s;", rn(g, p), rn(g, d), rn(g, a), rn(g, b));
        break;
    }
    case MF_HYPOT: case MF_RHYPOT: {
        /* fp32 through fp64: hypot's sum of squares is exact there, so one more rounding */
        if (f64) math_unsupported(g, fn, dt);
        int a6 = nr(g, CD), b6 = nr(g, CD), q = nr(g, CD);
        E(g, "cvt.f64.f32 %s, %s;", rn(g, a6), rn(g, a));
        E(g, "cvt.f64.f32 %s, %s;", rn(g, b6), rn(g, b));
        {
            int p = nr(g, CP);
            E(g, "mul.rn.f64 %s, %s, %s;", rn(g, q), rn(g, a6), rn(g, a6));
            E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, q), rn(g, b6), rn(g, b6), rn(g, q));
            E(g, "sqrt.rn.f64 %s, %s;", rn(g, q), rn(g, q));
            /* an infinite operand gives inf even when the other is NaN */
            E(g, "abs.f64 %s, %s;", rn(g, a6), rn(g, a6));
            E(g, "abs.f64 %s, %s;", rn(g, b6), rn(g, b6));
            E(g, "max.f64 %s, %s, %s;", rn(g, a6), rn(g, a6), rn(g, b6));
            E(g, "setp.eq.f64 %s, %s, 0d7FF0000000000000;", rn(g, p), rn(g, a6));
            E(g, "@%s mov.f64 %s, 0d7FF0000000000000;", rn(g, p), rn(g, q));
            if (fn == MF_RHYPOT) E(g, "rcp.rn.f64 %s, %s;", rn(g, q), rn(g, q));
        }
        E(g, "cvt.rn.f32.f64 %s, %s;", rn(g, d), rn(g, q));
        break;
    }
    default: math_unsupported(g, fn, dt);
    }
    return d;
}
