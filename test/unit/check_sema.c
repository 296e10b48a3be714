/* The semantic pass, rule group by rule group (scopes, resolution,
 * addresses, calls, special registers, operand types): the cases of
 * test/sema/cases.tsv and tables.tsv, each a kernel body (and module-scope text) put into
 * test/sema/template.ptx, as dev/check-sema-cases.sh puts them to ptxas.
 * A case ptxas accepts must parse with no diagnostic; a case it rejects
 * must give an error on the line named, with the message named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"

#define TEMPLATE "test/sema/template.ptx"

/* cases.tsv: the pass's rules; tables.tsv: the operand types of the
 * instruction tables, family by family; gates.tsv: the version gates of
 * directives and the legacy forms (whole modules, old versions) */
static const char *const case_files[] = { "test/sema/cases.tsv", "test/sema/tables.tsv",
                                          "test/sema/gates.tsv" };

typedef struct sema_case {
    char *group, *name, *verdict, *target, *module, *body, *message, *reason;
    unsigned line;
    unsigned row; /* its line in the file, which names it (names repeat) */
} sema_case;

/* the rule groups, a test each; a case of any other group is an error
 * (it would never run) */
static const char *const groups[] = {
    "scopes", "resolution", "addresses", "calls", "sregs", "types", "tables", "gates", "legacy",
    "limits", "whole", "debug",
};

/* ptxas judged every case compiled on its own (-c; tools/check-sema-cases.sh)
 * but those of group "whole", judged as whole programs, its default */
static void set_mode(ptx_context *ctx, const sema_case *c)
{
    ptx_context_set_compile_only(ctx, strcmp(c->group, "whole") != 0);
}
enum { NGROUPS = sizeof groups / sizeof groups[0] };

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s (run the tests from the top of the tree)", path);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (len + 2 > cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
        buf[len++] = (char)c;
    }
    fclose(f);
    ck_assert_msg(len > 0, "%s is empty", path);
    buf[len] = '\0';
    return buf;
}

/* "\n" in a field is a line break (as printf %b reads it in the script) */
static char *unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] == 'n') {
            *w++ = '\n';
            r++;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
    return s;
}

/* The cases, parsed once per test from the file (malloc'd; *text holds
 * their strings).  A row has 8 columns, or 9 with a reason: why a reject
 * names no message (or no line) ptx-front's error can be held to. */
static sema_case *load_cases(const char *path, size_t *n, char **text)
{
    *text = slurp(path);
    size_t cap = 0;
    sema_case *cs = NULL;
    *n = 0;
    unsigned lineno = 0;
    for (char *line = *text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (line[0] == '#' || !line[0])
            continue;
        char *f[9];
        unsigned k = 0;
        for (char *p = line; k < 9; k++) {
            f[k] = p;
            p = strchr(p, '\t');
            if (!p) {
                k++;
                break;
            }
            *p++ = '\0';
        }
        ck_assert_msg(k == 8 || (k == 9 && !strchr(f[8], '\t')),
                      "%s:%u: %u fields, expected 8 (or 9 with a reason)", path, lineno, k);
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            cs = realloc(cs, cap * sizeof *cs);
            ck_assert_ptr_nonnull(cs);
        }
        sema_case *c = &cs[(*n)++];
        c->group = f[0];
        c->name = f[1];
        c->verdict = f[2];
        c->target = f[3];
        c->module = unescape(f[4]);
        c->body = unescape(f[5]);
        char *end;
        c->line = (unsigned)strtoul(f[6], &end, 10);
        ck_assert_msg(f[6][0] && !*end, "%s:%u: error line '%s'", path, lineno, f[6]);
        c->message = f[7];
        c->reason = k == 9 ? f[8] : "";
        c->row = lineno;
        ck_assert_msg(!strcmp(c->verdict, "accept") || !strcmp(c->verdict, "reject"),
                      "%s:%u: verdict '%s'", path, lineno, c->verdict);
        /* a reject is held to ptx-front's error: its line and its message,
         * so that another error (a syntax error, another operand) fails it;
         * only a stated reason excuses a missing one.  An accept names
         * neither. */
        if (!strcmp(c->verdict, "reject"))
            ck_assert_msg((c->line && c->message[0]) || c->reason[0],
                          "%s:%u: %s: a reject names its error line and message (or a reason)",
                          path, lineno, c->name);
        else
            ck_assert_msg(!c->line && !c->message[0] && !c->reason[0],
                          "%s:%u: %s: an accept names no error line, message or reason", path,
                          lineno, c->name);
    }
    return cs;
}

/* The template with the case's parts in it (malloc'd); a target written
 * sm_75@6.3 also gives the .version (9.0 otherwise).  A module-scope text
 * that starts with ".version" is the whole module (the target is then
 * only the architecture ptxas compiles for). */
