/* Control-flow graphs and the call graph (src/cfg.c): the blocks, edges,
 * dominators and loops of hand-written kernels, each a module ptxas
 * accepts, written down as a short text (graph_text) and compared whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "internal.h"   /* ptx_graphs_build_pinned */

/* "blocks N | from>to kind[@guard][ back] ... | idom i,j,... | loop
 * header depth parent {blocks} ...": a graph as one line. */
static void graph_text(const ptx_cfg *c, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "blocks %u |", c->nblocks);
    for (uint32_t i = 0; i < c->nedges && n < cap; i++) {
        const ptx_cfg_edge *e = &c->edges[i];
        n += (size_t)snprintf(out + n, cap - n, " %u>%u %s%s%s%s", e->from, e->to,
                              ptx_edge_kind_name((ptx_edge_kind)e->kind), e->guard ? (e->guard_neg ? "@!" : "@") : "",
                              e->guard ? ptx_expr_name(e->guard)->text : "", e->back ? " back" : "");
    }
    n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, " | idom");
    for (uint32_t k = 1; k <= c->nblocks && n < cap; k++) {
        if (c->blocks[k].idom == PTX_CFG_NONE)
            n += (size_t)snprintf(out + n, cap - n, " -");
        else
            n += (size_t)snprintf(out + n, cap - n, " %u", c->blocks[k].idom);
    }
    for (uint32_t i = 0; i < c->nloops && n < cap; i++) {
        const ptx_cfg_loop *l = &c->loops[i];
        n += (size_t)snprintf(out + n, cap - n, " | loop %u depth %u in %d {", l->header, l->depth,
                              l->parent == PTX_CFG_NONE ? -1 : (int)l->parent);
        for (uint32_t j = 0; j < l->nblocks && n < cap; j++)
            n += (size_t)snprintf(out + n, cap - n, j ? ",%u" : "%u", l->blocks[j]);
        n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "}");
    }
}

/* Parses `text` (it must be valid) and builds its graphs. */
static ptx_graphs *graphs_of(ptx_context **ctx, const char *text)
{
    const ptx_module *m = test_parse_text(ctx, text, strlen(text), true);
    ck_assert_msg(m && ptx_error_count(*ctx) == 0, "the test module does not parse cleanly");
    ptx_graphs *g = NULL;
    ck_assert_int_eq(ptx_graphs_build(m, &g), PTX_OK);
    return g;
}

/* The graph of the only (or the last) function of `body` inside kernel k. */
static void check_kernel(const char *decls, const char *body, const char *want)
{
    char text[4096], got[4096];
    snprintf(text, sizeof text, TEST_HDR "%s.visible .entry k(.param .u32 n)\n{\n"
             "    .reg .u32 %%r<8>;\n    .reg .pred %%p<4>;\n%s\n}\n", decls, body);
    ptx_context *ctx;
    ptx_graphs *g = graphs_of(&ctx, text);
    const ptx_cfg *c = ptx_graphs_cfg(g, ptx_graphs_count(g) - 1);
    ck_assert_ptr_nonnull(c);
    graph_text(c, got, sizeof got);
    ck_assert_str_eq(got, want);
    ptx_graphs_free(g);
    ptx_context_free(ctx);
}

START_TEST(straight_line)
{
    check_kernel("", "    ld.param.u32 %r1, [n];\n    add.u32 %r2, %r1, 1;\n    ret;",
                 "blocks 1 | 0>1 exit | idom 0");
    /* no ret: the end of the body falls to the exit node */
    check_kernel("", "    ld.param.u32 %r1, [n];", "blocks 1 | 0>1 fall | idom 0");
    /* a label no branch names does not start a block */
    check_kernel("", "    mov.u32 %r1, 1;\nL1:\n    add.u32 %r1, %r1, 1;", "blocks 1 | 0>1 fall | idom 0");
}
END_TEST

