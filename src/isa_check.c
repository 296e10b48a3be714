/* The instruction tables, the validator's entry: ptx_isa_check answers
 * from the memo of instructions written alike when one was accepted
 * before (isa_memo.c); else it finds the instruction's root by its opcode
 * (isa_lookup.c), answers from the memo of accepted shapes, or tries the
 * root's forms in order (isa_match.c) and answers with the first that
 * fits, with what each modifier means; when none fits, the one that came
 * closest explains the error (isa_explain.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

/* ---- the key of an instruction's shape ---------------------------------
 * Made here where the shape is judged; isa_memo.c's table keeps and finds
 * the keys. */

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

static bool memo_key_make(memo_key *k, const ptx_module *m, const ptx_isa_root *root,
                          const ptx_instr *in, const uint16_t *ids, const uint8_t *rc)
{
    if (9u + in->nmods + 2u * in->nops > MEMO_MAX_WORDS || m->version_major > 0xFFFF ||
        m->version_minor > 0xFFFF)
        return false;
    k->n = 0;
    /* the module's version and first target (its interned name) */
    key_add(k, m->version_major);
    key_add(k, m->version_minor);
    uint64_t target = (uintptr_t)(m->ntargets ? m->targets[0] : NULL);
    for (unsigned i = 0; i < 4; i++)
        key_add(k, (unsigned)(target >> 16 * i & 0xFFFF));
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

/* ---- the key of instructions written alike -----------------------------
 * What the verdict on an instruction depends on, all of it (so that an
 * answer from the memo is the answer matching would give):
 *  - the module's version and first target (ptx_isa_try_form, withdrawn),
 *    which the memo keeps once for all its entries (isa.h);
 *  - the opcode and the modifiers' names, in order, and so their ids, the
 *    vector size .vN gives, the words ptxas ignores, and the fit's family
 *    and categories: all fixed by the modifier list, which instructions
 *    written alike share and nothing writes once built (ptx/ast.h), with
 *    nmods;
 *  - nops, and for each operand what ptx_isa_try_form, operand_fault and
 *    check_parenthesised look at: its kind; a name's selector and whether
 *    it is WARP_SZ; whether a unary operator is ! on a name; whether an
 *    address could be an image's ([name, ...]); a vector's or list's
 *    size and which kinds its elements are (names, sinks, literals); a
 *    constant's value, when the opcode has forms that take some values
 *    only (root->values); and the register class sema found (rc[i]).
 * Nothing else: the answer is the form, the ids and what each modifier
 * says, and an accepted instruction has no diagnostic.  Each operand's
 * part fits 16 bits, so the key has eight operands at most; an
 * instruction with more, with an operand whose part would not fit, or
 * with modifiers of its own (not shared: a pointer no other instruction
 * has) is not asked about here.
 *
 * The key is made before the opcode is looked up, so it does not know
 * root->values: it holds the value of every literal from 0 to 255 and of
 * its negation (-1), which tells more instructions apart than the verdict
 * needs, never fewer; any other constant it holds by its kind only, and
 * an instruction with one is not remembered when its opcode has values
 * (alike_by_value).  One modifier list has one opcode, so no key of such
 * an instruction is ever in the memo. */

enum {
    ALIKE_NONE = 1u << 16,          /* no 16-bit shape */
    ALIKE_VALUE = 0x200,            /* a literal's value is in the key, */
    ALIKE_NEG = 0x100               /* negated */
};
_Static_assert(PTX_EXPR_PAIR < 16, "an operand's kind fits 4 bits");
_Static_assert(PTX_RC_OTHER < 4, "a register class fits 2 bits");

/* The kinds of elements of a vector or a list the key tells apart: a bit
 * each, ALIKE_NONE for any other. */
static inline unsigned alike_item(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM:
        return ptx_expr_sel(e) || is_warp_sz(e) ? ALIKE_NONE : 1;
    case PTX_EXPR_SINK:
        return 2;
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
        return 4;
    default:
        return ALIKE_NONE;
    }
}

/* An operand's shape: its kind (4 bits), what else the verdict reads of
 * it (10 bits) and its register class (2 bits); ALIKE_NONE when it does
 * not fit. */
