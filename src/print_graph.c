/* The graphs of cfg.c as Graphviz DOT or JSON (ptx-front --cfg,
 * --callgraph; the JSON as tools/graph.schema.json describes it).  Text
 * from the module (names, instructions) goes through an escaping writer,
 * so that it can never end a DOT or JSON string early. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct gp {
    ptx_out *o;
    ptx_out *esc;               /* writes into o, escaped */
    const ptx_context *ctx;
    size_t line_hint;
    bool json, full;
} gp;

/* The escaping writer's sink: DOT and JSON strings escape the same two
 * characters; the rest cannot occur in PTX names and instructions, but a
 * control character is dropped from DOT and written \u00XX in JSON. */
static int write_dot_escaped(void *user, const char *s, size_t n)
{
    ptx_out *o = user;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            ptx_out_char(o, '\\');
        if (c >= 0x20 && c < 0x7f)
            ptx_out_char(o, (char)c);
    }
    return 0;
}

static int write_json_escaped(void *user, const char *s, size_t n)
{
    ptx_out_json_chars(user, s, n);
    return 0;
}

/* Text inside a string being written. */
static void esc_str(gp *p, const char *s)
{
    ptx_out_str(p->esc, s);
    ptx_out_flush(p->esc);
}

static void esc_instr(gp *p, const ptx_instr *in)
{
    ptx_out_instr_line(p->esc, in);
    ptx_out_flush(p->esc);
}

/* A whole string: "text" */
static void str(gp *p, const char *s)
{
    ptx_out_char(p->o, '"');
    esc_str(p, s);
    ptx_out_char(p->o, '"');
}

static uint32_t line_of(gp *p, const ptx_node *n)
{
    if (!p->ctx || n->span.off == PTX_NO_OFFSET)
        return 0;
    return ptx_position_near(p->ctx, n->span.off, &p->line_hint).line;
}

/* The first and last source lines of a block's statements (0: none). */
static void block_lines(gp *p, const ptx_cfg *c, const ptx_cfg_block *b, uint32_t *lo, uint32_t *hi)
{
    *lo = *hi = 0;
    for (uint32_t i = b->first; i < b->first + b->count && !*lo; i++)
        *lo = line_of(p, c->stmts[i]);
    for (uint32_t i = b->first + b->count; i-- > b->first && !*hi;)
        *hi = line_of(p, c->stmts[i]);
}

static const char *func_kind(const ptx_func *f)
{
    return f->is_entry ? "kernel" : "function";
}

/* ---- --cfg ---------------------------------------------------------------- */

static void dot_guard(gp *p, const ptx_cfg_edge *e)
{
    ptx_out_str(p->esc, e->guard_neg ? "@!" : "@");
    ptx_out_name(p->esc, ptx_expr_name(e->guard));
    ptx_out_flush(p->esc);
}

/* The module's functions are one digraph, each a cluster (f<i>), so that
 * dot draws one picture: blocks are f<i>b<k>. */
static void dot_cfg_head(gp *p)
{
    ptx_out *o = p->o;
    ptx_out_str(o, "digraph \"cfg\" {\n  graph [label=\"control flow");
    if (p->ctx) {
        ptx_out_str(o, " of ");
        esc_str(p, ptx_context_filename(p->ctx));
    }
    ptx_out_str(o, "\", labelloc=t, fontname=\"Helvetica\"];\n"
                   "  node [shape=box, fontname=\"Courier\", fontsize=10];\n"
                   "  edge [fontname=\"Helvetica\", fontsize=9];\n");
}

