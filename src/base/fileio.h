/* fileio.h — files written and read without the traps of plain fopen: a write that never
 * follows a planted symlink, never shares its temporary file with another writer and is
 * never seen half done; a read that never blocks on a FIFO (fileio.c). */
#ifndef FILEIO_H
#define FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* n bytes from the kernel's random source (getrandom, else /dev/urandom); false if none. */
bool random_bytes(void *buf, size_t n);

/* Replaces path with n bytes, atomically: a new file beside it under an unpredictable name
 * (open O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600), written, given mode (less the umask when
 * mode_umask), fsync'd and renamed over path; then its folder is fsync'd. A symlink at path
 * is replaced, not followed. False with why ("path: reason") when it could not. */
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

#endif
