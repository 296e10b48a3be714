/* Suite "print": the PTX printer (canonical and line-preserving layout),
 * the tree printer (with and without locations), round trips through
 * print and parse, writer failures and the spelling of literals. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "ptx/ptx.h"

#define HDR TEST_HDR

static const ptx_module *parse_text(ptx_context **ctx, const char *text, size_t len)
{
    return test_parse_text(ctx, text, len, true);
}

/* A module that must parse without any diagnostic. */
static const ptx_module *parse_clean(ptx_context **ctx, const char *text)
{
    const ptx_module *m = parse_text(ctx, text, strlen(text));
    ck_assert_msg(ptx_diag_count(*ctx) == 0, "unexpected diagnostic: %s",
                  ptx_diag_count(*ctx) ? ptx_diag_get(*ctx, 0)->message : "");
    ck_assert_ptr_nonnull(m);
    return m;
}

/* Parses `body` as the body of the kernel k (the body starts on line 6). */
static const ptx_module *parse(ptx_context **ctx, const char *body)
{
    const ptx_module *m = test_parse_body(ctx, body, true);
    ck_assert_msg(ptx_diag_count(*ctx) == 0, "unexpected diagnostic: %s",
                  ptx_diag_count(*ctx) ? ptx_diag_get(*ctx, 0)->message : "");
    ck_assert_ptr_nonnull(m);
    return m;
}

/* ---- writers -------------------------------------------------------------- */


