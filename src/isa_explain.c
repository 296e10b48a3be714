/* The instruction tables, explanation: when no form of an instruction's
 * root fits it, the form that came closest says what is wrong, in words
 * (an unknown, missing, repeated or misplaced modifier, with "did you
 * mean"; an operand of the wrong kind, size or value; a version or
 * target too low), written in the manual's notation (isa_text.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "isa_text.h"

/* the longest list of values a message spells out */
enum { LIST_MAX = 12 };

/* A form in the manual's notation, for messages (isa_text.c); the buffer
 * lives as long as the statement that names it. */
enum { FORM_TEXT = 512 };
static const char *form_text(const ptx_isa_form *f, char *buf)
{
    ptx_isa_form_text(f, buf, FORM_TEXT);
    return buf;
}
#define FORM(f) form_text((f), (char[FORM_TEXT]){ 0 })

/* The form's first line alone: its template without what its sets hold
 * ("ld{.weak}{.global}.v4.type"), for a message's main line */
static const char *form_head(const ptx_isa_form *f, char *buf)
{
    ptx_isa_form_text(f, buf, FORM_TEXT);
    char *semi = strstr(buf, "; ");
    if (semi)
        *semi = '\0';
    return buf;
}
#define HEAD(f) form_head((f), (char[FORM_TEXT]){ 0 })

/* About the longest main line of a message: past it, the form is given
 * by its first line and in full in a note after the message */
enum { MAIN_LINE = 160 };

/* An error whose message (fmt) ends in form f, between open and close
 * (" (form: ", ")"); fix: its fix-it, or NULL. */
#if defined(__GNUC__)
__attribute__((format(printf, 7, 8)))
#endif
static void form_diag(ptx_context *ctx, ptx_span at, const char *fix, const ptx_isa_form *f,
                      const char *open, const char *close, const char *fmt, ...)
{
    char msg[1024], full[FORM_TEXT];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ptx_isa_form_text(f, full, sizeof full);
    size_t len = strlen(msg) + strlen(open) + strlen(full) + strlen(close);
    if (len <= MAIN_LINE || !strstr(full, "; ")) {
        ptx_diag_add_fix(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at, fix, "%s%s%s%s", msg, open,
                         full, close);
        return;
    }
    /* the first line too when even that is too long: the note has it */
    const char *head = HEAD(f);
    bool fits = strlen(msg) + strlen(open) + strlen(head) + strlen(close) <= MAIN_LINE;
    if (ptx_diag_add_fix(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at, fix, "%s%s%s%s", msg,
                         fits ? open : "", fits ? head : "", fits ? close : ""))
        ptx_diag_add(ctx, PTX_SEV_NOTE, PTX_DIAG_INSTRUCTION, at, "the form: %s", full);
}

/* "add.s32" as the form would be written with the instruction's words */
static void set_values(char *buf, size_t n, const ptx_isa_slot *s)
{
    buf[0] = '\0';
    if (s->kind == PTX_SLOT_LIT || s->kind == PTX_SLOT_OPT_LIT) {
        snprintf(buf, n, "%s", ptx_isa_mod_names[s->ref]);
        return;
    }
    const ptx_isa_set *set = &ptx_isa_sets[s->ref];
    size_t used = 0;
    for (unsigned k = 0; k < set->n && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "",
                                 ptx_isa_mod_names[set->mods[k]]);
}

/* "a register or a constant": what an operand kind accepts, in words */
static void operand_words(char *buf, size_t n, unsigned acc)
{
    static const struct { unsigned bit; const char *words; } kinds[] = {
        { PTX_ACC_NAME, "a register" }, { PTX_ACC_PRED, "a predicate" },
        { PTX_ACC_IMM, "a constant" }, { PTX_ACC_ADDR, "an address [...]" },
        { PTX_ACC_IMAGE, "an address [surface, coordinates]" },
        { PTX_ACC_VEC, "a vector {...}" }, { PTX_ACC_LIST, "a list (...)" },
        { PTX_ACC_LABEL, "a label or function name" }, { PTX_ACC_PAIR, "a pair d|p" },
        { PTX_ACC_SINK, "'_'" }, { PTX_ACC_F32BITS, "a 0f constant" },
    };
    enum { NKINDS = sizeof kinds / sizeof *kinds };
    unsigned left = 0;
    for (unsigned k = 0; k < NKINDS; k++)
        left += (acc & kinds[k].bit) != 0;
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < NKINDS && used < n; k++) {
        if (!(acc & kinds[k].bit))
            continue;
        left--;
        used += (size_t)snprintf(buf + used, n - used, "%s%s",
                                 !used ? "" : left ? ", " : " or ", kinds[k].words);
    }
}

