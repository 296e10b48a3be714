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
 * Each rule was asked of ptxas 13.0 both ways (test/unit/check_sema.c). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "isa.h"
#include "isa_tables.h"

/* ---- symbols ------------------------------------------------------------ */

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* What a register holds or an operand wants, as far as ptxas compares
 * them: kind u s b f, 'x' (.f16x2), 'p' (.pred), 'B' (a type that lives
 * in .bN registers only: .bf16, .tf32, .f32x2...), 'o' (opaque), 0
 * (unknown: not compared). */
typedef struct tclass {
    char k;
    uint16_t bits;
} tclass;

static tclass decl_class(unsigned t);

enum { S_REG = 1, S_VAR, S_FUNC, S_LABEL };

typedef struct sym sym;
struct sym {
    const ptx_name *name;       /* a range's prefix: %r of %r<10> */
    sym *shadow;                /* the symbol of the same name it hides; a
                                   range: the range of its prefix it hides */
    sym *kin;                   /* a single name with a number (%r5): the one
                                   declared before it of the same prefix */
    const ptx_node *node;       /* ptx_decl, ptx_func, ptx_label, ptx_callproto... */
    const ptx_var *var;         /* S_REG, S_VAR: the variable of the ptx_decl */
    ptx_span span;              /* where it is declared */
    uint32_t range;             /* name<range>; 0 for a single name */
    uint32_t scope;
    uint8_t kind;               /* S_* */
    uint8_t type, vec, space;   /* S_REG, S_VAR: as declared */
    uint8_t is_extern;
    uint8_t array;              /* S_VAR: declared with dimensions */
    tclass cls;                 /* S_REG, S_VAR: decl_class of the type */
};

/* A prefix (the %r of %r<10> and of %r5): the ranges of that name in
 * scope, and the single names of it and a number (%r5), each innermost
 * first (chained by sym.shadow and sym.kin), so that finding the range a
 * name belongs to, or a range's clash with the names declared before it
 * in its scope, reads those of its own prefix alone: with every range
 * in scope read for each, a function of N ranges took N^2 steps (20,000
 * ranges, 3.7 billion instructions).  Kept by text in an open table for
 * the whole pass; the entry of a name with a number keeps its own. */
typedef struct prefix {
    const char *text;
    uint32_t len, hash;
    sym *ranges;
    sym *singles;
} prefix;

/* What the pass knows of a name: the innermost symbol of that name in
 * scope (a range's names aside), lookup's last answer, and the number at
 * the name's end (%r12 is a name of %r<13>), worked out once per name:
 * a function's first use of %r12 then does not split the name again.
 * The answer changes only when a symbol of that name comes or goes,
 * which stales this entry alone (epoch 0), or a range does, which stales
 * them all (the pass's epoch moves on): the blocks of a function, which
 * declare .param names, leave the answers for its registers standing.
 *
 * The entries are an array indexed by the name's id (ptx/ast.h), in the
 * order the context interned the names: no hash, no probe, no key to
 * compare, and a function's registers and labels, interned as it was
 * read, sit together.  A name of another context (a node inserted from
 * one) whose id is taken has its entry in an open table by pointer
 * (foreign_entry).  40 bytes: what lookup reads first (name, s, epoch)
 * comes first. */
typedef struct name_entry {
    const ptx_name *name;       /* whose entry; NULL: not yet anyone's */
    sym *s;                     /* lookup's answer, while epoch is the pass's */
    uint32_t epoch;
    uint32_t number;            /* NUMBER_* below: the number at the end */
    sym *top;                   /* the innermost single symbol (shadow: the
                                   one it hides); NULL: none in scope */
    struct prefix *prefix;      /* the prefix's record, once looked up */
} name_entry;

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(name_entry) == 40, "name_entry is 40 bytes on LP64 (see above)");
#endif

/* name_entry.number: the count of the name's final digits (0: it has no
 * number) in the top four bits, their value in the low 28, NUMBER_MAX
 * when it is NUMBER_MAX or more (number_of then reads the name again) */
enum { NUMBER_SHIFT = 28 };
#define NUMBER_MAX ((1u << NUMBER_SHIFT) - 1)

/* record_fit's last move from an unvalidated set of modifiers to a
 * validated one, direct-mapped by the unvalidated set's address */
typedef struct fit_memo {
    const ptx_mods_set *from;
    ptx_mods_set *to;
} fit_memo;

enum { FIT_MEMO_SIZE = 512 };

typedef struct sema {
    ptx_context *ctx;           /* NULL for ptx_resolve_names */
    jmp_buf *oom;               /* where to go when out of memory */
    ptx_arena arena;            /* the symbols; released at the end */
    const char *src;            /* the source text, when there is one */
    const ptx_module *m;
    size_t nranges;             /* the ranges in scope */
    struct prefix **prefixes;   /* the prefixes met (prefix), open table */
    size_t prefixes_mask, nprefixes;
    sym **undo;                 /* the symbols declared, in order */
    size_t nundo, capundo;
    size_t *marks;              /* nundo where each open scope began */
    size_t nmarks, capmarks;
    uint32_t scope;             /* 0: module */
    uint32_t epoch;             /* changes when a range comes or goes; from 1, so
                                   that an entry of epoch 0 is stale */
    name_entry *names;          /* the entry of each name, by id */
    size_t nnames, capnames;    /* entries in use (ids below nnames), room:
                                   all zero past nnames (ptx_big_zalloc) */
    size_t names_mapped;        /* names' ptx_big_zalloc mapping, or 0 */
    name_entry *foreign;        /* entries of names whose id another name
                                   holds, by pointer (open table) */
    size_t foreign_mask, nforeign;
    bool singles;               /* a single name has been declared */
    const ptx_node **open;      /* the functions and blocks the walk is in */
    size_t nopen, capopen;
    unsigned target;            /* the sm number of the first .target (0: none) */
    unsigned version;           /* major * 10 + minor */
    const ptx_func *func;       /* the function whose body is walked */
    sym *free_syms;             /* symbols of closed scopes, for reuse */
    tclass *mod_classes;        /* mod_class of each modifier, once asked */
    uint8_t *mod_known;
    fit_memo *fit_memo;         /* FIT_MEMO_SIZE entries */
    struct shape *shapes;       /* check_instr's table (shape) */
    size_t shapes_mask, nshapes;
    struct answer *answers;     /* check_instr's memo (answer): ANSWERS */
    /* ptx_resolve_names: no checks, no diagnostics; each name to fn */
    ptx_name_fn visit;
    void *visit_user;
    bool stop;                  /* visit returned false */
    unsigned suggested;         /* unknown symbols given a "did you mean" */
} sema;

static void *grow(sema *S, void *p, size_t *cap, size_t n, size_t size)
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

/* An open table (linear probing) of twice the entries of `old`, or of
 * `first` when there is none, with old's entries put back in their order
 * where home says each goes (false: an empty entry); *mask is the
 * table's.  Frees old. */
