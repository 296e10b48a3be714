/* Suite "grammar": the constructs of LANGUAGE.md (module, declarations,
 * functions, statements, operands) are accepted and built into the right
 * tree; each check of the builders (src/build_*.c) rejects what it is
 * for; spans, interning, deep nesting, the error limit and error
 * recovery. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "fastlane.h"
#include "internal.h"
#include "ptx/ptx.h"

#define HDR TEST_HDR

/* This suite is about the syntax: instructions are checked against the
 * tables in check_isa.c, not here. */
static const ptx_module *parse_text(ptx_context **ctx, const char *text, size_t len)
{
    return test_parse_text(ctx, text, len, false);
}

/* Parses `body` as the body of the kernel k; the body starts on line 6. */
static const ptx_module *parse(ptx_context **ctx, const char *body)
{
    return test_parse_body(ctx, body, false);
}

/* A whole module when `src` starts with ".version", else a kernel body. */
static const ptx_module *parse_any(ptx_context **ctx, const char *src)
{
    if (strncmp(src, ".version", 8) == 0)
        return parse_text(ctx, src, strlen(src));
    return parse(ctx, src);
}

static const char *first_message(const ptx_context *ctx)
{
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    return d ? d->message : "(none)";
}

/* ---- output to memory ---------------------------------------------------- */


static int count_write(void *user, const char *data, size_t len)
{
    (void)data;
    *(size_t *)user += len;
    return 0;
}

/* The tree without locations, malloc'd. */
static char *tree_text(const ptx_module *m)
{
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_tree(NULL, m, PTX_PRINT_NO_LOCATIONS, test_buf_write, &b), PTX_OK);
    ck_assert_ptr_nonnull(b.p);
    return b.p;
}

/* ---- tree access -------------------------------------------------------- */

static const ptx_func *kernel(const ptx_module *m)
{
    ck_assert_ptr_nonnull(m);
    const ptx_node *n = m->first;
    while (n && n->kind != PTX_NODE_FUNC)
        n = n->next;
    ck_assert_ptr_nonnull(n);
    return (const ptx_func *)n;
}

/* The i-th statement of the kernel body. */
static const ptx_node *stmt_at(const ptx_module *m, unsigned i)
{
    const ptx_func *f = kernel(m);
    ck_assert_ptr_nonnull(f->body);
    const ptx_node *n = f->body->first;
    while (n && i--)
        n = n->next;
    ck_assert_ptr_nonnull(n);
    return n;
}

static const ptx_instr *instr_at(const ptx_module *m, unsigned i)
{
    const ptx_node *n = stmt_at(m, i);
    ck_assert_int_eq(n->kind, PTX_NODE_INSTR);
    return (const ptx_instr *)n;
}

/* Parses one instruction (no diagnostics allowed) and returns it. */
static const ptx_instr *one_instr(ptx_context **ctx, const char *body)
{
    const ptx_module *m = parse(ctx, body);
    ck_assert_msg(ptx_diag_count(*ctx) == 0, "'%s': %s", body, first_message(*ctx));
    return instr_at(m, 0);
}

static void assert_sym(const ptx_expr *e, const char *name, const char *sel)
{
    ck_assert_int_eq(e->kind, PTX_EXPR_SYM);
    ck_assert_str_eq(ptx_expr_name(e)->text, name);
    if (sel) {
        ck_assert_ptr_nonnull(ptx_expr_sel(e));
        ck_assert_str_eq(ptx_expr_sel(e)->text, sel);
    } else {
        ck_assert_ptr_null(ptx_expr_sel(e));
    }
}

static void assert_int(const ptx_expr *e, uint64_t v)
{
    ck_assert_int_eq(e->kind, PTX_EXPR_INT);
    ck_assert_uint_eq(ptx_expr_int(e), v);
}

/* ======================================================================== */
/* Accepted constructs: each parses without any diagnostic and the tree
 * (printed without locations) contains `want`. */

typedef struct accept_case {
    const char *name;
    const char *src;        /* a module, or a kernel body */
    const char *want;
} accept_case;

static const accept_case accepts[] = {
    /* header */
    { "target list", ".version 9.0\n.target sm_90a, texmode_independent, debug\n.address_size 64\n",
      "module .version 9.0 .target sm_90a, texmode_independent, debug .address_size 64\n" },
    { "compute target", ".version 9.0\n.target compute_90\n.address_size 64\n",
      "module .version 9.0 .target compute_90 .address_size 64\n" },
    { "no address_size", ".version 9.0\n.target sm_90\n.global .b32 x;\n",
      "module .version 9.0 .target sm_90\n  decl .global .b32 x\n" },
    { "version 9.00", ".version 9.00\n.target sm_90\n", "module .version 9.0 .target sm_90\n" },
    { "old version and target", ".version 1.4\n.target sm_10, map_f64_to_f32\n",
      "module .version 1.4 .target sm_10, map_f64_to_f32\n" },
    { "texmode_unified", ".version 9.0\n.target sm_100a, texmode_unified\n.address_size 64\n",
      ".target sm_100a, texmode_unified .address_size 64\n" },
    { "second target line", ".version 9.0\n.target sm_90\n.target sm_90a\n.address_size 64\n",
      "\n  target sm_90a\n" },
    /* linkage */
    { "variable linkages",
      HDR ".extern .global .b32 a;\n.visible .global .b32 b;\n.weak .global .b32 c;\n.common .global .b32 d;\n",
      "  decl .extern .global .b32 a\n  decl .visible .global .b32 b\n"
      "  decl .weak .global .b32 c\n  decl .common .global .b32 d\n" },
    { "function linkages",
      HDR ".extern .func f();\n.visible .func g()\n{\nret;\n}\n.weak .func h()\n{\nret;\n}\n.visible .entry e();\n",
      "  func .extern f (prototype)\n  func .visible g\n    block\n      instr ret\n"
      "  func .weak h\n    block\n      instr ret\n  entry .visible e (prototype)\n" },
    /* state spaces */
    { "module spaces", HDR ".const .b32 a;\n.global .b32 b;\n.shared .b32 c;\n",
      "  decl .const .b32 a\n  decl .global .b32 b\n  decl .shared .b32 c\n" },
    { "body spaces",
      ".reg .b32 r;\n.local .b32 l;\n.param .b32 q;\n.shared .b32 s;\n.global .b32 g;\n.const .b32 c;",
      "      decl .reg .b32 r\n      decl .local .b32 l\n      decl .param .b32 q\n"
      "      decl .shared .b32 s\n      decl .global .b32 g\n      decl .const .b32 c\n" },
    { "param spaces", HDR ".func f(.reg .b32 a, .param .b32 b);\n",
      "    param .reg .b32 a\n    param .param .b32 b\n" },
    { "every declarable type",
      ".reg .s8 a; .reg .s16 b; .reg .s32 c; .reg .s64 d; .reg .u8 e; .reg .u16 f;"
      " .reg .u32 g; .reg .u64 h; .reg .f16 i; .reg .f16x2 j; .reg .f32 k; .reg .f64 l;"
      " .reg .b8 m; .reg .b16 n; .reg .b32 o; .reg .b64 p; .reg .b128 q; .reg .pred r;",
      "      decl .reg .b128 q\n      decl .reg .pred r\n" },
    { "opaque types",
      ".version 9.0\n.target sm_90, texmode_independent\n.address_size 64\n"
      ".global .texref t;\n.global .samplerref s;\n.global .surfref u;\n",
      "  decl .global .texref t\n  decl .global .samplerref s\n  decl .global .surfref u\n" },
    /* .align, vectors, arrays */
    { "align after space", HDR ".global .align 16 .b8 a[16];\n", "  decl .global .align 16 .b8 a[16]\n" },
    { "align before space", HDR ".align 16 .global .b8 a[16];\n", "  decl .global .align 16 .b8 a[16]\n" },
    { "align before space with linkage", HDR ".visible .align 8 .global .u64 p;\n",
      "  decl .visible .global .align 8 .u64 p\n" },
    { "vectors", HDR ".global .v2 .f64 a;\n.global .v4 .b32 b;\n.const .align 16 .v4 .f32 c;\n",
      "  decl .global .v2 .f64 a\n  decl .global .v4 .b32 b\n  decl .const .align 16 .v4 .f32 c\n" },
    { "unsized extern array", HDR ".extern .shared .align 16 .b8 smem[];\n",
      "  decl .extern .shared .align 16 .b8 smem[]\n" },
    { "unsized initialised array", HDR ".global .b8 u[] = {1, 2};\n", "  decl .global .b8 u[] = {1, 2}\n" },
    { "multi-dimensional arrays", HDR ".global .b32 t[2][3];\n.extern .global .b8 e[][4];\n",
      "  decl .global .b32 t[2][3]\n  decl .extern .global .b8 e[][4]\n" },
    { "parameterised names", ".reg .b32 %r<100>;\n.reg .pred %p<3>, %q;",
      "      decl .reg .b32 %r<100>\n      decl .reg .pred %p<3>, %q\n" },
    { "several declarators", HDR ".global .u32 x = 1, y = 2, z;\n",
      "  decl .global .u32 x = 1, y = 2, z\n" },
    /* initialisers */
    { "nested brace initialiser", HDR ".global .b32 t[2][3] = {{1, 2, 3}, {4}};\n",
      "  decl .global .b32 t[2][3] = {{1, 2, 3}, {4}}\n" },
    { "generic initialiser", HDR ".global .u32 x;\n.global .u64 p = generic(x);\n",
      "  decl .global .u64 p = generic(x)\n" },
    { "mask initialisers", HDR ".global .u32 x;\n.global .u8 q[3] = {0xFF(x), 0xFF00(x + 1), 0xFF00000000000000(generic(x))};\n",
      "  decl .global .u8 q[3] = {0xFF(x), 0xFF00(x + 1), 0xFF00000000000000(generic(x))}\n" },
    { "function name initialiser", HDR ".func f()\n{\nret;\n}\n.global .u64 tab[2] = {f, f};\n",
      "  decl .global .u64 tab[2] = {f, f}\n" },
    { "address plus offset initialiser", HDR ".global .u32 x;\n.global .u64 y = x+4;\n",
      "  decl .global .u64 y = x + 4\n" },
    { "float and bits initialisers", HDR ".global .f32 f[3] = {1.5, 0f3F800000, -2.0};\n",
      "  decl .global .f32 f[3] = {1.5, 0f3F800000, -2.0}\n" },
    { "constant expression initialiser", HDR ".global .s64 c = (.s64)(1 << 4) * 3 - ~0 % 7;\n",
      "  decl .global .s64 c = (.s64)(1 << 4) * 3 - ~0 % 7\n" },
    { "attributes", HDR ".global .attribute(.managed) .b32 m;\n"
      ".global .attribute(.unified(1, 2)) .b32 u;\n.func .attribute(.unified(3, 4)) f();\n",
      "  decl .global .attribute(.managed) .b32 m\n  decl .global .attribute(.unified(1, 2)) .b32 u\n"
      "  func f (prototype) .attribute(.unified(3, 4))\n" },
    /* functions */
    { "entry params and directives",
      HDR ".visible .entry k(.param .u64 a, .param .align 8 .b8 b[16], .param .texref t)\n"
      ".maxnreg 32 .maxntid 128, 1, 1 .minnctapersm 2 .pragma \"nounroll\";\n{\nret;\n}\n",
      "  entry .visible k\n    param .param .u64 a\n    param .param .align 8 .b8 b[16]\n"
      "    param .param .texref t\n    directive .maxnreg 32\n    directive .maxntid 128, 1, 1\n"
      "    directive .minnctapersm 2\n    directive .pragma \"nounroll\"\n    block\n" },
    { "entry cluster directives",
      HDR ".entry k .reqntid 64, 2 .reqnctapercluster 2, 1, 1 .explicitcluster .blocksareclusters\n{\nret;\n}\n"
      ".entry k2 .maxclusterrank 4 .maxntid 32\n{\nret;\n}\n",
      "  entry k\n    directive .reqntid 64, 2\n    directive .reqnctapercluster 2, 1, 1\n"
      "    directive .explicitcluster\n    directive .blocksareclusters\n    block\n"
      "      instr ret\n  entry k2\n    directive .maxclusterrank 4\n    directive .maxntid 32\n" },
    { "entry ptr params",
      HDR ".entry k(.param .u64 .ptr.global.align 16 a, .param .u64 .ptr .shared .align 8 b, .param .b8 .align 8 c[12])\n{\nret;\n}\n",
      "    param .param .u64 .ptr.global.align 16 a\n    param .param .u64 .ptr.shared.align 8 b\n"
      "    param .param .align 8 .b8 c[12]\n" },
    { "entry without parameter list", HDR ".entry k\n{\nret;\n}\n", "  entry k\n    block\n      instr ret\n" },
    { "func with return parameter",
      HDR ".func (.reg .b32 r) f(.reg .b32 a, .param .b8 b[])\n{\nret;\n}\n",
      "  func f\n    return .reg .b32 r\n    param .reg .b32 a\n    param .param .b8 b[]\n    block\n" },
    { "func prototypes",
      HDR ".func g;\n.func h();\n.func (.param .b64 r) i(.param .b64 a, .param .b64 b);\n",
      "  func g (prototype)\n  func h (prototype)\n  func i (prototype)\n    return .param .b64 r\n"
      "    param .param .b64 a\n    param .param .b64 b\n" },
    { "noreturn and abi_preserve in order",
      HDR ".func n() .noreturn .abi_preserve 8 .abi_preserve_control 4\n{\nret;\n}\n"
      ".func n2() .abi_preserve_control 4;\n.func n3() .noreturn .local_maxnreg 16\n{\ntrap;\n}\n",
      "  func n\n    directive .noreturn\n    directive .abi_preserve 8\n"
      "    directive .abi_preserve_control 4\n    block\n      instr ret\n"
      "  func n2 (prototype)\n    directive .abi_preserve_control 4\n"
      "  func n3\n    directive .noreturn\n    directive .local_maxnreg 16\n    block\n      instr trap\n" },
    { "alias", HDR ".func a1()\n{\nret;\n}\n.func a2();\n.alias a2, a1;\n", "  alias a2 = a1\n" },
    /* directives */
    { "pragma everywhere",
      HDR ".pragma \"nounroll\";\n.entry k() .pragma \"nounroll\";\n{\n"
      ".pragma \"used_bytes_mask 0xfff\", \"frequency 32\";\nret;\n}\n",
      "  pragma \"nounroll\"\n  entry k\n    directive .pragma \"nounroll\"\n    block\n"
      "      pragma \"used_bytes_mask 0xfff\", \"frequency 32\"\n      instr ret\n" },
    { "file", HDR ".file 1 \"x.cu\"\n.file 2 \"/a/y.cu\", 1700000000, 1234\n.file 3 \"z.cu\", 0x10\n",
      "  file 1 \"x.cu\"\n  file 2 \"/a/y.cu\" timestamp 1700000000 size 1234\n"
      "  file 3 \"z.cu\" timestamp 16\n" },
    { "loc",
      ".loc 1 2 3\n.loc 1 5 7, function_name $L__info_string0, inlined_at 1 2 3\n"
      ".loc 2 5 7, function_name f+12, inlined_at 1 5 7\nret;",
      "      loc file 1 line 2 col 3\n"
      "      loc file 1 line 5 col 7 function_name $L__info_string0 inlined_at 1 2 3\n"
      "      loc file 2 line 5 col 7 function_name f+12 inlined_at 1 5 7\n      instr ret\n" },
    { "section",
      HDR ".section .debug_info\n{\nL1:\n.b32 L2-L1\n.b8 1, 2, -3\n.b16 -1\n.4byte L1+4\n"
      ".quad 0x10\n.byte 1\n.b64 .debug_abbrev\nL2:\n}\n.section .debug_str { $str: .b8 65, 0 }\n",
      "  section .debug_info\n    label L1\n    data .b32 L2 - L1\n    data .b8 1, 2, -3\n"
      "    data .b16 -1\n    data .4byte L1 + 4\n    data .quad 0x10\n    data .byte 1\n"
      "    data .b64 .debug_abbrev\n    label L2\n  section .debug_str\n    label $str\n"
      "    data .b8 65, 0\n" },
    { "dwarf line in an old module", ".version 1.4\n.target sm_10\n@@DWARF .byte 0x2e\n",
      "  dwarf .byte 0x2e\n" },
    /* statements */
    { "callprototype calltargets branchtargets",
      "p1: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b64 _);\n"
      "p2: .callprototype _ .noreturn .abi_preserve 8;\n"
      "p3: .callprototype _ ();\nct: .calltargets f1, f2;\nbt: .branchtargets L0, L1;\nL0:\nL1:\nret;",
      "      callprototype p1\n        return .param .b32 _\n        param .param .b32 _\n"
      "        param .param .b64 _\n      callprototype p2\n        directive .noreturn\n"
      "        directive .abi_preserve 8\n      callprototype p3\n"
      "      calltargets ct f1, f2\n      branchtargets bt L0, L1\n      label L0\n      label L1\n" },
    { "guards", "@p bra L;\n@!p bra L;\n@ ! %p2 ret;\nL: ret;",
      "      instr @p bra\n        operand 1: name L\n      instr @!p bra\n        operand 1: name L\n"
      "      instr @!%p2 ret\n      label L\n      instr ret\n" },
    { "labels", "A: B: ret;\nC:\n{\nD: ret;\nE:\n}\n$L__BB0_1: %L2: ret;",
      "      label A\n      label B\n      instr ret\n      label C\n      block\n        label D\n"
      "        instr ret\n        label E\n      label $L__BB0_1\n      label %L2\n      instr ret\n" },
    { "nested blocks", "{\n{\n{\n}\nret;\n}\n}\n{ }",
      "    block\n      block\n        block\n          block\n          instr ret\n      block\n" },
    { "pairs and negated predicates", "setp.eq.s32 p|q, 1, 2;\nsetp.lt.and.s32 _ | p, 1, 2, !q;",
      "        operand 1: pair p|q\n" },
    { "video selectors", "vadd.s32.u32.s32 r1, r1.b0, r2.h1;",
      "        operand 2: name+selector r1.b0\n        operand 3: name+selector r2.h1\n" },
    { "addresses",
      "ld.global.b32 r, [r];\nld.b32 r, [r+8];\nld.b32 r, [r+-8];\nld.b32 r, [var+4];\n"
      "ld.local.b32 r, [8];\nmov.u64 r, arr[2];\ntex.2d.v4.s32.f32 {a, b, c, d}, [tex, {a, b}];\n"
      "ld.b32 r, [a].unified;\nld.b32 r, [r + (-8)];\nld.b32 r, [arr[1]+4];",
      "        operand 2: address[1] [r]  base r\n"
      "      instr ld  modifiers .b32\n        operand 1: name r\n"
      "        operand 2: address[1] [r + 8]  base r offset 8\n"
      "      instr ld  modifiers .b32\n        operand 1: name r\n"
      "        operand 2: address[1] [r + -8]  base r offset -8\n"
      "      instr ld  modifiers .b32\n        operand 1: name r\n"
      "        operand 2: address[1] [var + 4]  base var offset 4\n"
      "      instr ld  modifiers .local .b32\n        operand 1: name r\n"
      "        operand 2: address[1] [8]  absolute 8\n"
      "      instr mov  modifiers .u64\n        operand 1: name r\n        operand 2: element arr[2]\n"
      "      instr tex  modifiers .2d .v4 .s32 .f32\n        operand 1: vector[4] {a, b, c, d}\n"
      "        operand 2: address[2] [tex, {a, b}]\n"
      "      instr ld  modifiers .b32\n        operand 1: name r\n"
      "        operand 2: address[1] [a].unified  base a\n"
      "      instr ld  modifiers .b32\n        operand 1: name r\n"
      "        operand 2: address[1] [r + (-8)]  base r offset (-8)\n"
      "      instr ld  modifiers .b32\n        operand 1: name r\n"
      "        operand 2: address[1] [arr[1] + 4]\n" },
    { "calls",
      "call (r), f, (a, b);\ncall f;\ncall.uni f, (a);\ncall (r), %rptr, (a), proto;\ncall (), g, ();",
      "      instr call\n        operand 1: list[1] (r)\n        operand 2: name f\n"
      "        operand 3: list[2] (a, b)\n      instr call\n        operand 1: name f\n"
      "      instr call  modifiers .uni\n        operand 1: name f\n        operand 2: list[1] (a)\n"
      "      instr call\n        operand 1: list[1] (r)\n        operand 2: name %rptr\n"
      "        operand 3: list[1] (a)\n        operand 4: name proto\n"
      "      instr call\n        operand 1: list[0] ()\n        operand 2: name g\n        operand 3: list[0] ()\n" },
    { "instructions without operands", "ret;\nexit;\nmembar.gl;\nfence.proxy.async;\ntrap;",
      "      instr ret\n      instr exit\n      instr membar  modifiers .gl\n"
      "      instr fence  modifiers .proxy .async\n      instr trap\n" },
    { "keywords as modifiers", "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
      "st.shared::cta.v4.b32 [a], {x, y, z, w};\nprefetch.global.L2::evict_last [a];",
      "      instr st  modifiers .shared::cta .v4 .b32\n" },
    { "constant expressions as operands", "add.s32 %r1, %r2, WARP_SZ * 2 - 1;\nmov.b32 %r1, 1 ? 2 : 3;\n"
      "mov.b64 %rd1, (.u64)-1 >> 1;\nsetp.ne.s32 p, 1 == 2 || 3 != 4 && 5 <= 6, 7 >= 8;",
      "        operand 3: expr WARP_SZ * 2 - 1\n" },
    { "negated 0d constant", "mov.f64 %fd1, -0d3FF0000000000000;",
      "        operand 2: expr -0d3FF0000000000000\n" },
    { "align given twice takes the larger", HDR ".global .align 4 .align 8 .b32 x;\n.global .align 16 .align 8 .b32 y;\n",
      "  decl .global .align 8 .b32 x\n  decl .global .align 16 .b32 y\n" },
    { "attribute before the space", HDR ".attribute(.managed) .global .b32 x;\n",
      "  decl .global .attribute(.managed) .b32 x\n" },
    { "entry directive given twice", HDR ".entry k .maxnreg 32 .maxnreg 64\n{\nret;\n}\n",
      "    directive .maxnreg 32\n    directive .maxnreg 64\n" },
    { "branchtargets range", "ts: .branchtargets L<3>, M;\nL0: L1: L2: M: ret;",
      "      branchtargets ts L<3>, M\n" },
    { "opaque initialiser fields",
      ".version 9.0\n.target sm_90, texmode_independent\n.address_size 64\n"
      ".global .samplerref s = { addr_mode_0 = clamp_to_border, filter_mode = nearest };\n",
      "  decl .global .samplerref s = {addr_mode_0 = clamp_to_border, filter_mode = nearest}\n" },
};

