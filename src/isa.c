/* Instruction validation against the generated syntax tables: finds the
 * family by opcode, then the first form whose name, modifiers, operands,
 * PTX ISA version and target all fit, and records what each modifier
 * means.  When none fits, the form that came closest explains the error. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "isa_tables.h"
#include "isa_text.h"

/* ---- lookups ---------------------------------------------------------- */

static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

static int cmp_family(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const ptx_isa_family *)elem)->name);
}

static int cmp_root(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const ptx_isa_root *)elem)->name);
}

/* The index + 1 of the root named `opcode` in the tables, 0 when none. */
static uint16_t find_root(const char *opcode)
{
    const ptx_isa_root *hit = bsearch(opcode, ptx_isa_roots, ptx_isa_nroots,
                                      sizeof *ptx_isa_roots, cmp_root);
    return hit ? (uint16_t)(hit - ptx_isa_roots + 1) : 0;
}

/* The modifier id of a dot-word: 0 when no table knows it. */
static uint16_t find_mod(const char *word)
{
    const char *const *hit = bsearch(word, ptx_isa_mod_names + 1, PTX_MOD_COUNT - 1,
                                     sizeof *ptx_isa_mod_names, cmp_name);
    return hit ? (uint16_t)(hit - ptx_isa_mod_names) : 0;
}

/* What the tables say of each name the validator has looked up: for an
 * opcode, find_root's answer; for a dot-word, find_mod's (an opcode never
 * starts with a dot, a modifier always does, so one table serves both).
 * The validator's own table, kept in the context and keyed by the
 * interned name (one per spelling, its hash already computed), so that
 * each distinct name is searched for once. */
typedef struct isa_name_slot {
    const ptx_name *name;     /* NULL: empty */
    uint16_t id;
} isa_name_slot;

struct ptx_isa_names {
    isa_name_slot *slots;
    size_t mask, count;
};

static uint16_t name_id_slow(ptx_context *ctx, const ptx_name *n)
{
    struct ptx_isa_names *t = ctx->isa_names;
    if (!t)
        t = ctx->isa_names = ptx_arena_zalloc(&ctx->arena, sizeof *t);
    if (!t->slots || (t->count + 1) * 2 > t->mask + 1) {
        size_t cap = t->slots ? (t->mask + 1) * 2 : 256;
        isa_name_slot *slots = ptx_arena_zalloc(&ctx->arena, cap * sizeof *slots);
        for (size_t i = 0; t->slots && i <= t->mask; i++) {
            if (!t->slots[i].name)
                continue;
            size_t j = t->slots[i].name->hash & (cap - 1);
            while (slots[j].name)
                j = (j + 1) & (cap - 1);
            slots[j] = t->slots[i];
        }
        t->slots = slots;
        t->mask = cap - 1;
    }
    uint16_t id = n->text[0] == '.' ? find_mod(n->text) : find_root(n->text);
    size_t i = n->hash & t->mask;
    while (t->slots[i].name)
        i = (i + 1) & t->mask;
    t->slots[i] = (isa_name_slot){ n, id };
    t->count++;
    return id;
}

static inline uint16_t name_id(ptx_context *ctx, const ptx_name *n)
{
    const struct ptx_isa_names *t = ctx->isa_names;
    if (t)
        for (size_t i = n->hash & t->mask; t->slots[i].name; i = (i + 1) & t->mask)
            if (t->slots[i].name == n)
                return t->slots[i].id;
    return name_id_slow(ctx, n);
}

static const ptx_isa_root *root_of(ptx_context *ctx, const ptx_name *opcode)
{
    uint16_t id = name_id(ctx, opcode);
    return id ? &ptx_isa_roots[id - 1] : NULL;
}

bool ptx_isa_knows(const ptx_name *opcode)
{
    return find_root(opcode->text) != 0;
}

ptx_family ptx_family_lookup(const char *opcode)
{
    const ptx_isa_family *hit = bsearch(opcode, ptx_isa_families + 1, PTX_FAMILY_COUNT - 1,
                                        sizeof *ptx_isa_families, cmp_family);
    return hit ? (ptx_family)(hit - ptx_isa_families) : PTX_FAMILY_NONE;
}

const char *ptx_family_name(ptx_family f)
{
    return (unsigned)f < PTX_FAMILY_COUNT && f ? ptx_isa_families[f].name : NULL;
}

const char *ptx_modifier_name(ptx_modifier m)
{
    return (unsigned)m < PTX_MOD_COUNT && m ? ptx_isa_mod_names[m] : NULL;
}

const char *ptx_category_name(ptx_mod_category c)
{
    return (unsigned)c < PTX_CAT_COUNT && c ? ptx_isa_category_names[c] : NULL;
}

ptx_modifier ptx_instr_modifier(const ptx_instr *in, ptx_mod_category cat, unsigned nth)
{
    for (unsigned i = 0; i < in->nmods; i++)
        if (in->mods[i].category == cat && nth-- == 0)
            return (ptx_modifier)in->mods[i].id;
    return PTX_MOD_NONE;
}

static void note_modifier(bool *seen, uint16_t id, ptx_modifier *out, size_t max, size_t *n)
{
    if (seen[id])
        return;
    seen[id] = true;
    if (*n < max)
        out[*n] = (ptx_modifier)id;
    ++*n;
}

