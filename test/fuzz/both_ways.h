/* The check every fuzz target makes first: the input parsed with the
 * scanner's fast lane on and off gives the same status, tree and
 * diagnostics, field by field (src/tree_equal.c); abort() when not.
 *
 * After an error of the scanner or the grammar the two ways are known to
 * recover differently (the fast lane's whole-statement tokens are kept by
 * the grammar's error rules; test/twoways/known-files.tsv lists the
 * cases), and most fuzzed inputs have one: there a difference aborts only
 * with FUZZ_TWOWAYS_STRICT=1 in the environment, so that the targets go on
 * looking for the others. */
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
        fprintf(stderr, "fuzz: the fast lane on and off differ: %s\n", why);
        abort();
    }
}

#endif
