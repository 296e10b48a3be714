/* Control-flow graphs and the call graph (include/ptx/cfg.h says what
 * they hold).  What the semantic pass resolved (ptx_sema_names) gives
 * what every branch and call names; the graphs are then built function by function from the
 * tree.  Everything the result holds is carved from one arena; the work
 * arrays are malloc'd and freed before ptx_graphs_build returns. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A run of statements that sit in one { } block: from `first` to the
 * next run's first.  A body without nested blocks keeps none (all its
 * statements are in the body), so the block of every statement costs
 * such a function nothing, not 8 bytes a statement (cfg.c serves 100 MB
 * modules). */
typedef struct stmt_run {
    uint32_t first;
    ptx_block *block;
} stmt_run;

/* A function's graph and what only the accessors reach: the graphs it
 * belongs to (for the edit count), its statements as the tree links them
 * (not const: an editor inserts next to them), the runs of their blocks.
 * `pub` comes first: a ptx_cfg the library handed out is one of these. */
typedef struct cfg_full {
    ptx_cfg pub;
    const ptx_graphs *g;
    ptx_node **stmts;           /* the array pub.stmts points to */
    uint32_t nruns;             /* 0: every statement is in the body */
    const stmt_run *runs;
} cfg_full;

struct ptx_graphs {
    ptx_arena arena;
    uint32_t ncfgs;
    cfg_full *cfgs;
    ptx_callgraph cg;
    unsigned long edits;        /* ptx_edit_count() when they were built */
    bool pinned;                /* never stale: ptx_graphs_build_pinned */
};

/* A name that a branch, a call or a target list resolved to. */
typedef struct rec {
    const ptx_node *stmt;
    const ptx_expr *name;
    const ptx_node *decl;
    uint8_t kind;               /* ptx_symbol_kind */
} rec;

/* Pointer -> number, open addressing: nodes, names and target lists are
 * distinct objects, so one table serves for all of them. */
typedef struct pmap {
    const void **keys;
    uint32_t *vals;
    size_t mask, n;
} pmap;

/* A call site before the edges are merged. */
typedef struct site {
    uint32_t caller, callee;
    uint8_t kind;
} site;

typedef struct build {
    jmp_buf *oom;
    ptx_graphs *g;
    const ptx_module *m;
    rec *recs;
    size_t nrecs, caprecs;
    pmap map;
    /* per function, reused */
    ptx_node **stmts;
    size_t nstmts, capstmts;
    stmt_run *runs;             /* each statement's { } block */
    size_t nruns, capruns;
    struct frame { ptx_node *next; ptx_block *block; } *stack;  /* flatten */
    size_t capstack;
    uint32_t *leader_of;        /* block index of each statement */
    size_t capleader;
    uint32_t *switched;         /* by block: the stamp of the last brx with an
                                   edge to it (add_switch_edge) */
    size_t capswitched;
    uint32_t stamp;             /* of the brx whose edges are being added */
    site *sites;
    size_t nsites, capsites;
    uint32_t nfuncs;            /* call-graph nodes */
    const ptx_func **funcs;
    size_t capfuncs;
} build;

/* ---- helpers ------------------------------------------------------------ */

static void *grow(build *b, void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q)
        longjmp(*b->oom, 1);
    *cap = c;
    return q;
}

static void *alloc(build *b, size_t n, size_t size)
{
    /* at least one byte: an empty array is still a valid pointer */
    return ptx_arena_zalloc(&b->g->arena, n ? n * size : 1);
}

static size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static size_t pmap_slot(const pmap *t, const void *key)
{
    size_t i = hash_ptr(key) & t->mask;
    while (t->keys[i] && t->keys[i] != key)
        i = (i + 1) & t->mask;
    return i;
}

static uint32_t pmap_get(const pmap *t, const void *key)
{
    if (!t->keys)
        return PTX_CFG_NONE;
    size_t i = pmap_slot(t, key);
    return t->keys[i] ? t->vals[i] : PTX_CFG_NONE;
}

static void pmap_put(build *b, pmap *t, const void *key, uint32_t val)
{
    if (!t->keys || (t->n + 1) * 2 > t->mask + 1) {
        size_t oldn = t->keys ? t->mask + 1 : 0, n = oldn ? 2 * oldn : 1024;
        const void **keys = calloc(n, sizeof *keys);
        uint32_t *vals = malloc(n * sizeof *vals);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            longjmp(*b->oom, 1);
        }
        pmap old = *t;
        t->keys = keys;
        t->vals = vals;
        t->mask = n - 1;
        for (size_t i = 0; i < oldn; i++)
            if (old.keys[i]) {
                size_t s = pmap_slot(t, old.keys[i]);
                t->keys[s] = old.keys[i];
                t->vals[s] = old.vals[i];
            }
        free(old.keys);
        free(old.vals);
    }
    size_t i = pmap_slot(t, key);
    if (!t->keys[i]) {
        t->keys[i] = key;
        t->n++;
    }
    t->vals[i] = val;
}

/* What kind of control transfer an instruction is. */
enum xfer { X_NONE, X_BRA, X_BRX, X_RET, X_CALL };

static enum xfer xfer_of(const ptx_instr *in)
{
    switch (in->family) {
    case PTX_FAMILY_BRA: return X_BRA;
    case PTX_FAMILY_BRX_IDX: return X_BRX;
    case PTX_FAMILY_RET: case PTX_FAMILY_EXIT: case PTX_FAMILY_TRAP: return X_RET;
    case PTX_FAMILY_CALL: return X_CALL;
    default: return X_NONE;
    }
}

