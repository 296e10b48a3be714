/* The AST builders called by the grammar's actions.  Each allocates in the
 * arena and checks the rules the grammar cannot say: orders, ranges and
 * placements that ptxas rejects.  Lists arrive on the scratch stack. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ast_build.h"

/* ptxas itself gives up near 10000 levels */
enum { MAX_EXPR_DEPTH = 10000 };

static ptx_span span_of(ptx_loc_t loc)
{
    ptx_span s = { loc.off, loc.end - loc.off };
    return s;
}

static ptx_span tok_span(const ptx_tok *t)
{
    ptx_span s = { t->off, t->len };
    return s;
}

static bool tok_is(ptx_context *ctx, const ptx_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->len == n && memcmp(ctx->src + t->off, word, n) == 0;
}

static void error_at(ptx_context *ctx, ptx_diag_code code, ptx_span span,
                     const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void error_at(ptx_context *ctx, ptx_diag_code code, ptx_span span,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_vadd(ctx, PTX_SEV_ERROR, code, span, fmt, ap);
    va_end(ap);
}

static bool version_at_least(const ptx_module *m, unsigned major, unsigned minor)
{
    return m->version_major > major ||
           (m->version_major == major && m->version_minor >= minor);
}

size_t ptx_mark(ptx_context *ctx)
{
    return ctx->nscratch;
}

void ptx_b_push(ptx_context *ctx, void *item)
{
    ptx_scratch_push(ctx, item);
}

bool ptx_b_recover(ptx_context *ctx)
{
    ctx->nscratch = 0;
    return ctx->stopped;
}

/* `n` may lead a chain of nodes (a STMTS token after an error): the list
 * then ends where the chain does. */
ptx_nlist ptx_b_append(ptx_nlist list, ptx_node *n)
{
    if (!n)
        return list;
    if (list.last)
        list.last->next = n;
    else
        list.first = n;
    list.last = n;
    while (list.last->next)
        list.last = list.last->next;
    return list;
}

ptx_nlist ptx_b_none(void)
{
    ptx_nlist none = { NULL, NULL };
    return none;
}

/* Nodes of a list in one arena array. */
static void *take(ptx_context *ctx, size_t mark, uint32_t *count)
{
    if (mark == PTX_NO_LIST) {
        *count = 0;
        return NULL;
    }
    return ptx_scratch_take(ctx, mark, count);
}

/* ---- expressions ------------------------------------------------------ */

_Static_assert(sizeof(ptx_expr) == 16, "an expression node is 16 bytes (include/ptx/ast.h)");
/* ptx_instr's small fields fill the room of its node header */
_Static_assert(sizeof(ptx_instr) == 32, "an instruction is 32 bytes and its operands");
_Static_assert(offsetof(ptx_instr, kind_) == offsetof(ptx_node, kind) &&
               offsetof(ptx_instr, span_) == offsetof(ptx_node, span) &&
               offsetof(ptx_instr, next_) == offsetof(ptx_node, next) &&
               offsetof(ptx_instr, nmods) >= offsetof(ptx_node, span) + sizeof(ptx_span) &&
               offsetof(ptx_instr, nops) + 2 <= offsetof(ptx_node, next),
               "ptx_instr's header matches ptx_node's");
_Static_assert(sizeof(ptx_leaf_value) == 8 && sizeof(((ptx_expr *)0)->u) == 8 &&
               sizeof(((ptx_expr_box *)0)->v) == 8, "a leaf's value is copied as 8 bytes");

/* A cell for a node being built.  The builders make each node on its own;
 * a node with parts then moves them into its `more` block, and their
 * cells come back here: a parse needs a cell per nesting level, not per
 * node.  A free cell links to the next by u.i. */
static ptx_expr *cell_new(ptx_context *ctx)
{
    ptx_expr *e = ctx->free_exprs;
    if (e)
        ctx->free_exprs = (ptx_expr *)(uintptr_t)e->u.i;
    else
        e = ptx_arena_alloc(&ctx->arena, sizeof *e);
    return e;
}

static void cell_free(ptx_context *ctx, ptx_expr *e)
{
    e->u.i = (uint64_t)(uintptr_t)ctx->free_exprs;
    ctx->free_exprs = e;
}

void ptx_expr_set_leaf(ptx_context *ctx, ptx_expr *e, ptx_expr_kind kind, uint8_t flags,
                       ptx_span span, ptx_leaf_value v, const ptx_name *sel)
{
    e->kind = (uint8_t)kind;
    e->flags = flags;
    e->off = span.off;
    if (span.len < UINT16_MAX && !sel) {
        e->x = (uint16_t)span.len;
        memcpy(&e->u, &v, sizeof v);    /* the member of `v` that kind uses */
        return;
    }
    ptx_expr_box *b = ptx_arena_alloc(&ctx->arena, sizeof *b);
    b->len = span.len;
    memcpy(&b->v, &v, sizeof v);
    b->sel = sel;
    e->x = 0;
    e->flags |= PTX_EXPR_BOXED;
    e->u.box = b;
}

static ptx_expr *leaf_new(ptx_context *ctx, ptx_expr_kind kind, uint8_t flags, ptx_span span,
                          ptx_leaf_value v, const ptx_name *sel)
{
    ptx_expr *e = cell_new(ctx);
    ptx_expr_set_leaf(ctx, e, kind, flags, span, v, sel);
    return e;
}

void ptx_expr_set_parts(ptx_context *ctx, ptx_expr *e, ptx_expr_kind kind, uint8_t op,
                        ptx_span span, ptx_expr *const *parts, uint32_t n, uint32_t count)
{
    ptx_expr_more *m = ptx_arena_alloc(&ctx->arena, sizeof *m + (size_t)n * sizeof(ptx_expr));
    m->len = span.len;
    m->count = count;
    m->name = NULL;
    unsigned d = 0;
    for (uint32_t i = 0; i < n; i++) {
        m->items[i] = *parts[i];
        unsigned pd = ptx_expr_depth(parts[i]);
        if (pd > d)
            d = pd;
    }
    d++;
    /* the depth bounds the recursion of everything that walks expressions */
    if (d == MAX_EXPR_DEPTH + 1)
        error_at(ctx, PTX_DIAG_LIMIT, span,
                 "expression nested too deeply (the limit is %d levels)", MAX_EXPR_DEPTH);
    e->kind = (uint8_t)kind;
    e->op = op;
    e->x = (uint16_t)(d > MAX_EXPR_DEPTH + 1 ? MAX_EXPR_DEPTH + 1 : d);
    e->off = span.off;
    e->u.more = m;
}

/* How many items the scratch holds above `mark` (none for PTX_NO_LIST). */
static size_t above(const ptx_context *ctx, size_t mark)
{
    return mark != PTX_NO_LIST && ctx->nscratch > mark ? ctx->nscratch - mark : 0;
}

/* A node of `kind` with `n` parts, whose cells go back to cell_new. */
static ptx_expr *parts_new(ptx_context *ctx, ptx_expr_kind kind, uint8_t op, ptx_span span,
                           ptx_expr *const *parts, uint32_t n, uint32_t count)
{
    ptx_expr *e = cell_new(ctx);
    ptx_expr_set_parts(ctx, e, kind, op, span, parts, n, count);
    for (uint32_t i = 0; i < n; i++)
        cell_free(ctx, parts[i]);
    return e;
}

static ptx_span join(const ptx_expr *a, const ptx_expr *b)
{
    ptx_span sb = ptx_expr_span(b);
    ptx_span s = { a->off, sb.off + sb.len - a->off };
    return s;
}

static void no_bits_operand(ptx_context *ctx, const ptx_expr *a)
{
    if (a && (a->kind == PTX_EXPR_F32 || a->kind == PTX_EXPR_F64))
        error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(a),
                 "a %s constant cannot be part of an expression; write the whole value as one constant",
                 a->kind == PTX_EXPR_F32 ? "0f" : "0d");
}

ptx_expr *ptx_b_int(ptx_context *ctx, const ptx_tok *t)
{
    ptx_leaf_value v = { .i = t->u };
    return leaf_new(ctx, PTX_EXPR_INT, (uint8_t)t->k, tok_span(t), v, NULL);
}

ptx_expr *ptx_b_float(ptx_context *ctx, const ptx_tok *t)
{
    ptx_leaf_value v = { .f = t->d };
    return leaf_new(ctx, PTX_EXPR_FLOAT, 0, tok_span(t), v, NULL);
}

ptx_expr *ptx_b_bits(ptx_context *ctx, const ptx_tok *t, bool f64)
{
    ptx_leaf_value v = { .i = t->u };
    return leaf_new(ctx, f64 ? PTX_EXPR_F64 : PTX_EXPR_F32, 0, tok_span(t), v, NULL);
}

ptx_expr *ptx_b_sym(ptx_context *ctx, const ptx_tok *name, const ptx_tok *sel)
{
    ptx_span s = tok_span(name);
    if (sel)
        s.len = sel->off + sel->len - name->off;
    ptx_leaf_value v = { .name = tok_name(ctx, name) };
    return leaf_new(ctx, PTX_EXPR_SYM, 0, s, v, sel ? tok_name(ctx, sel) : NULL);
}

