/* The instruction tables at work: one case of each diagnostic the
 * validator gives, with its exact message and position.  The pages users
 * asked about first have suites of their own (check_vop4.c, check_suld.c,
 * check_st.c, check_call.c, check_atom.c). */
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "internal.h"
#include "ptx/ptx.h"

static const isa_case cases[] = {
    /* a bulk copy's size: a multiple of 16 (0 too), as ptxas checks it */
    { "sm_90", "cp.async.bulk.prefetch.L2.global [rd1], 8;", 42,
      "operand 2 of 'cp' must be a multiple of 16, not 8" },
    { "sm_90", "cp.async.bulk.prefetch.L2.global [rd1], 0;", 0, NULL },
    { "sm_90", "cp.async.bulk.prefetch.L2.global [rd1], 4096;", 0, NULL },
    /* sizes and counts as ptxas checks them: st.bulk's, tcgen05's columns */
    { "sm_100a", "st.bulk.weak.shared::cta [rd1], 12, 0;", 34,
      "operand 2 of 'st' must be a multiple of 8 from 0 to 16777216, not 12" },
    { "sm_100a", "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [rd1], 48;", 65,
      "operand 2 of 'tcgen05' must be a power of two from 32 to 512, not 48" },
    { "sm_100a", "tcgen05.dealloc.cta_group::1.sync.aligned.b32 r1, 48;", 52,
      "operand 2 of 'tcgen05' must be a multiple of 32, not 48" },
    { "sm_100a", "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [rd1], 512;", 0, NULL },
    /* mma.sp's metadata may be a 0f constant (ptxas takes it), not 1, 1.0 or 0d... */
    { "sm_90", "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {r1, r2}, {r1, r2}, {r1, r2}, {r1, r2}, 0f3F800000, 0x1;",
      0, NULL },
    { "sm_90", "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {r1, r2}, {r1, r2}, {r1, r2}, {r1, r2}, 1, 0x1;",
      95, "operand 5 of 'mma' must be a register, a vector {...} or a 0f constant" },
    { "sm_90", "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {r1, r2}, {r1, r2}, {r1, r2}, {r1, r2}, 0d3FF0000000000000, 0x1;",
      95, "operand 5 of 'mma' must be a register, a vector {...} or a 0f constant" },
    { "sm_90", "foo.s32 r1, r2, r3;", 2, "unknown instruction 'foo'" },
    { "sm_90", "@!p  foo r1, r2, r3;", 7, "unknown instruction 'foo'" },
    { "sm_90", "add.s33 r1, r2, r3;", 5, "unknown modifier '.s33' for 'add'; did you mean '.s32'?" },
    { "sm_90", "mul.s32.wide rd1, r2, r3;", 9,
      "'.wide' is part of the instruction name: write 'mul.wide' before the other modifiers" },
    { "sm_90", "suld.p.2d.b32.trap r1, [surf, {r5, r6}];", 6,
      "'suld.p' is not an instruction: 'suld' continues with suld.b.1d.type.trap; .type = { .b8, .b16, .b32, .b64 }" },
    { "sm_90", "st.const.u32 [rd1], r1;", 4,
      "modifier '.const' is not valid in 'st': expected one of .global, .local, .param, .shared, .shared::cta, .shared::cluster, .param::func" },
    { "sm_90", "st.global.sat.u32 [rd1], r1;", 11,
      "modifier '.sat' is not valid in 'st' (closest form: st{.global}{.cop}{.vec}.type)" },
    { "sm_90", "st.relaxed.global.u32 [rd1], r1;", 4,
      "'st' with '.relaxed' needs one of .cta, .gpu, .sys, .cluster (form: st.sem.scope{.global}{.vec}.type)" },
    { "sm_90", "vadd4.u32.u32.u32.sat.add r1, r2, r3, r4;", 23,
      "modifier '.add' cannot be combined with '.sat' in 'vadd4' (form: vadd4.dtype.atype.btype.add)" },
    { "sm_90", "st.global.global.u32 [rd1], r1;", 11, "modifier '.global' appears twice in 'st'" },
    { "sm_90", "atom.global.add.u32.u64 r1, [rd1], r2;", 21,
      "'atom' takes one modifier of {.u32, .s32, .u64, .f32}; '.u64' is one too many" },
    { "sm_90", "suld.b.2d.b32 r1, [surf, {r5, r6}];", 2,
      "'suld' needs one of .trap, .clamp, .zero (form: suld.b.2d.type.trap; .type = { .b8, .b16, .b32, .b64 })" },
    { "sm_90", "atom.global.cas.b32 r1, [rd1], r2;", 2,
      "'atom' takes 4 operands, found 3 (form: atom{.global}.cas.type; .type = { .b32, .b64 })" },
    { "sm_90", "call (r1), rd1, (r2), ft, fp;", 2,
      "'call' takes 1 to 4 operands, found 5 (form: call{.uni})" },
    { "sm_90", "vadd4.u32.u32.u32 r1, r2, 5, r4;", 28, "operand 3 of 'vadd4' must be a register" },
    { "sm_90", "st.global.v4.u32 [rd1], {r1, r2};", 26,
      "operand 2 of 'st' must be a vector of 4 elements, found 2" },
    { "sm_90", "st.global.v4.u32 [rd1], {r1, _, r3, r4};", 31,
      "element 2 of operand 2 of 'st' must be a register or a constant" },
    { "sm_90", "call (r1), f, (r2+1);", 17,
      "element 1 of operand 3 of 'call' must be a register or a constant" },
    { "sm_90", "call (r1), f, (%tid.x);", 17,
      "element 1 of operand 3 of 'call' cannot have a selector ('.x')" },
    { "sm_90", "vadd4.u32.u32.u32 r1, r2.b8000, r3, r4;", 24,
      "selector '.b8000' is not valid on operand 2 of 'vadd4': expected .b[0-7][0-7][0-7][0-7]" },
    { "sm_90", "vadd4.u32.u32.u32 r1, r2, r3, r4.b0;", 32,
      "operand 4 of 'vadd4' takes no selector ('.b0')" },
    { "sm_90", "suld.b.2d.b32.trap r1, [surf, {r5}];", 25,
      "operand 2 of 'suld' must be [surface, coordinates], the coordinates a register or a vector of 2 or 4 elements" },
    { "sm_90", "suld.b.2d.b32.trap r1, [surf, {r5, _}];", 37,
      "coordinate 2 of operand 2 of 'suld' must be a register or a constant" },
    { "8.2 sm_90", "st.global.b128 [rd1], q1;", 11,
      "'.b128' in 'st.global.b128' requires PTX ISA .version 8.3 or later; this module is 8.2" },
    { "sm_80", "elect.sync r1|p1, 0xffffffff;", 2,
      "'elect.sync' requires .target sm_90 or later; this module targets sm_80" },
    /* a form newer than the module: the operands' types are checked first */
    { "8.0 sm_90", "ld.global.v4.f64 {f1, f2, f3, f4}, [rd1];", 20,
      "operand 'f1' of 'ld' is declared .f32; the instruction needs .f64" },
    { "8.0 sm_90", "ld.global.v4.f64 {fd1, fd2, fd3, fd4}, [rd1];", 11,
      "'.v4.f64' in 'ld.global.v4.f64' requires PTX ISA .version 8.8 or later; this module is 8.0" },
    { "8.8 sm_90", "ld.global.L2::evict_last.L2::256B.ca.v4.f64 {fd1, fd2, fd3, fd4}, [rd1];", 11,
      "'.L2::evict_last' with '.v4.f64' in 'ld.global.L2::evict_last.L2::256B.ca.v4.f64' requires .target sm_100 or later; this module targets sm_90" },
    { "sm_90", "add.s32 r1, r2, {r3};", 18, "operand 3 of 'add' must be a register or a constant" },
    /* constants of some values only (ptxas: "expected to be 16") */
    { "sm_90", "cp.async.cg.shared.global [rd1], [rd2], 8;", 42, "operand 3 of 'cp' must be 16, not 8" },
    { "sm_90", "cp.async.ca.shared.global [rd1], [rd2], 2*16;", 42,
      "operand 3 of 'cp' must be 4, 8 or 16, not 32" },
    { "sm_90", "bar.sync 16;", 11, "operand 1 of 'bar' must be 0 to 15, not 16" },
    { "sm_90", "barrier.sync r1, 33;", 19, "operand 2 of 'barrier' must be a multiple of 32, not 33" },
    { "sm_90a", "setmaxnreg.inc.sync.aligned.u32 23;", 34,
      "operand 1 of 'setmaxnreg' must be a multiple of 8 from 24 to 256, not 23" },
    { "sm_90", "discard.global.L2 [rd1], 64;", 27, "operand 2 of 'discard' must be 128, not 64" },
    { "sm_90a", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0, f1, f2, f3}, rd1, rd2, p, 1, 1, 0, 2;",
      92, "operand 8 of 'wgmma' must be 0 or 1, not 2" },
    /* issue 20: the values ptxas allows, asked at each boundary */
    { "sm_90", "alloca.u64 rd1, rd2, 8388608;", 0, NULL },
    { "sm_90", "alloca.u64 rd1, rd2, 3;", 23, "operand 3 of 'alloca' must be a power of two from 1 to 8388608, not 3" },
    { "sm_90", "alloca.u64 rd1, rd2, 0;", 23, "operand 3 of 'alloca' must be a power of two from 1 to 8388608, not 0" },
    { "sm_90", "alloca.u64 rd1, rd2, 16777216;", 23,
      "operand 3 of 'alloca' must be a power of two from 1 to 8388608, not 16777216" },
    { "sm_90", "pmevent 15;", 0, NULL },
    { "sm_90", "pmevent 16;", 10, "operand 1 of 'pmevent' must be 0 to 15, not 16" },
    { "sm_90", "pmevent.mask 0xffff;", 0, NULL },
    { "sm_90", "pmevent.mask 0x10000;", 15, "operand 1 of 'pmevent' must be 0 to 65535, not 65536" },
    { "sm_90a", "tensormap.replace.tile.fill_mode.global.b1024.b32 [rd1], 1;", 0, NULL },
    { "sm_90a", "tensormap.replace.tile.fill_mode.global.b1024.b32 [rd1], 2;", 59,
      "operand 2 of 'tensormap' must be 0 to 1, not 2" },
    { "sm_90a", "tensormap.replace.tile.elemtype.global.b1024.b32 [rd1], 13;", 58,
      "operand 2 of 'tensormap' must be 0 to 12, not 13" },
    { "sm_90a", "tensormap.replace.tile.interleave_layout.global.b1024.b32 [rd1], 3;", 67,
      "operand 2 of 'tensormap' must be 0 to 2, not 3" },
    { "sm_90a", "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [rd1], 4;", 62,
      "operand 2 of 'tensormap' must be 0 to 3, not 4" },
    { "sm_90", "fence.proxy.tensormap::generic.acquire.gpu [rd1], 128;", 0, NULL },
    { "sm_90", "fence.proxy.tensormap::generic.acquire.gpu [rd1], 64;", 52,
      "operand 2 of 'fence' must be 128, not 64" },
    { "sm_90a", "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [rd1], [rd2], 64;", 103,
      "operand 3 of 'tensormap' must be 128, not 64" },
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

