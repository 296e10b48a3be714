#!/bin/sh
# make fuzz's Python part: python/fuzz.py drives every call of the module
# on mutated inputs for SECONDS seconds from a fixed seed (not libFuzzer:
# no coverage feedback; the C library's targets are test/fuzz's).  Seeds:
# examples/, test/errors/ and the corpus's files of 200 KB or less.  The
# input of the round that crashed is kept in BUILD/fuzz/python-crash.ptx.
# usage: fuzz.sh BUILD_DIR SECONDS [MAKE]
B=$1
seconds=${2:-60}
MAKE=${3:-make}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
shared=${PTX_SHARED:-$(cd "$top/.." && pwd)/shared}
PYTHON=${PYTHON:-python3}
inc=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
if [ -z "$inc" ] || [ ! -f "$inc/Python.h" ]; then
    sh "$here/../skip.sh" "fuzz: python" "python3 or Python's headers (python3-dev) not found"
    exit
fi
cd "$top" || exit 2
mkdir -p "$B/fuzz"
$MAKE --no-print-directory python PYTHON="$PYTHON" >"$B/fuzz/python-build.log" 2>&1 ||
    { cat "$B/fuzz/python-build.log"; exit 1; }
seed=${FUZZ_SEED:-35}
PYTHONPATH=$B/python "$PYTHON" python/fuzz.py --seconds "$seconds" --seed "$seed" \
    --save "$B/fuzz/python-round.ptx" examples/*.ptx test/errors/*.ptx \
    $(ls "$shared"/corpus/public/*.ptx 2>/dev/null)
rc=$?
if [ $rc -ne 0 ]; then
    cp "$B/fuzz/python-round.ptx" "$B/fuzz/python-crash.ptx"
    echo "fuzz: python: FAIL (status $rc, seed $seed): the input is in $B/fuzz/python-crash.ptx"
    exit 1
fi
