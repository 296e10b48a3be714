/* The inline asm of CUDA C++ (src/cuda_asm.c): what is read as a
 * statement, how nvcc's substitutions are made, where diagnostics land in
 * the .cu source, what is skipped and counted. */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"

/* Parses `src` as CUDA C++ for `target` (NULL: the default) into *ctx. */
static ptx_status cuda(ptx_context **ctx, const char *src, const char *target)
{
    *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(*ctx);
    ptx_cuda_options o = { target, NULL, NULL, 0 };
    return ptx_parse_cuda(*ctx, "t.cu", src, strlen(src), &o);
}

/* The first error, which must exist. */
static const ptx_diag *first_error(const ptx_context *ctx)
{
    for (size_t i = 0; i < ptx_diag_count(ctx); i++)
        if (ptx_diag_get(ctx, i)->severity == PTX_SEV_ERROR)
            return ptx_diag_get(ctx, i);
    ck_abort_msg("no error");
    return NULL;
}

START_TEST(cuda_valid_statement)
{
    ptx_context *ctx;
    ck_assert_int_eq(cuda(&ctx, "__global__ void k(int *p) {\n"
                                "  int v = *p;\n"
                                "  asm volatile(\"add.s32 %0, %0, %1;\" : \"+r\"(v) : \"n\"(3));\n"
                                "  *p = v;\n}\n", NULL), PTX_OK);
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    ptx_cuda_counts c = ptx_context_cuda_counts(ctx);
    ck_assert_uint_eq(c.statements, 1);
    ck_assert_uint_eq(c.checked, 1);
    ck_assert_uint_eq(c.skipped, 0);
    ck_assert_uint_eq(c.rejected, 0);
    ck_assert_ptr_null(ptx_context_module(ctx));
    ptx_context_free(ctx);
}
END_TEST

/* A 64-bit register where 32 bits are needed: at the %1 of the literal. */
START_TEST(cuda_error_at_operand)
{
    ptx_context *ctx;
    const char *src = "__device__ void f(unsigned v, long long n) {\n"
                      "  asm(\"add.u32 %0, %0, %1;\" : \"+r\"(v) : \"l\"(n));\n}\n";
    ck_assert_int_eq(cuda(&ctx, src, "sm_80"), PTX_ERR_INPUT);
    const ptx_diag *d = first_error(ctx);
    ptx_position p = ptx_context_position(ctx, d->span.off);
    ck_assert_uint_eq(p.line, 2);
    ck_assert_uint_eq(p.col, (uint32_t)(strstr(src, "%1;") - strchr(src, '\n')));
    ck_assert_uint_eq(d->span.len, 2);
    ck_assert_uint_eq(ptx_context_cuda_counts(ctx).rejected, 1);
    /* the note after it shows the PTX line, at the asm keyword */
    const ptx_diag *n = ptx_diag_get(ctx, 1);
    ck_assert_int_eq(n->severity, PTX_SEV_NOTE);
    ck_assert_str_eq(n->message, "PTX line 1 of this asm statement: add.u32 %r0, %r0, %rd1;");
    ck_assert_uint_eq(n->span.off, (uint32_t)(strstr(src, "asm") - src));
    ptx_context_free(ctx);
}
END_TEST

/* Through joined literals and an escape: the column of the bad byte. */
START_TEST(cuda_error_through_escapes)
{
    ptx_context *ctx;
    const char *src = "__device__ void f(unsigned v) {\n"
                      "  asm(\"mov.u32 %0, 1;\\n\\t\"\n"
                      "      \"\\141dd.u23 %0, %0, 1;\" : \"=r\"(v));\n}\n";
    ck_assert_int_eq(cuda(&ctx, src, NULL), PTX_ERR_INPUT);
    const ptx_diag *d = first_error(ctx);
    ck_assert_ptr_nonnull(strstr(d->message, ".u23"));
    ck_assert_uint_eq(d->span.off, (uint32_t)(strstr(src, ".u23") - src));
    ck_assert_str_eq(ptx_diag_get(ctx, 1)->message, "PTX line 2 of this asm statement: add.u23 %r0, %r0, 1;");
    ptx_context_free(ctx);
}
END_TEST

