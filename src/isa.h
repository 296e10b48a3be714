/* The instruction tables' validator, inside: what its files share.
 * isa_lookup.c finds names in the tables (with the validator's own table
 * of the names it has looked up), isa_match.c matches an instruction
 * against one form, isa_explain.c says why the closest form does not fit,
 * isa_memo.c remembers the instructions and the shapes that fit, and
 * isa_check.c has the entry, ptx_isa_check (declared in internal.h),
 * which uses all four, in that order of layers (memo, lookup, match,
 * explain, check).  Internal to those files. */
#ifndef PTX_ISA_PARTS_H
#define PTX_ISA_PARTS_H

#include <string.h>

#include "internal.h"
#include "isa_tables.h"

/* A function kept out of its only caller, whose quick path it would
 * slow down (every register the callee saves, its large frame). */
#if defined(__GNUC__)
#define ISA_NOINLINE __attribute__((noinline))
#else
#define ISA_NOINLINE
#endif

/* ---- lookup (isa_lookup.c) --------------------------------------------- */

/* What the tables say of each name the validator has looked up: for an
 * opcode, find_root's answer; for a dot-word, find_mod's (an opcode never
 * starts with a dot, a modifier always does, so one table serves both).
 * The validator's own table, kept in the context and keyed by the
 * interned name (one per spelling, its hash already computed), so that
 * each distinct name is searched for once. */
typedef struct isa_name_slot {
    const ptx_name *name;     /* NULL: empty */
    uint16_t id;
} isa_name_slot;

struct ptx_isa_names {
    isa_name_slot *slots;
    size_t mask, count;
};

/* Looks the name up in the tables and enters it in the table above. */
uint16_t ptx_isa_name_id_slow(ptx_context *ctx, const ptx_name *n);

/* The table's answer for name n: found, or looked up the first time. */
static inline uint16_t ptx_isa_name_id(ptx_context *ctx, const ptx_name *n)
{
    const struct ptx_isa_names *t = ctx->isa_names;
    if (t)
        for (size_t i = n->hash & t->mask; t->slots[i].name; i = (i + 1) & t->mask)
            if (t->slots[i].name == n)
                return t->slots[i].id;
    return ptx_isa_name_id_slow(ctx, n);
}

/* The root of an opcode, or NULL when the tables have none. */
static inline const ptx_isa_root *ptx_isa_root_of(ptx_context *ctx, const ptx_name *opcode)
{
    uint16_t id = ptx_isa_name_id(ctx, opcode);
    return id ? &ptx_isa_roots[id - 1] : NULL;
}

/* ---- matching (isa_match.c) -------------------------------------------- */

typedef enum problem {
    P_NONE, P_NAME, P_MODIFIER, P_DUPLICATE, P_ORDER, P_MISSING, P_OPERAND_COUNT, P_OPERAND,
    P_VERSION, P_TARGET, P_WITHDRAWN
} problem;

typedef struct verdict {
    problem what;
    unsigned index;         /* the modifier or operand concerned */
    unsigned slot;          /* P_MISSING, P_DUPLICATE: the slot; P_ORDER: the category */
    unsigned cost;          /* how far the form is from the instruction */
    struct fault {          /* P_OPERAND: what is wrong with the operand */
        uint8_t what;       /* F_* */
        uint8_t item;       /* F_ITEM, F_IMAGE_*: which element (0-based) */
    } fault;
} verdict;

/* what is wrong with an operand */
enum {
    F_OK,
    F_KIND,                 /* not one of the kinds the form takes */
    F_SIZE,                 /* a vector with the wrong number of elements */
    F_ITEM,                 /* an element of a list or vector */
    F_SELECTOR,             /* a selector the operand does not take */
    F_IMAGE,                /* not [handle, coordinates] as an image address */
    F_NOT_PRED,             /* a register declared with another type than .pred */
    F_PRED,                 /* a predicate where the form takes no predicate */
    F_VALUE                 /* a constant of a value the form does not take */
};

/* assign[i] of a modifier ptxas ignores (grammar/isa/ignored.isa), and of
 * one that fits no slot of the form */
enum { SLOT_IGNORED = 0xFF, SLOT_NONE = 0xFE };

static inline bool slot_takes(const ptx_isa_slot *s, uint16_t id)
{
    if (s->kind == PTX_SLOT_LIT || s->kind == PTX_SLOT_OPT_LIT)
        return s->ref == id;
    const ptx_isa_set *set = &ptx_isa_sets[s->ref];
    for (unsigned k = 0; k < set->n; k++)
        if (set->mods[k] == id)
            return true;
    return false;
}

