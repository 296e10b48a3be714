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
# row_check WHAT PATTERN SHOWN COMMAND...: COMMAND succeeds and prints a
# line matching PATTERN (SHOWN: the row as a reader knows it)
row_check() {
    what=$1 pattern=$2 shown=$3
    shift 3
    "$@" >"$tmp/row.out" 2>"$tmp/row.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        bad "$what: exit status $rc: $(head -1 "$tmp/row.err")"
    elif ! grep -q "$pattern" "$tmp/row.out"; then
        bad "$what: no row '$shown'"
    else
        ok
    fi
}
size=$(wc -c <examples/saxpy.ptx)

row_check "bench -n 1 examples/saxpy.ptx" "^bench-row	saxpy.ptx	$size	[1-9][0-9]*	" \
    "bench-row saxpy.ptx SIZE INSTRUCTIONS..." "$B/bench" -n 1 examples/saxpy.ptx

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
# the bare tokenizer takes the scanner's tokens: an opcode with its
# modifiers is one, so is each register, comma, number and ';'; blanks
# and comments are none
printf 'add.s32 %%r1, %%r2, 1; // seven\n' >"$tmp/tok.ptx"
out=$("$B/tokenizer" "$tmp/tok.ptx" 2>&1)
rc=$?
if [ $rc -ne 0 ] || [ "$out" != "7 tokens" ]; then
    bad "tokenizer on 'add.s32 %r1, %r2, 1;': status $rc, '$out' instead of '7 tokens'"
else
    ok
fi

row_check "bench --cli on examples/saxpy.ptx" "^cli-row	saxpy.ptx	$size	" "cli-row saxpy.ptx SIZE..." \
    "$B/bench" --cli "$B/ptx-front" "$B/tokenizer" 1 examples/saxpy.ptx

echo "bench: $pass passed, $fail failed"
[ $fail -eq 0 ]
