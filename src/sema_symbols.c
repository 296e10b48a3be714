/* The semantic pass: scopes and symbols.  Each name has an entry (by
 * its interned id); declarations push symbols, scopes pop them; lookup
 * (sema_impl.h) finds the innermost symbol of a name. */
#include "sema_impl.h"

void *sema_grow(sema *S, void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? 2 * *cap : 16;
    void *q = realloc(p, c * size);
    if (!q)
        longjmp(*S->oom, 1);
    *cap = c;
    return q;
}


/* The number at the end of `name` (%r12: 12, prefix length 2); false
 * when there is none. */
static bool split_number(const ptx_name *name, uint32_t *plen, uint32_t *num)
{
    uint32_t d = 0;
    while (d < name->len && name->text[name->len - 1 - d] >= '0' &&
           name->text[name->len - 1 - d] <= '9')
        d++;
    if (!d || d == name->len || d > 9)     /* %q01 is a name of %q<10> too (ptxas) */
        return false;
    *plen = name->len - d;
    uint32_t v = 0;
    for (uint32_t i = *plen; i < name->len; i++)
        v = v * 10 + (uint32_t)(name->text[i] - '0');
    *num = v;
    return true;
}

/* name_entry.number of `name` */
static uint32_t number_code(const ptx_name *name)
{
    uint32_t plen, num;
    if (!split_number(name, &plen, &num))
        return 0;
    return (name->len - plen) << NUMBER_SHIFT | (num < NUMBER_MAX ? num : NUMBER_MAX);
}

/* The count of the final digits of c's name; 0 when it has no number. */
static inline uint32_t number_digits(const name_entry *c)
{
    return c->number >> NUMBER_SHIFT;
}

/* The number at the end of c's name, which has one. */
static inline uint32_t number_of(const name_entry *c)
{
    uint32_t v = c->number & NUMBER_MAX;
    if (v == NUMBER_MAX) {
        uint32_t plen;
        split_number(c->name, &plen, &v);
    }
    return v;
}

static bool name_home(const void *entry, size_t *hash)
{
    const name_entry *c = entry;
    if (!c->name)
        return false;
    *hash = c->name->hash;
    return true;
}

/* A fresh entry for `name` in `c`. */
static name_entry *entry_init(name_entry *c, const ptx_name *name)
{
    c->name = name;
    c->number = number_code(name);
    return c;
}

/* The entry of a name whose id is another's: a node from another
 * context, whose names are numbered apart. */
static name_entry *foreign_entry(sema *S, const ptx_name *name)
{
    if (!S->foreign || (S->nforeign + 1) * 2 > S->foreign_mask + 1)
        S->foreign = table_double(S, S->foreign, &S->foreign_mask, 64, sizeof *S->foreign,
                                  name_home);
    size_t i = name->hash & S->foreign_mask;
    while (S->foreign[i].name && S->foreign[i].name != name)
        i = (i + 1) & S->foreign_mask;
    name_entry *c = &S->foreign[i];
    if (c->name)
        return c;
    S->nforeign++;
    return entry_init(c, name);
}

/* Makes the entries of ids up to `id` usable (zeroed), and with a
 * context those of every name it has interned so far: a pass over a
 * whole module makes its table once, of the size it needs.  The room
 * at least doubles when it grows, so that names interned while the pass
 * runs cost no copy each; room past what is zeroed is never touched. */
static void names_reach(sema *S, size_t id)
{
    size_t want = id + 1;
    if (S->ctx && S->ctx->names.count > want)
        want = S->ctx->names.count;
    if (want > S->capnames) {
        size_t cap = S->capnames ? 2 * S->capnames : 256, mapped;
        if (cap < want)
            cap = want;
        name_entry *t = ptx_table_zalloc(S->ctx, cap * sizeof *t, &mapped);
        if (!t)
            longjmp(*S->oom, 1);
        if (S->nnames)
            memcpy(t, S->names, S->nnames * sizeof *t);
        ptx_table_free(S->ctx, S->names, S->capnames * sizeof *t, S->names_mapped);
        S->names = t;
        S->names_mapped = mapped;
        S->capnames = cap;
    }
    /* (the room past nnames was zeroed with the array, and is not
     * written until it is reached) */
    if (want > S->nnames)
        S->nnames = want;
}

