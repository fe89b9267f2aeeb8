/* test_kernels_ctl.c — kernel conformance tests, part 3: control flow (runtime if/elif,
 * ternaries, while, jit helpers, static_range, tuples, constexpr globals, cdiv and
 * next_power_of_2, early return, loops with run-time bounds), atomics, 2-D/3-D grids and
 * program order, device_print, and errors through the API (out-of-bounds accesses, type
 * errors, constructs Triton rejects) with their messages and locations. */
#include "test_kernels_util.h"

#define KT_SETUP(file, name) \
    tc_context *ctx = kt_ctx(); \
    tc_module *m = KT_MODULE(ctx, file); \
    tc_kernel *k = KT_KERNEL(ctx, m, name)
#define KT_TEARDOWN() do { tc_module_free(m); tc_context_free(ctx); } while (0)

/* ---- control flow ---------------------------------------------------------------------- */

TEST(kern_runtime_if_elif_else) {
    KT_SETUP("control.py", "branch_kernel");
    enum { N = 41 };
    int32_t x[N], o[N];
    int64_t e[N], g[N];
    for (int i = 0; i < N; i++) x[i] = i - 20;
    for (int i = 0; i < N; i++) e[i] = x[i] > 10 ? x[i] * 2 : x[i] < 0 ? -x[i] : x[i] + 100;
    tc_tensor *tx = kt_t1(ctx, TC_I32, N, x), *to = kt_t1(ctx, TC_I32, N, NULL);
    if (k && KT_RUN(ctx, k, N, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_IARR(e, g, N);
    }
    tc_kernel *k2 = KT_KERNEL(ctx, m, "ternary_kernel");
    for (int i = 0; i < N; i++) e[i] = x[i] % 2 == 0 ? x[i] * 3 : x[i] - 1; /* C %: -3 % 2 == -1 */
    if (k2 && KT_RUN(ctx, k2, N, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_IARR(e, g, N);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_while_loop) {
    KT_SETUP("control.py", "collatz_kernel");
    enum { N = 40 };
    int32_t x[N], o[N];
    int64_t e[N], g[N];
    for (int i = 0; i < N; i++) {
        x[i] = i + 1;
        int64_t v = x[i], s = 0;
        while (v != 1) { v = v % 2 == 0 ? v / 2 : 3 * v + 1; s++; }
        e[i] = s;
    }
    tc_tensor *tx = kt_t1(ctx, TC_I32, N, x), *to = kt_t1(ctx, TC_I32, N, NULL);
    if (k && KT_RUN(ctx, k, N, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_IARR(e, g, N);
        CHECK_INT(111, o[26]); /* 27 takes 111 steps */
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_jit_helpers_multiple_returns) {
    KT_SETUP("control.py", "helper_kernel");
    enum { B = 16 };
    int32_t x[B], o[6];
    kt_seed(4000);
    int mn = 1000, mx = -1000;
    for (int i = 0; i < B; i++) {
        x[i] = kt_irand(-99, 99);
        if (x[i] < mn) mn = x[i];
        if (x[i] > mx) mx = x[i];
    }
    tc_tensor *tx = kt_t1(ctx, TC_I32, B, x), *to = kt_t1(ctx, TC_I32, 6, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        CHECK_INT(mn * 3, o[0]);
        CHECK_INT(mx * 3, o[1]);
        CHECK_INT(mn * 2, o[2]);
        CHECK_INT(mx * 2, o[3]);
        CHECK_INT((mn * 3 + mx * 3) * 2, o[4]);
        CHECK_INT((mn * 3 - mx * 3) * 2, o[5]);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_static_range_unrolled) {
    KT_SETUP("control.py", "static_range_kernel");
    enum { B = 8, N = 4 };
    int32_t x[N * B], o[B], o2[1];
    int64_t e[B], g[B];
    kt_seed(4100);
    for (int i = 0; i < N * B; i++) x[i] = kt_irand(-100, 100);
    for (int j = 0; j < B; j++) {
        e[j] = 0;
        for (int i = 0; i < N; i++) e[j] += x[i * B + j] * (i + 1);
    }
    tc_tensor *tx = kt_t1(ctx, TC_I32, N * B, x), *to = kt_t1(ctx, TC_I32, B, NULL),
              *to2 = kt_t1(ctx, TC_I32, 1, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"out2_ptr", tc_tens(to2)}, {"BLOCK", tc_int(B)}, {"N", tc_int(N)})) {
        kt_get(to, o); kt_get(to2, o2);
        KT_WIDEN(g, o, B);
        KT_CHECK_IARR(e, g, B);
        CHECK_INT(120, o2[0]); /* static_range(1, 8, 3): 1, 4, 7 */
    }
    tc_tensor_free(tx); tc_tensor_free(to); tc_tensor_free(to2);
    KT_TEARDOWN();
}

TEST(kern_tuples) {
    KT_SETUP("control.py", "tuple_kernel");
    int32_t x[2] = {7, 3}, o[5];
    tc_tensor *tx = kt_t1(ctx, TC_I32, 2, x), *to = kt_t1(ctx, TC_I32, 5, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)})) {
        kt_get(to, o);
        CHECK_INT(10, o[0]);
        CHECK_INT(4, o[1]);
        CHECK_INT(21, o[2]);
        CHECK_INT(-4, o[3]); /* after b, a = a, b */
        CHECK_INT(24, o[4]); /* t[2] + len(t) */
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_constexpr_globals) {
    KT_SETUP("control.py", "globals_kernel");
    int32_t x[8], o[8];
    int64_t e[8], g[8];
    for (int i = 0; i < 8; i++) { x[i] = i * i - 10; e[i] = 3 * x[i]; }
    tc_tensor *tx = kt_t1(ctx, TC_I32, 8, x), *to = kt_t1(ctx, TC_I32, 8, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, 8);
        KT_CHECK_IARR(e, g, 8);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_cdiv_next_power_of_2) {
    KT_SETUP("control.py", "cdiv_kernel");
    static const struct { int N, n, p2; } cases[] = {{20, 100, 32}, {16, 33, 16}, {5, 16, 8}};
    for (int c = 0; k && c < 3; c++) {
        int N = cases[c].N;
        int32_t o[40];
        int64_t e[40], g[40];
        tc_tensor *to = kt_t1(ctx, TC_I32, N + 2, NULL);
        if (KT_RUN(ctx, k, 1, 1, 1, {"out_ptr", tc_tens(to)}, {"n", tc_int(cases[c].n)},
                   {"N", tc_int(N)})) {
            kt_get(to, o);
            for (int i = 0; i < N; i++) e[i] = cases[c].p2;
            e[N] = (cases[c].n + 15) / 16;
            e[N + 1] = (N + 3) / 4;
            KT_WIDEN(g, o, N + 2);
            KT_CHECK_IARR(e, g, N + 2);
        }
        tc_tensor_free(to);
    }
    KT_TEARDOWN();
}

TEST(kern_early_return) {
    KT_SETUP("control.py", "early_return_kernel");
    enum { N = 10 };
    int32_t x[N] = {5, -3, 0, 7, -1, 2, 100, -50, 9, 1}, o[N];
    int64_t e[N], g[N];
    for (int i = 0; i < N; i++) { o[i] = 999; e[i] = x[i] < 0 ? -1 : 2 * x[i]; }
    tc_tensor *tx = kt_t1(ctx, TC_I32, N, x), *to = kt_t1(ctx, TC_I32, N, o);
    /* 16 programs for 10 elements: programs 10..15 must return before loading */
    if (k && KT_RUN(ctx, k, 16, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"n", tc_int(N)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, N);
        KT_CHECK_IARR(e, g, N);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* Triton's own interpreter breaks on a for loop whose bound is a kernel argument. */
TEST(kern_loop_bound_is_kernel_argument) {
    KT_SETUP("control.py", "loop_arg_kernel");
    static const struct { int n, start, step; } cases[] = {{37, 3, 4}, {0, 3, 4}, {5, 0, 2}, {100, 99, 7}};
    for (int c = 0; k && c < 4; c++) {
        int n = cases[c].n, st = cases[c].start, sp = cases[c].step;
        int64_t e[5] = {0, 0, 0, 22, 0}, g[5];
        for (int i = 0; i < n; i++) e[0] += i;
        for (int i = st; i < n; i += sp) e[1] += (int64_t)i * i;
        for (int i = 0; i < n; i++) for (int j = i; j < n; j++) e[2]++;
        double a4 = 0;
        for (int i = 0; i < n; i += 2) a4 += 0.5;
        e[4] = (int64_t)a4;
        int32_t o[5];
        tc_tensor *to = kt_t1(ctx, TC_I32, 5, NULL);
        if (KT_RUN(ctx, k, 1, 1, 1, {"out_ptr", tc_tens(to)}, {"n", tc_int(n)},
                   {"start", tc_int(st)}, {"step", tc_int(sp)})) {
            kt_get(to, o);
            KT_WIDEN(g, o, 5);
            KT_CHECK_IARR(e, g, 5);
        }
        tc_tensor_free(to);
    }
    KT_TEARDOWN();
}

/* ---- atomics ------------------------------------------------------------------------------ */

TEST(kern_atomic_add_counter) {
    KT_SETUP("atomics.py", "atomic_counter_kernel");
    enum { G = 64, B = 32 };
    int32_t x[G * B], cnt[2] = {0, 0}, tickets[G], hist[8], masked[B];
    int64_t ehist[8] = {0}, ghist[8], emask[B], gmask[B], sum = 0;
    kt_seed(5000);
    for (int i = 0; i < G * B; i++) { x[i] = kt_irand(0, 100); ehist[x[i] % 8]++; sum += x[i]; }
    for (int i = 0; i < B; i++) emask[i] = i < 5 ? G : 0;
    tc_tensor *tc = kt_t1(ctx, TC_I32, 2, NULL), *tt = kt_t1(ctx, TC_I32, G, NULL),
              *th = kt_t1(ctx, TC_I32, 8, NULL), *tm = kt_t1(ctx, TC_I32, B, NULL),
              *tx = kt_t1(ctx, TC_I32, G * B, x);
    if (k && KT_RUN(ctx, k, G, 1, 1, {"cnt_ptr", tc_tens(tc)}, {"ticket_ptr", tc_tens(tt)},
                    {"hist_ptr", tc_tens(th)}, {"masked_ptr", tc_tens(tm)}, {"x_ptr", tc_tens(tx)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(tc, cnt); kt_get(tt, tickets); kt_get(th, hist); kt_get(tm, masked);
        CHECK_INT(G, cnt[0]);
        CHECK_INT(sum, cnt[1]);
        int seen[G] = {0}, ok = 1;
        for (int i = 0; i < G; i++) {
            if (tickets[i] < 0 || tickets[i] >= G || seen[tickets[i]]) ok = 0;
            else seen[tickets[i]] = 1;
        }
        CHECK(ok); /* the returned old values are a permutation of 0..G-1 */
        KT_WIDEN(ghist, hist, 8);
        KT_CHECK_IARR(ehist, ghist, 8); /* duplicate addresses within one block all count */
        KT_WIDEN(gmask, masked, B);
        KT_CHECK_IARR(emask, gmask, B);
    }
    tc_tensor_free(tc); tc_tensor_free(tt); tc_tensor_free(th); tc_tensor_free(tm);
    tc_tensor_free(tx);
    KT_TEARDOWN();
}

TEST(kern_atomic_max_min) {
    KT_SETUP("atomics.py", "atomic_minmax_kernel");
    enum { G = 16, B = 32 };
    int32_t x[G * B], imax = INT32_MIN, imin = INT32_MAX;
    float fx[G * B], fmaxv[B], fminv[B];
    double efmax[B], efmin[B], g[B];
    int64_t emax = INT32_MIN, emin = INT32_MAX;
    kt_seed(5100);
    for (int i = 0; i < G * B; i++) {
        x[i] = kt_irand(-1000000, 1000000);
        fx[i] = kt_frand(-100, 100);
        if (x[i] > emax) emax = x[i];
        if (x[i] < emin) emin = x[i];
    }
    for (int j = 0; j < B; j++) {
        fmaxv[j] = -1e30f; fminv[j] = 1e30f; efmax[j] = -1e30f; efmin[j] = 1e30f;
        /* lanes 0..3 see only negative values: exercises the sign handling of float max/min */
        if (j < 4) for (int p = 0; p < G; p++) fx[p * B + j] = -fabsf(fx[p * B + j]) - 1;
        for (int p = 0; p < G; p++) {
            if (fx[p * B + j] > efmax[j]) efmax[j] = fx[p * B + j];
            if (fx[p * B + j] < efmin[j]) efmin[j] = fx[p * B + j];
        }
    }
    tc_tensor *tx = kt_t1(ctx, TC_I32, G * B, x), *tf = kt_t1(ctx, TC_FP32, G * B, fx),
              *tmax = kt_t1(ctx, TC_I32, 1, &imax), *tmin = kt_t1(ctx, TC_I32, 1, &imin),
              *tfmax = kt_t1(ctx, TC_FP32, B, fmaxv), *tfmin = kt_t1(ctx, TC_FP32, B, fminv);
    if (k && KT_RUN(ctx, k, G, 1, 1, {"x_ptr", tc_tens(tx)}, {"fx_ptr", tc_tens(tf)},
                    {"imax_ptr", tc_tens(tmax)}, {"imin_ptr", tc_tens(tmin)},
                    {"fmax_ptr", tc_tens(tfmax)}, {"fmin_ptr", tc_tens(tfmin)}, {"BLOCK", tc_int(B)})) {
        kt_get(tmax, &imax); kt_get(tmin, &imin); kt_get(tfmax, fmaxv); kt_get(tfmin, fminv);
        CHECK_INT(emax, imax);
        CHECK_INT(emin, imin);
        KT_WIDEN(g, fmaxv, B);
        KT_CHECK_ARR(efmax, g, B, 0, 0);
        KT_WIDEN(g, fminv, B);
        KT_CHECK_ARR(efmin, g, B, 0, 0);
    }
    tc_tensor_free(tx); tc_tensor_free(tf); tc_tensor_free(tmax); tc_tensor_free(tmin);
    tc_tensor_free(tfmax); tc_tensor_free(tfmin);
    KT_TEARDOWN();
}

TEST(kern_atomic_add_float) {
    KT_SETUP("atomics.py", "atomic_fadd_kernel");
    enum { G = 8, B = 16 };
    float x[G * B], s[B];
    double e[B] = {0}, g[B];
    kt_seed(5200);
    for (int i = 0; i < G * B; i++) { x[i] = (float)kt_irand(-1000, 1000); e[i % B] += x[i]; }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, G * B, x), *ts = kt_t1(ctx, TC_FP32, B, NULL);
    if (k && KT_RUN(ctx, k, G, 1, 1, {"x_ptr", tc_tens(tx)}, {"sum_ptr", tc_tens(ts)},
                    {"BLOCK", tc_int(B)})) {
        kt_get(ts, s);
        KT_WIDEN(g, s, B);
        KT_CHECK_ARR(e, g, B, 0, 0); /* integer-valued: exact in any order */
    }
    tc_tensor_free(tx); tc_tensor_free(ts);
    KT_TEARDOWN();
}

TEST(kern_atomic_cas_spin_lock) {
    KT_SETUP("atomics.py", "lock_kernel");
    enum { G = 50 };
    int32_t lock = 0, count = 0, o[G];
    tc_tensor *tl_ = kt_t1(ctx, TC_I32, 1, &lock), *tc = kt_t1(ctx, TC_I32, 1, &count),
              *to = kt_t1(ctx, TC_I32, G, NULL);
    if (k && KT_RUN(ctx, k, G, 1, 1, {"lock_ptr", tc_tens(tl_)}, {"count_ptr", tc_tens(tc)},
                    {"out_ptr", tc_tens(to)})) {
        kt_get(tl_, &lock); kt_get(tc, &count); kt_get(to, o);
        CHECK_INT(0, lock);
        CHECK_INT(G, count);
        int seen[G] = {0}, ok = 1;
        for (int i = 0; i < G; i++) {
            if (o[i] < 0 || o[i] >= G || seen[o[i]]) ok = 0;
            else seen[o[i]] = 1;
        }
        CHECK(ok);
    }
    tc_tensor_free(tl_); tc_tensor_free(tc); tc_tensor_free(to);
    tc_kernel *k2 = KT_KERNEL(ctx, m, "cas_kernel");
    int32_t v = 5, r[2];
    tc_tensor *tv = kt_t1(ctx, TC_I32, 1, &v), *tr = kt_t1(ctx, TC_I32, 2, NULL);
    if (k2 && KT_RUN(ctx, k2, 1, 1, 1, {"ptr", tc_tens(tv)}, {"out_ptr", tc_tens(tr)})) {
        kt_get(tv, &v); kt_get(tr, r);
        CHECK_INT(5, r[0]); /* matched: returns the old value, writes 9 */
        CHECK_INT(9, r[1]); /* no match: returns the current value, writes nothing */
        CHECK_INT(9, v);
    }
    tc_tensor_free(tv); tc_tensor_free(tr);
    KT_TEARDOWN();
}

TEST(kern_atomic_xchg) {
    KT_SETUP("atomics.py", "xchg_kernel");
    enum { G = 20 };
    int32_t v = 7, old[G];
    tc_tensor *tv = kt_t1(ctx, TC_I32, 1, &v), *to = kt_t1(ctx, TC_I32, G, NULL);
    if (k && KT_RUN(ctx, k, G, 1, 1, {"ptr", tc_tens(tv)}, {"old_ptr", tc_tens(to)})) {
        kt_get(tv, &v); kt_get(to, old);
        /* {old values} + {final} == {7} + {100..119} */
        int seen[G + 1] = {0}, ok = 1;
        for (int i = 0; i <= G; i++) {
            int val = i < G ? old[i] : v;
            int slot = val == 7 ? G : val - 100;
            if (slot < 0 || slot > G || seen[slot]) ok = 0;
            else seen[slot] = 1;
        }
        CHECK(ok);
        CHECK(v >= 100 && v < 100 + G);
    }
    tc_tensor_free(tv); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* ---- grids ------------------------------------------------------------------------------------ */

TEST(kern_grid_3d_num_programs_and_order) {
    KT_SETUP("grid.py", "grid3d_kernel");
    static const uint32_t grids[][3] = {{3, 4, 2}, {5, 3, 1}, {1, 1, 7}};
    for (int c = 0; k && c < 3; c++) {
        uint32_t G0 = grids[c][0], G1 = grids[c][1], G2 = grids[c][2];
        int n = (int)(G0 * G1 * G2);
        int32_t o[4 * 64], ord[64], cnt = 0;
        int64_t e[4 * 64], g[4 * 64], eo[64], go[64];
        for (uint32_t x = 0; x < G0; x++)
            for (uint32_t y = 0; y < G1; y++)
                for (uint32_t z = 0; z < G2; z++) {
                    int idx = (int)((x * G1 + y) * G2 + z);
                    e[idx * 4] = x; e[idx * 4 + 1] = y; e[idx * 4 + 2] = z;
                    e[idx * 4 + 3] = G0 * 100 + G1 * 10 + G2;
                    eo[idx] = idx; /* programs run in order, x outermost */
                }
        tc_tensor *to = kt_t1(ctx, TC_I32, 4 * n, NULL), *tord = kt_t1(ctx, TC_I32, n, NULL),
                  *tc = kt_t1(ctx, TC_I32, 1, NULL);
        if (KT_RUN(ctx, k, G0, G1, G2, {"out_ptr", tc_tens(to)}, {"order_ptr", tc_tens(tord)},
                   {"cnt_ptr", tc_tens(tc)})) {
            kt_get(to, o); kt_get(tord, ord); kt_get(tc, &cnt);
            KT_WIDEN(g, o, 4 * n);
            KT_CHECK_IARR(e, g, 4 * n);
            CHECK_INT(n, cnt);
            KT_WIDEN(go, ord, n);
            KT_CHECK_IARR(eo, go, n);
        }
        tc_tensor_free(to); tc_tensor_free(tord); tc_tensor_free(tc);
    }
    KT_TEARDOWN();
}

TEST(kern_grid_2d_tiles) {
    KT_SETUP("grid.py", "tile2d_kernel");
    enum { M = 37, N = 50, BM = 16, BN = 32 };
    int32_t x[M * N], o[M * N];
    int64_t e[M * N], g[M * N];
    kt_seed(6000);
    for (int i = 0; i < M * N; i++) x[i] = kt_irand(-500, 500);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) e[i * N + j] = x[i * N + j] * 2 + (i / BM) * 1000 + j / BN;
    tc_tensor *tx = kt_t2(ctx, TC_I32, M, N, x), *to = kt_t2(ctx, TC_I32, M, N, NULL);
    if (k && KT_RUN(ctx, k, (M + BM - 1) / BM, (N + BN - 1) / BN, 1, {"x_ptr", tc_tens(tx)},
                    {"out_ptr", tc_tens(to)}, {"M", tc_int(M)}, {"N", tc_int(N)},
                    {"BM", tc_int(BM)}, {"BN", tc_int(BN)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, M * N);
        KT_CHECK_IARR(e, g, M * N);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

/* ---- device_print ----------------------------------------------------------------------------- */

typedef struct { char buf[4096]; size_t len; int calls; } KtPrint;
static void kt_print_cb(const char *text, void *user) {
    KtPrint *p = user;
    p->calls++;
    size_t n = strlen(text);
    if (p->len + n >= sizeof p->buf) n = sizeof p->buf - 1 - p->len;
    memcpy(p->buf + p->len, text, n);
    p->len += n;
    p->buf[p->len] = 0;
}

TEST(kern_device_print) {
    KT_SETUP("grid.py", "print_kernel");
    KtPrint pr = {{0}, 0, 0};
    tc_set_print(ctx, kt_print_cb, &pr);
    int32_t x[2] = {42, 1234};
    tc_tensor *tx = kt_t1(ctx, TC_I32, 2, x);
    if (k && KT_RUN(ctx, k, 2, 1, 1, {"x_ptr", tc_tens(tx)})) {
        CHECK(pr.calls > 0);
        CHECK_CONTAINS(pr.buf, "val");
        CHECK_CONTAINS(pr.buf, "42");
        CHECK_CONTAINS(pr.buf, "1234");
        const char *a = strstr(pr.buf, "42"), *b = strstr(pr.buf, "1234");
        CHECK(a && b && a < b); /* program 0 prints before program 1 */
    }
    tc_tensor_free(tx);
    KT_TEARDOWN();
}

/* ---- errors ------------------------------------------------------------------------------------- */

/* 1-based line and column of the first occurrence of needle in src. */
static void kt_find_loc(const char *src, const char *needle, int *line, int *col) {
    const char *p = strstr(src, needle);
    *line = *col = 0;
    if (!p) return;
    int l = 1;
    const char *ls = src;
    for (const char *q = src; q < p; q++) if (*q == '\n') { l++; ls = q + 1; }
    *line = l;
    *col = (int)(p - ls) + 1;
}

static const char *KT_ERR_HDR = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n";

/* Loads `body` (prefixed with the imports and @triton.jit) as module "err.py", launches its
 * kernel `k(x_ptr, out_ptr, n, BLOCK: tl.constexpr)` on 16 fp32 inputs, and checks that the
 * first step that fails returns want (or want2), with a message containing `msg` and the
 * location of `at` (the text of the offending construct) as err.py:LINE:COL. */
static void kt_expect_error_(const char *body, tc_status want, tc_status want2, const char *msg,
                             const char *at, const char *cf, int cl) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", KT_ERR_HDR, body);
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    tc_status s = tc_module_load_string(ctx, "err.py", src, &m);
    if (s == TC_OK) s = tc_module_kernel(m, "k", &k);
    if (s == TC_OK) {
        float x[16] = {0};
        tc_tensor *tx = kt_t1(ctx, TC_FP32, 16, x), *to = kt_t1(ctx, TC_FP32, 16, NULL);
        s = kt_launch(ctx, k, 1, 1, 1,
                      KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)}, {"n", tc_int(10)},
                              {"BLOCK", tc_int(16)}));
        tc_tensor_free(tx); tc_tensor_free(to);
    }
    if (s == want || s == want2) test_passed++;
    else test_fail(cf, cl, "expected %s, got %s: %s", tc_status_name(want), tc_status_name(s),
                   tc_errmsg(ctx));
    const char *em = tc_errmsg(ctx);
    if (em && strstr(em, msg)) test_passed++;
    else test_fail(cf, cl, "message does not contain \"%s\":\n%s", msg, em ? em : "(null)");
    int line, col;
    kt_find_loc(src, at, &line, &col);
    char where[64];
    snprintf(where, sizeof where, "err.py:%d:%d", line, col);
    if (em && strstr(em, where)) test_passed++;
    else test_fail(cf, cl, "message does not name %s:\n%s", where, em ? em : "(null)");
    tc_srcloc loc = tc_errloc(ctx);
    if (loc.line == line && loc.col == col) test_passed++;
    else test_fail(cf, cl, "tc_errloc: expected %d:%d, got %d:%d", line, col, loc.line, loc.col);
    tc_module_free(m);
    tc_context_free(ctx);
}
#define KT_EXPECT_ERROR(body, want, want2, msg, at) \
    kt_expect_error_((body), (want), (want2), (msg), (at), __FILE__, __LINE__)

TEST(kern_err_out_of_bounds_load) {
    const char *src =
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def oob_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    x = tl.load(x_ptr + offs)\n"
        "    tl.store(out_ptr + offs, x)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "oob.py", src, &m));
    if (m) tc_module_kernel(m, "oob_kernel", &k);
    float x[40];
    for (int i = 0; i < 40; i++) x[i] = (float)(i + 1);
    tc_tensor *tx = kt_t1(ctx, TC_FP32, 40, x), *to = kt_t1(ctx, TC_FP32, 48, NULL);
    tc_status s = kt_launch(ctx, k, 3, 1, 1,
                            KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                                    {"BLOCK", tc_int(16)}));
    CHECK_INT(TC_ERR_RUNTIME, s);
    const char *em = tc_errmsg(ctx);
    CHECK_CONTAINS(em, "oob.py:8:9");  /* the tl.load call */
    CHECK_CONTAINS(em, "out-of-bounds");
    CHECK_CONTAINS(em, "(2, 0, 0)");   /* the program id */
    CHECK_CONTAINS(em, "offset 40");   /* the first offending element offset */
    CHECK_CONTAINS(em, "x_ptr");
    CHECK_CONTAINS(em, "    x = tl.load(x_ptr + offs)"); /* the source line */
    tc_srcloc loc = tc_errloc(ctx);
    CHECK_INT(8, loc.line);
    CHECK_INT(9, loc.col);
    /* programs 0 and 1 ran before program 2 failed; program 2 stored nothing */
    float o[48];
    kt_get(to, o);
    int before = 1, after = 1;
    for (int i = 0; i < 32; i++) if (o[i] != x[i]) before = 0;
    for (int i = 32; i < 48; i++) if (o[i] != 0.0f) after = 0;
    CHECK(before);
    CHECK(after);
    tc_tensor_free(tx); tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_err_out_of_bounds_store_writes_nothing) {
    const char *src =
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def oob_store_kernel(out_ptr, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    tl.store(out_ptr + offs, offs.to(tl.float32) + 100.0)\n";
    tc_context *ctx = kt_ctx();
    tc_module *m = NULL;
    tc_kernel *k = NULL;
    CHECK_INT(TC_OK, tc_module_load_string(ctx, "oob_store.py", src, &m));
    if (m) tc_module_kernel(m, "oob_store_kernel", &k);
    float o[10];
    for (int i = 0; i < 10; i++) o[i] = 7.0f;
    tc_tensor *to = kt_t1(ctx, TC_FP32, 10, o);
    tc_status s = kt_launch(ctx, k, 1, 1, 1, KT_ARGS({"out_ptr", tc_tens(to)}, {"BLOCK", tc_int(16)}));
    CHECK_INT(TC_ERR_RUNTIME, s);
    const char *em = tc_errmsg(ctx);
    CHECK_CONTAINS(em, "oob_store.py:8:5");
    CHECK_CONTAINS(em, "out-of-bounds store");
    CHECK_CONTAINS(em, "(0, 0, 0)");
    CHECK_CONTAINS(em, "offset 10");
    kt_get(to, o);
    int untouched = 1;
    for (int i = 0; i < 10; i++) if (o[i] != 7.0f) untouched = 0;
    CHECK(untouched);
    tc_tensor_free(to);
    tc_module_free(m);
    tc_context_free(ctx);
}

TEST(kern_err_type_errors) {
    /* a loop-carried variable changes type: int32 -> fp32 */
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    acc = 0\n"
                    "    for i in range(n):\n"
                    "        acc += tl.load(x_ptr + i)\n"
                    "    tl.store(out_ptr, acc)\n",
                    TC_ERR_COMPILE, TC_ERR_COMPILE, "Loop-carried variable acc",
                    "for i in range(n)");
    /* a runtime if whose arms give a name different types */
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    v = tl.load(x_ptr)\n"
                    "    if v > 0:\n"
                    "        r = 1\n"
                    "    else:\n"
                    "        r = 1.0\n"
                    "    tl.store(out_ptr, r)\n",
                    TC_ERR_COMPILE, TC_ERR_COMPILE, "Mismatched type for r", "if v > 0");
    /* math functions reject fp16 */
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    offs = tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs).to(tl.float16)\n"
                    "    tl.store(out_ptr + offs, tl.exp(x))\n",
                    TC_ERR_COMPILE, TC_ERR_COMPILE, "Expected dtype ['fp32', 'fp64'] but got fp16",
                    "tl.exp(x)");
    /* // on floats */
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    offs = tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs)\n"
                    "    tl.store(out_ptr + offs, x // 2.0)\n",
                    TC_ERR_COMPILE, TC_ERR_COMPILE, "unexpected type fp32", "x // 2.0");
    /* / with mixed signedness */
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    offs = tl.arange(0, BLOCK)\n"
                    "    a = offs.to(tl.uint32)\n"
                    "    tl.store(out_ptr + offs, a / offs)\n",
                    TC_ERR_COMPILE, TC_ERR_COMPILE, "different signedness", "a / offs");
    /* arange of a non-power-of-two range */
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    offs = tl.arange(0, 10)\n"
                    "    tl.store(out_ptr + offs, tl.load(x_ptr + offs))\n",
                    TC_ERR_COMPILE, TC_ERR_COMPILE, "arange's range must be a power of 2",
                    "tl.arange(0, 10)");
    /* a scalar out of range for a weak int8 operand */
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    offs = tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs).to(tl.int8)\n"
                    "    tl.store(out_ptr + offs, x + 300)\n",
                    TC_ERR_COMPILE, TC_ERR_COMPILE, "Scalar 300 is out of range for type int8",
                    "x + 300");
}