/* The memo of accepted shapes must tell apart what the page checks look
 * at: the elements of a vector or a list, the coordinates of an image
 * address, a selector's text, a constant's value where it counts.  Each valid instruction comes first, then its
 * invalid twin. */
START_TEST(memo_keeps_page_shapes_apart)
{
    const char *src = ".version 9.0\n.target sm_90\n.address_size 64\n.global .surfref surf;\n"
                      ".func (.param .b32 r) f(.param .b32 a) { ret; }\n.visible .entry k()\n{\n"
                      "\t.reg .b32 r<9>;\n\t.reg .b64 rd<9>;\n"
                      "\tst.global.v2.u32 [rd1], {r1, r2};\n"                 /* 10: accepted */
                      "\tst.global.v2.u32 [rd1], {r1, _};\n"                  /* 11 */
                      "\tcall (r1), f, (r2);\n"                               /* 12: accepted */
                      "\tcall (r1), f, (r2+1);\n"                             /* 13 */
                      "\tsuld.b.2d.b32.trap r1, [surf, {r5, r6}];\n"          /* 14: accepted */
                      "\tsuld.b.2d.b32.trap r1, [surf, {r5}];\n"              /* 15 */
                      "\tvadd4.u32.u32.u32 r1, r2.b3210, r3, r4;\n"           /* 16: accepted */
                      "\tvadd4.u32.u32.u32 r1, r2.b8000, r3, r4;\n"           /* 17 */
                      "\tcp.async.cg.shared.global [rd1], [rd2], 16;\n"       /* 18: accepted */
                      "\tcp.async.cg.shared.global [rd1], [rd2], 8;\n"        /* 19 */
                      "\tret;\n}\n";
    ptx_context *ctx = NULL;
    test_parse_text(&ctx, src, strlen(src), true);
    ck_assert_uint_eq(ptx_error_count(ctx), 5);
    for (unsigned i = 0; i < 5; i++)
        ck_assert_uint_eq(ptx_context_position(ctx, ptx_diag_get(ctx, i)->span.off).line,
                          11 + 2 * i);
    ptx_context_free(ctx);
}
END_TEST

