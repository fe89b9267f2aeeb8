/* test_driver.c — driver discovery, target, device properties and `tritonc info`, with no
 * GPU: a fake libcuda.so.1 (tests/fake_libcuda.c, built as <build>/fake/libcuda.so.1)
 * stands in for the driver, selected with TRITONC_LIBCUDA_PATH.
 *
 * The driver is loaded once per process, so each driver mode is tested in a fresh process:
 * the driver_inprocess_* tests re-run this test binary (/proc/self/exe) with only the
 * drvchild_* tests selected and TC_DRIVER_CHILD=<mode> in the environment, and add the
 * child's assertion counts to ours. drvchild_* tests do nothing in the parent. The CLI
 * tests run <build>/tritonc info. */
#include "test.h"
#include "base/context.h"
#include "driver/cuda.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------------------- */

static char fake_path[1024], cli_path[1024];

static int have_fake(void) {
    snprintf(fake_path, sizeof fake_path, "%s/fake/libcuda.so.1", test_build_dir());
    if (access(fake_path, R_OK) == 0) return 1;
    fprintf(stderr, "SKIP %s: %s is missing (make builds it)\n", test_current, fake_path);
    return 0;
}

static int have_cli(void) {
    snprintf(cli_path, sizeof cli_path, "%s/tritonc", test_build_dir());
    if (!have_fake()) return 0;
    if (access(cli_path, X_OK) == 0) return 1;
    fprintf(stderr, "SKIP %s: %s is missing (make builds it)\n", test_current, cli_path);
    return 0;
}

/* Runs `tritonc info ARGS` with the fake driver in MODE (NULL: TRITONC_LIBCUDA_PATH=LIB). */
static int run_info(const char *env, const char *args, char *out, size_t n) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "env -u TRITON_OVERRIDE_ARCH -u CUDA_VISIBLE_DEVICES -u FAKE_CUDA_MODE -u TRITONC_SHADOW "
             "TRITONC_LIBCUDA_PATH=%s %s %s info %s",
             fake_path, env ? env : "", cli_path, args);
    return test_run(cmd, out, n);
}

/* Re-runs this binary with TC_DRIVER_CHILD=mode and only the drvchild_* tests. */
static void run_child(const char *mode, const char *env) {
    if (!have_fake()) return;
    char exe[1024];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        fprintf(stderr, "SKIP %s: cannot find /proc/self/exe\n", test_current);
        return;
    }
    exe[len] = 0;
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "env -u TRITON_OVERRIDE_ARCH -u CUDA_VISIBLE_DEVICES -u FAKE_CUDA_MODE -u TRITONC_SHADOW "
             "-u TEST_VERBOSE TC_DRIVER_CHILD=%s TRITONC_LIBCUDA_PATH=%s %s '%s' drvchild_",
             mode, fake_path, env, exe);
    static char out[1 << 16];
    int rc = test_run(cmd, out, sizeof out);
    const char *p = NULL;
    for (const char *q = strstr(out, " passed, "); q; q = strstr(q + 1, " passed, ")) p = q;
    int passed = 0, failed = 0;
    if (p) {
        const char *s = p;
        while (s > out && s[-1] >= '0' && s[-1] <= '9') s--;
        if (sscanf(s, "%d passed, %d failed", &passed, &failed) != 2) p = NULL;
    }
    if (!p || rc != 0 || failed) {
        test_fail(__FILE__, __LINE__, "child run (mode %s) exited %d:\n%s", mode, rc, out);
        return;
    }
    test_passed += passed;
    CHECK(passed >= 5); /* the child ran its tests */
}

static const char *child_mode(void) { return getenv("TC_DRIVER_CHILD"); }
static int in_child(const char *mode) {
    const char *m = child_mode();
    return m && strcmp(m, mode) == 0;
}

/* ---- pure parts: target strings and parsing, the active-driver rule ------------------- */

