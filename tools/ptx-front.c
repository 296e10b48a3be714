/* ptx-front: the command-line front-end.  Options and I/O only; all the
 * work is the library's.
 *
 * Options follow the GNU conventions (getopt_long): --opt=value or --opt
 * value, -oFILE, unique prefixes of long names, `--` ends the options.  The
 * table `options`, read from tools/options.def, is the one list of them:
 * --help is written from it (as the manual page's options and doc/cli.md's
 * are, by tools/optdoc.c), and its `modes` say which output each option
 * goes with, checked in one place (check_combinations). */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "ptx/ptx.h"
#ifdef PTX_HAVE_LSP
#include "lsp.h"
#endif

/* What a run prints: checking only (no output option), or one output. */
enum mode { CHECK, AST, EMIT_PTX, JSON, STATS, LIST_FUNCTIONS, CFG, CALLGRAPH, LIST_INSTRUCTIONS, EXPLAIN, LSP };
#define M(m) (1u << (m))
/* the modes that read PTX files, and those that write something */
#define READS (M(CHECK) | M(AST) | M(EMIT_PTX) | M(JSON) | M(STATS) | M(LIST_FUNCTIONS) | M(CFG) | M(CALLGRAPH))
#define WRITES ((READS & ~M(CHECK)) | M(LIST_INSTRUCTIONS) | M(EXPLAIN))

enum opt_id {
    O_OUTPUT = 'o', O_HELP = 'h', O_DEFINE = 'D', O_INCLUDE_DIR = 'I', O_COMPILE_ONLY = 'c',
    O_AST = 256, O_EMIT_PTX, O_JSON, O_STATS, O_LIST_FUNCTIONS, O_CFG, O_CALLGRAPH, O_LIST_INSTRUCTIONS, O_EXPLAIN, O_LSP,
    O_COMPACT, O_CANONICAL, O_NO_LOCATIONS, O_FUNCTION, O_MAX_ERRORS, O_TARGET, O_LANG, O_PTX_VERSION, O_CPP, O_COLOR, O_DIAG_FORMAT, O_DIAG_FILE, O_NO_FAST_LANE, O_VERSION
};

typedef struct opt_spec {
    const char *name;           /* the long name, with its dashes; --output is also -o */
    int has_arg;                /* no_argument, required_argument, optional_argument */
    int id;
    int mode;                   /* an output option: the mode it chooses; else -1 */
    unsigned modes;             /* other options: the modes they go with */
    const char *with;           /* ...said when one is used without them */
    const char *arg;            /* the argument's name in --help */
    const char *help;           /* a '\n' continues on the next line; "\n\n" ends --help's part */
} opt_spec;

/* tools/options.def: every option, one row each (its fields are said there) */
static const opt_spec options[] = {
#define OPTION(name, has_arg, id, mode, modes, with, arg, help) { name, has_arg, id, mode, modes, with, arg, help },
#include "options.def"
#undef OPTION
};
enum { NOPTIONS = sizeof options / sizeof *options };

static const opt_spec *spec_of(int id)
{
    for (size_t i = 0; i < NOPTIONS; i++)
        if (options[i].id == id)
            return &options[i];
    return NULL;
}

static void print_help(FILE *out)
{
    fputs("usage: ptx-front [options] [FILE...]\n"
          "       ptx-front --list-instructions [PATTERN] | --explain OPCODE | --lsp\n"
          "\n"
          "Reads PTX modules (FILE '-', or no FILE when standard input is not a\n"
          "terminal, is standard input).  With no output option it only checks them:\n"
          "silent when valid, diagnostics on stderr when not.\n"
          "FILE.cu and FILE.cuh (or --lang=cuda) are CUDA C++: their asm statements\n"
          "are checked, for --target (default sm_75) and --ptx-version (default 9.0).\n",
          out);
    for (size_t i = 0; i < NOPTIONS; i++) {
        const opt_spec *o = &options[i];
        /* the output options, then those that change what they do */
        if (i == 0)
            fputs("\noutput (one of):\n", out);
        else if (o->id == O_COMPACT)
            fputs("options:\n", out);
        char head[48];
        /* "--cfg[=full]": an optional value is written attached */
        snprintf(head, sizeof head, "%s%s%s", o->name, o->arg && o->arg[1] != '=' ? " " : "",
                 o->arg ? o->arg : "");
        fprintf(out, "  %-24s", head);
        if (strlen(head) > 24)
            fprintf(out, "\n  %24s", "");
        /* what follows a blank line is for the manual only */
        for (const char *h = o->help; *h && !(h[0] == '\n' && h[1] == '\n'); h++) {
            fputc(*h, out);
            if (*h == '\n')
                fprintf(out, "  %24s", "");
        }
        fputc('\n', out);
    }
    fputs("\n"
          "With several files, each one's output is introduced by its name (--json,\n"
          "--stats --json and --list-functions --json write one JSON document per line).\n"
          "Exit status: 0 valid, 1 errors in the input, 2 usage or I/O error.\n",
          out);
}

/* ---- usage errors ------------------------------------------------------ */

