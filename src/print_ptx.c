/* The PTX printer: writes the module back as PTX text.  Layout is
 * canonical (tabs, one statement a line); content is exactly the tree, so
 * ptxas gives the same code for the output as for the original. */
#include <stdlib.h>

#include "internal.h"

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
    if (v->range)
        ptx_out_fmt(o, "<%u>", v->range);
    for (uint32_t i = 0; i < v->ndims; i++) {
        ptx_out_char(o, '[');
        if (v->dims[i] != PTX_DIM_UNSIZED)
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
    bool sp = false;
#define SEP() do { if (sp) ptx_out_char(o, ' '); sp = true; } while (0)
    if (d->linkage) {
        SEP();
        ptx_out_str(o, ptx_linkage_name(d->linkage));
    }
    if (d->space) {
        SEP();
        ptx_out_str(o, ptx_space_name(d->space));
    }
    if (d->attrs) {
        SEP();
        ptx_out_str(o, ".attribute(");
        if (d->attrs & PTX_ATTR_MANAGED)
            ptx_out_str(o, ".managed");
        if (d->attrs & PTX_ATTR_UNIFIED)
            ptx_out_fmt(o, "%s.unified(%llu, %llu)", d->attrs & PTX_ATTR_MANAGED ? ", " : "",
                        (unsigned long long)d->unified[0], (unsigned long long)d->unified[1]);
        ptx_out_char(o, ')');
    }
    if (d->align) {
        SEP();
        ptx_out_fmt(o, ".align %u", d->align);
    }
    if (d->vec) {
        SEP();
        ptx_out_fmt(o, ".v%u", (unsigned)d->vec);
    }
    if (d->type) {
        SEP();
        ptx_out_str(o, ptx_type_name(d->type));
    }
    if (d->has_ptr) {
        SEP();
        ptx_out_str(o, ".ptr");
        if (d->ptr_space)
            ptx_out_str(o, ptx_space_name(d->ptr_space));
        if (d->ptr_align)
            ptx_out_fmt(o, ".align %u", d->ptr_align);
    }
#undef SEP
    for (uint32_t i = 0; i < d->nvars; i++) {
        ptx_out_str(o, i ? ", " : " ");
        out_var(o, &d->vars[i]);
    }
}

static void out_params(ptx_out *o, ptx_decl *const *ps, uint32_t n, bool multiline)
{
    ptx_out_char(o, '(');
    for (uint32_t i = 0; i < n; i++) {
        if (multiline)
            ptx_out_str(o, i ? ",\n\t" : "\n\t");
        else if (i)
            ptx_out_mem(o, ", ", 2);
        out_decl(o, ps[i]);
    }
    if (multiline && n)
        ptx_out_char(o, '\n');
    ptx_out_char(o, ')');
}

