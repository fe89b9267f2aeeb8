/* ptxsim.h — a small PTX interpreter for the tests: runs the straight-line and branching
 * scalar code that the math lowering emits (the kernels of tests/kernels/kern.py's math1 and
 * math2 with one element per thread), thread by thread on the CPU, with the PTX ISA's
 * semantics for the instructions it knows (IEEE round-to-nearest arithmetic, fma, cvt with
 * its saturation and NaN rules, setp's ordered/unordered compares, predication, branches).
 * The .approx instructions are stood in for by the C library (within their documented
 * error). It exists so that the accuracy of the emitted fp64/fp32 algorithms can be measured
 * on a machine without a GPU; it is not a general PTX emulator: an instruction it does not
 * know fails the run with its text. */
#ifndef PTXSIM_H
#define PTXSIM_H

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PS_NONE, PS_REG, PS_IMM, PS_MEM, PS_TID, PS_SYM };
typedef struct PsOp { int kind; int cls, idx; uint64_t imm; bool neg; char sym[64]; int64_t off; } PsOp;
typedef struct PsInst {
    int pcls, pidx; bool pneg, pred;   /* @p / @!p */
    char tok[8][16]; int ntok;         /* opcode split at '.' */
    PsOp op[5]; int nop;
    int label;                         /* bra: target label number; a label line: -1 */
    int deflabel;                      /* this line defines label N (else -1) */
    char text[160];
} PsInst;
typedef struct PsTab { char name[64]; uint64_t v[64]; int n; } PsTab;   /* a .const .b64 array */
typedef struct PsProg { PsInst *in; int n; int *labpc; int nlab; PsTab tab[4]; int ntab; } PsProg;

static int ps_cls(const char *s, int *len) {
    if (s[0] == 'r' && s[1] == 'd') { *len = 2; return 3; }
    if (s[0] == 'r') { *len = 1; return 2; }
    if (s[0] == 'p') { *len = 1; return 0; }
    if (s[0] == 'h') { *len = 1; return 1; }
    return -1;
}

static void ps_operand(const char *s, PsOp *o) {
    memset(o, 0, sizeof *o);
    while (*s == ' ') s++;
    if (*s == '!') { o->neg = true; s++; }
    if (*s == '[') {
        o->kind = PS_MEM;
        s++;
        if (*s == '%') {
            int l = 0, c = ps_cls(s + 1, &l);
            o->cls = c;
            o->idx = atoi(s + 1 + l);
            const char *p = strchr(s, '+');
            o->off = p ? strtoll(p + 1, NULL, 0) : 0;
            o->sym[0] = 0;
        } else {
            int i = 0;
            while (*s && *s != ']' && *s != '+' && i < 63) o->sym[i++] = *s++;
            o->sym[i] = 0;
            o->cls = -1;
        }
        return;
    }
    if (!strncmp(s, "%tid.x", 6)) { o->kind = PS_TID; return; }
    /* one program runs: program 0 of a grid of 1 */
    if (!strncmp(s, "%ctaid.", 7) || !strncmp(s, "%nctaid.", 8)) {
        o->kind = PS_IMM; o->imm = s[1] == 'n';
        return;
    }
    if (*s == '%') {
        int l = 0, c = ps_cls(s + 1, &l);
        o->kind = PS_REG; o->cls = c; o->idx = atoi(s + 1 + l);
        return;
    }
    if (s[0] == '0' && (s[1] == 'd' || s[1] == 'D' || s[1] == 'f' || s[1] == 'F')) {
        o->kind = PS_IMM; o->imm = strtoull(s + 2, NULL, 16);
        return;
    }
    if (isdigit((unsigned char)*s) || *s == '-') {
        o->kind = PS_IMM; o->imm = (uint64_t)strtoll(s, NULL, 0);
        return;
    }
    o->kind = PS_SYM;
    snprintf(o->sym, sizeof o->sym, "%.63s", s);
    char *e = o->sym + strlen(o->sym);
    while (e > o->sym && (e[-1] == ' ' || e[-1] == ';')) *--e = 0;
}

static void ps_free(PsProg *p) { free(p->in); free(p->labpc); }

