/* Suite "arena": the arena allocator and name interning (internal API,
 * src/internal.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "internal.h"

START_TEST(alloc_alignment)
{
    ptx_arena a;
    ptx_arena_init(&a);
    for (size_t size = 0; size < 100; size++) {
        char *p = ptx_arena_alloc(&a, size);
        ck_assert_ptr_nonnull(p);
        ck_assert_msg(((uintptr_t)p & 7) == 0, "size %zu: %p is not 8-byte aligned", size, (void *)p);
        memset(p, 0xAB, size);
    }
    ptx_arena_release(&a);
}
END_TEST

START_TEST(alloc_consecutive)
{
    /* small requests are carved one after another, rounded up to 8 */
    ptx_arena a;
    ptx_arena_init(&a);
    char *p1 = ptx_arena_alloc(&a, 1);
    char *p2 = ptx_arena_alloc(&a, 9);
    char *p3 = ptx_arena_alloc(&a, 16);
    char *p4 = ptx_arena_alloc(&a, 0);
    char *p5 = ptx_arena_alloc(&a, 0);
    ck_assert_ptr_eq(p2, p1 + 8);
    ck_assert_ptr_eq(p3, p2 + 16);
    ck_assert_ptr_eq(p4, p3 + 16);
    /* a zero-byte request still gets a distinct pointer */
    ck_assert_ptr_eq(p5, p4 + 8);
    ptx_arena_release(&a);
}
END_TEST

START_TEST(alloc_many_small)
{
    enum { N = 200000 };
    ptx_arena a;
    ptx_arena_init(&a);
    uint32_t **ptrs = malloc(N * sizeof *ptrs);
    ck_assert_ptr_nonnull(ptrs);
    /* failures are counted and asserted once: each ck_assert is a write
     * to Check's pipe, and a million of them took seconds on a busy
     * machine (the test timed out) */
    uint32_t null = 0, misaligned = 0, overwritten = 0;
    for (uint32_t i = 0; i < N; i++) {
        size_t size = 4 + (i % 5) * 4;
        ptrs[i] = ptx_arena_alloc(&a, size);
        if (!ptrs[i]) {
            null++;
            continue;
        }
        misaligned += ((uintptr_t)ptrs[i] & 7) != 0;
        for (size_t k = 0; k < size / 4; k++)
            ptrs[i][k] = i;
    }
    ck_assert_uint_eq(null, 0);
    ck_assert_uint_eq(misaligned, 0);
    /* nothing overlapped: every allocation still holds its own value */
    for (uint32_t i = 0; i < N; i++) {
        size_t size = 4 + (i % 5) * 4;
        for (size_t k = 0; k < size / 4; k++)
            overwritten += ptrs[i][k] != i;
    }
    ck_assert_uint_eq(overwritten, 0);
    /* more than the first 64 KiB block was needed */
    ck_assert_uint_gt(a.total, 64 * 1024);
    free(ptrs);
    ptx_arena_release(&a);
    ck_assert_ptr_null(a.head);
    ck_assert_uint_eq(a.total, 0);
}
END_TEST

START_TEST(alloc_huge_then_small)
{
    ptx_arena a;
    ptx_arena_init(&a);
    char *s1 = ptx_arena_alloc(&a, 24);
    size_t huge = 1024 * 1024;
    char *h = ptx_arena_alloc(&a, huge);
    ck_assert_ptr_nonnull(h);
    ck_assert(((uintptr_t)h & 7) == 0);
    memset(h, 0x5A, huge);
    /* the huge request got its own block: small ones continue in the old one */
    char *s2 = ptx_arena_alloc(&a, 8);
    ck_assert_ptr_eq(s2, s1 + 24);
    ck_assert(s2 + 8 <= h || s2 >= h + huge);
    for (int i = 0; i < 1000; i++) {
        char *p = ptx_arena_alloc(&a, 16);
        ck_assert_ptr_nonnull(p);
        ck_assert(p + 16 <= h || p >= h + huge);
        memset(p, 0x11, 16);
    }
    for (size_t i = 0; i < huge; i++)
        if (h[i] != 0x5A)
            ck_abort_msg("huge block overwritten at %zu", i);
    ptx_arena_release(&a);
}
END_TEST