START_TEST(if_else)
{
    check_kernel("",
                 "    ld.param.u32 %r1, [n];\n"
                 "    setp.eq.u32 %p1, %r1, 0;\n"
                 "    @%p1 bra ELSE;\n"
                 "    add.u32 %r2, %r1, 1;\n"
                 "    bra.uni END;\n"
                 "ELSE:\n"
                 "    sub.u32 %r2, %r1, 1;\n"
                 "END:\n"
                 "    ret;",
                 "blocks 4 | 0>2 branch@%p1 0>1 fall@!%p1 1>3 branch 2>3 fall 3>4 exit | idom 0 0 0 3");
}
END_TEST

START_TEST(nested_loops)
{
    check_kernel("",
                 "    ld.param.u32 %r1, [n];\n"
                 "    mov.u32 %r2, 0;\n"
                 "OUTER:\n"
                 "    mov.u32 %r3, 0;\n"
                 "INNER:\n"
                 "    add.u32 %r3, %r3, 1;\n"
                 "    setp.lt.u32 %p1, %r3, %r1;\n"
                 "    @%p1 bra INNER;\n"
                 "    add.u32 %r2, %r2, 1;\n"
                 "    setp.lt.u32 %p2, %r2, %r1;\n"
                 "    @!%p2 bra DONE;\n"
                 "    bra OUTER;\n"
                 "DONE:\n"
                 "    ret;",
                 "blocks 6 | 0>1 fall 1>2 fall 2>2 branch@%p1 back 2>3 fall@!%p1 3>5 branch@!%p2 3>4 fall@%p2"
                 " 4>1 branch back 5>6 exit | idom 0 1 2 3 3 5"
                 " | loop 1 depth 1 in -1 {1,2,3,4} | loop 2 depth 2 in 0 {2}");
}
END_TEST

START_TEST(brx_switch)
{
    check_kernel("",
                 "    ts: .branchtargets C0, C1, C2, C1;\n"
                 "    ld.param.u32 %r1, [n];\n"
                 "    brx.idx %r1, ts;\n"
                 "C0:\n"
                 "    mov.u32 %r2, 0;\n"
                 "    bra END;\n"
                 "C1:\n"
                 "    mov.u32 %r2, 1;\n"
                 "    bra END;\n"
                 "C2:\n"
                 "    mov.u32 %r2, 2;\n"
                 "END:\n"
                 "    ret;",
                 /* C1 is listed twice: one edge */
                 "blocks 5 | 0>1 switch 0>2 switch 0>3 switch 1>4 branch 2>4 branch 3>4 fall 4>5 exit"
                 " | idom 0 0 0 0 4");
}
END_TEST

/* Thousands of blocks that all branch to one exit, then to one loop
 * header (the second block: the first holds the declaration too): each
 * block's dominator is the one before it, the exit's the first (or, with
 * no branch to it, the last); one loop of all but the first.  (The iterative
 * dominators walked the chain for each branch: 80,000 blocks, 12 s.) */
START_TEST(dominators_of_many_branches)
{
    enum { N = 3000 };
    for (int shape = 0; shape < 2; shape++) {
        size_t cap = 40 * (size_t)N + 512, len = 0;
        char *text = malloc(cap);
        ck_assert_ptr_nonnull(text);
        len += (size_t)snprintf(text, cap, TEST_HDR ".visible .entry k()\n{\n.reg .pred %%p;\n");
        for (int i = 0; i < N; i++)
            len += (size_t)snprintf(text + len, cap - len, "L%d:\n@%%p bra %s;\n", i,
                                    shape ? "L1" : "END");
        len += (size_t)snprintf(text + len, cap - len, "END:\nret;\n}\n");
        ck_assert_uint_lt(len, cap);
        ptx_context *ctx;
        ptx_graphs *g = graphs_of(&ctx, text);
        const ptx_cfg *c = ptx_graphs_cfg(g, 0);
        /* blocks L0..L(N-1), END, then the exit node */
        ck_assert_uint_eq(c->nblocks, N + 1);
        for (uint32_t k = 1; k < N; k++)
            ck_assert_uint_eq(c->blocks[k].idom, k - 1);
        ck_assert_uint_eq(c->blocks[N].idom, shape ? N - 1 : 0);
        ck_assert_uint_eq(c->blocks[N + 1].idom, N);
        if (shape) {
            ck_assert_uint_eq(c->nloops, 1);
            ck_assert_uint_eq(c->loops[0].header, 1);
            ck_assert_uint_eq(c->loops[0].nblocks, N - 1);
        } else {
            ck_assert_uint_eq(c->nloops, 0);
        }
        ptx_graphs_free(g);
        ptx_context_free(ctx);
        free(text);
    }
}
END_TEST

