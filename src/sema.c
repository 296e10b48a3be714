/* The semantic pass: scopes, symbols and operand types, as ptxas judges
 * them.  One walk over the module in source order, as ptxas reads it:
 *
 * - module scope: variables and functions, each usable after its
 *   declaration; a function's parameters and its body's top level share
 *   one scope, each { } block opens another (an inner name hides an outer
 *   one); labels belong to their block and are known in it and the blocks
 *   inside it from the block's start (forward branches);
 * - every instruction is checked against the syntax tables (isa_match.c), told
 *   which operands are predicates; then each name in it is resolved and
 *   each operand's type compared with what the matched form says
 *   (grammar/isa: an operand's ":TYPE");
 * - what the pass learns stays in its own tables, freed at the end.
 *
 *
 * The pass is in sema_*.c (sema_impl.h lists them); this file drives it. */
#include "sema_impl.h"

/* ---- ptx_resolve_names ------------------------------------------------------ */

static void visit_name(sema *S, const ptx_node *stmt, const ptx_expr *e)
{
    if (S->stop)
        return;
    ptx_symbol out;
    const ptx_name *name = ptx_expr_name(e);
    sema_symbol_of(name, lookup(S, name), &out);
    if (!S->visit(S->visit_user, stmt, e, &out))
        S->stop = true;
}

/* Keeps what `e` resolves to (the walk of a check that keeps the tree):
 * a symbol's ptx_symbol is made once, in the context's arena, and the
 * names that are no symbol's share one of two. */
static void record_name(sema *S, const ptx_node *stmt, const ptx_expr *e)
{
    static const ptx_symbol none = { 0 };
    static const ptx_symbol special = { .kind = PTX_SYM_SPECIAL, .span = { PTX_NO_OFFSET, 0 } };
    const ptx_name *name = ptx_expr_name(e);
    sym *s = lookup(S, name);
    const ptx_symbol *out;
    if (s) {
        if (!s->pub)
            s->pub = sema_publish(S, s, s->span);
        out = s->pub;
    } else {
        ptx_symbol what;        /* a special register, or nothing */
        sema_symbol_of(name, NULL, &what);
        out = what.kind == PTX_SYM_SPECIAL ? &special : &none;
    }
    struct ptx_name_refs *r = S->rec;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 1024;
        ptx_name_ref *v = realloc(r->v, cap * sizeof *v);
        if (!v)
            longjmp(*S->oom, 1);
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = (ptx_name_ref){ stmt, e, out };
}


/* Each name of `in` to fn (visit_name or record_name), the guard's first */
static void instr_names(sema *S, const ptx_instr *in,
                        void (*fn)(sema *, const ptx_node *, const ptx_expr *))
{
    const ptx_expr *g = ptx_instr_guard(in);
    if (g && g->kind == PTX_EXPR_SYM)
        fn(S, &in->base, g);
    for (unsigned i = 0; i < in->nops; i++)
        sema_each_name(S, &in->base, &in->ops[i], fn);
}

/* The constants of an initialiser against the variable's type, as ptxas
 * judges them ("Initial value type mismatch"): an integer for a float
 * variable, a decimal float for an integer one. */
static void check_init_values(sema *S, tclass t, const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_VEC) {
        for (uint32_t i = 0; i < ptx_expr_count(e); i++)
            check_init_values(S, t, ptx_expr_item(e, i));
        return;
    }
    char k = sema_literal_kind(e);
    char buf[16];
    /* 0f and 0d constants are floating-point too (.u32 v = 0f3F800000) */
    if ((t.k == 'f' && k == 'i') ||
        ((t.k == 'u' || t.k == 's') && (k == 'f' || k == 'h' || k == 'd')))
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "%s constant initialises a %s variable",
              k == 'i' ? "an integer" : "a floating-point", sema_class_name(t, buf, sizeof buf));
}

/* The braces of an initialiser against the variable's shape, as ptxas
 * 13.0 reads them: one level of { } per dimension and one for a .vN
 * vector, none for a scalar ("Initial value type mismatch": .b32 v = {1},
 * .b32 v[4] = 1, .b32 v[2][2] = {1,2}), and no more values at a level
 * than its size ("Greater number of elements in array initializer").
 * `level` counts the levels above e; false after an error. */
