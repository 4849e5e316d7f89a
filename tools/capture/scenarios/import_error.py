#!/usr/bin/env python3
"""Scenario import-error: a training script that needs apex."""
import torch
import torch.nn as nn

print(f"torch {torch.__version__} cuda available: {torch.cuda.is_available()}", flush=True)
from apex.optimizers import FusedAdam  # noqa: E402

model = nn.Linear(10, 10).cuda()
opt = FusedAdam(model.parameters())
