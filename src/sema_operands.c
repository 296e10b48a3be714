/* The semantic pass: operands (names, constants, addresses, vectors)
 * against what the matched form wants, and calls against the callee. */
#include "sema_impl.h"

/* ---- operands --------------------------------------------------------------- */





/* wanted for the fifth type modifier and after, which I does not hold */
tclass sema_wanted_late(const ictx *I, const ptx_isa_operand *op)
{
    ptx_modifier id = ptx_instr_modifier(I->in, PTX_CAT_TYPE, op->tbits - 1u);
    if (!id)
        return (tclass){ 0, 0 };
    tclass c = sema_mod_class_of(I->S, id);
    if (op->tflags & PTX_OT_WIDE)
        c.bits *= 2;
    return c;
}

static bool target_at_least(const sema *S, unsigned sm)
{
    return !S->target || S->target >= sm;
}

void sema_unknown_symbol(sema *S, const ptx_expr *e)
{
    const ptx_name *n = ptx_expr_name(e);
    const char *t = n->text;
    if (t[0] == '%' && t[1] >= '0' && t[1] <= '9')
        sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
              "unknown symbol '%s': an inline-asm operand placeholder is not PTX "
              "(write the register it stands for)", t);
    else if (S->visit)
        return;
    else {
        /* "did you mean": the names in scope now (not the numbered ones of
         * a %r<N> range), by edit distance; a bounded number of times, as
         * each offers every name in scope; a name of fewer than four characters
         * is too close to too many to guess */
        char hint[PTX_SUGGEST_TEXT] = "";
        ptx_suggest sg;
        ptx_suggest_init(&sg, t, n->len);
        if (S->singles && n->len >= 4 && S->suggested < 64) {
            S->suggested++;
            /* the single names in scope are those of the symbols of the
             * open scopes (a hidden one names what hides it), offered in
             * the order they were declared */
            for (size_t i = 0; i < S->nundo; i++)
                if (!S->undo[i]->range)
                    ptx_suggest_offer(&sg, S->undo[i]->name->text, S->undo[i]->name->len);
            ptx_suggest_text(&sg, hint, sizeof hint);
        }
        ptx_diag_add_fix(S->ctx, PTX_SEV_ERROR, PTX_DIAG_SYMBOL, ptx_expr_span(e), hint[0] ? ptx_suggest_fix(&sg) : NULL,
                         "unknown symbol '%s'%s", t, hint);
    }
}

/* A component a vector special register may be read with: ptxas 13.0
 * takes a vector's colour names too, .r .g .b .a for .x .y .z .w
 * (mov.u32 %r1, %tid.r reads %tid.x), and .w */
static bool sreg_component(const char *sel)
{
    static const char *const names[] = { ".x", ".y", ".z", ".w", ".r", ".g", ".b", ".a" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(sel, names[i]) == 0)
            return true;
    return false;
}

/* A special register named by `e` (a SYM with no declaration): checks its
 * selector and the version and target it needs; returns its type, or a
 * class with k 0 when it is not one. */
static tclass special(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op,
                      bool *found)
{
    const sreg *r = sema_sreg_find(ptx_expr_name(e));
    *found = r != NULL;
    if (!r)
        return (tclass){ 0, 0 };
    const char *name = ptx_expr_name(e)->text;
    const ptx_name *sel = ptx_expr_sel(e);
    ptx_span sp = ptx_expr_span(e);
    const char *sel_text = sel ? sel->text : "";    /* for messages: %tid.x as written */
    if (sel && !r->vec) {
        sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' has no components: write '%s' without '%s'", name,
              name, sel->text);
        return (tclass){ 0, 0 };
    }
    if (sel && !sreg_component(sel->text)) {
        sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' has components .x, .y and .z, not '%s'", name,
              sel->text);
        return (tclass){ 0, 0 };
    }
    unsigned v = r->major * 10u + r->minor;
    if (S->version && S->version < v)
        sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' needs PTX ISA %u.%u (the module is .version %u.%u)",
              name, r->major, r->minor, S->m->version_major, S->m->version_minor);
    else if (r->sm && !target_at_least(S, r->sm))
        sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' needs .target sm_%u or later", name, r->sm);
    /* only the operands marked '$' (mov's and cvt's sources) read special
     * registers: ptxas refuses them everywhere else, typed or not */
    if (!I || !op)
        return (tclass){ 0, 0 };
    if (r->kind == 'p' && (op->accept & PTX_ACC_PRED))
        return (tclass){ 0, 0 };    /* %is_explicit_cluster where a predicate goes */
    if (!(op->tflags & PTX_OT_SREG)) {
        sema_error(S, PTX_DIAG_TYPE, sp,
              "special register '%s%s' cannot be an operand of '%s': copy it into a register "
              "with mov first", name, sel_text, I->op);
        return (tclass){ 0, 0 };
    }
    if (r->vec && !sel && !(op->accept & PTX_ACC_VEC)) {
        sema_error(S, PTX_DIAG_TYPE, sp, "'%s' is a vector: name one component ('%s.x')", name, name);
        return (tclass){ 0, 0 };
    }
    if (!op->tkind)
        return (tclass){ 0, 0 };
    tclass c = { r->kind, r->bits };
    tclass w = wanted(I, op);
    /* the legacy widths: 16 bits up to the recorded one (ptxas 13.0
     * reads %gridid, .u64 since PTX 3.0, as 16 and 32 bits as well) */
    if (w.k && r->legacy && w.bits >= 16 && w.bits <= r->legacy && sema_is_int(w.k))
        return (tclass){ 0, 0 };
    return c;
}

