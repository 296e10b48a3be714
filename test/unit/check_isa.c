/* The instruction tables at work: accepted forms and rejected neighbours
 * of the pages users asked about first (vop4, suld, st, call, atom) and one
 * case of each diagnostic, with the exact message.  Every case was put to
 * ptxas 13.0 too: it accepts exactly the ones expected to pass here. */
#include <string.h>

#include "check_suites.h"
#include "ptx/ptx.h"

static const isa_case cases[] = {
    { "sm_90", "vadd4.u32.u32.u32.sat r1, r2, r3, r4;", 0, NULL },
    { "sm_90", "vadd4.s32.s32.u32.add r1, r2, r3, r4;", 0, NULL },
    { "sm_90", "vsub4.u32.s32.s32.sat r1.b0, r2.b3210, r3.b7654, r4;", 0, NULL },
    { "sm_90", "vavrg4.u32.u32.u32.add r1, r2, r3, r4;", 0, NULL },
    { "sm_90", "vabsdiff4.s32.s32.s32.sat r1, r2, r3, r4;", 0, NULL },
    { "sm_90", "vmin4.u32.u32.u32 r1.b10, r2, r3, r4;", 0, NULL },
    { "sm_90", "vmax4.s32.u32.s32.add r1, r2, r3, r4;", 0, NULL },
    { "sm_90", "vadd4.f32.u32.u32 r1, r2, r3, r4;", 7, "modifier '.f32' is not valid in 'vadd4' (closest form: vadd4 <vtype> <vtype> <vtype> {.sat} {.sat})" },
    { "sm_90", "vadd4.u32.u32.u32.sat.add r1, r2, r3, r4;", 23, "modifier '.add' is not valid in 'vadd4' (closest form: vadd4 <vtype> <vtype> <vtype> {.sat} {.sat})" },
    { "sm_90", "vadd4.u32.u32 r1, r2, r3, r4;", 2, "'vadd4' needs one of .u32, .s32 (form: vadd4 <vtype> <vtype> <vtype> {.sat} {.sat})" },
    { "sm_90", "vadd4.u32.u32.u32 r1, r2, r3;", 2, "'vadd4' takes 4 operands, found 3 (form: vadd4 <vtype> <vtype> <vtype> {.sat} {.sat})" },
    { "sm_90", "vadd4.u32.u32.u32 r1, r2, 5, r4;", 28, "operand 3 of 'vadd4' must be a register" },
    { "sm_90", "suld.b.1d.b32.trap {r1}, [surf, {r5}];", 0, NULL },
    { "sm_90", "suld.b.2d.v2.b64.clamp {rd1, rd2}, [surf, {r5, r6}];", 0, NULL },
    { "sm_90", "suld.b.3d.v4.b32.zero {r1, r2, r3, r4}, [surf, {r5, r6, r7, r8}];", 0, NULL },
    { "sm_90", "suld.b.a1d.b32.trap {r1}, [surf, {r5, r6}];", 0, NULL },
    { "sm_90", "suld.b.a2d.b32.ca.trap {r1}, [surf, {r5, r6, r7, r8}];", 0, NULL },
    { "sm_90", "suld.b.2d.v4.b32 {r1, r2, r3, r4}, [surf, {r5, r6}];", 2, "'suld' needs one of .trap (form: suld.b <g12> <v4> <dtype4> <trap>)" },
    { "sm_90", "suld.b.2d.v4.f32.trap {f1, f2, f3, f4}, [surf, {r5, r6}];", 14, "modifier '.f32' is not valid in 'suld' (closest form: suld.b <g12> <v4> <dtype4> <trap>)" },
    { "sm_90", "suld.b.2d.b32.trap.clamp {r1}, [surf, {r5, r6}];", 20, "modifier '.clamp' is not valid in 'suld' (closest form: suld.b <g12> <dtype> <trap>)" },
    { "sm_90", "st.global.u32 [rd1], r1;", 0, NULL },
    { "sm_90", "st.weak.shared::cta.b32 [rd1], r1;", 0, NULL },
    { "sm_90", "st.volatile.global.u32 [rd1], r1;", 0, NULL },
    { "sm_90", "st.relaxed.gpu.global.u32 [rd1], r1;", 0, NULL },
    { "sm_90", "st.release.sys.global.b64 [rd1], rd2;", 0, NULL },
    { "sm_90", "st.mmio.relaxed.sys.global.u32 [rd1], r1;", 0, NULL },
    { "sm_90", "st.global.L1::evict_last.u32 [rd1], r1;", 0, NULL },
    { "sm_90", "st.global.L2::cache_hint.u32 [rd1], r1, rd2;", 0, NULL },
    { "sm_90", "st.global.v4.u32 [rd1], {r1, r2, r3, r4};", 0, NULL },
    { "sm_90", "st.shared::cluster.u32 [rd1], r1;", 0, NULL },
    { "sm_90", "st.const.u32 [rd1], r1;", 4, "modifier '.const' is not valid in 'st' (closest form: st {<global>} {<cop>} {<v24>} <t32>)" },
    { "sm_90", "st.global.global.u32 [rd1], r1;", 11, "modifier '.global' appears twice in 'st'" },
    { "sm_90", "st.global.u32 r1, r1;", 16, "operand 1 of 'st' must be an address [...]" },
    { "sm_90", "st.global.u32 [rd1];", 2, "'st' takes 2 operands, found 1 (form: st {<global>} {<cop>} {<v24>} <t32>)" },
    { "sm_90", "st.relaxed.global.u32 [rd1], r1;", 4, "modifier '.relaxed' is not valid in 'st' (closest form: st {<global>} {<cop>} {<v24>} <t32>)" },
    { "sm_90", "st.global.v3.u32 [rd1], {r1, r2, r3};", 11, "unknown modifier '.v3' for 'st'" },
    { "sm_90", "st.global.u33 [rd1], r1;", 11, "unknown modifier '.u33' for 'st'" },
    { "sm_90", "call.uni (r1), f, (r2);", 0, NULL },
    { "sm_90", "call.foo f, (r1);", 6, "unknown modifier '.foo' for 'call'" },
    { "sm_90", "atom.global.add.u32 r1, [rd1], r2;", 0, NULL },
    { "sm_90", "atom.add.global.u32 r1, [rd1], r2;", 0, NULL },
    { "sm_90", "atom.global.cas.b32 r1, [rd1], r2, r3;", 0, NULL },
    { "sm_90", "atom.acq_rel.gpu.global.exch.b64 rd1, [rd2], rd3;", 0, NULL },
    { "sm_90", "atom.global.add.noftz.f16 h1, [rd1], h2;", 0, NULL },
    { "sm_90", "atom.shared::cta.max.s32 r1, [rd1], r2;", 0, NULL },
    { "sm_90", "atom.global.cas.b32 r1, [rd1], r2;", 2, "'atom' takes 4 operands, found 3 (form: atom {<global>} <cas> <tcas_11_sm11>)" },
    { "sm_90", "atom.global.add.u32 r1, [rd1], r2, r3;", 2, "'atom' takes 3 operands, found 4 (form: atom {<global>} <add> <tadd_11_sm11>)" },
    { "sm_90", "atom.global.add.xor.u32 r1, [rd1], r2;", 17, "modifier '.xor' is not valid in 'atom' (closest form: atom {<global>} <add> <tadd_11_sm11>)" },
    { "sm_90", "atom.global.add.u32.u64 r1, [rd1], r2;", 21, "'atom' takes one modifier of {.u32, .s32, .u64, .f32}; '.u64' is one too many" },
    { "sm_90", "atom.const.add.u32 r1, [rd1], r2;", 6, "modifier '.const' is not valid in 'atom' (closest form: atom {<global>} <add> <tadd_11_sm11>)" },
    { "sm_90", "atom.global.u32 r1, [rd1], r2;", 2, "'atom' needs one of .add (form: atom {<global>} <add> <tadd_11_sm11>)" },
    { "sm_80", "elect.sync r1|p1, 0xffffffff;", 2, "'elect' (elect .sync {.sync} {.sync} {.sync}) requires .target sm_90 or later; this module targets sm_80" },
    { "sm_90", "foo.s32 r1, r2, r3;", 2, "unknown instruction 'foo'" },
    { "sm_90", "add.s33 r1, r2, r3;", 5, "unknown modifier '.s33' for 'add'" },
    { "sm_90", "mul.s32.wide rd1, r2, r3;", 9, "'.wide' is part of the instruction name: write 'mul.wide' before the other modifiers" },
};

