/* The library as an embedder uses it: two parses on two threads at once,
 * changing the tree, the JSON and stats printers, item filters. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "internal.h"
#include "ptx/ptx.h"
#include "tree_equal.h"

#define HDR TEST_HDR


/* A module large enough that two parses overlap in time. */
static char *big_module(int kernels)
{
    size_t cap = (size_t)kernels * 400 + 256, len = 0;
    char *s = malloc(cap);
    len += (size_t)snprintf(s + len, cap - len, HDR);
    for (int k = 0; k < kernels; k++)
        len += (size_t)snprintf(s + len, cap - len,
                                ".visible .entry k%d(.param .u64 p)\n{\n\t.reg .b32 %%r<4>;\n"
                                "\t.reg .b64 %%rd<3>;\n\tld.param.u64 %%rd1, [p];\n"
                                "\tmov.u32 %%r1, %%tid.x;\n\tadd.s32 %%r2, %%r1, %d;\n"
                                "\tst.global.u32 [%%rd1+%d], %%r2;\n\tret;\n}\n", k, k, 4 * k);
    return s;
}

typedef struct job {
    const char *text;
    test_buf out;
    ptx_status st;
} job;

static void *parse_and_print(void *arg)
{
    job *j = arg;
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    j->st = ptx_parse_buffer(ctx, "t.ptx", j->text, strlen(j->text), &m);
    if (j->st == PTX_OK)
        j->st = ptx_print_tree(ctx, m, PTX_PRINT_NO_LOCATIONS, test_buf_write, &j->out);
    ptx_context_free(ctx);
    return NULL;
}

START_TEST(two_threads_two_contexts)
{
    char *text = big_module(2000);
    job solo = { text, { 0 }, 0 };
    parse_and_print(&solo);
    ck_assert_int_eq(solo.st, PTX_OK);
    job a = { text, { 0 }, 0 }, b = { text, { 0 }, 0 };
    pthread_t ta, tb;
    ck_assert_int_eq(pthread_create(&ta, NULL, parse_and_print, &a), 0);
    ck_assert_int_eq(pthread_create(&tb, NULL, parse_and_print, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    ck_assert_int_eq(a.st, PTX_OK);
    ck_assert_int_eq(b.st, PTX_OK);
    ck_assert_uint_eq(a.out.len, solo.out.len);
    ck_assert(memcmp(a.out.p, solo.out.p, solo.out.len) == 0);
    ck_assert(memcmp(b.out.p, solo.out.p, solo.out.len) == 0);
    free(solo.out.p);
    free(a.out.p);
    free(b.out.p);
    free(text);
}
END_TEST

START_TEST(insert_instruction_before_ret)
{
    const char *src = HDR ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n\tret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m), PTX_OK);
    ptx_func *f = (ptx_func *)m->first;
    ptx_node *ret = f->body->first->next->next;
    ck_assert_int_eq(ret->kind, PTX_NODE_INSTR);
    ptx_expr *ops[2] = { ptx_new_name(ctx, "%r1"), ptx_new_int(ctx, -7) };
    ptx_instr *add = ptx_new_instr(ctx, "add.s32", (ptx_expr *[]){ ops[0], ops[0], ops[1] }, 3);
    ck_assert_ptr_nonnull(add);
    ck_assert_str_eq(ptx_instr_opcode(add)->text, "add");
    ck_assert_uint_eq(add->nmods, 1);
    ck_assert_str_eq(add->mods[0].name->text, ".s32");
    /* made by the program: no source offsets, nothing shared */
    ck_assert_uint_eq(ptx_mod_offset(add, 0), PTX_NO_OFFSET);
    ck_assert_uint_eq(ptx_expr_span(ops[0]).off, PTX_NO_OFFSET);
    ck_assert_uint_eq(ptx_expr_span(ops[1]).len, 0);
    ck_assert_int_eq(add->flags & PTX_INSTR_SHARED_MODS, 0);
    ck_assert_int_eq(ptx_insert_before(f->body, ret, &add->base), PTX_OK);
    ptx_instr *fence = ptx_new_instr(ctx, "fence.proxy.async::generic.release.sync_restrict::shared::cluster.cluster", NULL, 0);
    ck_assert_uint_eq(fence->nmods, 5);
    ck_assert_str_eq(fence->mods[1].name->text, ".async::generic");
    ck_assert_str_eq(fence->mods[3].name->text, ".sync_restrict::shared::cluster");
    /* more than 65535 operands or modifiers: no instruction */
    ptx_expr **many = malloc(65536 * sizeof *many);
    ck_assert_ptr_nonnull(many);
    for (size_t i = 0; i < 65536; i++)
        many[i] = ops[0];
    ck_assert_ptr_null(ptx_new_instr(ctx, "add.s32", many, 65536));
    ptx_instr *wide = ptx_new_instr(ctx, "add.s32", many, 65535);
    ck_assert_ptr_nonnull(wide);
    ck_assert_uint_eq(wide->nops, 65535);
    ck_assert_ptr_eq(ptx_expr_name(&wide->ops[65534]), ptx_expr_name(ops[0]));
    free(many);
    /* (the tables know no ".a": without validation, any words go) */
    ptx_context_set_validation(ctx, false);
    char *dots = malloc(3 + 2 * 65536 + 1);
    ck_assert_ptr_nonnull(dots);
    memcpy(dots, "bar", 3);
    for (size_t i = 0; i < 65536; i++)
        memcpy(dots + 3 + 2 * i, ".a", 2);
    dots[3 + 2 * 65536] = '\0';
    ck_assert_ptr_null(ptx_new_instr(ctx, dots, NULL, 0));
    dots[3 + 2 * 65535] = '\0';
    ptx_instr *dotty = ptx_new_instr(ctx, dots, NULL, 0);
    ck_assert_ptr_nonnull(dotty);
    ck_assert_uint_eq(dotty->nmods, 65535);
    free(dots);
    /* a statement that is not in the block */
    ck_assert_int_eq(ptx_insert_before(f->body, &fence->base, &fence->base), PTX_ERR_USAGE);
    test_buf out = { 0 };
    ck_assert_int_eq(ptx_print_ptx(NULL, m, test_buf_write, &out), PTX_OK);
    ck_assert_ptr_nonnull(strstr(out.p, "\tmov.u32 \t%r1, 1;\n\tadd.s32 \t%r1, %r1, -7;\n\tret;\n"));
    free(out.p);
    ptx_context_free(ctx);
}
END_TEST

