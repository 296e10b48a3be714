#!/bin/sh
# The inline asm of CUDA 13's own headers, checked for the targets and
# PTX versions their guards allow.  usage: headers.sh PTX_FRONT [CUDA_DIR]
#
# 1. include/cccl/cuda/__ptx/instructions/generated: each asm statement
#    stands under "#if __cccl_ptx_isa >= NNN" and an architecture guard
#    (__CUDA_ARCH__ >= NNN or __CUDA_ARCH_FEAT_SMNN_ALL).  The pairs of
#    guards are read from the headers; for each pair (its version raised
#    to the least the target takes) the headers, joined into one file, go
#    through --cpp with __cccl_ptx_isa and the target's macros, so that
#    every statement is checked at the lowest target and version its
#    guards let through (and at every higher pair).
# 2. cub and cooperative groups: every file with an asm statement, with
#    --cpp (their NV_IF_TARGET guards settled) for sm_75, sm_90 and
#    sm_100a at PTX 9.0.
# Every error must be one of known.tsv (a statement ptxas rejects too, or
# one nvcc never hands to ptxas, with the reason); every row of
# known.tsv must still be seen.
front=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
cuda=${2:-${CUDA_HOME:-/usr/local/cuda}}
gen=$cuda/include/cccl/cuda/__ptx/instructions/generated
skip() { sh "$here/../skip.sh" cuda-headers "$1"; exit $?; }
[ -x "$front" ] || { echo "cuda-headers: error: no ptx-front at $1" >&2; exit 2; }
[ -d "$gen" ] || skip "no CUDA 13 headers at $gen"
command -v cpp >/dev/null 2>&1 || skip "no cpp (build-essential) to settle the headers' #if"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuda-headers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# the headers joined, and where each one starts
: >"$tmp/all.h"
: >"$tmp/starts"
n=0
for f in "$gen"/*.h; do
    echo "$(basename "$f") $(( $(wc -l <"$tmp/all.h") + 1 ))" >>"$tmp/starts"
    cat "$f" >>"$tmp/all.h"
    n=$((n + 1))
done
total=$("$front" --lang=cuda --stats --json --max-errors 0 "$tmp/all.h" 2>/dev/null |
        sed -n 's/.*"statements":\([0-9]*\).*/\1/p')

