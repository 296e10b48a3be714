/* Checks of a whole module that ptxas makes once it has read it, past
 * syntax and symbols: the size of a kernel's parameters, the values of the
 * performance directives, functions declared and never defined, and, in
 * whole-program mode (the default; ptx_context_set_compile_only turns it
 * off, as ptxas's -c does), the static .shared memory of each kernel.  Every rule and
 * number here was asked of ptxas 13.0 (doc/validity.md lists them).
 *
 * The parse hands each module item here after the semantic pass
 * (parse.c), while a function's body is still in memory: what the end of
 * the module needs is kept in the context's arena, by the interned names'
 * ids. */
#include <string.h>

#include "internal.h"

enum { SYM_FUNC = 1, SYM_SHARED, SYM_EXTERN_VAR };

typedef struct lim_sym {
    const ptx_name *name;
    ptx_span span;              /* its first declaration */
    ptx_span use;               /* a .func's first call, when it has one */
    uint8_t what;               /* SYM_* */
    uint8_t linkage;
    bool entry, defined, called, unsized;
    uint64_t size;              /* SHARED: its bytes; FUNC: the bytes of the
                                   .shared variables its body declares */
    uint32_t *calls, ncalls;    /* FUNC: the syms its body calls */
    uint32_t *refs, nrefs;      /* FUNC: the module's .shared syms it names */
    uint32_t mark;              /* the walk that last reached it */
} lim_sym;

struct ptx_limits {
    lim_sym *syms;
    uint32_t nsyms, cap;
    uint32_t *of;               /* a name's id -> its sym + 1, or 0 */
    uint32_t nof;
    uint32_t nshared;           /* module-scope .shared variables so far */
    uint32_t nfuncs;
    uint32_t nsections;         /* .section items (DWARF) */
    uint64_t const_bytes;       /* the .const bank so far, laid out in order */
    const ptx_var *const_over;  /* the variable that took it past 64 KB */
    uint32_t mark;
    /* the body being walked: what it calls and names, each once */
    uint32_t *list;
    uint32_t nlist, listcap;
};

static ptx_limits *state(ptx_context *ctx)
{
    if (!ctx->limits)
        ctx->limits = ptx_arena_zalloc(&ctx->arena, sizeof *ctx->limits);
    return ctx->limits;
}

static lim_sym *lookup(ptx_limits *L, const ptx_name *n)
{
    if (!n || n->id >= L->nof || !L->of[n->id])
        return NULL;
    return &L->syms[L->of[n->id] - 1];
}

/* Room for one more of n items of `size` bytes at p: doubled (from
 * `first`) into the arena when full, the items copied over. */
static void *grow(ptx_context *ctx, void *p, uint32_t n, uint32_t *cap, uint32_t first, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : first;
    void *grown = ptx_arena_alloc(&ctx->arena, *cap * size);
    if (n)
        memcpy(grown, p, n * size);
    return grown;
}

static lim_sym *add_sym(ptx_context *ctx, ptx_limits *L, const ptx_name *n, uint8_t what,
                        ptx_span span)
{
    lim_sym *s = lookup(L, n);
    if (s)
        return s;
    L->syms = grow(ctx, L->syms, L->nsyms, &L->cap, 16, sizeof *L->syms);
    if (n->id >= L->nof) {
        uint32_t nof = L->nof ? L->nof : 256;
        while (nof <= n->id)
            nof *= 2;
        uint32_t *of = ptx_arena_zalloc(&ctx->arena, nof * sizeof *of);
        if (L->nof)
            memcpy(of, L->of, L->nof * sizeof *of);
        L->of = of;
        L->nof = nof;
    }
    s = &L->syms[L->nsyms];
    memset(s, 0, sizeof *s);
    s->name = n;
    s->what = what;
    s->span = span;
    L->of[n->id] = ++L->nsyms;
    return s;
}

/* Bytes of one variable: its type, vector and dimensions (an unsized
 * array counts 0).  Saturates rather than wraps. */
