/* Buffered output for the printers, and the one expression printer that
 * the PTX and tree printers share. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* expressions are at most 10000 deep (checked by the parser); this only
 * guards trees built by programs */
enum { MAX_PRINT_DEPTH = 10001 };

int ptx_write_file(void *file, const char *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)file) == len ? 0 : -1;
}

void ptx_out_init(ptx_out *o, ptx_write_fn write, void *user)
{
    o->write = write;
    o->user = user;
    o->len = 0;
    o->failed = false;
}

void ptx_out_flush(ptx_out *o)
{
    if (o->len && !o->failed && o->write(o->user, o->buf, o->len) != 0)
        o->failed = true;
    o->len = 0;
}

void ptx_out_mem(ptx_out *o, const char *s, size_t n)
{
    if (n < 16 && n <= sizeof o->buf - o->len) {
        /* most pieces are a few bytes: fixed-size copies, not a call */
        char *d = o->buf + o->len;
        o->len += n;
        if (n & 8) {
            memcpy(d, s, 8);
            d += 8, s += 8;
        }
        if (n & 4) {
            memcpy(d, s, 4);
            d += 4, s += 4;
        }
        if (n & 2) {
            memcpy(d, s, 2);
            d += 2, s += 2;
        }
        if (n & 1)
            *d = *s;
        return;
    }
    if (n > sizeof o->buf - o->len) {
        ptx_out_flush(o);
        if (n > sizeof o->buf) {
            if (!o->failed && o->write(o->user, s, n) != 0)
                o->failed = true;
            return;
        }
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

void ptx_out_str(ptx_out *o, const char *s)
{
    ptx_out_mem(o, s, strlen(s));
}

void ptx_out_char(ptx_out *o, char c)
{
    if (o->len == sizeof o->buf)
        ptx_out_flush(o);
    o->buf[o->len++] = c;
}

void ptx_out_name(ptx_out *o, const ptx_name *n)
{
    ptx_out_mem(o, n->text, n->len);
}

void ptx_out_data_line(ptx_out *o, const ptx_data *d, uint32_t k)
{
    ptx_out_str(o, ptx_data_line_word(d, k));
    uint32_t first = ptx_data_line_start(d, k), end = ptx_data_line_start(d, k + 1);
    for (uint32_t i = first; i < end; i++) {
        ptx_out_str(o, i > first ? ", " : " ");
        const ptx_name *sym = d->nsyms ? ptx_data_sym_at(d, i) : NULL;
        if (sym)
            ptx_out_name(o, sym);
        else
            ptx_out_u64(o, ptx_data_int(d, i));
    }
}

void ptx_out_u64(ptx_out *o, uint64_t v)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    ptx_out_mem(o, tmp + i, sizeof tmp - i);
}

void ptx_out_i64(ptx_out *o, int64_t v)
{
    if (v < 0) {
        ptx_out_char(o, '-');
        ptx_out_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        ptx_out_u64(o, (uint64_t)v);
    }
}

void ptx_out_fmt(ptx_out *o, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        ptx_out_mem(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void ptx_out_indent(ptx_out *o, unsigned n)
{
    static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
    /* deep nesting is shown up to a point: output stays linear in size */
    if (n > 32)
        n = 32;
    while (n) {
        unsigned k = n < 16 ? n : 16;
        ptx_out_mem(o, tabs, k);
        n -= k;
    }
}

ptx_status ptx_out_finish(ptx_out *o)
{
    ptx_out_flush(o);
    return o->failed ? PTX_ERR_IO : PTX_OK;
}

ptx_status ptx_printer_open(const ptx_module *m, ptx_write_fn write, void *user,
                            ptx_out **o, ptx_iter **it)
{
    *o = NULL;
    *it = NULL;
    if (!m || !write)
        return PTX_ERR_USAGE;
    *o = malloc(sizeof **o);
    *it = ptx_iter_new(m);
    if (!*o || !*it) {
        free(*o);
        ptx_iter_free(*it);
        return PTX_ERR_NOMEM;
    }
    ptx_out_init(*o, write, user);
    return PTX_OK;
}

ptx_status ptx_printer_close(ptx_out *o, ptx_iter *it, ptx_status st)
{
    ptx_iter_free(it);
    ptx_status fin = ptx_out_finish(o);
    free(o);
    return st != PTX_OK ? st : fin;
}

ptx_event ptx_iter_next_item(ptx_iter *it, const ptx_node **node,
                             ptx_print_filter filter, void *filter_user)
{
    for (;;) {
        ptx_event ev = ptx_iter_next(it, node);
        if (ev != PTX_EVENT_ENTER || !filter || ptx_iter_depth(it) != 0 ||
            filter(*node, filter_user))
            return ev;
        ptx_iter_skip_children(it);
    }
}

void ptx_out_json_chars(ptx_out *o, const char *s, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f)
            continue;
        ptx_out_mem(o, s + start, i - start);
        if (c == '"' || c == '\\') {
            ptx_out_char(o, '\\');
            ptx_out_char(o, (char)c);
        } else if (c == '\n') {
            ptx_out_str(o, "\\n");
        } else if (c == '\t') {
            ptx_out_str(o, "\\t");
        } else {
            ptx_out_fmt(o, "\\u%04x", c);
        }
        start = i + 1;
    }
    ptx_out_mem(o, s + start, n - start);
}

void ptx_out_json_str(ptx_out *o, const char *s, size_t n)
{
    ptx_out_char(o, '"');
    ptx_out_json_chars(o, s, n);
    ptx_out_char(o, '"');
}

/* The shortest decimal text that reads back as the same double. */
static void out_double(ptx_out *o, double d)
{
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    ptx_out_str(o, tmp);
    if (!strpbrk(tmp, ".eEn"))
        ptx_out_str(o, ".0");
}

static void out_int(ptx_out *o, const ptx_expr *e)
{
    char tmp[80];
    uint64_t v = ptx_expr_int(e);
    switch (e->flags & PTX_INT_RADIX_MASK) {
    case PTX_INT_HEX:
        snprintf(tmp, sizeof tmp, "0x%" PRIX64, v);
        ptx_out_str(o, tmp);
        break;
    case PTX_INT_OCT:
        snprintf(tmp, sizeof tmp, "0%" PRIo64, v);
        ptx_out_str(o, tmp);
        break;
    case PTX_INT_BIN: {
        size_t i = sizeof tmp;
        do {
            tmp[--i] = (char)('0' + (v & 1));
            v >>= 1;
        } while (v);
        ptx_out_str(o, "0b");
        ptx_out_mem(o, tmp + i, sizeof tmp - i);
        break;
    }
    default:
        ptx_out_u64(o, v);
        break;
    }
    if (e->flags & PTX_INT_UNSIGNED)
        ptx_out_char(o, 'U');
}

static void out_items(ptx_out *o, const ptx_expr *e, unsigned depth)
{
    for (uint32_t i = 0; i < ptx_expr_count(e); i++) {
        if (i)
            ptx_out_mem(o, ", ", 2);
        ptx_out_expr_depth(o, ptx_expr_item(e, i), depth + 1);
    }
}

void ptx_out_expr_depth(ptx_out *o, const ptx_expr *e, unsigned depth)
{
    if (depth > MAX_PRINT_DEPTH) {
        ptx_out_str(o, "...");
        return;
    }
    char tmp[40];
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT:
        out_int(o, e);
        break;
    case PTX_EXPR_FLOAT:
        out_double(o, ptx_expr_float(e));
        break;
    case PTX_EXPR_F32:
        snprintf(tmp, sizeof tmp, "0f%08" PRIX64, ptx_expr_int(e) & 0xFFFFFFFFu);
        ptx_out_str(o, tmp);
        break;
    case PTX_EXPR_F64:
        snprintf(tmp, sizeof tmp, "0d%016" PRIX64, ptx_expr_int(e));
        ptx_out_str(o, tmp);
        break;
    case PTX_EXPR_SYM:
        ptx_out_name(o, ptx_expr_name(e));
        if (ptx_expr_sel(e))
            ptx_out_name(o, ptx_expr_sel(e));
        break;
    case PTX_EXPR_SINK:
        ptx_out_char(o, '_');
        break;
    case PTX_EXPR_UNARY:
        ptx_out_str(o, ptx_op_name(e->op));
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        break;
    case PTX_EXPR_CAST:
        ptx_out_char(o, '(');
        ptx_out_str(o, ptx_type_name(e->op));
        ptx_out_char(o, ')');
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        break;
    case PTX_EXPR_BINARY:
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        ptx_out_char(o, ' ');
        ptx_out_str(o, ptx_op_name(e->op));
        ptx_out_char(o, ' ');
        ptx_out_expr_depth(o, ptx_expr_b(e), depth + 1);
        break;
    case PTX_EXPR_COND:
        ptx_out_expr_depth(o, ptx_expr_item(e, 0), depth + 1);
        ptx_out_mem(o, " ? ", 3);
        ptx_out_expr_depth(o, ptx_expr_item(e, 1), depth + 1);
        ptx_out_mem(o, " : ", 3);
        ptx_out_expr_depth(o, ptx_expr_item(e, 2), depth + 1);
        break;
    case PTX_EXPR_PAREN:
        ptx_out_char(o, '(');
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        ptx_out_char(o, ')');
        break;
    case PTX_EXPR_INDEX:
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        ptx_out_char(o, '[');
        ptx_out_expr_depth(o, ptx_expr_b(e), depth + 1);
        ptx_out_char(o, ']');
        break;
    case PTX_EXPR_ADDR:
        ptx_out_char(o, '[');
        out_items(o, e, depth);
        ptx_out_char(o, ']');
        if (ptx_expr_suffix(e))
            ptx_out_name(o, ptx_expr_suffix(e));
        break;
    case PTX_EXPR_VEC:
        ptx_out_char(o, '{');
        out_items(o, e, depth);
        ptx_out_char(o, '}');
        break;
    case PTX_EXPR_LIST:
        ptx_out_char(o, '(');
        out_items(o, e, depth);
        ptx_out_char(o, ')');
        break;
    case PTX_EXPR_PAIR:
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        ptx_out_char(o, '|');
        ptx_out_expr_depth(o, ptx_expr_b(e), depth + 1);
        break;
    case PTX_EXPR_GENERIC:
        ptx_out_str(o, "generic(");
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        ptx_out_char(o, ')');
        break;
    case PTX_EXPR_MASK:
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        ptx_out_char(o, '(');
        ptx_out_expr_depth(o, ptx_expr_b(e), depth + 1);
        ptx_out_char(o, ')');
        break;
    case PTX_EXPR_FIELD:
        ptx_out_expr_depth(o, ptx_expr_a(e), depth + 1);
        ptx_out_mem(o, " = ", 3);
        ptx_out_expr_depth(o, ptx_expr_b(e), depth + 1);
        break;
    case PTX_EXPR_RANGE:
        ptx_out_name(o, ptx_expr_name(e));
        ptx_out_fmt(o, "<%u>", ptx_expr_count(e));
        break;
    case PTX_EXPR_COUNT:
        break;
    }
}

void ptx_out_expr(ptx_out *o, const ptx_expr *e)
{
    ptx_out_expr_depth(o, e, 0);
}

void ptx_out_instr_head(ptx_out *o, const ptx_instr *in)
{
    if (ptx_instr_guard(in)) {
        ptx_out_str(o, in->guard_neg ? "@!" : "@");
        ptx_out_name(o, ptx_expr_name(ptx_instr_guard(in)));
        ptx_out_char(o, ' ');
    }
    ptx_out_name(o, ptx_instr_opcode(in));
    for (unsigned i = 0; i < in->nmods; i++)
        ptx_out_name(o, in->mods[i].name);
}

void ptx_out_instr_line(ptx_out *o, const ptx_instr *in)
{
    ptx_out_instr_head(o, in);
    for (uint32_t i = 0; i < in->nops; i++) {
        ptx_out_str(o, i ? ", " : "  ");
        ptx_out_expr(o, &in->ops[i]);
    }
}
