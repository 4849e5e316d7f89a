# A leftover context: a process that allocates GPU memory, forks a child that
# keeps the device files open and never touches CUDA, and exits. The child
# (like an orphaned DataLoader worker) keeps the context alive.
import os, sys, time, torch
gib = int(sys.argv[1])
x = torch.empty(gib << 30, dtype=torch.uint8, device="cuda")
torch.cuda.synchronize()
pid = os.fork()
if pid == 0:
    os.setsid()
    open(sys.argv[2], "w").write(f"{os.getpid()}\n")
    time.sleep(600)
    os._exit(0)
print(f"ghost parent {os.getpid()} exits; child {pid} keeps the device files", flush=True)
time.sleep(1)
os._exit(0)
