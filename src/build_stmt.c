/* The builders of statements: instructions (their modifiers, shared by
 * the instructions written alike, and their operands), labels, blocks,
 * .loc lines and their attributes, .pragma, .branchtargets and
 * .calltargets. */
#include <ctype.h>
#include <string.h>

#include "ast_build.h"

void ptx_b_mod(ptx_context *ctx, const ptx_tok *word)
{
    ptx_scratch_push(ctx, (void *)tok_name(ctx, word));
    ptx_scratch_push(ctx, (void *)(uintptr_t)word->off);
}

/* The opcode and the first `words` modifiers, those of the opcode's
 * token, which starts `at` bytes into the instruction: mods[0] is the
 * opcode's. */
static void fill_mods(ptx_mod *mods, const ptx_split *sp, uint32_t at, uint32_t words)
{
    uint32_t off = at;
    for (unsigned i = 0; i <= words; i++) {
        mods[i].name = sp->words[i];
        mods[i].off = off;
        mods[i].id = 0;
        mods[i].category = 0;
        off += sp->words[i]->len;
    }
}

ptx_mods_set *ptx_mods_set_new(ptx_context *ctx, ptx_mods_set **head, uint32_t at,
                               bool validated, uint32_t nmods)
{
    ptx_mods_set *s = ptx_arena_alloc(&ctx->arena, sizeof *s + (nmods + 1u) * sizeof(ptx_mod));
    s->at = at;
    s->validated = validated;
    s->head = head;
    s->next = *head;
    *head = s;
    return s;
}

/* The not yet validated set of sp's modifiers at `at` (internal.h). */
static ptx_mod *shared_mods(ptx_context *ctx, ptx_split *sp, uint32_t at, uint32_t words)
{
    for (ptx_mods_set *s = sp->sets; s; s = s->next)
        if (s->at == at && !s->validated)
            return s->mods + 1;
    ptx_mods_set *s = ptx_mods_set_new(ctx, &sp->sets, at, false, words);
    fill_mods(s->mods, sp, at, words);
    return s->mods + 1;
}

ptx_node *ptx_b_instr(ptx_context *ctx, const ptx_tok *guard, bool neg,
                      const ptx_tok *opcode, size_t mods, size_t ops, ptx_loc_t loc)
{
    /* the operands, on the scratch above `ops`, go into the node */
    size_t have = above(ctx, ops);
    uint32_t nops = have > UINT16_MAX ? UINT16_MAX : (uint32_t)have;
    if (have > UINT16_MAX)
        error_at(ctx, PTX_DIAG_LIMIT, span_of(loc),
                 "too many operands (the limit is %u)", (unsigned)UINT16_MAX);
    ptx_instr *in = ptx_arena_alloc(ctx->tree,
                                    sizeof *in + (nops + (guard != NULL)) * sizeof(ptx_expr));
    memset(in, 0, sizeof *in);
    in->base.kind = PTX_NODE_INSTR;
    in->base.span = span_of(loc);
    in->nops = (uint16_t)nops;
    ptx_expr *const *from = (ptx_expr *const *)(ctx->scratch + (have ? ops : 0));
    for (size_t i = 0; i < have; i++) {
        if (i < nops)
            in->ops[i] = *from[i];
        cell_free(ctx, from[i]);
    }
    if (have)
        ctx->nscratch = ops;
    for (uint32_t i = 0; i < nops; i++) {
        const ptx_expr *f = ptx_expr_may_hold_field(&in->ops[i]) ? ptx_expr_find_field(&in->ops[i])
                                                                 : NULL;
        if (f)
            error_at(ctx, PTX_DIAG_EXPR, ptx_expr_span(f),
                     "'name = value' is only allowed in initialisers of .texref, .samplerref and .surfref variables");
    }
    if (guard) {
        ptx_leaf_value v = { .name = tok_name(ctx, guard) };
        ptx_expr_set_leaf(ctx, &in->ops[nops], PTX_EXPR_SYM, 0, tok_span(guard), v, NULL);
        in->flags |= PTX_INSTR_GUARD;
        in->guard_neg = neg;
    }
    /* a DOTTED opcode: its words go before those the grammar collected */
    ptx_split *sp = ptx_intern_split(ctx, ctx->src + opcode->off, opcode->len);
    uint32_t words = sp->nwords - 1;
    uint32_t n;
    void **pairs = take(ctx, mods, &n);
    if ((size_t)n / 2 + words > UINT16_MAX) {
        error_at(ctx, PTX_DIAG_LIMIT, span_of(loc),
                 "too many modifiers (the limit is %u)", (unsigned)UINT16_MAX);
        if (words > UINT16_MAX)
            words = UINT16_MAX;
        n = 2 * (UINT16_MAX - words);
    }
    in->nmods = (uint16_t)(n / 2 + words);
    uint32_t at = opcode->off - loc.off;
    if (n == 0) {
        /* all in the opcode's token: shared with the instructions alike */
        in->mods = shared_mods(ctx, sp, at, words);
        in->flags |= PTX_INSTR_SHARED_MODS;
        return &in->base;
    }
    in->mods = (ptx_mod *)ptx_arena_alloc(ctx->tree, (in->nmods + 1u) * sizeof *in->mods) + 1;
    fill_mods(in->mods - 1, sp, at, words);
    for (unsigned i = words; i < in->nmods; i++) {
        in->mods[i].name = pairs[2 * (i - words)];
        in->mods[i].off = (uint32_t)(uintptr_t)pairs[2 * (i - words) + 1] - loc.off;
        in->mods[i].id = 0;
        in->mods[i].category = 0;
    }
    return &in->base;
}