static char *module_text(const char *template, const sema_case *c)
{
    if (!strncmp(c->module, ".version", 8)) {
        char *whole = strdup(c->module);
        ck_assert_ptr_nonnull(whole);
        return whole;
    }
    char target[32], version[16] = "9.0";
    snprintf(target, sizeof target, "%s", c->target);
    char *at = strchr(target, '@');
    if (at) {
        *at = '\0';
        snprintf(version, sizeof version, "%s", at + 1);
    }
    size_t n = strlen(template) + strlen(target) + strlen(version) + strlen(c->module) +
               strlen(c->body) + 1;
    char *out = malloc(n);
    ck_assert_ptr_nonnull(out);
    size_t k = 0;
    for (const char *p = template; *p;) {
        const char *put = NULL;
        size_t skip = 0;
        if (!strncmp(p, "@TARGET@", 8))
            put = target, skip = 8;
        else if (!strncmp(p, "@VERSION@", 9))
            put = version, skip = 9;
        else if (!strncmp(p, "@MODULE@", 8))
            put = c->module, skip = 8;
        else if (!strncmp(p, "@BODY@", 6))
            put = c->body, skip = 6;
        if (put) {
            memcpy(out + k, put, strlen(put));
            k += strlen(put);
            p += skip;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = '\0';
    return out;
}

/* One case: NULL when it holds, else why not (a static buffer). */
static const char *run_case(const char *template, const sema_case *c)
{
    static char why[1024];
    char *src = module_text(template, c);
    ptx_context *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(ctx);
    set_mode(ctx, c);
    ptx_status st = ptx_parse_buffer(ctx, "case.ptx", src, strlen(src), NULL);
    const char *bad = NULL;
    if (!strcmp(c->verdict, "accept")) {
        if (st != PTX_OK || ptx_diag_count(ctx) != 0) {
            snprintf(why, sizeof why, "rejected: %s",
                     ptx_diag_count(ctx) ? ptx_diag_get(ctx, 0)->message : "(no diagnostic)");
            bad = why;
        }
    } else if (st != PTX_ERR_INPUT) {
        bad = "accepted";
    } else {
        const ptx_diag *d = NULL;
        /* in source order: the case's error, else the first */
        for (size_t k = 0; k < ptx_diag_count(ctx); k++) {
            const ptx_diag *e = ptx_diag_get(ctx, k);
            if (e->severity == PTX_SEV_ERROR &&
                (!d || (c->message[0] && strstr(e->message, c->message) &&
                        !strstr(d->message, c->message))))
                d = e;
        }
        if (!d) {
            bad = "rejected with no error diagnostic";
        } else {
            unsigned line = ptx_context_position(ctx, d->span.off).line;
            if (c->line && line != c->line) {
                snprintf(why, sizeof why, "error on line %u, expected %u: %s", line, c->line,
                         d->message);
                bad = why;
            } else if (!strstr(d->message, c->message)) {
                snprintf(why, sizeof why, "message '%s' lacks '%s'", d->message, c->message);
                bad = why;
            }
        }
    }
    ptx_context_free(ctx);
    free(src);
    return bad;
}

/* Every case of the group is run, each failure printed (file:row, name,
 * why), and the group fails once with their count: the first failing case
 * does not hide the others. */
static void run_group(const char *group)
{
    char *template = slurp(TEMPLATE);
    unsigned ran = 0, failed = 0;
    for (size_t f = 0; f < sizeof case_files / sizeof case_files[0]; f++) {
        char *text;
        size_t n;
        sema_case *cs = load_cases(case_files[f], &n, &text);
        ck_assert_msg(n > 0, "no case in %s", case_files[f]);
        for (size_t i = 0; i < n; i++) {
            const sema_case *c = &cs[i];
            if (strcmp(c->group, group) != 0)
                continue;
            ran++;
            const char *bad = run_case(template, c);
            if (bad) {
                failed++;
                fprintf(stderr, "%s:%u: %s: %s: %s\n", case_files[f], c->row, group, c->name,
                        bad);
            }
        }
        free(cs);
        free(text);
    }
    free(template);
    ck_assert_msg(ran > 0, "no case of group '%s'", group);
    ck_assert_msg(failed == 0, "%s: %u of its %u cases failed (each printed above)", group,
                  failed, ran);
}

START_TEST(sema_group)
{
    run_group(groups[_i]);
}
END_TEST

/* Every case is in one of groups[] (a case of another group would never
 * run); the count of each group is printed, and their sum is every case. */
START_TEST(sema_cases_all_run)
{
    unsigned per[NGROUPS] = { 0 }, total = 0, rejects = 0, pinned = 0, reasoned = 0;
    for (size_t f = 0; f < sizeof case_files / sizeof case_files[0]; f++) {
        char *text;
        size_t n;
        sema_case *cs = load_cases(case_files[f], &n, &text);
        for (size_t i = 0; i < n; i++) {
            size_t g = 0;
            while (g < NGROUPS && strcmp(groups[g], cs[i].group) != 0)
                g++;
            ck_assert_msg(g < NGROUPS, "%s:%u: %s: group '%s' is not in check_sema.c's groups[]",
                          case_files[f], cs[i].row, cs[i].name, cs[i].group);
            per[g]++;
            total++;
            if (!strcmp(cs[i].verdict, "reject")) {
                rejects++;
                pinned += cs[i].line && cs[i].message[0];
                reasoned += cs[i].reason[0] != 0;
            }
        }
        free(cs);
        free(text);
    }
    printf("sema cases: %u run:", total);
    for (size_t g = 0; g < NGROUPS; g++)
        printf(" %s %u", groups[g], per[g]);
    printf("; %u rejects, %u with line and message, %u with a reason\n", rejects, pinned,
           reasoned);
    unsigned sum = 0;
    for (size_t g = 0; g < NGROUPS; g++) {
        ck_assert_msg(per[g] > 0, "no case of group '%s'", groups[g]);
        sum += per[g];
    }
    ck_assert_uint_eq(sum, total);
}
END_TEST

/* tables-missed.tsv lists the table cases ptxas rejects and ptx-front still
 * accepts: each must still be accepted (one rejected now moves to
 * tables.tsv with its message), and each names ptxas's line and a reason. */
START_TEST(sema_missed_still_missed)
{
    char *template = slurp(TEMPLATE);
    char *text;
    size_t n;
    sema_case *cs = load_cases("test/sema/tables-missed.tsv", &n, &text);
    ck_assert_msg(n > 0, "no case in test/sema/tables-missed.tsv");
    unsigned moved = 0;
    for (size_t i = 0; i < n; i++) {
        const sema_case *c = &cs[i];
        ck_assert_msg(!strcmp(c->verdict, "reject") && c->line && c->reason[0],
                      "tables-missed.tsv:%u: %s: a missed case is a reject with a line and a reason",
                      c->row, c->name);
        char *src = module_text(template, c);
        ptx_context *ctx = ptx_context_new();
        ck_assert_ptr_nonnull(ctx);
        set_mode(ctx, c);
        if (ptx_parse_buffer(ctx, "case.ptx", src, strlen(src), NULL) != PTX_OK) {
            moved++;
            fprintf(stderr, "test/sema/tables-missed.tsv:%u: %s: rejected now (%s): move it to "
                            "tables.tsv with its message\n",
                    c->row, c->name,
                    ptx_diag_count(ctx) ? ptx_diag_get(ctx, 0)->message : "no diagnostic");
        }
        ptx_context_free(ctx);
        free(src);
    }
    free(cs);
    free(text);
    free(template);
    ck_assert_msg(moved == 0, "%u of the %zu cases of tables-missed.tsv are rejected now", moved, n);
}
END_TEST

/* A redefinition is an error at the later name and a note at the first. */
START_TEST(sema_redefinition_note)
{
    static const char src[] = TEST_HDR ".visible .entry k()\n{\n"
                              "DONE: ret;\n"
                              "\tDONE: ret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_diag_count(ctx), 2);
    const ptx_diag *e = ptx_diag_get(ctx, 0), *note = ptx_diag_get(ctx, 1);
    ck_assert_int_eq(e->severity, PTX_SEV_ERROR);
    ck_assert_int_eq(e->code, PTX_DIAG_SYMBOL);
    ck_assert_str_eq(e->message, "redefinition of label 'DONE'");
    ck_assert_uint_eq(ptx_context_position(ctx, e->span.off).line, 7);
    ck_assert_uint_eq(ptx_context_position(ctx, e->span.off).col, 2);
    ck_assert_int_eq(note->severity, PTX_SEV_NOTE);
    ck_assert_str_eq(note->message, "previous definition of 'DONE' is here");
    ck_assert_uint_eq(ptx_context_position(ctx, note->span.off).line, 6);
    ptx_context_free(ctx);
}
END_TEST

/* The pass keeps what it has worked out (an instruction shape's operand
 * types, a name's symbol) for the statements after: each statement is
 * still judged on its own.  Instructions written alike, one with
 * registers or a constant that fit and one without; a register that a
 * block's own declaration hides and that is the range's again after it;
 * a name whose range has another type in the function before. */
START_TEST(sema_statements_alike_judged_each)
{
    static const char src[] = TEST_HDR
        ".visible .entry a()\n{\n"
        ".reg .f32 %r<3>;\n"                                            /* 6 */
        "add.f32 %r1, %r2, %r2;\n"
        "ret;\n}\n"
        ".visible .entry k()\n{\n"
        ".reg .s32 %r<3>; .reg .f32 %f<3>;\n"                           /* 12 */
        "add.s32 %r1, %r2, %r2;\n"
        "add.s32 %r1, %f1, %r2;\n"
        "add.s32 %r1, %r2, %r2;\n"
        "add.s32 %r1, %r2, %f2;\n"
        "add.f32 %f1, %f2, 0f3F800000;\n"
        "add.f32 %f1, %f2, 1;\n"
        "add.f32 %f1, %f2, 1;\n"
        "add.f32 %r1, %r2, %r2;\n"                                      /* 20 */
        "{ .reg .f32 %r1; add.f32 %r1, %r1, %f1; add.s32 %r2, %r1, 1; }\n"
        "add.s32 %r2, %r1, 1;\n"
        "L: add.s32 %r2, L, 1;\n"
        "bra L;\n"
        "ret;\n}\n";
    static const struct { unsigned line, col; const char *message; } want[] = {
        { 14, 14, "operand '%f1' of 'add' is declared .f32; the instruction needs .s32" },
        { 16, 19, "operand '%f2' of 'add' is declared .f32; the instruction needs .s32" },
        { 18, 19, "an integer constant where 'add' needs a .f32 value: write a floating-point "
                  "constant (1.0, 0f3F800000)" },
        { 19, 19, "an integer constant where 'add' needs a .f32 value: write a floating-point "
                  "constant (1.0, 0f3F800000)" },
        { 20, 9, "operand '%r1' of 'add' is declared .s32; the instruction needs .f32" },
        { 20, 14, "operand '%r2' of 'add' is declared .s32; the instruction needs .f32" },
        { 20, 19, "operand '%r2' of 'add' is declared .s32; the instruction needs .f32" },
        { 21, 54, "operand '%r1' of 'add' is declared .f32; the instruction needs .s32" },
        { 23, 17, "'L' is a label: only branches and branch-target lists take labels" },
    };
    enum { N = sizeof want / sizeof want[0] };
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_diag_count(ctx), N);
    for (unsigned i = 0; i < N; i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        ck_assert_int_eq(d->severity, PTX_SEV_ERROR);
        ck_assert_str_eq(d->message, want[i].message);
        ck_assert_uint_eq(ptx_context_position(ctx, d->span.off).line, want[i].line);
        ck_assert_uint_eq(ptx_context_position(ctx, d->span.off).col, want[i].col);
    }
    ptx_context_free(ctx);
}
END_TEST

/* check_instr remembers what it found of an instruction it accepted
 * (answer, sema_instr.c) for the instructions written alike.  Each pair below
 * is such an instruction, accepted, then one that differs from it in
 * one part of the answer's key only, rejected; each is written again
 * after, so that the accepted one is answered from the memo: the
 * rejected one still draws its error each time.  Then what is checked
 * on every instruction, answered or not: a guard, an address, and the
 * register named WARP_SZ (32 where a constant goes), which no key holds. */
START_TEST(sema_answers_key_every_part)
{
    static const char src[] = TEST_HDR
        ".global .u32 g;\n"
        ".visible .entry k()\n{\n"
        ".reg .b32 r<9>; .reg .b64 rd<9>; .reg .pred p<3>; .reg .v2 .b32 vr<3>;\n"   /* 7 */
        ".reg .b32 WARP_SZ;\n"
        "add.s32 r1, r2, r3; add.s32 r1, r2, rd3; add.s32 r1, r2, r3; add.s32 r1, r2, rd3;\n"
        "add.s32 r1, r2, r3; add.s64 r1, r2, r3; add.s32 r1, r2, r3; add.s64 r1, r2, r3;\n"
        "add.s32 r1, r2, r3; add.s32 r1, r2; add.s32 r1, r2, r3; add.s32 r1, r2;\n"   /* 11 */
        "setp.eq.s32 p1, r1, r2; setp.eq.s32 r3, r1, r2; setp.eq.s32 p1, r1, r2; "
        "setp.eq.s32 r3, r1, r2;\n"
        "st.global.v2.u32 [rd1], vr1; st.global.v2.u32 [rd1], r1; "
        "st.global.v2.u32 [rd1], vr1; st.global.v2.u32 [rd1], r1;\n"
        "mov.u64 rd1, g; mov.u64 rd1, L1; mov.u64 rd1, g; mov.u64 rd1, L1;\n"
        "st.global.v4.u32 [rd1], {r1, r2, r3, r4}; st.global.v4.u32 [rd1], {r1, r2, r3}; "
        "st.global.v4.u32 [rd1], {r1, r2, r3, r4}; st.global.v4.u32 [rd1], {r1, r2, r3};\n"
        "st.global.v4.u32 [rd1], {r1, r2, r3, r4}; st.global.v4.u32 [rd1], {r1, r2, r3, _}; "
        "st.global.v4.u32 [rd1], {r1, r2, r3, r4}; st.global.v4.u32 [rd1], {r1, r2, r3, _};\n"
        "bar.sync 0; bar.sync 16; bar.sync 0; bar.sync 16;\n"                      /* 17 */
        "bar.sync -0; bar.sync -1; bar.sync -0; bar.sync -1;\n"
        "add.s32 r1, r2, 1; add.s32 r1, r2, 0f3F800000; add.s32 r1, r2, 1; "
        "add.s32 r1, r2, 0f3F800000;\n"
        "@p1 add.s32 r1, r2, r3; @r1 add.s32 r1, r2, r3; @p1 add.s32 r1, r2, r3;\n"  /* 20 */
        "ld.global.u32 r1, [rd1]; ld.global.u32 r1, [r2]; ld.global.u32 r1, [rd1];\n"
        "bar.sync r1; bar.sync WARP_SZ; bar.sync r1;\n"
        "L1: ret;\n}\n";
    /* the errors, in order: line, column */
    static const unsigned want[][2] = {
        { 9, 37 }, { 9, 78 },                                          /* a type */
        { 10, 29 }, { 10, 33 }, { 10, 37 }, { 10, 69 }, { 10, 73 }, { 10, 77 },
        { 11, 21 }, { 11, 57 },                                        /* operands */
        { 12, 37 }, { 12, 85 },                                        /* a class */
        { 13, 54 }, { 13, 111 },                                       /* a vector */
        { 14, 30 }, { 14, 63 },                                        /* a label */
        { 15, 67 }, { 15, 147 },                                       /* a size */
        { 16, 80 }, { 16, 163 },                                       /* a sink */
        { 17, 22 }, { 17, 47 },                                        /* values */
        { 18, 23 }, { 18, 49 },
        { 19, 36 }, { 19, 83 },                                        /* a kind */
        { 20, 26 }, { 21, 45 }, { 22, 23 },
    };
    enum { N = sizeof want / sizeof want[0] };
    ptx_context *ctx = ptx_context_new();
    ptx_context_set_max_errors(ctx, 0);
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_diag_count(ctx), N);
    for (unsigned i = 0; i < N; i++) {
        const ptx_diag *d = ptx_diag_get(ctx, i);
        ck_assert_int_eq(d->severity, PTX_SEV_ERROR);
        ck_assert_uint_eq(ptx_context_position(ctx, d->span.off).line, want[i][0]);
        ck_assert_uint_eq(ptx_context_position(ctx, d->span.off).col, want[i][1]);
    }
    ptx_context_free(ctx);
}
END_TEST

