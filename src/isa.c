/* Instruction validation against the generated syntax tables: finds the
 * family by opcode, then the first form whose name, modifiers, operands,
 * PTX ISA version and target all fit, and records what each modifier
 * means.  When none fits, the form that came closest explains the error. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "isa_tables.h"

/* ---- lookups ---------------------------------------------------------- */

static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

/* The modifier id of a dot-word: 0 when no table knows it.  Cached in the
 * interned name, so each distinct word is looked up once. */
static uint16_t mod_id(const ptx_name *n)
{
    ptx_name *w = (ptx_name *)n;
    if (w->isa_id == PTX_ISA_ID_UNKNOWN) {
        const char *const *hit = bsearch(w->text, ptx_isa_mod_names + 1, PTX_MOD_COUNT - 1,
                                         sizeof *ptx_isa_mod_names, cmp_name);
        w->isa_id = hit ? (uint16_t)(hit - ptx_isa_mod_names) : 0;
    }
    return w->isa_id;
}

static int cmp_family(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const ptx_isa_family *)elem)->name);
}

static int cmp_root(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const ptx_isa_root *)elem)->name);
}

/* An opcode never starts with a dot, a modifier always does: the one
 * cache field of a name serves both lookups (for an opcode, its root's
 * index + 1, 0 when it has none). */
static const ptx_isa_root *root_of(const ptx_name *opcode)
{
    ptx_name *w = (ptx_name *)opcode;
    if (w->isa_id == PTX_ISA_ID_UNKNOWN) {
        const ptx_isa_root *hit = bsearch(w->text, ptx_isa_roots, ptx_isa_nroots,
                                          sizeof *ptx_isa_roots, cmp_root);
        w->isa_id = hit ? (uint16_t)(hit - ptx_isa_roots + 1) : 0;
    }
    return w->isa_id ? &ptx_isa_roots[w->isa_id - 1] : NULL;
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

typedef enum problem {
    P_NONE, P_NAME, P_MODIFIER, P_DUPLICATE, P_ORDER, P_MISSING, P_OPERAND_COUNT, P_OPERAND,
    P_VERSION, P_TARGET, P_WITHDRAWN
} problem;

typedef struct verdict {
    problem what;
    unsigned index;         /* the modifier or operand concerned */
    unsigned slot;          /* P_MISSING, P_DUPLICATE: the slot; P_ORDER: the category */
    unsigned cost;          /* how far the form is from the instruction */
} verdict;

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

static bool is_constant_expr(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
    case PTX_EXPR_UNARY: case PTX_EXPR_BINARY: case PTX_EXPR_COND: case PTX_EXPR_CAST:
    case PTX_EXPR_PAREN:
        return true;
    case PTX_EXPR_SYM:
        return ptx_name_is(e->u.sym.name, "WARP_SZ");
    default:
        return false;
    }
}

/* Does a name's selector (".b0", ".x"; NULL for none) fit class `cls`? */
static bool selector_ok(const ptx_name *sel, unsigned cls)
{
    if (cls == PTX_SEL_ANY || !sel)
        return true;
    if (cls == PTX_SEL_NONE)
        return false;
    const char *d = sel->text + 2;
    char c = sel->text[1];
    size_t n = strlen(d);
    char top = cls == PTX_SEL_VSEL4 ? '7' : cls == PTX_SEL_VMASK2 ? '1' : '3';
    bool descending = true;
    for (size_t i = 0; i < n; i++) {
        if (d[i] < '0' || d[i] > top)
            return false;
        if (i && d[i] >= d[i - 1])
            descending = false;
    }
    switch (cls) {
    case PTX_SEL_VIDEO:
        return n == 1 && (c == 'b' || (c == 'h' && d[0] <= '1'));
    case PTX_SEL_VSEL2:
        return c == 'h' && n == 2;
    case PTX_SEL_VSEL4:
        return c == 'b' && n == 4;
    case PTX_SEL_VMASK2:
        return c == 'h' && n >= 1 && n <= 2 && descending;
    case PTX_SEL_VMASK4:
        return c == 'b' && n >= 1 && n <= 4 && descending;
    default:
        return false;
    }
}

/* ptxas takes a register of type .bf16 or .bf16x2 written as a vector of
 * 1, 2 or 4 registers ({b}, {b, b}: add.bf16 d, a, {b}) in computations */
