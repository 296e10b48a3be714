/* The builders the grammar's actions call: one function per construct, so
 * that each action is one line.  Builders allocate in the context's arena,
 * check what the grammar cannot express (orders, ranges, placements) and
 * report it as a diagnostic.  They live in build_expr.c, build_stmt.c,
 * build_decl.c and build_module.c, the scanner's fast lane in fastlane.c;
 * what they share is here.  Lists arrive on the scratch stack. */
#ifndef PTX_AST_BUILD_H
#define PTX_AST_BUILD_H

#include <string.h>

#include "internal.h"

/* A token's value: its source span, plus what the scanner computed. */
typedef struct ptx_tok {
    uint32_t off, len;
    uint32_t k;                 /* keyword kind, or PTX_INT_* flags */
    union {
        uint64_t u;
        double d;
    };
} ptx_tok;

/* Source range of a grammar symbol, as byte offsets [off, end). */
typedef struct ptx_loc_t {
    uint32_t off, end;
} ptx_loc_t;

/* The range from the start of a to the end of b. */
static inline ptx_loc_t ptx_loc_span(ptx_loc_t a, ptx_loc_t b)
{
    return (ptx_loc_t){ a.off, b.end };
}

/* A token's text, interned. */
static inline const ptx_name *tok_name(ptx_context *ctx, const ptx_tok *t)
{
    return ptx_intern(ctx, ctx->src + t->off, t->len);
}

/* A node of `size` bytes, zeroed, of `kind`, spanning loc. */
static inline void *node_new(ptx_context *ctx, ptx_node_kind kind, size_t size, ptx_loc_t loc)
{
    ptx_node *n = ptx_arena_zalloc(ctx->tree, size);
    n->kind = (uint8_t)kind;
    n->span = (ptx_span){ loc.off, loc.end - loc.off };
    return n;
}

typedef struct ptx_nlist {
    ptx_node *first, *last;
} ptx_nlist;

/* A mark is the scratch-stack height where a list begins; NO_LIST says the
 * optional list was not written at all. */
#define PTX_NO_LIST SIZE_MAX

/* ---- what the builders share ----------------------------------------- */

static inline ptx_span span_of(ptx_loc_t loc)
{
    ptx_span s = { loc.off, loc.end - loc.off };
    return s;
}

static inline ptx_span tok_span(const ptx_tok *t)
{
    ptx_span s = { t->off, t->len };
    return s;
}

/* Whether t's text is `word`. */
static inline bool tok_is(ptx_context *ctx, const ptx_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->len == n && memcmp(ctx->src + t->off, word, n) == 0;
}

