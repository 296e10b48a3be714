/* The scanner's fast lane: the statement shapes that make most of a large
 * module (an instruction of the common shape, a .loc line, a label ending
 * its line, a run of data lines, and runs of the first three), taken whole
 * by the scanner (grammar/ptx.l asks ptx_fast_take) before Flex's
 * automaton reads their bytes.  Statements are built by the same walk
 * that measures them, with the grammar's own builders, and their token
 * hands the nodes to the grammar's action; a data run is taken apart as
 * it is measured and built by its action.  Each shape is one piece of
 * code that both measures and builds: what the fast lane takes and what
 * it builds cannot drift apart. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "fastlane.h"

/* ---- one-token instructions -------------------------------------------- */

/* Character classes of the one-token shapes, as grammar/ptx.l spells
 * them: ID is [A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+, a dot-word's
 * word is [A-Za-z0-9_]+; blanks are ' ' and '\t'. */
enum { CH_ALPHA = 1, CH_DIGIT = 2, CH_US = 4, CH_DOLLAR = 8, CH_PCT = 16, CH_BLANK = 32 };
#define CH_ID (CH_ALPHA | CH_DIGIT | CH_US | CH_DOLLAR)
#define CH_WORD (CH_ALPHA | CH_DIGIT | CH_US)
#define Z4 0, 0, 0, 0
#define Z16 Z4, Z4, Z4, Z4
#define A4 1, 1, 1, 1
#define D4 2, 2, 2, 2
static const unsigned char ch_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, CH_BLANK, 0, 0, 0, 0, 0, 0,         /* \t */
    Z16,
    CH_BLANK, 0, 0, 0, CH_DOLLAR, CH_PCT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* ' ' $ % */
    D4, D4, 2, 2, 0, 0, 0, 0, 0, 0,                                /* 0-9 */
    0, 1, 1, 1, A4, A4, A4,                                        /* A-O */
    A4, A4, 1, 1, 1, 0, 0, 0, 0, CH_US,                            /* P-Z _ */
    0, 1, 1, 1, A4, A4, A4,                                        /* a-o */
    A4, A4, 1, 1, 1, 0, 0, 0, 0, 0,                                /* p-z */
    Z16, Z16, Z16, Z16, Z16, Z16, Z16, Z16,
};
#undef Z4
#undef Z16
#undef A4
#undef D4

/* The walks' pieces are inlined, so that none pays a call per name; the
 * declaration walk is inlined twice, measuring alone (`build` false) and
 * building, so that neither tests `build` per piece. */
#if defined(__GNUC__)
#define WALK static inline __attribute__((always_inline))
#else
#define WALK static inline
#endif

static bool is_ch(char c, unsigned cls)
{
    return (ch_class[(unsigned char)c] & cls) != 0;
}

static const char *skip_blanks(const char *p)
{
    while (is_ch(*p, CH_BLANK))
        p++;
    return p;
}

/* Blanks and carriage returns, then the newline that ends a line: the
 * text after it, or NULL when something else comes first */
static const char *end_of_line(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return *p == '\n' ? p + 1 : NULL;
}

