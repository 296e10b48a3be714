#!/bin/sh
# make lsp (part of make check): the scripted client test/lsp/client.py
# against ptx-front --lsp.  usage: run.sh PTX_FRONT [SHARED_DIR]
front=$1 shared=${2:-../shared}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v python3 >/dev/null 2>&1; then
    sh "$here/../skip.sh" lsp "python3 not found (the scripted client is Python)"
    exit
fi
# a ptx-front built without jansson says so and exits 2
"$front" --lsp </dev/null >/dev/null 2>&1
if [ $? -eq 2 ]; then
    sh "$here/../skip.sh" lsp "$front was built without jansson (libjansson-dev): no --lsp"
    exit
fi
if [ ! -d "$shared/corpus/public" ]; then
    sh "$here/../skip.sh" "lsp: the corpus files" "$shared/corpus not found: the errors and mistakes only" || exit 1
fi
exec python3 "$here/client.py" "$front" "$shared"
