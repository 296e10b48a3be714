/* The JSON the printers write (--json, --stats --json) is put to a strict
 * checker (json_check.c, which fuzz_json uses too): every module here, the
 * examples and every test/errors case.  And the checker itself must reject
 * what is not JSON, or a printer bug would pass it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "json_check.h"

static const char *const good[] = {
    "{}", "[]", "0", "-0", "1", "-12", "1.5", "0.25e-3", "1E+9", "2e10", "\"\"", "true", "false",
    "null", " \t\r\n[ 1 , 2 ]\n", "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}",
    "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00\"", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
    "[[[[[]]]]]", "{\"\":{}}", "[\"a\",{\"b\":[0,-1.0e0]}]",
};

/* each is one mistake away from JSON */
static const struct bad_case {
    const char *text;
    size_t at;              /* where the checker must find the mistake */
} bad[] = {
    { "{\"a\":1]", 6 },          /* closing an object with ']' */
    { "[1}", 2 },                /* closing an array with '}' */
    { "[1,2,]", 5 },             /* trailing comma */
    { "{\"a\":1,}", 7 },
    { "{\"a\" 1}", 5 },          /* missing colon */
    { "{\"a\":}", 5 },
    { "{\"a\"}", 4 },
    { "{1:2}", 1 },              /* a name that is not a string */
    { "{a:1}", 1 },
    { "[1 2]", 3 },              /* missing comma */
    { "{\"a\":1 \"b\":2}", 7 },
    { "[,1]", 1 },
    { "[1,,2]", 3 },
    { "{,}", 1 },
    { "\"\\x\"", 2 },            /* bad escapes */
    { "\"\\u12\"", 5 },
    { "\"\\u12G4\"", 5 },
    { "\"\\U0041\"", 2 },
    { "\"\\'\"", 2 },
    { "01", 1 },                 /* numbers RFC 8259 does not have */
    { "-01", 2 },
    { "00", 1 },
    { "1.", 2 },
    { ".5", 0 },
    { "1e", 2 },
    { "1e+", 3 },
    { "+1", 0 },
    { "-", 1 },
    { "0x10", 1 },
    { "NaN", 0 },
    { "Infinity", 0 },
    { "1.5.2", 3 },
    { "tru", 0 },                /* literals */
    { "True", 0 },
    { "nul", 0 },
    { "truex", 4 },
    { "", 0 },                   /* no value, or more than one */
    { "  ", 2 },
    { "1 2", 2 },
    { "{}{}", 2 },
    { "[]]", 2 },
    { "{\"a\":1}}", 7 },
    { "[", 1 },                  /* unterminated */
    { "[[]", 3 },
    { "{\"a\":1", 6 },
    { "\"abc", 4 },
    { "\"a\nb\"", 2 },           /* control characters in a string */
    { "\"a\tb\"", 2 },
    { "\"\xff\"", 1 },           /* not UTF-8 */
    { "\"\xc0\x80\"", 1 },       /* overlong */
    { "\"\xed\xa0\x80\"", 1 },   /* a surrogate */
    { "\"\xc3\"", 1 },           /* cut short */
    { "'a'", 0 },
};

START_TEST(checker_accepts_json)
{
    size_t at = 0;
    const char *e = test_json_check(good[_i], strlen(good[_i]), &at);
    ck_assert_msg(e == NULL, "'%s': %s at %zu", good[_i], e, at);
}
END_TEST

START_TEST(checker_rejects_what_is_not_json)
{
    const struct bad_case *c = &bad[_i];
    size_t at = 0;
    const char *e = test_json_check(c->text, strlen(c->text), &at);
    ck_assert_msg(e != NULL, "'%s' passed", c->text);
    ck_assert_msg(at == c->at, "'%s': %s at %zu, expected at %zu", c->text, e, at, c->at);
}
END_TEST

/* Nesting deeper than any C stack would hold in a recursive checker. */
START_TEST(checker_deep_nesting)
{
    enum { N = 1000000 };
    char *s = malloc(2 * N + 2);
    ck_assert_ptr_nonnull(s);
    memset(s, '[', N);
    memset(s + N, ']', N);
    ck_assert_ptr_null(test_json_check(s, 2 * N, NULL));
    s[2 * N - 1] = '}';
    ck_assert_ptr_nonnull(test_json_check(s, 2 * N, NULL));
    free(s);
}
END_TEST

/* Both JSON printers on the module of text: status PTX_OK and strict
 * JSON.  Returns false when the text gave no module to print (it is not
 * even the start of one, as when .version is missing). */
