/* The JSON printer (ptx-front --json): the whole tree, compact, schema 2.
 * The schema is documented in doc/json.md and, for validators, in
 * tools/ptx-front.schema.json; keys are short because the output of a
 * 100 MB module must stay within a small multiple of its size.  Every
 * value has one shape per kind (an operand is always an object, "mods" and
 * "args" always arrays) so that jq filters need no type tests. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* What each name of an instruction resolves to (ptx_sema_names: the
 * semantic pass's answers, read before printing): in source order, as the
 * printer meets them. */
typedef struct ref {
    const ptx_node *stmt;
    ptx_span decl;              /* len 0 (off PTX_NO_OFFSET): none */
} ref;

typedef struct refs {
    ref *v;
    size_t n, cap, next;
    bool nomem;
} refs;

typedef struct json {
    ptx_out *o;
    const ptx_context *ctx;
    refs *refs;
    size_t line_hint;           /* ptx_position_near's: nodes come in order */
} json;

static void str(ptx_out *o, const char *s, size_t n)
{
    ptx_out_json_str(o, s, n);
}

static void name(ptx_out *o, const ptx_name *n)
{
    str(o, n->text, n->len);
}

static void key(ptx_out *o, const char *k)
{
    ptx_out_char(o, ',');
    ptx_out_char(o, '"');
    ptx_out_str(o, k);
    ptx_out_str(o, "\":");
}

/* A node's byte range [start, end) and, with a context to count lines,
 * the 1-based line and column where it starts; nodes made by the editing
 * API have no place in the source and carry none of them. */
static void range(json *j, ptx_span s)
{
    ptx_out *o = j->o;
    if (s.off == PTX_NO_OFFSET)
        return;
    ptx_out_str(o, ",\"r\":[");
    ptx_out_u64(o, s.off);
    ptx_out_char(o, ',');
    ptx_out_u64(o, (uint64_t)s.off + s.len);
    ptx_out_char(o, ']');
    if (!j->ctx)
        return;
    ptx_position p = ptx_position_near(j->ctx, s.off, &j->line_hint);
    if (p.line)
        ptx_out_fmt(o, ",\"line\":%u,\"col\":%u", p.line, p.col);
}

static void expr(ptx_out *o, const ptx_expr *e, unsigned depth);

static void items(ptx_out *o, const ptx_expr *e, unsigned depth)
{
    ptx_out_str(o, ",\"items\":[");
    for (uint32_t i = 0; i < ptx_expr_count(e); i++) {
        if (i)
            ptx_out_char(o, ',');
        expr(o, ptx_expr_item(e, i), depth + 1);
    }
    ptx_out_char(o, ']');
}

/* An integer's value: a JSON number of any size (its exact decimal). */
static void int_value(ptx_out *o, const ptx_expr *e)
{
    ptx_out_str(o, ",\"value\":");
    ptx_out_u64(o, ptx_expr_int(e));
}

/* [base], [base+offset], [offset], as --ast decodes them: "base" (an
 * operand) and "offset" (a number, negative for base-N) when the address
 * has one of these shapes. */
static void addr_parts(ptx_out *o, const ptx_expr *e, unsigned depth)
{
    if (ptx_expr_count(e) != 1)
        return;
    const ptx_expr *a = ptx_expr_item(e, 0);
    if (a->kind == PTX_EXPR_SYM) {
        ptx_out_str(o, ",\"base\":");
        expr(o, a, depth + 1);
    } else if (a->kind == PTX_EXPR_BINARY && (a->op == PTX_OP_ADD || a->op == PTX_OP_SUB) &&
               ptx_expr_a(a)->kind == PTX_EXPR_SYM && ptx_expr_b(a)->kind == PTX_EXPR_INT) {
        uint64_t off = ptx_expr_int(ptx_expr_b(a));
        ptx_out_str(o, ",\"base\":");
        expr(o, ptx_expr_a(a), depth + 1);
        ptx_out_str(o, a->op == PTX_OP_SUB && off ? ",\"offset\":-" : ",\"offset\":");
        ptx_out_u64(o, off);
    } else if (a->kind == PTX_EXPR_INT) {
        ptx_out_str(o, ",\"offset\":");
        ptx_out_u64(o, ptx_expr_int(a));
    }
}

