/* The PTX 9.0 grammar.  Its actions call the builders (src/build_*.c): one
 * builder per construct, plus the marks and pushes that collect list
 * items.  Lists are left-recursive so that neither long lists nor deep
 * nesting grow the C stack; list items collect on the context's scratch
 * stack ("marks") or in linked lists, never through recursion.  An
 * instruction is read by its shape (opcode, dot-words, operands) whatever
 * its opcode; the instruction tables check it later (src/isa_check.c).
 * The common statement shapes arrive whole from the scanner's fast lane
 * (SIMPLE, STMTS, LOCLINE, LABEL and DATARUN tokens), built by
 * src/fastlane.c with the same builders in the order these rules call
 * them (the statements as the scanner takes them, a token ahead);
 * ptx_context_set_fast_lane(ctx, false) sends them through these rules
 * instead. */

%require "3.8"
%define api.pure full
%define api.prefix {ptx_yy}
%define api.token.prefix {T_}
%define api.location.type {ptx_loc_t}
%define parse.error custom
/* LALR with lookahead correction: before acting on a lookahead the parser
 * checks that the token can be shifted, so default reductions neither
 * delay the error nor change the tokens it lists as expected */
%define lr.type lalr
%define parse.lac full
%locations
%initial-action { ptx_yy_arena = &pp->ctx->arena; }
%expect 0
%param {ptx_parser_state *pp}

%code requires {
#include "fastlane.h"
}

%code provides {
int ptx_yyparse(ptx_parser_state *pp);
/* the scanner (grammar/ptx.l): the next token; ptx_scanner_open sets it
 * up over ctx->src, ptx_scanner_close puts back the byte Flex holds */
int ptx_yylex(PTX_YYSTYPE *lval, PTX_YYLTYPE *lloc, ptx_parser_state *pp);
void ptx_scanner_open(ptx_parser_state *pp, ptx_context *ctx);
void ptx_scanner_close(ptx_parser_state *pp);
}

%code {
#include <string.h>

#define CTX (pp->ctx)
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                       \
    do {                                                                  \
        if (N) {                                                          \
            (Cur).off = YYRHSLOC(Rhs, 1).off;                             \
            (Cur).end = YYRHSLOC(Rhs, N).end;                             \
        } else {                                                          \
            (Cur).off = (Cur).end = YYRHSLOC(Rhs, 0).end;                 \
        }                                                                 \
    } while (0)
/* Where a statement starts, the grammar tells the scanner (its fast lane
 * takes whole statements only there): in the reductions of stmts and
 * sec_items, which end a statement or open a body.  The parser makes
 * them before it reads the next token, their states having nothing else
 * to do; when it has read the token already (to end a label "name :",
 * which may go on with ".callprototype" and the like), the scanner has
 * seen the label itself.  Whether the statement is a body's or a debug
 * section's goes with it: the fast lane takes declarations and braces
 * only in a body, where the rules read them as a declaration and a block
 * (in a section ".reg" is a data line's word). */
#define STATEMENT_NEXT(body) \
    ((void)(yychar == T_PTX_YYEMPTY && (pp->at_statement = true, pp->in_body = (body))))
/* A module item made goes to the parse's on_item (parse.c: the semantic
 * pass checks it at once), told whether the parser has read a token past
 * it: it has not in the reductions of a function, which end at its '}'. */
#define ITEM_DONE(n) \
    ((void)(CTX->on_item && (CTX->on_item(CTX, (n), yychar == T_PTX_YYEMPTY), true)))
/* The parser's stack grows by two entries per open block: 10^7 entries
 * allow 5,000,000 nested blocks (ptxas stops near 100,000) and cap its
 * memory at a few hundred MB; ptx_yyerror names the limit. */
#define YYMAXDEPTH 10000000
/* the parser's stacks, LAC's exploration stack too, grow in the arena:
 * leaving a parse early (out of memory) then frees them with everything
 * else.  LAC's reallocation is a function without the parser's parameter,
 * so the parse under way keeps its arena here (%initial-action). */
static _Thread_local ptx_arena *ptx_yy_arena;
#define YYMALLOC(n) ptx_arena_alloc(ptx_yy_arena, (n))
#define YYFREE(p) ((void)(p))

static void ptx_yyerror(PTX_YYLTYPE *loc, ptx_parser_state *pp, const char *msg);
}

%union {
    ptx_tok tok;
    ptx_expr *expr;
    ptx_node *node;
    ptx_decl *decl;
    ptx_var *var;
    ptx_func *func;
    ptx_nlist list;
    ptx_spec *spec;
    size_t mark;
}