/* ---- names: what the semantic pass resolved ----------------------------- */

/* Keeps what branches, calls and target lists name: labels, functions,
 * target lists and prototypes.  A label that a bra or a .branchtargets
 * list names is put in the map (a block starts there). */
static bool keep_name(void *user, const ptx_node *stmt, const ptx_expr *name, const ptx_symbol *sym)
{
    build *b = user;
    if (sym->kind != PTX_SYM_LABEL && sym->kind != PTX_SYM_FUNCTION)
        return true;
    bool branch = false;
    if (stmt->kind == PTX_NODE_INSTR) {
        enum xfer x = xfer_of((const ptx_instr *)stmt);
        if (x != X_BRA && x != X_BRX && x != X_CALL)
            return true;
        branch = x == X_BRA;
    } else if (stmt->kind == PTX_NODE_TARGETS) {
        branch = ((const ptx_targets *)stmt)->is_branch;
    } else {
        return true;
    }
    if (branch && sym->kind == PTX_SYM_LABEL && sym->decl && sym->decl->kind == PTX_NODE_LABEL)
        pmap_put(b, &b->map, sym->decl, PTX_CFG_NONE - 1);
    if (!b->nrecs || b->recs[b->nrecs - 1].stmt != stmt)
        pmap_put(b, &b->map, stmt, (uint32_t)b->nrecs);
    b->recs = grow(b, b->recs, &b->caprecs, b->nrecs + 1, sizeof *b->recs);
    b->recs[b->nrecs++] = (rec){ stmt, name, sym->decl, (uint8_t)sym->kind };
    return true;
}

/* The records of `stmt`: [*first, end). */
static size_t recs_of(const build *b, const ptx_node *stmt, size_t *end)
{
    uint32_t i = pmap_get(&b->map, stmt);
    if (i == PTX_CFG_NONE) {
        *end = 0;
        return 0;
    }
    size_t e = i;
    while (e < b->nrecs && b->recs[e].stmt == stmt)
        e++;
    *end = e;
    return i;
}

/* ---- the call graph's nodes ------------------------------------------ */

static bool has_noreturn(const ptx_fdir *dirs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (dirs[i].kind == PTX_FDIR_NORETURN)
            return true;
    return false;
}

/* Every function name gets a node: its definition, else its last
 * declaration (ptx_find_function's rule, for all names in one pass). */
static void collect_funcs(build *b)
{
    for (const ptx_node *n = b->m->first; n; n = n->next) {
        if (n->kind != PTX_NODE_FUNC)
            continue;
        const ptx_func *f = (const ptx_func *)n;
        uint32_t i = pmap_get(&b->map, f->name);
        if (i == PTX_CFG_NONE) {
            b->funcs = grow(b, b->funcs, &b->capfuncs, b->nfuncs + 1, sizeof *b->funcs);
            i = b->nfuncs++;
            pmap_put(b, &b->map, f->name, i);
            b->funcs[i] = f;
        } else if (f->body || !b->funcs[i]->body) {
            b->funcs[i] = f;
        }
    }
}

static uint32_t func_index(const build *b, const ptx_node *decl)
{
    if (!decl || decl->kind != PTX_NODE_FUNC)
        return PTX_CFG_NONE;
    return pmap_get(&b->map, ((const ptx_func *)decl)->name);
}

static void add_site(build *b, uint32_t caller, uint32_t callee, ptx_call_kind kind)
{
    if (callee == PTX_CFG_NONE)
        return;
    b->sites = grow(b, b->sites, &b->capsites, b->nsites + 1, sizeof *b->sites);
    b->sites[b->nsites++] = (site){ caller, callee, (uint8_t)kind };
}

static uint64_t param_bytes(const ptx_decl *d)
{
    uint64_t n = ptx_type_bits(d->type) / 8 * (d->vec ? d->vec : 1);
    const ptx_var *v = &d->vars[0];
    for (uint32_t i = 0; i < v->ndims; i++)
        n *= v->dims[i];
    return n;
}

static bool same_sizes(ptx_decl *const *a, uint32_t na, ptx_decl *const *p, uint32_t np)
{
    if (na != np)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (!a[i]->nvars || !p[i]->nvars || param_bytes(a[i]) != param_bytes(p[i]))
            return false;
    return true;
}

static bool matches(const ptx_func *f, const ptx_callproto *p)
{
    return !f->is_entry && same_sizes(f->ret, f->nret, p->ret, p->nret) &&
           same_sizes(f->params, f->nparams, p->params, p->nparams);
}