START_TEST(grammar_accept)
{
    const accept_case *c = &accepts[_i];
    ptx_context *ctx;
    const ptx_module *m = parse_any(&ctx, c->src);
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s: %zu diagnostics, first: %s", c->name,
                  ptx_diag_count(ctx), first_message(ctx));
    ck_assert_ptr_nonnull(m);
    char *t = tree_text(m);
    ck_assert_msg(strstr(t, c->want) != NULL, "%s: tree lacks\n%s\ntree:\n%s", c->name, c->want, t);
    free(t);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(vector_operand_128)
{
    /* mma/wgmma/tcgen05 brace lists of up to 128 elements */
    char body[4096];
    size_t n = (size_t)snprintf(body, sizeof body, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {");
    for (int i = 0; i < 128; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "%s%%f%d", i ? ", " : "", i);
    snprintf(body + n, sizeof body - n, "}, %%rd1, %%rd2, 1, 1, 1, 0, 0;");
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, body);
    ck_assert_uint_eq(in->nops, 8);
    const ptx_expr *v = &in->ops[0];
    ck_assert_int_eq(v->kind, PTX_EXPR_VEC);
    ck_assert_uint_eq(ptx_expr_count(v), 128);
    for (unsigned i = 0; i < 128; i++) {
        char name[16];
        snprintf(name, sizeof name, "%%f%u", i);
        assert_sym(ptx_expr_item(v, i), name, NULL);
    }
    ptx_context_free(ctx);
}
END_TEST

/* ======================================================================== */
/* Rejected: the first diagnostic is an error with this code whose message
 * contains `msg`; `nerr` is the exact number of errors (0: not checked). */

typedef struct reject_case {
    const char *name;
    const char *src;
    ptx_diag_code code;
    const char *msg;
    unsigned nerr;
} reject_case;

static const reject_case rejects[] = {
    /* expressions */
    { "0f constant in an expression", ".reg .f32 %f1;\nmov.f32 %f1, 0f3F800000+1.0;", PTX_DIAG_EXPR,
      "a 0f constant cannot be part of an expression; write the whole value as one constant", 1 },
    { "0d constant in an expression", ".reg .f64 %f1;\nmov.f64 %f1, 0d3FF0000000000000 * 2.0;", PTX_DIAG_EXPR,
      "a 0d constant cannot be part of an expression", 1 },
    { "negated 0f constant", ".reg .f32 %f1;\nmov.f32 %f1, -0f3F800000;", PTX_DIAG_EXPR,
      "a 0f constant cannot be part of an expression", 1 },
    { "cast other than s64/u64", ".reg .b32 %r1;\nmov.b32 %r1, (.u32)1;", PTX_DIAG_EXPR,
      "only (.s64) and (.u64) casts are allowed in constant expressions", 1 },
    { "mask that is not a byte mask", HDR ".global .u32 x;\n.global .u8 q = 0xF0(x);\n", PTX_DIAG_EXPR,
      "'0xF0(...)' is not a byte mask: write 0xFF, 0xFF00, ... 0xFF00000000000000", 1 },
    { "decimal non-mask", HDR ".global .u32 x;\n.global .u8 q = 256(x);\n", PTX_DIAG_EXPR,
      "'256(...)' is not a byte mask", 1 },
    { "call-like operand", HDR ".global .u32 x;\n.global .u64 p = foo(x);\n", PTX_DIAG_EXPR,
      "'foo(...)' is not an operand: only generic(...) and byte masks such as 0xFF00(...) apply to a parenthesised name", 1 },
    { "address offset subtracted", ".reg .b64 r;\nld.b32 r, [r-8];", PTX_DIAG_EXPR,
      "an address offset is added, with its sign: write [r+-...]", 1 },
    { "address offset a register", ".reg .b64 r, q;\nld.b32 r, [r+q];", PTX_DIAG_EXPR,
      "an address offset must be an integer constant expression", 1 },
    { "float address offset", ".reg .b64 r;\nld.b32 r, [r+16.];", PTX_DIAG_EXPR,
      "an offset from a name must be an integer constant expression", 1 },
    { "address with the constant first", ".reg .b64 r;\nld.b32 r, [8+r];", PTX_DIAG_EXPR,
      "an address is [name], [name+constant] or [integer]", 1 },
    /* statements */
    /* ptxas: "Pragma 'unroll 4' not supported" (an error at module scope only) */
    { "unknown pragma at module scope", HDR ".pragma \"unroll 4\";\n", PTX_DIAG_DIRECTIVE,
      "unknown pragma \"unroll 4\": at module scope only \"nounroll\" is allowed", 1 },
    { "body pragma on an entry", HDR ".entry k .pragma \"nounroll\", \"frequency 2\";\n{\nret;\n}\n", PTX_DIAG_DIRECTIVE,
      "pragma \"frequency 2\" is only allowed in a function's body", 1 },
    { "pragma value not a number", ".pragma \"used_bytes_mask abc\";", PTX_DIAG_DIRECTIVE,
      "pragma \"used_bytes_mask abc\" needs one integer: 'used_bytes_mask N'", 1 },
    { "pragma frequency zero", ".pragma \"frequency 0\";", PTX_DIAG_DIRECTIVE,
      "pragma \"frequency 0\" needs one positive integer: 'frequency N'", 1 },
    { "pragma without its value", ".pragma \"frequency\";", PTX_DIAG_DIRECTIVE,
      "pragma \"frequency\" needs one positive integer", 1 },
    { "loc attribute with one number", ".loc 1 2 3, inlined_at 5\nret;", PTX_DIAG_DIRECTIVE,
      "found 'inlined_at'", 1 },
    { "branchtargets range too large", "t: .branchtargets L<4294967296>;\nret;", PTX_DIAG_LITERAL,
      "label count 4294967296 is out of range", 1 },
    { "loc with an unknown attribute", ".loc 1 2 3, foo bar, inlined_at 1 2 3\nret;", PTX_DIAG_DIRECTIVE,
      "'.loc' takes 'function_name LABEL[+N]' and 'inlined_at FILE LINE COLUMN' after the column; found 'foo'", 1 },
    { "loc inlined_at with a name", ".loc 1 2 3, inlined_at f, inlined_at 1 2 3\nret;", PTX_DIAG_DIRECTIVE,
      "found 'inlined_at'", 1 },
    { "loc file index out of range", ".loc 4294967296 1 1\nret;", PTX_DIAG_LITERAL,
      "file index 4294967296 is out of range", 1 },
    { "file index out of range", HDR ".file 4294967296 \"x.cu\"\n", PTX_DIAG_LITERAL,
      "file index 4294967296 is out of range", 1 },
    /* function directives */
    { "value on explicitcluster", HDR ".entry k .explicitcluster 1\n{\nret;\n}\n", PTX_DIAG_DIRECTIVE,
      "'.explicitcluster' takes no value", 1 },
    { "two values on maxnreg", HDR ".entry k .maxnreg 1, 2\n{\nret;\n}\n", PTX_DIAG_DIRECTIVE,
      "'.maxnreg' takes one value", 1 },
    { "no value on maxntid", HDR ".entry k .maxntid\n{\nret;\n}\n", PTX_DIAG_DIRECTIVE,
      "'.maxntid' takes one to three values", 1 },
    { "four values on reqntid", HDR ".entry k .reqntid 1, 2, 3, 4\n{\nret;\n}\n", PTX_DIAG_DIRECTIVE,
      "'.reqntid' takes one to three values", 1 },
    { "directive value out of range", HDR ".entry k .maxnreg 4294967296\n{\nret;\n}\n", PTX_DIAG_LITERAL,
      "'.maxnreg' value 4294967296 is out of range (at most 4294967295)", 1 },
    { "maxntid on a func", HDR ".func f() .maxntid 32;\n", PTX_DIAG_DIRECTIVE,
      "'.maxntid' is not allowed on '.func'", 1 },
    { "local_maxnreg on a callprototype", "p: .callprototype _ .local_maxnreg 8;\nret;", PTX_DIAG_DIRECTIVE,
      "'.local_maxnreg' is not allowed on '.callprototype'", 1 },
    { "abi_preserve before noreturn", HDR ".func f() .abi_preserve 8 .noreturn;\n", PTX_DIAG_DIRECTIVE,
      "'.noreturn' is out of place: write .noreturn first, then .abi_preserve and .abi_preserve_control, each once", 1 },
    { "abi_preserve twice", HDR ".func f() .abi_preserve_control 4 .abi_preserve 8 .abi_preserve 8;\n", PTX_DIAG_DIRECTIVE,
      "'.abi_preserve' is out of place", 1 },
    { "noreturn twice", HDR ".func f() .noreturn .noreturn;\n", PTX_DIAG_DIRECTIVE,
      "'.noreturn' is out of place", 1 },
    { "noreturn with a return parameter", HDR ".func (.reg .b32 r) f() .noreturn;\n", PTX_DIAG_DIRECTIVE,
      "'.noreturn' is not allowed on a function with a return parameter", 1 },
    { "noreturn on a callprototype with a return", "p: .callprototype (.param .b32 _) _ .noreturn;\nret;",
      PTX_DIAG_DIRECTIVE, "'.noreturn' is not allowed on a function with a return parameter", 1 },
    { "noreturn on an entry", HDR ".entry k .noreturn\n{\nret;\n}\n", PTX_DIAG_DIRECTIVE,
      "'.noreturn' is not allowed on '.entry'", 1 },
    { "maxntid with reqntid", HDR ".entry k .maxntid 32 .reqntid 32\n{\nret;\n}\n", PTX_DIAG_DIRECTIVE,
      "'.maxntid' and '.reqntid' cannot both be given", 1 },
    { "maxclusterrank with reqnctapercluster", HDR ".entry k .reqnctapercluster 2 .maxclusterrank 2\n{\nret;\n}\n",
      PTX_DIAG_DIRECTIVE, "'.maxclusterrank' and '.reqnctapercluster' cannot both be given", 1 },
    { "blocksareclusters alone", HDR ".entry k .reqntid 32 .blocksareclusters\n{\nret;\n}\n", PTX_DIAG_DIRECTIVE,
      "'.blocksareclusters' needs both '.reqntid' and '.reqnctapercluster'", 1 },
    { "maxnctapersm", HDR ".entry k .maxnctapersm 2\n{\nret;\n}\n", PTX_DIAG_UNSUPPORTED,
      "'.maxnctapersm' is not supported as of PTX ISA 2.1", 1 },
    /* declaration specifiers */
    { "visible extern", HDR ".visible .extern .global .b32 x;\n", PTX_DIAG_DECL,
      "only one of .extern, .visible, .weak, .common may be given", 1 },
    { "unknown attribute", HDR ".global .attribute(.foo) .b32 x;\n", PTX_DIAG_DECL,
      "unknown attribute '.foo': expected .managed or .unified(UUID1, UUID2)", 1 },
    { "attribute twice", HDR ".global .attribute(.managed, .managed) .b32 x;\n", PTX_DIAG_DECL,
      "attribute given twice", 1 },
    { "two state spaces", HDR ".global .shared .b32 x;\n", PTX_DIAG_DECL,
      "a declaration has one state space", 1 },
    { "align 3", HDR ".global .align 3 .b32 x;\n", PTX_DIAG_DECL,
      "alignment 3 is not a power of two below 2^32", 1 },
    { "align 0", HDR ".global .align 0 .b32 x;\n", PTX_DIAG_DECL,
      "alignment 0 is not a power of two below 2^32", 1 },
    { "align 2^32", HDR ".global .align 4294967296 .b32 x;\n", PTX_DIAG_DECL,
      "alignment 4294967296 is not a power of two below 2^32", 1 },
    { "align after the vector size", HDR ".global .v4 .align 16 .b32 x;\n", PTX_DIAG_DECL,
      "'.align 16' is out of place: write linkage, state space, .align, vector size, then the type", 1 },
    { "vector size twice", HDR ".global .v2 .v4 .b32 x;\n", PTX_DIAG_DECL, "a vector size is given twice", 1 },
    { "two types", HDR ".global .b32 .u32 x;\n", PTX_DIAG_DECL, "a declaration has one type", 1 },
    { "type before the space", HDR ".b32 .global x;\n", PTX_DIAG_DECL,
      "'.global' is out of place: write linkage, state space, .align, vector size, then the type", 1 },
    { "bf16 register", ".reg .bf16 x;", PTX_DIAG_DECL,
      "'.bf16' may only be used as an instruction type; declare a .b16 variable instead", 1 },
    { "e4m3 register", ".reg .b8 y;\n.reg .e4m3 x;", PTX_DIAG_DECL,
      "'.e4m3' may only be used as an instruction type; declare a .b8 variable instead", 1 },
    { "tf32 register", ".reg .tf32 x;", PTX_DIAG_DECL,
      "'.tf32' may only be used as an instruction type; declare a .b32 variable instead", 1 },
    { "f32x2 register", ".reg .f32x2 x;", PTX_DIAG_DECL,
      "'.f32x2' may only be used as an instruction type; declare a .b64 variable instead", 1 },
    { "unknown specifier", HDR ".global .foo .b32 x;\n", PTX_DIAG_DECL,
      "'.foo' is not a declaration specifier", 1 },
    { "shared::cta in a declaration", HDR ".shared::cta .b32 x;\n", PTX_DIAG_DECL,
      "'.shared::cta' is an instruction modifier; declarations use '.shared'", 0 },
    { "ptr twice", HDR ".entry k(.param .u64 .ptr .ptr p)\n{\nret;\n}\n", PTX_DIAG_DECL,
      "'.ptr' is given twice", 1 },
    { "no state space", HDR ".b32 x;\n", PTX_DIAG_DECL,
      "a declaration needs a state space (.reg, .global, .shared, ...)", 1 },
    { "no type", HDR ".global x;\n", PTX_DIAG_DECL, "a declaration needs a type (.b32, .u64, .pred, ...)", 1 },
    { "sreg declared", ".sreg .b32 x;", PTX_DIAG_DECL,
      "special registers (.sreg) are predefined and cannot be declared", 1 },
    { "tex variable", HDR ".tex .u32 t;\n", PTX_DIAG_UNSUPPORTED,
      "'.tex' variables are not supported as of PTX ISA 1.5; use '.global .texref'", 1 },
    { "v8 declaration", HDR ".global .v8 .b32 x;\n", PTX_DIAG_DECL,
      "'.v8' is only an instruction modifier; variables are .v2 or .v4", 1 },
    { "vector of predicates", ".reg .v2 .pred p;", PTX_DIAG_DECL, "vectors of '.pred' are not allowed", 1 },
    { "vector over 128 bits", ".reg .v4 .f64 d;", PTX_DIAG_DECL,
      "vector of 4 x 64 bits exceeds the 128-bit limit", 1 },
    /* declarators */
    { "sink declared", HDR ".global .b32 _;\n", PTX_DIAG_DECL,
      "'_' is the sink symbol and cannot be declared", 1 },
    { "register count too large", ".reg .b32 %r<4294967296>;", PTX_DIAG_DECL,
      "register count in '<4294967296>' is above the limit of 4294967295", 1 },
    { "parameterised name with an initialiser", HDR ".global .b32 g<4> = 1;\n", PTX_DIAG_SYNTAX,
      "unexpected '='", 1 },
    { "second dimension unsized", HDR ".extern .global .b32 a[2][];\n", PTX_DIAG_DECL,
      "only the first dimension of an array may be left unsized", 1 },
    { "initialised shared", HDR ".shared .b32 x = 1;\n", PTX_DIAG_DECL,
      "only .const and .global variables can be initialised", 1 },
    { "initialised register", ".reg .b32 x = 1;", PTX_DIAG_DECL,
      "only .const and .global variables can be initialised", 1 },
    { "initialised extern", HDR ".extern .global .b32 x = 1;\n", PTX_DIAG_DECL,
      "an .extern variable cannot be initialised", 1 },
    { "register array", ".reg .b32 a[4];", PTX_DIAG_DECL,
      "arrays cannot be allocated in registers (.reg)", 1 },
    { "unsized array without initialiser", HDR ".global .b8 a[];\n", PTX_DIAG_DECL,
      "an unsized array needs an initialiser or '.extern'", 1 },
    { "align after the type outside entry params", HDR ".global .b32 .align 4 x;\n", PTX_DIAG_DECL,
      "'.align' after the type is only allowed in '.entry' parameter lists", 1 },
    { "align after the type in func params", HDR ".func f(.param .b32 .align 4 x);\n", PTX_DIAG_DECL,
      "'.align' after the type is only allowed in '.entry' parameter lists", 1 },
    { "ptr on a func parameter", HDR ".func f(.param .u64 .ptr .global p);\n", PTX_DIAG_DECL,
      "'.ptr' is a kernel parameter attribute: only allowed in '.entry' parameter lists", 1 },
    /* placement */
    { "reg at module scope", HDR ".reg .b32 r;\n", PTX_DIAG_DECL,
      "'.reg' variables cannot be declared at module scope", 1 },
    { "local at module scope", HDR ".local .b32 l;\n", PTX_DIAG_DECL,
      "'.local' variables cannot be declared at module scope", 1 },
    { "param at module scope", HDR ".param .b32 p;\n", PTX_DIAG_DECL,
      "'.param' variables cannot be declared at module scope", 1 },
    { "visible in a body", ".visible .global .b32 x;", PTX_DIAG_DECL,
      "'.visible' is only allowed at module scope", 1 },
    { "parameter with linkage", HDR ".entry k(.extern .param .b32 p)\n{\nret;\n}\n", PTX_DIAG_DECL,
      "parameters have no linkage", 1 },
    { "reg entry parameter", HDR ".entry k(.reg .b32 r)\n{\nret;\n}\n", PTX_DIAG_DECL,
      "'.entry' parameters must be '.param'", 1 },
    { "shared func parameter", HDR ".func f(.shared .b32 s);\n", PTX_DIAG_DECL,
      "parameters must be '.param' or '.reg'", 1 },
    { "unsized parameter not last", HDR ".func f(.param .b8 a[], .param .b32 b);\n", PTX_DIAG_DECL,
      "only the last parameter may be an unsized array", 1 },
    /* functions */
    { "two function linkages", HDR ".visible .weak .func f();\n", PTX_DIAG_DECL,
      "only one of .extern, .visible, .weak may be given", 1 },
    { "common function", HDR ".common .func f();\n", PTX_DIAG_DECL, "'.common' applies to variables only", 1 },
    { "managed function", HDR ".attribute(.managed) .func f();\n", PTX_DIAG_DECL,
      "a function takes only '.attribute(.unified(...))', after '.func'", 1 },
    { "state space before func", HDR ".global .func f();\n", PTX_DIAG_DECL,
      "'.global' cannot precede '.func'", 1 },
    { "type before entry", HDR ".b32 .entry k();\n", PTX_DIAG_DECL, "'.b32' cannot precede '.entry'", 1 },
    /* module items */
    { "unknown section data word", HDR ".section .debug_info\n{\n.half 1\n}\n", PTX_DIAG_DIRECTIVE,
      "'.half' is not a section data directive: expected .b8, .b16, .b32, .b64, .byte, .4byte or .quad", 1 },
    { "dwarf line in a modern module", HDR "@@DWARF .byte 1\n", PTX_DIAG_UNSUPPORTED,
      "'@@DWARF' is not supported as of PTX ISA 2.0; use '.section'", 1 },
    { "file in a body", ".file 1 \"x.cu\"\nret;", PTX_DIAG_SYNTAX, "unexpected '.file'", 1 },
    { "guarded block", "@p { ret; }", PTX_DIAG_SYNTAX, "unexpected '{'", 1 },
    /* header */
    { "version as a float", ".version 1e3\n.target sm_90\n", PTX_DIAG_HEADER,
      "'.version' expects MAJOR.MINOR such as 9.0", 1 },
    { "version 9.2", ".version 9.2\n.target sm_90\n", PTX_DIAG_HEADER,
      "unsupported .version 9.2: ptx-front reads PTX ISA 1.0 to 9.1", 1 },
    { "version 10.0", ".version 10.0\n.target sm_90\n", PTX_DIAG_HEADER,
      "unsupported .version 10.0", 1 },
    { "unknown target", ".version 9.0\n.target sm_999\n", PTX_DIAG_HEADER, "unknown target 'sm_999'", 1 },
    { "unknown target in a later line", ".version 9.0\n.target sm_90\n.target sm_91\n", PTX_DIAG_HEADER,
      "unknown target 'sm_91'", 1 },
    /* ptxas 13.0 -arch=sm_80: "SM version specified by .target is higher than default SM version assumed" */
    { "later target above the first", ".version 9.0\n.target sm_80\n.target sm_90\n", PTX_DIAG_HEADER,
      "'sm_90' is above sm_80, the architecture this module is read for", 1 },
    /* ptxas 13.0: "Parsing error near '.target'" */
    { "target line after .address_size", HDR ".target sm_90a\n", PTX_DIAG_SYNTAX,
      "unexpected '.target'", 1 },
    { "target line after a declaration", ".version 9.0\n.target sm_90\n.global .b32 g;\n.target sm_90a\n",
      PTX_DIAG_SYNTAX, "unexpected '.target'", 1 },
    { "target newer than the version", ".version 7.0\n.target sm_90\n", PTX_DIAG_HEADER,
      "target 'sm_90' requires PTX ISA .version 7.8 or later", 1 },
    { "option before the architecture", ".version 9.0\n.target texmode_independent, sm_90\n",
      PTX_DIAG_HEADER, "'.target' must name an architecture (sm_NN) before its options", 1 },
    { "address size 48", ".version 9.0\n.target sm_90\n.address_size 48\n", PTX_DIAG_HEADER,
      "'.address_size' must be 32 or 64", 1 },
    { "missing target", ".version 9.0\n.address_size 64\n", PTX_DIAG_SYNTAX,
      "unexpected '.address_size', expected '.target'", 1 },
};

START_TEST(grammar_reject)
{
    const reject_case *c = &rejects[_i];
    ptx_context *ctx;
    const ptx_module *m = NULL;
    ctx = ptx_context_new();
    ck_assert_ptr_nonnull(ctx);
    ptx_status st;
    if (strncmp(c->src, ".version", 8) == 0) {
        st = ptx_parse_buffer(ctx, "t.ptx", c->src, strlen(c->src), &m);
    } else {
        size_t n = strlen(test_head) + strlen(c->src) + strlen(test_tail);
        char *text = malloc(n + 1);
        ck_assert_ptr_nonnull(text);
        snprintf(text, n + 1, "%s%s%s", test_head, c->src, test_tail);
        st = ptx_parse_buffer(ctx, "t.ptx", text, n, &m);
        free(text);
    }
    ck_assert_msg(st == PTX_ERR_INPUT, "%s: status %d", c->name, st);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ck_assert_msg(d != NULL, "%s: no diagnostic", c->name);
    ck_assert_int_eq(d->severity, PTX_SEV_ERROR);
    ck_assert_msg(strstr(d->message, c->msg) != NULL, "%s: message '%s' lacks '%s'", c->name,
                  d->message, c->msg);
    ck_assert_msg(d->code == c->code, "%s: code %d, expected %d", c->name, d->code, c->code);
    if (c->nerr)
        ck_assert_msg(ptx_error_count(ctx) == c->nerr, "%s: %zu errors, expected %u; second: %s",
                      c->name, ptx_error_count(ctx), c->nerr,
                      ptx_diag_get(ctx, 1) ? ptx_diag_get(ctx, 1)->message : "");
    ptx_context_free(ctx);
}
END_TEST

/* Regression (fixed): a sub-qualified state space in a declaration (".shared::cta .b32
 * x;", a syntax error for ptxas, LANGUAGE.md 4) gives two errors for one
 * mistake: "'.shared::cta' is not a declaration specifier" and then "a
 * declaration needs a state space (.reg, .global, .shared, ...)", although
 * a state space was written.  The same cascade after an instruction-only
 * type ('.bf16') is suppressed; after a bad state space it is not. */
START_TEST(subqualified_space_one_error)
{
    ptx_context *ctx;
    parse(&ctx, ".shared::cta .b32 x;");
    size_t nerr = ptx_error_count(ctx);
    char first[256];
    snprintf(first, sizeof first, "%s", first_message(ctx));
    ptx_context_free(ctx);
    ck_assert_str_eq(first, "'.shared::cta' is an instruction modifier; declarations use '.shared'");
    ck_assert_uint_eq(nerr, 1);
}
END_TEST

START_TEST(expression_depth_limit)
{
    /* 10000 levels are fine, 10001 are not */
    enum { LIMIT = 10000 };
    char *body = malloc(LIMIT + 64);
    ck_assert_ptr_nonnull(body);
    for (int depth = LIMIT; depth <= LIMIT + 1; depth++) {
        size_t n = (size_t)snprintf(body, 64, "mov.b32 %%r1, ");
        memset(body + n, '-', (size_t)depth - 1);
        n += (size_t)depth - 1;
        snprintf(body + n, 64, "1;");
        ptx_context *ctx;
        const ptx_module *m = parse(&ctx, body);
        if (depth == LIMIT) {
            ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", first_message(ctx));
            ck_assert_uint_eq(ptx_expr_depth(&instr_at(m, 0)->ops[1]), LIMIT);
            /* and it can be printed */
            char *t = tree_text(m);
            free(t);
        } else {
            ck_assert_uint_eq(ptx_error_count(ctx), 1);
            ck_assert_int_eq(ptx_diag_get(ctx, 0)->code, PTX_DIAG_LIMIT);
            ck_assert_str_eq(ptx_diag_get(ctx, 0)->message,
                             "expression nested too deeply (the limit is 10000 levels)");
        }
        ptx_context_free(ctx);
    }
    free(body);
}
END_TEST

START_TEST(two_return_parameters_warn)
{
    ptx_context *ctx = ptx_context_new();
    static const char src[] = HDR ".extern .func (.reg .b32 a, .reg .b32 b) f();\n";
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m), PTX_OK);
    ck_assert_uint_eq(ptx_diag_count(ctx), 1);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ck_assert_int_eq(d->severity, PTX_SEV_WARNING);
    ck_assert_int_eq(d->code, PTX_DIAG_DECL);
    ck_assert_str_eq(d->message, "more than one return parameter: the ABI returns only one");
    ptx_position p = ptx_context_position(ctx, d->span.off);
    ck_assert_uint_eq(p.line, 4);
    ck_assert_uint_eq(p.col, 29);
    ck_assert_uint_eq(((const ptx_func *)m->first)->nret, 2);
    ptx_context_free(ctx);
}
END_TEST

