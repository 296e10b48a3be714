#!/bin/sh
# make python-bench (and the end of make bench): the Python module's speed
# and memory (python/bench.py) on the dense Thrust module that make bench
# builds with nvcc (BUILD/bench-inputs/thrust_algos.sm_90.ptx), the
# corpus's atomics module and CUB module, or on BENCH_FILES.  Each memory
# figure comes from a fresh process per file.  Not a test: numbers to read.
# usage: python-bench.sh BUILD_DIR [RUNS] [MAKE]
B=$1
runs=${2:-5}
MAKE=${3:-make}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
shared=${PTX_SHARED:-$(cd "$top/.." && pwd)/shared}
PYTHON=${PYTHON:-python3}
inc=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
if [ -z "$inc" ] || [ ! -f "$inc/Python.h" ]; then
    sh "$top/test/skip.sh" python-bench "python3 or Python's headers (python3-dev) not found"
    exit
fi
cd "$top" || exit 2
$MAKE --no-print-directory python PYTHON="$PYTHON" >"$B/python-bench.build.log" 2>&1 ||
    { cat "$B/python-bench.build.log"; exit 1; }
files=$BENCH_FILES
if [ -z "$files" ]; then
    thrust=$B/bench-inputs/thrust_algos.sm_90.ptx
    if [ -f "$thrust" ]; then
        files=$thrust
    else
        echo "python-bench: $thrust not built (make bench builds it with nvcc): not measured"
    fi
    for f in "$shared/corpus/public/atomics.G.sm_100a.ptx" "$shared/corpus/public/cub_algos.sm_90.ptx"; do
        [ -f "$f" ] && files="$files $f"
    done
fi
[ -n "$files" ] || { sh "$top/test/skip.sh" python-bench "no input: give BENCH_FILES=..."; exit; }
PYTHONPATH=$B/python "$PYTHON" python/bench.py -n "$runs" "$B" $files
