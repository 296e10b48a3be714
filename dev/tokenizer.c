/* tokenizer: the bare Flex tokenizer of PTX, make bench's yardstick for the
 * CLI.  Its automaton is the scanner's own patterns without their actions
 * (dev/tokenizer.awk writes it from grammar/ptx.l, built with the same
 * FLEXFLAGS); this program reads a file as ptx-front does (into the
 * library's ptx_big_alloc buffer: huge pages for a large file), scans it
 * in place and prints the number of tokens.
 *
 *   tokenizer FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "internal.h"

typedef struct yy_buffer_state *YY_BUFFER_STATE;
int bare_yylex(void);
YY_BUFFER_STATE bare_yy_scan_buffer(char *base, size_t size);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tokenizer FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    struct stat sb;
    if (!f || fstat(fileno(f), &sb) != 0) {
        perror(argv[1]);
        return 2;
    }
    size_t len = (size_t)sb.st_size;
    /* Flex scans in place up to two NUL bytes */
    size_t mapped;
    char *buf = ptx_big_alloc(len + 2, &mapped);
    if (!buf || fread(buf, 1, len, f) != len) {
        fprintf(stderr, "tokenizer: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    buf[len] = buf[len + 1] = '\0';
    if (!bare_yy_scan_buffer(buf, len + 2)) {
        fprintf(stderr, "tokenizer: out of memory\n");
        return 2;
    }
    unsigned long tokens = 0;
    while (bare_yylex() != 0)
        tokens++;
    printf("%lu tokens\n", tokens);
    ptx_big_free(buf, mapped);
    return 0;
}
