/* The inline PTX of CUDA C++: a small C/C++ lexer that finds the asm
 * statements of a .cu file, reads each template as nvcc hands it to
 * ptxas, checks it as the body of a kernel of its own in a context of its
 * own, and gives the diagnostics back at the .cu positions the PTX bytes
 * came from (doc/inline-asm.md).
 *
 * What nvcc does, asked of nvcc 13.0 (-ptx shows the text it makes):
 * adjacent literals are joined and their escapes read; a statement with
 * no operand is passed verbatim (its %% stays %%); otherwise %% is %, %N
 * the operand's register (r: .b32, l: .b64, h: .b16, f: .f32, d: .f64)
 * or, for n, the immediate's value in decimal, %= is 0, and any other %
 * stays; %N past the operands is an error of nvcc's. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "cuda_lex.h"

/* ---- growable buffers of the PTX text and its map to the source ---- */

/* One byte of the PTX text of a statement: where it came from in the
 * source ([lo, hi)), and which operand's unknown value made it (-1:
 * none). */
typedef struct ptx_text {
    char *s;
    uint32_t *lo, *hi;
    int *unknown;
    size_t n, cap;
} ptx_text;

static void text_grow(ptx_context *ctx, ptx_text *t, size_t more)
{
    if (t->n + more <= t->cap)
        return;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->n + more)
        cap *= 2;
    char *s = realloc(t->s, cap + 1);
    if (s)
        t->s = s;
    uint32_t *lo = realloc(t->lo, cap * sizeof *lo);
    if (lo)
        t->lo = lo;
    uint32_t *hi = realloc(t->hi, cap * sizeof *hi);
    if (hi)
        t->hi = hi;
    int *u = realloc(t->unknown, cap * sizeof *u);
    if (u)
        t->unknown = u;
    if (!s || !lo || !hi || !u)
        longjmp(ctx->oom, 1);
    t->cap = cap;
}

static void text_put(ptx_context *ctx, ptx_text *t, const char *s, size_t len, uint32_t lo, uint32_t hi,
                     int unknown)
{
    text_grow(ctx, t, len);
    for (size_t i = 0; i < len; i++) {
        t->s[t->n] = s[i];
        t->lo[t->n] = lo;
        t->hi[t->n] = hi;
        t->unknown[t->n] = unknown;
        t->n++;
    }
}

static void text_free(ptx_text *t)
{
    free(t->s);
    free(t->lo);
    free(t->hi);
    free(t->unknown);
    memset(t, 0, sizeof *t);
}

/* ---- the lexer (cuda_lex.c, cuda_lex.h) ------------------------------ */

typedef struct reader reader;
static void on_directive(reader *r, size_t from, size_t end, bool main);

static token next_token(lexer *lx, reader *r)
{
    (void)r;                    /* the lexer holds it, for on_directive */
    return ptx_cuda_next_token(lx);
}

static void directive_to_reader(void *user, size_t from, size_t end, bool main)
{
    on_directive(user, from, end, main);
}

/* ---- one asm statement ------------------------------------------------ */

/* nvcc takes more than GCC's 30: tcgen05.ld.16x64b.x128 has 129 */
enum { MAX_OPERANDS = 1024 };

typedef struct operand {
    char letter;            /* r l h f d n; 0: a constraint not read */
    char bad;               /* the letter not read */
    bool known;             /* n: its value is a literal */
    int64_t value;
    size_t name_off, name_len;   /* [name], or len 0 */
} operand;

struct reader {
    ptx_context *ctx;
    lexer lx;
    const char *src;        /* the source (ctx->src) */
    size_t srclen;
    uint32_t *line_starts;  /* pp: the source's line starts */
    size_t nlines;
    char header[160];       /* .version, .target, .address_size, the kernel */
    size_t header_len;
    size_t prolog_len;      /* header's .version, .target, .address_size */
    /* statements waiting to be checked together (flush) */
    struct pending {
        ptx_text body;
        size_t decls;
        ptx_span at;
    } *batch;
    size_t nbatch, batchcap, batchbytes;
    ptx_text text;
    bool stop;
    operand ops[MAX_OPERANDS];
};

/* Where the bytes [off, off+len) of the text read come from in the source:
 * itself; in preprocessed text, the same bytes found on the token's line
 * of the source (else that line's first non-blank). */
static uint32_t source_off(const reader *r, const token *t, size_t off)
{
    if (!r->lx.pp)
        return (uint32_t)off;
    if (t->line == 0 || t->line > r->nlines)
        return 0;
    size_t ls = r->line_starts[t->line - 1];
    size_t le = t->line < r->nlines ? r->line_starts[t->line] : r->srclen;
    const char *tok = r->lx.s + t->off;
    for (size_t k = ls; k + t->len <= le; k++)
        if (memcmp(r->src + k, tok, t->len) == 0)
            return (uint32_t)(k + (off - t->off));
    size_t k = ls;
    while (k < le && (r->src[k] == ' ' || r->src[k] == '\t'))
        k++;
    return (uint32_t)k;
}