static uint64_t var_bytes(const ptx_decl *d, const ptx_var *v)
{
    uint64_t b = ptx_type_bits(d->type) / 8;
    if (d->vec)
        b *= d->vec;
    for (uint32_t i = 0; i < v->ndims; i++) {
        if (v->dims[i] && b > UINT64_MAX / v->dims[i])
            return UINT64_MAX;
        b *= v->dims[i];
    }
    return b;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- module-scope declarations --------------------------------------- */

/* The .const bank ptxas lays out for the module, module-scope and body
 * variables in source order, each at its alignment (the element's size
 * without .align; .extern ones are not this module's): above 64 KB it
 * refuses the file, with -c too ("File uses too much global constant
 * data (0x10001 bytes, 0x10000 max)").  An unsized array counts 0, and
 * a body's .const variables count where the body is walked (not with -c):
 * a lower bound, never too much. */
enum { CONST_BANK = 0x10000 };

static void const_add(ptx_limits *L, const ptx_decl *d, const ptx_var *v)
{
    if (d->space != PTX_SPACE_CONST || d->linkage == PTX_LINK_EXTERN)
        return;
    uint64_t align = d->align ? d->align : (ptx_type_bits(d->type) / 8) * (d->vec ? d->vec : 1);
    if (align > 1)
        L->const_bytes = add_sat(L->const_bytes, align - 1) / align * align;
    L->const_bytes = add_sat(L->const_bytes, var_bytes(d, v));
    if (L->const_bytes > CONST_BANK && !L->const_over)
        L->const_over = v;
}

static void module_decl(ptx_context *ctx, ptx_limits *L, const ptx_decl *d)
{
    for (uint32_t i = 0; i < d->nvars; i++) {
        const ptx_var *v = &d->vars[i];
        const_add(L, d, v);
        if (d->space == PTX_SPACE_SHARED) {
            if (d->linkage == PTX_LINK_EXTERN)
                continue;       /* dynamic shared memory: not static */
            lim_sym *s = add_sym(ctx, L, v->name, SYM_SHARED, v->span);
            if (s->what == SYM_SHARED)
                s->size = var_bytes(d, v);
            L->nshared++;
            continue;
        }
        if (d->space != PTX_SPACE_GLOBAL && d->space != PTX_SPACE_CONST)
            continue;
        lim_sym *s = lookup(L, v->name);
        if (d->linkage == PTX_LINK_EXTERN) {
            if (!s) {
                s = add_sym(ctx, L, v->name, SYM_EXTERN_VAR, v->span);
                s->unsized = v->unsized;
            }
        } else if (s && s->what == SYM_EXTERN_VAR) {
            s->defined = true;
        }
    }
}

/* ---- a function's header --------------------------------------------- */

static ptx_span name_span(const ptx_context *ctx, const ptx_func *f);

/* A kernel's parameters laid out as ptxas does, each at its alignment. */
static void param_space(ptx_context *ctx, const ptx_func *f)
{
    uint64_t at = 0;
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ptx_decl *d = f->params[i];
        if (!d || !d->nvars)
            continue;
        uint64_t size = var_bytes(d, &d->vars[0]);
        uint64_t align = d->align ? d->align : ptx_type_bits(d->type) / 8 * (d->vec ? d->vec : 1);
        if (align > 1)
            at = (at + align - 1) / align * align;
        at = add_sat(at, size);
    }
    const ptx_module *m = ctx->module;
    bool big = m->version_major > 8 || (m->version_major == 8 && m->version_minor >= 1);
    uint64_t max = big ? 32764 : 4352;
    if (at > max)
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_LIMIT, name_span(ctx, f),
                     "kernel '%s' has %llu bytes of parameters, above the limit of %llu%s",
                     f->name->text, (unsigned long long)at, (unsigned long long)max,
                     big ? "" : " before PTX ISA 8.1 (32764 from 8.1)");
}

