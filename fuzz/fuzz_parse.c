/* fuzz_parse.c — libFuzzer target: arbitrary bytes as a kernel file, through the lexer and
 * the parser (source_new, lex, parse_module). Must never crash, hang, leak or refuse
 * without a status and a message. Seeds: the .py files of tests/kernels and examples. */
#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
    const char *why = fz_parse_one(data, n);
    if (why) {
        fprintf(stderr, "fuzz_parse: %s\n", why);
        abort();
    }
    return 0;
}
