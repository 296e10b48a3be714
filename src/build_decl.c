/* The builders of declarations and functions: declaration specifiers
 * (linkage, state space, .align, vector size, type, .ptr, .attribute)
 * and their order, variables with their dimensions, register ranges and
 * initialisers, the checks that depend on where a declaration stands
 * (module, body, parameter lists), function directives (.maxntid,
 * .noreturn...), .entry and .func heads, and .callprototype. */
#include <stdio.h>
#include <string.h>

#include "ast_build.h"

/* ---- function directives ----------------------------------------------- */

static const uint8_t fdir_arity[PTX_FDIR_COUNT][2] = {   /* min, max values */
    [PTX_FDIR_MAXNREG] = { 1, 1 }, [PTX_FDIR_MAXNTID] = { 1, 3 },
    [PTX_FDIR_REQNTID] = { 1, 3 }, [PTX_FDIR_MINNCTAPERSM] = { 1, 1 },
    [PTX_FDIR_MAXNCTAPERSM] = { 1, 1 }, [PTX_FDIR_REQNCTAPERCLUSTER] = { 1, 3 },
    [PTX_FDIR_EXPLICITCLUSTER] = { 0, 0 }, [PTX_FDIR_MAXCLUSTERRANK] = { 1, 1 },
    [PTX_FDIR_BLOCKSARECLUSTERS] = { 0, 0 }, [PTX_FDIR_LOCAL_MAXNREG] = { 1, 1 },
    [PTX_FDIR_NORETURN] = { 0, 0 }, [PTX_FDIR_ABI_PRESERVE] = { 1, 1 },
    [PTX_FDIR_ABI_PRESERVE_CONTROL] = { 1, 1 },
};

/* The first character of the token after `sp` (past blanks and
 * comments), or the end of the source: where ptxas reports what is
 * missing at the end of `sp`. */
static ptx_span token_after(const ptx_context *ctx, ptx_span sp)
{
    if (sp.off == PTX_NO_OFFSET || !ctx->src || (size_t)sp.off + sp.len > ctx->srclen)
        return sp;
    size_t i = (size_t)sp.off + sp.len, n = ctx->srclen;
    const char *s = ctx->src;
    while (i < n) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' ||
            s[i] == '\v')
            i++;
        else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
            while (i < n && s[i] != '\n')
                i++;
        else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/'))
                j++;
            if (j + 1 >= n)
                break;          /* unterminated: the scanner's error */
            i = j + 2;
        } else
            break;
    }
    return (ptx_span){ (uint32_t)(i < n ? i : n), i < n ? 1 : 0 };
}

void ptx_b_fdir(ptx_context *ctx, const ptx_tok *kind, size_t values, ptx_loc_t loc)
{
    ptx_fdir *d = ptx_arena_zalloc(ctx->tree, sizeof *d);
    d->kind = (uint8_t)kind->k;
    d->span = span_of(loc);
    uint32_t n;
    ptx_expr **vals = (ptx_expr **)take(ctx, values, &n);
    const char *name = ptx_fdir_name(kind->k);
    if (n < fdir_arity[kind->k][0] || n > fdir_arity[kind->k][1]) {
        /* ptxas 13.0: a syntax error at the token where a value is
         * missing (the next one: often the body's '{' on the next line)
         * or the first one too many; its .version/.target gate is not
         * reached */
        ptx_span at = n ? d->span : token_after(ctx, d->span);
        if (fdir_arity[kind->k][1] == 0)
            error_at(ctx, PTX_DIAG_DIRECTIVE, at, "'%s' takes no value", name);
        else if (fdir_arity[kind->k][1] == 1)
            error_at(ctx, PTX_DIAG_DIRECTIVE, at, "'%s' takes one value%s", name,
                     n ? "" : ": none is given before this");
        else
            error_at(ctx, PTX_DIAG_DIRECTIVE, at, "'%s' takes one to three values%s", name,
                     n ? "" : ": none is given before this");
        if (n > 3)
            n = 3;
    } else {
        ptx_gate(ctx, name, d->span);
    }
    d->nvals = (uint8_t)n;
    for (uint32_t i = 0; i < n; i++) {
        if (ptx_expr_int(vals[i]) > UINT32_MAX)
            error_at(ctx, PTX_DIAG_LITERAL, ptx_expr_span(vals[i]),
                     "'%s' value %llu is out of range (at most 4294967295)", name,
                     (unsigned long long)ptx_expr_int(vals[i]));
        d->vals[i] = ptx_expr_int(vals[i]) > UINT32_MAX ? UINT32_MAX : (uint32_t)ptx_expr_int(vals[i]);
    }
    ptx_scratch_push(ctx, d);
}

void ptx_b_fdir_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc)
{
    ptx_fdir *d = ptx_arena_zalloc(ctx->tree, sizeof *d);
    d->kind = PTX_FDIR_PRAGMA;
    d->span = span_of(loc);
    uint32_t n;
    d->strings = (const ptx_name **)take(ctx, strings, &n);
    ptx_gate(ctx, ".pragma", d->span);
    d->nvals = (uint8_t)(n > 255 ? 255 : n);
    ptx_scratch_push(ctx, d);
}

static ptx_fdir *take_fdirs(ptx_context *ctx, size_t mark, uint32_t *count)
{
    uint32_t n;
    ptx_fdir **ds = (ptx_fdir **)take(ctx, mark, &n);
    ptx_fdir *out = NULL;
    if (n) {
        out = ptx_arena_alloc(ctx->tree, n * sizeof *out);
        for (uint32_t i = 0; i < n; i++)
            out[i] = *ds[i];
    }
    *count = n;
    return out;
}

