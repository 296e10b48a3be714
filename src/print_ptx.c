/* The PTX printer: writes the module back as PTX text.  Content is exactly
 * the tree.  Layout is canonical (tabs, one statement a line), except that
 * when the source positions are known each statement, parameter and operand
 * goes on the line it came from: ptxas puts PTX line numbers into the debug
 * line table and into the names of block-scoped variables, so keeping them
 * keeps the cubin identical. */
#include <stdlib.h>

#include "internal.h"

typedef struct printer {
    ptx_out *o;
    const ptx_context *ctx;     /* NULL: canonical layout */
    uint32_t line;              /* current output line, 1-based */
    bool bol;                   /* nothing written on this line yet */
} printer;

static void nl(printer *p)
{
    ptx_out_char(p->o, '\n');
    p->line++;
    p->bol = true;
}

static uint32_t source_line(const printer *p, uint32_t off)
{
    if (!p->ctx || off == PTX_NO_OFFSET)
        return 0;
    return ptx_context_position(p->ctx, off).line;
}

/* Starts an item that begins at source offset `off`: on its own source
 * line when that is below the current one, on the current line when the
 * source had it there too, else on a new line. */
static void begin(printer *p, uint32_t off, unsigned indent)
{
    uint32_t want = source_line(p, off);
    if (want > p->line) {
        while (p->line < want)
            nl(p);
    } else if (want == p->line && !p->bol) {
        ptx_out_char(p->o, ' ');
        return;
    } else if (!p->bol) {
        nl(p);
    }
    ptx_out_indent(p->o, indent);
    p->bol = false;
}

/* Within an item: continues on the source line of `off` when it is below
 * the current one (returns true), else stays on this line. */
static bool follow(printer *p, uint32_t off, unsigned indent)
{
    uint32_t want = source_line(p, off);
    if (want <= p->line)
        return false;
    while (p->line < want)
        nl(p);
    ptx_out_indent(p->o, indent);
    p->bol = false;
    return true;
}

static void out_strings(ptx_out *o, const ptx_name *const *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptx_out_mem(o, ", ", 2);
        ptx_out_char(o, '"');
        ptx_out_name(o, s[i]);
        ptx_out_char(o, '"');
    }
}

static void out_var(ptx_out *o, const ptx_var *v)
{
    ptx_out_name(o, v->name);
    if (v->has_range)
        ptx_out_fmt(o, "<%u>", v->range);
    for (uint32_t i = 0; i < v->ndims; i++) {
        ptx_out_char(o, '[');
        if (!(i == 0 && v->unsized))
            ptx_out_u64(o, v->dims[i]);
        ptx_out_char(o, ']');
    }
    if (v->init) {
        ptx_out_mem(o, " = ", 3);
        ptx_out_expr(o, v->init);
    }
}

/* A declaration without its ';': also a parameter. */
static void out_decl(ptx_out *o, const ptx_decl *d)
{
    const char *sep = "";
    if (d->linkage) {
        ptx_out_str(o, ptx_linkage_name(d->linkage));
        sep = " ";
    }
    if (d->space) {
        ptx_out_str(o, sep);
        ptx_out_str(o, ptx_space_name(d->space));
        sep = " ";
    }
    if (d->attrs) {
        ptx_out_str(o, sep);
        ptx_out_str(o, ".attribute(");
        if (d->attrs & PTX_ATTR_MANAGED)
            ptx_out_str(o, ".managed");
        if (d->attrs & PTX_ATTR_UNIFIED)
            ptx_out_fmt(o, "%s.unified(%llu, %llu)", d->attrs & PTX_ATTR_MANAGED ? ", " : "",
                        (unsigned long long)d->unified[0], (unsigned long long)d->unified[1]);
        ptx_out_char(o, ')');
        sep = " ";
    }
    if (d->align) {
        ptx_out_fmt(o, "%s.align %u", sep, d->align);
        sep = " ";
    }
    if (d->vec) {
        ptx_out_fmt(o, "%s.v%u", sep, (unsigned)d->vec);
        sep = " ";
    }
    if (d->type) {
        ptx_out_str(o, sep);
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
        ptx_out_str(o, i ? ", " : " ");
        out_var(o, &d->vars[i]);
    }
}