size_t ptx_opcode_modifiers(const char *opcode, ptx_mod_category cat,
                            ptx_modifier *out, size_t max)
{
    const ptx_isa_root *root = opcode ? bsearch(opcode, ptx_isa_roots, ptx_isa_nroots,
                                                sizeof *ptx_isa_roots, cmp_root) : NULL;
    if (!root)
        return 0;
    bool seen[PTX_MOD_COUNT] = { false };
    size_t n = 0;
    for (unsigned k = 0; k < root->nforms; k++) {
        const ptx_isa_form *f = &ptx_isa_forms[root->first_form + k];
        for (unsigned i = 0; cat == PTX_CAT_NONE && i < f->nname; i++)
            note_modifier(seen, f->name[i], out, max, &n);
        for (unsigned s = 0; cat != PTX_CAT_NONE && s < f->nslots; s++) {
            const ptx_isa_slot *sl = &f->slots[s];
            if (sl->category != cat)
                continue;
            if (sl->kind == PTX_SLOT_LIT || sl->kind == PTX_SLOT_OPT_LIT) {
                note_modifier(seen, sl->ref, out, max, &n);
                continue;
            }
            const ptx_isa_set *set = &ptx_isa_sets[sl->ref];
            for (unsigned j = 0; j < set->n; j++)
                note_modifier(seen, set->mods[j], out, max, &n);
        }
    }
    return n;
}

/* ---- targets ----------------------------------------------------------- */

typedef struct target {
    unsigned arch;      /* 90 for sm_90a */
    char suffix;        /* 'a', 'f' or 0 */
} target;

static target parse_target(const char *s)
{
    target t = { 0, 0 };
    if (strncmp(s, "sm_", 3) == 0)
        s += 3;
    else if (strncmp(s, "compute_", 8) == 0)
        s += 8;
    else
        return t;
    while (*s >= '0' && *s <= '9')
        t.arch = t.arch * 10 + (unsigned)(*s++ - '0');
    if (*s == 'a' || *s == 'f')
        t.suffix = *s;
    return t;
}

/* sm_10x = {100, 103}, sm_11x = {110, 101}, sm_12x = {120, 121} */
static unsigned arch_family(unsigned arch)
{
    return arch == 101 ? 11 : arch / 10;
}

/* Does the module's target `have` provide what `need` asks? */
static bool target_ok(target have, target need)
{
    if (!need.arch)
        return true;
    if (need.suffix == 'a')
        return have.arch == need.arch && have.suffix == 'a';
    if (need.suffix == 'f')
        return have.suffix && arch_family(have.arch) == arch_family(need.arch) &&
               have.arch >= need.arch;
    return have.arch >= need.arch;
}

/* ---- matching ---------------------------------------------------------- */

/* the longest list of values a message spells out */
enum { LIST_MAX = 12 };

typedef enum problem {
    P_NONE, P_NAME, P_MODIFIER, P_DUPLICATE, P_ORDER, P_MISSING, P_OPERAND_COUNT, P_OPERAND,
    P_VERSION, P_TARGET, P_WITHDRAWN
} problem;

typedef struct verdict {
    problem what;
    unsigned index;         /* the modifier or operand concerned */
    unsigned slot;          /* P_MISSING, P_DUPLICATE: the slot; P_ORDER: the category */
    unsigned cost;          /* how far the form is from the instruction */
    struct fault {          /* P_OPERAND: what is wrong with the operand */
        uint8_t what;       /* F_* */
        uint8_t item;       /* F_ITEM, F_IMAGE_*: which element (0-based) */
    } fault;
} verdict;

/* what is wrong with an operand */
enum {
    F_OK,
    F_KIND,                 /* not one of the kinds the form takes */
    F_SIZE,                 /* a vector with the wrong number of elements */
    F_ITEM,                 /* an element of a list or vector */
    F_SELECTOR,             /* a selector the operand does not take */
    F_IMAGE,                /* not [handle, coordinates] as an image address */
    F_NOT_PRED,             /* a register declared with another type than .pred */
    F_PRED,                 /* a predicate where the form takes no predicate */
    F_VALUE                 /* a constant of a value the form does not take */
};

/* A form in the manual's notation, for messages (isa_text.c); the buffer
 * lives as long as the statement that names it. */
enum { FORM_TEXT = 512 };
static const char *form_text(const ptx_isa_form *f, char *buf)
{
    ptx_isa_form_text(f, buf, FORM_TEXT);
    return buf;
}
#define FORM(f) form_text((f), (char[FORM_TEXT]){ 0 })

static bool slot_takes(const ptx_isa_slot *s, uint16_t id)
{
    if (s->kind == PTX_SLOT_LIT || s->kind == PTX_SLOT_OPT_LIT)
        return s->ref == id;
    const ptx_isa_set *set = &ptx_isa_sets[s->ref];
    for (unsigned k = 0; k < set->n; k++)
        if (set->mods[k] == id)
            return true;
    return false;
}

static unsigned vector_size(const ptx_instr *in, const ptx_isa_form *f)
{
    for (unsigned i = f->nname; i < in->nmods; i++) {
        const char *t = in->mods[i].name->text;
        if (t[0] == '.' && t[1] == 'v' && t[2] >= '1' && t[2] <= '9' && !t[3])
            return (unsigned)(t[2] - '0');
    }
    return 1;
}

