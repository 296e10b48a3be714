#!/bin/sh
# The command line: every option case with its exit status and its exact
# stderr (usage errors are one line and the hint, never the whole help),
# what the output options print, and the --explain output of five
# instructions against test/cli/explain/NAME.expected.
# usage: run.sh PTX_FRONT [--update [NAME...]]
# --update rewrites the explain goldens that differ, printing the diff of
# each; one whose first line changed (or that is new) is left as it is
# unless its NAME (add, ld, ...) follows --update.
front=$1
case $front in /*) ;; *) front=$(pwd)/$front ;; esac
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
update=$2
# the instructions whose --explain output is a golden
explained="add ld mma cp.async.bulk.tensor setp"
accept=' '
if [ "$update" = --update ]; then
    shift 2
    for a in "$@"; do
        a=${a##*/}
        a=${a%.expected}
        case " $explained " in
        *" $a "*) accept="$accept$a " ;;
        *) echo "cli: --update $a: no explain golden of that name"; exit 2 ;;
        esac
    done
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-cli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
cd "$top" || exit 2
k=examples/saxpy.ptx
hint="Try 'ptx-front --help' for more information."

# t STATUS STDERR ARGS...: ptx-front ARGS exits with STATUS and writes
# exactly STDERR (a '|' separates its lines); stdout is left in $tmp/out
t() {
    want_rc=$1 want_err=$2
    shift 2
    "$front" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    printf '%s\n' "$want_err" | tr '|' '\n' >"$tmp/want"
    [ -z "$want_err" ] && : >"$tmp/want"
    if [ $rc -ne "$want_rc" ]; then
        bad "ptx-front $*: exit status $rc, expected $want_rc ($(head -1 "$tmp/err"))"
    elif ! cmp -s "$tmp/want" "$tmp/err"; then
        bad "ptx-front $*: stderr differs:"
        diff "$tmp/want" "$tmp/err" | head -8
    else
        ok
    fi
}
# has TEXT WHAT: stdout of the last t contains the line TEXT
has() {
    grep -qxF -- "$1" "$tmp/out" && ok || bad "$2: no line '$1' in the output"
}

# -- GNU conventions -------------------------------------------------------
t 0 "" --max-errors=5 "$k"
t 0 "" --max-errors 5 "$k"
t 0 "" --function=saxpy --list-functions "$k"
has "kernel   .visible  saxpy" "--function=saxpy --list-functions"
t 0 "" --function saxpy --list-functions "$k"
has "kernel   .visible  saxpy" "--function saxpy --list-functions"
t 0 "" "-o$tmp/o1.txt" --list-functions "$k"
grep -qxF "kernel   .visible  saxpy" "$tmp/o1.txt" && ok || bad "-oFILE: $tmp/o1.txt lacks the listing"
t 0 "" -o "$tmp/o2.txt" --list-functions "$k"
cmp -s "$tmp/o1.txt" "$tmp/o2.txt" && ok || bad "-o FILE and -oFILE wrote different files"
t 0 "" --output="$tmp/o3.txt" --list-functions "$k"
cmp -s "$tmp/o1.txt" "$tmp/o3.txt" && ok || bad "--output=FILE and -oFILE wrote different files"
# options after the file, and unique prefixes of long names
t 0 "" "$k" --list-functions
has "kernel   .visible  saxpy" "an option after the file"
t 0 "" --list-f "$k"
has "kernel   .visible  saxpy" "--list-f (a unique prefix)"
# a unique prefix of --max-errors is --max-errors (GNU getopt_long)
t 0 "" --max-error=3 "$k"
# -- ends the options: what follows is a file, even when it starts with -
cp "$k" "$tmp/--ast"
(cd "$tmp" && "$front" --list-functions -- --ast >"$tmp/out" 2>"$tmp/err")
[ $? -eq 0 ] && grep -qxF "kernel   .visible  saxpy" "$tmp/out" && ok || bad "-- --ast: not read as a file"
t 2 "ptx-front: cannot read '--stats': No such file or directory" -- --stats