static void dot_cfg(gp *p, const ptx_cfg *c, uint32_t fi)
{
    ptx_out *o = p->o;
    ptx_out_fmt(o, "  subgraph \"cluster_f%u\" {\n    graph [label=\"", fi);
    esc_str(p, func_kind(c->func));
    ptx_out_char(o, ' ');
    esc_str(p, c->func->name->text);
    ptx_out_str(o, "\"];\n");
    /* short labels are centred lines (\n between them); full ones are
     * left-justified, each line ended by \l */
    const char *eol = p->full ? "\\l" : "\\n";
    for (uint32_t k = 0; k < c->nblocks; k++) {
        const ptx_cfg_block *b = &c->blocks[k];
        uint32_t lo, hi;
        block_lines(p, c, b, &lo, &hi);
        ptx_out_fmt(o, "    f%ub%u [label=\"B%u", fi, k, k);
        if (b->label) {
            ptx_out_str(o, "  ");
            esc_str(p, b->label->name->text);
        }
        if (lo == hi && lo)
            ptx_out_fmt(o, "%sline %u", eol, lo);
        else if (lo)
            ptx_out_fmt(o, "%slines %u-%u", eol, lo, hi);
        if (b->loop_header)
            ptx_out_fmt(o, "%sloop header, depth %u", eol, b->loop_depth);
        if (p->full)
            ptx_out_str(o, eol);
        for (uint32_t i = b->first; p->full && i < b->first + b->count; i++) {
            const ptx_node *n = c->stmts[i];
            if (n->kind == PTX_NODE_LABEL) {
                esc_str(p, ((const ptx_label *)n)->name->text);
                ptx_out_str(o, ":\\l");
            } else if (n->kind == PTX_NODE_INSTR) {
                ptx_out_str(o, "    ");
                esc_instr(p, (const ptx_instr *)n);
                ptx_out_str(o, "\\l");
            }
        }
        ptx_out_char(o, '"');
        if (b->loop_header)
            ptx_out_str(o, ", style=filled, fillcolor=\"#fff2b3\", penwidth=2");
        else if (!b->reachable)
            ptx_out_str(o, ", style=dashed, color=gray50");
        ptx_out_str(o, "];\n");
    }
    ptx_out_fmt(o, "    f%ub%u [label=\"exit\", shape=oval];\n", fi, c->nblocks);
    for (uint32_t i = 0; i < c->nedges; i++) {
        const ptx_cfg_edge *e = &c->edges[i];
        ptx_out_fmt(o, "    f%ub%u -> f%ub%u", fi, e->from, fi, e->to);
        bool attrs = e->guard || e->back || e->kind != PTX_EDGE_FALL;
        if (!attrs) {
            ptx_out_str(o, ";\n");
            continue;
        }
        ptx_out_str(o, " [");
        const char *sep = "";
        if (e->guard) {
            ptx_out_str(o, "label=\"");
            dot_guard(p, e);
            ptx_out_char(o, '"');
            sep = ", ";
        }
        if (e->back) {
            ptx_out_fmt(o, "%scolor=red, penwidth=2, style=bold", sep);
            sep = ", ";
        }
        if (e->kind == PTX_EDGE_SWITCH)
            ptx_out_fmt(o, "%sarrowhead=diamond", sep);
        else if (e->kind == PTX_EDGE_EXIT)
            ptx_out_fmt(o, "%sstyle=dotted", sep);
        else if (e->kind == PTX_EDGE_BRANCH && !e->back)
            ptx_out_fmt(o, "%scolor=blue", sep);
        ptx_out_str(o, "];\n");
    }
    ptx_out_str(o, "  }\n");
}

static void json_cfg(gp *p, const ptx_cfg *c, bool first)
{
    ptx_out *o = p->o;
    ptx_out_str(o, first ? "{\"name\":" : ",{\"name\":");
    str(p, c->func->name->text);
    ptx_out_fmt(o, ",\"kind\":\"%s\",\"exit\":%u,\"blocks\":[", func_kind(c->func), c->nblocks);
    for (uint32_t k = 0; k < c->nblocks; k++) {
        const ptx_cfg_block *b = &c->blocks[k];
        uint32_t lo, hi;
        block_lines(p, c, b, &lo, &hi);
        ptx_out_fmt(o, "%s{\"id\":%u,\"label\":", k ? "," : "", k);
        if (b->label)
            str(p, b->label->name->text);
        else
            ptx_out_str(o, "null");
        if (lo)
            ptx_out_fmt(o, ",\"lines\":[%u,%u]", lo, hi);
        else
            ptx_out_str(o, ",\"lines\":null");
        ptx_out_fmt(o, ",\"statements\":%u,\"instructions\":%u,\"reachable\":%s,\"idom\":",
                    b->count, b->ninstrs, b->reachable ? "true" : "false");
        if (b->idom == PTX_CFG_NONE)
            ptx_out_str(o, "null");
        else
            ptx_out_fmt(o, "%u", b->idom);
        ptx_out_fmt(o, ",\"loop_header\":%s,\"loop_depth\":%u", b->loop_header ? "true" : "false",
                    b->loop_depth);
        if (p->full) {
            ptx_out_str(o, ",\"code\":[");
            bool any = false;
            for (uint32_t i = b->first; i < b->first + b->count; i++) {
                const ptx_node *n = c->stmts[i];
                if (n->kind != PTX_NODE_LABEL && n->kind != PTX_NODE_INSTR)
                    continue;
                ptx_out_str(o, any ? ",\"" : "\"");
                any = true;
                if (n->kind == PTX_NODE_LABEL) {
                    esc_str(p, ((const ptx_label *)n)->name->text);
                    ptx_out_char(o, ':');
                } else {
                    esc_instr(p, (const ptx_instr *)n);
                }
                ptx_out_char(o, '"');
            }
            ptx_out_char(o, ']');
        }
        ptx_out_char(o, '}');
    }
    ptx_out_str(o, "],\"edges\":[");
    for (uint32_t i = 0; i < c->nedges; i++) {
        const ptx_cfg_edge *e = &c->edges[i];
        ptx_out_fmt(o, "%s{\"from\":%u,\"to\":%u,\"kind\":\"%s\",\"back\":%s,\"guard\":", i ? "," : "",
                    e->from, e->to, ptx_edge_kind_name((ptx_edge_kind)e->kind), e->back ? "true" : "false");
        if (e->guard) {
            ptx_out_char(o, '"');
            dot_guard(p, e);
            ptx_out_char(o, '"');
        } else {
            ptx_out_str(o, "null");
        }
        ptx_out_char(o, '}');
    }
    ptx_out_str(o, "],\"loops\":[");
    for (uint32_t i = 0; i < c->nloops; i++) {
        const ptx_cfg_loop *l = &c->loops[i];
        ptx_out_fmt(o, "%s{\"header\":%u,\"depth\":%u,\"parent\":", i ? "," : "", l->header, l->depth);
        if (l->parent == PTX_CFG_NONE)
            ptx_out_str(o, "null");
        else
            ptx_out_fmt(o, "%u", l->parent);
        ptx_out_str(o, ",\"blocks\":[");
        for (uint32_t j = 0; j < l->nblocks; j++)
            ptx_out_fmt(o, "%s%u", j ? "," : "", l->blocks[j]);
        ptx_out_str(o, "]}");
    }
    ptx_out_fmt(o, "],\"max_loop_depth\":%u,\"calls\":%u}", c->max_loop_depth, c->ncalls);
}

