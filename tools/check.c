/* check.c — `tritonc check FILE KERNEL ARGS...`: `tritonc run` on the interpreter in check
 * mode (tc_launch_opts.check). It takes run's arguments and options; the report goes to
 * standard output; the exit status is 4 when the report names a problem (notes do not
 * count), 0 when the kernel is clean. */
#include "tritonc.h"
#include "cli.h"

int cmd_check(int argc, char **argv) { return cli_run(argc, argv, 1); }
