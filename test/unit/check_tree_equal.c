/* The field-by-field comparator of two parses (test/tree_equal.c): equal
 * trees of the same text, either way of parsing; and for each field, two
 * texts that differ in that field alone, reported unequal with the exact
 * path and field, so that a comparator that skipped the field fails its
 * case (it would find the trees equal, or differing elsewhere). */
#include <string.h>

#include "check_suites.h"
#include "tree_equal.h"

/* A kernel with registers of each kind; the body starts on line 10. */
#define KERNEL(body)                                                                   \
    TEST_HDR ".visible .entry k()\n{\n.reg .b32 %r<9>;\n.reg .b64 %rd<9>;\n"           \
             ".reg .f64 %fd<4>;\n.reg .pred %p<3>;\n" body "}\n"

/* A module with every kind of node, parsed both ways in the first test. */
static const char every_kind[] =
    ".version 9.0\n.target sm_90, debug\n.address_size 64\n"
    ".file 1 \"a.cu\", 1700000000, 42\n"
    ".global .align 8 .b32 g[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
    ".global .u64 p = generic(g);\n"
    ".extern .func (.param .b32 r) f (.param .b32 a, .param .b64 b);\n"
    ".func h () { ret; }\n"
    ".alias h2, h;\n"
    ".pragma \"nounroll\";\n"
    ".visible .entry k(.param .u64 .ptr .global .align 16 a)\n"
    ".maxntid 128, 1, 1\n.minnctapersm 2\n"
    "{\n"
    ".reg .b32 %r<9>;\n.reg .b64 %rd<9>;\n.reg .f64 %fd<4>;\n.reg .f32 %f<4>;\n.reg .pred %p<3>;\n"
    ".local .align 4 .b8 buf[16];\n"
    "$L_t: .branchtargets L1, L2;\n"
    "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    ".loc 1 7 3\n"
    "ld.param.u64 %rd1, [a];\n"
    "add.s32 %r1, %r2, -(3 + 4) * 2;\n"
    "mov.f64 %fd1, 0d3FF0000000000000;\n"
    "mov.f32 %f1, 0f3F800000;\n"
    "mov.f64 %fd2, 1.5;\n"
    "setp.lt.s32 %p1, %r1, 0x10;\n"
    "@!%p1 bra L2;\n"
    "{ .reg .b32 %t; mov.b32 %t, %r1; }\n"
    "L1:\n"
    "ld.global.v2.b32 {%r3, %r4}, [%rd1+8];\n"
    "L2:\n"
    ".loc 1 8 1, function_name $Lf, inlined_at 1 7 3\n"
    "ret;\n"
    "}\n"
    ".section .debug_str\n{\n"
    "$L1:\n"
    ".b8 1, 2, 3\n.b8 4\n.b16 300\n.b32 70000\n.b64 $L1\n.b8 5,6\n"
    ".b32 $L1\n"
    "}\n";

static const ptx_module *parse(ptx_context **ctx, const char *text, bool fast_lane)
{
    *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(*ctx);
    ptx_context_set_fast_lane(*ctx, fast_lane);
    const ptx_module *m = NULL;
    ptx_parse_buffer(*ctx, "t.ptx", text, strlen(text), &m);
    return m;
}

/* _i: 0 both with the fast lane, 1 both without, 2 with against without
 * (the data section is then a run against single lines) */
enum { LANE_PAIRS = 3 };

