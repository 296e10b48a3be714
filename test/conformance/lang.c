/* The language table's replay (make lang): every case of
 * test/conformance/lang.tsv, a small module dev/langgen.py wrote and
 * ptxas 13.0 judged, is parsed by the library and must agree with ptxas:
 * a module ptxas accepts (warnings included) is accepted; a module it
 * rejects is rejected, with an error on the line ptxas names (any error
 * where ptxas names no line, as for "Unresolved extern function").  The
 * verdict replayed is whole-program mode's (the table's column verdict);
 * c_verdict, ptxas -c's, is read but not yet held against anyone.
 *
 * Known disagreements are listed, each with its reason, in a pending file
 * (id TAB reason; '#' lines are comments).  A listed case that agrees now
 * fails the run until its line is deleted (the list cannot rot), a listed
 * id the table does not hold is an error, and any other disagreement
 * fails, named by its id.
 *
 * usage: lang [-v] [-p PENDING] [-c CONSTRUCT] TSV
 *   -v            print every disagreement, pending or not, as
 *                 "DISAGREE id<TAB>class<TAB>what" (class: false-reject,
 *                 false-accept, wrong-line), and each pending reason
 *   -c CONSTRUCT  only the cases of that construct (every row is read)
 * At the end, a line per construct: cases, ptxas's accepts and rejects,
 * how many agree, and the disagreements by class.
 * Exit status 0 when every case agrees or is pending, 1 when one fails,
 * 2 for a malformed table or pending list (short or long row, unknown
 * verdict, duplicate id, no cases, a pending id not in the table).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "lang: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

/* Undoes dev/langgen.py's escapes in place; returns the new length. */
static size_t unescape(char *s)
{
    char *o = s, *start = s;
    for (; *s; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
    return (size_t)(o - start);
}

/* ---- the pending list ------------------------------------------------- */

typedef struct pending {
    char *id;
    char *reason;
    bool seen;
} pending;

static pending *pend;
static size_t npend;
static const char *pend_path = "(no pending list)";

static pending *find_pending(const char *id)
{
    for (size_t i = 0; i < npend; i++)
        if (strcmp(pend[i].id, id) == 0)
            return &pend[i];
    return NULL;
}

static bool read_pending(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "lang: cannot read %s\n", path);
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

/* ---- the tallies, one per construct ------------------------------------ */

enum { AGREE, FALSE_REJECT, FALSE_ACCEPT, WRONG_LINE, NCLASSES };
static const char *const class_names[NCLASSES] = { "agree", "false-reject", "false-accept",
                                                   "wrong-line" };

typedef struct tally {
    char *construct;
    unsigned cases, accepts, rejects, agree, pending;
    unsigned by_class[NCLASSES];
} tally;

static tally *tallies;
static size_t ntallies;

static tally *get_tally(const char *construct)
{
    for (size_t i = 0; i < ntallies; i++)
        if (strcmp(tallies[i].construct, construct) == 0)
            return &tallies[i];
    tallies = xrealloc(tallies, (ntallies + 1) * sizeof *tallies);
    tallies[ntallies] = (tally){ .construct = xstrdup(construct) };
    return &tallies[ntallies++];
}

/* How ptx-front's parse of one case compares with ptxas's verdict; what it
 * did, in words, into buf. */
static int judge(ptx_context *ctx, ptx_status st, bool reject, unsigned want_line, char *buf,
                 size_t n)
{
    const ptx_diag *first = NULL;
    unsigned first_line = 0;
    bool on_line = false;
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
    buf[0] = '\0';
    if (st != PTX_OK && st != PTX_ERR_INPUT) {
        snprintf(buf, n, "ptx-front failed with status %d", (int)st);
        return reject ? WRONG_LINE : FALSE_REJECT;
    }
    if (!reject) {
        if (st == PTX_OK)
            return AGREE;
        snprintf(buf, n, "ptx-front rejects: line %u: %s", first_line,
                 first ? first->message : "(no error message)");
        return FALSE_REJECT;
    }
    if (st == PTX_OK) {
        snprintf(buf, n, "ptx-front accepts");
        return FALSE_ACCEPT;
    }
    if (!on_line) {
        snprintf(buf, n, "ptx-front rejects on line %u, not %u: %s", first_line, want_line,
                 first ? first->message : "?");
        return WRONG_LINE;
    }
    return AGREE;
}

enum { COL_CONSTRUCT, COL_ID, COL_ARCH, COL_VERDICT, COL_LINE, COL_MSG, COL_CVERDICT, COL_PTX,
       NCOLS };
static const char header[] = "construct\tid\tarch\tverdict\tline\tmessage\tc_verdict\tptx";

static bool number(const char *s, unsigned long *v)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
        return false;
    *v = strtoul(s, NULL, 10);
    return true;
}

