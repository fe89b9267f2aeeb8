/* 01_hardware_queries.c — the chapter's 01_hardware_queries.py in C: the three hardware
 * questions (which driver, which target, which device properties). With no driver each
 * one refuses honestly, with the words Triton uses; nothing is made up.
 *
 *   ./build/examples/01_hardware_queries */
#include <stdio.h>
#include <string.h>

#include "tritonc.h"

/* The first line of the last error, as Python prints `f"{type(e).__name__}: {e}"`. */
static void print_error(tc_context *ctx) {
    const char *m = tc_errmsg(ctx);
    printf("RuntimeError: %.*s\n", (int)strcspn(m, "\n"), m);
    const char *why = strchr(m, '\n');
    if (why && why[1]) printf("  (why: %s)\n", why + 1);
}

int main(void) {
    tc_context *ctx;
    if (tc_context_new(&ctx)) return 1;
    printf("=== Section 10.1: querying hardware info without a GPU ===\n");

    const char *driver;
    if (tc_active_driver(ctx, &driver) == TC_OK) printf("active driver: %s\n", driver);
    else print_error(ctx);

    tc_target t;
    if (tc_current_target(ctx, &t) == TC_OK) {
        char s[128];
        tc_target_triton_str(&t, s, sizeof s);
        printf("current target: %s\n", s);
    } else {
        print_error(ctx);
    }

    int count = 0;
    tc_status s = tc_device_count(ctx, &count);
    printf("\ndevice available: %s\n", s == TC_OK && count > 0 ? "True" : "False");
    tc_device_props p;
    if (tc_device_properties(ctx, 0, &p) == TC_OK) {
        printf("device 0: %s, compute capability %d.%d, %d SMs, %.1f GiB, warp size %d\n",
               p.name, p.major, p.minor, p.multiprocessor_count,
               (double)p.total_memory / (1024.0 * 1024.0 * 1024.0), p.warp_size);
        printf("  shared memory per block (opt-in) %d bytes, L2 %d bytes, peak bandwidth %.0f GB/s\n",
               p.max_shared_memory_per_block_optin, p.l2_cache_size, p.peak_bandwidth_gbs);
    } else {
        print_error(ctx);
    }
    tc_context_free(ctx);
    return 0;
}
