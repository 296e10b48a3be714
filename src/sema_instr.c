/* The semantic pass: each instruction, and the caches in front of its
 * checks (the modifier sets moved to validated ones, the shapes of
 * instructions written alike, the answers for operands alike). */
#include "sema_impl.h"

/* ---- statements ------------------------------------------------------------- */

static uint8_t name_class(sema *S, const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_PAIR) {
        uint8_t a = name_class(S, ptx_expr_a(e)), b = name_class(S, ptx_expr_b(e));
        return a == PTX_RC_OTHER || b == PTX_RC_OTHER ? PTX_RC_OTHER
             : a == b ? a : PTX_RC_UNKNOWN;
    }
    if (e->kind == PTX_EXPR_UNARY && e->op == PTX_OP_LNOT)
        e = ptx_expr_a(e);
    if (e->kind != PTX_EXPR_SYM || ptx_expr_sel(e))
        return PTX_RC_UNKNOWN;
    sym *s = lookup(S, ptx_expr_name(e));
    if (!s) {
        const sreg *r = sema_sreg_find(ptx_expr_name(e));
        return r && r->kind == 'p' ? PTX_RC_PRED : PTX_RC_UNKNOWN;
    }
    if (s->kind != S_REG)
        return PTX_RC_UNKNOWN;
    return s->type == PTX_TYPE_PRED ? PTX_RC_PRED : PTX_RC_OTHER;
}

static void check_guard(sema *S, const ptx_instr *in)
{
    const ptx_expr *g = ptx_instr_guard(in);
    if (!g || g->kind != PTX_EXPR_SYM)
        return;
    sym *s = lookup(S, ptx_expr_name(g));
    if (!s) {
        const sreg *r = sema_sreg_find(ptx_expr_name(g));
        if (!r)
            sema_unknown_symbol(S, g);
        else if (r->kind != 'p')
            sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(g), "the guard '%s' is not a predicate",
                  ptx_expr_name(g)->text);
        return;
    }
    if (s->kind != S_REG || s->type != PTX_TYPE_PRED)
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(g),
              "the guard '%s' is not a predicate: it is a %s declared %s", ptx_expr_name(g)->text,
              sema_kind_word(s), s->kind == S_REG || s->kind == S_VAR ? ptx_type_name(s->type) : "");
}

/* Do the modifiers of set s say what the validator found? */
static bool set_says(const ptx_mods_set *s, unsigned n, const ptx_isa_fit *fit)
{
    for (unsigned i = 0; i < n; i++)
        if (s->mods[i + 1].id != fit->ids[i] || s->mods[i + 1].category != fit->cats[i])
            return false;
    return true;
}

/* Records into `in` what the validator found: its family and what each
 * modifier says.  Shared modifiers (internal.h) move to the validated set
 * of their spelling that says the same, made on first need; the
 * unvalidated set stays as it is for the instructions that do not
 * validate. */
static void record_fit(sema *S, ptx_instr *in, const ptx_isa_fit *fit)
{
    in->family = fit->family;
    ptx_mod *mods = in->mods;
    if (in->flags & PTX_INSTR_SHARED_MODS) {
        ptx_mods_set *cur = ptx_mods_set_of(in->mods);
        if (cur->validated && set_says(cur, in->nmods, fit))
            return;
        /* the set the last instruction written alike moved to, most often
         * the one; else the first of the chain that says the same (there
         * is at most one) */
        fit_memo *fm = &S->fit_memo[((uintptr_t)cur / sizeof(void *)) & (FIT_MEMO_SIZE - 1)];
        if (fm->from == cur && set_says(fm->to, in->nmods, fit)) {
            in->mods = fm->to->mods + 1;
            return;
        }
        fm->from = cur;
        for (ptx_mods_set *s = *cur->head; s; s = s->next) {
            if (s->validated && s->at == cur->at && set_says(s, in->nmods, fit)) {
                fm->to = s;
                in->mods = s->mods + 1;
                return;
            }
        }
        ptx_mods_set *s = ptx_mods_set_new(S->ctx, cur->head, cur->at, true, in->nmods);
        memcpy(s->mods, cur->mods, (in->nmods + 1u) * sizeof(ptx_mod));
        fm->to = s;
        mods = in->mods = s->mods + 1;
    }
    for (unsigned i = 0; i < in->nmods; i++) {
        mods[i].id = fit->ids[i];
        mods[i].category = fit->cats[i];
    }
}