static bool bf16_braces(const ptx_expr *e, const ptx_isa_operand *op)
{
    if (!(op->accept & PTX_ACC_NAME) || (e->count != 1 && e->count != 2 && e->count != 4))
        return false;
    for (unsigned k = 0; k < e->count; k++)
        if (e->u.list.items[k]->kind != PTX_EXPR_SYM)
            return false;
    return true;
}

static bool is_bf16_type(uint16_t id)
{
    return id && (strcmp(ptx_isa_mod_names[id], ".bf16") == 0 ||
                  strcmp(ptx_isa_mod_names[id], ".bf16x2") == 0);
}

/* `bf16`: the operand has type .bf16 or .bf16x2 */
static bool operand_ok(const ptx_expr *e, const ptx_isa_operand *op, unsigned vec, bool bf16)
{
    unsigned acc = op->accept;
    if (bf16 && e->kind == PTX_EXPR_VEC && !(acc & PTX_ACC_VEC))
        return bf16_braces(e, op);
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM:
        if (!selector_ok(e->u.sym.sel, op->sel))
            return false;
        return acc & (PTX_ACC_NAME | PTX_ACC_PRED | PTX_ACC_LABEL);
    case PTX_EXPR_INDEX:
        /* arr[2] is an element: ptxas takes it as an address too */
        return acc & (PTX_ACC_NAME | PTX_ACC_PRED | PTX_ACC_LABEL | PTX_ACC_ADDR);
    case PTX_EXPR_SINK:
        return acc & PTX_ACC_SINK;
    case PTX_EXPR_ADDR:
        return acc & PTX_ACC_ADDR;
    case PTX_EXPR_LIST:
        /* (1) outside call is a constant in parentheses */
        if (!(acc & PTX_ACC_LIST) && e->count == 1)
            return (acc & PTX_ACC_IMM) && is_constant_expr(e->u.list.items[0]);
        return acc & PTX_ACC_LIST;
    case PTX_EXPR_PAIR:
        return acc & PTX_ACC_PAIR;
    case PTX_EXPR_VEC:
        if (!(acc & PTX_ACC_VEC))
            return false;
        if (op->vec < 0)
            return true;
        return e->count == (op->vec ? (unsigned)op->vec : vec);
    case PTX_EXPR_UNARY:
        if (e->op == PTX_OP_LNOT && is_name(e->u.op.a))
            return (acc & PTX_ACC_NOTPRED) || ((acc & PTX_ACC_IMM) && false);
        return acc & PTX_ACC_IMM;
    default:
        return (acc & PTX_ACC_IMM) && is_constant_expr(e);
    }
}

/* A form ptxas no longer takes in modules of this version and target */
static bool withdrawn(const ptx_module *m, const ptx_isa_form *f)
{
    if (!f->gone_major && !f->gone_target[0])
        return false;
    if (f->gone_major && (m->version_major < f->gone_major ||
                          (m->version_major == f->gone_major && m->version_minor < f->gone_minor)))
        return false;
    if (f->gone_target[0]) {
        if (!m->ntargets)
            return false;
        target have = parse_target(m->targets[0]->text);
        return have.arch && have.arch >= parse_target(f->gone_target).arch;
    }
    return true;
}

/* assign[i] of a modifier ptxas ignores (grammar/isa/ignored.isa) */
enum { SLOT_IGNORED = 0xFF };

