/* ptx-front: the control-flow graph of every kernel and function of a
 * module, and the module's call graph.
 *
 * ptx_graphs_build() reads a parsed module (labels and callees as the
 * semantic pass resolved them: ptx_resolve_names) and returns a
 * ptx_graphs handle that owns every graph, block, edge and loop it
 * describes.  All of it stays valid until ptx_graphs_free(), and as long as
 * the module's context: the graphs point into the tree (statements, labels,
 * guards, functions) and do not copy it.  Users read these structs; they do
 * not write them.
 *
 * Basic blocks.  A function body's statements (nested { } blocks
 * flattened, the block nodes themselves left out) are split into blocks:
 * a block starts at the first statement, at a label that a bra or a
 * .branchtargets list names, and after bra, brx.idx, ret, exit, trap and
 * a call to a .noreturn function (or through a .noreturn prototype).
 * Block 0 is the entry; a body without statements has one empty block.
 * After the blocks comes the exit node (index nblocks): no statements, the
 * target of ret, exit, trap, .noreturn calls and of falling off the end.
 *
 * Edges.  A block that does not end in one of those instructions falls
 * through to the next (the last one to the exit node).  bra goes to its
 * label's block, brx.idx to the block of each label of its
 * .branchtargets list (each once).  A guarded one (@p, @!p) also falls
 * through: the taken edges carry the guard, the fall-through edge the
 * guard negated.  A target that does not resolve (a module with errors)
 * gets no edge.
 *
 * Loops.  Dominators are computed over the blocks reachable from the
 * entry; an edge whose target dominates its source is a back edge, and
 * the back edges into one header make one natural loop: the header and
 * every block that reaches a back edge's source without passing the
 * header.  Loops are nested or disjoint; a block's loop depth is the
 * number of loops it is in.  A cycle entered at more than one block
 * (irreducible flow) has no back edge and is not a loop here.
 *
 * The call graph has a node for every kernel and function name of the
 * module (its definition when it has one, else its last declaration) and
 * an edge from each caller to each callee: direct calls; an indirect call
 * through a .calltargets list to each function in the list; one through a
 * .callprototype only to each non-kernel function with as many results
 * and parameters as the prototype, each of the same size in bytes.
 * Kernels are the roots.
 *
 * Editing.  The graphs describe the tree as it was when they were built.
 * After any change through the editing API (ptx_insert_before/after,
 * ptx_replace, ptx_remove, their ptx_module_* forms, ptx_declare_*), in
 * any module of the process, on any thread (edited nodes do not know
 * their module), the graphs are stale: ptx_graphs_stale() says so, ptx_graphs_count() is 0
 * and every accessor below returns NULL.  Their memory stays valid until
 * ptx_graphs_free(), so pointers taken before the edit do not dangle, but
 * they describe the old tree.  An instrumenter therefore takes from the
 * graphs what it will edit (ptx_cfg_stmt, ptx_cfg_stmt_block) first, then
 * edits, then builds the graphs again if it needs them.  (The printers
 * below build graphs of their own that nothing makes stale.)
 */
#ifndef PTX_CFG_H
#define PTX_CFG_H

#include <stdint.h>
#include "ptx.h"    /* ptx_status, ptx_context, the printers' types */

