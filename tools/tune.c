/* tune.c (tools) — `tritonc bench` and `tritonc tune`, over the public API only.
 *
 *   tritonc bench FILE KERNEL NAME=VALUE... [--grid G] [--num-warps N]... [--num-stages N]...
 *                 [--bytes B] [--flops F] [--warmup MS] [--rep MS]
 *   tritonc tune  FILE KERNEL NAME=VALUE... [--grid G] [--force] [--export FILE]
 *                 [--tuning-db FILE]... [--interpret]
 *
 * --grid takes up to three comma-separated expressions over integers and the kernel's
 * arguments and constexprs (a config's values included), as Triton's `lambda META: ...`:
 * `--grid 'cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)'`. */
#include "cli.h"
#include "tritonc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *usage_bench =
    "usage: tritonc bench FILE KERNEL [options] NAME=VALUE...\n"
    "\n"
    "Times KERNEL as triton.testing.do_bench does: one call (compiles), an estimate from 5\n"
    "runs, warm-up runs for --warmup ms, then timed runs for --rep ms, each after writing a\n"
    "256 MB buffer (L2 flush) and timed by CUDA events. Prints the median, the 20th/80th\n"
    "percentiles and the mean (do_bench's default), and GB/s or TFLOP/s (at the median) when\n"
    "told the bytes or flops. Several --num-warps or --num-stages values sweep them (a\n"
    "table). Autotuned kernels are timed with the config their launch picks (tuned first), or\n"
    "the one --config names. Needs a GPU: without a driver it fails (exit status 3).\n"
    "\n"
    "options:\n"
    "  --grid G[,G[,G]]     the grid: integers or expressions over the arguments and\n"
    "                       constexprs: 'cdiv(n, BLOCK)', 'M // 64 * 2' (default 1)\n"
    "  --num-warps N        warps per program (repeatable: a sweep)\n"
    "  --num-stages N       pipelining depth (repeatable: a sweep)\n"
    "  --bytes B            bytes read and written by one launch: prints GB/s\n"
    "  --flops F            floating-point operations of one launch: prints TFLOP/s\n"
    "  --warmup MS          warm-up budget in ms (default 25)\n"
    "  --rep MS             repetition budget in ms (default 100)\n"
    "  --tuning-db FILE     autotuned kernels: configs recorded in FILE\n"
    "  --config N           autotuned kernels: time config N (or NAME=VALUE,...) only\n"
    "  --tensor NAME=VALUE  a tensor that is not a parameter, for desc(NAME,...) and\n"
    "                       ptrs(...) values to name (as in `tritonc run`)\n"
    "  --device N           time on GPU N of this host (default 0)\n"
    "  --json               one JSON object per line (a row of the table) instead of the table\n"
    "  --help               this text\n"
    "VALUE forms are those of `tritonc run --help`.\n"
    "\n"
    "exit status: 0 success, 1 compile or run error, 2 usage error, 3 no active driver\n";

static const char *usage_tune =
    "usage: tritonc tune FILE KERNEL [options] NAME=VALUE...\n"
    "\n"
    "Runs the @triton.autotune tuning of KERNEL for these arguments: every config is\n"
    "compiled (one after another), then benchmarked with do_bench (the decorator's warmup=\n"
    "and rep=, default 25 and 100 ms); configs that fail to compile or exceed the device's\n"
    "resources are skipped with their reason. Prints a line per config and a final table.\n"
    "The choice is saved in the tuning cache ($TRITONC_CACHE_DIR/tune, else\n"
    "~/.cache/tritonc/tune, created 0700) and reused by later processes without\n"
    "benchmarking; a cache folder or file that is not yours, or that others may write, is\n"
    "not used (a note says so).\n"
    "Under the interpreter (TRITON_INTERPRET=1 or --interpret) nothing can be measured: the\n"
    "choice comes only from a --tuning-db recorded on a GPU, and the output says where and\n"
    "when it was measured; without one it fails with the driver error (exit status 3).\n"
    "\n"
    "options:\n"
    "  --grid G[,G[,G]]     the grid, as for `tritonc bench` (config values may appear)\n"
    "  --force              benchmark even when a cached or recorded choice exists\n"
    "  --export FILE        write the tuning database (every choice this run knows) to FILE\n"
    "  --tuning-db FILE     load choices recorded earlier (repeatable)\n"
    "  --interpret          use the CPU interpreter (replay only)\n"
    "  --tensor NAME=VALUE  a tensor that is not a parameter (as in `tritonc run`)\n"
    "  --device N           tune on GPU N of this host (default 0)\n"
    "  --json               print the result as one JSON object\n"
    "  --help               this text\n"
    "Set TRITON_PRINT_AUTOTUNING=1 for Triton's summary line.\n"
    "\n"
    "exit status: 0 success, 1 compile or run error, 2 usage error, 3 no active driver\n";