/* The memo of instructions written alike is keyed by the modifier list,
 * each operand's shape and register class, a constant's value where it
 * counts: each valid instruction comes first, then a twin that differs
 * from it in one of those only and is rejected.  Its errors are on these
 * lines, and only there (the selector's twin has sema's error too). */
START_TEST(alike_memo_keys_every_part)
{
    const char *src = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                      "\t.reg .b32 r<9>;\n\t.reg .b64 rd<9>;\n\t.reg .pred p<3>;\n"
                      "\tst.global.v4.u32 [rd1], {r1, r2, r3, r4};\n"     /* 9: accepted */
                      "\tst.global.v2.u32 [rd1], {r1, r2, r3, r4};\n"     /* 10: modifiers */
                      "\tst.global.v4.u32 [rd1], {r1, r2, r3};\n"         /* 11: a vector's size */
                      "\tsetp.eq.s32 p1, r1, r2;\n"                       /* 12: accepted */
                      "\tsetp.eq.s32 r3, r1, r2;\n"                       /* 13: register class */
                      "\tbar.sync 0;\n"                                   /* 14: accepted */
                      "\tbar.sync 16;\n"                                  /* 15: a value */
                      "\tbar.sync r1;\n"                                  /* 16: accepted */
                      "\tbar.sync WARP_SZ;\n"                             /* 17: WARP_SZ is 32 */
                      "\tvadd4.u32.u32.u32 r1, r2, r3, r4;\n"             /* 18: accepted */
                      "\tvadd4.u32.u32.u32 r1, r2, r3, r4.x;\n"           /* 19: a selector */
                      "\tadd.s32 r1, r2, r3;\n"                           /* 20: accepted */
                      "\tadd.s32 r1, r2, {r3};\n"                         /* 21: an operand's kind */
                      "\tret;\n}\n";
    static const unsigned lines[] = { 10, 11, 13, 15, 17, 19, 21 };
    ptx_context *ctx = NULL;
    test_parse_text(&ctx, src, strlen(src), true);
    bool seen[sizeof lines / sizeof *lines] = { false };
    for (size_t i = 0; i < ptx_error_count(ctx); i++) {
        unsigned line = ptx_context_position(ctx, ptx_diag_get(ctx, i)->span.off).line;
        size_t k = 0;
        while (k < sizeof lines / sizeof *lines && lines[k] != line)
            k++;
        ck_assert_msg(k < sizeof lines / sizeof *lines, "an error on line %u", line);
        seen[k] = true;
    }
    for (size_t k = 0; k < sizeof lines / sizeof *lines; k++)
        ck_assert_msg(seen[k], "no error on line %u", lines[k]);
    ptx_context_free(ctx);
}
END_TEST