static void mismatch(sema *S, const ictx *I, const ptx_expr *e, tclass want, tclass have,
                     const char *what)
{
    char b1[16], b2[16];
    sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e),
          "operand '%s' of '%s' is %s %s; the instruction needs %s", ptx_expr_name(e)->text,
          I->op, what, sema_class_name(have, b1, sizeof b1), sema_class_name(want, b2, sizeof b2));
}

static bool space_fits(const char *mod, unsigned vs);

/* cvta.SPACE makes a generic address of a SPACE one: a variable it names
 * (cvta.shared.u64 %rd1, sh; sh+4 too) must be in that space (ptxas 13.0:
 * "State space mismatch between instruction and address") */
static void check_cvta_space(sema *S, const ictx *I, const ptx_expr *e, const sym *s)
{
    if (I->in->family == PTX_FAMILY_CVTA && I->space && I->spaces == 1 && s->kind == S_VAR &&
        !space_fits(I->space, s->space))
        sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e), "'%s' is a %s variable: 'cvta%s' converts "
                   "%s addresses", ptx_expr_name(e)->text, ptx_space_name(s->space), I->space,
                   I->space);
}

/* A name as a value operand (not in an address): resolved, and checked
 * against what the operand wants. */
static void check_name(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op)
{
    const ptx_name *name = ptx_expr_name(e);
    sym *s = lookup(S, name);
    ptx_span sp = ptx_expr_span(e);
    bool typed = op && op->tkind;
    bool label_ok = op && (op->accept & PTX_ACC_LABEL);
    if (!s) {
        if (ptx_name_is(name, "WARP_SZ") && !ptx_expr_sel(e))
            return;
        bool found;
        tclass c = special(S, I, e, op, &found);
        if (!found) {
            sema_unknown_symbol(S, e);
            return;
        }
        tclass w = typed ? wanted(I, op) : (tclass){ 0, 0 };
        if (c.k && !fits(w, c, op && (op->tflags & PTX_OT_RELAXED)))
            mismatch(S, I, e, w, c, "a special register of type");
        return;
    }
    if (s->kind == S_LABEL) {
        if (!label_ok && op)
            sema_error(S, PTX_DIAG_SYMBOL, sp,
                  "'%s' is a label: only branches and branch-target lists take labels",
                  name->text);
        return;
    }
    if (label_ok && !(op->accept & (PTX_ACC_NAME | PTX_ACC_PRED))) {
        /* a variable is a jump table there (call (r), %r0, (x), jmptbl) */
        if (s->kind == S_REG)
            sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' is a %s: '%s' needs a label or a function name here",
                  name->text, sema_kind_word(s), I->op);
        return;
    }
    if (s->kind == S_FUNC)
        /* ptxas 13.0 takes a function's name as a value operand of any
         * type (add.s32 %r1, %r2, f; add.f64; setp; cvt: its address),
         * though not in arithmetic (f+4, check_expr_names) */
        return;
    if (s->kind == S_VAR) {
        check_cvta_space(S, I, e, s);
        if (op && (op->accept & PTX_ACC_PRED) && !(op->accept & PTX_ACC_NAME)) {
            /* mov.pred %p1, g: "Arguments mismatch" */
            sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' is a %s variable: '%s' takes a .pred register "
                       "here", name->text, ptx_space_name(s->space), I->op);
            return;
        }
        if (typed && !(op->tflags & PTX_OT_SYMADDR))
            sema_error(S, PTX_DIAG_SYMBOL, sp,
                  "'%s' is a %s variable, not a register: load it with ld%s, or take its "
                  "address with mov", name->text, ptx_space_name(s->space),
                  ptx_space_name(s->space));
        else if (typed && (wanted(I, op).k == 'f' || wanted(I, op).k == 'p'))
            /* an address is an integer: mov.f32 %f1, g is "Arguments mismatch" */
            sema_error(S, PTX_DIAG_TYPE, sp, "'%s' is a %s variable: its address is an integer, not "
                  "a %s value", name->text, ptx_space_name(s->space),
                  ptx_isa_mod_names[ptx_instr_modifier(I->in, PTX_CAT_TYPE, 0)]);
        else if (typed && !I->element && s->space == PTX_SPACE_GLOBAL &&
                 wanted(I, op).bits == 32)
            /* other spaces' addresses fit 32 bits; ptxas 13 makes a
             * 32-bit program of a 32-bit .global address, and refuses it */
            sema_error(S, PTX_DIAG_TYPE, sp, "'%s' is a .global variable: its address needs 64 bits "
                  "(ptxas 13 compiles 64-bit programs only)", name->text);
        return;
    }
    /* a register */
    const ptx_name *sel = ptx_expr_sel(e);
    if (sel && !s->vec && sema_is_component(sel->text)) {
        sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' is a register declared %s, not a vector: it has no "
              "component '%s'", name->text, ptx_type_name(s->type), sel->text);
        return;
    }
    if (sel && !s->vec && op && !op->selector) {
        /* r.b0, r.h1: only the video instructions' operands take a byte or
         * half-word selector (ptxas 13.0: "Video selector is not allowed
         * on source operand", "... on destination") */
        sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s%s': a byte or half-word selector is taken by the "
                   "video instructions (vadd, vset, ...) only, not by '%s'", name->text, sel->text,
                   I->op);
        return;
    }
    if (!sel && !s->vec && op && !I->element && (op->accept & PTX_ACC_VEC) &&
        op->vec == PTX_VEC_FROM_MOD && sema_vector_modifier(I->in) > 1) {
        sema_error(S, PTX_DIAG_TYPE, sp, "'%s' of '%s' is a scalar register: '.v%u' needs a vector "
              "{...} of %u registers", name->text, I->op, sema_vector_modifier(I->in),
              sema_vector_modifier(I->in));
        return;
    }
    if (!typed)
        return;
    tclass r = s->cls;
    if (s->vec && !sel)
        return;                 /* a whole vector register */
    tclass w = wanted(I, op);
    if (!fits(w, r, op->tflags & PTX_OT_RELAXED))
        mismatch(S, I, e, w, r, "declared");
}

