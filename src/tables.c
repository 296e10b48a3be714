/* The context's tables, through its pool of huge pages (arena.h): what
 * the interner, the semantic pass and the fast lane allocate their tables
 * with.  An object of its own, below the context and the interner, so
 * that neither calls the other for memory. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void *ptx_table_zalloc(ptx_context *ctx, size_t bytes, size_t *mapped)
{
    void *p = ctx ? ptx_pool_zalloc(&ctx->pool, bytes) : NULL;
    if (p) {
        *mapped = PTX_MAPPED_POOL;
        return p;
    }
    return ptx_big_zalloc(bytes, ctx && ctx->srclen >= PTX_TABLES_HUGE, mapped);
}

void *ptx_ctx_calloc(ptx_context *ctx, size_t n, size_t size)
{
    void *p = ctx && n <= SIZE_MAX / size ? ptx_pool_zalloc(&ctx->pool, n * size) : NULL;
    return p ? p : calloc(n, size);
}

void ptx_ctx_free(ptx_context *ctx, void *p, size_t bytes)
{
    if (p && ctx && ptx_pool_owns(&ctx->pool, p))
        ptx_pool_free(&ctx->pool, p, bytes);
    else
        free(p);
}

void *ptx_ctx_realloc(ptx_context *ctx, void *p, size_t old_bytes, size_t new_bytes)
{
    bool pooled = p && ptx_pool_owns(&ctx->pool, p);
    void *q = ptx_pool_zalloc(&ctx->pool, new_bytes);
    if (!q && !pooled)
        return realloc(p, new_bytes);
    if (!q && !(q = malloc(new_bytes)))
        return NULL;
    if (p) {
        memcpy(q, p, old_bytes < new_bytes ? old_bytes : new_bytes);
        ptx_ctx_free(ctx, p, old_bytes);
    }
    return q;
}

void ptx_table_free(ptx_context *ctx, void *p, size_t bytes, size_t mapped)
{
    if (p && mapped == PTX_MAPPED_POOL)
        ptx_pool_free(&ctx->pool, p, bytes);
    else
        ptx_big_free(p, mapped);
}