static bool check_init_shape(sema *S, const ptx_decl *d, const ptx_var *v, const ptx_expr *e,
                             uint32_t level)
{
    uint32_t depth = v->ndims + (d->vec ? 1u : 0u);
    bool list = e->kind == PTX_EXPR_VEC;
    if (level == depth) {
        if (list)
            sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "a { } list where '%s' takes a single "
                  "value here: give one { } per dimension%s", v->name->text,
                  d->vec ? " and one for the vector" : "");
        return !list;
    }
    if (!list) {
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "a single value where '%s' takes a { } list "
              "here: give one { } per dimension%s", v->name->text,
              d->vec ? " and one for the vector" : "");
        return false;
    }
    if (level == 0 && v->ndims && !v->dims[0] && !ptx_expr_count(e)) {
        /* ptxas 13.0: "Initial value type mismatch" (v[2] = {} is zeros) */
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "an empty { } cannot size the array '%s': "
                   "give its values or its size", v->name->text);
        return false;
    }
    uint64_t size = level < v->ndims ? v->dims[level] : d->vec;
    if (size && ptx_expr_count(e) > size) {
        sema_error(S, PTX_DIAG_DECL, ptx_expr_span(e), "%u initial values for the %llu elements of '%s'",
              ptx_expr_count(e), (unsigned long long)size, v->name->text);
        return false;
    }
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        if (!check_init_shape(S, d, v, ptx_expr_item(e, i), level + 1))
            return false;
    return true;
}

/* Addresses among the values against the variable's type, as ptxas 13.0
 * judges them ("Initial value type mismatch", at every .version): an
 * address (g, generic(g), g+4) initialises a .u32 or .u64 variable, and a
 * byte of one (0xFF00(g)) a .u8, .u32 or .u64 one; .b64, .s64 and the
 * other types refuse both. */
static void check_init_addresses(sema *S, const ptx_decl *d, const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_VEC) {
        for (uint32_t i = 0; i < ptx_expr_count(e); i++)
            check_init_addresses(S, d, ptx_expr_item(e, i));
        return;
    }
    const ptx_expr *a = sema_name_in(e);
    if (!a)
        return;
    bool mask = e->kind == PTX_EXPR_MASK;
    /* the shape ptxas parses: NAME or generic(NAME), then + constants
     * ((g+4)+4 as the parser nests it), the whole in a byte mask or not:
     * g-4, 1+g, (g+4), generic(g+4), g+g are its syntax errors */
    const ptx_expr *base = sema_sum_base(mask ? ptx_expr_b(e) : e);
    if (base->kind == PTX_EXPR_GENERIC)
        base = ptx_expr_a(base);
    if (base->kind != PTX_EXPR_SYM) {
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e),
                   "an address in an initial value is 'NAME' or 'generic(NAME)', then '+ constant' "
                   "if any%s", mask ? ", in the byte mask's parentheses" : "");
        return;
    }
    if (d->type == PTX_TYPE_U32 || d->type == PTX_TYPE_U64 || (mask && d->type == PTX_TYPE_U8))
        return;
    sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e),
               "%s of '%s' initialises a %s variable: an address goes in a .u32 or .u64 "
               "variable%s", mask ? "a byte of the address" : "the address", ptx_expr_name(a)->text,
               ptx_type_name(d->type), mask ? ", a byte of one in a .u8 variable too" : "");
}

static void check_decl_init(sema *S, const ptx_decl *d, const ptx_var *v)
{
    const ptx_expr *e = v->init;
    if (d->type == PTX_TYPE_PRED || d->type == PTX_TYPE_F16 || d->type == PTX_TYPE_F16X2) {
        sema_error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "a %s variable takes no initial value",
              ptx_type_name(d->type));
        return;
    }
    /* a sampler's { name = value, ... } is no array */
    if (d->type != PTX_TYPE_SAMPLERREF && d->type != PTX_TYPE_TEXREF &&
        d->type != PTX_TYPE_SURFREF && !check_init_shape(S, d, v, e, 0))
        return;
    if (!d->vec)
        check_init_values(S, sema_decl_class(d->type), e);
    if (d->type != PTX_TYPE_SAMPLERREF && d->type != PTX_TYPE_TEXREF && d->type != PTX_TYPE_SURFREF)
        check_init_addresses(S, d, e);
}

/* The walk goes into function or block n: its children come next. */
static void enter(sema *S, const ptx_node *n)
{
    S->open = sema_grow(S, S->open, &S->capopen, S->nopen, sizeof *S->open);
    S->open[S->nopen++] = n;
}

/* The module from `first` on, in source order, depth first, with a stack of its own so
 * that nesting of any depth costs heap, not C stack; a function's body
 * shares its parameters' scope, every other block opens one. */
