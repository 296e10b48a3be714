#!/bin/sh
# The inline asm suite: CUDA C++ files in the styles of CUTLASS, CUB,
# FlashAttention and llm.c, right ones and wrong ones, each judged by
# nvcc in verdicts.tsv (dev/cuda-verdicts.sh writes it: NAME, ARCH,
# accept|reject, the .cu line nvcc's first error belongs to, its message).
# ptx-front, given the file's target, must give nvcc's verdict; on a
# reject its first error must be on the line marked "//!" in the file,
# inside the asm statement nvcc's error belongs to.  Where nvcc is
# installed it is asked again (nvcc -ptx, then ptxas, for each file's
# target) and must still say what the table says.
# usage: run.sh PTX_FRONT [NVCC]
front=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
nvcc=${2:-${NVCC:-/usr/local/cuda/bin/nvcc}}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 2
die() { echo "cuda: error: $*" >&2; exit 2; }
[ -x "$front" ] || die "no ptx-front at $1"

rows=$(awk -F '\t' '
    NF != 5 || $1 !~ /^[a-z0-9_]+$/ || $2 !~ /^sm_[0-9]+[af]?$/ || $3 !~ /^(accept|reject)$/ ||
    ($3 == "accept") != ($4 == "") || ($3 == "reject" && $4 !~ /^[0-9]+$/) {
        print "verdicts.tsv:" NR ": malformed row" > "/dev/stderr"; bad = 1; next }
    { print $1, $2, $3, ($4 == "" ? "-" : $4) }
    END { exit bad }' verdicts.tsv) || die "verdicts.tsv is malformed"
[ -n "$rows" ] || die "verdicts.tsv is empty"
for f in *.cu; do
    echo "$rows" | grep -q "^${f%.cu} " || die "$f has no row in verdicts.tsv (dev/cuda-verdicts.sh)"
    arch=$(sed -n 's|^// arch: ||p' "$f")
    echo "$rows" | grep -q "^${f%.cu} $arch " || die "$f: its arch line ($arch) is not the table's"
done

# The asm statement around line L of file F: "START END" (the line of its
# keyword, the line where its parentheses close).
statement() {
    awk -v L="$2" '
        { line[NR] = $0 }
        END {
            for (s = L; s > 0 && line[s] !~ /(^|[^A-Za-z0-9_])(asm|__asm__)([^A-Za-z0-9_]|$)/; s--) ;
            depth = 0; opened = 0
            for (e = s; e <= NR; e++) {
                t = line[e]; sub(/\/\/.*/, "", t)
                n = split(t, c, "")
                for (i = 1; i <= n; i++) {
                    if (c[i] == "(") { depth++; opened = 1 }
                    else if (c[i] == ")") depth--
                }
                if (opened && depth <= 0) break
            }
            print s, e
        }' "$1"
}

pass=0 fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuda.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
report() { echo "FAIL $name: $*"; fail=$((fail + 1)); }
while read -r name arch verdict line; do
    "$front" --target "$arch" "$name.cu" >/dev/null 2>"$tmp/err"
    status=$?
    first=$(grep -E "^$name\.cu:[0-9]+:[0-9]+: error:" "$tmp/err" | head -n 1)
    got=$(echo "$first" | cut -d: -f2)
    marker=$(grep -n '//!' "$name.cu" | head -n 1 | cut -d: -f1)
    if [ "$status" -gt 1 ]; then
        report "exit status $status: $(head -n 1 "$tmp/err")"
    elif [ "$verdict" = accept ]; then
        if [ "$status" -ne 0 ]; then report "rejected, nvcc accepts: $first"
        elif grep -q 'warning:\|error:' "$tmp/err"; then report "accepted with a warning: $(head -n 1 "$tmp/err")"
        elif [ -n "$marker" ]; then report "accepted by nvcc but marked //! on line $marker"
        else pass=$((pass + 1)); fi
    elif [ "$status" -eq 0 ]; then
        report "accepted, nvcc rejects at line $line"
    elif [ -z "$marker" ]; then
        report "rejected by nvcc but no line is marked //!"
    elif [ "$got" != "$marker" ]; then
        report "first error on line $got, the mistake is on line $marker: $first"
    else
        set -- $(statement "$name.cu" "$marker")
        if [ "$line" -lt "$1" ] || [ "$line" -gt "$2" ]; then
            report "nvcc's error (line $line) is not in the asm statement of lines $1-$2"
        elif ! grep -q "note: PTX line [0-9]* of this asm statement: " "$tmp/err"; then
            report "the error has no note showing the PTX line"
        else
            pass=$((pass + 1))
        fi
    fi
done <<EOF
$rows
EOF

# nvcc, asked again where it is installed
if [ -x "$nvcc" ] && [ -x "$(dirname "$nvcc")/ptxas" ]; then
    ptxas=$(dirname "$nvcc")/ptxas
    asked=0
    while read -r name arch verdict line; do
        if "$nvcc" -arch="$arch" -ptx "$name.cu" -o "$tmp/$name.ptx" >"$tmp/log" 2>&1 &&
           "$ptxas" -arch="$arch" "$tmp/$name.ptx" -o "$tmp/$name.cubin" >>"$tmp/log" 2>&1; then
            now=accept
        else
            now=reject
        fi
        asked=$((asked + 1))
        if [ "$now" = "$verdict" ]; then
            pass=$((pass + 1))
        else
            report "nvcc now says $now, verdicts.tsv says $verdict: $(grep -m 1 -E 'error|fatal' "$tmp/log")"
        fi
    done <<EOF
$rows
EOF
    echo "cuda: nvcc asked again for $asked files"
else
    sh ../skip.sh cuda-nvcc "no nvcc at $nvcc: the files were not judged again (verdicts.tsv was used)" || fail=$((fail + 1))
fi
echo "cuda: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
