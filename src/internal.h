/* Internal interfaces shared by the library's source files. */
#ifndef PTX_INTERNAL_H
#define PTX_INTERNAL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx/ptx.h"

#include "arena.h"

/* ---- the context's tables, through its pool (tables.c) ----------------- */

/* A table of the context's (ctx may be NULL): from its pool, *mapped then
 * PTX_MAPPED_POOL, else ptx_big_zalloc's; ptx_table_free, not
 * ptx_big_free, gives it back (tables.c); PTX_MAPPED_POOL: arena.h. */
void *ptx_table_zalloc(ptx_context *ctx, size_t bytes, size_t *mapped);
void ptx_table_free(ptx_context *ctx, void *p, size_t bytes, size_t mapped);
/* calloc and free through the pool, for the smaller tables (ctx may be
 * NULL): ptx_ctx_free takes the size ptx_ctx_calloc was given */
void *ptx_ctx_calloc(ptx_context *ctx, size_t n, size_t size);
void ptx_ctx_free(ptx_context *ctx, void *p, size_t bytes);
/* realloc through the pool (ctx not NULL): p of old_bytes to new_bytes,
 * the room past old_bytes not cleared; NULL when out of memory (p kept) */
void *ptx_ctx_realloc(ptx_context *ctx, void *p, size_t old_bytes, size_t new_bytes);

/* ---- interning (intern.c) ------------------------------------------- */

typedef struct ptx_split ptx_split;

/* A slot of the interning table: the name's hash and length beside it,
 * so that a probe reads the name only when both match. */
typedef struct ptx_intern_slot {
    uint32_t hash;            /* 0: empty */
    uint32_t len;
    const ptx_name *name;
} ptx_intern_slot;

/* Open addressing with linear probing; doubles at 3/4 full. */
typedef struct ptx_intern_table {
    ptx_intern_slot *slots;
    size_t mapped;            /* slots' ptx_big_zalloc mapping, or 0 */
    size_t mask;              /* slots - 1 */
    size_t count;
    size_t limit;             /* the count at which it doubles (0: no slots) */
} ptx_intern_table;

/* A name of at most 16 bytes that ptx_intern or ptx_intern_split
 * returned lately, by its bytes: a lookup there needs no hash and no
 * probe. */
typedef struct ptx_intern_recent {
    uint64_t key[2];          /* the bytes, packed (intern.c: recent_key) */
    uint32_t len1;            /* the length + 1; 0: empty */
    const void *value;        /* the ptx_name, or the ptx_split */
} ptx_intern_recent;

/* The names of registers written %<prefix><number> (%r12, %rd3) of one
 * prefix, by number: a cache in front of the table of registers, dense
 * and small where a kernel's registers are numbered from 1. */
typedef struct ptx_intern_family {
    uint64_t key;             /* the prefix's bytes (intern.c: short_key) */
    uint32_t plen;            /* the prefix's length; 0: empty */
    uint32_t cap;             /* by_number's entries */
    uint32_t count;           /* those set */
    const ptx_name **by_number;
} ptx_intern_family;

typedef struct ptx_interner {
    /* register names (those that start with '%': the most looked up,
     * a few thousand in a module) apart from the others (labels, mostly,
     * up to hundreds of thousands), so that their table stays in cache.
     * A new other name goes into `young`, small and in cache, and moves
     * to `others` with a batch of young ones (intern.c: move_young);
     * `filter` says which names `others` may hold. */
    ptx_intern_table regs, others, young;
    uint64_t *filter;         /* a blocked Bloom filter, filter_mask + 1 words */
    ptx_intern_family *families;  /* open, by prefix; made with `recent` */
    size_t nfamilies;
    size_t filter_mask;
    ptx_intern_recent *recent;  /* names, direct-mapped; malloc'd with the
                                   first table, and the splits' after them */
    size_t count;             /* the names interned: the next one's id */
    ptx_arena text;           /* the names, together and apart from the tree */
    ptx_arena *texts;         /* where the other names go: `text`, or when
                                 no tree is kept the context's arena, which
                                 then holds little else (its 2 MB block was
                                 a tenth full, and text's another 2 MB) */
    ptx_arena regtext;        /* the registers' names, apart from the others */
    ptx_split **splits;       /* dotted names already cut into words */
    size_t split_mask, nsplits;
} ptx_interner;