static bool is_func_dir(unsigned k)
{
    return k == PTX_FDIR_NORETURN || k == PTX_FDIR_ABI_PRESERVE ||
           k == PTX_FDIR_ABI_PRESERVE_CONTROL;
}

/* .func and .callprototype: only .noreturn, .abi_preserve,
 * .abi_preserve_control, each once, .noreturn first (ptxas 13.0 takes
 * the two .abi_preserve directives in either order); .func also takes
 * .local_maxnreg and .pragma. */
static void check_func_dirs(ptx_context *ctx, const ptx_fdir *d, uint32_t n,
                            bool has_ret, const char *what)
{
    bool seen[PTX_FDIR_COUNT] = { 0 }, any = false;
    for (uint32_t i = 0; i < n; i++) {
        bool func = strcmp(what, ".func") == 0;
        /* ptxas reads a .pragma after a .func's header as one at module
         * scope (after a declaration without ';') */
        if (func && d[i].kind == PTX_FDIR_PRAGMA)
            ptx_check_pragmas(ctx, d[i].strings, d[i].nvals, PTX_PRAGMA_MODULE, d[i].span);
        if (func && (d[i].kind == PTX_FDIR_PRAGMA || d[i].kind == PTX_FDIR_LOCAL_MAXNREG))
            continue;
        if (!is_func_dir(d[i].kind)) {
            error_at(ctx, PTX_DIAG_DIRECTIVE, d[i].span, "'%s' is not allowed on '%s'",
                     ptx_fdir_name(d[i].kind), what);
            continue;
        }
        if (seen[d[i].kind] || (d[i].kind == PTX_FDIR_NORETURN && any))
            error_at(ctx, PTX_DIAG_DIRECTIVE, d[i].span,
                     "'%s' is out of place: write .noreturn first, then .abi_preserve and .abi_preserve_control, each once",
                     ptx_fdir_name(d[i].kind));
        seen[d[i].kind] = true;
        any = true;
        /* ptxas 13.0 names the end of a .func's header: its '{' or ';' */
        if (d[i].kind == PTX_FDIR_NORETURN && has_ret)
            error_at(ctx, PTX_DIAG_DIRECTIVE, func ? token_after(ctx, d[n - 1].span) : d[i].span,
                     "'.noreturn' is not allowed on a function with a return parameter");
    }
}

static void check_entry_dirs(ptx_context *ctx, const ptx_fdir *d, uint32_t n)
{
    const ptx_fdir *seen[PTX_FDIR_COUNT] = { 0 };
    for (uint32_t i = 0; i < n; i++) {
        if (is_func_dir(d[i].kind)) {
            error_at(ctx, PTX_DIAG_DIRECTIVE, d[i].span, "'%s' is not allowed on '.entry'",
                     ptx_fdir_name(d[i].kind));
            continue;
        }
        if (d[i].kind == PTX_FDIR_PRAGMA)
            ptx_check_pragmas(ctx, d[i].strings, d[i].nvals, PTX_PRAGMA_HEADER, d[i].span);
        /* ptxas takes a directive given twice */
        seen[d[i].kind] = &d[i];
    }
    if (seen[PTX_FDIR_MAXNTID] && seen[PTX_FDIR_REQNTID])
        error_at(ctx, PTX_DIAG_DIRECTIVE, seen[PTX_FDIR_REQNTID]->span,
                 "'.maxntid' and '.reqntid' cannot both be given");
    if (seen[PTX_FDIR_MAXCLUSTERRANK] && seen[PTX_FDIR_REQNCTAPERCLUSTER])
        error_at(ctx, PTX_DIAG_DIRECTIVE, seen[PTX_FDIR_MAXCLUSTERRANK]->span,
                 "'.maxclusterrank' and '.reqnctapercluster' cannot both be given");
    if (seen[PTX_FDIR_BLOCKSARECLUSTERS] &&
        (!seen[PTX_FDIR_REQNTID] || !seen[PTX_FDIR_REQNCTAPERCLUSTER]))
        error_at(ctx, PTX_DIAG_DIRECTIVE, seen[PTX_FDIR_BLOCKSARECLUSTERS]->span,
                 "'.blocksareclusters' needs both '.reqntid' and '.reqnctapercluster'");
    const ptx_module *m = ctx->module;
    if (seen[PTX_FDIR_MAXNCTAPERSM] && m &&
        (m->version_major > 2 || (m->version_major == 2 && m->version_minor >= 1)))
        error_at(ctx, PTX_DIAG_UNSUPPORTED, seen[PTX_FDIR_MAXNCTAPERSM]->span,
                 "'.maxnctapersm' is not supported as of PTX ISA 2.1");
}

/* ---- declarations ----------------------------------------------------- */

unsigned ptx_type_bits(unsigned t)
{
    switch (t) {
    case PTX_TYPE_S8: case PTX_TYPE_U8: case PTX_TYPE_B8: return 8;
    case PTX_TYPE_S16: case PTX_TYPE_U16: case PTX_TYPE_B16: case PTX_TYPE_F16: return 16;
    case PTX_TYPE_S32: case PTX_TYPE_U32: case PTX_TYPE_B32: case PTX_TYPE_F32:
    case PTX_TYPE_F16X2: return 32;
    case PTX_TYPE_S64: case PTX_TYPE_U64: case PTX_TYPE_B64: case PTX_TYPE_F64: return 64;
    case PTX_TYPE_B128: return 128;
    default: return 0;
    }
}