static bool is_name(const ptx_expr *e)
{
    return e->kind == PTX_EXPR_SYM;
}

/* WARP_SZ, without a selector: a constant (32) */
static bool is_warp_sz(const ptx_expr *e)
{
    return e->kind == PTX_EXPR_SYM && !ptx_expr_sel(e) && ptx_name_is(ptx_expr_name(e), "WARP_SZ");
}

static bool is_constant_expr(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
    case PTX_EXPR_UNARY: case PTX_EXPR_BINARY: case PTX_EXPR_COND: case PTX_EXPR_CAST:
    case PTX_EXPR_PAREN:
        return true;
    case PTX_EXPR_SYM:
        return ptx_name_is(ptx_expr_name(e), "WARP_SZ");
    default:
        return false;
    }
}

/* A constant expression with no name in it: what ptxas takes inside a
 * vector or a call's argument list ({1+1, r} but not {r+1, r}). */
static bool is_pure_constant(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
        return true;
    case PTX_EXPR_SYM:
        return is_warp_sz(e);
    case PTX_EXPR_UNARY: case PTX_EXPR_PAREN: case PTX_EXPR_CAST:
        return is_pure_constant(ptx_expr_a(e));
    case PTX_EXPR_BINARY:
        return is_pure_constant(ptx_expr_a(e)) && is_pure_constant(ptx_expr_b(e));
    case PTX_EXPR_COND:
        for (unsigned i = 0; i < ptx_expr_count(e); i++)
            if (!is_pure_constant(ptx_expr_item(e, i)))
                return false;
        return true;
    default:
        return false;
    }
}

/* An element of a vector or list.  `items` is what the table allows
 * (PTX_ACC_NAME, _IMM, _SINK); 0 is the vector default: a name, with or
 * without a selector, the sink or a constant.  Names in a list take no
 * selector (ptxas: call (r), f, (%tid.x) is a syntax error). */
static bool item_ok(const ptx_expr *e, unsigned items, bool list)
{
    if (!items)
        items = PTX_ACC_NAME | PTX_ACC_IMM | PTX_ACC_SINK;
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM:
        if (is_warp_sz(e))
            return items & PTX_ACC_IMM;
        return (items & PTX_ACC_NAME) && !(list && ptx_expr_sel(e));
    case PTX_EXPR_SINK:
        return items & PTX_ACC_SINK;
    default:
        return (items & PTX_ACC_IMM) && is_pure_constant(e);
    }
}

/* Does `sel` (".b3210") fit `pat` (".b[0-7][0-7][0-7][0-7]")? */
static bool pattern_match(const char *pat, const char *sel)
{
    for (; *pat; sel++) {
        if (!*sel)
            return false;
        if (*pat == '[') {
            if (*sel < pat[1] || *sel > pat[3])
                return false;
            pat += 5;
        } else if (*pat++ != *sel) {
            return false;
        }
    }
    return !*sel;
}

static bool selector_ok(const ptx_isa_selector *set, const char *sel)
{
    for (unsigned k = 0; k < set->n; k++)
        if (pattern_match(set->patterns[k], sel))
            return true;
    return false;
}

/* [handle, coordinates]: a name, then a name or a vector of 1, 2 or 4
 * names or constants, at least `coords` of them */
static struct fault image_fault(const ptx_expr *e, unsigned coords)
{
    struct fault f = { F_IMAGE, 0 };
    if (e->kind != PTX_EXPR_ADDR || ptx_expr_count(e) != 2 || !is_name(ptx_expr_item(e, 0)))
        return f;
    const ptx_expr *c = ptx_expr_item(e, 1);
    if (is_name(c))
        return (struct fault){ F_OK, 0 };
    if (c->kind != PTX_EXPR_VEC || ptx_expr_count(c) < coords || ptx_expr_count(c) == 3 || ptx_expr_count(c) > 4)
        return f;
    for (unsigned k = 0; k < ptx_expr_count(c); k++)
        if (!item_ok(ptx_expr_item(c, k), PTX_ACC_NAME | PTX_ACC_IMM, false))
            return (struct fault){ F_IMAGE, (uint8_t)(k + 1) };
    return (struct fault){ F_OK, 0 };
}

/* ptxas takes a register of type .bf16 or .bf16x2 written as a vector of
 * 1, 2 or 4 registers ({b}, {b, b}: add.bf16 d, a, {b}) in computations */
static bool bf16_braces(const ptx_expr *e, const ptx_isa_operand *op)
{
    if (!(op->accept & PTX_ACC_NAME) || (ptx_expr_count(e) != 1 && ptx_expr_count(e) != 2 && ptx_expr_count(e) != 4))
        return false;
    for (unsigned k = 0; k < ptx_expr_count(e); k++)
        if (ptx_expr_item(e, k)->kind != PTX_EXPR_SYM)
            return false;
    return true;
}

static bool is_bf16_type(uint16_t id)
{
    return id && (strcmp(ptx_isa_mod_names[id], ".bf16") == 0 ||
                  strcmp(ptx_isa_mod_names[id], ".bf16x2") == 0);
}

/* The value of a constant expression without names (WARP_SZ is 32), as
 * ptxas computes it in 64 bits; false when it has a name or divides by
 * zero. */
