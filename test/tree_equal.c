/* Field-by-field comparison of two parses (tree_equal.h).
 *
 * Every struct of ptx/ast.h is compared field by field in a function of
 * its own, next to a _Static_assert on the struct's size (on LP64, where
 * the sizes below hold): a field added to a struct grows it, which stops
 * the build here until its comparison is written and the size updated.
 * A field put into padding does not grow the struct; the holes are named
 * next to the assertions.  ptx_name's hash is not compared: it follows
 * from the text; nor its id, the order in which its context interned
 * it, which two parses need not share.
 *
 * The path to the node being compared is kept as a stack of frames and
 * put into words only when a difference is found. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tree_equal.h"

#if UINTPTR_MAX == UINT64_MAX
#define SIZE_IS(type, n) _Static_assert(sizeof(type) == (n), \
    #type " changed size: compare its new field in tree_equal.c, then update the size here")
#else
#define SIZE_IS(type, n)
#endif

/* One step of the path: "operand 2", "function 'f'", "statement 12
 * (line 40)". */
typedef struct frame {
    const char *what;
    uint32_t index;             /* 0: none; else counted from 1 */
    const ptx_name *name;       /* quoted after `what`, or NULL */
    uint32_t off;               /* its line is given, or PTX_NO_OFFSET */
} frame;

enum { MAX_FRAMES = 48 };

typedef struct teq {
    const ptx_context *a, *b;
    char *why;
    size_t whylen;
    unsigned depth;             /* frames pushed; only MAX_FRAMES are kept */
    frame path[MAX_FRAMES];
} teq;

static void push(teq *t, const char *what, uint32_t index, const ptx_name *name, uint32_t off)
{
    if (t->depth < MAX_FRAMES)
        t->path[t->depth] = (frame){ what, index, name, off };
    t->depth++;
}

static void pop(teq *t)
{
    t->depth--;
}

/* Appends to why; stops quietly at its end. */
static void put(teq *t, size_t *at, const char *fmt, ...)
{
    if (*at + 1 >= t->whylen)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->why + *at, t->whylen - *at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at = *at + (size_t)n < t->whylen ? *at + (size_t)n : t->whylen - 1;
}