static inline void *table_double(sema *S, void *old, size_t *mask, size_t first, size_t size,
                                 bool (*home)(const void *entry, size_t *hash))
{
    size_t oldn = old ? *mask + 1 : 0;
    size_t n = old ? 2 * oldn : first;
    char *t = ptx_ctx_calloc(S->ctx, n, size);
    if (!t)
        longjmp(*S->oom, 1);
    for (size_t i = 0; i < oldn; i++) {
        const char *e = (const char *)old + i * size;
        size_t h;
        if (!home(e, &h))
            continue;
        size_t j = h & (n - 1);
        while (home(t + j * size, &h))
            j = (j + 1) & (n - 1);
        memcpy(t + j * size, e, size);
    }
    ptx_ctx_free(S->ctx, old, oldn * size);
    *mask = n - 1;
    return t;
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
static void names_grow(sema *S)
{
    if (S->ctx && S->ctx->names.count)
        names_reach(S, S->ctx->names.count - 1);
}

/* entry_of's way when the entry of name's id is not name's */
static name_entry *entry_new(sema *S, const ptx_name *name)
{
    if (name->id >= S->nnames)
        names_reach(S, name->id);
    name_entry *c = &S->names[name->id];
    return c->name ? foreign_entry(S, name) : entry_init(c, name);
}

/* The entry of `name`, made on first need. */
static inline name_entry *entry_of(sema *S, const ptx_name *name)
{
    if (name->id < S->nnames) {
        name_entry *c = &S->names[name->id];
        if (c->name == name)
            return c;
    }
    return entry_new(S, name);
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
    S->undo = grow(S, S->undo, &S->capundo, S->nundo, sizeof *S->undo);
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

static void open_scope(sema *S)
{
    S->marks = grow(S, S->marks, &S->capmarks, S->nmarks, sizeof *S->marks);
    S->marks[S->nmarks++] = S->nundo;
    S->scope++;
}

static void close_scope(sema *S)
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
static sym *resolve(sema *S, name_entry *c)
{
    sym *s = c->top;
    sym *r = range_of(S, c);
    if (r && (!s || r->scope > s->scope))
        s = r;
    c->epoch = S->epoch;
    c->s = s;
    return s;
}

/* Called for each name of each operand: an answer still good is found
 * without a call */
static inline sym *lookup(sema *S, const ptx_name *name)
{
    name_entry *c = entry_of(S, name);
    if (c->epoch == S->epoch)
        return c->s;
    return resolve(S, c);
}

static const char *kind_word(const sym *s)
{
    switch (s->kind) {
    case S_REG: return "register";
    case S_FUNC: return "function";
    case S_LABEL: return "label";
    default: return "variable";
    }
}

/* An error, unless the walk is ptx_resolve_names's. */
static bool error(sema *S, ptx_diag_code code, ptx_span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static bool error(sema *S, ptx_diag_code code, ptx_span sp, const char *fmt, ...)
{
    if (S->visit)
        return true;
    va_list ap;
    va_start(ap, fmt);
    bool ok = ptx_diag_vadd(S->ctx, PTX_SEV_ERROR, code, sp, fmt, ap);
    va_end(ap);
    return ok;
}

static void previous_here(sema *S, const sym *s)
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
                 "redefinition of %s '%s'", what ? what : kind_word(first), shown);
    previous_here(S, first);
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
                error(S, PTX_DIAG_SYMBOL, s->span,
                      "'%s' is declared .extern: its definition must be .visible, .weak or "
                      ".common", s->name->text);
                previous_here(S, old);
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

static void declare_decl(sema *S, const ptx_decl *d)
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
        s->cls = decl_class(d->type);
        s->range = v->has_range ? v->range : 0;
        if (v->has_range && !v->range)
            continue;           /* %r<0> declares nothing */
        declare(S, s);
    }
}

static void declare_params(sema *S, ptx_decl *const *ds, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        declare_decl(S, ds[i]);
}

static void declare_func(sema *S, const ptx_func *f)
{
    sym *s = new_sym(S, S_FUNC, f->name, f->base.span, &f->base);
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
    if (!old) {
        push_sym(S, s);
        return;
    }
    /* ptxas reports a function's conflicts at its body's '{' */
    ptx_span at = s->span;
    if (f->body && f->body->base.span.off != PTX_NO_OFFSET)
        at = (ptx_span){ f->body->base.span.off, 1 };
    /* ptxas 13.0: nothing may declare a function again after its
     * definition ("Duplicate definition of function") */
    if (old->kind != S_FUNC || ((const ptx_func *)old->node)->body) {
        bool again = old->kind == S_FUNC && !f->body;
        error(S, PTX_DIAG_SYMBOL, at, "%s of function '%s'%s",
              again ? "a declaration after the definition" : "redefinition",
              f->name->text, again ? ": declare it before, or not at all" : "");
        previous_here(S, old);
        return;
    }
    const ptx_func *g = (const ptx_func *)old->node;
    if (g->linkage == PTX_LINK_EXTERN && f->body) {
        error(S, PTX_DIAG_SYMBOL, at,
              "'%s' is declared .extern: it cannot be defined in this module", f->name->text);
        previous_here(S, old);
        return;
    }
    /* the same linkage again, or none after .visible or .weak (ptxas
     * 13.0: "Inconsistent redefinition" otherwise) */
    if (f->linkage != g->linkage &&
        !(f->linkage == PTX_LINK_NONE &&
          (g->linkage == PTX_LINK_VISIBLE || g->linkage == PTX_LINK_WEAK))) {
        error(S, PTX_DIAG_SYMBOL, at, "'%s' is declared again %s%s where its earlier "
              "declaration %s%s", f->name->text,
              f->linkage ? ptx_linkage_name(f->linkage) : "without a linkage",
              f->linkage ? "" : "", g->linkage ? "is " : "has none",
              g->linkage ? ptx_linkage_name(g->linkage) : "");
        previous_here(S, old);
        return;
    }
    if (g->nparams != f->nparams || g->nret != f->nret) {
        error(S, PTX_DIAG_SYMBOL, at,
              "'%s' is declared again with %u parameter%s and %u return value%s where its "
              "earlier declaration has %u and %u", f->name->text, f->nparams,
              f->nparams == 1 ? "" : "s", f->nret, f->nret == 1 ? "" : "s", g->nparams, g->nret);
        previous_here(S, old);
        return;
    }
    if (f->body)
        old->node = &f->base;   /* the definition is what calls see */
}

/* Labels of the block's own statements (not of blocks inside it): known
 * from the block's start. */
static void declare_labels(sema *S, const ptx_node *first)
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

/* ---- special registers --------------------------------------------------- */

typedef struct sreg {
    const char *name;
    char kind;                  /* u b p */
    uint8_t bits;
    uint8_t vec;                /* takes .x .y .z (.w): a v4 */
    uint8_t count;              /* %pm<8>, %envreg<32>: numbered 0..count-1 */
    uint8_t legacy;             /* a narrower width that mov and cvt also read */
    uint8_t major, minor;       /* the PTX version that introduced it */
    uint8_t sm;                 /* the oldest target */
} sreg;

