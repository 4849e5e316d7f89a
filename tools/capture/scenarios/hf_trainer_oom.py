#!/usr/bin/env python3
"""Scenario hf-trainer-oom: transformers Trainer on a randomly initialised
GPT-2-style model with a per-device batch that does not fit."""
import torch
from torch.utils.data import Dataset
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments


class RandomTokens(Dataset):
    def __init__(self, n, seq):
        self.n, self.seq = n, seq

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        ids = torch.randint(0, 50257, (self.seq,))
        return {"input_ids": ids, "labels": ids}


cfg = GPT2Config(n_positions=4096, n_embd=1024, n_layer=8, n_head=16)
model = GPT2LMHeadModel(cfg)
args = TrainingArguments(output_dir="/tmp/hf_out", per_device_train_batch_size=128, max_steps=20,
                         logging_steps=1, report_to=[], save_strategy="no", dataloader_num_workers=0)
trainer = Trainer(model=model, args=args, train_dataset=RandomTokens(4096, 4096))
trainer.train()