static inline ptx_span mod_span(const ptx_instr *in, unsigned i)
{
    ptx_span s = { ptx_mod_offset(in, i), in->mods[i].name->len };
    return s;
}

static inline bool is_name(const ptx_expr *e)
{
    return e->kind == PTX_EXPR_SYM;
}

/* WARP_SZ, without a selector: a constant (32) */
static inline bool is_warp_sz(const ptx_expr *e)
{
    return e->kind == PTX_EXPR_SYM && !ptx_expr_sel(e) && ptx_name_is(ptx_expr_name(e), "WARP_SZ");
}

static inline bool is_constant_expr(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
    case PTX_EXPR_UNARY: case PTX_EXPR_BINARY: case PTX_EXPR_COND: case PTX_EXPR_CAST:
    case PTX_EXPR_PAREN:
        return true;
    case PTX_EXPR_SYM:
        return ptx_name_is(ptx_expr_name(e), "WARP_SZ");
    default:
        return false;
    }
}

/* A constant expression with no name in it: what ptxas takes inside a
 * vector or a call's argument list ({1+1, r} but not {r+1, r}). */
static inline bool is_pure_constant(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
        return true;
    case PTX_EXPR_SYM:
        return is_warp_sz(e);
    case PTX_EXPR_UNARY: case PTX_EXPR_PAREN: case PTX_EXPR_CAST:
        return is_pure_constant(ptx_expr_a(e));
    case PTX_EXPR_BINARY:
        return is_pure_constant(ptx_expr_a(e)) && is_pure_constant(ptx_expr_b(e));
    case PTX_EXPR_COND:
        for (unsigned i = 0; i < ptx_expr_count(e); i++)
            if (!is_pure_constant(ptx_expr_item(e, i)))
                return false;
        return true;
    default:
        return false;
    }
}

/* The size of the vector a modifier (.v2, .v4...) of `in` asks for, 1
 * when none does. */
unsigned ptx_isa_vector_size(const ptx_instr *in, const ptx_isa_form *f);
/* What is wrong with `e` as an image address of `coords` coordinates
 * ([handle, {x, y}]); F_OK when nothing is. */
struct fault ptx_isa_image_fault(const ptx_expr *e, unsigned coords);
/* The value of a constant operand, when it has one. */
bool ptx_isa_const_value(const ptx_expr *e, int64_t *out);
/* Is form f that of the instruction, given its modifiers' ids?  `quick`:
 * stop at the first problem, whose verdict then only says that there is
 * one (what, index), not how far the form is from fitting. */
verdict ptx_isa_try_form(const ptx_module *m, const ptx_instr *in, const ptx_isa_form *f,
                         const uint16_t *ids, uint64_t ignorable, const uint8_t *rc,
                         uint8_t *assign, bool quick);
/* Which modifiers of `in` ptxas ignores in family `fam`, a bit each. */
uint64_t ptx_isa_ignorable_words(const ptx_instr *in, const uint16_t *ids,
                                 const ptx_isa_root *root, unsigned fam);

/* ---- explanation (isa_explain.c) --------------------------------------- */

typedef struct explain explain;
/* What the explanations need besides the closest form and its verdict. */
struct explain {
    const ptx_module *m;
    const ptx_isa_root *root;
    const uint16_t *ids;        /* the instruction's modifiers, decoded */
    const uint8_t *rc;          /* the operands' register classes (PTX_RC_*) */
    uint8_t *assign;            /* scratch for ptx_isa_try_form */
};

/* Reports why form f, the closest to `in`, does not fit it (verdict v). */
void ptx_isa_report(ptx_context *ctx, const explain *x, const ptx_instr *in,
                    const ptx_isa_form *f, verdict v);

/* ---- memo (isa_memo.c) ------------------------------------------------- */

enum { MEMO_MAX_WORDS = 64 };

typedef struct memo_key {
    uint16_t w[MEMO_MAX_WORDS];
    unsigned n;
    uint32_t hash;
} memo_key;

typedef struct memo_entry {
    uint32_t hash;
    uint16_t form;
    uint16_t n;                 /* words in key */
    const uint16_t *key;        /* key words, then the slot of each modifier */
    const uint8_t *assign;
} memo_entry;

/* The memo of instructions written alike, asked first (isa_check.c says
 * what its key holds and why that is all the verdict depends on).  The
 * module's version and target are part of the key, kept once for the
 * whole table, whose entries are all for modules of that version and
 * target: a module of another finds nothing in it, and empties it when
 * it adds. */
