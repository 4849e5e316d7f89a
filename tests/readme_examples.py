#!/usr/bin/env python3
"""README.md's examples, run verbatim where they need no GPU job: the rule
workflow of "Writing a rule" (its JSON block saved as my-rules/mytool.json,
a job.log with its sample line, then the shell line as written), and every
line of the usage blocks that starts with `oomdiag` and needs only job.log,
logs/ or nothing (`--follow`, `run` and `python train.py` lines are left
out: they wait for a program).  Each must exit 0 (a diagnosis) or, for
--explain and the like, print something.

  readme_examples.py --oomdiag build/oomdiag --readme README.md --fixtures fixtures
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--fixtures", required=True)
    args = ap.parse_args()
    text = open(args.readme, encoding="utf-8").read()
    bindir = os.path.dirname(os.path.abspath(args.oomdiag))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), NO_COLOR="1")
    failures = []
    tmp = tempfile.mkdtemp()
    try:
        rule = text[text.index("## Writing a rule"):]
        blocks = re.findall(r"```(json|sh)\n(.*?)\n```", rule, re.S)
        json_block = next(b for kind, b in blocks if kind == "json")
        sh_block = next(b for kind, b in blocks if kind == "sh")
        os.makedirs(os.path.join(tmp, "my-rules"))
        with open(os.path.join(tmp, "my-rules", "mytool.json"), "w") as f:
            f.write(json_block)
        with open(os.path.join(tmp, "job.log"), "w") as f:
            f.write("step 10 loss 0.5\nmytool: device allocation failed: 2.00 GiB requested\n")
        p = subprocess.run(["bash", "-c", sh_block], cwd=tmp, env=env, capture_output=True, text=True)
        if p.returncode != 0 or "gpu-oom" not in p.stdout:
            failures.append(f"rule workflow: exit {p.returncode}: {p.stdout[-300:]}{p.stderr[-300:]}")
        # The usage lines, against a real crash log and a torchrun log directory.
        shutil.copy(os.path.join(args.fixtures, "pytorch-oom-reserved-detectron2-frag.log"), os.path.join(tmp, "job.log"))
        shutil.copytree(os.path.join(args.fixtures, "torchrun-nccl-timeout"), os.path.join(tmp, "logs"))
        usage = text[text.index("## Usage"):text.index("## Writing a rule")]
        lines = []
        for block in re.findall(r"```sh\n(.*?)\n```", usage, re.S):
            for line in block.splitlines():
                cmd = re.sub(r"\s+#.*$", "", line).strip()
                if cmd.startswith("oomdiag") and not re.search(r"\brun\b|--follow|train\.py|PATH|POD", cmd):
                    lines.append(cmd)
        for cmd in lines:
            p = subprocess.run(["bash", "-c", cmd], cwd=tmp, env=env, capture_output=True, text=True, timeout=60)
            if p.returncode != 0 or (" > " not in cmd and not p.stdout.strip()):
                failures.append(f"{cmd!r}: exit {p.returncode}: {p.stderr.strip()[:200]}")
        if not lines:
            failures.append("no usage line found: the test checked nothing")
    finally:
        shutil.rmtree(tmp)
    for f in failures:
        print("FAIL", f)
    print(f"readme: the rule workflow and {len(lines)} usage lines run verbatim, {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
