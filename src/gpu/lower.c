/* lower.c — tile IR -> PTX text. Each value lives in registers laid out by its layout
 * (gpuint.h); every thread runs fully unrolled per-register code. Layout changes that are
 * not free go through shared memory; reductions go register -> shuffle -> shared memory.
 *
 * Kernel parameters, in IrFunc order: pointers .u64; i1 .u8 (one byte, 0 or 1); i8/u8
 * .s8/.u8; i16/u16 .s16/.u16; i32 .s32; u32 .u32; i64 .s64; u64 .u64; fp16/bf16 .b16;
 * fp32 .f32; fp64 .f64.
 *
 * Registers: i1 in .pred; 8/16/32-bit ints and fp32 in .b32 (small ints kept sign- or
 * zero-extended, renormalized after each op); i64/u64/pointers/fp64 in .b64; fp16/bf16 in
 * .b16. Numerics follow the interpreter where the op is exact: add/sub/mul/fma with explicit
 * .rn (no contraction), fp16/bf16 ops computed in f32 and rounded per op, casts with rzi/rn,
 * dot's FMA path as a sequential fp32 FMA chain over k then + acc (tensor cores: mma.c).
 * Where Triton uses fast forms, so do we: exp = ex2.approx(x*log2e), log = lg2.approx*ln2,
 * sqrt/rsqrt .approx.ftz, fp32 `/` div.full, sin/cos .approx; tanh and erf are short
 * polynomial/exp2 forms (~1e-6 relative); libdevice's functions and fmod are in math.c,
 * the fp64 transcendentals in math64.c.
 *
 * Loads, stores and atomics are in memory.c, reductions in reduce.c, device_print in
 * print.c, tensor-core dots and the pipeliner in mma.c, descriptor blocks by TMA in tma.c. */
#include "gpu/lower.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- registers and text ------------------------------------------------------------ */

/* A register's name, in one of 24 rotating buffers: valid until 24 more names are made, so
 * nothing that emits code may be called among E's arguments. */
const char *rn(G *g, int r) {
    static const char *const pre[] = {"%p", "%h", "%r", "%rd"};
    char *b = g->nm[g->nmi++ % 24];
    snprintf(b, sizeof g->nm[0], "%s%d", pre[RCLS(r)], RIDX(r));
    return b;
}

int nr(G *g, int cls) { return REG(cls, ++g->nregs[cls]); }

void E(G *g, const char *fmt, ...) {
    char line[8192];   /* a wgmma names up to 128 accumulator registers */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* line information: `.loc 1 LINE COL` (the `.file 1` of the module header) where the
     * kernel line changes, so that profilers map instructions to kernel source lines */
    SrcLoc l = g->cur ? g->cur->loc : (SrcLoc){0};
    if (l.src && l.line > 0 && (!g->loc_src || l.line != g->loc_line || l.col != g->loc_col)) {
        if (!g->loc_src) g->loc_src = l.src;
        if (l.src == g->loc_src) {
            buf_printf(&g->body, "\t.loc 1 %d %d\n", l.line, l.col > 0 ? l.col : 1);
            g->loc_line = l.line;
            g->loc_col = l.col;
        }
    }
    buf_puts(&g->body, "\t");
    buf_puts(&g->body, line);
    buf_puts(&g->body, "\n");
}

void EP(G *g, const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_puts(&g->pro, "\t");
    buf_puts(&g->pro, line);
    buf_puts(&g->pro, "\n");
}

TC_NORETURN void unsupported(G *g, const char *what) {
    err_fail(g->e, TC_ERR_UNSUPPORTED, g->cur ? g->cur->loc : (SrcLoc){0},
             "the GPU backend does not support %s yet", what);
}

/* The code uses feature f: it raises the .version, and a target without it is an error at
 * the kernel line rather than a ptxas failure. */
void need(G *g, unsigned f) {
    unsigned missing;
    target_ptx_version(g->ti, g->arch_a, f, &missing);
    if (missing)
        err_fail(g->e, TC_ERR_UNSUPPORTED, g->cur ? g->cur->loc : (SrcLoc){0},
                 "the target %s%s has no %s", g->ti->name, g->arch_a ? "a" : "",
                 target_feature_name(f));
    g->feat |= f;
}

int dcls(int dt) {
    switch (dt) {
    case DT_I1: return CP;
    case DT_FP16: case DT_BF16: return CH;
    case DT_I64: case DT_U64: case DT_PTR: case DT_FP64: return CD;
    default: return CR;
    }
}

const char *bty(int cls) {
    static const char *const t[] = {"pred", "b16", "b32", "b64"};
    return t[cls];
}

/* integer type of an int (or pointer) dtype held in a register */
const char *ity(int dt) {
    switch (dt) {
    case DT_I8: case DT_I16: case DT_I32: return "s32";
    case DT_U8: case DT_U16: case DT_U32: case DT_I1: return "u32";
    case DT_I64: return "s64";
    default: return "u64";
    }
}


static void normalize(G *g, int r, int dt) {
    switch (dt) {
    case DT_I8: E(g, "cvt.s32.s8 %s, %s;", rn(g, r), rn(g, r)); break;
    case DT_I16: E(g, "cvt.s32.s16 %s, %s;", rn(g, r), rn(g, r)); break;
    case DT_U8: E(g, "and.b32 %s, %s, 255;", rn(g, r), rn(g, r)); break;
    case DT_U16: E(g, "and.b32 %s, %s, 65535;", rn(g, r), rn(g, r)); break;
    default: break;
    }
}

void mov(G *g, int d, int s) {
    if (d == s) return;
    E(g, "mov.%s %s, %s;", bty(RCLS(d)), rn(g, d), rn(g, s));
}

static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t f64_bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

static uint16_t f32_to_f16(float f) {
    uint32_t x = f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000, mant = x & 0x7fffff;
    int exp = (int)((x >> 23) & 0xff);
    if (exp == 255) return (uint16_t)(sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0));
    int e = exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        mant |= 0x800000;
        int shift = 14 - e;
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (mant >> 13), rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
    return (uint16_t)(sign | h);
}

