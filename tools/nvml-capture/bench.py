# The same GPU work each run: bf16 matmuls, timed inside the job.
import sys, time, torch
n = 8192
a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
for _ in range(20):
    a @ b
torch.cuda.synchronize()
t = time.perf_counter()
iters = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
for i in range(iters):
    c = a @ b
    if i % 200 == 0:
        print(f"step {i}", flush=True)
torch.cuda.synchronize()
dt = time.perf_counter() - t
print(f"BENCH {dt:.4f} s {iters * 2 * n**3 / dt / 1e12:.1f} TFLOP/s", flush=True)
