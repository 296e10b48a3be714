/* The semantic pass's own interface between its files (sema.c the
 * driver; sema_symbols.c scopes and symbols; sema_sregs.c special
 * registers; sema_types.c type classes; sema_operands.c operands and
 * calls; sema_instr.c instructions and the caches in front of their
 * checks): the pass's state, and what one file asks of another.  Not a
 * library interface: internal.h has the pass's entry points. */
#ifndef PTX_SEMA_IMPL_H
#define PTX_SEMA_IMPL_H

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "isa_tables.h"

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
    tclass cls;                 /* S_REG, S_VAR: sema_decl_class of the type */
    const ptx_symbol *pub;      /* what ptx_resolve_names says of it, made
                                   when a name is first resolved to it */
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
    struct shape *shapes;       /* sema_check_instr's table (shape) */
    size_t shapes_mask, nshapes;
    struct answer *answers;     /* sema_check_instr's memo (answer): ANSWERS */
    /* ptx_resolve_names: no checks, no diagnostics; each name to fn */
    ptx_name_fn visit;
    void *visit_user;
    bool stop;                  /* visit returned false */
    struct sema_debug *debug;   /* sema_debug.c's table, made on first need */
    struct ptx_name_refs *rec;  /* where the names' resolutions are kept
                                   (the context's), or NULL */
    unsigned suggested;         /* unknown symbols given a "did you mean" */
} sema;

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

void sema_check_call(sema *S, const ictx *I);
void sema_check_init_name(sema *S, const ptx_node *stmt, const ptx_expr *e);
void sema_check_instr(sema *S, ptx_instr *in);
void sema_check_file(sema *S, const ptx_file *f);
void sema_check_loc(sema *S, const ptx_loc *l);
void sema_check_section(sema *S, const ptx_section *sec);
void sema_debug_free(sema *S);
void sema_check_operand(sema *S, const ictx *I, const ptx_expr *e, const ptx_isa_operand *op);
void sema_check_targets(sema *S, const ptx_targets *t);
const char *sema_class_name(tclass c, char *buf, size_t n);
void sema_close_scope(sema *S);
const char *sema_constant_refused(tclass w, char k);
tclass sema_decl_class(unsigned t);
void sema_declare_decl(sema *S, const ptx_decl *d);
void sema_declare_func(sema *S, const ptx_func *f);
void sema_declare_labels(sema *S, const ptx_node *first);
void sema_declare_params(sema *S, ptx_decl *const *ds, uint32_t n);
void sema_each_name(sema *S, const ptx_node *stmt, const ptx_expr *e,
                      void (*fn)(sema *, const ptx_node *, const ptx_expr *));
name_entry *sema_entry_new(sema *S, const ptx_name *name);
bool sema_error(sema *S, ptx_diag_code code, ptx_span sp, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
bool sema_fits_slow(tclass e, tclass r, bool relaxed);
void *sema_grow(sema *S, void *p, size_t *cap, size_t n, size_t size);
bool sema_is_component(const char *sel);
bool sema_is_int(char k);
const char *sema_kind_word(const sym *s);
char sema_literal_kind(const ptx_expr *e);
const ptx_expr *sema_name_in(const ptx_expr *e);
const ptx_expr *sema_sum_base(const ptx_expr *e);
tclass sema_mod_class_of(sema *S, ptx_modifier id);
void sema_names_grow(sema *S);
void sema_open_scope(sema *S);
void sema_previous_here(sema *S, const sym *s);
sym *sema_resolve(sema *S, name_entry *c);
/* What ptx_resolve_names says of `name`, which s (or nothing) declares,
 * and the same made in the context's arena for symbol s declared at
 * `span` (a check that keeps the names' resolutions) (sema_symbols.c) */
void sema_symbol_of(const ptx_name *name, const sym *s, ptx_symbol *out);
const ptx_symbol *sema_publish(sema *S, const sym *s, ptx_span span);
/* the caches' tables (sema_instr.c) */
void sema_caches_setup(sema *S);
void sema_caches_free(sema *S);
const sreg *sema_sreg_find(const ptx_name *name);
void sema_unknown_symbol(sema *S, const ptx_expr *e);
unsigned sema_vector_modifier(const ptx_instr *in);
tclass sema_wanted_late(const ictx *I, const ptx_isa_operand *op);

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

/* The entry of `name`, made on first need. */
static inline name_entry *entry_of(sema *S, const ptx_name *name)
{
    if (name->id < S->nnames) {
        name_entry *c = &S->names[name->id];
        if (c->name == name)
            return c;
    }
    return sema_entry_new(S, name);
}

/* Called for each name of each operand: an answer still good is found
 * without a call */
static inline sym *lookup(sema *S, const ptx_name *name)
{
    name_entry *c = entry_of(S, name);
    if (c->epoch == S->epoch)
        return c->s;
    return sema_resolve(S, c);
}


static inline bool fits(tclass e, tclass r, bool relaxed)
{
    /* the common answers first: a register of the wanted kind and width,
     * or a .bN register of the wanted width where no predicate goes */
    if (e.bits == r.bits && (e.k == r.k || (r.k == 'b' && e.k != 'p')))
        return true;
    return sema_fits_slow(e, r, relaxed);
}

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
        return sema_wanted_late(I, op);
    tclass c = I->tcls[nth];
    if (op->tflags & PTX_OT_WIDE)
        c.bits *= 2;
    return c;
}

#endif
