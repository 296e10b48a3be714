/* The instruction tables as a person reads them: each form in the PTX
 * manual's notation (isa_text.h), the list of instruction names and the
 * forms of one instruction (--list-instructions, --explain). */
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "isa_text.h"

/* ---- a bounded string builder ----------------------------------------- */

typedef struct text {
    char *buf;
    size_t n, len;          /* len counts what did not fit too */
} text;

static void put(text *t, const char *s)
{
    for (; *s; s++, t->len++)
        if (t->len + 1 < t->n)
            t->buf[t->len] = *s;
    if (t->n)
        t->buf[t->len < t->n ? t->len : t->n - 1] = '\0';
}

/* ---- modifiers ---------------------------------------------------------- */

/* The single modifier a slot stands for (a literal, or a set of one
 * value), or PTX_MOD_NONE for a set of several. */
static uint16_t slot_word(const ptx_isa_slot *s)
{
    if (s->kind == PTX_SLOT_LIT || s->kind == PTX_SLOT_OPT_LIT)
        return s->ref;
    const ptx_isa_set *set = &ptx_isa_sets[s->ref];
    return set->n == 1 ? set->mods[0] : PTX_MOD_NONE;
}

static bool slot_optional(const ptx_isa_slot *s)
{
    return s->kind == PTX_SLOT_OPT_LIT || s->kind == PTX_SLOT_OPT_SET;
}

/* An optional slot that repeats an earlier one (`.sat {.sat}`, which the
 * tables write so that ptxas's repeated modifier is accepted): the manual
 * shows the modifier once. */
static bool slot_repeats(const ptx_isa_form *f, unsigned i)
{
    const ptx_isa_slot *s = &f->slots[i];
    if (!slot_optional(s))
        return false;
    uint16_t w = slot_word(s);
    for (unsigned k = 0; k < i; k++) {
        const ptx_isa_slot *e = &f->slots[k];
        if (w != PTX_MOD_NONE ? slot_word(e) == w
                              : (e->kind == PTX_SLOT_SET || e->kind == PTX_SLOT_OPT_SET) && e->ref == s->ref)
            return true;
    }
    return false;
}

/* The manual's word for a placeholder of each category. */
static const char *category_word(unsigned cat)
{
    static const struct { const char *cat, *word; } words[] = {
        { "rounding", "rnd" }, { "space", "ss" }, { "cache", "cop" }, { "vector", "vec" },
        { "other", "mod" }, { "", "mod" },
    };
    const char *c = cat < PTX_CAT_COUNT ? ptx_isa_category_names[cat] : "";
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
        if (strcmp(words[k].cat, c) == 0)
            return words[k].word;
    return c;
}

/* The placeholder of slot i (a set of several values), "type" or, when
 * the form has several of its category, "dtype", "atype"... ("alayout",
 * "blayout"): the manual's names for the destination's and sources'. */
static void placeholder(const ptx_isa_form *f, unsigned i, char *buf, size_t n)
{
    unsigned cat = ptx_isa_sets[f->slots[i].ref].category, count = 0, nth = 0;
    for (unsigned k = 0; k < f->nslots; k++) {
        const ptx_isa_slot *s = &f->slots[k];
        if (slot_word(s) != PTX_MOD_NONE || slot_repeats(f, k) || ptx_isa_sets[s->ref].category != cat)
            continue;
        if (k < i)
            nth++;
        count++;
    }
    const char *word = category_word(cat);
    if (count < 2) {
        snprintf(buf, n, ".%s", word);
        return;
    }
    /* types: d for the first (the destination's), then a, b, c... */
    static const char type_letters[] = "dabcefgh", letters[] = "abcdefgh";
    const char *l = strcmp(word, "type") == 0 ? type_letters : letters;
    if (nth < 8)
        snprintf(buf, n, ".%c%s", l[nth], word);
    else
        snprintf(buf, n, ".%s%u", word, nth + 1);
}

/* ---- operands ----------------------------------------------------------- */

/* An operand's name as the manual gives it: d for a destination, a, b,
 * c, e... for the others, p and q for predicates. */
