/* ptx-front: the command-line front-end.  Options and I/O only; all the
 * work is the library's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

enum mode { CHECK, AST, EMIT_PTX };

static const char usage[] =
    "usage: ptx-front [options] FILE...\n"
    "\n"
    "Reads PTX modules (FILE '-' is standard input).  With no output option it\n"
    "only checks them: silent when valid, diagnostics on stderr when not.\n"
    "\n"
    "  --ast             print the syntax tree\n"
    "  --emit-ptx        print the module back as PTX\n"
    "  --no-locations    leave line:column out of --ast\n"
    "  -o FILE           write output to FILE instead of standard output\n"
    "  --max-errors N    stop a file after N errors (default 20, 0: no limit)\n"
    "  --list-instructions  list the instruction families the tables know\n"
    "  --help            show this help\n"
    "  --version         show the version\n"
    "\n"
    "Exit status: 0 valid, 1 errors in the input, 2 usage or I/O error.\n";

static int write_diags(const ptx_context *ctx)
{
    size_t n = ptx_diag_count(ctx);
    for (size_t i = 0; i < n; i++)
        ptx_diag_render(ctx, ptx_diag_get(ctx, i), ptx_write_file, stderr);
    return 0;
}

int main(int argc, char **argv)
{
    enum mode mode = CHECK;
    const char *out_path = NULL;
    unsigned print_flags = 0;
    unsigned max_errors = 20;
    const char **files = calloc((size_t)argc, sizeof *files);
    int nfiles = 0;
    if (!files)
        return 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--ast") == 0) {
            mode = AST;
        } else if (strcmp(a, "--emit-ptx") == 0) {
            mode = EMIT_PTX;
        } else if (strcmp(a, "--no-locations") == 0) {
            print_flags |= PTX_PRINT_NO_LOCATIONS;
        } else if (strcmp(a, "-o") == 0) {
            if (++i == argc) {
                fprintf(stderr, "ptx-front: -o needs a file name\n");
                free(files);
                return 2;
            }
            out_path = argv[i];
        } else if (strcmp(a, "--max-errors") == 0) {
            char *end;
            if (++i == argc || (max_errors = (unsigned)strtoul(argv[i], &end, 10), *end)) {
                fprintf(stderr, "ptx-front: --max-errors needs a number\n");
                free(files);
                return 2;
            }
        } else if (strcmp(a, "--list-instructions") == 0) {
            free(files);
            return ptx_print_instruction_table(ptx_write_file, stdout) == PTX_OK &&
                   fflush(stdout) == 0 ? 0 : 2;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            free(files);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("ptx-front %s (PTX ISA 9.0)\n", ptx_version());
            free(files);
            return 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "ptx-front: unknown option '%s'\n%s", a, usage);
            free(files);
            return 2;
        } else {
            files[nfiles++] = a;
        }
    }
    if (nfiles == 0) {
        fprintf(stderr, "ptx-front: no input file\n%s", usage);
        free(files);
        return 2;
    }

    FILE *out = stdout;
    if (out_path && mode != CHECK && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "ptx-front: cannot write '%s': %s\n", out_path, strerror(errno));
        free(files);
        return 2;
    }

    int status = 0;
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
            write_diags(ctx);
            if (st == PTX_ERR_INPUT) {
                if (status < 1)
                    status = 1;
            } else if (mode != CHECK) {
                if (mode == AST && nfiles > 1)
                    fprintf(out, "== %s\n", files[i]);
                ptx_status ps = mode == AST
                    ? ptx_print_tree(ctx, m, print_flags, ptx_write_file, out)
                    : ptx_print_ptx(ctx, m, ptx_write_file, out);
                if (ps != PTX_OK) {
                    fprintf(stderr, "ptx-front: cannot write output: %s\n",
                            ps == PTX_ERR_NOMEM ? "out of memory" : strerror(errno));
                    status = 2;
                }
            }
        }
        ptx_context_free(ctx);
    }
    if (out != stdout) {
        if (fclose(out) != 0 && status < 2) {
            fprintf(stderr, "ptx-front: cannot write '%s': %s\n", out_path, strerror(errno));
            status = 2;
        }
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ptx-front: cannot write output: %s\n", strerror(errno));
        status = 2;
    }
    free(files);
    return status;
}
