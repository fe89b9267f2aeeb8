#!/usr/bin/env python3
"""erf64-coeffs.py - the coefficient tables of the GPU's fp64 erf, erfc and erfinv in
src/gpu/math64.c, fitted with mpmath (50 digits) and printed as C:
    python3 scripts/erf64-coeffs.py

Each polynomial is a least-squares fit at Chebyshev points (weighted by 1/|f|: relative),
its coefficients rounded to double one at a time from the constant term on (the first ones
as hi + lo pairs where the table says so) and the later ones refitted to what is left.

erf_small: erf x = x + x P(x^2) for |x| < 0.5, P(z) = c0 + c1 z + ... (NS terms).
erfc_pieces: erfcx x = e^(x^2) erfc x on [0.5, 27.5] in pieces, each a polynomial (N terms)
  in w = x - m, m the middle of the piece; the last one x erfcx x in w = 1/x^2 - m. A row:
  the start of the piece, m, c0 and c1 as hi + lo, c2 ... c(N-1).
erfinv_pieces: erfinv x / x as a polynomial (NI terms) in w - 4 for w = -ln((1 - x)(1 + x))
  below 8, in sqrt(w) - m above (to w = 37: x = 1 - 2^-53); a row: its start in w, m, the
  terms. Relative error ~1e-9: one Halley step follows."""
import mpmath as mp

mp.mp.dps = 50
NS, N, NI = 10, 16, 15
STARTS = ['0.5', '1.125', '1.875', '2.75', '3.875']
END = mp.mpf('27.5')


def erfcx(x):
    return mp.exp(x * x) * mp.erfc(x)


def rounded_fit(f, a, b, n, npairs=0):
    """[c0, c1, ...] (hi + lo pairs first) of f on [a, b], rounded as described above; the
    exact values the rounded coefficients stand for"""
    k = 3 * n
    ws = [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (2 * i + 1) / (2 * k)) for i in range(k)]
    fs = [f(w) for w in ws]
    out, fixed = [], []
    for j in range(n):
        A, rhs = mp.matrix(k, n - j), mp.matrix(k, 1)
        for i, w in enumerate(ws):
            rhs[i] = (fs[i] - (mp.polyval(fixed[::-1], w) if fixed else 0)) / abs(fs[i])
            for e in range(n - j):
                A[i, e] = w**(j + e) / abs(fs[i])
        c = mp.qr_solve(A, rhs)[0][0]
        h = float(c)
        out += [h, float(c - h)] if j < npairs else [h]
        fixed.append(mp.mpf(h) + (float(c - h) if j < npairs else 0))
    return out, fixed


def worst(c, f, a, b, k=2000):
    return max(abs(mp.polyval(c[::-1], w) / f(w) - 1) for w in (a + (b - a) * i / k for i in range(k + 1)))


def small():
    f = lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) if z else 2 / mp.sqrt(mp.pi)
    b = mp.mpf('0.25')
    c, fx = rounded_fit(lambda z: f(z) - 1, mp.mpf(0), b, NS)
    return c, worst([1 + fx[0]] + fx[1:], f, 0, b)


def pieces():
    rows, errs = [], []
    starts = [mp.mpf(s) for s in STARTS]
    for i, a in enumerate(starts):
        if i + 1 < len(starts):
            m = (a + starts[i + 1]) / 2
            f = lambda w, m=m: erfcx(m + w)
            lo, hi = a - m, starts[i + 1] - m
        else:
            va, vb = 1 / END**2, 1 / a**2
            m = mp.mpf(float((va + vb) / 2))
            f = lambda w, m=m: erfcx(1 / mp.sqrt(m + w)) / mp.sqrt(m + w)
            lo, hi = va - m, vb - m
        c, fx = rounded_fit(f, lo, hi, N, 2)
        rows.append([float(a), float(m)] + c)
        errs.append(worst(fx, f, lo, hi))
    return rows, errs


def erfinv0():
    def R(w):
        if w == 0:
            return mp.sqrt(mp.pi) / 2
        x = mp.sqrt(-mp.expm1(-w))
        return mp.erfinv(x) / x
    s0, s1 = mp.sqrt(8), mp.sqrt(37)
    sc = mp.mpf(float((s0 + s1) / 2))
    c1, f1 = rounded_fit(lambda t: R(t + 4), mp.mpf(-4), mp.mpf(4), NI)
    c2, f2 = rounded_fit(lambda t: R((t + sc)**2), s0 - sc, s1 - sc, NI)
    e1 = worst(f1, lambda t: R(t + 4), -4, 4, 400)
    e2 = worst(f2, lambda t: R((t + sc)**2), s0 - sc, s1 - sc, 400)
    return [[0.0, 4.0] + c1, [8.0, float(sc)] + c2], [e1, e2]


def table(name, rows, width=4):
    print('static const double %s[%d] = {' % (name, sum(len(r) for r in rows)))
    for r in rows:
        for i in range(0, len(r), width):
            print('    ' + ' '.join('%s,' % v.hex() for v in r[i:i + width]))
    print('};')


if __name__ == '__main__':
    s, es = small()
    p, ep = pieces()
    v, ev = erfinv0()
    print('/* printed by scripts/erf64-coeffs.py; max relative errors: erf_small %.1e,' % es)
    print(' * erfc_pieces %s, erfinv_pieces %s */'
          % (' '.join('%.1e' % e for e in ep), ' '.join('%.1e' % e for e in ev)))
    table('erf_small', [s])
    table('erfc_pieces', p)
    table('erfinv_pieces', v)
