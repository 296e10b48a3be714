/* ptx-front: a front-end for NVIDIA PTX ISA 9.0.
 *
 * Life cycle:  ptx_context_new -> ptx_parse_buffer / ptx_parse_file ->
 * read the module (ast.h, ptx_iter) and print it -> ptx_context_free.
 *
 * Ownership: a context owns everything a parse produces: the module tree,
 * every name, every diagnostic and a private copy of the source text.  All of
 * it stays valid until ptx_context_free(), which releases it in one go.
 * Nothing is ever freed piecemeal and nothing returned here is to be freed by
 * the caller, except where a function says so.
 *
 * Threads: the library has no global mutable state.  Distinct contexts may be
 * used on distinct threads at the same time; one context is not to be used
 * by two threads at once.
 *
 * The library never writes to stdout or stderr and never exits: every
 * failure is a return status, and input errors are diagnostics.
 */
#ifndef PTX_PTX_H
#define PTX_PTX_H

#include <stdbool.h>
#include <stdio.h>
#include "ast.h"
#include "ptx/isa.h"   /* generated from grammar/isa by tools/isagen */

#ifdef __cplusplus
extern "C" {
#endif

#define PTX_FRONT_VERSION "0.1.0"
#define PTX_FRONT_VERSION_MAJOR 0
#define PTX_FRONT_VERSION_MINOR 1
#define PTX_FRONT_VERSION_PATCH 0

/* The library's version string, e.g. "0.1.0" (static storage). */
const char *ptx_version(void);

/* Status codes returned by the library. */
typedef enum ptx_status {
    PTX_OK = 0,          /* parsed with no error diagnostic */
    PTX_ERR_INPUT = 1,   /* the input has errors: see the diagnostics */
    PTX_ERR_IO = 2,      /* a file could not be read, or a writer failed */
    PTX_ERR_NOMEM = 3,   /* out of memory */
    PTX_ERR_USAGE = 4    /* invalid argument, e.g. a second parse in one context */
} ptx_status;

typedef struct ptx_context ptx_context;

/* The largest input, in bytes (just under 4 GiB): source offsets are 32-bit
 * and UINT32_MAX means "no offset". */
#define PTX_INPUT_MAX 4294967292u

/* Makes an empty context.  Returns NULL when out of memory.  The caller owns
 * it and releases it with ptx_context_free(). */
ptx_context *ptx_context_new(void);

/* Releases the context and everything it owns (module, names, diagnostics,
 * source copy).  NULL is allowed. */
void ptx_context_free(ptx_context *ctx);

/* How many error diagnostics a parse reports before it stops; default 20,
 * 0 means no limit.  Set before parsing. */
void ptx_context_set_max_errors(ptx_context *ctx, unsigned max_errors);

/* Whether the module is checked as a whole program (the default, as ptxas
 * compiles it) or compiled on its own for a later link (ptxas -c): then
 * what the linker checks is left out: each kernel's static .shared
 * memory (and a pragma ptxas allows in a whole program only).  Set before parsing. */
void ptx_context_set_compile_only(ptx_context *ctx, bool on);

/* Reads the module as if its .target named `arch` first ("sm_90a",
 * "compute_80") instead of its own architecture (its other target options
 * stay): instructions, the tree and the printers all see `arch` (but
 * the lossless PTX printer, which copies the source, prints it as written).  NULL
 * goes back to the module's own.  PTX_ERR_USAGE for a name that is not an
 * architecture.  Set before parsing; the string is copied. */
ptx_status ptx_context_set_target(ptx_context *ctx, const char *arch);

/* Whether a parse checks instructions against the syntax tables (the
 * default) or only builds the tree.  Set before parsing. */
void ptx_context_set_validation(ptx_context *ctx, bool validate);

/* Whether the scanner takes the common statement shapes (an instruction
 * alone on its line, a .loc line, a label, a run of data lines) whole, as
 * one token each (the default), or hands every token to the grammar.  The
 * tree is the same either way; the fast lane is several times faster on
 * large modules.  Set before parsing. */
void ptx_context_set_fast_lane(ptx_context *ctx, bool on);

/* Whether a parse keeps the module's tree (the default) or only checks it.
 * With `keep` false each function is checked as soon as it has been read
 * and its body is then let go, so that memory stays near the input's size
 * plus the largest function's tree instead of growing with the module:
 * the diagnostics are the same, but the parse gives no module (*out and
 * ptx_context_module() are NULL).  For a check such as the CLI's run
 * without an output option.  Set before parsing. */
void ptx_context_set_keep_tree(ptx_context *ctx, bool keep);

/* Whether a parse that keeps the tree also keeps what the semantic pass
 * resolved each name to (default: no).  ptx_resolve_names, the graphs
 * (ptx_graphs_build) and ptx_print_json then read those answers instead
 * of walking the module's scopes again, as long as the module is valid
 * and unedited.  It costs the check about 5% more time, and memory of 24
 * bytes a name; it saves the walk each of those would make (graphs and
 * JSON of a module: about 3% of the whole run).  Set before parsing. */
void ptx_context_set_keep_names(ptx_context *ctx, bool keep);

/* Parses `len` bytes at `data` as one PTX module.  `name` labels the input in
 * diagnostics (may be NULL: "<input>").  The bytes are copied: the caller may
 * free `data` afterwards.  A context parses once; a second call returns
 * PTX_ERR_USAGE.  On PTX_OK and PTX_ERR_INPUT, *out (if out is not NULL)
 * receives the module, owned by the context; with PTX_ERR_INPUT the tree holds
 * what could be parsed around the errors.  Inputs longer than
 * PTX_INPUT_MAX bytes are refused with a diagnostic at 1:1, unread (the
 * context's source is then empty). */
ptx_status ptx_parse_buffer(ptx_context *ctx, const char *name,
                            const char *data, size_t len,
                            const ptx_module **out);

/* Reads the file at `path` ("-" is standard input) and parses it as
 * ptx_parse_buffer does.  Returns PTX_ERR_IO when the file cannot be read;
 * ptx_context_io_error() then says why. */
ptx_status ptx_parse_file(ptx_context *ctx, const char *path,
                          const ptx_module **out);

/* The module of the last parse, or NULL. */
const ptx_module *ptx_context_module(const ptx_context *ctx);

/* The input name and the source text of the parse (owned by the context). */
const char *ptx_context_filename(const ptx_context *ctx);
const char *ptx_context_source(const ptx_context *ctx, size_t *len);

/* After PTX_ERR_IO from ptx_parse_file: the reason (strerror text), owned by
 * the context; NULL otherwise. */
const char *ptx_context_io_error(const ptx_context *ctx);

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */

typedef enum ptx_severity {
    PTX_SEV_NOTE = 0,
    PTX_SEV_WARNING = 1,
    PTX_SEV_ERROR = 2
} ptx_severity;

typedef enum ptx_diag_code {
    PTX_DIAG_SYNTAX = 1,      /* the grammar does not allow this token here */
    PTX_DIAG_CHAR,            /* a character that starts no token */
    PTX_DIAG_NONASCII,        /* a byte outside ASCII */
    PTX_DIAG_LITERAL,         /* a malformed or out-of-range literal */
    PTX_DIAG_UNTERMINATED,    /* an unterminated comment or string */
    PTX_DIAG_PREPROCESSOR,    /* a preprocessor line other than a line marker */
    PTX_DIAG_HEADER,          /* .version/.target/.address_size */
    PTX_DIAG_DECL,            /* a malformed declaration */
    PTX_DIAG_DIRECTIVE,       /* a malformed or misplaced directive */
    PTX_DIAG_EXPR,            /* a malformed expression or operand */
    PTX_DIAG_LIMIT,           /* a documented limit was reached */
    PTX_DIAG_UNSUPPORTED,     /* a construct ptxas no longer accepts */
    PTX_DIAG_INSTRUCTION,     /* an instruction the syntax tables do not allow */
    PTX_DIAG_SYMBOL,          /* an unknown, misused or duplicate name */
    PTX_DIAG_TYPE             /* an operand whose type the instruction does not take */
} ptx_diag_code;

/* A message longer than this many bytes (one quoting a 100 MB token, say)
 * is shortened in the middle, where "..." stands for what was left out. */
#define PTX_DIAG_MESSAGE_MAX 1024

typedef struct ptx_diag {
    ptx_severity severity;
    ptx_diag_code code;
    const char *message;      /* owned by the context */
    ptx_span span;
    const char *fixit;        /* what should replace `span` ("did you mean"),
                                 or NULL; owned by the context */
} ptx_diag;

/* Number of diagnostics, of errors among them, and the i-th (NULL when i
 * is out of range).  They are in source order (by offset, each note after
 * the diagnostic it belongs to), the note that the error limit stopped the
 * parse last. */
size_t ptx_diag_count(const ptx_context *ctx);
size_t ptx_error_count(const ptx_context *ctx);
const ptx_diag *ptx_diag_get(const ptx_context *ctx, size_t i);

/* 1-based line and column (in bytes) of a source offset. */
typedef struct ptx_position {
    uint32_t line;
    uint32_t col;
} ptx_position;

ptx_position ptx_context_position(const ptx_context *ctx, uint32_t off);

/* ------------------------------------------------------------------ */
/* Output                                                              */

/* A sink for printers: write `len` bytes; return 0 on success, non-zero on
 * failure (the printer then stops and returns PTX_ERR_IO). */
typedef int (*ptx_write_fn)(void *user, const char *data, size_t len);

/* A ptx_write_fn writing to the FILE * passed as `user`. */
int ptx_write_file(void *file, const char *data, size_t len);

/* Writes `d` GCC-style: "file:line:col: error: message", the source line
 * and a caret under the range. */
ptx_status ptx_diag_render(const ptx_context *ctx, const ptx_diag *d,
                           ptx_write_fn write, void *user);

/* The same, with GCC's colours when `color` is true (ANSI escapes: the
 * severity in bold red, magenta or cyan, the position in bold, the caret
 * in green); a fix-it is shown on a line of its own under the caret. */
ptx_status ptx_diag_render_color(const ptx_context *ctx, const ptx_diag *d, bool color,
                                 ptx_write_fn write, void *user);

/* The short name of a diagnostic code ("syntax", "instruction"...), as
 * the JSON and SARIF documents give it. */
const char *ptx_diag_code_name(ptx_diag_code c);

/* Diagnostics as one document for tools, over any number of parsed
 * contexts: GCC-like JSON (an array of {"kind", "code", "message",
 * "locations": [{"caret", "finish"}], "fixits", "children"}, the notes
 * being children of the diagnostic before them) or SARIF 2.1.0 (one run,
 * a result per diagnostic, notes as relatedLocations, fix-its as fixes).
 * ptx_diag_doc_new writes the opening (NULL: out of memory or a bad
 * argument), ptx_diag_doc_add the diagnostics of one context, and
 * ptx_diag_doc_finish the closing; it frees the document and returns
 * PTX_ERR_IO if any write failed. */
typedef enum ptx_diag_format {
    PTX_DIAG_FORMAT_TEXT = 0,   /* (ptx_diag_render: not a document) */
    PTX_DIAG_FORMAT_JSON,
    PTX_DIAG_FORMAT_SARIF
} ptx_diag_format;
typedef struct ptx_diag_doc ptx_diag_doc;
ptx_diag_doc *ptx_diag_doc_new(ptx_diag_format format, ptx_write_fn write, void *user);
ptx_status ptx_diag_doc_add(ptx_diag_doc *doc, const ptx_context *ctx);
ptx_status ptx_diag_doc_finish(ptx_diag_doc *doc);

enum {
    PTX_PRINT_NO_LOCATIONS = 1   /* tree printer: leave out line:col */
};

enum {
    PTX_PRINT_COMPACT = 2        /* tree printer: one line per instruction */
};

/* Chooses which module items a printer prints: return true to print the
 * item (a function, a declaration, a directive...). */
typedef bool (*ptx_print_filter)(const ptx_node *item, void *user);

/* Prints the module as an indented tree (ptx-front --ast).  `ctx` supplies
 * line numbers; it may be NULL, then locations are left out.  With
 * PTX_PRINT_COMPACT: one line per instruction, "file:line  opcode.mods  operands". */
ptx_status ptx_print_tree(const ptx_context *ctx, const ptx_module *m,
                          unsigned flags, ptx_write_fn write, void *user);
ptx_status ptx_print_tree_items(const ptx_context *ctx, const ptx_module *m, unsigned flags,
                                ptx_print_filter filter, void *filter_user,
                                ptx_write_fn write, void *user);

/* Prints the whole tree as compact JSON, schema 2 (see the README and
 * tools/ptx-front.schema.json); only
 * the module items `filter` accepts (NULL: all). */
ptx_status ptx_print_json(const ptx_context *ctx, const ptx_module *m,
                          ptx_print_filter filter, void *filter_user,
                          ptx_write_fn write, void *user);

/* A summary of the module (ptx-front --stats): per kernel and function
 * its parameters (size, alignment), directives, registers declared by
 * type, memory declared in its body, instruction count and families; then
 * module totals.  As text, or as JSON (schema 2) when `json` is true. */
ptx_status ptx_print_stats(const ptx_context *ctx, const ptx_module *m, bool json,
                           ptx_print_filter filter, void *filter_user,
                           ptx_write_fn write, void *user);

/* Prints the module as PTX text.  When `ctx` is the context that parsed
 * `m`, the layout is lossless: an unedited module comes out byte for byte
 * (comments, blank lines, spacing, CRLF line ends), and the nodes the
 * editing API inserted or put in place of others are written in the
 * canonical layout where they stand, the text of removed ones left out.
 * With ctx NULL (or another context) the layout is canonical.  With a
 * filter, the module items it refuses are left out with the text before
 * them, except the variables and functions the accepted functions name
 * (a called function's definition becomes its declaration), and runs of
 * blank lines are written as one. */
ptx_status ptx_print_ptx(const ptx_context *ctx, const ptx_module *m,
                         ptx_write_fn write, void *user);
ptx_status ptx_print_ptx_items(const ptx_context *ctx, const ptx_module *m,
                               ptx_print_filter filter, void *filter_user,
                               ptx_write_fn write, void *user);

/* The canonical layout (ptx-front --emit-ptx --canonical): one statement a
 * line, indented by tabs by depth; when `ctx` parsed `m`, the comments of
 * the source are kept, on their own lines or after the statement they
 * followed.  Same tree, same filter rules as ptx_print_ptx_items. */
ptx_status ptx_print_ptx_canonical(const ptx_context *ctx, const ptx_module *m,
                                   ptx_print_filter filter, void *filter_user,
                                   ptx_write_fn write, void *user);

/* One node (a statement, a declaration, a function with its body...) in
 * the canonical layout, without a final newline; a node of any context. */
ptx_status ptx_print_node(const ptx_node *n, ptx_write_fn write, void *user);

/* ------------------------------------------------------------------ */
/* Instructions (the tables of grammar/isa)                            */

/* Each parse checks every instruction against the PTX ISA 9.0 syntax
 * tables; an instruction that passes has ptx_instr.family set and each
 * modifier's id and category filled in. */

/* Spellings: "ld", ".shared::cluster", "rounding"; NULL when out of range. */
const char *ptx_family_name(ptx_family f);
const char *ptx_modifier_name(ptx_modifier m);
const char *ptx_category_name(ptx_mod_category c);

/* The family of an opcode ("mbarrier"), or PTX_FAMILY_NONE. */
ptx_family ptx_family_lookup(const char *opcode);

/* The nth (from 0) modifier of `in` in category `cat`, in source order:
 * for cvt.rn.f32.s32, (PTX_CAT_TYPE, 0) is .f32 and (PTX_CAT_TYPE, 1) .s32.
 * PTX_MOD_NONE when there is none. */
ptx_modifier ptx_instr_modifier(const ptx_instr *in, ptx_mod_category cat, unsigned nth);

/* The modifiers that the tables allow after `opcode` (an instruction's
 * first word: "ld", "cp") in category `cat`, each once, in table order;
 * with PTX_CAT_NONE, the fixed words of its instruction names (".wide" of
 * mul.wide, ".async" of cp.async).  Writes up to `max` of them to `out`
 * (which may be NULL when max is 0) and returns how many there are in all:
 * 0 for an opcode the tables do not know. */
size_t ptx_opcode_modifiers(const char *opcode, ptx_mod_category cat,
                            ptx_modifier *out, size_t max);

/* Writes one line per family: name, PTX ISA version and target that
 * introduced it, and how many forms the tables give it. */
ptx_status ptx_print_instruction_table(ptx_write_fn write, void *user);

/* The instruction reference (--list-instructions): one line per
 * instruction name as it is written ("bar.sync", "vadd4",
 * "wgmma.mma_async"), sorted, with the PTX ISA version and target that
 * introduced it and its family as the manual heads it ("bar / barrier").
 * `pattern` selects names: a shell glob, or a plain word for the names that
 * are it or start with it and a dot ("bar": bar.sync, bar.warp.sync); NULL
 * for all.  *listed (when not NULL) receives how many lines were written. */
ptx_status ptx_print_instruction_list(const char *pattern, ptx_write_fn write, void *user,
                                      size_t *listed);

/* The forms of one instruction (--explain) in the PTX manual's notation,
 * each with its placeholders' values, PTX ISA version and target.  `name`
 * is an instruction name of the list, or a first word that starts several
 * ("mma" for mma.sync).  PTX_ERR_INPUT, with nothing written, when the
 * tables have no such instruction. */
ptx_status ptx_print_instruction_forms(const char *name, ptx_write_fn write, void *user);

/* Where the instruction reference looks: the forms a module of PTX ISA
 * version major.minor (0.0: the newest, 9.0) for `target` ("sm_90a";
 * NULL: any target) may use, as the check takes them (a form withdrawn
 * there is not). */
typedef struct ptx_isa_level {
    unsigned major, minor;
    const char *target;
} ptx_isa_level;

/* ptx_print_instruction_list and ptx_print_instruction_forms for the
 * instructions and forms there at `at` (NULL: all of them).  An
 * instruction listed gives the version and target of its oldest form
 * there.  The forms of a name none of whose forms is there are a line
 * that says so, and PTX_OK. */
ptx_status ptx_print_instruction_list_at(const char *pattern, const ptx_isa_level *at,
                                         ptx_write_fn write, void *user, size_t *listed);
ptx_status ptx_print_instruction_forms_at(const char *name, const ptx_isa_level *at,
                                          ptx_write_fn write, void *user);

/* For a name the tables do not have: "did you mean 'x'?" (or 'x' or 'y')
 * into buf, from the instruction names and the manual's section names;
 * "" when nothing is close.  Returns the length of the text. */
size_t ptx_suggest_instruction(const char *name, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Changing the tree (see the README's "Edit" section)                   */

/* The tree is read-only except through these functions.  Everything they
 * make lives in `ctx`'s arena, like the parsed nodes, and is released
 * with the context: never free it.  New nodes have no source range
 * (span.off is PTX_NO_OFFSET).  A node is in at most one list: remove it
 * before inserting it elsewhere.  Nodes from another context (parsed
 * there, say) may be inserted; that context must then outlive this one's
 * use of them.  Builders return NULL when out of memory or given a bad
 * argument. */

/* Operands.  A name ("%r1", "x", "%tid.x": the selector is kept apart as
 * the parser does); an integer (a negative one is -N); a double, written
 * 0dXXXXXXXXXXXXXXXX, and a float, 0fXXXXXXXX (exact); an address
 * [base+offset] ([base] when offset is 0, [base-N] when negative); a
 * vector {a, b, ...}; a list (a, b, ...) for call.  Items are copied. */
ptx_expr *ptx_new_name(ptx_context *ctx, const char *name);
ptx_expr *ptx_new_int(ptx_context *ctx, int64_t value);
ptx_expr *ptx_new_float(ptx_context *ctx, double value);
ptx_expr *ptx_new_f32(ptx_context *ctx, float value);
ptx_expr *ptx_new_addr(ptx_context *ctx, const ptx_expr *base, int64_t offset);
ptx_expr *ptx_new_vec(ptx_context *ctx, ptx_expr *const *items, unsigned n);
ptx_expr *ptx_new_list(ptx_context *ctx, ptx_expr *const *items, unsigned n);

/* An instruction from its opcode and modifiers written together
 * ("membar.cta", "ld.global.f32") and its operands (copied into the
 * instruction).  Unless validation is off, the opcode and each modifier
 * must be in the instruction tables: otherwise an error diagnostic goes to
 * the context and NULL is returned ("ld.gloabl.u33").  Which combinations
 * and operands are allowed is checked by ptx_validate once it is in place.
 * NULL for more than 65535 operands or modifiers. */
ptx_instr *ptx_new_instr(ptx_context *ctx, const char *opcode, ptx_expr *const *ops,
                         unsigned nops);

/* A name that clashes with nothing in the context (any name of the
 * module, any name a %name<N> range declares, any name made before):
 * `prefix` itself, else prefix_1_, prefix_2_...  Interned: owned by ctx. */
const char *ptx_fresh_name(ptx_context *ctx, const char *prefix);

/* A declaration `space type name;` (`name[count]` when count is not 0),
 * not yet in any list. */
ptx_decl *ptx_new_decl(ptx_context *ctx, ptx_space space, ptx_type type, const char *name,
                       uint64_t count);

/* Declares a register of `type` with a fresh name from `prefix` ("%ptxf"
 * when NULL) in function f (a definition), after the declarations that
 * open its body; returns the name as an operand. */
ptx_expr *ptx_declare_register(ptx_context *ctx, const ptx_func *f, ptx_type type,
                               const char *prefix);

/* Declares a module variable `space type fresh-name[count];` (no array
 * when count is 0) before the module's first function; returns its name as
 * an operand, and the declaration in *decl when decl is not NULL. */
ptx_expr *ptx_declare_variable(ptx_context *ctx, ptx_space space, ptx_type type,
                               const char *name, uint64_t count, ptx_decl **decl);

/* Statements of a block: insert `node` before `before` (NULL: at the end)
 * or after `after` (NULL: at the start); replace `old` by `node`; remove
 * `node` (it can then be inserted elsewhere).  The block may be a function
 * body (ptx_func.body).  PTX_ERR_USAGE when `before`, `after` or `old` is
 * not in the block.  Inserted and replacing nodes print in the canonical
 * layout; replaced and removed ones leave no text (their line goes when
 * they were alone on it).  In the lossless layout a node inserted after a
 * statement takes the line right under it; one inserted before a
 * statement the line right above it (below the blank lines and comments
 * above that statement), with its indentation, when that statement
 * starts its line. */
ptx_status ptx_insert_before(ptx_block *block, ptx_node *before, ptx_node *node);
ptx_status ptx_insert_after(ptx_block *block, ptx_node *after, ptx_node *node);
ptx_status ptx_replace(ptx_context *ctx, ptx_block *block, ptx_node *old, ptx_node *node);
ptx_status ptx_remove(ptx_context *ctx, ptx_block *block, ptx_node *node);

/* The same for the module's items (functions, module variables...). */
ptx_status ptx_module_insert_before(ptx_context *ctx, ptx_node *before, ptx_node *node);
ptx_status ptx_module_insert_after(ptx_context *ctx, ptx_node *after, ptx_node *node);
ptx_status ptx_module_replace(ptx_context *ctx, ptx_node *old, ptx_node *node);
ptx_status ptx_module_remove(ptx_context *ctx, ptx_node *node);

/* Parses `text` (statements as in a function body: instructions, labels,
 * declarations, blocks) in the context of its module (its .version and
 * .target), into *first: a list linked by `next`, in no block yet; insert
 * the nodes one by one (take each one's `next` before).  Names are
 * interned in ctx; nodes live in its arena.  PTX_ERR_INPUT, with the
 * diagnostics in the context (no source range: the text is not the
 * module's), when the text does not parse.  Names are not resolved here:
 * ptx_validate does that once the statements are in place. */
ptx_status ptx_parse_statements(ptx_context *ctx, const char *text, size_t len,
                                ptx_node **first);

/* Checks the module as it now stands with the tables and semantic rules of
 * a parse (instruction forms, names, scopes, operand types), adding its
 * diagnostics to the context: PTX_OK, or PTX_ERR_INPUT when it added an
 * error.  Diagnostics of edited nodes have no source range. */
ptx_status ptx_validate(ptx_context *ctx);

/* A label of function f by name, in its body or a nested block; NULL
 * when there is none. */
ptx_label *ptx_find_label(const ptx_func *f, const char *name);

/* ------------------------------------------------------------------ */
/* Walking the tree without recursion                                  */

typedef enum ptx_event {
    PTX_EVENT_NOMEM = -1, /* the iterator could not grow its stack */
    PTX_EVENT_DONE = 0,   /* no more nodes */
    PTX_EVENT_ENTER = 1,  /* a node; containers are followed by their children */
    PTX_EVENT_EXIT = 2    /* the end of a container: FUNC with body, BLOCK, SECTION */
} ptx_event;

typedef struct ptx_iter ptx_iter;

/* An iterator over every node of `m` in source order, depth first.  Returns
 * NULL when out of memory; release with ptx_iter_free().  The iterator keeps
 * its own stack, so trees of any depth are walked without recursion. */
ptx_iter *ptx_iter_new(const ptx_module *m);

/* The same over one node and what it contains (a function, a block): the
 * node itself is at depth 0 and its siblings are not visited. */
ptx_iter *ptx_iter_new_node(const ptx_node *root);
void ptx_iter_free(ptx_iter *it);

/* Advances; *node receives the node of an ENTER or EXIT event.  Events
 * that carry a node are positive: `while (ptx_iter_next(it, &n) > 0)`. */
ptx_event ptx_iter_next(ptx_iter *it, const ptx_node **node);

/* Nesting depth of the current node: 0 for module items. */
unsigned ptx_iter_depth(const ptx_iter *it);

/* After an ENTER event: do not descend; the next event is the sibling. */
void ptx_iter_skip_children(ptx_iter *it);

/* ------------------------------------------------------------------ */
/* Symbols (the semantic pass)                                         */

/* What a name in a module stands for.  Every parse resolves every name
 * (and reports the unknown, misused and duplicate ones) unless validation
 * is off; these functions give the answers to a program. */
typedef enum ptx_symbol_kind {
    PTX_SYM_NONE = 0,       /* declared nowhere: an error of the module */
    PTX_SYM_REGISTER,       /* a .reg variable, or a name of a %name<N> range */
    PTX_SYM_VARIABLE,       /* a variable of another state space, or a parameter */
    PTX_SYM_FUNCTION,       /* a .func or .entry */
    PTX_SYM_LABEL,          /* a label, or the label of a .callprototype,
                               .calltargets or .branchtargets line */
    PTX_SYM_SPECIAL,        /* a special register (%tid.x...) or WARP_SZ */
    PTX_SYM_COUNT
} ptx_symbol_kind;

typedef struct ptx_symbol {
    ptx_symbol_kind kind;
    /* the declaration: ptx_decl for registers and variables (parameters
     * included), ptx_func for functions, ptx_label, ptx_callproto or
     * ptx_targets for labels; NULL for special registers */
    const ptx_node *decl;
    const ptx_var *var;     /* registers and variables: the one of decl's */
    ptx_type type;          /* registers and variables: as declared */
    ptx_space space;        /* registers and variables: as declared */
    ptx_span span;          /* where the name is declared (its range, for
                               %name<N>); len 0 for special registers */
} ptx_symbol;

/* Called by ptx_resolve_names for each name: `stmt` is the node it is in
 * (an instruction, a declaration whose initialiser names it, a
 * .branchtargets or .calltargets line), `name` the SYM expression (or the
 * guard's), `sym` what it stands for.  Return false to stop. */
typedef bool (*ptx_name_fn)(void *user, const ptx_node *stmt, const ptx_expr *name,
                            const ptx_symbol *sym);

/* Resolves every name of every instruction, initialiser and target list
 * of `m` in source order, with ptxas's scope rules, and calls `fn` for
 * each; reports nothing.  A module parsed with its tree kept (the
 * default) and found valid carries what the semantic pass resolved while
 * it checked it, and this reads that; otherwise (errors, a tree kept
 * through no check, or any edit through the editing API since: call
 * ptx_validate to check it again) it walks the module's scopes once,
 * allocations freed before it returns.  PTX_OK, PTX_ERR_USAGE for a NULL
 * argument, PTX_ERR_NOMEM. */
ptx_status ptx_resolve_names(const ptx_module *m, ptx_name_fn fn, void *user);

/* The function (kernel or .func) named `name` at module scope, or NULL;
 * its definition when there is one, else its last declaration. */
const ptx_func *ptx_find_function(const ptx_module *m, const char *name);

/* The module-scope variable named `name` (its definition when it has one
 * besides .extern declarations), or NULL; *var receives its ptx_var. */
const ptx_decl *ptx_find_variable(const ptx_module *m, const char *name, const ptx_var **var);

#ifdef __cplusplus
}
#endif

/* Control-flow graphs and the call graph (they use the types above). */
#include "ptx/cfg.h"
/* The inline asm of CUDA C++. */
#include "ptx/cuda.h"

#endif
