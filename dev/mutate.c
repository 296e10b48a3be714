/* mutate: makes single-line mutations of the instructions of PTX files,
 * has ptxas judge each one and the library parse it, and prints the cases
 * on which the two disagree as rows in the format of
 * ../shared/mutations/public.tsv (see that folder's README).
 *
 * The instructions and their parts (opcode, modifiers, operands, literals)
 * are found through the library's tree, never by re-reading the text; the
 * replacement modifiers come from the instruction tables
 * (ptx_opcode_modifiers).  Everything random is drawn from one seeded
 * generator, so a run is repeatable.
 *
 * Of all instructions with the same opcode, modifiers and operand shapes,
 * only the one in the smallest file is mutated (ptxas is fastest there);
 * --per-opcode caps the mutations of each, --per-file those of each file.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ptx/ptx.h"

static const char usage[] =
    "usage: mutate [options] FILE...\n"
    "\n"
    "Mutates one instruction line at a time, asks ptxas and the library about\n"
    "each case and prints the disagreements as TSV rows (public.tsv columns).\n"
    "\n"
    "  --seed N           random seed (default 1)\n"
    "  --per-opcode N     mutations of each distinct instruction (default 8)\n"
    "  --per-file N       mutations per file (default 0: no limit)\n"
    "  --max N            mutations in all (default 0: no limit)\n"
    "  --kinds K,K...     only these kinds (default: all; --list-kinds)\n"
    "  --max-size BYTES   leave out files larger than this (ptxas is slow on them)\n"
    "  --every-file       mutate each file's instructions, not only those of\n"
    "                     the smallest file holding an instruction\n"
    "  --skip TSV         leave out cases already in TSV (repeatable)\n"
    "  --root DIR         write host paths relative to DIR\n"
    "  --id PREFIX        case ids PREFIX-NNNNN (default mut)\n"
    "  --all              print every judged case, not only disagreements\n"
    "  --dry-run          print the cases without running ptxas\n"
    "  --ptxas PATH       ptxas to run (default $PTXAS or /usr/local/cuda/bin/ptxas)\n"
    "  --jobs N           ptxas processes at a time (default 2)\n"
    "  --timeout S        seconds before a ptxas run is killed (default 20)\n"
    "  -o FILE            write the rows to FILE\n"
    "  -v                 say what happens, and each disagreement, on stderr\n";

/* ---- small helpers ------------------------------------------------------ */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "mutate: out of memory\n");
        exit(2);
    }
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "mutate: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

static char *fmt(const char *f, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap + 1);
    for (;;) {
        if (n == cap)
            buf = xrealloc(buf, (cap *= 2) + 1);
        size_t k = fread(buf + n, 1, cap - n, f);
        if (k == 0)
            break;
        n += k;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static uint64_t hash_str(const char *s, uint64_t h)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* splitmix64: small, and the same sequence on every machine */
typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t rng_below(rng *r, size_t n)
{
    return n ? (size_t)(rng_next(r) % n) : 0;
}

/* A set of strings (open addressing), for duplicate cases. */
typedef struct strset {
    char **slot;
    size_t cap, n;
} strset;

static bool strset_add(strset *s, const char *key)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        char **slot = calloc(cap, sizeof *slot);
        if (!slot)
            exit(2);
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slot[i])
                continue;
            size_t j = hash_str(s->slot[i], 0xcbf29ce484222325ull) & (cap - 1);
            while (slot[j])
                j = (j + 1) & (cap - 1);
            slot[j] = s->slot[i];
        }
        free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    size_t j = hash_str(key, 0xcbf29ce484222325ull) & (s->cap - 1);
    for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
        if (strcmp(s->slot[j], key) == 0)
            return false;
    s->slot[j] = xstrdup(key);
    s->n++;
    return true;
}

static bool strset_has(const strset *s, const char *key)
{
    if (!s->cap)
        return false;
    for (size_t j = hash_str(key, 0xcbf29ce484222325ull) & (s->cap - 1); s->slot[j];
         j = (j + 1) & (s->cap - 1))
        if (strcmp(s->slot[j], key) == 0)
            return true;
    return false;
}

static void strset_free(strset *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slot[i]);
    free(s->slot);
}

/* The TSV escaping of public.tsv: backslash, tab, CR, LF. */
static void put_escaped(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '\\': fputs("\\\\", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        case '\n': fputs("\\n", out); break;
        default: fputc(*s, out);
        }
    }
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

/* ---- input files -------------------------------------------------------- */

enum { FLAGS_UNKNOWN, FLAGS_NONE, FLAGS_C, FLAGS_RETRY, FLAGS_UNUSABLE };

typedef struct source {
    char *path;             /* as given */
    char *host;             /* as written in the rows */
    char *text;
    size_t len;
    size_t *lines;          /* offsets of line starts */
    size_t nlines;
    ptx_context *ctx;
    const ptx_module *m;
    char arch[32];
    int flags;              /* FLAGS_*: how ptxas takes the file */
    unsigned budget;        /* mutations still allowed (--per-file) */
} source;