static bool only_k2(const ptx_node *item, void *user)
{
    (void)user;
    return item->kind == PTX_NODE_FUNC && strcmp(((const ptx_func *)item)->name->text, "k2") == 0;
}

START_TEST(filter_keeps_one_function)
{
    char *text = big_module(4);
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, strlen(text), &m), PTX_OK);
    test_buf tree = { 0 }, json = { 0 }, stats = { 0 };
    ck_assert_int_eq(ptx_print_tree_items(ctx, m, PTX_PRINT_NO_LOCATIONS, only_k2, NULL, test_buf_write, &tree), PTX_OK);
    ck_assert_ptr_nonnull(strstr(tree.p, "entry .visible k2\n"));
    ck_assert_ptr_null(strstr(tree.p, "k1"));
    ck_assert_ptr_null(strstr(tree.p, "k3"));
    ck_assert_int_eq(ptx_print_json(ctx, m, only_k2, NULL, test_buf_write, &json), PTX_OK);
    ck_assert_ptr_nonnull(strstr(json.p, "\"name\":\"k2\""));
    ck_assert_ptr_null(strstr(json.p, "\"name\":\"k1\""));
    ck_assert_int_eq(ptx_print_stats(ctx, m, true, only_k2, NULL, test_buf_write, &stats), PTX_OK);
    ck_assert_ptr_nonnull(strstr(stats.p, "\"totals\":{\"kernels\":1,\"functions\":0,\"instructions\":5"));
    free(tree.p);
    free(json.p);
    free(stats.p);
    ptx_context_free(ctx);
    free(text);
}
END_TEST