/* PTX ISA 9.0 section 10 (../shared/ptx-isa/spec-data/special_registers.md) */
static const sreg sregs[] = {
    { "%tid", 'u', 32, 1, 0, 16, 1, 0, 0 },
    { "%ntid", 'u', 32, 1, 0, 16, 1, 0, 0 },
    { "%laneid", 'u', 32, 0, 0, 0, 1, 3, 0 },
    { "%warpid", 'u', 32, 0, 0, 0, 1, 3, 0 },
    { "%nwarpid", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%ctaid", 'u', 32, 1, 0, 16, 1, 0, 0 },
    { "%nctaid", 'u', 32, 1, 0, 16, 1, 0, 0 },
    { "%smid", 'u', 32, 0, 0, 0, 1, 3, 0 },
    { "%nsmid", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%gridid", 'u', 64, 0, 0, 32, 1, 0, 0 },
    { "%is_explicit_cluster", 'p', 1, 0, 0, 0, 7, 8, 90 },
    { "%clusterid", 'u', 32, 1, 0, 0, 7, 8, 90 },
    { "%nclusterid", 'u', 32, 1, 0, 0, 7, 8, 90 },
    { "%cluster_ctaid", 'u', 32, 1, 0, 0, 7, 8, 90 },
    { "%cluster_nctaid", 'u', 32, 1, 0, 0, 7, 8, 90 },
    { "%cluster_ctarank", 'u', 32, 0, 0, 0, 7, 8, 90 },
    { "%cluster_nctarank", 'u', 32, 0, 0, 0, 7, 8, 90 },
    { "%lanemask_eq", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%lanemask_le", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%lanemask_lt", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%lanemask_ge", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%lanemask_gt", 'u', 32, 0, 0, 0, 2, 0, 20 },
    { "%clock", 'u', 32, 0, 0, 0, 1, 0, 0 },
    { "%clock_hi", 'u', 32, 0, 0, 0, 5, 0, 20 },
    { "%clock64", 'u', 64, 0, 0, 0, 2, 0, 20 },
    { "%pm", 'u', 32, 0, 8, 0, 1, 3, 0 },
    /* the spec says 2.1; ptxas 13.0 takes %envreg from 1.0 */
    { "%envreg", 'b', 32, 0, 32, 0, 1, 0, 0 },
    { "%globaltimer", 'u', 64, 0, 0, 0, 3, 1, 30 },
    { "%globaltimer_lo", 'u', 32, 0, 0, 0, 3, 1, 30 },
    { "%globaltimer_hi", 'u', 32, 0, 0, 0, 3, 1, 30 },
    { "%reserved_smem_offset_begin", 'b', 32, 0, 0, 0, 7, 6, 80 },
    { "%reserved_smem_offset_end", 'b', 32, 0, 0, 0, 7, 6, 80 },
    { "%reserved_smem_offset_cap", 'b', 32, 0, 0, 0, 7, 6, 80 },
    { "%reserved_smem_offset_", 'b', 32, 0, 2, 0, 7, 6, 80 },
    { "%total_smem_size", 'u', 32, 0, 0, 0, 4, 1, 20 },
    { "%aggr_smem_size", 'u', 32, 0, 0, 0, 8, 1, 90 },
    { "%dynamic_smem_size", 'u', 32, 0, 0, 0, 4, 1, 20 },
    { "%current_graph_exec", 'u', 64, 0, 0, 0, 8, 0, 50 },
};

/* %pm0_64 .. %pm7_64 (PTX 4.0, sm_50) */
static const sreg pm64 = { "%pm_64", 'u', 64, 0, 8, 0, 4, 0, 50 };
/* %pm4 .. %pm7 came later than %pm0 .. %pm3: ptxas 13.0 wants PTX 3.0
 * and sm_20 for them */
static const sreg pm4 = { "%pm", 'u', 32, 0, 8, 0, 3, 0, 20 };

static const sreg *sreg_find(const ptx_name *name)
{
    const char *t = name->text;
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++) {
        const sreg *r = &sregs[i];
        size_t n = strlen(r->name);
        if (strncmp(t, r->name, n) != 0)
            continue;
        if (!r->count) {
            if (!t[n])
                return r;
            continue;
        }
        /* numbered: %pm3, %envreg31, %reserved_smem_offset_1, %pm3_64 */
        const char *d = t + n;
        unsigned v = 0, nd = 0;
        while (d[nd] >= '0' && d[nd] <= '9' && nd < 3)
            v = v * 10 + (unsigned)(d[nd++] - '0');
        if (!nd || (nd > 1 && d[0] == '0'))
            continue;
        if (!d[nd] && v < r->count)
            return r->count == 8 && v >= 4 ? &pm4 : r;
        if (r->count == 8 && !strcmp(d + nd, "_64") && v < 8)
            return &pm64;
    }
    return NULL;
}

/* ---- types ---------------------------------------------------------------- */

static tclass decl_class(unsigned t)
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

static bool is_int(char k)
{
    return k == 'u' || k == 's' || k == 'b';
}

/* Does a register of class `r` fit an operand that wants `e`?  With
 * `relaxed` (ld, st, cvt), ptxas also takes a wider register: any kind
 * for a .bN type (ld.b32 into .f64), an integer or .f16x2 one for .uN and
 * .sN (ld.u32 into .f16x2), a .bN one for float types (ld.f32 into .b64;
 * ld.f32 into .f64 is an error). */
static bool fits_slow(tclass e, tclass r, bool relaxed);

static inline bool fits(tclass e, tclass r, bool relaxed)
{
    /* the common answers first: a register of the wanted kind and width,
     * or a .bN register of the wanted width where no predicate goes */
    if (e.bits == r.bits && (e.k == r.k || (r.k == 'b' && e.k != 'p')))
        return true;
    return fits_slow(e, r, relaxed);
}

static bool fits_slow(tclass e, tclass r, bool relaxed)
{
    if (!e.k || !r.k || r.k == 'o')
        return true;
    if (e.k == 'p' || r.k == 'p')
        return e.k == r.k;
    if (relaxed && r.bits > e.bits) {
        if (e.k == 'b')
            return true;
        if (e.k == 'u' || e.k == 's')
            return is_int(r.k) || r.k == 'x';
        return r.k == 'b';
    }
    if (r.bits != e.bits)
        return false;
    switch (e.k) {
    case 'b': return true;
    case 'u': case 's': return is_int(r.k) || r.k == 'x';   /* .f16x2: ptxas takes it */
    case 'f': return r.k == 'f' || r.k == 'b';
    case 'x': return r.k == 'x' || r.k == 'b';
    case 'B': return r.k == 'b';
    default: return true;
    }
}

static const char *class_name(tclass c, char *buf, size_t n)
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
static bool is_component(const char *sel)
{
    static const char *const c[] = { ".x", ".y", ".z", ".w", ".r", ".g", ".b", ".a" };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (!strcmp(sel, c[i]))
            return true;
    return false;
}

/* N of the instruction's .vN modifier; 1 without one. */
static unsigned vector_modifier(const ptx_instr *in)
{
    for (unsigned i = 0; i < in->nmods; i++) {
        const char *t = in->mods[i].name->text;
        if (t[0] == '.' && t[1] == 'v' && t[2] >= '1' && t[2] <= '9' && !t[3])
            return (unsigned)(t[2] - '0');
    }
    return 1;
}

/* mod_class of modifier `id`, worked out once per parse */
static tclass mod_class_of(sema *S, ptx_modifier id)
{
    if (!S->mod_known[id]) {
        S->mod_classes[id] = mod_class(ptx_isa_mod_names[id]);
        S->mod_known[id] = 1;
    }
    return S->mod_classes[id];
}

/* What operand `op` of `in` wants: its ":TYPE" in the tables. */
/* The kind of literal a constant expression is: 'i' integer, 'f' decimal
 * floating point, 'h' 0f, 'd' 0d, 'm' mixed, 0 not a constant. */
static char literal_kind(const ptx_expr *e)
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
        return literal_kind(ptx_expr_a(e));
    case PTX_EXPR_PAREN: return literal_kind(ptx_expr_a(e));
    case PTX_EXPR_BINARY: {
        if (e->op >= PTX_OP_LT && e->op <= PTX_OP_NE)
            return 'i';
        char a = literal_kind(ptx_expr_a(e)), b = literal_kind(ptx_expr_b(e));
        if (!a || !b)
            return 0;
        return a == b ? a : 'm';
    }
    case PTX_EXPR_COND: {
        char a = literal_kind(ptx_expr_item(e, 1)), b = literal_kind(ptx_expr_item(e, 2));
        if (!a || !b)
            return 0;
        return a == b ? a : 'm';
    }
    default: return 0;
    }
}