/* Printed text, malloc'd. */
static char *ptx_text(const ptx_context *ctx, const ptx_module *m)
{
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_ptx(ctx, m, test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(b.p);
    return b.p;
}

static char *tree_text(const ptx_context *ctx, const ptx_module *m, unsigned flags)
{
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_tree(ctx, m, flags, test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(b.p);
    return b.p;
}

static char *json_text(const ptx_context *ctx, const ptx_module *m)
{
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_json(ctx, m, NULL, NULL, test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(b.p);
    return b.p;
}

/* ---- the small module ------------------------------------------------------ */

static const char small[] =
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".global .align 4 .b32 g[2] = {1, 2};\n"
    "\n"
    ".visible .entry k(\n"
    "\t.param .u64 p,\n"
    "\t.param .u32 n\n"
    ")\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .pred %p;\n"
    "\tld.param.u32 %r1, [n];\n"
    "\tsetp.eq.s32 %p, %r1, 0;\n"
    "\t@%p bra DONE;\n"
    "\tadd.s32 %r2, %r1,\n"
    "\t\t0x1F;\n"
    "\t{\n"
    "\t\tst.global.b32 [g+4], %r2;\n"
    "\t}\n"
    "DONE:\n"
    "\tret;\n"
    "}\n";

static const char small_tree_noloc[] =
    "module .version 9.0 .target sm_90 .address_size 64\n"
    "  decl .global .align 4 .b32 g[2] = {1, 2}\n"
    "  entry .visible k\n"
    "    param .param .u64 p\n"
    "    param .param .u32 n\n"
    "    block\n"
    "      decl .reg .b32 %r<4>\n"
    "      decl .reg .pred %p\n"
    "      instr ld  modifiers .param .u32\n"
    "        operand 1: name %r1\n"
    "        operand 2: address[1] [n]  base n\n"
    "      instr setp  modifiers .eq .s32\n"
    "        operand 1: name %p\n"
    "        operand 2: name %r1\n"
    "        operand 3: int 0\n"
    "      instr @%p bra\n"
    "        operand 1: name DONE\n"
    "      instr add  modifiers .s32\n"
    "        operand 1: name %r2\n"
    "        operand 2: name %r1\n"
    "        operand 3: int 0x1F\n"
    "      block\n"
    "        instr st  modifiers .global .b32\n"
    "          operand 1: address[1] [g + 4]  base g offset 4\n"
    "          operand 2: name %r2\n"
    "      label DONE\n"
    "      instr ret\n";

START_TEST(tree_without_locations)
{
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, small);
    char *t = tree_text(ctx, m, PTX_PRINT_NO_LOCATIONS);
    ck_assert_str_eq(t, small_tree_noloc);
    free(t);
    /* without a context there are no locations either */
    t = tree_text(NULL, m, 0);
    ck_assert_str_eq(t, small_tree_noloc);
    free(t);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(tree_with_locations)
{
    static const char want[] =
        "module .version 9.0 .target sm_90 .address_size 64\n"
        "  5:1 decl .global .align 4 .b32 g[2] = {1, 2}\n"
        "  7:1 entry .visible k\n"
        "    8:2 param .param .u64 p\n"
        "    9:2 param .param .u32 n\n"
        "    11:1 block\n"
        "      12:2 decl .reg .b32 %r<4>\n"
        "      13:2 decl .reg .pred %p\n"
        "      14:2 instr ld  modifiers .param .u32\n"
        "        14:15 operand 1: name %r1\n"
        "        14:20 operand 2: address[1] [n]  base n\n"
        "      15:2 instr setp  modifiers .eq .s32\n"
        "        15:14 operand 1: name %p\n"
        "        15:18 operand 2: name %r1\n"
        "        15:23 operand 3: int 0\n"
        "      16:2 instr @%p bra\n"
        "        16:10 operand 1: name DONE\n"
        "      17:2 instr add  modifiers .s32\n"
        "        17:10 operand 1: name %r2\n"
        "        17:15 operand 2: name %r1\n"
        "        18:3 operand 3: int 0x1F\n"
        "      19:2 block\n"
        "        20:3 instr st  modifiers .global .b32\n"
        "          20:17 operand 1: address[1] [g + 4]  base g offset 4\n"
        "          20:24 operand 2: name %r2\n"
        "      22:1 label DONE\n"
        "      23:2 instr ret\n";
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, small);
    char *t = tree_text(ctx, m, 0);
    ck_assert_str_eq(t, want);
    free(t);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(ptx_line_preserving)
{
    /* with the context that parsed it, the module comes back as written */
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, small);
    char *t = ptx_text(ctx, m);
    ck_assert_str_eq(t, small);
    free(t);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(ptx_canonical)
{
    static const char src[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n\n"
        ".global .align 4 .b32 g[2] = {1, 2};\n"
        "// a comment\n"
        ".visible .entry k()\n{\n"
        "  .reg .b32 %r<4>;   .reg .pred %p;\n"
        "  mov.u32 %r1,\n    %tid.x;\n"
        "  setp.eq.s32 %p, %r1, 0; @%p bra DONE;\n"
        "  { st.global.b32 [g+4], %r1; }\n"
        "DONE: ret;\n}\n"
        ".func f()\n{\n  ret;\n}\n";
    static const char want[] =
        ".version 9.0\n"
        ".target sm_90\n"
        ".address_size 64\n"
        ".global .align 4 .b32 g[2] = {1, 2};\n"
        ".visible .entry k()\n"
        "{\n"
        "\t.reg .b32 %r<4>;\n"
        "\t.reg .pred %p;\n"
        "\tmov.u32 \t%r1, %tid.x;\n"
        "\tsetp.eq.s32 \t%p, %r1, 0;\n"
        "\t@%p bra \tDONE;\n"
        "\t{\n"
        "\t\tst.global.b32 \t[g + 4], %r1;\n"
        "\t}\n"
        "DONE:\n"
        "\tret;\n"
        "}\n"
        ".func f()\n"
        "{\n"
        "\tret;\n"
        "}\n";
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, src);
    char *t = ptx_text(NULL, m);
    ck_assert_str_eq(t, want);
    free(t);
    ptx_context_free(ctx);
}
END_TEST

/* ptxas takes a .file with a timestamp and no size: every printer keeps
 * the size absent, and the canonical text parses back to the same tree. */
START_TEST(file_timestamp_without_size)
{
    static const char src[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".file 1 \"a.cu\", 1600000000\n"
        ".file   2 \"b.cu\" ,5,7\n";
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, src);
    const ptx_file *f = (const ptx_file *)m->first;
    ck_assert_int_eq(f->base.kind, PTX_NODE_FILE);
    ck_assert(f->has_info && !f->has_size);
    ck_assert_uint_eq(f->timestamp, 1600000000);
    const ptx_file *g = (const ptx_file *)f->base.next;
    ck_assert(g->has_info && g->has_size);
    char *t = ptx_text(NULL, m);
    ck_assert_ptr_nonnull(strstr(t, "\n.file\t1 \"a.cu\", 1600000000\n.file\t2 \"b.cu\", 5, 7\n"));
    ptx_context *ctx2;
    const ptx_module *m2 = parse_clean(&ctx2, t);
    char *t1 = tree_text(ctx, m, 0), *t2 = tree_text(ctx2, m2, 0);
    ck_assert_str_eq(t2, t1);
    free(t1);
    free(t2);
    free(t);
    t = ptx_text(ctx, m);
    ck_assert_str_eq(t, src);
    free(t);
    t = tree_text(ctx, m, 0);
    ck_assert_ptr_nonnull(strstr(t, "  4:1 file 1 \"a.cu\" timestamp 1600000000\n"
                                    "  5:1 file 2 \"b.cu\" timestamp 5 size 7\n"));
    free(t);
    char *j = json_text(ctx, m);
    ck_assert_ptr_nonnull(strstr(j, "\"path\":\"a.cu\",\"timestamp\":1600000000}"));
    ck_assert_ptr_nonnull(strstr(j, "\"path\":\"b.cu\",\"timestamp\":5,\"size\":7}"));
    free(j);
    ptx_context_free(ctx2);
    ptx_context_free(ctx);
}
END_TEST

/* Regression (fixed): in the canonical layout (ctx NULL) the line break written inside a
 * function header (before each parameter, before ')' and before each
 * directive) leaves the printer believing the line is still empty, so
 * what follows is glued on: ")\n{" comes out as "){", ".maxntid 128\n{"
 * as ".maxntid 128{", and ".func f() .noreturn;" followed by a variable
 * prints ".noreturn;.global .b32 x;" on one line.  Canonical layout is one
 * statement a line, with the body's '{' on its own line as it is for
 * "k()". */
START_TEST(ptx_canonical_header_lines)
{
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx,
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 p, .param .u32 n) .maxntid 128\n{\nret;\n}\n"
        ".extern .func f() .noreturn;\n.global .b32 x;\n");
    char *t = ptx_text(NULL, m);
    char got[1024];
    snprintf(got, sizeof got, "%s", t);
    free(t);
    ptx_context_free(ctx);
    ck_assert_str_eq(got,
        ".version 9.0\n"
        ".target sm_90\n"
        ".address_size 64\n"
        ".visible .entry k(\n"
        "\t.param .u64 p,\n"
        "\t.param .u32 n\n"
        ")\n"
        ".maxntid 128\n"
        "{\n"
        "\tret;\n"
        "}\n"
        ".extern .func f()\n"
        ".noreturn;\n"
        ".global .b32 x;\n");
}
END_TEST

START_TEST(ptx_other_context_is_canonical)
{
    /* positions are used only with the context that parsed the module */
    ptx_context *ctx, *other;
    const ptx_module *m = parse_clean(&ctx, HDR "\n\n.global .b32 x;\n");
    parse_clean(&other, HDR ".global .b32 y;\n");
    char *a = ptx_text(other, m);
    char *b = ptx_text(NULL, m);
    ck_assert_str_eq(a, b);
    ck_assert_str_eq(a, HDR ".global .b32 x;\n");
    char *c = ptx_text(ctx, m);
    ck_assert_str_eq(c, HDR "\n\n.global .b32 x;\n");
    free(a);
    free(b);
    free(c);
    ptx_context_free(ctx);
    ptx_context_free(other);
}
END_TEST

/* ---- round trips ------------------------------------------------------------- */

static const char rich[] =
    ".version 9.0\n"
    ".target sm_90a, debug\n"
    ".address_size 64\n"
    "\n"
    ".file 1 \"x.cu\"\n"
    ".file 2 \"y.cu\", 1700000000, 1234\n"
    ".extern .shared .align 16 .b8 smem[];\n"
    ".global .align 4 .b32 g[2][2] = {{1, 2}, {3}};\n"
    ".const .f32 cf[3] = {1.5, 0f3F800000, -2.0};\n"
    ".global .u64 gp = generic(g) + 4;\n"
    ".global .u8 gm[2] = {0xFF(g), 0xFF00(g + 1)};\n"
    ".global .attribute(.managed) .u32 man, more = 7;\n"
    ".global .texref tr;\n"
    ".pragma \"nounroll\";\n"
    "\n"
    ".func (.param .b32 r) f(.reg .b32 a, .param .align 8 .b8 b[16]) .abi_preserve 8\n"
    "{\n"
    "\tret;\n"
    "}\n"
    ".func n() .noreturn;\n"
    ".func n() .noreturn\n{\n\ttrap;\n}\n"
    ".func a1() .local_maxnreg 32\n{\n\tret;\n}\n"
    ".func a2();\n"
    ".alias a2, a1;\n"
    ".extern .func (.reg .b64 r) w(.param .b8 v[]); .extern .func w2() .pragma \"nounroll\";\n"
    "\n"
    ".visible .entry k(\n"
    "\t.param .u64 .ptr.global.align 16 p,\n"
    "\t.param .u64 .ptr .align 8 q,\n"
    "\t.param .u32 count\n"
    ")\n"
    ".maxntid 128, 1, 1\n"
    ".minnctapersm 2\n"
    "{\n"
    "\t.reg .b32 %r<8>;\n"
    "\t.reg .pred %p, %q;\n"
    "\t.reg .f32 %f<4>;\n"
    "\t.reg .f64 %fd;\n"
    "\t.reg .b64 %rd<4>;\n"
    "\t.loc 1 10 3\n"
    "\tld.param.u64 %rd1, [p];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.lt.and.s32 %p|%q, %r1, 32 * 4 - 1, !%p;\n"
    "\t@!%p bra $L__BB0_2;\n"
    "\tld.global.v4.f32 {%f0, _, %f2, %f3}, [%rd1+-16];\n"
    "\tmov.b32 %r2, (1 << 4) % 3 ? 0x1F : 017U;\n"
    "\tmov.b64 %rd2, (.s64)-1 >> 1;\n"
    "\tvadd.s32.u32.s32 %r3, %r1.b0, %r2.h1;\n"
    "\tmov.u64 %rd3, g[1];\n"
    "\t{\n"
    "\t\t.param .align 8 .b8 pa[16];\n"
    "\t\t.param .b32 pr;\n"
    "\t\tst.param.b32 [pa], %r1;\n"
    "\t\tcall.uni (pr), f, (%r1, pa);\n"
    "\t}\n"
    "\tproto: .callprototype (.param .b32 _) _ (.param .b32 _) .abi_preserve 4;\n"
    "\ttargets: .calltargets f, a1;\n"
    "\tjt: .branchtargets $L__BB0_2, L3;\n"
    "\tcall (%r4), %rd1, (%r1), proto;\n"
    "\tcall n;\n"
    "\t.loc 2 5 7, function_name $L__info_string0+4, inlined_at 1 10 3\n"
    "$L__BB0_2: L3:\n"
    "\t.pragma \"used_bytes_mask 0xfff\";\n"
    "\tld.b32 %r5, [%rd1].unified;\n"
    "\ttex.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [tr, {%f0, %f2}];\n"
    "\tmov.f64 %fd, 1e300;\n"
    "\tmov.f64 %fd, 0d3FF0000000000000;\n"
    "\tst.shared.b32 [smem+8], 0b101;\n"
    "\tmbarrier.arrive.shared::cluster.b64 _, [%rd1];\n"
    "\tret;\n"
    "}\n"
    ".section .debug_str\n"
    "{\n"
    "$L__info_string0:\n"
    ".b8 107, 0\n"
    "}\n"
    ".section .debug_info\n"
    "{\n"
    ".b32 $L__info_string0 - .debug_str + 4\n"
    ".b8 -3, 0b101\n"
    ".4byte 1\n"
    ".quad 0x1F\n"
    "}\n";

static void check_round_trip(const char *src, bool with_positions)
{
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, src);
    char *tree1 = tree_text(NULL, m, PTX_PRINT_NO_LOCATIONS);
    char *text = ptx_text(with_positions ? ctx : NULL, m);
    ptx_context *ctx2;
    const ptx_module *m2 = parse_text(&ctx2, text, strlen(text));
    ck_assert_msg(ptx_diag_count(ctx2) == 0, "printed text does not parse: %s\n%s",
                  ptx_diag_count(ctx2) ? ptx_diag_get(ctx2, 0)->message : "", text);
    char *tree2 = tree_text(NULL, m2, PTX_PRINT_NO_LOCATIONS);
    TEST_ASSERT_SAME_TEXT(tree2, tree1);
    free(tree1);
    free(tree2);
    free(text);
    ptx_context_free(ctx);
    ptx_context_free(ctx2);
}

