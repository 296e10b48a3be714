/* Module statistics (ptx-front --stats): per kernel and function its
 * signature, directives, registers, memory and instruction mix; module
 * totals.  Printed as text for people or as JSON.  Sizes and counts past
 * 2^64 - 1 (a[4294967295][4294967295][4294967295] is legal syntax) stay
 * at 18446744073709551615 rather than wrap around. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "isa_text.h"

enum { TOP_FAMILIES = 8 };

typedef struct count {
    const char *name;
    uint64_t n;
} count;

typedef struct fstats {
    uint64_t regs[PTX_TYPE_COUNT];
    uint64_t mem[PTX_SPACE_COUNT];      /* bytes declared in the body */
    uint64_t instructions;
    count *families;                    /* malloc'd */
    size_t nfamilies, capfamilies;
    bool nomem;
} fstats;

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static unsigned type_bytes(unsigned t)
{
    if (t == PTX_TYPE_PRED)
        return 0;
    unsigned bits = ptx_type_bits(t);
    return bits ? bits / 8 : 8;     /* opaque handles take 8 bytes */
}

/* Bytes of one variable: element size, vector width, array dimensions
 * (an unsized dimension counts as 0). */
static uint64_t var_bytes(const ptx_decl *d, const ptx_var *v)
{
    uint64_t n = (uint64_t)type_bytes(d->type) * (d->vec ? d->vec : 1);
    for (uint32_t i = 0; i < v->ndims; i++)
        n = sat_mul(n, (i == 0 && v->unsized) ? 0 : v->dims[i]);
    if (v->has_range)
        n = sat_mul(n, v->range);
    return n;
}

static uint64_t var_align(const ptx_decl *d)
{
    if (d->align)
        return d->align;
    uint64_t a = (uint64_t)type_bytes(d->type) * (d->vec ? d->vec : 1);
    return a ? a : 1;
}

static void add_family(fstats *s, const char *name, uint64_t n)
{
    for (size_t i = 0; i < s->nfamilies; i++) {
        if (s->families[i].name == name || strcmp(s->families[i].name, name) == 0) {
            s->families[i].n += n;
            return;
        }
    }
    if (s->nfamilies == s->capfamilies) {
        size_t cap = s->capfamilies ? s->capfamilies * 2 : 16;
        count *c = realloc(s->families, cap * sizeof *c);
        if (!c) {
            s->nomem = true;
            return;
        }
        s->families = c;
        s->capfamilies = cap;
    }
    s->families[s->nfamilies].name = name;
    s->families[s->nfamilies++].n = n;
}

