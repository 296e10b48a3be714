/* Suite "scanner": the lexical structure of PTX (LANGUAGE.md section 2),
 * tested through the public API: a tiny module is parsed and the tokens
 * are looked at in the tree they produced. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "ptx/ptx.h"

#define HDR_TEXT TEST_HDR

/* This suite is about the syntax: instructions are checked against the
 * tables in check_isa.c, not here. */
static const ptx_module *parse_raw(ptx_context **ctx, const char *text, size_t len)
{
    return test_parse_text(ctx, text, len, false);
}

/* Parses `body` as the body of the kernel k (lines 6.. of the module). */
static const ptx_module *parse(ptx_context **ctx, const char *body)
{
    return test_parse_body(ctx, body, false);
}

/* The kernel's body block. */
static const ptx_block *body_of(const ptx_module *m)
{
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(m->first);
    ck_assert_int_eq(m->first->kind, PTX_NODE_FUNC);
    const ptx_func *f = (const ptx_func *)m->first;
    ck_assert_ptr_nonnull(f->body);
    return f->body;
}

/* The i-th statement of the kernel's body, which must be an instruction. */
static const ptx_instr *instr_at(const ptx_module *m, unsigned i)
{
    const ptx_node *n = body_of(m)->first;
    while (n && i--)
        n = n->next;
    ck_assert_ptr_nonnull(n);
    ck_assert_int_eq(n->kind, PTX_NODE_INSTR);
    return (const ptx_instr *)n;
}

/* Parses "mov.b32 %r1, LIT;" and returns the literal's expression; the
 * parse must be clean. */
static const ptx_expr *literal(ptx_context **ctx, const char *lit)
{
    char body[256];
    snprintf(body, sizeof body, "mov.b32 %%r1, %s;", lit);
    const ptx_module *m = parse(ctx, body);
    ck_assert_msg(ptx_diag_count(*ctx) == 0, "'%s': unexpected diagnostic: %s", lit,
                  ptx_diag_count(*ctx) ? ptx_diag_get(*ctx, 0)->message : "");
    const ptx_instr *in = instr_at(m, 0);
    ck_assert_uint_eq(in->nops, 2);
    return &in->ops[1];
}

static void check_int(const char *lit, uint64_t value, unsigned flags)
{
    ptx_context *ctx;
    const ptx_expr *e = literal(&ctx, lit);
    ck_assert_msg(e->kind == PTX_EXPR_INT, "'%s': kind %d", lit, e->kind);
    ck_assert_msg(ptx_expr_int(e) == value, "'%s': value %llu, expected %llu", lit,
                  (unsigned long long)ptx_expr_int(e), (unsigned long long)value);
    ck_assert_msg(e->flags == flags, "'%s': flags %u, expected %u", lit, e->flags, flags);
    /* the span is the literal's text */
    ck_assert_uint_eq(ptx_expr_span(e).len, strlen(lit));
    size_t len;
    const char *src = ptx_context_source(ctx, &len);
    ck_assert(memcmp(src + ptx_expr_span(e).off, lit, ptx_expr_span(e).len) == 0);
    ptx_context_free(ctx);
}

static void check_float(const char *lit, double value)
{
    ptx_context *ctx;
    const ptx_expr *e = literal(&ctx, lit);
    ck_assert_msg(e->kind == PTX_EXPR_FLOAT, "'%s': kind %d", lit, e->kind);
    ck_assert_msg(ptx_expr_float(e) == value, "'%s': value %.17g, expected %.17g", lit, ptx_expr_float(e), value);
    ck_assert_uint_eq(ptx_expr_span(e).len, strlen(lit));
    ptx_context_free(ctx);
}

static void check_bits(const char *lit, ptx_expr_kind kind, uint64_t bits)
{
    ptx_context *ctx;
    const ptx_expr *e = literal(&ctx, lit);
    ck_assert_msg(e->kind == kind, "'%s': kind %d, expected %d", lit, e->kind, kind);
    ck_assert_msg(ptx_expr_int(e) == bits, "'%s': bits %llx, expected %llx", lit,
                  (unsigned long long)ptx_expr_int(e), (unsigned long long)bits);
    ck_assert_uint_eq(ptx_expr_span(e).len, strlen(lit));
    ptx_context_free(ctx);
}