static void print_out(const char *text, void *user) {
    (void)user;
    fputs(text, stdout);
    fflush(stdout);
}

static int num_arg(const char *s, double *out) {
    if (!s || !*s) return 0;
    char *end;
    double v = strtod(s, &end);
    if (*end || !(v >= 0) || v > 1e30) return 0;
    *out = v;
    return 1;
}

static void json_str(const char *t) { cli_json_str(stdout, t); }

/* ---- grid expressions ------------------------------------------------------------------ */

/* --grid EXPR: evaluated by the library (tc_grid_eval) when the launch asks for the grid. */
typedef struct Grid { const char *expr; char err[600]; tc_context *ctx; } Grid;

static tc_status grid_fn(const tc_args *meta, uint32_t grid[3], void *user) {
    Grid *gr = user;
    tc_status rc = tc_grid_eval(meta, gr->expr, grid);
    if (rc) {
        snprintf(gr->err, sizeof gr->err, "--grid %s: %s", gr->expr,
                 gr->ctx ? tc_errmsg(gr->ctx) : tc_status_name(rc));
    }
    return rc;
}

/* For `tritonc run --grid EXPR` (tools/tritonc.c): the characters are checked here, the
 * expression when the launch asks for the grid (a failure is printed then); cli_grid_bind
 * names the context whose error message says why. */
int cli_grid_expr(const char *expr, tc_launch_opts *o) {
    static Grid g;
    if (!expr || !*expr || strlen(expr) > 1000) return 0;
    /* characters no grid expression has are a usage error now, not at the launch */
    for (const char *c = expr; *c; c++)
        if (!(isalnum((unsigned char)*c) || strchr(" \t_.,+-*/%()<>&|^~", *c))) return 0;
    memset(&g, 0, sizeof g);
    g.expr = expr;
    o->grid_fn = grid_fn;
    o->grid_user = &g;
    return 1;
}

const char *cli_grid_error(const tc_launch_opts *o) {
    return o->grid_fn == grid_fn && ((Grid *)o->grid_user)->err[0] ? ((Grid *)o->grid_user)->err : NULL;
}

void cli_grid_bind(tc_launch_opts *o, tc_context *ctx) {
    if (o->grid_fn == grid_fn) ((Grid *)o->grid_user)->ctx = ctx;
}

/* ---- shared setup ------------------------------------------------------------------------- */

typedef struct Setup {
    const char *cmd;
    const char *file, *kernel;
    const char *assigns[256]; int nassign;
    const char *dbs[16]; int ndb;
    const char *grid;
    int interpret;
    int device;             /* --device N (-1: not given) */
    tc_context *ctx;
    tc_module *m;
    tc_kernel *k;
    tc_args *args;
    const char *auxs[64]; int naux;   /* --tensor NAME=VALUE */
    const char *config;               /* --config */
    RunArg ra[256 + 64 + 64]; int nra; /* the arguments; their tensors owned */
    char auxname[64][128];
    Grid g;
} Setup;

