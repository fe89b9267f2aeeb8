/* lower.h — the lowering state shared by analysis.c, lower.c, convert.c, elemwise.c, mma.c, pipe.c and
 * math.c. */
#ifndef GPU_LOWER_H
#define GPU_LOWER_H

#include "gpu/gpuint.h"

enum { CP, CH, CR, CD };                 /* register classes: pred, b16, b32, b64 */
#define REG(c, i) ((c) << 24 | (i))
#define RCLS(r) ((r) >> 24)
#define RIDX(r) ((r) & 0xffffff)

typedef struct LayEnt { Layout L; int tflat; int tred; bool mma; } LayEnt;
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
    char nm[24][24]; int nmi;  /* rn() names: 24 per emitted line */
    const Inst *cur;  /* for error locations */
    const Region *region;   /* the innermost region being lowered */
    Buf text;         /* the module */
    Buf glob;         /* module-scope declarations (format strings) */
    int nstr, prbuf;  /* format strings; bytes of the local printf argument buffer */
    int num_stages;   /* the launch's; a tl.range(num_stages=) loop has its own */
    bool *piped;      /* value -> a load the pipeliner issues ahead (pipe.c) */
    struct Pipe **ring_load;  /* value -> the pipeline whose ring a load is read back from
                               * into registers where it stands (pipe_load), NULL none */
    int *inv_kept;    /* value -> its tile's offset in the kept area: a loop-invariant dot
                       * operand that more than one loop reads, staged once (invshare), -1 none */
    const Inst **kept_by;  /* value -> the loop that staged it there first */
    int kept, kept_bytes;  /* register: the kept area's base (after the rest); its size */
    int *smop_base;   /* value -> register: the shared-memory slot holding it, 0 none */
    int *smop_off;    /* value -> its tile's byte offset in that slot */
    bool *smop_kmaj;  /* value -> a dot's B held transposed there ([N][K], K-major) */
    int *fold_acc;    /* dot result -> the value it accumulates into instead of its zero
                       * accumulator, -1 none (mma_fold: `acc += tl.dot(a, b)`) */
    int *fold_alias;  /* that add's result -> the dot result it is, -1 none */
    int *inplace;     /* value -> the carried value whose registers it is written into (a
                       * wgmma accumulator rescaled in flight, pipe_plan), -1 none */
    int *step, *step_esz;  /* scalar -> register holding it times step_esz, a pointer step
                            * computed before the loop that adds it (lower_for), 0: none */
    bool *relow;      /* values being lowered again for a later iteration: older */
    int relow_depth;  /*   conversions of them (depth < relow_depth) are stale */
    bool ax_again;    /* analysis: a loop body analysed once more (uses already counted) */
    bool no_mma_v3;   /* DISABLE_MMA_V3: mma.sync even where wgmma exists */
    bool fp_fusion;   /* TRITON_DEFAULT_FP_FUSION: multiplies and adds may contract (gpu.h) */
    bool no_inv, used_inv;  /* loop-invariant dot operands: not staged once (gpu_compile's
                             * retry past the shared-memory limit); staged once */
    bool no_kept;     /* nor kept for several loops (inv_kept; that retry, first) */
    bool no_top, used_top;  /* a ring's extra slot for one bar.sync per iteration (pipe.c's
                             * top): not taken (the retry's first step); taken */
    int top_bytes, top_regs;  /* the largest such slot; the registers its loop holds (defer_regs) */
    bool lean, used_roomy;  /* shared memory as small as it goes (gpu_compile's retry):
                             * accumulators stored from their own layout, conversions unpadded;
                             * whether anything took more for speed */
    unsigned unverified;  /* TRITONC_GPU_UNVERIFIED (gpu_unverified): the GPU_UNV_* areas of
                           * lowerings that pass ptxas and the tests here but have not yet been
                           * checked on a GPU; without theirs they stay refused or take the
                           * checked path */
    int smem_align;   /* of the dynamic shared memory (wgmma's swizzle atoms: 1024) */
    int wgid;         /* register: the warpgroup's index, known warp-uniform (0: not yet) */
    const Inst *defer;  /* the wgmma dot of the current pipelined iteration left in flight */
    struct Pipe *pipe_early;  /* the loop whose spare slot a wgmma wait frees (pipe_waited) */
    struct Pipe *pipe_top;    /* the loop whose top slot waits for the first wgmma (pipe_issued) */
    int ring, ring_bytes;  /* register: the pipeline ring; its size */
    int piped_stages;      /* the most stages a pipelined loop has (0: none), for the header */
    int ring_live;         /* pipelined loops between prologue and drain (their ring in use) */
    bool scratch_in_ring;  /* the scratch area was used while a ring was in use: the ring then
                            * sits after it, else both start at the shared base, as Triton
                            * overlaps buffers whose lives do not */
    const Source *loc_src; int loc_line, loc_col;  /* the last .loc emitted (line information) */
    /* TMA (tma.c): the map of each tensor-map slot (a descriptor parameter's value, or a
     * TMAP's result) and the register with its generic address; the kernel's mbarrier (a
     * register with its shared address), the phase to wait for next, the predicate of
     * thread 0, and that of warp 0 (issuer) */
    int tma_map[GPU_MAX_TMAPS], tma_addr[GPU_MAX_TMAPS], ntma;
    int mbar, mbar_phase, leader, warp0;
    int *tma_sw;      /* map value -> the swizzle of its map (0: none) */
    bool *tmap_ok;    /* TMAP result -> the kernel fills that map (tensormap.replace) */
    const Inst **tmap_use;  /* map value -> its first descriptor access (the box, the dtype) */
    bool scratch_ok;  /* gpu_compile's global_scratch: the launch passes a scratch area */
    int scratch, ntmap_dev;  /* register: this program's part of it; the maps made there */
    int tmap_stage;   /* register: 128 bytes of shared memory per warp to compose maps in */
    bool *tma_direct; /* value -> a load TMA writes straight into its dot's operand tile */
    bool *tma_late;   /* value -> such a load waited for later (tma_flush), not where it stands */
    bool tma_pending; /* a late load's copy is under way: tma_flush waits for it */
    int tma_area, tma_area_bytes;  /* register: those tiles' area (after the rest); its size */
    bool *tma_ring;   /* value -> a load the pipeliner copies into its ring by TMA (tmaring) */
    int ring_mbar, ring_mbar_n;  /* register: the ring slots' mbarriers (8 bytes each); count */
    int ring_phase;   /* register: bit s = the parity the next wait on slot s's barrier awaits */
    int ring_free;    /* register: the slots' release counters (4 bytes each, after the
                       * barriers): a TMA ring's slot is refilled by the last warp done with it */
    int issue_warp;   /* predicate register: the warp that issues TMA copies now (0: warp 0) */
    bool two_over_pi; /* math.c: the module has the table of 2/pi's bits (sin, cos, tan) */
} G;