static int usage_error(const char *fmt, const char *a, const char *b)
{
    fputs("ptx-front: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputs("\nTry 'ptx-front --help' for more information.\n", stderr);
    return 2;
}

/* Levenshtein distance, for "did you mean" (both strings are short). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return (size_t)-1;
    size_t row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* An option the table does not have: one line, with the closest name
 * when one is close (at most 2 edits, and fewer than a third of it). */
static int unknown_option(const char *arg)
{
    char given[80];
    snprintf(given, sizeof given, "%.*s", (int)strcspn(arg, "="), arg);
    /* a unique prefix is taken by getopt_long; several are ambiguous */
    if (strncmp(given, "--", 2) == 0 && given[2]) {
        char list[256] = "";
        int n = 0;
        for (size_t i = 0; i < NOPTIONS; i++)
            if (strncmp(options[i].name, given, strlen(given)) == 0) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s%s", n++ ? ", " : "", options[i].name);
            }
        if (n > 1)
            return usage_error("option '%s' is ambiguous: %s", given, list);
    }
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < NOPTIONS; i++) {
        const char *name = options[i].name;
        size_t d = distance(given, name);
        /* -ast, written with one dash, is --ast */
        if (given[1] != '-') {
            char two[82];
            snprintf(two, sizeof two, "-%s", given);
            size_t d2 = distance(two, name);
            if (d2 < d)
                d = d2;
        }
        if (d < best_d) {
            best_d = d;
            best = options[i].name;
        }
    }
    if (best && best_d <= 2 && best_d * 3 < strlen(given))
        return usage_error("unknown option '%s'; did you mean '%s'?", given, best);
    return usage_error("unknown option '%s'%s", given, "");
}

/* Option `id` as messages write it: "--ast", "-o". */
static const char *spelling(int id)
{
    return id == O_OUTPUT ? "-o" : id == O_DEFINE ? "-D" : id == O_INCLUDE_DIR ? "-I" : spec_of(id)->name;
}

/* ---- the run's settings --------------------------------------------------- */

typedef struct settings {
    enum mode mode;
    int mode_opt;               /* the output option that chose it */
    bool given[O_VERSION + 1];  /* which options were used */
    const char *out_path, *target, *pattern, *explain, *ptx_version, *diag_path;
    enum { LANG_AUTO, LANG_PTX, LANG_CUDA } lang;
    const char **cpp_args;      /* -D and -I, as cpp takes them */
    int ncpp_args;
    bool color;                 /* --color, decided for standard error */
    ptx_diag_format diag_format;
    unsigned print_flags, max_errors;
    unsigned graph_flags;       /* --cfg=full; PTX_GRAPH_JSON with --json */
    const char **files, **patterns;
    int nfiles, npatterns;
} settings;

/* The one place that decides which options go together: an output option
 * at most, --json with the modes that have JSON, every other option with
 * the modes its table entry lists. */
static int check_combinations(settings *s)
{
    if (s->given[O_JSON]) {
        const opt_spec *j = spec_of(O_JSON);
        if (!(j->modes & M(s->mode)))
            return usage_error("--json does not go with %s: it %s", spelling(s->mode_opt), j->with);
        if (s->mode == CHECK)
            s->mode = JSON;
    }
    for (size_t i = 0; i < NOPTIONS; i++) {
        const opt_spec *o = &options[i];
        if (o->mode >= 0 || o->id == O_JSON || !s->given[o->id] || (o->modes & M(s->mode)))
            continue;
        return usage_error("%s %s", spelling(o->id), o->with);
    }
    if ((s->given[O_DEFINE] || s->given[O_INCLUDE_DIR]) && !s->given[O_CPP])
        return usage_error("%s goes with --cpp%s", spelling(s->given[O_DEFINE] ? O_DEFINE : O_INCLUDE_DIR), "");
    if (s->given[O_CPP] && s->lang != LANG_PTX)
        for (int i = 0; i < s->nfiles; i++)
            if (strcmp(s->files[i], "-") == 0)
                return usage_error("--cpp reads files, not standard input ('-')%s%s", "", "");
    if (s->mode == LIST_INSTRUCTIONS) {
        if (s->nfiles > 1 || (s->nfiles == 1 && s->pattern))
            return usage_error("--list-instructions takes one PATTERN and no input file%s%s", "", "");
        if (s->nfiles == 1)
            s->pattern = s->files[0];
        s->nfiles = 0;
    } else if (s->mode == EXPLAIN) {
        if (s->nfiles)
            return usage_error("--explain takes no input file ('%s')%s", s->files[0], "");
    } else if (s->mode == LSP) {
        if (s->nfiles)
            return usage_error("--lsp takes no input file ('%s'): the client sends the documents%s", s->files[0], "");
    } else if (s->nfiles == 0) {
        /* as jq and cmark: standard input, unless it is a terminal */
        if (isatty(STDIN_FILENO))
            return usage_error("no input file (standard input is a terminal)%s%s", "", "");
        s->files[s->nfiles++] = "-";
    }
    if (s->diag_path && s->diag_format == PTX_DIAG_FORMAT_TEXT)
        return usage_error("--diagnostics-file goes only with --diagnostics-format=json or sarif%s%s", "", "");
    return 0;
}

