#!/bin/sh
# One file of the conformance run: accepted with no diagnostic, --emit-ptx
# gives the file back byte for byte (so ptxas gives the same cubin), and
# --emit-ptx --canonical reparses to the same tree, is idempotent and (with
# ptxas) assembles to an equivalent cubin (cubin-diff.py).  Prints one line, "PASS file ..." or "FAIL file: why",
# and exits 0: run.sh counts the lines, and any other exit status is a
# crash of this script.  Every step's exit status is checked.
# usage: check-file.sh PTX_FRONT WORKDIR FILE MODE   (MODE: corpus | examples)
#   NO_PTXAS=REASON  no cubins; PTXAS, CUBIN_DIFF: the tools (run.sh sets them)
front=$1 work=$2 f=$3 mode=$4
name=$(printf '%s' "$f" | tr '/' '_') && [ -n "$name" ] || { echo "FAIL $f: cannot name its outputs"; exit 0; }
base=$work/$name
here=$(dirname "$0")
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
CUBIN_DIFF=${CUBIN_DIFF:-$here/../../../shared/tools/cubin-diff.py}

# an rdc file was compiled on its own (ptxas -c, see below): so is it here
cflag=
case "$f" in *rdc*) cflag=-c;; esac
"$front" $cflag "$f" 2>"$base.err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$base.err" ]; then
    echo "FAIL $f: not accepted (status $rc): $(head -1 "$base.err")"
    exit 0
fi
"$front" $cflag --emit-ptx "$f" -o "$base.same.ptx" 2>"$base.err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$base.err" ]; then
    echo "FAIL $f: --emit-ptx failed (status $rc): $(head -1 "$base.err")"
    exit 0
fi
if ! cmp -s "$f" "$base.same.ptx"; then
    echo "FAIL $f: --emit-ptx does not give the file back byte for byte"
    exit 0
fi
rm -f "$base.same.ptx"
"$front" $cflag --emit-ptx --canonical "$f" -o "$base.out.ptx" 2>"$base.err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$base.err" ]; then
    echo "FAIL $f: --emit-ptx --canonical failed (status $rc): $(head -1 "$base.err")"
    exit 0
fi
"$front" $cflag --emit-ptx --canonical "$base.out.ptx" -o "$base.again.ptx" 2>"$base.err"
rc=$?
if [ $rc -ne 0 ] || ! cmp -s "$base.out.ptx" "$base.again.ptx"; then
    echo "FAIL $f: --emit-ptx --canonical is not idempotent (status $rc)"
    exit 0
fi
rm -f "$base.again.ptx"
# both trees must print, with status 0, and be the same
"$front" $cflag --ast --no-locations "$f" >"$base.ast1" 2>&1
rc1=$?
"$front" $cflag --ast --no-locations "$base.out.ptx" >"$base.ast2" 2>&1
rc2=$?
if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
    echo "FAIL $f: --ast exits with status $rc1 on the file, $rc2 on its re-emitted PTX: $(head -1 "$base.ast1")"
    exit 0
fi
if ! cmp -s "$base.ast1" "$base.ast2"; then
    echo "FAIL $f: the canonical PTX parses to a different tree"
    exit 0
fi
if [ ! -s "$base.ast1" ]; then
    echo "FAIL $f: --ast printed nothing"
    exit 0
fi
rm -f "$base.ast1" "$base.ast2"

if [ -n "$NO_PTXAS" ]; then
    echo "PASS $f ($NO_PTXAS: cubins not compared)"
    rm -f "$base.out.ptx" "$base.err"
    exit 0
fi
# the .target's architecture, sm_75 for older ones (ptxas 13.0 has no
# sm_70 and below)
arch=$(sed -n -E '/^[[:space:]]*\.target[[:space:]]+(sm|compute)_[0-9]+[af]?/{
                  s/^[[:space:]]*\.target[[:space:]]+(sm|compute)_([0-9]+[af]?).*/sm_\2/p
                  q
              }' "$f") || { echo "FAIL $f: sed cannot read it"; exit 0; }
[ -z "$arch" ] && arch=sm_90
case "$arch" in sm_1?|sm_2?|sm_3?|sm_5?|sm_6?|sm_70|sm_72) arch=sm_75;; esac
flags=""
if [ "$mode" = examples ]; then
    flags="-c -O0"
