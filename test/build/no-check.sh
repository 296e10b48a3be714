#!/bin/sh
# The build needs only a C compiler, flex and bison: on a copy of the
# sources, ./configure with pkg-config finding no Check (PKG_CONFIG_LIBDIR
# names an empty directory) succeeds and says so, `make` builds the tool,
# which works, and `make unit` fails before building anything, saying
# what to install.
# usage: no-check.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
finish() {
    rm -rf "$tmp"
    echo "no-check build: $pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit $?
}
if ! command -v autoconf >/dev/null 2>&1; then
    sh "$here/../skip.sh" "no-check build" "autoconf not found (./configure needs it)"
    exit $?
fi
# the plain build a user makes: not the settings of a make that runs this
# (make check SANITIZE=1 passes SANITIZE=1 down, in MAKEFLAGS and the
# environment)
unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-nocheck.XXXXXX") || exit 2
mkdir "$tmp/src" "$tmp/empty" || exit 2
(cd "$top" && cp -R configure configure.ac Makefile grammar include src tools examples "$tmp/src/") ||
    { bad "copying the sources"; finish; }
cd "$tmp/src" || exit 2
PKG_CONFIG_LIBDIR=$tmp/empty ./configure >"$tmp/configure.log" 2>&1 ||
    { bad "./configure without Check fails: $(tail -3 "$tmp/configure.log")"; finish; }
ok
grep -q "Check >= 0.9.10 not found: 'make' builds the tool and the library, 'make check' needs Check" "$tmp/configure.log" &&
    ok || bad "./configure does not say that Check is missing"
grep -qx "HAVE_CHECK = no" build/config.mk && ok || bad "build/config.mk: $(grep HAVE_CHECK build/config.mk)"
make -j2 >"$tmp/make.log" 2>&1 || { bad "make without Check: $(tail -3 "$tmp/make.log")"; finish; }
ok
./build/ptx-front examples/saxpy.ptx && ok || bad "the tool built without Check rejects saxpy.ptx"
make unit >"$tmp/unit.log" 2>&1 && bad "make unit without Check succeeds" || ok
grep -q "^make check: the unit tests need Check" "$tmp/unit.log" && ok ||
    bad "make unit without Check does not say what is missing: $(head -3 "$tmp/unit.log")"
[ ! -e build/check_ptx ] && ok || bad "make unit without Check built build/check_ptx"
finish
