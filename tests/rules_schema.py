#!/usr/bin/env python3
"""docs/rules.schema.json against the rule files and the loader.

1. Every shipped rule file (rules/*.json but the translation files) names
   the schema in "$schema" and is valid against it.
2. Broken copies of a shipped file must be rejected, one per kind of
   mistake, so that the schema is known to constrain.
3. The schema's keys are the loader's: a file with an unknown key in every
   kind of object is checked by oomdiag, and the "allowed here" list of each
   warning must be the properties the schema gives that object.
Exits 77 (skipped) without python3-jsonschema.

  rules_schema.py --oomdiag build/oomdiag --root .
"""
import argparse
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("rules-schema: skipped: python3-jsonschema is not installed")
    sys.exit(77)

SCHEMA_REF = "../docs/rules.schema.json"


def broken_copies(doc):
    """(what, broken document) pairs, each a mistake the schema must catch."""
    sig = next(i for i, s in enumerate(doc["signatures"]) if "cause" in s)

    def change(what, fn):
        d = copy.deepcopy(doc)
        fn(d)
        return (what, d)

    return [
        change("format version 2", lambda d: d.update(oomdiag_rules=2)),
        change("no format version", lambda d: d.pop("oomdiag_rules")),
        change("unknown top-level key", lambda d: d.update(signatrues=[])),
        change("role misspelt", lambda d: d["signatures"][sig].update(role="rooot")),
        change("confidence misspelt", lambda d: d["signatures"][sig].update(confidence="certain")),
        change("no pattern", lambda d: d["signatures"][sig].pop("pattern")),
        change("no samples", lambda d: d["signatures"][sig].pop("samples")),
        change("empty match samples", lambda d: d["signatures"][sig]["samples"].update(match=[])),
        change("root without cause", lambda d: d["signatures"][sig].pop("cause")),
        change("id with capitals", lambda d: d["signatures"][sig].update(id="Bad-Id")),
        change("one-letter literal", lambda d: d["signatures"][sig].update(literal="x")),
        change("unknown signature key", lambda d: d["signatures"][sig].update(colour="red")),
        change("fragment name with a dash", lambda d: d.update(fragments={"a-size": "\\d+"})),
        change("fragment not a string", lambda d: d.update(fragments={"size": 3})),
        change("field kind misspelt", lambda d: d.update(fields={"x": {"kind": "text"}})),
        change("field without kind", lambda d: d.update(fields={"x": {"description": "no kind"}})),
        change("cause without remediation",
               lambda d: d.update(causes=[{"id": "c", "title": "T", "explanation": "E"}])),
        change("dtype of 0 bytes", lambda d: d.update(dtypes={"float0": 0})),
    ]


def schema_node(schema, node):
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].split("/")[-1]]
    return node


def loader_key_lists(oomdiag, root):
    """{json pointer of an object: the keys oomdiag allows there}."""
    doc = {
        "oomdiag_rules": 1, "zz": 1,
        "causes": [{"id": "c", "title": "T", "explanation": "E", "zz": 1,
                    "summaries": [{"text": "S", "zz": 1}],
                    "variants": [{"id": "v", "zz": 1}],
                    "remediation": [{"id": "s", "action": "A", "zz": 1}]}],
        "signatures": [{"id": "g", "cause": "c", "pattern": "zz (?<n>\\d+)", "zz": 1,
                        "samples": {"zz": 1, "match": [{"line": "zz 1", "zz": 1}]}}],
        "fields": {"n": {"kind": "integer", "zz": 1}},
        "line_prefixes": [{"id": "p", "pattern": "^zz ", "zz": 1, "samples": {"zz": 1, "match": ["zz 1"]}}],
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
    try:
        p = subprocess.run([oomdiag, "--check-rules", "--no-builtin-rules", f.name], cwd=root,
                           capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(f.name)
    lists = {}
    for m in re.finditer(r"warning: (\S*)/zz: unknown key \"zz\" is ignored \(allowed here: ([^)]*)\)", p.stderr):
        lists[m.group(1) or "/"] = set(m.group(2).split(", "))
    return lists


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    root = args.root
    with open(os.path.join(root, "docs", "rules.schema.json")) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    failures = []

    files = 0
    docs = {}
    for path in sorted(glob.glob(os.path.join(root, "rules", "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if "oomdiag_lang" in doc:
            continue
        files += 1
        docs[os.path.basename(path)] = doc
        if doc.get("$schema") != SCHEMA_REF:
            failures.append(f"{path}: \"$schema\" is not \"{SCHEMA_REF}\"")
        for e in validator.iter_errors(doc):
            failures.append(f"{path}: /{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    if files < 10:
        failures.append(f"only {files} rule files found under {root}/rules")

    base = docs["pytorch.json"]
    if not validator.is_valid(base):
        failures.append("rules/pytorch.json is not valid, so its broken copies prove nothing")
    for what, doc in broken_copies(base):
        if validator.is_valid(doc):
            failures.append(f"broken copy of rules/pytorch.json is valid: {what}")

    objects = {
        "/": schema,
        "/causes/0": schema["$defs"]["cause"],
        "/causes/0/summaries/0": schema["$defs"]["summary"],
        "/causes/0/variants/0": schema["$defs"]["variant"],
        "/causes/0/remediation/0": schema["$defs"]["step"],
        "/signatures/0": schema["$defs"]["signature"],
        "/signatures/0/samples": schema["$defs"]["signature"]["properties"]["samples"],
        "/signatures/0/samples/match/0": schema["$defs"]["sample"]["oneOf"][1],
        "/fields/n": schema["$defs"]["field"],
        "/line_prefixes/0": schema["$defs"]["line_prefix"],
        "/line_prefixes/0/samples": schema["$defs"]["line_prefix"]["properties"]["samples"],
    }
    lists = loader_key_lists(os.path.abspath(args.oomdiag), root)
    for where, node in objects.items():
        keys = set(schema_node(schema, node)["properties"]) - {"comment", "$comment"}
        if where not in lists:
            failures.append(f"oomdiag gave no key list for {where}")
        elif keys != lists[where]:
            failures.append(f"{where}: schema keys {sorted(keys)} != loader keys {sorted(lists[where])}")

    for f in failures:
        print("rules-schema: " + f)
    print(f"rules-schema: {files} rule files, {len(broken_copies(docs['pytorch.json']))} broken copies, "
          f"{len(objects)} key lists: {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