/* ---- explaining a mismatch ------------------------------------------------ */

/* modifiers gathered from several forms, each once, in order of discovery */
typedef struct mod_list {
    uint16_t ids[128];
    unsigned n;
} mod_list;

static void list_add(mod_list *l, uint16_t id)
{
    for (unsigned k = 0; k < l->n; k++)
        if (l->ids[k] == id)
            return;
    if (l->n < sizeof l->ids / sizeof *l->ids)
        l->ids[l->n++] = id;
}

/* every value a slot takes */
static void list_slot(mod_list *l, const ptx_isa_slot *s)
{
    if (s->kind == PTX_SLOT_LIT || s->kind == PTX_SLOT_OPT_LIT) {
        list_add(l, s->ref);
        return;
    }
    const ptx_isa_set *set = &ptx_isa_sets[s->ref];
    for (unsigned k = 0; k < set->n; k++)
        list_add(l, set->mods[k]);
}

/* ".a" or "one of .a, .b, .c" (the first LIST_MAX, and no more than
 * about LIST_CHARS characters, then "...") */
enum { LIST_CHARS = 100 };
static void list_words(char *buf, size_t n, const mod_list *l)
{
    size_t used = (size_t)snprintf(buf, n, "%s", l->n > 1 ? "one of " : "");
    for (unsigned k = 0; k < l->n && k <= LIST_MAX && used < n; k++) {
        bool cut = k == LIST_MAX || (k > 0 && used + strlen(ptx_isa_mod_names[l->ids[k]]) > LIST_CHARS);
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "",
                                 cut ? "..." : ptx_isa_mod_names[l->ids[k]]);
        if (cut)
            break;
    }
}

/* Does the instruction start with the form's fixed name? */
static bool name_fits(const ptx_instr *in, const ptx_isa_form *f, const uint16_t *ids)
{
    if (in->nmods < f->nname)
        return false;
    for (unsigned i = 0; i < f->nname; i++)
        if (ids[i] != f->name[i])
            return false;
    return true;
}

/* ptx_isa_try_form for another form of the instruction's root */
static verdict try_other(const explain *x, const ptx_instr *in, const ptx_isa_form *g)
{
    return ptx_isa_try_form(x->m, in, g, x->ids,
                            ptx_isa_ignorable_words(in, x->ids, x->root, g->family), x->rc,
                            x->assign, false);
}

/* The values a missing slot could take: those of the slots of its
 * category in every form as close as the closest one and missing only
 * the same kind of modifier ('suld.b.2d.b32' needs .trap, .clamp or .zero
 * though its closest form takes only .trap). */
static void missing_values(const explain *x, const ptx_instr *in, const ptx_isa_form *f,
                           verdict v, mod_list *l)
{
    const ptx_isa_slot *want = &f->slots[v.slot];
    list_slot(l, want);
    if (want->kind != PTX_SLOT_SET || want->category == PTX_CAT_OTHER)
        return;
    for (unsigned k = 0; k < x->root->nforms; k++) {
        const ptx_isa_form *g = &ptx_isa_forms[x->root->first_form + k];
        verdict w = try_other(x, in, g);
        if (w.what == P_MISSING && w.cost == v.cost &&
            g->slots[w.slot].kind == PTX_SLOT_SET && g->slots[w.slot].category == want->category)
            list_slot(l, &g->slots[w.slot]);
    }
}

/* The modifier is valid only in longer names of the instruction: mul.s32
 * is mul.lo.s32, mul.hi.s32 or mul.wide.s32 (ptxas's "Unexpected
 * instruction types" does not say so).  Says which words the name lacks,
 * with the first such name as a fix-it when the modifier follows the
 * opcode; false when no longer name takes the modifier. */