static ptx_span token_span(const reader *r, const token *t)
{
    uint32_t a = source_off(r, t, t->off);
    uint32_t len = r->lx.pp && (a + t->len > r->srclen || memcmp(r->src + a, r->lx.s + t->off, t->len) != 0)
                       ? 0 : (uint32_t)t->len;
    return (ptx_span){ a, len };
}

static void flush(reader *r);

static bool note(reader *r, ptx_span at, const char *fmt, const char *arg)
{
    flush(r);
    if (!ptx_diag_add(r->ctx, PTX_SEV_NOTE, PTX_DIAG_UNSUPPORTED, at, fmt, arg))
        r->stop = true;
    return !r->stop;
}

/* Reads one string literal's contents into the text, each byte mapped to
 * the source bytes that wrote it (an escape maps to all of its bytes).
 * False for a wide literal (L"", u"", U""), which is not read. */
static bool read_literal(reader *r, const token *t)
{
    const char *s = r->lx.s + t->off;
    size_t n = t->len, i = 0;
    while (i < n && s[i] != '"' && s[i] != 'R')
        i++;
    if (i > 0 && !(i == 2 && s[0] == 'u' && s[1] == '8'))
        return false;
    uint32_t base = source_off(r, t, t->off);
    bool exact = !r->lx.pp || (base + n <= r->srclen && memcmp(r->src + base, s, n) == 0);
#define AT(k) (exact ? base + (uint32_t)(k) : base)
    if (s[i] == 'R') {
        /* R"delim( ... )delim": no escapes */
        size_t d = i + 2, p = d;
        while (p < n && s[p] != '(')
            p++;
        size_t dlen = p - d;
        if (n < p + 1 + dlen + 2)
            return true;
        size_t end = n - dlen - 2;
        for (size_t k = p + 1; k < end; k++)
            text_put(r->ctx, &r->text, s + k, 1, AT(k), AT(k + 1), -1);
        return true;
    }
    size_t end = n > i + 1 && s[n - 1] == '"' ? n - 1 : n;
    for (size_t k = i + 1; k < end;) {
        if (s[k] != '\\' || k + 1 >= end) {
            text_put(r->ctx, &r->text, s + k, 1, AT(k), AT(k + 1), -1);
            k++;
            continue;
        }
        size_t e = k + 2;
        char c = s[k + 1], out;
        switch (c) {
        case 'n': out = '\n'; break;
        case 't': out = '\t'; break;
        case 'r': out = '\r'; break;
        case 'a': out = '\a'; break;
        case 'b': out = '\b'; break;
        case 'f': out = '\f'; break;
        case 'v': out = '\v'; break;
        case '\n':
            k += 2;
            continue;
        case '\r':
            k += k + 2 < end && s[k + 2] == '\n' ? 3 : 2;
            continue;
        case 'x': {
            unsigned v = 0;
            while (e < end && isxdigit((unsigned char)s[e])) {
                v = v * 16 + (unsigned)(isdigit((unsigned char)s[e]) ? s[e] - '0' : (tolower((unsigned char)s[e]) - 'a' + 10));
                e++;
            }
            out = (char)v;
            break;
        }
        default:
            if (c >= '0' && c <= '7') {
                unsigned v = 0;
                e = k + 1;
                while (e < end && e < k + 4 && s[e] >= '0' && s[e] <= '7')
                    v = v * 8 + (unsigned)(s[e++] - '0');
                out = (char)v;
            } else {
                out = c;   /* \" \' \\ \? */
            }
        }
        text_put(r->ctx, &r->text, &out, 1, AT(k), AT(e), -1);
        k = e;
    }
#undef AT
    return true;
}

/* Skips to the ')' that closes the '(' already read; false at the end. */
static bool skip_parens(reader *r, token *t)
{
    int depth = 1;
    for (;;) {
        *t = next_token(&r->lx, r);
        if (t->kind == T_EOF)
            return false;
        if (t->kind != T_PUNCT)
            continue;
        char c = r->lx.s[t->off];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
            return true;
    }
}

/* An integer literal (C's forms, with a sign) as "n" takes it. */
static bool literal_value(const char *s, size_t len, bool neg, int64_t *v)
{
    char buf[64];
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < sizeof buf; i++)
        if (s[i] != '\'')
            buf[k++] = s[i];
    buf[k] = '\0';
    while (k > 0 && strchr("uUlL", buf[k - 1]))
        buf[--k] = '\0';
    if (!k)
        return false;
    int base = 10;
    const char *p = buf;
    if (k > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) {
        base = 2;
        p += 2;
    } else if (buf[0] == '0' && k > 1 && buf[1] != 'x' && buf[1] != 'X') {
        base = 8;
    } else if (k > 2 && buf[0] == '0') {
        base = 16;
    }
    char *end;
    errno = 0;
    unsigned long long u = strtoull(p, &end, base);
    if (*end || errno)
        return false;
    *v = neg ? -(int64_t)u : (int64_t)u;
    return true;
}