/* Module-scope .local and .reg before PTX ISA 3.0: accepted with a
 * warning, as ptxas gives one ("... disabling ABI") and exits 0. */
START_TEST(legacy_module_scope_local_warns)
{
    static const char *const srcs[] = {
        ".version 2.3\n.target sm_20\n.local .u32 l;\n.entry k { st.local.u32 [l], 1; ret; }\n",
        ".version 1.4\n.target sm_10\n.reg .u32 r;\n.entry k { mov.u32 r, 1; ret; }\n",
    };
    static const char *const spaces[] = { ".local", ".reg" };
    for (unsigned i = 0; i < 2; i++) {
        ptx_context *ctx = ptx_context_new();
        ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", srcs[i], strlen(srcs[i]), NULL), PTX_OK);
        ck_assert_uint_eq(ptx_diag_count(ctx), 1);
        const ptx_diag *w = ptx_diag_get(ctx, 0);
        ck_assert_int_eq(w->severity, PTX_SEV_WARNING);
        ck_assert_uint_eq(ptx_context_position(ctx, w->span.off).line, 3);
        char want[128];
        snprintf(want, sizeof want, "module-scope '%s' variables turn the ABI off for this module", spaces[i]);
        ck_assert_msg(strstr(w->message, want) != NULL, "'%s' lacks '%s'", w->message, want);
        ptx_context_free(ctx);
    }
}
END_TEST