/* The memos' keys hold the module's version and target: in one context,
 * an instruction accepted in its module is rejected in a module that
 * differs from it in its .version only, or in its .target only, and
 * accepted again in its own. */
START_TEST(memo_keys_version_and_target)
{
    const char *src = ".version 8.3\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                      "\t.reg .b32 r<9>;\n\t.reg .b64 rd<9>;\n\t.reg .b128 q<3>;\n\t.reg .pred p<3>;\n"
                      "\tst.global.b128 [rd1], q1;\n"
                      "\telect.sync r1|p1, 0xffffffff;\n"
                      "\tret;\n}\n";
    ptx_context *ctx = NULL;
    const ptx_module *m = test_parse_text(&ctx, src, strlen(src), true);
    ck_assert_uint_eq(ptx_error_count(ctx), 0);
    const ptx_func *f = (const ptx_func *)m->first;
    const ptx_node *n = f->body->first;
    while (n->kind != PTX_NODE_INSTR)
        n = n->next;
    const ptx_instr *st = (const ptx_instr *)n, *elect = (const ptx_instr *)n->next;
    ptx_module older = *m, sm80 = *m;
    older.version_minor = 2;
    const ptx_name *arch = ptx_intern(ctx, "sm_80", 5);
    sm80.targets = &arch;
    sm80.ntargets = 1;
    const uint8_t rc[2] = { PTX_RC_UNKNOWN, PTX_RC_UNKNOWN };
    ptx_isa_fit fit;
    for (unsigned round = 0; round < 2; round++) {
        ck_assert_ptr_nonnull(ptx_isa_check(ctx, m, st, rc, &fit));
        ck_assert_ptr_nonnull(ptx_isa_check(ctx, m, elect, rc, &fit));
        /* held back for the caller, who checks the operands' types first */
        ck_assert_ptr_null(ptx_isa_check(ctx, &older, st, rc, &fit));
        ck_assert_ptr_nonnull(fit.held);
        ptx_isa_report_level(ctx, &older, st, &fit, false);
        ck_assert_ptr_null(ptx_isa_check(ctx, &sm80, elect, rc, &fit));
        ck_assert_ptr_nonnull(fit.held);
        ptx_isa_report_level(ctx, &sm80, elect, &fit, false);
        ck_assert_ptr_nonnull(ptx_isa_check(ctx, m, st, rc, &fit));
        ck_assert_ptr_nonnull(ptx_isa_check(ctx, m, elect, rc, &fit));
    }
    /* each error with its note, the form */
    ck_assert_uint_eq(ptx_error_count(ctx), 4);
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 0)->message, "requires PTX ISA .version 8.3"));
    ck_assert_int_eq(ptx_diag_get(ctx, 1)->severity, PTX_SEV_NOTE);
    ck_assert_ptr_nonnull(strstr(ptx_diag_get(ctx, 2)->message, "requires .target sm_90"));
    ptx_context_free(ctx);
}
END_TEST

