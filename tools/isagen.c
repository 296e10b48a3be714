/* isagen: turns the instruction syntax tables (grammar/isa/NAME.isa, format in
 * grammar/isa/README.md) into C: the public enums (ptx/isa.h) and the
 * tables the validator walks (isa_tables.c).  It refuses malformed or
 * duplicated input with "file:line: error: ...".
 *
 * usage: isagen [--dict OUT_DICT] OUT_HEADER OUT_SOURCE FILE.isa...
 * (--dict also writes a libFuzzer dictionary: opcodes and modifiers)
 */
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TOK = 256, MAX_SLOTS = 32, MAX_OPS = 16, MAX_NAME = 12 };

static const char *const categories[] = {
    "type", "space", "rounding", "scope", "sem", "cache", "vector", "cmp", "op",
    "level", "shape", "layout", "mode", "other",
};
#define NCATEGORIES (sizeof categories / sizeof *categories)

/* operand acceptance bits, the operand vector sizes below and the table
 * shapes this program writes: mirrored in src/isa_tables.h */
enum {
    ACC_NAME = 1, ACC_IMM = 2, ACC_PRED = 4, ACC_NOTPRED = 8, ACC_ADDR = 16,
    ACC_VEC = 32, ACC_LABEL = 64, ACC_LIST = 128, ACC_SINK = 256, ACC_PAIR = 512,
    ACC_IMAGE = 1024, ACC_F32BITS = 2048
};
enum { VEC_FROM_MOD = 0, VEC_ANY = -1, VEC_SIZES = -2 };

typedef struct { char *text; } word;

typedef struct {
    char *name;
    int category;
    int n;
    int *mods;
    const char *file;
    int line;
} set_t;

typedef struct {
    int kind;       /* 0 required literal, 1 optional literal, 2 required set, 3 optional set */
    int ref;        /* modifier id or set index */
} slot_t;

typedef struct {
    char *name;
    int family;
    int n;
    char **patterns;
} selector_t;

typedef struct {
    int accept;
    int vec;        /* VEC_FROM_MOD, VEC_ANY, VEC_SIZES (see sizes) or N >= 32 */
    unsigned sizes; /* VEC_SIZES: bit N for each size N < 32 accepted */
    int items;      /* what list or vector elements accept; 0: the default */
    int selector;   /* selector index + 1; 0: unchecked */
    int coords;     /* ACC_IMAGE: the fewest coordinates */
    int optional;
    int values;     /* index + 1 in vlists: the values a constant may have; 0: any */
    int tkind;      /* the operand's type: 0 unchecked, 'T' a type slot, or u s b f p */
    int tbits;      /* 'T': the slot (1..4); otherwise the width in bits */
    int tflags;     /* OT_* */
} operand_t;

/* an operand's type flags (src/isa_tables.h: PTX_OT_*) */
enum { OT_RELAXED = 1, OT_SREG = 2, OT_SYMADDR = 4, OT_WIDE = 8 };

/* ":TYPE" after an operand: t1..t4 (the instruction's type modifiers in
 * order; t1w: twice as wide), or a fixed type (u32, b64, pred...); then
 * flags: '+' a wider integer register is fine, '$' a special register is
 * fine, '&' a variable's or function's address is fine. */
static bool parse_optype(const char *t, operand_t *op)
{
    if (t[0] == 't' && t[1] >= '1' && t[1] <= '4') {
        op->tkind = 'T';
        op->tbits = t[1] - '0';
        t += 2;
        if (*t == 'w') {
            op->tflags |= OT_WIDE;
            t++;
        }
    } else if (!strncmp(t, "pred", 4)) {
        op->tkind = 'p';
        op->tbits = 1;
        t += 4;
    } else if (strchr("usbf", t[0]) && isdigit((unsigned char)t[1])) {
        char *end;
        long bits = strtol(t + 1, &end, 10);
        if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128)
            return false;
        if (bits == 128 ? t[0] != 'b' : t[0] == 'f' && bits == 8)
            return false;
        op->tkind = t[0];
        op->tbits = (int)bits;
        t = end;
    } else {
        return false;
    }
    for (; *t; t++) {
        if (*t == '+')
            op->tflags |= OT_RELAXED;
        else if (*t == '$')
            op->tflags |= OT_SREG;
        else if (*t == '&')
            op->tflags |= OT_SYMADDR;
        else
            return false;
    }
    return true;
}

/* The value lists of operands written i=V|V... (each list once): a value
 * is N, a range N..M, a multiple %S, the multiples in a range N..M%S, or
 * the powers of two in a range N..M^2 (kept as mod -1). */
enum { MAX_VALUES = 8 };
typedef struct {
    long long n;    /* as wide as the rest: no padding, compared with memcmp */
    long long lo[MAX_VALUES], hi[MAX_VALUES], mod[MAX_VALUES];
} vlist_t;

/* a decimal, maybe negative, starts at v */
static bool number_at(const char *v)
{
    return isdigit((unsigned char)v[0]) || (v[0] == '-' && isdigit((unsigned char)v[1]));
}

/* one value of a list at *p; advances *p */
static bool parse_value(char **p, vlist_t *l)
{
    char *v = *p, *end;
    long long lo = LLONG_MIN, hi = LLONG_MAX, mod = 0;
    if (*v != '%') {
        if (!number_at(v))
            return false;
        lo = hi = strtoll(v, &end, 10);
        v = end;
        if (v[0] == '.' && v[1] == '.') {
            v += 2;
            if (!number_at(v))
                return false;
            hi = strtoll(v, &end, 10);
            v = end;
            if (hi < lo)
                return false;
        }
    }
    if (v[0] == '^' && v[1] == '2' && lo > 0 && hi != LLONG_MAX) {
        mod = -1;
        v += 2;
    } else if (*v == '%') {
        if (!isdigit((unsigned char)v[1]))
            return false;
        mod = strtoll(v + 1, &end, 10);
        v = end;
        if (mod < 2)
            return false;
    }
    if (l->n == MAX_VALUES || v == *p)
        return false;
    l->lo[l->n] = lo;
    l->hi[l->n] = hi;
    l->mod[l->n++] = mod;
    *p = v;
    return true;
}
static vlist_t *vlists;
static int nvlists, capvlists;