static bool name_missing(ptx_context *ctx, const explain *x, const ptx_instr *in, verdict v)
{
    uint16_t id = x->ids[v.index];
    char names[256] = "", fix[128] = "";
    const ptx_isa_form *first = NULL;
    size_t used = 0;
    unsigned n = 0;
    const char *ext[8];
    for (unsigned k = 0; k < x->root->nforms && n < 8; k++) {
        const ptx_isa_form *h = &ptx_isa_forms[x->root->first_form + k];
        if (h->nname == 0 || name_fits(in, h, x->ids))
            continue;
        /* only names none of whose words are written: the words to add */
        bool written = false, takes = false;
        for (unsigned i = 0; i < h->nname; i++)
            for (unsigned j = 0; j < in->nmods; j++)
                written |= x->ids[j] == h->name[i];
        for (unsigned s = 0; s < h->nslots; s++)
            takes |= slot_takes(&h->slots[s], id);
        if (written || !takes)
            continue;
        const char *w = ptx_isa_mod_names[h->name[0]];
        bool seen = false;
        for (unsigned i = 0; i < n; i++)
            seen |= strcmp(ext[i], w) == 0;
        if (seen || h->nname != 1)
            continue;
        ext[n++] = w;
        if (!first)
            first = h;
    }
    if (!n)
        return false;
    for (unsigned i = 0; i < n && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s'%s'",
                                 i == 0 ? "" : i + 1 == n ? " or " : ", ", ext[i]);
    const char *op = ptx_instr_opcode(in)->text, *word = in->mods[v.index].name->text;
    /* the names in full where the word follows the opcode: mul.lo.s32 */
    char full[512] = "";
    used = 0;
    for (unsigned i = 0; v.index == 0 && i < n && used < sizeof full; i++)
        used += (size_t)snprintf(full + used, sizeof full - used, "%s'%s%s%s'",
                                 i == 0 ? "; did you mean " : i + 1 == n ? " or " : ", ", op, ext[i], word);
    if (v.index == 0 && used < sizeof full)
        snprintf(full + used, sizeof full - used, "?");
    if (v.index == 0 && n == 1)
        snprintf(fix, sizeof fix, "%s%s", ext[0], word);
    form_diag(ctx, mod_span(in, v.index), fix[0] ? fix : NULL, first, " (form: ", ")",
              "'%s' with '%s' needs %s after '%s'%s", op, word, names, op, full);
    return true;
}

/* Layouts in the wrong order (mma .col.row where the form has .row.col)
 * are not misplaced words but the wrong layout for a matrix, as ptxas
 * says ("Illegal alayout"): the first layout is matrix A's, the second
 * B's.  False when the form's layouts are not fixed words. */
static bool report_layout(ptx_context *ctx, const explain *x, const ptx_instr *in, const ptx_isa_form *f)
{
    uint16_t want[4];
    unsigned nwant = 0;
    for (unsigned s = 0; s < f->nslots && nwant < 4; s++) {
        const ptx_isa_slot *sl = &f->slots[s];
        if (sl->category != PTX_CAT_LAYOUT)
            continue;
        if (sl->kind == PTX_SLOT_LIT)
            want[nwant++] = sl->ref;
        else if (sl->kind == PTX_SLOT_SET && ptx_isa_sets[sl->ref].n == 1)
            want[nwant++] = ptx_isa_sets[sl->ref].mods[0];
        else
            return false;
    }
    unsigned k = 0;
    for (unsigned i = 0; i < in->nmods && k < nwant; i++) {
        if (ptx_isa_mod_categories[x->ids[i]] != PTX_CAT_LAYOUT)
            continue;
        if (x->ids[i] != want[k]) {
            static const char *const matrix[] = { "A", "B", "C", "D" };
            form_diag(ctx, mod_span(in, i), NULL, f, " (form: ", ")",
                      "layout '%s' is not valid for matrix %s of '%s': this form takes '%s'",
                      in->mods[i].name->text, matrix[k], ptx_instr_opcode(in)->text,
                      ptx_isa_mod_names[want[k]]);
            return true;
        }
        k++;
    }
    return false;
}

/* Explains a modifier that the closest form does not take: either no form
 * of the instruction takes it (then the values of its kind that are valid
 * are listed), or it is valid with other modifiers than these (then the
 * form that takes it says what it lacks or what gets in its way). */