static void setup_free(Setup *s) {
    for (int i = 0; i < s->nra; i++) tc_tensor_free(s->ra[i].t);
    tc_args_free(s->args);
    tc_module_free(s->m);
    tc_context_free(s->ctx);
}

static int setup_load(Setup *s, tc_launch_opts *o) {
    if (tc_context_new(&s->ctx)) { cli_error("error: out of memory"); return EXIT_ERR; }
    tc_set_print(s->ctx, print_out, NULL);
    if (s->interpret) tc_context_set_backend(s->ctx, TC_BACKEND_INTERPRET);
    int dr = cli_use_device(s->ctx, s->cmd, s->device);
    if (dr) return dr;
    for (int i = 0; i < s->ndb; i++)
        if (tc_tuning_db_load(s->ctx, s->dbs[i])) return cli_api_error(s->ctx, tc_errcode(s->ctx), 0);
    tc_status st = tc_module_load_file(s->ctx, s->file, &s->m);
    if (st) return st == TC_ERR_NOT_FOUND || st == TC_ERR_IO ? (cli_error("error: %s", tc_errmsg(s->ctx)), EXIT_ERR) : cli_api_error(s->ctx, st, 0);
    if ((st = tc_module_kernel(s->m, s->kernel, &s->k))) { cli_error("error: %s", tc_errmsg(s->ctx)); return EXIT_USAGE; }
    if ((st = tc_args_new(s->k, &s->args))) return cli_api_error(s->ctx, st, 0);
    int rc = s->config ? cli_run_config(s->ctx, s->k, s->cmd, s->config) : 0;
    if (rc) return rc;
    /* every argument is checked (names, duplicates, values) before a tensor is made, which
     * on the GPU needs the driver: a mistake is a usage error with or without one */
    for (int i = 0; i < s->nassign; i++) {
        const char *eq = strchr(s->assigns[i], '=');
        char name[128];
        size_t nl = (size_t)(eq - s->assigns[i]);
        if (nl >= sizeof name) return cli_usage_error(s->cmd, "argument name too long");
        memcpy(name, s->assigns[i], nl);
        name[nl] = 0;
        if (cli_dup_arg(s->assigns, i)) return cli_usage_error(s->cmd, "argument %s is given twice (%s and %s)", name, cli_dup_arg(s->assigns, i), s->assigns[i]);
        int idx = -1, cx = 0;
        for (int j = 0; j < tc_kernel_param_count(s->k); j++)
            if (strcmp(tc_kernel_param_name(s->k, j, &cx), name) == 0) { idx = j; break; }
        if (idx < 0) {
            tc_args_set(s->args, name, tc_none());   /* for the message naming the parameters */
            cli_error("error: %s", tc_errmsg(s->ctx));
            return EXIT_USAGE;
        }
        tc_kernel_param_name(s->k, idx, &cx);
        if (!strncmp(eq + 1, "desc(", 5) || !strncmp(eq + 1, "ptrs(", 5)) continue;  /* made below */
        tc_value v;
        tc_tensor *none;
        int pr = cli_parse_value(NULL, name, eq + 1, cx, &v, &none);
        if (pr) return pr >= 100 ? cli_api_error(s->ctx, (tc_status)(pr - 100), 0) : pr;
    }
    rc = cli_build_args(s->ctx, s->k, s->args, s->cmd, s->auxs, s->naux, s->assigns,
                            s->nassign, s->ra, &s->nra, s->auxname);
    if (rc) return rc;
    if (s->grid) {
        s->g.expr = s->grid;
        s->g.ctx = s->ctx;
        o->grid_fn = grid_fn;
        o->grid_user = &s->g;
    }
    return EXIT_OK;
}

