/* Spellings of the AST's enumerations, shared by printers and users; the
 * directive words, as "did you mean" offers them for an unknown one. */
#include <string.h>

#include "internal.h"

#define LOOKUP(table, i) \
    ((unsigned)(i) < sizeof(table) / sizeof(table[0]) ? table[i] : NULL)

static const char *const type_names[PTX_TYPE_COUNT] = {
    [PTX_TYPE_NONE] = "", [PTX_TYPE_S8] = ".s8", [PTX_TYPE_S16] = ".s16",
    [PTX_TYPE_S32] = ".s32", [PTX_TYPE_S64] = ".s64", [PTX_TYPE_U8] = ".u8",
    [PTX_TYPE_U16] = ".u16", [PTX_TYPE_U32] = ".u32", [PTX_TYPE_U64] = ".u64",
    [PTX_TYPE_F16] = ".f16", [PTX_TYPE_F16X2] = ".f16x2", [PTX_TYPE_F32] = ".f32",
    [PTX_TYPE_F64] = ".f64", [PTX_TYPE_B8] = ".b8", [PTX_TYPE_B16] = ".b16",
    [PTX_TYPE_B32] = ".b32", [PTX_TYPE_B64] = ".b64", [PTX_TYPE_B128] = ".b128",
    [PTX_TYPE_PRED] = ".pred", [PTX_TYPE_TEXREF] = ".texref",
    [PTX_TYPE_SAMPLERREF] = ".samplerref", [PTX_TYPE_SURFREF] = ".surfref",
};

static const char *const space_names[PTX_SPACE_COUNT] = {
    [PTX_SPACE_NONE] = "", [PTX_SPACE_REG] = ".reg", [PTX_SPACE_SREG] = ".sreg",
    [PTX_SPACE_CONST] = ".const", [PTX_SPACE_GLOBAL] = ".global",
    [PTX_SPACE_LOCAL] = ".local", [PTX_SPACE_PARAM] = ".param",
    [PTX_SPACE_SHARED] = ".shared", [PTX_SPACE_TEX] = ".tex",
};

static const char *const linkage_names[PTX_LINK_COUNT] = {
    [PTX_LINK_NONE] = "", [PTX_LINK_EXTERN] = ".extern",
    [PTX_LINK_VISIBLE] = ".visible", [PTX_LINK_WEAK] = ".weak",
    [PTX_LINK_COMMON] = ".common",
};

static const char *const op_names[PTX_OP_COUNT] = {
    [PTX_OP_NONE] = "", [PTX_OP_NEG] = "-", [PTX_OP_PLUS] = "+", [PTX_OP_LNOT] = "!",
    [PTX_OP_BNOT] = "~", [PTX_OP_MUL] = "*", [PTX_OP_DIV] = "/", [PTX_OP_MOD] = "%",
    [PTX_OP_ADD] = "+", [PTX_OP_SUB] = "-", [PTX_OP_SHL] = "<<", [PTX_OP_SHR] = ">>",
    [PTX_OP_LT] = "<", [PTX_OP_GT] = ">", [PTX_OP_LE] = "<=", [PTX_OP_GE] = ">=",
    [PTX_OP_EQ] = "==", [PTX_OP_NE] = "!=", [PTX_OP_BAND] = "&", [PTX_OP_BXOR] = "^",
    [PTX_OP_BOR] = "|", [PTX_OP_LAND] = "&&", [PTX_OP_LOR] = "||",
};

static const char *const fdir_names[PTX_FDIR_COUNT] = {
    [PTX_FDIR_MAXNREG] = ".maxnreg", [PTX_FDIR_MAXNTID] = ".maxntid",
    [PTX_FDIR_REQNTID] = ".reqntid", [PTX_FDIR_MINNCTAPERSM] = ".minnctapersm",
    [PTX_FDIR_MAXNCTAPERSM] = ".maxnctapersm",
    [PTX_FDIR_REQNCTAPERCLUSTER] = ".reqnctapercluster",
    [PTX_FDIR_EXPLICITCLUSTER] = ".explicitcluster",
    [PTX_FDIR_MAXCLUSTERRANK] = ".maxclusterrank",
    [PTX_FDIR_BLOCKSARECLUSTERS] = ".blocksareclusters",
    [PTX_FDIR_LOCAL_MAXNREG] = ".local_maxnreg", [PTX_FDIR_NORETURN] = ".noreturn",
    [PTX_FDIR_ABI_PRESERVE] = ".abi_preserve",
    [PTX_FDIR_ABI_PRESERVE_CONTROL] = ".abi_preserve_control",
    [PTX_FDIR_PRAGMA] = ".pragma",
};

static const char *const node_names[PTX_NODE_COUNT] = {
    [PTX_NODE_FUNC] = "function", [PTX_NODE_ALIAS] = "alias", [PTX_NODE_FILE] = "file",
    [PTX_NODE_SECTION] = "section", [PTX_NODE_TARGET] = "target",
    [PTX_NODE_DWARF] = "dwarf", [PTX_NODE_DECL] = "decl", [PTX_NODE_PRAGMA] = "pragma",
    [PTX_NODE_INSTR] = "instr", [PTX_NODE_LABEL] = "label", [PTX_NODE_BLOCK] = "block",
    [PTX_NODE_LOC] = "loc", [PTX_NODE_CALLPROTO] = "callprototype",
    [PTX_NODE_TARGETS] = "targets", [PTX_NODE_DATA] = "data",
};

