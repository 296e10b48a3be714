/* What the suites share: a writer into memory, parsing of small modules
 * and the instruction cases of the table-driven suites (declared in
 * check_suites.h). */
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

size_t test_first_difference(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    return a[i] == b[i] ? (size_t)-1 : i;
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

/* The .b128 registers need sm_70 and PTX ISA 8.3: older modules get an
 * empty line in their place, so the statement stays on TEST_ISA_LINE. */
void test_isa_module(char *buf, size_t n, const isa_case *c)
{
    const char *target = c->target, *version = "9.0";
    char vbuf[8] = "";
    const char *space = strchr(c->target, ' ');
    if (space && (size_t)(space - c->target) < sizeof vbuf) {
        memcpy(vbuf, c->target, (size_t)(space - c->target));
        vbuf[space - c->target] = '\0';
        version = vbuf;
        target = space + 1;
    }
    unsigned arch = (unsigned)strtoul(target + 3, NULL, 10);
    unsigned major = (unsigned)strtoul(version, NULL, 10);
    unsigned minor = (unsigned)strtoul(strchr(version, '.') + 1, NULL, 10);
    bool b128 = arch >= 70 && (major > 8 || (major == 8 && minor >= 3));
    snprintf(buf, n,
             ".version %s\n.target %s\n.address_size 64\n"
             ".global .surfref surf;\n.global .u32 gv[4];\n"
             ".func (.param .b32 r) f(.param .b32 a) { ret; }\n"
             ".func g() { ret; }\n"
             ".func h(.param .b32 a) { ret; }\n"
             ".func (.param .b32 r) fr() { ret; }\n"
             ".visible .entry k()\n{\n"
             "\t.reg .b32 r<9>;\n\t.reg .b64 rd<9>;\n\t.reg .pred p<3>;\n"
             "\t.reg .f32 f<9>;\n\t.reg .b16 h<9>;\n\t.reg .f64 fd<9>;\n"
             "%s\n"
             "ft: .calltargets f;\nfp: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
             "tg: .calltargets g;\npg: .callprototype _ ();\n"
             "th: .calltargets h;\nph: .callprototype _ (.param .b32 _);\n"
             "tr: .calltargets fr;\npr: .callprototype (.param .b32 _) _ ();\n"
             "\t%s\n\tret;\n}\n",
             version, target, b128 ? "\t.reg .b128 q<4>;" : "", c->stmt);
}

void test_isa_case(const isa_case *c)
{
    char src[2048];
    test_isa_module(src, sizeof src, c);
    ptx_context *ctx;
    test_parse_text(&ctx, src, strlen(src), true);
    char msg[1024] = "";
    ptx_position at = { 0, 0 };
    size_t errors = 0;
    /* the diagnostics are in source order: the case's error is the one
     * with its message (another, such as an unknown guard before the
     * opcode, may come first); else the first, to show what was said */
    bool found = false;
    for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        if (d->severity != PTX_SEV_ERROR)
            continue;
        bool match = c->message && strcmp(d->message, c->message) == 0;
        if (errors++ == 0 || (match && !found)) {
            snprintf(msg, sizeof msg, "%s", d->message);
            at = ptx_context_position(ctx, d->span.off);
        }
        found |= match;
    }
    ptx_context_free(ctx);
    if (!c->message) {
        ck_assert_msg(errors == 0, "%s: '%s' rejected: %u:%u: %s", c->target, c->stmt,
                      at.line, at.col, msg);
        return;
    }
    ck_assert_msg(errors > 0, "%s: '%s' accepted", c->target, c->stmt);
    ck_assert_str_eq(msg, c->message);
    ck_assert_uint_eq(at.line, TEST_ISA_LINE);
    ck_assert_uint_eq(at.col, c->col);
}