/* Parsing with validation off builds the tree only: no symbol is judged. */
START_TEST(sema_off_without_validation)
{
    static const char src[] = TEST_HDR ".visible .entry k()\n{\nmov.u32 %r1, %zz;\n}\n";
    ptx_context *ctx = ptx_context_new();
    ptx_context_set_validation(ctx, false);
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), NULL), PTX_OK);
    ptx_context_free(ctx);
}
END_TEST


/* ---- the public API -------------------------------------------------------- */

typedef struct seen {
    unsigned n;
    char names[16][24];
    ptx_symbol syms[16];
} seen;

static bool note_name(void *user, const ptx_node *stmt, const ptx_expr *name, const ptx_symbol *sym)
{
    seen *s = user;
    ck_assert_ptr_nonnull(stmt);
    ck_assert_uint_lt(s->n, 16);
    snprintf(s->names[s->n], sizeof s->names[0], "%s", ptx_expr_name(name)->text);
    s->syms[s->n++] = *sym;
    return true;
}

START_TEST(resolve_names_kinds)
{
    static const char src[] = TEST_HDR
        ".global .u32 g;\n"
        ".func f() { ret; }\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        ".reg .u64 %rd<3>; .reg .pred %q;\n"
        "ld.param.u64 %rd1, [p];\n"
        "@%q bra L;\n"
        "{ .reg .b32 %rd1; mov.u32 %rd1, %tid.x; }\n"
        "L: mov.u64 %rd2, g;\n"
        "call f;\n"
        "}\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m), PTX_OK);
    seen s = { 0 };
    ck_assert_int_eq(ptx_resolve_names(m, note_name, &s), PTX_OK);
    static const char *const names[] = { "%rd1", "p", "%q", "L", "%rd1", "%tid", "%rd2", "g", "f" };
    static const ptx_symbol_kind kinds[] = {
        PTX_SYM_REGISTER, PTX_SYM_VARIABLE, PTX_SYM_REGISTER, PTX_SYM_LABEL, PTX_SYM_REGISTER,
        PTX_SYM_SPECIAL, PTX_SYM_REGISTER, PTX_SYM_VARIABLE, PTX_SYM_FUNCTION,
    };
    ck_assert_uint_eq(s.n, sizeof names / sizeof names[0]);
    for (unsigned i = 0; i < s.n; i++) {
        ck_assert_str_eq(s.names[i], names[i]);
        ck_assert_int_eq(s.syms[i].kind, kinds[i]);
    }
    /* %rd1 outside the block is the .u64 range; inside, the block's .b32 */
    ck_assert_int_eq(s.syms[0].type, PTX_TYPE_U64);
    ck_assert_int_eq(s.syms[4].type, PTX_TYPE_B32);
    ck_assert_int_eq(s.syms[1].space, PTX_SPACE_PARAM);
    ck_assert_int_eq(s.syms[7].space, PTX_SPACE_GLOBAL);
    ck_assert_ptr_eq(s.syms[8].decl, &ptx_find_function(m, "f")->base);
    ck_assert_int_eq(s.syms[3].decl->kind, PTX_NODE_LABEL);
    /* the declaration's place: %rd<3> on line 8 */
    ck_assert_uint_eq(ptx_context_position(ctx, s.syms[0].span.off).line, 8);
    ptx_context_free(ctx);
}
END_TEST

