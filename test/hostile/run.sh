#!/bin/sh
# Hostile input through the command-line tool: inputs too large to commit
# (built here, in a temporary directory), file system trouble and full
# disks.  Each case checks the exit status, the first line of stderr and,
# where it matters, that stderr stays small, within a time limit and (in a
# plain build) under a memory limit set with ulimit -v.  README.md beside
# this file lists every hostile case and where it is tested.
# usage: run.sh PTX_FRONT      (SANITIZE=1: no memory limits, longer times)
front=$1
case $front in /*) ;; *) front=$(pwd)/$front ;; esac
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-hostile.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skipped=0
stack_kb=                       # run: ulimit -s, when set
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# skip CASE REASON: said loudly and counted; a failure under
# REQUIRE_CORPORA=1 (test/skip.sh)
skip() {
    skipped=$((skipped + 1))
    sh "$here/../skip.sh" "hostile: $1" "$2" || fail=$((fail + 1))
}
# built NAME MIN_BYTES: the input the pipeline before wrote to $f is at
# least that large (a generator that failed would leave a small file, and
# a small file is no hostile case)
built() {
    size=$(wc -c <"$f") || size=0
    [ "$size" -ge "$2" ] || { bad "$1: the generated input has $size bytes, expected at least $2"; return 1; }
}

# AddressSanitizer reserves terabytes of address space: ulimit -v cannot
# apply to it, and everything runs a few times slower
if [ "$SANITIZE" = 1 ]; then
    slow=5
    echo "hostile: sanitizer build: memory limits not applied, time limits x$slow"
else
    slow=1
fi

# run NAME MEM_MB SECONDS ARGS...: ptx-front ARGS with stdout to $tmp/out
# and stderr to $tmp/err; sets $rc
run() {
    name=$1 mem=$2 secs=$(($3 * slow))
    shift 3
    (
        [ "$SANITIZE" = 1 ] || ulimit -v $((mem * 1024)) || exit 125
        [ -z "$stack_kb" ] || ulimit -s "$stack_kb" || exit 125
        exec timeout "$secs" "$front" "$@"
    ) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 124 ] && echo "hostile: $name: no answer within $secs s (status 124)"
    return 0
}

# expect NAME RC FIRST_LINE_PATTERN [MAX_STDERR_BYTES]
expect() {
    name=$1 want=$2 pattern=$3 max=${4:-4096}
    first=$(head -c 1000 "$tmp/err" | head -1)
    size=$(wc -c <"$tmp/err")
    if [ "$rc" != "$want" ]; then
        bad "$name: exit status $rc, expected $want; stderr: $first"
    elif ! printf '%s\n' "$first" | grep -Eq -- "$pattern"; then
        bad "$name: stderr starts with '$first', expected /$pattern/"
    elif [ "$size" -gt "$max" ]; then
        bad "$name: $size bytes on stderr, expected at most $max"
    else
        ok
    fi
}

hdr() {
    printf '.version 9.0\n.target sm_90\n.address_size 64\n'
}
kernel() {
    hdr
    printf '.visible .entry k()\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n'
}
# n copies of the byte c, without a newline
bytes() {
    head -c "$1" /dev/zero | tr '\0' "$2"
}
MB100=100000000
f=$tmp/in.ptx

# ---- a 100 MB single line --------------------------------------------------
{ kernel; printf '// '; bytes $MB100 x; printf '\nret;\n}\n'; } >"$f"
built "100 MB comment line" $MB100
run line_comment 600 60 "$f"
expect "100 MB comment line" 0 '^$' 0

{ kernel; yes 'add.s32 %r1, %r2, %r3;' | tr -d '\n' | head -c $MB100 | sed 's/add[^;]*$//'; printf '\nret;\n}\n'; } >"$f"
built "100 MB line of statements" $((MB100 - 100))
run line_statements 800 120 "$f"
expect "100 MB line of 4 million statements" 0 '^$' 0

{ kernel; printf 'mov.b32 %%r1, 1'; bytes $MB100 1; printf 'abc;\nret;\n}\n'; } >"$f"
built "100 MB malformed number" $MB100
run line_number 800 60 "$f"
expect "100 MB malformed number" 1 "^$f:8:14: error: malformed number '1111" 4096

{ kernel; printf 'mov.b32 %%r1 A'; bytes $MB100 A; printf ';\nret;\n}\n'; } >"$f"
built "100 MB identifier" $MB100
run line_identifier 800 60 "$f"
expect "100 MB identifier after a missing comma" 1 "^$f:8:13: error: unexpected identifier 'AAAA" 4096

{ kernel; printf '.pragma "frequency '; bytes $MB100 p; printf '";\nret;\n}\n'; } >"$f"
built "100 MB string" $MB100
run line_string 800 60 "$f"
expect "100 MB string" 1 "^$f:8:1: error: pragma \"frequency pppp" 4096

{ kernel; printf '.pragma "'; bytes $MB100 p; printf '\nret;\n}\n'; } >"$f"
built "100 MB unterminated string" $MB100
run line_unterminated 800 60 "$f"
expect "100 MB unterminated string" 1 "^$f:8:9: error: unterminated string" 4096

# 100 MB of '{': the parser's stack fills at about 5,000,000 nested blocks
{ kernel; bytes $MB100 '{'; } >"$f"
built "100 MB of '{'" $MB100
run line_braces 1000 60 "$f"
expect "100 MB of '{'" 1 "^$f:8:49999[0-9][0-9]: error: nested too deeply: the parser's stack is full" 4096
rm -f "$f"

# ---- many things --------------------------------------------------------------
# round NAME FILE: --emit-ptx of FILE parses to the same tree
round() {
    "$front" --emit-ptx "$2" -o "$tmp/emitted.ptx" &&
        "$front" --ast --no-locations "$2" >"$tmp/a1" &&
        "$front" --ast --no-locations "$tmp/emitted.ptx" >"$tmp/a2" &&
        cmp -s "$tmp/a1" "$tmp/a2" && ok || bad "$1: the round trip changed the tree"
    rm -f "$tmp/emitted.ptx" "$tmp/a1" "$tmp/a2"
}

{ kernel; seq 1 1000000 | sed 's/^/L/; s/$/:/'; printf 'ret;\n}\n'; } >"$f"
built "10^6 labels" 8000000
run labels 600 60 "$f"
expect "10^6 labels" 0 '^$' 0
round "10^6 labels" "$f"

{ kernel; printf 'ld.global.v4.b32 {%%r1'; seq 2 1000000 | sed 's/.*/,%r1/' | tr -d '\n'; printf '}, [%%rd1];\nret;\n}\n'; } >"$f"
built "10^6 operands" 3900000
run vector 600 60 "$f"
expect "10^6 operands in one vector" 1 \
    "^$f:8:18: error: operand 1 of 'ld' must be a vector of 4 elements, found 1000000$" 4096

