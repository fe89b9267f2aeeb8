/* aot.c — ahead of time: compiling a kernel for a named target with no device present
 * (tc_compile, through the disk cache), ptxas (tc_compiled_assemble), the generated C pair
 * (tc_emit_c), and the small loader the generated code calls (tc_binary_*). */
#include "aot/aot.h"
#include "gpu/gpu.h"
#include "trace/trace.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- signatures ----------------------------------------------------------------------- */

bool aot_parse_sig(const char *s, tc_compiled_param *p) {
    memset(p, 0, sizeof *p);
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if ((isdigit((unsigned char)s[0]) || s[0] == '-') && !*end && errno == 0) {
        p->fixed = 1;
        p->value = v;
        return true;
    }
    if (*s == '*') {
        p->is_ptr = 1;
        s++;
        if (*s == 'k') s++;   /* Triton's const pointer: "*kfp32" */
    }
    char name[16];
    size_t n = strcspn(s, ":");
    if (n == 0 || n >= sizeof name) return false;
    memcpy(name, s, n);
    name[n] = 0;
    tc_dtype dt;
    if (strcmp(name, "u1") == 0 || strcmp(name, "i1") == 0) dt = TC_I1;
    else if (tc_dtype_from_name(name, &dt) != TC_OK) return false;
    p->typed = 1;
    p->dtype = dt;
    if (s[n] == ':') {
        const char *h = s + n + 1;
        if (strcmp(h, "16") == 0) p->hint = 16;
        else if (strcmp(h, "1") == 0) p->hint = 1;
        else return false;   /* Triton: "Only 1 and 16 are valid hints" */
        bool isint = !p->is_ptr && dt_is_int(dt) && dt != TC_I1;
        if (p->hint == 16 && !p->is_ptr && !isint) return false;
        if (p->hint == 1 && !isint) return false;
        if (p->hint == 1) { p->fixed = 1; p->value = 1; }
    }
    return true;
}

/* ---- the specialization string (jit.c's format, so that JIT and AOT share entries) ---- */

static void spec_item(char *item, size_t n, const Param *p, const tc_compiled_param *a,
                      const CVal *cv, bool missing) {
    if (a && !a->fixed) {
        snprintf(item, n, "%s%s%s", a->is_ptr ? "*" : "", dt_name(a->dtype), a->hint == 16 ? ":16" : "");
    } else if (a) {
        snprintf(item, n, "%s=%lld", p->name, (long long)a->value);
    } else if (missing) {
        snprintf(item, n, "%s=<default>", p->name);
    } else {
        char r[128];
        cv_repr(cv, r, sizeof r);
        snprintf(item, n, "%s=%s", p->name, r);
    }
}

static bool spec_append(char *buf, size_t cap, size_t *o, const char *item, int i) {
    int w = snprintf(buf + *o, cap - *o, "%s%s", i ? ", " : "", item);
    if (w < 0 || (size_t)w >= cap - *o) return false;
    *o += (size_t)w;
    return true;
}

/* ---- compiling a variant -------------------------------------------------------------- */

void tc_compiled_free(tc_compiled *c) {
    if (!c) return;
    free(c->priv);
    free(c->ptx);
    free(c->cubin);
    free(c->args);
    free(c);
}

/* Does a cache entry's metadata describe these entry parameters? */
static bool meta_matches(const CacheMeta *m, const tc_compiled *c) {
    if (m->nparams != c->nparams) return false;
    int j = 0;
    for (int i = 0; i < c->nargs; i++) {
        const tc_compiled_param *a = &c->args[i];
        if (a->fixed) continue;
        const CacheParam *q = &m->params[j++];
        if (q->index != a->index || q->dtype != (uint8_t)a->dtype ||
            !!(q->flags & CACHE_PARAM_PTR) != !!a->is_ptr ||
            !!(q->flags & CACHE_PARAM_DIV16) != (a->hint == 16))
            return false;
    }
    return true;
}

static void meta_fill(CacheMeta *m, const tc_compiled *c) {
    memset(m, 0, sizeof *m);
    snprintf(m->kernel, sizeof m->kernel, "%s", c->name);
    snprintf(m->target, sizeof m->target, "%s", c->target_name);
    m->threads = c->threads;
    m->shared_bytes = c->shared_bytes;
    m->num_regs = c->num_regs;
    m->num_warps = c->num_warps;
    m->num_stages = c->num_stages;
    int j = 0;
    for (int i = 0; i < c->nargs && j < CACHE_MAX_PARAMS; i++) {
        const tc_compiled_param *a = &c->args[i];
        if (a->fixed) continue;
        m->params[j].index = (uint16_t)a->index;
        m->params[j].dtype = (uint8_t)a->dtype;
        m->params[j].flags = (uint8_t)((a->is_ptr ? CACHE_PARAM_PTR : 0) | (a->hint == 16 ? CACHE_PARAM_DIV16 : 0));
        j++;
    }
    m->nparams = j;
}

