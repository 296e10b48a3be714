/* The arena: every node, name and message of a parse is carved from large
 * blocks that are released together.  Blocks grow geometrically so that a
 * 100 MB module needs a few dozen mallocs; a request larger than the next
 * block gets a block of its own. */
/* madvise and MADV_HUGEPAGE (Linux); elsewhere the plain path is used */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "arena.h"

struct ptx_arena_block {
    ptx_arena_block *prev;
    size_t size;
    size_t mapped;      /* bytes mapped with mmap; 0: from malloc */
    max_align_t data[];
};

enum { FIRST_BLOCK = 64 * 1024, LARGEST_BLOCK = 64 * 1024 * 1024 };

void ptx_arena_init(ptx_arena *a)
{
    memset(a, 0, sizeof *a);
    a->next_size = FIRST_BLOCK;
}

/* Blocks of 2 MB and more (ptx_big_alloc: the input's buffer too) are
 * mapped on a 2 MB boundary with huge pages asked for, where the system has
 * them (Linux, THP in "madvise" mode): a large parse then takes one page
 * fault per 2 MB instead of one per 4 KB (on a 2.5 MB module, 69,000 faults
 * became 3,500 and the parse 20% faster), and one TLB entry covers 2 MB.
 * They are unmapped on release, so the memory goes back to the system at
 * once. */
enum { HUGE_PAGE = 2 * 1024 * 1024 };

#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
/* len bytes (a multiple of 2 MB), zeroed, on a 2 MB boundary with huge
 * pages asked for; *mapped = len.  NULL when it cannot be mapped. */
static void *map_huge(size_t len, size_t *mapped)
{
    if (len > SIZE_MAX - HUGE_PAGE)
        return NULL;
    char *p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    /* keep the 2 MB-aligned part */
    size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
    if (head)
        munmap(p, head);
    if (HUGE_PAGE - head)
        munmap(p + head + len, HUGE_PAGE - head);
    madvise(p + head, len, MADV_HUGEPAGE);
    *mapped = len;
    return p + head;
}

static size_t huge_round(size_t bytes)
{
    return (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
}
#endif

#if defined(MADV_HUGEPAGE) && defined(MAP_POPULATE) && defined(MAP_ANONYMOUS)
/* `bytes`, zeroed, with every page filled in by the one call; *mapped =
 * bytes.  NULL when it cannot be mapped. */
static void *map_filled(size_t bytes, size_t *mapped)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                   -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    *mapped = bytes;
    return p;
}
#endif

void *ptx_big_alloc(size_t bytes, size_t *mapped)
{
    *mapped = 0;
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
    if (bytes >= HUGE_PAGE && bytes <= SIZE_MAX - 2 * HUGE_PAGE)
        return map_huge(huge_round(bytes), mapped);
#endif
    return malloc(bytes);
}

/* Zeroed tables (the interner's, the semantic pass's array of names) are
 * mapped, not malloc'd and cleared: from 512 KB on in huge pages, one
 * fault and one TLB entry for what took up to 512 of each (on the 15.5
 * MB Thrust module the check-only run took 9% less time, peak RSS 28.8
 * to 31.3 MB), when the input is large enough for the rounding up to 2
 * MB not to weigh; from 64 KB with their pages filled in at once
 * (MAP_POPULATE), one call instead of a fault per 4 KB.  Under
 * AddressSanitizer they come from malloc, which it checks the bounds
 * of. */
enum { POPULATED = 64 * 1024, HUGE_TABLE = 512 * 1024 };

void *ptx_big_zalloc(size_t bytes, bool huge, size_t *mapped)
{
    *mapped = 0;
#if defined(MADV_HUGEPAGE) && defined(MAP_POPULATE) && defined(MAP_ANONYMOUS)
    if (!PTX_ASAN && huge && bytes >= HUGE_TABLE && bytes <= SIZE_MAX - 2 * HUGE_PAGE) {
        void *h = map_huge(huge_round(bytes), mapped);
        if (h)
            return h;
    }
    if (!PTX_ASAN && bytes >= POPULATED && bytes < HUGE_PAGE) {
        void *q = map_filled(bytes, mapped);
        if (q)
            return q;
    }
#endif
    void *p = ptx_big_alloc(bytes, mapped);
    if (p && !*mapped)
        memset(p, 0, bytes);
    return p;
}

void ptx_big_free(void *p, size_t mapped)
{
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
    if (mapped) {
        munmap(p, mapped);
        return;
    }
#endif
    (void)mapped;
    free(p);
}

/* A block of 64 KB to 2 MB is mapped with its pages filled in at once:
 * the arena fills its blocks from the start, and one call costs less
 * than a page fault per 4 KB (on this VM a fault costs several
 * microseconds: the check-only run of cub_algos, 2.5 MB, took 589 faults
 * and now 216, and 5% less time).  Not under AddressSanitizer (see
 * ptx_big_zalloc). */
