/* Validator cases that dev/mutate found: each instruction, in a module of
 * the given .version and .target, as ptxas 13.0 judged it (accepted, or
 * rejected with the error expected here), and ptx_opcode_modifiers, which
 * the tool draws its replacement modifiers from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "ptx/ptx.h"

typedef struct found_case {
    const char *version;
    const char *target;
    const char *stmt;
    unsigned col;           /* column of the error on line 14; 0: accepted */
    const char *message;    /* "": any message */
} found_case;

static const found_case cases[] = {
    /* forms ptxas withdrew: shfl and vote without .sync on sm_70+ from 6.4 */
    { "9.0", "sm_90", "shfl.bfly.b32 r1, r2, 1, 31;", 2,
      "'shfl' (shfl.mode.b32) is not supported on .target sm_70 and later from PTX ISA 6.4; this module is 9.0 for sm_90" },
    { "6.3", "sm_75", "shfl.bfly.b32 r1, r2, 1, 31;", 0, NULL },
    { "9.0", "sm_60", "shfl.bfly.b32 r1, r2, 1, 31;", 0, NULL },
    { "9.0", "sm_90", "vote.all.pred p1, p2;", 2,
      "'vote' (vote.mode.pred) is not supported on .target sm_70 and later from PTX ISA 6.4; this module is 9.0 for sm_90" },
    { "6.3", "sm_70", "vote.all.pred p1, p2;", 0, NULL },
    /* mad.f32 without rounding: sm_1x, or before PTX ISA 3.2 */
    { "9.0", "sm_90", "mad.f32 f1, f2, f3, f4;", 2,
      "'mad' needs one of .rn, .rz, .rm, .rp (form: mad.rnd{.ftz}{.sat}.f32; .rnd = { .rn, .rz, .rm, .rp })" },
    { "9.0", "sm_13", "mad.f32 f1, f2, f3, f4;", 0, NULL },
    { "3.1", "sm_20", "mad.f32 f1, f2, f3, f4;", 0, NULL },
    /* the bare transcendental forms end with PTX ISA 1.3 */
    { "9.0", "sm_90", "cos.f32 f1, f2;", 2,
      "'cos' needs the modifier .approx (form: cos.approx{.ftz}.f32)" },
    { "1.3", "sm_13", "cos.f32 f1, f2;", 0, NULL },
    /* wmma without .aligned: only before PTX ISA 6.3 */
    { "6.2", "sm_70", "wmma.load.a.sync.row.m16n16k16.f16 {r1, r2, r3, r4, r5, r6, r7, r8}, [rd1];", 0,
      NULL },
    { "6.3", "sm_70", "wmma.load.a.sync.row.m16n16k16.f16 {r1, r2, r3, r4, r5, r6, r7, r8}, [rd1];", 2,
      "'wmma' needs the modifier .aligned (form: wmma.load.a.sync.aligned.layout.m16n16k16{.ss}.f16; .layout = { .row, .col }; .ss = { .global, .shared })" },
    /* types keep the order of the form's type slots */
    { "9.0", "sm_90", "mma.e5m2.sync.aligned.m16n8k16.row.col.f32.e4m3.f32 {f1, f2, f3, f4}, {r1, r2}, {r3}, {f5, f6, f7, f8};", 40,
      "type '.f32' is out of place in 'mma': the types follow the order of the form (mma.sync.aligned.m16n8k16.row.col.f32.dtype.atype.f32)" },
    { "9.0", "sm_90", "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e4m3.f32 {f1, f2, f3, f4}, {r1, r2}, {r3}, {f5, f6, f7, f8};", 0, NULL },
    { "9.0", "sm_100", "add.f32.f16 f1, h1, f2;", 0, NULL },
    /* mma type combinations as ptxas takes them (no .f32 B with .e4m3 A) */
    { "9.0", "sm_90", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.f32.f32 {f1, f2, f3, f4}, {r1, r2, r3, r4}, {r1, r2}, {f1, f2, f3, f4};", 48, "" },
    { "9.0", "sm_90", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32 {r1, r2}, {r1, r2, r3, r4}, {r1, r2}, {f1, f2, f3, f4};", 2, "" },
    { "9.0", "sm_90", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {f1, f2, f3, f4}, {r1, r2, r3, r4}, {r1, r2}, {f1, f2, f3, f4};", 0, NULL },
    { "9.0", "sm_90", "wmma.mma.sync.aligned.row.col.m16n16k16.u8.u8.u8.s32 {r1, r2, r3, r4, r5, r6, r7, r8}, {r1, r2}, {r3, r4}, {r1, r2, r3, r4, r5, r6, r7, r8};", 47, "" },
    /* layouts too; and only m8n8k4 takes .col for A */
    { "9.0", "sm_90", "mma.sync.aligned.m16n8k16.col.col.f16.f16.f16.f16 {r1, r2}, {r1, r2, r3, r4}, {r1, r2}, {r1, r2};", 27,
      "layout '.col' is not valid for matrix A of 'mma': this form takes '.row' (form: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16)" },
    { "9.0", "sm_90", "mma.sync.aligned.m16n8k16.col.row.f16.f16.f16.f16 {r1, r2}, {r1, r2, r3, r4}, {r1, r2}, {r1, r2};", 27,
      "layout '.col' is not valid for matrix A of 'mma': this form takes '.row' (form: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16)" },
    { "9.0", "sm_90", "mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {r1, r2, r3, r4}, {r1, r2}, {r1, r2}, {r1, r2, r3, r4};", 0, NULL },
    /* rejected at .f16 (the wording is another test's business) */
    { "9.0", "sm_100", "add.f16.f32 f1, h1, f2;", 5, "" },
    { "9.0", "sm_90a", "tensormap.replace.tile.elemtype.b32.shared::cta.b1024 [r1], 3;", 0, NULL },
    /* the first of two ordered slots no longer also takes the second's values */
    { "9.0", "sm_100a", "cvt.rn.f64.f64 fd1, fd2;", 5, "" },
    { "9.0", "sm_100a", "cvt.rni.f64.f64 fd1, fd2;", 0, NULL },
    { "9.0", "sm_100a", "cvt.ftz.f16.f16 h1, h2;", 5, "" },
    { "9.0", "sm_100a", "set.nan.f64.f64 r1, fd1, fd2;", 13, "" },
    { "9.0", "sm_100a", "set.nan.u32.f64 r1, fd1, fd2;", 0, NULL },
    { "9.0", "sm_100a", "cp.async.cg.global.global [r1], [rd1], 16;", 20, "" },
    { "9.0", "sm_100a", "cp.async.cg.global.shared [rd1], [r1], 16;", 20, "" },
    { "9.0", "sm_100a", "cp.async.cg.shared.global [r1], [rd1], 16;", 0, NULL },
    { "9.0", "sm_100a", "clusterlaunchcontrol.query_cancel.is_canceled.b128.b128 p1, q;", 52, "" },
    { "9.0", "sm_100a", "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p1, q;", 0, NULL },
    { "9.0", "sm_100a", "cp.async.bulk.shared::cta.shared::cluster.mbarrier::complete_tx::bytes [r1], [r2], 16, [r3];", 27, "" },
    /* .4d surfaces (ptxas's .1d_buffer) */
    { "9.0", "sm_90", "suld.b.4d.b32.trap {r1}, [s, {r2}];", 0, NULL },
    { "9.0", "sm_90", "sust.b.4d.b32.trap [s, {r2}], {r1};", 0, NULL },
    { "9.0", "sm_90", "sured.b.add.4d.u32.trap [s, {r2}], r1;", 0, NULL },
    { "4.2", "sm_30", "suld.b.4d.b32.trap {r1}, [s, {r2}];", 8, "" },
    /* operand kinds */
    { "9.0", "sm_90", "match.all.sync.b32 _, r3, r4;", 0, NULL },
    { "9.0", "sm_90", "match.any.sync.b32 _, r3, r4;", 21, "" },
    { "9.0", "sm_100a", "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p1, 1;", 0, NULL },
    { "9.0", "sm_90", "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [r1], [r2], 512, 16;", 0, NULL },
    { "9.0", "sm_90", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [r1], [rd2], 512, 16;", 0, NULL },
    /* not a misplaced cp.async: the operand count is what is wrong */
    { "9.0", "sm_90", "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [r1], [r2], 512, [r3], r4;", 2,
      "'cp' takes 4 operands, found 5 (form: cp.reduce.async.bulk.ss.shared::cta.mbarrier::complete_tx::bytes.add.type)" },
    /* a .bf16/.bf16x2 register may be written {b}, {b, b} or {b, b, b, b} */
    { "9.0", "sm_90", "add.bf16 h1, h2, {h3, h3};", 0, NULL },
    { "9.0", "sm_90", "cvt.rn.bf16.f32 {h1}, f4;", 0, NULL },
    { "9.0", "sm_90", "setp.eq.bf16 p1, {h1}, h2;", 0, NULL },
    { "9.0", "sm_90", "add.bf16 h1, h2, {h3, h3, h3};", 19, "operand 3 of 'add' must be a register" },
    { "9.0", "sm_90", "add.f16 h1, h2, {h3};", 18, "operand 3 of 'add' must be a register" },
    { "9.0", "sm_90", "cvt.rn.bf16x2.f32 r1, {f4}, f5;", 24, "" },
    { "9.0", "sm_90", "atom.global.add.noftz.bf16 h1, [rd1], {h2};", 40, "" },
    /* video selectors: where they may go and which */
    { "9.0", "sm_90", "vadd.s32.s32.s32 r1.h0, r2, r3;", 19,
      "operand 1 of 'vadd' takes no selector ('.h0')" },
    { "9.0", "sm_90", "vadd.s32.s32.s32 r1.h0, r2, r3, r4;", 0, NULL },
    { "9.0", "sm_90", "vadd.s32.s32.s32.add r1, r2, r3, r4.h0;", 35, "" },
    { "9.0", "sm_90", "vadd.s32.s32.s32.add r1, r2.b3, r3.h1, 5;", 0, NULL },
    { "9.0", "sm_90", "vadd.s32.s32.s32 r1, r2.b4, r3;", 23, "" },
    { "9.0", "sm_90", "vmad.s32.s32.s32 r1, r2, r3, r4.h0;", 31, "" },
    { "9.0", "sm_90", "vadd4.s32.s32.s32 r1.b10, r2.b3210, r3.b7654, r4;", 0, NULL },
    { "9.0", "sm_90", "vadd4.s32.s32.s32 r1.b01, r2, r3, r4;", 20, "" },
    { "9.0", "sm_90", "vadd4.s32.s32.s32 r1, r2.b012, r3, r4;", 24, "" },
    { "9.0", "sm_90", "vadd2.s32.s32.s32 r1.h10, r2.h10, r3.h32, r4;", 0, NULL },
    { "9.0", "sm_90", "vadd2.s32.s32.s32 r1, r2, r3, r4.h0;", 32, "" },
    /* words ptxas ignores (grammar/isa/ignored.isa) */
    { "9.0", "sm_90", "add.finite.s32 r1, r2, r3;", 0, NULL },
    { "9.0", "sm_90", "ld.global.box_dim.u32 r1, [rd1];", 0, NULL },
    { "9.0", "sm_90", "bra.uni.b8x16 $L;", 0, NULL },
    { "9.0", "sm_90", "add.rank.rank.s32 r1, r2, r3;", 10, "modifier '.rank' appears twice in 'add'" },
    { "9.0", "sm_90", "testp.finite.normal.f32 p1, f1;", 14, "" },
    { "9.0", "sm_90a", "tensormap.replace.tile.rank.elemtype.shared::cta.b1024.b32 [r1], 3;", 29, "" },
    /* outside call, (...) holds a constant expression */
    { "9.0", "sm_90", "add.u32 r1, r2, (1);", 0, NULL },
    { "9.0", "sm_90", "mov.u32 r1, (r2);", 15,
      "a name in parentheses: only 'call' takes a list (...) of names; elsewhere (...) holds a constant expression" },
    { "9.0", "sm_90", "add.u32 r1, r2, (1, 2);", 18,
      "only 'call' takes a list (...); elsewhere (...) holds one constant expression" },
    /* counts and masks ptxas also takes as a vector of 1, 2 or 4 (not 3) */
    { "9.0", "sm_90", "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r1], {r2, r3};", 0, NULL },
    { "9.0", "sm_90", "mbarrier.arrive_drop.shared::cta.b64 rd1, [r1], {r2};", 0, NULL },
    { "9.0", "sm_90", "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [r1], {r2, r3, r4};", 63, "" },
    { "9.0", "sm_90", "mbarrier.arrive.expect_tx.shared::cta.b64 rd1, [r1], {r2};", 55, "" },
    { "9.0", "sm_100a", "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [rd1], [r2], r3, {h1, h2};", 0, NULL },
    { "9.0", "sm_100a", "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [rd1], [r2], r3, {h1, h2, h3};", 71, "" },
    { "9.0", "sm_100a", "clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 r1, {q};", 0, NULL },
    { "9.0", "sm_100a", "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p1, {q};", 62, "" },
    /* sparsity metadata: a register, {e} or {e, e}; not four */
    { "9.0", "sm_90", "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {f1, f2, f3, f4}, {r1, r2}, {r3, r4}, {f5, f6, f7, f8}, {r5, r6}, 0x1;", 0, NULL },
    { "9.0", "sm_90", "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {f1, f2, f3, f4}, {r1, r2}, {r3, r4}, {f5, f6, f7, f8}, {r5, r6, r7, r8}, 0x1;", 113, "" },
    /* a predicate-only operand given a register declared with another type
     * (ptxas: "Arguments mismatch", "Predicate output expected") */
    { "9.0", "sm_90", "setp.eq.s32 r1, r2, r3;", 14,
      "operand 1 of 'setp' must be a predicate; 'r1' is not declared .pred" },
    { "9.0", "sm_90", "selp.b32 r1, r2, r3, r4;", 23,
      "operand 4 of 'selp' must be a predicate; 'r4' is not declared .pred" },
    { "9.0", "sm_90", "setp.eq.s32 p1|r1, r2, r3;", 14, "operand 1 of 'setp' must be predicates" },
    { "9.0", "sm_90", "not.pred p1, r1;", 15, "" },
    { "9.0", "sm_90", "setp.eq.s32 p2|p0, r2, r3;", 0, NULL },
    { "9.0", "sm_90", "and.pred p1, !p2, p0;", 0, NULL },
    /* and the other way: a predicate where only other registers go */
    { "9.0", "sm_90", "add.u32 r1, p1, r2;", 14,
      "operand 2 of 'add' cannot be a predicate ('p1' is declared .pred)" },
    { "9.0", "sm_90", "mov.u32 r1, p1;", 14, "" },
    { "9.0", "sm_90", "mov.pred p1, p2;", 0, NULL },
    { "9.0", "sm_90", "shfl.sync.bfly.b32 r1|p1, r2, 1, 31, -1;", 0, NULL },
    /* fuzzing found: trying a form whose slots take none of the modifiers
     * (.param::func) read a slot index never set (UBSan: out of bounds) */
    { "9.0", "sm_80", "st.param::func.b64 [rd1], rd2;", 0, NULL },
    { "9.0", "sm_80", "st.param::func.b64.b64 [rd1], rd2;", 20, "" },
};

START_TEST(found_instruction)
{
    const found_case *c = &cases[_i];
    char src[1024];
    /* no .address_size: PTX ISA 1.x modules have none */
    /* the surface s (line 3) and the .b128 register q (line 12) only where
     * the module may declare them (opaque types need PTX ISA 1.5, .b128
     * 8.3 and sm_70): older modules have blank lines there */
    bool b128 = strcmp(c->version, "8.3") >= 0 && atoi(c->target + 3) >= 70;
    snprintf(src, sizeof src,
             ".version %s\n.target %s\n%s\n.entry k\n{\n"
             "\t.reg .b32 r<9>;\n\t.reg .b64 rd<9>;\n\t.reg .pred p<3>;\n\t.reg .f32 f<9>;\n"
             "\t.reg .f64 fd<9>;\n\t.reg .b16 h<4>;\n\t%s\n$L:\n\t%s\n\tret;\n}\n",
             c->version, c->target, strcmp(c->version, "1.5") >= 0 ? ".global .surfref s;" : "",
             b128 ? ".reg .b128 q;" : "", c->stmt);
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    ptx_status st = ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    char msg[512] = "";
    ptx_position at = { 0, 0 };
    if (d) {
        snprintf(msg, sizeof msg, "%s", d->message);
        at = ptx_context_position(ctx, d->span.off);
    }
    ptx_context_free(ctx);
    if (!c->message) {
        ck_assert_msg(st == PTX_OK, "'%s' (%s, %s) rejected: %s", c->stmt, c->version, c->target,
                      msg);
        return;
    }
    ck_assert_msg(st == PTX_ERR_INPUT, "'%s' (%s, %s) accepted", c->stmt, c->version, c->target);
    if (c->message[0])
        ck_assert_str_eq(msg, c->message);
    ck_assert_uint_eq(at.line, 14);
    ck_assert_uint_eq(at.col, c->col);
}
END_TEST

/* A misspelt call head over several lines: ptxas fails on the line of the
 * first argument name, not on the opcode's. */
START_TEST(misspelt_call_head)
{
    const char *src = ".version 9.0\n.target sm_90\n.address_size 64\n"
                      ".func f(.param .b64 a) { ret; }\n.visible .entry k()\n{\n"
                      "\t.param .b64 param0;\n\tCALL.uni\n\tf,\n\t(\n\tparam0\n\t);\n\tret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ptx_position at = ptx_context_position(ctx, d->span.off);
    ck_assert_uint_eq(at.line, 11);
    ck_assert_uint_eq(at.col, 2);
    ptx_context_free(ctx);
}
END_TEST

/* The memo of accepted instruction shapes must tell selectors and vector
 * contents apart: a valid instruction first, then its invalid twins. */
START_TEST(memo_keeps_selectors_apart)
{
    const char *src = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                      "\t.reg .b32 r<5>;\n\t.reg .b16 h<5>;\n"
                      "\tvadd.s32.s32.s32 r1, r2.b1, r3;\n"       /* 8: accepted */
                      "\tvadd.s32.s32.s32 r1, r2.b4, r3;\n"       /* 9 */
                      "\tadd.bf16 h1, h2, {h3};\n"                /* 10: accepted */
                      "\tadd.bf16 h1, h2, {1};\n"                 /* 11 */
                      "\tret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 2);
    ck_assert_uint_eq(ptx_context_position(ctx, ptx_diag_get(ctx, 0)->span.off).line, 9);
    ck_assert_uint_eq(ptx_context_position(ctx, ptx_diag_get(ctx, 1)->span.off).line, 11);
    ptx_context_free(ctx);
}
END_TEST

static bool has(const ptx_modifier *mods, size_t n, const char *word)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(ptx_modifier_name(mods[i]), word) == 0)
            return true;
    return false;
}

/* The modifiers an opcode takes, by category, each once. */
START_TEST(opcode_modifiers)
{
    ptx_modifier mods[256];
    size_t n = ptx_opcode_modifiers("add", PTX_CAT_ROUNDING, mods, 256);
    ck_assert_uint_eq(n, 4);
    ck_assert(has(mods, n, ".rn") && has(mods, n, ".rz") && has(mods, n, ".rm") &&
              has(mods, n, ".rp"));
    n = ptx_opcode_modifiers("mul", PTX_CAT_NONE, mods, 256);
    ck_assert(has(mods, n, ".wide") && has(mods, n, ".hi") && has(mods, n, ".lo"));
    ck_assert(!has(mods, n, ".s32"));
    n = ptx_opcode_modifiers("ld", PTX_CAT_SPACE, mods, 256);
    ck_assert(has(mods, n, ".global") && has(mods, n, ".shared::cluster"));
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            ck_assert_uint_ne(mods[i], mods[j]);
    /* the count is the whole, whatever max is */
    ck_assert_uint_eq(ptx_opcode_modifiers("ld", PTX_CAT_SPACE, mods, 1), n);
    ck_assert_uint_eq(ptx_opcode_modifiers("ld", PTX_CAT_SPACE, NULL, 0), n);
    ck_assert_uint_eq(ptx_opcode_modifiers("nosuchop", PTX_CAT_TYPE, mods, 256), 0);
    ck_assert_uint_eq(ptx_opcode_modifiers(NULL, PTX_CAT_TYPE, mods, 256), 0);
    ck_assert_uint_eq(ptx_opcode_modifiers("exit", PTX_CAT_TYPE, mods, 256), 0);
}
END_TEST

Suite *found_suite(void)
{
    Suite *s = suite_create("found");
    TCase *tc = tcase_create("found");
    tcase_add_loop_test(tc, found_instruction, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, misspelt_call_head);
    tcase_add_test(tc, memo_keeps_selectors_apart);
    tcase_add_test(tc, opcode_modifiers);
    suite_add_tcase(s, tc);
    return s;
}