static const char *const instruction_only_types[] = {
    ".bf16", ".bf16x2", ".tf32", ".e4m3", ".e5m2", ".e2m3", ".e3m2", ".e2m1",
    ".ue8m0", ".ue4m3", ".s2f6", ".e4m3x2", ".e5m2x2", ".e2m3x2", ".e3m2x2",
    ".e2m1x2", ".ue8m0x2", ".s2f6x2", ".e4m3x4", ".e5m2x4", ".e2m3x4",
    ".e3m2x4", ".e2m1x4", ".f32x2", ".u16x2", ".s16x2", ".u4", ".s4", ".b1",
};

/* Whether the module's .target names texmode_independent: without it
 * (texmode_unified, the default) ptxas 13.0 refuses every .samplerref
 * declaration ("violates .target texmode_unified setting").  No module
 * yet: nothing to say. */
static bool texmode_independent(const ptx_module *m)
{
    if (!m)
        return true;
    for (uint32_t i = 0; i < m->ntargets; i++)
        if (!strcmp(m->targets[i]->text, "texmode_independent"))
            return true;
    return false;
}

void ptx_b_spec(ptx_context *ctx, ptx_spec_kind kind, const ptx_tok *t, ptx_loc_t loc)
{
    ptx_spec *s = ptx_arena_zalloc(ctx->tree, sizeof *s);
    s->kind = (uint8_t)kind;
    s->span = span_of(loc);
    switch (kind) {
    case PTX_SPEC_ALIGN:
        if (t->u == 0 || t->u > UINT32_MAX || (t->u & (t->u - 1))) {
            error_at(ctx, PTX_DIAG_DECL, s->span, "alignment %llu is not a power of two below 2^32",
                     (unsigned long long)t->u);
            s->val = 1;
        } else {
            s->val = (uint32_t)t->u;
        }
        break;
    case PTX_SPEC_WORD:
        s->word = tok_name(ctx, t);
        break;
    default:
        s->val = t->k;
        break;
    }
    if (kind == PTX_SPEC_PTR)
        ptx_gate(ctx, ".ptr", s->span);
    else if (kind == PTX_SPEC_TYPE && t->k == PTX_TYPE_SAMPLERREF)
        ptx_gate(ctx, ".samplerref", s->span);     /* the mode: check_vars */
    else if (kind == PTX_SPEC_LINK || (kind == PTX_SPEC_TYPE && (t->k == PTX_TYPE_TEXREF ||
             t->k == PTX_TYPE_SURFREF)))
        ptx_gate(ctx, kind == PTX_SPEC_LINK ? ptx_linkage_name(t->k) : ptx_type_name(t->k), s->span);
    ptx_scratch_push(ctx, s);
}

ptx_spec *ptx_b_attr(ptx_context *ctx, const ptx_tok *word, const ptx_tok *a,
                     const ptx_tok *b, ptx_loc_t loc)
{
    ptx_spec *s = ptx_arena_zalloc(ctx->tree, sizeof *s);
    s->span = span_of(loc);
    if (!a && tok_is(ctx, word, ".managed")) {
        s->attrs = PTX_ATTR_MANAGED;
    } else if (a && tok_is(ctx, word, ".unified")) {
        ptx_gate(ctx, ".unified", s->span);
        s->attrs = PTX_ATTR_UNIFIED;
        s->unified[0] = a->u;
        s->unified[1] = b->u;
    } else {
        error_at(ctx, PTX_DIAG_DECL, s->span,
                 "unknown attribute '%.*s': expected .managed or .unified(UUID1, UUID2)",
                 (int)word->len, ctx->src + word->off);
    }
    return s;
}

ptx_spec *ptx_b_attr_merge(ptx_context *ctx, ptx_spec *a, ptx_spec *b)
{
    if (a->attrs & b->attrs)
        error_at(ctx, PTX_DIAG_DECL, b->span, "attribute given twice");
    a->attrs |= b->attrs;
    if (b->attrs & PTX_ATTR_UNIFIED) {
        a->unified[0] = b->unified[0];
        a->unified[1] = b->unified[1];
    }
    a->span.len = b->span.off + b->span.len - a->span.off;
    return a;
}

ptx_spec *ptx_b_attr_spec(ptx_context *ctx, ptx_spec *attrs, ptx_loc_t loc)
{
    ptx_gate(ctx, ".attribute", span_of(loc));
    attrs->kind = attrs->attrs & PTX_ATTR_UNIFIED ? PTX_SPEC_ATTR_UNIFIED : PTX_SPEC_ATTR_MANAGED;
    attrs->span = span_of(loc);
    return attrs;
}

ptx_var *ptx_b_var(ptx_context *ctx, const ptx_tok *name, bool sink)
{
    ptx_var *v = ptx_arena_zalloc(ctx->tree, sizeof *v);
    v->name = sink ? ptx_intern(ctx, "_", 1) : tok_name(ctx, name);
    v->span = tok_span(name);
    return v;
}

void ptx_b_var_dim(ptx_context *ctx, ptx_var *v, const ptx_tok *n, ptx_loc_t loc)
{
    uint64_t *dims = ptx_arena_alloc(ctx->tree, (v->ndims + 1) * sizeof *dims);
    if (v->ndims)
        memcpy(dims, v->dims, v->ndims * sizeof *dims);
    if ((!n || !n->u) && v->ndims)
        /* [0] too: ptxas 13.0 reads it as [] ("Array of incomplete type") */
        error_at(ctx, PTX_DIAG_DECL, span_of(loc),
                 "only the first dimension of an array may be left unsized");
    if (!n && !v->ndims)
        v->unsized = 1;
    dims[v->ndims++] = n ? n->u : 0;
    v->dims = dims;
    v->span.len = loc.end - v->span.off;
}

