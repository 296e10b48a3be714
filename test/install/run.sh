#!/bin/sh
# Installs into a temporary prefix (with DESTDIR, as packagers do), builds
# the example programs with nothing but `pkg-config --cflags --libs
# ptxfront`, runs them, checks their output, then uninstalls.
# usage: run.sh BUILD_DIR
set -u
B=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-install.XXXXXX")
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
finish() {
    rm -rf "$tmp"
    echo "examples: $pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit $?
}

cd "$top" || exit 2
make -s B="$B" install DESTDIR="$tmp/dest" PREFIX=/opt/ptx >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; bad "make install"; finish; }
root=$tmp/dest/opt/ptx
for f in bin/ptx-front lib/libptxfront.a include/ptx/ptx.h include/ptx/ast.h include/ptx/isa.h \
         lib/pkgconfig/ptxfront.pc share/man/man1/ptx-front.1; do
    [ -f "$root/$f" ] && ok || bad "not installed: $f"
done
# the .pc names the prefix it was installed for; point pkg-config at the
# staged copy the way a package build would
sed "s|^prefix=.*|prefix=$root|" "$root/lib/pkgconfig/ptxfront.pc" >"$tmp/ptxfront.pc"
flags=$(PKG_CONFIG_PATH=$tmp pkg-config --cflags --libs ptxfront) || { bad "pkg-config"; finish; }
case "$flags" in *"-lptxfront"*) ok ;; *) bad "pkg-config --libs: $flags" ;; esac
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l "$root/share/man/man1/ptx-front.1" 2>/dev/null | grep -q 'list-instructions' && ok ||
        bad "man -l does not render the page"
fi
CC=${CC:-cc}
for prog in embed count rewrite; do
    $CC -std=c11 -Wall -Wextra -Werror -o "$tmp/$prog" "examples/$prog.c" $flags ||
        { bad "building examples/$prog.c"; continue; }
    ok
done

# embed: counts the instructions of the README's kernel
[ "$("$tmp/embed" examples/saxpy.ptx)" = "20 instructions" ] && ok || bad "embed on saxpy.ptx"

# count: per-family counts must add up to the instructions --stats counts
shared=$top/../shared/corpus/public
files=examples/saxpy.ptx
[ -d "$shared" ] && files="$files $shared/cub_algos.sm_90.ptx $shared/atomics.sm_90.ptx"
"$tmp/count" $files >"$tmp/count.txt" && ok || bad "count exits non-zero"
sum=$(awk '{s += $NF} END {print s}' "$tmp/count.txt")
want=0
for f in $files; do
    n=$("$root/bin/ptx-front" --stats --json "$f" | sed -n 's/.*"totals":{[^}]*"instructions":\([0-9]*\).*/\1/p')
    want=$((want + n))
done
[ "$sum" = "$want" ] && [ "$sum" -gt 0 ] && ok || bad "count: $sum instructions, --stats says $want"

# rewrite: a membar.cta before every ret; the result parses, has one
# membar.cta per ret, and ptxas (where installed) accepts it
for f in $files; do
    "$tmp/rewrite" "$f" >"$tmp/out.ptx" 2>"$tmp/rewrite.err" || { bad "rewrite $f"; continue; }
    rets=$("$root/bin/ptx-front" --ast --compact "$f" | grep -cE '  (@!?[^ ]+ )?ret(\.|$)')
    had=$("$root/bin/ptx-front" --ast --compact "$f" | grep -c '  membar\.cta')
    now=$("$root/bin/ptx-front" --ast --compact "$tmp/out.ptx" | grep -c '  membar\.cta')
    [ $((now - had)) = "$rets" ] && [ "$rets" -gt 0 ] && ok || bad "rewrite $f: $rets rets, $((now - had)) fences added"
    PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
    if [ -x "$PTXAS" ]; then
        arch=$(grep -m1 -oE '^\.target[[:space:]]+sm_[0-9]+[af]?' "$f" | grep -oE 'sm_[0-9]+[af]?')
        "$PTXAS" -arch="$arch" "$tmp/out.ptx" -o /dev/null && ok || bad "ptxas rejects rewrite of $f"
    fi
done

make -s B="$B" uninstall DESTDIR="$tmp/dest" PREFIX=/opt/ptx >/dev/null 2>&1 || bad "make uninstall"
left=$(find "$root" -type f | wc -l)
[ "$left" -eq 0 ] && ok || bad "uninstall left $left files"
finish