# -- unknown, ambiguous and malformed options: one line and the hint -----------
t 2 "ptx-front: unknown option '--astt'; did you mean '--ast'?|$hint" --astt "$k"
t 2 "ptx-front: unknown option '--max-erors'; did you mean '--max-errors'?|$hint" --max-erors=3 "$k"
t 2 "ptx-front: unknown option '--emit_ptx'; did you mean '--emit-ptx'?|$hint" --emit_ptx "$k"
t 2 "ptx-front: unknown option '-ast'; did you mean '--ast'?|$hint" -ast "$k"
t 2 "ptx-front: unknown option '-stats'; did you mean '--stats'?|$hint" "$k" -stats
t 2 "ptx-front: unknown option '--frobnicate'|$hint" --frobnicate "$k"
t 2 "ptx-front: unknown option '-x'|$hint" -x "$k"
t 2 "ptx-front: option '--list' is ambiguous: --list-functions, --list-instructions|$hint" --list "$k"
t 2 "ptx-front: option '--ast' takes no argument|$hint" --ast=1 "$k"
t 2 "ptx-front: option '--help' takes no argument|$hint" --help=1
t 2 "ptx-front: unknown option '-x'|$hint" "$k" -ox -x
t 2 "ptx-front: --max-errors needs an argument (N)|$hint" "$k" --max-errors
t 2 "ptx-front: -o needs an argument (FILE)|$hint" "$k" -o
t 2 "ptx-front: --max-errors needs a number, not 'x'|$hint" --max-errors=x "$k"
t 2 "ptx-front: --max-errors needs a number, not '-1'|$hint" --max-errors=-1 "$k"
# no FILE: standard input, unless it is a terminal (as jq and cmark)
if command -v script >/dev/null 2>&1; then
    for args in "--ast" ""; do
        script -qec "\"$front\" $args" /dev/null >"$tmp/tty" 2>&1 </dev/null
        rc=$?
        [ $rc -eq 2 ] && grep -q "ptx-front: no input file (standard input is a terminal)" "$tmp/tty" && ok ||
            bad "ptx-front $args on a terminal: status $rc, $(head -1 "$tmp/tty")"
    done
else
    sh "$top/test/skip.sh" "cli: no input file on a terminal" "script (util-linux) is not installed" || fail=$((fail + 1))
fi
"$front" --stats <"$k" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^<stdin>: .version 9.0" "$tmp/out" && [ ! -s "$tmp/err" ] && ok ||
    bad "ptx-front --stats <FILE: status $rc, $(head -1 "$tmp/out") $(head -1 "$tmp/err")"
cat "$k" | "$front" --emit-ptx >"$tmp/out" 2>"$tmp/err" && cmp -s "$k" "$tmp/out" && ok ||
    bad "cat FILE | ptx-front --emit-ptx does not give FILE back"