ptx_node *ptx_b_label(ptx_context *ctx, const ptx_tok *name, ptx_loc_t loc)
{
    ptx_label *l = node_new(ctx, PTX_NODE_LABEL, sizeof *l, loc);
    l->name = tok_name(ctx, name);
    return &l->base;
}

ptx_node *ptx_b_block(ptx_context *ctx, ptx_nlist body, ptx_loc_t loc)
{
    ptx_block *b = node_new(ctx, PTX_NODE_BLOCK, sizeof *b, loc);
    b->first = body.first;
    return &b->base;
}

static void loc_attr_error(ptx_context *ctx, const ptx_tok *key)
{
    error_at(ctx, PTX_DIAG_DIRECTIVE, tok_span(key),
             "'.loc' takes 'function_name LABEL[+N]' and 'inlined_at FILE LINE COLUMN' after the column; found '%.*s'",
             (int)key->len, ctx->src + key->off);
}

/* The word before a .loc attribute's name: function_name (true), or an
 * error. */
bool ptx_b_loc_fkey(ptx_context *ctx, const ptx_tok *key)
{
    if (tok_is(ctx, key, "function_name"))
        return true;
    loc_attr_error(ctx, key);
    return false;
}

/* ", inlined_at FILE LINE COLUMN" with no function_name before it */
void ptx_b_loc_inlined_alone(ptx_context *ctx, const ptx_tok *key)
{
    if (tok_is(ctx, key, "inlined_at"))
        error_at(ctx, PTX_DIAG_DIRECTIVE, tok_span(key),
                 "'inlined_at' comes after 'function_name LABEL': write '.loc FILE LINE COLUMN, "
                 "function_name LABEL, inlined_at FILE LINE COLUMN'");
}

/* .loc attributes arrive as (kind, a, b, c) quadruples on the scratch. */
void ptx_b_loc_attr(ptx_context *ctx, const ptx_tok *key, const ptx_tok *a,
                    const ptx_tok *b, const ptx_tok *c, ptx_loc_t loc)
{
    ptx_tok *copy = ptx_arena_alloc(ctx->tree, 4 * sizeof *copy);
    memset(copy, 0, 4 * sizeof *copy);
    copy[0] = *key;
    copy[1] = *a;
    if (b)
        copy[2] = *b;
    if (c)
        copy[3] = *c;
    bool fname = tok_is(ctx, key, "function_name");
    bool inl = tok_is(ctx, key, "inlined_at");
    /* a's kind tells the forms apart: a name for function_name, numbers
     * for inlined_at */
    bool a_is_name = ctx->src[a->off] < '0' || ctx->src[a->off] > '9';
    (void)loc;
    if ((fname && (!a_is_name || c)) || (inl && (a_is_name || !c)) || (!fname && !inl) ||
        (!a_is_name && !c)) {
        loc_attr_error(ctx, key);
        return;
    }
    ptx_scratch_push(ctx, copy);
}

ptx_node *ptx_b_loc(ptx_context *ctx, const ptx_tok nums[3], size_t attrs, ptx_loc_t loc)
{
    ptx_loc *l = node_new(ctx, PTX_NODE_LOC, sizeof *l, loc);
    l->file = u32_of(ctx, &nums[0], "file index");
    l->line = u32_of(ctx, &nums[1], "line");
    l->col = u32_of(ctx, &nums[2], "column");
    uint32_t n;
    ptx_tok **items = (ptx_tok **)take(ctx, attrs, &n);
    for (uint32_t i = 0; i < n; i++) {
        ptx_tok *q = items[i];
        if (tok_is(ctx, &q[0], "function_name")) {
            l->function_name = tok_name(ctx, &q[1]);
            l->function_offset = q[2].len ? q[2].u : 0;
        } else {
            l->has_inlined_at = 1;
            l->in_file = u32_of(ctx, &q[1], "file index");
            l->in_line = u32_of(ctx, &q[2], "line");
            l->in_col = u32_of(ctx, &q[3], "column");
        }
    }
    return &l->base;
}

void ptx_b_string(ptx_context *ctx, const ptx_tok *t)
{
    ptx_scratch_push(ctx, (void *)ptx_intern(ctx, ctx->src + t->off + 1, t->len - 2));
}

