#!/bin/sh
# Diagnostics for people and tools: --diagnostics-format=json validates
# against tools/ptx-front-diagnostics.schema.json and sarif against the
# structure SARIF 2.1.0 requires (test/diag/sarif-2.1.0-structure.schema.json),
# both over every test/errors case in one document, with one result per
# diagnostic the text format prints; fix-its where "did you mean" has one
# word; --color=always|never|auto (auto: colour on a terminal only, and
# not with NO_COLOR); and the usage errors of the two options.
# usage: run.sh PTX_FRONT
set -u
front=$1
case $front in /*) ;; */*) front=$(pwd)/$front ;; esac
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-diag.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
cd "$top/test/errors" || exit 2

# text: how many diagnostics, notes included
"$front" *.ptx 2>"$tmp/text" >/dev/null
n_text=$(grep -cE '^[^ ].*:[0-9]+:[0-9]+: (error|warning|note): |^[^ ].*: (error|warning|note): ' "$tmp/text")
# the documents go where GCC writes them, to stderr (they went to stdout),
# or to --diagnostics-file
"$front" --diagnostics-format=json *.ptx 2>"$tmp/d.json" >"$tmp/out"
[ $? -eq 1 ] && ok || bad "--diagnostics-format=json: exit status (expected 1)"
[ -s "$tmp/out" ] && bad "--diagnostics-format=json wrote to stdout: $(head -1 "$tmp/out")" || ok
"$front" --diagnostics-format=sarif *.ptx --diagnostics-file "$tmp/d.sarif" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && ok ||
    bad "--diagnostics-file: status, or output on stdout or stderr: $(head -c 100 "$tmp/out" "$tmp/err")"
# with an output option the tree goes to stdout, the document to stderr
"$front" --json --diagnostics-format=json isa_unknown_modifier_suggest.ptx >"$tmp/tree.json" 2>"$tmp/diag1.json"
python3 -c 'import json, sys
t = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
assert t["valid"] is False and d and d[0]["kind"] == "error"' "$tmp/tree.json" "$tmp/diag1.json" 2>/dev/null && ok ||
    bad "--json --diagnostics-format=json: the tree on stdout and the diagnostics on stderr, each one JSON document"
if python3 -c 'import jsonschema' 2>/dev/null; then
    python3 - "$tmp/d.json" "$tmp/d.sarif" "$top/tools/ptx-front-diagnostics.schema.json" \
        "$here/sarif-2.1.0-structure.schema.json" "$n_text" <<'PY' && ok || bad "the documents (above)"
import json, sys
import jsonschema
gcc, sarif = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for doc, schema in ((gcc, sys.argv[3]), (sarif, sys.argv[4])):
    s = json.load(open(schema))
    cls = jsonschema.validators.validator_for(s)
    cls.check_schema(s)
    errors = list(cls(s).iter_errors(doc))
    for e in errors[:5]:
        print(f"{schema}: {e.message[:200]} at {list(e.absolute_path)}")
    if errors:
        sys.exit(1)
n_gcc = sum(1 + len(d["children"]) for d in gcc)
results = sarif["runs"][0]["results"]
n_sarif = sum(1 + len(r.get("relatedLocations", [])) for r in results)
rules = sarif["runs"][0]["tool"]["driver"]["rules"]
bare = [r["id"] for r in rules if not r.get("shortDescription", {}).get("text") or not r.get("help", {}).get("text")]
if bare:
    print(f"SARIF rules without a short description or a help text: {bare}")
    sys.exit(1)
unknown = {r["ruleId"] for r in results} - {r["id"] for r in rules}
if unknown:
    print(f"SARIF results of rules the driver does not list: {sorted(unknown)}")
    sys.exit(1)
if not (n_gcc == n_sarif == int(sys.argv[5])):
    print(f"diagnostics: text {sys.argv[5]}, json {n_gcc}, sarif {n_sarif}")
    sys.exit(1)
fix = [d for d in gcc if d["fixits"]]
if not any(f["fixits"][0]["string"] == ".global" for f in fix):
    print("no fix-it '.global' for ld.gloabl")
    sys.exit(1)
if not any(r.get("fixes") for r in results):
    print("no SARIF fixes")
    sys.exit(1)
print(f"diagnostics: {n_gcc} in JSON and SARIF, both valid, {len(fix)} with a fix-it")
PY
else
    sh "$top/test/skip.sh" "diagnostics: documents" "python3-jsonschema is not installed" || fail=$((fail + 1))
fi

# SARIF positions, pinned: the regions (startLine, startColumn, endLine,
# endColumn one past the range; columns count code points, the run's
# columnKind) of chosen diagnostics, with their notes' related locations
# and their fix-its' deleted regions, are those of test/diag/positions.expected
# (written from the sources by hand): a fix-it, notes on another line and
# on the same column, a long range, a non-ASCII character and a range after
# one (cases/utf8_comment.ptx)
if ! command -v python3 >/dev/null 2>&1; then
    sh "$top/test/skip.sh" "diagnostics: SARIF positions" "python3 is not installed" || fail=$((fail + 1))
else
pinned="isa_unknown_modifier_suggest.ptx sema_duplicate_label.ptx sema_call_argument_count.ptx
lex_unterminated_string.ptx lex_non_ascii.ptx"
# shellcheck disable=SC2086
"$front" --diagnostics-format=sarif $pinned "$here/cases/utf8_comment.ptx" 2>"$tmp/pinned.sarif" >/dev/null
python3 - "$tmp/pinned.sarif" >"$tmp/positions" <<'PY' || bad "SARIF positions: the document (above)"
import json, os, sys
def region(r):
    return f"{r['startLine']}:{r['startColumn']}-{r['endLine']}:{r['endColumn']}"