uint64_t ptx_hex_bits(const char *digits, size_t n)
{
    uint64_t bits = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned c = (unsigned char)digits[i];
        bits = bits << 4 | (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return bits;
}

/* The shape of a one-token instruction, one skip_* per piece of the
 * pattern; each returns the end of its piece at p, or NULL. */
WALK const char *skip_id(const char *p)
{
    if (is_ch(*p, CH_ALPHA))
        p++;
    else if (is_ch(*p, CH_US | CH_DOLLAR | CH_PCT) && is_ch(p[1], CH_ID))
        p += 2;
    else
        return NULL;
    while (is_ch(*p, CH_ID))
        p++;
    return p;
}

/* '.' word ("::" word)* */
WALK const char *skip_dotword(const char *p)
{
    if (*p != '.' || !is_ch(p[1], CH_WORD))
        return NULL;
    p += 2;
    for (;;) {
        while (is_ch(*p, CH_WORD))
            p++;
        if (p[0] != ':' || p[1] != ':' || !is_ch(p[2], CH_WORD))
            return p;
        p += 3;
    }
}

/* 0, or [1-9] and the digits after it, at most max in all (max at most
 * 19: no overflow): its end, and its value in *v when v is not NULL;
 * NULL for anything else (more digits included) */
static const char *skip_plain_decimal(const char *p, unsigned max, uint64_t *v)
{
    unsigned d = (unsigned char)*p - '0';
    if (d > 9)
        return NULL;
    const char *start = p++;
    uint64_t x = d;
    if (d != 0) {
        /* to the first byte that is not a digit (the buffer ends with a
         * NUL); more than max digits are refused after */
        while ((d = (unsigned char)*p - '0') <= 9) {
            x = x * 10 + d;
            p++;
        }
    }
    if ((size_t)(p - start) > max)
        return NULL;
    if (v)
        *v = x;
    return p;
}

/* 0 or [1-9][0-9]{0,18}, as the one-token instruction takes them: up to
 * 19 digits, which cannot overflow */
enum { SIMPLE_DIGITS = 19 };

static bool is_hex(char c)
{
    return is_ch(c, CH_DIGIT) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* n hexadecimal digits */
static const char *skip_hex(const char *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++, p++)
        if (!is_hex(*p))
            return NULL;
    return p;
}

/* 1 to 16 hexadecimal digits: no overflow (more digits are not taken) */
static const char *skip_hex_int(const char *p)
{
    const char *q = p;
    while (q < p + 16 && is_hex(*q))
        q++;
    return q > p ? q : NULL;
}

/* ---- the instruction walk ---------------------------------------------- */

/* An instruction of the one-token shape is read by one walk, which
 * measures it and, as it goes, calls the grammar's builders where the
 * grammar's rules would call them for the same tokens, in the same order,
 * so that the tree is the grammar's own.  The statement is built before
 * the parser knows that it stands where a statement may (a token may be
 * dropped by the parser's error recovery), so nothing built here may
 * report anything: a shape whose builders could is left to the rules. */

/* The token from p to end, as the scanner would make it. */
static ptx_tok tok_at(const ptx_context *ctx, const char *p, const char *end, uint32_t k)
{
    ptx_tok t = { (uint32_t)(p - ctx->src), (uint32_t)(end - p), k, { 0 } };
    return t;
}

static ptx_loc_t loc_at(const ptx_context *ctx, const char *p, const char *end)
{
    ptx_loc_t loc = { (uint32_t)(p - ctx->src), (uint32_t)(end - ctx->src) };
    return loc;
}

/* A decimal of the shape (SIMPLE_DIGITS at most: no overflow): its end,
 * or NULL; its INT token in *t. */
WALK const char *walk_decimal(const ptx_context *ctx, const char *p, ptx_tok *t)
{
    uint64_t v = 0;
    const char *q = skip_plain_decimal(p, SIMPLE_DIGITS, &v);
    if (q) {
        *t = tok_at(ctx, p, q, PTX_INT_DEC);
        t->u = v;
    }
    return q;
}

/* One operand at p: a name, name.sel, name|name, [-]decimal, a 0x
 * constant, a 0f/0d constant, [name], [name+decimal] or {name, ...}.
 * Returns its end and its expression in *e, as the rules under `expr`
 * make it, or NULL for another shape. */
WALK const char *walk_operand(ptx_context *ctx, const char *p, ptx_expr **e)
{
    const char *start = p, *q;
    ptx_tok t;
    if (is_ch(*p, CH_ALPHA | CH_US | CH_DOLLAR | CH_PCT)) {
        /* a name, most operands: first */
        if (!(q = skip_id(p)))
            return NULL;
        if (*q == '.') {
            /* a name and one selector: one DOTTED token */
            if (!(q = skip_dotword(q)))
                return NULL;
            t = tok_at(ctx, p, q, 0);
            *e = ptx_b_dotted_sym(ctx, &t);
            return q;
        }
        t = tok_at(ctx, p, q, 0);
        *e = ptx_b_sym(ctx, &t, NULL);
        const char *bar = skip_blanks(q);
        if (*bar != '|')
            return q;
        /* name '|' name: a pair of destinations (ptx_b_operand makes it one) */
        p = skip_blanks(bar + 1);
        if (!(q = skip_id(p))) {
            cell_free(ctx, *e);   /* another shape: the cell goes back */
            return NULL;
        }
        t = tok_at(ctx, p, q, 0);
        *e = ptx_b_binary(ctx, PTX_OP_BOR, *e, ptx_b_sym(ctx, &t, NULL));
        return q;
    }
    if (*p == '{') {
        /* '{' exprs_opt '}' of names */
        size_t inner = ptx_mark(ctx);
        for (p = skip_blanks(p + 1);; p = skip_blanks(p + 1)) {
            if (!(q = skip_id(p)))
                return NULL;
            t = tok_at(ctx, p, q, 0);
            ptx_b_push(ctx, ptx_b_sym(ctx, &t, NULL));
            p = skip_blanks(q);
            if (*p == '}')
                break;
            if (*p != ',')
                return NULL;
        }
        p++;
        *e = ptx_b_list(ctx, PTX_EXPR_VEC, inner, loc_at(ctx, start, p));
        return p;
    }
    if (*p == '[') {
        /* '[' exprs ']' of a name, or of name '+' decimal */
        p = skip_blanks(p + 1);
        if (!(q = skip_id(p)))
            return NULL;
        t = tok_at(ctx, p, q, 0);
        size_t inner = ptx_mark(ctx);
        ptx_expr *a = ptx_b_sym(ctx, &t, NULL);
        p = skip_blanks(q);
        if (*p == '+') {
            if (!(q = walk_decimal(ctx, skip_blanks(p + 1), &t)))
                goto give_back;
            a = ptx_b_binary(ctx, PTX_OP_ADD, a, ptx_b_int(ctx, &t));
            p = skip_blanks(q);
        }
        if (*p != ']')
            goto give_back;
        p++;
        ptx_b_push(ctx, a);
        *e = ptx_b_list(ctx, PTX_EXPR_ADDR, inner, loc_at(ctx, start, p));
        return p;
    give_back:
        /* another shape: the cell built goes back */
        cell_free(ctx, a);
        return NULL;
    }
    if (*p == '-') {
        /* '-' expr of a decimal */
        if (!(q = walk_decimal(ctx, p + 1, &t)))
            return NULL;
        *e = ptx_b_unary(ctx, PTX_OP_NEG, ptx_b_int(ctx, &t), loc_at(ctx, start, q));
        return q;
    }
    if (*p == '0' && ((p[1] | 0x20) == 'f' || (p[1] | 0x20) == 'd')) {
        /* 0f and 8 hexadecimal digits, or 0d and 16 (the scanner's
         * pattern) */
        bool f64 = (p[1] | 0x20) == 'd';
        if (!(q = skip_hex(p + 2, f64 ? 16 : 8)))
            return NULL;
        t = tok_at(ctx, p, q, 0);
        t.u = ptx_hex_bits(p + 2, (size_t)(q - p) - 2);
        *e = ptx_b_bits(ctx, &t, f64);
        return q;
    }
    if (*p == '0' && (p[1] | 0x20) == 'x') {
        if (!(q = skip_hex_int(p + 2)))
            return NULL;
        t = tok_at(ctx, p, q, PTX_INT_HEX);
        t.u = ptx_hex_bits(p + 2, (size_t)(q - p) - 2);
        *e = ptx_b_int(ctx, &t);
        return q;
    }
    if (is_ch(*p, CH_DIGIT)) {
        if (!(q = walk_decimal(ctx, p, &t)))
            return NULL;
        *e = ptx_b_int(ctx, &t);
        return q;
    }
    return NULL;
}

/* A walk that finds another shape after part of the statement gives
 * back what it pushed, the cells of expressions, down to `mark`. */
static void unwind(ptx_context *ctx, size_t mark)
{
    while (ctx->nscratch > mark)
        cell_free(ctx, ctx->scratch[--ctx->nscratch]);
}

/* The instruction at s: an optional guard ('@' or "@!" and a name, then
 * blanks), the opcode with its dot-words (one DOTTED token), and operands
 * after blanks, separated by commas, then ';'.  Returns its length, ';'
 * included, and the instruction in *out as `instr` makes it, or 0 for
 * another shape.  More operands than ptx_b_instr holds (it reports
 * them) are another shape. */
WALK size_t walk_instr(ptx_context *ctx, const char *s, ptx_node **out)
{
    const char *p = s, *q;
    ptx_tok guard = { 0, 0, 0, { 0 } }, opcode;
    bool guarded = *p == '@', neg = false;
    if (guarded) {
        neg = p[1] == '!';
        p += 1 + neg;
        if (!(q = skip_id(p)) || (*q != ' ' && *q != '\t'))
            return 0;
        guard = tok_at(ctx, p, q, 0);
        p = skip_blanks(q);
    }
    q = skip_id(p);
    while (q && *q == '.')
        q = skip_dotword(q);
    if (!q)
        return 0;
    opcode = tok_at(ctx, p, q, 0);
    /* no dot-word follows a DOTTED opcode: `mods` is empty, and both lists
     * start at the same mark */
    size_t mark = ptx_mark(ctx);
    const char *end = q;    /* of the opcode, then of the last operand */
    p = skip_blanks(q);
    if (*p != ';') {
        if (p == q)
            return 0;   /* operands come after blanks */
        for (uint32_t nops = 1;; nops++) {
            ptx_expr *e = NULL;
            if (nops > UINT16_MAX || !(q = walk_operand(ctx, p, &e)))
                goto other;
            ptx_b_push(ctx, ptx_b_operand(ctx, e));
            end = q;
            p = skip_blanks(q);
            if (*p != ',')
                break;
            p = skip_blanks(p + 1);
        }
        if (*p != ';')
            goto other;
    }
    *out = ptx_b_instr(ctx, guarded ? &guard : NULL, neg, &opcode, mark, mark, loc_at(ctx, s, end));
    return (size_t)(p + 1 - s);
other:
    unwind(ctx, mark);
    return 0;
}

/* 0|[1-9][0-9]{0,8}: a .loc number, which fits 32 bits */
static const char *skip_loc_number(const char *p, uint32_t *v)
{
    uint64_t x = 0;
    p = skip_plain_decimal(p, 9, &x);
    *v = (uint32_t)x;
    return p;
}

/* A .loc line of the one-token shape, taken apart. */
struct loc_parts {
    uint32_t v[6];              /* file, line, column; inlined_at's three */
    const char *name;           /* function_name's label, or NULL */
    size_t name_len;
    bool inlined;
};

/* `n` numbers, each after blanks; the end, or NULL */
static const char *loc_numbers(const char *p, uint32_t *v, int n)
{
    for (int i = 0; i < n; i++) {
        const char *q = skip_blanks(p);
        if (q == p || !(q = skip_loc_number(q, &v[i])))
            return NULL;
        p = q;
    }
    return p;
}

/* ", word" after blanks: the text after the word and its blanks, or NULL */
static const char *loc_key(const char *p, const char *word, size_t n)
{
    p = skip_blanks(p);
    if (*p != ',')
        return NULL;
    p = skip_blanks(p + 1);
    if (strncmp(p, word, n) != 0 || (p[n] != ' ' && p[n] != '\t'))
        return NULL;
    return p + n;
}

/* ".loc FILE LINE COLUMN", then optionally ", function_name LABEL" and
 * ", inlined_at FILE LINE COLUMN" in that order (both or neither), numbers decimals of at
 * most 9 digits, ending its line: its length at s (to its last number or
 * name), or 0; its parts in *out. */
static size_t loc_line(const char *s, struct loc_parts *out)
{
    if (s[0] != '.' || s[1] != 'l' || s[2] != 'o' || s[3] != 'c' || (s[4] != ' ' && s[4] != '\t'))
        return 0;
    const char *p = loc_numbers(s + 4, out->v, 3), *q;
    if (!p)
        return 0;
    out->name = NULL;
    out->inlined = false;
    if ((q = loc_key(p, "function_name", 13)) != NULL) {
        out->name = skip_blanks(q);
        if (!(p = skip_id(out->name)))
            return 0;
        out->name_len = (size_t)(p - out->name);
    }
    if ((q = loc_key(p, "inlined_at", 10)) != NULL) {
        if (!(p = loc_numbers(q, out->v + 3, 3)))
            return 0;
        out->inlined = true;
    }
    /* one without the other is an error the rules report */
    if (out->inlined != (out->name != NULL))
        return 0;
    return end_of_line(p) ? (size_t)(p - s) : 0;
}

/* The .loc line of `len` bytes at s that loc_line took apart. */
static ptx_node *build_loc_line(ptx_context *ctx, const char *s, size_t len,
                                const struct loc_parts *parts)
{
    ptx_loc_t loc = loc_at(ctx, s, s + len);
    ptx_loc *l = node_new(ctx, PTX_NODE_LOC, sizeof *l, loc);
    l->file = parts->v[0];
    l->line = parts->v[1];
    l->col = parts->v[2];
    if (parts->name) {
        ptx_tok name = tok_at(ctx, parts->name, parts->name + parts->name_len, 0);
        l->function_name = tok_name(ctx, &name);
    }
    if (parts->inlined) {
        l->has_inlined_at = 1;
        l->in_file = parts->v[3];
        l->in_line = parts->v[4];
        l->in_col = parts->v[5];
    }
    return &l->base;
}

/* "name:" ending its line: its length at s, ':' included, or 0. */
static size_t label_length(const char *s)
{
    const char *p = skip_id(s);
    if (!p || *p != ':')
        return 0;
    return end_of_line(p + 1) ? (size_t)(p + 1 - s) : 0;
}

/* ---- declarations --------------------------------------------------------- */

/* The dot-word at p (the scanner's {WORD}) followed by a blank, in
 * *len; 0 for anything else */
static size_t dotword_then_blank(const char *p)
{
    const char *q = skip_dotword(p);
    return q && (*q == ' ' || *q == '\t') ? (size_t)(q - p) : 0;
}

/* The '<' or '[' at r, then a plain decimal and `close`, blanks between:
 * the end after `close`, the number's INT token in *t; NULL for another
 * shape. */
static const char *walk_bracketed(const ptx_context *ctx, const char *r, char close, ptx_tok *t)
{
    const char *q = walk_decimal(ctx, skip_blanks(r + 1), t);
    if (!q || *(q = skip_blanks(q)) != close)
        return NULL;
    return q + 1;
}

/* The declaration at s of the shape functions' bodies are full of:
 *   (.reg|.param|.local|.shared) [.align N] TYPE declarator {, declarator} ;
 * a declarator a name, name<N> or name[N]..., blanks between the tokens,
 * TYPE a fundamental type, every number a plain decimal.  Nothing built
 * for such a declaration in a body reports anything (a power of two for
 * .align, a count below 2^32, no array of registers, no '_', no
 * initialiser, linkage, vector or .ptr), so it may be built before the
 * parser reads it.  Returns its length, ';' included, or 0; building,
 * the declaration in *out, as `decl ';'` makes it in a body. */
WALK size_t walk_decl(ptx_context *ctx, const char *s, bool build, ptx_node **out)
{
    const char *p = s, *q, *r;
    ptx_tok t;
    size_t n = dotword_then_blank(p);
    ptx_space space = n ? ptx_space_of_word(p, n) : PTX_SPACE_NONE;
    q = p + n;
    if (space != PTX_SPACE_REG && space != PTX_SPACE_PARAM && space != PTX_SPACE_LOCAL &&
        space != PTX_SPACE_SHARED)
        return 0;
    size_t specs = build ? ptx_mark(ctx) : 0;
    if (build) {
        t = tok_at(ctx, p, q, space);
        ptx_b_spec(ctx, PTX_SPEC_SPACE, &t, loc_at(ctx, p, q));
    }
    p = skip_blanks(q);
    if (strncmp(p, ".align", 6) == 0 && (p[6] == ' ' || p[6] == '\t')) {
        if (!(q = walk_decimal(ctx, skip_blanks(p + 6), &t)) || t.u == 0 || t.u > UINT32_MAX ||
            (t.u & (t.u - 1)) || (*q != ' ' && *q != '\t'))
            return 0;
        if (build)
            ptx_b_spec(ctx, PTX_SPEC_ALIGN, &t, loc_at(ctx, p, q));
        p = skip_blanks(q);
    }
    n = dotword_then_blank(p);
    ptx_type type = n ? ptx_type_of_word(p, n) : PTX_TYPE_NONE;
    q = p + n;
    if (!type || type == PTX_TYPE_TEXREF || type == PTX_TYPE_SAMPLERREF || type == PTX_TYPE_SURFREF)
        return 0;
    if (build) {
        t = tok_at(ctx, p, q, type);
        ptx_b_spec(ctx, PTX_SPEC_TYPE, &t, loc_at(ctx, p, q));
    }
    p = skip_blanks(q);
    size_t vars = 0;
    const char *end;            /* of the last declarator */
    for (bool first = true;; first = false) {
        if (!(q = skip_id(p)) || (q - p == 1 && *p == '_'))
            return 0;
        ptx_var *v = NULL;
        if (build) {
            t = tok_at(ctx, p, q, 0);
            v = ptx_b_var(ctx, &t, false);
        }
        end = q;
        r = skip_blanks(q);
        if (*r == '<') {
            if (!(end = walk_bracketed(ctx, r, '>', &t)) || t.u > UINT32_MAX)
                return 0;
            if (build)
                ptx_b_var_range(ctx, v, &t, loc_at(ctx, ctx->src + t.off, ctx->src + t.off + t.len));
        } else if (*r == '[') {
            if (space == PTX_SPACE_REG)
                return 0;
            do {
                if (!(end = walk_bracketed(ctx, r, ']', &t)))
                    return 0;
                if (build)
                    ptx_b_var_dim(ctx, v, &t, loc_at(ctx, p, end));
                r = skip_blanks(end);
            } while (*r == '[');
        }
        if (build) {
            if (first)
                vars = ptx_mark(ctx);
            ptx_b_push(ctx, v);
        }
        p = skip_blanks(end);
        if (*p == ';')
            break;
        if (*p != ',')
            return 0;
        p = skip_blanks(p + 1);
    }
    if (build)
        *out = ptx_b_decl_at(ctx, ptx_b_decl(ctx, specs, vars, loc_at(ctx, s, end)), PTX_SITE_BODY);
    return (size_t)(p + 1 - s);
}

/* ---- what the scanner takes ------------------------------------------- */

/* Blank lines and '//' comments of plain ASCII from p on, skipped as the
 * scanner's rules would skip them: the first byte after them, or NULL at a
 * comment with a byte to report (left to the rules, which report it). */
static const char *skip_layout(const char *p)
{
    /* most often a newline and a tab before the next statement */
    if (p[0] == '\n' && p[1] == '\t' && (unsigned char)p[2] > ' ' && p[2] != '/')
        return p + 2;
    for (;;) {
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            for (p += 2; *p != '\n'; p++)
                if (*p == '\0' || (unsigned char)*p >= 0x80)
                    return NULL;
        } else {
            return p;
        }
    }
}