static void check_constant(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op);
/* vmad is the one instruction whose register sources take a '-', as
 * ptxas 13.0 reads it: a and b (either or both: the product negated) or c
 * alone, never the destination, and not with .po ("Operand negation
 * limited to either (source A xor source B)", "Conflicting use of '.po'
 * modifier with operand negation").  e is -r, an operand of I's vmad. */
static bool negated(const ptx_expr *e)
{
    return e->kind == PTX_EXPR_UNARY && e->op == PTX_OP_NEG;
}

static void check_vmad_negation(sema *S, const ictx *I, const ptx_expr *e)
{
    const ptx_instr *in = I->in;
    size_t at = (size_t)(e - in->ops);     /* an operand; the tables take no -d */
    bool po = false;
    for (unsigned i = 0; i < in->nmods; i++)
        po |= ptx_name_is(in->mods[i].name, ".po");
    if (po)
        sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "vmad.po takes no negated operand");
    else if (at == 3 && (negated(&in->ops[1]) || negated(&in->ops[2])))
        sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "vmad negates the product (a, b) or c, "
                   "not both");
    else
        sema_check_operand(S, I, ptx_expr_a(e),
                           I->form && at < I->form->nops ? &I->form->ops[at] : NULL);
}

/* Names inside a constant-looking expression (mov.u64 %rd1, g+4): each
 * must be declared. */