/* ptxas 13.0 compiles a module with a pragma it does not know in a body
 * or an entry's header, warning "Pragma 'next knob FenceCode'
 * unsupported" (recent Triton writes them): a warning, not an error */
START_TEST(unknown_pragma_warns)
{
    static const char *const srcs[] = {
        HDR ".visible .entry k()\n{\n.pragma \"next knob FenceCode\";\nret;\n}\n",
        HDR ".visible .entry k()\n.pragma \"next knob FenceCode\";\n{\nret;\n}\n",
        HDR ".visible .entry k()\n{\n.pragma \"nounroll\", \"next knob FenceCode\";\nret;\n}\n",
    };
    for (size_t i = 0; i < sizeof srcs / sizeof *srcs; i++) {
        ptx_context *ctx = ptx_context_new();
        const ptx_module *m = NULL;
        ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", srcs[i], strlen(srcs[i]), &m), PTX_OK);
        ck_assert_uint_eq(ptx_error_count(ctx), 0);
        ck_assert_uint_eq(ptx_diag_count(ctx), 1);
        const ptx_diag *d = ptx_diag_get(ctx, 0);
        ck_assert_int_eq(d->severity, PTX_SEV_WARNING);
        ck_assert_int_eq(d->code, PTX_DIAG_DIRECTIVE);
        ck_assert_str_eq(d->message, "unknown pragma \"next knob FenceCode\" is ignored: ptxas knows "
                         "nounroll, used_bytes_mask N, enable_smem_spilling and frequency N");
        ck_assert_uint_eq(ptx_context_position(ctx, d->span.off).line, 5 + (i != 1 ? 1 : 0));
        ptx_context_free(ctx);
    }
}
END_TEST