/* Reads the operand list of one section (outputs or inputs) up to the
 * ':' or ')' that ends it, which is left in *t.  False when the statement
 * cannot be read (the end of the file). */
static bool read_operands(reader *r, token *t, operand *ops, unsigned *nops, bool *unreadable, char *bad)
{
    *t = next_token(&r->lx, r);
    for (;;) {
        if (t->kind == T_EOF)
            return false;
        if (t->kind == T_PUNCT && (r->lx.s[t->off] == ':' || r->lx.s[t->off] == ')'))
            return true;
        operand op = { 0 };
        if (t->kind == T_PUNCT && r->lx.s[t->off] == '[') {
            *t = next_token(&r->lx, r);
            if (t->kind == T_IDENT) {
                op.name_off = t->off;
                op.name_len = t->len;
                *t = next_token(&r->lx, r);
            }
            if (t->kind == T_PUNCT && r->lx.s[t->off] == ']')
                *t = next_token(&r->lx, r);
        }
        /* the constraint: one or more literals */
        char cons[16];
        size_t cl = 0;
        bool have = false;
        while (t->kind == T_STRING) {
            have = true;
            const char *s = r->lx.s + t->off;
            for (size_t k = 1; k + 1 < t->len && s[0] == '"'; k++)
                if (cl + 1 < sizeof cons)
                    cons[cl++] = s[k];
            *t = next_token(&r->lx, r);
        }
        cons[cl] = '\0';
        if (!have)
            *unreadable = true;
        for (size_t k = 0; k < cl; k++) {
            char c = cons[k];
            if (c == '=' || c == '+' || c == '&' || c == ' ')
                continue;
            if (strchr("rlhfdn", c)) {
                op.letter = c;
            } else if (isdigit((unsigned char)c) && (unsigned)(c - '0') < *nops) {
                op.letter = ops[c - '0'].letter;
                op.bad = ops[c - '0'].bad;
            } else {
                op.bad = c;
            }
            break;
        }
        if (!op.letter && !op.bad)
            op.bad = '?';
        if (op.bad && !*bad)
            *bad = op.bad;
        /* the expression: a literal (with a sign) gives "n" its value */
        if (t->kind == T_PUNCT && r->lx.s[t->off] == '(') {
            token first = { 0 }, second = { 0 };
            size_t count = 0;
            int depth = 1;
            for (;;) {
                token a = next_token(&r->lx, r);
                if (a.kind == T_EOF)
                    return false;
                if (++count == 1)
                    first = a;
                else if (count == 2)
                    second = a;
                if (a.kind != T_PUNCT)
                    continue;
                char c = r->lx.s[a.off];
                if (c == '(' || c == '[' || c == '{')
                    depth++;
                else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
                    break;
            }
            if (count == 2 && first.kind == T_NUMBER)
                op.known = literal_value(r->lx.s + first.off, first.len, false, &op.value);
            else if (count == 3 && first.kind == T_PUNCT && strchr("+-", r->lx.s[first.off]) &&
                     second.kind == T_NUMBER)
                op.known = literal_value(r->lx.s + second.off, second.len, r->lx.s[first.off] == '-', &op.value);
            *t = next_token(&r->lx, r);
        } else {
            *unreadable = true;
        }
        if (*nops < MAX_OPERANDS)
            ops[(*nops)++] = op;
        else
            *unreadable = true;
        if (t->kind == T_PUNCT && r->lx.s[t->off] == ',')
            *t = next_token(&r->lx, r);
        else if (!(t->kind == T_PUNCT && (r->lx.s[t->off] == ':' || r->lx.s[t->off] == ')'))) {
            *unreadable = true;
            /* resynchronise at the section's end */
            while (t->kind != T_EOF && !(t->kind == T_PUNCT && (r->lx.s[t->off] == ':' || r->lx.s[t->off] == ')')))
                *t = next_token(&r->lx, r);
        }
    }
}

static const char *reg_type(char letter)
{
    switch (letter) {
    case 'r': return ".b32";
    case 'l': return ".b64";
    case 'h': return ".b16";
    case 'f': return ".f32";
    default: return ".f64";
    }
}

static const char *reg_prefix(char letter)
{
    switch (letter) {
    case 'r': return "%r";
    case 'l': return "%rd";
    case 'h': return "%rs";
    case 'f': return "%f";
    default: return "%fd";
    }
}

/* The PTX text of the template (already in r->text, escapes read) with
 * its operands put in, as nvcc does, into *out; false after an error
 * (reported) of an operand number past the operands. */
static unsigned ptx_line_of(const ptx_text *t, size_t from, size_t b, char *buf, size_t cap);

