#!/usr/bin/env python3
"""Validates JSON documents, one per line, against a JSON Schema; with
--inputs LIST (the input files, one a line, in the order given to
ptx-front), each FILE must hold exactly one document per input, in that
order, each naming its input in "file".
usage: validate.py [--inputs LIST] SCHEMA FILE...   (prints each failure; exit 1 if any)"""
import json
import sys

import jsonschema

args = sys.argv[1:]
inputs = None
if args[:1] == ["--inputs"]:
    inputs = [line.rstrip("\n") for line in open(args[1]) if line.strip()]
    args = args[2:]
schema = json.load(open(args[0]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = docs = 0
for path in args[1:]:
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    names = []
    for n, line in enumerate(lines, 1):
        docs += 1
        try:
            doc = json.loads(line)
        except ValueError as e:
            bad += 1
            print(f"{path}:{n}: not one JSON document: {e}")
            continue
        names.append(doc.get("file") if isinstance(doc, dict) else None)
        for err in validator.iter_errors(doc):
            bad += 1
            print(f"{path}:{n}: {err.json_path}: {err.message[:200]}")
            break
    if inputs is not None and names != inputs:
        bad += 1
        first = next((i for i, (a, b) in enumerate(zip(names, inputs)) if a != b), min(len(names), len(inputs)))
        print(f"{path}: {len(lines)} documents for {len(inputs)} inputs; the first out of place is "
              f"document {first + 1}: {names[first] if first < len(names) else 'none'}, "
              f"expected {inputs[first] if first < len(inputs) else 'none'}")
print(f"graphs: {docs} JSON documents checked against {args[0]}, {bad} invalid"
      + (f", one per input of {len(inputs)}" if inputs is not None else ""))
sys.exit(1 if bad or not docs else 0)
