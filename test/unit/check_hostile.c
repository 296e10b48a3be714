/* Suite "hostile": inputs no compiler would write.  Every one must end in
 * a tree or in diagnostics with a position inside the input, never in a
 * crash; whatever tree there is must print; an accepted module must
 * survive the round trip.  test/hostile/README.md lists every hostile case
 * and where it is tested (the large ones are built by test/hostile/run.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "ptx/ptx.h"

/* A small valid module with most of the syntax (ptxas 13.0 accepts it). */
static const char rich[] =
    "// a small module with most constructs\n"
    "# 1 \"rich.cu\"\n"
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".file 1 \"rich.cu\"\n"
    ".global .align 4 .u32 table[4] = { 1, 0x10, 077, 0b101 };\n"
    ".global .f32 scale = 0f3F800000;\n"
    ".const .f64 half = 0d3FE0000000000000;\n"
    ".shared .align 16 .b8 buf[64];\n"
    "\n"
    ".visible .func (.reg .b32 ret) twice(.reg .b32 x)\n"
    "{\n"
    "\t/* block comment */\n"
    "\tadd.s32 ret, x, x;\n"
    "\tret;\n"
    "}\n"
    "\n"
    ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n"
    ".maxntid 128, 1, 1\n"
    "{\n"
    "\t.reg .pred %p<3>;\n"
    "\t.reg .b32 %r<10>;\n"
    "\t.reg .f32 %f<4>;\n"
    "\t.reg .b64 %rd<6>;\n"
    "\t.loc 1 12 3\n"
    "\tld.param.u64 %rd1, [k_param_0];\n"
    "\tld.param.u32 %r1, [k_param_1];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r2, %tid.x;\n"
    "\tsetp.ge.u32 %p1, %r2, %r1;\n"
    "\t@%p1 bra $L__done;\n"
    "\tmul.wide.u32 %rd3, %r2, 4;\n"
    "\tadd.s64 %rd4, %rd2, %rd3;\n"
    "\tld.global.v2.f32 {%f1, %f2}, [%rd4+8];\n"
    "\tfma.rn.f32 %f3, %f1, 0f40000000, %f2;\n"
    "\tst.global.f32 [%rd4], %f3;\n"
    "\tmov.u32 %r3, (1 << 4) + 3 * 2 - (8 / 2);\n"
    "\t{\n"
    "\t\t.reg .b32 %t;\n"
    "\t\tcall.uni (%t), twice, (%r3);\n"
    "\t\tadd.s32 %r4, %t, -1;\n"
    "\t}\n"
    "\t.pragma \"nounroll\";\n"
    "$L__loop:\n"
    "\tadd.s32 %r5, %r5, 1;\n"
    "\tsetp.lt.s32 %p2, %r5, 10;\n"
    "\t@!%p2 bra.uni $L__done;\n"
    "\tbra.uni $L__loop;\n"
    "$L__done:\n"
    "\tret;\n"
    "}\n";

/* The tree printer's text without locations, malloc'd; NULL when the
 * input has errors. */
static char *tree_text(const char *text, size_t len)
{
    ptx_context *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(ctx);
    const ptx_module *m = NULL;
    test_buf b = { 0 };
    if (ptx_parse_buffer(ctx, "r.ptx", text, len, &m) == PTX_OK)
        ck_assert_int_eq(ptx_print_tree(ctx, m, PTX_PRINT_NO_LOCATIONS, test_buf_write, &b), PTX_OK);
    ptx_context_free(ctx);
    return b.p;
}

/* True when `s` starts with "t.ptx:LINE:COL: " and a severity. */
static bool rendered_with_position(const char *s)
{
    unsigned line, col;
    int used = 0;
    if (sscanf(s, "t.ptx:%u:%u: %n", &line, &col, &used) != 2 || used == 0 || line == 0 || col == 0)
        return false;
    s += used;
    return strncmp(s, "error: ", 7) == 0 || strncmp(s, "warning: ", 9) == 0 ||
           strncmp(s, "note: ", 6) == 0;
}

/* Parses len bytes as t.ptx (instructions checked against the tables) and
 * checks everything the suite promises; returns the status. */
