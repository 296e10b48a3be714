/* The Check suites of the unit-test runner (test/unit/run.c). */
#ifndef PTX_CHECK_SUITES_H
#define PTX_CHECK_SUITES_H

#include <check.h>

Suite *scanner_suite(void);
Suite *grammar_suite(void);
Suite *arena_suite(void);
Suite *print_suite(void);
Suite *diag_suite(void);
Suite *api_suite(void);
Suite *isa_suite(void);

#endif
