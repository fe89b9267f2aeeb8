/* gpuint.h — what the GPU backend's stages share (layout.c, lower.c).
 *
 * Layouts are linear over GF(2), as Triton's LinearLayout, restricted to the blocked /
 * slice family: every tile dimension is a power of two, an element's row-major flat index
 * has log2(numel) bits, and each bit of (register index, lane id, warp id) maps to one
 * flat bit (or, for lanes and warps, to none: those threads hold copies). Register bits
 * always map to a bit, and no two input bits map to the same flat bit, so an element's flat
 * index is thread_flat(tid) + reg_flat(r) with no carries. expand_dims, permute and
 * reshape only relabel bits; broadcast duplicates registers; reductions drop bits. */
#ifndef GPUINT_H
#define GPUINT_H

#include "gpu/gpu.h"

#define LMAXB 28

typedef struct Layout {
    int rank;
    int32_t shape[TC_MAX_RANK];
    int nbits;            /* log2(numel) */
    int nreg;             /* register bits: a thread holds 1 << nreg registers */
    int8_t reg[LMAXB];    /* flat bit of each register bit */
    int8_t lane[5];       /* flat bit of each lane-id bit, or -1 */
    int8_t warp[5];       /* flat bit of each warp-id bit, or -1 */
    int nwarp;            /* log2(num_warps) */
} Layout;

/* Facts about a value's elements along each dim (Triton's AxisInfo): runs of `contig`
 * consecutive integers starting at a multiple of `div` (for pointers: bytes), and runs of
 * `cnst` equal values (aligned). Scalars use div[0]. */
typedef struct AxInfo {
    int64_t div[TC_MAX_RANK];
    int32_t contig[TC_MAX_RANK];
    int32_t cnst[TC_MAX_RANK];
} AxInfo;

int lg2i(int64_t x);                 /* ceil(log2(x)) */
bool shape_pow2(const Type *t);
void lay_lo(int rank, const int32_t *shape, int *lo);   /* first flat bit of each dim */
void lay_scalar(Layout *L, int nwbits);
void lay_default(Layout *L, int rank, const int32_t *shape, int nwbits, int sptbits);
/* Keeps only the dims where nshape[d] == shape[d] (others must be 1 in nshape). regmap[i]:
 * new register bit of L's register bit i, or -1 when dropped. */
void lay_restrict(const Layout *L, const int32_t *nshape, Layout *o, int8_t *regmap);
void lay_slice(const Layout *L, int axis, Layout *o, int8_t *regmap);
void lay_expand(const Layout *L, int axis, Layout *o);
/* Result dim d = operand dim perm[d]. inverse: given the result layout, the operand's. */
void lay_permute(const Layout *L, const int8_t *perm, bool inverse, Layout *o);
void lay_reshape(const Layout *L, int rank, const int32_t *shape, Layout *o);
/* Operand layouts for an FMA dot whose result has layout R: A [..,M,K], B [..,K,N].
 * map[i]: register bit of the operand for R's register bit i (-1 if dropped); the operand's
 * register bits 0..log2(K)-1 run over k. */
void lay_dot_a(const Layout *R, int K, Layout *o, int8_t *map);
void lay_dot_b(const Layout *R, int K, Layout *o, int8_t *map);
bool lay_eq(const Layout *a, const Layout *b);
int64_t lay_reg_flat(const Layout *L, int r);
/* Number of low register bits that map to flat bits 0, 1, ... (contiguous per thread). */
int lay_vec_bits(const Layout *L);

#endif
