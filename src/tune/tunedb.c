/* tunedb.c — the tuning database: choices of configs (with the timings behind them, the
 * device, the kernel's source hash) kept on the context, looked up by kernel and key,
 * loaded from and saved to JSON files (tc_tuning_db_load/save, `tune --export`), and the
 * on-disk tuning cache: one file per tuning under $TRITONC_CACHE_DIR/tune, read back only
 * when it matches the device, tritonc version, source, key and configs exactly, and only
 * from a regular file and folder of this user's that no one else may write (another user
 * could otherwise choose the configs this user runs). Files are written atomically
 * (write_file_atomic) and read without ever blocking on a FIFO. */
#include "tune/tuneint.h"
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TuneContext *tune_ctx(tc_context *ctx) {
    if (!ctx->tune) ctx->tune = calloc(1, sizeof(TuneContext));
    return ctx->tune;
}

void tdb_entry_free(DbEntry *d) {
    free(d->kernel); free(d->source_hash); free(d->device); free(d->tritonc); free(d->at);
    free(d->key); free(d->origin);
    tconfig_free(&d->best);
    free(d->res);
    memset(d, 0, sizeof *d);
}

void tune_context_free(tc_context *ctx) {
    if (!ctx || !ctx->tune) return;
    TuneContext *t = ctx->tune;
    for (int i = 0; i < t->ndb; i++) tdb_entry_free(&t->db[i]);
    free(t->db);
    free(t->slot);
    free(t);
    ctx->tune = NULL;
}

/* ---- the tuning database ---------------------------------------------------------------------- */

static void value_json(Buf *b, const tc_value *v) {
    switch (v->kind) {
    case TC_VAL_INT: buf_printf(b, "%lld", (long long)v->u.i); break;
    case TC_VAL_FLOAT: json_put_num(b, v->u.f); break;
    case TC_VAL_BOOL: buf_puts(b, v->u.b ? "true" : "false"); break;
    case TC_VAL_STR: json_put_str(b, v->u.s); break;
    default: buf_puts(b, "null");
    }
}

static void entry_json(Buf *b, const DbEntry *d, const char *indent) {
    buf_printf(b, "%s{\n%s  \"kernel\": ", indent, indent);
    json_put_str(b, d->kernel);
    if (d->source_hash) { buf_printf(b, ",\n%s  \"source_hash\": ", indent); json_put_str(b, d->source_hash); }
    buf_printf(b, ",\n%s  \"device\": ", indent);
    json_put_str(b, d->device);
    buf_printf(b, ",\n%s  \"capability\": [%d, %d]", indent, d->ccM, d->ccm);
    buf_printf(b, ",\n%s  \"tritonc\": ", indent);
    json_put_str(b, d->tritonc ? d->tritonc : TRITONC_VERSION);
    buf_printf(b, ",\n%s  \"measured_at\": ", indent);
    json_put_str(b, d->at);
    buf_printf(b, ",\n%s  \"key\": ", indent);
    json_put_str(b, d->key);
    if (d->has_cfg_hash) buf_printf(b, ",\n%s  \"configs_hash\": \"%016llx\"", indent, (unsigned long long)d->cfg_hash);
    buf_printf(b, ",\n%s  \"best\": {\"kwargs\": {", indent);
    for (int i = 0; i < d->best.nkw; i++) {
        if (i) buf_puts(b, ", ");
        json_put_str(b, d->best.names[i]);
        buf_puts(b, ": ");
        value_json(b, &d->best.vals[i]);
    }
    buf_printf(b, "}, \"num_warps\": %d, \"num_stages\": %d, \"num_ctas\": %d", d->best.num_warps,
               d->best.num_stages, d->best.num_ctas);
    if (d->best.maxnreg) buf_printf(b, ", \"maxnreg\": %d", d->best.maxnreg);
    buf_puts(b, "}");
    buf_printf(b, ",\n%s  \"best_str\": ", indent);
    json_put_str(b, d->best.str);
    buf_printf(b, ",\n%s  \"tune_seconds\": ", indent);
    json_put_num(b, d->tune_s);
    buf_printf(b, ",\n%s  \"timings\": [", indent);
    for (int i = 0; i < d->nres; i++) {
        const tc_tune_result *r = &d->res[i];
        buf_printf(b, "%s\n%s    {\"config\": ", i ? "," : "", indent);
        json_put_str(b, r->config);
        if (r->status) {
            buf_puts(b, ", \"skipped\": ");
            json_put_str(b, r->reason);
        } else {
            buf_puts(b, ", \"ms\": [");
            json_put_num(b, r->ms); buf_puts(b, ", ");
            json_put_num(b, r->p20_ms); buf_puts(b, ", ");
            json_put_num(b, r->p80_ms);
            buf_puts(b, "]");
        }
        buf_puts(b, "}");
    }
    buf_printf(b, "%s]\n%s}", d->nres ? "\n" : "", indent);
}