static const char *const expr_names[PTX_EXPR_COUNT] = {
    [PTX_EXPR_INT] = "int", [PTX_EXPR_FLOAT] = "float", [PTX_EXPR_F32] = "f32bits",
    [PTX_EXPR_F64] = "f64bits", [PTX_EXPR_SYM] = "sym", [PTX_EXPR_SINK] = "sink",
    [PTX_EXPR_UNARY] = "unary", [PTX_EXPR_CAST] = "cast", [PTX_EXPR_BINARY] = "binary",
    [PTX_EXPR_COND] = "cond", [PTX_EXPR_PAREN] = "paren", [PTX_EXPR_INDEX] = "index",
    [PTX_EXPR_ADDR] = "addr", [PTX_EXPR_VEC] = "vec", [PTX_EXPR_LIST] = "list",
    [PTX_EXPR_PAIR] = "pair", [PTX_EXPR_GENERIC] = "generic", [PTX_EXPR_MASK] = "mask",
    [PTX_EXPR_FIELD] = "field", [PTX_EXPR_RANGE] = "range",
};

const char *ptx_type_name(ptx_type t) { return LOOKUP(type_names, t); }

uint32_t ptx_data_line_start(const ptx_data *d, uint32_t k)
{
    if (!d->width)
        return k ? d->count : 0;
    if (!d->line_ends)
        return k;
    return k ? d->line_ends[k - 1] : 0;
}

uint64_t ptx_data_int(const ptx_data *d, uint32_t i)
{
    const unsigned char *p = (const unsigned char *)d->ints + (size_t)i * d->width;
    switch (d->width) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}
const char *ptx_data_line_word(const ptx_data *d, uint32_t k)
{
    if (!d->line_bytes)
        return d->word->text;
    switch (d->line_bytes[k]) {
    case 1: return ".b8";
    case 2: return ".b16";
    case 4: return ".b32";
    default: return ".b64";
    }
}

const ptx_name *ptx_data_sym_at(const ptx_data *d, uint32_t i)
{
    uint32_t lo = 0, hi = d->nsyms;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->syms[mid].index < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->nsyms && d->syms[lo].index == i ? d->syms[lo].name : NULL;
}

const char *ptx_space_name(ptx_space s) { return LOOKUP(space_names, s); }
const char *ptx_linkage_name(ptx_linkage l) { return LOOKUP(linkage_names, l); }
const char *ptx_op_name(ptx_op op) { return LOOKUP(op_names, op); }
const char *ptx_fdir_name(ptx_fdir_kind k) { return LOOKUP(fdir_names, k); }
const char *ptx_node_kind_name(ptx_node_kind k) { return LOOKUP(node_names, k); }
const char *ptx_expr_kind_name(ptx_expr_kind k) { return LOOKUP(expr_names, k); }

/* The index in names[1 .. count) of the spelling w[0..n), 0 for none:
 * the byte after the dot compared first (w is a dot-word of the
 * scanner's, n at least 2). */
static unsigned word_index(const char *const *names, unsigned count, const char *w, size_t n)
{
    for (unsigned i = 1; i < count; i++) {
        const char *x = names[i];
        if (x[1] == w[1] && strncmp(x, w, n) == 0 && x[n] == '\0')
            return i;
    }
    return 0;
}

ptx_type ptx_type_of_word(const char *w, size_t n)
{
    return (ptx_type)word_index(type_names, PTX_TYPE_COUNT, w, n);
}

ptx_space ptx_space_of_word(const char *w, size_t n)
{
    return (ptx_space)word_index(space_names, PTX_SPACE_COUNT, w, n);
}

/* The directive words a module may start a statement or a declaration
 * with (the scanner's keywords): the vocabulary "did you mean" searches
 * for an unknown dot-word outside an instruction. */
void ptx_suggest_directives(ptx_suggest *s)
{
    static const char *const keywords[] = {
        ".version", ".target", ".address_size", ".entry", ".func", ".alias", ".pragma", ".file",
        ".section", ".loc", ".callprototype", ".calltargets", ".branchtargets", ".align", ".ptr",
        ".attribute", ".managed", ".unified",
    };
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        ptx_suggest_offer(s, keywords[i], strlen(keywords[i]));
    for (unsigned i = 1; i < PTX_FDIR_COUNT; i++)
        if (fdir_names[i])
            ptx_suggest_offer(s, fdir_names[i], strlen(fdir_names[i]));
    for (unsigned i = 1; i < PTX_LINK_COUNT; i++)
        if (ptx_linkage_name((ptx_linkage)i))
            ptx_suggest_offer(s, ptx_linkage_name((ptx_linkage)i), strlen(ptx_linkage_name((ptx_linkage)i)));
    for (unsigned i = 1; i < PTX_SPACE_COUNT; i++)
        if (ptx_space_name((ptx_space)i))
            ptx_suggest_offer(s, ptx_space_name((ptx_space)i), strlen(ptx_space_name((ptx_space)i)));
    for (unsigned i = 1; i < PTX_TYPE_COUNT; i++)
        if (ptx_type_name((ptx_type)i))
            ptx_suggest_offer(s, ptx_type_name((ptx_type)i), strlen(ptx_type_name((ptx_type)i)));
}

void ptx_error_directive(ptx_context *ctx, ptx_diag_code code, ptx_span span, const char *w, size_t len,
                         const char *msg)
{
    char hint[PTX_SUGGEST_TEXT];
    ptx_suggest sg;
    ptx_suggest_init(&sg, w, len);
    ptx_suggest_directives(&sg);
    ptx_diag_add_fix(ctx, PTX_SEV_ERROR, code, span, ptx_suggest_fix(&sg), "%s%s", msg,
                     ptx_suggest_text(&sg, hint, sizeof hint));
}