static void operand_text(text *t, const ptx_isa_operand *op, unsigned i, char letter)
{
    char name[2] = { letter, '\0' };
    if (op->optional)
        put(t, i ? "{, " : "{");
    else if (i)
        put(t, ", ");
    unsigned acc = op->accept;
    if (acc & PTX_ACC_NOTPRED)
        put(t, "{!}");
    if (acc & PTX_ACC_IMAGE) {
        put(t, "[");
        put(t, name);
        put(t, ", c]");
    } else if (acc & PTX_ACC_ADDR) {
        put(t, "[");
        put(t, name);
        put(t, "]");
    } else if (acc & PTX_ACC_LIST) {
        put(t, "(");
        put(t, name);
        put(t, ")");
    } else {
        put(t, name);
    }
    if (acc & PTX_ACC_PAIR)
        put(t, letter == 'p' ? "[|q]" : "[|e]");
    if (op->optional)
        put(t, "}");
}

static void operands_text(text *t, const ptx_isa_form *f)
{
    static const char sources[] = "abcefghijklmno";
    unsigned next = 0;
    for (unsigned i = 0; i < f->nops; i++) {
        const ptx_isa_operand *op = &f->ops[i];
        bool pred = (op->accept & (PTX_ACC_PRED | PTX_ACC_NOTPRED)) &&
                    !(op->accept & (PTX_ACC_NAME | PTX_ACC_IMM | PTX_ACC_ADDR));
        /* the first operand is the destination unless it is a constant,
         * an address or a label (bar.sync a, st [a], bra a) */
        bool dest = i == 0 && f->nops > 1 &&
                    !(op->accept & (PTX_ACC_IMM | PTX_ACC_ADDR | PTX_ACC_LABEL | PTX_ACC_LIST));
        char letter = pred && i == 0 ? 'p' : dest ? 'd' : sources[next < sizeof sources - 2 ? next++ : next];
        operand_text(t, op, i, letter);
    }
}

/* ---- forms ---------------------------------------------------------- */

size_t ptx_isa_form_syntax(const ptx_isa_form *f, bool operands, char *buf, size_t n)
{
    text t = { buf, n, 0 };
    if (n)
        buf[0] = '\0';
    /* the template's first word is the name: opcode and fixed words */
    const char *tmpl = PTX_ISA_STR(f->text);
    size_t nl = strcspn(tmpl, " ");
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(nl < sizeof name ? nl : sizeof name - 1), tmpl);
    put(&t, name);
    for (unsigned i = 0; i < f->nslots; i++) {
        if (slot_repeats(f, i))
            continue;
        const ptx_isa_slot *s = &f->slots[i];
        uint16_t w = slot_word(s);
        char ph[32];
        if (w == PTX_MOD_NONE)
            placeholder(f, i, ph, sizeof ph);
        bool opt = slot_optional(s);
        if (opt)
            put(&t, "{");
        put(&t, w != PTX_MOD_NONE ? ptx_isa_mod_names[w] : ph);
        if (opt)
            put(&t, "}");
    }
    if (operands && f->nops) {
        put(&t, "  ");
        operands_text(&t, f);
    }
    return t.len;
}

size_t ptx_isa_form_placeholders(const ptx_isa_form *f, const char *indent, char *buf, size_t n)
{
    text t = { buf, n, 0 };
    if (n)
        buf[0] = '\0';
    for (unsigned i = 0; i < f->nslots; i++) {
        const ptx_isa_slot *s = &f->slots[i];
        if (slot_word(s) != PTX_MOD_NONE || slot_repeats(f, i))
            continue;
        char ph[32];
        placeholder(f, i, ph, sizeof ph);
        put(&t, indent);
        put(&t, ph);
        put(&t, " = {");
        const ptx_isa_set *set = &ptx_isa_sets[s->ref];
        for (unsigned k = 0; k < set->n; k++) {
            put(&t, k ? ", " : " ");
            put(&t, ptx_isa_mod_names[set->mods[k]]);
        }
        put(&t, " }\n");
    }
    return t.len;
}

/* One line for messages ("form: ..."): the syntax, then what each
 * placeholder stands for, "; .type = { .u32, .s32 }". */
