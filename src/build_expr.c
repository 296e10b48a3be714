/* The builders of expressions and operands: leaves (numbers, names,
 * sinks), operators, casts, array elements, lists, addresses, vectors,
 * initialiser fields, byte masks, generic(), label ranges.  Each node is
 * 16 bytes; a node with parts keeps them in one arena block. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ast_build.h"

/* ptxas itself gives up near 10000 levels */
enum { MAX_EXPR_DEPTH = 10000 };

_Static_assert(sizeof(ptx_expr) == 16, "an expression node is 16 bytes (include/ptx/ast.h)");
/* ptx_instr's small fields fill the room of its node header */
_Static_assert(sizeof(ptx_instr) == 32, "an instruction is 32 bytes and its operands");
_Static_assert(offsetof(ptx_instr, kind_) == offsetof(ptx_node, kind) &&
               offsetof(ptx_instr, flags) == offsetof(ptx_node, flags) &&
               offsetof(ptx_instr, span_) == offsetof(ptx_node, span) &&
               offsetof(ptx_instr, next_) == offsetof(ptx_node, next) &&
               offsetof(ptx_instr, nmods) >= offsetof(ptx_node, span) + sizeof(ptx_span) &&
               offsetof(ptx_instr, nops) + 2 <= offsetof(ptx_node, next),
               "ptx_instr's header matches ptx_node's");
_Static_assert(sizeof(ptx_leaf_value) == 8 && sizeof(((ptx_expr *)0)->u) == 8 &&
               sizeof(((ptx_expr_box *)0)->v) == 8, "a leaf's value is copied as 8 bytes");

/* ptx_expr_set_leaf's boxed leaf, out of line */
static void set_boxed_leaf(ptx_context *ctx, ptx_expr *e, ptx_span span, ptx_leaf_value v,
                           const ptx_name *sel)
{
    ptx_expr_box *b = ptx_arena_alloc(ctx->tree, sizeof *b);
    b->len = span.len;
    memcpy(&b->v, &v, sizeof v);
    b->sel = sel;
    e->x = 0;
    e->flags |= PTX_EXPR_BOXED;
    e->u.box = b;
}

/* ptx_expr_set_leaf, inlined where this file makes a leaf: an operand's
 * name or number is most of what the fast lane builds */
static inline void set_leaf(ptx_context *ctx, ptx_expr *e, ptx_expr_kind kind, uint8_t flags,
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
    set_boxed_leaf(ctx, e, span, v, sel);
}

void ptx_expr_set_leaf(ptx_context *ctx, ptx_expr *e, ptx_expr_kind kind, uint8_t flags,
                       ptx_span span, ptx_leaf_value v, const ptx_name *sel)
{
    set_leaf(ctx, e, kind, flags, span, v, sel);
}

static ptx_expr *leaf_new(ptx_context *ctx, ptx_expr_kind kind, uint8_t flags, ptx_span span,
                          ptx_leaf_value v, const ptx_name *sel)
{
    ptx_expr *e = cell_new(ctx);
    set_leaf(ctx, e, kind, flags, span, v, sel);
    return e;
}

void ptx_expr_set_parts(ptx_context *ctx, ptx_expr *e, ptx_expr_kind kind, uint8_t op,
                        ptx_span span, ptx_expr *const *parts, uint32_t n, uint32_t count)
{
    ptx_expr_more *m = ptx_arena_alloc(ctx->tree, sizeof *m + (size_t)n * sizeof(ptx_expr));
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

/* What a constant expression computes, as ptxas 13.0 types it: an
 * integer, a floating-point number (1.5, and +, -, * and / of them), or
 * not known here (names). */
enum { NUM_UNKNOWN, NUM_INT, NUM_FLOAT };

static int num_class(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT:
        return NUM_INT;
    case PTX_EXPR_FLOAT:
        return NUM_FLOAT;
    case PTX_EXPR_SYM:
        return !ptx_expr_sel(e) && ptx_name_is(ptx_expr_name(e), "WARP_SZ") ? NUM_INT : NUM_UNKNOWN;
    case PTX_EXPR_PAREN:
        return ptx_expr_count(e) == 1 ? num_class(ptx_expr_a(e)) : NUM_UNKNOWN;
    case PTX_EXPR_CAST:
        return NUM_INT;
    case PTX_EXPR_UNARY:
        return e->op == PTX_OP_NEG || e->op == PTX_OP_PLUS ? num_class(ptx_expr_a(e)) : NUM_INT;
    case PTX_EXPR_BINARY:
        if (e->op == PTX_OP_ADD || e->op == PTX_OP_SUB || e->op == PTX_OP_MUL || e->op == PTX_OP_DIV) {
            int a = num_class(ptx_expr_a(e)), b = num_class(ptx_expr_b(e));
            return a == b ? a : NUM_UNKNOWN;
        }
        return NUM_INT;
    case PTX_EXPR_COND:
        return NUM_INT;
    default:
        return NUM_UNKNOWN;
    }
}