START_TEST(same_text_equal)
{
    ptx_context *a, *b;
    const ptx_module *ma = parse(&a, every_kind, _i != 1);
    const ptx_module *mb = parse(&b, every_kind, _i == 0);
    ck_assert_ptr_nonnull(ma);
    char why[512] = "unset";
    bool eq = ptx_tree_equal(a, ma, b, mb, why, sizeof why);
    ck_assert_msg(eq, "unequal: %s", why);
    ck_assert_str_eq(why, "");
    ck_assert(ptx_diags_equal(a, b, why, sizeof why));
    /* the module is what the test means it to be: every kind of node */
    unsigned seen = 0;
    for (const ptx_node *n = ma->first; n; n = n->next) {
        seen |= 1u << n->kind;
        if (n->kind == PTX_NODE_FUNC && ((const ptx_func *)n)->body)
            for (const ptx_node *s = ((const ptx_func *)n)->body->first; s; s = s->next)
                seen |= 1u << s->kind;
        if (n->kind == PTX_NODE_SECTION)
            for (const ptx_node *s = ((const ptx_section *)n)->first; s; s = s->next)
                seen |= 1u << s->kind;
    }
    unsigned want = ((1u << PTX_NODE_COUNT) - 1) & ~(1u << PTX_NODE_DWARF) & ~(1u << PTX_NODE_TARGET);
    ck_assert_msg((seen & want) == want, "node kinds seen 0x%x, want 0x%x", seen, want);
    ck_assert_uint_eq(ptx_diag_count(a), 0);
    ptx_context_free(a);
    ptx_context_free(b);
}
END_TEST

/* Two texts that differ in one field, how each is parsed, and the exact
 * difference reported. */
typedef struct diff_case {
    const char *field;
    const char *a, *b;
    bool fast_a, fast_b;
    const char *why;
} diff_case;