/* "%tid.x" scanned as one token: the name and its selector. */
ptx_expr *ptx_b_dotted_sym(ptx_context *ctx, const ptx_tok *t)
{
    const char *p = ctx->src + t->off;
    uint32_t dot = 1;
    while (p[dot] != '.')
        dot++;
    ptx_tok name = { t->off, dot, 0, { 0 } };
    ptx_tok sel = { t->off + dot, t->len - dot, 0, { 0 } };
    uint32_t second = 1;
    while (second < sel.len && p[dot + second] != '.')
        second++;
    if (second < sel.len) {
        ptx_span at = { sel.off + second, sel.len - second };
        error_at(ctx, PTX_DIAG_SYNTAX, at, "unexpected dot-word '%.*s': a name takes one selector",
                 (int)at.len, ctx->src + at.off);
    }
    return ptx_b_sym(ctx, &name, &sel);
}

ptx_expr *ptx_b_sink(ptx_context *ctx, const ptx_tok *t)
{
    ptx_leaf_value v = { .i = 0 };
    return leaf_new(ctx, PTX_EXPR_SINK, 0, tok_span(t), v, NULL);
}

ptx_expr *ptx_b_unary(ptx_context *ctx, ptx_op op, ptx_expr *a, ptx_loc_t loc)
{
    /* ptxas takes -0d..., not -0f... */
    if (!(op == PTX_OP_NEG && a->kind == PTX_EXPR_F64))
        no_bits_operand(ctx, a);
    return parts_new(ctx, PTX_EXPR_UNARY, (uint8_t)op, span_of(loc), &a, 1, 1);
}

ptx_expr *ptx_b_binary(ptx_context *ctx, ptx_op op, ptx_expr *a, ptx_expr *b)
{
    no_bits_operand(ctx, a);
    no_bits_operand(ctx, b);
    ptx_expr *const parts[2] = { a, b };
    return parts_new(ctx, PTX_EXPR_BINARY, (uint8_t)op, join(a, b), parts, 2, 2);
}

ptx_expr *ptx_b_cond(ptx_context *ctx, ptx_expr *a, ptx_expr *b, ptx_expr *c)
{
    no_bits_operand(ctx, a);
    no_bits_operand(ctx, b);
    no_bits_operand(ctx, c);
    ptx_expr *const parts[3] = { a, b, c };
    return parts_new(ctx, PTX_EXPR_COND, 0, join(a, c), parts, 3, 3);
}

ptx_expr *ptx_b_cast(ptx_context *ctx, const ptx_tok *type, ptx_expr *a, ptx_loc_t loc)
{
    no_bits_operand(ctx, a);
    if (type->k != PTX_TYPE_S64 && type->k != PTX_TYPE_U64)
        error_at(ctx, PTX_DIAG_EXPR, tok_span(type),
                 "only (.s64) and (.u64) casts are allowed in constant expressions");
    return parts_new(ctx, PTX_EXPR_CAST, (uint8_t)type->k, span_of(loc), &a, 1, 1);
}

ptx_expr *ptx_b_index(ptx_context *ctx, ptx_expr *a, ptx_expr *b, ptx_loc_t loc)
{
    ptx_expr *const parts[2] = { a, b };
    return parts_new(ctx, PTX_EXPR_INDEX, 0, span_of(loc), parts, 2, 2);
}

/* An integer constant: integer literals and WARP_SZ combined by
 * operators, no other name. */
static bool is_constant(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT:
        return true;
    case PTX_EXPR_SYM:
        return !ptx_expr_sel(e) && ptx_name_is(ptx_expr_name(e), "WARP_SZ");
    case PTX_EXPR_UNARY: case PTX_EXPR_PAREN: case PTX_EXPR_CAST:
        return is_constant(ptx_expr_a(e));
    case PTX_EXPR_BINARY:
        return is_constant(ptx_expr_a(e)) && is_constant(ptx_expr_b(e));
    case PTX_EXPR_COND:
        return is_constant(ptx_expr_item(e, 0)) && is_constant(ptx_expr_item(e, 1)) &&
               is_constant(ptx_expr_item(e, 2));
    default:
        return false;
    }
}

/* What ptxas takes between brackets: [name], [name+constant], [integer],
 * [array[index]]; the sign of an offset goes into the constant. */
static void check_address(ptx_context *ctx, const ptx_expr *addr)
{
    if (ptx_expr_count(addr) != 1)
        return;
    const ptx_expr *a = ptx_expr_item(addr, 0);
    if (ptx_expr_depth(a) > MAX_EXPR_DEPTH)
        return;
    if (a->kind == PTX_EXPR_SYM || a->kind == PTX_EXPR_INT || a->kind == PTX_EXPR_INDEX)
        return;
    if (a->kind == PTX_EXPR_BINARY && (ptx_expr_a(a)->kind == PTX_EXPR_SYM ||
                                       ptx_expr_a(a)->kind == PTX_EXPR_INDEX)) {
        if (a->op == PTX_OP_SUB) {
            error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(a),
                     "an address offset is added, with its sign: write [%s+-...]",
                     ptx_expr_a(a)->kind == PTX_EXPR_SYM ? ptx_expr_name(ptx_expr_a(a))->text : "...");
            return;
        }
        if (a->op == PTX_OP_ADD) {
            if (!is_constant(ptx_expr_b(a)))
                error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(ptx_expr_b(a)),
                         "an address offset must be an integer constant expression");
            return;
        }
    }
    error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(a),
             "an address is [name], [name+constant] or [integer]");
}

ptx_expr *ptx_b_list(ptx_context *ctx, ptx_expr_kind kind, size_t mark, ptx_loc_t loc)
{
    uint32_t n = (uint32_t)above(ctx, mark);
    ptx_expr *const *parts = n ? (ptx_expr *const *)(ctx->scratch + mark) : NULL;
    ptx_expr *e = parts_new(ctx, kind, 0, span_of(loc), parts, n, n);
    if (n)
        ctx->nscratch = mark;
    if (kind == PTX_EXPR_ADDR)
        check_address(ctx, e);
    return e;
}

/* One item: a parenthesised expression, laid out as a one-item list. */
ptx_expr *ptx_b_parens(ptx_context *ctx, size_t mark, ptx_loc_t loc)
{
    ptx_expr *list = ptx_b_list(ctx, PTX_EXPR_LIST, mark, loc);
    if (ptx_expr_count(list) == 1)
        list->kind = PTX_EXPR_PAREN;
    return list;
}

ptx_expr *ptx_b_addr_suffix(ptx_context *ctx, ptx_expr *addr, const ptx_tok *word, ptx_loc_t loc)
{
    addr->u.more->name = tok_name(ctx, word);
    addr->off = loc.off;
    addr->u.more->len = loc.end - loc.off;
    return addr;
}

static bool is_byte_mask(uint64_t m)
{
    for (int i = 0; i < 8; i++)
        if (m == (uint64_t)0xFF << (8 * i))
            return true;
    return false;
}

ptx_expr *ptx_b_apply(ptx_context *ctx, const ptx_tok *fn, bool fn_is_int, ptx_expr *a, ptx_loc_t loc)
{
    if (fn_is_int) {
        if (!is_byte_mask(fn->u))
            error_at(ctx, PTX_DIAG_EXPR, tok_span(fn),
                     "'%.*s(...)' is not a byte mask: write 0xFF, 0xFF00, ... 0xFF00000000000000",
                     (int)fn->len, ctx->src + fn->off);
        ptx_expr *const parts[2] = { ptx_b_int(ctx, fn), a };
        return parts_new(ctx, PTX_EXPR_MASK, 0, span_of(loc), parts, 2, 2);
    }
    if (!tok_is(ctx, fn, "generic"))
        error_at(ctx, PTX_DIAG_EXPR, tok_span(fn),
                 "'%.*s(...)' is not an operand: only generic(...) and byte masks such as 0xFF00(...) apply to a parenthesised name",
                 (int)fn->len, ctx->src + fn->off);
    return parts_new(ctx, PTX_EXPR_GENERIC, 0, span_of(loc), &a, 1, 1);
}

ptx_expr *ptx_b_field(ptx_context *ctx, const ptx_tok *name, ptx_expr *value, ptx_loc_t loc)
{
    ptx_expr *const parts[2] = { ptx_b_sym(ctx, name, NULL), value };
    return parts_new(ctx, PTX_EXPR_FIELD, 0, span_of(loc), parts, 2, 2);
}

ptx_expr *ptx_b_range(ptx_context *ctx, const ptx_tok *name, const ptx_tok *n, ptx_loc_t loc)
{
    uint32_t count = (uint32_t)(n->u > UINT32_MAX ? UINT32_MAX : n->u);
    ptx_expr *e = parts_new(ctx, PTX_EXPR_RANGE, 0, span_of(loc), NULL, 0, count);
    e->u.more->name = tok_name(ctx, name);
    if (n->u > UINT32_MAX)
        error_at(ctx, PTX_DIAG_LITERAL, tok_span(n), "label count %llu is out of range",
                 (unsigned long long)n->u);
    return e;
}