#ifdef __cplusplus
extern "C" {
#endif

/* "no block", "no loop", "no dominator" */
#define PTX_CFG_NONE UINT32_MAX

typedef enum ptx_edge_kind {
    PTX_EDGE_FALL = 0,      /* to the next block (or the exit node) */
    PTX_EDGE_BRANCH,        /* bra to its label */
    PTX_EDGE_SWITCH,        /* brx.idx to a label of its .branchtargets */
    PTX_EDGE_EXIT,          /* ret, exit, trap, a .noreturn call: to the exit node */
    PTX_EDGE_KIND_COUNT
} ptx_edge_kind;

typedef struct ptx_cfg_edge {
    uint32_t from, to;          /* block indices; `to` may be the exit node */
    uint8_t kind;               /* ptx_edge_kind */
    uint8_t back;               /* a back edge: `to` dominates `from` */
    uint8_t guard_neg;          /* taken when the guard is false (@!p, or
                                   the fall-through of @p) */
    uint8_t pad;
    const ptx_expr *guard;      /* the guard's predicate (a SYM), or NULL */
} ptx_cfg_edge;

typedef struct ptx_cfg_block {
    uint32_t first, count;      /* its statements: stmts[first, first + count) */
    const ptx_label *label;     /* its first label, or NULL */
    uint32_t ninstrs;           /* instructions among its statements */
    uint32_t nsucc, npred;
    const uint32_t *succ;       /* indices into the graph's edges */
    const uint32_t *pred;
    uint32_t idom;              /* the immediate dominator; PTX_CFG_NONE for
                                   the entry and unreachable blocks */
    uint32_t loop;              /* the innermost loop it is in, or PTX_CFG_NONE */
    uint32_t loop_depth;        /* 0 outside loops */
    uint8_t reachable;          /* from the entry */
    uint8_t loop_header;
} ptx_cfg_block;

typedef struct ptx_cfg_loop {
    uint32_t header;            /* block index */
    uint32_t parent;            /* the loop around it, or PTX_CFG_NONE */
    uint32_t depth;             /* 1 for an outermost loop */
    uint32_t nblocks;           /* its blocks, nested loops' included */
    const uint32_t *blocks;     /* ascending */
} ptx_cfg_loop;

typedef struct ptx_cfg {
    const ptx_func *func;
    uint32_t nstmts;
    const ptx_node *const *stmts;   /* the body's statements in source order;
                                       to edit, ptx_cfg_stmt() */
    uint32_t nblocks;               /* blocks; the exit node is blocks[nblocks] */
    const ptx_cfg_block *blocks;    /* nblocks + 1 entries */
    uint32_t nedges;
    const ptx_cfg_edge *edges;      /* by source block, in statement order */
    uint32_t nloops;
    const ptx_cfg_loop *loops;      /* by header index */
    uint32_t max_loop_depth;
    uint32_t ncalls;                /* call instructions in the body */
} ptx_cfg;

typedef enum ptx_call_kind {
    PTX_CALL_DIRECT = 0,    /* call f */
    PTX_CALL_TARGETS,       /* call %r, ..., T with T: .calltargets f, g */
    PTX_CALL_PROTOTYPE,     /* call %r, ..., P with P: .callprototype */
    PTX_CALL_KIND_COUNT
} ptx_call_kind;

typedef struct ptx_call_edge {
    uint32_t caller, callee;    /* indices into the call graph's functions */
    uint8_t kind;               /* ptx_call_kind */
    uint32_t sites;             /* call instructions that make this edge */
} ptx_call_edge;

typedef struct ptx_cg_func {
    const ptx_func *func;       /* the definition, or the last declaration */
    const ptx_cfg *cfg;         /* NULL without a body */
    uint8_t root;               /* a kernel */
    uint8_t recursive;          /* on a cycle of calls (itself included) */
    uint32_t nout, nin;
    const uint32_t *out;        /* indices into the call graph's edges */
    const uint32_t *in;
} ptx_cg_func;

typedef struct ptx_callgraph {
    uint32_t nfuncs;
    const ptx_cg_func *funcs;   /* in the order the names first appear */
    uint32_t nedges;
    const ptx_call_edge *edges; /* by caller, then callee, then kind */
} ptx_callgraph;

typedef struct ptx_graphs ptx_graphs;

/* Builds the graphs of `m` (a module from ptx_parse_*, whose context must
 * outlive the result).  On PTX_OK *out receives a handle the caller owns
 * and releases with ptx_graphs_free().  PTX_ERR_USAGE for a NULL argument,
 * PTX_ERR_NOMEM (then *out is NULL). */
ptx_status ptx_graphs_build(const ptx_module *m, ptx_graphs **out);

/* Releases the graphs; NULL is allowed. */
void ptx_graphs_free(ptx_graphs *g);

/* The control-flow graphs, one per function with a body, in source order:
 * the i-th (NULL when i is out of range) and the one of `f` (NULL when it
 * has no body or is not the module's). */
uint32_t ptx_graphs_count(const ptx_graphs *g);
const ptx_cfg *ptx_graphs_cfg(const ptx_graphs *g, uint32_t i);
const ptx_cfg *ptx_graphs_cfg_of(const ptx_graphs *g, const ptx_func *f);

/* The module's call graph. */
const ptx_callgraph *ptx_graphs_callgraph(const ptx_graphs *g);

/* True when the editing API changed a tree since `g` was built (see
 * Editing above): build the graphs again.  False for NULL. */
bool ptx_graphs_stale(const ptx_graphs *g);

/* For an editor, statement i of `c` (a graph from ptx_graphs_cfg,
 * ptx_graphs_cfg_of or the call graph, not a copy): the node itself, and
 * the innermost { } block it sits in (the function's body, or a block
 * nested in it), as ptx_insert_before / ptx_insert_after / ptx_replace /
 * ptx_remove take them.  Both are owned by the module's context.  NULL
 * when i >= c->nstmts or the graphs are stale. */
ptx_node *ptx_cfg_stmt(const ptx_cfg *c, uint32_t i);
ptx_block *ptx_cfg_stmt_block(const ptx_cfg *c, uint32_t i);

/* Spellings: "fall", "branch", "switch", "exit"; "direct", "calltargets",
 * "prototype"; NULL when out of range. */
const char *ptx_edge_kind_name(ptx_edge_kind k);
const char *ptx_call_kind_name(ptx_call_kind k);

enum {
    PTX_GRAPH_JSON = 1,     /* JSON (tools/graph.schema.json) instead of DOT */
    PTX_GRAPH_FULL = 2      /* --cfg=full: each block's instructions too */
};

/* ptx-front --cfg: the control-flow graph of each function `filter`
 * accepts (NULL: all), as Graphviz DOT, one digraph per function, or with
 * PTX_GRAPH_JSON as one JSON document.  `ctx` (may be NULL) gives the
 * file name and line numbers.  Builds the graphs and frees them. */
ptx_status ptx_print_cfg(const ptx_context *ctx, const ptx_module *m, unsigned flags,
                         ptx_print_filter filter, void *filter_user,
                         ptx_write_fn write, void *user);

/* ptx-front --callgraph: the call graph as one DOT digraph, or with
 * PTX_GRAPH_JSON one JSON document.  With a filter, only the functions
 * it accepts and those they call, directly or not. */
ptx_status ptx_print_callgraph(const ptx_context *ctx, const ptx_module *m, unsigned flags,
                               ptx_print_filter filter, void *filter_user,
                               ptx_write_fn write, void *user);

#ifdef __cplusplus
}
#endif

#endif