static uint16_t f32_to_bf16(float f) {
    uint32_t x = f32_bits(f);
    if ((x & 0x7fffffff) > 0x7f800000) return (uint16_t)((x >> 16) | 0x40);
    x += 0x7fff + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

/* a register holding constant c of dtype dt */
int konst(G *g, int dt, int64_t i, double fv) {
    int r = nr(g, dcls(dt));
    switch (dt) {
    case DT_I1: E(g, "setp.ne.u32 %s, %d, 0;", rn(g, r), i != 0); break;
    case DT_FP16: E(g, "mov.b16 %s, 0x%04X;", rn(g, r), f32_to_f16((float)fv)); break;
    case DT_BF16: E(g, "mov.b16 %s, 0x%04X;", rn(g, r), f32_to_bf16((float)fv)); break;
    case DT_FP32: E(g, "mov.b32 %s, 0f%08X;", rn(g, r), f32_bits((float)fv)); break;
    case DT_FP64: E(g, "mov.b64 %s, 0d%016llX;", rn(g, r), (unsigned long long)f64_bits(fv)); break;
    case DT_FP8E5: case DT_FP8E4NV: case DT_FP8E4B15:
        E(g, "mov.b32 %s, %u;", rn(g, r), fp8_from_double(dt, fv, 0));
        break;
    case DT_I8: E(g, "mov.b32 %s, %d;", rn(g, r), (int)(int8_t)i); break;
    case DT_I16: E(g, "mov.b32 %s, %d;", rn(g, r), (int)(int16_t)i); break;
    case DT_U8: E(g, "mov.b32 %s, %u;", rn(g, r), (unsigned)(uint8_t)i); break;
    case DT_U16: E(g, "mov.b32 %s, %u;", rn(g, r), (unsigned)(uint16_t)i); break;
    case DT_I32: case DT_U32: E(g, "mov.b32 %s, %u;", rn(g, r), (unsigned)(uint32_t)i); break;
    default: E(g, "mov.b64 %s, %llu;", rn(g, r), (unsigned long long)i); break;
    }
    return r;
}


/* fp16/bf16 <-> f32 */
int up(G *g, int r, int dt) {
    int d = nr(g, CR);
    if (dt == DT_FP16) E(g, "cvt.f32.f16 %s, %s;", rn(g, d), rn(g, r));
    else {
        E(g, "cvt.u32.u16 %s, %s;", rn(g, d), rn(g, r));
        E(g, "shl.b32 %s, %s, 16;", rn(g, d), rn(g, d));
    }
    return d;
}
static int down(G *g, int r, int dt, bool rz) {
    int d = nr(g, CH);
    if (dt == DT_BF16) need(g, TF_BF16);
    E(g, "cvt.%s.%s.f32 %s, %s;", rz ? "rz" : "rn", dt == DT_FP16 ? "f16" : "bf16", rn(g, d),
      rn(g, r));
    return d;
}

/* ---- 8-bit floats: a byte in a 32-bit register (zero-extended) ----------------------------
 * Conversions as the interpreter's (base/util.c): to fp8 to nearest even, saturating to the
 * largest finite value, NaN to 0x7f; fp8e5 rtz by truncating an fp16 rounded toward zero;
 * fp8e4b15 by Triton's fp16 bit conversion. sm_89 and newer use cvt ...e5m2x2/e4m3x2;
 * older targets bit manipulation (fp8e4nv needs sm_89, as in Triton). */
static void fp8_need(G *g, int dt) {
    if (dt == DT_FP8E4NV && g->ti->arch < 89)
        err_fail(g->e, TC_ERR_UNSUPPORTED, g->cur ? g->cur->loc : (SrcLoc){0},
                 "Conversion from/to fp8e4nv is only supported on compute capability >= 89 "
                 "(the target is %s)", g->ti->name);
}

/* cvt ...e5m2x2/e4m3x2: sm_89 with PTX 8.1 (the first PTX feature of ours past it: the fp8
 * mma's 8.4), sm_90 and newer with their first PTX */
static bool fp8_cvt(G *g) {
    if (g->ti->arch < 89) return false;
    if (g->ti->arch < 90) need(g, TF_MMA_FP8);
    return true;
}

/* fp8 -> f32 (exact) */
int fp8_up(G *g, int r, int dt) {
    fp8_need(g, dt);
    int h = nr(g, CH), t = nr(g, CR), f = nr(g, CR);
    if (dt != DT_FP8E4B15 && fp8_cvt(g)) {
        E(g, "cvt.u16.u32 %s, %s;", rn(g, h), rn(g, r));
        E(g, "cvt.rn.f16x2.%s %s, %s;", dt == DT_FP8E5 ? "e5m2x2" : "e4m3x2", rn(g, t), rn(g, h));
        E(g, "cvt.u16.u32 %s, %s;", rn(g, h), rn(g, t)); /* the low half: our byte */
    } else if (dt == DT_FP8E5) { /* e5m2 is the high byte of an fp16 */
        E(g, "shl.b32 %s, %s, 8;", rn(g, t), rn(g, r));
        E(g, "cvt.u16.u32 %s, %s;", rn(g, h), rn(g, t));
    } else { /* e4b15: sign, then the 7 bits moved into an fp16 of the same bias */
        int s = nr(g, CR);
        E(g, "and.b32 %s, %s, 127;", rn(g, t), rn(g, r));
        E(g, "shl.b32 %s, %s, 7;", rn(g, t), rn(g, t));
        E(g, "and.b32 %s, %s, 128;", rn(g, s), rn(g, r));
        E(g, "shl.b32 %s, %s, 8;", rn(g, s), rn(g, s));
        E(g, "or.b32 %s, %s, %s;", rn(g, t), rn(g, t), rn(g, s));
        E(g, "cvt.u16.u32 %s, %s;", rn(g, h), rn(g, t));
    }
    E(g, "cvt.f32.f16 %s, %s;", rn(g, f), rn(g, h));
    return f;
}

/* f32 -> fp8 (rz: toward zero, fp8e5 only) */
static int fp8_down(G *g, int f, int dt, bool rz) {
    fp8_need(g, dt);
    int d = nr(g, CR), h = nr(g, CH), m = nr(g, CR), p = nr(g, CP);
    if (dt != DT_FP8E4B15 && !rz && fp8_cvt(g)) {
        E(g, "cvt.rn.satfinite.%s.f32 %s, 0f00000000, %s;", dt == DT_FP8E5 ? "e5m2x2" : "e4m3x2",
          rn(g, h), rn(g, f));
        E(g, "cvt.u32.u16 %s, %s;", rn(g, d), rn(g, h));
        E(g, "and.b32 %s, %s, 255;", rn(g, d), rn(g, d));
        return d;
    }
    int s = nr(g, CR);
    E(g, "cvt.rz.f16.f32 %s, %s;", rn(g, h), rn(g, f));
    E(g, "cvt.u32.u16 %s, %s;", rn(g, m), rn(g, h));
    E(g, "shr.b32 %s, %s, 8;", rn(g, s), rn(g, m));
    E(g, "and.b32 %s, %s, 128;", rn(g, s), rn(g, s));   /* the sign, at bit 7 */
    E(g, "and.b32 %s, %s, 32767;", rn(g, m), rn(g, m)); /* |h| */
    if (dt == DT_FP8E4B15) { /* clamp to 1.75 (inf, NaN too), add half, keep the high byte */
        E(g, "min.u32 %s, %s, 16128;", rn(g, m), rn(g, m));
        E(g, "shl.b32 %s, %s, 1;", rn(g, m), rn(g, m));
        E(g, "add.u32 %s, %s, 128;", rn(g, m), rn(g, m));
        E(g, "shr.b32 %s, %s, 8;", rn(g, m), rn(g, m));
        E(g, "or.b32 %s, %s, %s;", rn(g, d), rn(g, m), rn(g, s));
        return d;
    }
    if (rz) { /* truncation: the high byte of the fp16 rounded toward zero */
        E(g, "shr.b32 %s, %s, 8;", rn(g, m), rn(g, m));
        E(g, "or.b32 %s, %s, %s;", rn(g, d), rn(g, m), rn(g, s));
        return d;
    }
    /* fp8e5 to nearest even from the fp16 rounded toward zero with a sticky bit (round to
     * odd: exact, fp16 has 8 more bits), saturating; NaN -> 0x7f */
    int b = nr(g, CR), t = nr(g, CR);
    E(g, "cvt.f32.f16 %s, %s;", rn(g, b), rn(g, h));
    E(g, "setp.neu.f32 %s, %s, %s;", rn(g, p), rn(g, b), rn(g, f));
    E(g, "@%s or.b32 %s, %s, 1;", rn(g, p), rn(g, m), rn(g, m));
    E(g, "shr.b32 %s, %s, 8;", rn(g, t), rn(g, m));
    E(g, "and.b32 %s, %s, 1;", rn(g, t), rn(g, t));
    E(g, "add.u32 %s, %s, %s;", rn(g, m), rn(g, m), rn(g, t));
    E(g, "add.u32 %s, %s, 127;", rn(g, m), rn(g, m));
    E(g, "shr.b32 %s, %s, 8;", rn(g, m), rn(g, m));
    E(g, "min.u32 %s, %s, 123;", rn(g, m), rn(g, m));
    E(g, "or.b32 %s, %s, %s;", rn(g, d), rn(g, m), rn(g, s));
    E(g, "setp.nan.f32 %s, %s, %s;", rn(g, p), rn(g, f), rn(g, f));
    E(g, "@%s mov.b32 %s, 127;", rn(g, p), rn(g, d));
    return d;
}

/* casts with an fp8 side: through f32 (every value of every fp8 is an fp16, bf16 and f32) */
static int cast_fp8(G *g, int r, int from, int to, bool rz) {
    if (dt_is_fp8(from)) {
        int f = fp8_up(g, r, from);
        if (to == DT_FP32) return f;
        if (dt_is_fp8(to)) return fp8_down(g, f, to, rz);
        if (to == DT_FP16 || to == DT_BF16) return down(g, f, to, false);
        unsupported(g, "this cast of an 8-bit float");
    }
    if (is_half(from)) r = up(g, r, from);
    else if (from != DT_FP32) unsupported(g, "this cast to an 8-bit float");
    return fp8_down(g, r, to, rz);
}

int pred_to_u32(G *g, int p) {
    int d = nr(g, CR);
    E(g, "selp.u32 %s, 1, 0, %s;", rn(g, d), rn(g, p));
    return d;
}

/* ---- layouts ------------------------------------------------------------------------ */

int nlay(G *g, int id) { return 1 << g->lays[id].L.nreg; }

/* this thread's flat-index part of layout id (a b32 register computed in the prologue) */
int tflat(G *g, int id) {
    if (g->lays[id].tflat) return g->lays[id].tflat;
    Layout L = g->lays[id].L;
    int8_t tgt[10];
    int nt = 5 + L.nwarp;
    for (int j = 0; j < 5; j++) tgt[j] = L.lane[j];
    for (int k = 0; k < L.nwarp; k++) tgt[5 + k] = L.warp[k];
    int r = nr(g, CR);
    EP(g, "mov.u32 %s, 0;", rn(g, r));
    for (int t = 0; t < nt;) {
        if (tgt[t] < 0) { t++; continue; }
        int len = 1;
        while (t + len < nt && tgt[t + len] == tgt[t] + len) len++;
        int x = nr(g, CR);
        EP(g, "bfe.u32 %s, %s, %d, %d;", rn(g, x), rn(g, g->tid), t, len);
        if (tgt[t]) EP(g, "shl.b32 %s, %s, %d;", rn(g, x), rn(g, x), tgt[t]);
        EP(g, "or.b32 %s, %s, %s;", rn(g, r), rn(g, r), rn(g, x));
        t += len;
    }
    g->lays[id].tflat = r;
    return r;
}

/* a predicate true in exactly one of the threads holding each element (0: all are unique) */
int tred(G *g, int id) {
    if (g->lays[id].tred >= 0) return g->lays[id].tred;
    Layout L = g->lays[id].L;
    uint32_t mask = 0;
    for (int j = 0; j < 5; j++)
        if (L.lane[j] < 0) mask |= 1u << j;
    for (int k = 0; k < L.nwarp; k++)
        if (L.warp[k] < 0) mask |= 1u << (5 + k);
    int p = 0;
    if (mask) {
        int x = nr(g, CR);
        p = nr(g, CP);
        EP(g, "and.b32 %s, %s, %u;", rn(g, x), rn(g, g->tid), mask);
        EP(g, "setp.eq.u32 %s, %s, 0;", rn(g, p), rn(g, x));
    }
    g->lays[id].tred = p;
    return p;
}

void need_smem(G *g, int64_t bytes) {
    if (g->ring_live) g->scratch_in_ring = true;
    if (bytes > g->smem_bytes) g->smem_bytes = (int)(bytes > INT32_MAX ? INT32_MAX : bytes);
}

int *alloc_regs(G *g, int n) { return arena_alloc(g->a, sizeof(int) * (size_t)n); }

void set_val(G *g, int v, int lay, int *regs) {
    g->vlay[v] = lay;
    g->vr[v] = regs;
}

const char *st_ty(int dt) {
    switch (dt_size(dt)) {
    case 1: return "b8";
    case 2: return "b16";
    case 4: return "b32";
    default: return "b64";
    }
}

/* address register: base + t * scale */
int smem_addr(G *g, int t, int scale) {
    int a = nr(g, CR);
    E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, a), rn(g, t), scale, rn(g, g->smem));
    return a;
}

void st_shared(G *g, int dt, int addr, int64_t off, int r) {
    if (dt == DT_I1) {
        int t = pred_to_u32(g, r);
        E(g, "st.shared.u8 [%s+%lld], %s;", rn(g, addr), (long long)off, rn(g, t));
    } else if (dt_size(dt) == 1) {
        E(g, "st.shared.u8 [%s+%lld], %s;", rn(g, addr), (long long)off, rn(g, r));
    } else {
        E(g, "st.shared.%s [%s+%lld], %s;", st_ty(dt), rn(g, addr), (long long)off, rn(g, r));
    }
}

int ld_shared(G *g, int dt, int addr, int64_t off) {
    int d;
    if (dt == DT_I1) {
        int t = nr(g, CR);
        E(g, "ld.shared.u8 %s, [%s+%lld];", rn(g, t), rn(g, addr), (long long)off);
        d = nr(g, CP);
        E(g, "setp.ne.u32 %s, %s, 0;", rn(g, d), rn(g, t));
    } else if (dt_size(dt) == 1) {
        d = nr(g, CR);
        E(g, "ld.shared.%s %s, [%s+%lld];", dt == DT_I8 ? "s8" : "u8", rn(g, d), rn(g, addr),
          (long long)off);
    } else {
        d = nr(g, dcls(dt));
        E(g, "ld.shared.%s %s, [%s+%lld];", st_ty(dt), rn(g, d), rn(g, addr), (long long)off);
        if (dt == DT_I16) normalize(g, d, dt);
    }
    return d;
}

static void emit_arange(G *g, const Inst *d, int lay, int *out) {
    int n = nlay(g, lay);
    int tf = tflat(g, lay);
    int base = nr(g, CR);
    E(g, "add.s32 %s, %s, %lld;", rn(g, base), rn(g, tf), (long long)d->attr.i);
    Layout L = g->lays[lay].L;
    for (int r = 0; r < n; r++) {
        if (r == 0) { out[r] = base; continue; }
        out[r] = nr(g, CR);
        E(g, "add.s32 %s, %s, %lld;", rn(g, out[r]), rn(g, base), (long long)lay_reg_flat(&L, r));
    }
}

static void lower_elementwise(G *g, const Inst *in);

static void lower_shape(G *g, const Inst *in);