/* The first 'name = value' item in a list (or a list nested in it). */
static const ptx_expr *find_field(const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_FIELD)
        return e;
    if ((e->kind == PTX_EXPR_VEC || e->kind == PTX_EXPR_LIST || e->kind == PTX_EXPR_ADDR) &&
        ptx_expr_depth(e) <= MAX_EXPR_DEPTH) {
        for (uint32_t i = 0; i < ptx_expr_count(e); i++) {
            const ptx_expr *f = find_field(ptx_expr_item(e, i));
            if (f)
                return f;
        }
    }
    return NULL;
}

static bool is_name_or_sink(const ptx_expr *e)
{
    return e->kind == PTX_EXPR_SINK || (e->kind == PTX_EXPR_SYM);
}

ptx_expr *ptx_b_operand(ptx_context *ctx, ptx_expr *e)
{
    (void)ctx;
    if (e->kind == PTX_EXPR_PAREN) {
        /* the same layout: a one-item list */
        e->kind = PTX_EXPR_LIST;
        return e;
    }
    if (e->kind == PTX_EXPR_BINARY && e->op == PTX_OP_BOR &&
        is_name_or_sink(ptx_expr_a(e)) && is_name_or_sink(ptx_expr_b(e)))
        e->kind = PTX_EXPR_PAIR;
    return e;
}

/* ---- statements -------------------------------------------------------- */

void ptx_b_mod(ptx_context *ctx, const ptx_tok *word)
{
    ptx_scratch_push(ctx, (void *)tok_name(ctx, word));
    ptx_scratch_push(ctx, (void *)(uintptr_t)word->off);
}

/* The opcode and the first `words` modifiers, those of the opcode's
 * token, which starts `at` bytes into the instruction: mods[0] is the
 * opcode's. */
static void fill_mods(ptx_mod *mods, const ptx_split *sp, uint32_t at, uint32_t words)
{
    uint32_t off = at;
    for (unsigned i = 0; i <= words; i++) {
        mods[i].name = sp->words[i];
        mods[i].off = off;
        mods[i].id = 0;
        mods[i].category = 0;
        off += sp->words[i]->len;
    }
}

ptx_mods_set *ptx_mods_set_new(ptx_context *ctx, ptx_mods_set **head, uint32_t at,
                               bool validated, uint32_t nmods)
{
    ptx_mods_set *s = ptx_arena_alloc(&ctx->arena, sizeof *s + (nmods + 1u) * sizeof(ptx_mod));
    s->at = at;
    s->validated = validated;
    s->head = head;
    s->next = *head;
    *head = s;
    return s;
}

/* The not yet validated set of sp's modifiers at `at` (internal.h). */
static ptx_mod *shared_mods(ptx_context *ctx, ptx_split *sp, uint32_t at, uint32_t words)
{
    for (ptx_mods_set *s = sp->sets; s; s = s->next)
        if (s->at == at && !s->validated)
            return s->mods + 1;
    ptx_mods_set *s = ptx_mods_set_new(ctx, &sp->sets, at, false, words);
    fill_mods(s->mods, sp, at, words);
    return s->mods + 1;
}

ptx_node *ptx_b_instr(ptx_context *ctx, const ptx_tok *guard, bool neg,
                      const ptx_tok *opcode, size_t mods, size_t ops, ptx_loc_t loc)
{
    /* the operands, on the scratch above `ops`, go into the node */
    size_t have = above(ctx, ops);
    uint32_t nops = have > UINT16_MAX ? UINT16_MAX : (uint32_t)have;
    if (have > UINT16_MAX)
        error_at(ctx, PTX_DIAG_LIMIT, span_of(loc),
                 "too many operands (the limit is %u)", (unsigned)UINT16_MAX);
    ptx_instr *in = ptx_arena_alloc(&ctx->arena,
                                    sizeof *in + (nops + (guard != NULL)) * sizeof(ptx_expr));
    memset(in, 0, sizeof *in);
    in->base.kind = PTX_NODE_INSTR;
    in->base.span = span_of(loc);
    in->nops = (uint16_t)nops;
    ptx_expr *const *from = (ptx_expr *const *)(ctx->scratch + (have ? ops : 0));
    for (size_t i = 0; i < have; i++) {
        if (i < nops)
            in->ops[i] = *from[i];
        cell_free(ctx, from[i]);
    }
    if (have)
        ctx->nscratch = ops;
    for (uint32_t i = 0; i < nops; i++) {
        const ptx_expr *f = find_field(&in->ops[i]);
        if (f)
            error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(f),
                     "'name = value' is only allowed in initialisers of .texref, .samplerref and .surfref variables");
    }
    if (guard) {
        ptx_leaf_value v = { .name = tok_name(ctx, guard) };
        ptx_expr_set_leaf(ctx, &in->ops[nops], PTX_EXPR_SYM, 0, tok_span(guard), v, NULL);
        in->flags |= PTX_INSTR_GUARD;
        in->guard_neg = neg;
    }
    /* a DOTTED opcode: its words go before those the grammar collected */
    ptx_split *sp = ptx_intern_split(ctx, ctx->src + opcode->off, opcode->len);
    uint32_t words = sp->nwords - 1;
    uint32_t n;
    void **pairs = take(ctx, mods, &n);
    if ((size_t)n / 2 + words > UINT16_MAX) {
        error_at(ctx, PTX_DIAG_LIMIT, span_of(loc),
                 "too many modifiers (the limit is %u)", (unsigned)UINT16_MAX);
        if (words > UINT16_MAX)
            words = UINT16_MAX;
        n = 2 * (UINT16_MAX - words);
    }
    in->nmods = (uint16_t)(n / 2 + words);
    uint32_t at = opcode->off - loc.off;
    if (n == 0) {
        /* all in the opcode's token: shared with the instructions alike */
        in->mods = shared_mods(ctx, sp, at, words);
        in->flags |= PTX_INSTR_SHARED_MODS;
        return &in->base;
    }
    in->mods = (ptx_mod *)ptx_arena_alloc(&ctx->arena, (in->nmods + 1u) * sizeof *in->mods) + 1;
    fill_mods(in->mods - 1, sp, at, words);
    for (unsigned i = words; i < in->nmods; i++) {
        in->mods[i].name = pairs[2 * (i - words)];
        in->mods[i].off = (uint32_t)(uintptr_t)pairs[2 * (i - words) + 1] - loc.off;
        in->mods[i].id = 0;
        in->mods[i].category = 0;
    }
    return &in->base;
}

ptx_node *ptx_b_label(ptx_context *ctx, const ptx_tok *name, ptx_loc_t loc)
{
    ptx_label *l = node_new(ctx, PTX_NODE_LABEL, sizeof *l, loc);
    l->name = tok_name(ctx, name);
    return &l->base;
}

ptx_node *ptx_b_block(ptx_context *ctx, ptx_nlist body, ptx_loc_t loc)
{
    ptx_block *b = node_new(ctx, PTX_NODE_BLOCK, sizeof *b, loc);
    b->first = body.first;
    return &b->base;
}

/* .loc attributes arrive as (kind, a, b, c) quadruples on the scratch. */
void ptx_b_loc_attr(ptx_context *ctx, const ptx_tok *key, const ptx_tok *a,
                    const ptx_tok *b, const ptx_tok *c, ptx_loc_t loc)
{
    ptx_tok *copy = ptx_arena_alloc(&ctx->arena, 4 * sizeof *copy);
    memset(copy, 0, 4 * sizeof *copy);
    copy[0] = *key;
    copy[1] = *a;
    if (b)
        copy[2] = *b;
    if (c)
        copy[3] = *c;
    bool fname = tok_is(ctx, key, "function_name");
    bool inl = tok_is(ctx, key, "inlined_at");
    /* a's kind tells the forms apart: a name for function_name, numbers
     * for inlined_at */
    bool a_is_name = ctx->src[a->off] < '0' || ctx->src[a->off] > '9';
    if ((fname && (!a_is_name || c)) || (inl && (a_is_name || !c)) || (!fname && !inl) ||
        (!a_is_name && !c)) {
        (void)loc;
        error_at(ctx, PTX_DIAG_DIRECTIVE, tok_span(key),
                 "'.loc' takes 'function_name LABEL[+N]' and 'inlined_at FILE LINE COLUMN' after the column; found '%.*s'",
                 (int)key->len, ctx->src + key->off);
        return;
    }
    ptx_scratch_push(ctx, copy);
}

static uint32_t u32_of(ptx_context *ctx, const ptx_tok *t, const char *what)
{
    if (t->u > UINT32_MAX) {
        error_at(ctx, PTX_DIAG_LITERAL, tok_span(t), "%s %llu is out of range", what,
                 (unsigned long long)t->u);
        return UINT32_MAX;
    }
    return (uint32_t)t->u;
}