/* A parse asked to keep the names' resolutions (ptx_context_set_keep_names)
 * answers ptx_resolve_names from what the semantic pass resolved while it
 * checked: the same names, symbols and declarations, in the same order,
 * as the walk of a module parsed without it, among them a call before a
 * function's definition (its prototype) and one after (its definition).
 * After an edit, or in a module with errors, the answers are not kept or
 * not trusted, and the walk gives them. */
typedef struct seen_all {
    unsigned n;
    char names[32][24];
    ptx_symbol syms[32];
    uint32_t decl_off[32];
} seen_all;

static bool note_all(void *user, const ptx_node *stmt, const ptx_expr *name, const ptx_symbol *sym)
{
    seen_all *s = user;
    (void)stmt;
    ck_assert_uint_lt(s->n, 32);
    snprintf(s->names[s->n], sizeof s->names[0], "%s", ptx_expr_name(name)->text);
    s->syms[s->n] = *sym;
    s->decl_off[s->n++] = sym->decl ? sym->decl->span.off : PTX_NO_OFFSET;
    return true;
}

START_TEST(resolve_names_kept_answers)
{
    static const char src[] = TEST_HDR
        ".global .u32 g;\n"
        ".global .u64 tab[2] = { g, g };\n"
        ".func f(.param .b32 a);\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        ".reg .u64 %rd<3>; .reg .pred %q; .reg .b32 %r;\n"
        "ld.param.u64 %rd1, [p];\n"
        "@%q bra L;\n"
        "{ .param .b32 x; st.param.b32 [x], %r; call f, (x); }\n"
        "L: mov.u64 %rd2, g;\n"
        "ts: .branchtargets L;\n"
        "mov.u32 %r, %tid.x;\n"
        "}\n"
        ".func f(.param .b32 a) { ret; }\n"
        ".visible .entry k2()\n{\n.param .b32 y;\ncall f, (y);\nret;\n}\n";
    seen_all walked = { 0 }, kept = { 0 };
    ptx_context *a = ptx_context_new(), *b = ptx_context_new();
    const ptx_module *ma = NULL, *mb = NULL;
    ck_assert_int_eq(ptx_parse_buffer(a, "t.ptx", src, strlen(src), &ma), PTX_OK);
    ptx_context_set_keep_names(b, true);
    ck_assert_int_eq(ptx_parse_buffer(b, "t.ptx", src, strlen(src), &mb), PTX_OK);
    ck_assert_ptr_null(ma->names_resolved);
    ck_assert_ptr_nonnull(mb->names_resolved);
    ck_assert_int_eq(ptx_resolve_names(ma, note_all, &walked), PTX_OK);
    ck_assert_int_eq(ptx_resolve_names(mb, note_all, &kept), PTX_OK);
    ck_assert_uint_eq(kept.n, walked.n);
    ck_assert_uint_ge(kept.n, 14);
    for (unsigned i = 0; i < kept.n; i++) {
        ck_assert_str_eq(kept.names[i], walked.names[i]);
        ck_assert_int_eq(kept.syms[i].kind, walked.syms[i].kind);
        ck_assert_int_eq(kept.syms[i].type, walked.syms[i].type);
        ck_assert_int_eq(kept.syms[i].space, walked.syms[i].space);
        ck_assert_uint_eq(kept.syms[i].span.off, walked.syms[i].span.off);
        ck_assert_uint_eq(kept.syms[i].span.len, walked.syms[i].span.len);
        ck_assert_uint_eq(kept.decl_off[i], walked.decl_off[i]);
    }
    /* the two calls of f: the prototype's declaration, then the definition's */
    unsigned calls = 0;
    uint32_t decl[2] = { 0, 0 };
    for (unsigned i = 0; i < kept.n; i++)
        if (!strcmp(kept.names[i], "f") && calls < 2)
            decl[calls++] = kept.decl_off[i];
    ck_assert_uint_eq(calls, 2);
    ck_assert_uint_ne(decl[0], decl[1]);
    ck_assert_uint_eq(decl[1], ptx_find_function(mb, "f")->base.span.off);

    /* an edit: the kept answers are not trusted, the walk sees the new name */
    ptx_func *k = (ptx_func *)ptx_find_function(mb, "k");
    ptx_expr *ops[] = { ptx_new_name(b, "%r"), ptx_new_int(b, 1) };
    ptx_instr *in = ptx_new_instr(b, "mov.b32", ops, 2);
    ck_assert_ptr_nonnull(in);
    ck_assert_int_eq(ptx_insert_after(k->body, NULL, &in->base), PTX_OK);
    seen_all edited = { 0 };
    ck_assert_int_eq(ptx_resolve_names(mb, note_all, &edited), PTX_OK);
    ck_assert_uint_eq(edited.n, kept.n + 1);
    ptx_context_free(a);
    ptx_context_free(b);

    /* a module with an error keeps none */
    static const char bad[] = TEST_HDR ".visible .entry k()\n{\nmov.u32 %nope, 1;\nret;\n}\n";
    ptx_context *c = ptx_context_new();
    const ptx_module *mc = NULL;
    ptx_context_set_keep_names(c, true);
    ck_assert_int_eq(ptx_parse_buffer(c, "t.ptx", bad, strlen(bad), &mc), PTX_ERR_INPUT);
    ck_assert_ptr_null(mc->names_resolved);
    ptx_context_free(c);
}
END_TEST

