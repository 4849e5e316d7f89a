#!/usr/bin/env python3
"""Scenario pytorch-oom-backward-late: sequence-length curriculum with naive
(materialised) attention; memory grows every step and the job runs 30+ steps
before running out of memory in backward."""
import math
import os
import sys
import time
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = os.environ.get("CAPTURE_DEVICE", "cuda")
B, H, DH = 4, 16, 64
D = H * DH
VOCAB = 8192
SEQ0 = int(os.environ.get("SEQ0", 1024))
SEQ_STEP = int(os.environ.get("SEQ_STEP", 320))
STEPS = int(os.environ.get("STEPS", 200))


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)

    def forward(self, x):
        b, l, _ = x.shape
        q, k, v = self.qkv(x).view(b, l, 3, H, DH).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(DH))
        att = att.softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, l, D)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(D)
        self.attn = Attention()
        self.ln2 = nn.LayerNorm(D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.blocks = nn.Sequential(*[Block() for _ in range(n_layers)])
        self.ln = nn.LayerNorm(D)
        self.head = nn.Linear(D, VOCAB, bias=False)

    def forward(self, idx):
        return self.head(self.ln(self.blocks(self.emb(idx))))


def main():
    torch.manual_seed(0)
    print(f"[init] torch {torch.__version__} cuda {torch.version.cuda}", flush=True)
    model = TinyGPT().to(DEVICE)
    print(f"[init] parameters: {sum(p.numel() for p in model.parameters())/1e6:.1f}M", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    try:
        scaler = torch.cuda.amp.GradScaler(enabled=False)  # old API, warns on new torch
    except Exception as e:  # pragma: no cover
        print(f"[init] GradScaler: {e}", flush=True)
    warnings.warn("sequence-length curriculum enabled: seq_len grows by "
                  f"{SEQ_STEP} tokens per step; attention is not memory efficient")
    t0 = time.time()
    for step in range(STEPS):
        seq = SEQ0 + SEQ_STEP * step
        idx = torch.randint(0, VOCAB, (B, seq + 1), device=DEVICE)
        x, y = idx[:, :-1], idx[:, 1:]
        t = time.time()
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        peak = torch.cuda.max_memory_allocated() / 2**30 if DEVICE == "cuda" else 0.0
        print(f"step {step+1}/{STEPS} | seq_len {seq} | loss {loss.item():.4f} | "
              f"{time.time()-t:.2f}s/step | peak mem {peak:.1f} GiB", flush=True)
    print(f"done in {time.time()-t0:.1f}s")


if __name__ == "__main__":
    main()
