/* fileio.c — writing a file atomically and reading one safely (fileio.h).
 *
 * A write goes to a temporary file beside the target, never to a name another process can
 * predict: PATH.tmp.PID (the old scheme) let anyone who can write the folder plant a
 * symlink there and have us overwrite what it points to, and two threads of one process
 * shared the name, so that a reader could see an empty or half-written file. */
#include "base/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
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

/* The process's umask, read without setting it (umask() would race with other threads);
 * 077 when /proc does not say. */
static mode_t current_umask(void) {
    mode_t m = 077;
    FILE *f = fopen("/proc/self/status", "re");
    if (!f) return m;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        unsigned v;
        if (sscanf(line, "Umask: %o", &v) == 1) { m = (mode_t)v & 0777; break; }
    }
    fclose(f);
    return m;
}

static void fsync_folder_of(const char *path) {
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) < sizeof dir) snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) { fsync(fd); close(fd); }
}

bool write_file_atomic(const char *path, const void *bytes, size_t n, mode_t mode, bool mode_umask,
                       char *why, size_t nwhy) {
    size_t cap = strlen(path) + 40;
    char *tmp = malloc(cap);
    if (!tmp) return fail(why, nwhy, "%s: out of memory", path);
    int fd = -1, err = 0;
    /* O_EXCL|O_NOFOLLOW: a name that exists, symlink or not, is never opened; try another */
    for (int tries = 0; fd < 0 && tries < 16; tries++) {
        uint64_t r;
        if (!random_bytes(&r, sizeof r)) { err = EIO; break; }
        snprintf(tmp, cap, "%s.tmp.%016llx", path, (unsigned long long)r);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        err = fd < 0 ? errno : 0;
        if (fd < 0 && err != EEXIST) break;
    }
    if (fd < 0) {
        free(tmp);
        return fail(why, nwhy, "%s: %s", path, err == EIO ? "no random source for a temporary name" : strerror(err));
    }
    const unsigned char *p = bytes;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, p + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { err = w < 0 ? errno : EIO; break; }
        off += (size_t)w;
    }
    mode_t m = (mode & 0777) & ~(mode_umask ? current_umask() : 0);
    if (!err && m != 0600 && fchmod(fd, m) != 0) err = errno;
    if (!err && fsync(fd) != 0) err = errno;
    if (close(fd) != 0 && !err) err = errno;
    if (!err && rename(tmp, path) != 0) err = errno;
    if (err) {
        unlink(tmp);
        free(tmp);
        return fail(why, nwhy, "%s: %s", path, strerror(err));
    }
    free(tmp);
    fsync_folder_of(path);
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