START_TEST(round_trip_canonical)
{
    check_round_trip(small, false);
    check_round_trip(rich, false);
}
END_TEST

START_TEST(round_trip_line_preserving)
{
    check_round_trip(small, true);
    check_round_trip(rich, true);
}
END_TEST

/* Prints `src` line-preserving, parses the text again and compares the
 * line of every node and instruction operand.  Returns "" when they all
 * match, else a description of the first difference (in `why`).  All
 * memory is released before returning. */
static const char *lines_kept(const char *src, char *why, size_t size, unsigned *nodes)
{
    ptx_context *ctx, *ctx2;
    const ptx_module *m = parse_clean(&ctx, src);
    char *text = ptx_text(ctx, m);
    const ptx_module *m2 = parse_text(&ctx2, text, strlen(text));
    ptx_iter *a = ptx_iter_new(m), *b = ptx_iter_new(m2);
    const ptx_node *na, *nb;
    ptx_event ea, eb;
    why[0] = '\0';
    *nodes = 0;
    if (ptx_diag_count(ctx2))
        snprintf(why, size, "the printed text does not parse: %s", ptx_diag_get(ctx2, 0)->message);
    while (!why[0] && (ea = ptx_iter_next(a, &na)) > 0) {
        eb = ptx_iter_next(b, &nb);
        if (ea != eb || na->kind != nb->kind) {
            snprintf(why, size, "the trees differ");
            break;
        }
        if (ea != PTX_EVENT_ENTER)
            continue;
        ++*nodes;
        uint32_t la = ptx_context_position(ctx, na->span.off).line;
        uint32_t lb = ptx_context_position(ctx2, nb->span.off).line;
        if (la != lb) {
            snprintf(why, size, "%s node of line %u is printed on line %u:\n%s",
                     ptx_node_kind_name(na->kind), la, lb, text);
            break;
        }
        if (na->kind == PTX_NODE_INSTR) {
            const ptx_instr *ia = (const ptx_instr *)na, *ib = (const ptx_instr *)nb;
            for (uint32_t i = 0; i < ia->nops && i < ib->nops && !why[0]; i++) {
                la = ptx_context_position(ctx, ptx_expr_span(&ia->ops[i]).off).line;
                lb = ptx_context_position(ctx2, ptx_expr_span(&ib->ops[i]).off).line;
                if (la != lb)
                    snprintf(why, size, "operand %u of line %u is printed on line %u", i, la, lb);
            }
        }
    }
    if (!why[0] && ptx_iter_next(b, &nb) != PTX_EVENT_DONE)
        snprintf(why, size, "the printed module has more nodes");
    ptx_iter_free(a);
    ptx_iter_free(b);
    free(text);
    ptx_context_free(ctx);
    ptx_context_free(ctx2);
    return why;
}