static void report_modifier(ptx_context *ctx, const explain *x, const ptx_instr *in,
                            const ptx_isa_form *f, verdict v)
{
    const char *op = ptx_instr_opcode(in)->text;
    const char *word = in->mods[v.index].name->text;
    uint16_t id = x->ids[v.index];
    char vals[512];
    const ptx_isa_form *g = NULL;
    verdict best = { P_NONE, 0, 0, ~0u, { 0, 0 } };
    mod_list same = { { 0 }, 0 };
    uint8_t cat = ptx_isa_mod_categories[id];
    for (unsigned k = 0; k < x->root->nforms; k++) {
        const ptx_isa_form *h = &ptx_isa_forms[x->root->first_form + k];
        if (!name_fits(in, h, x->ids))
            continue;
        bool takes = false;
        for (unsigned s = 0; s < h->nslots; s++) {
            takes |= slot_takes(&h->slots[s], id);
            if (h->slots[s].category == cat && cat != PTX_CAT_OTHER)
                list_slot(&same, &h->slots[s]);
        }
        if (!takes)
            continue;
        verdict w = try_other(x, in, h);
        if (w.cost < best.cost) {
            best = w;
            g = h;
        }
    }
    if (g && best.what == P_MISSING) {
        mod_list need = { { 0 }, 0 };
        missing_values(x, in, g, best, &need);
        list_words(vals, sizeof vals, &need);
        form_diag(ctx, mod_span(in, v.index), NULL, g, " (form: ", ")", "'%s' with '%s' needs %s%s",
                  op, word, need.n == 1 && g->slots[best.slot].kind != PTX_SLOT_SET ? "the modifier " : "",
                  vals);
        return;
    }
    if (g && best.what == P_DUPLICATE && best.index == v.index) {
        ptx_isa_report(ctx, x, in, g, best);    /* two of one set: .trap.clamp */
        return;
    }
    if (g && (best.what == P_MODIFIER || best.what == P_DUPLICATE) && best.index != v.index) {
        form_diag(ctx, mod_span(in, v.index), NULL, g, " (form: ", ")",
                  "modifier '%s' cannot be combined with '%s' in '%s'", word,
                  in->mods[best.index].name->text, op);
        return;
    }
    if (!g && name_missing(ctx, x, in, v))
        return;
    if (!g && same.n) {
        list_words(vals, sizeof vals, &same);
        form_diag(ctx, mod_span(in, v.index), NULL, f, " (closest form: ", ")",
                  "modifier '%s' is not valid in '%s': expected %s", word, op, vals);
        return;
    }
    form_diag(ctx, mod_span(in, v.index), NULL, f, " (closest form: ", ")",
              "modifier '%s' is not valid in '%s'", word, op);
}

/* "1, 2 or 4" for the sizes a vector operand takes */
static void size_words(char *buf, size_t n, const ptx_isa_operand *op, unsigned vec)
{
    if (op->vec != PTX_VEC_SIZES) {
        snprintf(buf, n, "%u", op->vec > 0 ? (unsigned)op->vec : vec);
        return;
    }
    size_t used = 0;
    unsigned left = 0;
    for (unsigned k = 0; k < 32; k++)
        left += op->sizes >> k & 1;
    buf[0] = '\0';
    for (unsigned k = 0; k < 32 && used < n; k++) {
        if (!(op->sizes >> k & 1))
            continue;
        left--;
        used += (size_t)snprintf(buf + used, n - used, "%s%u", !used ? "" : left ? ", " : " or ", k);
    }
}

/* "2", "2 or 3", "1 to 4", "1, 2 or 4": a set of operand counts */
static void count_words(char *buf, size_t n, uint32_t counts)
{
    unsigned lo = 0, hi = 31, many = 0;
    while (lo < 32 && !(counts >> lo & 1))
        lo++;
    while (hi > lo && !(counts >> hi & 1))
        hi--;
    for (unsigned k = lo; k <= hi; k++)
        many += counts >> k & 1;
    if (many > 2 && many == hi - lo + 1) {
        snprintf(buf, n, "%u to %u", lo, hi);
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned k = lo; k <= hi && used < n; k++) {
        if (!(counts >> k & 1))
            continue;
        many--;
        used += (size_t)snprintf(buf + used, n - used, "%s%u", !used ? "" : many ? ", " : " or ", k);
    }
}

static const char *item_words(unsigned items)
{
    switch (items) {
    case PTX_ACC_NAME | PTX_ACC_IMM: return "a register or a constant";
    case PTX_ACC_NAME | PTX_ACC_SINK: return "a register or '_'";
    case PTX_ACC_NAME: return "a register";
    default: return "a register, a constant or '_'";
    }
}

/* the patterns of a selector set, at most LIST_MAX of them */
static void pattern_list(char *buf, size_t n, const ptx_isa_selector *set)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned k = 0; k < set->n && k <= LIST_MAX && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "",
                                 k == LIST_MAX ? "..." : set->patterns[k]);
}