void ptx_b_var_range(ptx_context *ctx, ptx_var *v, const ptx_tok *n, ptx_loc_t loc)
{
    (void)loc;
    v->has_range = 1;
    if (n->u > UINT32_MAX) {
        error_at(ctx, PTX_DIAG_DECL, tok_span(n),
                 "register count in '<%llu>' is above the limit of %u",
                 (unsigned long long)n->u, (unsigned)UINT32_MAX);
        v->range = UINT32_MAX;
    } else {
        v->range = (uint32_t)n->u;
    }
    v->span.len = n->off + n->len + 1 - v->span.off;
}

void ptx_b_var_init(ptx_context *ctx, ptx_var *v, ptx_expr *init)
{
    (void)ctx;
    v->init = init;
}

/* A declaration as the builders make it: the node, then what a check
 * needs once the grammar says where the declaration stands (ptx_b_decl_at
 * and the parameter lists).  Every ptx_decl those get was made by
 * decl_from. */
typedef struct built_decl {
    ptx_decl decl;
    bool late_align;            /* .align after the type: only kernel
                                   parameters may */
} built_decl;

static built_decl *built(ptx_decl *d)
{
    return (built_decl *)d;
}

/* Folds the specifiers into d, checking each appears once and in the
 * order ptxas takes: linkage, space, [.ptr...], .align, .vN, type, with
 * .align also allowed before the space, and after the type in kernel
 * parameter lists. */
static bool apply_specs(ptx_context *ctx, ptx_decl *d, ptx_spec **specs, uint32_t n)
{
    enum { P_LINK, P_SPACE, P_ALIGN, P_VEC, P_TYPE };
    int stage = -1;
    bool in_ptr = false, bad_type = false;
    ptx_span vec_span = { 0, 0 };
    for (uint32_t i = 0; i < n; i++) {
        ptx_spec *s = specs[i];
        int at = -1;
        switch ((ptx_spec_kind)s->kind) {
        case PTX_SPEC_LINK:
            if (d->linkage)
                error_at(ctx, PTX_DIAG_DECL, s->span, "only one of .extern, .visible, .weak, .common may be given");
            d->linkage = (uint8_t)s->val;
            at = P_LINK;
            break;
        case PTX_SPEC_SPACE:
            if (in_ptr && !d->ptr_space && s->val != PTX_SPACE_PARAM) {
                d->ptr_space = (uint8_t)s->val;
                continue;
            }
            if (d->space)
                error_at(ctx, PTX_DIAG_DECL, s->span, "a declaration has one state space");
            d->space = (uint8_t)s->val;
            at = P_SPACE;
            break;
        case PTX_SPEC_ALIGN:
            if (in_ptr && !d->ptr_align) {
                d->ptr_align = s->val;
                continue;
            }
            /* ptxas takes '.align 4 .align 8' and uses the larger */
            if (s->val > d->align)
                d->align = s->val;
            if (stage == P_TYPE) {
                /* after the type: only kernel parameters; checked later */
                built(d)->late_align = true;
                continue;
            }
            at = stage < P_SPACE ? stage : P_ALIGN;
            break;
        case PTX_SPEC_VEC:
            if (d->vec)
                error_at(ctx, PTX_DIAG_DECL, s->span, "a vector size is given twice");
            d->vec = (uint8_t)s->val;
            vec_span = s->span;
            at = P_VEC;
            break;
        case PTX_SPEC_TYPE:
            if (d->type)
                error_at(ctx, PTX_DIAG_DECL, s->span, "a declaration has one type");
            d->type = (uint8_t)s->val;
            at = P_TYPE;
            break;
        case PTX_SPEC_WORD: {
            const char *w = s->word->text;
            /* ptxas 13.0: `.hidden .param ...` in a kernel's parameter
             * list from PTX ISA 8.8, first and once (checked per site in
             * check_vars) */
            if (!strcmp(w, ".hidden")) {
                if (d->attrs & PTX_ATTR_HIDDEN)
                    error_at(ctx, PTX_DIAG_DECL, s->span, "'.hidden' is given twice");
                else if (i != 0)
                    error_at(ctx, PTX_DIAG_DECL, s->span,
                             "'.hidden' is out of place: it comes first, before '.param'");
                else
                    ptx_gate(ctx, ".hidden", s->span);
                d->attrs |= PTX_ATTR_HIDDEN;
                continue;
            }
            bool instr_only = false;
            for (size_t k = 0; k < sizeof instruction_only_types / sizeof *instruction_only_types; k++)
                if (strcmp(w, instruction_only_types[k]) == 0)
                    instr_only = true;
            bad_type = true;
            const char *colons = strstr(w, "::");
            if (colons && !instr_only) {
                error_at(ctx, PTX_DIAG_DECL, s->span,
                         "'%s' is an instruction modifier; declarations use '%.*s'", w,
                         (int)(colons - w), w);
                continue;
            }
            if (instr_only)
                error_at(ctx, PTX_DIAG_DECL, s->span,
                         "'%s' may only be used as an instruction type; declare a .b%s variable instead",
                         w, strstr(w, "x4") || !strcmp(w, ".tf32") || !strcmp(w, ".bf16x2") ||
                            !strcmp(w, ".u16x2") || !strcmp(w, ".s16x2") ? "32"
                            : !strcmp(w, ".f32x2") ? "64" : strstr(w, "x2") || !strcmp(w, ".bf16") ? "16" : "8");
            else {
                char msg[PTX_DIAG_MESSAGE_MAX];
                snprintf(msg, sizeof msg, "'%s' is not a declaration specifier", w);
                ptx_error_directive(ctx, PTX_DIAG_DECL, s->span, w, strlen(w), msg);
            }
            continue;
        }
        case PTX_SPEC_PTR:
            if (d->has_ptr)
                error_at(ctx, PTX_DIAG_DECL, s->span, "'.ptr' is given twice");
            d->has_ptr = 1;
            in_ptr = true;
            continue;
        case PTX_SPEC_ATTR_MANAGED:
        case PTX_SPEC_ATTR_UNIFIED:
            /* ptxas takes .attribute(...) anywhere before the type */
            if (stage == P_TYPE)
                error_at(ctx, PTX_DIAG_DECL, s->span, "'.attribute' must come before the type");
            d->attrs |= s->attrs;
            if (s->attrs & PTX_ATTR_UNIFIED) {
                d->unified[0] = s->unified[0];
                d->unified[1] = s->unified[1];
            }
            continue;
        }
        if (at < stage)
            error_at(ctx, PTX_DIAG_DECL, s->span,
                     "'%.*s' is out of place: write linkage, state space, .align, vector size, then the type",
                     (int)s->span.len, ctx->src + s->span.off);
        else
            stage = at;
        if (at != P_SPACE)
            in_ptr = false;
    }
    if (d->vec) {
        if (d->vec == 8)
            error_at(ctx, PTX_DIAG_DECL, vec_span, "'.v8' is only an instruction modifier; variables are .v2 or .v4");
        else if (d->type == PTX_TYPE_PRED)
            error_at(ctx, PTX_DIAG_DECL, vec_span, "vectors of '.pred' are not allowed");
        else if (ptx_type_bits(d->type) * d->vec > 128)
            error_at(ctx, PTX_DIAG_DECL, vec_span, "vector of %u x %u bits exceeds the 128-bit limit",
                     (unsigned)d->vec, ptx_type_bits(d->type));
    }
    return bad_type;
}