static int by_count(const void *a, const void *b)
{
    const count *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Walks one function body (the iterator is inside it). */
static bool collect(ptx_iter *it, const ptx_node *func, fstats *s, const ptx_isa_names *names)
{
    const ptx_node *n;
    ptx_event ev;
    while ((ev = ptx_iter_next(it, &n)) > 0) {
        if (ev == PTX_EVENT_EXIT && n == func)
            return true;
        if (ev != PTX_EVENT_ENTER)
            continue;
        if (n->kind == PTX_NODE_INSTR) {
            const ptx_instr *in = (const ptx_instr *)n;
            s->instructions++;
            /* the instruction's name as the manual and --list-instructions
             * write it (bar.sync, not the table's id bar_barrier) */
            add_family(s, ptx_isa_name_of(names, in), 1);
        } else if (n->kind == PTX_NODE_DECL) {
            const ptx_decl *d = (const ptx_decl *)n;
            for (uint32_t i = 0; i < d->nvars; i++) {
                if (d->space == PTX_SPACE_REG)
                    s->regs[d->type] = sat_add(s->regs[d->type],
                                               d->vars[i].has_range ? d->vars[i].range : 1);
                else
                    s->mem[d->space] = sat_add(s->mem[d->space], var_bytes(d, &d->vars[i]));
            }
        }
    }
    return ev != PTX_EVENT_NOMEM;
}

static void out_json_str(ptx_out *o, const char *s)
{
    ptx_out_json_str(o, s, strlen(s));
}

static void out_function(ptx_out *o, const ptx_context *ctx, const ptx_func *f, fstats *s, const ptx_cfg *c,
                         bool json, bool first)
{
    if (s->nfamilies)
        qsort(s->families, s->nfamilies, sizeof *s->families, by_count);
    const char *kind = f->is_entry ? "kernel" : "function";
    if (json) {
        /* the words and keys of --json's function nodes (schema 2) */
        ptx_out_str(o, f->is_entry ? (first ? "{\"k\":\"entry\"" : ",{\"k\":\"entry\"")
                                   : (first ? "{\"k\":\"func\"" : ",{\"k\":\"func\""));
        if (f->base.span.off != PTX_NO_OFFSET) {
            ptx_position p = { 0, 0 };
            if (ctx)
                p = ptx_context_position(ctx, f->base.span.off);
            ptx_out_fmt(o, ",\"r\":[%u,%llu]", f->base.span.off,
                        (unsigned long long)f->base.span.off + f->base.span.len);
            if (p.line)
                ptx_out_fmt(o, ",\"line\":%u,\"col\":%u", p.line, p.col);
        }
        ptx_out_str(o, ",\"name\":");
        out_json_str(o, f->name->text);
        if (f->linkage) {
            ptx_out_str(o, ",\"link\":");
            out_json_str(o, ptx_linkage_name(f->linkage));
        }
        if (!f->body)
            ptx_out_str(o, ",\"proto\":true");
        ptx_out_str(o, ",\"params\":[");
    } else {
        ptx_out_fmt(o, "%s %s (%s%s%s)%s\n", kind, f->name->text,
                    f->linkage ? ptx_linkage_name(f->linkage) : "", f->linkage ? " " : "",
                    f->is_entry ? ".entry" : ".func", f->body ? "" : ", prototype");
        if (f->nparams || f->nret)
            ptx_out_str(o, "  params:");
    }
    for (int r = 0; r < 2; r++) {
        ptx_decl *const *ps = r ? f->params : f->ret;
        uint32_t np = r ? f->nparams : f->nret;
        for (uint32_t i = 0; i < np; i++) {
            const ptx_decl *d = ps[i];
            const ptx_var *v = &d->vars[0];
            char type[24];
            snprintf(type, sizeof type, "%s%s%s", d->vec ? (d->vec == 2 ? ".v2" : d->vec == 4 ? ".v4" : ".v8") : "",
                     d->vec ? " " : "", ptx_type_name(d->type));
            if (json) {
                ptx_out_str(o, (i || (r && f->nret)) ? ",{\"name\":" : "{\"name\":");
                out_json_str(o, v->name->text);
                ptx_out_fmt(o, ",\"space\":\"%s\",\"type\":\"%s\"", ptx_space_name(d->space),
                            ptx_type_name(d->type));
                if (d->vec)
                    ptx_out_fmt(o, ",\"vec\":%u", (unsigned)d->vec);
                ptx_out_fmt(o, ",\"size\":%llu,\"align\":%llu%s}", (unsigned long long)var_bytes(d, v),
                            (unsigned long long)var_align(d), r ? "" : ",\"ret\":true");
            } else {
                ptx_out_fmt(o, "%s%s%s %s %s, %llu bytes, align %llu", (i || (r && f->nret)) ? ";" : "",
                            r ? " " : " return ", v->name->text, ptx_space_name(d->space), type,
                            (unsigned long long)var_bytes(d, v), (unsigned long long)var_align(d));
            }
        }
    }
    if (json) {
        ptx_out_char(o, ']');
        ptx_out_json_directives(o, f->dirs, f->ndirs);
    } else {
        if (f->nparams || f->nret)
            ptx_out_char(o, '\n');
        if (f->ndirs)
            ptx_out_str(o, "  directives:");
        for (uint32_t i = 0; i < f->ndirs; i++) {
            const ptx_fdir *d = &f->dirs[i];
            ptx_out_str(o, i ? "; " : " ");
            ptx_out_str(o, ptx_fdir_name(d->kind));
            for (unsigned k = 0; k < d->nvals && d->kind != PTX_FDIR_PRAGMA; k++)
                ptx_out_fmt(o, "%s%u", k ? ", " : " ", d->vals[k]);
            for (unsigned k = 0; k < d->nvals && d->kind == PTX_FDIR_PRAGMA; k++) {
                ptx_out_str(o, k ? ", \"" : " \"");
                ptx_out_name(o, d->strings[k]);
                ptx_out_char(o, '"');
            }
        }
    }
    if (json) {
        ptx_out_str(o, ",\"registers\":{");
    } else {
        if (f->ndirs)
            ptx_out_char(o, '\n');
        ptx_out_str(o, "  registers:");
    }
    bool any = false;
    for (unsigned t = 1; t < PTX_TYPE_COUNT; t++) {
        if (!s->regs[t])
            continue;
        if (json)
            ptx_out_fmt(o, "%s\"%s\":%llu", any ? "," : "", ptx_type_name(t), (unsigned long long)s->regs[t]);
        else
            ptx_out_fmt(o, "%s %s %llu", any ? "," : "", ptx_type_name(t), (unsigned long long)s->regs[t]);
        any = true;
    }
    if (json) {
        ptx_out_fmt(o, "},\"memory\":{\"shared\":%llu,\"local\":%llu,\"param\":%llu,\"global\":%llu,\"const\":%llu},"
                       "\"instructions\":%llu,\"families\":{",
                    (unsigned long long)s->mem[PTX_SPACE_SHARED], (unsigned long long)s->mem[PTX_SPACE_LOCAL],
                    (unsigned long long)s->mem[PTX_SPACE_PARAM], (unsigned long long)s->mem[PTX_SPACE_GLOBAL],
                    (unsigned long long)s->mem[PTX_SPACE_CONST], (unsigned long long)s->instructions);
        for (size_t i = 0; i < s->nfamilies; i++) {
            ptx_out_str(o, i ? "," : "");
            out_json_str(o, s->families[i].name);
            ptx_out_fmt(o, ":%llu", (unsigned long long)s->families[i].n);
        }
        /* the control-flow graph's (cfg.c): zeros for a prototype */
        ptx_out_fmt(o, "},\"blocks\":%u,\"loops\":%u,\"max_loop_depth\":%u,\"calls\":%u}",
                    c ? c->nblocks : 0, c ? c->nloops : 0, c ? c->max_loop_depth : 0, c ? c->ncalls : 0);
        return;
    }
    ptx_out_fmt(o, "%s\n  memory: shared %llu B, local %llu B, param %llu B\n  instructions: %llu",
                any ? "" : " none", (unsigned long long)s->mem[PTX_SPACE_SHARED],
                (unsigned long long)s->mem[PTX_SPACE_LOCAL], (unsigned long long)s->mem[PTX_SPACE_PARAM],
                (unsigned long long)s->instructions);
    for (size_t i = 0; i < s->nfamilies && i < TOP_FAMILIES; i++)
        ptx_out_fmt(o, "%s%s %llu", i ? ", " : " (top: ", s->families[i].name,
                    (unsigned long long)s->families[i].n);
    ptx_out_str(o, s->nfamilies ? ")\n" : "\n");
    if (c)
        ptx_out_fmt(o, "  graph: %u basic block%s, %u loop%s, max loop depth %u, %u call%s\n", c->nblocks,
                    c->nblocks == 1 ? "" : "s", c->nloops, c->nloops == 1 ? "" : "s", c->max_loop_depth,
                    c->ncalls, c->ncalls == 1 ? "" : "s");
}

/* Whether a function of the same name comes before f among the items
 * printed (names are interned: equal names are equal pointers). */
static bool counted_before(const ptx_module *m, const ptx_func *f, ptx_print_filter filter, void *filter_user)
{
    for (const ptx_node *n = m->first; n && n != &f->base; n = n->next)
        if (n->kind == PTX_NODE_FUNC && ((const ptx_func *)n)->name == f->name &&
            (!filter || filter(n, filter_user)))
            return true;
    return false;
}

ptx_status ptx_print_stats(const ptx_context *ctx, const ptx_module *m, bool json,
                           ptx_print_filter filter, void *filter_user,
                           ptx_write_fn write, void *user)
{
    ptx_out *o;
    ptx_iter *it;
    ptx_status st = ptx_printer_open(m, write, user, &o, &it);
    if (st != PTX_OK)
        return st;
    const char *file = ctx ? ptx_context_filename(ctx) : "";
    if (json) {
        ptx_out_str(o, "{\"schema\":2,\"file\":");
        out_json_str(o, file);
        if (ctx)
            ptx_out_str(o, ptx_error_count(ctx) ? ",\"valid\":false" : ",\"valid\":true");
        ptx_out_fmt(o, ",\"version\":\"%u.%u\",\"targets\":[", m->version_major, m->version_minor);
        for (uint32_t i = 0; i < m->ntargets; i++) {
            ptx_out_str(o, i ? "," : "");
            out_json_str(o, m->targets[i]->text);
        }
        ptx_out_char(o, ']');
        if (m->address_size)
            ptx_out_fmt(o, ",\"address_size\":%u", m->address_size);
        ptx_out_str(o, ",\"functions\":[");
    } else {
        ptx_out_fmt(o, "%s%s.version %u.%u  .target", file, file[0] ? ": " : "",
                    m->version_major, m->version_minor);
        for (uint32_t i = 0; i < m->ntargets; i++)
            ptx_out_fmt(o, "%s%s", i ? ", " : " ", m->targets[i]->text);
        if (m->address_size)
            ptx_out_fmt(o, "  .address_size %u", m->address_size);
        ptx_out_char(o, '\n');
    }
    ptx_graphs *graphs = NULL;
    st = ptx_graphs_build_pinned(m, &graphs);
    if (st != PTX_OK)
        return ptx_printer_close(o, it, st);
    ptx_isa_names *names = ptx_isa_names_new();
    if (!names) {
        ptx_graphs_free(graphs);
        return ptx_printer_close(o, it, PTX_ERR_NOMEM);
    }
    uint64_t kernels = 0, funcs = 0, instructions = 0, module_mem[PTX_SPACE_COUNT] = { 0 };
    fstats total = { 0 };
    const ptx_node *n;
    ptx_event ev;
    bool first = true;
    while ((ev = ptx_iter_next_item(it, &n, filter, filter_user)) > 0 && !o->failed) {
        if (ev != PTX_EVENT_ENTER || ptx_iter_depth(it) != 0)
            continue;
        if (n->kind == PTX_NODE_DECL) {
            const ptx_decl *d = (const ptx_decl *)n;
            for (uint32_t i = 0; i < d->nvars; i++)
                module_mem[d->space] = sat_add(module_mem[d->space], var_bytes(d, &d->vars[i]));
            continue;
        }
        if (n->kind != PTX_NODE_FUNC) {
            ptx_iter_skip_children(it);
            continue;
        }
        const ptx_func *f = (const ptx_func *)n;
        fstats s = { 0 };
        if (f->body && !collect(it, n, &s, names))
            st = PTX_ERR_NOMEM;
        if (s.nomem)
            st = PTX_ERR_NOMEM;
        /* a function declared and defined (or declared twice) is one */
        if (!counted_before(m, f, filter, filter_user))
            *(f->is_entry ? &kernels : &funcs) += 1;
        instructions += s.instructions;
        for (size_t i = 0; i < s.nfamilies; i++)
            add_family(&total, s.families[i].name, s.families[i].n);
        out_function(o, ctx, f, &s, ptx_graphs_cfg_of(graphs, f), json, first);
        first = false;
        free(s.families);
        if (st != PTX_OK)
            break;
    }
    if (ev == PTX_EVENT_NOMEM || total.nomem)
        st = PTX_ERR_NOMEM;
    if (total.nfamilies)
        qsort(total.families, total.nfamilies, sizeof *total.families, by_count);
    if (json) {
        ptx_out_fmt(o, "],\"totals\":{\"kernels\":%llu,\"functions\":%llu,\"instructions\":%llu,"
                       "\"global\":%llu,\"const\":%llu,\"shared\":%llu,\"families\":{",
                    (unsigned long long)kernels, (unsigned long long)funcs, (unsigned long long)instructions,
                    (unsigned long long)module_mem[PTX_SPACE_GLOBAL], (unsigned long long)module_mem[PTX_SPACE_CONST],
                    (unsigned long long)module_mem[PTX_SPACE_SHARED]);
        for (size_t i = 0; i < total.nfamilies; i++) {
            ptx_out_str(o, i ? "," : "");
            out_json_str(o, total.families[i].name);
            ptx_out_fmt(o, ":%llu", (unsigned long long)total.families[i].n);
        }
        ptx_out_str(o, "}}}\n");
    } else {
        ptx_out_fmt(o, "totals: %llu kernel%s, %llu function%s, %llu instructions; module memory: "
                       "global %llu B, const %llu B, shared %llu B\n",
                    (unsigned long long)kernels, kernels == 1 ? "" : "s", (unsigned long long)funcs,
                    funcs == 1 ? "" : "s", (unsigned long long)instructions,
                    (unsigned long long)module_mem[PTX_SPACE_GLOBAL], (unsigned long long)module_mem[PTX_SPACE_CONST],
                    (unsigned long long)module_mem[PTX_SPACE_SHARED]);
        for (size_t i = 0; i < total.nfamilies && i < TOP_FAMILIES; i++)
            ptx_out_fmt(o, "%s%s %llu", i ? ", " : "top instructions: ", total.families[i].name,
                        (unsigned long long)total.families[i].n);
        if (total.nfamilies)
            ptx_out_char(o, '\n');
    }
    free(total.families);
    ptx_isa_names_free(names);
    ptx_graphs_free(graphs);
    return ptx_printer_close(o, it, st);
}