static void out_dirs(ptx_out *o, const ptx_fdir *d, uint32_t n, const char *sep)
{
    for (uint32_t i = 0; i < n; i++) {
        ptx_out_str(o, sep);
        ptx_out_str(o, ptx_fdir_name(d[i].kind));
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

static void out_func_head(ptx_out *o, const ptx_func *f)
{
    if (f->linkage) {
        ptx_out_str(o, ptx_linkage_name(f->linkage));
        ptx_out_char(o, ' ');
    }
    ptx_out_str(o, f->is_entry ? ".entry " : ".func ");
    if (f->attrs & PTX_ATTR_UNIFIED)
        ptx_out_fmt(o, ".attribute(.unified(%llu, %llu)) ",
                    (unsigned long long)f->unified[0], (unsigned long long)f->unified[1]);
    if (f->has_ret) {
        out_params(o, f->ret, f->nret, false);
        ptx_out_char(o, ' ');
    }
    ptx_out_name(o, f->name);
    if (f->has_params)
        out_params(o, f->params, f->nparams, true);
    out_dirs(o, f->dirs, f->ndirs, "\n");
}

static void out_instr(ptx_out *o, const ptx_instr *in)
{
    if (in->guard) {
        ptx_out_str(o, in->guard_neg ? "@!" : "@");
        ptx_out_name(o, in->guard);
        ptx_out_char(o, ' ');
    }
    ptx_out_name(o, in->opcode);
    for (unsigned i = 0; i < in->nmods; i++)
        ptx_out_name(o, in->mods[i].name);
    for (uint32_t i = 0; i < in->nops; i++) {
        ptx_out_str(o, i ? ", " : " \t");
        ptx_out_expr(o, in->ops[i]);
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

static void out_leaf(ptx_out *o, const ptx_node *n, unsigned depth)
{
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_FUNC:      /* a prototype */
        out_func_head(o, (const ptx_func *)n);
        ptx_out_str(o, ";\n");
        return;
    case PTX_NODE_ALIAS: {
        const ptx_alias *a = (const ptx_alias *)n;
        ptx_out_str(o, ".alias ");
        ptx_out_name(o, a->alias);
        ptx_out_mem(o, ", ", 2);
        ptx_out_name(o, a->aliasee);
        ptx_out_str(o, ";\n");
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
        ptx_out_char(o, '\n');
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
        ptx_out_char(o, '\n');
        return;
    }
    case PTX_NODE_DWARF:
        ptx_out_str(o, "@@DWARF ");
        ptx_out_name(o, ((const ptx_dwarf *)n)->text);
        ptx_out_char(o, '\n');
        return;
    case PTX_NODE_DECL:
        ptx_out_indent(o, depth);
        out_decl(o, (const ptx_decl *)n);
        ptx_out_str(o, ";\n");
        return;
    case PTX_NODE_PRAGMA: {
        const ptx_pragma *p = (const ptx_pragma *)n;
        ptx_out_indent(o, depth);
        ptx_out_str(o, ".pragma ");
        out_strings(o, p->strings, p->nstrings);
        ptx_out_str(o, ";\n");
        return;
    }
    case PTX_NODE_INSTR:
        ptx_out_indent(o, depth);
        out_instr(o, (const ptx_instr *)n);
        ptx_out_char(o, '\n');
        return;
    case PTX_NODE_LABEL:
        ptx_out_name(o, ((const ptx_label *)n)->name);
        ptx_out_str(o, ":\n");
        return;
    case PTX_NODE_LOC:
        ptx_out_indent(o, depth);
        out_loc(o, (const ptx_loc *)n);
        ptx_out_char(o, '\n');
        return;
    case PTX_NODE_CALLPROTO: {
        const ptx_callproto *p = (const ptx_callproto *)n;
        ptx_out_name(o, p->label);
        ptx_out_str(o, ": .callprototype ");
        if (p->has_ret) {
            out_params(o, p->ret, p->nret, false);
            ptx_out_char(o, ' ');
        }
        ptx_out_char(o, '_');
        if (p->has_params) {
            ptx_out_char(o, ' ');
            out_params(o, p->params, p->nparams, false);
        }
        out_dirs(o, p->dirs, p->ndirs, " ");
        ptx_out_str(o, ";\n");
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
        ptx_out_str(o, ";\n");
        return;
    }
    case PTX_NODE_DATA: {
        const ptx_data *d = (const ptx_data *)n;
        ptx_out_name(o, d->word);
        for (uint32_t i = 0; i < d->count; i++) {
            ptx_out_str(o, i ? ", " : " ");
            ptx_out_expr(o, d->values[i]);
        }
        ptx_out_char(o, '\n');
        return;
    }
    case PTX_NODE_SECTION:
    case PTX_NODE_BLOCK:
    case PTX_NODE_COUNT:
        return;
    }
}

static void out_header(ptx_out *o, const ptx_module *m)
{
    ptx_out_fmt(o, ".version %u.%u\n.target ", m->version_major, m->version_minor);
    for (uint32_t i = 0; i < m->ntargets; i++) {
        if (i)
            ptx_out_mem(o, ", ", 2);
        ptx_out_name(o, m->targets[i]);
    }
    ptx_out_char(o, '\n');
    if (m->address_size)
        ptx_out_fmt(o, ".address_size %u\n", m->address_size);
    ptx_out_char(o, '\n');
}

ptx_status ptx_print_ptx(const ptx_module *m, ptx_write_fn write, void *user)
{
    if (!m || !write)
        return PTX_ERR_USAGE;
    ptx_out *o = malloc(sizeof *o);
    ptx_iter *it = ptx_iter_new(m);
    if (!o || !it) {
        free(o);
        ptx_iter_free(it);
        return PTX_ERR_NOMEM;
    }
    ptx_out_init(o, write, user);
    out_header(o, m);
    const ptx_node *n;
    ptx_event ev;
    ptx_status st = PTX_OK;
    while ((ev = ptx_iter_next(it, &n)) != PTX_EVENT_DONE && !o->failed) {
        if (ev == PTX_EVENT_NOMEM) {
            st = PTX_ERR_NOMEM;
            break;
        }
        /* statements inside a function body are indented by block depth;
         * the body block itself sits at depth 1 */
        unsigned depth = ptx_iter_depth(it);
        switch ((ptx_node_kind)n->kind) {
        case PTX_NODE_FUNC:
            if (!((const ptx_func *)n)->body) {
                out_leaf(o, n, 0);
            } else if (ev == PTX_EVENT_ENTER) {
                out_func_head(o, (const ptx_func *)n);
                ptx_out_char(o, '\n');
            } else {
                ptx_out_char(o, '\n');
            }
            break;
        case PTX_NODE_BLOCK:
            ptx_out_indent(o, depth > 1 ? depth - 1 : 0);
            ptx_out_str(o, ev == PTX_EVENT_ENTER ? "{\n" : "}\n");
            break;
        case PTX_NODE_SECTION:
            if (ev == PTX_EVENT_ENTER) {
                ptx_out_str(o, ".section\t");
                ptx_out_name(o, ((const ptx_section *)n)->name);
                ptx_out_str(o, "\n{\n");
            } else {
                ptx_out_str(o, "}\n");
            }
            break;
        default:
            out_leaf(o, n, depth > 1 ? depth - 1 : 0);
            break;
        }
    }
    ptx_iter_free(it);
    ptx_status fin = ptx_out_finish(o);
    free(o);
    return st != PTX_OK ? st : fin;
}
