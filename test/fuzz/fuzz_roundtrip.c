/* libFuzzer target: a module that parses without error is printed as PTX:
 * losslessly it must be the input byte for byte; in the canonical layout
 * (comments kept) it must parse without error to the same tree (compared
 * as the tree printer's text without locations); and the input parses
 * to the same tree and diagnostics with the fast lane on and off
 * (both_ways.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "both_ways.h"

typedef struct buf {
    char *data;
    size_t len, cap;
} buf;

static int to_buf(void *user, const char *data, size_t len)
{
    buf *b = user;
    if (b->len + len > b->cap) {
        size_t cap = (b->len + len) * 2 + 64;
        char *d = realloc(b->data, cap);
        if (!d)
            return -1;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

static bool tree_of(const char *src, size_t len, buf *ptx, buf *tree)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    bool ok = ctx && ptx_parse_buffer(ctx, "f.ptx", src, len, &m) == PTX_OK;
    if (ok && ptx) {
        buf same = { 0 };
        ok = ptx_print_ptx(ctx, m, to_buf, &same) == PTX_OK;
        if (ok && (same.len != len || (len && memcmp(same.data, src, len) != 0)))
            abort();    /* the lossless layout changed the text */
        free(same.data);
        ok = ok && ptx_print_ptx_canonical(ctx, m, NULL, NULL, to_buf, ptx) == PTX_OK;
    }
    if (ok)
        ok = ptx_print_tree(ctx, m, PTX_PRINT_NO_LOCATIONS, to_buf, tree) == PTX_OK;
    ptx_context_free(ctx);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_both_ways(data, size);
    buf ptx = { 0 }, t1 = { 0 }, t2 = { 0 };
    if (tree_of((const char *)data, size, &ptx, &t1)) {
        if (!tree_of(ptx.data, ptx.len, NULL, &t2) || t1.len != t2.len ||
            memcmp(t1.data, t2.data, t1.len) != 0)
            abort();    /* the round trip changed the module */
    }
    free(ptx.data);
    free(t1.data);
    free(t2.data);
    return 0;
}
