/* The context: owns the arena, the names, the diagnostics and the source
 * copy of one parse; maps offsets to lines; the list-building stack.
 * The lowest layer above the arena and the interner: every other file
 * reports through it, and it calls none of them (the parse itself is run
 * from parse.c). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *ptx_version(void)
{
    return PTX_FRONT_VERSION;
}

ptx_context *ptx_context_new(void)
{
    ptx_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ptx_arena_init(&ctx->arena);
    ctx->arena.oom = &ctx->oom;
    ptx_arena_init(&ctx->body);
    ctx->body.oom = &ctx->oom;
    ctx->tree = &ctx->arena;
    ctx->keep_tree = true;
    ctx->max_errors = 20;
    ctx->filename = "<input>";
    return ctx;
}

void ptx_context_free(ptx_context *ctx)
{
    if (!ctx)
        return;
    ptx_arena_release(&ctx->arena);
    ptx_arena_release(&ctx->body);
    ptx_interner_release(ctx);
    free(ctx->diags);
    free(ctx->scratch);
    for (int i = 0; i < 2; i++) {
        ptx_run_buf *r = &ctx->run[i];
        ptx_ctx_free(ctx, r->vals, r->vals_cap);
        ptx_ctx_free(ctx, r->line_ends, r->ends_cap * sizeof *r->line_ends);
        ptx_ctx_free(ctx, r->line_bytes, r->bytes_cap * sizeof *r->line_bytes);
        ptx_ctx_free(ctx, r->syms, r->syms_cap * sizeof *r->syms);
        ptx_ctx_free(ctx, r->sym_spans, r->spans_cap * sizeof *r->sym_spans);
    }
    ptx_big_free(ctx->src, ctx->src_mapped);
    free(ctx->lines);
    free(ctx->removed);
    free(ctx->refs.v);
    ptx_pool_release(&ctx->pool);
    free(ctx);
}

void ptx_context_set_validation(ptx_context *ctx, bool validate)
{
    ctx->no_validate = !validate;
}

void ptx_context_set_fast_lane(ptx_context *ctx, bool on)
{
    ctx->no_fast_lane = !on;
}

void ptx_context_set_keep_tree(ptx_context *ctx, bool keep)
{
    ctx->keep_tree = keep;
}

void ptx_context_set_keep_names(ptx_context *ctx, bool keep)
{
    ctx->keep_names = keep;
}

void ptx_context_set_compile_only(ptx_context *ctx, bool on)
{
    ctx->compile_only = on;
}

void ptx_context_set_max_errors(ptx_context *ctx, unsigned max_errors)
{
    ctx->max_errors = max_errors;
}

const ptx_module *ptx_context_module(const ptx_context *ctx)
{
    return ctx->module;
}

const char *ptx_context_filename(const ptx_context *ctx)
{
    return ctx->filename;
}

const char *ptx_context_source(const ptx_context *ctx, size_t *len)
{
    if (len)
        *len = ctx->srclen;
    return ctx->src;
}

const char *ptx_context_io_error(const ptx_context *ctx)
{
    return ctx->io_error;
}

/* ---- diagnostics ---------------------------------------------------- */

/* A message of n > PTX_DIAG_MESSAGE_MAX bytes, kept as its head and tail
 * around "...": both ends say what and where (the quote's start, the
 * instruction it is in), the middle is usually one long token. */
static char *shorten(ptx_context *ctx, size_t n, const char *fmt, va_list ap)
{
    enum { TAIL = PTX_DIAG_MESSAGE_MAX / 4, HEAD = PTX_DIAG_MESSAGE_MAX - TAIL - 3 };
    /* the arena first: its failure jumps out, and nothing is malloc'd yet */
    char *msg = ptx_arena_alloc(&ctx->arena, PTX_DIAG_MESSAGE_MAX + 1);
    char *full = malloc(n + 1);
    if (!full)
        longjmp(ctx->oom, 1);
    vsnprintf(full, n + 1, fmt, ap);
    memcpy(msg, full, HEAD);
    memcpy(msg + HEAD, "...", 3);
    memcpy(msg + HEAD + 3, full + n - TAIL, TAIL);
    msg[PTX_DIAG_MESSAGE_MAX] = '\0';
    free(full);
    return msg;
}

bool ptx_diag_vadd(ptx_context *ctx, ptx_severity sev, ptx_diag_code code,
                   ptx_span span, const char *fmt, va_list ap)
{
    if (ctx->stopped)
        return false;
    if (ctx->ndiags == ctx->diagcap) {
        size_t cap = ctx->diagcap ? ctx->diagcap * 2 : 16;
        ptx_diag *d = realloc(ctx->diags, cap * sizeof *d);
        if (!d)
            longjmp(ctx->oom, 1);
        ctx->diags = d;
        ctx->diagcap = cap;
    }
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    char *msg;
    if (n < 0)
        n = 0;
    if ((size_t)n < sizeof small) {
        msg = ptx_arena_strndup(&ctx->arena, small, (size_t)n);
    } else if ((size_t)n <= PTX_DIAG_MESSAGE_MAX) {
        msg = ptx_arena_alloc(&ctx->arena, (size_t)n + 1);
        vsnprintf(msg, (size_t)n + 1, fmt, ap2);
    } else {
        msg = shorten(ctx, (size_t)n, fmt, ap2);
    }
    va_end(ap2);
    ptx_diag *d = &ctx->diags[ctx->ndiags++];
    d->severity = sev;
    d->code = code;
    d->message = msg;
    d->span = span;
    d->fixit = ctx->pending_fix ? ptx_arena_strndup(&ctx->arena, ctx->pending_fix, strlen(ctx->pending_fix))
                                : NULL;
    ctx->pending_fix = NULL;
    if (sev == PTX_SEV_ERROR) {
        ctx->nerrors++;
        if (ctx->max_errors && ctx->nerrors >= ctx->max_errors) {
            ctx->stopped = true;
            ptx_span at = span;
            at.len = 0;
            if (ctx->ndiags == ctx->diagcap) {
                ptx_diag *g = realloc(ctx->diags, (ctx->diagcap + 1) * sizeof *g);
                if (!g)
                    longjmp(ctx->oom, 1);
                ctx->diags = g;
                ctx->diagcap++;
            }
            ptx_diag *last = &ctx->diags[ctx->ndiags++];
            last->severity = PTX_SEV_NOTE;
            last->code = PTX_DIAG_LIMIT;
            last->message = ptx_arena_strndup(&ctx->arena,
                "too many errors; stopping (the limit is set with --max-errors)", 63);
            last->span = at;
            last->fixit = NULL;
            return false;
        }
    }
    return true;
}

