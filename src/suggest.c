/* "Did you mean": the words of a vocabulary closest to a misspelt one by
 * edit distance (insertions, deletions, substitutions and transpositions
 * of neighbours, each costing 1: "gloabl" is 1 from "global").  Used for
 * opcodes, modifiers, targets, directives and names. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Words longer than this are not compared: no one misspells them by a
 * letter or two, and the table below stays on the stack. */
enum { LONGEST = 64 };

/* The optimal string alignment distance, or cap + 1 once it exceeds cap. */
static unsigned distance(const char *a, size_t na, const char *b, size_t nb, unsigned cap, bool numbers)
{
    if (na > LONGEST || nb > LONGEST)
        return cap + 1;
    if ((na > nb ? na - nb : nb - na) > cap)
        return cap + 1;
    unsigned d[LONGEST + 1][LONGEST + 1];
    for (size_t i = 0; i <= na; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= nb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= na; i++) {
        unsigned row_min = cap + 1;
        for (size_t j = 1; j <= nb; j++) {
            /* with `numbers`, another digit is another thing: sm_91 is
             * not a misspelt sm_90 */
            unsigned cost = a[i - 1] == b[j - 1] ? 0
                          : numbers && (isdigit((unsigned char)a[i - 1]) || isdigit((unsigned char)b[j - 1])) ? cap + 1
                          : 1;
            unsigned sub = d[i - 1][j - 1] + cost;
            unsigned del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            unsigned v = sub < del ? sub : del;
            if (ins < v)
                v = ins;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
            if (v < row_min)
                row_min = v;
        }
        if (row_min > cap)
            return cap + 1;
    }
    return d[na][nb];
}

void ptx_suggest_init(ptx_suggest *s, const char *word, size_t len)
{
    memset(s, 0, sizeof *s);
    s->word = word;
    s->len = len;
    /* about a third of the word may be wrong, at least one letter; the
     * leading '.' or '%' every candidate shares does not count */
    size_t letters = len && (word[0] == '.' || word[0] == '%') ? len - 1 : len;
    s->cap = letters < 6 ? 1 : (unsigned)(letters / 3);
    s->best = 2 * s->cap + 2;    /* a score: see ptx_suggest_offer */
}

/* Is `cand` what the word most likely meant, before any nearer word: the
 * same word in another case (LD: ld), or the word of a common misspelling
 * (C's and Fortran's comparisons: .lte .le, .gte .ge, .neq .ne)? */
static bool meant(const ptx_suggest *s, const char *cand, size_t len)
{
    static const char *const common[][2] = { { "lte", "le" }, { "gte", "ge" }, { "neq", "ne" } };
    if (len == s->len) {
        size_t i = 0;
        while (i < len && (cand[i] == s->word[i] ||
                           (s->word[i] >= 'A' && s->word[i] <= 'Z' && cand[i] == s->word[i] - 'A' + 'a')))
            i++;
        if (i == len)
            return true;
    }
    size_t skip = s->len && (s->word[0] == '.' || s->word[0] == '%') ? 1 : 0;
    if (len <= skip || len != s->len - 1 || (skip && cand[0] != s->word[0]))
        return false;
    for (size_t k = 0; k < sizeof common / sizeof *common; k++)
        if (strlen(common[k][0]) == s->len - skip && memcmp(s->word + skip, common[k][0], s->len - skip) == 0 &&
            strlen(common[k][1]) == len - skip && memcmp(cand + skip, common[k][1], len - skip) == 0)
            return true;
    return false;
}

void ptx_suggest_offer(ptx_suggest *s, const char *cand, size_t len)
{
    if (!cand)
        return;
    if (len == s->len && memcmp(cand, s->word, len) == 0) {
        s->exact = true;        /* a known word, misplaced: no guess */
        return;
    }
    if (meant(s, cand, len)) {
        /* score 0: nothing else can tie with it */
        if (s->best > 0) {
            s->best = 0;
            s->nhits = 0;
            s->more = false;
        }
        for (unsigned i = 0; i < s->nhits; i++)
            if (s->hits[i].len == len && memcmp(s->hits[i].text, cand, len) == 0)
                return;
        if (s->nhits < PTX_SUGGEST_MAX)
            s->hits[s->nhits++] = (ptx_suggest_hit){ cand, len };
        return;
    }
    unsigned d = distance(s->word, s->len, cand, len, s->cap, s->numbers);
    if (d > s->cap)
        return;
    /* among equally distant words, those that start as the word does
     * ("add" and "and" for "ad", not "ld" or "mad") */
    size_t skip = s->len && (s->word[0] == '.' || s->word[0] == '%') ? 1 : 0;
    unsigned score = 2 * d + (s->len > skip && len > skip && cand[skip] != s->word[skip]);
    if (score > s->best)
        return;
    if (score < s->best) {
        s->best = score;
        s->nhits = 0;
        s->more = false;
    }
    for (unsigned i = 0; i < s->nhits; i++)
        if (s->hits[i].len == len && memcmp(s->hits[i].text, cand, len) == 0)
            return;
    if (s->nhits < PTX_SUGGEST_MAX)
        s->hits[s->nhits++] = (ptx_suggest_hit){ cand, len };
    else
        s->more = true;
}

const char *ptx_suggest_fix(const ptx_suggest *s)
{
    return s->nhits == 1 && !s->more && !s->exact ? s->hits[0].text : NULL;
}

const char *ptx_suggest_text(const ptx_suggest *s, char *buf, size_t size)
{
    buf[0] = '\0';
    /* more ties than we show: none of them is a good guess */
    if (!s->nhits || s->more || s->exact)
        return buf;
    size_t n = (size_t)snprintf(buf, size, "; did you mean ");
    for (unsigned i = 0; i < s->nhits && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s'%.*s'",
                              i == 0 ? "" : i + 1 == s->nhits ? " or " : ", ",
                              (int)s->hits[i].len, s->hits[i].text);
    if (n < size)
        snprintf(buf + n, size - n, "?");
    return buf;
}
