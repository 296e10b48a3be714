/* The PTX printer.  Two layouts:
 *  - lossless, for a tree printed with the context that parsed it: the
 *    source text is copied from the spans, gaps (comments, blank lines,
 *    spacing, line ends) included, so that an unedited module comes out
 *    byte for byte; the nodes the editing API made, put in place or
 *    replaced are printed in the canonical layout where they now stand,
 *    and the text of removed nodes is left out (edit.c records it);
 *  - canonical: one statement a line, tabs by depth, and, when the source
 *    is known, its comments kept where they were between statements (a
 *    comment inside a statement follows it on its line).
 * Content is exactly the tree in both. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "select.h"

typedef struct printer {
    ptx_out *o;
    const char *src;            /* the source of the unedited nodes, or NULL */
    uint32_t srclen;
    bool lossless;
    bool squeeze;               /* lossless and filtered: no runs of blank lines */
    uint32_t pos;               /* source before pos is written or dropped */
    ptx_removed *removed;       /* the text of removed nodes, sorted */
    size_t nremoved, ri;
    const ptx_removed **replaced;   /* those a node replaced, by the node's
                                   address, then by offset */
    size_t nreplaced;
    const char *eol;            /* "\n", or "\r\n" for a CRLF source */
    const char *prefix;         /* lossless: indentation of an edited node */
    uint32_t prefix_len;
    uint32_t last_indent_off, last_indent_len;  /* lossless: the indentation
                                   of the last statement copied */
    bool bol;                   /* nothing written on this line yet */
    bool line_content;          /* squeeze: this line has a non-blank byte */
    unsigned blanks;            /* squeeze: blank lines just written */
    const ptx_context *ctx;     /* canonical with a source: line numbers */
    bool orig;                  /* canonical: printing an unedited node */
    uint32_t line;              /* canonical: the output line, 1-based */
    size_t hint;                /* ptx_position_near's */
    unsigned indent;            /* canonical: the statement's depth */
    uint32_t end_line;          /* canonical: the source line where the last
                                   statement printed ends */
    unsigned inline_at;         /* canonical: 1 + the depth of the block
                                   printed on one line we are in; 0: none */
    uint32_t label_line;        /* canonical: the source line of the label
                                   just printed, 0 after anything else */
} printer;

static void nl(printer *p)
{
    ptx_out_str(p->o, p->eol);
    p->bol = true;
    p->line++;
}

/* The canonical layout keeps every unedited statement on its source line
 * when the lines before leave room (blank lines fill the gap): ptxas
 * puts PTX line numbers into the debug line table and into the names of
 * block-scoped variables, so the cubin stays the same. */
static void pad(printer *p, uint32_t off)
{
    if (!p->ctx || !p->orig || off == PTX_NO_OFFSET)
        return;
    uint32_t want = ptx_position_near(p->ctx, off, &p->hint).line;
    if (!p->bol && p->line < want)
        nl(p);
    while (p->line < want)
        nl(p);
}

/* Starts a line of the canonical layout at `indent` tabs (after the
 * indentation of the place, in the lossless layout). */
static void start_line(printer *p, unsigned indent)
{
    p->indent = indent;
    if (!p->bol)
        nl(p);
    ptx_out_mem(p->o, p->prefix, p->prefix_len);
    ptx_out_indent(p->o, indent);
    p->bol = false;
}

static bool is_edited(const ptx_node *n)
{
    return n->span.off == PTX_NO_OFFSET || (n->flags & PTX_NODE_EDITED);
}

static uint32_t end_of(const ptx_node *n)
{
    return n->span.off + n->span.len;
}

static uint32_t last_byte(const ptx_node *n)
{
    return n->span.len == 0 ? n->span.off : n->span.off + n->span.len - 1;
}

/* Where the '{' of an unedited section is. */
static uint32_t section_brace(const printer *p, const ptx_node *n)
{
    uint32_t i = n->span.off;
    while (i < end_of(n) && p->src[i] != '{')
        i++;
    return i;
}

/* ---- the lossless layout: copying source text ------------------------ */