static verdict try_form(const ptx_module *m, const ptx_instr *in, const ptx_isa_form *f,
                        const uint16_t *ids, uint64_t ignorable, uint8_t *assign)
{
    verdict v = { P_NONE, 0, 0, 0 };
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
            if (v.what == P_NONE) {
                v.what = dup < 32 ? P_DUPLICATE : P_MODIFIER;
                v.index = i;
                v.slot = dup;
            }
            v.cost += 10;
            assign[i] = SLOT_IGNORED;   /* read by the checks below */
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
            if (assign[i] == SLOT_IGNORED || f->slots[assign[i]].category != positional[c])
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
            if (assign[i] == SLOT_IGNORED || f->slots[assign[i]].category != PTX_CAT_TYPE)
                continue;
            if (!first_type)
                first_type = ids[i];
            last_type = ids[i];
        }
        /* only in scalar computations: memory operations (atom, red:
         * "Vector is not expected") and matrix ones (wgmma) refuse it */
        bool computes = true;
        for (unsigned i = 0; i < f->nops; i++)
            computes = computes && !(f->ops[i].accept & (PTX_ACC_ADDR | PTX_ACC_VEC));
        for (unsigned i = 0; i < in->nops; i++) {
            bool bf16 = computes && is_bf16_type(i == 0 ? first_type : last_type);
            if (!operand_ok(in->ops[i], &f->ops[i], vec, bf16)) {
                if (v.what == P_NONE) {
                    v.what = P_OPERAND;
                    v.index = i;
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
    const char *need = f->target[0] ? f->target : fam->target;
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
    ptx_span s = { in->mods[i].off, in->mods[i].name->len };
    return s;
}

static const char *operand_words(unsigned acc)
{
    if (acc & PTX_ACC_ADDR)
        return "an address [...]";
    if (acc & PTX_ACC_VEC)
        return "a vector {...}";
    if (acc & PTX_ACC_LIST)
        return "a list (...)";
    if ((acc & PTX_ACC_NAME) && (acc & PTX_ACC_IMM))
        return "a register or a constant";
    if (acc & PTX_ACC_IMM)
        return "a constant";
    if (acc & PTX_ACC_PRED)
        return "a predicate";
    if (acc & PTX_ACC_LABEL)
        return "a label or function name";
    return "a register";
}

static void report(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                   const ptx_isa_form *f, verdict v, uint16_t opcode_off)
{
    (void)opcode_off;
    const char *op = in->opcode->text;
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
                     v.index < in->nmods ? in->mods[v.index].name->text : "", op, f->text);
        return;
    }
    case P_MODIFIER:
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                     "modifier '%s' is not valid in '%s' (closest form: %s)",
                     in->mods[v.index].name->text, op, f->text);
        return;
    case P_DUPLICATE:
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
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, v.index),
                     "%s '%s' is out of place in '%s': the %ss follow the order of the form (%s)",
                     ptx_isa_category_names[v.slot], in->mods[v.index].name->text, op,
                     ptx_isa_category_names[v.slot], f->text);
        return;
    case P_MISSING:
        set_values(vals, sizeof vals, &f->slots[v.slot]);
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                     "'%s' needs %s %s (form: %s)", op,
                     f->slots[v.slot].kind == PTX_SLOT_SET ? "one of" : "the modifier", vals,
                     f->text);
        return;
    case P_OPERAND_COUNT: {
        unsigned required = 0;
        while (required < f->nops && !f->ops[required].optional)
            required++;
        if (required == f->nops)
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' takes %u operand%s, found %u (form: %s)", op, required,
                         required == 1 ? "" : "s", in->nops, f->text);
        else
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' takes %u to %u operands, found %u (form: %s)", op, required,
                         (unsigned)f->nops, in->nops, f->text);
        return;
    }
    case P_OPERAND: {
        const ptx_expr *e = in->ops[v.index];
        const ptx_isa_operand *o = &f->ops[v.index];
        unsigned want = o->vec > 0 ? (unsigned)o->vec : vector_size(in, f);
        if (e->kind == PTX_EXPR_SYM && e->u.sym.sel && !selector_ok(e->u.sym.sel, o->sel))
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, e->span,
                         "operand %u of '%s' cannot carry the selector '%s' (form: %s)",
                         v.index + 1, op, e->u.sym.sel->text, f->text);
        /* a vector where one is expected: only its length can be wrong */
        else if (e->kind == PTX_EXPR_VEC && (o->accept & PTX_ACC_VEC) && o->vec >= 0)
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, e->span,
                         "operand %u of '%s' must be a vector of %u element%s, found %u",
                         v.index + 1, op, want, want == 1 ? "" : "s", e->count);
        else
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, e->span,
                         "operand %u of '%s' must be %s", v.index + 1, op,
                         operand_words(o->accept));
        return;
    }
    case P_VERSION: {
        const ptx_isa_family *fam = &ptx_isa_families[f->family];
        unsigned major = f->since_major ? f->since_major : fam->major;
        unsigned minor = f->since_major ? f->since_minor : fam->minor;
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                     "'%s' (%s) requires PTX ISA .version %u.%u or later; this module is %u.%u",
                     op, f->text, major, minor, m->version_major, m->version_minor);
        return;
    }
    case P_WITHDRAWN:
        if (f->gone_major && f->gone_target[0])
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported on .target %s and later from PTX ISA %u.%u; this module is %u.%u for %s",
                         op, f->text, f->gone_target, f->gone_major, f->gone_minor,
                         m->version_major, m->version_minor, m->targets[0]->text);
        else if (f->gone_target[0])
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported on .target %s and later; this module targets %s",
                         op, f->text, f->gone_target, m->targets[0]->text);
        else
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                         "'%s' (%s) is not supported from PTX ISA %u.%u; this module is %u.%u",
                         op, f->text, f->gone_major, f->gone_minor, m->version_major,
                         m->version_minor);
        return;
    case P_TARGET: {
        const char *need = f->target[0] ? f->target : ptx_isa_families[f->family].target;
        bool list = strchr(need, ',') != NULL;
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, at,
                     "'%s' (%s) requires .target %s%s%s; this module targets %s", op, f->text,
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
 * operand's class (its kind, a vector's size, whether a name is negated or
 * is WARP_SZ), given the module's version and target: so an accepted
 * shape is remembered, keyed by exactly those, with the form and the slot
 * each modifier took.  Rejections are not remembered: they are reported in
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