START_TEST(alloc_huge_first)
{
    ptx_arena a;
    ptx_arena_init(&a);
    size_t huge = 200 * 1024;
    char *h = ptx_arena_alloc(&a, huge);
    ck_assert_ptr_nonnull(h);
    memset(h, 1, huge);
    char *s1 = ptx_arena_alloc(&a, 8);
    char *s2 = ptx_arena_alloc(&a, 8);
    ck_assert_ptr_nonnull(s1);
    ck_assert_ptr_eq(s2, s1 + 8);
    ck_assert(s1 + 16 <= h || s1 >= h + huge);
    ptx_arena_release(&a);
}
END_TEST

START_TEST(zalloc_and_strndup)
{
    ptx_arena a;
    ptx_arena_init(&a);
    /* dirty memory, release it, and allocate again: malloc is likely to
     * hand the same dirty block back, and zalloc must clear its part */
    memset(ptx_arena_alloc(&a, 4096), 0xFF, 4096);
    ptx_arena_release(&a);
    ptx_arena_init(&a);
    unsigned char *z = ptx_arena_zalloc(&a, 100);
    for (int i = 0; i < 100; i++)
        ck_assert_uint_eq(z[i], 0);
    char *s = ptx_arena_strndup(&a, "hello world", 5);
    ck_assert_str_eq(s, "hello");
    char *e = ptx_arena_strndup(&a, "", 0);
    ck_assert_str_eq(e, "");
    ptx_arena_release(&a);
}
END_TEST

START_TEST(release_and_reuse)
{
    ptx_arena a;
    ptx_arena_init(&a);
    for (int i = 0; i < 10000; i++)
        ptx_arena_alloc(&a, 64);
    ck_assert_ptr_nonnull(a.head);
    ptx_arena_release(&a);
    ck_assert_ptr_null(a.head);
    ck_assert_ptr_null(a.cur);
    ck_assert_ptr_null(a.end);
    ck_assert_uint_eq(a.total, 0);
    /* the arena can be used again after a release */
    char *p = ptx_arena_alloc(&a, 32);
    ck_assert_ptr_nonnull(p);
    memset(p, 0, 32);
    ck_assert_uint_gt(a.total, 0);
    ptx_arena_release(&a);
    /* releasing an empty arena is harmless */
    ptx_arena_release(&a);
    ck_assert_ptr_null(a.head);
}
END_TEST

/* A reset keeps the newest block and hands it out again from its start;
 * built with AddressSanitizer it keeps none (internal.h). */
START_TEST(reset_keeps_newest_block)
{
    ptx_arena a;
    ptx_arena_init(&a);
    /* 64-byte requests past the first two blocks (64 KB, 128 KB) into
     * the third (256 KB) */
    char *newest = NULL;
    int blocks = 0;
    for (int i = 0; i < 5000; i++) {
        ptx_arena_block *before = a.head;
        char *p = ptx_arena_alloc(&a, 64);
        if (a.head != before) {
            newest = p;
            blocks++;
        }
    }
    ck_assert_int_eq(blocks, 3);
    ptx_arena_block *head = a.head;
    size_t next = a.next_size, total = a.total;
    ptx_arena_reset(&a);
#if !PTX_ARENA_RESET_KEEPS
    ck_assert_ptr_null(a.head);
    ck_assert_uint_eq(a.total, 0);
    (void)head;
    (void)newest;
    (void)total;
#else
    ck_assert_ptr_eq(a.head, head);
    /* the first two blocks went back */
    ck_assert_uint_eq(a.total, total - (64 + 128) * 1024);
    ck_assert_ptr_eq(ptx_arena_alloc(&a, 64), newest);
#endif
    /* the blocks go on growing from where they were */
    ck_assert_uint_eq(a.next_size, next);
    ptx_arena_release(&a);
}
END_TEST

/* A parse of `from` bytes and more starts the arena with a 2 MB block; a
 * smaller one keeps the 64 KB start, and a larger next block stays
 * larger. */