/* After a .loc line or a label ending at p: what follows is a statement
 * of its own, not a continuation of it (`words`, each a prefix of what
 * may come next); a block comment there is left to the rules. */
static bool own_statement_follows(const char *p, const char *const *words, size_t n)
{
    p = skip_layout(p);
    if (!p || *p == '/')
        return false;
    for (size_t i = 0; i < n; i++)
        if (strncmp(p, words[i], strlen(words[i])) == 0)
            return false;
    return true;
}

/* what continues a .loc: an attribute; what a label names */
static const char *const loc_goes_on[] = { "," };
static const char *const label_names[] = { ".callprototype", ".calltargets", ".branchtargets" };
#define FOLLOWS(p, words) own_statement_follows(p, words, sizeof words / sizeof *words)

/* The statement taken whole at p, at the start of a statement, built
 * (one copy of each walk serves the scanner's every statement).  In a
 * body (`body`): an instruction of the common shape, wherever it is on
 * its line (inline assembly writes two to a line: on cub_allkeys 15% of
 * the statements were left to the grammar for not starting their line),
 * a .loc line or a label ending its line, with nothing after it that
 * continues it; and when it is the first the scanner takes at once
 * (`first`), not one of a run, a declaration, or the '{' or '}' of a
 * block.  In a debug section, a label alone: there no instruction, .loc
 * line or declaration may stand, and through the rules the error is
 * where the section's own statements (a label, a data line) part from
 * theirs.  Its length in *n, its node in *out (none for a brace).
 * PTX_FAST_NONE for anything else.
 *
 * A declaration makes a token of its own: after a syntax error in a body
 * the parser discards a STMTS token's statements up to its first ';'
 * (ptx_after_error), as through the grammar, and only instructions are
 * counted there.  It is measured before it is built, so that a shape
 * found wrong halfway has built nothing. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static ptx_fast_kind take_statement(ptx_context *ctx, const char *p, size_t *n, ptx_node **out,
                                    bool body, bool first)
{
    if (body && (*n = walk_instr(ctx, p, out)) != 0)
        return PTX_FAST_INSTR;
    if (body && *p == '.') {
        struct loc_parts parts;
        if ((*n = loc_line(p, &parts)) != 0 && FOLLOWS(p + *n, loc_goes_on)) {
            *out = build_loc_line(ctx, p, *n, &parts);
            return PTX_FAST_LOC;
        }
        if (first && (*n = walk_decl(ctx, p, false, NULL)) != 0) {
            walk_decl(ctx, p, true, out);
            return PTX_FAST_DECL;
        }
        return PTX_FAST_NONE;
    }
    if (body && first && (*p == '{' || *p == '}')) {
        *n = 1;
        return *p == '{' ? PTX_FAST_OPEN : PTX_FAST_CLOSE;
    }
    if ((*n = label_length(p)) != 0 && FOLLOWS(p + *n, label_names)) {
        ptx_tok name = tok_at(ctx, p, p + *n - 1, 0);
        *out = ptx_b_label(ctx, &name, loc_at(ctx, p, p + *n));
        return PTX_FAST_LABEL;
    }
    return PTX_FAST_NONE;
}

/* After an instruction or .loc line taken whole at p, its node `first`:
 * the statements taken whole that follow it (at most PTX_RUN_PIECES in
 * all), built and linked after it.  A label does not start a run: in a
 * section, labels stand between data lines.  Returns the end of the
 * last. */