/* Would check_name say nothing of register s, a scalar named with no
 * selector, as operand op (NULL: none in the matched form) of I's
 * instruction?  The common case, answered without the full check; false
 * sends the operand there, which gives the diagnostics. */
static inline bool register_fits(const ictx *I, const ptx_isa_operand *op, const sym *s)
{
    if (!op)
        return true;
    if ((op->accept & PTX_ACC_LABEL) && !(op->accept & (PTX_ACC_NAME | PTX_ACC_PRED)))
        return false;
    /* a scalar where the modifiers ask for a vector (.v2, .v4) */
    if ((op->accept & PTX_ACC_VEC) && op->vec == PTX_VEC_FROM_MOD && sema_vector_modifier(I->in) > 1)
        return false;
    if (!op->tkind)
        return true;
    return fits(wanted(I, op), s->cls, op->tflags & PTX_OT_RELAXED);
}

/* What sema_check_instr works out from the modifiers and the matched form of
 * an instruction, kept for the instructions written alike: those whose
 * modifiers are one shared set (internal.h) and which match one form. */
enum { SHAPE_OPS = 8 };

typedef struct shape {
    const ptx_mod *mods;        /* with form, the key; NULL: an empty slot */
    const ptx_isa_form *form;
    ictx I;                     /* I.in: the instruction being checked */
    bool cvta32;                /* the error of cvta with .u32 applies */
    bool call;                  /* a call, matched */
    uint32_t asked[SHAPE_OPS];  /* register types (1 << ptx_type), and SHAPE_INT,
                                   asked of operand i */
    uint32_t fit[SHAPE_OPS];    /* those of them that go no further (slot_fits) */
    uint64_t sig;               /* operands that all went no further (sema_check_instr) */
} shape;

/* sema_check_instr's signature of an instruction's operands: up to SIG_OPS of
 * them, each a register type or SIG_INT, an integer constant */
enum { SIG_OPS = 12, SIG_INT = 31 };

/* an integer constant, among the register types of shape.asked */
#define SHAPE_INT (1u << 31)
_Static_assert(PTX_TYPE_COUNT < 31, "a register type is a bit of shape.asked");

/* What sema_check_instr found of an instruction written alike to one it
 * accepted before, keyed by the modifiers as written (shared: internal.h,
 * one list for each spelling, so of one count) and each operand's part
 * (answer_part, never 0, so that the parts tell the operands' count):
 * all the validator's verdict depends on but the module's version and
 * target, the same for all the answers (answer_of), and all that
 * check_operands looks at to tell whether an operand goes no further.
 * The answer: the form, the family, the validated modifiers record_fit
 * moved the instruction to, the shape, and which operands sema_check_operand
 * is to see.  Direct-mapped: an answer pushed out is found again the
 * long way. */
enum { ANSWER_OPS = 8, ANSWERS = 1024 };

typedef struct answer {
    const ptx_mod *mods;        /* NULL: an empty slot */
    uint64_t ops[2];            /* the operands' parts, 16 bits each, then 0 */
    uint8_t family;
    uint8_t check;              /* operand i goes to sema_check_operand: bit i */
    const ptx_isa_form *form;
    ptx_mod *validated;
    struct shape *sh;
} answer;

static size_t shape_hash(const ptx_mod *mods, const ptx_isa_form *form)
{
    uint64_t h = ((uint64_t)(uintptr_t)mods ^ (uint64_t)(uintptr_t)form * 31u) * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 32);
}

/* What sema_check_instr works out from an instruction's modifiers and its
 * matched form, for `in` (whose I.in it is); what the modifiers say is
 * recorded in `in`, or in `held` for a form held back (ptx_isa_fit) */