/* Options both commands take; 1 if consumed, -1 on a usage error (printed). */
static int common_opt(Setup *s, int argc, char **argv, int *i) {
    const char *v;
    if (cli_opt_val(argc, argv, i, "--grid", &v)) {
        if (!v || !*v) { cli_usage_error(s->cmd, "--grid takes X[,Y[,Z]] (integers or expressions)"); return -1; }
        s->grid = v;
        return 1;
    }
    if (cli_opt_val(argc, argv, i, "--tuning-db", &v)) {
        if (!v || !*v) { cli_usage_error(s->cmd, "--tuning-db takes a file"); return -1; }
        if (s->ndb == 16) { cli_usage_error(s->cmd, "too many --tuning-db options"); return -1; }
        s->dbs[s->ndb++] = v;
        return 1;
    }
    if (cli_opt_val(argc, argv, i, "--tensor", &v)) {
        if (!v || !strchr(v, '=') || v[0] == '=' || strchr(v, '=') - v >= 128) { cli_usage_error(s->cmd, "--tensor takes NAME=VALUE"); return -1; }
        if (s->naux == 64) { cli_usage_error(s->cmd, "too many --tensor options"); return -1; }
        s->auxs[s->naux++] = v;
        return 1;
    }
    if (cli_opt_val(argc, argv, i, "--config", &v)) {
        if (!v || !*v) { cli_usage_error(s->cmd, "--config takes N or NAME=VALUE,..."); return -1; }
        s->config = v;
        return 1;
    }
    if (strcmp(argv[*i], "--interpret") == 0) { s->interpret = 1; return 1; }
    if (cli_opt_val(argc, argv, i, "--device", &v)) return cli_parse_device(s->cmd, v, &s->device) ? -1 : 1;
    return 0;
}

static int positional(Setup *s, const char *a, int *npos) {
    if (*npos == 0) { s->file = a; (*npos)++; return 0; }
    if (*npos == 1) { s->kernel = a; (*npos)++; return 0; }
    if (strchr(a, '=') && a[0] != '=') {
        if (s->nassign == 256) return cli_usage_error(s->cmd, "too many arguments");
        s->assigns[s->nassign++] = a;
        return 0;
    }
    return cli_usage_error(s->cmd, "expected NAME=VALUE, got '%s'", a);
}

static int launch_err(Setup *s, tc_status st) {
    if (st == TC_ERR_ARG && s->g.err[0]) { cli_error("error: %s", s->g.err); return EXIT_USAGE; }
    return cli_api_error(s->ctx, st, 0);
}

/* ---- bench -------------------------------------------------------------------------------- */