tc_status tc_compile(tc_kernel *k, const tc_target *target, const char *const *sig, int nsig,
                     tc_args *constexprs, int num_warps, int num_stages, tc_compiled **out) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    if (!target || !out) return ctx_fail(ctx, TC_ERR_ARG, "tc_compile: NULL target or output");
    *out = NULL;
    if (constexprs && constexprs->k != k)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_compile: the argument list was made for %s, not %s",
                        constexprs->k->signature, k->signature);
    int nw = num_warps ? num_warps : 4, ns = num_stages ? num_stages : 3;
    if (nw < 1 || nw > 32 || (nw & (nw - 1)))
        return ctx_fail(ctx, TC_ERR_ARG, "num_warps must be a power of 2 (got %d)", nw);
    if (ns < 1 || ns > 64) return ctx_fail(ctx, TC_ERR_ARG, "num_stages must be >= 1 (got %d)", ns);
    if (strcmp(target->backend, "cuda") != 0 && target->backend[0])
        return ctx_fail(ctx, TC_ERR_UNSUPPORTED, "target backend '%s' is not supported (cuda only)",
                        target->backend);
    char why[256];
    if (!target_lookup(target, why, sizeof why)) return ctx_fail(ctx, TC_ERR_ARG, "%s", why);
    int n = k->fn->nparams;
    if (n > JIT_MAX_PARAMS)
        return ctx_fail(ctx, TC_ERR_LIMIT, "%s has more than %d parameters", k->signature, JIT_MAX_PARAMS);
    int nruntime = 0;
    for (int i = 0; i < n; i++) nruntime += !k->fn->params[i].is_constexpr;
    if (nsig != nruntime || (nsig && !sig))
        return ctx_fail(ctx, TC_ERR_ARG, "%s has %d runtime parameter%s but %d signature type%s "
                        "were given", k->signature, nruntime, nruntime == 1 ? "" : "s", nsig,
                        nsig == 1 ? "" : "s");
    tc_compiled *c = calloc(1, sizeof *c);
    if (!c) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    c->args = calloc(nruntime ? (size_t)nruntime : 1, sizeof *c->args);
    if (!c->args) { free(c); return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); }
    c->target = *target;
    snprintf(c->target.backend, sizeof c->target.backend, "cuda");
    cache_target_name(&c->target, c->target_name, sizeof c->target_name);
    c->num_warps = nw;
    c->num_stages = ns;

    SpecArg sa[JIT_MAX_PARAMS];
    memset(sa, 0, sizeof sa);
    size_t so = 0;
    bool spec_ok = true;
    tc_status rc = TC_OK;
    for (int i = 0, si = 0; i < n; i++) {
        const Param *p = &k->fn->params[i];
        char item[200];
        if (!p->is_constexpr) {
            tc_compiled_param *a = &c->args[c->nargs];
            if (!aot_parse_sig(sig[si], a)) {
                rc = ctx_fail(ctx, TC_ERR_ARG, "%s: bad signature type '%s' for parameter '%s' "
                              "(expected e.g. *fp32, *fp16:16, i32, i64:16, i32:1, fp32, or a "
                              "number)", k->signature, sig[si] ? sig[si] : "(null)", p->name);
                goto fail;
            }
            si++;
            snprintf(a->name, sizeof a->name, "%s", p->name);
            a->index = i;
            c->nargs++;
            if (a->fixed) {
                sa[i].is_constexpr = true;
                sa[i].cv = cv_int(a->value);
            } else {
                sa[i].type = a->is_ptr ? type_ptr(a->dtype) : type_scalar(a->dtype);
                sa[i].div16 = a->hint == 16;
                c->nparams++;
            }
            spec_item(item, sizeof item, p, a, NULL, false);
        } else {
            tc_value v;
            bool have = false;
            if (constexprs && constexprs->slots[i].set) { v = constexprs->slots[i].v; have = true; }
            else have = param_default(p, &v);
            if (!have) {
                if (!p->deflt) {
                    rc = ctx_fail(ctx, TC_ERR_ARG, "%s: missing constexpr '%s'", k->signature, p->name);
                    goto fail;
                }
                sa[i].missing = true;
                spec_item(item, sizeof item, p, NULL, NULL, true);
            } else {
                sa[i].is_constexpr = true;
                switch (v.kind) {
                case TC_VAL_NONE: sa[i].cv = cv_none(); break;
                case TC_VAL_INT: sa[i].cv = cv_int(v.u.i); break;
                case TC_VAL_FLOAT: sa[i].cv = cv_float(v.u.f); break;
                case TC_VAL_BOOL: sa[i].cv = cv_bool(v.u.b != 0); break;
                case TC_VAL_STR: sa[i].cv = cv_str(v.u.s); break;
                case TC_VAL_UINT:
                    rc = ctx_fail(ctx, TC_ERR_ARG, "%s: constexpr '%s' got %llu; constexpr "
                                  "integers range from -2**63 to 2**63-1", k->signature, p->name,
                                  (unsigned long long)v.u.i);
                    goto fail;
                default:
                    rc = ctx_fail(ctx, TC_ERR_ARG, "%s: constexpr parameter '%s' got a tensor; "
                                  "constexprs take numbers, booleans, strings or None",
                                  k->signature, p->name);
                    goto fail;
                }
                spec_item(item, sizeof item, p, NULL, &sa[i].cv, false);
            }
        }
        if (spec_ok && !spec_append(c->specialization, sizeof c->specialization, &so, item, i))
            spec_ok = false;
    }

    /* the disk cache */
    CacheKey key;
    CacheKeyIn kin = {k->m->src->text, k->m->src->len, k->fn->name, c->specialization, nw, ns,
                      &c->target, trace_debug() || k->fn->debug, false, NULL, false};
    bool use_cache = spec_ok && cache_key_make(&key, &kin);
    CacheResult cr = CACHE_OFF;
    if (use_cache && (c->priv = malloc(sizeof key))) memcpy(c->priv, &key, sizeof key);
    if (use_cache) {
        CacheEntry ent;
        void *mem = NULL;
        cr = cache_lookup(&key, &ent, &mem, c->cache_note, sizeof c->cache_note);
        if (cr == CACHE_HIT && !meta_matches(&ent.meta, c)) {
            snprintf(c->cache_note, sizeof c->cache_note, "disk cache entry %s.tcc does not "
                     "match the kernel's parameters: recompiled", key.hex);
            cr = CACHE_CORRUPT;
        }
        if (cr == CACHE_HIT) {
            c->ptx = strdup(ent.ptx);
            /* the JIT's driver-made cubin is not what ptxas would give */
            if (ent.cubin_len && !(ent.meta.flags & CACHE_META_DRIVER_CUBIN) &&
                (c->cubin = malloc(ent.cubin_len)))
                memcpy(c->cubin, ent.cubin, ent.cubin_len), c->cubin_size = ent.cubin_len;
            snprintf(c->name, sizeof c->name, "%s", ent.meta.kernel);
            c->threads = ent.meta.threads;
            c->shared_bytes = ent.meta.shared_bytes;
            c->num_regs = ent.meta.num_regs;
            free(mem);
            if (!c->ptx) { rc = ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); goto fail; }
            c->disk_cache = TC_CACHE_HIT;
            *out = c;
            return TC_OK;
        }
        free(mem);
    }

    {
        Err ae = {0};
        Arena arena;
        arena_init(&arena, &ae);
        Err te = {0};
        Buf text = {0};
        IrFunc *f = trace_kernel(k->m->mod, k->fn, sa, &arena, &te, &text);
        if (text.s) {
            if (ctx->print) ctx->print(text.s, ctx->print_user);
            else ctx_keep_output(text.s, ctx);
        }
        buf_free(&text);
        if (!f) {
            arena_free(&arena);
            if (te.code == TC_OK) te.code = TC_ERR_INTERNAL;
            rc = ctx_take(ctx, &te);
            goto fail;
        }
        if (f->nparams != c->nparams) {
            arena_free(&arena);
            rc = ctx_fail(ctx, TC_ERR_INTERNAL, "internal error: %s traced with %d parameters, "
                          "expected %d", k->signature, f->nparams, c->nparams);
            goto fail;
        }
        GpuKernel gk;
        memset(&gk, 0, sizeof gk);
        Err ge = {0};
        tc_status g = gpu_compile(f, &c->target, nw, ns, 0, false, &gk, &ge);
        arena_free(&arena);
        if (g) {
            gpu_kernel_free(&gk);
            if (ge.code == TC_OK) ge.code = g;
            rc = ctx_take(ctx, &ge);
            goto fail;
        }
        c->ptx = gk.ptx;
        gk.ptx = NULL;
        snprintf(c->name, sizeof c->name, "%s", gk.name);
        c->threads = gk.threads > 0 ? gk.threads : nw * 32;
        c->shared_bytes = gk.shared_bytes;
        gpu_kernel_free(&gk);
    }
    c->disk_cache = cache_event_of(cr);
    if (use_cache && cache_may_store(cr)) {
        CacheMeta m;
        meta_fill(&m, c);
        char why[256];
        if (cache_store(&key, &m, c->ptx, NULL, 0, why, sizeof why) != 0 && !c->cache_note[0])
            snprintf(c->cache_note, sizeof c->cache_note, "not stored in the disk cache: %.200s", why);
    }
    *out = c;
    return TC_OK;