%token <tok> IDENT "identifier" DOTWORD "dot-word" INT "integer" FLOAT "floating-point number"
%token <tok> F32BITS "0f constant" F64BITS "0d constant" STRING "string" DWARF "@@DWARF line"
%token <tok> SINK "'_'" DOTTED "dotted name" DATARUN "section data"
/* built by the fast lane as it takes them: their nodes, linked by `next` */
%token <node> SIMPLE "instruction" LOCLINE "'.loc' line" LABEL "label"
%token <list> STMTS "statements"
%token <tok> TYPE "type" SPACE "state space" LINK "linkage directive" VEC "vector size"
%token <tok> FDIR "function directive"
%token <tok> VERSION "'.version'" TARGET "'.target'" ADDRESS_SIZE "'.address_size'"
%token <tok> ENTRY "'.entry'" FUNC "'.func'" ALIAS "'.alias'" PRAGMA "'.pragma'"
%token <tok> FILE "'.file'" SECTION "'.section'" LOC "'.loc'"
%token <tok> CALLPROTOTYPE "'.callprototype'" CALLTARGETS "'.calltargets'"
%token <tok> BRANCHTARGETS "'.branchtargets'" ALIGN "'.align'" PTR "'.ptr'" ATTRIBUTE "'.attribute'"
%token <tok> SHL "'<<'" SHR "'>>'" LE "'<='" GE "'>='" EQ "'=='" NE "'!='" LAND "'&&'" LOR "'||'"

/* a .func declaration without ';' (nvopencc wrote them; ptxas takes
 * them): a '.pragma' after one belongs to the function, as a directive */
%precedence BARE_DECL
%precedence PRAGMA
%right '?' ':'
%left LOR
%left LAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <tok> anyword rareword opcode loc_fkey
%type <spec> attributes attribute
%type <list> items stmts sec_items more_targets
%type <node> item stmt instr block section_item func loc_stmt
%type <func> func_head entry_head
%type <decl> decl param
%type <var> declarator declname dimmed
%type <mark> specs specs_opt mods ops ops_opt exprs exprs_opt param_list params_opt ret_opt
%type <mark> declarator_list fdirs strings names int_list int_list_opt sec_vals loc_attrs loc_fname loc_mark target_names
%type <expr> expr name_item
%type <expr> secval secterm

%%

/* ptxas 13.0 takes more .target lines before .address_size, and none
 * after it or after the first declaration; they stay in the tree as
 * TARGET items, first in the module's list */
module
    : header more_targets address_size_opt items
                                        { ptx_b_module(CTX, !$2.first ? $4 : !$4.first ? $2
                                                                : ptx_b_append_run($2, $4)); }
    ;

header
    : VERSION FLOAT { ptx_b_version(CTX, &$2, @$); } target_dir
    ;

more_targets
    : %empty                            { $$ = ptx_b_none(); }
    | more_targets TARGET target_names  { ptx_node *t = ptx_b_target_item(CTX, $3, @2);
                                          $$ = ptx_b_append($1, t); ITEM_DONE(t); }
    ;

target_dir
    : TARGET target_names               { ptx_b_target(CTX, $2, @$); }
    ;

target_names
    : IDENT                             { $$ = ptx_mark(CTX); ptx_b_target_name(CTX, &$1, true); }
    | target_names ',' IDENT            { $$ = $1; ptx_b_target_name(CTX, &$3, false); }
    ;

address_size_opt
    : %empty
    | ADDRESS_SIZE INT                  { ptx_b_address_size(CTX, &$2, @$); }
    ;

items
    : %empty                            { $$.first = $$.last = NULL; }
    | items item                        { $$ = ptx_b_append($1, $2); ITEM_DONE($2); }
    ;

item
    : decl ';'                          { $$ = ptx_b_decl_at(CTX, $1, PTX_SITE_MODULE); }
    | func                              { $$ = $1; }
    | ALIAS IDENT ',' IDENT ';'         { $$ = ptx_b_alias(CTX, &$2, &$4, @$); }
    | PRAGMA strings ';'                { $$ = ptx_b_module_pragma(CTX, $2, @$); }
    | FILE INT STRING                   { $$ = ptx_b_file(CTX, &$2, &$3, NULL, NULL, @$); }
    | FILE INT STRING ',' INT           { $$ = ptx_b_file(CTX, &$2, &$3, &$5, NULL, @$); }
    | FILE INT STRING ',' INT ',' INT   { $$ = ptx_b_file(CTX, &$2, &$3, &$5, &$7, @$); }
    | SECTION anyword '{' sec_items '}' { $$ = ptx_b_section(CTX, &$2, $4, @$); }
    | DWARF                             { $$ = ptx_b_dwarf(CTX, &$1, @$); }
    | error ';'                         { $$ = NULL; if (ptx_b_recover(CTX)) YYABORT; }
    | error SIMPLE                      { $$ = NULL; if (ptx_b_recover(CTX)) YYABORT; }
    | error STMTS                       { bool synced;
                                          $$ = ptx_after_error($2, false, &synced);
                                          if (!synced) YYERROR;
                                          if (ptx_b_recover(CTX)) YYABORT; }
    | error '}'                         { $$ = NULL; if (ptx_b_recover(CTX)) YYABORT; }
    ;

