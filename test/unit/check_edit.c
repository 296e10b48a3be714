/* The lossless and canonical PTX layouts and the editing API (edit.c). */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static const char body_src[] =
    HDR
    "// a comment before the kernel\n"
    "\n"
    ".visible .entry k(.param .u64 p)\n"
    "{\n"
    "\t.reg .b32 %r<4>;   // registers\n"
    "\t.reg .pred %p;\n"
    "\n"
    "\t// about the mov\n"
    "\tmov.u32 %r1, 1; // one\n"
    "\tsetp.eq.s32 %p, %r1, 0;\n"
    "\t@%p bra L1;\n"
    "\tadd.s32  %r2, %r1,   2;\n"
    "L1:\n"
    "\tret;\n"
    "}\n";

static const ptx_module *parse(ptx_context **ctx, const char *text)
{
    *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(*ctx);
    const ptx_module *m;
    ck_assert_int_eq(ptx_parse_buffer(*ctx, "t.ptx", text, strlen(text), &m), PTX_OK);
    return m;
}

static char *lossless(const ptx_context *ctx, const ptx_module *m)
{
    test_buf out = { 0 };
    ck_assert_int_eq(ptx_print_ptx(ctx, m, test_buf_write, &out), PTX_OK);
    return out.p;
}

static char *canonical(const ptx_context *ctx, const ptx_module *m)
{
    test_buf out = { 0 };
    ck_assert_int_eq(ptx_print_ptx_canonical(ctx, m, NULL, NULL, test_buf_write, &out), PTX_OK);
    return out.p;
}

static char *node_text(const ptx_node *n)
{
    test_buf out = { 0 };
    ck_assert_int_eq(ptx_print_node(n, test_buf_write, &out), PTX_OK);
    return out.p ? out.p : calloc(1, 1);
}

/* The statement of k's body whose opcode (or label) is `what`. */
static ptx_node *stmt(const ptx_module *m, const char *what)
{
    const ptx_func *f = ptx_find_function(m, "k");
    ck_assert_ptr_nonnull(f);
    for (ptx_node *s = f->body->first; s; s = s->next) {
        if (s->kind == PTX_NODE_INSTR &&
            strcmp(ptx_instr_opcode((const ptx_instr *)s)->text, what) == 0)
            return s;
        if (s->kind == PTX_NODE_LABEL && strcmp(((ptx_label *)s)->name->text, what) == 0)
            return s;
    }
    ck_abort_msg("no statement %s", what);
    return NULL;
}

/* `src` with `add` put in place of the first `at`. */
static char *with(const char *src, const char *at, const char *add, const char *instead)
{
    const char *p = strstr(src, at);
    ck_assert_ptr_nonnull(p);
    size_t skip = instead ? strlen(instead) : 0;
    char *r = malloc(strlen(src) + strlen(add) + 1);
    size_t k = (size_t)(p - src);
    memcpy(r, src, k);
    strcpy(r + k, add);
    strcat(r, p + skip);
    return r;
}

static void check_same(const char *got, const char *want)
{
    TEST_ASSERT_SAME_TEXT(got, want);
}

START_TEST(lossless_unedited_is_the_input)
{
    static const char *const inputs[] = {
        body_src,
        HDR "/* block\n comment */  .global .u32 g;\t\t// x\n\n\n\n.entry e() { ret; }   \n// end",
        ".version 9.0\r\n.target sm_90\r\n\r\n.entry e()\r\n{\r\n  ret;  // crlf\r\n}\r\n",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        ptx_context *ctx;
        const ptx_module *m = parse(&ctx, inputs[i]);
        char *got = lossless(ctx, m);
        check_same(got, inputs[i]);
        free(got);
        ptx_context_free(ctx);
    }
}
END_TEST

static ptx_instr *membar(ptx_context *ctx)
{
    ptx_instr *in = ptx_new_instr(ctx, "membar.gl", NULL, 0);
    ck_assert_ptr_nonnull(in);
    return in;
}