static unsigned alike_operand(const ptx_expr *e, unsigned rc)
{
    unsigned kind = e->kind, more = 0;
    switch ((ptx_expr_kind)kind) {
    case PTX_EXPR_SYM: {
        /* a selector of one letter (.x): the letter */
        const ptx_name *sel = ptx_expr_sel(e);
        if (ptx_name_is(ptx_expr_name(e), "WARP_SZ") ||
            (sel && (sel->len != 2 || sel->text[0] != '.' || (unsigned char)sel->text[1] > 0x7F)))
            return ALIKE_NONE;
        more = sel ? 0x80u | (unsigned char)sel->text[1] : 0;
        break;
    }
    case PTX_EXPR_INT:
        if (ptx_expr_int(e) <= 0xFF)
            more = ALIKE_VALUE | (unsigned)ptx_expr_int(e);
        break;
    case PTX_EXPR_UNARY: {
        const ptx_expr *a = ptx_expr_a(e);
        if (e->op == PTX_OP_NEG && a->kind == PTX_EXPR_INT && ptx_expr_int(a) <= 0xFF)
            more = ALIKE_VALUE | ALIKE_NEG | (unsigned)ptx_expr_int(a);
        else
            more = e->op == PTX_OP_LNOT && is_name(a);
        break;
    }
    case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
    case PTX_EXPR_SINK: case PTX_EXPR_INDEX: case PTX_EXPR_PAIR:
    case PTX_EXPR_CAST: case PTX_EXPR_BINARY: case PTX_EXPR_COND: case PTX_EXPR_PAREN:
        /* constant expressions, by their kind alone (but see above) */
        break;
    case PTX_EXPR_ADDR:
        /* [name, ...] may be an image's address: not here */
        if (ptx_expr_count(e) == 2 && is_name(ptx_expr_a(e)))
            return ALIKE_NONE;
        break;
    case PTX_EXPR_VEC: case PTX_EXPR_LIST: {
        unsigned n = ptx_expr_count(e);
        if (n > 0x7F)
            return ALIKE_NONE;
        for (unsigned i = 0; i < n; i++)
            more |= alike_item(ptx_expr_item(e, i)) << 7;
        if (more >= ALIKE_NONE)
            return ALIKE_NONE;
        more |= n;
        break;
    }
    default:
        return ALIKE_NONE;
    }
    return kind | more << 4 | rc << 14;
}

/* The shape of an operand of the most common kinds, as alike_operand
 * gives it but for the register class: a name without a selector, an
 * address, an integer; ALIKE_NONE for any other (alike_operand tells). */
static inline unsigned alike_common(const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_SYM && !(e->flags & PTX_EXPR_BOXED))
        return ptx_name_is(e->u.name, "WARP_SZ") ? ALIKE_NONE : PTX_EXPR_SYM;
    if (e->kind == PTX_EXPR_ADDR)
        return ptx_expr_count(e) == 2 && is_name(ptx_expr_a(e)) ? ALIKE_NONE : PTX_EXPR_ADDR;
    if (e->kind == PTX_EXPR_INT && !(e->flags & PTX_EXPR_BOXED))
        return e->u.i <= 0xFF ? PTX_EXPR_INT | (ALIKE_VALUE | (unsigned)e->u.i) << 4 : PTX_EXPR_INT;
    return ALIKE_NONE;
}

/* Whether an instruction of key k may be remembered as root's: when the
 * root has values, only if the key holds the value of each constant
 * operand (a literal's; the others are not remembered). */