static void shape_fill(sema *S, shape *sh, const ptx_instr *in, const ptx_isa_form *form,
                       const ptx_isa_fit *held)
{
    memset(sh, 0, sizeof *sh);
    sh->mods = in->mods;
    sh->form = form;
    ictx *I = &sh->I;
    I->S = S;
    I->in = in;
    I->form = form;
    I->op = ptx_instr_opcode(in)->text;
    unsigned ntypes = 0;
    for (unsigned i = 0; i < in->nmods; i++) {
        unsigned cat = held ? held->cats[i] : in->mods[i].category;
        if (cat == PTX_CAT_SPACE && form) {
            I->spaces++;
            I->space = in->mods[i].name->text;
        } else if (cat == PTX_CAT_TYPE && ntypes < 4) {
            ptx_modifier id = (ptx_modifier)(held ? held->ids[i] : in->mods[i].id);
            I->types[ntypes] = id;
            if (id)
                I->tcls[ntypes] = sema_mod_class_of(S, id);
            ntypes++;
        }
    }
    if (I->spaces != 1)
        I->space = NULL;
    /* ptxas 13: "Program uses 32-bit address", then no 32-bit compilation
     * (an .address_size 32 module has had its error at the directive) */
    sh->cvta32 = form && ntypes == 1 && I->types[0] == PTX_MOD_U32 &&
                 S->m->address_size != 32 && ptx_name_is(ptx_instr_opcode(in), "cvta");
    sh->call = form && ptx_name_is(ptx_instr_opcode(in), "call");
}

static bool shape_home(const void *entry, size_t *hash)
{
    const shape *sh = entry;
    if (!sh->mods)
        return false;
    *hash = shape_hash(sh->mods, sh->form);
    return true;
}

static void shapes_grow(sema *S)
{
    S->shapes = table_double(S, S->shapes, &S->shapes_mask, 256, sizeof *S->shapes, shape_home);
    /* the answers point at shapes */
    if (S->answers)
        memset(S->answers, 0, ANSWERS * sizeof *S->answers);
}

/* The shape of `in`, whose modifiers are shared with the instructions
 * written alike, made on first need. */
static shape *shape_of(sema *S, const ptx_instr *in, const ptx_isa_form *form)
{
    size_t i = shape_hash(in->mods, form) & S->shapes_mask;
    for (;;) {
        shape *sh = &S->shapes[i];
        if (sh->mods == in->mods && sh->form == form)
            return sh;
        if (!sh->mods)
            break;
        i = (i + 1) & S->shapes_mask;
    }
    if ((S->nshapes + 1) * 2 > S->shapes_mask + 1) {
        shapes_grow(S);
        i = shape_hash(in->mods, form) & S->shapes_mask;
        while (S->shapes[i].mods)
            i = (i + 1) & S->shapes_mask;
    }
    S->nshapes++;
    shape_fill(S, &S->shapes[i], in, form, NULL);
    return &S->shapes[i];
}

/* Would check_constant say nothing of an integer constant as operand op
 * of I's instruction?  (check_expr_names has nothing to say of one.) */
static bool int_fits(const ictx *I, const ptx_isa_operand *op)
{
    if (!op || !op->tkind)
        return true;
    tclass w = wanted(I, op);
    return !w.k || w.k == 'p' || !sema_constant_refused(w, 'i');
}

/* Does operand i of sh's instructions go no further: a register (s) of
 * its type, or an integer constant (s NULL)?  Asked once per operand and
 * type for the first few operands; in is the instruction asking. */
static inline bool slot_fits(shape *sh, const ptx_instr *in, unsigned i,
                             const ptx_isa_operand *op, const sym *s)
{
    sh->I.in = in;
    if (i >= SHAPE_OPS)
        return s ? register_fits(&sh->I, op, s) : int_fits(&sh->I, op);
    uint32_t bit = s ? 1u << s->type : SHAPE_INT;
    if (!(sh->asked[i] & bit)) {
        sh->asked[i] |= bit;
        if (s ? register_fits(&sh->I, op, s) : int_fits(&sh->I, op))
            sh->fit[i] |= bit;
    }
    return (sh->fit[i] & bit) != 0;
}

/* The operands of `in` (sy: their symbols, sig: their signature, as
 * sema_check_instr found them): the operands the matched form has, then any it
 * lacks; a register or constant that fits goes no further.  Returns
 * which of the first ANSWER_OPS went to sema_check_operand (bit i). */