# -- combinations: one output; the others only where they do something -------------
t 2 "ptx-front: --json does not go with --ast: it goes alone (the tree as JSON) or with --stats, --list-functions, --cfg or --callgraph|$hint" --ast --json "$k"
t 2 "ptx-front: --json does not go with --emit-ptx: it goes alone (the tree as JSON) or with --stats, --list-functions, --cfg or --callgraph|$hint" --json --emit-ptx "$k"
t 2 "ptx-front: --emit-ptx and --stats are both output options: choose one|$hint" --emit-ptx --stats "$k"
t 2 "ptx-front: --ast and --list-functions are both output options: choose one|$hint" --ast --list-functions "$k"
t 2 "ptx-front: --list-instructions and --explain are both output options: choose one|$hint" --list-instructions --explain add
t 2 "ptx-front: --no-locations goes only with --ast|$hint" --no-locations "$k"
t 2 "ptx-front: --no-locations goes only with --ast|$hint" --no-locations --emit-ptx "$k"
t 2 "ptx-front: --compact goes only with --ast|$hint" --compact --stats "$k"
t 2 "ptx-front: --function selects what --ast, --emit-ptx, --json, --stats, --list-functions, --cfg or --callgraph print|$hint" --function saxpy "$k"
t 2 "ptx-front: -o needs an output option (checking alone writes nothing)|$hint" -o "$tmp/x" "$k"
t 2 "ptx-front: --max-errors reads PTX files: not with --list-instructions or --explain|$hint" --max-errors 3 --explain add
t 2 "ptx-front: --list-instructions takes one PATTERN and no input file|$hint" --list-instructions add "$k"
t 2 "ptx-front: --list-instructions takes one PATTERN and no input file|$hint" --list-instructions=add "$k"
t 2 "ptx-front: --explain takes no input file ('$k')|$hint" --explain add "$k"
# --lsp: the client sends the documents; what goes with it
t 2 "ptx-front: --lsp takes no input file ('$k'): the client sends the documents|$hint" --lsp "$k"
t 2 "ptx-front: --lsp and --ast are both output options: choose one|$hint" --lsp --ast
t 2 "ptx-front: --color colours diagnostics of PTX files: not with --list-instructions, --explain or --lsp|$hint" --lsp --color always
t 2 "ptx-front: --diagnostics-format formats diagnostics of PTX files: not with --list-instructions, --explain or --lsp|$hint" --lsp --diagnostics-format json
# an option given twice is not two outputs: the output is that of once
t 0 "" --ast --compact "$k"
cp "$tmp/out" "$tmp/once"
t 0 "" --ast --ast --compact "$k"
[ -s "$tmp/once" ] && cmp -s "$tmp/once" "$tmp/out" && ok ||
    bad "--ast --ast --compact: the output is not that of --ast --compact ($(wc -l <"$tmp/out") lines, $(wc -l <"$tmp/once") once)"

# -- --function matching nothing: an error (status 2) ------------------------
t 2 "ptx-front: error: --function 'nomatch' matches no function (see --list-functions)" --function nomatch --list-functions "$k"
[ ! -s "$tmp/out" ] && ok || bad "--function nomatch printed a function"
t 2 "ptx-front: error: --function 'x*' matches no function (see --list-functions)" --function 'sax*' --function 'x*' --ast --compact "$k"
grep -q "fma.rn.f32" "$tmp/out" && ok || bad "--function 'sax*' lost saxpy's instructions"
# --emit-ptx of a file where no pattern matches writes nothing (it used to
# write the module without its functions)
t 2 "ptx-front: error: --function 'nomatch' matches no function (see --list-functions)" --emit-ptx --function nomatch "$k"
[ ! -s "$tmp/out" ] && ok || bad "--emit-ptx --function nomatch wrote $(wc -c <"$tmp/out") bytes"

# -- a module with errors: every output prints what was parsed, the
# diagnostics on stderr, status 1; JSON says "valid":false; --emit-ptx
# writes the text as it was (they printed nothing) ----------------------------
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %%r<3>;\n\tadd.s33 %%r1, %%r2, 1;\n\tret;\n}\n' >"$tmp/bad.ptx"
for mode in --ast --json --stats "--stats --json" --cfg "--cfg --json" --callgraph "--callgraph --json" --emit-ptx \
            "--emit-ptx --canonical" --list-functions; do
    # shellcheck disable=SC2086
    "$front" $mode "$tmp/bad.ptx" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 1 ] || ! grep -q "bad.ptx:7:5: error: unknown modifier '.s33'" "$tmp/err" || [ ! -s "$tmp/out" ]; then
        bad "$mode of a module with an error: status $rc (expected 1), $(wc -c <"$tmp/out") bytes out, $(head -1 "$tmp/err")"
        continue
    fi
    case $mode in
    *--json*) grep -q '"valid":false' "$tmp/out" && ok || bad "$mode: no \"valid\":false: $(head -c 120 "$tmp/out")" ;;
    --emit-ptx*) cmp -s "$tmp/bad.ptx" "$tmp/out" && ok || bad "$mode of a module with an error is not its text as it was" ;;
    --ast) grep -q 'instr add  modifiers .s33' "$tmp/out" && ok || bad "--ast: the statement in error is not in the tree" ;;
    *) ok ;;
    esac