/* Instructions written alike share their modifiers; validating one moves
 * it to a set that says what its modifiers are, and an instruction that
 * does not validate keeps modifiers that say nothing, whatever its twins
 * say.  A cvt whose modifiers are written apart has modifiers of its
 * own. */
START_TEST(shared_modifiers_follow_validation)
{
    const char *src = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                      "\t.reg .b32 r<9>;\n"
                      "\tadd.s32 r1, r2, r3;\n"        /* accepted */
                      "\tadd.s32 r1, r2;\n"            /* one operand short */
                      "\tadd.s32 r4, r5, r6;\n"        /* accepted */
                      "\tadd .s32 r4, r5, r6;\n"       /* accepted, its own */
                      "}\n";
    ptx_context *ctx = NULL;
    const ptx_module *m = test_parse_text(&ctx, src, strlen(src), true);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    const ptx_func *f = (const ptx_func *)m->first;
    const ptx_instr *ok = (const ptx_instr *)f->body->first->next;
    const ptx_instr *bad = (const ptx_instr *)ok->base.next;
    const ptx_instr *twin = (const ptx_instr *)bad->base.next;
    const ptx_instr *apart = (const ptx_instr *)twin->base.next;
    ck_assert_int_eq(ok->flags & PTX_INSTR_SHARED_MODS, PTX_INSTR_SHARED_MODS);
    ck_assert_ptr_eq(ok->mods, twin->mods);
    ck_assert_ptr_ne(ok->mods, bad->mods);
    ck_assert_int_eq(ptx_instr_modifier(ok, PTX_CAT_TYPE, 0), PTX_MOD_S32);
    ck_assert_int_eq(ptx_instr_modifier(twin, PTX_CAT_TYPE, 0), PTX_MOD_S32);
    ck_assert_int_eq(bad->family, PTX_FAMILY_NONE);
    ck_assert_uint_eq(bad->mods[0].id, 0);
    ck_assert_uint_eq(bad->mods[0].category, PTX_CAT_NONE);
    ck_assert_int_eq(apart->flags & PTX_INSTR_SHARED_MODS, 0);
    ck_assert_int_eq(ptx_instr_modifier(apart, PTX_CAT_TYPE, 0), PTX_MOD_S32);
    size_t len;
    const char *text = ptx_context_source(ctx, &len);
    for (const ptx_instr *in = ok; in; in = (const ptx_instr *)in->base.next)
        ck_assert_int_eq(strncmp(text + ptx_mod_offset(in, 0), ".s32 ", 5), 0);
    ptx_context_free(ctx);
}
END_TEST