START_TEST(insert_at_the_start_and_end_of_a_block)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ck_assert_int_eq(ptx_insert_after(body, NULL, &membar(ctx)->base), PTX_OK);
    ck_assert_int_eq(ptx_insert_before(body, NULL, &membar(ctx)->base), PTX_OK);
    char *got = lossless(ctx, m);
    char *a = with(body_src, "\n\t.reg .b32", "\n\tmembar.gl;", NULL);
    char *want = with(a, "\tret;\n", "\tret;\n\tmembar.gl;", "\tret;");
    check_same(got, want);
    free(a);
    free(want);
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(insert_after_a_statement_with_a_comment)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ck_assert_int_eq(ptx_insert_after(body, stmt(m, "mov"), &membar(ctx)->base), PTX_OK);
    /* the comment stays on the line of the statement it follows */
    char *got = lossless(ctx, m);
    char *want = with(body_src, "// one\n", "// one\n\tmembar.gl;\n", "// one\n");
    check_same(got, want);
    free(want);
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(insert_before_goes_right_above_its_statement)
{
    /* before the mov: under the blank line and the comment above it, on
     * the line right above the mov, with its indentation; after the
     * .reg before them: right under the .reg.  The same tree either
     * way, told apart by how the node was put there */
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ptx_node *gl = &membar(ctx)->base;
    ck_assert_int_eq(ptx_insert_before(body, stmt(m, "mov"), gl), PTX_OK);
    char *got = lossless(ctx, m);
    char *want = with(body_src, "\tmov.u32", "\tmembar.gl;\n", NULL);
    check_same(got, want);
    free(want);
    free(got);
    ptx_instr *cta = ptx_new_instr(ctx, "membar.cta", NULL, 0);
    ck_assert_int_eq(ptx_insert_after(body, body->first->next, &cta->base), PTX_OK);
    got = lossless(ctx, m);
    char *a = with(body_src, "\tmov.u32", "\tmembar.gl;\n", NULL);
    want = with(a, "\n\n\t// about", "\n\tmembar.cta;", NULL);
    check_same(got, want);
    free(a);
    free(want);
    free(got);
    /* moved after the .reg instead: it goes with that line, not the mov */
    ck_assert_int_eq(ptx_remove(ctx, body, gl), PTX_OK);
    ck_assert_int_eq(ptx_insert_after(body, &cta->base, gl), PTX_OK);
    got = lossless(ctx, m);
    want = with(body_src, "\n\n\t// about", "\n\tmembar.cta;\n\tmembar.gl;", NULL);
    check_same(got, want);
    free(want);
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(insert_before_a_statement_that_shares_its_line)
{
    /* "a; b;": no line of b's own to go above; as before, a new line
     * after a's, and b stays on it */
    static const char src[] = HDR ".entry k()\n{\n\t.reg .b32 %r1;\n\n\tmov.u32 %r1, 1; add.u32 %r1, %r1, 1;\n\tret;\n}\n";
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ck_assert_int_eq(ptx_insert_before(body, stmt(m, "add"), &membar(ctx)->base), PTX_OK);
    char *got = lossless(ctx, m);
    check_same(got, HDR ".entry k()\n{\n\t.reg .b32 %r1;\n\n\tmov.u32 %r1, 1;\n\tmembar.gl; add.u32 %r1, %r1, 1;\n\tret;\n}\n");
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(insert_before_a_replacement_or_after_a_removal)
{
    /* the exit in place of the ret is where the ret was: the fence goes
     * right above it, under the blank line; with the mov removed, the
     * fence before the add goes under the comments above the add */
    static const char src[] = HDR ".entry k()\n{\n\t.reg .b32 %r1;\n\n\t// the mov\n\tmov.u32 %r1, 1;\n"
                              "\n\t// the add\n\tadd.u32 %r1, %r1, 1;\n\n\tret;\n}\n";
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ptx_instr *ex = ptx_new_instr(ctx, "exit", NULL, 0);
    ck_assert_int_eq(ptx_replace(ctx, body, stmt(m, "ret"), &ex->base), PTX_OK);
    ck_assert_int_eq(ptx_insert_before(body, &ex->base, &membar(ctx)->base), PTX_OK);
    ck_assert_int_eq(ptx_remove(ctx, body, stmt(m, "mov")), PTX_OK);
    ck_assert_int_eq(ptx_insert_before(body, stmt(m, "add"), &membar(ctx)->base), PTX_OK);
    char *got = lossless(ctx, m);
    check_same(got, HDR ".entry k()\n{\n\t.reg .b32 %r1;\n\n\t// the mov\n"
                    "\n\t// the add\n\tmembar.gl;\n\tadd.u32 %r1, %r1, 1;\n\n\tmembar.gl;\n\texit;\n}\n");
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(insert_after_a_declaration)
{
    /* a declaration's span ends before its ';': the ';' stays with it */
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ck_assert_int_eq(ptx_insert_after(body, body->first, &membar(ctx)->base), PTX_OK);
    char *got = lossless(ctx, m);
    char *want = with(body_src, "// registers\n", "// registers\n\tmembar.gl;\n", "// registers\n");
    check_same(got, want);
    free(want);
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(insert_keeps_trailing_spaces_on_their_line)
{
    /* the spaces that end the line before an inserted statement stay on
     * that line (they were written after the new statement) */
    static const char src[] = HDR ".entry k()\n{\n\t.reg .b32 %r<2>;   \n\tmov.u32 %r1, 1;\t \n"
                              "\tmov.u32 %r1, 2; // c  \n\tret;\n}\n";
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ptx_node *mov1 = body->first->next;
    ck_assert_int_eq(ptx_insert_after(body, body->first, &membar(ctx)->base), PTX_OK);
    ck_assert_int_eq(ptx_insert_after(body, mov1, &membar(ctx)->base), PTX_OK);
    ck_assert_int_eq(ptx_insert_after(body, mov1->next->next, &membar(ctx)->base), PTX_OK);
    char *got = lossless(ctx, m);
    check_same(got, HDR ".entry k()\n{\n\t.reg .b32 %r<2>;   \n\tmembar.gl;\n\tmov.u32 %r1, 1;\t \n"
                        "\tmembar.gl;\n\tmov.u32 %r1, 2; // c  \n\tmembar.gl;\n\tret;\n}\n");
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(remove_and_replace_keep_comments)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ptx_node *mov = stmt(m, "mov");
    ck_assert_int_eq(ptx_remove(ctx, body, mov), PTX_OK);
    ck_assert_int_eq(ptx_remove(ctx, body, mov), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_replace(ctx, body, stmt(m, "add"), &membar(ctx)->base), PTX_OK);
    char *got = lossless(ctx, m);
    /* the mov's line goes (the comment of the line before stays); the add
     * is replaced on its line */
    char *a = with(body_src, "\tmov.u32 %r1, 1; // one\n", "", "\tmov.u32 %r1, 1; // one\n");
    char *want = with(a, "\tadd.s32  %r2, %r1,   2;\n", "\tmembar.gl;\n", "\tadd.s32  %r2, %r1,   2;\n");
    check_same(got, want);
    /* the removed node can go elsewhere: at the end */
    ck_assert_int_eq(ptx_insert_before(body, NULL, mov), PTX_OK);
    free(got);
    got = lossless(ctx, m);
    char *want2 = with(want, "\tret;\n", "\tret;\n\tmov.u32 \t%r1, 1;", "\tret;");
    check_same(got, want2);
    free(a);
    free(want);
    free(want2);
    free(got);
    ptx_context_free(ctx);
}
END_TEST

/* Each replacing node takes the place of the node it replaced, however
 * many nodes replace others, and a node inserted beside them replaces
 * nothing; PTX_NODE_EDITED marks what the editing API placed and nothing
 * else. */
START_TEST(replacements_land_where_their_nodes_were)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ptx_node *ret = stmt(m, "ret");
    ptx_instr *ex = ptx_new_instr(ctx, "exit", NULL, 0);
    ptx_instr *trap = ptx_new_instr(ctx, "trap", NULL, 0);
    ptx_instr *bar = membar(ctx);
    ck_assert_ptr_nonnull(ex);
    ck_assert_ptr_nonnull(trap);
    ck_assert_int_eq(ptx_replace(ctx, body, stmt(m, "add"), &trap->base), PTX_OK);
    ck_assert_int_eq(ptx_replace(ctx, body, stmt(m, "mov"), &ex->base), PTX_OK);
    ck_assert_int_eq(ptx_insert_before(body, ret, &bar->base), PTX_OK);
    ck_assert_uint_eq(ex->base.flags & PTX_NODE_EDITED, PTX_NODE_EDITED);
    ck_assert_uint_eq(bar->flags & PTX_INSTR_EDITED, PTX_INSTR_EDITED);
    ck_assert_uint_eq(ret->flags & PTX_NODE_EDITED, 0);
    ck_assert_uint_eq(stmt(m, "setp")->flags & PTX_NODE_EDITED, 0);
    char *got = lossless(ctx, m);
    char *a = with(body_src, "\tmov.u32 %r1, 1; // one\n", "\texit;\n", "\tmov.u32 %r1, 1; // one\n");
    char *b = with(a, "\tadd.s32  %r2, %r1,   2;\n", "\ttrap;\n", "\tadd.s32  %r2, %r1,   2;\n");
    char *want = with(b, "\tret;\n", "\tmembar.gl;\n\tret;\n", "\tret;\n");
    check_same(got, want);
    free(a);
    free(b);
    free(want);
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(module_items_insert_remove_replace)
{
    static const char src[] = HDR ".global .u32 a;\n// b\n.global .u32 b;\n.entry e() { ret; }\n";
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, src);
    ptx_node *a = m->first, *b = a->next;
    ck_assert_int_eq(ptx_module_remove(ctx, a), PTX_OK);
    ptx_decl *c = ptx_new_decl(ctx, PTX_SPACE_SHARED, PTX_TYPE_U8, "c", 16);
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(ptx_module_replace(ctx, b, &c->base), PTX_OK);
    ptx_decl *d = ptx_new_decl(ctx, PTX_SPACE_CONST, PTX_TYPE_F32, "d", 0);
    ck_assert_int_eq(ptx_module_insert_after(ctx, &c->base, &d->base), PTX_OK);
    ck_assert_int_eq(ptx_module_insert_before(ctx, m->first, a), PTX_OK);
    ck_assert_int_eq(ptx_module_insert_before(ctx, b, a), PTX_ERR_USAGE);
    char *got = lossless(ctx, m);
    check_same(got, HDR ".global .u32 a;\n// b\n.shared .u8 c[16];\n.const .f32 d;\n"
                        ".entry e() { ret; }\n");
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(operands_of_every_kind)
{
    ptx_context *ctx;
    parse(&ctx, body_src);
    ptx_expr *sym = ptx_new_name(ctx, "arr");
    ptx_expr *ops[] = {
        ptx_new_name(ctx, "%r1"),
        ptx_new_addr(ctx, sym, 8),
        ptx_new_addr(ctx, sym, -4),
        ptx_new_addr(ctx, sym, 0),
        ptx_new_int(ctx, -3),
        ptx_new_float(ctx, 1.5),
        ptx_new_f32(ctx, 0.5f),
        ptx_new_vec(ctx, (ptx_expr *[]){ ptx_new_name(ctx, "%r1"), ptx_new_name(ctx, "%r2") }, 2),
        ptx_new_list(ctx, (ptx_expr *[]){ ptx_new_name(ctx, "x") }, 1),
        ptx_new_name(ctx, "%tid.x"),
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        ck_assert_ptr_nonnull(ops[i]);
    ck_assert_str_eq(ptx_expr_name(ops[9])->text, "%tid");
    ck_assert_str_eq(ptx_expr_sel(ops[9])->text, ".x");
    ck_assert_uint_eq(ops[1]->kind, PTX_EXPR_ADDR);
    ck_assert_uint_eq(ops[7]->kind, PTX_EXPR_VEC);
    ck_assert_uint_eq(ops[8]->kind, PTX_EXPR_LIST);
    /* validation off: any opcode, to print every operand in one line */
    ptx_context_set_validation(ctx, false);
    ptx_instr *in = ptx_new_instr(ctx, "op.x", ops, sizeof ops / sizeof ops[0]);
    ck_assert_ptr_nonnull(in);
    char *got = node_text(&in->base);
    ck_assert_str_eq(got, "op.x \t%r1, [arr + 8], [arr - 4], [arr], -3, 0d3FF8000000000000, "
                          "0f3F000000, {%r1, %r2}, (x), %tid.x;");
    free(got);
    ck_assert_ptr_null(ptx_new_vec(ctx, (ptx_expr *[]){ NULL }, 1));
    ck_assert_ptr_null(ptx_new_addr(ctx, NULL, 0));
    ptx_context_free(ctx);
}
END_TEST

START_TEST(new_instr_is_checked_against_the_tables)
{
    ptx_context *ctx;
    parse(&ctx, body_src);
    ptx_expr *ops[2] = { ptx_new_name(ctx, "%r1"), ptx_new_addr(ctx, ptx_new_name(ctx, "p"), 0) };
    ck_assert_ptr_null(ptx_new_instr(ctx, "ld.gloabl.u33", ops, 2));
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 0)->message, ".gloabl"));
    ck_assert_uint_eq(ptx_diag_get(ctx, 0)->span.off, PTX_NO_OFFSET);
    ck_assert_ptr_null(ptx_new_instr(ctx, "ld.global.u33", ops, 2));
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 1)->message, ".u33"));
    ck_assert_ptr_null(ptx_new_instr(ctx, "lod.global.u32", ops, 2));
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 2)->message, "lod"));
    ck_assert_ptr_nonnull(ptx_new_instr(ctx, "ld.global.u32", ops, 2));
    ck_assert_uint_eq(ptx_error_count(ctx), 3);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(validate_reports_edits)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ck_assert_int_eq(ptx_validate(ctx), PTX_OK);
    /* an unknown register, and a u64 register where s32 is wanted */
    ptx_expr *ops[3] = { ptx_new_name(ctx, "%nope"), ptx_new_name(ctx, "%r1"), ptx_new_int(ctx, 1) };
    ptx_instr *bad = ptx_new_instr(ctx, "add.s32", ops, 3);
    ck_assert_int_eq(ptx_insert_before(body, stmt(m, "ret"), &bad->base), PTX_OK);
    ck_assert_int_eq(ptx_validate(ctx), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 0)->message, "%nope"));
    ck_assert_int_eq(ptx_remove(ctx, body, &bad->base), PTX_OK);
    ck_assert_int_eq(ptx_validate(ctx), PTX_OK);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(fresh_names_clash_with_nothing)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    /* %r<4> declares %r0..%r3: %r5 could be another range's name too */
    ck_assert_str_eq(ptx_fresh_name(ctx, "%r5"), "%r5_1_");
    ck_assert_str_eq(ptx_fresh_name(ctx, "%r1"), "%r1_1_");
    ck_assert_str_eq(ptx_fresh_name(ctx, "L1"), "L1_1_");
    ck_assert_str_eq(ptx_fresh_name(ctx, "%q"), "%q");
    ck_assert_str_eq(ptx_fresh_name(ctx, "%q"), "%q_1_");
    ck_assert_ptr_null(ptx_fresh_name(ctx, ""));
    ptx_expr *r = ptx_declare_register(ctx, ptx_find_function(m, "k"), PTX_TYPE_U64, "%r");
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(ptx_expr_name(r)->text, "%r_1_");
    ptx_decl *decl;
    ptx_expr *g = ptx_declare_variable(ctx, PTX_SPACE_GLOBAL, PTX_TYPE_U64, "k", 3, &decl);
    ck_assert_ptr_nonnull(g);
    ck_assert_str_eq(ptx_expr_name(g)->text, "k_1_");
    ck_assert_ptr_eq(ptx_find_variable(m, "k_1_", NULL), decl);
    char *got = lossless(ctx, m);
    char *a = with(body_src, "\n// a comment", "\n.global .u64 k_1_[3];", NULL);
    char *want = with(a, "\n\n\t// about", "\n\t.reg .u64 %r_1_;", NULL);
    check_same(got, want);
    ck_assert_int_eq(ptx_validate(ctx), PTX_OK);
    free(a);
    free(want);
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(parse_statements_into_a_module)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ptx_node *first;
    static const char snippet[] = "add.s32 %r3, %r1, 1;\nL2: @%p bra L2;";
    ck_assert_int_eq(ptx_parse_statements(ctx, snippet, strlen(snippet), &first), PTX_OK);
    ptx_node *at = stmt(m, "L1");
    for (ptx_node *s = first, *next; s; s = next) {
        next = s->next;
        ck_assert_int_eq(ptx_insert_after(body, at, s), PTX_OK);
        at = s;
    }
    ck_assert_int_eq(ptx_validate(ctx), PTX_OK);
    char *got = lossless(ctx, m);
    char *want = with(body_src, "L1:\n", "L1:\n\tadd.s32 \t%r3, %r1, 1;\nL2:\n\t@%p bra \tL2;\n", "L1:\n");
    check_same(got, want);
    free(got);
    free(want);
    /* the module's own parse is untouched: positions, source */
    ck_assert_uint_eq(ptx_context_position(ctx, stmt(m, "ret")->span.off).line, 17);
    /* text that does not parse: diagnostics without a range */
    size_t before = ptx_diag_count(ctx);
    ck_assert_int_eq(ptx_parse_statements(ctx, "add.s32 %r1,, 1;", 16, &first), PTX_ERR_INPUT);
    ck_assert_ptr_null(first);
    ck_assert_uint_gt(ptx_diag_count(ctx), before);
    ck_assert_uint_eq(ptx_diag_get(ctx, before)->span.off, PTX_NO_OFFSET);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(parsed_statements_have_no_source_positions)
{
    /* their offsets were the snippet's: validate's diagnostics of them
     * pointed into the module's source (an unknown %r9 at 6:10), and
     * removing one again would have cut the module's text */
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    ptx_block *body = ptx_find_function(m, "k")->body;
    ptx_node *first;
    static const char snippet[] = "{ @!%p add.s32 %r9, %r9, 1; }\nL3: add.s64 %r1, %r1, 1;";
    ck_assert_int_eq(ptx_parse_statements(ctx, snippet, strlen(snippet), &first), PTX_OK);
    ptx_node *second = first->next;
    ck_assert_int_eq(ptx_insert_before(body, stmt(m, "ret"), first), PTX_OK);
    ck_assert_int_eq(ptx_insert_before(body, stmt(m, "ret"), second), PTX_OK);
    size_t before = ptx_diag_count(ctx);
    ck_assert_int_eq(ptx_validate(ctx), PTX_ERR_INPUT);
    ck_assert_uint_gt(ptx_diag_count(ctx), before + 1);
    for (size_t i = before; i < ptx_diag_count(ctx); i++)
        ck_assert_msg(ptx_diag_get(ctx, i)->span.off == PTX_NO_OFFSET, "%s at %u",
                      ptx_diag_get(ctx, i)->message, ptx_diag_get(ctx, i)->span.off);
    const ptx_instr *in = (const ptx_instr *)((ptx_block *)first)->first;
    ck_assert_uint_eq(in->base.span.off, PTX_NO_OFFSET);
    ck_assert_uint_eq(ptx_expr_span(&in->ops[0]).off, PTX_NO_OFFSET);
    ck_assert_uint_eq(ptx_expr_span(ptx_instr_guard(in)).off, PTX_NO_OFFSET);
    ck_assert_uint_eq(ptx_mod_offset(in, 0), PTX_NO_OFFSET);
    ck_assert_int_eq(ptx_remove(ctx, body, first), PTX_OK);
    ck_assert_int_eq(ptx_remove(ctx, body, second), PTX_OK);
    char *got = lossless(ctx, m);
    check_same(got, body_src);
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(nodes_of_another_context_print_where_they_are_put)
{
    ptx_context *ctx, *other;
    const ptx_module *m = parse(&ctx, body_src);
    const ptx_module *o = parse(&other, HDR "\n\n\n\n.entry x()\n{\n\n\n\tmembar.cta;\n\tret;\n}\n");
    ptx_node *bar = ptx_find_function(o, "x")->body->first;
    ptx_find_function(o, "x")->body->first = NULL;   /* (only for the test: unlinked) */
    bar->next = NULL;
    ptx_block *body = ptx_find_function(m, "k")->body;
    ck_assert_int_eq(ptx_insert_before(body, stmt(m, "ret"), bar), PTX_OK);
    char *got = lossless(ctx, m);
    char *want = with(body_src, "\tret;", "\tmembar.cta;\n", NULL);
    check_same(got, want);
    free(got);
    free(want);
    ptx_context_free(ctx);
    ptx_context_free(other);
}
END_TEST

START_TEST(find_label_and_iterate_one_function)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, HDR ".func f() { L0: ret; }\n.entry k() { { L1: ret; } }\n");
    const ptx_func *k = ptx_find_function(m, "k");
    ck_assert_ptr_null(ptx_find_label(k, "L0"));
    ptx_label *l1 = ptx_find_label(k, "L1");
    ck_assert_ptr_nonnull(l1);
    ck_assert_str_eq(l1->name->text, "L1");
    ptx_iter *it = ptx_iter_new_node(&k->base);
    const ptx_node *n;
    unsigned events = 0, labels = 0;
    while (ptx_iter_next(it, &n) > 0) {
        events++;
        labels += n->kind == PTX_NODE_LABEL;
    }
    /* k, body, block, L1, ret, block exit, body exit, k exit */
    ck_assert_uint_eq(events, 8);
    ck_assert_uint_eq(labels, 1);
    ptx_iter_free(it);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(print_one_node)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    char *got = node_text(stmt(m, "add"));
    ck_assert_str_eq(got, "add.s32 \t%r2, %r1, 2;");
    free(got);
    got = node_text(stmt(m, "L1"));
    ck_assert_str_eq(got, "L1:");
    free(got);
    got = node_text(&ptx_find_function(m, "k")->base);
    ck_assert_ptr_nonnull(strstr(got, ".visible .entry k(\n\t.param .u64 p\n)\n{\n\t.reg .b32 %r<4>;\n"));
    ck_assert_ptr_nonnull(strstr(got, "\tadd.s32 \t%r2, %r1, 2;\nL1:\n\tret;\n}"));
    free(got);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(canonical_layout_keeps_comments)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body_src);
    char *got = canonical(ctx, m);
    /* each statement on its source line while the lines before leave room */
    check_same(got, HDR "// a comment before the kernel\n\n"
                        ".visible .entry k(\n\t.param .u64 p\n)\n{\n"
                        "\t.reg .b32 %r<4>; // registers\n"
                        "\t.reg .pred %p;\n"
                        "\t// about the mov\n"
                        "\tmov.u32 \t%r1, 1; // one\n"
                        "\tsetp.eq.s32 \t%p, %r1, 0;\n"
                        "\t@%p bra \tL1;\n"
                        "\tadd.s32 \t%r2, %r1, 2;\n"
                        "L1:\n\tret;\n}\n");
    ptx_context *ctx2;
    const ptx_module *m2 = parse(&ctx2, got);
    char *again = canonical(ctx2, m2);
    check_same(again, got);
    free(again);
    free(got);
    ptx_context_free(ctx2);
    ptx_context_free(ctx);
}
END_TEST

