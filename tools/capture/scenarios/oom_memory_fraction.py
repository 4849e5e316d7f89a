#!/usr/bin/env python3
"""Scenario pytorch-oom-memory-fraction: the process is capped with
set_per_process_memory_fraction(0.1); a batch-size ramp runs a few steps and
then exceeds the cap."""
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")
FRACTION = float(os.environ.get("FRACTION", 0.1))


def main():
    torch.cuda.set_per_process_memory_fraction(FRACTION, 0)
    total = torch.cuda.get_device_properties(0).total_memory
    print(f"limiting this process to {FRACTION:.0%} of GPU memory ({FRACTION*total/2**30:.2f} GiB)", flush=True)
    model = nn.Sequential(nn.Linear(2048, 8192), nn.ReLU(), nn.Linear(8192, 8192), nn.ReLU(),
                          nn.Linear(8192, 10)).to(DEVICE)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    bs = 4096
    for step in range(1, 41):
        if step % 4 == 0:
            bs *= 2
            print(f"batch-size ramp: batch size -> {bs}", flush=True)
        x = torch.randn(bs, 2048, device=DEVICE)
        y = torch.randint(0, 10, (bs,), device=DEVICE)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}/40 bs {bs} loss {loss.item():.4f} mem {torch.cuda.memory_allocated()/2**30:.2f} GiB", flush=True)


if __name__ == "__main__":
    main()