static inline void error_at(ptx_context *ctx, ptx_diag_code code, ptx_span span,
                            const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static inline void error_at(ptx_context *ctx, ptx_diag_code code, ptx_span span,
                            const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ptx_diag_vadd(ctx, PTX_SEV_ERROR, code, span, fmt, ap);
    va_end(ap);
}

static inline bool version_at_least(const ptx_module *m, unsigned major, unsigned minor)
{
    return m->version_major > major ||
           (m->version_major == major && m->version_minor >= minor);
}

/* t's value, a file index, line or column: above 2^32 - 1 an error, and
 * UINT32_MAX. */
static inline uint32_t u32_of(ptx_context *ctx, const ptx_tok *t, const char *what)
{
    if (t->u > UINT32_MAX) {
        error_at(ctx, PTX_DIAG_LITERAL, tok_span(t), "%s %llu is out of range", what,
                 (unsigned long long)t->u);
        return UINT32_MAX;
    }
    return (uint32_t)t->u;
}

/* Where the next list begins on the scratch stack. */
static inline size_t ptx_mark(ptx_context *ctx)
{
    return ctx->nscratch;
}

static inline void ptx_b_push(ptx_context *ctx, void *item)
{
    ptx_scratch_push(ctx, item);
}

/* How many items the scratch holds above `mark` (none for PTX_NO_LIST). */
static inline size_t above(const ptx_context *ctx, size_t mark)
{
    return mark != PTX_NO_LIST && ctx->nscratch > mark ? ctx->nscratch - mark : 0;
}

/* Nodes of a list in one arena array. */
static inline void *take(ptx_context *ctx, size_t mark, uint32_t *count)
{
    if (mark == PTX_NO_LIST || ctx->nscratch <= mark) {
        *count = 0;
        return NULL;
    }
    return ptx_scratch_take(ctx, mark, count);
}

/* A cell for an expression node being built.  The builders make each node
 * on its own; a node with parts then moves them into its `more` block, and
 * their cells come back here: a parse needs a cell per nesting level, not
 * per node.  A free cell links to the next by u.i. */
static inline ptx_expr *cell_new(ptx_context *ctx)
{
    ptx_expr *e = ctx->free_exprs;
    if (e)
        ctx->free_exprs = (ptx_expr *)(uintptr_t)e->u.i;
    else
        e = ptx_arena_alloc(ctx->tree, sizeof *e);
    return e;
}

static inline void cell_free(ptx_context *ctx, ptx_expr *e)
{
    e->u.i = (uint64_t)(uintptr_t)ctx->free_exprs;
    ctx->free_exprs = e;
}

/* `n` may lead a chain of nodes (a STMTS token after an error): the list
 * then ends where the chain does. */
static inline ptx_nlist ptx_b_append(ptx_nlist list, ptx_node *n)
{
    if (!n)
        return list;
    if (list.last)
        list.last->next = n;
    else
        list.first = n;
    list.last = n;
    while (list.last->next)
        list.last = list.last->next;
    return list;
}

/* A run of nodes whose last is known (a STMTS token's): no walk to it. */
static inline ptx_nlist ptx_b_append_run(ptx_nlist list, ptx_nlist run)
{
    if (list.last)
        list.last->next = run.first;
    else
        list.first = run.first;
    list.last = run.last;
    return list;
}

static inline ptx_nlist ptx_b_none(void)
{
    ptx_nlist none = { NULL, NULL };
    return none;
}

/* After error recovery: drop half-built lists; true when parsing must stop. */
static inline bool ptx_b_recover(ptx_context *ctx)
{
    ctx->nscratch = 0;
    return ctx->stopped;
}

/* Whether e is a 'name = value' item or a list that may hold one. */
static inline bool ptx_expr_may_hold_field(const ptx_expr *e)
{
    return e->kind == PTX_EXPR_FIELD || e->kind == PTX_EXPR_VEC || e->kind == PTX_EXPR_LIST ||
           e->kind == PTX_EXPR_ADDR;
}

/* The first 'name = value' item in e, a list or a list nested in it
 * (build_expr.c). */
const ptx_expr *ptx_expr_find_field(const ptx_expr *e);
/* The pragmas of PTX ISA 9.0; ptxas refuses any other (build_stmt.c). */
typedef enum ptx_pragma_site { PTX_PRAGMA_MODULE, PTX_PRAGMA_HEADER, PTX_PRAGMA_BODY } ptx_pragma_site;
void ptx_check_pragmas(ptx_context *ctx, const ptx_name *const *s, uint32_t n,
                       ptx_pragma_site where, ptx_span at);
ptx_node *ptx_b_module_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc);

/* Where a declaration stands: the checks differ. */
typedef enum ptx_decl_site {
    PTX_SITE_MODULE, PTX_SITE_BODY, PTX_SITE_ENTRY_PARAM, PTX_SITE_FUNC_PARAM,
    PTX_SITE_PROTO_PARAM
} ptx_decl_site;

typedef enum ptx_spec_kind {
    PTX_SPEC_LINK, PTX_SPEC_SPACE, PTX_SPEC_ALIGN, PTX_SPEC_VEC, PTX_SPEC_TYPE,
    PTX_SPEC_WORD, PTX_SPEC_PTR, PTX_SPEC_ATTR_MANAGED, PTX_SPEC_ATTR_UNIFIED
} ptx_spec_kind;