/* Every operand is an object whose "t" says its kind; each kind has one
 * shape. */
static void expr(ptx_out *o, const ptx_expr *e, unsigned depth)
{
    if (depth > 10001) {
        ptx_out_str(o, "null");
        return;
    }
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM:
        ptx_out_str(o, "{\"t\":\"sym\",\"v\":");
        name(o, ptx_expr_name(e));
        if (ptx_expr_sel(e)) {
            ptx_out_str(o, ",\"sel\":");
            name(o, ptx_expr_sel(e));
        }
        break;
    case PTX_EXPR_INT:
        /* "v", the spelling, only when it is not the plain decimal */
        ptx_out_str(o, "{\"t\":\"int\"");
        if ((e->flags & PTX_INT_RADIX_MASK) != PTX_INT_DEC || (e->flags & PTX_INT_UNSIGNED)) {
            ptx_out_str(o, ",\"v\":\"");
            ptx_out_expr(o, e);
            ptx_out_char(o, '"');
        }
        int_value(o, e);
        break;
    case PTX_EXPR_FLOAT:
        ptx_out_str(o, "{\"t\":\"float\",\"v\":");
        ptx_out_fmt(o, "%.17g", ptx_expr_float(e));
        break;
    case PTX_EXPR_F32:
    case PTX_EXPR_F64:
        ptx_out_str(o, e->kind == PTX_EXPR_F32 ? "{\"t\":\"f32\",\"v\":\"" : "{\"t\":\"f64\",\"v\":\"");
        ptx_out_expr(o, e);
        ptx_out_char(o, '"');
        break;
    case PTX_EXPR_SINK:
        ptx_out_str(o, "{\"t\":\"sink\"");
        break;
    case PTX_EXPR_UNARY:
    case PTX_EXPR_BINARY:
        ptx_out_str(o, e->kind == PTX_EXPR_UNARY ? "{\"t\":\"unary\",\"op\":" : "{\"t\":\"binary\",\"op\":");
        str(o, ptx_op_name(e->op), strlen(ptx_op_name(e->op)));
        ptx_out_str(o, ",\"a\":");
        expr(o, ptx_expr_a(e), depth + 1);
        if (e->kind == PTX_EXPR_BINARY) {
            ptx_out_str(o, ",\"b\":");
            expr(o, ptx_expr_b(e), depth + 1);
        }
        break;
    case PTX_EXPR_CAST:
        ptx_out_str(o, "{\"t\":\"cast\",\"type\":");
        str(o, ptx_type_name(e->op), strlen(ptx_type_name(e->op)));
        ptx_out_str(o, ",\"a\":");
        expr(o, ptx_expr_a(e), depth + 1);
        break;
    case PTX_EXPR_COND:
        ptx_out_str(o, "{\"t\":\"cond\",\"a\":");
        expr(o, ptx_expr_item(e, 0), depth + 1);
        ptx_out_str(o, ",\"b\":");
        expr(o, ptx_expr_item(e, 1), depth + 1);
        ptx_out_str(o, ",\"c\":");
        expr(o, ptx_expr_item(e, 2), depth + 1);
        break;
    case PTX_EXPR_PAREN:
    case PTX_EXPR_GENERIC:
        ptx_out_str(o, e->kind == PTX_EXPR_PAREN ? "{\"t\":\"paren\",\"a\":" : "{\"t\":\"generic\",\"a\":");
        expr(o, ptx_expr_a(e), depth + 1);
        break;
    case PTX_EXPR_INDEX:
    case PTX_EXPR_PAIR:
    case PTX_EXPR_MASK:
    case PTX_EXPR_FIELD:
        ptx_out_str(o, e->kind == PTX_EXPR_INDEX ? "{\"t\":\"index\",\"a\":"
                     : e->kind == PTX_EXPR_PAIR ? "{\"t\":\"pair\",\"a\":"
                     : e->kind == PTX_EXPR_MASK ? "{\"t\":\"mask\",\"a\":" : "{\"t\":\"field\",\"a\":");
        expr(o, ptx_expr_a(e), depth + 1);
        ptx_out_str(o, ",\"b\":");
        expr(o, ptx_expr_b(e), depth + 1);
        break;
    case PTX_EXPR_ADDR:
        ptx_out_str(o, "{\"t\":\"addr\"");
        items(o, e, depth);
        addr_parts(o, e, depth);
        if (ptx_expr_suffix(e)) {
            ptx_out_str(o, ",\"suffix\":");
            name(o, ptx_expr_suffix(e));
        }
        break;
    case PTX_EXPR_VEC:
        ptx_out_str(o, "{\"t\":\"vec\"");
        items(o, e, depth);
        break;
    case PTX_EXPR_LIST:
        ptx_out_str(o, "{\"t\":\"list\"");
        items(o, e, depth);
        break;
    case PTX_EXPR_RANGE:
        ptx_out_str(o, "{\"t\":\"range\",\"v\":");
        name(o, ptx_expr_name(e));
        ptx_out_str(o, ",\"n\":");
        ptx_out_u64(o, ptx_expr_count(e));
        break;
    case PTX_EXPR_COUNT:
        ptx_out_str(o, "null");
        return;
    }
    ptx_out_char(o, '}');
}