for res in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    loc = res["locations"][0]["physicalLocation"]
    line = f"{os.path.basename(loc['artifactLocation']['uri'])} {res['ruleId']} {res['level']} {region(loc['region'])}"
    for rel in res.get("relatedLocations", []):
        line += f" note {region(rel['physicalLocation']['region'])}"
    for fix in res.get("fixes", []):
        for ch in fix["artifactChanges"]:
            for rep in ch["replacements"]:
                line += f" fix {region(rep['deletedRegion'])} '{rep['insertedContent']['text']}'"
    print(line)
PY
if diff -u "$here/positions.expected" "$tmp/positions" >"$tmp/diff"; then
    ok
else
    bad "SARIF positions differ from test/diag/positions.expected:"
    cat "$tmp/diff"
fi

# and every SARIF region of the test/errors run is where the text format
# and the GCC JSON put it: start at the caret, end one past the finish
# (the JSON's byte columns turned into code points)
if python3 - "$tmp/d.sarif" "$tmp/d.json" "$tmp/text" <<'PY'; then ok; else bad "SARIF regions against the JSON's and the text's positions (above)"; fi
import json, re, sys
sarif = json.load(open(sys.argv[1]))["runs"][0]["results"]
gcc = json.load(open(sys.argv[2]))
# the text's diagnostics, as run.sh counts them (with a position or without)
text = [m.groups() for m in re.finditer(r"^([^ ].*?)(?::(\d+):(\d+))?: (?:error|warning|note): ",
                                         open(sys.argv[3], errors="replace").read(), re.M)]
lines = {}
def cp(point, after=False):
    """the code-point column of a GCC point (of the byte after it: after)"""
    f = point["file"]
    if f not in lines:
        lines[f] = open(f, "rb").read().split(b"\n")
    src = lines[f][point["line"] - 1] if point["line"] <= len(lines[f]) else b""
    upto = point["column"] - 1 + (1 if after else 0)
    return 1 + sum(1 for b in src[:upto] if b & 0xC0 != 0x80)
pairs = []
for g, s in zip(gcc, sarif):
    pairs.append((g, s["locations"][0]["physicalLocation"]))
    for gc, rel in zip(g["children"], s.get("relatedLocations", [])):
        pairs.append((gc, rel["physicalLocation"]))
bad = 0
for n, (g, s) in enumerate(pairs):
    caret = g["locations"][0]["caret"]
    finish = g["locations"][0].get("finish")
    r = s["region"]
    want = (caret["line"], cp(caret))
    if finish:
        want_end = [(finish["line"], cp(finish, after=True))]
    else:   # a range of one byte or none
        want_end = [want, (want[0], want[1] + 1)]
    got, got_end = (r["startLine"], r["startColumn"]), (r["endLine"], r["endColumn"])
    t = text[n] if n < len(text) else None
    t_at = (int(t[1]), int(t[2])) if t and t[1] else (1, 1)
    if got != want or got_end not in want_end or not t or t_at != (caret["line"], caret["column"]):
        bad += 1
        if bad <= 5:
            print(f"{caret['file']}: {g['message'][:60]}: SARIF {got}-{got_end}, JSON {want}-{want_end}, text {t}")
if len(sarif) != len(gcc) or len(pairs) != len(text):
    print(f"{len(sarif)} SARIF results, {len(gcc)} JSON diagnostics, {len(pairs)} locations, {len(text)} text diagnostics")
    bad += 1
print(f"diagnostics: {len(pairs)} SARIF regions against the JSON's and the text's, {bad} differ")
sys.exit(1 if bad else 0)
PY
fi

# colour: GCC's escapes, only where asked for or on a terminal
f=isa_unknown_modifier_suggest.ptx
esc=$(printf '\033')
"$front" --color=always $f 2>&1 | grep -q "${esc}\[01;31m${esc}\[Kerror:" && ok || bad "--color=always: no red 'error:'"
"$front" --color=always $f 2>&1 | grep -q "${esc}\[32m${esc}\[K.global" && ok || bad "--color=always: no green fix-it"
"$front" --color=never $f 2>&1 | grep -q "$esc" && bad "--color=never wrote escapes" || ok
"$front" $f 2>&1 | grep -q "$esc" && bad "--color=auto wrote escapes to a pipe" || ok
if command -v script >/dev/null 2>&1; then
    script -qec "\"$front\" $f" /dev/null 2>&1 | grep -q "$esc" && ok || bad "--color=auto: no colour on a terminal"
    NO_COLOR=1 script -qec "\"$front\" $f" /dev/null 2>&1 | grep -q "$esc" && bad "NO_COLOR=1: colour on a terminal" || ok
else
    sh "$top/test/skip.sh" "diagnostics: colour on a terminal" "script (util-linux) is not installed" || fail=$((fail + 1))
fi

# usage errors: exit 2 and a message
for args in "--color=sometimes" "--diagnostics-format=xml" "--diagnostics-file=x.json"; do
    # shellcheck disable=SC2086
    "$front" $args $f >/dev/null 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q 'ptx-front: ' "$tmp/err" && ok || bad "$args: exit status $rc, expected 2 with a message"
done
echo "diagnostics: $pass passed, $fail failed"
[ $fail -eq 0 ]