/* Reads the command line into *s; 0, or the exit status of a usage error
 * (or of --help and --version, which are done here: -1 and -2). */
static int parse_options(int argc, char **argv, settings *s)
{
    struct option longs[NOPTIONS + 1];
    for (size_t i = 0; i < NOPTIONS; i++)
        longs[i] = (struct option){ options[i].name + 2, options[i].has_arg, NULL, options[i].id };
    longs[NOPTIONS] = (struct option){ NULL, 0, NULL, 0 };
    opterr = 0;
    int c;
    /* ':' first: a missing argument is told apart from an unknown option */
    while ((c = getopt_long(argc, argv, ":o:hcD:I:", longs, NULL)) != -1) {
        if (c == '?') {
            const char *arg = argv[optind - 1];
            if (strncmp(arg, "--", 2) == 0)
                return optopt && spec_of(optopt)
                           ? usage_error("option '%s' takes no argument%s", spec_of(optopt)->name, "")
                           : unknown_option(arg);
            /* a short option, alone or in a word of several (-ast): the
             * word is the one getopt is in, or the one it just left */
            if (optind < argc && argv[optind][0] == '-' && strchr(argv[optind], optopt))
                arg = argv[optind];
            if (strlen(arg) > 2 && strchr(arg, optopt))
                return unknown_option(arg);
            char one[3] = { '-', (char)optopt, '\0' };
            return unknown_option(one);
        }
        if (c == ':')
            return usage_error("%s needs an argument (%s)", spelling(optopt), spec_of(optopt)->arg);
        const opt_spec *o = spec_of(c);
        if (o->mode >= 0) {
            if (s->mode_opt && s->mode_opt != c)
                return usage_error("%s and %s are both output options: choose one", spelling(s->mode_opt),
                                   spelling(c));
            s->mode = (enum mode)o->mode;
            s->mode_opt = c;
        }
        s->given[c] = true;
        switch (c) {
        case O_HELP:
            print_help(stdout);
            return -1;
        case O_VERSION:
            printf("ptx-front %s (PTX ISA 9.0)\n", ptx_version());
            return -1;
        case O_COMPACT:
            s->print_flags |= PTX_PRINT_COMPACT;
            break;
        case O_NO_LOCATIONS:
            s->print_flags |= PTX_PRINT_NO_LOCATIONS;
            break;
        case O_FUNCTION:
            s->patterns[s->npatterns++] = optarg;
            break;
        case O_OUTPUT:
            s->out_path = optarg;
            break;
        case O_TARGET:
            s->target = optarg;
            break;
        case O_DIAG_FILE:
            s->diag_path = optarg;
            break;
        case O_LIST_INSTRUCTIONS:
            s->pattern = optarg;
            break;
        case O_PTX_VERSION:
            s->ptx_version = optarg;
            break;
        case O_LANG:
            if (strcmp(optarg, "ptx") == 0)
                s->lang = LANG_PTX;
            else if (strcmp(optarg, "cuda") == 0)
                s->lang = LANG_CUDA;
            else
                return usage_error("--lang takes ptx or cuda, not '%s'%s", optarg, "");
            break;
        case O_DEFINE:
        case O_INCLUDE_DIR:
            s->cpp_args[s->ncpp_args++] = c == O_DEFINE ? "-D" : "-I";
            s->cpp_args[s->ncpp_args++] = optarg;
            break;
        case O_EXPLAIN:
            s->explain = optarg;
            break;
        case O_CFG:
            if (optarg && strcmp(optarg, "full") != 0)
                return usage_error("--cfg takes no value or =full, not '%s'%s", optarg, "");
            if (optarg)
                s->graph_flags |= PTX_GRAPH_FULL;
            break;
        case O_COLOR: {
            /* GCC's rule: auto colours a terminal unless NO_COLOR is set */
            const char *no_color = getenv("NO_COLOR");
            if (strcmp(optarg, "always") == 0)
                s->color = true;
            else if (strcmp(optarg, "never") == 0)
                s->color = false;
            else if (strcmp(optarg, "auto") == 0)
                s->color = isatty(fileno(stderr)) && !(no_color && *no_color);
            else
                return usage_error("--color takes auto, always or never, not '%s'%s", optarg, "");
            break;
        }
        case O_DIAG_FORMAT:
            if (strcmp(optarg, "text") == 0)
                s->diag_format = PTX_DIAG_FORMAT_TEXT;
            else if (strcmp(optarg, "json") == 0)
                s->diag_format = PTX_DIAG_FORMAT_JSON;
            else if (strcmp(optarg, "sarif") == 0)
                s->diag_format = PTX_DIAG_FORMAT_SARIF;
            else
                return usage_error("--diagnostics-format takes text, json or sarif, not '%s'%s", optarg, "");
            break;
        case O_MAX_ERRORS: {
            char *end;
            errno = 0;
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || !*optarg || optarg[0] == '-' || errno || v > 1000000000ul)
                return usage_error("--max-errors needs a number, not '%s'%s", optarg, "");
            s->max_errors = (unsigned)v;
            break;
        }
        default:
            break;
        }
    }
    for (int i = optind; i < argc; i++)
        s->files[s->nfiles++] = argv[i];
    if (s->target) {
        /* asked of the library, which knows the targets */
        ptx_context *probe = ptx_context_new();
        if (!probe)
            return 2;
        ptx_status st = ptx_context_set_target(probe, s->target);
        ptx_context_free(probe);
        if (st != PTX_OK)
            return usage_error("--target takes an architecture such as sm_90a, not '%s'%s", s->target, "");
    }
    bool reference = s->mode == EXPLAIN || s->mode == LIST_INSTRUCTIONS;
    if (reference && s->ptx_version && !s->target) {
        /* no target to check it with: the tables' versions, X.Y */
        unsigned major, minor;
        char more;
        if (sscanf(s->ptx_version, "%u.%u%c", &major, &minor, &more) != 2 || major < 1 || minor > 9 || major * 10 + minor > 91)
            return usage_error("--ptx-version takes a PTX ISA version such as 8.0, not '%s'%s", s->ptx_version, "");
    } else if (s->ptx_version || s->target) {
        /* a version (and a target that needs a later one) asked of the
         * library, as CUDA files would take them */
        ptx_context *probe = ptx_context_new();
        if (!probe)
            return 2;
        ptx_cuda_options o = { s->target, s->ptx_version, NULL, 0 };
        ptx_status st = ptx_parse_cuda(probe, NULL, "", 0, &o);
        if (st == PTX_ERR_USAGE) {
            int r = usage_error("--ptx-version: %s%s", ptx_diag_get(probe, 0)->message, "");
            ptx_context_free(probe);
            return r;
        }
        ptx_context_free(probe);
    }
    return check_combinations(s);
}