/* v is integer arithmetic over constants, scalars and aranges (cheap to compute again) */
static bool remat_ok(G *g, int v, int depth) {
    Type t = g->f->types[v];
    if (t.rank == 0) return true;
    const Inst *d = g->def[v];
    if (!d || !(dt_is_int(t.dt) || t.dt == DT_PTR || t.dt == DT_I1)) return false;
    switch (d->op) {
    case OP_CONST: case OP_SPLAT: case OP_ARANGE: return true;
    case OP_EXPAND_DIMS: case OP_BROADCAST: case OP_RESHAPE: case OP_PERMUTE:
        /* shape ops relabel registers: `(i + offs)[:, None] * stride` in a loop is then
         * recomputed too */
        /* fall through */
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_REM: case OP_DIV: case OP_ADDPTR: case OP_CMP:
    case OP_AND: case OP_OR: case OP_XOR: case OP_CAST:
        if (depth >= 8) return false;
        for (int k = 0; k < d->nargs; k++) {
            int a = d->args[k];
            Type at = g->f->types[a];
            if (at.rank && !(dt_is_int(at.dt) || at.dt == DT_PTR || at.dt == DT_I1)) return false;
            if (at.rank && !remat_ok(g, a, depth + 1)) return false;
        }
        return true;
    default:
        return false;
    }
}

/* the registers of value v in layout lay */
/* Where element e of a row-major tile of rows 2^wb long sits in shared memory: rows padded
 * by pad bytes. Thread and register parts of e have disjoint bits, so each part's share adds. */
static int64_t conv_off(int64_t e, int esz, int wb, int pad) {
    return e * esz + (e >> wb) * pad;
}

static int conv_addr(G *g, int t, int esz, int wb, int pad) {
    int a = smem_addr(g, t, esz);
    if (!pad) return a;
    int row = nr(g, CR), p = nr(g, CR);
    E(g, "shr.u32 %s, %s, %d;", rn(g, row), rn(g, t), wb);
    E(g, "mad.lo.u32 %s, %s, %d, %s;", rn(g, p), rn(g, row), pad, rn(g, a));
    return p;
}

/* v into layout lay through shared memory, row-major: runs of contiguous elements move as
 * vectors (up to 16 bytes, 8 for 16-bit types), and rows of 32 bytes or more are padded by
 * 16 so that the 8 rows a tensor-core fragment's lane groups hold fall in distinct banks
 * (without, a 512-byte row puts them all in one). */
static void convert_smem(G *g, int v, int lay, int *out) {
    Layout S = g->lays[g->vlay[v]].L, D = g->lays[lay].L;
    Type t = g->f->types[v];
    int dt = t.dt, esz = dt_size(dt), cls = dcls(dt);
    int wb = lg2i((int)t.shape[t.rank - 1]);
    int pad = !g->lean && t.rank >= 2 && ((int64_t)esz << wb) >= 32 ? 16 : 0;
    bool vec = !g->lean && esz == (cls == CH ? 2 : cls == CD ? 8 : cls == CR ? 4 : 0);
    int cap = esz == 2 ? 2 : lg2i(16 / esz);   /* log2 of the elements of one vector */
    int vs = vec ? (lay_vec_bits(&S) < cap ? lay_vec_bits(&S) : cap) : 0;
    int vd = vec ? (lay_vec_bits(&D) < cap ? lay_vec_bits(&D) : cap) : 0;
    int64_t nel = (int64_t)1 << S.nbits;
    need_smem(g, nel * esz + (pad ? (nel >> wb) * pad : 0));
    if (pad || vs || vd) g->used_roomy = true;
    int *in = g->vr[v];
    char list[256];
    E(g, "bar.sync 0;");
    int a = conv_addr(g, tflat(g, g->vlay[v]), esz, wb, pad);
    for (int r = 0; r < (1 << S.nreg); r += 1 << vs) {
        int64_t off = conv_off(lay_reg_flat(&S, r), esz, wb, pad);
        if (!vs) { st_shared(g, dt, a, off, in[r]); continue; }
        size_t o = 0;
        for (int j = 0; j < 1 << vs; j++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", j ? ", " : "", rn(g, in[r + j]));
        E(g, "st.shared.v%d.%s [%s+%lld], {%s};", 1 << vs, st_ty(dt), rn(g, a), (long long)off, list);
    }
    E(g, "bar.sync 0;");
    int b = conv_addr(g, tflat(g, lay), esz, wb, pad);
    for (int r = 0; r < (1 << D.nreg); r += 1 << vd) {
        int64_t off = conv_off(lay_reg_flat(&D, r), esz, wb, pad);
        if (!vd) { out[r] = ld_shared(g, dt, b, off); continue; }
        size_t o = 0;
        for (int j = 0; j < 1 << vd; j++) {
            out[r + j] = nr(g, cls);
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", j ? ", " : "", rn(g, out[r + j]));
        }
        E(g, "ld.shared.v%d.%s {%s}, [%s+%lld];", 1 << vd, st_ty(dt), list, rn(g, b), (long long)off);
    }
}

int *get(G *g, int v, int lay) {
    if (g->vlay[v] == lay || g->f->types[v].rank == 0) return g->vr[v];
    for (int i = g->nconv - 1; i >= 0; i--)
        if (g->conv[i].v == v && g->conv[i].lay == lay &&
            !(g->relow[v] && g->conv[i].depth < g->relow_depth))
            return g->conv[i].regs;
    int n = nlay(g, lay);
    int *out = alloc_regs(g, n);
    const Inst *d = g->def[v];
    int dt = g->f->types[v].dt;
    if (d && d->op == OP_CONST) {
        int r = konst(g, dt, d->attr.i, d->attr.f);
        for (int i = 0; i < n; i++) out[i] = r;
    } else if (d && d->op == OP_SPLAT) {
        for (int i = 0; i < n; i++) out[i] = g->vr[d->args[0]][0];
    } else if (d && d->op == OP_ARANGE) {
        emit_arange(g, d, lay, out);
    } else if (remat_ok(g, v, 0)) {
        /* recomputed in the wanted layout: a few integer ops beat a trip through shared
         * memory and two barriers (offsets used by both a load and an epilogue) */
        int sp = g->pref[v], sl = g->vlay[v];
        int *sr = g->vr[v];
        g->pref[v] = lay;
        if (d->op == OP_EXPAND_DIMS || d->op == OP_BROADCAST || d->op == OP_RESHAPE || d->op == OP_PERMUTE)
            lower_shape(g, d);
        else
            lower_elementwise(g, d);
        out = g->vr[v];
        g->pref[v] = sp;
        g->vlay[v] = sl;
        g->vr[v] = sr;
    } else {
        convert_smem(g, v, lay, out);
    }
    Conv c = {v, lay, g->depth, out};
    ARENA_PUSH(g->a, g->conv, g->nconv, g->capconv, c);
    return out;
}

void scope_enter(G *g) { g->depth++; }
void scope_leave(G *g) {
    g->depth--;
    while (g->nconv > 0 && g->conv[g->nconv - 1].depth > g->depth) g->nconv--;
}

/* ---- element-wise ------------------------------------------------------------------- */


static int bin_f32(G *g, int op, int kind, int a, int b, const char *ft) {
    int d = nr(g, ft[1] == '6' ? CD : CR);
    const char *D = rn(g, d), *A = rn(g, a), *B = rn(g, b);
    /* without a rounding modifier ptxas may contract a multiply and an add into an fma, as
     * Triton's enable_fp_fusion (its default) allows; .rn forbids it, so that results match
     * the interpreter's to the bit (TRITON_DEFAULT_FP_FUSION=0) */
    const char *rm = g->fp_fusion ? "" : ".rn";
    switch (op) {
    case OP_ADD: E(g, "add%s.%s %s, %s, %s;", rm, ft, D, A, B); break;
    case OP_SUB: E(g, "sub%s.%s %s, %s, %s;", rm, ft, D, A, B); break;
    case OP_MUL: E(g, "mul%s.%s %s, %s, %s;", rm, ft, D, A, B); break;
    case OP_DIV:
        if (ft[1] == '6') E(g, "div.rn.f64 %s, %s, %s;", D, A, B);
        else E(g, "div.full.f32 %s, %s, %s;", D, A, B);
        break;
    case OP_MAX: case OP_MIN: {
        const char *m = op == OP_MAX ? "max" : "min";
        if (kind == 1 && ft[1] != '6') E(g, "%s.NaN.f32 %s, %s, %s;", m, D, A, B);
        else if (kind == 1) {
            int p = nr(g, CP);
            E(g, "%s.f64 %s, %s, %s;", m, D, A, B);
            E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), A, B);
            E(g, "@%s add.f64 %s, %s, %s;", rn(g, p), D, A, B);
        } else E(g, "%s.%s %s, %s, %s;", m, ft, D, A, B);
        break;
    }
    case OP_REM: return fmod_exact(g, ft[1] == '6', a, b, false);
    default: unsupported(g, op_names[op]);
    }
    return d;
}

int binop(G *g, const Inst *in, int dt, int a, int b) {
    int op = in->op;
    if (dt_is_fp8(dt)) /* computed in f32, rounded back as a cast */
        return fp8_down(g, bin_f32(g, op, in->attr.kind, fp8_up(g, a, dt), fp8_up(g, b, dt), "f32"), dt, false);
    if (dt_is_float(dt)) {
        if (is_half(dt)) {
            int r = bin_f32(g, op, in->attr.kind, up(g, a, dt), up(g, b, dt), "f32");
            return down(g, r, dt, false);
        }
        return bin_f32(g, op, in->attr.kind, a, b, dt == DT_FP64 ? "f64" : "f32");
    }
    if (dt == DT_I1) {
        int d = nr(g, CP);
        const char *D = rn(g, d), *A = rn(g, a), *B = rn(g, b);
        switch (op) {
        case OP_AND: case OP_MUL: case OP_MIN: E(g, "and.pred %s, %s, %s;", D, A, B); break;
        case OP_OR: case OP_MAX: E(g, "or.pred %s, %s, %s;", D, A, B); break;
        case OP_XOR: case OP_ADD: case OP_SUB: E(g, "xor.pred %s, %s, %s;", D, A, B); break;
        default: {
            int x = pred_to_u32(g, a), y = pred_to_u32(g, b);
            int r = binop(g, in, DT_U32, x, y);
            E(g, "setp.ne.u32 %s, %s, 0;", rn(g, d), rn(g, r));
        }
        }
        return d;
    }
    int cls = dcls(dt);
    int d = nr(g, cls);
    const char *D = rn(g, d), *A = rn(g, a), *B = rn(g, b);
    const char *it = ity(dt);
    const char *bt = cls == CD ? "b64" : "b32";
    switch (op) {
    case OP_ADD: E(g, "add.%s %s, %s, %s;", it, D, A, B); break;
    case OP_SUB: E(g, "sub.%s %s, %s, %s;", it, D, A, B); break;
    case OP_MUL: E(g, "mul.lo.%s %s, %s, %s;", it, D, A, B); break;
    case OP_DIV: E(g, "div.%s %s, %s, %s;", it, D, A, B); break;
    case OP_REM: E(g, "rem.%s %s, %s, %s;", it, D, A, B); break;
    case OP_AND: E(g, "and.%s %s, %s, %s;", bt, D, A, B); break;
    case OP_OR: E(g, "or.%s %s, %s, %s;", bt, D, A, B); break;
    case OP_XOR: E(g, "xor.%s %s, %s, %s;", bt, D, A, B); break;
    case OP_MAX: E(g, "max.%s %s, %s, %s;", it, D, A, B); break;
    case OP_MIN: E(g, "min.%s %s, %s, %s;", it, D, A, B); break;
    case OP_UMULHI: E(g, "mul.hi.%s %s, %s, %s;", cls == CD ? "u64" : "u32", D, A, B); break;
    case OP_SHL: case OP_SHR: {
        const char *S = B;
        if (cls == CD) {
            int s = nr(g, CR);
            E(g, "cvt.u32.u64 %s, %s;", rn(g, s), B);
            S = rn(g, s);
        }
        if (op == OP_SHL) E(g, "shl.%s %s, %s, %s;", bt, D, A, S);
        else if (in->attr.kind == 1) E(g, "shr.%s %s, %s, %s;", cls == CD ? "s64" : "s32", D, A, S);
        else {
            const char *src = A;
            if (dt == DT_I8 || dt == DT_I16) {
                int t = nr(g, CR);
                E(g, "and.b32 %s, %s, %d;", rn(g, t), A, dt == DT_I8 ? 255 : 65535);
                src = rn(g, t);
            }
            E(g, "shr.%s %s, %s, %s;", cls == CD ? "u64" : "u32", D, src, S);
        }
        break;
    }
    default: unsupported(g, op_names[op]);
    }
    if (is_small(dt)) normalize(g, d, dt);
    return d;
}

