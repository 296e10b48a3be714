#!/usr/bin/env python3
"""Validates JSON documents, one per line, against a JSON Schema.
usage: validate.py SCHEMA FILE...   (prints each failure; exit 1 if any)"""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = docs = 0
for path in sys.argv[2:]:
    with open(path) as f:
        for n, line in enumerate(f, 1):
            docs += 1
            for err in validator.iter_errors(json.loads(line)):
                bad += 1
                print(f"{path}:{n}: {err.json_path}: {err.message[:200]}")
                break
print(f"graphs: {docs} JSON documents checked against {sys.argv[1]}, {bad} invalid")
sys.exit(1 if bad or not docs else 0)