/* Schema 2: line and col beside the range, the whole name in "op",
 * decoded modifiers, operands as objects, addresses decoded. */
START_TEST(json_of_an_instruction)
{
    const char *src = HDR ".visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>; .reg .pred %p1;\n"
                      "\t@!%p1 ld.param.u64 %rd1, [p+8];\n\tmul.wide.u32 %rd1, 3, 0x10;\n\tret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m);
    test_buf json = { 0 };
    ck_assert_int_eq(ptx_print_json(ctx, m, NULL, NULL, test_buf_write, &json), PTX_OK);
    ck_assert_ptr_nonnull(strstr(json.p, "{\"schema\":2,\"file\":\"t.ptx\",\"valid\":true,\"version\":\"9.0\","
                                            "\"targets\":[\"sm_90\"],\"address_size\":64,"));
    ck_assert_ptr_nonnull(strstr(json.p, "\"line\":7,\"col\":2,\"guard\":\"%p1\",\"neg\":true,\"op\":\"ld\","
                                            "\"family\":\"ld\",\"mods\":[[\".param\",\"space\"],[\".u64\",\"type\"]]"));
    ck_assert_ptr_nonnull(strstr(json.p, "\"args\":[{\"t\":\"sym\",\"v\":\"%rd1\"},{\"t\":\"addr\",\"items\":"
                                            "[{\"t\":\"binary\",\"op\":\"+\",\"a\":{\"t\":\"sym\",\"v\":\"p\"},"
                                            "\"b\":{\"t\":\"int\",\"value\":8}}],"
                                            "\"base\":{\"t\":\"sym\",\"v\":\"p\"},\"offset\":8}]"));
    ck_assert_ptr_nonnull(strstr(json.p, "\"op\":\"mul.wide\",\"family\":\"mul\",\"mods\":[[\".u32\",\"type\"]],"
                                            "\"args\":[{\"t\":\"sym\",\"v\":\"%rd1\"},{\"t\":\"int\",\"value\":3},"
                                            "{\"t\":\"int\",\"v\":\"0x10\",\"value\":16}]"));
    ck_assert_ptr_nonnull(strstr(json.p, "\"line\":9,\"col\":2,\"op\":\"ret\",\"family\":\"ret\",\"mods\":[],\"args\":[]"));
    free(json.p);
    ptx_context_free(ctx);
}
END_TEST

/* --json and --stats --json say the same things the same way. */
START_TEST(json_and_stats_share_words)
{
    const char *src = HDR ".visible .entry k(.param .u64 p) .maxntid 64, 1, 1\n{\n\tret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m), PTX_OK);
    test_buf json = { 0 }, stats = { 0 };
    ck_assert_int_eq(ptx_print_json(ctx, m, NULL, NULL, test_buf_write, &json), PTX_OK);
    ck_assert_int_eq(ptx_print_stats(ctx, m, true, NULL, NULL, test_buf_write, &stats), PTX_OK);
    const char *same[] = { "\"targets\":[\"sm_90\"]", "{\"k\":\"entry\",\"r\":[", "\"line\":4,\"col\":1,\"name\":\"k\",\"link\":\".visible\"",
                           "\"directives\":[{\"d\":\".maxntid\",\"v\":[64,1,1]}]" };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        ck_assert_msg(strstr(json.p, same[i]) != NULL, "--json lacks %s", same[i]);
        ck_assert_msg(strstr(stats.p, same[i]) != NULL, "--stats --json lacks %s", same[i]);
    }
    free(json.p);
    free(stats.p);
    ptx_context_free(ctx);
}
END_TEST

/* Found by fuzz_json: --stats of a module without functions sorted a NULL
 * array (undefined behaviour under UBSan). */
