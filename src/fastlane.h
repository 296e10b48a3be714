/* The scanner's fast lane (fastlane.c): what grammar/ptx.l needs to take
 * the common statement shapes whole, and the builders the grammar's
 * actions call for the tokens it makes of them. */
#ifndef PTX_FASTLANE_H
#define PTX_FASTLANE_H

#include "ast_build.h"
#include "scan.h"

/* What may continue a statement the fast lane took whole, when it ends a
 * token: a label (".callprototype" and the like), a .loc line (an
 * attribute after ','). */
enum { PTX_OPEN_NONE, PTX_OPEN_LABEL, PTX_OPEN_LOC };

/* What the fast lane takes whole: one token each. */
typedef enum ptx_fast_kind {
    PTX_FAST_NONE,
    PTX_FAST_INSTR,             /* an instruction of the common shape at the
                                   start of a statement (SIMPLE) */
    PTX_FAST_LOC,               /* a .loc line (LOCLINE) */
    PTX_FAST_LABEL,             /* a label ending its line (LABEL) */
    PTX_FAST_STMTS,             /* instructions and .loc lines that follow one
                                   another so, and labels after them, at most
                                   PTX_RUN_PIECES (STMTS) */
    PTX_FAST_DATA,              /* a run of data lines (DATARUN) */
    PTX_FAST_DECL,              /* a declaration of the common shape at the
                                   start of a statement in a body (SIMPLE) */
    PTX_FAST_OPEN,              /* a block's '{' there ('{') */
    PTX_FAST_CLOSE              /* a block's '}' there ('}') */
} ptx_fast_kind;

/* The statement or run that the fast lane takes after p, the end of the
 * last token (after the blank lines and '//' comments there), and its
 * span in *span; PTX_FAST_NONE to leave the text to the scanner's rules.
 * Statements are taken only `at_statement`, declarations and braces only
 * there `in_body`; a data run anywhere.  A
 * statement or run of them is built as it is taken: its nodes, linked by
 * `next`, from built->first to built->last (for a data run NULL:
 * ptx_b_data_run builds it). */
ptx_fast_kind ptx_fast_take(ptx_context *ctx, const char *p, bool at_statement, bool in_body,
                           ptx_span *span, ptx_nlist *built);

/* Whether ptx_fast_take may take something after `held`, where Flex
 * holds the byte (a NUL stands there) and the text after it is intact:
 * false only when it surely takes nothing, so that the byte is put back
 * only when it is needed. */
bool ptx_fast_may_take(const char *held, bool at_statement);

/* What recovery from a syntax error keeps of the statements of a STMTS
 * token (its run of nodes, first to last) in a body (`body`) or at module
 * scope, as through the grammar; *synced false when the parser is to go
 * on discarding after it. */
ptx_node *ptx_after_error(ptx_nlist run, bool body, bool *synced);
/* The scanner's first token in a statement the fast lane took at p (an
 * instruction, a .loc line, a label or a declaration), for a syntax
 * error's message: its kind and its length in *len. */
typedef enum ptx_fast_first {
    PTX_FIRST_IDENT, PTX_FIRST_DOTTED, PTX_FIRST_PUNCT, PTX_FIRST_LOC, PTX_FIRST_SPACE
} ptx_fast_first;
ptx_fast_first ptx_fast_first_token(const char *p, uint32_t *len);
/* What starts the tokens that error recovery discarded in a body, at
 * off, when it is a whole statement: a label "name :", or a .loc line
 * that the fast lane would take; NULL otherwise.  Through the grammar the
 * parser reads the token after them before it makes a statement of them
 * (".callprototype" may follow a label, an attribute a .loc line), so an
 * error there discards them; the fast lane makes them at once: both ways
 * they stay. */
ptx_node *ptx_b_kept_before_error(ptx_context *ctx, uint32_t off);

/* A run of debug-section lines (".b8 144", ".b32 7, 9", ".b64 $L__tmp3"):
 * lines of .b8, .b16, .b32 or .b64 and plain decimals, or after .b32 and
 * .b64 one label (not on the first line, which a parameter list's last
 * ".param .b32 name" would be), each ended by a newline, one after
 * another.  Returns the run's length at s (the next line's indentation
 * included), or 0; the run, taken apart on the way, goes to ctx->run,
 * where ptx_b_data_run finds it.  The scanner's DATARUN rule measures
 * with it too. */
size_t ptx_data_run_length(ptx_context *ctx, const char *s);
ptx_node *ptx_b_data_run(ptx_context *ctx, const ptx_tok *t);

/* The value of `n` hexadecimal digits (0f/0d constants: n is 8 or 16). */
uint64_t ptx_hex_bits(const char *digits, size_t n);

#endif