static const char *take_stmts(ptx_context *ctx, const char *p, size_t n, ptx_node *first,
                              ptx_node **out_last)
{
    const char *end = p + n;
    ptx_node *last = first;
    for (unsigned k = 1; k < PTX_RUN_PIECES; k++) {
        const char *q = skip_layout(end);
        size_t m;
        ptx_node *node = NULL;
        if (!q || !take_statement(ctx, q, &m, &node, true, false))
            break;
        last->next = node;
        last = node;
        end = q + m;
    }
    *out_last = last;
    return end;
}

/* What follows the '.' of a data run's first line, at b: "b8", "b16",
 * "b32" or "b64", a blank, blanks, and a digit (ptx_data_run_length takes
 * no label on the first line). */
static bool data_run_after_dot(const char *b)
{
    if (b[0] != 'b')
        return false;
    const char *p = b[1] == '8' ? b + 2
                  : (b[1] == '1' && b[2] == '6') || (b[1] == '3' && b[2] == '2') ||
                    (b[1] == '6' && b[2] == '4') ? b + 3 : NULL;
    return p && (*p == ' ' || *p == '\t') && is_ch(*skip_blanks(p), CH_DIGIT);
}

bool ptx_fast_may_take(const char *held, bool at_statement)
{
    if (at_statement)
        return true;
    /* a data run: its '.' the held byte, or after the blanks and newlines
     * that follow it; a comment there may hide one */
    const char *p = held + 1;
    if (*p == 'b')
        return data_run_after_dot(p);
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return *p == '/' || (*p == '.' && data_run_after_dot(p + 1));
}

