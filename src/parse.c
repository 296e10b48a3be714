/* The driver: the scanner and the parser over a context's source.  It
 * stands above both (parser -> scanner -> fast lane -> builders), so that
 * neither calls back into the file that calls it. */
#include <setjmp.h>

#include "fastlane.h"
#include "ptx.tab.h"

/* Every allocation of a parse is in the arena, the parser's stacks and
 * the scanner's included, so a jump out of memory leaks nothing. */
int ptx_run_parser(ptx_context *ctx)
{
    ptx_parser_state ps;
    ptx_scanner_open(&ps, ctx);
    int status = ptx_yyparse(&ps);
    ptx_scanner_close(&ps);
    return status;
}

size_t ptx_run_scanner(ptx_context *ctx)
{
    ptx_parser_state ps;
    ptx_scanner_open(&ps, ctx);
    size_t n = 0;
    PTX_YYSTYPE lval;
    PTX_YYLTYPE lloc;
    while (ptx_yylex(&lval, &lloc, &ps) != T_YYEOF && !ctx->stopped)
        n++;
    ptx_scanner_close(&ps);
    return n;
}
