#!/bin/sh
# JSON schema 2: the --json and --stats --json output of every corpus file
# (../shared/corpus/public, ../shared/ptx-isa/examples) and of the
# examples validates against tools/ptx-front.schema.json (python3-jsonschema),
# and --json stays within 10 times the size of its input.
# usage: run.sh BUILD_DIR SHARED_DIR
set -u
B=$1 SHARED=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
python3 -c 'import jsonschema' 2>/dev/null ||
    exec sh "$here/../skip.sh" "json schema" "python3-jsonschema is not installed"
set -- "$top"/examples/*.ptx
if [ -d "$SHARED/corpus/public" ] && [ -d "$SHARED/ptx-isa/examples" ]; then
    . "$here/../sample.sh"
    sample_note "json schema"
    # shellcheck disable=SC2046
    set -- "$@" $(ls "$SHARED"/corpus/public/*.ptx "$SHARED"/ptx-isa/examples/*.ptx | sampled)
else
    sh "$here/../skip.sh" "json schema: corpora" "$SHARED/corpus/public or $SHARED/ptx-isa/examples not found" || exit 1
fi
# some corpus files are invalid on purpose: exit 1 is expected, 2 is not
out=$(mktemp "${TMPDIR:-/tmp}/ptx-json.XXXXXX")
trap 'rm -f "$out"' EXIT
for mode in --json "--stats --json"; do
    # shellcheck disable=SC2086
    "$B/ptx-front" $mode "$@" >>"$out" 2>/dev/null
    [ $? -le 1 ] || { echo "FAIL ptx-front $mode: exit status $?"; exit 1; }
done
docs=$(wc -l <"$out")
[ "$docs" -eq $(($# * 2)) ] || { echo "FAIL $docs documents for $# files (two each)"; exit 1; }
python3 "$here/validate.py" "$top/tools/ptx-front.schema.json" 10 "$@" <"$out" || exit 1
# and the validation fails where it must: an operand that is a bare string
# (schema 1), "mods" left out, a kind the schema does not know, a document
# too large for its input
bad() {
    printf '%s\n' "$1" >"$out"
    what=$2
    shift 2
    if python3 "$here/validate.py" "$top/tools/ptx-front.schema.json" 10 "$@" <"$out" >/dev/null; then
        echo "FAIL the validation accepts $what"; exit 1
    fi
}
ok='{"k":"instr","r":[0,4],"line":1,"col":1,"op":"ret","mods":[],"args":[]}'
doc() { printf '{"schema":2,"file":"%s","version":"9.0","targets":["sm_90"],"items":[%s]}' "$1" "$2"; }
bad "$(doc examples/saxpy.ptx '{"k":"instr","r":[0,4],"line":1,"col":1,"op":"ret","mods":[],"args":["%r1"]}')" "a bare operand"
bad "$(doc examples/saxpy.ptx '{"k":"instr","r":[0,4],"line":1,"col":1,"op":"ret","args":[]}')" "an instruction without mods"
bad "$(doc examples/saxpy.ptx '{"k":"instrr","r":[0,4],"line":1,"col":1}')" "an unknown kind"
bad "$(doc examples/saxpy.ptx '{"k":"instr","r":[0,4],"line":0,"col":1,"op":"ret","mods":[],"args":[]}')" "line 0"
bad "$(doc examples/saxpy.ptx "$(printf "$ok,%.0s" $(seq 300))$ok")" "a document 10 times its input"
# one document per input (the documents ptx-front writes for two
# examples): two run into one line, one input's twice and another's
# missing (the count of lines is right), one of no input
js1=$("$B/ptx-front" --json examples/saxpy.ptx) st1=$("$B/ptx-front" --stats --json examples/saxpy.ptx)
st2=$("$B/ptx-front" --stats --json examples/rowsum.ptx)
bad "$js1$js1" "two documents on one line"
bad "$(printf '%s\n%s\n%s\n%s' "$js1" "$js1" "$st1" "$st2")" \
    "two --json documents of one input and none of another" examples/saxpy.ptx examples/rowsum.ptx
bad "$(printf '%s\n%s' "$js1" "$st1")" "a document of no input" examples/rowsum.ptx
printf '%s\n%s\n' "$js1" "$st1" >"$out"
python3 "$here/validate.py" "$top/tools/ptx-front.schema.json" 10 examples/saxpy.ptx <"$out" >/dev/null ||
    { echo "FAIL the validation refuses good documents"; exit 1; }
echo "json schema: the validation refuses 8 broken documents"
