#!/bin/sh
# make graphs (part of make check): on every corpus file (../shared/corpus/public
# and ../shared/ptx-isa/examples),
#  - ptx-front --cfg and --callgraph give DOT that Graphviz's dot renders with
#    no error and no warning;
#  - --cfg --json and --callgraph --json are valid against tools/graph.schema.json;
#  - every bra is an edge of its function's graph (BUILD/bra_edges);
# and first, on the hand-made modules of test/graphs/cases (branches,
# loops, calls), --cfg --json and --callgraph --json say what
# cases/NAME.expected says, written by hand from the module: every block,
# edge (from>to), loop, function and call (test/graphs/expect.py).
# usage: run.sh BUILD_DIR
B=$1
shared=../shared
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-graphs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

if command -v python3 >/dev/null 2>&1; then
    n=0
    for f in test/graphs/cases/*.ptx; do
        n=$((n + 1))
        name=${f%.ptx}
        "$B/ptx-front" --cfg --json "$f" >"$tmp/cfg.json" 2>"$tmp/err" &&
            "$B/ptx-front" --callgraph --json "$f" >"$tmp/cg.json" 2>>"$tmp/err" ||
            { bad "ptx-front --cfg/--callgraph --json $f: $(head -1 "$tmp/err")"; continue; }
        if ! python3 test/graphs/expect.py "$tmp/cfg.json" "$tmp/cg.json" >"$tmp/got" 2>"$tmp/err"; then
            bad "$f: $(tail -1 "$tmp/err")"
        elif diff -u "$name.expected" "$tmp/got" >"$tmp/diff"; then
            pass=$((pass + 1))
        else
            bad "$f: the graphs differ from $name.expected:"
            head -30 "$tmp/diff"
        fi
    done
    echo "graphs: $n hand-made modules' graphs compared with the expected ones"
    # several functions: one digraph, a cluster per defined function;
    # --function narrows it to one
    f=test/graphs/cases/calls.ptx
    nf=$("$B/ptx-front" --list-functions "$f" | grep -vc '(prototype)')
    "$B/ptx-front" --cfg "$f" >"$tmp/all.dot" && "$B/ptx-front" --cfg --function k "$f" >"$tmp/one.dot" ||
        bad "ptx-front --cfg $f failed"
    if [ "$(grep -c '^digraph ' "$tmp/all.dot")" -eq 1 ] && [ "$(grep -c 'subgraph "cluster_' "$tmp/all.dot")" -eq "$nf" ] &&
       [ "$(grep -c '^digraph ' "$tmp/one.dot")" -eq 1 ] && [ "$(grep -c 'subgraph "cluster_' "$tmp/one.dot")" -eq 1 ] &&
       grep -q 'label="kernel k"' "$tmp/one.dot"; then
        pass=$((pass + 1))
    else
        bad "--cfg of $f: not one digraph with a cluster for each of its $nf functions (or --function k not one)"
    fi
else
    sh test/skip.sh "graphs: expected graphs" "python3 not found" || fail=$((fail + 1))
fi

if [ ! -d "$shared/corpus/public" ] || [ ! -d "$shared/ptx-isa/examples" ]; then
    sh test/skip.sh graphs "$shared/corpus/public or $shared/ptx-isa/examples not found" || fail=$((fail + 1))
    echo "graphs: $pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
fi
. test/sample.sh
sample_note graphs
files=$(ls "$shared"/corpus/public/*.ptx "$shared"/ptx-isa/examples/*.ptx | sampled) || exit 2

"$B/bra_edges" $files >"$tmp/bra.out"
rc=$?
tail -1 "$tmp/bra.out"
if [ $rc -ne 0 ]; then
    bad "bra_edges: exit status $rc"
    head -20 "$tmp/bra.out"
else
    pass=$((pass + 1))
fi

# JSON: one run over all the files (one document per file and line)
for opt in --cfg --callgraph; do
    "$B/ptx-front" $opt --json $files >"$tmp/$opt.jsonl" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] || bad "ptx-front $opt --json on the corpus: status $rc: $(head -1 "$tmp/err")"
done

# DOT: dot lays out each file's graphs (-Tsvg), but for the few files
# whose DOT is over 60 KB: dot takes from 10 s (cub_algos's largest
# kernels) to minutes (atomics.G.sm_100a's call graph of 1880 functions)
# on one of them, so those are only read by Graphviz's parser (gc, which
# reports the syntax errors dot would)
if command -v dot >/dev/null 2>&1 && command -v gc >/dev/null 2>&1; then
    n=0 big=0
    for f in $files; do
        n=$((n + 1))
        for opt in --cfg --callgraph; do
            "$B/ptx-front" $opt "$f" >"$tmp/g.dot" 2>"$tmp/err"
            rc=$?
            if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
                bad "ptx-front $opt $f: status $rc: $(head -1 "$tmp/err")"
                continue
            fi
            # one picture per file: one digraph, a cluster per function
            # (one digraph per function made dot write several SVG
            # documents into one file, which is no XML)
            if [ "$(grep -c '^digraph ' "$tmp/g.dot")" -ne 1 ]; then
                bad "ptx-front $opt $f: $(grep -c '^digraph ' "$tmp/g.dot") digraphs, not one"
                continue
            fi
            tool="dot -Tsvg"
            [ "$(wc -c <"$tmp/g.dot")" -le 60000 ] || { tool=gc; big=$((big + 1)); }
            $tool "$tmp/g.dot" >"$tmp/g.svg" 2>"$tmp/dot.err"
            rc=$?
            if [ $rc -ne 0 ] || [ -s "$tmp/dot.err" ]; then
                bad "$tool on ptx-front $opt $f: status $rc: $(head -2 "$tmp/dot.err")"
            elif [ "$tool" != gc ] && [ "$(grep -c '<svg' "$tmp/g.svg")" -ne 1 ]; then
                bad "dot -Tsvg on ptx-front $opt $f: $(grep -c '<svg' "$tmp/g.svg") SVG documents, not one"
            else
                pass=$((pass + 1))
            fi
        done
    done
    echo "graphs: --cfg and --callgraph of $n corpus files through dot ($big over 60 KB read by gc, the rest laid out by dot -Tsvg)"
else
    sh test/skip.sh "graphs: dot" "Graphviz's dot not found (Debian: graphviz)" || fail=$((fail + 1))
fi

if python3 -c 'import jsonschema' 2>/dev/null; then
    printf '%s\n' $files >"$tmp/inputs"
    if python3 test/graphs/validate.py --inputs "$tmp/inputs" tools/graph.schema.json "$tmp/--cfg.jsonl" "$tmp/--callgraph.jsonl"; then
        pass=$((pass + 1))
    else
        bad "JSON output against tools/graph.schema.json"
    fi
else
    sh test/skip.sh "graphs: JSON Schema" "python3 with jsonschema not found (Debian: python3-jsonschema)" || fail=$((fail + 1))
fi
echo "graphs: $pass passed, $fail failed"
[ $fail -eq 0 ]
