/* ptx-front: the abstract syntax tree of a PTX module.
 *
 * Every node, name and array reachable from a ptx_module lives in the arena
 * of the ptx_context that produced it: it is valid until ptx_context_free()
 * and must never be freed on its own.  Users read these structs; they do not
 * write them.  Names are interned: two ptx_name pointers from one context are
 * equal exactly when their texts are equal.
 *
 * Every node records its source range as byte offsets into the parsed
 * buffer; ptx_context_position() turns an offset into line and column.
 */
#ifndef PTX_AST_H
#define PTX_AST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The header is C11 and reads the same from C++, where three of its
 * structs (ptx_name, ptx_expr_more, ptx_instr) end in a flexible array
 * member and ptx_instr has an anonymous struct: C++ has neither, GCC and
 * Clang take both as extensions.  PTX_EXTENSION marks those members so
 * that `g++ -std=c++17 -Wall -Wextra -pedantic` says nothing about them;
 * layout and names are the same in both languages. */
#if defined(__cplusplus) && defined(__GNUC__)
#define PTX_EXTENSION __extension__
#else
#define PTX_EXTENSION
#endif
#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc99-extensions"
#pragma clang diagnostic ignored "-Wnested-anon-types"
#pragma clang diagnostic ignored "-Wgnu-anonymous-struct"
#endif

/* A range of source bytes: [off, off + len).  Nodes made by a program
 * rather than the parser have len 0 and off PTX_NO_OFFSET. */
typedef struct ptx_span {
    uint32_t off;
    uint32_t len;
} ptx_span;

#define PTX_NO_OFFSET UINT32_MAX

/* An interned name: identifier, dot-word, string contents.  `text` is
 * NUL-terminated; `len` excludes the NUL.  `id` numbers the names of one
 * context densely, 0, 1, 2... in the order it interned them (roughly
 * source order): every id is below the count of names the context has
 * interned, so an array indexed by id is a side table of names with no
 * hashing.  Names of two contexts may share an id. */
typedef struct ptx_name {
    uint32_t len;
    uint32_t hash;
    uint32_t id;
    PTX_EXTENSION char text[];
} ptx_name;

/* Fundamental and opaque types that can be written in a declaration. */
typedef enum ptx_type {
    PTX_TYPE_NONE = 0,
    PTX_TYPE_S8, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64,
    PTX_TYPE_U8, PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_U64,
    PTX_TYPE_F16, PTX_TYPE_F16X2, PTX_TYPE_F32, PTX_TYPE_F64,
    PTX_TYPE_B8, PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64, PTX_TYPE_B128,
    PTX_TYPE_PRED,
    PTX_TYPE_TEXREF, PTX_TYPE_SAMPLERREF, PTX_TYPE_SURFREF,
    PTX_TYPE_COUNT
} ptx_type;

/* State spaces as written in declarations. */
typedef enum ptx_space {
    PTX_SPACE_NONE = 0,
    PTX_SPACE_REG, PTX_SPACE_SREG, PTX_SPACE_CONST, PTX_SPACE_GLOBAL,
    PTX_SPACE_LOCAL, PTX_SPACE_PARAM, PTX_SPACE_SHARED, PTX_SPACE_TEX,
    PTX_SPACE_COUNT
} ptx_space;

typedef enum ptx_linkage {
    PTX_LINK_NONE = 0,
    PTX_LINK_EXTERN, PTX_LINK_VISIBLE, PTX_LINK_WEAK, PTX_LINK_COMMON,
    PTX_LINK_COUNT
} ptx_linkage;

/* ------------------------------------------------------------------ */
/* Expressions and operands                                           */

