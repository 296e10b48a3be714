/* Interning: each distinct name is stored once in the arena, so names
 * compare by pointer.  Open addressing with linear probing; the table
 * doubles at 3/4 full.  The hash and length are compared before the bytes. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint32_t hash_bytes(const char *s, size_t len)
{
    /* FNV-1a over 64 bits, folded: short names dominate and this is cheap */
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return (uint32_t)(h ^ (h >> 32));
}

static void rehash(ptx_context *ctx)
{
    ptx_interner *in = &ctx->names;
    size_t cap = in->slots ? (in->mask + 1) * 2 : 1024;
    const ptx_name **slots = calloc(cap, sizeof *slots);
    if (!slots)
        longjmp(ctx->oom, 1);
    if (in->slots) {
        for (size_t i = 0; i <= in->mask; i++) {
            const ptx_name *n = in->slots[i];
            if (!n)
                continue;
            size_t j = n->hash & (cap - 1);
            while (slots[j])
                j = (j + 1) & (cap - 1);
            slots[j] = n;
        }
        free(in->slots);
    }
    in->slots = slots;
    in->mask = cap - 1;
}

const ptx_name *ptx_intern(ptx_context *ctx, const char *s, size_t len)
{
    ptx_interner *in = &ctx->names;
    if (!in->slots || (in->count + 1) * 4 > (in->mask + 1) * 3)
        rehash(ctx);
    uint32_t h = hash_bytes(s, len);
    size_t i = h & in->mask;
    for (const ptx_name *n; (n = in->slots[i]) != NULL; i = (i + 1) & in->mask) {
        if (n->hash == h && n->len == len && memcmp(n->text, s, len) == 0)
            return n;
    }
    ptx_name *n = ptx_arena_alloc(&ctx->arena, sizeof *n + len + 1);
    n->len = (uint32_t)len;
    n->hash = h;
    n->isa_id = PTX_ISA_ID_UNKNOWN;
    memcpy(n->text, s, len);
    n->text[len] = '\0';
    in->slots[i] = n;
    in->count++;
    return n;
}

void ptx_interner_release(ptx_interner *in)
{
    free(in->slots);
    in->slots = NULL;
    in->mask = 0;
    in->count = 0;
}