ptx_node *ptx_b_loc(ptx_context *ctx, const ptx_tok nums[3], size_t attrs, ptx_loc_t loc)
{
    ptx_loc *l = node_new(ctx, PTX_NODE_LOC, sizeof *l, loc);
    l->file = u32_of(ctx, &nums[0], "file index");
    l->line = u32_of(ctx, &nums[1], "line");
    l->col = u32_of(ctx, &nums[2], "column");
    uint32_t n;
    ptx_tok **items = (ptx_tok **)take(ctx, attrs, &n);
    for (uint32_t i = 0; i < n; i++) {
        ptx_tok *q = items[i];
        if (tok_is(ctx, &q[0], "function_name")) {
            l->function_name = tok_name(ctx, &q[1]);
            l->function_offset = q[2].len ? q[2].u : 0;
        } else {
            l->has_inlined_at = 1;
            l->in_file = u32_of(ctx, &q[1], "file index");
            l->in_line = u32_of(ctx, &q[2], "line");
            l->in_col = u32_of(ctx, &q[3], "column");
        }
    }
    return &l->base;
}

void ptx_b_string(ptx_context *ctx, const ptx_tok *t)
{
    ptx_scratch_push(ctx, (void *)ptx_intern(ctx, ctx->src + t->off + 1, t->len - 2));
}

/* The pragmas of PTX ISA 9.0; ptxas refuses any other. */
static void check_pragmas(ptx_context *ctx, const ptx_name **s, uint32_t n, ptx_loc_t loc)
{
    static const char *const known[] = {
        "nounroll", "enable_smem_spilling", "used_bytes_mask", "frequency",
    };
    for (uint32_t i = 0; i < n; i++) {
        size_t word = strcspn(s[i]->text, " \t");
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            if (strlen(known[k]) == word && strncmp(s[i]->text, known[k], word) == 0)
                ok = true;
        if (!ok)
            error_at(ctx, PTX_DIAG_DIRECTIVE, span_of(loc),
                     "unknown pragma \"%s\": expected nounroll, used_bytes_mask N, enable_smem_spilling or frequency N",
                     s[i]->text);
    }
}

ptx_node *ptx_b_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc)
{
    ptx_pragma *p = node_new(ctx, PTX_NODE_PRAGMA, sizeof *p, loc);
    p->strings = (const ptx_name **)take(ctx, strings, &p->nstrings);
    ptx_gate(ctx, ".pragma", span_of(loc));
    check_pragmas(ctx, p->strings, p->nstrings, loc);
    return &p->base;
}

ptx_node *ptx_b_targets(ptx_context *ctx, const ptx_tok *label, bool branch,
                        size_t names, ptx_loc_t loc)
{
    ptx_targets *t = node_new(ctx, PTX_NODE_TARGETS, sizeof *t, loc);
    t->is_branch = branch;
    ptx_gate(ctx, branch ? ".branchtargets" : ".calltargets", span_of(loc));
    t->label = tok_name(ctx, label);
    t->names = (ptx_expr **)take(ctx, names, &t->count);
    return &t->base;
}

/* ---- function directives ----------------------------------------------- */

static const uint8_t fdir_arity[PTX_FDIR_COUNT][2] = {   /* min, max values */
    [PTX_FDIR_MAXNREG] = { 1, 1 }, [PTX_FDIR_MAXNTID] = { 1, 3 },
    [PTX_FDIR_REQNTID] = { 1, 3 }, [PTX_FDIR_MINNCTAPERSM] = { 1, 1 },
    [PTX_FDIR_MAXNCTAPERSM] = { 1, 1 }, [PTX_FDIR_REQNCTAPERCLUSTER] = { 1, 3 },
    [PTX_FDIR_EXPLICITCLUSTER] = { 0, 0 }, [PTX_FDIR_MAXCLUSTERRANK] = { 1, 1 },
    [PTX_FDIR_BLOCKSARECLUSTERS] = { 0, 0 }, [PTX_FDIR_LOCAL_MAXNREG] = { 1, 1 },
    [PTX_FDIR_NORETURN] = { 0, 0 }, [PTX_FDIR_ABI_PRESERVE] = { 1, 1 },
    [PTX_FDIR_ABI_PRESERVE_CONTROL] = { 1, 1 },
};

void ptx_b_fdir(ptx_context *ctx, const ptx_tok *kind, size_t values, ptx_loc_t loc)
{
    ptx_fdir *d = ptx_arena_zalloc(&ctx->arena, sizeof *d);
    d->kind = (uint8_t)kind->k;
    d->span = span_of(loc);
    uint32_t n;
    ptx_expr **vals = (ptx_expr **)take(ctx, values, &n);
    const char *name = ptx_fdir_name(kind->k);
    ptx_gate(ctx, name, d->span);
    if (n < fdir_arity[kind->k][0] || n > fdir_arity[kind->k][1]) {
        if (fdir_arity[kind->k][1] == 0)
            error_at(ctx, PTX_DIAG_DIRECTIVE, d->span, "'%s' takes no value", name);
        else if (fdir_arity[kind->k][1] == 1)
            error_at(ctx, PTX_DIAG_DIRECTIVE, d->span, "'%s' takes one value", name);
        else
            error_at(ctx, PTX_DIAG_DIRECTIVE, d->span, "'%s' takes one to three values", name);
        if (n > 3)
            n = 3;
    }
    d->nvals = (uint8_t)n;
    for (uint32_t i = 0; i < n; i++) {
        if (ptx_expr_int(vals[i]) > UINT32_MAX)
            error_at(ctx, PTX_DIAG_LITERAL, ptx_expr_span(vals[i]),
                     "'%s' value %llu is out of range (at most 4294967295)", name,
                     (unsigned long long)ptx_expr_int(vals[i]));
        d->vals[i] = (uint32_t)ptx_expr_int(vals[i]);
    }
    ptx_scratch_push(ctx, d);
}

void ptx_b_fdir_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc)
{
    ptx_fdir *d = ptx_arena_zalloc(&ctx->arena, sizeof *d);
    d->kind = PTX_FDIR_PRAGMA;
    d->span = span_of(loc);
    uint32_t n;
    d->strings = (const ptx_name **)take(ctx, strings, &n);
    ptx_gate(ctx, ".pragma", d->span);
    check_pragmas(ctx, d->strings, n, loc);
    d->nvals = (uint8_t)(n > 255 ? 255 : n);
    ptx_scratch_push(ctx, d);
}

static ptx_fdir *take_fdirs(ptx_context *ctx, size_t mark, uint32_t *count)
{
    uint32_t n;
    ptx_fdir **ds = (ptx_fdir **)take(ctx, mark, &n);
    ptx_fdir *out = NULL;
    if (n) {
        out = ptx_arena_alloc(&ctx->arena, n * sizeof *out);
        for (uint32_t i = 0; i < n; i++)
            out[i] = *ds[i];
    }
    *count = n;
    return out;
}

static bool is_func_dir(unsigned k)
{
    return k == PTX_FDIR_NORETURN || k == PTX_FDIR_ABI_PRESERVE ||
           k == PTX_FDIR_ABI_PRESERVE_CONTROL;
}

/* .func and .callprototype: only .noreturn, .abi_preserve,
 * .abi_preserve_control, in that order, each once; .func also takes
 * .local_maxnreg and .pragma. */
static void check_func_dirs(ptx_context *ctx, const ptx_fdir *d, uint32_t n,
                            bool has_ret, const char *what)
{
    int last = -1;
    for (uint32_t i = 0; i < n; i++) {
        bool func = strcmp(what, ".func") == 0;
        if (func && (d[i].kind == PTX_FDIR_PRAGMA || d[i].kind == PTX_FDIR_LOCAL_MAXNREG))
            continue;
        if (!is_func_dir(d[i].kind)) {
            error_at(ctx, PTX_DIAG_DIRECTIVE, d[i].span, "'%s' is not allowed on '%s'",
                     ptx_fdir_name(d[i].kind), what);
            continue;
        }
        if ((int)d[i].kind <= last)
            error_at(ctx, PTX_DIAG_DIRECTIVE, d[i].span,
                     "'%s' is out of place: write .noreturn, .abi_preserve, .abi_preserve_control in this order, each once",
                     ptx_fdir_name(d[i].kind));
        last = d[i].kind;
        if (d[i].kind == PTX_FDIR_NORETURN && has_ret)
            error_at(ctx, PTX_DIAG_DIRECTIVE, d[i].span,
                     "'.noreturn' is not allowed on a function with a return parameter");
    }
}