/* ---- declarations ---------------------------------------------------- */

decl
    : specs declarator_list             { $$ = ptx_b_decl(CTX, $1, $2, @$); }
    ;

specs
    : spec                              { $$ = ptx_mark(CTX) - 1; }
    | specs spec                        { $$ = $1; }
    ;

specs_opt
    : %empty                            { $$ = ptx_mark(CTX); }
    | specs                             { $$ = $1; }
    ;

spec
    : LINK                              { ptx_b_spec(CTX, PTX_SPEC_LINK, &$1, @$); }
    | SPACE                             { ptx_b_spec(CTX, PTX_SPEC_SPACE, &$1, @$); }
    | ALIGN INT                         { ptx_b_spec(CTX, PTX_SPEC_ALIGN, &$2, @$); }
    | VEC                               { ptx_b_spec(CTX, PTX_SPEC_VEC, &$1, @$); }
    | TYPE                              { ptx_b_spec(CTX, PTX_SPEC_TYPE, &$1, @$); }
    | DOTWORD                           { ptx_b_spec(CTX, PTX_SPEC_WORD, &$1, @$); }
    | PTR                               { ptx_b_spec(CTX, PTX_SPEC_PTR, &$1, @$); }
    | ATTRIBUTE '(' attributes ')'      { ptx_b_push(CTX, ptx_b_attr_spec(CTX, $3, @$)); }
    ;

attributes
    : attribute                         { $$ = $1; }
    | attributes ',' attribute          { $$ = ptx_b_attr_merge(CTX, $1, $3); }
    ;

attribute
    : DOTWORD                           { $$ = ptx_b_attr(CTX, &$1, NULL, NULL, @$); }
    | DOTWORD '(' INT ',' INT ')'       { $$ = ptx_b_attr(CTX, &$1, &$3, &$5, @$); }
    ;

declarator_list
    : declarator                        { $$ = ptx_mark(CTX); ptx_b_push(CTX, $1); }
    | declarator_list ',' declarator    { $$ = $1; ptx_b_push(CTX, $3); }
    ;

declarator
    : declname                          { $$ = $1; }
    | declname '<' INT '>'              { $$ = $1; ptx_b_var_range(CTX, $1, &$3, @3); }
    | declname '=' expr                 { $$ = $1; ptx_b_var_init(CTX, $1, ptx_b_operand(CTX, $3)); }
    | dimmed                            { $$ = $1; }
    | dimmed '=' expr                   { $$ = $1; ptx_b_var_init(CTX, $1, ptx_b_operand(CTX, $3)); }
    ;

declname
    : IDENT                             { $$ = ptx_b_var(CTX, &$1, false); }
    | SINK                              { $$ = ptx_b_var(CTX, &$1, true); }
    ;

dimmed
    : declname '[' INT ']'              { $$ = $1; ptx_b_var_dim(CTX, $1, &$3, @$); }
    | declname '[' ']'                  { $$ = $1; ptx_b_var_dim(CTX, $1, NULL, @$); }
    | dimmed '[' INT ']'                { $$ = $1; ptx_b_var_dim(CTX, $1, &$3, @$); }
    | dimmed '[' ']'                    { $$ = $1; ptx_b_var_dim(CTX, $1, NULL, @$); }
    ;

/* ---- functions ----------------------------------------------------------- */

func
    : entry_head ';'                    { $$ = ptx_b_func(CTX, $1, NULL, @$); }
    | entry_head block                  { $$ = ptx_b_func(CTX, $1, $2, @$); }
    | func_head ';'                     { $$ = ptx_b_func(CTX, $1, NULL, @$); }
    | func_head block                   { $$ = ptx_b_func(CTX, $1, $2, @$); }
    | func_head %prec BARE_DECL         { $$ = ptx_b_func(CTX, $1, NULL, @$); }
    ;

/* with no specifiers the function starts at .entry/.func, not where the
 * empty list was placed (the end of the previous token); only a .func
 * declaration may go without ';' (ptxas: a parsing error after .entry) */