/* The modifiers of the instructions whose opcode is one dotted token
 * ("ld.global.u32") are shared by all those written alike: the same
 * token, starting at the same distance `at` from the start of the
 * instruction (after the same guard), and, once validated, with the same
 * ids and categories.  The sets of one token are chained from its split;
 * an instruction whose mods are in a set has PTX_INSTR_SHARED_MODS, a
 * flag of its own (the bit ptx/ast.h leaves out of ptx_instr's flags). */
enum { PTX_INSTR_SHARED_MODS = 1 };

/* In `flags` of a node that ptx_insert_before put before a statement (a
 * bit ptx/ast.h leaves to the library): the lossless printer writes it
 * on its own line right above that statement, after the blank lines and
 * comments that were above it (print_ptx.c, lossless_event). */
enum { PTX_NODE_WITH_NEXT = 0x40 };
typedef struct ptx_mods_set ptx_mods_set;
struct ptx_mods_set {
    ptx_mods_set *next;
    ptx_mods_set **head;      /* where the chain starts (in the split) */
    uint32_t at;
    bool validated;           /* ids and categories are set */
    ptx_mod mods[];
};

/* A new set of nmods modifiers and the opcode's entry at `at`, first in
 * the chain at *head; its entries are left for the caller to fill. */
ptx_mods_set *ptx_mods_set_new(ptx_context *ctx, ptx_mods_set **head, uint32_t at,
                               bool validated, uint32_t nmods);

/* The set that holds mods (an instruction's with PTX_INSTR_SHARED_MODS);
 * mods[0] of a set is the opcode's, an instruction's mods start at 1. */
#define ptx_mods_set_of(m) \
    ((ptx_mods_set *)(void *)((char *)((m) - 1) - offsetof(ptx_mods_set, mods)))

/* A dotted name ("ld.global.u32") cut at its dots: words[0] is the part
 * before the first dot ("ld"), then each ".word" in order, all interned. */
struct ptx_split {
    const ptx_name *whole;
    uint32_t nwords;
    ptx_mods_set *sets;       /* the modifier sets of instructions with it */
    const ptx_name *words[];
};

void ptx_interner_release(ptx_context *ctx);
/* Asks for the table slot where name s[0..len) is or would go, ahead of
 * ptx_intern (for a name that is not a register's, the large table's:
 * a data run's labels name what was declared before, most of them moved
 * out of the young table): the fast lane calls it for the labels of a
 * data run, which it interns once the run is measured. */
void ptx_intern_prefetch(const ptx_context *ctx, const char *s, size_t len);
const ptx_name *ptx_intern(ptx_context *ctx, const char *s, size_t len);
/* The interned name s[0..len), or NULL when there is none (interns nothing). */
const ptx_name *ptx_intern_find(const ptx_context *ctx, const char *s, size_t len);
/* The hash the interner gives s[0..len) (ptx_name.hash), never 0: for
 * tables of other text (the semantic pass's prefixes). */
uint32_t ptx_hash_bytes(const char *s, size_t len);
/* The words of the dotted name s[0..len): cut and interned once per
 * distinct name, then found by one lookup. */
ptx_split *ptx_intern_split(ptx_context *ctx, const char *s, size_t len);
/* Is interned name `n` the string literal `lit`?  (length first) */
#define ptx_name_is(n, lit) \
    ((n)->len == sizeof(lit) - 1 && memcmp((n)->text, lit, sizeof(lit) - 1) == 0)

/* ---- expression nodes (build_expr.c) ---------------------------------------- */

typedef union ptx_leaf_value {
    uint64_t i;
    double f;
    const ptx_name *name;
} ptx_leaf_value;