static bool alike_by_value(const alike_key *k, const ptx_isa_root *root, unsigned nops)
{
    for (unsigned i = 0; root->values && i < nops; i++) {
        unsigned c = k->ops.op[i], kind = c & 0xF, more = c >> 4 & 0x3FF;
        switch ((ptx_expr_kind)kind) {
        case PTX_EXPR_INT: case PTX_EXPR_UNARY:
            if (!(more & ALIKE_VALUE))
                return false;
            break;
        case PTX_EXPR_CAST: case PTX_EXPR_BINARY: case PTX_EXPR_COND: case PTX_EXPR_PAREN:
        case PTX_EXPR_LIST:
            return false;
        default:
            break;
        }
    }
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

/* ptx_isa_check, when the memo of instructions written alike has no
 * answer: the modifiers' ids, the memo of accepted shapes, the forms. */
static const ptx_isa_form *check_afresh(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                                        const ptx_isa_root *root, const uint8_t *rc,
                                        ptx_isa_fit *fit)
{
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
    bool keyed = memo_key_make(&key, m, root, in, ids, rc);
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
    /* the first form that fits, each tried up to its first problem; when
     * none does, which comes closest, each tried in full */
    for (int quick = 1; quick >= 0; quick--) {
        for (unsigned k = 0; k < root->nforms; k++) {
            const ptx_isa_form *form = &ptx_isa_forms[root->first_form + k];
            if (form->family != ignorable_family) {
                ignorable_family = form->family;
                ignorable = ptx_isa_ignorable_words(in, ids, root, form->family);
            }
            verdict v = ptx_isa_try_form(m, in, form, ids, ignorable, rc, assign, quick);
            if (v.what == P_NONE) {
                if (keyed)
                    ptx_isa_memo_add(ctx, &key, (uint16_t)(root->first_form + k), assign, in->nmods);
                return fit_form(fit, in->nmods, (uint16_t)(root->first_form + k), assign);
            }
            if (!quick && v.cost < best.cost) {
                best = v;
                best_form = form;
                memcpy(best_assign, assign, in->nmods);
            }
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
    if (best_form && (best.what == P_VERSION || best.what == P_TARGET)) {
        /* fits but for the module's level: its operands' types may tell
         * the real mistake (the semantic pass, ptx_isa_report_level) */
        fit_form(fit, in->nmods, (uint16_t)(best_form - ptx_isa_forms), best_assign);
        fit->held = best_form;
        return NULL;
    }
    if (best_form) {
        explain x = { m, root, ids, rc, assign };
        ptx_isa_report(ctx, &x, in, best_form, best);
    }
    return NULL;
}

/* The memo's answer, into the validator's. */
static inline const ptx_isa_form *alike_fit(ptx_isa_fit *fit, const alike_entry *hit)
{
    fit->family = hit->family;
    fit->ids = hit->ids;
    fit->cats = hit->cats;
    return &ptx_isa_forms[hit->form];
}

/* check_afresh, and the answer remembered under `key` (when not NULL)
 * if accepted. */
ISA_NOINLINE static const ptx_isa_form *check_remember(ptx_context *ctx, const ptx_module *m,
                                                       const ptx_instr *in, const uint8_t *rc,
                                                       ptx_isa_fit *fit, const alike_key *key)
{
    const ptx_isa_root *root = ptx_isa_root_of(ctx, ptx_instr_opcode(in));
    const ptx_isa_form *form = check_afresh(ctx, m, in, root, rc, fit);
    if (form && key && alike_by_value(key, root, in->nops))
        ptx_isa_alike_add(ctx, m, key, (uint16_t)(form - ptx_isa_forms), fit, in->nmods);
    return form;
}

/* ptx_isa_check when its quick path has no answer: the key made again,
 * each operand told by alike_operand, the memo asked, else
 * check_remember. */
ISA_NOINLINE static const ptx_isa_form *check_slow(ptx_context *ctx, const ptx_module *m,
                                                   const ptx_instr *in, const uint8_t *rc,
                                                   ptx_isa_fit *fit)
{
    if (!(in->flags & PTX_INSTR_SHARED_MODS) || in->nops > 8)
        return check_remember(ctx, m, in, rc, fit, NULL);
    alike_key key = { in->mods, (uint64_t)in->nmods << 16 | in->nops, { { 0, 0 } } };
    for (unsigned i = 0; i < in->nops; i++) {
        unsigned c = alike_operand(&in->ops[i], rc[i]);
        if (c == ALIKE_NONE)
            return check_remember(ctx, m, in, rc, fit, NULL);
        key.ops.op[i] = (uint16_t)c;
    }
    const alike_entry *hit = ptx_isa_alike_find(ctx, m, &key);
    return hit ? alike_fit(fit, hit) : check_remember(ctx, m, in, rc, fit, &key);
}

/* The quick path: the key made with alike_common, which tells the most
 * common operands, and the memo asked; check_slow does the rest. */
const ptx_isa_form *ptx_isa_check(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                                  const uint8_t *rc, ptx_isa_fit *fit)
{
    fit->held = NULL;
    if (!(in->flags & PTX_INSTR_SHARED_MODS) || in->nops > 8)
        return check_slow(ctx, m, in, rc, fit);
    alike_key key = { in->mods, (uint64_t)in->nmods << 16 | in->nops, { { 0, 0 } } };
    for (unsigned i = 0; i < in->nops; i++) {
        unsigned c = alike_common(&in->ops[i]);
        if (c == ALIKE_NONE)
            return check_slow(ctx, m, in, rc, fit);
        key.ops.op[i] = (uint16_t)(c | (unsigned)rc[i] << 14);
    }
    const alike_entry *hit = ptx_isa_alike_find(ctx, m, &key);
    return hit ? alike_fit(fit, hit) : check_slow(ctx, m, in, rc, fit);
}