/* ---- output -------------------------------------------------------------- */

typedef struct filter {
    const char **patterns;
    int n;
    bool keep_others;       /* --emit-ptx: keep what is not a function */
    bool *matched;          /* per pattern: it matched a function */
} filter;

static bool name_wanted(const filter *f, const char *name)
{
    bool want = false;
    for (int i = 0; i < f->n; i++)
        if (fnmatch(f->patterns[i], name, 0) == 0)
            want = f->matched[i] = true;
    return want;
}

static bool want_item(const ptx_node *item, void *user)
{
    const filter *f = user;
    if (item->kind != PTX_NODE_FUNC)
        return f->keep_others;
    return name_wanted(f, ((const ptx_func *)item)->name->text);
}

/* A JSON string: the characters JSON requires escaped are. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

/* Every module-level function, with --function's patterns marked when
 * they match; as text lines or, with json, one JSON document. */
static ptx_status list_functions(const ptx_module *m, const filter *flt, bool json, const char *file,
                                 FILE *out)
{
    ptx_iter *it = ptx_iter_new(m);
    if (!it)
        return PTX_ERR_NOMEM;
    const ptx_node *n;
    ptx_event ev;
    int count = 0;
    if (json) {
        fputs("{\"file\":", out);
        json_string(out, file);
        fputs(",\"functions\":[", out);
    }
    while ((ev = ptx_iter_next(it, &n)) > 0) {
        if (ev != PTX_EVENT_ENTER || ptx_iter_depth(it) != 0)
            continue;
        ptx_iter_skip_children(it);
        if (n->kind != PTX_NODE_FUNC)
            continue;
        const ptx_func *f = (const ptx_func *)n;
        if (flt->n && !name_wanted(flt, f->name->text))
            continue;
        const char *link = f->linkage ? ptx_linkage_name(f->linkage) : NULL;
        if (json) {
            fprintf(out, "%s{\"name\":", count++ ? "," : "");
            json_string(out, f->name->text);
            fprintf(out, ",\"kind\":\"%s\",\"linkage\":", f->is_entry ? "kernel" : "function");
            if (link)
                json_string(out, link[0] == '.' ? link + 1 : link);
            else
                fputs("null", out);
            fprintf(out, ",\"defined\":%s}", f->body ? "true" : "false");
        } else {
            fprintf(out, "%-8s %-9s %s%s\n", f->is_entry ? "kernel" : "function", link ? link : "-",
                    f->name->text, f->body ? "" : " (prototype)");
        }
    }
    if (json)
        fputs("]}\n", out);
    ptx_iter_free(it);
    return ev == PTX_EVENT_NOMEM ? PTX_ERR_NOMEM : PTX_OK;
}

/* --function: mark the patterns that match a function of m (whatever the
 * printer asks of the filter). */
static bool mark_functions(const ptx_module *m, const filter *flt)
{
    bool any = false;
    for (const ptx_node *n = m->first; n; n = n->next)
        if (n->kind == PTX_NODE_FUNC && name_wanted(flt, ((const ptx_func *)n)->name->text))
            any = true;
    return any;
}

