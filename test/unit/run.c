/* The unit-test runner: every suite in one SRunner.  CK_FORK=no in the
 * environment runs the tests in-process (for valgrind). */
#include <stdlib.h>

#include "check_suites.h"

int main(void)
{
    SRunner *sr = srunner_create(scanner_suite());
    srunner_add_suite(sr, grammar_suite());
    srunner_add_suite(sr, arena_suite());
    srunner_add_suite(sr, print_suite());
    srunner_add_suite(sr, diag_suite());
    srunner_add_suite(sr, api_suite());
    srunner_add_suite(sr, isa_suite());
    srunner_add_suite(sr, vop4_suite());
    srunner_add_suite(sr, suld_suite());
    srunner_add_suite(sr, st_suite());
    srunner_add_suite(sr, call_suite());
    srunner_add_suite(sr, atom_suite());
    srunner_add_suite(sr, hostile_suite());
    srunner_add_suite(sr, found_suite());
    srunner_add_suite(sr, sema_suite());
    srunner_add_suite(sr, json_suite());
    srunner_add_suite(sr, edit_suite());
    srunner_add_suite(sr, cfg_suite());
    srunner_add_suite(sr, tree_equal_suite());
    srunner_add_suite(sr, pinned_suite());
    srunner_add_suite(sr, cuda_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