/* Room for every name the context has interned so far. */
void sema_names_grow(sema *S)
{
    if (S->ctx && S->ctx->names.count)
        names_reach(S, S->ctx->names.count - 1);
}

/* entry_of's way when the entry of name's id is not name's */
name_entry *sema_entry_new(sema *S, const ptx_name *name)
{
    if (name->id >= S->nnames)
        names_reach(S, name->id);
    name_entry *c = &S->names[name->id];
    return c->name ? foreign_entry(S, name) : entry_init(c, name);
}


static bool prefix_home(const void *entry, size_t *hash)
{
    const prefix *const *x = entry;
    if (!*x)
        return false;
    *hash = (*x)->hash;
    return true;
}

/* The record of prefix text[0..len) (hash h) in S's table, which has
 * one, or NULL */
static prefix *prefix_in(const sema *S, const char *text, uint32_t len, uint32_t h)
{
    for (size_t i = h & S->prefixes_mask; S->prefixes[i]; i = (i + 1) & S->prefixes_mask) {
        prefix *x = S->prefixes[i];
        if (x->hash == h && x->len == len && memcmp(x->text, text, len) == 0)
            return x;
    }
    return NULL;
}

/* The record of prefix text[0..len), or NULL when none was made. */
static prefix *prefix_find(const sema *S, const char *text, uint32_t len)
{
    return S->prefixes ? prefix_in(S, text, len, ptx_hash_bytes(text, len)) : NULL;
}

/* The record of prefix text[0..len), made on first need (text is a
 * name's, which outlives the pass). */
static prefix *prefix_add(sema *S, const char *text, uint32_t len)
{
    uint32_t h = ptx_hash_bytes(text, len);
    prefix *x = S->prefixes ? prefix_in(S, text, len, h) : NULL;
    if (x)
        return x;
    if (!S->prefixes || (S->nprefixes + 1) * 2 > S->prefixes_mask + 1)
        S->prefixes = table_double(S, S->prefixes, &S->prefixes_mask, 64, sizeof *S->prefixes,
                                   prefix_home);
    size_t i = h & S->prefixes_mask;
    while (S->prefixes[i])
        i = (i + 1) & S->prefixes_mask;
    x = ptx_arena_alloc(&S->arena, sizeof *x);
    *x = (prefix){ text, len, h, NULL, NULL };
    S->prefixes[i] = x;
    S->nprefixes++;
    return x;
}

/* The prefix of c's name, which has a number (%r of %r12) */
static prefix *prefix_of_entry(sema *S, name_entry *c)
{
    if (!c->prefix)
        c->prefix = prefix_add(S, c->name->text, c->name->len - number_digits(c));
    return c->prefix;
}

static sym *new_sym(sema *S, uint8_t kind, const ptx_name *name, ptx_span span,
                    const ptx_node *node)
{
    /* a function's symbols are reused by the next one: the tables hold
     * one function at a time, not the whole module */
    sym *s = S->free_syms;
    if (s) {
        S->free_syms = s->shadow;
        memset(s, 0, sizeof *s);
    } else {
        s = ptx_arena_zalloc(&S->arena, sizeof *s);
    }
    s->kind = kind;
    s->name = name;
    s->span = span;
    s->node = node;
    s->scope = S->scope;
    return s;
}