fail:
    tc_compiled_free(c);
    return rc;
}

/* ---- ptxas ------------------------------------------------------------------------------ */

static bool executable(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

bool aot_find_ptxas(char *buf, size_t n) {
    const char *env = getenv("TRITONC_PTXAS");
    if (env && *env) return executable(env) && (size_t)snprintf(buf, n, "%s", env) < n;
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t l = strcspn(path, ":");
        if (l > 0 && (size_t)snprintf(buf, n, "%.*s/ptxas", (int)l, path) < n && executable(buf))
            return true;
        path += l;
        if (*path == ':') path++;
    }
    const char *def = "/usr/local/cuda/bin/ptxas";
    return executable(def) && (size_t)snprintf(buf, n, "%s", def) < n;
}

tc_status tc_ptxas_path(char *buf, size_t n) {
    if (!buf || !n) return TC_ERR_ARG;
    buf[0] = 0;
    return aot_find_ptxas(buf, n) ? TC_OK : TC_ERR_NOT_FOUND;
}

static bool write_all(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static unsigned char *read_all(const char *path, size_t *n, size_t limit) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    unsigned char *b = malloc(cap);
    while (b) {
        if (len == cap) {
            if (cap >= limit) { free(b); b = NULL; break; }
            unsigned char *nb = realloc(b, cap * 2);
            if (!nb) { free(b); b = NULL; break; }
            b = nb;
            cap *= 2;
        }
        size_t r = fread(b + len, 1, cap - len, f);
        if (r == 0) break;
        len += r;
    }
    fclose(f);
    if (b) *n = len;
    return b;
}