static bool only_k(const ptx_node *item, void *user)
{
    (void)user;
    return item->kind != PTX_NODE_FUNC || strcmp(((const ptx_func *)item)->name->text, "k") == 0;
}

START_TEST(function_filter_keeps_callees_and_no_blank_runs)
{
    static const char src[] = HDR "\n\n.func g()\n{\n\tret;\n}\n\n\n\n.func h()\n{\n\tret;\n}\n\n\n\n"
                                  ".entry k()\n{\n\tcall g;\n\n\n\tret;\n}\n";
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, src);
    test_buf out = { 0 };
    ck_assert_int_eq(ptx_print_ptx_items(ctx, m, only_k, NULL, test_buf_write, &out), PTX_OK);
    /* g, which k calls, whole: a .func declared and not defined does not
     * assemble ("Unresolved extern function") */
    check_same(out.p, HDR "\n.func g()\n{\n\tret;\n}\n\n.entry k()\n{\n\tcall g;\n\n\tret;\n}\n");
    free(out.p);
    ptx_context_free(ctx);
}
END_TEST

Suite *edit_suite(void)
{
    Suite *s = suite_create("edit");
    TCase *t = tcase_create("edit");
    tcase_add_test(t, lossless_unedited_is_the_input);
    tcase_add_test(t, insert_at_the_start_and_end_of_a_block);
    tcase_add_test(t, insert_after_a_statement_with_a_comment);
    tcase_add_test(t, insert_after_a_declaration);
    tcase_add_test(t, insert_before_goes_right_above_its_statement);
    tcase_add_test(t, insert_before_a_statement_that_shares_its_line);
    tcase_add_test(t, insert_before_a_replacement_or_after_a_removal);
    tcase_add_test(t, insert_keeps_trailing_spaces_on_their_line);
    tcase_add_test(t, remove_and_replace_keep_comments);
    tcase_add_test(t, replacements_land_where_their_nodes_were);
    tcase_add_test(t, module_items_insert_remove_replace);
    tcase_add_test(t, operands_of_every_kind);
    tcase_add_test(t, new_instr_is_checked_against_the_tables);
    tcase_add_test(t, validate_reports_edits);
    tcase_add_test(t, fresh_names_clash_with_nothing);
    tcase_add_test(t, parse_statements_into_a_module);
    tcase_add_test(t, parsed_statements_have_no_source_positions);
    tcase_add_test(t, nodes_of_another_context_print_where_they_are_put);
    tcase_add_test(t, find_label_and_iterate_one_function);
    tcase_add_test(t, print_one_node);
    tcase_add_test(t, canonical_layout_keeps_comments);
    tcase_add_test(t, function_filter_keeps_callees_and_no_blank_runs);
    suite_add_tcase(s, t);
    return s;
}
