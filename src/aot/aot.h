/* aot.h — ahead of time (aot.c): compiling a kernel for a named target with no device
 * (tc_compile), ptxas, the generated C launcher (tc_emit_c), the loader the generated code
 * calls (tc_binary_*), and the disk-cache step of the JIT (aot_jit_module). */
#ifndef AOT_H
#define AOT_H

#include "runtime/jit.h"
#include "runtime/cache.h"
#include "driver/cuda.h"
#include "ir/ir.h"

/* For jit.c: the code of one traced specialization under CUDA, from the disk cache when it
 * holds it, else lowered with gpu_compile (and stored); then loaded. spec is the
 * launch's specialization string. *cache_event gets a tc_cache_event and note a sentence
 * for --verbose when an entry was refused or could not be stored. */
tc_status aot_jit_module(tc_kernel *k, const IrFunc *f, const char *spec, const tc_target *t,
                         int num_warps, int num_stages, int max_shared, CuModule **out,
                         int *threads, int *shared_bytes, int *cache_event, char *note,
                         size_t noten, Err *e);

/* One signature type: "*fp32:16", "*fp16", "i32", "i64:16", "i32:1", "fp32", "u1", or a
 * number (the value is baked in). Exposed for tests. */
bool aot_parse_sig(const char *s, tc_compiled_param *out);

/* The ptxas to run (TRITONC_PTXAS, PATH, /usr/local/cuda/bin/ptxas). */
bool aot_find_ptxas(char *buf, size_t n);

#endif
