/* The tree printer (ptx-front --ast): one line per node, indented by
 * depth, with the source position, then the node's content; operands of
 * instructions get a line each naming their kind. */
#include <stdlib.h>

#include "internal.h"

typedef struct tree {
    ptx_out *o;
    const ptx_context *ctx;
    bool locations;
    size_t line;                /* the line of the last position printed */
} tree;

static void line_start(tree *t, unsigned depth, ptx_span span, const char *what)
{
    ptx_out *o = t->o;
    for (unsigned i = 0; i < depth && i < 64; i++)
        ptx_out_mem(o, "  ", 2);
    if (t->locations && span.off != PTX_NO_OFFSET) {
        ptx_position p = ptx_position_near(t->ctx, span.off, &t->line);
        ptx_out_u64(o, p.line);
        ptx_out_char(o, ':');
        ptx_out_u64(o, p.col);
        ptx_out_char(o, ' ');
    }
    ptx_out_str(o, what);
}

static void out_decl_text(ptx_out *o, const ptx_decl *d)
{
    if (d->attrs & PTX_ATTR_HIDDEN)
        ptx_out_str(o, " .hidden");
    if (d->linkage) {
        ptx_out_char(o, ' ');
        ptx_out_str(o, ptx_linkage_name(d->linkage));
    }
    if (d->space) {
        ptx_out_char(o, ' ');
        ptx_out_str(o, ptx_space_name(d->space));
    }
    if (d->attrs & PTX_ATTR_MANAGED)
        ptx_out_str(o, " .attribute(.managed)");
    if (d->attrs & PTX_ATTR_UNIFIED)
        ptx_out_fmt(o, " .attribute(.unified(%llu, %llu))",
                    (unsigned long long)d->unified[0], (unsigned long long)d->unified[1]);
    if (d->align)
        ptx_out_fmt(o, " .align %u", d->align);
    if (d->vec)
        ptx_out_fmt(o, " .v%u", (unsigned)d->vec);
    if (d->type) {
        ptx_out_char(o, ' ');
        ptx_out_str(o, ptx_type_name(d->type));
    }
    if (d->has_ptr) {
        ptx_out_str(o, " .ptr");
        if (d->ptr_space)
            ptx_out_str(o, ptx_space_name(d->ptr_space));
        if (d->ptr_align)
            ptx_out_fmt(o, ".align %u", d->ptr_align);
    }
    for (uint32_t i = 0; i < d->nvars; i++) {
        const ptx_var *v = &d->vars[i];
        ptx_out_str(o, i ? ", " : " ");
        ptx_out_name(o, v->name);
        if (v->has_range)
            ptx_out_fmt(o, "<%u>", v->range);
        for (uint32_t k = 0; k < v->ndims; k++) {
            if (k == 0 && v->unsized)
                ptx_out_str(o, "[]");
            else
                ptx_out_fmt(o, "[%llu]", (unsigned long long)v->dims[k]);
        }
        if (v->init) {
            ptx_out_str(o, " = ");
            ptx_out_expr(o, v->init);
        }
    }
}

static const char *operand_kind(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: return "int";
    case PTX_EXPR_FLOAT: return "float";
    case PTX_EXPR_F32: return "f32-bits";
    case PTX_EXPR_F64: return "f64-bits";
    case PTX_EXPR_SYM: return ptx_expr_sel(e) ? "name+selector" : "name";
    case PTX_EXPR_SINK: return "sink";
    case PTX_EXPR_UNARY:
        return e->op == PTX_OP_LNOT && ptx_expr_a(e)->kind == PTX_EXPR_SYM ? "not" : "expr";
    case PTX_EXPR_CAST: case PTX_EXPR_BINARY: case PTX_EXPR_COND: case PTX_EXPR_PAREN:
        return "expr";
    case PTX_EXPR_INDEX: return "element";
    case PTX_EXPR_ADDR: return "address";
    case PTX_EXPR_VEC: return "vector";
    case PTX_EXPR_LIST: return "list";
    case PTX_EXPR_PAIR: return "pair";
    case PTX_EXPR_GENERIC: return "generic";
    case PTX_EXPR_MASK: return "mask";
    case PTX_EXPR_FIELD: return "field";
    case PTX_EXPR_RANGE: return "range";
    case PTX_EXPR_COUNT: break;
    }
    return "?";
}