/* ---- operands --------------------------------------------------------------- */

typedef struct ictx {
    sema *S;
    const ptx_instr *in;
    const ptx_isa_form *form;   /* NULL: the tables rejected it */
    const char *op;             /* the opcode, for messages */
    unsigned spaces;            /* space modifiers */
    const char *space;          /* the one space modifier (".global") or NULL */
    bool element;               /* checking the elements of a vector {...} */
    ptx_modifier types[4];      /* the type modifiers, in order (found once) */
    tclass tcls[4];             /* mod_class of each of types[] */
} ictx;

static tclass wanted_late(const ictx *I, const ptx_isa_operand *op);

/* The class an operand of the matched form wants: its own type, or one of
 * the instruction's type modifiers (an operand's ":T1" is the first). */
static inline tclass wanted(const ictx *I, const ptx_isa_operand *op)
{
    if (!op || !op->tkind)
        return (tclass){ 0, 0 };
    if (op->tkind != 'T')
        return (tclass){ (char)op->tkind, op->tbits };
    unsigned nth = op->tbits - 1u;
    if (nth >= 4)
        return wanted_late(I, op);
    tclass c = I->tcls[nth];
    if (op->tflags & PTX_OT_WIDE)
        c.bits *= 2;
    return c;
}

/* wanted for the fifth type modifier and after, which I does not hold */
static tclass wanted_late(const ictx *I, const ptx_isa_operand *op)
{
    ptx_modifier id = ptx_instr_modifier(I->in, PTX_CAT_TYPE, op->tbits - 1u);
    if (!id)
        return (tclass){ 0, 0 };
    tclass c = mod_class_of(I->S, id);
    if (op->tflags & PTX_OT_WIDE)
        c.bits *= 2;
    return c;
}

static bool target_at_least(const sema *S, unsigned sm)
{
    return !S->target || S->target >= sm;
}

static void unknown_symbol(sema *S, const ptx_expr *e)
{
    const ptx_name *n = ptx_expr_name(e);
    const char *t = n->text;
    if (t[0] == '%' && t[1] >= '0' && t[1] <= '9')
        error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
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
    const sreg *r = sreg_find(ptx_expr_name(e));
    *found = r != NULL;
    if (!r)
        return (tclass){ 0, 0 };
    const char *name = ptx_expr_name(e)->text;
    const ptx_name *sel = ptx_expr_sel(e);
    ptx_span sp = ptx_expr_span(e);
    const char *sel_text = sel ? sel->text : "";    /* for messages: %tid.x as written */
    if (sel && !r->vec) {
        error(S, PTX_DIAG_SYMBOL, sp, "'%s' has no components: write '%s' without '%s'", name,
              name, sel->text);
        return (tclass){ 0, 0 };
    }
    if (sel && !sreg_component(sel->text)) {
        error(S, PTX_DIAG_SYMBOL, sp, "'%s' has components .x, .y and .z, not '%s'", name,
              sel->text);
        return (tclass){ 0, 0 };
    }
    unsigned v = r->major * 10u + r->minor;
    if (S->version && S->version < v)
        error(S, PTX_DIAG_SYMBOL, sp, "'%s' needs PTX ISA %u.%u (the module is .version %u.%u)",
              name, r->major, r->minor, S->m->version_major, S->m->version_minor);
    else if (r->sm && !target_at_least(S, r->sm))
        error(S, PTX_DIAG_SYMBOL, sp, "'%s' needs .target sm_%u or later", name, r->sm);
    /* only the operands marked '$' (mov's and cvt's sources) read special
     * registers: ptxas refuses them everywhere else, typed or not */
    if (!I || !op)
        return (tclass){ 0, 0 };
    if (r->kind == 'p' && (op->accept & PTX_ACC_PRED))
        return (tclass){ 0, 0 };    /* %is_explicit_cluster where a predicate goes */
    if (!(op->tflags & PTX_OT_SREG)) {
        error(S, PTX_DIAG_TYPE, sp,
              "special register '%s%s' cannot be an operand of '%s': copy it into a register "
              "with mov first", name, sel_text, I->op);
        return (tclass){ 0, 0 };
    }
    if (r->vec && !sel && !(op->accept & PTX_ACC_VEC)) {
        error(S, PTX_DIAG_TYPE, sp, "'%s' is a vector: name one component ('%s.x')", name, name);
        return (tclass){ 0, 0 };
    }
    if (!op->tkind)
        return (tclass){ 0, 0 };
    tclass c = { r->kind, r->bits };
    tclass w = wanted(I, op);
    /* the legacy widths: 16 bits up to the recorded one (ptxas 13.0
     * reads %gridid, .u64 since PTX 3.0, as 16 and 32 bits as well) */
    if (w.k && r->legacy && w.bits >= 16 && w.bits <= r->legacy && is_int(w.k))
        return (tclass){ 0, 0 };
    return c;
}

