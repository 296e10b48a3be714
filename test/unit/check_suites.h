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

/* Parses `len` bytes of `text` in a new context (*ctx, to be freed), with
 * or without checking instructions against the tables. */
const ptx_module *test_parse_text(ptx_context **ctx, const char *text, size_t len, bool validate);

/* Parses `body` as the body of the kernel k of test_head. */
const ptx_module *test_parse_body(ptx_context **ctx, const char *body, bool validate);

/* ---- the suites ------------------------------------------------------- */

Suite *scanner_suite(void);
Suite *grammar_suite(void);
Suite *arena_suite(void);
Suite *print_suite(void);
Suite *diag_suite(void);
Suite *api_suite(void);
Suite *isa_suite(void);
Suite *hostile_suite(void);
Suite *found_suite(void);

#endif
