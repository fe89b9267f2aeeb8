/* tensor.c — tensors: memory on the backend in use (host memory under the interpreter,
 * device memory under CUDA) with a dtype and a shape, and copies in and out. */
#include "runtime/jit.h"
#include "driver/cuda.h"
#include "interp/interp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tc_status tensor_alloc(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                              bool zero, tc_tensor **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!out) return ctx_fail(ctx, TC_ERR_ARG, "tensor: NULL output pointer");
    *out = NULL;
    if (!tc_dtype_name(dt)) return ctx_fail(ctx, TC_ERR_ARG, "tensor: invalid dtype %d", (int)dt);
    if (rank < 0 || rank > TC_MAX_RANK)
        return ctx_fail(ctx, TC_ERR_ARG, "tensor: rank %d is outside 0..%d", rank, TC_MAX_RANK);
    if (rank > 0 && !shape) return ctx_fail(ctx, TC_ERR_ARG, "tensor: NULL shape");
    int64_t numel = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] < 0)
            return ctx_fail(ctx, TC_ERR_ARG, "tensor: negative dimension %lld", (long long)shape[i]);
        if (shape[i] > 0 && numel > ((int64_t)1 << 48) / shape[i])
            return ctx_fail(ctx, TC_ERR_LIMIT, "tensor: more than 2^48 elements");
        numel *= shape[i];
    }
    size_t esz = tc_dtype_size(dt);
    size_t nbytes = (size_t)numel * esz;
    tc_backend b;
    tc_status rc = ctx_backend(ctx, &b);
    if (rc) return rc;
    tc_tensor *t = calloc(1, sizeof *t);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    t->ctx = ctx;
    t->backend = b;
    t->dtype = dt;
    t->rank = rank;
    for (int i = 0; i < rank; i++) t->shape[i] = shape[i];
    t->numel = numel;
    t->nbytes = nbytes;
    if (b == TC_BACKEND_CUDA) {
        Err e = {0};
        CuDevPtr p = 0;
        if (cuda_use_device(ctx->device, &e) || cuda_alloc(nbytes ? nbytes : 1, &p, &e) ||
            (zero && cuda_memset0(p, nbytes ? nbytes : 1, &e))) {
            if (p) cuda_free(p);
            free(t);
            return ctx_take(ctx, &e);
        }
        t->dev = p;
        t->device = ctx->device;
    } else {
        size_t alloc = (nbytes + 63) & ~(size_t)63;
        if (alloc == 0) alloc = 64;
        /* 63 spare bytes to align by hand: calloc's large blocks are fresh pages the OS
         * zeroes on first touch, so a zero tensor costs no page faults until it is used
         * (aligned_alloc + memset touched every page up front) */
        t->host_base = zero ? calloc(1, alloc + 63) : malloc(alloc + 63);
        if (!t->host_base) {
            free(t);
            return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory allocating a tensor of %zu bytes",
                            nbytes);
        }
        t->host = (void *)(((uintptr_t)t->host_base + 63) & ~(uintptr_t)63);
        if (!zero) memset((char *)t->host + nbytes, 0, alloc - nbytes);  /* only the padding */
    }
    *out = t;
    return TC_OK;
}

tc_status tc_tensor_new(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                        tc_tensor **out) {
    return tensor_alloc(ctx, dt, rank, shape, true, out);
}

tc_status tc_tensor_from_host(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                              const void *data, tc_tensor **out) {
    if (ctx && !data) return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_from_host: NULL data");
    tc_status rc = tensor_alloc(ctx, dt, rank, shape, false, out);
    if (rc) return rc;
    rc = tc_tensor_copy_from_host(*out, data, (*out)->nbytes);
    if (rc) { tc_tensor_free(*out); *out = NULL; }
    return rc;
}

tc_status tc_tensor_to_host(tc_tensor *t, void *dst, size_t nbytes) {
    if (!t) return TC_ERR_ARG;
    if (!dst) return ctx_fail(t->ctx, TC_ERR_ARG, "tc_tensor_to_host: NULL destination");
    if (nbytes < t->nbytes)
        return ctx_fail(t->ctx, TC_ERR_ARG,
                        "tc_tensor_to_host: destination has %zu bytes, the tensor %zu", nbytes,
                        t->nbytes);
    if (t->nbytes == 0) return TC_OK;
    if (t->backend == TC_BACKEND_CUDA) {
        Err e = {0};
        if (cuda_dtoh(dst, t->dev, t->nbytes, &e)) return ctx_take(t->ctx, &e);
        return TC_OK;
    }
    memcpy(dst, t->host, t->nbytes);
    return TC_OK;
}

