/* The semantic pass: type classes, as ptxas compares a register with
 * what an operand wants. */
#include "sema_impl.h"

/* ---- types ---------------------------------------------------------------- */

tclass sema_decl_class(unsigned t)
{
    switch ((ptx_type)t) {
    case PTX_TYPE_S8: return (tclass){ 's', 8 };
    case PTX_TYPE_S16: return (tclass){ 's', 16 };
    case PTX_TYPE_S32: return (tclass){ 's', 32 };
    case PTX_TYPE_S64: return (tclass){ 's', 64 };
    case PTX_TYPE_U8: return (tclass){ 'u', 8 };
    case PTX_TYPE_U16: return (tclass){ 'u', 16 };
    case PTX_TYPE_U32: return (tclass){ 'u', 32 };
    case PTX_TYPE_U64: return (tclass){ 'u', 64 };
    case PTX_TYPE_F16: return (tclass){ 'f', 16 };
    case PTX_TYPE_F16X2: return (tclass){ 'x', 32 };
    case PTX_TYPE_F32: return (tclass){ 'f', 32 };
    case PTX_TYPE_F64: return (tclass){ 'f', 64 };
    case PTX_TYPE_B8: return (tclass){ 'b', 8 };
    case PTX_TYPE_B16: return (tclass){ 'b', 16 };
    case PTX_TYPE_B32: return (tclass){ 'b', 32 };
    case PTX_TYPE_B64: return (tclass){ 'b', 64 };
    case PTX_TYPE_B128: return (tclass){ 'b', 128 };
    case PTX_TYPE_PRED: return (tclass){ 'p', 1 };
    case PTX_TYPE_TEXREF: case PTX_TYPE_SAMPLERREF: case PTX_TYPE_SURFREF:
        return (tclass){ 'o', 64 };
    default: return (tclass){ 0, 0 };
    }
}

/* An instruction type modifier (".u32", ".bf16x2") as ptxas compares it. */
static tclass mod_class(const char *t)
{
    static const struct { const char *name; uint16_t bits; } bonly[] = {
        { ".bf16", 16 }, { ".bf16x2", 32 }, { ".tf32", 32 }, { ".f32x2", 64 },
        { ".u16x2", 32 }, { ".s16x2", 32 }, { ".e4m3x2", 16 }, { ".e5m2x2", 16 },
        { ".e2m3x2", 16 }, { ".e3m2x2", 16 }, { ".ue8m0x2", 16 }, { ".e2m1x2", 8 },
        { ".e4m3x4", 32 }, { ".e5m2x4", 32 }, { ".e2m3x4", 32 }, { ".e3m2x4", 32 },
        { ".e2m1x4", 16 },
    };
    if (!strcmp(t, ".pred"))
        return (tclass){ 'p', 1 };
    if (!strcmp(t, ".f16x2"))
        return (tclass){ 'x', 32 };
    for (size_t i = 0; i < sizeof bonly / sizeof bonly[0]; i++)
        if (!strcmp(t, bonly[i].name))
            return (tclass){ 'B', bonly[i].bits };
    if (t[0] == '.' && strchr("usbf", t[1]) && t[1] && t[2] >= '1' && t[2] <= '9') {
        char *end;
        unsigned long bits = strtoul(t + 2, &end, 10);
        if (!*end && (bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128))
            return (tclass){ t[1], (uint16_t)bits };
    }
    return (tclass){ 0, 0 };
}

bool sema_is_int(char k)
{
    return k == 'u' || k == 's' || k == 'b';
}

/* Does a register of class `r` fit an operand that wants `e`?  With
 * `relaxed` (ld, st, cvt), ptxas also takes a wider register: any kind
 * for a .bN type (ld.b32 into .f64), an integer or .f16x2 one for .uN and
 * .sN (ld.u32 into .f16x2), a .bN one for float types (ld.f32 into .b64;
 * ld.f32 into .f64 is an error). */



bool sema_fits_slow(tclass e, tclass r, bool relaxed)
{
    if (!e.k || !r.k || r.k == 'o')
        return true;
    if (e.k == 'p' || r.k == 'p')
        return e.k == r.k;
    if (relaxed && r.bits > e.bits) {
        if (e.k == 'b')
            return true;
        if (e.k == 'u' || e.k == 's')
            return sema_is_int(r.k) || r.k == 'x';
        return r.k == 'b';
    }
    if (r.bits != e.bits)
        return false;
    switch (e.k) {
    case 'b': return true;
    case 'u': case 's': return sema_is_int(r.k) || r.k == 'x';   /* .f16x2: ptxas takes it */
    case 'f': return r.k == 'f' || r.k == 'b';
    case 'x': return r.k == 'x' || r.k == 'b';
    case 'B': return r.k == 'b';
    default: return true;
    }
}