/* ptxas: "Positive non-zero value expected for maxntid" */
static void directive_values(ptx_context *ctx, const ptx_func *f)
{
    for (uint32_t i = 0; i < f->ndirs; i++) {
        const ptx_fdir *d = &f->dirs[i];
        if (d->kind != PTX_FDIR_MAXNREG && d->kind != PTX_FDIR_MAXNTID &&
            d->kind != PTX_FDIR_REQNTID && d->kind != PTX_FDIR_MINNCTAPERSM)
            continue;
        for (uint32_t k = 0; k < d->nvals && k < 3; k++)
            if (d->vals[k] == 0) {
                ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_DIRECTIVE, d->span,
                             "'%s' takes values above 0", ptx_fdir_name(d->kind));
                break;
            }
    }
}

/* ptxas 13.0 on every target from sm_80: ".abi_preserve 256 is invalid",
 * and from 238 on a .func, declared or defined, its return address
 * register runs out ("retaddr_reg 254 is invalid", "Return Address (252)
 * should be less than 253"), which a .callprototype has not (up to 255);
 * ".abi_preserve_control 12 is invalid" on both. */
static void abi_values(ptx_context *ctx, const ptx_fdir *dirs, uint32_t n, unsigned max_preserve)
{
    for (uint32_t i = 0; i < n; i++) {
        const ptx_fdir *d = &dirs[i];
        unsigned max = d->kind == PTX_FDIR_ABI_PRESERVE ? max_preserve
                     : d->kind == PTX_FDIR_ABI_PRESERVE_CONTROL ? 11 : 0;
        if (max && d->nvals >= 1 && d->vals[0] > max)
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_DIRECTIVE, d->span,
                         "'%s %u' is out of range: ptxas takes 0 to %u", ptx_fdir_name(d->kind),
                         d->vals[0], max);
    }
}

/* ---- a function's body ----------------------------------------------- */

static void list_add(ptx_context *ctx, ptx_limits *L, uint32_t sym)
{
    if (L->syms[sym].mark == L->mark)
        return;
    L->syms[sym].mark = L->mark;
    L->list = grow(ctx, L->list, L->nlist, &L->listcap, 64, sizeof *L->list);
    L->list[L->nlist++] = sym;
}

static uint32_t *list_take(ptx_context *ctx, ptx_limits *L, uint32_t *n)
{
    *n = L->nlist;
    uint32_t *out = NULL;
    if (L->nlist) {
        out = ptx_arena_alloc(&ctx->arena, L->nlist * sizeof *out);
        memcpy(out, L->list, L->nlist * sizeof *out);
    }
    L->nlist = 0;
    L->mark++;
    return out;
}

/* The module's .shared variables that an operand names. */
static void operand_refs(ptx_context *ctx, ptx_limits *L, const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_SYM) {
        lim_sym *s = lookup(L, ptx_expr_name(e));
        if (s && s->what == SYM_SHARED && s->mark != ~0u)
            list_add(ctx, L, (uint32_t)(s - L->syms));
        return;
    }
    if (ptx_expr_is_leaf(e) || e->kind == PTX_EXPR_RANGE || ptx_expr_depth(e) > 64)
        return;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        operand_refs(ctx, L, ptx_expr_item(e, i));
}

typedef struct walk {
    uint64_t shared;            /* bytes of the body's .shared variables */
    uint32_t *calls, ncalls, calls_cap;
    bool refs;                  /* the module has .shared variables */
    uint32_t *hidden;           /* module .shared syms a local name hides */
    uint32_t nhidden;
} walk;

static void call_add(ptx_context *ctx, walk *w, lim_sym *s, uint32_t sym, ptx_span at)
{
    if (!s->called) {
        s->called = true;
        s->use = at;
    }
    for (uint32_t i = 0; i < w->ncalls; i++)
        if (w->calls[i] == sym)
            return;
    w->calls = grow(ctx, w->calls, w->ncalls, &w->calls_cap, 8, sizeof *w->calls);
    w->calls[w->ncalls++] = sym;
}

