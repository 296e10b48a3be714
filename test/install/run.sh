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
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# skip WHAT REASON: loud, counted, a failure under REQUIRE_CORPORA=1
skip() {
    skipped=$((skipped + 1))
    sh "$here/../skip.sh" "examples: $1" "$2" || fail=$((fail + 1))
}
finish() {
    rm -rf "$tmp"
    echo "examples: $pass passed, $fail failed, $skipped skipped"
    [ $fail -eq 0 ]
    exit $?
}

cd "$top" || exit 2
make -s B="$B" install DESTDIR="$tmp/dest" PREFIX=/opt/ptx >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; bad "make install"; finish; }
root=$tmp/dest/opt/ptx
# the shared library under its full version, the soname and the
# development link pointing at it; every schema of tools/
major=$(sed -n 's/^#define PTX_FRONT_VERSION_MAJOR \([0-9]*\)/\1/p' include/ptx/ptx.h)
minor=$(sed -n 's/^#define PTX_FRONT_VERSION_MINOR \([0-9]*\)/\1/p' include/ptx/ptx.h)
so=libptxfront.so.$major.$minor
schemas=
for s in tools/*.schema.json; do schemas="$schemas share/ptx-front/${s#tools/}"; done
for f in bin/ptx-front lib/libptxfront.a lib/$so include/ptx/ptx.h include/ptx/ast.h include/ptx/isa.h \
         lib/pkgconfig/ptxfront.pc share/man/man1/ptx-front.1 $schemas; do
    [ -f "$root/$f" ] && ok || bad "not installed: $f"
done
for l in libptxfront.so.$major libptxfront.so; do
    [ -L "$root/lib/$l" ] && [ "$(readlink "$root/lib/$l")" = "$so" ] && ok ||
        bad "lib/$l is not a link to $so"
done
if command -v readelf >/dev/null 2>&1; then
    readelf -d "$root/lib/$so" | grep -q "SONAME.*\[libptxfront\.so\.$major\]" && ok ||
        bad "$so has no soname libptxfront.so.$major"
    # only the public API is exported: an internal function is not
    readelf --dyn-syms -W "$root/lib/$so" >"$tmp/dynsyms.txt" || bad "readelf --dyn-syms $so"
    grep -q ' ptx_parse_buffer$' "$tmp/dynsyms.txt" && ok || bad "$so does not export ptx_parse_buffer"
    grep -qE ' (sema_resolve|ptx_yyparse)$' "$tmp/dynsyms.txt" && bad "$so exports internal symbols" || ok
else
    skip "the shared library's soname and exports" "readelf not found (binutils)"
fi
# the programs below link with the shared library (pkg-config --libs
# gives -lptxfront and the linker takes the .so before the .a): the
# loader finds it where a user's ldconfig would
LD_LIBRARY_PATH=$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
# the .pc names the prefix it was installed for; point pkg-config at the
# staged copy the way a package build would
sed "s|^prefix=.*|prefix=$root|" "$root/lib/pkgconfig/ptxfront.pc" >"$tmp/ptxfront.pc"
command -v pkg-config >/dev/null 2>&1 ||
    { skip "building against the installed copy" "pkg-config not found"; finish; }
flags=$(PKG_CONFIG_PATH=$tmp pkg-config --cflags --libs ptxfront) || { bad "pkg-config"; finish; }
case "$flags" in *"-lptxfront"*) ok ;; *) bad "pkg-config --libs: $flags" ;; esac
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l "$root/share/man/man1/ptx-front.1" >"$tmp/man.txt" 2>"$tmp/man.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        bad "man -l exits with status $rc: $(head -1 "$tmp/man.err")"
    else
        grep -q 'list-instructions' "$tmp/man.txt" && ok || bad "man -l does not render the page"
    fi
else
    skip "the manual page" "man is not installed (apt-get install man-db)"
fi
CC=${CC:-cc}
for prog in embed count rewrite; do
    $CC -std=c11 -Wall -Wextra -Werror -o "$tmp/$prog" "examples/$prog.c" $flags ||
        { bad "building examples/$prog.c"; continue; }
    ok
done

# the public headers as C++ and as strict C, no warning; then the C++
# example, whose counts must be those --ast --compact shows (saxpy.ptx has
# no vector operands: an operand per comma)
CXX=${CXX:-c++}
printf '#include <ptx/ptx.h>\nint main(void) { return ptx_context_new() == 0; }\n' >"$tmp/hdr.c"
$CC -std=c11 -pedantic -Wall -Wextra -Werror -c -o "$tmp/hdr.o" "$tmp/hdr.c" $flags &&
    ok || bad "the installed headers warn as C11 -pedantic"
if command -v "${CXX%% *}" >/dev/null 2>&1; then
    cp "$tmp/hdr.c" "$tmp/hdr.cpp"
    $CXX -std=c++17 -Wall -Wextra -pedantic -Werror -c -o "$tmp/hdr.o" "$tmp/hdr.cpp" $flags &&
        ok || bad "the installed headers warn as C++17 -pedantic"
    if $CXX -std=c++17 -Wall -Wextra -pedantic -Werror -o "$tmp/opcount" examples/opcount.cpp $flags; then
        ok
        "$tmp/opcount" examples/saxpy.ptx | LC_ALL=C sort >"$tmp/opcount.txt" || bad "opcount exits non-zero"
        "$root/bin/ptx-front" --ast --compact examples/saxpy.ptx |
            awk -F'  ' '{ name = $2; sub(/^@!?[^ ]+ /, "", name); n = split($3, a, ",")
                          c[name]++; o[name] += ($3 == "" ? 0 : n) }
                        END { for (k in c) print k, c[k], o[k] }' | LC_ALL=C sort >"$tmp/opcount.want"
        [ -s "$tmp/opcount.want" ] && cmp -s "$tmp/opcount.txt" "$tmp/opcount.want" && ok ||
            bad "opcount on saxpy.ptx: $(diff "$tmp/opcount.want" "$tmp/opcount.txt" | head -4)"
    else
        bad "building examples/opcount.cpp"
    fi
else
    skip "the C++ example" "no C++ compiler ($CXX)"
fi

# embed: counts the instructions of the README's kernel, linked with the
# shared library, then with the static one (doc/library.md: the .a named
# by its path)
if command -v readelf >/dev/null 2>&1; then
    readelf -d "$tmp/embed" | grep -q "NEEDED.*\[libptxfront\.so\.$major\]" && ok ||
        bad "examples/embed.c is not linked with libptxfront.so.$major"
fi
[ "$("$tmp/embed" examples/saxpy.ptx)" = "20 instructions" ] && ok || bad "embed on saxpy.ptx"
libdir=$(PKG_CONFIG_PATH=$tmp pkg-config --variable=libdir ptxfront)
if $CC -std=c11 -Wall -Wextra -Werror -o "$tmp/embed-static" examples/embed.c \
       $(PKG_CONFIG_PATH=$tmp pkg-config --cflags ptxfront) "$libdir/libptxfront.a"; then
    ok
    if command -v readelf >/dev/null 2>&1; then
        readelf -d "$tmp/embed-static" | grep -q 'NEEDED.*libptxfront' &&
            bad "embed-static needs the shared library" || ok
    fi
    [ "$(LD_LIBRARY_PATH= "$tmp/embed-static" examples/saxpy.ptx)" = "20 instructions" ] && ok ||
        bad "embed (static) on saxpy.ptx"
else
    bad "building examples/embed.c against libptxfront.a"
fi

# count: per-family counts must add up to the instructions --stats counts
shared=${PTX_SHARED:-$(cd "$top/.." && pwd)/shared}/corpus/public
files=examples/saxpy.ptx
if [ -d "$shared" ]; then
    for f in cub_algos.sm_90.ptx atomics.sm_90.ptx; do
        [ -f "$shared/$f" ] && files="$files $shared/$f" || bad "corpus file $shared/$f is gone"
    done
else
    skip "corpus files" "$shared not found: count and rewrite run on examples/saxpy.ptx only"
fi
"$tmp/count" $files >"$tmp/count.txt" && ok || bad "count exits non-zero"
sum=$(awk '{s += $NF} END {print s}' "$tmp/count.txt")
want=0
for f in $files; do
    "$root/bin/ptx-front" --stats --json "$f" >"$tmp/stats.json" || bad "ptx-front --stats --json $f"
    n=$(sed -n 's/.*"totals":{[^}]*"instructions":\([0-9]*\).*/\1/p' "$tmp/stats.json")
    want=$((want + ${n:-0}))