int lay_id(G *g, const Layout *L);
int default_lay(G *g, const Type *t);
int res_lay(G *g, int v);
int inner_dim(const Type *t);
int mem_vec(G *g, int ptr, int mask);
int lay_mem_vec(G *g, int lay, int ptr, int mask, bool bytes);
void analyze(G *g);

/* lower.c: emitting code (E: the body, EP: the prologue), registers and values */
const char *rn(G *g, int r);
int nr(G *g, int cls);
/* ptxdce.c: removes from text (PTX instruction lines, registers %p %h %r %rd numbered up
 * to nregs[class]) the instructions whose results no effect needs; false on out of memory. */
bool ptx_dce(Buf *text, const int nregs[4]);
void E(G *g, const char *fmt, ...) TC_PRINTF(2, 3);
void EP(G *g, const char *fmt, ...) TC_PRINTF(2, 3);
TC_NORETURN void unsupported(G *g, const char *what);
void need(G *g, unsigned f);
int dcls(int dt);
int konst(G *g, int dt, int64_t i, double fv);
int nlay(G *g, int id);
int tflat(G *g, int id);
int tred(G *g, int id);
void need_smem(G *g, int64_t bytes);
int *alloc_regs(G *g, int n);
void set_val(G *g, int v, int lay, int *regs);
void mov(G *g, int d, int s);
void normalize(G *g, int r, int dt);          /* a small int re-extended to its 32 bits */
void emit_arange(G *g, const Inst *d, int lay, int *out);
void lower_shape(G *g, const Inst *in);
void lower_inst(G *g, const Inst *in);
int load_vec(G *g, int lay, int ptr, int mask);
void st_shared(G *g, int dt, int addr, int64_t off, int r);
int ld_shared(G *g, int dt, int addr, int64_t off);
static inline bool is_half(int dt) { return dt == DT_FP16 || dt == DT_BF16; }
static inline bool is_small(int dt) { return dt == DT_I8 || dt == DT_I16 || dt == DT_U8 || dt == DT_U16; }
const char *bty(int cls);                     /* b1/b16/b32/b64 of a register class */
const char *st_ty(int dt);                    /* the type of a shared-memory access */
const char *ity(int dt);                      /* the PTX integer type of a dtype's register */
int smem_addr(G *g, int t, int scale);        /* shared base + t * scale */
int up(G *g, int r, int dt);                  /* fp16/bf16 -> f32 */
int down(G *g, int r, int dt, bool rz);       /* f32 -> fp16/bf16 */
int fp8_up(G *g, int r, int dt);              /* an 8-bit float -> f32 */
int fp8_down(G *g, int f, int dt, bool rz);   /* f32 -> an 8-bit float */
int cast_fp8(G *g, int r, int from, int to, bool rz);   /* a cast with an fp8 side */
int pred_to_u32(G *g, int p);

