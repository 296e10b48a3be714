/* ptx-front: the command-line front-end.  Options and I/O only; all the
 * work is the library's. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

enum mode { CHECK, AST, EMIT_PTX, JSON, STATS, LIST_FUNCTIONS, LIST_INSTRUCTIONS, CFG, CALLGRAPH };

static const char usage[] =
    "usage: ptx-front [options] FILE...\n"
    "\n"
    "Reads PTX modules (FILE '-' is standard input).  With no output option it\n"
    "only checks them: silent when valid, diagnostics on stderr when not.\n"
    "\n"
    "output (one of):\n"
    "  --ast                print the syntax tree\n"
    "  --ast --compact      one line per instruction: file:line  opcode.mods  operands\n"
    "  --json               print the syntax tree as JSON (schema 1)\n"
    "  --emit-ptx           print the module back as PTX\n"
    "  --stats              summarise the module; with --json, as JSON\n"
    "  --list-functions     list kernels and functions: kind, linkage, name\n"
    "  --list-instructions  list the instruction families the tables know\n"
    "  --cfg, --cfg=full    each function's control-flow graph as Graphviz DOT\n"
    "                       (full: with each block's instructions); with --json,\n"
    "                       as JSON (tools/graph.schema.json)\n"
    "  --callgraph          the call graph as DOT; with --json, as JSON\n"
    "options:\n"
    "  --function PATTERN   only functions whose name matches PATTERN (a shell\n"
    "                       glob; repeatable); --emit-ptx keeps other declarations\n"
    "  --no-locations       leave line:column out of --ast\n"
    "  -o FILE              write output to FILE instead of standard output\n"
    "  --max-errors N       stop a file after N errors (default 20, 0: no limit)\n"
    "  --help, --version\n"
    "\n"
    "With several files, each one's output is introduced by its name (--json and\n"
    "--stats --json write one JSON document per line).\n"
    "Exit status: 0 valid, 1 errors in the input, 2 usage or I/O error.\n";

typedef struct filter {
    const char **patterns;
    int n;
    bool keep_others;       /* --emit-ptx: keep what is not a function */
} filter;

static bool want_item(const ptx_node *item, void *user)
{
    const filter *f = user;
    if (item->kind != PTX_NODE_FUNC)
        return f->keep_others;
    const char *name = ((const ptx_func *)item)->name->text;
    for (int i = 0; i < f->n; i++)
        if (fnmatch(f->patterns[i], name, 0) == 0)
            return true;
    return false;
}

static ptx_status list_functions(const ptx_module *m, const filter *flt, FILE *out)
{
    ptx_iter *it = ptx_iter_new(m);
    if (!it)
        return PTX_ERR_NOMEM;
    const ptx_node *n;
    ptx_event ev;
    while ((ev = ptx_iter_next(it, &n)) > 0) {
        if (ev != PTX_EVENT_ENTER || ptx_iter_depth(it) != 0)
            continue;
        ptx_iter_skip_children(it);
        if (n->kind != PTX_NODE_FUNC || (flt->n && !want_item(n, (void *)flt)))
            continue;
        const ptx_func *f = (const ptx_func *)n;
        fprintf(out, "%-8s %-9s %s%s\n", f->is_entry ? "kernel" : "function",
                f->linkage ? ptx_linkage_name(f->linkage) : "-", f->name->text,
                f->body ? "" : " (prototype)");
    }
    ptx_iter_free(it);
    return ev == PTX_EVENT_NOMEM ? PTX_ERR_NOMEM : PTX_OK;
}

/* The exit status of a run whose only output is standard output: 2, with a
 * message, when it could not all be written (a full disk, a closed pipe). */
static int stdout_status(bool ok)
{
    if (fflush(stdout) != 0 || ferror(stdout) || !ok) {
        fprintf(stderr, "ptx-front: cannot write output: %s\n", strerror(errno));
        return 2;
    }
    return 0;
}

static int fail_usage(const char *msg, const char *arg)
{
    fprintf(stderr, "ptx-front: %s%s%s\n%s", msg, arg ? " " : "", arg ? arg : "", usage);
    return 2;
}