static ptx_decl *decl_from(ptx_context *ctx, size_t specs, ptx_loc_t loc)
{
    built_decl *b = node_new(ctx, PTX_NODE_DECL, sizeof *b, loc);
    ptx_decl *d = &b->decl;
    uint32_t n;
    ptx_spec **sp = (ptx_spec **)take(ctx, specs, &n);
    bool bad_type = apply_specs(ctx, d, sp, n);
    ptx_span at = span_of(loc);
    at.len = 0;
    if (!d->space && !bad_type)
        error_at(ctx, PTX_DIAG_DECL, at, "a declaration needs a state space (.reg, .global, .shared, ...)");
    else if (!d->type && !bad_type)
        error_at(ctx, PTX_DIAG_DECL, at, "a declaration needs a type (.b32, .u64, .pred, ...)");
    if (d->space == PTX_SPACE_SREG)
        error_at(ctx, PTX_DIAG_DECL, at, "special registers (.sreg) are predefined and cannot be declared");
    if (d->space == PTX_SPACE_TEX && ctx->module && version_at_least(ctx->module, 1, 5))
        error_at(ctx, PTX_DIAG_UNSUPPORTED, at,
                 "'.tex' variables are not supported as of PTX ISA 1.5; use '.global .texref'");
    return d;
}

ptx_decl *ptx_b_decl(ptx_context *ctx, size_t specs, size_t vars, ptx_loc_t loc)
{
    uint32_t n;
    ptx_var **vs = (ptx_var **)take(ctx, vars, &n);
    ptx_decl *d = decl_from(ctx, specs, loc);
    d->nvars = n;
    d->vars = ptx_arena_alloc(ctx->tree, n * sizeof *d->vars);
    for (uint32_t i = 0; i < n; i++)
        d->vars[i] = *vs[i];
    return d;
}

ptx_decl *ptx_b_param(ptx_context *ctx, size_t specs, ptx_var *var, ptx_loc_t loc)
{
    ptx_decl *d = decl_from(ctx, specs, loc);
    d->nvars = 1;
    d->vars = var;
    return d;
}

/* What ptxas 13.0 cannot allocate in the .param space ("Variable 'p'
 * cannot be allocated in .param state space"): a vector, an .f16x2 (not
 * in an array), and
 * a texture or surface reference anywhere but among a kernel's
 * parameters. */
static void check_param_space(ptx_context *ctx, const ptx_decl *d, ptx_decl_site site)
{
    if (d->space != PTX_SPACE_PARAM && !(site == PTX_SITE_ENTRY_PARAM && !d->space))
        return;
    /* arrays of them it takes (.param .v2 .u32 v[4]) */
    bool scalar = d->nvars && d->vars[0].ndims == 0;
    const char *what = d->vec && scalar ? "a vector"
                       : d->type == PTX_TYPE_F16X2 && scalar ? "an .f16x2 value"
                       : site != PTX_SITE_ENTRY_PARAM &&
                               (d->type == PTX_TYPE_TEXREF || d->type == PTX_TYPE_SURFREF)
                           ? "a texture or surface reference outside a kernel's parameters"
                           : NULL;
    if (what)
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "%s cannot be a .param variable: declare "
                 "its bytes (.param .align N .b8 p[SIZE])", what);
}