entry_head
    : specs_opt ENTRY IDENT params_opt fdirs
                                        { if (@1.off == @1.end) @$.off = @2.off;
                                          $$ = ptx_b_func_head(CTX, $1, true, PTX_NO_LIST, &$3, $4, $5, @$); }
    ;

func_head
    : specs_opt FUNC func_attr_opt ret_opt IDENT params_opt fdirs %prec BARE_DECL
                                        { if (@1.off == @1.end) @$.off = @2.off;
                                          $$ = ptx_b_func_head(CTX, $1, false, $4, &$5, $6, $7, @$); }
    ;

func_attr_opt
    : %empty
    | ATTRIBUTE '(' attributes ')'      { ptx_b_push(CTX, ptx_b_attr_spec(CTX, $3, @$)); }
    ;

ret_opt
    : %empty                            { $$ = PTX_NO_LIST; }
    | '(' ')'                           { $$ = ptx_mark(CTX); }
    | '(' param_list ')'                { $$ = $2; }
    ;

params_opt
    : %empty                            { $$ = PTX_NO_LIST; }
    | '(' ')'                           { $$ = ptx_mark(CTX); }
    | '(' param_list ')'                { $$ = $2; }
    ;

param_list
    : param                             { $$ = ptx_mark(CTX); ptx_b_push(CTX, $1); }
    | param_list ',' param              { $$ = $1; ptx_b_push(CTX, $3); }
    ;

param
    : specs declarator                  { $$ = ptx_b_param(CTX, $1, $2, @$); }
    ;

fdirs
    : %empty                            { $$ = ptx_mark(CTX); }
    | fdirs fdir                        { $$ = $1; }
    ;

fdir
    : FDIR int_list_opt                 { ptx_b_fdir(CTX, &$1, $2, @$); }
    | PRAGMA strings ';'                { ptx_b_fdir_pragma(CTX, $2, @$); }
    ;

int_list_opt
    : %empty                            { $$ = ptx_mark(CTX); }
    | int_list                          { $$ = $1; }
    ;

int_list
    : INT                               { $$ = ptx_mark(CTX); ptx_b_push(CTX, ptx_b_int(CTX, &$1)); }
    | int_list ',' INT                  { $$ = $1; ptx_b_push(CTX, ptx_b_int(CTX, &$3)); }
    ;

strings
    : STRING                            { $$ = ptx_mark(CTX); ptx_b_string(CTX, &$1); }
    | strings ',' STRING                { $$ = $1; ptx_b_string(CTX, &$3); }
    ;

/* ---- statements ----------------------------------------------------------- */

block
    : '{' stmts '}'                     { $$ = ptx_b_block(CTX, $2, @$); }
    ;

/* the one-token statements, most of a body, are appended without a
 * reduction to stmt of their own; a STMTS token is a run of them.  After
 * a syntax error the parser reports the next one only once three tokens
 * have been shifted; such a token stands for two or more of the scanner's
 * (the last ';' or ':' of a statement shifted after the error being the
 * first), so after it errors are reported again (yyerrok), as they are
 * when the same text comes token by token. */
stmts
    : %empty                            { $$.first = $$.last = NULL; STATEMENT_NEXT(true); }
    | stmts stmt                        { $$ = ptx_b_append($1, $2); STATEMENT_NEXT(true); }
    | stmts SIMPLE                      { $$ = ptx_b_append($1, $2); yyerrok; STATEMENT_NEXT(true); }
    | stmts STMTS                       { $$ = ptx_b_append_run($1, $2); yyerrok; STATEMENT_NEXT(true); }
    | stmts LABEL                       { $$ = ptx_b_append($1, $2); yyerrok; STATEMENT_NEXT(true); }
    | stmts LOCLINE                     { $$ = ptx_b_append($1, $2); yyerrok; STATEMENT_NEXT(true); }
    ;