static void check_entry_dirs(ptx_context *ctx, const ptx_fdir *d, uint32_t n)
{
    const ptx_fdir *seen[PTX_FDIR_COUNT] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        if (is_func_dir(d[i].kind)) {
            error_at(ctx, PTX_DIAG_DIRECTIVE, d[i].span, "'%s' is not allowed on '.entry'",
                     ptx_fdir_name(d[i].kind));
            continue;
        }
        /* ptxas takes a directive given twice */
        seen[d[i].kind] = &d[i];
    }
    if (seen[PTX_FDIR_MAXNTID] && seen[PTX_FDIR_REQNTID])
        error_at(ctx, PTX_DIAG_DIRECTIVE, seen[PTX_FDIR_REQNTID]->span,
                 "'.maxntid' and '.reqntid' cannot both be given");
    if (seen[PTX_FDIR_MAXCLUSTERRANK] && seen[PTX_FDIR_REQNCTAPERCLUSTER])
        error_at(ctx, PTX_DIAG_DIRECTIVE, seen[PTX_FDIR_MAXCLUSTERRANK]->span,
                 "'.maxclusterrank' and '.reqnctapercluster' cannot both be given");
    if (seen[PTX_FDIR_BLOCKSARECLUSTERS] &&
        (!seen[PTX_FDIR_REQNTID] || !seen[PTX_FDIR_REQNCTAPERCLUSTER]))
        error_at(ctx, PTX_DIAG_DIRECTIVE, seen[PTX_FDIR_BLOCKSARECLUSTERS]->span,
                 "'.blocksareclusters' needs both '.reqntid' and '.reqnctapercluster'");
    const ptx_module *m = ctx->module;
    if (seen[PTX_FDIR_MAXNCTAPERSM] && m &&
        (m->version_major > 2 || (m->version_major == 2 && m->version_minor >= 1)))
        error_at(ctx, PTX_DIAG_UNSUPPORTED, seen[PTX_FDIR_MAXNCTAPERSM]->span,
                 "'.maxnctapersm' is not supported as of PTX ISA 2.1");
}

/* ---- declarations ----------------------------------------------------- */

unsigned ptx_type_bits(unsigned t)
{
    switch (t) {
    case PTX_TYPE_S8: case PTX_TYPE_U8: case PTX_TYPE_B8: return 8;
    case PTX_TYPE_S16: case PTX_TYPE_U16: case PTX_TYPE_B16: case PTX_TYPE_F16: return 16;
    case PTX_TYPE_S32: case PTX_TYPE_U32: case PTX_TYPE_B32: case PTX_TYPE_F32:
    case PTX_TYPE_F16X2: return 32;
    case PTX_TYPE_S64: case PTX_TYPE_U64: case PTX_TYPE_B64: case PTX_TYPE_F64: return 64;
    case PTX_TYPE_B128: return 128;
    default: return 0;
    }
}

static const char *const instruction_only_types[] = {
    ".bf16", ".bf16x2", ".tf32", ".e4m3", ".e5m2", ".e2m3", ".e3m2", ".e2m1",
    ".ue8m0", ".ue4m3", ".s2f6", ".e4m3x2", ".e5m2x2", ".e2m3x2", ".e3m2x2",
    ".e2m1x2", ".ue8m0x2", ".s2f6x2", ".e4m3x4", ".e5m2x4", ".e2m3x4",
    ".e3m2x4", ".e2m1x4", ".f32x2", ".u16x2", ".s16x2", ".u4", ".s4", ".b1",
};

void ptx_b_spec(ptx_context *ctx, ptx_spec_kind kind, const ptx_tok *t, ptx_loc_t loc)
{
    ptx_spec *s = ptx_arena_zalloc(&ctx->arena, sizeof *s);
    s->kind = (uint8_t)kind;
    s->span = span_of(loc);
    switch (kind) {
    case PTX_SPEC_ALIGN:
        if (t->u == 0 || t->u > UINT32_MAX || (t->u & (t->u - 1))) {
            error_at(ctx, PTX_DIAG_DECL, s->span, "alignment %llu is not a power of two below 2^32",
                     (unsigned long long)t->u);
            s->val = 1;
        } else {
            s->val = (uint32_t)t->u;
        }
        break;
    case PTX_SPEC_WORD:
        s->word = tok_name(ctx, t);
        break;
    default:
        s->val = t->k;
        break;
    }
    if (kind == PTX_SPEC_PTR)
        ptx_gate(ctx, ".ptr", s->span);
    else if (kind == PTX_SPEC_LINK || (kind == PTX_SPEC_TYPE && (t->k == PTX_TYPE_TEXREF ||
             t->k == PTX_TYPE_SAMPLERREF || t->k == PTX_TYPE_SURFREF)))
        ptx_gate(ctx, kind == PTX_SPEC_LINK ? ptx_linkage_name(t->k) : ptx_type_name(t->k), s->span);
    ptx_scratch_push(ctx, s);
}

ptx_spec *ptx_b_attr(ptx_context *ctx, const ptx_tok *word, const ptx_tok *a,
                     const ptx_tok *b, ptx_loc_t loc)
{
    ptx_spec *s = ptx_arena_zalloc(&ctx->arena, sizeof *s);
    s->span = span_of(loc);
    if (!a && tok_is(ctx, word, ".managed")) {
        s->attrs = PTX_ATTR_MANAGED;
    } else if (a && tok_is(ctx, word, ".unified")) {
        ptx_gate(ctx, ".unified", s->span);
        s->attrs = PTX_ATTR_UNIFIED;
        s->unified[0] = a->u;
        s->unified[1] = b->u;
    } else {
        error_at(ctx, PTX_DIAG_DECL, s->span,
                 "unknown attribute '%.*s': expected .managed or .unified(UUID1, UUID2)",
                 (int)word->len, ctx->src + word->off);
    }
    return s;
}

ptx_spec *ptx_b_attr_merge(ptx_context *ctx, ptx_spec *a, ptx_spec *b)
{
    if (a->attrs & b->attrs)
        error_at(ctx, PTX_DIAG_DECL, b->span, "attribute given twice");
    a->attrs |= b->attrs;
    if (b->attrs & PTX_ATTR_UNIFIED) {
        a->unified[0] = b->unified[0];
        a->unified[1] = b->unified[1];
    }
    a->span.len = b->span.off + b->span.len - a->span.off;
    return a;
}

ptx_spec *ptx_b_attr_spec(ptx_context *ctx, ptx_spec *attrs, ptx_loc_t loc)
{
    ptx_gate(ctx, ".attribute", span_of(loc));
    attrs->kind = attrs->attrs & PTX_ATTR_UNIFIED ? PTX_SPEC_ATTR_UNIFIED : PTX_SPEC_ATTR_MANAGED;
    attrs->span = span_of(loc);
    return attrs;
}

ptx_var *ptx_b_var(ptx_context *ctx, const ptx_tok *name, bool sink)
{
    ptx_var *v = ptx_arena_zalloc(&ctx->arena, sizeof *v);
    v->name = sink ? ptx_intern(ctx, "_", 1) : tok_name(ctx, name);
    v->span = tok_span(name);
    return v;
}

void ptx_b_var_dim(ptx_context *ctx, ptx_var *v, const ptx_tok *n, ptx_loc_t loc)
{
    uint64_t *dims = ptx_arena_alloc(&ctx->arena, (v->ndims + 1) * sizeof *dims);
    if (v->ndims)
        memcpy(dims, v->dims, v->ndims * sizeof *dims);
    if (!n && v->ndims)
        error_at(ctx, PTX_DIAG_DECL, span_of(loc),
                 "only the first dimension of an array may be left unsized");
    if (!n && !v->ndims)
        v->unsized = 1;
    dims[v->ndims++] = n ? n->u : 0;
    v->dims = dims;
    v->span.len = loc.end - v->span.off;
}

void ptx_b_var_range(ptx_context *ctx, ptx_var *v, const ptx_tok *n, ptx_loc_t loc)
{
    (void)loc;
    v->has_range = 1;
    if (n->u > UINT32_MAX) {
        error_at(ctx, PTX_DIAG_DECL, tok_span(n),
                 "register count in '<%llu>' is above the limit of %u",
                 (unsigned long long)n->u, (unsigned)UINT32_MAX);
        v->range = UINT32_MAX;
    } else {
        v->range = (uint32_t)n->u;
    }
    v->span.len = n->off + n->len + 1 - v->span.off;
}

void ptx_b_var_init(ptx_context *ctx, ptx_var *v, ptx_expr *init)
{
    (void)ctx;
    v->init = init;
}

/* Folds the specifiers into d, checking each appears once and in the
 * order ptxas takes: linkage, space, [.ptr...], .align, .vN, type, with
 * .align also allowed before the space, and after the type in kernel
 * parameter lists. */