{ hdr; printf '.global .u32 a[1000000] = {0'; seq 1 999999 | sed 's/^/,/' | tr -d '\n'; printf '};\n'; } >"$f"
built "10^6 initialisers" 6800000
run initialiser 600 60 "$f"
expect "10^6 initialisers" 0 '^$' 0
round "10^6 initialisers" "$f"

# 200,000 register ranges of as many prefixes in one function, each
# range's names used: each range and each name's first use once read
# every range in scope (100,000 took 21 s)
{ kernel; awk 'function p(i, s) { s = ""; do { s = s sprintf("%c", 97 + i % 26); i = int(i / 26) } while (i > 0); return "%q" s }
    BEGIN { for (i = 0; i < 200000; i++) print ".reg .b32 " p(i) "<2>;"
            for (i = 0; i < 200000; i++) print "mov.b32 " p(i) "0, " p(i) "1;"
            print "ret;\n}" }'; } >"$f"
built "200,000 ranges" 9000000
run ranges 400 60 "$f"
expect "200,000 register ranges" 0 '^$' 0

# the graphs of 300,000 blocks that all branch to one exit, and of a
# brx.idx of 600,000 targets (the dominators walked the chain of blocks
# for each branch, each switch edge looked for its twin among the
# others: both took time in the square of the count)
{ kernel; awk 'BEGIN { print ".reg .pred %p1;"
    for (i = 0; i < 300000; i++) print "L" i ":\n@%p1 bra END;"; print "END:\nret;\n}" }'; } >"$f"
built "300,000 branches to one block" 6000000
for mode in --cfg --stats; do
    run exits 400 60 $mode "$f"
    expect "300,000 branches to one block ($mode)" 0 '^$' 0
done
{ kernel; printf 'ts: .branchtargets L0'; awk 'BEGIN { for (i = 1; i < 600000; i++) printf ", L%d", i
    print ";\nbrx.idx %r1, ts;"; for (i = 0; i < 600000; i++) print "L" i ":"; print "ret;\n}" }'; } >"$f"
built "600,000 targets" 10000000
for mode in --cfg --stats; do
    run targets 600 60 $mode "$f"
    expect "a brx.idx of 600,000 targets ($mode)" 0 '^$' 0
done

{ kernel; bytes 100000 '{'; printf 'ret;'; bytes 100000 '}'; printf '\n}\n'; } >"$f"
built "100,000 nested blocks" 200000
# with a 512 KB stack: a walk that recursed once per block (limits.c's
# did) overflows it in a plain build too, not only under ASan's larger frames
stack_kb=512
for mode in "" --ast --json --emit-ptx --stats --cfg --callgraph; do
    run nested 200 30 $mode "$f"
    expect "100,000 nested blocks ${mode:-(check)}" 0 '^$' 0
done
stack_kb=
round "100,000 nested blocks" "$f"
rm -f "$f"

# ---- not PTX at all ------------------------------------------------------------
run binary 200 30 "$front"
expect "binary garbage (the ptx-front executable)" 1 "^$front:[0-9]+:[0-9]+: error: "

# ---- inputs that cannot be read -------------------------------------------------
run directory 100 10 "$tmp"
expect "a directory" 2 "^ptx-front: cannot read '$tmp': Is a directory$"
run missing 100 10 "$tmp/no/such.ptx"
expect "a missing file" 2 "^ptx-front: cannot read '$tmp/no/such.ptx': No such file or directory$"
if [ -r /proc/self/mem ]; then
    run read_error 100 10 /proc/self/mem
    expect "a read error (/proc/self/mem)" 2 "^ptx-front: cannot read '/proc/self/mem': Input/output error$"
else
    skip "a read error" "/proc/self/mem cannot be read here (not Linux?)"
fi
# a file without read permission; root reads any file, so as root the
# tool runs as 'nobody' (setpriv or runuser, from util-linux), if nobody
# can run it at all (the checkout may be in a folder only root enters)
hdr >"$f"
chmod 000 "$f"
as_nobody=
if command -v setpriv >/dev/null 2>&1; then
    as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
elif command -v runuser >/dev/null 2>&1; then
    as_nobody="runuser -u nobody --"
fi
if [ ! -r "$f" ]; then
    run unreadable 100 10 "$f"
    expect "an unreadable file" 2 "^ptx-front: cannot read '$f': Permission denied$"
elif [ -z "$as_nobody" ]; then
    skip "an unreadable file" "running as root, and neither setpriv nor runuser is there to run as nobody"
elif ! chmod 755 "$tmp" || ! $as_nobody "$front" --version >"$tmp/out" 2>"$tmp/err"; then
    skip "an unreadable file" "running as root, and nobody cannot run $front: $(head -1 "$tmp/err")"
else
    $as_nobody timeout 10 "$front" "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    expect "an unreadable file (as nobody)" 2 "^ptx-front: cannot read '$f': Permission denied$"
fi
rm -f "$f"

# over 4 GiB (a sparse file: nothing is read), by name and on standard
# input; a file system without sparse files (or a 4 GiB file size limit)
# cannot hold the case: a loud skip, which REQUIRE_CORPORA=1 (CI, where
# /tmp can) makes a failure
: >"$f"
if ! truncate -s 4294967293 "$f" 2>"$tmp/err"; then
    skip "inputs over 4 GiB" "truncate cannot make a sparse 4 GiB file in ${TMPDIR:-/tmp}: $(head -1 "$tmp/err")"
else
    run too_large 100 10 "$f"
    expect "an input one byte over the limit" 1 \
        "^$f:1:1: error: input of 4294967293 bytes is too large \(the limit is 4294967292 bytes, just under 4 GiB\)$"
    (
        [ "$SANITIZE" = 1 ] || ulimit -v 102400
        exec timeout $((10 * slow)) "$front" - <"$f"
    ) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    expect "standard input over the limit" 1 "^<stdin>:1:1: error: input of 4294967293 bytes is too large"
fi
rm -f "$f"

# ---- output to a full disk ---------------------------------------------------------
ex=$(cd "$(dirname "$0")/../.." && pwd)/examples/saxpy.ptx
for mode in --ast "--ast --compact" --json --emit-ptx --stats "--stats --json" --list-functions; do
    (exec timeout 10 "$front" $mode "$ex" >/dev/full) 2>"$tmp/err"
    rc=$?
    expect "$mode to /dev/full" 2 "^ptx-front: cannot write output: No space left on device$" 200
    (exec timeout 10 "$front" $mode "$ex" -o /dev/full) 2>"$tmp/err"
    rc=$?
    expect "$mode -o /dev/full" 2 "^ptx-front: cannot write '/dev/full': No space left on device$" 200
done
for mode in --list-instructions --help --version; do
    (exec timeout 10 "$front" $mode >/dev/full) 2>"$tmp/err"
    rc=$?
    expect "$mode to /dev/full" 2 "^ptx-front: cannot write output: No space left on device$" 200
done
(exec timeout 10 "$front" --list-instructions -o /dev/full) 2>"$tmp/err"
rc=$?
# named as every other output to a file is
expect "--list-instructions -o /dev/full" 2 "^ptx-front: cannot write '/dev/full': No space left on device$" 200
# several files: one message, not one per file
(exec timeout 60 "$front" --emit-ptx "$ex" "$ex" "$ex" "$ex" "$ex" "$ex" >/dev/full) 2>"$tmp/err"
rc=$?
expect "several files to /dev/full" 2 "^ptx-front: cannot write output: No space left on device$" 100

echo "hostile: $pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
