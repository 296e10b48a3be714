#!/usr/bin/env python3
"""Validates JSON documents, one per line on standard input (what
ptx-front --json and --stats --json write for several files), against
tools/ptx-front.schema.json with python3-jsonschema, and checks that each
--json document is at most MAX_RATIO times the size of its input.

usage: validate.py SCHEMA MAX_RATIO [INPUT...] < documents
(each --json document's "file" is read for its size).  Each line must be
exactly one JSON document; with INPUTs, each of them must be the "file"
of exactly one --json document (one with "items") and one --stats --json
document, and no document may name another file: a document lost, doubled
or run into the next is then an error, not a smaller count.

The corpus gives about 140 MB of --json; jsonschema reads well under
1 MB/s, so every statement node is validated on its own (the schema's
#/$defs/node) and only once per distinct *shape*: the text in which the
values the schema constrains by type alone are replaced by one
representative (integers by 1 or -1, as the schema's only bounds are
minimum 0 and 1; names by "x"), with the statements a container holds
validated separately.  A node that validates stands for every node of its
shape.  The schema's numeric keywords are checked below to be only those
bounds, which keeps the replacement faithful, and no string the schema
constrains (dot-words, versions, kinds) can hold what the patterns
replace.  The replacing is done by regular expressions on the text, as
a walk in Python over 10 million values would take minutes."""
import json
import os
import re
import sys

import jsonschema

# integers (not in floats: [.eE] never follows), and the values of the
# keys the schema leaves free: names, paths, text
NUMBER = re.compile(r'(?<=[:,\[])(?<!"schema":)(-?)[1-9][0-9]*(?=[,\]}])')
FREE = re.compile(r'"(name|guard|label|function_name|path|alias|aliasee|text)":"(?:[^"\\]|\\.)+"')
SYM = re.compile(r'\{"t":"(sym|range)","v":"(?:[^"\\]|\\.)+"')
FILE = re.compile(r'^\{"schema":[0-9]+,"file":("(?:[^"\\]|\\.)*")')


def shape_text(line):
    line = NUMBER.sub(lambda m: m.group(1) + "1", line)
    line = FREE.sub(lambda m: '"' + m.group(1) + '":"x"', line)
    return SYM.sub(lambda m: '{"t":"' + m.group(1) + '","v":"x"', line)


def bounds_only(schema):
    """The schema's numbers are bounded only by minimum 0 or 1 (and the
    schema number, which is left as it is)."""
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k == "schema" and isinstance(v, dict) and "const" in v:
                continue
            if k in ("const", "enum") and any(type(x) is int for x in (v if k == "enum" else [v])):
                return False
            if k in ("maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
                return False
            if k == "minimum" and v not in (0, 1):
                return False
            if not bounds_only(v):
                return False
    elif isinstance(schema, list):
        return all(bounds_only(v) for v in schema)
    return True


def hollow(node):
    """The node without its statements (validated one by one)."""
    if not isinstance(node, dict) or "body" not in node:
        return node, []
    n = dict(node)
    body = node["body"]
    if isinstance(body, dict):          # a function's block
        inner, kids = hollow(body)
        n["body"] = inner
        return n, kids
    n["body"] = []
    return n, body if isinstance(body, list) else []


def main():
    schema = json.load(open(sys.argv[1]))
    max_ratio = float(sys.argv[2])
    if not bounds_only(schema):
        print("validate.py: the schema bounds numbers otherwise than minimum 0/1: "
              "shapes no longer stand for their nodes")
        return 1
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    whole = cls(schema)
    node_schema = dict(schema)
    node_schema.pop("oneOf")
    node_schema["$ref"] = "#/$defs/node"
    per_node = cls(node_schema)
    seen = set()
    docs = nodes = checked = failed = 0
    worst = (0.0, "")
    inputs = sys.argv[3:]
    per_input = {f: [0, 0] for f in inputs}     # --json, --stats --json
    for lineno, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        m = FILE.match(line)
        where = json.loads(m.group(1)) if m else "?"
        try:
            doc = json.loads(shape_text(line))
        except json.JSONDecodeError as e:
            print(f"FAIL line {lineno} ({where}): not one JSON document: {e}")
            failed += 1
            continue
        docs += 1
        if inputs:
            if where not in per_input:
                print(f"FAIL line {lineno}: a document of {where}, which is no input")
                failed += 1
            else:
                per_input[where]["items" not in doc] += 1
        if "items" in doc:
            ratio = len(line.encode()) / max(os.path.getsize(where), 1)
            if ratio > worst[0]:
                worst = (ratio, where)
            if ratio > max_ratio:
                print(f"FAIL {where}: --json is {ratio:.2f} times its input (at most {max_ratio})")
                failed += 1
            top = dict(doc)
            top["items"] = []
            todo = list(doc["items"])
        else:
            top, todo = json.loads(line), []
        errors = list(whole.iter_errors(top))
        while todo:
            n = todo.pop()
            nodes += 1
            h, kids = hollow(n)
            todo.extend(kids)
            key = json.dumps(h)
            if key in seen:
                continue
            seen.add(key)
            checked += 1
            errors.extend(per_node.iter_errors(h))
        if errors:
            failed += 1
        for e in errors[:3] if failed <= 10 else []:
            print(f"FAIL {where}: {e.message[:300]} at {list(e.absolute_path)}")
    for f, (js, stats) in per_input.items():
        if js != 1 or stats != 1:
            print(f"FAIL {f}: {js} --json and {stats} --stats --json documents, expected one each")
            failed += 1
    print(f"json schema: {docs} documents, {nodes} statement nodes ({checked} distinct shapes validated), "
          f"{failed} failed; largest --json/input ratio {worst[0]:.2f} ({worst[1]})")
    return 1 if failed or not docs else 0


if __name__ == "__main__":
    sys.exit(main())