static unsigned check_operands(sema *S, shape *sh, const ptx_instr *in, const ptx_isa_form *form,
                               const sym *const *sy, uint64_t sig)
{
    const unsigned nops = in->nops;
    const ptx_expr *const ops = in->ops;
    unsigned checked = 0;
    unsigned nform = form ? (form->nops < nops ? form->nops : nops) : 0;
    for (unsigned i = 0; i < nops; i++) {
        const ptx_isa_operand *op = i < nform ? &form->ops[i] : NULL;
        const sym *s = sy[i];
        if (s) {
            if (s->kind == S_REG && !s->vec && slot_fits(sh, in, i, op, s))
                continue;
            /* a label where labels go (check_name) */
            if (s->kind == S_LABEL && (!op || (op->accept & PTX_ACC_LABEL)))
                continue;
        } else if (ops[i].kind == PTX_EXPR_INT && slot_fits(sh, in, i, op, NULL)) {
            continue;
        }
        sh->I.in = in;
        sema_check_operand(S, &sh->I, &ops[i], op);
        checked |= i < ANSWER_OPS ? 1u << i : 0;
        sig = 0;
    }
    if (sig)
        sh->sig = sig;
    return checked;
}

/* An operand's part of an answer's key (answer), 0 for an operand that
 * has none: a scalar register (s), 1 + its type; a vector register,
 * ANSWER_VREG and its type; another symbol (a variable, a label, a
 * function), ANSWER_SYM and its kind; an address that cannot be an
 * image's, ANSWER_ADDR; a vector {...} of up to 15 names without a
 * selector, sinks and literals, ANSWER_VEC, which of those kinds it
 * holds and its size; an integer literal below 0x8000, ANSWER_INT and
 * its value; one from 0 to 255 negated, ANSWER_NEG and its value.  That
 * holds what the validator reads of the operand (isa_check.c, the key of
 * instructions written alike: the kind, the register class, which a
 * register's type gives and which is PTX_RC_UNKNOWN for another symbol,
 * an address and a vector; whether a name is WARP_SZ, never in a key;
 * a vector's size and the kinds of its elements; a literal's value) and
 * what check_operands does (a scalar register's type; a label). */
enum {
    ANSWER_VREG = 0x20, ANSWER_SYM = 0x40, ANSWER_ADDR = 0x80, ANSWER_VEC = 0x100,
    ANSWER_NEG = 0x200, ANSWER_INT = 0x8000
};
_Static_assert((int)PTX_TYPE_COUNT < (int)ANSWER_VREG, "a register's part is 1 + its type");

static inline bool is_warp_sz_name(const ptx_name *n)
{
    return n->len == 7 && ptx_name_is(n, "WARP_SZ");
}

/* The element kinds of a vector in its part (ANSWER_VEC); 0 for another */
static unsigned vec_item(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM:
        return ptx_expr_sel(e) || is_warp_sz_name(ptx_expr_name(e)) ? 0 : 1;
    case PTX_EXPR_SINK:
        return 2;
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
        return 4;
    default:
        return 0;
    }
}

/* The part of operand e, not a name without a selector (answer_part) */
static unsigned answer_part_other(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT:
        return !(e->flags & PTX_EXPR_BOXED) && e->u.i < ANSWER_INT ? ANSWER_INT | (unsigned)e->u.i
                                                                  : 0;
    case PTX_EXPR_ADDR:
        return ptx_expr_count(e) == 2 && ptx_expr_a(e)->kind == PTX_EXPR_SYM ? 0 : ANSWER_ADDR;
    case PTX_EXPR_UNARY: {
        const ptx_expr *a = ptx_expr_a(e);
        return e->op == PTX_OP_NEG && a->kind == PTX_EXPR_INT && !(a->flags & PTX_EXPR_BOXED) &&
               a->u.i <= 0xFF ? ANSWER_NEG | (unsigned)a->u.i : 0;
    }
    case PTX_EXPR_VEC: {
        unsigned n = ptx_expr_count(e), kinds = 0;
        if (n > 15)
            return 0;
        for (unsigned i = 0; i < n; i++) {
            unsigned k = vec_item(ptx_expr_item(e, i));
            if (!k)
                return 0;
            kinds |= k;
        }
        return ANSWER_VEC | kinds << 4 | n;
    }
    default:
        return 0;
    }
}