static bool const_value(const ptx_expr *e, int64_t *out)
{
    int64_t a, b;
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT:
        *out = (int64_t)ptx_expr_int(e);
        return true;
    case PTX_EXPR_SYM:
        if (!is_warp_sz(e))
            return false;
        *out = 32;
        return true;
    case PTX_EXPR_PAREN: case PTX_EXPR_CAST:
        return const_value(ptx_expr_a(e), out);
    case PTX_EXPR_LIST:
        return ptx_expr_count(e) == 1 && const_value(ptx_expr_a(e), out);
    case PTX_EXPR_UNARY:
        if (!const_value(ptx_expr_a(e), &a))
            return false;
        *out = e->op == PTX_OP_NEG ? (int64_t)(0 - (uint64_t)a) : e->op == PTX_OP_BNOT ? ~a
               : e->op == PTX_OP_LNOT ? !a : a;
        return true;
    case PTX_EXPR_COND:
        if (!const_value(ptx_expr_item(e, 0), &a))
            return false;
        return const_value(ptx_expr_item(e, a ? 1 : 2), out);
    case PTX_EXPR_BINARY: {
        if (!const_value(ptx_expr_a(e), &a) || !const_value(ptx_expr_b(e), &b))
            return false;
        uint64_t x = (uint64_t)a, y = (uint64_t)b;
        switch ((ptx_op)e->op) {
        case PTX_OP_ADD: *out = (int64_t)(x + y); return true;
        case PTX_OP_SUB: *out = (int64_t)(x - y); return true;
        case PTX_OP_MUL: *out = (int64_t)(x * y); return true;
        case PTX_OP_DIV: case PTX_OP_MOD:
            if (b == 0 || (a == INT64_MIN && b == -1))
                return false;
            *out = e->op == PTX_OP_DIV ? a / b : a % b;
            return true;
        case PTX_OP_SHL: *out = (int64_t)(x << (y & 63)); return true;
        case PTX_OP_SHR: *out = a >> (y & 63); return true;
        case PTX_OP_BAND: *out = (int64_t)(x & y); return true;
        case PTX_OP_BOR: *out = (int64_t)(x | y); return true;
        case PTX_OP_BXOR: *out = (int64_t)(x ^ y); return true;
        case PTX_OP_LT: *out = a < b; return true;
        case PTX_OP_GT: *out = a > b; return true;
        case PTX_OP_LE: *out = a <= b; return true;
        case PTX_OP_GE: *out = a >= b; return true;
        case PTX_OP_EQ: *out = a == b; return true;
        case PTX_OP_NE: *out = a != b; return true;
        case PTX_OP_LAND: *out = a && b; return true;
        case PTX_OP_LOR: *out = a || b; return true;
        default: return false;
        }
    }
    default:
        return false;
    }
}

/* How an operand fails the form's operand `op` by its kind, shape or
 * selector (F_OK: it does not); `vec` is the size the .vN modifier gives;
 * `bf16`: the operand has type .bf16 or .bf16x2 */
static struct fault operand_fault_kind(const ptx_expr *e, const ptx_isa_operand *op,
                                       unsigned vec, bool bf16)
{
    const struct fault ok = { F_OK, 0 }, kind = { F_KIND, 0 };
    unsigned acc = op->accept;
    if (bf16 && e->kind == PTX_EXPR_VEC && !(acc & PTX_ACC_VEC))
        return bf16_braces(e, op) ? ok : kind;
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM:
        if (!(acc & (PTX_ACC_NAME | PTX_ACC_PRED | PTX_ACC_LABEL)))
            return kind;
        if (op->selector && ptx_expr_sel(e) &&
            !selector_ok(&ptx_isa_selectors[op->selector - 1], ptx_expr_sel(e)->text))
            return (struct fault){ F_SELECTOR, 0 };
        return ok;
    case PTX_EXPR_INDEX:
        /* arr[2] is an element: ptxas takes it as an address too */
        return acc & (PTX_ACC_NAME | PTX_ACC_PRED | PTX_ACC_LABEL | PTX_ACC_ADDR) ? ok : kind;
    case PTX_EXPR_SINK:
        return acc & PTX_ACC_SINK ? ok : kind;
    case PTX_EXPR_ADDR:
        if (acc & PTX_ACC_IMAGE)
            return image_fault(e, op->coords);
        return acc & PTX_ACC_ADDR ? ok : kind;
    case PTX_EXPR_LIST:
        /* (1) outside call is a constant in parentheses */
        if (!(acc & PTX_ACC_LIST) && ptx_expr_count(e) == 1)
            return (acc & PTX_ACC_IMM) && is_constant_expr(ptx_expr_item(e, 0)) ? ok : kind;
        if (!(acc & PTX_ACC_LIST))
            return kind;
        for (unsigned k = 0; k < ptx_expr_count(e); k++)
            if (!item_ok(ptx_expr_item(e, k), op->items, true))
                return (struct fault){ F_ITEM, (uint8_t)(k < 255 ? k : 255) };
        return ok;
    case PTX_EXPR_PAIR:
        return acc & PTX_ACC_PAIR ? ok : kind;
    case PTX_EXPR_VEC: {
        if (!(acc & PTX_ACC_VEC))
            return kind;
        bool size_ok = op->vec == PTX_VEC_ANY ||
                       (op->vec == PTX_VEC_SIZES ? ptx_expr_count(e) < 32 && (op->sizes >> ptx_expr_count(e) & 1)
                        : ptx_expr_count(e) == (op->vec ? (unsigned)op->vec : vec));
        if (!size_ok)
            return (struct fault){ F_SIZE, 0 };
        for (unsigned k = 0; k < ptx_expr_count(e); k++)
            if (!item_ok(ptx_expr_item(e, k), op->items, false))
                return (struct fault){ F_ITEM, (uint8_t)(k < 255 ? k : 255) };
        return ok;
    }
    case PTX_EXPR_UNARY:
        if (e->op == PTX_OP_LNOT && is_name(ptx_expr_a(e)))
            return acc & PTX_ACC_NOTPRED ? ok : kind;
        return acc & PTX_ACC_IMM ? ok : kind;
    default:
        return (acc & PTX_ACC_IMM) && is_constant_expr(e) ? ok : kind;
    }
}