/* 65535 modifiers or operands are kept, one more is an error: "bar"
 * followed by 65536 copies of `piece` (the first operand after a blank) */
static const struct {
    const char *piece, *first, *message;
    bool operands;
} limit_cases[] = {
    { ".ab", ".ab", "too many modifiers (the limit is 65535)", false },
    { ",r", " r", "too many operands (the limit is 65535)", true },
};

START_TEST(item_limits)
{
    size_t items = 65536, len = strlen(limit_cases[_i].piece);
    char *body = malloc(3 + len * items + 2);
    ck_assert_ptr_nonnull(body);
    memcpy(body, "bar", 3);
    size_t n = 3;
    for (size_t i = 0; i < items; i++) {
        memcpy(body + n, i ? limit_cases[_i].piece : limit_cases[_i].first, len);
        n += len;
    }
    body[n++] = ';';
    body[n] = '\0';
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body);
    free(body);
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_int_eq(ptx_diag_get(ctx, 0)->code, PTX_DIAG_LIMIT);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message, limit_cases[_i].message);
    const ptx_instr *in = instr_at(m, 0);
    if (limit_cases[_i].operands) {
        ck_assert_uint_eq(in->nops, 65535);
        ck_assert_str_eq(ptx_expr_name(&in->ops[65534])->text, "r");
    } else {
        ck_assert_uint_eq(in->nmods, 65535);
        ck_assert_str_eq(in->mods[65534].name->text, ".ab");
    }
    ptx_context_free(ctx);
}
END_TEST

/* A leaf keeps its span's length in the node up to 65534 bytes; from
 * 65535 on, and for a name with a selector, it is boxed: at each length
 * around the edge it keeps its span and its value, and prints back. */
typedef struct long_leaf_case {
    ptx_expr_kind kind;
    size_t len;             /* bytes of the operand's text */
    const char *sel;        /* SYM: a selector after the name, or NULL */
} long_leaf_case;

static const long_leaf_case long_leaves[] = {
    { PTX_EXPR_SYM, 65534, NULL }, { PTX_EXPR_SYM, 65535, NULL },
    { PTX_EXPR_SYM, 70000, NULL }, { PTX_EXPR_SYM, 4, ".x" },
    { PTX_EXPR_SYM, 70000, ".y" }, { PTX_EXPR_INT, 65534, NULL },
    { PTX_EXPR_INT, 65535, NULL }, { PTX_EXPR_INT, 70000, NULL },
    { PTX_EXPR_FLOAT, 65535, NULL }, { PTX_EXPR_F32, 10, NULL },
};

START_TEST(long_leaves_keep_span_and_value)
{
    const long_leaf_case *c = &long_leaves[_i];
    size_t sel = c->sel ? strlen(c->sel) : 0;
    char *text = malloc(c->len + sel + 1);
    ck_assert_ptr_nonnull(text);
    if (c->kind == PTX_EXPR_SYM) {
        memset(text, 'n', c->len);
        memcpy(text + c->len, c->sel ? c->sel : "", sel + 1);
    } else if (c->kind == PTX_EXPR_INT) {
        memset(text, '0', c->len);          /* 000...07 */
        text[c->len - 1] = '7';
        text[c->len] = '\0';
    } else if (c->kind == PTX_EXPR_FLOAT) {
        memset(text, '0', c->len);          /* 1.000...0 */
        memcpy(text, "1.", 2);
        text[c->len] = '\0';
    } else {
        memcpy(text, "0f3F800000", 11);
    }
    size_t blen = strlen("mov.u32 r, ;") + strlen(text) + 1;
    char *body = malloc(blen);
    ck_assert_ptr_nonnull(body);
    snprintf(body, blen, "mov.u32 r, %s;", text);
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, body);
    const ptx_expr *e = &in->ops[1];
    ck_assert_int_eq(e->kind, c->kind);
    ck_assert_uint_eq(ptx_expr_span(e).len, c->len + sel);
    ck_assert_uint_eq(ptx_expr_span(e).off, ptx_expr_span(&in->ops[0]).off + 3);
    ck_assert_int_eq(ptx_expr_depth(e), 1);
    bool boxed = c->len + sel >= 65535 || c->sel;
    ck_assert_int_eq(!!(e->flags & PTX_EXPR_BOXED), boxed);
    if (c->kind == PTX_EXPR_SYM) {
        ck_assert_uint_eq(ptx_expr_name(e)->len, c->len);
        ck_assert_int_eq(memcmp(ptx_expr_name(e)->text, text, c->len), 0);
        if (c->sel)
            ck_assert_str_eq(ptx_expr_sel(e)->text, c->sel);
        else
            ck_assert_ptr_null(ptx_expr_sel(e));
    } else if (c->kind == PTX_EXPR_INT) {
        ck_assert_uint_eq(ptx_expr_int(e), 7);
    } else if (c->kind == PTX_EXPR_FLOAT) {
        ck_assert(ptx_expr_float(e) == 1.0);
    } else {
        ck_assert_uint_eq(ptx_expr_int(e), 0x3F800000);
    }
    /* printed back in the canonical layout: names as they were, numbers
     * by value (the leading zeros of an octal literal are not kept) */
    test_buf out = { 0 };
    ck_assert_int_eq(ptx_print_ptx(NULL, ctx->module, test_buf_write, &out), PTX_OK);
    ck_assert_ptr_nonnull(out.p);
    if (c->kind == PTX_EXPR_INT)
        ck_assert_ptr_nonnull(strstr(out.p, "r, 07;"));
    else if (c->kind == PTX_EXPR_FLOAT)
        ck_assert_ptr_nonnull(strstr(out.p, "r, 1.0;"));
    else
        ck_assert_ptr_nonnull(strstr(out.p, body + strlen("mov.u32 ")));
    free(out.p);
    free(body);
    free(text);
    ptx_context_free(ctx);
}
END_TEST

/* Instructions whose opcode token and distance from their start (the
 * guard before it) are the same share one array of modifiers; each
 * modifier's offset is where it stands in each. */
START_TEST(modifiers_shared_by_instructions_alike)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "ld.global.u32 r1, [r2];\n"
                                      "ld.global.u32 r3, [r4];\n"
                                      "@p ld.global.u32 r1, [r2];\n"
                                      "@q ld.global.u32 r1, [r2];\n"
                                      "@!p ld.global.u32 r1, [r2];\n"
                                      "@p  ld.global.u32 r1, [r2];\n"
                                      "ld.global .u32 r1, [r2];\n"
                                      "ld.shared.u32 r1, [r2];\n");
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_instr *in[8];
    for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++)
        in[i] = instr_at(m, i);
    ck_assert_ptr_eq(in[0]->mods, in[1]->mods);
    ck_assert_ptr_eq(in[2]->mods, in[3]->mods);
    ck_assert_ptr_ne(in[0]->mods, in[2]->mods);
    ck_assert_ptr_ne(in[2]->mods, in[4]->mods);
    ck_assert_ptr_eq(in[4]->mods, in[5]->mods);
    ck_assert_int_eq(in[6]->flags & PTX_INSTR_SHARED_MODS, 0);
    ck_assert_ptr_ne(in[0]->mods, in[7]->mods);
    size_t len;
    const char *text = ptx_context_source(ctx, &len);
    for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {
        /* the opcode, with its offset, before the modifiers */
        ck_assert_str_eq(ptx_instr_opcode(in[i])->text, "ld");
        ck_assert_int_eq(strncmp(text + ptx_mod_offset(in[i], -1), "ld.", 3), 0);
        ck_assert_uint_eq(in[i]->nmods, 2);
        ck_assert_int_eq(strncmp(text + ptx_mod_offset(in[i], 0), i == 7 ? ".shared" : ".global", 7), 0);
        ck_assert_int_eq(strncmp(text + ptx_mod_offset(in[i], 1), ".u32 ", 5), 0);
    }
    ptx_context_free(ctx);
}
END_TEST

/* ======================================================================== */
/* The shape of each operand kind */

START_TEST(shape_names)
{
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, "mov.u32 %r1, %tid.x;");
    ck_assert_str_eq(ptx_instr_opcode(in)->text, "mov");
    ck_assert_ptr_null(ptx_instr_guard(in));
    ck_assert_uint_eq(in->nmods, 1);
    ck_assert_str_eq(in->mods[0].name->text, ".u32");
    ck_assert_uint_eq(in->nops, 2);
    assert_sym(&in->ops[0], "%r1", NULL);
    assert_sym(&in->ops[1], "%tid", ".x");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_video_selectors)
{
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, "vadd.s32.u32.s32 r1, r1.b0, r2.h1;");
    ck_assert_uint_eq(in->nops, 3);
    assert_sym(&in->ops[0], "r1", NULL);
    assert_sym(&in->ops[1], "r1", ".b0");
    assert_sym(&in->ops[2], "r2", ".h1");
    /* interned: r1 of operand 0 and of operand 1 is one name */
    ck_assert_ptr_eq(ptx_expr_name(&in->ops[0]), ptx_expr_name(&in->ops[1]));
    ptx_context_free(ctx);
}
END_TEST

/* "ld.global.u32" is scanned as one token: the opcode, then its words in
 * order with their own offsets, and words written apart follow them */
START_TEST(shape_dotted_opcode)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "ld.global.L1::no_allocate .u32 r1, [r2];");
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_instr *in = instr_at(m, 0);
    ck_assert_str_eq(ptx_instr_opcode(in)->text, "ld");
    ck_assert_uint_eq(in->nmods, 3);
    ck_assert_str_eq(in->mods[0].name->text, ".global");
    ck_assert_str_eq(in->mods[1].name->text, ".L1::no_allocate");
    ck_assert_str_eq(in->mods[2].name->text, ".u32");
    ck_assert_uint_eq(in->mods[1].off - in->mods[0].off, 7);
    ck_assert_uint_eq(in->mods[2].off - in->mods[1].off, 17);
    ptx_context_free(ctx);
}
END_TEST

/* ---- instructions the scanner takes whole (SIMPLE) ---------------------- */

/* b is a copy of a written `shift` bytes later in the same source */
static void assert_same_expr(const ptx_expr *a, const ptx_expr *b, uint32_t shift)
{
    ck_assert_int_eq(a->kind, b->kind);
    ck_assert_int_eq(a->op, b->op);
    ck_assert_uint_eq(ptx_expr_depth(a), ptx_expr_depth(b));
    ck_assert_uint_eq(ptx_expr_count(a), ptx_expr_count(b));
    ck_assert_uint_eq(ptx_expr_span(a).off + shift, ptx_expr_span(b).off);
    ck_assert_uint_eq(ptx_expr_span(a).len, ptx_expr_span(b).len);
    switch ((ptx_expr_kind)a->kind) {
    case PTX_EXPR_SYM:
        ck_assert_ptr_eq(ptx_expr_name(a), ptx_expr_name(b));
        ck_assert_ptr_eq(ptx_expr_sel(a), ptx_expr_sel(b));
        break;
    case PTX_EXPR_INT: case PTX_EXPR_F32: case PTX_EXPR_F64:
        ck_assert_uint_eq(ptx_expr_int(a), ptx_expr_int(b));
        break;
    case PTX_EXPR_UNARY:
        assert_same_expr(ptx_expr_a(a), ptx_expr_a(b), shift);
        break;
    case PTX_EXPR_BINARY: case PTX_EXPR_PAIR:
        assert_same_expr(ptx_expr_a(a), ptx_expr_a(b), shift);
        assert_same_expr(ptx_expr_b(a), ptx_expr_b(b), shift);
        break;
    case PTX_EXPR_ADDR: case PTX_EXPR_VEC:
        ck_assert_ptr_eq(ptx_expr_suffix(a), ptx_expr_suffix(b));
        for (uint32_t i = 0; i < ptx_expr_count(a); i++)
            assert_same_expr(ptx_expr_item(a, i), ptx_expr_item(b, i), shift);
        break;
    default:
        ck_abort_msg("unexpected operand kind %d", a->kind);
    }
}

/* An instruction at the start of its line is one token for the scanner
 * (the fast lane builds it); after "{" on the same line it takes the
 * grammar's way.  Both trees are the same, offsets included: the two
 * bodies put the statement at the same place. */
