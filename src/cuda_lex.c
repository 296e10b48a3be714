/* The C/C++ lexer of inline asm checking (cuda_lex.h): enough of C++ to
 * find asm statements and their literals, no more. */
#include <ctype.h>
#include <string.h>

#include "cuda_lex.h"

bool ptx_cuda_ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '$';
}

bool ptx_cuda_ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

/* A backslash-newline (or backslash-CRLF) at i: its length, else 0. */
static size_t splice_at(const lexer *lx, size_t i)
{
    if (i < lx->n && lx->s[i] == '\\') {
        if (i + 1 < lx->n && lx->s[i + 1] == '\n')
            return 2;
        if (i + 2 < lx->n && lx->s[i + 1] == '\r' && lx->s[i + 2] == '\n')
            return 3;
    }
    return 0;
}

static void newline(lexer *lx)
{
    lx->bol = true;
    if (lx->pp)
        lx->line++;
}

/* The end of the preprocessor directive that starts at i (past its
 * spliced lines), not past its newline. */
static size_t directive_end(const lexer *lx, size_t i)
{
    while (i < lx->n && lx->s[i] != '\n') {
        size_t sp = splice_at(lx, i);
        if (sp) {
            i += sp;
            continue;
        }
        if (lx->s[i] == '/' && i + 1 < lx->n && lx->s[i + 1] == '*') {
            i += 2;
            while (i + 1 < lx->n && !(lx->s[i] == '*' && lx->s[i + 1] == '/'))
                i++;
            i = i + 2 <= lx->n ? i + 2 : lx->n;
            continue;
        }
        i++;
    }
    return i;
}

/* The directive's first word (after '#' and blanks) at *w, its length. */
size_t ptx_cuda_directive_word(const lexer *lx, size_t from, size_t end, size_t *w)
{
    size_t i = from + 1;
    while (i < end && (lx->s[i] == ' ' || lx->s[i] == '\t'))
        i++;
    *w = i;
    size_t j = i;
    while (j < end && ptx_cuda_ident_char((unsigned char)lx->s[j]))
        j++;
    return j - i;
}

bool ptx_cuda_word_is(const lexer *lx, size_t w, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(lx->s + w, word, len) == 0;
}

/* A line marker of cpp's output ("# 12 "file.cu" 2", "#line 12 "f""):
 * where the next line comes from. */
static void line_marker(lexer *lx, size_t from, size_t end)
{
    size_t i = from + 1;
    while (i < end && (lx->s[i] == ' ' || lx->s[i] == '\t'))
        i++;
    if (end - i >= 4 && memcmp(lx->s + i, "line", 4) == 0)
        i += 4;
    while (i < end && (lx->s[i] == ' ' || lx->s[i] == '\t'))
        i++;
    if (i >= end || !isdigit((unsigned char)lx->s[i]))
        return;
    uint32_t line = 0;
    while (i < end && isdigit((unsigned char)lx->s[i])) {
        if (line < 100000000u)
            line = line * 10 + (uint32_t)(lx->s[i] - '0');
        i++;
    }
    while (i < end && (lx->s[i] == ' ' || lx->s[i] == '\t'))
        i++;
    if (i < end && lx->s[i] == '"') {
        size_t f = ++i;
        while (i < end && lx->s[i] != '"')
            i += lx->s[i] == '\\' && i + 1 < end ? 2 : 1;
        size_t flen = i - f;
        if (!lx->main_name) {
            lx->main_name = lx->s + f;
            lx->main_len = flen;
        }
        lx->in_main = flen == lx->main_len && memcmp(lx->s + f, lx->main_name, flen) == 0;
    }
    /* the newline that ends the marker adds one */
    lx->line = line ? line - 1 : 0;
}

static void skip_block_comment(lexer *lx)
{
    lx->i += 2;
    while (lx->i < lx->n && !(lx->s[lx->i] == '*' && lx->i + 1 < lx->n && lx->s[lx->i + 1] == '/')) {
        if (lx->s[lx->i] == '\n' && lx->pp)
            lx->line++;
        lx->i++;
    }
    lx->i = lx->i + 2 <= lx->n ? lx->i + 2 : lx->n;
}

/* Past a quoted literal whose opening quote is at i (a raw string's
 * prefix already passed); returns its end. */
static size_t quoted_end(const lexer *lx, size_t i, char q)
{
    i++;
    while (i < lx->n && lx->s[i] != q && lx->s[i] != '\n') {
        if (lx->s[i] == '\\' && i + 1 < lx->n)
            i += lx->s[i + 1] == '\r' && i + 2 < lx->n ? 3 : 2;
        else
            i++;
    }
    return i < lx->n && lx->s[i] == q ? i + 1 : i;
}

/* A raw string R"delim( ... )delim" whose R is at i (after any prefix):
 * its end, or 0 when it is not one. */
static size_t raw_end(const lexer *lx, size_t i)
{
    if (i + 1 >= lx->n || lx->s[i] != 'R' || lx->s[i + 1] != '"')
        return 0;
    size_t d = i + 2, p = d;
    while (p < lx->n && p - d <= 16 && lx->s[p] != '(' && lx->s[p] != ')' && lx->s[p] != '\\' &&
           !isspace((unsigned char)lx->s[p]) && lx->s[p] != '"')
        p++;
    if (p >= lx->n || lx->s[p] != '(')
        return 0;
    size_t dlen = p - d;
    for (size_t k = p + 1; k < lx->n; k++)
        if (lx->s[k] == ')' && k + 1 + dlen < lx->n && memcmp(lx->s + k + 1, lx->s + d, dlen) == 0 &&
            lx->s[k + 1 + dlen] == '"')
            return k + 2 + dlen;
    return lx->n;
}