/* The call at `in` in function `caller`: its edges; whether it returns. */
static bool call_sites(build *b, uint32_t caller, const ptx_instr *in)
{
    size_t end, i = recs_of(b, &in->base, &end);
    /* the callee is the first operand that is not a (list): after the
     * results, if any */
    const ptx_expr *callee = in->nops ? &in->ops[in->nops && in->ops[0].kind == PTX_EXPR_LIST ? 1 : 0] : NULL;
    bool returns = true;
    for (; i < end; i++) {
        const rec *r = &b->recs[i];
        if (r->kind == PTX_SYM_FUNCTION && r->name == callee) {
            add_site(b, caller, func_index(b, r->decl), PTX_CALL_DIRECT);
            const ptx_func *f = (const ptx_func *)r->decl;
            uint32_t k = func_index(b, r->decl);
            if (has_noreturn(f->dirs, f->ndirs) ||
                (k != PTX_CFG_NONE && has_noreturn(b->funcs[k]->dirs, b->funcs[k]->ndirs)))
                returns = false;
        } else if (r->kind == PTX_SYM_LABEL && r->decl && r->decl->kind == PTX_NODE_TARGETS &&
                   !((const ptx_targets *)r->decl)->is_branch) {
            size_t tend, t = recs_of(b, r->decl, &tend);
            for (; t < tend; t++)
                if (b->recs[t].kind == PTX_SYM_FUNCTION)
                    add_site(b, caller, func_index(b, b->recs[t].decl), PTX_CALL_TARGETS);
        } else if (r->kind == PTX_SYM_LABEL && r->decl && r->decl->kind == PTX_NODE_CALLPROTO) {
            const ptx_callproto *p = (const ptx_callproto *)r->decl;
            for (uint32_t k = 0; k < b->nfuncs; k++)
                if (matches(b->funcs[k], p))
                    add_site(b, caller, k, PTX_CALL_PROTOTYPE);
            if (has_noreturn(p->dirs, p->ndirs))
                returns = false;
        }
    }
    return returns;
}

/* ---- one function's blocks and edges ------------------------------------ */

/* The body's statements in source order, nested blocks flattened without
 * recursion, and the runs of statements that share their innermost
 * block.  The stack keeps, for each block entered, the statement after
 * it and the block around it. */
static void flatten(build *b, ptx_block *body)
{
    b->nstmts = 0;
    b->nruns = 0;
    size_t depth = 0;
    ptx_block *in = body;
    ptx_node *n = body->first;
    for (;;) {
        if (!n) {
            if (!depth)
                break;
            depth--;
            in = b->stack[depth].block;
            n = b->stack[depth].next;
            continue;
        }
        if (n->kind == PTX_NODE_BLOCK) {
            b->stack = grow(b, b->stack, &b->capstack, depth + 1, sizeof *b->stack);
            b->stack[depth++] = (struct frame){ n->next, in };
            in = (ptx_block *)n;
            n = in->first;
            continue;
        }
        if (!b->nruns || b->runs[b->nruns - 1].block != in) {
            b->runs = grow(b, b->runs, &b->capruns, b->nruns + 1, sizeof *b->runs);
            b->runs[b->nruns++] = (stmt_run){ (uint32_t)b->nstmts, in };
        }
        if (b->nstmts == b->capstmts)
            b->stmts = grow(b, b->stmts, &b->capstmts, b->nstmts + 1, sizeof *b->stmts);
        b->stmts[b->nstmts++] = n;
        n = n->next;
    }
}

/* The block a label starts, or PTX_CFG_NONE.  A label a branch names
 * always starts its block; checking that it starts block v of this
 * function keeps a label of another one (in a module with errors) from
 * giving an edge. */
static uint32_t label_block(const build *b, const ptx_node *decl, uint32_t nb)
{
    if (!decl || decl->kind != PTX_NODE_LABEL)
        return PTX_CFG_NONE;
    uint32_t v = pmap_get(&b->map, decl);
    if (v >= nb || b->leader_of[v] >= b->nstmts || b->stmts[b->leader_of[v]] != decl)
        return PTX_CFG_NONE;
    return v;
}

typedef struct edges {
    ptx_cfg_edge *e;
    size_t n, cap;
} edges;

static void add_edge(build *b, edges *E, uint32_t from, uint32_t to, ptx_edge_kind kind,
                     const ptx_instr *in, bool negate)
{
    if (to == PTX_CFG_NONE)
        return;
    const ptx_expr *g = in ? ptx_instr_guard(in) : NULL;
    /* one edge each (a brx's: add_switch_edge) */
    if (kind != PTX_EDGE_SWITCH)
        for (size_t i = E->n; i-- > 0 && E->e[i].from == from;)
            if (E->e[i].to == to && E->e[i].kind == kind)
                return;
    E->e = grow(b, E->e, &E->cap, E->n + 1, sizeof *E->e);
    E->e[E->n++] = (ptx_cfg_edge){ from, to, (uint8_t)kind, 0,
                                   (uint8_t)(g ? (in->guard_neg != 0) != negate : 0), 0, g };
}

/* An edge of a brx (whose stamp is b->stamp) to block `to`, once: a list
 * may name a block twice, and a block of a thousand targets took a
 * million steps when each edge looked for its twin among the others. */
static void add_switch_edge(build *b, edges *E, uint32_t from, uint32_t to, const ptx_instr *in)
{
    if (to == PTX_CFG_NONE || b->switched[to] == b->stamp)
        return;
    b->switched[to] = b->stamp;
    add_edge(b, E, from, to, PTX_EDGE_SWITCH, in, false);
}

/* ---- dominators and loops ---------------------------------------------- */

typedef struct work {
    uint32_t *stack, *pos, *pre, *post, *mark, *list;
    /* dominators': by block its preorder index (0: unreachable), by
     * index its block, parent, semidominator, eval's label and ancestor */
    uint32_t *dfn, *vert, *parent, *semi, *label, *anc;
    size_t cap;
} work;

