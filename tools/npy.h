/* npy.h — numpy .npy files (format 1.0 written; 1.0, 2.0 and 3.0 read), little-endian,
 * C order. bf16 has no numpy dtype: it is written as '<u2' (the raw bits). */
#ifndef NPY_H
#define NPY_H

#include <stddef.h>
#include <stdint.h>

#include "tritonc.h"

/* Largest array read: 1 << 34 bytes (16 GiB); largest header: 1 MiB. */
#define NPY_MAX_BYTES ((uint64_t)1 << 34)
#define NPY_MAX_HEADER (1 << 20)

/* The descr numpy uses for a dtype ("<f4"); bf16 -> "<u2", the fp8 types -> "<u1". */
const char *npy_descr(tc_dtype dt);
/* Writes an array (tc_write_file: a failure leaves the old file whole). Returns 0, or -1
 * with a message in err. */
int npy_write(tc_context *ctx, const char *path, tc_dtype dt, int rank, const int64_t *shape,
              const void *data, char *err, size_t errn);
/* Serializes an array into a malloc'd buffer (header + data). */
int npy_encode(tc_dtype dt, int rank, const int64_t *shape, const void *data, unsigned char **out,
               size_t *outn, char *err, size_t errn);
/* Reads an array: *data is malloc'd (free()). Returns 0, or -1 with a message in err. */
int npy_read(const char *path, tc_dtype *dt, int *rank, int64_t shape[TC_MAX_RANK], void **data,
             size_t *nbytes, char *err, size_t errn);
/* Parses an in-memory .npy image (never reads past n bytes). */
int npy_decode(const unsigned char *buf, size_t n, tc_dtype *dt, int *rank,
               int64_t shape[TC_MAX_RANK], void **data, size_t *nbytes, char *err, size_t errn);

#endif
