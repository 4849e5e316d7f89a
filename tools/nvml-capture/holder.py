# Holds GPU memory while the job runs: all of the card but LEAVE_MIB.
import os, sys, time, torch
leave = int(sys.argv[1]) << 20
free, total = torch.cuda.mem_get_info()
x = torch.empty(free - leave, dtype=torch.uint8, device="cuda")
free2, _ = torch.cuda.mem_get_info()
print(f"holder pid {os.getpid()} holds {x.numel()} bytes; free now {free2} of {total}", flush=True)
open(sys.argv[2], "w").write("ready\n")
time.sleep(int(sys.argv[3]) if len(sys.argv) > 3 else 300)
