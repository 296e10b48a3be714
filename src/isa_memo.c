/* The instruction tables, the memos of accepted instructions: the
 * instructions written alike, asked first, and the accepted shapes.
 * Real modules repeat a few hundred instruction shapes thousands of times.
 *
 * Instructions written alike share their modifier list (ptx/ast.h), and
 * their operands' shapes and register classes repeat: the memo of
 * instructions written alike is keyed by the list itself, the module's
 * version and target and each operand's shape and class, and answers
 * with the form, the modifiers' ids and what each says (isa_check.c
 * makes its key and says why it holds all the verdict depends on).
 *
 * The memo of accepted shapes answers for the instructions that one does
 * not: an instruction whose modifiers are its own, or whose operands it
 * does not tell apart in 16 bits.  Whether a form fits depends only on
 * the opcode, the modifier ids and each operand's class (its kind and
 * what operand_fault looks at: a vector's size, the kinds of its elements
 * or of a list's, the shape of an image address, a name's selector,
 * whether a name is negated or is WARP_SZ), given the module's version
 * and target: so an accepted shape is remembered, keyed by exactly those
 * (the key is made where they are judged: memo_key_make, isa_check.c),
 * with the form and the slot each modifier took.
 *
 * Rejections are remembered by neither: they are reported in full each
 * time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

void *ptx_isa_table_grow(ptx_context *ctx, void *slots, size_t *mask, size_t size,
                         bool (*hash_of)(const void *slot, uint32_t *hash))
{
    size_t cap = slots ? (*mask + 1) * 2 : 256;
    /* on a cache line's boundary: a slot of 64 bytes is one line */
    char *grown = ptx_arena_zalloc(&ctx->arena, cap * size + 63);
    grown += (64 - (uintptr_t)grown % 64) % 64;
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

static bool alike_hash(const void *slot, uint32_t *hash)
{
    const alike_entry *e = slot;
    *hash = ptx_isa_alike_hash(&e->key);
    return e->key.mods != NULL;
}

void ptx_isa_alike_add(ptx_context *ctx, const ptx_module *m, const alike_key *k, uint16_t form,
                       const ptx_isa_fit *fit, unsigned nmods)
{
    struct ptx_isa_memo *mt = ctx->isa_memo;
    if (!mt)
        mt = ctx->isa_memo = ptx_arena_zalloc(&ctx->arena, sizeof *mt);
    if (mt->alike && !ptx_isa_alike_module(mt, m)) {
        /* a module of another version or target: begin afresh */
        mt->alike = NULL;
        mt->alike_count = 0;
    }
    mt->alike_major = m->version_major;
    mt->alike_minor = m->version_minor;
    mt->alike_target = m->ntargets ? m->targets[0] : NULL;
    if (!mt->alike || (mt->alike_count + 1) * 2 > mt->alike_mask + 1)
        mt->alike = ptx_isa_table_grow(ctx, mt->alike, &mt->alike_mask, sizeof *mt->alike, alike_hash);
    alike_entry e = { *k, ptx_arena_alloc(&ctx->arena, nmods * (sizeof *e.ids + 1) + 1), NULL, form,
                      fit->family };
    e.cats = (uint8_t *)(e.ids + nmods);
    memcpy(e.ids, fit->ids, nmods * sizeof *e.ids);
    memcpy(e.cats, fit->cats, nmods);
    size_t i = ptx_isa_alike_hash(k) & mt->alike_mask;
    while (mt->alike[i].key.mods)
        i = (i + 1) & mt->alike_mask;
    mt->alike[i] = e;
    mt->alike_count++;
}
