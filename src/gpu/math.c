/* math.c — libdevice's elementary functions on the GPU (MATH1, MATH2), fmod/remainder by
 * exact long division, and the fp64 transcendental unary ops (tl.exp and friends on fp64).
 *
 * The exact ones are single instructions or short exact sequences. fp32 transcendentals are
 * evaluated in fp64 with series far more accurate than fp32 and rounded once. fp64 ones reduce
 * their argument exactly (or with multi-part constants) and evaluate a polynomial with fma.
 * What is not here is refused naming the function (math_unsupported). */
#include "gpu/lower.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static uint64_t f64_bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* the fp64 functions (below math1 and math2, which dispatch to them) */
static int exp_f64_fn(G *g, int base, int x);
static int expm1_f64_fn(G *g, int x);
static int log_f64_fn(G *g, int base, int x);
static int log1p_f64_fn(G *g, int x);
static int pow_f64_fn(G *g, int x, int y);
static int sinhcosh_f64_fn(G *g, int x, bool cosh);
static int trig_f64_fn(G *g, int fn, int x);
static int atan_f64_fn(G *g, int fn, int x, int y);
static int sinpi_f64_fn(G *g, int x, bool cos);
static int cbrt_f64_fn(G *g, int x, bool rcp);
static int hypot_f64_fn(G *g, int x, int y, bool rcp);
static int ahyp_f64_fn(G *g, int fn, int x);

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
 * acos/atan/atan2/pow/sinpi/cospi, and
 * the fast_* forms as
 * libdevice has them (the .approx instructions). The others are refused with their name (the
 * interpreter runs them all). */

TC_NORETURN static void math_unsupported(G *g, int fn, int dt) {
    err_fail(g->e, TC_ERR_UNSUPPORTED, g->cur ? g->cur->loc : (SrcLoc){0},
             "the GPU backend does not support libdevice.%s on %s yet (the interpreter runs it)",
             fn >= 0 && fn < MF_COUNT ? math_fn_names[fn] : "?", dt == DT_FP64 ? "fp64" : "fp32");
}

/* The functions lowered here that a GPU has not yet checked (scripts/gpu-math-check.sh;
 * tests/ptxsim.h runs their PTX on the CPU): used only under TRITONC_GPU_UNVERIFIED, else
 * refused as before, saying so. */
static void math_gate(G *g, const char *what, int dt) {
    if (g->unverified) return;
    err_fail(g->e, TC_ERR_UNSUPPORTED, g->cur ? g->cur->loc : (SrcLoc){0},
             "the GPU backend's %s on %s has not yet been checked on a GPU: TRITONC_GPU_UNVERIFIED=1 "
             "uses it (the interpreter runs it)", what, dt == DT_FP64 ? "fp64" : "fp32");
}

static void math_gate_fn(G *g, int fn, int dt) {
    char what[64];
    snprintf(what, sizeof what, "libdevice.%s", fn >= 0 && fn < MF_COUNT ? math_fn_names[fn] : "?");
    math_gate(g, what, dt);
}

/* C's special cases of pow(x, y) on d, the computed |x|^y, in d's type (fp64 or fp32):
 * negative when x's sign is set and y an odd integer (tested on y64, y in fp64; infinities
 * count as even integers); NaN when x < 0 finite and y not an integer, or an operand is
 * NaN; 1 when y = +-0, x = 1, or x = -1 with |y| = inf. */