static size_t line_of(const source *s, size_t off)
{
    size_t lo = 0, hi = s->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (s->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;      /* 0-based */
}

static size_t line_end(const source *s, size_t line)
{
    return line + 1 < s->nlines ? s->lines[line + 1] - 1 : s->len;
}

static bool load_source(source *s, const char *path, const char *root)
{
    memset(s, 0, sizeof *s);
    s->text = read_all(path, &s->len);
    if (!s->text) {
        fprintf(stderr, "mutate: cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    s->path = xstrdup(path);
    size_t rl = root ? strlen(root) : 0;
    while (rl > 1 && root[rl - 1] == '/')
        rl--;
    if (rl && strncmp(path, root, rl) == 0 && path[rl] == '/')
        s->host = xstrdup(path + rl + 1);
    else
        s->host = xstrdup(path);
    size_t cap = 1024;
    s->lines = xmalloc(cap * sizeof *s->lines);
    s->lines[s->nlines++] = 0;
    for (size_t i = 0; i < s->len; i++) {
        if (s->text[i] != '\n')
            continue;
        if (s->nlines == cap)
            s->lines = xrealloc(s->lines, (cap *= 2) * sizeof *s->lines);
        s->lines[s->nlines++] = i + 1;
    }
    s->ctx = ptx_context_new();
    if (!s->ctx)
        exit(2);
    ptx_status st = ptx_parse_buffer(s->ctx, s->path, s->text, s->len, &s->m);
    if (st != PTX_OK) {
        fprintf(stderr, "mutate: %s: the library rejects the file itself; skipped\n", path);
        return false;
    }
    if (!s->m->ntargets) {
        fprintf(stderr, "mutate: %s: no .target; skipped\n", path);
        return false;
    }
    /* ptxas 13.0 compiles for sm_75 and later; an older .target is
     * checked as written but assembled for sm_75 */
    const char *t = s->m->targets[0]->text;
    if (strncmp(t, "compute_", 8) == 0)
        t += 8;
    else if (strncmp(t, "sm_", 3) == 0)
        t += 3;
    else {
        fprintf(stderr, "mutate: %s: .target %s is not sm_NN; skipped\n", path, t);
        return false;
    }
    snprintf(s->arch, sizeof s->arch, "sm_%s", strtoul(t, NULL, 10) < 75 ? "75" : t);
    return true;
}

/* ---- what the tables know ----------------------------------------------- */

/* Every opcode the tables or the inputs know, with the modifiers the
 * tables allow after it. */
typedef struct root_info {
    char *name;
    bool *allows;                   /* indexed by ptx_modifier */
} root_info;

static root_info *roots;
static size_t nroots;
/* per category: every modifier that some opcode takes in it */
static ptx_modifier *cat_mods[PTX_CAT_COUNT];
static size_t ncat_mods[PTX_CAT_COUNT];
static strset known_words;          /* every modifier spelling */

static root_info *find_root(const char *name)
{
    for (size_t i = 0; i < nroots; i++)
        if (strcmp(roots[i].name, name) == 0)
            return &roots[i];
    return NULL;
}

/* `known`: the name is an opcode even if it takes no modifier */
static void add_root(const char *name, bool known)
{
    if (find_root(name))
        return;
    size_t total = 0;
    for (int c = 0; c < PTX_CAT_COUNT; c++)
        total += ptx_opcode_modifiers(name, (ptx_mod_category)c, NULL, 0);
    if (!total && !known && ptx_family_lookup(name) == PTX_FAMILY_NONE)
        return;
    roots = xrealloc(roots, (nroots + 1) * sizeof *roots);
    root_info *r = &roots[nroots++];
    r->name = xstrdup(name);
    r->allows = calloc(PTX_MOD_COUNT, sizeof *r->allows);
    if (!r->allows)
        exit(2);
    ptx_modifier buf[PTX_MOD_COUNT];
    for (int c = 0; c < PTX_CAT_COUNT; c++) {
        size_t n = ptx_opcode_modifiers(name, (ptx_mod_category)c, buf, PTX_MOD_COUNT);
        for (size_t k = 0; k < n; k++) {
            if (c != PTX_CAT_NONE && !r->allows[buf[k]]) {
                bool have = false;
                for (size_t j = 0; j < ncat_mods[c] && !have; j++)
                    have = cat_mods[c][j] == buf[k];
                if (!have) {
                    cat_mods[c] = xrealloc(cat_mods[c], (ncat_mods[c] + 1) * sizeof **cat_mods);
                    cat_mods[c][ncat_mods[c]++] = buf[k];
                }
            }
            r->allows[buf[k]] = true;
        }
    }
}

/* The opcodes of the families ("cp" of cp.async.bulk, "bar" of
 * bar_barrier), then those the inputs use. */
static void collect_roots(void)
{
    for (unsigned f = 1; f < PTX_FAMILY_COUNT; f++) {
        const char *name = ptx_family_name((ptx_family)f);
        size_t n = strcspn(name, "._");
        char *r = xstrndup(name, n);
        add_root(r, false);
        free(r);
    }
    for (unsigned m = 1; m < PTX_MOD_COUNT; m++)
        strset_add(&known_words, ptx_modifier_name((ptx_modifier)m));
}

/* ---- cases -------------------------------------------------------------- */

typedef struct mutation {
    source *src;
    size_t line;            /* 0-based */
    char *mutated;          /* the new line */
    const char *kind;
    char *variant;
    char *opcode;           /* the original opcode with its modifiers */
    bool shape;             /* the edit changes the operands' shape */
    bool scalar_vec;        /* a name may now stand where a vector goes */
    /* ptxas */
    int exit;               /* status; -N killed by signal N */
    bool timed_out;
    const char *verdict;
    char *message, *warning;
    unsigned err_line, n_errors;
    /* the library */
    bool ours_ok;
    char *ours_message;
    unsigned *ours_lines;   /* lines of its errors */
    unsigned nours;
} mutation;

static mutation *cases;
static size_t ncases, capcases;
static strset seen_cases;

/* What is being mutated: one instruction on one line. */
typedef struct target {
    source *src;
    const ptx_instr *in;
    size_t line;            /* 0-based, the instruction's first line */
    size_t lo, hi;          /* the line's bytes [lo, hi) */
    size_t tok_lo, tok_hi;  /* opcode and modifiers, when contiguous */
    bool tok_ok;
    char *opcode;
    /* the candidates of this instruction, before sampling */
    mutation *cand;
    size_t ncand, capcand;
} target;

static const char *const kinds[] = {
    "drop_mod", "dup_mod", "swap_order", "bad_mod", "add_mod", "foreign_mod", "unknown_mod",
    "bad_opcode", "swap_opcode", "drop_operand", "add_operand", "bracket", "imm_operand",
    "reg_operand", "vec_operand", "sink_operand", "punct", "literal",
};
#define NKINDS (sizeof kinds / sizeof *kinds)
static bool kind_on[NKINDS];

static int kind_index(const char *k)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(kinds[i], k) == 0)
            return (int)i;
    return -1;
}

/* A candidate: bytes [a, b) of the source replaced by `repl`, which must
 * stay within the target's line. */
static void propose(target *t, const char *kind, char *variant, size_t a, size_t b,
                    const char *repl, bool shape)
{
    if (!kind_on[kind_index(kind)] || a < t->lo || b > t->hi || a > b) {
        free(variant);
        return;
    }
    const char *line = t->src->text + t->lo;
    size_t rl = strlen(repl);
    size_t n = (a - t->lo) + rl + (t->hi - b);
    char *m = xmalloc(n + 1);
    memcpy(m, line, a - t->lo);
    memcpy(m + (a - t->lo), repl, rl);
    memcpy(m + (a - t->lo) + rl, t->src->text + b, t->hi - b);
    m[n] = '\0';
    if (n == t->hi - t->lo && memcmp(m, line, n) == 0) {
        free(m);
        free(variant);
        return;
    }
    if (t->ncand == t->capcand)
        t->cand = xrealloc(t->cand, (t->capcand = t->capcand ? 2 * t->capcand : 64) *
                                        sizeof *t->cand);
    mutation *mu = &t->cand[t->ncand++];
    memset(mu, 0, sizeof *mu);
    mu->src = t->src;
    mu->line = t->line;
    mu->mutated = m;
    mu->kind = kind;
    mu->variant = variant;
    mu->shape = shape;
}

static const char *text_at(const target *t, size_t off)
{
    return t->src->text + off;
}

/* ---- modifier and opcode mutations -------------------------------------- */

/* The opcode token rebuilt from words (opcode first). */
static void propose_words(target *t, const char *kind, char *variant, const char **w, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += strlen(w[i]);
    char *tok = xmalloc(len + 1), *p = tok;
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(w[i]);
        memcpy(p, w[i], k);
        p += k;
    }
    *p = '\0';
    propose(t, kind, variant, t->tok_lo, t->tok_hi, tok, false);
    free(tok);
}

/* A word like ".s33" for ".s32": its last number changed to one no table
 * knows; NULL when the word has no number. */
static char *madeup_word(const char *w)
{
    size_t n = strlen(w), e = n;
    while (e > 0 && !(w[e - 1] >= '0' && w[e - 1] <= '9'))
        e--;
    if (!e)
        return NULL;
    size_t b = e;
    while (b > 0 && w[b - 1] >= '0' && w[b - 1] <= '9')
        b--;
    unsigned long v = strtoul(w + b, NULL, 10);
    static const unsigned long bumps[] = { 1, 2, 3, 5, 7 };
    for (size_t k = 0; k < sizeof bumps / sizeof *bumps; k++) {
        char *c = fmt("%.*s%lu%s", (int)b, w, v + bumps[k], w + e);
        /* a word the tables know would be a real modifier, not a made-up one */
        if (!strset_has(&known_words, c))
            return c;
        free(c);
    }
    return NULL;
}