/* Opens the writers and builds the graphs. */
static ptx_status open_gp(gp *p, const ptx_context *ctx, const ptx_module *m, unsigned flags,
                          ptx_write_fn write, void *user, ptx_graphs **g)
{
    memset(p, 0, sizeof *p);
    *g = NULL;
    if (!m || !write)
        return PTX_ERR_USAGE;
    p->ctx = ctx;
    p->json = flags & PTX_GRAPH_JSON;
    p->full = flags & PTX_GRAPH_FULL;
    p->o = malloc(sizeof *p->o);
    p->esc = malloc(sizeof *p->esc);
    ptx_status st = p->o && p->esc ? ptx_graphs_build_pinned(m, g) : PTX_ERR_NOMEM;
    if (st != PTX_OK) {
        free(p->o);
        free(p->esc);
        return st;
    }
    ptx_out_init(p->o, write, user);
    ptx_out_init(p->esc, p->json ? write_json_escaped : write_dot_escaped, p->o);
    return PTX_OK;
}

static ptx_status close_gp(gp *p, ptx_graphs *g)
{
    ptx_graphs_free(g);
    ptx_status st = ptx_out_finish(p->o);
    free(p->o);
    free(p->esc);
    return st;
}

static void json_head(gp *p, const char *graph)
{
    const char *file = p->ctx ? ptx_context_filename(p->ctx) : "";
    ptx_out_fmt(p->o, "{\"schema\":1,\"graph\":\"%s\",\"file\":", graph);
    str(p, file);
    if (p->ctx)
        ptx_out_str(p->o, ptx_error_count(p->ctx) ? ",\"valid\":false" : ",\"valid\":true");
}

ptx_status ptx_print_cfg(const ptx_context *ctx, const ptx_module *m, unsigned flags,
                         ptx_print_filter filter, void *filter_user,
                         ptx_write_fn write, void *user)
{
    gp p;
    ptx_graphs *g;
    ptx_status st = open_gp(&p, ctx, m, flags, write, user, &g);
    if (st != PTX_OK)
        return st;
    if (p.json) {
        json_head(&p, "cfg");
        ptx_out_str(p.o, ",\"functions\":[");
    } else {
        dot_cfg_head(&p);
    }
    bool first = true;
    for (uint32_t i = 0; i < ptx_graphs_count(g) && !p.o->failed; i++) {
        const ptx_cfg *c = ptx_graphs_cfg(g, i);
        if (filter && !filter(&c->func->base, filter_user))
            continue;
        if (p.json)
            json_cfg(&p, c, first);
        else
            dot_cfg(&p, c, i);
        first = false;
    }
    ptx_out_str(p.o, p.json ? "]}\n" : "}\n");
    return close_gp(&p, g);
}

/* ---- --callgraph ------------------------------------------------------------ */