else
    case "$f" in *rdc*) flags="-c";; esac
    # ptxas 13.0 itself crashes on this valid file at -O3
    case "$f" in *gen_cuptx_sync.sm_80.ptx) flags="$flags -O0";; esac
fi
# every original was checked with ptxas when the corpus was made: a ptxas
# that rejects one is broken, or not the ptxas of the corpus
if ! "$PTXAS" $flags -arch="$arch" "$f" -o "$base.a.cubin" >/dev/null 2>"$base.err"; then
    echo "FAIL $f: ptxas ($PTXAS $flags -arch=$arch) rejects the original: $(grep -m1 . "$base.err")"
    exit 0
fi
if ! "$PTXAS" $flags -arch="$arch" "$base.out.ptx" -o "$base.b.cubin" 2>"$base.err" >/dev/null; then
    echo "FAIL $f: ptxas rejects the canonical PTX: $(grep -m1 error "$base.err")"
    exit 0
fi
if [ ! -s "$base.a.cubin" ] || [ ! -s "$base.b.cubin" ]; then
    echo "FAIL $f: ptxas exited 0 but wrote no cubin"
    exit 0
fi
if cmp -s "$base.a.cubin" "$base.b.cubin"; then
    echo "PASS $f (canonical cubin identical)"
    rm -f "$base.a.cubin" "$base.b.cubin" "$base.out.ptx" "$base.err"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1 || [ ! -f "$CUBIN_DIFF" ]; then
    echo "FAIL $f: cubins differ and $CUBIN_DIFF cannot run (python3 and the script) to tell where"
    exit 0
fi
# cubin-diff.py: status 0 and no output, or status 1 and one line
# "differ in: SECTION..."; anything else is a crash of the helper
python3 "$CUBIN_DIFF" "$base.a.cubin" "$base.b.cubin" >"$base.diff" 2>"$base.err"
rc=$?
sections=$(sed -n 's/^differ in: //p' "$base.diff")
if [ $rc -eq 0 ] && [ ! -s "$base.diff" ]; then
    echo "PASS $f (cubin identical but for the two PTX-text debug sections)"
    rm -f "$base.a.cubin" "$base.b.cubin" "$base.out.ptx" "$base.err" "$base.diff"
    exit 0
fi
if [ $rc -ne 1 ] || [ -z "$sections" ] || [ -s "$base.err" ]; then
    echo "FAIL $f: cubin-diff.py failed (status $rc, output '$(head -1 "$base.diff")'): $(tail -1 "$base.err")"
    exit 0
fi
# What is left can only be explained by the PTX text itself, which the
# canonical layout does not keep byte for byte (comments, spacing): in
# debug builds the sm_100 'merc' copy of the embedded PTX text, and (with
# -c) the text's hash in the name of its section; when the two hashes have
# different numbers of digits, every string after that name moves, and
# with it the symbol table and the relocations of the (ignored) line table
# that refer to it.
for c in a b; do
    strings -a "$base.$c.cubin" >"$base.$c.strings" || { echo "FAIL $f: strings fails on the $c cubin"; exit 0; }
done
hash_a=$(sed -n '/^\.nv_debug_ptx_txt\.[0-9]/{s/.*\.//p;q;}' "$base.a.strings")
hash_b=$(sed -n '/^\.nv_debug_ptx_txt\.[0-9]/{s/.*\.//p;q;}' "$base.b.strings")
rm -f "$base.a.strings" "$base.b.strings"
textonly=yes
for s in $sections; do
    case "$s" in
        .nv.merc.nv_debug_ptx_txt|.nv_debug_ptx_txt.*|.shstrtab|.strtab) ;;
        .symtab|.rela.nv_debug_line_sass)
            [ -n "$hash_a" ] && [ ${#hash_a} -ne ${#hash_b} ] || textonly=no ;;
        *) textonly=no ;;
    esac
done
if [ $textonly = yes ] && grep -q '^[[:space:]]*\.loc' "$f"; then
    echo "PASS $f (cubin identical but for sections holding the PTX text: $sections)"
else
    echo "FAIL $f: cubins differ in: $sections"
    exit 0
fi
rm -f "$base.a.cubin" "$base.b.cubin" "$base.out.ptx" "$base.err" "$base.diff"