static void decl(json *j, const ptx_decl *d)
{
    ptx_out *o = j->o;
    ptx_out_str(o, "{\"k\":\"decl\"");
    range(j, d->base.span);
    if (d->linkage) {
        key(o, "link");
        str(o, ptx_linkage_name(d->linkage), strlen(ptx_linkage_name(d->linkage)));
    }
    if (d->space) {
        key(o, "space");
        str(o, ptx_space_name(d->space), strlen(ptx_space_name(d->space)));
    }
    if (d->align) {
        key(o, "align");
        ptx_out_u64(o, d->align);
    }
    if (d->vec) {
        key(o, "vec");
        ptx_out_u64(o, d->vec);
    }
    if (d->type) {
        key(o, "type");
        str(o, ptx_type_name(d->type), strlen(ptx_type_name(d->type)));
    }
    if (d->attrs & PTX_ATTR_HIDDEN)
        ptx_out_str(o, ",\"hidden\":true");
    if (d->attrs & PTX_ATTR_MANAGED)
        ptx_out_str(o, ",\"managed\":true");
    if (d->attrs & PTX_ATTR_UNIFIED)
        ptx_out_fmt(o, ",\"unified\":[\"%" PRIu64 "\",\"%" PRIu64 "\"]", d->unified[0], d->unified[1]);
    if (d->has_ptr) {
        ptx_out_str(o, ",\"ptr\":{");
        if (d->ptr_space) {
            ptx_out_str(o, "\"space\":");
            str(o, ptx_space_name(d->ptr_space), strlen(ptx_space_name(d->ptr_space)));
        }
        if (d->ptr_align)
            ptx_out_fmt(o, "%s\"align\":%u", d->ptr_space ? "," : "", d->ptr_align);
        ptx_out_char(o, '}');
    }
    ptx_out_str(o, ",\"vars\":[");
    for (uint32_t i = 0; i < d->nvars; i++) {
        const ptx_var *v = &d->vars[i];
        if (i)
            ptx_out_char(o, ',');
        ptx_out_str(o, "{\"name\":");
        name(o, v->name);
        if (v->has_range)
            ptx_out_fmt(o, ",\"count\":%u", v->range);
        if (v->ndims) {
            ptx_out_str(o, ",\"dims\":[");
            for (uint32_t k = 0; k < v->ndims; k++) {
                if (k)
                    ptx_out_char(o, ',');
                if (k == 0 && v->unsized)
                    ptx_out_str(o, "null");
                else
                    ptx_out_u64(o, v->dims[k]);
            }
            ptx_out_char(o, ']');
        }
        if (v->init) {
            ptx_out_str(o, ",\"init\":");
            expr(o, v->init, 0);
        }
        ptx_out_char(o, '}');
    }
    ptx_out_str(o, "]}");
}

