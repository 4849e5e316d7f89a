#!/usr/bin/env python3
"""Scenario cupy-oom: pairwise distance matrix for 300k points on the GPU."""
import cupy as cp

print(f"cupy {cp.__version__}", flush=True)
for n in (10_000, 50_000, 300_000):
    pts = cp.random.rand(n, 64, dtype=cp.float32)
    sq = (pts * pts).sum(axis=1)
    d = sq[:, None] + sq[None, :] - 2 * pts @ pts.T
    print(f"n={n}: distance matrix {d.shape}, mean {float(d.mean()):.3f}, pool used {cp.get_default_memory_pool().used_bytes()/2**30:.2f} GiB", flush=True)
    del d
