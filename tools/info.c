/* info.c — `tritonc info`: the three hardware questions and their answers (which
 * driver is active, which target, which device properties), or the honest refusals when
 * there is no driver. Uses only the public API. */
#include "cli.h"
#include "../include/tritonc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char info_usage[] =
    "usage: tritonc info [--json] [--device N] [--help]\n"
    "\n"
    "Answers the three hardware questions:\n"
    "  which driver is active?   (Triton: triton.runtime.driver.active)\n"
    "  which target?             (driver.active.get_current_target())\n"
    "  device properties         (torch.cuda.get_device_properties(N))\n"
    "\n"
    "options:\n"
    "  --json        print one JSON object instead of text\n"
    "  --device N    the device to ask about (default: all devices; target of device 0)\n"
    "  --help        this text\n"
    "\n"
    "environment:\n"
    "  TRITONC_LIBCUDA_PATH   the CUDA driver library to open (default libcuda.so.1)\n"
    "  TRITON_OVERRIDE_ARCH   compile for this arch instead of the device's (sm80, sm_90a)\n"
    "  CUDA_VISIBLE_DEVICES   the devices the driver shows\n"
    "\n"
    "exit status: 0 answered, 1 error, 2 usage error (bad option or device), "
    "3 no active driver\n";

/* ---- JSON output ---------------------------------------------------------------------- */

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* The first line of msg into buf; *rest points after it ("" if none). */
static void split_first_line(const char *msg, char *buf, size_t n, const char **rest) {
    size_t full = strcspn(msg, "\n");
    size_t len = full < n ? full : n - 1;
    memcpy(buf, msg, len);
    buf[len] = 0;
    *rest = msg[full] == '\n' ? msg + full + 1 : msg + full;
}

static void version_str(int v, char *buf, size_t n) {
    if (v <= 0) snprintf(buf, n, "unknown");
    else if (v % 10) snprintf(buf, n, "%d.%d.%d", v / 1000, (v % 1000) / 10, v % 10);
    else snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

static void ptx_target_str(const tc_target *t, char *buf, size_t n) {
    snprintf(buf, n, "sm_%d%s", t->arch, t->arch_suffix_a ? "a" : "");
}

static void json_props(FILE *f, int dev, const tc_device_props *p, const char *indent) {
    fprintf(f, "%s{\"index\": %d, \"name\": ", indent, dev);
    json_str(f, p->name);
    fprintf(f,
            ", \"major\": %d, \"minor\": %d, \"compute_capability\": \"%d.%d\", "
            "\"multiprocessor_count\": %d, \"total_memory\": %zu, \"l2_cache_size\": %d, "
            "\"max_shared_memory_per_block_optin\": %d, "
            "\"max_shared_memory_per_multiprocessor\": %d, \"max_registers_per_block\": %d, "
            "\"warp_size\": %d, \"max_threads_per_block\": %d, \"sm_clock_khz\": %d, "
            "\"mem_clock_khz\": %d, \"mem_bus_width_bits\": %d, \"peak_bandwidth_gbs\": %.1f}",
            p->major, p->minor, p->major, p->minor, p->multiprocessor_count, p->total_memory,
            p->l2_cache_size, p->max_shared_memory_per_block_optin,
            p->max_shared_memory_per_multiprocessor, p->max_registers_per_block, p->warp_size,
            p->max_threads_per_block, p->sm_clock_khz, p->mem_clock_khz, p->mem_bus_width_bits,
            p->peak_bandwidth_gbs);
}

static void text_props(int dev, const tc_device_props *p, int current, int ndev) {
    printf("device %d: %s%s\n", dev, p->name, ndev > 1 && current ? " (current)" : "");
    printf("  compute capability     %d.%d\n", p->major, p->minor);
    printf("  multiprocessors        %d\n", p->multiprocessor_count);
    printf("  total memory           %zu bytes (%.0f MiB, %.1f GB)\n", p->total_memory,
           (double)p->total_memory / 1048576.0, (double)p->total_memory / 1e9);
    printf("  L2 cache               %d bytes (%.1f MiB)\n", p->l2_cache_size,
           p->l2_cache_size / 1048576.0);
    printf("  shared memory / block  %d bytes (opt-in maximum)\n",
           p->max_shared_memory_per_block_optin);
    printf("  shared memory / SM     %d bytes\n", p->max_shared_memory_per_multiprocessor);
    printf("  registers / block      %d\n", p->max_registers_per_block);
    printf("  warp size              %d\n", p->warp_size);
    printf("  threads / block        %d\n", p->max_threads_per_block);
    printf("  SM clock               %d kHz (%.0f MHz)\n", p->sm_clock_khz, p->sm_clock_khz / 1e3);
    printf("  memory clock           %d kHz (%.0f MHz)\n", p->mem_clock_khz,
           p->mem_clock_khz / 1e3);
    printf("  memory bus width       %d bits\n", p->mem_bus_width_bits);
    printf("  peak bandwidth         %.1f GB/s (2 x memory clock x bus width / 8)\n",
           p->peak_bandwidth_gbs);
}

/* ---- the command ------------------------------------------------------------------------ */

static int parse_device(const char *s, int *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < INT_MIN || v > INT_MAX) return -1;
    *out = (int)v;
    return 0;
}

