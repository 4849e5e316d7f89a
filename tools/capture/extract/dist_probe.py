"""Distributed failure texts provoked on one GPU host (issue 19, inventory sources).
Each mode is one scenario; run_probes.sh runs them under torchrun or python.
  mismatch   gloo, TORCH_DISTRIBUTED_DEBUG=DETAIL: rank 0 all_reduce of 2 floats,
             rank 1 of 3 floats (collective fingerprint mismatch report)
  mismatchop gloo, DETAIL: rank 0 all_reduce, rank 1 broadcast
  gloo_to    gloo, 5 s timeout: rank 1 sleeps, rank 0 all_reduce waits
  store_to   a TCPStore client connects to a port nobody listens on, 3 s timeout
  sigkill    rank 1 sends itself SIGKILL, rank 0 sleeps (torchrun's report)
  nccl_if    NCCL, world 1, NCCL_SOCKET_IFNAME=nosuchif0 (bootstrap failure)
  nccl_dup   NCCL, world 2, both ranks on cuda:0 (duplicate GPU)
  barrier_to gloo monitored_barrier, rank 1 never arrives, 4 s
"""
import datetime, os, signal, sys, time
import torch, torch.distributed as dist
m = sys.argv[1]
td = datetime.timedelta
if m == "store_to":
    dist.TCPStore("127.0.0.1", 29599, 1, False, timeout=td(seconds=3))
    sys.exit(0)
if m == "nccl_if":
    dist.init_process_group("nccl", rank=0, world_size=1, init_method="tcp://127.0.0.1:29598")
    t = torch.ones(4, device="cuda")
    dist.all_reduce(t); torch.cuda.synchronize(); print("done", t)
    sys.exit(0)
r = int(os.environ["RANK"])
be = "nccl" if m.startswith("nccl") else "gloo"
dist.init_process_group(be, timeout=td(seconds=5 if m in ("gloo_to",) else 30))
if m == "mismatch":
    dist.all_reduce(torch.ones(2 + r))
elif m == "mismatchop":
    t = torch.ones(2)
    dist.all_reduce(t) if r == 0 else dist.broadcast(t, 0)
elif m == "gloo_to":
    if r == 1: time.sleep(25)
    else: dist.all_reduce(torch.ones(2))
elif m == "barrier_to":
    if r == 1: time.sleep(25)
    else: dist.monitored_barrier(timeout=td(seconds=4))
elif m == "sigkill":
    if r == 1: time.sleep(2); os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(30)
elif m == "nccl_dup":
    torch.cuda.set_device(0)
    t = torch.ones(4, device="cuda:0"); dist.all_reduce(t); torch.cuda.synchronize()
print("rank", r, "finished")
dist.destroy_process_group()