size_t ptx_isa_form_text(const ptx_isa_form *f, char *buf, size_t n)
{
    text t = { buf, n, 0 };
    if (n)
        buf[0] = '\0';
    if (!f)
        return 0;
    char part[1024];
    ptx_isa_form_syntax(f, false, part, sizeof part);
    put(&t, part);
    ptx_isa_form_placeholders(f, "; ", part, sizeof part);
    for (char *nl = part; (nl = strchr(nl, '\n')) != NULL;)
        memmove(nl, nl + 1, strlen(nl));     /* one line */
    put(&t, part);
    return t.len < n ? t.len : (n ? n - 1 : 0);
}

/* ---- instruction names ------------------------------------------------ */

/* The name a person writes a form's instruction with: the template's
 * first word, then the literal modifiers that every form of that first
 * word and family starts with ("bar" + ".sync": bar.sync; not "add" +
 * ".sat", since add.s32 has no .sat). */
typedef struct iname {
    char name[96];
    unsigned first_form;        /* the earliest form of this name */
    unsigned family;
} iname;

static size_t first_word(const ptx_isa_form *f)
{
    return strcspn(PTX_ISA_STR(f->text), " ");
}

static bool same_first_word(const ptx_isa_form *a, const ptx_isa_form *b)
{
    size_t n = first_word(a);
    return n == first_word(b) && strncmp(PTX_ISA_STR(a->text), PTX_ISA_STR(b->text), n) == 0;
}

static bool same_opcode(const ptx_isa_form *a, const ptx_isa_form *b)
{
    const char *x = PTX_ISA_STR(a->text), *y = PTX_ISA_STR(b->text);
    size_t n = strcspn(x, ". ");
    return n == strcspn(y, ". ") && strncmp(x, y, n) == 0;
}

static void form_name(unsigned k, char *buf, size_t n)
{
    const ptx_isa_form *f = &ptx_isa_forms[k];
    unsigned lits = 0;
    while (lits < f->nslots && f->slots[lits].kind == PTX_SLOT_LIT)
        lits++;
    /* the run of literals all forms of the same first word share; the
     * forms of one opcode are consecutive in the table */
    unsigned lo = k, hi = k;
    while (lits && lo > 0 && same_opcode(f, &ptx_isa_forms[lo - 1]))
        lo--;
    while (lits && hi + 1 < ptx_isa_nforms && same_opcode(f, &ptx_isa_forms[hi + 1]))
        hi++;
    for (unsigned j = lo; j <= hi && lits; j++) {
        const ptx_isa_form *g = &ptx_isa_forms[j];
        if (g->family != f->family || !same_first_word(f, g))
            continue;
        unsigned same = 0;
        while (same < lits && same < g->nslots && g->slots[same].kind == PTX_SLOT_LIT &&
               g->slots[same].ref == f->slots[same].ref)
            same++;
        lits = same;
    }
    text t = { buf, n, 0 };
    char head[96];
    size_t hl = first_word(f);
    snprintf(head, sizeof head, "%.*s", (int)(hl < sizeof head ? hl : sizeof head - 1), PTX_ISA_STR(f->text));
    put(&t, head);
    for (unsigned i = 0; i < lits; i++)
        put(&t, ptx_isa_mod_names[f->slots[i].ref]);
}

static int cmp_iname(const void *a, const void *b)
{
    return strcmp(((const iname *)a)->name, ((const iname *)b)->name);
}

/* Every instruction name of the tables, sorted, each once; *count gets
 * how many.  NULL when out of memory.  The caller frees the array. */
static iname *instruction_names(size_t *count)
{
    iname *v = malloc((ptx_isa_nforms ? ptx_isa_nforms : 1) * sizeof *v);
    if (!v)
        return NULL;
    size_t n = 0;
    for (unsigned k = 0; k < ptx_isa_nforms; k++) {
        form_name(k, v[n].name, sizeof v[n].name);
        v[n].first_form = k;
        v[n].family = ptx_isa_forms[k].family;
        n++;
    }
    qsort(v, n, sizeof *v, cmp_iname);
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (out && strcmp(v[out - 1].name, v[i].name) == 0) {
            if (v[i].first_form < v[out - 1].first_form)
                v[out - 1].first_form = v[i].first_form;
            continue;
        }
        v[out++] = v[i];
    }
    *count = out;
    return v;
}

struct ptx_isa_names {
    const iname *v;
    size_t n;
};

