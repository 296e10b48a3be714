#!/bin/sh
# One run of make emit-assembles (test/emit/run.sh): ptx-front writes
# the selected functions of FILE, with status 0 and no diagnostic, and
# ptxas accepts the result.  Prints "PASS ..." or "FAIL ...: why" and
# exits 0.  usage: one.sh PTX_FRONT WORKDIR "FILE MODE KIND NAME..."
front=$1 work=$2 job=$3
set -f
# shellcheck disable=SC2086
set -- $3
set +f
f=$1 mode=$2 kind=$3
shift 3
# named by a checksum of the job: mangled names are long and alike
base=$work/$kind.$(printf '%s' "$job" | cksum | cut -d' ' -f1)
args=""
for n in "$@"; do args="$args --function $n"; done
[ "$kind" = canon ] && args="--canonical$args"
# shellcheck disable=SC2086
"$front" --emit-ptx $args "$f" -o "$base.ptx" 2>"$base.err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$base.err" ]; then
    echo "FAIL $f --emit-ptx $args: status $rc: $(head -1 "$base.err")"
    exit 0
fi
arch=$(sed -n -E '/^[[:space:]]*\.target[[:space:]]+(sm|compute)_[0-9]+[af]?/{
                  s/^[[:space:]]*\.target[[:space:]]+(sm|compute)_([0-9]+[af]?).*/sm_\2/p
                  q
              }' "$f")
[ -z "$arch" ] && arch=sm_90
case "$arch" in sm_1?|sm_2?|sm_3?|sm_5?|sm_6?|sm_70|sm_72) arch=sm_75;; esac
# -c: a function may call an .extern one; -O0: the text, not the code, is
# what is judged, and it is faster
flags="-c -O0"
if ! "$PTXAS" $flags -arch="$arch" "$base.ptx" -o "$base.cubin" >/dev/null 2>"$base.perr"; then
    echo "FAIL $f --emit-ptx $args: ptxas rejects it: $(grep -m1 . "$base.perr") (in $base.ptx)"
    exit 0
fi
echo "PASS $f $kind $*"
rm -f "$base.ptx" "$base.err" "$base.perr" "$base.cubin"
