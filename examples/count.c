/* Counts the instructions of each family over the PTX files given on the
 * command line, using only the public API of libptxfront.
 * usage: count FILE.ptx...   prints "family count" lines, most used first */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ptx/ptx.h>

int main(int argc, char **argv)
{
    unsigned long long counts[PTX_FAMILY_COUNT] = { 0 }, unknown = 0;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        ptx_context *ctx = ptx_context_new();
        const ptx_module *m;
        if (!ctx || ptx_parse_file(ctx, argv[i], &m) != PTX_OK) {
            fprintf(stderr, "count: %s: not a valid PTX module\n", argv[i]);
            ptx_context_free(ctx);
            status = 1;
            continue;
        }
        ptx_iter *it = ptx_iter_new(m);
        const ptx_node *n;
        while (it && ptx_iter_next(it, &n) > 0) {
            if (n->kind != PTX_NODE_INSTR)
                continue;
            const ptx_instr *in = (const ptx_instr *)n;
            if (in->family)
                counts[in->family]++;
            else
                unknown++;
        }
        ptx_iter_free(it);
        ptx_context_free(ctx);
    }
    for (;;) {      /* most used first: pick the largest left each time */
        unsigned best = 0;
        for (unsigned f = 1; f < PTX_FAMILY_COUNT; f++)
            if (counts[f] > counts[best])
                best = f;
        if (!counts[best])
            break;
        printf("%s %llu\n", ptx_family_name((ptx_family)best), counts[best]);
        counts[best] = 0;
    }
    if (unknown)
        printf("(no family) %llu\n", unknown);
    return status;
}