static void out_params(printer *p, ptx_decl *const *ps, uint32_t n, bool multiline)
{
    ptx_out *o = p->o;
    ptx_out_char(o, '(');
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptx_out_char(o, ',');
        if (!follow(p, ps[i]->base.span.off, 1)) {
            if (multiline && !p->ctx) {
                nl(p);
                ptx_out_char(o, '\t');
            } else if (i) {
                ptx_out_char(o, ' ');
            }
        }
        out_decl(o, ps[i]);
        p->bol = false;
    }
    if (multiline && n && !p->ctx)
        nl(p);
    ptx_out_char(o, ')');
    p->bol = false;
}

static void out_dirs(printer *p, const ptx_fdir *d, uint32_t n, bool own_lines)
{
    ptx_out *o = p->o;
    for (uint32_t i = 0; i < n; i++) {
        if (!follow(p, d[i].span.off, 0)) {
            if (own_lines && !p->ctx)
                nl(p);
            else
                ptx_out_char(o, ' ');
        }
        ptx_out_str(o, ptx_fdir_name(d[i].kind));
        p->bol = false;
        if (d[i].kind == PTX_FDIR_PRAGMA) {
            ptx_out_char(o, ' ');
            out_strings(o, d[i].strings, d[i].nvals);
            ptx_out_char(o, ';');
            continue;
        }
        for (unsigned k = 0; k < d[i].nvals; k++)
            ptx_out_fmt(o, "%s%u", k ? ", " : " ", d[i].vals[k]);
    }
}

static void out_func_head(printer *p, const ptx_func *f)
{
    ptx_out *o = p->o;
    if (f->linkage) {
        ptx_out_str(o, ptx_linkage_name(f->linkage));
        ptx_out_char(o, ' ');
    }
    ptx_out_str(o, f->is_entry ? ".entry " : ".func ");
    if (f->attrs & PTX_ATTR_UNIFIED)
        ptx_out_fmt(o, ".attribute(.unified(%llu, %llu)) ",
                    (unsigned long long)f->unified[0], (unsigned long long)f->unified[1]);
    if (f->has_ret) {
        out_params(p, f->ret, f->nret, false);
        ptx_out_char(o, ' ');
    }
    ptx_out_name(o, f->name);
    if (f->has_params)
        out_params(p, f->params, f->nparams, true);
    out_dirs(p, f->dirs, f->ndirs, true);
}

static void out_instr(printer *p, const ptx_instr *in, unsigned indent)
{
    ptx_out *o = p->o;
    if (ptx_instr_guard(in)) {
        ptx_out_str(o, in->guard_neg ? "@!" : "@");
        ptx_out_name(o, ptx_expr_name(ptx_instr_guard(in)));
        ptx_out_char(o, ' ');
    }
    ptx_out_name(o, ptx_instr_opcode(in));
    for (unsigned i = 0; i < in->nmods; i++)
        ptx_out_name(o, in->mods[i].name);
    for (uint32_t i = 0; i < in->nops; i++) {
        if (i)
            ptx_out_char(o, ',');
        if (!follow(p, ptx_expr_span(&in->ops[i]).off, indent + 1))
            ptx_out_str(o, i ? " " : " \t");
        ptx_out_expr(o, &in->ops[i]);
    }
    ptx_out_char(o, ';');
}

static void out_loc(ptx_out *o, const ptx_loc *l)
{
    ptx_out_fmt(o, ".loc\t%u %u %u", l->file, l->line, l->col);
    if (l->function_name) {
        ptx_out_str(o, ", function_name ");
        ptx_out_name(o, l->function_name);
        if (l->function_offset)
            ptx_out_fmt(o, "+%llu", (unsigned long long)l->function_offset);
    }
    if (l->has_inlined_at)
        ptx_out_fmt(o, ", inlined_at %u %u %u", l->in_file, l->in_line, l->in_col);
}