ptx_fast_kind ptx_fast_take(ptx_context *ctx, const char *p, bool at_statement, bool in_body,
                           ptx_span *span, ptx_nlist *built)
{
    p = skip_layout(p);
    size_t n = 0;
    ptx_fast_kind kind = PTX_FAST_NONE;
    built->first = built->last = NULL;
    if (!p)
        return PTX_FAST_NONE;
    /* a data run starts with ".b8 " and the like, which none of the
     * statements does */
    if (at_statement && (kind = take_statement(ctx, p, &n, &built->first, in_body, true)) != PTX_FAST_NONE)
        built->last = built->first;
    else if (*p == '.' && (n = ptx_data_run_length(ctx, p)) != 0)
        kind = PTX_FAST_DATA;
    else
        return PTX_FAST_NONE;
    if (kind == PTX_FAST_INSTR || kind == PTX_FAST_LOC) {
        const char *end = take_stmts(ctx, p, n, built->first, &built->last);
        if (built->first->next) {
            n = (size_t)(end - p);
            kind = PTX_FAST_STMTS;
        }
    }
    *span = (ptx_span){ (uint32_t)(p - ctx->src), (uint32_t)n };
    return kind;
}

/* ---- after a syntax error ---------------------------------------------- */

/* Error recovery discards tokens up to a ';'.  Through the grammar that
 * is the rest of the statement the error is in, then statements whole:
 * of a STMTS token the .loc lines and labels before its first
 * instruction and that instruction go.  In a body the rest stays.  At
 * module scope each of the rest is an error of its own, which the parser
 * does not report so soon after the last and recovers from by discarding
 * again: nothing stays, and the run ends in step only when it ends with
 * an instruction. */