stmt
    : IDENT ':'                         { $$ = ptx_b_label(CTX, &$1, @$); }
    | IDENT ':' CALLPROTOTYPE ret_opt SINK params_opt fdirs ';'
                                        { $$ = ptx_b_callproto(CTX, &$1, $4, $6, $7, @$); }
    | IDENT ':' CALLTARGETS names ';'   { $$ = ptx_b_targets(CTX, &$1, false, $4, @$); }
    | IDENT ':' BRANCHTARGETS names ';' { $$ = ptx_b_targets(CTX, &$1, true, $4, @$); }
    | instr ';'                         { $$ = $1; }
    | decl ';'                          { $$ = ptx_b_decl_at(CTX, $1, PTX_SITE_BODY); }
    | block                             { $$ = $1; }
    | PRAGMA strings ';'                { $$ = ptx_b_pragma(CTX, $2, @$); }
    | loc_stmt                          { $$ = $1; }
    | error ';'                         { if (ptx_b_recover(CTX)) YYABORT;
                                          $$ = ptx_b_kept_before_error(CTX, @1.off); }
    | error SIMPLE                      { if (ptx_b_recover(CTX)) YYABORT;
                                          $$ = ptx_b_kept_before_error(CTX, @1.off); }
    | error STMTS                       { bool synced;
                                          ptx_node *kept = ptx_after_error($2, true, &synced);
                                          if (!synced) YYERROR;
                                          if (ptx_b_recover(CTX)) YYABORT;
                                          if (kept) yyerrok;
                                          $$ = ptx_b_append(ptx_b_append(ptx_b_none(),
                                                   ptx_b_kept_before_error(CTX, @1.off)), kept).first; }
    ;

names
    : name_item                         { $$ = ptx_mark(CTX); ptx_b_push(CTX, $1); }
    | names ',' name_item               { $$ = $1; ptx_b_push(CTX, $3); }
    ;

name_item
    : IDENT                             { $$ = ptx_b_sym(CTX, &$1, NULL); }
    | IDENT '<' INT '>'                 { $$ = ptx_b_range(CTX, &$1, &$3, @$); }
    ;

loc_stmt
    : LOC INT INT INT loc_attrs         { ptx_tok n[3] = { $2, $3, $4 }; $$ = ptx_b_loc(CTX, n, $5, @$); }
    ;

/* as ptxas has it: "function_name LABEL[+N]" only with an
 * "inlined_at FILE LINE COLUMN" after it (a syntax error at the token
 * after the label otherwise); inlined_at alone is the builder's error */
loc_attrs
    : %empty                            { $$ = ptx_mark(CTX); }
    | loc_fname ',' IDENT INT INT INT   { $$ = $1; ptx_b_loc_attr(CTX, &$3, &$4, &$5, &$6, @$); }
    | loc_mark ',' IDENT INT INT INT    { $$ = $1; ptx_b_loc_attr(CTX, &$3, &$4, &$5, &$6, @$);
                                          ptx_b_loc_inlined_alone(CTX, &$3); }
    | loc_mark ',' IDENT INT            { $$ = $1; ptx_b_loc_attr(CTX, &$3, &$4, NULL, NULL, @$); }
    ;

loc_fname
    : loc_mark ',' loc_fkey IDENT       { $$ = $1; ptx_b_loc_attr(CTX, &$3, &$4, NULL, NULL, @$); }
    | loc_mark ',' loc_fkey IDENT '+' INT { $$ = $1; ptx_b_loc_attr(CTX, &$3, &$4, &$6, NULL, @$); }
    ;

/* a word before a name: reported here, on the .loc's line, when it is no
 * function_name, and the statement is given up */
loc_fkey
    : IDENT                             { $$ = $1; if (!ptx_b_loc_fkey(CTX, &$1)) YYERROR; }
    ;

loc_mark
    : %empty                            { $$ = ptx_mark(CTX); }
    ;

/* the scanner hands "ld.global.u32" over as one DOTTED token */
instr
    : opcode mods ops_opt               { $$ = ptx_b_instr(CTX, NULL, false, &$1, $2, $3, @$); }
    | '@' IDENT opcode mods ops_opt     { $$ = ptx_b_instr(CTX, &$2, false, &$3, $4, $5, @$); }
    | '@' '!' IDENT opcode mods ops_opt { $$ = ptx_b_instr(CTX, &$3, true, &$4, $5, $6, @$); }
    ;

opcode
    : IDENT | DOTTED
    ;

/* the common dot-words are listed, so that a modifier costs one reduction */
mods
    : %empty                            { $$ = ptx_mark(CTX); }
    | mods DOTWORD                      { $$ = $1; ptx_b_mod(CTX, &$2); }
    | mods TYPE                         { $$ = $1; ptx_b_mod(CTX, &$2); }
    | mods SPACE                        { $$ = $1; ptx_b_mod(CTX, &$2); }
    | mods VEC                          { $$ = $1; ptx_b_mod(CTX, &$2); }
    | mods rareword                     { $$ = $1; ptx_b_mod(CTX, &$2); }
    ;

ops_opt
    : %empty                            { $$ = ptx_mark(CTX); }
    | ops                               { $$ = $1; }
    ;

