/* Changing the tree: new operands, instructions and declarations in the
 * context's arena; fresh names; statements parsed from text; insertion,
 * replacement and removal in a block's or the module's list (the text of
 * removed nodes is recorded for the lossless printer); validation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The public builders return NULL instead of jumping when memory runs out. */
#define GUARD(ctx, fail)                                                    \
    jmp_buf saved;                                                          \
    memcpy(saved, (ctx)->oom, sizeof saved);                                \
    if (setjmp((ctx)->oom)) {                                               \
        memcpy((ctx)->oom, saved, sizeof saved);                            \
        return fail;                                                        \
    }
#define UNGUARD(ctx) memcpy((ctx)->oom, saved, sizeof saved)

/* Nodes made here have no source: offset PTX_NO_OFFSET, length 0. */
static const ptx_span no_span = { PTX_NO_OFFSET, 0 };

/* A leaf of no source (inside GUARD: the arena may jump) */
static ptx_expr *new_leaf(ptx_context *ctx, ptx_expr_kind kind, ptx_leaf_value v, const ptx_name *sel)
{
    ptx_expr *e = ptx_arena_alloc(&ctx->arena, sizeof *e);
    ptx_expr_set_leaf(ctx, e, kind, 0, no_span, v, sel);
    return e;
}

ptx_expr *ptx_new_name(ptx_context *ctx, const char *name)
{
    if (!ctx || !name)
        return NULL;
    GUARD(ctx, NULL);
    /* "%tid.x": a name and its selector, as the parser keeps them */
    size_t root = strcspn(name, ".");
    ptx_leaf_value v = { .name = ptx_intern(ctx, name, root) };
    const ptx_name *sel = name[root] ? ptx_intern(ctx, name + root, strlen(name + root)) : NULL;
    ptx_expr *e = new_leaf(ctx, PTX_EXPR_SYM, v, sel);
    UNGUARD(ctx);
    return e;
}

ptx_expr *ptx_new_int(ptx_context *ctx, int64_t value)
{
    if (!ctx)
        return NULL;
    GUARD(ctx, NULL);
    ptx_leaf_value v = { .i = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value };
    ptx_expr *e = new_leaf(ctx, PTX_EXPR_INT, v, NULL);
    if (value < 0) {
        ptx_expr *neg = ptx_arena_alloc(&ctx->arena, sizeof *neg);
        ptx_expr_set_parts(ctx, neg, PTX_EXPR_UNARY, PTX_OP_NEG, no_span, &e, 1, 1);
        e = neg;
    }
    UNGUARD(ctx);
    return e;
}

ptx_expr *ptx_new_float(ptx_context *ctx, double value)
{
    if (!ctx)
        return NULL;
    GUARD(ctx, NULL);
    /* 0d and the bits: exact, and a literal every instruction takes */
    ptx_leaf_value v;
    memcpy(&v.i, &value, sizeof v.i);
    ptx_expr *e = new_leaf(ctx, PTX_EXPR_F64, v, NULL);
    UNGUARD(ctx);
    return e;
}

ptx_expr *ptx_new_f32(ptx_context *ctx, float value)
{
    if (!ctx)
        return NULL;
    GUARD(ctx, NULL);
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    ptx_leaf_value v = { .i = bits };
    ptx_expr *e = new_leaf(ctx, PTX_EXPR_F32, v, NULL);
    UNGUARD(ctx);
    return e;
}

static ptx_expr *new_parts(ptx_context *ctx, ptx_expr_kind kind, uint8_t op,
                           ptx_expr *const *items, uint32_t n)
{
    ptx_expr *e = ptx_arena_alloc(&ctx->arena, sizeof *e);
    ptx_expr_set_parts(ctx, e, kind, op, no_span, items, n, n);
    return e;
}