static void walk(sema *S, const ptx_node *first)
{
    const ptx_node *n = first;
    bool body_next = false;     /* the next block is a function's body */
    while (!(S->ctx && S->ctx->stopped) && !S->stop) {
        if (!n) {
            if (!S->nopen)
                break;
            /* out of the innermost function or block */
            const ptx_node *c = S->open[--S->nopen];
            if (c->kind == PTX_NODE_FUNC) {
                sema_close_scope(S);
                S->func = NULL;
            } else if (!S->func || c != &S->func->body->base) {
                sema_close_scope(S);
            }
            /* a function's body is its only child */
            n = S->nopen && S->open[S->nopen - 1]->kind == PTX_NODE_FUNC ? NULL : c->next;
            continue;
        }
        const ptx_node *next = n->next;
        switch ((ptx_node_kind)n->kind) {
        case PTX_NODE_INSTR:
            if (S->visit) {
                instr_names(S, (const ptx_instr *)n, visit_name);
            } else {    /* ptx_sema_run's module, which the context owns and
                           hands over to be written */
                sema_check_instr(S, (ptx_instr *)n);
                if (S->rec)
                    instr_names(S, (const ptx_instr *)n, record_name);
            }
            break;
        case PTX_NODE_DECL: {
            const ptx_decl *d = (const ptx_decl *)n;
            for (uint32_t i = 0; i < d->nvars; i++) {
                if (!d->vars[i].init)
                    continue;
                if (S->visit) {
                    sema_each_name(S, n, d->vars[i].init, visit_name);
                } else {
                    sema_each_name(S, n, d->vars[i].init, sema_check_init_name);
                    check_decl_init(S, d, &d->vars[i]);
                    if (S->rec)
                        sema_each_name(S, n, d->vars[i].init, record_name);
                }
            }
            sema_declare_decl(S, d);
            break;
        }
        case PTX_NODE_FUNC: {
            const ptx_func *f = (const ptx_func *)n;
            sema_declare_func(S, f);
            if (f->body) {
                sema_open_scope(S);
                S->func = f;
                sema_declare_params(S, f->ret, f->nret);
                sema_declare_params(S, f->params, f->nparams);
                body_next = true;
                enter(S, n);
                next = &f->body->base;
            }
            break;
        }
        case PTX_NODE_BLOCK: {
            const ptx_block *b = (const ptx_block *)n;
            if (!body_next)
                sema_open_scope(S);
            body_next = false;
            sema_declare_labels(S, b->first);
            enter(S, n);
            next = b->first;
            break;
        }
        case PTX_NODE_TARGETS: {
            const ptx_targets *t = (const ptx_targets *)n;
            if (!S->visit)
                sema_check_targets(S, t);
            void (*fn)(sema *, const ptx_node *, const ptx_expr *) =
                S->visit ? visit_name : S->rec ? record_name : NULL;
            for (uint32_t i = 0; fn && i < t->count; i++)
                sema_each_name(S, n, t->names[i], fn);
            break;
        }
        case PTX_NODE_FILE:
            sema_check_file(S, (const ptx_file *)n);
            break;
        case PTX_NODE_LOC:
            sema_check_loc(S, (const ptx_loc *)n);
            break;
        case PTX_NODE_SECTION:
            sema_check_section(S, (const ptx_section *)n);
            break;
        default:                /* a section's contents hold no names */
            break;
        }
        n = next;
    }
}

static void sema_free(sema *S)
{
    ptx_table_free(S->ctx, S->names, S->capnames * sizeof *S->names, S->names_mapped);
    free(S->open);
    ptx_ctx_free(S->ctx, S->foreign, (S->foreign_mask + 1) * sizeof *S->foreign);
    ptx_ctx_free(S->ctx, S->prefixes, (S->prefixes_mask + 1) * sizeof *S->prefixes);
    free(S->undo);
    free(S->marks);
    sema_caches_free(S);
    sema_debug_free(S);
    ptx_arena_release(&S->arena);
}

/* The tables, for module m; out of memory jumps to *oom. */
static void sema_setup(sema *S, ptx_module *m, jmp_buf *oom)
{
    S->oom = oom;
    S->src = S->ctx ? S->ctx->src : NULL;
    ptx_arena_init(&S->arena);
    S->arena.oom = oom;
    S->arena.pool = S->ctx ? &S->ctx->pool : NULL;
    S->m = m;
    S->target = ptx_module_sm(m);
    S->version = m->version_major * 10u + m->version_minor;
    S->epoch = 1;
    sema_names_grow(S);
    sema_caches_setup(S);
}

/* Walks m with the tables set up; false when out of memory. */
static bool sema_walk(sema *S, ptx_module *m)
{
    jmp_buf oom;
    if (setjmp(oom)) {
        sema_free(S);
        return false;
    }
    /* called through volatile pointers so that neither is inlined here:
     * their locals must not live in the frame that setjmp saved */
    void (*volatile setup)(sema *, ptx_module *, jmp_buf *) = sema_setup;
    void (*volatile run)(sema *, const ptx_node *) = walk;
    setup(S, m, &oom);
    run(S, m->first);
    sema_free(S);
    return true;
}