/* The list is the same for every caller: made once per process (about
 * 24 ms; --stats of many small modules made it once each), and kept. */
static iname *names_v;
static size_t names_n;
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static void names_make(void)
{
    names_v = instruction_names(&names_n);
}

ptx_isa_names *ptx_isa_names_new(void)
{
    pthread_once(&names_once, names_make);
    if (!names_v)
        return NULL;
    ptx_isa_names *names = malloc(sizeof *names);
    if (!names)
        return NULL;
    names->v = names_v;
    names->n = names_n;
    return names;
}

void ptx_isa_names_free(ptx_isa_names *names)
{
    free(names);
}

const char *ptx_isa_name_of(const ptx_isa_names *names, const ptx_instr *in)
{
    const char *best = ptx_instr_opcode(in)->text;
    char buf[96];
    text t = { buf, sizeof buf, 0 };
    put(&t, best);
    for (uint32_t i = 0; i <= in->nmods && t.len < sizeof buf - 1; i++) {
        iname key;
        snprintf(key.name, sizeof key.name, "%s", buf);
        const iname *hit = bsearch(&key, names->v, names->n, sizeof *names->v, cmp_iname);
        if (hit)
            best = hit->name;
        if (i < in->nmods)
            put(&t, in->mods[i].name->text);
    }
    return best;
}

/* The version a form needs: its own, else its family's. */
static unsigned form_version(const ptx_isa_form *f)
{
    if (f->since_major)
        return f->since_major * 10u + f->since_minor;
    const ptx_isa_family *fam = &ptx_isa_families[f->family];
    return fam->major * 10u + fam->minor;
}

static const char *form_target(const ptx_isa_form *f)
{
    const char *t = PTX_ISA_STR(f->target);
    if (!t[0])
        t = ptx_isa_families[f->family].target;
    return t[0] ? t : "all";
}

/* Is form f there at level `at` (NULL: anywhere)? */
static bool form_there(const ptx_isa_form *f, const ptx_isa_level *at)
{
    if (!at)
        return true;
    unsigned major = at->major || at->minor ? at->major : 9, minor = at->major || at->minor ? at->minor : 0;
    return ptx_isa_form_level(f, major, minor, at->target) == 0;
}

/* The oldest form of a name there at `at`: the version and target that
 * introduced it; NULL when none is there. */
static const ptx_isa_form *oldest_form(const iname *in, const ptx_isa_level *at)
{
    const ptx_isa_form *best = NULL;
    for (unsigned k = in->first_form; k < ptx_isa_nforms; k++) {
        const ptx_isa_form *f = &ptx_isa_forms[k];
        if (f->family != in->family)
            break;
        char name[96];
        form_name(k, name, sizeof name);
        if (strcmp(name, in->name) == 0 && form_there(f, at) &&
            (!best || form_version(f) < form_version(best)))
            best = f;
    }
    return best;
}

/* A family as the manual heads it: its id when that is an instruction
 * name ("add", "cp.async.bulk"); else its instructions' opcodes ("bar /
 * barrier", "vadd4 / vsub4 / ..."), or first words when they share one
 * opcode ("mbarrier.test_wait / mbarrier.try_wait"). */
static void family_heading(unsigned family, char *buf, size_t n)
{
    const char *id = ptx_isa_families[family].name;
    size_t idl = strlen(id);
    const char *op0 = NULL;
    size_t ol = 0;
    bool several = false;
    for (unsigned k = 0; k < ptx_isa_nforms; k++) {
        const ptx_isa_form *f = &ptx_isa_forms[k];
        if (f->family != family)
            continue;
        const char *w = PTX_ISA_STR(f->text);
        char name[96];
        form_name(k, name, sizeof name);
        if (strncmp(name, id, idl) == 0 && (name[idl] == '\0' || name[idl] == '.')) {
            snprintf(buf, n, "%s", id);
            return;
        }
        if (!op0) {
            op0 = w;
            ol = strcspn(w, ". ");
        }
        several |= strcspn(w, ". ") != ol || strncmp(w, op0, ol) != 0;
    }
    text t = { buf, n, 0 };
    if (n)
        buf[0] = '\0';
    for (unsigned k = 0; k < ptx_isa_nforms; k++) {
        const ptx_isa_form *f = &ptx_isa_forms[k];
        if (f->family != family)
            continue;
        const char *w = PTX_ISA_STR(f->text);
        size_t wl = several ? strcspn(w, ". ") : first_word(f);
        bool seen = false;
        for (unsigned j = 0; j < k && !seen; j++) {
            const ptx_isa_form *g = &ptx_isa_forms[j];
            const char *v = PTX_ISA_STR(g->text);
            size_t vl = several ? strcspn(v, ". ") : first_word(g);
            seen = g->family == family && vl == wl && strncmp(v, w, wl) == 0;
        }
        if (seen)
            continue;
        char word[96];
        snprintf(word, sizeof word, "%.*s", (int)(wl < sizeof word ? wl : sizeof word - 1), w);
        if (t.len)
            put(&t, " / ");
        put(&t, word);
    }
}