static void write_failed(ptx_status ps, const char *out_path)
{
    /* the same words whether the write failed now or at fclose */
    const char *why = ps == PTX_ERR_NOMEM ? "out of memory" : strerror(errno);
    if (out_path)
        fprintf(stderr, "ptx-front: cannot write '%s': %s\n", out_path, why);
    else
        fprintf(stderr, "ptx-front: cannot write output: %s\n", why);
}

/* --list-instructions and --explain: the tables, no file. */
static int reference(const settings *s, FILE *out)
{
    /* --target and --ptx-version: what is there (checked by parse_options) */
    ptx_isa_level level = { 0, 0, s->target }, *at = NULL;
    if (s->target || s->ptx_version) {
        at = &level;
        if (s->ptx_version && sscanf(s->ptx_version, "%u.%u", &level.major, &level.minor) != 2)
            level.major = level.minor = 0;
    }
    if (s->mode == EXPLAIN) {
        ptx_status st = ptx_print_instruction_forms_at(s->explain, at, ptx_write_file, out);
        if (st == PTX_ERR_INPUT) {
            char hint[256];
            if (ptx_suggest_instruction(s->explain, hint, sizeof hint))
                fprintf(stderr, "ptx-front: the tables have no instruction '%s'; %s\n", s->explain, hint);
            else
                fprintf(stderr, "ptx-front: the tables have no instruction '%s' (see --list-instructions)\n",
                        s->explain);
            return 2;
        }
        if (st != PTX_OK) {
            write_failed(st, s->out_path);
            return 2;
        }
        return 0;
    }
    size_t listed = 0;
    ptx_status st = ptx_print_instruction_list_at(s->pattern, at, ptx_write_file, out, &listed);
    if (st != PTX_OK) {
        write_failed(st, s->out_path);
        return 2;
    }
    if (!listed && at)
        fprintf(stderr, "ptx-front: warning: no instruction matches '%s' at %s%s%s%s%s\n", s->pattern ? s->pattern : "*",
                s->ptx_version ? "PTX ISA " : "", s->ptx_version ? s->ptx_version : "",
                s->ptx_version && s->target ? " for " : "", s->target ? s->target : "", "");
    else if (!listed)
        fprintf(stderr, "ptx-front: warning: no instruction matches '%s'\n", s->pattern);
    return 0;
}

/* Output that remembers its last byte: the lossless PTX of a file that
 * does not end in a newline is followed by one when another file's
 * output comes after it (its "// == FILE" line must start a line). */
typedef struct tracked {
    FILE *out;
    char last;
} tracked;

static int write_tracked(void *user, const char *data, size_t len)
{
    tracked *t = user;
    if (len)
        t->last = data[len - 1];
    return ptx_write_file(t->out, data, len);
}

/* Parses and prints one file; returns its exit status (0, 1 or 2) and
 * sets *out_failed when the output could not be written. */
static int run_cuda(const settings *s, const char *file, ptx_diag_doc *diags, FILE *out, bool *out_failed);