/* eval's path compression without recursion (a chain of blocks is as
 * deep as the function is long): the ancestors of v up to the last
 * whose own ancestor is a root take the least semidominator's label
 * above them, and point at that root. */
static void compress(work *w, uint32_t v)
{
    uint32_t sp = 0;
    while (w->anc[w->anc[v]]) {
        w->stack[sp++] = v;
        v = w->anc[v];
    }
    while (sp) {
        uint32_t y = w->stack[--sp], a = w->anc[y];
        if (w->semi[w->label[a]] < w->semi[w->label[y]])
            w->label[y] = w->label[a];
        w->anc[y] = w->anc[a];
    }
}

/* Dominators by Semi-NCA (Georgiadis and Tarjan): semidominators by
 * link and eval over a depth-first preorder, then each block's
 * immediate dominator, the nearest ancestor of its parent in the tree at
 * or above its semidominator.  The iterative algorithm of Cooper,
 * Harvey and Kennedy that it replaces took N^2 steps where N blocks
 * branch to one (a function's common exit: 80,000 took 12 s); then
 * pre/post numbers of the dominator tree, so that "a dominates b" is two
 * comparisons.  Numbers are preorder indices from 1. */
static void dominators(ptx_cfg *c, ptx_cfg_block *bl, work *w)
{
    uint32_t N = c->nblocks + 1;
    const ptx_cfg_edge *E = c->edges;
    uint32_t *dfn = w->dfn, *vert = w->vert, *idom = w->pre;
    uint32_t n = 0, sp = 0;
    for (uint32_t i = 0; i < N; i++)
        dfn[i] = 0;
    /* preorder by an explicit DFS stack: node and next successor */
    dfn[0] = ++n;
    vert[n] = 0;
    w->parent[n] = 0;
    w->stack[sp] = 0;
    w->pos[sp++] = 0;
    while (sp) {
        uint32_t v = w->stack[sp - 1], k = w->pos[sp - 1];
        if (k < bl[v].nsucc) {
            w->pos[sp - 1]++;
            uint32_t s = E[bl[v].succ[k]].to;
            if (!dfn[s]) {
                dfn[s] = ++n;
                vert[n] = s;
                w->parent[n] = dfn[v];
                w->stack[sp] = s;
                w->pos[sp++] = 0;
            }
        } else {
            sp--;
        }
    }
    for (uint32_t i = 0; i < N; i++) {
        bl[i].idom = PTX_CFG_NONE;
        bl[i].reachable = dfn[i] != 0;
    }
    for (uint32_t i = 0; i <= n; i++) {
        w->semi[i] = w->label[i] = i;
        w->anc[i] = 0;
    }
    /* semidominators, in reverse preorder: the least over the
     * predecessors p of eval(p) (p itself when it comes before) */
    for (uint32_t i = n; i >= 2; i--) {
        uint32_t v = vert[i];
        for (uint32_t j = 0; j < bl[v].npred; j++) {
            uint32_t p = dfn[E[bl[v].pred[j]].from];
            if (!p)
                continue;
            if (w->anc[p]) {
                compress(w, p);
                p = w->label[p];
            }
            if (w->semi[p] < w->semi[i])
                w->semi[i] = w->semi[p];
        }
        w->anc[i] = w->parent[i];
    }
    /* immediate dominators, in preorder: a parent's is known first */
    idom[1] = 1;
    for (uint32_t i = 2; i <= n; i++) {
        uint32_t d = w->parent[i];
        while (d > w->semi[i])
            d = idom[d];
        idom[i] = d;
    }
    for (uint32_t i = 2; i <= n; i++)
        bl[vert[i]].idom = vert[idom[i]];
    /* the dominator tree's children as lists (list: next sibling, mark:
     * first child), then pre/post numbers by a DFS without recursion */
    for (uint32_t i = 0; i < N; i++)
        w->mark[i] = w->list[i] = PTX_CFG_NONE;
    for (uint32_t i = N; i-- > 1;)
        if (bl[i].idom != PTX_CFG_NONE) {
            w->list[i] = w->mark[bl[i].idom];
            w->mark[bl[i].idom] = i;
        }
    for (uint32_t i = 0; i < N; i++)
        w->pre[i] = w->post[i] = 0;
    uint32_t clock = 0;
    sp = 0;
    w->stack[sp++] = 0;
    w->pre[0] = ++clock;
    while (sp) {
        uint32_t v = w->stack[sp - 1], ch = w->mark[v];
        if (ch != PTX_CFG_NONE) {
            w->mark[v] = w->list[ch];   /* the next child, next time */
            w->pre[ch] = ++clock;
            w->stack[sp++] = ch;
        } else {
            w->post[v] = ++clock;
            sp--;
        }
    }
}

