#!/bin/sh
# make emit-assembles: the PTX that ptx-front writes assembles.  For the
# kernels and functions of the corpora (../shared/corpus/public and the
# PTX manual's examples), each alone with `--emit-ptx --function NAME`,
# and in the canonical layout with `--emit-ptx --canonical --function
# NAME`, and per file with several patterns at once (every other
# function), ptxas must accept what ptx-front writes.  (The whole files'
# --emit-ptx and --emit-ptx --canonical are assembled, every one, by make
# conformance; the editing examples' output by make examples.)
#
# usage: run.sh PTX_FRONT
#   EMIT_ALL=1      every function of every file (about 4,400 functions,
#                   three runs of ptxas each: most of an hour on two cores)
#   EMIT_SAMPLE=N   otherwise one function in N of the list (default 48),
#                   with --canonical one in 4N, the several-pattern run
#                   for one file in 16
#   EMIT_JOBS=N     ptxas runs side by side (default: the number of cores)
#   PTX_SHARED, PTXAS  as make conformance
front=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
skip=$here/../skip.sh
shared=${PTX_SHARED:-$(cd "$here/../../.." && pwd)/shared}
if [ ! -d "$shared/corpus/public" ]; then
    sh "$skip" emit-assembles "$shared/corpus not found (the corpora live beside the checkout)"
    exit
fi
shared=$(cd "$shared" && pwd)
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$PTXAS" ]; then
    sh "$skip" emit-assembles "ptxas not found at $PTXAS: nothing to judge the output"
    exit
fi
export PTXAS
work=$(mktemp -d "${TMPDIR:-/tmp}/ptx-emit.XXXXXX") || exit 2
jobs=${EMIT_JOBS:-$(nproc 2>/dev/null || echo 2)}
if [ "${EMIT_ALL:-0}" = 1 ]; then
    every=1 canon=1 multi=1
else
    every=${EMIT_SAMPLE:-48}
    canon=$((every * 4)) multi=16
fi
# under make check SANITIZE=1 (CHECK_SAMPLE=8) fewer again: that pass
# looks for memory errors
every=$((every * ${CHECK_SAMPLE:-1})) canon=$((canon * ${CHECK_SAMPLE:-1})) multi=$((multi * ${CHECK_SAMPLE:-1}))

# the files, with their mode (as make conformance)
for d in corpus/public:corpus ptx-isa/examples:examples ptx-isa/examples/manual:examples \
         ptx-isa/examples/real:examples; do
    n=0
    for f in "$shared/${d%:*}"/*.ptx; do
        [ -f "$f" ] || continue
        echo "$f ${d#*:}"
        n=$((n + 1))
    done
    [ $n -gt 0 ] || { echo "emit-assembles: FAIL: no .ptx files in $shared/${d%:*}"; rm -rf "$work"; exit 1; }
done >"$work/files.txt" || exit 1

# the jobs, one a line: FILE MODE KIND NAME... (KIND: fn, canon, multi);
# the functions defined in each file, from --list-functions
fnum=0 i=0
while read -r f mode; do
    "$front" --list-functions "$f" >"$work/list" 2>"$work/err" ||
        { echo "emit-assembles: FAIL: --list-functions $f: $(head -1 "$work/err")"; echo x >"$work/broken"; continue; }
    names=$(awk '$NF != "(prototype)" { print $NF }' "$work/list")
    others=""
    k=0
    for n in $names; do
        if [ $((i % every)) -eq 0 ]; then
            echo "$f $mode fn $n"
        fi
        if [ $(((i + canon / 2) % canon)) -eq 0 ]; then
            echo "$f $mode canon $n"
        fi
        [ $((k % 2)) -eq 0 ] && others="$others $n"
        i=$((i + 1)) k=$((k + 1))
    done
    if [ "$k" -gt 1 ] && [ $((fnum % multi)) -eq 0 ]; then
        echo "$f $mode multi$others"
    fi
    fnum=$((fnum + 1))
done <"$work/files.txt" >"$work/jobs.txt"
[ -f "$work/broken" ] && { rm -rf "$work"; exit 1; }
njobs=$(wc -l <"$work/jobs.txt")
if [ "$every" -gt 1 ]; then
    echo "emit-assembles: one function in $every of $i (with --canonical one in $canon), the several-pattern run for one file in $multi (EMIT_ALL=1: all)"
fi
# one.sh prints one result line per job and exits 0
tr '\n' '\0' <"$work/jobs.txt" | xargs -0 -P "$jobs" -n 1 sh "$here/one.sh" "$front" "$work" >"$work/results.txt"
rc=$?
grep '^FAIL' "$work/results.txt"
pass=$(grep -c '^PASS' "$work/results.txt")
fail=$(grep -c '^FAIL' "$work/results.txt")
if [ $rc -ne 0 ] || [ $((pass + fail)) -ne "$njobs" ]; then
    echo "emit-assembles: FAIL: $njobs runs, $pass passed, $fail failed (xargs status $rc): a run crashed"
    fail=$((fail + 1))
fi
echo "emit-assembles: $pass passed, $fail failed ($(grep -c ' fn ' "$work/jobs.txt") --function, $(grep -c ' canon ' "$work/jobs.txt") --canonical --function, $(grep -c ' multi ' "$work/jobs.txt") with several patterns)"
if [ "$fail" -eq 0 ]; then rm -rf "$work"; else echo "emit-assembles: outputs kept in $work"; exit 1; fi