START_TEST(early_exit)
{
    check_kernel("",
                 "    ld.param.u32 %r1, [n];\n"
                 "    setp.eq.u32 %p1, %r1, 0;\n"
                 "    @%p1 exit;\n"
                 "    add.u32 %r2, %r1, 1;\n"
                 "    @!%p1 ret;\n"
                 "    trap;\n"
                 "    mov.u32 %r3, 1;",
                 /* B3 (after trap) is unreachable: no dominator */
                 "blocks 4 | 0>4 exit@%p1 0>1 fall@!%p1 1>4 exit@!%p1 1>2 fall@%p1 2>4 exit 3>4 fall"
                 " | idom 0 1 - 0");
}
END_TEST

START_TEST(noreturn_call)
{
    check_kernel(".func stop() .noreturn\n{\n    trap;\n}\n",
                 "    ld.param.u32 %r1, [n];\n"
                 "    call stop;\n"
                 "    add.u32 %r2, %r1, 1;",
                 "blocks 2 | 0>2 exit 1>2 fall | idom - 0");
}
END_TEST

/* A call through a .callprototype marked .noreturn returns no more than a
 * direct call of a .noreturn function: the statements after it start a
 * block no edge reaches; guarded, the call goes to the exit node when its
 * guard holds and falls through when not.  Through a prototype without
 * .noreturn the call returns.  (ptxas 13.0 accepts each kernel.) */
START_TEST(noreturn_prototype_call)
{
    static const char decls[] = ".func stop() .noreturn\n{\n    trap;\n}\n";
    check_kernel(decls,
                 "    .reg .u64 %rd1;\n"
                 "    mov.u64 %rd1, stop;\n"
                 "P: .callprototype _ () .noreturn;\n"
                 "    call %rd1, P;\n"
                 "    add.u32 %r2, %r1, 1;",
                 "blocks 2 | 0>2 exit 1>2 fall | idom - 0");
    check_kernel(decls,
                 "    .reg .u64 %rd1;\n"
                 "    ld.param.u32 %r1, [n];\n"
                 "    setp.eq.u32 %p1, %r1, 0;\n"
                 "    mov.u64 %rd1, stop;\n"
                 "P: .callprototype _ () .noreturn;\n"
                 "    @%p1 call.uni %rd1, P;\n"
                 "    add.u32 %r2, %r1, 1;",
                 "blocks 2 | 0>2 exit@%p1 0>1 fall@!%p1 1>2 fall | idom 0 0");
    check_kernel(".func go()\n{\n    ret;\n}\n",
                 "    .reg .u64 %rd1;\n"
                 "    mov.u64 %rd1, go;\n"
                 "P: .callprototype _ ();\n"
                 "    call %rd1, P;\n"
                 "    add.u32 %r2, %r1, 1;",
                 "blocks 1 | 0>1 fall | idom 0");
}
END_TEST