/* Fills `e` with a leaf (boxed when the span is 65535 bytes or longer, or
 * a selector is given). */
void ptx_expr_set_leaf(ptx_context *ctx, ptx_expr *e, ptx_expr_kind kind, uint8_t flags,
                       ptx_span span, ptx_leaf_value v, const ptx_name *sel);
/* Fills `e` with a node of another kind: copies of the n nodes parts[i]
 * become its items; `count` is n, or RANGE's N.  Reports nesting past
 * the limit. */
void ptx_expr_set_parts(ptx_context *ctx, ptx_expr *e, ptx_expr_kind kind, uint8_t op,
                        ptx_span span, ptx_expr *const *parts, uint32_t n, uint32_t count);

/* ---- the context (context.c; the parse driver: parse.c) ---------------- */

/* The most one-token statements (instructions of the common shape, .loc
 * lines and labels, each starting its line) that the fast lane takes as
 * one STMTS token (fastlane.c). */
enum { PTX_RUN_PIECES = 4096 };

/* A data run that ptx_data_run_length measured (fastlane.c), taken
 * apart on the way, so that ptx_b_data_run copies it instead of reading
 * the text again.  The buffers are reused from run to run. */
typedef struct ptx_run_buf {
    bool filled;
    bool has_ends;            /* a line holds more than one value */
    bool has_bytes;           /* a line's word differs from the first's */
    uint32_t off;             /* the run's offset in the source */
    uint32_t end;             /* where its last value ends */
    uint32_t count, nlines, nsyms;  /* values, lines, labels */
    unsigned width;           /* bytes per value in `vals` */
    unsigned char *vals;      /* the values, packed */
    uint32_t *line_ends;      /* with has_ends: where each line's values end */
    uint8_t *line_bytes;      /* with has_bytes: each line's word, in bytes */
    ptx_data_sym *syms;       /* the labels */
    ptx_span *sym_spans;      /* where they are: interned once the run is
                                 measured, their slots fetched meanwhile */
    size_t vals_cap, ends_cap, bytes_cap, syms_cap, spans_cap;
} ptx_run_buf;

/* What the semantic pass resolved each name of a module to, in source
 * order (the order ptx_resolve_names reports them in), kept while it
 * checks a module whose tree is kept: the graphs and the JSON printer
 * read it instead of walking the scopes again.  `edits` is
 * ptx_edit_count() when it was made: after an edit anywhere it is not
 * trusted (ptx_resolve_names walks the module again). */
typedef struct ptx_name_ref {
    const ptx_node *stmt;
    const ptx_expr *name;
    const ptx_symbol *sym;
} ptx_name_ref;
struct ptx_name_refs {
    ptx_name_ref *v;            /* malloc'd; freed with the context */
    size_t n, cap;
    unsigned long edits;
};
/* How many edits the editing API has made in this process, and the count
 * of one more (context.c: below both the editor and the semantic pass,
 * which reads it). */
unsigned long ptx_edit_count(void);
void ptx_edit_counted(void);

/* ptx_graphs_build for the library's own printers (--cfg, --callgraph,
 * --stats), which build, read and free the graphs in one call: graphs
 * that never go stale, so that an edit of another module, on another
 * thread, cannot take them away half-way (cfg.h: any edit in the process
 * makes graphs stale). */
ptx_status ptx_graphs_build_pinned(const ptx_module *m, ptx_graphs **out);

/* Source text that a removed or replaced node took with it: its span,
 * its ';', and its whole line when it was alone on it (with the comment
 * ending the line).  `by`: the node that replaced it, printed there. */
typedef struct ptx_removed {
    ptx_span span;
    bool whole_line;
    const ptx_node *by;
} ptx_removed;