static bool apply_specs(ptx_context *ctx, ptx_decl *d, ptx_spec **specs, uint32_t n)
{
    enum { P_LINK, P_SPACE, P_ALIGN, P_VEC, P_TYPE };
    int stage = -1;
    bool in_ptr = false, bad_type = false;
    ptx_span vec_span = { 0, 0 };
    for (uint32_t i = 0; i < n; i++) {
        ptx_spec *s = specs[i];
        int at = -1;
        switch ((ptx_spec_kind)s->kind) {
        case PTX_SPEC_LINK:
            if (d->linkage)
                error_at(ctx, PTX_DIAG_DECL, s->span, "only one of .extern, .visible, .weak, .common may be given");
            d->linkage = (uint8_t)s->val;
            at = P_LINK;
            break;
        case PTX_SPEC_SPACE:
            if (in_ptr && !d->ptr_space && s->val != PTX_SPACE_PARAM) {
                d->ptr_space = (uint8_t)s->val;
                continue;
            }
            if (d->space)
                error_at(ctx, PTX_DIAG_DECL, s->span, "a declaration has one state space");
            d->space = (uint8_t)s->val;
            at = P_SPACE;
            break;
        case PTX_SPEC_ALIGN:
            if (in_ptr && !d->ptr_align) {
                d->ptr_align = s->val;
                continue;
            }
            /* ptxas takes '.align 4 .align 8' and uses the larger */
            if (s->val > d->align)
                d->align = s->val;
            if (stage == P_TYPE) {
                /* after the type: only kernel parameters; checked later */
                d->pad |= 1;
                continue;
            }
            at = stage < P_SPACE ? stage : P_ALIGN;
            break;
        case PTX_SPEC_VEC:
            if (d->vec)
                error_at(ctx, PTX_DIAG_DECL, s->span, "a vector size is given twice");
            d->vec = (uint8_t)s->val;
            vec_span = s->span;
            at = P_VEC;
            break;
        case PTX_SPEC_TYPE:
            if (d->type)
                error_at(ctx, PTX_DIAG_DECL, s->span, "a declaration has one type");
            d->type = (uint8_t)s->val;
            at = P_TYPE;
            break;
        case PTX_SPEC_WORD: {
            const char *w = s->word->text;
            bool instr_only = false;
            for (size_t k = 0; k < sizeof instruction_only_types / sizeof *instruction_only_types; k++)
                if (strcmp(w, instruction_only_types[k]) == 0)
                    instr_only = true;
            bad_type = true;
            const char *colons = strstr(w, "::");
            if (colons && !instr_only) {
                error_at(ctx, PTX_DIAG_DECL, s->span,
                         "'%s' is an instruction modifier; declarations use '%.*s'", w,
                         (int)(colons - w), w);
                continue;
            }
            if (instr_only)
                error_at(ctx, PTX_DIAG_DECL, s->span,
                         "'%s' may only be used as an instruction type; declare a .b%s variable instead",
                         w, strstr(w, "x4") || !strcmp(w, ".tf32") || !strcmp(w, ".bf16x2") ||
                            !strcmp(w, ".u16x2") || !strcmp(w, ".s16x2") ? "32"
                            : !strcmp(w, ".f32x2") ? "64" : strstr(w, "x2") || !strcmp(w, ".bf16") ? "16" : "8");
            else {
                char msg[PTX_DIAG_MESSAGE_MAX];
                snprintf(msg, sizeof msg, "'%s' is not a declaration specifier", w);
                ptx_error_directive(ctx, PTX_DIAG_DECL, s->span, w, strlen(w), msg);
            }
            continue;
        }
        case PTX_SPEC_PTR:
            if (d->has_ptr)
                error_at(ctx, PTX_DIAG_DECL, s->span, "'.ptr' is given twice");
            d->has_ptr = 1;
            in_ptr = true;
            continue;
        case PTX_SPEC_ATTR_MANAGED:
        case PTX_SPEC_ATTR_UNIFIED:
            /* ptxas takes .attribute(...) anywhere before the type */
            if (stage == P_TYPE)
                error_at(ctx, PTX_DIAG_DECL, s->span, "'.attribute' must come before the type");
            d->attrs |= s->attrs;
            if (s->attrs & PTX_ATTR_UNIFIED) {
                d->unified[0] = s->unified[0];
                d->unified[1] = s->unified[1];
            }
            continue;
        }
        if (at < stage)
            error_at(ctx, PTX_DIAG_DECL, s->span,
                     "'%.*s' is out of place: write linkage, state space, .align, vector size, then the type",
                     (int)s->span.len, ctx->src + s->span.off);
        else
            stage = at;
        if (at != P_SPACE)
            in_ptr = false;
    }
    if (d->vec) {
        if (d->vec == 8)
            error_at(ctx, PTX_DIAG_DECL, vec_span, "'.v8' is only an instruction modifier; variables are .v2 or .v4");
        else if (d->type == PTX_TYPE_PRED)
            error_at(ctx, PTX_DIAG_DECL, vec_span, "vectors of '.pred' are not allowed");
        else if (ptx_type_bits(d->type) * d->vec > 128)
            error_at(ctx, PTX_DIAG_DECL, vec_span, "vector of %u x %u bits exceeds the 128-bit limit",
                     (unsigned)d->vec, ptx_type_bits(d->type));
    }
    return bad_type;
}

static ptx_decl *decl_from(ptx_context *ctx, size_t specs, ptx_loc_t loc)
{
    ptx_decl *d = node_new(ctx, PTX_NODE_DECL, sizeof *d, loc);
    uint32_t n;
    ptx_spec **sp = (ptx_spec **)take(ctx, specs, &n);
    bool bad_type = apply_specs(ctx, d, sp, n);
    ptx_span at = span_of(loc);
    at.len = 0;
    if (!d->space && !bad_type)
        error_at(ctx, PTX_DIAG_DECL, at, "a declaration needs a state space (.reg, .global, .shared, ...)");
    else if (!d->type && !bad_type)
        error_at(ctx, PTX_DIAG_DECL, at, "a declaration needs a type (.b32, .u64, .pred, ...)");
    if (d->space == PTX_SPACE_SREG)
        error_at(ctx, PTX_DIAG_DECL, at, "special registers (.sreg) are predefined and cannot be declared");
    if (d->space == PTX_SPACE_TEX && ctx->module && version_at_least(ctx->module, 1, 5))
        error_at(ctx, PTX_DIAG_UNSUPPORTED, at,
                 "'.tex' variables are not supported as of PTX ISA 1.5; use '.global .texref'");
    return d;
}

ptx_decl *ptx_b_decl(ptx_context *ctx, size_t specs, size_t vars, ptx_loc_t loc)
{
    uint32_t n;
    ptx_var **vs = (ptx_var **)take(ctx, vars, &n);
    ptx_decl *d = decl_from(ctx, specs, loc);
    d->nvars = n;
    d->vars = ptx_arena_alloc(&ctx->arena, n * sizeof *d->vars);
    for (uint32_t i = 0; i < n; i++)
        d->vars[i] = *vs[i];
    return d;
}

ptx_decl *ptx_b_param(ptx_context *ctx, size_t specs, ptx_var *var, ptx_loc_t loc)
{
    ptx_decl *d = decl_from(ctx, specs, loc);
    d->nvars = 1;
    d->vars = var;
    return d;
}

static void check_vars(ptx_context *ctx, ptx_decl *d, ptx_decl_site site)
{
    bool initable = d->space == PTX_SPACE_CONST || d->space == PTX_SPACE_GLOBAL;
    for (uint32_t i = 0; i < d->nvars; i++) {
        ptx_var *v = &d->vars[i];
        bool sink = v->name->len == 1 && v->name->text[0] == '_';
        if (sink && site != PTX_SITE_PROTO_PARAM)
            error_at(ctx, PTX_DIAG_DECL, v->span, "'_' is the sink symbol and cannot be declared");
        const ptx_expr *field = v->init ? find_field(v->init) : NULL;
        if (field && d->type != PTX_TYPE_TEXREF && d->type != PTX_TYPE_SAMPLERREF &&
            d->type != PTX_TYPE_SURFREF)
            error_at(ctx, PTX_DIAG_DECL, ptx_expr_span(field),
                     "'name = value' is only allowed in initialisers of .texref, .samplerref and .surfref variables");
        if (v->init && !initable)
            error_at(ctx, PTX_DIAG_DECL, ptx_expr_span(v->init),
                     "only .const and .global variables can be initialised");
        else if (v->init && d->linkage == PTX_LINK_EXTERN)
            error_at(ctx, PTX_DIAG_DECL, ptx_expr_span(v->init), "an .extern variable cannot be initialised");
        if (v->ndims && d->space == PTX_SPACE_REG)
            error_at(ctx, PTX_DIAG_DECL, v->span, "arrays cannot be allocated in registers (.reg)");
        if (v->unsized && !v->init &&
            d->linkage != PTX_LINK_EXTERN && site != PTX_SITE_FUNC_PARAM &&
            site != PTX_SITE_PROTO_PARAM)
            error_at(ctx, PTX_DIAG_DECL, v->span,
                     "an unsized array needs an initialiser or '.extern'");
    }
    if ((d->pad & 1) && site != PTX_SITE_ENTRY_PARAM)
        error_at(ctx, PTX_DIAG_DECL, d->base.span,
                 "'.align' after the type is only allowed in '.entry' parameter lists");
    if (d->has_ptr && site != PTX_SITE_ENTRY_PARAM)
        error_at(ctx, PTX_DIAG_DECL, d->base.span,
                 "'.ptr' is a kernel parameter attribute: only allowed in '.entry' parameter lists");
    d->pad = 0;
}