/* Parses the body of the (one) entry: instructions between its braces. */
static bool ps_parse(const char *ptx, PsProg *p, char *err, size_t errn) {
    memset(p, 0, sizeof *p);
    for (const char *c = strstr(ptx, ".const .align 8 .b64 "); c && p->ntab < 4; c = strstr(c + 1, ".const .align 8 .b64 ")) {
        PsTab *t = &p->tab[p->ntab++];
        const char *nm = c + strlen(".const .align 8 .b64 ");
        int i = 0;
        while (nm[i] && nm[i] != '[' && i < 63) { t->name[i] = nm[i]; i++; }
        t->name[i] = 0;
        const char *v = strchr(c, '{');
        while (v && *v != '}' && t->n < 64) {
            v++;
            t->v[t->n++] = strtoull(v, (char **)&v, 0);
            while (*v == ' ') v++;
        }
    }
    const char *b = strstr(ptx, ".entry");
    b = b ? strchr(b, '{') : NULL;
    if (!b) { snprintf(err, errn, "no entry"); return false; }
    int cap = 1024, maxlab = 0;
    p->in = calloc((size_t)cap, sizeof *p->in);
    for (const char *l = b + 1; *l;) {
        const char *e = strchr(l, '\n');
        if (!e) e = l + strlen(l);
        char line[512];
        size_t n = (size_t)(e - l) < sizeof line - 1 ? (size_t)(e - l) : sizeof line - 1;
        memcpy(line, l, n); line[n] = 0;
        l = *e ? e + 1 : e;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || *s == '.' || *s == '/' || *s == '}' || *s == '{') continue;
        if (p->n == cap) { cap *= 2; p->in = realloc(p->in, (size_t)cap * sizeof *p->in); }
        PsInst *in = &p->in[p->n++];
        memset(in, 0, sizeof *in);
        snprintf(in->text, sizeof in->text, "%.159s", s);
        in->label = -1; in->deflabel = -1;
        if (s[0] == '$' && s[1] == 'L') {
            in->deflabel = atoi(s + 2);
            if (in->deflabel > maxlab) maxlab = in->deflabel;
            continue;
        }
        if (*s == '@') {
            s++;
            in->pred = true;
            if (*s == '!') { in->pneg = true; s++; }
            int len = 0; s++;
            in->pcls = ps_cls(s, &len); in->pidx = atoi(s + len);
            while (*s && *s != ' ') s++;
            while (*s == ' ') s++;
        }
        char opc[64]; int i = 0;
        while (*s && *s != ' ' && *s != ';' && i < 63) opc[i++] = *s++;
        opc[i] = 0;
        for (char *t = strtok(opc, "."); t && in->ntok < 8; t = strtok(NULL, "."))
            snprintf(in->tok[in->ntok++], 16, "%s", t);
        char *semi = strrchr(s, ';');
        if (semi) *semi = 0;
        /* operands split at commas outside brackets */
        char *q = s;
        while (*q == ' ') q++;
        while (*q && in->nop < 5) {
            char *c = q; int depth = 0;
            while (*c && !(*c == ',' && depth == 0)) { if (*c == '[' || *c == '{') depth++; if (*c == ']' || *c == '}') depth--; c++; }
            char sv = *c; *c = 0;
            ps_operand(q, &in->op[in->nop++]);
            if (!sv) break;
            q = c + 1;
        }
        if (!strcmp(in->tok[0], "bra")) {
            in->label = atoi(strstr(in->text, "$L") ? strstr(in->text, "$L") + 2 : "0");
            if (in->label > maxlab) maxlab = in->label;
        }
    }
    p->nlab = maxlab + 1;
    p->labpc = calloc((size_t)p->nlab, sizeof(int));
    for (int i = 0; i < p->n; i++) if (p->in[i].deflabel >= 0) p->labpc[p->in[i].deflabel] = i;
    return true;
}

typedef struct PsThread { uint64_t r[4][4096]; uint32_t tid; uint64_t carry; } PsThread;

