/* The instruction tables, memo of accepted shapes.
 * Real modules repeat a few hundred instruction shapes thousands of times.
 * Whether a form fits depends only on the opcode, the modifier ids and each
 * operand's class (its kind and what operand_fault looks at: a vector's
 * size, the kinds of its elements or of a list's, the shape of an image
 * address, a name's selector, whether a name is negated or is WARP_SZ),
 * given the module's version and target: so an accepted shape is
 * remembered, keyed by exactly those (the key is made where they are
 * judged: memo_key_make, isa_match.c), with the form and the slot each
 * modifier took.  Rejections are not remembered: they are reported in
 * full each time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

void *ptx_isa_table_grow(ptx_context *ctx, void *slots, size_t *mask, size_t size,
                         bool (*hash_of)(const void *slot, uint32_t *hash))
{
    size_t cap = slots ? (*mask + 1) * 2 : 256;
    char *grown = ptx_arena_zalloc(&ctx->arena, cap * size);
    for (size_t i = 0; slots && i <= *mask; i++) {
        const char *from = (const char *)slots + i * size;
        uint32_t h;
        if (!hash_of(from, &h))
            continue;
        size_t j = h & (cap - 1);
        while (hash_of(grown + j * size, &h))
            j = (j + 1) & (cap - 1);
        memcpy(grown + j * size, from, size);
    }
    *mask = cap - 1;
    return grown;
}

static bool memo_hash(const void *slot, uint32_t *hash)
{
    const memo_entry *e = slot;
    *hash = e->hash;
    return e->key != NULL;
}

void ptx_isa_memo_add(ptx_context *ctx, const memo_key *k, uint16_t form, const uint8_t *assign,
                      unsigned nmods)
{
    struct ptx_isa_memo *mt = ctx->isa_memo;
    if (!mt)
        mt = ctx->isa_memo = ptx_arena_zalloc(&ctx->arena, sizeof *mt);
    if (!mt->slots || (mt->count + 1) * 2 > mt->mask + 1)
        mt->slots = ptx_isa_table_grow(ctx, mt->slots, &mt->mask, sizeof *mt->slots, memo_hash);
    uint16_t *copy = ptx_arena_alloc(&ctx->arena, k->n * sizeof *copy + nmods);
    memcpy(copy, k->w, k->n * sizeof *copy);
    uint8_t *a = (uint8_t *)(copy + k->n);
    memcpy(a, assign, nmods);
    size_t i = k->hash & mt->mask;
    while (mt->slots[i].key)
        i = (i + 1) & mt->mask;
    mt->slots[i] = (memo_entry){ k->hash, form, (uint16_t)k->n, copy, a };
    mt->count++;
}