/* Writes the path and the difference into why; returns false. */
static bool differ(teq *t, const char *fmt, ...)
{
    if (!t->why || !t->whylen)
        return false;
    size_t at = 0;
    t->why[0] = '\0';
    unsigned kept = t->depth < MAX_FRAMES ? t->depth : MAX_FRAMES;
    for (unsigned i = 0; i < kept; i++) {
        const frame *f = &t->path[i];
        put(t, &at, "%s%s", i ? ", " : "", f->what);
        if (f->index)
            put(t, &at, " %u", (unsigned)f->index);
        if (f->name)
            put(t, &at, " '%s'", f->name->text);
        if (f->off != PTX_NO_OFFSET)
            put(t, &at, " (line %u)", (unsigned)ptx_context_position(t->a, f->off).line);
    }
    if (t->depth > kept)
        put(t, &at, ", ...");
    put(t, &at, "%s", kept ? ": " : "");
    if (at + 1 < t->whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->why + at, t->whylen - at, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* ---- leaves of the comparison ------------------------------------------ */

static const char *text_of(const ptx_name *n)
{
    return n ? n->text : "(none)";
}

static bool same_name(const ptx_name *x, const ptx_name *y)
{
    if (!x || !y)
        return x == y;
    return x->len == y->len && memcmp(x->text, y->text, x->len) == 0;
}

static bool name_eq(teq *t, const char *field, const ptx_name *x, const ptx_name *y)
{
    if (same_name(x, y))
        return true;
    return differ(t, "%s '%s' vs '%s'", field, text_of(x), text_of(y));
}

static bool u64_eq(teq *t, const char *field, uint64_t x, uint64_t y)
{
    if (x == y)
        return true;
    return differ(t, "%s %llu vs %llu", field, (unsigned long long)x, (unsigned long long)y);
}

static bool span_eq(teq *t, const char *field, ptx_span x, ptx_span y)
{
    if (x.off == y.off && x.len == y.len)
        return true;
    return differ(t, "%s %u+%u vs %u+%u", field, (unsigned)x.off, (unsigned)x.len,
                  (unsigned)y.off, (unsigned)y.len);
}

/* `n` names of a list, compared by text */
static bool names_eq(teq *t, const char *field, const ptx_name *const *x,
                     const ptx_name *const *y, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        push(t, field, i + 1, NULL, PTX_NO_OFFSET);
        bool ok = name_eq(t, "text", x[i], y[i]);
        pop(t);
        if (!ok)
            return false;
    }
    return true;
}

/* ---- expressions -------------------------------------------------------- */

SIZE_IS(ptx_expr, 16);
SIZE_IS(ptx_expr_box, 24);      /* hole: 4 bytes after len */
SIZE_IS(ptx_expr_more, 16);

static bool expr_eq(teq *t, const ptx_expr *x, const ptx_expr *y)
{
    if (x->kind != y->kind)
        return differ(t, "kind %s vs %s", ptx_expr_kind_name((ptx_expr_kind)x->kind),
                      ptx_expr_kind_name((ptx_expr_kind)y->kind));
    /* op of the inner kinds, flags of the leaves: one byte */
    if (x->op != y->op)
        return differ(t, "%s %u vs %u", ptx_expr_is_leaf(x) ? "flags" : "op", x->op, y->op);
    if (!span_eq(t, "span", ptx_expr_span(x), ptx_expr_span(y)))
        return false;
    if (!u64_eq(t, "depth", ptx_expr_depth(x), ptx_expr_depth(y)))
        return false;
    switch ((ptx_expr_kind)x->kind) {
    case PTX_EXPR_INT:
    case PTX_EXPR_F32:
    case PTX_EXPR_F64:
        return u64_eq(t, "value", ptx_expr_int(x), ptx_expr_int(y));
    case PTX_EXPR_FLOAT: {
        double fx = ptx_expr_float(x), fy = ptx_expr_float(y);
        uint64_t bx, by;
        memcpy(&bx, &fx, sizeof bx);
        memcpy(&by, &fy, sizeof by);
        if (bx == by)
            return true;
        return differ(t, "value %.17g (0x%016llx) vs %.17g (0x%016llx)", fx,
                      (unsigned long long)bx, fy, (unsigned long long)by);
    }
    case PTX_EXPR_SYM:
        return name_eq(t, "name", ptx_expr_name(x), ptx_expr_name(y)) &&
               name_eq(t, "selector", ptx_expr_sel(x), ptx_expr_sel(y));
    case PTX_EXPR_SINK:
        return true;
    case PTX_EXPR_RANGE:
        return name_eq(t, "name", ptx_expr_name(x), ptx_expr_name(y)) &&
               u64_eq(t, "count", ptx_expr_count(x), ptx_expr_count(y));
    default:
        break;
    }
    if (!name_eq(t, "suffix", x->u.more->name, y->u.more->name) ||
        !u64_eq(t, "items", ptx_expr_count(x), ptx_expr_count(y)))
        return false;
    for (uint32_t i = 0; i < ptx_expr_count(x); i++) {
        push(t, "item", i + 1, NULL, PTX_NO_OFFSET);
        bool ok = expr_eq(t, ptx_expr_item(x, i), ptx_expr_item(y, i));
        pop(t);
        if (!ok)
            return false;
    }
    return true;
}

/* an expression that may be absent */
static bool opt_expr_eq(teq *t, const char *field, const ptx_expr *x, const ptx_expr *y)
{
    if (!x || !y) {
        if (x == y)
            return true;
        return differ(t, "%s %s vs %s", field, x ? "present" : "absent", y ? "present" : "absent");
    }
    push(t, field, 0, NULL, PTX_NO_OFFSET);
    bool ok = expr_eq(t, x, y);
    pop(t);
    return ok;
}

/* ---- declarations and function headers ------------------------------ */

static bool list_eq(teq *t, const ptx_node *x, const ptx_node *y, const char *what);

SIZE_IS(ptx_node, 24);          /* hole: 4 bytes after span */

static bool header_eq(teq *t, const ptx_node *x, const ptx_node *y)
{
    if (x->kind != y->kind)
        return differ(t, "kind %s vs %s", ptx_node_kind_name((ptx_node_kind)x->kind),
                      ptx_node_kind_name((ptx_node_kind)y->kind));
    /* an instruction's are family, guard_neg and flags: instr_eq's */
    if (x->kind != PTX_NODE_INSTR) {
        for (int i = 0; i < 2; i++)
            if (x->kind_data[i] != y->kind_data[i])
                return differ(t, "kind_data[%d] 0x%02x vs 0x%02x", i, x->kind_data[i],
                              y->kind_data[i]);
        if (x->flags != y->flags)
            return differ(t, "flags 0x%02x vs 0x%02x", x->flags, y->flags);
    }
    return span_eq(t, "span", x->span, y->span);
}

SIZE_IS(ptx_var, 48);           /* hole: 4 bytes after ndims */

static bool var_eq(teq *t, const ptx_var *x, const ptx_var *y)
{
    if (!name_eq(t, "name", x->name, y->name) || !span_eq(t, "span", x->span, y->span) ||
        !u64_eq(t, "has_range", x->has_range, y->has_range) ||
        !u64_eq(t, "unsized", x->unsized, y->unsized) || !u64_eq(t, "range", x->range, y->range) ||
        !u64_eq(t, "dimensions", x->ndims, y->ndims))
        return false;
    for (uint32_t i = 0; i < x->ndims; i++) {
        push(t, "dimension", i + 1, NULL, PTX_NO_OFFSET);
        bool ok = u64_eq(t, "size", x->dims[i], y->dims[i]);
        pop(t);
        if (!ok)
            return false;
    }
    return opt_expr_eq(t, "initialiser", x->init, y->init);
}

SIZE_IS(ptx_decl, 72);          /* holes: 1 byte after ptr_space, 4 after nvars */

static bool decl_eq(teq *t, const ptx_decl *x, const ptx_decl *y)
{
    if (!header_eq(t, &x->base, &y->base) || !u64_eq(t, "linkage", x->linkage, y->linkage) ||
        !u64_eq(t, "space", x->space, y->space) || !u64_eq(t, "type", x->type, y->type) ||
        !u64_eq(t, "vec", x->vec, y->vec) || !u64_eq(t, "align", x->align, y->align) ||
        !u64_eq(t, "attrs", x->attrs, y->attrs) || !u64_eq(t, "has_ptr", x->has_ptr, y->has_ptr) ||
        !u64_eq(t, "ptr_space", x->ptr_space, y->ptr_space) ||
        !u64_eq(t, "ptr_align", x->ptr_align, y->ptr_align) ||
        !u64_eq(t, "unified[0]", x->unified[0], y->unified[0]) ||
        !u64_eq(t, "unified[1]", x->unified[1], y->unified[1]) ||
        !u64_eq(t, "variables", x->nvars, y->nvars))
        return false;
    for (uint32_t i = 0; i < x->nvars; i++) {
        push(t, "variable", i + 1, x->vars[i].name, PTX_NO_OFFSET);
        bool ok = var_eq(t, &x->vars[i], &y->vars[i]);
        pop(t);
        if (!ok)
            return false;
    }
    return true;
}

/* `n` parameter declarations (return or input) */
static bool decls_eq(teq *t, const char *what, ptx_decl *const *x, ptx_decl *const *y, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        push(t, what, i + 1, NULL, x[i]->base.span.off);
        bool ok = decl_eq(t, x[i], y[i]);
        pop(t);
        if (!ok)
            return false;
    }
    return true;
}