/* The body in source order.  Nested blocks are entered with a stack of
 * where to go on after each (in the arena, grown by grow), not by
 * recursion: 100,000 nested braces cost heap, not C stack. */
static void walk_block(ptx_context *ctx, ptx_limits *L, walk *w, const ptx_node *n)
{
    const ptx_node **after = NULL;      /* the node after each open block */
    uint32_t depth = 0, cap = 0;
    for (;;) {
        if (!n) {
            if (!depth)
                return;
            n = after[--depth];
            continue;
        }
        switch ((ptx_node_kind)n->kind) {
        case PTX_NODE_BLOCK:
            after = grow(ctx, after, depth, &cap, 16, sizeof *after);
            after[depth++] = n->next;
            n = ((const ptx_block *)n)->first;
            continue;
        case PTX_NODE_DECL: {
            const ptx_decl *d = (const ptx_decl *)n;
            for (uint32_t i = 0; i < d->nvars; i++) {
                const_add(L, d, &d->vars[i]);
                if (d->space == PTX_SPACE_SHARED && d->linkage != PTX_LINK_EXTERN)
                    w->shared = add_sat(w->shared, var_bytes(d, &d->vars[i]));
                /* a local name hides a module .shared one from here on:
                 * count it as not used (a lower bound, never too much) */
                lim_sym *s = lookup(L, d->vars[i].name);
                if (s && s->what == SYM_SHARED && s->mark != ~0u) {
                    s->mark = ~0u;
                    if (w->nhidden < 64)
                        w->hidden[w->nhidden++] = (uint32_t)(s - L->syms);
                }
            }
            break;
        }
        case PTX_NODE_CALLPROTO: {
            const ptx_callproto *p = (const ptx_callproto *)n;
            abi_values(ctx, p->dirs, p->ndirs, 255);
            break;
        }
        case PTX_NODE_INSTR: {
            const ptx_instr *in = (const ptx_instr *)n;
            if (in->family == PTX_FAMILY_CALL && in->nops) {
                const ptx_expr *callee = &in->ops[in->ops[0].kind == PTX_EXPR_LIST ? 1 : 0];
                if (callee < in->ops + in->nops && callee->kind == PTX_EXPR_SYM) {
                    lim_sym *s = lookup(L, ptx_expr_name(callee));
                    if (s && s->what == SYM_FUNC)
                        call_add(ctx, w, s, (uint32_t)(s - L->syms), ptx_expr_span(callee));
                }
            }
            if (w->refs)
                for (uint32_t i = 0; i < in->nops; i++)
                    operand_refs(ctx, L, &in->ops[i]);
            break;
        }
        default:
            break;
        }
        n = n->next;
    }
}

/* The function's name where it is declared, for diagnostics: the
 * function's span covers its body. */
static ptx_span name_span(const ptx_context *ctx, const ptx_func *f)
{
    ptx_span s = f->base.span;
    uint32_t n = f->name->len, end = s.off + (s.len < 65536 ? s.len : 65536);
    for (uint32_t at = s.off; at + n <= end && at + n <= ctx->srclen; at++)
        if (!memcmp(ctx->src + at, f->name->text, n) &&
            (at + n == ctx->srclen || !(ctx->src[at + n] == '_' || ctx->src[at + n] == '$' ||
                                        (ctx->src[at + n] >= '0' && ctx->src[at + n] <= '9') ||
                                        ((ctx->src[at + n] | 32) >= 'a' && (ctx->src[at + n] | 32) <= 'z')))) {
            ptx_span r = { at, n };
            return r;
        }
    s.len = 0;
    return s;
}

