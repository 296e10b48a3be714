#!/bin/sh
# One file of the conformance run: accepted with no diagnostic, --emit-ptx
# reparses to the same tree, and (with ptxas) the re-emitted PTX assembles
# to the same cubin.  Prints "PASS file", "FAIL file: why" or "SKIP...".
# usage: check-file.sh PTX_FRONT WORKDIR FILE MODE   (MODE: corpus | examples)
front=$1 work=$2 f=$3 mode=$4
base=$work/$(echo "$f" | tr '/' '_')
here=$(dirname "$0")
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}

if ! "$front" "$f" 2>"$base.err" || [ -s "$base.err" ]; then
    echo "FAIL $f: not accepted: $(head -1 "$base.err")"
    exit 0
fi
if ! "$front" --emit-ptx "$f" -o "$base.out.ptx" 2>"$base.err"; then
    echo "FAIL $f: --emit-ptx failed: $(head -1 "$base.err")"
    exit 0
fi
"$front" --ast --no-locations "$f" >"$base.ast1" 2>&1
"$front" --ast --no-locations "$base.out.ptx" >"$base.ast2" 2>&1
if ! cmp -s "$base.ast1" "$base.ast2"; then
    echo "FAIL $f: the re-emitted PTX parses to a different tree"
    exit 0
fi
rm -f "$base.ast1" "$base.ast2"

if [ -n "$NO_PTXAS" ] || [ ! -x "$PTXAS" ]; then
    echo "PASS $f (${NO_PTXAS:-no ptxas}: cubins not compared)"
    rm -f "$base.out.ptx" "$base.err"
    exit 0
fi
arch=$(grep -m1 -oE '^[[:space:]]*\.target[[:space:]]+(sm|compute)_[0-9]+[af]?' "$f" |
       grep -oE '(sm|compute)_[0-9]+[af]?' | sed 's/compute_/sm_/')
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
if ! "$PTXAS" $flags -arch="$arch" "$f" -o "$base.a.cubin" >/dev/null 2>&1; then
    echo "SKIP $f: ptxas rejects the original"
    exit 0
fi
if ! "$PTXAS" $flags -arch="$arch" "$base.out.ptx" -o "$base.b.cubin" 2>"$base.err" >/dev/null; then
    echo "FAIL $f: ptxas rejects the re-emitted PTX: $(grep -m1 error "$base.err")"
    exit 0
fi
diffpy=$here/../../../shared/tools/cubin-diff.py
if cmp -s "$base.a.cubin" "$base.b.cubin"; then
    echo "PASS $f (cubin identical)"
elif ! command -v python3 >/dev/null 2>&1 || [ ! -f "$diffpy" ]; then
    echo "FAIL $f: cubins differ and cubin-diff.py cannot run to tell where"
    exit 0
elif python3 "$diffpy" "$base.a.cubin" "$base.b.cubin" >"$base.err" 2>&1; then
    echo "PASS $f (cubin identical but for the two PTX-text debug sections)"
else
    # What is left can only be explained by the PTX text itself, which
    # --emit-ptx does not keep byte for byte (comments, spacing):
    #  - debug builds: the sm_100 'merc' copy of the embedded PTX text, and
    #    (with -c) the text's hash in the name of its section; when the two
    #    hashes have different numbers of digits, every string after that
    #    name moves, and with it the symbol table and the relocations of the
    #    (ignored) line table that refer to it;
    #  - known-differences.txt: files where ptxas names block-scoped
    #    symbols differently when a '//' comment follows a '{'.
    sections=$(sed -n 's/^differ in: //p' "$base.err")
    hash_a=$(strings -a "$base.a.cubin" | grep -m1 '^\.nv_debug_ptx_txt\.[0-9]' | sed 's/.*\.//')
    hash_b=$(strings -a "$base.b.cubin" | grep -m1 '^\.nv_debug_ptx_txt\.[0-9]' | sed 's/.*\.//')
    textonly=yes
    for s in $sections; do
        case "$s" in
            .nv.merc.nv_debug_ptx_txt|.nv_debug_ptx_txt.*|.shstrtab|.strtab) ;;
            .symtab|.rela.nv_debug_line_sass)
                [ -n "$hash_a" ] && [ ${#hash_a} -ne ${#hash_b} ] || textonly=no ;;
            *) textonly=no ;;
        esac
    done
    name=$(basename "$f")
    if [ $textonly = yes ] && grep -q '^[[:space:]]*\.loc' "$f"; then
        echo "PASS $f (cubin identical but for sections holding the PTX text: $sections)"
    elif grep -q "^$name	$sections	" "$here/known-differences.txt"; then
        echo "PASS $f (known difference: $(grep "^$name	" "$here/known-differences.txt" | cut -f3))"
    else
        echo "FAIL $f: cubins differ: $(head -1 "$base.err")"
        exit 0
    fi
fi
rm -f "$base.a.cubin" "$base.b.cubin" "$base.out.ptx" "$base.err"
