/* compile.c — `tritonc compile` (ahead of time: several targets and signatures, PTX, cubin
 * or a C pair) and `tritonc cache` (the disk cache: dir, ls, clear). Public API only. */
#include "tritonc.h"
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


static const char *usage_compile_aot =
    "usage: tritonc compile FILE KERNEL [--target T]... [--emit ptx|cubin|c] [-o OUT]\n"
    "                       [--num-warps N] [--num-stages N] [--name PREFIX] [--with-cubin]\n"
    "                       [--ptxas PATH] [--verbose] NAME=TYPE... NAME=VALUE...\n"
    "                       [--signature 'T1, T2, ...']...\n"
    "\n"
    "Compiles KERNEL from the Triton file FILE for GPUs that need not be present.\n"
    "\n"
    "Signatures. Every runtime parameter takes a Triton signature type:\n"
    "  *fp32  *fp16 ...   a pointer;  *fp32:16  one 16-byte aligned\n"
    "  i32  i64  u32 ...  an integer; i32:16  one divisible by 16;  i32:1  one equal to 1\n"
    "                     (folded into the code, as Triton does)\n"
    "  fp32  fp64  i1     a float or a boolean by value\n"
    "  a number           the value is baked in and the parameter leaves the C prototype\n"
    "Give them as NAME=TYPE (one signature), or as one or more --signature lists: the types\n"
    "of the runtime parameters in order, as Triton's `compile -s` takes them, e.g.\n"
    "  --signature '*fp32:16, *fp32:16, *fp32:16, i32:16' --signature '*fp32, *fp32, *fp32, i32'\n"
    "A list may also give every parameter, constexprs included ('*fp32, *fp32, *fp32, i32, 1024').\n"
    "Constexpr parameters take values as NAME=VALUE (numbers, true/false, None, or text).\n"
    "Each signature is compiled for each target.\n"
    "\n"
    "options:\n"
    "  --target T       cuda:80, cuda:86, cuda:89, cuda:90a, cuda:100a, cuda:120, ... (also\n"
    "                   sm_90a); repeatable\n"
    "                   (default: the current device's target)\n"
    "  --emit ptx       PTX (default). One variant: to OUT, or standard output without -o;\n"
    "                   several: OUT.<signature>.<sm_XX>.ptx\n"
    "  --emit cubin     cubins through ptxas: OUT (one variant) or OUT.<signature>.<sm_XX>.cubin\n"
    "  --emit c         OUT.h and OUT.c: the code embedded, with PREFIX_load(ctx),\n"
    "                   PREFIX_launch(grid, args...), PREFIX_launch_ptrs(stream, grid, ...),\n"
    "                   PREFIX_select(...) and PREFIX_unload(); the launcher picks the target at\n"
    "                   load time and the signature from the arguments' alignment\n"
    "  -o OUT           output path (base name for --emit c)\n"
    "  --name PREFIX    C names for --emit c (default: the kernel's name)\n"
    "  --with-cubin     --emit c: also embed cubins (needs ptxas); the PTX stays as fallback\n"
    "  --ptxas PATH     the ptxas to run (default $TRITONC_PTXAS, else PATH, else\n"
    "                   /usr/local/cuda/bin/ptxas)\n"
    "  --num-warps N    warps per program, a power of two (default 4)\n"
    "  --num-stages N   software-pipelining depth (default 3)\n"
    "  --verbose        per variant: entry name, threads, shared memory, cache hit/miss\n"
    "  --json           one JSON object: per variant its target, entry, specialization,\n"
    "                   threads, shared memory, registers, disk cache event and the path\n"
    "                   written (without -o: the PTX text itself, instead of printing it)\n"
    "\n"
    "Compiled variants are kept in the disk cache ($TRITONC_CACHE_DIR, default\n"
    "~/.cache/tritonc; TRITONC_ALWAYS_COMPILE=1 ignores it).\n"
    "\n"
    "exit status: 0 success, 1 compile error, 2 usage error\n";

