/* A depth-first walk over the module with its own stack, so that nesting
 * of any depth costs heap, not C stack. */
#include <stdlib.h>

#include "internal.h"

struct ptx_iter {
    const ptx_module *module;
    const ptx_node *root;       /* ptx_iter_new_node: the one node at depth 0 */
    const ptx_node *last;       /* node of the last event */
    ptx_event last_event;
    bool started;
    const ptx_node **stack;     /* open containers */
    size_t depth, cap;
};

ptx_iter *ptx_iter_new(const ptx_module *m)
{
    ptx_iter *it = calloc(1, sizeof *it);
    if (it)
        it->module = m;
    return it;
}

ptx_iter *ptx_iter_new_node(const ptx_node *root)
{
    ptx_iter *it = calloc(1, sizeof *it);
    if (it)
        it->root = root;
    return it;
}

void ptx_iter_free(ptx_iter *it)
{
    if (it) {
        free(it->stack);
        free(it);
    }
}

void ptx_iter_skip_children(ptx_iter *it)
{
    /* as if the node had been left: the next event is its sibling */
    if (it->last && it->last_event == PTX_EVENT_ENTER)
        it->last_event = PTX_EVENT_EXIT;
}

unsigned ptx_iter_depth(const ptx_iter *it)
{
    /* an EXIT event is reported at the depth of its ENTER */
    return (unsigned)it->depth;
}

static const ptx_node *first_child(const ptx_node *n, bool *container)
{
    *container = true;
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_FUNC: {
        const ptx_func *f = (const ptx_func *)n;
        if (!f->body)
            break;
        return &f->body->base;
    }
    case PTX_NODE_BLOCK:
        return ((const ptx_block *)n)->first;
    case PTX_NODE_SECTION:
        return ((const ptx_section *)n)->first;
    default:
        break;
    }
    *container = false;
    return NULL;
}

static ptx_event emit(ptx_iter *it, ptx_event ev, const ptx_node *n, const ptx_node **out)
{
    it->last = n;
    it->last_event = ev;
    *out = n;
    return ev;
}

ptx_event ptx_iter_next(ptx_iter *it, const ptx_node **node)
{
    *node = NULL;
    if (!it->started) {
        it->started = true;
        const ptx_node *first = it->root ? it->root : it->module ? it->module->first : NULL;
        if (!first)
            return PTX_EVENT_DONE;
        return emit(it, PTX_EVENT_ENTER, first, node);
    }
    if (!it->last)
        return PTX_EVENT_DONE;
    if (it->last_event == PTX_EVENT_ENTER) {
        bool container;
        const ptx_node *child = first_child(it->last, &container);
        if (container) {
            if (it->depth == it->cap) {
                size_t cap = it->cap ? it->cap * 2 : 32;
                const ptx_node **s = realloc(it->stack, cap * sizeof *s);
                if (!s)
                    return PTX_EVENT_NOMEM;
                it->stack = s;
                it->cap = cap;
            }
            it->stack[it->depth++] = it->last;
            if (child)
                return emit(it, PTX_EVENT_ENTER, child, node);
            it->depth--;
            return emit(it, PTX_EVENT_EXIT, it->last, node);
        }
    }
    /* after a leaf or an EXIT: the next sibling, else close the parent.
     * A function's body block is its only child. */
    const ptx_node *sib = it->last->next;
    if ((it->depth && it->stack[it->depth - 1]->kind == PTX_NODE_FUNC) ||
        (!it->depth && it->root))
        sib = NULL;
    if (sib)
        return emit(it, PTX_EVENT_ENTER, sib, node);
    if (it->depth) {
        const ptx_node *parent = it->stack[--it->depth];
        return emit(it, PTX_EVENT_EXIT, parent, node);
    }
    it->last = NULL;
    return PTX_EVENT_DONE;
}