/* ptx_context_set_target: the module is read as if its .target named the
 * architecture given; only architectures are taken. */
START_TEST(target_override)
{
    static const char text[] = ".version 8.0\n.target sm_80, debug\n.address_size 64\n"
                               ".visible .entry k()\n{\n\tfence.proxy.async;\n\tret;\n}\n"
                               /* .target debug needs DWARF */
                               ".section .debug_abbrev { .b8 0 }\n";
    static const struct { const char *arch; ptx_status set, parse; } runs[] = {
        { NULL, PTX_OK, PTX_ERR_INPUT },          /* its own sm_80 */
        { "sm_90", PTX_OK, PTX_OK },
        { "compute_90", PTX_OK, PTX_OK },
        { "sm_86", PTX_OK, PTX_ERR_INPUT },
        { "sm_100", PTX_OK, PTX_ERR_INPUT },      /* needs .version 8.6 */
        { "sm80", PTX_ERR_USAGE, PTX_ERR_INPUT },
        { "texmode_unified", PTX_ERR_USAGE, PTX_ERR_INPUT },
        { "sm_90aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", PTX_ERR_USAGE, PTX_ERR_INPUT },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        ptx_context *ctx = ptx_context_new();
        ck_assert_ptr_nonnull(ctx);
        ck_assert_int_eq(ptx_context_set_target(ctx, runs[i].arch), runs[i].set);
        const ptx_module *m = NULL;
        ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, sizeof text - 1, &m), runs[i].parse);
        /* the first target is the one given (or the module's own); the
         * others stay */
        ck_assert_uint_eq(m->ntargets, 2);
        ck_assert_str_eq(m->targets[0]->text, runs[i].set == PTX_OK && runs[i].arch ? runs[i].arch : "sm_80");
        ck_assert_str_eq(m->targets[1]->text, "debug");
        ptx_context_free(ctx);
    }
}
END_TEST