static bool dominates(const work *w, uint32_t a, uint32_t b)
{
    return w->pre[a] && w->pre[b] && w->pre[a] <= w->pre[b] && w->post[b] <= w->post[a];
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static int by_size_desc(const void *x, const void *y)
{
    const ptx_cfg_loop *a = *(ptx_cfg_loop *const *)x, *b = *(ptx_cfg_loop *const *)y;
    if (a->nblocks != b->nblocks)
        return a->nblocks < b->nblocks ? 1 : -1;
    return a->header < b->header ? -1 : a->header > b->header;
}

static void loops(build *b, ptx_cfg *c, ptx_cfg_block *bl, ptx_cfg_edge *E, work *w)
{
    uint32_t N = c->nblocks + 1, nheaders = 0;
    for (uint32_t i = 0; i < c->nedges; i++) {
        if (!bl[E[i].from].reachable || !dominates(w, E[i].to, E[i].from))
            continue;
        E[i].back = 1;
        if (!bl[E[i].to].loop_header)
            nheaders++;
        bl[E[i].to].loop_header = 1;
    }
    ptx_cfg_loop *L = alloc(b, nheaders, sizeof *L);
    c->loops = L;
    c->nloops = nheaders;
    if (!nheaders)
        return;
    /* each header's loop: a walk backwards from its back edges' sources */
    for (uint32_t i = 0; i < N; i++)
        w->mark[i] = PTX_CFG_NONE;
    uint32_t k = 0;
    for (uint32_t h = 0; h < N; h++) {
        if (!bl[h].loop_header)
            continue;
        uint32_t n = 0, sp = 0;
        w->mark[h] = h;
        w->list[n++] = h;
        for (uint32_t j = 0; j < bl[h].npred; j++) {
            const ptx_cfg_edge *e = &E[bl[h].pred[j]];
            if (e->back && w->mark[e->from] != h) {
                w->mark[e->from] = h;
                w->list[n++] = e->from;
                w->stack[sp++] = e->from;
            }
        }
        while (sp) {
            uint32_t v = w->stack[--sp];
            for (uint32_t j = 0; j < bl[v].npred; j++) {
                uint32_t p = E[bl[v].pred[j]].from;
                if (bl[p].reachable && w->mark[p] != h) {
                    w->mark[p] = h;
                    w->list[n++] = p;
                    w->stack[sp++] = p;
                }
            }
        }
        uint32_t *blocks = alloc(b, n, sizeof *blocks);
        memcpy(blocks, w->list, n * sizeof *blocks);
        qsort(blocks, n, sizeof *blocks, cmp_u32);
        L[k++] = (ptx_cfg_loop){ h, PTX_CFG_NONE, 0, n, blocks };
    }
    /* natural loops with distinct headers are nested or disjoint: taken
     * from the largest down, each block's last loop is its innermost, and
     * a loop's parent is the innermost loop its header was in before it */
    ptx_cfg_loop **bysize = malloc(nheaders * sizeof *bysize);
    if (!bysize)
        longjmp(*b->oom, 1);
    for (uint32_t i = 0; i < nheaders; i++)
        bysize[i] = &L[i];
    qsort(bysize, nheaders, sizeof *bysize, by_size_desc);
    for (uint32_t i = 0; i < N; i++)
        bl[i].loop = PTX_CFG_NONE;
    for (uint32_t i = 0; i < nheaders; i++) {
        ptx_cfg_loop *l = bysize[i];
        uint32_t self = (uint32_t)(l - L);
        l->parent = bl[l->header].loop;
        l->depth = l->parent == PTX_CFG_NONE ? 1 : L[l->parent].depth + 1;
        for (uint32_t j = 0; j < l->nblocks; j++)
            bl[l->blocks[j]].loop = self;
        if (l->depth > c->max_loop_depth)
            c->max_loop_depth = l->depth;
    }
    free(bysize);
    for (uint32_t i = 0; i < N; i++)
        bl[i].loop_depth = bl[i].loop == PTX_CFG_NONE ? 0 : L[bl[i].loop].depth;
}

/* ---- one function ------------------------------------------------------- */

static void grow_work(build *b, work *w, size_t n)
{
    if (n <= w->cap)
        return;
    uint32_t **arrays[] = { &w->stack, &w->pos, &w->pre, &w->post, &w->mark, &w->list,
                            &w->dfn, &w->vert, &w->parent, &w->semi, &w->label, &w->anc };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        uint32_t *p = realloc(*arrays[i], n * sizeof **arrays[i]);
        if (!p)
            longjmp(*b->oom, 1);
        *arrays[i] = p;
    }
    w->cap = n;
}

/* How the block ending at statement `s` leaves: a transfer (X_BRA, X_BRX,
 * X_RET, the last also for a call that does not return) or X_NONE. */