TEST(kern_err_dead_constexpr_branch) {
    /* the dead branch of a constexpr if is never typed: FLAG=False runs, FLAG=True fails */
    KT_SETUP("control.py", "dead_branch_kernel");
    enum { B = 8 };
    float x[B], o[B];
    double e[B], g[B];
    for (int i = 0; i < B; i++) { x[i] = i * 0.5f - 1; e[i] = x[i] * 2.0f; }
    tc_tensor *tx = kt_t1(ctx, TC_FP32, B, x), *to = kt_t1(ctx, TC_FP32, B, NULL);
    if (k && KT_RUN(ctx, k, 1, 1, 1, {"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                    {"FLAG", tc_bool(0)}, {"BLOCK", tc_int(B)})) {
        kt_get(to, o);
        KT_WIDEN(g, o, B);
        KT_CHECK_ARR(e, g, B, 0, 0);
    }
    if (k) {
        tc_status s = kt_launch(ctx, k, 1, 1, 1,
                                KT_ARGS({"x_ptr", tc_tens(tx)}, {"out_ptr", tc_tens(to)},
                                        {"FLAG", tc_bool(1)}, {"BLOCK", tc_int(B)}));
        CHECK_INT(TC_ERR_COMPILE, s);
        CHECK_CONTAINS(tc_errmsg(ctx), "Expected dtype ['fp32', 'fp64'] but got fp16");
        char *src = kt_read("tests/kernels/control.py");
        int line = 0, col = 0;
        if (src) kt_find_loc(src, "tl.exp(x.to(tl.float16))", &line, &col);
        free(src);
        char where[64];
        snprintf(where, sizeof where, "control.py:%d:%d", line, col);
        CHECK_CONTAINS(tc_errmsg(ctx), where);
    }
    tc_tensor_free(tx); tc_tensor_free(to);
    KT_TEARDOWN();
}

TEST(kern_err_unsupported_constructs) {
    const tc_status S = TC_ERR_SYNTAX, C = TC_ERR_COMPILE;
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    for i in range(n):\n"
                    "        break\n",
                    S, C, "unsupported AST node type: Break", "break");
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    for i in range(n):\n"
                    "        continue\n",
                    S, C, "unsupported AST node type: Continue", "continue");
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    f = lambda v: v + 1\n"
                    "    tl.store(out_ptr, f(n))\n",
                    S, C, "unsupported AST node type: Lambda", "lambda v");
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    with open('f') as fh:\n"
                    "        pass\n",
                    S, C, "unsupported AST node type: With", "with open");
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    try:\n"
                    "        pass\n"
                    "    except Exception:\n"
                    "        pass\n",
                    S, C, "unsupported AST node type: Try", "try:");
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    def inner(v):\n"
                    "        return v\n"
                    "    tl.store(out_ptr, inner(n))\n",
                    S, C, "nested function definition is not supported", "def inner");
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    offs = tl.arange(0, BLOCK)\n"
                    "    m = 0 < offs < n\n"
                    "    tl.store(out_ptr + offs, offs.to(tl.float32), mask=m)\n",
                    S, C, "simultaneous multiple comparison is not supported", "0 < offs < n");
    KT_EXPECT_ERROR("def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                    "    x = tl.load(x_ptr + tl.arange(0, BLOCK))\n"
                    "    tl.store(out_ptr, x[0])\n",
                    S, C, "unsupported tensor index", "x[0]");
}
