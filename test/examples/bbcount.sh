#!/bin/sh
# bbcount over the corpus: every file of ../shared/corpus/public (and of
# test/examples/cases) is
# instrumented (status 0), the output holds every input line, in order,
# and only adds lines: the counter array's declaration and one
# red.global.add.u64 per basic block (as many as bbcount lists on
# stderr); and, with ptxas, the result assembles.  Skips through
# test/skip.sh when ../shared or ptxas is absent.
# usage: bbcount.sh BBCOUNT
#   PTX_SHARED  the corpora (default: ../shared beside the checkout)
#   PTXAS       ptxas (default /usr/local/cuda/bin/ptxas)
bb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
skip=$here/../skip.sh
shared=${PTX_SHARED:-$(cd "$here/../../.." && pwd)/shared}
if [ ! -d "$shared/corpus/public" ]; then
    sh "$skip" bbcount "$shared/corpus not found (the corpora live beside the checkout)"
    exit
fi
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
# NO_PTXAS=REASON: instrument and compare only (make check SANITIZE=1:
# assembling tests bbcount's output, which the plain run covers; not a skip)
if [ -n "$NO_PTXAS" ]; then
    echo "bbcount: the instrumented PTX is not assembled ($NO_PTXAS)"
    PTXAS=
elif [ ! -x "$PTXAS" ]; then
    sh "$skip" "bbcount: ptxas" "ptxas not found at $PTXAS: the instrumented PTX is not assembled" || exit 1
    PTXAS=
fi
export PTXAS
work=$(mktemp -d "${TMPDIR:-/tmp}/ptx-bbcount.XXXXXX") || exit 2
. "$here/../sample.sh"
sample_note bbcount
ls "$shared"/corpus/public/*.ptx 2>/dev/null | sampled >"$work/files.txt"
n=$(wc -l <"$work/files.txt")
# and the shapes the corpus lacks: no .address_size, .func only
ls "$here"/cases/*.ptx >>"$work/files.txt"
nfiles=$(wc -l <"$work/files.txt")
if [ "$n" -eq 0 ]; then
    echo "bbcount: FAIL: no .ptx files in $shared/corpus/public"
    exit 1
fi
# one file: prints "PASS file blocks" or "FAIL file: why", exits 0
cat >"$work/one.sh" <<'ONE'
bb=$1 work=$2 f=$3
out=$work/$(basename "$f")
"$bb" "$f" >"$out" 2>"$out.blocks"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL $f: bbcount exits with status $rc: $(head -1 "$out.blocks")"; exit 0; }
blocks=$(wc -l <"$out.blocks")
# a module without a function body (some nvcc outputs for old targets)
# stays as it is
if [ "$blocks" -eq 0 ]; then
    cmp -s "$f" "$out" && echo "PASS $f 0" || echo "FAIL $f: no block, but the text changed"
    rm -f "$out" "$out.blocks"
    exit 0
fi
# only lines added: diff has no '<' line (removed or changed)
diff "$f" "$out" >"$out.diff"
[ $? -le 1 ] || { echo "FAIL $f: diff fails"; exit 0; }
if grep -q '^<' "$out.diff"; then
    echo "FAIL $f: lines removed or changed: $(grep -m1 '^<' "$out.diff")"
    exit 0
fi
adds=$(grep -c '^>[[:space:]]*red\.global\.add\.u64[[:space:]]*\[__bbcount' "$out.diff")
decls=$(grep -c '^> \.global \.u64 __bbcount\[' "$out.diff")
others=$(grep '^>' "$out.diff" | grep -vc -e '^>[[:space:]]*red\.global\.add\.u64[[:space:]]*\[__bbcount' -e '^> \.global \.u64 __bbcount\[')
if [ "$adds" -ne "$blocks" ] || [ "$decls" -ne 1 ] || [ "$others" -ne 0 ]; then
    echo "FAIL $f: $adds counting statements for $blocks blocks, $decls declarations, $others other lines added"
    exit 0
fi
# ptxas 13 assembles no 32-bit module at all ("32-Bit compilation is no
# longer supported"): bbcount's own check of the result (ptx_validate) is
# what there is
if [ -n "$PTXAS" ] && ! grep -q '^[[:space:]]*\.address_size[[:space:]]*32' "$f"; then
    arch=$(sed -n -E '/^[[:space:]]*\.target[[:space:]]+sm_[0-9]+[af]?/{
                      s/^[[:space:]]*\.target[[:space:]]+sm_([0-9]+[af]?).*/sm_\1/p
                      q
                  }' "$f")
    [ -z "$arch" ] && arch=sm_90
    case "$arch" in sm_1?|sm_2?|sm_3?|sm_5?|sm_6?|sm_70|sm_72) arch=sm_75;; esac
    # -O0: whether it assembles is the question, not the code
    if ! "$PTXAS" -c -O0 -arch="$arch" "$out" -o "$out.cubin" >/dev/null 2>"$out.err"; then
        echo "FAIL $f: ptxas rejects the instrumented PTX: $(grep -m1 . "$out.err")"
        exit 0
    fi
fi
echo "PASS $f $blocks"
rm -f "$out" "$out.blocks" "$out.diff" "$out.cubin" "$out.err"
ONE
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
xargs -P "$jobs" -n 1 sh "$work/one.sh" "$bb" "$work" <"$work/files.txt" >"$work/results.txt"
rc=$?
grep '^FAIL' "$work/results.txt"
pass=$(grep -c '^PASS' "$work/results.txt")
blocks=$(awk '/^PASS/ { n += $3 } END { print n + 0 }' "$work/results.txt")
if [ $rc -ne 0 ] || [ "$pass" -ne "$nfiles" ]; then
    echo "bbcount: FAIL: $nfiles files, $pass passed (xargs status $rc); outputs kept in $work"
    exit 1
fi
echo "bbcount: $pass files instrumented ($blocks basic blocks), only lines added$([ -n "$PTXAS" ] && echo ', each assembled by ptxas')"
rm -rf "$work"