SIZE_IS(ptx_fdir, 32);          /* hole: 2 bytes after nvals */

static bool fdirs_eq(teq *t, const ptx_fdir *x, const ptx_fdir *y, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const ptx_fdir *dx = &x[i], *dy = &y[i];
        push(t, "directive", i + 1, NULL, dx->span.off);
        bool ok = u64_eq(t, "kind", dx->kind, dy->kind) && u64_eq(t, "nvals", dx->nvals, dy->nvals) &&
                  span_eq(t, "span", dx->span, dy->span);
        for (int k = 0; ok && k < 3; k++)
            ok = u64_eq(t, k == 0 ? "vals[0]" : k == 1 ? "vals[1]" : "vals[2]", dx->vals[k], dy->vals[k]);
        if (ok && (dx->strings || dy->strings)) {
            if (!dx->strings || !dy->strings)
                ok = differ(t, "strings %s vs %s", dx->strings ? "present" : "absent",
                            dy->strings ? "present" : "absent");
            else
                ok = names_eq(t, "string", dx->strings, dy->strings, dx->nvals);
        }
        pop(t);
        if (!ok)
            return false;
    }
    return true;
}

/* The return and parameter lists and the directives, as a function and a
 * call prototype have them. */
static bool signature_eq(teq *t, uint32_t nret, uint32_t nparams, uint32_t ndirs,
                         ptx_decl *const *rx, ptx_decl *const *px, const ptx_fdir *dx,
                         uint32_t nret_y, uint32_t nparams_y, uint32_t ndirs_y,
                         ptx_decl *const *ry, ptx_decl *const *py, const ptx_fdir *dy)
{
    return u64_eq(t, "return parameters", nret, nret_y) &&
           u64_eq(t, "parameters", nparams, nparams_y) && u64_eq(t, "directives", ndirs, ndirs_y) &&
           decls_eq(t, "return parameter", rx, ry, nret) &&
           decls_eq(t, "parameter", px, py, nparams) && fdirs_eq(t, dx, dy, ndirs);
}

/* ---- instructions --------------------------------------------------------- */

SIZE_IS(ptx_mod, 16);           /* hole: 1 byte after category */
SIZE_IS(ptx_instr, 32);

static bool mod_eq(teq *t, const ptx_mod *x, const ptx_mod *y)
{
    return name_eq(t, "name", x->name, y->name) && u64_eq(t, "offset", x->off, y->off) &&
           u64_eq(t, "id", x->id, y->id) && u64_eq(t, "category", x->category, y->category);
}

