/* The mutation runner: every case of a mutation TSV (../shared/mutations/
 * public.tsv, test/conformance/found.tsv) is a file with one line replaced
 * and ptxas's verdict on it.  Every case is an expectation: a case ptxas
 * accepts must be accepted; a case it rejects (domain grammar, types or
 * semantic) must be rejected, with an error on the line ptxas names.
 *
 * The cases ptx-front does not agree with yet are listed, each with the
 * reason, in a pending file (test/conformance/mutations-pending.tsv).  A
 * listed case that disagrees is reported as pending; one that agrees fails
 * the run until it is taken off the list, so the list only shrinks.  There
 * is no pass rate: one case lost is a failure, named by its id.
 *
 * usage: mutations [-v] [-w] [-f FAMILY] [-s N] [-p PENDING] TSV ROOT [TSV ROOT]...
 *   ROOT       the folder the TSV's host paths are relative to
 *   -p PENDING the list of cases not agreed with yet: id TAB reason per
 *              line, '#' lines are comments; every id must be in a TSV
 *   -v         also print each pending case, and every disagreement as a
 *              line "DISAGREE id<TAB>what happened" (a pending row)
 *   -f FAMILY  only cases whose opcode is FAMILY or starts with FAMILY.
 *   -s N       only the 1st, (N+1)th, (2N+1)th... case of each table (after
 *              -f): make check SANITIZE=1 passes its CHECK_SAMPLE, as each
 *              case parses a whole corpus file; every row is still read.
 *   -w         both ways, instead of ptxas's verdict: each case is parsed
 *              with the scanner's fast lane on and off and must give the
 *              same tree and diagnostics (test/tree_equal.c); PENDING then
 *              lists the cases known to differ (make twoways).
 * A row that is short, long or malformed, a duplicate id, a TSV without
 * cases or a pending id that no TSV holds is an error (exit status 2).
 * Exit status 1 when some case fails, 0 otherwise.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "read_all.h"
#include "tree_equal.h"

typedef struct host {
    char *path;
    char *text;
    size_t len;
    size_t *lines;      /* offsets of line starts */
    size_t nlines;
} host;

static host *hosts;
static size_t nhosts;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "mutations: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

static host *get_host(const char *root, const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (size_t i = 0; i < nhosts; i++)
        if (strcmp(hosts[i].path, path) == 0)
            return &hosts[i];
    host h = { xstrdup(path), NULL, 0, NULL, 0 };
    h.text = test_read_all(path, &h.len);
    if (!h.text) {
        free(h.path);
        return NULL;
    }
    size_t cap = 1024;
    h.lines = xrealloc(NULL, cap * sizeof *h.lines);
    h.lines[h.nlines++] = 0;
    for (size_t i = 0; i < h.len; i++) {
        if (h.text[i] == '\n') {
            if (h.nlines == cap)
                h.lines = xrealloc(h.lines, (cap *= 2) * sizeof *h.lines);
            h.lines[h.nlines++] = i + 1;
        }
    }
    hosts = xrealloc(hosts, (nhosts + 1) * sizeof *hosts);
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

/* A decimal number of the whole field; false for anything else. */
static bool number(const char *s, unsigned long *v)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
        return false;
    *v = strtoul(s, NULL, 10);
    return true;
}

/* ---- the pending list ------------------------------------------------- */

typedef struct pending {
    char *id;
    char *reason;
    bool seen;
} pending;

static pending *pend;
static size_t npend;
static const char *pend_path;

static pending *find_pending(const char *id)
{
    for (size_t i = 0; i < npend; i++)
        if (strcmp(pend[i].id, id) == 0)
            return &pend[i];
    return NULL;
}

/* Reads PATH: id TAB reason per line, both non-empty, ids unique; '#'
 * lines are comments.  An empty list is fine: it is where it ends. */
