/* optdoc: writes the command line's options, from tools/options.def (the
 * table --help is printed from), as the manual page's OPTIONS section and
 * as doc/cli.md's option list, so that the three never differ.
 *
 *   optdoc man TEMPLATE VERSION   TEMPLATE (tools/ptx-front.1.in) with its
 *                                 @OPTIONS@ line replaced by the options in
 *                                 roff and @VERSION@ by VERSION
 *   optdoc markdown FILE          FILE (doc/cli.md) with the lines between
 *                                 its two markers replaced by the options
 *                                 in Markdown
 * Both write to standard output; a build rule or `make update-docs` puts
 * it in place, and `make docs` fails when doc/cli.md differs from it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct option_doc {
    const char *name, *id, *arg, *help;
} option_doc;

/* Only the fields the documents need: the others are dropped unexpanded,
 * so ptx-front.c's modes and ids need not be known here (id as text: the
 * second group starts at O_COMPACT, as in print_help). */
static const option_doc options[] = {
#define OPTION(name, has_arg, id, mode, modes, with, arg, help) { name, #id, arg, help },
#include "options.def"
#undef OPTION
};
enum { NOPTIONS = sizeof options / sizeof *options };

static const char begin_marker[] = "<!-- options: written by tools/optdoc.c from tools/options.def";
static const char end_marker[] = "<!-- end of options -->";

/* The option as --help heads it: "--cfg[=full]", "--target sm_XX". */
static void head(const option_doc *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s", o->name, o->arg && o->arg[1] != '=' ? " " : "", o->arg ? o->arg : "");
}

/* roff: a '-' is a minus sign unless escaped, a backslash starts an
 * escape, and a line may not start with a control character. */
static void roff(const char *s, FILE *out)
{
    int bol = 1;
    for (; *s; s++) {
        if (bol && (*s == '.' || *s == '\''))
            fputs("\\&", out);
        bol = *s == '\n';
        if (*s == '-')
            fputs("\\-", out);
        else if (*s == '\\')
            fputs("\\e", out);
        else
            fputc(*s, out);
    }
}

/* Markdown: the characters that could start emphasis, a link, HTML or
 * code are written escaped. */
static void markdown(const char *s, FILE *out)
{
    for (; *s; s++) {
        if (strchr("\\`*_[]<>|", *s))
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* The help text as one paragraph per blank-line part, each line break a
 * space; emit(text) escapes it; between parts, sep. */
static void paragraphs(const char *help, void (*emit)(const char *, FILE *), const char *sep, FILE *out)
{
    char buf[2048];
    size_t n = 0;
    for (const char *h = help;; h++) {
        if (*h == '\0' || (h[0] == '\n' && h[1] == '\n')) {
            buf[n] = '\0';
            emit(buf, out);
            if (*h == '\0')
                return;
            fputs(sep, out);
            n = 0;
            h++;
            continue;
        }
        if (n + 1 >= sizeof buf) {
            fprintf(stderr, "optdoc: the help of an option is longer than %zu bytes\n", sizeof buf);
            exit(1);
        }
        buf[n++] = *h == '\n' ? ' ' : *h;
    }
}

static void man_options(FILE *out)
{
    for (size_t i = 0; i < NOPTIONS; i++) {
        const option_doc *o = &options[i];
        if (i == 0)
            fputs(".SS Output options (one of them, or none to check only)\n", out);
        else if (strcmp(o->id, "O_COMPACT") == 0)
            fputs(".SS Other options\n", out);
        char h[64];
        head(o, h, sizeof h);
        fputs(".TP\n\\fB", out);
        roff(h, out);
        fputs("\\fR\n", out);
        paragraphs(o->help, roff, "\n.IP\n", out);
        fputc('\n', out);
    }
}

static void markdown_options(FILE *out)
{
    for (size_t i = 0; i < NOPTIONS; i++) {
        const option_doc *o = &options[i];
        if (i == 0)
            fputs("Output options (one of them, or none to check only):\n\n", out);
        else if (strcmp(o->id, "O_COMPACT") == 0)
            fputs("\nOther options:\n\n", out);
        char h[64];
        head(o, h, sizeof h);
        fprintf(out, "- `%s`: ", h);
        paragraphs(o->help, markdown, ". ", out);
        fputc('\n', out);
    }
    fputc('\n', out);
}

/* Copies FILE to standard output with its lines changed by the mode. */
static int rewrite(const char *mode, const char *path, const char *version)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        return 1;
    }
    char line[4096];
    int markers = 0, status = 0;
    while (fgets(line, sizeof line, in)) {
        if (strcmp(mode, "man") == 0) {
            if (strcmp(line, "@OPTIONS@\n") == 0) {
                man_options(stdout);
                markers++;
                continue;
            }
            char *v = strstr(line, "@VERSION@");
            if (v) {
                *v = '\0';
                printf("%s%s%s", line, version, v + strlen("@VERSION@"));
                continue;
            }
            fputs(line, stdout);
        } else if (markers == 1) {
            /* between the markers: the old list, replaced */
            if (strncmp(line, end_marker, strlen(end_marker)) == 0) {
                markdown_options(stdout);
                fputs(line, stdout);
                markers++;
            }
        } else {
            fputs(line, stdout);
            if (strncmp(line, begin_marker, strlen(begin_marker)) == 0) {
                fputc('\n', stdout);
                markers++;
            }
        }
    }
    fclose(in);
    int want = strcmp(mode, "man") == 0 ? 1 : 2;
    if (markers != want) {
        fprintf(stderr, "optdoc: %s: %s\n", path,
                want == 1 ? "no @OPTIONS@ line" : "the options' begin and end markers are not both there");
        status = 1;
    }
    return fflush(stdout) == 0 ? status : 1;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "man") == 0)
        return rewrite("man", argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "markdown") == 0)
        return rewrite("markdown", argv[2], NULL);
    fputs("usage: optdoc man TEMPLATE VERSION | optdoc markdown FILE\n", stderr);
    return 2;
}