static void pow_specials(G *g, bool f64, int d, int x, int y, int y64) {
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

#define D64(v) (unsigned long long)f64_bits(v)

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

static int dk(G *g, double v) {
    int d = nr(g, CD);
    E(g, "mov.f64 %s, 0d%016llX;", rn(g, d), D64(v));
    return d;
}

/* ins (e.g. "mul.rn.f64") of a and b into a new register */
static int d2(G *g, const char *ins, int a, int b) {
    int d = nr(g, CD);
    E(g, "%s %s, %s, %s;", ins, rn(g, d), rn(g, a), rn(g, b));
    return d;
}

/* c[0] + c[1] z + ... + c[n-1] z^(n-1) by Horner with fma */
static int horner_d(G *g, int z, const double *c, int n) {
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
static int cbrt_est(G *g, int m) {
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
        case MF_EXP10: case MF_EXPM1: case MF_LOG10: case MF_LOG1P: case MF_TAN: case MF_ATAN:
        case MF_ASIN: case MF_ACOS: case MF_SINPI: case MF_COSPI: case MF_CBRT: case MF_ASINH:
        case MF_ACOSH: case MF_ATANH: case MF_RCBRT: case MF_SINH: case MF_COSH:
            math_gate_fn(g, fn, dt);
            break;
        default: break;
        }
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
        if (fn == MF_ERFC || fn == MF_ERFINV) math_gate_fn(g, fn, dt);
        return explog_f32(g, fn, a);
    case MF_TAN: {   /* fp32: the fp64 tan, rounded once */
        math_gate_fn(g, fn, dt);
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
static int pow2_f64(G *g, int e) {   /* 2^e, e an s32 in [-1022, 1023] */
    int b = nr(g, CD), d = nr(g, CD), t = nr(g, CR);
    E(g, "add.s32 %s, %s, 1023;", rn(g, t), rn(g, e));
    E(g, "cvt.u64.u32 %s, %s;", rn(g, b), rn(g, t));
    E(g, "shl.b64 %s, %s, 52;", rn(g, b), rn(g, b));
    E(g, "mov.b64 %s, %s;", rn(g, d), rn(g, b));
    return d;
}

static int ldexp_fn(G *g, bool f64, int x, int y) {
    int n = nr(g, CR), d;
    E(g, "cvt.rzi.s32.%s %s, %s;", f64 ? "f64" : "f32", rn(g, n), rn(g, y));
    if (!f64) {
        int x6 = nr(g, CD), r = nr(g, CD);
        d = nr(g, CR);
        E(g, "max.s32 %s, %s, -400;", rn(g, n), rn(g, n));
        E(g, "min.s32 %s, %s, 400;", rn(g, n), rn(g, n));
        E(g, "cvt.f64.f32 %s, %s;", rn(g, x6), rn(g, x));
        E(g, "mul.rn.f64 %s, %s, %s;", rn(g, r), rn(g, x6), rn(g, pow2_f64(g, n)));
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
    if ((f64 && (fn == MF_POW || fn == MF_ATAN2 || fn == MF_HYPOT || fn == MF_RHYPOT)) || fn == MF_LDEXP)
        math_gate_fn(g, fn, dt);
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

/* e^(h + l) for h finite, clamped to [-746, 710] (|l| <= ulp(h)): 2^n e^r, n = rint(h log2 e),
 * r = h - n ln 2 + l as hi + lo (n * LN2_HI exact, ln 2's low part and l added after),
 * e^r - 1 by its Taylor series (|r| <= 0.35: 1e-19), 1 + that with one rounding, 2^n as two
 * normal factors (so subnormal results round once more). No special cases. */
static int em1_taylor(G *g, int r);
static int exp_dd(G *g, int h, int l) {
    int xc = nr(g, CD), t = nr(g, CD), nn = nr(g, CD), rh = nr(g, CD), rl = nr(g, CD), d = nr(g, CD);
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
    int q = em1_taylor(g, r), acc = nr(g, CD);   /* e^(r + rl) - 1 = q + rl (q + 1) */
    E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, u), rn(g, rl), rn(g, q), rn(g, rl));
    E(g, "add.rn.f64 %s, %s, %s;", rn(g, u), rn(g, u), rn(g, q));
    E(g, "add.rn.f64 %s, %s, 0d3FF0000000000000;", rn(g, acc), rn(g, u));
    int ni = nr(g, CR), n1 = nr(g, CR), n2 = nr(g, CR), b1 = nr(g, CD), b2 = nr(g, CD);
    E(g, "cvt.rni.s32.f64 %s, %s;", rn(g, ni), rn(g, nn));
    E(g, "shr.s32 %s, %s, 1;", rn(g, n1), rn(g, ni));
    E(g, "sub.s32 %s, %s, %s;", rn(g, n2), rn(g, ni), rn(g, n1));
    E(g, "add.s32 %s, %s, 1023;", rn(g, n1), rn(g, n1));
    E(g, "add.s32 %s, %s, 1023;", rn(g, n2), rn(g, n2));
    E(g, "cvt.u64.u32 %s, %s;", rn(g, b1), rn(g, n1));
    E(g, "cvt.u64.u32 %s, %s;", rn(g, b2), rn(g, n2));
    E(g, "shl.b64 %s, %s, 52;", rn(g, b1), rn(g, b1));
    E(g, "shl.b64 %s, %s, 52;", rn(g, b2), rn(g, b2));
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
static int log_f64_fn(G *g, int base, int x) {
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
static int exp_f64_fn(G *g, int base, int x) {
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
static int expm1_f64_fn(G *g, int x) {
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
static int log1p_f64_fn(G *g, int x) {
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
static int pow_f64_fn(G *g, int x, int y) {
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
static int sinhcosh_f64_fn(G *g, int x, bool cosh) {
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
static int trig_f64_fn(G *g, int fn, int x) {
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
static int atan_f64_fn(G *g, int fn, int x, int y) {
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
static int sinpi_f64_fn(G *g, int x, bool cos) {
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
static int cbrt_f64_fn(G *g, int x, bool rcp) {
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
static int hypot_f64_fn(G *g, int x, int y, bool rcp) {
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
static int ahyp_f64_fn(G *g, int fn, int x) {
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

/* fp64 tl.exp, exp2, log, log2, sin, cos, tanh, erf */
int unop_f64_math(G *g, int op, int a) {
    if (op == OP_EXP2 || op == OP_LOG || op == OP_LOG2 || op == OP_TANH || op == OP_SIN || op == OP_COS)
        math_gate(g, op_names[op], DT_FP64);   /* exp: a rewrite of a checked one */
    switch (op) {
    case OP_EXP: return exp_f64_fn(g, 0, a);
    case OP_EXP2: return exp_f64_fn(g, 2, a);
    case OP_LOG: return log_f64_fn(g, 0, a);
    case OP_LOG2: return log_f64_fn(g, 2, a);
    case OP_TANH: return tanh_f64_fn(g, a);
    case OP_SIN: case OP_COS: return trig_f64_fn(g, op, a);
    default: {
        char what[64];
        snprintf(what, sizeof what, "%s on fp64", op_names[op]);
        unsupported(g, what);
    }
    }
}