static const char *const one_token_stmts[] = {
    "add.s32 r1, r2, r3;",
    "ret;",
    "exit ;",
    "@p bra.uni $L__BB0_2;",
    "@!%p1 bra $L;",
    "mov.u32 %r1, %tid.x;",
    "mov.u32 %r1 ,%ctaid.y ;",
    "shl.b32 r1, r2, 18446744073709551;",
    "bar.sync 0;",
    "ld.param.u64 %rd1, [_Z6kernelPfS_i_param_0];",
    "ld.global.nc.v2.u32 r1, [%rd1 + 12];",
    "st.shared.u32 [ r1+0 ], r2;",
    "ld.global.L1::no_allocate.u32 r1, [r2];",
    "vadd.s32.u32.s32 r1, r1.b0, r2.h1;",
    "vote.sync.ballot.b32 %r1, %p1, -1;",
    "selp.f32 %f1, 0f3F800000, 0F00000000, %p1;",
    "mov.f64 %fd1, 0dBFF0000000000000;",
    "add.s32 r1, r2, -2147483648;",
    "selp.b64 %rd1, -9223372036854775808, 9999999999999999999, %p1;",
    "vote.ballot.sync.b32 %r1, p, 0xffffffff;",
    "and.b64 %rd1, %rd2, 0X0123456789abcDEF;",
    "shfl.sync.idx.b32 %r1|%p1, %r2, %r3, %r4, %r5;",
    "shfl.sync.idx.b32 %r1 | %p1, %r2, %r3, %r4, %r5;",
    "mov.b64 %rd1, {%r1, %r2};",
    "ld.shared.v4.u32 {%r1,%r2 , %r3,%r4}, [%r5+16];",
    "st.global.v2.u32 [%rd1], { a, b };",
};

START_TEST(one_token_instruction_as_grammar)
{
    const char *s = one_token_stmts[_i];
    char body[600];
    snprintf(body, sizeof body, "\t\t%s\n{\t%s\n}\n", s, s);
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body);
    ck_assert_msg(ptx_diag_count(ctx) == 0, "'%s': %s", s, first_message(ctx));
    const ptx_instr *a = instr_at(m, 0);
    const ptx_node *blk = stmt_at(m, 1);
    ck_assert_int_eq(blk->kind, PTX_NODE_BLOCK);
    const ptx_instr *b = (const ptx_instr *)((const ptx_block *)blk)->first;
    ck_assert_int_eq(b->base.kind, PTX_NODE_INSTR);
    /* the copy is the statement, "\n" and "{\t" later */
    uint32_t shift = b->base.span.off - a->base.span.off;
    ck_assert_uint_eq(shift, strlen(s) + 3);
    ck_assert_uint_eq(a->base.span.len, b->base.span.len);
    ck_assert_ptr_eq(ptx_instr_opcode(a), ptx_instr_opcode(b));
    ck_assert_int_eq(!ptx_instr_guard(a), !ptx_instr_guard(b));
    if (ptx_instr_guard(a)) {
        ck_assert_ptr_eq(ptx_expr_name(ptx_instr_guard(a)), ptx_expr_name(ptx_instr_guard(b)));
        ck_assert_uint_eq(ptx_expr_span(ptx_instr_guard(a)).off + shift, ptx_expr_span(ptx_instr_guard(b)).off);
    }
    ck_assert_uint_eq(a->guard_neg, b->guard_neg);
    ck_assert_uint_eq(a->nmods, b->nmods);
    for (unsigned i = 0; i < a->nmods; i++) {
        ck_assert_ptr_eq(a->mods[i].name, b->mods[i].name);
        ck_assert_uint_eq(ptx_mod_offset(a, i) + shift, ptx_mod_offset(b, i));
    }
    ck_assert_uint_eq(a->nops, b->nops);
    for (unsigned i = 0; i < a->nops; i++)
        assert_same_expr(&a->ops[i], &b->ops[i], shift);
    ptx_context_free(ctx);
}
END_TEST

/* The tree as JSON (spans included) and the diagnostics of `text`,
 * parsed with the fast lane or without it (every token through the
 * grammar's rules). */
static char *parsed_as(const char *text, bool fast_lane)
{
    ptx_context *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(ctx);
    ptx_context_set_validation(ctx, false);
    ptx_context_set_fast_lane(ctx, fast_lane);
    const ptx_module *m = NULL;
    ptx_parse_buffer(ctx, "t.ptx", text, strlen(text), &m);
    test_buf b = { 0 };
    if (m)
        ck_assert_int_eq(ptx_print_json(ctx, m, NULL, NULL, test_buf_write, &b), PTX_OK);
    for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        char line[600];
        int n = snprintf(line, sizeof line, "\n%u+%u %s", d->span.off, d->span.len, d->message);
        test_buf_write(&b, line, (size_t)n);
    }
    ptx_context_free(ctx);
    return b.p ? b.p : strdup("");
}

/* Statements the fast lane takes (alone, in runs, after labels and .loc
 * lines, data runs), and text around them that it must leave to the
 * rules: the same tree and the same diagnostics either way. */
static const char *const both_ways_bodies[] = {
    "\tadd.s32 r1, r2, r3;\n\tmov.u32 %r1, %tid.x;\n$L__BB0_1:\n\t@!%p1 bra $L__BB0_1;\n\tret;\n",
    "\t.loc 1 2 3\n\tld.global.v2.u32 {a, b}, [r+8];\n\t.loc 2 1089 9, function_name $L__info_string0, inlined_at 1 34 3\n\tret;\n",
    "\t.loc 1 2 3\n\t, function_name $L\n\tret;\n",
    "$L:\n.callprototype _ ();\n\tret;\n",
    "mov.u32 r1,\n\t%tid.x;\n\tadd.s32 r1, r2, 99999999999999999999;\n\tadd.s32 r1, r2, 0x10000000000000000;\n",
    "\tselp.f32 %f1, 0f3F800000, 0d3FF0000000000000, %p1;\n\tshfl.sync.idx.b32 %r1 | %p1, %r2, %r3, %r4, %r5;\n",
    "\tadd.s32 r1, r2 r3;\n\tret;\n\tmov.u32 r1, [r2 + -1];\n\tret;\n",
    "\tret; // c\n/* block */\tret;\n\t{ ret;\n\t}\n\tbar.sync 0; bar.sync 1;\n",
    /* the fast lane builds as it walks: these turn out to be of another
     * shape after operands were built, which it gives back */
    "\tmov.b64 {r1, _}, r2;\n\ttex.1d.v4.f32.s32 {a, b, c, d}, [t, {r1}];\n"
        "\tst.global.u32 [r1+4], r2 + 1;\n\tadd.s32 r1, r2, r3 r4;\n\tret;\n",
    /* a run the parser's error recovery reads after an error */
    "\tadd.s32 r1, r2,\n\tret;\n\t.loc 1 2 3\n$L:\n\tret;\n",
};

static const char *const both_ways_modules[] = {
    HDR ".section .debug_info\n{\n.b32 7\n.b8 1, 2\n.b64 $L__tmp3\n$L__info:\n.b8 3\n.b32 .debug_abbrev\n"
        ".b8 5 // c\n.b8 6\n/* c */ .b8 7\n.b8 8\n}\n",
    HDR ".section .debug_loc\n{\n.b64 $L__tmp1\n.b64 $L__end\n.b8 5\n.b8 0\n.b16 300\n.b64 0\n$L__debug_loc1:\n"
        ".b64 $L__tmp2\n.b32 99999999999999999999\n.b8 1\n}\n",
    HDR ".visible .entry k()\n{\n\tret;\n.b8 1\n\tret;\n}\n",
};

static void assert_same_both_ways(const char *text)
{
    char *fast = parsed_as(text, true), *slow = parsed_as(text, false);
    size_t at = test_first_difference(fast, slow);
    ck_assert_msg(at == (size_t)-1, "the fast lane and the grammar differ at %zu:\n%.80s\n%.80s",
                  at, fast + (at == (size_t)-1 ? 0 : at), slow + (at == (size_t)-1 ? 0 : at));
    free(fast);
    free(slow);
}

START_TEST(fast_lane_as_grammar_stmts)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s", test_head, one_token_stmts[_i], test_tail);
    assert_same_both_ways(text);
}
END_TEST

START_TEST(fast_lane_as_grammar_bodies)
{
    char text[2048];
    snprintf(text, sizeof text, "%s%s%s", test_head, both_ways_bodies[_i], test_tail);
    assert_same_both_ways(text);
}
END_TEST

START_TEST(fast_lane_as_grammar_modules)
{
    assert_same_both_ways(both_ways_modules[_i]);
}
END_TEST

/* Only at the start of a statement: a line that continues an instruction
 * is not one, even when it looks like one ("%tid.x;"). */
START_TEST(one_token_instruction_only_at_statement_start)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "mov.u32 r1,\n\t%tid.x;\n$L:\n\tadd.s32 r1, r2, r3;\n");
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", first_message(ctx));
    const ptx_instr *mov = instr_at(m, 0);
    ck_assert_uint_eq(mov->nops, 2);
    assert_sym(&mov->ops[1], "%tid", ".x");
    ck_assert_int_eq(stmt_at(m, 1)->kind, PTX_NODE_LABEL);
    ck_assert_uint_eq(instr_at(m, 2)->nops, 3);
    ptx_context_free(ctx);
}
END_TEST

/* The builder of a data run finds it among the last two runs measured
 * (the scanner measures the token after a run before the parser builds
 * the run); an older run is measured again, with the same result. */
START_TEST(data_run_measured_again)
{
    static const char text[] = ".b8 1\n.b8 2\n;\n.b16 300\n;\n.b32 7, 8\n;\n";
    ptx_context *ctx = ptx_context_new();
    ctx->src = malloc(sizeof text + 1);
    ck_assert_ptr_nonnull(ctx->src);
    memcpy(ctx->src, text, sizeof text);
    ctx->src[sizeof text] = '\0';
    ctx->srclen = sizeof text - 1;
    ck_assert_int_eq(setjmp(ctx->oom), 0);
    const char *at[3] = { ctx->src, strstr(ctx->src, ".b16"), strstr(ctx->src, ".b32") };
    ptx_tok t[3];
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        size_t n = ptx_data_run_length(ctx, at[i]);
        ck_assert_uint_gt(n, 0);
        t[i] = (ptx_tok){ (uint32_t)(at[i] - ctx->src), (uint32_t)n, 0, { 0 } };
    }
    /* run 0 is neither of the last two: measured again; then run 2 is
     * one of the last two, and run 1 is measured again */
    static const int order[3] = { 0, 2, 1 };
    static const uint64_t values[3][2] = { { 1, 2 }, { 300, 0 }, { 7, 8 } };
    static const unsigned counts[3] = { 2, 1, 2 }, widths[3] = { 1, 2, 1 };
    static const char *const words[3] = { ".b8", ".b16", ".b32" };
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        int i = order[k];
        const ptx_data *d = (const ptx_data *)ptx_b_data_run(ctx, &t[i]);
        ck_assert_uint_eq(d->count, counts[i]);
        ck_assert_uint_eq(d->width, widths[i]);
        ck_assert_str_eq(ptx_data_line_word(d, 0), words[i]);
        for (unsigned v = 0; v < counts[i]; v++)
            ck_assert_uint_eq(ptx_data_int(d, v), values[i][v]);
        ck_assert_uint_eq(d->base.span.off, t[i].off);
    }
    ptx_context_free(ctx);
}
END_TEST

/* Tokens the scanner gives the parser for the module around `body`. */
static size_t body_tokens(const char *body)
{
    ptx_context *ctx;
    test_parse_body(&ctx, body, false);
    size_t n = ctx->tokens_parsed;
    ptx_context_free(ctx);
    return n;
}

/* What the scanner takes as one token: the tokens a body adds to the
 * empty kernel's.  Instructions and .loc lines that it takes whole and
 * that follow one another are one STMTS token. */
static const struct {
    const char *body;
    size_t tokens;
    const char *why;
} token_cases[] = {
    { "\tadd.s32 r1, r2, r3;\n\tret;", 1, "two instructions, one token for both" },
    { "\tadd.s32 r1, r2, r3;\n\tst.global.v2.u32 [r1], {r2, 3};\n\tret;", 1 + 11 + 1,
      "an instruction of another shape ends a run and takes the rules' way" },
    { "\t// note\n\n\t  \n\tadd.s32 r1, r2, r3; // more\n\tret;", 1,
      "blank lines and '//' comments do not keep instructions from being one token" },
    { "\t// caf\xc3\xa9\n\tret;", 2,
      "a comment with a byte to report goes the rules' way, and the instruction after it" },
    { "\t/* c */\n\tret;", 2, "so does a block comment" },
    { "\tret; ret;", 1,
      "an instruction after another on its line is taken too (inline assembly writes so): one token" },
    { "\t.loc 1 2 3\n\tadd.s32 r1, r2, r3;", 1,
      "a .loc line is taken whole, and a statement starts after it: one token for both" },
    { "\t.loc\t1 0 30\r\n\n\t.loc 1 3 4\n\tret;", 1, ".loc lines with tabs and CRLF" },
    { "\t.loc 1 2 3\n\t, function_name $L\n\tret;", 9, ".loc with an attribute on the next line: the rules' way" },
    { "\t.loc 1 2 3 // c\n\tret;", 6, ".loc with a comment after it: the rules' way" },
    { "\t.loc 1 2 3\n// c\n\t, function_name $L\n\tret;", 9,
      ".loc with an attribute after a comment line: the rules' way" },
    { "\t.loc 1 2 3\n/* c */\n\tret;", 6, ".loc with a block comment after it: the rules' way" },
    { "\t.loc 1 2 1234567890\n\tret;", 6, ".loc with a number of 10 digits: the rules' way" },
    { "\t.loc 2 1089 9, function_name $L__info_string0, inlined_at 1 34 3\n\tret;", 1,
      ".loc with the attributes nvcc writes, in its order: taken whole" },
    { "\t.loc 2 1 9 , function_name f\n\tret;", 9,
      ".loc with function_name alone (an error at the token after it): the rules' way" },
    { "\t.loc 2 1 9,inlined_at 1 2 3\n\tret;", 10, ".loc with inlined_at alone (an error): the rules' way" },
    { "\t.loc 2 1 9, inlined_at 1 2 3, function_name f\n\tret;", 4 + 5 + 3 + 2,
      ".loc attributes in another order: the rules' way" },
    { "\t.loc 2 1 9, function_name f+4\n\tret;", 4 + 5 + 2,
      ".loc function_name with an offset: the rules' way" },
    { "$L__BB0_1:\n\tret;", 2, "a label ending its line is one token, and a statement starts after it" },
    { "$L__BB0_1: \r\n\n// c\n$L__BB0_2:\n\tret;", 3, "labels with blanks, CRLF and comments after them" },
    { "$L: ret;", 3, "a label with a statement on its line: the label the rules' way, the statement taken" },
    { "\tmov.b64 %rd1, {%r1, %r2};\n\tvote.ballot.sync.b32 %r1, p, 0xffffffff;\n"
      "\tshfl.sync.idx.b32 %r1|%p1, %r2, %r3, %r4, %r5;\n\tsetp.eq.s64 %p1, %rd1, -9223372036854775808;", 1,
      "vectors of names, 0x constants, pairs and 19-digit decimals are taken whole" },
    { "\tmov.b64 %rd1, 0x1FFFFFFFFFFFFFFFF;", 5,
      "a 0x constant of 17 digits takes the rules' way" },
    { "\tmov.b32 %r1, 0x1U;", 5, "so does one with U" },
    { "\tmov.b64 %rd1, 12345678901234567890;", 5, "and a decimal of 20 digits" },
    { "\tmov.b64 %rd1, {%r1, 0};", 9, "and a vector with a number in it" },
    { "\tret;\n$L__BB0_1:\n\t.loc 1 2 3\n$L__tmp1:\n\tret;", 1,
      "labels after an instruction or a .loc line go on with its run" },
    { "\tret;\np:\n\t.callprototype _ ();", 1 + 7,
      "a label naming a .callprototype ends a run and takes the rules' way" },
    { "p:\n\t.callprototype _ ();", 7, "a label naming a .callprototype on the next line: the rules' way" },
    { "p: // c\n\t.callprototype _ ();", 7, "the same after a comment" },
    { "p:\n/* c */ .callprototype _ ();", 7, "the same after a block comment" },
    { "t:\n.branchtargets A, B;\nA:\nB:\nret;", 10, "a label naming a .branchtargets" },
    { "t:\n.calltargets f;\nret;", 6, "a label naming a .calltargets" },
    { "\t.reg .b32 %r<5>;\n\t.reg .pred %p, %q;\n\tret;", 3,
      "declarations of the common shape are taken whole, a token each: no run holds one" },
    { "\t.param .align 16 .b8 param0[24];\n\t.local .u64 a[2][3], b;\n\t.shared .f32 s[4];", 3,
      ".param, .local and .shared, with .align and arrays" },
    { "\t{\n\t.reg .pred p;\n\tret;\n\t}\n\tret;", 5,
      "a block's braces, each a token (inline assembly writes such blocks)" },
    { "\t.reg .b32 r[2];", 7, "an array of registers (an error) takes the rules' way" },
    { "\t.reg .v2 .b32 r;", 5, "so does a vector" },
    { "\t.reg .b32 _;", 4, "and the sink as a name" },
    { "\t.reg .b32 r = 1;", 6, "and an initialiser" },
    { "\t.reg .b32 %r<010>;", 7, "and a count that is not a plain decimal" },
    { "\t.reg .b32 %r<4294967296>;", 7, "and a count of 2^32 (an error)" },
    { "\t.shared .align 3 .b8 s[4];", 9, "and an alignment that is not a power of two (an error)" },
    { "\t.global .b32 g;", 4, "and a state space other than .reg, .param, .local, .shared" },
    { "\t.reg .b32 a.b;", 4, "and a name with a selector" },
    { "\t.align 4 .local .b8 d[8];", 9, "and .align before the state space" },
};

