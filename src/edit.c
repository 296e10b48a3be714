/* Changing the tree: new operands and instructions in the context's arena,
 * and insertion into a block's statement list. */
#include <string.h>

#include "internal.h"

/* The public builders return NULL instead of jumping when memory runs out. */
#define GUARD(ctx, fail)                                                    \
    jmp_buf saved;                                                          \
    memcpy(saved, (ctx)->oom, sizeof saved);                                \
    if (setjmp((ctx)->oom)) {                                               \
        memcpy((ctx)->oom, saved, sizeof saved);                            \
        return fail;                                                        \
    }
#define UNGUARD(ctx) memcpy((ctx)->oom, saved, sizeof saved)

/* Nodes made here have no source: offset PTX_NO_OFFSET, length 0. */
static const ptx_span no_span = { PTX_NO_OFFSET, 0 };

ptx_expr *ptx_new_name(ptx_context *ctx, const char *name)
{
    if (!ctx || !name)
        return NULL;
    GUARD(ctx, NULL);
    ptx_expr *e = ptx_arena_alloc(&ctx->arena, sizeof *e);
    ptx_leaf_value v = { .name = ptx_intern(ctx, name, strlen(name)) };
    ptx_expr_set_leaf(ctx, e, PTX_EXPR_SYM, 0, no_span, v, NULL);
    UNGUARD(ctx);
    return e;
}

ptx_expr *ptx_new_int(ptx_context *ctx, int64_t value)
{
    if (!ctx)
        return NULL;
    GUARD(ctx, NULL);
    ptx_expr *e = ptx_arena_alloc(&ctx->arena, sizeof *e);
    ptx_leaf_value v = { .i = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value };
    ptx_expr_set_leaf(ctx, e, PTX_EXPR_INT, 0, no_span, v, NULL);
    if (value < 0) {
        ptx_expr *neg = ptx_arena_alloc(&ctx->arena, sizeof *neg);
        ptx_expr_set_parts(ctx, neg, PTX_EXPR_UNARY, PTX_OP_NEG, no_span, &e, 1, 1);
        e = neg;
    }
    UNGUARD(ctx);
    return e;
}

static size_t count_dots(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '.';
    return n;
}

ptx_instr *ptx_new_instr(ptx_context *ctx, const char *opcode, ptx_expr *const *ops,
                         unsigned nops)
{
    if (!ctx || !opcode || (nops && !ops) || nops > UINT16_MAX)
        return NULL;
    GUARD(ctx, NULL);
    /* modifiers: each '.' starts one, except the ':'-joined parts */
    size_t root = strcspn(opcode, ".");
    size_t n = count_dots(opcode + root);
    if (n > UINT16_MAX) {
        UNGUARD(ctx);
        return NULL;
    }
    ptx_instr *in = ptx_arena_alloc(&ctx->arena, sizeof *in + nops * sizeof(ptx_expr));
    memset(in, 0, sizeof *in);
    in->base.kind = PTX_NODE_INSTR;
    in->base.span.off = PTX_NO_OFFSET;
    in->mods = (ptx_mod *)ptx_arena_zalloc(&ctx->arena, (n + 1) * sizeof *in->mods) + 1;
    in->mods[-1].name = ptx_intern(ctx, opcode, root);
    in->mods[-1].off = PTX_NO_OFFSET;
    const char *p = opcode + root;
    while (*p == '.') {
        const char *q = p + 1;
        while (*q && *q != '.')
            q++;
        in->mods[in->nmods].name = ptx_intern(ctx, p, (size_t)(q - p));
        in->mods[in->nmods++].off = PTX_NO_OFFSET;
        p = q;
    }
    in->nops = (uint16_t)nops;
    for (size_t i = 0; i < nops; i++)
        in->ops[i] = *ops[i];
    UNGUARD(ctx);
    return in;
}

ptx_status ptx_insert_before(ptx_block *block, ptx_node *before, ptx_node *node)
{
    if (!block || !node)
        return PTX_ERR_USAGE;
    ptx_node **link = &block->first;
    while (*link && *link != before)
        link = &(*link)->next;
    if (*link != before)
        return PTX_ERR_USAGE;
    node->next = before;
    *link = node;
    return PTX_OK;
}