static void emit_src(printer *p, uint32_t a, uint32_t b)
{
    if (!p->squeeze) {
        ptx_out_mem(p->o, p->src + a, b - a);
        return;
    }
    for (uint32_t i = a; i < b; i++) {
        char c = p->src[i];
        if (c == '\r' && i + 1 < b && p->src[i + 1] == '\n')
            continue;   /* written with its '\n', or dropped with it */
        if (c != '\n') {
            if (c != ' ' && c != '\t' && c != '\r')
                p->line_content = true;
            ptx_out_char(p->o, c);
            continue;
        }
        if (p->line_content || p->blanks == 0) {
            if (i > a && p->src[i - 1] == '\r')
                ptx_out_char(p->o, '\r');
            ptx_out_char(p->o, '\n');
        }
        p->blanks = p->line_content ? 0 : p->blanks + 1;
        p->line_content = false;
    }
}

/* Copies the source from p->pos up to `end`, leaving out removed text. */
static void copy_to(printer *p, uint32_t end)
{
    if (end > p->srclen)
        end = p->srclen;
    while (p->pos < end) {
        while (p->ri < p->nremoved &&
               p->removed[p->ri].span.off + p->removed[p->ri].span.len <= p->pos)
            p->ri++;
        uint32_t stop = end;
        if (p->ri < p->nremoved && p->removed[p->ri].span.off < end) {
            const ptx_span *r = &p->removed[p->ri].span;
            if (r->off <= p->pos) {
                p->pos = r->off + r->len;
                continue;
            }
            stop = r->off;
        }
        emit_src(p, p->pos, stop);
        p->pos = stop;
        p->bol = p->src[stop - 1] == '\n';
    }
}

/* Before a new line for an edited node: the ';' that ends the statement
 * before (outside some nodes' spans), and the rest of the source line when
 * it is only a comment (it stays with the statement before). */
static void keep_line_comment(printer *p)
{
    uint32_t i = p->pos;
    while (i < p->srclen && (p->src[i] == ' ' || p->src[i] == '\t'))
        i++;
    if (i < p->srclen && p->src[i] == ';') {
        copy_to(p, i + 1);
        for (i++; i < p->srclen && (p->src[i] == ' ' || p->src[i] == '\t'); i++)
            ;
    }
    if (i + 1 < p->srclen && p->src[i] == '/' && p->src[i + 1] == '/') {
        while (i < p->srclen && p->src[i] != '\n' && p->src[i] != '\r')
            i++;
        copy_to(p, i);
    }
    /* spaces that end the line stay on it, not after the new node's line */
    for (i = p->pos; i < p->srclen && (p->src[i] == ' ' || p->src[i] == '\t'); i++)
        ;
    if (i > p->pos && (i == p->srclen || p->src[i] == '\n' || p->src[i] == '\r'))
        copy_to(p, i);
}

/* The whitespace that starts the line of `off`, when only whitespace is
 * before `off` on it; *len 0 otherwise. */
static uint32_t line_indent(const printer *p, uint32_t off, uint32_t *len)
{
    uint32_t s = off;
    while (s > 0 && p->src[s - 1] != '\n') {
        if (p->src[s - 1] != ' ' && p->src[s - 1] != '\t') {
            *len = 0;
            return off;
        }
        s--;
    }
    *len = off - s;
    return s;
}

static bool label_like(const ptx_node *n)
{
    return n->kind == PTX_NODE_LABEL || n->kind == PTX_NODE_CALLPROTO ||
           n->kind == PTX_NODE_TARGETS;
}

/* The indentation of an edited statement in the lossless layout: that of
 * the next unedited statement of its list, else of the last one copied. */
