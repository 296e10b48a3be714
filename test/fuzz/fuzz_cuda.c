/* libFuzzer target: any bytes read as CUDA C++ give diagnostics, never a
 * crash, a hang or a leak; each diagnostic lies inside the source and
 * renders to a bounded size, and the counts add up.  The bytes after a
 * first NUL, when there is one, are also given as the preprocessed text
 * (line markers and all), the path of --cpp. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

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
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t srclen = nul ? (size_t)(nul - text) : size;
    static const char *const targets[] = { NULL, "sm_90a", "sm_50" };
    for (int pass = 0; pass < (nul ? 2 : 1); pass++) {
        ptx_context *ctx = ptx_context_new();
        if (!ctx)
            return 0;
        ptx_context_set_max_errors(ctx, 0);
        ptx_cuda_options o = { targets[srclen % 3], srclen % 2 ? "8.0" : NULL, NULL, 0 };
        if (pass == 1) {
            o.preprocessed = nul + 1;
            o.preprocessed_len = size - srclen - 1;
        }
        ptx_status st = ptx_parse_cuda(ctx, "fuzz.cu", text, srclen, &o);
        if (st != PTX_OK && st != PTX_ERR_INPUT && st != PTX_ERR_USAGE)
            abort();
        for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
            const ptx_diag *d = ptx_diag_get(ctx, i);
            if (d->span.off != PTX_NO_OFFSET && (size_t)d->span.off + d->span.len > srclen)
                abort();
            size_t n = 0;
            if (ptx_diag_render(ctx, d, count, &n) != PTX_OK || n > 64 + PTX_DIAG_MESSAGE_MAX + 2 * 420)
                abort();
        }
        ptx_cuda_counts c = ptx_context_cuda_counts(ctx);
        if (c.checked + c.skipped > c.statements || c.rejected > c.checked)
            abort();
        if ((st == PTX_ERR_INPUT) != (ptx_error_count(ctx) > 0 && st != PTX_ERR_USAGE))
            abort();
        ptx_context_free(ctx);
    }
    return 0;
}