static void mutate_modifiers(target *t, rng *r)
{
    const ptx_instr *in = t->in;
    size_t n = in->nmods + 1;
    const char **w = xmalloc((n + 1) * sizeof *w);
    const char **x = xmalloc((n + 1) * sizeof *x);
    w[0] = ptx_instr_opcode(in)->text;
    for (size_t i = 1; i < n; i++)
        w[i] = in->mods[i - 1].name->text;
    const root_info *root = find_root(ptx_instr_opcode(in)->text);
    for (size_t i = 1; i < n; i++) {
        /* drop */
        size_t k = 0;
        for (size_t j = 0; j < n; j++)
            if (j != i)
                x[k++] = w[j];
        propose_words(t, "drop_mod", fmt("drop%s", w[i]), x, k);
        /* duplicate in place */
        k = 0;
        for (size_t j = 0; j < n; j++) {
            x[k++] = w[j];
            if (j == i)
                x[k++] = w[j];
        }
        propose_words(t, "dup_mod", fmt("dup%s", w[i]), x, k);
        /* move to every other position */
        for (size_t to = 1; to < n; to++) {
            if (to == i)
                continue;
            k = 0;
            for (size_t j = 0; j < n; j++)
                if (j != i)
                    x[k++] = w[j];
            memmove(x + to + 1, x + to, (k - to) * sizeof *x);
            x[to] = w[i];
            propose_words(t, "swap_order", fmt("move%s:%zu->%zu", w[i], i - 1, to - 1), x, n);
        }
        /* another of the same category, from this opcode's tables */
        ptx_mod_category cat = (ptx_mod_category)in->mods[i - 1].category;
        ptx_modifier alt[PTX_MOD_COUNT];
        size_t nalt = ptx_opcode_modifiers(ptx_instr_opcode(in)->text, cat, alt, PTX_MOD_COUNT);
        for (size_t a = 0; a < nalt && a < PTX_MOD_COUNT; a++) {
            const char *nw = ptx_modifier_name(alt[a]);
            if (strcmp(nw, w[i]) == 0)
                continue;
            memcpy(x, w, n * sizeof *x);
            x[i] = nw;
            propose_words(t, "bad_mod", fmt("cat:%s->%s", w[i], nw), x, n);
        }
        char *made = madeup_word(w[i]);
        if (made) {
            memcpy(x, w, n * sizeof *x);
            x[i] = made;
            propose_words(t, "bad_mod", fmt("madeup:%s->%s", w[i], made), x, n);
            free(made);
        }
        /* a modifier this opcode never takes, of the same category if any */
        if (root && cat != PTX_CAT_NONE) {
            for (int tries = 0; tries < 3 && ncat_mods[cat]; tries++) {
                ptx_modifier f = cat_mods[cat][rng_below(r, ncat_mods[cat])];
                if (root->allows[f])
                    continue;
                memcpy(x, w, n * sizeof *x);
                x[i] = ptx_modifier_name(f);
                propose_words(t, "foreign_mod", fmt("foreign:%s->%s", w[i], x[i]), x, n);
                break;
            }
        }
    }
    /* a modifier the opcode takes, or one it never takes, inserted */
    if (root) {
        ptx_modifier pool[PTX_MOD_COUNT];
        size_t npool = 0;
        for (unsigned m = 1; m < PTX_MOD_COUNT; m++) {
            bool present = false;
            for (size_t i = 1; i < n && !present; i++)
                present = strcmp(w[i], ptx_modifier_name((ptx_modifier)m)) == 0;
            if (root->allows[m] && !present)
                pool[npool++] = (ptx_modifier)m;
        }
        for (int rep = 0; rep < 6 && npool; rep++) {
            const char *nw = ptx_modifier_name(pool[rng_below(r, npool)]);
            size_t at = 1 + rng_below(r, n);
            memcpy(x, w, at * sizeof *x);
            x[at] = nw;
            memcpy(x + at + 1, w + at, (n - at) * sizeof *x);
            propose_words(t, "add_mod", fmt("add%s@%zu", nw, at - 1), x, n + 1);
            if (t->ncand && strncmp(t->cand[t->ncand - 1].variant, "add.v", 5) == 0)
                t->cand[t->ncand - 1].scalar_vec = true;
        }
        for (int rep = 0; rep < 3; rep++) {
            ptx_modifier f = (ptx_modifier)(1 + rng_below(r, PTX_MOD_COUNT - 1));
            if (root->allows[f])
                continue;
            const char *nw = ptx_modifier_name(f);
            size_t at = 1 + rng_below(r, n);
            memcpy(x, w, at * sizeof *x);
            x[at] = nw;
            memcpy(x + at + 1, w + at, (n - at) * sizeof *x);
            propose_words(t, "foreign_mod", fmt("insert%s@%zu", nw, at - 1), x, n + 1);
        }
    }
    /* words no table knows */
    static const char *const unknown[] = { ".foo", ".bar", ".xyz", ".zz", ".q32", ".v4x",
                                           ".global2", ".fast" };
    const char *u = unknown[rng_below(r, sizeof unknown / sizeof *unknown)];
    memcpy(x, w, n * sizeof *x);
    x[n] = u;
    propose_words(t, "unknown_mod", fmt("append%s", u), x, n + 1);
    size_t at = 1 + rng_below(r, n);
    memcpy(x, w, at * sizeof *x);
    x[at] = u;
    memcpy(x + at + 1, w + at, (n - at) * sizeof *x);
    propose_words(t, "unknown_mod", fmt("insert%s@%zu", u, at - 1), x, n + 1);
    free(w);
    free(x);
}

static void mutate_opcode(target *t, rng *r)
{
    const ptx_instr *in = t->in;
    const char *op = ptx_instr_opcode(in)->text;
    size_t n = strlen(op);
    size_t lo = t->tok_lo, hi = lo + n;
    /* misspellings, as in public.tsv */
    char *s = xmalloc(n + 2);
    size_t i = rng_below(r, n);
    snprintf(s, n + 2, "%.*s%c%s", (int)i + 1, op, op[i], op + i + 1);
    propose(t, "bad_opcode", fmt("double:%s->%s", op, s), lo, hi, s, false);
    if (n > 1) {
        i = rng_below(r, n);
        snprintf(s, n + 2, "%.*s%s", (int)i, op, op + i + 1);
        if (!find_root(s))
            propose(t, "bad_opcode", fmt("drop:%s->%s", op, s), lo, hi, s, false);
        i = rng_below(r, n - 1);
        memcpy(s, op, n + 1);
        s[i] = op[i + 1];
        s[i + 1] = op[i];
        if (!find_root(s))
            propose(t, "bad_opcode", fmt("swap:%s->%s", op, s), lo, hi, s, false);
    }
    i = rng_below(r, n + 1);
    snprintf(s, n + 2, "%.*s%c%s", (int)i, op, (char)('a' + rng_below(r, 26)), op + i);
    if (!find_root(s))
        propose(t, "bad_opcode", fmt("add:%s->%s", op, s), lo, hi, s, false);
    for (i = 0; i < n; i++)
        s[i] = op[i] >= 'a' && op[i] <= 'z' ? (char)(op[i] - 'a' + 'A') : op[i];
    s[n] = '\0';
    propose(t, "bad_opcode", fmt("upper:%s->%s", op, s), lo, hi, s, false);
    free(s);
    /* a neighbour: another opcode that takes one of this one's modifiers */
    const root_info **near = xmalloc((nroots + 1) * sizeof *near);
    size_t nnear = 0;
    for (size_t k = 0; k < nroots; k++) {
        if (strcmp(roots[k].name, op) == 0)
            continue;
        bool shares = in->nmods == 0;
        for (size_t j = 0; j < in->nmods && !shares; j++)
            shares = in->mods[j].id && roots[k].allows[in->mods[j].id];
        if (shares)
            near[nnear++] = &roots[k];
    }
    for (int rep = 0; rep < 4 && nnear; rep++) {
        const root_info *o = near[rng_below(r, nnear)];
        propose(t, "swap_opcode", fmt("opcode:%s->%s", op, o->name), lo, hi, o->name, false);
    }
    free(near);
}

/* ---- operand mutations -------------------------------------------------- */

static char *expr_text(const target *t, const ptx_expr *e)
{
    return xstrndup(text_at(t, ptx_expr_span(e).off), ptx_expr_span(e).len);
}

/* the offset of the first c after `from` with only blanks before it */
static size_t find_after(const target *t, size_t from, char c)
{
    const char *p = t->src->text;
    while (from < t->hi && (p[from] == ' ' || p[from] == '\t'))
        from++;
    return from < t->hi && p[from] == c ? from : (size_t)-1;
}

