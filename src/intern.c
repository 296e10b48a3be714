/* Interning: each distinct name is stored once in the arena, so names
 * compare by pointer.  Two tables, by the name's first byte: registers
 * ('%'), looked up most, and the rest (labels: hundreds of thousands in a
 * debug build), whose lookups mostly miss the cache and are asked for
 * ahead where the scanner can (ptx_intern_prefetch).  Open addressing
 * with linear probing; a table doubles at 3/4 full.  A slot holds the
 * hash and the length beside the name: 16 bytes.  With the first eight
 * bytes too it was 24, and a debug build's table of labels 12.6 MB
 * instead of 8.4, for 1.5% fewer instructions on a CUB module and no
 * difference in time above the noise.  Before the tables, the names of
 * at most 8 bytes and the splits of at most 16 lately looked up are kept
 * by their bytes, direct-mapped (64 KB and 8 KB): a register or an
 * opcode found there costs no hash, no probe and no comparison of text
 * (on a CUB module 80% of the short names and 92% of the opcodes; the
 * lookups cost 13M instructions instead of 24M). */
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

#if defined(__GNUC__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static inline
#endif

/* The bytes of s[0..len), len at most 8, in one word: with the length,
 * it tells the name from every other.  Overlapping loads cover 4 to 8
 * bytes; three loads cover 1 to 3. */
INLINE uint64_t short_key(const char *s, size_t len)
{
    if (len >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + len - 4, 4);
        return (uint64_t)a << 32 | b;
    }
    if (len)
        return (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[len / 2] << 8 |
               (unsigned char)s[len - 1];
    return 0;
}

/* Inlined where it is called: most names are a few bytes, and the call
 * cost as much as the hash. */
INLINE uint32_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = mix(0x9e3779b97f4a7c15ULL, len);
    for (; len >= 8; s += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = mix(h, w);
    }
    if (len)
        h = mix(h, short_key(s, len));
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
INLINE bool same_bytes(const char *a, const char *b, size_t len)
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
    size_t cap = t->slots ? (t->mask + 1) * 2 : 1024, mapped;
    ptx_intern_slot *slots = ptx_big_zalloc(cap * sizeof *slots, &mapped);
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
    ptx_big_free(t->slots, t->mapped);
    t->slots = slots;
    t->mapped = mapped;
    t->mask = cap - 1;
    t->limit = cap / 4 * 3;
}

/* Which table name s[0..len) belongs in: registers, or the others. */
static bool in_regs(const char *s, size_t len)
{
    return len && s[0] == '%';
}

#if defined(__GNUC__)
#define SLOW static __attribute__((noinline))
#else
#define SLOW static
#endif

/* Names of at most 8 bytes and splits of at most 16 lately looked up:
 * registers and opcodes, most of them (longer names, labels and
 * parameters, are seldom asked for again soon).  2^RECENT_BITS names and
 * 2^SPLIT_BITS splits, 32 bytes each. */
enum { RECENT_NAME = 8, RECENT_SPLIT = 16, RECENT_BITS = 11, SPLIT_BITS = 8 };

/* The recent slot for s[0..len) (len at most 16) among the
 * 2^bits at `recent`, and its key in key[2]: the bytes, which with the
 * length tell the name from every other (two overlapping loads of 8
 * cover 9 to 16 bytes). */
INLINE ptx_intern_recent *recent_slot(ptx_intern_recent *recent, unsigned bits, const char *s,
                                      size_t len, uint64_t key[2])
{
    if (len <= 8) {
        key[0] = short_key(s, len);
        key[1] = 0;
    } else {
        memcpy(&key[0], s, 8);
        memcpy(&key[1], s + len - 8, 8);
    }
    uint64_t h = (key[0] ^ key[1] ^ len) * 0x9e3779b97f4a7c15ULL;
    return &recent[h >> (64 - bits)];
}

INLINE bool recent_hit(const ptx_intern_recent *r, const uint64_t key[2], size_t len)
{
    return r->key[0] == key[0] && r->key[1] == key[1] && r->len1 == len + 1;
}

INLINE void recent_fill(ptx_intern_recent *r, const uint64_t key[2], size_t len, const void *value)
{
    *r = (ptx_intern_recent){ { key[0], key[1] }, (uint32_t)len + 1, value };
}

/* The slow paths, out of line: the lookup in the recent names, which most
 * calls end with, then saves no registers for them. */
