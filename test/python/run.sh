#!/bin/sh
# The Python suite: builds the module (make python) and runs
# python/tests (unittest, standard library only) against it, with the CLI
# as the oracle of counts and diagnostics.  Without python3 or Python's
# headers (Debian: python3-dev) it skips through test/skip.sh, saying so
# (a failure under REQUIRE_CORPORA=1, as in CI).
# usage: run.sh BUILD_DIR [MAKE]
#   PYTHON      the interpreter (default python3)
#   PTX_SHARED  the corpora (default ../shared beside the checkout)
B=$1
MAKE=${2:-make}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
skip=$here/../skip.sh
PYTHON=${PYTHON:-python3}
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    sh "$skip" python "$PYTHON not found: the Python module is not tested"
    exit
fi
inc=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])') || exit 1
if [ ! -f "$inc/Python.h" ]; then
    sh "$skip" python "Python's headers ($inc/Python.h) not found: install python3-dev to build and test the module"
    exit
fi
cd "$top" || exit 2
log=$B/python/build.log
mkdir -p "$B/python"
if ! $MAKE --no-print-directory python PYTHON="$PYTHON" >"$log" 2>&1; then
    cat "$log"
    echo "python: FAIL: make python failed"
    exit 1
fi
export PYTHONPATH="$top/$B/python" PTXFRONT_CLI="$top/$B/ptx-front" PTXFRONT_WILD="$top/$B/wild/orig"
export PTX_SHARED="${PTX_SHARED:-$(cd "$top/.." && pwd)/shared}"
out=$B/python/tests.log
"$PYTHON" -W error::ResourceWarning -m unittest discover -s "$top/python/tests" -p 'test_*.py' >"$out" 2>&1
rc=$?
tail -n 40 "$out"
if [ $rc -ne 0 ]; then
    echo "python: FAIL: python/tests (the whole log: $out)"
    exit 1
fi
echo "python: $(grep -m1 '^Ran ' "$out")"