static void params(json *j, const char *k, ptx_decl *const *ps, uint32_t n)
{
    ptx_out *o = j->o;
    key(o, k);
    ptx_out_char(o, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptx_out_char(o, ',');
        decl(j, ps[i]);
    }
    ptx_out_char(o, ']');
}

/* Also used by --stats --json (ptx_out_json_directives): one vocabulary. */
void ptx_out_json_directives(ptx_out *o, const ptx_fdir *d, uint32_t n)
{
    key(o, "directives");
    ptx_out_char(o, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptx_out_char(o, ',');
        ptx_out_str(o, "{\"d\":");
        str(o, ptx_fdir_name(d[i].kind), strlen(ptx_fdir_name(d[i].kind)));
        ptx_out_str(o, ",\"v\":[");
        for (unsigned k = 0; k < d[i].nvals; k++) {
            if (k)
                ptx_out_char(o, ',');
            if (d[i].kind == PTX_FDIR_PRAGMA)
                name(o, d[i].strings[k]);
            else
                ptx_out_u64(o, d[i].vals[k]);
        }
        ptx_out_str(o, "]}");
    }
    ptx_out_char(o, ']');
}

static bool add_ref(void *user, const ptx_node *stmt, const ptx_expr *name, const ptx_symbol *sym)
{
    refs *r = user;
    (void)name;
    if (stmt->kind != PTX_NODE_INSTR)
        return true;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 1024;
        ref *v = realloc(r->v, cap * sizeof *v);
        if (!v) {
            r->nomem = true;
            return false;
        }
        r->v = v;
        r->cap = cap;
    }
    ptx_span none = { PTX_NO_OFFSET, 0 };
    r->v[r->n++] = (ref){ stmt, sym->decl ? sym->span : none };
    return true;
}

/* "refs": the declaration of each name of `in` (guard first, then the
 * operands' names in order), as a byte range, or null for a special
 * register or an unknown name. */
static void instr_refs(ptx_out *o, refs *r, const ptx_instr *in)
{
    /* instructions left out by a filter have entries too */
    while (r->next < r->n && r->v[r->next].stmt->span.off < in->base.span.off)
        r->next++;
    ptx_out_str(o, ",\"refs\":[");
    for (bool first = true; r->next < r->n && r->v[r->next].stmt == &in->base; first = false) {
        const ref *x = &r->v[r->next++];
        if (!first)
            ptx_out_char(o, ',');
        if (x->decl.off == PTX_NO_OFFSET)
            ptx_out_str(o, "null");
        else
            ptx_out_fmt(o, "[%u,%u]", x->decl.off, x->decl.off + x->decl.len);
    }
    ptx_out_char(o, ']');
}

/* How many modifiers belong to the instruction's name: the validation
 * leaves the name's words, which come first, without a category (as it
 * leaves the words ptxas ignores, none of which can follow a name). */
static unsigned name_words(const ptx_instr *in)
{
    unsigned n = 0;
    if (in->family)
        while (n < in->nmods && in->mods[n].category == PTX_CAT_NONE)
            n++;
    return n;
}

