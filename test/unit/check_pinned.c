/* Tests that pin what other tests only sample: every row of the gates
 * table (src/gates.c) has its accept and reject pair in
 * test/sema/gates.tsv, and the canonical layout keeps block comments
 * where they were (goldens in test/canonical/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "internal.h"

#define GATES_TSV "test/sema/gates.tsv"

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s (run the tests from the top of the tree)", path);
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
        got = fread(buf + len, 1, 4096, f);
        len += got;
    } while (got > 0);
    ck_assert_msg(!ferror(f), "cannot read %s", path);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* ---- gates.tsv has a pair for every row of the gates table ------------ */

typedef struct gate_case {
    const char *group, *name, *verdict, *module, *message;
} gate_case;

/* The rows of gates.tsv (pointers into *text, which is modified). */
static gate_case *gate_cases(char **text, size_t *n)
{
    *text = read_text(GATES_TSV);
    gate_case *cs = NULL;
    size_t cap = 0;
    *n = 0;
    for (char *line = *text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        char *f[8];
        unsigned k = 0;
        for (char *p = line; p && k < 8; k++) {
            f[k] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        ck_assert_msg(k == 8, "%s: a row of %u fields: %s", GATES_TSV, k, f[0]);
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            cs = realloc(cs, cap * sizeof *cs);
            ck_assert_ptr_nonnull(cs);
        }
        cs[(*n)++] = (gate_case){ f[0], f[1], f[2], f[4], f[7] };
    }
    return cs;
}

/* The PTX ISA versions, in order: a gate's reject case is in the one
 * before its version. */
static const char *const versions[] = {
    "1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3", "3.0", "3.1", "3.2",
    "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.1", "6.2", "6.3", "6.4", "6.5", "7.0", "7.1",
    "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2", "8.3", "8.4", "8.5",
    "8.6", "8.7", "8.8", "9.0",
};
/* and the targets, in order: a target gate's reject case is on the one below */
static const unsigned sms[] = { 10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61,
                                62, 70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120 };

/* the case whose name is `what` and a space and more, of this verdict,
 * whose module holds `in` (and `in2`) and whose message holds `with` (the
 * last two when not NULL); of group "gates", or "whole" for a feature
 * ptxas takes only in a whole program (not with -c) */
static const gate_case *find_case(const gate_case *cs, size_t n, const char *what,
                                  const char *verdict, const char *in, const char *in2,
                                  const char *with)
{
    size_t w = strlen(what);
    for (size_t i = 0; i < n; i++) {
        const gate_case *c = &cs[i];
        if ((!strcmp(c->group, "gates") || !strcmp(c->group, "whole")) &&
            !strncmp(c->name, what, w) && c->name[w] == ' ' &&
            !strcmp(c->verdict, verdict) && strstr(c->module, in) &&
            (!in2 || strstr(c->module, in2)) && (!with || strstr(c->message, with)))
            return c;
    }
    return NULL;
}

/* For each row of the table: a case ptxas accepts at its version (and
 * target), one at the version before that the row refuses (its message
 * names the row's version), and for a target gate one on the target below
 * (the message names the row's target).  check_sema replays them all: a
 * row whose gate moves fails its pair, and a row with no pair fails here. */