/* Callbacks for what the lexer passes over: a directive (from '#' to its
 * end), handed to the reader. */

token ptx_cuda_next_token(lexer *lx)
{
    int skip_depth = 0;   /* inside #if 0: the #if nesting */
    for (;;) {
        if (lx->i >= lx->n)
            return (token){ T_EOF, lx->n, 0, lx->in_main, lx->line };
        char c = lx->s[lx->i];
        size_t sp = splice_at(lx, lx->i);
        if (sp) {
            lx->i += sp;
            if (lx->pp)
                lx->line++;
            continue;
        }
        if (c == '\n') {
            lx->i++;
            newline(lx);
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->i++;
            continue;
        }
        if (c == '#' && lx->bol) {
            size_t end = directive_end(lx, lx->i), w;
            size_t wl = ptx_cuda_directive_word(lx, lx->i, end, &w);
            size_t from = lx->i;
            /* the lines a directive spans */
            if (lx->pp)
                for (size_t k = from; k < end; k++)
                    lx->line += lx->s[k] == '\n';
            lx->i = end;
            if (lx->pp && (wl == 0 || isdigit((unsigned char)lx->s[w]) || ptx_cuda_word_is(lx, w, wl, "line"))) {
                line_marker(lx, from, end);
                continue;
            }
            if (ptx_cuda_word_is(lx, w, wl, "if") || ptx_cuda_word_is(lx, w, wl, "ifdef") || ptx_cuda_word_is(lx, w, wl, "ifndef")) {
                if (skip_depth) {
                    skip_depth++;
                } else if (ptx_cuda_word_is(lx, w, wl, "if")) {
                    /* "#if 0": the region is left out, as cpp would */
                    size_t k = w + wl;
                    while (k < end && (lx->s[k] == ' ' || lx->s[k] == '\t'))
                        k++;
                    size_t e = end;
                    while (e > k && isspace((unsigned char)lx->s[e - 1]))
                        e--;
                    if (e == k + 1 && lx->s[k] == '0')
                        skip_depth = 1;
                }
            } else if (skip_depth && (ptx_cuda_word_is(lx, w, wl, "else") || ptx_cuda_word_is(lx, w, wl, "elif"))) {
                if (skip_depth == 1)
                    skip_depth = 0;
            } else if (skip_depth && ptx_cuda_word_is(lx, w, wl, "endif")) {
                skip_depth--;
            } else if (!skip_depth) {
                lx->on_directive(lx->user, from, end, !lx->pp || lx->in_main);
            }
            continue;
        }
        lx->bol = false;
        if (c == '/' && lx->i + 1 < lx->n && lx->s[lx->i + 1] == '/') {
            while (lx->i < lx->n && lx->s[lx->i] != '\n') {
                size_t s2 = splice_at(lx, lx->i);
                lx->i += s2 ? s2 : 1;
                if (s2 && lx->pp)
                    lx->line++;
            }
            continue;
        }
        if (c == '/' && lx->i + 1 < lx->n && lx->s[lx->i + 1] == '*') {
            skip_block_comment(lx);
            continue;
        }
        token t = { T_PUNCT, lx->i, 1, !lx->pp || lx->in_main, lx->line };
        if (ptx_cuda_ident_start((unsigned char)c)) {
            size_t j = lx->i;
            while (j < lx->n && ptx_cuda_ident_char((unsigned char)lx->s[j]))
                j++;
            /* a string or character literal with a prefix: u8"", L'', R"()" */
            size_t plen = j - lx->i;
            const char *p = lx->s + lx->i;
            if (j < lx->n && (lx->s[j] == '"' || lx->s[j] == '\'') && plen <= 3 &&
                ((plen == 1 && strchr("LuUR", p[0])) || (plen == 2 && (memcmp(p, "u8", 2) == 0 ||
                 (strchr("LuU", p[0]) && p[1] == 'R'))) || (plen == 3 && memcmp(p, "u8R", 3) == 0))) {
                size_t e = p[plen - 1] == 'R' && lx->s[j] == '"' ? raw_end(lx, j - 1) : 0;
                if (!e)
                    e = quoted_end(lx, j, lx->s[j]);
                t.kind = lx->s[j] == '"' ? T_STRING : T_CHAR;
                t.len = e - lx->i;
            } else {
                t.kind = T_IDENT;
                t.len = plen;
            }
        } else if (isdigit((unsigned char)c) || (c == '.' && lx->i + 1 < lx->n && isdigit((unsigned char)lx->s[lx->i + 1]))) {
            size_t j = lx->i;
            while (j < lx->n && (ptx_cuda_ident_char((unsigned char)lx->s[j]) || lx->s[j] == '.' || lx->s[j] == '\'' ||
                                 ((lx->s[j] == '+' || lx->s[j] == '-') && strchr("eEpP", lx->s[j - 1]))))
                j++;
            t.kind = T_NUMBER;
            t.len = j - lx->i;
        } else if (c == '"' || c == '\'') {
            t.kind = c == '"' ? T_STRING : T_CHAR;
            t.len = quoted_end(lx, lx->i, c) - lx->i;
        }
        lx->i += t.len;
        if (skip_depth)
            continue;
        return t;
    }
}
