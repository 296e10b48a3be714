/* Suite "diag": rendering diagnostics, reading files, context misuse,
 * positions and the tree iterator. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_suites.h"
#include "json_check.h"
#include "ptx/ptx.h"

#define HDR TEST_HDR

/* Parses `body` as the body of the kernel k (the body starts on line 6). */
static const ptx_module *parse(ptx_context **ctx, const char *body)
{
    return test_parse_body(ctx, body, true);
}


/* The rendering of diagnostic i, malloc'd. */
static char *render(const ptx_context *ctx, size_t i)
{
    const ptx_diag *d = ptx_diag_get(ctx, i);
    ck_assert_ptr_nonnull(d);
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_diag_render(ctx, d, test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(b.p);
    return b.p;
}

static void check_render(const char *body, const char *want)
{
    ptx_context *ctx;
    parse(&ctx, body);
    ck_assert_uint_ge(ptx_diag_count(ctx), 1);
    char *r = render(ctx, 0);
    ck_assert_str_eq(r, want);
    free(r);
    ptx_context_free(ctx);
}

/* ---- rendering ---------------------------------------------------------------- */

START_TEST(render_syntax_error)
{
    /* the parser names what it found and what it expected */
    check_render("\t.loc 1 2;",
                 "t.ptx:6:10: error: unexpected ';', expected integer\n"
                 " \t.loc 1 2;\n"
                 " \t        ^\n");
}
END_TEST

START_TEST(render_syntax_error_two_expected)
{
    ptx_context *ctx = ptx_context_new();
    static const char src[] = ".version 9.0\n.target sm_90\n.address_size 64\n.global .b32 x y;\n";
    ck_assert_int_eq(ptx_parse_buffer(ctx, "m.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    char *r = render(ctx, 0);
    ck_assert_str_eq(r, "m.ptx:4:16: error: unexpected identifier 'y', expected '<', ',', ';', '=' or '['\n"
                        " .global .b32 x y;\n"
                        "                ^\n");
    free(r);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(render_lexical_error)
{
    check_render("mov.b32 %r1, 08;",
                 "t.ptx:6:14: error: malformed number '08'\n"
                 " mov.b32 %r1, 08;\n"
                 "              ^~\n");
}
END_TEST

START_TEST(render_with_tabs)
{
    /* tabs in front of the error are kept in the caret line */
    check_render("\tmov.b32\t%r1, 0f3F80;",
                 "t.ptx:6:15: error: '0f3F80' must have exactly 8 hexadecimal digits after '0f'\n"
                 " \tmov.b32\t%r1, 0f3F80;\n"
                 " \t       \t     ^~~~~~\n");
}
END_TEST

START_TEST(render_semantic_error)
{
    check_render("  .reg .v4 .f64 d;",
                 "t.ptx:6:8: error: vector of 4 x 64 bits exceeds the 128-bit limit\n"
                 "   .reg .v4 .f64 d;\n"
                 "        ^~~\n");
}
END_TEST

START_TEST(render_crlf_and_default_name)
{
    static const char src[] = ".version 9.0\r\n.target sm_90\r\n.global .b32 x = 08;\r\n";
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, NULL, src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_str_eq(ptx_context_filename(ctx), "<input>");
    char *r = render(ctx, 0);
    ck_assert_str_eq(r, "<input>:3:18: error: malformed number '08'\n"
                        " .global .b32 x = 08;\n"
                        "                  ^~\n");
    free(r);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(render_end_of_input)
{
    static const char src[] = ".version 9.0\n.target sm_90\n.entry k()\n{\nret;\n";
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "e.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ck_assert_int_eq(d->code, PTX_DIAG_SYNTAX);
    ck_assert_str_eq(d->message, "unexpected end of input, expected a statement, '{' or '}'");
    char *r = render(ctx, 0);
    ck_assert_str_eq(r, "e.ptx:6:1: error: unexpected end of input, expected a statement, '{' or '}'\n"
                        " \n"
                        " ^\n");
    free(r);
    ptx_context_free(ctx);
}
END_TEST

/* Regression: an input cut after a '\r' put the end-of-input error past
 * the shown line (which leaves the '\r' out); the length of the tildes
 * wrapped around and the rendering never ended. */
START_TEST(render_end_of_input_after_cr)
{
    static const char src[] = ".version 9.0\r";
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "e.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    test_buf b = { 0 };
    b.fail_at = 64;     /* a runaway rendering fails here instead of filling memory */
    ck_assert_int_eq(ptx_diag_render(ctx, ptx_diag_get(ctx, 0), test_buf_write, &b), PTX_OK);
    ck_assert_str_eq(b.p, "e.ptx:1:14: error: unexpected end of input, expected '.target'\n"
                          " .version 9.0\n"
                          "              ^\n");
    free(b.p);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(render_control_characters)
{
    /* bytes that are not printable are shown as '?' in the source line */
    check_render("mov.b32 %r1, \x01;",
                 "t.ptx:6:14: error: unexpected control character 0x01\n"
                 " mov.b32 %r1, ?;\n"
                 "              ^\n");
}
END_TEST

START_TEST(render_long_line)
{
    /* a long line is shown from 60 columns before the error */
    char body[400];
    memset(body, ' ', 200);
    snprintf(body + 200, sizeof body - 200, "mov.b32 %%r1, 08;");
    ptx_context *ctx;
    parse(&ctx, body);
    char *r = render(ctx, 0);
    char want[400];
    /* the window starts 60 columns before column 214 */
    size_t k = (size_t)snprintf(want, sizeof want, "t.ptx:6:214: error: malformed number '08'\n ");
    memset(want + k, ' ', 47);
    k += 47;
    k += (size_t)snprintf(want + k, sizeof want - k, "mov.b32 %%r1, 08;\n ");
    memset(want + k, ' ', 60);
    k += 60;
    snprintf(want + k, sizeof want - k, "^~\n");
    ck_assert_str_eq(r, want);
    free(r);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(render_note)
{
    ptx_context *ctx = ptx_context_new();
    ptx_context_set_max_errors(ctx, 1);
    static const char src[] = HDR ".global .b32 x = 08;\n.global .b32 y = 09;\n";
    ck_assert_int_eq(ptx_parse_buffer(ctx, "n.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_diag_count(ctx), 2);
    char *r = render(ctx, 1);
    ck_assert_str_eq(r, "n.ptx:4:18: note: too many errors; stopping (the limit is set with --max-errors)\n"
                        " .global .b32 x = 08;\n"
                        "                  ^\n");
    free(r);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(render_failures)
{
    ptx_context *ctx;
    parse(&ctx, "mov.b32 %r1, 08;");
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    test_buf b = { .fail_at = 1 };
    ck_assert_int_eq(ptx_diag_render(ctx, d, test_buf_write, &b), PTX_ERR_IO);
    ck_assert_uint_eq(b.calls, 1);
    ck_assert_int_eq(ptx_diag_render(NULL, d, test_buf_write, &b), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_diag_render(ctx, NULL, test_buf_write, &b), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_diag_render(ctx, d, NULL, &b), PTX_ERR_USAGE);
    ck_assert_uint_eq(b.calls, 1);
    ptx_context_free(ctx);
}
END_TEST

/* ---- diagnostics and positions -------------------------------------------------- */

START_TEST(diag_access)
{
    ptx_context *ctx;
    parse(&ctx, "mov.b32 %r1, 08;\nmov.b32 %r1, 0f1;");
    ck_assert_uint_eq(ptx_diag_count(ctx), 2);
    ck_assert_uint_eq(ptx_error_count(ctx), 2);
    const ptx_diag *d0 = ptx_diag_get(ctx, 0), *d1 = ptx_diag_get(ctx, 1);
    ck_assert_ptr_nonnull(d0);
    ck_assert_ptr_nonnull(d1);
    ck_assert_str_eq(d0->message, "malformed number '08'");
    ck_assert_uint_eq(d0->span.len, 2);
    ck_assert_str_eq(d1->message, "'0f1' must have exactly 8 hexadecimal digits after '0f'");
    ck_assert_uint_eq(ptx_context_position(ctx, d1->span.off).line, 7);
    ck_assert_ptr_null(ptx_diag_get(ctx, 2));
    ck_assert_ptr_null(ptx_diag_get(ctx, SIZE_MAX));
    ptx_context_free(ctx);
}
END_TEST

START_TEST(positions)
{
    static const char src[] = "ab\ncd\n\nef";
    ptx_context *ctx = ptx_context_new();
    ptx_parse_buffer(ctx, "p.ptx", src, strlen(src), NULL);
    static const struct { uint32_t off, line, col; } want[] = {
        { 0, 1, 1 }, { 1, 1, 2 }, { 2, 1, 3 }, { 3, 2, 1 }, { 5, 2, 3 },
        { 6, 3, 1 }, { 7, 4, 1 }, { 8, 4, 2 }, { 9, 4, 3 },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        ptx_position p = ptx_context_position(ctx, want[i].off);
        ck_assert_msg(p.line == want[i].line && p.col == want[i].col,
                      "offset %u: %u:%u, expected %u:%u", want[i].off, p.line, p.col,
                      want[i].line, want[i].col);
    }
    /* past the end: the end */
    ptx_position p = ptx_context_position(ctx, 1000);
    ck_assert_uint_eq(p.line, 4);
    ck_assert_uint_eq(p.col, 3);
    /* a node made by a program has no position */
    p = ptx_context_position(ctx, PTX_NO_OFFSET);
    ck_assert_uint_eq(p.line, 0);
    ck_assert_uint_eq(p.col, 0);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(empty_input)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = (const ptx_module *)1;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "empty.ptx", "", 0, &m), PTX_ERR_INPUT);
    ck_assert_ptr_null(m);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message, "unexpected end of input, expected '.version'");
    char *r = render(ctx, 0);
    ck_assert_str_eq(r, "empty.ptx:1:1: error: unexpected end of input, expected '.version'\n \n ^\n");
    free(r);
    ptx_context_free(ctx);
}
END_TEST

/* ---- files and misuse -------------------------------------------------------- */

START_TEST(file_missing)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_ptr_null(ptx_context_io_error(ctx));
    ck_assert_int_eq(ptx_parse_file(ctx, "/nonexistent/dir/x.ptx", &m), PTX_ERR_IO);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(ptx_context_io_error(ctx));
    ck_assert_str_eq(ptx_context_io_error(ctx), strerror(ENOENT));
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    ck_assert_ptr_null(ptx_context_module(ctx));
    ptx_context_free(ctx);
}
END_TEST

/* ptx.h: after PTX_ERR_IO, ptx_context_io_error() gives the reason as
 * strerror text, for a directory too. */
START_TEST(file_directory)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ptx_status st = ptx_parse_file(ctx, "/tmp", &m);
    char why[128] = "(none)";
    if (ptx_context_io_error(ctx))
        snprintf(why, sizeof why, "%s", ptx_context_io_error(ctx));
    ptx_context_free(ctx);
    ck_assert_int_eq(st, PTX_ERR_IO);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(why, strerror(EISDIR));
}
END_TEST

START_TEST(file_read)
{
    char path[] = "/tmp/check_ptx_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    static const char src[] = HDR ".global .b32 x;\n";
    ck_assert_int_eq(write(fd, src, strlen(src)), (ssize_t)strlen(src));
    close(fd);
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ptx_status st = ptx_parse_file(ctx, path, &m);
    unlink(path);
    ck_assert_int_eq(st, PTX_OK);
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_eq(ptx_context_module(ctx), m);
    ck_assert_ptr_null(ptx_context_io_error(ctx));
    ck_assert_str_eq(ptx_context_filename(ctx), path);
    size_t len;
    const char *s = ptx_context_source(ctx, &len);
    ck_assert_uint_eq(len, strlen(src));
    ck_assert(memcmp(s, src, len) == 0);
    ck_assert_int_eq(m->first->kind, PTX_NODE_DECL);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(second_parse)
{
    ptx_context *ctx = ptx_context_new();
    static const char src[] = HDR ".global .b32 x;\n";
    const ptx_module *m = NULL, *m2 = (const ptx_module *)1;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "a.ptx", src, strlen(src), &m), PTX_OK);
    ck_assert_int_eq(ptx_parse_buffer(ctx, "b.ptx", src, strlen(src), &m2), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_parse_file(ctx, "/nonexistent.ptx", &m2), PTX_ERR_USAGE);
    /* the first parse is intact */
    ck_assert_ptr_eq(ptx_context_module(ctx), m);
    ck_assert_str_eq(ptx_context_filename(ctx), "a.ptx");
    ck_assert_ptr_null(ptx_context_io_error(ctx));
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    ck_assert_int_eq(m->first->kind, PTX_NODE_DECL);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(second_parse_after_io_error)
{
    ptx_context *ctx = ptx_context_new();
    static const char src[] = HDR;
    ck_assert_int_eq(ptx_parse_file(ctx, "/nonexistent.ptx", NULL), PTX_ERR_IO);
    ck_assert_int_eq(ptx_parse_buffer(ctx, "a.ptx", src, strlen(src), NULL), PTX_ERR_USAGE);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(bad_parse_arguments)
{
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(NULL, "a", "x", 1, NULL), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_parse_buffer(ctx, "a", NULL, 5, NULL), PTX_ERR_USAGE);
    ptx_context_free(ctx);
    ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_file(ctx, NULL, NULL), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_parse_file(NULL, "x", NULL), PTX_ERR_USAGE);
    ptx_context_free(ctx);
    ptx_context_free(NULL);
}
END_TEST

START_TEST(source_is_a_copy)
{
    char src[] = HDR ".global .b32 x;\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "c.ptx", src, strlen(src), &m), PTX_OK);
    memset(src, 'Z', strlen(src));
    size_t len;
    const char *s = ptx_context_source(ctx, &len);
    ck_assert_uint_eq(len, strlen(HDR ".global .b32 x;\n"));
    ck_assert(memcmp(s, HDR ".global .b32 x;\n", len) == 0);
    ck_assert_str_eq(((const ptx_decl *)m->first)->vars[0].name->text, "x");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(version_string)
{
    ck_assert_str_eq(ptx_version(), PTX_FRONT_VERSION);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", PTX_FRONT_VERSION_MAJOR, PTX_FRONT_VERSION_MINOR,
             PTX_FRONT_VERSION_PATCH);
    ck_assert_str_eq(ptx_version(), want);
}
END_TEST

/* ---- the iterator -------------------------------------------------------------- */

typedef struct step {
    ptx_event ev;
    ptx_node_kind kind;
    unsigned depth;
} step;

START_TEST(iter_order)
{
    static const char src[] = HDR
        ".global .b32 x;\n"                             /* decl */
        ".extern .func f();\n"                          /* prototype: a leaf */
        ".entry k()\n{\n"                               /* func, block */
        "  .reg .b32 r;\n"                              /*   decl */
        "  {\n"                                         /*   block */
        "    mov.b32 r, 1;\n"                           /*     instr */
        "    {\n    }\n"                                /*     empty block */
        "  }\n"
        "L: ret;\n"                                     /*   label, instr */
        "}\n"
        ".section .debug_str\n{\nA:\n.b8 0\n}\n"        /* section, label, data */
        ".section .debug_info\n{\n}\n"                  /* empty section */
        ".alias g, f;\n";                               /* alias */
    static const step want[] = {
        { PTX_EVENT_ENTER, PTX_NODE_DECL, 0 },
        { PTX_EVENT_ENTER, PTX_NODE_FUNC, 0 },
        { PTX_EVENT_ENTER, PTX_NODE_FUNC, 0 },
        { PTX_EVENT_ENTER, PTX_NODE_BLOCK, 1 },
        { PTX_EVENT_ENTER, PTX_NODE_DECL, 2 },
        { PTX_EVENT_ENTER, PTX_NODE_BLOCK, 2 },
        { PTX_EVENT_ENTER, PTX_NODE_INSTR, 3 },
        { PTX_EVENT_ENTER, PTX_NODE_BLOCK, 3 },
        { PTX_EVENT_EXIT, PTX_NODE_BLOCK, 3 },
        { PTX_EVENT_EXIT, PTX_NODE_BLOCK, 2 },
        { PTX_EVENT_ENTER, PTX_NODE_LABEL, 2 },
        { PTX_EVENT_ENTER, PTX_NODE_INSTR, 2 },
        { PTX_EVENT_EXIT, PTX_NODE_BLOCK, 1 },
        { PTX_EVENT_EXIT, PTX_NODE_FUNC, 0 },
        { PTX_EVENT_ENTER, PTX_NODE_SECTION, 0 },
        { PTX_EVENT_ENTER, PTX_NODE_LABEL, 1 },
        { PTX_EVENT_ENTER, PTX_NODE_DATA, 1 },
        { PTX_EVENT_EXIT, PTX_NODE_SECTION, 0 },
        { PTX_EVENT_ENTER, PTX_NODE_SECTION, 0 },
        { PTX_EVENT_EXIT, PTX_NODE_SECTION, 0 },
        { PTX_EVENT_ENTER, PTX_NODE_ALIAS, 0 },
    };
    enum { NSTEPS = sizeof want / sizeof *want };
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "i.ptx", src, strlen(src), &m), PTX_OK);
    ptx_iter *it = ptx_iter_new(m);
    ck_assert_ptr_nonnull(it);
    const ptx_node *open[16];
    unsigned nopen = 0;
    const ptx_node *n;
    for (unsigned i = 0; i < NSTEPS; i++) {
        ptx_event ev = ptx_iter_next(it, &n);
        ck_assert_msg(ev == want[i].ev, "step %u: event %d, expected %d", i, ev, want[i].ev);
        ck_assert_ptr_nonnull(n);
        ck_assert_msg(n->kind == want[i].kind, "step %u: %s, expected %s", i,
                      ptx_node_kind_name(n->kind), ptx_node_kind_name(want[i].kind));
        ck_assert_msg(ptx_iter_depth(it) == want[i].depth, "step %u: depth %u, expected %u", i,
                      ptx_iter_depth(it), want[i].depth);
        /* EXIT closes the most recent container that was entered */
        bool container = (n->kind == PTX_NODE_FUNC && ((const ptx_func *)n)->body) ||
                         n->kind == PTX_NODE_BLOCK || n->kind == PTX_NODE_SECTION;
        if (ev == PTX_EVENT_ENTER && container) {
            ck_assert_uint_lt(nopen, 16);
            open[nopen++] = n;
        } else if (ev == PTX_EVENT_EXIT) {
            ck_assert_uint_gt(nopen, 0);
            ck_assert_ptr_eq(n, open[--nopen]);
        }
    }
    ck_assert_uint_eq(nopen, 0);
    ck_assert_int_eq(ptx_iter_next(it, &n), PTX_EVENT_DONE);
    ck_assert_ptr_null(n);
    /* DONE stays DONE */
    ck_assert_int_eq(ptx_iter_next(it, &n), PTX_EVENT_DONE);
    ptx_iter_free(it);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(iter_nodes_in_source_order)
{
    /* every ENTER is further into the source than the one before */
    static const char src[] = ".version 9.0\n.target sm_90\n.target sm_90a\n.address_size 64\n"
        ".global .b32 a, b;\n.entry k()\n{\n.reg .b32 r<4>;\nA: { B: mov.b32 r1, 1; { } }\n"
        ".loc 1 2 3\n.pragma \"nounroll\";\np: .callprototype _ ();\nt: .branchtargets A;\nret;\n}\n"
        ".file 1 \"x.cu\"\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "o.ptx", src, strlen(src), &m), PTX_OK);
    ptx_iter *it = ptx_iter_new(m);
    const ptx_node *n;
    ptx_event ev;
    uint32_t last = 0;
    unsigned enters = 0, exits = 0;
    bool kinds[PTX_NODE_COUNT] = { false };
    while ((ev = ptx_iter_next(it, &n)) > 0) {
        if (ev == PTX_EVENT_ENTER) {
            ck_assert_uint_ge(n->span.off, last);
            last = n->span.off;
            enters++;
            kinds[n->kind] = true;
        } else {
            exits++;
        }
    }
    ck_assert_int_eq(ev, PTX_EVENT_DONE);
    ck_assert_uint_eq(enters, 16);
    ck_assert_uint_eq(exits, 4);
    ck_assert(kinds[PTX_NODE_LOC] && kinds[PTX_NODE_PRAGMA] && kinds[PTX_NODE_CALLPROTO] &&
              kinds[PTX_NODE_TARGETS] && kinds[PTX_NODE_FILE] && kinds[PTX_NODE_TARGET]);
    ptx_iter_free(it);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(iter_empty_module)
{
    ptx_context *ctx = ptx_context_new();
    static const char src[] = HDR;
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "e.ptx", src, strlen(src), &m), PTX_OK);
    ck_assert_ptr_null(m->first);
    ptx_iter *it = ptx_iter_new(m);
    const ptx_node *n = (const ptx_node *)1;
    ck_assert_int_eq(ptx_iter_next(it, &n), PTX_EVENT_DONE);
    ck_assert_ptr_null(n);
    ck_assert_int_eq(ptx_iter_next(it, &n), PTX_EVENT_DONE);
    ptx_iter_free(it);
    ptx_iter_free(NULL);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(iter_deep)
{
    /* 10000 nested blocks: depths go up to 10001 and come back */
    enum { DEPTH = 10000 };
    size_t n = strlen(test_head) + 2 * DEPTH + strlen(test_tail);
    char *text = malloc(n + 1);
    ck_assert_ptr_nonnull(text);
    size_t k = strlen(test_head);
    memcpy(text, test_head, k);
    memset(text + k, '{', DEPTH);
    memset(text + k + DEPTH, '}', DEPTH);
    memcpy(text + k + 2 * DEPTH, test_tail, strlen(test_tail) + 1);
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "d.ptx", text, n, &m), PTX_OK);
    free(text);
    ptx_iter *it = ptx_iter_new(m);
    const ptx_node *node;
    ptx_event ev;
    unsigned maxdepth = 0, enters = 0, exits = 0;
    while ((ev = ptx_iter_next(it, &node)) > 0) {
        unsigned d = ptx_iter_depth(it);
        if (d > maxdepth)
            maxdepth = d;
        if (ev == PTX_EVENT_ENTER)
            enters++;
        else
            exits++;
    }
    ck_assert_int_eq(ev, PTX_EVENT_DONE);
    ck_assert_uint_eq(maxdepth, DEPTH + 1);
    ck_assert_uint_eq(enters, DEPTH + 2);
    ck_assert_uint_eq(exits, DEPTH + 2);
    ptx_iter_free(it);
    ptx_context_free(ctx);
}
END_TEST

/* ---- limits ------------------------------------------------------------ */

/* A message quoting a long token is cut in the middle to
 * PTX_DIAG_MESSAGE_MAX bytes: both ends stay, and so does the rendering's
 * size. */
START_TEST(long_message_is_shortened)
{
    enum { DIGITS = 100000 };
    char *body = malloc(DIGITS + 32);
    ck_assert_ptr_nonnull(body);
    memcpy(body, "mov.b32 %r1, ", 13);
    memset(body + 13, '1', DIGITS);
    memcpy(body + 13 + DIGITS, "abc;", 5);
    ptx_context *ctx;
    parse(&ctx, body);
    free(body);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    const char *msg = ptx_diag_get(ctx, 0)->message;
    size_t len = strlen(msg);
    ck_assert_uint_eq(len, PTX_DIAG_MESSAGE_MAX);
    ck_assert(strncmp(msg, "malformed number '1111", 22) == 0);
    ck_assert(strcmp(msg + len - 7, "111abc'") == 0);
    /* "..." stands for the digits left out, between a 765-byte head and a
     * 256-byte tail */
    ck_assert(memcmp(msg + 765, "...", 3) == 0);
    ck_assert_ptr_null(strstr(msg + 768, "..."));
    char *r = render(ctx, 0);
    ck_assert_uint_lt(strlen(r), PTX_DIAG_MESSAGE_MAX + 600);
    ck_assert(strncmp(r, "t.ptx:6:14: error: malformed number '111", 40) == 0);
    free(r);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(message_under_the_limit_is_whole)
{
    enum { DIGITS = 900 };
    char body[DIGITS + 32], want[DIGITS + 32];
    memcpy(body, "mov.b32 %r1, ", 13);
    memset(body + 13, '7', DIGITS);
    memcpy(body + 13 + DIGITS, "x;", 3);
    snprintf(want, sizeof want, "malformed number '%.*sx'", DIGITS, body + 13);
    ck_assert_uint_le(strlen(want), PTX_DIAG_MESSAGE_MAX);
    ptx_context *ctx;
    parse(&ctx, body);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message, want);
    ptx_context_free(ctx);
}
END_TEST

/* Inputs over PTX_INPUT_MAX are refused before they are copied or read: a
 * sparse file one byte over the limit, mapped (never touched) for
 * ptx_parse_buffer and read for ptx_parse_file. */
static const char too_large_render[] =
    "big.ptx:1:1: error: input of 4294967293 bytes is too large "
    "(the limit is 4294967292 bytes, just under 4 GiB)\n \n ^\n";

static void check_too_large(ptx_context *ctx, ptx_status st, const ptx_module *m)
{
    ck_assert_int_eq(st, PTX_ERR_INPUT);
    ck_assert_ptr_null(m);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_int_eq(ptx_diag_get(ctx, 0)->code, PTX_DIAG_LIMIT);
    size_t len = 1;
    ck_assert_ptr_nonnull(ptx_context_source(ctx, &len));
    ck_assert_uint_eq(len, 0);
    char *r = render(ctx, 0);
    ck_assert_str_eq(r, too_large_render);
    free(r);
}

START_TEST(input_too_large)
{
    char path[] = "/tmp/check_ptx_big_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const off_t size = (off_t)PTX_INPUT_MAX + 1;
    ck_assert_int_eq(ftruncate(fd, size), 0);
    void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        unlink(path);
    ck_assert_msg(p != MAP_FAILED, "mmap of 4 GiB: %s", strerror(errno));

    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = (const ptx_module *)1;
    ptx_status st = ptx_parse_buffer(ctx, "big.ptx", p, (size_t)size, &m);
    munmap(p, (size_t)size);
    check_too_large(ctx, st, m);
    ptx_context_free(ctx);

    ctx = ptx_context_new();
    m = (const ptx_module *)1;
    st = ptx_parse_file(ctx, path, &m);
    unlink(path);
    ck_assert_ptr_null(ptx_context_io_error(ctx));
    ck_assert_int_eq(st, PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message,
                     "input of 4294967293 bytes is too large (the limit is 4294967292 bytes, just under 4 GiB)");
    ptx_context_free(ctx);
}
END_TEST

/* A file that opens but fails to read (Linux's /proc/self/mem at offset 0
 * gives EIO): PTX_ERR_IO with the reason. */
START_TEST(file_read_error)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = (const ptx_module *)1;
    ptx_status st = ptx_parse_file(ctx, "/proc/self/mem", &m);
    char why[128] = "(none)";
    if (ptx_context_io_error(ctx))
        snprintf(why, sizeof why, "%s", ptx_context_io_error(ctx));
    size_t ndiags = ptx_diag_count(ctx);
    ptx_context_free(ctx);
    ck_assert_int_eq(st, PTX_ERR_IO);
    ck_assert_str_eq(why, strerror(EIO));
    ck_assert_uint_eq(ndiags, 0);
}
END_TEST