ptx_node *ptx_b_decl_at(ptx_context *ctx, ptx_decl *d, ptx_decl_site site)
{
    check_vars(ctx, d, site);
    /* ptxas takes them before PTX ISA 3.0, turning the ABI off for the
     * module (a warning), and refuses them from 3.0, where the ABI is on */
    if (site == PTX_SITE_MODULE && (d->space == PTX_SPACE_REG || d->space == PTX_SPACE_LOCAL)) {
        if (ctx->module && !version_at_least(ctx->module, 3, 0))
            ptx_diag_add(ctx, PTX_SEV_WARNING, PTX_DIAG_DECL, d->base.span,
                         "module-scope '%s' variables turn the ABI off for this module (ptxas allows them before PTX ISA 3.0)",
                         ptx_space_name(d->space));
        else
            error_at(ctx, PTX_DIAG_DECL, d->base.span,
                     "'%s' variables cannot be declared at module scope from PTX ISA 3.0 (the ABI does not allow them)",
                     ptx_space_name(d->space));
    }
    if (d->space == PTX_SPACE_PARAM && site == PTX_SITE_MODULE)
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "'.param' variables cannot be declared at module scope");
    if (site == PTX_SITE_BODY && d->linkage && d->linkage != PTX_LINK_EXTERN)
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "'%s' is only allowed at module scope",
                 ptx_linkage_name(d->linkage));
    return &d->base;
}

static void check_params(ptx_context *ctx, ptx_decl **ps, uint32_t n, ptx_decl_site site)
{
    for (uint32_t i = 0; i < n; i++) {
        ptx_decl *d = ps[i];
        check_vars(ctx, d, site);
        if (d->linkage)
            error_at(ctx, PTX_DIAG_DECL, d->base.span, "parameters have no linkage");
        if (site == PTX_SITE_ENTRY_PARAM && d->space && d->space != PTX_SPACE_PARAM)
            error_at(ctx, PTX_DIAG_DECL, d->base.span, "'.entry' parameters must be '.param'");
        else if (d->space && d->space != PTX_SPACE_PARAM && d->space != PTX_SPACE_REG)
            error_at(ctx, PTX_DIAG_DECL, d->base.span, "parameters must be '.param' or '.reg'");
        if (d->vars[0].unsized && i + 1 != n)
            error_at(ctx, PTX_DIAG_DECL, d->vars[0].span, "only the last parameter may be an unsized array");
    }
}

/* ---- functions -------------------------------------------------------- */

ptx_func *ptx_b_func_head(ptx_context *ctx, size_t specs, bool entry, size_t ret,
                          const ptx_tok *name, size_t params, size_t dirs,
                          ptx_loc_t loc)
{
    ptx_func *f = node_new(ctx, PTX_NODE_FUNC, sizeof *f, loc);
    f->is_entry = entry;
    f->name = tok_name(ctx, name);
    f->dirs = take_fdirs(ctx, dirs, &f->ndirs);
    f->has_params = params != PTX_NO_LIST;
    f->params = (ptx_decl **)take(ctx, params, &f->nparams);
    f->has_ret = ret != PTX_NO_LIST;
    f->ret = (ptx_decl **)take(ctx, ret, &f->nret);
    uint32_t n;
    ptx_spec **sp = (ptx_spec **)take(ctx, specs, &n);
    for (uint32_t i = 0; i < n; i++) {
        switch ((ptx_spec_kind)sp[i]->kind) {
        case PTX_SPEC_LINK:
            if (f->linkage)
                error_at(ctx, PTX_DIAG_DECL, sp[i]->span,
                         "only one of .extern, .visible, .weak may be given");
            if (sp[i]->val == PTX_LINK_COMMON)
                error_at(ctx, PTX_DIAG_DECL, sp[i]->span, "'.common' applies to variables only");
            f->linkage = (uint8_t)sp[i]->val;
            break;
        case PTX_SPEC_ATTR_MANAGED:
        case PTX_SPEC_ATTR_UNIFIED:
            if (entry || (sp[i]->attrs & PTX_ATTR_MANAGED))
                error_at(ctx, PTX_DIAG_DECL, sp[i]->span,
                         "a function takes only '.attribute(.unified(...))', after '.func'");
            f->attrs |= sp[i]->attrs;
            f->unified[0] = sp[i]->unified[0];
            f->unified[1] = sp[i]->unified[1];
            break;
        default: {
            char msg[PTX_DIAG_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "'%.*s' cannot precede '%s'", (int)sp[i]->span.len,
                     ctx->src + sp[i]->span.off, entry ? ".entry" : ".func");
            ptx_error_directive(ctx, PTX_DIAG_DECL, sp[i]->span, ctx->src + sp[i]->span.off, sp[i]->span.len,
                                msg);
            break;
        }
        }
    }
    check_params(ctx, f->params, f->nparams, entry ? PTX_SITE_ENTRY_PARAM : PTX_SITE_FUNC_PARAM);
    check_params(ctx, f->ret, f->nret, PTX_SITE_FUNC_PARAM);
    if (f->nret > 1)
        ptx_diag_add(ctx, PTX_SEV_WARNING, PTX_DIAG_DECL, f->ret[1]->base.span,
                     "more than one return parameter: the ABI returns only one");
    if (entry)
        check_entry_dirs(ctx, f->dirs, f->ndirs);
    else
        check_func_dirs(ctx, f->dirs, f->ndirs, f->nret > 0, ".func");
    return f;
}

ptx_node *ptx_b_func(ptx_context *ctx, ptx_func *head, ptx_node *body, ptx_loc_t loc)
{
    (void)ctx;
    head->body = (ptx_block *)body;
    head->base.span = span_of(loc);
    return &head->base;
}

ptx_node *ptx_b_callproto(ptx_context *ctx, const ptx_tok *label, size_t ret,
                          size_t params, size_t dirs, ptx_loc_t loc)
{
    ptx_callproto *p = node_new(ctx, PTX_NODE_CALLPROTO, sizeof *p, loc);
    ptx_gate(ctx, ".callprototype", span_of(loc));
    p->label = tok_name(ctx, label);
    p->dirs = take_fdirs(ctx, dirs, &p->ndirs);
    p->has_params = params != PTX_NO_LIST;
    p->params = (ptx_decl **)take(ctx, params, &p->nparams);
    p->has_ret = ret != PTX_NO_LIST;
    p->ret = (ptx_decl **)take(ctx, ret, &p->nret);
    check_params(ctx, p->params, p->nparams, PTX_SITE_PROTO_PARAM);
    check_params(ctx, p->ret, p->nret, PTX_SITE_PROTO_PARAM);
    check_func_dirs(ctx, p->dirs, p->ndirs, p->nret > 0, ".callprototype");
    return &p->base;
}

/* ---- module items ---------------------------------------------------- */

ptx_node *ptx_b_alias(ptx_context *ctx, const ptx_tok *a, const ptx_tok *b, ptx_loc_t loc)
{
    ptx_alias *n = node_new(ctx, PTX_NODE_ALIAS, sizeof *n, loc);
    ptx_gate(ctx, ".alias", span_of(loc));
    n->alias = tok_name(ctx, a);
    n->aliasee = tok_name(ctx, b);
    return &n->base;
}

ptx_node *ptx_b_file(ptx_context *ctx, const ptx_tok *index, const ptx_tok *path,
                     const ptx_tok *ts, const ptx_tok *size, ptx_loc_t loc)
{
    ptx_file *f = node_new(ctx, PTX_NODE_FILE, sizeof *f, loc);
    f->index = u32_of(ctx, index, "file index");
    f->path = ptx_intern(ctx, ctx->src + path->off + 1, path->len - 2);
    if (ts) {
        ptx_gate(ctx, ".file with timestamp and size", span_of(loc));
        f->has_info = 1;
        f->timestamp = ts->u;
        f->size = size->u;
    }
    return &f->base;
}

ptx_node *ptx_b_section(ptx_context *ctx, const ptx_tok *name, ptx_nlist body, ptx_loc_t loc)
{
    ptx_section *s = node_new(ctx, PTX_NODE_SECTION, sizeof *s, loc);
    ptx_gate(ctx, ".section", span_of(loc));
    s->name = tok_name(ctx, name);
    s->first = body.first;
    return &s->base;
}

static const char *const data_words[] = {
    ".b8", ".b16", ".b32", ".b64", ".byte", ".4byte", ".quad",
};

ptx_node *ptx_b_data(ptx_context *ctx, const ptx_tok *word, size_t values, ptx_loc_t loc)
{
    ptx_data *d = node_new(ctx, PTX_NODE_DATA, sizeof *d, loc);
    d->word = tok_name(ctx, word);
    d->values = (ptx_expr **)take(ctx, values, &d->count);
    d->nlines = 1;
    bool known = false;
    for (size_t i = 0; i < sizeof data_words / sizeof *data_words; i++)
        if (strcmp(d->word->text, data_words[i]) == 0)
            known = true;
    if (!known)
        error_at(ctx, PTX_DIAG_DIRECTIVE, tok_span(word),
                 "'%s' is not a section data directive: expected .b8, .b16, .b32, .b64, .byte, .4byte or .quad",
                 d->word->text);
    return &d->base;
}
ptx_node *ptx_b_dwarf(ptx_context *ctx, const ptx_tok *line, ptx_loc_t loc)
{
    ptx_dwarf *d = node_new(ctx, PTX_NODE_DWARF, sizeof *d, loc);
    const char *p = ctx->src + line->off + 7, *end = ctx->src + line->off + line->len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    d->text = ptx_intern(ctx, p, (size_t)(end - p));
    const ptx_module *m = ctx->module;
    if (m && m->version_major >= 2)
        error_at(ctx, PTX_DIAG_UNSUPPORTED, span_of(loc),
                 "'@@DWARF' is not supported as of PTX ISA 2.0; use '.section'");
    return &d->base;
}