static bool substitute(reader *r, const operand *ops, unsigned nops, ptx_text *out, bool *bad_ref, ptx_span stmt)
{
    const ptx_text *in = &r->text;
    for (size_t i = 0; i < in->n;) {
        char c = in->s[i];
        if (c != '%' || nops == 0 || i + 1 >= in->n) {
            text_put(r->ctx, out, &c, 1, in->lo[i], in->hi[i], -1);
            i++;
            continue;
        }
        char d = in->s[i + 1];
        if (d == '%') {
            text_put(r->ctx, out, "%", 1, in->lo[i], in->hi[i + 1], -1);
            i += 2;
        } else if (d == '=') {
            text_put(r->ctx, out, "0", 1, in->lo[i], in->hi[i + 1], -1);
            i += 2;
        } else if (isdigit((unsigned char)d) || d == '[') {
            size_t j = i + 1;
            unsigned long k = 0;
            bool found = true;
            if (d == '[') {
                size_t nb = j + 1;
                while (j < in->n && in->s[j] != ']')
                    j++;
                found = false;
                for (unsigned o = 0; o < nops && j < in->n; o++)
                    if (ops[o].name_len == j - nb && memcmp(r->lx.s + ops[o].name_off, in->s + nb, j - nb) == 0) {
                        k = o;
                        found = true;
                    }
                if (j < in->n)
                    j++;
            } else {
                while (j < in->n && isdigit((unsigned char)in->s[j])) {
                    if (k < 100000)
                        k = k * 10 + (unsigned long)(in->s[j] - '0');
                    j++;
                }
            }
            uint32_t lo = in->lo[i], hi = in->hi[j - 1];
            if (!found || k >= nops) {
                ptx_span at = { lo, hi - lo };
                flush(r);
                if (!ptx_diag_add(r->ctx, PTX_SEV_ERROR, PTX_DIAG_EXPR, at,
                                  "asm operand '%.*s' does not exist: the statement has %u operand%s",
                                  (int)(j - i > 40 ? 40 : j - i), in->s + i, nops, nops == 1 ? "" : "s"))
                    r->stop = true;
                char line[160];
                unsigned ln = ptx_line_of(in, 0, i, line, sizeof line);
                if (!r->stop && !ptx_diag_add(r->ctx, PTX_SEV_NOTE, PTX_DIAG_EXPR, stmt,
                                              "PTX line %u of this asm statement: %s", ln, line))
                    r->stop = true;
                *bad_ref = true;
                i = j;
                continue;
            }
            char name[32];
            if (ops[k].letter == 'n') {
                snprintf(name, sizeof name, "%" PRId64, ops[k].known ? ops[k].value : 1);
            } else {
                snprintf(name, sizeof name, "%s%lu", reg_prefix(ops[k].letter), k);
            }
            text_put(r->ctx, out, name, strlen(name), lo, hi, ops[k].letter == 'n' && !ops[k].known ? (int)k : -1);
            i = j;
        } else {
            text_put(r->ctx, out, "%", 1, in->lo[i], in->hi[i], -1);
            i++;
        }
    }
    return !*bad_ref;
}

/* The PTX line (1-based) of the statement's text at byte b, and the line's
 * text trimmed, into buf. */
static unsigned ptx_line_of(const ptx_text *t, size_t from, size_t b, char *buf, size_t cap)
{
    unsigned line = 1;
    size_t start = from;
    for (size_t k = from; k < b && k < t->n; k++)
        if (t->s[k] == '\n') {
            line++;
            start = k + 1;
        }
    size_t end = start;
    while (end < t->n && t->s[end] != '\n')
        end++;
    while (start < end && isspace((unsigned char)t->s[start]))
        start++;
    while (end > start && isspace((unsigned char)t->s[end - 1]))
        end--;
    size_t len = end - start;
    if (len + 1 > cap) {
        snprintf(buf, cap, "%.*s...", (int)(cap - 4), t->s + start);
    } else {
        memcpy(buf, t->s + start, len);
        buf[len] = '\0';
    }
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            *p = ' ';
    return line;
}

/* Checks one statement's PTX text; its diagnostics go to the context at
 * the source positions of their bytes. */