tc_status tc_tensor_copy_from_host(tc_tensor *t, const void *src, size_t nbytes) {
    if (!t) return TC_ERR_ARG;
    if (!src) return ctx_fail(t->ctx, TC_ERR_ARG, "tc_tensor_copy_from_host: NULL source");
    if (nbytes < t->nbytes)
        return ctx_fail(t->ctx, TC_ERR_ARG,
                        "tc_tensor_copy_from_host: source has %zu bytes, the tensor %zu", nbytes,
                        t->nbytes);
    if (t->nbytes == 0) return TC_OK;
    if (t->backend == TC_BACKEND_CUDA) {
        Err e = {0};
        if (cuda_htod(t->dev, src, t->nbytes, &e)) return ctx_take(t->ctx, &e);
        return TC_OK;
    }
    memcpy(t->host, src, t->nbytes);
    if (t->uninit) memset(t->uninit, 0, uninit_size(t->nbytes));
    return TC_OK;
}

void tc_tensor_free(tc_tensor *t) {
    if (!t) return;
    if (t->backend == TC_BACKEND_CUDA) {
        if (t->dev) cuda_free(t->dev);
    } else {
        free(t->host_base);
    }
    free(t->uninit);
    free(t->refs);
    free(t);
}

tc_dtype tc_tensor_dtype(const tc_tensor *t) { return t ? t->dtype : (tc_dtype)0; }
int tc_tensor_rank(const tc_tensor *t) { return t ? t->rank : 0; }
const int64_t *tc_tensor_shape(const tc_tensor *t) { return t ? t->shape : NULL; }
int64_t tc_tensor_numel(const tc_tensor *t) { return t ? t->numel : 0; }
size_t tc_tensor_nbytes(const tc_tensor *t) { return t ? t->nbytes : 0; }

void tc_tensor_mark_uninit(tc_tensor *t) {
    if (!t || t->backend == TC_BACKEND_CUDA || t->nbytes == 0) return;
    if (!t->uninit) t->uninit = malloc(uninit_size(t->nbytes));
    if (t->uninit) uninit_set_all(t->uninit, t->nbytes);
}

void *tc_tensor_host_data(tc_tensor *t) {
    return t && t->backend != TC_BACKEND_CUDA ? t->host : NULL;
}

tc_status tc_synchronize(tc_context *ctx) {
    if (!ctx) return TC_ERR_ARG;
    tc_backend b;
    tc_status rc = tc_context_backend(ctx, &b);
    if (rc) return rc;
    if (b != TC_BACKEND_CUDA) return TC_OK;  /* the interpreter runs synchronously */
    Err e = {0};
    if (cuda_sync(&e)) return ctx_take(ctx, &e);
    return TC_OK;
}

uint64_t tc_tensor_address(const tc_tensor *t) {
    if (!t) return 0;
    return t->backend == TC_BACKEND_CUDA ? t->dev : (uint64_t)(uintptr_t)t->host;
}

tc_status tc_tensor_ptr_table(tc_context *ctx, tc_tensor *const *tensors, int n, tc_tensor **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!out || (n && !tensors) || n < 1 || n > (1 << 20))
        return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_ptr_table: give 1 to 2^20 tensors and an output");
    uint64_t *addr = malloc(sizeof *addr * (size_t)n);
    tc_tensor **refs = malloc(sizeof *refs * (size_t)n);
    if (!addr || !refs) { free(addr); free(refs); return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory"); }
    tc_backend b = tensors[0] ? tensors[0]->backend : TC_BACKEND_INTERPRET;
    for (int i = 0; i < n; i++) {
        const tc_tensor *t = tensors[i];
        if (!t || t->ctx != ctx || t->backend != b) {
            free(addr); free(refs);
            return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_ptr_table: tensor %d is %s", i,
                            !t ? "NULL" : t->ctx != ctx ? "of another context" : "on another backend");
        }
        addr[i] = b == TC_BACKEND_CUDA ? t->dev : (uint64_t)(uintptr_t)t->host;
        refs[i] = tensors[i];
    }
    int64_t shape = n;
    tc_status rc = tc_tensor_from_host(ctx, TC_I64, 1, &shape, addr, out);
    free(addr);
    if (rc) { free(refs); return rc; }
    (*out)->refs = refs;
    (*out)->nrefs = n;
    return TC_OK;
}