static void mutate_literal(target *t, const ptx_expr *e)
{
    size_t a = ptx_expr_span(e).off, b = a + ptx_expr_span(e).len;
    char *lit = expr_text(t, e);
    if (e->kind == PTX_EXPR_INT) {
        struct { const char *name, *repl; } v[] = {
            { "int_hex_empty", "0x" }, { "int_hex_badchar", "0xZ" }, { "int_hex_badchar", "0xg0" },
            { "int_bad_octal", "09" }, { "int_bad_octal", "078" }, { "int_short_float", "0f3F80" },
        };
        for (size_t k = 0; k < sizeof v / sizeof *v; k++)
            propose(t, "literal", fmt("%s:%s->%s", v[k].name, lit, v[k].repl), a, b, v[k].repl,
                    false);
        static const char *const suffix[] = { "abc", "UU", "ul", "L", "." };
        static const char *const sname[] = { "int_alnum", "int_bad_suffix", "int_bad_suffix",
                                             "int_bad_suffix", "int_trailing_dot" };
        for (size_t k = 0; k < 5; k++) {
            char *s = fmt("%s%s", lit, suffix[k]);
            propose(t, "literal", fmt("%s:%s->%s", sname[k], lit, s), a, b, s, false);
            free(s);
        }
    } else if (e->kind == PTX_EXPR_F32 || e->kind == PTX_EXPR_F64) {
        size_t n = strlen(lit);
        char *s = fmt("%s0", lit);
        propose(t, "literal", fmt("float_long:%s->%s", lit, s), a, b, s, false);
        free(s);
        if (n > 4) {
            s = xstrndup(lit, n - 2);
            propose(t, "literal", fmt("float_short:%s->%s", lit, s), a, b, s, false);
            free(s);
            s = xstrdup(lit);
            s[n - 2] = 'G';
            propose(t, "literal", fmt("float_badhex:%s->%s", lit, s), a, b, s, false);
            free(s);
            s = xstrdup(lit);
            s[1] = s[1] == 'f' || s[1] == 'F' ? 'd' : 'f';
            propose(t, "literal", fmt("float_swaplen:%s->%s", lit, s), a, b, s, false);
            free(s);
        }
    }
    free(lit);
}

static void walk_literals(target *t, const ptx_expr *e)
{
    if (!e)
        return;
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: case PTX_EXPR_F32: case PTX_EXPR_F64:
        mutate_literal(t, e);
        return;
    case PTX_EXPR_UNARY: case PTX_EXPR_PAREN: case PTX_EXPR_CAST:
        walk_literals(t, ptx_expr_a(e));
        return;
    case PTX_EXPR_BINARY: case PTX_EXPR_INDEX: case PTX_EXPR_PAIR:
        walk_literals(t, ptx_expr_a(e));
        walk_literals(t, ptx_expr_b(e));
        return;
    case PTX_EXPR_COND: case PTX_EXPR_ADDR: case PTX_EXPR_VEC: case PTX_EXPR_LIST:
        for (uint32_t i = 0; i < ptx_expr_count(e); i++)
            walk_literals(t, ptx_expr_item(e, i));
        return;
    default:
        return;
    }
}

static bool is_immediate(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_INT: case PTX_EXPR_FLOAT: case PTX_EXPR_F32: case PTX_EXPR_F64:
    case PTX_EXPR_BINARY: case PTX_EXPR_COND: case PTX_EXPR_CAST: case PTX_EXPR_PAREN:
        return true;
    case PTX_EXPR_UNARY:
        return e->op != PTX_OP_LNOT;
    default:
        return false;
    }
}

/* An immediate of the kind operand i takes: a float where the type is
 * floating point (an integer there is a type error, not a shape error).
 * The destination goes with the first type modifier, sources with the
 * last (cvt.f32.s32). */
static const char *immediate_for(const ptx_instr *in, size_t i)
{
    ptx_modifier ty = PTX_MOD_NONE;
    for (unsigned k = 0; ; k++) {
        ptx_modifier m = ptx_instr_modifier(in, PTX_CAT_TYPE, k);
        if (m == PTX_MOD_NONE)
            break;
        ty = m;
        if (i == 0)
            break;
    }
    const char *name = ty ? ptx_modifier_name(ty) : "";
    if (strcmp(name, ".f64") == 0)
        return "0d3FF0000000000000";
    if (strncmp(name, ".f", 2) == 0 || strncmp(name, ".bf", 3) == 0 || strncmp(name, ".e", 2) == 0 ||
        strncmp(name, ".tf", 3) == 0)
        return "0f3F800000";
    return "1";
}

static void mutate_operands(target *t, rng *r)
{
    const ptx_instr *in = t->in;
    size_t n = in->nops;
    const char *reg = NULL;     /* a register of this instruction */
    for (size_t i = 0; i < n && !reg; i++)
        if (in->ops[i].kind == PTX_EXPR_SYM && ptx_expr_name(&in->ops[i])->text[0] == '%')
            reg = ptx_expr_name(&in->ops[i])->text;
    for (size_t i = 0; i < n; i++) {
        const ptx_expr *e = &in->ops[i];
        size_t a = ptx_expr_span(e).off, b = a + ptx_expr_span(e).len;
        char *s = expr_text(t, e);
        /* drop: with the comma before it, or after it for the first */
        if (n == 1)
            propose(t, "drop_operand", xstrdup("drop_only"), a, b, "", true);
        else if (i == n - 1)
            propose(t, "drop_operand", fmt("drop_last(%zu->%zu)", n, n - 1),
                    ptx_expr_span(&in->ops[i - 1]).off + ptx_expr_span(&in->ops[i - 1]).len, b, "", true);
        else
            propose(t, "drop_operand", fmt("drop_op%zu/%zu", i, n), a, ptx_expr_span(&in->ops[i + 1]).off,
                    "", true);
        char *d = fmt("%s, %s", s, s);
        propose(t, "add_operand", fmt("dup_op%zu/%zu", i, n), a, b, d, true);
        free(d);
        if (e->kind == PTX_EXPR_SYM) {
            d = fmt("[%s]", s);
            propose(t, "bracket", fmt("wrap_brackets:%zu", i), a, b, d, true);
            free(d);
            d = fmt("{%s}", s);
            propose(t, "vec_operand", fmt("vec1_op%zu", i), a, b, d, true);
            free(d);
            d = fmt("{%s, %s}", s, s);
            propose(t, "vec_operand", fmt("vec2_op%zu", i), a, b, d, true);
            free(d);
            propose(t, "sink_operand", fmt("sink_op%zu", i), a, b, "_", true);
            const char *imm = immediate_for(in, i);
            propose(t, "imm_operand", fmt("imm_op%zu:%s", i, imm), a, b, imm, true);
        } else if (e->kind == PTX_EXPR_ADDR) {
            d = xstrndup(s + 1, strlen(s) - 2);
            propose(t, "bracket", fmt("remove_brackets:%zu", i), a, b, d, true);
            free(d);
            propose(t, "imm_operand", fmt("imm_op%zu:16", i), a, b, "16", true);
        } else if (e->kind == PTX_EXPR_VEC && ptx_expr_count(e)) {
            char *first = expr_text(t, ptx_expr_item(e, 0));
            propose(t, "vec_operand", fmt("unvec_op%zu", i), a, b, first, true);
            if (t->ncand && strncmp(t->cand[t->ncand - 1].variant, "unvec", 5) == 0)
                t->cand[t->ncand - 1].scalar_vec = true;
            const ptx_expr *last = ptx_expr_item(e, ptx_expr_count(e) - 1);
            size_t le = ptx_expr_span(last).off + ptx_expr_span(last).len;
            char *lt = expr_text(t, last);
            d = fmt(", %s", lt);
            propose(t, "vec_operand", fmt("vec_grow_op%zu", i), le, le, d, true);
            free(d);
            if (ptx_expr_count(e) > 1) {
                const ptx_expr *prev = ptx_expr_item(e, ptx_expr_count(e) - 2);
                propose(t, "vec_operand", fmt("vec_shrink_op%zu", i),
                        ptx_expr_span(prev).off + ptx_expr_span(prev).len, le, "", true);
            }
            free(lt);
            free(first);
        } else if (is_immediate(e) && reg) {
            propose(t, "reg_operand", fmt("reg_op%zu:%s", i, reg), a, b, reg, false);
        }
        /* punctuation around this operand */
        if (i + 1 < n) {
            size_t c = find_after(t, b, ',');
            if (c != (size_t)-1) {
                propose(t, "punct", fmt("del_comma:%zu", i), c, c + 1, "", true);
                propose(t, "punct", fmt("dbl_comma:%zu", i), c, c + 1, ",,", true);
            }
        }
        propose(t, "punct", fmt("stray_paren_after_op:%zu", i), b, b, ")", true);
        free(s);
        walk_literals(t, e);
    }
    size_t end = in->base.span.off + in->base.span.len;
    size_t semi = find_after(t, end, ';');
    if (semi != (size_t)-1) {
        propose(t, "punct", xstrdup("del_semicolon"), semi, semi + 1, "", true);
        propose(t, "punct", xstrdup("stray_paren_end"), semi, semi, ")", true);
    }
    (void)r;
}

