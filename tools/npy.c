/* npy.c — numpy's .npy format (numpy.lib.format): the 6-byte magic "\x93NUMPY", a version
 * (1.0: 2-byte header length; 2.0: 4-byte; 3.0: 4-byte, UTF-8 header), then an ASCII
 * Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (4,), } padded with
 * spaces to a multiple of 64 bytes and ended by '\n', then the raw data in C order. */
#include "npy.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t n, const char *fmt, ...) {
    if (err && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const struct { tc_dtype dt; const char *descr; } descrs[] = {
    {TC_I1, "|b1"},  {TC_I8, "|i1"},  {TC_I16, "<i2"}, {TC_I32, "<i4"}, {TC_I64, "<i8"},
    {TC_U8, "|u1"},  {TC_U16, "<u2"}, {TC_U32, "<u4"}, {TC_U64, "<u8"}, {TC_FP16, "<f2"},
    {TC_BF16, "<u2"}, {TC_FP32, "<f4"}, {TC_FP64, "<f8"},
    {TC_FP8E5, "<u1"}, {TC_FP8E4NV, "<u1"}, {TC_FP8E4B15, "<u1"}, /* raw bits, as bf16 */
};

const char *npy_descr(tc_dtype dt) {
    for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++)
        if (descrs[i].dt == dt) return descrs[i].descr;
    return NULL;
}

int npy_encode(tc_dtype dt, int rank, const int64_t *shape, const void *data, unsigned char **out,
               size_t *outn, char *err, size_t errn) {
    const char *descr = npy_descr(dt);
    if (!descr) return fail(err, errn, "no .npy dtype for %d", (int)dt);
    if (rank < 0 || rank > TC_MAX_RANK) return fail(err, errn, "bad rank %d", rank);
    char hdr[512];
    int o = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    uint64_t numel = 1;
    for (int i = 0; i < rank; i++) {
        o += snprintf(hdr + o, sizeof hdr - (size_t)o, "%s%lld", i ? ", " : "", (long long)shape[i]);
        numel *= (uint64_t)shape[i];
    }
    o += snprintf(hdr + o, sizeof hdr - (size_t)o, "%s), }", rank == 1 ? "," : "");
    /* pad: 10 bytes of preamble + header + '\n' to a multiple of 64 */
    size_t total = 10 + (size_t)o + 1;
    size_t pad = (64 - total % 64) % 64;
    size_t hlen = (size_t)o + pad + 1;
    size_t dbytes = (size_t)numel * tc_dtype_size(dt);
    unsigned char *buf = malloc(10 + hlen + dbytes);
    if (!buf) return fail(err, errn, "out of memory");
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + 10, hdr, (size_t)o);
    memset(buf + 10 + o, ' ', pad);
    buf[10 + hlen - 1] = '\n';
    if (dbytes) memcpy(buf + 10 + hlen, data, dbytes);
    *out = buf;
    *outn = 10 + hlen + dbytes;
    return 0;
}

int npy_write(tc_context *ctx, const char *path, tc_dtype dt, int rank, const int64_t *shape,
              const void *data, char *err, size_t errn) {
    unsigned char *buf;
    size_t n;
    if (npy_encode(dt, rank, shape, data, &buf, &n, err, errn)) return -1;
    tc_status s = tc_write_file(ctx, path, buf, n);   /* the old file survives a failure */
    free(buf);
    if (s) return fail(err, errn, "%s", tc_errmsg(ctx));
    return 0;
}

/* ---- reading: a tiny parser for the header's dict literal -------------------------- */

typedef struct P { const char *s, *end; } P;