static bool stop_at_first(void *user, const ptx_node *stmt, const ptx_expr *name, const ptx_symbol *sym)
{
    (void)stmt;
    (void)name;
    (void)sym;
    ++*(unsigned *)user;
    return false;
}

START_TEST(resolve_names_unknown_and_stop)
{
    static const char src[] = TEST_HDR ".visible .entry k()\n{\nmov.u32 %nope, 1;\nret;\n}\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m), PTX_ERR_INPUT);
    seen s = { 0 };
    ck_assert_int_eq(ptx_resolve_names(m, note_name, &s), PTX_OK);
    ck_assert_uint_eq(s.n, 1);
    ck_assert_int_eq(s.syms[0].kind, PTX_SYM_NONE);
    ck_assert_ptr_null(s.syms[0].decl);
    unsigned calls = 0;
    ck_assert_int_eq(ptx_resolve_names(m, stop_at_first, &calls), PTX_OK);
    ck_assert_uint_eq(calls, 1);
    ck_assert_int_eq(ptx_resolve_names(NULL, note_name, &s), PTX_ERR_USAGE);
    ck_assert_int_eq(ptx_resolve_names(m, NULL, &s), PTX_ERR_USAGE);
    ptx_context_free(ctx);
}
END_TEST

/* A range's declaration clashes with the single names of its scope that
 * are its names, numbers past 2^28 (which the pass's table of names
 * keeps apart) compared whole.  (cases.tsv has the lookups of such
 * names; ptxas takes minutes over these declarations.) */