char *tdb_json(const DbEntry *e, int n) {
    Buf b = {0};
    buf_puts(&b, "{\n  \"format\": \"tritonc-tuning-db\",\n  \"version\": 1,\n  \"entries\": [");
    for (int i = 0; i < n; i++) {
        buf_puts(&b, i ? ",\n" : "\n");
        entry_json(&b, &e[i], "    ");
    }
    buf_puts(&b, n ? "\n  ]\n}\n" : "]\n}\n");
    if (b.oom) { buf_free(&b); return NULL; }
    return b.s;
}

static bool jstr_field(const JV *o, const char *k, bool required, char **out, char *msg, size_t n,
                       const char *where) {
    const JV *v = json_get(o, k);
    if (!v) {
        if (!required) return true;
        snprintf(msg, n, "%s: missing \"%s\"", where, k);
        return false;
    }
    if (v->kind != J_STR || strlen(v->s) > 1000) {
        snprintf(msg, n, "%s: \"%s\" must be a string (at most 1000 bytes)", where, k);
        return false;
    }
    *out = strdup(v->s);
    if (!*out) { snprintf(msg, n, "out of memory"); return false; }
    return true;
}

static bool jint_field(const JV *o, const char *k, int lo, int hi, int *out, char *msg, size_t n,
                       const char *where) {
    const JV *v = json_get(o, k);
    if (!v) return true;
    if (v->kind != J_NUM || !v->isint || v->i < lo || v->i > hi) {
        snprintf(msg, n, "%s: \"%s\" must be an integer in [%d, %d]", where, k, lo, hi);
        return false;
    }
    *out = (int)v->i;
    return true;
}