tc_status tc_compiled_assemble(tc_context *ctx, tc_compiled *c) {
    if (!ctx) return TC_ERR_ARG;
    if (!c || !c->ptx) return ctx_fail(ctx, TC_ERR_ARG, "tc_compiled_assemble: no PTX");
    if (c->cubin && c->cubin_size) return TC_OK;   /* from the disk cache */
    char ptxas[4096];
    if (!aot_find_ptxas(ptxas, sizeof ptxas)) {
        const char *env = getenv("TRITONC_PTXAS");
        if (env && *env)
            return ctx_fail(ctx, TC_ERR_NOT_FOUND, "cannot find ptxas: TRITONC_PTXAS=%s is not an "
                            "executable file", env);
        return ctx_fail(ctx, TC_ERR_NOT_FOUND, "cannot find ptxas (looked at $TRITONC_PTXAS, "
                        "PATH and /usr/local/cuda/bin/ptxas); install the CUDA toolkit or set "
                        "TRITONC_PTXAS to its path");
    }
    const char *tmpd = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tritonc-ptxas-XXXXXX", tmpd && *tmpd ? tmpd : "/tmp");
    if (!mkdtemp(dir)) return ctx_fail(ctx, TC_ERR_IO, "cannot make a temporary directory: %s", strerror(errno));
    char in[4200], outp[4200], logp[4200], gpu[64];
    snprintf(in, sizeof in, "%s/kernel.ptx", dir);
    snprintf(outp, sizeof outp, "%s/kernel.cubin", dir);
    snprintf(logp, sizeof logp, "%s/ptxas.log", dir);
    snprintf(gpu, sizeof gpu, "--gpu-name=sm_%d%s", c->target.arch, c->target.arch_suffix_a ? "a" : "");
    tc_status rc = TC_OK;
    if (!write_all(in, c->ptx, strlen(c->ptx))) {
        rc = ctx_fail(ctx, TC_ERR_IO, "cannot write %s: %s", in, strerror(errno));
        goto done;
    }
    char *argv[] = {ptxas, "-v", gpu, in, "-o", outp, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, logp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int se = posix_spawn(&pid, ptxas, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (se != 0) {
        rc = ctx_fail(ctx, TC_ERR_IO, "cannot run %s: %s", ptxas, strerror(se));
        goto done;
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    size_t loglen = 0;
    char *log = (char *)read_all(logp, &loglen, 1 << 20);
    if (log) { char *nl = realloc(log, loglen + 1); if (nl) log = nl; else loglen = loglen ? loglen - 1 : 0; log[loglen] = 0; }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char what[96];
        if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV) snprintf(what, sizeof what, "`ptxas` raised SIGSEGV");
        else if (WIFSIGNALED(st)) snprintf(what, sizeof what, "`ptxas` was killed by signal %d", WTERMSIG(st));
        else snprintf(what, sizeof what, "`ptxas` failed with error code %d%s", WEXITSTATUS(st),
                      WEXITSTATUS(st) == 255 ? " (an error in the PTX we emitted)" : "");
        const char *keep = getenv("TRITONC_KEEP_PTXAS");
        bool kept = keep && *keep && strcmp(keep, "0") != 0;
        rc = ctx_fail(ctx, TC_ERR_COMPILE, "%s for %s (%s)\n%.3000s\nRepro command: %s -v %s %s -o %s%s",
                      what, c->name, c->target_name, log ? log : "", ptxas, gpu, in, outp,
                      kept ? "" : "\n(the files are removed; set TRITONC_KEEP_PTXAS=1 to keep them)");
        free(log);
        if (kept) return rc;
        goto done;
    }
    if (log) {
        const char *r = strstr(log, "Used ");
        if (r) c->num_regs = atoi(r + 5);
    }
    free(log);
    size_t n = 0;
    unsigned char *cub = read_all(outp, &n, CACHE_MAX_FILE);
    if (!cub || n == 0) {
        free(cub);
        rc = ctx_fail(ctx, TC_ERR_IO, "ptxas wrote no cubin (%s)", outp);
        goto done;
    }
    free(c->cubin);
    c->cubin = cub;
    c->cubin_size = n;
    if (c->priv && c->disk_cache != TC_CACHE_UNUSED) {  /* keep the cubin in the entry too */
        CacheMeta m;
        meta_fill(&m, c);
        char why[256];
        if (cache_store((const CacheKey *)c->priv, &m, c->ptx, c->cubin, c->cubin_size, why, sizeof why) != 0 &&
            !c->cache_note[0])
            snprintf(c->cache_note, sizeof c->cache_note, "cubin not stored in the disk cache: %.200s", why);
    }
done:
    unlink(in);
    unlink(outp);
    unlink(logp);
    rmdir(dir);
    return rc;
}

/* ---- loading binaries (what the generated code calls) -------------------------------- */

struct tc_binary {
    tc_context *ctx;
    CuModule *mod;
    int device, threads, shared_bytes, nparams;
};

static bool desc_target(const tc_binary_desc *d, tc_target *t) {
    return d && d->target && tc_target_parse(d->target, t) == TC_OK && strcmp(t->backend, "cuda") == 0;
}

tc_status tc_binary_select(tc_context *ctx, const tc_binary_desc *descs, int n, int *index) {
    if (!ctx) return TC_ERR_ARG;
    if (!descs || n <= 0 || !index) return ctx_fail(ctx, TC_ERR_ARG, "tc_binary_select: no descriptors");
    *index = -1;
    tc_target dev;
    tc_status rc = tc_current_target(ctx, &dev);
    if (rc) return rc;
    int best = -1, best_arch = -1;
    for (int i = 0; i < n; i++) {
        tc_target t;
        if (!desc_target(&descs[i], &t) || (!descs[i].ptx && !descs[i].cubin)) continue;
        if (t.arch == dev.arch) {
            /* an exact match; prefer one that has a cubin */
            if (best < 0 || best_arch != dev.arch || (descs[i].cubin && !descs[best].cubin)) {
                best = i;
                best_arch = t.arch;
            }
            continue;
        }
        if (t.arch < dev.arch && descs[i].ptx && !t.arch_suffix_a && best_arch != dev.arch &&
            t.arch > best_arch) {
            best = i;
            best_arch = t.arch;
        }
    }
    if (best < 0) {
        char have[512] = "";
        size_t o = 0;
        for (int i = 0; i < n && o + 20 < sizeof have; i++)
            o += (size_t)snprintf(have + o, sizeof have - o, "%s%s", i ? ", " : "",
                                  descs[i].target ? descs[i].target : "?");
        char dn[16];
        cache_target_name(&dev, dn, sizeof dn);
        return ctx_fail(ctx, TC_ERR_NOT_FOUND, "no compiled variant of %s runs on the device "
                        "(%s); compiled for: %s (PTX runs on its arch and later ones, except "
                        "arch-specific 'a' targets)", descs[0].name ? descs[0].name : "the kernel",
                        dn, have);
    }
    *index = best;
    return TC_OK;
}

tc_status tc_binary_load(tc_context *ctx, const tc_binary_desc *d, tc_binary **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!d || !out || !d->name) return ctx_fail(ctx, TC_ERR_ARG, "tc_binary_load: NULL descriptor or output");
    *out = NULL;
    if (d->threads < 1 || d->threads > 1024 || d->shared_bytes < 0 || d->nparams < 0 ||
        d->nparams > JIT_MAX_PARAMS || (!d->ptx && !d->cubin))
        return ctx_fail(ctx, TC_ERR_ARG, "tc_binary_load: invalid descriptor for %s", d->name);
    const char *drv;
    tc_status rc = tc_active_driver(ctx, &drv);
    if (rc) return rc;
    Err e = {0};
    if (ctx_use_cuda(ctx, &e)) return ctx_take(ctx, &e);
    tc_target dev, t;
    bool ov = false;
    if (cuda_target(ctx->device, &dev, &ov, &e)) return ctx_take(ctx, &e);
    tc_binary *b = calloc(1, sizeof *b);
    if (!b) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    rc = TC_ERR_NOT_FOUND;
    if (d->cubin && d->cubin_size && desc_target(d, &t) && t.arch == dev.arch && !ov)
        rc = cuda_module_load_cubin(d->cubin, d->cubin_size, d->name, d->shared_bytes, &b->mod, &e);
    if (rc && d->ptx) {
        e = (Err){0};
        rc = cuda_module_load(d->ptx, d->name, d->shared_bytes, &b->mod, &e);
    }
    if (rc) {
        free(b);
        if (e.code == TC_OK) return ctx_fail(ctx, TC_ERR_NOT_FOUND, "%s (%s): the cubin is for "
                                             "another arch and there is no PTX", d->name,
                                             d->target ? d->target : "?");
        return ctx_take(ctx, &e);
    }
    b->ctx = ctx;
    b->device = ctx->device;
    b->threads = d->threads;
    b->shared_bytes = d->shared_bytes;
    b->nparams = d->nparams;
    *out = b;
    return TC_OK;
}

