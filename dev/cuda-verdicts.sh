#!/bin/sh
# Writes test/cuda/verdicts.tsv: nvcc's verdict on every test/cuda/*.cu,
# compiled as its "// arch: sm_XX" line says (nvcc -arch=sm_XX -c).
# Columns: NAME, ARCH, accept|reject, the .cu line of nvcc's first error
# (its own "FILE(LINE)", or for an error of ptxas the line of the asm
# statement that made the PTX line, from the .loc that -lineinfo puts
# before it), nvcc's first error message (temporary file names left out).
# usage: dev/cuda-verdicts.sh [NVCC]   (run from the top of the sources)
nvcc=${1:-${NVCC:-/usr/local/cuda/bin/nvcc}}
ptxas=$(dirname "$nvcc")/ptxas
[ -x "$nvcc" ] || { echo "cuda-verdicts: no nvcc at $nvcc" >&2; exit 2; }
cd test/cuda || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuda-verdicts.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
out=$tmp/verdicts.tsv
: >"$out"
for f in *.cu; do
    name=${f%.cu}
    arch=$(sed -n 's|^// arch: \(sm_[0-9a-z]*\)$|\1|p' "$f" | head -n 1)
    [ -n "$arch" ] || { echo "cuda-verdicts: $f has no '// arch: sm_XX' line" >&2; exit 2; }
    if "$nvcc" -arch="$arch" -c "$f" -o "$tmp/$name.o" >"$tmp/log" 2>&1; then
        printf '%s\t%s\taccept\t\t\n' "$name" "$arch" >>"$out"
        continue
    fi
    first=$(grep -m 1 -E 'error|fatal' "$tmp/log")
    case $first in
    "$f("*)
        line=$(echo "$first" | sed 's/^[^(]*(\([0-9]*\)).*/\1/')
        msg=$(echo "$first" | sed 's/^[^:]*: error: //') ;;
    ptxas*)
        # the statement: the last .loc before the line ptxas names in the
        # same PTX made with -lineinfo (whose .loc lines move the others)
        msg=$(echo "$first" | sed 's/^ptxas [^,]*, line [0-9]*; //')
        "$nvcc" -arch="$arch" -ptx -lineinfo "$f" -o "$tmp/$name.ptx" 2>/dev/null
        pline=$("$ptxas" -arch="$arch" "$tmp/$name.ptx" -o "$tmp/$name.cubin" 2>&1 |
                sed -n 's/.*, line \([0-9]*\);.*/\1/p' | head -n 1)
        line=$(awk -v p="$pline" 'NR <= p && $1 == ".loc" && $2 == 1 { l = $3 } NR == p { print l; exit }' \
               "$tmp/$name.ptx") ;;
    *)
        line=; msg=$first ;;
    esac
    printf '%s\t%s\treject\t%s\t%s\n' "$name" "$arch" "$line" "$msg" >>"$out"
done
mv "$out" verdicts.tsv
echo "cuda-verdicts: wrote test/cuda/verdicts.tsv ($(wc -l <verdicts.tsv) files)"