int cmd_info(int argc, char **argv) {
    int json = 0, device = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(info_usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--device") || !strncmp(a, "--device=", 9)) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) {
                fprintf(stderr, "tritonc info: --device needs a device number\n");
                return 2;
            }
            if (parse_device(v, &device) || device < 0) {
                fprintf(stderr, "tritonc info: --device %s: not a device number\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "tritonc info: unknown option '%s'\n%s", a, info_usage);
            return 2;
        }
    }

    tc_context *ctx = NULL;
    if (tc_context_new(&ctx) != TC_OK) {
        fprintf(stderr, "tritonc info: out of memory\n");
        return 1;
    }
    int rc = 0;
    char buf[4096], line[1024];
    const char *rest;

    /* --device N: a bad N is a usage error, but only once there is a driver to ask. */
    if (device >= 0) {
        tc_status st = tc_set_device(ctx, device);
        if (st == TC_ERR_NOT_FOUND || st == TC_ERR_ARG) {
            if (json) {
                printf("{\"error\": ");
                json_str(stdout, tc_errmsg(ctx));
                printf(", \"status\": \"%s\"}\n", tc_status_name(st));
            }
            fprintf(stderr, "tritonc info: --device %d: %s\n", device, tc_errmsg(ctx));
            tc_context_free(ctx);
            return 2;
        }
    }

    /* 1. which driver is active? */
    const char *driver = NULL, *library = NULL;
    int version = 0;
    tc_status dst = tc_active_driver(ctx, &driver);
    char driver_err[4096] = "";
    if (dst == TC_OK) tc_driver_version(ctx, &library, &version);
    else snprintf(driver_err, sizeof driver_err, "%s", tc_errmsg(ctx));

    /* 2. which target? */
    tc_target target;
    tc_status tst = tc_current_target(ctx, &target);
    char target_err[4096] = "";
    if (tst != TC_OK) snprintf(target_err, sizeof target_err, "%s", tc_errmsg(ctx));
    const char *ov = getenv("TRITON_OVERRIDE_ARCH");
    int overridden = tst == TC_OK && ov && *ov;

    /* 3. device properties */
    int ndev = 0, first = 0, last = -1;
    tc_status cst = tc_device_count(ctx, &ndev);
    char dev_err[4096] = "";
    if (cst != TC_OK) snprintf(dev_err, sizeof dev_err, "%s", tc_errmsg(ctx));
    else if (device >= 0) first = last = device;
    else first = 0, last = ndev - 1;
    int cur = tc_current_device(ctx);
    tc_device_props cur_props;
    int have_cur = cst == TC_OK && tc_device_properties(ctx, cur, &cur_props) == TC_OK;

    if (dst == TC_ERR_NO_DRIVER || tst == TC_ERR_NO_DRIVER || cst == TC_ERR_NO_DRIVER) rc = 3;
    else if (dst || tst || cst) rc = 1;

    if (json) {
        if (rc == 3) {
            /* {"error": first line, "reason": the rest, ...} */
            const char *msg = dst ? driver_err : tst ? target_err : dev_err;
            split_first_line(msg, line, sizeof line, &rest);
            printf("{\"error\": ");
            json_str(stdout, line);
            printf(", \"reason\": ");
            json_str(stdout, rest);
            printf(", \"status\": \"%s\", \"properties_error\": ",
                   tc_status_name(TC_ERR_NO_DRIVER));
            split_first_line(dev_err, line, sizeof line, &rest);
            json_str(stdout, cst ? line : "");
            printf("}\n");
            tc_context_free(ctx);
            return 3;
        }
        printf("{\n  \"driver\": ");
        if (dst == TC_OK) {
            version_str(version, buf, sizeof buf);
            printf("{\"name\": ");
            json_str(stdout, driver);
            printf(", \"library\": ");
            json_str(stdout, library);
            printf(", \"version\": \"%s\", \"version_code\": %d}", buf, version);
        } else {
            printf("{\"error\": ");
            json_str(stdout, driver_err);
            printf("}");
        }
        printf(",\n  \"target\": ");
        if (tst == TC_OK) {
            char s1[64], s2[128], s3[32];
            tc_target_str(&target, s1, sizeof s1);
            tc_target_triton_str(&target, s2, sizeof s2);
            ptx_target_str(&target, s3, sizeof s3);
            printf("{\"backend\": ");
            json_str(stdout, target.backend);
            printf(", \"arch\": %d, \"warp_size\": %d, \"str\": ", target.arch, target.warp_size);
            json_str(stdout, s1);
            printf(", \"triton\": ");
            json_str(stdout, s2);
            printf(", \"ptx_target\": \"%s\", \"overridden\": %s", s3,
                   overridden ? "true" : "false");
            if (overridden) {
                printf(", \"override\": ");
                json_str(stdout, ov);
                if (have_cur) printf(", \"device_arch\": %d", cur_props.major * 10 + cur_props.minor);
            }
            printf("}");
        } else {
            printf("{\"error\": ");
            json_str(stdout, target_err);
            printf(", \"status\": \"%s\"}", tc_status_name(tst));
        }
        printf(",\n  \"current_device\": %d,\n  \"device_count\": %d,\n  \"devices\": [", cur, ndev);
        int n = 0;
        for (int d = first; d <= last; d++) {
            tc_device_props p;
            if (tc_device_properties(ctx, d, &p) != TC_OK) {
                printf("%s\n    {\"index\": %d, \"error\": ", n++ ? "," : "", d);
                json_str(stdout, tc_errmsg(ctx));
                printf("}");
                rc = rc ? rc : 1;
                continue;
            }
            printf("%s\n", n++ ? "," : "");
            json_props(stdout, d, &p, "    ");
        }
        printf("%s]\n}\n", n ? "\n  " : "");
        tc_context_free(ctx);
        return rc;
    }

    printf("=== which driver is active? ===\n");
    if (dst == TC_OK) {
        version_str(version, buf, sizeof buf);
        printf("%s (%s, driver version %s)\n", driver, library ? library : "?", buf);
    } else {
        printf("RuntimeError: %s\n", driver_err);
    }

    printf("=== which target? ===\n");
    if (tst == TC_OK) {
        char s1[64], s2[128], s3[32];
        tc_target_str(&target, s1, sizeof s1);
        tc_target_triton_str(&target, s2, sizeof s2);
        ptx_target_str(&target, s3, sizeof s3);
        printf("%s  %s", s1, s2);
        if (overridden) {
            printf("  (overridden by TRITON_OVERRIDE_ARCH=%s", ov);
            if (have_cur) printf("; device %d is cuda:%d", cur, cur_props.major * 10 + cur_props.minor);
            printf(")");
        }
        printf("\ncompiles to PTX for %s\n", s3);
    } else {
        printf("RuntimeError: %s\n", target_err);
    }

    printf("=== device properties ===\n");
    if (cst != TC_OK) {
        /* The driver's reason was given above; here torch's answer, on one line. */
        split_first_line(dev_err, line, sizeof line, &rest);
        printf("RuntimeError: %s\n", dst ? line : dev_err);
    } else {
        for (int d = first; d <= last; d++) {
            tc_device_props p;
            if (tc_device_properties(ctx, d, &p) != TC_OK) {
                printf("device %d: RuntimeError: %s\n", d, tc_errmsg(ctx));
                rc = rc ? rc : 1;
                continue;
            }
            text_props(d, &p, d == cur, last - first + 1);
        }
    }
    tc_context_free(ctx);
    return rc;
}