static void check_text(reader *r, const ptx_text *body, size_t decls, ptx_span at)
{
    ptx_context *ctx = r->ctx;
    ptx_context *sub = ptx_context_new();
    if (!sub)
        longjmp(ctx->oom, 1);
    ptx_context_set_max_errors(sub, 0);
    ptx_context_set_keep_tree(sub, false);
    size_t len = r->header_len + body->n + 3;
    char *mod = malloc(len + 1);
    if (!mod) {
        ptx_context_free(sub);
        longjmp(ctx->oom, 1);
    }
    memcpy(mod, r->header, r->header_len);
    if (body->n)
        memcpy(mod + r->header_len, body->s, body->n);
    memcpy(mod + r->header_len + body->n, "\n}\n", 3);
    mod[len] = '\0';
    ptx_status st = ptx_parse_buffer(sub, ctx->filename, mod, len, NULL);
    free(mod);
    if (st == PTX_ERR_NOMEM) {
        ptx_context_free(sub);
        longjmp(ctx->oom, 1);
    }
    bool rejected = false;
    for (size_t k = 0; k < ptx_diag_count(sub) && !r->stop; k++) {
        const ptx_diag *d = ptx_diag_get(sub, k);
        ptx_span span = at;
        size_t b = SIZE_MAX;
        int unknown = -1;
        if (d->span.off != PTX_NO_OFFSET && d->span.off >= r->header_len && d->span.off - r->header_len < body->n) {
            b = d->span.off - r->header_len;
            size_t e = b + (d->span.len ? d->span.len - 1 : 0);
            if (e >= body->n)
                e = body->n - 1;
            for (size_t q = b; q <= e; q++)
                if (body->unknown[q] >= 0)
                    unknown = body->unknown[q];
            uint32_t lo = body->lo[b], hi = body->hi[e];
            span = (ptx_span){ lo, hi > lo && d->span.len ? hi - lo : 0 };
        } else if (d->span.off != PTX_NO_OFFSET && body->n && d->span.off >= r->header_len + body->n) {
            /* past the text (an unclosed brace): at its last byte */
            b = body->n - 1;
            span = (ptx_span){ body->lo[b], body->hi[b] - body->lo[b] };
        }
        ptx_severity sev = d->severity;
        bool ok;
        if (unknown >= 0 && sev == PTX_SEV_ERROR) {
            /* the error may be the stand-in value's, not the code's */
            ok = ptx_diag_add(ctx, PTX_SEV_NOTE, d->code, span,
                              "not checked: operand %%%d's value is not a literal here, and with 1 for it: %s",
                              unknown, d->message);
            sev = PTX_SEV_NOTE;
        } else {
            if (d->fixit)
                ok = ptx_diag_add_fix(ctx, sev, d->code, span, d->fixit, "%s", d->message);
            else
                ok = ptx_diag_add(ctx, sev, d->code, span, "%s", d->message);
        }
        if (sev == PTX_SEV_ERROR)
            rejected = true;
        if (ok && sev != PTX_SEV_NOTE && b != SIZE_MAX) {
            char line[160];
            unsigned ln = b >= decls ? ptx_line_of(body, decls, b, line, sizeof line) : 0;
            ok = ptx_diag_add(ctx, PTX_SEV_NOTE, d->code, at, "PTX line %u of this asm statement: %s", ln, line);
        }
        if (!ok)
            r->stop = true;
    }
    ptx_context_free(sub);
    if (rejected)
        ctx->cuda.rejected++;
}

