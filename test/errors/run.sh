#!/bin/sh
# Bad input: every test/errors/NAME.ptx must be rejected (exit status 1)
# with exactly the diagnostics in NAME.expected.  --update rewrites the
# .expected files from the current output (review the diff!).
# usage: run.sh PTX_FRONT [--update]
front=$1
# the tests run from inside test/errors: a relative PTX_FRONT path
# (build/ptx-front, as the Makefile passes it) must be made absolute first
case $front in
    /*) ;;
    */*) front=$(pwd)/$front ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
update=$2
pass=0 fail=0
cd "$here" || exit 2
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
        printf '%s\n' "$out" >"$name.expected"
        continue
    fi
    if [ $rc -ne 1 ]; then
        echo "FAIL $f: exit status $rc, expected 1"
        fail=$((fail + 1))
    elif [ "$out" != "$(cat "$name.expected" 2>/dev/null)" ]; then
        echo "FAIL $f: diagnostics differ from $name.expected:"
        printf '%s\n' "$out" | diff "$name.expected" - | head -20
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done
if [ "$update" = --update ]; then
    echo "errors: .expected files rewritten ($fail not updated)"
    [ $fail -eq 0 ]
    exit
fi
echo "errors: $pass passed, $fail failed"
[ $fail -eq 0 ]