/* ---- choosing instructions ---------------------------------------------- */

static char shape_char(const ptx_expr *e)
{
    switch ((ptx_expr_kind)e->kind) {
    case PTX_EXPR_SYM: return ptx_expr_name(e)->text[0] == '%' ? 'r' : 'n';
    case PTX_EXPR_SINK: return '_';
    case PTX_EXPR_ADDR: return 'a';
    case PTX_EXPR_VEC: return (char)('0' + (ptx_expr_count(e) < 9 ? ptx_expr_count(e) : 9));
    case PTX_EXPR_LIST: return 'L';
    case PTX_EXPR_PAIR: return '|';
    case PTX_EXPR_INDEX: return 'x';
    case PTX_EXPR_UNARY: return e->op == PTX_OP_LNOT ? '!' : 'i';
    default: return 'i';
    }
}

/* "ld.global.u32|ra": what makes two instructions alike here */
static char *instr_key(const ptx_instr *in, char **opcode)
{
    size_t len = ptx_instr_opcode(in)->len + 2 + in->nops;
    for (unsigned i = 0; i < in->nmods; i++)
        len += in->mods[i].name->len;
    char *k = xmalloc(len + 1), *p = k;
    p += sprintf(p, "%s", ptx_instr_opcode(in)->text);
    for (unsigned i = 0; i < in->nmods; i++)
        p += sprintf(p, "%s", in->mods[i].name->text);
    *opcode = xstrndup(k, (size_t)(p - k));
    *p++ = '|';
    for (unsigned i = 0; i < in->nops; i++)
        *p++ = shape_char(&in->ops[i]);
    *p = '\0';
    return k;
}

typedef struct chosen {
    char *key;
    source *src;
    const ptx_instr *in;
} chosen;

static chosen *picks;
static size_t npicks, cappicks;

/* key -> index into picks, by a sorted array built at the end */
static int cmp_pick(const void *a, const void *b)
{
    const chosen *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    if (x->src->len != y->src->len)
        return x->src->len < y->src->len ? -1 : 1;
    int pc = strcmp(x->src->path, y->src->path);
    if (pc)
        return pc;
    return x->in->base.span.off < y->in->base.span.off ? -1 :
           x->in->base.span.off > y->in->base.span.off;
}

static void collect_instrs(source *s, bool every_file)
{
    ptx_iter *it = ptx_iter_new(s->m);
    if (!it)
        exit(2);
    const ptx_node *n;
    ptx_event ev;
    while ((ev = ptx_iter_next(it, &n)) > 0) {
        if (ev != PTX_EVENT_ENTER || n->kind != PTX_NODE_INSTR)
            continue;
        const ptx_instr *in = (const ptx_instr *)n;
        if (in->base.span.off == PTX_NO_OFFSET)
            continue;
        char *opcode;
        char *key = instr_key(in, &opcode);
        free(opcode);
        if (every_file) {
            char *k2 = fmt("%s|%s", key, s->path);
            free(key);
            key = k2;
        }
        add_root(ptx_instr_opcode(in)->text, in->family != PTX_FAMILY_NONE);
        if (npicks == cappicks)
            picks = xrealloc(picks, (cappicks = cappicks ? 2 * cappicks : 4096) * sizeof *picks);
        picks[npicks].key = key;
        picks[npicks].src = s;
        picks[npicks].in = in;
        npicks++;
    }
    ptx_iter_free(it);
}

static void make_target(target *t, source *s, const ptx_instr *in)
{
    memset(t, 0, sizeof *t);
    t->src = s;
    t->in = in;
    t->line = line_of(s, in->base.span.off);
    t->lo = s->lines[t->line];
    t->hi = line_end(s, t->line);
    /* the opcode: right after the guard, where the modifiers begin */
    size_t op = in->base.span.off;
    if (in->nmods)
        op = ptx_mod_offset(in, 0) - ptx_instr_opcode(in)->len;
    else if (ptx_instr_guard(in)) {
        const char *p = s->text;
        size_t end = in->base.span.off + in->base.span.len;
        while (op < end && p[op] != ' ' && p[op] != '\t')
            op++;
        while (op < end && (p[op] == ' ' || p[op] == '\t'))
            op++;
    }
    t->tok_lo = op;
    t->tok_ok = strncmp(s->text + op, ptx_instr_opcode(in)->text, ptx_instr_opcode(in)->len) == 0;
    size_t at = op + ptx_instr_opcode(in)->len;
    for (unsigned i = 0; i < in->nmods && t->tok_ok; i++) {
        t->tok_ok = ptx_mod_offset(in, i) == at;
        at += in->mods[i].name->len;
    }
    t->tok_hi = at;
}

/* ---- running ptxas ------------------------------------------------------ */

typedef struct job {
    pid_t pid;
    double start;
    mutation *mu;           /* NULL: checking a host file */
    source *host;
    int flags;
    char out[64];
} job;

static const char *ptxas = "/usr/local/cuda/bin/ptxas";
static char workdir[] = "/tmp/ptx-mutate.XXXXXX";
static double timeout_s = 20;
static int njobs = 2;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spawn(job *j, int slot, const char *text1, size_t len1, const char *mid, size_t lenm,
                  const char *text2, size_t len2, const char *arch, int flags)
{
    char in[64];
    snprintf(in, sizeof in, "%s/case%d.ptx", workdir, slot);
    snprintf(j->out, sizeof j->out, "%s/case%d.out", workdir, slot);
    FILE *f = fopen(in, "wb");
    if (!f || fwrite(text1, 1, len1, f) != len1 || fwrite(mid, 1, lenm, f) != lenm ||
        fwrite(text2, 1, len2, f) != len2 || fclose(f) != 0) {
        fprintf(stderr, "mutate: cannot write %s\n", in);
        exit(2);
    }
    char archopt[64];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("mutate: fork");
        exit(2);
    }
    if (pid == 0) {
        FILE *o = freopen(j->out, "w", stdout);
        if (!o || dup2(fileno(stdout), 2) < 0)
            _exit(127);
        char *argv[8];
        int k = 0;
        argv[k++] = (char *)ptxas;
        argv[k++] = archopt;
        if (flags == FLAGS_C)
            argv[k++] = "-c";
        argv[k++] = in;
        argv[k++] = "-o";
        argv[k++] = "/dev/null";
        argv[k] = NULL;
        execv(ptxas, argv);
        _exit(127);
    }
    j->pid = pid;
    j->start = now();
}

