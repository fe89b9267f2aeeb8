/* layout.c — distributed layouts of tiles over the threads of a CTA (see gpuint.h).
 * Pure functions over Layout; no IR, no PTX. */
#include "gpu/gpuint.h"

#include <string.h>

int lg2i(int64_t x) {
    int k = 0;
    while (((int64_t)1 << k) < x) k++;
    return k;
}

bool shape_pow2(const Type *t) {
    for (int d = 0; d < t->rank; d++)
        if (t->shape[d] <= 0 || (t->shape[d] & (t->shape[d] - 1))) return false;
    return lg2i(type_numel(*t)) < LMAXB;
}

void lay_lo(int rank, const int32_t *shape, int *lo) {
    int p = 0;
    for (int d = rank - 1; d >= 0; d--) {
        lo[d] = p;
        p += lg2i(shape[d]);
    }
}

static void lay_init(Layout *L, int rank, const int32_t *shape, int nwbits) {
    memset(L, 0, sizeof *L);
    L->rank = rank;
    for (int d = 0; d < rank; d++) {
        L->shape[d] = shape[d];
        L->nbits += lg2i(shape[d]);
    }
    for (int j = 0; j < 5; j++) L->lane[j] = L->warp[j] = -1;
    L->nwarp = nwbits;
}

void lay_scalar(Layout *L, int nwbits) { lay_init(L, 0, NULL, nwbits); }

void lay_default(Layout *L, int rank, const int32_t *shape, int nwbits, int sptbits) {
    lay_init(L, rank, shape, nwbits);
    int inner = 0;   /* bits of the innermost dim of size > 1 */
    for (int d = rank - 1; d >= 0; d--)
        if (shape[d] > 1) { inner = lg2i(shape[d]); break; }
    int sb = sptbits < inner ? sptbits : inner;
    int p = 0;
    for (int i = 0; i < sb; i++) L->reg[L->nreg++] = (int8_t)p++;
    for (int j = 0; j < 5; j++) L->lane[j] = (int8_t)(p < L->nbits ? p++ : -1);
    for (int k = 0; k < nwbits; k++) L->warp[k] = (int8_t)(p < L->nbits ? p++ : -1);
    while (p < L->nbits) L->reg[L->nreg++] = (int8_t)p++;
}

/* maps flat bit p of (rank, shape) to the flat bit of (rank, nshape) or -1 */
static int map_restrict(int rank, const int *lo, const int32_t *shape, const int *nlo,
                        const int32_t *nshape, int p) {
    if (p < 0) return -1;
    for (int d = 0; d < rank; d++) {
        int b = lg2i(shape[d]);
        if (p >= lo[d] && p < lo[d] + b) return nshape[d] == 1 ? -1 : nlo[d] + (p - lo[d]);
    }
    return -1;
}

void lay_restrict(const Layout *L, const int32_t *nshape, Layout *o, int8_t *regmap) {
    int lo[TC_MAX_RANK], nlo[TC_MAX_RANK];
    lay_lo(L->rank, L->shape, lo);
    lay_lo(L->rank, nshape, nlo);
    Layout r;
    lay_init(&r, L->rank, nshape, L->nwarp);
    for (int i = 0; i < L->nreg; i++) {
        int q = map_restrict(L->rank, lo, L->shape, nlo, nshape, L->reg[i]);
        if (q >= 0) {
            if (regmap) regmap[i] = (int8_t)r.nreg;
            r.reg[r.nreg++] = (int8_t)q;
        } else if (regmap) {
            regmap[i] = -1;
        }
    }
    for (int j = 0; j < 5; j++) {
        r.lane[j] = (int8_t)map_restrict(L->rank, lo, L->shape, nlo, nshape, L->lane[j]);
        r.warp[j] = (int8_t)map_restrict(L->rank, lo, L->shape, nlo, nshape, L->warp[j]);
    }
    *o = r;
}

void lay_slice(const Layout *L, int axis, Layout *o, int8_t *regmap) {
    int32_t ns[TC_MAX_RANK];
    memcpy(ns, L->shape, sizeof ns);
    ns[axis] = 1;
    Layout r;
    lay_restrict(L, ns, &r, regmap);
    for (int d = axis; d + 1 < r.rank; d++) r.shape[d] = r.shape[d + 1];
    r.rank--;
    r.shape[r.rank] = 0;
    *o = r;
}

void lay_expand(const Layout *L, int axis, Layout *o) {
    Layout r = *L;
    for (int d = r.rank; d > axis; d--) r.shape[d] = r.shape[d - 1];
    r.shape[axis] = 1;
    r.rank++;
    *o = r;
}

/* flat bit p of (rank, shape) -> flat bit of the layout whose dim newdim[d] takes dim d
 * (newdim[d] < 0: dropped), or -1 */
