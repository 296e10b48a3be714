/* Interning: each distinct name is stored once in the arena, so names
 * compare by pointer.  Two tables, by the name's first byte: registers
 * ('%'), looked up most, and the rest (labels: hundreds of thousands in a
 * debug build), whose lookups mostly miss the cache and are asked for
 * ahead where the scanner can (ptx_intern_prefetch).  Open addressing
 * with linear probing; a table doubles at 3/4 full.  A slot holds the
 * hash and the length beside the name: 16 bytes.  With the first eight
 * bytes too it was 24, and a debug build's table of labels 12.6 MB
 * instead of 8.4, for 1.5% fewer instructions on a CUB module and no
 * difference in time above the noise. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Eight bytes per step: register names are short, mangled C++ names long,
 * and a byte-at-a-time hash showed in profiles.  Every load is a memcpy of
 * a fixed size (no alignment or aliasing assumptions). */
static uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
}

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = mix(0x9e3779b97f4a7c15ULL, len);
    for (; len >= 8; s += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = mix(h, w);
    }
    if (len >= 4) {
        uint32_t a, b;   /* overlapping loads cover 4 to 7 bytes */
        memcpy(&a, s, 4);
        memcpy(&b, s + len - 4, 4);
        h = mix(h, (uint64_t)a << 32 | b);
    } else if (len) {
        h = mix(h, (uint64_t)(unsigned char)s[0] << 16 |
                   (uint64_t)(unsigned char)s[len / 2] << 8 | (unsigned char)s[len - 1]);
    }
    /* never 0: a zero in the hash array marks an empty slot.  The top bit
     * is set, not the low one: every table of names (here, the splits, the
     * semantic pass's) indexes by the low bits, and with the low bit set
     * only the odd slots were ever a name's first choice (clustering) */
    return (uint32_t)(h ^ (h >> 32)) | 0x80000000u;
}

static bool same8(const char *a, const char *b)
{
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return x == y;
}

/* memcmp(a, b, len) == 0 without a call: names are short.  The tail is
 * compared by overlapping loads, as hash_bytes reads it: a byte at a time
 * it cost more than all the rest (%r123 is 5 bytes, %rd12 too). */
static bool same_bytes(const char *a, const char *b, size_t len)
{
    if (len >= 8) {
        for (size_t i = 0; i + 8 < len; i += 8)
            if (!same8(a + i, b + i))
                return false;
        return same8(a + len - 8, b + len - 8);
    }
    if (len >= 4) {
        uint32_t x, y, u, v;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        memcpy(&u, a + len - 4, 4);
        memcpy(&v, b + len - 4, 4);
        return x == y && u == v;
    }
    while (len--)
        if (*a++ != *b++)
            return false;
    return true;
}

