#!/usr/bin/env python3
"""inventory.coverage: every message a supported program can print about a
failure, instantiated and diagnosed.

tests/inventory/*.tsv hold the inventories (see tests/inventory/README.md):
one message template per row, read from the program's source or from what
it ships, mapped to the cause and role oomdiag must give it, or to `none`
(not a failure: oomdiag must diagnose nothing). This script fills every
template's placeholders with sample values, runs oomdiag once over all of
them (--each, NDJSON), prints the coverage per stack and fails on any
template whose verdict is wrong, or when a required stack has no rows.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

# The stacks issue 19 names; each must have at least one mapped template.
REQUIRED_STACKS = """
pytorch-allocator pytorch-c10d pytorch-elastic nccl cuda-runtime cuda-driver
cublas cudnn hip jax tensorflow cupy triton vllm llama.cpp deepspeed
accelerate ray paddle mxnet openmpi mpich horovod slurm kubernetes docker
systemd-oomd kernel bash zsh fish dash busybox
""".split()

ROLES = {"root", "consequence", "recovered", "any"}

# printf conversions, in the order a C format names them.
PRINTF = re.compile(r"%(?:%|[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|z|j|t|q|I64|I32)?[diouxXeEfgGcspn])")
# Python str.format and f-string fields: {}, {0}, {name}, {x:.2f}, {x!r}
PYFMT = re.compile(r"\{[^{}\s]*\}")


def default_value(spec):
    """A sample value for one placeholder, by its conversion."""
    if spec == "%%":
        return "%"
    conv = spec[-1]
    if conv in "diu":
        return "3"
    if conv in "xX":
        return "7f"
    if conv == "o":
        return "17"
    if conv in "eEfgG":
        return "1.50"
    if conv == "p":
        return "0x7f3a2c000000"
    if conv == "c":
        return "x"
    if spec.startswith("{"):
        name = spec[1:-1].split(":")[0].split("!")[0]
        return SAMPLE_NAMED.get(name, "3" if ":" in spec and spec.rstrip("}")[-1] in "df" else "worker")
    return "worker"


# Values for Python-format field names that mean something (sizes, ranks).
SAMPLE_NAMED = {
    "rank": "1", "local_rank": "1", "world_size": "2", "pid": "4242",
    "exitcode": "-9", "exit_code": "-9", "signal": "9", "sig": "9",
    "timeout": "600000", "size": "2.00 GiB", "device": "0", "gpu": "0",
}


def instantiate(template, values):
    """Fills TEMPLATE's placeholders: with VALUES in order when given, else
    with a default per conversion. '\\n' in a template separates lines."""
    given = list(values)
    specs = PRINTF if "%" in template and not PYFMT.search(template) else PYFMT if PYFMT.search(template) else PRINTF

    def fill(m):
        spec = m.group(0)
        if spec == "%%":
            return "%"
        if given:
            return given.pop(0)
        return default_value(spec)

    text = specs.sub(fill, template)
    return text.replace("\\n", "\n").replace("\\t", "\t")


def load(folder):
    rows = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".tsv"):
            continue
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as f:
            reader = csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t", quoting=csv.QUOTE_NONE)
            for i, r in enumerate(reader, start=2):
                where = f"{name}:{i}"
                for key in ("stack", "source", "template", "cause", "role"):
                    if not (r.get(key) or "").strip():
                        sys.exit(f"inventory: {where}: empty '{key}'")
                if r["role"] not in ROLES and r["cause"] != "none":
                    sys.exit(f"inventory: {where}: role '{r['role']}' is not one of {sorted(ROLES)}")
                vals = (r.get("values") or "").strip()
                r["line"] = instantiate(r["template"], vals.split("|") if vals else [])
                r["where"] = where
                rows.append(r)
    return rows


def verdict(rec):
    """(root cause or None, {cause: role}) of one NDJSON job record."""
    diags = rec.get("diagnoses") or []
    roles = {}
    for d in diags:
        roles.setdefault(d["cause"], d["role"])
    root = next((d["cause"] for d in diags if d["role"] == "root"), None)
    return root, roles


def judge(r, root, roles):
    cause, role = r["cause"], r["role"]
    if cause == "none":
        # Not a failure: nothing that ended the job (a failure shown as
        # recovered, one the program went on from, is the right reading).
        return all(role == "recovered" for role in roles.values())
    if role == "root":
        return root == cause
    if role == "recovered":
        return roles.get(cause) == "recovered"
    if role == "consequence":
        # Alone, a consequence is reported as the root at lower confidence;
        # beside its root it is attached to it.
        return cause in roles
    return cause in roles  # any


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--inventory", required=True, help="folder of *.tsv")
    ap.add_argument("--stack", help="only this stack")
    ap.add_argument("-v", "--verbose", action="store_true", help="show every row's verdict")
    a = ap.parse_args()

    rows = load(a.inventory)
    if a.stack:
        rows = [r for r in rows if r["stack"] == a.stack]
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for i, r in enumerate(rows):
            p = os.path.join(tmp, f"{i:06d}.log")
            with open(p, "w", encoding="utf-8") as f:
                f.write(r["line"] + "\n")
            paths[p] = r
        out = subprocess.run([a.oomdiag, "--each", "--format", "ndjson", "--lang", "en", tmp],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"inventory: oomdiag exited {out.returncode}: {out.stderr}")
        got = {}
        for line in out.stdout.splitlines():
            rec = json.loads(line)
            got[rec["inputs"][0]["path"]] = verdict(rec)

    per = {}
    bad = []
    for p, r in paths.items():
        root, roles = got.get(p, (None, {}))
        ok = judge(r, root, roles)
        s = per.setdefault(r["stack"], [0, 0, 0, 0])  # mapped ok, mapped, none ok, none
        k = 2 if r["cause"] == "none" else 0
        s[k] += ok
        s[k + 1] += 1
        if not ok or a.verbose:
            shown = root or ",".join(f"{c}:{x}" for c, x in roles.items()) or "nothing"
            (bad if not ok else []).append(r)
            print(f"{'ok ' if ok else 'BAD'} {r['where']}: {r['stack']}: want {r['cause']}/{r['role']}, got {shown}: {r['line']!r}")

    print(f"\n{'stack':<20} {'mapped':>14} {'not a failure':>16}")
    total = [0, 0, 0, 0]
    for stack in sorted(per):
        s = per[stack]
        total = [x + y for x, y in zip(total, s)]
        pct = f"{100.0 * s[0] / s[1]:.1f}%" if s[1] else "-"
        print(f"{stack:<20} {s[0]:>5}/{s[1]:<4} {pct:>6} {s[2]:>7}/{s[3]:<4}")
    pct = 100.0 * total[0] / total[1] if total[1] else 0.0
    print(f"{'all':<20} {total[0]:>5}/{total[1]:<4} {pct:5.1f}% {total[2]:>7}/{total[3]:<4}")

    missing = [s for s in REQUIRED_STACKS if not per.get(s, [0, 0])[1]] if not a.stack else []
    if missing:
        print(f"\ninventory: no mapped template for: {' '.join(missing)}")
    if bad:
        print(f"\ninventory: {len(bad)} template(s) with the wrong verdict")
    sys.exit(1 if bad or missing else 0)


if __name__ == "__main__":
    main()
