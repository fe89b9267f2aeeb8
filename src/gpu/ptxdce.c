/* ptxdce.c — removes PTX instructions whose results nothing needs, before ptxas sees them.
 *
 * Lowering emits every element of a tile (a pointer tile of a loop, say, once per element)
 * although only some are read: a loop's pointer tile is used by one vector load per run of
 * contiguous elements. ptxas removes the rest too, but parsing and analysing them is most of
 * its time on tensor-core kernels (the driver runs it on every cold launch).
 *
 * Mark and sweep over register names, blind to control flow: the roots are the instructions
 * with effects (stores, barriers, branches, async copies, wgmma, calls, anything not in the
 * table of pure operations); a register is live when a live instruction reads it (its guard
 * predicate included); every instruction writing a live register is live. As all writes of a
 * live register are kept (predicated ones, loop-carried moves), what the kept code computes
 * is unchanged; a removed instruction wrote only registers no effect ever reads. */
#include "gpu/lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Operations without effects (the first component of the opcode); everything else is kept.
 * `ld` counts unless it is volatile or has memory-order semantics. */
static const char *const pure_ops[] = {
    "add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min", "max", "and", "or",
    "xor", "not", "cnot", "shl", "shr", "shf", "lop3", "prmt", "bfe", "bfi", "brev", "clz",
    "popc", "cvt", "cvta", "mov", "selp", "setp", "set", "slct", "sqrt", "rsqrt", "rcp", "ex2",
    "lg2", "sin", "cos", "tanh", "copysign", "testp", "ld", "ldmatrix", "mma", "mul24",
    "mad24", "sad", "dp4a", "dp2a", "isspacep", "addc", "subc", "madc", NULL};

static bool is_pure(const char *op, size_t n) {
    size_t head = strcspn(op, ".");
    if (head > n) head = n;
    for (int i = 0; pure_ops[i]; i++)
        if (strlen(pure_ops[i]) == head && !strncmp(op, pure_ops[i], head)) {
            if (head == 2 && !strncmp(op, "ld", 2)) {
                char o[96];
                snprintf(o, sizeof o, "%.*s", (int)(n < 95 ? n : 95), op);
                return !strstr(o, ".volatile") && !strstr(o, ".acquire") && !strstr(o, ".relaxed") &&
                       !strstr(o, ".mmio");
            }
            return true;
        }
    return false;
}

/* A register token at p ("%p12", "%h3", "%r7", "%rd40"): its id (class * stride + number),
 * its length in *len; -1 for anything else (%tid.x, %ctaid, parameters...). */
static int reg_at(const char *p, const int nregs[4], int stride, size_t *len) {
    if (p[0] != '%') return -1;
    int c = p[1] == 'p' ? 0 : p[1] == 'h' ? 1 : p[1] == 'r' && p[2] == 'd' ? 3 : p[1] == 'r' ? 2 : -1;
    if (c < 0) return -1;
    const char *q = p + (c == 3 ? 3 : 2);
    if (*q < '0' || *q > '9') return -1;
    long v = 0;
    while (*q >= '0' && *q <= '9') v = v * 10 + (*q++ - '0');
    if ((*q >= 'a' && *q <= 'z') || *q == '_' || v > nregs[c]) return -1;
    *len = (size_t)(q - p);
    return c * stride + (int)v;
}

typedef struct Line {
    const char *s;
    size_t n;
    bool insn, root, live;
    int def0, ndef, use0, nuse;   /* spans of the regs array */
} Line;

typedef struct Ints { int *v; int n, cap; bool oom; } Ints;

static void push(Ints *a, int x) {
    if (a->n == a->cap) {
        int nc = a->cap ? a->cap * 2 : 1024;
        int *nv = realloc(a->v, sizeof *nv * (size_t)nc);
        if (!nv) { a->oom = true; return; }
        a->v = nv;
        a->cap = nc;
    }
    a->v[a->n++] = x;
}

/* Registers in s[0..n) into a. */
static void scan_regs(const char *s, size_t n, const int nregs[4], int stride, Ints *a) {
    for (size_t i = 0; i < n; i++) {
        size_t len;
        int r = s[i] == '%' ? reg_at(s + i, nregs, stride, &len) : -1;
        if (r >= 0) { push(a, r); i += len - 1; }
    }
}