static void build_cfg(build *b, cfg_full *full, uint32_t caller, work *w, edges *E, uint8_t **term, size_t *capterm)
{
    ptx_cfg *c = &full->pub;
    const ptx_func *f = c->func;
    flatten(b, f->body);
    uint32_t ns = (uint32_t)b->nstmts;
    b->leader_of = grow(b, b->leader_of, &b->capleader, ns + 1, sizeof *b->leader_of);
    *term = grow(b, *term, capterm, ns + 2, 1);
    /* blocks: leader_of[k] is where block k starts */
    uint32_t nb = 1;
    b->leader_of[0] = 0;
    (*term)[0] = X_NONE;
    bool cut = false;
    for (uint32_t i = 0; i < ns; i++) {
        const ptx_node *n = b->stmts[i];
        bool target = n->kind == PTX_NODE_LABEL && pmap_get(&b->map, n) != PTX_CFG_NONE;
        if ((cut || target) && b->leader_of[nb - 1] != i) {
            b->leader_of[nb] = i;
            (*term)[nb++] = X_NONE;
        }
        cut = false;
        if (target)
            pmap_put(b, &b->map, n, nb - 1);
        if (n->kind != PTX_NODE_INSTR)
            continue;
        const ptx_instr *in = (const ptx_instr *)n;
        enum xfer x = xfer_of(in);
        if (x == X_CALL) {
            c->ncalls++;
            if (!call_sites(b, caller, in))
                x = X_RET;
            else
                x = X_NONE;
        }
        if (x != X_NONE) {
            (*term)[nb - 1] = (uint8_t)x;
            cut = true;
        }
    }
    b->leader_of[nb] = ns;
    /* edges, block by block */
    E->n = 0;
    if (nb + 1 > b->capswitched) {
        size_t old = b->capswitched;
        b->switched = grow(b, b->switched, &b->capswitched, nb + 1, sizeof *b->switched);
        memset(b->switched + old, 0, (b->capswitched - old) * sizeof *b->switched);
    }
    for (uint32_t k = 0; k < nb; k++) {
        uint32_t last = b->leader_of[k + 1];
        const ptx_instr *in = (*term)[k] != X_NONE ? (const ptx_instr *)b->stmts[last - 1] : NULL;
        if (!in) {
            add_edge(b, E, k, k + 1, PTX_EDGE_FALL, NULL, false);
            continue;
        }
        size_t end, r = recs_of(b, &in->base, &end);
        if ((*term)[k] == X_BRA) {
            for (; r < end; r++)
                if (b->recs[r].kind == PTX_SYM_LABEL)
                    add_edge(b, E, k, label_block(b, b->recs[r].decl, nb), PTX_EDGE_BRANCH, in, false);
        } else if ((*term)[k] == X_BRX) {
            b->stamp++;
            for (; r < end; r++) {
                const ptx_node *t = b->recs[r].decl;
                if (b->recs[r].kind != PTX_SYM_LABEL || !t || t->kind != PTX_NODE_TARGETS)
                    continue;
                size_t tend, j = recs_of(b, t, &tend);
                for (; j < tend; j++)
                    if (b->recs[j].kind == PTX_SYM_LABEL)
                        add_switch_edge(b, E, k, label_block(b, b->recs[j].decl, nb), in);
            }
        } else {
            add_edge(b, E, k, nb, PTX_EDGE_EXIT, in, false);
        }
        if (ptx_instr_guard(in))
            add_edge(b, E, k, k + 1, PTX_EDGE_FALL, in, true);
    }
    /* into the arena: statements, blocks (and the exit node), edges */
    c->nstmts = ns;
    ptx_node **stmts = alloc(b, ns, sizeof *stmts);
    if (ns)
        memcpy(stmts, b->stmts, ns * sizeof *stmts);
    full->stmts = stmts;
    c->stmts = (const ptx_node *const *)stmts;
    if (b->nruns > 1 || (b->nruns == 1 && b->runs[0].block != f->body)) {
        stmt_run *runs = alloc(b, b->nruns, sizeof *runs);
        memcpy(runs, b->runs, b->nruns * sizeof *runs);
        full->runs = runs;
        full->nruns = (uint32_t)b->nruns;
    }
    full->g = b->g;
    c->nblocks = nb;
    ptx_cfg_block *bl = alloc(b, nb + 1, sizeof *bl);
    c->blocks = bl;
    for (uint32_t k = 0; k <= nb; k++) {
        bl[k].first = k < nb ? b->leader_of[k] : ns;
        bl[k].count = k < nb ? b->leader_of[k + 1] - b->leader_of[k] : 0;
        for (uint32_t i = bl[k].first; i < bl[k].first + bl[k].count; i++) {
            const ptx_node *n = stmts[i];
            if (n->kind == PTX_NODE_INSTR)
                bl[k].ninstrs++;
            else if (n->kind == PTX_NODE_LABEL && !bl[k].label && !bl[k].ninstrs)
                bl[k].label = (const ptx_label *)n;
        }
    }
    c->nedges = (uint32_t)E->n;
    ptx_cfg_edge *ce = alloc(b, E->n, sizeof *ce);
    if (E->n)
        memcpy(ce, E->e, E->n * sizeof *ce);
    c->edges = ce;
    for (size_t i = 0; i < E->n; i++) {
        bl[ce[i].from].nsucc++;
        bl[ce[i].to].npred++;
    }
    uint32_t *lists = alloc(b, 2 * E->n, sizeof *lists);
    for (uint32_t k = 0; k <= nb; k++) {
        bl[k].succ = lists;
        lists += bl[k].nsucc;
        bl[k].pred = lists;
        lists += bl[k].npred;
        bl[k].nsucc = bl[k].npred = 0;
    }
    for (uint32_t i = 0; i < c->nedges; i++) {
        ptx_cfg_block *from = &bl[ce[i].from], *to = &bl[ce[i].to];
        ((uint32_t *)from->succ)[from->nsucc++] = i;
        ((uint32_t *)to->pred)[to->npred++] = i;
    }
    grow_work(b, w, nb + 2);
    dominators(c, bl, w);
    loops(b, c, bl, ce, w);
}

/* ---- the call graph ----------------------------------------------------- */

static int by_site(const void *x, const void *y)
{
    const site *a = x, *b = y;
    if (a->caller != b->caller)
        return a->caller < b->caller ? -1 : 1;
    if (a->callee != b->callee)
        return a->callee < b->callee ? -1 : 1;
    return (a->kind > b->kind) - (a->kind < b->kind);
}

/* Tarjan's strongly connected components without recursion: a function
 * in a component of two or more, or calling itself, is recursive. */
