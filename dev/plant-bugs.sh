#!/bin/sh
# Plants known bugs, one at a time, each in its own scratch copy of the
# tree (never in this checkout), runs the make target of `make check` that
# must catch it, and prints a table: bug | target | result | the first
# failure message.  A bug whose target passes is a gap in the tests.
# Issue 17 lists the first eight; the next ones guard the guards; the
# last nine (from sreg-gate-refuses-first-version) are issue 29's: bugs an
# audit planted that make check missed, each caught now.
#
# usage: sh dev/plant-bugs.sh [-l] [BUG...]
#   -l     list the bugs and exit
#   BUG    only these (default: all); the scratch copies are removed at
#          the end unless KEEP=1
# Needs ../shared (the corpora) and ptxas, like make check without skips:
# it runs with REQUIRE_CORPORA=1.  About 15 minutes on two cores (the
# sanitizer build is the longest).  Not part of make check or CI.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
shared=${PTX_SHARED:-$(cd "$top/.." && pwd)/shared}
JOBS=${JOBS:-2}

# name|target|make arguments and environment|what is planted
BUGS='validator-skips-bfe-bfi|mutations||ptx_isa_check in src/isa_check.c returns at once for bfe and bfi
ptxas-rejects-everything|conformance|PTXAS=/bin/false|ptxas is /bin/false
cubin-diff-crashes|conformance|CUBIN_DIFF=@scratch@/crash.py|cubin-diff.py raises before printing
ast-exits-2-sanitizer-path|conformance|SANITIZE=1|ptx-front --ast always exits 2 (the sanitizer run compares no cubins)
bench-aborts-after-row|bench-smoke||dev/bench.c aborts after printing its row
json-objects-close-with-bracket|unit||src/print_json.c closes every object with ]
ptx-printer-drops-guard-not|unit||--emit-ptx (canonical) prints @!p as @p
tree-printer-drops-guard-not|unit||--ast prints @!p as @p
json-printer-drops-guard-not|unit||--json leaves out neg:true
loop-bound-literal|unit||one_token_instruction_as_grammar runs 18 of its cases again
stats-json-drops-comma|unit||--stats --json writes no comma between register counts
cli-exit-0-on-errors|errors||ptx-front exits 0 when the input has errors
pending-case-agrees|mutations||mutations-pending.tsv lists a case that agrees with ptxas
found-short-row|mutations||the last row of found.tsv loses its last columns
found-empty|mutations||found.tsv keeps only its header
pending-stale-id|mutations||mutations-pending.tsv lists an id no table holds
errors-readme-drift|errors||test/errors/README.md pins an old message
cli-md-drifts|docs||the option list of doc/cli.md loses --no-locations
doc-dead-link|docs||README.md links to doc/limit.md, which does not exist
no-corpora-required|mutations|SHARED=/nonexistent|../shared is missing under REQUIRE_CORPORA=1
sreg-gate-refuses-first-version|unit||src/sema_sregs.c: %clusterid needs PTX 8.0 (refused in 7.8, its first version)
sreg-target-gate-raised|unit||src/sema_sregs.c: %lanemask_eq needs sm_30 (refused on sm_20, its first target)
gates-row-moved-no-pair|unit||src/gates.c: .samplerref is taken from PTX 1.4, not 1.5
canonical-drops-block-comments|unit||--emit-ptx --canonical keeps // comments only, not /* */
noreturn-prototype-returns|unit||a call through a .noreturn .callprototype falls through in the CFG
sarif-columns-off-by-one|diagnostics||SARIF startColumn is one past the caret
graph-json-edges-swapped|graphs||--cfg --json writes each edge with from and to swapped
callgraph-json-swapped|graphs||--callgraph --json writes each call with from and to swapped
graph-json-twice|graphs||--cfg writes the graphs of each file twice'

if [ "${1:-}" = -l ]; then
    printf '%s\n' "$BUGS" | awk -F'|' '{ printf "%-34s %-12s %s\n", $1, $2, $4 }'
    exit 0
