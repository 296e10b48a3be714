/* The parse driver: reads the input into the context, runs the scanner
 * and the parser (which build the tree) and then the semantic pass, and
 * sorts the diagnostics into source order.  The top layer of the
 * library's parsing: it calls the layers below it (parser -> scanner ->
 * fast lane -> builders), and none of them calls it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fastlane.h"
#include "ptx.tab.h"

/* Here rather than with the other settings: the name is checked against
 * the builders' table of targets (build_module.c), which the context's
 * layer sits below. */
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

/* Every allocation of a parse is in the arena, the parser's stacks and
 * the scanner's included, so a jump out of memory leaks nothing. */
int ptx_run_parser(ptx_context *ctx)
{
    ptx_parser_state ps;
    ptx_scanner_open(&ps, ctx);
    int status = ptx_yyparse(&ps);
    ctx->tokens_parsed = ps.tokens;
    ptx_scanner_close(&ps);
    return status;
}

size_t ptx_run_scanner(ptx_context *ctx)
{
    ptx_parser_state ps;
    ptx_scanner_open(&ps, ctx);
    ps.alone = true;
    size_t n = 0;
    PTX_YYSTYPE lval;
    PTX_YYLTYPE lloc;
    while (ptx_yylex(&lval, &lloc, &ps) != T_YYEOF && !ctx->stopped)
        n++;
    ptx_scanner_close(&ps);
    return n;
}

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
    ptx_big_free(ctx->src, ctx->src_mapped);
    ctx->src_mapped = 0;
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

/* Each module item as the grammar makes it: the semantic pass checks it
 * against the items before it, as ptxas reads a module, so that the tree
 * is read while it is in the cache.  In a parse that keeps no tree, a
 * function's body, built in ctx->body (build_decl.c), is then let go, and
 * the next function's nodes reuse its memory: a check's memory stays near
 * the input's size.  What outlives the body is allocated elsewhere (the
 * context's arena, the names, the pass's tables), and nothing refers into
 * it once the pass is out of the function, its scopes closed.  The body
 * is kept, and none after it let go, when the parser has read a token
 * past the function (it could hold nodes built in the body arena) or a
 * syntax error came (recovery can leave what follows built in it). */
static void item_done(ptx_context *ctx, ptx_node *item, bool at_rest)
{
    if (!item)
        return;
    if (!ctx->no_validate) {
        ptx_sema_item(ctx, item);
        ptx_limits_item(ctx, item);
    }
    if (ctx->keep_tree || ctx->bodies_kept || item->kind != PTX_NODE_FUNC)
        return;
    ptx_func *f = (ptx_func *)item;
    if (!f->body)
        return;
    if (!at_rest || ctx->syntax_error || ctx->tree != &ctx->arena) {
        ctx->bodies_kept = true;
        return;
    }
    /* a definition still: the pass tells a second one by its body */
    ptx_block *empty = ptx_arena_zalloc(&ctx->arena, sizeof *empty);
    empty->base = f->body->base;
    empty->base.next = NULL;
    f->body = empty;
    ptx_arena_reset(&ctx->body);
}

/* Out of memory, or the parse over: the pass's tables go. */
static void parse_over(ptx_context *ctx)
{
    ctx->on_item = NULL;
    ptx_sema_end(ctx);
    ctx->tree = &ctx->arena;
    if (!ctx->keep_tree)
        ctx->module = NULL;
}

/* Runs after the caller has armed ctx->oom with setjmp. */
static ptx_status parse_owned(ptx_context *ctx)
{
    _Static_assert(PTX_INPUT_MAX < UINT32_MAX - 2, "offsets up to srclen + 1 fit in 32 bits");
    ctx->on_item = item_done;
    ptx_arena_size_for(&ctx->arena, ctx->srclen, PTX_ARENA_LARGE);
    ptx_arena_size_for(&ctx->body, ctx->srclen, PTX_ARENA_LARGE);
    ptx_pool_init(&ctx->pool, ctx->srclen);
    ptx_run_parser(ctx);
    if (!ctx->no_validate)
        ptx_limits_end(ctx);
    parse_over(ctx);
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
        parse_over(ctx);
        ctx->module = NULL;
        return PTX_ERR_NOMEM;
    }
    if (name)
        ctx->filename = ptx_arena_strndup(&ctx->arena, name, strlen(name));
    if (len > PTX_INPUT_MAX)
        return too_large(ctx, len);
    /* a large copy in huge pages, as read_stream reads a file */
    ctx->src = ptx_big_alloc(len + 2, &ctx->src_mapped);
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
    /* a large file's buffer is mapped with huge pages (ptx_big_alloc):
     * every pass over the source then misses the TLB once per 2 MB, not
     * once per 4 KB (on a 52.7 MB module, a quarter of the CPU time) */
    size_t cap = size ? (size_t)size + 3 : 1 << 16, len = 0, mapped;
    char *buf = ptx_big_alloc(cap, &mapped);
    if (!buf)
        return PTX_ERR_NOMEM;
    for (;;) {
        if (cap - len <= 2) {
            /* the file grew while read, or a pipe: doubled, from malloc */
            char *b = mapped ? malloc(cap * 2) : realloc(buf, cap * 2);
            if (!b) {
                ptx_big_free(buf, mapped);
                return PTX_ERR_NOMEM;
            }
            if (mapped) {
                memcpy(b, buf, len);
                ptx_big_free(buf, mapped);
                mapped = 0;
            }
            buf = b;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 2, f);
        len += n;
        if (len > PTX_INPUT_MAX) {
            ptx_big_free(buf, mapped);
            *over = true;
            return PTX_OK;
        }
        if (n == 0 && (feof(f) || ferror(f)))
            break;
    }
    if (ferror(f)) {
        ctx->io_error = ptx_arena_strndup(&ctx->arena, strerror(errno), strlen(strerror(errno)));
        ptx_big_free(buf, mapped);
        return PTX_ERR_IO;
    }
    buf[len] = buf[len + 1] = '\0';
    ctx->src = buf;
    ctx->src_mapped = mapped;
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
        parse_over(ctx);
        ctx->module = NULL;
        return PTX_ERR_NOMEM;
    }
    f = is_stdin ? stdin : fopen(path, "rb");
    int open_errno = errno;
    struct stat sb;
    bool have_stat = f && fstat(fileno(f), &sb) == 0;
    /* the arena's first block is a large file's 2 MB one, the name in it */
    if (have_stat && S_ISREG(sb.st_mode))
        ptx_arena_size_for(&ctx->arena, (size_t)sb.st_size, PTX_ARENA_LARGE);
    ctx->filename = is_stdin ? "<stdin>" : ptx_arena_strndup(&ctx->arena, path, strlen(path));
    if (!f) {
        const char *e = strerror(open_errno);
        ctx->io_error = ptx_arena_strndup(&ctx->arena, e, strlen(e));
        return PTX_ERR_IO;
    }
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
