/* Rendering a diagnostic the way GCC does: position, severity, message,
 * then the source line with a caret and tildes under the range, and a
 * fix-it under them; in colour, GCC's colours (its default GCC_COLORS:
 * error=01;31:warning=01;35:note=01;36:locus=01:quote=01:caret=01;32:
 * fixit-insert=32), each closed by "\33[m\33[K" as GCC does. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const severity_names[] = { "note", "warning", "error" };
static const char *const severity_colors[] = { "\33[01;36m\33[K", "\33[01;35m\33[K", "\33[01;31m\33[K" };

#define LOCUS "\33[01m\33[K"
#define CARET "\33[01;32m\33[K"
#define FIXIT "\33[32m\33[K"
#define RESET "\33[m\33[K"

ptx_status ptx_diag_render(const ptx_context *ctx, const ptx_diag *d,
                           ptx_write_fn write, void *user)
{
    return ptx_diag_render_color(ctx, d, false, write, user);
}

ptx_status ptx_diag_render_color(const ptx_context *ctx, const ptx_diag *d, bool color,
                                 ptx_write_fn write, void *user)
{
    if (!ctx || !d || !write)
        return PTX_ERR_USAGE;
    ptx_out *o = malloc(sizeof *o);
    if (!o)
        return PTX_ERR_NOMEM;
    ptx_out_init(o, write, user);
    ptx_position pos = ptx_context_position(ctx, d->span.off);
    unsigned sev = d->severity <= PTX_SEV_ERROR ? d->severity : 2;
    if (color)
        ptx_out_str(o, LOCUS);
    ptx_out_str(o, ctx->filename);
    if (pos.line)
        ptx_out_fmt(o, ":%u:%u", pos.line, pos.col);
    ptx_out_char(o, ':');
    if (color)
        ptx_out_fmt(o, RESET " %s%s:" RESET " ", severity_colors[sev], severity_names[sev]);
    else
        ptx_out_fmt(o, " %s: ", severity_names[sev]);
    ptx_out_str(o, d->message);
    ptx_out_char(o, '\n');
    if (pos.line && ctx->src) {
        const char *start = ctx->src + (d->span.off - (pos.col - 1));
        const char *end = ctx->src + ctx->srclen;
        const char *eol = memchr(start, '\n', (size_t)(end - start));
        if (!eol)
            eol = end;
        if (eol > start && eol[-1] == '\r')
            eol--;
        /* long lines are shown around the error */
        const char *from = start;
        size_t col = pos.col - 1;
        if (col > 120) {
            from = start + col - 60;
            col = 60;
        }
        const char *to = eol - from > 200 ? from + 200 : eol;
        ptx_out_str(o, " ");
        for (const char *p = from; p < to; p++) {
            unsigned char c = (unsigned char)*p;
            ptx_out_char(o, c == '\t' ? '\t' : (c < 0x20 || c >= 0x7f) ? '?' : (char)c);
        }
        ptx_out_str(o, "\n ");
        for (size_t i = 0; i < col; i++)
            ptx_out_char(o, from[i] == '\t' ? '\t' : ' ');
        if (color)
            ptx_out_str(o, CARET);
        ptx_out_char(o, '^');
        /* the range is cut at the end of the shown line; the caret alone
         * stays when it is past that end (an error at a final '\r', whose
         * line is shown without it) */
        size_t len = d->span.len;
        if (from + col >= to)
            len = 0;
        else if (len > (size_t)(to - (from + col)))
            len = (size_t)(to - (from + col));
        for (size_t i = 1; i < len; i++)
            ptx_out_char(o, '~');
        if (color)
            ptx_out_str(o, RESET);
        ptx_out_char(o, '\n');
        if (d->fixit) {
            /* what to write instead, under what it replaces */
            ptx_out_char(o, ' ');
            for (size_t i = 0; i < col; i++)
                ptx_out_char(o, from[i] == '\t' ? '\t' : ' ');
            if (color)
                ptx_out_str(o, FIXIT);
            ptx_out_str(o, d->fixit);
            if (color)
                ptx_out_str(o, RESET);
            ptx_out_char(o, '\n');
        }
    }
    ptx_status st = ptx_out_finish(o);
    free(o);
    return st;
}