/* ---- header ---------------------------------------------------------- */

/* Targets and the PTX ISA version that introduced each. */
static const struct { const char *name; uint8_t major, minor; } targets[] = {
    { "sm_10", 1, 0 }, { "sm_11", 1, 0 }, { "sm_12", 1, 2 }, { "sm_13", 1, 2 },
    { "sm_20", 2, 0 }, { "sm_21", 2, 0 }, { "sm_30", 3, 0 }, { "sm_32", 4, 0 }, { "sm_35", 3, 1 },
    { "sm_37", 4, 1 }, { "sm_50", 4, 0 }, { "sm_52", 4, 1 }, { "sm_53", 4, 2 },
    { "sm_60", 5, 0 }, { "sm_61", 5, 0 }, { "sm_62", 5, 0 }, { "sm_70", 6, 0 },
    { "sm_72", 6, 1 }, { "sm_75", 6, 3 }, { "sm_80", 7, 0 }, { "sm_86", 7, 1 },
    { "sm_87", 7, 4 }, { "sm_88", 8, 8 }, { "sm_89", 7, 8 }, { "sm_90", 7, 8 },
    { "sm_90a", 8, 0 }, { "sm_100", 8, 6 }, { "sm_100a", 8, 6 }, { "sm_100f", 8, 8 },
    { "sm_101", 8, 6 }, { "sm_101a", 8, 6 }, { "sm_101f", 8, 8 }, { "sm_103", 8, 8 },
    { "sm_103a", 8, 8 }, { "sm_103f", 8, 8 }, { "sm_110", 9, 0 }, { "sm_110a", 9, 0 },
    { "sm_110f", 9, 0 }, { "sm_120", 8, 7 }, { "sm_120a", 8, 7 }, { "sm_120f", 8, 8 },
    { "sm_121", 8, 8 }, { "sm_121a", 8, 8 }, { "sm_121f", 8, 8 },
    { "texmode_unified", 1, 5 }, { "texmode_independent", 1, 5 }, { "debug", 3, 0 },
    { "map_f64_to_f32", 1, 0 },
};

void ptx_b_version(ptx_context *ctx, const ptx_tok *t, ptx_loc_t loc)
{
    ptx_module *m = ptx_arena_zalloc(&ctx->arena, sizeof *m);
    ctx->module = m;
    m->version_span = span_of(loc);
    const char *p = ctx->src + t->off, *end = p + t->len;
    unsigned major = 0, minor = 0;
    bool ok = p < end && *p >= '0' && *p <= '9';
    while (p < end && *p >= '0' && *p <= '9' && major < 1000)
        major = major * 10 + (unsigned)(*p++ - '0');
    ok = ok && p < end && *p++ == '.' && p < end;
    const char *frac = p;
    while (p < end && *p >= '0' && *p <= '9' && minor < 1000)
        minor = minor * 10 + (unsigned)(*p++ - '0');
    ok = ok && p == end;
    /* "9.00" means 9.0: trailing zeros of the fraction do not count */
    for (const char *q = end; ok && q - frac > 1 && q[-1] == '0'; q--)
        minor /= 10;
    if (!ok) {
        error_at(ctx, PTX_DIAG_HEADER, tok_span(t),
                 "'.version' expects MAJOR.MINOR such as 9.0");
        major = 9;
        minor = 0;
    } else if (major == 0 || major > 9 || (major == 9 && minor > 1)) {
        error_at(ctx, PTX_DIAG_HEADER, tok_span(t),
                 "unsupported .version %u.%u: ptx-front reads PTX ISA 1.0 to 9.1", major, minor);
    }
    m->version_major = major;
    m->version_minor = minor;
}


/* The entry of targets[] for s ("compute_NN" is "sm_NN"), or its size. */
static size_t target_index(const char *s)
{
    char arch[32];
    if (strncmp(s, "compute_", 8) == 0 && strlen(s) < 24) {
        snprintf(arch, sizeof arch, "sm_%s", s + 8);
        s = arch;
    }
    size_t k = 0, nt = sizeof targets / sizeof *targets;
    while (k < nt && strcmp(targets[k].name, s) != 0)
        k++;
    return k;
}

bool ptx_target_is_arch(const char *name)
{
    return target_index(name) < sizeof targets / sizeof *targets &&
           strncmp(targets[target_index(name)].name, "sm_", 3) == 0;
}

void ptx_b_target_name(ptx_context *ctx, const ptx_tok *t, bool first)
{
    /* ptx_context_set_target: the module is read as if its first target
     * were that one (checked where the module's own stands) */
    const ptx_name *name = first && ctx->target[0] ? ptx_intern(ctx, ctx->target, strlen(ctx->target))
                                                    : tok_name(ctx, t);
    ptx_scratch_push(ctx, (void *)name);
    const ptx_module *m = ctx->module;
    ptx_span at = tok_span(t);
    const char *s = name->text;
    size_t k = target_index(s), nt = sizeof targets / sizeof *targets;
    if (k == nt) {
        char hint[PTX_SUGGEST_TEXT];
        ptx_suggest sg;
        ptx_suggest_init(&sg, name->text, name->len);
        sg.numbers = true;
        for (k = 0; k < nt; k++)
            ptx_suggest_offer(&sg, targets[k].name, strlen(targets[k].name));
        ptx_diag_add_fix(ctx, PTX_SEV_ERROR, PTX_DIAG_HEADER, at, ptx_suggest_fix(&sg), "unknown target '%s'%s",
                         name->text, ptx_suggest_text(&sg, hint, sizeof hint));
        return;
    }
    if (m && !version_at_least(m, targets[k].major, targets[k].minor))
        error_at(ctx, PTX_DIAG_HEADER, at,
                 "target '%s' requires PTX ISA .version %u.%u or later",
                 name->text, targets[k].major, targets[k].minor);
    if (first && strncmp(targets[k].name, "sm_", 3) != 0)
        error_at(ctx, PTX_DIAG_HEADER, at,
                 "'.target' must name an architecture (sm_NN) before its options");
}

/* What ptxas checks of the options after the architecture: map_f64_to_f32
 * only below sm_13 (which has doubles), and one texturing mode. */
static void check_target_options(ptx_context *ctx, const ptx_module *m, ptx_span at)
{
    const ptx_name *mode = NULL;
    for (uint32_t i = 0; i < m->ntargets; i++) {
        const char *s = m->targets[i]->text;
        if (!strcmp(s, "map_f64_to_f32") && ptx_module_sm(m) >= 13)
            error_at(ctx, PTX_DIAG_HEADER, at,
                     "'map_f64_to_f32' is not supported with sm_13 or higher (this module targets %s)",
                     m->targets[0]->text);
        if (!strncmp(s, "texmode_", 8)) {
            if (mode && mode != m->targets[i])
                error_at(ctx, PTX_DIAG_HEADER, at, "'%s' conflicts with '%s': one texturing mode",
                         s, mode->text);
            mode = m->targets[i];
        }
    }
}

void ptx_b_target(ptx_context *ctx, size_t names, ptx_loc_t loc)
{
    ptx_module *m = ctx->module;
    m->targets = (const ptx_name **)take(ctx, names, &m->ntargets);
    m->target_span = span_of(loc);
    check_target_options(ctx, m, m->target_span);
}

ptx_node *ptx_b_target_item(ptx_context *ctx, size_t names, ptx_loc_t loc)
{
    ptx_target *t = node_new(ctx, PTX_NODE_TARGET, sizeof *t, loc);
    t->names = (const ptx_name **)take(ctx, names, &t->count);
    return &t->base;
}

void ptx_b_address_size(ptx_context *ctx, const ptx_tok *t, ptx_loc_t loc)
{
    ptx_module *m = ctx->module;
    m->address_span = span_of(loc);
    ptx_gate(ctx, ".address_size", m->address_span);
    if (t->u != 32 && t->u != 64)
        error_at(ctx, PTX_DIAG_HEADER, tok_span(t), "'.address_size' must be 32 or 64");
    else if (t->u == 32)
        /* valid PTX, but ptxas 13.0 compiles none of it (README, "32-bit
         * modules"): an error, as for everything ptxas refuses */
        error_at(ctx, PTX_DIAG_UNSUPPORTED, tok_span(t), "%s",
                 ptx_module_sm(m) >= 90
                     ? "32-bit addressing is not supported on sm_90 or higher (ptxas: 32-Bit ABI)"
                     : "32-bit addressing: ptxas 13.0 no longer compiles 32-bit PTX");
    m->address_size = (unsigned)(t->u == 32 ? 32 : 64);
}

void ptx_b_module(ptx_context *ctx, ptx_nlist items)
{
    if (ctx->module)
        ctx->module->first = items.first;
}