static int run_file(const settings *s, const char *file, filter *flt, ptx_diag_doc *diags, FILE *out,
                    bool *out_failed)
{
    if (s->lang == LANG_CUDA || (s->lang == LANG_AUTO && ptx_is_cuda_filename(file)))
        return run_cuda(s, file, diags, out, out_failed);
    if (s->given[O_PTX_VERSION] || s->given[O_CPP]) {
        fprintf(stderr, "ptx-front: %s: %s is for CUDA C++ files (--lang=cuda), not PTX\n", file,
                s->given[O_CPP] ? "--cpp" : "--ptx-version");
        return 2;
    }
    ptx_context *ctx = ptx_context_new();
    if (!ctx) {
        fprintf(stderr, "ptx-front: out of memory\n");
        return 2;
    }
    ptx_context_set_max_errors(ctx, s->max_errors);
    ptx_context_set_fast_lane(ctx, !s->given[O_NO_FAST_LANE]);
    ptx_context_set_compile_only(ctx, s->given[O_COMPILE_ONLY]);
    /* a check prints diagnostics only: each function's tree goes once
     * checked, and memory stays near the file's size */
    ptx_context_set_keep_tree(ctx, s->mode != CHECK);
    /* the JSON tree and the graphs (--stats too) read every name's declaration: the
     * semantic pass keeps them as it checks */
    ptx_context_set_keep_names(ctx, s->mode == JSON || s->mode == STATS || s->mode == CFG ||
                                       s->mode == CALLGRAPH);
    if (s->target)
        (void)ptx_context_set_target(ctx, s->target);   /* checked by parse_options */
    const ptx_module *m = NULL;
    ptx_status st = ptx_parse_file(ctx, file, &m);
    int status = 0;
    if (st == PTX_ERR_IO) {
        fprintf(stderr, "ptx-front: cannot read '%s': %s\n", file,
                ptx_context_io_error(ctx) ? ptx_context_io_error(ctx) : "read error");
        status = 2;
    } else if (st == PTX_ERR_NOMEM) {
        fprintf(stderr, "ptx-front: %s: out of memory\n", file);
        status = 2;
    } else {
        if (diags && ptx_diag_doc_add(diags, ctx) != PTX_OK)
            status = 2;
        for (size_t k = 0; !diags && k < ptx_diag_count(ctx); k++)
            ptx_diag_render_color(ctx, ptx_diag_get(ctx, k), s->color, ptx_write_file, stderr);
        if (st == PTX_ERR_INPUT && status < 1)
            status = 1;
        /* a module with errors is printed too: what could be parsed
         * around them (JSON says "valid":false); --emit-ptx writes the
         * text as it was */
        if (s->mode != CHECK && m && status < 2) {
            bool json = s->mode == JSON || s->given[O_JSON];
            ptx_print_filter pf = flt->n ? want_item : NULL;
            /* --emit-ptx of a file where no pattern matches would be a
             * module without functions: nothing is written (and the
             * pattern that matches nothing anywhere is an error) */
            bool none = flt->n && !mark_functions(m, flt);
            if (none && s->mode == EMIT_PTX)
                goto done;
            /* several files: say whose output follows (JSON is one
             * document per line and names its file itself) */
            if (s->nfiles > 1 && !json)
                fprintf(out, s->mode == EMIT_PTX || s->mode == CFG || s->mode == CALLGRAPH ? "// == %s\n" : "== %s\n",
                        file);
            ptx_status ps = PTX_OK;
            switch (s->mode) {
            case AST:
                ps = ptx_print_tree_items(ctx, m, s->print_flags, pf, flt, ptx_write_file, out);
                break;
            case EMIT_PTX: {
                tracked t = { out, '\n' };
                if (st == PTX_ERR_INPUT) {
                    size_t len;
                    const char *text = ptx_context_source(ctx, &len);
                    ps = write_tracked(&t, text, len) == 0 ? PTX_OK : PTX_ERR_IO;
                } else {
                    ps = (s->given[O_CANONICAL] ? ptx_print_ptx_canonical : ptx_print_ptx_items)(
                        ctx, m, pf, flt, write_tracked, &t);
                }
                if (ps == PTX_OK && s->nfiles > 1 && t.last != '\n' && fputc('\n', out) == EOF)
                    ps = PTX_ERR_IO;
                break;
            }
            case JSON:
                ps = ptx_print_json(ctx, m, pf, flt, ptx_write_file, out);
                break;
            case STATS:
                ps = ptx_print_stats(ctx, m, json, pf, flt, ptx_write_file, out);
                break;
            case CFG:
                ps = ptx_print_cfg(ctx, m, s->graph_flags | (json ? PTX_GRAPH_JSON : 0), pf, flt, ptx_write_file,
                                   out);
                break;
            case CALLGRAPH:
                ps = ptx_print_callgraph(ctx, m, s->graph_flags | (json ? PTX_GRAPH_JSON : 0), pf, flt,
                                         ptx_write_file, out);
                break;
            case LIST_FUNCTIONS:
                ps = list_functions(m, flt, json, file, out);
                if (ps == PTX_OK && ferror(out))
                    ps = PTX_ERR_IO;
                break;
            default:
                break;
            }
            if (ps != PTX_OK) {
                write_failed(ps, out != stdout ? s->out_path : NULL);
                status = 2;
                *out_failed = ps != PTX_ERR_NOMEM;
            }
        }
    }
done:
    ptx_context_free(ctx);
    return status;
}

/* ---- CUDA C++ -------------------------------------------------------------- */

/* The macros nvcc's device pass defines for the target: sm_90a gives
 * __CUDA_ARCH__=900, __CUDA_ARCH_FEAT_SM90_ALL and __CUDA_ARCH_SPECIFIC__. */
static int arch_macros(const char *target, char defs[4][64])
{
    const char *t = target ? target : PTX_CUDA_DEFAULT_TARGET;
    const char *digits = strchr(t, '_');
    if (!digits)
        return 0;
    digits++;
    size_t n = strspn(digits, "0123456789");
    if (n == 0 || n > 4)
        return 0;
    char suffix = digits[n];
    int k = 0;
    snprintf(defs[k++], 64, "-D__CUDA_ARCH__=%.*s0", (int)n, digits);
    if (suffix == 'a') {
        snprintf(defs[k++], 64, "-D__CUDA_ARCH_FEAT_SM%.*s_ALL=1", (int)n, digits);
        snprintf(defs[k++], 64, "-D__CUDA_ARCH_SPECIFIC__=%.*s0", (int)n, digits);
    } else if (suffix == 'f') {
        snprintf(defs[k++], 64, "-D__CUDA_ARCH_FAMILY_SPECIFIC__=%.*s0", (int)n, digits);
    }
    return k;
}