/* The table check, the grammar and the semantic pass each find errors in
 * order, one after the other; the list is in the file's order, and a note
 * stays behind its diagnostic even when it points earlier. */
START_TEST(diags_in_source_order)
{
    ptx_context *ctx;
    parse(&ctx, "\t.reg .b32 %r<4>;\n\tmul.s32 %r3, %r1, %r2;\n\tadd.s32 %r3, %r1 %r2;\n"
                "\tmov.b32 %r1, nowhere;\n\t.reg .b32 %r1;\n");
    uint32_t last = 0;
    unsigned errors = 0, notes = 0;
    for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        if (d->severity == PTX_SEV_NOTE) {
            notes++;
            ck_assert_int_ne(ptx_diag_get(ctx, i - 1)->severity, PTX_SEV_NOTE);
            continue;
        }
        errors++;
        ck_assert_uint_ge(d->span.off, last);
        last = d->span.off;
    }
    ck_assert_uint_eq(errors, 4);
    /* mul's message is long: its form in full is a note of its own */
    ck_assert_uint_eq(notes, 2);
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 0)->message, "'mul' with '.s32'"));
    ck_assert_int_eq(ptx_diag_get(ctx, 1)->severity, PTX_SEV_NOTE);
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 1)->message, "the form: mul.hi.type; .type = {"));
    ptx_context_free(ctx);
}
END_TEST