const char *sema_class_name(tclass c, char *buf, size_t n)
{
    switch (c.k) {
    case 'p': return ".pred";
    case 'x': return ".f16x2";
    case 'o': return "an opaque type";
    case 'B': snprintf(buf, n, ".b%u", c.bits); return buf;
    default: snprintf(buf, n, ".%c%u", c.k, c.bits); return buf;
    }
}

/* A vector register's components (v.x, v.r...). */
bool sema_is_component(const char *sel)
{
    static const char *const c[] = { ".x", ".y", ".z", ".w", ".r", ".g", ".b", ".a" };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (!strcmp(sel, c[i]))
            return true;
    return false;
}

/* N of the instruction's .vN modifier; 1 without one. */
unsigned sema_vector_modifier(const ptx_instr *in)
{
    for (unsigned i = 0; i < in->nmods; i++) {
        const char *t = in->mods[i].name->text;
        if (t[0] == '.' && t[1] == 'v' && t[2] >= '1' && t[2] <= '9' && !t[3])
            return (unsigned)(t[2] - '0');
    }
    return 1;
}

/* mod_class of modifier `id`, worked out once per parse */
tclass sema_mod_class_of(sema *S, ptx_modifier id)
{
    if (!S->mod_known[id]) {
        S->mod_classes[id] = mod_class(ptx_isa_mod_names[id]);
        S->mod_known[id] = 1;
    }
    return S->mod_classes[id];
}

/* The first name inside e, or NULL: in an initial value or an operand
 * such a name stands for an address or a register (WARP_SZ is a
 * constant, and is none). */
const ptx_expr *sema_name_in(const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_SYM)
        return ptx_name_is(ptx_expr_name(e), "WARP_SZ") ? NULL : e;
    if (ptx_expr_is_leaf(e) || e->kind == PTX_EXPR_RANGE)
        return NULL;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++) {
        const ptx_expr *a = sema_name_in(ptx_expr_item(e, i));
        if (a)
            return a;
    }
    return NULL;
}

/* What is left of e once constants added on the right are taken off,
 * as the parser nests them: g+4+4 is (g+4)+4, which gives g; g-4, 4+g and
 * g+%rd2 are given back whole or at the + whose right side names something. */
const ptx_expr *sema_sum_base(const ptx_expr *e)
{
    while (e->kind == PTX_EXPR_BINARY && e->op == PTX_OP_ADD && !sema_name_in(ptx_expr_b(e)))
        e = ptx_expr_a(e);
    return e;
}

/* The kind of literal a constant expression is: 'i' integer, 'f' decimal
 * floating point, 'h' 0f, 'd' 0d, 'm' mixed, 0 not a constant. */
char sema_literal_kind(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: return 'i';
    case PTX_EXPR_FLOAT: return 'f';
    case PTX_EXPR_F32: return 'h';
    case PTX_EXPR_F64: return 'd';
    case PTX_EXPR_SYM:
        return ptx_name_is(ptx_expr_name(e), "WARP_SZ") && !ptx_expr_sel(e) ? 'i' : 0;
    case PTX_EXPR_CAST: return 'i';
    case PTX_EXPR_UNARY:
        if (e->op == PTX_OP_LNOT || e->op == PTX_OP_BNOT)
            return 'i';
        return sema_literal_kind(ptx_expr_a(e));
    case PTX_EXPR_PAREN: return sema_literal_kind(ptx_expr_a(e));
    case PTX_EXPR_BINARY: {
        if (e->op >= PTX_OP_LT && e->op <= PTX_OP_NE)
            return 'i';
        char a = sema_literal_kind(ptx_expr_a(e)), b = sema_literal_kind(ptx_expr_b(e));
        if (!a || !b)
            return 0;
        return a == b ? a : 'm';
    }
    case PTX_EXPR_COND: {
        char a = sema_literal_kind(ptx_expr_item(e, 1)), b = sema_literal_kind(ptx_expr_item(e, 2));
        if (!a || !b)
            return 0;
        return a == b ? a : 'm';
    }
    default: return 0;
    }
}