/* How an operand fails the form's operand `op` (F_OK: it does not): by
 * its kind, shape or selector, or a constant by its value. */
static struct fault operand_fault(const ptx_expr *e, const ptx_isa_operand *op, unsigned vec,
                                  bool bf16)
{
    struct fault f = operand_fault_kind(e, op, vec, bf16);
    int64_t v;
    if (f.what != F_OK || !op->values || !const_value(e, &v))
        return f;
    const ptx_isa_vlist *l = &ptx_isa_values[op->values - 1];
    for (unsigned k = 0; k < l->n; k++)
        if (v >= l->v[k].lo && v <= l->v[k].hi &&
            (!l->v[k].mod || (l->v[k].mod < 0 ? (v & (v - 1)) == 0 : v % l->v[k].mod == 0)))
            return f;
    return (struct fault){ F_VALUE, 0 };
}

/* A form ptxas no longer takes in modules of this version and target */
static bool withdrawn(const ptx_module *m, const ptx_isa_form *f)
{
    if (!f->gone_major && !PTX_ISA_STR(f->gone_target)[0])
        return false;
    if (f->gone_major && (m->version_major < f->gone_major ||
                          (m->version_major == f->gone_major && m->version_minor < f->gone_minor)))
        return false;
    if (PTX_ISA_STR(f->gone_target)[0]) {
        if (!m->ntargets)
            return false;
        target have = parse_target(m->targets[0]->text);
        return have.arch && have.arch >= parse_target(PTX_ISA_STR(f->gone_target)).arch;
    }
    return true;
}

/* assign[i] of a modifier ptxas ignores (grammar/isa/ignored.isa), and of
 * one that fits no slot of the form */
enum { SLOT_IGNORED = 0xFF, SLOT_NONE = 0xFE };