/* "ptxas /tmp/x/case0.ptx, line 12; error   : ..." without the path */
static char *strip_prefix(const char *line)
{
    const char *p = strstr(line, ".ptx, line ");
    if (p && strncmp(line, "ptxas ", 6) == 0)
        return xstrdup(p + 6);
    return xstrdup(line);
}

static bool contains(const char *s, const char *needle)
{
    return s && strstr(s, needle) != NULL;
}

/* The classification of ../shared/mutations/README.md, first match wins. */
static const char *classify(const mutation *mu)
{
    const char *m = mu->message;
    if (mu->timed_out)
        return "timeout";
    if (mu->exit < 0 || contains(m, "Internal error") || contains(m, "Segmentation") ||
        contains(m, "Assertion"))
        return "crash";
    if (mu->exit == 0)
        return "accept";
    static const char *const semantic[] = {
        "Unknown symbol", "not declared", "Illegal operand type", "undefined", "Undefined",
        "Label expected", "multiply defined", "Multiply defined", "redefinition", "Redefinition",
        "32-Bit ABI", "32-Bit compilation", "32-bit address", "Unresolved extern",
        "State space mismatch between instruction and address", "Array indexing on non-array",
        "Unknown field", "not found",
    };
    for (size_t i = 0; i < sizeof semantic / sizeof *semantic; i++)
        if (contains(m, semantic[i]))
            return "reject_semantic";
    static const char *const syntax[] = {
        "Parsing error", "syntax error", "Unknown modifier", "Not a name of any known instruction",
        "Unexpected instruction types", "Arguments mismatch", "number of state spaces",
        "State space incorrect", "Illegal", "not supported", "requires", "Vector Type",
        "video selector", "Constant overflow", "Invalid", "invalid", "modifier", "Modifier",
        "Duplicate", "Multiple", "must be", "constant expression", "instruction type",
        "operation", "Argument", "expected", "out of range", "Unexpected", "unexpected",
        "Missing", "missing", "mutually exclusive", "cannot be", "not allowed", "Only",
        "required",
    };
    for (size_t i = 0; i < sizeof syntax / sizeof *syntax; i++)
        if (contains(m, syntax[i]))
            return "reject_syntax";
    return "reject_semantic";
}

static const char *domain_of(const mutation *mu)
{
    const char *v = mu->verdict;
    if (strcmp(v, "accept") == 0)
        return "accept";
    if (strcmp(v, "reject_syntax") == 0) {
        /* what the declared registers decide: their types (an immediate
         * of the wrong kind too), or whether a name is a vector register */
        if (contains(mu->message, "Arguments mismatch") &&
            (!mu->shape || strcmp(mu->kind, "imm_operand") == 0 ||
             strcmp(mu->kind, "vec_operand") == 0))
            return "types";
        if (mu->scalar_vec && (contains(mu->message, "ector expected") ||
                               contains(mu->message, "vector size mismatch")))
            return "types";
        return "grammar";
    }
    if (strcmp(v, "reject_semantic") == 0)
        return "semantic";
    return "none";
}

static void read_result(job *j, int status)
{
    size_t len;
    char *out = read_all(j->out, &len);
    unlink(j->out);
    mutation tmp = { 0 };
    mutation *mu = j->mu ? j->mu : &tmp;
    mu->exit = WIFSIGNALED(status) ? -WTERMSIG(status) : WEXITSTATUS(status);
    for (char *line = out, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (strstr(line, "error   :") || strstr(line, "fatal   :")) {
            if (strstr(line, "Ptx assembly aborted"))
                continue;
            mu->n_errors++;
            if (!mu->message) {
                mu->message = strip_prefix(line);
                const char *l = strstr(mu->message, "line ");
                if (l == mu->message)
                    mu->err_line = (unsigned)strtoul(l + 5, NULL, 10);
            }
        } else if (strstr(line, "warning") && !mu->warning) {
            mu->warning = strip_prefix(line);
        }
    }
    free(out);
    if (!j->mu) {
        /* a host checked unmodified: usable as is, or with -c (a module
         * built with -rdc=true calls functions defined elsewhere) */
        if (tmp.exit == 0)
            j->host->flags = j->flags;
        else if (j->flags == FLAGS_NONE && contains(tmp.message, "Unresolved extern"))
            j->host->flags = FLAGS_RETRY;
        else
            j->host->flags = FLAGS_UNUSABLE;
        if (j->host->flags == FLAGS_UNUSABLE)
            fprintf(stderr, "mutate: %s: ptxas rejects the file itself (%s); skipped\n",
                    j->host->path, tmp.message ? tmp.message : "no message");
        free(tmp.message);
        free(tmp.warning);
        return;
    }
    mu->verdict = classify(mu);
}

static void ours(mutation *mu, const char *text, size_t len)
{
    ptx_context *ctx = ptx_context_new();
    if (!ctx)
        exit(2);
    ptx_status st = ptx_parse_buffer(ctx, mu->src->host, text, len, NULL);
    mu->ours_ok = st == PTX_OK;
    size_t nd = ptx_diag_count(ctx);
    mu->ours_lines = xmalloc((nd + 1) * sizeof *mu->ours_lines);
    for (size_t i = 0; i < nd; i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        if (d->severity != PTX_SEV_ERROR)
            continue;
        if (!mu->ours_message) {
            ptx_position p = ptx_context_position(ctx, d->span.off);
            mu->ours_message = fmt("line %u: %s", (unsigned)p.line, d->message);
        }
        mu->ours_lines[mu->nours++] = ptx_context_position(ctx, d->span.off).line;
    }
    ptx_context_free(ctx);
}

/* Runs every case (or, with hosts, checks host files unmodified). */
static void run_all(mutation **list, size_t n, source **hosts, size_t nhosts, bool verbose)
{
    job *jobs = calloc((size_t)njobs, sizeof *jobs);
    if (!jobs)
        exit(2);
    size_t next = 0, done = 0, total = list ? n : nhosts;
    double t0 = now(), last = t0;
    while (done < total) {
        for (int s = 0; s < njobs && next < total; s++) {
            if (jobs[s].pid)
                continue;
            job *j = &jobs[s];
            memset(j, 0, sizeof *j);
            if (list) {
                mutation *mu = list[next++];
                source *h = mu->src;
                size_t lo = h->lines[mu->line], hi = line_end(h, mu->line);
                spawn(j, s, h->text, lo, mu->mutated, strlen(mu->mutated), h->text + hi,
                      h->len - hi, h->arch, h->flags);
                j->mu = mu;
                /* the library reads the same text while ptxas runs */
                size_t ml = strlen(mu->mutated), len = lo + ml + (h->len - hi);
                char *buf = xmalloc(len + 1);
                memcpy(buf, h->text, lo);
                memcpy(buf + lo, mu->mutated, ml);
                memcpy(buf + lo + ml, h->text + hi, h->len - hi);
                ours(mu, buf, len);
                free(buf);
            } else {
                source *h = hosts[next++];
                j->host = h;
                j->flags = h->flags == FLAGS_RETRY ? FLAGS_C : FLAGS_NONE;
                spawn(j, s, h->text, h->len, "", 0, "", 0, h->arch, j->flags);
            }
        }
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        for (int s = 0; pid > 0 && s < njobs; s++) {
            if (jobs[s].pid != pid)
                continue;
            read_result(&jobs[s], status);
            jobs[s].pid = 0;
            done++;
        }
        /* the timeouts are checked even while other runs keep finishing */
        double t = now();
        for (int s = 0; s < njobs; s++) {
            if (jobs[s].pid && t - jobs[s].start > timeout_s) {
                kill(jobs[s].pid, SIGKILL);
                waitpid(jobs[s].pid, &status, 0);
                if (jobs[s].mu) {
                    jobs[s].mu->timed_out = true;
                    jobs[s].mu->exit = -SIGKILL;
                    jobs[s].mu->verdict = "timeout";
                } else {
                    jobs[s].host->flags = FLAGS_UNUSABLE;
                }
                unlink(jobs[s].out);
                jobs[s].pid = 0;
                done++;
            }
        }
        if (verbose && t - last > 30) {
            last = t;
            fprintf(stderr, "mutate: %zu of %zu run (%.0f s)\n", done, total, t - t0);
        }
        if (pid <= 0) {
            struct timespec ts = { 0, 2000000 };
            nanosleep(&ts, NULL);
        }
    }
    for (int s = 0; s < njobs; s++) {
        char in[64];
        snprintf(in, sizeof in, "%s/case%d.ptx", workdir, s);
        unlink(in);
    }
    free(jobs);
}