static void check_expr_names(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op)
{
    if (e->kind == PTX_EXPR_SYM) {
        const ptx_name *name = ptx_expr_name(e);
        if (ptx_name_is(name, "WARP_SZ"))
            return;
        sym *s = lookup(S, name);
        bool found = false;
        if (!s)
            special(S, NULL, e, NULL, &found);
        if (!s && !found)
            sema_unknown_symbol(S, e);
        else if (s && s->kind == S_LABEL)
            sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
                  "'%s' is a label: only branches and branch-target lists take labels",
                  name->text);
        else if (s && s->kind == S_FUNC && op)
            /* an operand's expression, not a bare name (check_name) */
            sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
                  "'%s' is a function: its address is taken alone, not in arithmetic "
                  "(f+4, -f)", name->text);
        else if (s && s->kind == S_VAR && I->in->family == PTX_FAMILY_CVTA)
            check_cvta_space(S, I, e, s);
        else if (s && (s->kind == S_VAR || s->kind == S_FUNC) && op && op->tkind &&
                 !(op->tflags & PTX_OT_SYMADDR) && !sema_is_int(wanted(I, op).k))
            /* ptxas takes an address in an expression (add.u64 %rd1,
             * %rd1, g+4) for integer and bit operands; a bare name is
             * "must be register" (check_name) */
            sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
                  "'%s' is a %s: its address is an integer, not a %s value", name->text,
                  sema_kind_word(s), ptx_isa_mod_names[ptx_instr_modifier(I->in, PTX_CAT_TYPE, 0)]);
        return;
    }
    if (ptx_expr_is_leaf(e) || e->kind == PTX_EXPR_RANGE)
        return;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        check_expr_names(S, I, ptx_expr_item(e, i), op);
}

/* Why ptxas refuses constant kind k (sema_literal_kind) for an operand that
 * wants w, as a message taking the opcode and the type, or NULL when it
 * takes it (asked type by type). */
const char *sema_constant_refused(tclass w, char k)
{
    if ((w.k == 'f' && w.bits == 16) || w.k == 'x' || w.k == 'B')
        return "'%s' takes no constant as a %s operand: put the value in a register first";
    if (w.k == 'f' && k == 'i')
        return "an integer constant where '%s' needs a %s value: write a floating-point "
               "constant (1.0, 0f3F800000)";
    if ((w.k == 'u' || w.k == 's') && k != 'i')
        return "a floating-point constant where '%s' needs an integer (%s)";
    if (w.k == 'b' && k == 'f' && w.bits != 64)
        return "a decimal floating-point constant where '%s' needs %s bits: write it in hex "
               "(0f3F800000)";
    if (w.k == 'b' && k == 'h' && w.bits != 32)
        return "a 0f constant where '%s' needs %s bits: 0f is 32 bits, 0d 64";
    if (w.k == 'b' && k == 'd' && w.bits != 64)
        return "a 0d constant where '%s' needs %s bits: 0f is 32 bits, 0d 64";
    return NULL;
}

/* What ptxas refuses inside a constant expression of an operand, whatever
 * the operand's type: a division by zero, integers and floating-point
 * values mixed in one operation (2.0*3), a floating-point condition of
 * ?: (1.0?2:3).  Reports the first and returns true. */
static bool const_expr_fault(sema *S, const ptx_expr *e)
{
    if (ptx_expr_is_leaf(e) || e->kind == PTX_EXPR_RANGE || e->kind == PTX_EXPR_VEC ||
        e->kind == PTX_EXPR_ADDR || e->kind == PTX_EXPR_LIST)
        return false;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        if (const_expr_fault(S, ptx_expr_item(e, i)))
            return true;
    if (e->kind == PTX_EXPR_COND) {
        char c = sema_literal_kind(ptx_expr_item(e, 0));
        if (c == 'f' || c == 'h' || c == 'd' || c == 'm') {
            sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(ptx_expr_item(e, 0)),
                  "the condition of ?: must be an integer constant expression");
            return true;
        }
        return false;
    }
    if (e->kind != PTX_EXPR_BINARY)
        return false;
    char a = sema_literal_kind(ptx_expr_a(e)), b = sema_literal_kind(ptx_expr_b(e));
    /* 0f and 0d constants in an expression have their own error */
    if ((a == 'f' && b == 'i') || (b == 'f' && a == 'i')) {
        sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "integer and floating-point constants mixed "
              "in one operation: write both as one kind (2.0*3.0)");
        return true;
    }
    int64_t v;
    if ((e->op == PTX_OP_DIV || e->op == PTX_OP_MOD) && a == 'i' && b == 'i' &&
        ptx_isa_const_value(ptx_expr_b(e), &v) && v == 0) {
        sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "division by zero in a constant expression");
        return true;
    }
    return false;
}

static void check_constant(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op)
{
    if (const_expr_fault(S, e))
        return;
    if (!op)
        return;
    char k = sema_literal_kind(e);
    char pb[16];
    /* a predicate operand of no :TYPE (mov.pred's, and.pred's): as :pred */
    tclass w = op->tkind ? wanted(I, op)
               : (op->accept & PTX_ACC_PRED) ? sema_decl_class(PTX_TYPE_PRED) : (tclass){ 0, 0 };
    if (!w.k)
        return;
    if (w.k == 'p' && (k == 'f' || k == 'h' || k == 'd')) {
        /* ptxas takes an integer for a predicate (mov.pred %p1, 1), not 1.0 */
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "a floating-point constant where '%s' needs "
              "a %s value: write 0 or 1", I->op, sema_class_name(w, pb, sizeof pb));
        return;
    }
    if (!w.k || w.k == 'p' || !k || k == 'm')
        return;
    const char *why = sema_constant_refused(w, k);
    char buf[16];
    if (why)
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e), why, I->op, sema_class_name(w, buf, sizeof buf));
}

