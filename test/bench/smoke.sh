#!/bin/sh
# make bench-smoke (part of make check): the benchmark runs, and an input it
# builds by replicating a module's kernels parses cleanly.  Each step's exit
# status is checked before its output is looked at; the summary counts the
# steps that ran.  usage: smoke.sh BUILD_DIR
B=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

"$B/bench" -n 1 examples/saxpy.ptx >"$tmp/bench.out" 2>"$tmp/bench.err"
rc=$?
if [ $rc -ne 0 ]; then
    bad "bench -n 1 examples/saxpy.ptx: exit status $rc: $(head -1 "$tmp/bench.err")"
elif ! grep -q "^bench-row	saxpy.ptx	$(wc -c <examples/saxpy.ptx)	[1-9][0-9]*	" "$tmp/bench.out"; then
    bad "bench -n 1 examples/saxpy.ptx: no row 'bench-row saxpy.ptx SIZE INSTRUCTIONS...'"
else
    ok
fi

"$B/bench" --make-input examples/saxpy.ptx 0.02 "$tmp/big.ptx" >"$tmp/make.out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    bad "bench --make-input: exit status $rc: $(head -1 "$tmp/make.out")"
else
    "$B/ptx-front" "$tmp/big.ptx" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
        bad "the input bench made does not parse cleanly (status $rc): $(head -1 "$tmp/err")"
    else
        ok
    fi
    "$B/ptx-front" "$tmp/big.ptx" --stats >"$tmp/stats" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        bad "ptx-front --stats on the input bench made: exit status $rc: $(head -1 "$tmp/err")"
    elif ! grep -q '^totals: [1-9][0-9][0-9]* kernels' "$tmp/stats"; then
        bad "ptx-front --stats: the input bench made has fewer than 100 kernels: $(grep '^totals' "$tmp/stats")"
    else
        ok
    fi
fi
echo "bench: $pass passed, $fail failed"
[ $fail -eq 0 ]