/* The data nodes of a section, one line each: width, count, lines, each
 * line's values, the span's length. */
static void data_summary(const char *body, char *out, size_t cap)
{
    char src[1024];
    snprintf(src, sizeof src, ".version 9.0\n.target sm_90\n.address_size 64\n"
             ".section .debug_info\n{\n%s}\n", body);
    ptx_context *ctx;
    /* not validated: some values are out of their word's range (ptxas
     * refuses .b8 300), to show how runs pack them */
    const ptx_module *m = test_parse_text(&ctx, src, strlen(src), false);
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", ptx_diag_count(ctx) ? ptx_diag_get(ctx, 0)->message : "");
    size_t n = 0;
    out[0] = '\0';
    for (const ptx_node *x = ((const ptx_section *)m->first)->first; x; x = x->next) {
        const ptx_data *d = (const ptx_data *)x;
        n += (size_t)snprintf(out + n, cap - n, "w%u c%u n%u len%u:", d->width, d->count,
                              d->nlines, d->base.span.len);
        for (uint32_t k = 0; d->width && k < d->nlines; k++) {
            n += (size_t)snprintf(out + n, cap - n, " [");
            for (uint32_t i = ptx_data_line_start(d, k); i < ptx_data_line_start(d, k + 1); i++)
                n += (size_t)snprintf(out + n, cap - n, "%llu,", (unsigned long long)ptx_data_int(d, i));
            n += (size_t)snprintf(out + n, cap - n, "]");
        }
        n += (size_t)snprintf(out + n, cap - n, "\n");
    }
    ptx_context_free(ctx);
}

