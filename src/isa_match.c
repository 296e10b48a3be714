/* The instruction tables, matching: whether one form fits an
 * instruction (its name, modifiers, operands, PTX ISA version and
 * target), and if not, what is wrong and how far it is from fitting;
 * which modifiers ptxas ignores. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

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

unsigned ptx_isa_vector_size(const ptx_instr *in, const ptx_isa_form *f)
{
    for (unsigned i = f->nname; i < in->nmods; i++) {
        const char *t = in->mods[i].name->text;
        if (t[0] == '.' && t[1] == 'v' && t[2] >= '1' && t[2] <= '9' && !t[3])
            return (unsigned)(t[2] - '0');
    }
    return 1;
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
struct fault ptx_isa_image_fault(const ptx_expr *e, unsigned coords)
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
bool ptx_isa_const_value(const ptx_expr *e, int64_t *out)
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
        return ptx_isa_const_value(ptx_expr_a(e), out);
    case PTX_EXPR_LIST:
        return ptx_expr_count(e) == 1 && ptx_isa_const_value(ptx_expr_a(e), out);
    case PTX_EXPR_UNARY:
        if (!ptx_isa_const_value(ptx_expr_a(e), &a))
            return false;
        *out = e->op == PTX_OP_NEG ? (int64_t)(0 - (uint64_t)a) : e->op == PTX_OP_BNOT ? ~a
               : e->op == PTX_OP_LNOT ? !a : a;
        return true;
    case PTX_EXPR_COND:
        if (!ptx_isa_const_value(ptx_expr_item(e, 0), &a))
            return false;
        return ptx_isa_const_value(ptx_expr_item(e, a ? 1 : 2), out);
    case PTX_EXPR_BINARY: {
        if (!ptx_isa_const_value(ptx_expr_a(e), &a) || !ptx_isa_const_value(ptx_expr_b(e), &b))
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
            return ptx_isa_image_fault(e, op->coords);
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
    case PTX_EXPR_F32:
        /* a 0f constant: a constant, or what the kind 'f' takes alone */
        return acc & (PTX_ACC_IMM | PTX_ACC_F32BITS) ? ok : kind;
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
    if (f.what != F_OK || !op->values || !ptx_isa_const_value(e, &v))
        return f;
    const ptx_isa_vlist *l = &ptx_isa_values[op->values - 1];
    for (unsigned k = 0; k < l->n; k++)
        if (v >= l->v[k].lo && v <= l->v[k].hi &&
            (!l->v[k].mod || (l->v[k].mod < 0 ? (v & (v - 1)) == 0 : v % l->v[k].mod == 0)))
            return f;
    return (struct fault){ F_VALUE, 0 };
}

/* A form ptxas no longer takes in modules of this version and target */
static bool withdrawn(unsigned vmajor, unsigned vminor, const char *tgt, const ptx_isa_form *f)
{
    if (!f->gone_major && !PTX_ISA_STR(f->gone_target)[0])
        return false;
    if (f->gone_major && (vmajor < f->gone_major || (vmajor == f->gone_major && vminor < f->gone_minor)))
        return false;
    if (PTX_ISA_STR(f->gone_target)[0]) {
        if (!tgt)
            return false;
        target have = parse_target(tgt);
        return have.arch && have.arch >= parse_target(PTX_ISA_STR(f->gone_target)).arch;
    }
    return true;
}

unsigned ptx_isa_form_level(const ptx_isa_form *f, unsigned vmajor, unsigned vminor, const char *tgt)
{
    const ptx_isa_family *fam = &ptx_isa_families[f->family];
    unsigned major = f->since_major ? f->since_major : fam->major;
    unsigned minor = f->since_major ? f->since_minor : fam->minor;
    if (vmajor < major || (vmajor == major && vminor < minor))
        return P_VERSION;
    const char *need = PTX_ISA_STR(f->target)[0] ? PTX_ISA_STR(f->target) : fam->target;
    if (need[0] && tgt) {
        target have = parse_target(tgt);
        /* a comma list: any one of the targets will do */
        bool ok = !have.arch;
        for (const char *t = need; *t && !ok; t = strchr(t, ',') ? strchr(t, ',') + 1 : "")
            ok = target_ok(have, parse_target(t));
        if (!ok)
            return P_TARGET;
    }
    return withdrawn(vmajor, vminor, tgt, f) ? P_WITHDRAWN : P_NONE;
}

verdict ptx_isa_try_form(const ptx_module *m, const ptx_instr *in, const ptx_isa_form *f,
                         const uint16_t *ids, uint64_t ignorable, const uint8_t *rc,
                         uint8_t *assign, bool quick)
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
                if (quick)
                    return v;
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
                if (quick)
                    return v;
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
    if (quick && v.what != P_NONE)
        return v;
    for (unsigned s = 0; s < f->nslots; s++) {
        if (!filled[s] && (f->slots[s].kind == PTX_SLOT_LIT || f->slots[s].kind == PTX_SLOT_SET)) {
            if (v.what == P_NONE) {
                v.what = P_MISSING;
                v.slot = s;
            }
            v.cost += 10;
        }
    }
    if (quick && v.what != P_NONE)
        return v;
    unsigned required = 0;
    while (required < f->nops && !f->ops[required].optional)
        required++;
    if (in->nops < required || in->nops > f->nops) {
        if (v.what == P_NONE)
            v.what = P_OPERAND_COUNT;
        v.cost += 5;
    } else {
        unsigned vec = ptx_isa_vector_size(in, f);
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
                    if (quick)
                        return v;
                }
                v.cost += 3;
            }
        }
    }
    if (v.what != P_NONE)
        return v;
    /* a current form that only lacks a modifier explains a withdrawn one
     * better (mad.f32: the rounding modifier, as ptxas says) */
    v.what = (problem)ptx_isa_form_level(f, m->version_major, m->version_minor,
                                         m->ntargets ? m->targets[0]->text : NULL);
    v.cost = v.what == P_WITHDRAWN ? 12 : v.what != P_NONE;
    return v;
}

/* Which modifiers of `in` ptxas ignores in family `fam`: words of
 * grammar/isa/ignored.isa that none of the family's forms gives a meaning
 * (testp's .finite and tensormap.replace's .rank count there). */
uint64_t ptx_isa_ignorable_words(const ptx_instr *in, const uint16_t *ids,
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