/* ptxas: "Integer constant expression expected" for a floating-point
 * operand of an integer-only operator or of ?:, "Constant expression type
 * mismatch" for 2.0*(1+1) (measured; 1.5+1.0 and -1.5 are fine) */
static void float_operand(ptx_context *ctx, const ptx_expr *a, const char *where)
{
    if (ptx_expr_depth(a) <= 64 && num_class(a) == NUM_FLOAT)
        error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(a),
                 "%s takes integer constant expressions, not a floating-point one", where);
}

ptx_expr *ptx_b_unary(ptx_context *ctx, ptx_op op, ptx_expr *a, ptx_loc_t loc)
{
    if (op == PTX_OP_LNOT || op == PTX_OP_BNOT)
        float_operand(ctx, a, op == PTX_OP_LNOT ? "'!'" : "'~'");
    /* ptxas takes -0d..., not -0f... */
    if (!(op == PTX_OP_NEG && a->kind == PTX_EXPR_F64))
        no_bits_operand(ctx, a);
    return parts_new(ctx, PTX_EXPR_UNARY, (uint8_t)op, span_of(loc), &a, 1, 1);
}

ptx_expr *ptx_b_binary(ptx_context *ctx, ptx_op op, ptx_expr *a, ptx_expr *b)
{
    no_bits_operand(ctx, a);
    no_bits_operand(ctx, b);
    bool arith = op == PTX_OP_ADD || op == PTX_OP_SUB || op == PTX_OP_MUL || op == PTX_OP_DIV;
    bool compare = op >= PTX_OP_LT && op <= PTX_OP_NE;
    if (!arith && !compare) {
        char what[8];
        snprintf(what, sizeof what, "'%s'", ptx_op_name(op));
        float_operand(ctx, a, what);
        float_operand(ctx, b, what);
    } else if (arith && ptx_expr_depth(a) <= 64 && ptx_expr_depth(b) <= 64) {
        int ca = num_class(a), cb = num_class(b);
        /* sh+4.0: an offset from a name is an integer */
        if ((a->kind == PTX_EXPR_SYM && ca == NUM_UNKNOWN && cb == NUM_FLOAT) ||
            (b->kind == PTX_EXPR_SYM && cb == NUM_UNKNOWN && ca == NUM_FLOAT))
            error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(ca == NUM_FLOAT ? a : b),
                     "an offset from a name must be an integer constant expression");
        else if ((ca == NUM_INT && cb == NUM_FLOAT) || (ca == NUM_FLOAT && cb == NUM_INT))
            error_at(ctx, PTX_DIAG_EXPR, join(a, b),
                     "an integer and a floating-point constant cannot be combined; write both "
                     "as one kind");
    }
    ptx_expr *const parts[2] = { a, b };
    return parts_new(ctx, PTX_EXPR_BINARY, (uint8_t)op, join(a, b), parts, 2, 2);
}

