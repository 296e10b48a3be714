/* The instruction tables, the validator's entry: ptx_isa_check finds an
 * instruction's root by its opcode (isa_lookup.c), answers from the memo
 * when the shape was accepted before (isa_memo.c), else tries the root's
 * forms in order (isa_match.c) and answers with the first that fits, with
 * what each modifier means; when none fits, the one that came closest
 * explains the error (isa_explain.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

/* ---- the key of an instruction's shape ---------------------------------
 * Made for every instruction, so made here where it is used (a call to
 * another file for it cost 1.3% of a whole run); isa_memo.c's table keeps
 * and finds the keys. */

/* The kind of an element of a vector or a list, as item_ok, bf16_braces
 * and the (1) rule of operand_fault tell them apart: a bit of a mask. */
static unsigned item_bit(const ptx_expr *e)
{
    enum { NAME, NAME_SEL, WARP_SZ, WARP_SZ_SEL, SINK, PURE, CONSTANT, OTHER };
    unsigned c;
    if (e->kind == PTX_EXPR_SYM)
        c = (is_constant_expr(e) ? WARP_SZ : NAME) + (ptx_expr_sel(e) != NULL);
    else if (e->kind == PTX_EXPR_SINK)
        c = SINK;
    else
        c = is_pure_constant(e) ? PURE : is_constant_expr(e) ? CONSTANT : OTHER;
    return 1u << c;
}

static bool key_add(memo_key *k, unsigned word)
{
    if (k->n == MEMO_MAX_WORDS)
        return false;
    k->w[k->n++] = (uint16_t)word;
    return true;
}

/* Appends an operand's class to the key; false when it has none. */
static bool operand_key(memo_key *k, const ptx_expr *e)
{
    unsigned c = e->kind;
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_VEC: case PTX_EXPR_LIST: {
        /* a vector's size; a list's only matters for (1) */
        if (ptx_expr_count(e) > 0x7FF)
            return false;
        unsigned items = 0;
        for (unsigned i = 0; i < ptx_expr_count(e); i++)
            items |= item_bit(ptx_expr_item(e, i));
        return key_add(k, c | items << 5) && key_add(k, ptx_expr_count(e));
    }
    case PTX_EXPR_ADDR:
        /* an image address: for which fewest coordinates it is one */
        for (unsigned coords = 1; coords <= 4; coords++)
            c |= (unsigned)(ptx_isa_image_fault(e, coords).what == F_OK) << (4 + coords);
        return key_add(k, c);
    case PTX_EXPR_UNARY:
        return key_add(k, c | (e->op == PTX_OP_LNOT && is_name(ptx_expr_a(e))) << 5);
    case PTX_EXPR_SYM: {
        /* the selector itself, two characters a word */
        const ptx_name *sel = ptx_expr_sel(e);
        size_t len = sel ? sel->len : 0;
        if (len > 0xFF || !key_add(k, c | is_constant_expr(e) << 5 | len << 8))
            return false;
        for (size_t i = 0; i < len; i += 2)
            if (!key_add(k, (unsigned char)sel->text[i] |
                                (i + 1 < len ? (unsigned char)sel->text[i + 1] : 0u) << 8))
                return false;
        return true;
    }
    default:
        return key_add(k, c);
    }
}

