/* The context: owns the arena, the names, the diagnostics and the source
 * copy of one parse; reads files; maps offsets to lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    ctx->max_errors = 20;
    ctx->filename = "<input>";
    return ctx;
}

void ptx_context_free(ptx_context *ctx)
{
    if (!ctx)
        return;
    ptx_arena_release(&ctx->arena);
    ptx_interner_release(&ctx->names);
    free(ctx->diags);
    free(ctx->scratch);
    for (int i = 0; i < 2; i++) {
        free(ctx->run[i].vals);
        free(ctx->run[i].line_ends);
        free(ctx->run[i].line_bytes);
        free(ctx->run[i].syms);
        free(ctx->run[i].sym_spans);
    }
    free(ctx->src);
    free(ctx->lines);
    free(ctx->removed);
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

ptx_status ptx_context_set_target(ptx_context *ctx, const char *arch)
{
    if (!arch) {
        ctx->target[0] = '\0';
        return PTX_OK;
    }
    if (strlen(arch) >= sizeof ctx->target || !ptx_target_is_arch(arch))
        return PTX_ERR_USAGE;
    strcpy(ctx->target, arch);
    return PTX_OK;
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

void ptx_scratch_push(ptx_context *ctx, void *item)
{
    if (ctx->nscratch == ctx->scratchcap) {
        size_t cap = ctx->scratchcap ? ctx->scratchcap * 2 : 256;
        void **s = realloc(ctx->scratch, cap * sizeof *s);
        if (!s)
            longjmp(ctx->oom, 1);
        ctx->scratch = s;
        ctx->scratchcap = cap;
    }
    ctx->scratch[ctx->nscratch++] = item;
}

void **ptx_scratch_take(ptx_context *ctx, size_t mark, uint32_t *count)
{
    size_t n = ctx->nscratch > mark ? ctx->nscratch - mark : 0;
    void **items = NULL;
    if (n) {
        items = ptx_arena_alloc(&ctx->arena, n * sizeof *items);
        memcpy(items, ctx->scratch + mark, n * sizeof *items);
    }
    ctx->nscratch = mark < ctx->nscratch ? mark : ctx->nscratch;
    *count = (uint32_t)n;
    return items;
}

/* ---- parsing ----------------------------------------------------------- */

/* An input over PTX_INPUT_MAX is refused before it is copied or read: the
 * diagnostic points at 1:1 of an empty source.  `size` is 0 when only
 * "more than the limit" is known (a pipe).  The caller has armed ctx->oom. */
static ptx_status too_large(ptx_context *ctx, uint64_t size)
{
    char what[64];
    if (size)
        snprintf(what, sizeof what, "%llu bytes", (unsigned long long)size);
    else
        snprintf(what, sizeof what, "more than %u bytes", PTX_INPUT_MAX);
    free(ctx->src);
    ctx->src = calloc(1, 2);
    if (!ctx->src)
        longjmp(ctx->oom, 1);
    ctx->srclen = 0;
    ptx_span at = { 0, 0 };
    ptx_diag_add(ctx, PTX_SEV_ERROR, PTX_DIAG_LIMIT, at,
                 "input of %s is too large (the limit is %u bytes, just under 4 GiB)",
                 what, PTX_INPUT_MAX);
    return PTX_ERR_INPUT;
}

/* A diagnostic and the notes that follow it ("previous definition is
 * here"): they move together. */
typedef struct diag_group {
    uint32_t off;               /* the leader's */
    size_t first, n;
} diag_group;

static int by_offset(const void *a, const void *b)
{
    const diag_group *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;     /* stable */
}

/* The grammar, the tables and the semantic pass each find errors in
 * source order, but one after the other: a reader wants the file's order
 * (GCC's), so the list is sorted by offset once the parse is over.  A
 * diagnostic without a place keeps the place of the one before it, and
 * the note that the error limit stopped the parse stays last. */
static void sort_diags(ptx_context *ctx)
{
    size_t n = ctx->ndiags - (ctx->stopped && ctx->ndiags ? 1 : 0);
    if (n < 2)
        return;
    diag_group *g = malloc(n * sizeof *g);
    ptx_diag *sorted = malloc(ctx->diagcap * sizeof *sorted);
    if (!g || !sorted) {
        free(g);
        free(sorted);
        longjmp(ctx->oom, 1);
    }
    size_t ng = 0;
    uint32_t last = 0;
    for (size_t i = 0; i < n; i++) {
        const ptx_diag *d = &ctx->diags[i];
        if (d->severity == PTX_SEV_NOTE && ng) {
            g[ng - 1].n++;
            continue;
        }
        if (d->span.off != PTX_NO_OFFSET)
            last = d->span.off;
        g[ng++] = (diag_group){ last, i, 1 };
    }
    qsort(g, ng, sizeof *g, by_offset);
    size_t k = 0;
    for (size_t i = 0; i < ng; i++)
        for (size_t j = 0; j < g[i].n; j++)
            sorted[k++] = ctx->diags[g[i].first + j];
    for (size_t i = n; i < ctx->ndiags; i++)
        sorted[k++] = ctx->diags[i];
    free(ctx->diags);
    free(g);
    ctx->diags = sorted;
}

