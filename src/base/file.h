/* file.h — files written and read without the traps of plain fopen (file.c): a write that
 * never follows a planted symlink, never shares its temporary file with another writer and
 * is never seen half done, so a failure leaves the old file whole; a read that never
 * blocks on a FIFO. */
#ifndef FILE_H
#define FILE_H

#include "base/tc.h"

#include <sys/stat.h>

/* n bytes from the kernel's random source (getrandom, else /dev/urandom); false if none. */
bool random_bytes(void *buf, size_t n);
/* 64 random bits: random_bytes, else the time, the pid and a counter (names, not keys). */
uint64_t random_u64(void);

/* Replaces path with n bytes, atomically, through file_replace_at under an unpredictable
 * name beside it: mode exactly, or 0666 less the umask when mode_umask. A symlink at path
 * is replaced, not followed (the tuning cache). False with why ("path: reason"). */
bool write_file_atomic(const char *path, const void *bytes, size_t n, mode_t mode, bool mode_umask,
                       char *why, size_t nwhy);

/* Opens path (relative to dirfd, or AT_FDCWD) for reading when it is a regular file: opened
 * O_NONBLOCK so that a FIFO cannot block, refused unless fstat says regular, then made
 * blocking again. nofollow: a symlink as the last component is refused too. st (may be
 * NULL) gets its fstat. -1 with why ("path: reason") otherwise. */
int open_regular(int dirfd, const char *path, bool nofollow, struct stat *st, char *why, size_t nwhy);

/* Reads fd to its end, at most max + 1 bytes (so that a larger file is seen as such); a
 * malloc'd buffer with a NUL after the *len bytes, or NULL (read error, out of memory). */
char *read_fd(int fd, size_t max, size_t *len);

/* Replaces `name` in the directory dfd by n bytes at p: written to the new file `tmp`
 * (created O_EXCL|O_NOFOLLOW with mode, or 0666 less the umask when mode < 0), fsynced,
 * renamed over `name`. On failure tmp is removed, `name` is as it was, and -1 is returned
 * with errno set. */
int file_replace_at(int dfd, const char *name, const char *tmp, int mode, const void *p,
                    size_t n);
/* The same for a path, through a temporary file of a random name beside it; the old file's
 * mode is kept, a link is followed, a device or FIFO is written in place. -1 with why. */
int file_replace(const char *path, const void *p, size_t n, char *why, size_t whyn);

#endif