START_TEST(arena_sized_for_large_inputs)
{
    ptx_arena a;
    ptx_arena_init(&a);
    size_t first = a.next_size;
    ptx_arena_size_for(&a, PTX_ARENA_LARGE - 1, PTX_ARENA_LARGE);
    ck_assert_uint_eq(a.next_size, first);
    ptx_arena_size_for(&a, 2 * (size_t)PTX_ARENA_LARGE - 1, 2 * (size_t)PTX_ARENA_LARGE);
    ck_assert_uint_eq(a.next_size, first);
    ptx_arena_size_for(&a, PTX_ARENA_LARGE, PTX_ARENA_LARGE);
    ck_assert_uint_eq(a.next_size, 2u * 1024 * 1024);
    a.next_size = 8u * 1024 * 1024;
    ptx_arena_size_for(&a, 100u * 1024 * 1024, PTX_ARENA_LARGE);
    ck_assert_uint_eq(a.next_size, 8u * 1024 * 1024);
    ptx_arena_release(&a);
}
END_TEST

/* ptx_big_zalloc's memory is zeroed, mapped (filled in at once, or in
 * huge pages) or not. */
START_TEST(big_zalloc_zeroes)
{
    static const size_t sizes[] = { 1, 4096, 64u * 1024, 512u * 1024 - 1, 512u * 1024,
                                    2u * 1024 * 1024 - 1, 2u * 1024 * 1024, 5u * 1024 * 1024 + 3 };
    for (size_t k = 0; k < 2 * (sizeof sizes / sizeof *sizes); k++) {
        size_t mapped, size = sizes[k / 2];
        unsigned char *p = ptx_big_zalloc(size, k % 2, &mapped);
        ck_assert_ptr_nonnull(p);
        size_t nonzero = 0;
        for (size_t i = 0; i < size; i += 997)
            nonzero += p[i] != 0;
        nonzero += p[size - 1] != 0;
        ck_assert_uint_eq(nonzero, 0);
        ck_assert_uint_ge(mapped ? mapped : size, size);
        memset(p, 0xAB, size);
        ptx_big_free(p, mapped);
    }
}
END_TEST

/* Nothing but zeroes in p[0..n) */
static bool all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* The tables' pool is off below PTX_POOL_MIN of input, and under
 * AddressSanitizer: the tables then come from ptx_big_zalloc. */
START_TEST(pool_off_below_its_input_size)
{
    ptx_pool pool;
    ptx_pool_init(&pool, PTX_POOL_MIN - 1);
    ck_assert_ptr_null(ptx_pool_zalloc(&pool, 4096));
    ptx_pool_init(&pool, PTX_POOL_MIN);
    void *p = ptx_pool_zalloc(&pool, 4096);
    ck_assert(PTX_ASAN ? p == NULL : p != NULL);
    ptx_pool_release(&pool);
}
END_TEST

/* Room given back is given again, zeroed, merged with the room given
 * back beside it.  Regression: room given back next to the pool's unused
 * rest was once given again as it was, not zeroed; the interner's table
 * of names got stale slots and looped forever on the 15.5 MB Thrust
 * module. */
START_TEST(pool_gives_back_zeroed_room)
{
    if (PTX_ASAN)
        return;     /* the pool is off (pool_off_below_its_input_size) */
    ptx_pool pool;
    ptx_pool_init(&pool, PTX_POOL_MIN);
    unsigned char *a = ptx_pool_zalloc(&pool, 4096), *b = ptx_pool_zalloc(&pool, 8192),
                  *c = ptx_pool_zalloc(&pool, 4096);
    ck_assert(a && b == a + 4096 && c == b + 8192);
    ck_assert(all_zero(a, 16384));
    memset(a, 0xAB, 16384);
    ptx_pool_free(&pool, a, 4096);
    ptx_pool_free(&pool, c, 4096);
    ptx_pool_free(&pool, b, 8192);
    ck_assert_uint_eq(pool.nholes, 1);
    unsigned char *d = ptx_pool_zalloc(&pool, 16384);
    ck_assert_ptr_eq(d, a);
    ck_assert(all_zero(d, 16384));
    memset(d, 0xCD, 16384);
    ptx_pool_free(&pool, d, 16384);
    unsigned char *e = ptx_pool_zalloc(&pool, 100);
    ck_assert_ptr_eq(e, a);
    ck_assert(all_zero(e, 100));
    ptx_pool_release(&pool);
}
END_TEST