static uint16_t operand_class(const ptx_expr *e)
{
    uint16_t c = e->kind;
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_VEC: {
        if (e->count > 0x7F)
            return 0xFFFF;
        /* {b} for a .bf16 register takes names only */
        bool names = true;
        for (unsigned k = 0; k < e->count && names; k++)
            names = e->u.list.items[k]->kind == PTX_EXPR_SYM;
        return (uint16_t)(c | names << 5 | e->count << 8);
    }
    case PTX_EXPR_UNARY:
        return (uint16_t)(c | (e->op == PTX_OP_LNOT && is_name(e->u.op.a)) << 5);
    case PTX_EXPR_SYM: {
        /* a selector: which selector classes take it */
        unsigned sel = 0;
        for (unsigned k = PTX_SEL_NONE; e->u.sym.sel && k <= PTX_SEL_VMASK4; k++)
            sel |= (unsigned)selector_ok(e->u.sym.sel, k) << k;
        return (uint16_t)(c | is_constant_expr(e) << 5 | (e->u.sym.sel != NULL) << 6 | sel << 8);
    }
    default:
        return c;
    }
}

static bool memo_key_make(memo_key *k, const ptx_isa_root *root, const ptx_instr *in,
                          const uint16_t *ids)
{
    if (3u + in->nmods + in->nops > MEMO_MAX_WORDS)
        return false;
    unsigned n = 0;
    k->w[n++] = (uint16_t)(root - ptx_isa_roots);
    k->w[n++] = (uint16_t)in->nmods;
    for (unsigned i = 0; i < in->nmods; i++)
        k->w[n++] = ids[i];
    k->w[n++] = (uint16_t)in->nops;
    for (unsigned i = 0; i < in->nops; i++) {
        uint16_t c = operand_class(in->ops[i]);
        if (c == 0xFFFF)
            return false;
        k->w[n++] = c;
    }
    k->n = n;
    uint32_t h = 2166136261u;
    for (unsigned i = 0; i < n; i++)
        h = (h ^ k->w[i]) * 16777619u;
    k->hash = h ^ (h >> 15);
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

/* Records the form that fits and what each modifier says. */
static void apply_form(ptx_instr *in, uint16_t index, const uint16_t *ids, const uint8_t *assign)
{
    const ptx_isa_form *form = &ptx_isa_forms[index];
    in->family = form->family;
    in->form = index;
    for (unsigned i = 0; i < in->nmods; i++) {
        in->mods[i].id = ids[i];
        in->mods[i].category = i < form->nname || assign[i] == SLOT_IGNORED
                                   ? PTX_CAT_NONE : form->slots[assign[i]].category;
    }
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
        return ptx_name_is(e->u.sym.name, "WARP_SZ") ? NULL : e;
    case PTX_EXPR_UNARY: case PTX_EXPR_PAREN: case PTX_EXPR_CAST:
        return first_name(e->u.op.a);
    case PTX_EXPR_BINARY: {
        const ptx_expr *a = first_name(e->u.op.a);
        return a ? a : first_name(e->u.op.b);
    }
    case PTX_EXPR_COND:
        for (unsigned i = 0; i < 3; i++) {
            const ptx_expr *a = first_name(e->u.list.items[i]);
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
        const ptx_expr *e = in->ops[i];
        if (e->kind != PTX_EXPR_LIST)
            continue;
        if (root_takes_lists(root))
            return true;
        for (unsigned k = 0; k < e->count; k++) {
            const ptx_expr *name = first_name(e->u.list.items[k]);
            if (name) {
                ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, name->span,
                             "a name in parentheses: only 'call' takes a list (...) of names; "
                             "elsewhere (...) holds a constant expression");
                return false;
            }
        }
        if (e->count != 1) {
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, e->span,
                         "only 'call' takes a list (...); elsewhere (...) holds one constant expression");
            return false;
        }
    }
    return true;
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