static int map_dims(int rank, const int32_t *shape, const int *lo, const int *newdim,
                    const int *nlo, int p) {
    if (p < 0) return -1;
    for (int d = 0; d < rank; d++)
        if (p >= lo[d] && p < lo[d] + lg2i(shape[d]))
            return newdim[d] < 0 ? -1 : nlo[newdim[d]] + p - lo[d];
    return -1;
}

void lay_permute(const Layout *L, const int8_t *perm, bool inverse, Layout *o) {
    /* forward: L is the operand's layout (shape S), the result has shape S[perm[d]].
     * inverse: L is the result's layout, the operand has shape with S[perm[d]] = L.shape[d]. */
    int rank = L->rank;
    int32_t ns[TC_MAX_RANK] = {0};
    int srcdim_of[TC_MAX_RANK];   /* for each dim of L, the dim of the new layout */
    for (int d = 0; d < rank; d++) {
        if (!inverse) { ns[d] = L->shape[perm[d]]; srcdim_of[perm[d]] = d; }
        else { ns[perm[d]] = L->shape[d]; srcdim_of[d] = perm[d]; }
    }
    int lo[TC_MAX_RANK], nlo[TC_MAX_RANK];
    lay_lo(rank, L->shape, lo);
    lay_lo(rank, ns, nlo);
    Layout r;
    lay_init(&r, rank, ns, L->nwarp);
#define MAPP(p) map_dims(rank, L->shape, lo, srcdim_of, nlo, (p))
    r.nreg = L->nreg;
    for (int i = 0; i < L->nreg; i++) r.reg[i] = (int8_t)MAPP(L->reg[i]);
    for (int j = 0; j < 5; j++) {
        r.lane[j] = (int8_t)MAPP(L->lane[j]);
        r.warp[j] = (int8_t)MAPP(L->warp[j]);
    }
#undef MAPP
    *o = r;
}

void lay_reshape(const Layout *L, int rank, const int32_t *shape, Layout *o) {
    Layout r = *L;
    r.rank = rank;
    memset(r.shape, 0, sizeof r.shape);
    for (int d = 0; d < rank; d++) r.shape[d] = shape[d];
    *o = r;
}

/* Operand layout of a dot. which = 0: A [..,M,K] (drops R's N dim), 1: B [..,K,N]. */
static void lay_dot_op(const Layout *R, int K, int which, Layout *o, int8_t *map) {
    int rank = R->rank;
    int32_t ns[TC_MAX_RANK];
    memcpy(ns, R->shape, sizeof ns);
    if (which == 0) ns[rank - 1] = K;
    else ns[rank - 2] = K;
    int lo[TC_MAX_RANK], nlo[TC_MAX_RANK];
    lay_lo(rank, R->shape, lo);
    lay_lo(rank, ns, nlo);
    int drop = which == 0 ? rank - 1 : rank - 2;
    Layout r;
    lay_init(&r, rank, ns, R->nwarp);
    int kb = lg2i(K);
    for (int i = 0; i < kb; i++) r.reg[r.nreg++] = (int8_t)(nlo[drop] + i);
    int nd[TC_MAX_RANK];
    for (int d = 0; d < rank; d++) nd[d] = d == drop ? -1 : d;
#define MAPD(p) map_dims(rank, R->shape, lo, nd, nlo, (p))
    for (int i = 0; i < R->nreg; i++) {
        int q = MAPD(R->reg[i]);
        if (q >= 0) { map[i] = (int8_t)r.nreg; r.reg[r.nreg++] = (int8_t)q; }
        else map[i] = -1;
    }
    for (int j = 0; j < 5; j++) {
        r.lane[j] = (int8_t)MAPD(R->lane[j]);
        r.warp[j] = (int8_t)MAPD(R->warp[j]);
    }
#undef MAPD
    *o = r;
}

void lay_dot_a(const Layout *R, int K, Layout *o, int8_t *map) { lay_dot_op(R, K, 0, o, map); }
void lay_dot_b(const Layout *R, int K, Layout *o, int8_t *map) { lay_dot_op(R, K, 1, o, map); }

bool lay_eq(const Layout *a, const Layout *b) {
    if (a->rank != b->rank || a->nreg != b->nreg || a->nwarp != b->nwarp) return false;
    for (int d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d]) return false;
    for (int i = 0; i < a->nreg; i++)
        if (a->reg[i] != b->reg[i]) return false;
    for (int j = 0; j < 5; j++)
        if (a->lane[j] != b->lane[j] || a->warp[j] != b->warp[j]) return false;
    return true;
}

int64_t lay_reg_flat(const Layout *L, int r) {
    int64_t f = 0;
    for (int i = 0; i < L->nreg; i++)
        if (r >> i & 1) f |= (int64_t)1 << L->reg[i];
    return f;
}

int lay_vec_bits(const Layout *L) {
    int i = 0;
    while (i < L->nreg && L->reg[i] == i) i++;
    return i;
}
