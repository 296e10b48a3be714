#!/bin/sh
# The mistakes corpus: hand-written modules with one typical mistake each
# (or none), judged by ptxas in verdicts.tsv (NAME, accept|reject, ptxas's
# first error, the mistake).  ptx-front must give ptxas's verdict; on a
# reject its first error must be on the line ptxas names, when ptxas names
# one (its fatal errors do not).  usage: run.sh PTX_FRONT
front=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 2
die() { echo "mistakes: error: $*" >&2; exit 2; }
[ -f "$front" ] && [ -x "$front" ] || die "no ptx-front at $1"

# Check the whole table before running anything, so that a bad row cannot
# pass as a skipped case; awk because read would merge the empty column.
# Each row becomes "NAME VERDICT LINE" (LINE is - when ptxas gives none).
rows=$(awk -F '\t' '
    NF != 4 || $1 !~ /^[A-Za-z0-9_]+$/ || $2 !~ /^(accept|reject)$/ ||
    ($2 == "accept") != ($3 == "") || $4 == "" {
        print "verdicts.tsv:" NR ": malformed row" > "/dev/stderr"; bad = 1; next }
    { line = "-"
      if (match($3, /, line [0-9]+;/)) line = substr($3, RSTART + 7, RLENGTH - 8)
      print $1, $2, line }
    END { exit bad }' verdicts.tsv) || die "verdicts.tsv is malformed"
[ -n "$rows" ] || die "verdicts.tsv is empty"
for f in *.ptx; do
    echo "$rows" | grep -q "^${f%.ptx} " || die "$f has no row in verdicts.tsv"
done
for name in $(echo "$rows" | cut -d ' ' -f 1); do
    [ -f "$name.ptx" ] || die "$name.ptx is missing"
done

pass=0 fail=0
err=$(mktemp "${TMPDIR:-/tmp}/mistakes.XXXXXX") || exit 2
trap 'rm -f "$err"' EXIT
report() { echo "FAIL $name: $*"; fail=$((fail + 1)); }
while read -r name verdict line; do
    "$front" "$name.ptx" >/dev/null 2>"$err"
    status=$?
    # the first diagnostic is the one that must point at the mistake
    first=$(grep -E "^$name\.ptx:[0-9]+:[0-9]+: error:" "$err" | head -n 1)
    got=$(echo "$first" | cut -d: -f2)
    if [ "$status" -gt 1 ]; then
        report "exit status $status (crash?): $(head -n 1 "$err")"
    elif [ "$verdict" = accept ]; then
        if [ "$status" -ne 0 ]; then report "rejected, ptxas accepts: $(head -n 1 "$err")"
        elif [ -s "$err" ]; then report "accepted but wrote to stderr: $(head -n 1 "$err")"
        else pass=$((pass + 1)); fi
    elif [ "$status" -eq 0 ]; then
        if [ "$line" = - ]; then report "accepted, ptxas rejects (a fatal error, no line)"
        else report "accepted, ptxas rejects at line $line"; fi
    elif [ -z "$first" ]; then
        report "no file:line:col: error: line: $(head -n 1 "$err")"
    elif [ "$line" != - ] && [ "$got" != "$line" ]; then
        report "first error on line $got, ptxas says line $line: $first"
    else
        pass=$((pass + 1))
    fi
done <<EOF
$rows
EOF
echo "mistakes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
