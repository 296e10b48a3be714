/* The Check suites of the unit-test runner (test/unit/run.c). */
#ifndef PTX_CHECK_SUITES_H
#define PTX_CHECK_SUITES_H

#include <check.h>
#include <stdbool.h>

#include "ptx/ptx.h"

/* ---- shared helpers (check_util.c) ---------------------------------- */

#define TEST_HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

/* TEST_HDR and a kernel k around a body: the body starts on line 6. */
extern const char test_head[], test_tail[];

/* Output collected in memory, NUL-terminated; the fail_at-th write
 * (1-based) and every later one fail when fail_at is set. */
typedef struct test_buf {
    char *p;
    size_t len, cap;
    unsigned calls;
    unsigned fail_at;
} test_buf;

int test_buf_write(void *user, const char *data, size_t len);

/* The offset of the first byte where a and b differ; (size_t)-1 when they
 * are the same string. */
size_t test_first_difference(const char *a, const char *b);

/* ck_assert_str_eq for long texts (printed trees, emitted PTX): Check
 * exits with status 2 instead of failing when its message would be too
 * long, so this names the first difference and a little context. */
#define TEST_ASSERT_SAME_TEXT(got, want)                                            \
    do {                                                                            \
        const char *got_ = (got), *want_ = (want);                                  \
        size_t at_ = test_first_difference(got_, want_);                            \
        size_t from_ = at_ > 40 ? at_ - 40 : 0;                                     \
        ck_assert_msg(at_ == (size_t)-1,                                            \
                      "%s differs from %s at byte %zu:\n  got:      ...%.100s\n"   \
                      "  expected: ...%.100s", #got, #want, at_, got_ + from_,      \
                      want_ + from_);                                               \
    } while (0)

/* Parses `len` bytes of `text` in a new context (*ctx, to be freed), with
 * or without checking instructions against the tables. */
const ptx_module *test_parse_text(ptx_context **ctx, const char *text, size_t len, bool validate);

/* Parses `body` as the body of the kernel k of test_head. */
const ptx_module *test_parse_body(ptx_context **ctx, const char *body, bool validate);

/* ---- instruction cases (check_util.c) ------------------------------- */

/* One statement put to the instruction tables, inside a kernel that
 * declares registers of every kind, a surface, functions and call
 * targets (test_isa_module shows them); the statement is on line
 * TEST_ISA_LINE.  Every case was put to ptxas 13.0 as well
 * (dev/check-isa-cases.sh): it accepts exactly the ones expected to
 * pass. */
typedef struct isa_case {
    const char *target;     /* "sm_90", or "8.3 sm_90" for .version 8.3 */
    const char *stmt;
    unsigned col;           /* column of the first error; 0: accepted */
    const char *message;    /* its exact text; NULL: accepted */
} isa_case;

#define TEST_ISA_LINE 27u
#define TEST_ISA_COUNT(cases) ((int)(sizeof(cases) / sizeof *(cases)))

/* Writes the module of case c into buf (NUL-terminated, truncated to n). */
void test_isa_module(char *buf, size_t n, const isa_case *c);

/* Parses the module of case c and checks the verdict, and for a rejected
 * statement the first diagnostic's exact message and position. */
void test_isa_case(const isa_case *c);

/* The suite NAME_suite of one page's table of cases: a loop test that
 * puts each case to test_isa_case. */
#define TEST_ISA_PAGE_SUITE(name, cases)                                    \
    START_TEST(name##_case)                                                 \
    {                                                                       \
        test_isa_case(&(cases)[_i]);                                        \
    }                                                                       \
    END_TEST                                                                \
                                                                            \
    Suite *name##_suite(void)                                               \
    {                                                                       \
        Suite *s = suite_create(#name);                                     \
        TCase *tc = tcase_create(#name);                                    \
        tcase_add_loop_test(tc, name##_case, 0, TEST_ISA_COUNT(cases));     \
        suite_add_tcase(s, tc);                                             \
        return s;                                                           \
    }

/* ---- the suites ------------------------------------------------------- */

Suite *scanner_suite(void);
Suite *grammar_suite(void);
Suite *arena_suite(void);
Suite *print_suite(void);
Suite *diag_suite(void);
Suite *api_suite(void);
Suite *isa_suite(void);
Suite *vop4_suite(void);
Suite *suld_suite(void);
Suite *st_suite(void);
Suite *call_suite(void);
Suite *atom_suite(void);
Suite *hostile_suite(void);
Suite *found_suite(void);
Suite *sema_suite(void);
Suite *json_suite(void);
Suite *edit_suite(void);
Suite *cfg_suite(void);
Suite *tree_equal_suite(void);
Suite *pinned_suite(void);
Suite *cuda_suite(void);

#endif