static ptx_status check_hostile(const char *text, size_t len)
{
    ptx_context *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(ctx);
    const ptx_module *m = NULL;
    ptx_status st = ptx_parse_buffer(ctx, "t.ptx", text, len, &m);
    ck_assert_msg(st == PTX_OK || st == PTX_ERR_INPUT, "status %d for %zu bytes", st, len);
    if (st == PTX_OK) {
        ck_assert_uint_eq(ptx_error_count(ctx), 0);
        ck_assert_ptr_nonnull(m);
    } else {
        ck_assert_uint_ge(ptx_error_count(ctx), 1);
    }
    for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        ck_assert_uint_le((size_t)d->span.off + d->span.len, len);
        test_buf r = { 0 };
        ck_assert_int_eq(ptx_diag_render(ctx, d, test_buf_write, &r), PTX_OK);
        ck_assert_msg(rendered_with_position(r.p), "%zu bytes: diagnostic %zu renders as '%s'",
                      len, i, r.p);
        free(r.p);
    }
    if (m) {
        /* a tree, even one built around errors, prints */
        test_buf t = { 0 }, p = { 0 }, j = { 0 }, s = { 0 };
        ck_assert_int_eq(ptx_print_tree(ctx, m, 0, test_buf_write, &t), PTX_OK);
        ck_assert_int_eq(ptx_print_ptx(ctx, m, test_buf_write, &p), PTX_OK);
        ck_assert_int_eq(ptx_print_json(ctx, m, NULL, NULL, test_buf_write, &j), PTX_OK);
        ck_assert_int_eq(ptx_print_stats(ctx, m, false, NULL, NULL, test_buf_write, &s), PTX_OK);
        if (st == PTX_OK) {
            /* and an accepted one comes back the same from its PTX */
            char *before = tree_text(text, len);
            char *after = tree_text(p.p ? p.p : "", p.len);
            ck_assert_ptr_nonnull(before);
            ck_assert_msg(after != NULL, "%zu bytes: the emitted PTX does not parse", len);
            TEST_ASSERT_SAME_TEXT(after, before);
            free(before);
            free(after);
        }
        free(t.p);
        free(p.p);
        free(j.p);
        free(s.p);
    }
    ptx_context_free(ctx);
    return st;
}

/* Every prefix of a valid file (a truncated download) parses to a tree
 * or to diagnostics; the whole file and a few prefixes that end after a
 * module-scope statement are valid. */
START_TEST(truncated_at_every_byte)
{
    size_t len = sizeof rich - 1, accepted = 0;
    for (size_t n = 0; n <= len; n++)
        accepted += check_hostile(rich, n) == PTX_OK;
    ck_assert_int_eq(check_hostile(rich, len), PTX_OK);
    ck_assert_int_eq(check_hostile(rich, 0), PTX_ERR_INPUT);
    /* ends of line 5 (.address_size), of the four variables and of the
     * function, each with or without its newline(s) */
    ck_assert_uint_ge(accepted, 10);
    ck_assert_uint_lt(accepted, len / 10);
}
END_TEST

/* The same module with CRLF line ends: ptxas accepts it, so do we, with
 * the same tree and the same line:column for every statement. */
START_TEST(crlf_line_ends)
{
    size_t len = sizeof rich - 1, lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += rich[i] == '\n';
    char *crlf = malloc(len + lines + 1);
    ck_assert_ptr_nonnull(crlf);
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        if (rich[i] == '\n')
            crlf[k++] = '\r';
        crlf[k++] = rich[i];
    }
    ck_assert_int_eq(check_hostile(crlf, k), PTX_OK);
    char *a = tree_text(rich, len), *b = tree_text(crlf, k);
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    /* with locations: line:column are those of the LF file */
    ptx_context *c1 = ptx_context_new(), *c2 = ptx_context_new();
    const ptx_module *m1, *m2;
    ck_assert_int_eq(ptx_parse_buffer(c1, "t.ptx", rich, len, &m1), PTX_OK);
    ck_assert_int_eq(ptx_parse_buffer(c2, "t.ptx", crlf, k, &m2), PTX_OK);
    test_buf t1 = { 0 }, t2 = { 0 };
    ck_assert_int_eq(ptx_print_tree(c1, m1, 0, test_buf_write, &t1), PTX_OK);
    ck_assert_int_eq(ptx_print_tree(c2, m2, 0, test_buf_write, &t2), PTX_OK);
    ck_assert_str_eq(t1.p, t2.p);
    free(t1.p);
    free(t2.p);
    ptx_context_free(c1);
    ptx_context_free(c2);
    /* and every truncation of the CRLF file behaves */
    for (size_t n = 0; n < k; n += 7)
        check_hostile(crlf, n);
    free(crlf);
}
END_TEST