done
t 0 "" --json "$k"
grep -q '"valid":true' "$tmp/out" && ok || bad "--json of a valid module: no \"valid\":true"

# -- --stats: instructions by the names of --list-instructions (they were
# the tables' ids: bar_barrier, membar_fence), a function declared and
# defined counted once (it was two) --------------------------------------------
printf '.version 8.0\n.target sm_90\n.address_size 64\n.func f();\n.func f()\n{\n\tret;\n}\n.visible .entry k()\n{\n\tbar.sync 0;\n\tmembar.gl;\n\tcall f;\n\tret;\n}\n' >"$tmp/st.ptx"
t 0 "" --stats "$tmp/st.ptx"
has "totals: 1 kernel, 1 function, 5 instructions; module memory: global 0 B, const 0 B, shared 0 B" "--stats of a declared and defined function"
grep -q "^top instructions: ret 2, bar.sync 1, call 1, membar 1\$" "$tmp/out" && ok || bad "--stats: instruction names: $(tail -1 "$tmp/out")"
t 0 "" --stats --json "$tmp/st.ptx"
grep -q '"totals":{"kernels":1,"functions":1,"instructions":5,"global":0,"const":0,"shared":0,"families":{"ret":2,"bar.sync":1,"call":1,"membar":1}}' "$tmp/out" && ok ||
    bad "--stats --json: totals $(grep -o '"totals".*' "$tmp/out")"

# -- the instruction reference takes the manual's section names (they gave
# "the tables have no instruction"), any case, and suggests -------------------
for name in mma.sp ld.global.nc tcgen05.wait tcgen05.fence match.sync rcp.approx.ftz.f64 mad.cc barrier; do
    t 0 "" --explain "$name"
    head -1 "$tmp/out" | grep -q "^$name: [0-9][0-9]* forms\{0,1\}" && ok || bad "--explain $name: $(head -1 "$tmp/out")"
    t 0 "" --list-instructions "$name"
    [ -s "$tmp/out" ] && ok || bad "--list-instructions $name lists nothing"