static bool check_printers(const char *name, const char *text, size_t len)
{
    ptx_context *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(ctx);
    const ptx_module *m = NULL;
    ptx_parse_buffer(ctx, name, text, len, &m);
    if (!m) {
        ptx_context_free(ctx);
        return false;
    }
    for (int stats = 0; stats < 2; stats++) {
        test_buf b = { 0 };
        ptx_status st = stats ? ptx_print_stats(ctx, m, true, NULL, NULL, test_buf_write, &b)
                              : ptx_print_json(ctx, m, NULL, NULL, test_buf_write, &b);
        ck_assert_msg(st == PTX_OK, "%s: %s printer: status %d", name, stats ? "stats" : "JSON",
                      (int)st);
        ck_assert_msg(b.len > 0, "%s: nothing printed", name);
        size_t at = 0;
        const char *e = test_json_check(b.p, b.len, &at);
        ck_assert_msg(e == NULL, "%s: %s: %s at byte %zu: ...%.40s", name,
                      stats ? "--stats --json" : "--json", e, at, b.p + (at > 20 ? at - 20 : 0));
        free(b.p);
    }
    ptx_context_free(ctx);
    return true;
}

static const char *const modules[] = {
    TEST_HDR ".visible .entry k()\n{\n\tret;\n}\n",
    TEST_HDR ".global .align 4 .b8 s[4] = {1, 2, 3, 4};\n.const .f32 c = 0f3F800000;\n"
        ".visible .func (.param .b32 r) f(.param .b64 p, .param .align 8 .b8 a[16])\n{\n"
        "\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n\tld.param.b32 %r1, [a+4];\n"
        "\tsetp.lt.s32 %p1, %r1, 0;\n\t@!%p1 bra $L1;\n\tadd.s32 %r1, %r1, -1;\n$L1:\n"
        "\tst.param.b32 [r], %r1;\n\tret;\n}\n",
    /* strings that need escapes in JSON: backslashes (ptxas reads none in
     * PTX, so a PTX string holds no quote), tabs, bytes >= 0x80 */
    TEST_HDR ".visible .entry k()\n{\n\t.pragma \"nounroll\\x\\\\y\tz\xc3\xa9\\\";\n\tret;\n}\n",
    TEST_HDR ".file 1 \"/a b/\\c\\.cu\"\n.visible .entry k()\n{\n\t.loc 1 2 3\n\tret;\n}\n",
    TEST_HDR ".section .debug_str\n{\n\t.b8 65, 0\n\t.b32 1, 2\n}\n",
    /* errors: the tree built around them prints too */
    TEST_HDR ".visible .entry k()\n{\n\tadd.s32 %r1 %r2;\n\tfoo.bar;\n\tret;\n}\n",
    TEST_HDR ".visible .entry k(\n",
};

START_TEST(modules_print_strict_json)
{
    char name[32];
    snprintf(name, sizeof name, "module %d", _i);
    ck_assert_msg(check_printers(name, modules[_i], strlen(modules[_i])), "%s: no module", name);
}
END_TEST

/* Every .ptx file of DIR; returns how many gave a module. */
static unsigned check_folder(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s (the tests run from the top of the tree)", dir);
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ptx") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        ck_assert_msg(f != NULL, "cannot read %s", path);
        static char text[1 << 20];
        size_t k = fread(text, 1, sizeof text, f);
        ck_assert_msg(!ferror(f) && k < sizeof text, "%s: read error, or larger than 1 MB", path);
        fclose(f);
        n += check_printers(path, text, k);
    }
    closedir(d);
    return n;
}

START_TEST(examples_print_strict_json)
{
    ck_assert_uint_ge(check_folder("examples"), 1);
}
END_TEST

START_TEST(error_cases_print_strict_json)
{
    ck_assert_uint_ge(check_folder("test/errors"), 100);
}
END_TEST

Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("checker");
    tcase_add_loop_test(tc, checker_accepts_json, 0, (int)(sizeof good / sizeof good[0]));
    tcase_add_loop_test(tc, checker_rejects_what_is_not_json, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, checker_deep_nesting);
    suite_add_tcase(s, tc);

    tc = tcase_create("printers");
    tcase_add_loop_test(tc, modules_print_strict_json, 0, (int)(sizeof modules / sizeof modules[0]));
    tcase_add_test(tc, examples_print_strict_json);
    tcase_add_test(tc, error_cases_print_strict_json);
    suite_add_tcase(s, tc);
    return s;
}
