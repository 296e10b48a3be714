/* Both ways: each input file is parsed with the scanner's fast lane on and
 * off, and the two statuses, trees and diagnostics must be the same, field
 * by field (test/tree_equal.c); parsed keeping no tree, it must give the
 * same status and diagnostics.  Run by make twoways (test/twoways/run.sh)
 * over the corpora, the error goldens, the hostile shapes and the cases
 * of test/twoways/cases.
 *
 * usage: twoways [-e MAX_ERRORS] LABEL FILE...
 * Prints each difference as "DIFFER FILE: where", then
 * "twoways: LABEL: N inputs parsed both ways, M differ".  Exit status 1
 * when some input differs or cannot be read, 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_all.h"
#include "tree_equal.h"

int main(int argc, char **argv)
{
    unsigned max_errors = 20;
    int i = 1;
    if (i + 1 < argc && strcmp(argv[i], "-e") == 0) {
        max_errors = (unsigned)strtoul(argv[i + 1], NULL, 10);
        i += 2;
    }
    if (i >= argc) {
        fprintf(stderr, "usage: twoways [-e MAX_ERRORS] LABEL FILE...\n");
        return 2;
    }
    const char *label = argv[i++];
    unsigned n = 0, differ = 0, unread = 0;
    for (; i < argc; i++) {
        size_t len = 0;
        char *text = test_read_all(argv[i], &len);
        if (!text) {
            printf("FAIL %s: cannot read it\n", argv[i]);
            unread++;
            continue;
        }
        char why[1024];
        int same = ptx_parse_both_ways(argv[i], text, len, max_errors, NULL, why, sizeof why);
        free(text);
        n++;
        if (same != 1) {
            printf("DIFFER %s: %s\n", argv[i], why);
            differ++;
        }
    }
    printf("twoways: %s: %u inputs parsed both ways, %u differ%s\n", label, n, differ,
           unread ? ", some unread" : "");
    return differ || unread ? 1 : 0;
}
