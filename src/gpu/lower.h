/* lower.h — the lowering state shared by analysis.c and lower.c. */
#ifndef GPU_LOWER_H
#define GPU_LOWER_H

#include "gpu/gpuint.h"

enum { CP, CH, CR, CD };                 /* register classes: pred, b16, b32, b64 */
#define REG(c, i) ((c) << 24 | (i))
#define RCLS(r) ((r) >> 24)
#define RIDX(r) ((r) & 0xffffff)

typedef struct LayEnt { Layout L; int tflat; int tred; } LayEnt;
typedef struct ShapeEnt { int rank; int32_t shape[TC_MAX_RANK]; int sptbits; int lay; } ShapeEnt;
typedef struct Conv { int v, lay, depth; int *regs; } Conv;

typedef struct G {
    const IrFunc *f;
    Err *e;
    Arena *a;
    int nw, nwbits;
    const TargetInfo *ti;  /* the target's row; arch_a: its `a` variant */
    bool arch_a;
    unsigned feat;    /* TF_* the code uses: they decide the .version */
    Buf body, pro;
    int nregs[4];
    LayEnt *lays; int nlays, caplays;
    ShapeEnt *shapes; int nshapes, capshapes;
    int *pref;        /* value -> preferred layout id, -1 none */
    int *vlay;        /* value -> layout id of its registers */
    int **vr;         /* value -> registers */
    AxInfo *ax;
    Inst **def;       /* value -> defining instruction (NULL for params) */
    int *uses;        /* value -> number of operand uses */
    Conv *conv; int nconv, capconv;
    int depth;
    int smem_bytes;
    int smem, tid;    /* registers: shared base, %tid.x */
    int labels;
    char nm[12][24]; int nmi;
    const Inst *cur;  /* for error locations */
    Buf text;         /* the module */
    Buf glob;         /* module-scope declarations (format strings) */
    int nstr, prbuf;  /* format strings; bytes of the local printf argument buffer */
    const Source *loc_src; int loc_line, loc_col;  /* the last .loc emitted (line information) */
} G;

int lay_id(G *g, const Layout *L);
int default_lay(G *g, const Type *t);
int res_lay(G *g, int v);
int inner_dim(const Type *t);
int mem_vec(G *g, int ptr, int mask);
void analyze(G *g);

#endif