START_TEST(gates_rows_have_pairs)
{
    char *text;
    size_t n;
    gate_case *cs = gate_cases(&text, &n);
    size_t rows = 0;
    unsigned major, minor, sm;
    for (const char *what; (what = ptx_gate_row(rows, &major, &minor, &sm)) != NULL; rows++) {
        char v[16], in[64], msg[128];
        snprintf(v, sizeof v, "%u.%u", major, minor);
        size_t k = 0, nv = sizeof versions / sizeof versions[0];
        while (k < nv && strcmp(versions[k], v) != 0)
            k++;
        ck_assert_msg(k > 0 && k < nv, "gates[] row '%s': %s is no PTX ISA version after 1.0", what, v);
        /* at its version, on its target (or any) */
        snprintf(in, sizeof in, ".version %s\\n", v);
        char target[32];
        snprintf(target, sizeof target, "\\n.target sm_%u", sm);  /* + 2: ".target sm_NN" */
        ck_assert_msg(find_case(cs, n, what, "accept", in, sm ? target : NULL, NULL) != NULL,
                      "gates[] row '%s' (%s%s%s): no accept case in " GATES_TSV
                      " named '%s ...' with .version %s%s%s", what, v, sm ? ", " : "",
                      sm ? target + 2 : "", what, v, sm ? " and " : "", sm ? target + 2 : "");
        /* the version before */
        snprintf(in, sizeof in, ".version %s\\n", versions[k - 1]);
        snprintf(msg, sizeof msg, "'%s' requires PTX ISA .version %s or later", what, v);
        ck_assert_msg(find_case(cs, n, what, "reject", in, NULL, msg) != NULL,
                      "gates[] row '%s' (%s): no reject case in " GATES_TSV
                      " named '%s ...' with .version %s and the message \"%s\"", what, v, what,
                      versions[k - 1], msg);
        if (!sm)
            continue;
        /* the target below */
        size_t t = 0, nt = sizeof sms / sizeof sms[0];
        while (t < nt && sms[t] != sm)
            t++;
        ck_assert_msg(t > 0 && t < nt, "gates[] row '%s': no target below sm_%u", what, sm);
        snprintf(in, sizeof in, "\\n.target sm_%u\\n", sms[t - 1]);
        snprintf(msg, sizeof msg, "'%s' requires .target sm_%u or higher", what, sm);
        ck_assert_msg(find_case(cs, n, what, "reject", in, NULL, msg) != NULL,
                      "gates[] row '%s' (sm_%u): no reject case in " GATES_TSV
                      " named '%s ...' on sm_%u with the message \"%s\"", what, sm, what, sms[t - 1],
                      msg);
    }
    ck_assert_msg(rows > 20, "the gates table has only %zu rows", rows);
    free(cs);
    free(text);
}
END_TEST

/* ---- the canonical layout keeps block comments ---------------------- */

/* test/canonical/NAME.ptx printed in the canonical layout (ptx-front
 * --emit-ptx --canonical) is NAME.expected, each comment in it; that
 * printed again is itself. */
static const char *const canonical_cases[] = {
    "module_scope",       /* before the header, after .version, between declarations, at the end */
    "between_statements", /* after a declaration, alone on a line, two on one line, after a label */
    "inside_instruction", /* between operands, in the opcode, in an address, in the parameters */
    "multi_line",         /* over several lines: at module scope, in a body, after and inside a statement */
};

static char *canonical_text(const char *text)
{
    ptx_context *ctx = ptx_context_new();
    ck_assert_ptr_nonnull(ctx);
    const ptx_module *m;
    ck_assert_int_eq(ptx_parse_buffer(ctx, "t.ptx", text, strlen(text), &m), PTX_OK);
    test_buf out = { 0 };
    ck_assert_int_eq(ptx_print_ptx_canonical(ctx, m, NULL, NULL, test_buf_write, &out), PTX_OK);
    ptx_context_free(ctx);
    ck_assert_ptr_nonnull(out.p);
    return out.p;
}

START_TEST(canonical_keeps_block_comments)
{
    char path[128];
    snprintf(path, sizeof path, "test/canonical/%s.ptx", canonical_cases[_i]);
    char *src = read_text(path);
    snprintf(path, sizeof path, "test/canonical/%s.expected", canonical_cases[_i]);
    char *want = read_text(path);
    char *got = canonical_text(src);
    TEST_ASSERT_SAME_TEXT(got, want);
    char *again = canonical_text(got);
    TEST_ASSERT_SAME_TEXT(again, got);
    free(again);
    free(got);
    free(want);
    free(src);
}
END_TEST

Suite *pinned_suite(void)
{
    Suite *s = suite_create("pinned");
    TCase *tc = tcase_create("pinned");
    tcase_add_test(tc, gates_rows_have_pairs);
    tcase_add_loop_test(tc, canonical_keeps_block_comments, 0,
                        (int)(sizeof canonical_cases / sizeof canonical_cases[0]));
    suite_add_tcase(s, tc);
    return s;
}