bool ptx_diag_add(ptx_context *ctx, ptx_severity sev, ptx_diag_code code,
                  ptx_span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool ok = ptx_diag_vadd(ctx, sev, code, span, fmt, ap);
    va_end(ap);
    return ok;
}

bool ptx_diag_add_fix(ptx_context *ctx, ptx_severity sev, ptx_diag_code code,
                      ptx_span span, const char *fix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ctx->pending_fix = fix;
    bool ok = ptx_diag_vadd(ctx, sev, code, span, fmt, ap);
    ctx->pending_fix = NULL;
    va_end(ap);
    return ok;
}

size_t ptx_diag_count(const ptx_context *ctx)
{
    return ctx->ndiags;
}

size_t ptx_error_count(const ptx_context *ctx)
{
    return ctx->nerrors;
}

const ptx_diag *ptx_diag_get(const ptx_context *ctx, size_t i)
{
    return i < ctx->ndiags ? &ctx->diags[i] : NULL;
}

/* ---- positions -------------------------------------------------------- */

static bool build_lines(ptx_context *ctx)
{
    size_t cap = 1024, n = 0;
    uint32_t *lines = malloc(cap * sizeof *lines);
    if (!lines)
        return false;
    lines[n++] = 0;
    const char *p = ctx->src, *end = ctx->src + ctx->srclen;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        p++;
        if (n == cap) {
            uint32_t *l = realloc(lines, cap * 2 * sizeof *l);
            if (!l) {
                free(lines);
                return false;
            }
            lines = l;
            cap *= 2;
        }
        lines[n++] = (uint32_t)(p - ctx->src);
    }
    ctx->lines = lines;
    ctx->nlines = n;
    return true;
}

ptx_position ptx_context_position(const ptx_context *ctx, uint32_t off)
{
    size_t hint = 0;
    return ptx_position_near(ctx, off, &hint);
}

/* Printers ask for positions in source order: the line of the last answer
 * (*hint) or the next one is found without a search. */
ptx_position ptx_position_near(const ptx_context *cctx, uint32_t off, size_t *hint)
{
    ptx_position pos = { 0, 0 };
    ptx_context *ctx = (ptx_context *)cctx;   /* the line table is a cache */
    if (!ctx->src || off == PTX_NO_OFFSET)
        return pos;
    if (!ctx->lines && !build_lines(ctx))
        return pos;
    if (off > ctx->srclen)
        off = (uint32_t)ctx->srclen;
    size_t lo = *hint < ctx->nlines ? *hint : 0;
    if (ctx->lines[lo] <= off && lo + 1 < ctx->nlines && ctx->lines[lo + 1] <= off)
        lo++;
    if (ctx->lines[lo] > off || (lo + 1 < ctx->nlines && ctx->lines[lo + 1] <= off)) {
        size_t hi = ctx->nlines;
        lo = 0;
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (ctx->lines[mid] <= off)
                lo = mid;
            else
                hi = mid;
        }
    }
    *hint = lo;
    pos.line = (uint32_t)lo + 1;
    pos.col = off - ctx->lines[lo] + 1;
    return pos;
}

/* ---- list building ----------------------------------------------------- */

void ptx_scratch_grow(ptx_context *ctx)
{
    size_t cap = ctx->scratchcap ? ctx->scratchcap * 2 : 256;
    void **s = realloc(ctx->scratch, cap * sizeof *s);
    if (!s)
        longjmp(ctx->oom, 1);
    ctx->scratch = s;
    ctx->scratchcap = cap;
}

void **ptx_scratch_take(ptx_context *ctx, size_t mark, uint32_t *count)
{
    size_t n = ctx->nscratch > mark ? ctx->nscratch - mark : 0;
    void **items = NULL;
    if (n) {
        items = ptx_arena_alloc(ctx->tree, n * sizeof *items);
        memcpy(items, ctx->scratch + mark, n * sizeof *items);
    }
    ctx->nscratch = mark < ctx->nscratch ? mark : ctx->nscratch;
    *count = (uint32_t)n;
    return items;
}

/* Every change the editing API makes to a tree counts here, in any
 * context of the process: the semantic pass's resolutions of a module
 * (ptx_resolve_names) are trusted only while the count is what it was
 * when they were made.  Counting per process, not per module, costs an
 * edit in one module a walk of another's names when they are asked
 * for; the nodes edited do not know their module. */
static atomic_ulong edits;

unsigned long ptx_edit_count(void)
{
    return atomic_load_explicit(&edits, memory_order_relaxed);
}

void ptx_edit_counted(void)
{
    atomic_fetch_add_explicit(&edits, 1, memory_order_relaxed);
}