static void mismatch(sema *S, const ictx *I, const ptx_expr *e, tclass want, tclass have,
                     const char *what)
{
    char b1[16], b2[16];
    error(S, PTX_DIAG_TYPE, ptx_expr_span(e),
          "operand '%s' of '%s' is %s %s; the instruction needs %s", ptx_expr_name(e)->text,
          I->op, what, class_name(have, b1, sizeof b1), class_name(want, b2, sizeof b2));
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
            unknown_symbol(S, e);
            return;
        }
        tclass w = typed ? wanted(I, op) : (tclass){ 0, 0 };
        if (c.k && !fits(w, c, op && (op->tflags & PTX_OT_RELAXED)))
            mismatch(S, I, e, w, c, "a special register of type");
        return;
    }
    if (s->kind == S_LABEL) {
        if (!label_ok && op)
            error(S, PTX_DIAG_SYMBOL, sp,
                  "'%s' is a label: only branches and branch-target lists take labels",
                  name->text);
        return;
    }
    if (label_ok && !(op->accept & (PTX_ACC_NAME | PTX_ACC_PRED))) {
        /* a variable is a jump table there (call (r), %r0, (x), jmptbl) */
        if (s->kind == S_REG)
            error(S, PTX_DIAG_SYMBOL, sp, "'%s' is a %s: '%s' needs a label or a function name here",
                  name->text, kind_word(s), I->op);
        return;
    }
    if (s->kind == S_FUNC)
        /* ptxas 13.0 takes a function's name as a value operand of any
         * type (add.s32 %r1, %r2, f; add.f64; setp; cvt: its address),
         * though not in arithmetic (f+4, check_expr_names) */
        return;
    if (s->kind == S_VAR) {
        if (typed && !(op->tflags & PTX_OT_SYMADDR))
            error(S, PTX_DIAG_SYMBOL, sp,
                  "'%s' is a %s variable, not a register: load it with ld%s, or take its "
                  "address with mov", name->text, ptx_space_name(s->space),
                  ptx_space_name(s->space));
        else if (typed && (wanted(I, op).k == 'f' || wanted(I, op).k == 'p'))
            /* an address is an integer: mov.f32 %f1, g is "Arguments mismatch" */
            error(S, PTX_DIAG_TYPE, sp, "'%s' is a %s variable: its address is an integer, not "
                  "a %s value", name->text, ptx_space_name(s->space),
                  ptx_isa_mod_names[ptx_instr_modifier(I->in, PTX_CAT_TYPE, 0)]);
        else if (typed && !I->element && s->space == PTX_SPACE_GLOBAL &&
                 wanted(I, op).bits == 32)
            /* other spaces' addresses fit 32 bits; ptxas 13 makes a
             * 32-bit program of a 32-bit .global address, and refuses it */
            error(S, PTX_DIAG_TYPE, sp, "'%s' is a .global variable: its address needs 64 bits "
                  "(ptxas 13 compiles 64-bit programs only)", name->text);
        return;
    }
    /* a register */
    const ptx_name *sel = ptx_expr_sel(e);
    if (sel && !s->vec && is_component(sel->text)) {
        error(S, PTX_DIAG_SYMBOL, sp, "'%s' is a register declared %s, not a vector: it has no "
              "component '%s'", name->text, ptx_type_name(s->type), sel->text);
        return;
    }
    if (!sel && !s->vec && op && !I->element && (op->accept & PTX_ACC_VEC) &&
        op->vec == PTX_VEC_FROM_MOD && vector_modifier(I->in) > 1) {
        error(S, PTX_DIAG_TYPE, sp, "'%s' of '%s' is a scalar register: '.v%u' needs a vector "
              "{...} of %u registers", name->text, I->op, vector_modifier(I->in),
              vector_modifier(I->in));
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
            unknown_symbol(S, e);
        else if (s && s->kind == S_LABEL)
            error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
                  "'%s' is a label: only branches and branch-target lists take labels",
                  name->text);
        else if (s && s->kind == S_FUNC && op)
            /* an operand's expression, not a bare name (check_name) */
            error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
                  "'%s' is a function: its address is taken alone, not in arithmetic "
                  "(f+4, -f)", name->text);
        else if (s && (s->kind == S_VAR || s->kind == S_FUNC) && op && op->tkind &&
                 !(op->tflags & PTX_OT_SYMADDR) && !is_int(wanted(I, op).k))
            /* ptxas takes an address in an expression (add.u64 %rd1,
             * %rd1, g+4) for integer and bit operands; a bare name is
             * "must be register" (check_name) */
            error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
                  "'%s' is a %s: its address is an integer, not a %s value", name->text,
                  kind_word(s), ptx_isa_mod_names[ptx_instr_modifier(I->in, PTX_CAT_TYPE, 0)]);
        return;
    }
    if (ptx_expr_is_leaf(e) || e->kind == PTX_EXPR_RANGE)
        return;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        check_expr_names(S, I, ptx_expr_item(e, i), op);
}

/* Why ptxas refuses constant kind k (literal_kind) for an operand that
 * wants w, as a message taking the opcode and the type, or NULL when it
 * takes it (asked type by type). */
static const char *constant_refused(tclass w, char k)
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
        char c = literal_kind(ptx_expr_item(e, 0));
        if (c == 'f' || c == 'h' || c == 'd' || c == 'm') {
            error(S, PTX_DIAG_EXPR, ptx_expr_span(ptx_expr_item(e, 0)),
                  "the condition of ?: must be an integer constant expression");
            return true;
        }
        return false;
    }
    if (e->kind != PTX_EXPR_BINARY)
        return false;
    char a = literal_kind(ptx_expr_a(e)), b = literal_kind(ptx_expr_b(e));
    /* 0f and 0d constants in an expression have their own error */
    if ((a == 'f' && b == 'i') || (b == 'f' && a == 'i')) {
        error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "integer and floating-point constants mixed "
              "in one operation: write both as one kind (2.0*3.0)");
        return true;
    }
    int64_t v;
    if ((e->op == PTX_OP_DIV || e->op == PTX_OP_MOD) && a == 'i' && b == 'i' &&
        ptx_isa_const_value(ptx_expr_b(e), &v) && v == 0) {
        error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "division by zero in a constant expression");
        return true;
    }
    return false;
}

static void check_constant(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op)
{
    if (const_expr_fault(S, e))
        return;
    if (!op || !op->tkind)
        return;
    tclass w = wanted(I, op);
    char k = literal_kind(e);
    char pb[16];
    if (w.k == 'p' && (k == 'f' || k == 'h' || k == 'd')) {
        /* ptxas takes an integer for a predicate (mov.pred %p1, 1), not 1.0 */
        error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "a floating-point constant where '%s' needs "
              "a %s value: write 0 or 1", I->op, class_name(w, pb, sizeof pb));
        return;
    }
    if (!w.k || w.k == 'p' || !k || k == 'm')
        return;
    const char *why = constant_refused(w, k);
    char buf[16];
    if (why)
        error(S, PTX_DIAG_TYPE, ptx_expr_span(e), why, I->op, class_name(w, buf, sizeof buf));
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

static void check_address(sema *S, const ictx *I, const ptx_expr *e)
{
    if (ptx_expr_count(e) != 1) {
        for (uint32_t i = 0; i < ptx_expr_count(e); i++)
            check_expr_names(S, I, ptx_expr_item(e, i), NULL);
        return;
    }
    const ptx_expr *a = ptx_expr_item(e, 0);
    const ptx_expr *base = a;
    if (a->kind == PTX_EXPR_BINARY && a->op == PTX_OP_ADD && ptx_expr_a(a)->kind == PTX_EXPR_SYM)
        base = ptx_expr_a(a);
    bool one_space = I->spaces <= 1;
    if (base->kind != PTX_EXPR_SYM) {
        if (base->kind == PTX_EXPR_INT && one_space && I->form &&
            (!I->space || strcmp(I->space, ".local")))
            error(S, PTX_DIAG_EXPR, ptx_expr_span(e),
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
        const sreg *r = sreg_find(name);
        if (r && (ptx_expr_sel(base) || r->vec))
            error(S, PTX_DIAG_SYMBOL, sp, "'%s%s' cannot be an address: only a scalar special "
                  "register can", name->text, ptx_expr_sel(base) ? ptx_expr_sel(base)->text : "");
        else
            special(S, NULL, base, NULL, &found);
        if (!r)
            unknown_symbol(S, base);
        return;
    }
    switch (s->kind) {
    case S_LABEL:
    case S_FUNC:
        error(S, PTX_DIAG_SYMBOL, sp, "'%s' is a %s, not something in memory: it cannot be an "
              "address", name->text, kind_word(s));
        return;
    case S_VAR:
        if (I->form && one_space && !space_fits(I->space, s->space))
            error(S, PTX_DIAG_SYMBOL, sp,
                  "'%s' is a %s variable: '%s' %s", name->text, ptx_space_name(s->space), I->op,
                  I->space ? "addresses another state space" :
                  "cannot reach a .param variable through a generic address (write ld.param)");
        return;
    default:
        break;
    }
    tclass r = s->cls;
    if (r.k == 'f' || r.k == 'x' || r.k == 'p') {
        char b[16];
        error(S, PTX_DIAG_TYPE, sp, "'%s' is declared %s: an address register must be an "
              "integer (.u64, .b64...)", name->text, class_name(r, b, sizeof b));
        return;
    }
    /* ptxas: 32 bits make a 32-bit program, which it no longer compiles;
     * 8 and 16 bits only draw a warning from it (not repeated here) */
    if (r.k && r.bits == 32 && I->form && one_space &&
        (!I->space || !strcmp(I->space, ".global")) && wants_64bit_address(I->op)) {
        char b[16];
        error(S, PTX_DIAG_TYPE, sp,
              "'%s' is a %s register: a %s address needs 64 bits (ptxas 13 compiles 64-bit "
              "addresses only)", name->text, class_name(r, b, sizeof b),
              I->space ? I->space : "generic");
    }
}

static void check_operand(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op);

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
        check_operand(S, I, x, op);
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
        error(S, PTX_DIAG_TYPE, ptx_expr_span(e),
              "the elements of a vector must be registers of one width");
}