static const diff_case diff_cases[] = {
    { "integer operand", KERNEL("add.s32 %r1, %r2, 1;\n"), KERNEL("add.s32 %r1, %r2, 2;\n"), true, true,
      "function 'k', statement 5 (line 10), operand 3: value 1 vs 2" },
    { "register name", KERNEL("add.s32 %r1, %r2, 1;\n"), KERNEL("add.s32 %r1, %r3, 1;\n"), true, false,
      "function 'k', statement 5 (line 10), operand 2: name '%r2' vs '%r3'" },
    { "operand span", KERNEL("add.s32 %r1, %r2,  1;\n"), KERNEL("add.s32 %r1,  %r2, 1;\n"), true, true,
      "function 'k', statement 5 (line 10), operand 2: span 150+3 vs 151+3" },
    { "modifier", KERNEL("add.s32 %r1, %r2, 1;\n"), KERNEL("add.u32 %r1, %r2, 1;\n"), true, true,
      "function 'k', statement 5 (line 10), modifier 1 '.s32': name '.s32' vs '.u32'" },
    { "opcode", KERNEL("foo.s32 %r1, %r2, 1;\n"), KERNEL("bar.s32 %r1, %r2, 1;\n"), false, false,
      "function 'k', statement 5 (line 10), opcode: name 'foo' vs 'bar'" },
    { "family", KERNEL("min.s32 %r1, %r2, 1;\n"), KERNEL("max.s32 %r1, %r2, 1;\n"), false, false,
      "function 'k', statement 5 (line 10): family 81 vs 71" },
    { "statement span", KERNEL("ret; \n"), KERNEL(" ret;\n"), true, true,
      "function 'k', statement 5 (line 10): span 137+3 vs 138+3" },
    { "binary operator", KERNEL("add.s32 %r1, %r2, 1+2;\n"), KERNEL("add.s32 %r1, %r2, 1-2;\n"), true, true,
      "function 'k', statement 5 (line 10), operand 3: op 8 vs 9" },
    { "nested item", KERNEL("ld.b32 %r1, [%rd1+8];\n"), KERNEL("ld.b32 %r1, [%rd1+9];\n"), true, true,
      "function 'k', statement 5 (line 10), operand 2, item 1, item 2: value 8 vs 9" },
    { "float bits", KERNEL("mov.f64 %fd1, 1.5;\n"), KERNEL("mov.f64 %fd1, 2.5;\n"), true, false,
      "function 'k', statement 5 (line 10), operand 2: value 1.5 (0x3ff8000000000000) vs 2.5 (0x4004000000000000)" },
    { "hex float", KERNEL("mov.f64 %fd1, 0d3FF0000000000000;\n"), KERNEL("mov.f64 %fd1, 0d3FF0000000000001;\n"), true, true,
      "function 'k', statement 5 (line 10), operand 2: value 4607182418800017408 vs 4607182418800017409" },
    { "integer spelling", KERNEL("add.s32 %r1, %r2, 0x10;\n"), KERNEL("add.s32 %r1, %r2, 0020;\n"), true, true,
      "function 'k', statement 5 (line 10), operand 3: flags 1 vs 2" },
    { "guard", KERNEL("@%p1 ret;\n"), KERNEL("@%p2 ret;\n"), true, true,
      "function 'k', statement 5 (line 10), guard: name '%p1' vs '%p2'" },
    { "guard negation", KERNEL("@!%p1 ret;\n"), KERNEL("@%p1  ret;\n"), true, true,
      "function 'k', statement 5 (line 10): guard_neg 1 vs 0" },
    { "register range", KERNEL(".reg .b32 %q<4>;\n"), KERNEL(".reg .b32 %q<5>;\n"), true, true,
      "function 'k', statement 5 (line 10), variable 1 '%q': range 4 vs 5" },
    { "alignment", TEST_HDR ".global .align 4 .b32 g;\n", TEST_HDR ".global .align 8 .b32 g;\n", true, true,
      "module item 1 (line 4): align 4 vs 8" },
    { "array dimension", TEST_HDR ".global .b32 g[3];\n", TEST_HDR ".global .b32 g[4];\n", true, true,
      "module item 1 (line 4), variable 1 'g', dimension 1: size 3 vs 4" },
    { "initialiser", TEST_HDR ".global .b32 g = 3;\n", TEST_HDR ".global .b32 g = 4;\n", true, true,
      "module item 1 (line 4), variable 1 'g', initialiser: value 3 vs 4" },
    { "function name", TEST_HDR ".func f () { ret; }\n", TEST_HDR ".func g () { ret; }\n", true, true,
      "function 'f': name 'f' vs 'g'" },
    { "parameter", TEST_HDR ".func f (.param .b32 a) { ret; }\n", TEST_HDR ".func f (.param .u32 a) { ret; }\n", true, true,
      "function 'f', parameter 1 (line 4): type 15 vs 7" },
    { "performance directive", TEST_HDR ".entry k .maxntid 64 { ret; }\n", TEST_HDR ".entry k .maxntid 65 { ret; }\n", true, true,
      "function 'k', directive 1 (line 4): vals[0] 64 vs 65" },
    { "label", KERNEL("L1:\nret;\n"), KERNEL("L2:\nret;\n"), true, false,
      "function 'k', statement 5 (line 10): name 'L1' vs 'L2'" },
    { ".loc column", KERNEL(".loc 1 2 3\nret;\n"), KERNEL(".loc 1 2 4\nret;\n"), true, true,
      "function 'k', statement 5 (line 10): column 3 vs 4" },
    { ".loc inlined_at", KERNEL(".loc 1 2 3, function_name f, inlined_at 1 5 6\nret;\n"),
      KERNEL(".loc 1 2 3, function_name f, inlined_at 1 5 7\nret;\n"), true, false,
      "function 'k', statement 5 (line 10): inlined_at column 6 vs 7" },
    { ".pragma", TEST_HDR ".pragma \"a\";\n", TEST_HDR ".pragma \"b\";\n", true, true,
      "module item 1 (line 4), string 1: text 'a' vs 'b'" },
    { ".file", TEST_HDR ".file 1 \"a.cu\"\n", TEST_HDR ".file 2 \"a.cu\"\n", true, true,
      "module item 1 (line 4): index 1 vs 2" },
    { ".alias", TEST_HDR ".func f () { ret; }\n.func g () { ret; }\n.alias h, f;\n",
      TEST_HDR ".func f () { ret; }\n.func g () { ret; }\n.alias h, g;\n", true, true,
      "module item 3 (line 6): aliasee 'f' vs 'g'" },
    { "call prototype", KERNEL("p: .callprototype _ (.param .b32 _);\n"), KERNEL("p: .callprototype _ (.param .b64 _);\n"), true, true,
      "function 'k', statement 5 (line 10), parameter 1 (line 10): type 15 vs 16" },
    { "branch targets", KERNEL("t: .branchtargets L1, L2;\nL1:\nL2:\nret;\n"), KERNEL("t: .branchtargets L2, L1;\nL1:\nL2:\nret;\n"), true, true,
      "function 'k', statement 5 (line 10), target 1: name 'L1' vs 'L2'" },
    { "block", KERNEL("{ ret; }\n"), KERNEL("{  ret;}\n"), true, true,
      "function 'k', statement 5 (line 10), statement 1 (line 10): span 139+3 vs 140+3" },
    { "selector", KERNEL("mov.u32 %r1, %tid.x;\n"), KERNEL("mov.u32 %r1, %tid.y;\n"), true, false,
      "function 'k', statement 5 (line 10), operand 2: selector '.x' vs '.y'" },
    { "range count", KERNEL("t: .branchtargets N<5>;\nret;\n"), KERNEL("t: .branchtargets N<6>;\nret;\n"), true, true,
      "function 'k', statement 5 (line 10), target 1: count 5 vs 6" },
    { "range name", KERNEL("t: .branchtargets M<5>;\nret;\n"), KERNEL("t: .branchtargets N<5>;\nret;\n"), true, true,
      "function 'k', statement 5 (line 10), target 1: name 'M' vs 'N'" },
    { "vector items", KERNEL("mov.b64 %rd1, {%r1,%r2};\n"), KERNEL("mov.b64 %rd1, {%r12345};\n"), true, true,
      "function 'k', statement 5 (line 10), operand 2: items 2 vs 1" },
    { "variable name", TEST_HDR ".global .b32 g;\n", TEST_HDR ".global .b32 h;\n", true, true,
      "module item 1 (line 4), variable 1 'g': name 'g' vs 'h'" },
    { "variable span", TEST_HDR ".global .b32 g , h[2];\n", TEST_HDR ".global .b32 g, h [2];\n", true, true,
      "module item 1 (line 4), variable 2 'h': span 61+4 vs 60+5" },
    { "dimensions", TEST_HDR ".global .b32 g[1][2];\n", TEST_HDR ".global .b32 g[1234];\n", true, true,
      "module item 1 (line 4), variable 1 'g': dimensions 2 vs 1" },
    { "variables", TEST_HDR ".global .b32 ggg;\n", TEST_HDR ".global .b32 g,h;\n", true, true,
      "module item 1 (line 4): variables 1 vs 2" },
    { "linkage", TEST_HDR ".visible .global .b32 g;\n", TEST_HDR ".weak    .global .b32 g;\n", true, true,
      "module item 1 (line 4): linkage 2 vs 3" },
    { "state space", TEST_HDR ".global .b32 g;\n", TEST_HDR ".shared .b32 g;\n", true, true,
      "module item 1 (line 4): space 4 vs 7" },
    { "vector width", TEST_HDR ".global .v2 .b32 g;\n", TEST_HDR ".global .v4 .b32 g;\n", true, true,
      "module item 1 (line 4): vec 2 vs 4" },
    { ".ptr space", TEST_HDR ".entry k (.param .u64 .ptr .global .align 16 a) { ret; }\n",
      TEST_HDR ".entry k (.param .u64 .ptr .shared .align 16 a) { ret; }\n", true, true,
      "function 'k', parameter 1 (line 4): ptr_space 4 vs 7" },
    { ".ptr alignment", TEST_HDR ".entry k (.param .u64 .ptr .global .align 16 a) { ret; }\n",
      TEST_HDR ".entry k (.param .u64 .ptr .global .align 32 a) { ret; }\n", true, true,
      "function 'k', parameter 1 (line 4): ptr_align 16 vs 32" },
    { "unified attribute", TEST_HDR ".global .attribute(.unified(1, 2)) .b32 g;\n",
      TEST_HDR ".global .attribute(.unified(1, 3)) .b32 g;\n", true, true,
      "module item 1 (line 4): unified[1] 2 vs 3" },
    { "directive kind", TEST_HDR ".entry k .maxntid 64 { ret; }\n", TEST_HDR ".entry k .reqntid 64 { ret; }\n", true, true,
      "function 'k', directive 1 (line 4): kind 1 vs 2" },
    { "directive values", TEST_HDR ".entry k .maxntid 6,4 { ret; }\n", TEST_HDR ".entry k .maxntid 64  { ret; }\n", true, true,
      "function 'k', directive 1 (line 4): nvals 2 vs 1" },
    { "directive span", TEST_HDR ".entry k .maxntid 64  { ret; }\n", TEST_HDR ".entry k  .maxntid 64 { ret; }\n", true, true,
      "function 'k', directive 1 (line 4): span 53+11 vs 54+11" },
    { "parameters", TEST_HDR ".func f (.param .b32 a,.param .b32 b) { ret; }\n",
      TEST_HDR ".func f (.param .b32 abcdefghijklmno) { ret; }\n", true, true,
      "function 'f': parameters 2 vs 1" },
    { "modifiers", KERNEL("add.s32 %r1, %r2, %r3;\n"), KERNEL("add.sat.s32 %r1,%r2,1;\n"), true, false,
      "function 'k', statement 5 (line 10): modifiers 1 vs 2" },
    { "operands", KERNEL("foo.b32 %r1, %r22;\n"), KERNEL("foo.b32 %r1,%r2,1;\n"), true, true,
      "function 'k', statement 5 (line 10): operands 2 vs 3" },
    { "run word", TEST_HDR ".section .debug_str\n{\n.b16 300\n}\n", TEST_HDR ".section .debug_str\n{\n.b32 300\n}\n", true, true,
      "module item 1 (line 4), section item 1 (line 6): word '.b16' vs '.b32'" },
    { "run count", TEST_HDR ".section .debug_str\n{\n.b8 1,2\n}\n", TEST_HDR ".section .debug_str\n{\n.b8 123\n}\n", true, true,
      "module item 1 (line 4), section item 1 (line 6): count 2 vs 1" },
    { "run width", TEST_HDR ".section .debug_str\n{\n.b16 255\n}\n", TEST_HDR ".section .debug_str\n{\n.b16 256\n}\n", true, true,
      "module item 1 (line 4), section item 1 (line 6): width 1 vs 2" },
    { "run labels", TEST_HDR ".section .debug_str\n{\n$La:\n.b8 1\n.b64 $La\n}\n", TEST_HDR ".section .debug_str\n{\n$La:\n.b8 1\n.b64 123\n}\n", true, true,
      "module item 1 (line 4), section item 2 (line 7): labels 1 vs 0" },
    { "data word", TEST_HDR ".section .debug_str\n{\n.byte 1\n}\n", TEST_HDR ".section .debug_str\n{\n.quad 1\n}\n", true, true,
      "module item 1 (line 4), section item 1 (line 6): word '.byte' vs '.quad'" },
    { "data values", TEST_HDR ".section .debug_str\n{\n.byte 1,2\n}\n", TEST_HDR ".section .debug_str\n{\n.byte 123\n}\n", true, true,
      "module item 1 (line 4), section item 1 (line 6): values 2 vs 1" },
    { "data values, a line against a run", TEST_HDR ".section .debug_str\n{\n.b8 0x1,2\n}\n", TEST_HDR ".section .debug_str\n{\n.b8 12345\n}\n", true, true,
      "module item 1 (line 4), section item 1 (line 6), line 1: values 2 vs 1" },
    { "entry or function", TEST_HDR ".entry k { ret; }\n", TEST_HDR ".func  k { ret; }\n", true, true,
      "function 'k': is_entry 1 vs 0" },
    { "function linkage", TEST_HDR ".visible .func f () { ret; }\n", TEST_HDR ".weak    .func f () { ret; }\n", true, true,
      "function 'f': linkage 2 vs 3" },
    { "parameter list written", TEST_HDR ".func f  { ret; }\n", TEST_HDR ".func f(){ ret; }\n", true, true,
      "function 'f': has_params 0 vs 1" },
    { "return list written", TEST_HDR ".func () f () { ret; }\n", TEST_HDR ".func    f () { ret; }\n", true, true,
      "function 'f': has_ret 1 vs 0" },
    { "depth", KERNEL("add.s32 %r1, %r2, 1+2*3;\n"), KERNEL("add.s32 %r1, %r2, 1+234;\n"), true, true,
      "function 'k', statement 5 (line 10), operand 3: depth 3 vs 2" },
    { "address suffix", KERNEL("ld.b32 %r1, [%rd1].unified;\n"), KERNEL("ld.b32 %r1, [%rd1].uniform;\n"), true, false,
      "function 'k', statement 5 (line 10), operand 2: suffix '.unified' vs '.uniform'" },
    { "register range written", KERNEL(".reg .b32 %q<4>;\n"), KERNEL(".reg .b32 %q[4];\n"), true, true,
      "function 'k', statement 5 (line 10), variable 1 '%q': has_range 1 vs 0" },
    { "unsized array", TEST_HDR ".extern .global .b32 g [];\n", TEST_HDR ".extern .global .b32 g[0];\n", true, true,
      "module item 1 (line 4), variable 1 'g': unsized 1 vs 0" },
    { "module version", ".version 9.0\n.target sm_90\n", ".version 8.8\n.target sm_90\n", true, true,
      "module header: version_major 9 vs 8" },
    { "module target", ".version 9.0\n.target sm_90\n", ".version 9.0\n.target sm_89\n", true, true,
      "module header, target 1: text 'sm_90' vs 'sm_89'" },
    { "data value, runs", TEST_HDR ".section .debug_str\n{\n.b8 1, 2\n.b8 3\n}\n",
      TEST_HDR ".section .debug_str\n{\n.b8 1, 2\n.b8 4\n}\n", true, true,
      "module item 1 (line 4), section item 1 (line 6): packed values differ" },
    { "data value, lines", TEST_HDR ".section .debug_str\n{\n.b8 0x3\n}\n",
      TEST_HDR ".section .debug_str\n{\n.b8 0x4\n}\n", true, false,
      "module item 1 (line 4), section item 1 (line 6), value 1: value 3 vs 4" },
    { "data value, a line against a run", TEST_HDR ".section .debug_str\n{\n.b8 03\n}\n",
      TEST_HDR ".section .debug_str\n{\n.b8 33\n}\n", true, false,
      "module item 1 (line 4), section item 1 (line 6), line 1, value 1: the run's value 33 vs the first tree's expression int 3 (flags 2)" },
    { "data word, a line against a run", TEST_HDR ".section .debug_str\n{\n.b32 01\n}\n",
      TEST_HDR ".section .debug_str\n{\n.b64 11\n}\n", true, false,
      "module item 1 (line 4), section item 1 (line 6), line 1: word '.b32' vs '.b64'" },
    { "data label", TEST_HDR ".section .debug_str\n{\n$La:\n$Lb:\n.b8 1\n.b64 $La\n}\n",
      TEST_HDR ".section .debug_str\n{\n$La:\n$Lb:\n.b8 1\n.b64 $Lb\n}\n", false, true,
      "module item 1 (line 4), section item 3 (line 8): label 1: value 2 '$La' vs value 2 '$Lb'" },
    { "data lines of a run", TEST_HDR ".section .debug_str\n{\n.b8 1\n.b8 2\n}\n",
      TEST_HDR ".section .debug_str\n{\n.b8 1,    2\n}\n", true, false,
      "module item 1 (line 4), section item 1 (line 6): lines 2 vs 1" },
};