/* "did you mean": one close word is a fix-it; several are listed; a word
 * that is far from all, or a known word out of place, gets no guess. */
START_TEST(did_you_mean)
{
    static const struct {
        const char *stmt, *says, *fix;
    } cases[] = {
        { "\tld.gloabl.u32 %r1, [%rd1];", "unknown modifier '.gloabl' for 'ld'; did you mean '.global'?", ".global" },
        { "\tad.s32 %r1, %r2, %r3;", "unknown instruction 'ad'; did you mean 'add' or 'and'?", NULL },
        { "\tcvt.rn.f32.s33 %f1, %r1;", "unknown modifier '.s33' for 'cvt'; did you mean '.s32'?", ".s32" },
        { "\tqwertyuiop %r1;", "unknown instruction 'qwertyuiop'", NULL },
        { "\tmul.s32 %r1, %r2, %r3;", "did you mean 'mul.hi.s32', 'mul.lo.s32' or 'mul.wide.s32'?", NULL },
        { "\tmul.lo.s33 %r1, %r2, %r3;", "; did you mean '.s32'?", ".s32" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char body[256];
        snprintf(body, sizeof body, "\t.reg .b32 %%r<4>; .reg .b64 %%rd<2>; .reg .f32 %%f<2>;\n%s\n", cases[i].stmt);
        ptx_context *ctx;
        parse(&ctx, body);
        const ptx_diag *d = ptx_diag_get(ctx, 0);
        ck_assert_ptr_nonnull(d);
        ck_assert_msg(strstr(d->message, cases[i].says) != NULL, "%s: %s", cases[i].stmt, d->message);
        if (cases[i].fix)
            ck_assert_str_eq(d->fixit ? d->fixit : "(none)", cases[i].fix);
        else
            ck_assert_ptr_null(d->fixit);
        ptx_context_free(ctx);
    }
    ptx_context *ctx = ptx_context_new();
    const char *src = ".version 9.0\n.target sm80\n.address_size 64\n.visble .func f() { ret; }\n"
                      ".local .func g() { ret; }\n";
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message, "unknown target 'sm80'; did you mean 'sm_80'?");
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->fixit, "sm_80");
    ck_assert_str_eq(ptx_diag_get(ctx, 1)->message, "'.visble' cannot precede '.func'; did you mean '.visible'?");
    /* .local is a directive word: no '.loc' for it */
    ck_assert_str_eq(ptx_diag_get(ctx, 2)->message, "'.local' cannot precede '.func'");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(render_color_and_fixit)
{
    ptx_context *ctx;
    parse(&ctx, "\t.reg .b32 %r1; .reg .b64 %rd1;\n\tld.gloabl.u32 %r1, [%rd1];\n");
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_diag_render_color(ctx, ptx_diag_get(ctx, 0), true, test_buf_write, &b), PTX_OK);
    ck_assert_str_eq(b.p, "\33[01m\33[Kt.ptx:7:4:\33[m\33[K \33[01;31m\33[Kerror:\33[m\33[K unknown modifier "
                          "'.gloabl' for 'ld'; did you mean '.global'?\n \tld.gloabl.u32 %r1, [%rd1];\n \t  "
                          "\33[01;32m\33[K^~~~~~~\33[m\33[K\n \t  \33[32m\33[K.global\33[m\33[K\n");
    free(b.p);
    char *plain = render(ctx, 0);
    ck_assert_ptr_null(strchr(plain, '\33'));
    ck_assert_ptr_nonnull(strstr(plain, "^~~~~~~\n \t  .global\n"));
    free(plain);
    ptx_context_free(ctx);
}
END_TEST