static bool family_named(unsigned fam, const char *name, bool *word);

/* A pattern with a wildcard is a shell glob; a plain word names the
 * instructions that are it or start with it and a dot ("bar": bar.sync,
 * bar.warp.sync; not barrier.sync). */
static bool name_matches(const char *pattern, const char *name)
{
    if (!pattern)
        return true;
    if (strpbrk(pattern, "*?["))
        return fnmatch(pattern, name, 0) == 0;
    size_t pl = strlen(pattern);
    return strncmp(pattern, name, pl) == 0 && (name[pl] == '\0' || name[pl] == '.');
}

ptx_status ptx_print_instruction_list(const char *pattern, ptx_write_fn write, void *user,
                                      size_t *listed)
{
    return ptx_print_instruction_list_at(pattern, NULL, write, user, listed);
}

ptx_status ptx_print_instruction_list_at(const char *pattern, const ptx_isa_level *at,
                                         ptx_write_fn write, void *user, size_t *listed)
{
    if (!write)
        return PTX_ERR_USAGE;
    size_t n = 0, shown = 0;
    iname *v = instruction_names(&n);
    ptx_out *o = v ? malloc(sizeof *o) : NULL;
    if (!o) {
        free(v);
        return PTX_ERR_NOMEM;
    }
    /* the names of the manual's section the pattern names, if it does */
    iname *sec = NULL;
    size_t nsec = 0;
    bool fams[PTX_FAMILY_COUNT] = { false };
    for (unsigned fam = 1; pattern && !strpbrk(pattern, "*?[") && fam < PTX_FAMILY_COUNT; fam++) {
        bool word;
        fams[fam] = family_named(fam, pattern, &word) && !word;
        if (fams[fam] && !sec && !(sec = malloc(ptx_isa_nforms * sizeof *sec))) {
            free(v);
            free(o);
            return PTX_ERR_NOMEM;
        }
    }
    for (unsigned k = 0; sec && k < ptx_isa_nforms; k++)
        if (fams[ptx_isa_forms[k].family])
            form_name(k, sec[nsec++].name, sizeof sec->name);
    ptx_out_init(o, write, user);
    for (size_t i = 0; i < n; i++) {
        /* a section of the manual lists its instructions (mma.sp:
         * mma; ld.global.nc: ld) */
        bool in_section = false;
        for (size_t j = 0; j < nsec && !in_section; j++)
            in_section = strcmp(sec[j].name, v[i].name) == 0;
        if (!name_matches(pattern, v[i].name) && !in_section)
            continue;
        const ptx_isa_form *f = oldest_form(&v[i], at);
        if (!f)
            continue;
        char heading[256];
        family_heading(v[i].family, heading, sizeof heading);
        unsigned ver = form_version(f);
        ptx_out_fmt(o, "%-34s PTX %u.%u  %-8s %s\n", v[i].name, ver / 10, ver % 10, form_target(f), heading);
        shown++;
    }
    free(sec);
    free(v);
    if (listed)
        *listed = shown;
    ptx_status st = ptx_out_finish(o);
    free(o);
    return st;
}