static void func_item(ptx_context *ctx, ptx_limits *L, const ptx_func *f)
{
    if (f->is_entry) {
        param_space(ctx, f);
        directive_values(ctx, f);
    } else {
        abi_values(ctx, f->dirs, f->ndirs, 237);
    }
    lim_sym *s = lookup(L, f->name);
    if (!s) {
        s = add_sym(ctx, L, f->name, SYM_FUNC, name_span(ctx, f));
        s->linkage = f->linkage;
        s->entry = f->is_entry;
        L->nfuncs++;
    }
    if (s->what != SYM_FUNC || !f->body || s->defined)
        return;
    s->defined = true;
    if (ctx->compile_only) {
        /* the walk below is the whole program's; of it, -c keeps the
         * prototypes' values */
        ptx_iter *it = ptx_iter_new_node(&f->body->base);
        const ptx_node *n;
        while (it && ptx_iter_next(it, &n) > 0)
            if (n->kind == PTX_NODE_CALLPROTO)
                abi_values(ctx, ((const ptx_callproto *)n)->dirs,
                           ((const ptx_callproto *)n)->ndirs, 255);
        ptx_iter_free(it);
        return;
    }
    uint32_t hidden[64];
    walk w = { .refs = L->nshared > 0, .hidden = hidden };
    walk_block(ctx, L, &w, f->body->first);
    for (uint32_t i = 0; i < w.nhidden; i++)
        L->syms[hidden[i]].mark = 0;
    s = lookup(L, f->name);     /* the walk may not move syms, but be plain */
    s->size = w.shared;
    s->calls = w.calls;
    s->ncalls = w.ncalls;
    s->refs = list_take(ctx, L, &s->nrefs);
}

void ptx_limits_item(ptx_context *ctx, const ptx_node *item)
{
    if (!ctx->module)
        return;
    ptx_limits *L = state(ctx);
    if (L->mark == 0)
        L->mark = 1;
    if (item->kind == PTX_NODE_DECL)
        module_decl(ctx, L, (const ptx_decl *)item);
    else if (item->kind == PTX_NODE_SECTION || item->kind == PTX_NODE_DWARF)
        L->nsections++;
    else if (item->kind == PTX_NODE_ALIAS) {
        /* .alias a, b: a is defined as b */
        lim_sym *s = lookup(L, ((const ptx_alias *)item)->alias);
        if (s)
            s->defined = true;
    }
    else if (item->kind == PTX_NODE_FUNC)
        func_item(ctx, L, (const ptx_func *)item);
}

/* ---- the end of the module ------------------------------------------- */

/* The functions ptxas 13.0 itself provides to a whole program: an
 * '.extern' declaration of one is resolved (asked of it one by one: the
 * names it keeps beside each other; vprintf, malloc, free, __assertfail
 * are what nvcc declares).  Its intrinsic families are taken by prefix,
 * to stay on the side of accepting. */
static bool ptxas_provides(const char *name)
{
    static const char *const exact[] = {
        "vprintf", "malloc", "free", "vfprintf", "__assertfail", "__profile", "cudaGraphLaunch",
    };
    static const char *const prefix[] = { "cnp", "__cuda_sm70_", "__cuda_reduxsync_", "%mbarrier_" };
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (!strcmp(name, exact[i]))
            return true;
    for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
        if (!strncmp(name, prefix[i], strlen(prefix[i])))
            return true;
    return false;
}

/* ptxas 13.0's static shared memory per kernel: 48 KB, but the
 * architecture-specific targets of the large-memory GPUs. */
static uint64_t shared_max(const ptx_module *m)
{
    unsigned sm = ptx_module_sm(m);
    bool a = false;
    for (uint32_t i = 0; i < m->ntargets; i++) {
        const char *t = m->targets[i]->text;
        size_t n = strlen(t);
        if ((!strncmp(t, "sm_", 3) || !strncmp(t, "compute_", 8)) && n && t[n - 1] == 'a') {
            a = true;
            break;
        }
    }
    if (a && (sm == 90 || sm == 100 || sm == 101 || sm == 103 || sm == 110))
        return 232448;
    if (a && (sm == 120 || sm == 121))
        return 101376;
    return 49152;
}

/* The .shared bytes kernel `k` reaches: its body's, those of every
 * function it calls (directly, transitively) and the module's .shared
 * variables any of them names, each counted once. */