/* The part of operand e, whose symbol is s (a name without a selector
 * that names one), or NULL */
static inline unsigned answer_part(const ptx_expr *e, const sym *s)
{
    if (e->kind != PTX_EXPR_SYM)
        return answer_part_other(e);
    if (!s || is_warp_sz_name(ptx_expr_name(e)))
        return 0;
    if (s->kind != S_REG)
        return ANSWER_SYM | s->kind;
    return s->vec ? ANSWER_VREG | s->type : 1u + s->type;
}

/* The slot of the answer for modifiers mods and operands' parts ops (a
 * key of sema_check_instr's).  The module's version and target, which the
 * key leaves out, are those of all the answers: the module's header
 * comes before its items, and the tables are set up for one module
 * (sema_setup). */
static inline answer *answer_of(sema *S, const ptx_mod *mods, const uint64_t *ops)
{
    uint64_t h = ((uint64_t)(uintptr_t)mods ^ ops[0] ^ (ops[1] * 0xbf58476d1ce4e5b9ULL)) *
                 0x9e3779b97f4a7c15ULL;
    return &S->answers[(h >> 40) & (ANSWERS - 1)];
}

/* What sema_check_instr checks first of an instruction of shape sh: the
 * shape's own error, the guard. */
static void check_first(sema *S, const shape *sh, const ptx_instr *in)
{
    if (sh->cvta32)
        sema_error(S, PTX_DIAG_TYPE, in->base.span,
              "'cvta' with .u32 makes a 32-bit address, which ptxas 13 no longer compiles (write .u64)");
    check_guard(S, in);
}

/* An instruction whose closest form needs a newer version or target
 * (fit->held): its operands checked against that form, so that a
 * register of the wrong type is the error (ld.global.v4.f64 of .f32
 * registers at 8.0: the .f32 registers, not the 8.8 that .v4.f64 needs),
 * the version or target then a note; else the version or target is. */
/* The type of the first register among in's operands (or in a vector
 * of them) declared otherwise than `not`; NULL when none is. */
static const char *register_type(sema *S, const ptx_instr *in, const char *not)
{
    for (unsigned i = 0; i < in->nops; i++) {
        const ptx_expr *e = &in->ops[i];
        unsigned n = e->kind == PTX_EXPR_VEC ? ptx_expr_count(e) : 1;
        for (unsigned k = 0; k < n; k++) {
            const ptx_expr *x = e->kind == PTX_EXPR_VEC ? ptx_expr_item(e, k) : e;
            if (x->kind != PTX_EXPR_SYM || ptx_expr_sel(x))
                continue;
            const sym *s = lookup(S, ptx_expr_name(x));
            if (s && s->kind == S_REG && s->type != PTX_TYPE_PRED && strcmp(ptx_type_name(s->type), not) != 0)
                return ptx_type_name(s->type);
        }
    }
    return NULL;
}

static void check_held(sema *S, const ptx_instr *in, const sym *const *sy, const uint8_t *rc,
                       const ptx_isa_fit *fit)
{
    shape sh;
    shape_fill(S, &sh, in, fit->held, fit);
    sh.cvta32 = sh.call = false;
    check_first(S, &sh, in);
    size_t before = S->ctx->ndiags;
    check_operands(S, &sh, in, fit->held, sy, 0);
    bool typed = false;
    for (size_t k = before; k < S->ctx->ndiags && !typed; k++)
        typed = S->ctx->diags[k].severity == PTX_SEV_ERROR && S->ctx->diags[k].code == PTX_DIAG_TYPE;
    if (S->ctx->stopped)
        return;
    ptx_isa_report_level(S->ctx, S->m, in, fit, typed);
    /* the registers' type may be the one meant: .v4.f32 is there at 8.0 */
    for (unsigned t = 0; typed && t < in->nmods; t++) {
        if (fit->cats[t] != PTX_CAT_TYPE)
            continue;
        const char *type = register_type(S, in, in->mods[t].name->text);
        if (type)
            ptx_isa_suggest_type(S->ctx, S->m, in, fit, rc, type);
        break;
    }
}

