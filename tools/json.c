/* json.c — `--json` output of `tritonc run`, `check`, `compile` and `cache ls`: strings,
 * numbers (NaN and infinities, which JSON lacks, are null), a tensor's summary and values,
 * the launch report and check mode's findings (tc_last_check_findings). Public API only. */
#include "cli.h"
#include "tritonc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

void cli_json_double(FILE *f, double v) {
    if (!isfinite(v)) { fputs("null", f); return; }
    char b[64];
    tc_format_double(v, b, sizeof b);   /* "11.0", "1e-05": JSON numbers as Python prints them */
    fputs(b, f);
}

/* ---- elements ------------------------------------------------------------------------ */

static double half_to_double(uint16_t h, int bf16) {
    if (bf16) {
        uint32_t x = (uint32_t)h << 16;
        float g;
        memcpy(&g, &x, 4);
        return g;
    }
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return h & 0x8000 ? -v : v;
}

static double elem_double(tc_dtype dt, const void *b, int64_t i) {
    switch (dt) {
    case TC_I1: case TC_U8: return ((const uint8_t *)b)[i];
    case TC_I8: return ((const int8_t *)b)[i];
    case TC_I16: return ((const int16_t *)b)[i];
    case TC_U16: return ((const uint16_t *)b)[i];
    case TC_I32: return ((const int32_t *)b)[i];
    case TC_U32: return ((const uint32_t *)b)[i];
    case TC_I64: return (double)((const int64_t *)b)[i];
    case TC_U64: return (double)((const uint64_t *)b)[i];
    case TC_FP16: return half_to_double(((const uint16_t *)b)[i], 0);
    case TC_BF16: return half_to_double(((const uint16_t *)b)[i], 1);
    case TC_FP32: return ((const float *)b)[i];
    case TC_FP64: return ((const double *)b)[i];
    case TC_FP8E5: case TC_FP8E4NV: case TC_FP8E4B15: return tc_fp8_decode(dt, ((const uint8_t *)b)[i]);
    }
    return 0;
}

static void elem_json(FILE *f, tc_dtype dt, const void *b, int64_t i) {
    switch (dt) {
    case TC_I1: fputs(((const uint8_t *)b)[i] ? "true" : "false", f); return;
    case TC_I64: fprintf(f, "%lld", (long long)((const int64_t *)b)[i]); return;
    case TC_U64: fprintf(f, "%llu", (unsigned long long)((const uint64_t *)b)[i]); return;
    case TC_FP16: case TC_BF16: case TC_FP32: case TC_FP64: case TC_FP8E5: case TC_FP8E4NV:
    case TC_FP8E4B15:
        cli_json_double(f, elem_double(dt, b, i));
        return;
    default: fprintf(f, "%.0f", elem_double(dt, b, i)); return;
    }
}

static void values_json(FILE *f, tc_dtype dt, const void *b, int rank, const int64_t *shape,
                        int d, int64_t *idx) {
    if (d == rank) { elem_json(f, dt, b, (*idx)++); return; }
    fputc('[', f);
    for (int64_t i = 0; i < shape[d]; i++) {
        if (i) fputs(", ", f);
        values_json(f, dt, b, rank, shape, d + 1, idx);
    }
    fputc(']', f);
}

int cli_json_tensor(FILE *f, tc_tensor *t, int with_values) {
    tc_dtype dt = tc_tensor_dtype(t);
    int rank = tc_tensor_rank(t);
    const int64_t *shape = tc_tensor_shape(t);
    int64_t n = tc_tensor_numel(t);
    size_t nb = tc_tensor_nbytes(t);
    void *b = malloc(nb ? nb : 1);
    if (!b) return 1;
    if (tc_tensor_to_host(t, b, nb)) { free(b); return 1; }
    fputs("\"dtype\": ", f);
    cli_json_str(f, tc_dtype_name(dt));
    fputs(", \"shape\": [", f);
    for (int i = 0; i < rank; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)shape[i]);
    fputs("]", f);
    /* the summary: over the finite elements; NaN and infinities counted apart */
    double mn = INFINITY, mx = -INFINITY, sum = 0;
    int64_t nan = 0, inf = 0, fin = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = elem_double(dt, b, i);
        if (isnan(v)) { nan++; continue; }
        if (isinf(v)) { inf++; continue; }
        fin++;
        sum += v;
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    fprintf(f, ", \"numel\": %lld, \"min\": ", (long long)n);
    cli_json_double(f, fin ? mn : NAN);
    fputs(", \"max\": ", f);
    cli_json_double(f, fin ? mx : NAN);
    fputs(", \"mean\": ", f);
    cli_json_double(f, fin ? sum / (double)fin : NAN);
    fprintf(f, ", \"nan\": %lld, \"inf\": %lld", (long long)nan, (long long)inf);
    if (with_values) {
        int64_t idx = 0;
        fputs(", \"values\": ", f);
        values_json(f, dt, b, rank, shape, 0, &idx);
    }
    free(b);
    return 0;
}

