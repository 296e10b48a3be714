#!/bin/sh
# ci-tools.sh [TOP]: every tool and Python module that the tests look for
# must be installed by .ci/run.  A test that finds a tool missing skips
# (test/skip.sh), and under REQUIRE_CORPORA=1 that skip fails CI: so a
# missing install step shows only on a fresh machine, after CI has run for
# minutes.  This check finds it at once, on any machine.
#
# What the tests look for is read from the scripts themselves:
#   - every `command -v NAME` with a literal NAME, in test/, tools/, dev/
#     and the Makefile;
#   - every Python module imported by a test's Python code (.py files of
#     test/, tools/, dev/, python/ and setup.py, `python3 -c 'import M'` in
#     shell scripts, and `[python, "-m", "M"]` in .py files) that is not in
#     the standard library.
# Each is mapped to the Debian package that provides it (the table below);
# that package must be on .ci/run's apt-get install line.  A name the table
# does not know fails too: add it to the table and to .ci/run.
#
# Exit status: 0 when everything is installed by .ci/run, 1 otherwise.
set -u
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 2
[ -f .ci/run ] || { echo "ci-tools: FAIL: .ci/run not found"; exit 1; }

# tool or module -> Debian package ('-': not from Debian: CUDA's own, or
# Essential, present on every Debian system)
package_of() {
    case $1 in
    autoconf) echo autoconf ;;
    pkg-config) echo pkg-config ;;
    python3) echo python3 ;;
    valgrind) echo valgrind ;;
    man) echo man-db ;;
    dot|gc) echo graphviz ;;
    setpriv|script) echo util-linux ;;
    runuser) echo util-linux ;;
    xz) echo xz-utils ;;
    clang) echo clang ;;
    clang-22) echo clang-22 ;;
    llc-22) echo llvm-22 ;;
    cc|gcc|g++|c++|make|ar|cpp|readelf|nm|objdump) echo build-essential ;;
    flex) echo flex ;;
    bison) echo bison ;;
    nvcc|ptxas) echo - ;;
    debootstrap) echo - ;;     # dev/ci-fresh.sh, which installs it: not CI's
    jsonschema) echo python3-jsonschema ;;
    pip) echo python3-pip ;;
    setuptools) echo python3-setuptools ;;
    wheel) echo python3-wheel ;;
    ptxfront) echo - ;;         # the module make python builds
    *) echo '?' ;;
    esac
}

# the words of .ci/run's apt-get install line(s), continuation lines joined
installed=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' .ci/run |
    grep -E '^[[:space:]]*apt-get install' | tr -s ' \t' '\n' | grep -v '^-' | sort -u)

tools=$( { grep -rhoE --include='*.sh' --include='*.py' --include=Makefile --exclude=ci-tools.sh \
             'command -v [A-Za-z][A-Za-z0-9_.+-]*' test tools dev Makefile 2>/dev/null |
           awk '{ print $3 }'; } | sort -u)

stdlib=$(python3 -c 'import sys; print("\n".join(sorted(sys.stdlib_module_names)))' 2>/dev/null)
[ -n "$stdlib" ] || { echo "ci-tools: FAIL: python3 (3.10 or later) is needed to tell the standard library apart"; exit 1; }
modules=$( { find test tools dev python setup.py -name '*.py' 2>/dev/null | xargs cat 2>/dev/null;
             grep -rhoE --include='*.py' '"-m", "[A-Za-z0-9_]+"' test tools dev python 2>/dev/null |
             sed 's/^"-m", "\(.*\)"$/import \1/';
             grep -rhoE --include='*.sh' --exclude=ci-tools.sh "python3 -c ['\"]import [A-Za-z0-9_, ]+" test tools dev 2>/dev/null |
             sed "s/^python3 -c ['\"]//"; } |
           sed -n -e 's/^[[:space:]]*import[[:space:]]\{1,\}\([A-Za-z0-9_, ]*\).*/\1/p' \
                  -e 's/^[[:space:]]*from[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\1/p' |
           tr ',' '\n' | sed -e 's/^ *//' -e 's/ .*//' -e 's/\..*//' | grep . | sort -u)

fail=0 checked=0 names=
for name in $tools $modules; do
    case $name in *[!A-Za-z0-9_.+-]*) continue ;; esac
    if [ -n "$(printf '%s\n' "$modules" | grep -Fx "$name")" ] &&
       [ -n "$(printf '%s\n' "$stdlib" | grep -Fx "$name")" ]; then
        continue        # a module of Python's standard library
    fi
    if [ -n "$(printf '%s\n' "$modules" | grep -Fx "$name")" ] &&
       [ -n "$(find test tools dev -name "$name.py" 2>/dev/null)" ]; then
        continue        # the tests' own module (test/lsp/client.py)
    fi
    checked=$((checked + 1)) names="$names $name"
    pkg=$(package_of "$name")
    case $pkg in
    -) ;;
    '?') echo "ci-tools: FAIL: the tests look for '$name', which this script's table does not map to a Debian package: add it there and to .ci/run"
         fail=$((fail + 1)) ;;
    *) if ! printf '%s\n' "$installed" | grep -Fxq "$pkg"; then
           echo "ci-tools: FAIL: the tests look for '$name' (Debian: $pkg), which .ci/run does not install"
           fail=$((fail + 1))
       fi ;;
    esac
done
if [ "$fail" -gt 0 ]; then
    echo "ci-tools: $fail of $checked tools and modules the tests use are not installed by .ci/run"
    exit 1
fi
echo "ci-tools: $checked tools and modules the tests use, each installed by .ci/run (or CUDA's):$names"
