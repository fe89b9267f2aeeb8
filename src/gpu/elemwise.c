/* elemwise.c — element-wise ops: arithmetic, comparisons, casts, select, fma, addptr. */
#include "gpu/lower.h"

#include <stdio.h>
#include <string.h>

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
    /* Triton's tl.math.exp2 is libdevice's exp2f with ftz on (ex2.approx.ftz.f32): without
     * ftz, ptxas wraps each ex2 in a compare and two multiplies that keep subnormal results,
     * flash attention's hottest instructions (bench/results/gpu-2026-12-02.md §11) */
    case OP_EXP2: E(g, "ex2.approx.ftz.f32 %s, %s;", D, A); break;
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

int fma1(G *g, int dt, int a, int b, int c) {
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

/* The register bits of layout lay along which v's elements come in aligned runs of equal
 * values (its constancy, analysis.c): a register with any of them set holds what the one
 * with them clear holds. `offs < n` over a thread's 8 contiguous offsets, n a multiple of
 * 8, is one comparison, as Triton makes it. */
static int equal_reg_bits(G *g, int v, int lay) {
    const Type *t = &g->f->types[v];
    const Layout *L = &g->lays[lay].L;
    int lo[TC_MAX_RANK], bits = 0;
    if (t->rank == 0) return 0;
    lay_lo(t->rank, t->shape, lo);
    for (int d = 0; d < t->rank; d++) {
        int32_t cn = g->ax[v].cnst[d];
        int c = cn & (cn - 1) ? 0 : lg2i(cn);   /* aligned runs of a power of two only */
        for (int i = 0; i < L->nreg && c > 0; i++)
            if (L->reg[i] >= lo[d] && L->reg[i] < lo[d] + c) bits |= 1 << i;
    }
    return bits;
}

void lower_elementwise(G *g, const Inst *in) {
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
    int eq = in->op == OP_CMP ? equal_reg_bits(g, v, L) : 0;
    for (int r = 0; r < n; r++) {
        if (r & eq) { out[r] = out[r & ~eq]; continue; }
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
    int ip = g->inplace[v];
    if (ip >= 0 && g->vlay[ip] == L) {   /* into the carried registers (pipe_plan) */
        int *P = g->vr[ip];
        for (int r = 0; r < n; r++) mov(g, P[r], out[r]);
        memcpy(out, P, sizeof(int) * (size_t)n);
    }
    set_val(g, v, L, out);
}
