#!/usr/bin/env python3
"""gen_rules.py N: prints a rule file with N signatures (one cause), for
the hostile-rules-thousands transcripts.  Signature i matches
"generated failure i code C" and captures C."""
import json
import sys

n = int(sys.argv[1])
doc = {
    "oomdiag_rules": 1,
    "ruleset_version": f"generated-{n}",
    "causes": [{
        "id": "generated",
        "title": "A generated failure",
        "explanation": "One of many generated signatures matched.",
        "summaries": [{"text": "Failure {which} with code {code}."}],
        "remediation": [{"id": "look", "action": "Look at failure {which}"}],
    }],
    "signatures": [{
        "id": f"generated-{i}",
        "cause": "generated",
        "literal": f"generated failure {i} code",
        "pattern": f"generated failure (?<which>{i}) code (?<code>\\d+)",
        "samples": {"match": [f"generated failure {i} code 7"], "no_match": [f"generated failure {i} code seven"]},
    } for i in range(n)],
    "fields": {"which": {"kind": "integer"}, "code": {"kind": "integer"}},
}
json.dump(doc, sys.stdout, indent=1)
sys.stdout.write("\n")