tc_status tc_binary_launch(tc_binary *b, const uint32_t grid[3], void *stream, void **params,
                           int nparams) {
    if (!b) return TC_ERR_ARG;
    tc_context *ctx = b->ctx;
    if (!grid) return ctx_fail(ctx, TC_ERR_ARG, "tc_binary_launch: NULL grid");
    if (nparams != b->nparams || (nparams && !params))
        return ctx_fail(ctx, TC_ERR_ARG, "tc_binary_launch: the kernel takes %d parameters, "
                        "%d were given", b->nparams, nparams);
    uint32_t g[3] = {grid[0], grid[1], grid[2]};
    if (g[0] == 0 || g[1] == 0 || g[2] == 0) return TC_OK;
    if (g[0] > 0x7fffffffu || g[1] > 65535 || g[2] > 65535)
        return ctx_fail(ctx, TC_ERR_ARG, "grid (%u, %u, %u) exceeds the limits (2^31-1, 65535, "
                        "65535)", g[0], g[1], g[2]);
    Err e = {0};
    if (cuda_use_context(b->device, cuda_module_context(b->mod), &e) ||
        cuda_launch(b->mod, g, b->threads, b->shared_bytes, stream, params, &e))
        return ctx_take(ctx, &e);
    return TC_OK;
}

void tc_binary_free(tc_binary *b) {
    if (!b) return;
    if (b->mod) cuda_module_unload(b->mod);
    free(b);
}

/* ---- the generated C ---------------------------------------------------------------------- */

static const char *c_type(const tc_compiled_param *a) {
    if (a->is_ptr) return "uint64_t";
    switch (a->dtype) {
    case TC_I1: return "uint8_t";
    case TC_I8: return "int8_t";
    case TC_I16: return "int16_t";
    case TC_I32: return "int32_t";
    case TC_I64: return "int64_t";
    case TC_U8: return "uint8_t";
    case TC_U16: return "uint16_t";
    case TC_U32: return "uint32_t";
    case TC_U64: return "uint64_t";
    case TC_FP16: case TC_BF16: return "uint16_t";  /* raw bits */
    case TC_FP32: return "float";
    case TC_FP64: return "double";
    case TC_FP8E5: case TC_FP8E4NV: case TC_FP8E4B15: return "uint8_t";  /* raw bits */
    }
    return "int64_t";
}

