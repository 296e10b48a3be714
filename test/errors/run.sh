#!/bin/sh
# Bad input: every test/errors/NAME.ptx must be rejected (exit status 1)
# with exactly the diagnostics in NAME.expected.
# --update rewrites the .expected files that differ from the current output,
# printing the diff of each; one whose FIRST diagnostic changed (or that is
# new) is left as it is unless named after --update (NAME, NAME.ptx or
# NAME.expected): a golden is never regenerated blind.
# usage: run.sh PTX_FRONT [--update [NAME...]]
front=$1
# the tests run from inside test/errors: a relative PTX_FRONT path
# (build/ptx-front, as the Makefile passes it) must be made absolute first
case $front in
    /*) ;;
    */*) front=$(pwd)/$front ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
update=$2
# the goldens named to accept a changed first diagnostic, as ' NAME '
accept=' '
if [ "$update" = --update ]; then
    shift 2
    for a in "$@"; do
        a=${a##*/}
        a=${a%.expected}
        a=${a%.ptx}
        [ -f "$here/$a.ptx" ] || { echo "errors: --update $a: there is no test/errors/$a.ptx"; exit 2; }
        accept="$accept$a "
    done
fi
pass=0 fail=0 changed=0
cd "$here" || exit 2
tmp=$(mktemp "${TMPDIR:-/tmp}/ptx-errors.XXXXXX") || exit 2
trap 'rm -f "$tmp" "$tmp.out"' EXIT
# README.md's table pins each file's first diagnostic (line:column and
# message, in the first code span of its row; a message cut with '...' is
# compared up to the cut): it must say what NAME.expected says
awk -F' [|] ' '/^[|] [a-z0-9_]+[.]ptx [|] / {
    name = substr($1, 3); pin = $2
    if (!match(pin, /^[0-9]+:[0-9]+: /)) { print name "\tno line:column"; next }
    loc = substr(pin, 1, RLENGTH - 2); rest = substr(pin, RLENGTH + 1)
    if (substr(rest, 1, 3) == "`` ") { rest = substr(rest, 4); end = index(rest, " ``") }
    else { rest = substr(rest, 2); end = index(rest, "`") }
    print name "\t" name ":" loc ": error: " substr(rest, 1, end - 1)
}' README.md >"$tmp" || exit 2
for f in *.ptx; do
    name=${f%.ptx}
    out=$("$front" "$f" 2>&1)
    rc=$?
    if [ "$update" = --update ]; then
        # never record the output of a crash or of a missing binary
        if [ $rc -ne 1 ]; then
            echo "NOT UPDATED $f: exit status $rc, expected 1"
            fail=$((fail + 1))
            continue
        fi
        printf '%s\n' "$out" >"$tmp.out"
        cmp -s "$tmp.out" "$name.expected" 2>/dev/null && { rm -f "$tmp.out"; continue; }
        first=$(head -1 "$name.expected" 2>/dev/null)
        if [ "$first" != "$(head -1 "$tmp.out")" ]; then
            case $accept in
            *" $name "*) ;;
            *)
                echo "NOT UPDATED $f: its first diagnostic changed (name it to accept: run.sh PTX_FRONT --update $name; its row in README.md pins it too):"
                if [ -f "$name.expected" ]; then diff "$name.expected" "$tmp.out" | head -20
                else echo "(no $name.expected yet)"; sed 's/^/> /' "$tmp.out" | head -20; fi
                rm -f "$tmp.out"
                fail=$((fail + 1))
                continue ;;
            esac
        fi
        echo "UPDATED $name.expected:"
        if [ -f "$name.expected" ]; then diff "$name.expected" "$tmp.out"
        else sed 's/^/> /' "$tmp.out"; fi
        mv "$tmp.out" "$name.expected"
        changed=$((changed + 1))
        continue
    fi
    if [ $rc -ne 1 ]; then
        echo "FAIL $f: exit status $rc, expected 1"
        fail=$((fail + 1))
    elif [ "$out" != "$(cat "$name.expected" 2>/dev/null)" ]; then
        echo "FAIL $f: diagnostics differ from $name.expected:"
        printf '%s\n' "$out" >"$tmp.out"
        diff "$name.expected" "$tmp.out" >"$tmp.diff"
        head -20 "$tmp.diff"
        rm -f "$tmp.out" "$tmp.diff"
        fail=$((fail + 1))
    else
        pinned=$(awk -F'\t' -v f="$f" '$1 == f { print $2 }' "$tmp")
        first=$(head -1 "$name.expected")
        case $pinned in
            *...*) cut=${pinned%%...*}; case $first in "$cut"*) same=yes;; *) same=no;; esac ;;
            *) [ "$pinned" = "$first" ] && same=yes || same=no ;;
        esac
        if [ -z "$pinned" ]; then
            echo "FAIL $f: test/errors/README.md has no row for it"
            fail=$((fail + 1))
        elif [ $same = no ]; then
            echo "FAIL $f: test/errors/README.md pins '$pinned'; $name.expected says '$first'"
            fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
    fi
done
if [ "$update" = --update ]; then
    echo "errors: $changed .expected files updated, $fail not updated"
    [ $fail -eq 0 ]
    exit
fi
echo "errors: $pass passed, $fail failed"
[ $fail -eq 0 ]
