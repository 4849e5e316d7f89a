#!/usr/bin/env python3
"""Scenario dataloader-killed: a DataLoader worker is SIGKILLed (as the OOM
killer would) while the GPU training loop runs."""
import os
import signal
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")


class ImageDataset(Dataset):
    def __len__(self):
        return 10000

    def __getitem__(self, i):
        if i == 1500:
            os.kill(os.getpid(), signal.SIGKILL)
        x = torch.randn(3, 64, 64)
        return x, i % 100


def main():
    dl = DataLoader(ImageDataset(), batch_size=64, num_workers=4, shuffle=False, pin_memory=True)
    model = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(32, 100)).to(DEVICE)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    t0 = time.time()
    for step, (x, y) in enumerate(dl):
        x, y = x.to(DEVICE, non_blocking=True), y.to(DEVICE, non_blocking=True)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"[{time.time()-t0:6.1f}s] step {step}/{len(dl)} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