/* The first diagnostic of parsing `body` must be an error with this code
 * and exactly this message, at line:col. */
static void check_reject(const char *body, ptx_diag_code code, const char *message,
                         unsigned line, unsigned col)
{
    /* everything is copied out and the context freed before asserting, so
     * that a failure leaks nothing (CK_FORK=no under valgrind) */
    ptx_context *ctx;
    parse(&ctx, body);
    size_t nerr = ptx_error_count(ctx);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    char msg[512] = "";
    ptx_severity sev = PTX_SEV_NOTE;
    int got = 0;
    ptx_position p = { 0, 0 };
    if (d) {
        snprintf(msg, sizeof msg, "%s", d->message);
        sev = d->severity;
        got = d->code;
        p = ptx_context_position(ctx, d->span.off);
    }
    ptx_context_free(ctx);
    ck_assert_msg(nerr >= 1, "'%s' was accepted", body);
    ck_assert_int_eq(sev, PTX_SEV_ERROR);
    ck_assert_msg(got == (int)code, "'%s': code %d, expected %d (%s)", body, got, code, msg);
    ck_assert_str_eq(msg, message);
    ck_assert_uint_eq(p.line, line);
    ck_assert_uint_eq(p.col, col);
}

/* ---- integers ---------------------------------------------------------- */

START_TEST(int_decimal)
{
    check_int("123", 123, PTX_INT_DEC);
    check_int("0", 0, PTX_INT_DEC);
    check_int("9223372036854775808", 9223372036854775808ULL, PTX_INT_DEC);
    check_int("18446744073709551615", UINT64_MAX, PTX_INT_DEC);
}
END_TEST

START_TEST(int_hex)
{
    check_int("0x1F", 31, PTX_INT_HEX);
    check_int("0X1f", 31, PTX_INT_HEX);
    check_int("0xabcdef", 0xabcdef, PTX_INT_HEX);
    check_int("0xFFFFFFFFFFFFFFFF", UINT64_MAX, PTX_INT_HEX);
}
END_TEST

START_TEST(int_octal)
{
    check_int("017", 15, PTX_INT_OCT);
    check_int("00", 0, PTX_INT_OCT);
    check_int("01777777777777777777777", UINT64_MAX, PTX_INT_OCT);
}
END_TEST

START_TEST(int_binary)
{
    check_int("0b101", 5, PTX_INT_BIN);
    check_int("0B101", 5, PTX_INT_BIN);
    check_int("0b0", 0, PTX_INT_BIN);
}
END_TEST

START_TEST(int_unsigned_suffix)
{
    check_int("10U", 10, PTX_INT_DEC | PTX_INT_UNSIGNED);
    check_int("0U", 0, PTX_INT_DEC | PTX_INT_UNSIGNED);
    check_int("0xFFU", 255, PTX_INT_HEX | PTX_INT_UNSIGNED);
    check_int("017U", 15, PTX_INT_OCT | PTX_INT_UNSIGNED);
    check_int("0b11U", 3, PTX_INT_BIN | PTX_INT_UNSIGNED);
}
END_TEST

/* ---- floating point ------------------------------------------------------ */

START_TEST(float_bits_f32)
{
    check_bits("0f3F800000", PTX_EXPR_F32, 0x3F800000);
    check_bits("0F3f800000", PTX_EXPR_F32, 0x3F800000);
    check_bits("0fFFFFFFFF", PTX_EXPR_F32, 0xFFFFFFFF);
    check_bits("0f00000000", PTX_EXPR_F32, 0);
}
END_TEST

START_TEST(float_bits_f64)
{
    check_bits("0d3FF0000000000000", PTX_EXPR_F64, 0x3FF0000000000000ULL);
    check_bits("0D3ff0000000000001", PTX_EXPR_F64, 0x3FF0000000000001ULL);
    check_bits("0dFFFFFFFFFFFFFFFF", PTX_EXPR_F64, UINT64_MAX);
}
END_TEST

START_TEST(float_decimal)
{
    check_float("1.0", 1.0);
    check_float(".5", 0.5);
    check_float("5.", 5.0);
    check_float("1e3", 1000.0);
    check_float("1E+3", 1000.0);
    check_float("1.5E-3", 1.5E-3);
    check_float("0.1", 0.1);
    check_float("123.456e2", 12345.6);
}
END_TEST