# the pairs of guards: "NNN TARGET" per asm statement
awk '
/^#if __cccl_ptx_isa >= / { isa = $4 }
/^# *if .*__CUDA_ARCH__ >= / { match($0, /__CUDA_ARCH__ >= [0-9]+/); arch = "sm_" substr($0, RSTART + 17, RLENGTH - 18) }
/^# *if .*__CUDA_ARCH_FEAT_SM[0-9]+_ALL/ { match($0, /__CUDA_ARCH_FEAT_SM[0-9]+_ALL/); arch = "sm_" substr($0, RSTART + 19, RLENGTH - 23) "a" }
/^ *asm *(\(|volatile)/ { print isa, arch }' "$tmp/all.h" | sort -u >"$tmp/pairs"

: >"$tmp/errors"
runs=0 checks=0
while read -r isa target; do
    version=$((isa / 100)).$(( (isa / 10) % 10 ))
    # a target that needs a later version: its least (the library says which)
    least=$(printf '' | "$front" --lang=cuda --target "$target" --ptx-version "$version" - 2>&1 |
            sed -n 's/.*requires PTX ISA .version \([0-9.]*\) or later.*/\1/p')
    if [ -n "$least" ]; then
        version=$least
        isa=$(echo "$least" | tr -d .)0
    fi
    if ! printf '' | "$front" --lang=cuda --target "$target" --ptx-version "$version" - 2>"$tmp/why"; then
        echo "cuda-headers: $target is not a target ptx-front knows: $(head -n 1 "$tmp/why")"
        continue
    fi
    "$front" --lang=cuda --stats --json --max-errors 0 --cpp -D__cccl_ptx_isa="$isa" '-D_CCCL_CUDA_COMPILER(x)=0' \
        --target "$target" --ptx-version "$version" "$tmp/all.h" >"$tmp/stats" 2>"$tmp/err"
    status=$?
    if [ $status -gt 1 ]; then
        echo "FAIL cuda-headers: $target $version: exit status $status: $(head -n 3 "$tmp/err")"
        exit 1
    fi
    runs=$((runs + 1))
    checks=$((checks + $(sed -n 's/.*"checked":\([0-9]*\).*/\1/p' "$tmp/stats")))
    # all.h:LINE:COL: error: MESSAGE  ->  FILE LINE VERSION TARGET MESSAGE
    grep ': error: ' "$tmp/err" | sed 's/^[^:]*:\([0-9]*\):[0-9]*: error: /\1 /' | while read -r line msg; do
        awk -v l="$line" '$2 <= l { f = $1; s = $2 } END { printf "%s\t%d\t", f, l - s + 1 }' "$tmp/starts"
        printf '%s\t%s\t%s\n' "$version" "$target" "$msg"
    done >>"$tmp/errors"
done <"$tmp/pairs"

# 2. cub and cooperative groups
others=$(cd "$cuda/include" && grep -rlE 'asm[[:space:]]*(volatile[[:space:]]*)?\(' cccl/cub cooperative_groups 2>/dev/null | sort)
# joined too, with their directories searched for what they include
: >"$tmp/others.cu"
: >"$tmp/ostarts"
incs=""
for f in $others; do
    # an include guard set by a file included before: undone
    guard=$(awk '/^#[[:space:]]*ifndef[[:space:]]/ { g = $2; next } g && /^#[[:space:]]*define[[:space:]]/ { if ($2 == g) print g; exit } g && NF { exit }' \
            "$cuda/include/$f")
    [ -n "$guard" ] && echo "#undef $guard" >>"$tmp/others.cu"
    echo "$f $(( $(wc -l <"$tmp/others.cu") + 1 ))" >>"$tmp/ostarts"
    cat "$cuda/include/$f" >>"$tmp/others.cu"
    incs="$incs -I$cuda/include/$(dirname "$f")"
done
ostmts=0 ochecks=0 oskips=0 gen_errors=$(grep -c . "$tmp/errors")
for t in sm_75 sm_90 sm_100a; do
    # shellcheck disable=SC2086
    "$front" --lang=cuda --stats --json --max-errors 0 --cpp -DCUDART_VERSION=13000 -I"$cuda/include/cccl" $incs \
        --target "$t" "$tmp/others.cu" >"$tmp/stats" 2>"$tmp/err"
    status=$?
    if [ $status -gt 1 ]; then
        echo "FAIL cuda-headers: cub and cooperative groups for $t: exit status $status: $(head -n 3 "$tmp/err")"
        exit 1
    fi
    grep ': error: ' "$tmp/err" | sed 's/^[^:]*:\([0-9]*\):[0-9]*: error: /\1 /' | while read -r line msg; do
        awk -v l="$line" '$2 <= l { f = $1; s = $2 } END { printf "%s\t%d\t", f, l - s + 1 }' "$tmp/ostarts"
        printf '9.0\t%s\t%s\n' "$t" "$msg"
    done >>"$tmp/errors"
    [ "$t" = sm_90 ] && ostmts=$(sed -n 's/.*"statements":\([0-9]*\).*/\1/p' "$tmp/stats")
    ochecks=$((ochecks + $(sed -n 's/.*"checked":\([0-9]*\).*/\1/p' "$tmp/stats")))
    oskips=$((oskips + $(sed -n 's/.*"skipped":\([0-9]*\).*/\1/p' "$tmp/stats")))
done

pass=0 fail=0
# each error: a row of known.tsv (FILE, PATTERN, VERSION, reason) matches
# its file, its version and a pattern found in the message
while IFS='	' read -r file line version target msg; do
    if awk -F '\t' -v f="$file" -v v="$version" -v m="$msg" '
        !/^#/ && NF == 4 && $1 == f && $3 == v && index(m, $2) { found = 1 } END { exit !found }' "$here/known.tsv"; then
        pass=$((pass + 1))
    else
        echo "FAIL cuda-headers: $file:$line (PTX $version, $target): $msg"
        fail=$((fail + 1))
    fi
done <"$tmp/errors"
# each row of known.tsv is still seen
while IFS='	' read -r file pattern version reason; do
    case $file in '#'*|'') continue ;; esac
    if awk -F '\t' -v f="$file" -v p="$pattern" -v v="$version" '
        $1 == f && $3 == v && index($5, p) { found = 1 } END { exit !found }' "$tmp/errors"; then
        pass=$((pass + 1))
    else
        echo "FAIL cuda-headers: known.tsv lists $file $pattern at $version, no longer rejected: take it off"
        fail=$((fail + 1))
    fi
done <"$here/known.tsv"

echo "cuda-headers: __ptx/instructions/generated: $n headers, $total asm statements, $(wc -l <"$tmp/pairs") pairs of guards;"
echo "  $runs runs (target, version), $checks statements checked in all, $gen_errors errors"
echo "cuda-headers: cub and cooperative groups: $(echo "$others" | wc -w) files, $ostmts asm statements (sm_90);"
echo "  for sm_75, sm_90, sm_100a: $ochecks checked, $oskips skipped, $(( $(grep -c . "$tmp/errors") - gen_errors )) errors"
echo "  (every error must be a row of known.tsv: a FAIL above says which is not)"
echo "cuda-headers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