/* The reference: names as written, a pattern word or glob, the count. */
START_TEST(instruction_list)
{
    static const struct { const char *pattern; const char *names; } runs[] = {
        { "bar", "bar.arrive bar.cta.arrive bar.cta.red bar.cta.sync bar.red bar.sync bar.warp.sync " },
        { "vadd4", "vadd4 " },
        { "fence*", "fence fence.proxy " },
        { "wgmma.mma_async", "wgmma.mma_async.sp.sync wgmma.mma_async.sync " },
        { "nosuch", "" },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        test_buf b = { 0 };
        size_t listed = 99;
        ck_assert_int_eq(ptx_print_instruction_list(runs[i].pattern, test_buf_write, &b, &listed), PTX_OK);
        char names[512] = "";
        size_t lines = 0;
        for (const char *p = b.p; p && *p; p = strchr(p, '\n') + 1) {
            strncat(names, p, strcspn(p, " "));
            strcat(names, " ");
            lines++;
        }
        ck_assert_str_eq(names, runs[i].names);
        ck_assert_uint_eq(listed, lines);
        free(b.p);
    }
    test_buf all = { 0 };
    size_t listed = 0;
    ck_assert_int_eq(ptx_print_instruction_list(NULL, test_buf_write, &all, &listed), PTX_OK);
    ck_assert_uint_gt(listed, 200);
    ck_assert_ptr_null(strstr(all.p, "bar_barrier"));
    ck_assert_ptr_null(strstr(all.p, "vop4"));
    free(all.p);
    ck_assert_int_eq(ptx_print_instruction_list(NULL, NULL, NULL, NULL), PTX_ERR_USAGE);
}
END_TEST