/* v[] or v[0]: an array whose size the declaration does not give (ptxas
 * 13.0 reads v[0] as it reads v[]) */
static bool open_array(const ptx_var *v)
{
    return v->ndims && !v->dims[0];
}

static void check_vars(ptx_context *ctx, ptx_decl *d, ptx_decl_site site)
{
    check_param_space(ctx, d, site);
    /* ptxas 13.0 refuses a .samplerref in the unified mode, but takes an
     * array of them (.global, .shared or .const .samplerref v[4]) */
    bool scalar = false;
    for (uint32_t i = 0; i < d->nvars; i++)
        scalar |= d->vars[i].ndims == 0;
    if (d->type == PTX_TYPE_SAMPLERREF && scalar && !texmode_independent(ctx->module))
        error_at(ctx, PTX_DIAG_DECL, d->base.span,
                 "'.samplerref' needs the independent texturing mode: write "
                 "'.target ..., texmode_independent' (in the unified mode a texture holds its "
                 "sampler)");
    bool initable = d->space == PTX_SPACE_CONST || d->space == PTX_SPACE_GLOBAL;
    for (uint32_t i = 0; i < d->nvars; i++) {
        ptx_var *v = &d->vars[i];
        bool sink = v->name->len == 1 && v->name->text[0] == '_';
        if (sink && site != PTX_SITE_PROTO_PARAM)
            error_at(ctx, PTX_DIAG_DECL, v->span, "'_' is the sink symbol and cannot be declared");
        const ptx_expr *field = v->init ? ptx_expr_find_field(v->init) : NULL;
        if (field && d->type != PTX_TYPE_TEXREF && d->type != PTX_TYPE_SAMPLERREF &&
            d->type != PTX_TYPE_SURFREF)
            error_at(ctx, PTX_DIAG_DECL, ptx_expr_span(field),
                     "'name = value' is only allowed in initialisers of .texref, .samplerref and .surfref variables");
        if (v->init && !initable)
            error_at(ctx, PTX_DIAG_DECL, ptx_expr_span(v->init),
                     "only .const and .global variables can be initialised");
        else if (v->init && d->linkage == PTX_LINK_EXTERN)
            error_at(ctx, PTX_DIAG_DECL, ptx_expr_span(v->init), "an .extern variable cannot be initialised");
        if (v->ndims && d->space == PTX_SPACE_REG)
            error_at(ctx, PTX_DIAG_DECL, v->span, "arrays cannot be allocated in registers (.reg)");
        bool open = open_array(v);
        if (open && site == PTX_SITE_ENTRY_PARAM)
            error_at(ctx, PTX_DIAG_DECL, v->span, "a kernel parameter cannot be an array of "
                     "unknown size ([] or [0])");
        else if (open && !v->init &&
            d->linkage != PTX_LINK_EXTERN && site != PTX_SITE_FUNC_PARAM &&
            site != PTX_SITE_PROTO_PARAM)
            error_at(ctx, PTX_DIAG_DECL, v->span,
                     "an unsized array needs an initialiser or '.extern'");
        if (site != PTX_SITE_MODULE && site != PTX_SITE_BODY && site != PTX_SITE_PROTO_PARAM &&
            (v->has_range || v->ndims > 1))
            /* ptxas 13.0: "Parsing error near '<'" and "near '['" */
            error_at(ctx, PTX_DIAG_DECL, v->span, "a parameter is one name: %s",
                     v->has_range ? "no range <N> of them" : "an array of one dimension at most");
    }
    if (d->type == PTX_TYPE_PRED && d->space != PTX_SPACE_REG)
        /* ptxas 13.0: "Predicate variable must be in register state space" */
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "a .pred variable lives in a register: declare "
                 "it .reg");
    if (site == PTX_SITE_BODY && (d->type == PTX_TYPE_TEXREF || d->type == PTX_TYPE_SURFREF ||
                                  d->type == PTX_TYPE_SAMPLERREF))
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "'%s' variables are declared at module scope or "
                 "as kernel parameters, not in a function body", ptx_type_name(d->type));
    if ((d->attrs & (PTX_ATTR_MANAGED | PTX_ATTR_UNIFIED)) &&
        d->space != PTX_SPACE_GLOBAL)
        /* ptxas 13.0: "Illegal attribute '.managed' for symbol" */
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "'.attribute(%s)' is for .global variables", d->attrs & PTX_ATTR_MANAGED ? ".managed" : ".unified");
    if (built(d)->late_align && site != PTX_SITE_ENTRY_PARAM)
        error_at(ctx, PTX_DIAG_DECL, d->base.span,
                 "'.align' after the type is only allowed in '.entry' parameter lists");
    if ((d->attrs & PTX_ATTR_HIDDEN) && site != PTX_SITE_ENTRY_PARAM)
        error_at(ctx, PTX_DIAG_DECL, d->base.span,
                 "'.hidden' is a kernel parameter attribute: only allowed in '.entry' parameter lists");
    if (d->has_ptr && site != PTX_SITE_ENTRY_PARAM)
        error_at(ctx, PTX_DIAG_DECL, d->base.span,
                 "'.ptr' is a kernel parameter attribute: only allowed in '.entry' parameter lists");
}

