/* Interning: each distinct name is stored once in the arena, so names
 * compare by pointer.  Two tables, by the name's first byte: registers
 * ('%'), looked up most, and the rest (labels: hundreds of thousands in a
 * debug build).  Open addressing with linear probing; a table doubles at
 * 3/4 full.  A slot holds the hash and the length beside the name: 16
 * bytes.  With the first eight bytes too it was 24, and a debug build's
 * table of labels 12.6 MB instead of 8.4, for 1.5% fewer instructions on
 * a CUB module and no difference in time above the noise.
 *
 * What a lookup costs is the cache lines it misses, so each kind of name
 * has its way around the large tables:
 * - names of at most 8 bytes and splits of at most 16 lately looked up
 *   are kept by their bytes, direct-mapped (64 KB and 8 KB): a register
 *   or an opcode found there costs no hash, no probe and no comparison
 *   of text;
 * - a register written %<prefix><number> that is not among them is
 *   found by its number in its prefix's array (a kernel's %r1..%r900
 *   are 7 KB side by side), and its name sits with the other registers'
 *   in an arena of their own: before, those lookups probed a table and
 *   read names scattered among the labels, and were 15% of a dense
 *   module's check;
 * - a new label goes into a small young table, found there while its
 *   function is read, and moves to the large table in a batch whose
 *   slots are asked for ahead (move_young); a filter tells most new
 *   names that the large table does not hold them.  Before, each new
 *   label missed the cache in the large table once or twice, and 92,000
 *   new labels cost as much time as the rest of interning. */
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
    ptx_intern_slot *slots = ptx_table_zalloc(ctx, cap * sizeof *slots, &mapped);
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
    ptx_table_free(ctx, t->slots, t->slots ? (t->mask + 1) * sizeof *slots : 0, t->mapped);
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
enum { RECENT_NAME = 8, RECENT_SPLIT = 16, RECENT_BITS = 11, SPLIT_BITS = 8,
       RECENT_SLOTS = (1 << RECENT_BITS) + (1 << SPLIT_BITS) };

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

/* The young table: 2^YOUNG_BITS slots (64 KB), whose names move to the
 * others once it is half full; and how far ahead of the name it moves
 * the move asks for the slot of a later one. */
enum { YOUNG_BITS = 12, MOVE_AHEAD = 16 };

/* 2^FAMILY_BITS prefixes of registers; numbers below FAMILY_NUMBERS. */
enum { FAMILY_BITS = 6, FAMILY_NUMBERS = 1 << 16 };

/* The filter's bits for hash h: two bits of one word, the word and the
 * bits from the middle of a product (the table indexes by h's low bits) */
INLINE uint64_t filter_bits(const ptx_interner *in, uint32_t h, size_t *word)
{
    uint64_t x = ((uint64_t)h << 32 | h) * 0x9e3779b97f4a7c15ULL;
    *word = (size_t)(x >> 40) & in->filter_mask;
    return (uint64_t)1 << ((x >> 20) & 63) | (uint64_t)1 << ((x >> 26) & 63);
}

INLINE void filter_add(ptx_interner *in, uint32_t h)
{
    size_t w;
    uint64_t bits = filter_bits(in, h, &w);
    in->filter[w] |= bits;
}

/* May the others hold a name of hash h?  (No: it is not there.) */
INLINE bool filter_may(const ptx_interner *in, uint32_t h)
{
    size_t w;
    uint64_t bits = filter_bits(in, h, &w);
    return (in->filter[w] & bits) == bits;
}

/* The slot of s[0..len) (hash h) in t, or the empty slot where it would
 * go. */
INLINE ptx_intern_slot *probe(const ptx_intern_table *t, const char *s, size_t len, uint32_t h)
{
    size_t i = h & t->mask;
    for (ptx_intern_slot *e; (e = &t->slots[i])->hash != 0; i = (i + 1) & t->mask)
        if (e->hash == h && e->len == len && same_bytes(e->name->text, s, len))
            return e;
    return &t->slots[i];
}

/* The slow paths below are out of line: the lookup in the recent names,
 * which most calls end with, then saves no registers for them. */