/* At most one 2 MB chunk per PTX_POOL_MIN of input, and nothing above
 * 1 MB: beyond, the pool says no. */
START_TEST(pool_holds_what_its_chunks_hold)
{
    if (PTX_ASAN)
        return;     /* the pool is off (pool_off_below_its_input_size) */
    ptx_pool pool;
    ptx_pool_init(&pool, PTX_POOL_MIN);
    ck_assert_ptr_null(ptx_pool_zalloc(&pool, 1024 * 1024 + 1));
    unsigned char *x = ptx_pool_zalloc(&pool, 1024 * 1024), *y = ptx_pool_zalloc(&pool, 1024 * 1024);
    ck_assert(x && y && all_zero(y, 1024 * 1024));
    ck_assert_ptr_null(ptx_pool_zalloc(&pool, 64));
    ck_assert_uint_eq(pool.nchunks, 1);
    ptx_pool_free(&pool, x, 1024 * 1024);
    ck_assert_ptr_eq(ptx_pool_zalloc(&pool, 64), x);
    ptx_pool_release(&pool);
    ptx_pool_init(&pool, 2 * PTX_POOL_MIN);
    ck_assert(ptx_pool_zalloc(&pool, 1024 * 1024) && ptx_pool_zalloc(&pool, 1024 * 1024));
    ck_assert_ptr_nonnull(ptx_pool_zalloc(&pool, 64));
    ck_assert_uint_eq(pool.nchunks, 2);
    ptx_pool_release(&pool);
}
END_TEST

/* Regression (fixed): the rounding of the request size to a multiple of 8 overflows for
 * sizes within 7 of SIZE_MAX: ptx_arena_alloc(a, SIZE_MAX - 3) rounds to 0,
 * then to 8, and hands out an 8-byte block as if it had the size asked
 * for.  (Sizes a little further below SIZE_MAX overflow the block header
 * addition in grow() instead.)  With no OOM handler the request must fail
 * with NULL. */
START_TEST(alloc_size_overflow)
{
    ptx_arena a;
    ptx_arena_init(&a);
    ck_assert_ptr_null(a.oom);
    void *p = ptx_arena_alloc(&a, SIZE_MAX - 3);
    ptx_arena_release(&a);
    ck_assert_ptr_null(p);
}
END_TEST

/* ---- interning ---------------------------------------------------------- */