typedef struct {
    int family;
    char *root;             /* the opcode: first word of the template */
    int nname;
    int name[MAX_NAME];     /* modifier ids of the fixed words after the opcode */
    int nslots;
    slot_t slots[MAX_SLOTS];
    int nops;
    operand_t ops[MAX_OPS];
    int since_major, since_minor;
    char *target;
    int gone_major, gone_minor;     /* withdrawn: from this version... */
    char *gone_target;              /* ...on this target and later */
    const char *file;
    int line;
    char *text;             /* the template, for messages */
} form_t;

typedef struct {
    char *name;
    int major, minor;
    char *target;
    int first_set, nsets;
    int construct;
    const char *file;
} family_t;

static char **mods;
static int nmods, capmods;
static set_t *sets;
static int nsets, capsets;
static form_t *forms;
static int nforms, capforms;
static family_t *families;
static int nfamilies, capfamilies;
static selector_t *selectors;
static int nselectors, capselectors;
static int errors;
static char *ignored;       /* by modifier id: ptxas ignores the word */
static int capignored;
static int nignored_lines;  /* in the file being read */

static void fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: error: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    errors++;
}

static void *grow(void *p, int *cap, int n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 64;
    p = realloc(p, (size_t)*cap * size);
    if (!p) {
        fprintf(stderr, "isagen: out of memory\n");
        exit(2);
    }
    return p;
}

/* The strings of the forms, each once, one after another with their
 * NULs: the forms refer to them by offset (src/isa_tables.h). */
static char *pool;
static int npool, cappool;

static int pool_add(const char *s)
{
    if (!s)
        s = "";
    for (int at = 0; at < npool; at += (int)strlen(pool + at) + 1)
        if (!strcmp(pool + at, s))
            return at;
    int n = (int)strlen(s) + 1, at = npool;
    while (npool + n > cappool)
        pool = grow(pool, &cappool, cappool, 1);
    memcpy(pool + at, s, (size_t)n);
    npool += n;
    return at;
}

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p) {
        fprintf(stderr, "isagen: out of memory\n");
        exit(2);
    }
    return memcpy(p, s, n);
}

static bool valid_word(const char *w)
{
    /* .[A-Za-z0-9_]+(::[A-Za-z0-9_]+)*, as the scanner reads dot-words */
    if (w[0] != '.' || !w[1])
        return false;
    const char *p = w + 1;
    for (;;) {
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        if (!*p)
            return true;
        if (p[0] != ':' || p[1] != ':')
            return false;
        p += 2;
    }
}

static int mod_id(const char *w)
{
    for (int i = 0; i < nmods; i++)
        if (strcmp(mods[i], w) == 0)
            return i;
    mods = grow(mods, &capmods, nmods, sizeof *mods);
    mods[nmods] = dup(w);
    return nmods++;
}

static int find_set(int family, const char *name)
{
    for (int i = families[family].first_set; i < nsets; i++)
        if (strcmp(sets[i].name, name) == 0)
            return i;
    return -1;
}

static bool parse_version(const char *s, int *major, int *minor)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (*end != '.' || a < 1 || a > 9)
        return false;
    long b = strtol(end + 1, &end, 10);
    if (*end || b < 0 || b > 9)
        return false;
    *major = (int)a;
    *minor = (int)b;
    return true;
}

static bool valid_target(const char *t)
{
    if (strncmp(t, "sm_", 3) != 0 || !isdigit((unsigned char)t[3]))
        return false;
    const char *p = t + 3;
    while (isdigit((unsigned char)*p))
        p++;
    return !*p || ((*p == 'a' || *p == 'f') && !p[1]);
}

static int find_selector(int family, const char *name)
{
    for (int i = 0; i < nselectors; i++)
        if (selectors[i].family == family && strcmp(selectors[i].name, name) == 0)
            return i;
    return -1;
}

/* a selector pattern: '.', then letters, digits, '_' and [x-y] ranges */
static bool valid_pattern(const char *w)
{
    if (w[0] != '.' || !w[1])
        return false;
    for (const char *p = w + 1; *p; p++) {
        if (*p == '[') {
            if (!p[1] || p[2] != '-' || !p[3] || p[4] != ']' || p[1] > p[3])
                return false;
            p += 4;
        } else if (!isalnum((unsigned char)*p) && *p != '_') {
            return false;
        }
    }
    return true;
}

/* a vector alternative: v or V, then nothing (the .vN size), '*' or N;
 * *sized says whether an earlier alternative already gave a size rule */
static bool parse_vector(const char *alt, operand_t *op, bool *sized)
{
    op->accept |= ACC_VEC;
    if (alt[0] == 'V')
        op->items = ACC_NAME | ACC_IMM;     /* no sink among the elements */
    long v = 0;
    if (alt[1] && strcmp(alt + 1, "*") != 0) {
        char *end;
        v = strtol(alt + 1, &end, 10);
        if (*end || v < 1 || v > 1024)
            return false;
    }
    if (v >= 1 && v < 32 && (!*sized || op->vec == VEC_SIZES)) {
        op->vec = VEC_SIZES;
        op->sizes |= 1u << v;
    } else if (*sized) {
        return false;                       /* one size rule per operand */
    } else {
        op->vec = !alt[1] ? VEC_FROM_MOD : v ? (int)v : VEC_ANY;
    }
    *sized = true;
    return true;
}