ptx_node *ptx_b_decl_at(ptx_context *ctx, ptx_decl *d, ptx_decl_site site)
{
    check_vars(ctx, d, site);
    /* ptxas takes them before PTX ISA 3.0, turning the ABI off for the
     * module (a warning), and refuses them from 3.0, where the ABI is on */
    if (site == PTX_SITE_MODULE && (d->space == PTX_SPACE_REG || d->space == PTX_SPACE_LOCAL)) {
        if (ctx->module && !version_at_least(ctx->module, 3, 0))
            ptx_diag_add(ctx, PTX_SEV_WARNING, PTX_DIAG_DECL, d->base.span,
                         "module-scope '%s' variables turn the ABI off for this module (ptxas allows them before PTX ISA 3.0)",
                         ptx_space_name(d->space));
        else
            error_at(ctx, PTX_DIAG_DECL, d->base.span,
                     "'%s' variables cannot be declared at module scope from PTX ISA 3.0 (the ABI does not allow them)",
                     ptx_space_name(d->space));
    }
    if (d->space == PTX_SPACE_PARAM && site == PTX_SITE_MODULE)
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "'.param' variables cannot be declared at module scope");
    /* ptxas 13.0: ".common variables must be declared in .global space" */
    if (site == PTX_SITE_MODULE && d->linkage == PTX_LINK_COMMON &&
        (d->space == PTX_SPACE_SHARED || d->space == PTX_SPACE_CONST))
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "'.common' variables must be '.global', not "
                 "'%s': write '.common .global', or '.visible' or '.weak' for a '%s' variable",
                 ptx_space_name(d->space), ptx_space_name(d->space));
    if (site == PTX_SITE_BODY && d->linkage && d->linkage != PTX_LINK_EXTERN)
        error_at(ctx, PTX_DIAG_DECL, d->base.span, "'%s' is only allowed at module scope",
                 ptx_linkage_name(d->linkage));
    return &d->base;
}

static void check_params(ptx_context *ctx, ptx_decl **ps, uint32_t n, ptx_decl_site site, bool rets)
{
    for (uint32_t i = 0; i < n; i++) {
        ptx_decl *d = ps[i];
        check_vars(ctx, d, site);
        if (d->linkage)
            error_at(ctx, PTX_DIAG_DECL, d->base.span, "parameters have no linkage");
        if (site == PTX_SITE_ENTRY_PARAM && d->space && d->space != PTX_SPACE_PARAM)
            error_at(ctx, PTX_DIAG_DECL, d->base.span, "'.entry' parameters must be '.param'");
        else if (d->space && d->space != PTX_SPACE_PARAM && d->space != PTX_SPACE_REG)
            error_at(ctx, PTX_DIAG_DECL, d->base.span, "parameters must be '.param' or '.reg'");
        if (open_array(&d->vars[0]) && rets && site == PTX_SITE_FUNC_PARAM)
            error_at(ctx, PTX_DIAG_DECL, d->vars[0].span, "a return parameter cannot be an array "
                     "of unknown size ([] or [0])");
        else if (open_array(&d->vars[0]) && i + 1 != n)
            error_at(ctx, PTX_DIAG_DECL, d->vars[0].span, "only the last parameter may be an unsized array");
    }
}

/* ---- functions -------------------------------------------------------- */

ptx_func *ptx_b_func_head(ptx_context *ctx, size_t specs, bool entry, size_t ret,
                          const ptx_tok *name, size_t params, size_t dirs,
                          ptx_loc_t loc)
{
    ptx_func *f = node_new(ctx, PTX_NODE_FUNC, sizeof *f, loc);
    f->is_entry = entry;
    f->name = tok_name(ctx, name);
    f->dirs = take_fdirs(ctx, dirs, &f->ndirs);
    f->has_params = params != PTX_NO_LIST;
    f->params = (ptx_decl **)take(ctx, params, &f->nparams);
    f->has_ret = ret != PTX_NO_LIST;
    f->ret = (ptx_decl **)take(ctx, ret, &f->nret);
    uint32_t n;
    ptx_spec **sp = (ptx_spec **)take(ctx, specs, &n);
    for (uint32_t i = 0; i < n; i++) {
        switch ((ptx_spec_kind)sp[i]->kind) {
        case PTX_SPEC_LINK:
            if (f->linkage)
                error_at(ctx, PTX_DIAG_DECL, sp[i]->span,
                         "only one of .extern, .visible, .weak may be given");
            if (sp[i]->val == PTX_LINK_COMMON)
                error_at(ctx, PTX_DIAG_DECL, sp[i]->span, "'.common' applies to variables only");
            f->linkage = (uint8_t)sp[i]->val;
            break;
        case PTX_SPEC_ATTR_MANAGED:
        case PTX_SPEC_ATTR_UNIFIED:
            if (entry || (sp[i]->attrs & PTX_ATTR_MANAGED))
                error_at(ctx, PTX_DIAG_DECL, sp[i]->span,
                         "a function takes only '.attribute(.unified(...))', after '.func'");
            f->attrs |= sp[i]->attrs;
            f->unified[0] = sp[i]->unified[0];
            f->unified[1] = sp[i]->unified[1];
            break;
        default: {
            char msg[PTX_DIAG_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "'%.*s' cannot precede '%s'", (int)sp[i]->span.len,
                     ctx->src + sp[i]->span.off, entry ? ".entry" : ".func");
            ptx_error_directive(ctx, PTX_DIAG_DECL, sp[i]->span, ctx->src + sp[i]->span.off, sp[i]->span.len,
                                msg);
            break;
        }
        }
    }
    check_params(ctx, f->params, f->nparams, entry ? PTX_SITE_ENTRY_PARAM : PTX_SITE_FUNC_PARAM,
                 false);
    check_params(ctx, f->ret, f->nret, PTX_SITE_FUNC_PARAM, true);
    if (f->nret > 1)
        ptx_diag_add(ctx, PTX_SEV_WARNING, PTX_DIAG_DECL, f->ret[1]->base.span,
                     "more than one return parameter: the ABI returns only one");
    if (entry)
        check_entry_dirs(ctx, f->dirs, f->ndirs);
    else
        check_func_dirs(ctx, f->dirs, f->ndirs, f->nret > 0, ".func");
    /* a parse that keeps no tree builds what comes until ptx_b_func, the
     * body if there is one, where it can let it go (parse.c) */
    if (!ctx->keep_tree && ctx->on_item)
        ctx->tree = &ctx->body;
    return f;
}

