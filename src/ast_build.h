/* The builders the grammar's actions call: one function per construct, so
 * that each action is one line.  Builders allocate in the context's arena,
 * check what the grammar cannot express (orders, ranges, placements) and
 * report it as a diagnostic. */
#ifndef PTX_AST_BUILD_H
#define PTX_AST_BUILD_H

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
    ptx_node *n = ptx_arena_zalloc(&ctx->arena, size);
    n->kind = (uint8_t)kind;
    n->span = (ptx_span){ loc.off, loc.end - loc.off };
    return n;
}

typedef struct ptx_nlist {
    ptx_node *first, *last;
} ptx_nlist;

typedef struct ptx_parser_state {
    ptx_context *ctx;
    void *scanner;
    /* where the scanner stands: at the start of a statement (after ';',
     * '{', '}' or a label), or after a name there that may be a label */
    bool at_statement, after_name;
} ptx_parser_state;

/* A mark is the scratch-stack height where a list begins; NO_LIST says the
 * optional list was not written at all. */
#define PTX_NO_LIST SIZE_MAX

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

size_t ptx_mark(ptx_context *ctx);

/* expressions */
ptx_expr *ptx_b_int(ptx_context *ctx, const ptx_tok *t);
ptx_expr *ptx_b_float(ptx_context *ctx, const ptx_tok *t);
ptx_expr *ptx_b_bits(ptx_context *ctx, const ptx_tok *t, bool f64);
ptx_expr *ptx_b_sym(ptx_context *ctx, const ptx_tok *name, const ptx_tok *sel);
ptx_expr *ptx_b_dotted_sym(ptx_context *ctx, const ptx_tok *t);
/* A run of debug-section lines (".b8 144", ".b32 7, 9", ".b64 $L__tmp3"):
 * lines of .b8, .b16, .b32 or .b64 and plain decimals, or after .b32 and
 * .b64 one label (not on the first line, which a parameter list's last
 * ".param .b32 name" would be), each ended by a newline, one after
 * another.  Returns the run's length at s (the next line's indentation
 * included), or 0; the run, taken apart on the way, goes to ctx->run,
 * where ptx_b_data_run finds it. */
size_t ptx_data_run_length(ptx_context *ctx, const char *s);
ptx_node *ptx_b_data_run(ptx_context *ctx, const ptx_tok *t);
/* An instruction of the common shape, on one line: opcode and its
 * dot-words (after an optional guard), then operands that are names with
 * at most one selector, pairs of names (a|b), decimals of up to 19
 * digits with or without '-', 0x constants of up to 16 digits, 0f/0d
 * constants, [name], [name+decimal] and vectors of names ({a, b}), then
 * ';'.  The scanner takes it as one
 * SIMPLE token; returns its length at s (s at the guard or opcode), or 0
 * when the text has another shape. */
size_t ptx_simple_length(const char *s);
ptx_node *ptx_b_simple(ptx_context *ctx, const ptx_tok *t);
/* ".loc FILE LINE COLUMN", then optionally ", function_name LABEL" and
 * ", inlined_at FILE LINE COLUMN" in that order, numbers decimals of at
 * most 9 digits, ending its line: one LOCLINE token (the scanner also
 * checks that no other attribute follows on the next lines).  Returns its
 * length at s (to its last number or name), or 0. */
size_t ptx_loc_length(const char *s);
ptx_node *ptx_b_loc_line(ptx_context *ctx, const ptx_tok *t);
/* "name:" ending its line: one LABEL token (the scanner also checks that
 * no .callprototype, .calltargets or .branchtargets follows).  Returns its
 * length at s, ':' included, or 0. */
size_t ptx_label_length(const char *s);
ptx_node *ptx_b_label_line(ptx_context *ctx, const ptx_tok *t);
/* The value of `n` hexadecimal digits (0f/0d constants: n is 8 or 16). */
uint64_t ptx_hex_bits(const char *digits, size_t n);
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
void ptx_b_push(ptx_context *ctx, void *item);
ptx_expr *ptx_b_field(ptx_context *ctx, const ptx_tok *name, ptx_expr *value, ptx_loc_t loc);
ptx_expr *ptx_b_range(ptx_context *ctx, const ptx_tok *name, const ptx_tok *n, ptx_loc_t loc);

/* statements */
void ptx_b_mod(ptx_context *ctx, const ptx_tok *word);
ptx_node *ptx_b_instr(ptx_context *ctx, const ptx_tok *guard, bool neg,
                      const ptx_tok *opcode, size_t mods, size_t ops, ptx_loc_t loc);
ptx_node *ptx_b_label(ptx_context *ctx, const ptx_tok *name, ptx_loc_t loc);
ptx_node *ptx_b_block(ptx_context *ctx, ptx_nlist body, ptx_loc_t loc);
ptx_node *ptx_b_loc(ptx_context *ctx, const ptx_tok nums[3], size_t attrs, ptx_loc_t loc);
void ptx_b_loc_attr(ptx_context *ctx, const ptx_tok *key, const ptx_tok *a,
                    const ptx_tok *b, const ptx_tok *c, ptx_loc_t loc);
ptx_node *ptx_b_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc);
void ptx_b_string(ptx_context *ctx, const ptx_tok *t);
ptx_node *ptx_b_callproto(ptx_context *ctx, const ptx_tok *label, size_t ret,
                          size_t params, size_t dirs, ptx_loc_t loc);
ptx_node *ptx_b_targets(ptx_context *ctx, const ptx_tok *label, bool branch,
                        size_t names, ptx_loc_t loc);
ptx_nlist ptx_b_append(ptx_nlist list, ptx_node *n);
ptx_nlist ptx_b_none(void);
/* The statements of a STMTS token, appended to `list` in order. */
ptx_nlist ptx_b_stmts(ptx_context *ctx, ptx_nlist list, const ptx_tok *t);

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

/* After error recovery: drop half-built lists; true when parsing must stop. */
bool ptx_b_recover(ptx_context *ctx);

#endif
