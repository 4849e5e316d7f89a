#!/usr/bin/env python3
"""README.md's test command is what CI runs: .ci/run must contain it verbatim."""
import re
import sys

readme = open(sys.argv[1]).read()
ci = open(sys.argv[2]).read()
blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
if len(blocks) < 2:
    sys.exit("README.md: expected two ```sh blocks at the top (set-up, tests)")
test_cmd = blocks[1].strip()
if test_cmd not in ci.splitlines():
    sys.exit(f".ci/run does not run README.md's test command verbatim:\n  {test_cmd}")
print("README test command found in .ci/run")
