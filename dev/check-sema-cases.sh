#!/bin/sh
# Puts every case of test/sema/cases.tsv to ptxas and reports those where
# ptxas disagrees with the case's verdict; with a ptx-front binary as the
# second argument, also those where ptx-front does.  Each case is
# test/sema/template.ptx with the case's target, module-scope text and
# kernel body in it (the same module test/unit/check_sema.c parses); a
# target written sm_75@6.3 also sets the .version (9.0 otherwise).  A
# module-scope text that starts with .version is the whole module, and the
# target only the -arch (test/sema/gates.tsv).
# A reject's error line must be the line of ptxas's first error; with
# ptx-front, its first error (or the one with the case's message, as
# test/unit/check_sema.c picks it) must be on that line and hold the
# message (where ptxas names no line, ptx-front's is not compared).
# A row's 9th column, a reason, excuses a missing line or message.
#
# usage: dev/check-sema-cases.sh [CASES.tsv [PTX_FRONT]]
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
cases=${1:-test/sema/cases.tsv}
front=$2
template=$(dirname "$0")/../test/sema/template.ptx
if [ ! -x "$PTXAS" ]; then
    echo "check-sema-cases: SKIPPED: no ptxas at $PTXAS"
    exit 0
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0 lineless=0
# an empty field becomes '@' (read would merge two tabs into one)
grep -v '^#' "$cases" | sed 's/\t\t/\t@\t/g; s/\t\t/\t@\t/g; s/\t$/\t@/' >"$tmp/rows"
while IFS='	' read -r group name verdict target module body line msg reason; do
    n=$((n + 1))
    [ "$module" = @ ] && module=
    [ "$body" = @ ] && body=
    [ "$msg" = @ ] && msg=
    [ "$reason" = @ ] && reason=
    # printf's %b turns the \n of a case into a line break, as the test does
    # sm_75@6.3: target sm_75 in a .version 6.3 module (9.0 by default)
    version=9.0
    case "$target" in *@*) version=${target#*@} target=${target%@*};; esac
    # a module-scope text starting with .version is the whole module
    # (test/sema/gates.tsv); ptxas takes -c from PTX ISA 3.1
    compile=-c
    # group "whole": judged as a whole program, ptxas's default
    [ "$group" = whole ] && compile=
    case "$module" in
    .version*)
        printf '%b\n' "$module" >"$tmp/case.ptx"
        case "$module" in .version\ [12].*|.version\ 3.0*) compile=;; esac ;;
    *)
        awk -v t="$target" -v v="$version" -v m="$(printf '%b' "$module")" -v b="$(printf '%b' "$body")" '
            { gsub(/@TARGET@/, t); gsub(/@VERSION@/, v); if ($0 == "@MODULE@") $0 = m; if ($0 == "@BODY@") $0 = b; print }
        ' "$template" >"$tmp/case.ptx" ;;
    esac
    if "$PTXAS" -arch="$target" $compile "$tmp/case.ptx" -o "$tmp/case.cubin" >"$tmp/out" 2>&1; then
        got=accept
    else
        got=reject
    fi
    if [ "$got" != "$verdict" ]; then
        bad=$((bad + 1))
        echo "ptxas disagrees: $group: $name: expected $verdict, ptxas says $got: $(grep -m1 -i 'error\|fatal' "$tmp/out")"
    elif [ "$verdict" = reject ]; then
        # ptxas's line: 'line N; error', 'Line No: N:' or "on line 'N'"
        pline=$(sed -n "s/.*line \([0-9]*\); \(error\|fatal\).*/\1/p; s/.*Line No: \([0-9]*\):.*/\1/p; s/.*on line '\([0-9]*\)'.*/\1/p" "$tmp/out" | head -1)
        if [ "$line" = 0 ] && [ -z "$reason" ]; then
            bad=$((bad + 1)); echo "no line: $group: $name: ptxas errs on line ${pline:-?}: $(grep -m1 -i 'error\|fatal' "$tmp/out")"
        elif [ -z "$pline" ]; then
            lineless=$((lineless + 1)) # a whole-module error: ptx-front's line is its own
        elif [ "$line" != 0 ] && [ "$line" != "$pline" ]; then
            bad=$((bad + 1)); echo "ptxas disagrees: $group: $name: error on line ${pline:-?}, the case says $line"
        fi
        if [ -z "$msg" ] && [ -z "$reason" ]; then
            bad=$((bad + 1)); echo "no message: $group: $name: neither a message nor a reason"
        fi
    fi
    if [ -n "$front" ]; then
        # compiled on its own as ptxas was (-c), as test/unit/check_sema.c does
        pc=-c
        [ "$group" = whole ] && pc=
        "$front" $pc "$tmp/case.ptx" >/dev/null 2>"$tmp/front" && mine=accept || mine=reject
        if [ "$mine" != "$verdict" ]; then
            bad=$((bad + 1)); echo "ptx-front disagrees: $group: $name: expected $verdict, got $mine"
        elif [ "$mine" = reject ] && [ -n "$msg" ]; then
            # the error with the case's message, else the first
            err=$(grep ': error: ' "$tmp/front" | grep -F -m1 -e "$msg" || grep -m1 ': error: ' "$tmp/front")
            fline=$(printf '%s\n' "$err" | sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: error: .*/\1/p')
            case $err in
            *"$msg"*) [ "$line" = 0 ] || [ "$fline" = "$line" ] ||
                { bad=$((bad + 1)); echo "ptx-front disagrees: $group: $name: error on line $fline, the case says $line"; } ;;
            *) bad=$((bad + 1)); echo "ptx-front disagrees: $group: $name: '$err' lacks '$msg'" ;;
            esac
        fi
    fi
done <"$tmp/rows"
echo "check-sema-cases: $n cases, $bad disagreements ($lineless rejects where ptxas names no line)"
[ "$bad" -eq 0 ]