/* A file of nothing but comments is an empty module: the error is the
 * missing .version, at the end of the input. */
START_TEST(only_comments)
{
    static const char text[] = "// one\n/* two\n   lines */\n// three";
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, sizeof text - 1, NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_diag_count(ctx), 1);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ck_assert_str_eq(d->message, "unexpected end of input, expected '.version'");
    ptx_position p = ptx_context_position(ctx, d->span.off);
    ck_assert_uint_eq(p.line, 4);
    ck_assert_uint_eq(p.col, 9);
    ptx_context_free(ctx);
}
END_TEST

/* Parses a kernel whose body starts with `decl`; *d is that declaration
 * (NULL if there is none).  Returns the status. */
static ptx_status parse_decl(ptx_context **ctx, const char *decl, const ptx_decl **d)
{
    char text[256];
    snprintf(text, sizeof text, TEST_HDR ".visible .entry k()\n{\n%s\nret;\n}\n", decl);
    *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ptx_status st = ptx_parse_buffer(*ctx, "t.ptx", text, strlen(text), &m);
    *d = NULL;
    if (m && m->first && m->first->kind == PTX_NODE_FUNC) {
        const ptx_func *f = (const ptx_func *)m->first;
        if (f->body && f->body->first && f->body->first->kind == PTX_NODE_DECL)
            *d = (const ptx_decl *)f->body->first;
    }
    return st;
}

/* Register ranges as ptxas reads them: a count is 32 bits; up to
 * 4294967295 is accepted (ptxas itself runs out of memory from about
 * 2^31, and assembles 10^8); 4294967296 is its "Constant overflow"; a
 * literal that wraps to a small count (2^64) is accepted with the warning;
 * one that ptxas calls an overflow is an error of the literal. */
START_TEST(huge_register_ranges)
{
    ptx_context *ctx;
    const ptx_decl *d;
    ck_assert_int_eq(parse_decl(&ctx, ".reg .b32 %r<4294967295>;", &d), PTX_OK);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(d->vars[0].range, 4294967295u);
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_stats(ctx, ptx_context_module(ctx), false, NULL, NULL,
                                     test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(strstr(b.p, ".b32 4294967295"));
    free(b.p);
    ptx_context_free(ctx);

    ck_assert_int_eq(parse_decl(&ctx, ".reg .b32 %r<4294967296>;", &d), PTX_ERR_INPUT);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message,
                     "register count in '<4294967296>' is above the limit of 4294967295");
    ptx_context_free(ctx);

    ck_assert_int_eq(parse_decl(&ctx, ".reg .b32 %r<18446744073709551617>;", &d), PTX_OK);
    ck_assert_uint_eq(ptx_diag_count(ctx), 1);
    ck_assert_int_eq(ptx_diag_get(ctx, 0)->severity, PTX_SEV_WARNING);
    ck_assert_uint_eq(d->vars[0].range, 1);
    ptx_context_free(ctx);

    ck_assert_int_eq(parse_decl(&ctx, ".reg .b32 %r<99999999999999999999999>;", &d), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message, "integer literal does not fit in 64 bits");
    ptx_context_free(ctx);
}
END_TEST

/* Arrays of 2^96 bytes are legal syntax (ptxas fails on memory): --stats
 * gives 2^64 - 1 bytes for them and for the sums they enter, not the
 * wrapped-around remainder. */