/* one operand: alternatives joined by '/', then suffixes, then an optional
 * .selector (see grammar/isa/README.md) */
static bool parse_operand(int family, char *s, operand_t *op, bool inner)
{
    memset(op, 0, sizeof *op);
    bool sized = false;
    char *colon = strchr(s, ':');
    if (colon) {
        *colon = '\0';
        if (inner || !parse_optype(colon + 1, op))
            return false;
    }
    size_t n = strlen(s);
    while (n && (s[n - 1] == '?' || s[n - 1] == '_' || s[n - 1] == '|')) {
        if (s[n - 1] == '?')
            op->optional = 1;
        else if (s[n - 1] == '_')
            op->accept |= ACC_SINK;
        else
            op->accept |= ACC_PAIR;
        s[--n] = '\0';
    }
    char *eq = strchr(s, '=');
    if (eq) {
        /* i=V|V...: the values a constant may have */
        *eq = '\0';
        if (inner || (op->accept & ACC_PAIR) || (strcmp(s, "i") != 0 && strcmp(s, "ri") != 0))
            return false;       /* a trailing '|' is a list ending too soon */
        vlist_t l;
        memset(&l, 0, sizeof l);
        for (char *v = eq + 1;; v++) {
            if (!parse_value(&v, &l))
                return false;
            if (!*v)
                break;
            if (*v != '|')
                return false;
        }
        int k = 0;
        while (k < nvlists && memcmp(&vlists[k], &l, sizeof l) != 0)
            k++;
        if (k == nvlists) {
            vlists = grow(vlists, &capvlists, nvlists, sizeof *vlists);
            vlists[nvlists++] = l;
        }
        op->values = k + 1;
    }
    char *dot = strchr(s, '.');
    if (dot) {
        *dot = '\0';
        int sel = find_selector(family, dot + 1);
        if (sel < 0 || inner)
            return false;
        op->selector = sel + 1;
    }
    char *save = NULL;
    for (char *alt = strtok_r(s, "/", &save); alt; alt = strtok_r(NULL, "/", &save)) {
        size_t len = strlen(alt);
        if (!strcmp(alt, "r"))
            op->accept |= ACC_NAME;
        else if (!strcmp(alt, "i"))
            op->accept |= ACC_IMM;
        else if (!strcmp(alt, "ri"))
            op->accept |= ACC_NAME | ACC_IMM;
        else if (!strcmp(alt, "f"))
            op->accept |= ACC_F32BITS;
        else if (!strcmp(alt, "p"))
            op->accept |= ACC_PRED;
        else if (!strcmp(alt, "!p"))
            op->accept |= ACC_PRED | ACC_NOTPRED;
        else if (!strcmp(alt, "a"))
            op->accept |= ACC_ADDR;
        else if (alt[0] == 'a' && alt[1] >= '1' && alt[1] <= '4' && !alt[2] && !inner) {
            op->accept |= ACC_IMAGE;
            op->coords = alt[1] - '0';
        } else if (!strcmp(alt, "l"))
            op->accept |= ACC_LABEL;
        else if (alt[0] == '(' && len > 2 && alt[len - 1] == ')' && !inner && !op->items) {
            /* a list (...) of elements of one kind */
            operand_t elem;
            alt[len - 1] = '\0';
            if (!parse_operand(family, alt + 1, &elem, true) || elem.optional ||
                (elem.accept & ~(ACC_NAME | ACC_IMM | ACC_SINK)))
                return false;
            op->accept |= ACC_LIST;
            op->items = elem.accept;
        } else if ((alt[0] == 'v' || alt[0] == 'V') && !inner && !(op->accept & ACC_LIST)) {
            /* V1/V2/V4: sizes add up; the elements' rule is the last one's */
            if (!parse_vector(alt, op, &sized))
                return false;
        } else
            return false;
    }
    if (op->selector && !(op->accept & ACC_NAME))
        return false;
    return op->accept != 0 && op->accept != ACC_SINK && op->accept != ACC_PAIR;
}

