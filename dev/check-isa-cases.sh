#!/bin/sh
# Puts every case of the table-driven instruction suites (the isa_case
# tables of test/unit/check_*.c) to ptxas and reports those where ptxas
# disagrees with the expectation: a case expected to pass must be accepted,
# a case expected to fail must be rejected.  The module around each
# statement is the one test_isa_module (test/unit/check_util.c) builds;
# keep the two in step.
#
# usage: dev/check-isa-cases.sh [test/unit/check_st.c ...]
#        (default: every test/unit/check_*.c; PTXAS=... overrides the oracle)
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
if [ ! -x "$PTXAS" ]; then
    sh "$(dirname "$0")/../test/skip.sh" check-isa-cases "no ptxas at $PTXAS"
    exit
fi
[ $# -gt 0 ] || set -- test/unit/check_*.c
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# one line per case: TARGET <tab> STATEMENT <tab> COLUMN (0: accepted)
sed -n 's/^ *{ "\([^"]*\)", "\(\([^"\\]\|\\.\)*\)", \([0-9]*\),.*/\1\t\2\t\4/; T; s/\\"/"/g; s/\\\\/\\/g; p' \
    "$@" >"$tmp/cases" || exit 2
[ -s "$tmp/cases" ] || { echo "check-isa-cases: no cases in $*"; exit 2; }

module() {  # VERSION TARGET STATEMENT
    arch=${2#sm_}
    arch=${arch%%[!0-9]*}
    vnum=${1%%.*}${1#*.}
    q='	.reg .b128 q<4>;'
    if [ "$arch" -lt 70 ] || [ "$vnum" -lt 83 ]; then q=''; fi
    printf '.version %s\n.target %s\n.address_size 64\n' "$1" "$2"
    printf '.global .surfref surf;\n.global .u32 gv[4];\n'
    printf '.func (.param .b32 r) f(.param .b32 a) { ret; }\n.func g() { ret; }\n'
    printf '.func h(.param .b32 a) { ret; }\n.func (.param .b32 r) fr() { ret; }\n'
    printf '.visible .entry k()\n{\n'
    printf '\t.reg .b32 r<9>;\n\t.reg .b64 rd<9>;\n\t.reg .pred p<3>;\n'
    printf '\t.reg .f32 f<9>;\n\t.reg .b16 h<9>;\n\t.reg .f64 fd<9>;\n'
    printf '%s\n' "$q"
    printf 'ft: .calltargets f;\nfp: .callprototype (.param .b32 _) _ (.param .b32 _);\n'
    printf 'tg: .calltargets g;\npg: .callprototype _ ();\n'
    printf 'th: .calltargets h;\nph: .callprototype _ (.param .b32 _);\n'
    printf 'tr: .calltargets fr;\npr: .callprototype (.param .b32 _) _ ();\n'
    printf '\t%s\n\tret;\n}\n' "$3"
}

n=0 bad=0
tab=$(printf '\t')
while IFS=$tab read -r target stmt col; do
    n=$((n + 1))
    version=9.0
    case $target in *" "*) version=${target%% *}; target=${target#* } ;; esac
    module "$version" "$target" "$stmt" >"$tmp/case.ptx"
    # ptxas 13 compiles for sm_75 and newer; older targets are checked there
    arch=${target#sm_}
    arch=${arch%%[!0-9]*}
    gpu=$target
    [ "$arch" -lt 75 ] && gpu=sm_75
    if "$PTXAS" -arch="$gpu" "$tmp/case.ptx" -o /dev/null >"$tmp/out" 2>&1; then
        verdict=0
    else
        verdict=1
    fi
    if [ "$col" = 0 ] && [ $verdict = 1 ]; then
        echo "ptxas rejects a case expected to pass: $target: $stmt"
        sed -n '1p' "$tmp/out"
        bad=$((bad + 1))
    elif [ "$col" != 0 ] && [ $verdict = 0 ]; then
        echo "ptxas accepts a case expected to fail: $target: $stmt"
        bad=$((bad + 1))
    fi
done <"$tmp/cases"
echo "check-isa-cases: $n cases, $bad disagreements with ptxas"
[ $bad = 0 ]