START_TEST(intern_same_and_different)
{
    ptx_context *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(ctx);
    char s1[] = "%r1", s2[] = "%r1";
    const ptx_name *a = ptx_intern(ctx, s1, 3);
    const ptx_name *b = ptx_intern(ctx, s2, 3);
    const ptx_name *c = ptx_intern(ctx, "%r2", 3);
    const ptx_name *d = ptx_intern(ctx, "%r10", 4);
    ck_assert_ptr_eq(a, b);
    ck_assert_ptr_ne(a, c);
    ck_assert_ptr_ne(a, d);
    ck_assert_ptr_ne(c, d);
    ck_assert_uint_eq(a->len, 3);
    ck_assert_str_eq(a->text, "%r1");
    ck_assert_uint_eq(d->len, 4);
    ck_assert_str_eq(d->text, "%r10");
    /* the text is copied, not referenced */
    s1[2] = '9';
    ck_assert_str_eq(a->text, "%r1");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(intern_prefix_and_empty)
{
    ptx_context *ctx = ptx_context_new();
    /* only len bytes count, and the stored text is NUL-terminated */
    const ptx_name *ab = ptx_intern(ctx, "abcdef", 2);
    ck_assert_uint_eq(ab->len, 2);
    ck_assert_str_eq(ab->text, "ab");
    ck_assert_ptr_eq(ptx_intern(ctx, "ab", 2), ab);
    ck_assert_ptr_ne(ptx_intern(ctx, "abc", 3), ab);
    const ptx_name *empty = ptx_intern(ctx, "x", 0);
    ck_assert_uint_eq(empty->len, 0);
    ck_assert_str_eq(empty->text, "");
    ck_assert_ptr_eq(ptx_intern(ctx, "", 0), empty);
    /* embedded NUL bytes are part of the name */
    const ptx_name *nul = ptx_intern(ctx, "a\0b", 3);
    ck_assert_uint_eq(nul->len, 3);
    ck_assert_ptr_ne(nul, ptx_intern(ctx, "a\0c", 3));
    ck_assert_ptr_eq(nul, ptx_intern(ctx, "a\0b", 3));
    ptx_context_free(ctx);
}
END_TEST

/* Names of every length up to 12 that differ in one byte, at each
 * position: each is its own name, and is found again when the bytes
 * after it differ (the slot keeps the first eight bytes, read in three
 * ways by length: none past the name may count). */
START_TEST(intern_one_byte_apart)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_name *seen[13][13];
    char buf[16];
    for (int pass = 0; pass < 2; pass++)
        for (size_t len = 0; len <= 12; len++)
            for (size_t at = 0; at <= len; at++) {
                memset(buf, pass ? 'y' : 'z', sizeof buf);
                memset(buf, 'a', len);
                if (at < len)
                    buf[at] = 'b';
                const ptx_name *n = ptx_intern(ctx, buf, len);
                ck_assert_uint_eq(n->len, len);
                ck_assert_int_eq(memcmp(n->text, buf, len), 0);
                if (pass == 0)
                    seen[len][at] = n;
                else
                    ck_assert_ptr_eq(n, seen[len][at]);
            }
    /* all-'a' names (at == len) of each length, plus one name per
     * length and position of the 'b' */
    ck_assert_uint_eq(ctx->names.count, 13 + 12 * 13 / 2);
    ptx_context_free(ctx);
}
END_TEST

/* Dotted names of every length up to 20 that differ in one byte, at each
 * position after the opcode's first: each has a split of its own, found
 * again when the bytes after it differ (splits of up to 16 bytes are
 * kept by their bytes, read as two overlapping words). */
START_TEST(intern_split_one_byte_apart)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_split *seen[21][21];
    char buf[32];
    for (int pass = 0; pass < 2; pass++)
        for (size_t len = 3; len <= 20; len++)
            for (size_t at = 2; at <= len; at++) {
                memset(buf, pass ? 'y' : 'z', sizeof buf);
                memset(buf, 'a', len);
                buf[1] = '.';
                if (at < len)
                    buf[at] = 'b';
                const ptx_split *sp = ptx_intern_split(ctx, buf, len);
                ck_assert_uint_eq(sp->whole->len, len);
                ck_assert_int_eq(memcmp(sp->whole->text, buf, len), 0);
                ck_assert_uint_eq(sp->nwords, 2);
                ck_assert_uint_eq(sp->words[1]->len, len - 1);
                if (pass == 0)
                    seen[len][at] = sp;
                else
                    ck_assert_ptr_eq(sp, seen[len][at]);
            }
    ptx_context_free(ctx);
}
END_TEST

/* The young slot that holds name n, or NULL (linear probing from its
 * hash, as intern.c does). */
static const ptx_name *probe_young(const ptx_intern_table *y, const ptx_name *n)
{
    for (size_t i = n->hash & y->mask; y->slots[i].hash; i = (i + 1) & y->mask)
        if (y->slots[i].name == n)
            return n;
    return NULL;
}

/* Register names ('%' first) and the others have tables of their own;
 * each grows and keeps below 3/4 full, and every name is found again.
 * The others not yet moved from the young table are there, below its
 * limit, and in no other table. */
