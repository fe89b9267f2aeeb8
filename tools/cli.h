/* cli.h — the subcommands of the `tritonc` command. Each returns the process exit status:
 * 0 success, 1 compile or run error, 2 usage error, 3 no active driver, 4 `check` found
 * problems. They use only the public API (tritonc.h). */
#ifndef CLI_H
#define CLI_H

#include "tritonc.h"

#include <stdio.h>

enum { EXIT_OK = 0, EXIT_ERR = 1, EXIT_USAGE = 2, EXIT_NODRIVER = 3, EXIT_CHECK = 4 };

/* tools/tritonc.c: messages on stderr, shared by every subcommand. */
void cli_error(const char *fmt, ...);  /* "tritonc: MSG" (MSG begins "error: " or "note: ") */
/* "tritonc: error: MSG" and "(see tritonc CMD --help)"; returns EXIT_USAGE. Every error the
 * command prints begins "tritonc: error: ", or "FILE:LINE:COL: error: " for a kernel's. */
int cli_usage_error(const char *cmd, const char *fmt, ...);
/* Prints a failed API call's message; returns its exit status (3 for a missing driver, 2 for
 * TC_ERR_ARG, else 1). With hint, a missing driver also suggests --interpret. */
int cli_api_error(tc_context *ctx, tc_status s, int hint);
/* --NAME VALUE or --NAME=VALUE at argv[*i]: 1 with *val set (NULL when VALUE is missing),
 * advancing *i past VALUE; 0 when argv[*i] is another option. */
int cli_opt_val(int argc, char **argv, int *i, const char *name, const char **val);

int cmd_run(int argc, char **argv);      /* tools/tritonc.c */
/* tools/tritonc.c: `run` (check = 0) and `check` (check = 1) share their arguments. */
int cli_run(int argc, char **argv, int check);
/* tools/check.c: `tritonc check FILE KERNEL ARGS...` (exit status 4 when it finds problems) */
int cmd_check(int argc, char **argv);
int cmd_info(int argc, char **argv);     /* tools/info.c */
/* tools/compile.c: `tritonc compile` ahead of time (several targets, signatures, --emit
 * ptx|cubin|c) and `tritonc cache ls|clear|dir`. */
int cmd_compile_aot(int argc, char **argv);
int cmd_cache(int argc, char **argv);

/* tools/tune.c: `tritonc bench` (do_bench, num_warps/num_stages sweeps) and `tritonc tune`
 * (autotuning with a progress line per config, --export, --tuning-db). */
int cmd_bench(int argc, char **argv);
int cmd_tune(int argc, char **argv);
/* tools/tune.c: sets o->grid_fn to evaluate EXPR at launch with tc_grid_eval (Python over
 * the launch's arguments and constexprs: "cdiv(n, BLOCK)", "(cdiv(n, BLOCK), 4)"); 0 if EXPR
 * is empty or too long. One grid per process; cli_grid_bind gives it the context whose
 * error message it prints. */
int cli_grid_expr(const char *expr, tc_launch_opts *o);
void cli_grid_bind(tc_launch_opts *o, tc_context *ctx);
/* tools/tritonc.c: reads VALUE as `run` does (numbers, DTYPE[...], DTYPE:rand(...), @F.npy);
 * returns 0, 2 (usage, message printed), 1, or 100 + a tc_status (message on ctx). With ctx
 * NULL the value is only checked: no tensor is made. */
int cli_parse_value(tc_context *ctx, const char *name, const char *val, int is_constexpr,
                    tc_value *v, tc_tensor **owned);
/* One argument of a command line: its name, value and the tensor made for it (owned). */
typedef struct RunArg {
    const char *name;
    tc_value v;
    tc_tensor *t;
} RunArg;
/* tools/tritonc.c: the arguments of a launch from the command line, set in args: --tensor
 * NAME=VALUE (tensors that are not parameters, for desc(...) and ptrs(...) to name; their
 * names kept in auxname) and the NAME=VALUE assignments (run's VALUE forms, desc(...),
 * ptrs(...)). Tensors made go to ra[*nra...] (the caller frees them). 0 or an exit status
 * (the message printed). */
int cli_build_args(tc_context *ctx, tc_kernel *k, tc_args *args, const char *cmdn,
                   const char *const *auxs, int naux, const char *const *assigns, int nassign,
                   RunArg *ra, int *nra, char (*auxname)[128]);
/* tools/tritonc.c: --config N|NAME=VALUE,...: the config an autotuned kernel runs with (no
 * benchmarking); 0 or an exit status. */
int cli_run_config(tc_context *ctx, tc_kernel *k, const char *cmdn, const char *config);
/* tools/tritonc.c: the earlier of assigns[0..i) ("NAME=VALUE") setting the same NAME as
 * assigns[i] (a duplicate argument: a usage error), or NULL. */
const char *cli_dup_arg(const char *const *assigns, int i);
/* tools/tritonc.c: `tritonc run FILE` with no kernel: the kernels of FILE and their
 * parameters on stdout (exit 0). */
int cli_list_kernels(const char *file);
/* tools/tritonc.c: a usage error (printed, EXIT_USAGE) unless PATH can be written: its
 * directory exists and is writable and PATH is not a directory; else 0. */
int cli_check_out_path(const char *cmd, const char *opt, const char *path);
/* tools/tune.c: why the --grid expression of o failed at the launch ("--grid EXPR: why"),
 * or NULL: the caller prints it once. */
const char *cli_grid_error(const tc_launch_opts *o);
/* tools/json.c: --json output. Strings and numbers (NaN, infinities: null); a tensor's
 * "dtype", "shape", "numel", "min", "max", "mean", "nan", "inf" (and "values") members
 * (1 if it cannot be read); a launch report's members; check findings as an array. */
void cli_json_str(FILE *f, const char *s);
void cli_json_double(FILE *f, double v);
int cli_json_tensor(FILE *f, tc_tensor *t, int with_values);
void cli_json_report(FILE *f, const tc_launch_report *r);
int cli_json_findings(FILE *f, tc_context *ctx);
/* A tc_print_fn keeping the text in a CliText (device_print output inside --json). */
typedef struct CliText { char *s; size_t n, cap; } CliText;
void cli_text_append(const char *text, void *cli_text);
/* tools/tritonc.c: a progress callback printing to stderr when it is a terminal (else NULL):
 * after a second of work, "tritonc: WHAT DONE/TOTAL (P%), T s", rewritten in place. */
void cli_progress_bind(tc_progress_fn *fn, void **user);
void cli_progress_end(void);   /* ends a progress line left unfinished (a failed launch) */

/* tools/device.c: `--device N` (run, bench, tune). cli_parse_device checks N (EXIT_USAGE
 * with the message printed); cli_use_device makes the context launch on it under CUDA
 * (device -1: not given; the interpreter ignores it), returning an exit status. */
int cli_parse_device(const char *cmd, const char *v, int *device);
int cli_use_device(tc_context *ctx, const char *cmd, int device);

#endif