/* One entry from its JSON object; false with msg. */
static bool entry_from_json(const JV *o, DbEntry *d, char *msg, size_t n, const char *where) {
    memset(d, 0, sizeof *d);
    if (o->kind != J_OBJ) { snprintf(msg, n, "%s: not an object", where); return false; }
    if (!jstr_field(o, "kernel", true, &d->kernel, msg, n, where) ||
        !jstr_field(o, "source_hash", false, &d->source_hash, msg, n, where) ||
        !jstr_field(o, "device", true, &d->device, msg, n, where) ||
        !jstr_field(o, "tritonc", false, &d->tritonc, msg, n, where) ||
        !jstr_field(o, "measured_at", true, &d->at, msg, n, where) ||
        !jstr_field(o, "key", true, &d->key, msg, n, where))
        return false;
    const JV *cc = json_get(o, "capability");
    if (cc) {
        if (cc->kind != J_ARR || cc->n != 2 || cc->items[0].kind != J_NUM || !cc->items[0].isint ||
            cc->items[1].kind != J_NUM || !cc->items[1].isint || cc->items[0].i < 0 ||
            cc->items[0].i > 100 || cc->items[1].i < 0 || cc->items[1].i > 100) {
            snprintf(msg, n, "%s: \"capability\" must be [major, minor]", where);
            return false;
        }
        d->ccM = (int)cc->items[0].i;
        d->ccm = (int)cc->items[1].i;
    }
    const JV *ch = json_get(o, "configs_hash");
    if (ch) {
        char *end;
        if (ch->kind != J_STR || strlen(ch->s) != 16) { snprintf(msg, n, "%s: bad \"configs_hash\"", where); return false; }
        d->cfg_hash = strtoull(ch->s, &end, 16);
        if (*end) { snprintf(msg, n, "%s: bad \"configs_hash\"", where); return false; }
        d->has_cfg_hash = true;
    }
    const JV *ts = json_get(o, "tune_seconds");
    if (ts && ts->kind == J_NUM && ts->num >= 0 && ts->num < 1e9) d->tune_s = ts->num;
    const JV *best = json_get(o, "best");
    char w2[300];
    tfmt(w2, sizeof w2, "%s.best", where);
    if (!best || best->kind != J_OBJ) { snprintf(msg, n, "%s: missing \"best\" (an object)", where); return false; }
    TConfig *c = &d->best;
    c->num_warps = 4; c->num_stages = 3; c->num_ctas = 1;
    if (!jint_field(best, "num_warps", 1, 64, &c->num_warps, msg, n, w2) ||
        !jint_field(best, "num_stages", 1, 64, &c->num_stages, msg, n, w2) ||
        !jint_field(best, "num_ctas", 1, 16, &c->num_ctas, msg, n, w2) ||
        !jint_field(best, "maxnreg", 0, 255, &c->maxnreg, msg, n, w2))
        return false;
    if (c->num_warps & (c->num_warps - 1)) { snprintf(msg, n, "%s: num_warps must be a power of 2", w2); return false; }
    const JV *kw = json_get(best, "kwargs");
    if (kw) {
        if (kw->kind != J_OBJ || kw->n > TUNE_MAX_KW) { snprintf(msg, n, "%s: \"kwargs\" must be an object of at most %d values", w2, TUNE_MAX_KW); return false; }
        for (int i = 0; i < kw->n; i++) {
            const JV *v = &kw->items[i];
            tc_value x;
            if (v->kind == J_NUM) x = v->isint ? tc_int(v->i) : tc_float(v->num);
            else if (v->kind == J_BOOL) x = tc_bool(v->b);
            else if (v->kind == J_STR) x = tc_str(v->s);
            else if (v->kind == J_NULL) x = tc_none();
            else { snprintf(msg, n, "%s.kwargs.%s: must be a number, bool, string or null", w2, kw->keys[i]); return false; }
            if (strlen(kw->keys[i]) > 200) { snprintf(msg, n, "%s.kwargs: name too long", w2); return false; }
            if (!tconfig_add(c, kw->keys[i], x)) { snprintf(msg, n, "out of memory"); return false; }
        }
    }
    tconfig_format(c);
    const JV *tm = json_get(o, "timings");
    if (tm) {
        if (tm->kind != J_ARR || tm->n > TUNE_MAX_CONFIGS) { snprintf(msg, n, "%s: \"timings\" must be a list of at most %d", where, TUNE_MAX_CONFIGS); return false; }
        d->res = calloc(tm->n ? (size_t)tm->n : 1, sizeof *d->res);
        if (!d->res) { snprintf(msg, n, "out of memory"); return false; }
        for (int i = 0; i < tm->n; i++) {
            const JV *r = &tm->items[i];
            const JV *cs = json_get(r, "config"), *ms = json_get(r, "ms"), *sk = json_get(r, "skipped");
            tc_tune_result *x = &d->res[d->nres];
            if (!cs || cs->kind != J_STR) { snprintf(msg, n, "%s.timings[%d]: missing \"config\"", where, i); return false; }
            cpy(x->config, sizeof x->config, cs->s);
            if (sk && sk->kind == J_STR) { x->status = TC_ERR_RESOURCES; cpy(x->reason, sizeof x->reason, sk->s); }
            else if (ms && ms->kind == J_ARR && ms->n == 3 && ms->items[0].kind == J_NUM &&
                     ms->items[1].kind == J_NUM && ms->items[2].kind == J_NUM &&
                     isfinite(ms->items[0].num) && isfinite(ms->items[1].num) && isfinite(ms->items[2].num)) {
                x->ms = ms->items[0].num; x->p20_ms = ms->items[1].num; x->p80_ms = ms->items[2].num;
            } else { snprintf(msg, n, "%s.timings[%d]: needs \"ms\": [median, p20, p80] or \"skipped\"", where, i); return false; }
            d->nres++;
        }
    }
    return true;
}