static verdict try_form(const ptx_module *m, const ptx_instr *in, const ptx_isa_form *f,
                        const uint16_t *ids, uint64_t ignorable, const uint8_t *rc,
                        uint8_t *assign)
{
    verdict v = { P_NONE, 0, 0, 0, { 0, 0 } };
    if (in->nmods < f->nname) {
        v.what = P_NAME;
        v.cost = 100;
        return v;
    }
    for (unsigned i = 0; i < f->nname; i++) {
        if (ids[i] != f->name[i]) {
            v.what = P_NAME;
            v.index = i;
            v.cost = 100;
            return v;
        }
    }
    bool filled[32] = { false };
    for (unsigned i = f->nname; i < in->nmods; i++) {
        unsigned s = 0, dup = 32;
        for (; s < f->nslots; s++) {
            if (!slot_takes(&f->slots[s], ids[i]))
                continue;
            if (!filled[s])
                break;
            dup = s;
        }
        if (s == f->nslots && i < 64 && (ignorable >> i & 1)) {
            /* a word ptxas ignores after this opcode, once */
            bool again = false;
            for (unsigned j = f->nname; j < i && !again; j++)
                again = ids[j] == ids[i];
            assign[i] = SLOT_IGNORED;
            if (again && v.what == P_NONE) {
                v.what = P_DUPLICATE;
                v.index = i;
                v.slot = 0;
            }
            v.cost += again ? 10 : 0;
            continue;
        }
        if (s == f->nslots) {
            assign[i] = SLOT_NONE;
            if (v.what == P_NONE) {
                v.what = dup < 32 ? P_DUPLICATE : P_MODIFIER;
                v.index = i;
                v.slot = dup;
            }
            v.cost += 10;
            continue;
        }
        filled[s] = true;
        assign[i] = (uint8_t)s;
    }
    /* types, layouts and state spaces go in the order of the form's slots
     * for them, whatever their sets (ptxas: add.f16.f32 and
     * mma.e5m2.sync... are "Unexpected instruction types", mma...col.row
     * "Illegal alayout", cp.async.cg.global.shared "State space incorrect") */
    static const uint8_t positional[] = { PTX_CAT_TYPE, PTX_CAT_LAYOUT, PTX_CAT_SPACE };
    for (unsigned c = 0; c < sizeof positional && v.what == P_NONE; c++) {
        for (unsigned i = f->nname, last = 0, seen = 0; v.what == P_NONE && i < in->nmods; i++) {
            if (assign[i] >= f->nslots || f->slots[assign[i]].category != positional[c])
                continue;
            if (seen && assign[i] < last) {
                v.what = P_ORDER;
                v.index = i;
                v.slot = positional[c];     /* the category, for the message */
                v.cost += 10;
            }
            last = assign[i];
            seen = 1;
        }
    }
    for (unsigned s = 0; s < f->nslots; s++) {
        if (!filled[s] && (f->slots[s].kind == PTX_SLOT_LIT || f->slots[s].kind == PTX_SLOT_SET)) {
            if (v.what == P_NONE) {
                v.what = P_MISSING;
                v.slot = s;
            }
            v.cost += 10;
        }
    }
    unsigned required = 0;
    while (required < f->nops && !f->ops[required].optional)
        required++;
    if (in->nops < required || in->nops > f->nops) {
        if (v.what == P_NONE)
            v.what = P_OPERAND_COUNT;
        v.cost += 5;
    } else {
        unsigned vec = vector_size(in, f);
        /* the destination has the first type, the sources the last
         * (cvt.rn.bf16.f32: d is .bf16, a .f32) */
        uint16_t first_type = 0, last_type = 0;
        for (unsigned i = f->nname; i < in->nmods; i++) {
            if (assign[i] >= f->nslots || f->slots[assign[i]].category != PTX_CAT_TYPE)
                continue;
            if (!first_type)
                first_type = ids[i];
            last_type = ids[i];
        }
        /* only in scalar computations: memory operations (atom, red:
         * "Vector is not expected") and matrix ones (wgmma) refuse it */
        bool computes = true;
        for (unsigned i = 0; i < f->nops; i++)
            computes = computes &&
                       !(f->ops[i].accept & (PTX_ACC_ADDR | PTX_ACC_IMAGE | PTX_ACC_VEC));
        for (unsigned i = 0; i < in->nops; i++) {
            bool bf16 = computes && is_bf16_type(i == 0 ? first_type : last_type);
            struct fault fl = operand_fault(&in->ops[i], &f->ops[i], vec, bf16);
            if (fl.what == F_OK && rc[i] == PTX_RC_OTHER &&
                (f->ops[i].accept & (PTX_ACC_PRED | PTX_ACC_NAME)) == PTX_ACC_PRED)
                fl.what = F_NOT_PRED;
            if (fl.what == F_OK && rc[i] == PTX_RC_PRED &&
                (f->ops[i].accept & (PTX_ACC_PRED | PTX_ACC_NAME)) == PTX_ACC_NAME)
                fl.what = F_PRED;
            if (fl.what != F_OK) {
                if (v.what == P_NONE) {
                    v.what = P_OPERAND;
                    v.index = i;
                    v.fault = fl;
                }
                v.cost += 3;
            }
        }
    }
    if (v.what != P_NONE)
        return v;
    const ptx_isa_family *fam = &ptx_isa_families[f->family];
    unsigned major = f->since_major ? f->since_major : fam->major;
    unsigned minor = f->since_major ? f->since_minor : fam->minor;
    if (m->version_major < major || (m->version_major == major && m->version_minor < minor)) {
        v.what = P_VERSION;
        v.cost = 1;
        return v;
    }
    const char *need = PTX_ISA_STR(f->target)[0] ? PTX_ISA_STR(f->target) : fam->target;
    if (need[0] && m->ntargets) {
        target have = parse_target(m->targets[0]->text);
        /* a comma list: any one of the targets will do */
        bool ok = !have.arch;
        for (const char *t = need; *t && !ok; t = strchr(t, ',') ? strchr(t, ',') + 1 : "")
            ok = target_ok(have, parse_target(t));
        if (!ok) {
            v.what = P_TARGET;
            v.cost = 1;
            return v;
        }
    }
    if (withdrawn(m, f)) {
        /* a current form that only lacks a modifier explains it better
         * (mad.f32: the rounding modifier, as ptxas says) */
        v.what = P_WITHDRAWN;
        v.cost = 12;
    }
    return v;
}

/* Which modifiers of `in` ptxas ignores in family `fam`: words of
 * grammar/isa/ignored.isa that none of the family's forms gives a meaning
 * (testp's .finite and tensormap.replace's .rank count there). */