/* Which functions to print: all, or those the filter accepts and the
 * ones they reach (marked in `keep`). */
static void reachable(const ptx_callgraph *cg, ptx_print_filter filter, void *filter_user,
                      uint8_t *keep, uint32_t *queue)
{
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < cg->nfuncs; i++) {
        keep[i] = !filter || filter(&cg->funcs[i].func->base, filter_user);
        if (keep[i] && filter)
            queue[tail++] = i;
    }
    while (head < tail) {
        const ptx_cg_func *f = &cg->funcs[queue[head++]];
        for (uint32_t j = 0; j < f->nout; j++) {
            uint32_t u = cg->edges[f->out[j]].callee;
            if (!keep[u]) {
                keep[u] = 1;
                queue[tail++] = u;
            }
        }
    }
}

ptx_status ptx_print_callgraph(const ptx_context *ctx, const ptx_module *m, unsigned flags,
                               ptx_print_filter filter, void *filter_user,
                               ptx_write_fn write, void *user)
{
    gp p;
    ptx_graphs *g;
    ptx_status st = open_gp(&p, ctx, m, flags, write, user, &g);
    if (st != PTX_OK)
        return st;
    const ptx_callgraph *cg = ptx_graphs_callgraph(g);
    uint8_t *keep = malloc(cg->nfuncs + 1);
    uint32_t *queue = malloc((cg->nfuncs + 1) * sizeof *queue);
    if (!keep || !queue) {
        free(keep);
        free(queue);
        close_gp(&p, g);
        return PTX_ERR_NOMEM;
    }
    reachable(cg, filter, filter_user, keep, queue);
    ptx_out *o = p.o;
    if (p.json) {
        json_head(&p, "callgraph");
        ptx_out_str(o, ",\"functions\":[");
    } else {
        ptx_out_str(o, "digraph \"callgraph\" {\n  graph [label=\"call graph");
        if (ctx) {
            ptx_out_str(o, " of ");
            esc_str(&p, ptx_context_filename(ctx));
        }
        ptx_out_str(o, "\", labelloc=t, fontname=\"Helvetica\"];\n"
                       "  node [fontname=\"Courier\", fontsize=10];\n"
                       "  edge [fontname=\"Helvetica\", fontsize=9];\n");
    }
    bool first = true;
    for (uint32_t i = 0; i < cg->nfuncs; i++) {
        const ptx_cg_func *f = &cg->funcs[i];
        if (!keep[i])
            continue;
        if (p.json) {
            ptx_out_str(o, first ? "{\"name\":" : ",{\"name\":");
            str(&p, f->func->name->text);
            ptx_out_fmt(o, ",\"kind\":\"%s\",\"defined\":%s,\"root\":%s,\"recursive\":%s}",
                        func_kind(f->func), f->func->body ? "true" : "false", f->root ? "true" : "false",
                        f->recursive ? "true" : "false");
        } else {
            ptx_out_fmt(o, "  f%u [label=\"", i);
            esc_str(&p, f->func->name->text);
            ptx_out_fmt(o, "\", shape=%s%s%s];\n", f->root ? "box, style=bold" : "ellipse",
                        f->func->body ? "" : (f->root ? ", color=gray50" : ", style=dashed"),
                        f->recursive ? ", color=red" : "");
        }
        first = false;
    }
    if (p.json)
        ptx_out_str(o, "],\"calls\":[");
    first = true;
    for (uint32_t i = 0; i < cg->nedges; i++) {
        const ptx_call_edge *e = &cg->edges[i];
        if (!keep[e->caller])
            continue;
        const char *kind = ptx_call_kind_name((ptx_call_kind)e->kind);
        if (p.json) {
            ptx_out_str(o, first ? "{\"from\":" : ",{\"from\":");
            str(&p, cg->funcs[e->caller].func->name->text);
            ptx_out_str(o, ",\"to\":");
            str(&p, cg->funcs[e->callee].func->name->text);
            ptx_out_fmt(o, ",\"kind\":\"%s\",\"sites\":%u}", kind, e->sites);
        } else {
            ptx_out_fmt(o, "  f%u -> f%u", e->caller, e->callee);
            if (e->kind != PTX_CALL_DIRECT)
                ptx_out_fmt(o, " [style=dashed, label=\"%s\"]", kind);
            if (e->sites > 1)
                ptx_out_fmt(o, " [taillabel=\"x%u\"]", e->sites);
            ptx_out_str(o, ";\n");
        }
        first = false;
    }
    ptx_out_str(o, p.json ? "]}\n" : "}\n");
    free(keep);
    free(queue);
    return close_gp(&p, g);
}