static void mark_recursion(build *b, ptx_cg_func *F, uint32_t n, const ptx_call_edge *E, work *w)
{
    grow_work(b, w, (size_t)n + 1);
    uint32_t *index = w->pre, *low = w->post, *onstk = w->mark, *S = w->list;
    uint32_t *cs = w->stack, *pos = w->pos, next = 1, sn = 0;
    for (uint32_t i = 0; i < n; i++)
        index[i] = 0, onstk[i] = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root])
            continue;
        uint32_t sp = 0;
        cs[sp] = root;
        pos[sp++] = 0;
        index[root] = low[root] = next++;
        S[sn++] = root;
        onstk[root] = 1;
        while (sp) {
            uint32_t v = cs[sp - 1];
            if (pos[sp - 1] < F[v].nout) {
                uint32_t u = E[F[v].out[pos[sp - 1]++]].callee;
                if (u == v)
                    F[v].recursive = 1;
                if (!index[u]) {
                    index[u] = low[u] = next++;
                    S[sn++] = u;
                    onstk[u] = 1;
                    cs[sp] = u;
                    pos[sp++] = 0;
                } else if (onstk[u] && index[u] < low[v]) {
                    low[v] = index[u];
                }
                continue;
            }
            sp--;
            if (sp && low[v] < low[cs[sp - 1]])
                low[cs[sp - 1]] = low[v];
            if (low[v] != index[v])
                continue;
            uint32_t size = 0, top = sn;
            do {
                onstk[S[--sn]] = 0;
                size++;
            } while (S[sn] != v);
            for (uint32_t i = sn; i < top && size > 1; i++)
                F[S[i]].recursive = 1;
        }
    }
}

static void build_callgraph(build *b, const uint32_t *cfg_of, work *w)
{
    ptx_callgraph *cg = &b->g->cg;
    if (b->nsites)      /* qsort and memcpy take no NULL, even for 0 items */
        qsort(b->sites, b->nsites, sizeof *b->sites, by_site);
    size_t ne = 0;
    for (size_t i = 0; i < b->nsites; i++)
        ne += !i || by_site(&b->sites[i - 1], &b->sites[i]) != 0;
    ptx_call_edge *E = alloc(b, ne, sizeof *E);
    ptx_cg_func *F = alloc(b, b->nfuncs, sizeof *F);
    ne = 0;
    for (size_t i = 0; i < b->nsites; i++) {
        const site *s = &b->sites[i];
        if (!i || by_site(&b->sites[i - 1], s) != 0)
            E[ne++] = (ptx_call_edge){ s->caller, s->callee, s->kind, 0 };
        E[ne - 1].sites++;
    }
    for (uint32_t i = 0; i < b->nfuncs; i++) {
        F[i].func = b->funcs[i];
        F[i].root = b->funcs[i]->is_entry;
        F[i].cfg = cfg_of[i] == PTX_CFG_NONE ? NULL : &b->g->cfgs[cfg_of[i]].pub;
    }
    for (size_t i = 0; i < ne; i++) {
        F[E[i].caller].nout++;
        F[E[i].callee].nin++;
    }
    uint32_t *lists = alloc(b, 2 * ne, sizeof *lists);
    for (uint32_t i = 0; i < b->nfuncs; i++) {
        F[i].out = lists;
        lists += F[i].nout;
        F[i].in = lists;
        lists += F[i].nin;
        F[i].nout = F[i].nin = 0;
    }
    for (uint32_t i = 0; i < ne; i++) {
        ((uint32_t *)F[E[i].caller].out)[F[E[i].caller].nout++] = i;
        ((uint32_t *)F[E[i].callee].in)[F[E[i].callee].nin++] = i;
    }
    mark_recursion(b, F, b->nfuncs, E, w);
    cg->nfuncs = b->nfuncs;
    cg->funcs = F;
    cg->nedges = (uint32_t)ne;
    cg->edges = E;
}

/* ---- the whole module ---------------------------------------------------- */

typedef struct scratch {
    work w;
    edges E;
    uint8_t *term;
    size_t capterm;
    uint32_t *cfg_of;
} scratch;

static void build_all(build *b, scratch *s)
{
    if (ptx_sema_names(b->m, keep_name, b) != PTX_OK)
        longjmp(*b->oom, 1);
    collect_funcs(b);
    ptx_graphs *g = b->g;
    uint32_t n = 0;
    for (const ptx_node *it = b->m->first; it; it = it->next)
        n += it->kind == PTX_NODE_FUNC && ((const ptx_func *)it)->body;
    g->cfgs = alloc(b, n, sizeof *g->cfgs);
    s->cfg_of = malloc(((size_t)b->nfuncs + 1) * sizeof *s->cfg_of);
    if (!s->cfg_of)
        longjmp(*b->oom, 1);
    for (uint32_t i = 0; i < b->nfuncs; i++)
        s->cfg_of[i] = PTX_CFG_NONE;
    for (const ptx_node *it = b->m->first; it; it = it->next) {
        if (it->kind != PTX_NODE_FUNC || !((const ptx_func *)it)->body)
            continue;
        const ptx_func *f = (const ptx_func *)it;
        uint32_t caller = pmap_get(&b->map, f->name);
        cfg_full *c = &g->cfgs[g->ncfgs];
        c->pub.func = f;
        if (b->funcs[caller] == f)
            s->cfg_of[caller] = g->ncfgs;
        g->ncfgs++;
        build_cfg(b, c, caller, &s->w, &s->E, &s->term, &s->capterm);
    }
    build_callgraph(b, s->cfg_of, &s->w);
}

