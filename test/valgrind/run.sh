#!/bin/sh
# Valgrind memcheck: no invalid access, no uninitialised read, no leak.
#  - ptx-front --ast, --json and --emit-ptx on a sample of the corpus
#    (every 13th file of ../shared/corpus/public, about 10 files);
#  - ptx-front on every test/errors case (each of them an error path);
#  - the hostile inputs a file can hold: binary, a directory, a missing
#    file, a read error, output to /dev/full;
#  - the unit tests, in-process (CK_FORK=no).
# usage: run.sh BUILD_DIR      (make valgrind; a plain, unsanitized build)
B=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
shared=${PTX_SHARED:-$top/../shared}
front=$top/$B/ptx-front
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-valgrind.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# make valgrind asks for valgrind: without it, this is a failure
if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind: FAIL: valgrind is not installed (apt-get install valgrind)"
    exit 1
fi
pass=0 fail=0 skipped=0
# skip WHAT REASON: loud, counted, a failure under REQUIRE_CORPORA=1
skip() {
    skipped=$((skipped + 1))
    sh "$top/test/skip.sh" "valgrind: $1" "$2" || fail=$((fail + 1))
}
# vg NAME WANT_STATUS CMD...: memcheck CMD (no wrapper: valgrind does not
# follow exec), with stdout to $vg_out if set; CMD's status must be WANT
vg() {
    name=$1 want=$2
    shift 2
    valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
        --error-exitcode=99 --log-file="$tmp/vg.log" "$@" >"${vg_out:-$tmp/out}" 2>"$tmp/err"
    rc=$?
    if [ -s "$tmp/vg.log" ] || [ $rc -eq 99 ]; then
        echo "FAIL $name: memcheck errors:"
        head -40 "$tmp/vg.log"
        fail=$((fail + 1))
    elif [ $rc -ne "$want" ]; then
        echo "FAIL $name: exit status $rc, expected $want"
        head -5 "$tmp/err"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

if [ -d "$shared/corpus/public" ]; then
    n=0
    for f in "$shared"/corpus/public/*.ptx; do
        n=$((n + 1))
        [ $((n % 13)) -eq 1 ] || continue
        for mode in --ast --json --emit-ptx; do
            vg "$mode $(basename "$f")" 0 "$front" $mode "$f"
        done
    done
    [ $n -gt 1 ] || { echo "FAIL: no .ptx files in $shared/corpus/public"; fail=$((fail + 1)); }
else
    skip "the corpus sample" "$shared/corpus not found"
fi

cd "$top/test/errors" || exit 2
for f in *.ptx; do
    vg "errors/$f" 1 "$front" "$f"
done
cd "$top" || exit 2
vg "binary input" 1 "$front" "$front"
vg "a directory" 2 "$front" "$tmp"
vg "a missing file" 2 "$front" "$tmp/missing.ptx"
if [ -r /proc/self/mem ]; then
    vg "a read error" 2 "$front" /proc/self/mem
else
    skip "a read error" "/proc/self/mem cannot be read here"
fi
vg "--ast to /dev/full" 2 "$front" --ast examples/saxpy.ptx -o /dev/full
vg_out=/dev/full
vg "--emit-ptx, several files, to /dev/full" 2 "$front" --emit-ptx examples/saxpy.ptx examples/saxpy.ptx
vg_out=
CK_FORK=no CK_DEFAULT_TIMEOUT=1800
export CK_FORK CK_DEFAULT_TIMEOUT
vg "unit tests, in-process" 0 "$top/$B/check_ptx"

echo "valgrind: $pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