static bool is_shared_space(const char *s)
{
    return !strncmp(s, ".shared", 7);
}

/* Does variable space `vs` fit the instruction's space modifier? */
static bool space_fits(const char *mod, unsigned vs)
{
    if (!mod)
        return vs != PTX_SPACE_PARAM;       /* generic addressing */
    if (is_shared_space(mod))
        return vs == PTX_SPACE_SHARED;
    if (!strncmp(mod, ".param", 6))
        return vs == PTX_SPACE_PARAM;
    if (!strcmp(mod, ".global"))
        return vs == PTX_SPACE_GLOBAL;
    if (!strcmp(mod, ".const"))
        return vs == PTX_SPACE_CONST;
    if (!strcmp(mod, ".local"))
        return vs == PTX_SPACE_LOCAL;
    return true;
}

/* The opcodes whose generic and .global addresses ptxas 13 takes as
 * 64-bit only (a 32-bit register there is "32-Bit ABI ... not supported");
 * asked of ptxas one by one: cp.async, ldmatrix, wmma, tcgen05 and
 * others take a 32-bit register. */
static bool wants_64bit_address(const char *op)
{
    static const char *const ops[] = {
        "ld", "st", "ldu", "atom", "red", "mbarrier", "prefetch", "prefetchu", "multimem",
        "applypriority", "discard",
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(op, ops[i]))
            return true;
    return false;
}

/* An immediate address: an integer constant expression, names none but
 * WARP_SZ ([4], [-4], [1+2], [WARP_SZ*4]) */
static bool immediate(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT:
        return true;
    case PTX_EXPR_SYM:
        return !ptx_expr_sel(e) && ptx_name_is(ptx_expr_name(e), "WARP_SZ");
    case PTX_EXPR_UNARY: case PTX_EXPR_PAREN: case PTX_EXPR_CAST: case PTX_EXPR_BINARY:
    case PTX_EXPR_COND:
        for (uint32_t i = 0; i < ptx_expr_count(e); i++)
            if (!immediate(ptx_expr_item(e, i)))
                return false;
        return ptx_expr_count(e) > 0;
    default:
        return false;
    }
}

/* The space of address operand e of an instruction with two space
 * modifiers, the destination's then the source's (cp.async.ca.shared.global
 * [sh], [g]; cp.async.bulk.global.shared::cta [g], [sh]): operand 0 is in
 * the first, operand 1 in the second; NULL for a later one (an mbarrier)
 * or an address inside another operand. */
static const char *address_space(const ictx *I, const ptx_expr *e)
{
    const ptx_instr *in = I->in;
    if ((uintptr_t)e < (uintptr_t)in->ops || (uintptr_t)e >= (uintptr_t)(in->ops + in->nops))
        return NULL;
    unsigned k = (unsigned)(e - in->ops);
    for (unsigned i = 0; i < in->nmods && k < 2; i++)
        if (in->mods[i].category == PTX_CAT_SPACE && k-- == 0)
            return in->mods[i].name->text;
    return NULL;
}