/* sema_check_instr for an instruction with no answer: the validator, the
 * shape, the operands; the answer remembered when there is one to key
 * (key) and the validator accepted.  sy: the operands' symbols. */
static void check_afresh(sema *S, ptx_instr *in, const sym *const *sy, const uint64_t *key)
{
    const unsigned nops = in->nops;
    const ptx_expr *const ops = in->ops;
    /* each operand's register class for the tables (name_class); and the
     * operands' signature: when every one is a scalar register or an
     * integer constant, a 1 then 5 bits each (its type, or SIG_INT); 0
     * once one is neither */
    uint8_t rc_small[64];
    uint8_t *rc = nops > 64 ? ptx_arena_alloc(&S->ctx->arena, nops) : rc_small;
    uint64_t sig = nops <= SIG_OPS;
    for (unsigned i = 0; i < nops; i++) {
        const sym *s = sy[i];
        if (!s) {
            sig = sig && ops[i].kind == PTX_EXPR_INT ? sig << 5 | SIG_INT : 0;
            rc[i] = name_class(S, &ops[i]);
        } else if (s->kind == S_REG) {
            sig = sig && !s->vec ? sig << 5 | s->type : 0;
            rc[i] = s->type == PTX_TYPE_PRED ? PTX_RC_PRED : PTX_RC_OTHER;
        } else {
            sig = 0;
            rc[i] = PTX_RC_UNKNOWN;
        }
    }
    ptx_mod *written = in->mods;
    ptx_isa_fit fit;
    const ptx_isa_form *form = ptx_isa_check(S->ctx, S->m, in, rc, &fit);
    if (form)
        record_fit(S, in, &fit);
    if (fit.held && S->ctx->no_sema)
        ptx_isa_report_level(S->ctx, S->m, in, &fit, false);
    if (S->ctx->no_sema)
        return;
    if (fit.held) {
        check_held(S, in, sy, rc, &fit);
        return;
    }
    /* an instruction of its own modifiers has a shape of its own */
    shape own, *sh = &own;
    if (in->flags & PTX_INSTR_SHARED_MODS)
        sh = shape_of(S, in, form);
    else
        shape_fill(S, sh, in, form, NULL);
    check_first(S, sh, in);
    /* operands of the signature that went no further last time go no
     * further again: what slot_fits answers depends on the shape and
     * the types alone */
    unsigned checked = 0;
    if (!sig || sig != sh->sig)
        checked = check_operands(S, sh, in, form, sy, sig);
    if (sh->call) {
        sh->I.in = in;
        sema_check_call(S, &sh->I);
    }
    /* (shape_of may have moved the shapes and emptied the answers: the
     * slot is found now) */
    if (key && form)
        *answer_of(S, written, key) = (answer){ written, { key[0], key[1] }, in->family,
                                                (uint8_t)checked, form, in->mods, sh };
}

void sema_check_instr(sema *S, ptx_instr *in)
{
    /* each operand's symbol, for one that is a name with no selector:
     * looked up once; and the operands' parts of the answer's key, when
     * the instruction has one (keyed) */
    const unsigned nops = in->nops;
    const ptx_expr *const ops = in->ops;
    const sym *sy_small[64];
    const sym **sy = sy_small;
    if (nops > 64)
        sy = ptx_arena_alloc(&S->ctx->arena, nops * sizeof *sy);
    bool keyed = nops <= ANSWER_OPS && (in->flags & PTX_INSTR_SHARED_MODS) && !S->ctx->no_sema;
    union { uint64_t w[2]; uint16_t part[ANSWER_OPS]; } key = { { 0, 0 } };
    for (unsigned i = 0; i < nops; i++) {
        const ptx_expr *e = &ops[i];
        const sym *s = NULL;
        if (e->kind == PTX_EXPR_SYM && !ptx_expr_sel(e))
            s = lookup(S, ptx_expr_name(e));
        sy[i] = s;
        if (keyed) {
            unsigned part = answer_part(e, s);
            key.part[i] = (uint16_t)part;
            keyed = part != 0;
        }
    }
    const answer *a = keyed ? answer_of(S, in->mods, key.w) : NULL;
    if (!a || a->mods != in->mods || a->ops[0] != key.w[0] || a->ops[1] != key.w[1]) {
        check_afresh(S, in, sy, keyed ? key.w : NULL);
        return;
    }
    /* as check_afresh would find and do */
    in->family = a->family;
    in->mods = a->validated;
    shape *sh = a->sh;
    check_first(S, sh, in);
    sh->I.in = in;
    const ptx_isa_form *form = a->form;
    for (unsigned i = 0, c = a->check; c; i++, c >>= 1)
        if (c & 1)
            sema_check_operand(S, &sh->I, &ops[i], i < form->nops ? &form->ops[i] : NULL);
    if (sh->call)
        sema_check_call(S, &sh->I);
}