static void check_operand(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op)
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
                check_operand(S, I, ptx_expr_item(e, i), NULL);
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
        check_operand(S, I, ptx_expr_a(e), op && ptx_expr_a(e)->kind == PTX_EXPR_SYM ? op : NULL);
        check_operand(S, I, ptx_expr_b(e), NULL);
        return;
    case PTX_EXPR_UNARY:
        if (e->op == PTX_OP_BNOT && ptx_expr_a(e)->kind == PTX_EXPR_SYM &&
            lookup(S, ptx_expr_name(ptx_expr_a(e))) &&
            lookup(S, ptx_expr_name(ptx_expr_a(e)))->kind == S_REG) {
            /* ptxas parses '~' in constant expressions only (mov.b32 %r1,
             * ~%r2 is "Parsing error"): not.b32 complements a register */
            error(S, PTX_DIAG_EXPR, ptx_expr_span(e), "'~' complements constants only: write "
                  "not.b32 for a register");
            return;
        }
        if (e->op == PTX_OP_LNOT && ptx_expr_a(e)->kind == PTX_EXPR_SYM) {
            const ptx_expr *a = ptx_expr_a(e);
            check_name(S, I, a, NULL);
            sym *s = lookup(S, ptx_expr_name(a));
            if (s && (s->kind != S_REG || s->type != PTX_TYPE_PRED))
                error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "'!' negates predicates: '%s' is a %s "
                      "declared %s", ptx_expr_name(a)->text, kind_word(s),
                      ptx_type_name(s->type) ? ptx_type_name(s->type) : "");
            return;
        }
        break;
    case PTX_EXPR_INDEX:
        check_expr_names(S, I, e, NULL);
        return;
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

/* call (rets), f, (args): the counts, and the .param arguments' types
 * against the callee's parameters. */
static void check_call(sema *S, const ictx *I)
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
    if (s && s->kind == S_VAR)
        error(S, PTX_DIAG_SYMBOL, ptx_expr_span(target),
              "'%s' is a variable: call a function by its name, or through a register",
              ptx_expr_name(target)->text);
    if (!s || s->kind != S_FUNC)
        return;
    const ptx_func *f = (const ptx_func *)s->node;
    if (f->is_entry) {
        error(S, PTX_DIAG_SYMBOL, ptx_expr_span(target),
              "'%s' is a kernel (.entry): only a .func can be called", f->name->text);
        return;
    }
    uint32_t nargs = args ? ptx_expr_count(args) : 0, nrets = rets ? ptx_expr_count(rets) : 0;
    /* a last parameter of unsized array type (.b8 buf[]) may be left out */
    bool open_last = f->nparams && f->params[f->nparams - 1]->nvars &&
                     f->params[f->nparams - 1]->vars[0].unsized;
    if ((nargs != f->nparams && !(open_last && nargs + 1 == f->nparams)) || nrets != f->nret) {
        error(S, PTX_DIAG_SYMBOL, ptx_expr_span(target),
              "call to '%s' with %u argument%s and %u return value%s; '%s' takes %u and "
              "returns %u", f->name->text, nargs, nargs == 1 ? "" : "s", nrets,
              nrets == 1 ? "" : "s", f->name->text, f->nparams, f->nret);
        previous_here(S, s);
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
                ok = fits(decl_class(fd->type), decl_class(ad->type), false);
            if (!ok)
                error(S, PTX_DIAG_TYPE, ptx_expr_span(x),
                      "the type of '%s' does not match %s '%s' of '%s'", ptx_expr_name(x)->text,
                      side ? "parameter" : "return parameter", fv->name->text, f->name->text);
        }
    }
}

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
        const sreg *r = sreg_find(ptx_expr_name(e));
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
        const sreg *r = sreg_find(ptx_expr_name(g));
        if (!r)
            unknown_symbol(S, g);
        else if (r->kind != 'p')
            error(S, PTX_DIAG_TYPE, ptx_expr_span(g), "the guard '%s' is not a predicate",
                  ptx_expr_name(g)->text);
        return;
    }
    if (s->kind != S_REG || s->type != PTX_TYPE_PRED)
        error(S, PTX_DIAG_TYPE, ptx_expr_span(g),
              "the guard '%s' is not a predicate: it is a %s declared %s", ptx_expr_name(g)->text,
              kind_word(s), s->kind == S_REG || s->kind == S_VAR ? ptx_type_name(s->type) : "");
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
    if ((op->accept & PTX_ACC_VEC) && op->vec == PTX_VEC_FROM_MOD && vector_modifier(I->in) > 1)
        return false;
    if (!op->tkind)
        return true;
    return fits(wanted(I, op), s->cls, op->tflags & PTX_OT_RELAXED);
}

/* What check_instr works out from the modifiers and the matched form of
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
    uint64_t sig;               /* operands that all went no further (check_instr) */
} shape;

/* check_instr's signature of an instruction's operands: up to SIG_OPS of
 * them, each a register type or SIG_INT, an integer constant */
enum { SIG_OPS = 12, SIG_INT = 31 };

/* an integer constant, among the register types of shape.asked */
#define SHAPE_INT (1u << 31)
_Static_assert(PTX_TYPE_COUNT < 31, "a register type is a bit of shape.asked");

/* What check_instr found of an instruction written alike to one it
 * accepted before, keyed by the modifiers as written (shared: internal.h,
 * one list for each spelling, so of one count) and each operand's part
 * (answer_part, never 0, so that the parts tell the operands' count):
 * all the validator's verdict depends on but the module's version and
 * target, the same for all the answers (answer_of), and all that
 * check_operands looks at to tell whether an operand goes no further.
 * The answer: the form, the family, the validated modifiers record_fit
 * moved the instruction to, the shape, and which operands check_operand
 * is to see.  Direct-mapped: an answer pushed out is found again the
 * long way. */
enum { ANSWER_OPS = 8, ANSWERS = 1024 };