START_TEST(intern_rehash)
{
    enum { N = 100000 };
    ptx_context *ctx = ptx_context_new();
    const ptx_name **names = malloc(2 * N * sizeof *names);
    ck_assert_ptr_nonnull(names);
    char buf[32];
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 2 * N; i++) {
            /* %name0, name0, %name1, name1... */
            int len = snprintf(buf, sizeof buf, "%s%d", i % 2 ? "name" : "%name", i / 2);
            const ptx_name *n = ptx_intern(ctx, buf, (size_t)len);
            ck_assert_uint_eq(n->len, (uint32_t)len);
            ck_assert_str_eq(n->text, buf);
            if (pass == 0)
                names[i] = n;
            else
                ck_assert_ptr_eq(n, names[i]);
        }
    ck_assert_uint_eq(ctx->names.count, 2 * N);
    const ptx_intern_table *t[2] = { &ctx->names.regs, &ctx->names.others };
    const ptx_intern_table *young = &ctx->names.young;
    ck_assert_uint_lt(young->count, young->limit);
    for (int k = 0; k < 2; k++) {
        size_t in_young = k ? young->count : 0;
        ck_assert_uint_eq(t[k]->count + in_young, N);
        ck_assert_uint_ge((t[k]->mask + 1) * 3, t[k]->count * 4);
        ck_assert_uint_eq((t[k]->mask + 1) & t[k]->mask, 0);
        size_t used = 0;
        for (size_t i = 0; i <= t[k]->mask; i++)
            if (t[k]->slots[i].hash) {
                used++;
                ck_assert_int_eq(t[k]->slots[i].name->text[0] == '%', k == 0);
                if (k)
                    ck_assert_ptr_ne(probe_young(young, t[k]->slots[i].name), t[k]->slots[i].name);
            }
        ck_assert_uint_eq(used, t[k]->count);
    }
    size_t used = 0;
    for (size_t i = 0; i <= young->mask; i++)
        used += young->slots[i].hash != 0;
    ck_assert_uint_eq(used, young->count);
    free(names);
    ptx_context_free(ctx);
}
END_TEST

/* Ids number a context's names 0, 1, 2... in the order they were first
 * interned, across both tables, through their growth and through the
 * words of dotted names; the same name keeps its id, a lookup that finds
 * nothing takes none, and another context numbers from 0 again. */
START_TEST(intern_ids_dense)
{
    enum { N = 5000 };
    ptx_context *ctx = ptx_context_new();
    const ptx_name **names = malloc(N * sizeof *names);
    ck_assert_ptr_nonnull(names);
    char buf[32];
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < N; i++) {
            /* %r0, lbl1, %r2, lbl3... */
            int len = snprintf(buf, sizeof buf, "%s%d", i % 2 ? "lbl" : "%r", i);
            const ptx_name *n = ptx_intern(ctx, buf, (size_t)len);
            ck_assert_uint_eq(n->id, (uint32_t)i);
            if (pass == 0)
                names[i] = n;
            else
                ck_assert_ptr_eq(n, names[i]);
        }
    ck_assert_uint_eq(ctx->names.count, N);
    ck_assert_ptr_null(ptx_intern_find(ctx, "nowhere", 7));
    /* ld.shared.u32: the whole, then its new words (.shared, .u32);
     * "ld" was interned first */
    const ptx_name *ld = ptx_intern(ctx, "ld", 2);
    ck_assert_uint_eq(ld->id, N);
    const ptx_split *sp = ptx_intern_split(ctx, "ld.shared.u32", 13);
    ck_assert_uint_eq(sp->whole->id, N + 1);
    ck_assert_ptr_eq(sp->words[0], ld);
    ck_assert_uint_eq(sp->words[1]->id, N + 2);
    ck_assert_uint_eq(sp->words[2]->id, N + 3);
    ck_assert_uint_eq(ctx->names.count, N + 4);
    ck_assert_uint_eq(ptx_intern(ctx, "%r2", 3)->id, 2);
    ptx_context *other = ptx_context_new();
    ck_assert_uint_eq(ptx_intern(other, "lbl3", 4)->id, 0);
    ptx_context_free(other);
    free(names);
    ptx_context_free(ctx);
}
END_TEST