/* Fills L from one line of text: an instruction's defs and uses, or not an instruction. */
static void parse_line(Line *L, const int nregs[4], int stride, Ints *defs, Ints *uses) {
    const char *s = L->s, *end = s + L->n;
    while (s < end && (*s == '\t' || *s == ' ')) s++;
    L->def0 = defs->n;
    L->use0 = uses->n;
    /* labels, directives (.loc, .reg, .param in call blocks), braces, comments: kept as
     * they are; registers they name count as used */
    if (s == end || *s == '$' || *s == '.' || *s == '{' || *s == '}' || *s == '/') {
        scan_regs(s, (size_t)(end - s), nregs, stride, uses);
        L->nuse = uses->n - L->use0;
        return;
    }
    L->insn = true;
    if (*s == '@') {   /* guard predicate */
        const char *g = s;
        while (s < end && *s != ' ' && *s != '\t') s++;
        scan_regs(g, (size_t)(s - g), nregs, stride, uses);
        while (s < end && (*s == ' ' || *s == '\t')) s++;
    }
    const char *op = s;
    while (s < end && *s != ' ' && *s != '\t' && *s != ';') s++;
    size_t opn = (size_t)(s - op);
    L->root = !is_pure(op, opn);
    if (L->root) {
        scan_regs(s, (size_t)(end - s), nregs, stride, uses);
        L->nuse = uses->n - L->use0;
        return;
    }
    /* the destination is the first operand: a register, {a, b, ...} or p|q */
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    const char *d = s;
    if (s < end && *s == '{') {
        while (s < end && *s != '}') s++;
        if (s < end) s++;
    } else {
        while (s < end && *s != ',' && *s != ';') s++;
    }
    scan_regs(d, (size_t)(s - d), nregs, stride, defs);
    scan_regs(s, (size_t)(end - s), nregs, stride, uses);
    L->ndef = defs->n - L->def0;
    L->nuse = uses->n - L->use0;
    if (L->ndef == 0) L->root = true;   /* nothing written we could track: keep it */
}

/* Removes the dead instructions of text (whole lines ending in '\n'); false on out of
 * memory (text unchanged). */
bool ptx_dce(Buf *text, const int nregs[4]) {
    if (!text->s || !text->len) return true;
    int stride = 1;
    for (int c = 0; c < 4; c++) if (nregs[c] + 1 > stride) stride = nregs[c] + 1;
    int nreg_ids = 4 * stride;
    int nl = 0;
    for (size_t i = 0; i < text->len; i++) nl += text->s[i] == '\n';
    Line *lines = calloc((size_t)nl + 1, sizeof *lines);
    bool *live = calloc((size_t)nreg_ids, 1);
    int *ndefs = calloc((size_t)nreg_ids + 1, sizeof *ndefs);   /* reg -> its defining lines */
    int *deflines = NULL, *work = NULL;
    Ints defs = {0}, uses = {0};
    bool ok = false;
    if (!lines || !live || !ndefs) goto out;
    int n = 0;
    for (const char *p = text->s, *e = text->s + text->len; p < e; n++) {
        const char *q = memchr(p, '\n', (size_t)(e - p));
        if (!q) q = e;
        lines[n].s = p;
        lines[n].n = (size_t)(q - p);
        parse_line(&lines[n], nregs, stride, &defs, &uses);
        p = q + 1;
    }
    if (defs.oom || uses.oom) goto out;
    /* reg -> lines writing it, as offsets into deflines */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < lines[i].ndef; j++) ndefs[defs.v[lines[i].def0 + j] + 1]++;
    for (int r = 0; r < nreg_ids; r++) ndefs[r + 1] += ndefs[r];
    deflines = malloc(sizeof *deflines * (size_t)(defs.n + 1));
    work = malloc(sizeof *work * (size_t)(nreg_ids + 1));
    int *fill = calloc((size_t)nreg_ids, sizeof *fill);
    if (!deflines || !work || !fill) { free(fill); goto out; }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < lines[i].ndef; j++) {
            int r = defs.v[lines[i].def0 + j];
            deflines[ndefs[r] + fill[r]++] = i;
        }
    free(fill);
    int nwork = 0;
    /* roots and non-instructions are live; their registers too */
    for (int i = 0; i < n; i++) {
        if (lines[i].insn && !lines[i].root) continue;
        lines[i].live = true;
        for (int j = 0; j < lines[i].nuse; j++) {
            int r = uses.v[lines[i].use0 + j];
            if (!live[r]) { live[r] = true; work[nwork++] = r; }
        }
    }
    while (nwork) {
        int r = work[--nwork];
        for (int k = ndefs[r]; k < ndefs[r + 1]; k++) {
            Line *L = &lines[deflines[k]];
            if (L->live) continue;
            L->live = true;
            for (int j = 0; j < L->nuse; j++) {
                int u = uses.v[L->use0 + j];
                if (!live[u]) { live[u] = true; work[nwork++] = u; }
            }
        }
    }
    /* sweep, in place: kept lines move down */
    size_t w = 0, len = text->len;
    for (int i = 0; i < n; i++) {
        if (!lines[i].live) continue;
        bool nlc = lines[i].s + lines[i].n < text->s + len;   /* it ended in '\n' */
        memmove(text->s + w, lines[i].s, lines[i].n);
        w += lines[i].n;
        if (nlc) text->s[w++] = '\n';
    }
    text->len = w;
    text->s[w] = 0;
    ok = true;
out:
    free(lines);
    free(live);
    free(ndefs);
    free(deflines);
    free(work);
    free(defs.v);
    free(uses.v);
    return ok;
}