/* Where a check of ctx's module keeps its names' resolutions: the
 * context's, emptied, when they are asked for and the tree is kept (in a
 * parse that keeps no tree the bodies are let go as they are checked);
 * else NULL. */
static struct ptx_name_refs *records_start(ptx_context *ctx, ptx_module *m)
{
    m->names_resolved = NULL;
    if (!ctx->keep_tree || !ctx->keep_names)
        return NULL;
    ctx->refs.n = 0;
    return &ctx->refs;
}

/* The module of a check that kept its resolutions gets them, when it
 * went through whole and found nothing wrong (the walk of a module with
 * errors may have stopped early, or met items the module does not
 * keep: ptx_resolve_names walks such a one again). */
static void records_end(ptx_context *ctx, ptx_module *m, struct ptx_name_refs *rec)
{
    if (!rec || !m || ctx->nerrors || ctx->stopped)
        return;
    rec->edits = ptx_edit_count();
    m->names_resolved = rec;
}

void ptx_sema_run(ptx_context *ctx, ptx_module *m)
{
    sema S;
    memset(&S, 0, sizeof S);
    S.ctx = ctx;
    S.rec = records_start(ctx, m);
    if (!sema_walk(&S, m))
        longjmp(ctx->oom, 1);
    records_end(ctx, m, S.rec);
}

/* Out of memory jumps to the parse's ctx->oom; the parse driver then
 * calls ptx_sema_end, which frees what the tables hold. */
void ptx_sema_item(ptx_context *ctx, ptx_node *item)
{
    sema *S = ctx->sema;
    if (!item || !ctx->module)
        return;
    if (!S) {
        S = ctx->sema = calloc(1, sizeof *S);
        if (!S)
            longjmp(ctx->oom, 1);
        S->ctx = ctx;
        S->rec = records_start(ctx, ctx->module);
        sema_setup(S, ctx->module, &ctx->oom);
    }
    walk(S, item);
}

void ptx_sema_end(ptx_context *ctx)
{
    if (!ctx->sema)
        return;
    records_end(ctx, ctx->module, ctx->sema->rec);
    sema_free(ctx->sema);
    free(ctx->sema);
    ctx->sema = NULL;
}

ptx_status ptx_sema_names(const ptx_module *m, ptx_name_fn fn, void *user)
{
    if (!m || !fn)
        return PTX_ERR_USAGE;
    const struct ptx_name_refs *r = m->names_resolved;
    if (r && r->edits == ptx_edit_count()) {
        /* the semantic pass's own answers, from the check */
        for (size_t i = 0; i < r->n; i++)
            if (!fn(user, r->v[i].stmt, r->v[i].name, r->v[i].sym))
                break;
        return PTX_OK;
    }
    sema S;
    memset(&S, 0, sizeof S);
    S.visit = fn;
    S.visit_user = user;
    /* the walk reads the tree only: the const goes no further than here */
    return sema_walk(&S, (ptx_module *)m) ? PTX_OK : PTX_ERR_NOMEM;
}

ptx_status ptx_resolve_names(const ptx_module *m, ptx_name_fn fn, void *user)
{
    return ptx_sema_names(m, fn, user);
}

const ptx_func *ptx_find_function(const ptx_module *m, const char *name)
{
    const ptx_func *found = NULL;
    if (!m || !name)
        return NULL;
    for (const ptx_node *n = m->first; n; n = n->next) {
        if (n->kind != PTX_NODE_FUNC)
            continue;
        const ptx_func *f = (const ptx_func *)n;
        if (!strcmp(f->name->text, name) && (!found || !found->body))
            found = f;
    }
    return found;
}

const ptx_decl *ptx_find_variable(const ptx_module *m, const char *name, const ptx_var **var)
{
    const ptx_decl *found = NULL;
    const ptx_var *fv = NULL;
    if (var)
        *var = NULL;
    if (!m || !name)
        return NULL;
    for (const ptx_node *n = m->first; n; n = n->next) {
        if (n->kind != PTX_NODE_DECL)
            continue;
        const ptx_decl *d = (const ptx_decl *)n;
        for (uint32_t i = 0; i < d->nvars; i++) {
            if (strcmp(d->vars[i].name->text, name) != 0)
                continue;
            if (!found || found->linkage == PTX_LINK_EXTERN) {
                found = d;
                fv = &d->vars[i];
            }
        }
    }
    if (var)
        *var = fv;
    return found;
}

