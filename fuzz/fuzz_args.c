/* fuzz_args.c — libFuzzer target: the command line's value readers. tools/tritonc.c is
 * compiled into this target (its `main` renamed) so that its static parsers are reached
 * exactly as `tritonc run` reaches them; tools/npy.c is linked.
 *
 * The first byte picks what the rest is:
 *   'n'  a .npy image for npy_decode (the reader behind NAME=@FILE.npy)
 *   'v'  VALUE of a runtime parameter: parse_value (numbers, DTYPE[...] literals,
 *        DTYPE:zeros(...) factories), then the tensor it makes is freed
 *   'c'  VALUE of a constexpr parameter: parse_value(is_constexpr=1)
 *   'g'  the argument of --grid: parse_grid
 *   'i'  a number: parse_int and parse_float
 * any other first byte: its value mod 5 picks one of them in that order.
 * Values starting with '@' are skipped (they name files); factories of more than 2^20
 * elements are skipped (they are refused above 2^34 elements, and between the two they
 * only cost memory — tests/test_limits.c covers the limit). */
#define main tritonc_main_for_fuzzing
#include "../tools/tritonc.c"
#undef main

#include <unistd.h>

static tc_context *fz_ctx;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    if (tc_context_new(&fz_ctx) != TC_OK || tc_context_set_backend(fz_ctx, TC_BACKEND_INTERPRET))
        abort();
    return 0;
}

/* Product of the dimensions of a DTYPE:fn(d0,d1,...) value, as parse_factory reads them;
 * -1 when it cannot tell (then parse_factory refuses it too). */
static int64_t factory_numel(const char *s) {
    const char *lp = strchr(s, '('), *rp = lp ? strchr(lp, ')') : NULL;
    if (!lp || !rp) return -1;
    int64_t numel = 1;
    const char *p = lp + 1;
    while (p < rp) {
        while (*p == ' ') p++;
        if (p >= rp) break;
        size_t n = strcspn(p, ",)");
        char num[32];
        if (n == 0 || n >= sizeof num) return -1;
        memcpy(num, p, n);
        num[n] = 0;
        int64_t d;
        if (!parse_int(num, &d) || d < 0) return -1;
        if (d > ((int64_t)1 << 40) || (d && numel > ((int64_t)1 << 40) / d)) return (int64_t)1 << 40;
        numel *= d;
        p += n;
        if (*p == ',') p++;
    }
    return numel;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n) {
    if (n < 1) return 0;
    int mode;
    switch (data[0]) {
    case 'n': mode = 0; break;
    case 'v': mode = 1; break;
    case 'c': mode = 2; break;
    case 'g': mode = 3; break;
    case 'i': mode = 4; break;
    default: mode = data[0] % 5; break;
    }
    data++;
    n--;
    if (mode == 0) {
        tc_dtype dt;
        int rank = -1;
        int64_t shape[TC_MAX_RANK];
        void *out = NULL;
        size_t nbytes = 0;
        char err[256] = "";
        /* a copy of exactly n bytes, so that ASan sees any read past the end */
        unsigned char *buf = malloc(n ? n : 1);
        if (!buf) return 0;
        memcpy(buf, data, n);
        int rc = npy_decode(buf, n, &dt, &rank, shape, &out, &nbytes, err, sizeof err);
        if (rc == 0) {
            if (rank < 0 || rank > TC_MAX_RANK || !tc_dtype_name(dt)) {
                fprintf(stderr, "npy_decode accepted rank %d dtype %d\n", rank, (int)dt);
                abort();
            }
            uint64_t numel = 1;
            for (int i = 0; i < rank; i++) numel *= (uint64_t)shape[i];
            if (numel * tc_dtype_size(dt) != nbytes || nbytes > n) {
                fprintf(stderr, "npy_decode: %zu bytes for %llu elements\n", nbytes,
                        (unsigned long long)numel);
                abort();
            }
            if (nbytes) (void)((volatile unsigned char *)out)[nbytes - 1];
        } else if (!err[0]) {
            fprintf(stderr, "npy_decode refused with no message\n");
            abort();
        }
        free(out);
        free(buf);
        return 0;
    }
    char *s = malloc(n + 1);
    if (!s) return 0;
    memcpy(s, data, n);
    s[n] = 0;
    if (mode == 1 || mode == 2) {
        const char *lb = strchr(s, '[');
        const char *colon = strchr(s, ':');
        if (s[0] == '@' ||
            (colon && (!lb || colon < lb) && factory_numel(s) > ((int64_t)1 << 20))) {
            free(s);
            return 0;
        }
        RunArg ra;
        memset(&ra, 0, sizeof ra);
        int rc = parse_value(fz_ctx, "x", s, mode == 2, &ra);
        if (rc == 0) {
            if (ra.v.kind == TC_VAL_TENSOR && ra.t == NULL) {
                fprintf(stderr, "parse_value: a tensor value with no tensor\n");
                abort();
            }
        } else if (ra.t) {
            fprintf(stderr, "parse_value failed (%d) but made a tensor\n", rc);
            abort();
        }
        tc_tensor_free(ra.t);
    } else if (mode == 3) {
        uint32_t g[3];
        (void)parse_grid(s, g);
    } else {
        int64_t iv;
        double fv;
        (void)parse_int(s, &iv);
        (void)parse_float(s, &fv);
    }
    free(s);
    return 0;
}
