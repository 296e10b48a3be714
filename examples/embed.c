/* Counts the instructions of a PTX file with libptxfront. */
#include <stdio.h>
#include <ptx/ptx.h>

int main(int argc, char **argv)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    if (!ctx || argc != 2 || ptx_parse_file(ctx, argv[1], &m) != PTX_OK) {
        for (size_t i = 0; ctx && i < ptx_diag_count(ctx); i++)
            ptx_diag_render(ctx, ptx_diag_get(ctx, i), ptx_write_file, stderr);
        ptx_context_free(ctx);
        return 1;
    }
    ptx_iter *it = ptx_iter_new(m);
    const ptx_node *n;
    size_t count = 0;
    while (it && ptx_iter_next(it, &n) > 0)
        count += n->kind == PTX_NODE_INSTR;
    printf("%zu instructions\n", count);
    ptx_iter_free(it);
    ptx_context_free(ctx);
    return 0;
}
