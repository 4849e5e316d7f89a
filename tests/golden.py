#!/usr/bin/env python3
"""Golden tests over fixtures/.

Each fixture is fixtures/NAME.log (or .log.gz, or a directory NAME/ holding
one job's per-rank logs) with fixtures/NAME.expected.json beside it: the
exact `oomdiag --format json` output (the "tool" object aside, as it carries
versions).  fixtures/manifest.tsv says what a person expects of each log
(root cause, variant, rank; "none" for no diagnosis, "recovered:CAUSE" for a
failure the program survived and nothing else); --manifest-only checks just
that.

  golden.py --oomdiag build/oomdiag --fixtures fixtures [--update] [--manifest-only] [NAME...]
"""
import argparse
import csv
import json
import os
import subprocess
import sys


def fixtures(root):
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        if os.path.isdir(path):
            yield name, name
        elif name.endswith(".log") or name.endswith(".log.gz"):
            yield name.rsplit(".log", 1)[0], name


def run(oomdiag, root, arg, fmt="json"):
    p = subprocess.run([oomdiag, "--format", fmt, "--color=never", arg], cwd=root,
                       capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8", "replace")


def normalize(text):
    doc = json.loads(text)
    doc.pop("tool", None)
    doc.pop("lang", None)  # metadata like "tool"; tests/cli checks it
    for job in doc.get("jobs", []):
        job.pop("name", None)  # the path as named: the fixture's name; tests/cli checks it
    return doc


def load_schema(root):
    path = os.path.join(os.path.dirname(os.path.abspath(root)), "docs", "oomdiag.schema.json")
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        return None, None
    if not os.path.exists(path):
        return None, None
    import jsonschema
    with open(path) as f:
        return jsonschema, json.load(f)


def check_manifest(args):
    path = os.path.join(args.fixtures, "manifest.tsv")
    failures = []
    total = 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            name = row["name"]
            if args.names and name not in args.names:
                continue
            arg = name
            if not os.path.exists(os.path.join(args.fixtures, arg)):
                arg = next((a for n, a in fixtures(args.fixtures) if n == name), None)
            if arg is None:
                failures.append(f"{name}: listed in manifest.tsv but no such fixture")
                continue
            total += 1
            rc, out, err = run(args.oomdiag, args.fixtures, arg)
            doc = json.loads(out)
            diags = doc["jobs"][0]["diagnoses"] if doc["jobs"] else []
            want = row["expected_root_cause"]
            if want.startswith("recovered:"):
                # The program survived the failure: shown as recovered, no root cause, exit 1.
                cause = want.split(":", 1)[1]
                roots = [d["cause"] for d in diags if d["role"] == "root"]
                if rc != 1 or roots or not any(d["role"] == "recovered" and d["cause"] == cause for d in diags):
                    failures.append(f"{name}: expected {cause} recovered and no root cause (exit 1), got exit {rc}, "
                                    f"roots {roots}, diagnoses {[(d['cause'], d['role']) for d in diags]}")
                continue
            if want == "none":
                if rc != 1 or diags:
                    got = diags[0]["cause"] if diags else "-"
                    failures.append(f"{name}: expected no diagnosis (exit 1), got exit {rc}, first cause {got}")
                continue
            if rc != 0 or not diags:
                failures.append(f"{name}: expected {want}, got no diagnosis (exit {rc}) {err.strip()}")
                continue
            first = diags[0]
            problems = []
            if first["cause"] != want or first["role"] != "root":
                problems.append(f"cause {first['cause']} ({first['role']}), expected {want}")
            variant = row.get("expected_variant", "-")
            if variant not in ("-", "") and first.get("variant") != variant:
                problems.append(f"variant {first.get('variant')}, expected {variant}")
            rank = row.get("expected_rank", "-")
            if rank not in ("-", "") and int(rank) not in first.get("ranks", []):
                problems.append(f"ranks {first.get('ranks')}, expected {rank}")
            if problems:
                failures.append(f"{name}: " + "; ".join(problems))
    for line in failures:
        print("FAIL manifest", line)
    print(f"manifest: {total - len(failures)}/{total} fixtures diagnosed as expected")
    return not failures


def check_golden(args):
    schema_mod, schema = load_schema(args.fixtures)
    failures = 0
    count = 0
    for name, arg in fixtures(args.fixtures):
        if args.names and name not in args.names:
            continue
        count += 1
        expected_path = os.path.join(args.fixtures, name + ".expected.json")
        rc, out, err = run(args.oomdiag, args.fixtures, arg)
        if rc not in (0, 1):
            print(f"FAIL {name}: exit status {rc}: {err.strip()}")
            failures += 1
            continue
        try:
            got = normalize(out)
        except ValueError as e:
            print(f"FAIL {name}: output is not JSON: {e}")
            failures += 1
            continue
        if schema is not None:
            try:
                schema_mod.validate(json.loads(out), schema)
                _, nd, _ = run(args.oomdiag, args.fixtures, arg, "ndjson")
                for line in nd.splitlines():
                    schema_mod.validate(json.loads(line), schema["$defs"]["ndjson_line"])
            except schema_mod.ValidationError as e:
                print(f"FAIL {name}: output does not follow docs/oomdiag.schema.json: {e.message}")
                failures += 1
                continue
        if args.update:
            with open(expected_path, "w") as f:
                f.write(out)
            continue
        if not os.path.exists(expected_path):
            print(f"FAIL {name}: no {name}.expected.json (run tests/golden.py --update to create it)")
            failures += 1
            continue
        with open(expected_path) as f:
            want = normalize(f.read())
        if got != want:
            failures += 1
            print(f"FAIL {name}: output differs from {name}.expected.json")
            a = json.dumps(want, indent=1, sort_keys=True).splitlines()
            b = json.dumps(got, indent=1, sort_keys=True).splitlines()
            import difflib
            for line in list(difflib.unified_diff(a, b, "expected", "got", lineterm="", n=2))[:40]:
                print("   ", line)
    print(f"golden: {count - failures}/{count} fixtures match"
          + ("" if schema is not None else " (schema not checked: no jsonschema or schema file)"))
    return failures == 0 and count > 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--manifest-only", action="store_true")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    args.oomdiag = os.path.abspath(args.oomdiag)
    ok = check_manifest(args) if args.manifest_only else check_golden(args)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
