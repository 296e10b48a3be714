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

static ptx_expr *expr_new(ptx_context *ctx, ptx_expr_kind kind)
{
    ptx_expr *e = ptx_arena_zalloc(&ctx->arena, sizeof *e);
    e->kind = (uint8_t)kind;
    e->depth = 1;
    e->span.off = PTX_NO_OFFSET;
    return e;
}

ptx_expr *ptx_new_name(ptx_context *ctx, const char *name)
{
    if (!ctx || !name)
        return NULL;
    GUARD(ctx, NULL);
    ptx_expr *e = expr_new(ctx, PTX_EXPR_SYM);
    e->u.sym.name = ptx_intern(ctx, name, strlen(name));
    UNGUARD(ctx);
    return e;
}

ptx_expr *ptx_new_int(ptx_context *ctx, int64_t value)
{
    if (!ctx)
        return NULL;
    GUARD(ctx, NULL);
    ptx_expr *e = expr_new(ctx, PTX_EXPR_INT);
    e->u.i = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    if (value < 0) {
        ptx_expr *neg = expr_new(ctx, PTX_EXPR_UNARY);
        neg->op = PTX_OP_NEG;
        neg->u.op.a = e;
        neg->depth = 2;
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
    ptx_instr *in = ptx_arena_zalloc(&ctx->arena, sizeof *in);
    in->base.kind = PTX_NODE_INSTR;
    in->base.span.off = PTX_NO_OFFSET;
    in->opcode = ptx_intern(ctx, opcode, root);
    in->mods = n ? ptx_arena_zalloc(&ctx->arena, n * sizeof *in->mods) : NULL;
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
    if (nops) {
        in->ops = ptx_arena_alloc(&ctx->arena, nops * sizeof *in->ops);
        for (size_t i = 0; i < nops; i++)
            in->ops[i] = *ops[i];
    }
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
