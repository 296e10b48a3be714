#!/bin/sh
# The conformance run: every .ptx of the nvcc corpus and of the spec
# examples in ../shared must be accepted, come back byte for byte from
# --emit-ptx, and in the canonical layout reparse to the same tree and with
# ptxas assemble to an equivalent cubin (see check-file.sh).  Skips, saying so (and
# failing under REQUIRE_CORPORA=1, see test/skip.sh), when ../shared or
# ptxas is absent.  usage: run.sh PTX_FRONT
#   PTX_SHARED  the corpora (default: ../shared beside the checkout)
#   PTXAS       ptxas (default /usr/local/cuda/bin/ptxas)
#   NO_PTXAS=REASON  parse, print and reparse only (make check SANITIZE=1:
#               the cubin comparison tests the printer, which the plain
#               run covers; not a skip)
#   CUBIN_DIFF  the cubin comparer (default $PTX_SHARED/tools/cubin-diff.py)
front=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
skip=$here/../skip.sh
shared=${PTX_SHARED:-$(cd "$here/../../.." && pwd)/shared}
if [ ! -d "$shared/corpus/public" ]; then
    sh "$skip" conformance "$shared/corpus not found (the corpora live beside the checkout)"
    exit
fi
shared=$(cd "$shared" && pwd)
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
CUBIN_DIFF=${CUBIN_DIFF:-$shared/tools/cubin-diff.py}
export PTXAS CUBIN_DIFF
# NO_PTXAS=REASON: parse, print and reparse only (make check SANITIZE=1)
if [ -n "$NO_PTXAS" ]; then
    echo "conformance: cubins are not compared ($NO_PTXAS); every file is still parsed, re-emitted and reparsed"
elif [ ! -x "$PTXAS" ]; then
    sh "$skip" "conformance: cubins" "ptxas not found at $PTXAS: the re-emitted PTX is not assembled" || exit 1
    NO_PTXAS="no ptxas"
    export NO_PTXAS
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ptx-conf.XXXXXX") || exit 2
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# every file, with its mode, one per line (a folder of them that is gone
# is a failure: the corpus changed under us)
for d in corpus/public:corpus ptx-isa/examples:examples ptx-isa/examples/manual:examples \
         ptx-isa/examples/real:examples; do
    n=0
    for f in "$shared/${d%:*}"/*.ptx; do
        [ -f "$f" ] || continue
        echo "$f ${d#*:}"
        n=$((n + 1))
    done
    [ $n -gt 0 ] || echo "$shared/${d%:*}/*.ptx missing"
done >"$work/files.txt"
if grep -q ' missing$' "$work/files.txt"; then
    echo "conformance: FAIL: no .ptx files in $(sed -n 's/ missing$//p' "$work/files.txt")"
    exit 1
fi
. "$here/../sample.sh"
sample_note conformance
sampled <"$work/files.txt" >"$work/sampled.txt" && mv "$work/sampled.txt" "$work/files.txt"
nfiles=$(wc -l <"$work/files.txt")
# check-file.sh prints one result line per file and exits 0; anything
# else (it or xargs crashing) fails the run
xargs -P "$jobs" -n 2 sh "$here/check-file.sh" "$front" "$work" <"$work/files.txt" >"$work/results.txt"
rc=$?
grep '^FAIL' "$work/results.txt"
pass=$(grep -c '^PASS' "$work/results.txt")
fail=$(grep -c '^FAIL' "$work/results.txt")
same=$(grep -c '(canonical cubin identical)' "$work/results.txt")
text=$(grep -c 'cubin identical but for' "$work/results.txt")
nocubin=$(grep -c 'cubins not compared' "$work/results.txt")
lines=$(wc -l <"$work/results.txt")
if [ $rc -ne 0 ] || [ "$lines" -ne "$nfiles" ] || [ $((pass + fail)) -ne "$nfiles" ]; then
    echo "conformance: FAIL: $nfiles files, $lines result lines, $pass passed, $fail failed (xargs status $rc): a check crashed"
    fail=$((fail + 1))
fi
if [ "$nocubin" -gt 0 ]; then
    echo "conformance: cubins not compared for $nocubin files"
else
    echo "conformance: --emit-ptx gives every file back byte for byte; cubins after --emit-ptx --canonical: $same byte-identical, $text identical but for PTX-text sections"
fi
echo "conformance: $pass passed, $fail failed"
if [ "$fail" -eq 0 ]; then rm -rf "$work"; else echo "conformance: outputs kept in $work"; exit 1; fi