typedef enum ptx_expr_kind {
    PTX_EXPR_INT,       /* integer literal: ptx_expr_int */
    PTX_EXPR_FLOAT,     /* decimal floating literal: ptx_expr_float */
    PTX_EXPR_F32,       /* 0fXXXXXXXX: ptx_expr_int (low 32 bits) */
    PTX_EXPR_F64,       /* 0dXXXXXXXXXXXXXXXX: ptx_expr_int */
    PTX_EXPR_SYM,       /* name, optionally with a selector: %r1, %tid.x, r.b0;
                           the leaves are the kinds up to here */
    PTX_EXPR_SINK,      /* _ */
    PTX_EXPR_UNARY,     /* op a: - + ! ~ */
    PTX_EXPR_CAST,      /* (.s64) a or (.u64) a: the type in `op` */
    PTX_EXPR_BINARY,    /* a op b */
    PTX_EXPR_COND,      /* a ? b : c: items 0..2 */
    PTX_EXPR_PAREN,     /* ( a ) inside a larger expression */
    PTX_EXPR_INDEX,     /* a [ b ]: array element */
    PTX_EXPR_ADDR,      /* [ items ] with optional suffix: [%rd1+8], [t, {x, y}] */
    PTX_EXPR_VEC,       /* { items } */
    PTX_EXPR_LIST,      /* ( items ): call argument or return lists */
    PTX_EXPR_PAIR,      /* a | b where both are names or sinks: dual destination */
    PTX_EXPR_GENERIC,   /* generic(a) in initialisers */
    PTX_EXPR_MASK,      /* 0xFF00(a): byte mask applied to a in initialisers */
    PTX_EXPR_FIELD,     /* name = b: a field of an opaque-type initialiser
                           (a is the name, a SYM) */
    PTX_EXPR_RANGE,     /* name<count>: N<5> is N0..N4 in .branchtargets */
    PTX_EXPR_COUNT
} ptx_expr_kind;

typedef enum ptx_op {
    PTX_OP_NONE = 0,
    PTX_OP_NEG, PTX_OP_PLUS, PTX_OP_LNOT, PTX_OP_BNOT,            /* unary */
    PTX_OP_MUL, PTX_OP_DIV, PTX_OP_MOD, PTX_OP_ADD, PTX_OP_SUB,
    PTX_OP_SHL, PTX_OP_SHR, PTX_OP_LT, PTX_OP_GT, PTX_OP_LE, PTX_OP_GE,
    PTX_OP_EQ, PTX_OP_NE, PTX_OP_BAND, PTX_OP_BXOR, PTX_OP_BOR,
    PTX_OP_LAND, PTX_OP_LOR,
    PTX_OP_COUNT
} ptx_op;

/* Spelling of an integer literal, kept so printers can write it back. */
enum {
    PTX_INT_DEC = 0, PTX_INT_HEX = 1, PTX_INT_OCT = 2, PTX_INT_BIN = 3,
    PTX_INT_RADIX_MASK = 3,
    PTX_INT_UNSIGNED = 4        /* written with the U suffix */
};

/* An expression node: 16 bytes.  The fields below are what the accessors
 * after it read; use the accessors (ptx_expr_span, ptx_expr_name,
 * ptx_expr_a...), which know where each kind keeps its parts.
 *
 * Leaves (INT, FLOAT, F32, F64, SYM, SINK) keep their value in the node.
 * A leaf whose span is 65535 bytes or longer, and a name with a selector,
 * are "boxed": PTX_EXPR_BOXED is set in `flags` and `u.box` holds them.
 * Every other kind keeps its parts in `u.more`: its span's length, its
 * item count and its items, the nodes themselves, one after another
 * (UNARY, PAREN, CAST, GENERIC: 1; BINARY, INDEX, PAIR, FIELD, MASK: 2;
 * COND: 3; ADDR, VEC, LIST: `count`; RANGE: none, `count` is its N). */
typedef struct ptx_expr ptx_expr;
typedef struct ptx_expr_box ptx_expr_box;
typedef struct ptx_expr_more ptx_expr_more;

#define PTX_EXPR_BOXED 0x80     /* in `flags` of a leaf */

struct ptx_expr {
    uint8_t kind;       /* ptx_expr_kind */
    union {
        uint8_t op;     /* ptx_op for UNARY/BINARY; ptx_type for CAST */
        uint8_t flags;  /* leaves: PTX_INT_* for INT, and PTX_EXPR_BOXED */
    };
    uint16_t x;         /* a leaf's span length (unless boxed); the depth
                           of any other kind */
    uint32_t off;       /* where the span starts */
    union {
        uint64_t i;                 /* INT */
        double f;                   /* FLOAT */
        uint64_t bits;              /* F32 (low 32 bits), F64 */
        const ptx_name *name;       /* SYM */
        ptx_expr_box *box;          /* boxed leaves */
        ptx_expr_more *more;        /* all other kinds */
    } u;
};

struct ptx_expr_box {
    uint32_t len;                   /* the span's length */
    union {
        uint64_t i;
        double f;
        const ptx_name *name;
    } v;
    const ptx_name *sel;            /* SYM: ".x", ".b0"... or NULL */
};