/* What a form needs beyond its family's, and when it was withdrawn. */
static void requirement(ptx_out *o, const ptx_isa_form *f)
{
    unsigned ver = form_version(f);
    ptx_out_fmt(o, "PTX ISA %u.%u, ", ver / 10, ver % 10);
    const char *t = form_target(f);
    if (strcmp(t, "all") == 0)
        ptx_out_str(o, "all targets");
    else
        /* sm_90: that or newer; sm_90a: exactly it; sm_100f: its family */
        ptx_out_fmt(o, "%s%s", t,
                    strchr(t, ',') ? " (any of them)"
                    : t[strlen(t) - 1] == 'a' ? " only"
                    : t[strlen(t) - 1] == 'f' ? " family" : " or later");
    const char *gone = PTX_ISA_STR(f->gone_target);
    if (f->gone_major || gone[0]) {
        ptx_out_str(o, "; withdrawn");
        if (f->gone_major)
            ptx_out_fmt(o, " from PTX ISA %u.%u", f->gone_major, f->gone_minor);
        if (gone[0])
            ptx_out_fmt(o, " on %s and later", gone);
    }
}

/* Does family `fam` go by `name` in the manual: its section's name (the
 * table's id: mma.sp, ld.global.nc, rcp.approx.ftz.f64), or a name of its
 * heading ("bar / barrier": barrier)?  *word tells the second. */
static bool family_named(unsigned fam, const char *name, bool *word)
{
    *word = false;
    if (strcmp(ptx_isa_families[fam].name, name) == 0)
        return true;
    char heading[256];
    family_heading(fam, heading, sizeof heading);
    size_t nl = strlen(name);
    for (const char *h = heading; *h;) {
        size_t l = strcspn(h, " ");
        if (l == nl && strncmp(h, name, nl) == 0)
            return *word = true;
        h += l;
        while (*h == ' ' || *h == '/')
            h++;
    }
    return false;
}

/* Marks in seen[] the forms `name` stands for: an instruction name of the
 * list; else a section of the manual (all its forms; a name of its
 * heading, the forms written with that word: barrier.sync for barrier);
 * else a first word that starts several ("mma": mma.sync).  Returns how
 * many. */
static unsigned forms_named(const char *name, char *seen)
{
    size_t nl = strlen(name);
    unsigned found = 0;
    /* which families the name is a section of (1) or a heading word of (2) */
    unsigned char fams[PTX_FAMILY_COUNT];
    for (unsigned fam = 0; fam < PTX_FAMILY_COUNT; fam++) {
        bool word;
        fams[fam] = fam && family_named(fam, name, &word) ? (word ? 2 : 1) : 0;
    }
    for (int pass = 0; pass < 3 && !found; pass++)
        for (unsigned k = 0; k < ptx_isa_nforms; k++) {
            const ptx_isa_form *f = &ptx_isa_forms[k];
            const char *w = PTX_ISA_STR(f->text);
            bool hit;
            if (pass == 0) {
                char fname[96];
                form_name(k, fname, sizeof fname);
                hit = strcmp(fname, name) == 0;
            } else if (pass == 1) {
                hit = fams[f->family] == 1 ||
                      (fams[f->family] == 2 && strncmp(w, name, nl) == 0 &&
                       (w[nl] == '.' || w[nl] == ' ' || !w[nl]));
            } else {
                hit = first_word(f) == nl && strncmp(w, name, nl) == 0;
            }
            if (hit) {
                seen[k] = 1;
                found++;
            }
        }
    return found;
}

size_t ptx_suggest_instruction(const char *name, char *buf, size_t size)
{
    if (!buf || !size)
        return 0;
    buf[0] = '\0';
    size_t n = 0;
    iname *v = instruction_names(&n);
    if (!v || !name)
        return (free(v), 0);
    ptx_suggest s;
    ptx_suggest_init(&s, name, strlen(name));
    for (size_t i = 0; i < n; i++)
        ptx_suggest_offer(&s, v[i].name, strlen(v[i].name));
    for (unsigned fam = 1; fam < PTX_FAMILY_COUNT; fam++)
        if (!strchr(ptx_isa_families[fam].name, '_') || strchr(ptx_isa_families[fam].name, '.'))
            ptx_suggest_offer(&s, ptx_isa_families[fam].name, strlen(ptx_isa_families[fam].name));
    char said[PTX_SUGGEST_TEXT];
    ptx_suggest_text(&s, said, sizeof said);
    free(v);
    /* "; did you mean 'x'?" -> "did you mean 'x'?" */
    const char *t = said[0] == ';' ? said + 2 : said;
    snprintf(buf, size, "%s", t);
    return strlen(t);
}