static const char *usage_cache =
    "usage: tritonc cache ls [--json] | clear [--tuning | --all] | dir\n"
    "\n"
    "The disk cache of compiled kernels: $TRITONC_CACHE_DIR, else ~/.cache/tritonc. Its\n"
    "entries take at most TRITONC_CACHE_MAX_BYTES (default 1G; K, M, G, T suffixes; 0: no cap):\n"
    "a store beyond it removes the least recently used entries.\n"
    "  ls      one line per file: key, kernel, target, size, age, code (ptx, or ptx+cubin),\n"
    "          or what it is: stale (another build of tritonc), temporary (an unfinished or\n"
    "          interrupted write), damaged, not read (not yours, or writable by others);\n"
    "          then the totals and the cap; --json: one JSON object (dir, cap_bytes, files:\n"
    "          key, kind entry|stale|temporary|other, kernel, target, size, age_s, note)\n"
    "  clear   remove every entry (stale and damaged ones too) and temporary file\n"
    "          --tuning: remove only the autotuning choices ($TRITONC_CACHE_DIR/tune)\n"
    "          --all: both\n"
    "  dir     print the directory\n"
    "\n"
    "exit status: 0 success, 1 error, 2 usage error\n";

static int pint(const char *s, long *out) {
    char *e;
    errno = 0;
    long v = strtol(s, &e, 0);
    if (!*s || *e || errno) return 0;
    *out = v;
    return 1;
}

/* A constexpr value: numbers, true/false/None, else text. */
static tc_value cx_value(const char *s) {
    char *e;
    if (!strcmp(s, "true") || !strcmp(s, "True")) return tc_bool(1);
    if (!strcmp(s, "false") || !strcmp(s, "False")) return tc_bool(0);
    if (!strcmp(s, "None") || !strcmp(s, "none")) return tc_none();
    errno = 0;
    long long iv = strtoll(s, &e, 0);
    if (*s && !*e && !errno) return tc_int(iv);
    double dv = strtod(s, &e);
    if (*s && !*e) return tc_float(dv);
    return tc_str(s);
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
    return s;
}

#define MAXV 256

/* --json: the variants compiled and where they went (the PTX itself without -o). */
static void compile_json(const char *const *pos, tc_compiled *const *vars, int nv, int ntargets,
                         const char *emit, const char *outp) {
    printf("{\"command\": \"compile\", \"file\": ");
    cli_json_str(stdout, pos[0]);
    printf(", \"kernel\": ");
    cli_json_str(stdout, pos[1]);
    printf(", \"emit\": \"%s\", \"variants\": [", emit);
    for (int i = 0; i < nv; i++) {
        const tc_compiled *c = vars[i];
        printf("%s\n  {\"target\": ", i ? "," : "");
        cli_json_str(stdout, c->target_name);
        printf(", \"entry\": ");
        cli_json_str(stdout, c->name);
        printf(", \"specialization\": ");
        cli_json_str(stdout, c->specialization);
        printf(", \"threads\": %d, \"shared_bytes\": %d, \"num_warps\": %d, \"num_stages\": %d, "
               "\"num_regs\": %d, \"ptx_bytes\": %zu, \"cubin_bytes\": %zu, \"disk_cache\": ",
               c->threads, c->shared_bytes, c->num_warps, c->num_stages, c->num_regs,
               strlen(c->ptx), c->cubin ? c->cubin_size : 0);
        cli_json_str(stdout, tc_cache_event_name(c->disk_cache));
        if (!outp) {
            printf(", \"ptx\": ");
            cli_json_str(stdout, c->ptx);
        } else if (strcmp(emit, "c") != 0) {
            char path[4096];
            if (nv == 1) snprintf(path, sizeof path, "%s", outp);
            else snprintf(path, sizeof path, "%s.%d.sm_%d%s.%s", outp, i / ntargets, c->target.arch,
                          c->target.arch_suffix_a ? "a" : "", strcmp(emit, "cubin") ? "ptx" : "cubin");
            printf(", \"path\": ");
            cli_json_str(stdout, path);
        }
        printf("}");
    }
    printf("\n]");
    if (outp && !strcmp(emit, "c")) {
        char h[4096];
        snprintf(h, sizeof h, "%s.h", outp);   /* as tc_emit_c wrote them */
        printf(", \"files\": [");
        cli_json_str(stdout, h);
        h[strlen(h) - 1] = 'c';
        printf(", ");
        cli_json_str(stdout, h);
        printf("]");
    }
    printf("}\n");
}

