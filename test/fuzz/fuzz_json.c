/* libFuzzer target: the JSON and stats printers on any module that parses;
 * the JSON must be balanced (every { [ " closed) and never crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

typedef struct scan {
    long depth;
    bool in_string, escape, bad;
} scan;

/* A streaming check of JSON's bracket and string structure. */
static int check(void *user, const char *data, size_t len)
{
    scan *s = user;
    for (size_t i = 0; i < len; i++) {
        char c = data[i];
        if (s->in_string) {
            if (s->escape)
                s->escape = false;
            else if (c == '\\')
                s->escape = true;
            else if (c == '"')
                s->in_string = false;
            else if ((unsigned char)c < 0x20)
                s->bad = true;
        } else if (c == '"') {
            s->in_string = true;
        } else if (c == '{' || c == '[') {
            s->depth++;
        } else if (c == '}' || c == ']') {
            if (--s->depth < 0)
                s->bad = true;
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    if (ctx && ptx_parse_buffer(ctx, "f.ptx", (const char *)data, size, &m) != PTX_ERR_NOMEM && m) {
        scan s = { 0 };
        ptx_print_json(ctx, m, NULL, NULL, check, &s);
        if (s.bad || s.depth != 0 || s.in_string)
            abort();
        scan t = { 0 };
        ptx_print_stats(ctx, m, true, NULL, NULL, check, &t);
        if (t.bad || t.depth != 0 || t.in_string)
            abort();
    }
    ptx_context_free(ctx);
    return 0;
}
