/* math.h — what math.c (libdevice's functions, fp32 through fp64) and math64.c (the fp64
 * transcendentals) share. */
#ifndef GPU_MATH_H
#define GPU_MATH_H

#include "gpu/lower.h"

#include <string.h>

static inline uint64_t f64_bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
#define D64(v) (unsigned long long)f64_bits(v)

/* math64.c: the fp64 functions math1, math2 and unop_f64_math dispatch to */
int exp_f64_fn(G *g, int base, int x);
int expm1_f64_fn(G *g, int x);
int log_f64_fn(G *g, int base, int x);
int log1p_f64_fn(G *g, int x);
int pow_f64_fn(G *g, int x, int y);
int sinhcosh_f64_fn(G *g, int x, bool cosh);
int trig_f64_fn(G *g, int fn, int x);
int atan_f64_fn(G *g, int fn, int x, int y);
int sinpi_f64_fn(G *g, int x, bool cos);
int cbrt_f64_fn(G *g, int x, bool rcp);
int hypot_f64_fn(G *g, int x, int y, bool rcp);
int ahyp_f64_fn(G *g, int fn, int x);
int erf_f64_fn(G *g, bool erfc, int x);
int erfinv_f64_fn(G *g, int x);

/* math.c: shared by both files */
/* C's special cases of pow(x, y) on d = |x|^y (fp32 or fp64; y64: y in fp64) */
void pow_specials(G *g, bool f64, int d, int x, int y, int y64);
int dk(G *g, double v);                             /* an fp64 constant in a register */
int d2(G *g, const char *ins, int a, int b);       /* `ins d, a, b` into a new register */
int horner_d(G *g, int z, const double *c, int n); /* c[0] + c[1] z + ... by fma */
int pow2_f64(G *g, int e);                          /* 2^e, e an s32 in [-1022, 1023] */
int cbrt_est(G *g, int m);                          /* cbrt of m > 0 (fp32 range), ~2^-50 */

#endif
