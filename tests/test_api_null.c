/* test_api_null.c — every function of tritonc.h (but tc_dtype_from_name) called with NULL
 * where a pointer goes: none may crash, and those that return a status fail. Each call runs
 * in a child process, so that a crash names its call instead of ending the suite. */
#include "test.h"
#include "tritonc.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *NSRC =
    "import triton\nimport triton.language as tl\n\n@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.load(y_ptr + offs))\n";

/* 0: returned a failure (or, want_fail 0, returned at all); 1: returned TC_OK; else the
 * signal that ended the child + 100. */
static int probe(const char *what, int want_fail, int (*fn)(void *), void *arg) {
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) {
        int r = fn(arg);
        _exit(want_fail && r == 0 ? 1 : 0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    int r = WIFSIGNALED(st) ? 100 + WTERMSIG(st) : WIFEXITED(st) ? WEXITSTATUS(st) : 99;
    if (r == 1) test_fail(__FILE__, __LINE__, "%s returned TC_OK", what);
    else if (r) test_fail(__FILE__, __LINE__, "%s crashed (status %d)", what, r);
    else test_passed++;
    return r;
}

typedef struct World {
    tc_context *ctx;
    tc_module *m;
    tc_kernel *k;
    tc_args *a;
    tc_tensor *t;
    tc_compiled *c;
    tc_target tg;
} World;

static World W;

/* FN: a call that returns a status, which must fail; FNV: one that must only not crash. */
#define FN(name, expr) static int fn_##name(void *u) { (void)u; return (int)(expr); }
#define FNV(name, expr) static int fn_##name(void *u) { (void)u; expr; return 0; }

static void on_print(const char *t, void *u) { (void)t; (void)u; }
static tc_status bench_fn(void *u) { (void)u; return TC_OK; }

FN(ctx_new, tc_context_new(NULL))
FNV(ctx_free, tc_context_free(NULL))
FN(set_backend, tc_context_set_backend(NULL, TC_BACKEND_INTERPRET))
FN(backend0, tc_context_backend(NULL, NULL))
FN(backend1, tc_context_backend(W.ctx, NULL))
FNV(errcode, tc_errcode(NULL))
FNV(errmsg, tc_errmsg(NULL))
FNV(errloc, tc_errloc(NULL))
FN(driver0, tc_active_driver(NULL, NULL))
FN(driver1, tc_active_driver(W.ctx, NULL))
FN(drvver0, tc_driver_version(NULL, NULL, NULL))
FN(drvver1, tc_driver_version(W.ctx, NULL, NULL))
FN(target0, tc_current_target(NULL, NULL))
FN(target1, tc_current_target(W.ctx, NULL))
FNV(tstr0, tc_target_str(NULL, NULL, 0))
FNV(tstr1, { char b[32]; tc_target_str(NULL, b, sizeof b); })
FNV(tstr2, tc_target_str(&W.tg, NULL, 32))
FNV(ttstr0, tc_target_triton_str(NULL, NULL, 0))
FNV(ttstr1, { char b[64]; tc_target_triton_str(NULL, b, sizeof b); })
FNV(ttstr2, tc_target_triton_str(&W.tg, NULL, 64))
FN(tparse0, tc_target_parse(NULL, NULL))
FN(tparse1, tc_target_parse("cuda:80", NULL))
FN(tparse2, ({ tc_target t; tc_target_parse(NULL, &t); }))
FN(devcount0, tc_device_count(NULL, NULL))
FN(devcount1, tc_device_count(W.ctx, NULL))
FN(devprops0, tc_device_properties(NULL, 0, NULL))
FN(devprops1, tc_device_properties(W.ctx, 0, NULL))
FN(setdev, tc_set_device(NULL, 0))
FNV(curdev, tc_current_device(NULL))
FN(loadf0, tc_module_load_file(NULL, NULL, NULL))
FN(loadf1, ({ tc_module *m; tc_module_load_file(W.ctx, NULL, &m); }))
FN(loadf2, tc_module_load_file(W.ctx, "examples/chapter10.py", NULL))
FN(loads0, tc_module_load_string(NULL, NULL, NULL, NULL))
FN(loads1, ({ tc_module *m; tc_module_load_string(W.ctx, NULL, NULL, &m); }))
FN(loads2, ({ tc_module *m; tc_module_load_string(W.ctx, "x.py", NULL, &m); }))
FN(loads3, tc_module_load_string(W.ctx, "x.py", NSRC, NULL))
FNV(modfree, tc_module_free(NULL))
FNV(kcount, tc_module_kernel_count(NULL))
FNV(kname, tc_module_kernel_name(NULL, 0))
FN(kernel0, tc_module_kernel(NULL, NULL, NULL))
FN(kernel1, ({ tc_kernel *k; tc_module_kernel(W.m, NULL, &k); }))
FN(kernel2, tc_module_kernel(W.m, "add_kernel", NULL))
FNV(pcount, tc_kernel_param_count(NULL))
FNV(pname0, tc_kernel_param_name(NULL, 0, NULL))
FNV(pname1, tc_kernel_param_name(W.k, 0, NULL))
FN(tnew0, tc_tensor_new(NULL, TC_FP32, 1, NULL, NULL))
FN(tnew1, ({ tc_tensor *t; tc_tensor_new(W.ctx, TC_FP32, 1, NULL, &t); }))
FN(tnew2, ({ int64_t n = 4; tc_tensor_new(W.ctx, TC_FP32, 1, &n, NULL); }))
FN(tfrom0, tc_tensor_from_host(NULL, TC_FP32, 1, NULL, NULL, NULL))
FN(tfrom1, ({ tc_tensor *t; int64_t n = 4; tc_tensor_from_host(W.ctx, TC_FP32, 1, &n, NULL, &t); }))
FN(tfrom2, ({ tc_tensor *t; float v[4] = {0}; tc_tensor_from_host(W.ctx, TC_FP32, 1, NULL, v, &t); }))
FN(tfrom3, ({ int64_t n = 4; float v[4] = {0}; tc_tensor_from_host(W.ctx, TC_FP32, 1, &n, v, NULL); }))
FN(toh0, tc_tensor_to_host(NULL, NULL, 0))
FN(toh1, tc_tensor_to_host(W.t, NULL, 16))
FN(fromh0, tc_tensor_copy_from_host(NULL, NULL, 0))
FN(fromh1, tc_tensor_copy_from_host(W.t, NULL, 16))
FNV(tfree, tc_tensor_free(NULL))
FNV(tdtype, tc_tensor_dtype(NULL))
FNV(trank, tc_tensor_rank(NULL))
FNV(tshape, tc_tensor_shape(NULL))
FNV(tnumel, tc_tensor_numel(NULL))
FNV(tnbytes, tc_tensor_nbytes(NULL))
FNV(thost, tc_tensor_host_data(NULL))
FNV(tuninit, tc_tensor_mark_uninit(NULL))
FNV(taddr, tc_tensor_address(NULL))
FN(anew0, tc_args_new(NULL, NULL))
FN(anew1, tc_args_new(W.k, NULL))
FNV(afree, tc_args_free(NULL))
FN(aset0, tc_args_set(NULL, NULL, tc_int(1)))
FN(aset1, tc_args_set(W.a, NULL, tc_int(1)))
FN(aset2, tc_args_set(W.a, "BLOCK", tc_str(NULL)))
FN(aset3, tc_args_set(W.a, "x_ptr", tc_tens(NULL)))
FN(asetat0, tc_args_set_at(NULL, 0, tc_int(1)))
FN(asetat1, tc_args_set_at(W.a, 0, tc_tens(NULL)))
FN(aget0, tc_args_get(NULL, NULL, NULL))
FN(aget1, ({ tc_value v; tc_args_get(W.a, NULL, &v); }))
FN(aget2, tc_args_get(W.a, "BLOCK", NULL))
FN(launch0, tc_launch(NULL, NULL, NULL))
FN(launch1, tc_launch(W.k, NULL, NULL))
FNV(last0, tc_last_launch(NULL, NULL, 0))
FNV(last1, tc_last_launch(W.ctx, NULL, 0))
FNV(stats0, tc_kernel_stats(NULL, NULL, 0))
FNV(stats1, tc_kernel_stats(W.k, NULL, 0))
FNV(setprint, tc_set_print(NULL, on_print, NULL))
FNV(takeout, tc_take_output(NULL))
FN(cptx0, tc_compile_ptx(NULL, NULL, NULL, 0, NULL, 4, NULL))
FN(cptx1, ({ char *p; tc_compile_ptx(W.k, NULL, NULL, 4, W.a, 4, &p); }))
FN(cptx2, ({ char *p; tc_compile_ptx(W.k, &W.tg, NULL, 4, W.a, 4, &p); }))
FN(cptx3, ({ const char *s[4] = {"*fp32", "*fp32", "*fp32", "i32"}; tc_compile_ptx(W.k, &W.tg, s, 4, W.a, 4, NULL); }))
FN(cptx4, ({ const char *s[4] = {"*fp32", NULL, "*fp32", "i32"}; char *p; tc_compile_ptx(W.k, &W.tg, s, 4, W.a, 4, &p); }))
FN(comp0, tc_compile(NULL, NULL, NULL, 0, NULL, 4, 3, NULL))
FN(comp1, ({ tc_compiled *c; tc_compile(W.k, NULL, NULL, 4, W.a, 4, 3, &c); }))
FN(comp2, ({ tc_compiled *c; tc_compile(W.k, &W.tg, NULL, 4, W.a, 4, 3, &c); }))
FN(comp3, ({ const char *s[4] = {"*fp32", "*fp32", "*fp32", "i32"}; tc_compile(W.k, &W.tg, s, 4, W.a, 4, 3, NULL); }))
FN(comp4, ({ const char *s[4] = {"*fp32", "*fp32", NULL, "i32"}; tc_compiled *c; tc_compile(W.k, &W.tg, s, 4, W.a, 4, 3, &c); }))
FNV(cfree, tc_compiled_free(NULL))
FN(asm0, tc_compiled_assemble(NULL, NULL))
FN(asm1, tc_compiled_assemble(W.ctx, NULL))
FN(ptxas, tc_ptxas_path(NULL, 0))
FN(emit0, tc_emit_c(NULL, NULL, 0, NULL, NULL, NULL, NULL))
FN(emit1, tc_emit_c(W.k, NULL, 1, "p", "/tmp/x.h", "/tmp/x.c", "x.h"))
FN(emit2, ({ tc_compiled *v[1] = {NULL}; tc_emit_c(W.k, v, 1, "p", "/tmp/x.h", "/tmp/x.c", "x.h"); }))
FN(emit3, ({ tc_compiled *v[1] = {W.c}; tc_emit_c(W.k, v, 1, NULL, NULL, NULL, NULL); }))
FN(bsel0, tc_binary_select(NULL, NULL, 0, NULL))
FN(bsel1, ({ int i; tc_binary_select(W.ctx, NULL, 1, &i); }))
FN(bsel2, ({ tc_binary_desc d = {0}; tc_binary_select(W.ctx, &d, 1, NULL); }))
FN(bload0, tc_binary_load(NULL, NULL, NULL))
FN(bload1, ({ tc_binary *b; tc_binary_load(W.ctx, NULL, &b); }))
FN(bload2, ({ tc_binary_desc d = {0}; tc_binary_load(W.ctx, &d, NULL); }))
FN(bload3, ({ tc_binary_desc d = {0}; tc_binary *b; tc_binary_load(W.ctx, &d, &b); }))
FN(blaunch, tc_binary_launch(NULL, NULL, NULL, NULL, 0))
FNV(bfree, tc_binary_free(NULL))
FN(sync, tc_synchronize(NULL))
FNV(evname, tc_cache_event_name(-7))
FN(cdir, tc_cache_dir(NULL, 0))
FN(clist0, tc_cache_list(NULL, NULL, NULL))
FN(clist1, tc_cache_list(W.ctx, NULL, NULL))
FN(clist2, ({ int n; tc_cache_list(W.ctx, NULL, &n); }))
FN(clist3, ({ tc_cache_item *it; tc_cache_list(W.ctx, &it, NULL); }))
FN(cclear, tc_cache_clear(NULL, NULL))
FN(cclear_t, tc_cache_clear_tuning(NULL, NULL))
FNV(cmax, tc_cache_max_bytes())
FN(bench0, tc_do_bench(NULL, NULL, NULL, NULL, NULL))
FN(bench1, tc_do_bench(W.ctx, NULL, NULL, NULL, NULL))
FN(bench2, tc_do_bench(W.ctx, bench_fn, NULL, NULL, NULL))
FN(benchk0, tc_bench_kernel(NULL, NULL, NULL, NULL, NULL))
FN(benchk1, tc_bench_kernel(W.k, NULL, NULL, NULL, NULL))
FN(autotune0, tc_kernel_set_autotune(NULL, NULL))
FN(autotune1, tc_kernel_set_autotune(W.k, NULL))
FN(tinfo0, tc_kernel_tune_info(NULL, NULL))
FN(tinfo1, tc_kernel_tune_info(W.k, NULL))
FNV(cfgstr, tc_kernel_config_str(NULL, 0))
FNV(heur, tc_kernel_heuristic_name(NULL, 0))
FNV(tsrc, tc_tune_source_name((tc_tune_source)-3))
FN(lasttune0, tc_last_tune(NULL, NULL))
FN(lasttune1, tc_last_tune(W.ctx, NULL))
FN(tune0, tc_tune(NULL, NULL, NULL, 0, NULL, NULL, NULL))
FN(tune1, tc_tune(W.k, NULL, NULL, 0, NULL, NULL, NULL))
FN(dbload0, tc_tuning_db_load(NULL, NULL))
FN(dbload1, tc_tuning_db_load(W.ctx, NULL))
FN(dbsave0, tc_tuning_db_save(NULL, NULL))
FN(dbsave1, tc_tuning_db_save(W.ctx, NULL))
FN(tcdir, tc_tuning_cache_dir(NULL, 0))
FNV(freen, tc_free(NULL))
FN(write0, tc_write_file(NULL, NULL, NULL, 0))
FN(write1, tc_write_file(W.ctx, NULL, "x", 1))
FN(write2, tc_write_file(W.ctx, "/tmp/tritonc-null-probe", NULL, 1))
FNV(fmtd, tc_format_double(1.5, NULL, 0))
FNV(names, { tc_status_name((tc_status)-1); tc_dtype_name((tc_dtype)99); tc_dtype_size((tc_dtype)0); })
FNV(values, { tc_int(1); tc_float(1); tc_bool(1); tc_str(NULL); tc_none(); tc_tens(NULL); tc_launch_defaults(); })

#define P(name) probe(#name, 1, fn_##name, NULL)
#define PV(name) probe(#name, 0, fn_##name, NULL)

static void run_probes(tc_backend b) {
    memset(&W, 0, sizeof W);
    CHECK_INT(TC_OK, tc_context_new(&W.ctx));
    tc_context_set_backend(W.ctx, b);
    CHECK_INT(TC_OK, tc_module_load_string(W.ctx, "n.py", NSRC, &W.m));
    CHECK_INT(TC_OK, tc_module_kernel(W.m, "add_kernel", &W.k));
    CHECK_INT(TC_OK, tc_args_new(W.k, &W.a));
    tc_args_set(W.a, "BLOCK", tc_int(4));
    int64_t n = 4;
    CHECK_INT(TC_OK, tc_tensor_new(W.ctx, TC_FP32, 1, &n, &W.t));
    tc_target_parse("cuda:80", &W.tg);
    const char *sig[4] = {"*fp32", "*fp32", "*fp32", "i32"};
    CHECK_INT(TC_OK, tc_compile(W.k, &W.tg, sig, 4, W.a, 4, 3, &W.c));
    if (!W.c) return;
    P(ctx_new); PV(ctx_free); P(set_backend); P(backend0); P(backend1);
    PV(errcode); PV(errmsg); PV(errloc);
    P(driver0); P(driver1); P(drvver0); P(drvver1); P(target0); P(target1);
    PV(tstr0); PV(tstr1); PV(tstr2); PV(ttstr0); PV(ttstr1); PV(ttstr2);
    P(tparse0); P(tparse1); P(tparse2);
    P(devcount0); P(devcount1); P(devprops0); P(devprops1); P(setdev); PV(curdev);
    P(loadf0); P(loadf1); P(loadf2); P(loads0); P(loads1); P(loads2); P(loads3);
    PV(modfree); PV(kcount); PV(kname); P(kernel0); P(kernel1); P(kernel2);
    PV(pcount); PV(pname0); PV(pname1);
    P(tnew0); P(tnew1); P(tnew2); P(tfrom0); P(tfrom1); P(tfrom2); P(tfrom3);
    P(toh0); P(toh1); P(fromh0); P(fromh1);
    PV(tfree); PV(tdtype); PV(trank); PV(tshape); PV(tnumel); PV(tnbytes); PV(thost);
    PV(tuninit); PV(taddr);
    P(anew0); P(anew1); PV(afree); P(aset0); P(aset1); P(aset2); P(aset3);
    P(asetat0); P(asetat1); P(aget0); P(aget1); P(aget2);
    P(launch0); P(launch1); PV(last0); PV(last1); PV(stats0); PV(stats1);
    PV(setprint); PV(takeout);
    P(cptx0); P(cptx1); P(cptx2); P(cptx3); P(cptx4);
    P(comp0); P(comp1); P(comp2); P(comp3); P(comp4); PV(cfree); P(asm0); P(asm1);
    P(ptxas); P(emit0); P(emit1); P(emit2); P(emit3);
    P(bsel0); P(bsel1); P(bsel2); P(bload0); P(bload1); P(bload2); P(bload3);
    P(blaunch); PV(bfree); P(sync);
    PV(evname); P(cdir); P(clist0); P(clist1); P(clist2); P(clist3); P(cclear); P(cclear_t); PV(cmax);
    P(bench0); P(bench1); P(bench2); P(benchk0); P(benchk1);
    P(autotune0); P(autotune1); P(tinfo0); P(tinfo1); PV(cfgstr); PV(heur); PV(tsrc);
    P(lasttune0); P(lasttune1); P(tune0); P(tune1);
    P(dbload0); P(dbload1); P(dbsave0); P(dbsave1); P(tcdir);
    PV(freen); P(write0); P(write1); P(write2); PV(fmtd); PV(names); PV(values);
    tc_compiled_free(W.c);
    tc_tensor_free(W.t);
    tc_args_free(W.a);
    tc_module_free(W.m);
    tc_context_free(W.ctx);
}

TEST(api_null_arguments) { run_probes(TC_BACKEND_INTERPRET); }

/* The same on the GPU backend: this binary again, with the fake driver. */
TEST(api_null_arguments_gpu) {
    if (getenv("TC_NULL_CHILD")) { run_probes(TC_BACKEND_CUDA); return; }
    char exe[1024], cmd[3000];
    static char out[1 << 16];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return;
    exe[len] = 0;
    snprintf(cmd, sizeof cmd, "TC_NULL_CHILD=1 TRITONC_LIBCUDA_PATH=%s/fake/libcuda.so.1 %s "
             "api_null_arguments_gpu", test_build_dir(), exe);
    int r = test_run(cmd, out, sizeof out);
    if (r) fprintf(stderr, "%s", out);
    CHECK_INT(0, r);
    CHECK_CONTAINS(out, " 0 failed");
}
