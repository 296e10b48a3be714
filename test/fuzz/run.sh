#!/bin/sh
# Runs each libFuzzer target for a while on seeds from the corpora.
# usage: run.sh FUZZ_DIR SECONDS TARGET...
dir=$1 secs=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
shared=$here/../../../shared
seeds=$dir/seeds
if [ ! -d "$seeds" ]; then
    mkdir -p "$seeds"
    cp "$here/../../examples/"*.ptx "$seeds/"
    cp "$here/../errors/"*.ptx "$seeds/"
    cp "$here/../cuda/"*.cu "$seeds/"
    if [ -d "$shared/ptx-isa/examples" ] && [ -d "$shared/corpus/public" ]; then
        cp "$shared/ptx-isa/examples/"*.ptx "$seeds/" || exit 2
        # small corpus files only: libFuzzer works best on short inputs
        find "$shared/corpus/public" -name '*.ptx' -size -24k -exec cp {} "$seeds/" \; || exit 2
    else
        sh "$here/../skip.sh" "fuzz: seeds from the corpora" "$shared not found: seeded with examples/ and test/errors/ only" ||
            { rm -rf "$seeds"; exit 1; }
    fi
fi
# the targets run side by side, as many at a time as there are cores
# (JOBS): each still has SECONDS of its own core; their reports are
# printed in order when all are done
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
one() {
    t=$1
    mkdir -p "$dir/corpus-$t" "$dir/crashes"
    # a target with seeds and a dictionary of its own (lsp: messages)
    s=$seeds d=$dir/ptx.dict
    [ -d "$here/$t-seeds" ] && s=$here/$t-seeds
    [ -f "$here/$t.dict" ] && d=$here/$t.dict
    "$dir/fuzz_$t" -max_total_time="$secs" -dict="$d" -max_len=65536 \
        -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$dir/crashes/$t-" \
        -print_final_stats=1 "$dir/corpus-$t" "$s" >"$dir/$t.log" 2>&1
    echo $? >"$dir/$t.status"
}
running=0
for t in "$@"; do
    echo "fuzz: $t for $secs s"
    rm -f "$dir/$t.status"
    one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait
status=0
for t in "$@"; do
    rc=$(cat "$dir/$t.status" 2>/dev/null) || rc="none (the run did not finish)"
    sed -n -E "/stat::number_of_executed_units|stat::peak_rss_mb/s/^/fuzz: $t: /p" "$dir/$t.log"
    if [ "$rc" != 0 ]; then
        echo "fuzz: $t FAILED (exit $rc); see $dir/$t.log and $dir/crashes/"
        tail -30 "$dir/$t.log"
        status=1
    fi
done
[ $status -eq 0 ] && echo "fuzz: $# passed, 0 failed" || echo "fuzz: found crashes"
exit $status
