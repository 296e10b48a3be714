#!/bin/sh
# The build needs only a C compiler, flex and bison: on a copy of the
# sources, ./configure with pkg-config finding no Check (PKG_CONFIG_LIBDIR
# names an empty directory) succeeds and says so, `make` builds the tool,
# which works, and `make unit` fails before building anything, saying
# what to install.
# usage: no-check.sh [BUILD_DIR]
# BUILD_DIR: a plain build of the same sources (make check passes build/).
# Its generated code, objects and generator are copied in, with their
# times, so that make builds only what they do not serve (the libraries
# and the tool, linked): configure without Check changes only the Check lines
# of build/config.mk, which no object but check_ptx's is compiled with;
# that every other line is BUILD_DIR's is checked first, and when one
# differs nothing is copied and make builds everything.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
finish() {
    rm -rf "$tmp"
    echo "no-check build: $pass passed, $fail failed$reused"
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
built= reused=
if [ -n "$1" ]; then
    [ -f "$1/config.mk" ] && [ -d "$1/obj" ] || { echo "no-check.sh: $1 is no configured build"; exit 2; }
    built=$(cd "$1" && pwd)
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-nocheck.XXXXXX") || exit 2
mkdir "$tmp/src" "$tmp/empty" || exit 2
(cd "$top" && cp -Rp configure configure.ac Makefile grammar include src tools examples "$tmp/src/") ||
    { bad "copying the sources"; finish; }
cd "$tmp/src" || exit 2
PKG_CONFIG_LIBDIR=$tmp/empty ./configure >"$tmp/configure.log" 2>&1 ||
    { bad "./configure without Check fails: $(tail -3 "$tmp/configure.log")"; finish; }
ok
grep -q "Check >= 0.9.10 not found: 'make' builds the tool and the library, 'make check' needs Check" "$tmp/configure.log" &&
    ok || bad "./configure does not say that Check is missing"
grep -qx "HAVE_CHECK = no" build/config.mk && ok || bad "build/config.mk: $(grep HAVE_CHECK build/config.mk)"
# BUILD_DIR's generated code and objects, when its settings but Check's
# are these
settings() { grep -v -e '^CHECK_' -e '^HAVE_CHECK' "$1"; }
if [ -n "$built" ]; then
    if settings "$built/config.mk" >"$tmp/built.mk" && settings build/config.mk | cmp -s - "$tmp/built.mk"; then
        mkdir -p build && cp -Rp "$built/gen" "$built/obj" "$built/include" "$built/isagen" build/ ||
            { bad "copying $built's objects"; finish; }
        # the shared library's -fPIC objects too, when it has them
        if [ -d "$built/pic" ]; then
            cp -Rp "$built/pic" build/ || { bad "copying $built's -fPIC objects"; finish; }
        fi
        reused=", with the objects of $built"
    else
        echo "no-check build: $built was configured otherwise: everything is built again"
    fi
fi
make -j2 >"$tmp/make.log" 2>&1 || { bad "make without Check: $(tail -3 "$tmp/make.log")"; finish; }
ok
./build/ptx-front examples/saxpy.ptx && ok || bad "the tool built without Check rejects saxpy.ptx"
[ -f build/libptxfront.a ] && [ -L build/libptxfront.so ] && ok || bad "make without Check built no libraries"
make unit >"$tmp/unit.log" 2>&1 && bad "make unit without Check succeeds" || ok
grep -q "^make check: the unit tests need Check" "$tmp/unit.log" && ok ||
    bad "make unit without Check does not say what is missing: $(head -3 "$tmp/unit.log")"
[ ! -e build/check_ptx ] && ok || bad "make unit without Check built build/check_ptx"
finish
