#!/usr/bin/env python3
"""Scenario clean-run: a short successful training job that talks about memory
(peak memory, memory_summary) but does not fail."""
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")


def main():
    torch.manual_seed(0)
    print("enabling activation checkpointing to reduce memory use", flush=True)
    model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).to(DEVICE)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    t0 = time.time()
    for step in range(1, 51):
        x = torch.randn(256, 1024, device=DEVICE)
        loss = F.mse_loss(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step}/50 loss {loss.item():.5f} peak_mem {torch.cuda.max_memory_allocated()/2**20:.0f} MiB", flush=True)
    print(f"training finished in {time.time()-t0:.1f}s; no out-of-memory errors", flush=True)
    print(torch.cuda.memory_summary(abbreviated=True), flush=True)
    torch.save(model.state_dict(), "/tmp/clean_run_model.pt")
    print("saved checkpoint to /tmp/clean_run_model.pt", flush=True)


if __name__ == "__main__":
    main()
