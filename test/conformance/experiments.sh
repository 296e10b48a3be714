#!/bin/sh
# ../shared/ptx-isa/experiments: small modules, each with ptxas's verdict
# (RESULTS.tsv).  Every one ptxas accepts must be accepted; every one it
# rejects must be rejected, except those listed in experiments-pending.tsv
# with the reason ptx-front does not reject them yet (a listed case that is
# rejected now FAILS until it is taken off the list, which only shrinks).
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
pass=0 fail=0 pend=0 n=0
tab=$(printf '\t')
while IFS="$tab" read -r name verdict rest; do
    [ "$name" = case ] && continue
    n=$((n + 1))
    f=$dir/cases/$name.ptx
    if [ ! -f "$f" ]; then
        echo "FAIL $name: $f is missing"; fail=$((fail + 1)); continue
    fi
    "$front" "$f" >/dev/null 2>&1
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
        elif [ $rc -eq 1 ]; then pass=$((pass + 1))
        elif [ $listed = yes ]; then pend=$((pend + 1))
        else echo "FAIL $name: ptxas rejects it, ptx-front accepts it"; fail=$((fail + 1)); fi ;;
    *)
        echo "FAIL $name: verdict '$verdict' in RESULTS.tsv"; fail=$((fail + 1)) ;;
    esac
done <"$dir/RESULTS.tsv"
[ "$n" -gt 0 ] || { echo "experiments: FAIL: RESULTS.tsv has no case"; exit 1; }
echo "experiments: $pend pending (ptxas rejects them, ptx-front not yet: $pending)"
echo "experiments: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