static void report_operand(ptx_context *ctx, const ptx_instr *in, const ptx_isa_operand *fo,
                           verdict v, unsigned vec)
{
    const char *op = ptx_instr_opcode(in)->text;
    const ptx_expr *e = &in->ops[v.index];
    unsigned n = v.index + 1;
    char words[512];
    switch (v.fault.what) {
    case F_VALUE: {
        const ptx_isa_vlist *l = &ptx_isa_values[fo->values - 1];
        size_t used = 0;
        for (unsigned k = 0; k < l->n && used < sizeof words; k++) {
            long long lo = l->v[k].lo, hi = l->v[k].hi, mod = l->v[k].mod;
            const char *sep = k == 0 ? "" : k + 1 == l->n ? " or " : ", ";
            int w;
            if (lo == hi)
                w = snprintf(words + used, sizeof words - used, "%s%lld", sep, lo);
            else if (!mod)
                w = snprintf(words + used, sizeof words - used, "%s%lld to %lld", sep, lo, hi);
            else if (mod < 0)
                w = snprintf(words + used, sizeof words - used, "%sa power of two from %lld to %lld",
                             sep, lo, hi);
            else if (lo == INT64_MIN)
                w = snprintf(words + used, sizeof words - used, "%sa multiple of %lld", sep, mod);
            else
                w = snprintf(words + used, sizeof words - used,
                             "%sa multiple of %lld from %lld to %lld", sep, mod, lo, hi);
            used += (size_t)(w > 0 ? w : 0);
        }
        int64_t val = 0;
        ptx_isa_const_value(e, &val);
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                     "operand %u of '%s' must be %s, not %lld", n, op, words, (long long)val);
        return;
    }
    case F_SIZE:
        size_words(words, sizeof words, fo, vec);
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                     "operand %u of '%s' must be a vector of %s element%s, found %u", n, op,
                     words, strcmp(words, "1") ? "s" : "", (unsigned)ptx_expr_count(e));
        return;
    case F_ITEM: {
        const ptx_expr *item = ptx_expr_item(e, v.fault.item);
        if (item->kind == PTX_EXPR_SYM && ptx_expr_sel(item) && e->kind == PTX_EXPR_LIST)
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(item),
                         "element %u of operand %u of '%s' cannot have a selector ('%s')",
                         v.fault.item + 1u, n, op, ptx_expr_sel(item)->text);
        else
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(item),
                         "element %u of operand %u of '%s' must be %s", v.fault.item + 1u, n,
                         op, item_words(fo->items));
        return;
    }
    case F_PRED: {
        const ptx_expr *name = e->kind == PTX_EXPR_UNARY ? ptx_expr_a(e) : e;
        if (e->kind == PTX_EXPR_PAIR)
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                         "operand %u of '%s' cannot be a predicate", n, op);
        else
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                         "operand %u of '%s' cannot be a predicate ('%s' is declared .pred)", n,
                         op, ptx_expr_name(name)->text);
        return;
    }
    case F_NOT_PRED: {
        const ptx_expr *name = e->kind == PTX_EXPR_UNARY ? ptx_expr_a(e) : e;
        if (e->kind == PTX_EXPR_PAIR) {
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                         "operand %u of '%s' must be predicates", n, op);
            return;
        }
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                     "operand %u of '%s' must be a predicate; '%s' is not declared .pred", n, op,
                     ptx_expr_name(name)->text);
        return;
    }
    case F_SELECTOR: {
        const ptx_isa_selector *set = &ptx_isa_selectors[fo->selector - 1];
        if (!set->n) {
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                         "operand %u of '%s' takes no selector ('%s')", n, op,
                         ptx_expr_sel(e)->text);
            return;
        }
        pattern_list(words, sizeof words, set);
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                     "selector '%s' is not valid on operand %u of '%s': expected %s%s",
                     ptx_expr_sel(e)->text, n, op, set->n > 1 ? "one of " : "", words);
        return;
    }
    case F_IMAGE:
        if (v.fault.item) {
            const ptx_expr *c = ptx_expr_item(ptx_expr_item(e, 1), v.fault.item - 1);
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(c),
                         "coordinate %u of operand %u of '%s' must be a register or a constant",
                         (unsigned)v.fault.item, n, op);
            return;
        }
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                     "operand %u of '%s' must be [surface, coordinates], the coordinates a "
                     "register or a vector of %s elements",
                     n, op, fo->coords <= 1 ? "1, 2 or 4" : fo->coords == 2 ? "2 or 4" : "4");
        return;
    default:
        operand_words(words, sizeof words, fo->accept);
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, ptx_expr_span(e),
                     "operand %u of '%s' must be %s", n, op, words);
        return;
    }
}

