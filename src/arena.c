/* The arena: every node, name and message of a parse is carved from large
 * blocks that are released together.  Blocks grow geometrically so that a
 * 100 MB module needs a few dozen mallocs; a request larger than the next
 * block gets a block of its own. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ptx_arena_block {
    ptx_arena_block *prev;
    size_t size;
    max_align_t data[];
};

enum { FIRST_BLOCK = 64 * 1024, LARGEST_BLOCK = 64 * 1024 * 1024 };

void ptx_arena_init(ptx_arena *a)
{
    memset(a, 0, sizeof *a);
    a->next_size = FIRST_BLOCK;
}

void ptx_arena_release(ptx_arena *a)
{
    ptx_arena_block *b = a->head;
    while (b) {
        ptx_arena_block *prev = b->prev;
        free(b);
        b = prev;
    }
    a->head = NULL;
    a->cur = a->end = NULL;
    a->total = 0;
}

static void *grow(ptx_arena *a, size_t size)
{
    size_t want = a->next_size;
    bool own = size > want / 4;   /* big requests do not waste the tail */
    if (own)
        want = size;
    ptx_arena_block *b = malloc(sizeof *b + want);
    if (!b) {
        if (a->oom)
            longjmp(*a->oom, 1);
        return NULL;
    }
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

void *ptx_arena_alloc(ptx_arena *a, size_t size)
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
