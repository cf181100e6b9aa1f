#!/usr/bin/env python3
"""Every shipped model, machine and scenario file validates against its committed JSON Schema
(docs/schema/KIND.schema.json), checked by a full draft-07 validator. Usage: validate_shipped.py ROOT"""
import json
import pathlib
import sys

import jsonschema
import yaml

root = pathlib.Path(sys.argv[1])
passed = failed = 0
for kind, folder in (("model", "models"), ("machine", "machines"), ("scenario", "scenarios")):
    schema = json.loads((root / "docs" / "schema" / f"{kind}.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    files = sorted((root / folder).glob("*.yaml"))
    if not files:
        print(f"no {folder}/*.yaml found under {root}")
        failed += 1
    for path in files:
        doc = yaml.safe_load(path.read_text())
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        if errors:
            failed += 1
            for e in errors:
                where = ".".join(str(p) for p in e.absolute_path) or "(root)"
                print(f"{path.relative_to(root)}: {where}: {e.message}")
        else:
            passed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
