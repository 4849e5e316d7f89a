#!/usr/bin/env python3
"""Score oomdiag once on the second frozen holdout, tests/holdout2 (see README.md here).

For each row of LABELS (labels.tsv in the holdout folder) this runs
    oomdiag --format json --lang en logs/FILE
and compares the diagnoses with the label:

  root-cause accuracy   over rows whose expected_root_cause is a cause id or
                        recovered:<cause>.  A cause row is right when the
                        first diagnosis with role "root" has that cause.  A
                        recovered:<cause> row is right when a diagnosis of
                        that cause has role "recovered" and no diagnosis has
                        role "root".
  consequence recall    over every cause listed in the consequences column:
                        found when a diagnosis of that cause has role
                        "consequence" or is attached to another diagnosis
                        (consequence_of, or listed in a diagnosis's
                        "consequences").
  false alarms          over rows labelled none: a row is wrong when any
                        diagnosis has role "root"; reported per 20 such rows.

It prints each miss and the totals.  The exit status is 0 when every run
could be scored, 2 on a usage error or when oomdiag could not be run.

Not part of ctest.  Run it on this holdout only when it is scored (once, at
the end; README.md).  With --holdout it scores any folder of the same shape.
To try the script itself, point --holdout at
a scratch folder holding a logs/ folder and a labels.tsv made up for a few
fixture logs.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def die(msg):
    print('score.py: ' + msg, file=sys.stderr)
    sys.exit(2)


def read_labels(path):
    with open(path, encoding='utf-8', newline='') as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    need = {'file', 'expected_root_cause', 'consequences'}
    if rows and not need <= set(rows[0].keys()):
        die('%s lacks columns %s' % (path, sorted(need - set(rows[0].keys()))))
    return rows


def run_oomdiag(oomdiag, path):
    """Returns (diagnoses, error)."""
    if not os.path.isfile(path):
        return None, 'no such log'
    try:
        p = subprocess.run([oomdiag, '--format', 'json', '--lang', 'en', path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    try:
        doc = json.loads(p.stdout.decode('utf-8', 'replace'))
    except ValueError:
        err = p.stderr.decode('utf-8', 'replace').strip().splitlines()
        return None, 'exit %d, no JSON%s' % (p.returncode, (': ' + err[-1]) if err else '')
    diags = []
    for job in doc.get('jobs') or []:
        for inp in job.get('inputs') or []:
            if inp.get('error'):
                return None, 'input error: %s' % json.dumps(inp['error'])
        diags.extend(job.get('diagnoses') or [])
    return diags, None


def attached_causes(diags):
    """Causes shown as consequences in any of the shapes oomdiag may use."""
    found = set()
    for d in diags:
        if d.get('role') == 'consequence' or d.get('consequence_of') is not None:
            found.add(d.get('cause'))
        for c in d.get('consequences') or []:
            if isinstance(c, dict):
                found.add(c.get('cause'))
            elif isinstance(c, str):
                found.add(c)
    found.discard(None)
    return found


def brief(diags):
    if not diags:
        return '(no diagnosis)'
    out = []
    for d in diags:
        s = '%s/%s' % (d.get('cause'), d.get('role'))
        if d.get('consequence_of') is not None:
            s += '->%s' % d.get('consequence_of')
        out.append(s)
    return ', '.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--oomdiag', default=os.path.join(REPO, 'build', 'oomdiag'),
                    help='the oomdiag binary (default: build/oomdiag)')
    ap.add_argument('--holdout', default=HERE,
                    help='folder with labels.tsv and logs/ (default: this folder)')
    ap.add_argument('-v', '--verbose', action='store_true', help='print every row, not only misses')
    a = ap.parse_args()

    labels = os.path.join(a.holdout, 'labels.tsv')
    if not os.path.isfile(labels):
        die('no %s' % labels)
    if not (os.path.isfile(a.oomdiag) and os.access(a.oomdiag, os.X_OK)):
        die('%s is not an executable' % a.oomdiag)

    root_n = root_ok = 0
    cons_n = cons_ok = 0
    none_n = none_wrong = 0
    errors = 0
    per_cause = {}
    for row in read_labels(labels):
        name = row['file']
        exp = (row['expected_root_cause'] or '').strip()
        cons = [c.strip() for c in (row['consequences'] or '').split(',')
                if c.strip() and c.strip() != '-']
        diags, err = run_oomdiag(a.oomdiag, os.path.join(a.holdout, 'logs', name))
        if err is not None:
            errors += 1
            print('ERROR %s: %s' % (name, err))
            continue
        roots = [d for d in diags if d.get('role') == 'root']
        got = brief(diags)

        if exp == 'none':
            none_n += 1
            if roots:
                none_wrong += 1
                print('FALSE-ALARM %s: expected none, got %s' % (name, got))
            elif a.verbose:
                print('ok %s: none, got %s' % (name, got))
        else:
            root_n += 1
            if exp.startswith('recovered:'):
                want = exp.split(':', 1)[1]
                ok = not roots and any(d.get('cause') == want and d.get('role') == 'recovered'
                                       for d in diags)
            else:
                ok = bool(roots) and roots[0].get('cause') == exp
            s = per_cause.setdefault(exp, [0, 0])
            s[0] += 1
            if ok:
                root_ok += 1
                s[1] += 1
                if a.verbose:
                    print('ok %s: %s, got %s' % (name, exp, got))
            else:
                print('ROOT-MISS %s: expected %s, got %s' % (name, exp, got))

        if cons:
            have = attached_causes(diags)
            for c in cons:
                cons_n += 1
                if c in have:
                    cons_ok += 1
                else:
                    print('CONSEQUENCE-MISS %s: %s not shown as a consequence (got %s)'
                          % (name, c, got))

    def pct(k, n):
        return '%d/%d = %.1f%%' % (k, n, 100.0 * k / n) if n else '0/0'

    print()
    print('root-cause accuracy: %s' % pct(root_ok, root_n))
    for cause in sorted(per_cause):
        n, k = per_cause[cause]
        print('  %-24s %s' % (cause, pct(k, n)))
    print('consequence recall:  %s' % pct(cons_ok, cons_n))
    if none_n:
        print('false alarms on none runs: %d/%d = %.1f per 20 runs'
              % (none_wrong, none_n, 20.0 * none_wrong / none_n))
    else:
        print('false alarms on none runs: no none rows')
    if errors:
        print('logs oomdiag could not score: %d' % errors)
    return 2 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