typedef struct answer {
    const ptx_mod *mods;        /* NULL: an empty slot */
    uint64_t ops[2];            /* the operands' parts, 16 bits each, then 0 */
    uint8_t family;
    uint8_t check;              /* operand i goes to check_operand: bit i */
    const ptx_isa_form *form;
    ptx_mod *validated;
    struct shape *sh;
} answer;

static size_t shape_hash(const ptx_mod *mods, const ptx_isa_form *form)
{
    uint64_t h = ((uint64_t)(uintptr_t)mods ^ (uint64_t)(uintptr_t)form * 31u) * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 32);
}

/* What check_instr works out from an instruction's modifiers and its
 * matched form, for `in` (whose I.in it is) */
static void shape_fill(sema *S, shape *sh, const ptx_instr *in, const ptx_isa_form *form)
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
        if (in->mods[i].category == PTX_CAT_SPACE && form) {
            I->spaces++;
            I->space = in->mods[i].name->text;
        } else if (in->mods[i].category == PTX_CAT_TYPE && ntypes < 4) {
            ptx_modifier id = (ptx_modifier)in->mods[i].id;
            I->types[ntypes] = id;
            if (id)
                I->tcls[ntypes] = mod_class_of(S, id);
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
    shape_fill(S, &S->shapes[i], in, form);
    return &S->shapes[i];
}

/* Would check_constant say nothing of an integer constant as operand op
 * of I's instruction?  (check_expr_names has nothing to say of one.) */
static bool int_fits(const ictx *I, const ptx_isa_operand *op)
{
    if (!op || !op->tkind)
        return true;
    tclass w = wanted(I, op);
    return !w.k || w.k == 'p' || !constant_refused(w, 'i');
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
 * check_instr found them): the operands the matched form has, then any it
 * lacks; a register or constant that fits goes no further.  Returns
 * which of the first ANSWER_OPS went to check_operand (bit i). */
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
        check_operand(S, &sh->I, &ops[i], op);
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
 * key of check_instr's).  The module's version and target, which the
 * key leaves out, are those of all the answers: the module's header
 * comes before its items, and the tables are set up for one module
 * (sema_setup). */
static inline answer *answer_of(sema *S, const ptx_mod *mods, const uint64_t *ops)
{
    uint64_t h = ((uint64_t)(uintptr_t)mods ^ ops[0] ^ (ops[1] * 0xbf58476d1ce4e5b9ULL)) *
                 0x9e3779b97f4a7c15ULL;
    return &S->answers[(h >> 40) & (ANSWERS - 1)];
}

/* What check_instr checks first of an instruction of shape sh: the
 * shape's own error, the guard. */
static void check_first(sema *S, const shape *sh, const ptx_instr *in)
{
    if (sh->cvta32)
        error(S, PTX_DIAG_TYPE, in->base.span,
              "'cvta' with .u32 makes a 32-bit address, which ptxas 13 no longer compiles (write .u64)");
    check_guard(S, in);
}

/* check_instr for an instruction with no answer: the validator, the
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
    if (S->ctx->no_sema)
        return;
    /* an instruction of its own modifiers has a shape of its own */
    shape own, *sh = &own;
    if (in->flags & PTX_INSTR_SHARED_MODS)
        sh = shape_of(S, in, form);
    else
        shape_fill(S, sh, in, form);
    check_first(S, sh, in);
    /* operands of the signature that went no further last time go no
     * further again: what slot_fits answers depends on the shape and
     * the types alone */
    unsigned checked = 0;
    if (!sig || sig != sh->sig)
        checked = check_operands(S, sh, in, form, sy, sig);
    if (sh->call) {
        sh->I.in = in;
        check_call(S, &sh->I);
    }
    /* (shape_of may have moved the shapes and emptied the answers: the
     * slot is found now) */
    if (key && form)
        *answer_of(S, written, key) = (answer){ written, { key[0], key[1] }, in->family,
                                                (uint8_t)checked, form, in->mods, sh };
}

static void check_instr(sema *S, ptx_instr *in)
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
            check_operand(S, &sh->I, &ops[i], i < form->nops ? &form->ops[i] : NULL);
    if (sh->call)
        check_call(S, &sh->I);
}

/* Names in .branchtargets (labels) and .calltargets (functions). */
static void check_targets(sema *S, const ptx_targets *t)
{
    for (uint32_t i = 0; i < t->count; i++) {
        const ptx_expr *e = t->names[i];
        if (e->kind != PTX_EXPR_SYM)
            continue;
        sym *s = lookup(S, ptx_expr_name(e));
        if (!s)
            unknown_symbol(S, e);
        else if (t->is_branch && s->kind != S_LABEL)
            error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e), "'%s' is a %s: .branchtargets lists labels",
                  ptx_expr_name(e)->text, kind_word(s));
        else if (!t->is_branch && s->kind != S_FUNC)
            error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
                  "'%s' is a %s: .calltargets lists functions", ptx_expr_name(e)->text, kind_word(s));
    }
}

/* Calls fn for each name in `e` (of statement `stmt`), in source order; a
 * field initialiser's value is a word, not a symbol (addr_mode_0 =
 * clamp_to_border). */
static void each_name(sema *S, const ptx_node *stmt, const ptx_expr *e,
                      void (*fn)(sema *, const ptx_node *, const ptx_expr *))
{
    if (e->kind == PTX_EXPR_SYM) {
        fn(S, stmt, e);
        return;
    }
    if (e->kind == PTX_EXPR_FIELD || ptx_expr_is_leaf(e) || e->kind == PTX_EXPR_RANGE)
        return;
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        each_name(S, stmt, ptx_expr_item(e, i), fn);
}

/* A name in an initialiser: a variable or function declared before. */
static void check_init_name(sema *S, const ptx_node *stmt, const ptx_expr *e)
{
    (void)stmt;
    sym *s = lookup(S, ptx_expr_name(e));
    if (!s && !ptx_name_is(ptx_expr_name(e), "WARP_SZ"))
        unknown_symbol(S, e);
    else if (s && s->kind != S_VAR && s->kind != S_FUNC)
        error(S, PTX_DIAG_SYMBOL, ptx_expr_span(e),
              "'%s' is a %s: an initialiser takes the address of a variable or function",
              ptx_expr_name(e)->text, kind_word(s));
}

/* ---- ptx_resolve_names ------------------------------------------------------ */

static void visit_name(sema *S, const ptx_node *stmt, const ptx_expr *e)
{
    if (S->stop)
        return;
    ptx_symbol out;
    memset(&out, 0, sizeof out);
    const ptx_name *name = ptx_expr_name(e);
    sym *s = lookup(S, name);
    if (s) {
        static const ptx_symbol_kind kinds[] = {
            [S_REG] = PTX_SYM_REGISTER, [S_VAR] = PTX_SYM_VARIABLE,
            [S_FUNC] = PTX_SYM_FUNCTION, [S_LABEL] = PTX_SYM_LABEL,
        };
        out.kind = kinds[s->kind];
        out.decl = s->node;
        out.span = s->span;
        if (s->kind == S_REG || s->kind == S_VAR) {
            out.type = (ptx_type)s->type;
            out.space = (ptx_space)s->space;
            out.var = s->var;
        }
    } else if (sreg_find(name) || ptx_name_is(name, "WARP_SZ")) {
        out.kind = PTX_SYM_SPECIAL;
        out.span.off = PTX_NO_OFFSET;
    }
    if (!S->visit(S->visit_user, stmt, e, &out))
        S->stop = true;
}


