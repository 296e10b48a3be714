/* The builders of the module: its header (.version, .target with the
 * known targets and the PTX ISA version each needs, .address_size), the
 * module-scope items other than declarations and functions (.alias,
 * .file, .section with its data lines, further .target lines, @@DWARF),
 * and the module's list of items. */
#include <stdio.h>
#include <string.h>

#include "ast_build.h"

/* ---- module items ---------------------------------------------------- */

ptx_node *ptx_b_alias(ptx_context *ctx, const ptx_tok *a, const ptx_tok *b, ptx_loc_t loc)
{
    ptx_alias *n = node_new(ctx, PTX_NODE_ALIAS, sizeof *n, loc);
    ptx_gate(ctx, ".alias", span_of(loc));
    n->alias = tok_name(ctx, a);
    n->aliasee = tok_name(ctx, b);
    return &n->base;
}

ptx_node *ptx_b_file(ptx_context *ctx, const ptx_tok *index, const ptx_tok *path,
                     const ptx_tok *ts, const ptx_tok *size, ptx_loc_t loc)
{
    ptx_file *f = node_new(ctx, PTX_NODE_FILE, sizeof *f, loc);
    f->index = u32_of(ctx, index, "file index");
    f->path = ptx_intern(ctx, ctx->src + path->off + 1, path->len - 2);
    if (ts) {
        ptx_gate(ctx, ".file with timestamp and size", span_of(loc));
        f->has_info = 1;
        f->timestamp = ts->u;
    }
    if (size) {
        f->has_size = 1;
        f->size = size->u;
    }
    return &f->base;
}

ptx_node *ptx_b_section(ptx_context *ctx, const ptx_tok *name, ptx_nlist body, ptx_loc_t loc)
{
    ptx_section *s = node_new(ctx, PTX_NODE_SECTION, sizeof *s, loc);
    ptx_gate(ctx, ".section", span_of(loc));
    s->name = tok_name(ctx, name);
    s->first = body.first;
    return &s->base;
}

unsigned ptx_data_word_bytes(const char *w)
{
    static const struct { const char *w; unsigned n; } words[] = {
        { ".b8", 1 }, { ".b16", 2 }, { ".b32", 4 }, { ".b64", 8 }, { ".byte", 1 },
        { ".4byte", 4 }, { ".quad", 8 },
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(w, words[i].w) == 0)
            return words[i].n;
    return 0;
}

ptx_node *ptx_b_data(ptx_context *ctx, const ptx_tok *word, size_t values, ptx_loc_t loc)
{
    ptx_data *d = node_new(ctx, PTX_NODE_DATA, sizeof *d, loc);
    d->word = tok_name(ctx, word);
    d->values = (ptx_expr **)take(ctx, values, &d->count);
    d->nlines = 1;
    if (!ptx_data_word_bytes(d->word->text))
        error_at(ctx, PTX_DIAG_DIRECTIVE, tok_span(word),
                 "'%s' is not a section data directive: expected .b8, .b16, .b32, .b64, .byte, .4byte or .quad",
                 d->word->text);
    return &d->base;
}

ptx_node *ptx_b_dwarf(ptx_context *ctx, const ptx_tok *line, ptx_loc_t loc)
{
    ptx_dwarf *d = node_new(ctx, PTX_NODE_DWARF, sizeof *d, loc);
    const char *p = ctx->src + line->off + 7, *end = ctx->src + line->off + line->len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    d->text = ptx_intern(ctx, p, (size_t)(end - p));
    const ptx_module *m = ctx->module;
    if (m && m->version_major >= 2)
        error_at(ctx, PTX_DIAG_UNSUPPORTED, span_of(loc),
                 "'@@DWARF' is not supported as of PTX ISA 2.0; use '.section'");
    return &d->base;
}

/* ---- header ---------------------------------------------------------- */

/* Targets and the PTX ISA version that introduced each. */
static const struct { const char *name; uint8_t major, minor; } targets[] = {
    { "sm_10", 1, 0 }, { "sm_11", 1, 0 }, { "sm_12", 1, 2 }, { "sm_13", 1, 2 },
    { "sm_20", 2, 0 }, { "sm_21", 2, 0 }, { "sm_30", 3, 0 }, { "sm_32", 4, 0 }, { "sm_35", 3, 1 },
    { "sm_37", 4, 1 }, { "sm_50", 4, 0 }, { "sm_52", 4, 1 }, { "sm_53", 4, 2 },
    { "sm_60", 5, 0 }, { "sm_61", 5, 0 }, { "sm_62", 5, 0 }, { "sm_70", 6, 0 },
    { "sm_72", 6, 1 }, { "sm_75", 6, 3 }, { "sm_80", 7, 0 }, { "sm_86", 7, 1 },
    { "sm_87", 7, 4 }, { "sm_88", 7, 3 }, { "sm_89", 7, 8 }, { "sm_90", 7, 8 },
    { "sm_90a", 8, 0 }, { "sm_100", 8, 6 }, { "sm_100a", 8, 6 }, { "sm_100f", 8, 8 },
    { "sm_101", 8, 6 }, { "sm_101a", 8, 6 }, { "sm_101f", 8, 8 }, { "sm_103", 8, 8 },
    { "sm_103a", 8, 8 }, { "sm_103f", 8, 8 }, { "sm_110", 9, 0 }, { "sm_110a", 9, 0 },
    { "sm_110f", 9, 0 }, { "sm_120", 8, 7 }, { "sm_120a", 8, 7 }, { "sm_120f", 8, 8 },
    { "sm_121", 8, 8 }, { "sm_121a", 8, 8 }, { "sm_121f", 8, 8 },
    { "texmode_unified", 1, 5 }, { "texmode_independent", 1, 5 }, { "debug", 3, 0 },
    { "map_f64_to_f32", 1, 0 },
};

