/* A whole file in memory, for the test programs that read their inputs
 * themselves (test/twoways/twoways.c, test/conformance/mutations.c). */
#ifndef PTX_TEST_READ_ALL_H
#define PTX_TEST_READ_ALL_H

#include <stddef.h>

/* The bytes of the file at path (malloc'd, not NUL-terminated) and their
 * number in *len; NULL when it cannot be opened or read, or memory runs
 * out. */
char *test_read_all(const char *path, size_t *len);

#endif