/* The instruction's name as written, its modifiers with it, cut short
 * past about 60 characters */
static const char *written_name(const ptx_instr *in, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "%s", ptx_instr_opcode(in)->text);
    for (unsigned i = 0; i < in->nmods && used < n; i++) {
        /* past 60 characters, "..." once for the rest */
        bool cut = used + in->mods[i].name->len > 60;
        used += (size_t)snprintf(buf + used, n - used, "%s", cut ? "..." : in->mods[i].name->text);
        if (cut)
            break;
    }
    return buf;
}

/* The modifiers at fault when form f needs a newer version or target
 * than the module's: those of f's that the forms of the module's level
 * fitting the most of the written modifiers do not take (.v4 and .f64 of
 * ld.global.v4.f64 at 8.0: one form there takes .v4 of 32-bit types,
 * another .f64 but no .v4), a bit each; 0 when every modifier is taken
 * by such a form, or no form of the instruction is there at all (then
 * *any is false). */
static uint64_t level_culprits(const ptx_module *m, const ptx_isa_root *root, const ptx_instr *in,
                               const uint16_t *ids, const ptx_isa_form *f, bool *any)
{
    uint64_t culprits = 0;
    unsigned fewest = ~0u;
    *any = false;
    const char *tgt = m->ntargets ? m->targets[0]->text : NULL;
    for (unsigned k = 0; k < root->nforms; k++) {
        const ptx_isa_form *g = &ptx_isa_forms[root->first_form + k];
        if (!name_fits(in, g, ids) ||
            ptx_isa_form_level(g, m->version_major, m->version_minor, tgt) != P_NONE)
            continue;
        *any = true;
        uint64_t left = 0;
        unsigned n = 0;
        for (unsigned i = g->nname; i < in->nmods && i < 64; i++) {
            bool f_takes = false, g_takes = false;
            for (unsigned sl = 0; sl < f->nslots; sl++)
                f_takes |= slot_takes(&f->slots[sl], ids[i]);
            for (unsigned sl = 0; sl < g->nslots; sl++)
                g_takes |= slot_takes(&g->slots[sl], ids[i]);
            if (f_takes && !g_takes) {
                left |= (uint64_t)1 << i;
                n++;
            }
        }
        if (n < fewest) {
            fewest = n;
            culprits = 0;
        }
        if (n == fewest)
            culprits |= left;
    }
    return culprits;
}

/* The version or target form f needs (what: P_VERSION, P_TARGET), said
 * at the modifiers at fault (level_culprits), else at the name; the form
 * in a note. */