static void pick_prefix(printer *p, const ptx_node *n, unsigned depth)
{
    p->prefix = p->src;
    p->prefix_len = 0;
    if (depth == 0 || label_like(n))
        return;
    for (const ptx_node *s = n->next; s; s = s->next)
        if (!is_edited(s) && !label_like(s)) {
            uint32_t len, at = line_indent(p, s->span.off, &len);
            if (len) {
                p->prefix = p->src + at;
                p->prefix_len = len;
                return;
            }
            break;
        }
    if (p->last_indent_len) {
        p->prefix = p->src + p->last_indent_off;
        p->prefix_len = p->last_indent_len;
    } else {
        p->prefix = "\t\t\t\t\t\t\t\t";
        p->prefix_len = depth - 1 < 8 ? depth - 1 : 8;
    }
}

/* ---- the canonical layout: comments from the source ------------------ */

/* Writes the comments (and line markers) of src[a, b), skipping string
 * literals; with `inside`, the range is a statement's own text. */
static void out_comments(printer *p, uint32_t a, uint32_t b, unsigned indent)
{
    const char *s = p->src;
    bool same_line = true;      /* still on the line of what was printed */
    for (uint32_t i = a; i < b; i++) {
        char c = s[i];
        if (c == '\n') {
            same_line = false;
        } else if (c == '"') {
            same_line = true;
            for (i++; i < b && s[i] != '"' && s[i] != '\n'; i++)
                if (s[i] == '\\')
                    i++;
        } else if ((c == '/' && i + 1 < b && (s[i + 1] == '/' || s[i + 1] == '*')) ||
                   (c == '#' && !same_line)) {
            uint32_t e = i + 2;
            if (c == '/' && s[i + 1] == '*') {
                while (e + 1 < b && !(s[e] == '*' && s[e + 1] == '/'))
                    e++;
                e = e + 2 <= b ? e + 2 : b;
            } else {
                e = i + 1;
                while (e < b && s[e] != '\n')
                    e++;
                while (e > i && (s[e - 1] == '\r' || s[e - 1] == ' ' || s[e - 1] == '\t'))
                    e--;
            }
            if (same_line && !p->bol && c != '#') {
                ptx_out_char(p->o, ' ');
            } else {
                if (!p->bol)
                    nl(p);
                pad(p, i);
                if (c != '#')
                    ptx_out_indent(p->o, indent);
            }
            ptx_out_mem(p->o, s + i, e - i);
            for (uint32_t k = i; k < e; k++)
                p->line += s[k] == '\n';
            p->bol = false;
            /* after a line comment the line is over */
            if (c != '/' || s[i + 1] == '/')
                nl(p);
            i = e - 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            same_line = true;     /* a comment after this token follows it */
        }
    }
}

/* Comments of the source up to `end` that are not written yet. */
static void flush_comments(printer *p, uint32_t end, unsigned indent)
{
    if (p->src && !p->lossless && end > p->pos && end <= p->srclen) {
        out_comments(p, p->pos, end, indent);
        p->pos = end;
    }
}

/* A line of the canonical layout for the unedited node at `off`. */
static void start_at(printer *p, uint32_t off, unsigned indent)
{
    if (!p->bol)
        nl(p);
    pad(p, off);
    start_line(p, indent);
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
    if (d->attrs & PTX_ATTR_HIDDEN) {
        ptx_out_str(o, ".hidden");
        sep = " ";
    }
    if (d->linkage) {
        ptx_out_str(o, ptx_linkage_name(d->linkage));
        sep = " ";
    }
    if (d->space) {
        ptx_out_str(o, sep);
        ptx_out_str(o, ptx_space_name(d->space));
        sep = " ";
    }
    if (d->attrs & (PTX_ATTR_MANAGED | PTX_ATTR_UNIFIED)) {
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
        if (multiline) {
            nl(p);
            pad(p, ps[i]->base.span.off);
            ptx_out_char(o, '\t');
        } else if (i) {
            ptx_out_char(o, ' ');
        }
        out_decl(o, ps[i]);
        p->bol = false;
    }
    if (multiline && n)
        nl(p);
    ptx_out_char(o, ')');
    p->bol = false;
}

