/* A strict JSON checker for the tests: the unit tests (check_json.c) and
 * the fuzz_json target put every JSON text the printers write to it.  No
 * Check, no library: plain C11, so that the fuzzer links it too. */
#ifndef PTX_JSON_CHECK_H
#define PTX_JSON_CHECK_H

#include <stddef.h>

/* Whether text[0..len) is one JSON text as RFC 8259 defines it: one value
 * with only whitespace around it; objects of "string": value members and
 * arrays, with commas between and none trailing; strings of valid UTF-8
 * without control characters, with the escapes \" \\ \/ \b \f \n \r \t
 * and \uXXXX; numbers -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; and
 * true, false, null.  Nesting is limited only by memory (no recursion).
 * Returns NULL when it is; else a static message saying what is wrong,
 * with *at (when not NULL) set to the offset where it was found. */
const char *test_json_check(const char *text, size_t len, size_t *at);

#endif