/* Parses a database file's text into entries (malloc'd); -1 on failure, with the message in msg and, when code is not NULL, the status: the JSON
 * reader's own (TC_ERR_LIMIT for a file too large), TC_ERR_SYNTAX for a wrong structure. */
int tdb_parse(const char *name, const char *text, size_t len, DbEntry **out, char *msg,
                    size_t n, tc_status *code) {
    if (code) *code = TC_ERR_SYNTAX;
    Err e = {0};
    Arena a;
    arena_init(&a, &e);
    a.limit = (size_t)256 << 20;   /* a hostile file of tiny items cannot take more */
    JV root;
    *out = NULL;
    if (!json_parse(name, text, len, &a, &e, &root)) {
        const char *m = e.msg;
        if (!strncmp(m, "error: ", 7)) m += 7;
        snprintf(msg, n, "%s", m);
        if (code && e.code == TC_ERR_LIMIT) *code = TC_ERR_LIMIT;
        arena_free(&a);
        return -1;
    }
    int count = -1;
    const JV *fmt = json_get(&root, "format"), *ver = json_get(&root, "version"), *ents = json_get(&root, "entries");
    if (root.kind != J_OBJ || !fmt || fmt->kind != J_STR || strcmp(fmt->s, "tritonc-tuning-db") != 0) {
        snprintf(msg, n, "%s: not a tritonc tuning database (expected {\"format\": \"tritonc-tuning-db\", ...})", name);
    } else if (!ver || ver->kind != J_NUM || !ver->isint || ver->i != 1) {
        snprintf(msg, n, "%s: unsupported tuning database version (this tritonc reads version 1)", name);
    } else if (!ents || ents->kind != J_ARR) {
        snprintf(msg, n, "%s: \"entries\" must be a list", name);
    } else if (ents->n > 100000) {
        snprintf(msg, n, "%s: more than 100000 entries", name);
    } else {
        DbEntry *d = calloc(ents->n ? (size_t)ents->n : 1, sizeof *d);
        if (!d) snprintf(msg, n, "out of memory");
        else {
            count = 0;
            for (int i = 0; i < ents->n; i++) {
                char where[300];
                snprintf(where, sizeof where, "%s: entries[%d]", name, i);
                if (!entry_from_json(&ents->items[i], &d[count], msg, n, where)) {
                    tdb_entry_free(&d[count]);
                    for (int j = 0; j < count; j++) tdb_entry_free(&d[j]);
                    free(d);
                    d = NULL;
                    count = -1;
                    break;
                }
                count++;
            }
            *out = d;
        }
    }
    arena_free(&a);
    return count;
}

int tune_db_check(const char *name, const char *text, size_t len, char *msg, size_t n) {
    DbEntry *d = NULL;
    int c = tdb_parse(name, text, len, &d, msg, n, NULL);
    for (int i = 0; i < c; i++) tdb_entry_free(&d[i]);
    free(d);
    return c;
}

/* A file the user named is read through symlinks; a FIFO or device is refused, never
 * waited on. */
char *tdb_read(const char *path, size_t *len, char *msg, size_t n) {
    int fd = open_regular(AT_FDCWD, path, false, NULL, msg, n);
    if (fd < 0) return NULL;
    char *s = read_fd(fd, JSON_MAX_BYTES, len);
    close(fd);
    if (!s) snprintf(msg, n, "%s: read error", path);
    return s;
}

/* The same (kernel, source, device, key, configs) replaces an older entry; the entries are
 * found through a hash index, as a linear search per entry made loading quadratic. */