static void check_address(sema *S, const ictx *I, const ptx_expr *e)
{
    if (ptx_expr_count(e) != 1) {
        for (uint32_t i = 0; i < ptx_expr_count(e); i++)
            check_expr_names(S, I, ptx_expr_item(e, i), NULL);
        return;
    }
    const ptx_expr *a = ptx_expr_item(e, 0);
    const ptx_expr *base = a;
    if (a->kind == PTX_EXPR_BINARY && a->op == PTX_OP_ADD)
        base = ptx_expr_a(a);
    if (base->kind == PTX_EXPR_INDEX) {
        /* ptxas 13.0: "Parsing error near '['" */
        sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(base), "an element cannot be an address: write "
                   "the variable and the element's byte offset, [name+offset]");
        return;
    }
    if (base != a && base->kind != PTX_EXPR_SYM)
        base = a;
    bool one_space = I->spaces <= 1;
    if (base->kind != PTX_EXPR_SYM) {
        if (immediate(base) && one_space && I->form &&
            (!I->space || strcmp(I->space, ".local")))
            sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e),
                  "an immediate address is allowed only in the .local state space");
        check_expr_names(S, I, a, NULL);
        return;
    }
    const ptx_name *name = ptx_expr_name(base);
    sym *s = lookup(S, name);
    ptx_span sp = ptx_expr_span(base);
    if (!s) {
        /* ptxas 13.0 takes a special register as an address base
         * (ld.u32 %r1, [%clock64]; [%clock], [%gridid+4] too); special()
         * checks its component, version and target */
        bool found;
        const sreg *r = sema_sreg_find(name);
        if (r && (ptx_expr_sel(base) || r->vec))
            sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s%s' cannot be an address: only a scalar special "
                  "register can", name->text, ptx_expr_sel(base) ? ptx_expr_sel(base)->text : "");
        else
            special(S, NULL, base, NULL, &found);
        if (!r)
            sema_unknown_symbol(S, base);
        return;
    }
    switch (s->kind) {
    case S_LABEL:
    case S_FUNC:
        sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' is a %s, not something in memory: it cannot be an "
              "address", name->text, sema_kind_word(s));
        return;
    case S_VAR: {
        if (I->form && one_space && !space_fits(I->space, s->space)) {
            sema_error(S, PTX_DIAG_SYMBOL, sp,
                  "'%s' is a %s variable: '%s' %s", name->text, ptx_space_name(s->space), I->op,
                  I->space ? "addresses another state space" :
                  "cannot reach a .param variable through a generic address (write ld.param)");
            return;
        }
        const char *mine = I->form && I->spaces == 2 ? address_space(I, e) : NULL;
        if (mine && !space_fits(mine, s->space))
            sema_error(S, PTX_DIAG_SYMBOL, sp, "'%s' is a %s variable: this address of '%s' is in "
                       "%s", name->text, ptx_space_name(s->space), ptx_family_name(I->in->family), mine);
        return;
    }
    default:
        break;
    }
    tclass r = s->cls;
    if (r.k == 'f' || r.k == 'x' || r.k == 'p') {
        char b[16];
        sema_error(S, PTX_DIAG_TYPE, sp, "'%s' is declared %s: an address register must be an "
              "integer (.u64, .b64...)", name->text, sema_class_name(r, b, sizeof b));
        return;
    }
    /* ptxas: 32 bits make a 32-bit program, which it no longer compiles;
     * 8 and 16 bits only draw a warning from it (not repeated here) */
    if (r.k && r.bits == 32 && I->form && one_space &&
        (!I->space || !strcmp(I->space, ".global")) && wants_64bit_address(I->op)) {
        char b[16];
        sema_error(S, PTX_DIAG_TYPE, sp,
              "'%s' is a %s register: a %s address needs 64 bits (ptxas 13 compiles 64-bit "
              "addresses only)", name->text, sema_class_name(r, b, sizeof b),
              I->space ? I->space : "generic");
    }
}



static void check_items(sema *S, const ictx *outer, const ptx_expr *e, const ptx_isa_operand *op)
{
    ictx in_vector = *outer;
    in_vector.element = true;
    const ictx *I = &in_vector;
    /* elements of a vector take the operand's type; their registers must
     * all be of one width */
    unsigned bits = 0;
    bool mixed = false;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++) {
        const ptx_expr *x = ptx_expr_item(e, i);
        sema_check_operand(S, I, x, op);
        if (x->kind == PTX_EXPR_SYM && !ptx_expr_sel(x)) {
            sym *s = lookup(S, ptx_expr_name(x));
            if (s && s->kind == S_REG && !s->vec) {
                unsigned b = s->cls.bits;
                if (bits && b && b != bits)
                    mixed = true;
                if (b)
                    bits = b;
            }
        }
    }
    if (mixed && e->kind == PTX_EXPR_VEC)
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e),
              "the elements of a vector must be registers of one width");
}