static bool read_pending(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mutations: cannot read %s\n", path);
        return false;
    }
    pend_path = path;
    char row[4096];
    unsigned lineno = 0;
    bool ok = true;
    while (ok && fgets(row, sizeof row, f)) {
        lineno++;
        size_t n = strlen(row);
        if (n == 0 || row[n - 1] != '\n') {
            fprintf(stderr, "%s:%u: line too long or not ended by a newline\n", path, lineno);
            ok = false;
            break;
        }
        row[n - 1] = '\0';
        if (row[0] == '#')
            continue;
        char *tab = strchr(row, '\t');
        if (!tab || tab == row || !tab[1] || strchr(tab + 1, '\t')) {
            fprintf(stderr, "%s:%u: expected 'id<TAB>reason', found '%s'\n", path, lineno, row);
            ok = false;
            break;
        }
        *tab = '\0';
        if (find_pending(row)) {
            fprintf(stderr, "%s:%u: %s is listed twice\n", path, lineno, row);
            ok = false;
            break;
        }
        pend = xrealloc(pend, (npend + 1) * sizeof *pend);
        pend[npend++] = (pending){ xstrdup(row), xstrdup(tab + 1), false };
    }
    if (ferror(f))
        ok = false;
    fclose(f);
    return ok;
}

/* ---- the cases ---------------------------------------------------------- */

enum { COL_ID, COL_HOST, COL_LINE, COL_ORIG, COL_MUT, COL_KIND, COL_VERDICT, COL_DOMAIN,
       COL_MSG, COL_VARIANT, COL_OPCODE, COL_ARCH, COL_FLAGS, COL_EXIT, COL_ERRLINE, NCOLS = 17 };

static const char *const domains[] = { "accept", "grammar", "types", "semantic" };
enum { NDOMAINS = sizeof domains / sizeof domains[0] };

typedef struct tally {
    unsigned agree[NDOMAINS], total[NDOMAINS];
    unsigned passed, pending, failed, cases;
} tally;

/* What ptx-front did with one case, in words, into buf: "" when it agrees
 * with ptxas. */
static void judge(ptx_context *ctx, ptx_status st, int domain, unsigned want_line, char *buf,
                  size_t n)
{
    buf[0] = '\0';
    const ptx_diag *first = NULL;
    bool on_line = false;
    unsigned first_line = 0;
    for (size_t i = 0; i < ptx_diag_count(ctx); i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        if (d->severity != PTX_SEV_ERROR)
            continue;
        unsigned line = ptx_context_position(ctx, d->span.off).line;
        if (!first) {
            first = d;
            first_line = line;
        }
        if (!want_line || line == want_line)
            on_line = true;
    }
    if (st != PTX_OK && st != PTX_ERR_INPUT) {
        snprintf(buf, n, "ptx-front failed with status %d", (int)st);
    } else if (domain == 0) {
        if (st != PTX_OK)
            snprintf(buf, n, "ptxas accepts, ptx-front rejects: line %u: %s", first_line,
                     first ? first->message : "(no error message)");
    } else if (st == PTX_OK) {
        snprintf(buf, n, "ptxas rejects (%s), ptx-front accepts", domains[domain]);
    } else if (!on_line) {
        snprintf(buf, n, "ptxas rejects (%s) on line %u, ptx-front on line %u: %s",
                 domains[domain], want_line, first_line, first ? first->message : "?");
    }
}

/* Replays one TSV; returns false when it is malformed or a case cannot be
 * rebuilt. */