static bool same_entry(const DbEntry *o, const DbEntry *d) {
    return !strcmp(o->kernel, d->kernel) && !strcmp(o->device, d->device) && !strcmp(o->key, d->key) &&
           o->ccM == d->ccM && o->ccm == d->ccm &&
           !strcmp(o->source_hash ? o->source_hash : "", d->source_hash ? d->source_hash : "") &&
           o->has_cfg_hash == d->has_cfg_hash && o->cfg_hash == d->cfg_hash;
}

static uint64_t entry_hash(const DbEntry *d) {
    const char *sh = d->source_hash ? d->source_hash : "";
    uint64_t h = hash_bytes(d->kernel, strlen(d->kernel) + 1, 0x746462);
    h = hash_bytes(d->device, strlen(d->device) + 1, h);
    h = hash_bytes(d->key, strlen(d->key) + 1, h);
    h = hash_bytes(sh, strlen(sh) + 1, h);
    int cc[3] = {d->ccM, d->ccm, d->has_cfg_hash};
    h = hash_bytes(cc, sizeof cc, h);
    return hash_bytes(&d->cfg_hash, sizeof d->cfg_hash, h);
}

/* The slot of d's twin in the index, or the empty slot where d goes. */
static size_t index_slot(const TuneContext *t, const DbEntry *d) {
    size_t mask = t->nslot - 1, i = (size_t)entry_hash(d) & mask;
    while (t->slot[i] && !same_entry(&t->db[t->slot[i] - 1], d)) i = (i + 1) & mask;
    return i;
}

/* Keeps the index at most half full; false when out of memory. */
static bool index_reserve(TuneContext *t, int n) {
    if ((size_t)n * 2 <= t->nslot) return true;
    size_t ns = t->nslot ? t->nslot : 64;
    while ((size_t)n * 2 > ns) ns *= 2;
    unsigned *old = t->slot;
    t->slot = calloc(ns, sizeof *t->slot);
    if (!t->slot) { t->slot = old; return false; }
    free(old);
    t->nslot = ns;
    for (int i = 0; i < t->ndb; i++) t->slot[index_slot(t, &t->db[i])] = (unsigned)i + 1;
    return true;
}

bool tdb_add(TuneContext *t, DbEntry *d) {
    if (!index_reserve(t, t->ndb + 1)) return false;
    size_t s = index_slot(t, d);
    if (t->slot[s]) {
        DbEntry *o = &t->db[t->slot[s] - 1];
        tdb_entry_free(o);
        *o = *d;
        return true;
    }
    if (t->ndb == t->capdb) {
        int nc = t->capdb ? t->capdb * 2 : 8;
        DbEntry *n = realloc(t->db, sizeof *n * (size_t)nc);
        if (!n) return false;
        t->db = n;
        t->capdb = nc;
    }
    t->db[t->ndb++] = *d;
    t->slot[s] = (unsigned)t->ndb;
    return true;
}

tc_status tc_tuning_db_load(tc_context *ctx, const char *path) {
    if (!ctx) return TC_ERR_ARG;
    if (!path) return ctx_fail(ctx, TC_ERR_ARG, "tc_tuning_db_load: NULL path");
    TuneContext *t = tune_ctx(ctx);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    char msg[1024];
    size_t len;
    char *text = tdb_read(path, &len, msg, sizeof msg);
    if (!text) return ctx_fail(ctx, TC_ERR_IO, "cannot read the tuning database %s", msg);
    DbEntry *d = NULL;
    tc_status why;
    int n = tdb_parse(path, text, len, &d, msg, sizeof msg, &why);
    free(text);
    if (n < 0) return ctx_fail(ctx, why, "%s", msg);
    for (int i = 0; i < n; i++) {
        d[i].origin = strdup(path);
        if (!d[i].origin || !tdb_add(t, &d[i])) {
            for (int j = i; j < n; j++) tdb_entry_free(&d[j]);
            free(d);
            return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
        }
    }
    free(d);
    return TC_OK;
}

