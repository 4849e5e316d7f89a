#!/usr/bin/env python3
"""docs/oomdiag.schema.json against what the binary prints.

Runs `oomdiag --format json` and `--format ndjson` over the CLI test logs
(tests/cli/data, with the test rules) in several ways, and validates every
document against the schema and every NDJSON line against
schema["$defs"]["ndjson_line"], taken on its own as golden.py takes it.
The JSON transcripts in tests/cli are validated too, and a few broken
documents must be rejected, so that the schema is known to constrain.
Exits 77 (skipped) without python3-jsonschema.

  schema_check.py --oomdiag build/oomdiag --root .
"""
import argparse
import copy
import glob
import json
import os
import shlex
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("schema: skipped: python3-jsonschema is not installed")
    sys.exit(77)


def run(oomdiag, root, args):
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C")
    p = subprocess.run([oomdiag] + args, cwd=root, env=env, capture_output=True, timeout=120)
    # 2 is fine where an input is unreadable (truncated.log.gz): the
    # document is still printed, with "error": true on that input.
    if p.returncode not in (0, 1, 2) or not p.stdout:
        raise RuntimeError(f"oomdiag {' '.join(args)}: exit {p.returncode}: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode("utf-8")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    oomdiag = os.path.abspath(args.oomdiag)
    root = args.root
    with open(os.path.join(root, "docs", "oomdiag.schema.json")) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    doc_validator = cls(schema)
    line_schema = schema["$defs"]["ndjson_line"]
    line_validator = cls(line_schema)
    # The same definition reached from the whole document must agree.
    embedded = dict(schema, **{"$ref": "#/$defs/ndjson_line"})
    for k in ("required", "properties", "additionalProperties", "type"):
        embedded.pop(k, None)
    embedded_validator = cls(embedded)

    failures = []
    checked = 0

    def check_doc(what, text):
        nonlocal checked
        checked += 1
        doc = json.loads(text)
        for e in doc_validator.iter_errors(doc):
            failures.append(f"{what}: {'/'.join(map(str, e.absolute_path))}: {e.message}")
        return doc

    def check_lines(what, text):
        nonlocal checked
        for i, line in enumerate(text.splitlines(), 1):
            checked += 1
            obj = json.loads(line)
            for v in (line_validator, embedded_validator):
                for e in v.iter_errors(obj):
                    failures.append(f"{what} line {i}: {'/'.join(map(str, e.absolute_path))}: {e.message}")

    rules = ["--no-builtin-rules", "-r", "tests/data/rules", "-r", "tests/cli/data/inject-rules.json", "-r",
             "tests/cli/data/recovery-rules.json"]
    data = "tests/cli/data"
    inputs = sorted(p for p in os.listdir(os.path.join(root, data))
                    if p.endswith(".log") or p.endswith(".log.gz") or p == "ranks")
    runs = [[f"{data}/{p}"] for p in inputs]
    runs.append([f"{data}/{p}" for p in inputs])
    runs.append(["--one-job"] + [f"{data}/{p}" for p in inputs])
    runs.append(["--trace", f"{data}/ranks", f"{data}/injection.log"])
    runs.append(["-a", f"{data}/binary.log"])
    docs = []
    for r in runs:
        what = " ".join(r)
        try:
            docs.append(check_doc(f"json {what}", run(oomdiag, root, rules + ["--format", "json"] + r)))
            check_lines(f"ndjson {what}", run(oomdiag, root, rules + ["--format", "ndjson"] + r))
        except (RuntimeError, ValueError) as e:
            failures.append(str(e))

    # The transcripts that are JSON.
    for cmd in sorted(glob.glob(os.path.join(root, "tests", "cli", "*.cmd"))):
        with open(cmd) as f:
            words = shlex.split(f.read())
        fmt = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("--format", "-f")), None)
        out = cmd[:-4] + ".out"
        if fmt not in ("json", "ndjson") or "|" in words or not os.path.exists(out):
            continue
        with open(out) as f:
            text = f.read()
        if not text:
            continue
        name = os.path.basename(cmd)[:-4]
        try:
            (check_doc if fmt == "json" else check_lines)(f"transcript {name}", text)
        except ValueError as e:
            failures.append(f"transcript {name}: not JSON: {e}")

    # The schema must reject what the contract rules out.
    sample = next((d for d in docs if any(j["diagnoses"] for j in d["jobs"])), None)
    if sample is None:
        failures.append("no diagnosed document to mutate")
    else:
        def diag(d):
            return next(j for j in d["jobs"] if j["diagnoses"])["diagnoses"][0]
        mutations = {
            "schema_version 2": lambda d: d.update(schema_version=2),
            "role bogus": lambda d: diag(d).update(role="bogus"),
            "confidence missing": lambda d: diag(d).pop("confidence"),
            "a _bytes field as a string": lambda d: diag(d)["fields"].update(free_bytes="1 GiB"),
            "a negative _bytes field": lambda d: diag(d)["fields"].update(total_bytes=-1),
            "remediation rank 0": lambda d: diag(d)["remediation"][0].update(rank=0),
            "an unknown property": lambda d: diag(d).update(colour="red"),
            "a float field": lambda d: diag(d)["fields"].update(device=0.5),
            "evidence without text": lambda d: diag(d)["evidence"][0].pop("text"),
            "a recovered diagnosis that follows from a root": lambda d: diag(d).update(role="recovered",
                                                                                     consequence_of=0),
        }
        for name, mutate in mutations.items():
            bad = copy.deepcopy(sample)
            mutate(bad)
            checked += 1
            if doc_validator.is_valid(bad):
                failures.append(f"the schema accepts a document with {name}")

    # Every role the contract lists appears in some document.
    roles = {x["role"] for d in docs for j in d["jobs"] for x in j["diagnoses"]}
    for role in ("root", "consequence", "recovered"):
        if role not in roles:
            failures.append(f"no document has a diagnosis with role {role}")

    for line in failures:
        print("FAIL", line)
    print(f"schema: {checked - len(failures)}/{checked} documents, lines and mutations check out")
    sys.exit(1 if failures or checked == 0 else 0)


if __name__ == "__main__":
    main()