static void out_params(tree *t, unsigned depth, const char *what, ptx_decl *const *ps, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        line_start(t, depth, ps[i]->base.span, what);
        out_decl_text(t->o, ps[i]);
        ptx_out_char(t->o, '\n');
    }
}

static void out_dirs(tree *t, unsigned depth, const ptx_fdir *d, uint32_t n)
{
    ptx_out *o = t->o;
    for (uint32_t i = 0; i < n; i++) {
        line_start(t, depth, d[i].span, "directive ");
        ptx_out_str(o, ptx_fdir_name(d[i].kind));
        for (unsigned k = 0; k < d[i].nvals; k++) {
            ptx_out_str(o, k ? ", " : " ");
            if (d[i].kind == PTX_FDIR_PRAGMA) {
                ptx_out_char(o, '"');
                ptx_out_name(o, d[i].strings[k]);
                ptx_out_char(o, '"');
            } else {
                ptx_out_u64(o, d[i].vals[k]);
            }
        }
        ptx_out_char(o, '\n');
    }
}

/* [base], [base+offset], [offset]: say which part is which */
static void out_addr_parts(ptx_out *o, const ptx_expr *e)
{
    if (e->kind != PTX_EXPR_ADDR || ptx_expr_count(e) != 1)
        return;
    const ptx_expr *a = ptx_expr_item(e, 0);
    if (a->kind == PTX_EXPR_SYM) {
        ptx_out_str(o, "  base ");
        ptx_out_expr(o, a);
    } else if (a->kind == PTX_EXPR_BINARY && a->op == PTX_OP_ADD &&
               ptx_expr_a(a)->kind == PTX_EXPR_SYM) {
        ptx_out_str(o, "  base ");
        ptx_out_expr(o, ptx_expr_a(a));
        ptx_out_str(o, " offset ");
        ptx_out_expr(o, ptx_expr_b(a));
    } else if (a->kind == PTX_EXPR_INT) {
        ptx_out_str(o, "  absolute ");
        ptx_out_expr(o, a);
    }
}

static void out_instr(tree *t, unsigned depth, const ptx_instr *in)
{
    ptx_out *o = t->o;
    line_start(t, depth, in->base.span, "instr ");
    if (ptx_instr_guard(in)) {
        ptx_out_str(o, in->guard_neg ? "@!" : "@");
        ptx_out_name(o, ptx_expr_name(ptx_instr_guard(in)));
        ptx_out_char(o, ' ');
    }
    ptx_out_name(o, ptx_instr_opcode(in));
    if (in->nmods) {
        ptx_out_str(o, "  modifiers");
        for (unsigned i = 0; i < in->nmods; i++) {
            ptx_out_char(o, ' ');
            ptx_out_name(o, in->mods[i].name);
        }
    }
    ptx_out_char(o, '\n');
    for (uint32_t i = 0; i < in->nops; i++) {
        const ptx_expr *e = &in->ops[i];
        line_start(t, depth + 1, ptx_expr_span(e), "operand ");
        ptx_out_u64(o, (uint64_t)i + 1);   /* from 1, as the messages count */
        ptx_out_mem(o, ": ", 2);
        ptx_out_str(o, operand_kind(e));
        if (e->kind == PTX_EXPR_VEC || e->kind == PTX_EXPR_LIST || e->kind == PTX_EXPR_ADDR)
            ptx_out_fmt(o, "[%u]", ptx_expr_count(e));
        ptx_out_char(o, ' ');
        ptx_out_expr(o, e);
        out_addr_parts(o, e);
        ptx_out_char(o, '\n');
    }
}

