/* bench: parse-speed and memory benchmark (make bench).
 *
 *   bench [-n RUNS] FILE...          one row per file: size, instructions,
 *                                    scan / parse / + tables / + semantic
 *                                    pass speed, + graphs (ptx_graphs_build),
 *                                    ns per instruction, peak RSS, printers,
 *                                    and `wc -l` on the same file as a floor
 *   bench --make-input SRC MB OUT    writes a module of about MB megabytes:
 *                                    SRC's kernels copied under new names
 *   bench --phase P [-n RUNS] FILE   runs one phase (scan, parse, tables,
 *                                    full, ast, json, graphs) RUNS times and prints
 *                                    its median:
 *                                    for perf and callgrind
 *   bench --cli PTX_FRONT TOKENIZER RUNS FILE...
 *                                    the CLI's check-only run as a user runs
 *                                    it (whole process, CPU time), against
 *                                    the bare tokenizer run beside it
 *                                    (A B, B A, ...: the machine's drift
 *                                    and the order's effect cancel in the
 *                                    pairs' ratios); its peak RSS;
 *                                    the targets, with pass or fail
 *
 * Times are medians of RUNS runs (default 5) on the file already in
 * memory; peak RSS is measured in a child process that reads and parses
 * the file once keeping the tree, as an embedder's parse does (the CLI's
 * check-only run keeps none: --cli measures its own).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int discard(void *user, const char *data, size_t len)
{
    size_t *total = user;
    (void)data;
    *total += len;
    return 0;
}

enum phase { SCAN, PARSE, TABLES, FULL, AST, JSON, GRAPHS };

/* One timed run of a phase; returns seconds (printers: of the printing). */
static double run(enum phase p, const char *text, size_t len, size_t *out_bytes, size_t *instrs)
{
    ptx_context *ctx = ptx_context_new();
    double t0 = now(), t;
    if (p == SCAN) {
        ctx->src = malloc(len + 2);
        memcpy(ctx->src, text, len);
        ctx->src[len] = ctx->src[len + 1] = '\0';
        ctx->srclen = len;
        t0 = now();
        if (!setjmp(ctx->oom))
            ptx_run_scanner(ctx);
        t = now() - t0;
    } else {
        ptx_context_set_validation(ctx, p != PARSE);
        ctx->no_sema = p == TABLES;
        ptx_context_set_max_errors(ctx, 1);
        const ptx_module *m;
        ptx_status st = ptx_parse_buffer(ctx, "bench", text, len, &m);
        t = now() - t0;
        if (st != PTX_OK) {
            fprintf(stderr, "bench: the input does not parse cleanly\n");
            exit(2);
        }
        if (instrs) {
            ptx_iter *it = ptx_iter_new(m);
            const ptx_node *n;
            *instrs = 0;
            while (ptx_iter_next(it, &n) > 0)
                *instrs += n->kind == PTX_NODE_INSTR;
            ptx_iter_free(it);
        }
        if (p == GRAPHS) {
            ptx_graphs *g;
            t0 = now();
            if (ptx_graphs_build(m, &g) != PTX_OK) {
                fprintf(stderr, "bench: ptx_graphs_build fails\n");
                exit(2);
            }
            t = now() - t0;
            ptx_graphs_free(g);
        }
        if (p == AST || p == JSON) {
            size_t bytes = 0;
            t0 = now();
            if (p == AST)
                ptx_print_tree(ctx, m, 0, discard, &bytes);
            else
                ptx_print_json(ctx, m, NULL, NULL, discard, &bytes);
            t = now() - t0;
            *out_bytes = bytes;
        }
    }
    ptx_context_free(ctx);
    return t;
}

static double timed(enum phase p, const char *text, size_t len, int runs, size_t *out_bytes)
{
    double *v = malloc(sizeof *v * (size_t)runs);
    for (int i = 0; i < runs; i++)
        v[i] = run(p, text, len, out_bytes, NULL);
    double m = median(v, runs);
    free(v);
    return m;
}