typedef struct alike_key {
    const ptx_mod *mods;        /* the instruction's shared modifier list */
    uint64_t counts;            /* the instruction's nmods and nops */
    union {
        uint64_t w[2];
        uint16_t op[8];         /* the shape of operands 0..7 (isa_check.c) */
    } ops;
} alike_key;

typedef struct alike_entry {
    _Alignas(64) alike_key key; /* key.mods NULL: an empty slot; an entry
                                   is one cache line */
    uint16_t *ids;              /* the answer: the modifiers' ids, */
    uint8_t *cats;              /* what each says, */
    uint16_t form;              /* the form (ptx_isa_forms) */
    uint8_t family;             /* and its family */
} alike_entry;

/* The memo's tables: open addressing, doubled at half full (in the
 * arena): the accepted shapes and the instructions written alike. */
struct ptx_isa_memo {
    memo_entry *slots;
    size_t mask, count;
    alike_entry *alike;
    size_t alike_mask, alike_count;
    unsigned alike_major, alike_minor;  /* the module's version and first */
    const ptx_name *alike_target;       /* target (or NULL) of all of them */
};

/* Whether the entries of the memo of instructions written alike are for
 * modules of m's version and target. */
static inline bool ptx_isa_alike_module(const struct ptx_isa_memo *mt, const ptx_module *m)
{
    return mt->alike_major == m->version_major && mt->alike_minor == m->version_minor &&
           mt->alike_target == (m->ntargets ? m->targets[0] : NULL);
}

static inline uint32_t ptx_isa_alike_hash(const alike_key *k)
{
    uint64_t h = ((uint64_t)(uintptr_t)k->mods ^ k->ops.w[0] ^ k->ops.w[1]) * 0x9e3779b97f4a7c15ULL;
    return (uint32_t)(h >> 32);
}

/* The answer for an instruction of module m written as one accepted
 * before, or NULL (inline: once per instruction). */
static inline const alike_entry *ptx_isa_alike_find(const ptx_context *ctx, const ptx_module *m,
                                                    const alike_key *k)
{
    const struct ptx_isa_memo *mt = ctx->isa_memo;
    if (!mt || !mt->alike || !ptx_isa_alike_module(mt, m))
        return NULL;
    for (size_t i = ptx_isa_alike_hash(k) & mt->alike_mask; mt->alike[i].key.mods;
         i = (i + 1) & mt->alike_mask) {
        const alike_key *e = &mt->alike[i].key;
        if (((e->mods != k->mods) | (e->counts != k->counts) | (e->ops.w[0] != k->ops.w[0]) |
             (e->ops.w[1] != k->ops.w[1])) == 0)
            return &mt->alike[i];
    }
    return NULL;
}

/* The accepted shape of key k, or NULL (inline: once per instruction). */
static inline const memo_entry *ptx_isa_memo_find(ptx_context *ctx, const memo_key *k)
{
    struct ptx_isa_memo *mt = ctx->isa_memo;
    if (!mt || !mt->slots)
        return NULL;
    for (size_t i = k->hash & mt->mask; mt->slots[i].key; i = (i + 1) & mt->mask) {
        const memo_entry *e = &mt->slots[i];
        if (e->hash == k->hash && e->n == k->n && memcmp(e->key, k->w, k->n * sizeof *k->w) == 0)
            return e;
    }
    return NULL;
}

/* The memo's and the name table's growth (isa_memo.c): a table of
 * open addressing whose slots are `size` bytes, NULL or mask + 1 of them,
 * moved into one twice as large (256 slots at first) in the arena;
 * hash_of says whether a slot is taken and its hash.  Sets *mask and
 * returns the new slots. */
void *ptx_isa_table_grow(ptx_context *ctx, void *slots, size_t *mask, size_t size,
                         bool (*hash_of)(const void *slot, uint32_t *hash));
/* Remembers that key k was accepted by `form`, its modifiers in the form's
 * slots `assign`. */
void ptx_isa_memo_add(ptx_context *ctx, const memo_key *k, uint16_t form, const uint8_t *assign,
                      unsigned nmods);
/* Remembers that instructions of module m and key k are accepted by
 * `form`, with what `fit` says of their nmods modifiers. */
void ptx_isa_alike_add(ptx_context *ctx, const ptx_module *m, const alike_key *k, uint16_t form,
                       const ptx_isa_fit *fit, unsigned nmods);

#endif