static bool memo_key_make(memo_key *k, const ptx_isa_root *root, const ptx_instr *in,
                          const uint16_t *ids, const uint8_t *rc)
{
    if (3u + in->nmods + 2u * in->nops > MEMO_MAX_WORDS)
        return false;
    k->n = 0;
    key_add(k, (unsigned)(root - ptx_isa_roots));
    key_add(k, in->nmods);
    for (unsigned i = 0; i < in->nmods; i++)
        key_add(k, ids[i]);
    key_add(k, in->nops);
    for (unsigned i = 0; i < in->nops; i++) {
        /* where a form takes some values only, a constant's value counts;
         * outside 0..0xFFFE the instruction is not memoised */
        int64_t v;
        if (root->values && ptx_isa_const_value(&in->ops[i], &v) &&
            (v < 0 || v >= 0xFFFF || !key_add(k, 0xFFFF) || !key_add(k, (unsigned)v)))
            return false;
        if (!operand_key(k, &in->ops[i]) || !key_add(k, rc[i]))
            return false;
    }
    /* four words at a time: a word-by-word multiply chain showed in
     * profiles */
    for (unsigned i = k->n; i % 4; i++)
        k->w[i] = 0;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ k->n;
    for (unsigned i = 0; i < k->n; i += 4) {
        uint64_t w;
        memcpy(&w, &k->w[i], 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    k->hash = (uint32_t)(h ^ (h >> 32));
    return true;
}

_Static_assert(PTX_FAMILY_COUNT <= 256, "a family fits ptx_instr's byte");

static uint8_t category_of(const ptx_isa_form *form, const uint8_t *assign, unsigned i)
{
    return i < form->nname || assign[i] == SLOT_IGNORED ? PTX_CAT_NONE
                                                        : form->slots[assign[i]].category;
}

/* The form that fits, into the validator's answer: the family, and what
 * each modifier says (its id is there already). */
static const ptx_isa_form *fit_form(ptx_isa_fit *fit, unsigned nmods, uint16_t index, const uint8_t *assign)
{
    const ptx_isa_form *form = &ptx_isa_forms[index];
    fit->family = (uint8_t)form->family;
    for (unsigned i = 0; i < nmods; i++)
        fit->cats[i] = category_of(form, assign, i);
    return form;
}

/* While the tables are being written, an opcode they do not know yet is
 * let through; once all 173 families are in, it is an error. */
enum { ALL_FAMILIES = 173 };

/* The first name inside a constant-looking expression, or NULL. */
static const ptx_expr *first_name(const ptx_expr *e)
{
    if (!e)
        return NULL;
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM:
        return ptx_name_is(ptx_expr_name(e), "WARP_SZ") ? NULL : e;
    case PTX_EXPR_UNARY: case PTX_EXPR_PAREN: case PTX_EXPR_CAST:
        return first_name(ptx_expr_a(e));
    case PTX_EXPR_BINARY: {
        const ptx_expr *a = first_name(ptx_expr_a(e));
        return a ? a : first_name(ptx_expr_b(e));
    }
    case PTX_EXPR_COND:
        for (unsigned i = 0; i < 3; i++) {
            const ptx_expr *a = first_name(ptx_expr_item(e, i));
            if (a)
                return a;
        }
        return NULL;
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
        return NULL;
    default:
        return e;
    }
}

static bool root_takes_lists(const ptx_isa_root *root)
{
    for (unsigned k = 0; root && k < root->nforms; k++) {
        const ptx_isa_form *f = &ptx_isa_forms[root->first_form + k];
        for (unsigned i = 0; i < f->nops; i++)
            if (f->ops[i].accept & PTX_ACC_LIST)
                return true;
    }
    return false;
}

/* Outside call, ptxas reads an operand in parentheses as a constant
 * expression: a name inside is its parse error, found before it looks
 * the opcode up (a misspelt call head spread over several lines fails on
 * the line of its first argument name). */
static bool check_parenthesised(ptx_context *ctx, const ptx_instr *in, const ptx_isa_root *root)
{
    for (unsigned i = 0; i < in->nops; i++) {
        const ptx_expr *e = &in->ops[i];
        if (e->kind != PTX_EXPR_LIST)
            continue;
        if (root_takes_lists(root))
            return true;
        for (unsigned k = 0; k < ptx_expr_count(e); k++) {
            const ptx_expr *name = first_name(ptx_expr_item(e, k));
            if (name) {
                ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(name),
                             "a name in parentheses: only 'call' takes a list (...) of names; "
                             "elsewhere (...) holds a constant expression");
                return false;
            }
        }
        if (ptx_expr_count(e) != 1) {
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                         "only 'call' takes a list (...); elsewhere (...) holds one constant expression");
            return false;
        }
    }
    return true;
}