/* ---- identifiers, sink, dot-words -------------------------------------- */

START_TEST(identifiers)
{
    static const char *const names[] = {
        "%r1", "$L__BB0_1", "_x", "a$b", "%1", "$1", "x_y9", "%tid", "__a",
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        ptx_context *ctx;
        const ptx_expr *e = literal(&ctx, names[i]);
        ck_assert_msg(e->kind == PTX_EXPR_SYM, "'%s': kind %d", names[i], e->kind);
        ck_assert_str_eq(ptx_expr_name(e)->text, names[i]);
        ck_assert_uint_eq(ptx_expr_name(e)->len, strlen(names[i]));
        ck_assert_ptr_null(ptx_expr_sel(e));
        ptx_context_free(ctx);
    }
}
END_TEST

START_TEST(identifier_with_selector)
{
    ptx_context *ctx;
    const ptx_expr *e = literal(&ctx, "%tid.x");
    ck_assert_int_eq(e->kind, PTX_EXPR_SYM);
    ck_assert_str_eq(ptx_expr_name(e)->text, "%tid");
    ck_assert_ptr_nonnull(ptx_expr_sel(e));
    ck_assert_str_eq(ptx_expr_sel(e)->text, ".x");
    ck_assert_uint_eq(ptx_expr_span(e).len, 6);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(sink)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "mbarrier.arrive.shared::cluster.b64 _, [a];");
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    const ptx_instr *in = instr_at(m, 0);
    ck_assert_uint_eq(in->nops, 2);
    ck_assert_int_eq(in->ops[0].kind, PTX_EXPR_SINK);
    ck_assert_uint_eq(ptx_expr_span(&in->ops[0]).len, 1);
    ptx_context_free(ctx);
}
END_TEST

static void check_mods(const char *body, const char *opcode, const char *const *mods, unsigned n)
{
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body);
    ck_assert_msg(ptx_diag_count(ctx) == 0, "'%s': %s", body,
                  ptx_diag_count(ctx) ? ptx_diag_get(ctx, 0)->message : "");
    const ptx_instr *in = instr_at(m, 0);
    ck_assert_str_eq(ptx_instr_opcode(in)->text, opcode);
    ck_assert_uint_eq(in->nmods, n);
    size_t len;
    const char *src = ptx_context_source(ctx, &len);
    for (unsigned i = 0; i < n; i++) {
        ck_assert_str_eq(in->mods[i].name->text, mods[i]);
        /* ptx_mod_offset is where the dot-word stands in the source */
        ck_assert(ptx_mod_offset(in, i) < len);
        ck_assert(strncmp(src + ptx_mod_offset(in, i), mods[i], strlen(mods[i])) == 0);
        if (i)
            ck_assert_uint_gt(ptx_mod_offset(in, i), ptx_mod_offset(in, i - 1));
    }
    ptx_context_free(ctx);
}

START_TEST(dotwords_with_colons)
{
    static const char *const mods[] = {
        ".async", ".bulk", ".shared::cluster", ".global",
        ".mbarrier::complete_tx::bytes", ".L2::cache_hint",
    };
    check_mods("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
               " [a], [b], 16, [c], d;", "cp", mods, 6);
}
END_TEST

START_TEST(dotwords_with_leading_digits)
{
    static const char *const tex[] = { ".1d", ".v4", ".s32", ".f32" };
    check_mods("tex.1d.v4.s32.f32 {a, b, c, d}, [t, {x}];", "tex", tex, 4);
    static const char *const tc[] = { ".ld", ".sync", ".aligned", ".32x32b", ".x1", ".b32" };
    check_mods("tcgen05.ld.sync.aligned.32x32b.x1.b32 {r}, [t];", "tcgen05", tc, 6);
}
END_TEST

START_TEST(dotwords_space_separated)
{
    /* whitespace between the opcode and its modifiers is tolerated */
    static const char *const mods[] = { ".s32" };
    check_mods("add .s32 %r1, %r2, 1;", "add", mods, 1);
}
END_TEST

/* ---- '%' ---------------------------------------------------------------- */

