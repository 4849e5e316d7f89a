#!/usr/bin/env python3
"""docs/fleet.md's Dask recipe, run: a local Dask cluster maps oomdiag over
batches of the fixtures' logs and gathers one whole NDJSON record per log.
Skipped (77) where Debian's python3-distributed is not installed.

  fleet_dask.py --oomdiag build/oomdiag --fixtures fixtures
"""
import argparse
import glob
import json
import os
import subprocess
import sys


def run(oomdiag, batch):
    out = subprocess.run([oomdiag, "--format", "ndjson", *batch], capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomdiag", required=True)
    ap.add_argument("--fixtures", required=True)
    args = ap.parse_args()
    try:
        import dask.bag as db
        from distributed import Client, LocalCluster
    except ImportError:
        print("SKIPPED: no dask/distributed (Debian's python3-distributed) for this python3")
        sys.exit(77)
    paths = sorted(glob.glob(os.path.join(args.fixtures, "*.log")))
    oomdiag = os.path.abspath(args.oomdiag)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster):
        bag = db.from_sequence(paths, partition_size=32)
        records = bag.map_partitions(lambda batch: run(oomdiag, list(batch))).compute()
    got = sorted(r["inputs"][0]["path"] for r in records)
    if got != paths:
        print(f"FAIL: {len(records)} records for {len(paths)} logs")
        sys.exit(1)
    print(f"dask: {len(records)} logs, one whole record each, on a local cluster of 2 workers")


if __name__ == "__main__":
    main()