/* ---- reports ------------------------------------------------------------ */

/* ptxas rejects: is one of our errors on the line it names (any line when
 * it names none)? */
static bool ours_on_line(const mutation *mu)
{
    if (mu->ours_ok)
        return false;
    if (!mu->err_line)
        return mu->nours > 0;
    for (unsigned i = 0; i < mu->nours; i++)
        if (mu->ours_lines[i] == mu->err_line)
            return true;
    return false;
}

/* "false-reject", "missed", "wrong-line", or NULL when we agree */
static const char *disagreement(const mutation *mu)
{
    const char *d = domain_of(mu);
    if (strcmp(d, "accept") == 0)
        return mu->ours_ok ? NULL : "false-reject";
    /* the semantic pass decides types and semantic cases as the tables
     * decide grammar ones: a miss is a disagreement in every domain (a
     * ptxas crash or time-out has no verdict to agree with) */
    if (strcmp(d, "grammar") == 0 || strcmp(d, "types") == 0 || strcmp(d, "semantic") == 0) {
        if (mu->ours_ok)
            return "missed";
        return ours_on_line(mu) ? NULL : "wrong-line";
    }
    return NULL;
}

static void put_row(FILE *out, const char *prefix, size_t id, const mutation *mu)
{
    const source *h = mu->src;
    size_t lo = h->lines[mu->line], hi = line_end(h, mu->line);
    char *orig = xstrndup(h->text + lo, hi - lo);
    fprintf(out, "%s-%05zu\t", prefix, id);
    put_escaped(out, h->host);
    fprintf(out, "\t%zu\t", mu->line + 1);
    put_escaped(out, orig);
    fputc('\t', out);
    put_escaped(out, mu->mutated);
    fprintf(out, "\t%s\t%s\t%s\t", mu->kind, mu->verdict ? mu->verdict : "",
            mu->verdict ? domain_of(mu) : "");
    put_escaped(out, mu->message);
    fputc('\t', out);
    put_escaped(out, mu->variant);
    fputc('\t', out);
    put_escaped(out, mu->opcode);
    fprintf(out, "\t%s\t%s\t", h->arch, h->flags == FLAGS_C ? "-c" : "");
    if (mu->timed_out)
        fputs("timeout", out);
    else if (mu->verdict)
        fprintf(out, "%d", mu->exit);
    fputc('\t', out);
    if (mu->err_line)
        fprintf(out, "%u", mu->err_line);
    fprintf(out, "\t%u\t", mu->n_errors);
    put_escaped(out, mu->warning);
    fputc('\n', out);
    free(orig);
}

/* --skip: (host, line, mutated) of the cases of an earlier TSV */
static void load_skip(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mutate: cannot read %s\n", path);
        exit(2);
    }
    char *row = NULL;
    size_t cap = 0;
    bool header = true;
    while (getline(&row, &cap, f) > 0) {
        if (header) {
            header = false;
            continue;
        }
        row[strcspn(row, "\n")] = '\0';
        char *col[5] = { 0 };
        char *p = row;
        for (int c = 0; c < 5 && p; c++) {
            col[c] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (!col[4])
            continue;
        unescape(col[4]);
        char *key = fmt("%s\t%s\t%s", col[1], col[2], col[4]);
        strset_add(&seen_cases, key);
        free(key);
    }
    free(row);
    fclose(f);
}

/* ---- main --------------------------------------------------------------- */

static unsigned long num_arg(const char *opt, const char *v)
{
    char *end;
    if (!v || !*v)
        goto bad;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (*end || errno)
        goto bad;
    return n;
bad:
    fprintf(stderr, "mutate: %s needs a number\n", opt);
    exit(2);
}

