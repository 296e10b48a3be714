/* The lowest layer: arenas, big buffers and the pool of huge pages
 * (arena.c).  It knows nothing above it: no context, no tree; the
 * context (internal.h) owns an arena and a pool and hands them to the
 * layers that allocate. */
#ifndef PTX_ARENA_H
#define PTX_ARENA_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- arena (arena.c) ------------------------------------------------ */

typedef struct ptx_arena_block ptx_arena_block;

typedef struct ptx_arena {
    char *cur, *end;
    ptx_arena_block *head;
    size_t next_size;         /* size of the next ordinary block */
    size_t total;             /* bytes obtained from malloc */
    jmp_buf *oom;             /* where to go when malloc fails; NULL: return NULL */
    struct ptx_pool *pool;    /* blocks below 2 MB from there when it can */
} ptx_arena;

void ptx_arena_init(ptx_arena *a);
void ptx_arena_release(ptx_arena *a);
/* An arena that a parse of `srclen` bytes will fill with megabytes
 * starts with a block of 2 MB, mapped with huge pages: one page fault for
 * what the first blocks of 64 KB to 1 MB took 500 for, and one TLB entry.
 * It does so from `from` bytes of input on: PTX_ARENA_LARGE for the
 * context's arena, the names' and the arena of function bodies (whose
 * block each function reuses).  A check that keeps no tree puts the
 * names in the context's arena, so that a 4.2 MB module takes two such
 * blocks, not three, and stays within 4x its size in memory. */
enum { PTX_ARENA_LARGE = 4 * 1024 * 1024 };
void ptx_arena_size_for(ptx_arena *a, size_t srclen, size_t from);
/* Lets go of everything allocated from `a` at once, keeping its newest
 * block for what comes next.  Built with AddressSanitizer, it keeps none
 * but gives every block back, so that a use of what was let go is
 * reported, not read. */
void ptx_arena_reset(ptx_arena *a);
#if defined(__SANITIZE_ADDRESS__)
#define PTX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTX_ASAN 1
#endif
#endif
#ifndef PTX_ASAN
#define PTX_ASAN 0
#endif
#define PTX_ARENA_RESET_KEEPS (!PTX_ASAN)
/* What ptx_arena_alloc does when the current block lacks room. */
void *ptx_arena_alloc_slow(ptx_arena *a, size_t size);
/* 8-byte aligned, uninitialised memory; on failure longjmps to a->oom.
 * Inline: the tree's every node is one, and the call cost as much as the
 * rest. */
static inline void *ptx_arena_alloc(ptx_arena *a, size_t size)
{
    size_t rounded = (size + 7) & ~(size_t)7;   /* 0 for 0, and for sizes that wrap */
    if (rounded != 0 && rounded <= (size_t)(a->end - a->cur)) {
        void *p = a->cur;
        a->cur += rounded;
        return p;
    }
    return ptx_arena_alloc_slow(a, size);
}
void *ptx_arena_zalloc(ptx_arena *a, size_t size);
char *ptx_arena_strndup(ptx_arena *a, const char *s, size_t n);

/* A buffer of `bytes`, not zeroed: from 2 MB up mapped with huge pages
 * asked for (*mapped is then its mapped length), else from malloc (*mapped
 * 0).  NULL when out of memory.  ptx_big_free takes both back. */
void *ptx_big_alloc(size_t bytes, size_t *mapped);
void ptx_big_free(void *p, size_t mapped);
/* The same, zeroed, for tables that grow large: mapped, not cleared (a
 * fresh mapping is zeroed), from 512 KB up in huge pages when `huge`
 * (the caller's input is PTX_TABLES_HUGE or more: 2 MB pages then cost
 * little memory against it), from 64 KB up with its pages filled in at
 * once (arena.c says why). */
enum { PTX_TABLES_HUGE = 8 * 1024 * 1024 };
void *ptx_big_zalloc(size_t bytes, bool huge, size_t *mapped);

/* The context's pool of huge pages for its tables from PTX_POOL_MIN of
 * input (arena.c says why): ptx_pool_zalloc gives zeroed room, or NULL
 * when the pool is off or full (the caller then takes ptx_big_zalloc);
 * ptx_pool_free takes room back for the next table. */
enum { PTX_POOL_MIN = 4 * 1024 * 1024, PTX_POOL_CHUNKS = 8, PTX_POOL_HOLES = 32 };
typedef struct ptx_pool {
    char *cur, *end;                    /* the newest chunk's room */
    void *chunks[PTX_POOL_CHUNKS];
    unsigned nchunks, maxchunks;        /* maxchunks 0: the pool is off */
    struct { char *at; size_t len; } holes[PTX_POOL_HOLES];   /* by address */
    unsigned nholes;
} ptx_pool;
void ptx_pool_init(ptx_pool *pool, size_t srclen);
void *ptx_pool_zalloc(ptx_pool *pool, size_t bytes);
void ptx_pool_free(ptx_pool *pool, void *p, size_t bytes);
bool ptx_pool_owns(const ptx_pool *pool, const void *p);
void ptx_pool_release(ptx_pool *pool);
/* *mapped of a table that came from a pool, not from its own mapping */
#define PTX_MAPPED_POOL SIZE_MAX

#endif
