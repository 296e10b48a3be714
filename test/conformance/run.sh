#!/bin/sh
# The conformance run: every .ptx of the nvcc corpus and of the spec
# examples in ../shared must be accepted and round-trip (see check-file.sh).
# Skips, saying so, when ../shared is absent.  usage: run.sh PTX_FRONT
front=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
shared=${PTX_SHARED:-$here/../../../shared}
if [ ! -d "$shared/corpus/public" ]; then
    echo "conformance: SKIPPED: $shared/corpus not found (the corpora live beside the checkout)"
    exit 0
fi
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
# NO_PTXAS=REASON: parse, print and reparse only (make check SANITIZE=1)
if [ -n "$NO_PTXAS" ]; then
    echo "conformance: cubins are not compared ($NO_PTXAS); every file is still parsed, re-emitted and reparsed"
elif [ ! -x "$PTXAS" ]; then
    echo "conformance: ptxas not found at $PTXAS: cubins are not compared"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ptx-conf.XXXXXX")
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
{
    ls "$shared"/corpus/public/*.ptx | sed 's/$/ corpus/'
    ls "$shared"/ptx-isa/examples/*.ptx "$shared"/ptx-isa/examples/manual/*.ptx \
       "$shared"/ptx-isa/examples/real/*.ptx | sed 's/$/ examples/'
} | xargs -P "$jobs" -n 2 sh "$here/check-file.sh" "$front" "$work" >"$work/results.txt"
grep '^FAIL' "$work/results.txt"
pass=$(grep -c '^PASS' "$work/results.txt")
fail=$(grep -c '^FAIL' "$work/results.txt")
skip=$(grep -c '^SKIP' "$work/results.txt")
same=$(grep -c '(cubin identical)' "$work/results.txt")
text=$(grep -c 'cubin identical but for' "$work/results.txt")
known=$(grep -c 'known difference' "$work/results.txt")
nocubin=$(grep -c 'cubins not compared' "$work/results.txt")
if [ "$nocubin" -gt 0 ]; then
    echo "conformance: cubins not compared for $nocubin files"
else
    echo "conformance: cubins after --emit-ptx: $same byte-identical, $text identical but for PTX-text sections, $known known differences (test/conformance/known-differences.txt)"
fi
echo "conformance: $pass passed, $fail failed, $skip skipped"
if [ "$fail" -eq 0 ]; then rm -rf "$work"; else echo "conformance: outputs kept in $work"; exit 1; fi