TEST(driver_target_parse) {
    tc_target t;
    CHECK_INT(TC_OK, tc_target_parse("cuda:80", &t));
    CHECK_STR("cuda", t.backend);
    CHECK_INT(80, t.arch);
    CHECK_INT(32, t.warp_size);
    CHECK_INT(0, t.arch_suffix_a);
    CHECK_INT(TC_OK, tc_target_parse("cuda:90a", &t));
    CHECK_INT(90, t.arch);
    CHECK_INT(1, t.arch_suffix_a);
    CHECK_INT(TC_OK, tc_target_parse("cuda:90", &t));
    CHECK_INT(1, t.arch_suffix_a); /* Triton: Hopper compiles for sm_90a */
    CHECK_INT(TC_OK, tc_target_parse("sm_90a", &t));
    CHECK_INT(90, t.arch);
    CHECK_INT(TC_OK, tc_target_parse("sm80", &t));
    CHECK_INT(80, t.arch);
    CHECK_INT(TC_OK, tc_target_parse("sm_86", &t));
    CHECK_INT(86, t.arch);
    CHECK_INT(TC_OK, tc_target_parse("89", &t));
    CHECK_INT(89, t.arch);
    CHECK_INT(TC_OK, tc_target_parse("sm_100a", &t));
    CHECK_INT(100, t.arch);
    CHECK_INT(1, t.arch_suffix_a);
    CHECK_INT(TC_ERR_ARG, tc_target_parse("sm_80a", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("sm", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("sm_", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("sm_90b", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("cuda:", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("ampere", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("5", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse("sm_123456", &t));
    CHECK_INT(TC_ERR_UNSUPPORTED, tc_target_parse("hip:gfx942", &t));
    CHECK_INT(TC_ERR_ARG, tc_target_parse(NULL, &t));
}

TEST(driver_target_str) {
    tc_target t;
    char buf[128];
    CHECK_INT(TC_OK, tc_target_parse("sm_90a", &t));
    tc_target_str(&t, buf, sizeof buf);
    CHECK_STR("cuda:90", buf);
    tc_target_triton_str(&t, buf, sizeof buf);
    CHECK_STR("GPUTarget(backend='cuda', arch=90, warp_size=32)", buf);
    CHECK_INT(TC_OK, tc_target_parse("cuda:80", &t));
    tc_target_str(&t, buf, sizeof buf);
    CHECK_STR("cuda:80", buf);
    tc_target_triton_str(&t, buf, sizeof buf);
    CHECK_STR("GPUTarget(backend='cuda', arch=80, warp_size=32)", buf);
    char small[5];
    tc_target_triton_str(&t, small, sizeof small);
    CHECK_STR("GPUT", small);
}

TEST(driver_select_rule) {
    Err e = {0};
    const char *name = "x";
    const char *names[] = {"cuda", "hip"};
    const char *why[] = {"libcuda.so.1 not found (dlopen: nope)", "libamdhip64.so not found"};
    bool none[] = {false, false}, one[] = {false, true}, both[] = {true, true};

    CHECK_INT(TC_ERR_NO_DRIVER, driver_select(1, names, none, why, &name, &e));
    CHECK_STR("0 active drivers ([]). There should only be one.\n"
              "libcuda.so.1 not found (dlopen: nope)", e.msg);
    CHECK(name == NULL);
    CHECK_INT(TC_ERR_NO_DRIVER, e.code);

    CHECK_INT(TC_ERR_NO_DRIVER, driver_select(2, names, none, why, &name, &e));
    CHECK_STR("0 active drivers ([]). There should only be one.\n"
              "cuda: libcuda.so.1 not found (dlopen: nope)\n"
              "hip: libamdhip64.so not found", e.msg);

    CHECK_INT(TC_ERR_NO_DRIVER, driver_select(2, names, both, why, &name, &e));
    CHECK_STR("2 active drivers ([cuda, hip]). There should only be one.", e.msg);

    CHECK_INT(TC_OK, driver_select(2, names, one, why, &name, &e));
    CHECK_STR("hip", name);
    CHECK_INT(TC_OK, driver_select(1, names, both, why, &name, &e));
    CHECK_STR("cuda", name);
}

/* ---- in-process, one fresh process per mode ------------------------------------------- */

TEST(driver_inprocess_h200) { run_child("h200", ""); }
TEST(driver_inprocess_two) { run_child("two", "FAKE_CUDA_MODE=two"); }
TEST(driver_inprocess_zero) { run_child("zero", "FAKE_CUDA_MODE=zero"); }
TEST(driver_inprocess_initfail) { run_child("initfail", "FAKE_CUDA_MODE=initfail"); }
TEST(driver_inprocess_nolib) { run_child("nolib", "TRITONC_LIBCUDA_PATH=/nonexistent/libcuda.so.1"); }

static void check_h200(const tc_device_props *p) {
    CHECK_STR("NVIDIA H200", p->name);
    CHECK_INT(9, p->major);
    CHECK_INT(0, p->minor);
    CHECK_INT(132, p->multiprocessor_count);
    CHECK_INT(143155ll * 1024 * 1024, (long long)p->total_memory);
    CHECK_INT(62914560, p->l2_cache_size);
    CHECK_INT(232448, p->max_shared_memory_per_block_optin);
    CHECK_INT(233472, p->max_shared_memory_per_multiprocessor);
    CHECK_INT(65536, p->max_registers_per_block);
    CHECK_INT(32, p->warp_size);
    CHECK_INT(1024, p->max_threads_per_block);
    CHECK_INT(1980000, p->sm_clock_khz);
    CHECK_INT(3201000, p->mem_clock_khz);
    CHECK_INT(6016, p->mem_bus_width_bits);
    /* 2 * 3.201e9 Hz * 6016/8 bytes */
    CHECK_NEAR(4814.304, p->peak_bandwidth_gbs, 1e-9, 1e-6);
}

/* Occupancy arithmetic, with an H100/H200 SM: 65536 registers, 2048 threads, 32 programs,
 * 228 KiB of shared memory, 1 KiB reserved per program, 255 registers per thread. Registers
 * go per warp in blocks of 256 (8 per thread). */
TEST(driver_ctas_per_sm) {
    CuSmLimits h = {65536, 2048, 32, 233472, 1024, 255};
    int cap;
    /* 512 threads at 40 registers: 65536 / (40*32) = 51 warps = 3 programs; 4 fit at
     * 65536 / (4*512) = 32 registers, which is 80% of 40 */
    CHECK_INT(3, cuda_ctas_per_sm(40, 512, 64, &h, &cap));
    CHECK_INT(32, cap);
    CHECK_INT(4, cuda_ctas_per_sm(32, 512, 64, &h, &cap)); /* already at the thread limit */
    CHECK_INT(0, cap);
    /* 41 registers are allocated as 48: 42 warps, 2 programs; 3 fit at 42 -> 40 */
    CHECK_INT(2, cuda_ctas_per_sm(41, 512, 0, &h, &cap));
    CHECK_INT(40, cap);
    /* 128 threads at 80: 25 warps, 6 programs; 7 fit at 73 -> 72 (90%) */
    CHECK_INT(6, cuda_ctas_per_sm(80, 128, 0, &h, &cap));
    CHECK_INT(72, cap);
    /* 255 registers (256 allocated): 2 programs; 3 would need 170 -> 168, under 80% */
    CHECK_INT(2, cuda_ctas_per_sm(255, 128, 0, &h, &cap));
    CHECK_INT(0, cap);
    /* shared memory decides: 233472 / (100000 + 1024) = 2 programs, registers allow 3 */
    CHECK_INT(2, cuda_ctas_per_sm(40, 512, 100000, &h, &cap));
    CHECK_INT(0, cap);
    /* nonsense in, nothing out */
    CHECK_INT(0, cuda_ctas_per_sm(0, 512, 0, &h, &cap));
    CHECK_INT(0, cap);
}

/* cuda_module_build's occupancy step: the PTX it kept with `.minnctapersm`, or NULL; *jits
 * gets the PTX compilations it made (the fake's module loads: it keeps no JIT cache). */
static char *occupancy_of(const char *ptx, const char *kernel, int *jits) {
    long c0[1], c1[1];
    test_fake_counters(c0, 1);
    char *occ = NULL;
    CuModule *m = NULL;
    Err e = {0};
    CHECK_INT(TC_OK, cuda_module_build(ptx, kernel, 0, true, &occ, &m, &e));
    /* the module is the kept code's: capped or not, as the fake reads its PTX */
    if (m) CHECK_INT(occ ? atoi(getenv("FAKE_CUDA_REGS_CAPPED") ? getenv("FAKE_CUDA_REGS_CAPPED") : "32")
                         : atoi(getenv("FAKE_CUDA_REGS") ? getenv("FAKE_CUDA_REGS") : "32"),
                     cuda_module_num_regs(m));
    cuda_module_unload(m);
    test_fake_counters(c1, 1);
    *jits = (int)(c1[0] - c0[0]);
    return occ;
}

TEST(drvchild_h200_occupancy) {
    if (!in_child("h200")) return;
    const char *ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                      ".visible .entry ln(\n.param .u64 x\n)\n.maxntid 512, 1, 1\n{\nret;\n}\n";
    int jits = 0;
    /* 40 registers at 512 threads, 32 when capped: one more program per SM; two
     * compilations */
    setenv("FAKE_CUDA_REGS", "40", 1);
    unsetenv("FAKE_CUDA_REGS_CAPPED");
    unsetenv("FAKE_CUDA_SPILL");
    char *p = occupancy_of(ptx, "ln", &jits);
    CHECK(p != NULL);
    CHECK_INT(2, jits);
    if (p) CHECK_CONTAINS(p, "\n.maxntid 512, 1, 1\n.minnctapersm 4\n{\nret;");
    free(p);
    /* capped but spilling, or missing the cap: the original stays */
    setenv("FAKE_CUDA_SPILL", "16", 1);
    CHECK(occupancy_of(ptx, "ln", &jits) == NULL);
    CHECK_INT(2, jits);
    unsetenv("FAKE_CUDA_SPILL");
    setenv("FAKE_CUDA_REGS_CAPPED", "40", 1);
    CHECK(occupancy_of(ptx, "ln", &jits) == NULL);
    unsetenv("FAKE_CUDA_REGS_CAPPED");
    /* already at full occupancy, no .maxntid, switched off: compiled once */
    setenv("FAKE_CUDA_REGS", "32", 1);
    CHECK(occupancy_of(ptx, "ln", &jits) == NULL);
    CHECK_INT(1, jits);
    setenv("FAKE_CUDA_REGS", "40", 1);
    CHECK(occupancy_of(".version 8.0\n.visible .entry ln()\n{\nret;\n}\n", "ln", &jits) == NULL);
    CHECK_INT(1, jits);
    setenv("TRITONC_OCCUPANCY", "0", 1);
    CHECK(occupancy_of(ptx, "ln", &jits) == NULL);
    CHECK_INT(1, jits);
    unsetenv("TRITONC_OCCUPANCY");
    unsetenv("FAKE_CUDA_REGS");
    /* a PTX error comes back with the driver's log and the line */
    CuModule *m = NULL;
    Err e = {0};
    char *occ = NULL;
    CHECK(cuda_module_build(".version 8.0\n.visible .entry ln()\n{\nbogus;\n}\n", "ln", 0,
                            true, &occ, &m, &e) != TC_OK);
    CHECK_CONTAINS(e.msg, "PTX line 4: bogus;");
    CHECK(m == NULL && occ == NULL);
}

static void *thread_driver(void *arg) {
    const char *name = NULL;
    Err e = {0};
    *(int *)arg = driver_active(&name, &e) == TC_OK && name && strcmp(name, "cuda") == 0;
    return NULL;
}

TEST(drvchild_h200_discovery) {
    if (!in_child("h200")) return;
    /* Several threads racing to load the driver: it loads once, all agree. */
    pthread_t th[4];
    int ok[4] = {0};
    for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, thread_driver, &ok[i]);
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++) CHECK_INT(1, ok[i]);

    tc_context *ctx;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    const char *name = NULL, *lib = NULL;
    int version = 0;
    CHECK_INT(TC_OK, tc_active_driver(ctx, &name));
    CHECK_STR("cuda", name);
    CHECK_INT(TC_OK, tc_driver_version(ctx, &lib, &version));
    CHECK_INT(13000, version);
    CHECK(lib && strstr(lib, "fake/libcuda.so.1"));

    tc_target t;
    char buf[128];
    CHECK_INT(TC_OK, tc_current_target(ctx, &t));
    CHECK_STR("cuda", t.backend);
    CHECK_INT(90, t.arch);
    CHECK_INT(32, t.warp_size);
    CHECK_INT(1, t.arch_suffix_a);
    tc_target_triton_str(&t, buf, sizeof buf);
    CHECK_STR("GPUTarget(backend='cuda', arch=90, warp_size=32)", buf);

    int n = 0;
    CHECK_INT(TC_OK, tc_device_count(ctx, &n));
    CHECK_INT(1, n);
    tc_device_props p, q;
    CHECK_INT(TC_OK, tc_device_properties(ctx, 0, &p));
    check_h200(&p);
    CHECK_INT(TC_OK, tc_device_properties(ctx, 0, &q)); /* from the cache */
    CHECK(memcmp(&p, &q, sizeof p) == 0);

    CHECK_INT(TC_ERR_NOT_FOUND, tc_device_properties(ctx, 1, &p));
    CHECK_STR("invalid device 1: there is 1 CUDA device", tc_errmsg(ctx));
    CHECK_INT(TC_ERR_NOT_FOUND, tc_set_device(ctx, 1));
    CHECK_STR("invalid device 1: there is 1 CUDA device", tc_errmsg(ctx));
    CHECK_INT(TC_ERR_NOT_FOUND, tc_set_device(ctx, -1));
    CHECK_INT(0, tc_current_device(ctx));
    CHECK_INT(TC_OK, tc_set_device(ctx, 0));

    bool ov = true;
    Err e = {0};
    CHECK_INT(TC_OK, cuda_target(0, &t, &ov, &e));
    CHECK(!ov);
    tc_context_free(ctx);
}

TEST(drvchild_h200_override) {
    if (!in_child("h200")) return;
    tc_target t;
    bool ov = false;
    Err e = {0};
    setenv("TRITON_OVERRIDE_ARCH", "sm80", 1);
    CHECK_INT(TC_OK, cuda_target(0, &t, &ov, &e));
    CHECK(ov);
    CHECK_INT(80, t.arch);
    CHECK_INT(0, t.arch_suffix_a);
    setenv("TRITON_OVERRIDE_ARCH", "sm_90a", 1);
    CHECK_INT(TC_OK, cuda_target(0, &t, &ov, &e));
    CHECK_INT(90, t.arch);
    CHECK_INT(1, t.arch_suffix_a);
    setenv("TRITON_OVERRIDE_ARCH", "86", 1);
    CHECK_INT(TC_OK, cuda_target(0, &t, &ov, &e));
    CHECK_INT(86, t.arch);
    setenv("TRITON_OVERRIDE_ARCH", "volta", 1);
    CHECK_INT(TC_ERR_ARG, cuda_target(0, &t, &ov, &e));
    CHECK_STR("TRITON_OVERRIDE_ARCH must have the form sm<NN> (sm80, sm_90a), got 'volta'", e.msg);
    tc_context *ctx;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    CHECK_INT(TC_ERR_ARG, tc_current_target(ctx, &t));
    CHECK_CONTAINS(tc_errmsg(ctx), "TRITON_OVERRIDE_ARCH must have the form");
    unsetenv("TRITON_OVERRIDE_ARCH");
    CHECK_INT(TC_OK, tc_current_target(ctx, &t));
    CHECK_INT(90, t.arch);
    tc_context_free(ctx);
}

TEST(drvchild_h200_memory) {
    if (!in_child("h200")) return;
    Err e = {0};
    CHECK_INT(TC_OK, cuda_use_device(0, &e));
    CuDevPtr p = 0;
    CHECK_INT(TC_OK, cuda_alloc(64, &p, &e));
    CHECK(p != 0);
    unsigned char in[64], out[64];
    for (int i = 0; i < 64; i++) in[i] = (unsigned char)(i * 3 + 1);
    CHECK_INT(TC_OK, cuda_htod(p, in, 64, &e));
    memset(out, 0, sizeof out);
    CHECK_INT(TC_OK, cuda_dtoh(out, p, 64, &e));
    CHECK(memcmp(in, out, 64) == 0);
    CHECK_INT(TC_OK, cuda_memset0(p, 32, &e));
    CHECK_INT(TC_OK, cuda_dtoh(out, p, 64, &e));
    CHECK_INT(0, out[0]);
    CHECK_INT(0, out[31]);
    CHECK_INT(in[32], out[32]);
    cuda_free(p);

    CuDevPtr z = 1;
    CHECK_INT(TC_OK, cuda_alloc(0, &z, &e));
    CHECK(z == 0);
    cuda_free(z);

    CuDevPtr big = 0;
    CHECK_INT(TC_ERR_DRIVER, cuda_alloc((size_t)1 << 41, &big, &e));
    CHECK_STR("cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2)", e.msg);
    CHECK_INT(TC_OK, cuda_sync(&e));

    CHECK_INT(TC_ERR_NOT_FOUND, cuda_use_device(3, &e));
    CHECK_STR("invalid device 3: there is 1 CUDA device", e.msg);
}

/* A device tensor has no host memory to fill in place: tc_tensor_host_data is NULL, and
 * the copies are the way in and out. */
TEST(drvchild_h200_tensor_host_data) {
    if (!in_child("h200")) return;
    tc_context *ctx;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    int64_t n = 5;
    tc_tensor *t = NULL;
    CHECK_INT(TC_OK, tc_tensor_new(ctx, TC_FP32, 1, &n, &t));
    if (t) {
        CHECK(tc_tensor_host_data(t) == NULL);
        float in[5] = {1, 2, 3, 4, 5}, out[5] = {0};
        CHECK_INT(TC_OK, tc_tensor_copy_from_host(t, in, sizeof in));
        CHECK_INT(TC_OK, tc_tensor_to_host(t, out, sizeof out));
        CHECK(memcmp(in, out, sizeof in) == 0);
    }
    tc_tensor_free(t);
    tc_context_free(ctx);
}

TEST(drvchild_h200_modules) {
    if (!in_child("h200")) return;
    Err e = {0};
    const char *good = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                       ".visible .entry add_kernel(\n.param .u64 x\n)\n{\nret;\n}\n";
    const char *bad = ".version 8.0\n.target sm_90a\n    bogus.instr %r1;\n";
    CuModule *m = NULL;
    CHECK_INT(TC_ERR_DRIVER, cuda_module_load(bad, "add_kernel", 0, &m, &e));
    CHECK(m == NULL);
    CHECK_CONTAINS(e.msg, "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (218)");
    CHECK_CONTAINS(e.msg, "ptxas application ptx input, line 3; error   : Unknown symbol 'bogus'");
    CHECK_CONTAINS(e.msg, "\nPTX line 3:     bogus.instr %r1;");

    CHECK_INT(TC_OK, cuda_module_load(good, "add_kernel", 0, &m, &e));
    CHECK(m != NULL);
    CHECK_INT(32, cuda_module_num_regs(m));
    uint32_t grid[3] = {4, 0, 0};
    CHECK_INT(TC_ERR_DRIVER, cuda_launch(m, grid, 128, 0, NULL, NULL, &e));
    CHECK_STR("cuLaunchKernel failed: CUDA_ERROR_NOT_SUPPORTED (801)", e.msg);
    uint32_t empty[3] = {0, 1, 1};
    CHECK_INT(TC_OK, cuda_launch(m, empty, 128, 0, NULL, NULL, &e)); /* launches nothing */
    cuda_module_unload(m);

    CHECK_INT(TC_ERR_DRIVER, cuda_module_load(good, "nope", 0, &m, &e));
    CHECK_STR("cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND (500) (kernel 'nope')", e.msg);
    CHECK_INT(TC_ERR_RESOURCES, cuda_module_load(good, "add_kernel", 300000, &m, &e));
    CHECK_CONTAINS(e.msg, "out of resource: shared memory, Required: 300000, Hardware limit: 232448");
    CHECK_INT(TC_OK, cuda_module_load(good, "add_kernel", 100000, &m, &e));
    cuda_module_unload(m);

    CuEvent *a = NULL, *b = NULL;
    float ms = -1;
    CHECK_INT(TC_OK, cuda_event_new(&a, &e));
    CHECK_INT(TC_OK, cuda_event_new(&b, &e));
    CHECK_INT(TC_OK, cuda_event_record(a, NULL, &e));
    CHECK_INT(TC_OK, cuda_event_record(b, NULL, &e));
    CHECK_INT(TC_OK, cuda_event_elapsed_ms(a, b, &ms, &e));
    CHECK_NEAR(0.5, ms, 0, 1e-6);
    cuda_event_free(a);
    cuda_event_free(b);
}

/* The fake driver is CUDA 13.0: PTX ISA 9.0 at most, refused before its JIT is asked */
TEST(drvchild_h200_ptx_ceiling) {
    if (!in_child("h200")) return;
    Err e = {0};
    CuModule *m = NULL;
    const char *newer = ".version 9.1\n.target sm_90a\n.address_size 64\n"
                        ".visible .entry k(\n.param .u64 x\n)\n{\nret;\n}\n";
    CHECK_INT(TC_ERR_DRIVER, cuda_module_load(newer, "k", 0, &m, &e));
    CHECK(m == NULL);
    CHECK_STR("the PTX needs PTX ISA 9.1, but the CUDA driver (13.0) loads PTX ISA 9.0 at most: "
              "a newer driver is needed", e.msg);
    const char *ok = ".version 9.0\n.target sm_90a\n.address_size 64\n"
                     ".visible .entry k(\n.param .u64 x\n)\n{\nret;\n}\n";
    CHECK_INT(TC_OK, cuda_module_load(ok, "k", 0, &m, &e));
    cuda_module_unload(m);
}

TEST(drvchild_two_devices) {
    if (!in_child("two")) return;
    tc_context *ctx;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    int n = 0;
    CHECK_INT(TC_OK, tc_device_count(ctx, &n));
    CHECK_INT(2, n);
    tc_device_props p;
    CHECK_INT(TC_OK, tc_device_properties(ctx, 0, &p));
    check_h200(&p);
    CHECK_INT(TC_OK, tc_device_properties(ctx, 1, &p));
    CHECK_STR("NVIDIA A100-SXM4-80GB", p.name);
    CHECK_INT(8, p.major);
    CHECK_INT(108, p.multiprocessor_count);
    CHECK_INT(166912, p.max_shared_memory_per_block_optin);
    CHECK_NEAR(2039.04, p.peak_bandwidth_gbs, 1e-9, 1e-6);
    tc_target t;
    CHECK_INT(TC_OK, tc_current_target(ctx, &t));
    CHECK_INT(90, t.arch);
    CHECK_INT(TC_OK, tc_set_device(ctx, 1));
    CHECK_INT(1, tc_current_device(ctx));
    CHECK_INT(TC_OK, tc_current_target(ctx, &t));
    CHECK_INT(80, t.arch);
    CHECK_INT(0, t.arch_suffix_a);
    CHECK_INT(TC_ERR_NOT_FOUND, tc_set_device(ctx, 2));
    CHECK_STR("invalid device 2: there are 2 CUDA devices", tc_errmsg(ctx));
    CHECK_INT(1, tc_current_device(ctx));
    Err e = {0};
    CHECK_INT(TC_OK, cuda_use_device(1, &e));
    tc_context_free(ctx);
}

/* The refusals: every question fails with TC_ERR_NO_DRIVER and the reason. */
static void check_refusal(const char *reason, const char *props_msg) {
    tc_context *ctx;
    CHECK_INT(TC_OK, tc_context_new(&ctx));
    const char *name = "x";
    static char want[8192];
    snprintf(want, sizeof want, "0 active drivers ([]). There should only be one.\n%s", reason);
    CHECK_INT(TC_ERR_NO_DRIVER, tc_active_driver(ctx, &name));
    CHECK_STR(want, tc_errmsg(ctx));
    CHECK_INT(TC_ERR_NO_DRIVER, tc_errcode(ctx));
    tc_target t;
    CHECK_INT(TC_ERR_NO_DRIVER, tc_current_target(ctx, &t));
    CHECK_STR(want, tc_errmsg(ctx)); /* the same words: discovery fails first */
    int n = 7;
    CHECK_INT(TC_ERR_NO_DRIVER, tc_device_count(ctx, &n));
    CHECK_STR(props_msg, tc_errmsg(ctx));
    CHECK_INT(0, n);
    tc_device_props p;
    CHECK_INT(TC_ERR_NO_DRIVER, tc_device_properties(ctx, 0, &p));
    CHECK_INT(TC_ERR_NO_DRIVER, tc_set_device(ctx, 0));
    const char *lib;
    int v;
    CHECK_INT(TC_ERR_NO_DRIVER, tc_driver_version(ctx, &lib, &v));
    Err e = {0};
    CuDevPtr d = 0;
    CHECK_INT(TC_ERR_NO_DRIVER, cuda_alloc(16, &d, &e));
    CHECK_STR(reason, e.msg);
    CHECK_INT(TC_ERR_NO_DRIVER, cuda_init(&e));
    tc_context_free(ctx);
}

TEST(drvchild_zero_devices) {
    if (!in_child("zero")) return;
    check_refusal("no CUDA devices", "no CUDA devices");
}

TEST(drvchild_initfail) {
    if (!in_child("initfail")) return;
    check_refusal("cuInit failed: CUDA_ERROR_NO_DEVICE (100)",
                  "cuInit failed: CUDA_ERROR_NO_DEVICE (100)");
}

TEST(drvchild_nolib) {
    if (!in_child("nolib")) return;
    Err e = {0};
    CHECK_INT(TC_ERR_NO_DRIVER, cuda_init(&e));
    const char *want = "/nonexistent/libcuda.so.1 not found (TRITONC_LIBCUDA_PATH; dlopen: ";
    CHECK(strncmp(e.msg, want, strlen(want)) == 0);
    static char reason[4096], props[8192];
    snprintf(reason, sizeof reason, "%s", e.msg);
    snprintf(props, sizeof props,
             "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU "
             "and installed a driver from http://www.nvidia.com/Download/index.aspx\n%s", reason);
    check_refusal(reason, props);
}

/* ---- the command: tritonc info --------------------------------------------------------- */

TEST(driver_cli_h200) {
    if (!have_cli()) return;
    static char out[16384];
    CHECK_INT(0, run_info(NULL, "", out, sizeof out));
    char want[2048];
    snprintf(want, sizeof want,
             "=== which driver is active? ===\n"
             "cuda (%s, driver version 13.0)\n"
             "=== which target? ===\n"
             "cuda:90  GPUTarget(backend='cuda', arch=90, warp_size=32)\n"
             "compiles to PTX for sm_90a\n"
             "=== device properties ===\n"
             "device 0: NVIDIA H200\n"
             "  compute capability     9.0\n"
             "  multiprocessors        132\n",
             fake_path);
    CHECK(strncmp(out, want, strlen(want)) == 0);
    CHECK_CONTAINS(out, "  total memory           150108897280 bytes (143155 MiB, 150.1 GB)\n");
    CHECK_CONTAINS(out, "  L2 cache               62914560 bytes (60.0 MiB)\n");
    CHECK_CONTAINS(out, "  shared memory / block  232448 bytes (opt-in maximum)\n");
    CHECK_CONTAINS(out, "  shared memory / SM     233472 bytes\n");
    CHECK_CONTAINS(out, "  registers / block      65536\n");
    CHECK_CONTAINS(out, "  warp size              32\n");
    CHECK_CONTAINS(out, "  threads / block        1024\n");
    CHECK_CONTAINS(out, "  SM clock               1980000 kHz (1980 MHz)\n");
    CHECK_CONTAINS(out, "  memory clock           3201000 kHz (3201 MHz)\n");
    CHECK_CONTAINS(out, "  memory bus width       6016 bits\n");
    CHECK_CONTAINS(out, "  peak bandwidth         4814.3 GB/s");
    CHECK(!strstr(out, "RuntimeError"));

    /* TRITONC_LIBCUDA_PATH may name the directory that holds libcuda.so.1, as Triton's. */
    char env[1200];
    snprintf(env, sizeof env, "TRITONC_LIBCUDA_PATH=%s/fake", test_build_dir());
    CHECK_INT(0, run_info(env, "", out, sizeof out));
    CHECK_CONTAINS(out, "fake/libcuda.so.1, driver version 13.0)\n");
}

/* The toolkit's stub libcuda (where the machine has one) loads but refuses cuInit. */
TEST(driver_cli_stub_library) {
    const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
    if (!have_cli()) return;
    if (access(stub, R_OK) != 0) {
        fprintf(stderr, "SKIP %s: no %s here\n", test_current, stub);
        return;
    }
    static char out[16384];
    char env[1200];
    snprintf(env, sizeof env, "TRITONC_LIBCUDA_PATH=%s", stub);
    CHECK_INT(3, run_info(env, "", out, sizeof out));
    CHECK_CONTAINS(out, "RuntimeError: 0 active drivers ([]). There should only be one.\n"
                        "cuInit failed: CUDA_ERROR_STUB_LIBRARY (34)\n");
}

TEST(driver_cli_json) {
    if (!have_cli()) return;
    static char out[16384];
    CHECK_INT(0, run_info(NULL, "--json", out, sizeof out));
    CHECK(out[0] == '{');
    CHECK_CONTAINS(out, "\"driver\": {\"name\": \"cuda\", \"library\": ");
    CHECK_CONTAINS(out, "\"version\": \"13.0\", \"version_code\": 13000}");
    CHECK_CONTAINS(out, "\"target\": {\"backend\": \"cuda\", \"arch\": 90, \"warp_size\": 32, "
                        "\"str\": \"cuda:90\", \"triton\": \"GPUTarget(backend='cuda', arch=90, "
                        "warp_size=32)\", \"ptx_target\": \"sm_90a\", \"overridden\": false}");
    CHECK_CONTAINS(out, "\"current_device\": 0");
    CHECK_CONTAINS(out, "\"device_count\": 1");
    CHECK_CONTAINS(out, "{\"index\": 0, \"name\": \"NVIDIA H200\", \"major\": 9, \"minor\": 0");
    CHECK_CONTAINS(out, "\"multiprocessor_count\": 132");
    CHECK_CONTAINS(out, "\"total_memory\": 150108897280");
    CHECK_CONTAINS(out, "\"l2_cache_size\": 62914560");
    CHECK_CONTAINS(out, "\"max_shared_memory_per_block_optin\": 232448");
    CHECK_CONTAINS(out, "\"max_shared_memory_per_multiprocessor\": 233472");
    CHECK_CONTAINS(out, "\"max_registers_per_block\": 65536");
    CHECK_CONTAINS(out, "\"max_threads_per_block\": 1024");
    CHECK_CONTAINS(out, "\"sm_clock_khz\": 1980000");
    CHECK_CONTAINS(out, "\"mem_clock_khz\": 3201000");
    CHECK_CONTAINS(out, "\"mem_bus_width_bits\": 6016");
    CHECK_CONTAINS(out, "\"peak_bandwidth_gbs\": 4814.3}");
    size_t len = strlen(out);
    CHECK(len > 2 && strcmp(out + len - 2, "}\n") == 0);
}

TEST(driver_cli_two_devices) {
    if (!have_cli()) return;
    static char out[16384];
    CHECK_INT(0, run_info("FAKE_CUDA_MODE=two", "", out, sizeof out));
    CHECK_CONTAINS(out, "device 0: NVIDIA H200 (current)\n");
    CHECK_CONTAINS(out, "device 1: NVIDIA A100-SXM4-80GB\n  compute capability     8.0\n");
    CHECK_CONTAINS(out, "cuda:90  GPUTarget(backend='cuda', arch=90, warp_size=32)\n");

    CHECK_INT(0, run_info("FAKE_CUDA_MODE=two", "--device 1", out, sizeof out));
    CHECK_CONTAINS(out, "cuda:80  GPUTarget(backend='cuda', arch=80, warp_size=32)\n"
                        "compiles to PTX for sm_80\n");
    CHECK_CONTAINS(out, "device 1: NVIDIA A100-SXM4-80GB\n");
    CHECK(!strstr(out, "NVIDIA H200"));

    CHECK_INT(0, run_info("FAKE_CUDA_MODE=two", "--json --device=1", out, sizeof out));
    CHECK_CONTAINS(out, "\"arch\": 80");
    CHECK_CONTAINS(out, "\"current_device\": 1");
    CHECK_CONTAINS(out, "\"device_count\": 2");
    CHECK_CONTAINS(out, "\"name\": \"NVIDIA A100-SXM4-80GB\"");

    CHECK_INT(2, run_info("FAKE_CUDA_MODE=two", "--device 2", out, sizeof out));
    CHECK_STR("tritonc info: --device 2: invalid device 2: there are 2 CUDA devices\n", out);
}

TEST(driver_cli_override) {
    if (!have_cli()) return;
    static char out[16384];
    CHECK_INT(0, run_info("TRITON_OVERRIDE_ARCH=sm80", "", out, sizeof out));
    CHECK_CONTAINS(out, "=== which target? ===\n"
                        "cuda:80  GPUTarget(backend='cuda', arch=80, warp_size=32)  "
                        "(overridden by TRITON_OVERRIDE_ARCH=sm80; device 0 is cuda:90)\n"
                        "compiles to PTX for sm_80\n");
    CHECK_CONTAINS(out, "device 0: NVIDIA H200\n");
    CHECK_INT(0, run_info("TRITON_OVERRIDE_ARCH=sm_90a", "--json", out, sizeof out));
    CHECK_CONTAINS(out, "\"arch\": 90");
    CHECK_CONTAINS(out, "\"overridden\": true, \"override\": \"sm_90a\", \"device_arch\": 90");
    CHECK_INT(1, run_info("TRITON_OVERRIDE_ARCH=turing", "", out, sizeof out));
    CHECK_CONTAINS(out, "RuntimeError: TRITON_OVERRIDE_ARCH must have the form sm<NN>");
}

TEST(driver_cli_no_driver) {
    if (!have_cli()) return;
    static char out[16384];
    const char *refusal = "RuntimeError: 0 active drivers ([]). There should only be one.\n";
    char want[2048];

    CHECK_INT(3, run_info("FAKE_CUDA_MODE=zero", "", out, sizeof out));
    snprintf(want, sizeof want,
             "=== which driver is active? ===\n%sno CUDA devices\n"
             "=== which target? ===\n%sno CUDA devices\n"
             "=== device properties ===\nRuntimeError: no CUDA devices\n",
             refusal, refusal);
    CHECK_STR(want, out);

    CHECK_INT(3, run_info("FAKE_CUDA_MODE=initfail", "", out, sizeof out));
    snprintf(want, sizeof want,
             "=== which driver is active? ===\n%scuInit failed: CUDA_ERROR_NO_DEVICE (100)\n"
             "=== which target? ===\n%scuInit failed: CUDA_ERROR_NO_DEVICE (100)\n"
             "=== device properties ===\n"
             "RuntimeError: cuInit failed: CUDA_ERROR_NO_DEVICE (100)\n",
             refusal, refusal);
    CHECK_STR(want, out);

    CHECK_INT(3, run_info("FAKE_CUDA_MODE=zero", "--json", out, sizeof out));
    CHECK_STR("{\"error\": \"0 active drivers ([]). There should only be one.\", "
              "\"reason\": \"no CUDA devices\", \"status\": \"TC_ERR_NO_DRIVER\", "
              "\"properties_error\": \"no CUDA devices\"}\n", out);

    /* The real no-driver path: no library at all. */
    CHECK_INT(3, run_info("TRITONC_LIBCUDA_PATH=/nonexistent", "", out, sizeof out));
    CHECK(strncmp(out, "=== which driver is active? ===\n", 32) == 0);
    CHECK_CONTAINS(out, "=== which driver is active? ===\n"
                        "RuntimeError: 0 active drivers ([]). There should only be one.\n"
                        "/nonexistent not found (TRITONC_LIBCUDA_PATH; dlopen: ");
    CHECK_CONTAINS(out, "=== which target? ===\n"
                        "RuntimeError: 0 active drivers ([]). There should only be one.\n");
    CHECK_CONTAINS(out, "=== device properties ===\n"
                        "RuntimeError: Found no NVIDIA driver on your system. Please check that "
                        "you have an NVIDIA GPU and installed a driver from "
                        "http://www.nvidia.com/Download/index.aspx\n");
    CHECK_INT(3, run_info("TRITONC_LIBCUDA_PATH=/nonexistent", "--json", out, sizeof out));
    const char *jwant = "{\"error\": \"0 active drivers ([]). There should only be one.\", "
                        "\"reason\": \"/nonexistent not found";
    CHECK(strncmp(out, jwant, strlen(jwant)) == 0);
    CHECK_CONTAINS(out, "\"properties_error\": \"Found no NVIDIA driver on your system.");
    /* --device cannot be checked without a driver: still exit 3, not 2. */
    CHECK_INT(3, run_info("TRITONC_LIBCUDA_PATH=/nonexistent", "--device 4", out, sizeof out));
}

TEST(driver_cli_usage) {
    if (!have_cli()) return;
    static char out[16384];
    CHECK_INT(0, run_info(NULL, "--help", out, sizeof out));
    CHECK(strncmp(out, "usage: tritonc info [--json] [--device N] [--help]\n", 50) == 0);
    CHECK_CONTAINS(out, "3 no active driver");
    CHECK_INT(2, run_info(NULL, "--frobnicate", out, sizeof out));
    CHECK_CONTAINS(out, "tritonc info: unknown option '--frobnicate'\n");
    CHECK_INT(2, run_info(NULL, "--device", out, sizeof out));
    CHECK_STR("tritonc info: --device needs a device number\n", out);
    CHECK_INT(2, run_info(NULL, "--device abc", out, sizeof out));
    CHECK_STR("tritonc info: --device abc: not a device number\n", out);
    CHECK_INT(2, run_info(NULL, "--device -1", out, sizeof out));
    CHECK_INT(2, run_info(NULL, "--device 1", out, sizeof out));
    CHECK_STR("tritonc info: --device 1: invalid device 1: there is 1 CUDA device\n", out);
}

/* ---- occupancy through the JIT and the disk cache ----------------------------------- */

/* Runs add_kernel at 16 warps on the fake driver with a fresh cache in DIR and returns how
 * many cache entries ask for `.minnctapersm 4`. */
static int occupancy_run(const char *dir, const char *env) {
    char cmd[4096], out[4096];
    snprintf(cmd, sizeof cmd, "rm -rf %s && env -u TRITON_INTERPRET -u FAKE_CUDA_MODE "
             "-u TRITON_OVERRIDE_ARCH -u TRITONC_OCCUPANCY FAKE_CUDA_LAUNCH=ok "
             "TRITONC_CACHE_DIR=%s TRITONC_LIBCUDA_PATH=%s %s %s run examples/chapter10.py "
             "add_kernel 'x_ptr=fp32:zeros(8)' 'y_ptr=fp32:zeros(8)' 'out_ptr=fp32:empty(8)' "
             "n=8 BLOCK=512 --num-warps 16", dir, dir, fake_path, env, cli_path);
    if (test_run(cmd, out, sizeof out) != 0) {
        fprintf(stderr, "%s\n", out);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "grep -r -a -l '^.minnctapersm 4$' %s | wc -l", dir);
    if (test_run(cmd, out, sizeof out) != 0) return -1;
    return atoi(out);
}

TEST(driver_cli_occupancy) {
    if (!have_cli()) return;
    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/tritonc-test-occ-%d", (int)getpid());
    /* 40 registers at 512 threads, 32 when asked: the cached PTX asks for 4 programs */
    CHECK_INT(1, occupancy_run(dir, "FAKE_CUDA_REGS=40"));
    /* spilling to meet the cap, already full, or switched off: the PTX as generated */
    CHECK_INT(0, occupancy_run(dir, "FAKE_CUDA_REGS=40 FAKE_CUDA_SPILL=8"));
    CHECK_INT(0, occupancy_run(dir, "FAKE_CUDA_REGS=32"));
    CHECK_INT(0, occupancy_run(dir, "FAKE_CUDA_REGS=40 TRITONC_OCCUPANCY=0"));
    char cmd[512], out[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    test_run(cmd, out, sizeof out);
}

/* A launch takes only tensors of its own backend and device, and names the one that is not. */
static void tensor_place_case(void) {
    tc_context *gpu0, *gpu1, *cpu;
    tc_module *m;
    tc_kernel *k;
    tc_args *a;
    CHECK_INT(TC_OK, tc_context_new(&gpu0));
    CHECK_INT(TC_OK, tc_context_new(&gpu1));
    CHECK_INT(TC_OK, tc_context_new(&cpu));
    tc_context_set_backend(cpu, TC_BACKEND_INTERPRET);
    CHECK_INT(TC_OK, tc_set_device(gpu1, 1));
    int64_t n = 4;
    tc_tensor *x0, *y0, *o0, *x1, *xc;
    CHECK_INT(TC_OK, tc_tensor_new(gpu0, TC_FP32, 1, &n, &x0));
    CHECK_INT(TC_OK, tc_tensor_new(gpu0, TC_FP32, 1, &n, &y0));
    CHECK_INT(TC_OK, tc_tensor_new(gpu0, TC_FP32, 1, &n, &o0));
    CHECK_INT(TC_OK, tc_tensor_new(gpu1, TC_FP32, 1, &n, &x1));
    CHECK_INT(TC_OK, tc_tensor_new(cpu, TC_FP32, 1, &n, &xc));
    CHECK_INT(TC_OK, tc_module_load_file(gpu0, "examples/chapter10.py", &m));
    CHECK_INT(TC_OK, tc_module_kernel(m, "add_kernel", &k));
    CHECK_INT(TC_OK, tc_args_new(k, &a));
    tc_args_set(a, "y_ptr", tc_tens(y0));
    tc_args_set(a, "out_ptr", tc_tens(o0));
    tc_args_set(a, "n", tc_int(4));
    tc_args_set(a, "BLOCK", tc_int(4));
    tc_args_set(a, "x_ptr", tc_tens(x1));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, NULL));
    CHECK_CONTAINS(tc_errmsg(gpu0), "tensor 'x_ptr' is in the memory of device 1 but the launch runs on device 0");
    tc_args_set(a, "x_ptr", tc_tens(xc));
    CHECK_INT(TC_ERR_ARG, tc_launch(k, a, NULL));
    CHECK_CONTAINS(tc_errmsg(gpu0), "tensor 'x_ptr' is in host memory but the launch runs on the GPU");
    tc_args_set(a, "x_ptr", tc_tens(x0));   /* the fake driver refuses the launch itself */
    CHECK_INT(TC_ERR_DRIVER, tc_launch(k, a, NULL));
    tc_args_free(a);
    tc_module_free(m);
    tc_tensor_free(x0); tc_tensor_free(y0); tc_tensor_free(o0); tc_tensor_free(x1); tc_tensor_free(xc);
    tc_context_free(gpu0); tc_context_free(gpu1); tc_context_free(cpu);
}

TEST(drvchild_two_tensor_place) {
    if (in_child("two")) tensor_place_case();
}

/* One context per thread, launches at once on the GPU (the fake driver accepts them) and on
 * the interpreter: each thread gets its own result. `make TSAN=1 test` runs this under
 * ThreadSanitizer. */
typedef struct ThreadRun { int gpu, ok; } ThreadRun;

static void *thread_launch(void *p) {
    ThreadRun *r = p;
    tc_context *ctx = NULL;
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    tc_args *a = NULL;
    tc_tensor *x = NULL, *y = NULL, *o = NULL;
    float hx[4] = {1, 2, 3, 4}, hy[4] = {10, 20, 30, 40}, ho[4] = {0};
    int64_t n = 4;
    int ok = tc_context_new(&ctx) == TC_OK;
    if (ok && !r->gpu) tc_context_set_backend(ctx, TC_BACKEND_INTERPRET);
    ok = ok && !tc_module_load_file(ctx, "examples/chapter10.py", &m) &&
         !tc_module_kernel(m, "add_kernel", &k) && !tc_args_new(k, &a) &&
         !tc_tensor_from_host(ctx, TC_FP32, 1, &n, hx, &x) &&
         !tc_tensor_from_host(ctx, TC_FP32, 1, &n, hy, &y) && !tc_tensor_new(ctx, TC_FP32, 1, &n, &o);
    if (ok) {
        tc_args_set(a, "x_ptr", tc_tens(x));
        tc_args_set(a, "y_ptr", tc_tens(y));
        tc_args_set(a, "out_ptr", tc_tens(o));
        tc_args_set(a, "n", tc_int(4));
        tc_args_set(a, "BLOCK", tc_int(4));
        for (int i = 0; i < 3 && ok; i++) ok = tc_launch(k, a, NULL) == TC_OK;
        ok = ok && tc_synchronize(ctx) == TC_OK && tc_tensor_to_host(o, ho, sizeof ho) == TC_OK;
        if (ok && !r->gpu) ok = ho[0] == 11 && ho[3] == 44;
    }
    tc_tensor_free(x); tc_tensor_free(y); tc_tensor_free(o);
    tc_args_free(a);
    tc_module_free(m);
    tc_context_free(ctx);
    r->ok = ok;
    return NULL;
}

/* PTX compilations (the fake's module loads) of one thread_launch on the GPU: a new module,
 * so its specialization comes from the disk cache or is compiled. */
static int launch_jits(void) {
    long c0[1], c1[1];
    test_fake_counters(c0, 1);
    ThreadRun r = {1, 0};
    thread_launch(&r);
    CHECK(r.ok);
    test_fake_counters(c1, 1);
    return (int)(c1[0] - c0[0]);
}

/* A new specialization is compiled once, twice when the occupancy step tries a cap; the
 * disk cache keeps the step's outcome, so a later process compiles the kept PTX once (the
 * real driver's JIT cache then serves it; the fake has none). */
TEST(drvchild_h200_compiles_once) {
    if (!in_child("h200")) return;
    char dir[128], cmd[256], out[256];
    snprintf(dir, sizeof dir, "/tmp/tritonc-test-jits-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    const char *old = getenv("TRITONC_CACHE_DIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("TRITONC_CACHE_DIR", dir, 1);
    setenv("FAKE_CUDA_LAUNCH", "ok", 1);
    CHECK_INT(1, launch_jits());
    CHECK_INT(1, launch_jits());
    /* 40 registers, 32 when capped: the capped copy is compiled too, then kept */
    setenv("FAKE_CUDA_REGS", "40", 1);
    test_run(cmd, out, sizeof out);
    CHECK_INT(2, launch_jits());
    CHECK_INT(1, launch_jits());
    setenv("TRITONC_OCCUPANCY", "0", 1);
    test_run(cmd, out, sizeof out);
    CHECK_INT(1, launch_jits());
    unsetenv("TRITONC_OCCUPANCY");
    unsetenv("FAKE_CUDA_REGS");
    test_run(cmd, out, sizeof out);
    unsetenv("FAKE_CUDA_LAUNCH");
    if (saved) setenv("TRITONC_CACHE_DIR", saved, 1);
    else unsetenv("TRITONC_CACHE_DIR");
    free(saved);
}

TEST(drvchild_h200_threads) {
    if (!in_child("h200")) return;
    setenv("FAKE_CUDA_LAUNCH", "ok", 1);
    enum { NT = 6 };
    pthread_t th[NT];
    ThreadRun r[NT];
    for (int i = 0; i < NT; i++) {
        r[i] = (ThreadRun){i % 2, 0};
        CHECK_INT(0, pthread_create(&th[i], NULL, thread_launch, &r[i]));
    }
    for (int i = 0; i < NT; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < NT; i++) CHECK(r[i].ok);
    unsetenv("FAKE_CUDA_LAUNCH");
}