static bool instr_eq(teq *t, const ptx_instr *x, const ptx_instr *y)
{
    if (!header_eq(t, &x->base, &y->base) || !u64_eq(t, "family", x->family, y->family) ||
        !u64_eq(t, "guard_neg", x->guard_neg, y->guard_neg) ||
        !u64_eq(t, "flags", x->flags, y->flags) || !u64_eq(t, "modifiers", x->nmods, y->nmods) ||
        !u64_eq(t, "operands", x->nops, y->nops))
        return false;
    if (!x->mods || !y->mods)
        return x->mods == y->mods ||
               differ(t, "mods %s vs %s", x->mods ? "set" : "NULL", y->mods ? "set" : "NULL");
    push(t, "opcode", 0, NULL, PTX_NO_OFFSET);
    bool ok = mod_eq(t, &x->mods[-1], &y->mods[-1]);
    pop(t);
    for (uint32_t i = 0; ok && i < x->nmods; i++) {
        push(t, "modifier", i + 1, x->mods[i].name, PTX_NO_OFFSET);
        ok = mod_eq(t, &x->mods[i], &y->mods[i]);
        pop(t);
    }
    for (uint32_t i = 0; ok && i < x->nops; i++) {
        push(t, "operand", i + 1, NULL, PTX_NO_OFFSET);
        ok = expr_eq(t, &x->ops[i], &y->ops[i]);
        pop(t);
    }
    return ok && opt_expr_eq(t, "guard", ptx_instr_guard(x), ptx_instr_guard(y));
}

/* ---- section data ----------------------------------------------------- */

SIZE_IS(ptx_data_sym, 16);      /* hole: 4 bytes after index */
SIZE_IS(ptx_data, 96);          /* holes: 3 bytes after width, 4 after nlines, 4 after nsyms */

/* A data node that is a run of lines: every field, when both trees made
 * the same run. */
static bool run_eq(teq *t, const ptx_data *x, const ptx_data *y)
{
    if (!header_eq(t, &x->base, &y->base) || !name_eq(t, "word", x->word, y->word) ||
        !u64_eq(t, "count", x->count, y->count) || !u64_eq(t, "width", x->width, y->width) ||
        !u64_eq(t, "lines", x->nlines, y->nlines) || !u64_eq(t, "labels", x->nsyms, y->nsyms))
        return false;
    if (memcmp(x->ints, y->ints, (size_t)x->count * x->width) != 0)
        return differ(t, "packed values differ");
    if (!x->line_ends != !y->line_ends || !x->line_bytes != !y->line_bytes)
        return differ(t, "line_ends %s vs %s, line_bytes %s vs %s", x->line_ends ? "set" : "NULL",
                      y->line_ends ? "set" : "NULL", x->line_bytes ? "set" : "NULL",
                      y->line_bytes ? "set" : "NULL");
    if (x->line_ends && memcmp(x->line_ends, y->line_ends, (size_t)x->nlines * sizeof *x->line_ends))
        return differ(t, "line_ends differ");
    if (x->line_bytes && memcmp(x->line_bytes, y->line_bytes, x->nlines))
        return differ(t, "line_bytes differ");
    for (uint32_t i = 0; i < x->nsyms; i++)
        if (x->syms[i].index != y->syms[i].index || !same_name(x->syms[i].name, y->syms[i].name))
            return differ(t, "label %u: value %u '%s' vs value %u '%s'", (unsigned)i + 1,
                          (unsigned)x->syms[i].index + 1, text_of(x->syms[i].name),
                          (unsigned)y->syms[i].index + 1, text_of(y->syms[i].name));
    return true;
}

/* A place in a sequence of data nodes, line by line: line `k` of node
 * `d`. */
typedef struct data_cursor {
    const ptx_node *n;
    uint32_t k;
} data_cursor;

static const ptx_data *data_at(const data_cursor *c)
{
    return c->n && c->n->kind == PTX_NODE_DATA ? (const ptx_data *)c->n : NULL;
}

static void data_next_line(data_cursor *c)
{
    const ptx_data *d = data_at(c);
    if (++c->k >= d->nlines) {
        c->n = c->n->next;
        c->k = 0;
    }
}

/* The word of a data line */
static const char *line_word(const ptx_data *d, uint32_t k)
{
    return d->width ? ptx_data_line_word(d, k) : d->word->text;
}

/* Value i of a data node: a run's number or label against another's, or
 * an expression against a run's value (a plain decimal integer, or a
 * label: a name without selector), or two expressions. */
