#!/usr/bin/env python3
"""Scenario pytorch-device-assert-embedding: the tokenizer's vocabulary is
larger than the model's embedding table; an out-of-range token id triggers a
device-side assert."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")
TOKENIZER_VOCAB = 50304
MODEL_VOCAB = 50000   # bug: should be TOKENIZER_VOCAB


def main():
    torch.manual_seed(1)
    emb = nn.Embedding(MODEL_VOCAB, 512).to(DEVICE)
    head = nn.Linear(512, MODEL_VOCAB).to(DEVICE)
    opt = torch.optim.AdamW(list(emb.parameters()) + list(head.parameters()), lr=1e-3)
    for step in range(1, 101):
        hi = MODEL_VOCAB if step < 7 else TOKENIZER_VOCAB   # rare tokens show up at step 7
        ids = torch.randint(0, hi, (16, 256), device=DEVICE)
        logits = head(emb(ids))
        loss = F.cross_entropy(logits.view(-1, MODEL_VOCAB), ids.clamp(max=MODEL_VOCAB - 1).view(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}/100 loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
