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
 * Where Triton uses fast forms, so do we: exp = ex2.approx(x*log2e), exp2 = ex2.approx.ftz,
 * log = lg2.approx*ln2, sqrt/rsqrt .approx.ftz, fp32 `/` div.full, sin/cos .approx; tanh and erf are short
 * polynomial/exp2 forms (~1e-6 relative); libdevice's functions and fmod are in math.c,
 * the fp64 transcendentals in math64.c.
 *
 * Layout conversions are in convert.c, element-wise ops and casts in elemwise.c, loads,
 * stores and atomics in memory.c, reductions in reduce.c, device_print in print.c,
 * tensor-core dots in mma.c and the loop pipeliner in pipe.c, descriptor blocks by TMA in
 * tma.c. */
#include "gpu/lower.h"
#include "driver/cuda.h"

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


void normalize(G *g, int r, int dt) {
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
int down(G *g, int r, int dt, bool rz) {
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
int fp8_down(G *g, int f, int dt, bool rz) {
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
int cast_fp8(G *g, int r, int from, int to, bool rz) {
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

void emit_arange(G *g, const Inst *d, int lay, int *out) {
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

/* ---- shape ops ------------------------------------------------------------------------ */

void lower_shape(G *g, const Inst *in) {
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
    tma_flush(g);   /* after the prologue's copies are issued: both under way at once */
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
    if (piped) pipe_begin(g, pp, in, iv, ub, st, ivdt);
    lower_region(g, body);
    if (piped) pipe_end(g, pp);
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
    case OP_TMAP: tma_create(g, in); return;
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
    const Region *outer = g->region;
    g->region = r;
    for (int i = 0; i < r->ninsts; i++) {
        int op = r->insts[i]->op;   /* what may read a late load's tile, or may not run */
        if (op == OP_DOT || op == OP_IF || op == OP_WHILE || op == OP_RETURN) tma_flush(g);
        lower_inst(g, r->insts[i]);
    }
    g->region = outer;
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
    static const char *const names[] = {"tma1d", "invshare"};   /* bit k: names[k] */
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

/* What gpu_compile gives up, one by one, when shared memory runs past the limit: a ring's
 * extra slot (pipe.c's top; also where it would cost a program per SM), the room taken for
 * speed (lean), the area of operands staged once for several loops (pipe.c's inv_kept), and
 * the loop-invariant dot operands staged once (mma.c). */
enum { SPARE_INV = 1, SPARE_ROOM = 2, SPARE_KEPT = 4, SPARE_TOP = 8 };

/* How many programs of `shared` bytes fit on an SM (the driver's cuda_ctas_per_sm), counting
 * registers as `regs` per thread plus 32 (an estimate; ptxas has the last word) */
static int programs_per_sm(const TargetInfo *ti, int num_warps, int regs, int shared) {
    CuSmLimits l = {ti->regs_sm, ti->threads_sm, ti->blocks_sm, ti->smem_sm, ti->smem_reserved, ti->regs_thread};
    int cap;
    return cuda_ctas_per_sm(regs + 32, num_warps * 32, shared, &l, &cap);
}

/* gpu_compile without what `spare` names; *spent: of those, what this compile used */
static tc_status compile_kernel(const IrFunc *f, const tc_target *target, int num_warps_opt, int num_stages,
                                int max_shared, bool global_scratch, unsigned spare, unsigned *spent,
                                GpuKernel *out, Err *e) {
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
    g->ring_load = arena_alloc(&arena, sizeof(Pipe *) * (size_t)(nv + 1));
    memset(g->ring_load, 0, sizeof(Pipe *) * (size_t)(nv + 1));
    g->inv_kept = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->kept_by = arena_alloc(&arena, sizeof(Inst *) * (size_t)(nv + 1));
    memset(g->kept_by, 0, sizeof(Inst *) * (size_t)(nv + 1));
    for (int i = 0; i <= nv; i++) g->inv_kept[i] = -1;
    g->relow = arena_alloc(&arena, (size_t)(nv + 1));
    g->step = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->step_esz = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->fold_acc = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->fold_alias = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    g->inplace = arena_alloc(&arena, sizeof(int) * (size_t)(nv + 1));
    for (int i = 0; i <= nv; i++) g->fold_acc[i] = g->fold_alias[i] = g->inplace[i] = -1;
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
    g->no_kept = spare & SPARE_KEPT;
    g->lean = spare & SPARE_ROOM;
    g->no_top = spare & SPARE_TOP;
    g->scratch_ok = global_scratch;
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
    tma_flush(g);   /* no copy left in flight into shared memory at the end */
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
    if (g->kept_bytes) {   /* the kept operand tiles (pipe.c, invshare): nothing else there */
        shared = (shared + 1023) & ~1023;
        EP(g, "add.u32 %s, %s, %d;", rn(g, g->kept), rn(g, g->smem), shared);
        shared += g->kept_bytes;
    }
    shared = tma_finish(g, shared);
    *spent = (g->used_inv ? SPARE_INV : 0) | (g->used_roomy ? SPARE_ROOM : 0) | (g->kept_bytes ? SPARE_KEPT : 0) |
             (g->used_top ? SPARE_TOP : 0);
    int limit = max_shared > 0 ? max_shared : ti->smem_block;
    if (g->used_top && shared <= limit &&
        programs_per_sm(ti, num_warps, g->top_regs, shared) <
            programs_per_sm(ti, num_warps, g->top_regs, shared - g->top_bytes)) {
        /* a ring's extra slot saves a bar.sync per iteration: not worth a program per SM */
        err_set(e, TC_ERR_RESOURCES, (SrcLoc){0}, "shared memory: a ring's extra slot costs a program per SM");
        st = e->code;
        goto done;
    }
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
    /* read back by gpu_dot_summary: TMA rings have no cp.async.wait_group to count */
    if (g->piped_stages) buf_printf(&g->text, "// loads pipelined in %d stages\n\n", g->piped_stages);
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
                      bool global_scratch, GpuKernel *out, Err *e) {
    Err before = *e, first;
    unsigned spare = 0, spent = 0;
    tc_status st = compile_kernel(f, target, num_warps, num_stages, max_shared, global_scratch, spare, &spent, out, e);
    /* the padded conversions and the epilogue through shared memory, then loop-invariant
     * operands staged once, take shared memory of their own: where that is what crosses the
     * limit, the kernel does without, as before they existed */
    first = *e;
    while (st == TC_ERR_RESOURCES && (spent & ~spare)) {
        unsigned left = spent & ~spare;
        spare |= left & SPARE_TOP    ? SPARE_TOP
                 : left & SPARE_ROOM ? SPARE_ROOM
                 : left & SPARE_KEPT ? SPARE_KEPT
                                     : SPARE_INV;
        *e = before;
        st = compile_kernel(f, target, num_warps, num_stages, max_shared, global_scratch, spare, &spent, out, e);
    }
    if (st == TC_ERR_RESOURCES) *e = first;   /* the first message: what the kernel asks */
    return st;
}

void gpu_kernel_free(GpuKernel *k) {
    if (!k) return;
    free(k->ptx);
    k->ptx = NULL;
}