ptx_node *ptx_after_error(ptx_nlist run, bool body, bool *synced)
{
    if (!body) {
        *synced = run.last && run.last->kind == PTX_NODE_INSTR;
        return NULL;
    }
    ptx_node *n = run.first;
    while (n && n->kind != PTX_NODE_INSTR)
        n = n->next;
    *synced = n != NULL;
    return n ? n->next : NULL;
}

ptx_fast_first ptx_fast_first_token(const char *p, uint32_t *len)
{
    if (*p == '@') {
        *len = 1;
        return PTX_FIRST_PUNCT;
    }
    if (*p == '.') {            /* a .loc line, or a declaration's state space */
        const char *q = skip_dotword(p);
        *len = (uint32_t)(q - p);
        return *len == 4 && p[1] == 'l' ? PTX_FIRST_LOC : PTX_FIRST_SPACE;
    }
    const char *q = skip_id(p), *w;
    bool dotted = false;
    while ((w = skip_dotword(q)) != NULL) {
        q = w;
        dotted = true;
    }
    *len = (uint32_t)(q - p);
    return dotted ? PTX_FIRST_DOTTED : PTX_FIRST_IDENT;
}

ptx_node *ptx_b_kept_before_error(ptx_context *ctx, uint32_t off)
{
    const char *s = ctx->src + off;
    if (*s == '.') {
        struct loc_parts parts;
        size_t n = loc_line(s, &parts);
        if (n == 0 || !FOLLOWS(s + n, loc_goes_on))
            return NULL;
        return build_loc_line(ctx, s, n, &parts);
    }
    const char *p = skip_id(s);
    if (!p)
        return NULL;
    const char *q = p, *close;
    for (;;) {                  /* the layout the scanner skips */
        if (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
            q++;
        else if (q[0] == '/' && q[1] == '/')
            q = q + 2 + strcspn(q + 2, "\n");
        else if (q[0] == '/' && q[1] == '*' && (close = strstr(q + 2, "*/")) != NULL)
            q = close + 2;
        else
            break;
    }
    if (*q != ':')
        return NULL;
    ptx_tok name = tok_at(ctx, s, p, 0);
    return ptx_b_label(ctx, &name, loc_at(ctx, s, q + 1));
}

/* ---- data runs -------------------------------------------------------- */

/* 0|[1-9][0-9]{0,18}: a data run's value */
static const char *skip_run_value(const char *p, uint64_t *v)
{
    return skip_plain_decimal(p, 19, v);
}

/* The word of a run's line at p (".b8 " and so on, blank included): the
 * bytes it names (1, 2, 4 or 8) and its length; 0 for another word. */
static unsigned run_word(const char *p, size_t *wlen)
{
    unsigned bytes;
    if (p[0] != '.' || p[1] != 'b')
        return 0;
    if (p[2] == '8')
        bytes = 1;
    else if (p[2] == '1' && p[3] == '6')
        bytes = 2;
    else if (p[2] == '3' && p[3] == '2')
        bytes = 4;
    else if (p[2] == '6' && p[3] == '4')
        bytes = 8;
    else
        return 0;
    *wlen = bytes == 1 ? 3 : 4;
    return p[*wlen] == ' ' || p[*wlen] == '\t' ? bytes : 0;
}

/* A label as a run's value: after .b32 and .b64, not a number */
static bool run_label(unsigned bytes, const char *q)
{
    return bytes >= 4 && !is_ch(*q, CH_DIGIT);
}

static void pack(unsigned char *packed, unsigned width, uint32_t i, uint64_t v)
{
    switch (width) {
    case 1: packed[i] = (unsigned char)v; break;
    case 2: { uint16_t h = (uint16_t)v; memcpy(packed + 2 * (size_t)i, &h, 2); break; }
    case 4: { uint32_t w = (uint32_t)v; memcpy(packed + 4 * (size_t)i, &w, 4); break; }
    default: memcpy(packed + 8 * (size_t)i, &v, 8); break;
    }
}

static unsigned width_of(uint64_t v)
{
    return v >> 32 ? 8 : v >> 16 ? 4 : v >> 8 ? 2 : 1;
}

/* A buffer of a ptx_run_buf with room for `need` items of `size` bytes. */
static void *run_room(ptx_context *ctx, void *buf, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return buf;
    size_t n = *cap ? *cap : 4096;
    while (n < need)
        n *= 2;
    void *p = ptx_ctx_realloc(ctx, buf, *cap * size, n * size);
    if (!p)
        longjmp(ctx->oom, 1);
    *cap = n;
    return p;
}

/* The first `count` values of run r, packed again `width` bytes each:
 * wider from the last down, narrower from the first up, in place. */
static void run_repack(ptx_context *ctx, ptx_run_buf *r, uint32_t count, unsigned width)
{
    r->vals = run_room(ctx, r->vals, &r->vals_cap, ((size_t)count + 1) * width, 1);
    ptx_data old = { .ints = r->vals, .width = (uint8_t)r->width };
    if (width > r->width)
        for (uint32_t i = count; i-- > 0;)
            pack(r->vals, width, i, ptx_data_int(&old, i));
    else
        for (uint32_t i = 0; i < count; i++)
            pack(r->vals, width, i, ptx_data_int(&old, i));
    r->width = width;
}

size_t ptx_data_run_length(ptx_context *ctx, const char *s)
{
    /* the other buffer than the last run's, which may not be built yet */
    ptx_run_buf *r = &ctx->run[ctx->run_last ^ 1];
    const char *end = s, *last = s;
    uint32_t count = 0, nlines = 0, nsyms = 0;
    uint64_t max = 0;
    unsigned first = 0;
    size_t wlen;
    if (!run_word(s, &wlen))
        return 0;
    r->filled = false;
    /* the buffers' state is kept in locals while the lines are read: a
     * store through a byte pointer may alias anything, so fields of *r
     * would be loaded again after each one */
    unsigned width = 1;
    unsigned char *vals = r->vals;
    uint32_t *line_ends = r->line_ends;
    uint8_t *line_bytes = r->line_bytes;
    bool has_ends = false, has_bytes = false;
    for (const char *p = s;;) {
        unsigned bytes = run_word(p, &wlen);
        if (!bytes)
            break;
        /* the line's values, separated by commas, or one label; they go
         * after the run's, and count once the line is whole */
        const char *q = skip_blanks(p + wlen), *vend;
        uint32_t c = 0, sym = 0;
        uint64_t m = 0;
        if (run_label(bytes, q)) {
            /* not first: ".param .b32 name" ends a parameter list */
            const char *e = nlines ? skip_id(q) : NULL;
            if (!e)
                break;
            r->syms = run_room(ctx, r->syms, &r->syms_cap, (size_t)nsyms + 1, sizeof *r->syms);
            r->sym_spans = run_room(ctx, r->sym_spans, &r->spans_cap, (size_t)nsyms + 1,
                                    sizeof *r->sym_spans);
            r->syms[nsyms] = (ptx_data_sym){ count, NULL };
            r->sym_spans[nsyms] = (ptx_span){ (uint32_t)(q - ctx->src), (uint32_t)(e - q) };
            ptx_intern_prefetch(ctx, q, (size_t)(e - q));
            vals = r->vals = run_room(ctx, vals, &r->vals_cap, ((size_t)count + 1) * width, 1);
            pack(vals, width, count, 0);
            q = vend = e;
            c = sym = 1;
        } else {
            for (;;) {
                uint64_t v;
                q = skip_run_value(q, &v);
                if (!q)
                    goto done;
                if (width < 8 && v >> (8 * width)) {
                    r->vals = vals;
                    r->width = width;
                    run_repack(ctx, r, count + c, width_of(v));
                    vals = r->vals;
                    width = r->width;
                }
                if (((size_t)count + c + 1) * width > r->vals_cap)
                    vals = r->vals = run_room(ctx, vals, &r->vals_cap,
                                              ((size_t)count + c + 1) * width, 1);
                pack(vals, width, count + c, v);
                m |= v;
                c++;
                vend = q;
                q = skip_blanks(q);
                if (*q != ',')
                    break;
                q = skip_blanks(q + 1);
            }
        }
        /* then the end of the line, and the next line's indentation; a
         * run holds at most 2^24 - 1 labels (a longer one goes on in
         * another run) */
        if (!(q = end_of_line(q)) || count + c < count || nlines == UINT32_MAX ||
            nsyms + sym > 0xFFFFFF)
            break;
        if (!nlines)
            first = bytes;
        if (c != 1 || has_ends) {
            line_ends = r->line_ends = run_room(ctx, line_ends, &r->ends_cap, (size_t)nlines + 1,
                                                sizeof *line_ends);
            if (!has_ends)   /* the lines so far held one value each */
                for (uint32_t k = 0; k < nlines; k++)
                    line_ends[k] = k + 1;
            has_ends = true;
            line_ends[nlines] = count + c;
        }
        if (bytes != first || has_bytes) {
            line_bytes = r->line_bytes = run_room(ctx, line_bytes, &r->bytes_cap,
                                                  (size_t)nlines + 1, 1);
            if (!has_bytes)   /* the lines so far had the first's word */
                memset(line_bytes, (int)first, nlines);
            has_bytes = true;
            line_bytes[nlines] = (uint8_t)bytes;
        }
        last = vend;
        p = end = skip_blanks(q);
        count += c;
        nsyms += sym;
        nlines++;
        max |= m;
    }
done:
    if (!nlines)
        return 0;
    r->vals = vals;
    r->width = width;
    r->has_ends = has_ends;
    r->has_bytes = has_bytes;
    width = width_of(max);
    if (width != r->width)   /* a line that was not taken held a wider value */
        run_repack(ctx, r, count, width);
    for (uint32_t i = 0; i < nsyms; i++)
        r->syms[i].name = ptx_intern(ctx, ctx->src + r->sym_spans[i].off, r->sym_spans[i].len);
    r->filled = true;
    ctx->run_last ^= 1;
    r->off = (uint32_t)(s - ctx->src);
    r->end = (uint32_t)(last - ctx->src);
    r->count = count;
    r->nlines = nlines;
    r->nsyms = nsyms;
    return (size_t)(end - s);
}

/* The arena's copy of `n` bytes at p, or NULL when n is 0. */
static void *run_copy(ptx_context *ctx, const void *p, size_t n)
{
    if (!n)
        return NULL;
    void *q = ptx_arena_alloc(ctx->tree, n);
    memcpy(q, p, n);
    return q;
}

/* ".b8 1\n\t.b8 0,7\n.b64 $L__tmp3\n..." as one token, as
 * ptx_data_run_length took it apart: the values packed at the width that
 * holds them all; where each line's values end, when a line has more than
 * one; each line's word, when they differ; the labels.  A run that is
 * neither of the last two measured is measured again. */
ptx_node *ptx_b_data_run(ptx_context *ctx, const ptx_tok *t)
{
    const ptx_run_buf *r = &ctx->run[ctx->run_last];
    if (!r->filled || r->off != t->off) {
        r = &ctx->run[ctx->run_last ^ 1];
        if (!r->filled || r->off != t->off) {
            ptx_data_run_length(ctx, ctx->src + t->off);
            r = &ctx->run[ctx->run_last];
        }
    }
    uint32_t count = r->count, nlines = r->nlines, nsyms = r->nsyms;
    ptx_loc_t loc = { t->off, r->end };
    ptx_data *d = node_new(ctx, PTX_NODE_DATA, sizeof *d, loc);
    size_t wlen = 0;
    run_word(ctx->src + t->off, &wlen);
    ptx_tok w = { t->off, (uint32_t)wlen, 0, { 0 } };
    d->word = tok_name(ctx, &w);
    d->count = count;
    d->width = (uint8_t)r->width;
    d->ints = run_copy(ctx, r->vals, (size_t)count * r->width);
    d->nlines = nlines;
    d->line_ends = r->has_ends ? run_copy(ctx, r->line_ends, (size_t)nlines * sizeof *d->line_ends)
                               : NULL;
    d->line_bytes = r->has_bytes ? run_copy(ctx, r->line_bytes, nlines) : NULL;
    d->nsyms = nsyms;
    d->syms = run_copy(ctx, r->syms, (size_t)nsyms * sizeof *d->syms);
    return &d->base;
}