/* A STMTS token holds at most PTX_RUN_PIECES statements; the next ones
 * make another, and every statement is built, in order. */
START_TEST(statement_runs_are_capped)
{
    size_t n = PTX_RUN_PIECES + 5;
    char *body = malloc(n * 20 + 1);
    ck_assert_ptr_nonnull(body);
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(body + len, i % 2 ? "\tadd.s32 r, r, %zu;\n" : "\t.loc 1 %zu 1\n", i);
    size_t base = body_tokens("");
    ck_assert_uint_eq(body_tokens(body), base + 2);
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body);
    free(body);
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", first_message(ctx));
    size_t k = 0;
    for (const ptx_node *s = ((const ptx_func *)m->first)->body->first; s; s = s->next, k++) {
        if (k % 2) {
            ck_assert_int_eq(s->kind, PTX_NODE_INSTR);
            ck_assert_uint_eq(ptx_expr_int(&((const ptx_instr *)s)->ops[2]), k);
        } else {
            ck_assert_int_eq(s->kind, PTX_NODE_LOC);
            ck_assert_uint_eq(((const ptx_loc *)s)->line, k);
        }
    }
    ck_assert_uint_eq(k, n);
    ptx_context_free(ctx);
}
END_TEST

/* A run's labels are the nodes their own tokens make. */
START_TEST(statement_run_with_labels)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "\tret;\n$L__BB0_1:\n\t.loc 1 2 3\n$L__tmp1:\n\tret;\n");
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", first_message(ctx));
    static const int kinds[] = { PTX_NODE_INSTR, PTX_NODE_LABEL, PTX_NODE_LOC, PTX_NODE_LABEL,
                                 PTX_NODE_INSTR };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        ck_assert_int_eq(stmt_at(m, (unsigned)i)->kind, kinds[i]);
    const ptx_label *a = (const ptx_label *)stmt_at(m, 1), *b = (const ptx_label *)stmt_at(m, 3);
    ck_assert_str_eq(a->name->text, "$L__BB0_1");
    ck_assert_str_eq(b->name->text, "$L__tmp1");
    ck_assert_uint_eq(a->base.span.len, 10);
    ck_assert_int_eq(memcmp(ctx->src + b->base.span.off, "$L__tmp1:", 9), 0);
    ck_assert_ptr_null(stmt_at(m, 4)->next);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(one_token_shapes)
{
    size_t base = body_tokens("");
    size_t n = body_tokens(token_cases[_i].body);
    ck_assert_msg(n == base + token_cases[_i].tokens, "%s: %zu tokens, expected %zu",
                  token_cases[_i].why, n - base, token_cases[_i].tokens);
}
END_TEST

/* A label ending its line makes the same node as the rules' "name :". */
START_TEST(label_line_as_grammar)
{
    ptx_context *ctx;
    const ptx_module *m = test_parse_body(&ctx, "$L__BB0_1:\n\tret;\np:\n.callprototype _ ();", false);
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_label *l = (const ptx_label *)stmt_at(m, 0);
    ck_assert_int_eq(l->base.kind, PTX_NODE_LABEL);
    ck_assert_str_eq(l->name->text, "$L__BB0_1");
    ck_assert_uint_eq(l->base.span.len, strlen("$L__BB0_1:"));
    ck_assert_int_eq(stmt_at(m, 2)->kind, PTX_NODE_CALLPROTO);
    ptx_context_free(ctx);
}
END_TEST

/* The node is the same either way: numbers and span. */
START_TEST(loc_line_as_grammar)
{
    ptx_context *ctx;
    const ptx_module *m = test_parse_body(&ctx, "\t.loc 12 345 6\n/**/ .loc 12 345 6\n\t.loc 1 2 123456789\n", false);
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_loc *a = (const ptx_loc *)stmt_at(m, 0), *b = (const ptx_loc *)stmt_at(m, 1);
    ck_assert_int_eq(a->base.kind, PTX_NODE_LOC);
    ck_assert_int_eq(b->base.kind, PTX_NODE_LOC);
    ck_assert_uint_eq(a->file, 12);
    ck_assert_uint_eq(a->line, 345);
    ck_assert_uint_eq(a->col, 6);
    ck_assert_uint_eq(b->file, 12);
    ck_assert_uint_eq(b->line, 345);
    ck_assert_uint_eq(b->col, 6);
    ck_assert_uint_eq(a->base.span.len, strlen(".loc 12 345 6"));
    ck_assert_uint_eq(b->base.span.len, a->base.span.len);
    ck_assert_ptr_null(a->function_name);
    ck_assert_uint_eq(((const ptx_loc *)stmt_at(m, 2))->col, 123456789);
    ptx_context_free(ctx);
    /* regression: an attribute after a comment line is the .loc's */
    m = test_parse_body(&ctx, "\t.loc 1 2 3\n// c\n\t, function_name $L, inlined_at 1 1 1\n\tret;\n", false);
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", ptx_diag_count(ctx) ? ptx_diag_get(ctx, 0)->message : "");
    ck_assert_str_eq(((const ptx_loc *)stmt_at(m, 0))->function_name->text, "$L");
    ptx_context_free(ctx);
    m = test_parse_body(&ctx, "\t.loc 2 1089 9, function_name $L__info_string0, inlined_at 1 34 3\n"
                              "/**/ .loc 2 1089 9, function_name $L__info_string0, inlined_at 1 34 3\n", false);
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    a = (const ptx_loc *)stmt_at(m, 0);
    b = (const ptx_loc *)stmt_at(m, 1);
    ck_assert_uint_eq(a->line, 1089);
    ck_assert_ptr_nonnull(a->function_name);
    ck_assert_ptr_eq(a->function_name, b->function_name);
    ck_assert_str_eq(a->function_name->text, "$L__info_string0");
    ck_assert_uint_eq(a->function_offset, 0);
    ck_assert_uint_eq(a->has_inlined_at, 1);
    ck_assert_uint_eq(b->has_inlined_at, 1);
    ck_assert_uint_eq(a->in_file, b->in_file);
    ck_assert_uint_eq(a->in_line, 34);
    ck_assert_uint_eq(b->in_line, 34);
    ck_assert_uint_eq(a->in_col, 3);
    ck_assert_uint_eq(b->in_col, 3);
    ck_assert_uint_eq(a->base.span.len, b->base.span.len);
    ptx_context_free(ctx);
}
END_TEST

/* A syntax error at an instruction of the shape the fast lane takes
 * whole: named by its first token, and discarded up to its ';' by error
 * recovery, as when its tokens come one by one; the next one is kept. */
START_TEST(one_token_instruction_after_error)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, ".local .u32 a[2] = {1,\n2}\n\tadd.s32 r1, r2, r3;\n\tret;\n");
    ck_assert_uint_eq(ptx_diag_count(ctx), 1);
    ck_assert_str_eq(first_message(ctx), "unexpected dotted name 'add.s32', expected ',' or ';'");
    ck_assert_str_eq(ptx_instr_opcode(instr_at(m, 0))->text, "ret");
    ck_assert_ptr_null(stmt_at(m, 0)->next);
    ptx_context_free(ctx);
}
END_TEST