static void out_node(tree *t, unsigned depth, const ptx_node *n)
{
    ptx_out *o = t->o;
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_FUNC: {
        const ptx_func *f = (const ptx_func *)n;
        line_start(t, depth, n->span, f->is_entry ? "entry " : "func ");
        if (f->linkage) {
            ptx_out_str(o, ptx_linkage_name(f->linkage));
            ptx_out_char(o, ' ');
        }
        ptx_out_name(o, f->name);
        if (!f->body)
            ptx_out_str(o, " (prototype)");
        if (f->attrs & PTX_ATTR_UNIFIED)
            ptx_out_fmt(o, " .attribute(.unified(%llu, %llu))",
                        (unsigned long long)f->unified[0], (unsigned long long)f->unified[1]);
        ptx_out_char(o, '\n');
        out_params(t, depth + 1, "return", f->ret, f->nret);
        out_params(t, depth + 1, "param", f->params, f->nparams);
        out_dirs(t, depth + 1, f->dirs, f->ndirs);
        return;
    }
    case PTX_NODE_ALIAS: {
        const ptx_alias *a = (const ptx_alias *)n;
        line_start(t, depth, n->span, "alias ");
        ptx_out_name(o, a->alias);
        ptx_out_str(o, " = ");
        ptx_out_name(o, a->aliasee);
        break;
    }
    case PTX_NODE_FILE: {
        const ptx_file *f = (const ptx_file *)n;
        line_start(t, depth, n->span, "file ");
        ptx_out_u64(o, f->index);
        ptx_out_str(o, " \"");
        ptx_out_name(o, f->path);
        ptx_out_char(o, '"');
        if (f->has_info)
            ptx_out_fmt(o, " timestamp %llu", (unsigned long long)f->timestamp);
        if (f->has_size)
            ptx_out_fmt(o, " size %llu", (unsigned long long)f->size);
        break;
    }
    case PTX_NODE_SECTION:
        line_start(t, depth, n->span, "section ");
        ptx_out_name(o, ((const ptx_section *)n)->name);
        break;
    case PTX_NODE_TARGET: {
        const ptx_target *tg = (const ptx_target *)n;
        line_start(t, depth, n->span, "target");
        for (uint32_t i = 0; i < tg->count; i++) {
            ptx_out_char(o, ' ');
            ptx_out_name(o, tg->names[i]);
        }
        break;
    }
    case PTX_NODE_DWARF:
        line_start(t, depth, n->span, "dwarf ");
        ptx_out_name(o, ((const ptx_dwarf *)n)->text);
        break;
    case PTX_NODE_DECL:
        line_start(t, depth, n->span, "decl");
        out_decl_text(o, (const ptx_decl *)n);
        break;
    case PTX_NODE_PRAGMA: {
        const ptx_pragma *p = (const ptx_pragma *)n;
        line_start(t, depth, n->span, "pragma");
        for (uint32_t i = 0; i < p->nstrings; i++) {
            ptx_out_str(o, i ? ", \"" : " \"");
            ptx_out_name(o, p->strings[i]);
            ptx_out_char(o, '"');
        }
        break;
    }
    case PTX_NODE_INSTR:
        out_instr(t, depth, (const ptx_instr *)n);
        return;
    case PTX_NODE_LABEL:
        line_start(t, depth, n->span, "label ");
        ptx_out_name(o, ((const ptx_label *)n)->name);
        break;
    case PTX_NODE_BLOCK:
        line_start(t, depth, n->span, "block");
        break;
    case PTX_NODE_LOC: {
        const ptx_loc *l = (const ptx_loc *)n;
        line_start(t, depth, n->span, "loc ");
        ptx_out_fmt(o, "file %u line %u col %u", l->file, l->line, l->col);
        if (l->function_name) {
            ptx_out_str(o, " function_name ");
            ptx_out_name(o, l->function_name);
            if (l->function_offset)
                ptx_out_fmt(o, "+%llu", (unsigned long long)l->function_offset);
        }
        if (l->has_inlined_at)
            ptx_out_fmt(o, " inlined_at %u %u %u", l->in_file, l->in_line, l->in_col);
        break;
    }
    case PTX_NODE_CALLPROTO: {
        const ptx_callproto *p = (const ptx_callproto *)n;
        line_start(t, depth, n->span, "callprototype ");
        ptx_out_name(o, p->label);
        ptx_out_char(o, '\n');
        out_params(t, depth + 1, "return", p->ret, p->nret);
        out_params(t, depth + 1, "param", p->params, p->nparams);
        out_dirs(t, depth + 1, p->dirs, p->ndirs);
        return;
    }
    case PTX_NODE_TARGETS: {
        const ptx_targets *tg = (const ptx_targets *)n;
        line_start(t, depth, n->span, tg->is_branch ? "branchtargets " : "calltargets ");
        ptx_out_name(o, tg->label);
        for (uint32_t i = 0; i < tg->count; i++) {
            ptx_out_str(o, i ? ", " : " ");
            ptx_out_expr(o, tg->names[i]);
        }
        break;
    }
    case PTX_NODE_DATA: {
        const ptx_data *d = (const ptx_data *)n;
        if (d->width) {
            /* a run prints as the lines it stands for, each where it was */
            const char *src = t->locations && t->ctx ? t->ctx->src : NULL;
            uint32_t off = n->span.off;
            for (uint32_t k = 0; k < d->nlines; k++) {
                if (k)
                    ptx_out_char(o, '\n');
                ptx_span at = { src && off != PTX_NO_OFFSET ? off : PTX_NO_OFFSET, 0 };
                line_start(t, depth, at, "data ");
                ptx_out_data_line(o, d, k);
                if (src && off != PTX_NO_OFFSET) {
                    while (src[off] != '\n')
                        off++;
                    while (src[off] == '\n' || src[off] == ' ' || src[off] == '\t')
                        off++;
                }
            }
            break;
        }
        line_start(t, depth, n->span, "data ");
        ptx_out_name(o, d->word);
        for (uint32_t i = 0; i < d->count; i++) {
            ptx_out_str(o, i ? ", " : " ");
            ptx_out_expr(o, d->values[i]);
        }
        break;
    }
    case PTX_NODE_COUNT:
        break;
    }
    ptx_out_char(o, '\n');
}