ops
    : expr                              { $$ = ptx_mark(CTX); ptx_b_push(CTX, ptx_b_operand(CTX, $1)); }
    | ops ',' expr                      { $$ = $1; ptx_b_push(CTX, ptx_b_operand(CTX, $3)); }
    ;

/* ---- operands and constant expressions (C precedence) ------------------- */

/* One nonterminal with declared precedences (C's, lowest first) instead of
 * a cascade, the primaries included: a register operand costs one
 * reduction, not a dozen. */
expr
    : INT                               { $$ = ptx_b_int(CTX, &$1); }
    | FLOAT                             { $$ = ptx_b_float(CTX, &$1); }
    | F32BITS                           { $$ = ptx_b_bits(CTX, &$1, false); }
    | F64BITS                           { $$ = ptx_b_bits(CTX, &$1, true); }
    | IDENT                             { $$ = ptx_b_sym(CTX, &$1, NULL); }
    | IDENT anyword                     { $$ = ptx_b_sym(CTX, &$1, &$2); }
    | DOTTED                            { $$ = ptx_b_dotted_sym(CTX, &$1); }
    | SINK                              { $$ = ptx_b_sink(CTX, &$1); }
    | IDENT '(' expr ')'                { $$ = ptx_b_apply(CTX, &$1, false, $3, @$); }
    | INT '(' expr ')'                  { $$ = ptx_b_apply(CTX, &$1, true, $3, @$); }
    | '(' exprs ')'                     { $$ = ptx_b_parens(CTX, $2, @$); }
    | '(' ')'                           { $$ = ptx_b_list(CTX, PTX_EXPR_LIST, ptx_mark(CTX), @$); }
    | '{' exprs_opt '}'                 { $$ = ptx_b_list(CTX, PTX_EXPR_VEC, $2, @$); }
    | '[' exprs ']'                     { $$ = ptx_b_list(CTX, PTX_EXPR_ADDR, $2, @$); }
    | '[' exprs ']' anyword             { $$ = ptx_b_addr_suffix(CTX, ptx_b_list(CTX, PTX_EXPR_ADDR, $2, @$), &$4, @$); }
    | IDENT '[' expr ']'                { $$ = ptx_b_index(CTX, ptx_b_sym(CTX, &$1, NULL), $3, @$); }
    | expr '?' expr ':' expr            { $$ = ptx_b_cond(CTX, $1, $3, $5); }
    | expr LOR expr                     { $$ = ptx_b_binary(CTX, PTX_OP_LOR, $1, $3); }
    | expr LAND expr                    { $$ = ptx_b_binary(CTX, PTX_OP_LAND, $1, $3); }
    | expr '|' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_BOR, $1, $3); }
    | expr '^' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_BXOR, $1, $3); }
    | expr '&' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_BAND, $1, $3); }
    | expr EQ expr                      { $$ = ptx_b_binary(CTX, PTX_OP_EQ, $1, $3); }
    | expr NE expr                      { $$ = ptx_b_binary(CTX, PTX_OP_NE, $1, $3); }
    | expr '<' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_LT, $1, $3); }
    | expr '>' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_GT, $1, $3); }
    | expr LE expr                      { $$ = ptx_b_binary(CTX, PTX_OP_LE, $1, $3); }
    | expr GE expr                      { $$ = ptx_b_binary(CTX, PTX_OP_GE, $1, $3); }
    | expr SHL expr                     { $$ = ptx_b_binary(CTX, PTX_OP_SHL, $1, $3); }
    | expr SHR expr                     { $$ = ptx_b_binary(CTX, PTX_OP_SHR, $1, $3); }
    | expr '+' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_ADD, $1, $3); }
    | expr '-' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_SUB, $1, $3); }
    | expr '*' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_MUL, $1, $3); }
    | expr '/' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_DIV, $1, $3); }
    | expr '%' expr                     { $$ = ptx_b_binary(CTX, PTX_OP_MOD, $1, $3); }
    | '-' expr %prec UNARY              { $$ = ptx_b_unary(CTX, PTX_OP_NEG, $2, @$); }
    | '+' expr %prec UNARY              { $$ = ptx_b_unary(CTX, PTX_OP_PLUS, $2, @$); }
    | '!' expr %prec UNARY              { $$ = ptx_b_unary(CTX, PTX_OP_LNOT, $2, @$); }
    | '~' expr %prec UNARY              { $$ = ptx_b_unary(CTX, PTX_OP_BNOT, $2, @$); }
    | '(' TYPE ')' expr %prec UNARY     { $$ = ptx_b_cast(CTX, &$2, $4, @$); }
    ;

exprs_opt
    : %empty                            { $$ = ptx_mark(CTX); }
    | exprs                             { $$ = $1; }
    ;

