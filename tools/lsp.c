/* ptx-front --lsp: the language server (see lsp.h and doc/editors.md).
 *
 * One thread, one loop: read a framed message, answer it, repeat.  A
 * document is parsed again (a fresh context) when it changes, but not
 * while more input is already waiting: a burst of edits is parsed once,
 * when the burst ends or a request needs the tree.  JSON is jansson's
 * (kept in Debian, reference counted, no global state but its hash
 * seed); the library knows nothing of it.
 *
 * Positions: LSP counts UTF-16 code units by default, UTF-8 bytes when
 * the client offers "utf-8" in general.positionEncodings; the library
 * counts bytes from the start of the buffer.  doc_offset/doc_position
 * convert, through each document's table of line starts. */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "ptx/ptx.h"
#include "lsp.h"

/* JSON-RPC and LSP error codes */
enum {
    E_PARSE = -32700, E_INVALID_REQUEST = -32600, E_METHOD = -32601, E_PARAMS = -32602,
    E_INTERNAL = -32603, E_NOT_INITIALIZED = -32002, E_REQUEST_FAILED = -32803
};

/* the largest message body taken (a 10 MB module sent whole is ~11 MB
 * of JSON); a longer one is skipped with an error */
#define MAX_BODY (256u << 20)
#define MAX_HEADER_LINE 8192

/* ---- growing byte buffers ------------------------------------------------ */

typedef struct buf {
    char *p;
    size_t len, cap;
    bool failed;
} buf;

static bool buf_add(buf *b, const char *s, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return false;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return true;
}

static bool buf_str(buf *b, const char *s)
{
    return buf_add(b, s, strlen(s));
}

static int buf_write(void *user, const char *data, size_t len)
{
    return buf_add(user, data, len) ? 0 : 1;
}

/* ---- documents ------------------------------------------------------------- */

/* A name used in the module, and what it stands for (from
 * ptx_resolve_names), or a declaration (key: where the name is declared,
 * as ptx_symbol.span.off gives it, so that uses and declarations meet). */
typedef struct ref {
    uint32_t off, len;          /* the name as written here */
    uint32_t key;               /* the declaration's offset; PTX_NO_OFFSET: special */
    uint32_t decl_len;
    const ptx_name *name;       /* the use's name (%r1 of %r<5>); a declaration's */
    const ptx_node *decl;       /* as ptx_symbol.decl */
    uint8_t kind;               /* ptx_symbol_kind */
    uint8_t type, space;
    bool is_decl;               /* a declaration, not a use */
    bool range;                 /* the declaration of a %name<N> range */
} ref;

typedef struct doc {
    char *uri;
    char *text;                 /* the document as the client has it */
    size_t len;
    int64_t version;
    bool cuda;                  /* a .cu file: inline asm (see parse_cuda) */
    uint32_t *lines;            /* where each line starts; nlines >= 1 */
    size_t nlines;
    bool dirty;                 /* changed since the last parse */
    bool unpublished;           /* parsed, its diagnostics not yet sent */
    ptx_context *ctx;
    const ptx_module *m;
    ptx_status status;
    ref *refs;                  /* uses and declarations, sorted by off */
    size_t nrefs;
    bool indexed;
    struct doc *next;
} doc;

typedef struct server {
    int in_fd, out_fd;
    lsp_settings set;
    bool utf8;                  /* positions in bytes, not UTF-16 units */
    bool initialized, shut_down, exited, dead;
    bool warm;                  /* the instruction tables' first use is done */
    doc *docs;
    /* the input buffer */
    char *in;
    size_t in_start, in_end, in_cap;
    bool in_eof;
    /* --explain's text by instruction name, and the instruction list */
    struct explained *explained;
    char *list;
} server;

/* ---- writing messages ---------------------------------------------------- */

