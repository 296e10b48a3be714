#!/bin/sh
# ../shared/wild: 568 modules from 21 public repositories (nvopencc, NVVM,
# LLVM and hand-written PTX, versions 1.4 to 9.3), each judged by ptxas
# 13.0 in manifest.tsv.  Every module ptxas accepts must be accepted (exit
# status 0, warnings allowed: ptxas warns too) and round-trip (--emit-ptx
# parses to the same tree, compared with --ast --no-locations); every
# module ptxas rejects or refuses to compile ("reject", "ptxas-unsupported")
# must be rejected (status 1); none may crash (the "crash" row, where
# ptxas itself crashes, included).  Cubins are not compared: the corpus is
# too big for that inside make check; test/conformance/run.sh does it for
# the nvcc corpus.  Skips (see test/skip.sh) where ../shared/wild is absent.
# usage: wild.sh PTX_FRONT WORKDIR   (the modules are unpacked in WORKDIR)
front=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
shared=${PTX_SHARED:-$(cd "$here/../../.." && pwd)/shared}
wild=$shared/wild
if [ ! -f "$wild/ptx.tar.xz" ] || [ ! -f "$wild/manifest.tsv" ]; then
    sh "$here/../skip.sh" wild "$wild (ptx.tar.xz, manifest.tsv) not found"
    exit $?
fi
mkdir -p "$2" || exit 2
work=$(cd "$2" && pwd)
# unpack once; again when the tarball is newer than what was unpacked
if [ ! -f "$work/unpacked" ] || [ "$wild/ptx.tar.xz" -nt "$work/unpacked" ]; then
    rm -rf "$work/orig" && mkdir -p "$work/orig" &&
        xz -dc "$wild/ptx.tar.xz" | tar -xf - -C "$work/orig" && touch "$work/unpacked" || {
        echo "wild: FAIL: cannot unpack $wild/ptx.tar.xz into $work/orig"
        exit 1
    }
fi
rm -rf "$work/emitted" "$work/lists" && mkdir -p "$work/emitted" "$work/lists" || exit 2
tab=$(printf '\t')
# file TAB verdict, the header left out
# (lists/compile-only: the modules ptxas judged with -c, column 8 "sm_75/-c":
# ptx-front checks them with -c too)
awk -F'\t' -v d="$work/lists" 'NR > 1 {
    v = $9 == "accept" ? "accept" : $9 == "crash" ? "crash" : "reject"
    print $1 > (d "/" v)
    if ($8 ~ /\/-c$/) print $1 > (d "/compile-only")
}' "$wild/manifest.tsv" || exit 2
touch "$work/lists/accept" "$work/lists/reject" "$work/lists/crash" "$work/lists/compile-only"
. "$here/../sample.sh"
sample_note wild
for v in accept reject crash; do
    sampled <"$work/lists/$v" >"$work/lists/$v.s" && mv "$work/lists/$v.s" "$work/lists/$v"
done
# the accepted modules, those checked as whole programs first, then those
# compiled on their own: lists/accept keeps that order
grep -vxF -f "$work/lists/compile-only" "$work/lists/accept" >"$work/lists/accept.whole"
grep -xF -f "$work/lists/compile-only" "$work/lists/accept" >"$work/lists/accept.c"
cat "$work/lists/accept.whole" "$work/lists/accept.c" >"$work/lists/accept"
# each_accepted ARGS...: ptx-front ARGS on every accepted module (from the
# current directory), -c added for those ptxas compiled on their own; the
# status is xargs's of the first run that failed
each_accepted() {
    xargs "$front" "$@" <"$work/lists/accept.whole"
    r=$?
    if [ -s "$work/lists/accept.c" ]; then
        xargs "$front" -c "$@" <"$work/lists/accept.c"
        r2=$?
        [ $r -eq 0 ] && r=$r2
    fi
    return $r
}
nacc=$(wc -l <"$work/lists/accept")
nrej=$(wc -l <"$work/lists/reject")
if [ "$nacc" -eq 0 ] || [ "$nrej" -eq 0 ]; then
    echo "wild: FAIL: manifest.tsv lists $nacc accepted and $nrej rejected modules"
    exit 1
