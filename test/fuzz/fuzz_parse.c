/* libFuzzer target: any bytes parse to a tree or to diagnostics, never a
 * crash, a hang or a leak; diagnostics render. */
#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"

static int discard(void *user, const char *data, size_t len)
{
    (void)user;
    (void)data;
    (void)len;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_context *ctx = ptx_context_new();
    if (!ctx)
        return 0;
    ptx_context_set_max_errors(ctx, 0);
    const ptx_module *m = NULL;
    ptx_parse_buffer(ctx, "fuzz.ptx", (const char *)data, size, &m);
    for (size_t i = 0; i < ptx_diag_count(ctx); i++)
        ptx_diag_render(ctx, ptx_diag_get(ctx, i), discard, NULL);
    if (m)
        ptx_print_tree(ctx, m, 0, discard, NULL);
    ptx_context_free(ctx);
    return 0;
}