static void visit_instr(sema *S, const ptx_instr *in)
{
    const ptx_expr *g = ptx_instr_guard(in);
    if (g && g->kind == PTX_EXPR_SYM)
        visit_name(S, &in->base, g);
    for (unsigned i = 0; i < in->nops; i++)
        each_name(S, &in->base, &in->ops[i], visit_name);
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
    char k = literal_kind(e);
    char buf[16];
    /* 0f and 0d constants are floating-point too (.u32 v = 0f3F800000) */
    if ((t.k == 'f' && k == 'i') ||
        ((t.k == 'u' || t.k == 's') && (k == 'f' || k == 'h' || k == 'd')))
        error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "%s constant initialises a %s variable",
              k == 'i' ? "an integer" : "a floating-point", class_name(t, buf, sizeof buf));
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
            error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "a { } list where '%s' takes a single "
                  "value here: give one { } per dimension%s", v->name->text,
                  d->vec ? " and one for the vector" : "");
        return !list;
    }
    if (!list) {
        error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "a single value where '%s' takes a { } list "
              "here: give one { } per dimension%s", v->name->text,
              d->vec ? " and one for the vector" : "");
        return false;
    }
    uint64_t size = level < v->ndims ? v->dims[level] : d->vec;
    if (size && ptx_expr_count(e) > size) {
        error(S, PTX_DIAG_DECL, ptx_expr_span(e), "%u initial values for the %llu elements of '%s'",
              ptx_expr_count(e), (unsigned long long)size, v->name->text);
        return false;
    }
    for (uint32_t i = 0; i < ptx_expr_count(e); i++)
        if (!check_init_shape(S, d, v, ptx_expr_item(e, i), level + 1))
            return false;
    return true;
}

static void check_decl_init(sema *S, const ptx_decl *d, const ptx_var *v)
{
    const ptx_expr *e = v->init;
    if (d->type == PTX_TYPE_PRED || d->type == PTX_TYPE_F16 || d->type == PTX_TYPE_F16X2) {
        error(S, PTX_DIAG_TYPE, ptx_expr_span(e), "a %s variable takes no initial value",
              ptx_type_name(d->type));
        return;
    }
    /* a sampler's { name = value, ... } is no array */
    if (d->type != PTX_TYPE_SAMPLERREF && d->type != PTX_TYPE_TEXREF &&
        d->type != PTX_TYPE_SURFREF && !check_init_shape(S, d, v, e, 0))
        return;
    if (!d->vec)
        check_init_values(S, decl_class(d->type), e);
}

/* The walk goes into function or block n: its children come next. */
static void enter(sema *S, const ptx_node *n)
{
    S->open = grow(S, S->open, &S->capopen, S->nopen, sizeof *S->open);
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
                close_scope(S);
                S->func = NULL;
            } else if (!S->func || c != &S->func->body->base) {
                close_scope(S);
            }
            /* a function's body is its only child */
            n = S->nopen && S->open[S->nopen - 1]->kind == PTX_NODE_FUNC ? NULL : c->next;
            continue;
        }
        const ptx_node *next = n->next;
        switch ((ptx_node_kind)n->kind) {
        case PTX_NODE_INSTR:
            if (S->visit)
                visit_instr(S, (const ptx_instr *)n);
            else    /* ptx_sema_run's module, which the context owns and
                       hands over to be written */
                check_instr(S, (ptx_instr *)n);
            break;
        case PTX_NODE_DECL: {
            const ptx_decl *d = (const ptx_decl *)n;
            for (uint32_t i = 0; i < d->nvars; i++) {
                if (!d->vars[i].init)
                    continue;
                if (S->visit) {
                    each_name(S, n, d->vars[i].init, visit_name);
                } else {
                    each_name(S, n, d->vars[i].init, check_init_name);
                    check_decl_init(S, d, &d->vars[i]);
                }
            }
            declare_decl(S, d);
            break;
        }
        case PTX_NODE_FUNC: {
            const ptx_func *f = (const ptx_func *)n;
            declare_func(S, f);
            if (f->body) {
                open_scope(S);
                S->func = f;
                declare_params(S, f->ret, f->nret);
                declare_params(S, f->params, f->nparams);
                body_next = true;
                enter(S, n);
                next = &f->body->base;
            }
            break;
        }
        case PTX_NODE_BLOCK: {
            const ptx_block *b = (const ptx_block *)n;
            if (!body_next)
                open_scope(S);
            body_next = false;
            declare_labels(S, b->first);
            enter(S, n);
            next = b->first;
            break;
        }
        case PTX_NODE_TARGETS:
            if (S->visit) {
                const ptx_targets *t = (const ptx_targets *)n;
                for (uint32_t i = 0; i < t->count; i++)
                    each_name(S, n, t->names[i], visit_name);
            } else {
                check_targets(S, (const ptx_targets *)n);
            }
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
    ptx_ctx_free(S->ctx, S->mod_classes, PTX_MOD_COUNT * sizeof *S->mod_classes);
    ptx_ctx_free(S->ctx, S->mod_known, PTX_MOD_COUNT);
    ptx_ctx_free(S->ctx, S->fit_memo, FIT_MEMO_SIZE * sizeof *S->fit_memo);
    ptx_ctx_free(S->ctx, S->shapes, (S->shapes_mask + 1) * sizeof *S->shapes);
    ptx_ctx_free(S->ctx, S->answers, ANSWERS * sizeof *S->answers);
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
    names_grow(S);
    shapes_grow(S);
    S->mod_classes = ptx_ctx_calloc(S->ctx, PTX_MOD_COUNT, sizeof *S->mod_classes);
    S->mod_known = ptx_ctx_calloc(S->ctx, PTX_MOD_COUNT, 1);
    S->fit_memo = ptx_ctx_calloc(S->ctx, FIT_MEMO_SIZE, sizeof *S->fit_memo);
    S->answers = ptx_ctx_calloc(S->ctx, ANSWERS, sizeof *S->answers);
    if (!S->mod_classes || !S->mod_known || !S->fit_memo || !S->answers)
        longjmp(*oom, 1);
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

void ptx_sema_run(ptx_context *ctx, ptx_module *m)
{
    sema S;
    memset(&S, 0, sizeof S);
    S.ctx = ctx;
    if (!sema_walk(&S, m))
        longjmp(ctx->oom, 1);
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
        sema_setup(S, ctx->module, &ctx->oom);
    }
    walk(S, item);
}

void ptx_sema_end(ptx_context *ctx)
{
    if (!ctx->sema)
        return;
    sema_free(ctx->sema);
    free(ctx->sema);
    ctx->sema = NULL;
}

ptx_status ptx_resolve_names(const ptx_module *m, ptx_name_fn fn, void *user)
{
    if (!m || !fn)
        return PTX_ERR_USAGE;
    sema S;
    memset(&S, 0, sizeof S);
    S.visit = fn;
    S.visit_user = user;
    /* the walk reads the tree only: the const goes no further than here */
    return sema_walk(&S, (ptx_module *)m) ? PTX_OK : PTX_ERR_NOMEM;
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