/* a name takes one selector: r1.b0.b1 is an error on the second */
START_TEST(shape_two_selectors)
{
    ptx_context *ctx;
    parse(&ctx, "vadd.s32.u32.s32 r1, r1.b0.b1, r2;");
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message,
                     "unexpected dot-word '.b1': a name takes one selector");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_guard)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "@%p1 bra L;\n@!%p1 bra L;\nL: ret;");
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_instr *a = instr_at(m, 0), *b = instr_at(m, 1);
    ck_assert_str_eq(ptx_expr_name(ptx_instr_guard(a))->text, "%p1");
    ck_assert_uint_eq(a->guard_neg, 0);
    ck_assert_uint_eq(b->guard_neg, 1);
    ck_assert_ptr_eq(ptx_expr_name(ptx_instr_guard(a)), ptx_expr_name(ptx_instr_guard(b)));
    ck_assert_ptr_eq(ptx_instr_opcode(a), ptx_instr_opcode(b));
    assert_sym(&a->ops[0], "L", NULL);
    const ptx_node *l = stmt_at(m, 2);
    ck_assert_int_eq(l->kind, PTX_NODE_LABEL);
    ck_assert_ptr_eq(((const ptx_label *)l)->name, ptx_expr_name(&a->ops[0]));
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_pair_and_sink)
{
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, "setp.lt.and.s32 p|_, 1, 2, !q;");
    ck_assert_uint_eq(in->nops, 4);
    const ptx_expr *pair = &in->ops[0];
    ck_assert_int_eq(pair->kind, PTX_EXPR_PAIR);
    assert_sym(ptx_expr_a(pair), "p", NULL);
    ck_assert_int_eq(ptx_expr_b(pair)->kind, PTX_EXPR_SINK);
    const ptx_expr *neg = &in->ops[3];
    ck_assert_int_eq(neg->kind, PTX_EXPR_UNARY);
    ck_assert_int_eq(neg->op, PTX_OP_LNOT);
    assert_sym(ptx_expr_a(neg), "q", NULL);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_bor_is_not_a_pair)
{
    /* a | b with a non-name operand stays a binary expression */
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, "mov.b32 %r1, 1|2;");
    ck_assert_int_eq(in->ops[1].kind, PTX_EXPR_BINARY);
    ck_assert_int_eq(in->ops[1].op, PTX_OP_BOR);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_literals)
{
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, "st.global.v4.b32 [a], {1, 1.5, 0f3F800000, 0d3FF0000000000000};");
    const ptx_expr *v = &in->ops[1];
    ck_assert_int_eq(v->kind, PTX_EXPR_VEC);
    ck_assert_uint_eq(ptx_expr_count(v), 4);
    assert_int(ptx_expr_item(v, 0), 1);
    ck_assert_int_eq(ptx_expr_item(v, 1)->kind, PTX_EXPR_FLOAT);
    ck_assert(ptx_expr_float(ptx_expr_item(v, 1)) == 1.5);
    ck_assert_int_eq(ptx_expr_item(v, 2)->kind, PTX_EXPR_F32);
    ck_assert_uint_eq(ptx_expr_int(ptx_expr_item(v, 2)), 0x3F800000);
    ck_assert_int_eq(ptx_expr_item(v, 3)->kind, PTX_EXPR_F64);
    ck_assert_uint_eq(ptx_expr_int(ptx_expr_item(v, 3)), 0x3FF0000000000000ULL);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_precedence)
{
    ptx_context *ctx;
    /* 1 + 2 * 3 << 1 == 14 ? -4 : ~0  parses as ((1 + (2*3)) << 1) == 14 ? (-4) : (~0) */
    const ptx_instr *in = one_instr(&ctx, "mov.b32 %r1, 1 + 2 * 3 << 1 == 14 ? -4 : ~0;");
    const ptx_expr *e = &in->ops[1];
    ck_assert_int_eq(e->kind, PTX_EXPR_COND);
    ck_assert_uint_eq(ptx_expr_count(e), 3);
    const ptx_expr *eq = ptx_expr_item(e, 0);
    ck_assert_int_eq(eq->kind, PTX_EXPR_BINARY);
    ck_assert_int_eq(eq->op, PTX_OP_EQ);
    const ptx_expr *shl = ptx_expr_a(eq);
    ck_assert_int_eq(shl->op, PTX_OP_SHL);
    const ptx_expr *add = ptx_expr_a(shl);
    ck_assert_int_eq(add->op, PTX_OP_ADD);
    assert_int(ptx_expr_a(add), 1);
    ck_assert_int_eq(ptx_expr_b(add)->op, PTX_OP_MUL);
    assert_int(ptx_expr_b(eq), 14);
    ck_assert_int_eq(ptx_expr_item(e, 1)->kind, PTX_EXPR_UNARY);
    ck_assert_int_eq(ptx_expr_item(e, 1)->op, PTX_OP_NEG);
    ck_assert_int_eq(ptx_expr_item(e, 2)->kind, PTX_EXPR_UNARY);
    ck_assert_int_eq(ptx_expr_item(e, 2)->op, PTX_OP_BNOT);
    /* the expression spans the operand's whole text */
    ck_assert_uint_eq(ptx_expr_span(e).len, strlen("1 + 2 * 3 << 1 == 14 ? -4 : ~0"));
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_paren_and_cast)
{
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, "mov.b64 %rd1, (1 + 2) * (.s64)3;");
    const ptx_expr *e = &in->ops[1];
    ck_assert_int_eq(e->kind, PTX_EXPR_BINARY);
    ck_assert_int_eq(e->op, PTX_OP_MUL);
    ck_assert_int_eq(ptx_expr_a(e)->kind, PTX_EXPR_PAREN);
    ck_assert_int_eq(ptx_expr_a(ptx_expr_a(e))->op, PTX_OP_ADD);
    ck_assert_int_eq(ptx_expr_b(e)->kind, PTX_EXPR_CAST);
    ck_assert_int_eq(ptx_expr_b(e)->op, PTX_TYPE_S64);
    assert_int(ptx_expr_a(ptx_expr_b(e)), 3);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_addresses)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx,
        "ld.b32 r, [r];\nld.b32 r, [r+8];\nld.b32 r, [r+-8];\nld.b32 r, [var+4];\n"
        "ld.local.b32 r, [8];\ntex.2d.v4.s32.f32 {a, b, c, d}, [tex, {a, b}];\nld.b32 r, [a].unified;");
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", first_message(ctx));
    const ptx_expr *e;

    e = &instr_at(m, 0)->ops[1];
    ck_assert_int_eq(e->kind, PTX_EXPR_ADDR);
    ck_assert_uint_eq(ptx_expr_count(e), 1);
    ck_assert_ptr_null(ptx_expr_suffix(e));
    assert_sym(ptx_expr_item(e, 0), "r", NULL);
    /* r of the destination and r in the address: one interned name */
    ck_assert_ptr_eq(ptx_expr_name(ptx_expr_item(e, 0)), ptx_expr_name(&instr_at(m, 0)->ops[0]));

    e = ptx_expr_item(&instr_at(m, 1)->ops[1], 0);
    ck_assert_int_eq(e->kind, PTX_EXPR_BINARY);
    ck_assert_int_eq(e->op, PTX_OP_ADD);
    assert_sym(ptx_expr_a(e), "r", NULL);
    assert_int(ptx_expr_b(e), 8);

    e = ptx_expr_item(&instr_at(m, 2)->ops[1], 0);
    ck_assert_int_eq(e->op, PTX_OP_ADD);
    ck_assert_int_eq(ptx_expr_b(e)->kind, PTX_EXPR_UNARY);
    ck_assert_int_eq(ptx_expr_b(e)->op, PTX_OP_NEG);
    assert_int(ptx_expr_a(ptx_expr_b(e)), 8);

    e = ptx_expr_item(&instr_at(m, 3)->ops[1], 0);
    assert_sym(ptx_expr_a(e), "var", NULL);
    assert_int(ptx_expr_b(e), 4);

    e = &instr_at(m, 4)->ops[1];
    ck_assert_uint_eq(ptx_expr_count(e), 1);
    assert_int(ptx_expr_item(e, 0), 8);

    e = &instr_at(m, 5)->ops[1];
    ck_assert_int_eq(e->kind, PTX_EXPR_ADDR);
    ck_assert_uint_eq(ptx_expr_count(e), 2);
    assert_sym(ptx_expr_item(e, 0), "tex", NULL);
    ck_assert_int_eq(ptx_expr_item(e, 1)->kind, PTX_EXPR_VEC);
    ck_assert_uint_eq(ptx_expr_count(ptx_expr_item(e, 1)), 2);
    /* a and b in the coordinates are the names of the destination vector */
    const ptx_expr *dst = &instr_at(m, 5)->ops[0];
    ck_assert_ptr_eq(ptx_expr_name(ptx_expr_item(ptx_expr_item(e, 1), 0)), ptx_expr_name(ptx_expr_item(dst, 0)));
    ck_assert_ptr_eq(ptx_expr_name(ptx_expr_item(ptx_expr_item(e, 1), 1)), ptx_expr_name(ptx_expr_item(dst, 1)));

    e = &instr_at(m, 6)->ops[1];
    ck_assert_ptr_nonnull(ptx_expr_suffix(e));
    ck_assert_str_eq(ptx_expr_suffix(e)->text, ".unified");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_element)
{
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, "mov.u64 %rd1, arr[%r1+1];");
    const ptx_expr *e = &in->ops[1];
    ck_assert_int_eq(e->kind, PTX_EXPR_INDEX);
    assert_sym(ptx_expr_a(e), "arr", NULL);
    ck_assert_int_eq(ptx_expr_b(e)->kind, PTX_EXPR_BINARY);
    assert_sym(ptx_expr_a(ptx_expr_b(e)), "%r1", NULL);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_vector_with_sink)
{
    ptx_context *ctx;
    const ptx_instr *in = one_instr(&ctx, "ld.global.v4.f32 {%f1, _, %f3, _}, [p];");
    const ptx_expr *v = &in->ops[0];
    ck_assert_int_eq(v->kind, PTX_EXPR_VEC);
    ck_assert_uint_eq(ptx_expr_count(v), 4);
    assert_sym(ptx_expr_item(v, 0), "%f1", NULL);
    ck_assert_int_eq(ptx_expr_item(v, 1)->kind, PTX_EXPR_SINK);
    assert_sym(ptx_expr_item(v, 2), "%f3", NULL);
    ck_assert_int_eq(ptx_expr_item(v, 3)->kind, PTX_EXPR_SINK);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_call)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "call.uni (r), f, (a, b);\ncall f;\ncall (r), %rp, (a), proto;");
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_instr *c = instr_at(m, 0);
    ck_assert_str_eq(ptx_instr_opcode(c)->text, "call");
    ck_assert_uint_eq(c->nmods, 1);
    ck_assert_str_eq(c->mods[0].name->text, ".uni");
    ck_assert_uint_eq(c->nops, 3);
    ck_assert_int_eq(c->ops[0].kind, PTX_EXPR_LIST);
    ck_assert_uint_eq(ptx_expr_count(&c->ops[0]), 1);
    assert_sym(ptx_expr_item(&c->ops[0], 0), "r", NULL);
    assert_sym(&c->ops[1], "f", NULL);
    ck_assert_int_eq(c->ops[2].kind, PTX_EXPR_LIST);
    ck_assert_uint_eq(ptx_expr_count(&c->ops[2]), 2);
    assert_sym(ptx_expr_item(&c->ops[2], 0), "a", NULL);
    assert_sym(ptx_expr_item(&c->ops[2], 1), "b", NULL);

    const ptx_instr *c2 = instr_at(m, 1);
    ck_assert_uint_eq(c2->nops, 1);
    ck_assert_ptr_eq(ptx_expr_name(&c2->ops[0]), ptx_expr_name(&c->ops[1]));
    ck_assert_ptr_eq(ptx_instr_opcode(c2), ptx_instr_opcode(c));

    const ptx_instr *c3 = instr_at(m, 2);
    ck_assert_uint_eq(c3->nops, 4);
    assert_sym(&c3->ops[1], "%rp", NULL);
    assert_sym(&c3->ops[3], "proto", NULL);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_targets)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "ts: .branchtargets L<3>, M;\nct: .calltargets f;\nL0: L1: L2: M: ret;");
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", first_message(ctx));
    const ptx_targets *t = (const ptx_targets *)stmt_at(m, 0);
    ck_assert_int_eq(t->base.kind, PTX_NODE_TARGETS);
    ck_assert_uint_eq(t->is_branch, 1);
    ck_assert_str_eq(t->label->text, "ts");
    ck_assert_uint_eq(t->count, 2);
    ck_assert_int_eq(t->names[0]->kind, PTX_EXPR_RANGE);
    ck_assert_str_eq(ptx_expr_name(t->names[0])->text, "L");
    ck_assert_uint_eq(ptx_expr_count(t->names[0]), 3);
    assert_sym(t->names[1], "M", NULL);
    const ptx_label *mlabel = (const ptx_label *)stmt_at(m, 5);
    ck_assert_int_eq(mlabel->base.kind, PTX_NODE_LABEL);
    ck_assert_ptr_eq(mlabel->name, ptx_expr_name(t->names[1]));
    const ptx_targets *c = (const ptx_targets *)stmt_at(m, 1);
    ck_assert_uint_eq(c->is_branch, 0);
    ck_assert_uint_eq(c->count, 1);
    assert_sym(c->names[0], "f", NULL);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_initialisers)
{
    ptx_context *ctx;
    const char *src = HDR ".global .u32 x;\n.global .u64 t[3] = {generic(x), 0xFF00(x+4), x};\n";
    const ptx_module *m = parse_text(&ctx, src, strlen(src));
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", first_message(ctx));
    const ptx_decl *x = (const ptx_decl *)m->first;
    const ptx_decl *t = (const ptx_decl *)x->base.next;
    ck_assert_int_eq(t->base.kind, PTX_NODE_DECL);
    ck_assert_int_eq(t->space, PTX_SPACE_GLOBAL);
    ck_assert_int_eq(t->type, PTX_TYPE_U64);
    ck_assert_uint_eq(t->nvars, 1);
    const ptx_var *v = &t->vars[0];
    ck_assert_str_eq(v->name->text, "t");
    ck_assert_uint_eq(v->ndims, 1);
    ck_assert_uint_eq(v->dims[0], 3);
    const ptx_expr *init = v->init;
    ck_assert_int_eq(init->kind, PTX_EXPR_VEC);
    ck_assert_uint_eq(ptx_expr_count(init), 3);
    const ptx_expr *g = ptx_expr_item(init, 0);
    ck_assert_int_eq(g->kind, PTX_EXPR_GENERIC);
    ck_assert_ptr_eq(ptx_expr_name(ptx_expr_a(g)), x->vars[0].name);
    const ptx_expr *mask = ptx_expr_item(init, 1);
    ck_assert_int_eq(mask->kind, PTX_EXPR_MASK);
    assert_int(ptx_expr_a(mask), 0xFF00);
    ck_assert_int_eq(ptx_expr_b(mask)->kind, PTX_EXPR_BINARY);
    ck_assert_ptr_eq(ptx_expr_name(ptx_expr_item(init, 2)), x->vars[0].name);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_declaration)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, ".reg .b32 %r<100>;\n.shared .align 16 .v4 .f32 s[4][8], t;");
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_decl *d = (const ptx_decl *)stmt_at(m, 0);
    ck_assert_int_eq(d->base.kind, PTX_NODE_DECL);
    ck_assert_int_eq(d->space, PTX_SPACE_REG);
    ck_assert_int_eq(d->type, PTX_TYPE_B32);
    ck_assert_uint_eq(d->nvars, 1);
    ck_assert_str_eq(d->vars[0].name->text, "%r");
    ck_assert_uint_eq(d->vars[0].range, 100);
    const ptx_decl *s = (const ptx_decl *)stmt_at(m, 1);
    ck_assert_int_eq(s->space, PTX_SPACE_SHARED);
    ck_assert_uint_eq(s->align, 16);
    ck_assert_uint_eq(s->vec, 4);
    ck_assert_int_eq(s->type, PTX_TYPE_F32);
    ck_assert_int_eq(s->linkage, PTX_LINK_NONE);
    ck_assert_uint_eq(s->nvars, 2);
    ck_assert_uint_eq(s->vars[0].ndims, 2);
    ck_assert_uint_eq(s->vars[0].dims[0], 4);
    ck_assert_uint_eq(s->vars[0].dims[1], 8);
    ck_assert_uint_eq(s->vars[1].ndims, 0);
    ck_assert_str_eq(s->vars[1].name->text, "t");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(shape_function)
{
    ptx_context *ctx;
    const char *src = HDR ".visible .func (.param .b32 r) f(.reg .b32 a, .param .b8 b[]) .noreturn;\n"
                      ".entry k(.param .u64 p) .maxntid 32, 2 .reqnctapercluster 2\n{\nret;\n}\n";
    const ptx_module *m = parse_text(&ctx, src, strlen(src));
    /* .noreturn with a return parameter is an error, the tree is built anyway */
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    const ptx_func *f = (const ptx_func *)m->first;
    ck_assert_int_eq(f->base.kind, PTX_NODE_FUNC);
    ck_assert_uint_eq(f->is_entry, 0);
    ck_assert_int_eq(f->linkage, PTX_LINK_VISIBLE);
    ck_assert_str_eq(f->name->text, "f");
    ck_assert_uint_eq(f->has_ret, 1);
    ck_assert_uint_eq(f->nret, 1);
    ck_assert_str_eq(f->ret[0]->vars[0].name->text, "r");
    ck_assert_uint_eq(f->nparams, 2);
    ck_assert_int_eq(f->params[0]->space, PTX_SPACE_REG);
    ck_assert_uint_eq(f->params[1]->vars[0].unsized, 1);
    ck_assert_uint_eq(f->params[1]->vars[0].ndims, 1);
    ck_assert_uint_eq(f->ndirs, 1);
    ck_assert_int_eq(f->dirs[0].kind, PTX_FDIR_NORETURN);
    ck_assert_ptr_null(f->body);
    const ptx_func *k = (const ptx_func *)f->base.next;
    ck_assert_uint_eq(k->is_entry, 1);
    ck_assert_uint_eq(k->has_ret, 0);
    ck_assert_uint_eq(k->has_params, 1);
    ck_assert_uint_eq(k->ndirs, 2);
    ck_assert_int_eq(k->dirs[0].kind, PTX_FDIR_MAXNTID);
    ck_assert_uint_eq(k->dirs[0].nvals, 2);
    ck_assert_uint_eq(k->dirs[0].vals[0], 32);
    ck_assert_uint_eq(k->dirs[0].vals[1], 2);
    ck_assert_int_eq(k->dirs[1].kind, PTX_FDIR_REQNCTAPERCLUSTER);
    ck_assert_ptr_nonnull(k->body);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(interning_across_places)
{
    ptx_context *ctx;
    const char *src = HDR ".global .b32 g;\n.entry k()\n{\n.reg .b32 %r1;\nmov.b32 %r1, g;\n"
                      "L: add.s32 %r1, %r1, 1;\nmov.b32 g, %r1;\nbra L;\n}\n";
    const ptx_module *m = parse_text(&ctx, src, strlen(src));
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_decl *g = (const ptx_decl *)m->first;
    const ptx_name *gname = g->vars[0].name;
    const ptx_decl *r = (const ptx_decl *)stmt_at(m, 0);
    const ptx_name *rname = r->vars[0].name;
    ck_assert_str_eq(rname->text, "%r1");
    const ptx_instr *mov1 = instr_at(m, 1);
    const ptx_label *l = (const ptx_label *)stmt_at(m, 2);
    const ptx_instr *add = instr_at(m, 3);
    const ptx_instr *mov2 = instr_at(m, 4);
    const ptx_instr *bra = instr_at(m, 5);
    ck_assert_ptr_eq(ptx_expr_name(&mov1->ops[0]), rname);
    ck_assert_ptr_eq(ptx_expr_name(&mov1->ops[1]), gname);
    ck_assert_ptr_eq(ptx_expr_name(&add->ops[0]), rname);
    ck_assert_ptr_eq(ptx_expr_name(&add->ops[1]), rname);
    ck_assert_ptr_eq(ptx_expr_name(&mov2->ops[0]), gname);
    ck_assert_ptr_eq(ptx_expr_name(&mov2->ops[1]), rname);
    ck_assert_ptr_eq(ptx_expr_name(&bra->ops[0]), l->name);
    ck_assert_ptr_eq(ptx_instr_opcode(mov1), ptx_instr_opcode(mov2));
    ck_assert_ptr_eq(mov1->mods[0].name, mov2->mods[0].name);
    ck_assert_ptr_ne(ptx_instr_opcode(mov1), ptx_instr_opcode(add));
    ck_assert_ptr_ne(rname, gname);
    ptx_context_free(ctx);
}
END_TEST

/* ======================================================================== */
/* Spans */

START_TEST(spans_of_statements)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "  mov.b32 %r1, 1;\n\t@!p  bra L;\nL:  ret;\n   .reg .b32 x, y;");
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    ptx_position p;
    const ptx_instr *mov = instr_at(m, 0);
    p = ptx_context_position(ctx, mov->base.span.off);
    ck_assert_uint_eq(p.line, 6);
    ck_assert_uint_eq(p.col, 3);
    ck_assert_uint_eq(mov->base.span.len, strlen("mov.b32 %r1, 1"));
    p = ptx_context_position(ctx, ptx_expr_span(&mov->ops[1]).off);
    ck_assert_uint_eq(p.line, 6);
    ck_assert_uint_eq(p.col, 16);
    p = ptx_context_position(ctx, ptx_mod_offset(mov, 0));
    ck_assert_uint_eq(p.col, 6);

    const ptx_instr *bra = instr_at(m, 1);
    p = ptx_context_position(ctx, bra->base.span.off);
    ck_assert_uint_eq(p.line, 7);
    ck_assert_uint_eq(p.col, 2);    /* the '@' */

    const ptx_node *l = stmt_at(m, 2);
    p = ptx_context_position(ctx, l->span.off);
    ck_assert_uint_eq(p.line, 8);
    ck_assert_uint_eq(p.col, 1);
    const ptx_instr *ret = instr_at(m, 3);
    p = ptx_context_position(ctx, ret->base.span.off);
    ck_assert_uint_eq(p.line, 8);
    ck_assert_uint_eq(p.col, 5);

    const ptx_decl *d = (const ptx_decl *)stmt_at(m, 4);
    p = ptx_context_position(ctx, d->base.span.off);
    ck_assert_uint_eq(p.line, 9);
    ck_assert_uint_eq(p.col, 4);
    p = ptx_context_position(ctx, d->vars[1].span.off);
    ck_assert_uint_eq(p.col, 17);

    /* the function spans from '.visible' to its closing brace */
    const ptx_func *k = kernel(m);
    p = ptx_context_position(ctx, k->base.span.off);
    ck_assert_uint_eq(p.line, 4);
    ck_assert_uint_eq(p.col, 1);
    p = ptx_context_position(ctx, k->base.span.off + k->base.span.len - 1);
    ck_assert_uint_eq(p.line, 10);
    ck_assert_uint_eq(p.col, 1);
    /* the header spans */
    p = ptx_context_position(ctx, m->target_span.off);
    ck_assert_uint_eq(p.line, 2);
    p = ptx_context_position(ctx, m->address_span.off);
    ck_assert_uint_eq(p.line, 3);
    ptx_context_free(ctx);
}
END_TEST

