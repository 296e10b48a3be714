/* libFuzzer target: the JSON and stats printers on any module that parses
 * (even with errors): each must return PTX_OK and write one strict JSON
 * text (test/unit/json_check.c, the checker the unit tests use too); and
 * the input parses to the same tree and diagnostics with the fast lane on
 * and off (both_ways.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "both_ways.h"
#include "../unit/json_check.h"

typedef struct out {
    char *p;
    size_t len, cap;
} out;

static int collect(void *user, const char *data, size_t len)
{
    out *o = user;
    if (o->len + len > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + len)
            cap *= 2;
        char *p = realloc(o->p, cap);
        if (!p)
            return -1;
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->len, data, len);
    o->len += len;
    return 0;
}

static void check(const char *what, ptx_status st, out *o)
{
    if (st != PTX_OK) {
        fprintf(stderr, "fuzz_json: the %s printer returned status %d\n", what, (int)st);
        abort();
    }
    size_t at = 0;
    const char *e = test_json_check(o->p ? o->p : "", o->len, &at);
    if (e) {
        size_t from = at > 40 ? at - 40 : 0;
        fprintf(stderr, "fuzz_json: the %s printer wrote bad JSON: %s at byte %zu: ...%.80s\n",
                what, e, at, o->p + from);
        abort();
    }
    free(o->p);
    *o = (out){ NULL, 0, 0 };
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_both_ways(data, size);
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    if (ctx && ptx_parse_buffer(ctx, "f.ptx", (const char *)data, size, &m) != PTX_ERR_NOMEM && m) {
        out o = { NULL, 0, 0 };
        check("JSON", ptx_print_json(ctx, m, NULL, NULL, collect, &o), &o);
        check("stats", ptx_print_stats(ctx, m, true, NULL, NULL, collect, &o), &o);
    }
    ptx_context_free(ctx);
    return 0;
}