static uint64_t entry_shared(ptx_limits *L, uint32_t k, uint32_t *stack)
{
    uint32_t mark = ++L->mark, n = 0;
    uint64_t total = 0;
    stack[n++] = k;
    L->syms[k].mark = mark;
    while (n) {
        const lim_sym *f = &L->syms[stack[--n]];
        total = add_sat(total, f->size);
        for (uint32_t i = 0; i < f->nrefs; i++) {
            lim_sym *v = &L->syms[f->refs[i]];
            if (v->mark != mark) {
                v->mark = mark;
                total = add_sat(total, v->size);
            }
        }
        for (uint32_t i = 0; i < f->ncalls; i++) {
            lim_sym *g = &L->syms[f->calls[i]];
            if (g->mark != mark) {
                g->mark = mark;
                stack[n++] = f->calls[i];
            }
        }
    }
    return total;
}

void ptx_limits_end(ptx_context *ctx)
{
    ptx_limits *L = ctx->limits;
    const ptx_module *m = ctx->module;
    if (!L || !m || ctx->nerrors)
        return;
    bool whole = !ctx->compile_only;
    /* ptxas, both modes: "Debug information not found in presence of
     * .target debug" when no .section holds DWARF (any one will do here:
     * with .debug_info alone it warns and compiles) */
    for (uint32_t i = 0; i < m->ntargets && !L->nsections; i++)
        if (!strcmp(m->targets[i]->text, "debug"))
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_HEADER, m->target_span,
                         "'.target debug' needs debug information: a '.section .debug_...' "
                         "(ptxas: \"Debug information not found\")");
    /* as for .shared below, past 2 GB ptxas's sum is no guide */
    if (L->const_bytes > CONST_BANK && L->const_bytes < ((uint64_t)1 << 31))
        ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_LIMIT, L->const_over->span,
                     "'%s' takes the module's .const variables past the %u bytes of the "
                     "constant bank ptxas gives a file (%llu bytes in all)",
                     L->const_over->name->text, (unsigned)CONST_BANK,
                     (unsigned long long)L->const_bytes);
    for (uint32_t i = 0; i < L->nsyms; i++) {
        const lim_sym *s = &L->syms[i];
        if (s->what == SYM_FUNC && !s->defined && !s->entry && !ptxas_provides(s->name->text)) {
            if (s->linkage != PTX_LINK_EXTERN)
                ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_SYMBOL, s->span,
                             "function '%s' is declared but not defined in this module (ptxas: "
                             "\"Unresolved extern function\"); declare it '.extern' if another "
                             "module defines it", s->name->text);
        }
        /* Not yet: an '.extern' function called, or an unsized '.extern'
         * array, that the module does not define (ptxas's whole program:
         * "Unresolved extern function/variable"): the suites that read the
         * corpus's rdc files as whole programs (graphs, bbcount, twoways,
         * json) must pass -c for them first (doc/validity.md) */
    }
    if (!whole || (!L->nshared && !L->nfuncs))
        return;
    uint64_t max = shared_max(m);
    uint32_t *stack = NULL;
    for (uint32_t i = 0; i < L->nsyms; i++) {
        const lim_sym *s = &L->syms[i];
        if (s->what != SYM_FUNC || !s->entry || !s->defined)
            continue;
        if (!stack)
            stack = ptx_arena_alloc(&ctx->arena, (L->nsyms + 1) * sizeof *stack);
        uint64_t used = entry_shared(L, i, stack);
        /* ptxas 13.0 adds the sizes up in 32 signed bits: from 2 GB on it
         * refuses nothing (2^31, 3e9, 2^32 and 2^32+100 bytes all taken,
         * 2^31-1 refused), so neither does this */
        if (used > max && used < ((uint64_t)1 << 31))
            ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_LIMIT, s->span,
                         "kernel '%s' uses at least %llu bytes of static .shared memory, above "
                         "the %llu bytes %s allows (with -c the linker checks it)",
                         s->name->text, (unsigned long long)used, (unsigned long long)max,
                         m->ntargets ? m->targets[0]->text : "its target");
    }
}