static const char *cmp_name(int k, bool fl) {
    switch (k) {
    case CMP_EQ: return "eq";
    case CMP_NE: return fl ? "neu" : "ne";
    case CMP_LT: return "lt";
    case CMP_LE: return "le";
    case CMP_GT: return "gt";
    default: return "ge";
    }
}

static int cmpop(G *g, int kind, int dt, int a, int b) {
    if (dt == DT_I1) { a = pred_to_u32(g, a); b = pred_to_u32(g, b); dt = DT_U32; }
    if (is_half(dt)) { a = up(g, a, dt); b = up(g, b, dt); dt = DT_FP32; }
    if (dt_is_fp8(dt)) { a = fp8_up(g, a, dt); b = fp8_up(g, b, dt); dt = DT_FP32; }
    int d = nr(g, CP);
    const char *t = dt == DT_FP32 ? "f32" : dt == DT_FP64 ? "f64" : ity(dt);
    E(g, "setp.%s.%s %s, %s, %s;", cmp_name(kind, dt_is_float(dt)), t, rn(g, d), rn(g, a), rn(g, b));
    return d;
}

/* polynomial c0 + c1 x + ... in f32 via fma (Horner) */
static int poly(G *g, int x, const float *c, int n) {
    int acc = konst(g, DT_FP32, 0, c[n - 1]);
    for (int i = n - 2; i >= 0; i--) {
        int k = konst(g, DT_FP32, 0, c[i]);
        int d = nr(g, CR);
        E(g, "fma.rn.f32 %s, %s, %s, %s;", rn(g, d), rn(g, acc), rn(g, x), rn(g, k));
        acc = d;
    }
    return acc;
}

static int ex2(G *g, int x) {
    int d = nr(g, CR);
    E(g, "ex2.approx.f32 %s, %s;", rn(g, d), rn(g, x));
    return d;
}

static int unop_f32(G *g, int op, int a) {
    int d = nr(g, CR);
    const char *D = rn(g, d), *A = rn(g, a);
    switch (op) {
    case OP_EXP: {
        int t = nr(g, CR);
        E(g, "mul.f32 %s, %s, 0f3FB8AA3B;", rn(g, t), A);
        E(g, "ex2.approx.f32 %s, %s;", D, rn(g, t));
        break;
    }
    case OP_EXP2: E(g, "ex2.approx.f32 %s, %s;", D, A); break;
    case OP_LOG: {
        int t = nr(g, CR);
        E(g, "lg2.approx.f32 %s, %s;", rn(g, t), A);
        E(g, "mul.f32 %s, %s, 0f3F317218;", D, rn(g, t));
        break;
    }
    case OP_LOG2: E(g, "lg2.approx.f32 %s, %s;", D, A); break;
    case OP_SQRT: E(g, "sqrt.approx.ftz.f32 %s, %s;", D, A); break;
    case OP_RSQRT: E(g, "rsqrt.approx.ftz.f32 %s, %s;", D, A); break;
    case OP_SIN: E(g, "sin.approx.f32 %s, %s;", D, A); break;
    case OP_COS: E(g, "cos.approx.f32 %s, %s;", D, A); break;
    case OP_FLOOR: E(g, "cvt.rmi.f32.f32 %s, %s;", D, A); break;
    case OP_CEIL: E(g, "cvt.rpi.f32.f32 %s, %s;", D, A); break;
    case OP_ABS: E(g, "abs.f32 %s, %s;", D, A); break;
    case OP_NEG: E(g, "neg.f32 %s, %s;", D, A); break;
    case OP_TANH: {
        /* |x| < 0.4: odd Taylor series; else sign(x) * (1 - 2 / (exp(2|x|) + 1)) */
        static const float c[] = {1.0f, -1.0f / 3, 2.0f / 15, -17.0f / 315, 62.0f / 2835,
                                  -1382.0f / 155925};
        int ax = nr(g, CR), x2 = nr(g, CR), s = nr(g, CR), t = nr(g, CR), p = nr(g, CP);
        E(g, "abs.f32 %s, %s;", rn(g, ax), rn(g, a));
        E(g, "mul.f32 %s, %s, %s;", rn(g, x2), rn(g, a), rn(g, a));
        int ps = poly(g, x2, c, 6);
        E(g, "mul.f32 %s, %s, %s;", rn(g, s), rn(g, ps), rn(g, a));
        E(g, "mul.f32 %s, %s, 0f4038AA3B;", rn(g, t), rn(g, ax)); /* 2*log2(e) */
        int e = ex2(g, t);
        E(g, "add.f32 %s, %s, 0f3F800000;", rn(g, e), rn(g, e));
        E(g, "rcp.approx.f32 %s, %s;", rn(g, e), rn(g, e));
        E(g, "fma.rn.f32 %s, %s, 0fC0000000, 0f3F800000;", rn(g, e), rn(g, e));
        E(g, "copysign.f32 %s, %s, %s;", rn(g, e), rn(g, a), rn(g, e));
        E(g, "setp.lt.f32 %s, %s, 0f3ECCCCCD;", rn(g, p), rn(g, ax));
        E(g, "selp.f32 %s, %s, %s, %s;", rn(g, d), rn(g, s), rn(g, e), rn(g, p));
        break;
    }
    case OP_ERF: {
        /* |x| < 0.5: Taylor series; else Abramowitz-Stegun 7.1.26 (abs error 1.5e-7) */
        static const float c[] = {1.1283791671f, -0.3761263890f, 0.1128379167f, -0.0268661706f,
                                  0.0052239776f, -0.0008548327f};
        static const float as[] = {0.0f, 0.254829592f, -0.284496736f, 1.421413741f,
                                   -1.453152027f, 1.061405429f};
        int ax = nr(g, CR), x2 = nr(g, CR), s = nr(g, CR), t = nr(g, CR), q = nr(g, CR),
            p = nr(g, CP);
        E(g, "abs.f32 %s, %s;", rn(g, ax), rn(g, a));
        E(g, "mul.f32 %s, %s, %s;", rn(g, x2), rn(g, a), rn(g, a));
        int ps = poly(g, x2, c, 6);
        E(g, "mul.f32 %s, %s, %s;", rn(g, s), rn(g, ps), rn(g, a));
        E(g, "fma.rn.f32 %s, %s, 0f3EA7BA05, 0f3F800000;", rn(g, t), rn(g, ax)); /* 1+0.3275911x */
        E(g, "rcp.rn.f32 %s, %s;", rn(g, t), rn(g, t));
        int pa = poly(g, t, as, 6);
        E(g, "mul.f32 %s, %s, %s;", rn(g, q), rn(g, x2), rn(g, x2));
        E(g, "mul.f32 %s, %s, 0fBFB8AA3B;", rn(g, q), rn(g, x2)); /* -x^2 log2 e */
        int e = ex2(g, q);
        E(g, "mul.f32 %s, %s, %s;", rn(g, e), rn(g, e), rn(g, pa));
        E(g, "sub.f32 %s, 0f3F800000, %s;", rn(g, e), rn(g, e));
        E(g, "copysign.f32 %s, %s, %s;", rn(g, e), rn(g, a), rn(g, e));
        E(g, "setp.lt.f32 %s, %s, 0f3F000000;", rn(g, p), rn(g, ax));
        E(g, "selp.f32 %s, %s, %s, %s;", rn(g, d), rn(g, s), rn(g, e), rn(g, p));
        break;
    }
    default: unsupported(g, op_names[op]);
    }
    return d;
}

static int unop(G *g, int op, int dt, int a) {
    if (op == OP_NOT) {
        int d = nr(g, dcls(dt));
        if (dt == DT_I1) E(g, "not.pred %s, %s;", rn(g, d), rn(g, a));
        else {
            E(g, "not.%s %s, %s;", bty(dcls(dt)), rn(g, d), rn(g, a));
            if (is_small(dt)) normalize(g, d, dt);
        }
        return d;
    }
    if (dt_is_int(dt)) {
        int d = nr(g, dcls(dt));
        if (dt == DT_I1) { mov(g, d, a); return d; }
        if (op == OP_NEG) E(g, "neg.%s %s, %s;", dcls(dt) == CD ? "s64" : "s32", rn(g, d), rn(g, a));
        else if (op == OP_ABS) {
            if (dt_is_signed(dt)) E(g, "abs.%s %s, %s;", dcls(dt) == CD ? "s64" : "s32", rn(g, d), rn(g, a));
            else mov(g, d, a);
        } else unsupported(g, op_names[op]);
        if (is_small(dt)) normalize(g, d, dt);
        return d;
    }
    if (dt_is_fp8(dt)) return fp8_down(g, unop_f32(g, op, fp8_up(g, a, dt)), dt, false);
    if (is_half(dt)) {
        int d = nr(g, CH);
        if (op == OP_NEG) { E(g, "xor.b16 %s, %s, 0x8000;", rn(g, d), rn(g, a)); return d; }
        if (op == OP_ABS) { E(g, "and.b16 %s, %s, 0x7FFF;", rn(g, d), rn(g, a)); return d; }
        return down(g, unop_f32(g, op, up(g, a, dt)), dt, false);
    }
    if (dt == DT_FP64) {
        int d = nr(g, CD);
        const char *D = rn(g, d), *A = rn(g, a);
        switch (op) {
        case OP_NEG: E(g, "neg.f64 %s, %s;", D, A); break;
        case OP_ABS: E(g, "abs.f64 %s, %s;", D, A); break;
        case OP_SQRT: E(g, "sqrt.rn.f64 %s, %s;", D, A); break;
        case OP_RSQRT: {
            int t = nr(g, CD);
            E(g, "sqrt.rn.f64 %s, %s;", rn(g, t), A);
            E(g, "rcp.rn.f64 %s, %s;", D, rn(g, t));
            break;
        }
        case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SIN: case OP_COS:
        case OP_TANH: case OP_ERF:
            return unop_f64_math(g, op, a);
        case OP_FLOOR: E(g, "cvt.rmi.f64.f64 %s, %s;", D, A); break;
        case OP_CEIL: E(g, "cvt.rpi.f64.f64 %s, %s;", D, A); break;
        default: {
            char what[64];
            snprintf(what, sizeof what, "%s on fp64", op_names[op]);
            unsupported(g, what);
        }
        }
        return d;
    }
    return unop_f32(g, op, a);
}