/* Makes `s` visible from now until its scope ends. */
static void push_sym(sema *S, sym *s)
{
    S->undo = sema_grow(S, S->undo, &S->capundo, S->nundo, sizeof *S->undo);
    S->undo[S->nundo++] = s;
    if (s->range) {
        prefix *x = prefix_add(S, s->name->text, s->name->len);
        s->shadow = x->ranges;
        x->ranges = s;
        S->nranges++;
        S->epoch++;
        return;
    }
    name_entry *c = entry_of(S, s->name);
    c->epoch = 0;
    s->shadow = c->top;
    c->top = s;
    if (number_digits(c)) {
        prefix *x = prefix_of_entry(S, c);
        s->kin = x->singles;
        x->singles = s;
    }
    S->singles = true;
}

void sema_open_scope(sema *S)
{
    S->marks = sema_grow(S, S->marks, &S->capmarks, S->nmarks, sizeof *S->marks);
    S->marks[S->nmarks++] = S->nundo;
    S->scope++;
}

void sema_close_scope(sema *S)
{
    size_t mark = S->marks[--S->nmarks];
    bool ranges = false;
    while (S->nundo > mark) {
        sym *s = S->undo[--S->nundo];
        if (s->range) {
            prefix *x = prefix_find(S, s->name->text, s->name->len);
            x->ranges = s->shadow;
            S->nranges--;
            ranges = true;
        } else {
            name_entry *c = entry_of(S, s->name);
            c->top = s->shadow;
            c->epoch = 0;
            if (number_digits(c))
                c->prefix->singles = s->kin;
        }
        s->shadow = S->free_syms;
        S->free_syms = s;
    }
    S->scope--;
    if (ranges)
        S->epoch++;
}

/* The range of the innermost scope that declares c's name, whose number
 * `num` starts after its prefix (%r5 of %r<10>): the first of its
 * prefix's ranges that holds the number (an inner %t<2> hides %t0 and
 * %t1 of an outer %t<4>, not %t3).  c keeps its prefix's record once
 * there is one. */
static inline sym *range_find(const sema *S, name_entry *c, uint32_t num)
{
    if (!c->prefix &&
        !(c->prefix = prefix_find(S, c->name->text, c->name->len - number_digits(c))))
        return NULL;
    for (sym *r = c->prefix->ranges; r; r = r->shadow)
        if (num < r->range)
            return r;
    return NULL;
}

/* range_at for a name whose number the entry could not keep: out of
 * line, so that range_at calls nothing and saves no registers */
static NOINLINE sym *range_at_whole(const sema *S, name_entry *c)
{
    return range_find(S, c, number_of(c));
}

static sym *range_at(const sema *S, name_entry *c)
{
    uint32_t num = c->number & NUMBER_MAX;
    return num == NUMBER_MAX ? range_at_whole(S, c) : range_find(S, c, num);
}

/* The range c's name is a name of, if any */
static sym *range_of(const sema *S, name_entry *c)
{
    return S->nranges && number_digits(c) ? range_at(S, c) : NULL;
}

/* lookup's answer when its entry's is stale: the innermost of the
 * single symbol and the range */
sym *sema_resolve(sema *S, name_entry *c)
{
    sym *s = c->top;
    sym *r = range_of(S, c);
    if (r && (!s || r->scope > s->scope))
        s = r;
    c->epoch = S->epoch;
    c->s = s;
    return s;
}


const char *sema_kind_word(const sym *s)
{
    switch (s->kind) {
    case S_REG: return "register";
    case S_FUNC: return "function";
    case S_LABEL: return "label";
    default: return "variable";
    }
}