static void instr(json *j, const ptx_instr *in)
{
    ptx_out *o = j->o;
    ptx_out_str(o, "{\"k\":\"instr\"");
    range(j, in->base.span);
    if (ptx_instr_guard(in)) {
        key(o, "guard");
        name(o, ptx_expr_name(ptx_instr_guard(in)));
        if (in->guard_neg)
            ptx_out_str(o, ",\"neg\":true");
    }
    /* the instruction's name as the tables spell it: the opcode and the
     * fixed words the validation recognised (".mma_async" of
     * wgmma.mma_async) */
    key(o, "op");
    ptx_out_char(o, '"');
    ptx_out_json_chars(o, ptx_instr_opcode(in)->text, ptx_instr_opcode(in)->len);
    unsigned nname = name_words(in);
    for (unsigned i = 0; i < nname; i++)
        ptx_out_json_chars(o, in->mods[i].name->text, in->mods[i].name->len);
    ptx_out_char(o, '"');
    if (in->family) {
        key(o, "family");
        const char *f = ptx_family_name((ptx_family)in->family);
        str(o, f, strlen(f));
    }
    /* the other modifiers in source order, as [word, category]; the
     * category is null when the tables did not decode the word */
    ptx_out_str(o, ",\"mods\":[");
    bool first = true;
    for (unsigned i = nname; i < in->nmods; i++) {
        ptx_out_str(o, first ? "[" : ",[");
        first = false;
        name(o, in->mods[i].name);
        const char *cat = ptx_category_name((ptx_mod_category)in->mods[i].category);
        ptx_out_char(o, ',');
        if (cat && in->mods[i].category != PTX_CAT_NONE)
            str(o, cat, strlen(cat));
        else
            ptx_out_str(o, "null");
        ptx_out_char(o, ']');
    }
    ptx_out_str(o, "],\"args\":[");
    for (uint32_t i = 0; i < in->nops; i++) {
        if (i)
            ptx_out_char(o, ',');
        expr(o, &in->ops[i], 0);
    }
    ptx_out_char(o, ']');
    if (j->refs)
        instr_refs(o, j->refs, in);
    ptx_out_char(o, '}');
}

static void strings(ptx_out *o, const ptx_name *const *s, uint32_t n)
{
    ptx_out_char(o, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            ptx_out_char(o, ',');
        name(o, s[i]);
    }
    ptx_out_char(o, ']');
}

