/* What the suites share: a writer into memory and parsing of small
 * modules (declared in check_suites.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"

const char test_head[] = TEST_HDR ".visible .entry k()\n{\n";
const char test_tail[] = "\n}\n";

int test_buf_write(void *user, const char *data, size_t len)
{
    test_buf *b = user;
    b->calls++;
    if (b->fail_at && b->calls >= b->fail_at)
        return -1;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + len + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            return -1;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    b->p[b->len] = '\0';
    return 0;
}

const ptx_module *test_parse_text(ptx_context **ctx, const char *text, size_t len, bool validate)
{
    *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(*ctx);
    ptx_context_set_validation(*ctx, validate);
    const ptx_module *m = NULL;
    ptx_parse_buffer(*ctx, "t.ptx", text, len, &m);
    return m;
}

const ptx_module *test_parse_body(ptx_context **ctx, const char *body, bool validate)
{
    size_t n = strlen(test_head) + strlen(body) + strlen(test_tail);
    char *text = malloc(n + 1);
    ck_assert_ptr_nonnull(text);
    snprintf(text, n + 1, "%s%s%s", test_head, body, test_tail);
    const ptx_module *m = test_parse_text(ctx, text, n, validate);
    free(text);
    return m;
}
