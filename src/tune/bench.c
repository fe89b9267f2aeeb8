/* bench.c — do_bench as Triton's triton.testing.do_bench: a first call compiles, five
 * timed calls estimate the cost, then warmup and repetitions sized from the estimate, each
 * repetition after flushing the L2 cache (a memset of 256 MiB by default) and timed with CUDA
 * events; the median, 20th and 80th percentiles. tc_bench_kernel times a kernel's launch
 * (through the autotuner when it has decorators). */
#include "tune/tuneint.h"
#include "driver/cuda.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int dcmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(const double *s, int n, double q) {
    double pos = q * (n - 1);
    int lo = (int)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
    double f = pos - lo;
    return s[lo] + (s[hi] - s[lo]) * f;
}

tc_status tc_do_bench(tc_context *ctx, tc_bench_fn fn, void *user, const tc_bench_opts *opts,
                      tc_bench_result *out) {
    if (!ctx) return TC_ERR_ARG;
    if (!fn || !out) return ctx_fail(ctx, TC_ERR_ARG, "tc_do_bench: NULL function or result");
    memset(out, 0, sizeof *out);
    double warmup = opts && opts->warmup_ms > 0 ? opts->warmup_ms : 25;
    double rep = opts && opts->rep_ms > 0 ? opts->rep_ms : 100;
    size_t flush = opts && opts->flush_bytes ? opts->flush_bytes : (size_t)256 << 20;
    const char *fb = getenv("TRITONC_BENCH_FLUSH_BYTES");   /* for tests on the fake driver */
    if (!(opts && opts->flush_bytes) && fb && atoll(fb) > 0) flush = (size_t)atoll(fb);
    const char *drv = NULL;
    Err e = {0};
    if (driver_active(&drv, &e) != TC_OK) return ctx_take(ctx, &e);
    if (cuda_init(&e) || ctx_use_cuda(ctx, &e)) return ctx_take(ctx, &e);
    tc_status rc = fn(user);   /* compiles */
    if (rc) return rc;
    if (cuda_sync(&e)) return ctx_take(ctx, &e);
    CuDevPtr cache = 0;
    if (cuda_alloc(flush, &cache, &e)) return ctx_take(ctx, &e);
    CuEvent *s0 = NULL, *e0 = NULL, **ev = NULL;
    double *times = NULL;
    int nrep = 0, nev = 0;
    if (cuda_event_new(&s0, &e) || cuda_event_new(&e0, &e)) goto driver_err;
    if (cuda_event_record(s0, NULL, &e)) goto driver_err;
    for (int i = 0; i < 5; i++) {
        if (cuda_memset0(cache, flush, &e)) goto driver_err;
        if ((rc = fn(user))) goto fail;
    }
    if (cuda_event_record(e0, NULL, &e) || cuda_sync(&e)) goto driver_err;
    float est_f = 0;
    if (cuda_event_elapsed_ms(s0, e0, &est_f, &e)) goto driver_err;
    double est = est_f / 5.0;
    if (est <= 0) est = 1e-3;
    double nw = warmup / est, nr = rep / est;
    int n_warmup = nw < 1 ? 1 : nw > 1e6 ? 1000000 : (int)nw;
    nrep = nr < 1 ? 1 : nr > 1e5 ? 100000 : (int)nr;
    out->estimate_ms = est;
    out->n_warmup = n_warmup;
    out->n_repeat = nrep;
    for (int i = 0; i < n_warmup; i++)
        if ((rc = fn(user))) goto fail;
    ev = calloc((size_t)nrep * 2, sizeof *ev);
    times = calloc((size_t)nrep, sizeof *times);
    if (!ev || !times) { rc = ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); goto fail; }
    for (int i = 0; i < nrep * 2; i++, nev++)
        if (cuda_event_new(&ev[i], &e)) goto driver_err;
    for (int i = 0; i < nrep; i++) {
        if (cuda_memset0(cache, flush, &e)) goto driver_err;
        if (cuda_event_record(ev[2 * i], NULL, &e)) goto driver_err;
        if ((rc = fn(user))) goto fail;
        if (cuda_event_record(ev[2 * i + 1], NULL, &e)) goto driver_err;
    }
    if (cuda_sync(&e)) goto driver_err;
    for (int i = 0; i < nrep; i++) {
        float ms;
        if (cuda_event_elapsed_ms(ev[2 * i], ev[2 * i + 1], &ms, &e)) goto driver_err;
        times[i] = ms;
    }
    qsort(times, (size_t)nrep, sizeof *times, dcmp);
    double sum = 0;
    for (int i = 0; i < nrep; i++) sum += times[i];
    out->median_ms = quantile(times, nrep, 0.5);
    out->p20_ms = quantile(times, nrep, 0.2);
    out->p80_ms = quantile(times, nrep, 0.8);
    out->mean_ms = sum / nrep;
    out->min_ms = times[0];
    out->max_ms = times[nrep - 1];
    rc = TC_OK;
    goto done;
driver_err:
    rc = ctx_take(ctx, &e);
fail:
done:
    for (int i = 0; i < nev; i++) cuda_event_free(ev[i]);
    free(ev);
    free(times);
    if (s0) cuda_event_free(s0);
    if (e0) cuda_event_free(e0);
    cuda_free(cache);
    return rc;
}

/* ---- benchmarking a kernel ---------------------------------------------------------------------- */

typedef struct KB { tc_kernel *k; tc_args *a; const tc_launch_opts *o; } KB;

static tc_status kb_call(void *u) {
    KB *b = u;
    return tune_wanted(b->k) ? tune_launch(b->k, b->a, b->o) : jit_launch(b->k, b->a, b->o);
}

tc_status tc_bench_kernel(tc_kernel *k, tc_args *a, const tc_launch_opts *lopts,
                          const tc_bench_opts *opts, tc_bench_result *out) {
    if (!k) return TC_ERR_ARG;
    KB b = {k, a, lopts};
    return tc_do_bench(k->m->ctx, kb_call, &b, opts, out);
}