done
# every section of the manual the tables hold (grammar/isa/NAME.isa; not the
# constructs the grammar handles, nor the words ptxas ignores)
n=0
for f in grammar/isa/*.isa; do
    name=$(basename "$f" .isa)
    grep -qx construct "$f" && continue
    [ "$name" = ignored ] && continue
    n=$((n + 1))
    "$front" --explain "$name" >/dev/null 2>"$tmp/err" || bad "--explain $name (a section of the manual): $(head -1 "$tmp/err")"
done
[ "$n" -gt 150 ] && ok || bad "only $n sections of the manual in grammar/isa"
t 0 "" --explain LD
head -1 "$tmp/out" | grep -q "^ld: [0-9]* forms" && ok || bad "--explain LD: $(head -1 "$tmp/out")"
t 2 "ptx-front: the tables have no instruction 'ldd'; did you mean 'ld' or 'ldu'?" --explain ldd
t 2 "ptx-front: the tables have no instruction 'zzzzqq' (see --list-instructions)" --explain zzzzqq
# --target and --ptx-version: only the forms and instructions there
t 0 "" --explain ld --ptx-version 8.0 --target sm_90
head -1 "$tmp/out" | grep -qx "ld: [0-9]* of [0-9]* forms at PTX ISA 8.0 for sm_90" && ok || bad "--explain ld at 8.0 sm_90: $(head -1 "$tmp/out")"
grep -q "PTX ISA 8\.[1-9]\|PTX ISA 9\.\|sm_100" "$tmp/out" && bad "--explain ld at 8.0 sm_90 shows a newer form: $(grep -m1 "PTX ISA 8\.[1-9]\|PTX ISA 9\.\|sm_100" "$tmp/out")" || ok
"$front" --explain ld >"$tmp/all"
[ "$(grep -c '^  ld' "$tmp/out")" -lt "$(grep -c '^  ld' "$tmp/all")" ] && ok || bad "--explain ld at 8.0 sm_90 shows every form"
t 0 "" --explain ld --target sm_100
grep -q "^  ld.*\.v4\.type{\.ccop}" "$tmp/out" && ok || bad "--explain ld --target sm_100 lacks the 256-bit loads"
t 0 "" --explain tcgen05.alloc --ptx-version 8.0
has "tcgen05.alloc: none of its 2 forms at PTX ISA 8.0 (family tcgen05.alloc / tcgen05.dealloc / tcgen05.relinquish_alloc_permit)" "--explain tcgen05.alloc --ptx-version 8.0"
t 0 "ptx-front: warning: no instruction matches 'tcgen05' at sm_90" --list-instructions tcgen05 --target sm_90
t 0 "" --list-instructions tcgen05.alloc --target sm_100a
has "tcgen05.alloc                      PTX 8.6  sm_100f  tcgen05.alloc / tcgen05.dealloc / tcgen05.relinquish_alloc_permit" "--list-instructions tcgen05.alloc --target sm_100a"
t 0 "" --list-instructions --ptx-version 6.0
grep -q "PTX [7-9]\." "$tmp/out" && bad "--list-instructions --ptx-version 6.0 lists a newer instruction" || ok
grep -q "^wgmma" "$tmp/out" && bad "--list-instructions --ptx-version 6.0 lists wgmma" || ok
t 2 "ptx-front: --ptx-version takes a PTX ISA version such as 8.0, not 'x'|$hint" --explain add --ptx-version x
t 2 "ptx-front: --ptx-version: target sm_100a with PTX ISA 8.0: target 'sm_100a' requires PTX ISA .version 8.6 or later|$hint" --explain add --ptx-version 8.0 --target sm_100a

# -- --list-functions --json: one document per file ----------------------------
t 0 "" --list-functions --json "$k" "$k"
[ "$(sed -n 1p "$tmp/out")" = '{"file":"examples/saxpy.ptx","functions":[{"name":"saxpy","kind":"kernel","linkage":"visible","defined":true}]}' ] &&
    [ "$(wc -l <"$tmp/out")" -eq 2 ] && ok || bad "--list-functions --json: $(head -c 200 "$tmp/out")"
# (a .func declared and never defined is ptxas's "Unresolved extern
# function": the prototype is .extern, defined in another module)
printf '.version 8.0\n.target sm_90\n.address_size 64\n.extern .func f(.param .b32 x);\n.visible .entry k()\n{\n\tret;\n}\n' >"$tmp/two.ptx"
t 0 "" --list-functions --json "$tmp/two.ptx"
grep -qF '"functions":[{"name":"f","kind":"function","linkage":"extern","defined":false},{"name":"k","kind":"kernel","linkage":"visible","defined":true}]}' "$tmp/out" &&
    ok || bad "--list-functions --json of a prototype and a kernel: $(cat "$tmp/out")"
t 0 "" --list-functions "$tmp/two.ptx"
has "function .extern   f (prototype)" "--list-functions of a prototype"

# -- --target: the module read as if it declared that architecture ----------------
printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tfence.proxy.async;\n\tret;\n}\n' >"$tmp/sm90.ptx"
t 1 "$tmp/sm90.ptx:6:13: error: '.async' in 'fence.proxy.async' requires .target sm_90 or later; this module targets sm_80| 	fence.proxy.async;| 	           ^~~~~~|$tmp/sm90.ptx:6:13: note: the form that needs it: fence.proxy.async{.ss}; .ss = { .global, .shared::cta, .shared::cluster }| 	fence.proxy.async;| 	           ^~~~~~" "$tmp/sm90.ptx"
t 0 "" --target sm_90 "$tmp/sm90.ptx"
t 0 "" --target=compute_90 "$tmp/sm90.ptx"
t 1 "$tmp/sm90.ptx:6:13: error: '.async' in 'fence.proxy.async' requires .target sm_90 or later; this module targets sm_86| 	fence.proxy.async;| 	           ^~~~~~|$tmp/sm90.ptx:6:13: note: the form that needs it: fence.proxy.async{.ss}; .ss = { .global, .shared::cta, .shared::cluster }| 	fence.proxy.async;| 	           ^~~~~~" --target sm_86 "$tmp/sm90.ptx"
# several files: the line naming the next file starts a line even after a
# file that does not end in a newline (lossless output keeps that)
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}' >"$tmp/nonl.ptx"
t 0 "" --emit-ptx "$tmp/nonl.ptx" "$k"
has "// == $k" "--emit-ptx of a file without a final newline, then another"
has "}" "--emit-ptx of a file without a final newline, then another"
# --emit-ptx is the input byte for byte; the canonical layout prints the tree
t 0 "" --target sm_90 --emit-ptx "$tmp/sm90.ptx"
has ".target sm_80" "--target sm_90 --emit-ptx"
t 0 "" --target sm_90 --emit-ptx --canonical "$tmp/sm90.ptx"
has ".target sm_90" "--target sm_90 --emit-ptx --canonical"
# a target the run sets is not the module's own: the error is at the .version it needs
t 1 "$tmp/sm90.ptx:1:1: error: target 'sm_100' (set for this run, --target) requires PTX ISA .version 8.6 or later; this module is .version 8.0| .version 8.0| ^~~~~~~~~~~~" --target sm_100 "$tmp/sm90.ptx"
printf '.version 8.0\n.target sm_100\n.address_size 64\n' >"$tmp/own100.ptx"
t 1 "$tmp/own100.ptx:2:9: error: target 'sm_100' requires PTX ISA .version 8.6 or later| .target sm_100|         ^~~~~~" "$tmp/own100.ptx"
t 2 "ptx-front: --target takes an architecture such as sm_90a, not 'sm80'|$hint" --target sm80 "$k"
# the graphs: --cfg takes =full or nothing, both go with --json and --function
t 2 "ptx-front: --cfg takes no value or =full, not 'ful'|$hint" --cfg=ful "$k"
t 0 "" --cfg=full "$k"
t 0 "" --cfg --json --function '*' "$k"
t 0 "" --callgraph --json "$k"
t 2 "ptx-front: --compact goes only with --ast|$hint" --callgraph --compact "$k"
t 2 "ptx-front: --target takes an architecture such as sm_90a, not 'texmode_unified'|$hint" --target texmode_unified "$k"

# -- the instruction reference ---------------------------------------------------
t 0 "" --list-instructions
for name in vadd4 fence bar.sync wgmma.mma_async.sync cp.async.bulk.tensor mma ld add; do
    awk -v n="$name" '$1 == n { found = 1 } END { exit !found }' "$tmp/out" && ok ||
        bad "--list-instructions has no line for $name"
done
# no internal family ids: every family word is an instruction name's start
for id in bar_barrier membar_fence vop4 braces_scope guard_predicate; do
    grep -q "$id" "$tmp/out" && bad "--list-instructions shows the internal id $id" || ok
done
awk '$2 != "PTX" || $3 !~ /^[0-9]\.[0-9]$/ { bad = 1 } END { exit bad }' "$tmp/out" && ok ||
    bad "--list-instructions: a line without name, PTX version and target"
t 0 "" --list-instructions vadd4
[ "$(cat "$tmp/out")" = "vadd4                              PTX 3.0  sm_30    vabsdiff4 / vadd4 / vavrg4 / vmax4 / vmin4 / vsub4" ] &&
    ok || bad "--list-instructions vadd4: $(cat "$tmp/out")"
t 0 "" --list-instructions=bar
[ "$(awk '{print $1}' "$tmp/out" | tr '\n' ' ')" = "bar.arrive bar.cta.arrive bar.cta.red bar.cta.sync bar.red bar.sync bar.warp.sync " ] &&
    ok || bad "--list-instructions=bar: $(awk '{print $1}' "$tmp/out" | tr '\n' ' ')"
t 0 "" --list-instructions 'fence*'
[ "$(awk '{print $1}' "$tmp/out" | tr '\n' ' ')" = "fence fence.proxy " ] && ok ||
    bad "--list-instructions 'fence*': $(awk '{print $1}' "$tmp/out" | tr '\n' ' ')"
has "fence                              PTX 6.0  sm_70    fence / membar" "--list-instructions 'fence*'"
t 0 "ptx-front: warning: no instruction matches 'nosuch'" --list-instructions nosuch
t 2 "ptx-front: the tables have no instruction 'addx'; did you mean 'add' or 'addc'?" --explain addx
t 2 "ptx-front: --explain needs an argument (OPCODE)|$hint" --explain
# the manual's notation: no internal set names, no repeated modifiers
t 0 "" --explain add
grep -q '<\|rnz\|{\.sat}{\.sat}' "$tmp/out" && bad "--explain add shows table notation: $(grep '<\|rnz\|{\.sat}{\.sat}' "$tmp/out" | head -1)" || ok
# the goldens
for name in $explained; do
    "$front" --explain "$name" >"$tmp/explain" 2>&1
    rc=$?
    gold=$here/explain/$name.expected
    if [ "$update" = --update ]; then
        if [ $rc -ne 0 ]; then
            bad "--explain $name: exit status $rc (not updated)"
        elif ! cmp -s "$tmp/explain" "$gold"; then
            if [ "$(head -1 "$gold" 2>/dev/null)" != "$(head -1 "$tmp/explain")" ] &&
                case $accept in *" $name "*) false ;; *) true ;; esac; then
                bad "--explain $name: NOT UPDATED: its first line changed (name it to accept: run.sh PTX_FRONT --update $name):"
                diff "$gold" "$tmp/explain" 2>/dev/null | head -10
            else
                echo "UPDATED test/cli/explain/$name.expected:"
                diff "$gold" "$tmp/explain"
                cp "$tmp/explain" "$gold"
            fi
        fi
    elif [ $rc -ne 0 ]; then
        bad "--explain $name: exit status $rc"
    elif ! cmp -s "$tmp/explain" "$here/explain/$name.expected"; then
        bad "--explain $name differs from test/cli/explain/$name.expected:"
        diff "$here/explain/$name.expected" "$tmp/explain" | head -10
    else
        ok
    fi
done

# -- --no-fast-lane: every statement through the grammar, the same output -----
for mode in --ast --json --emit-ptx; do
    "$front" $mode "$k" >"$tmp/fast" 2>&1
    "$front" --no-fast-lane $mode "$k" >"$tmp/slow" 2>&1
    cmp -s "$tmp/fast" "$tmp/slow" && ok || bad "--no-fast-lane $mode: the output differs"
done
t 2 "ptx-front: --no-fast-lane reads PTX files: not with --list-instructions or --explain|$hint" --no-fast-lane --explain add

# -- help and version: on stdout, status 0 ----------------------------------------
t 0 "" --help
grep -q '^  --explain OPCODE' "$tmp/out" && ok || bad "--help lacks --explain"
t 0 "" -h
t 0 "" --version
grep -q '^ptx-front [0-9]' "$tmp/out" && ok || bad "--version: $(cat "$tmp/out")"

echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