/* convert.c: the registers of value v in layout lay, made once per scope and then reused */
int *get(G *g, int v, int lay);
void scope_enter(G *g);
void scope_leave(G *g);

/* elemwise.c: element-wise ops, one register at a time */
int binop(G *g, const Inst *in, int dt, int a, int b);   /* in's element-wise binary op */
int cast1(G *g, int r, int from, int to, bool rz);
int select1(G *g, int c, int a, int b);       /* c ? a : b, c a predicate */
int fma1(G *g, int dt, int a, int b, int c);
int offset_scalar(G *g, int o);   /* the scalar an addptr's offset broadcasts, or -1 */
void lower_elementwise(G *g, const Inst *in);

/* memory.c */
void lower_load(G *g, const Inst *in);
void lower_store(G *g, const Inst *in);
void lower_atomic(G *g, const Inst *in);

/* reduce.c */
void lower_reduce(G *g, const Inst *in);

/* print.c */
void lower_print(G *g, const Inst *in);

/* tma.c: desc.load / desc.store through TMA where the instruction allows (false: lower it
 * the ordinary way); the mbarrier's place (returns the shared size); the map parameters */
void tma_plan(G *g);
bool tma_load(G *g, const Inst *in);
bool tma_store(G *g, const Inst *in);
void tma_flush(G *g);   /* waits for a late direct load (tma_late), if one is under way */
int tma_finish(G *g, int shared);
void tma_params(G *g, Buf *b);
/* TMAP: the kernel's own tensor map, filled in the global scratch area where tmap_ok */
void tma_create(G *g, const Inst *in);
/* the pipeliner's TMA copies (tmaring): a load's block into the operand tile at shared
 * address base + off (mma.c's Tile layout), completing on mbarrier `mb`, where `pred`
 * (0: always; thread 0 alone issues), first arming the barrier with `arm` bytes (0: not);
 * the wait on slot `slot`'s barrier */
void tma_ring_copy(G *g, const Inst *ld, int base, int off, int mb, int pred, int arm);
void tma_ring_wait(G *g, int slot);
void par_copy(G *g, int **dst, int **src, const int *ns, int count);

/* mma.c: tl.dot on tensor cores */
int mma_lay(G *g, const Inst *dot);   /* the accumulator layout id, or -1: the FMA path */
void mma_seed(G *g);                  /* accumulator layouts for dots, loops and epilogues */
void mma_fold(G *g);                  /* `acc += tl.dot(a, b)` accumulating into acc itself */
void lower_dot_mma(G *g, const Inst *in, int lay);

/* pipe.c: num_stages, the loads that feed tensor-core dots issued ahead into a ring */
typedef struct Pipe Pipe;
bool pipe_plan(G *g, const Inst *loop, Pipe **out);
void pipe_prologue(G *g, Pipe *p, const Inst *loop, int lb, int ub, int st, int ivdt);
void pipe_begin(G *g, Pipe *p, const Inst *loop, int iv, int ub, int st, int ivdt);
void pipe_waited(G *g);
void pipe_issued(G *g);
void pipe_end(G *g, Pipe *p);
void pipe_drain(G *g, Pipe *p);
bool pipe_load(G *g, const Inst *ld);   /* a load read back from its ring, or false */

/* math.c: libdevice's elementary functions, fmod/remainder, fp64 transcendental unary ops */
int fmod_exact(G *g, bool f64, int a, int b, bool rem);
int math1(G *g, int fn, int dt, int a);
int math2(G *g, int fn, int dt, int a, int b);
int unop_f64_math(G *g, int op, int a);

#endif