/* "PTX ISA 8.0 for sm_90": level `at` in words */
static void level_words(const ptx_isa_level *at, char *buf, size_t n)
{
    if (at->major || at->minor)
        snprintf(buf, n, "PTX ISA %u.%u%s%s", at->major, at->minor, at->target ? " for " : "",
                 at->target ? at->target : "");
    else
        snprintf(buf, n, "%s", at->target ? at->target : "any level");
}

ptx_status ptx_print_instruction_forms(const char *name, ptx_write_fn write, void *user)
{
    return ptx_print_instruction_forms_at(name, NULL, write, user);
}

ptx_status ptx_print_instruction_forms_at(const char *name, const ptx_isa_level *at,
                                          ptx_write_fn write, void *user)
{
    if (!write || !name)
        return PTX_ERR_USAGE;
    ptx_out *o = malloc(sizeof *o);
    char *seen = o ? calloc(ptx_isa_nforms ? ptx_isa_nforms : 1, 1) : NULL;
    if (!seen) {
        free(o);
        return PTX_ERR_NOMEM;
    }
    unsigned found = forms_named(name, seen);
    /* LD, Mma.Sync: the names are lower case */
    char lower[96];
    if (!found && strlen(name) < sizeof lower) {
        size_t i = 0;
        for (; name[i]; i++)
            lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
        lower[i] = '\0';
        if (strcmp(lower, name) != 0 && (found = forms_named(lower, seen)) != 0)
            name = lower;
    }
    ptx_out_init(o, write, user);
    ptx_status st = PTX_OK;
    if (!found) {
        st = PTX_ERR_INPUT;
    } else {
        char heading[256], level[128] = "";
        unsigned first = 0;
        while (!seen[first])
            first++;
        family_heading(ptx_isa_forms[first].family, heading, sizeof heading);
        /* at a level: the forms there, and how many the name has in all */
        unsigned all = found;
        for (unsigned k = first; at && k < ptx_isa_nforms; k++)
            if (seen[k] && !form_there(&ptx_isa_forms[k], at)) {
                seen[k] = 0;
                found--;
            }
        if (at)
            level_words(at, level, sizeof level);
        if (!at)
            ptx_out_fmt(o, "%s: %u form%s", name, found, found == 1 ? "" : "s");
        else if (found)
            ptx_out_fmt(o, "%s: %u of %u form%s at %s", name, found, all, all == 1 ? "" : "s", level);
        else
            ptx_out_fmt(o, "%s: none of its %u form%s at %s", name, all, all == 1 ? "" : "s", level);
        if (strcmp(heading, name) != 0)
            ptx_out_fmt(o, " (family %s)", heading);
        ptx_out_char(o, '\n');
        /* forms that read the same (their differences are operand types
         * or checks the notation does not show) are printed once */
        char *prev = NULL;
        for (unsigned k = first; k < ptx_isa_nforms; k++) {
            if (!seen[k])
                continue;
            const ptx_isa_form *f = &ptx_isa_forms[k];
            char syn[512], ph[2048], req[256];
            ptx_isa_form_syntax(f, true, syn, sizeof syn);
            ptx_isa_form_placeholders(f, "      ", ph, sizeof ph);
            snprintf(req, sizeof req, "%u|%s|%u.%u|%s", form_version(f), form_target(f), f->gone_major,
                     f->gone_minor, PTX_ISA_STR(f->gone_target));
            size_t len = strlen(syn) + strlen(ph) + strlen(req) + 3;
            char *block = malloc(len);
            if (!block) {
                st = PTX_ERR_NOMEM;
                break;
            }
            snprintf(block, len, "%s\n%s\n%s", syn, ph, req);
            bool repeat = prev && strcmp(prev, block) == 0;
            free(prev);
            prev = block;
            if (repeat)
                continue;
            ptx_out_fmt(o, "  %s\n", syn);
            ptx_out_str(o, ph);
            ptx_out_str(o, "      ");
            requirement(o, f);
            ptx_out_char(o, '\n');
        }
        free(prev);
    }
    ptx_status wst = ptx_out_finish(o);
    free(o);
    free(seen);
    return st != PTX_OK ? st : wst;
}