void sema_check_operand(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM:
        check_name(S, I, e, op);
        return;
    case PTX_EXPR_SINK:
    case PTX_EXPR_RANGE:
        return;
    case PTX_EXPR_ADDR:
        if (op && (op->accept & PTX_ACC_IMAGE)) {
            for (uint32_t i = 0; i < ptx_expr_count(e); i++)
                sema_check_operand(S, I, ptx_expr_item(e, i), NULL);
            return;
        }
        check_address(S, I, e);
        return;
    case PTX_EXPR_VEC:
        check_items(S, I, e, op);
        return;
    case PTX_EXPR_LIST:
        check_items(S, I, e, NULL);
        /* (1) outside a call is a constant in parentheses: ptxas holds
         * it to the operand's type as it does 1 (mov.f32 %f1, (1) and
         * mov.b32 %r1, (1.0) are "Arguments mismatch") */
        if (ptx_expr_count(e) == 1 && ptx_expr_a(e)->kind != PTX_EXPR_SYM)
            check_constant(S, I, ptx_expr_a(e), op);
        return;
    case PTX_EXPR_PAIR:
        /* d|p: d has the operand's type (lop3.b32 %r1|%p1), p is a predicate */
        sema_check_operand(S, I, ptx_expr_a(e), op && ptx_expr_a(e)->kind == PTX_EXPR_SYM ? op : NULL);
        sema_check_operand(S, I, ptx_expr_b(e), NULL);
        return;
    case PTX_EXPR_UNARY:
        if (e->op == PTX_OP_NEG && I->in->family == PTX_FAMILY_VMAD &&
            ptx_expr_a(e)->kind == PTX_EXPR_SYM && (uintptr_t)e >= (uintptr_t)I->in->ops &&
            (uintptr_t)e < (uintptr_t)(I->in->ops + I->in->nops)) {
            check_vmad_negation(S, I, e);
            return;
        }
        if ((e->op == PTX_OP_NEG || e->op == PTX_OP_PLUS) && sema_name_in(e)) {
            /* ptxas 13.0 refuses a sign on anything but constants, in every
             * instruction: -%r2 ("Operand negation not allowed"), -%f2 and
             * -g ("Illegal argument to unary minus"), -(%r2) and +%r2
             * ("Parsing error") */
            const ptx_expr *a = sema_name_in(e);
            sym *s = lookup(S, ptx_expr_name(a));
            if (s && s->kind == S_REG)
                sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "'%c' applies to constants only: "
                           "negate the register '%s' with neg", e->op == PTX_OP_NEG ? '-' : '+',
                           ptx_expr_name(a)->text);
            else
                sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "'%c' applies to constants only, "
                           "not to '%s'", e->op == PTX_OP_NEG ? '-' : '+', ptx_expr_name(a)->text);
            return;
        }
        if (e->op == PTX_OP_BNOT && ptx_expr_a(e)->kind == PTX_EXPR_SYM &&
            lookup(S, ptx_expr_name(ptx_expr_a(e))) &&
            lookup(S, ptx_expr_name(ptx_expr_a(e)))->kind == S_REG) {
            /* ptxas parses '~' in constant expressions only (mov.b32 %r1,
             * ~%r2 is "Parsing error"): not.b32 complements a register */
            sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "'~' complements constants only: write "
                  "not.b32 for a register");
            return;
        }
        if (e->op == PTX_OP_LNOT && ptx_expr_a(e)->kind == PTX_EXPR_SYM) {
            const ptx_expr *a = ptx_expr_a(e);
            check_name(S, I, a, NULL);
            sym *s = lookup(S, ptx_expr_name(a));
            if (s && (s->kind != S_REG || s->type != PTX_TYPE_PRED))
                sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "'!' negates predicates: '%s' is a %s "
                      "declared %s", ptx_expr_name(a)->text, sema_kind_word(s),
                      ptx_type_name(s->type) ? ptx_type_name(s->type) : "");
            return;
        }
        break;
    case PTX_EXPR_INDEX:
        check_expr_names(S, I, e, NULL);
        return;
    case PTX_EXPR_BINARY: {
        /* an expression with a name is NAME + constants, as ptxas 13.0
         * parses operands (g+4, g+2*4, %r2+1): g-4, 4+g, g*2, g+%rd2 and
         * g[1]+4 are its syntax errors ({r1, r2}|p is tex's pair) */
        if (ptx_expr_a(e)->kind == PTX_EXPR_VEC)
            break;
        const ptx_expr *base = sema_sum_base(e);
        if (base->kind != PTX_EXPR_SYM && sema_name_in(base)) {
            /* the name out of place: a second one added, or the first */
            const ptx_expr *culprit = base->kind == PTX_EXPR_BINARY && base->op == PTX_OP_ADD
                                      ? sema_name_in(ptx_expr_b(base)) : sema_name_in(base);
            sema_error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "'%s' in an expression: an operand is "
                       "'NAME + constant', the name first, the constant added",
                       ptx_expr_name(culprit)->text);
            return;
        }
        break;
    }
    default:
        break;
    }
    check_expr_names(S, I, e, op);
    check_constant(S, I, e, op);
}

/* ---- calls ---------------------------------------------------------------- */

/* The size in bytes of a parameter declaration (a .param variable). */
static uint64_t param_bytes(const ptx_decl *d, const ptx_var *v)
{
    uint64_t n = ptx_type_bits(d->type) / 8u;
    if (d->vec)
        n *= d->vec;
    for (uint32_t k = 0; k < v->ndims; k++)
        n *= v->dims[k];
    return n;
}