static void ws(P *p) { while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')) p->s++; }
static int eat(P *p, char c) { ws(p); if (p->s < p->end && *p->s == c) { p->s++; return 1; } return 0; }

/* A quoted string ('...' or "..."), no escapes (numpy never writes any). */
static int str(P *p, char *out, size_t n) {
    ws(p);
    if (p->s >= p->end || (*p->s != '\'' && *p->s != '"')) return 0;
    char q = *p->s++;
    size_t i = 0;
    while (p->s < p->end && *p->s != q) {
        if (*p->s == '\\' || i + 1 >= n) return 0;
        out[i++] = *p->s++;
    }
    if (p->s >= p->end) return 0;
    p->s++;
    out[i] = 0;
    return 1;
}

static int word(P *p, const char *w) {
    ws(p);
    size_t n = strlen(w);
    if ((size_t)(p->end - p->s) >= n && memcmp(p->s, w, n) == 0 &&
        (p->s + n == p->end || !isalnum((unsigned char)p->s[n]))) {
        p->s += n;
        return 1;
    }
    return 0;
}

int npy_decode(const unsigned char *buf, size_t n, tc_dtype *dt, int *rank,
               int64_t shape[TC_MAX_RANK], void **data, size_t *nbytes, char *err, size_t errn) {
    *data = NULL;
    if (n < 10 || memcmp(buf, "\x93NUMPY", 6) != 0)
        return fail(err, errn, "not a .npy file (no \\x93NUMPY magic)");
    int major = buf[6], minor = buf[7];
    size_t hlen, off;
    if (major == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        off = 10;
    } else if (major == 2 || major == 3) {
        if (n < 12) return fail(err, errn, "truncated .npy header");
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        off = 12;
    } else {
        return fail(err, errn, "unsupported .npy format version %d.%d", major, minor);
    }
    if (minor != 0) return fail(err, errn, "unsupported .npy format version %d.%d", major, minor);
    if (hlen > NPY_MAX_HEADER) return fail(err, errn, ".npy header too large (%zu bytes)", hlen);
    if (hlen > n - off) return fail(err, errn, "truncated .npy header");
    P p = {(const char *)buf + off, (const char *)buf + off + hlen};
    for (const char *c = p.s; c < p.end; c++)
        if (*c == 0) return fail(err, errn, "malformed .npy header (NUL byte)");
    char descr[32] = "";
    int have_descr = 0, have_fo = 0, have_shape = 0, fortran = 0, r = 0;
    int64_t shp[TC_MAX_RANK] = {0};
    if (!eat(&p, '{')) return fail(err, errn, "malformed .npy header: expected '{'");
    while (!eat(&p, '}')) {
        char key[32];
        if (!str(&p, key, sizeof key) || !eat(&p, ':'))
            return fail(err, errn, "malformed .npy header: expected 'key':");
        if (strcmp(key, "descr") == 0) {
            if (!str(&p, descr, sizeof descr)) return fail(err, errn, "malformed .npy header: descr must be a string");
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (word(&p, "False")) fortran = 0;
            else if (word(&p, "True")) fortran = 1;
            else return fail(err, errn, "malformed .npy header: fortran_order must be True or False");
            have_fo = 1;
        } else if (strcmp(key, "shape") == 0) {
            if (!eat(&p, '(')) return fail(err, errn, "malformed .npy header: shape must be a tuple");
            r = 0;
            while (!eat(&p, ')')) {
                ws(&p);
                if (p.s >= p.end || !isdigit((unsigned char)*p.s))
                    return fail(err, errn, "malformed .npy header: bad shape");
                uint64_t v = 0;
                while (p.s < p.end && isdigit((unsigned char)*p.s)) {
                    v = v * 10 + (uint64_t)(*p.s++ - '0');
                    if (v > NPY_MAX_BYTES) return fail(err, errn, ".npy shape dimension too large");
                }
                if (p.s < p.end && *p.s == 'L') p.s++;  /* Python 2 longs */
                if (r >= TC_MAX_RANK) return fail(err, errn, ".npy array has more than %d dimensions", TC_MAX_RANK);
                shp[r++] = (int64_t)v;
                if (!eat(&p, ',')) {
                    if (!eat(&p, ')')) return fail(err, errn, "malformed .npy header: bad shape");
                    break;
                }
            }
            have_shape = 1;
        } else {
            return fail(err, errn, "malformed .npy header: unknown key '%s'", key);
        }
        if (!eat(&p, ',')) {
            if (!eat(&p, '}')) return fail(err, errn, "malformed .npy header: expected ',' or '}'");
            break;
        }
    }
    if (!have_descr || !have_fo || !have_shape)
        return fail(err, errn, "malformed .npy header: needs descr, fortran_order and shape");
    if (fortran && r > 1) return fail(err, errn, "Fortran-order .npy arrays are not supported");
    /* descr: byte order + kind + size; '=' is native (little-endian here) */
    char d[32];
    snprintf(d, sizeof d, "%s", descr);
    if (d[0] == '>' && strcmp(d + 1, "i1") && strcmp(d + 1, "u1") && strcmp(d + 1, "b1"))
        return fail(err, errn, "big-endian .npy data ('%s') is not supported", descr);
    if (d[0] == '<' || d[0] == '|' || d[0] == '=' || d[0] == '>') memmove(d, d + 1, strlen(d));
    static const struct { const char *k; tc_dtype dt; } kinds[] = {
        {"b1", TC_I1}, {"i1", TC_I8}, {"i2", TC_I16}, {"i4", TC_I32}, {"i8", TC_I64},
        {"u1", TC_U8}, {"u2", TC_U16}, {"u4", TC_U32}, {"u8", TC_U64}, {"f2", TC_FP16},
        {"f4", TC_FP32}, {"f8", TC_FP64},
    };
    int found = -1;
    for (int i = 0; i < (int)(sizeof kinds / sizeof kinds[0]); i++)
        if (strcmp(d, kinds[i].k) == 0) found = i;
    if (found < 0) return fail(err, errn, "unsupported .npy dtype '%s'", descr);
    tc_dtype t = kinds[found].dt;
    uint64_t numel = 1;
    for (int i = 0; i < r; i++) {
        if (shp[i] && numel > NPY_MAX_BYTES / (uint64_t)shp[i])
            return fail(err, errn, ".npy array too large");
        numel *= (uint64_t)shp[i];
    }
    uint64_t bytes = numel * tc_dtype_size(t);
    if (bytes > NPY_MAX_BYTES) return fail(err, errn, ".npy array too large (%llu bytes)", (unsigned long long)bytes);
    size_t start = off + hlen;
    if (bytes > n - start)
        return fail(err, errn, "truncated .npy data: %llu bytes expected, %zu present",
                    (unsigned long long)bytes, n - start);
    void *out = malloc(bytes ? (size_t)bytes : 1);
    if (!out) return fail(err, errn, "out of memory");
    if (bytes) memcpy(out, buf + start, (size_t)bytes);
    *dt = t;
    *rank = r;
    for (int i = 0; i < r; i++) shape[i] = shp[i];
    *data = out;
    *nbytes = (size_t)bytes;
    return 0;
}

int npy_read(const char *path, tc_dtype *dt, int *rank, int64_t shape[TC_MAX_RANK], void **data,
             size_t *nbytes, char *err, size_t errn) {
    *data = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp) return fail(err, errn, "cannot open %s: %s", path, strerror(errno));
    if (fseek(fp, 0, SEEK_END) != 0) { fclose(fp); return fail(err, errn, "cannot read %s", path); }
    long sz = ftell(fp);
    if (sz < 0 || (uint64_t)sz > NPY_MAX_BYTES + NPY_MAX_HEADER + 16) {
        fclose(fp);
        return fail(err, errn, "%s: file too large or unreadable", path);
    }
    rewind(fp);
    unsigned char *buf = malloc(sz ? (size_t)sz : 1);
    if (!buf) { fclose(fp); return fail(err, errn, "out of memory"); }
    size_t got = fread(buf, 1, (size_t)sz, fp);
    fclose(fp);
    if (got != (size_t)sz) { free(buf); return fail(err, errn, "cannot read %s", path); }
    char e2[256];
    int rc = npy_decode(buf, got, dt, rank, shape, data, nbytes, e2, sizeof e2);
    free(buf);
    if (rc) return fail(err, errn, "%s: %s", path, e2);
    return 0;
}
