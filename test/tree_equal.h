/* Field-by-field comparison of two parses: the check that the scanner's
 * fast lane builds what the grammar's rules build (test/twoways, the
 * fuzzers, the unit tests).  Test support: not in the library. */
#ifndef PTX_TREE_EQUAL_H
#define PTX_TREE_EQUAL_H

#include <stdbool.h>
#include <stddef.h>

#include "ptx/ptx.h"

/* Whether module ma of context a and module mb of context b are the same
 * tree: every node, every field, spans included.  Names are compared by
 * text (interned pointers of two contexts differ), floats by their bits.
 * The one difference of shape allowed is in section data: a run of data
 * lines (ptx_data with width != 0) equals the lines it stands for, whether
 * the other tree keeps them as a run or one node per line.  Either module
 * may be NULL (a parse that made none); two NULLs are equal.
 *
 * When they differ, and why is not NULL, why receives (truncated to
 * whylen bytes, NUL-terminated) where and how, e.g. "function 'f',
 * statement 12 (line 40), operand 2: span 1200+5 vs 1200+6"; every
 * number in a path counts from 1, and lines are those of context a. */
bool ptx_tree_equal(const ptx_context *a, const ptx_module *ma, const ptx_context *b,
                    const ptx_module *mb, char *why, size_t whylen);

/* Whether the diagnostics of contexts a and b are the same: their number,
 * and each one's severity, code, span, message and fix-it text; why as
 * above ("diagnostic 3: message '...' vs '...'"). */
bool ptx_diags_equal(const ptx_context *a, const ptx_context *b, char *why, size_t whylen);

/* Parses `len` bytes at `data` three times, in new contexts that differ
 * only in the scanner's fast lane (on in the first, off in the second)
 * and in keeping the tree (not in the third, fast lane on), all with
 * `max_errors` (0: no limit).  The third must give the first's status and
 * diagnostics and no module, on any input; the first two the same status,
 * tree and diagnostics.  `name` labels the input, as for ptx_parse_buffer.
 * *recovered (when not NULL) says whether either of the first two parses
 * reported an error of the scanner or the grammar (a syntax error, a bad
 * character or literal, an unterminated comment or string, a
 * preprocessor line), after which the parser's error recovery may see
 * different tokens the two ways; it is false when the third parse is the
 * one that differs.  Returns 1 when they agree, 0 when they differ (why
 * says where, in the first tree's terms, after "without the tree: " when
 * the third differs), -1 when memory ran out. */
int ptx_parse_both_ways(const char *name, const char *data, size_t len, unsigned max_errors,
                        bool *recovered, char *why, size_t whylen);

#endif