/* An asm statement whose keyword is t: read and check it. */
static void asm_statement(reader *r, token kw, bool after_declarator)
{
    ptx_context *ctx = r->ctx;
    bool main = kw.main;
    ptx_span at = token_span(r, &kw);
    token t = next_token(&r->lx, r);
    while (t.kind == T_IDENT && (ptx_cuda_word_is(&r->lx, t.off, t.len, "volatile") ||
                                 ptx_cuda_word_is(&r->lx, t.off, t.len, "__volatile__") ||
                                 ptx_cuda_word_is(&r->lx, t.off, t.len, "__volatile") ||
                                 ptx_cuda_word_is(&r->lx, t.off, t.len, "inline") || ptx_cuda_word_is(&r->lx, t.off, t.len, "goto")))
        t = next_token(&r->lx, r);
    if (!(t.kind == T_PUNCT && r->lx.s[t.off] == '('))
        return;   /* not a statement: a name */
    if (main)
        ctx->cuda.statements++;
    r->text.n = 0;
    bool literal = true, any = false;
    t = next_token(&r->lx, r);
    while (t.kind == T_STRING) {
        any = true;
        if (main && !read_literal(r, &t))
            literal = false;
        t = next_token(&r->lx, r);
    }
    bool closed = t.kind == T_PUNCT && (r->lx.s[t.off] == ')' || r->lx.s[t.off] == ':');
    /* int f(void) __asm__("g");: the name of a declaration, not a statement */
    if (after_declarator && any && t.kind == T_PUNCT && r->lx.s[t.off] == ')') {
        bool name = literal && r->text.n > 0;
        for (size_t k = 0; k < r->text.n && name; k++)
            name = ptx_cuda_ident_char((unsigned char)r->text.s[k]) || r->text.s[k] == '.';
        if (name || !main) {
            if (main)
                ctx->cuda.statements--;
            return;
        }
    }
    if (!any || !closed) {
        /* past the statement: t is inside its parentheses */
        char c = t.kind == T_PUNCT ? r->lx.s[t.off] : 0;
        if (c != ')') {
            bool opens = c == '(' || c == '[' || c == '{';
            if (opens && !skip_parens(r, &t))
                return;
            if (!skip_parens(r, &t))
                return;
        }
        if (main) {
            ctx->cuda.skipped++;
            note(r, at, "asm statement not checked: its template is not a string literal%s",
                 r->lx.pp ? "" : " (a macro? --cpp expands them)");
        }
        return;
    }
    operand *ops = r->ops;
    unsigned nops = 0;
    bool unreadable = !literal, extended = false;
    char bad = 0;
    /* outputs, inputs, clobbers, labels */
    for (int section = 0; t.kind == T_PUNCT && r->lx.s[t.off] == ':'; section++) {
        extended = true;
        if (section < 2) {
            if (!read_operands(r, &t, ops, &nops, &unreadable, &bad))
                return;
        } else {
            do
                t = next_token(&r->lx, r);
            while (t.kind != T_EOF && !(t.kind == T_PUNCT && (r->lx.s[t.off] == ':' || r->lx.s[t.off] == ')')));
        }
    }
    (void)extended;
    if (t.kind == T_EOF || !main)
        return;
    if (unreadable || bad) {
        ctx->cuda.skipped++;
        char why[64];
        if (!literal)
            snprintf(why, sizeof why, "a wide string literal");
        else if (bad == '?')
            snprintf(why, sizeof why, "an operand whose constraint is not a string literal");
        else if (bad)
            snprintf(why, sizeof why, "an operand of constraint '%c', which ptx-front does not read", bad);
        else
            snprintf(why, sizeof why, "an operand it cannot read");
        note(r, at, "asm statement not checked: it has %s", why);
        return;
    }
    ctx->cuda.checked++;
    ptx_text body = { 0 };
    bool bad_ref = false;
    /* the operands' registers, declared before the template's text */
    char decl[64];
    for (unsigned k = 0; k < nops; k++) {
        if (ops[k].letter == 'n')
            continue;
        int n = snprintf(decl, sizeof decl, ".reg %s %s%u;\n", reg_type(ops[k].letter), reg_prefix(ops[k].letter), k);
        text_put(ctx, &body, decl, (size_t)n, at.off, at.off + at.len, -1);
    }
    size_t decls = body.n;
    if (!substitute(r, ops, nops, &body, &bad_ref, at)) {
        ctx->cuda.rejected++;
        text_free(&body);
        return;
    }
    if (r->nbatch == r->batchcap) {
        size_t cap = r->batchcap ? r->batchcap * 2 : 64;
        struct pending *b = realloc(r->batch, cap * sizeof *b);
        if (!b) {
            text_free(&body);
            longjmp(ctx->oom, 1);
        }
        r->batch = b;
        r->batchcap = cap;
    }
    r->batch[r->nbatch++] = (struct pending){ body, decls, at };
    r->batchbytes += body.n;
    if (r->nbatch >= 512 || r->batchbytes >= (1u << 20))
        flush(r);
}

/* Whether the statements [lo, hi) of the batch, each the body of a kernel
 * of one module, parse and check with no diagnostic at all. */
static bool batch_clean(reader *r, size_t lo, size_t hi)
{
    ptx_context *ctx = r->ctx;
    size_t len = r->prolog_len + (hi - lo) * 64;
    for (size_t k = lo; k < hi; k++)
        len += r->batch[k].body.n;
    char *mod = malloc(len + 1);
    ptx_context *sub = mod ? ptx_context_new() : NULL;
    if (!sub) {
        free(mod);
        longjmp(ctx->oom, 1);
    }
    memcpy(mod, r->header, r->prolog_len);
    size_t n = r->prolog_len;
    for (size_t k = lo; k < hi; k++) {
        n += (size_t)snprintf(mod + n, len + 1 - n, ".visible .entry __asm%zu()\n{\n", k);
        memcpy(mod + n, r->batch[k].body.s, r->batch[k].body.n);
        n += r->batch[k].body.n;
        memcpy(mod + n, "\n}\n", 3);
        n += 3;
    }
    ptx_context_set_max_errors(sub, 1);
    ptx_context_set_keep_tree(sub, false);
    ptx_status st = ptx_parse_buffer(sub, NULL, mod, n, NULL);
    free(mod);
    bool clean = st == PTX_OK && ptx_diag_count(sub) == 0;
    ptx_context_free(sub);
    if (st == PTX_ERR_NOMEM)
        longjmp(ctx->oom, 1);
    return clean;
}

/* Checks [lo, hi): together when that is clean, else in halves, down to
 * one statement alone, which gives its diagnostics. */
static void check_range(reader *r, size_t lo, size_t hi)
{
    if (r->stop)
        return;
    if (hi - lo == 1) {
        check_text(r, &r->batch[lo].body, r->batch[lo].decls, r->batch[lo].at);
        return;
    }
    if (batch_clean(r, lo, hi))
        return;
    size_t mid = lo + (hi - lo) / 2;
    check_range(r, lo, mid);
    check_range(r, mid, hi);
}

/* Checks the statements waiting, in modules of a kernel each: when a
 * module has no diagnostic, each statement alone would have none; each
 * with an error is found by halving and checked alone, so that what one
 * does (an unclosed brace) cannot touch another.  (A context costs more
 * than the checking of most statements.) */
