#!/usr/bin/env python3
"""Helper for pytorch-oom-other-process: holds HOG_GIB of GPU memory and sleeps."""
import os
import sys
import time

import torch

gib = int(os.environ.get("HOG_GIB", 120))
x = torch.empty(gib * 2**30, dtype=torch.uint8, device="cuda")
x.fill_(1)
torch.cuda.synchronize()
print(f"hog pid {os.getpid()} holding {gib} GiB: ready", flush=True)
time.sleep(int(os.environ.get("HOG_SECONDS", 120)))