static void report_level(ptx_context *ctx, const ptx_module *m, const ptx_isa_root *root,
                         const ptx_instr *in, const uint16_t *ids, const ptx_isa_form *f,
                         unsigned what, bool note)
{
    bool any;
    uint64_t culprits = level_culprits(m, root, in, ids, f, &any);
    if (f->nname && (culprits & (((uint64_t)1 << f->nname) - 1))) {
        /* a word of the name (fence.proxy.async): the name is newer */
        culprits = 0;
        any = false;
    }
    char name[96], words[96] = "", need[160];
    written_name(in, name, sizeof name);
    ptx_span at = { ptx_mod_offset(in, -1), ptx_instr_opcode(in)->len };
    if (culprits) {
        unsigned first = 64, last = 0;
        size_t used = 0;
        for (unsigned i = 0; i < in->nmods && i < 64; i++) {
            if (!(culprits >> i & 1))
                continue;
            /* words apart are quoted apart: '.sys' with '.b128' */
            if (used < sizeof words)
                used += (size_t)snprintf(words + used, sizeof words - used, "%s%s",
                                         first < 64 && last + 1 < i ? "' with '" : "",
                                         in->mods[i].name->text);
            if (first == 64)
                first = i;
            last = i;
        }
        at.off = ptx_mod_offset(in, first);
        at.len = ptx_mod_offset(in, last) + in->mods[last].name->len - at.off;
    } else if (!any) {
        /* the instruction is newer than the module: the caret under its name */
        if (f->nname && f->nname <= in->nmods) {
            at.len = ptx_mod_offset(in, f->nname - 1) + in->mods[f->nname - 1].name->len - at.off;
            size_t used = strlen(ptx_instr_opcode(in)->text);
            name[used] = '\0';
            for (unsigned i = 0; i < f->nname && used < sizeof name; i++)
                used += (size_t)snprintf(name + used, sizeof name - used, "%s", in->mods[i].name->text);
        }
    }
    const ptx_isa_family *fam = &ptx_isa_families[f->family];
    if (what == P_VERSION) {
        unsigned major = f->since_major ? f->since_major : fam->major;
        unsigned minor = f->since_major ? f->since_minor : fam->minor;
        snprintf(need, sizeof need, "PTX ISA .version %u.%u or later; this module is %u.%u", major,
                 minor, m->version_major, m->version_minor);
    } else {
        const char *t = PTX_ISA_STR(f->target)[0] ? PTX_ISA_STR(f->target) : fam->target;
        bool list = strchr(t, ',') != NULL;
        snprintf(need, sizeof need, ".target %s%s%s; this module targets %s", list ? "one of " : "",
                 t, list || t[strlen(t) - 1] == 'a' ? "" : " or later", m->targets[0]->text);
    }
    ptx_severity sev = note ? PTX_SEV_NOTE : PTX_SEV_ERROR;
    bool ok;
    if (culprits)
        ok = ptx_diag_add(ctx, sev, PTX_DIAG_INSTRUCTION, at, "'%s' in '%s'%s requires %s", words, name,
                          note ? " also" : "", need);
    else
        ok = ptx_diag_add(ctx, sev, PTX_DIAG_INSTRUCTION, at, "'%s'%s requires %s", name,
                          note ? " also" : "", need);
    if (ok && !note)
        ptx_diag_add(ctx, PTX_SEV_NOTE, PTX_DIAG_INSTRUCTION, at, "the form that needs it: %s", FORM(f));
}

void ptx_isa_report_level(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                          const ptx_isa_fit *fit, bool note)
{
    const ptx_isa_root *root = ptx_isa_root_of(ctx, ptx_instr_opcode(in));
    unsigned what = ptx_isa_form_level(fit->held, m->version_major, m->version_minor,
                                       m->ntargets ? m->targets[0]->text : NULL);
    report_level(ctx, m, root, in, fit->ids, fit->held, what, note);
}

void ptx_isa_suggest_type(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                          const ptx_isa_fit *fit, const uint8_t *rc, const char *type)
{
    const ptx_isa_root *root = ptx_isa_root_of(ctx, ptx_instr_opcode(in));
    uint16_t id = ptx_isa_name_id(ctx, ptx_intern(ctx, type, strlen(type)));
    unsigned t = 0;
    while (t < in->nmods && fit->cats[t] != PTX_CAT_TYPE)
        t++;
    /* one type modifier only: which of several the registers' type would
     * replace is a guess */
    for (unsigned i = t + 1; i < in->nmods; i++)
        if (fit->cats[i] == PTX_CAT_TYPE)
            return;
    if (!root || !id || t == in->nmods || in->nmods > 64 || fit->ids[t] == id)
        return;
    uint16_t ids[64];
    uint8_t assign[64];
    memcpy(ids, fit->ids, in->nmods * sizeof *ids);
    ids[t] = id;
    const char *tgt = m->ntargets ? m->targets[0]->text : NULL;
    for (unsigned k = 0; k < root->nforms; k++) {
        const ptx_isa_form *g = &ptx_isa_forms[root->first_form + k];
        if (ptx_isa_form_level(g, m->version_major, m->version_minor, tgt) != P_NONE)
            continue;
        verdict v = ptx_isa_try_form(m, in, g, ids, ptx_isa_ignorable_words(in, ids, root, g->family),
                                     rc, assign, true);
        if (v.what != P_NONE)
            continue;
        char name[96];
        size_t used = (size_t)snprintf(name, sizeof name, "%s", ptx_instr_opcode(in)->text);
        for (unsigned i = 0; i < in->nmods && used < sizeof name; i++)
            used += (size_t)snprintf(name + used, sizeof name - used, "%s",
                                     i == t ? type : in->mods[i].name->text);
        ptx_diag_add_fix(ctx, PTX_SEV_NOTE, PTX_DIAG_INSTRUCTION, mod_span(in, t), type,
                         "did you mean '%s'? the registers are %s, and that form is there at PTX ISA %u.%u%s%s",
                         used < sizeof name ? name : type, type, m->version_major, m->version_minor,
                         tgt ? " for " : "", tgt ? tgt : "");
        return;
    }
}