START_TEST(stats_without_functions)
{
    const char *src = HDR "\n.global .u32 v;\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m), PTX_OK);
    test_buf text = { 0 }, json = { 0 };
    ck_assert_int_eq(ptx_print_stats(ctx, m, false, NULL, NULL, test_buf_write, &text), PTX_OK);
    ck_assert_str_eq(text.p, "t.ptx: .version 9.0  .target sm_90  .address_size 64\n"
                                "totals: 0 kernels, 0 functions, 0 instructions; module memory: "
                                "global 4 B, const 0 B, shared 0 B\n");
    ck_assert_int_eq(ptx_print_stats(ctx, m, true, NULL, NULL, test_buf_write, &json), PTX_OK);
    ck_assert_str_eq(json.p, "{\"schema\":2,\"file\":\"t.ptx\",\"valid\":true,\"version\":\"9.0\",\"targets\":[\"sm_90\"],"
                                "\"address_size\":64,\"functions\":[],\"totals\":{\"kernels\":0,"
                                "\"functions\":0,\"instructions\":0,\"global\":4,\"const\":0,\"shared\":0,"
                                "\"families\":{}}}\n");
    free(text.p);
    free(json.p);
    ptx_context_free(ctx);
}
END_TEST

/* A pragma string may hold a tab or a backslash (ptxas reads no escapes in
 * it: "a\" is a string); --stats --json used to copy it into a JSON
 * string unescaped. */
START_TEST(stats_json_escapes_pragma_strings)
{
    const char *src = HDR ".visible .entry k() .pragma \"nounroll\tx\\\";\n{\n\tret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m), PTX_OK);
    test_buf json = { 0 };
    ck_assert_int_eq(ptx_print_stats(ctx, m, true, NULL, NULL, test_buf_write, &json), PTX_OK);
    ck_assert_ptr_nonnull(strstr(json.p, "\"directives\":[{\"d\":\".pragma\",\"v\":[\"nounroll\\tx\\\\\"]}]"));
    free(json.p);
    ptx_context_free(ctx);
}
END_TEST

/* Parses text keeping the tree or not; the context is the caller's. */
static ptx_context *parse_keeping(const char *text, bool keep, ptx_status *st, const ptx_module **m)
{
    ptx_context *ctx = ptx_context_new();
    ptx_context_set_keep_tree(ctx, keep);
    *st = ptx_parse_buffer(ctx, "t.ptx", text, strlen(text), m);
    return ctx;
}

START_TEST(check_without_tree_lets_bodies_go)
{
    /* 300 kernels of the same size: kept, the tree grows with them; let
     * go, the bodies reuse one block and the rest is the kernels' heads */
    char *text = big_module(300);
    ptx_status st[2];
    const ptx_module *m[2];
    ptx_context *keep = parse_keeping(text, true, &st[0], &m[0]);
    ptx_context *go = parse_keeping(text, false, &st[1], &m[1]);
    ck_assert_int_eq(st[0], PTX_OK);
    ck_assert_int_eq(st[1], PTX_OK);
    ck_assert_ptr_nonnull(m[0]);
    ck_assert_ptr_null(m[1]);
    ck_assert_ptr_null(ptx_context_module(go));
    ck_assert(!go->bodies_kept);
    /* one kernel's body is a few hundred bytes: the body arena never
     * needs more than its first block */
    ck_assert_uint_le(go->body.total, 64 * 1024);
    ck_assert_uint_eq(keep->body.total, 0);
    ck_assert_msg(go->arena.total * 2 < keep->arena.total, "arena %zu bytes without the tree, %zu with it",
                  go->arena.total, keep->arena.total);
    ptx_context_free(keep);
    ptx_context_free(go);
    free(text);
}
END_TEST