exprs
    : expr                              { $$ = ptx_mark(CTX); ptx_b_push(CTX, $1); }
    | IDENT '=' expr                    { $$ = ptx_mark(CTX); ptx_b_push(CTX, ptx_b_field(CTX, &$1, $3, @$)); }
    | exprs ',' expr                    { $$ = $1; ptx_b_push(CTX, $3); }
    | exprs ',' IDENT '=' expr          { $$ = $1; ptx_b_push(CTX, ptx_b_field(CTX, &$3, $5, ptx_loc_span(@3, @5))); }
    ;

/* ---- debug sections --------------------------------------------------------- */

sec_items
    : %empty                            { $$.first = $$.last = NULL; STATEMENT_NEXT(false); }
    | sec_items section_item            { $$ = ptx_b_append($1, $2); STATEMENT_NEXT(false); }
    ;

section_item
    : IDENT ':'                         { $$ = ptx_b_label(CTX, &$1, @$); }
    | LABEL                             { $$ = $1; yyerrok; }
    | anyword sec_vals                  { $$ = ptx_b_data(CTX, &$1, $2, @$); }
    | DATARUN                           { $$ = ptx_b_data_run(CTX, &$1); yyerrok; }
    ;

sec_vals
    : secval                            { $$ = ptx_mark(CTX); ptx_b_push(CTX, $1); }
    | sec_vals ',' secval               { $$ = $1; ptx_b_push(CTX, $3); }
    ;

/* values in a section: integers and labels with + and - (no dot-word may
 * follow a name here, since the next line starts with one) */
secval
    : secterm
    | secval '+' secterm                { $$ = ptx_b_binary(CTX, PTX_OP_ADD, $1, $3); }
    | secval '-' secterm                { $$ = ptx_b_binary(CTX, PTX_OP_SUB, $1, $3); }
    ;

secterm
    : INT                               { $$ = ptx_b_int(CTX, &$1); }
    | IDENT                             { $$ = ptx_b_sym(CTX, &$1, NULL); }
    | DOTWORD                           { $$ = ptx_b_sym(CTX, &$1, NULL); }
    | '-' secterm                       { $$ = ptx_b_unary(CTX, PTX_OP_NEG, $2, @$); }
    ;

/* any dot-word, keyword or not: instruction modifiers, selectors, section names */
anyword
    : DOTWORD | TYPE | SPACE | VEC | rareword
    ;

rareword
    : LINK | FDIR | VERSION | TARGET | ADDRESS_SIZE
    | ENTRY | FUNC | ALIAS | PRAGMA | FILE | SECTION | LOC | CALLPROTOTYPE
    | CALLTARGETS | BRANCHTARGETS | ALIGN | PTR | ATTRIBUTE
    ;

%%

static const char *token_text(ptx_context *ctx, const PTX_YYLTYPE *loc, int *len)
{
    *len = (int)(loc->end - loc->off);
    if (*len > 40)
        *len = 40;
    return ctx->src + loc->off;
}

/* Where many tokens would do (any operator may continue an operand), the
 * message names the punctuation that ends or separates things, which is
 * what a person most often forgot. */
static bool is_structural(yysymbol_kind_t k)
{
    static const char *const punct[] = { "';'", "','", "')'", "']'", "'}'", "'{'", "':'" };
    const char *name = yysymbol_name(k);
    for (size_t i = 0; i < sizeof punct / sizeof *punct; i++)
        if (strcmp(name, punct[i]) == 0)
            return true;
    return false;
}

/* The k symbols of `more` added to the n expected, in order and once
 * each, as Bison lists them. */
static int add_expected(yysymbol_kind_t *expected, int n, const yysymbol_kind_t *more, int k)
{
    for (int j = 0; j < k; j++) {
        int i = 0;
        while (i < n && expected[i] < more[j])
            i++;
        if (i < n && expected[i] == more[j])
            continue;
        memmove(expected + i + 1, expected + i, (size_t)(n - i) * sizeof *expected);
        expected[i] = more[j];
        n++;
    }
    return n;
}

