#!/usr/bin/env python3
"""The man page and the shell completions keep up with the options.

Every option `oomdiag --help` lists must appear in docs/oomdiag.1 and in
both completions (contrib/oomdiag.bash, contrib/_oomdiag), and every
--format value in both completions.  The bash completion is then run
(sourced into bash, _oomdiag called as readline would) on a few command
lines; the zsh one is syntax-checked when zsh is installed.

  docs_check.py --oomdiag build/oomdiag --root .
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

BASH_CASES = [
    (["oomdiag", "--form"], ["--format="]),
    (["oomdiag", "--format", ""], ["text", "json", "ndjson", "github", "markdown", "junit"]),
    (["oomdiag", "--format", "=", "j"], ["json", "junit"]),
    (["oomdiag", "--format=m"], ["markdown"]),
    (["oomdiag", "-f", "nd"], ["ndjson"]),
    (["oomdiag", "--color", "=", ""], ["auto", "always", "never"]),
    (["oomdiag", "--binary-files", "=", "t"], ["text"]),
    (["oomdiag", "--explain", "=", "gpu-o"], ["gpu-oom"]),
    (["oomdiag", "--show-patterns", "=", "pytorch-oom-x"], ["pytorch-oom-xpu"]),
    (["oomdiag", "--show-pat"], ["--show-patterns="]),
    (["oomdiag", "--fail-on", "=", "gpu-oom,hi"], ["gpu-oom,high"]),
    (["oomdiag", "--no-bu"], ["--no-builtin-rules"]),
    (["oomdiag", "tests/cli/data/oom.l"], ["tests/cli/data/oom.log", "tests/cli/data/oom.log.gz"]),
    (["oomdiag", "ru"], ["rules", "run"]),
    (["oomdiag", "run", "--", "python3", "tests/cli/data/oom.log."], ["tests/cli/data/oom.log.gz"]),
    (["oomdiag", "run", "--al"], ["--always"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    oomdiag = os.path.abspath(args.oomdiag)
    root = args.root
    help_text = subprocess.run([oomdiag, "--help"], capture_output=True, text=True, check=True).stdout
    longs = sorted(set(re.findall(r"(?<![\w-])--([a-z][a-z-]+)", help_text)))
    shorts = sorted(set(re.findall(r"(?<![\w-])-([a-zA-Z]),", help_text)))
    formats = re.search(r"--format=FMT\s+(.*)", help_text).group(1)
    formats = [w for w in re.findall(r"[a-z]+", formats) if w != "default"]

    def read(path):
        with open(os.path.join(root, path)) as f:
            return f.read()

    man = read("docs/oomdiag.1").replace("\\-", "-")
    bash = read("contrib/oomdiag.bash")
    zsh = read("contrib/_oomdiag")
    problems = []
    for name, text in (("docs/oomdiag.1", man), ("contrib/oomdiag.bash", bash), ("contrib/_oomdiag", zsh)):
        for opt in longs:
            if not re.search(r"--" + re.escape(opt) + r"(?![\w-])", text):
                problems.append(f"{name}: no --{opt}")
        for opt in shorts:
            if not re.search(r"(?<![\w-])-" + opt + r"(?![\w-])", text):
                problems.append(f"{name}: no -{opt}")
        if name != "docs/oomdiag.1":
            for fmt in formats:
                if not re.search(r"\b" + fmt + r"\b", text):
                    problems.append(f"{name}: no --format value {fmt}")
    for var in ("NO_COLOR", "TERM", "GITHUB_STEP_SUMMARY"):
        if var not in man:
            problems.append(f"docs/oomdiag.1: ENVIRONMENT lacks {var}")

    # The bash completion, run as readline runs it (without bash-completion).
    env = dict(os.environ, PATH=os.path.dirname(oomdiag) + os.pathsep + os.environ.get("PATH", ""))
    for words, want in BASH_CASES:
        script = ('source contrib/oomdiag.bash\n'
                  'COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}\n'
                  '_oomdiag\nprintf "%s\\n" "${COMPREPLY[@]}"\n')
        p = subprocess.run(["bash", "-c", script, "bash"] + words, cwd=root, env=env,
                           capture_output=True, text=True, timeout=30)
        got = sorted(filter(None, p.stdout.split("\n")))
        if p.returncode != 0 or got != sorted(want):
            problems.append(f"bash completion of {' '.join(words)!r}: got {got}, expected {sorted(want)} "
                            f"{p.stderr.strip()}")
    zsh_bin = shutil.which("zsh")
    if zsh_bin:
        p = subprocess.run([zsh_bin, "-n", os.path.join(root, "contrib", "_oomdiag")], capture_output=True, text=True)
        if p.returncode != 0:
            problems.append(f"contrib/_oomdiag: zsh -n: {p.stderr.strip()}")
    for line in problems:
        print("FAIL", line)
    print(f"docs: {len(longs)} long and {len(shorts)} short options, {len(formats)} formats, "
          f"{len(BASH_CASES)} bash completions checked{'' if zsh_bin else ' (zsh not installed)'}: "
          f"{len(problems)} problem{'s' if len(problems) != 1 else ''}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