/* A register of a prefix and a number is found by its number, and only
 * the name written exactly so is (%r01 is not %r1, %r1x no register of
 * %r); numbers a prefix's array does not keep come from the table.  New
 * names that are not registers move from the young table to the large
 * one in batches, and a name is the same before and after its move.
 * Each name below is asked for again after 40,000 others have pushed it
 * out of the recent names. */
START_TEST(intern_registers_and_young_names)
{
    static const char *const forms[] = {
        "%r1", "%r01", "%r10", "%r1x", "%rd1", "%r0", "%r00", "%r",
        "%r65535", "%r65536", "%r9999999", "%p1", "%1", "r1",
    };
    enum { NF = sizeof forms / sizeof forms[0], M = 20000 };
    ptx_context *ctx = ptx_context_new();
    const ptx_name *first[NF];
    char buf[32];
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < NF; i++) {
            const ptx_name *n = ptx_intern(ctx, forms[i], strlen(forms[i]));
            ck_assert_str_eq(n->text, forms[i]);
            if (pass == 0)
                first[i] = n;
            else
                ck_assert_ptr_eq(n, first[i]);
            ck_assert_ptr_eq(ptx_intern_find(ctx, forms[i], strlen(forms[i])), first[i]);
        }
        for (int i = 0; i < M; i++) {
            int len = snprintf(buf, sizeof buf, "%%r%d", i + pass * 7);
            ck_assert_str_eq(ptx_intern(ctx, buf, (size_t)len)->text, buf);
            len = snprintf(buf, sizeof buf, "$L__BB%d_%d", pass, i);
            ck_assert_str_eq(ptx_intern(ctx, buf, (size_t)len)->text, buf);
        }
    }
    for (int i = 0; i < NF; i++)
        for (int j = i + 1; j < NF; j++)
            ck_assert_ptr_ne(first[i], first[j]);
    /* every label once, whether it moved or is young: interning it again
     * adds no name */
    size_t count = ctx->names.count;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < M; i += 97) {
            int len = snprintf(buf, sizeof buf, "$L__BB%d_%d", pass, i);
            const ptx_name *n = ptx_intern_find(ctx, buf, (size_t)len);
            ck_assert_ptr_nonnull(n);
            ck_assert_ptr_eq(ptx_intern(ctx, buf, (size_t)len), n);
        }
    ck_assert_uint_eq(ctx->names.count, count);
    ck_assert_ptr_null(ptx_intern_find(ctx, "$L__BB3_0", 9));
    ptx_context_free(ctx);
}
END_TEST

Suite *arena_suite(void)
{
    Suite *s = suite_create("arena");
    TCase *tc = tcase_create("arena");
    tcase_add_test(tc, alloc_alignment);
    tcase_add_test(tc, alloc_consecutive);
    tcase_add_test(tc, alloc_many_small);
    tcase_add_test(tc, alloc_huge_then_small);
    tcase_add_test(tc, alloc_huge_first);
    tcase_add_test(tc, zalloc_and_strndup);
    tcase_add_test(tc, release_and_reuse);
    tcase_add_test(tc, reset_keeps_newest_block);
    tcase_add_test(tc, arena_sized_for_large_inputs);
    tcase_add_test(tc, big_zalloc_zeroes);
    tcase_add_test(tc, alloc_size_overflow);
    tcase_add_test(tc, pool_off_below_its_input_size);
    tcase_add_test(tc, pool_gives_back_zeroed_room);
    tcase_add_test(tc, pool_holds_what_its_chunks_hold);
    suite_add_tcase(s, tc);

    tc = tcase_create("intern");
    tcase_add_test(tc, intern_same_and_different);
    tcase_add_test(tc, intern_prefix_and_empty);
    tcase_add_test(tc, intern_one_byte_apart);
    tcase_add_test(tc, intern_split_one_byte_apart);
    tcase_add_test(tc, intern_rehash);
    tcase_add_test(tc, intern_ids_dense);
    tcase_add_test(tc, intern_registers_and_young_names);
    suite_add_tcase(s, tc);
    return s;
}