/* The documents for tools: one over several contexts, the notes as
 * children, a fix-it with its range; bad arguments are refused. */
START_TEST(diag_documents)
{
    ptx_context *a, *b;
    parse(&a, "\t.reg .b32 %r1; .reg .b64 %rd1;\n\tld.gloabl.u32 %r1, [%rd1];\n");
    parse(&b, "\t.reg .b32 %r1;\n\t.reg .b32 %r1;\n");
    test_buf j = { 0 }, s = { 0 };
    ptx_diag_doc *dj = ptx_diag_doc_new(PTX_DIAG_FORMAT_JSON, test_buf_write, &j);
    ptx_diag_doc *ds = ptx_diag_doc_new(PTX_DIAG_FORMAT_SARIF, test_buf_write, &s);
    ck_assert_ptr_nonnull(dj);
    ck_assert_ptr_nonnull(ds);
    ck_assert_int_eq(ptx_diag_doc_add(dj, a), PTX_OK);
    ck_assert_int_eq(ptx_diag_doc_add(dj, b), PTX_OK);
    ck_assert_int_eq(ptx_diag_doc_add(ds, a), PTX_OK);
    ck_assert_int_eq(ptx_diag_doc_add(ds, b), PTX_OK);
    ck_assert_int_eq(ptx_diag_doc_finish(dj), PTX_OK);
    ck_assert_int_eq(ptx_diag_doc_finish(ds), PTX_OK);
    ck_assert_ptr_nonnull(strstr(j.p, "[{\"kind\":\"error\",\"code\":\"instruction\",\"message\":\"unknown modifier "
                                      "'.gloabl' for 'ld'; did you mean '.global'?\",\"locations\":[{\"caret\":"
                                      "{\"file\":\"t.ptx\",\"line\":7,\"column\":4},\"finish\":{\"file\":\"t.ptx\","
                                      "\"line\":7,\"column\":10}}],\"fixits\":[{\"start\":{\"file\":\"t.ptx\",\"line\":7,"
                                      "\"column\":4},\"next\":{\"file\":\"t.ptx\",\"line\":7,\"column\":11},"
                                      "\"string\":\".global\"}],\"children\":[]},"));
    ck_assert_ptr_nonnull(strstr(j.p, "\"children\":[{\"kind\":\"note\",\"code\":\"symbol\""));
    ck_assert_ptr_nonnull(strstr(s.p, "\"version\":\"2.1.0\""));
    ck_assert_ptr_nonnull(strstr(s.p, "\"ruleId\":\"symbol\",\"level\":\"error\""));
    ck_assert_ptr_nonnull(strstr(s.p, "\"relatedLocations\":[{\"physicalLocation\""));
    ck_assert_ptr_nonnull(strstr(s.p, "\"insertedContent\":{\"text\":\".global\"}"));
    ck_assert_ptr_null(test_json_check(j.p, j.len, NULL));
    ck_assert_ptr_null(test_json_check(s.p, s.len, NULL));
    free(j.p);
    free(s.p);
    ck_assert_ptr_null(ptx_diag_doc_new(PTX_DIAG_FORMAT_TEXT, test_buf_write, NULL));
    ck_assert_ptr_null(ptx_diag_doc_new(PTX_DIAG_FORMAT_JSON, NULL, NULL));
    ck_assert_int_eq(ptx_diag_doc_add(NULL, a), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_diag_doc_finish(NULL), PTX_ERR_USAGE);
    ck_assert_str_eq(ptx_diag_code_name(PTX_DIAG_TYPE), "type");
    ck_assert_str_eq(ptx_diag_code_name((ptx_diag_code)999), "other");
    ptx_context_free(a);
    ptx_context_free(b);
}
END_TEST

