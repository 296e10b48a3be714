#!/bin/sh
# make bench: builds the inputs, then runs build/bench on each.
# Inputs (cached in BUILD/bench-inputs):
#  - BENCH_FILES="a.ptx b.ptx" when given;
#  - else the corpus's largest files, and a CUB module replicated to 1x, 4x
#    and 16x its size to check that time and memory grow linearly;
#  - with BENCH_NVCC=1 and nvcc present, also the 10-50 MB files of
#    ../shared/corpus/make-bench.sh (about 5 minutes to build).
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
fi
"$B/bench" -n "$runs" $files >"$B/bench.log"
rc=$?
grep -v '^bench-row' "$B/bench.log"
[ $rc -eq 0 ] || { echo "bench: FAIL: build/bench exits with status $rc"; exit 1; }
# linear scaling: the largest replicated input against the smallest; time
# and memory should grow no faster than the input (16x the input: at most
# 17x the time and memory)
awk -F'\t' '$1 == "bench-row" && $2 ~ /^cub_x(1|16)\.ptx$/ { s[$2] = $3; t[$2] = $7; m[$2] = $8 }
    END { if (t["cub_x1.ptx"] > 0) {
            k = s["cub_x16.ptx"] / s["cub_x1.ptx"]
            printf "scaling: input x%.1f, time x%.1f, memory x%.1f (linear: at most x%.1f)\n",
                   k, t["cub_x16.ptx"] / t["cub_x1.ptx"], m["cub_x16.ptx"] / m["cub_x1.ptx"], k * 17 / 16 } }' "$B/bench.log"