static void parse_form(const char *file, int line, int family, char *text)
{
    char *colon = strstr(text, " : ");
    if (!colon) {
        fail(file, line, "a form is 'form TEMPLATE : OPERANDS': the ' : ' is missing");
        return;
    }
    *colon = '\0';
    char *opnds = colon + 3;
    forms = grow(forms, &capforms, nforms, sizeof *forms);
    form_t *f = &forms[nforms];
    memset(f, 0, sizeof *f);
    f->family = family;
    f->file = file;
    f->line = line;
    f->text = dup(text);

    /* the name: opcode and fixed words */
    char *tok = strtok(text, " \t");
    char *dot = strchr(tok, '.');
    size_t rootlen = dot ? (size_t)(dot - tok) : strlen(tok);
    if (!rootlen || !isalpha((unsigned char)tok[0])) {
        fail(file, line, "a form starts with its opcode");
        return;
    }
    for (size_t k = 0; k < rootlen; k++) {
        if (!isalnum((unsigned char)tok[k]) && tok[k] != '_') {
            fail(file, line, "'%.*s' is not an opcode", (int)rootlen, tok);
            return;
        }
    }
    f->root = malloc(rootlen + 1);
    memcpy(f->root, tok, rootlen);
    f->root[rootlen] = '\0';
    while (dot) {
        char *next = strchr(dot + 1, '.');
        /* a '::' part stays in its word */
        while (next && next[-1] == ':')
            next = strchr(next + 1, '.');
        char w[MAX_TOK];
        size_t len = next ? (size_t)(next - dot) : strlen(dot);
        if (len >= sizeof w || f->nname == MAX_NAME) {
            fail(file, line, "instruction name too long");
            return;
        }
        memcpy(w, dot, len);
        w[len] = '\0';
        if (!valid_word(w)) {
            fail(file, line, "'%s' is not a dot-word", w);
            return;
        }
        f->name[f->nname++] = mod_id(w);
        dot = next;
    }
    /* the slots */
    while ((tok = strtok(NULL, " \t")) != NULL) {
        if (f->nslots == MAX_SLOTS) {
            fail(file, line, "more than %d slots", MAX_SLOTS);
            return;
        }
        slot_t *s = &f->slots[f->nslots];
        bool opt = tok[0] == '{';
        size_t n = strlen(tok);
        if (opt) {
            if (tok[n - 1] != '}') {
                fail(file, line, "'%s': an optional slot is '{.word}' or '{<set>}'", tok);
                return;
            }
            tok[n - 1] = '\0';
            tok++;
            n -= 2;
        }
        if (tok[0] == '<') {
            if (tok[n - 1] != '>') {
                fail(file, line, "'%s': a set slot is '<name>'", tok);
                return;
            }
            tok[n - 1] = '\0';
            int set = find_set(family, tok + 1);
            if (set < 0) {
                fail(file, line, "unknown set '%s'", tok + 1);
                return;
            }
            s->kind = opt ? 3 : 2;
            s->ref = set;
        } else if (valid_word(tok)) {
            s->kind = opt ? 1 : 0;
            s->ref = mod_id(tok);
        } else {
            fail(file, line, "'%s' is neither .word, {.word}, <set> nor {<set>}", tok);
            return;
        }
        f->nslots++;
    }
    /* operands, then the since/target/note trailer */
    char *trailer = NULL;
    for (char *p = opnds; *p; p++) {
        if ((!strncmp(p, " since ", 7) || !strncmp(p, " target ", 8) || !strncmp(p, " note ", 6) ||
             !strncmp(p, " withdrawn ", 11))) {
            trailer = p + 1;
            *p = '\0';
            break;
        }
    }
    while (*opnds == ' ')
        opnds++;
    char *end = opnds + strlen(opnds);
    while (end > opnds && end[-1] == ' ')
        *--end = '\0';
    if (strcmp(opnds, "-") != 0) {
        char *save = NULL;
        for (char *o = strtok_r(opnds, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
            while (*o == ' ')
                o++;
            char *e = o + strlen(o);
            while (e > o && e[-1] == ' ')
                *--e = '\0';
            if (f->nops == MAX_OPS) {
                fail(file, line, "more than %d operands", MAX_OPS);
                return;
            }
            char written[MAX_TOK];
            snprintf(written, sizeof written, "%s", o);   /* parse_operand cuts o up */
            if (!parse_operand(family, o, &f->ops[f->nops], false)) {
                fail(file, line, "'%s' is not an operand kind (see grammar/isa/README.md)", written);
                return;
            }
            if (f->nops && f->ops[f->nops - 1].optional && !f->ops[f->nops].optional) {
                fail(file, line, "a required operand cannot follow an optional one");
                return;
            }
            f->nops++;
        }
    }
    while (trailer && *trailer) {
        char *kw = strtok(trailer, " ");
        trailer = NULL;
        while (kw) {
            if (!strcmp(kw, "since")) {
                char *v = strtok(NULL, " ");
                if (!v || !parse_version(v, &f->since_major, &f->since_minor)) {
                    fail(file, line, "'since' takes a PTX ISA version such as 8.6");
                    return;
                }
            } else if (!strcmp(kw, "target")) {
                /* one target, or several separated by commas: any of them */
                char *t = strtok(NULL, " ");
                if (!t) {
                    fail(file, line, "'target' takes sm_NN, sm_NNa or sm_NNf, or a comma list of them");
                    return;
                }
                f->target = dup(t);
                char *list = dup(t), *save = NULL;
                for (char *one = strtok_r(list, ",", &save); one; one = strtok_r(NULL, ",", &save)) {
                    if (!valid_target(one)) {
                        fail(file, line, "'%s' is not a target: sm_NN, sm_NNa or sm_NNf", one);
                        free(list);
                        return;
                    }
                }
                free(list);
            } else if (!strcmp(kw, "withdrawn")) {
                /* a PTX ISA version, a target or both: the form is refused
                 * in modules at or after all of them */
                char *v = strtok(NULL, " ");
                if (v && isdigit((unsigned char)v[0])) {
                    if (!parse_version(v, &f->gone_major, &f->gone_minor)) {
                        fail(file, line, "'withdrawn' takes a PTX ISA version, a target or both");
                        return;
                    }
                    v = strtok(NULL, " ");
                }
                if (v && !strncmp(v, "sm_", 3)) {
                    if (!valid_target(v) || v[strlen(v) - 1] == 'a' || v[strlen(v) - 1] == 'f') {
                        fail(file, line, "'withdrawn' takes a plain target such as sm_70");
                        return;
                    }
                    f->gone_target = dup(v);
                    v = strtok(NULL, " ");
                }
                if (!f->gone_major && !f->gone_target) {
                    fail(file, line, "'withdrawn' takes a PTX ISA version, a target or both");
                    return;
                }
                kw = v;
                continue;
            } else if (!strcmp(kw, "note")) {
                break;  /* free text to the end of the line */
            } else {
                fail(file, line, "unexpected '%s' after the operands", kw);
                return;
            }
            kw = strtok(NULL, " ");
        }
    }
    /* duplicates within the family */
    for (int i = families[family].first_set >= 0 ? 0 : 0; i < nforms; i++) {
        if (forms[i].family == family && !strcmp(forms[i].text, f->text) &&
            forms[i].nops == f->nops && !memcmp(forms[i].ops, f->ops, sizeof f->ops) &&
            !strcmp(forms[i].target ? forms[i].target : "", f->target ? f->target : "") &&
            forms[i].since_major == f->since_major && forms[i].since_minor == f->since_minor) {
            fail(file, line, "form '%s' duplicates line %d", f->text, forms[i].line);
            return;
        }
    }
    nforms++;
}

static void parse_file(const char *file)
{
    FILE *in = fopen(file, "r");
    if (!in) {
        fprintf(stderr, "isagen: cannot read %s: %s\n", file, strerror(errno));
        exit(2);
    }
    char buf[4096];
    int line = 0, family = -1;
    nignored_lines = 0;
    while (fgets(buf, sizeof buf, in)) {
        line++;
        size_t n = strlen(buf);
        if (n == sizeof buf - 1 && buf[n - 1] != '\n') {
            fail(file, line, "line longer than %zu characters", sizeof buf - 2);
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        for (char *p = buf; *p; p++)
            if (*p == '\t' || *p == '\n' || *p == '\r')
                *p = ' ';
        char *p = buf;
        while (*p == ' ')
            p++;
        if (!*p)
            continue;
        char *rest = strchr(p, ' ');
        if (rest)
            *rest++ = '\0';
        else
            rest = p + strlen(p);
        while (*rest == ' ')
            rest++;
        if (!strcmp(p, "ignored")) {
            /* words ptxas takes after any instruction name and ignores;
             * a file of them describes no family */
            if (family >= 0) {
                fail(file, line, "'ignored' lines go in a file of their own, without 'family'");
                continue;
            }
            for (char *w = strtok(rest, " "); w; w = strtok(NULL, " ")) {
                if (!valid_word(w)) {
                    fail(file, line, "'%s' is not a dot-word", w);
                    continue;
                }
                int id = mod_id(w);
                if (id >= capignored) {
                    int old = capignored;
                    capignored = id + 64;
                    ignored = realloc(ignored, sizeof *ignored * (size_t)capignored);
                    memset(ignored + old, 0, sizeof *ignored * (size_t)(capignored - old));
                }
                if (ignored[id])
                    fail(file, line, "'%s' is ignored twice", w);
                ignored[id] = 1;
                nignored_lines++;
            }
            continue;
        }
        if (!strcmp(p, "family")) {
            if (nignored_lines) {
                fail(file, line, "a file of 'ignored' lines describes no family");
                break;
            }
            if (family >= 0) {
                fail(file, line, "a file describes one family");
                continue;
            }
            char *name = strtok(rest, " "), *ver = strtok(NULL, " "), *tgt = strtok(NULL, " ");
            int major, minor;
            if (!name || !ver || !parse_version(ver, &major, &minor) || (tgt && !valid_target(tgt))) {
                fail(file, line, "expected 'family NAME VERSION [TARGET]'");
                break;
            }
            for (int i = 0; i < nfamilies; i++)
                if (!strcmp(families[i].name, name))
                    fail(file, line, "family '%s' is already described in %s", name, families[i].file);
            families = grow(families, &capfamilies, nfamilies, sizeof *families);
            family_t *fam = &families[nfamilies];
            fam->name = dup(name);
            fam->major = major;
            fam->minor = minor;
            fam->target = tgt ? dup(tgt) : NULL;
            fam->construct = 0;
            fam->first_set = nsets;
            fam->file = file;
            family = nfamilies++;
        } else if (family < 0) {
            fail(file, line, "the first line must be 'family NAME VERSION'");
            break;
        } else if (!strcmp(p, "set")) {
            char *name = strtok(rest, " "), *cat = strtok(NULL, " "), *eq = strtok(NULL, " ");
            if (!name || !cat || !eq || strcmp(eq, "=")) {
                fail(file, line, "expected 'set NAME CATEGORY = .a .b ...'");
                continue;
            }
            int c = -1;
            for (size_t k = 0; k < NCATEGORIES; k++)
                if (!strcmp(categories[k], cat))
                    c = (int)k;
            if (c < 0) {
                fail(file, line, "unknown category '%s'", cat);
                continue;
            }
            if (find_set(family, name) >= 0) {
                fail(file, line, "set '%s' is defined twice", name);
                continue;
            }
            sets = grow(sets, &capsets, nsets, sizeof *sets);
            set_t *s = &sets[nsets];
            memset(s, 0, sizeof *s);
            s->name = dup(name);
            s->category = c;
            s->file = file;
            s->line = line;
            int cap = 0;
            for (char *w = strtok(NULL, " "); w; w = strtok(NULL, " ")) {
                if (!valid_word(w)) {
                    fail(file, line, "'%s' is not a dot-word", w);
                    continue;
                }
                int id = mod_id(w);
                for (int k = 0; k < s->n; k++)
                    if (s->mods[k] == id)
                        fail(file, line, "'%s' appears twice in set '%s'", w, name);
                s->mods = grow(s->mods, &cap, s->n, sizeof *s->mods);
                s->mods[s->n++] = id;
            }
            if (!s->n)
                fail(file, line, "set '%s' is empty", name);
            nsets++;
        } else if (!strcmp(p, "selector")) {
            /* selector NAME = .PATTERN ...: what a register operand may
             * carry after a dot; no pattern at all means no selector */
            char *name = strtok(rest, " "), *eq = strtok(NULL, " ");
            if (!name || !eq || strcmp(eq, "=")) {
                fail(file, line, "expected 'selector NAME = .pattern ...'");
                continue;
            }
            if (find_selector(family, name) >= 0) {
                fail(file, line, "selector '%s' is defined twice", name);
                continue;
            }
            selectors = grow(selectors, &capselectors, nselectors, sizeof *selectors);
            selector_t *sel = &selectors[nselectors];
            memset(sel, 0, sizeof *sel);
            sel->name = dup(name);
            sel->family = family;
            int cap = 0;
            for (char *w = strtok(NULL, " "); w; w = strtok(NULL, " ")) {
                if (!valid_pattern(w)) {
                    fail(file, line, "'%s' is not a selector pattern (.b[0-3] and the like)", w);
                    continue;
                }
                sel->patterns = grow(sel->patterns, &cap, sel->n, sizeof *sel->patterns);
                sel->patterns[sel->n++] = dup(w);
            }
            nselectors++;
        } else if (!strcmp(p, "form")) {
            parse_form(file, line, family, rest);
        } else if (!strcmp(p, "construct")) {
            /* a language construct the grammar itself handles ({ }, @p) */
            families[family].construct = 1;
        } else {
            fail(file, line, "unknown line kind '%s' (family, set, selector, form, ignored)", p);
        }
    }
    if (family < 0 && !errors && !nignored_lines)
        fail(file, 1, "no 'family' line");
    else if (family >= 0) {
        families[family].nsets = nsets - families[family].first_set;
        bool any = false;
        for (int i = 0; i < nforms; i++)
            any |= forms[i].family == family;
        if (!any && !families[family].construct)
            fail(file, line, "family '%s' has no form (or 'construct' for one the grammar handles)",
                 families[family].name);
        if (any && families[family].construct)
            fail(file, line, "a 'construct' family has no forms");
    }
    fclose(in);
}

/* PTX_MOD_ names: upper case, "::" and other punctuation become '_' */
static void enum_name(char *out, size_t n, const char *prefix, const char *w)
{
    size_t k = (size_t)snprintf(out, n, "%s", prefix);
    for (const char *p = w; *p && k + 1 < n; p++) {
        if (*p == '.' && p == w)
            continue;
        char c = *p;
        if (c == ':' && p[1] == ':') {
            p++;
            c = '_';
        } else if (!isalnum((unsigned char)c)) {
            c = '_';
        }
        out[k++] = (char)toupper((unsigned char)c);
    }
    out[k] = '\0';
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_family(const void *a, const void *b)
{
    return strcmp(((const family_t *)a)->name, ((const family_t *)b)->name);
}

int main(int argc, char **argv)
{
    const char *dict = NULL;
    if (argc > 2 && !strcmp(argv[1], "--dict")) {
        dict = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: isagen [--dict OUT_DICT] OUT_HEADER OUT_SOURCE FILE.isa...\n");
        return 2;
    }
    for (int i = 3; i < argc; i++)
        parse_file(argv[i]);
    if (errors)
        return 1;

    /* what a literal slot's word means: the category of a set holding the
     * same word (type sets first), else 'type' for type names */
    int *modcat = malloc(sizeof *modcat * (size_t)(nmods > 0 ? nmods : 1));
    for (int i = 0; i < nmods; i++)
        modcat[i] = -1;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nsets; i++)
            if ((pass == 0) == (sets[i].category == 0))
                for (int k = 0; k < sets[i].n; k++)
                    if (modcat[sets[i].mods[k]] < 0)
                        modcat[sets[i].mods[k]] = sets[i].category;
    static const char *const type_words[] = {
        ".s8", ".s16", ".s32", ".s64", ".u8", ".u16", ".u32", ".u64", ".b8", ".b16",
        ".b32", ".b64", ".b128", ".f16", ".f16x2", ".f32", ".f64", ".bf16", ".bf16x2",
        ".tf32", ".pred", ".f32x2", ".u16x2", ".s16x2",
    };
    for (int i = 0; i < nmods; i++)
        for (size_t k = 0; k < sizeof type_words / sizeof *type_words && modcat[i] < 0; k++)
            if (!strcmp(mods[i], type_words[k]))
                modcat[i] = 0;

    /* modifier ids in sorted order, so the validator can bsearch */
    char **sorted = malloc(sizeof *sorted * (size_t)(nmods > 0 ? nmods : 1));
    memcpy(sorted, mods, sizeof *sorted * (size_t)nmods);
    qsort(sorted, (size_t)nmods, sizeof *sorted, cmp_str);
    int *remap = malloc(sizeof *remap * (size_t)(nmods > 0 ? nmods : 1));
    int *unsorted = malloc(sizeof *unsorted * (size_t)(nmods > 0 ? nmods : 1));
    for (int i = 0; i < nmods; i++)
        for (int k = 0; k < nmods; k++)
            if (sorted[k] == mods[i]) {
                remap[i] = k + 1;   /* 0 is PTX_MOD_NONE */
                unsorted[k] = i;
            }
    /* enum names must be distinct ('.NaN' and '.nan' would collide) */
    char (*enames)[96] = malloc(sizeof *enames * (size_t)(nmods > 0 ? nmods : 1));
    for (int k = 0; k < nmods; k++) {
        enum_name(enames[k], sizeof enames[k], "PTX_MOD_", sorted[k]);
        for (int j = 0; j < k; j++)
            if (!strcmp(enames[j], enames[k]))
                snprintf(enames[k] + strlen(enames[k]), sizeof enames[k] - strlen(enames[k]), "_%d", k);
    }
    /* families sorted by name; forms follow their family's new order */
    int *fam_order = malloc(sizeof *fam_order * (size_t)nfamilies);
    family_t *fam_sorted = malloc(sizeof *fam_sorted * (size_t)nfamilies);
    memcpy(fam_sorted, families, sizeof *fam_sorted * (size_t)nfamilies);
    qsort(fam_sorted, (size_t)nfamilies, sizeof *fam_sorted, cmp_family);
    for (int i = 0; i < nfamilies; i++)
        for (int k = 0; k < nfamilies; k++)
            if (!strcmp(fam_sorted[k].name, families[i].name))
                fam_order[i] = k;

    FILE *h = fopen(argv[1], "w");
    FILE *c = fopen(argv[2], "w");
    if (!h || !c) {
        fprintf(stderr, "isagen: cannot write output: %s\n", strerror(errno));
        return 2;
    }
    fprintf(h, "/* Generated by tools/isagen from grammar/isa: do not edit. */\n"
               "#ifndef PTX_ISA_H\n#define PTX_ISA_H\n\n"
               "/* Instruction families: the opcode an instruction starts with. */\n"
               "typedef enum ptx_family {\n    PTX_FAMILY_NONE = 0,\n");
    for (int k = 0; k < nfamilies; k++) {
        char en[96];
        enum_name(en, sizeof en, "PTX_FAMILY_", fam_sorted[k].name);
        fprintf(h, "    %s,\n", en);
    }
    fprintf(h, "    PTX_FAMILY_COUNT\n} ptx_family;\n\n"
               "/* Every modifier the tables know, by its spelling. */\n"
               "typedef enum ptx_modifier {\n    PTX_MOD_NONE = 0,\n");
    for (int k = 0; k < nmods; k++)
        fprintf(h, "    %s, /* %s */\n", enames[k], sorted[k]);
    fprintf(h, "    PTX_MOD_COUNT\n} ptx_modifier;\n\n"
               "/* What a modifier says about the instruction. */\n"
               "typedef enum ptx_mod_category {\n    PTX_CAT_NONE = 0,\n");
    for (size_t k = 0; k < NCATEGORIES; k++) {
        char en[64];
        enum_name(en, sizeof en, "PTX_CAT_", categories[k]);
        fprintf(h, "    %s,\n", en);
    }
    fprintf(h, "    PTX_CAT_COUNT\n} ptx_mod_category;\n\n#endif\n");

    fprintf(c, "/* Generated by tools/isagen from grammar/isa: do not edit. */\n"
               "#include \"isa_tables.h\"\n\n");
    fprintf(c, "const char *const ptx_isa_mod_names[PTX_MOD_COUNT] = {\n    \"\",\n");
    for (int k = 0; k < nmods; k++)
        fprintf(c, "    \"%s\",\n", sorted[k]);
    fprintf(c, "};\n\n/* what each modifier means where a slot of its own set takes it */\n"
               "const uint8_t ptx_isa_mod_categories[PTX_MOD_COUNT] = {\n    0,\n");
    for (int k = 0; k < nmods; k++) {
        int cat = modcat[unsorted[k]];
        fprintf(c, "    %d,\n", cat < 0 ? (int)NCATEGORIES : cat + 1);
    }
    fprintf(c, "};\n\nconst unsigned char ptx_isa_mod_ignored[PTX_MOD_COUNT] = {\n    0,");
    for (int k = 0; k < nmods; k++)
        fprintf(c, "%s%d,", k % 32 == 31 ? "\n    " : " ",
                unsorted[k] < capignored && ignored[unsorted[k]]);
    fprintf(c, "\n};\n\nconst char *const ptx_isa_category_names[PTX_CAT_COUNT] = {\n    \"\",\n");
    for (size_t k = 0; k < NCATEGORIES; k++)
        fprintf(c, "    \"%s\",\n", categories[k]);
    fprintf(c, "};\n\n");
    /* sets */
    for (int i = 0; i < nsets; i++) {
        fprintf(c, "static const uint16_t set%d[] = {", i);
        for (int k = 0; k < sets[i].n; k++)
            fprintf(c, "%s%d", k ? ", " : " ", remap[sets[i].mods[k]]);
        fprintf(c, " };\n");
    }
    fprintf(c, "\nconst ptx_isa_set ptx_isa_sets[] = {\n");
    for (int i = 0; i < nsets; i++)
        fprintf(c, "    { \"%s\", %d, %d, set%d },\n", sets[i].name, sets[i].category + 1,
                sets[i].n, i);
    if (!nsets)
        fprintf(c, "    { \"\", 0, 0, 0 },\n");
    fprintf(c, "};\n\n");
    /* selector sets */
    for (int i = 0; i < nselectors; i++) {
        fprintf(c, "static const char *const sel%d[] = {", i);
        for (int k = 0; k < selectors[i].n; k++)
            fprintf(c, "%s\"%s\"", k ? ", " : " ", selectors[i].patterns[k]);
        fprintf(c, "%s };\n", selectors[i].n ? "" : " 0");
    }
    fprintf(c, "\nconst ptx_isa_vlist ptx_isa_values[] = {\n");
    for (int i = 0; i < nvlists; i++) {
        fprintf(c, "    { %lld, {", vlists[i].n);
        for (int k = 0; k < vlists[i].n; k++) {
            const vlist_t *l = &vlists[i];
            fprintf(c, "%s{ ", k ? ", " : " ");
            if (l->lo[k] == LLONG_MIN)
                fprintf(c, "INT64_MIN, INT64_MAX");
            else
                fprintf(c, "%lldLL, %lldLL", l->lo[k], l->hi[k]);
            fprintf(c, ", %lldLL }", l->mod[k]);
        }
        fprintf(c, " } },\n");
    }
    if (!nvlists)
        fprintf(c, "    { 0, { { 0, 0, 0 } } },\n");
    fprintf(c, "};\n");
    fprintf(c, "\nconst ptx_isa_selector ptx_isa_selectors[] = {\n");
    for (int i = 0; i < nselectors; i++)
        fprintf(c, "    { \"%s\", %d, sel%d },\n", selectors[i].name, selectors[i].n, i);
    if (!nselectors)
        fprintf(c, "    { \"\", 0, 0 },\n");
    fprintf(c, "};\n\n");
    /* forms sorted by opcode root, so the validator finds an opcode's
     * forms (of every family that uses it) in one run */
    int *order = malloc(sizeof *order * (size_t)(nforms > 0 ? nforms : 1));
    for (int i = 0; i < nforms; i++)
        order[i] = i;
    for (int i = 1; i < nforms; i++) {          /* stable insertion sort */
        int x = order[i], j = i - 1;
        while (j >= 0) {
            const form_t *a = &forms[order[j]], *b = &forms[x];
            int r = strcmp(a->root, b->root);
            if (r < 0 || (r == 0 && fam_order[a->family] <= fam_order[b->family]))
                break;
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
    int *count = calloc((size_t)(nfamilies > 0 ? nfamilies : 1), sizeof *count);
    fprintf(c, "const ptx_isa_form ptx_isa_forms[] = {\n");
    if (!nforms)
        fprintf(c, "    { 0 },\n");
    for (int i = 0; i < nforms; i++) {
        form_t *f = &forms[order[i]];
        int k = fam_order[f->family];
        count[k]++;
        /* C11 has no empty initialiser: an empty list is written { 0 } */
        fprintf(c, "    { %d, %d, %d, {", k + 1, pool_add(f->text), f->nname);
        for (int j = 0; j < f->nname; j++)
            fprintf(c, "%s%d", j ? ", " : " ", remap[f->name[j]]);
        fprintf(c, "%s }, %d, {", f->nname ? "" : " 0", f->nslots);
        for (int j = 0; j < f->nslots; j++) {
            int lit = f->slots[j].kind < 2;
            int cat = lit ? modcat[f->slots[j].ref] : sets[f->slots[j].ref].category;
            fprintf(c, "%s{ %d, %d, %d }", j ? ", " : " ", f->slots[j].kind,
                    lit ? remap[f->slots[j].ref] : f->slots[j].ref,
                    cat < 0 ? (int)NCATEGORIES : cat + 1);
        }
        fprintf(c, "%s }, %d, {", f->nslots ? "" : " { 0, 0, 0 }", f->nops);
        for (int j = 0; j < f->nops; j++) {
            const operand_t *o = &f->ops[j];
            fprintf(c, "%s{ %d, %d, %uu, %d, %d, %d, %d, %d, %d, %d, %d }", j ? ", " : " ",
                    o->accept, o->vec, o->sizes, o->items, o->selector, o->coords, o->optional,
                    o->values, o->tkind, o->tbits, o->tflags);
        }
        if (!f->nops)
            fprintf(c, " { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }");
        fprintf(c, " }, %d, %d, %d, %d, %d, %d, %d, %d },\n", f->since_major,
                f->since_minor, pool_add(f->target), f->gone_major, f->gone_minor,
                pool_add(f->gone_target), pool_add(f->file), f->line);
    }
    fprintf(c, "};\n\nconst char ptx_isa_strings[] =");
    if (!npool)
        fprintf(c, " \"\"");
    for (int at = 0; at < npool; at += (int)strlen(pool + at) + 1)
        fprintf(c, "\n    \"%s\\0\"", pool + at);
    fprintf(c, ";\n");
    fprintf(c, "\nconst ptx_isa_root ptx_isa_roots[] = {\n");
    int nroots = 0;
    for (int i = 0; i < nforms;) {
        int j = i;
        while (j < nforms && !strcmp(forms[order[j]].root, forms[order[i]].root))
            j++;
        int values = 0;
        for (int k = i; k < j; k++)
            for (int o = 0; o < forms[order[k]].nops; o++)
                values |= forms[order[k]].ops[o].values != 0;
        fprintf(c, "    { \"%s\", %d, %d, %d },\n", forms[order[i]].root, i, j - i, values);
        nroots++;
        i = j;
    }
    if (!nroots)
        fprintf(c, "    { \"\", 0, 0 },\n");
    fprintf(c, "};\n\nconst unsigned ptx_isa_nroots = %d;\n\n", nroots);
    fprintf(c, "const ptx_isa_family ptx_isa_families[PTX_FAMILY_COUNT] = {\n"
               "    { \"\", 0, 0, \"\", 0, 0 },\n");
    for (int k = 0; k < nfamilies; k++)
        fprintf(c, "    { \"%s\", %d, %d, \"%s\", %d, %d },\n", fam_sorted[k].name,
                fam_sorted[k].major, fam_sorted[k].minor,
                fam_sorted[k].target ? fam_sorted[k].target : "", count[k],
                fam_sorted[k].construct);
    fprintf(c, "};\n\nconst unsigned ptx_isa_nforms = %d;\n", nforms);
    if (dict) {
        FILE *d = fopen(dict, "w");
        if (!d) {
            fprintf(stderr, "isagen: cannot write %s: %s\n", dict, strerror(errno));
            return 2;
        }
        for (int k = 0; k < nmods; k++)
            fprintf(d, "\"%s\"\n", sorted[k]);
        for (int i = 0; i < nforms; i++) {
            bool seen = false;
            for (int j = 0; j < i && !seen; j++)
                seen = !strcmp(forms[j].root, forms[i].root);
            if (!seen)
                fprintf(d, "\"%s\"\n", forms[i].root);
        }
        if (fclose(d)) {
            fprintf(stderr, "isagen: cannot write %s: %s\n", dict, strerror(errno));
            return 2;
        }
    }
    /* the tables parse_file built live until exit; what main made is
     * freed, so that a sanitized build (LeakSanitizer) runs it clean */
    free(modcat);
    free(sorted);
    free(remap);
    free(unsorted);
    free(enames);
    free(fam_order);
    free(fam_sorted);
    free(order);
    free(count);
    if (fclose(h) || fclose(c)) {
        fprintf(stderr, "isagen: cannot write output: %s\n", strerror(errno));
        return 2;
    }
    return 0;
}
