/* The call page (PTX ISA 9.7.12.5): direct calls with and without return
 * and argument lists, indirect calls through a register with a
 * .calltargets list (flist) or a .callprototype (fproto), .uni; and their
 * invalid neighbours.  Whether a name is a function, a register or a
 * label, and whether the lists fit the callee, are not the tables' to
 * check (see grammar/isa/call.isa). */
#include "check_suites.h"

static const isa_case cases[] = {
    /* direct calls */
    { "sm_90", "call g;", 0, NULL },
    { "sm_90", "call.uni g;", 0, NULL },
    { "sm_90", "call g, ();", 0, NULL },
    { "sm_90", "call (), g;", 0, NULL },
    { "sm_90", "call (), g, ();", 0, NULL },
    { "sm_90", "call.uni (), g, ();", 0, NULL },
    { "sm_90", "call h, (r2);", 0, NULL },
    { "sm_90", "call.uni h, (r2);", 0, NULL },
    { "sm_90", "call h, (5);", 0, NULL },
    { "sm_90", "call h, (-1);", 0, NULL },
    { "sm_90", "call h, (1+2);", 0, NULL },
    { "sm_90", "call h, (~1);", 0, NULL },
    { "sm_90", "call h, (0x10);", 0, NULL },
    { "sm_90", "call h, (0f3F800000);", 0, NULL },
    { "sm_90", "call (r1), fr;", 0, NULL },
    { "sm_90", "call (r1), fr, ();", 0, NULL },
    { "sm_90", "call.uni (r1), fr;", 0, NULL },
    { "sm_90", "call (_), fr;", 0, NULL },
    { "sm_90", "call (r1), f, (r2);", 0, NULL },
    { "sm_90", "call.uni (r1), f, (r2);", 0, NULL },
    { "sm_90", "call (_), f, (r2);", 0, NULL },
    { "sm_90", "call (r1), f, (5);", 0, NULL },
    { "sm_90", "call.uni.uni (r1), f, (r2);", 0, NULL },
    { "sm_90", "call.uni.uni.uni.uni (r1), f, (r2);", 0, NULL },
    { "sm_90", "@p1 call (r1), f, (r2);", 0, NULL },
    { "sm_90", "@!p1 call.uni (r1), f, (r2);", 0, NULL },

    /* indirect calls: flist (t*) and fproto (p*) */
    { "sm_90", "call rd1, tg;", 0, NULL },
    { "sm_90", "call rd1, pg;", 0, NULL },
    { "sm_90", "call.uni rd1, tg;", 0, NULL },
    { "sm_90", "call rd1, (), tg;", 0, NULL },
    { "sm_90", "call (), rd1, tg;", 0, NULL },
    { "sm_90", "call (), rd1, (), pg;", 0, NULL },
    { "sm_90", "call rd1, (r2), th;", 0, NULL },
    { "sm_90", "call rd1, (r2), ph;", 0, NULL },
    { "sm_90", "call.uni rd1, (7), ph;", 0, NULL },
    { "sm_90", "call (r1), rd1, tr;", 0, NULL },
    { "sm_90", "call (r1), rd1, pr;", 0, NULL },
    { "sm_90", "call (r1), rd1, (), pr;", 0, NULL },
    { "sm_90", "call (r1), rd1, (r2), ft;", 0, NULL },
    { "sm_90", "call.uni (r1), rd1, (r2), ft;", 0, NULL },
    { "sm_90", "call (r1), rd1, (r2), fp;", 0, NULL },
    { "sm_90", "call.uni (r1), rd1, (r2), fp;", 0, NULL },
    { "sm_90", "call (_), rd1, (r2), fp;", 0, NULL },
    { "sm_90", "call (r1), r1, (r2), fp;", 0, NULL },
    { "sm_90", "@p1 call.uni (r1), rd1, (r2), ft;", 0, NULL },

    /* targets */
    { "sm_20", "call (r1), f, (r2);", 0, NULL },
    { "sm_20", "call (r1), rd1, (r2), ft;", 0, NULL },
    { "sm_20", "call rd1, pg;", 0, NULL },

    /* operands */
    { "sm_90", "call _, f, (r2);", 7, "operand 1 of 'call' must be a list (...)" },
    { "sm_90", "call r1, f, (r2);", 7, "operand 1 of 'call' must be a list (...)" },
    { "sm_90", "call f, (r2), (r3);", 16, "operand 3 of 'call' must be a label or function name" },
    { "sm_90", "call (r1), f, (r2), (r3);", 22,
      "operand 4 of 'call' must be a label or function name" },
    { "sm_90", "call (r1), (r2);", 7, "operand 1 of 'call' must be a label or function name" },
    { "sm_90", "call;", 2,
      "'call' takes 1 to 4 operands, found 0 (form: call {.uni} {.uni} {.uni} {.uni})" },
    { "sm_90", "call 5;", 7, "operand 1 of 'call' must be a label or function name" },
    { "sm_90", "call [rd1];", 7, "operand 1 of 'call' must be a label or function name" },
    { "sm_90", "call (r1), 5, (r2);", 13, "operand 2 of 'call' must be a label or function name" },
    { "sm_90", "call (r1), [rd1], (r2);", 13,
      "operand 2 of 'call' must be a label or function name" },
    { "sm_90", "call (r1), f, ([rd1]);", 17,
      "element 1 of operand 3 of 'call' must be a register or a constant" },
    { "sm_90", "call (r1), f, ({r2});", 17,
      "element 1 of operand 3 of 'call' must be a register or a constant" },
    { "sm_90", "call (r1), f, (r2+1);", 17,
      "element 1 of operand 3 of 'call' must be a register or a constant" },
    { "sm_90", "call (r1), f, (-r2);", 17,
      "element 1 of operand 3 of 'call' must be a register or a constant" },
    { "sm_90", "call (r1), f, (!p1);", 17,
      "element 1 of operand 3 of 'call' must be a register or a constant" },
    { "sm_90", "call (r1), f, (%tid.x);", 17,
      "element 1 of operand 3 of 'call' cannot have a selector ('.x')" },
    { "sm_90", "call (r1), f, (r2.x);", 17,
      "element 1 of operand 3 of 'call' cannot have a selector ('.x')" },
    { "sm_90", "call (r1), f, (gv[1]);", 17,
      "element 1 of operand 3 of 'call' must be a register or a constant" },
    { "sm_90", "call (r1.x), f, (r2);", 8,
      "element 1 of operand 1 of 'call' cannot have a selector ('.x')" },
    { "sm_90", "call (r1+1), f, (r2);", 8,
      "element 1 of operand 1 of 'call' must be a register or '_'" },
    { "sm_90", "call (-r1), f, (r2);", 8,
      "element 1 of operand 1 of 'call' must be a register or '_'" },
    { "sm_90", "call ([rd1]), f, (r2);", 8,
      "element 1 of operand 1 of 'call' must be a register or '_'" },
    { "sm_90", "call ({r1}), f, (r2);", 8,
      "element 1 of operand 1 of 'call' must be a register or '_'" },
    { "sm_90", "call (r1), f, (r2), ft, fp;", 2,
      "'call' takes 1 to 4 operands, found 5 (form: call {.uni} {.uni} {.uni} {.uni})" },
    { "sm_90", "call (r1), rd1, (r2), ft, fp;", 2,
      "'call' takes 1 to 4 operands, found 5 (form: call {.uni} {.uni} {.uni} {.uni})" },
    { "sm_90", "call (r1), rd1, (r2), 5;", 24,
      "operand 4 of 'call' must be a label or function name" },
    { "sm_90", "call (r1), rd1, (r2), [rd2];", 24,
      "operand 4 of 'call' must be a label or function name" },
    { "sm_90", "call (r1), rd1, (r2), (ft);", 24,
      "operand 4 of 'call' must be a label or function name" },
    { "sm_90", "call rd1, (r2), 5;", 18, "operand 3 of 'call' must be a label or function name" },

    /* modifiers */
    { "sm_90", "call.foo f, (r1);", 6, "unknown modifier '.foo' for 'call'" },
    { "sm_90", "call.sync f, (r1);", 6,
      "modifier '.sync' is not valid in 'call' (closest form: call {.uni} {.uni} {.uni} {.uni})" },
    { "sm_90", "call.uni.sync f, (r1);", 10,
      "modifier '.sync' is not valid in 'call' (closest form: call {.uni} {.uni} {.uni} {.uni})" },
    { "sm_90", "call.global f, (r1);", 6,
      "modifier '.global' is not valid in 'call' (closest form: call {.uni} {.uni} {.uni} {.uni})" },
    { "sm_90", "call.u32 f, (r1);", 6,
      "modifier '.u32' is not valid in 'call' (closest form: call {.uni} {.uni} {.uni} {.uni})" },
    { "sm_90", "call.nouni f, (r1);", 6, "unknown modifier '.nouni' for 'call'" },
    { "sm_90", "call.uni.ftz f, (r1);", 10,
      "modifier '.ftz' is not valid in 'call' (closest form: call {.uni} {.uni} {.uni} {.uni})" },
    { "sm_90", "call.tail f, (r1);", 6, "unknown modifier '.tail' for 'call'" },
    { "sm_90", "call.uni.v2 f, (r1);", 10,
      "modifier '.v2' is not valid in 'call' (closest form: call {.uni} {.uni} {.uni} {.uni})" },
};

START_TEST(call_case)
{
    test_isa_case(&cases[_i]);
}
END_TEST

Suite *call_suite(void)
{
    Suite *s = suite_create("call");
    TCase *tc = tcase_create("call");
    tcase_add_loop_test(tc, call_case, 0, TEST_ISA_COUNT(cases));
    suite_add_tcase(s, tc);
    return s;
}
