/* libFuzzer target: the language server's message loop (tools/lsp.c).
 * The input is the byte stream a client sends: framing, JSON, requests
 * on the documents it opens.  Each run serves it whole from a temporary
 * file, answers going to /dev/null; the server must end (the input
 * ends) without a crash, a leak or undefined behaviour.  Seeds:
 * test/fuzz/lsp-seeds/, dictionary test/fuzz/lsp.dict. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "lsp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int out = -1;
    if (out < 0)
        out = open("/dev/null", O_WRONLY);
    FILE *f = tmpfile();
    if (!f)
        return 0;
    if (fwrite(data, 1, size, f) == size && fflush(f) == 0 && lseek(fileno(f), 0, SEEK_SET) == 0) {
        lsp_settings set = { 20, NULL, true };
        (void)ptx_lsp_serve(fileno(f), out, &set);
    }
    fclose(f);
    return 0;
}