START_TEST(sema_range_clash_past_2_28)
{
    static const char *const bodies[] = {
        ".reg .u32 %w268435457; .reg .u32 %w<268435457>;",   /* not one of its names */
        ".reg .u32 %w268435456; .reg .u32 %w<268435457>;",   /* its last name */
    };
    for (int i = 0; i < 2; i++) {
        char src[256];
        snprintf(src, sizeof src, TEST_HDR ".visible .entry k()\n{\n%s\nret;\n}\n", bodies[i]);
        ptx_context *ctx = ptx_context_new();
        ptx_status st = ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), NULL);
        if (i == 0) {
            ck_assert_int_eq(st, PTX_OK);
            ck_assert_uint_eq(ptx_diag_count(ctx), 0);
        } else {
            ck_assert_int_eq(st, PTX_ERR_INPUT);
            ck_assert_str_eq(ptx_diag_get(ctx, 0)->message,
                             "redefinition of register '%w<268435457>'");
        }
        ptx_context_free(ctx);
    }
}
END_TEST

/* A range's names are found among the ranges of their own prefix: a
 * function of thousands of ranges, each used, one of them hidden in
 * part by a block's, gives the one error it has (with every range read
 * for each name this took N^2 steps: 100,000 ranges, 21 s).  A range
 * over single names of its scope names the first of them. */
START_TEST(sema_many_ranges)
{
    enum { N = 3000 };
    size_t cap = 64 * N + 512, len = 0;
    char *src = malloc(cap);
    ck_assert_ptr_nonnull(src);
    len += (size_t)snprintf(src + len, cap - len, TEST_HDR ".visible .entry k()\n{\n");
    char names[N][8];
    for (int i = 0; i < N; i++) {
        /* %q and letters: a prefix that ends in no digit */
        int n = i, k = 0;
        names[i][k++] = 'q';
        do {
            names[i][k++] = (char)('a' + n % 26);
            n /= 26;
        } while (n > 0);
        names[i][k] = '\0';
        len += (size_t)snprintf(src + len, cap - len, ".reg .b32 %%%s<2>;\n", names[i]);
    }
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(src + len, cap - len, "mov.b32 %%%s0, %%%s1;\n", names[i], names[i]);
    /* %qa<1> hides %qa0 alone: %qa1 is the outer range's */
    len += (size_t)snprintf(src + len, cap - len,
                            "{ .reg .b32 %%qa<1>; mov.b32 %%qa0, %%qa1; }\nmov.b32 %%qzzzz0, 1;\nret;\n}\n");
    ck_assert_uint_lt(len, cap);
    ptx_context *ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, len, NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_diag_count(ctx), 1);
    const ptx_diag *e = ptx_diag_get(ctx, 0);
    ck_assert_str_eq(e->message, "unknown symbol '%qzzzz0'");
    ck_assert_uint_eq(ptx_context_position(ctx, e->span.off).line, 6 + 2 * N + 1);
    ptx_context_free(ctx);
    free(src);

    static const char clash[] = TEST_HDR ".visible .entry k()\n{\n"
                                ".reg .u32 %v7;\n.reg .u32 %v1;\n.reg .u32 %v<8>;\nret;\n}\n";
    ctx = ptx_context_new();
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", clash, strlen(clash), NULL), PTX_ERR_INPUT);
    ck_assert_uint_eq(ptx_diag_count(ctx), 2);
    ck_assert_str_eq(ptx_diag_get(ctx, 0)->message, "redefinition of register '%v<8>'");
    ck_assert_str_eq(ptx_diag_get(ctx, 1)->message, "previous definition of '%v7' is here");
    ck_assert_uint_eq(ptx_context_position(ctx, ptx_diag_get(ctx, 1)->span.off).line, 6);
    ptx_context_free(ctx);
}
END_TEST

