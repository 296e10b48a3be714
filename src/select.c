/* What --function keeps (ptx_print_ptx with a filter): the module items
 * the accepted functions name, and the functions they call, transitively,
 * so that what is printed assembles alone.  Names are matched by their
 * interned text, module items only: the printer asks of each item it
 * would leave out whether it is needed after all. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "select.h"

static void need_add(ptx_needed *s, const ptx_name *name)
{
    if (s->nomem)
        return;
    if ((s->count + 1) * 2 > s->mask + 1) {
        size_t cap = (s->mask + 1) * 2;
        const ptx_name **slots = calloc(cap, sizeof *slots);
        if (!slots) {
            s->nomem = true;
            return;
        }
        for (size_t i = 0; s->slots && i <= s->mask; i++)
            if (s->slots[i]) {
                size_t k = s->slots[i]->hash & (cap - 1);
                while (slots[k])
                    k = (k + 1) & (cap - 1);
                slots[k] = s->slots[i];
            }
        free(s->slots);
        s->slots = slots;
        s->mask = cap - 1;
    }
    size_t k = name->hash & s->mask;
    while (s->slots[k] && s->slots[k] != name)
        k = (k + 1) & s->mask;
    if (!s->slots[k]) {
        s->slots[k] = name;
        s->count++;
    }
}

static bool need_has(const ptx_needed *s, const ptx_name *name)
{
    if (!s->slots)
        return false;
    size_t k = name->hash & s->mask;
    while (s->slots[k] && s->slots[k] != name)
        k = (k + 1) & s->mask;
    return s->slots[k] != NULL;
}

static void need_expr(ptx_needed *s, const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_SYM) {
        need_add(s, ptx_expr_name(e));
    } else if (!ptx_expr_is_leaf(e) && e->kind != PTX_EXPR_RANGE) {
        for (uint32_t i = 0; i < ptx_expr_count(e); i++)
            need_expr(s, ptx_expr_item(e, i));
    }
}

static void need_stmt(ptx_needed *s, const ptx_node *n)
{
    if (n->kind == PTX_NODE_INSTR) {
        const ptx_instr *in = (const ptx_instr *)n;
        for (uint32_t i = 0; i < in->nops; i++)
            need_expr(s, &in->ops[i]);
    } else if (n->kind == PTX_NODE_DECL) {
        /* an initialiser may name a function or a variable: {f, g} */
        const ptx_decl *d = (const ptx_decl *)n;
        for (uint32_t i = 0; i < d->nvars; i++)
            if (d->vars[i].init)
                need_expr(s, d->vars[i].init);
    }
}

/* The names one item uses, nested statements included. */
static ptx_status need_item(ptx_needed *s, const ptx_node *item)
{
    ptx_iter *it = ptx_iter_new_node(item);
    if (!it)
        return PTX_ERR_NOMEM;
    const ptx_node *n;
    ptx_event ev;
    while ((ev = ptx_iter_next(it, &n)) > 0)
        if (ev == PTX_EVENT_ENTER)
            need_stmt(s, n);
    ptx_iter_free(it);
    return ev == PTX_EVENT_NOMEM || s->nomem ? PTX_ERR_NOMEM : PTX_OK;
}

/* The names the accepted items use, and those of every function they
 * call, transitively: a function defined in the module that a printed
 * one names is printed whole (a declaration of a .func that is not
 * defined does not assemble: "Unresolved extern function"). */
ptx_status ptx_needed_collect(ptx_needed *s, const ptx_module *m, ptx_print_filter filter,
                               void *filter_user)
{
    s->mask = 63;
    s->slots = calloc(64, sizeof *s->slots);
    if (!s->slots)
        return PTX_ERR_NOMEM;
    size_t nitems = 0;
    for (const ptx_node *n = m->first; n; n = n->next)
        nitems++;
    bool *done = calloc(nitems ? nitems : 1, sizeof *done);
    if (!done)
        return PTX_ERR_NOMEM;
    ptx_status st = PTX_OK;
    size_t i = 0;
    for (const ptx_node *n = m->first; n && st == PTX_OK; n = n->next, i++)
        if (filter(n, filter_user)) {
            done[i] = true;
            st = need_item(s, n);
        }
    /* the functions those name, until no new one is named */
    for (bool more = true; more && st == PTX_OK;) {
        more = false;
        i = 0;
        for (const ptx_node *n = m->first; n && st == PTX_OK; n = n->next, i++)
            if (!done[i] && n->kind == PTX_NODE_FUNC && ((const ptx_func *)n)->body &&
                need_has(s, ((const ptx_func *)n)->name)) {
                done[i] = more = true;
                st = need_item(s, n);
            }
    }
    free(done);
    return st != PTX_OK ? st : s->nomem ? PTX_ERR_NOMEM : PTX_OK;
}

bool ptx_needed_item(const ptx_needed *s, const ptx_node *n)
{
    if (n->kind == PTX_NODE_FUNC)
        return need_has(s, ((const ptx_func *)n)->name);
    if (n->kind == PTX_NODE_DECL) {
        const ptx_decl *d = (const ptx_decl *)n;
        for (uint32_t i = 0; i < d->nvars; i++)
            if (need_has(s, d->vars[i].name))
                return true;
    }
    return false;
}

/* A function defined in the module that a printed function calls (or
 * names): printed whole, so that the output assembles alone. */
bool ptx_needed_whole(const ptx_needed *s, const ptx_node *n)
{
    return n->kind == PTX_NODE_FUNC && ((const ptx_func *)n)->body && need_has(s, ((const ptx_func *)n)->name);
}

void ptx_needed_free(ptx_needed *s)
{
    free(s->slots);
    s->slots = NULL;
}