static void out_leaf(printer *p, const ptx_node *n, unsigned indent)
{
    ptx_out *o = p->o;
    bool label_like = n->kind == PTX_NODE_LABEL || n->kind == PTX_NODE_CALLPROTO ||
                      n->kind == PTX_NODE_TARGETS;
    begin(p, n->span.off, label_like ? 0 : indent);
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_FUNC:      /* a prototype */
        out_func_head(p, (const ptx_func *)n);
        ptx_out_char(o, ';');
        return;
    case PTX_NODE_ALIAS: {
        const ptx_alias *a = (const ptx_alias *)n;
        ptx_out_str(o, ".alias ");
        ptx_out_name(o, a->alias);
        ptx_out_mem(o, ", ", 2);
        ptx_out_name(o, a->aliasee);
        ptx_out_char(o, ';');
        return;
    }
    case PTX_NODE_FILE: {
        const ptx_file *f = (const ptx_file *)n;
        ptx_out_fmt(o, ".file\t%u \"", f->index);
        ptx_out_name(o, f->path);
        ptx_out_char(o, '"');
        if (f->has_info)
            ptx_out_fmt(o, ", %llu, %llu", (unsigned long long)f->timestamp,
                        (unsigned long long)f->size);
        return;
    }
    case PTX_NODE_TARGET: {
        const ptx_target *t = (const ptx_target *)n;
        ptx_out_str(o, ".target ");
        for (uint32_t i = 0; i < t->count; i++) {
            if (i)
                ptx_out_mem(o, ", ", 2);
            ptx_out_name(o, t->names[i]);
        }
        return;
    }
    case PTX_NODE_DWARF:
        ptx_out_str(o, "@@DWARF ");
        ptx_out_name(o, ((const ptx_dwarf *)n)->text);
        return;
    case PTX_NODE_DECL:
        out_decl(o, (const ptx_decl *)n);
        ptx_out_char(o, ';');
        return;
    case PTX_NODE_PRAGMA: {
        const ptx_pragma *pr = (const ptx_pragma *)n;
        ptx_out_str(o, ".pragma ");
        out_strings(o, pr->strings, pr->nstrings);
        ptx_out_char(o, ';');
        return;
    }
    case PTX_NODE_INSTR:
        out_instr(p, (const ptx_instr *)n, indent);
        return;
    case PTX_NODE_LABEL:
        ptx_out_name(o, ((const ptx_label *)n)->name);
        ptx_out_char(o, ':');
        return;
    case PTX_NODE_LOC:
        out_loc(o, (const ptx_loc *)n);
        return;
    case PTX_NODE_CALLPROTO: {
        const ptx_callproto *cp = (const ptx_callproto *)n;
        ptx_out_name(o, cp->label);
        ptx_out_str(o, ": .callprototype ");
        if (cp->has_ret) {
            out_params(p, cp->ret, cp->nret, false);
            ptx_out_char(o, ' ');
        }
        ptx_out_char(o, '_');
        if (cp->has_params) {
            ptx_out_char(o, ' ');
            out_params(p, cp->params, cp->nparams, false);
        }
        out_dirs(p, cp->dirs, cp->ndirs, false);
        ptx_out_char(o, ';');
        return;
    }
    case PTX_NODE_TARGETS: {
        const ptx_targets *t = (const ptx_targets *)n;
        ptx_out_name(o, t->label);
        ptx_out_str(o, t->is_branch ? ": .branchtargets " : ": .calltargets ");
        for (uint32_t i = 0; i < t->count; i++) {
            if (i)
                ptx_out_mem(o, ", ", 2);
            ptx_out_expr(o, t->names[i]);
        }
        ptx_out_char(o, ';');
        return;
    }
    case PTX_NODE_DATA: {
        const ptx_data *d = (const ptx_data *)n;
        if (d->width) {
            /* a run: its lines one by one, as in the source */
            for (uint32_t k = 0; k < d->nlines; k++) {
                if (k) {
                    nl(p);
                    ptx_out_indent(o, indent);
                    p->bol = false;
                }
                ptx_out_data_line(o, d, k);
            }
            return;
        }
        ptx_out_name(o, d->word);
        for (uint32_t i = 0; i < d->count; i++) {
            ptx_out_str(o, i ? ", " : " ");
            ptx_out_expr(o, d->values[i]);
        }
        return;
    }
    case PTX_NODE_SECTION:
    case PTX_NODE_BLOCK:
    case PTX_NODE_COUNT:
        return;
    }
}