struct ptx_expr_more {
    uint32_t len;                   /* the span's length */
    uint32_t count;                 /* items; RANGE: its N */
    const ptx_name *name;           /* ADDR: suffix (".unified") or NULL;
                                       RANGE: the name */
    PTX_EXTENSION ptx_expr items[];
};

static inline int ptx_expr_is_leaf(const ptx_expr *e)
{
    return e->kind <= PTX_EXPR_SINK;
}

static inline ptx_span ptx_expr_span(const ptx_expr *e)
{
    ptx_span s;
    s.off = e->off;
    if (!ptx_expr_is_leaf(e))
        s.len = e->u.more->len;
    else if (e->flags & PTX_EXPR_BOXED)
        s.len = e->u.box->len;
    else
        s.len = e->x;
    return s;
}

/* Nesting depth: 1 for a leaf. */
static inline unsigned ptx_expr_depth(const ptx_expr *e)
{
    return ptx_expr_is_leaf(e) ? 1u : e->x;
}

/* INT's value; F32 and F64's bits. */
static inline uint64_t ptx_expr_int(const ptx_expr *e)
{
    return (e->flags & PTX_EXPR_BOXED) ? e->u.box->v.i : e->u.i;
}

/* FLOAT's value. */
static inline double ptx_expr_float(const ptx_expr *e)
{
    return (e->flags & PTX_EXPR_BOXED) ? e->u.box->v.f : e->u.f;
}

/* SYM's and RANGE's name. */
static inline const ptx_name *ptx_expr_name(const ptx_expr *e)
{
    if (e->kind == PTX_EXPR_RANGE)
        return e->u.more->name;
    return (e->flags & PTX_EXPR_BOXED) ? e->u.box->v.name : e->u.name;
}

/* SYM's selector (".x", ".b0"), or NULL. */
static inline const ptx_name *ptx_expr_sel(const ptx_expr *e)
{
    return (e->flags & PTX_EXPR_BOXED) ? e->u.box->sel : NULL;
}

/* ADDR's suffix (".unified"), or NULL. */
static inline const ptx_name *ptx_expr_suffix(const ptx_expr *e)
{
    return e->u.more->name;
}

/* The number of items of a kind other than a leaf (RANGE: its N). */
static inline uint32_t ptx_expr_count(const ptx_expr *e)
{
    return ptx_expr_is_leaf(e) ? 0 : e->u.more->count;
}

/* Item i of a kind other than a leaf or RANGE; a and b are items 0, 1. */
static inline ptx_expr *ptx_expr_item(const ptx_expr *e, uint32_t i)
{
    return &e->u.more->items[i];
}

static inline ptx_expr *ptx_expr_a(const ptx_expr *e)
{
    return &e->u.more->items[0];
}

static inline ptx_expr *ptx_expr_b(const ptx_expr *e)
{
    return &e->u.more->items[1];
}

/* ------------------------------------------------------------------ */
/* Nodes: module items and statements                                  */

typedef enum ptx_node_kind {
    /* module scope */
    PTX_NODE_FUNC,          /* ptx_func: .entry or .func, definition or prototype */
    PTX_NODE_ALIAS,         /* ptx_alias */
    PTX_NODE_FILE,          /* ptx_file: .file */
    PTX_NODE_SECTION,       /* ptx_section: .section NAME { ... } */
    PTX_NODE_TARGET,        /* ptx_target: a further .target line */
    PTX_NODE_DWARF,         /* ptx_dwarf: legacy @@DWARF line */
    /* both scopes */
    PTX_NODE_DECL,          /* ptx_decl: variable declaration */
    PTX_NODE_PRAGMA,        /* ptx_pragma */
    /* function bodies */
    PTX_NODE_INSTR,         /* ptx_instr */
    PTX_NODE_LABEL,         /* ptx_label: also labels inside .section */
    PTX_NODE_BLOCK,         /* ptx_block: { ... } */
    PTX_NODE_LOC,           /* ptx_loc: .loc */
    PTX_NODE_CALLPROTO,     /* ptx_callproto: L: .callprototype ... */
    PTX_NODE_TARGETS,       /* ptx_targets: L: .calltargets / .branchtargets */
    /* .section contents */
    PTX_NODE_DATA,          /* ptx_data: .b8/.b16/.b32/.b64/... value list */
    PTX_NODE_COUNT
} ptx_node_kind;

