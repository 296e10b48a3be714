/* The small C/C++ lexer that finds CUDA C++'s asm statements
 * (cuda_lex.c): tokens, with comments, #if 0 regions and directives
 * passed (each directive handed to the lexer's on_directive), and the
 * line markers of preprocessed text followed. */
#ifndef PTX_CUDA_LEX_H
#define PTX_CUDA_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tok_kind { T_EOF, T_IDENT, T_STRING, T_NUMBER, T_CHAR, T_PUNCT } tok_kind;

typedef struct token {
    tok_kind kind;
    size_t off, len;    /* in the text being read */
    bool main;          /* preprocessed: from the main file */
    uint32_t line;      /* preprocessed: its line in the main file */
} token;

typedef struct lexer {
    const char *s;
    size_t n, i;
    bool bol;           /* only blanks since the line's start */
    bool pp;            /* preprocessed text with line markers */
    const char *main_name;   /* pp: the first marker's file name (in s) */
    size_t main_len;
    bool in_main;
    uint32_t line;      /* pp: the line of the main file being read */
    /* called with each directive's text [from, end) that is not #if 0's
     * (main: the main file's) */
    void (*on_directive)(void *user, size_t from, size_t end, bool main);
    void *user;
} lexer;

/* What the reader shares of the lexer's character classes and
 * directive words (w: where the word starts, its length returned) */
bool ptx_cuda_word_is(const lexer *lx, size_t w, size_t len, const char *word);
bool ptx_cuda_ident_char(int c);
bool ptx_cuda_ident_start(int c);
size_t ptx_cuda_directive_word(const lexer *lx, size_t from, size_t end, size_t *w);

/* The next token; directives, comments and #if 0 regions are passed. */
token ptx_cuda_next_token(lexer *lx);

#endif