START_TEST(huge_arrays_in_stats)
{
    static const char text[] = TEST_HDR
        ".global .u64 a[4294967295][4294967295][4294967295];\n"
        ".global .u8 b[16];\n"
        ".visible .entry k()\n{\n.local .v4 .u32 l[4294967295][4294967295];\nret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, sizeof text - 1, &m), PTX_OK);
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_stats(ctx, m, false, NULL, NULL, test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(strstr(b.p, "local 18446744073709551615 B"));
    ck_assert_ptr_nonnull(strstr(b.p, "global 18446744073709551615 B"));
    free(b.p);
    ptx_context_free(ctx);
}
END_TEST

/* A file with CR alone between lines is one line for ptxas (its messages
 * say line 1): so it is here, and it is accepted. */
START_TEST(cr_only_line_ends)
{
    static const char text[] = ".version 9.0\r.target sm_90\r.address_size 64\r"
                               ".visible .entry k()\r{\rfoo.s32 %r1;\rret;\r}\r";
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, sizeof text - 1, NULL), PTX_ERR_INPUT);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ck_assert_str_eq(d->message, "unknown instruction 'foo'");
    ptx_position p = ptx_context_position(ctx, d->span.off);
    ck_assert_uint_eq(p.line, 1);
    ck_assert_uint_eq(p.col, 67);
    ptx_context_free(ctx);
    char ok[sizeof text];
    memcpy(ok, text, sizeof text);
    memcpy(strstr(ok, "foo.s32 %r1;"), "            ", 12);
    ck_assert_int_eq(check_hostile(ok, sizeof ok - 1), PTX_OK);
}
END_TEST

/* A fixed pseudo-random sequence (an LCG), so that a failure repeats;
 * each random test runs once per seed 0 .. RANDOM_SEEDS - 1. */
enum { RANDOM_SEEDS = 4 };

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* Random bytes, alone and after a valid header and kernel start. */
START_TEST(binary_garbage)
{
    static const char head[] = TEST_HDR ".visible .entry k()\n{\n";
    uint64_t seed = 0x5eedULL + (uint64_t)_i;
    char buf[sizeof head + 4096];
    for (int round = 0; round < 50; round++) {
        size_t n = 1 + next_random(&seed) % 4096;
        bool with_head = round % 2;
        size_t k = with_head ? sizeof head - 1 : 0;
        memcpy(buf, head, k);
        for (size_t i = 0; i < n; i++)
            buf[k + i] = (char)(next_random(&seed) & 0xff);
        ck_assert_int_eq(check_hostile(buf, k + n), PTX_ERR_INPUT);
    }
}
END_TEST

/* Appends the random choice of `n` strings to buf (of cap bytes, holding
 * *k); false when it would not fit. */
static bool append_random(char *buf, size_t cap, size_t *k, const char *const *from, size_t n,
                          uint64_t *seed)
{
    const char *t = from[next_random(seed) % n];
    size_t tl = strlen(t);
    if (*k + tl > cap)
        return false;
    memcpy(buf + *k, t, tl);
    *k += tl;
    return true;
}

/* Random sequences of PTX tokens after a valid header: almost all wrong;
 * none may crash. */
START_TEST(token_soup)
{
    static const char *const tokens[] = {
        ".version 9.0 ", ".target sm_90 ", ".entry ", ".func ", ".visible ", "k", "f",
        "(", ")", "{", "}", ";", ",", ".reg ", ".param ", ".global ", ".shared ", ".b32 ",
        ".u64 ", ".pred ", ".v4 ", ".align 8 ", "%r1", "%r<4>", "%rd2", "%p1", "[", "]", "+",
        "-", "*", "<<", "?", ":", "!", "@", "_", "1", "0x7fffffffffffffff", "99999999999999999999",
        "0f3F800000", "0d3FF0000000000000", "1.5e3", "(.s64)", "add.s32 ", "mov.b32 ", "ld.global.v4.b32 ",
        "st.shared.u32 ", "bra ", "call ", "ret", "$L1", "$L1:", "\"str\"", ".pragma ", ".loc 1 2 3",
        ".maxntid 1 ", "// c\n", "/* c */", "\n", " ", "\t", "{%r1, %r2}", "[%rd2+4]", "%tid.x",
        ".file 1 \"a.cu\"", ".section .debug_str { .b8 1 }", ".callprototype ", ".branchtargets ",
    };
    static const char head[] = TEST_HDR;
    uint64_t seed = 0x70c0ULL + (uint64_t)_i;
    char buf[8192];
    for (int round = 0; round < 200; round++) {
        size_t k = sizeof head - 1;
        memcpy(buf, head, k);
        size_t ntok = 1 + next_random(&seed) % 200;
        for (size_t i = 0; i < ntok; i++)
            if (!append_random(buf, sizeof buf, &k, tokens, sizeof tokens / sizeof *tokens, &seed))
                break;
        check_hostile(buf, k);
    }
}
END_TEST