static void rehash(ptx_context *ctx, ptx_intern_table *t)
{
    size_t cap = t->slots ? (t->mask + 1) * 2 : 1024;
    ptx_intern_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        longjmp(ctx->oom, 1);
    for (size_t i = 0; t->slots && i <= t->mask; i++) {
        if (!t->slots[i].hash)
            continue;
        size_t j = t->slots[i].hash & (cap - 1);
        while (slots[j].hash)
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->mask = cap - 1;
}

/* Which table name s[0..len) belongs in: registers, or the others. */
static bool in_regs(const char *s, size_t len)
{
    return len && s[0] == '%';
}

const ptx_name *ptx_intern(ptx_context *ctx, const char *s, size_t len)
{
    ptx_interner *in = &ctx->names;
    ptx_intern_table *t = in_regs(s, len) ? &in->regs : &in->others;
    if (!t->slots || (t->count + 1) * 4 > (t->mask + 1) * 3) {
        if (!in->regs.slots && !in->others.slots) {
            ptx_arena_init(&in->text);
            in->text.oom = &ctx->oom;
        }
        rehash(ctx, t);
    }
    uint32_t h = hash_bytes(s, len);
    size_t i = h & t->mask;
    for (const ptx_intern_slot *e; (e = &t->slots[i])->hash != 0; i = (i + 1) & t->mask)
        if (e->hash == h && e->len == len && same_bytes(e->name->text, s, len))
            return e->name;
    ptx_name *n = ptx_arena_alloc(&in->text, sizeof *n + len + 1);
    n->len = (uint32_t)len;
    n->hash = h;
    memcpy(n->text, s, len);
    n->text[len] = '\0';
    t->slots[i] = (ptx_intern_slot){ h, (uint32_t)len, n };
    t->count++;
    in->count++;
    return n;
}

const ptx_name *ptx_intern_find(const ptx_context *ctx, const char *s, size_t len)
{
    const ptx_interner *in = &ctx->names;
    const ptx_intern_table *t = in_regs(s, len) ? &in->regs : &in->others;
    if (!t->slots)
        return NULL;
    uint32_t h = hash_bytes(s, len);
    for (size_t i = h & t->mask; t->slots[i].hash != 0; i = (i + 1) & t->mask) {
        const ptx_intern_slot *e = &t->slots[i];
        if (e->hash == h && e->len == len && same_bytes(e->name->text, s, len))
            return e->name;
    }
    return NULL;
}

void ptx_intern_prefetch(const ptx_context *ctx, const char *s, size_t len)
{
#if defined(__GNUC__)
    const ptx_interner *in = &ctx->names;
    const ptx_intern_table *t = in_regs(s, len) ? &in->regs : &in->others;
    if (t->slots)
        __builtin_prefetch(&t->slots[hash_bytes(s, len) & t->mask]);
#else
    (void)ctx, (void)s, (void)len;
#endif
}

static void regrow_splits(ptx_context *ctx)
{
    ptx_interner *in = &ctx->names;
    size_t cap = in->splits ? (in->split_mask + 1) * 2 : 256;
    ptx_split **slots = calloc(cap, sizeof *slots);
    if (!slots)
        longjmp(ctx->oom, 1);
    for (size_t i = 0; in->splits && i <= in->split_mask; i++) {
        ptx_split *sp = in->splits[i];
        if (!sp)
            continue;
        size_t j = sp->whole->hash & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = sp;
    }
    free(in->splits);
    in->splits = slots;
    in->split_mask = cap - 1;
}

/* A dotted name is looked up in the table of splits by its bytes: a
 * module's few thousand opcodes stay in cache there, and the table of
 * all names (large, and missed) is searched only for a new one. */
ptx_split *ptx_intern_split(ptx_context *ctx, const char *s, size_t len)
{
    ptx_interner *in = &ctx->names;
    if (!in->splits || (in->nsplits + 1) * 2 > in->split_mask + 1)
        regrow_splits(ctx);
    uint32_t h = hash_bytes(s, len);
    size_t i = h & in->split_mask;
    for (ptx_split *sp; (sp = in->splits[i]) != NULL; i = (i + 1) & in->split_mask)
        if (sp->whole->hash == h && sp->whole->len == len && same_bytes(sp->whole->text, s, len))
            return sp;
    const ptx_name *whole = ptx_intern(ctx, s, len);
    uint32_t nwords = 1;
    for (size_t k = 1; k < len; k++)
        nwords += s[k] == '.';
    ptx_split *sp = ptx_arena_alloc(&ctx->arena, sizeof *sp + nwords * sizeof sp->words[0]);
    sp->whole = whole;
    sp->nwords = nwords;
    sp->sets = NULL;
    size_t start = 0;
    for (uint32_t w = 0; w < nwords; w++) {
        size_t end = start + 1;
        while (end < len && s[end] != '.')
            end++;
        sp->words[w] = ptx_intern(ctx, s + start, end - start);
        start = end;
    }
    in->splits[i] = sp;
    in->nsplits++;
    return sp;
}

void ptx_interner_release(ptx_interner *in)
{
    free(in->splits);
    in->splits = NULL;
    in->split_mask = in->nsplits = 0;
    if (in->regs.slots || in->others.slots)
        ptx_arena_release(&in->text);
    free(in->regs.slots);
    free(in->others.slots);
    in->regs = in->others = (ptx_intern_table){ NULL, 0, 0 };
    in->count = 0;
}
