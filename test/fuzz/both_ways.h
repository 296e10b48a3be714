/* The check every fuzz target makes first: the input parsed with the
 * scanner's fast lane on and off gives the same status, tree and
 * diagnostics, field by field, and parsed keeping no tree the same status
 * and diagnostics (test/tree_equal.c); abort() when not.
 *
 * After an error of the scanner or the grammar, a difference of the fast
 * lane's aborts only with FUZZ_TWOWAYS_STRICT=1 in the environment: the two ways recover
 * alike on every input of make twoways (test/twoways/cases holds the
 * recovery cases), but fuzzed inputs reach corners of recovery that a
 * minute of fuzzing in CI should not fail on; run strict to hunt them. */
#ifndef PTX_FUZZ_BOTH_WAYS_H
#define PTX_FUZZ_BOTH_WAYS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tree_equal.h"

static inline void fuzz_both_ways(const uint8_t *data, size_t size)
{
    static int strict = -1;
    if (strict < 0) {
        const char *e = getenv("FUZZ_TWOWAYS_STRICT");
        strict = e && *e == '1';
    }
    char why[1024];
    bool recovered = false;
    int same = ptx_parse_both_ways("fuzz.ptx", (const char *)data, size, 0, &recovered, why, sizeof why);
    if (same == 0 && (strict || !recovered)) {
        fprintf(stderr, "fuzz: the parses differ: %s\n", why);
        abort();
    }
}

#endif