/* Random sequences of whole statements in a kernel, most of them valid
 * (nested blocks, labels, guards, vectors, calls), some not: a good part
 * of the modules are accepted and must round-trip. */
START_TEST(statement_soup)
{
    static const char *const stmts[] = {
        "\tmov.b32 %r2, %r3;\n", "\tnot.pred %p0, %p1;\n", "\tmov.b64 %rd2, %rd1;\n",
        "\tadd.f32 %f1, %f2, %f3;\n", "\t.shared .align 8 .b8 s[16];\n", "\t.local .u32 l[2];\n",
        "\tadd.s32 %r1, %r2, %r3;\n", "\tmov.u32 %r1, %tid.x;\n", "\t@%p1 bra $L1;\n",
        "$L1:\n", "\tsetp.lt.s32 %p1, %r1, 10;\n", "\tld.global.v2.f32 {%f1, %f2}, [%rd1+8];\n",
        "\tst.shared.u32 [s], %r1;\n", "\tmov.b32 %r4, (1 << 4) - -3;\n", "\t{\n", "\t}\n",
        "\tcall.uni (%r1), f, (%r2);\n", "\t.pragma \"nounroll\";\n", "\t.loc 1 3 1\n",
        "\t// a comment\n", "\t/* another */\n", "\tret;\n", "\tfma.rn.f32 %f1, %f2, 0f3F800000, %f3;\n",
        "\tadd.s32 %r1 %r2;\n", "\tfoo.bar %r1;\n", "\tld.global.v4.u32 {%r1, %r2}, [%rd1];\n",
    };
    static const char head[] = TEST_HDR ".file 1 \"s.cu\"\n"
        ".func (.reg .b32 r) f(.reg .b32 a)\n{\n\tmov.b32 r, a;\n\tret;\n}\n"
        ".visible .entry k()\n{\n"
        "\t.reg .b32 %r<8>;\n\t.reg .pred %p<2>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<4>;\n";
    uint64_t seed = 0x57a7ULL + (uint64_t)_i;
    char buf[8192];
    unsigned accepted = 0;
    for (int round = 0; round < 100; round++) {
        size_t k = sizeof head - 1;
        memcpy(buf, head, k);
        size_t n = next_random(&seed) % 40;
        for (size_t i = 0; i < n; i++)
            if (!append_random(buf, sizeof buf - 4, &k, stmts, sizeof stmts / sizeof *stmts, &seed))
                break;
        memcpy(buf + k, "}\n", 2);
        k += 2;
        accepted += check_hostile(buf, k) == PTX_OK;
    }
    ck_assert_uint_ge(accepted, 5);
}
END_TEST

Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, truncated_at_every_byte);
    tcase_add_test(tc, crlf_line_ends);
    tcase_add_test(tc, only_comments);
    tcase_add_test(tc, huge_register_ranges);
    tcase_add_test(tc, huge_arrays_in_stats);
    tcase_add_test(tc, cr_only_line_ends);
    tcase_add_loop_test(tc, binary_garbage, 0, RANDOM_SEEDS);
    tcase_add_loop_test(tc, token_soup, 0, RANDOM_SEEDS);
    tcase_add_loop_test(tc, statement_soup, 0, RANDOM_SEEDS);
    suite_add_tcase(s, tc);
    return s;
}