ptx_expr *ptx_b_cond(ptx_context *ctx, ptx_expr *a, ptx_expr *b, ptx_expr *c)
{
    no_bits_operand(ctx, a);
    no_bits_operand(ctx, b);
    no_bits_operand(ctx, c);
    float_operand(ctx, a, "'?:'");
    float_operand(ctx, b, "'?:'");
    float_operand(ctx, c, "'?:'");
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

static bool is_base(const ptx_expr *e)
{
    return e->kind == PTX_EXPR_SYM || e->kind == PTX_EXPR_INDEX;
}

/* ptxas reads [name+E] as the name plus the whole constant expression E up
 * to the bracket (measured: [%rd2+288+4], [%rd2+1<<2] == [%rd2+4] and
 * [%rd2+1?4:8] are accepted), where the expression grammar grouped
 * (name+288)+4.  `e`'s leftmost operand is reached through the first
 * operands of binary operators and ?:; when it is `name + x`, *rest is
 * `e` with that node replaced by x (new nodes, `e` is left as it was). */
static bool split_base(ptx_context *ctx, const ptx_expr *e, ptx_expr *base, ptx_expr *rest)
{
    if (e->kind == PTX_EXPR_BINARY && is_base(ptx_expr_a(e))) {
        if (e->op != PTX_OP_ADD)
            return false;
        *base = *ptx_expr_a(e);
        *rest = *ptx_expr_b(e);
        return true;
    }
    if (e->kind != PTX_EXPR_BINARY && e->kind != PTX_EXPR_COND)
        return false;
    ptx_expr first;
    if (!split_base(ctx, ptx_expr_item(e, 0), base, &first))
        return false;
    ptx_expr parts[3];
    ptx_expr *ptrs[3];
    uint32_t n = ptx_expr_count(e);
    for (uint32_t i = 0; i < n; i++) {
        parts[i] = i ? *ptx_expr_item(e, i) : first;
        ptrs[i] = &parts[i];
    }
    ptx_span whole = ptx_expr_span(e);
    ptx_span s = { first.off, whole.off + whole.len - first.off };
    ptx_expr_set_parts(ctx, rest, (ptx_expr_kind)e->kind, e->op, s, ptrs, n, n);
    return true;
}

/* An address's one item, regrouped as ptxas reads it: name + (E). */
static void regroup_address(ptx_context *ctx, ptx_expr *a)
{
    if (ptx_expr_depth(a) > MAX_EXPR_DEPTH ||
        (a->kind == PTX_EXPR_BINARY && is_base(ptx_expr_a(a))))
        return;
    ptx_expr base, rest;
    if (!split_base(ctx, a, &base, &rest))
        return;
    ptx_expr *const parts[2] = { &base, &rest };
    ptx_expr_set_parts(ctx, a, PTX_EXPR_BINARY, PTX_OP_ADD, ptx_expr_span(a), parts, 2, 2);
}

/* What ptxas takes between brackets: [name], [name+constant], an integer
 * constant expression, [array[index]]; the sign of an offset goes into
 * the constant. */
static void check_address(ptx_context *ctx, const ptx_expr *addr)
{
    if (ptx_expr_count(addr) != 1)
        return;
    const ptx_expr *a = ptx_expr_item(addr, 0);
    if (ptx_expr_depth(a) > MAX_EXPR_DEPTH)
        return;
    if (a->kind == PTX_EXPR_SYM || a->kind == PTX_EXPR_INT || a->kind == PTX_EXPR_INDEX)
        return;
    /* [name-4+8]: ptxas has no '-' after the name, wherever the chain goes */
    const ptx_expr *left = a;
    while ((left->kind == PTX_EXPR_BINARY || left->kind == PTX_EXPR_COND) &&
           !(left->kind == PTX_EXPR_BINARY && is_base(ptx_expr_a(left))))
        left = ptx_expr_item(left, 0);
    if (left != a && left->kind == PTX_EXPR_BINARY && left->op == PTX_OP_SUB)
        a = left;
    if (a->kind == PTX_EXPR_BINARY && (ptx_expr_a(a)->kind == PTX_EXPR_SYM ||
                                       ptx_expr_a(a)->kind == PTX_EXPR_INDEX)) {
        if (a->op == PTX_OP_SUB) {
            error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(a),
                     "an address offset is added, with its sign: write [%s+-...]",
                     ptx_expr_a(a)->kind == PTX_EXPR_SYM ? ptx_expr_name(ptx_expr_a(a))->text : "...");
            return;
        }
        if (a->op == PTX_OP_ADD) {
            /* a floating-point offset was refused as the '+' was built */
            if (!is_constant(ptx_expr_b(a)) && num_class(ptx_expr_b(a)) != NUM_FLOAT)
                error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(ptx_expr_b(a)),
                         "an address offset must be an integer constant expression");
            return;
        }
    }
    /* [-4], [1+2], [4*4], [1?4:8]: ptxas takes any integer constant
     * expression as an address (asked of ptxas 13.0; [1.0] it refuses) */
    if (is_constant(a))
        return;
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
    if (kind == PTX_EXPR_ADDR) {
        if (n == 1)
            regroup_address(ctx, ptx_expr_item(e, 0));
        check_address(ctx, e);
    }
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

const ptx_expr *ptx_expr_find_field(const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_FIELD)
        return e;
    if ((e->kind == PTX_EXPR_VEC || e->kind == PTX_EXPR_LIST || e->kind == PTX_EXPR_ADDR) &&
        ptx_expr_depth(e) <= MAX_EXPR_DEPTH) {
        for (uint32_t i = 0; i < ptx_expr_count(e); i++) {
            const ptx_expr *f = ptx_expr_find_field(ptx_expr_item(e, i));
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
