/* elem.h — how the elements of IR values are stored, and converted one at a time: i1 as
 * uint8 0/1, fp16/bf16 as uint16 bit patterns (computed in float, rounded back to nearest
 * even), fp8 as their byte (rounded back as Triton's .to() rounds: base/util.c), pointers as uint64 host addresses. Shared by the element-wise semantics (elementwise.c),
 * the folder (opt.c) and the interpreter, so that all three round the same way. */
#ifndef IR_ELEM_H
#define IR_ELEM_H

#include "base/tc.h"

#include <math.h>
#include <string.h>

/* ---- 16-bit floats -------------------------------------------------------------------- */

static inline float h2f(uint16_t h) {
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu, b;
    if (e == 0x1f) b = s | 0x7f800000u | (m << 13);
    else if (e) b = s | ((e + 112) << 23) | (m << 13);
    else {
        float f = (float)m * 0x1p-24f;
        return s ? -f : f;
    }
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static inline float bf2f(uint16_t h) {
    uint32_t b = (uint32_t)h << 16;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* double -> a small binary float with mb mantissa and eb exponent bits; RTNE or RTZ. */
static inline uint16_t f64_to_small(double d, int mb, int eb, int rtz) {
    uint64_t b;
    memcpy(&b, &d, 8);
    uint32_t sign = (uint32_t)(b >> 63) << 15;
    int ex = (int)((b >> 52) & 0x7ff);
    uint64_t man = b & 0xfffffffffffffULL;
    int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    uint32_t inf = ((1u << eb) - 1) << mb;
    if (ex == 0x7ff) return (uint16_t)(sign | inf | (man ? 1u << (mb - 1) : 0));
    if (ex == 0) return (uint16_t)sign;
    int e = ex - 1023;
    if (e > bias) return (uint16_t)(sign | (rtz ? inf - 1 : inf));
    uint64_t sig = man | (1ULL << 52);
    int shift = 52 - mb;
    if (e < emin) shift += emin - e;
    if (shift >= 54) return (uint16_t)sign;
    uint64_t q = sig >> shift, rem = sig & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
    if (!rtz && (rem > half || (rem == half && (q & 1)))) q++;
    uint32_t h = e >= emin ? ((uint32_t)(e + bias - 1) << mb) + (uint32_t)q : (uint32_t)q;
    return (uint16_t)(sign | h);
}

static inline uint16_t f2h(float f) { return f64_to_small((double)f, 10, 5, 0); }
static inline uint16_t f2bf(float f) { return f64_to_small((double)f, 7, 8, 0); }

static inline float f64_to_f32_rtz(double d) {
    float f = (float)d;
    if (isnan(d) || isinf(d)) return f;
    if (fabs((double)f) > fabs(d)) f = nextafterf(f, 0.0f);
    return f;
}

/* ---- generic element access (slow paths) ------------------------------------------- */

static inline double rdf(int dt, const void *p, int64_t i) {
    switch (dt) {
    case DT_FP16: return h2f(((const uint16_t *)p)[i]);
    case DT_BF16: return bf2f(((const uint16_t *)p)[i]);
    case DT_FP32: return ((const float *)p)[i];
    case DT_FP64: return ((const double *)p)[i];
    case DT_FP8E5: case DT_FP8E4NV: case DT_FP8E4B15: return fp8_to_double(dt, ((const uint8_t *)p)[i]);
    default: return 0;
    }
}

/* Integers and pointers as int64: signed sign-extended, unsigned zero-extended. */
static inline int64_t rdi(int dt, const void *p, int64_t i) {
    switch (dt) {
    case DT_I1: return ((const uint8_t *)p)[i] != 0;
    case DT_I8: return ((const int8_t *)p)[i];
    case DT_I16: return ((const int16_t *)p)[i];
    case DT_I32: return ((const int32_t *)p)[i];
    case DT_I64: return ((const int64_t *)p)[i];
    case DT_U8: return ((const uint8_t *)p)[i];
    case DT_U16: return ((const uint16_t *)p)[i];
    case DT_U32: return ((const uint32_t *)p)[i];
    case DT_U64: case DT_PTR: return (int64_t)((const uint64_t *)p)[i];
    default: return 0;
    }
}

static inline void wri(int dt, void *p, int64_t i, uint64_t v) {
    switch (dt) {
    case DT_I1: ((uint8_t *)p)[i] = v != 0; break;
    case DT_I8: case DT_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case DT_I16: case DT_U16: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case DT_I32: case DT_U32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    default: ((uint64_t *)p)[i] = v; break;
    }
}

static inline void wrf(int dt, void *p, int64_t i, double v, int rtz) {
    switch (dt) {
    case DT_FP16: ((uint16_t *)p)[i] = f64_to_small(v, 10, 5, rtz); break;
    case DT_BF16: ((uint16_t *)p)[i] = f64_to_small(v, 7, 8, rtz); break;
    case DT_FP32: ((float *)p)[i] = rtz ? f64_to_f32_rtz(v) : (float)v; break;
    case DT_FP64: ((double *)p)[i] = v; break;
    case DT_FP8E5: case DT_FP8E4NV: case DT_FP8E4B15:
        ((uint8_t *)p)[i] = (uint8_t)fp8_from_double(dt, v, rtz);
        break;
    default: break;
    }
}

#endif
