/* tensor.c — tensors: memory on the backend in use (host memory under the interpreter,
 * device memory under CUDA) with a dtype and a shape, and copies in and out. */
#include "runtime/jit.h"
#include "driver/cuda.h"
#include "interp/interp.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

/* The tensor's device made current, in the context's CUDA context when it is that device's. */
static tc_status tensor_use(const tc_tensor *t, Err *e) {
    return cuda_use_context(t->device, t->device == t->ctx->device ? t->ctx->cu_ctx : NULL, e);
}

/* Checks dtype, rank and shape; *numel gets the element count. */
static tc_status check_shape(tc_context *ctx, const char *what, tc_dtype dt, int rank,
                             const int64_t *shape, int64_t *numel) {
    if (!tc_dtype_name(dt)) return ctx_fail(ctx, TC_ERR_ARG, "%s: invalid dtype %d", what, (int)dt);
    if (rank < 0 || rank > TC_MAX_RANK)
        return ctx_fail(ctx, TC_ERR_ARG, "%s: rank %d is outside 0..%d", what, rank, TC_MAX_RANK);
    if (rank > 0 && !shape) return ctx_fail(ctx, TC_ERR_ARG, "%s: NULL shape", what);
    int64_t n = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] < 0)
            return ctx_fail(ctx, TC_ERR_ARG, "%s: negative dimension %lld", what, (long long)shape[i]);
        if (shape[i] > 0 && n > ((int64_t)1 << 48) / shape[i])
            return ctx_fail(ctx, TC_ERR_LIMIT, "%s: more than 2^48 elements", what);
        n *= shape[i];
    }
    *numel = n;
    return TC_OK;
}

/* A handle with no memory yet: dtype, shape, sizes. */
static tc_tensor *tensor_handle(tc_context *ctx, tc_backend b, tc_dtype dt, int rank,
                                const int64_t *shape, int64_t numel) {
    tc_tensor *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ctx = ctx;
    t->backend = b;
    t->dtype = dt;
    t->rank = rank;
    for (int i = 0; i < rank; i++) t->shape[i] = shape[i];
    t->numel = numel;
    t->nbytes = (size_t)numel * tc_dtype_size(dt);
    t->device = ctx->device;
    atomic_init(&t->refs, 1);
    return t;
}

static tc_status tensor_alloc(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape,
                              bool zero, tc_tensor **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!out) return ctx_fail(ctx, TC_ERR_ARG, "tensor: NULL output pointer");
    *out = NULL;
    int64_t numel;
    tc_status rc = check_shape(ctx, "tensor", dt, rank, shape, &numel);
    if (rc) return rc;
    size_t nbytes = (size_t)numel * tc_dtype_size(dt);
    tc_backend b;
    rc = ctx_backend(ctx, &b);
    if (rc) return rc;
    tc_tensor *t = tensor_handle(ctx, b, dt, rank, shape, numel);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    t->owns = true;
    if (b == TC_BACKEND_CUDA) {
        Err e = {0};
        CuDevPtr p = 0;
        if (ctx_use_cuda(ctx, &e) || cuda_alloc(nbytes ? nbytes : 1, &p, &e) ||
            (zero && cuda_memset0(p, nbytes ? nbytes : 1, &e))) {
            if (p) cuda_free(p);
            free(t);
            return ctx_take(ctx, &e);
        }
        t->dev = p;
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
        if (tensor_use(t, &e) || cuda_dtoh(dst, t->dev, t->nbytes, &e))
            return ctx_take(t->ctx, &e);
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
        if (tensor_use(t, &e) || cuda_htod(t->dev, src, t->nbytes, &e))
            return ctx_take(t->ctx, &e);
        return TC_OK;
    }
    memcpy(t->host, src, t->nbytes);
    if (t->uninit) memset(t->uninit, 0, uninit_size(t->nbytes));
    return TC_OK;
}

/* Drops one reference to a root; the last one frees its memory (if it owns it) and it. */
static void root_release(tc_tensor *t) {
    if (atomic_fetch_sub(&t->refs, 1) != 1) return;
    if (t->owns) {
        if (t->backend == TC_BACKEND_CUDA) {
            if (t->dev) {
                Err e = {0};
                if (tensor_use(t, &e) == TC_OK) cuda_free(t->dev);
            }
        } else {
            free(t->host_base);
        }
    }
    free(t->uninit);
    free(t->ptab);
    free(t);
}

void tc_tensor_free(tc_tensor *t) {
    if (!t) return;
    if (t->root) {   /* a view: its own handle, and its hold on the root */
        tc_tensor *r = t->root;
        if (!t->uninit_shared) free(t->uninit);
        free(t);
        root_release(r);
        return;
    }
    root_release(t);
}

tc_status tc_tensor_wrap(tc_context *ctx, tc_dtype dt, int rank, const int64_t *shape, void *ptr,
                         tc_tensor **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!out) return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_wrap: NULL output pointer");
    *out = NULL;
    int64_t numel;
    tc_status rc = check_shape(ctx, "tc_tensor_wrap", dt, rank, shape, &numel);
    if (rc) return rc;
    if (!ptr && numel > 0)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_wrap: NULL pointer for %lld elements",
                        (long long)numel);
    size_t esz = tc_dtype_size(dt);
    if ((uintptr_t)ptr % esz)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_wrap: pointer %p is not aligned to the %zu "
                        "bytes of a %s element", ptr, esz, tc_dtype_name(dt));
    tc_backend b;
    rc = ctx_backend(ctx, &b);
    if (rc) return rc;
    tc_tensor *t = tensor_handle(ctx, b, dt, rank, shape, numel);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    if (b == TC_BACKEND_CUDA) t->dev = (uint64_t)(uintptr_t)ptr;
    else t->host = ptr;
    *out = t;
    return TC_OK;
}