done
[ "$sum" = "$want" ] && [ "$sum" -gt 0 ] && ok || bad "count: $sum instructions, --stats says $want"

# rewrite: a membar.cta before every ret; the result parses, has one
# membar.cta per ret, and ptxas (where installed) accepts it
for f in $files; do
    "$tmp/rewrite" "$f" >"$tmp/out.ptx" 2>"$tmp/rewrite.err" || { bad "rewrite $f"; continue; }
    "$root/bin/ptx-front" --ast --compact "$f" >"$tmp/before.ast" || bad "ptx-front --ast --compact $f"
    "$root/bin/ptx-front" --ast --compact "$tmp/out.ptx" >"$tmp/after.ast" ||
        bad "ptx-front --ast --compact on the rewrite of $f"
    rets=$(grep -cE '  (@!?[^ ]+ )?ret(\.|$)' "$tmp/before.ast")
    had=$(grep -c '  membar\.cta' "$tmp/before.ast")
    now=$(grep -c '  membar\.cta' "$tmp/after.ast")
    [ $((now - had)) = "$rets" ] && [ "$rets" -gt 0 ] && ok || bad "rewrite $f: $rets rets, $((now - had)) fences added"
    PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
    if [ -x "$PTXAS" ]; then
        arch=$(sed -n -E '/^\.target[[:space:]]+sm_[0-9]+[af]?/{s/^\.target[[:space:]]+(sm_[0-9]+[af]?).*/\1/p;q;}' "$f")
        "$PTXAS" -arch="${arch:-sm_90}" "$tmp/out.ptx" -o /dev/null && ok || bad "ptxas rejects rewrite of $f"
    else
        skip "ptxas on the rewrite of $f" "ptxas not found at $PTXAS"
    fi
done

make -s B="$B" uninstall DESTDIR="$tmp/dest" PREFIX=/opt/ptx >/dev/null 2>&1 || bad "make uninstall"
find "$root" \( -type f -o -type l \) >"$tmp/left.txt" || bad "find $root"
left=$(wc -l <"$tmp/left.txt")
[ "$left" -eq 0 ] && ok || bad "uninstall left $left files: $(head -3 "$tmp/left.txt")"
finish