/* The last minor version of each major one, 1.x to 9.x, as ptxas 13.0
 * knows them (asked of every X.0 to X.9; 9.1 is read too) */
static const unsigned last_minor[10] = { 0, 5, 3, 2, 3, 1, 5, 8, 8, 1 };

void ptx_b_version(ptx_context *ctx, const ptx_tok *t, ptx_loc_t loc)
{
    ptx_module *m = ptx_arena_zalloc(&ctx->arena, sizeof *m);
    ctx->module = m;
    m->version_span = span_of(loc);
    const char *p = ctx->src + t->off, *end = p + t->len;
    unsigned major = 0, minor = 0;
    bool ok = p < end && *p >= '0' && *p <= '9';
    while (p < end && *p >= '0' && *p <= '9' && major < 1000)
        major = major * 10 + (unsigned)(*p++ - '0');
    ok = ok && p < end && *p++ == '.' && p < end;
    const char *frac = p;
    while (p < end && *p >= '0' && *p <= '9' && minor < 1000)
        minor = minor * 10 + (unsigned)(*p++ - '0');
    ok = ok && p == end;
    /* "9.00" means 9.0: trailing zeros of the fraction do not count */
    for (const char *q = end; ok && q - frac > 1 && q[-1] == '0'; q--)
        minor /= 10;
    if (!ok) {
        error_at(ctx, PTX_DIAG_HEADER, tok_span(t),
                 "'.version' expects MAJOR.MINOR such as 9.0");
        major = 9;
        minor = 0;
    } else if (major == 0 || major > 9 || (major == 9 && minor > 1)) {
        error_at(ctx, PTX_DIAG_HEADER, tok_span(t),
                 "unsupported .version %u.%u: ptx-front reads PTX ISA 1.0 to 9.1", major, minor);
    } else if (minor > last_minor[major]) {
        /* ptxas 13.0: "Unsupported .version 2.4" */
        error_at(ctx, PTX_DIAG_HEADER, tok_span(t),
                 "unsupported .version %u.%u: there is no PTX ISA %u.%u (%u.x ends at %u.%u)",
                 major, minor, major, minor, major, major, last_minor[major]);
    }
    m->version_major = major;
    m->version_minor = minor;
}

/* The entry of targets[] for s ("compute_NN" is "sm_NN"), or its size. */
static size_t target_index(const char *s)
{
    char arch[32];
    if (strncmp(s, "compute_", 8) == 0 && strlen(s) < 24) {
        snprintf(arch, sizeof arch, "sm_%s", s + 8);
        s = arch;
    }
    size_t k = 0, nt = sizeof targets / sizeof *targets;
    while (k < nt && strcmp(targets[k].name, s) != 0)
        k++;
    return k;
}

bool ptx_target_is_arch(const char *name)
{
    return target_index(name) < sizeof targets / sizeof *targets &&
           strncmp(targets[target_index(name)].name, "sm_", 3) == 0;
}

/* The module's ".version X.Y", for a diagnostic about it: the line of
 * the directive up to the end of its span (which the grammar's mid-rule
 * action puts after the number), blanks trimmed. */
static ptx_span version_line(const ptx_context *ctx, const ptx_module *m)
{
    uint32_t end = m->version_span.off + m->version_span.len, from = end;
    while (from > 0 && ctx->src[from - 1] != '\n')
        from--;
    while (from < end && (ctx->src[from] == ' ' || ctx->src[from] == '\t'))
        from++;
    while (end > from && (ctx->src[end - 1] == ' ' || ctx->src[end - 1] == '\t'))
        end--;
    return (ptx_span){ from, end - from };
}