Suite *diag_suite(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("render");
    tcase_add_test(tc, render_syntax_error);
    tcase_add_test(tc, render_syntax_error_two_expected);
    tcase_add_test(tc, render_lexical_error);
    tcase_add_test(tc, render_with_tabs);
    tcase_add_test(tc, render_semantic_error);
    tcase_add_test(tc, render_crlf_and_default_name);
    tcase_add_test(tc, render_end_of_input);
    tcase_add_test(tc, render_end_of_input_after_cr);
    tcase_add_test(tc, render_control_characters);
    tcase_add_test(tc, render_long_line);
    tcase_add_test(tc, render_note);
    tcase_add_test(tc, render_failures);
    suite_add_tcase(s, tc);

    tc = tcase_create("context");
    tcase_add_test(tc, diag_access);
    tcase_add_test(tc, positions);
    tcase_add_test(tc, empty_input);
    tcase_add_test(tc, file_missing);
    tcase_add_test(tc, file_directory);
    tcase_add_test(tc, file_read);
    tcase_add_test(tc, second_parse);
    tcase_add_test(tc, second_parse_after_io_error);
    tcase_add_test(tc, bad_parse_arguments);
    tcase_add_test(tc, source_is_a_copy);
    tcase_add_test(tc, version_string);
    tcase_add_test(tc, file_read_error);
    tcase_add_test(tc, diags_in_source_order);
    tcase_add_test(tc, did_you_mean);
    tcase_add_test(tc, render_color_and_fixit);
    tcase_add_test(tc, diag_documents);
    suite_add_tcase(s, tc);

    tc = tcase_create("limits");
    tcase_add_test(tc, long_message_is_shortened);
    tcase_add_test(tc, message_under_the_limit_is_whole);
    tcase_add_test(tc, input_too_large);
    suite_add_tcase(s, tc);

    tc = tcase_create("iter");
    tcase_add_test(tc, iter_order);
    tcase_add_test(tc, iter_nodes_in_source_order);
    tcase_add_test(tc, iter_empty_module);
    tcase_add_test(tc, iter_deep);
    suite_add_tcase(s, tc);
    return s;
}
