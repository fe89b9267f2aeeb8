/* file.c — replacing a file atomically: a new temporary file of a random name in the same
 * directory (O_EXCL, O_NOFOLLOW), written, fsynced and renamed over the old one, so that a
 * failure (a full disk, a file size limit, a crash) leaves the old file whole and no
 * temporary file behind. The disk cache's entries, the tuning database and every file the
 * library and the command write (tc_write_file) go through here; reads of files others may
 * have planted (open_regular) never block on a FIFO. */
#include "base/file.h"
#include "base/context.h"

#include <stdarg.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static bool fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *why, size_t n, const char *fmt, ...) {
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool random_bytes(void *buf, size_t n) {
    unsigned char *p = buf;
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(p + got, n - got, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (got == n) return true;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOFOLLOW);   /* kernels before 3.17 */
    if (fd < 0) return false;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    return got == n;
}

uint64_t random_u64(void) {
    uint64_t r;
    if (random_bytes(&r, sizeof r)) return r;
    static atomic_uint counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned c = atomic_fetch_add(&counter, 1u);
    return hash_bytes(&ts, sizeof ts, ((uint64_t)getpid() << 32) ^ c ^ (uint64_t)(uintptr_t)&ts);
}

int file_replace_at(int dfd, const char *name, const char *tmp, int mode, const void *p,
                    size_t n) {
    int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    mode >= 0 ? (mode_t)mode : 0666);
    if (fd < 0) return -1;
    int err = 0;
    if (mode >= 0 && fchmod(fd, (mode_t)mode) != 0) err = errno;
    const unsigned char *b = p;
    for (size_t off = 0; !err && off < n;) {
        ssize_t w = write(fd, b + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) err = w < 0 ? errno : EIO;
        else off += (size_t)w;
    }
    if (!err && fsync(fd) != 0) err = errno;
    if (close(fd) != 0 && !err) err = errno;
    if (!err && renameat(dfd, tmp, dfd, name) != 0) err = errno;
    if (err) {
        unlinkat(dfd, tmp, 0);
        errno = err;
        return -1;
    }
    fsync(dfd);
    return 0;
}

/* Writes to a file that is not a regular file (a device, a FIFO) in place. */
static int write_in_place(const char *path, const void *p, size_t n) {
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) return -1;
    const unsigned char *b = p;
    int err = 0;
    for (size_t off = 0; !err && off < n;) {
        ssize_t w = write(fd, b + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) err = w < 0 ? errno : EIO;
        else off += (size_t)w;
    }
    if (close(fd) != 0 && !err) err = errno;
    errno = err;
    return err ? -1 : 0;
}

int file_replace(const char *path, const void *p, size_t n, char *why, size_t whyn) {
    char real[PATH_MAX], dir[PATH_MAX];
    struct stat st;
    const char *target = path;
    /* a link is followed: the file it names is replaced, not the link */
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, real)) target = real;
    bool exists = stat(target, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        snprintf(why, whyn, "cannot write %s: %s", path, strerror(EISDIR));
        return -1;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        if (write_in_place(target, p, n) == 0) return 0;
        snprintf(why, whyn, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    size_t len = strlen(target);
    if (len == 0 || len >= sizeof dir) {
        snprintf(why, whyn, "cannot write %s: %s", path, strerror(len ? ENAMETOOLONG : ENOENT));
        return -1;
    }
    memcpy(dir, target, len + 1);
    char *slash = strrchr(dir, '/');
    const char *name = target;
    if (slash) {
        name = target + (slash - dir) + 1;
        if (slash == dir) slash[1] = 0;
        else *slash = 0;
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    if (!*name) {
        snprintf(why, whyn, "cannot write %s: %s", path, strerror(EISDIR));
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        snprintf(why, whyn, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    char tmp[64];
    int r = -1;
    for (int tries = 0; r != 0 && tries < 4; tries++) {
        snprintf(tmp, sizeof tmp, ".tritonc-%016llx.tmp", (unsigned long long)random_u64());
        r = file_replace_at(dfd, name, tmp, exists ? (int)(st.st_mode & 07777) : -1, p, n);
        if (r != 0 && errno != EEXIST) break;
    }
    int err = errno;
    close(dfd);
    if (r != 0) snprintf(why, whyn, "cannot write %s: %s", path, strerror(err));
    return r;
}

tc_status tc_write_file(tc_context *ctx, const char *path, const void *data, size_t n) {
    if (!ctx) return TC_ERR_ARG;
    if (!path || (!data && n)) return ctx_fail(ctx, TC_ERR_ARG, "tc_write_file: NULL argument");
    char why[PATH_MAX + 200];
    if (file_replace(path, data ? data : "", n, why, sizeof why) != 0)
        return ctx_fail(ctx, TC_ERR_IO, "%s", why);
    return TC_OK;
}

bool write_file_atomic(const char *path, const void *bytes, size_t n, mode_t mode, bool mode_umask,
                       char *why, size_t nwhy) {
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    if (!*name || strlen(path) >= sizeof dir) return fail(why, nwhy, "%s: %s", path, strerror(ENAMETOOLONG));
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return fail(why, nwhy, "%s: %s", path, strerror(errno));
    char tmp[NAME_MAX + 1];
    int r = -1;
    /* O_EXCL|O_NOFOLLOW: a name that exists, symlink or not, is never opened; try another */
    for (int tries = 0; r != 0 && tries < 16; tries++) {
        uint64_t x;
        if (!random_bytes(&x, sizeof x)) { errno = EIO; break; }
        snprintf(tmp, sizeof tmp, "%.200s.tmp.%016llx", name, (unsigned long long)x);
        r = file_replace_at(dfd, name, tmp, mode_umask ? -1 : (int)(mode & 0777), bytes, n);
        if (r != 0 && errno != EEXIST) break;
    }
    int err = errno;
    close(dfd);
    if (r != 0)
        return fail(why, nwhy, "%s: %s", path, err == EIO ? "no random source for a temporary name" : strerror(err));
    return true;
}

static const char *kind_of(mode_t m) {
    return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
         : S_ISSOCK(m) ? "a socket" : "something else";
}

int open_regular(int dirfd, const char *path, bool nofollow, struct stat *st, char *why, size_t nwhy) {
    int fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
    if (fd < 0) {
        int e = errno;
        fail(why, nwhy, "%s: %s", path, nofollow && e == ELOOP ? "a symbolic link (not followed)" : strerror(e));
        errno = e;
        return -1;
    }
    struct stat s;
    if (fstat(fd, &s) != 0) {
        int e = errno;
        close(fd);
        fail(why, nwhy, "%s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    if (!S_ISREG(s.st_mode)) {
        close(fd);
        fail(why, nwhy, "%s: not a regular file (%s)", path, kind_of(s.st_mode));
        errno = EINVAL;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        fail(why, nwhy, "%s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    if (st) *st = s;
    return fd;
}

char *read_fd(int fd, size_t max, size_t *len) {
    size_t cap = 65536, got = 0;
    char *b = malloc(cap + 1);
    if (!b) return NULL;
    while (got <= max) {
        if (got == cap) {
            size_t nc = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(b, nc + 1);
            if (!nb) { free(b); return NULL; }
            b = nb;
            cap = nc;
        }
        ssize_t r = read(fd, b + got, cap - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) { free(b); return NULL; }
        if (r == 0) break;
        got += (size_t)r;
    }
    b[got] = 0;
    *len = got;
    return b;
}
