# A small PyTorch training loop (an MLP on random data) whose batch size
# grows each epoch, as a user searching for the largest batch would: it runs
# until the GPU runs out of memory.
import sys, torch, torch.nn as nn
torch.manual_seed(0)
dev = "cuda"
width = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
model = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, width), nn.GELU(), nn.Linear(width, 10)).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
batch = int(sys.argv[2]) if len(sys.argv) > 2 else 4096
step = 0
for epoch in range(100):
    for _ in range(3):
        x = torch.randn(batch, width, device=dev)
        y = torch.randint(0, 10, (batch,), device=dev)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1
        print(f"epoch {epoch} step {step} batch {batch} loss {loss.item():.4f} "
              f"allocated {torch.cuda.memory_allocated() >> 20} MiB", flush=True)
    batch *= 2