/* The first name: the texts' arenas, the recent names and splits, the
 * young table, the families. */
SLOW void interner_start(ptx_context *ctx)
{
    ptx_interner *in = &ctx->names;
    ptx_arena_init(&in->text);
    in->text.oom = &ctx->oom;
    if (ctx->keep_tree) {
        ptx_arena_size_for(&in->text, ctx->srclen, PTX_ARENA_LARGE);
        in->texts = &in->text;
    } else {
        in->texts = &ctx->arena;
    }
    in->text.pool = &ctx->pool;
    ptx_arena_init(&in->regtext);
    in->regtext.oom = &ctx->oom;
    in->regtext.pool = &ctx->pool;
    in->recent = ptx_ctx_calloc(ctx, RECENT_SLOTS, sizeof *in->recent);
    in->young.slots = ptx_ctx_calloc(ctx, (size_t)1 << YOUNG_BITS, sizeof *in->young.slots);
    in->families = ptx_ctx_calloc(ctx, (size_t)1 << FAMILY_BITS, sizeof *in->families);
    if (!in->recent || !in->young.slots || !in->families)
        longjmp(ctx->oom, 1);
    in->young.mask = ((size_t)1 << YOUNG_BITS) - 1;
    in->young.limit = (size_t)1 << (YOUNG_BITS - 1);
}

/* t twice as large; the others with a filter of a byte per slot: at
 * most 3/4 full, a name has at least 10 bits, and two of them are set
 * in one word (about one in twenty-five absent names is let through) */
SLOW void grow_table(ptx_context *ctx, ptx_intern_table *t)
{
    ptx_interner *in = &ctx->names;
    rehash(ctx, t);
    if (t != &in->others)
        return;
    ptx_ctx_free(ctx, in->filter, (in->filter_mask + 1) * sizeof *in->filter);
    in->filter_mask = (t->mask + 1) / 8 - 1;
    in->filter = ptx_ctx_calloc(ctx, in->filter_mask + 1, sizeof *in->filter);
    if (!in->filter)
        longjmp(ctx->oom, 1);
    for (size_t i = 0; i <= t->mask; i++)
        if (t->slots[i].hash)
            filter_add(in, t->slots[i].hash);
}

/* A new name s[0..len) of hash h, into t's empty slot e. */
SLOW const ptx_name *add_name(ptx_context *ctx, ptx_intern_table *t, ptx_intern_slot *e,
                              const char *s, size_t len, uint32_t h)
{
    ptx_interner *in = &ctx->names;
    if (in->count >= UINT32_MAX)        /* no id left for it */
        longjmp(ctx->oom, 1);
    ptx_name *n = ptx_arena_alloc(t == &in->regs ? &in->regtext : in->texts, sizeof *n + len + 1);
    n->len = (uint32_t)len;
    n->hash = h;
    n->id = (uint32_t)in->count;
    memcpy(n->text, s, len);
    n->text[len] = '\0';
    *e = (ptx_intern_slot){ h, (uint32_t)len, n };
    t->count++;
    in->count++;
    return n;
}

/* The young names into the others, a batch at a time: each one's slot is
 * asked for MOVE_AHEAD names before it is written, so that the misses of
 * a large table overlap instead of one per new label. */
SLOW void move_young(ptx_context *ctx)
{
    ptx_interner *in = &ctx->names;
    ptx_intern_table *y = &in->young, *o = &in->others;
    while (o->count + y->count > o->limit)
        grow_table(ctx, o);
    uint16_t at[(size_t)1 << YOUNG_BITS];
    size_t n = 0;
    for (size_t i = 0; i <= y->mask; i++)
        if (y->slots[i].hash)
            at[n++] = (uint16_t)i;
    for (size_t k = 0; k < n; k++) {
#if defined(__GNUC__)
        if (k + MOVE_AHEAD < n)
            __builtin_prefetch(&o->slots[y->slots[at[k + MOVE_AHEAD]].hash & o->mask]);
#endif
        const ptx_intern_slot *e = &y->slots[at[k]];
        size_t j = e->hash & o->mask;
        while (o->slots[j].hash)
            j = (j + 1) & o->mask;
        o->slots[j] = *e;
        filter_add(in, e->hash);
    }
    o->count += n;
    memset(y->slots, 0, (y->mask + 1) * sizeof *y->slots);
    y->count = 0;
}