START_TEST(irreducible_is_no_loop)
{
    /* a cycle entered at two blocks: no block dominates the other */
    check_kernel("",
                 "    ld.param.u32 %r1, [n];\n"
                 "    setp.eq.u32 %p1, %r1, 0;\n"
                 "    @%p1 bra B;\n"
                 "A:\n"
                 "    add.u32 %r1, %r1, 1;\n"
                 "B:\n"
                 "    add.u32 %r1, %r1, 2;\n"
                 "    bra A;",
                 "blocks 3 | 0>2 branch@%p1 0>1 fall@!%p1 1>2 fall 2>1 branch | idom 0 0 -");
}
END_TEST

/* The call graph as "name:flags ..." (r root, c recursive) and edges. */
static void callgraph_text(const ptx_callgraph *cg, char *out, size_t cap)
{
    size_t n = 0;
    for (uint32_t i = 0; i < cg->nfuncs && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s%s%s%s", i ? " " : "", cg->funcs[i].func->name->text,
                              cg->funcs[i].root ? ":root" : "", cg->funcs[i].recursive ? ":rec" : "");
    for (uint32_t i = 0; i < cg->nedges && n < cap; i++) {
        const ptx_call_edge *e = &cg->edges[i];
        n += (size_t)snprintf(out + n, cap - n, " | %s>%s %s x%u", cg->funcs[e->caller].func->name->text,
                              cg->funcs[e->callee].func->name->text,
                              ptx_call_kind_name((ptx_call_kind)e->kind), e->sites);
    }
}

START_TEST(recursion)
{
    static const char text[] = TEST_HDR
        ".func (.reg .u32 r) fact(.reg .u32 x)\n"
        "{\n"
        "    .reg .pred p;\n"
        "    .reg .u32 t;\n"
        "    setp.le.u32 p, x, 1;\n"
        "    @p bra BASE;\n"
        "    sub.u32 t, x, 1;\n"
        "    call (t), fact, (t);\n"
        "    mul.lo.u32 r, t, x;\n"
        "    ret;\n"
        "BASE:\n"
        "    mov.u32 r, 1;\n"
        "    ret;\n"
        "}\n"
        ".func (.reg .u32 r) odd(.reg .u32 x);\n"
        ".func (.reg .u32 r) even(.reg .u32 x)\n"
        "{\n"
        "    call (r), odd, (x);\n"
        "    ret;\n"
        "}\n"
        ".func (.reg .u32 r) odd(.reg .u32 x)\n"
        "{\n"
        "    call (r), even, (x);\n"
        "    ret;\n"
        "}\n"
        ".func (.reg .u32 r) leaf(.reg .u32 x)\n"
        "{\n"
        "    mov.u32 r, x;\n"
        "    ret;\n"
        "}\n"
        ".func (.reg .u64 r) wide(.reg .u64 x)\n"
        "{\n"
        "    mov.u64 r, x;\n"
        "    ret;\n"
        "}\n"
        ".visible .entry k()\n"
        "{\n"
        "    .reg .u32 %r<4>;\n"
        "    .reg .u64 %rd<2>;\n"
        "    fl: .calltargets leaf, fact;\n"
        "    fp: .callprototype (.param .u64 _) _ (.param .u64 _);\n"
        "    call (%r1), fact, (%r2);\n"
        "    call (%r1), fact, (%r1);\n"
        "    call (%r1), even, (%r1);\n"
        "    mov.u64 %rd1, leaf;\n"
        "    call (%r1), %rd1, (%r1), fl;\n"
        "    call (%rd1), %rd1, (%rd1), fp;\n"
        "    ret;\n"
        "}\n";
    ptx_context *ctx;
    ptx_graphs *g = graphs_of(&ctx, text);
    char got[2048];
    callgraph_text(ptx_graphs_callgraph(g), got, sizeof got);
    /* fp matches only wide (one 8-byte result and parameter); calls
     * through fl go to both of its functions */
    ck_assert_str_eq(got, "fact:rec odd:rec even:rec leaf wide k:root"
                          " | fact>fact direct x1 | odd>even direct x1 | even>odd direct x1"
                          " | k>fact direct x2 | k>fact calltargets x1 | k>even direct x1"
                          " | k>leaf calltargets x1 | k>wide prototype x1");
    /* calls per function, and the graphs hang off the call graph's nodes */
    const ptx_callgraph *cg = ptx_graphs_callgraph(g);
    ck_assert_uint_eq(cg->funcs[5].cfg->ncalls, 5);
    ck_assert_ptr_eq(cg->funcs[1].cfg->func, cg->funcs[1].func);
    ck_assert_ptr_nonnull(cg->funcs[1].func->body);
    ck_assert_ptr_eq(ptx_graphs_cfg_of(g, cg->funcs[0].func), cg->funcs[0].cfg);
    ptx_graphs_free(g);
    ptx_context_free(ctx);
}
END_TEST