/* nargs arguments for these parameters: a last parameter of unsized
 * array type (.b8 buf[]) may be left out */
static bool nargs_fit(uint32_t nargs, ptx_decl *const *params, uint32_t nparams)
{
    bool open_last = nparams && params[nparams - 1]->nvars &&
                     params[nparams - 1]->vars[0].unsized;
    return nargs == nparams || (open_last && nargs + 1 == nparams);
}

/* call (rets), f, (args): the counts, and the .param arguments' types
 * against the callee's parameters. */
void sema_check_call(sema *S, const ictx *I)
{
    const ptx_instr *in = I->in;
    unsigned k = 0;
    const ptx_expr *rets = NULL, *args = NULL, *target = NULL;
    if (k < in->nops && in->ops[k].kind == PTX_EXPR_LIST)
        rets = &in->ops[k++];
    if (k < in->nops)
        target = &in->ops[k++];
    if (k < in->nops && in->ops[k].kind == PTX_EXPR_LIST)
        args = &in->ops[k++];
    if (!target || target->kind != PTX_EXPR_SYM)
        return;
    sym *s = lookup(S, ptx_expr_name(target));
    if (s && s->kind == S_REG && k < in->nops && in->ops[k].kind == PTX_EXPR_SYM) {
        /* through a register: the counts against the .callprototype */
        sym *p = lookup(S, ptx_expr_name(&in->ops[k]));
        if (p && p->kind == S_LABEL && p->node && p->node->kind == PTX_NODE_CALLPROTO) {
            const ptx_callproto *cp = (const ptx_callproto *)p->node;
            uint32_t na = args ? ptx_expr_count(args) : 0, nr = rets ? ptx_expr_count(rets) : 0;
            if (!nargs_fit(na, cp->params, cp->nparams) || nr != cp->nret) {
                sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(&in->ops[k]),
                      "call through '%s' with %u argument%s and %u return value%s; its "
                      "prototype '%s' takes %u and returns %u", ptx_expr_name(target)->text, na,
                      na == 1 ? "" : "s", nr, nr == 1 ? "" : "s", cp->label->text, cp->nparams,
                      cp->nret);
                sema_previous_here(S, p);
            }
        }
        return;
    }
    if (s && s->kind == S_VAR)
        sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(target),
              "'%s' is a variable: call a function by its name, or through a register",
              ptx_expr_name(target)->text);
    if (!s || s->kind != S_FUNC)
        return;
    const ptx_func *f = (const ptx_func *)s->node;
    if (f->is_entry) {
        sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(target),
              "'%s' is a kernel (.entry): only a .func can be called", f->name->text);
        return;
    }
    uint32_t nargs = args ? ptx_expr_count(args) : 0, nrets = rets ? ptx_expr_count(rets) : 0;
    if (!nargs_fit(nargs, f->params, f->nparams) || nrets != f->nret) {
        sema_error(S, PTX_DIAG_SYMBOL, ptx_expr_span(target),
              "call to '%s' with %u argument%s and %u return value%s; '%s' takes %u and "
              "returns %u", f->name->text, nargs, nargs == 1 ? "" : "s", nrets,
              nrets == 1 ? "" : "s", f->name->text, f->nparams, f->nret);
        sema_previous_here(S, s);
        return;
    }
    for (int side = 0; side < 2; side++) {
        const ptx_expr *list = side ? args : rets;
        ptx_decl *const *formals = side ? f->params : f->ret;
        for (uint32_t i = 0; list && i < ptx_expr_count(list); i++) {
            const ptx_expr *x = ptx_expr_item(list, i);
            if (x->kind != PTX_EXPR_SYM)
                continue;
            sym *a = lookup(S, ptx_expr_name(x));
            const ptx_decl *fd = formals[i];
            if (!a || a->kind != S_VAR || a->space != PTX_SPACE_PARAM || !fd->nvars)
                continue;
            const ptx_decl *ad = (const ptx_decl *)a->node;
            const ptx_var *av = a->var, *fv = &fd->vars[0];
            /* an unsized array parameter takes an array of any size */
            bool ok = (fv->unsized || param_bytes(ad, av) == param_bytes(fd, fv)) &&
                      (av->ndims != 0) == (fv->ndims != 0) && ad->vec == fd->vec;
            if (ok && !av->ndims)
                ok = fits(sema_decl_class(fd->type), sema_decl_class(ad->type), false);
            if (!ok)
                sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(x),
                      "the type of '%s' does not match %s '%s' of '%s'", ptx_expr_name(x)->text,
                      side ? "parameter" : "return parameter", fv->name->text, f->name->text);
        }
    }
}

