#!/usr/bin/env python3
"""Scenario pytorch-oom-other-process: ResNet-50 training while another
process holds most of the GPU; OOM in the first forward pass."""
import os
import time

import torch
import torch.nn as nn
import torchvision

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")
BATCH = int(os.environ.get("BATCH", 512))
STEPS = 50


def main():
    print(f"torchvision {torchvision.__version__}, torch {torch.__version__}", flush=True)
    free, total = torch.cuda.mem_get_info()
    print(f"cuda:0 {torch.cuda.get_device_name(0)} free {free/2**30:.2f} GiB / total {total/2**30:.2f} GiB", flush=True)
    model = torchvision.models.resnet50(weights=None, num_classes=1000).to(DEVICE)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    crit = nn.CrossEntropyLoss()
    print(f"Epoch 0: {STEPS} iterations, batch size {BATCH}", flush=True)
    for it in range(STEPS):
        t = time.time()
        images = torch.randn(BATCH, 3, 224, 224, device=DEVICE)
        target = torch.randint(0, 1000, (BATCH,), device=DEVICE)
        out = model(images)
        loss = crit(out, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"Epoch: [0][{it:>3}/{STEPS}]  Time {time.time()-t:.3f}  Loss {loss.item():.4e}", flush=True)


if __name__ == "__main__":
    main()