/* Nothing to build from: a module without functions, an empty body (the
 * empty arrays once went to qsort and memcpy as NULL: UBSan's error). */
START_TEST(empty)
{
    ptx_context *ctx;
    ptx_graphs *g = graphs_of(&ctx, TEST_HDR ".global .u32 v;\n");
    ck_assert_uint_eq(ptx_graphs_count(g), 0);
    ck_assert_uint_eq(ptx_graphs_callgraph(g)->nfuncs, 0);
    ptx_graphs_free(g);
    ptx_context_free(ctx);
    char got[256];
    g = graphs_of(&ctx, TEST_HDR ".visible .entry k()\n{\n}\n");
    graph_text(ptx_graphs_cfg(g, 0), got, sizeof got);
    ck_assert_str_eq(got, "blocks 1 | 0>1 fall | idom 0");
    ck_assert_uint_eq(ptx_graphs_cfg(g, 0)->blocks[0].count, 0);
    ptx_graphs_free(g);
    ptx_context_free(ctx);
}
END_TEST

START_TEST(usage)
{
    ptx_graphs *g = (ptx_graphs *)&g;
    ck_assert_int_eq(ptx_graphs_build(NULL, &g), PTX_ERR_USAGE);
    ck_assert_ptr_null(g);
    ck_assert_uint_eq(ptx_graphs_count(NULL), 0);
    ck_assert_ptr_null(ptx_graphs_cfg(NULL, 0));
    ck_assert_ptr_null(ptx_edge_kind_name(PTX_EDGE_KIND_COUNT));
    ck_assert_ptr_null(ptx_call_kind_name(PTX_CALL_KIND_COUNT));
    ptx_graphs_free(NULL);
}
END_TEST

/* The DOT of a guarded branch and a loop: the guard on the edge, the
 * header and back edge drawn apart from the rest. */
START_TEST(dot_output)
{
    static const char text[] = TEST_HDR ".visible .entry k()\n{\n    .reg .pred %p1;\n"
                               "L:\n    @%p1 bra L;\n    ret;\n}\n";
    ptx_context *ctx;
    const ptx_module *m = test_parse_text(&ctx, text, strlen(text), true);
    test_buf b = { 0 };
    ck_assert_int_eq(ptx_print_cfg(ctx, m, 0, NULL, NULL, test_buf_write, &b), PTX_OK);
    TEST_ASSERT_SAME_TEXT(b.p,
        "digraph \"cfg\" {\n"
        "  graph [label=\"control flow of t.ptx\", labelloc=t, fontname=\"Helvetica\"];\n"
        "  node [shape=box, fontname=\"Courier\", fontsize=10];\n"
        "  edge [fontname=\"Helvetica\", fontsize=9];\n"
        "  subgraph \"cluster_f0\" {\n"
        "    graph [label=\"kernel k\"];\n"
        "    f0b0 [label=\"B0\\nline 6\"];\n"
        "    f0b1 [label=\"B1  L\\nlines 7-8\\nloop header, depth 1\", style=filled, fillcolor=\"#fff2b3\", penwidth=2];\n"
        "    f0b2 [label=\"B2\\nline 9\"];\n"
        "    f0b3 [label=\"exit\", shape=oval];\n"
        "    f0b0 -> f0b1;\n"
        "    f0b1 -> f0b1 [label=\"@%p1\", color=red, penwidth=2, style=bold];\n"
        "    f0b1 -> f0b2 [label=\"@!%p1\"];\n"
        "    f0b2 -> f0b3 [style=dotted];\n"
        "  }\n"
        "}\n");
    free(b.p);
    ptx_context_free(ctx);
}
END_TEST