static double ps_d(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t ps_ud(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static float ps_f(uint64_t u) { uint32_t v = (uint32_t)u; float f; memcpy(&f, &v, 4); return f; }
static uint64_t ps_uf(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }

static uint64_t ps_val(PsThread *t, const PsOp *o) {
    switch (o->kind) {
    case PS_REG: return t->r[o->cls][o->idx];
    case PS_IMM: return o->imm;
    case PS_TID: return t->tid;
    default: return 0;
    }
}

static int ps_bits(const char *ty) { return atoi(ty + 1); }
static bool ps_isf(const char *ty) { return ty[0] == 'f'; }
static bool ps_iss(const char *ty) { return ty[0] == 's'; }

static double ps_half(uint64_t u) {   /* IEEE binary16 */
    int e = (int)(u >> 10 & 31), m = (int)(u & 1023);
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return u & 0x8000 ? -v : v;
}

/* the value as a double (floats) for type ty */
static double ps_fv(uint64_t u, const char *ty) {
    if (!strcmp(ty, "bf16")) return (double)ps_f(u << 16 & 0xFFFF0000u);
    if (ps_bits(ty) == 16) return ps_half(u);
    return ps_bits(ty) == 64 ? ps_d(u) : (double)ps_f(u);
}
/* double -> float rounded to nearest, overflowing to inf without C's undefined conversion */
static float ps_tof(double v) {
    if (fabs(v) >= 0x1.ffffffp127) return (float)copysign(INFINITY, v);
    if (fabs(v) > 0x1.fffffep127) return (float)copysign(0x1.fffffep127, v);
    return (float)v;
}
static uint64_t ps_fr(double v, const char *ty) { return ps_bits(ty) == 64 ? ps_ud(v) : ps_uf(ps_tof(v)); }
static int64_t ps_sv(uint64_t u, int bits) {
    if (bits >= 64) return (int64_t)u;
    uint64_t m = (uint64_t)1 << (bits - 1);
    u &= (((uint64_t)1 << bits) - 1);
    return (int64_t)((u ^ m) - m);
}
static uint64_t ps_uv(uint64_t u, int bits) { return bits >= 64 ? u : u & (((uint64_t)1 << bits) - 1); }

static float ps_ftz(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }

/* float -> integer of type dt as cvt does: saturating; NaN -> 0 unless the source is f64 or
 * the destination 64-bit, then 1 << (bits - 1) */
static uint64_t ps_f2i(double v, const char *dt, bool src64) {
    int bits = ps_bits(dt);
    if (isnan(v)) return (src64 || bits == 64) ? (uint64_t)1 << (bits - 1) : 0;
    if (ps_iss(dt)) {
        double lim = ldexp(1.0, bits - 1);
        if (v >= lim) return ps_uv((uint64_t)(bits == 64 ? INT64_MAX : (int64_t)lim - 1), bits);
        if (v < -lim) return ps_uv((uint64_t)(bits == 64 ? INT64_MIN : -(int64_t)lim), bits);
        return ps_uv((uint64_t)(int64_t)v, bits);
    }
    double lim = ldexp(1.0, bits);
    if (v <= 0) return 0;
    if (v >= lim) return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    return (uint64_t)v;
}

static double ps_round(double v, const char *mode) {
    if (!strcmp(mode, "rni")) return nearbyint(v);
    if (!strcmp(mode, "rzi")) return trunc(v);
    if (!strcmp(mode, "rmi")) return floor(v);
    if (!strcmp(mode, "rpi")) return ceil(v);
    return v;
}

static bool ps_cmp(const char *c, uint64_t a, uint64_t b, const char *ty) {
    if (ps_isf(ty)) {
        double x = ps_fv(a, ty), y = ps_fv(b, ty);
        bool un = isnan(x) || isnan(y);
        if (!strcmp(c, "nan")) return un;
        if (!strcmp(c, "num")) return !un;
        bool u = c[strlen(c) - 1] == 'u' && strcmp(c, "eq") != 0;
        char base[8]; snprintf(base, sizeof base, "%.2s", c);
        if (un) return u;
        if (!strcmp(base, "eq")) return x == y;
        if (!strcmp(base, "ne")) return x != y;
        if (!strcmp(base, "lt")) return x < y;
        if (!strcmp(base, "le")) return x <= y;
        if (!strcmp(base, "gt")) return x > y;
        if (!strcmp(base, "ge")) return x >= y;
        return false;
    }
    int bits = ps_bits(ty);
    if (ps_iss(ty)) {
        int64_t x = ps_sv(a, bits), y = ps_sv(b, bits);
        if (!strcmp(c, "eq")) return x == y;
        if (!strcmp(c, "ne")) return x != y;
        if (!strcmp(c, "lt")) return x < y;
        if (!strcmp(c, "le")) return x <= y;
        if (!strcmp(c, "gt")) return x > y;
        if (!strcmp(c, "ge")) return x >= y;
        return false;
    }
    uint64_t x = ps_uv(a, bits), y = ps_uv(b, bits);
    if (!strcmp(c, "eq")) return x == y;
    if (!strcmp(c, "ne")) return x != y;
    if (!strcmp(c, "lt") || !strcmp(c, "lo")) return x < y;
    if (!strcmp(c, "le") || !strcmp(c, "ls")) return x <= y;
    if (!strcmp(c, "gt") || !strcmp(c, "hi")) return x > y;
    if (!strcmp(c, "ge") || !strcmp(c, "hs")) return x >= y;
    return false;
}

static bool ps_has(const PsInst *in, const char *t) {
    for (int i = 1; i < in->ntok; i++) if (!strcmp(in->tok[i], t)) return true;
    return false;
}

/* Runs thread tid; params: the entry's .u64 parameters in order. Returns false with err on
 * an instruction it does not know (or a runaway loop). */
static bool ps_run(const PsProg *p, PsThread *t, uint32_t tid, const uint64_t *params, int nparams,
                   char *err, size_t errn) {
    memset(t, 0, sizeof *t);
    t->tid = tid;
    long steps = 0;
    for (int pc = 0; pc < p->n; pc++) {
        const PsInst *in = &p->in[pc];
        if (in->deflabel >= 0) continue;
        if (++steps > 10000000) { snprintf(err, errn, "runaway at %s", in->text); return false; }
        if (in->pred && (t->r[in->pcls][in->pidx] != 0) == in->pneg) continue;
        const char *op = in->tok[0];
        const char *ty = in->tok[in->ntok - 1];
        const PsOp *O = in->op;
        uint64_t *D = O[0].kind == PS_REG ? &t->r[O[0].cls][O[0].idx] : NULL;
        uint64_t a = in->nop > 1 ? ps_val(t, &O[1]) : 0, b = in->nop > 2 ? ps_val(t, &O[2]) : 0,
                 c = in->nop > 3 ? ps_val(t, &O[3]) : 0;
        int bits = ps_bits(ty);
        bool fl = ps_isf(ty) && strcmp(op, "cvt") != 0 && strcmp(op, "setp") != 0 && strcmp(op, "selp") != 0;
        bool ftz = ps_has(in, "ftz");
#define FV(u) (ftz ? (double)ps_ftz((float)ps_fv((u), ty)) : ps_fv((u), ty))
#define FR(v) (ftz ? ps_uf(ps_ftz((float)(v))) : ps_fr((v), ty))
        if (!strcmp(op, "bra")) { pc = p->labpc[in->label]; continue; }
        if (!strcmp(op, "ret") || !strcmp(op, "exit")) return true;
        if (!strcmp(op, "ld") && ps_has(in, "param")) {
            const char *u = strrchr(O[1].sym, '_');
            int k = u ? atoi(u + 1) : 0;
            *D = k < nparams ? params[k] : 0;
        } else if (!strcmp(op, "ld")) {
            uint64_t addr = t->r[O[1].cls][O[1].idx] + (uint64_t)O[1].off, v = 0;
            memcpy(&v, (void *)(uintptr_t)addr, (size_t)(bits / 8));
            *D = v;
        } else if (!strcmp(op, "st")) {
            uint64_t addr = t->r[O[0].cls][O[0].idx] + (uint64_t)O[0].off;
            memcpy((void *)(uintptr_t)addr, &a, (size_t)(bits / 8));
        } else if (!strcmp(op, "mov")) {
            *D = ps_uv(a, bits == 0 ? 64 : bits);
            if (O[1].kind == PS_SYM) {
                *D = 0;
                for (int i = 0; i < p->ntab; i++)
                    if (!strcmp(p->tab[i].name, O[1].sym)) *D = (uint64_t)(uintptr_t)p->tab[i].v;
            }
            if (!strcmp(ty, "pred")) *D = a != 0;
        } else if (fl && (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mul") || !strcmp(op, "div"))) {
            double x = FV(a), y = FV(b), r;
            if (bits == 32) {
                float xf = (float)x, yf = (float)y;
                r = op[0] == 'a' ? xf + yf : op[0] == 's' ? xf - yf : op[0] == 'm' ? xf * yf : xf / yf;
            } else r = op[0] == 'a' ? x + y : op[0] == 's' ? x - y : op[0] == 'm' ? x * y : x / y;
            *D = FR(r);
        } else if (fl && !strcmp(op, "fma")) {
            *D = bits == 32 ? FR(fmaf((float)FV(a), (float)FV(b), (float)FV(c))) : ps_ud(fma(ps_d(a), ps_d(b), ps_d(c)));
        } else if (fl && (!strcmp(op, "neg") || !strcmp(op, "abs"))) {
            uint64_t sb = (uint64_t)1 << (bits - 1);
            *D = op[0] == 'n' ? a ^ sb : a & ~sb;
        } else if (fl && (!strcmp(op, "min") || !strcmp(op, "max"))) {
            double x = FV(a), y = FV(b), r;
            if (ps_has(in, "NaN") && (isnan(x) || isnan(y))) r = NAN;
            else r = op[1] == 'i' ? fmin(x, y) : fmax(x, y);
            if (x == 0 && y == 0) r = op[1] == 'i' ? (signbit(x) ? x : y) : (signbit(x) ? y : x);
            *D = FR(r);
        } else if (fl && !strcmp(op, "copysign")) {
            uint64_t sb = (uint64_t)1 << (bits - 1);
            *D = (b & ~sb) | (a & sb);
        } else if (fl && (!strcmp(op, "sqrt") || !strcmp(op, "rcp") || !strcmp(op, "rsqrt") ||
                          !strcmp(op, "ex2") || !strcmp(op, "lg2") || !strcmp(op, "sin") || !strcmp(op, "cos"))) {
            double x = FV(a), r;
            if (bits == 32) {
                float xf = (float)x;
                r = op[0] == 's' && op[1] == 'q' ? sqrtf(xf) : op[0] == 'r' && op[1] == 'c' ? 1.0f / xf
                  : op[0] == 'r' ? 1.0f / sqrtf(xf) : op[0] == 'e' ? exp2f(xf) : op[0] == 'l' ? log2f(xf)
                  : op[0] == 's' ? sinf(xf) : cosf(xf);
            } else r = op[0] == 's' && op[1] == 'q' ? sqrt(x) : op[0] == 'r' && op[1] == 'c' ? 1.0 / x
                     : op[0] == 'r' ? 1.0 / sqrt(x) : op[0] == 'e' ? exp2(x) : op[0] == 'l' ? log2(x)
                     : op[0] == 's' ? sin(x) : cos(x);
            *D = FR(r);
        } else if (!strcmp(op, "cvt")) {
            const char *dt = in->tok[in->ntok - 2], *st = in->tok[in->ntok - 1];
            const char *mode = in->ntok >= 4 ? in->tok[1] : "";
            bool sat = ps_has(in, "sat");
            if (ps_isf(dt) && ps_isf(st)) {
                double v = ps_fv(a, st);
                v = ps_round(v, mode);
                if (sat) v = isnan(v) ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
                if (ps_bits(dt) == 32 && !strcmp(mode, "rz")) {
                    float f = ps_tof(v);
                    if (fabs((double)f) > fabs(v)) f = nextafterf(f, 0.0f);
                    *D = ps_uf(f);
                } else *D = ps_fr(v, dt);
            } else if (ps_isf(st)) {
                *D = ps_f2i(ps_round(ps_fv(a, st), mode), dt, ps_bits(st) == 64);
            } else if (ps_isf(dt)) {
                double v = ps_iss(st) ? (double)ps_sv(a, ps_bits(st)) : (double)ps_uv(a, ps_bits(st));
                *D = ps_fr(v, dt);
            } else {
                int sbits = ps_bits(st), dbits = ps_bits(dt);
                uint64_t v = ps_iss(st) ? (uint64_t)ps_sv(a, sbits) : ps_uv(a, sbits);
                *D = ps_uv(v, dbits);
            }
        } else if (!strcmp(op, "setp")) {
            bool r = ps_cmp(in->tok[1], a, b, ty);
            if (in->ntok == 4) {
                bool q = c != 0;
                if (O[3].neg) q = !q;
                const char *bo = in->tok[2];
                r = !strcmp(bo, "and") ? r && q : !strcmp(bo, "or") ? r || q : r != q;
            }
            *D = r;
        } else if (!strcmp(op, "selp")) {
            *D = c ? a : b;
        } else if (!strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") || !strcmp(op, "not")) {
            if (!strcmp(ty, "pred")) {
                bool x = a != 0, y = b != 0;
                if (O[1].neg) x = !x;
                if (in->nop > 2 && O[2].neg) y = !y;
                *D = op[0] == 'a' ? x && y : op[0] == 'o' ? x || y : op[0] == 'x' ? x != y : !x;
            } else *D = ps_uv(op[0] == 'a' ? a & b : op[0] == 'o' ? a | b : op[0] == 'x' ? a ^ b : ~a, bits);
        } else if (!strcmp(op, "shl")) {
            *D = b >= (uint64_t)bits ? 0 : ps_uv(a << b, bits);
        } else if (!strcmp(op, "shr")) {
            uint64_t s = b >= (uint64_t)bits ? (uint64_t)bits - 1 : b;
            if (ps_iss(ty)) *D = ps_uv((uint64_t)(ps_sv(a, bits) >> s), bits);
            else *D = b >= (uint64_t)bits ? 0 : ps_uv(a, bits) >> b;
        } else if ((!strcmp(op, "add") || !strcmp(op, "addc")) && (ps_has(in, "cc") || op[3] == 'c')) {
            uint64_t cin = op[3] == 'c' ? t->carry : 0, r = ps_uv(a + b + cin, bits);
            if (ps_has(in, "cc")) t->carry = bits == 64 ? (r < a || (cin && r == a)) : (ps_uv(a, bits) + ps_uv(b, bits) + cin) >> bits;
            *D = r;
        } else if (!strcmp(op, "mul") && ps_has(in, "hi") && bits == 64) {
            unsigned __int128 pr = (unsigned __int128)a * b;
            *D = (uint64_t)(pr >> 64);
        } else if (!fl && (!strcmp(op, "div") || !strcmp(op, "rem"))) {
            if (ps_iss(ty)) {
                int64_t x = ps_sv(a, bits), y = ps_sv(b, bits);
                *D = ps_uv(y ? (uint64_t)(op[0] == 'd' ? x / y : x % y) : 0, bits);
            } else {
                uint64_t x = ps_uv(a, bits), y = ps_uv(b, bits);
                *D = y ? (op[0] == 'd' ? x / y : x % y) : 0;
            }
        } else if (!strcmp(op, "add") || !strcmp(op, "sub") || (!strcmp(op, "mul") && ps_has(in, "lo"))) {
            uint64_t r = op[0] == 'a' ? a + b : op[0] == 's' ? a - b : a * b;
            *D = ps_uv(r, bits);
        } else if (!strcmp(op, "mul") && ps_has(in, "wide")) {
            *D = ps_iss(ty) ? (uint64_t)(ps_sv(a, bits) * ps_sv(b, bits)) : ps_uv(a, bits) * ps_uv(b, bits);
        } else if (!strcmp(op, "neg")) {
            *D = ps_uv(-a, bits);
        } else if (!strcmp(op, "abs")) {
            int64_t v = ps_sv(a, bits);
            *D = ps_uv((uint64_t)(v < 0 ? -v : v), bits);
        } else if (!strcmp(op, "min") || !strcmp(op, "max")) {
            bool lt = ps_iss(ty) ? ps_sv(a, bits) < ps_sv(b, bits) : ps_uv(a, bits) < ps_uv(b, bits);
            *D = (op[1] == 'i') == lt ? ps_uv(a, bits) : ps_uv(b, bits);
        } else if (!strcmp(op, "clz")) {
            uint64_t v = ps_uv(a, bits); int n = 0;
            for (int i = bits - 1; i >= 0 && !(v >> i & 1); i--) n++;
            *D = (uint64_t)n;
        } else if (!strcmp(op, "bfe")) {
            *D = ps_uv(a >> b, bits) & (c >= 64 ? ~0ull : ((1ull << c) - 1));
        } else {
            snprintf(err, errn, "ptxsim: unknown instruction: %s", in->text);
            return false;
        }
#undef FV
#undef FR
    }
    return true;
}

#endif