int cast1(G *g, int r, int from, int to, bool rz) {
    if (from == to) return r;
    if (dt_is_fp8(from) || dt_is_fp8(to)) return cast_fp8(g, r, from, to, rz);
    if (from == DT_PTR || to == DT_PTR) {
        if (dcls(from) == CD && dcls(to) == CD) return r;
        unsupported(g, "a pointer cast of this width");
    }
    if (to == DT_I1) {
        int d = nr(g, CP);
        if (is_half(from)) { r = up(g, r, from); from = DT_FP32; }
        if (from == DT_FP32) E(g, "setp.neu.f32 %s, %s, 0f00000000;", rn(g, d), rn(g, r));
        else if (from == DT_FP64) E(g, "setp.neu.f64 %s, %s, 0d0000000000000000;", rn(g, d), rn(g, r));
        else E(g, "setp.ne.%s %s, %s, 0;", dcls(from) == CD ? "b64" : "b32", rn(g, d), rn(g, r));
        return d;
    }
    if (from == DT_I1) {
        int d = nr(g, dcls(to));
        switch (to) {
        case DT_FP16: E(g, "selp.b16 %s, 0x3C00, 0x0000, %s;", rn(g, d), rn(g, r)); break;
        case DT_BF16: E(g, "selp.b16 %s, 0x3F80, 0x0000, %s;", rn(g, d), rn(g, r)); break;
        case DT_FP32: E(g, "selp.f32 %s, 0f3F800000, 0f00000000, %s;", rn(g, d), rn(g, r)); break;
        case DT_FP64: E(g, "selp.f64 %s, 0d3FF0000000000000, 0d0000000000000000, %s;", rn(g, d), rn(g, r)); break;
        default: E(g, "selp.%s %s, 1, 0, %s;", dcls(to) == CD ? "u64" : "u32", rn(g, d), rn(g, r));
        }
        return d;
    }
    if (dt_is_int(from) && dt_is_int(to)) {
        int fc = dcls(from), tcl = dcls(to);
        int d = nr(g, tcl);
        if (fc == CR && tcl == CD) E(g, "cvt.%s.%s %s, %s;", dt_is_signed(from) ? "s64" : "u64",
                                     dt_is_signed(from) ? "s32" : "u32", rn(g, d), rn(g, r));
        else if (fc == CD && tcl == CR) E(g, "cvt.u32.u64 %s, %s;", rn(g, d), rn(g, r));
        else mov(g, d, r);
        if (is_small(to)) normalize(g, d, to);
        return d;
    }
    if (dt_is_int(from)) { /* int -> float */
        const char *ft = ity(from);
        if (to == DT_FP32 || to == DT_FP64) {
            int d = nr(g, to == DT_FP64 ? CD : CR);
            E(g, "cvt.rn.%s.%s %s, %s;", to == DT_FP64 ? "f64" : "f32", ft, rn(g, d), rn(g, r));
            return d;
        }
        int f = nr(g, CR);
        E(g, "cvt.rn.f32.%s %s, %s;", ft, rn(g, f), rn(g, r));
        return down(g, f, to, rz);
    }
    if (dt_is_int(to)) { /* float -> int, truncating */
        if (is_half(from)) { r = up(g, r, from); from = DT_FP32; }
        int d = nr(g, dcls(to));
        const char *tt = dcls(to) == CD ? (dt_is_signed(to) ? "s64" : "u64")
                                        : (dt_is_signed(to) ? "s32" : "u32");
        E(g, "cvt.rzi.%s.%s %s, %s;", tt, from == DT_FP64 ? "f64" : "f32", rn(g, d), rn(g, r));
        if (is_small(to)) normalize(g, d, to);
        if (from == DT_FP64 && (to == DT_I16 || to == DT_U16)) {
            /* NaN: 1 << 15, as Triton's cvt.rzi.s16/u16.f64 gives (the 32-bit one's low half is 0) */
            int p = nr(g, CP);
            E(g, "setp.nan.f64 %s, %s, %s;", rn(g, p), rn(g, r), rn(g, r));
            E(g, "@%s mov.b32 %s, %s;", rn(g, p), rn(g, d), to == DT_I16 ? "0xFFFF8000" : "0x8000");
        }
        return d;
    }
    /* float -> float */
    if (is_half(from)) { r = up(g, r, from); from = DT_FP32; if (to == DT_FP32) return r; }
    if (from == DT_FP64 && to != DT_FP64) {
        int d = nr(g, CR);
        E(g, "cvt.%s.f32.f64 %s, %s;", rz ? "rz" : "rn", rn(g, d), rn(g, r));
        if (to == DT_FP32) return d;
        return down(g, d, to, rz);
    }
    if (to == DT_FP64) {
        int d = nr(g, CD);
        E(g, "cvt.f64.f32 %s, %s;", rn(g, d), rn(g, r));
        return d;
    }
    return down(g, r, to, rz);
}

static int bitcast1(G *g, int r, int from, int to) {
    int fc = dcls(from), tcl = dcls(to);
    if (fc == tcl && !is_small(to) && !dt_is_fp8(to)) return r;
    int d = nr(g, tcl);
    if (fc == CH && tcl == CR) E(g, "cvt.%s.u16 %s, %s;", to == DT_I16 ? "s32" : "u32", rn(g, d), rn(g, r));
    else if (fc == CR && tcl == CH) E(g, "cvt.u16.u32 %s, %s;", rn(g, d), rn(g, r));
    else if (fc == tcl) { mov(g, d, r); normalize(g, d, dt_is_fp8(to) ? DT_U8 : to); }
    else unsupported(g, "bitcast between these types");
    return d;
}

int select1(G *g, int c, int a, int b) {
    int cls = RCLS(a);
    int d = nr(g, cls);
    if (cls == CP) {
        int t1 = nr(g, CP), t2 = nr(g, CP);
        E(g, "and.pred %s, %s, %s;", rn(g, t1), rn(g, c), rn(g, a));
        E(g, "and.pred %s, !%s, %s;", rn(g, t2), rn(g, c), rn(g, b));
        E(g, "or.pred %s, %s, %s;", rn(g, d), rn(g, t1), rn(g, t2));
    } else {
        E(g, "selp.%s %s, %s, %s, %s;", bty(cls), rn(g, d), rn(g, a), rn(g, b), rn(g, c));
    }
    return d;
}

static int fma1(G *g, int dt, int a, int b, int c) {
    if (dt_is_fp8(dt)) {
        /* fp8_up emits: never inside E's arguments (rn's buffers rotate) */
        int f = nr(g, CR), fa = fp8_up(g, a, dt), fb = fp8_up(g, b, dt), fc = fp8_up(g, c, dt);
        E(g, "fma.rn.f32 %s, %s, %s, %s;", rn(g, f), rn(g, fa), rn(g, fb), rn(g, fc));
        return fp8_down(g, f, dt, false);
    }
    int d = nr(g, dcls(dt));
    switch (dt) {
    case DT_FP32: E(g, "fma.rn.f32 %s, %s, %s, %s;", rn(g, d), rn(g, a), rn(g, b), rn(g, c)); break;
    case DT_FP64: E(g, "fma.rn.f64 %s, %s, %s, %s;", rn(g, d), rn(g, a), rn(g, b), rn(g, c)); break;
    case DT_FP16: E(g, "fma.rn.f16 %s, %s, %s, %s;", rn(g, d), rn(g, a), rn(g, b), rn(g, c)); break;
    case DT_BF16:
        need(g, TF_BF16);
        E(g, "fma.rn.bf16 %s, %s, %s, %s;", rn(g, d), rn(g, a), rn(g, b), rn(g, c));
        break;
    default:
        E(g, "mad.lo.%s %s, %s, %s, %s;", ity(dt), rn(g, d), rn(g, a), rn(g, b), rn(g, c));
        if (is_small(dt)) normalize(g, d, dt);
    }
    return d;
}

static int addptr1(G *g, int esz, int odt, int p, int o) {
    int d = nr(g, CD);
    if (dcls(odt) == CD) {
        E(g, "mad.lo.s64 %s, %s, %d, %s;", rn(g, d), rn(g, o), esz, rn(g, p));
    } else {
        int t = nr(g, CD);
        if (odt == DT_I1) o = pred_to_u32(g, o);
        E(g, "mul.wide.%s %s, %s, %d;", dt_is_signed(odt) ? "s32" : "u32", rn(g, t), rn(g, o), esz);
        E(g, "add.s64 %s, %s, %s;", rn(g, d), rn(g, p), rn(g, t));
    }
    return d;
}

int offset_scalar(G *g, int o) {
    while (g->f->types[o].rank > 0) {
        const Inst *d = g->def[o];
        if (!d || (d->op != OP_SPLAT && d->op != OP_BROADCAST && d->op != OP_EXPAND_DIMS)) return -1;
        o = d->args[0];
    }
    return o;
}