/* Header shared by every node; a node of kind K is the struct named in
 * ptx_node_kind and can be cast to it. */
typedef struct ptx_node ptx_node;
struct ptx_node {
    uint8_t kind;       /* ptx_node_kind */
    uint8_t kind_data[2];   /* ptx_instr's family and guard_neg; 0 in
                               the other kinds */
    uint8_t flags;      /* PTX_NODE_EDITED; an instruction's PTX_INSTR_*;
                           the library keeps 0x40 for itself */
    ptx_span span;
    ptx_node *next;     /* next sibling, NULL at the end */
};

/* In `flags` of a node: the editing API put it where it is (inserted, or
 * in place of another), so its span, if any, does not say where it
 * stands: printers write it in the canonical layout. */
#define PTX_NODE_EDITED 0x80

typedef struct ptx_block {
    ptx_node base;
    ptx_node *first;    /* statements */
} ptx_block;

typedef struct ptx_var {
    const ptx_name *name;       /* "_" for unnamed prototype parameters */
    ptx_span span;
    uint8_t has_range;          /* written as name<N> */
    uint8_t unsized;            /* the first dimension is [] (dims[0] is 0) */
    uint32_t range;             /* the N of name<N> */
    uint32_t ndims;
    uint64_t *dims;
    ptx_expr *init;             /* initialiser or NULL */
} ptx_var;

/* .attribute(...) contents of a declaration or function */
enum {
    PTX_ATTR_MANAGED = 1,
    PTX_ATTR_UNIFIED = 2,
    PTX_ATTR_HIDDEN = 4         /* a kernel parameter's '.hidden' (before
                                   '.param', PTX ISA 8.8), not in .attribute() */
};

typedef struct ptx_decl {
    ptx_node base;
    uint8_t linkage;            /* ptx_linkage */
    uint8_t space;              /* ptx_space */
    uint8_t type;               /* ptx_type */
    uint8_t vec;                /* 0, 2, 4 or 8 */
    uint32_t align;             /* .align N; 0 when absent */
    uint8_t attrs;              /* PTX_ATTR_* */
    uint8_t has_ptr;            /* .ptr kernel-parameter attribute present */
    uint8_t ptr_space;          /* ptx_space after .ptr, or NONE */
    uint32_t ptr_align;         /* .ptr ... .align N; 0 when absent */
    uint64_t unified[2];        /* .attribute(.unified(a, b)) */
    uint32_t nvars;
    ptx_var *vars;
} ptx_decl;

typedef enum ptx_fdir_kind {
    PTX_FDIR_MAXNREG, PTX_FDIR_MAXNTID, PTX_FDIR_REQNTID, PTX_FDIR_MINNCTAPERSM,
    PTX_FDIR_MAXNCTAPERSM, PTX_FDIR_REQNCTAPERCLUSTER, PTX_FDIR_EXPLICITCLUSTER,
    PTX_FDIR_MAXCLUSTERRANK, PTX_FDIR_BLOCKSARECLUSTERS, PTX_FDIR_LOCAL_MAXNREG,
    PTX_FDIR_NORETURN, PTX_FDIR_ABI_PRESERVE, PTX_FDIR_ABI_PRESERVE_CONTROL,
    PTX_FDIR_PRAGMA,
    PTX_FDIR_COUNT
} ptx_fdir_kind;

/* A performance, cluster or ABI directive in a function header. */
typedef struct ptx_fdir {
    uint8_t kind;               /* ptx_fdir_kind */
    uint8_t nvals;              /* 0..3 numbers, or the number of strings */
    ptx_span span;
    uint32_t vals[3];
    const ptx_name **strings;   /* PRAGMA: nvals strings */
} ptx_fdir;

typedef struct ptx_func {
    ptx_node base;
    uint8_t is_entry;
    uint8_t linkage;            /* ptx_linkage */
    uint8_t attrs;              /* PTX_ATTR_* */
    uint8_t has_params;         /* a parameter list was written, even () */
    uint8_t has_ret;            /* a return list was written */
    const ptx_name *name;
    uint64_t unified[2];
    uint32_t nret, nparams, ndirs;
    ptx_decl **ret;             /* return parameters */
    ptx_decl **params;
    ptx_fdir *dirs;             /* in source order */
    ptx_block *body;            /* NULL for a prototype */
} ptx_func;

