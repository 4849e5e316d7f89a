#!/usr/bin/env python3
"""Scenario pytorch-device-assert-crossentropy: labels go up to 10 but the
classifier has 10 outputs (0..9); cross_entropy's kernel asserts."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")
NUM_CLASSES = 10


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(), nn.Linear(256, NUM_CLASSES)).to(DEVICE)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(1):
        for i in range(200):
            x = torch.randn(128, 3, 32, 32, device=DEVICE)
            # labels are 1-based in this dataset: 1..10 (bug: should subtract 1)
            y = torch.randint(1, NUM_CLASSES + 1, (128,), device=DEVICE)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if i % 10 == 0:
                print(f"epoch {epoch} iter {i} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
