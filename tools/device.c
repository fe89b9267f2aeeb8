/* device.c — `--device N` for `tritonc run`, `bench` and `tune`: which GPU of the host runs
 * the kernel. A kernel is compiled once per architecture and loaded on each device that
 * launches it (the library's cache); the interpreter has no devices and ignores the option. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int cli_parse_device(const char *cmd, const char *v, int *device) {
    char *end;
    long n = v ? strtol(v, &end, 10) : -1;
    if (!v || !*v || *end || n < 0 || n > 1023)
        return cli_usage_error(cmd, "--device takes a device number (0 for the first GPU)");
    *device = (int)n;
    return EXIT_OK;
}

int cli_use_device(tc_context *ctx, const char *cmd, int device) {
    if (device < 0) return EXIT_OK;   /* not given: device 0, as Triton's current device */
    tc_backend b;
    tc_status s = tc_context_backend(ctx, &b);
    if (s) return cli_api_error(ctx, s, 1);
    if (b != TC_BACKEND_CUDA) return EXIT_OK;
    s = tc_set_device(ctx, device);
    if (s == TC_ERR_NOT_FOUND) return cli_usage_error(cmd, "%s", tc_errmsg(ctx));
    return s ? cli_api_error(ctx, s, 1) : EXIT_OK;
}