typedef struct ptx_alias {
    ptx_node base;
    const ptx_name *alias, *aliasee;
} ptx_alias;

typedef struct ptx_pragma {
    ptx_node base;
    uint32_t nstrings;
    const ptx_name **strings;   /* contents without the quotes */
} ptx_pragma;

typedef struct ptx_file {
    ptx_node base;
    uint32_t index;
    uint8_t has_info;           /* the timestamp was given */
    uint8_t has_size;           /* the size was given too (only with has_info) */
    const ptx_name *path;       /* contents without the quotes */
    uint64_t timestamp, size;
} ptx_file;

typedef struct ptx_section {
    ptx_node base;
    const ptx_name *name;       /* ".debug_info" */
    ptx_node *first;            /* PTX_NODE_LABEL and PTX_NODE_DATA */
} ptx_section;

/* A value of a run of data lines that is a label's address
 * (".b64 $L__tmp52"): the run's integer at `index` is then 0. */
typedef struct ptx_data_sym {
    uint32_t index;
    const ptx_name *name;
} ptx_data_sym;

/* A data line, or a run of data lines.  Debug sections hold hundreds of
 * thousands of lines such as ".b8 144", ".b8 95,90,78" or ".b64 $L__tmp3":
 * consecutive lines with a word of .b8, .b16, .b32 or .b64 whose values
 * are plain decimals (or, after .b32 and .b64 and not on the first line,
 * one label) are kept as one
 * node with `width` != 0: the node stands for `nlines` source lines, line
 * k holding the values from ptx_data_line_start(d, k) up to
 * ptx_data_line_start(d, k + 1), written with the word
 * ptx_data_line_word(d, k).  Its `count` values are packed `width` bytes
 * each, the fewest that hold them all (read them with ptx_data_int); the
 * values that are labels are listed in `syms` (ptx_data_sym_at).
 * Otherwise `width` is 0 and `values` holds the expressions of one line. */
typedef struct ptx_data {
    ptx_node base;
    const ptx_name *word;       /* ".b8", ".b32", ".byte", ".4byte", ".quad"...;
                                   a run: its first line's word */
    uint32_t count;             /* values */
    uint8_t width;              /* bytes per packed value; 0: `values` */
    ptx_expr **values;          /* NULL for a run */
    const void *ints;           /* a run's values; NULL otherwise */
    uint32_t nlines;            /* a run: the lines it stands for; else 1 */
    const uint32_t *line_ends;  /* a run: where each line's values end;
                                   NULL when every line has one value */
    const uint8_t *line_bytes;  /* a run whose lines have different words:
                                   line k's word is .b(8 * line_bytes[k]);
                                   NULL when every line has `word` */
    uint32_t nsyms;
    const ptx_data_sym *syms;   /* a run's label values, by index */
} ptx_data;

/* The index of the first value of line `k` (0 <= k <= nlines) of `d`. */
uint32_t ptx_data_line_start(const ptx_data *d, uint32_t k);

/* Value i of a run (width != 0); 0 for a label. */
uint64_t ptx_data_int(const ptx_data *d, uint32_t i);

/* The word of line k of a run (".b8"...): static storage. */
const char *ptx_data_line_word(const ptx_data *d, uint32_t k);

/* The label that value i of a run is, or NULL for a number. */
const ptx_name *ptx_data_sym_at(const ptx_data *d, uint32_t i);

typedef struct ptx_target {
    ptx_node base;
    uint32_t count;
    const ptx_name **names;     /* "sm_90a", "texmode_independent", "debug"... */
} ptx_target;

typedef struct ptx_dwarf {
    ptx_node base;
    const ptx_name *text;       /* the line after "@@DWARF " */
} ptx_dwarf;

typedef struct ptx_label {
    ptx_node base;
    const ptx_name *name;
} ptx_label;

/* An instruction's modifiers are often shared by the instructions written
 * the same way (read them, never write them).  Before the first is one
 * for the opcode (ptx_instr_opcode), with its offset. */
typedef struct ptx_mod {
    const ptx_name *name;       /* ".global", ".shared::cluster", ".b32"... */
    uint32_t off;               /* where the dot is, counted from the start
                                   of the instruction (ptx_mod_offset gives
                                   the source offset) */
    uint16_t id;                /* ptx_modifier (ptx/isa.h), once validated */
    uint8_t category;           /* ptx_mod_category: what it says; NONE for
                                   the words of the instruction's name */
} ptx_mod;