/* Opens a node; containers leave their child list open. */
static void node_enter(json *j, const ptx_node *n)
{
    ptx_out *o = j->o;
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_FUNC: {
        const ptx_func *f = (const ptx_func *)n;
        ptx_out_str(o, f->is_entry ? "{\"k\":\"entry\"" : "{\"k\":\"func\"");
        range(j, n->span);
        key(o, "name");
        name(o, f->name);
        if (f->linkage) {
            key(o, "link");
            str(o, ptx_linkage_name(f->linkage), strlen(ptx_linkage_name(f->linkage)));
        }
        if (f->has_ret)
            params(j, "ret", f->ret, f->nret);
        if (f->has_params)
            params(j, "params", f->params, f->nparams);
        ptx_out_json_directives(o, f->dirs, f->ndirs);
        if (!f->body) {
            ptx_out_str(o, ",\"proto\":true}");
            return;
        }
        ptx_out_str(o, ",\"body\":");
        return;
    }
    case PTX_NODE_BLOCK:
        ptx_out_str(o, "{\"k\":\"block\"");
        range(j, n->span);
        ptx_out_str(o, ",\"body\":[");
        return;
    case PTX_NODE_SECTION:
        ptx_out_str(o, "{\"k\":\"section\"");
        range(j, n->span);
        key(o, "name");
        name(o, ((const ptx_section *)n)->name);
        ptx_out_str(o, ",\"body\":[");
        return;
    case PTX_NODE_INSTR:
        instr(j, (const ptx_instr *)n);
        return;
    case PTX_NODE_DECL:
        decl(j, (const ptx_decl *)n);
        return;
    case PTX_NODE_LABEL:
        ptx_out_str(o, "{\"k\":\"label\"");
        range(j, n->span);
        key(o, "name");
        name(o, ((const ptx_label *)n)->name);
        break;
    case PTX_NODE_LOC: {
        const ptx_loc *l = (const ptx_loc *)n;
        ptx_out_str(o, "{\"k\":\"loc\"");
        range(j, n->span);
        /* "line" and "col" are the node's own: the directive's are "at" */
        ptx_out_fmt(o, ",\"at\":[%u,%u,%u]", l->file, l->line, l->col);
        if (l->function_name) {
            key(o, "function_name");
            name(o, l->function_name);
            if (l->function_offset)
                ptx_out_fmt(o, ",\"function_offset\":%" PRIu64, l->function_offset);
        }
        if (l->has_inlined_at)
            ptx_out_fmt(o, ",\"inlined_at\":[%u,%u,%u]", l->in_file, l->in_line, l->in_col);
        break;
    }
    case PTX_NODE_DATA: {
        const ptx_data *d = (const ptx_data *)n;
        ptx_out_str(o, "{\"k\":\"data\"");
        range(j, n->span);
        key(o, "word");
        name(o, d->word);
        if (d->width) {
            ptx_out_fmt(o, ",\"lines\":%u", (unsigned)d->nlines);
            if (d->line_ends) {
                /* lines of several values: where each line's values end */
                ptx_out_str(o, ",\"line_ends\":[");
                for (uint32_t k = 0; k < d->nlines; k++) {
                    if (k)
                        ptx_out_char(o, ',');
                    ptx_out_u64(o, d->line_ends[k]);
                }
                ptx_out_char(o, ']');
            }
            if (d->line_bytes) {
                /* lines with different words: each line's */
                ptx_out_str(o, ",\"line_words\":[");
                for (uint32_t k = 0; k < d->nlines; k++) {
                    if (k)
                        ptx_out_char(o, ',');
                    ptx_out_char(o, '"');
                    ptx_out_str(o, ptx_data_line_word(d, k));
                    ptx_out_char(o, '"');
                }
                ptx_out_char(o, ']');
            }
        }
        ptx_out_str(o, ",\"v\":[");
        uint32_t next_sym = 0;
        for (uint32_t i = 0; i < d->count; i++) {
            if (i)
                ptx_out_char(o, ',');
            if (!d->width)
                expr(o, d->values[i], 0);
            else if (next_sym < d->nsyms && d->syms[next_sym].index == i)
                name(o, d->syms[next_sym++].name);
            else
                ptx_out_u64(o, ptx_data_int(d, i));
        }
        ptx_out_char(o, ']');
        break;
    }
    case PTX_NODE_PRAGMA: {
        const ptx_pragma *p = (const ptx_pragma *)n;
        ptx_out_str(o, "{\"k\":\"pragma\"");
        range(j, n->span);
        key(o, "strings");
        strings(o, p->strings, p->nstrings);
        break;
    }
    case PTX_NODE_FILE: {
        const ptx_file *f = (const ptx_file *)n;
        ptx_out_str(o, "{\"k\":\"file\"");
        range(j, n->span);
        ptx_out_fmt(o, ",\"index\":%u", f->index);
        key(o, "path");
        name(o, f->path);
        if (f->has_info)
            ptx_out_fmt(o, ",\"timestamp\":%" PRIu64, f->timestamp);
        if (f->has_size)
            ptx_out_fmt(o, ",\"size\":%" PRIu64, f->size);
        break;
    }
    case PTX_NODE_ALIAS: {
        const ptx_alias *a = (const ptx_alias *)n;
        ptx_out_str(o, "{\"k\":\"alias\"");
        range(j, n->span);
        key(o, "alias");
        name(o, a->alias);
        key(o, "aliasee");
        name(o, a->aliasee);
        break;
    }
    case PTX_NODE_TARGET: {
        const ptx_target *t = (const ptx_target *)n;
        ptx_out_str(o, "{\"k\":\"target\"");
        range(j, n->span);
        key(o, "targets");
        strings(o, t->names, t->count);
        break;
    }
    case PTX_NODE_DWARF:
        ptx_out_str(o, "{\"k\":\"dwarf\"");
        range(j, n->span);
        key(o, "text");
        name(o, ((const ptx_dwarf *)n)->text);
        break;
    case PTX_NODE_CALLPROTO: {
        const ptx_callproto *p = (const ptx_callproto *)n;
        ptx_out_str(o, "{\"k\":\"callprototype\"");
        range(j, n->span);
        key(o, "label");
        name(o, p->label);
        if (p->has_ret)
            params(j, "ret", p->ret, p->nret);
        if (p->has_params)
            params(j, "params", p->params, p->nparams);
        ptx_out_json_directives(o, p->dirs, p->ndirs);
        break;
    }
    case PTX_NODE_TARGETS: {
        const ptx_targets *t = (const ptx_targets *)n;
        ptx_out_str(o, t->is_branch ? "{\"k\":\"branchtargets\"" : "{\"k\":\"calltargets\"");
        range(j, n->span);
        key(o, "label");
        name(o, t->label);
        ptx_out_str(o, ",\"names\":[");
        for (uint32_t i = 0; i < t->count; i++) {
            if (i)
                ptx_out_char(o, ',');
            expr(o, t->names[i], 0);
        }
        ptx_out_char(o, ']');
        break;
    }
    case PTX_NODE_COUNT:
        ptx_out_str(o, "{");
        break;
    }
    ptx_out_char(o, '}');
}