static bool data_value_eq(teq *t, const ptx_data *x, uint32_t i, const ptx_data *y, uint32_t j)
{
    if (!x->width && !y->width)
        return expr_eq(t, x->values[i], y->values[j]);
    if (x->width && y->width) {
        const ptx_name *sx = ptx_data_sym_at(x, i), *sy = ptx_data_sym_at(y, j);
        if (sx || sy)
            return name_eq(t, "label", sx, sy);
        return u64_eq(t, "value", ptx_data_int(x, i), ptx_data_int(y, j));
    }
    bool swapped = !x->width;
    const ptx_data *run = swapped ? y : x;
    uint32_t ri = swapped ? j : i;
    const ptx_expr *e = swapped ? x->values[i] : y->values[j];
    const ptx_name *sym = ptx_data_sym_at(run, ri);
    if (sym) {
        if (e->kind == PTX_EXPR_SYM && !ptx_expr_sel(e) && same_name(ptx_expr_name(e), sym))
            return true;
        return differ(t, "the run's label '%s' vs a %s expression on the other side", sym->text,
                      ptx_expr_kind_name((ptx_expr_kind)e->kind));
    }
    uint64_t v = ptx_data_int(run, ri);
    if (e->kind == PTX_EXPR_INT && e->flags == PTX_INT_DEC && ptx_expr_int(e) == v)
        return true;
    return differ(t, "the run's value %llu vs %s expression %s %llu (flags %u)", (unsigned long long)v,
                  swapped ? "the first tree's" : "the second tree's",
                  ptx_expr_kind_name((ptx_expr_kind)e->kind),
                  (unsigned long long)(e->kind == PTX_EXPR_INT ? ptx_expr_int(e) : 0), e->flags);
}

/* Two sequences of data nodes from cx and cy on, line by line, up to the
 * first node that is not data on either side; a run may stand for lines
 * that the other tree keeps one node each.  The cursors end after the
 * data.  `index` counts the items of the enclosing list. */
static bool data_eq(teq *t, data_cursor *cx, data_cursor *cy, uint32_t *index, const char *what)
{
    while (data_at(cx) && data_at(cy)) {
        const ptx_data *x = data_at(cx), *y = data_at(cy);
        push(t, what, *index, NULL, cx->k ? PTX_NO_OFFSET : x->base.span.off);
        bool ok = true;
        if (cx->k == 0 && cy->k == 0 && (x->width != 0) == (y->width != 0)) {
            /* the same shape on both sides: node against node */
            ok = x->width ? run_eq(t, x, y) : header_eq(t, &x->base, &y->base) &&
                                                  name_eq(t, "word", x->word, y->word) &&
                                                  u64_eq(t, "values", x->count, y->count) &&
                                                  u64_eq(t, "lines", x->nlines, y->nlines);
            for (uint32_t i = 0; ok && !x->width && i < x->count; i++) {
                push(t, "value", i + 1, NULL, PTX_NO_OFFSET);
                ok = data_value_eq(t, x, i, y, i);
                pop(t);
            }
            pop(t);
            if (!ok)
                return false;
            cx->n = cx->n->next;
            cy->n = cy->n->next;
            (*index)++;
            continue;
        }
        /* a run against single lines: line by line */
        push(t, "line", cx->k + 1, NULL, PTX_NO_OFFSET);
        uint32_t ix = ptx_data_line_start(x, cx->k), nx = ptx_data_line_start(x, cx->k + 1) - ix;
        uint32_t iy = ptx_data_line_start(y, cy->k), ny = ptx_data_line_start(y, cy->k + 1) - iy;
        const char *wx = line_word(x, cx->k), *wy = line_word(y, cy->k);
        if (strcmp(wx, wy) != 0)
            ok = differ(t, "word '%s' vs '%s'", wx, wy);
        else
            ok = u64_eq(t, "values", nx, ny);
        for (uint32_t i = 0; ok && i < nx; i++) {
            push(t, "value", i + 1, NULL, PTX_NO_OFFSET);
            ok = data_value_eq(t, x, ix + i, y, iy + i);
            pop(t);
        }
        /* where a line starts or ends is known at a node's ends */
        if (ok && cx->k == 0 && cy->k == 0 && x->base.span.off != y->base.span.off)
            ok = differ(t, "starts at %u vs %u", (unsigned)x->base.span.off,
                        (unsigned)y->base.span.off);
        bool x_last = cx->k + 1 == x->nlines, y_last = cy->k + 1 == y->nlines;
        uint32_t ex = x->base.span.off + x->base.span.len, ey = y->base.span.off + y->base.span.len;
        if (ok && x_last && y_last && ex != ey)
            ok = differ(t, "ends at %u vs %u", (unsigned)ex, (unsigned)ey);
        if (ok && (x->base.flags != y->base.flags))
            ok = differ(t, "flags 0x%02x vs 0x%02x", x->base.flags, y->base.flags);
        pop(t);
        pop(t);
        if (!ok)
            return false;
        data_next_line(cx);
        data_next_line(cy);
        /* a node of one side ends here but not on the other: the items
         * are counted by the first tree */
        if (x_last)
            (*index)++;
    }
    if (cx->k || cy->k)
        return differ(t, "%s %u: line %u of a run of data lines in the %s tree, no data in the other",
                      what, (unsigned)*index, (unsigned)(cx->k ? cx->k : cy->k) + 1,
                      cx->k ? "first" : "second");
    return true;
}

/* ---- statements and module items ----------------------------------------- */

