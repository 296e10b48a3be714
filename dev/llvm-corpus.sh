#!/bin/sh
# An LLVM-emitted PTX corpus, rebuilt and judged: the CUDA sources of
# ../shared/corpus/src and test/llvm/*.cu compiled by clang (LLVM's NVPTX
# back-end, as Triton, Julia and Rust use it) and test/llvm/*.ll by llc,
# for each target at -O3 and at -O0 -g; ptxas 13.0 judges every module and
# ptx-front must agree: no false reject (ptxas accepts, ptx-front rejects),
# no false accept.  Too slow for make check (a few hundred compilations);
# run it by hand:
#   apt-get install clang-22 llvm-22      # Debian: the compiler and llc
#   dev/llvm-corpus.sh build/llvm build/ptx-front
# Prints every disagreement and the counts; exit status 1 on any.
#   CLANG, LLC, PTXAS: the tools (clang-22, llc-22, /usr/local/cuda/bin/ptxas)
#   ARCHS: the targets (sm_80 sm_86 sm_89 sm_90 sm_90a sm_100a sm_120a)
#   JOBS: parallel compilations (2)
out=${1:-build/llvm}
front=${2:-build/ptx-front}
here=$(cd "$(dirname "$0")/.." && pwd)
CLANG=${CLANG:-clang-22}
LLC=${LLC:-llc-22}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
ARCHS=${ARCHS:-sm_80 sm_86 sm_89 sm_90 sm_90a sm_100a sm_120a}
JOBS=${JOBS:-2}
for t in "$CLANG" "$LLC" "$PTXAS" "$front"; do
    command -v "$t" >/dev/null 2>&1 || { echo "llvm-corpus: $t not found"; exit 2; }
done
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
front=$(cd "$(dirname "$front")" && pwd)/$(basename "$front")
# one line per module to make: source arch mode
: >"$out/jobs"
for src in "$here"/../shared/corpus/src/*.cu "$here"/test/llvm/*.cu "$here"/test/llvm/*.ll; do
    [ -f "$src" ] || continue
    for a in $ARCHS; do
        for mode in O3 O0g; do
            echo "$src $a $mode" >>"$out/jobs"
        done
    done
done
# make and judge one module; prints "NAME VERDICT-OF-PTXAS VERDICT-OF-PTX-FRONT"
# or "NAME nocompile"
cat >"$out/one.sh" <<'EOF'
src=$1 a=$2 mode=$3 out=$OUT front=$FRONT
base=$(basename "$src"); name=${base%.*}.$a.$mode
ptx=$out/$name.ptx
case $mode in O3) opt="-O3";; *) opt="-O0 -g";; esac
case $src in
*.ll) # llc has no -g: the IR carries its debug info or not
   "$LLC" -march=nvptx64 -mcpu="$a" ${opt% -g} "$src" -o "$ptx" 2>"$out/$name.cc.err" ;;
*) # CUDA 13 keeps libcu++ (cuda/barrier, cuda/ptx) under include/cccl;
   # the rdc_* sources launch kernels from the device
   rdc=; case $base in rdc_*) rdc=-fgpu-rdc;; esac
   "$CLANG" -x cuda --cuda-device-only --cuda-gpu-arch="$a" --cuda-path=/usr/local/cuda \
       -I/usr/local/cuda/include/cccl --no-cuda-version-check -Wno-unknown-cuda-version \
       $rdc $opt -S "$src" -o "$ptx" 2>"$out/$name.cc.err" ;;
esac
if [ $? -ne 0 ] || [ ! -s "$ptx" ]; then echo "$name nocompile"; exit 0; fi
if "$PTXAS" -c -arch="$a" "$ptx" -o /dev/null >"$out/$name.ptxas" 2>&1; then p=accept; else p=reject; fi
"$front" "$ptx" >/dev/null 2>"$out/$name.front"
rc=$?
case $rc in 0) f=accept;; 1) f=reject;; *) f=crash$rc;; esac
echo "$name $p $f"
EOF
OUT=$out FRONT=$front
export CLANG LLC PTXAS OUT FRONT
xargs -P "$JOBS" -L 1 sh "$out/one.sh" <"$out/jobs" >"$out/results.txt"
made=$(awk '$2 != "nocompile"' "$out/results.txt" | wc -l)
nocomp=$(awk '$2 == "nocompile"' "$out/results.txt" | wc -l)
acc=$(awk '$2 == "accept"' "$out/results.txt" | wc -l)
rej=$(awk '$2 == "reject"' "$out/results.txt" | wc -l)
fr=$(awk '$2 == "accept" && $3 != "accept"' "$out/results.txt" | wc -l)
fa=$(awk '$2 == "reject" && $3 == "accept"' "$out/results.txt" | wc -l)
crash=$(awk '$3 ~ /^crash/' "$out/results.txt" | wc -l)
awk '$2 == "accept" && $3 != "accept" { print "FALSE REJECT", $1 }' "$out/results.txt"
awk '$2 == "reject" && $3 == "accept" { print "FALSE ACCEPT", $1 }' "$out/results.txt"
awk '$3 ~ /^crash/ { print "CRASH", $1 }' "$out/results.txt"
echo "llvm-corpus: $(wc -l <"$out/jobs") modules to make, $made made ($nocomp did not compile);" \
     "ptxas accepts $acc, rejects $rej; ptx-front: $fr false rejects, $fa false accepts, $crash crashes"
[ "$fr" -eq 0 ] && [ "$fa" -eq 0 ] && [ "$crash" -eq 0 ]