void cli_json_report(FILE *f, const tc_launch_report *r) {
    fprintf(f, "\"backend\": \"%s\", \"specialization\": ",
            r->backend == TC_BACKEND_CUDA ? "cuda" : "interpreter");
    cli_json_str(f, r->specialization);
    fprintf(f, ", \"grid\": [%u, %u, %u], \"num_warps\": %d, \"num_stages\": %d, \"threads\": %d, "
            "\"compiled\": %s, \"disk_cache\": ", r->grid[0], r->grid[1], r->grid[2], r->num_warps,
            r->num_stages, r->threads, r->compiled ? "true" : "false");
    cli_json_str(f, r->backend == TC_BACKEND_CUDA && r->compiled ? tc_cache_event_name(r->disk_cache) : "");
    fputs(", \"compile_ms\": ", f);
    cli_json_double(f, r->compile_ms);
    fputs(", \"run_ms\": ", f);
    cli_json_double(f, r->run_ms);
    fputs(", \"note\": ", f);
    cli_json_str(f, r->note);
    fputs(", \"dot\": ", f);
    cli_json_str(f, r->dot);
    fprintf(f, ", \"shared_bytes\": %d", r->shared_bytes);
}

static void json_pid(FILE *f, const int64_t p[3]) {
    if (p[0] < 0) fputs("null", f);
    else fprintf(f, "[%lld, %lld, %lld]", (long long)p[0], (long long)p[1], (long long)p[2]);
}

static void json_loc(FILE *f, const char *file, int line, int col) {
    if (!file[0]) { fputs("null", f); return; }
    fputs("{\"file\": ", f);
    cli_json_str(f, file);
    fprintf(f, ", \"line\": %d, \"col\": %d}", line, col);
}

int cli_json_findings(FILE *f, tc_context *ctx) {
    tc_check_finding *r = NULL;
    int n = 0;
    if (tc_last_check_findings(ctx, &r, &n, sizeof *r)) return 1;
    fputs("[", f);
    for (int i = 0; i < n; i++) {
        const tc_check_finding *x = &r[i];
        fputs(i ? ",\n    {\"kind\": " : "\n    {\"kind\": ", f);
        cli_json_str(f, x->kind);
        fprintf(f, ", \"note\": %s, \"where\": ", x->note ? "true" : "false");
        json_loc(f, x->file, x->line, x->col);
        fputs(", \"other\": ", f);
        json_loc(f, x->file2, x->line2, x->col2);
        fputs(", \"program\": ", f);
        json_pid(f, x->program);
        fputs(", \"other_program\": ", f);
        json_pid(f, x->program2);
        if (x->lane >= 0) fprintf(f, ", \"lane\": %lld", (long long)x->lane);
        else fputs(", \"lane\": null", f);
        if (x->address) fprintf(f, ", \"address\": \"0x%llx\"", (unsigned long long)x->address);
        else fputs(", \"address\": null", f);
        fputs(", \"tensor\": ", f);
        if (x->tensor[0]) cli_json_str(f, x->tensor);
        else fputs("null", f);
        if (x->element >= 0) fprintf(f, ", \"element\": %lld", (long long)x->element);
        else fputs(", \"element\": null", f);
        fprintf(f, ", \"count\": %llu, \"message\": ", (unsigned long long)x->count);
        cli_json_str(f, x->message);
        fputs("}", f);
    }
    fputs(n ? "\n  ]" : "]", f);
    tc_free(r);
    return 0;
}

void cli_text_append(const char *text, void *user) {
    CliText *t = user;
    size_t l = strlen(text);
    if (t->n + l + 1 > t->cap) {
        size_t nc = (t->n + l + 1) * 2;
        char *ns = realloc(t->s, nc);
        if (!ns) return;
        t->s = ns;
        t->cap = nc;
    }
    memcpy(t->s + t->n, text, l + 1);
    t->n += l;
}