int cmd_bench(int argc, char **argv) {
    Setup s;
    memset(&s, 0, sizeof s);
    s.cmd = "bench";
    s.device = -1;
    int warps[16], nwarps = 0, stages[16], nstages = 0, npos = 0;
    double bytes = 0, flops = 0;
    int json = 0;
    tc_bench_opts bo = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(usage_bench, stdout); return EXIT_OK; }
        int c = common_opt(&s, argc, argv, &i);
        if (c < 0) return EXIT_USAGE;
        if (c) continue;
        double d;
        if (!strcmp(a, "--json")) {
            json = 1;
        } else if (cli_opt_val(argc, argv, &i, "--num-warps", &v)) {
            if (!num_arg(v, &d) || d < 1 || d > 64 || ((int)d & ((int)d - 1)) || d != (int)d)
                return cli_usage_error("bench", "--num-warps takes a power of two");
            if (nwarps == 16) return cli_usage_error("bench", "too many --num-warps");
            warps[nwarps++] = (int)d;
        } else if (cli_opt_val(argc, argv, &i, "--num-stages", &v)) {
            if (!num_arg(v, &d) || d < 1 || d > 64 || d != (int)d) return cli_usage_error("bench", "--num-stages takes a number >= 1");
            if (nstages == 16) return cli_usage_error("bench", "too many --num-stages");
            stages[nstages++] = (int)d;
        } else if (cli_opt_val(argc, argv, &i, "--bytes", &v)) {
            if (!num_arg(v, &bytes)) return cli_usage_error("bench", "--bytes takes a number");
        } else if (cli_opt_val(argc, argv, &i, "--flops", &v)) {
            if (!num_arg(v, &flops)) return cli_usage_error("bench", "--flops takes a number");
        } else if (cli_opt_val(argc, argv, &i, "--warmup", &v)) {
            if (!num_arg(v, &bo.warmup_ms) || bo.warmup_ms <= 0) return cli_usage_error("bench", "--warmup takes milliseconds > 0");
        } else if (cli_opt_val(argc, argv, &i, "--rep", &v)) {
            if (!num_arg(v, &bo.rep_ms) || bo.rep_ms <= 0) return cli_usage_error("bench", "--rep takes milliseconds > 0");
        } else if (a[0] == '-' && a[1] == '-') {
            return cli_usage_error("bench", "unknown option '%s'", a);
        } else {
            int r = positional(&s, a, &npos);
            if (r) return r;
        }
    }
    if (npos < 2) return cli_usage_error("bench", "expected FILE and KERNEL");
    if (s.interpret) return cli_usage_error("bench", "--interpret: the interpreter's time says nothing about a GPU; bench needs one");
    if (!nwarps) warps[nwarps++] = 0;
    if (!nstages) stages[nstages++] = 0;
    tc_launch_opts o = tc_launch_defaults();
    int rc = setup_load(&s, &o);
    if (rc) { setup_free(&s); return rc; }
    tc_backend b;
    tc_status st = tc_context_backend(s.ctx, &b);
    if (!st && b != TC_BACKEND_CUDA) {
        cli_error("error: bench needs the GPU; TRITON_INTERPRET is set (the interpreter's times say "
               "nothing about a GPU)");
        setup_free(&s);
        return EXIT_USAGE;
    }
    if (st) { rc = cli_api_error(s.ctx, st, 0); setup_free(&s); return rc; }
    tc_tune_info ti;
    if ((st = tc_kernel_tune_info(s.k, &ti))) { rc = cli_api_error(s.ctx, st, 0); setup_free(&s); return rc; }
    if (ti.autotuned && (warps[0] || stages[0]))
        fprintf(stderr, "tritonc: note: %s is autotuned: its config sets num_warps/num_stages; "
                        "--num-warps/--num-stages are ignored\n", s.kernel);
    if (!json) {
        /* the mean too: Triton's do_bench returns it by default */
        printf("%-10s %-10s %12s %12s %12s %12s", "num_warps", "num_stages", "median ms", "p20 ms", "p80 ms",
               "mean ms");
        if (bytes > 0) printf(" %10s", "GB/s");
        if (flops > 0) printf(" %10s", "TFLOP/s");
        printf("   runs\n");
    }
    for (int wi = 0; wi < nwarps; wi++)
        for (int si = 0; si < nstages; si++) {
            o.num_warps = warps[wi];
            o.num_stages = stages[si];
            tc_bench_result r;
            st = tc_bench_kernel(s.k, s.args, &o, &bo, &r);
            if (st) { rc = launch_err(&s, st); setup_free(&s); return rc; }
            tc_launch_report lr;
            tc_last_launch(s.ctx, &lr, sizeof lr);
            if (json) {
                printf("{\"kernel\": ");
                json_str(s.kernel);
                printf(", \"num_warps\": %d, \"num_stages\": %d, \"median_ms\": %.6g, \"p20_ms\": %.6g, "
                       "\"p80_ms\": %.6g, \"mean_ms\": %.6g, \"min_ms\": %.6g, \"max_ms\": %.6g, "
                       "\"n_warmup\": %d, \"n_repeat\": %d", lr.num_warps, lr.num_stages, r.median_ms,
                       r.p20_ms, r.p80_ms, r.mean_ms, r.min_ms, r.max_ms, r.n_warmup, r.n_repeat);
                if (bytes > 0) printf(", \"gbs\": %.6g", bytes / (r.median_ms * 1e-3) / 1e9);
                if (flops > 0) printf(", \"tflops\": %.6g", flops / (r.median_ms * 1e-3) / 1e12);
                printf(", \"note\": ");
                json_str(lr.note);
                printf("}\n");
            } else {
                printf("%-10d %-10d %12.4f %12.4f %12.4f %12.4f", lr.num_warps, lr.num_stages, r.median_ms,
                       r.p20_ms, r.p80_ms, r.mean_ms);
                if (bytes > 0) printf(" %10.1f", bytes / (r.median_ms * 1e-3) / 1e9);
                if (flops > 0) printf(" %10.2f", flops / (r.median_ms * 1e-3) / 1e12);
                printf("   %d\n", r.n_repeat);
            }
            fflush(stdout);
        }
    tc_launch_report lr;
    tc_last_launch(s.ctx, &lr, sizeof lr);
    if (lr.note[0] && !json) printf("note: %s\n", lr.note);
    setup_free(&s);
    return EXIT_OK;
}