/* Each statement's innermost { } block and the statement itself, as the
 * editing API takes them: the body, a block nested in it, one nested in
 * that, and back out (an empty block has no statement) */
START_TEST(stmt_blocks)
{
    static const char text[] = TEST_HDR ".visible .entry k()\n{\n"
                               "    .reg .u32 %r<4>;\n"
                               "    mov.u32 %r1, 1;\n"
                               "    {\n"
                               "        .reg .u32 %t;\n"
                               "        {\n"
                               "            add.u32 %r1, %r1, 1;\n"
                               "        }\n"
                               "        mov.u32 %t, %r1;\n"
                               "    }\n"
                               "    {\n"
                               "    }\n"
                               "    ret;\n"
                               "}\n";
    ptx_context *ctx;
    ptx_graphs *g = graphs_of(&ctx, text);
    const ptx_cfg *c = ptx_graphs_cfg(g, 0);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(c->nstmts, 6);
    ptx_block *body = c->func->body;
    ptx_block *outer = (ptx_block *)body->first->next->next;
    ck_assert_int_eq(outer->base.kind, PTX_NODE_BLOCK);
    ptx_block *inner = (ptx_block *)outer->first->next;
    ck_assert_int_eq(inner->base.kind, PTX_NODE_BLOCK);
    ptx_block *const want[] = { body, body, outer, inner, outer, body };
    for (uint32_t i = 0; i < c->nstmts; i++) {
        ck_assert_ptr_eq(ptx_cfg_stmt_block(c, i), want[i]);
        ck_assert_ptr_eq(ptx_cfg_stmt(c, i), c->stmts[i]);
    }
    ck_assert_ptr_null(ptx_cfg_stmt(c, c->nstmts));
    ck_assert_ptr_null(ptx_cfg_stmt_block(c, c->nstmts));
    ck_assert_ptr_null(ptx_cfg_stmt(NULL, 0));
    ck_assert_ptr_null(ptx_cfg_stmt_block(NULL, 0));
    /* no cast between the graph and the editor: a fence before the add,
     * in the innermost block */
    ptx_instr *fence = ptx_new_instr(ctx, "membar.cta", NULL, 0);
    ck_assert_ptr_nonnull(fence);
    ck_assert_int_eq(ptx_insert_before(ptx_cfg_stmt_block(c, 3), ptx_cfg_stmt(c, 3), &fence->base), PTX_OK);
    ck_assert_ptr_eq(inner->first, &fence->base);
    ptx_graphs_free(g);
    ptx_context_free(ctx);
    /* every statement in one nested block, none in the body itself; and
     * none nested (the body's, kept as no run at all) */
    g = graphs_of(&ctx, TEST_HDR ".visible .entry k()\n{\n    {\n        ret;\n    }\n}\n"
                        ".visible .entry j()\n{\n    ret;\n}\n");
    c = ptx_graphs_cfg(g, 0);
    ck_assert_ptr_eq(ptx_cfg_stmt_block(c, 0), (ptx_block *)c->func->body->first);
    ck_assert_ptr_ne(ptx_cfg_stmt_block(c, 0), c->func->body);
    c = ptx_graphs_cfg(g, 1);
    ck_assert_ptr_eq(ptx_cfg_stmt_block(c, 0), c->func->body);
    ptx_graphs_free(g);
    ptx_context_free(ctx);
}
END_TEST

/* An instrumenter's loop: take from the graphs the first statement of
 * every basic block, edit, build again: one fence per block, each at the
 * head of the block it was put in, the graph's shape unchanged */
