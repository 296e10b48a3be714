/* Every bra of every function is an edge of its control-flow graph: from
 * the block that holds the bra to the block that its label starts.  The
 * label is found here by name in the function's own statements (not by
 * the resolution the graphs use), so that the two can disagree.
 * usage: bra_edges FILE...   (files that do not parse cleanly are left
 * out and counted); prints each missing edge, exit 1 if any. */
#include <stdio.h>
#include <string.h>

#include "ptx/ptx.h"

/* The block holding statement i: the one whose range covers it. */
static uint32_t block_of(const ptx_cfg *c, uint32_t i)
{
    for (uint32_t k = 0; k < c->nblocks; k++)
        if (i >= c->blocks[k].first && i < c->blocks[k].first + c->blocks[k].count)
            return k;
    return PTX_CFG_NONE;
}

/* The label named `name` that a statement inside the nested { } blocks
 * open[0..depth) sees: the innermost block's own labels first, as ptxas
 * scopes them; then the block of the graph that holds it. */
static uint32_t label_block(const ptx_cfg *c, const ptx_block *const *open, int depth,
                            const ptx_name *name)
{
    const ptx_node *label = NULL;
    for (int d = depth; d-- > 0 && !label;)
        for (const ptx_node *n = open[d]->first; n && !label; n = n->next)
            if (n->kind == PTX_NODE_LABEL && ((const ptx_label *)n)->name == name)
                label = n;
    for (uint32_t i = 0; label && i < c->nstmts; i++)
        if (c->stmts[i] == label)
            return block_of(c, i);
    return PTX_CFG_NONE;
}

enum { MAX_DEPTH = 64 };

/* Which nested blocks are open at statement i (the graph's statements are
 * the body's in order, the block nodes left out): kept by walking the
 * body alongside. */
typedef struct walker {
    const ptx_block *open[MAX_DEPTH];
    const ptx_node *next[MAX_DEPTH];
    int depth;
} walker;

/* Advances to the next statement that is not a block; returns it. */
static const ptx_node *walk_next(walker *w)
{
    for (;;) {
        const ptx_node *n = w->next[w->depth - 1];
        if (!n) {
            if (--w->depth == 0)
                return NULL;
            continue;
        }
        w->next[w->depth - 1] = n->next;
        if (n->kind == PTX_NODE_BLOCK && w->depth < MAX_DEPTH) {
            w->open[w->depth] = (const ptx_block *)n;
            w->next[w->depth++] = ((const ptx_block *)n)->first;
            continue;
        }
        return n;
    }
}

static bool has_edge(const ptx_cfg *c, uint32_t from, uint32_t to)
{
    for (uint32_t i = 0; i < c->blocks[from].nsucc; i++) {
        const ptx_cfg_edge *e = &c->edges[c->blocks[from].succ[i]];
        if (e->to == to && e->kind == PTX_EDGE_BRANCH)
            return true;
    }
    return false;
}

int main(int argc, char **argv)
{
    unsigned long files = 0, skipped = 0, bras = 0, missing = 0;
    for (int a = 1; a < argc; a++) {
        ptx_context *ctx = ptx_context_new();
        const ptx_module *m;
        ptx_graphs *g = NULL;
        if (!ctx || ptx_parse_file(ctx, argv[a], &m) != PTX_OK) {
            skipped++;
            ptx_context_free(ctx);
            continue;
        }
        if (ptx_graphs_build(m, &g) != PTX_OK) {
            printf("%s: ptx_graphs_build fails\n", argv[a]);
            return 1;
        }
        files++;
        for (uint32_t f = 0; f < ptx_graphs_count(g); f++) {
            const ptx_cfg *c = ptx_graphs_cfg(g, f);
            walker w = { { c->func->body }, { c->func->body->first }, 1 };
            for (uint32_t i = 0; i < c->nstmts; i++) {
                const ptx_node *n = c->stmts[i];
                if (walk_next(&w) != n) {
                    printf("%s: %s: statement %u is not the body's\n", argv[a], c->func->name->text, i);
                    missing++;
                    break;
                }
                if (n->kind != PTX_NODE_INSTR || strcmp(ptx_instr_opcode((const ptx_instr *)n)->text, "bra"))
                    continue;
                const ptx_instr *in = (const ptx_instr *)n;
                const ptx_expr *target = &in->ops[in->nops - 1];
                bras++;
                uint32_t from = block_of(c, i), to = label_block(c, w.open, w.depth, ptx_expr_name(target));
                if (from == PTX_CFG_NONE || to == PTX_CFG_NONE || !has_edge(c, from, to)) {
                    ptx_position p = ptx_context_position(ctx, n->span.off);
                    printf("%s:%u: bra %s in %s: no edge B%u -> B%u\n", argv[a], p.line,
                           ptx_expr_name(target)->text, c->func->name->text, from, to);
                    missing++;
                }
            }
        }
        ptx_graphs_free(g);
        ptx_context_free(ctx);
    }
    printf("graphs: %lu bra instructions in %lu files (%lu not parsing cleanly, left out): %lu without their edge\n",
           bras, files, skipped, missing);
    return missing || !bras ? 1 : 0;
}
