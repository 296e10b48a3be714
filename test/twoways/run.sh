#!/bin/sh
# make twoways: every input parsed with the scanner's fast lane on and off
# must give the same status, tree and diagnostics, field by field, and
# parsed keeping no tree the same status and diagnostics
# (test/tree_equal.c, through BUILD/twoways and BUILD/mutations -w).  The
# inputs: the nvcc corpus, the spec's examples and the experiments of
# ../shared, the wild modules (accepted and rejected alike, unpacked into
# BUILD/wild as make wild does), every mutation case (each mutated line
# spliced into its host), the error goldens, the mistakes, the examples,
# the hostile shapes of test/hostile at 1 MB instead of 100 MB (built
# here), 1,000 modules of statements drawn at random (seeded) from the
# fast lane's shapes and their near misses (test/twoways/statements.py),
# the LLVM modules of test/llvm (compiled here with clang-22 and
# llc-22, cached in BUILD/twoways-inputs/llvm) and test/twoways/cases.
#
# The inputs known to differ are listed with what differs, files in
# known-files.tsv (PATH TAB what, the path as this script prints it) and
# mutation cases in known-mutations.tsv (id TAB what): each must still
# differ (a listed input that agrees fails the run until it is taken off),
# and every other input must agree.  Sources that need ../shared, clang or
# CUDA skip through test/skip.sh when those are absent.
# usage: run.sh BUILD [SHARED]
b=$(cd "$1" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
shared=${2:-$top/../shared}
[ -d "$shared" ] && shared=$(cd "$shared" && pwd)
work=$b/twoways-inputs
mkdir -p "$work" || exit 2
out=$work/out
: >"$out"
fail=0
skip() {
    sh "$top/test/skip.sh" "twoways: $1" "$2" || fail=$((fail + 1))
}
# both LABEL DIR PATTERN: parse the files PATTERN names inside DIR both
# ways (named relative to DIR)
both() {
    (cd "$2" && "$b/twoways" "$1" $3) >>"$out"
}

# ---- the repository's own inputs ----------------------------------------------
both cases "$top" 'test/twoways/cases/*.ptx'
both errors "$top" 'test/errors/*.ptx'
both mistakes "$top" 'test/mistakes/*.ptx'
both examples "$top" 'examples/*.ptx'

# ---- hostile shapes, small enough to parse twice in a moment ----------------------
h=$work/hostile
mkdir -p "$h" || exit 2
kb=1000
hdr() { printf '.version 9.0\n.target sm_90\n.address_size 64\n'; }
kernel() { hdr; printf '.visible .entry k()\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n'; }
bytes() { head -c "$1" /dev/zero | tr '\0' "$2"; }
{ kernel; printf '// '; bytes $((kb * kb)) x; printf '\nret;\n}\n'; } >"$h/line_comment.ptx"
{ kernel; yes 'add.s32 %r1, %r2, %r3;' | tr -d '\n' | head -c $((kb * kb)) | sed 's/add[^;]*$//'; printf '\nret;\n}\n'; } >"$h/line_statements.ptx"
{ kernel; printf 'mov.b32 %%r1, 1'; bytes $((kb * kb)) 1; printf 'abc;\nret;\n}\n'; } >"$h/line_number.ptx"
{ kernel; printf 'mov.b32 %%r1 A'; bytes $((kb * kb)) A; printf ';\nret;\n}\n'; } >"$h/line_identifier.ptx"
{ kernel; printf '.pragma "'; bytes $((kb * kb)) p; printf '";\nret;\n}\n'; } >"$h/line_string.ptx"
{ kernel; printf '.pragma "'; bytes $((kb * kb)) p; printf '\nret;\n}\n'; } >"$h/line_unterminated.ptx"
{ kernel; bytes $((kb * kb)) '{'; } >"$h/line_braces.ptx"
{ kernel; seq 1 100000 | sed 's/^/L/; s/$/:/'; printf 'ret;\n}\n'; } >"$h/labels.ptx"
{ kernel; printf 'ld.global.v4.b32 {%%r1'; seq 2 100000 | sed 's/.*/,%r1/' | tr -d '\n'; printf '}, [%%rd1];\nret;\n}\n'; } >"$h/vector.ptx"
{ hdr; printf '.global .u32 a[100000] = {0'; seq 1 99999 | sed 's/^/,/' | tr -d '\n'; printf '};\n'; } >"$h/initialiser.ptx"
{ kernel; bytes 10000 '{'; printf 'ret;'; bytes 10000 '}'; printf '\n}\n'; } >"$h/nested.ptx"
{ hdr; printf '.section .debug_info\n{\n'; seq 1 100000 | sed 's/^/.b8 /'; printf '}\n'; } >"$h/data_lines.ptx"
cp "$b/twoways" "$h/binary.ptx" || exit 2
for f in "$h"/*.ptx; do
    [ "$(wc -c <"$f")" -ge 10000 ] || { echo "FAIL twoways: $f: the generated input is too small"; fail=$((fail + 1)); }
done
both hostile "$work" 'hostile/*.ptx'

# ---- generated: the fast lane's statement shapes and their near misses -----------------
if command -v python3 >/dev/null 2>&1; then
    rm -rf "$work/generated"
    python3 "$here/statements.py" "$work/generated" 1000 ||
        { echo "FAIL twoways: test/twoways/statements.py"; fail=$((fail + 1)); }
    both generated "$work" 'generated/*.ptx'
else
    skip "generated statements" "python3 not found"
fi

# ---- test/llvm, compiled -------------------------------------------------------------
if command -v clang-22 >/dev/null 2>&1 && command -v llc-22 >/dev/null 2>&1 &&
    [ -d /usr/local/cuda/include/cccl ]; then
    l=$work/llvm
    mkdir -p "$l" || exit 2
    for src in "$top"/test/llvm/*.cu "$top"/test/llvm/*.ll; do
        base=$(basename "$src")
        for mode in O3 O0g; do
            ptx=$l/${base%.*}.$mode.ptx
            [ -s "$ptx" ] && [ "$ptx" -nt "$src" ] && continue
            case $mode in O3) opt=-O3 ;; *) opt="-O0 -g" ;; esac
            case $src in
            # the IR calls tcgen05 and TMA intrinsics: sm_100a
            *.ll) llc-22 -march=nvptx64 -mcpu=sm_100a ${opt% -g} "$src" -o "$ptx" ;;
            *) clang-22 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda \
                   -I/usr/local/cuda/include/cccl --no-cuda-version-check -Wno-unknown-cuda-version \
                   $opt -S "$src" -o "$ptx" ;;
            esac 2>"$l/compile.err" || { echo "FAIL twoways: cannot compile $src ($mode):"; head -5 "$l/compile.err"; fail=$((fail + 1)); }
        done
    done
    both llvm "$work" 'llvm/*.ptx'
else
    skip "test/llvm" "clang-22, llc-22 or /usr/local/cuda/include/cccl not found"
fi

# ---- ../shared ---------------------------------------------------------------------------
if [ -d "$shared/corpus/public" ] && [ -d "$shared/ptx-isa/examples" ] &&
    [ -d "$shared/ptx-isa/experiments/cases" ]; then
    both corpus "$shared" 'corpus/public/*.ptx'
    both spec-examples "$shared" 'ptx-isa/examples/*.ptx'
    both experiments "$shared" 'ptx-isa/experiments/cases/*.ptx'
else
    skip "the corpora" "$shared/corpus/public, $shared/ptx-isa/examples or experiments/cases not found"
fi
wild=$shared/wild
if [ -f "$wild/ptx.tar.xz" ] && [ -f "$wild/manifest.tsv" ]; then
    # unpacked as test/conformance/wild.sh does, which then reuses them
    w=$b/wild
    if [ ! -f "$w/unpacked" ] || [ "$wild/ptx.tar.xz" -nt "$w/unpacked" ]; then
        rm -rf "$w/orig" && mkdir -p "$w/orig" &&
            xz -dc "$wild/ptx.tar.xz" | tar -xf - -C "$w/orig" && touch "$w/unpacked" ||
            { echo "FAIL twoways: cannot unpack $wild/ptx.tar.xz"; exit 1; }
    fi
    awk -F'\t' 'NR > 1 { print $1 }' "$wild/manifest.tsv" >"$work/wild.list"
    (cd "$w/orig" && xargs "$b/twoways" wild <"$work/wild.list") >>"$out"
    [ "$(grep -c '^twoways: wild:' "$out")" -eq 1 ] ||
        { echo "FAIL twoways: the wild list did not go through one run"; fail=$((fail + 1)); }
else
    skip "wild" "$wild (ptx.tar.xz, manifest.tsv) not found"
fi
if [ -f "$shared/mutations/public.tsv" ]; then
    # sanitized (CHECK_SAMPLE=8), 1 case in 8, as each parses a corpus file
    "$b/mutations" -w ${CHECK_SAMPLE:+-s "$CHECK_SAMPLE"} -p "$here/known-mutations.tsv" "$shared/mutations/public.tsv" "$shared/corpus" \
        "$top/test/conformance/found.tsv" "$shared" >"$work/mutations.out"
    rc=$?
    grep -v '^mutations: [0-9]* passed' "$work/mutations.out"
    [ $rc -eq 0 ] || { echo "FAIL twoways: the mutation cases (exit status $rc)"; fail=$((fail + 1)); }
    nmut=$(sed -n 's/^mutations: .*: \([0-9]*\) cases parsed both ways.*/\1/p' "$work/mutations.out" |
        awk '{ n += $1 } END { print n + 0 }')
    kmut=$(sed -n 's/^mutations: .* cases parsed both ways, \([0-9]*\) known to differ/\1/p' "$work/mutations.out" |
        awk '{ n += $1 } END { print n + 0 }')
