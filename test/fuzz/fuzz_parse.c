/* libFuzzer target: any bytes parse to a tree or to diagnostics, never a
 * crash, a hang or a leak; diagnostics point inside the input and render
 * to a bounded size; the tree prints, and so do its control-flow and call
 * graphs (errors or not); and the input parses to the same tree and
 * diagnostics with the fast lane on and off (both_ways.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ptx/ptx.h"
#include "both_ways.h"

/* Counts what a printer writes, and stops it (by failing) far past what it
 * may write, so that a runaway printer is an abort, not a hang. */
static int count(void *user, const char *data, size_t len)
{
    size_t *n = user;
    (void)data;
    *n += len;
    return *n > ((size_t)1 << 30) ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_both_ways(data, size);
    ptx_context *ctx = ptx_context_new();
    if (!ctx)
        return 0;
    ptx_context_set_max_errors(ctx, 0);
    const ptx_module *m = NULL;
    ptx_parse_buffer(ctx, "fuzz.ptx", (const char *)data, size, &m);
    for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        /* a diagnostic lies inside the input, and its rendering is one
         * message (at most PTX_DIAG_MESSAGE_MAX bytes), at most 200
         * source bytes, and a caret line as long */
        if ((size_t)d->span.off + d->span.len > size)
            abort();
        size_t n = 0;
        if (ptx_diag_render(ctx, d, count, &n) != PTX_OK || n > 64 + PTX_DIAG_MESSAGE_MAX + 2 * 420)
            abort();
    }
    size_t n = 0;
    if (m && ptx_print_tree(ctx, m, 0, count, &n) != PTX_OK)
        abort();
    n = 0;
    if (m && ptx_print_cfg(ctx, m, PTX_GRAPH_FULL, NULL, NULL, count, &n) != PTX_OK)
        abort();
    n = 0;
    if (m && ptx_print_callgraph(ctx, m, PTX_GRAPH_JSON, NULL, NULL, count, &n) != PTX_OK)
        abort();
    ptx_context_free(ctx);
    return 0;
}
