/* The semantic pass: the debug directives, in source order across the
 * module, as ptxas 13.0 checks them (each rule asked of it):
 * - a .file index is given once ("Duplicate file index #1");
 * - the "inlined_at FILE LINE COLUMN" of a .loc names the place of a
 *   .loc met before it, anywhere earlier in the module ("Source location
 *   1 2 3 used in inlined_at directive must be used in a preceding .loc
 *   directive"; the .loc's own place does not count).
 * - the values of a section's .b8/.b16/.b32 lines fit their word
 *   ("Value out of range for type .b8 256"; reported at the value, where
 *   ptxas names the token after it).
 * The places met are kept in one open table, with the file indexes. */
#include "sema_impl.h"

struct debug_key {
    uint32_t file, line, col;
    uint32_t kind;              /* 0: empty; DK_LOC or DK_FILE */
    ptx_span span;              /* DK_FILE: the .file */
};

enum { DK_LOC = 1, DK_FILE = 2 };

struct sema_debug {
    struct debug_key *slots;
    size_t mask, n;
};

static size_t key_hash(uint32_t kind, uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15u;
    h ^= ((uint64_t)b << 32 | c) * 0xC2B2AE3D27D4EB4Fu;
    h ^= kind;
    return (size_t)(h ^ h >> 29);
}

/* The slot of (kind, a, b, c): the one holding it, or the empty one
 * where it goes. */
static struct debug_key *slot_of(const struct sema_debug *D, uint32_t kind, uint32_t a,
                                 uint32_t b, uint32_t c)
{
    for (size_t i = key_hash(kind, a, b, c) & D->mask;; i = (i + 1) & D->mask) {
        struct debug_key *k = &D->slots[i];
        if (!k->kind || (k->kind == kind && k->file == a && k->line == b && k->col == c))
            return k;
    }
}

static struct sema_debug *debug_of(sema *S)
{
    if (!S->debug) {
        S->debug = calloc(1, sizeof *S->debug);
        if (!S->debug)
            longjmp(*S->oom, 1);
    }
    return S->debug;
}

/* Looks (kind, a, b, c) up, adding it when absent; the slot, whose kind is
 * 0 when it was absent (the caller fills it in). */
static struct debug_key *find_or_add(sema *S, uint32_t kind, uint32_t a, uint32_t b, uint32_t c)
{
    struct sema_debug *D = debug_of(S);
    if ((D->n + 1) * 2 > D->mask + 1) {
        size_t cap = D->slots ? 2 * (D->mask + 1) : 64;
        struct debug_key *old = D->slots;
        size_t oldcap = D->slots ? D->mask + 1 : 0;
        D->slots = calloc(cap, sizeof *D->slots);
        if (!D->slots) {
            D->slots = old;
            longjmp(*S->oom, 1);
        }
        D->mask = cap - 1;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].kind)
                *slot_of(D, old[i].kind, old[i].file, old[i].line, old[i].col) = old[i];
        free(old);
    }
    struct debug_key *k = slot_of(D, kind, a, b, c);
    if (!k->kind) {
        D->n++;
        *k = (struct debug_key){ a, b, c, 0, { 0, 0 } };
    }
    return k;
}

void sema_check_file(sema *S, const ptx_file *f)
{
    if (S->visit)
        return;
    struct debug_key *k = find_or_add(S, DK_FILE, f->index, 0, 0);
    if (!k->kind) {
        k->kind = DK_FILE;
        k->span = f->base.span;
        return;
    }
    if (sema_error(S, PTX_DIAG_DIRECTIVE, f->base.span,
                   "file index %u is given twice: each '.file' needs an index of its own",
                   f->index) &&
        k->span.off != PTX_NO_OFFSET)
        ptx_diag_add(S->ctx, PTX_SEV_NOTE, PTX_DIAG_DIRECTIVE, k->span,
                     "the first '.file %u' is here", f->index);
}