int cmd_compile_aot(int argc, char **argv) {
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    const char *targets[32];
    int ntargets = 0;
    const char *emit = "ptx", *outp = NULL, *prefix = NULL;
    long num_warps = 4, num_stages = 3;
    int verbose = 0, with_cubin = 0, json = 0;
    const char *assigns[256];
    int nassign = 0;
    const char *siglists[64];
    int nsiglists = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(usage_compile_aot, stdout); return 0; }
        if (cli_opt_val(argc, argv, &i, "--target", &v) || cli_opt_val(argc, argv, &i, "-t", &v)) {
            if (!v) return cli_usage_error("compile", "--target takes cuda:ARCH");
            if (ntargets == 32) return cli_usage_error("compile", "too many targets");
            targets[ntargets++] = v;
        } else if (cli_opt_val(argc, argv, &i, "--emit", &v)) {
            if (!v || (strcmp(v, "ptx") && strcmp(v, "cubin") && strcmp(v, "c")))
                return cli_usage_error("compile", "--emit takes ptx, cubin or c");
            emit = v;
        } else if (cli_opt_val(argc, argv, &i, "-o", &v)) {
            if (!v || !*v) return cli_usage_error("compile", "-o takes a path");
            outp = v;
        } else if (cli_opt_val(argc, argv, &i, "--name", &v)) {
            if (!v || !*v) return cli_usage_error("compile", "--name takes a C identifier");
            prefix = v;
        } else if (cli_opt_val(argc, argv, &i, "--ptxas", &v)) {
            if (!v || !*v) return cli_usage_error("compile", "--ptxas takes a path");
            setenv("TRITONC_PTXAS", v, 1);
        } else if (cli_opt_val(argc, argv, &i, "--signature", &v) || cli_opt_val(argc, argv, &i, "-s", &v)) {
            if (!v) return cli_usage_error("compile", "--signature takes a list of types");
            if (nsiglists == 64) return cli_usage_error("compile", "too many signatures");
            siglists[nsiglists++] = v;
        } else if (cli_opt_val(argc, argv, &i, "--num-warps", &v) || cli_opt_val(argc, argv, &i, "-w", &v)) {
            if (!v || !pint(v, &num_warps) || num_warps < 1 || num_warps > 32 || (num_warps & (num_warps - 1)))
                return cli_usage_error("compile", "num_warps must be a power of 2 (1..32)");
        } else if (cli_opt_val(argc, argv, &i, "--num-stages", &v)) {
            if (!v || !pint(v, &num_stages) || num_stages < 1 || num_stages > 64)
                return cli_usage_error("compile", "--num-stages takes a number >= 1");
        } else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
            verbose = 1;
        } else if (!strcmp(a, "--with-cubin")) {
            with_cubin = 1;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("compile", "unknown option '%s'", a);
        } else if (npos < 2) {
            pos[npos++] = a;
        } else if (strchr(a, '=') && a[0] != '=') {
            if (nassign == 256) return cli_usage_error("compile", "too many arguments");
            assigns[nassign++] = a;
        } else {
            return cli_usage_error("compile", "expected NAME=TYPE or NAME=VALUE, got '%s'", a);
        }
    }
    if (npos < 2) return cli_usage_error("compile", "expected FILE and KERNEL");
    if (ntargets == 0) return cli_usage_error("compile", "--target cuda:ARCH is required (repeatable: --target cuda:80 --target cuda:90a)");
    if ((!strcmp(emit, "c") || !strcmp(emit, "cubin")) && !outp)
        return cli_usage_error("compile", "--emit %s needs -o OUT", emit);

    tc_target tg[32];
    for (int i = 0; i < ntargets; i++)
        if (tc_target_parse(targets[i], &tg[i]))
            return cli_usage_error("compile", "unknown target '%s' (known targets: %s; also written "
                                   "sm_90a)", targets[i], tc_target_names());

    tc_context *ctx = NULL;
    if (tc_context_new(&ctx)) { fputs("tritonc: error: out of memory\n", stderr); return EXIT_ERR; }
    int rc = EXIT_OK;
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    tc_args *base = NULL;
    tc_args *sargs[64] = {0};
    tc_compiled *vars[MAXV];
    int nv = 0;
    char *lists[64] = {0};
    const char *sigs[64][128];
    int nsigs = 0, nrt = 0;
    tc_status s;
    if ((s = tc_module_load_file(ctx, pos[0], &m))) { rc = cli_api_error(ctx, s, 0); if (rc == EXIT_USAGE) rc = EXIT_ERR; goto done; }
    if ((s = tc_module_kernel(m, pos[1], &k))) { fprintf(stderr, "tritonc: error: %s\n", tc_errmsg(ctx)); rc = EXIT_USAGE; goto done; }
    if ((s = tc_args_new(k, &base))) { rc = cli_api_error(ctx, s, 0); goto done; }
    int np = tc_kernel_param_count(k);
    if (np > 128) { fprintf(stderr, "tritonc: error: too many parameters\n"); rc = EXIT_ERR; goto done; }
    const char *given[128] = {0};
    for (int j = 0; j < np; j++) {
        int cx = 0;
        tc_kernel_param_name(k, j, &cx);
        nrt += !cx;
    }
    for (int i = 0; i < nassign; i++) {
        const char *eq = strchr(assigns[i], '=');
        size_t nl = (size_t)(eq - assigns[i]);
        int idx = -1, cx = 0;
        for (int j = 0; j < np; j++) {
            const char *pn = tc_kernel_param_name(k, j, NULL);
            if (strlen(pn) == nl && !strncmp(pn, assigns[i], nl)) idx = j;
        }
        if (idx < 0) {
            rc = cli_usage_error("compile", "%s has no parameter '%.*s'", pos[1], (int)nl, assigns[i]);
            goto done;
        }
        tc_kernel_param_name(k, idx, &cx);
        if (cx) {
            if ((s = tc_args_set_at(base, idx, cx_value(eq + 1)))) { rc = cli_api_error(ctx, s, 0); goto done; }
        } else {
            given[idx] = eq + 1;
        }
    }
    /* the signatures */
    int ngiven = 0;
    for (int j = 0; j < np; j++) ngiven += given[j] != NULL;
    if (ngiven) {
        for (int j = 0; j < np; j++) {
            int cx = 0;
            const char *pn = tc_kernel_param_name(k, j, &cx);
            if (cx) continue;
            if (!given[j]) { rc = cli_usage_error("compile", "parameter '%s' needs a type (e.g. %s=*fp32)", pn, pn); goto done; }
        }
        int q = 0;
        for (int j = 0; j < np; j++) {
            int cx = 0;
            tc_kernel_param_name(k, j, &cx);
            if (!cx) sigs[nsigs][q++] = given[j];
        }
        sargs[nsigs] = NULL;
        nsigs++;
    }
    for (int L = 0; L < nsiglists; L++) {
        if (nsigs == 64) { rc = cli_usage_error("compile", "too many signatures"); goto done; }
        lists[L] = strdup(siglists[L]);
        if (!lists[L]) { fputs("tritonc: error: out of memory\n", stderr); rc = EXIT_ERR; goto done; }
        char *items[130];
        int ni = 0;
        for (char *p = lists[L], *sv = NULL, *t; (t = strtok_r(p, ",", &sv)); p = NULL) {
            if (ni == 130) break;
            items[ni++] = trim(t);
        }
        if (ni != nrt && ni != np) {
            rc = cli_usage_error("compile", "--signature '%s' has %d types; %s has %d runtime parameters "
                      "(%d with constexprs)", siglists[L], ni, pos[1], nrt, np);
            goto done;
        }
        int q = 0;
        if (ni == np) {  /* constexprs included: their own argument list */
            if ((s = tc_args_new(k, &sargs[nsigs]))) { rc = cli_api_error(ctx, s, 0); goto done; }
            for (int j = 0; j < np; j++) {
                tc_value bv;
                const char *pn = tc_kernel_param_name(k, j, NULL);
                if (tc_args_get(base, pn, &bv) == TC_OK) tc_args_set_at(sargs[nsigs], j, bv);
            }
        }
        for (int j = 0, it = 0; j < np; j++) {
            int cx = 0;
            tc_kernel_param_name(k, j, &cx);
            if (cx) {
                if (ni == np) {
                    if ((s = tc_args_set_at(sargs[nsigs], j, cx_value(items[it])))) { rc = cli_api_error(ctx, s, 0); goto done; }
                    it++;
                }
                continue;
            }
            sigs[nsigs][q++] = items[it++];
        }
        nsigs++;
    }
    if (nsigs == 0) {
        if (nrt == 0) nsigs = 1;  /* no runtime parameters: one empty signature */
        else { rc = cli_usage_error("compile", "no signature: give NAME=TYPE for each runtime parameter or --signature"); goto done; }
    }
    if ((long)nsigs * ntargets > MAXV) { rc = cli_usage_error("compile", "too many variants"); goto done; }

    /* compile every signature for every target */
    for (int si = 0; si < nsigs; si++) {
        for (int ti = 0; ti < ntargets; ti++) {
            tc_compiled *c = NULL;
            s = tc_compile(k, &tg[ti], sigs[si], nrt, sargs[si] ? sargs[si] : base, (int)num_warps,
                           (int)num_stages, &c);
            if (s) { rc = cli_api_error(ctx, s, 0); if (rc == EXIT_USAGE && s != TC_ERR_ARG) rc = EXIT_ERR; goto done; }
            vars[nv++] = c;
            if (!strcmp(emit, "c") && !with_cubin && c->cubin) {
                /* a cubin from the disk cache: the output must not depend on the cache */
                tc_free(c->cubin);
                c->cubin = NULL;
                c->cubin_size = 0;
            }
            if ((!strcmp(emit, "cubin") || with_cubin) && (s = tc_compiled_assemble(ctx, c))) {
                rc = cli_api_error(ctx, s, 0);
                if (rc == EXIT_USAGE) rc = EXIT_ERR;
                goto done;
            }
            if (verbose) {
                fprintf(stderr, "compile: %s(%s) for %s: %s; entry %s, %d threads, %d bytes of "
                        "shared memory%s", pos[1], c->specialization, c->target_name,
                        tc_cache_event_name(c->disk_cache), c->name, c->threads, c->shared_bytes,
                        c->cubin ? "" : "\n");
                if (c->cubin) fprintf(stderr, ", cubin %zu bytes, %d registers\n", c->cubin_size, c->num_regs);
                if (c->cache_note[0]) fprintf(stderr, "note: %s\n", c->cache_note);
            }
        }
    }

    /* write */
    if (!strcmp(emit, "c")) {
        char h[4096], cc[4096];
        snprintf(h, sizeof h, "%s.h", outp);
        snprintf(cc, sizeof cc, "%s.c", outp);
        const char *inc = strrchr(h, '/');
        inc = inc ? inc + 1 : h;
        if ((s = tc_emit_c(k, vars, nv, prefix ? prefix : pos[1], h, cc, inc))) {
            rc = cli_api_error(ctx, s, 0);
            goto done;
        }
        if (verbose) fprintf(stderr, "compile: wrote %s and %s (%d variant%s)\n", h, cc, nv, nv == 1 ? "" : "s");
    } else {
        int cub = !strcmp(emit, "cubin");
        for (int i = 0; i < nv; i++) {
            tc_compiled *c = vars[i];
            const void *data = cub ? (const void *)c->cubin : (const void *)c->ptx;
            size_t len = cub ? c->cubin_size : strlen(c->ptx);
            if (!outp) { if (!json) fwrite(data, 1, len, stdout); continue; }
            char path[4096];
            if (nv == 1) snprintf(path, sizeof path, "%s", outp);
            else snprintf(path, sizeof path, "%s.%d.sm_%d%s.%s", outp, i / ntargets,
                          c->target.arch, c->target.arch_suffix_a ? "a" : "", cub ? "cubin" : "ptx");
            if (tc_write_file(ctx, path, data, len)) {   /* the old file survives a failure */
                fprintf(stderr, "tritonc: error: %s\n", tc_errmsg(ctx));
                rc = EXIT_ERR;
                goto done;
            }
            if (verbose) fprintf(stderr, "compile: wrote %s\n", path);
        }
    }
    if (json) compile_json(pos, vars, nv, ntargets, emit, outp);