struct ptx_context {
    ptx_arena arena;
    /* Where the builders put the tree's nodes: the arena, but while the
     * body of a function is read in a parse that keeps no tree
     * (ptx_context_set_keep_tree), `body`, which is reset once the
     * function has been checked (parse.c).  Whatever must outlive the
     * function (names, diagnostics, shared modifier sets, the memos, the
     * parser's stacks) is allocated from the arena itself.  ctx->tree is
     * &body exactly while such a body is read. */
    ptx_arena *tree;
    ptx_arena body;
    ptx_interner names;
    ptx_pool pool;            /* the tables', from PTX_POOL_MIN of input */
    jmp_buf oom;

    const char *filename;
    char *src;                /* private copy, followed by two NUL bytes */
    size_t srclen;
    uint32_t *lines;          /* offsets of line starts, built on demand */
    size_t nlines;
    const char *io_error;

    ptx_diag *diags;          /* malloc'd; freed with the context */
    size_t ndiags, diagcap, nerrors;
    unsigned max_errors;
    bool parsed;
    bool stopped;             /* the error limit was reached */
    const char *pending_fix;  /* ptx_diag_add_fix's, for ptx_diag_vadd */
    bool no_validate;         /* build the tree only */
    size_t src_mapped;        /* src's mapped length (ptx_big_alloc), or 0:
                                 from malloc */
    bool no_fast_lane;        /* every statement through the grammar's rules */
    size_t tokens_parsed;     /* tokens the scanner gave the parser (tests) */
    char target[24];          /* ptx_context_set_target: the architecture the
                                 module is read as declaring, or "" */
    bool no_sema;             /* (the benchmark) check instructions against the
                                 tables, but leave out the semantic checks */
    bool compile_only;        /* ptx_context_set_compile_only: ptxas -c */
    struct ptx_limits *limits;  /* limits.c's state, in the arena */

    void **scratch;           /* list building stack (malloc'd) */
    size_t nscratch, scratchcap;

    struct ptx_isa_memo *isa_memo;  /* accepted instruction shapes (isa_memo.c) */
    struct ptx_isa_names *isa_names;  /* what the tables say of each name
                                       (isa_lookup.c) */
    ptx_run_buf run[2];       /* the last data run measured (fastlane.c),
                                 and the one before: the scanner reads a
                                 token ahead of the parser, and a line such
                                 as ".b32 .debug_loc+39" after a run is
                                 measured before the run is built */
    unsigned run_last;        /* which of run[] holds the last run */
    unsigned expr_depth;      /* open parentheses/braces/brackets in an operand */
    struct ptx_expr *free_exprs;  /* expression cells whose contents were moved
                                     into an array (build_expr.c), linked by u.i */
    ptx_module *module;
    /* the parse under way (parse.c): each module item the grammar makes
     * goes to on_item; `at_rest` says the parser has read no token past
     * it.  NULL outside the parse of a whole module. */
    void (*on_item)(ptx_context *ctx, ptx_node *item, bool at_rest);
    bool keep_tree;           /* ptx_context_set_keep_tree (default true) */
    bool keep_names;          /* ptx_context_set_keep_names (default false) */
    bool syntax_error;        /* the grammar has reported one */
    bool bodies_kept;         /* a body could not be let go: none is from
                                 then on */
    struct sema *sema;        /* the semantic pass of the parse under way */
    struct ptx_name_refs refs;  /* the semantic pass's resolutions (sema.c) */
    ptx_removed *removed;     /* source text of removed nodes (edit.c),
                                 malloc'd; the lossless printer leaves it out */
    size_t nremoved, removedcap;
    ptx_cuda_counts cuda;     /* ptx_parse_cuda's counts (cuda_asm.c) */
};

/* The spans ptx_remove and ptx_replace took out of the source text. */
const ptx_removed *ptx_removed_spans(const ptx_context *ctx, size_t *n);

/* ptx_context_position starting from the line *hint (the line of the last
 * answer, which it updates): quick for offsets in source order. */
ptx_position ptx_position_near(const ptx_context *ctx, uint32_t off, size_t *hint);