/* Runs cpp on file: its output in *text (malloc'd), or an exit status. */
static int run_cpp(const settings *s, const char *file, char **text, size_t *len)
{
    char defs[4][64];
    int ndefs = arch_macros(s->target, defs);
    const char *cuda = getenv("CUDA_HOME");
    char inc[4096];
    snprintf(inc, sizeof inc, "%s/include", cuda && *cuda ? cuda : "/usr/local/cuda");
    const char **argv = calloc((size_t)s->ncpp_args + 16, sizeof *argv);
    if (!argv)
        return 2;
    int a = 0;
    argv[a++] = "cpp";
    argv[a++] = "-x";
    argv[a++] = "c++";
    argv[a++] = "-w";
    argv[a++] = "-D__CUDACC__";
    argv[a++] = "-D__NVCC__";
    /* the toolkit the tables follow: CUDA 13.0 (PTX ISA 9.0) */
    argv[a++] = "-D__CUDACC_VER_MAJOR__=13";
    argv[a++] = "-D__CUDACC_VER_MINOR__=0";
    argv[a++] = "-D__CUDACC_VER_BUILD__=88";
    for (int i = 0; i < ndefs; i++)
        argv[a++] = defs[i];
    for (int i = 0; i < s->ncpp_args; i++)
        argv[a++] = s->cpp_args[i];
    argv[a++] = "-idirafter";
    argv[a++] = inc;
    argv[a++] = file;
    argv[a] = NULL;
    int fd[2];
    if (pipe(fd) != 0) {
        free(argv);
        fprintf(stderr, "ptx-front: cannot run cpp: %s\n", strerror(errno));
        return 2;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        if (dup2(fd[1], 1) < 0)
            _exit(127);
        close(fd[1]);
        execvp("cpp", (char *const *)argv);
        fprintf(stderr, "ptx-front: cannot run cpp: %s\n", strerror(errno));
        _exit(127);
    }
    free(argv);
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        fprintf(stderr, "ptx-front: cannot run cpp: %s\n", strerror(errno));
        return 2;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf && cap - n < 4096) {
            char *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
            } else {
                buf = b;
                cap *= 2;
            }
        }
        char sink[4096];
        ssize_t got = buf ? read(fd[0], buf + n, cap - n) : read(fd[0], sink, sizeof sink);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (buf)
            n += (size_t)got;
    }
    close(fd[0]);
    int wst;
    while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
        ;
    if (!buf) {
        fprintf(stderr, "ptx-front: out of memory\n");
        return 2;
    }
    if (!WIFEXITED(wst) || WEXITSTATUS(wst) != 0) {
        free(buf);
        fprintf(stderr, "ptx-front: cpp failed on '%s'%s\n", file,
                WIFEXITED(wst) && WEXITSTATUS(wst) == 127 ? " (is cpp installed?)" : "");
        return 2;
    }
    *text = buf;
    *len = n;
    return 0;
}

/* Checks the asm statements of one CUDA C++ file. */
static int run_cuda(const settings *s, const char *file, ptx_diag_doc *diags, FILE *out, bool *out_failed)
{
    if (s->mode != CHECK && s->mode != STATS) {
        fprintf(stderr, "ptx-front: %s: CUDA C++ is checked (alone or with --stats); %s reads PTX\n", file,
                spelling(s->mode_opt ? s->mode_opt : O_JSON));
        return 2;
    }
    ptx_cuda_options o = { s->target, s->ptx_version, NULL, 0 };
    char *pp = NULL;
    if (s->given[O_CPP]) {
        int st = run_cpp(s, file, &pp, &o.preprocessed_len);
        if (st)
            return st;
        o.preprocessed = pp;
    }
    ptx_context *ctx = ptx_context_new();
    if (!ctx) {
        free(pp);
        fprintf(stderr, "ptx-front: out of memory\n");
        return 2;
    }
    ptx_context_set_max_errors(ctx, s->max_errors);
    ptx_status st = ptx_parse_cuda_file(ctx, file, &o);
    free(pp);
    int status = 0;
    if (st == PTX_ERR_IO) {
        fprintf(stderr, "ptx-front: cannot read '%s': %s\n", file,
                ptx_context_io_error(ctx) ? ptx_context_io_error(ctx) : "read error");
        status = 2;
    } else if (st == PTX_ERR_NOMEM || st == PTX_ERR_USAGE) {
        fprintf(stderr, "ptx-front: %s: %s\n", file, st == PTX_ERR_NOMEM ? "out of memory" : "bad options");
        status = 2;
    } else {
        if (diags && ptx_diag_doc_add(diags, ctx) != PTX_OK)
            status = 2;
        for (size_t k = 0; !diags && k < ptx_diag_count(ctx); k++)
            ptx_diag_render_color(ctx, ptx_diag_get(ctx, k), s->color, ptx_write_file, stderr);
        if (st == PTX_ERR_INPUT && status < 1)
            status = 1;
        if (s->mode == STATS) {
            ptx_cuda_counts c = ptx_context_cuda_counts(ctx);
            if (s->given[O_JSON]) {
                fputs("{\"file\":", out);
                json_string(out, file);
                fprintf(out, ",\"asm\":{\"statements\":%zu,\"checked\":%zu,\"skipped\":%zu,\"rejected\":%zu}}\n",
                        c.statements, c.checked, c.skipped, c.rejected);
            } else {
                if (s->nfiles > 1)
                    fprintf(out, "== %s\n", file);
                fprintf(out, "asm statements: %zu\n  checked: %zu (with errors: %zu)\n  skipped: %zu\n",
                        c.statements, c.checked, c.rejected, c.skipped);
            }
            if (ferror(out)) {
                write_failed(PTX_ERR_IO, out != stdout ? s->out_path : NULL);
                *out_failed = true;
                status = 2;
            }
        }
    }
    ptx_context_free(ctx);
    return status;
}