/* flags of an instruction (the library keeps bit 0 for itself) */
enum {
    PTX_INSTR_GUARD = 2,        /* it has a guard: ptx_instr_guard */
    PTX_INSTR_EDITED = PTX_NODE_EDITED  /* base.flags' PTX_NODE_EDITED */
};

/* An instruction: 32 bytes and its operands.  Its small fields sit in the
 * room the node header leaves; read `base` as for any node. */
typedef struct ptx_instr {
    union {
        ptx_node base;
        PTX_EXTENSION struct {
            uint8_t kind_;      /* base.kind */
            uint8_t family;     /* ptx_family (ptx/isa.h); NONE if unknown */
            uint8_t guard_neg;  /* the guard is @!p */
            uint8_t flags;      /* base.flags: PTX_INSTR_* */
            ptx_span span_;     /* base.span */
            uint16_t nmods;     /* at most 65535, as nops: more is an error */
            uint16_t nops;
            ptx_node *next_;    /* base.next */
        };
    };
    ptx_mod *mods;              /* dot-words after the opcode, in source order;
                                   mods[-1] is the opcode: ptx_instr_opcode */
    PTX_EXTENSION ptx_expr ops[];   /* operands in source order; after them, the
                                   guard's name (a SYM) when there is one */
} ptx_instr;

/* The opcode: "ld", "mbarrier"..., the first word of the instruction's
 * name. */
static inline const ptx_name *ptx_instr_opcode(const ptx_instr *in)
{
    return in->mods[-1].name;
}

/* The guard's predicate (@p or @!p: see guard_neg), or NULL. */
static inline const ptx_expr *ptx_instr_guard(const ptx_instr *in)
{
    return (in->flags & PTX_INSTR_GUARD) ? &in->ops[in->nops] : NULL;
}

/* The source offset of modifier i of `in` (-1: the opcode), or
 * PTX_NO_OFFSET for one made by a program. */
static inline uint32_t ptx_mod_offset(const ptx_instr *in, int i)
{
    uint32_t off = in->mods[i].off;
    return off == PTX_NO_OFFSET ? PTX_NO_OFFSET : in->base.span.off + off;
}

typedef struct ptx_loc {
    ptx_node base;
    uint32_t file, line, col;
    const ptx_name *function_name;  /* NULL when absent */
    uint64_t function_offset;       /* the +N after function_name */
    uint8_t has_inlined_at;
    uint32_t in_file, in_line, in_col;
} ptx_loc;

typedef struct ptx_callproto {
    ptx_node base;
    const ptx_name *label;
    uint8_t has_ret, has_params;
    uint32_t nret, nparams, ndirs;
    ptx_decl **ret;
    ptx_decl **params;
    ptx_fdir *dirs;             /* .noreturn, .abi_preserve... */
} ptx_callproto;

typedef struct ptx_targets {
    ptx_node base;
    uint8_t is_branch;          /* .branchtargets (else .calltargets) */
    const ptx_name *label;
    uint32_t count;
    ptx_expr **names;           /* PTX_EXPR_SYM */
} ptx_targets;

/* The module: header directives and the module-scope items in order. */
typedef struct ptx_module {
    unsigned version_major, version_minor;
    uint32_t ntargets;
    const ptx_name **targets;   /* the first .target list */
    unsigned address_size;      /* 0 when .address_size is absent */
    ptx_span version_span, target_span, address_span;
    ptx_node *first;            /* module items */
    /* what the semantic pass resolved each name to, kept for the graphs
     * and printers (internal: read through ptx_resolve_names); NULL when
     * the module was not checked with its tree kept */
    const struct ptx_name_refs *names_resolved;
} ptx_module;

/* Short names for tables and printers; NULL for values out of range. */
const char *ptx_type_name(ptx_type t);        /* ".b32" */
const char *ptx_space_name(ptx_space s);      /* ".global" */
const char *ptx_linkage_name(ptx_linkage l);  /* ".visible" */
const char *ptx_op_name(ptx_op op);           /* "+", "<<" */
const char *ptx_fdir_name(ptx_fdir_kind k);   /* ".maxntid" */
const char *ptx_node_kind_name(ptx_node_kind k);  /* "instr" */
const char *ptx_expr_kind_name(ptx_expr_kind k);  /* "int" */

#if defined(__cplusplus) && defined(__clang__)
#pragma clang diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#endif