START_TEST(instruction)
{
    test_isa_case(&cases[_i]);
}
END_TEST

/* A validated instruction knows its family and what each modifier says. */
START_TEST(decoded_modifiers)
{
    const char *src = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                      "\t.reg .f32 f<2>;\n\t.reg .b32 r<2>;\n\tcvt.rn.f32.s32 f1, r1;\n"
                      "\tst.global.relaxed.gpu.v2.u32 [rd1], {r1, r1};\n}\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m);
    const ptx_func *f = (const ptx_func *)m->first;
    const ptx_instr *cvt = (const ptx_instr *)f->body->first->next->next;
    ck_assert_str_eq(ptx_family_name((ptx_family)cvt->family), "cvt");
    ck_assert_str_eq(ptx_modifier_name(ptx_instr_modifier(cvt, PTX_CAT_ROUNDING, 0)), ".rn");
    ck_assert_str_eq(ptx_modifier_name(ptx_instr_modifier(cvt, PTX_CAT_TYPE, 0)), ".f32");
    ck_assert_str_eq(ptx_modifier_name(ptx_instr_modifier(cvt, PTX_CAT_TYPE, 1)), ".s32");
    ck_assert_int_eq(ptx_instr_modifier(cvt, PTX_CAT_TYPE, 2), PTX_MOD_NONE);
    const ptx_instr *st = (const ptx_instr *)cvt->base.next;
    ck_assert_str_eq(ptx_family_name((ptx_family)st->family), "st");
    ck_assert_str_eq(ptx_modifier_name(ptx_instr_modifier(st, PTX_CAT_SPACE, 0)), ".global");
    ck_assert_str_eq(ptx_modifier_name(ptx_instr_modifier(st, PTX_CAT_SCOPE, 0)), ".gpu");
    ck_assert_str_eq(ptx_modifier_name(ptx_instr_modifier(st, PTX_CAT_SEM, 0)), ".relaxed");
    ck_assert_str_eq(ptx_modifier_name(ptx_instr_modifier(st, PTX_CAT_VECTOR, 0)), ".v2");
    ck_assert_int_eq(ptx_family_lookup("mbarrier"), PTX_FAMILY_NONE);
    ck_assert_int_eq(ptx_family_lookup("cp.async.bulk.tensor"), PTX_FAMILY_CP_ASYNC_BULK_TENSOR);
    ptx_context_free(ctx);
}
END_TEST

Suite *isa_suite(void)
{
    Suite *s = suite_create("isa");
    TCase *tc = tcase_create("isa");
    tcase_add_loop_test(tc, instruction, 0, TEST_ISA_COUNT(cases));
    tcase_add_test(tc, decoded_modifiers);
    suite_add_tcase(s, tc);
    return s;
}