static bool c_ident(const char *s) {
    if (!s || !*s || (*s >= '0' && *s <= '9')) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* A kernel parameter's name in the generated C: C keywords, the launcher's own parameter
 * names (grid, stream) and the generated code's prefix (tc_) get a trailing underscore. */
static void c_param_name(const char *py, char *out, size_t n) {
    static const char *const reserved[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
        "typedef", "union", "unsigned", "void", "volatile", "while", "bool", "true", "false",
        "grid", "stream", "NULL", "errno", "assert", "class", "new", "delete", "this",
        "template", "typename", "namespace", "operator", "private", "public", "protected",
        "virtual", "friend", "using", "try", "catch", "throw", "explicit", "mutable"};
    bool clash = strncmp(py, "tc_", 3) == 0 || strncmp(py, "TC_", 3) == 0 || py[0] == '_';
    for (size_t i = 0; !clash && i < sizeof reserved / sizeof reserved[0]; i++)
        clash = strcmp(py, reserved[i]) == 0;
    snprintf(out, n, "%s%s", py, clash ? "_" : "");
}

/* The signature of a variant without its target: variants with equal strings form a group. */
typedef struct SigGroup {
    const tc_compiled *first;
    int members[64];
    int n;
    int nconds;
} SigGroup;

static void emit_bytes(Buf *b, const char *type, const char *name, const unsigned char *p, size_t n,
                       bool nul) {
    buf_printf(b, "static const %s %s[%zu] = {", type, name, n + (nul ? 1 : 0));
    for (size_t i = 0; i < n; i++) buf_printf(b, "%s%u,", i % 20 ? "" : "\n    ", p[i]);
    if (nul) buf_puts(b, n % 20 ? "0" : "\n    0");
    buf_puts(b, "\n};\n");
}

static void emit_params(Buf *b, const tc_compiled *c, bool tensors) {
    for (int i = 0; i < c->nargs; i++) {
        const tc_compiled_param *a = &c->args[i];
        if (!a->typed) continue;
        if (a->is_ptr && tensors) buf_printf(b, ", tc_tensor *%s", a->name);
        else buf_printf(b, ", %s %s", c_type(a), a->name);
    }
}

static void emit_names(Buf *b, const tc_compiled *c, bool first_comma) {
    int k = 0;
    for (int i = 0; i < c->nargs; i++) {
        if (!c->args[i].typed) continue;
        buf_printf(b, "%s%s", (k++ || first_comma) ? ", " : "", c->args[i].name);
    }
}

tc_status tc_emit_c(tc_kernel *k, tc_compiled *const *v, int n, const char *prefix,
                    const char *out_h, const char *out_c, const char *include_name) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    if (!v || n <= 0 || !out_h || !out_c || !include_name)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_emit_c: no variants or no output paths");
    if (!c_ident(prefix) || strlen(prefix) > 80)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_emit_c: '%s' is not a C identifier", prefix ? prefix : "");
    if (strchr(include_name, '"') || strchr(include_name, '\n') || strchr(include_name, '\\'))
        return ctx_fail(ctx, TC_ERR_ARG, "tc_emit_c: bad include name");
    /* the C prototype: every runtime parameter that has a type in some variant */
    const tc_compiled *c0 = v[0];
    for (int i = 0; i < n; i++) {
        const tc_compiled *c = v[i];
        if (!c || !c->ptx || c->nargs != c0->nargs)
            return ctx_fail(ctx, TC_ERR_ARG, "tc_emit_c: variant %d is not of the same kernel", i);
        for (int j = 0; j < c->nargs; j++) {
            const tc_compiled_param *a = &c->args[j], *b0 = &c0->args[j];
            if (strcmp(a->name, b0->name) != 0 || a->index != b0->index)
                return ctx_fail(ctx, TC_ERR_ARG, "tc_emit_c: variant %d is not of the same kernel", i);
            if (!c_ident(a->name))
                return ctx_fail(ctx, TC_ERR_ARG, "parameter '%s' is not a C identifier", a->name);
            if (a->typed && b0->typed && (a->is_ptr != b0->is_ptr || a->dtype != b0->dtype))
                return ctx_fail(ctx, TC_ERR_ARG, "the signatures disagree on the type of '%s' "
                                "(%s%s and %s%s): one launcher needs one C type per parameter",
                                a->name, a->is_ptr ? "*" : "", tc_dtype_name(a->dtype),
                                b0->is_ptr ? "*" : "", tc_dtype_name(b0->dtype));
        }
    }
    /* a merged argument list: typed where any variant is typed */
    tc_compiled proto = *c0;
    tc_compiled_param pargs[JIT_MAX_PARAMS];
    if (c0->nargs > JIT_MAX_PARAMS) return ctx_fail(ctx, TC_ERR_LIMIT, "too many parameters");
    memcpy(pargs, c0->args, (size_t)c0->nargs * sizeof *pargs);
    for (int i = 1; i < n; i++)
        for (int j = 0; j < c0->nargs; j++)
            if (!pargs[j].typed && v[i]->args[j].typed) pargs[j] = v[i]->args[j];
    for (int j = 0; j < c0->nargs; j++) {
        if (pargs[j].typed) continue;
        for (int i = 1; i < n; i++)  /* untyped everywhere: must be the same number */
            if (v[i]->args[j].value != c0->args[j].value)
                return ctx_fail(ctx, TC_ERR_ARG, "parameter '%s' is a different number in two "
                                "signatures and has a type in none: give it one (e.g. i32)",
                                pargs[j].name);
    }
    proto.args = pargs;
    for (int j = 0; j < c0->nargs; j++) {
        char cn[80];
        c_param_name(c0->args[j].name, cn, sizeof cn);
        size_t cl = strlen(cn);
        if (cl >= sizeof pargs[j].name)
            return ctx_fail(ctx, TC_ERR_LIMIT, "parameter name '%s' is too long", c0->args[j].name);
        memcpy(pargs[j].name, cn, cl + 1);
        for (int q = 0; q < j; q++)
            if (strcmp(pargs[q].name, cn) == 0)
                return ctx_fail(ctx, TC_ERR_ARG, "parameters '%s' and '%s' have the same C name '%s'",
                                c0->args[q].name, c0->args[j].name, cn);
    }

    /* groups of variants sharing a signature, most specialized first */
    SigGroup groups[64];
    int ng = 0;
    for (int i = 0; i < n; i++) {
        int g = 0;
        while (g < ng && strcmp(groups[g].first->specialization, v[i]->specialization) != 0) g++;
        if (g == ng) {
            if (ng == 64) return ctx_fail(ctx, TC_ERR_LIMIT, "more than 64 signatures");
            groups[ng].first = v[i];
            groups[ng].n = 0;
            int nc = 0;
            for (int j = 0; j < v[i]->nargs; j++)
                nc += v[i]->args[j].hint != 0 || (v[i]->args[j].fixed && pargs[j].typed);
            groups[ng].nconds = nc;
            ng++;
        }
        if (groups[g].n == 64) return ctx_fail(ctx, TC_ERR_LIMIT, "more than 64 targets");
        for (int m = 0; m < groups[g].n; m++)
            if (strcmp(v[groups[g].members[m]]->target_name, v[i]->target_name) == 0)
                return ctx_fail(ctx, TC_ERR_ARG, "signature (%s) is compiled twice for %s",
                                v[i]->specialization, v[i]->target_name);
        groups[g].members[groups[g].n++] = i;
    }
    for (int i = 1; i < ng; i++)  /* stable insertion sort by conditions, descending */
        for (int j = i; j > 0 && groups[j].nconds > groups[j - 1].nconds; j--) {
            SigGroup t = groups[j]; groups[j] = groups[j - 1]; groups[j - 1] = t;
        }

    char up[96];
    size_t pl = strlen(prefix);
    for (size_t i = 0; i <= pl; i++) up[i] = (char)(prefix[i] >= 'a' && prefix[i] <= 'z' ? prefix[i] - 32 : prefix[i]);

    /* ---- the header ---- */
    Buf h = {0};
    buf_printf(&h, "/* %s.h — generated by `tritonc compile` (tritonc %s); do not edit.\n", prefix, TRITONC_VERSION);
    buf_printf(&h, " *\n * Kernel %s, compiled ahead of time. Signatures, tried in this order:\n", k->signature);
    for (int g = 0; g < ng; g++) {
        buf_printf(&h, " *   %d: %s  [", g, groups[g].first->specialization);
        for (int m = 0; m < groups[g].n; m++) {
            const tc_compiled *c = v[groups[g].members[m]];
            buf_printf(&h, "%s%s%s", m ? " " : "", c->target_name, c->cubin ? "+cubin" : "");
        }
        buf_printf(&h, "]  num_warps=%d\n", groups[g].first->num_warps);
    }
    buf_printf(&h, " *\n * Only tritonc.h and the library are needed: the code is embedded. The load picks,\n"
                   " * per signature, the variant for the current device (its exact arch; else the\n"
                   " * highest earlier arch with PTX, which the driver compiles). The launch picks the\n"
                   " * most specialized loaded signature that the arguments satisfy (alignment of\n"
                   " * pointers and divisibility of integers by 16, integers equal to 1). */\n");
    buf_printf(&h, "#ifndef %s_H\n#define %s_H\n\n#include <stdint.h>\n#include <tritonc.h>\n\n", up, up);
    buf_printf(&h, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    buf_printf(&h, "#define %s_NUM_SIGNATURES %d\n\n", up, ng);
    buf_printf(&h, "/* Loads the variants for ctx's current device (once; later calls do nothing).\n"
                   " * TC_ERR_NO_DRIVER with no GPU; TC_ERR_NOT_FOUND if no variant suits the device.\n"
                   " * The message is tc_errmsg(ctx). */\n");
    buf_printf(&h, "tc_status %s_load(tc_context *ctx);\nvoid %s_unload(void);\n\n", prefix, prefix);
    buf_printf(&h, "/* The signature (0..%d) that arguments with these values would use, loaded or\n"
                   " * not; -1 if none accepts them. Pointers as device addresses. */\n", ng - 1);
    buf_printf(&h, "int %s_select(", prefix);
    {
        Buf t = {0};
        emit_params(&t, &proto, false);
        buf_puts(&h, t.s ? t.s + 2 : "void");
        buf_free(&t);
    }
    buf_printf(&h, ");\n\n/* Launches on the default stream with tensors' device memory. TC_ERR_NOT_FOUND\n"
                   " * when no loaded signature accepts the arguments (or nothing is loaded). */\n");
    buf_printf(&h, "tc_status %s_launch(const uint32_t grid[3]", prefix);
    emit_params(&h, &proto, true);
    buf_printf(&h, ");\n/* The same with raw device addresses and a stream (a CUstream, or NULL). */\n");
    buf_printf(&h, "tc_status %s_launch_ptrs(void *stream, const uint32_t grid[3]", prefix);
    emit_params(&h, &proto, false);
    buf_printf(&h, ");\n\n/* \"cuda:90a (cubin)\" / \"cuda:80 (ptx)\": what is loaded for signature s, or NULL. */\n");
    buf_printf(&h, "const char *%s_loaded(int s);\n\n", prefix);
    buf_printf(&h, "#ifdef __cplusplus\n}\n#endif\n#endif\n");

    /* ---- the source ---- */
    Buf c = {0};
    buf_printf(&c, "/* %s.c — generated by `tritonc compile` (tritonc %s); do not edit. */\n", prefix, TRITONC_VERSION);
    buf_printf(&c, "#include \"%s\"\n\n#include <stddef.h>\n\n", include_name);
    for (int g = 0; g < ng; g++) {
        for (int m = 0; m < groups[g].n; m++) {
            const tc_compiled *x = v[groups[g].members[m]];
            char nm[160];
            buf_printf(&c, "/* signature %d (%s) for %s: entry %s, %d threads, %d bytes of shared memory */\n",
                       g, x->specialization, x->target_name, x->name, x->threads, x->shared_bytes);
            snprintf(nm, sizeof nm, "%s_ptx_%d_%d", prefix, g, m);
            emit_bytes(&c, "char", nm, (const unsigned char *)x->ptx, strlen(x->ptx), true);
            if (x->cubin) {
                snprintf(nm, sizeof nm, "%s_cubin_%d_%d", prefix, g, m);
                emit_bytes(&c, "unsigned char", nm, x->cubin, x->cubin_size, false);
            }
        }
        buf_printf(&c, "static const tc_binary_desc %s_desc_%d[%d] = {\n", prefix, g, groups[g].n);
        for (int m = 0; m < groups[g].n; m++) {
            const tc_compiled *x = v[groups[g].members[m]];
            if (x->cubin)
                buf_printf(&c, "    {\"%s\", \"%s\", %s_ptx_%d_%d, %s_cubin_%d_%d, %zu, %d, %d, %d},\n",
                           x->name, x->target_name, prefix, g, m, prefix, g, m, x->cubin_size,
                           x->threads, x->shared_bytes, x->nparams);
            else
                buf_printf(&c, "    {\"%s\", \"%s\", %s_ptx_%d_%d, NULL, 0, %d, %d, %d},\n", x->name,
                           x->target_name, prefix, g, m, x->threads, x->shared_bytes, x->nparams);
        }
        buf_puts(&c, "};\n\n");
    }
    buf_printf(&c, "static const tc_binary_desc *const %s_descs[%d] = {", prefix, ng);
    for (int g = 0; g < ng; g++) buf_printf(&c, "%s%s_desc_%d", g ? ", " : "", prefix, g);
    buf_printf(&c, "};\nstatic const int %s_ndescs[%d] = {", prefix, ng);
    for (int g = 0; g < ng; g++) buf_printf(&c, "%s%d", g ? ", " : "", groups[g].n);
    buf_printf(&c, "};\nstatic tc_binary *%s_bin[%d];\nstatic const char *%s_where[%d];\n\n", prefix, ng, prefix, ng);

    /* load / unload / loaded */
    buf_printf(&c, "tc_status %s_load(tc_context *ctx) {\n", prefix);
    buf_printf(&c, "    static const char *const where[%d][%d] = {", ng, 64);
    for (int g = 0; g < ng; g++) {
        buf_puts(&c, g ? ", {" : "{");
        for (int m = 0; m < groups[g].n; m++) {
            const tc_compiled *x = v[groups[g].members[m]];
            buf_printf(&c, "%s\"%s (%s)\"", m ? ", " : "", x->target_name, x->cubin ? "cubin" : "ptx");
        }
        buf_puts(&c, "}");
    }
    buf_printf(&c, "};\n    int loaded = 0;\n    tc_status first = TC_OK;\n");
    buf_printf(&c, "    for (int s = 0; s < %d; s++) {\n", ng);
    buf_printf(&c, "        if (%s_bin[s]) { loaded++; continue; }\n", prefix);
    buf_printf(&c, "        int i = -1;\n");
    buf_printf(&c, "        tc_status st = tc_binary_select(ctx, %s_descs[s], %s_ndescs[s], &i);\n", prefix, prefix);
    buf_printf(&c, "        if (st == TC_OK) st = tc_binary_load(ctx, &%s_descs[s][i], &%s_bin[s]);\n", prefix, prefix);
    buf_printf(&c, "        if (st == TC_OK) { %s_where[s] = where[s][i]; loaded++; continue; }\n", prefix);
    buf_printf(&c, "        if (first == TC_OK) first = st;\n");
    buf_printf(&c, "        if (st == TC_ERR_NO_DRIVER || st == TC_ERR_DRIVER) break;\n    }\n");
    buf_printf(&c, "    return loaded ? TC_OK : first;\n}\n\n");
    buf_printf(&c, "void %s_unload(void) {\n    for (int s = 0; s < %d; s++) {\n"
                   "        tc_binary_free(%s_bin[s]);\n        %s_bin[s] = NULL;\n        %s_where[s] = NULL;\n    }\n}\n\n",
               prefix, ng, prefix, prefix, prefix);
    buf_printf(&c, "const char *%s_loaded(int s) {\n    return s >= 0 && s < %d ? %s_where[s] : NULL;\n}\n\n",
               prefix, ng, prefix);

    /* fits: the conditions of each signature */
    buf_printf(&c, "static int %s_fits(int tc_s", prefix);
    emit_params(&c, &proto, false);
    buf_puts(&c, ") {\n");
    for (int i = 0; i < proto.nargs; i++)
        if (pargs[i].typed) buf_printf(&c, "    (void)%s;\n", pargs[i].name);
    buf_puts(&c, "    switch (tc_s) {\n");
    for (int g = 0; g < ng; g++) {
        const tc_compiled *x = groups[g].first;
        buf_printf(&c, "    case %d: return 1", g);
        for (int j = 0; j < x->nargs; j++) {
            const tc_compiled_param *a = &x->args[j];
            if (!pargs[j].typed) continue;
            if (a->hint == 16) buf_printf(&c, " && %s %% 16 == 0", pargs[j].name);
            else if (a->fixed) {
                char lit[48];
                if (a->value == INT64_MIN) snprintf(lit, sizeof lit, "(-9223372036854775807ll - 1)");
                else snprintf(lit, sizeof lit, "%lldll", (long long)a->value);
                buf_printf(&c, " && %s == (%s)%s", pargs[j].name, c_type(&pargs[j]), lit);
            }
        }
        buf_puts(&c, ";\n");
    }
    buf_puts(&c, "    }\n    return 0;\n}\n\n");

    buf_printf(&c, "int %s_select(", prefix);
    {
        Buf t = {0};
        emit_params(&t, &proto, false);
        buf_puts(&c, t.s ? t.s + 2 : "void");
        buf_free(&t);
    }
    buf_printf(&c, ") {\n    for (int tc_s = 0; tc_s < %d; tc_s++)\n        if (%s_fits(tc_s", ng, prefix);
    emit_names(&c, &proto, true);
    buf_puts(&c, ")) return tc_s;\n    return -1;\n}\n\n");

    /* launch_ptrs: the first loaded signature that fits */
    buf_printf(&c, "tc_status %s_launch_ptrs(void *stream, const uint32_t grid[3]", prefix);
    emit_params(&c, &proto, false);
    buf_printf(&c, ") {\n    for (int tc_s = 0; tc_s < %d; tc_s++) {\n", ng);
    buf_printf(&c, "        if (!%s_bin[tc_s] || !%s_fits(tc_s", prefix, prefix);
    emit_names(&c, &proto, true);
    buf_puts(&c, ")) continue;\n        switch (tc_s) {\n");
    for (int g = 0; g < ng; g++) {
        const tc_compiled *x = groups[g].first;
        buf_printf(&c, "        case %d: {\n", g);
        int np = 0;
        for (int j = 0; j < x->nargs; j++) {
            const tc_compiled_param *a = &x->args[j];
            if (a->fixed) continue;
            buf_printf(&c, "            %s tc_p%d = %s;\n", c_type(a), np, pargs[j].name);
            np++;
        }
        if (np) {
            buf_printf(&c, "            void *tc_params[%d] = {", np);
            for (int q = 0; q < np; q++) buf_printf(&c, "%s&tc_p%d", q ? ", " : "", q);
            buf_printf(&c, "};\n            return tc_binary_launch(%s_bin[tc_s], grid, stream, tc_params, %d);\n", prefix, np);
        } else {
            buf_printf(&c, "            return tc_binary_launch(%s_bin[tc_s], grid, stream, NULL, 0);\n", prefix);
        }
        buf_puts(&c, "        }\n");
    }
    buf_puts(&c, "        }\n    }\n    return TC_ERR_NOT_FOUND;\n}\n\n");

    /* launch with tensors */
    buf_printf(&c, "tc_status %s_launch(const uint32_t grid[3]", prefix);
    emit_params(&c, &proto, true);
    buf_printf(&c, ") {\n    return %s_launch_ptrs(NULL, grid", prefix);
    for (int i = 0; i < proto.nargs; i++) {
        if (!pargs[i].typed) continue;
        if (pargs[i].is_ptr) buf_printf(&c, ", tc_tensor_address(%s)", pargs[i].name);
        else buf_printf(&c, ", %s", pargs[i].name);
    }
    buf_puts(&c, ");\n}\n");

    tc_status rc = TC_OK;
    if (h.oom || c.oom) rc = ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    else if (!(rc = tc_write_file(ctx, out_h, h.s, h.len))) rc = tc_write_file(ctx, out_c, c.s, c.len);
    buf_free(&h);
    buf_free(&c);
    return rc;
}

tc_status tc_compile_ptx(tc_kernel *k, const tc_target *target, const char *const *sig,
                         int nsig, tc_args *constexprs, int num_warps, char **ptx_out) {
    if (!k) return TC_ERR_ARG;
    tc_context *ctx = k->m->ctx;
    if (!target || !ptx_out || (nsig > 0 && !sig))
        return ctx_fail(ctx, TC_ERR_ARG, "tc_compile_ptx: NULL argument");
    *ptx_out = NULL;
    if (constexprs && constexprs->k != k)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_compile_ptx: the argument list belongs to another kernel");
    return jit_compile_ptx(k, target, sig, nsig, constexprs, num_warps, ptx_out);
}
