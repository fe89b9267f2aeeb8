/* mma_int.h — what mma.c (tl.dot on tensor cores), pipe.c (the loop pipeliner that feeds
 * it) and tma.c (whose copies fill and empty such tiles) share: shared-memory operand tiles
 * and their addresses, the dot's path. */
#ifndef GPU_MMA_INT_H
#define GPU_MMA_INT_H

#include "gpu/lower.h"

/* A [rows, cols] operand tile in shared memory, split into column slabs (mma.c's header) */
typedef struct Tile {
    int rows, cols, esz;   /* cols contiguous; rows covers every outer dim */
    int slab;              /* bytes per row of a slab */
    int off;               /* byte offset of the tile in shared memory */
} Tile;

/* Addresses base + (toff ^ c): one register per distinct chunk pattern (prologue), and
 * immediates for the rest. base: the scratch area (g->smem, folded into the registers) or a
 * register that changes at run time (a pipeline slot), added at each use. */
typedef struct Addr { int toff; int reg[8]; const Tile *t; int base; } Addr;

enum { MMA_F16, MMA_BF16, MMA_TF32, MMA_S8, MMA_F8, MMA_TF32X3, MMA_BF16X3, MMA_BF16X6 };

Tile tile_of(int64_t numel, int cols, int esz, int off);
int64_t tile_bytes(const Tile *t);
int64_t swz(const Tile *t, int64_t f);   /* byte offset of flat element f in t */
int thread_off(G *g, const int8_t *tbit, int ntb, const Tile *t);
void addr_init(Addr *a, int toff, const Tile *t, int base);
const char *addr_at(G *g, Addr *a, int64_t c, char *buf, size_t n);
int mma_kind(G *g, const Inst *in);            /* MMA_*, or -1: the FMA loop */
int wg_inst_n(G *g, const Inst *in, int kind);  /* wgmma's N, or 0: mma.sync */
int tr_layout(G *g, int v);
bool b_tr(G *g, const Inst *dot);
int tr_bit(int b, int nb, int kb);
int64_t tr_flat(int64_t f, int nb, int kb);
void stage_at(G *g, int v, const Tile *t, int base);
void stage_lay(G *g, const Layout *S, const int *regs, const Tile *t, int base);   /* registers in S */
bool is_zero_const(G *g, int v);

#endif
