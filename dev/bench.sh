#!/bin/sh
# make bench: builds the inputs, then runs build/bench on each.
# Inputs (cached in BUILD/bench-inputs):
#  - BENCH_FILES="a.ptx b.ptx" when given;
#  - else the corpus's largest files, and a CUB module replicated to 1x, 4x
#    and 16x its size to check that time and memory grow linearly;
#  - with nvcc present, a dense module of Thrust algorithms over many
#    element types (test/bench/thrust_algos.cu, built once: several minutes);
#  - with BENCH_NVCC=1 and nvcc present, also the 10-50 MB files of
#    ../shared/corpus/make-bench.sh (about 5 minutes to build).
# Then for each: the CLI's own check-only run against the bare tokenizer
# (build/tokenizer), and with valgrind present callgrind's instruction
# counts of both, per PTX instruction.
# usage: bench.sh BUILD_DIR [RUNS]
B=$1
runs=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
shared=$here/../../shared
in=$B/bench-inputs
mkdir -p "$in"
files=$BENCH_FILES
if [ -z "$files" ]; then
    if [ ! -d "$shared/corpus/public" ]; then
        sh "$here/../test/skip.sh" bench "$shared/corpus not found; give BENCH_FILES=..."
        exit
    fi
    base=$shared/corpus/public/cub_algos.sm_90.ptx
    mb=$(du -m "$base") || exit 2
    mb=${mb%%[!0-9]*}
    for k in 1 4 16; do
        [ -f "$in/cub_x$k.ptx" ] || "$B/bench" --make-input "$base" $((mb * k)) "$in/cub_x$k.ptx" || exit 2
    done
    files="$shared/corpus/public/atomics.G.sm_100a.ptx $in/cub_x1.ptx $in/cub_x4.ptx $in/cub_x16.ptx"
    if [ "$BENCH_NVCC" = 1 ] && command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] && [ "$BENCH_NVCC" = 1 ]; then
        [ -f "$in/nvcc/cub_allkeys.sm_90.ptx" ] || sh "$shared/corpus/make-bench.sh" "$in/nvcc" >/dev/null
        files="$files $(ls "$in"/nvcc/*.ptx)"
    fi
    nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
    thrust=$in/thrust_algos.sm_90.ptx
    if [ -z "$nvcc" ]; then
        echo "bench: nvcc not found: the dense Thrust module (test/bench/thrust_algos.cu) is not measured"
    else
        if [ ! -f "$thrust" ]; then
            echo "bench: building the dense Thrust module with $nvcc (several minutes of CPU, once)"
            "$nvcc" -std=c++17 -ptx -arch=sm_90 "$here/../test/bench/thrust_algos.cu" -o "$thrust.tmp" &&
                mv "$thrust.tmp" "$thrust" || exit 2
        fi
        files="$thrust $files"
    fi
fi
"$B/bench" -n "$runs" $files >"$B/bench.log"
rc=$?
grep -v '^bench-row' "$B/bench.log"
[ $rc -eq 0 ] || { echo "bench: FAIL: build/bench exits with status $rc"; exit 1; }
"$B/bench" --cli "$B/ptx-front" "$B/tokenizer" "$runs" $files >>"$B/bench.log"
rc=$?
grep '^cli-row' -v "$B/bench.log" | sed -n '/check-only run/,$p'
[ $rc -eq 0 ] || { echo "bench: FAIL: build/bench --cli exits with status $rc"; exit 1; }
# callgrind's counts do not drift with the machine: instructions of the
# CLI's run and of the tokenizer's per PTX instruction (cub_x4 left out:
# cub_x1 and cub_x16 show the growth)
if command -v valgrind >/dev/null 2>&1; then
    echo "callgrind, instructions executed per PTX instruction (whole process):"
    for f in $files; do
        case $f in */cub_x4.ptx) continue ;; esac
        name=${f##*/}
        for prog in ptx-front tokenizer; do
            n=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$B/$prog" "$f" 2>&1 >/dev/null |
                sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
            printf 'callgrind-row\t%s\t%s\t%s\n' "$name" "$prog" "$n" >>"$B/bench.log"
        done
    done
    awk -F'\t' '$1 == "bench-row" { instrs[$2] = $4 }
        $1 == "callgrind-row" { c[$2, $3] = $4; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
        END { for (i = 1; i <= n; i++) { f = order[i]; p = c[f, "ptx-front"]; t = c[f, "tokenizer"]
                if (instrs[f] > 0 && p > 0 && t > 0)
                    printf "  %-34s ptx-front %6.0f, tokenizer %5.0f (%.2fx); %.0fM in all\n",
                           f, p / instrs[f], t / instrs[f], p / t, p / 1e6
                else printf "  %-34s callgrind gave no count\n", f } }' "$B/bench.log"
else
    echo "callgrind: valgrind not found, instruction counts not measured"
fi
# linear scaling: the largest replicated input against the smallest; time
# and memory should grow no faster than the input (16x the input: at most
# 17x the time and memory)
awk -F'\t' '$1 == "bench-row" && $2 ~ /^cub_x(1|16)\.ptx$/ { s[$2] = $3; t[$2] = $7; m[$2] = $8 }
    END { if (t["cub_x1.ptx"] > 0) {
            k = s["cub_x16.ptx"] / s["cub_x1.ptx"]
            printf "scaling: input x%.1f, time x%.1f, memory x%.1f (linear: at most x%.1f)\n",
                   k, t["cub_x16.ptx"] / t["cub_x1.ptx"], m["cub_x16.ptx"] / m["cub_x1.ptx"], k * 17 / 16 } }' "$B/bench.log"
awk -F'\t' '$1 == "cli-row" && $2 ~ /^cub_x(1|16)\.ptx$/ { s[$2] = $3; t[$2] = $4; m[$2] = $7 }
    $1 == "callgrind-row" && $2 ~ /^cub_x(1|16)\.ptx$/ && $3 == "ptx-front" { c[$2] = $4 }
    END { if (t["cub_x1.ptx"] > 0) {
            k = s["cub_x16.ptx"] / s["cub_x1.ptx"]
            printf "scaling of the CLI: input x%.1f, CPU time x%.1f, peak RSS x%.1f", k,
                   t["cub_x16.ptx"] / t["cub_x1.ptx"], m["cub_x16.ptx"] / m["cub_x1.ptx"]
            if (c["cub_x1.ptx"] > 0) printf ", callgrind x%.1f", c["cub_x16.ptx"] / c["cub_x1.ptx"]
            printf " (linear: at most x%.1f)\n", k * 17 / 16 } }' "$B/bench.log"