ptx_expr *ptx_new_addr(ptx_context *ctx, const ptx_expr *base, int64_t offset)
{
    if (!ctx || !base)
        return NULL;
    GUARD(ctx, NULL);
    ptx_expr *inner = (ptx_expr *)base;
    if (offset) {
        ptx_leaf_value v = { .i = offset < 0 ? (uint64_t)0 - (uint64_t)offset : (uint64_t)offset };
        ptx_expr *k = new_leaf(ctx, PTX_EXPR_INT, v, NULL);
        ptx_expr *pair[2] = { inner, k };
        inner = new_parts(ctx, PTX_EXPR_BINARY, offset < 0 ? PTX_OP_SUB : PTX_OP_ADD, pair, 2);
    }
    ptx_expr *e = new_parts(ctx, PTX_EXPR_ADDR, 0, &inner, 1);
    UNGUARD(ctx);
    return e;
}

static ptx_expr *new_items(ptx_context *ctx, ptx_expr_kind kind, ptx_expr *const *items,
                           unsigned n)
{
    if (!ctx || (n && !items))
        return NULL;
    for (unsigned i = 0; i < n; i++)
        if (!items[i])
            return NULL;
    GUARD(ctx, NULL);
    ptx_expr *e = new_parts(ctx, kind, 0, items, n);
    UNGUARD(ctx);
    return e;
}

ptx_expr *ptx_new_vec(ptx_context *ctx, ptx_expr *const *items, unsigned n)
{
    return new_items(ctx, PTX_EXPR_VEC, items, n);
}

ptx_expr *ptx_new_list(ptx_context *ctx, ptx_expr *const *items, unsigned n)
{
    return new_items(ctx, PTX_EXPR_LIST, items, n);
}

static size_t count_dots(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '.';
    return n;
}

/* Is `word` one the tables allow after `opcode`, in any category? */
static bool allowed(const char *opcode, const ptx_name *word)
{
    ptx_modifier mods[1024];
    for (int cat = PTX_CAT_NONE; cat < PTX_CAT_COUNT; cat++) {
        size_t n = ptx_opcode_modifiers(opcode, (ptx_mod_category)cat, mods, 1024);
        for (size_t i = 0; i < n && i < 1024; i++)
            if (strcmp(ptx_modifier_name(mods[i]), word->text) == 0)
                return true;
    }
    return false;
}

/* The opcode and each modifier must be in the tables; the rest (which
 * combinations, operand types, names) is ptx_validate's, once the
 * instruction is in place. */
static bool known_words(ptx_context *ctx, const ptx_instr *in)
{
    const char *op = ptx_instr_opcode(in)->text;
    if (!ptx_isa_knows(ptx_instr_opcode(in))) {
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, no_span,
                     "unknown instruction '%s'", op);
        return false;
    }
    for (unsigned i = 0; i < in->nmods; i++)
        if (!allowed(op, in->mods[i].name)) {
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, no_span,
                         "unknown modifier '%s' of '%s'", in->mods[i].name->text, op);
            return false;
        }
    return true;
}

ptx_instr *ptx_new_instr(ptx_context *ctx, const char *opcode, ptx_expr *const *ops,
                         unsigned nops)
{
    if (!ctx || !opcode || (nops && !ops) || nops > UINT16_MAX)
        return NULL;
    GUARD(ctx, NULL);
    /* modifiers: each '.' starts one, except the ':'-joined parts */
    size_t root = strcspn(opcode, ".");
    size_t n = count_dots(opcode + root);
    if (n > UINT16_MAX) {
        UNGUARD(ctx);
        return NULL;
    }
    ptx_instr *in = ptx_arena_alloc(&ctx->arena, sizeof *in + nops * sizeof(ptx_expr));
    memset(in, 0, sizeof *in);
    in->base.kind = PTX_NODE_INSTR;
    in->base.span.off = PTX_NO_OFFSET;
    in->mods = (ptx_mod *)ptx_arena_zalloc(&ctx->arena, (n + 1) * sizeof *in->mods) + 1;
    in->mods[-1].name = ptx_intern(ctx, opcode, root);
    in->mods[-1].off = PTX_NO_OFFSET;
    const char *p = opcode + root;
    while (*p == '.') {
        const char *q = p + 1;
        while (*q && *q != '.')
            q++;
        in->mods[in->nmods].name = ptx_intern(ctx, p, (size_t)(q - p));
        in->mods[in->nmods++].off = PTX_NO_OFFSET;
        p = q;
    }
    in->nops = (uint16_t)nops;
    for (size_t i = 0; i < nops; i++)
        in->ops[i] = *ops[i];
    bool ok = ctx->no_validate || known_words(ctx, in);
    UNGUARD(ctx);
    return ok ? in : NULL;
}