SIZE_IS(ptx_block, 32);
SIZE_IS(ptx_func, 104);         /* hole: 3 bytes after has_ret; 4 after ndirs */
SIZE_IS(ptx_alias, 40);
SIZE_IS(ptx_pragma, 40);        /* hole: 4 bytes after nstrings */
SIZE_IS(ptx_file, 56);          /* holes: 2 bytes after has_size */
SIZE_IS(ptx_section, 40);
SIZE_IS(ptx_target, 40);        /* hole: 4 bytes after count */
SIZE_IS(ptx_dwarf, 32);
SIZE_IS(ptx_label, 32);
SIZE_IS(ptx_loc, 72);           /* hole: 3 bytes after has_inlined_at, 4 at the end */
SIZE_IS(ptx_callproto, 72);     /* hole: 6 bytes after has_params, 4 after ndirs */
SIZE_IS(ptx_targets, 56);       /* holes: 7 bytes after is_branch, 4 after count */
SIZE_IS(ptx_module, 72);         /* names_resolved: the semantic pass's answers, not the tree (not compared) */

static bool node_eq(teq *t, const ptx_node *x, const ptx_node *y)
{
    if (!header_eq(t, x, y))
        return false;
    switch ((ptx_node_kind)x->kind) {
    case PTX_NODE_FUNC: {
        const ptx_func *fx = (const ptx_func *)x, *fy = (const ptx_func *)y;
        if (!u64_eq(t, "is_entry", fx->is_entry, fy->is_entry) ||
            !u64_eq(t, "linkage", fx->linkage, fy->linkage) ||
            !u64_eq(t, "attrs", fx->attrs, fy->attrs) ||
            !u64_eq(t, "has_params", fx->has_params, fy->has_params) ||
            !u64_eq(t, "has_ret", fx->has_ret, fy->has_ret) || !name_eq(t, "name", fx->name, fy->name) ||
            !u64_eq(t, "unified[0]", fx->unified[0], fy->unified[0]) ||
            !u64_eq(t, "unified[1]", fx->unified[1], fy->unified[1]) ||
            !signature_eq(t, fx->nret, fx->nparams, fx->ndirs, fx->ret, fx->params, fx->dirs,
                          fy->nret, fy->nparams, fy->ndirs, fy->ret, fy->params, fy->dirs))
            return false;
        if (!fx->body || !fy->body) {
            if (fx->body == fy->body)
                return true;
            return differ(t, "body %s vs %s", fx->body ? "present" : "absent",
                          fy->body ? "present" : "absent");
        }
        return header_eq(t, &fx->body->base, &fy->body->base) &&
               list_eq(t, fx->body->first, fy->body->first, "statement");
    }
    case PTX_NODE_ALIAS: {
        const ptx_alias *ax = (const ptx_alias *)x, *ay = (const ptx_alias *)y;
        return name_eq(t, "alias", ax->alias, ay->alias) &&
               name_eq(t, "aliasee", ax->aliasee, ay->aliasee);
    }
    case PTX_NODE_FILE: {
        const ptx_file *fx = (const ptx_file *)x, *fy = (const ptx_file *)y;
        return u64_eq(t, "index", fx->index, fy->index) &&
               u64_eq(t, "has_info", fx->has_info, fy->has_info) &&
               u64_eq(t, "has_size", fx->has_size, fy->has_size) &&
               name_eq(t, "path", fx->path, fy->path) &&
               u64_eq(t, "timestamp", fx->timestamp, fy->timestamp) &&
               u64_eq(t, "size", fx->size, fy->size);
    }
    case PTX_NODE_SECTION: {
        const ptx_section *sx = (const ptx_section *)x, *sy = (const ptx_section *)y;
        return name_eq(t, "name", sx->name, sy->name) &&
               list_eq(t, sx->first, sy->first, "section item");
    }
    case PTX_NODE_TARGET: {
        const ptx_target *tx = (const ptx_target *)x, *ty = (const ptx_target *)y;
        return u64_eq(t, "count", tx->count, ty->count) &&
               names_eq(t, "target", tx->names, ty->names, tx->count);
    }
    case PTX_NODE_DWARF:
        return name_eq(t, "text", ((const ptx_dwarf *)x)->text, ((const ptx_dwarf *)y)->text);
    case PTX_NODE_DECL:
        return decl_eq(t, (const ptx_decl *)x, (const ptx_decl *)y);
    case PTX_NODE_PRAGMA: {
        const ptx_pragma *px = (const ptx_pragma *)x, *py = (const ptx_pragma *)y;
        return u64_eq(t, "strings", px->nstrings, py->nstrings) &&
               names_eq(t, "string", px->strings, py->strings, px->nstrings);
    }
    case PTX_NODE_INSTR:
        return instr_eq(t, (const ptx_instr *)x, (const ptx_instr *)y);
    case PTX_NODE_LABEL:
        return name_eq(t, "name", ((const ptx_label *)x)->name, ((const ptx_label *)y)->name);
    case PTX_NODE_BLOCK:
        return list_eq(t, ((const ptx_block *)x)->first, ((const ptx_block *)y)->first, "statement");
    case PTX_NODE_LOC: {
        const ptx_loc *lx = (const ptx_loc *)x, *ly = (const ptx_loc *)y;
        return u64_eq(t, "file", lx->file, ly->file) && u64_eq(t, "line", lx->line, ly->line) &&
               u64_eq(t, "column", lx->col, ly->col) &&
               name_eq(t, "function_name", lx->function_name, ly->function_name) &&
               u64_eq(t, "function_offset", lx->function_offset, ly->function_offset) &&
               u64_eq(t, "has_inlined_at", lx->has_inlined_at, ly->has_inlined_at) &&
               u64_eq(t, "inlined_at file", lx->in_file, ly->in_file) &&
               u64_eq(t, "inlined_at line", lx->in_line, ly->in_line) &&
               u64_eq(t, "inlined_at column", lx->in_col, ly->in_col);
    }
    case PTX_NODE_CALLPROTO: {
        const ptx_callproto *cx = (const ptx_callproto *)x, *cy = (const ptx_callproto *)y;
        return name_eq(t, "label", cx->label, cy->label) &&
               u64_eq(t, "has_ret", cx->has_ret, cy->has_ret) &&
               u64_eq(t, "has_params", cx->has_params, cy->has_params) &&
               signature_eq(t, cx->nret, cx->nparams, cx->ndirs, cx->ret, cx->params, cx->dirs,
                            cy->nret, cy->nparams, cy->ndirs, cy->ret, cy->params, cy->dirs);
    }
    case PTX_NODE_TARGETS: {
        const ptx_targets *tx = (const ptx_targets *)x, *ty = (const ptx_targets *)y;
        if (!u64_eq(t, "is_branch", tx->is_branch, ty->is_branch) ||
            !name_eq(t, "label", tx->label, ty->label) || !u64_eq(t, "count", tx->count, ty->count))
            return false;
        for (uint32_t i = 0; i < tx->count; i++) {
            push(t, "target", i + 1, NULL, PTX_NO_OFFSET);
            bool ok = expr_eq(t, tx->names[i], ty->names[i]);
            pop(t);
            if (!ok)
                return false;
        }
        return true;
    }
    case PTX_NODE_DATA:     /* list_eq compares data */
    case PTX_NODE_COUNT:
        break;
    }
    return differ(t, "node of unknown kind %u", x->kind);
}