/* A name that is not a register's: among the young ones, then, if the
 * filter lets it through, the others; a new one is young. */
static const ptx_name *intern_other(ptx_context *ctx, const char *s, size_t len, uint32_t h)
{
    ptx_interner *in = &ctx->names;
    ptx_intern_slot *e = probe(&in->young, s, len, h);
    if (e->hash)
        return e->name;
    if (in->others.count && filter_may(in, h)) {
        const ptx_intern_slot *o = probe(&in->others, s, len, h);
        if (o->hash)
            return o->name;
    }
    const ptx_name *n = add_name(ctx, &in->young, e, s, len, h);
    if (in->young.count >= in->young.limit)
        move_young(ctx);
    return n;
}

/* The name s[0..len) from its table; a short one also into the recent
 * slot r (NULL for a long one) under `key`. */
SLOW const ptx_name *intern_in_table(ptx_context *ctx, const char *s, size_t len,
                                     ptx_intern_recent *r, const uint64_t *key)
{
    ptx_interner *in = &ctx->names;
    if (!in->recent)
        interner_start(ctx);
    uint32_t h = hash_bytes(s, len);
    const ptx_name *n;
    if (in_regs(s, len)) {
        ptx_intern_table *t = &in->regs;
        if (t->count >= t->limit)
            grow_table(ctx, t);
        ptx_intern_slot *e = probe(t, s, len, h);
        n = e->hash ? e->name : add_name(ctx, t, e, s, len, h);
    } else {
        n = intern_other(ctx, s, len, h);
    }
    if (r)
        recent_fill(r, key, len, n);
    return n;
}

/* Is s[0..len) (len at most 8) a register written %<prefix><number>,
 * the prefix without digits and the number without a leading zero?
 * Then *plen and *num: the name is the prefix and the number's decimal
 * digits, and no other name is. */
INLINE bool register_form(const char *s, size_t len, size_t *plen, uint32_t *num)
{
    size_t p = 1;
    while (p < len && (unsigned char)(s[p] - '0') > 9)
        p++;
    if (p == len || (s[p] == '0' && len - p > 1))
        return false;
    uint32_t v = 0;
    for (size_t i = p; i < len; i++) {
        unsigned d = (unsigned char)(s[i] - '0');
        if (d > 9)
            return false;
        v = v * 10 + d;
    }
    *plen = p;
    *num = v;
    return true;
}

/* The family of prefix (key, plen), or the empty slot where it would go:
 * there is always one, as family_keep fills at most 3/4 of the slots
 * (and evicts none). */
INLINE ptx_intern_family *family_of(ptx_interner *in, uint64_t key, size_t plen)
{
    const size_t mask = ((size_t)1 << FAMILY_BITS) - 1;
    size_t i = ((key ^ plen) * 0x9e3779b97f4a7c15ULL) >> (64 - FAMILY_BITS);
    for (;; i = (i + 1) & mask) {
        ptx_intern_family *f = &in->families[i];
        if (!f->plen || (f->key == key && f->plen == plen))
            return f;
    }
}

/* Keeps n, the name of number `num` of the prefix (key, plen), in f, its
 * family or the empty slot for it.  A family's numbers grow as far as
 * twice those it keeps, so that a few large numbers cost no large
 * array (those are looked up in the table). */