/* No operand: the text goes verbatim, %% included (nvcc 13 does so). */
START_TEST(cuda_no_operand_is_verbatim)
{
    ptx_context *ctx;
    ck_assert_int_eq(cuda(&ctx, "void f() { asm(\"{ .reg .u32 t; mov.u32 t, %%laneid; }\"); }\n", NULL),
                     PTX_ERR_INPUT);
    ptx_context_free(ctx);
    ck_assert_int_eq(cuda(&ctx, "void f(unsigned v) { asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(v)); }\n", NULL),
                     PTX_OK);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(cuda_operand_past_the_end)
{
    ptx_context *ctx;
    const char *src = "void f(int v) { asm(\"add.s32 %0, %0, %2;\" : \"+r\"(v) : \"r\"(v)); }\n";
    ck_assert_int_eq(cuda(&ctx, src, NULL), PTX_ERR_INPUT);
    const ptx_diag *d = first_error(ctx);
    ck_assert_str_eq(d->message, "asm operand '%2' does not exist: the statement has 2 operands");
    ck_assert_uint_eq(d->span.off, (uint32_t)(strstr(src, "%2") - src));
    ptx_context_free(ctx);
}
END_TEST

/* Each statement alone: the same label and .reg in two statements, and
 * a broken one between good ones, touch nothing else. */
START_TEST(cuda_statements_apart)
{
    ptx_context *ctx;
    const char *one = "  asm(\"{ .reg .pred p; L: setp.eq.s32 p, %0, 0; @p bra L; }\" :: \"r\"(v));\n";
    char src[1024];
    snprintf(src, sizeof src, "void f(int v) {\n%s%s  asm(\"{ add.s32 %%0, %%0, 1;\" : \"+r\"(v));\n%s}\n",
             one, one, one);
    ck_assert_int_eq(cuda(&ctx, src, NULL), PTX_ERR_INPUT);
    ptx_cuda_counts c = ptx_context_cuda_counts(ctx);
    ck_assert_uint_eq(c.checked, 4);
    ck_assert_uint_eq(c.rejected, 1);
    for (size_t i = 0; i < ptx_diag_count(ctx); i++)
        if (ptx_diag_get(ctx, i)->severity == PTX_SEV_ERROR)
            ck_assert_uint_eq(ptx_context_position(ctx, ptx_diag_get(ctx, i)->span.off).line, 4);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(cuda_skipped_with_a_note)
{
    ptx_context *ctx;
    ck_assert_int_eq(cuda(&ctx, "#define LD(x) asm volatile(\"ld.u32 %0, [%1];\" : \"=r\"(x) : \"l\"(p))\n"
                                "void f(char c) {\n"
                                "  asm(PTX_TEXT \"trap;\");\n"
                                "  asm(\"// %0\" : \"+c\"(c));\n"
                                "  asm(\"// %0\" :: CONSTRAINT(c));\n"
                                "}\n", NULL), PTX_OK);
    ptx_cuda_counts c = ptx_context_cuda_counts(ctx);
    ck_assert_uint_eq(c.statements, 4);
    ck_assert_uint_eq(c.skipped, 4);
    ck_assert_uint_eq(c.checked, 0);
    ck_assert_uint_eq(ptx_diag_count(ctx), 4);
    for (size_t i = 0; i < 4; i++) {
        ck_assert_int_eq(ptx_diag_get(ctx, i)->severity, PTX_SEV_NOTE);
        ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, i)->message, "not checked"));
        ck_assert_uint_eq(ptx_context_position(ctx, ptx_diag_get(ctx, i)->span.off).line, i + 1 + (i > 0));
    }
    ptx_context_free(ctx);
}
END_TEST

/* What is not an asm statement: names, declarations' asm labels,
 * comments, strings, #if 0. */
START_TEST(cuda_not_statements)
{
    ptx_context *ctx;
    ck_assert_int_eq(cuda(&ctx, "extern int g(void) __asm__(\"h\");\n"
                                "int my_asm(int asm_count);\n"
                                "// asm(\"bad\");\n/* asm(\"bad\"); */\n"
                                "const char *s = \"asm(\\\"bad\\\");\";\n"
                                "#if 0\nvoid f() { asm(\"bad\"); }\n#endif\n", NULL), PTX_OK);
    ck_assert_uint_eq(ptx_context_cuda_counts(ctx).statements, 0);
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    ptx_context_free(ctx);
}
END_TEST

/* A raw string, and "n" with a value that is not a literal: an error the
 * stand-in value makes is a note. */