/* Two lists of sibling nodes, named `what` in the path ("statement"). */
static bool list_eq(teq *t, const ptx_node *x, const ptx_node *y, const char *what)
{
    uint32_t index = 1;
    while (x && y) {
        if (x->kind == PTX_NODE_DATA && y->kind == PTX_NODE_DATA) {
            data_cursor cx = { x, 0 }, cy = { y, 0 };
            if (!data_eq(t, &cx, &cy, &index, what))
                return false;
            x = cx.n;
            y = cy.n;
            continue;
        }
        const ptx_name *name = x->kind == PTX_NODE_FUNC ? ((const ptx_func *)x)->name : NULL;
        push(t, name ? "function" : what, name ? 0 : index, name, name ? PTX_NO_OFFSET : x->span.off);
        bool ok = node_eq(t, x, y);
        pop(t);
        if (!ok)
            return false;
        x = x->next;
        y = y->next;
        index++;
    }
    if (x || y) {
        const ptx_node *extra = x ? x : y;
        const ptx_context *c = x ? t->a : t->b;
        return differ(t, "%s %u (%s, line %u): in the %s tree only", what, (unsigned)index,
                      ptx_node_kind_name((ptx_node_kind)extra->kind),
                      (unsigned)ptx_context_position(c, extra->span.off).line, x ? "first" : "second");
    }
    return true;
}

bool ptx_tree_equal(const ptx_context *a, const ptx_module *ma, const ptx_context *b,
                    const ptx_module *mb, char *why, size_t whylen)
{
    teq t = { .a = a, .b = b, .why = why, .whylen = whylen, .depth = 0 };
    if (why && whylen)
        why[0] = '\0';
    if (!ma || !mb) {
        if (ma == mb)
            return true;
        return differ(&t, "module %s vs %s", ma ? "present" : "absent", mb ? "present" : "absent");
    }
    push(&t, "module header", 0, NULL, PTX_NO_OFFSET);
    bool ok = u64_eq(&t, "version_major", ma->version_major, mb->version_major) &&
              u64_eq(&t, "version_minor", ma->version_minor, mb->version_minor) &&
              u64_eq(&t, "targets", ma->ntargets, mb->ntargets) &&
              names_eq(&t, "target", ma->targets, mb->targets, ma->ntargets) &&
              u64_eq(&t, "address_size", ma->address_size, mb->address_size) &&
              span_eq(&t, "version_span", ma->version_span, mb->version_span) &&
              span_eq(&t, "target_span", ma->target_span, mb->target_span) &&
              span_eq(&t, "address_span", ma->address_span, mb->address_span);
    pop(&t);
    return ok && list_eq(&t, ma->first, mb->first, "module item");
}

