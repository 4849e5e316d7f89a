#!/usr/bin/env python3
"""Scenario dataloader-shm: workers return large batches through /dev/shm,
which is tiny (run under a 1 MiB tmpfs on /dev/shm)."""
import os
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")


class VideoClips(Dataset):
    def __len__(self):
        return 512

    def __getitem__(self, i):
        return torch.randn(8, 3, 224, 224), i % 400


def main():
    os.system("df -h /dev/shm")
    dl = DataLoader(VideoClips(), batch_size=4, num_workers=2)
    w = torch.randn(3, 400, device=DEVICE, requires_grad=True)
    for step, (clip, y) in enumerate(dl):
        clip, y = clip.to(DEVICE), y.to(DEVICE)
        logits = clip.mean(dim=(1, 3, 4)) @ w
        loss = F.cross_entropy(logits, y)
        loss.backward()
        print(f"step {step} loss {loss.item():.3f}", flush=True)


if __name__ == "__main__":
    main()