fi
[ -d "$shared/corpus/public" ] || { echo "plant-bugs: $shared/corpus not found" >&2; exit 2; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ptx-plant.XXXXXX") || exit 2
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$scratch"' EXIT
ln -s "$shared" "$scratch/shared"
printf 'import sys\nraise SystemExit(sys.argv[9])\n' >"$scratch/crash.py"

# edit FILE SED-SCRIPT: edit FILE of the current copy; a script that
# changes nothing is an error (the code moved: update this script)
edit() {
    cp "$1" "$1.orig" && sed -e "$2" "$1.orig" >"$1" || return 1
    if cmp -s "$1" "$1.orig"; then
        echo "plant-bugs: '$2' changes nothing in $1" >&2
        return 1
    fi
    rm -f "$1.orig"
}

plant() {
    case $1 in
    validator-skips-bfe-bfi)
        edit src/isa_check.c '/^const ptx_isa_form \*ptx_isa_check(/,/^{$/s/^{$/{\
    if (!strcmp(ptx_instr_opcode(in)->text, "bfe") || !strcmp(ptx_instr_opcode(in)->text, "bfi"))\
        return NULL;/' ;;
    ptxas-rejects-everything|cubin-diff-crashes|no-corpora-required) ;;
    ast-exits-2-sanitizer-path)
        edit tools/ptx-front.c '/^    free(matched);$/{n;s/^    return status;$/    return s.mode == AST ? 2 : status;/;}' ;;
    bench-aborts-after-row)
        edit dev/bench.c '/printf("bench-row\\t/a\
    fflush(stdout);\
    abort();' ;;
    json-objects-close-with-bracket)
        edit src/print_json.c "s/ptx_out_char(o, '}');/ptx_out_char(o, ']');/" ;;
    ptx-printer-drops-guard-not)
        edit src/print_util.c 's/in->guard_neg ? "@!" : "@"/"@"/' ;;
    tree-printer-drops-guard-not)
        edit src/print_tree.c '0,/in->guard_neg ? "@!" : "@"/s//"@"/' ;;
    json-printer-drops-guard-not)
        edit src/print_json.c 's/if (in->guard_neg)/if (0 \&\& in->guard_neg)/' ;;
    loop-bound-literal)
        edit test/unit/check_grammar.c 's|(int)(sizeof one_token_stmts / sizeof one_token_stmts\[0\])|18|' ;;
    stats-json-drops-comma)
        edit src/stats.c '/"%s\\"%s\\":%llu", any/s/any ? "," : ""/""/' ;;
    cli-exit-0-on-errors)
        edit tools/ptx-front.c 's/^                status = 1;$/                status = 0;/' ;;
    pending-case-agrees)
        printf 'pub-00000\tplanted: a case that agrees\n' >>test/conformance/mutations-pending.tsv ;;
    found-short-row)
        edit test/conformance/found.tsv '$s/\t[^\t]*\t[^\t]*$//' ;;
    found-empty)
        edit test/conformance/found.tsv '2,$d' ;;
    pending-stale-id)
        printf 'found-99999\tplanted: no such case\n' >>test/conformance/mutations-pending.tsv ;;
    sreg-gate-refuses-first-version)
        edit src/sema_sregs.c "s/{ \"%clusterid\", 'u', 32, 1, 0, 0, 7, 8, 90 }/{ \"%clusterid\", 'u', 32, 1, 0, 0, 8, 0, 90 }/" ;;
    sreg-target-gate-raised)
        edit src/sema_sregs.c "s/{ \"%lanemask_eq\", 'u', 32, 0, 0, 0, 2, 0, 20 }/{ \"%lanemask_eq\", 'u', 32, 0, 0, 0, 2, 0, 30 }/" ;;
    gates-row-moved-no-pair)
        edit src/gates.c 's/{ "\.samplerref", 1, 5, 0 }/{ ".samplerref", 1, 4, 0 }/' ;;
    canonical-drops-block-comments)
        edit src/print_ptx.c "s#(s\[i + 1\] == '/' || s\[i + 1\] == '\*')#(s[i + 1] == '/')#" ;;
    noreturn-prototype-returns)
        edit src/cfg.c 's/if (has_noreturn(p->dirs, p->ndirs))/if (0 \&\& has_noreturn(p->dirs, p->ndirs))/' ;;
    sarif-columns-off-by-one)
        edit src/diag_doc.c 's/^                a\.line, a\.col, b\.line, b\.col);$/                a.line, a.col + 1, b.line, b.col);/' ;;
    graph-json-edges-swapped)
        edit src/print_graph.c 's/e->from, e->to, ptx_edge_kind_name/e->to, e->from, ptx_edge_kind_name/' ;;
    callgraph-json-swapped)
        edit src/print_graph.c '/first ? "{\\"from\\":" : ",{\\"from\\":"/{n;s/e->caller/e->callee/;n;n;s/e->callee/e->caller/;}' ;;
    graph-json-twice)
        edit tools/ptx-front.c '/^            case CFG:$/,/^                break;$/s/^                break;$/                if (ps == PTX_OK)\
                    ps = ptx_print_cfg(ctx, m, s->graph_flags | (json ? PTX_GRAPH_JSON : 0), pf, flt,\
                                       ptx_write_file, out);\
                break;/' ;;
    errors-readme-drift)
        edit test/errors/README.md "s/2:9: \`unknown target 'sm_91'\`/2:1: \`unknown target 'sm_91'\`/" ;;
    cli-md-drifts)
        edit doc/cli.md '/^- `--no-locations`/d' ;;
    doc-dead-link)
        edit README.md 's|(doc/limits.md)|(doc/limit.md)|' ;;
    *) echo "plant-bugs: no bug '$1'" >&2; return 1 ;;
    esac
}

