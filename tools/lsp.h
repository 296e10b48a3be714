/* ptx-front --lsp: a language server (LSP 3.17, JSON-RPC over a byte
 * stream with Content-Length framing).  Part of the CLI, not of
 * libptxfront: it alone uses jansson for JSON (doc/editors.md). */
#ifndef PTX_FRONT_LSP_H
#define PTX_FRONT_LSP_H

#include <stdbool.h>

typedef struct lsp_settings {
    unsigned max_errors;        /* per document, as --max-errors (0: no limit) */
    const char *target;         /* --target, or NULL: each module's own */
    bool fast_lane;             /* false with --no-fast-lane */
} lsp_settings;

/* Serves one client: reads messages from in_fd and writes to out_fd
 * until the client sends `exit` or in_fd ends (the client went away), or
 * out_fd cannot be written.  Returns the exit status: 0 after `shutdown`
 * then `exit` (or end of input after `shutdown`), 1 otherwise.  Writes
 * nothing to stdout or stderr itself. */
int ptx_lsp_serve(int in_fd, int out_fd, const lsp_settings *settings);

#endif
