#!/usr/bin/env python3
"""Two rules of the codebase, checked:
1. Knowledge is data: no string literal in src/ names a framework, a cause
   id or a signature id of the shipped rules (rules/*.json).
2. No banned C functions in src/ (unbounded string writes): sprintf,
   vsprintf, strcpy, strcat, gets.
3. No function in src/ longer than 60 lines (its body, between the "{"
   and "}" that clang-format's Linux braces put alone at column 0).

  style_check.py SRC_DIR RULES_DIR

SRC_DIR is walked recursively (src/util, src/rules, ...).  A check that
read nothing proves nothing: no C file under SRC_DIR, or no rule file in
RULES_DIR, is a failure.
"""
import glob
import json
import os
import re
import sys

src, rules = sys.argv[1], sys.argv[2]
words = set()
rule_files = glob.glob(os.path.join(rules, "*.json"))
if not rule_files:
    print(f"style: read no rule file in {rules}")
    sys.exit(1)
for path in rule_files:
    doc = json.load(open(path, encoding="utf-8"))
    if "oomdiag_lang" in doc:
        continue  # a translation file: its "causes" are keyed by id
    for s in doc.get("signatures", []):
        words.add(s["id"])
        if s.get("framework"):
            words.add(s["framework"])
    for c in doc.get("causes", []):
        words.add(c["id"])
words = {w.lower() for w in words if len(w) >= 3}

banned = re.compile(r"\b(sprintf|vsprintf|strcpy|strcat|gets)\s*\(")
literal = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
problems = []
files = 0
for path in sorted(glob.glob(os.path.join(src, "**", "*.[ch]"), recursive=True)):
    if os.path.basename(path) == "builtin_rules.c":
        continue
    files += 1
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        code = re.sub(r"/\*.*?\*/|//.*$", "", line)
        if banned.search(code):
            problems.append(f"{path}:{n}: banned function: {line.strip()}")
        for lit in literal.findall(code):
            for tok in re.findall(r"[A-Za-z0-9][A-Za-z0-9._-]*", lit):
                if tok.lower() in words:
                    problems.append(f"{path}:{n}: the engine names \"{tok}\", a rule's word: {line.strip()}")
# 3. No function in src/ longer than 60 lines (clang-format's Linux braces:
#    a body opens with "{" alone at column 0 and closes with "}").
LIMIT = 60
for path in sorted(glob.glob(os.path.join(src, "**", "*.c"), recursive=True)):
    if os.path.basename(path) == "builtin_rules.c":
        continue
    start = None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line == "{":
            start = n
        elif line == "}" and start is not None:
            if n - start - 1 > LIMIT:
                problems.append(f"{path}:{start}: a function of {n - start - 1} lines (at most {LIMIT})")
            start = None
if files == 0:
    print(f"style: read no C file under {src}")
    sys.exit(1)
for p in problems:
    print(p)
print(f"style: {len(problems)} problem(s) in {files} files under {src}")
sys.exit(1 if problems else 0)
