/* The mutation runner: every case of ../shared/mutations/public.tsv is a
 * corpus file with one line replaced and ptxas's verdict on it.  A case
 * ptxas accepts must be accepted; a case it rejects for a reason in the
 * grammar's domain must be rejected, with an error on the line ptxas names.
 *
 * usage: mutations TSV CORPUS_ROOT [-v] [-f FAMILY]
 *   -v         print every disagreement
 *   -f FAMILY  only cases whose opcode starts with FAMILY
 * Exit status 1 when an accepted case is rejected or fewer than the
 * required share of rejects agree (PTX_MUTATION_MIN_REJECT, percent).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

typedef struct host {
    char *path;
    char *text;
    size_t len;
    size_t *lines;      /* offsets of line starts */
    size_t nlines;
} host;

static host *hosts;
static size_t nhosts;

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n == cap)
            buf = realloc(buf, cap *= 2);
        size_t k = fread(buf + n, 1, cap - n, f);
        if (k == 0)
            break;
        n += k;
    }
    fclose(f);
    *len = n;
    return buf;
}

static host *get_host(const char *root, const char *rel)
{
    for (size_t i = 0; i < nhosts; i++)
        if (strcmp(hosts[i].path, rel) == 0)
            return &hosts[i];
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    host h = { strdup(rel), NULL, 0, NULL, 0 };
    h.text = read_all(path, &h.len);
    if (!h.text)
        return NULL;
    size_t cap = 1024;
    h.lines = malloc(cap * sizeof *h.lines);
    h.lines[h.nlines++] = 0;
    for (size_t i = 0; i < h.len; i++) {
        if (h.text[i] == '\n') {
            if (h.nlines == cap)
                h.lines = realloc(h.lines, (cap *= 2) * sizeof *h.lines);
            h.lines[h.nlines++] = i + 1;
        }
    }
    hosts = realloc(hosts, (nhosts + 1) * sizeof *hosts);
    hosts[nhosts] = h;
    return &hosts[nhosts++];
}

static void unescape(char *s)
{
    char *o = s;
    for (; *s; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
}

enum { COL_ID, COL_HOST, COL_LINE, COL_ORIG, COL_MUT, COL_KIND, COL_VERDICT, COL_DOMAIN,
       COL_MSG, COL_VARIANT, COL_OPCODE, COL_ARCH, COL_FLAGS, COL_EXIT, COL_ERRLINE, NCOLS = 17 };

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mutations TSV CORPUS_ROOT [-v] [-f FAMILY]\n");
        return 2;
    }
    bool verbose = false;
    const char *only = NULL;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            verbose = true;
        else if (!strcmp(argv[i], "-f") && i + 1 < argc)
            only = argv[++i];
    }
    const char *env = getenv("PTX_MUTATION_MIN_REJECT");
    double min_reject = env ? atof(env) : 0.0;
    FILE *tsv = fopen(argv[1], "r");
    if (!tsv) {
        fprintf(stderr, "mutations: cannot read %s\n", argv[1]);
        return 2;
    }
    static char row[1 << 20];
    unsigned acc_total = 0, acc_ok = 0, rej_total = 0, rej_ok = 0, rej_wrong_line = 0;
    bool header = true;
    while (fgets(row, sizeof row, tsv)) {
        if (header) {
            header = false;
            continue;
        }
        row[strcspn(row, "\n")] = '\0';
        char *col[NCOLS] = { 0 };
        char *p = row;
        for (int c = 0; c < NCOLS && p; c++) {
            col[c] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (!col[COL_ERRLINE])
            continue;
        bool accept = strcmp(col[COL_DOMAIN], "accept") == 0;
        bool grammar = strcmp(col[COL_DOMAIN], "grammar") == 0;
        if (!accept && !grammar)
            continue;
        if (only) {
            size_t n = strlen(only);
            if (strncmp(col[COL_OPCODE], only, n) || (col[COL_OPCODE][n] && col[COL_OPCODE][n] != '.'))
                continue;
        }
        host *h = get_host(argv[2], col[COL_HOST]);
        size_t line = strtoul(col[COL_LINE], NULL, 10);
        if (!h || line == 0 || line > h->nlines) {
            fprintf(stderr, "mutations: %s: cannot rebuild the case\n", col[COL_ID]);
            return 2;
        }
        unescape(col[COL_MUT]);
        size_t start = h->lines[line - 1];
        size_t end = line < h->nlines ? h->lines[line] - 1 : h->len;
        size_t mlen = strlen(col[COL_MUT]);
        size_t total = start + mlen + (h->len - end);
        char *buf = malloc(total + 1);
        memcpy(buf, h->text, start);
        memcpy(buf + start, col[COL_MUT], mlen);
        memcpy(buf + start + mlen, h->text + end, h->len - end);
        ptx_context *ctx = ptx_context_new();
        ptx_status st = ptx_parse_buffer(ctx, col[COL_ID], buf, total, NULL);
        free(buf);
        unsigned want_line = (unsigned)strtoul(col[COL_ERRLINE], NULL, 10);
        if (accept) {
            acc_total++;
            if (st == PTX_OK) {
                acc_ok++;
            } else {
                const ptx_diag *d = ptx_diag_get(ctx, 0);
                printf("FALSE-REJECT %s %s: %s\n  %s\n", col[COL_ID], col[COL_OPCODE],
                       col[COL_MUT], d ? d->message : "?");
            }
        } else {
            rej_total++;
            bool on_line = false;
            for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
                const ptx_diag *d = ptx_diag_get(ctx, i);
                if (d->severity == PTX_SEV_ERROR &&
                    (!want_line || ptx_context_position(ctx, d->span.off).line == want_line))
                    on_line = true;
            }
            if (st == PTX_ERR_INPUT && on_line) {
                rej_ok++;
            } else {
                if (st == PTX_ERR_INPUT)
                    rej_wrong_line++;
                if (verbose)
                    printf("MISSED %s %s [%s] %s\n  ptxas: %s\n", col[COL_ID], col[COL_OPCODE],
                           col[COL_KIND], col[COL_MUT], col[COL_MSG]);
            }
        }
        ptx_context_free(ctx);
    }
    fclose(tsv);
    double rate = rej_total ? 100.0 * rej_ok / rej_total : 100.0;
    printf("mutations: accepted %u of %u cases ptxas accepts\n", acc_ok, acc_total);
    printf("mutations: rejected %u of %u grammar-domain cases ptxas rejects (%.1f%%; %u more rejected on another line)\n",
           rej_ok, rej_total, rate, rej_wrong_line);
    /* a missed reject fails the run only below the required rate */
    unsigned missed = rate < min_reject ? rej_total - rej_ok : 0;
    printf("mutations: %u passed, %u failed\n", acc_ok + rej_ok, (acc_total - acc_ok) + missed);
    for (size_t i = 0; i < nhosts; i++) {
        free(hosts[i].path);
        free(hosts[i].text);
        free(hosts[i].lines);
    }
    free(hosts);
    return acc_ok == acc_total && rate >= min_reject ? 0 : 1;
}