int main(int argc, char **argv)
{
    unsigned long seed = 1, per_opcode = 8, per_file = 0, max_cases = 0, max_size = 0;
    const char *root = NULL, *prefix = "mut", *outpath = NULL;
    bool all = false, dry = false, verbose = false, every_file = false;
    const char **files = xmalloc((size_t)argc * sizeof *files);
    int nfiles = 0;
    if (getenv("PTXAS"))
        ptxas = getenv("PTXAS");
    for (size_t k = 0; k < NKINDS; k++)
        kind_on[k] = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--list-kinds")) {
            for (size_t k = 0; k < NKINDS; k++)
                puts(kinds[k]);
            return 0;
        } else if (!strcmp(a, "--seed")) {
            seed = num_arg(a, v), i++;
        } else if (!strcmp(a, "--per-opcode")) {
            per_opcode = num_arg(a, v), i++;
        } else if (!strcmp(a, "--per-file")) {
            per_file = num_arg(a, v), i++;
        } else if (!strcmp(a, "--max")) {
            max_cases = num_arg(a, v), i++;
        } else if (!strcmp(a, "--max-size")) {
            max_size = num_arg(a, v), i++;
        } else if (!strcmp(a, "--jobs")) {
            njobs = (int)num_arg(a, v), i++;
            if (njobs < 1)
                njobs = 1;
        } else if (!strcmp(a, "--timeout")) {
            timeout_s = (double)num_arg(a, v), i++;
        } else if (!strcmp(a, "--kinds") && v) {
            for (size_t k = 0; k < NKINDS; k++)
                kind_on[k] = false;
            char *list = xstrdup(v);
            for (char *k = strtok(list, ","); k; k = strtok(NULL, ",")) {
                int ki = kind_index(k);
                if (ki < 0) {
                    fprintf(stderr, "mutate: unknown kind '%s' (see --list-kinds)\n", k);
                    return 2;
                }
                kind_on[ki] = true;
            }
            free(list);
            i++;
        } else if (!strcmp(a, "--every-file")) {
            every_file = true;
        } else if (!strcmp(a, "--skip") && v) {
            load_skip(v), i++;
        } else if (!strcmp(a, "--root") && v) {
            root = v, i++;
        } else if (!strcmp(a, "--id") && v) {
            prefix = v, i++;
        } else if (!strcmp(a, "--ptxas") && v) {
            ptxas = v, i++;
        } else if (!strcmp(a, "-o") && v) {
            outpath = v, i++;
        } else if (!strcmp(a, "--all")) {
            all = true;
        } else if (!strcmp(a, "--dry-run")) {
            dry = true;
        } else if (!strcmp(a, "-v")) {
            verbose = true;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "mutate: unknown option '%s'\n%s", a, usage);
            return 2;
        } else {
            files[nfiles++] = a;
        }
    }
    if (!nfiles) {
        fputs(usage, stderr);
        return 2;
    }
    if (!dry && access(ptxas, X_OK) != 0) {
        fprintf(stderr, "mutate: ptxas not found at %s (--ptxas, $PTXAS)\n", ptxas);
        return 2;
    }

    collect_roots();
    source *srcs = xmalloc((size_t)nfiles * sizeof *srcs);
    size_t nsrcs = 0;
    for (int i = 0; i < nfiles; i++) {
        struct stat st;
        if (max_size && stat(files[i], &st) == 0 && (unsigned long)st.st_size > max_size)
            continue;
        if (load_source(&srcs[nsrcs], files[i], root)) {
            srcs[nsrcs].budget = per_file ? (unsigned)per_file : UINT32_MAX;
            nsrcs++;
        }
    }
    for (size_t i = 0; i < nsrcs; i++)
        collect_instrs(&srcs[i], every_file);
    qsort(picks, npicks, sizeof *picks, cmp_pick);

    /* one instruction per key: the first of the sorted run is in the
     * smallest file */
    size_t ndistinct = 0;
    for (size_t i = 0; i < npicks; i++) {
        if (i && strcmp(picks[i].key, picks[i - 1].key) == 0)
            continue;
        ndistinct++;
        source *s = picks[i].src;
        if (!s->budget || (max_cases && ncases >= max_cases))
            continue;
        target t;
        make_target(&t, s, picks[i].in);
        rng r = { seed ^ hash_str(picks[i].key, 0xcbf29ce484222325ull) };
        if (t.tok_ok) {
            mutate_modifiers(&t, &r);
            mutate_opcode(&t, &r);
        }
        mutate_operands(&t, &r);
        char *opcode;
        char *key = instr_key(picks[i].in, &opcode);
        free(key);
        /* sample: kinds in turn, each kind's candidates in random order */
        size_t want = per_opcode ? per_opcode : t.ncand;
        for (size_t k = t.ncand; k > 1; k--) {
            size_t j = rng_below(&r, k);
            mutation tmp = t.cand[k - 1];
            t.cand[k - 1] = t.cand[j];
            t.cand[j] = tmp;
        }
        size_t order[NKINDS];
        for (size_t k = 0; k < NKINDS; k++)
            order[k] = k;
        for (size_t k = NKINDS; k > 1; k--) {
            size_t j = rng_below(&r, k), tmp = order[k - 1];
            order[k - 1] = order[j];
            order[j] = tmp;
        }
        bool *taken = calloc(t.ncand + 1, 1);
        size_t got = 0;
        for (bool progress = true; progress && got < want;) {
            progress = false;
            for (size_t ki = 0; ki < NKINDS && got < want; ki++) {
                for (size_t c = 0; c < t.ncand; c++) {
                    mutation *mu = &t.cand[c];
                    if (taken[c] || strcmp(mu->kind, kinds[order[ki]]) != 0)
                        continue;
                    taken[c] = true;
                    char *dk = fmt("%s\t%zu\t%s", s->host, mu->line + 1, mu->mutated);
                    bool fresh = strset_add(&seen_cases, dk);
                    free(dk);
                    if (!fresh)
                        continue;
                    if (!s->budget || (max_cases && ncases >= max_cases))
                        break;
                    s->budget--;
                    if (ncases == capcases)
                        cases = xrealloc(cases, (capcases = capcases ? 2 * capcases : 1024) *
                                                    sizeof *cases);
                    cases[ncases] = *mu;
                    cases[ncases].opcode = xstrdup(opcode);
                    mu->mutated = NULL;
                    mu->variant = NULL;
                    ncases++;
                    got++;
                    progress = true;
                    break;
                }
            }
        }
        for (size_t c = 0; c < t.ncand; c++) {
            free(t.cand[c].mutated);
            free(t.cand[c].variant);
        }
        free(t.cand);
        free(taken);
        free(opcode);
    }
    if (verbose)
        fprintf(stderr, "mutate: %zu files, %zu instructions, %zu distinct, %zu cases\n", nsrcs,
                npicks, ndistinct, ncases);

    FILE *out = outpath ? fopen(outpath, "w") : stdout;
    if (!out) {
        fprintf(stderr, "mutate: cannot write %s\n", outpath);
        return 2;
    }
    fputs("id\thost\tline\toriginal\tmutated\tkind\tverdict\tdomain\tfirst_message\tvariant\t"
          "opcode\tarch\tflags\texit\terr_line\tn_errors\tfirst_warning\n", out);
    if (dry) {
        for (size_t i = 0; i < ncases; i++)
            put_row(out, prefix, i, &cases[i]);
        return out == stdout || fclose(out) == 0 ? 0 : 2;
    }

    if (!mkdtemp(workdir)) {
        perror("mutate: mkdtemp");
        return 2;
    }
    /* the hosts, unmodified: with no flag, else with -c */
    source **hosts = xmalloc((nsrcs + 1) * sizeof *hosts);
    for (int pass = 0; pass < 2; pass++) {
        size_t nh = 0;
        for (size_t i = 0; i < nsrcs; i++) {
            bool used = false;
            for (size_t c = 0; c < ncases && !used; c++)
                used = cases[c].src == &srcs[i];
            if (used && srcs[i].flags == (pass ? FLAGS_RETRY : FLAGS_UNKNOWN))
                hosts[nh++] = &srcs[i];
        }
        run_all(NULL, 0, hosts, nh, verbose);
    }
    mutation **list = xmalloc((ncases + 1) * sizeof *list);
    size_t nlist = 0;
    for (size_t i = 0; i < ncases; i++)
        if (cases[i].src->flags == FLAGS_NONE || cases[i].src->flags == FLAGS_C)
            list[nlist++] = &cases[i];
    run_all(list, nlist, NULL, 0, verbose);
    rmdir(workdir);

    size_t count[6] = { 0 }, bad_accept = 0, missed = 0, wrong_line = 0;
    static const char *const verdicts[] = { "accept", "reject_syntax", "reject_semantic",
                                            "crash", "timeout" };
    size_t id = 0;
    for (size_t i = 0; i < nlist; i++) {
        mutation *mu = list[i];
        for (int v = 0; v < 5; v++)
            if (strcmp(mu->verdict, verdicts[v]) == 0)
                count[v]++;
        if (!strcmp(domain_of(mu), "types"))
            count[5]++;
        const char *d = disagreement(mu);
        if (d) {
            bad_accept += !strcmp(d, "false-reject");
            missed += !strcmp(d, "missed");
            wrong_line += !strcmp(d, "wrong-line");
            if (verbose)
                fprintf(stderr, "%s %s:%zu [%s %s] %s\n  ptxas: %s\n  ours:  %s\n", d,
                        mu->src->host, mu->line + 1, mu->kind, mu->variant, mu->mutated,
                        mu->message ? mu->message : "accepted",
                        mu->ours_message ? mu->ours_message : "accepted");
        }
        if (d || all)
            put_row(out, prefix, id, mu);
        id++;
    }
    fprintf(stderr,
            "mutate: %zu cases run: %zu accepted, %zu rejected for syntax (%zu of them types), "
            "%zu semantic, %zu crashes, %zu timeouts\n",
            nlist, count[0], count[1], count[5], count[2], count[3], count[4]);
    fprintf(stderr, "mutate: disagreements: %zu accepted by ptxas but rejected here, %zu rejected "
                    "by ptxas but accepted here, %zu rejected here on another line\n",
            bad_accept, missed, wrong_line);
    if (out != stdout && fclose(out) != 0)
        return 2;
    for (size_t i = 0; i < ncases; i++) {
        free(cases[i].mutated);
        free(cases[i].variant);
        free(cases[i].opcode);
        free(cases[i].message);
        free(cases[i].warning);
        free(cases[i].ours_message);
        free(cases[i].ours_lines);
    }
    free(cases);
    free(list);
    free(hosts);
    for (size_t i = 0; i < nsrcs; i++) {
        ptx_context_free(srcs[i].ctx);
        free(srcs[i].path);
        free(srcs[i].host);
        free(srcs[i].text);
        free(srcs[i].lines);
    }
    free(srcs);
    for (size_t i = 0; i < npicks; i++)
        free(picks[i].key);
    free(picks);
    for (size_t i = 0; i < nroots; i++) {
        free(roots[i].name);
        free(roots[i].allows);
    }
    free(roots);
    for (int c = 0; c < PTX_CAT_COUNT; c++)
        free(cat_mods[c]);
    strset_free(&seen_cases);
    strset_free(&known_words);
    free(files);
    return bad_accept + missed + wrong_line ? 1 : 0;
}