/* Names in .branchtargets (labels) and .calltargets (functions). */
void sema_check_targets(sema *S, const ptx_targets *t)
{
    for (uint32_t i = 0; i < t->count; i++) {
        const ptx_expr *e = t->names[i];
        if (e->kind != PTX_EXPR_SYM)
            continue;
        sym *s = lookup(S, ptx_expr_name(e));
        if (!s)
            sema_unknown_symbol(S, e);
        else if (t->is_branch && s->kind != S_LABEL)
            sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e), "'%s' is a %s: .branchtargets lists labels",
                  ptx_expr_name(e)->text, sema_kind_word(s));
        else if (!t->is_branch && s->kind != S_FUNC)
            sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
                  "'%s' is a %s: .calltargets lists functions", ptx_expr_name(e)->text, sema_kind_word(s));
    }
}

/* Calls fn for each name in `e` (of statement `stmt`), in source order; a
 * field initialiser's value is a word, not a symbol (addr_mode_0 =
 * clamp_to_border). */
void sema_each_name(sema *S, const ptx_node *stmt, const ptx_expr *e,
                      void (*fn)(sema *, const ptx_node *, const ptx_expr *))
{
    if (e->kind == PTX_EXPR_SYM) {
        fn(S, stmt, e);
        return;
    }
    if (e->kind == PTX_EXPR_FIELD || ptx_expr_is_leaf(e) || e->kind == PTX_EXPR_RANGE)
        return;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        sema_each_name(S, stmt, ptx_expr_item(e, i), fn);
}

/* A name in an initialiser: a variable or function declared before. */
void sema_check_init_name(sema *S, const ptx_node *stmt, const ptx_expr *e)
{
    (void)stmt;
    sym *s = lookup(S, ptx_expr_name(e));
    if (!s && !ptx_name_is(ptx_expr_name(e), "WARP_SZ"))
        sema_unknown_symbol(S, e);
    else if (s && s->kind != S_VAR && s->kind != S_FUNC)
        sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
              "'%s' is a %s: an initialiser takes the address of a variable or function",
              ptx_expr_name(e)->text, sema_kind_word(s));
}


/* The caches' tables (and the type classes' of modifiers), made with the
 * pass's other tables; out of memory jumps to *S->oom. */
void sema_caches_setup(sema *S)
{
    shapes_grow(S);
    S->mod_classes = ptx_ctx_calloc(S->ctx, PTX_MOD_COUNT, sizeof *S->mod_classes);
    S->mod_known = ptx_ctx_calloc(S->ctx, PTX_MOD_COUNT, 1);
    S->fit_memo = ptx_ctx_calloc(S->ctx, FIT_MEMO_SIZE, sizeof *S->fit_memo);
    S->answers = ptx_ctx_calloc(S->ctx, ANSWERS, sizeof *S->answers);
    if (!S->mod_classes || !S->mod_known || !S->fit_memo || !S->answers)
        longjmp(*S->oom, 1);
}

void sema_caches_free(sema *S)
{
    ptx_ctx_free(S->ctx, S->mod_classes, PTX_MOD_COUNT * sizeof *S->mod_classes);
    ptx_ctx_free(S->ctx, S->mod_known, PTX_MOD_COUNT);
    ptx_ctx_free(S->ctx, S->fit_memo, FIT_MEMO_SIZE * sizeof *S->fit_memo);
    ptx_ctx_free(S->ctx, S->shapes, (S->shapes_mask + 1) * sizeof *S->shapes);
    ptx_ctx_free(S->ctx, S->answers, ANSWERS * sizeof *S->answers);
}