else
    skip "mutations" "$shared/mutations/public.tsv not found"
    nmut=0 kmut=0
fi

# ---- the verdict ---------------------------------------------------------------------------
grep '^twoways: ' "$out"
grep '^FAIL' "$out" && fail=$((fail + 1))
# each difference must be listed; each listed file that ran must differ
known=$here/known-files.tsv
grep -v '^#' "$known" | cut -f1 | sort >"$work/known"
sed -n 's/^DIFFER \([^:]*\): .*/\1/p' "$out" | sort >"$work/differ"
comm -23 "$work/differ" "$work/known" >"$work/new"
while read -r f; do
    echo "FAIL twoways: $f: the fast lane on and off differ: $(grep -F "DIFFER $f: " "$out" | sed 's/^[^:]*: //')"
    fail=$((fail + 1))
done <"$work/new"
# files that ran: what both() was given
ran=$(awk '/^twoways: / { n += $3 } END { print n + 0 }' "$out")
comm -13 "$work/differ" "$work/known" >"$work/agree"
nknown=$(comm -12 "$work/differ" "$work/known" | wc -l)
while read -r f; do
    if [ -f "$top/$f" ] || [ -f "$shared/$f" ] || [ -f "$b/wild/orig/$f" ] || [ -f "$work/$f" ]; then
        echo "FAIL twoways: $f: the same both ways now: take it off $known"
        fail=$((fail + 1))
    fi
done <"$work/agree"
total=$((ran + nmut))
if [ $fail -ne 0 ]; then
    echo "twoways: FAIL: $fail failures among $total inputs"
    exit 1
fi
echo "twoways: $total inputs parsed both ways, trees and diagnostics identical" \
     "but for the $((nknown + kmut)) known to differ (test/twoways/known-*.tsv)"