/* The link that points at `node` in the list at *head, or NULL. */
static ptx_node **link_of(ptx_node **head, const ptx_node *node)
{
    ptx_node **link = head;
    while (*link && *link != node)
        link = &(*link)->next;
    return *link == node ? link : NULL;
}

static ptx_status list_insert(ptx_node **head, ptx_node *before, ptx_node *node)
{
    ptx_edit_counted();
    ptx_node **link = link_of(head, before);
    if (!link || node == before)
        return PTX_ERR_USAGE;
    node->next = before;
    node->flags |= PTX_NODE_EDITED;
    /* it goes with the statement it was put before (at the end: none) */
    node->flags = (uint8_t)(before ? node->flags | PTX_NODE_WITH_NEXT
                                   : node->flags & ~PTX_NODE_WITH_NEXT);
    *link = node;
    return PTX_OK;
}

static ptx_status list_insert_after(ptx_node **head, ptx_node *after, ptx_node *node)
{
    ptx_edit_counted();
    if (!after)
        return list_insert(head, *head, node);
    if (!link_of(head, after) || node == after)
        return PTX_ERR_USAGE;
    node->next = after->next;
    node->flags = (uint8_t)((node->flags | PTX_NODE_EDITED) & ~PTX_NODE_WITH_NEXT);
    after->next = node;
    return PTX_OK;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Records the text of `node`, an unedited node of ctx's source, as
 * removed (replaced by `by` when not NULL): with its ';', and with its
 * line when it is alone on it, so that no empty line is left behind. */
static bool record_removed(ptx_context *ctx, const ptx_node *node, const ptx_node *by)
{
    if ((node->flags & PTX_NODE_EDITED) || node->span.off == PTX_NO_OFFSET ||
        (uint64_t)node->span.off + node->span.len > ctx->srclen)
        return true;
    uint32_t a = node->span.off, b = a + node->span.len;
    const char *s = ctx->src;
    uint32_t e = b;
    while (e < ctx->srclen && blank(s[e]))
        e++;
    if (e < ctx->srclen && s[e] == ';')
        b = e + 1;
    /* the whole line: only blanks before; blanks or a // comment after */
    uint32_t ls = a, le = b;
    while (ls > 0 && blank(s[ls - 1]))
        ls--;
    while (le < ctx->srclen && blank(s[le]))
        le++;
    if (le + 1 < ctx->srclen && s[le] == '/' && s[le + 1] == '/')
        while (le < ctx->srclen && s[le] != '\n')
            le++;
    if (le < ctx->srclen && s[le] == '\r')
        le++;
    bool whole = (ls == 0 || s[ls - 1] == '\n') && (le == ctx->srclen || s[le] == '\n');
    if (whole) {
        a = ls;
        b = le < ctx->srclen ? le + 1 : le;
    }
    if (ctx->nremoved == ctx->removedcap) {
        size_t cap = ctx->removedcap ? ctx->removedcap * 2 : 16;
        ptx_removed *r = realloc(ctx->removed, cap * sizeof *r);
        if (!r)
            return false;
        ctx->removed = r;
        ctx->removedcap = cap;
    }
    ctx->removed[ctx->nremoved++] = (ptx_removed){ { a, b - a }, whole, by };
    return true;
}

static ptx_status list_remove(ptx_context *ctx, ptx_node **head, ptx_node *node)
{
    ptx_edit_counted();
    ptx_node **link = link_of(head, node);
    if (!link || !node)
        return PTX_ERR_USAGE;
    if (!record_removed(ctx, node, NULL))
        return PTX_ERR_NOMEM;
    *link = node->next;
    node->next = NULL;
    return PTX_OK;
}

static ptx_status list_replace(ptx_context *ctx, ptx_node **head, ptx_node *old, ptx_node *node)
{
    ptx_edit_counted();
    ptx_node **link = link_of(head, old);
    if (!link || !old || !node || node == old)
        return PTX_ERR_USAGE;
    if (!record_removed(ctx, old, node))
        return PTX_ERR_NOMEM;
    node->next = old->next;
    node->flags = (uint8_t)((node->flags | PTX_NODE_EDITED) & ~PTX_NODE_WITH_NEXT);
    *link = node;
    old->next = NULL;
    return PTX_OK;
}

ptx_status ptx_insert_before(ptx_block *block, ptx_node *before, ptx_node *node)
{
    if (!block || !node)
        return PTX_ERR_USAGE;
    return list_insert(&block->first, before, node);
}

ptx_status ptx_insert_after(ptx_block *block, ptx_node *after, ptx_node *node)
{
    if (!block || !node)
        return PTX_ERR_USAGE;
    return list_insert_after(&block->first, after, node);
}

ptx_status ptx_remove(ptx_context *ctx, ptx_block *block, ptx_node *node)
{
    if (!ctx || !block || !node)
        return PTX_ERR_USAGE;
    return list_remove(ctx, &block->first, node);
}

ptx_status ptx_replace(ptx_context *ctx, ptx_block *block, ptx_node *old, ptx_node *node)
{
    if (!ctx || !block)
        return PTX_ERR_USAGE;
    return list_replace(ctx, &block->first, old, node);
}

ptx_status ptx_module_insert_before(ptx_context *ctx, ptx_node *before, ptx_node *node)
{
    if (!ctx || !ctx->module || !node)
        return PTX_ERR_USAGE;
    return list_insert(&ctx->module->first, before, node);
}

ptx_status ptx_module_insert_after(ptx_context *ctx, ptx_node *after, ptx_node *node)
{
    if (!ctx || !ctx->module || !node)
        return PTX_ERR_USAGE;
    return list_insert_after(&ctx->module->first, after, node);
}

ptx_status ptx_module_remove(ptx_context *ctx, ptx_node *node)
{
    if (!ctx || !ctx->module || !node)
        return PTX_ERR_USAGE;
    return list_remove(ctx, &ctx->module->first, node);
}

ptx_status ptx_module_replace(ptx_context *ctx, ptx_node *old, ptx_node *node)
{
    if (!ctx || !ctx->module)
        return PTX_ERR_USAGE;
    return list_replace(ctx, &ctx->module->first, old, node);
}

/* ---- names and declarations ------------------------------------------ */

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* Every name the module holds is interned; a %name<N> range declares
 * name0...name(N-1) with only "name" interned.  So a name is fresh when
 * neither it nor any prefix of it followed by digits is interned. */
static bool is_fresh(const ptx_context *ctx, const char *name)
{
    size_t len = strlen(name);
    if (ptx_intern_find(ctx, name, len))
        return false;
    for (size_t k = 1; k < len; k++)
        if (all_digits(name + k) && ptx_intern_find(ctx, name, k))
            return false;
    return true;
}

const char *ptx_fresh_name(ptx_context *ctx, const char *prefix)
{
    if (!ctx || !prefix || !*prefix || strlen(prefix) > 200)
        return NULL;
    GUARD(ctx, NULL);
    char buf[240];
    const ptx_name *n = NULL;
    for (unsigned long k = 0; !n; k++) {
        /* prefix, then prefix_1, prefix_2...: never prefix + digits, which
         * a range could cover */
        if (k == 0)
            snprintf(buf, sizeof buf, "%s", prefix);
        else
            snprintf(buf, sizeof buf, "%s_%lu_", prefix, k);
        if (is_fresh(ctx, buf))
            n = ptx_intern(ctx, buf, strlen(buf));
    }
    UNGUARD(ctx);
    return n->text;
}

ptx_decl *ptx_new_decl(ptx_context *ctx, ptx_space space, ptx_type type, const char *name,
                       uint64_t count)
{
    if (!ctx || !name || space >= PTX_SPACE_COUNT || type == PTX_TYPE_NONE ||
        type >= PTX_TYPE_COUNT)
        return NULL;
    GUARD(ctx, NULL);
    ptx_decl *d = ptx_arena_zalloc(&ctx->arena, sizeof *d);
    d->base.kind = PTX_NODE_DECL;
    d->base.span = no_span;
    d->space = (uint8_t)space;
    d->type = (uint8_t)type;
    d->nvars = 1;
    d->vars = ptx_arena_zalloc(&ctx->arena, sizeof *d->vars);
    d->vars->name = ptx_intern(ctx, name, strlen(name));
    d->vars->span = no_span;
    if (count) {
        d->vars->ndims = 1;
        d->vars->dims = ptx_arena_alloc(&ctx->arena, sizeof *d->vars->dims);
        d->vars->dims[0] = count;
    }
    UNGUARD(ctx);
    return d;
}

ptx_expr *ptx_declare_register(ptx_context *ctx, const ptx_func *f, ptx_type type,
                               const char *prefix)
{
    if (!ctx || !f || !f->body)
        return NULL;
    const char *name = ptx_fresh_name(ctx, prefix ? prefix : "%ptxf");
    ptx_decl *d = name ? ptx_new_decl(ctx, PTX_SPACE_REG, type, name, 0) : NULL;
    if (!d)
        return NULL;
    /* after the declarations that open the body, with them */
    ptx_node *after = NULL;
    for (ptx_node *s = f->body->first; s && s->kind == PTX_NODE_DECL; s = s->next)
        after = s;
    if (ptx_insert_after(f->body, after, &d->base) != PTX_OK)
        return NULL;
    return ptx_new_name(ctx, name);
}

ptx_expr *ptx_declare_variable(ptx_context *ctx, ptx_space space, ptx_type type,
                               const char *name, uint64_t count, ptx_decl **decl)
{
    if (!ctx || !ctx->module || !name)
        return NULL;
    const char *fresh = ptx_fresh_name(ctx, name);
    ptx_decl *d = fresh ? ptx_new_decl(ctx, space, type, fresh, count) : NULL;
    if (!d)
        return NULL;
    /* before the first function, where compilers put module variables */
    ptx_node *before = ctx->module->first;
    while (before && before->kind != PTX_NODE_FUNC)
        before = before->next;
    if (ptx_module_insert_before(ctx, before, &d->base) != PTX_OK)
        return NULL;
    if (decl)
        *decl = d;
    return ptx_new_name(ctx, fresh);
}

/* ---- statements from text, and validation ----------------------------- */

/* Runs fn(ctx) with a jump back here when memory runs out: false then.
 * fn is called through a volatile pointer so that it is not inlined into
 * the frame setjmp saved. */
static bool guarded(ptx_context *ctx, void (*fn)(ptx_context *))
{
    void (*volatile call)(ptx_context *) = fn;
    GUARD(ctx, false);
    call(ctx);
    UNGUARD(ctx);
    return true;
}

static void parse_snippet(ptx_context *ctx)
{
    ptx_run_parser(ctx);
}

static void run_sema(ptx_context *ctx)
{
    ptx_sema_run(ctx, ctx->module);
}

/* The offsets of statements parsed from a snippet are the snippet's: they
 * would point into the module's source, where diagnostics of
 * ptx_validate and positions read from the tree would show them.  They
 * become "no source", as those of nodes the builders make; an
 * instruction gets a copy of its modifiers (shared by the instructions
 * written alike) for theirs.  Inside GUARD: the arena may jump. */
static void forget_expr(ptx_expr *e, unsigned depth)
{
    e->off = PTX_NO_OFFSET;
    if (ptx_expr_is_leaf(e) || e->kind == PTX_EXPR_RANGE || depth > 100000)
        return;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        forget_expr(ptx_expr_item(e, i), depth + 1);
}

static void forget_decl(ptx_decl *d)
{
    d->base.span = no_span;
    for (uint32_t i = 0; i < d->nvars; i++) {
        d->vars[i].span = no_span;
        if (d->vars[i].init)
            forget_expr(d->vars[i].init, 0);
    }
}

static void forget_node(ptx_context *ctx, ptx_node *n)
{
    n->span = no_span;
    n->flags |= PTX_NODE_EDITED;
    switch ((ptx_node_kind)n->kind) {
    case PTX_NODE_INSTR: {
        ptx_instr *in = (ptx_instr *)n;
        unsigned nops = in->nops + ((in->flags & PTX_INSTR_GUARD) ? 1u : 0u);
        for (unsigned i = 0; i < nops; i++)
            forget_expr(&in->ops[i], 0);
        ptx_mod *mods = ptx_arena_alloc(&ctx->arena, ((size_t)in->nmods + 1) * sizeof *mods);
        memcpy(mods, in->mods - 1, ((size_t)in->nmods + 1) * sizeof *mods);
        for (size_t i = 0; i <= in->nmods; i++)
            mods[i].off = PTX_NO_OFFSET;
        in->mods = mods + 1;
        in->flags &= (uint8_t)~PTX_INSTR_SHARED_MODS;     /* the copy is its own */
        break;
    }
    case PTX_NODE_DECL:
        forget_decl((ptx_decl *)n);
        break;
    case PTX_NODE_TARGETS: {
        ptx_targets *t = (ptx_targets *)n;
        for (uint32_t i = 0; i < t->count; i++)
            forget_expr(t->names[i], 0);
        break;
    }
    case PTX_NODE_CALLPROTO: {
        ptx_callproto *cp = (ptx_callproto *)n;
        for (uint32_t i = 0; i < cp->nret; i++)
            forget_decl(cp->ret[i]);
        for (uint32_t i = 0; i < cp->nparams; i++)
            forget_decl(cp->params[i]);
        for (uint32_t i = 0; i < cp->ndirs; i++)
            cp->dirs[i].span = no_span;
        break;
    }
    default:
        break;
    }
}

static ptx_status forget_offsets(ptx_context *ctx, ptx_node *first)
{
    GUARD(ctx, PTX_ERR_NOMEM);
    for (ptx_node *s = first; s; s = s->next) {
        ptx_iter *it = ptx_iter_new_node(s);
        if (!it) {
            UNGUARD(ctx);
            return PTX_ERR_NOMEM;
        }
        const ptx_node *n;
        ptx_event ev;
        while ((ev = ptx_iter_next(it, &n)) > 0)
            if (ev == PTX_EVENT_ENTER)
                forget_node(ctx, (ptx_node *)n);
        ptx_iter_free(it);
        if (ev == PTX_EVENT_NOMEM) {
            UNGUARD(ctx);
            return PTX_ERR_NOMEM;
        }
    }
    UNGUARD(ctx);
    return PTX_OK;
}

ptx_status ptx_parse_statements(ptx_context *ctx, const char *text, size_t len,
                                ptx_node **first)
{
    if (first)
        *first = NULL;
    if (!ctx || !ctx->module || (!text && len) || !first || len > PTX_INPUT_MAX / 2)
        return PTX_ERR_USAGE;
    const ptx_module *m = ctx->module;
    /* a module of the same header whose one kernel holds the text */
    size_t cap = len + 512;
    for (uint32_t i = 0; i < m->ntargets; i++)
        cap += m->targets[i]->len + 2;
    char *buf = malloc(cap + 2);
    if (!buf)
        return PTX_ERR_NOMEM;
    int n = snprintf(buf, cap, ".version %u.%u\n.target ", m->version_major, m->version_minor);
    for (uint32_t i = 0; i < m->ntargets; i++)
        n += snprintf(buf + n, cap - (size_t)n, "%s%s", i ? ", " : "", m->targets[i]->text);
    if (m->address_size)
        n += snprintf(buf + n, cap - (size_t)n, "\n.address_size %u", m->address_size);
    n += snprintf(buf + n, cap - (size_t)n, "\n.entry ptx_snippet()\n{\n");
    if (len)
        memcpy(buf + n, text, len);
    size_t total = (size_t)n + len;
    memcpy(buf + total, "\n}\n", 3);
    total += 3;
    buf[total] = buf[total + 1] = '\0';
    /* parsed in this context (names interned here, nodes in its arena),
     * with the parse's state set aside */
    char *src = ctx->src;
    size_t srclen = ctx->srclen, nlines = ctx->nlines, ndiags = ctx->ndiags;
    size_t nerrors = ctx->nerrors;
    uint32_t *lines = ctx->lines;
    ptx_module *module = ctx->module;
    ctx->src = buf;
    ctx->srclen = total;
    ctx->lines = NULL;
    ctx->nlines = 0;
    bool ok = guarded(ctx, parse_snippet);
    const ptx_module *sm = ctx->module;
    free(ctx->lines);
    free(buf);
    ctx->src = src;
    ctx->srclen = srclen;
    ctx->lines = lines;
    ctx->nlines = nlines;
    ctx->module = module;
    ctx->stopped = false;
    /* the snippet's offsets mean nothing in the module's source */
    for (size_t i = ndiags; i < ctx->ndiags; i++)
        ctx->diags[i].span = no_span;
    if (!ok)
        return PTX_ERR_NOMEM;
    if (ctx->nerrors > nerrors)
        return PTX_ERR_INPUT;
    const ptx_node *item = sm ? sm->first : NULL;
    if (!item || item->kind != PTX_NODE_FUNC || !((const ptx_func *)item)->body)
        return PTX_ERR_INPUT;
    ptx_node *list = ((const ptx_func *)item)->body->first;
    if (forget_offsets(ctx, list) != PTX_OK)
        return PTX_ERR_NOMEM;
    *first = list;
    return PTX_OK;
}

ptx_status ptx_validate(ptx_context *ctx)
{
    if (!ctx || !ctx->module)
        return PTX_ERR_USAGE;
    size_t nerrors = ctx->nerrors;
    bool stopped = ctx->stopped;
    ctx->stopped = false;
    bool ok = guarded(ctx, run_sema);
    ctx->stopped = stopped || ctx->stopped;
    if (!ok)
        return PTX_ERR_NOMEM;
    return ctx->nerrors > nerrors ? PTX_ERR_INPUT : PTX_OK;
}

const ptx_removed *ptx_removed_spans(const ptx_context *ctx, size_t *n)
{
    *n = ctx->nremoved;
    return ctx->removed;
}

ptx_label *ptx_find_label(const ptx_func *f, const char *name)
{
    if (!f || !f->body || !name)
        return NULL;
    ptx_iter *it = ptx_iter_new_node(&f->body->base);
    if (!it)
        return NULL;
    const ptx_node *n;
    ptx_label *found = NULL;
    while (!found && ptx_iter_next(it, &n) > 0)
        if (n->kind == PTX_NODE_LABEL && strcmp(((const ptx_label *)n)->name->text, name) == 0)
            found = (ptx_label *)n;   /* the tree is the caller's to edit */
    ptx_iter_free(it);
    return found;
}