void ptx_isa_report(ptx_context *ctx, const explain *x, const ptx_instr *in,
                    const ptx_isa_form *f, verdict v)
{
    const ptx_module *m = x->m;
    const char *op = ptx_instr_opcode(in)->text;
    char vals[512];
    ptx_span at = in->base.span;
    switch (v.what) {
    case P_NONE:
        return;
    case P_NAME: {
        /* no form's name matched: say which instruction names exist */
        ptx_span s = v.index < in->nmods ? mod_span(in, v.index) : at;
        form_diag(ctx, s, NULL, f, " ", "", "'%s%s' is not an instruction: '%s' continues with", op,
                  v.index < in->nmods ? in->mods[v.index].name->text : "", op);
        return;
    }
    case P_MODIFIER:
        report_modifier(ctx, x, in, f, v);
        return;
    case P_DUPLICATE:
        /* .row.row: matrix B's layout is wrong, not a word repeated */
        if (ptx_isa_mod_categories[x->ids[v.index]] == PTX_CAT_LAYOUT && report_layout(ctx, x, in, f))
            return;
        for (unsigned i = 0; i < v.index; i++) {
            if (in->mods[i].name == in->mods[v.index].name) {
                ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                             "modifier '%s' appears twice in '%s'", in->mods[i].name->text, op);
                return;
            }
        }
        set_values(vals, sizeof vals, &f->slots[v.slot]);
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                     "'%s' takes one modifier of {%s}; '%s' is one too many",
                     op, vals, in->mods[v.index].name->text);
        return;
    case P_ORDER:
        if (v.slot == PTX_CAT_LAYOUT && report_layout(ctx, x, in, f))
            return;
        form_diag(ctx, mod_span(in, v.index), NULL, f, " (", ")",
                  "%s '%s' is out of place in '%s': the %ss follow the order of the form",
                  ptx_isa_category_names[v.slot], in->mods[v.index].name->text, op,
                  ptx_isa_category_names[v.slot]);
        return;
    case P_MISSING: {
        mod_list need = { { 0 }, 0 };
        missing_values(x, in, f, v, &need);
        list_words(vals, sizeof vals, &need);
        form_diag(ctx, at, NULL, f, " (form: ", ")", "'%s' needs %s%s", op,
                  need.n == 1 && f->slots[v.slot].kind != PTX_SLOT_SET ? "the modifier " : "", vals);
        return;
    }
    case P_OPERAND_COUNT: {
        /* the counts of every form that fits the modifiers as well as the
         * closest one does: 'call' takes 1 to 4 operands */
        uint32_t counts = 0;
        for (unsigned k = 0; k < x->root->nforms; k++) {
            const ptx_isa_form *g = &ptx_isa_forms[x->root->first_form + k];
            verdict w = g == f ? v : try_other(x, in, g);
            if (w.what != P_OPERAND_COUNT || w.cost != v.cost)
                continue;
            unsigned required = 0;
            while (required < g->nops && !g->ops[required].optional)
                required++;
            for (unsigned n = required; n <= g->nops && n < 32; n++)
                counts |= 1u << n;
        }
        count_words(vals, sizeof vals, counts);
        form_diag(ctx, at, NULL, f, " (form: ", ")", "'%s' takes %s operand%s, found %u", op, vals,
                  counts == 2 ? "" : "s", in->nops);
        return;
    }
    case P_OPERAND:
        report_operand(ctx, in, &f->ops[v.index], v, ptx_isa_vector_size(in, f));
        return;
    case P_VERSION: case P_TARGET:
        report_level(ctx, m, x->root, in, x->ids, f, v.what, false);
        return;
    case P_WITHDRAWN:
        if (f->gone_major && PTX_ISA_STR(f->gone_target)[0])
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported on .target %s and later from PTX ISA %u.%u; this module is %u.%u for %s",
                         op, HEAD(f), PTX_ISA_STR(f->gone_target), f->gone_major, f->gone_minor,
                         m->version_major, m->version_minor, m->targets[0]->text);
        else if (PTX_ISA_STR(f->gone_target)[0])
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported on .target %s and later; this module targets %s",
                         op, HEAD(f), PTX_ISA_STR(f->gone_target), m->targets[0]->text);
        else
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported from PTX ISA %u.%u; this module is %u.%u",
                         op, HEAD(f), f->gone_major, f->gone_minor, m->version_major,
                         m->version_minor);
        return;
    }
}