/* A pragma's value, as ptxas 13.0 reads it: one integer, decimal or hex,
 * with no blank after it; `positive` for frequency (0 and -1 refused). */
static bool pragma_value_ok(const char *v, bool positive)
{
    if (*v == '-') {
        if (positive)
            return false;
        v++;
    }
    bool hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    const char *d = hex ? v + 2 : v;
    if (!*d)
        return false;
    bool nonzero = false;
    for (; *d; d++) {
        if (!(hex ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)))
            return false;
        nonzero |= *d != '0';
    }
    return !positive || nonzero;
}

/* The strings of a .pragma at `where`, as ptxas 13.0 takes them (each
 * asked of it): "nounroll" (exactly) anywhere; "enable_smem_spilling..."
 * (a prefix), "used_bytes_mask N" and "frequency N" in a function body
 * only ("allowed only within function scope"), from PTX 8.7, 8.3 and 9.0
 * (src/gates.c, checked before the value); any other string draws a
 * warning in a body or an entry's header ("Pragma '...' unsupported", and
 * the module compiles) and an error at module scope ("not supported"). */
void ptx_check_pragmas(ptx_context *ctx, const ptx_name *const *s, uint32_t n,
                       ptx_pragma_site where, ptx_span at)
{
    for (uint32_t i = 0; i < n; i++) {
        const char *t = s[i]->text;
        size_t word = strcspn(t, " \t");
        bool smem = strncmp(t, "enable_smem_spilling", 20) == 0;
        bool mask = word == 15 && strncmp(t, "used_bytes_mask", 15) == 0;
        bool freq = word == 9 && strncmp(t, "frequency", 9) == 0;
        if (strcmp(t, "nounroll") == 0)
            continue;
        if (smem || mask || freq) {
            if (where != PTX_PRAGMA_BODY) {
                error_at(ctx, PTX_DIAG_DIRECTIVE, at,
                         "pragma \"%s\" is only allowed in a function's body", t);
                continue;
            }
            if (!ptx_gate(ctx, smem ? ".pragma \"enable_smem_spilling\""
                               : mask ? ".pragma \"used_bytes_mask\"" : ".pragma \"frequency\"",
                          at))
                continue;
            /* ptxas -c: "Pragma 'enable_smem_spilling' is not allowed for
             * per-function compilation modes" */
            if (smem && ctx->compile_only)
                error_at(ctx, PTX_DIAG_DIRECTIVE, at,
                         "pragma \"%s\" is only allowed in a whole program, not in a module "
                         "compiled on its own (-c)", t);
            const char *v = t + word;
            while (*v == ' ' || *v == '\t')
                v++;
            if ((mask || freq) && !pragma_value_ok(v, freq))
                error_at(ctx, PTX_DIAG_DIRECTIVE, at,
                         "pragma \"%s\" needs one %sinteger: '%.*s N'", t,
                         freq ? "positive " : "", (int)word, t);
            continue;
        }
        if (where == PTX_PRAGMA_MODULE)
            error_at(ctx, PTX_DIAG_DIRECTIVE, at,
                     "unknown pragma \"%s\": at module scope only \"nounroll\" is allowed", t);
        else
            ptx_diag_add(ctx, PTX_SEV_WARNING, PTX_DIAG_DIRECTIVE, at,
                         "unknown pragma \"%s\" is ignored: ptxas knows nounroll, used_bytes_mask N, "
                         "enable_smem_spilling and frequency N", t);
    }
}

ptx_node *ptx_b_module_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc)
{
    ptx_pragma *p = node_new(ctx, PTX_NODE_PRAGMA, sizeof *p, loc);
    p->strings = (const ptx_name **)take(ctx, strings, &p->nstrings);
    ptx_gate(ctx, ".pragma", span_of(loc));
    ptx_check_pragmas(ctx, p->strings, p->nstrings, PTX_PRAGMA_MODULE, span_of(loc));
    return &p->base;
}

ptx_node *ptx_b_pragma(ptx_context *ctx, size_t strings, ptx_loc_t loc)
{
    ptx_pragma *p = node_new(ctx, PTX_NODE_PRAGMA, sizeof *p, loc);
    p->strings = (const ptx_name **)take(ctx, strings, &p->nstrings);
    ptx_gate(ctx, ".pragma", span_of(loc));
    ptx_check_pragmas(ctx, p->strings, p->nstrings, PTX_PRAGMA_BODY, span_of(loc));
    return &p->base;
}

ptx_node *ptx_b_targets(ptx_context *ctx, const ptx_tok *label, bool branch,
                        size_t names, ptx_loc_t loc)
{
    ptx_targets *t = node_new(ctx, PTX_NODE_TARGETS, sizeof *t, loc);
    t->is_branch = branch;
    ptx_gate(ctx, branch ? ".branchtargets" : ".calltargets", span_of(loc));
    t->label = tok_name(ctx, label);
    t->names = (ptx_expr **)take(ctx, names, &t->count);
    return &t->base;
}
