/* The instruction tables, lookup: an opcode to its root, a dot-word to
 * its modifier id (each distinct name searched for once, then found in
 * the validator's own table of names); the lookups by name and number of
 * ptx/isa.h; the list of families the CLI prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"

static int cmp_name(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

static int cmp_family(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const ptx_isa_family *)elem)->name);
}

static int cmp_root(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const ptx_isa_root *)elem)->name);
}

/* The index + 1 of the root named `opcode` in the tables, 0 when none. */
static uint16_t find_root(const char *opcode)
{
    const ptx_isa_root *hit = bsearch(opcode, ptx_isa_roots, ptx_isa_nroots,
                                      sizeof *ptx_isa_roots, cmp_root);
    return hit ? (uint16_t)(hit - ptx_isa_roots + 1) : 0;
}

/* The modifier id of a dot-word: 0 when no table knows it. */
static uint16_t find_mod(const char *word)
{
    const char *const *hit = bsearch(word, ptx_isa_mod_names + 1, PTX_MOD_COUNT - 1,
                                     sizeof *ptx_isa_mod_names, cmp_name);
    return hit ? (uint16_t)(hit - ptx_isa_mod_names) : 0;
}

static bool name_hash(const void *slot, uint32_t *hash)
{
    const isa_name_slot *e = slot;
    *hash = e->name ? e->name->hash : 0;
    return e->name != NULL;
}

uint16_t ptx_isa_name_id_slow(ptx_context *ctx, const ptx_name *n)
{
    struct ptx_isa_names *t = ctx->isa_names;
    if (!t)
        t = ctx->isa_names = ptx_arena_zalloc(&ctx->arena, sizeof *t);
    if (!t->slots || (t->count + 1) * 2 > t->mask + 1)
        t->slots = ptx_isa_table_grow(ctx, t->slots, &t->mask, sizeof *t->slots, name_hash);
    uint16_t id = n->text[0] == '.' ? find_mod(n->text) : find_root(n->text);
    size_t i = n->hash & t->mask;
    while (t->slots[i].name)
        i = (i + 1) & t->mask;
    t->slots[i] = (isa_name_slot){ n, id };
    t->count++;
    return id;
}

bool ptx_isa_knows(const ptx_name *opcode)
{
    return find_root(opcode->text) != 0;
}

ptx_family ptx_family_lookup(const char *opcode)
{
    const ptx_isa_family *hit = bsearch(opcode, ptx_isa_families + 1, PTX_FAMILY_COUNT - 1,
                                        sizeof *ptx_isa_families, cmp_family);
    return hit ? (ptx_family)(hit - ptx_isa_families) : PTX_FAMILY_NONE;
}

const char *ptx_family_name(ptx_family f)
{
    return (unsigned)f < PTX_FAMILY_COUNT && f ? ptx_isa_families[f].name : NULL;
}

const char *ptx_modifier_name(ptx_modifier m)
{
    return (unsigned)m < PTX_MOD_COUNT && m ? ptx_isa_mod_names[m] : NULL;
}

const char *ptx_category_name(ptx_mod_category c)
{
    return (unsigned)c < PTX_CAT_COUNT && c ? ptx_isa_category_names[c] : NULL;
}

ptx_modifier ptx_instr_modifier(const ptx_instr *in, ptx_mod_category cat, unsigned nth)
{
    for (unsigned i = 0; i < in->nmods; i++)
        if (in->mods[i].category == cat && nth-- == 0)
            return (ptx_modifier)in->mods[i].id;
    return PTX_MOD_NONE;
}

static void note_modifier(bool *seen, uint16_t id, ptx_modifier *out, size_t max, size_t *n)
{
    if (seen[id])
        return;
    seen[id] = true;
    if (*n < max)
        out[*n] = (ptx_modifier)id;
    ++*n;
}

size_t ptx_opcode_modifiers(const char *opcode, ptx_mod_category cat,
                            ptx_modifier *out, size_t max)
{
    const ptx_isa_root *root = opcode ? bsearch(opcode, ptx_isa_roots, ptx_isa_nroots,
                                                sizeof *ptx_isa_roots, cmp_root) : NULL;
    if (!root)
        return 0;
    bool seen[PTX_MOD_COUNT] = { false };
    size_t n = 0;
    for (unsigned k = 0; k < root->nforms; k++) {
        const ptx_isa_form *f = &ptx_isa_forms[root->first_form + k];
        for (unsigned i = 0; cat == PTX_CAT_NONE && i < f->nname; i++)
            note_modifier(seen, f->name[i], out, max, &n);
        for (unsigned s = 0; cat != PTX_CAT_NONE && s < f->nslots; s++) {
            const ptx_isa_slot *sl = &f->slots[s];
            if (sl->category != cat)
                continue;
            if (sl->kind == PTX_SLOT_LIT || sl->kind == PTX_SLOT_OPT_LIT) {
                note_modifier(seen, sl->ref, out, max, &n);
                continue;
            }
            const ptx_isa_set *set = &ptx_isa_sets[sl->ref];
            for (unsigned j = 0; j < set->n; j++)
                note_modifier(seen, set->mods[j], out, max, &n);
        }
    }
    return n;
}

ptx_status ptx_print_instruction_table(ptx_write_fn write, void *user)
{
    if (!write)
        return PTX_ERR_USAGE;
    ptx_out *o = malloc(sizeof *o);
    if (!o)
        return PTX_ERR_NOMEM;
    ptx_out_init(o, write, user);
    for (unsigned f = 1; f < PTX_FAMILY_COUNT; f++) {
        const ptx_isa_family *fam = &ptx_isa_families[f];
        if (fam->construct)
            ptx_out_fmt(o, "%-34s PTX %u.%u  %-8s (handled by the grammar)\n", fam->name,
                        fam->major, fam->minor, fam->target[0] ? fam->target : "all");
        else
            ptx_out_fmt(o, "%-34s PTX %u.%u  %-8s %3u form%s\n", fam->name, fam->major, fam->minor,
                        fam->target[0] ? fam->target : "all", fam->nforms,
                        fam->nforms == 1 ? "" : "s");
    }
    ptx_out_fmt(o, "%u families, %u forms\n", (unsigned)PTX_FAMILY_COUNT - 1, ptx_isa_nforms);
    ptx_status st = ptx_out_finish(o);
    free(o);
    return st;
}