START_TEST(instrument_blocks)
{
    static const char text[] = TEST_HDR ".visible .entry k(.param .u32 n)\n{\n"
                               "    .reg .u32 %r<4>;\n    .reg .pred %p;\n"
                               "    ld.param.u32 %r1, [n];\n"
                               "L:\n"
                               "    {\n"
                               "        sub.u32 %r1, %r1, 1;\n"
                               "        setp.ne.u32 %p, %r1, 0;\n"
                               "        @%p bra L;\n"
                               "    }\n"
                               "    ret;\n"
                               "}\n";
    ptx_context *ctx;
    ptx_graphs *g = graphs_of(&ctx, text);
    const ptx_cfg *c = ptx_graphs_cfg(g, 0);
    char before[1024], after[1024];
    graph_text(c, before, sizeof before);
    uint32_t nb = c->nblocks, nstmts = c->nstmts;
    ptx_block *blocks[8];
    ptx_node *heads[8];
    ck_assert_uint_le(nb, 8);
    for (uint32_t k = 0; k < nb; k++) {
        /* after a label, so that the fence is inside the block */
        uint32_t i = c->blocks[k].first;
        while (c->stmts[i]->kind != PTX_NODE_INSTR)
            i++;
        blocks[k] = ptx_cfg_stmt_block(c, i);
        heads[k] = ptx_cfg_stmt(c, i);
    }
    for (uint32_t k = 0; k < nb; k++) {
        ptx_instr *fence = ptx_new_instr(ctx, "membar.cta", NULL, 0);
        ck_assert_int_eq(ptx_insert_before(blocks[k], heads[k], &fence->base), PTX_OK);
    }
    ptx_graphs_free(g);
    ck_assert_int_eq(ptx_validate(ctx), PTX_OK);
    ck_assert_int_eq(ptx_graphs_build(ptx_context_module(ctx), &g), PTX_OK);
    c = ptx_graphs_cfg(g, 0);
    graph_text(c, after, sizeof after);
    ck_assert_str_eq(after, before);
    ck_assert_uint_eq(c->nstmts, nstmts + nb);
    for (uint32_t k = 0; k < nb; k++) {
        uint32_t i = c->blocks[k].first;
        while (c->stmts[i]->kind != PTX_NODE_INSTR)
            i++;
        ck_assert_str_eq(ptx_instr_opcode((const ptx_instr *)c->stmts[i])->text, "membar");
    }
    ptx_graphs_free(g);
    ptx_context_free(ctx);
}
END_TEST

/* After an edit the graphs are stale: every accessor gives nothing (no
 * crash, no answer about the old tree); built again they are fine */