START_TEST(cuda_raw_string_and_unknown_immediate)
{
    ptx_context *ctx;
    ck_assert_int_eq(cuda(&ctx, "void f(unsigned v) { asm(R\"(mov.u32 %0, 7;)\" : \"=r\"(v)); }\n", NULL), PTX_OK);
    ck_assert_uint_eq(ptx_context_cuda_counts(ctx).checked, 1);
    ptx_context_free(ctx);
    ck_assert_int_eq(cuda(&ctx, "template <int N> void f(void *p) {\n"
                                "  asm volatile(\"fence.proxy.tensormap::generic.acquire.gpu [%0], %1;\""
                                " :: \"l\"(p), \"n\"(N));\n}\n", "sm_90"), PTX_OK);
    ck_assert_uint_eq(ptx_diag_count(ctx), 1);
    ck_assert_int_eq(ptx_diag_get(ctx, 0)->severity, PTX_SEV_NOTE);
    ptx_context_free(ctx);
    ck_assert_int_eq(cuda(&ctx, "void f(void *p) {\n"
                                "  asm volatile(\"fence.proxy.tensormap::generic.acquire.gpu [%0], %1;\""
                                " :: \"l\"(p), \"n\"(64));\n}\n", "sm_90"), PTX_ERR_INPUT);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(cuda_target_and_version)
{
    ptx_context *ctx;
    const char *src = "void f() { asm volatile(\"elect.sync _|p, 0xffffffff;\" ::: \"memory\"); }\n";
    ck_assert_int_eq(cuda(&ctx, src, "sm_80"), PTX_ERR_INPUT);
    ptx_context_free(ctx);
    ctx = ptx_context_new();
    ptx_cuda_options o = { "sm_100a", "8.0", NULL, 0 };
    ck_assert_int_eq(ptx_parse_cuda(ctx, "t.cu", "", 0, &o), PTX_ERR_USAGE);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 0)->message, "8.6"));
    ptx_context_free(ctx);
    ctx = ptx_context_new();
    o = (ptx_cuda_options){ "sm_xyz", NULL, NULL, 0 };
    ck_assert_int_eq(ptx_parse_cuda(ctx, "t.cu", "", 0, &o), PTX_ERR_USAGE);
    ptx_context_free(ctx);
}
END_TEST

/* Preprocessed text: statements of the main file only, placed by the
 * line markers in the source as written. */
START_TEST(cuda_preprocessed)
{
    const char *src = "#include \"h.h\"\n"
                      "#define ADD \"add.u23 %0, %0, 1;\"\n"
                      "void f(unsigned v) {\n"
                      "    asm(ADD : \"+r\"(v));\n"
                      "}\n";
    const char *pp = "# 0 \"t.cu\"\n# 1 \"h.h\" 1\n"
                     "void g(unsigned v) { asm(\"add.u23 %0, %0, 1;\" : \"+r\"(v)); }\n"
                     "# 2 \"t.cu\" 2\n\n"
                     "void f(unsigned v) {\n"
                     "    asm(\"add.u23 %0, %0, 1;\" : \"+r\"(v));\n"
                     "}\n";
    ptx_context *ctx = ptx_context_new();
    ptx_cuda_options o = { NULL, NULL, pp, strlen(pp) };
    ck_assert_int_eq(ptx_parse_cuda(ctx, "t.cu", src, strlen(src), &o), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_context_cuda_counts(ctx).statements, 1);
    const ptx_diag *d = first_error(ctx);
    ck_assert_uint_eq(ptx_context_position(ctx, d->span.off).line, 4);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(cuda_file_names)
{
    ck_assert(ptx_is_cuda_filename("a/b.cu"));
    ck_assert(ptx_is_cuda_filename("x.cuh"));
    ck_assert(!ptx_is_cuda_filename("x.ptx"));
    ck_assert(!ptx_is_cuda_filename("x.cu/y"));
    ck_assert(!ptx_is_cuda_filename("x.cuda"));
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_cuda_file(ctx, "/nonexistent/x.cu", NULL), PTX_ERR_IO);
    ck_assert_ptr_nonnull(ptx_context_io_error(ctx));
    ptx_context_free(ctx);
}
END_TEST

Suite *cuda_suite(void)
{
    Suite *s = suite_create("cuda");
    TCase *tc = tcase_create("inline asm");
    tcase_add_test(tc, cuda_valid_statement);
    tcase_add_test(tc, cuda_error_at_operand);
    tcase_add_test(tc, cuda_error_through_escapes);
    tcase_add_test(tc, cuda_no_operand_is_verbatim);
    tcase_add_test(tc, cuda_operand_past_the_end);
    tcase_add_test(tc, cuda_statements_apart);
    tcase_add_test(tc, cuda_skipped_with_a_note);
    tcase_add_test(tc, cuda_not_statements);
    tcase_add_test(tc, cuda_raw_string_and_unknown_immediate);
    tcase_add_test(tc, cuda_target_and_version);
    tcase_add_test(tc, cuda_preprocessed);
    tcase_add_test(tc, cuda_file_names);
    suite_add_tcase(s, tc);
    return s;
}