START_TEST(check_without_tree_same_diagnostics)
{
    /* what later items ask of earlier ones, once those bodies are gone:
     * a call's parameters, a global, a second definition of f, and
     * errors inside bodies */
    static const char *const texts[] = {
        HDR ".func (.reg .b32 r) f(.reg .b32 a)\n{\n\tmov.b32 r, a;\n\tret;\n}\n"
        ".global .u32 g;\n"
        ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tld.global.u32 %r1, [g];\n"
        "\tcall (%r2), f, (%r1);\n\tcall (%r2), f, (%r1, %r1);\n\tbra $L_none;\n\tret;\n}\n"
        ".func (.reg .b32 r) f(.reg .b32 a)\n{\n\tret;\n}\n"
        ".visible .entry k2()\n{\n\t.reg .f32 %f<2>;\n\tld.global.u32 %f1, [g];\n\tret;\n}\n",
        /* a syntax error in the first body: what follows is kept */
        HDR ".visible .entry a()\n{\n\tmov.u32 %r1 %r2;\n\tret;\n}\n.global .u32 h;\n"
        ".visible .entry b()\n{\n\t.reg .b32 %r<2>;\n\tld.global.u32 %r1, [h];\n\tadd.u32 %r1, %q, 1;\n\tret;\n}\n",
        /* a syntax error that leaves the function: recovery at module scope */
        HDR ".visible .entry a()\n{\n\t.reg .b32 %r<2>;\n\t} } ;\n.global .u32 h;\n"
        ".visible .entry b()\n{\n\t.reg .b32 %r<2>;\n\tld.global.u32 %r1, [h];\n\tret;\n}\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        ptx_status st[2];
        const ptx_module *m[2];
        ptx_context *keep = parse_keeping(texts[i], true, &st[0], &m[0]);
        ptx_context *go = parse_keeping(texts[i], false, &st[1], &m[1]);
        char why[512] = "";
        ck_assert_int_eq(st[0], PTX_ERR_INPUT);
        ck_assert_int_eq(st[1], st[0]);
        ck_assert_msg(ptx_diags_equal(keep, go, why, sizeof why), "text %zu: %s", i, why);
        /* after a syntax error no body is let go */
        ck_assert(go->bodies_kept == (i > 0));
        ptx_context_free(keep);
        ptx_context_free(go);
    }
}
END_TEST

/* The semantic pass checks each function as soon as it is read: with
 * more errors than the limit, those reported are the first in the file,
 * whichever part of the parse finds them (the pass's error in k1 comes
 * before the syntax errors of k2). */
START_TEST(error_limit_keeps_the_first_errors)
{
    static const char text[] = HDR
        ".visible .entry k1()\n{\n\t.reg .b32 %r<2>;\n\tmov.b32 %r1, %nowhere;\n\tret;\n}\n"
        ".visible .entry k2()\n{\n\t.reg .b32 %r<2>;\n\tmov.b32 %r1 %r1;\n\tmov.b32 %r1 %r1;\n"
        "\tmov.b32 %r1 %r1;\n\tret;\n}\n";
    for (int keep = 0; keep < 2; keep++) {
        ptx_context *ctx = ptx_context_new();
        ptx_context_set_max_errors(ctx, 2);
        ptx_context_set_keep_tree(ctx, keep);
        const ptx_module *m;
        ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, strlen(text), &m), PTX_ERR_INPUT);
        ck_assert_uint_eq(ptx_diag_count(ctx), 3);
        const ptx_diag *d0 = ptx_diag_get(ctx, 0), *d1 = ptx_diag_get(ctx, 1), *d2 = ptx_diag_get(ctx, 2);
        ck_assert_int_eq(d0->code, PTX_DIAG_SYMBOL);
        ck_assert_uint_eq(ptx_context_position(ctx, d0->span.off).line, 7);
        ck_assert_int_eq(d1->code, PTX_DIAG_SYNTAX);
        ck_assert_uint_eq(ptx_context_position(ctx, d1->span.off).line, 13);
        ck_assert_int_eq(d2->severity, PTX_SEV_NOTE);
        ptx_context_free(ctx);
    }
}
END_TEST

Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_threads_two_contexts);
    tcase_add_test(tc, insert_instruction_before_ret);
    tcase_add_test(tc, filter_keeps_one_function);
    tcase_add_test(tc, json_of_an_instruction);
    tcase_add_test(tc, json_and_stats_share_words);
    tcase_add_test(tc, stats_without_functions);
    tcase_add_test(tc, stats_json_escapes_pragma_strings);
    tcase_add_test(tc, check_without_tree_lets_bodies_go);
    tcase_add_test(tc, check_without_tree_same_diagnostics);
    tcase_add_test(tc, error_limit_keeps_the_first_errors);
    suite_add_tcase(s, tc);
    return s;
}