void ptx_b_target_name(ptx_context *ctx, const ptx_tok *t, bool first)
{
    /* a later .target line's first name is no architecture the run sets */
    first = first && !(ctx->module && ctx->module->ntargets);
    /* ptx_context_set_target: the module is read as if its first target
     * were that one (checked where the module's own stands) */
    const ptx_name *name = first && ctx->target[0] ? ptx_intern(ctx, ctx->target, strlen(ctx->target))
                                                    : tok_name(ctx, t);
    ptx_scratch_push(ctx, (void *)name);
    const ptx_module *m = ctx->module;
    ptx_span at = tok_span(t);
    const char *s = name->text;
    size_t k = target_index(s), nt = sizeof targets / sizeof *targets;
    if (k == nt) {
        char hint[PTX_SUGGEST_TEXT];
        ptx_suggest sg;
        ptx_suggest_init(&sg, name->text, name->len);
        sg.numbers = true;
        for (k = 0; k < nt; k++)
            ptx_suggest_offer(&sg, targets[k].name, strlen(targets[k].name));
        ptx_diag_add_fix(ctx, PTX_SEV_ERROR, PTX_DIAG_HEADER, at, ptx_suggest_fix(&sg), "unknown target '%s'%s",
                         name->text, ptx_suggest_text(&sg, hint, sizeof hint));
        return;
    }
    /* a target set for the run is not the module's mistake: said at the
     * .version it needs changed, not under the module's own target */
    if (m && !version_at_least(m, targets[k].major, targets[k].minor) && name != tok_name(ctx, t))
        error_at(ctx, PTX_DIAG_HEADER, version_line(ctx, m),
                 "target '%s' (set for this run, --target) requires PTX ISA .version %u.%u or later;"
                 " this module is .version %u.%u", name->text, targets[k].major, targets[k].minor,
                 m->version_major, m->version_minor);
    else if (m && !version_at_least(m, targets[k].major, targets[k].minor))
        error_at(ctx, PTX_DIAG_HEADER, at,
                 "target '%s' requires PTX ISA .version %u.%u or later",
                 name->text, targets[k].major, targets[k].minor);
    if (first && strncmp(targets[k].name, "sm_", 3) != 0)
        error_at(ctx, PTX_DIAG_HEADER, at,
                 "'.target' must name an architecture (sm_NN) before its options");
}

/* What ptxas checks of the options after the architecture: map_f64_to_f32
 * only below sm_13 (which has doubles), and one texturing mode. */
static void check_target_options(ptx_context *ctx, const ptx_module *m, ptx_span at)
{
    const ptx_name *mode = NULL;
    for (uint32_t i = 0; i < m->ntargets; i++) {
        const char *s = m->targets[i]->text;
        if (!strcmp(s, "map_f64_to_f32") && ptx_module_sm(m) >= 13)
            error_at(ctx, PTX_DIAG_HEADER, at,
                     "'map_f64_to_f32' is not supported with sm_13 or higher (this module targets %s)",
                     m->targets[0]->text);
        if (!strncmp(s, "texmode_", 8)) {
            if (mode && mode != m->targets[i])
                error_at(ctx, PTX_DIAG_HEADER, at, "'%s' conflicts with '%s': one texturing mode",
                         s, mode->text);
            mode = m->targets[i];
        }
    }
}

void ptx_b_target(ptx_context *ctx, size_t names, ptx_loc_t loc)
{
    ptx_module *m = ctx->module;
    m->targets = (const ptx_name **)take(ctx, names, &m->ntargets);
    m->target_span = span_of(loc);
    check_target_options(ctx, m, m->target_span);
}

/* A later .target line (before .address_size): ptxas 13.0 refuses an
 * architecture above the one it compiles for ("SM version specified by
 * .target is higher than default SM version assumed"), which is here the
 * module's first target (or --target's). */
ptx_node *ptx_b_target_item(ptx_context *ctx, size_t names, ptx_loc_t loc)
{
    ptx_target *t = node_new(ctx, PTX_NODE_TARGET, sizeof *t, loc);
    t->names = (const ptx_name **)take(ctx, names, &t->count);
    const ptx_module *m = ctx->module;
    unsigned arch = m ? ptx_module_sm(m) : 0;
    for (uint32_t i = 0; i < t->count && arch; i++) {
        const char *s = t->names[i]->text;
        if (ptx_target_is_arch(s) && ptx_target_sm(s) > arch)
            error_at(ctx, PTX_DIAG_HEADER, span_of(loc), "'%s' is above %s, the architecture "
                     "this module is read for (its first .target, or --target)", s,
                     m->targets[0]->text);
    }
    return &t->base;
}

void ptx_b_address_size(ptx_context *ctx, const ptx_tok *t, ptx_loc_t loc)
{
    ptx_module *m = ctx->module;
    m->address_span = span_of(loc);
    ptx_gate(ctx, ".address_size", m->address_span);
    if (t->u != 32 && t->u != 64)
        error_at(ctx, PTX_DIAG_HEADER, tok_span(t), "'.address_size' must be 32 or 64");
    else if (t->u == 32)
        /* valid PTX, but ptxas 13.0 compiles none of it (doc/old-ptx.md, "32-bit
         * modules"): an error, as for everything ptxas refuses */
        error_at(ctx, PTX_DIAG_UNSUPPORTED, tok_span(t), "%s",
                 ptx_module_sm(m) >= 90
                     ? "32-bit addressing is not supported on sm_90 or higher (ptxas: 32-Bit ABI)"
                     : "32-bit addressing: ptxas 13.0 no longer compiles 32-bit PTX");
    m->address_size = (unsigned)(t->u == 32 ? 32 : 64);
}

void ptx_b_module(ptx_context *ctx, ptx_nlist items)
{
    if (ctx->module)
        ctx->module->first = items.first;
}