static int report_syntax_error(const yypcontext_t *yyctx, ptx_parser_state *pp)
{
    enum { MAX_LISTED = 5, MAX_EXPECTED = 128 };
    yysymbol_kind_t expected[MAX_EXPECTED + 3];   /* + after_label's */
    const char *names[MAX_EXPECTED + 3];
    int n = yypcontext_expected_tokens(yyctx, expected, MAX_EXPECTED);
    /* after a statement the fast lane took whole, what its tokens could
     * have been followed by through the rules */
    static const yysymbol_kind_t after_label[] = {
        YYSYMBOL_CALLPROTOTYPE, YYSYMBOL_CALLTARGETS, YYSYMBOL_BRANCHTARGETS };
    const yysymbol_kind_t after_loc[] = { YYTRANSLATE(',') };
    if (pp->open_before == PTX_OPEN_LABEL)
        n = add_expected(expected, n, after_label, 3);
    else if (pp->open_before == PTX_OPEN_LOC)
        n = add_expected(expected, n, after_loc, 1);
    for (int i = 0; i < n; i++)
        names[i] = yysymbol_name(expected[i]);
    if (n > MAX_LISTED) {
        int k = 0;
        bool ident = false, integer = false, rbrace = false;
        for (int i = 0; i < n; i++) {
            ident |= expected[i] == YYSYMBOL_IDENT;
            integer |= expected[i] == YYSYMBOL_INT;
            rbrace |= strcmp(yysymbol_name(expected[i]), "'}'") == 0;
        }
        if (ident)
            names[k++] = integer ? "an operand" : rbrace ? "a statement" : "a name";
        for (int i = 0; i < n; i++)
            if (is_structural(expected[i]) &&
                !(integer && strcmp(yysymbol_name(expected[i]), "'{'") == 0))
                names[k++] = yysymbol_name(expected[i]);
        n = k <= MAX_LISTED ? k : 0;
    }
    yysymbol_kind_t found = yypcontext_token(yyctx);
    const PTX_YYLTYPE *loc = yypcontext_location(yyctx);
    PTX_YYLTYPE first;
    if (found == YYSYMBOL_STMTS || found == YYSYMBOL_SIMPLE || found == YYSYMBOL_LABEL ||
        found == YYSYMBOL_LOCLINE) {
        /* a statement the fast lane took whole is named by its first
         * token, as the scanner's rules would have made it */
        uint32_t len;
        ptx_fast_first k = ptx_fast_first_token(CTX->src + loc->off, &len);
        found = k == PTX_FIRST_IDENT ? YYSYMBOL_IDENT : k == PTX_FIRST_DOTTED ? YYSYMBOL_DOTTED
              : k == PTX_FIRST_LOC ? YYSYMBOL_LOC : k == PTX_FIRST_SPACE ? YYSYMBOL_SPACE
              : YYTRANSLATE('@');
        first.off = loc->off;
        first.end = loc->off + len;
        loc = &first;
    }
    ptx_span span = { loc->off, loc->end - loc->off };

    char msg[512];
    size_t used = 0;
    if (found == YYSYMBOL_YYEOF) {
        used = (size_t)snprintf(msg, sizeof msg, "unexpected end of input");
    } else {
        int len;
        const char *text = token_text(CTX, loc, &len);
        const char *what = yysymbol_name(found);
        if (what[0] == '\'' || what[0] == '"')
            used = (size_t)snprintf(msg, sizeof msg, "unexpected '%.*s'", len, text);
        else
            used = (size_t)snprintf(msg, sizeof msg, "unexpected %s '%.*s'", what, len, text);
    }
    for (int i = 0; i < n && used < sizeof msg; i++)
        used += (size_t)snprintf(msg + used, sizeof msg - used, "%s%s",
                                 i == 0 ? ", expected " : i == n - 1 ? " or " : ", ",
                                 names[i]);
    /* a dot-word where none may be is often a misspelt directive */
    if (found == YYSYMBOL_DOTWORD)
        ptx_error_directive(CTX, PTX_DIAG_SYNTAX, span, CTX->src + span.off, span.len, msg);
    else
        ptx_diag_add(CTX, PTX_SEV_ERROR, PTX_DIAG_SYNTAX, span, "%s", msg);
    return 0;
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, ptx_parser_state *pp)
{
    CTX->syntax_error = true;
    if (CTX->stopped)
        return 0;
    return report_syntax_error(yyctx, pp);
}

static void ptx_yyerror(PTX_YYLTYPE *loc, ptx_parser_state *pp, const char *msg)
{
    ptx_span span = { loc->off, loc->end - loc->off };
    CTX->syntax_error = true;
    if (strcmp(msg, "memory exhausted") == 0)   /* Bison's word for a full stack */
        ptx_diag_add(CTX, PTX_SEV_ERROR, PTX_DIAG_LIMIT, span,
                     "nested too deeply: the parser's stack is full (the limit is %d entries, "
                     "about %d nested blocks)", YYMAXDEPTH, YYMAXDEPTH / 2);
    else
        ptx_diag_add(CTX, PTX_SEV_ERROR, PTX_DIAG_LIMIT, span, "%s", msg);
}