/* Regression (fixed): a function without a linkage directive gets a span that starts at
 * the end of the token before it (the empty specs_opt of the grammar takes
 * the location of the previous symbol): the tree printer shows "3:17
 * entry k" for an .entry on line 5, and the line-preserving PTX printer
 * moves ".entry k()" up onto the ".address_size 64" line. */
START_TEST(spans_of_functions_without_linkage)
{
    static const char src[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n\n"
        ".entry k()\n{\nret;\n}\n\n"
        "  .func f()\n{\nret;\n}\n";
    ptx_context *ctx;
    const ptx_module *m = parse_text(&ctx, src, strlen(src));
    size_t ndiags = ptx_diag_count(ctx);
    const ptx_node *k = m ? m->first : NULL;
    const ptx_node *f = k ? k->next : NULL;
    ptx_position pk = { 0, 0 }, pf = { 0, 0 };
    if (k && f) {
        pk = ptx_context_position(ctx, k->span.off);
        pf = ptx_context_position(ctx, f->span.off);
    }
    ptx_context_free(ctx);
    ck_assert_uint_eq(ndiags, 0);
    ck_assert_ptr_nonnull(f);
    ck_assert_msg(pk.line == 5 && pk.col == 1, ".entry k at %u:%u, expected 5:1", pk.line, pk.col);
    ck_assert_msg(pf.line == 10 && pf.col == 3, ".func f at %u:%u, expected 10:3", pf.line, pf.col);
}
END_TEST

/* Regression (fixed): the "name = value" list item, added for the fields of opaque-type
 * initialisers (".global .samplerref s = { filter_mode = nearest }"), is
 * accepted in every brace, bracket and parenthesis list, so an instruction
 * operand such as {a = 1, 2} (or "call f, (a = 1)") parses without a word.
 * It is not PTX anywhere but in an opaque initialiser. */
START_TEST(field_only_in_initialisers)
{
    ptx_context *ctx;
    parse(&ctx, "mov.b32 %r1, {a = 1, 2};");
    size_t nerr = ptx_error_count(ctx);
    ptx_position p = { 0, 0 };
    if (nerr)
        p = ptx_context_position(ctx, ptx_diag_get(ctx, 0)->span.off);
    ptx_context_free(ctx);
    ck_assert_msg(nerr == 1, "%zu errors for a field in an instruction operand", nerr);
    ck_assert_uint_eq(p.line, 6);
    ck_assert_uint_eq(p.col, 15);
}
END_TEST

/* ======================================================================== */
/* Deep nesting, error limit, recovery */

START_TEST(deep_nesting)
{
    enum { DEPTH = 100000 };
    size_t n = strlen(test_head) + 2 * DEPTH + strlen(test_tail);
    char *text = malloc(n + 1);
    ck_assert_ptr_nonnull(text);
    size_t k = 0;
    memcpy(text, test_head, strlen(test_head));
    k += strlen(test_head);
    memset(text + k, '{', DEPTH);
    k += DEPTH;
    memset(text + k, '}', DEPTH);
    k += DEPTH;
    memcpy(text + k, test_tail, strlen(test_tail) + 1);
    ptx_context *ctx;
    const ptx_module *m = parse_text(&ctx, text, n);
    free(text);
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", first_message(ctx));
    /* the innermost block is DEPTH blocks below the body */
    const ptx_block *b = kernel(m)->body;
    unsigned depth = 0;
    while (b->first) {
        ck_assert_int_eq(b->first->kind, PTX_NODE_BLOCK);
        ck_assert_ptr_null(b->first->next);
        b = (const ptx_block *)b->first;
        depth++;
    }
    ck_assert_uint_eq(depth, DEPTH);
    size_t out = 0;
    ck_assert_int_eq(ptx_print_ptx(ctx, m, count_write, &out), PTX_OK);
    ck_assert_uint_gt(out, 2 * DEPTH);
    out = 0;
    ck_assert_int_eq(ptx_print_ptx(NULL, m, count_write, &out), PTX_OK);
    ck_assert_uint_gt(out, 2 * DEPTH);
    out = 0;
    ck_assert_int_eq(ptx_print_tree(ctx, m, 0, count_write, &out), PTX_OK);
    ck_assert_uint_gt(out, 6 * DEPTH);
    out = 0;
    ck_assert_int_eq(ptx_print_tree(ctx, m, PTX_PRINT_NO_LOCATIONS, count_write, &out), PTX_OK);
    ck_assert_uint_gt(out, 6 * DEPTH);
    ptx_context_free(ctx);
}
END_TEST

/* n copies of a statement with a syntax error (a missing comma), each on
 * its own line after the kernel header. */
static char *bad_statements(unsigned n)
{
    static const char bad[] = "mov.b32 %r1 %r2;\n";
    size_t len = strlen(test_head) + n * strlen(bad) + strlen(test_tail);
    char *text = malloc(len + 1);
    ck_assert_ptr_nonnull(text);
    size_t k = strlen(test_head);
    memcpy(text, test_head, k);
    for (unsigned i = 0; i < n; i++) {
        memcpy(text + k, bad, strlen(bad));
        k += strlen(bad);
    }
    memcpy(text + k, test_tail, strlen(test_tail) + 1);
    return text;
}

START_TEST(error_limit_default)
{
    char *text = bad_statements(50);
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, strlen(text), &m), PTX_ERR_INPUT);
    free(text);
    ck_assert_uint_eq(ptx_error_count(ctx), 20);
    ck_assert_uint_eq(ptx_diag_count(ctx), 21);
    for (size_t i = 0; i < 20; i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        ck_assert_int_eq(d->severity, PTX_SEV_ERROR);
        ck_assert_int_eq(d->code, PTX_DIAG_SYNTAX);
        ck_assert_uint_eq(ptx_context_position(ctx, d->span.off).line, 6 + i);
    }
    const ptx_diag *note = ptx_diag_get(ctx, 20);
    ck_assert_int_eq(note->severity, PTX_SEV_NOTE);
    ck_assert_int_eq(note->code, PTX_DIAG_LIMIT);
    ck_assert_str_eq(note->message, "too many errors; stopping (the limit is set with --max-errors)");
    ck_assert_ptr_null(ptx_diag_get(ctx, 21));
    ptx_context_free(ctx);
}
END_TEST

START_TEST(error_limit_off)
{
    char *text = bad_statements(50);
    ptx_context *ctx = ptx_context_new();
    ptx_context_set_max_errors(ctx, 0);
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, strlen(text), NULL), PTX_ERR_INPUT);
    free(text);
    ck_assert_uint_eq(ptx_error_count(ctx), 50);
    ck_assert_uint_eq(ptx_diag_count(ctx), 50);
    for (size_t i = 0; i < 50; i++)
        ck_assert_uint_eq(ptx_context_position(ctx, ptx_diag_get(ctx, i)->span.off).line, 6 + i);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(error_limit_custom)
{
    char *text = bad_statements(50);
    ptx_context *ctx = ptx_context_new();
    ptx_context_set_max_errors(ctx, 3);
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, strlen(text), NULL), PTX_ERR_INPUT);
    free(text);
    ck_assert_uint_eq(ptx_error_count(ctx), 3);
    ck_assert_uint_eq(ptx_diag_count(ctx), 4);
    ck_assert_int_eq(ptx_diag_get(ctx, 3)->severity, PTX_SEV_NOTE);
    ptx_context_free(ctx);
}
END_TEST

/* When the error limit stops the parse, the scanner's in-place NUL after
 * the last token must not stay in the context's copy of the source (it
 * would show as '?' in the rendered line of the last diagnostic). */
/* Positions found from the last one's line (the printers' way) are the
 * positions a search finds, whatever order they are asked in. */
START_TEST(positions_near_a_hint)
{
    ptx_context *ctx;
    test_parse_body(&ctx, "\tret;\n\n\n\tret;\n\tret;\n", false);
    size_t len;
    ptx_context_source(ctx, &len);
    static const uint32_t order[] = { 0, 1, 2, 40, 41, 3, 200, 90, 91, 92, 5000, 7, 0 };
    size_t hint = 0;
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        uint32_t off = order[i] < len ? order[i] : (uint32_t)len;
        ptx_position want = ptx_context_position(ctx, off);
        ptx_position got = ptx_position_near(ctx, off, &hint);
        ck_assert_uint_eq(got.line, want.line);
        ck_assert_uint_eq(got.col, want.col);
    }
    /* every offset in order */
    hint = 0;
    for (uint32_t off = 0; off <= len; off++) {
        ptx_position want = ptx_context_position(ctx, off);
        ptx_position got = ptx_position_near(ctx, off, &hint);
        ck_assert_uint_eq(got.line, want.line);
        ck_assert_uint_eq(got.col, want.col);
    }
    ptx_context_free(ctx);
}
END_TEST

START_TEST(error_limit_keeps_source)
{
    static const char bad[] = "mov.b32 %r1, 08;\n";
    char text[4096];
    size_t k = (size_t)snprintf(text, sizeof text, "%s", test_head);
    for (int i = 0; i < 25; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s", bad);
    k += (size_t)snprintf(text + k, sizeof text - k, "%s", test_tail);
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, k, NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_error_count(ctx), 20);
    size_t len;
    const char *src = ptx_context_source(ctx, &len);
    ck_assert_uint_eq(len, k);
    ck_assert(memcmp(src, text, k) == 0);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(error_recovery)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx,
        "mov.b32 %r1, 1;\n"
        "add.s32 %r1 %r2, 1;\n"         /* missing comma */
        "mov.b32 %r2, 2;\n"
        "ld.global.b32 %r3, [%r1;\n"    /* missing ']' */
        "mov.b32 %r3, 3;\n"
        "st.global.b32 [%r1], %r2 %r3;\n"
        "mov.b32 %r4, 4;");
    ck_assert_uint_eq(ptx_error_count(ctx), 3);
    ck_assert_uint_eq(ptx_diag_count(ctx), 3);
    for (size_t i = 0; i < 3; i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        ck_assert_int_eq(d->code, PTX_DIAG_SYNTAX);
        ck_assert_uint_eq(ptx_context_position(ctx, d->span.off).line, 7 + 2 * i);
    }
    /* the good statements are in the tree, in order */
    for (unsigned i = 0; i < 4; i++) {
        const ptx_instr *in = instr_at(m, i);
        ck_assert_str_eq(ptx_instr_opcode(in)->text, "mov");
        ck_assert_uint_eq(in->nops, 2);
        assert_int(&in->ops[1], i + 1);
        ck_assert_uint_eq(ptx_context_position(ctx, in->base.span.off).line, 6 + 2 * i);
    }
    ck_assert_ptr_null(instr_at(m, 3)->base.next);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(error_recovery_module_scope)
{
    ptx_context *ctx;
    const char *src = HDR ".global .b32 a b;\n.global .b32 c;\n.func f( { }\n.global .b32 d;\n";
    const ptx_module *m = parse_text(&ctx, src, strlen(src));
    ck_assert_uint_eq(ptx_error_count(ctx), 2);
    const ptx_decl *c = (const ptx_decl *)m->first;
    ck_assert_int_eq(c->base.kind, PTX_NODE_DECL);
    ck_assert_str_eq(c->vars[0].name->text, "c");
    const ptx_decl *d = (const ptx_decl *)c->base.next;
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->base.kind, PTX_NODE_DECL);
    ck_assert_str_eq(d->vars[0].name->text, "d");
    ck_assert_ptr_null(d->base.next);
    ptx_context_free(ctx);
}
END_TEST

Suite *grammar_suite(void)
{
    Suite *s = suite_create("grammar");
    TCase *tc = tcase_create("accept");
    tcase_add_loop_test(tc, grammar_accept, 0, (int)(sizeof accepts / sizeof *accepts));
    tcase_add_test(tc, vector_operand_128);
    suite_add_tcase(s, tc);

    tc = tcase_create("reject");
    tcase_add_loop_test(tc, grammar_reject, 0, (int)(sizeof rejects / sizeof *rejects));
    tcase_add_test(tc, subqualified_space_one_error);
    tcase_add_test(tc, expression_depth_limit);
    tcase_add_test(tc, two_return_parameters_warn);
    tcase_add_test(tc, unknown_pragma_warns);
    tcase_add_loop_test(tc, item_limits, 0, sizeof limit_cases / sizeof *limit_cases);
    tcase_add_test(tc, modifiers_shared_by_instructions_alike);
    tcase_add_loop_test(tc, long_leaves_keep_span_and_value, 0,
                        sizeof long_leaves / sizeof *long_leaves);
    suite_add_tcase(s, tc);

    tc = tcase_create("shape");
    tcase_add_test(tc, shape_names);
    tcase_add_test(tc, shape_video_selectors);
    tcase_add_test(tc, shape_dotted_opcode);
    tcase_add_loop_test(tc, one_token_instruction_as_grammar, 0,
                        (int)(sizeof one_token_stmts / sizeof one_token_stmts[0]));
    tcase_add_loop_test(tc, fast_lane_as_grammar_stmts, 0,
                        (int)(sizeof one_token_stmts / sizeof one_token_stmts[0]));
    tcase_add_loop_test(tc, fast_lane_as_grammar_bodies, 0,
                        (int)(sizeof both_ways_bodies / sizeof both_ways_bodies[0]));
    tcase_add_loop_test(tc, fast_lane_as_grammar_modules, 0,
                        (int)(sizeof both_ways_modules / sizeof both_ways_modules[0]));
    tcase_add_test(tc, data_run_measured_again);
    tcase_add_test(tc, statement_runs_are_capped);
    tcase_add_test(tc, statement_run_with_labels);
    tcase_add_test(tc, one_token_instruction_only_at_statement_start);
    tcase_add_test(tc, one_token_instruction_after_error);
    tcase_add_loop_test(tc, one_token_shapes, 0, sizeof token_cases / sizeof token_cases[0]);
    tcase_add_test(tc, loc_line_as_grammar);
    tcase_add_test(tc, label_line_as_grammar);
    tcase_add_test(tc, shape_two_selectors);
    tcase_add_test(tc, shape_guard);
    tcase_add_test(tc, shape_pair_and_sink);
    tcase_add_test(tc, shape_bor_is_not_a_pair);
    tcase_add_test(tc, shape_literals);
    tcase_add_test(tc, shape_precedence);
    tcase_add_test(tc, shape_paren_and_cast);
    tcase_add_test(tc, shape_addresses);
    tcase_add_test(tc, shape_element);
    tcase_add_test(tc, shape_vector_with_sink);
    tcase_add_test(tc, shape_call);
    tcase_add_test(tc, shape_targets);
    tcase_add_test(tc, shape_initialisers);
    tcase_add_test(tc, shape_declaration);
    tcase_add_test(tc, shape_function);
    tcase_add_test(tc, interning_across_places);
    tcase_add_test(tc, spans_of_statements);
    tcase_add_test(tc, spans_of_functions_without_linkage);
    tcase_add_test(tc, field_only_in_initialisers);
    suite_add_tcase(s, tc);

    tc = tcase_create("limits");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, deep_nesting);
    tcase_add_test(tc, error_limit_default);
    tcase_add_test(tc, error_limit_off);
    tcase_add_test(tc, error_limit_custom);
    tcase_add_test(tc, positions_near_a_hint);
    tcase_add_test(tc, error_limit_keeps_source);
    tcase_add_test(tc, error_recovery);
    tcase_add_test(tc, error_recovery_module_scope);
    suite_add_tcase(s, tc);
    return s;
}