done:
    fflush(stdout);
    for (int i = 0; i < nv; i++) tc_compiled_free(vars[i]);
    for (int i = 0; i < 64; i++) { tc_args_free(sargs[i]); free(lists[i]); }
    tc_args_free(base);
    tc_module_free(m);
    tc_context_free(ctx);
    return rc;
}

/* ---- cache --------------------------------------------------------------------------- */

static void fmt_size(uint64_t n, char *b, size_t bn) {
    if (n < 10000) snprintf(b, bn, "%lluB", (unsigned long long)n);
    else if (n < 10000ull * 1024) snprintf(b, bn, "%.1fK", n / 1024.0);
    else if (n < 10000ull << 20) snprintf(b, bn, "%.1fM", n / 1048576.0);
    else snprintf(b, bn, "%.1fG", n / 1073741824.0);
}

static void fmt_age(double s, char *b, size_t bn) {
    if (s < 120) snprintf(b, bn, "%.0fs", s);
    else if (s < 7200) snprintf(b, bn, "%.0fm", s / 60);
    else if (s < 172800) snprintf(b, bn, "%.0fh", s / 3600);
    else snprintf(b, bn, "%.0fd", s / 86400);
}

/* What a listed file is, from its note (tc_cache_item). */
enum { LS_ENTRY, LS_STALE, LS_TEMP, LS_OTHER, LS_KINDS };
static int ls_kind(const tc_cache_item *it) {
    if (it->valid) return LS_ENTRY;
    if (!strncmp(it->note, "stale", 5)) return LS_STALE;
    if (!strncmp(it->note, "temporary", 9)) return LS_TEMP;
    return LS_OTHER;
}