/* Runs after the caller has armed ctx->oom with setjmp. */
static ptx_status parse_owned(ptx_context *ctx)
{
    _Static_assert(PTX_INPUT_MAX < UINT32_MAX - 2, "offsets up to srclen + 1 fit in 32 bits");
    ptx_run_parser(ctx);
    if (ctx->module && !ctx->stopped && !ctx->no_validate)
        ptx_sema_run(ctx, ctx->module);
    sort_diags(ctx);
    return ctx->nerrors ? PTX_ERR_INPUT : PTX_OK;
}

ptx_status ptx_parse_buffer(ptx_context *ctx, const char *name,
                            const char *data, size_t len,
                            const ptx_module **out)
{
    if (!ctx || (!data && len) || ctx->parsed)
        return PTX_ERR_USAGE;
    ctx->parsed = true;
    if (out)
        *out = NULL;
    if (setjmp(ctx->oom)) {
        ctx->module = NULL;
        return PTX_ERR_NOMEM;
    }
    if (name)
        ctx->filename = ptx_arena_strndup(&ctx->arena, name, strlen(name));
    if (len > PTX_INPUT_MAX)
        return too_large(ctx, len);
    ctx->src = malloc(len + 2);
    if (!ctx->src)
        return PTX_ERR_NOMEM;
    if (len)
        memcpy(ctx->src, data, len);
    ctx->src[len] = ctx->src[len + 1] = '\0';
    ctx->srclen = len;
    ptx_status st = parse_owned(ctx);
    if (out)
        *out = ctx->module;
    return st;
}

/* Reads f to its end, or until it is known to be over PTX_INPUT_MAX
 * (*over is then set and the contents are dropped).  `size` is the file's
 * size when known (else 0): the buffer then takes it in one read, with
 * room for the two NULs and to see the end, instead of growing from
 * 64 KB by doubling (a dozen reallocations for a 12 MB module). */
static ptx_status read_stream(ptx_context *ctx, FILE *f, uint64_t size, bool *over)
{
    size_t cap = size ? (size_t)size + 3 : 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return PTX_ERR_NOMEM;
    for (;;) {
        if (cap - len <= 2) {
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                return PTX_ERR_NOMEM;
            }
            buf = b;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 2, f);
        len += n;
        if (len > PTX_INPUT_MAX) {
            free(buf);
            *over = true;
            return PTX_OK;
        }
        if (n == 0 && (feof(f) || ferror(f)))
            break;
    }
    if (ferror(f)) {
        ctx->io_error = ptx_arena_strndup(&ctx->arena, strerror(errno), strlen(strerror(errno)));
        free(buf);
        return PTX_ERR_IO;
    }
    buf[len] = buf[len + 1] = '\0';
    ctx->src = buf;
    ctx->srclen = len;
    return PTX_OK;
}

ptx_status ptx_parse_file(ptx_context *ctx, const char *path,
                          const ptx_module **out)
{
    if (!ctx || !path || ctx->parsed)
        return PTX_ERR_USAGE;
    ctx->parsed = true;
    if (out)
        *out = NULL;
    FILE *volatile f = NULL;
    bool is_stdin = strcmp(path, "-") == 0;
    if (setjmp(ctx->oom)) {
        if (f && !is_stdin)
            fclose(f);
        ctx->module = NULL;
        return PTX_ERR_NOMEM;
    }
    ctx->filename = is_stdin ? "<stdin>" : ptx_arena_strndup(&ctx->arena, path, strlen(path));
    f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        const char *e = strerror(errno);
        ctx->io_error = ptx_arena_strndup(&ctx->arena, e, strlen(e));
        return PTX_ERR_IO;
    }
    struct stat sb;
    bool have_stat = fstat(fileno(f), &sb) == 0;
    if (have_stat && S_ISDIR(sb.st_mode)) {
        const char *e = strerror(EISDIR);
        ctx->io_error = ptx_arena_strndup(&ctx->arena, e, strlen(e));
        if (!is_stdin)
            fclose(f);
        return PTX_ERR_IO;
    }
    /* a regular file's size is known: one that is too large is not read */
    uint64_t size = have_stat && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
    bool over = size > PTX_INPUT_MAX;
    ptx_status st = over ? PTX_OK : read_stream(ctx, f, size, &over);
    if (!is_stdin)
        fclose(f);
    f = NULL;
    if (st != PTX_OK)
        return st;
    if (over)
        st = too_large(ctx, size > PTX_INPUT_MAX ? size : 0);
    else
        st = parse_owned(ctx);
    if (out)
        *out = ctx->module;
    return st;
}