/* The item of m named `name` (a function) */
static ptx_node *item_named(const ptx_module *m, const char *name)
{
    for (ptx_node *n = m->first; n; n = n->next)
        if (n->kind == PTX_NODE_FUNC && !strcmp(((const ptx_func *)n)->name->text, name))
            return n;
    ck_abort_msg("no function %s", name);
    return NULL;
}

/* A kernel moved from another context keeps its own names, whose ids
 * (numbered in that context) are those of other names here, or past any
 * this context has: each name still stands for its own declaration, in
 * the pass and in ptx_resolve_names. */
START_TEST(names_of_two_contexts)
{
    static const char a_src[] = TEST_HDR ".visible .entry ka()\n{\n"
                                ".reg .b32 %r<4>;\nmov.b32 %r1, 1;\nret;\n}\n";
    static const char b_src[] = TEST_HDR ".visible .entry kb()\n{\n"
                                ".reg .b64 %q<4>;\nmov.b64 %q1, 2;\n"
                                ".reg .b64 %more;\nmov.b64 %more, %q1;\nEND: ret;\n}\n";
    ptx_context *a = ptx_context_new(), *b = ptx_context_new();
    const ptx_module *ma = NULL, *mb = NULL;
    ck_assert_int_eq(ptx_parse_buffer(a, "a.ptx", a_src, strlen(a_src), &ma), PTX_OK);
    ck_assert_int_eq(ptx_parse_buffer(b, "b.ptx", b_src, strlen(b_src), &mb), PTX_OK);
    ptx_node *ka = item_named(ma, "ka"), *kb = item_named(mb, "kb");
    /* the two texts intern alike: the kernels' names share an id */
    ck_assert_uint_eq(((const ptx_func *)ka)->name->id, ((const ptx_func *)kb)->name->id);
    ck_assert_int_eq(ptx_module_remove(b, kb), PTX_OK);
    ck_assert_int_eq(ptx_module_insert_after(a, ka, kb), PTX_OK);
    ck_assert_int_eq(ptx_validate(a), PTX_OK);
    ck_assert_uint_eq(ptx_diag_count(a), 0);
    seen s = { 0 };
    ck_assert_int_eq(ptx_resolve_names(ma, note_name, &s), PTX_OK);
    static const char *const names[] = { "%r1", "%q1", "%more", "%q1" };
    static const ptx_type types[] = { PTX_TYPE_B32, PTX_TYPE_B64, PTX_TYPE_B64, PTX_TYPE_B64 };
    ck_assert_uint_eq(s.n, 4);
    for (unsigned i = 0; i < s.n; i++) {
        ck_assert_str_eq(s.names[i], names[i]);
        ck_assert_int_eq(s.syms[i].kind, PTX_SYM_REGISTER);
        ck_assert_int_eq(s.syms[i].type, types[i]);
    }
    ptx_context_free(a);
    ptx_context_free(b);
}
END_TEST

START_TEST(find_function_and_variable)
{
    static const char src[] = TEST_HDR
        ".extern .global .u32 a;\n.visible .global .u32 b, a;\n"
        ".func f();\n.func f() { ret; }\n.extern .func g();\n";
    ptx_context *ctx = ptx_context_new();
    const ptx_module *m = NULL;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", src, strlen(src), &m), PTX_OK);
    const ptx_func *f = ptx_find_function(m, "f");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(f->body);                 /* the definition, not the declaration */
    ck_assert_ptr_nonnull(ptx_find_function(m, "g"));
    ck_assert_ptr_null(ptx_find_function(m, "h"));
    const ptx_var *v = NULL;
    const ptx_decl *d = ptx_find_variable(m, "a", &v);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->linkage, PTX_LINK_VISIBLE); /* the definition, not the .extern */
    ck_assert_str_eq(v->name->text, "a");
    ck_assert_ptr_null(ptx_find_variable(m, "c", &v));
    ck_assert_ptr_null(v);
    ptx_context_free(ctx);
}
END_TEST

Suite *sema_suite(void)
{
    Suite *s = suite_create("sema");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, sema_cases_all_run);
    tcase_add_test(tc, sema_missed_still_missed);
    tcase_add_loop_test(tc, sema_group, 0, NGROUPS);
    tcase_add_test(tc, sema_redefinition_note);
    tcase_add_test(tc, sema_statements_alike_judged_each);
    tcase_add_test(tc, sema_answers_key_every_part);
    tcase_add_test(tc, sema_off_without_validation);
    tcase_add_test(tc, legacy_module_scope_local_warns);
    tcase_add_test(tc, sema_range_clash_past_2_28);
    tcase_add_test(tc, sema_many_ranges);
    suite_add_tcase(s, tc);
    tc = tcase_create("api");
    tcase_add_test(tc, resolve_names_kinds);
    tcase_add_test(tc, resolve_names_kept_answers);
    tcase_add_test(tc, resolve_names_unknown_and_stop);
    tcase_add_test(tc, names_of_two_contexts);
    tcase_add_test(tc, find_function_and_variable);
    suite_add_tcase(s, tc);
    return s;
}