static int cache_ls_json(tc_context *ctx, tc_cache_item *it, int n) {
    static const char *const kinds[LS_KINDS] = {"entry", "stale", "temporary", "other"};
    char dir[4096] = "";
    int have = tc_cache_dir(dir, sizeof dir) == TC_OK;
    printf("{\"dir\": ");
    if (have) cli_json_str(stdout, dir);
    else printf("null");
    printf(", \"cap_bytes\": %llu, \"files\": [", (unsigned long long)tc_cache_max_bytes());
    uint64_t total = 0;
    int entries = 0;
    for (int i = 0; i < n; i++) {
        int k = ls_kind(&it[i]);
        if (k == LS_ENTRY) { entries++; total += it[i].size; }
        printf("%s\n  {\"key\": ", i ? "," : "");
        cli_json_str(stdout, it[i].key);
        printf(", \"kind\": \"%s\", \"kernel\": ", kinds[k]);
        cli_json_str(stdout, it[i].kernel);
        printf(", \"target\": ");
        cli_json_str(stdout, it[i].target);
        printf(", \"size\": %llu, \"age_s\": ", (unsigned long long)it[i].size);
        cli_json_double(stdout, it[i].age_s);
        printf(", \"note\": ");
        cli_json_str(stdout, it[i].note);
        printf("}");
    }
    printf("%s], \"entries\": %d, \"entry_bytes\": %llu}\n", n ? "\n" : "", entries,
           (unsigned long long)total);
    tc_free(it);
    (void)ctx;
    return EXIT_OK;
}