static void lower_elementwise(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    int v = in->res[0];
    int L = res_lay(g, v);
    int n = nlay(g, L);
    int *A[3] = {0};
    for (int k = 0; k < in->nargs && k < 3; k++)
        if (in->args[k] >= 0) A[k] = get(g, in->args[k], L);
    int rdt = f->types[v].dt;
    int adt = in->nargs ? f->types[in->args[0]].dt : rdt;
    int *out = alloc_regs(g, n);
    for (int r = 0; r < n; r++) {
        /* a register equal to an earlier one's operands gives the same result */
        int same = -1;
        for (int q = r - 1; q >= 0 && q >= r - 64; q--) {
            bool eq = true;
            for (int k = 0; k < in->nargs && k < 3; k++) eq &= A[k][q] == A[k][r];
            if (eq) { same = q; break; }
        }
        if (same >= 0) { out[r] = out[same]; continue; }
        int x;
        switch (in->op) {
        case OP_CMP: x = cmpop(g, in->attr.kind, adt, A[0][r], A[1][r]); break;
        case OP_FMA: x = fma1(g, rdt, A[0][r], A[1][r], A[2][r]); break;
        case OP_WHERE: x = select1(g, A[0][r], A[1][r], A[2][r]); break;
        case OP_ADDPTR: {
            int esz = dt_size(f->types[v].elem), s = offset_scalar(g, in->args[1]);
            if (s >= 0 && g->step[s] && g->step_esz[s] == esz) {
                x = nr(g, CD);
                E(g, "add.s64 %s, %s, %s;", rn(g, x), rn(g, A[0][r]), rn(g, g->step[s]));
            } else {
                x = addptr1(g, esz, f->types[in->args[1]].dt, A[0][r], A[1][r]);
            }
            break;
        }
        case OP_CAST: x = cast1(g, A[0][r], adt, rdt, in->attr.kind == 1); break;
        case OP_BITCAST: x = bitcast1(g, A[0][r], adt, rdt); break;
        case OP_NEG: case OP_NOT: case OP_ABS: case OP_EXP: case OP_EXP2: case OP_LOG:
        case OP_LOG2: case OP_SQRT: case OP_RSQRT: case OP_SIN: case OP_COS: case OP_FLOOR:
        case OP_CEIL: case OP_ERF: case OP_TANH:
            x = unop(g, in->op, rdt, A[0][r]);
            break;
        case OP_MATH1: x = math1(g, in->attr.kind, rdt, A[0][r]); break;
        case OP_MATH2: x = math2(g, in->attr.kind, rdt, A[0][r], A[1][r]); break;
        default: x = binop(g, in, rdt, A[0][r], A[1][r]); break;
        }
        out[r] = x;
    }
    set_val(g, v, L, out);
}

/* ---- shape ops ------------------------------------------------------------------------ */

static void lower_shape(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    int v = in->res[0], x = in->args[0];
    if (g->piped[v]) return;   /* a pipelined load's transpose, read from shared memory */
    int L = res_lay(g, v);
    Layout R = g->lays[L].L, o;
    int8_t regmap[LMAXB];
    switch (in->op) {
    case OP_SPLAT: {
        int n = nlay(g, L);
        int *out = alloc_regs(g, n);
        for (int i = 0; i < n; i++) out[i] = g->vr[x][0];
        set_val(g, v, L, out);
        return;
    }
    case OP_EXPAND_DIMS:
        lay_slice(&R, in->attr.axis, &o, NULL);
        set_val(g, v, L, get(g, x, lay_id(g, &o)));
        return;
    case OP_PERMUTE:
        lay_permute(&R, in->attr.perm, true, &o);
        set_val(g, v, L, get(g, x, lay_id(g, &o)));
        return;
    case OP_RESHAPE: {
        Type at = f->types[x];
        lay_reshape(&R, at.rank, at.shape, &o);
        set_val(g, v, L, get(g, x, lay_id(g, &o)));
        return;
    }
    case OP_BROADCAST: {
        lay_restrict(&R, f->types[x].shape, &o, regmap);
        int *src = get(g, x, lay_id(g, &o));
        int n = nlay(g, L);
        int *out = alloc_regs(g, n);
        for (int r = 0; r < n; r++) {
            int s = 0;
            for (int i = 0; i < R.nreg; i++)
                if ((r >> i & 1) && regmap[i] >= 0) s |= 1 << regmap[i];
            out[r] = src[s];
        }
        set_val(g, v, L, out);
        return;
    }
    default: break;
    }
}

/* ---- dot ------------------------------------------------------------------------------ */

static void lower_dot(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    int v = in->res[0];
    int rdt = f->types[v].dt, adt = f->types[in->args[0]].dt;
    int L = res_lay(g, v);
    if (g->lays[L].mma && mma_lay(g, in) == L) {   /* not an FMA dot whose layout is alike */
        lower_dot_mma(g, in, L);
        return;
    }
    Layout R = g->lays[L].L, LA, LB;
    Type at = f->types[in->args[0]];
    int K = at.shape[at.rank - 1];
    int8_t ma[LMAXB], mb[LMAXB];
    lay_dot_a(&R, K, &LA, ma);
    lay_dot_b(&R, K, &LB, mb);
    int la = lay_id(g, &LA), lb = lay_id(g, &LB);
    int *A = get(g, in->args[0], la), *B = get(g, in->args[1], lb);
    int *C = get(g, in->args[2], L);
    int na = nlay(g, la), nb = nlay(g, lb);
    /* as the interpreter: a sequential chain over k from 0 (fp32 FMA for float inputs, fp64
     * for fp64, wrapping i32 for ints), then + acc, then rounded to the result dtype */
    int cdt = adt == DT_FP64 ? DT_FP64 : dt_is_float(adt) ? DT_FP32 : DT_I32;
    bool tf32 = in->attr.kind == DOT_TF32 && adt == DT_FP32;
    int *Ac = alloc_regs(g, na), *Bc = alloc_regs(g, nb);
    for (int i = 0; i < na; i++) Ac[i] = cdt == adt ? A[i] : cast1(g, A[i], adt, cdt, false);
    int bdt = f->types[in->args[1]].dt; /* differs from adt for two fp8 types */
    for (int i = 0; i < nb; i++) Bc[i] = cdt == bdt ? B[i] : cast1(g, B[i], bdt, cdt, false);
    if (tf32) {
        for (int i = 0; i < na; i++) {
            int t = nr(g, CR);
            E(g, "cvt.rna.tf32.f32 %s, %s;", rn(g, t), rn(g, Ac[i]));
            Ac[i] = t;
        }
        for (int i = 0; i < nb; i++) {
            int t = nr(g, CR);
            E(g, "cvt.rna.tf32.f32 %s, %s;", rn(g, t), rn(g, Bc[i]));
            Bc[i] = t;
        }
    }
    int n = nlay(g, L);
    int *out = alloc_regs(g, n);
    int zero = konst(g, cdt, 0, 0.0);
    Inst addi = {0};
    addi.op = OP_ADD;
    for (int r = 0; r < n; r++) {
        int ai = 0, bi = 0;
        for (int i = 0; i < R.nreg; i++) {
            if (!(r >> i & 1)) continue;
            if (ma[i] >= 0) ai |= 1 << ma[i];
            if (mb[i] >= 0) bi |= 1 << mb[i];
        }
        int s = zero;
        for (int k = 0; k < K; k++) s = fma1(g, cdt, Ac[ai | k], Bc[bi | k], s);
        int acc = rdt == cdt ? C[r] : cast1(g, C[r], rdt, cdt, false);
        int sum = binop(g, &addi, cdt, s, acc);
        out[r] = rdt == cdt ? sum : cast1(g, sum, cdt, rdt, false);
    }
    set_val(g, v, L, out);
}

/* ---- control flow --------------------------------------------------------------------- */

static void lower_region(G *g, const Region *r);

static int *alloc_like(G *g, int lay, int dt) {
    int n = nlay(g, lay);
    int *regs = alloc_regs(g, n);
    for (int i = 0; i < n; i++) regs[i] = nr(g, dcls(dt));
    return regs;
}

/* dst[i] <- values (parallel copy through temporaries) */
void par_copy(G *g, int **dst, int **src, const int *ns, int count) {
    int total = 0;
    for (int j = 0; j < count; j++) total += ns[j];
    int *tmp = alloc_regs(g, total ? total : 1);
    int t = 0;
    for (int j = 0; j < count; j++)
        for (int i = 0; i < ns[j]; i++, t++) {
            bool clash = false;
            for (int k = 0; k < count && !clash; k++)
                for (int q = 0; q < ns[k] && !clash; q++)
                    clash = dst[k][q] == src[j][i] && !(k == j && q == i);
            if (clash) {
                tmp[t] = nr(g, RCLS(src[j][i]));
                mov(g, tmp[t], src[j][i]);
            } else tmp[t] = src[j][i];
        }
    t = 0;
    for (int j = 0; j < count; j++)
        for (int i = 0; i < ns[j]; i++, t++) mov(g, dst[j][i], tmp[t]);
}

static void yield_into(G *g, const Inst *y, int **dst, const int *lays, int count, int first) {
    int **src = arena_alloc(g->a, sizeof(int *) * (size_t)(count ? count : 1));
    int *ns = arena_alloc(g->a, sizeof(int) * (size_t)(count ? count : 1));
    for (int j = 0; j < count; j++) {
        src[j] = get(g, y->args[first + j], lays[j]);
        ns[j] = nlay(g, lays[j]);
    }
    par_copy(g, dst, src, ns, count);
}

static void lower_if(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    int c = g->vr[in->args[0]][0];
    int n = in->nres;
    int **dst = arena_alloc(g->a, sizeof(int *) * (size_t)(n ? n : 1));
    int *lays = arena_alloc(g->a, sizeof(int) * (size_t)(n ? n : 1));
    for (int j = 0; j < n; j++) {
        lays[j] = res_lay(g, in->res[j]);
        dst[j] = alloc_like(g, lays[j], f->types[in->res[j]].dt);
    }
    int lelse = ++g->labels, lend = ++g->labels;
    E(g, "@!%s bra $L%d;", rn(g, c), lelse);
    for (int k = 0; k < 2; k++) {
        const Region *rg = in->regions[k];
        scope_enter(g);
        if (rg) {
            lower_region(g, rg);
            const Inst *y = rg->ninsts ? rg->insts[rg->ninsts - 1] : NULL;
            if (y && y->op == OP_YIELD && n) yield_into(g, y, dst, lays, n, 0);
        }
        scope_leave(g);
        if (k == 0) {
            E(g, "bra.uni $L%d;", lend);
            buf_printf(&g->body, "$L%d:\n", lelse);
        }
    }
    buf_printf(&g->body, "$L%d:\n", lend);
    for (int j = 0; j < n; j++) set_val(g, in->res[j], lays[j], dst[j]);
}

/* The pointer steps of a loop body (and the bodies within): an addptr whose offset
 * broadcasts a scalar computed before the loop gets that scalar's byte offset computed here,
 * once, and the adds in the loop take that loop-invariant 64-bit register. ptxas may still
 * fold the multiply back into each add (IMAD.WIDE, around which the matmul loop stalls:
 * bench/results/gpu-2026-12-02.md §9); the pipeliner's ptrbase builds on these registers.
 * Pushes the scalars given one on `set`. */
static void loop_steps(G *g, const Region *r, int **set, int *n, int *cap) {
    const IrFunc *f = g->f;
    for (int i = 0; i < r->ninsts; i++) {
        const Inst *in = r->insts[i];
        for (int k = 0; k < 2; k++)
            if (in->regions[k]) loop_steps(g, in->regions[k], set, n, cap);
        if (in->op != OP_ADDPTR) continue;
        int s = offset_scalar(g, in->args[1]), esz = dt_size(f->types[in->res[0]].elem);
        if (s < 0 || g->step[s] || !g->vr[s]) continue;   /* vr: lowered, so before the loop */
        int dt = f->types[s].dt;
        if (dt == DT_I1) continue;
        int o = g->vr[s][0], t = nr(g, CD);
        if (dcls(dt) == CD) E(g, "mul.lo.s64 %s, %s, %d;", rn(g, t), rn(g, o), esz);
        else E(g, "mul.wide.%s %s, %s, %d;", dt_is_signed(dt) ? "s32" : "u32", rn(g, t), rn(g, o), esz);
        g->step[s] = t;
        g->step_esz[s] = esz;
        ARENA_PUSH(g->a, *set, *n, *cap, s);
    }
}

