#!/usr/bin/env python3
"""Scenario host-oom-kill: keeps tensors in host RAM (a growing in-memory
cache); run in a memory-limited cgroup so the kernel OOM killer ends it."""
import time

import numpy as np

cache = []
for i in range(1, 41):   # at most 10 GiB even if the cgroup limit did not apply
    a = np.ones(256 * 2**20 // 8)   # 256 MiB, touched
    cache.append(a)
    print(f"cached shard {i}: {i*256} MiB in RAM", flush=True)
    time.sleep(0.02)