static void out_header(printer *p, const ptx_module *m)
{
    ptx_out *o = p->o;
    begin(p, m->version_span.off, 0);
    ptx_out_fmt(o, ".version %u.%u", m->version_major, m->version_minor);
    begin(p, m->target_span.off, 0);
    ptx_out_str(o, ".target ");
    for (uint32_t i = 0; i < m->ntargets; i++) {
        if (i)
            ptx_out_mem(o, ", ", 2);
        ptx_out_name(o, m->targets[i]);
    }
    if (m->address_size) {
        begin(p, m->address_span.off, 0);
        ptx_out_fmt(o, ".address_size %u", m->address_size);
    }
    if (!p->ctx)
        nl(p);
}

static uint32_t last_byte(const ptx_node *n)
{
    return n->span.off == PTX_NO_OFFSET || n->span.len == 0 ? n->span.off
                                                            : n->span.off + n->span.len - 1;
}

ptx_status ptx_print_ptx(const ptx_context *ctx, const ptx_module *m,
                         ptx_write_fn write, void *user)
{
    return ptx_print_ptx_items(ctx, m, NULL, NULL, write, user);
}

ptx_status ptx_print_ptx_items(const ptx_context *ctx, const ptx_module *m,
                               ptx_print_filter filter, void *filter_user,
                               ptx_write_fn write, void *user)
{
    ptx_out *o;
    ptx_iter *it;
    ptx_status st = ptx_printer_open(m, write, user, &o, &it);
    if (st != PTX_OK)
        return st;
    /* positions only make sense for the tree this context parsed */
    printer pr = { o, ctx && ptx_context_module(ctx) == m ? ctx : NULL, 1, true };
    printer *p = &pr;
    out_header(p, m);
    const ptx_node *n;
    ptx_event ev;
    while ((ev = ptx_iter_next_item(it, &n, filter, filter_user)) != PTX_EVENT_DONE && !o->failed) {
        if (ev == PTX_EVENT_NOMEM) {
            st = PTX_ERR_NOMEM;
            break;
        }
        /* statements inside a function body are indented by block depth;
         * the body block itself sits at depth 1 */
        unsigned depth = ptx_iter_depth(it);
        unsigned indent = depth > 1 ? depth - 1 : 0;
        switch ((ptx_node_kind)n->kind) {
        case PTX_NODE_FUNC:
            if (!((const ptx_func *)n)->body) {
                out_leaf(p, n, 0);
            } else if (ev == PTX_EVENT_ENTER) {
                if (!p->ctx && !p->bol)
                    nl(p);
                begin(p, n->span.off, 0);
                out_func_head(p, (const ptx_func *)n);
            }
            break;
        case PTX_NODE_BLOCK:
            if (ev == PTX_EVENT_ENTER) {
                begin(p, n->span.off, indent);
                ptx_out_char(o, '{');
            } else {
                begin(p, last_byte(n), indent);
                ptx_out_char(o, '}');
                if (!p->ctx && depth == 1)
                    nl(p);
            }
            break;
        case PTX_NODE_SECTION:
            if (ev == PTX_EVENT_ENTER) {
                begin(p, n->span.off, 0);
                ptx_out_str(o, ".section\t");
                ptx_out_name(o, ((const ptx_section *)n)->name);
                /* the brace goes on its own line, as compilers write it,
                 * unless the section's contents start right away: the
                 * output never takes more lines than the source */
                const ptx_section *sec = (const ptx_section *)n;
                uint32_t next = source_line(p, sec->first ? sec->first->span.off : last_byte(n));
                if (!p->ctx || next > p->line + 1)
                    nl(p);
                else
                    ptx_out_char(o, ' ');
                ptx_out_char(o, '{');
                p->bol = false;
            } else {
                begin(p, last_byte(n), 0);
                ptx_out_char(o, '}');
            }
            break;
        default:
            out_leaf(p, n, indent);
            break;
        }
    }
    if (!p->bol)
        nl(p);
    return ptx_printer_close(o, it, st);
}