static void lower_for(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    Region *body = in->regions[0];
    int ivv = body->params[0];
    int ivdt = f->types[ivv].dt;
    int lb = g->vr[in->args[0]][0], ub = g->vr[in->args[1]][0], st = g->vr[in->args[2]][0];
    int n = in->nres;
    int **dst = arena_alloc(g->a, sizeof(int *) * (size_t)(n ? n : 1));
    int **src = arena_alloc(g->a, sizeof(int *) * (size_t)(n ? n : 1));
    int *lays = arena_alloc(g->a, sizeof(int) * (size_t)(n ? n : 1));
    int *ns = arena_alloc(g->a, sizeof(int) * (size_t)(n ? n : 1));
    for (int j = 0; j < n; j++) {
        lays[j] = res_lay(g, in->res[j]);
        dst[j] = alloc_like(g, lays[j], f->types[in->res[j]].dt);
        src[j] = get(g, in->args[3 + j], lays[j]);
        ns[j] = nlay(g, lays[j]);
    }
    par_copy(g, dst, src, ns, n);
    int *steps = NULL, nsteps = 0, capsteps = 0;
    loop_steps(g, body, &steps, &nsteps, &capsteps);
    Pipe *pp = NULL;
    bool piped = pipe_plan(g, in, &pp);
    if (piped) {
        for (int j = 0; j < n; j++) set_val(g, body->params[j + 1], lays[j], dst[j]);
        pipe_prologue(g, pp, in, lb, ub, st, ivdt);
    }
    int iv = nr(g, dcls(ivdt));
    mov(g, iv, lb);
    int *ivr = alloc_regs(g, 1);
    ivr[0] = iv;
    set_val(g, ivv, 0, ivr);
    for (int j = 0; j < n; j++) set_val(g, body->params[j + 1], lays[j], dst[j]);
    int lhead = ++g->labels, lend = ++g->labels;
    buf_printf(&g->body, "$L%d:\n", lhead);
    int p = nr(g, CP);
    E(g, "setp.ge.%s %s, %s, %s;", ity(ivdt), rn(g, p), rn(g, iv), rn(g, ub));
    E(g, "@%s bra $L%d;", rn(g, p), lend);
    scope_enter(g);
    if (piped) pipe_begin(g, pp, in);
    lower_region(g, body);
    if (piped) pipe_end(g, pp, in, iv, ub, st, ivdt);
    const Inst *y = body->ninsts ? body->insts[body->ninsts - 1] : NULL;
    if (y && y->op == OP_YIELD && n) yield_into(g, y, dst, lays, n, 0);
    scope_leave(g);
    E(g, "add.%s %s, %s, %s;", ity(ivdt), rn(g, iv), rn(g, iv), rn(g, st));
    E(g, "bra.uni $L%d;", lhead);
    buf_printf(&g->body, "$L%d:\n", lend);
    if (piped) pipe_drain(g, pp);
    for (int j = 0; j < n; j++) set_val(g, in->res[j], lays[j], dst[j]);
    for (int j = 0; j < nsteps; j++) g->step[steps[j]] = 0;   /* defined only on this path */
}

static void lower_while(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    Region *bef = in->regions[0], *aft = in->regions[1];
    int nc = bef->nparams, n = in->nres;
    int **cdst = arena_alloc(g->a, sizeof(int *) * (size_t)(nc ? nc : 1));
    int **src = arena_alloc(g->a, sizeof(int *) * (size_t)(nc ? nc : 1));
    int *clays = arena_alloc(g->a, sizeof(int) * (size_t)(nc ? nc : 1));
    int *ns = arena_alloc(g->a, sizeof(int) * (size_t)(nc ? nc : 1));
    for (int k = 0; k < nc; k++) {
        int p = bef->params[k];
        clays[k] = res_lay(g, p);
        cdst[k] = alloc_like(g, clays[k], f->types[p].dt);
        src[k] = get(g, in->args[k], clays[k]);
        ns[k] = nlay(g, clays[k]);
    }
    par_copy(g, cdst, src, ns, nc);
    for (int k = 0; k < nc; k++) set_val(g, bef->params[k], clays[k], cdst[k]);
    int **rdst = arena_alloc(g->a, sizeof(int *) * (size_t)(n ? n : 1));
    int *rlays = arena_alloc(g->a, sizeof(int) * (size_t)(n ? n : 1));
    for (int j = 0; j < n; j++) {
        rlays[j] = res_lay(g, in->res[j]);
        rdst[j] = alloc_like(g, rlays[j], f->types[in->res[j]].dt);
    }
    int lhead = ++g->labels, lend = ++g->labels;
    buf_printf(&g->body, "$L%d:\n", lhead);
    scope_enter(g);
    lower_region(g, bef);
    const Inst *c = bef->ninsts ? bef->insts[bef->ninsts - 1] : NULL;
    if (!c || c->op != OP_CONDITION) unsupported(g, "a while loop without a condition");
    int cp = g->vr[c->args[0]][0];
    if (n) yield_into(g, c, rdst, rlays, n, 1);
    scope_leave(g);
    E(g, "@!%s bra $L%d;", rn(g, cp), lend);
    for (int j = 0; j < n; j++) set_val(g, aft->params[j], rlays[j], rdst[j]);
    scope_enter(g);
    lower_region(g, aft);
    const Inst *y = aft->ninsts ? aft->insts[aft->ninsts - 1] : NULL;
    if (y && y->op == OP_YIELD && nc) yield_into(g, y, cdst, clays, nc, 0);
    scope_leave(g);
    E(g, "bra.uni $L%d;", lhead);
    buf_printf(&g->body, "$L%d:\n", lend);
    for (int j = 0; j < n; j++) set_val(g, in->res[j], rlays[j], rdst[j]);
}

/* ---- instructions ----------------------------------------------------------------------- */

void lower_inst(G *g, const Inst *in) {
    const IrFunc *f = g->f;
    g->cur = in;
    for (int k = 0; k < in->nres; k++) {
        Type t = f->types[in->res[k]];
        if (!shape_pow2(&t)) unsupported(g, "tiles whose dimensions are not powers of two");
    }
    if (in->op == OP_ADD && g->fold_alias[in->res[0]] >= 0) {   /* the folded dot's result */
        int d = g->fold_alias[in->res[0]], n = nlay(g, g->vlay[d]);
        int *out = alloc_regs(g, n);
        memcpy(out, g->vr[d], sizeof(int) * (size_t)n);
        set_val(g, in->res[0], g->vlay[d], out);
        return;
    }
    switch (in->op) {
    case OP_CONST: {
        int v = in->res[0];
        int L = res_lay(g, v);
        int r = konst(g, f->types[v].dt, in->attr.i, in->attr.f);
        int n = nlay(g, L);
        int *out = alloc_regs(g, n);
        for (int i = 0; i < n; i++) out[i] = r;
        set_val(g, v, L, out);
        return;
    }
    case OP_PROGRAM_ID: case OP_NUM_PROGRAMS: {
        int *out = alloc_regs(g, 1);
        out[0] = nr(g, CR);
        E(g, "mov.u32 %s, %%%s.%c;", rn(g, out[0]), in->op == OP_PROGRAM_ID ? "ctaid" : "nctaid",
          "xyz"[in->attr.axis < 0 || in->attr.axis > 2 ? 0 : in->attr.axis]);
        set_val(g, in->res[0], 0, out);
        return;
    }
    case OP_ARANGE: {
        int v = in->res[0];
        int L = res_lay(g, v);
        int *out = alloc_regs(g, nlay(g, L));
        emit_arange(g, in, L, out);
        set_val(g, v, L, out);
        return;
    }
    case OP_SPLAT: case OP_BROADCAST: case OP_EXPAND_DIMS: case OP_RESHAPE: case OP_PERMUTE:
        lower_shape(g, in);
        return;
    case OP_REDUCE: lower_reduce(g, in); return;
    case OP_LOAD: lower_load(g, in); return;
    case OP_STORE: lower_store(g, in); return;
    case OP_ATOMIC: case OP_ATOMIC_CAS: lower_atomic(g, in); return;
    case OP_DOT: {
        int x = g->fold_acc[in->res[0]];
        if (x < 0) { lower_dot(g, in); return; }
        Inst c = *in;   /* the same dot, accumulating into x (mma_fold) */
        int args[3] = {in->args[0], in->args[1], x};
        c.args = args;
        lower_dot(g, &c);
        return;
    }
    case OP_IF: lower_if(g, in); return;
    case OP_FOR: lower_for(g, in); return;
    case OP_WHILE: lower_while(g, in); return;
    case OP_YIELD: case OP_CONDITION: return;  /* handled by the parent */
    case OP_RETURN: E(g, "ret;"); return;
    case OP_BARRIER: E(g, "bar.sync 0;"); return;
    case OP_ASSERT: {
        int x = in->args[0];
        int n = nlay(g, g->vlay[x]);
        for (int r = 0; r < n; r++) E(g, "@!%s trap;", rn(g, g->vr[x][r]));
        return;
    }
    case OP_PRINT: lower_print(g, in); return;
    default:
        if (in->nres == 1) { lower_elementwise(g, in); return; }
        unsupported(g, op_names[in->op]);
    }
}

static void lower_region(G *g, const Region *r) {
    for (int i = 0; i < r->ninsts; i++) lower_inst(g, r->insts[i]);
}

/* ---- the module ------------------------------------------------------------------------- */

static const char *param_ty(int dt) {
    switch (dt) {
    case DT_PTR: return "u64";
    case DT_I1: case DT_U8: return "u8";
    case DT_I8: return "s8";
    case DT_I16: return "s16";
    case DT_U16: return "u16";
    case DT_I32: return "s32";
    case DT_U32: return "u32";
    case DT_I64: return "s64";
    case DT_U64: return "u64";
    case DT_FP16: case DT_BF16: return "b16";
    case DT_FP32: return "f32";
    default: return "f64";
    }
}

bool gpu_fp_fusion(void) {
    const char *s = getenv("TRITON_DEFAULT_FP_FUSION");
    return !s || strcmp(s, "0") != 0;
}

unsigned gpu_unverified(void) {
    static const char *const names[] = {"tma1d", "stepapart", "ptrbase"};   /* bit k: names[k] */
    const char *s = getenv("TRITONC_GPU_UNVERIFIED");
    if (!s || !*s || strcmp(s, "0") == 0) return 0;
    if (strcmp(s, "1") == 0 || strcmp(s, "all") == 0) return GPU_UNV_ALL;
    unsigned mask = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
            if (strlen(names[k]) == n && strncmp(s, names[k], n) == 0) mask |= 1u << k;
        s += n + (s[n] == ',');
    }
    return mask;
}

/* What gpu_compile gives up, one by one, when shared memory runs past the limit: the
 * loop-invariant dot operands staged once (mma.c), and the room taken for speed (lean). */