START_TEST(one_field_differs)
{
    const diff_case *c = &diff_cases[_i];
    ptx_context *a, *b;
    const ptx_module *ma = parse(&a, c->a, c->fast_a);
    const ptx_module *mb = parse(&b, c->b, c->fast_b);
    ck_assert_msg(ma && mb, "%s: no module", c->field);
    char why[512] = "unset";
    bool eq = ptx_tree_equal(a, ma, b, mb, why, sizeof why);
    ck_assert_msg(!eq, "%s: reported equal", c->field);
    ck_assert_msg(strcmp(why, c->why) == 0, "%s: why is\n  '%s', expected\n  '%s'", c->field, why, c->why);
    /* either text against itself, the other way, is equal */
    ptx_context *a2;
    const ptx_module *ma2 = parse(&a2, c->a, !c->fast_a);
    ck_assert_msg(ptx_tree_equal(a, ma, a2, ma2, why, sizeof why), "%s: unequal to itself: %s",
                  c->field, why);
    ptx_context_free(a);
    ptx_context_free(a2);
    ptx_context_free(b);
}
END_TEST

/* Diagnostics: each field of a diagnostic, and their number. */
typedef struct diag_case {
    const char *field;
    const char *a, *b;
    const char *why;
} diag_case;

static const diag_case diag_cases[] = {
    { "count", KERNEL("ret;\n"), KERNEL("add.s32 %r1, %r2, %x;\n"),
      "diagnostics 0 vs 1" },
    { "message", KERNEL("add.s32 %r1, %r2, %x;\n"), KERNEL("add.s32 %r1, %r2, %y;\n"),
      "diagnostic 1 (line 10): message 'unknown symbol '%x'' vs 'unknown symbol '%y''" },
    { "span", KERNEL("add.s32 %r1, %r2, %x;\n"), KERNEL("add.s32 %r1, %x, %r2;\n"),
      "diagnostic 1 (line 10): span 155+2 vs 150+2" },
    { "code", KERNEL("add.s32 %r1, %r2, %x;\n"), KERNEL("add.s32 %r1, %r2, 1 +;\n"),
      "diagnostic 1 (line 10): code 14 vs 1" },
    { "severity", ".version 2.3\n.target sm_20\n.reg .b32 r;\n", ".version 3.0\n.target sm_20\n.reg .b32 r;\n",
      "diagnostic 1 (line 3): severity 1 vs 2" },
};

