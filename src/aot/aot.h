/* aot.h — ahead of time (aot.c): compiling a kernel for a named target with no device
 * (tc_compile), ptxas, the generated C launcher (tc_emit_c), the loader the generated code
 * calls (tc_binary_*). */
#ifndef AOT_H
#define AOT_H

#include "runtime/jit.h"
#include "runtime/cache.h"
#include "driver/cuda.h"
#include "ir/ir.h"

/* One signature type: "*fp32:16", "*fp16", "i32", "i64:16", "i32:1", "fp32", "u1", or a
 * number (the value is baked in). Exposed for tests. */
bool aot_parse_sig(const char *s, tc_compiled_param *out);

/* The ptxas to run (TRITONC_PTXAS, PATH, /usr/local/cuda/bin/ptxas). */
bool aot_find_ptxas(char *buf, size_t n);

#endif