static uint64_t ignorable_words(const ptx_instr *in, const uint16_t *ids,
                                const ptx_isa_root *root, unsigned fam)
{
    uint64_t ignorable = 0;
    for (unsigned i = 0; i < in->nmods && i < 64; i++) {
        if (!ptx_isa_mod_ignored[ids[i]])
            continue;
        bool meaningful = false;
        for (unsigned k = 0; k < root->nforms && !meaningful; k++) {
            const ptx_isa_form *form = &ptx_isa_forms[root->first_form + k];
            for (unsigned sl = 0; form->family == fam && sl < form->nslots && !meaningful; sl++)
                meaningful = slot_takes(&form->slots[sl], ids[i]);
        }
        if (!meaningful)
            ignorable |= (uint64_t)1 << i;
    }
    return ignorable;
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

static ptx_span mod_span(const ptx_instr *in, unsigned i)
{
    ptx_span s = { ptx_mod_offset(in, i), in->mods[i].name->len };
    return s;
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
        { PTX_ACC_SINK, "'_'" },
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

typedef struct explain explain;
static void report(ptx_context *ctx, const explain *x, const ptx_instr *in,
                   const ptx_isa_form *f, verdict v);

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

/* ".a" or "one of .a, .b, .c" (the first LIST_MAX, then "...") */
static void list_words(char *buf, size_t n, const mod_list *l)
{
    size_t used = (size_t)snprintf(buf, n, "%s", l->n > 1 ? "one of " : "");
    for (unsigned k = 0; k < l->n && k <= LIST_MAX && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "",
                                 k == LIST_MAX ? "..." : ptx_isa_mod_names[l->ids[k]]);
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

/* What the explanations need besides the closest form and its verdict. */
struct explain {
    const ptx_module *m;
    const ptx_isa_root *root;
    const uint16_t *ids;        /* the instruction's modifiers, decoded */
    const uint8_t *rc;          /* the operands' register classes (PTX_RC_*) */
    uint8_t *assign;            /* scratch for try_form */
};

/* try_form for another form of the instruction's root */
static verdict try_other(const explain *x, const ptx_instr *in, const ptx_isa_form *g)
{
    return try_form(x->m, in, g, x->ids, ignorable_words(in, x->ids, x->root, g->family),
                    x->rc, x->assign);
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
    ptx_diag_add_fix(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index), fix[0] ? fix : NULL,
                     "'%s' with '%s' needs %s after '%s'%s (form: %s)", op, word, names, op, full,
                     FORM(first));
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
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, i),
                         "layout '%s' is not valid for matrix %s of '%s': this form takes '%s' (form: %s)",
                         in->mods[i].name->text, matrix[k], ptx_instr_opcode(in)->text,
                         ptx_isa_mod_names[want[k]], FORM(f));
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
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                     "'%s' with '%s' needs %s%s (form: %s)", op, word,
                     need.n == 1 && g->slots[best.slot].kind != PTX_SLOT_SET ? "the modifier " : "",
                     vals, FORM(g));
        return;
    }
    if (g && best.what == P_DUPLICATE && best.index == v.index) {
        report(ctx, x, in, g, best);    /* two of one set: .trap.clamp */
        return;
    }
    if (g && (best.what == P_MODIFIER || best.what == P_DUPLICATE) && best.index != v.index) {
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                     "modifier '%s' cannot be combined with '%s' in '%s' (form: %s)", word,
                     in->mods[best.index].name->text, op, FORM(g));
        return;
    }
    if (!g && name_missing(ctx, x, in, v))
        return;
    if (!g && same.n) {
        list_words(vals, sizeof vals, &same);
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                     "modifier '%s' is not valid in '%s': expected %s (closest form: %s)", word,
                     op, vals, FORM(f));
        return;
    }
    ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                 "modifier '%s' is not valid in '%s' (closest form: %s)", word, op, FORM(f));
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
        const_value(e, &val);
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

static void report(ptx_context *ctx, const explain *x, const ptx_instr *in,
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
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, s,
                     "'%s%s' is not an instruction: '%s' continues with %s", op,
                     v.index < in->nmods ? in->mods[v.index].name->text : "", op, FORM(f));
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
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                     "%s '%s' is out of place in '%s': the %ss follow the order of the form (%s)",
                     ptx_isa_category_names[v.slot], in->mods[v.index].name->text, op,
                     ptx_isa_category_names[v.slot], FORM(f));
        return;
    case P_MISSING: {
        mod_list need = { { 0 }, 0 };
        missing_values(x, in, f, v, &need);
        list_words(vals, sizeof vals, &need);
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at, "'%s' needs %s%s (form: %s)",
                     op, need.n == 1 && f->slots[v.slot].kind != PTX_SLOT_SET ? "the modifier " : "",
                     vals, FORM(f));
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
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                     "'%s' takes %s operand%s, found %u (form: %s)", op, vals,
                     counts == 2 ? "" : "s", in->nops, FORM(f));
        return;
    }
    case P_OPERAND:
        report_operand(ctx, in, &f->ops[v.index], v, vector_size(in, f));
        return;
    case P_VERSION: {
        const ptx_isa_family *fam = &ptx_isa_families[f->family];
        unsigned major = f->since_major ? f->since_major : fam->major;
        unsigned minor = f->since_major ? f->since_minor : fam->minor;
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                     "'%s' (%s) requires PTX ISA .version %u.%u or later; this module is %u.%u",
                     op, FORM(f), major, minor, m->version_major, m->version_minor);
        return;
    }
    case P_WITHDRAWN:
        if (f->gone_major && PTX_ISA_STR(f->gone_target)[0])
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported on .target %s and later from PTX ISA %u.%u; this module is %u.%u for %s",
                         op, FORM(f), PTX_ISA_STR(f->gone_target), f->gone_major, f->gone_minor,
                         m->version_major, m->version_minor, m->targets[0]->text);
        else if (PTX_ISA_STR(f->gone_target)[0])
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported on .target %s and later; this module targets %s",
                         op, FORM(f), PTX_ISA_STR(f->gone_target), m->targets[0]->text);
        else
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported from PTX ISA %u.%u; this module is %u.%u",
                         op, FORM(f), f->gone_major, f->gone_minor, m->version_major,
                         m->version_minor);
        return;
    case P_TARGET: {
        const char *need = PTX_ISA_STR(f->target)[0] ? PTX_ISA_STR(f->target) : ptx_isa_families[f->family].target;
        bool list = strchr(need, ',') != NULL;
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                     "'%s' (%s) requires .target %s%s%s; this module targets %s", op, FORM(f),
                     list ? "one of " : "", need,
                     list || need[strlen(need) - 1] == 'a' ? "" : " or later",
                     m->targets[0]->text);
        return;
    }
    }
}