static void check_instr(ptx_context *ctx, const ptx_module *m, ptx_instr *in)
{
    const ptx_isa_root *root = root_of(in->opcode);
    if (!root && PTX_FAMILY_COUNT - 1 < ALL_FAMILIES)
        return;
    if (!check_parenthesised(ctx, in, root))
        return;
    if (!root) {
        ptx_span s = { in->base.span.off, in->opcode->len };
        if (in->guard) {
            /* the opcode follows the guard: find it in the source */
            const char *p = ctx->src + in->base.span.off, *end = p + in->base.span.len;
            const char *hit = p;
            while (hit < end && !(strncmp(hit, in->opcode->text, in->opcode->len) == 0 &&
                                  hit > p && (hit[-1] == ' ' || hit[-1] == '\t' || hit[-1] == '\n')))
                hit++;
            if (hit < end)
                s.off = (uint32_t)(hit - ctx->src);
        }
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, s,
                     "unknown instruction '%s'", in->opcode->text);
        return;
    }
    uint16_t ids_small[64];
    uint16_t *ids = in->nmods <= 64 ? ids_small : ptx_arena_alloc(&ctx->arena, in->nmods * sizeof *ids);
    for (unsigned i = 0; i < in->nmods; i++) {
        ids[i] = mod_id(in->mods[i].name);
        if (!ids[i]) {
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_INSTRUCTION, mod_span(in, i),
                         "unknown modifier '%s' for '%s'", in->mods[i].name->text,
                         in->opcode->text);
            return;
        }
    }
    memo_key key;
    bool keyed = memo_key_make(&key, root, in, ids);
    const memo_entry *hit = keyed ? memo_find(ctx, &key) : NULL;
    if (hit) {
        apply_form(in, hit->form, ids, hit->assign);
        return;
    }
    uint64_t ignorable = 0;
    unsigned ignorable_family = 0;
    uint8_t assign_small[64], best_assign_small[64];
    uint8_t *assign = in->nmods <= 64 ? assign_small : ptx_arena_alloc(&ctx->arena, in->nmods);
    uint8_t *best_assign = in->nmods <= 64 ? best_assign_small : ptx_arena_alloc(&ctx->arena, in->nmods);
    verdict best = { P_NONE, 0, 0, ~0u };
    const ptx_isa_form *best_form = NULL;
    for (unsigned k = 0; k < root->nforms; k++) {
        const ptx_isa_form *form = &ptx_isa_forms[root->first_form + k];
        if (form->family != ignorable_family) {
            ignorable_family = form->family;
            ignorable = ignorable_words(in, ids, root, form->family);
        }
        verdict v = try_form(m, in, form, ids, ignorable, assign);
        if (v.what == P_NONE) {
            apply_form(in, (uint16_t)(root->first_form + k), ids, assign);
            if (keyed)
                memo_add(ctx, &key, (uint16_t)(root->first_form + k), assign, in->nmods);
            return;
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
                             in->mods[i].name->text, in->opcode->text, in->mods[i].name->text);
                return;
            }
        }
    }
    if (best_form)
        report(ctx, m, in, best_form, best, 0);
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

void ptx_isa_validate(ptx_context *ctx, ptx_module *m)
{
    ptx_iter *it = ptx_iter_new(m);
    if (!it)
        longjmp(ctx->oom, 1);
    const ptx_node *n;
    ptx_event ev;
    while ((ev = ptx_iter_next(it, &n)) > 0 && !ctx->stopped)
        if (ev == PTX_EVENT_ENTER && n->kind == PTX_NODE_INSTR)
            check_instr(ctx, m, (ptx_instr *)n);
    bool nomem = ev == PTX_EVENT_NOMEM;
    ptx_iter_free(it);
    if (nomem)
        longjmp(ctx->oom, 1);
}