/* An error, unless the walk is ptx_resolve_names's. */
bool sema_error(sema *S, ptx_diag_code code, ptx_span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
bool sema_error(sema *S, ptx_diag_code code, ptx_span sp, const char *fmt, ...)
{
    if (S->visit)
        return true;
    va_list ap;
    va_start(ap, fmt);
    bool ok = ptx_diag_vadd(S->ctx, PTX_SEV_ERROR, code, sp, fmt, ap);
    va_end(ap);
    return ok;
}

void sema_previous_here(sema *S, const sym *s)
{
    if (s->span.off == PTX_NO_OFFSET || S->visit)
        return;
    if (s->range)
        ptx_diag_add(S->ctx, PTX_SEV_NOTE, PTX_DIAG_SYMBOL, s->span,
                     "previous definition of '%s<%u>' is here", s->name->text, s->range);
    else
        ptx_diag_add(S->ctx, PTX_SEV_NOTE, PTX_DIAG_SYMBOL, s->span,
                     "previous definition of '%s' is here", s->name->text);
}

/* `a` and `b` name the same thing in one scope: the later one in the
 * source is the redefinition. */
static void redefinition(sema *S, const sym *a, const sym *b, const char *what)
{
    const sym *first = a->span.off <= b->span.off ? a : b;
    const sym *later = first == a ? b : a;
    if (S->visit)
        return;
    char shown[160];            /* %r<4> for a range */
    if (later->range)
        snprintf(shown, sizeof shown, "%s<%u>", later->name->text, later->range);
    else
        snprintf(shown, sizeof shown, "%s", later->name->text);
    ptx_diag_add(S->ctx, PTX_SEV_ERROR, PTX_DIAG_SYMBOL, later->span,
                 "redefinition of %s '%s'", what ? what : sema_kind_word(first), shown);
    sema_previous_here(S, first);
}

/* The symbol of the current scope that `s` (not yet pushed) clashes with. */
static sym *clash(sema *S, const sym *s)
{
    if (s->range) {
        /* a range of the name in this scope, then (.reg %r1 then .reg
         * %r<4>) the first name of the scope in the range */
        const prefix *x = prefix_find(S, s->name->text, s->name->len);
        if (!x)
            return NULL;
        for (sym *r = x->ranges; r && r->scope == S->scope; r = r->shadow)
            if (r->name == s->name)
                return r;
        sym *first = NULL;
        for (sym *o = x->singles; o && o->scope == S->scope; o = o->kin)
            if (number_of(entry_of(S, o->name)) < s->range)
                first = o;
        return first;
    }
    name_entry *c = entry_of(S, s->name);
    if (c->top && c->top->scope == S->scope)
        return c->top;
    sym *r = range_of(S, c);
    return r && r->scope == S->scope ? r : NULL;
}

static void declare(sema *S, sym *s)
{
    sym *old = clash(S, s);
    if (old) {
        if (old->kind == S_VAR && s->kind == S_VAR && (old->is_extern || s->is_extern)) {
            /* .extern then a definition (or two .extern): one variable;
             * a definition of no linkage is the module's own, which an
             * .extern cannot mean */
            if (s->is_extern)
                return;
            if (((const ptx_decl *)s->node)->linkage == PTX_LINK_NONE) {
                sema_error(S, PTX_DIAG_SYMBOL, s->span,
                      "'%s' is declared .extern: its definition must be .visible, .weak or "
                      ".common", s->name->text);
                sema_previous_here(S, old);
                return;
            }
            push_sym(S, s);
            return;
        }
        redefinition(S, old, s, old->kind == S_LABEL || s->kind == S_LABEL ? "label" : NULL);
        return;
    }
    push_sym(S, s);
}

void sema_declare_decl(sema *S, const ptx_decl *d)
{
    for (uint32_t i = 0; i < d->nvars; i++) {
        const ptx_var *v = &d->vars[i];
        if (ptx_name_is(v->name, "_"))
            continue;
        sym *s = new_sym(S, d->space == PTX_SPACE_REG ? S_REG : S_VAR, v->name, v->span,
                         &d->base);
        s->var = v;
        s->type = d->type;
        s->vec = d->vec;
        s->space = d->space;
        s->is_extern = d->linkage == PTX_LINK_EXTERN;
        s->array = v->ndims != 0;
        s->cls = sema_decl_class(d->type);
        s->range = v->has_range ? v->range : 0;
        if (v->has_range && !v->range)
            continue;           /* %r<0> declares nothing */
        declare(S, s);
    }
}

void sema_declare_params(sema *S, ptx_decl *const *ds, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        sema_declare_decl(S, ds[i]);
}

void sema_declare_func(sema *S, const ptx_func *f)
{
    sym *s = new_sym(S, S_FUNC, f->name, f->base.span, &f->base);
    ptx_span whole = s->span;
    /* point at the name, not the whole function (when the range is in
     * this context's source: a function moved from another context has
     * a range in that one's) */
    const char *src = S->src;
    if (f->base.span.off != PTX_NO_OFFSET && src &&
        (size_t)f->base.span.off + f->base.span.len <= S->ctx->srclen) {
        const char *p = src + f->base.span.off, *end = p + f->base.span.len;
        while (p + f->name->len <= end) {
            const char *q = memchr(p, f->name->text[0], (size_t)(end - p));
            if (!q || q + f->name->len > end)
                break;
            if (memcmp(q, f->name->text, f->name->len) == 0) {
                s->span.off = (uint32_t)(q - src);
                s->span.len = f->name->len;
                break;
            }
            p = q + 1;
        }
    }
    sym *old = clash(S, s);
    if (f->linkage == PTX_LINK_EXTERN && f->body && f->body->base.span.off != PTX_NO_OFFSET &&
        (!old || (old->kind == S_FUNC && !((const ptx_func *)old->node)->body &&
                  ((const ptx_func *)old->node)->linkage == PTX_LINK_EXTERN))) {
        /* ptxas 13.0 ("Function definition conflicts with '.extern'
         * declaration"), at the body's closing '}' */
        const ptx_span *b = &f->body->base.span;
        sema_error(S, PTX_DIAG_SYMBOL, (ptx_span){ b->off + (b->len ? b->len - 1 : 0), 1 },
              "function '%s' is defined .extern: .extern only declares a function of "
              "another module; define it .visible, .weak or without a linkage", f->name->text);
        if (old) {
            sema_previous_here(S, old);
            return;
        }
    }
    if (!old) {
        push_sym(S, s);
        /* ptx_resolve_names gives the whole declaration, as its walk,
         * which has no source text to find the name in, always did */
        if (S->rec)
            s->pub = sema_publish(S, s, whole);
        return;
    }
    /* ptxas reports a function's conflicts at its body's '{', a
     * kernel's at the end of its header, the token before the '{' */
    ptx_span at = s->span;
    if (f->body && f->body->base.span.off != PTX_NO_OFFSET) {
        uint32_t b = f->body->base.span.off;
        at = (ptx_span){ b, 1 };
        if (f->is_entry && src && b <= S->ctx->srclen) {
            while (b > f->base.span.off && (src[b - 1] == ' ' || src[b - 1] == '\t' ||
                                             src[b - 1] == '\r' || src[b - 1] == '\n'))
                b--;
            if (b > f->base.span.off)
                at = (ptx_span){ b - 1, 1 };
        }
    }
    /* ptxas 13.0: nothing may declare a function again after its
     * definition ("Duplicate definition of function") */
    if (old->kind != S_FUNC || ((const ptx_func *)old->node)->body) {
        bool again = old->kind == S_FUNC && !f->body;
        sema_error(S, PTX_DIAG_SYMBOL, at, "%s of function '%s'%s",
              again ? "a declaration after the definition" : "redefinition",
              f->name->text, again ? ": declare it before, or not at all" : "");
        sema_previous_here(S, old);
        return;
    }
    const ptx_func *g = (const ptx_func *)old->node;
    if (g->is_entry != f->is_entry) {   /* ptxas 13.0: "as entry and function" */
        sema_error(S, PTX_DIAG_SYMBOL, at, "'%s' is declared again as a %s where its earlier "
              "declaration is a %s", f->name->text, f->is_entry ? "kernel (.entry)" : ".func",
              g->is_entry ? "kernel (.entry)" : ".func");
        sema_previous_here(S, old);
        return;
    }
    if (g->linkage == PTX_LINK_EXTERN && f->body) {
        sema_error(S, PTX_DIAG_SYMBOL, at,
              "'%s' is declared .extern: it cannot be defined in this module", f->name->text);
        sema_previous_here(S, old);
        return;
    }
    /* the same linkage again, or none after .visible or .weak (ptxas
     * 13.0: "Inconsistent redefinition" otherwise) */
    if (f->linkage != g->linkage &&
        !(f->linkage == PTX_LINK_NONE &&
          (g->linkage == PTX_LINK_VISIBLE || g->linkage == PTX_LINK_WEAK))) {
        sema_error(S, PTX_DIAG_SYMBOL, at, "'%s' is declared again %s%s where its earlier "
              "declaration %s%s", f->name->text,
              f->linkage ? ptx_linkage_name(f->linkage) : "without a linkage",
              f->linkage ? "" : "", g->linkage ? "is " : "has none",
              g->linkage ? ptx_linkage_name(g->linkage) : "");
        sema_previous_here(S, old);
        return;
    }
    if (g->nparams != f->nparams || g->nret != f->nret) {
        sema_error(S, PTX_DIAG_SYMBOL, at,
              "'%s' is declared again with %u parameter%s and %u return value%s where its "
              "earlier declaration has %u and %u", f->name->text, f->nparams,
              f->nparams == 1 ? "" : "s", f->nret, f->nret == 1 ? "" : "s", g->nparams, g->nret);
        sema_previous_here(S, old);
        return;
    }
    if (f->body) {
        old->node = &f->base;   /* the definition is what calls see */
        if (old->pub)           /* from here on; the names before keep theirs */
            old->pub = sema_publish(S, old, old->pub->span);
    }
}

/* Labels of the block's own statements (not of blocks inside it): known
 * from the block's start. */
void sema_declare_labels(sema *S, const ptx_node *first)
{
    for (const ptx_node *n = first; n; n = n->next) {
        const ptx_name *name = NULL;
        if (n->kind == PTX_NODE_LABEL)
            name = ((const ptx_label *)n)->name;
        else if (n->kind == PTX_NODE_CALLPROTO)
            name = ((const ptx_callproto *)n)->label;
        else if (n->kind == PTX_NODE_TARGETS)
            name = ((const ptx_targets *)n)->label;
        if (!name)
            continue;
        ptx_span sp = { n->span.off, name->len };
        declare(S, new_sym(S, S_LABEL, name, sp, n));
    }
}

/* What ptx_resolve_names says of `name` (that s, or nothing, declares) */
void sema_symbol_of(const ptx_name *name, const sym *s, ptx_symbol *out)
{
    memset(out, 0, sizeof *out);
    if (s) {
        static const ptx_symbol_kind kinds[] = {
            [S_REG] = PTX_SYM_REGISTER, [S_VAR] = PTX_SYM_VARIABLE,
            [S_FUNC] = PTX_SYM_FUNCTION, [S_LABEL] = PTX_SYM_LABEL,
        };
        out->kind = kinds[s->kind];
        out->decl = s->node;
        out->span = s->span;
        if (s->kind == S_REG || s->kind == S_VAR) {
            out->type = (ptx_type)s->type;
            out->space = (ptx_space)s->space;
            out->var = s->var;
        }
    } else if (sema_sreg_find(name) || ptx_name_is(name, "WARP_SZ")) {
        out->kind = PTX_SYM_SPECIAL;
        out->span.off = PTX_NO_OFFSET;
    }
}

const ptx_symbol *sema_publish(sema *S, const sym *s, ptx_span span)
{
    ptx_symbol *p = ptx_arena_alloc(&S->ctx->arena, sizeof *p);
    sema_symbol_of(s->name, s, p);
    p->span = span;
    return p;
}