tc_status tc_tensor_view(tc_tensor *base, int64_t offset, int rank, const int64_t *shape,
                         tc_tensor **out) {
    if (!base) return TC_ERR_ARG;
    tc_context *ctx = base->ctx;
    if (!out) return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_view: NULL output pointer");
    *out = NULL;
    int64_t numel;
    tc_status rc = check_shape(ctx, "tc_tensor_view", base->dtype, rank, shape, &numel);
    if (rc) return rc;
    if (offset < 0 || offset > base->numel || numel > base->numel - offset)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_view: elements [%lld, %lld) are outside the "
                        "base tensor's %lld", (long long)offset, (long long)offset + numel,
                        (long long)base->numel);
    tc_tensor *root = base->root ? base->root : base;
    tc_tensor *t = tensor_handle(ctx, base->backend, base->dtype, rank, shape, numel);
    if (!t) return ctx_fail(ctx, TC_ERR_NOMEM, "out of memory");
    size_t off = (size_t)offset * tc_dtype_size(base->dtype);
    t->device = base->device;
    t->root = root;
    if (base->backend == TC_BACKEND_CUDA) {
        t->dev = base->dev + off;
    } else {
        t->host = (char *)base->host + off;
        /* the root's never-written marks, where they line up with whole bytes of bits */
        size_t root_off = (size_t)((char *)t->host - (char *)root->host);
        if (root->uninit && root_off % 8 == 0) {
            t->uninit = root->uninit + root_off / 8;
            t->uninit_shared = true;
        }
    }
    atomic_fetch_add(&root->refs, 1);
    *out = t;
    return TC_OK;
}

tc_dtype tc_tensor_dtype(const tc_tensor *t) { return t ? t->dtype : (tc_dtype)0; }
int tc_tensor_rank(const tc_tensor *t) { return t ? t->rank : 0; }
const int64_t *tc_tensor_shape(const tc_tensor *t) { return t ? t->shape : NULL; }
int64_t tc_tensor_numel(const tc_tensor *t) { return t ? t->numel : 0; }
size_t tc_tensor_nbytes(const tc_tensor *t) { return t ? t->nbytes : 0; }

void tc_tensor_mark_uninit(tc_tensor *t) {
    if (!t || t->backend == TC_BACKEND_CUDA || t->nbytes == 0) return;
    if (!t->uninit) {
        t->uninit = malloc(uninit_size(t->nbytes));
        t->uninit_shared = false;
    }
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
    if (ctx_use_cuda(ctx, &e) || cuda_sync(&e)) return ctx_take(ctx, &e);
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
    (*out)->ptab = refs;
    (*out)->nptab = n;
    return TC_OK;
}

/* ---- host tensor descriptors (Triton's TensorDescriptor) ----------------------------- */

tc_status tc_tensor_descriptor(tc_context *ctx, tc_tensor *tensor, int rank, const int64_t *shape,
                               const int64_t *strides, const int64_t *block_shape, tc_tensor **out) {
    if (!ctx) return TC_ERR_ARG;
    if (!out) return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: NULL output pointer");
    *out = NULL;
    if (!tensor) return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: NULL tensor");
    if (tensor->drank)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: the tensor is itself a descriptor");
    if (rank < 1 || rank > TC_MAX_RANK)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: rank %d is outside 1..%d", rank, TC_MAX_RANK);
    if (!block_shape) return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: NULL block shape");
    if (!shape && rank != tensor->rank)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: block shape has %d dimensions but "
                        "the tensor has %d", rank, tensor->rank);
    int64_t sh[TC_MAX_RANK], st[TC_MAX_RANK];
    for (int i = rank - 1; i >= 0; i--) {
        sh[i] = shape ? shape[i] : tensor->shape[i];
        st[i] = strides ? strides[i] : i == rank - 1 ? 1 : st[i + 1] * sh[i + 1];
        if (sh[i] < 0 || st[i] < 0)
            return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: dimension %d has shape %lld, "
                            "stride %lld (negative)", i, (long long)sh[i], (long long)st[i]);
        int64_t b = block_shape[i];
        if (b < 1 || b > (1 << 20) || (b & (b - 1)))
            return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: block dimension %d is %lld; "
                            "block dimensions are powers of two", i, (long long)b);
    }
    /* the last element the descriptor reaches must lie inside the tensor */
    int64_t last = 0;
    bool empty = false;
    for (int i = 0; i < rank; i++) {
        if (sh[i] == 0) empty = true;
        else if (st[i] && sh[i] - 1 > (INT64_MAX - last) / st[i]) last = INT64_MAX;
        else last += (sh[i] - 1) * st[i];
    }
    if (!empty && last >= tensor->numel)
        return ctx_fail(ctx, TC_ERR_ARG, "tc_tensor_descriptor: shape and strides reach element "
                        "%lld of a tensor of %lld", (long long)last, (long long)tensor->numel);
    tc_status rc = tc_tensor_view(tensor, 0, tensor->rank, tensor->shape, out);
    if (rc) return rc;
    tc_tensor *d = *out;
    d->drank = rank;
    for (int i = 0; i < rank; i++) {
        d->dshape[i] = sh[i];
        d->dstrides[i] = st[i];
        d->dblock[i] = block_shape[i];
    }
    return TC_OK;
}

int tc_tensor_descriptor_info(const tc_tensor *d, int64_t *shape, int64_t *strides,
                              int64_t *block_shape) {
    if (!d) return 0;
    for (int i = 0; i < d->drank; i++) {
        if (shape) shape[i] = d->dshape[i];
        if (strides) strides[i] = d->dstrides[i];
        if (block_shape) block_shape[i] = d->dblock[i];
    }
    return d->drank;
}
