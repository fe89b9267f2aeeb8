/* cli.h — the subcommands of the `tritonc` command. Each returns the process exit status:
 * 0 success, 1 compile or run error, 2 usage error, 3 no active driver, 4 `check` found
 * problems. They use only the public API (tritonc.h). */
#ifndef CLI_H
#define CLI_H

int cmd_run(int argc, char **argv);      /* tools/tritonc.c */
int cmd_info(int argc, char **argv);     /* tools/info.c */
int cmd_compile(int argc, char **argv);  /* tools/tritonc.c */
/* tools/compile.c: `tritonc compile` ahead of time (several targets, signatures, --emit
 * ptx|cubin|c) and `tritonc cache ls|clear|dir`. */
int cmd_compile_aot(int argc, char **argv);
int cmd_cache(int argc, char **argv);

#endif