/* Reads and parses the file once: the child of peak_rss. */
static int parse_once(const char *path)
{
    ptx_context *ctx = ptx_context_new();
    ptx_status st = ptx_parse_file(ctx, path, NULL);
    ptx_context_free(ctx);
    return st == PTX_OK ? 0 : 1;
}

/* Peak RSS in KiB of a fresh process that reads and parses the file once.
 * The child execs this program again: a forked child would count the
 * parent's pages (its copy of the input, its heap) as its own. */
static long peak_rss(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", "bench", "--parse-once", path, (char *)NULL);
        _exit(parse_once(path));   /* no /proc: the forked child, as before */
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
        return -1;
    return ru.ru_maxrss;
}

static double wc_time(const char *path, int runs)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "wc -l '%s' >/dev/null", path);
    double *v = malloc(sizeof *v * (size_t)runs);
    for (int i = 0; i < runs; i++) {
        double t0 = now();
        if (system(cmd) != 0)
            v[i] = 0;
        v[i] = now() - t0;
    }
    double m = median(v, runs);
    free(v);
    return m;
}

static int bench_file(const char *path, int runs)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text) {
        fprintf(stderr, "bench: cannot read %s\n", path);
        return 2;
    }
    size_t instrs = 0, ast_bytes = 0, json_bytes = 0;
    run(FULL, text, len, NULL, &instrs);        /* warm up, count */
    double scan = timed(SCAN, text, len, runs, NULL);
    double parse = timed(PARSE, text, len, runs, NULL);
    double tables = timed(TABLES, text, len, runs, NULL);
    double full = timed(FULL, text, len, runs, NULL);
    double ast = timed(AST, text, len, runs, &ast_bytes);
    double json = timed(JSON, text, len, runs, &json_bytes);
    double graphs = timed(GRAPHS, text, len, runs, NULL);
    long rss = peak_rss(path);
    double wc = wc_time(path, runs);
    double mb = (double)len / 1e6;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("%s\n", name);
    printf("  size %.1f MB, %zu instructions\n", mb, instrs);
    printf("  scan only        %7.3f s  %7.1f MB/s\n", scan, mb / scan);
    printf("  parse + AST      %7.3f s  %7.1f MB/s\n", parse, mb / parse);
    printf("  + tables         %7.3f s  %7.1f MB/s  (instructions against the tables %.3f s)\n",
           tables, mb / tables, tables - parse);
    printf("  + semantic pass  %7.3f s  %7.1f MB/s  %6.1f ns/instruction  (scopes, symbols, types %.3f s)\n",
           full, mb / full, instrs ? full * 1e9 / (double)instrs : 0.0, full - tables);
    printf("  + graphs         %7.3f s  %7.1f MB/s  (control-flow and call graphs %.3f s: +%.1f%% of check-only time)\n",
           full + graphs, mb / (full + graphs), graphs, full > 0 ? graphs * 100 / full : 0.0);
    printf("  peak RSS         %7.1f MB   %.2f x input (a parse that keeps the tree)\n", (double)rss / 1024,
           (double)rss * 1024 / (double)len);
    printf("  --ast printing   %7.3f s  %7.1f MB/s of output (%.1f MB)\n", ast,
           (double)ast_bytes / 1e6 / ast, (double)ast_bytes / 1e6);
    printf("  --json printing  %7.3f s  %7.1f MB/s of output (%.1f MB)\n", json,
           (double)json_bytes / 1e6 / json, (double)json_bytes / 1e6);
    printf("  wc -l            %7.3f s  (parse+validate takes %.1f x as long)\n", wc, full / wc);
    printf("bench-row\t%s\t%zu\t%zu\t%.4f\t%.4f\t%.4f\t%ld\n", name, len, instrs, scan, parse, full, rss);
    free(text);
    return 0;
}

