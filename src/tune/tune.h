/* tune.h — the tune layer's interface to api.c: @triton.autotune, @triton.heuristics,
 * do_bench and the tuning database (the files of src/tune/; tuneint.h is what they share).
 *
 * The autotuner wraps the JIT: tc_launch (api.c) hands a launch of a kernel with decorators
 * to tune_launch, which computes the heuristics values, picks (and if need be benchmarks) a
 * config, sets them as constexprs and launch options, and calls jit_launch, the plain
 * launch. The JIT never calls back up. */
#ifndef TUNE_H
#define TUNE_H

#include "runtime/jit.h"

/* True when launches of k go through tune_launch (decorators or an API autotune spec). */
bool tune_wanted(const tc_kernel *k);
/* The launch of a kernel with heuristics and/or autotuning. */
tc_status tune_launch(tc_kernel *k, tc_args *a, const tc_launch_opts *opts);

/* Frees what tune/ keeps on a kernel (k->tune) and on a context (ctx->tune). */
void tune_kernel_free(tc_kernel *k);
void tune_context_free(tc_context *ctx);

/* ---- exposed for tests ---------------------------------------------------------------- */

/* Parses JSON text (at most 16 MiB, nesting at most 64) and checks it is a tuning database;
 * returns the number of entries, or -1 with a message in msg. name is used in messages. */
int tune_db_check(const char *name, const char *text, size_t len, char *msg, size_t n);

#endif
