/* Both ways: each input file is parsed with the scanner's fast lane on and
 * off, and the two statuses, trees and diagnostics must be the same, field
 * by field (src/tree_equal.c).  Run by make twoways (test/twoways/run.sh)
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

#include "tree_equal.h"

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *p = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            char *q = realloc(p, cap);
            if (!q) {
                free(p);
                fclose(f);
                return NULL;
            }
            p = q;
        }
        size_t got = fread(p + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(p);
        return NULL;
    }
    *len = n;
    return p;
}

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
        char *text = read_all(argv[i], &len);
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