fi
fail=0
cd "$work/orig" || exit 2
for f in $(cat "$work/lists/accept" "$work/lists/reject" "$work/lists/crash"); do
    [ -f "$f" ] || { echo "FAIL $f: in manifest.tsv, not in ptx.tar.xz"; fail=$((fail + 1)); }
done
[ $fail -eq 0 ] || exit 1

# accepted: all at once, printing their trees (xargs: status 0 only when
# every run exited 0; 123: one rejected, 125: a crash)
each_accepted --ast --no-locations >"$work/ast1" 2>"$work/accept.err"
rc=$?
if [ $rc -ne 0 ] || grep -q ': error:' "$work/accept.err"; then
    grep ': error:' "$work/accept.err" | sed 's/^/FAIL (ptxas accepts it) /' | head -20
    echo "wild: FAIL: the modules ptxas accepts: xargs status $rc"
    fail=$((fail + 1))
fi
# round trip: all re-emitted at once, each one's PTX introduced by a line
# "// == FILE", which cuts them apart again (a comment of a module that
# looks alike is not cut at: the names come in the list's order)
each_accepted --emit-ptx >"$work/emitted.all" 2>/dev/null
rc=$?
awk -v list="$work/lists/accept" -v dir="$work/emitted" '
    function next_name() { if ((getline want < list) <= 0) want = "" }
    BEGIN { next_name() }
    want != "" && $0 == "// == " want {
        if (out) close(out)
        out = dir "/" want; n = split(want, parts, "/"); path = dir
        for (i = 1; i < n; i++) { path = path "/" parts[i]; dirs[path] = 1 }
        system("mkdir -p \"" path "\""); printf "" > out
        next_name(); next
    }
    { print > out }
' "$work/emitted.all"
rc2=$?
if [ $rc -ne 0 ] || [ $rc2 -ne 0 ]; then
    echo "wild: FAIL: --emit-ptx of the modules ptxas accepts: status $rc, cutting it apart: status $rc2"
    fail=$((fail + 1))
fi
(cd "$work/emitted" && each_accepted --ast --no-locations >"$work/ast2" 2>/dev/null)
rc2=$?
if [ $rc2 -ne 0 ] || [ ! -s "$work/ast1" ]; then
    echo "wild: FAIL: --ast exits with status $rc2 on the re-emitted PTX (or printed nothing on the modules)"
    fail=$((fail + 1))
elif ! cmp -s "$work/ast1" "$work/ast2"; then
    echo "wild: FAIL: re-emitted PTX parses to a different tree: $(diff "$work/ast1" "$work/ast2" | head -3 | tr '\n' ' ')"
    fail=$((fail + 1))
fi

# rejected: one by one, status 1 each
while IFS= read -r f; do
    c=
    grep -qxF "$f" "$work/lists/compile-only" && c=-c
    "$front" $c "$f" >/dev/null 2>&1
    rc=$?
    [ $rc -eq 1 ] || { echo "FAIL $f: ptxas rejects it, ptx-front $c exits with status $rc"; fail=$((fail + 1)); }
done <"$work/lists/reject"
# where ptxas crashes: no verdict, but no crash of ours either
while IFS= read -r f; do
    "$front" "$f" >/dev/null 2>&1
    rc=$?
    [ $rc -le 1 ] || { echo "FAIL $f: status $rc (a crash?)"; fail=$((fail + 1)); }
done <"$work/lists/crash"

echo "wild: $nacc modules ptxas accepts (accepted and round-tripped), $nrej it rejects or no longer compiles (rejected), $(wc -l <"$work/lists/crash") where it crashes; $fail failures"
[ $fail -eq 0 ] && [ -z "$WILD_KEEP" ] && rm -rf "$work/emitted" "$work/emitted.all" "$work/ast1" "$work/ast2" "$work/accept.err"
[ $fail -eq 0 ]