static void out_dirs(printer *p, const ptx_fdir *d, uint32_t n, bool own_lines)
{
    ptx_out *o = p->o;
    for (uint32_t i = 0; i < n; i++) {
        if (own_lines) {
            nl(p);
            pad(p, d[i].span.off);
        } else {
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

/* A declaration's ';' (none after a .pragma, whose own ';' ends it:
 * ptxas 13.0 rejects a second) */
static void out_decl_end(ptx_out *o, const ptx_func *f)
{
    if (!f->ndirs || f->dirs[f->ndirs - 1].kind != PTX_FDIR_PRAGMA)
        ptx_out_char(o, ';');
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

static void out_instr(printer *p, const ptx_instr *in)
{
    ptx_out *o = p->o;
    ptx_out_instr_head(o, in);
    for (uint32_t i = 0; i < in->nops; i++) {
        if (i)
            ptx_out_char(o, ',');
        /* an operand written on a later line stays there: ptxas gives the
         * instruction the line of its operands in the debug line table */
        uint32_t off = ptx_expr_span(&in->ops[i]).off;
        if (p->ctx && p->orig && off != PTX_NO_OFFSET &&
            ptx_position_near(p->ctx, off, &p->hint).line > p->line) {
            pad(p, off);
            ptx_out_mem(o, p->prefix, p->prefix_len);
            ptx_out_indent(o, p->indent + 1);
            p->bol = false;
        } else {
            ptx_out_str(o, i ? " " : " \t");
        }
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
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_FUNC:      /* a prototype */
        out_func_head(p, (const ptx_func *)n);
        out_decl_end(o, (const ptx_func *)n);
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
            ptx_out_fmt(o, ", %llu", (unsigned long long)f->timestamp);
        if (f->has_size)
            ptx_out_fmt(o, ", %llu", (unsigned long long)f->size);
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
        out_instr(p, (const ptx_instr *)n);
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

/* The canonical layout of one event of a walk; `indent` is the depth's.
 * `orig`: the node is unedited and its comments can be taken from the
 * source (canonical layout of a parsed tree). */
static void canon_event(printer *p, ptx_event ev, const ptx_node *n, unsigned indent,
                        unsigned depth, bool orig)
{
    ptx_out *o = p->o;
    if (!orig || !p->src || p->lossless)
        orig = false;
    p->orig = orig;
    if (n->kind == PTX_NODE_FUNC || n->kind == PTX_NODE_BLOCK || n->kind == PTX_NODE_SECTION)
        p->label_line = 0;
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_FUNC:
        if (((const ptx_func *)n)->body && ev == PTX_EVENT_EXIT) {
            if (orig)
                flush_comments(p, end_of(n), indent);
            return;
        }
        if (orig)
            flush_comments(p, n->span.off, indent);
        start_at(p, n->span.off, indent);
        out_func_head(p, (const ptx_func *)n);
        if (!((const ptx_func *)n)->body) {
            out_decl_end(o, (const ptx_func *)n);
            if (orig) {
                out_comments(p, n->span.off, end_of(n), indent);
                p->pos = end_of(n);
            }
        } else if (orig) {
            uint32_t body = ((const ptx_func *)n)->body->base.span.off;
            out_comments(p, n->span.off, body, indent);
            p->pos = body;
        }
        return;
    case PTX_NODE_BLOCK:
        if (ev == PTX_EVENT_ENTER) {
            if (orig)
                flush_comments(p, n->span.off, indent);
            if (p->inline_at) {
                ptx_out_char(o, ' ');
            } else {
                start_at(p, n->span.off, indent);
                /* a block written on one line stays on one line, as
                 * nvcc writes inline asm ("{  cvt.rn.f16.f32 %rs1, %f1;}"):
                 * the lines after it keep their numbers */
                if (orig && ptx_position_near(p->ctx, n->span.off, &p->hint).line ==
                                ptx_position_near(p->ctx, last_byte(n), &p->hint).line)
                    p->inline_at = depth + 1;
            }
            ptx_out_char(o, '{');
            if (orig) {
                p->pos = n->span.off + 1;
                /* a statement written after the '{' stays beside it */
                p->label_line = ptx_position_near(p->ctx, n->span.off, &p->hint).line;
            }
        } else {
            if (orig)
                flush_comments(p, last_byte(n), indent + 1);
            uint32_t line = orig ? ptx_position_near(p->ctx, last_byte(n), &p->hint).line : 0;
            if (p->inline_at) {
                ptx_out_char(o, ' ');
                if (p->inline_at == depth + 1)
                    p->inline_at = 0;
            } else if (line && line == p->end_line && p->line == line && !p->bol) {
                ptx_out_char(o, ' ');   /* "...;}" as written */
            } else {
                start_at(p, last_byte(n), indent);
            }
            ptx_out_char(o, '}');
            if (orig)
                p->pos = end_of(n);
        }
        return;
    case PTX_NODE_SECTION:
        if (ev == PTX_EVENT_ENTER) {
            if (orig)
                flush_comments(p, n->span.off, indent);
            start_at(p, n->span.off, indent);
            ptx_out_str(o, ".section\t");
            ptx_out_name(o, ((const ptx_section *)n)->name);
            start_at(p, orig ? section_brace(p, n) : PTX_NO_OFFSET, indent);
            ptx_out_char(o, '{');
            if (orig)
                p->pos = section_brace(p, n) + 1;
        } else {
            if (orig)
                flush_comments(p, last_byte(n), indent + 1);
            start_at(p, last_byte(n), indent);
            ptx_out_char(o, '}');
            if (orig)
                p->pos = end_of(n);
        }
        return;
    default: {
        uint32_t label_line = p->label_line;
        p->label_line = 0;
        if (orig)
            flush_comments(p, n->span.off, indent);
        /* a label keeps the statement written on its line beside it */
        uint32_t line = orig && p->ctx ? ptx_position_near(p->ctx, n->span.off, &p->hint).line : 0;
        if ((line && line == label_line && p->line == line && !p->bol) || p->inline_at)
            ptx_out_char(o, ' ');
        else
            start_at(p, n->span.off, label_like(n) && depth > 0 ? 0 : indent);
        if (n->kind == PTX_NODE_LABEL)
            p->label_line = line;
        p->end_line = orig ? ptx_position_near(p->ctx, last_byte(n), &p->hint).line : 0;
        out_leaf(p, n, indent);
        if (orig) {
            out_comments(p, n->span.off, end_of(n), indent);
            p->pos = end_of(n);
        }
        return;
    }
    }
}

/* Prints node n and what it contains in the canonical layout, at `indent`
 * tabs (after p->prefix); `depth` is its depth in the module. */
static ptx_status canon_subtree(printer *p, const ptx_node *n, unsigned indent, unsigned depth)
{
    ptx_iter *it = ptx_iter_new_node(n);
    if (!it)
        return PTX_ERR_NOMEM;
    const ptx_node *c;
    ptx_event ev;
    ptx_status st = PTX_OK;
    while ((ev = ptx_iter_next(it, &c)) > 0) {
        unsigned d = ptx_iter_depth(it);
        /* a function's body block is at the function's indentation */
        unsigned extra = d;
        if (n->kind == PTX_NODE_FUNC && d)
            extra = d - 1;
        canon_event(p, ev, c, indent + extra, depth + d, false);
    }
    if (ev == PTX_EVENT_NOMEM)
        st = PTX_ERR_NOMEM;
    ptx_iter_free(it);
    return st;
}

static void out_header(printer *p, const ptx_module *m)
{
    ptx_out *o = p->o;
    p->orig = p->src != NULL;
    flush_comments(p, m->version_span.off, 0);
    start_at(p, m->version_span.off, 0);
    ptx_out_fmt(o, ".version %u.%u", m->version_major, m->version_minor);
    flush_comments(p, m->target_span.off, 0);
    start_at(p, m->target_span.off, 0);
    ptx_out_str(o, ".target ");
    for (uint32_t i = 0; i < m->ntargets; i++) {
        if (i)
            ptx_out_mem(o, ", ", 2);
        ptx_out_name(o, m->targets[i]);
    }
    if (m->address_size) {
        flush_comments(p, m->address_span.off, 0);
        start_at(p, m->address_span.off, 0);
        ptx_out_fmt(o, ".address_size %u", m->address_size);
    }
    nl(p);
}

static uint32_t header_end(const ptx_module *m)
{
    uint32_t end = 0;
    const ptx_span *s[3] = { &m->version_span, &m->target_span, &m->address_span };
    for (int i = 0; i < 3; i++)
        if (s[i]->off != PTX_NO_OFFSET && s[i]->len && s[i]->off + s[i]->len > end)
            end = s[i]->off + s[i]->len;
    return end;
}

/* The removed text that node n replaced (the first in the source if it
 * replaced several), or NULL. */
static const ptx_removed *replaced_by(const printer *p, const ptx_node *n)
{
    size_t lo = 0, hi = p->nreplaced;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)p->replaced[mid]->by < (uintptr_t)n)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nreplaced && p->replaced[lo]->by == n ? p->replaced[lo] : NULL;
}

/* Where the line of the statement after `n` in its list starts: the
 * first unedited one, or where the text of the one a node replaced was;
 * PTX_NO_OFFSET when there is none, or when it follows another statement
 * on its line ("a; b;"). */
static uint32_t next_line_start(const printer *p, const ptx_node *n)
{
    uint32_t at = PTX_NO_OFFSET;
    for (const ptx_node *s = n->next; s && at == PTX_NO_OFFSET; s = s->next) {
        const ptx_removed *old = is_edited(s) ? replaced_by(p, s) : NULL;
        if (!is_edited(s))
            at = s->span.off;
        else if (old)
            at = old->span.off;
    }
    if (at == PTX_NO_OFFSET || at > p->srclen)
        return PTX_NO_OFFSET;
    while (at > 0 && p->src[at - 1] != '\n') {
        if (p->src[at - 1] != ' ' && p->src[at - 1] != '\t')
            return PTX_NO_OFFSET;
        at--;
    }
    return at;
}

/* The lossless layout of one event: `depth` as ptx_iter_depth. */
static ptx_status lossless_event(printer *p, ptx_iter *it, ptx_event ev, const ptx_node *n,
                                 unsigned depth, const ptx_module *m)
{
    if (ev == PTX_EVENT_ENTER && is_edited(n)) {
        if (depth == 0)
            copy_to(p, header_end(m));
        const ptx_removed *old = replaced_by(p, n);
        pick_prefix(p, n, depth);
        /* at the start of a line, the node ends its own line; else it
         * starts a new one */
        bool own_line;
        uint32_t above = depth > 0 && !old && (n->flags & PTX_NODE_WITH_NEXT)
                             ? next_line_start(p, n) : PTX_NO_OFFSET;
        if (old && old->span.off >= p->pos) {
            /* where the node it replaces was: after the text before it */
            copy_to(p, old->span.off);
            if (!old->whole_line)
                p->prefix_len = 0;
            own_line = p->bol;
        } else if (above != PTX_NO_OFFSET && above >= p->pos) {
            /* put before a statement: on the line right above it.  The
             * blank lines and comments above that statement stay where
             * they were, between it and the statement before, as a reader
             * of the diff expects (the new line is next to the one it was
             * put before; a blank line that parted two groups still
             * does).  A comment right above the statement then sits
             * above the new line too. */
            copy_to(p, above);
            own_line = p->bol;
        } else if (!p->bol) {
            keep_line_comment(p);
            if (depth == 0 && n->kind == PTX_NODE_FUNC)
                nl(p);
            nl(p);
            own_line = false;
        } else {
            own_line = true;
        }
        ptx_status st = canon_subtree(p, n, 0, depth);
        if (own_line)
            nl(p);
        p->prefix_len = 0;
        p->bol = own_line;
        p->line_content = !own_line;
        p->blanks = 0;
        ptx_iter_skip_children(it);
        return st;
    }
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_FUNC:
        if (!((const ptx_func *)n)->body || ev == PTX_EVENT_EXIT)
            copy_to(p, end_of(n));
        return PTX_OK;
    case PTX_NODE_BLOCK:
        copy_to(p, ev == PTX_EVENT_ENTER ? n->span.off + 1 : end_of(n));
        return PTX_OK;
    case PTX_NODE_SECTION:
        copy_to(p, ev == PTX_EVENT_ENTER ? section_brace(p, n) + 1 : end_of(n));
        return PTX_OK;
    default:
        copy_to(p, end_of(n));
        if (!label_like(n)) {
            uint32_t len, at = line_indent(p, n->span.off, &len);
            if (len) {
                p->last_indent_off = at;
                p->last_indent_len = len;
            }
        }
        return PTX_OK;
    }
}

static ptx_status print_layout(const ptx_context *ctx, const ptx_module *m, bool canonical,
                               ptx_print_filter filter, void *filter_user,
                               ptx_write_fn write, void *user);

ptx_status ptx_print_ptx(const ptx_context *ctx, const ptx_module *m,
                         ptx_write_fn write, void *user)
{
    return ptx_print_ptx_items(ctx, m, NULL, NULL, write, user);
}

ptx_status ptx_print_ptx_items(const ptx_context *ctx, const ptx_module *m,
                               ptx_print_filter filter, void *filter_user,
                               ptx_write_fn write, void *user)
{
    return print_layout(ctx, m, false, filter, filter_user, write, user);
}

ptx_status ptx_print_ptx_canonical(const ptx_context *ctx, const ptx_module *m,
                                   ptx_print_filter filter, void *filter_user,
                                   ptx_write_fn write, void *user)
{
    return print_layout(ctx, m, true, filter, filter_user, write, user);
}

ptx_status ptx_print_node(const ptx_node *n, ptx_write_fn write, void *user)
{
    if (!n || !write)
        return PTX_ERR_USAGE;
    ptx_out o;
    ptx_out_init(&o, write, user);
    printer pr = { 0 };
    pr.o = &o;
    pr.eol = "\n";
    pr.prefix = "";
    pr.bol = true;
    ptx_status st = canon_subtree(&pr, n, 0, n->kind == PTX_NODE_FUNC ? 0 : 2);
    ptx_status fin = ptx_out_finish(&o);
    return st != PTX_OK ? st : fin;
}

static int by_offset(const void *a, const void *b)
{
    uint32_t x = ((const ptx_removed *)a)->span.off, y = ((const ptx_removed *)b)->span.off;
    return x < y ? -1 : x > y;
}

static int by_node(const void *a, const void *b)
{
    const ptx_removed *x = *(const ptx_removed *const *)a, *y = *(const ptx_removed *const *)b;
    if (x->by != y->by)
        return (uintptr_t)x->by < (uintptr_t)y->by ? -1 : 1;
    return by_offset(x, y);
}

/* A module item the filter refuses that a printed function names (a
 * variable, a prototype): printed all the same. */
static ptx_status out_needed(printer *p, ptx_iter *it, const ptx_node *n, const ptx_module *m)
{
    if (p->lossless)
        return lossless_event(p, it, PTX_EVENT_ENTER, n, 0, m);
    canon_event(p, PTX_EVENT_ENTER, n, 0, 0, !is_edited(n));
    return PTX_OK;
}

/* Where the text of an unedited item left out starts: its line, when
 * only blanks come before it there, and the comment lines right above it
 * (nvcc's "// .globl"); never before what is written.  The text before
 * that (the header, the ';' after a variable) stays. */
static uint32_t drop_start(const printer *p, const ptx_node *n)
{
    uint32_t i = n->span.off;
    while (i > p->pos && (p->src[i - 1] == ' ' || p->src[i - 1] == '\t'))
        i--;
    if (i > p->pos && p->src[i - 1] != '\n')
        return n->span.off;
    while (i > p->pos) {
        uint32_t j = i - 1;     /* the '\n' that ends the line above */
        while (j > 0 && p->src[j - 1] != '\n')
            j--;
        if (j < p->pos)
            break;
        uint32_t k = j;
        while (k < i && (p->src[k] == ' ' || p->src[k] == '\t'))
            k++;
        if (k + 1 >= i || p->src[k] != '/' || p->src[k + 1] != '/')
            break;
        i = j;
    }
    return i;
}

static ptx_status print_layout(const ptx_context *ctx, const ptx_module *m, bool canonical,
                                ptx_print_filter filter, void *filter_user,
                                ptx_write_fn write, void *user)
{
    ptx_out *o;
    ptx_iter *it;
    ptx_status st = ptx_printer_open(m, write, user, &o, &it);
    if (st != PTX_OK)
        return st;
    printer pr = { 0 };
    printer *p = &pr;
    p->o = o;
    p->eol = "\n";
    p->prefix = "";
    p->bol = true;
    p->line = 1;
    /* the source only describes the tree this context parsed */
    if (ctx && ptx_context_module(ctx) == m) {
        size_t len;
        p->src = ptx_context_source(ctx, &len);
        p->srclen = (uint32_t)len;
        p->lossless = !canonical;
        if (canonical)
            p->ctx = ctx;
        const char *lf = memchr(p->src, '\n', len);
        if (p->lossless && lf && lf > p->src && lf[-1] == '\r')
            p->eol = "\r\n";
        p->squeeze = p->lossless && filter;
        size_t n;
        const ptx_removed *rm = ptx_removed_spans(ctx, &n);
        if (n && p->lossless) {
            p->removed = malloc(n * sizeof *p->removed);
            if (!p->removed)
                return ptx_printer_close(o, it, PTX_ERR_NOMEM);
            memcpy(p->removed, rm, n * sizeof *rm);
            qsort(p->removed, n, sizeof *p->removed, by_offset);
            p->nremoved = n;
            p->replaced = malloc(n * sizeof *p->replaced);
            if (!p->replaced) {
                free(p->removed);
                return ptx_printer_close(o, it, PTX_ERR_NOMEM);
            }
            for (size_t i = 0; i < n; i++)
                if (p->removed[i].by)
                    p->replaced[p->nreplaced++] = &p->removed[i];
            qsort(p->replaced, p->nreplaced, sizeof *p->replaced, by_node);
        }
    }
    ptx_needed need = { 0 };
    if (filter && (st = ptx_needed_collect(&need, m, filter, filter_user)) != PTX_OK) {
        ptx_needed_free(&need);
        free(p->removed);
        free(p->replaced);
        return ptx_printer_close(o, it, st);
    }
    if (!p->lossless)
        out_header(p, m);
    const ptx_node *n;
    ptx_event ev;
    while ((ev = ptx_iter_next(it, &n)) != PTX_EVENT_DONE && !o->failed) {
        if (ev == PTX_EVENT_NOMEM) {
            st = PTX_ERR_NOMEM;
            break;
        }
        unsigned depth = ptx_iter_depth(it);
        if (depth == 0 && ev == PTX_EVENT_ENTER && filter && !filter(n, filter_user) &&
            !ptx_needed_whole(&need, n)) {
            ptx_iter_skip_children(it);
            if (p->lossless && !is_edited(n))
                copy_to(p, drop_start(p, n));
            if (ptx_needed_item(&need, n))
                st = out_needed(p, it, n, m);
            if (p->src && !is_edited(n) && end_of(n) > p->pos)
                p->pos = end_of(n);
            if (st != PTX_OK)
                break;
            continue;
        }
        if (p->lossless) {
            st = lossless_event(p, it, ev, n, depth, m);
        } else if (ev == PTX_EVENT_ENTER && is_edited(n)) {
            st = canon_subtree(p, n, depth > 1 ? depth - 1 : 0, depth);
            ptx_iter_skip_children(it);
        } else {
            /* statements are indented by block depth; the body block of
             * a function sits at depth 1 */
            canon_event(p, ev, n, depth > 1 ? depth - 1 : 0, depth, !is_edited(n));
        }
        if (st != PTX_OK)
            break;
    }
    if (p->lossless) {
        copy_to(p, p->srclen);
    } else {
        flush_comments(p, p->srclen, 0);
        if (!p->bol)
            nl(p);
    }
    free(p->removed);
    free(p->replaced);
    ptx_needed_free(&need);
    return ptx_printer_close(o, it, st);
}