int main(int argc, char **argv)
{
    settings s = { .mode = CHECK, .max_errors = 20, .diag_format = PTX_DIAG_FORMAT_TEXT };
    s.files = calloc((size_t)argc, sizeof *s.files);
    s.patterns = calloc((size_t)argc, sizeof *s.patterns);
    s.cpp_args = calloc((size_t)argc * 2 + 1, sizeof *s.cpp_args);
    bool *matched = calloc((size_t)argc, sizeof *matched);
    int status = !s.files || !s.patterns || !matched || !s.cpp_args ? 2 : parse_options(argc, argv, &s);
    if (status) {
        free(s.files);
        free(s.patterns);
    free(s.cpp_args);
        free(matched);
        return status < 0 ? (fflush(stdout) != 0 || ferror(stdout)
                                 ? (fprintf(stderr, "ptx-front: cannot write output: %s\n", strerror(errno)), 2)
                                 : 0)
                          : status;
    }
    filter flt = { s.patterns, s.npatterns, s.mode == EMIT_PTX, matched };

    FILE *out = stdout;
    if (s.out_path && !(out = fopen(s.out_path, "w"))) {
        fprintf(stderr, "ptx-front: cannot write '%s': %s\n", s.out_path, strerror(errno));
        free(s.files);
        free(s.patterns);
    free(s.cpp_args);
        free(matched);
        return 2;
    }
    /* without --color, as --color=auto */
    if (!s.given[O_COLOR]) {
        const char *no_color = getenv("NO_COLOR");
        s.color = isatty(fileno(stderr)) && !(no_color && *no_color);
    }
    /* the document of diagnostics: on stderr, as GCC writes it, or in
     * --diagnostics-file */
    ptx_diag_doc *diags = NULL;
    FILE *diag_out = stderr;
    if (s.diag_path && !(diag_out = fopen(s.diag_path, "w"))) {
        fprintf(stderr, "ptx-front: cannot write '%s': %s\n", s.diag_path, strerror(errno));
        if (out != stdout)
            fclose(out);
        free(s.files);
        free(s.patterns);
        free(matched);
        return 2;
    }
    if (s.diag_format != PTX_DIAG_FORMAT_TEXT && !(diags = ptx_diag_doc_new(s.diag_format, ptx_write_file, diag_out))) {
        fprintf(stderr, "ptx-front: out of memory\n");
        if (out != stdout)
            fclose(out);
        if (diag_out != stderr)
            fclose(diag_out);
        free(s.files);
        free(s.patterns);
    free(s.cpp_args);
        free(matched);
        return 2;
    }
    bool out_failed = false;
    if (s.mode == LSP) {
#ifdef PTX_HAVE_LSP
        lsp_settings ls = { s.max_errors, s.target, !s.given[O_NO_FAST_LANE] };
        status = ptx_lsp_serve(0, 1, &ls);
#else
        fprintf(stderr, "ptx-front: this ptx-front was built without jansson, which --lsp needs "
                        "(on Debian: sudo apt-get install libjansson-dev, then ./configure and make again)\n");
        status = 2;
#endif
    }
    if (s.mode == LIST_INSTRUCTIONS || s.mode == EXPLAIN) {
        status = reference(&s, out);
        out_failed = status == 2;
    }
    for (int i = 0; i < s.nfiles && !out_failed; i++) {
        int st = run_file(&s, s.files[i], &flt, diags, out, &out_failed);
        if (st > status)
            status = st;
    }
    if (diags && ptx_diag_doc_finish(diags) != PTX_OK) {
        fprintf(stderr, "ptx-front: cannot write diagnostics: %s\n", strerror(errno));
        status = 2;
    }
    if (diag_out != stderr && fclose(diag_out) != 0 && status < 2) {
        fprintf(stderr, "ptx-front: cannot write '%s': %s\n", s.diag_path, strerror(errno));
        status = 2;
    }
    /* a pattern that selected nothing in any file is most likely a typo:
     * an error, as a missing file is */
    for (int i = 0; i < s.npatterns; i++)
        if (!matched[i]) {
            fprintf(stderr, "ptx-front: error: --function '%s' matches no function (see --list-functions)\n",
                    s.patterns[i]);
            status = 2;
        }
    if (out_failed) {
        if (out != stdout)
            fclose(out);
    } else if (out != stdout) {
        if (fclose(out) != 0 && status < 2) {
            fprintf(stderr, "ptx-front: cannot write '%s': %s\n", s.out_path, strerror(errno));
            status = 2;
        }
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ptx-front: cannot write output: %s\n", strerror(errno));
        status = 2;
    }
    free(s.files);
    free(s.patterns);
    free(s.cpp_args);
    free(matched);
    return status;
}