/* CPU seconds (user + system) of one run of `prog path`, output
 * discarded; *rss gets its peak RSS in KiB.  Negative: it failed. */
static double cpu_of(const char *prog, const char *path, long *rss)
{
    fflush(stdout);     /* else the child's freopen writes our buffer again */
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(prog, prog, path, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    *rss = ru.ru_maxrss;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static const char *verdict(int ok)
{
    return ok ? "pass" : "FAIL";
}

/* The targets of issue 19, per file: the CLI at >= 150 MB/s of CPU time,
 * within 2x of the bare tokenizer, peak RSS within 4x of the input. */
static int bench_cli(const char *front, const char *tok, int runs, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "bench: cannot read %s\n", path);
        return 2;
    }
    double *cli = malloc(sizeof *cli * (size_t)runs * 3), *bare = cli + runs, *ratio = cli + 2 * runs;
    long rss = 0, tok_rss = 0, r = 0;
    /* a first pair unmeasured: the file into the page cache */
    if (cpu_of(tok, path, &tok_rss) < 0 || cpu_of(front, path, &r) < 0) {
        fprintf(stderr, "bench: %s or %s fails on %s\n", front, tok, path);
        free(cli);
        return 2;
    }
    for (int i = 0; i < runs; i++) {
        /* A B, then B A: the one run second was slower by up to a third
         * here, whichever it was (the same binary twice gave 0.74x), so
         * the order alternates and that cancels too */
        if (i % 2)
            bare[i] = cpu_of(tok, path, &tok_rss);
        cli[i] = cpu_of(front, path, &r);
        rss = r > rss ? r : rss;
        if (!(i % 2))
            bare[i] = cpu_of(tok, path, &tok_rss);
        if (cli[i] < 0 || bare[i] < 0) {
            fprintf(stderr, "bench: %s or %s fails on %s\n", front, tok, path);
            free(cli);
            return 2;
        }
        /* a run under the clock's tick reads as 0: count it as one tick */
        ratio[i] = cli[i] / (bare[i] > 1e-3 ? bare[i] : 1e-3);
    }
    double mb = (double)sb.st_size / 1e6, c = median(cli, runs), t = median(bare, runs);
    double q = median(ratio, runs), x = (double)rss * 1024 / (double)sb.st_size;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("%s (%.1f MB): ptx-front's check-only run, whole process, CPU time, median of %d pairs (A B, B A, ...)\n",
           name, mb, runs);
    printf("  ptx-front        %7.3f s  %7.1f MB/s   target >= 150 MB/s: %s\n", c, mb / c,
           verdict(mb / c >= 150));
    printf("  bare tokenizer   %7.3f s  %7.1f MB/s   ptx-front / tokenizer %.2fx, target <= 2x: %s\n",
           t, mb / t, q, verdict(q <= 2));
    printf("  peak RSS         %7.1f MB   %.2f x input   target <= 4x: %s\n", (double)rss / 1024, x,
           verdict(x <= 4));
    printf("cli-row\t%s\t%lld\t%.4f\t%.4f\t%.3f\t%ld\n", name, (long long)sb.st_size, c, t, q, rss);
    free(cli);
    return 0;
}

/* Writes SRC's header and everything but its kernels once, then its
 * kernels again and again under new names until OUT reaches `mb` MB. */