static int cache_ls(tc_context *ctx, int json) {
    tc_cache_item *it = NULL;
    int n = 0;
    tc_status s = tc_cache_list(ctx, &it, &n);
    if (s) {
        int rc = cli_api_error(ctx, s, 0);
        return rc == EXIT_USAGE ? EXIT_ERR : rc;
    }
    if (json) return cache_ls_json(ctx, it, n);
    int count[LS_KINDS] = {0};
    uint64_t bytes[LS_KINDS] = {0};
    printf("%-64s  %-24s  %-9s  %7s  %5s  %s\n", "KEY", "KERNEL", "TARGET", "SIZE", "AGE", "CODE");
    for (int i = 0; i < n; i++) {
        char sz[32], age[32];
        fmt_size(it[i].size, sz, sizeof sz);
        fmt_age(it[i].age_s, age, sizeof age);
        int k = ls_kind(&it[i]);
        count[k]++;
        bytes[k] += it[i].size;
        printf("%-64s  %-24s  %-9s  %7s  %5s  %s\n", it[i].key, it[i].kernel[0] ? it[i].kernel : "?",
               it[i].target[0] ? it[i].target : "?", sz, age, it[i].note);
    }
    tc_free(it);
    char dir[4096], sz[32], cap[32];
    tc_cache_dir(dir, sizeof dir);
    fmt_size(bytes[LS_ENTRY], sz, sizeof sz);
    uint64_t mx = tc_cache_max_bytes();
    if (mx) fmt_size(mx, cap, sizeof cap);
    printf("%d entr%s in %s: %s (cap %s)\n", count[LS_ENTRY], count[LS_ENTRY] == 1 ? "y" : "ies",
           dir, sz, mx ? cap : "none");
    static const char *what[LS_KINDS] = {NULL, "stale entr%s of other builds of tritonc",
                                         "temporary file%s", "damaged or unread file%s"};
    for (int k = LS_STALE; k < LS_KINDS; k++) {
        if (!count[k]) continue;
        fmt_size(bytes[k], sz, sizeof sz);
        printf("%d ", count[k]);
        printf(what[k], k == LS_STALE ? (count[k] == 1 ? "y" : "ies") : (count[k] == 1 ? "" : "s"));
        printf(": %s (tritonc cache clear removes them)\n", sz);
    }
    return EXIT_OK;
}