tc_status tc_tuning_db_save(tc_context *ctx, const char *path) {
    if (!ctx) return TC_ERR_ARG;
    if (!path) return ctx_fail(ctx, TC_ERR_ARG, "tc_tuning_db_save: NULL path");
    TuneContext *t = tune_ctx(ctx);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    char *s = tdb_json(t->db, t->ndb);
    if (!s) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    char msg[1024];
    /* an export is the user's file: the mode fopen would give it */
    bool ok = write_file_atomic(path, s, strlen(s), 0666, true, msg, sizeof msg);
    free(s);
    if (!ok) return ctx_fail(ctx, TC_ERR_IO, "cannot write the tuning database %s", msg);
    return TC_OK;
}

tc_status tc_tuning_cache_dir(char *buf, size_t n) {
    if (!buf || n < 2) return TC_ERR_ARG;
    char d[4096];
    if (tc_cache_dir(d, sizeof d) != TC_OK) { buf[0] = 0; return TC_ERR_NOT_FOUND; }
    if ((size_t)snprintf(buf, n, "%s/tune", d) >= n) { buf[0] = 0; return TC_ERR_LIMIT; }
    return TC_OK;
}

/* Folders it creates are the user's alone (0700): the tuning cache is read back. */
static void mkdirs(const char *path) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(tmp, 0700);
        *p = '/';
    }
    mkdir(tmp, 0700);
}

/* ---- the on-disk tuning cache: one file per tuning ------------------------------------------- */

/* The on-disk cache file of a tuning (device, cc, version, source, key, configs). */
bool tdb_disk_path(const tc_kernel *k, const TuneKernel *t, const char *device, int ccM, int ccm,
                   const char *key, char *buf, size_t n) {
    char dir[4096];
    if (tc_tuning_cache_dir(dir, sizeof dir) != TC_OK) return false;
    uint64_t h = hash_bytes(device, strlen(device), 0x74756e65);
    int cc[2] = {ccM, ccm};
    h = hash_bytes(cc, sizeof cc, h);
    h = hash_bytes(TRITONC_VERSION, strlen(TRITONC_VERSION), h);
    h = hash_bytes(&k->m->hash, sizeof k->m->hash, h);
    h = hash_bytes(k->fn->name, strlen(k->fn->name), h);
    h = hash_bytes(key, strlen(key), h);
    h = hash_bytes(&t->cfg_hash, sizeof t->cfg_hash, h);
    char name[80];
    snprintf(name, sizeof name, "%.48s", k->fn->name);
    return (size_t)snprintf(buf, n, "%s/%s-%016llx.json", dir, name, (unsigned long long)h) < n;
}

/* Why a file or folder of the tuning cache must not be trusted, or NULL: another user's (or
 * a group's) write access would let them choose this user's configs. */
static const char *untrusted(const struct stat *st, char *buf, size_t n) {
    if (st->st_uid != geteuid()) {
        snprintf(buf, n, "not owned by this user (uid %ld, owner %ld)", (long)geteuid(), (long)st->st_uid);
        return buf;
    }
    if (st->st_mode & (S_IWGRP | S_IWOTH)) {
        snprintf(buf, n, "writable by others (mode %04o)", (unsigned)(st->st_mode & 07777));
        return buf;
    }
    return NULL;
}

bool tdb_disk_usable(char *why, size_t nwhy) {
    char dir[4096], r[100];
    if (tc_tuning_cache_dir(dir, sizeof dir) != TC_OK) return false;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return true;
        tfmt(why, nwhy, "tuning cache %s not used: %s", dir,
             errno == ELOOP || errno == ENOTDIR ? "not a folder (or a symbolic link)" : strerror(errno));
        return false;
    }
    struct stat st;
    bool ok = fstat(fd, &st) == 0;
    close(fd);
    const char *bad = ok ? untrusted(&st, r, sizeof r) : "cannot stat it";
    if (bad) tfmt(why, nwhy, "tuning cache %s not used: %s", dir, bad);
    return !bad;
}