/* A declaration specifier: .global, .align 8, .v4, .b32, .attribute(...) */
typedef struct ptx_spec {
    uint8_t kind;               /* ptx_spec_kind */
    uint8_t attrs;              /* PTX_ATTR_* for attributes */
    uint32_t val;               /* enum value, vector size or alignment */
    ptx_span span;
    const ptx_name *word;       /* PTX_SPEC_WORD: the unknown dot-word */
    uint64_t unified[2];
} ptx_spec;


/* expressions */
ptx_expr *ptx_b_int(ptx_context *ctx, const ptx_tok *t);
ptx_expr *ptx_b_float(ptx_context *ctx, const ptx_tok *t);
ptx_expr *ptx_b_bits(ptx_context *ctx, const ptx_tok *t, bool f64);
ptx_expr *ptx_b_sym(ptx_context *ctx, const ptx_tok *name, const ptx_tok *sel);
ptx_expr *ptx_b_dotted_sym(ptx_context *ctx, const ptx_tok *t);
ptx_expr *ptx_b_sink(ptx_context *ctx, const ptx_tok *t);
ptx_expr *ptx_b_unary(ptx_context *ctx, ptx_op op, ptx_expr *a, ptx_loc_t loc);
ptx_expr *ptx_b_binary(ptx_context *ctx, ptx_op op, ptx_expr *a, ptx_expr *b);
ptx_expr *ptx_b_cond(ptx_context *ctx, ptx_expr *a, ptx_expr *b, ptx_expr *c);
ptx_expr *ptx_b_cast(ptx_context *ctx, const ptx_tok *type, ptx_expr *a, ptx_loc_t loc);
ptx_expr *ptx_b_index(ptx_context *ctx, ptx_expr *a, ptx_expr *b, ptx_loc_t loc);
/* ( items ): a parenthesised expression when one item, else a list */
ptx_expr *ptx_b_parens(ptx_context *ctx, size_t mark, ptx_loc_t loc);
ptx_expr *ptx_b_list(ptx_context *ctx, ptx_expr_kind kind, size_t mark, ptx_loc_t loc);
ptx_expr *ptx_b_addr_suffix(ptx_context *ctx, ptx_expr *addr, const ptx_tok *word, ptx_loc_t loc);
ptx_expr *ptx_b_apply(ptx_context *ctx, const ptx_tok *fn, bool fn_is_int, ptx_expr *a, ptx_loc_t loc);
/* a whole operand: a top-level (x) becomes a one-item list, a|b a pair */
ptx_expr *ptx_b_operand(ptx_context *ctx, ptx_expr *e);
ptx_expr *ptx_b_field(ptx_context *ctx, const ptx_tok *name, ptx_expr *value, ptx_loc_t loc);
ptx_expr *ptx_b_range(ptx_context *ctx, const ptx_tok *name, const ptx_tok *n, ptx_loc_t loc);

/* statements */
void ptx_b_mod(ptx_context *ctx, const ptx_tok *word);
ptx_node *ptx_b_instr(ptx_context *ctx, const ptx_tok *guard, bool neg,
                      const ptx_tok *opcode, size_t mods, size_t ops, ptx_loc_t loc);
ptx_node *ptx_b_label(ptx_context *ctx, const ptx_tok *name, ptx_loc_t loc);
ptx_node *ptx_b_block(ptx_context *ctx, ptx_nlist body, ptx_loc_t loc);
ptx_node *ptx_b_loc(ptx_context *ctx, const ptx_tok nums[3], size_t attrs, ptx_loc_t loc);
bool ptx_b_loc_fkey(ptx_context *ctx, const ptx_tok *key);
void ptx_b_loc_inlined_alone(ptx_context *ctx, const ptx_tok *key);
void ptx_b_loc_attr(ptx_context *ctx, const ptx_tok *key, const ptx_tok *a,
                    const ptx_tok *b, const ptx_tok *c, ptx_loc_t loc);