START_TEST(stale_after_edit)
{
    static const char text[] = TEST_HDR ".visible .entry k()\n{\n    .reg .u32 %r1;\n"
                               "    mov.u32 %r1, 1;\n    ret;\n}\n";
    ptx_context *ctx;
    ptx_graphs *g = graphs_of(&ctx, text);
    const ptx_cfg *c = ptx_graphs_cfg(g, 0);
    const ptx_func *f = c->func;
    ck_assert(!ptx_graphs_stale(g));
    ck_assert(!ptx_graphs_stale(NULL));
    ptx_block *body = ptx_cfg_stmt_block(c, 1);
    ptx_node *mov = ptx_cfg_stmt(c, 1);
    ptx_instr *fence = ptx_new_instr(ctx, "membar.cta", NULL, 0);
    /* an instruction made is no edit yet */
    ck_assert(!ptx_graphs_stale(g));
    ck_assert_int_eq(ptx_insert_after(body, mov, &fence->base), PTX_OK);
    ck_assert(ptx_graphs_stale(g));
    ck_assert_uint_eq(ptx_graphs_count(g), 0);
    ck_assert_ptr_null(ptx_graphs_cfg(g, 0));
    ck_assert_ptr_null(ptx_graphs_cfg_of(g, f));
    ck_assert_ptr_null(ptx_graphs_callgraph(g));
    ck_assert_ptr_null(ptx_cfg_stmt(c, 1));
    ck_assert_ptr_null(ptx_cfg_stmt_block(c, 1));
    /* a removal too, and graphs built in between go stale with it */
    ptx_graphs *g2 = NULL;
    ck_assert_int_eq(ptx_graphs_build(ptx_context_module(ctx), &g2), PTX_OK);
    ck_assert(!ptx_graphs_stale(g2));
    ck_assert_uint_eq(ptx_graphs_cfg_of(g2, f)->nstmts, 4);
    ck_assert_int_eq(ptx_remove(ctx, body, &fence->base), PTX_OK);
    ck_assert(ptx_graphs_stale(g2));
    ck_assert(ptx_graphs_stale(g));
    ptx_graphs_free(g2);
    ptx_graphs_free(g);
    ck_assert_int_eq(ptx_graphs_build(ptx_context_module(ctx), &g), PTX_OK);
    ck_assert(!ptx_graphs_stale(g));
    ck_assert_uint_eq(ptx_graphs_count(g), 1);
    ck_assert_uint_eq(ptx_graphs_cfg_of(g, f)->nstmts, 3);
    ck_assert_ptr_nonnull(ptx_graphs_callgraph(g));
    ptx_graphs_free(g);
    ptx_context_free(ctx);
}
END_TEST

/* The graphs the library's printers build for themselves do not go stale:
 * an edit of another module (another thread's, say) cannot take them away
 * while --cfg or --stats reads them */
START_TEST(printers_graphs_stay)
{
    static const char text[] = TEST_HDR ".visible .entry k()\n{\n    ret;\n}\n";
    ptx_context *ctx, *other;
    const ptx_module *m = test_parse_text(&ctx, text, strlen(text), true);
    const ptx_module *m2 = test_parse_text(&other, text, strlen(text), true);
    ptx_graphs *pinned = NULL, *g = NULL;
    ck_assert_int_eq(ptx_graphs_build_pinned(m, &pinned), PTX_OK);
    ck_assert_int_eq(ptx_graphs_build(m, &g), PTX_OK);
    ptx_instr *fence = ptx_new_instr(other, "membar.cta", NULL, 0);
    ck_assert_int_eq(ptx_insert_after(ptx_find_function(m2, "k")->body, NULL, &fence->base), PTX_OK);
    ck_assert(ptx_graphs_stale(g));
    ck_assert(!ptx_graphs_stale(pinned));
    ck_assert_uint_eq(ptx_graphs_count(pinned), 1);
    ck_assert_ptr_nonnull(ptx_cfg_stmt(ptx_graphs_cfg(pinned, 0), 0));
    ptx_graphs_free(pinned);
    ptx_graphs_free(g);
    ptx_context_free(other);
    ptx_context_free(ctx);
}
END_TEST

Suite *cfg_suite(void)
{
    Suite *s = suite_create("cfg");
    TCase *tc = tcase_create("graphs");
    tcase_add_test(tc, straight_line);
    tcase_add_test(tc, dominators_of_many_branches);
    tcase_add_test(tc, if_else);
    tcase_add_test(tc, nested_loops);
    tcase_add_test(tc, brx_switch);
    tcase_add_test(tc, early_exit);
    tcase_add_test(tc, noreturn_call);
    tcase_add_test(tc, noreturn_prototype_call);
    tcase_add_test(tc, irreducible_is_no_loop);
    tcase_add_test(tc, recursion);
    tcase_add_test(tc, empty);
    tcase_add_test(tc, usage);
    tcase_add_test(tc, dot_output);
    tcase_add_test(tc, stmt_blocks);
    tcase_add_test(tc, instrument_blocks);
    tcase_add_test(tc, stale_after_edit);
    tcase_add_test(tc, printers_graphs_stay);
    suite_add_tcase(s, tc);
    return s;
}