int cmd_cache(int argc, char **argv) {
    if (argc < 2) return cli_usage_error("cache", "expected ls, clear or dir");
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h")) { fputs(usage_cache, stdout); return 0; }
    int kernels = 1, tuning = 0, json = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(usage_cache, stdout); return 0; }
        if (!strcmp(sub, "clear") && !strcmp(argv[i], "--tuning")) { kernels = 0; tuning = 1; continue; }
        if (!strcmp(sub, "clear") && !strcmp(argv[i], "--all")) { kernels = tuning = 1; continue; }
        if (!strcmp(sub, "ls") && !strcmp(argv[i], "--json")) { json = 1; continue; }
        return cli_usage_error("cache", "unexpected argument '%s'", argv[i]);
    }
    char dir[4096];
    if (!strcmp(sub, "dir")) {
        tc_status ds = tc_cache_dir(dir, sizeof dir);
        if (ds) {
            fputs(ds == TC_ERR_LIMIT ? "tritonc: no disk cache: its path is too long "
                                       "(TRITONC_CACHE_DIR, or HOME/.cache/tritonc)\n"
                                     : "tritonc: no disk cache: neither TRITONC_CACHE_DIR nor HOME is set\n",
                  stderr);
            return EXIT_ERR;
        }
        printf("%s\n", dir);
        return 0;
    }
    if (strcmp(sub, "ls") && strcmp(sub, "clear")) return cli_usage_error("cache", "unknown cache command '%s'", sub);
    tc_context *ctx = NULL;
    if (tc_context_new(&ctx)) { fputs("tritonc: error: out of memory\n", stderr); return EXIT_ERR; }
    int rc = 0;
    tc_status s = TC_OK;
    if (!strcmp(sub, "ls")) {
        rc = cache_ls(ctx, json);
    } else {
        int removed = 0, records = 0;
        if (kernels) s = tc_cache_clear(ctx, &removed);
        if (!s && tuning) s = tc_cache_clear_tuning(ctx, &records);
        if (s) { rc = cli_api_error(ctx, s, 0); if (rc == EXIT_USAGE) rc = EXIT_ERR; }
        else {
            tc_cache_dir(dir, sizeof dir);
            if (kernels) printf("removed %d file%s from %s\n", removed, removed == 1 ? "" : "s", dir);
            if (tuning) printf("removed %d autotuning record%s from %s/tune\n", records, records == 1 ? "" : "s", dir);
        }
    }
    tc_context_free(ctx);
    return rc;
}