ptx_status ptx_print_json(const ptx_context *ctx, const ptx_module *m,
                          ptx_print_filter filter, void *filter_user,
                          ptx_write_fn write, void *user)
{
    ptx_out *o;
    ptx_iter *it;
    ptx_status st = ptx_printer_open(m, write, user, &o, &it);
    if (st != PTX_OK)
        return st;
    /* names resolve only in a module that was checked (a context) */
    refs r = { 0 };
    if (ctx && ptx_sema_names(m, add_ref, &r) != PTX_OK)
        r.nomem = true;
    if (r.nomem) {
        free(r.v);
        return ptx_printer_close(o, it, PTX_ERR_NOMEM);
    }
    json j = { o, ctx, ctx ? &r : NULL, 0 };
    ptx_out_str(o, "{\"schema\":2");
    if (ctx) {
        key(o, "file");
        const char *f = ptx_context_filename(ctx);
        str(o, f, strlen(f));
        /* a tree with errors is printed too (what could be parsed) */
        ptx_out_str(o, ptx_error_count(ctx) ? ",\"valid\":false" : ",\"valid\":true");
    }
    ptx_out_fmt(o, ",\"version\":\"%u.%u\",\"targets\":", m->version_major, m->version_minor);
    strings(o, m->targets, m->ntargets);
    if (m->address_size)
        ptx_out_fmt(o, ",\"address_size\":%u", m->address_size);
    ptx_out_str(o, ",\"items\":[");
    const ptx_node *n;
    ptx_event ev;
    bool first = true;          /* no comma before the first of a list */
    while ((ev = ptx_iter_next_item(it, &n, filter, filter_user)) != PTX_EVENT_DONE && !o->failed) {
        if (ev == PTX_EVENT_NOMEM) {
            st = PTX_ERR_NOMEM;
            break;
        }
        unsigned depth = ptx_iter_depth(it);
        if (ev == PTX_EVENT_EXIT) {
            if (n->kind == PTX_NODE_FUNC)
                ptx_out_char(o, '}');
            else
                ptx_out_str(o, "]}");
            first = false;
            continue;
        }
        /* a function's body block follows "body": directly */
        bool body_of_func = n->kind == PTX_NODE_BLOCK && depth == 1;
        if (!first && !body_of_func)
            ptx_out_char(o, ',');
        node_enter(&j, n);
        bool container = (n->kind == PTX_NODE_BLOCK || n->kind == PTX_NODE_SECTION) ||
                         (n->kind == PTX_NODE_FUNC && ((const ptx_func *)n)->body);
        first = container;
    }
    ptx_out_str(o, "]}\n");
    free(r.v);
    return ptx_printer_close(o, it, st);
}