/* Adds a diagnostic; returns false when the error limit is reached. */
bool ptx_diag_add(ptx_context *ctx, ptx_severity sev, ptx_diag_code code,
                  ptx_span span, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
bool ptx_diag_vadd(ptx_context *ctx, ptx_severity sev, ptx_diag_code code,
                   ptx_span span, const char *fmt, va_list ap);

/* Adds a diagnostic with a fix-it: `fix` replaces the diagnostic's span
 * (NULL: none; copied into the arena). */
bool ptx_diag_add_fix(ptx_context *ctx, ptx_severity sev, ptx_diag_code code,
                      ptx_span span, const char *fix, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* "Did you mean" (suggest.c): offer every word of a vocabulary, then
 * ptx_suggest_text gives "; did you mean 'x'?" (or "x' or 'y" for ties,
 * up to PTX_SUGGEST_MAX; "" when nothing is close or too much is) and
 * ptx_suggest_fix the one replacement, or NULL. */
enum { PTX_SUGGEST_MAX = 3, PTX_SUGGEST_TEXT = 3 * 72 + 32 };
typedef struct ptx_suggest_hit {
    const char *text;
    size_t len;
} ptx_suggest_hit;
typedef struct ptx_suggest {
    const char *word;
    size_t len;
    unsigned cap, best, nhits;
    bool more, exact;
    bool numbers;               /* set after init: digits must match (targets) */
    ptx_suggest_hit hits[PTX_SUGGEST_MAX];
} ptx_suggest;
void ptx_suggest_init(ptx_suggest *s, const char *word, size_t len);
void ptx_suggest_offer(ptx_suggest *s, const char *cand, size_t len);
const char *ptx_suggest_text(const ptx_suggest *s, char *buf, size_t size);
const char *ptx_suggest_fix(const ptx_suggest *s);

/* The type or state space a dot-word w[0..n) spells, as the scanner's
 * keywords do (".b32": PTX_TYPE_B32); PTX_TYPE_NONE, PTX_SPACE_NONE for
 * any other word (names.c). */
ptx_type ptx_type_of_word(const char *w, size_t n);
ptx_space ptx_space_of_word(const char *w, size_t n);
/* Offers every directive word (names.c). */
void ptx_suggest_directives(ptx_suggest *s);
/* The error `msg` about the unknown dot-word w[0..len), followed by the
 * directive word it may have meant (and that as its fix-it) (names.c). */
void ptx_error_directive(ptx_context *ctx, ptx_diag_code code, ptx_span span, const char *w, size_t len,
                         const char *msg);

/* Room for one more item on the scratch stack. */
void ptx_scratch_grow(ptx_context *ctx);
static inline void ptx_scratch_push(ptx_context *ctx, void *item)
{
    if (ctx->nscratch == ctx->scratchcap)
        ptx_scratch_grow(ctx);
    ctx->scratch[ctx->nscratch++] = item;
}
/* Moves the items above `mark` into an arena array and pops them. */
void **ptx_scratch_take(ptx_context *ctx, size_t mark, uint32_t *count);

/* ---- the driver (parse.c) ------------------------------------------------ */

/* Width in bits of a declarable type; 0 for .pred and opaque types
 * (build_decl.c). */
unsigned ptx_type_bits(unsigned t);

/* Parses ctx->src; returns non-zero when the parser gave up. */
int ptx_run_parser(ptx_context *ctx);

/* Runs the scanner alone over ctx->src; returns the number of tokens
 * (for the benchmark's phase timings). */
size_t ptx_run_scanner(ptx_context *ctx);

/* What the semantic pass (sema.c) says an operand's names are declared as,
 * for the syntax tables: only predicates are told apart (a predicate-only
 * operand given a .b32 register is ptxas's "Arguments mismatch"); unknown
 * names, and pairs of both kinds, are not judged by the tables. */
enum { PTX_RC_UNKNOWN, PTX_RC_PRED, PTX_RC_OTHER };

struct ptx_isa_form;
/* What the validator found an instruction to be: its family, and each
 * modifier's id and category (ptx_mod); the semantic pass, which holds
 * the module, records them into the instruction.  `ids` and `cats` point
 * into the small arrays, into the arena past PTX_ISA_FIT_SMALL modifiers,
 * or into the validator's memo (isa_memo.c): read them, never write
 * them. */
enum { PTX_ISA_FIT_SMALL = 64 };
typedef struct ptx_isa_fit {
    /* not NULL (with ptx_isa_check's NULL): the form that fits but for the
     * module's PTX ISA version or target, not reported yet; the rest says
     * what it makes of `in`, for the operands' types to be checked
     * against it first (ptx_isa_report_level) */
    const struct ptx_isa_form *held;
    uint8_t family;
    uint16_t *ids;
    uint8_t *cats;
    uint16_t ids_small[PTX_ISA_FIT_SMALL];
    uint8_t cats_small[PTX_ISA_FIT_SMALL];
} ptx_isa_fit;

/* Checks `in` against the syntax tables (isa_match.c), given what each
 * operand's names are declared as (rc[i], PTX_RC_*), and reads the tree
 * only.  Returns the form it matched, with what it says of `in` in *fit,
 * or NULL after reporting why none does, unless the closest form lacks
 * only a newer version or target (fit->held: the caller reports it). */
const struct ptx_isa_form *ptx_isa_check(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                                         const uint8_t *rc, ptx_isa_fit *fit);
/* Whether form f is there in a module of PTX ISA vmajor.vminor for
 * target tgt (NULL: any): 0 (P_NONE), or what is missing first (isa.h:
 * P_VERSION, P_TARGET, P_WITHDRAWN); isa_match.c. */
unsigned ptx_isa_form_level(const struct ptx_isa_form *f, unsigned vmajor, unsigned vminor,
                            const char *tgt);
/* After an error of the operands' types against fit->held: when the
 * instruction with `type` (the registers' type, ".f32") in place of its
 * type modifier fits a form of the module's level, a note saying so, the
 * type as its fix-it (ld.global.v4.f64 of .f32 registers at 8.0: did
 * you mean 'ld.global.v4.f32'?).  rc: the operands' register classes. */
void ptx_isa_suggest_type(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                          const ptx_isa_fit *fit, const uint8_t *rc, const char *type);
/* Reports the version or target that fit->held needs, at the modifiers
 * no form of the module's level takes with the others; as a note after
 * an error of the operands' types when `note`. */
void ptx_isa_report_level(ptx_context *ctx, const ptx_module *m, const ptx_instr *in,
                          const ptx_isa_fit *fit, bool note);

/* The semantic pass (sema.c): scopes, symbols and operand types, with each
 * instruction checked against the tables on the way. */
void ptx_sema_run(ptx_context *ctx, ptx_module *m);
/* The same pass item by item, as the parser makes the module's items in
 * source order: each call checks `item` (and any items linked after it)
 * against what the items before it declared.  The pass's tables live in
 * ctx->sema from the first call to ptx_sema_end. */
void ptx_sema_item(ptx_context *ctx, ptx_node *item);
void ptx_sema_end(ptx_context *ctx);
/* Each name of m to fn, as ptx_resolve_names gives them: from what the
 * semantic pass resolved while it checked m, when it kept that and no
 * edit came since; else by a walk of m's scopes.  The graphs and the
 * JSON printer read names through it. */
ptx_status ptx_sema_names(const ptx_module *m, ptx_name_fn fn, void *user);

/* limits.c: the checks of a whole module after the semantic pass, each
 * item as it comes and then the end (not after an error) */
typedef struct ptx_limits ptx_limits;
void ptx_limits_item(ptx_context *ctx, const ptx_node *item);
void ptx_limits_end(ptx_context *ctx);
/* Whether the instruction tables have the opcode (an instruction's first
 * word, interned). */
bool ptx_isa_knows(const ptx_name *opcode);

/* Whether `name` is an architecture a .target may name first ("sm_90a",
 * "compute_80"): build_module.c's table of targets. */
bool ptx_target_is_arch(const char *name);

/* ---- version gates of directives (gates.c) ---------------------------- */

/* The architecture number of the module's first sm_NN/compute_NN target
 * (90 for sm_90a), 0 when it has none. */
unsigned ptx_module_sm(const ptx_module *m);
/* The number of an sm_NN or compute_NN target name; 0 for another name */
unsigned ptx_target_sm(const char *name);
/* The bytes of a section data word (.b8, .byte, .b16, .b32, .4byte, .b64,
 * .quad), 0 for another word (build_module.c) */
unsigned ptx_data_word_bytes(const char *w);
/* Reports an error at `at` when the module's version or target is below
 * the one from which ptxas takes the directive `what` (".weak",
 * ".maxnreg", ...); false then.  A `what` with no gate passes. */
bool ptx_gate(ptx_context *ctx, const char *what, ptx_span at);
/* Row i of the gates table: the directive's name, and the version and
 * target (0: any) from which it is taken; NULL past the last row (for the
 * test that every row has its cases). */
const char *ptx_gate_row(size_t i, unsigned *major, unsigned *minor, unsigned *sm);

/* ---- output buffering (print_util.c) --------------------------------- */

typedef struct ptx_out {
    ptx_write_fn write;
    void *user;
    size_t len;
    bool failed;
    char buf[1 << 16];
} ptx_out;

void ptx_out_init(ptx_out *o, ptx_write_fn write, void *user);
void ptx_out_flush(ptx_out *o);
void ptx_out_mem(ptx_out *o, const char *s, size_t n);
void ptx_out_str(ptx_out *o, const char *s);
void ptx_out_char(ptx_out *o, char c);
void ptx_out_name(ptx_out *o, const ptx_name *n);
void ptx_out_u64(ptx_out *o, uint64_t v);
/* Line k of a run of data lines (width != 0): ".b8 95, 90, 78". */
void ptx_out_data_line(ptx_out *o, const ptx_data *d, uint32_t k);
void ptx_out_i64(ptx_out *o, int64_t v);
void ptx_out_fmt(ptx_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void ptx_out_indent(ptx_out *o, unsigned n);
/* JSON string contents with the escapes JSON needs, and a whole string. */
void ptx_out_json_chars(ptx_out *o, const char *s, size_t n);
void ptx_out_json_str(ptx_out *o, const char *s, size_t n);
/* ,"directives":[{"d":".maxntid","v":[256,1,1]},...]: the one spelling
 * of function directives that --json and --stats --json share. */
void ptx_out_json_directives(ptx_out *o, const ptx_fdir *d, uint32_t n);
/* Prints an expression in PTX syntax (shared by the PTX and tree printers). */
void ptx_out_expr(ptx_out *o, const ptx_expr *e);
void ptx_out_expr_depth(ptx_out *o, const ptx_expr *e, unsigned depth);
ptx_status ptx_out_finish(ptx_out *o);
/* One instruction on one line, without the newline: "@!%p1 bra.uni  L1"
 * (--ast --compact and the graphs' blocks). */
void ptx_out_instr_line(ptx_out *o, const ptx_instr *in);
/* Its guard, opcode and modifiers ("@!%p1 bra.uni"): the start that the
 * PTX printer shares, which lays out the operands its own way. */
void ptx_out_instr_head(ptx_out *o, const ptx_instr *in);

/* What every tree printer starts and ends with: a buffered writer and an
 * iterator over m.  ptx_printer_open returns PTX_OK or the error to give
 * back; ptx_printer_close flushes, frees both and returns `st`, or the
 * write error if there was one. */
ptx_status ptx_printer_open(const ptx_module *m, ptx_write_fn write, void *user,
                            ptx_out **o, ptx_iter **it);
ptx_status ptx_printer_close(ptx_out *o, ptx_iter *it, ptx_status st);

/* ptx_iter_next, leaving out the module items `filter` rejects (with all
 * they contain). */
ptx_event ptx_iter_next_item(ptx_iter *it, const ptx_node **node,
                             ptx_print_filter filter, void *filter_user);

#endif