SIZE_IS(ptx_diag, 32);

static const char *opt_text(const char *s)
{
    return s ? s : "(none)";
}

bool ptx_diags_equal(const ptx_context *a, const ptx_context *b, char *why, size_t whylen)
{
    teq t = { .a = a, .b = b, .why = why, .whylen = whylen, .depth = 0 };
    if (why && whylen)
        why[0] = '\0';
    size_t n = ptx_diag_count(a);
    if (n != ptx_diag_count(b))
        return differ(&t, "diagnostics %zu vs %zu%s%s", n, ptx_diag_count(b),
                      n > ptx_diag_count(b) ? "; the first's extra one: " : "",
                      n > ptx_diag_count(b) ? ptx_diag_get(a, ptx_diag_count(b))->message : "");
    for (size_t i = 0; i < n; i++) {
        const ptx_diag *x = ptx_diag_get(a, i), *y = ptx_diag_get(b, i);
        push(&t, "diagnostic", (uint32_t)i + 1, NULL, x->span.off);
        bool ok = u64_eq(&t, "severity", x->severity, y->severity) &&
                  u64_eq(&t, "code", x->code, y->code) && span_eq(&t, "span", x->span, y->span);
        if (ok && strcmp(x->message, y->message) != 0)
            ok = differ(&t, "message '%s' vs '%s'", x->message, y->message);
        if (ok && (!x->fixit != !y->fixit || (x->fixit && strcmp(x->fixit, y->fixit) != 0)))
            ok = differ(&t, "fix-it '%s' vs '%s'", opt_text(x->fixit), opt_text(y->fixit));
        pop(&t);
        if (!ok)
            return false;
    }
    return u64_eq(&t, "errors", ptx_error_count(a), ptx_error_count(b));
}

/* Whether ctx reported an error of the scanner or the grammar, which
 * sends the parser into its error recovery. */
static bool parser_recovered(const ptx_context *ctx)
{
    for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
        switch (ptx_diag_get(ctx, i)->code) {
        case PTX_DIAG_SYNTAX:
        case PTX_DIAG_CHAR:
        case PTX_DIAG_NONASCII:
        case PTX_DIAG_LITERAL:
        case PTX_DIAG_UNTERMINATED:
        case PTX_DIAG_PREPROCESSOR:
            return true;
        default:
            break;
        }
    }
    return false;
}

int ptx_parse_both_ways(const char *name, const char *data, size_t len, unsigned max_errors,
                        bool *recovered, char *why, size_t whylen)
{
    /* 0: fast lane on, 1: off, 2: on and no tree kept */
    ptx_context *c[3] = { ptx_context_new(), ptx_context_new(), ptx_context_new() };
    const ptx_module *m[3] = { NULL, NULL, NULL };
    ptx_status st[3] = { PTX_ERR_NOMEM, PTX_ERR_NOMEM, PTX_ERR_NOMEM };
    for (int i = 0; i < 3 && c[0] && c[1] && c[2]; i++) {
        ptx_context_set_max_errors(c[i], max_errors);
        ptx_context_set_fast_lane(c[i], i != 1);
        ptx_context_set_keep_tree(c[i], i != 2);
        st[i] = ptx_parse_buffer(c[i], name, data, len, &m[i]);
    }
    int same;
    if (recovered)
        *recovered = false;
    if (st[0] == PTX_ERR_NOMEM || st[1] == PTX_ERR_NOMEM || st[2] == PTX_ERR_NOMEM) {
        same = -1;
        if (why && whylen)
            snprintf(why, whylen, "out of memory");
    } else if (st[2] != st[0] || m[2] || !ptx_diags_equal(c[0], c[2], why, whylen)) {
        /* letting each body go changes nothing the parse says, errors
         * or not */
        same = 0;
        if (why && whylen && (st[2] != st[0] || m[2]))
            snprintf(why, whylen, "without the tree: status %d vs %d%s", (int)st[2], (int)st[0],
                     m[2] ? ", and a module" : "");
        else if (why && whylen) {
            char inner[768];
            snprintf(inner, sizeof inner, "%s", why);
            snprintf(why, whylen, "without the tree: %s", inner);
        }
    } else {
        if (recovered)
            *recovered = parser_recovered(c[0]) || parser_recovered(c[1]);
        if (st[0] != st[1]) {
            same = 0;
            if (why && whylen)
                snprintf(why, whylen, "status %d vs %d", (int)st[0], (int)st[1]);
        } else {
            same = ptx_tree_equal(c[0], m[0], c[1], m[1], why, whylen) &&
                   ptx_diags_equal(c[0], c[1], why, whylen);
        }
    }
    for (int i = 0; i < 3; i++)
        ptx_context_free(c[i]);
    return same;
}