enum { SPARE_INV = 1, SPARE_ROOM = 2 };

/* gpu_compile without what `spare` names; *spent: of those, what this compile used */
static tc_status compile_kernel(const IrFunc *f, const tc_target *target, int num_warps_opt, int num_stages,
                                int max_shared, unsigned spare, unsigned *spent, GpuKernel *out, Err *e) {
    memset(out, 0, sizeof *out);
    /* not changed after the setjmp below (ERR_TRY) */
    const int num_warps = num_warps_opt > 0 ? num_warps_opt : 4;
    if (num_warps & (num_warps - 1) || num_warps > 32) {
        err_set(e, TC_ERR_ARG, (SrcLoc){0}, "num_warps must be a power of two between 1 and 32, got %d",
                num_warps);
        return e->code;
    }
    int arch = target && target->arch ? target->arch : 80;
    if (arch < 80) {
        err_set(e, TC_ERR_UNSUPPORTED, (SrcLoc){0},
                "the GPU backend needs sm_80 or newer, the target is sm_%d", arch);
        return e->code;
    }
    tc_target tg;
    if (target && target->arch) tg = *target;
    else target_of_arch(arch, &tg);
    char why[256];
    const TargetInfo *ti = target_lookup(&tg, why, sizeof why);
    if (!ti) {
        err_set(e, TC_ERR_UNSUPPORTED, (SrcLoc){0}, "%s", why);
        return e->code;
    }
    Arena arena;
    arena_init(&arena, e);
    G *g = NULL;
    jmp_buf jb;
    jmp_buf *saved = e->jump;
    volatile tc_status st = TC_OK;
    G gs;
    memset(&gs, 0, sizeof gs);
    g = &gs;
    if (ERR_TRY(e, jb)) {
        st = e->code;
        goto done;
    }
    g->f = f;
    g->e = e;
    g->a = &arena;
    g->nw = num_warps;
    g->nwbits = lg2i(num_warps);
    g->ti = ti;
    g->arch_a = tg.arch_suffix_a;
    int nv = f->nvalues;
    g->pref = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->vlay = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->vr = arena_alloc(&arena, sizeof(int *) * (size_t)(nv + 1));
    g->ax = arena_alloc(&arena, sizeof(AxInfo) * (size_t)(nv + 1));
    g->def = arena_alloc(&arena, sizeof(Inst *) * (size_t)(nv + 1));
    g->uses = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->piped = arena_alloc(&arena, (size_t)(nv + 1));
    g->relow = arena_alloc(&arena, (size_t)(nv + 1));
    g->step = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->step_esz = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->fold_acc = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->fold_alias = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    for (int i = 0; i <= nv; i++) g->fold_acc[i] = g->fold_alias[i] = -1;
    g->smop_base = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->smop_off = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->smop_kmaj = arena_alloc(&arena, (size_t)(nv + 1));
    memset(g->smop_kmaj, 0, (size_t)(nv + 1));
    memset(g->piped, 0, (size_t)(nv + 1));
    memset(g->relow, 0, (size_t)(nv + 1));
    memset(g->smop_base, 0, sizeof(int) * (size_t)(nv + 1));
    g->num_stages = num_stages > 0 ? num_stages : 3;
    const char *nomma3 = getenv("DISABLE_MMA_V3");   /* Triton's switch; in the cache key */
    g->no_mma_v3 = nomma3 && *nomma3 && strcmp(nomma3, "0") != 0;
    g->fp_fusion = gpu_fp_fusion();
    g->unverified = gpu_unverified();   /* in the cache key too */
    g->no_inv = spare & SPARE_INV;
    g->lean = spare & SPARE_ROOM;
    for (int i = 0; i < nv; i++) { g->pref[i] = -1; g->vlay[i] = -1; }
    Layout sc;
    lay_scalar(&sc, g->nwbits);
    lay_id(g, &sc); /* id 0 */
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].type.dt == DT_VOID) err_fail(e, TC_ERR_INTERNAL, (SrcLoc){0}, "void param");
    analyze(g);
    tma_plan(g);
    g->tid = nr(g, CR);
    g->smem = nr(g, CR);
    EP(g, "mov.u32 %s, %%tid.x;", rn(g, g->tid));
    EP(g, "mov.u32 %s, global_smem;", rn(g, g->smem));
    for (int i = 0; i < f->nparams; i++) {
        const IrParam *p = &f->params[i];
        int dt = p->type.dt;
        int *regs = alloc_regs(g, 1);
        if (dt == DT_I1) {
            int t = nr(g, CR);
            regs[0] = nr(g, CP);
            EP(g, "ld.param.u8 %s, [%s_param_%d];", rn(g, t), f->name, i);
            EP(g, "setp.ne.u32 %s, %s, 0;", rn(g, regs[0]), rn(g, t));
        } else {
            regs[0] = nr(g, dcls(dt));
            EP(g, "ld.param.%s %s, [%s_param_%d];", param_ty(dt), rn(g, regs[0]), f->name, i);
        }
        set_val(g, p->value, 0, regs);
    }
    lower_region(g, f->body);
    if (g->body.oom || g->pro.oom) err_fail(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory");
    int shared = (g->smem_bytes + 15) & ~15;
    if (g->ring && g->scratch_in_ring) {   /* the ring after the scratch area */
        int scratch = (g->smem_bytes + 1023) & ~1023;
        EP(g, "add.u32 %s, %s, %d;", rn(g, g->ring), rn(g, g->smem), scratch);
        shared = scratch + g->ring_bytes;
    } else if (g->ring) {   /* the scratch area reuses the ring's bytes before and after */
        EP(g, "mov.u32 %s, %s;", rn(g, g->ring), rn(g, g->smem));
        if (g->ring_bytes > shared) shared = g->ring_bytes;
    }
    shared = tma_finish(g, shared);
    *spent = (g->used_inv ? SPARE_INV : 0) | (g->used_roomy ? SPARE_ROOM : 0);
    int limit = max_shared > 0 ? max_shared : ti->smem_block;
    if (shared > limit) {
        err_set(e, TC_ERR_RESOURCES, (SrcLoc){0},
                "out of resource: shared memory, Required: %d, Hardware limit: %d. Reducing block "
                "sizes or `num_stages` may help.",
                shared, limit);
        st = e->code;
        goto done;
    }
    /* assemble the module */
    int ptx = target_ptx_version(ti, g->arch_a, g->feat, NULL);
    buf_printf(&g->text, "//\n// Generated by tritonc %s for %s (num_warps=%d)\n//\n\n", TRITONC_VERSION,
               f->name, num_warps);
    buf_printf(&g->text, ".version %d.%d\n.target %s%s\n.address_size 64\n\n", ptx / 10, ptx % 10,
               ti->name, g->arch_a ? "a" : "");
    if (g->loc_src) {   /* the file of the .loc lines (its path as the module was loaded) */
        buf_puts(&g->text, ".file 1 \"");
        for (const char *p = g->loc_src->path ? g->loc_src->path : "kernel.py"; *p; p++)
            buf_printf(&g->text, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p);
        buf_puts(&g->text, "\"\n\n");
    }
    buf_printf(&g->text, ".extern .shared .align %d .b8 global_smem[];\n\n", g->smem_align > 16 ? g->smem_align : 16);
    if (g->nstr)
        buf_puts(&g->text, ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 "
                           "vprintf_param_0,\n\t.param .b64 vprintf_param_1\n)\n;\n");
    if (g->glob.len) {   /* format strings; math.c's tables */
        buf_putn(&g->text, g->glob.s, g->glob.len);
        buf_puts(&g->text, "\n");
    }
    buf_printf(&g->text, ".visible .entry %s(", f->name);
    for (int i = 0; i < f->nparams; i++)
        buf_printf(&g->text, "%s\n\t.param .%s %s_param_%d", i ? "," : "", param_ty(f->params[i].type.dt),
                   f->name, i);
    tma_params(g, &g->text);
    /* tensor-core kernels hold large accumulators: without .minnctapersm ptxas may cap
     * registers for occupancy and spill them */
    buf_printf(&g->text, "\n)\n.maxntid %d, 1, 1\n%s{\n", num_warps * 32,
               g->feat & (TF_MMA | TF_WGMMA) ? ".minnctapersm 1\n" : "");
    static const char *const decl[] = {".pred %p", ".b16 %h", ".b32 %r", ".b64 %rd"};
    for (int c = 0; c < 4; c++)
        if (g->nregs[c]) buf_printf(&g->text, "\t.reg %s<%d>;\n", decl[c], g->nregs[c] + 1);
    if (g->prbuf) buf_printf(&g->text, "\t.local .align 8 .b8 __prbuf[%d];\n", g->prbuf);
    buf_puts(&g->text, "\n");
    /* the code without what nothing reads (src/gpu/ptxdce.c): ptxas's time goes down */
    buf_putn(&g->pro, g->body.s ? g->body.s : "", g->body.len);
    const char *dce = getenv("TRITONC_PTX_DCE");   /* 0: the whole lowering, for comparison */
    if (g->pro.oom || (!(dce && !strcmp(dce, "0")) && !ptx_dce(&g->pro, g->nregs)))
        err_fail(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory");
    buf_putn(&g->text, g->pro.s ? g->pro.s : "", g->pro.len);
    buf_puts(&g->text, "\tret;\n}\n");
    if (g->text.oom) err_fail(e, TC_ERR_NOMEM, (SrcLoc){0}, "out of memory");
    out->ptx = g->text.s;
    g->text.s = NULL;
    snprintf(out->name, sizeof out->name, "%s", f->name);
    out->threads = num_warps * 32;
    out->shared_bytes = shared;
    out->num_warps = num_warps;
    out->num_stages = num_stages;
done:
    e->jump = saved;
    buf_free(&gs.text);
    buf_free(&gs.glob);
    buf_free(&gs.body);
    buf_free(&gs.pro);
    arena_free(&arena);
    return st;
}

tc_status gpu_compile(const IrFunc *f, const tc_target *target, int num_warps, int num_stages, int max_shared,
                      GpuKernel *out, Err *e) {
    Err before = *e, first;
    unsigned spare = 0, spent = 0;
    tc_status st = compile_kernel(f, target, num_warps, num_stages, max_shared, spare, &spent, out, e);
    /* the padded conversions and the epilogue through shared memory, then loop-invariant
     * operands staged once, take shared memory of their own: where that is what crosses the
     * limit, the kernel does without, as before they existed */
    first = *e;
    while (st == TC_ERR_RESOURCES && (spent & ~spare)) {
        spare |= spent & ~spare & SPARE_ROOM ? SPARE_ROOM : SPARE_INV;
        *e = before;
        st = compile_kernel(f, target, num_warps, num_stages, max_shared, spare, &spent, out, e);
    }
    if (st == TC_ERR_RESOURCES) *e = first;   /* the first message: what the kernel asks */
    return st;
}

void gpu_kernel_free(GpuKernel *k) {
    if (!k) return;
    free(k->ptx);
    k->ptx = NULL;
}