static ptx_arena_block *alloc_block(ptx_arena *a, size_t bytes)
{
    size_t mapped;
    if (a->pool && bytes < HUGE_PAGE) {
        ptx_arena_block *p = ptx_pool_zalloc(a->pool, bytes);
        if (p) {
            p->mapped = PTX_MAPPED_POOL;
            return p;
        }
    }
#if defined(MADV_HUGEPAGE) && defined(MAP_POPULATE) && defined(MAP_ANONYMOUS)
    if (!PTX_ASAN && bytes >= POPULATED && bytes < HUGE_PAGE) {
        ptx_arena_block *q = map_filled(bytes, &mapped);
        if (q) {
            q->mapped = mapped;
            return q;
        }
    }
#endif
    ptx_arena_block *b = ptx_big_alloc(bytes, &mapped);
    if (b)
        b->mapped = mapped;
    return b;
}

static void free_block(ptx_arena *a, ptx_arena_block *b)
{
    if (b->mapped == PTX_MAPPED_POOL)
        ptx_pool_free(a->pool, b, sizeof *b + b->size);
    else
        ptx_big_free(b, b->mapped);
}

/* ---- the tables' pool ------------------------------------------------------ */

/* On this project's machines a fresh 4 KB page costs 15 to 25 us of CPU
 * the first time it is touched (populated at once or not), a fresh 2 MB
 * huge page 0.2 to 0.4 ms: 4 to 6 ms per MB against 0.1 to 0.2.  The
 * context's tables of 4 KB to 1 MB (the interner's, the semantic pass's)
 * made 1.9 MB of fresh 4 KB pages on a 4.6 MB module as they doubled,
 * a tenth of the check's time.  From PTX_POOL_MIN of input they are
 * carved from huge pages instead: at most one 2 MB chunk per PTX_POOL_MIN
 * of input, so that the rounding up costs at most half the input; what a
 * table gives back when it doubles serves the next (first fit, merged
 * with its free neighbours).  A request the pool cannot hold takes the
 * old way (NULL here). */
enum { POOL_CHUNK = HUGE_PAGE, POOL_LARGEST = 1024 * 1024 };

void ptx_pool_init(ptx_pool *pool, size_t srclen)
{
    memset(pool, 0, sizeof *pool);
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
    if (!PTX_ASAN && srclen >= PTX_POOL_MIN) {
        size_t n = srclen / PTX_POOL_MIN;
        pool->maxchunks = n < PTX_POOL_CHUNKS ? (unsigned)n : PTX_POOL_CHUNKS;
    }
#else
    (void)srclen;
#endif
}

/* hole k gives `bytes` from its start */
static void *hole_take(ptx_pool *pool, unsigned k, size_t bytes)
{
    char *p = pool->holes[k].at;
    pool->holes[k].at += bytes;
    pool->holes[k].len -= bytes;
    if (pool->holes[k].len == 0) {
        memmove(&pool->holes[k], &pool->holes[k + 1], (pool->nholes - k - 1) * sizeof pool->holes[0]);
        pool->nholes--;
    }
    memset(p, 0, bytes);
    return p;
}

void *ptx_pool_zalloc(ptx_pool *pool, size_t bytes)
{
    if (!pool || bytes > POOL_LARGEST || bytes == 0)
        return NULL;
    bytes = (bytes + 63) & ~(size_t)63;
    for (unsigned k = 0; k < pool->nholes; k++)
        if (pool->holes[k].len >= bytes)
            return hole_take(pool, k, bytes);
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
    if ((size_t)(pool->end - pool->cur) < bytes) {
        if (pool->nchunks == pool->maxchunks)
            return NULL;
        size_t mapped;
        char *c = map_huge(POOL_CHUNK, &mapped);
        if (!c)
            return NULL;
        /* the old chunk's room left is a hole */
        if (pool->cur != pool->end)
            ptx_pool_free(pool, pool->cur, (size_t)(pool->end - pool->cur));
        pool->chunks[pool->nchunks++] = c;
        pool->cur = c;
        pool->end = c + POOL_CHUNK;
    }
    /* fresh memory: zero as mapped */
    void *p = pool->cur;
    pool->cur += bytes;
    return p;
#else
    return NULL;
#endif
}

bool ptx_pool_owns(const ptx_pool *pool, const void *p)
{
    for (unsigned i = 0; i < pool->nchunks; i++)
        if ((const char *)p >= (const char *)pool->chunks[i] &&
            (const char *)p < (const char *)pool->chunks[i] + POOL_CHUNK)
            return true;
    return false;
}