/* ptxas 13.0 reads a .pragma after a .func's header at module scope:
 * the header before it is a declaration without ';', so what follows
 * the .pragma's ';' in the grammar's function (another directive, the
 * body's '{', a ';') is its "Parsing error"; and .local_maxnreg ends
 * a header that must go on to its body. */
static void check_func_end(ptx_context *ctx, const ptx_func *f, ptx_loc_t loc)
{
    for (uint32_t i = 0; i < f->ndirs; i++) {
        if (f->dirs[i].kind != PTX_FDIR_LOCAL_MAXNREG)
            continue;
        /* ptxas 13.0 parses .local_maxnreg last, only before a body */
        if (i + 1 < f->ndirs)
            error_at(ctx, PTX_DIAG_SYNTAX, f->dirs[i + 1].span, "'%s' cannot follow "
                     "'.local_maxnreg' in the header of '.func %s': write .local_maxnreg last, "
                     "just before the body", ptx_fdir_name(f->dirs[i + 1].kind), f->name->text);
        else if (!f->body && f->dirs[i].span.off != PTX_NO_OFFSET)
            error_at(ctx, PTX_DIAG_SYNTAX, token_after(ctx, f->dirs[i].span),
                     "'.local_maxnreg' is only for a definition: the body of '.func %s' must "
                     "follow its header here", f->name->text);
        return;
    }
    uint32_t i = 0;
    while (i < f->ndirs && f->dirs[i].kind != PTX_FDIR_PRAGMA)
        i++;
    if (i == f->ndirs)
        return;
    const ptx_fdir *pragma = &f->dirs[i];
    uint32_t j = i + 1;         /* more .pragma lines are at module scope too */
    while (j < f->ndirs && f->dirs[j].kind == PTX_FDIR_PRAGMA)
        pragma = &f->dirs[j++];
    uint32_t end = pragma->span.off + pragma->span.len;
    ptx_span at;
    if (j < f->ndirs)
        at = f->dirs[j].span;
    else if (f->body)
        at = (ptx_span){ f->body->base.span.off, 1 };
    else if (loc.end > end)
        at = (ptx_span){ (uint32_t)loc.end - 1, 1 };
    else
        return;
    if (pragma->span.off == PTX_NO_OFFSET || at.off == PTX_NO_OFFSET)
        return;
    error_at(ctx, PTX_DIAG_SYNTAX, at, "a '.pragma' after the header of '.func %s' ends its "
             "declaration (ptxas reads it at module scope): no directive, body or ';' of the "
             "function may follow; move the .pragma into the body", f->name->text);
}

ptx_node *ptx_b_func(ptx_context *ctx, ptx_func *head, ptx_node *body, ptx_loc_t loc)
{
    if (ctx->tree != &ctx->arena) {
        /* expression cells freed in the body are in it: none may serve
         * what is built outside */
        ctx->tree = &ctx->arena;
        ctx->free_exprs = NULL;
    }
    head->body = (ptx_block *)body;
    head->base.span = span_of(loc);
    if (!head->is_entry)
        check_func_end(ctx, head, loc);
    /* ptxas 13.0 parses no directive on a kernel's declaration
     * (.entry k() .maxntid 256; is "Parsing error near ';'") */
    for (uint32_t i = 0; !body && head->is_entry && i < head->ndirs; i++)
        if (head->dirs[i].kind != PTX_FDIR_PRAGMA) {
            error_at(ctx, PTX_DIAG_DIRECTIVE, head->dirs[i].span,
                     "'%s' on a declaration of a kernel: write it on the definition",
                     ptx_fdir_name(head->dirs[i].kind));
            break;
        }
    return &head->base;
}

ptx_node *ptx_b_callproto(ptx_context *ctx, const ptx_tok *label, size_t ret,
                          size_t params, size_t dirs, ptx_loc_t loc)
{
    ptx_callproto *p = node_new(ctx, PTX_NODE_CALLPROTO, sizeof *p, loc);
    ptx_gate(ctx, ".callprototype", span_of(loc));
    p->label = tok_name(ctx, label);
    p->dirs = take_fdirs(ctx, dirs, &p->ndirs);
    p->has_params = params != PTX_NO_LIST;
    p->params = (ptx_decl **)take(ctx, params, &p->nparams);
    p->has_ret = ret != PTX_NO_LIST;
    p->ret = (ptx_decl **)take(ctx, ret, &p->nret);
    check_params(ctx, p->params, p->nparams, PTX_SITE_PROTO_PARAM, false);
    check_params(ctx, p->ret, p->nret, PTX_SITE_PROTO_PARAM, true);
    check_func_dirs(ctx, p->dirs, p->ndirs, p->nret > 0, ".callprototype");
    return &p->base;
}