int main(int argc, char **argv)
{
    enum mode mode = CHECK;
    bool json = false, compact = false;
    const char *out_path = NULL;
    unsigned print_flags = 0;
    unsigned max_errors = 20;
    unsigned graph_flags = 0;   /* --cfg=full; PTX_GRAPH_JSON with --json */
    const char **files = calloc((size_t)argc, sizeof *files);
    const char **patterns = calloc((size_t)argc, sizeof *patterns);
    int nfiles = 0, npatterns = 0, status = 0;
    if (!files || !patterns)
        return 2;

    for (int i = 1; i < argc && status == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--ast") == 0) {
            mode = AST;
        } else if (strcmp(a, "--emit-ptx") == 0) {
            mode = EMIT_PTX;
        } else if (strcmp(a, "--stats") == 0) {
            mode = STATS;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--compact") == 0) {
            compact = true;
        } else if (strcmp(a, "--cfg") == 0 || strcmp(a, "--cfg=full") == 0) {
            mode = CFG;
            graph_flags |= a[5] ? PTX_GRAPH_FULL : 0;
        } else if (strcmp(a, "--callgraph") == 0) {
            mode = CALLGRAPH;
        } else if (strcmp(a, "--list-functions") == 0) {
            mode = LIST_FUNCTIONS;
        } else if (strcmp(a, "--no-locations") == 0) {
            print_flags |= PTX_PRINT_NO_LOCATIONS;
        } else if (strcmp(a, "--function") == 0) {
            if (++i == argc)
                status = fail_usage("--function needs a name or pattern", NULL);
            else
                patterns[npatterns++] = argv[i];
        } else if (strcmp(a, "-o") == 0) {
            if (++i == argc)
                status = fail_usage("-o needs a file name", NULL);
            else
                out_path = argv[i];
        } else if (strcmp(a, "--max-errors") == 0) {
            char *end;
            if (++i == argc || (max_errors = (unsigned)strtoul(argv[i], &end, 10), *end || !*argv[i]))
                status = fail_usage("--max-errors needs a number", NULL);
        } else if (strcmp(a, "--list-instructions") == 0) {
            mode = LIST_INSTRUCTIONS;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            free(files);
            free(patterns);
            return stdout_status(true);
        } else if (strcmp(a, "--version") == 0) {
            printf("ptx-front %s (PTX ISA 9.0)\n", ptx_version());
            free(files);
            free(patterns);
            return stdout_status(true);
        } else if (a[0] == '-' && a[1] != '\0') {
            status = fail_usage("unknown option", a);
        } else {
            files[nfiles++] = a;
        }
    }
    if (status == 0 && json && mode == CHECK)
        mode = JSON;
    if (status == 0 && compact && mode != AST)
        status = fail_usage("--compact goes with --ast", NULL);
    if (status == 0 && nfiles == 0 && mode != LIST_INSTRUCTIONS)
        status = fail_usage("no input file", NULL);
    if (status == 0 && nfiles > 0 && mode == LIST_INSTRUCTIONS)
        status = fail_usage("--list-instructions takes no input file", NULL);
    if (status) {
        free(files);
        free(patterns);
        return status;
    }
    if (compact)
        print_flags |= PTX_PRINT_COMPACT;
    if (json)
        graph_flags |= PTX_GRAPH_JSON;
    filter flt = { patterns, npatterns, mode == EMIT_PTX };
    ptx_print_filter pf = npatterns ? want_item : NULL;

    FILE *out = stdout;
    if (out_path && mode != CHECK && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "ptx-front: cannot write '%s': %s\n", out_path, strerror(errno));
        free(files);
        free(patterns);
        return 2;
    }

    if (mode == LIST_INSTRUCTIONS && ptx_print_instruction_table(ptx_write_file, out) != PTX_OK) {
        fprintf(stderr, "ptx-front: cannot write output: %s\n", strerror(errno));
        status = 2;
    }
    bool out_failed = false;
    for (int i = 0; i < nfiles; i++) {
        ptx_context *ctx = ptx_context_new();
        if (!ctx) {
            fprintf(stderr, "ptx-front: out of memory\n");
            status = 2;
            break;
        }
        ptx_context_set_max_errors(ctx, max_errors);
        const ptx_module *m = NULL;
        ptx_status st = ptx_parse_file(ctx, files[i], &m);
        if (st == PTX_ERR_IO) {
            fprintf(stderr, "ptx-front: cannot read '%s': %s\n", files[i],
                    ptx_context_io_error(ctx) ? ptx_context_io_error(ctx) : "read error");
            status = 2;
        } else if (st == PTX_ERR_NOMEM) {
            fprintf(stderr, "ptx-front: %s: out of memory\n", files[i]);
            status = 2;
        } else {
            for (size_t k = 0; k < ptx_diag_count(ctx); k++)
                ptx_diag_render(ctx, ptx_diag_get(ctx, k), ptx_write_file, stderr);
            if (st == PTX_ERR_INPUT) {
                if (status < 1)
                    status = 1;
            } else if (mode != CHECK) {
                /* several files: say whose output follows (JSON is one
                 * document per line and names its file itself) */
                if (nfiles > 1 && !json)
                    fprintf(out, mode == EMIT_PTX ? "// == %s\n" : "== %s\n", files[i]);
                ptx_status ps = PTX_OK;
                switch (mode) {
                case AST:
                    ps = ptx_print_tree_items(ctx, m, print_flags, pf, &flt, ptx_write_file, out);
                    break;
                case EMIT_PTX:
                    ps = ptx_print_ptx_items(ctx, m, pf, &flt, ptx_write_file, out);
                    break;
                case JSON:
                    ps = ptx_print_json(ctx, m, pf, &flt, ptx_write_file, out);
                    break;
                case STATS:
                    ps = ptx_print_stats(ctx, m, json, pf, &flt, ptx_write_file, out);
                    break;
                case LIST_FUNCTIONS:
                    ps = list_functions(m, &flt, out);
                    break;
                case CFG:
                    ps = ptx_print_cfg(ctx, m, graph_flags, pf, &flt, ptx_write_file, out);
                    break;
                case CALLGRAPH:
                    ps = ptx_print_callgraph(ctx, m, graph_flags, pf, &flt, ptx_write_file, out);
                    break;
                case CHECK:
                case LIST_INSTRUCTIONS:
                    break;
                }
                if (ps != PTX_OK) {
                    /* the same words whether the write failed now or at fclose */
                    const char *why = ps == PTX_ERR_NOMEM ? "out of memory" : strerror(errno);
                    if (out != stdout)
                        fprintf(stderr, "ptx-front: cannot write '%s': %s\n", out_path, why);
                    else
                        fprintf(stderr, "ptx-front: cannot write output: %s\n", why);
                    status = 2;
                    out_failed = ps != PTX_ERR_NOMEM;
                }
            }
        }
        ptx_context_free(ctx);
        if (out_failed)     /* said once: the other files' output would fail too */
            break;
    }
    if (out_failed) {
        if (out != stdout)
            fclose(out);
    } else if (out != stdout) {
        if (fclose(out) != 0 && status < 2) {
            fprintf(stderr, "ptx-front: cannot write '%s': %s\n", out_path, strerror(errno));
            status = 2;
        }
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ptx-front: cannot write output: %s\n", strerror(errno));
        status = 2;
    }
    free(files);
    free(patterns);
    return status;
}
