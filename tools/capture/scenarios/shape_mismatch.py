#!/usr/bin/env python3
"""Scenario shape-mismatch: classifier head built for the wrong feature size."""
import os

import torch
import torch.nn as nn

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")

backbone = nn.Sequential(nn.Conv2d(3, 64, 3, stride=2, padding=1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(4), nn.Flatten()).to(DEVICE)
head = nn.Linear(512, 10).to(DEVICE)   # bug: backbone gives 64*4*4 = 1024 features
print("model built; starting epoch 1", flush=True)
for step in range(1, 4):
    x = torch.randn(32, 3, 64, 64, device=DEVICE)
    out = head(backbone(x))
    print(f"step {step} out {tuple(out.shape)}", flush=True)
