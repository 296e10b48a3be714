#!/bin/sh
# ../shared/ptx-isa/experiments: small modules, each with ptxas's verdict
# and message (RESULTS.tsv).  Every one ptxas accepts must be accepted;
# every one it rejects must be rejected, except those listed in
# experiments-pending.tsv with the reason ptx-front does not reject them yet
# (a listed case that is rejected now FAILS until it is taken off the list,
# which only shrinks).  A reject whose ptxas message names a line ('line N;',
# "on line 'N'") must have ptx-front's first error on that line, except
# those listed in experiments-lines.tsv with ptx-front's line and why it
# differs.  An entry of either list that names no REJECT case of
# RESULTS.tsv, or that now agrees, FAILS.
# usage: experiments.sh PTX_FRONT
front=$1
here=$(cd "$(dirname "$0")" && pwd)
shared=${PTX_SHARED:-$here/../../../shared}
dir=$shared/ptx-isa/experiments
if [ ! -f "$dir/RESULTS.tsv" ]; then
    sh "$here/../skip.sh" experiments "$(cd "$here/../../.." && pwd)/shared/ptx-isa/experiments not found"
    exit $?
fi
pending=$here/experiments-pending.tsv
lines=$here/experiments-lines.tsv
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 pend=0 n=0 lined=0 lineless=0
tab=$(printf '\t')
while IFS="$tab" read -r name verdict desc msg; do
    [ "$name" = case ] && continue
    n=$((n + 1))
    f=$dir/cases/$name.ptx
    if [ ! -f "$f" ]; then
        echo "FAIL $name: $f is missing"; fail=$((fail + 1)); continue
    fi
    # ptxas judged every case with -c (tools/ptxcheck.sh in ../shared/ptx-isa)
    "$front" -c "$f" >/dev/null 2>"$tmp/err"
    rc=$?
    listed=no
    grep -q "^$name$tab" "$pending" && listed=yes
    case $verdict in
    ACCEPT*)
        if [ $rc -eq 0 ]; then pass=$((pass + 1))
        else echo "FAIL $name: ptxas accepts it, ptx-front rejects it (status $rc)"; fail=$((fail + 1)); fi ;;
    REJECT)
        if [ $rc -gt 1 ]; then
            echo "FAIL $name: status $rc (a crash?)"; fail=$((fail + 1))
        elif [ $rc -eq 1 ] && [ $listed = yes ]; then
            echo "FAIL $name: rejected now, as ptxas does: take it off $pending"; fail=$((fail + 1))
        elif [ $rc -eq 1 ]; then
            # the line of ptxas's error, and of ptx-front's first
            want=$(printf '%s\n' "$msg" | sed -n "s/.*line \([0-9][0-9]*\);.*/\1/p; s/.*on line '\{0,1\}\([0-9][0-9]*\).*/\1/p" | head -1)
            got=$(sed -n 's/^.*:\([0-9][0-9]*\):[0-9][0-9]*: error: .*/\1/p' "$tmp/err" | head -1)
            other=$(awk -F'\t' -v n="$name" '$1 == n { print $2; exit }' "$lines")
            if [ -z "$want" ]; then
                lineless=$((lineless + 1)); pass=$((pass + 1))
            elif [ -n "$other" ]; then
                if [ "$got" = "$want" ]; then
                    echo "FAIL $name: error on line $got now, as ptxas says: take it off $lines"; fail=$((fail + 1))
                elif [ "$got" != "$other" ]; then
                    echo "FAIL $name: error on line ${got:-?}; ptxas says $want, $lines says $other"; fail=$((fail + 1))
                else
                    lined=$((lined + 1)); pass=$((pass + 1))
                fi
            elif [ "$got" != "$want" ]; then
                echo "FAIL $name: error on line ${got:-?}, ptxas's on line $want: $msg"; fail=$((fail + 1))
            else
                lined=$((lined + 1)); pass=$((pass + 1))
            fi
        elif [ $listed = yes ]; then pend=$((pend + 1))
        else echo "FAIL $name: ptxas rejects it, ptx-front accepts it"; fail=$((fail + 1)); fi ;;
    *)
        echo "FAIL $name: verdict '$verdict' in RESULTS.tsv"; fail=$((fail + 1)) ;;
    esac
done <"$dir/RESULTS.tsv"
[ "$n" -gt 0 ] || { echo "experiments: FAIL: RESULTS.tsv has no case"; exit 1; }
# a listed name must still be a case ptxas rejects (a stale entry would
# hide nothing and mislead the reader)
for list in "$pending" "$lines"; do
    for name in $(grep -v '^#' "$list" | cut -f1); do
        awk -F'\t' -v n="$name" '$1 == n && $2 == "REJECT" { found = 1 } END { exit !found }' "$dir/RESULTS.tsv" ||
            { echo "FAIL $name: listed in $list, but RESULTS.tsv has no REJECT case of that name"; fail=$((fail + 1)); }
    done
done
echo "experiments: $pend pending (ptxas rejects them, ptx-front not yet: $pending)"
echo "experiments: $lined rejects on ptxas's line (or the one $lines gives), $lineless where ptxas names no line"
echo "experiments: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