static void flush(reader *r)
{
    if (r->nbatch == 0)
        return;
    size_t nbatch = r->nbatch;
    r->nbatch = 0;
    r->batchbytes = 0;
    check_range(r, 0, nbatch);
    for (size_t k = 0; k < nbatch; k++)
        text_free(&r->batch[k].body);
}

/* A directive: an asm in a macro's definition is counted and noted. */
static void on_directive(reader *r, size_t from, size_t end, bool main)
{
    if (!main || r->stop)
        return;
    size_t w;
    size_t wl = ptx_cuda_directive_word(&r->lx, from, end, &w);
    if (!ptx_cuda_word_is(&r->lx, w, wl, "define"))
        return;
    for (size_t i = w + wl; i < end; i++) {
        if (!ptx_cuda_ident_start((unsigned char)r->lx.s[i]) || ptx_cuda_ident_char((unsigned char)r->lx.s[i - 1]))
            continue;
        size_t j = i;
        while (j < end && ptx_cuda_ident_char((unsigned char)r->lx.s[j]))
            j++;
        if (ptx_cuda_word_is(&r->lx, i, j - i, "asm") || ptx_cuda_word_is(&r->lx, i, j - i, "__asm__") ||
            ptx_cuda_word_is(&r->lx, i, j - i, "__asm")) {
            r->ctx->cuda.statements++;
            r->ctx->cuda.skipped++;
            token t = { T_IDENT, i, j - i, true, r->lx.line };
            note(r, token_span(r, &t), "asm statement not checked: it is in a macro's definition%s",
                 r->lx.pp ? "" : " (--cpp checks it where the macro is used)");
        }
        i = j;
    }
}

/* The context's source is set; read it (or the preprocessed text). */
static ptx_status read_source(ptx_context *ctx, const ptx_cuda_options *opt)
{
    const char *target = opt && opt->target ? opt->target : PTX_CUDA_DEFAULT_TARGET;
    const char *version = opt && opt->ptx_version ? opt->ptx_version : PTX_CUDA_NEWEST_PTX;
    reader *r = calloc(1, sizeof *r);
    if (!r)
        longjmp(ctx->oom, 1);
    r->ctx = ctx;
    r->src = ctx->src;
    r->srclen = ctx->srclen;
    /* the target and version, asked of the parser before anything */
    bool ok = strlen(target) < 32 && strlen(version) < 16 && !strpbrk(target, " \t\n;/") &&
              !strpbrk(version, " \t\n;/");
    if (ok) {
        r->prolog_len = (size_t)snprintf(r->header, sizeof r->header, ".version %s\n.target %s\n.address_size 64\n",
                                         version, target);
        r->header_len = r->prolog_len + (size_t)snprintf(r->header + r->prolog_len, sizeof r->header - r->prolog_len,
                                                         ".visible .entry __asm()\n{\n");
        ptx_context *probe = ptx_context_new();
        if (!probe) {
            free(r);
            longjmp(ctx->oom, 1);
        }
        char mod[200];
        int n = snprintf(mod, sizeof mod, "%.*s}\n", (int)r->header_len, r->header);
        ptx_status st = ptx_parse_buffer(probe, "", mod, (size_t)n, NULL);
        if (st != PTX_OK) {
            const ptx_diag *d = NULL;
            for (size_t k = 0; k < ptx_diag_count(probe) && !d; k++)
                if (ptx_diag_get(probe, k)->severity == PTX_SEV_ERROR)
                    d = ptx_diag_get(probe, k);
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_HEADER, (ptx_span){ PTX_NO_OFFSET, 0 },
                         "target %s with PTX ISA %s: %s", target, version, d ? d->message : "not readable");
            ok = false;
        }
        ptx_context_free(probe);
    } else {
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_HEADER, (ptx_span){ PTX_NO_OFFSET, 0 },
                     "'%.40s' and '%.20s' are not a target and a PTX ISA version", target, version);
    }
    if (!ok) {
        free(r);
        return PTX_ERR_USAGE;
    }
    if (opt && opt->preprocessed) {
        r->lx = (lexer){ opt->preprocessed, opt->preprocessed_len, 0, true, true, NULL, 0, true, 1,
                         directive_to_reader, r };
        size_t cap = 1024;
        r->line_starts = malloc(cap * sizeof *r->line_starts);
        if (!r->line_starts) {
            free(r);
            longjmp(ctx->oom, 1);
        }
        r->line_starts[r->nlines++] = 0;
        for (size_t k = 0; k < ctx->srclen; k++)
            if (ctx->src[k] == '\n') {
                if (r->nlines == cap) {
                    uint32_t *g = realloc(r->line_starts, cap * 2 * sizeof *g);
                    if (!g) {
                        free(r->line_starts);
                        free(r);
                        longjmp(ctx->oom, 1);
                    }
                    r->line_starts = g;
                    cap *= 2;
                }
                r->line_starts[r->nlines++] = (uint32_t)(k + 1);
            }
    } else {
        r->lx = (lexer){ ctx->src, ctx->srclen, 0, true, false, NULL, 0, true, 1,
                         directive_to_reader, r };
    }
    bool after_declarator = false;
    for (;;) {
        token t = next_token(&r->lx, r);
        if (t.kind == T_EOF || r->stop)
            break;
        if (t.kind == T_IDENT && (ptx_cuda_word_is(&r->lx, t.off, t.len, "asm") || ptx_cuda_word_is(&r->lx, t.off, t.len, "__asm__") ||
                                  ptx_cuda_word_is(&r->lx, t.off, t.len, "__asm"))) {
            asm_statement(r, t, after_declarator);
            after_declarator = false;
            continue;
        }
        /* what an asm label follows: a declarator's ')' or ']', or a name */
        after_declarator = (t.kind == T_PUNCT && (r->lx.s[t.off] == ')' || r->lx.s[t.off] == ']')) ||
                           (t.kind == T_IDENT && !ptx_cuda_word_is(&r->lx, t.off, t.len, "else") &&
                            !ptx_cuda_word_is(&r->lx, t.off, t.len, "do"));
    }
    flush(r);
    text_free(&r->text);
    for (size_t k = 0; k < r->nbatch; k++)
        text_free(&r->batch[k].body);
    free(r->batch);
    free(r->line_starts);
    free(r);
    return ctx->nerrors ? PTX_ERR_INPUT : PTX_OK;
}