SLOW void family_keep(ptx_context *ctx, ptx_intern_family *f, uint64_t key, size_t plen,
                      uint32_t num, const ptx_name *n)
{
    ptx_interner *in = &ctx->names;
    if (!f->plen) {
        if ((in->nfamilies + 1) * 4 > (size_t)3 << FAMILY_BITS)
            return;
        *f = (ptx_intern_family){ key, (uint32_t)plen, 0, 0, NULL };
        in->nfamilies++;
    }
    if (num >= f->cap) {
        if (num >= FAMILY_NUMBERS || num >= 2 * (size_t)f->count + 64)
            return;
        size_t cap = f->cap ? 2 * (size_t)f->cap : 64;
        while (cap <= num)
            cap *= 2;
        const ptx_name **by = ptx_ctx_realloc(ctx, f->by_number, f->cap * sizeof *by, cap * sizeof *by);
        if (!by)
            longjmp(ctx->oom, 1);
        memset(by + f->cap, 0, (cap - f->cap) * sizeof *by);
        f->by_number = by;
        f->cap = (uint32_t)cap;
    }
    if (!f->by_number[num])
        f->count++;
    f->by_number[num] = n;
}

/* A short name that is not among the recent ones: a register of a
 * prefix and a number by its number, else from its table; into the
 * recent slot r under `key` either way. */
SLOW const ptx_name *intern_short(ptx_context *ctx, const char *s, size_t len,
                                  ptx_intern_recent *r, const uint64_t *key)
{
    size_t plen;
    uint32_t num;
    if (s[0] != '%' || !register_form(s, len, &plen, &num))
        return intern_in_table(ctx, s, len, r, key);
    uint64_t fkey = short_key(s, plen);
    ptx_intern_family *f = family_of(&ctx->names, fkey, plen);
    if (num < f->cap && f->by_number[num]) {
        recent_fill(r, key, len, f->by_number[num]);
        return f->by_number[num];
    }
    const ptx_name *n = intern_in_table(ctx, s, len, r, key);
    family_keep(ctx, f, fkey, plen, num, n);
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
    return intern_short(ctx, s, len, r, key);
}

/* The name s[0..len) (hash h) in t, or NULL. */
static const ptx_name *find_in(const ptx_intern_table *t, const char *s, size_t len, uint32_t h)
{
    const ptx_intern_slot *e = t->slots ? probe(t, s, len, h) : NULL;
    return e && e->hash ? e->name : NULL;
}

uint32_t ptx_hash_bytes(const char *s, size_t len)
{
    return hash_bytes(s, len);
}

const ptx_name *ptx_intern_find(const ptx_context *ctx, const char *s, size_t len)
{
    const ptx_interner *in = &ctx->names;
    uint32_t h = hash_bytes(s, len);
    if (in_regs(s, len))
        return find_in(&in->regs, s, len, h);
    const ptx_name *n = find_in(&in->young, s, len, h);
    return n ? n : find_in(&in->others, s, len, h);
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

void ptx_interner_release(ptx_context *ctx)
{
    ptx_interner *in = &ctx->names;
    free(in->splits);
    in->splits = NULL;
    in->split_mask = in->nsplits = 0;
    if (in->recent) {   /* interner_start has been */
        ptx_arena_release(&in->text);
        ptx_arena_release(&in->regtext);
    }
    ptx_table_free(ctx, in->regs.slots, (in->regs.mask + 1) * sizeof *in->regs.slots, in->regs.mapped);
    ptx_table_free(ctx, in->others.slots, (in->others.mask + 1) * sizeof *in->others.slots,
                   in->others.mapped);
    ptx_ctx_free(ctx, in->young.slots, ((size_t)1 << YOUNG_BITS) * sizeof *in->young.slots);
    for (size_t i = 0; in->families && i < (size_t)1 << FAMILY_BITS; i++)
        ptx_ctx_free(ctx, in->families[i].by_number, in->families[i].cap * sizeof *in->families[i].by_number);
    ptx_ctx_free(ctx, in->families, ((size_t)1 << FAMILY_BITS) * sizeof *in->families);
    in->families = NULL;
    in->nfamilies = 0;
    ptx_ctx_free(ctx, in->filter, (in->filter_mask + 1) * sizeof *in->filter);
    in->filter = NULL;
    in->filter_mask = 0;
    ptx_ctx_free(ctx, in->recent, RECENT_SLOTS * sizeof *in->recent);
    in->recent = NULL;
    in->regs = in->others = in->young = (ptx_intern_table){ NULL, 0, 0, 0, 0 };
    in->count = 0;
}