bool tdb_disk_lookup(const char *path, const tc_kernel *k, const TuneKernel *t, const char *device,
                     int ccM, int ccm, const char *key, DbEntry *out, int *best, char *why, size_t nwhy) {
    char msg[512], sh[32], r[100];
    size_t len;
    src_hash_hex(k, sh, sizeof sh);
    struct stat st;
    int fd = open_regular(AT_FDCWD, path, true, &st, msg, sizeof msg);
    if (fd < 0) {
        if (errno != ENOENT) tfmt(why, nwhy, "tuning cache file ignored: %s", msg);
        return false;
    }
    const char *bad = untrusted(&st, r, sizeof r);
    char *text = bad ? NULL : read_fd(fd, JSON_MAX_BYTES, &len);
    close(fd);
    if (bad) tfmt(why, nwhy, "tuning cache file %s ignored: %s", path, bad);
    if (!text) return false;
    DbEntry *de = NULL;
    int n = tdb_parse(path, text, len, &de, msg, sizeof msg, NULL);
    free(text);
    int bi = -1;
    if (n == 1 && !strcmp(de[0].kernel, k->fn->name) && !strcmp(de[0].device, device) &&
        de[0].ccM == ccM && de[0].ccm == ccm && !strcmp(de[0].key, key) &&
        de[0].source_hash && !strcmp(de[0].source_hash, sh) && de[0].has_cfg_hash &&
        de[0].cfg_hash == t->cfg_hash && de[0].tritonc && !strcmp(de[0].tritonc, TRITONC_VERSION) &&
        (bi = tconfig_find(t, &de[0].best)) >= 0) {
        *out = de[0];
        *best = bi;
        free(de);
        return true;
    }
    for (int i = 0; i < n; i++) tdb_entry_free(&de[i]);
    free(de);
    return false;
}

bool tdb_disk_store(const char *path, const DbEntry *d) {
    char *s = tdb_json(d, 1);
    char msg[512], dir[4096];
    bool ok = false;
    if (s && tc_tuning_cache_dir(dir, sizeof dir) == TC_OK) {
        mkdirs(dir);
        ok = write_file_atomic(path, s, strlen(s), 0600, false, msg, sizeof msg);
    }
    free(s);
    return ok;
}

/* A database entry for this kernel and key: on a GPU only one measured on the same device. */
const DbEntry *tdb_find(tc_context *ctx, const tc_kernel *k, const TuneKernel *t, const char *key,
                        const char *device, int ccM, int ccm, int *best, char *why, size_t nwhy) {
    TuneContext *tc = ctx->tune;
    if (!tc) return NULL;
    char sh[32];
    src_hash_hex(k, sh, sizeof sh);
    int stale = 0, other_dev = 0, not_listed = 0, same_kernel = 0;
    for (int i = tc->ndb - 1; i >= 0; i--) {
        const DbEntry *d = &tc->db[i];
        if (strcmp(d->kernel, k->fn->name)) continue;
        same_kernel++;
        if (strcmp(d->key, key)) continue;
        if (d->source_hash && strcmp(d->source_hash, sh)) { stale++; continue; }
        if (device && (strcmp(d->device, device) || d->ccM != ccM || d->ccm != ccm)) { other_dev++; continue; }
        int b = tconfig_find(t, &d->best);
        if (b < 0) { not_listed++; continue; }
        *best = b;
        return d;
    }
    if (why && nwhy) {
        if (!same_kernel) snprintf(why, nwhy, "it has no entry for %s", k->fn->name);
        else if (stale) snprintf(why, nwhy, "its entries for %s with key %s were measured on a different "
                                 "version of the kernel's source", k->fn->name, key);
        else if (not_listed) snprintf(why, nwhy, "its best config for %s with key %s is not one of the "
                                      "kernel's configs", k->fn->name, key);
        else if (other_dev) snprintf(why, nwhy, "its entries for %s with key %s were measured on another device",
                                     k->fn->name, key);
        else snprintf(why, nwhy, "it has no entry for %s with key %s", k->fn->name, key);
    }
    return NULL;
}