/* Runs are measured alike whether ptx_yylex takes them before the
 * automaton or the automaton's rule finds them (after a block comment):
 * the same nodes, values and spans. */
static const char *const data_run_bodies[] = {
    "\t.b8 1\n\t.b8 200\n  .b8 0\n.b16 7\n",
    ".b32 5, 6\n.b32 8,9 , 10\n.b32 11\n.b32 4294967296\n",
    ".b8 1\r\n.b8 2 \t\n.b8 12345678901234567890\n",
    ".b64 1\n.b64 0\n.b64 01\n",
    ".b8 255 // c\n.b8 3\n",
};

START_TEST(data_runs_either_way)
{
    const char *b = data_run_bodies[_i];
    char plain[2048], commented[2048], body[512];
    data_summary(b, plain, sizeof plain);
    snprintf(body, sizeof body, "/* c */%s", b);
    data_summary(body, commented, sizeof commented);
    ck_assert_str_eq(plain, commented);
    ck_assert_ptr_nonnull(strstr(plain, "w"));
}
END_TEST

/* A run of data lines is one node but prints as the lines it stands for,
 * each at its own position; a comment ends a run, a hexadecimal value is
 * not part of one, a line of several values is (with where its values
 * end), a value too wide for the word widens the packing. */
START_TEST(data_runs)
{
    static const char src[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".section .debug_info\n{\n"
        "\t.b8 1\n\t.b8 200\n  .b8 0\n"          /* lines 6-8: one run */
        "// x\n"
        ".b8 300\n.b8 7\n"                          /* lines 10-11: packed at 2 bytes */
        ".b8 0x10\n"                                 /* line 12: an expression */
        ".b32 5, 6\n.b32 8,9 , 10\n.b32 11\n"      /* lines 13-15: 2, 3 and 1 values */
        ".b64 9999999999999999999\n"                 /* line 16: the same run, another word */
        "}\n";
    ptx_context *ctx;
    /* not validated: ptxas refuses .b8 300 */
    const ptx_module *m = test_parse_text(&ctx, src, sizeof src - 1, false);
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_section *sec = (const ptx_section *)m->first;
    const ptx_data *a = (const ptx_data *)sec->first;
    ck_assert_uint_eq(a->width, 1);
    ck_assert_uint_eq(a->count, 3);
    ck_assert_ptr_null(a->values);
    ck_assert_ptr_null(a->line_bytes);
    ck_assert_uint_eq(a->nsyms, 0);
    ck_assert_uint_eq(ptx_data_int(a, 1), 200);
    const ptx_data *b = (const ptx_data *)a->base.next;
    ck_assert_uint_eq(b->width, 2);
    ck_assert_uint_eq(b->count, 2);
    ck_assert_uint_eq(ptx_data_int(b, 0), 300);
    const ptx_data *c = (const ptx_data *)b->base.next;
    ck_assert_uint_eq(c->width, 0);
    ck_assert_uint_eq(ptx_expr_int(c->values[0]), 16);
    const ptx_data *d = (const ptx_data *)c->base.next;
    ck_assert_uint_eq(d->width, 8);
    ck_assert_uint_eq(d->count, 7);
    ck_assert_uint_eq(d->nlines, 4);
    ck_assert_ptr_nonnull(d->line_ends);
    ck_assert_uint_eq(ptx_data_line_start(d, 1), 2);
    ck_assert_uint_eq(ptx_data_line_start(d, 2), 5);
    ck_assert_uint_eq(ptx_data_line_start(d, 3), 6);
    ck_assert_uint_eq(ptx_data_line_start(d, 4), 7);
    ck_assert_uint_eq(ptx_data_int(d, 4), 10);
    ck_assert_ptr_nonnull(d->line_bytes);
    ck_assert_str_eq(ptx_data_line_word(d, 2), ".b32");
    ck_assert_str_eq(ptx_data_line_word(d, 3), ".b64");
    ck_assert_uint_eq(ptx_data_int(d, 6), 9999999999999999999u);
    ck_assert_ptr_null(d->base.next);
    ck_assert_ptr_null(a->line_ends);
    ck_assert_uint_eq(a->nlines, 3);
    char *t = tree_text(ctx, m, 0);
    ck_assert_ptr_nonnull(strstr(t, "    6:2 data .b8 1\n    7:2 data .b8 200\n    8:3 data .b8 0\n"
                                    "    10:1 data .b8 300\n    11:1 data .b8 7\n    12:1 data .b8 0x10\n"
                                    "    13:1 data .b32 5, 6\n    14:1 data .b32 8, 9, 10\n"
                                    "    15:1 data .b32 11\n    16:1 data .b64 9999999999999999999\n"));
    free(t);
    ptx_context_free(ctx);
}
END_TEST

/* Regression: ".param .b32 name" ending a parameter list, with the ')'
 * on the next line, has the shape of a run's label line; a run never
 * starts with one. */
START_TEST(data_run_not_in_parameter_list)
{
    static const char src[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".visible .func f(\n\t.param .b32 a,\n\t.param .b64 b\n)\n{\n\tret;\n}\n";
    ptx_context *ctx;
    const ptx_module *m = test_parse_text(&ctx, src, sizeof src - 1, true);
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", ptx_diag_count(ctx) ? ptx_diag_get(ctx, 0)->message : "");
    const ptx_func *f = (const ptx_func *)m->first;
    ck_assert_uint_eq(f->nparams, 2);
    ck_assert_str_eq(f->params[1]->vars[0].name->text, "b");
    ptx_context_free(ctx);
}
END_TEST

/* A label after .b32 or .b64 stays in a run (as a value listed in
 * `syms`); after .b8 or .b16, or with anything but a name, it is an
 * expression of its own line. */
START_TEST(data_runs_with_labels)
{
    static const char src[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".section .debug_loc\n{\n"
        ".b64 $L__tmp1\n"                                         /* line 6: a label first */
        ".b8 0\n.b64 $L__tmp2\n.b8 5\n.b32 _Z3foov\n"           /* lines 7-10: one run */
        ".b8 $L__tmp1\n"                                          /* line 11 */
        ".b32 .debug_abbrev\n"                                    /* line 12 */
        ".b64 $L__tmp1+4\n"                                       /* line 13 */
        ".b8 0\n"                                                 /* line 14 */
        "}\n";
    ptx_context *ctx;
    const ptx_module *m = test_parse_text(&ctx, src, sizeof src - 1, true);
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_data *first = (const ptx_data *)((const ptx_section *)m->first)->first;
    ck_assert_uint_eq(first->width, 0);
    const ptx_data *a = (const ptx_data *)first->base.next;
    ck_assert_uint_eq(a->nlines, 4);
    ck_assert_uint_eq(a->count, 4);
    ck_assert_uint_eq(a->width, 1);
    ck_assert_uint_eq(a->nsyms, 2);
    ck_assert_ptr_null(ptx_data_sym_at(a, 0));
    ck_assert_str_eq(ptx_data_sym_at(a, 1)->text, "$L__tmp2");
    ck_assert_ptr_null(ptx_data_sym_at(a, 2));
    ck_assert_uint_eq(ptx_data_int(a, 2), 5);
    ck_assert_str_eq(ptx_data_sym_at(a, 3)->text, "_Z3foov");
    ck_assert_uint_eq(ptx_data_int(a, 3), 0);
    const ptx_node *x = a->base.next;
    for (int k = 0; k < 3; k++, x = x->next)
        ck_assert_uint_eq(((const ptx_data *)x)->width, 0);
    ck_assert_uint_eq(((const ptx_data *)x)->width, 1);
    ck_assert_ptr_null(x->next);
    char *t = tree_text(ctx, m, 0);
    ck_assert_ptr_nonnull(strstr(t, "    6:1 data .b64 $L__tmp1\n    7:1 data .b8 0\n    8:1 data .b64 $L__tmp2\n"
                                    "    9:1 data .b8 5\n    10:1 data .b32 _Z3foov\n"));
    free(t);
    char *j = json_text(ctx, m);
    ck_assert_ptr_nonnull(strstr(j, "\"lines\":4,\"line_words\":[\".b8\",\".b64\",\".b8\",\".b32\"],"
                                    "\"v\":[0,\"$L__tmp2\",5,\"_Z3foov\"]"));
    free(j);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(round_trip_keeps_lines)
{
    /* the lossless output puts every node and operand on the line it had
     * in the source */
    char why[4096];
    unsigned nodes;
    ck_assert_str_eq(lines_kept(rich, why, sizeof why, &nodes), "");
    ck_assert_uint_gt(nodes, 50);
    static const char dense[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".global .b32 a; .global .b32 b;\n"
        ".visible .entry k(.param .u64 p) .maxntid 32 { .reg .b32 r; mov.b32 r, 1;\n"
        "ret; }\n"
        ".visible .func (.reg .b32 x) f(.reg .b32 y, .reg .b32 z) { ret; } .visible .func g()\n"
        "{ .reg .b32 r;\n"
        "\tL: { ret; }\n"
        "\tadd.s32 r, r,\n"
        "\t  1; sub.s32 r,\n"
        "\tr, 2;\n"
        "\tcall (r), f\n"
        "\t, (r,\n"
        "\tr);\n"
        "}\n"
        ".section .debug_str\n{ $s: .b8 1\n.b8 2\n}\n"
        ".global .b32 c;\n";
    ck_assert_str_eq(lines_kept(dense, why, sizeof why, &nodes), "");
    /* ".b8 1\n.b8 2" is one node: a run of two lines */
    ck_assert_uint_eq(nodes, 23);
}
END_TEST

/* Regression (fixed): a .section whose '{' stands on the .section line is printed over
 * several lines by the line-preserving printer (".section\t.debug_str",
 * a line break, '{' ...), so every later statement of the module lands
 * lines below its source line. */
START_TEST(line_preserving_one_line_section)
{
    static const char src[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".section .debug_str { $str: .b8 65, 0 }\n"
        ".global .b32 a;\n"
        ".visible .entry k()\n{\nret;\n}\n";
    char why[4096];
    unsigned nodes;
    ck_assert_str_eq(lines_kept(src, why, sizeof why, &nodes), "");
}
END_TEST

/* ---- writer failures and bad arguments ---------------------------------------- */

START_TEST(writer_failure)
{
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, small);
    test_buf b = { .fail_at = 1 };
    ck_assert_int_eq(ptx_print_ptx(ctx, m, test_buf_write, &b), PTX_ERR_IO);
    ck_assert_uint_eq(b.calls, 1);
    b = (test_buf){ .fail_at = 1 };
    ck_assert_int_eq(ptx_print_ptx(NULL, m, test_buf_write, &b), PTX_ERR_IO);
    b = (test_buf){ .fail_at = 1 };
    ck_assert_int_eq(ptx_print_tree(ctx, m, 0, test_buf_write, &b), PTX_ERR_IO);
    ck_assert_uint_eq(b.calls, 1);
    b = (test_buf){ .fail_at = 1 };
    ck_assert_int_eq(ptx_print_tree(NULL, m, PTX_PRINT_NO_LOCATIONS, test_buf_write, &b), PTX_ERR_IO);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(writer_failure_midway)
{
    /* output of several buffers: the second write fails, no write after it */
    enum { N = 20000 };
    static const char stmt[] = "mov.b32 %r1, %r2;\n";
    static const char decl[] = ".reg .b32 %r<3>;\n";
    size_t len = strlen(test_head) + strlen(decl) + N * strlen(stmt) + strlen(test_tail);
    char *text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    size_t k = strlen(test_head);
    memcpy(text, test_head, k);
    memcpy(text + k, decl, strlen(decl));
    k += strlen(decl);
    for (int i = 0; i < N; i++, k += strlen(stmt))
        memcpy(text + k, stmt, strlen(stmt));
    memcpy(text + k, test_tail, strlen(test_tail) + 1);
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, text);
    free(text);
    test_buf b = { .fail_at = 2 };
    ck_assert_int_eq(ptx_print_ptx(NULL, m, test_buf_write, &b), PTX_ERR_IO);
    ck_assert_uint_eq(b.calls, 2);
    ck_assert_uint_gt(b.len, 0);
    free(b.p);
    b = (test_buf){ .fail_at = 2 };
    ck_assert_int_eq(ptx_print_tree(ctx, m, 0, test_buf_write, &b), PTX_ERR_IO);
    ck_assert_uint_eq(b.calls, 2);
    free(b.p);
    /* and without a failure the whole text arrives */
    b = (test_buf){ 0 };
    ck_assert_int_eq(ptx_print_ptx(NULL, m, test_buf_write, &b), PTX_OK);
    ck_assert_uint_gt(b.calls, 2);
    ck_assert_uint_eq(b.len, strlen(HDR) + strlen(".visible .entry k()\n{\n}\n") +
                                 strlen("\t.reg .b32 %r<3>;\n") +
                                 N * strlen("\tmov.b32 \t%r1, %r2;\n"));
    free(b.p);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(bad_arguments)
{
    ptx_context *ctx;
    const ptx_module *m = parse_clean(&ctx, small);
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_ptx(NULL, NULL, test_buf_write, &b), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_print_ptx(ctx, m, NULL, &b), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_print_tree(NULL, NULL, 0, test_buf_write, &b), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_print_tree(ctx, m, 0, NULL, &b), PTX_ERR_USAGE);
    ck_assert_uint_eq(b.calls, 0);
    ptx_context_free(ctx);
}
END_TEST

/* ---- literals ----------------------------------------------------------------- */

/* "mov.b32 %r1, LIT;" printed canonically is "\tmov.b32 \t%r1, OUT;" and
 * reads back as the same expression. */
/* `lit` as the source of a mov of type `type` (".b32": integers and 0f,
 * ".f64": decimal floating point, as ptxas wants them) */
static void check_literal_as(const char *type, const char *lit, const char *out)
{
    char body[160];
    snprintf(body, sizeof body, ".reg %s %%r1;\nmov%s %%r1, %s;", type, type, lit);
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body);
    char *text = ptx_text(NULL, m);
    char want[128];
    snprintf(want, sizeof want, "\n\tmov%s \t%%r1, %s;\n", type, out);
    ck_assert_msg(strstr(text, want) != NULL, "'%s' printed as:\n%s", lit, text);
    ptx_context *ctx2;
    const ptx_module *m2 = parse_clean(&ctx2, text);
    const ptx_expr *a = &((const ptx_instr *)((const ptx_func *)m->first)->body->first->next)->ops[1];
    const ptx_expr *b = &((const ptx_instr *)((const ptx_func *)m2->first)->body->first->next)->ops[1];
    ck_assert_int_eq(a->kind, b->kind);
    ck_assert_uint_eq(a->flags, b->flags);
    switch ((ptx_expr_kind)a->kind) {
    case PTX_EXPR_FLOAT:
        ck_assert_msg(ptx_expr_float(a) == ptx_expr_float(b), "'%s' read back as %.17g", lit, ptx_expr_float(b));
        break;
    case PTX_EXPR_INT:
    case PTX_EXPR_F32:
    case PTX_EXPR_F64:
        ck_assert_uint_eq(ptx_expr_int(a), ptx_expr_int(b));
        break;
    default:
        /* an expression: the same shape, op and depth */
        ck_assert_uint_eq(ptx_expr_depth(a), ptx_expr_depth(b));
        ck_assert_uint_eq(ptx_expr_count(a), ptx_expr_count(b));
        break;
    }
    free(text);
    ptx_context_free(ctx);
    ptx_context_free(ctx2);
}

static void check_literal(const char *lit, const char *out)
{
    check_literal_as(".b32", lit, out);
}

START_TEST(literal_integers)
{
    check_literal("0x1F", "0x1F");
    check_literal("0X1f", "0x1F");
    check_literal("017", "017");
    check_literal("0b101", "0b101");
    check_literal("0B0", "0b0");
    check_literal("10U", "10U");
    check_literal("0xFFU", "0xFFU");
    check_literal("017U", "017U");
    check_literal("0", "0");
    check_literal("00", "00");
    check_literal("18446744073709551615", "18446744073709551615");
    check_literal("0xFFFFFFFFFFFFFFFF", "0xFFFFFFFFFFFFFFFF");
}
END_TEST

START_TEST(literal_bits)
{
    check_literal("0f3F800000", "0f3F800000");
    check_literal("0f3f800000", "0f3F800000");
    check_literal("0F00000001", "0f00000001");
    check_literal_as(".b64", "0d3FF0000000000000", "0d3FF0000000000000");
    check_literal_as(".b64", "0D000000000000000a", "0d000000000000000A");
}
END_TEST

START_TEST(literal_floats)
{
    check_literal_as(".f64", "1.5", "1.5");
    check_literal_as(".f64", "1e300", "1e+300");
    check_literal_as(".f64", "5.", "5.0");
    check_literal_as(".f64", ".5", "0.5");
    check_literal_as(".f64", "0.1", "0.1");
    check_literal_as(".f64", "1.0", "1.0");
    check_literal_as(".f64", "123456789.0", "123456789.0");
    check_literal_as(".f64", "0.30000000000000004", "0.30000000000000004");
    check_literal_as(".f64", "1.5E-3", "0.0015");
    check_literal_as(".f64", "2.2250738585072014e-308", "2.2250738585072014e-308");
    check_literal_as(".f64", "1.7976931348623157e308", "1.7976931348623157e+308");
}
END_TEST

START_TEST(literal_expressions)
{
    check_literal("-1", "-1");
    check_literal("4/2 % 3", "4 / 2 % 3");
    check_literal("(1+2)*3", "(1 + 2) * 3");
    check_literal("1?2:3", "1 ? 2 : 3");
    check_literal("(.s64)~0", "(.s64)~0");
    check_literal("- -1", "--1");
    check_literal("!!1", "!!1");
    check_literal("1<<2>>1", "1 << 2 >> 1");
}
END_TEST

Suite *print_suite(void)
{
    Suite *s = suite_create("print");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, tree_without_locations);
    tcase_add_test(tc, tree_with_locations);
    tcase_add_test(tc, ptx_line_preserving);
    tcase_add_test(tc, ptx_canonical);
    tcase_add_test(tc, file_timestamp_without_size);
    tcase_add_test(tc, ptx_canonical_header_lines);
    tcase_add_test(tc, ptx_other_context_is_canonical);
    suite_add_tcase(s, tc);

    tc = tcase_create("round trip");
    tcase_add_test(tc, round_trip_canonical);
    tcase_add_test(tc, round_trip_line_preserving);
    tcase_add_test(tc, round_trip_keeps_lines);
    tcase_add_test(tc, data_runs);
    tcase_add_test(tc, data_runs_with_labels);
    tcase_add_test(tc, data_run_not_in_parameter_list);
    tcase_add_loop_test(tc, data_runs_either_way, 0,
                        (int)(sizeof data_run_bodies / sizeof data_run_bodies[0]));
    tcase_add_test(tc, line_preserving_one_line_section);
    suite_add_tcase(s, tc);

    tc = tcase_create("writer");
    tcase_add_test(tc, writer_failure);
    tcase_add_test(tc, writer_failure_midway);
    tcase_add_test(tc, bad_arguments);
    suite_add_tcase(s, tc);

    tc = tcase_create("literals");
    tcase_add_test(tc, literal_integers);
    tcase_add_test(tc, literal_bits);
    tcase_add_test(tc, literal_floats);
    tcase_add_test(tc, literal_expressions);
    suite_add_tcase(s, tc);
    return s;
}