static bool write_all(server *s, const char *p, size_t n)
{
    while (n && !s->dead) {
        ssize_t w = write(s->out_fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            s->dead = true;     /* the client went away */
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return !s->dead;
}

/* Sends `msg` (and drops the reference). */
static void send_json(server *s, json_t *msg)
{
    if (!msg)
        return;
    json_object_set_new(msg, "jsonrpc", json_string("2.0"));
    char *body = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!body) {
        s->dead = true;
        return;
    }
    char head[64];
    size_t n = strlen(body);
    int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
    if (write_all(s, head, (size_t)h))
        write_all(s, body, n);
    free(body);
}

static void reply(server *s, json_t *id, json_t *result)
{
    json_t *msg = json_object();
    json_object_set(msg, "id", id ? id : json_null());
    json_object_set_new(msg, "result", result ? result : json_null());
    send_json(s, msg);
}

static void reply_error(server *s, json_t *id, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void reply_error(server *s, json_t *id, int code, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    json_t *msg = json_object();
    json_object_set(msg, "id", id ? id : json_null());
    json_object_set_new(msg, "error", json_pack("{s:i,s:s}", "code", code, "message", text));
    send_json(s, msg);
}

/* A notification's trouble, which has no reply: said in the client's log. */
static void log_message(server *s, int type, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void log_message(server *s, int type, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    send_json(s, json_pack("{s:s,s:{s:i,s:s}}", "method", "window/logMessage", "params", "type", type,
                           "message", text));
}

/* ---- positions ------------------------------------------------------------- */

static bool doc_index_lines(doc *d)
{
    size_t n = 1;
    for (size_t i = 0; i < d->len; i++)
        n += d->text[i] == '\n';
    uint32_t *lines = malloc(n * sizeof *lines);
    if (!lines)
        return false;
    size_t k = 0;
    lines[k++] = 0;
    for (size_t i = 0; i < d->len; i++)
        if (d->text[i] == '\n')
            lines[k++] = (uint32_t)(i + 1);
    free(d->lines);
    d->lines = lines;
    d->nlines = n;
    return true;
}

/* Where line `l`'s text ends (before its "\n" or "\r\n"). */
static size_t line_end(const doc *d, size_t l)
{
    size_t e = l + 1 < d->nlines ? d->lines[l + 1] - 1 : d->len;
    if (e > d->lines[l] && l + 1 < d->nlines && d->text[e - 1] == '\r')
        e--;
    return e;
}

/* Code units of the byte at p: a lead byte of a 4-byte sequence is two
 * UTF-16 units, continuation bytes none. */
static unsigned units(const server *s, unsigned char c)
{
    if (s->utf8)
        return 1;
    if ((c & 0xC0) == 0x80)
        return 0;
    return c >= 0xF0 ? 2 : 1;
}

/* The line (from 0) of a byte offset. */
static size_t line_of(const doc *d, size_t off)
{
    size_t lo = 0, hi = d->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (d->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static json_t *position(const server *s, const doc *d, size_t off)
{
    if (off > d->len)
        off = d->len;
    size_t lo = line_of(d, off);
    size_t ch = 0;
    for (size_t i = d->lines[lo]; i < off; i++)
        ch += units(s, (unsigned char)d->text[i]);
    return json_pack("{s:I,s:I}", "line", (json_int_t)lo, "character", (json_int_t)ch);
}

static json_t *range(const server *s, const doc *d, size_t off, size_t len)
{
    return json_pack("{s:o,s:o}", "start", position(s, d, off), "end", position(s, d, off + len));
}

/* A Position object to a byte offset.  A line past the end, negative
 * numbers and non-numbers are errors (false, *why said); a character past
 * the line's end means the end (LSP 3.17, Position). */
static bool offset_of(const server *s, const doc *d, json_t *pos, size_t *off, const char **why)
{
    json_t *jl = json_object_get(pos, "line"), *jc = json_object_get(pos, "character");
    if (!json_is_integer(jl) || !json_is_integer(jc)) {
        *why = "a position needs integer line and character";
        return false;
    }
    json_int_t l = json_integer_value(jl), c = json_integer_value(jc);
    if (l < 0 || c < 0) {
        *why = "negative line or character";
        return false;
    }
    if ((uint64_t)l >= d->nlines) {
        *why = "line past the end of the document";
        return false;
    }
    size_t i = d->lines[l], e = line_end(d, (size_t)l);
    json_int_t ch = 0;
    while (i < e && ch < c) {
        ch += units(s, (unsigned char)d->text[i]);
        i++;
        /* UTF-16: a character's continuation bytes are no units */
        while (!s->utf8 && i < e && ((unsigned char)d->text[i] & 0xC0) == 0x80)
            i++;
    }
    *off = i;
    return true;
}

/* ---- documents: finding, parsing, indexing -------------------------------------- */

static doc *find_doc(server *s, const char *uri)
{
    for (doc *d = s->docs; d; d = d->next)
        if (strcmp(d->uri, uri) == 0)
            return d;
    return NULL;
}

static void doc_drop_parse(doc *d)
{
    ptx_context_free(d->ctx);
    d->ctx = NULL;
    d->m = NULL;
    free(d->refs);
    d->refs = NULL;
    d->nrefs = 0;
    d->indexed = false;
}

static void doc_free(doc *d)
{
    doc_drop_parse(d);
    free(d->uri);
    free(d->text);
    free(d->lines);
    free(d);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

/* A CUDA C++ document (.cu, .cuh, or languageId cuda): its asm
 * statements are checked by the library (ptx_parse_cuda), for the
 * server's --target, and their diagnostics, at the document's own lines
 * and columns inside the string literals, are published like a
 * module's.  There is no module to answer hover and the like from. */
static void parse_cuda(server *s, doc *d)
{
    d->ctx = ptx_context_new();
    if (!d->ctx)
        return;
    ptx_context_set_max_errors(d->ctx, s->set.max_errors);
    ptx_cuda_options opt = { .target = s->set.target };
    d->status = ptx_parse_cuda(d->ctx, d->uri, d->text, d->len, &opt);
}

static void parse(server *s, doc *d)
{
    doc_drop_parse(d);
    d->dirty = false;
    d->unpublished = true;
    if (d->cuda) {
        parse_cuda(s, d);
        return;
    }
    d->ctx = ptx_context_new();
    if (!d->ctx)
        return;
    ptx_context_set_max_errors(d->ctx, s->set.max_errors);
    ptx_context_set_fast_lane(d->ctx, s->set.fast_lane);
    if (s->set.target)
        (void)ptx_context_set_target(d->ctx, s->set.target);
    d->status = ptx_parse_buffer(d->ctx, d->uri, d->text, d->len, &d->m);
}

static bool ensure_parsed(server *s, doc *d)
{
    if (d->dirty)
        parse(s, d);
    return d->m != NULL;
}

/* the diagnostics of d as LSP wants them: each note goes into the
 * relatedInformation of the diagnostic before it */
static json_t *diag_json(server *s, doc *d, size_t i)
{
    const ptx_diag *g = ptx_diag_get(d->ctx, i);
    size_t off = g->span.off == PTX_NO_OFFSET ? 0 : g->span.off, len = g->span.off == PTX_NO_OFFSET ? 0 : g->span.len;
    int sev = g->severity == PTX_SEV_ERROR ? 1 : g->severity == PTX_SEV_WARNING ? 2 : 3;
    json_t *j = json_pack("{s:o,s:i,s:s,s:s,s:s}", "range", range(s, d, off, len), "severity", sev, "code",
                          ptx_diag_code_name(g->code), "source", "ptx-front", "message", g->message);
    if (g->fixit)
        json_object_set_new(j, "data", json_pack("{s:s}", "fixit", g->fixit));
    json_t *related = NULL;
    for (size_t k = i + 1; k < ptx_diag_count(d->ctx); k++) {
        const ptx_diag *n = ptx_diag_get(d->ctx, k);
        if (n->severity != PTX_SEV_NOTE)
            break;
        if (!related)
            related = json_array();
        size_t no = n->span.off == PTX_NO_OFFSET ? 0 : n->span.off, nl = n->span.off == PTX_NO_OFFSET ? 0 : n->span.len;
        json_array_append_new(related, json_pack("{s:{s:s,s:o},s:s}", "location", "uri", d->uri, "range",
                                                 range(s, d, no, nl), "message", n->message));
    }
    if (related)
        json_object_set_new(j, "relatedInformation", related);
    return j;
}

/* Whether diagnostic i is a note that goes with the diagnostic before it
 * (and so is not published on its own). */
static bool is_attached_note(const ptx_context *ctx, size_t i)
{
    if (ptx_diag_get(ctx, i)->severity != PTX_SEV_NOTE)
        return false;
    while (i-- > 0)
        if (ptx_diag_get(ctx, i)->severity != PTX_SEV_NOTE)
            return true;
    return false;
}

static void publish(server *s, doc *d)
{
    json_t *arr = json_array();
    size_t n = d->ctx ? ptx_diag_count(d->ctx) : 0;
    for (size_t i = 0; i < n; i++)
        if (!is_attached_note(d->ctx, i))
            json_array_append_new(arr, diag_json(s, d, i));
    json_t *params = json_pack("{s:s,s:o}", "uri", d->uri, "diagnostics", arr);
    if (d->version >= 0)
        json_object_set_new(params, "version", json_integer(d->version));
    send_json(s, json_pack("{s:s,s:o}", "method", "textDocument/publishDiagnostics", "params", params));
}

/* -- the index of names ---- */

typedef struct refs_vec {
    ref *p;
    size_t n, cap;
    bool failed;
} refs_vec;

static void push_ref(refs_vec *v, ref r)
{
    if (v->failed)
        return;
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 256;
        ref *p = realloc(v->p, cap * sizeof *p);
        if (!p) {
            v->failed = true;
            return;
        }
        v->p = p;
        v->cap = cap;
    }
    v->p[v->n++] = r;
}

static bool on_name(void *user, const ptx_node *stmt, const ptx_expr *e, const ptx_symbol *sym)
{
    (void)stmt;
    refs_vec *v = user;
    ptx_span sp = ptx_expr_span(e);
    if (sp.off == PTX_NO_OFFSET || e->kind != PTX_EXPR_SYM)
        return true;
    ref r = { .off = sp.off, .len = sp.len, .key = sym->span.off, .decl_len = sym->span.len,
              .name = ptx_expr_name(e), .decl = sym->decl, .kind = (uint8_t)sym->kind,
              .type = (uint8_t)sym->type, .space = (uint8_t)sym->space };
    /* a name with a selector (%tid.x, %r1.x): the name's own length */
    const ptx_name *sel = ptx_expr_sel(e);
    if (sel && sym->kind != PTX_SYM_SPECIAL && r.len > sel->len)
        r.len -= sel->len;
    push_ref(v, r);
    return true;
}

/* Where `name` stands as a word in [from, to) of the text, or `from`. */
static uint32_t find_word(const char *text, uint32_t from, uint32_t to, const char *name)
{
    size_t n = strlen(name);
    for (uint32_t i = from; n && i + n <= to; i++) {
        if (memcmp(text + i, name, n) != 0)
            continue;
        char b = i > 0 ? text[i - 1] : ' ', a = i + n < to ? text[i + n] : ' ';
        bool word_b = b == '_' || b == '$' || b == '%' || (b >= '0' && b <= '9') || ((b | 32) >= 'a' && (b | 32) <= 'z');
        bool word_a = a == '_' || a == '$' || (a >= '0' && a <= '9') || ((a | 32) >= 'a' && (a | 32) <= 'z');
        if (!word_b && !word_a)
            return i;
    }
    return from;
}

static void push_decl(refs_vec *v, const ptx_decl *dc)
{
    for (uint32_t k = 0; k < dc->nvars; k++) {
        const ptx_var *var = &dc->vars[k];
        if (var->span.off == PTX_NO_OFFSET)
            continue;
        ref r = { .off = var->span.off, .len = var->name->len, .key = var->span.off, .decl_len = var->span.len,
                  .name = var->name, .decl = &dc->base, .kind = dc->space == PTX_SPACE_REG ? PTX_SYM_REGISTER : PTX_SYM_VARIABLE,
                  .type = dc->type, .space = dc->space, .is_decl = true, .range = var->has_range };
        if (r.len > var->span.len)
            r.len = var->span.len;
        push_ref(v, r);
    }
}

/* A function's name in its header (the span of the node is the whole
 * function). */
static ptx_span func_name_span(const doc *d, const ptx_func *f)
{
    uint32_t end = f->body ? f->body->base.span.off : f->base.span.off + f->base.span.len;
    if (end == PTX_NO_OFFSET || end > d->len)
        end = (uint32_t)d->len;
    /* after the return list, if any: search after the keyword */
    uint32_t from = f->base.span.off;
    uint32_t at = from;
    const char *key = f->is_entry ? ".entry" : ".func";
    for (uint32_t i = from; i + strlen(key) <= end; i++)
        if (memcmp(d->text + i, key, strlen(key)) == 0) {
            at = i + (uint32_t)strlen(key);
            break;
        }
    /* the return list comes before the name: skip a parenthesised list */
    uint32_t i = at;
    while (i < end && (d->text[i] == ' ' || d->text[i] == '\t' || d->text[i] == '\n' || d->text[i] == '\r'))
        i++;
    if (i < end && d->text[i] == '(') {
        int depth = 0;
        for (; i < end; i++) {
            if (d->text[i] == '(')
                depth++;
            else if (d->text[i] == ')' && --depth == 0) {
                i++;
                break;
            }
        }
    }
    ptx_span sp = { find_word(d->text, i, end, f->name->text), f->name->len };
    if (memcmp(d->text + sp.off, f->name->text, f->name->len) != 0)
        sp.len = 0;
    return sp;
}

static int ref_cmp(const void *a, const void *b)
{
    const ref *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

static void build_index(server *s, doc *d)
{
    (void)s;
    if (d->indexed || !d->m)
        return;
    refs_vec v = { 0 };
    ptx_resolve_names(d->m, on_name, &v);
    ptx_iter *it = ptx_iter_new(d->m);
    const ptx_node *n;
    ptx_event ev;
    while (it && (ev = ptx_iter_next(it, &n)) > 0) {
        if (ev != PTX_EVENT_ENTER)
            continue;
        switch (n->kind) {
        case PTX_NODE_DECL:
            push_decl(&v, (const ptx_decl *)n);
            break;
        case PTX_NODE_FUNC: {
            const ptx_func *f = (const ptx_func *)n;
            if (f->base.span.off == PTX_NO_OFFSET)
                break;
            /* a prototype goes with the definition (looked up: few
             * functions have both; the lookup walks the module) */
            const ptx_func *def = f->body ? f : ptx_find_function(d->m, f->name->text);
            ptx_span sp = func_name_span(d, f);
            if (sp.len)
                push_ref(&v, (ref){ .off = sp.off, .len = sp.len, .key = def ? def->base.span.off : f->base.span.off,
                                    .name = f->name, .decl = &(def ? def : f)->base, .kind = PTX_SYM_FUNCTION,
                                    .is_decl = true });
            for (uint32_t k = 0; k < f->nret; k++)
                push_decl(&v, f->ret[k]);
            for (uint32_t k = 0; k < f->nparams; k++)
                push_decl(&v, f->params[k]);
            break;
        }
        case PTX_NODE_LABEL: {
            const ptx_label *l = (const ptx_label *)n;
            if (n->span.off != PTX_NO_OFFSET)
                push_ref(&v, (ref){ .off = n->span.off, .len = l->name->len, .key = n->span.off, .decl_len = l->name->len,
                                    .name = l->name, .decl = n, .kind = PTX_SYM_LABEL, .is_decl = true });
            break;
        }
        default:
            break;
        }
    }
    ptx_iter_free(it);
    if (v.failed) {
        free(v.p);
        return;
    }
    if (v.n)
        qsort(v.p, v.n, sizeof *v.p, ref_cmp);
    d->refs = v.p;
    d->nrefs = v.n;
    d->indexed = true;
}

/* The name at `off`: a use or a declaration, or NULL. */
static const ref *ref_at(const doc *d, size_t off)
{
    size_t lo = 0, hi = d->nrefs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (d->refs[mid].off <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* the last one starting at or before off, or the one before it (a
     * declaration and a use may share a start) */
    for (size_t k = lo; k-- > 0 && k + 3 >= lo;) {
        const ref *r = &d->refs[k];
        if (off >= r->off && off <= r->off + r->len)
            return r;
    }
    return NULL;
}

static bool same_symbol(const ref *a, const ref *b)
{
    if (a->kind != b->kind || a->key != b->key || a->key == PTX_NO_OFFSET)
        return false;
    /* %r1 and %r2 of one %r<5>: the same declaration, not the same name;
     * the range's declaration goes with all of them */
    return a->name == b->name || (a->is_decl && a->range) || (b->is_decl && b->range);
}

/* ---- the instruction forms (--explain's text) --------------------------------------- */

typedef struct explained {
    char *name;
    char *text;                 /* NULL: the tables have no such instruction */
    struct explained *next;
} explained;

static const char *explain(server *s, const char *name)
{
    for (explained *e = s->explained; e; e = e->next)
        if (strcmp(e->name, name) == 0)
            return e->text;
    explained *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->name = strdup(name);
    buf b = { 0 };
    if (ptx_print_instruction_forms(name, buf_write, &b) == PTX_OK && !b.failed)
        e->text = b.p;
    else
        free(b.p);
    e->next = s->explained;
    s->explained = e;
    return e->text;
}

/* A target as numbers: sm_90a is 90 and 'a'. */
static bool parse_sm(const char *t, unsigned *num, char *suffix)
{
    if (strncmp(t, "sm_", 3) != 0 && strncmp(t, "compute_", 8) != 0)
        return false;
    t = strchr(t, '_') + 1;
    char *end;
    unsigned long v = strtoul(t, &end, 10);
    if (end == t)
        return false;
    *num = (unsigned)v;
    *suffix = (*end == 'a' || *end == 'f') ? *end : 0;
    return true;
}

/* Whether a form's "PTX ISA V, TARGET..." line allows the module's
 * version and target (what --explain says: "all targets", "sm_80 or
 * later", "sm_100a only", "sm_100f family"); true when the module has
 * none to compare. */
static bool form_allowed(const char *avail, const ptx_module *m, const char *target)
{
    unsigned maj, min;
    char tgt[32] = "";
    if (sscanf(avail, "PTX ISA %u.%u, %31[a-z_0-9]", &maj, &min, tgt) < 2)
        return true;
    if (m && (m->version_major || m->version_minor) &&
        (maj > m->version_major || (maj == m->version_major && min > m->version_minor)))
        return false;
    unsigned have, need;
    char hs, ns;
    if (!target || !parse_sm(target, &have, &hs) || !parse_sm(tgt, &need, &ns))
        return true;        /* "all targets", or no target to compare */
    const char *rest = avail + strlen("PTX ISA ");
    rest = strchr(rest, ',');
    rest = rest ? rest + 2 + strlen(tgt) : "";
    if (strncmp(rest, " only", 5) == 0)
        return have == need && hs == ns;
    if (strncmp(rest, " family", 7) == 0)
        return hs && have >= need && have / 10 == need / 10;
    return have >= need;
}

/* The forms of `name` that the module's version and target allow, as
 * --explain writes them; *total and *kept count the forms.  Malloc'd,
 * NULL when the tables do not know the name. */
static char *forms_for(server *s, const char *name, const ptx_module *m, const char *target, size_t *total,
                       size_t *kept)
{
    const char *text = explain(s, name);
    *total = *kept = 0;
    if (!text)
        return NULL;
    buf out = { 0 };
    const char *p = strchr(text, '\n');
    p = p ? p + 1 : text + strlen(text);
    while (*p) {
        /* a form: its head line ("  ld..."), then lines indented by six */
        const char *start = p, *avail = NULL;
        do {
            const char *nl = strchr(p, '\n');
            const char *next = nl ? nl + 1 : p + strlen(p);
            if (strncmp(p, "      PTX ISA ", 14) == 0)
                avail = p + 6;
            p = next;
        } while (*p && strncmp(p, "      ", 6) == 0);
        ++*total;
        if (!avail || form_allowed(avail, m, target)) {
            ++*kept;
            buf_add(&out, start, (size_t)(p - start));
        }
    }
    if (out.failed) {
        free(out.p);
        return NULL;
    }
    if (!out.p)
        out.p = strdup("");
    return out.p;
}

static const char *module_target(const server *s, const ptx_module *m)
{
    if (s->set.target)
        return s->set.target;
    return m && m->ntargets ? m->targets[0]->text : NULL;
}

/* ---- one-line meanings: special registers and directives ------------------------- */

typedef struct meaning {
    const char *name, *text;
} meaning;

static const meaning specials[] = {
    { "%tid", "thread identifier within a CTA (.x, .y, .z)" },
    { "%ntid", "number of threads in a CTA, per dimension (.x, .y, .z)" },
    { "%laneid", "lane of the thread within its warp (0 to WARP_SZ-1)" },
    { "%warpid", "warp identifier within the CTA (may change during execution)" },
    { "%nwarpid", "the largest warp identifier plus one" },
    { "%ctaid", "CTA identifier within the grid (.x, .y, .z)" },
    { "%nctaid", "number of CTAs in the grid, per dimension (.x, .y, .z)" },
    { "%smid", "identifier of the SM the thread runs on (may change)" },
    { "%nsmid", "the largest SM identifier plus one" },
    { "%gridid", "temporal grid identifier of the launch" },
    { "%is_explicit_cluster", "whether the launch set the cluster size explicitly" },
    { "%clusterid", "cluster identifier within the grid (.x, .y, .z)" },
    { "%nclusterid", "number of clusters in the grid, per dimension" },
    { "%cluster_ctaid", "CTA identifier within its cluster (.x, .y, .z)" },
    { "%cluster_nctaid", "number of CTAs in the cluster, per dimension" },
    { "%cluster_ctarank", "CTA rank within its cluster, over all dimensions" },
    { "%cluster_nctarank", "number of CTAs in the cluster, over all dimensions" },
    { "%lanemask_eq", "32-bit mask with the bit of the thread's lane set" },
    { "%lanemask_le", "32-bit mask of the lanes at or below the thread's" },
    { "%lanemask_lt", "32-bit mask of the lanes below the thread's" },
    { "%lanemask_ge", "32-bit mask of the lanes at or above the thread's" },
    { "%lanemask_gt", "32-bit mask of the lanes above the thread's" },
    { "%clock", "32-bit cycle counter of the SM (wraps)" },
    { "%clock64", "64-bit cycle counter of the SM" },
    { "%clock_hi", "the upper 32 bits of %clock64" },
    { "%pm0", "performance-monitoring counter (%pm0 to %pm7)" },
    { "%pm0_64", "64-bit performance-monitoring counter (%pm0_64 to %pm7_64)" },
    { "%envreg", "driver-defined read-only environment register (%envreg0 to %envreg31)" },
    { "%globaltimer", "64-bit global nanosecond timer" },
    { "%globaltimer_lo", "lower 32 bits of %globaltimer" },
    { "%globaltimer_hi", "upper 32 bits of %globaltimer" },
    { "%reserved_smem_offset_begin", "start of the shared memory reserved for NVIDIA's use" },
    { "%reserved_smem_offset_end", "end of the shared memory reserved for NVIDIA's use" },
    { "%reserved_smem_offset_cap", "size of the shared memory reserved for NVIDIA's use" },
    { "%reserved_smem_offset_0", "an offset in the reserved shared memory region" },
    { "%total_smem_size", "total shared memory of the CTA (static and dynamic)" },
    { "%aggr_smem_size", "total shared memory of the CTA, reserved region included" },
    { "%dynamic_smem_size", "dynamic shared memory of the CTA at launch" },
    { "%current_graph_exec", "handle of the CUDA graph the kernel runs in" },
    { "WARP_SZ", "the warp size, a constant (32)" },
    { NULL, NULL }
};

static const meaning directives[] = {
    { ".version", "PTX ISA version of the module; the first directive" },
    { ".target", "target architecture and platform options of the module" },
    { ".address_size", "address size of the module: 32 or 64" },
    { ".entry", "a kernel: an entry point launched from the host" },
    { ".func", "a device function, called with call" },
    { ".reg", "registers: fast per-thread storage" },
    { ".sreg", "special registers: read-only, predefined" },
    { ".const", "constant memory: read-only, per grid" },
    { ".global", "global memory, shared by all threads" },
    { ".local", "local memory: private per thread" },
    { ".param", "parameters: of kernels (per grid) or of functions (per thread)" },
    { ".shared", "shared memory: per CTA (or cluster)" },
    { ".tex", "texture memory (global, deprecated space)" },
    { ".extern", "linkage: declared here, defined elsewhere" },
    { ".visible", "linkage: visible outside the module" },
    { ".weak", "linkage: visible outside, may be overridden" },
    { ".common", "linkage: visible outside, merged by size" },
    { ".align", "alignment of a variable in bytes" },
    { ".maxnreg", "most registers a thread of the kernel may use" },
    { ".maxntid", "most threads of a CTA" },
    { ".reqntid", "exact number of threads of a CTA" },
    { ".minnctapersm", "fewest CTAs per SM" },
    { ".maxnctapersm", "most CTAs per SM (deprecated)" },
    { ".reqnctapercluster", "exact number of CTAs per cluster" },
    { ".explicitcluster", "the kernel must be launched with a cluster size" },
    { ".maxclusterrank", "most CTAs in a cluster" },
    { ".blocksareclusters", "the launch's blocks are clusters" },
    { ".noreturn", "the function never returns" },
    { ".pragma", "a hint to the compiler, such as \"nounroll\"" },
    { ".loc", "source file, line and column of what follows" },
    { ".file", "a source file index for .loc" },
    { ".section", "a DWARF debug section" },
    { ".callprototype", "a function prototype for indirect calls" },
    { ".calltargets", "the functions an indirect call may reach" },
    { ".branchtargets", "the labels an indirect branch (brx.idx) may reach" },
    { ".alias", "another name of a function" },
    { ".attribute", "attributes of a variable or function (.managed, .unified)" },
    { ".ptr", "kernel parameter attribute: a pointer, its space and alignment" },
    { NULL, NULL }
};

static const char *meaning_of(const meaning *t, const char *name, size_t len)
{
    for (; t->name; t++)
        if (strlen(t->name) == len && memcmp(t->name, name, len) == 0)
            return t->text;
    return NULL;
}

/* A special register's meaning: %tid.x by %tid, %pm3 by %pm0, %envreg7
 * by %envreg */
static const char *special_meaning(const char *name, size_t len)
{
    size_t base = len;
    const char *dot = memchr(name, '.', len);
    if (dot)
        base = (size_t)(dot - name);
    const char *m = meaning_of(specials, name, base);
    if (m)
        return m;
    if (base >= 4 && memcmp(name, "%pm", 3) == 0)
        return meaning_of(specials, base > 4 ? "%pm0_64" : "%pm0", base > 4 ? 7 : 4);
    if (base > 7 && memcmp(name, "%envreg", 7) == 0)
        return meaning_of(specials, "%envreg", 7);
    return NULL;
}

/* ---- requests about a place -------------------------------------------------------- */

static bool is_word(char c)
{
    return c == '_' || c == '$' || c == '%' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* The document and byte offset of a TextDocumentPositionParams; replies
 * with an error and returns NULL when they are not good. */
static doc *doc_position(server *s, json_t *id, json_t *params, size_t *off)
{
    const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
    if (!uri) {
        reply_error(s, id, E_PARAMS, "textDocument.uri is missing");
        return NULL;
    }
    doc *d = find_doc(s, uri);
    if (!d) {
        reply_error(s, id, E_PARAMS, "no open document %s", uri);
        return NULL;
    }
    json_t *pos = json_object_get(params, "position");
    const char *why = "position is missing";
    if (off && (!json_is_object(pos) || !offset_of(s, d, pos, off, &why))) {
        reply_error(s, id, E_PARAMS, "%s", why);
        return NULL;
    }
    return d;
}

/* The instruction whose opcode and modifiers cover `off`, or NULL. */
static const ptx_instr *instr_at(const doc *d, size_t off)
{
    if (!d->m)
        return NULL;
    for (const ptx_node *item = d->m->first; item; item = item->next) {
        if (item->kind != PTX_NODE_FUNC || item->span.off == PTX_NO_OFFSET || off < item->span.off ||
            off >= (size_t)item->span.off + item->span.len)
            continue;
        ptx_iter *it = ptx_iter_new_node(item);
        const ptx_node *n;
        const ptx_instr *found = NULL;
        while (it && !found && ptx_iter_next(it, &n) > 0) {
            if (n->kind != PTX_NODE_INSTR || n->span.off == PTX_NO_OFFSET || off < n->span.off ||
                off > (size_t)n->span.off + n->span.len)
                continue;
            const ptx_instr *in = (const ptx_instr *)n;
            uint32_t op = ptx_mod_offset(in, -1);
            uint32_t end = op + ptx_instr_opcode(in)->len;
            if (in->nmods && ptx_mod_offset(in, in->nmods - 1) != PTX_NO_OFFSET)
                end = ptx_mod_offset(in, in->nmods - 1) + in->mods[in->nmods - 1].name->len;
            if (op != PTX_NO_OFFSET && off >= op && off <= end)
                found = in;
        }
        ptx_iter_free(it);
        return found;
    }
    return NULL;
}

/* The text of [off, off+len) on one line, blanks squeezed, at most max
 * bytes (then "..."). */
static void add_source(buf *b, const doc *d, size_t off, size_t len, size_t max)
{
    bool blank = false;
    size_t w = 0;
    for (size_t i = off; i < off + len && i < d->len; i++) {
        char c = d->text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            blank = true;
            continue;
        }
        if (w >= max) {
            buf_str(b, " ...");
            return;
        }
        if (blank && w)
            buf_add(b, " ", 1);
        blank = false;
        buf_add(b, &c, 1);
        w++;
    }
}

static json_t *markdown(buf *b)
{
    json_t *j = json_pack("{s:s,s:s}", "kind", "markdown", "value", b->p ? b->p : "");
    free(b->p);
    return j;
}

static void hover_instr(server *s, const doc *d, const ptx_instr *in, buf *b)
{
    /* the instruction's name: the opcode and the words of the name that
     * the tables marked (bar.sync, mma.sync.aligned: category NONE);
     * the opcode alone when it did not validate */
    char name[256];
    size_t n = (size_t)snprintf(name, sizeof name, "%s", ptx_instr_opcode(in)->text);
    for (size_t i = 0; in->family != PTX_FAMILY_NONE && i < in->nmods && in->mods[i].category == PTX_CAT_NONE &&
                       n + in->mods[i].name->len < sizeof name; i++)
        n += (size_t)snprintf(name + n, sizeof name - n, "%s", in->mods[i].name->text);
    if (!explain(s, name))
        snprintf(name, sizeof name, "%s", ptx_instr_opcode(in)->text);
    const char *target = module_target(s, d->m);
    size_t total, kept;
    char *forms = forms_for(s, name, d->m, target, &total, &kept);
    if (!forms) {
        buf_str(b, "`");
        buf_str(b, ptx_instr_opcode(in)->text);
        buf_str(b, "`: not an instruction of the PTX ISA 9.0 tables");
        return;
    }
    char head[512];
    snprintf(head, sizeof head, "**%s**: %zu of %zu forms for PTX ISA %u.%u, %s\n\n```\n", name, kept, total,
             d->m->version_major, d->m->version_minor, target ? target : "any target");
    buf_str(b, head);
    if (kept)
        buf_str(b, forms);
    else {
        /* none for this target: show them all, said so */
        free(forms);
        forms = forms_for(s, name, NULL, NULL, &total, &kept);
        buf_str(b, "(none for this target and version; all of them:)\n");
        if (forms)
            buf_str(b, forms);
    }
    buf_str(b, "```");
    free(forms);
}

static void hover_ref(const doc *d, const ref *r, buf *b)
{
    char line[64];
    switch (r->kind) {
    case PTX_SYM_REGISTER:
    case PTX_SYM_VARIABLE: {
        buf_str(b, r->kind == PTX_SYM_REGISTER ? "register `" : "variable `");
        buf_str(b, r->name->text);
        buf_str(b, "`");
        if (r->type) {
            buf_str(b, ": ");
            buf_str(b, ptx_space_name((ptx_space)r->space) ? ptx_space_name((ptx_space)r->space) : "");
            buf_str(b, " ");
            buf_str(b, ptx_type_name((ptx_type)r->type));
        }
        if (r->decl && r->decl->span.off != PTX_NO_OFFSET) {
            buf_str(b, "\n\n```ptx\n");
            add_source(b, d, r->decl->span.off, r->decl->span.len, 300);
            buf_str(b, "\n```\n");
            snprintf(line, sizeof line, "declared on line %u", (unsigned)(line_of(d, r->decl->span.off) + 1));
            buf_str(b, line);
        }
        break;
    }
    case PTX_SYM_FUNCTION: {
        const ptx_func *f = (const ptx_func *)r->decl;
        buf_str(b, f->is_entry ? "kernel `" : "function `");
        buf_str(b, f->name->text);
        buf_str(b, "`\n\n```ptx\n");
        uint32_t end = f->body && f->body->base.span.off != PTX_NO_OFFSET ? f->body->base.span.off
                                                                           : f->base.span.off + f->base.span.len;
        add_source(b, d, f->base.span.off, end - f->base.span.off, 400);
        buf_str(b, "\n```\n");
        snprintf(line, sizeof line, "%s on line %u", f->body ? "defined" : "declared",
                 (unsigned)(line_of(d, f->base.span.off) + 1));
        buf_str(b, line);
        break;
    }
    case PTX_SYM_LABEL:
        buf_str(b, "label `");
        buf_str(b, r->name->text);
        snprintf(line, sizeof line, "`, line %u", (unsigned)(line_of(d, r->key) + 1));
        buf_str(b, line);
        break;
    case PTX_SYM_SPECIAL: {
        const char *m = special_meaning(d->text + r->off, r->len);
        buf_str(b, "special register `");
        buf_add(b, d->text + r->off, r->len);
        buf_str(b, "`");
        if (m) {
            buf_str(b, ": ");
            buf_str(b, m);
        }
        break;
    }
    default:
        buf_str(b, "`");
        buf_str(b, r->name->text);
        buf_str(b, "`: declared nowhere");
        break;
    }
}

static void on_hover(server *s, json_t *id, json_t *params)
{
    size_t off;
    doc *d = doc_position(s, id, params, &off);
    if (!d)
        return;
    ensure_parsed(s, d);
    build_index(s, d);
    buf b = { 0 };
    size_t start = off, len = 0;
    const ref *r = ref_at(d, off);
    const ptx_instr *in;
    if (r) {
        hover_ref(d, r, &b);
        start = r->off;
        len = r->len;
    } else if ((in = instr_at(d, off))) {
        hover_instr(s, d, in, &b);
        start = ptx_mod_offset(in, -1);
        len = ptx_instr_opcode(in)->len;
    } else {
        /* a directive, or a special register outside an instruction */
        size_t a = off, e = off;
        while (a > 0 && is_word(d->text[a - 1]))
            a--;
        if (a > 0 && d->text[a - 1] == '.')
            a--;
        while (e < d->len && is_word(d->text[e]))
            e++;
        if (e == a && e < d->len && d->text[e] == '.')
            for (e++; e < d->len && is_word(d->text[e]);)
                e++;
        const char *m = e > a ? (d->text[a] == '%' || d->text[a] == 'W' ? special_meaning(d->text + a, e - a)
                                                                        : meaning_of(directives, d->text + a, e - a))
                              : NULL;
        if (!m) {
            reply(s, id, json_null());
            return;
        }
        buf_str(&b, "`");
        buf_add(&b, d->text + a, e - a);
        buf_str(&b, "`: ");
        buf_str(&b, m);
        start = a;
        len = e - a;
    }
    reply(s, id, json_pack("{s:o,s:o}", "contents", markdown(&b), "range", range(s, d, start, len)));
}

static json_t *location(server *s, const doc *d, size_t off, size_t len)
{
    return json_pack("{s:s,s:o}", "uri", d->uri, "range", range(s, d, off, len));
}

/* The declaration of r: where its name is written there. */
static bool decl_site(const doc *d, const ref *r, size_t *off, size_t *len)
{
    if (r->key == PTX_NO_OFFSET)
        return false;
    for (size_t k = 0; k < d->nrefs; k++) {
        const ref *x = &d->refs[k];
        if (x->is_decl && x->key == r->key && x->kind == r->kind &&
            (x->name == r->name || x->range || r->kind == PTX_SYM_FUNCTION)) {
            /* a function: its definition's name */
            if (r->kind == PTX_SYM_FUNCTION && x->off < r->key)
                continue;
            *off = x->off;
            *len = x->len;
            return true;
        }
    }
    *off = r->key;
    *len = r->decl_len;
    return true;
}

static void on_definition(server *s, json_t *id, json_t *params)
{
    size_t off;
    doc *d = doc_position(s, id, params, &off);
    if (!d)
        return;
    ensure_parsed(s, d);
    build_index(s, d);
    const ref *r = ref_at(d, off);
    size_t at, len;
    if (!r || !decl_site(d, r, &at, &len)) {
        reply(s, id, json_null());
        return;
    }
    reply(s, id, location(s, d, at, len));
}

static void on_references(server *s, json_t *id, json_t *params)
{
    size_t off;
    doc *d = doc_position(s, id, params, &off);
    if (!d)
        return;
    ensure_parsed(s, d);
    build_index(s, d);
    const ref *r = ref_at(d, off);
    json_t *arr = json_array();
    bool with_decl = json_is_true(json_object_get(json_object_get(params, "context"), "includeDeclaration"));
    for (size_t k = 0; r && k < d->nrefs; k++) {
        const ref *x = &d->refs[k];
        if (same_symbol(r, x) && (!x->is_decl || with_decl))
            json_array_append_new(arr, location(s, d, x->off, x->len));
    }
    reply(s, id, arr);
}

/* ---- document symbols ------------------------------------------------------------ */

enum { SK_FUNCTION = 12, SK_VARIABLE = 13, SK_CONSTANT = 14, SK_KEY = 20, SK_EVENT = 24 };

static json_t *symbol(server *s, const doc *d, const char *name, const char *detail, int kind, ptx_span all,
                      ptx_span sel)
{
    json_t *j = json_pack("{s:s,s:i,s:o,s:o}", "name", name, "kind", kind, "range", range(s, d, all.off, all.len),
                          "selectionRange", range(s, d, sel.off, sel.len));
    if (detail)
        json_object_set_new(j, "detail", json_string(detail));
    return j;
}

static void on_document_symbol(server *s, json_t *id, json_t *params)
{
    doc *d = doc_position(s, id, params, NULL);
    if (!d)
        return;
    ensure_parsed(s, d);
    json_t *arr = json_array();
    for (const ptx_node *n = d->m ? d->m->first : NULL; n; n = n->next) {
        if (n->span.off == PTX_NO_OFFSET)
            continue;
        if (n->kind == PTX_NODE_FUNC) {
            const ptx_func *f = (const ptx_func *)n;
            ptx_span sel = func_name_span(d, f);
            if (!sel.len)
                sel = n->span;
            json_t *sym = symbol(s, d, f->name->text, f->is_entry ? ".entry" : f->body ? ".func" : ".func (prototype)",
                                 f->is_entry ? SK_EVENT : SK_FUNCTION, n->span, sel);
            json_t *kids = json_array();
            ptx_iter *it = f->body ? ptx_iter_new_node(&f->body->base) : NULL;
            const ptx_node *c;
            ptx_event ev;
            while (it && (ev = ptx_iter_next(it, &c)) > 0)
                if (ev == PTX_EVENT_ENTER && c->kind == PTX_NODE_LABEL && c->span.off != PTX_NO_OFFSET) {
                    const ptx_label *l = (const ptx_label *)c;
                    ptx_span ls = { c->span.off, l->name->len };
                    json_array_append_new(kids, symbol(s, d, l->name->text, "label", SK_KEY, c->span, ls));
                }
            ptx_iter_free(it);
            json_object_set_new(sym, "children", kids);
            json_array_append_new(arr, sym);
        } else if (n->kind == PTX_NODE_DECL) {
            const ptx_decl *dc = (const ptx_decl *)n;
            char detail[48];
            snprintf(detail, sizeof detail, "%s %s", ptx_space_name((ptx_space)dc->space) ? ptx_space_name((ptx_space)dc->space) : "",
                     ptx_type_name((ptx_type)dc->type) ? ptx_type_name((ptx_type)dc->type) : "");
            for (uint32_t k = 0; k < dc->nvars; k++) {
                const ptx_var *v = &dc->vars[k];
                ptx_span sel = { v->span.off, v->name->len <= v->span.len ? v->name->len : v->span.len };
                json_array_append_new(arr, symbol(s, d, v->name->text, detail,
                                                  dc->space == PTX_SPACE_CONST ? SK_CONSTANT : SK_VARIABLE, n->span, sel));
            }
        }
    }
    reply(s, id, arr);
}

/* ---- completion --------------------------------------------------------------------- */

enum { CK_VARIABLE = 6, CK_PROPERTY = 10, CK_KEYWORD = 14, CK_ENUM_MEMBER = 20, CK_REFERENCE = 18, CK_FUNCTION = 3 };

typedef struct completion {
    server *s;
    doc *d;
    json_t *items;
    json_t *edit_range;         /* what an item replaces: the word typed */
    size_t count;
} completion;

static void item(completion *c, const char *label, int kind, const char *detail)
{
    /* a name once (the modifiers of many forms repeat far apart; long
     * lists, registers, are made without repeats) */
    size_t n = json_array_size(c->items);
    for (size_t i = n > 512 ? n - 64 : 0; i < n; i++)
        if (strcmp(json_string_value(json_object_get(json_array_get(c->items, i), "label")), label) == 0)
            return;
    json_t *j = json_pack("{s:s,s:i,s:{s:O,s:s}}", "label", label, "kind", kind, "textEdit", "range", c->edit_range,
                          "newText", label);
    if (detail)
        json_object_set_new(j, "detail", json_string(detail));
    json_array_append_new(c->items, j);
}

/* The function whose text holds `off`, or the last one before it. */
static const ptx_func *func_at(const doc *d, size_t off)
{
    const ptx_func *best = NULL;
    for (const ptx_node *n = d->m ? d->m->first : NULL; n; n = n->next)
        if (n->kind == PTX_NODE_FUNC && n->span.off != PTX_NO_OFFSET && n->span.off <= off &&
            ((const ptx_func *)n)->body)
            best = (const ptx_func *)n;
    return best;
}

static void complete_labels(completion *c, size_t off)
{
    const ptx_func *f = func_at(c->d, off);
    ptx_iter *it = f ? ptx_iter_new_node(&f->body->base) : NULL;
    const ptx_node *n;
    while (it && ptx_iter_next(it, &n) > 0)
        if (n->kind == PTX_NODE_LABEL)
            item(c, ((const ptx_label *)n)->name->text, CK_REFERENCE, "label");
    ptx_iter_free(it);
}

static void complete_registers(completion *c, size_t off)
{
    const ptx_func *f = func_at(c->d, off);
    ptx_iter *it = f ? ptx_iter_new_node(&f->body->base) : NULL;
    const ptx_node *n;
    char name[300], detail[48];
    while (it && ptx_iter_next(it, &n) > 0) {
        if (n->kind != PTX_NODE_DECL || ((const ptx_decl *)n)->space != PTX_SPACE_REG)
            continue;
        const ptx_decl *dc = (const ptx_decl *)n;
        snprintf(detail, sizeof detail, ".reg %s", ptx_type_name((ptx_type)dc->type) ? ptx_type_name((ptx_type)dc->type) : "");
        for (uint32_t k = 0; k < dc->nvars; k++) {
            const ptx_var *v = &dc->vars[k];
            if (!v->has_range) {
                item(c, v->name->text, CK_VARIABLE, detail);
                continue;
            }
            /* %r<N>: %r0 .. %r(N-1), the first 256 */
            for (uint32_t i = 0; i < v->range && i < 256; i++) {
                snprintf(name, sizeof name, "%s%u", v->name->text, i);
                item(c, name, CK_VARIABLE, detail);
            }
        }
    }
    ptx_iter_free(it);
    static const char *const sregs[] = { "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
                                         "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y",
                                         "%nctaid.z", "%laneid", "%warpid", "%smid", "%clock", "%clock64",
                                         "%globaltimer", "%lanemask_lt", "%dynamic_smem_size", NULL };
    for (int i = 0; sregs[i]; i++)
        item(c, sregs[i], CK_VARIABLE, "special register");
}

/* --list-instructions' text, made once */
static char *instruction_list(server *s)
{
    if (!s->list) {
        buf b = { 0 };
        if (ptx_print_instruction_list(NULL, buf_write, &b, NULL) != PTX_OK || b.failed) {
            free(b.p);
            return NULL;
        }
        s->list = b.p;
    }
    return s->list;
}

static void complete_opcodes(completion *c)
{
    server *s = c->s;
    if (!instruction_list(s))
        return;
    const char *target = module_target(s, c->d->m);
    /* "name  PTX 1.0  all  family" per line; the first words, once, when
     * some instruction of theirs is for the module's target and version */
    for (const char *p = s->list; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char word[64], ver[16], tgt[32];
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(n < 255 ? n : 255), p);
        p = nl ? nl + 1 : p + n;
        if (sscanf(line, "%63s PTX %15s %31s", word, ver, tgt) != 3)
            continue;
        char avail[96];
        snprintf(avail, sizeof avail, "PTX ISA %s, %s or later", ver, strcmp(tgt, "all") == 0 ? "all targets" : tgt);
        /* sm_100a and sm_100f in the list are one target or a family */
        size_t tl = strlen(tgt);
        if (tl && (tgt[tl - 1] == 'a' || tgt[tl - 1] == 'f'))
            snprintf(avail, sizeof avail, "PTX ISA %s, %s %s", ver, tgt, tgt[tl - 1] == 'a' ? "only" : "family");
        if (!form_allowed(avail, c->d->m, target))
            continue;
        char *dot = strchr(word, '.');
        if (dot)
            *dot = '\0';
        item(c, word, CK_KEYWORD, "instruction");
    }
}

/* The modifiers that may follow `word` ("ld.global."): those of the
 * forms for the module's target and version that have every modifier
 * already typed, less those typed. */
static void complete_modifiers(completion *c, const char *word)
{
    char opcode[64];
    size_t ol = strcspn(word, ".");
    if (ol >= sizeof opcode)
        return;
    memcpy(opcode, word, ol);
    opcode[ol] = '\0';
    const char *typed = word + ol;      /* ".global." */
    size_t total, kept;
    char *forms = forms_for(c->s, opcode, c->d->m, module_target(c->s, c->d->m), &total, &kept);
    if (!forms)
        return;
    const char *p = forms;
    while (*p) {
        /* one form: its head's words, placeholders expanded by the lines after it */
        const char *head = p + 2, *head_end = head + strcspn(head, " \n");
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
        const char *attrs = p;
        while (strncmp(p, "      ", 6) == 0) {
            nl = strchr(p, '\n');
            p = nl ? nl + 1 : p + strlen(p);
        }
        /* collect the form's modifiers */
        char mods[128][48];
        size_t nm = 0;
        for (const char *h = head; h < head_end && nm < 128;) {
            if (*h != '.') {
                h++;
                continue;
            }
            size_t l = 1;
            while (h + l < head_end && h[l] != '.' && h[l] != '{' && h[l] != '}' && h[l] != ' ')
                l++;
            char w[48];
            snprintf(w, sizeof w, "%.*s", (int)l, h);
            h += l;
            /* a placeholder: ".cop = { .ca, .cg }" */
            char key[64];
            snprintf(key, sizeof key, "      %s = { ", w);
            const char *def = NULL;
            for (const char *a = attrs; a < p; a = strchr(a, '\n') + 1)
                if (strncmp(a, key, strlen(key)) == 0) {
                    def = a + strlen(key);
                    break;
                }
            if (!def) {
                if (nm < 128)
                    snprintf(mods[nm++], 48, "%s", w);
                continue;
            }
            for (const char *v = def; *v && *v != '}' && *v != '\n' && nm < 128;) {
                size_t vl = strcspn(v, ", }\n");
                if (vl && *v == '.')
                    snprintf(mods[nm++], 48, "%.*s", (int)(vl < 47 ? vl : 47), v);
                v += vl;
                while (*v == ',' || *v == ' ')
                    v++;
            }
        }
        /* every typed modifier must be the form's */
        bool fits = true;
        for (const char *t = typed; *t && fits;) {
            size_t l = 1 + strcspn(t + 1, ".");
            if (t[l] == '\0')
                break;  /* the last one is being typed */
            bool found = false;
            for (size_t i = 0; i < nm && !found; i++)
                found = strlen(mods[i]) == l && memcmp(mods[i], t, l) == 0;
            fits = found;
            t += l;
        }
        if (!fits)
            continue;
        for (size_t i = 0; i < nm; i++) {
            /* not one already typed */
            bool had = false;
            for (const char *t = typed; *t && !had;) {
                size_t l = 1 + strcspn(t + 1, ".");
                if (t[l] == '\0')
                    break;
                had = strlen(mods[i]) == l && memcmp(mods[i], t, l) == 0;
                t += l;
            }
            if (!had)
                item(c, mods[i], CK_ENUM_MEMBER, opcode);
        }
    }
    free(forms);
}

static void complete_directives(completion *c)
{
    for (const meaning *m = directives; m->name; m++)
        item(c, m->name, CK_KEYWORD, m->text);
}

static void on_completion(server *s, json_t *id, json_t *params)
{
    size_t off;
    doc *d = doc_position(s, id, params, &off);
    if (!d)
        return;
    ensure_parsed(s, d);
    /* the word being typed, dots and :: included ("ld.global.", "%r") */
    size_t a = off;
    while (a > 0 && (is_word(d->text[a - 1]) || d->text[a - 1] == '.' || d->text[a - 1] == ':'))
        a--;
    char word[128];
    size_t wl = off - a < sizeof word - 1 ? off - a : sizeof word - 1;
    memcpy(word, d->text + a, wl);
    word[wl] = '\0';
    /* what comes before it on its statement */
    size_t b = a;
    while (b > 0 && (d->text[b - 1] == ' ' || d->text[b - 1] == '\t'))
        b--;
    size_t pb = b;
    while (pb > 0 && (is_word(d->text[pb - 1]) || d->text[pb - 1] == '.' || d->text[pb - 1] == '!' ||
                      d->text[pb - 1] == '@'))
        pb--;
    bool after_guard = pb < b && d->text[pb] == '@';
    bool at_start = pb == b || after_guard;
    if (!at_start)
        at_start = false;
    /* statement start: the line's start, or after ';', '{', '}' or a label */
    size_t q = after_guard ? pb : b;
    while (q > 0 && (d->text[q - 1] == ' ' || d->text[q - 1] == '\t'))
        q--;
    bool stmt_start = (q == 0 || strchr("\n;{}:", d->text[q - 1])) && (pb == b || after_guard || b == a);
    bool after_bra = pb < b && !after_guard && (strncmp(d->text + pb, "bra", 3) == 0) &&
                     (b - pb == 3 || d->text[pb + 3] == '.');
    completion c = { s, d, json_array(), NULL, 0 };
    /* the edit replaces the last dot-word being typed (".glo" of ld.glo) */
    size_t ea = a;
    const char *last_dot = strrchr(word, '.');
    if (last_dot && word[0] != '.' && word[0] != '%')
        ea = a + (size_t)(last_dot - word);
    c.edit_range = range(s, d, ea, off - ea);
    if (after_bra)
        complete_labels(&c, off);
    else if (word[0] == '%')
        complete_registers(&c, off);
    else if (word[0] == '.')
        complete_directives(&c);
    else if (strchr(word, '.') && stmt_start)
        complete_modifiers(&c, word);
    else if (stmt_start)
        complete_opcodes(&c);
    else {
        complete_registers(&c, off);
        complete_labels(&c, off);
    }
    json_decref(c.edit_range);
    reply(s, id, json_pack("{s:b,s:o}", "isIncomplete", 0, "items", c.items));
}

/* ---- formatting and code actions -------------------------------------------------------- */

static void on_formatting(server *s, json_t *id, json_t *params)
{
    doc *d = doc_position(s, id, params, NULL);
    if (!d)
        return;
    ensure_parsed(s, d);
    if (!d->m || d->status != PTX_OK || d->cuda) {
        reply_error(s, id, E_REQUEST_FAILED, "the document has errors: not formatted");
        return;
    }
    buf b = { 0 };
    if (ptx_print_ptx_canonical(d->ctx, d->m, NULL, NULL, buf_write, &b) != PTX_OK || b.failed) {
        free(b.p);
        reply_error(s, id, E_INTERNAL, "the canonical printer failed");
        return;
    }
    json_t *edits = json_array();
    if (b.len != d->len || memcmp(b.p ? b.p : "", d->text, b.len) != 0)
        json_array_append_new(edits, json_pack("{s:o,s:s%}", "range", range(s, d, 0, d->len), "newText",
                                               b.p ? b.p : "", b.len));
    free(b.p);
    reply(s, id, edits);
}

static void on_code_action(server *s, json_t *id, json_t *params)
{
    doc *d = doc_position(s, id, params, NULL);
    if (!d)
        return;
    json_t *r = json_object_get(params, "range");
    size_t ra, rb;
    const char *why = "range is missing";
    if (!json_is_object(r) || !offset_of(s, d, json_object_get(r, "start"), &ra, &why) ||
        !offset_of(s, d, json_object_get(r, "end"), &rb, &why)) {
        reply_error(s, id, E_PARAMS, "%s", why);
        return;
    }
    ensure_parsed(s, d);
    json_t *arr = json_array();
    size_t n = d->ctx ? ptx_diag_count(d->ctx) : 0;
    for (size_t i = 0; i < n; i++) {
        const ptx_diag *g = ptx_diag_get(d->ctx, i);
        if (!g->fixit || g->span.off == PTX_NO_OFFSET || g->span.off > rb || (size_t)g->span.off + g->span.len < ra)
            continue;
        char title[160];
        snprintf(title, sizeof title, "Replace with '%.120s'", g->fixit);
        json_t *edit = json_pack("{s:o,s:s}", "range", range(s, d, g->span.off, g->span.len), "newText", g->fixit);
        json_t *changes = json_object();
        json_object_set_new(changes, d->uri, json_pack("[o]", edit));
        json_array_append_new(arr, json_pack("{s:s,s:s,s:b,s:[o],s:{s:o}}", "title", title, "kind", "quickfix",
                                             "isPreferred", 1, "diagnostics", diag_json(s, d, i), "edit", "changes",
                                             changes));
    }
    reply(s, id, arr);
}

/* ---- the document notifications --------------------------------------------------------- */

static void on_did_open(server *s, json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = json_string_value(json_object_get(td, "uri"));
    json_t *text = json_object_get(td, "text");
    if (!uri || !json_is_string(text)) {
        log_message(s, 1, "didOpen: textDocument.uri and textDocument.text are needed");
        return;
    }
    doc *d = find_doc(s, uri);
    if (!d) {
        d = calloc(1, sizeof *d);
        if (!d || !(d->uri = strdup(uri))) {
            free(d);
            return;
        }
        d->next = s->docs;
        s->docs = d;
    }
    free(d->text);
    d->len = json_string_length(text);
    d->text = malloc(d->len + 1);
    if (!d->text) {
        d->len = 0;
        return;
    }
    memcpy(d->text, json_string_value(text), d->len + 1);
    json_t *v = json_object_get(td, "version");
    d->version = json_is_integer(v) ? json_integer_value(v) : -1;
    const char *lang = json_string_value(json_object_get(td, "languageId"));
    d->cuda = (lang && (strcmp(lang, "cuda") == 0 || strcmp(lang, "cuda-cpp") == 0)) || ends_with(uri, ".cu") || ends_with(uri, ".cuh");
    doc_index_lines(d);
    d->dirty = true;
}

/* One change: the whole text, or a range replaced. */
static bool apply_change(server *s, doc *d, json_t *ch)
{
    json_t *text = json_object_get(ch, "text");
    if (!json_is_string(text))
        return false;
    json_t *r = json_object_get(ch, "range");
    size_t a = 0, b = d->len;
    const char *why;
    if (r && (!json_is_object(r) || !offset_of(s, d, json_object_get(r, "start"), &a, &why) ||
              !offset_of(s, d, json_object_get(r, "end"), &b, &why) || b < a))
        return false;
    size_t n = json_string_length(text), len = d->len - (b - a) + n;
    char *p = malloc(len + 1);
    if (!p)
        return false;
    memcpy(p, d->text, a);
    memcpy(p + a, json_string_value(text), n);
    memcpy(p + a + n, d->text + b, d->len - b);
    p[len] = '\0';
    free(d->text);
    d->text = p;
    d->len = len;
    return doc_index_lines(d);
}

static void on_did_change(server *s, json_t *params)
{
    const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
    doc *d = uri ? find_doc(s, uri) : NULL;
    json_t *changes = json_object_get(params, "contentChanges");
    if (!d || !json_is_array(changes)) {
        log_message(s, 1, "didChange: %s", d ? "contentChanges is not an array" : "no such open document");
        return;
    }
    size_t i;
    json_t *ch;
    json_array_foreach(changes, i, ch)
    {
        if (!apply_change(s, d, ch)) {
            log_message(s, 1, "didChange: change %zu of %s is not valid (a range outside the document?): "
                              "the document is as it was before it", i, uri);
            break;
        }
    }
    json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
    if (json_is_integer(v))
        d->version = json_integer_value(v);
    doc_drop_parse(d);
    d->dirty = true;
}

static void on_did_close(server *s, json_t *params)
{
    const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
    for (doc **p = &s->docs; uri && *p; p = &(*p)->next)
        if (strcmp((*p)->uri, uri) == 0) {
            doc *d = *p;
            *p = d->next;
            /* the client forgets its diagnostics */
            send_json(s, json_pack("{s:s,s:{s:s,s:[]}}", "method", "textDocument/publishDiagnostics", "params",
                                   "uri", uri, "diagnostics"));
            doc_free(d);
            return;
        }
}

/* ---- initialize ------------------------------------------------------------------------ */

static void on_initialize(server *s, json_t *id, json_t *params)
{
    json_t *encs = json_object_get(json_object_get(json_object_get(params, "capabilities"), "general"),
                                   "positionEncodings");
    size_t i;
    json_t *e;
    s->utf8 = false;
    json_array_foreach(encs, i, e)
    {
        if (json_is_string(e) && strcmp(json_string_value(e), "utf-8") == 0)
            s->utf8 = true;
    }
    json_t *opts = json_object_get(params, "initializationOptions");
    json_t *me = json_object_get(opts, "maxErrors");
    if (json_is_integer(me) && json_integer_value(me) >= 0 && json_integer_value(me) <= 1000000000)
        s->set.max_errors = (unsigned)json_integer_value(me);
    s->initialized = true;
    json_t *caps = json_pack(
        "{s:s,s:{s:b,s:i,s:{s:b}},s:b,s:b,s:b,s:b,s:{s:[s,s,s]},s:b,s:{s:[s]}}", "positionEncoding",
        s->utf8 ? "utf-8" : "utf-16", "textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
        "hoverProvider", 1, "definitionProvider", 1, "referencesProvider", 1, "documentSymbolProvider", 1,
        "completionProvider", "triggerCharacters", ".", "%", "$", "documentFormattingProvider", 1,
        "codeActionProvider", "codeActionKinds", "quickfix");
    reply(s, id, json_pack("{s:o,s:{s:s,s:s}}", "capabilities", caps, "serverInfo", "name", "ptx-front", "version",
                           ptx_version()));
}

/* ---- dispatch ------------------------------------------------------------------------- */

typedef void (*request_fn)(server *, json_t *, json_t *);

static const struct {
    const char *method;
    request_fn fn;
} requests[] = {
    { "textDocument/hover", on_hover },
    { "textDocument/definition", on_definition },
    { "textDocument/references", on_references },
    { "textDocument/documentSymbol", on_document_symbol },
    { "textDocument/completion", on_completion },
    { "textDocument/formatting", on_formatting },
    { "textDocument/codeAction", on_code_action },
};

static void handle(server *s, const char *body, size_t len)
{
    json_error_t err;
    json_t *msg = json_loadb(body, len, JSON_ALLOW_NUL | JSON_DECODE_ANY, &err);
    if (!msg) {
        reply_error(s, NULL, E_PARSE, "not JSON: %s (line %d, column %d)", err.text, err.line, err.column);
        return;
    }
    json_t *id = json_object_get(msg, "id");
    const char *method = json_string_value(json_object_get(msg, "method"));
    json_t *params = json_object_get(msg, "params");
    if (json_is_null(params))
        params = NULL;      /* "params": null is no params */
    if (!json_is_object(msg)) {
        reply_error(s, NULL, E_INVALID_REQUEST, json_is_array(msg) ? "batches are not part of LSP" : "a message is a JSON object");
    } else if (id && !json_is_integer(id) && !json_is_string(id) && !json_is_null(id)) {
        reply_error(s, NULL, E_INVALID_REQUEST, "an id is a number or a string");
    } else if (!json_is_string(json_object_get(msg, "jsonrpc")) ||
               strcmp(json_string_value(json_object_get(msg, "jsonrpc")), "2.0") != 0) {
        reply_error(s, id, E_INVALID_REQUEST, "jsonrpc must be \"2.0\"");
    } else if (!method) {
        /* a response to a request of ours (we send none) is dropped */
        if (!json_object_get(msg, "result") && !json_object_get(msg, "error"))
            reply_error(s, id, E_INVALID_REQUEST, "no method");
    } else if (params && !json_is_object(params) && !json_is_array(params)) {
        if (id)
            reply_error(s, id, E_INVALID_REQUEST, "params must be an object or an array");
    } else if (strcmp(method, "exit") == 0) {
        s->exited = true;
    } else if (!id) {
        /* notifications: before initialize only exit counts */
        if (!s->initialized)
            ;
        else if (strcmp(method, "textDocument/didOpen") == 0)
            on_did_open(s, params);
        else if (strcmp(method, "textDocument/didChange") == 0)
            on_did_change(s, params);
        else if (strcmp(method, "textDocument/didClose") == 0)
            on_did_close(s, params);
        /* initialized, didSave, $/cancelRequest, $/setTrace...: nothing to do */
    } else if (strcmp(method, "initialize") == 0) {
        if (s->initialized)
            reply_error(s, id, E_INVALID_REQUEST, "initialize was already received");
        else
            on_initialize(s, id, params);
    } else if (!s->initialized) {
        reply_error(s, id, E_NOT_INITIALIZED, "initialize first");
    } else if (s->shut_down) {
        reply_error(s, id, E_INVALID_REQUEST, "the server is shut down: only exit is taken");
    } else if (strcmp(method, "shutdown") == 0) {
        s->shut_down = true;
        reply(s, id, json_null());
    } else {
        size_t i = 0;
        while (i < sizeof requests / sizeof *requests && strcmp(requests[i].method, method) != 0)
            i++;
        if (i == sizeof requests / sizeof *requests)
            reply_error(s, id, E_METHOD, "unknown method %.200s", method);
        else if (!json_is_object(params))
            reply_error(s, id, E_PARAMS, "%s needs params (an object)", method);
        else
            requests[i].fn(s, id, params);
    }
    json_decref(msg);
}

/* ---- reading the framed stream -------------------------------------------------------- */

/* Makes at least `want` bytes available after in_start unless the input
 * ends; false at end of input.  The buffer grows as bytes come, not to
 * what a header announces. */
static bool fill(server *s, size_t want)
{
    while (s->in_end - s->in_start < want) {
        if (s->in_eof)
            return false;
        if (s->in_start == s->in_end)
            s->in_start = s->in_end = 0;
        if (s->in_end == s->in_cap && s->in_start > 0) {
            memmove(s->in, s->in + s->in_start, s->in_end - s->in_start);
            s->in_end -= s->in_start;
            s->in_start = 0;
        }
        if (s->in_end == s->in_cap) {
            size_t cap = s->in_cap ? s->in_cap * 2 : 65536;
            char *p = realloc(s->in, cap);
            if (!p)
                return false;
            s->in = p;
            s->in_cap = cap;
        }
        ssize_t r = read(s->in_fd, s->in + s->in_end, s->in_cap - s->in_end);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            s->in_eof = true;
            return false;
        }
        s->in_end += (size_t)r;
    }
    return true;
}

/* Whether more input is waiting (a burst of edits goes on). */
static bool input_waiting(server *s)
{
    if (s->in_end > s->in_start)
        return true;
    if (s->in_eof)
        return false;
    struct pollfd p = { s->in_fd, POLLIN, 0 };
    return poll(&p, 1, 0) > 0;
}

/* One header line (without its "\r\n"), into line[]; false at end of
 * input.  A line longer than the buffer is cut. */
static bool read_line(server *s, char *line, size_t size)
{
    size_t n = 0;
    for (;;) {
        if (!fill(s, 1))
            return n > 0 && (line[n] = '\0', true);
        char *nl = memchr(s->in + s->in_start, '\n', s->in_end - s->in_start);
        size_t take = nl ? (size_t)(nl - (s->in + s->in_start)) : s->in_end - s->in_start;
        size_t copy = take < size - 1 - n ? take : size - 1 - n;
        memcpy(line + n, s->in + s->in_start, copy);
        n += copy;
        s->in_start += take + (nl != NULL);
        if (nl)
            break;
    }
    if (n && line[n - 1] == '\r')
        n--;
    line[n] = '\0';
    return true;
}

static char *instruction_list(server *s);

static void parse_pending(server *s)
{
    /* the first use of the instruction tables (their text, the list)
     * costs tens of milliseconds: spent here, before the first hover or
     * completion asks */
    if (s->initialized && !s->warm && !input_waiting(s)) {
        s->warm = true;
        (void)explain(s, "ld");
        (void)instruction_list(s);
    }
    for (doc *d = s->docs; d && !s->dead; d = d->next) {
        if (d->dirty)
            parse(s, d);
        if (d->unpublished) {
            d->unpublished = false;
            publish(s, d);
        }
        /* the names, for hover, definition and references, while the
         * client has nothing to say */
        if (!d->indexed && !input_waiting(s))
            build_index(s, d);
    }
}

int ptx_lsp_serve(int in_fd, int out_fd, const lsp_settings *settings)
{
    server s = { .in_fd = in_fd, .out_fd = out_fd, .set = *settings };
    /* a client that closed its end: write fails with EPIPE, the loop ends */
    struct sigaction ign = { .sa_handler = SIG_IGN }, old;
    sigaction(SIGPIPE, &ign, &old);
    char line[MAX_HEADER_LINE];
    while (!s.exited && !s.dead) {
        /* the documents changed by the last burst, once it is over */
        if (!input_waiting(&s))
            parse_pending(&s);
        long long length = -1;
        bool any = false, bad = false;
        for (;;) {
            if (!read_line(&s, line, sizeof line))
                goto end;
            if (!line[0]) {
                if (any)
                    break;
                continue;       /* blank lines between messages */
            }
            any = true;
            /* "Content-Length: N", found even after the rest of a broken
             * message on the same line */
            char *h = NULL;
            for (char *p = line; *p && !h; p++)
                if (strncasecmp(p, "Content-Length:", 15) == 0)
                    h = p + 15;
            if (h) {
                while (*h == ' ' || *h == '\t')
                    h++;
                char *end;
                errno = 0;
                long long v = strtoll(h, &end, 10);
                while (*end == ' ' || *end == '\t')
                    end++;
                if (end == h || *end || errno || v < 0)
                    bad = true;
                else
                    length = v, bad = false;
            }
        }
        if (bad || length < 0) {
            reply_error(&s, NULL, E_PARSE, "a message needs a header 'Content-Length: N' (N bytes of JSON follow "
                                           "a blank line)");
            continue;
        }
        if ((unsigned long long)length > MAX_BODY) {
            reply_error(&s, NULL, E_INVALID_REQUEST, "a message of %lld bytes: more than %u are refused", length, MAX_BODY);
            /* skip it */
            while (length > 0 && fill(&s, 1)) {
                size_t take = s.in_end - s.in_start < (size_t)length ? s.in_end - s.in_start : (size_t)length;
                s.in_start += take;
                length -= (long long)take;
            }
            continue;
        }
        if (!fill(&s, (size_t)length))
            break;      /* the input ended inside the message */
        handle(&s, s.in + s.in_start, (size_t)length);
        s.in_start += (size_t)length;
    }
end:
    while (s.docs) {
        doc *d = s.docs;
        s.docs = d->next;
        doc_free(d);
    }
    while (s.explained) {
        explained *e = s.explained;
        s.explained = e->next;
        free(e->name);
        free(e->text);
        free(e);
    }
    free(s.list);
    free(s.in);
    sigaction(SIGPIPE, &old, NULL);
    return s.shut_down && !s.dead ? 0 : 1;
}
