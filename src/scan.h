/* The scanner's state (grammar/ptx.l), with the fast lane's, which is
 * the scanner's own: where a statement starts, what the last tokens left
 * open, Flex's buffers.  The parser owns one and passes it to the scanner
 * (ptx_yylex) and to its actions; the grammar writes only at_statement
 * and in_body (STATEMENT_NEXT), and the syntax-error reporter reads
 * `open` (doc/design.md, "Where the fast lane meets the grammar"). */
#ifndef PTX_SCAN_H
#define PTX_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

/* The parser's state, passed to the scanner (ptx_yylex) and to the
 * grammar's actions.  Where a statement starts the grammar's reductions
 * tell (STATEMENT_NEXT in grammar/ptx.y), but after a label ("name :"
 * at the start of a statement), which the scanner sees itself. */
typedef struct ptx_parser_state {
    ptx_context *ctx;
    void *scanner;
    bool at_statement;          /* the next token starts a statement: the
                                   grammar says so, or the scanner after a label */
    bool in_body;               /* that statement is a body's, not a debug
                                   section's (the grammar says which) */
    bool after_name;            /* the last token is a name that started one */
    bool alone;                 /* the scanner runs without the parser
                                   (ptx_run_scanner): it judges where a
                                   statement starts from its own tokens */
    size_t tokens;              /* tokens returned */
    /* What the grammar's rules could still read after the last token and
     * the one before it, when they are statements the fast lane took
     * whole: through the rules the parser would not have ended them yet,
     * and its expected tokens in a syntax error's message include those. */
    unsigned char open, open_before;
    /* the scanner's position (grammar/ptx.l) */
    const char *end;            /* the end of the last token; NULL before the first */
    bool held;                  /* Flex holds the byte at `end` (a NUL stands there) */
    bool flex_behind;           /* Flex has not yet been moved past the fast lane's tokens */
    struct yy_buffer_state *buf, *spare_buf;  /* Flex's buffer over the source; another */
    void *spare;                /* a block Flex freed, for its next allocation of that size */
    char empty[2];              /* spare_buf's text: Flex's two NULs */
} ptx_parser_state;

#endif