ptx_status ptx_parse_cuda(ptx_context *ctx, const char *name, const char *data, size_t len,
                          const ptx_cuda_options *opt)
{
    if (!ctx || (!data && len) || ctx->parsed || (opt && opt->preprocessed_len && !opt->preprocessed))
        return PTX_ERR_USAGE;
    ctx->parsed = true;
    if (setjmp(ctx->oom))
        return PTX_ERR_NOMEM;
    if (name)
        ctx->filename = ptx_arena_strndup(&ctx->arena, name, strlen(name));
    if (len > PTX_INPUT_MAX || (opt && opt->preprocessed_len > PTX_INPUT_MAX)) {
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_LIMIT, (ptx_span){ 0, 0 },
                     "the input is larger than %u bytes: not read", PTX_INPUT_MAX);
        return PTX_ERR_INPUT;
    }
    ctx->src = ptx_big_alloc(len + 2, &ctx->src_mapped);
    if (!ctx->src)
        return PTX_ERR_NOMEM;
    if (len)
        memcpy(ctx->src, data, len);
    ctx->src[len] = ctx->src[len + 1] = '\0';
    ctx->srclen = len;
    return read_source(ctx, opt);
}

ptx_status ptx_parse_cuda_file(ptx_context *ctx, const char *path, const ptx_cuda_options *opt)
{
    if (!ctx || !path || ctx->parsed)
        return PTX_ERR_USAGE;
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    const char *why = NULL;
    struct stat sb;
    if (!f)
        why = strerror(errno);
    else if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode))
        why = strerror(EISDIR);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    while (!why) {
        if (cap - len < 4096) {
            cap = cap ? cap * 2 : 65536;
            char *b = cap > (size_t)PTX_INPUT_MAX + 65536 ? NULL : realloc(buf, cap);
            if (!b) {
                free(buf);
                if (f && !is_stdin)
                    fclose(f);
                if (cap > (size_t)PTX_INPUT_MAX + 65536) {
                    ptx_status st = ptx_parse_cuda(ctx, is_stdin ? "<stdin>" : path, "", 0, opt);
                    ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_LIMIT, (ptx_span){ 0, 0 },
                                 "the input is larger than %u bytes: not read", PTX_INPUT_MAX);
                    return st == PTX_ERR_USAGE ? st : PTX_ERR_INPUT;
                }
                return PTX_ERR_NOMEM;
            }
            buf = b;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            if (ferror(f))
                why = strerror(errno);
            break;
        }
    }
    if (f && !is_stdin)
        fclose(f);
    if (why) {
        free(buf);
        ctx->parsed = true;
        ctx->filename = is_stdin ? "<stdin>" : ptx_arena_strndup(&ctx->arena, path, strlen(path));
        ctx->io_error = ptx_arena_strndup(&ctx->arena, why, strlen(why));
        return PTX_ERR_IO;
    }
    ptx_status st = ptx_parse_cuda(ctx, is_stdin ? "<stdin>" : path, buf ? buf : "", len, opt);
    free(buf);
    return st;
}

ptx_cuda_counts ptx_context_cuda_counts(const ptx_context *ctx)
{
    ptx_cuda_counts none = { 0, 0, 0, 0 };
    return ctx ? ctx->cuda : none;
}

bool ptx_is_cuda_filename(const char *path)
{
    if (!path)
        return false;
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return false;
    return strcmp(dot, ".cu") == 0 || strcmp(dot, ".cuh") == 0;
}