static bool known_verdict(const char *s, bool empty_ok)
{
    return (empty_ok && !*s) || !strcmp(s, "accept") || !strcmp(s, "reject") ||
           !strcmp(s, "crash");
}

/* Replays the table; returns 2 when it is malformed, 1 when a case fails. */
static int run(const char *path, const char *only, bool verbose, unsigned *failed_out)
{
    FILE *tsv = fopen(path, "r");
    if (!tsv) {
        fprintf(stderr, "lang: cannot read %s\n", path);
        return 2;
    }
    size_t cap = 1 << 16;
    char *row = xrealloc(NULL, cap);
    unsigned lineno = 0, failed = 0, cases = 0;
    char **ids = NULL;
    size_t nids = 0, idcap = 0;
    int status = 0;
    for (;;) {
        /* one row, however long */
        size_t len = 0;
        int ch;
        while ((ch = getc(tsv)) != EOF && ch != '\n') {
            if (len + 2 > cap)
                row = xrealloc(row, cap *= 2);
            row[len++] = (char)ch;
        }
        if (ch == EOF && len == 0)
            break;
        lineno++;
        if (ch == EOF) {
            fprintf(stderr, "%s:%u: row not ended by a newline\n", path, lineno);
            status = 2;
            break;
        }
        row[len] = '\0';
        if (lineno == 1) {
            if (strcmp(row, header) != 0) {
                fprintf(stderr, "%s:1: not the header of the language table\n", path);
                status = 2;
                break;
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
        unsigned long line = 0;
        const char *why = c < NCOLS ? "too few columns"
                          : p ? "too many columns"
                          : !*col[COL_CONSTRUCT] ? "empty construct"
                          : !*col[COL_ID] ? "empty id"
                          : !known_verdict(col[COL_VERDICT], false) ||
                                    !strcmp(col[COL_VERDICT], "crash") ? "unknown verdict"
                          : !known_verdict(col[COL_CVERDICT], true) ? "unknown c_verdict"
                          : *col[COL_LINE] && !number(col[COL_LINE], &line) ? "bad line"
                          : *col[COL_LINE] && !strcmp(col[COL_VERDICT], "accept") ? "a line on an accept"
                          : !*col[COL_PTX] ? "empty module"
                          : NULL;
        if (why) {
            fprintf(stderr, "%s:%u: malformed row (%s)\n", path, lineno, why);
            status = 2;
            break;
        }
        for (size_t i = 0; i < nids; i++)
            if (strcmp(ids[i], col[COL_ID]) == 0) {
                fprintf(stderr, "%s:%u: duplicate id %s\n", path, lineno, col[COL_ID]);
                status = 2;
            }
        if (status)
            break;
        if (nids == idcap)
            ids = xrealloc(ids, (idcap = idcap ? idcap * 2 : 1024) * sizeof *ids);
        ids[nids++] = xstrdup(col[COL_ID]);
        pending *pe = find_pending(col[COL_ID]);
        if (pe)
            pe->seen = true;
        if (only && strcmp(only, col[COL_CONSTRUCT]) != 0)
            continue;
        bool reject = !strcmp(col[COL_VERDICT], "reject");
        size_t n = unescape(col[COL_PTX]);
        ptx_context *ctx = ptx_context_new();
        if (!ctx) {
            fprintf(stderr, "lang: out of memory\n");
            exit(2);
        }
        ptx_status st = ptx_parse_buffer(ctx, col[COL_ID], col[COL_PTX], n, NULL);
        char what[1400];
        int cls = judge(ctx, st, reject, (unsigned)line, what, sizeof what);
        ptx_context_free(ctx);
        cases++;
        tally *t = get_tally(col[COL_CONSTRUCT]);
        t->cases++;
        if (reject)
            t->rejects++;
        else
            t->accepts++;
        t->by_class[cls]++;
        if (cls == AGREE) {
            t->agree++;
            if (pe) {
                printf("FAIL %s: agrees with ptxas now (%s): take it off %s\n", col[COL_ID],
                       reject ? "rejected" : "accepted", pend_path);
                failed++;
            }
            continue;
        }
        unescape(col[COL_MSG]);
        if (verbose) {
            /* the line ptxas names, or ptx-front's (from its message) */
            unsigned long at = line;
            const char *l = strstr(what, "line ");
            if (!at && l)
                at = strtoul(l + 5, NULL, 10);
            const char *src = col[COL_PTX];
            for (unsigned long k = 1; k < at && src; k++)
                src = strchr(src, '\n') ? strchr(src, '\n') + 1 : NULL;
            int srclen = src && at ? (int)strcspn(src, "\n") : 0;
            printf("DISAGREE %s\t%s\t%s\tptxas %s%s%s: %s\t%.*s\n", col[COL_ID],
                   class_names[cls], what, reject ? "rejects" : "accepts",
                   *col[COL_LINE] ? " on line " : "", col[COL_LINE], col[COL_MSG], srclen,
                   srclen ? src : "");
        }
        if (pe) {
            t->pending++;
            if (verbose)
                printf("PENDING %s: %s\n", col[COL_ID], pe->reason);
        } else {
            printf("FAIL %s %s: %s\n  ptxas: %s%s%s\n", col[COL_ID], class_names[cls], what,
                   reject ? "rejects" : "accepts", *col[COL_LINE] ? " on line " : "",
                   *col[COL_LINE] ? col[COL_LINE] : "");
            if (*col[COL_MSG])
                printf("  ptxas says: %s\n", col[COL_MSG]);
            printf("  module:\n%s", col[COL_PTX]);
            failed++;
        }
    }
    if (!status && ferror(tsv)) {
        fprintf(stderr, "%s: read error\n", path);
        status = 2;
    }
    if (!status && nids == 0) {
        fprintf(stderr, "%s: no cases: an empty table tests nothing\n", path);
        status = 2;
    }
    for (size_t i = 0; i < nids; i++)
        free(ids[i]);
    free(ids);
    free(row);
    fclose(tsv);
    *failed_out = failed;
    if (!status)
        printf("lang: %u cases run\n", cases);
    return status ? status : failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    bool verbose = false;
    const char *only = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) {
            verbose = true;
        } else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
            if (!read_pending(argv[++i]))
                return 2;
        } else if (argv[i][0] == '-' || path) {
            path = NULL;
            break;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        fprintf(stderr, "usage: lang [-v] [-p PENDING] [-c CONSTRUCT] TSV\n");
        return 2;
    }
    unsigned failed = 0;
    int status = run(path, only, verbose, &failed);
    if (status == 2)
        return 2;
    printf("lang: %-12s %6s %7s %7s %6s %7s %7s %6s %7s\n", "construct", "cases", "accepts",
           "rejects", "agree", "f-rej", "f-acc", "line", "pending");
    tally all = { .construct = "all" };
    for (size_t i = 0; i <= ntallies; i++) {
        tally *t = i < ntallies ? &tallies[i] : &all;
        if (i < ntallies) {
            all.cases += t->cases;
            all.accepts += t->accepts;
            all.rejects += t->rejects;
            all.agree += t->agree;
            all.pending += t->pending;
            for (int k = 0; k < NCLASSES; k++)
                all.by_class[k] += t->by_class[k];
        }
        printf("lang: %-12s %6u %7u %7u %6u %7u %7u %6u %7u\n", t->construct, t->cases,
               t->accepts, t->rejects, t->agree, t->by_class[FALSE_REJECT],
               t->by_class[FALSE_ACCEPT], t->by_class[WRONG_LINE], t->pending);
    }
    unsigned stale = 0;
    for (size_t i = 0; i < npend; i++)
        if (!pend[i].seen) {
            fprintf(stderr, "lang: %s: %s is in no table\n", pend_path, pend[i].id);
            stale++;
        }
    if (all.pending)
        printf("lang: %u pending: they still disagree with ptxas, as %s says (-v lists them)\n",
               all.pending, pend_path);
    printf("lang: %u failed\n", failed);
    for (size_t i = 0; i < ntallies; i++)
        free(tallies[i].construct);
    free(tallies);
    for (size_t i = 0; i < npend; i++) {
        free(pend[i].id);
        free(pend[i].reason);
    }
    free(pend);
    return stale ? 2 : status;
}