const ptx_isa_form *ptx_isa_check(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                                  const uint8_t *rc, ptx_isa_fit *fit)
{
    const ptx_isa_root *root = ptx_isa_root_of(ctx, ptx_instr_opcode(in));
    if (!root && PTX_FAMILY_COUNT - 1 < ALL_FAMILIES)
        return NULL;
    if (!check_parenthesised(ctx, in, root))
        return NULL;
    char hint[PTX_SUGGEST_TEXT];
    ptx_suggest sg;
    if (!root) {
        const ptx_name *op = ptx_instr_opcode(in);
        ptx_span s = { ptx_mod_offset(in, -1), op->len };
        ptx_suggest_init(&sg, op->text, op->len);
        for (unsigned k = 0; k < ptx_isa_nroots; k++)
            ptx_suggest_offer(&sg, ptx_isa_roots[k].name, strlen(ptx_isa_roots[k].name));
        ptx_diag_add_fix(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, s, ptx_suggest_fix(&sg),
                         "unknown instruction '%s'%s", op->text, ptx_suggest_text(&sg, hint, sizeof hint));
        return NULL;
    }
    if (in->nmods > PTX_ISA_FIT_SMALL) {
        fit->ids = ptx_arena_alloc(&ctx->arena, in->nmods * sizeof *fit->ids);
        fit->cats = ptx_arena_alloc(&ctx->arena, in->nmods);
    } else {
        fit->ids = fit->ids_small;
        fit->cats = fit->cats_small;
    }
    uint16_t *ids = fit->ids;
    for (unsigned i = 0; i < in->nmods; i++) {
        ids[i] = ptx_isa_name_id(ctx, in->mods[i].name);
        if (!ids[i]) {
            /* the words the tables allow after this opcode, any category */
            const ptx_name *w = in->mods[i].name;
            ptx_modifier known[PTX_MOD_COUNT];
            ptx_suggest_init(&sg, w->text, w->len);
            for (unsigned c = 0; c < PTX_CAT_COUNT; c++) {
                size_t n = ptx_opcode_modifiers(root->name, (ptx_mod_category)c, known, PTX_MOD_COUNT);
                for (size_t k = 0; k < n; k++)
                    ptx_suggest_offer(&sg, ptx_isa_mod_names[known[k]], strlen(ptx_isa_mod_names[known[k]]));
            }
            ptx_diag_add_fix(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, i), ptx_suggest_fix(&sg),
                             "unknown modifier '%s' for '%s'%s", w->text, ptx_instr_opcode(in)->text,
                             ptx_suggest_text(&sg, hint, sizeof hint));
            return NULL;
        }
    }
    memo_key key;
    bool keyed = memo_key_make(&key, root, in, ids, rc);
    const memo_entry *hit = keyed ? ptx_isa_memo_find(ctx, &key) : NULL;
    if (hit) {
        return fit_form(fit, in->nmods, hit->form, hit->assign);
    }
    uint64_t ignorable = 0;
    unsigned ignorable_family = 0;
    uint8_t assign_small[64], best_assign_small[64];
    uint8_t *assign = in->nmods <= 64 ? assign_small : ptx_arena_alloc(&ctx->arena, in->nmods);
    uint8_t *best_assign = in->nmods <= 64 ? best_assign_small : ptx_arena_alloc(&ctx->arena, in->nmods);
    verdict best = { P_NONE, 0, 0, ~0u, { 0, 0 } };
    const ptx_isa_form *best_form = NULL;
    for (unsigned k = 0; k < root->nforms; k++) {
        const ptx_isa_form *form = &ptx_isa_forms[root->first_form + k];
        if (form->family != ignorable_family) {
            ignorable_family = form->family;
            ignorable = ptx_isa_ignorable_words(in, ids, root, form->family);
        }
        verdict v = ptx_isa_try_form(m, in, form, ids, ignorable, rc, assign);
        if (v.what == P_NONE) {
            if (keyed)
                ptx_isa_memo_add(ctx, &key, (uint16_t)(root->first_form + k), assign, in->nmods);
            return fit_form(fit, in->nmods, (uint16_t)(root->first_form + k), assign);
        }
        if (v.cost < best.cost) {
            best = v;
            best_form = form;
            memcpy(best_assign, assign, in->nmods);
        }
    }
    /* a word of an instruction name written out of place (mul.s32.wide):
     * say where it belongs rather than what the nearest form wants; not
     * when the instruction starts with a whole name of its own
     * (cp.reduce.async.bulk is not a misplaced cp.async) */
    bool named = false;
    for (unsigned k = 0; k < root->nforms && !named; k++) {
        const ptx_isa_form *form = &ptx_isa_forms[root->first_form + k];
        named = form->nname && form->nname <= in->nmods;
        for (unsigned j = 0; named && j < form->nname; j++)
            named = ids[j] == form->name[j];
    }
    for (unsigned k = 0; k < root->nforms && !named && best.what != P_VERSION &&
                         best.what != P_TARGET && best.what != P_WITHDRAWN; k++) {
        const ptx_isa_form *form = &ptx_isa_forms[root->first_form + k];
        for (unsigned i = 1; form->nname && i < in->nmods; i++) {
            if (ids[i] == form->name[0] && ids[0] != form->name[0]) {
                ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, i),
                             "'%s' is part of the instruction name: write '%s%s' before the other modifiers",
                             in->mods[i].name->text, ptx_instr_opcode(in)->text, in->mods[i].name->text);
                return NULL;
            }
        }
    }
    if (best_form) {
        explain x = { m, root, ids, rc, assign };
        ptx_isa_report(ctx, &x, in, best_form, best);
    }
    return NULL;
}
