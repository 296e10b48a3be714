/* Rewrites a module with the public API of libptxfront: puts a
 * "membar.cta;" before every "ret" and prints the result as PTX.
 * usage: rewrite IN.ptx > OUT.ptx */
#include <stdio.h>
#include <string.h>

#include <ptx/ptx.h>

/* Inserts before every ret in `block`, and in the blocks nested in it;
 * an explicit stack keeps deep nesting off the C stack. */
static int rewrite(ptx_context *ctx, ptx_block *body)
{
    enum { MAX_DEPTH = 4096 };
    static ptx_block *stack[MAX_DEPTH];
    int depth = 0, inserted = 0;
    stack[depth++] = body;
    while (depth) {
        ptx_block *b = stack[--depth];
        for (ptx_node *n = b->first; n; n = n->next) {
            if (n->kind == PTX_NODE_BLOCK && depth < MAX_DEPTH)
                stack[depth++] = (ptx_block *)n;
            if (n->kind == PTX_NODE_INSTR && strcmp(ptx_instr_opcode((ptx_instr *)n)->text, "ret") == 0) {
                ptx_instr *fence = ptx_new_instr(ctx, "membar.cta", NULL, 0);
                if (!fence || ptx_insert_before(b, n, &fence->base) != PTX_OK)
                    return -1;
                inserted++;
            }
        }
    }
    return inserted;
}

int main(int argc, char **argv)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    if (!ctx || argc != 2 || ptx_parse_file(ctx, argv[1], &m) != PTX_OK) {
        for (size_t i = 0; ctx && i < ptx_diag_count(ctx); i++)
            ptx_diag_render(ctx, ptx_diag_get(ctx, i), ptx_write_file, stderr);
        fprintf(stderr, "usage: rewrite IN.ptx (a valid module)\n");
        ptx_context_free(ctx);
        return 1;
    }
    int total = 0;
    for (ptx_node *n = m->first; n && total >= 0; n = n->next) {
        if (n->kind == PTX_NODE_FUNC && ((ptx_func *)n)->body) {
            int k = rewrite(ctx, ((ptx_func *)n)->body);
            total = k < 0 ? -1 : total + k;
        }
    }
    int status = total < 0 || ptx_print_ptx(ctx, m, ptx_write_file, stdout) != PTX_OK;
    fprintf(stderr, "rewrite: %d membar.cta inserted\n", total);
    ptx_context_free(ctx);
    return status;
}