# the base copy: this tree as it is (uncommitted changes too), built once;
# each bug gets a copy of it (cp -p keeps the times, so make rebuilds only
# what the bug touches)
echo "plant-bugs: building a copy of $top in $scratch/base"
mkdir "$scratch/base" || exit 2
(cd "$top" && tar --exclude=./.git --exclude=./build --exclude=./build-san -cf - .) >"$scratch/base.tar" ||
    exit 2
tar -C "$scratch/base" -xf "$scratch/base.tar" && rm -f "$scratch/base.tar" || exit 2
(cd "$scratch/base" && ./configure >"$scratch/base.log" 2>&1 &&
    make -j"$JOBS" all build/check_ptx build/mutations build/bench >>"$scratch/base.log" 2>&1) ||
    { echo "plant-bugs: the copy does not build: see $scratch/base.log"; KEEP=1; trap - EXIT; exit 2; }

[ $# -gt 0 ] || set -- $(printf '%s\n' "$BUGS" | cut -d'|' -f1)
printf '\n| bug | target | result | first failure message |\n|---|---|---|---|\n' >"$scratch/table"
gaps=0
for bug in "$@"; do
    line=$(printf '%s\n' "$BUGS" | grep "^$bug|") || { echo "plant-bugs: no bug '$bug'" >&2; exit 2; }
    target=$(echo "$line" | cut -d'|' -f2)
    args=$(echo "$line" | cut -d'|' -f3 | sed "s|@scratch@|$scratch|g")
    dir=$scratch/$bug
    cp -Rp "$scratch/base" "$dir" || exit 2
    log=$scratch/$bug.log
    if ! (cd "$dir" && plant "$bug") >"$log" 2>&1; then
        result="NOT PLANTED (this script is out of date)"
        first=$(head -1 "$log")
        gaps=$((gaps + 1))
    else
        echo "plant-bugs: $bug: make $target $args"
        # make arguments (NAME=value) go to make and, through it, to the
        # scripts' environment
        (cd "$dir" && env REQUIRE_CORPORA=1 make -j"$JOBS" $target $args) >>"$log" 2>&1
        rc=$?
        if [ $rc -ne 0 ]; then
            result="FAILED as it should (status $rc)"
        else
            result="PASSED = test gap"
            gaps=$((gaps + 1))
        fi
        first=$(grep -m1 -E 'FAIL|:[FE]:|[1-9][0-9]* failed|malformed|no cases|in no table|Abort|Error [0-9]' "$log")
    fi
    first=$(printf '%s' "$first" | cut -c1-200 | tr '|' '/')
    printf '| %s | %s | %s | %s |\n' "$bug" "$target${args:+ $args}" "$result" "$first" >>"$scratch/table"
    [ "${KEEP:-0}" = 1 ] || rm -rf "$dir"
done
cat "$scratch/table"
echo
echo "plant-bugs: $# bugs planted, $gaps not caught"
[ "${KEEP:-0}" = 1 ] && echo "plant-bugs: logs and copies kept in $scratch"
[ $gaps -eq 0 ]