void sema_check_loc(sema *S, const ptx_loc *l)
{
    if (S->visit)
        return;
    const struct sema_debug *D = S->debug;
    if (l->has_inlined_at &&
        (!D || !D->slots || !slot_of(D, DK_LOC, l->in_file, l->in_line, l->in_col)->kind))
        sema_error(S, PTX_DIAG_DIRECTIVE, l->base.span,
                   "'inlined_at %u %u %u' names a place no earlier '.loc' gave: the place "
                   "a function was inlined at is a '.loc %u %u %u' before this one",
                   l->in_file, l->in_line, l->in_col, l->in_file, l->in_line, l->in_col);
    find_or_add(S, DK_LOC, l->file, l->line, l->col)->kind = DK_LOC;
}

void sema_debug_free(sema *S)
{
    if (!S->debug)
        return;
    free(S->debug->slots);
    free(S->debug);
    S->debug = NULL;
}

/* A value of `bytes` in a section, as ptxas takes it: .b8 and .b16 from
 * -2^(n-1) to 2^n - 1; .b32 from -2^31 (any positive: ptxas keeps the low
 * bits); .b64 any.  `neg`: the value is -v. */
static bool data_value_fits(unsigned bytes, uint64_t v, bool neg)
{
    if (bytes == 0 || bytes >= 8)
        return true;
    unsigned bits = 8 * bytes;
    if (neg)
        return v <= (uint64_t)1 << (bits - 1);
    return bytes == 4 || v < (uint64_t)1 << bits;
}

static void data_range_error(sema *S, ptx_span at, const char *word, unsigned bytes, uint64_t v,
                             bool neg)
{
    unsigned bits = 8 * bytes;
    if (bytes == 4)
        sema_error(S, PTX_DIAG_LITERAL, at,
                   "value %s%llu is out of range for %s: the least is -2147483648", neg ? "-" : "",
                   (unsigned long long)v, word);
    else
        sema_error(S, PTX_DIAG_LITERAL, at, "value %s%llu is out of range for %s: write %lld to %llu",
                   neg ? "-" : "", (unsigned long long)v, word, -(1LL << (bits - 1)),
                   (1ULL << bits) - 1);
}

/* Line k of a run of data lines at `span` in the source. */
static ptx_span run_line(const sema *S, ptx_span span, uint32_t k)
{
    if (!S->src || span.off == PTX_NO_OFFSET)
        return span;
    const char *p = S->src + span.off, *end = p + span.len;
    for (; k && p < end; p++)
        if (*p == '\n')
            k--;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *q = p;
    while (q < end && *q != '\n' && *q != '\r')
        q++;
    return (ptx_span){ (uint32_t)(p - S->src), (uint32_t)(q - p) };
}

static void check_data(sema *S, const ptx_data *d)
{
    if (d->width) {
        for (uint32_t k = 0; k < d->nlines; k++) {
            const char *w = ptx_data_line_word(d, k);
            unsigned bytes = ptx_data_word_bytes(w);
            for (uint32_t i = ptx_data_line_start(d, k); i < ptx_data_line_start(d, k + 1); i++) {
                uint64_t v = ptx_data_int(d, i);
                if (!ptx_data_sym_at(d, i) && !data_value_fits(bytes, v, false)) {
                    data_range_error(S, run_line(S, d->base.span, k), w, bytes, v, false);
                    return;
                }
            }
        }
        return;
    }
    unsigned bytes = ptx_data_word_bytes(d->word->text);
    for (uint32_t i = 0; i < d->count; i++) {
        const ptx_expr *e = d->values[i];
        bool neg = e->kind == PTX_EXPR_UNARY && e->op == PTX_OP_NEG;
        const ptx_expr *x = neg ? ptx_expr_a(e) : e;
        if (x->kind == PTX_EXPR_INT && !data_value_fits(bytes, ptx_expr_int(x), neg))
            data_range_error(S, ptx_expr_span(e), d->word->text, bytes, ptx_expr_int(x), neg);
    }
}

void sema_check_section(sema *S, const ptx_section *sec)
{
    if (S->visit)
        return;
    for (const ptx_node *n = sec->first; n; n = n->next)
        if (n->kind == PTX_NODE_DATA)
            check_data(S, (const ptx_data *)n);
}