START_TEST(diagnostics_differ)
{
    const diag_case *c = &diag_cases[_i];
    ptx_context *a, *b;
    parse(&a, c->a, true);
    parse(&b, c->b, false);
    char why[512] = "unset";
    bool eq = ptx_diags_equal(a, b, why, sizeof why);
    ck_assert_msg(!eq, "%s: reported equal", c->field);
    ck_assert_msg(strcmp(why, c->why) == 0, "%s: why is\n  '%s', expected\n  '%s'", c->field, why,
                  c->why);
    ptx_context *a2;
    parse(&a2, c->a, false);
    ck_assert_msg(ptx_diags_equal(a, a2, why, sizeof why), "%s: unequal to itself: %s", c->field, why);
    ptx_context_free(a);
    ptx_context_free(a2);
    ptx_context_free(b);
}
END_TEST

/* why is cut to its room, NUL-terminated; NULL is allowed */
START_TEST(why_truncated)
{
    ptx_context *a, *b;
    const ptx_module *ma = parse(&a, KERNEL("add.s32 %r1, %r2, 1;\n"), true);
    const ptx_module *mb = parse(&b, KERNEL("add.s32 %r1, %r2, 2;\n"), true);
    char why[16];
    memset(why, 'x', sizeof why);
    ck_assert(!ptx_tree_equal(a, ma, b, mb, why, 10));
    ck_assert_str_eq(why, "function ");
    ck_assert(why[10] == 'x');
    ck_assert(!ptx_tree_equal(a, ma, b, mb, NULL, 0));
    ck_assert(!ptx_tree_equal(a, ma, b, NULL, why, sizeof why));
    ck_assert(ptx_tree_equal(a, NULL, b, NULL, why, sizeof why));
    ptx_context_free(a);
    ptx_context_free(b);
}
END_TEST

Suite *tree_equal_suite(void)
{
    Suite *s = suite_create("tree_equal");
    TCase *tc = tcase_create("tree_equal");
    tcase_add_loop_test(tc, same_text_equal, 0, LANE_PAIRS);
    tcase_add_loop_test(tc, one_field_differs, 0, (int)(sizeof diff_cases / sizeof diff_cases[0]));
    tcase_add_loop_test(tc, diagnostics_differ, 0, (int)(sizeof diag_cases / sizeof diag_cases[0]));
    tcase_add_test(tc, why_truncated);
    suite_add_tcase(s, tc);
    return s;
}
