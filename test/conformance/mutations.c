/* The mutation runner: every case of a mutation TSV (../shared/mutations/
 * public.tsv, test/conformance/found.tsv) is a file with one line replaced
 * and ptxas's verdict on it.  A case ptxas accepts must be accepted; a
 * case it rejects for a reason in the grammar's domain must be rejected,
 * with an error on the line ptxas names.
 *
 * usage: mutations TSV ROOT [TSV ROOT]... [-v] [-f FAMILY]
 *   ROOT       the folder the TSV's host paths are relative to
 *   -v         print every disagreement
 *   -f FAMILY  only cases whose opcode starts with FAMILY
 * Each TSV is counted on its own.  Exit status 1 when an accepted case is
 * rejected or, in some TSV, fewer than the required share of rejects agree
 * (PTX_MUTATION_MIN_REJECT, percent).
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
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (size_t i = 0; i < nhosts; i++)
        if (strcmp(hosts[i].path, path) == 0)
            return &hosts[i];
    host h = { strdup(path), NULL, 0, NULL, 0 };
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

typedef struct tally {
    unsigned acc_total, acc_ok, rej_total, rej_ok, rej_wrong_line;
} tally;

/* Replays one TSV; returns false when it cannot be read or a case cannot
 * be rebuilt. */
static bool run_tsv(const char *path, const char *root, const char *only, bool verbose, tally *t)
{
    FILE *tsv = fopen(path, "r");
    if (!tsv) {
        fprintf(stderr, "mutations: cannot read %s\n", path);
        return false;
    }
    static char row[1 << 20];
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
        host *h = get_host(root, col[COL_HOST]);
        size_t line = strtoul(col[COL_LINE], NULL, 10);
        if (!h || line == 0 || line > h->nlines) {
            fprintf(stderr, "mutations: %s: cannot rebuild the case\n", col[COL_ID]);
            fclose(tsv);
            return false;
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
            t->acc_total++;
            if (st == PTX_OK) {
                t->acc_ok++;
            } else {
                const ptx_diag *d = ptx_diag_get(ctx, 0);
                printf("FALSE-REJECT %s %s: %s\n  %s\n", col[COL_ID], col[COL_OPCODE],
                       col[COL_MUT], d ? d->message : "?");
            }
        } else {
            t->rej_total++;
            bool on_line = false;
            for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
                const ptx_diag *d = ptx_diag_get(ctx, i);
                if (d->severity == PTX_SEV_ERROR &&
                    (!want_line || ptx_context_position(ctx, d->span.off).line == want_line))
                    on_line = true;
            }
            if (st == PTX_ERR_INPUT && on_line) {
                t->rej_ok++;
            } else {
                if (st == PTX_ERR_INPUT)
                    t->rej_wrong_line++;
                if (verbose)
                    printf("MISSED %s %s [%s] %s\n  ptxas: %s\n", col[COL_ID], col[COL_OPCODE],
                           col[COL_KIND], col[COL_MUT], col[COL_MSG]);
            }
        }
        ptx_context_free(ctx);
    }
    fclose(tsv);
    return true;
}

int main(int argc, char **argv)
{
    bool verbose = false;
    const char *only = NULL;
    const char *pairs[64];
    int npairs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            verbose = true;
        else if (!strcmp(argv[i], "-f") && i + 1 < argc)
            only = argv[++i];
        else if (npairs < 64)
            pairs[npairs++] = argv[i];
    }
    if (npairs < 2 || npairs % 2) {
        fprintf(stderr, "usage: mutations TSV ROOT [TSV ROOT]... [-v] [-f FAMILY]\n");
        return 2;
    }
    const char *env = getenv("PTX_MUTATION_MIN_REJECT");
    double min_reject = env ? atof(env) : 0.0;
    unsigned passed = 0, failed = 0;
    bool ok = true;
    for (int k = 0; k < npairs; k += 2) {
        tally t = { 0, 0, 0, 0, 0 };
        if (!run_tsv(pairs[k], pairs[k + 1], only, verbose, &t))
            return 2;
        const char *name = strrchr(pairs[k], '/') ? strrchr(pairs[k], '/') + 1 : pairs[k];
        double rate = t.rej_total ? 100.0 * t.rej_ok / t.rej_total : 100.0;
        printf("mutations: %s: accepted %u of %u cases ptxas accepts\n", name, t.acc_ok,
               t.acc_total);
        printf("mutations: %s: rejected %u of %u grammar-domain cases ptxas rejects (%.1f%%; %u more rejected on another line)\n",
               name, t.rej_ok, t.rej_total, rate, t.rej_wrong_line);
        /* a missed reject fails the run only below the required rate */
        unsigned missed = rate < min_reject ? t.rej_total - t.rej_ok : 0;
        passed += t.acc_ok + t.rej_ok;
        failed += (t.acc_total - t.acc_ok) + missed;
        ok = ok && t.acc_ok == t.acc_total && rate >= min_reject;
    }
    printf("mutations: %u passed, %u failed\n", passed, failed);
    for (size_t i = 0; i < nhosts; i++) {
        free(hosts[i].path);
        free(hosts[i].text);
        free(hosts[i].lines);
    }
    free(hosts);
    return ok ? 0 : 1;
}