static void build_free(build *b, scratch *s)
{
    free(b->recs);
    free(b->map.keys);
    free(b->map.vals);
    free(b->stmts);
    free(b->runs);
    free(b->stack);
    free(b->leader_of);
    free(b->switched);
    free(b->sites);
    free(b->funcs);
    uint32_t *arrays[] = { s->w.stack, s->w.pos, s->w.pre, s->w.post, s->w.mark, s->w.list,
                           s->w.dfn, s->w.vert, s->w.parent, s->w.semi, s->w.label, s->w.anc };
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    free(s->E.e);
    free(s->term);
    free(s->cfg_of);
}

ptx_status ptx_graphs_build(const ptx_module *m, ptx_graphs **out)
{
    if (!out)
        return PTX_ERR_USAGE;
    *out = NULL;
    if (!m)
        return PTX_ERR_USAGE;
    ptx_graphs *g = calloc(1, sizeof *g);
    if (!g)
        return PTX_ERR_NOMEM;
    jmp_buf oom;
    build b;
    scratch s;
    memset(&b, 0, sizeof b);
    memset(&s, 0, sizeof s);
    b.oom = &oom;
    b.g = g;
    b.m = m;
    ptx_arena_init(&g->arena);
    g->arena.oom = &oom;
    if (setjmp(oom)) {
        build_free(&b, &s);
        ptx_graphs_free(g);
        return PTX_ERR_NOMEM;
    }
    /* called through a volatile pointer so that the work is not inlined
     * here: its locals must not live in the frame that setjmp saved */
    void (*volatile run)(build *, scratch *) = build_all;
    /* counted before: an edit made while they are built makes them stale */
    g->edits = ptx_edit_count();
    run(&b, &s);
    build_free(&b, &s);
    g->arena.oom = NULL;
    *out = g;
    return PTX_OK;
}

void ptx_graphs_free(ptx_graphs *g)
{
    if (!g)
        return;
    ptx_arena_release(&g->arena);
    free(g);
}

ptx_status ptx_graphs_build_pinned(const ptx_module *m, ptx_graphs **out)
{
    ptx_status st = ptx_graphs_build(m, out);
    if (st == PTX_OK)
        (*out)->pinned = true;
    return st;
}

bool ptx_graphs_stale(const ptx_graphs *g)
{
    return g && !g->pinned && g->edits != ptx_edit_count();
}

/* The graphs when they still describe the tree, else NULL */
static const ptx_graphs *fresh(const ptx_graphs *g)
{
    return g && !ptx_graphs_stale(g) ? g : NULL;
}

uint32_t ptx_graphs_count(const ptx_graphs *g)
{
    return fresh(g) ? g->ncfgs : 0;
}

const ptx_cfg *ptx_graphs_cfg(const ptx_graphs *g, uint32_t i)
{
    return fresh(g) && i < g->ncfgs ? &g->cfgs[i].pub : NULL;
}

const ptx_cfg *ptx_graphs_cfg_of(const ptx_graphs *g, const ptx_func *f)
{
    if (!fresh(g) || !f)
        return NULL;
    /* the graphs are in source order: search by offset, then look
     * around for functions a program made (no offset) */
    uint32_t lo = 0, hi = g->ncfgs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->cfgs[mid].pub.func->base.span.off < f->base.span.off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < g->ncfgs && g->cfgs[lo].pub.func == f)
        return &g->cfgs[lo].pub;
    for (uint32_t i = 0; i < g->ncfgs; i++)
        if (g->cfgs[i].pub.func == f)
            return &g->cfgs[i].pub;
    return NULL;
}

const ptx_callgraph *ptx_graphs_callgraph(const ptx_graphs *g)
{
    return fresh(g) ? &g->cg : NULL;
}

/* A ptx_cfg the library handed out is the first member of a cfg_full;
 * NULL when its graphs are stale or i is past its statements. */
static const cfg_full *full_of(const ptx_cfg *c, uint32_t i)
{
    const cfg_full *f = (const cfg_full *)c;
    return c && i < c->nstmts && fresh(f->g) ? f : NULL;
}

ptx_node *ptx_cfg_stmt(const ptx_cfg *c, uint32_t i)
{
    const cfg_full *f = full_of(c, i);
    return f ? f->stmts[i] : NULL;
}

ptx_block *ptx_cfg_stmt_block(const ptx_cfg *c, uint32_t i)
{
    const cfg_full *f = full_of(c, i);
    if (!f)
        return NULL;
    if (!f->nruns)
        return c->func->body;
    /* the last run that starts at or before i (runs[0].first is 0) */
    uint32_t lo = 0, hi = f->nruns;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->runs[mid].first <= i)
            lo = mid;
        else
            hi = mid;
    }
    return f->runs[lo].block;
}

const char *ptx_edge_kind_name(ptx_edge_kind k)
{
    static const char *const names[] = { "fall", "branch", "switch", "exit" };
    return (unsigned)k < PTX_EDGE_KIND_COUNT ? names[k] : NULL;
}

const char *ptx_call_kind_name(ptx_call_kind k)
{
    static const char *const names[] = { "direct", "calltargets", "prototype" };
    return (unsigned)k < PTX_CALL_KIND_COUNT ? names[k] : NULL;
}