/* ---- memo of accepted shapes ------------------------------------------
 * Real modules repeat a few hundred instruction shapes thousands of times.
 * Whether a form fits depends only on the opcode, the modifier ids and each
 * operand's class (its kind and what operand_fault looks at: a vector's
 * size, the kinds of its elements or of a list's, the shape of an image
 * address, a name's selector, whether a name is negated or is WARP_SZ),
 * given the module's version and target: so an accepted shape is
 * remembered, keyed by exactly those, with the form and the slot each
 * modifier took.  Rejections are not remembered: they are reported in
 * full each time. */

enum { MEMO_MAX_WORDS = 64 };

typedef struct memo_key {
    uint16_t w[MEMO_MAX_WORDS];
    unsigned n;
    uint32_t hash;
} memo_key;

typedef struct memo_entry {
    uint32_t hash;
    uint16_t form;
    uint16_t n;                 /* words in key */
    const uint16_t *key;        /* key words, then the slot of each modifier */
    const uint8_t *assign;
} memo_entry;

struct ptx_isa_memo {
    memo_entry *slots;
    size_t mask, count;
};

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
            c |= (unsigned)(image_fault(e, coords).what == F_OK) << (4 + coords);
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
        if (root->values && const_value(&in->ops[i], &v) &&
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

static const memo_entry *memo_find(ptx_context *ctx, const memo_key *k)
{
    struct ptx_isa_memo *mt = ctx->isa_memo;
    if (!mt || !mt->slots)
        return NULL;
    for (size_t i = k->hash & mt->mask; mt->slots[i].key; i = (i + 1) & mt->mask) {
        const memo_entry *e = &mt->slots[i];
        if (e->hash == k->hash && e->n == k->n && memcmp(e->key, k->w, k->n * sizeof *k->w) == 0)
            return e;
    }
    return NULL;
}

static void memo_add(ptx_context *ctx, const memo_key *k, uint16_t form, const uint8_t *assign,
                     unsigned nmods)
{
    struct ptx_isa_memo *mt = ctx->isa_memo;
    if (!mt)
        mt = ctx->isa_memo = ptx_arena_zalloc(&ctx->arena, sizeof *mt);
    if (!mt->slots || (mt->count + 1) * 2 > mt->mask + 1) {
        size_t cap = mt->slots ? (mt->mask + 1) * 2 : 256;
        memo_entry *slots = ptx_arena_zalloc(&ctx->arena, cap * sizeof *slots);
        for (size_t i = 0; mt->slots && i <= mt->mask; i++) {
            if (!mt->slots[i].key)
                continue;
            size_t j = mt->slots[i].hash & (cap - 1);
            while (slots[j].key)
                j = (j + 1) & (cap - 1);
            slots[j] = mt->slots[i];
        }
        mt->slots = slots;
        mt->mask = cap - 1;
    }
    uint16_t *copy = ptx_arena_alloc(&ctx->arena, k->n * sizeof *copy + nmods);
    memcpy(copy, k->w, k->n * sizeof *copy);
    uint8_t *a = (uint8_t *)(copy + k->n);
    memcpy(a, assign, nmods);
    size_t i = k->hash & mt->mask;
    while (mt->slots[i].key)
        i = (i + 1) & mt->mask;
    mt->slots[i] = (memo_entry){ k->hash, form, (uint16_t)k->n, copy, a };
    mt->count++;
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
    const ptx_isa_root *root = root_of(ctx, ptx_instr_opcode(in));
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
        ids[i] = name_id(ctx, in->mods[i].name);
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
    const memo_entry *hit = keyed ? memo_find(ctx, &key) : NULL;
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
            ignorable = ignorable_words(in, ids, root, form->family);
        }
        verdict v = try_form(m, in, form, ids, ignorable, rc, assign);
        if (v.what == P_NONE) {
            if (keyed)
                memo_add(ctx, &key, (uint16_t)(root->first_form + k), assign, in->nmods);
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
        report(ctx, &x, in, best_form, best);
    }
    return NULL;
}

ptx_status ptx_print_instruction_table(ptx_write_fn write, void *user)
{
    if (!write)
        return PTX_ERR_USAGE;
    ptx_out *o = malloc(sizeof *o);
    if (!o)
        return PTX_ERR_NOMEM;
    ptx_out_init(o, write, user);
    for (unsigned f = 1; f < PTX_FAMILY_COUNT; f++) {
        const ptx_isa_family *fam = &ptx_isa_families[f];
        if (fam->construct)
            ptx_out_fmt(o, "%-34s PTX %u.%u  %-8s (handled by the grammar)\n", fam->name,
                        fam->major, fam->minor, fam->target[0] ? fam->target : "all");
        else
            ptx_out_fmt(o, "%-34s PTX %u.%u  %-8s %3u form%s\n", fam->name, fam->major, fam->minor,
                        fam->target[0] ? fam->target : "all", fam->nforms,
                        fam->nforms == 1 ? "" : "s");
    }
    ptx_out_fmt(o, "%u families, %u forms\n", (unsigned)PTX_FAMILY_COUNT - 1, ptx_isa_nforms);
    ptx_status st = ptx_out_finish(o);
    free(o);
    return st;
}