static int make_input(const char *src, double mb, const char *out)
{
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m;
    if (ptx_parse_file(ctx, src, &m) != PTX_OK) {
        fprintf(stderr, "bench: %s does not parse cleanly\n", src);
        return 2;
    }
    FILE *f = fopen(out, "w");
    if (!f) {
        fprintf(stderr, "bench: cannot write %s\n", out);
        return 2;
    }
    ptx_print_ptx(NULL, m, ptx_write_file, f);  /* the module once */
    size_t kernels = 0;
    for (ptx_node *n = m->first; n; n = n->next)
        kernels += n->kind == PTX_NODE_FUNC && ((ptx_func *)n)->is_entry && ((ptx_func *)n)->body;
    if (!kernels) {
        fprintf(stderr, "bench: %s has no kernel to copy\n", src);
        return 2;
    }
    /* a module of just the kernels, renamed on each pass */
    ptx_module only = *m;
    for (unsigned copy = 1; ftell(f) < (long)(mb * 1e6); copy++) {
        for (ptx_node *n = m->first; n; n = n->next) {
            if (n->kind != PTX_NODE_FUNC || !((ptx_func *)n)->is_entry || !((ptx_func *)n)->body)
                continue;
            ptx_func *k = (ptx_func *)n;
            char name[4096];
            const ptx_name *orig = k->name;
            snprintf(name, sizeof name, "%s_copy%u", orig->text, copy);
            k->name = ptx_expr_name(ptx_new_name(ctx, name));
            ptx_node *next = n->next;
            n->next = NULL;
            only.first = n;
            /* print the kernel alone, without a second header */
            char *text = NULL;
            size_t tlen = 0;
            FILE *mem = open_memstream(&text, &tlen);
            ptx_print_ptx(NULL, &only, ptx_write_file, mem);
            fclose(mem);
            /* all but the header's three directive lines */
            for (char *line = text; line && *line;) {
                char *eol = strchr(line, '\n');
                size_t bytes = eol ? (size_t)(eol - line) + 1 : strlen(line);
                if (strncmp(line, ".version", 8) != 0 && strncmp(line, ".target", 7) != 0 &&
                    strncmp(line, ".address_size", 13) != 0)
                    fwrite(line, 1, bytes, f);
                line = eol ? eol + 1 : NULL;
            }
            free(text);
            n->next = next;
            k->name = orig;
        }
    }
    fclose(f);
    ptx_context_free(ctx);
    return 0;
}

/* One phase alone, for profilers. */
static int bench_phase(const char *phase, const char *path, int runs)
{
    static const char *const names[] = { "scan", "parse", "tables", "full", "ast", "json", "graphs" };
    enum { NPHASES = sizeof names / sizeof names[0] };
    int p = 0;
    while (p < NPHASES && strcmp(names[p], phase) != 0)
        p++;
    size_t len, out = 0;
    char *text = p < NPHASES ? slurp(path, &len) : NULL;
    if (!text) {
        fprintf(stderr, "bench: unknown phase '%s' or unreadable %s\n", phase, path);
        return 2;
    }
    double t = timed((enum phase)p, text, len, runs, &out);
    printf("%s %s: %.4f s, %.1f MB/s\n", phase, path, t, (double)len / 1e6 / t);
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--make-input") == 0)
        return make_input(argv[2], atof(argv[3]), argv[4]);
    if (argc == 3 && strcmp(argv[1], "--parse-once") == 0)
        return parse_once(argv[2]);
    if (argc == 4 && strcmp(argv[1], "--phase") == 0)
        return bench_phase(argv[2], argv[3], 1);
    if (argc == 6 && strcmp(argv[1], "--phase") == 0 && strcmp(argv[3], "-n") == 0)
        return bench_phase(argv[2], argv[5], atoi(argv[4]));
    if (argc > 5 && strcmp(argv[1], "--cli") == 0 && atoi(argv[4]) > 0) {
        int status = 0;
        for (int i = 5; i < argc; i++)
            status |= bench_cli(argv[2], argv[3], atoi(argv[4]), argv[i]);
        return status;
    }
    int runs = 5, first = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        runs = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || runs < 1) {
        fprintf(stderr, "usage: bench [-n RUNS] FILE...\n       bench --make-input SRC MB OUT\n"
                        "       bench --cli PTX_FRONT TOKENIZER RUNS FILE...\n");
        return 2;
    }
    int status = 0;
    for (int i = first; i < argc; i++)
        status |= bench_file(argv[i], runs);
    return status;
}