void ptx_pool_free(ptx_pool *pool, void *p, size_t bytes)
{
    char *at = p;
    bytes = (bytes + 63) & ~(size_t)63;
    /* the holes by address: merged with a neighbour that touches it */
    unsigned k = 0;
    while (k < pool->nholes && pool->holes[k].at < at)
        k++;
    bool after_prev = k > 0 && pool->holes[k - 1].at + pool->holes[k - 1].len == at;
    bool before_next = k < pool->nholes && at + bytes == pool->holes[k].at;
    if (after_prev && before_next) {
        pool->holes[k - 1].len += bytes + pool->holes[k].len;
        memmove(&pool->holes[k], &pool->holes[k + 1], (pool->nholes - k - 1) * sizeof pool->holes[0]);
        pool->nholes--;
    } else if (after_prev) {
        pool->holes[k - 1].len += bytes;
    } else if (before_next) {
        pool->holes[k].at = at;
        pool->holes[k].len += bytes;
    } else if (pool->nholes < PTX_POOL_HOLES) {
        memmove(&pool->holes[k + 1], &pool->holes[k], (pool->nholes - k) * sizeof pool->holes[0]);
        pool->holes[k].at = at;
        pool->holes[k].len = bytes;
        pool->nholes++;
    }
    /* else the room is lost until the pool goes */
}

void ptx_pool_release(ptx_pool *pool)
{
    for (unsigned i = 0; i < pool->nchunks; i++)
        ptx_big_free(pool->chunks[i], POOL_CHUNK);
    memset(pool, 0, sizeof *pool);
}

/* Frees b and every block before it. */
static void free_chain(ptx_arena *a, ptx_arena_block *b)
{
    while (b) {
        ptx_arena_block *prev = b->prev;
        free_block(a, b);
        b = prev;
    }
}

void ptx_arena_release(ptx_arena *a)
{
    free_chain(a, a->head);
    a->head = NULL;
    a->cur = a->end = NULL;
    a->total = 0;
}

void ptx_arena_size_for(ptx_arena *a, size_t srclen, size_t from)
{
    if (srclen >= from && a->next_size < HUGE_PAGE)
        a->next_size = HUGE_PAGE;
}

/* Keeps the newest block, the largest of the ordinary ones: the next
 * function's nodes then reuse memory that is mapped and in the cache. */
void ptx_arena_reset(ptx_arena *a)
{
    ptx_arena_block *keep = a->head;
    if (!PTX_ARENA_RESET_KEEPS || !keep) {
        size_t next = a->next_size;
        ptx_arena_release(a);
        a->next_size = next;
        return;
    }
    free_chain(a, keep->prev);
    keep->prev = NULL;
    a->total = keep->size;
    a->cur = (char *)keep->data;
    a->end = (char *)keep->data + keep->size;
}

static void *grow(ptx_arena *a, size_t size)
{
    size_t want = a->next_size;
    bool own = size > want / 4;   /* big requests do not waste the tail */
    if (own)
        want = size;
    else if (want >= HUGE_PAGE)
        want -= sizeof(ptx_arena_block);   /* header and data fill whole huge pages */
    ptx_arena_block *b = alloc_block(a, sizeof *b + want);
    if (!b) {
        if (a->oom)
            longjmp(*a->oom, 1);
        return NULL;
    }
    if (b->mapped && b->mapped != PTX_MAPPED_POOL)
        want = b->mapped - sizeof *b;   /* the whole mapping is usable */
    b->size = want;
    a->total += want;
    if (own && a->head) {
        /* keep the current block for small requests: insert below it */
        b->prev = a->head->prev;
        a->head->prev = b;
        return b->data;
    }
    b->prev = a->head;
    a->head = b;
    a->cur = (char *)b->data + size;
    a->end = (char *)b->data + want;
    if (!own && a->next_size < LARGEST_BLOCK)
        a->next_size *= 2;
    return b->data;
}

void *ptx_arena_alloc_slow(ptx_arena *a, size_t size)
{
    if (size > SIZE_MAX / 2) {
        /* no block can hold it, and rounding it up would wrap */
        if (a->oom)
            longjmp(*a->oom, 1);
        return NULL;
    }
    size = (size + 7) & ~(size_t)7;
    if (size == 0)
        size = 8;
    if ((size_t)(a->end - a->cur) >= size) {
        void *p = a->cur;
        a->cur += size;
        return p;
    }
    return grow(a, size);
}

void *ptx_arena_zalloc(ptx_arena *a, size_t size)
{
    void *p = ptx_arena_alloc(a, size);
    if (p)
        memset(p, 0, size);
    return p;
}

char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n)
{
    char *p = ptx_arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}