SLOW void grow_table(ptx_context *ctx, ptx_intern_table *t)
{
    ptx_interner *in = &ctx->names;
    if (!in->regs.slots && !in->others.slots) {
        ptx_arena_init(&in->text);
        in->text.oom = &ctx->oom;
        ptx_arena_size_for(&in->text, ctx->srclen);
        in->recent = calloc(((size_t)1 << RECENT_BITS) + ((size_t)1 << SPLIT_BITS),
                            sizeof *in->recent);
        if (!in->recent)
            longjmp(ctx->oom, 1);
    }
    rehash(ctx, t);
}

/* A new name s[0..len) of hash h, into t's empty slot i. */
SLOW const ptx_name *add_name(ptx_context *ctx, ptx_intern_table *t, size_t i, const char *s,
                              size_t len, uint32_t h)
{
    ptx_interner *in = &ctx->names;
    if (in->count >= UINT32_MAX)        /* no id left for it */
        longjmp(ctx->oom, 1);
    ptx_name *n = ptx_arena_alloc(&in->text, sizeof *n + len + 1);
    n->len = (uint32_t)len;
    n->hash = h;
    n->id = (uint32_t)in->count;
    memcpy(n->text, s, len);
    n->text[len] = '\0';
    t->slots[i] = (ptx_intern_slot){ h, (uint32_t)len, n };
    t->count++;
    in->count++;
    return n;
}

/* The name s[0..len) from its table; a short one also into the recent
 * slot r (NULL for a long one) under `key`. */
SLOW const ptx_name *intern_in_table(ptx_context *ctx, const char *s, size_t len,
                                     ptx_intern_recent *r, const uint64_t *key)
{
    ptx_interner *in = &ctx->names;
    ptx_intern_table *t = in_regs(s, len) ? &in->regs : &in->others;
    if (t->count >= t->limit)
        grow_table(ctx, t);
    uint32_t h = hash_bytes(s, len);
    size_t i = h & t->mask;
    const ptx_name *n = NULL;
    for (const ptx_intern_slot *e; (e = &t->slots[i])->hash != 0; i = (i + 1) & t->mask)
        if (e->hash == h && e->len == len && same_bytes(e->name->text, s, len)) {
            n = e->name;
            break;
        }
    if (!n)
        n = add_name(ctx, t, i, s, len, h);
    if (r)
        recent_fill(r, key, len, n);
    return n;
}

const ptx_name *ptx_intern(ptx_context *ctx, const char *s, size_t len)
{
    ptx_interner *in = &ctx->names;
    if (len > RECENT_NAME || !in->recent)
        return intern_in_table(ctx, s, len, NULL, NULL);
    /* a short name: looked up among the recent ones by its bytes first */
    uint64_t key[2];
    ptx_intern_recent *r = recent_slot(in->recent, RECENT_BITS, s, len, key);
    if (recent_hit(r, key, len))
        return r->value;
    return intern_in_table(ctx, s, len, r, key);
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
/* The split of s[0..len) from the table of splits, or a new one. */
SLOW ptx_split *split_in_table(ptx_context *ctx, const char *s, size_t len)
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

ptx_split *ptx_intern_split(ptx_context *ctx, const char *s, size_t len)
{
    ptx_interner *in = &ctx->names;
    if (len > RECENT_SPLIT || !in->recent)
        return split_in_table(ctx, s, len);
    uint64_t key[2];
    ptx_intern_recent *r = recent_slot(in->recent + ((size_t)1 << RECENT_BITS), SPLIT_BITS, s, len,
                                       key);
    if (recent_hit(r, key, len))
        return (ptx_split *)r->value;
    ptx_split *sp = split_in_table(ctx, s, len);
    recent_fill(r, key, len, sp);
    return sp;
}

void ptx_interner_release(ptx_interner *in)
{
    free(in->splits);
    in->splits = NULL;
    in->split_mask = in->nsplits = 0;
    if (in->regs.slots || in->others.slots)
        ptx_arena_release(&in->text);
    ptx_big_free(in->regs.slots, in->regs.mapped);
    ptx_big_free(in->others.slots, in->others.mapped);
    free(in->recent);
    in->recent = NULL;
    in->regs = in->others = (ptx_intern_table){ NULL, 0, 0, 0, 0 };
    in->count = 0;
}