ptx_node *ptx_b_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc);
void ptx_b_string(ptx_context *ctx, const ptx_tok *t);
ptx_node *ptx_b_callproto(ptx_context *ctx, const ptx_tok *label, size_t ret,
                          size_t params, size_t dirs, ptx_loc_t loc);
ptx_node *ptx_b_targets(ptx_context *ctx, const ptx_tok *label, bool branch,
                        size_t names, ptx_loc_t loc);

/* declarations */
void ptx_b_spec(ptx_context *ctx, ptx_spec_kind kind, const ptx_tok *t, ptx_loc_t loc);
ptx_spec *ptx_b_attr(ptx_context *ctx, const ptx_tok *word, const ptx_tok *a,
                     const ptx_tok *b, ptx_loc_t loc);
ptx_spec *ptx_b_attr_merge(ptx_context *ctx, ptx_spec *a, ptx_spec *b);
ptx_spec *ptx_b_attr_spec(ptx_context *ctx, ptx_spec *attrs, ptx_loc_t loc);
ptx_var *ptx_b_var(ptx_context *ctx, const ptx_tok *name, bool sink);
void ptx_b_var_dim(ptx_context *ctx, ptx_var *v, const ptx_tok *n, ptx_loc_t loc);
void ptx_b_var_range(ptx_context *ctx, ptx_var *v, const ptx_tok *n, ptx_loc_t loc);
void ptx_b_var_init(ptx_context *ctx, ptx_var *v, ptx_expr *init);
ptx_decl *ptx_b_decl(ptx_context *ctx, size_t specs, size_t vars, ptx_loc_t loc);
/* checks what depends on where the declaration stands */
ptx_node *ptx_b_decl_at(ptx_context *ctx, ptx_decl *d, ptx_decl_site site);
ptx_decl *ptx_b_param(ptx_context *ctx, size_t specs, ptx_var *var, ptx_loc_t loc);

/* functions */
void ptx_b_fdir(ptx_context *ctx, const ptx_tok *kind, size_t values, ptx_loc_t loc);
void ptx_b_fdir_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc);
ptx_func *ptx_b_func_head(ptx_context *ctx, size_t specs, bool entry, size_t ret,
                          const ptx_tok *name, size_t params, size_t dirs,
                          ptx_loc_t loc);
ptx_node *ptx_b_func(ptx_context *ctx, ptx_func *head, ptx_node *body, ptx_loc_t loc);

/* module items */
ptx_node *ptx_b_alias(ptx_context *ctx, const ptx_tok *a, const ptx_tok *b, ptx_loc_t loc);
ptx_node *ptx_b_file(ptx_context *ctx, const ptx_tok *index, const ptx_tok *path,
                     const ptx_tok *ts, const ptx_tok *size, ptx_loc_t loc);
ptx_node *ptx_b_section(ptx_context *ctx, const ptx_tok *name, ptx_nlist body, ptx_loc_t loc);
ptx_node *ptx_b_data(ptx_context *ctx, const ptx_tok *word, size_t values, ptx_loc_t loc);
ptx_node *ptx_b_target_item(ptx_context *ctx, size_t names, ptx_loc_t loc);
ptx_node *ptx_b_dwarf(ptx_context *ctx, const ptx_tok *line, ptx_loc_t loc);
/* a name of a .target list, checked against the known targets */
void ptx_b_target_name(ptx_context *ctx, const ptx_tok *t, bool first);

/* header and module */
void ptx_b_version(ptx_context *ctx, const ptx_tok *t, ptx_loc_t loc);
void ptx_b_target(ptx_context *ctx, size_t names, ptx_loc_t loc);
void ptx_b_address_size(ptx_context *ctx, const ptx_tok *t, ptx_loc_t loc);
void ptx_b_module(ptx_context *ctx, ptx_nlist items);

#endif