ptx_status ptx_print_tree(const ptx_context *ctx, const ptx_module *m,
                          unsigned flags, ptx_write_fn write, void *user)
{
    return ptx_print_tree_items(ctx, m, flags, NULL, NULL, write, user);
}

/* --ast --compact: "file:line  opcode.mods  operands", for grep and diff */
static void out_compact(tree *t, const ptx_instr *in)
{
    ptx_out *o = t->o;
    if (t->ctx) {
        ptx_out_str(o, ptx_context_filename(t->ctx));
        ptx_out_char(o, ':');
        if (in->base.span.off != PTX_NO_OFFSET)
            ptx_out_u64(o, ptx_position_near(t->ctx, in->base.span.off, &t->line).line);
        ptx_out_str(o, "  ");
    }
    ptx_out_instr_line(o, in);
    ptx_out_char(o, '\n');
}

ptx_status ptx_print_tree_items(const ptx_context *ctx, const ptx_module *m, unsigned flags,
                                ptx_print_filter filter, void *filter_user,
                                ptx_write_fn write, void *user)
{
    ptx_out *o;
    ptx_iter *it;
    ptx_status st = ptx_printer_open(m, write, user, &o, &it);
    if (st != PTX_OK)
        return st;
    tree t = { o, ctx, ctx && !(flags & PTX_PRINT_NO_LOCATIONS), 0 };
    bool compact = flags & PTX_PRINT_COMPACT;
    if (!compact) {
        ptx_out_fmt(o, "module .version %u.%u .target", m->version_major, m->version_minor);
        for (uint32_t i = 0; i < m->ntargets; i++) {
            ptx_out_str(o, i ? ", " : " ");
            ptx_out_name(o, m->targets[i]);
        }
        if (m->address_size)
            ptx_out_fmt(o, " .address_size %u", m->address_size);
        ptx_out_char(o, '\n');
    }
    const ptx_node *n;
    ptx_event ev;
    while ((ev = ptx_iter_next_item(it, &n, filter, filter_user)) != PTX_EVENT_DONE && !o->failed) {
        if (ev == PTX_EVENT_NOMEM) {
            st = PTX_ERR_NOMEM;
            break;
        }
        if (ev != PTX_EVENT_ENTER)
            continue;
        if (compact) {
            if (n->kind == PTX_NODE_INSTR)
                out_compact(&t, (const ptx_instr *)n);
            continue;
        }
        out_node(&t, ptx_iter_depth(it) + 1, n);
    }
    return ptx_printer_close(o, it, st);
}
