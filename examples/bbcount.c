/* bbcount: basic-block execution counters for every kernel and function.
 *
 *   bbcount FILE.ptx > instrumented.ptx
 *
 * Adds a module variable `.global .u64 __bbcount[N]`, one slot per basic
 * block, and at the start of each block (the function's entry, after the
 * declarations that open its body, and after every label a branch goes to)
 * one `red.global.add.u64 [__bbcount+8*i], 1;`.  Every other line of the
 * file stays as it was: the output is the input with lines added.  On
 * stderr, one line per block: "i function label" (entry for the first). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ptx/ptx.h>

/* The labels a branch of f can go to: bra's operand and the names of
 * .branchtargets lists (brx.idx). */
typedef struct targets {
    const ptx_name **names;
    size_t n, cap;
} targets;

static int add_target(targets *t, const ptx_name *name)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        const ptx_name **p = realloc(t->names, cap * sizeof *p);
        if (!p)
            return -1;
        t->names = p;
        t->cap = cap;
    }
    t->names[t->n++] = name;
    return 0;
}

static int is_target(const targets *t, const ptx_name *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->names[i] == name)    /* interned: one pointer per text */
            return 1;
    return 0;
}

static int find_targets(const ptx_func *f, targets *t)
{
    ptx_iter *it = ptx_iter_new_node(&f->base);
    if (!it)
        return -1;
    const ptx_node *n;
    ptx_event ev;
    int rc = 0;
    while (rc == 0 && (ev = ptx_iter_next(it, &n)) > 0) {
        if (ev != PTX_EVENT_ENTER)
            continue;
        if (n->kind == PTX_NODE_INSTR) {
            const ptx_instr *in = (const ptx_instr *)n;
            if (strcmp(ptx_instr_opcode(in)->text, "bra") == 0 && in->nops == 1 &&
                in->ops[0].kind == PTX_EXPR_SYM)
                rc = add_target(t, ptx_expr_name(&in->ops[0]));
        } else if (n->kind == PTX_NODE_TARGETS && ((const ptx_targets *)n)->is_branch) {
            const ptx_targets *bt = (const ptx_targets *)n;
            for (uint32_t i = 0; i < bt->count && rc == 0; i++)
                rc = add_target(t, ptx_expr_name(bt->names[i]));
        }
    }
    ptx_iter_free(it);
    return ev == PTX_EVENT_NOMEM ? -1 : rc;
}

typedef struct counter {
    ptx_context *ctx;
    const ptx_expr *array;      /* __bbcount, the module variable */
    unsigned long next;         /* slots handed out */
    int counting;               /* 0: only count the blocks */
} counter;

/* The counting statement of the next block, inserted after `after` of
 * `block` (NULL: at its start). */
static int count_block(counter *c, ptx_block *block, ptx_node *after, const char *func,
                       const char *label)
{
    unsigned long slot = c->next++;
    if (!c->counting)
        return 0;
    fprintf(stderr, "%lu %s %s\n", slot, func, label);
    ptx_expr *ops[2] = { ptx_new_addr(c->ctx, c->array, (int64_t)(8 * slot)),
                         ptx_new_int(c->ctx, 1) };
    if (!ops[0] || !ops[1])
        return -1;
    ptx_instr *in = ptx_new_instr(c->ctx, "red.global.add.u64", ops, 2);
    if (!in)
        return -1;
    return ptx_insert_after(block, after, &in->base) == PTX_OK ? 0 : -1;
}

/* The labels of `block` and the blocks inside it that branches go to. */
static int count_labels(counter *c, ptx_block *block, const targets *t, const char *func)
{
    for (ptx_node *s = block->first; s; s = s->next) {
        if (s->kind == PTX_NODE_BLOCK) {
            if (count_labels(c, (ptx_block *)s, t, func))
                return -1;
        } else if (s->kind == PTX_NODE_LABEL && is_target(t, ((ptx_label *)s)->name)) {
            if (count_block(c, block, s, func, ((ptx_label *)s)->name->text))
                return -1;
            if (c->counting)
                s = s->next;    /* past the statement just added */
        }
    }
    return 0;
}

static int instrument(counter *c, const ptx_module *m)
{
    for (const ptx_node *item = m->first; item; item = item->next) {
        if (item->kind != PTX_NODE_FUNC || !((const ptx_func *)item)->body)
            continue;
        const ptx_func *f = (const ptx_func *)item;
        targets t = { 0 };
        if (find_targets(f, &t)) {
            free(t.names);
            return -1;
        }
        /* the entry block starts after the declarations that open the body */
        ptx_node *after = NULL;
        for (ptx_node *s = f->body->first; s && s->kind == PTX_NODE_DECL; s = s->next)
            after = s;
        int rc = count_block(c, f->body, after, f->name->text, "entry");
        if (rc == 0)
            rc = count_labels(c, f->body, &t, f->name->text);
        free(t.names);
        if (rc)
            return -1;
    }
    return 0;
}

static void show_diagnostics(const ptx_context *ctx)
{
    for (size_t i = 0; i < ptx_diag_count(ctx); i++)
        ptx_diag_render(ctx, ptx_diag_get(ctx, i), ptx_write_file, stderr);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bbcount FILE.ptx > instrumented.ptx\n");
        return 2;
    }
    ptx_context *ctx = ptx_context_new();
    if (!ctx)
        return 2;
    const ptx_module *m;
    ptx_status st = ptx_parse_file(ctx, argv[1], &m);
    if (st != PTX_OK) {
        show_diagnostics(ctx);
        if (st == PTX_ERR_IO)
            fprintf(stderr, "bbcount: %s: %s\n", argv[1], ptx_context_io_error(ctx));
        ptx_context_free(ctx);
        return st == PTX_ERR_INPUT ? 1 : 2;
    }
    /* first count the blocks: the array's size; then add the statements */
    counter c = { ctx, NULL, 0, 0 };
    int rc = instrument(&c, m);
    if (rc == 0 && c.next) {
        c.array = ptx_declare_variable(ctx, PTX_SPACE_GLOBAL, PTX_TYPE_U64, "__bbcount",
                                       c.next, NULL);
        c.next = 0;
        c.counting = 1;
        rc = c.array ? instrument(&c, m) : -1;
    }
    if (rc == 0 && ptx_validate(ctx) != PTX_OK)
        rc = -1;
    if (rc == 0 && ptx_print_ptx(ctx, m, ptx_write_file, stdout) != PTX_OK)
        rc = -1;
    if (rc)
        show_diagnostics(ctx);
    ptx_context_free(ctx);
    return rc ? 1 : 0;
}