/* ---- tune --------------------------------------------------------------------------------- */

/* On a terminal, configs compiled so far (each timed config has its own line on stdout). */
static void compile_progress(const char *what, uint64_t done, uint64_t total, double el, void *u) {
    tc_progress_fn tty;
    void *tu;
    cli_progress_bind(&tty, &tu);
    if (tty && strcmp(what, "compiled") == 0) tty("configs compiled", done, total, el, tu);
}

static void progress(int i, int n, const tc_tune_result *r, void *user) {
    Grid *g = user;
    if (r->status && g && g->err[0])
        printf("[%d/%d] %s: skipped (%s)\n", i + 1, n, r->config, g->err);   /* the reason, once */
    else if (r->status)
        printf("[%d/%d] %s: skipped (%s: %s)\n", i + 1, n, r->config, tc_status_name(r->status), r->reason);
    else
        printf("[%d/%d] %s: %.4f ms (p20 %.4f, p80 %.4f)\n", i + 1, n, r->config, r->ms, r->p20_ms, r->p80_ms);
    fflush(stdout);
}

int cmd_tune(int argc, char **argv) {
    Setup s;
    memset(&s, 0, sizeof s);
    s.cmd = "tune";
    s.device = -1;
    int npos = 0, force = 0, json = 0;
    const char *export_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(usage_tune, stdout); return EXIT_OK; }
        int c = common_opt(&s, argc, argv, &i);
        if (c < 0) return EXIT_USAGE;
        if (c) continue;
        if (!strcmp(a, "--force")) force = 1;
        else if (!strcmp(a, "--json")) json = 1;
        else if (cli_opt_val(argc, argv, &i, "--export", &v)) {
            if (!v || !*v) return cli_usage_error("tune", "--export takes a file");
            export_path = v;
        } else if (a[0] == '-' && a[1] == '-') {
            return cli_usage_error("tune", "unknown option '%s'", a);
        } else {
            int r = positional(&s, a, &npos);
            if (r) return r;
        }
    }
    if (npos < 2) return cli_usage_error("tune", "expected FILE and KERNEL");
    if (s.config) return cli_usage_error("tune", "--config: tune times every config (tritonc bench or run take one)");
    tc_launch_opts o = tc_launch_defaults();
    int rc = setup_load(&s, &o);
    if (rc) { setup_free(&s); return rc; }
    if (!json) o.progress = compile_progress;
    tc_tune_info ti;
    tc_status st = tc_kernel_tune_info(s.k, &ti);
    if (st) { rc = cli_api_error(s.ctx, st, 0); setup_free(&s); return rc; }
    if (!ti.autotuned) {
        cli_error("error: %s has no @triton.autotune decorator: nothing to tune (tritonc bench "
               "times it)", s.kernel);
        setup_free(&s);
        return EXIT_USAGE;
    }
    if (!s.grid && ti.nconfigs > 1)
        fprintf(stderr, "tritonc: note: no --grid: the configs are timed on a grid of (1, 1, 1); give "
                        "the kernel's grid, e.g. --grid 'cdiv(n, BLOCK)'\n");
    if (!json) {
        printf("tuning %s: %d configs, warmup %g ms, rep %g ms (configs compiled one after another, "
               "then timed)\n", s.kernel, ti.nconfigs, ti.warmup_ms, ti.rep_ms);
        fflush(stdout);
    }
    tc_tune_report r;
    st = tc_tune(s.k, s.args, &o, force ? TC_TUNE_FORCE : 0, json ? NULL : progress, &s.g, &r);
    cli_progress_end();
    if (st) { rc = launch_err(&s, st); setup_free(&s); return rc; }
    if (export_path && (st = tc_tuning_db_save(s.ctx, export_path))) { rc = cli_api_error(s.ctx, st, 0); setup_free(&s); return rc; }
    if (json) {
        printf("{\"kernel\": ");
        json_str(r.kernel);
        printf(", \"key\": ");
        json_str(r.key);
        printf(", \"source\": ");
        json_str(tc_tune_source_name(r.source));
        printf(", \"best\": %d, \"best_config\": ", r.best);
        json_str(r.best_config);
        printf(", \"device\": ");
        json_str(r.device);
        printf(", \"capability\": [%d, %d], \"measured_at\": ", r.cc_major, r.cc_minor);
        json_str(r.measured_at);
        printf(", \"where\": ");
        json_str(r.where);
        printf(", \"tune_seconds\": %.6g, \"compile_parallel\": %s, \"results\": [", r.tune_s,
               r.compile_parallel ? "true" : "false");
        for (int i = 0; i < r.nresults; i++) {
            const tc_tune_result *x = &r.results[i];
            printf("%s{\"config\": ", i ? ", " : "");
            json_str(x->config);
            if (x->status) { printf(", \"skipped\": "); json_str(x->reason); }
            else printf(", \"ms\": [%.6g, %.6g, %.6g]", x->ms, x->p20_ms, x->p80_ms);
            printf("}");
        }
        printf("]}\n");
        setup_free(&s);
        return EXIT_OK;
    }
    if (r.nresults) {
        printf("\n%-4s %-100s %12s %12s %12s\n", "", "config", "median ms", "p20 ms", "p80 ms");
        for (int i = 0; i < r.nresults; i++) {
            const tc_tune_result *x = &r.results[i];
            int is_best = strcmp(x->config, r.best_config) == 0;
            if (x->status)
                printf("%-4s %-100s %12s   skipped: %s\n", "", x->config, "-", x->reason);
            else
                printf("%-4s %-100s %12.4f %12.4f %12.4f\n", is_best ? "*" : "", x->config, x->ms, x->p20_ms, x->p80_ms);
        }
        printf("\n");
    }
    printf("key: %s\n", r.key);
    printf("best config: %s\n", r.best_config);
    switch (r.source) {
    case TC_TUNE_BENCHMARKED:
        printf("benchmarked on %s (cc %d.%d) in %.2f s at %s; saved to %s\n", r.device, r.cc_major,
               r.cc_minor, r.tune_s, r.measured_at, r.where[0] ? r.where : "(no tuning cache directory)");
        break;
    case TC_TUNE_SINGLE:
        printf("one config: used without benchmarking (as Triton)\n");
        break;
    default:
        printf("from the %s %s: measured on %s (cc %d.%d) at %s", tc_tune_source_name(r.source),
               r.where, r.device, r.cc_major, r.cc_minor, r.measured_at);
        if (r.tune_s > 0) printf(" (tuning took %.2f s then)", r.tune_s);
        printf("; no benchmarking now\n");
        break;
    }
    if (export_path) printf("exported to %s\n", export_path);
    setup_free(&s);
    return EXIT_OK;
}