START_TEST(percent_modulo)
{
    ptx_context *ctx;
    const ptx_expr *e = literal(&ctx, "4/2 % 3");
    ck_assert_int_eq(e->kind, PTX_EXPR_BINARY);
    ck_assert_int_eq(e->op, PTX_OP_MOD);
    ck_assert_int_eq(ptx_expr_a(e)->kind, PTX_EXPR_BINARY);
    ck_assert_int_eq(ptx_expr_a(e)->op, PTX_OP_DIV);
    ck_assert_int_eq(ptx_expr_b(e)->kind, PTX_EXPR_INT);
    ck_assert_uint_eq(ptx_expr_int(ptx_expr_b(e)), 3);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(percent_identifier)
{
    ptx_context *ctx;
    const ptx_expr *e = literal(&ctx, "%3");
    ck_assert_int_eq(e->kind, PTX_EXPR_SYM);
    ck_assert_str_eq(ptx_expr_name(e)->text, "%3");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(percent_unspaced_is_identifier)
{
    /* "4/2%3" is 4 / 2 followed by the identifier %3: a syntax error */
    check_reject("mov.b32 %r1, 4/2%3;", PTX_DIAG_SYNTAX,
                 "unexpected identifier '%3', expected ',' or ';'", 6, 17);
}
END_TEST

/* ---- comments and line markers -------------------------------------- */

START_TEST(comments_anywhere)
{
    ptx_context *ctx;
    const char *text =
        "// leading comment\n/* block */ .version /* a */ 9.0 // b\n"
        ".target /* c */ sm_90\n.address_size 64 /* d\n spanning lines */\n"
        "/**/ .visible /***/ .entry /* e */ k /* f */ ( /* g */ )\n{\n"
        "mov/* h */.b32 /* i */ %r1 // j\n, /* k\n */ 1 /* l */ ; /* m */\n"
        "}\n// trailing comment without newline";
    const ptx_module *m = parse_raw(&ctx, text, strlen(text));
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", ptx_diag_count(ctx) ? ptx_diag_get(ctx, 0)->message : "");
    ck_assert_uint_eq(m->version_major, 9);
    ck_assert_uint_eq(m->address_size, 64);
    const ptx_instr *in = instr_at(m, 0);
    ck_assert_str_eq(ptx_instr_opcode(in)->text, "mov");
    ck_assert_uint_eq(in->nmods, 1);
    ck_assert_str_eq(in->mods[0].name->text, ".b32");
    ck_assert_uint_eq(in->nops, 2);
    ck_assert_str_eq(ptx_expr_name(&in->ops[0])->text, "%r1");
    ck_assert_uint_eq(ptx_expr_int(&in->ops[1]), 1);
    ck_assert_ptr_null(in->base.next);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(comment_star_runs)
{
    /* runs of stars inside a comment and before its end */
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "/** a ** b ***/ ret; /* x */ /* y **/");
    ck_assert_uint_eq(ptx_diag_count(ctx), 0);
    ck_assert_str_eq(ptx_instr_opcode(instr_at(m, 0))->text, "ret");
    ptx_context_free(ctx);
}
END_TEST

START_TEST(comments_do_not_nest)
{
    /* a block comment ends at the first star-slash; "c" and the rest remain */
    check_reject("/* a /* b */ c */ ret;", PTX_DIAG_SYNTAX,
                 "unexpected '*', expected an operand, ':' or ';'", 6, 16);
}
END_TEST

START_TEST(line_markers_skipped)
{
    ptx_context *ctx;
    const char *text =
        "# 1 \"x.cu\"\n.version 9.0\n.target sm_90\n# 3 \"x.cu\" 2\n.address_size 64\n"
        ".entry k()\n{\n#line 2 \"x.cu\"\n  # 7 \"y.cu\"\nret;\n\t#line 9 \"x.cu\"\n}\n";
    const ptx_module *m = parse_raw(&ctx, text, strlen(text));
    ck_assert_msg(ptx_diag_count(ctx) == 0, "%s", ptx_diag_count(ctx) ? ptx_diag_get(ctx, 0)->message : "");
    const ptx_instr *in = instr_at(m, 0);
    ck_assert_str_eq(ptx_instr_opcode(in)->text, "ret");
    ck_assert_ptr_null(in->base.next);
    /* the markers do not change the reported positions */
    ptx_position p = ptx_context_position(ctx, in->base.span.off);
    ck_assert_uint_eq(p.line, 10);
    ck_assert_uint_eq(p.col, 1);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(line_marker_without_file_rejected)
{
    check_reject("#line 5\nret;", PTX_DIAG_PREPROCESSOR,
                 "preprocessor directives are not supported (only line markers such as "
                 "'# 1 \"file\"' at the start of a line)", 6, 1);
}
END_TEST

START_TEST(line_marker_mid_line_rejected)
{
    check_reject("ret; # 1 \"x.cu\"", PTX_DIAG_PREPROCESSOR,
                 "preprocessor directives are not supported (only line markers such as "
                 "'# 1 \"file\"' at the start of a line)", 6, 6);
}
END_TEST

/* ---- rejections ---------------------------------------------------------- */

START_TEST(reject_octal_8)
{
    check_reject("mov.b32 %r1, 08;", PTX_DIAG_LITERAL, "malformed number '08'", 6, 14);
}
END_TEST

START_TEST(reject_lowercase_u_and_c_suffixes)
{
    check_reject("mov.b32 %r1, 10u;", PTX_DIAG_LITERAL, "malformed number '10u'", 6, 14);
    check_reject("mov.b32 %r1, 10L;", PTX_DIAG_LITERAL, "malformed number '10L'", 6, 14);
    check_reject("mov.b32 %r1, 0x;", PTX_DIAG_LITERAL, "malformed number '0x'", 6, 14);
    check_reject("mov.b32 %r1, 0b102;", PTX_DIAG_LITERAL, "malformed number '0b102'", 6, 14);
}
END_TEST

START_TEST(reject_short_0f)
{
    check_reject("mov.b32 %r1, 0f3F80;", PTX_DIAG_LITERAL,
                 "'0f3F80' must have exactly 8 hexadecimal digits after '0f'", 6, 14);
    check_reject("mov.b32 %r1, 0F3F80000000;", PTX_DIAG_LITERAL,
                 "'0F3F80000000' must have exactly 8 hexadecimal digits after '0F'", 6, 14);
}
END_TEST

START_TEST(reject_short_0d)
{
    check_reject("mov.b64 %r1, 0d3FF0;", PTX_DIAG_LITERAL,
                 "'0d3FF0' must have exactly 16 hexadecimal digits after '0d'", 6, 14);
}
END_TEST

/* Regression (fixed): a float literal with a suffix ("1.0f", "5.f", "1.5e") is split into
 * a float and an identifier and reported by the parser as "unexpected
 * identifier 'f'", which neither names the literal nor says what was
 * expected, while the same mistake on an integer ("10f", "1e3f") is
 * reported as "malformed number '...'".  The scanner lacks the catch-all
 * rule for floats that it has for integers. */
START_TEST(reject_float_suffix)
{
    check_reject("mov.f32 %f1, 1.0f;", PTX_DIAG_LITERAL, "malformed number '1.0f' (PTX floats take no suffix)", 6, 14);
}
END_TEST

START_TEST(reject_float_out_of_range)
{
    check_reject("mov.f64 %f1, 1e999;", PTX_DIAG_LITERAL,
                 "floating-point literal '1e999' is out of range", 6, 14);
}
END_TEST

START_TEST(reject_non_ascii)
{
    check_reject("mov.b32 %r1, caf\xc3\xa9;", PTX_DIAG_NONASCII,
                 "non-ASCII character (PTX source is ASCII)", 6, 17);
}
END_TEST

/* ptxas rejects any non-ASCII byte, even inside a comment (LANGUAGE.md
 * 2.1); the comment is still skipped and parsing goes on. */
START_TEST(reject_non_ascii_in_comment)
{
    check_reject("ret; // caf\xc3\xa9", PTX_DIAG_NONASCII,
                 "non-ASCII character in a comment (PTX source is ASCII)", 6, 12);
    check_reject("/* \xe2\x80\x94 */ ret;", PTX_DIAG_NONASCII,
                 "non-ASCII character in a comment (PTX source is ASCII)", 6, 4);
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, "ret; // \xff\nexit;");
    ck_assert_uint_eq(ptx_error_count(ctx), 1);
    ck_assert_str_eq(ptx_instr_opcode(instr_at(m, 0))->text, "ret");
    ck_assert_str_eq(ptx_instr_opcode(instr_at(m, 1))->text, "exit");
    ptx_context_free(ctx);
}
END_TEST

/* Regression (fixed): a non-ASCII byte inside a string (.file, .pragma) is accepted
 * without a word, although ptxas rejects any non-ASCII byte anywhere
 * (LANGUAGE.md 2.1 and checklist item 1); comments are checked, the string
 * rule of the scanner is not. */
START_TEST(reject_non_ascii_in_string)
{
    static const char text[] = HDR_TEXT ".file 1 \"caf\xc3\xa9.cu\"\n";
    ptx_context *ctx;
    parse_raw(&ctx, text, sizeof text - 1);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ptx_diag copy = { PTX_SEV_NOTE, 0, "", { 0, 0 }, NULL };
    char msg[256] = "";
    if (d) {
        copy = *d;
        snprintf(msg, sizeof msg, "%s", d->message);
    }
    ptx_context_free(ctx);
    ck_assert_msg(d != NULL, "a non-ASCII byte in a string was accepted");
    ck_assert_int_eq(copy.severity, PTX_SEV_ERROR);
    ck_assert_int_eq(copy.code, PTX_DIAG_NONASCII);
    ck_assert_ptr_nonnull(strstr(msg, "non-ASCII character"));
    /* the diagnostic covers the offending byte */
    uint32_t byte = (uint32_t)(strchr(text, '\xc3') - text);
    ck_assert_uint_le(copy.span.off, byte);
    ck_assert_uint_gt(copy.span.off + copy.span.len, byte);
}
END_TEST

START_TEST(reject_preprocessor)
{
    check_reject("#define X\nret;", PTX_DIAG_PREPROCESSOR,
                 "preprocessor directives are not supported (only line markers such as "
                 "'# 1 \"file\"' at the start of a line)", 6, 1);
}
END_TEST

START_TEST(reject_unterminated_comment)
{
    check_reject("ret; /* no end\nret;", PTX_DIAG_UNTERMINATED, "unterminated comment", 6, 6);
}
END_TEST

START_TEST(reject_unterminated_string)
{
    check_reject(".pragma \"nounroll;\nret;", PTX_DIAG_UNTERMINATED, "unterminated string", 6, 9);
}
END_TEST

/* Integer literals beyond 64 bits that ptxas accepts keep their low 64
 * bits, as ptxas does, with a warning. */
static void check_wrapped(const char *lit, uint64_t value)
{
    char body[160];
    snprintf(body, sizeof body, "mov.b64 %%rd1, %s;", lit);
    ptx_context *ctx;
    const ptx_module *m = parse(&ctx, body);
    ck_assert_uint_eq(ptx_error_count(ctx), 0);
    ck_assert_uint_eq(ptx_diag_count(ctx), 1);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ck_assert_int_eq(d->severity, PTX_SEV_WARNING);
    ck_assert_int_eq(d->code, PTX_DIAG_LITERAL);
    ck_assert_str_eq(d->message, "integer literal does not fit in 64 bits; its low 64 bits are used");
    ck_assert_uint_eq(d->span.len, strlen(lit));
    ptx_position p = ptx_context_position(ctx, d->span.off);
    ck_assert_uint_eq(p.line, 6);
    ck_assert_uint_eq(p.col, 15);
    const ptx_expr *e = &instr_at(m, 0)->ops[1];
    ck_assert_int_eq(e->kind, PTX_EXPR_INT);
    ck_assert_msg(ptx_expr_int(e) == value, "'%s': %llx", lit, (unsigned long long)ptx_expr_int(e));
    ptx_context_free(ctx);
}

START_TEST(integer_over_64_bits_warns)
{
    check_wrapped("18446744073709551616", 0);
    check_wrapped("18446744073709551617", 1);
    check_wrapped("0x10000000000000005", 5);
    check_wrapped("0x123456789ABCDEF0123", 0x456789ABCDEF0123ULL);
    check_wrapped("02000000000000000000001", 1);
    check_wrapped("36893488147419103233", 1);
    check_wrapped("92233720368547758079", 0xFFFFFFFFFFFFFFFFULL);
    /* a binary literal over 64 bits always has bit 63 set before its last
     * digit: there is no binary case, and ptxas rejects them all */
}
END_TEST

/* ptxas says "Constant overflow" when a digit follows a value whose bit 63
 * is set (checked with ptxas 13.0 for every case here). */
START_TEST(reject_integer_overflow)
{
    static const char *const lits[] = {
        "99999999999999999999", "92233720368547758080", "100000000000000000000",
        "0xFFFFFFFFFFFFFFFFFFFF", "0x80000000000000000", "010000000000000000000000",
        "0b10000000000000000000000000000000000000000000000000000000000000011",
        "92233720368547758080U",
    };
    for (size_t i = 0; i < sizeof lits / sizeof *lits; i++) {
        char body[160];
        snprintf(body, sizeof body, "mov.b64 %%rd1, %s;", lits[i]);
        check_reject(body, PTX_DIAG_LITERAL, "integer literal does not fit in 64 bits", 6, 15);
    }
}
END_TEST

/* ptxas rejects what strtod reports out of range, in both directions:
 * subnormal and smaller results too. */
START_TEST(reject_float_underflow)
{
    check_reject("mov.f64 %f1, 1e-400;", PTX_DIAG_LITERAL,
                 "floating-point literal '1e-400' is too small for a double (it underflows)", 6, 14);
    check_reject("mov.f64 %f1, 2.225073858507201e-308;", PTX_DIAG_LITERAL,
                 "floating-point literal '2.225073858507201e-308' is too small for a double (it underflows)",
                 6, 14);
    check_float("2.2250738585072014e-308", 2.2250738585072014e-308);
    check_float("0.0e999", 0.0);
}
END_TEST

START_TEST(reject_stray_characters)
{
    check_reject("mov.b32 %r1, \\;", PTX_DIAG_CHAR, "unexpected character '\\'", 6, 14);
    check_reject("mov.b32 %r1, \x01;", PTX_DIAG_CHAR, "unexpected control character 0x01", 6, 14);
    check_reject("mov.b32 %r1, #1;", PTX_DIAG_PREPROCESSOR,
                 "preprocessor directives are not supported (only line markers such as "
                 "'# 1 \"file\"' at the start of a line)", 6, 14);
}
END_TEST

START_TEST(reject_nul_byte)
{
    static const char text[] =
        ".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\nret;\0\n}\n";
    ptx_context *ctx;
    parse_raw(&ctx, text, sizeof text - 1);
    ck_assert_uint_ge(ptx_error_count(ctx), 1);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    ck_assert_int_eq(d->code, PTX_DIAG_CHAR);
    ck_assert_str_eq(d->message, "NUL byte in the input");
    ptx_position p = ptx_context_position(ctx, d->span.off);
    ck_assert_uint_eq(p.line, 6);
    ck_assert_uint_eq(p.col, 5);
    ptx_context_free(ctx);
}
END_TEST

/* Like check_reject, for a whole module of `len` bytes that may hold NUL
 * bytes; `want` errors exactly. */
static void check_reject_raw(const char *text, size_t len, size_t want, ptx_diag_code code,
                             const char *message, unsigned line, unsigned col)
{
    ptx_context *ctx;
    parse_raw(&ctx, text, len);
    size_t nerr = ptx_error_count(ctx);
    const ptx_diag *d = ptx_diag_get(ctx, 0);
    char msg[512] = "";
    int got = 0;
    ptx_position p = { 0, 0 };
    if (d) {
        snprintf(msg, sizeof msg, "%s", d->message);
        got = d->code;
        p = ptx_context_position(ctx, d->span.off);
    }
    ptx_context_free(ctx);
    ck_assert_msg(nerr == want, "%zu errors, expected %zu (first: %s)", nerr, want, msg);
    ck_assert_msg(got == (int)code, "code %d, expected %d (%s)", got, code, msg);
    ck_assert_str_eq(msg, message);
    ck_assert_uint_eq(p.line, line);
    ck_assert_uint_eq(p.col, col);
}

#define RAW(s) s, sizeof s - 1

/* ptxas stops at a NUL byte wherever it is ("Unexpected EOF"); a NUL
 * inside a comment or a string is as much an error as one between tokens,
 * and the comment or string is still skipped whole. */
START_TEST(reject_nul_in_comment)
{
    check_reject_raw(RAW(HDR_TEXT ".entry k()\n{\nret; // a\0b\n}\n"), 1, PTX_DIAG_CHAR,
                     "NUL byte in a comment", 6, 10);
    check_reject_raw(RAW(HDR_TEXT ".entry k()\n{\n/* \0\0 */ ret;\n}\n"), 1, PTX_DIAG_CHAR,
                     "NUL byte in a comment", 6, 4);
}
END_TEST

/* A NUL inside a word cuts it in two: the error is at the NUL. */
START_TEST(reject_nul_in_token)
{
    check_reject_raw(RAW(HDR_TEXT ".entry k()\n{\nre\0t;\n}\n"), 1, PTX_DIAG_CHAR,
                     "NUL byte in the input", 6, 3);
}
END_TEST

START_TEST(reject_nul_in_string)
{
    check_reject_raw(RAW(HDR_TEXT ".file 1 \"a\0.cu\"\n"), 1, PTX_DIAG_CHAR,
                     "NUL byte in a string", 4, 11);
}
END_TEST

/* Line markers and @@DWARF lines are skipped or kept as text, but their
 * bytes are PTX source: ptxas rejects non-ASCII in them too. */
START_TEST(reject_non_ascii_in_line_marker_and_dwarf)
{
    check_reject_raw(RAW("# 1 \"caf\xc3\xa9.cu\"\n" HDR_TEXT), 1, PTX_DIAG_NONASCII,
                     "non-ASCII character in a line marker (PTX source is ASCII)", 1, 9);
    check_reject_raw(RAW(".version 1.4\n.target sm_10\n@@DWARF .byte 0x2e \xff\n"), 1,
                     PTX_DIAG_NONASCII,
                     "non-ASCII character in a @@DWARF line (PTX source is ASCII)", 3, 20);
}
END_TEST

Suite *scanner_suite(void)
{
    Suite *s = suite_create("scanner");
    TCase *tc = tcase_create("literals");
    tcase_add_test(tc, int_decimal);
    tcase_add_test(tc, int_hex);
    tcase_add_test(tc, int_octal);
    tcase_add_test(tc, int_binary);
    tcase_add_test(tc, int_unsigned_suffix);
    tcase_add_test(tc, float_bits_f32);
    tcase_add_test(tc, float_bits_f64);
    tcase_add_test(tc, float_decimal);
    suite_add_tcase(s, tc);

    tc = tcase_create("words");
    tcase_add_test(tc, identifiers);
    tcase_add_test(tc, identifier_with_selector);
    tcase_add_test(tc, sink);
    tcase_add_test(tc, dotwords_with_colons);
    tcase_add_test(tc, dotwords_with_leading_digits);
    tcase_add_test(tc, dotwords_space_separated);
    tcase_add_test(tc, percent_modulo);
    tcase_add_test(tc, percent_identifier);
    tcase_add_test(tc, percent_unspaced_is_identifier);
    suite_add_tcase(s, tc);

    tc = tcase_create("skipped");
    tcase_add_test(tc, comments_anywhere);
    tcase_add_test(tc, comment_star_runs);
    tcase_add_test(tc, comments_do_not_nest);
    tcase_add_test(tc, line_markers_skipped);
    tcase_add_test(tc, line_marker_without_file_rejected);
    tcase_add_test(tc, line_marker_mid_line_rejected);
    suite_add_tcase(s, tc);

    tc = tcase_create("rejected");
    tcase_add_test(tc, reject_octal_8);
    tcase_add_test(tc, reject_lowercase_u_and_c_suffixes);
    tcase_add_test(tc, reject_short_0f);
    tcase_add_test(tc, reject_short_0d);
    tcase_add_test(tc, reject_float_suffix);
    tcase_add_test(tc, reject_float_out_of_range);
    tcase_add_test(tc, reject_non_ascii);
    tcase_add_test(tc, reject_non_ascii_in_comment);
    tcase_add_test(tc, reject_non_ascii_in_string);
    tcase_add_test(tc, reject_preprocessor);
    tcase_add_test(tc, reject_unterminated_comment);
    tcase_add_test(tc, reject_unterminated_string);
    tcase_add_test(tc, integer_over_64_bits_warns);
    tcase_add_test(tc, reject_integer_overflow);
    tcase_add_test(tc, reject_float_underflow);
    tcase_add_test(tc, reject_stray_characters);
    tcase_add_test(tc, reject_nul_byte);
    tcase_add_test(tc, reject_nul_in_token);
    tcase_add_test(tc, reject_nul_in_comment);
    tcase_add_test(tc, reject_nul_in_string);
    tcase_add_test(tc, reject_non_ascii_in_line_marker_and_dwarf);
    suite_add_tcase(s, tc);
    return s;
}
