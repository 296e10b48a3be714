/* One form of an instruction written the way the PTX manual writes
 * syntax: the name, then each modifier slot, a fixed word as itself, a
 * choice as a placeholder named after what it says (".type", ".rounding")
 * defined after the form, optional slots in braces:
 *     mul{.rounding}{.ftz}{.sat}.f32; .rounding = { .rn, .rz, .rm, .rp }
 * The tables' own template ("mul {<rnz>} {.ftz} {.sat} {.sat} <f32>")
 * names internal sets and repeats slots the template needs twice; no
 * message shows it.  ptx-front --explain prints forms with this too. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "isa_tables.h"

/* The same word or set, optional or not */
static bool same_slot(const ptx_isa_slot *a, const ptx_isa_slot *b)
{
    bool la = a->kind == PTX_SLOT_LIT || a->kind == PTX_SLOT_OPT_LIT;
    bool lb = b->kind == PTX_SLOT_LIT || b->kind == PTX_SLOT_OPT_LIT;
    return la == lb && a->ref == b->ref;
}

/* An optional word already in the name (elect.sync {.sync}) */
static bool in_name(const ptx_isa_form *f, const ptx_isa_slot *sl)
{
    for (unsigned i = 0; sl->kind == PTX_SLOT_OPT_LIT && i < f->nname; i++)
        if (f->name[i] == sl->ref)
            return true;
    return false;
}

/* The placeholder of choice slot s: its category's name, numbered from
 * the second set of one category on (cvt's two types: .type, .type2); a
 * set met again (mma's two source types) keeps its name. */
static void placeholder(const ptx_isa_form *f, unsigned s, char *buf, size_t size)
{
    const ptx_isa_slot *sl = &f->slots[s];
    const char *cat = ptx_category_name((ptx_mod_category)sl->category);
    unsigned nth = 1;
    for (unsigned k = 0; k < s; k++) {
        const ptx_isa_slot *o = &f->slots[k];
        if (o->ref == sl->ref && (o->kind == PTX_SLOT_SET || o->kind == PTX_SLOT_OPT_SET)) {
            placeholder(f, k, buf, size);
            return;
        }
        bool first = true;
        for (unsigned j = 0; j < k; j++)
            first &= f->slots[j].ref != o->ref || f->slots[j].kind != o->kind;
        if (first && (o->kind == PTX_SLOT_SET || o->kind == PTX_SLOT_OPT_SET) &&
            ptx_isa_sets[o->ref].n > 1 && o->category == sl->category)
            nth++;
    }
    if (nth > 1)
        snprintf(buf, size, ".%s%u", cat ? cat : "word", nth);
    else
        snprintf(buf, size, ".%s", cat ? cat : "word");
}

size_t ptx_isa_form_text(const ptx_isa_form *f, char *buf, size_t size)
{
    if (!size)
        return 0;
    buf[0] = '\0';
    if (!f)
        return 0;
    size_t n = 0;
    char ph[32];
    /* the root's name: the first word of the template */
    const char *t = PTX_ISA_STR(f->text);
    size_t root = strcspn(t, " .{<");
#define PUT(...) (n += n < size ? (size_t)snprintf(buf + n, size - n, __VA_ARGS__) : 0)
    PUT("%.*s", (int)root, t);
    for (unsigned i = 0; i < f->nname; i++)
        PUT("%s", ptx_isa_mod_names[f->name[i]]);
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned s = 0; s < f->nslots; s++) {
            const ptx_isa_slot *sl = &f->slots[s];
            bool optional = sl->kind == PTX_SLOT_OPT_LIT || sl->kind == PTX_SLOT_OPT_SET;
            bool again = in_name(f, sl);
            for (unsigned k = 0; k < f->nslots; k++) {
                const ptx_isa_slot *o = &f->slots[k];
                bool o_optional = o->kind == PTX_SLOT_OPT_LIT || o->kind == PTX_SLOT_OPT_SET;
                /* an optional copy of a required word goes, wherever it
                 * is; so does a later copy of the same kind */
                again |= k != s && same_slot(o, sl) &&
                         ((optional && !o_optional) || (k < s && optional == o_optional));
            }
            /* an optional word the template allows twice is written once;
             * a set it needs twice is two words, defined once */
            if (again && (optional || pass == 1))
                continue;
            bool literal = sl->kind == PTX_SLOT_LIT || sl->kind == PTX_SLOT_OPT_LIT;
            const ptx_isa_set *set = literal ? NULL : &ptx_isa_sets[sl->ref];
            const char *word = literal ? ptx_isa_mod_names[sl->ref]
                             : set->n == 1 ? ptx_isa_mod_names[set->mods[0]] : NULL;
            if (pass == 0) {
                if (!word)
                    placeholder(f, s, ph, sizeof ph);
                PUT(optional ? "{%s}" : "%s", word ? word : ph);
            } else if (!word) {
                /* then what each placeholder stands for */
                placeholder(f, s, ph, sizeof ph);
                PUT("; %s = {", ph);
                for (unsigned k = 0; k < set->n; k++)
                    PUT("%s %s", k ? "," : "", ptx_isa_mod_names[set->mods[k]]);
                PUT(" }");
            }
        }
    }
#undef PUT
    if (n >= size)
        n = size - 1;
    return n;
}
