# Prints one step, then waits without printing: idle GPUs (a hang), or busy
# ones (long silent compute) with "busy".
import sys, time, torch
x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
print("epoch 0 step 1 loss 2.3026", flush=True)
if len(sys.argv) > 1 and sys.argv[1] == "busy":
    t = time.time()
    while time.time() - t < float(sys.argv[2]):
        for _ in range(50):
            x @ x
        torch.cuda.synchronize()
    print("epoch 0 step 2 loss 2.3011", flush=True)
else:
    time.sleep(60)