/* --explain's text: the manual's notation, an unknown name writes nothing. */
START_TEST(instruction_forms)
{
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_instruction_forms("nosuch", test_buf_write, &b), PTX_ERR_INPUT);
    ck_assert_uint_eq(b.len, 0);
    free(b.p);
    b = (test_buf){ 0 };
    ck_assert_int_eq(ptx_print_instruction_forms("add", test_buf_write, &b), PTX_OK);
    ck_assert_str_eq(strtok(b.p, "\n"), "add: 10 forms");
    /* the table's `add <itype> : r:t1, ri:t1, ri:t1` */
    ck_assert_str_eq(strtok(NULL, "\n"), "  add.type  d, a, b");
    ck_assert_str_eq(strtok(NULL, "\n"), "      .type = { .u16, .u32, .u64, .s16, .s32, .s64 }");
    ck_assert_str_eq(strtok(NULL, "\n"), "      PTX ISA 1.0, all targets");
    /* `add .sat {.sat} <s32>`: the repeated .sat once */
    ck_assert_str_eq(strtok(NULL, "\n"), "  add.sat.s32  d, a, b");
    free(b.p);
    b = (test_buf){ 0 };
    ck_assert_int_eq(ptx_print_instruction_forms("bar.sync", test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(strstr(b.p, "\n  bar.sync  a{, b}\n"));
    ck_assert_ptr_null(strstr(b.p, "<"));
    free(b.p);
    b = (test_buf){ 0 };
    /* a write that fails is reported */
    b.fail_at = 1;
    ck_assert_int_eq(ptx_print_instruction_forms("add", test_buf_write, &b), PTX_ERR_IO);
    free(b.p);
    ck_assert_int_eq(ptx_print_instruction_forms(NULL, test_buf_write, &b), PTX_ERR_USAGE);
}
END_TEST

/* The reference at a level: the forms and instructions a module of that
 * version and target may use, the rest left out. */
START_TEST(instruction_reference_at_level)
{
    const ptx_isa_level v80_sm90 = { 8, 0, "sm_90" }, v80 = { 8, 0, NULL }, sm90 = { 0, 0, "sm_90" };
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_instruction_forms_at("elect.sync", &v80_sm90, test_buf_write, &b), PTX_OK);
    ck_assert_str_eq(strtok(b.p, "\n"), "elect.sync: 1 of 1 form at PTX ISA 8.0 for sm_90");
    free(b.p);
    b = (test_buf){ 0 };
    /* elect.sync needs sm_90: none at sm_80 */
    const ptx_isa_level sm80 = { 8, 0, "sm_80" };
    ck_assert_int_eq(ptx_print_instruction_forms_at("elect.sync", &sm80, test_buf_write, &b), PTX_OK);
    ck_assert_str_eq(b.p, "elect.sync: none of its 1 form at PTX ISA 8.0 for sm_80\n");
    free(b.p);
    b = (test_buf){ 0 };
    /* the 256-bit loads (8.8, sm_100) are not there at 8.0; b128 (8.3) neither */
    ck_assert_int_eq(ptx_print_instruction_forms_at("ld", &v80, test_buf_write, &b), PTX_OK);
    ck_assert_ptr_null(strstr(b.p, ".v4.type{.ccop}"));
    ck_assert_ptr_null(strstr(b.p, ".b128"));
    ck_assert_ptr_nonnull(strstr(b.p, "ld{.global}{.cop}{.vec}.type  d, [a]"));
    free(b.p);
    b = (test_buf){ 0 };
    /* shfl without .sync is withdrawn on sm_70 and later from 6.4 */
    ck_assert_int_eq(ptx_print_instruction_forms_at("shfl", &sm90, test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(strstr(b.p, "shfl: none of its"));
    free(b.p);
    b = (test_buf){ 0 };
    ck_assert_int_eq(ptx_print_instruction_forms_at("nosuch", &sm90, test_buf_write, &b), PTX_ERR_INPUT);
    free(b.p);
    /* the list: elect.sync at sm_90, not at sm_80; the version column
     * that of the oldest form there */
    size_t listed = 0;
    b = (test_buf){ 0 };
    ck_assert_int_eq(ptx_print_instruction_list_at("elect", &sm80, test_buf_write, &b, &listed), PTX_OK);
    ck_assert_uint_eq(listed, 0);
    free(b.p);
    b = (test_buf){ 0 };
    ck_assert_int_eq(ptx_print_instruction_list_at("elect", &v80_sm90, test_buf_write, &b, &listed), PTX_OK);
    ck_assert_uint_eq(listed, 1);
    ck_assert_int_eq(strncmp(b.p, "elect.sync ", 11), 0);
    free(b.p);
    b = (test_buf){ 0 };
    size_t all = 0;
    ck_assert_int_eq(ptx_print_instruction_list_at(NULL, NULL, test_buf_write, &b, &all), PTX_OK);
    free(b.p);
    b = (test_buf){ 0 };
    ck_assert_int_eq(ptx_print_instruction_list_at(NULL, &v80, test_buf_write, &b, &listed), PTX_OK);
    ck_assert_uint_lt(listed, all);
    ck_assert_ptr_null(strstr(b.p, "tcgen05"));
    free(b.p);
}
END_TEST

Suite *isa_suite(void)
{
    Suite *s = suite_create("isa");
    TCase *tc = tcase_create("isa");
    tcase_add_loop_test(tc, instruction, 0, TEST_ISA_COUNT(cases));
    tcase_add_test(tc, decoded_modifiers);
    tcase_add_test(tc, memo_keeps_page_shapes_apart);
    tcase_add_test(tc, alike_memo_keys_every_part);
    tcase_add_test(tc, memo_keys_version_and_target);
    tcase_add_test(tc, shared_modifiers_follow_validation);
    tcase_add_test(tc, target_override);
    tcase_add_test(tc, instruction_list);
    tcase_add_test(tc, instruction_forms);
    tcase_add_test(tc, instruction_reference_at_level);
    suite_add_tcase(s, tc);
    return s;
}