static bool run_tsv(const char *path, const char *root, const char *only, unsigned sample,
                    bool verbose, bool both_ways, tally *t)
{
    unsigned long counted = 0;
    FILE *tsv = fopen(path, "r");
    if (!tsv) {
        fprintf(stderr, "mutations: cannot read %s\n", path);
        return false;
    }
    static char row[1 << 20];
    unsigned lineno = 0;
    bool ok = true;
    char **ids = NULL;
    size_t nids = 0;
    while (ok && fgets(row, sizeof row, tsv)) {
        lineno++;
        size_t len = strlen(row);
        if (len == 0 || row[len - 1] != '\n') {
            fprintf(stderr, "%s:%u: row too long or not ended by a newline\n", path, lineno);
            ok = false;
            break;
        }
        row[len - 1] = '\0';
        if (lineno == 1) {
            if (strncmp(row, "id\thost\tline\toriginal\tmutated\t", 30) != 0) {
                fprintf(stderr, "%s:1: not the header of a mutation table\n", path);
                ok = false;
            }
            continue;
        }
        char *col[NCOLS] = { 0 };
        char *p = row;
        int c = 0;
        for (; c < NCOLS && p; c++) {
            col[c] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        unsigned long line = 0, errline = 0;
        int domain = -1;
        for (int d = 0; col[COL_DOMAIN] && d < NDOMAINS; d++)
            if (strcmp(col[COL_DOMAIN], domains[d]) == 0)
                domain = d;
        const char *why = c < NCOLS ? "too few columns"
                          : p ? "too many columns"
                          : !*col[COL_ID] ? "empty id"
                          : !number(col[COL_LINE], &line) || line == 0 ? "bad line number"
                          : domain < 0 ? "unknown domain"
                          : *col[COL_ERRLINE] && !number(col[COL_ERRLINE], &errline) ? "bad err_line"
                          : !*col[COL_OPCODE] ? "empty opcode"
                          : NULL;
        if (why) {
            fprintf(stderr, "%s:%u: malformed row (%s; %d columns, expected %d)\n", path, lineno,
                    why, c + (p != NULL), NCOLS);
            ok = false;
            break;
        }
        for (size_t i = 0; i < nids && ok; i++)
            if (strcmp(ids[i], col[COL_ID]) == 0) {
                fprintf(stderr, "%s:%u: duplicate id %s\n", path, lineno, col[COL_ID]);
                ok = false;
            }
        if (!ok)
            break;
        ids = xrealloc(ids, (nids + 1) * sizeof *ids);
        ids[nids++] = xstrdup(col[COL_ID]);
        pending *pe = find_pending(col[COL_ID]);
        if (pe)
            pe->seen = true;
        if (only) {
            size_t n = strlen(only);
            if (strncmp(col[COL_OPCODE], only, n) || (col[COL_OPCODE][n] && col[COL_OPCODE][n] != '.'))
                continue;
        }
        if (sample > 1 && counted++ % sample != 0)
            continue;
        host *h = get_host(root, col[COL_HOST]);
        if (!h || line > h->nlines) {
            fprintf(stderr, "%s:%u: %s: cannot rebuild the case from %s/%s\n", path, lineno,
                    col[COL_ID], root, col[COL_HOST]);
            ok = false;
            break;
        }
        unescape(col[COL_MUT]);
        size_t start = h->lines[line - 1];
        size_t end = line < h->nlines ? h->lines[line] - 1 : h->len;
        size_t mlen = strlen(col[COL_MUT]);
        size_t total = start + mlen + (h->len - end);
        char *buf = xrealloc(NULL, total + 1);
        memcpy(buf, h->text, start);
        memcpy(buf + start, col[COL_MUT], mlen);
        memcpy(buf + start + mlen, h->text + end, h->len - end);
        char what[1024];
        if (both_ways) {
            char where[900];
            int same = ptx_parse_both_ways(col[COL_ID], buf, total, 20, NULL, where, sizeof where);
            if (same < 0) {
                fprintf(stderr, "mutations: out of memory\n");
                exit(2);
            }
            what[0] = '\0';
            if (!same)
                snprintf(what, sizeof what, "the fast lane on and off differ: %s", where);
            free(buf);
        } else {
            ptx_context *ctx = ptx_context_new();
            if (!ctx) {
                fprintf(stderr, "mutations: out of memory\n");
                exit(2);
            }
            /* the rows ptxas judged with -c (rdc hosts) are compiled on their own */
            ptx_context_set_compile_only(ctx, strstr(col[COL_FLAGS], "-c") != NULL);
            ptx_status st = ptx_parse_buffer(ctx, col[COL_ID], buf, total, NULL);
            free(buf);
            judge(ctx, st, domain, (unsigned)errline, what, sizeof what);
            ptx_context_free(ctx);
        }
        t->cases++;
        t->total[domain]++;
        if (!what[0]) {
            t->agree[domain]++;
            if (pe) {
                if (both_ways)
                    printf("FAIL %s %s: the same both ways now: take it off %s\n", col[COL_ID],
                           col[COL_OPCODE], pend_path);
                else
                    printf("FAIL %s %s: agrees with ptxas now (%s): take it off %s\n", col[COL_ID],
                           col[COL_OPCODE], domain ? "rejected" : "accepted", pend_path);
                t->failed++;
            } else {
                t->passed++;
            }
            continue;
        }
        if (verbose)
            printf("DISAGREE %s\t%s: %s [%s]: ptxas: %s\n", col[COL_ID], what, col[COL_MUT],
                   col[COL_OPCODE], *col[COL_MSG] ? col[COL_MSG] : "accepted");
        if (pe) {
            t->pending++;
            if (verbose)
                printf("PENDING %s: %s\n", col[COL_ID], pe->reason);
        } else {
            printf("FAIL %s %s: %s\n  mutated line %lu: %s\n  ptxas: %s\n", col[COL_ID],
                   col[COL_OPCODE], what, line, col[COL_MUT],
                   *col[COL_MSG] ? col[COL_MSG] : "accepted");
            t->failed++;
        }
    }
    if (ok && ferror(tsv)) {
        fprintf(stderr, "%s: read error\n", path);
        ok = false;
    }
    if (ok && nids == 0) {
        fprintf(stderr, "%s: no cases: an empty table tests nothing\n", path);
        ok = false;
    }
    for (size_t i = 0; i < nids; i++)
        free(ids[i]);
    free(ids);
    fclose(tsv);
    return ok;
}

int main(int argc, char **argv)
{
    bool verbose = false, both_ways = false;
    const char *only = NULL;
    unsigned sample = 1;
    const char *pairs[64];
    int npairs = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) {
            verbose = true;
        } else if (!strcmp(argv[i], "-w")) {
            both_ways = true;
        } else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || n == 0 || n > 1000000) {
                npairs = -1;
                break;
            }
            sample = (unsigned)n;
        } else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
            if (!read_pending(argv[++i]))
                return 2;
        } else if (argv[i][0] == '-' || npairs == 64) {
            npairs = -1;
            break;
        } else {
            pairs[npairs++] = argv[i];
        }
    }
    if (npairs < 2 || npairs % 2) {
        fprintf(stderr, "usage: mutations [-v] [-w] [-f FAMILY] [-s N] [-p PENDING] TSV ROOT [TSV ROOT]...\n");
        return 2;
    }
    unsigned passed = 0, failed = 0, npending = 0;
    if (sample > 1)
        printf("mutations: 1 case in %u of each table (-s %u: the sanitized pass)\n", sample, sample);
    for (int k = 0; k < npairs; k += 2) {
        tally t = { { 0 }, { 0 }, 0, 0, 0, 0 };
        if (!run_tsv(pairs[k], pairs[k + 1], only, sample, verbose, both_ways, &t))
            return 2;
        const char *name = strrchr(pairs[k], '/') ? strrchr(pairs[k], '/') + 1 : pairs[k];
        if (both_ways) {
            printf("mutations: %s: %u cases parsed both ways, %u known to differ\n", name, t.cases,
                   t.pending);
        } else {
            printf("mutations: %s: %u cases; agree with ptxas:", name, t.cases);
            for (int d = 0; d < NDOMAINS; d++)
                printf("%s %s %u of %u", d ? "," : "", domains[d], t.agree[d], t.total[d]);
            printf("; %u pending\n", t.pending);
        }
        passed += t.passed;
        failed += t.failed;
        npending += t.pending;
    }
    /* a listed case no table holds is a stale entry (with -f, only a part
     * of each table was run, but every row was read) */
    unsigned stale = 0;
    for (size_t i = 0; i < npend; i++)
        if (!pend[i].seen) {
            fprintf(stderr, "mutations: %s: %s is in no table\n", pend_path, pend[i].id);
            stale++;
        }
    if (npending)
        printf("mutations: %u pending: they still %s, as %s says (-v lists them)\n", npending,
               both_ways ? "differ both ways" : "disagree with ptxas", pend_path);
    printf("mutations: %u passed, %u failed\n", passed, failed);
    for (size_t i = 0; i < nhosts; i++) {
        free(hosts[i].path);
        free(hosts[i].text);
        free(hosts[i].lines);
    }
    free(hosts);
    for (size_t i = 0; i < npend; i++) {
        free(pend[i].id);
        free(pend[i].reason);
    }
    free(pend);
    return stale ? 2 : failed ? 1 : 0;
}
