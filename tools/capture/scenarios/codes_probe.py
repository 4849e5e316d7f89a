# Scenario codes-probe (run 2026-12-01 on one H200, driver 580.159.04, torch 2.11.0+cu130,
# cupy 14.2.0, cuDNN 9.19). Written compactly because the device tool takes a
# command of at most 2000 characters: this file travelled gzip+base64 inside it.
#   dump      every number's name and string from libcudart (cudaGetErrorName/String),
#             libcuda (cuGetErrorName/String), cuBLAS, cuDNN and NCCL
#   0..4      a CuPy kernel stores (st.global) to: 0 index 2**40, 1 index -2**28,
#             2 address 8, 3 a __shared__ array's generic address, 4 a local array's;
#             with a second argument 't' PyTorch's synchronize reports the error
#   malloc    cupy.cuda.runtime.malloc(1 PiB)
#   assert    a RawKernel with assert() (NVRTC cannot open assert.h: a compile error)
#   blas/dnn  PyTorch keeps 1 GiB cached, CuPy takes every other byte with raw
#             cudaMalloc, then the first matmul / conv2d runs
# Command: for a in dump 0 1 2 3 4 '0 t' '1 t' '2 t' '3 t' '4 t' malloc assert blas dnn;
#   do timeout 40 python3 codes_probe.py $a > "c${a// /}.log" 2>&1; done; dmesg | grep -a NVRM
import sys,ctypes as C,glob,site
m=sys.argv[1];t=len(sys.argv)>2
S=site.getsitepackages()[0]
def L(p):
 for f in sorted(glob.glob(S+'/**/'+p,recursive=True))+[p]:
  try:return C.CDLL(f)
  except OSError:pass
def T(g,l,fs,r):
 for f in fs:getattr(l,f).restype=C.c_char_p
 for i in r:print(g,i,*[(getattr(l,f)(i)or b'').decode() for f in fs],sep='\t')
if m=='dump':
 T('rt',L('libcudart.so*'),['cudaGetErrorName','cudaGetErrorString'],range(1100))
 d=C.CDLL('libcuda.so.1');n=C.c_char_p();s=C.c_char_p()
 for i in range(1100):
  if d.cuGetErrorName(i,C.byref(n))==0:d.cuGetErrorString(i,C.byref(s));print('drv',i,n.value.decode(),s.value.decode(),sep='\t')
 T('blas',L('libcublas.so*'),['cublasGetStatusName','cublasGetStatusString'],range(20))
 T('dnn',L('libcudnn_graph.so*'),['cudnnGetErrorString'],range(6000))
 T('nccl',L('libnccl.so*'),['ncclGetErrorString'],range(10));sys.exit()
import cupy as cp
if m in('malloc','assert'):
 print(cp.__version__,m,flush=1)
 if m=='malloc':cp.cuda.runtime.malloc(1<<50)
 if m=='assert':cp.RawKernel('#include <assert.h>\nextern "C" __global__ void k(int*x){assert(x[threadIdx.x]<10);}','k')((1,),(64,),(cp.arange(64,dtype=cp.int32),));cp.cuda.runtime.deviceSynchronize()
 sys.exit()
import torch
print(torch.__version__,m,t,flush=1)
if m.isdigit():
 k=cp.RawKernel(r'''#define U unsigned long long
extern "C" __global__ void k(float*o,int m){__shared__ float s[64];float l[8];int i=threadIdx.x;s[i%64]=i;l[i%8]=i;__syncthreads();o[i]=s[(i+1)%64]+l[(i+1)%8];if(i||m>4)return;U a=m==0?(U)(o+(1LL<<40)):m==1?(U)(o-(1LL<<28)):m==2?8ULL:m==3?(U)&s[3]:(U)&l[3];asm volatile("st.global.f32 [%0],%1;"::"l"(a),"f"(2.f):"memory");}''','k')
 o=torch.zeros(256,device='cuda')
 for st in(1,2,3):
  k((1,),(256,),(cp.asarray(o),cp.int32(int(m) if st==2 else 9)))
  if t:torch.cuda.synchronize();print('step',st,o.sum().item(),flush=1)
  else:print('step',st,float(cp.asarray(o).sum()),flush=1)
 sys.exit()
D='cuda';torch.zeros(1,device=D)
a=torch.randn(512,512,device=D);x=torch.randn(8,3,32,32,device=D);w=torch.randn(16,3,3,3,device=D)
c=torch.empty(1<<30,dtype=torch.uint8,device=D);del c
h=[];z=1<<30
while z>=65536:
 try:h.append(cp.cuda.runtime.malloc(z))
 except Exception:z//=2
print('free',cp.cuda.runtime.memGetInfo(),flush=1)
for st in(1,2):
 y=a@a if m=='blas' else torch.nn.functional.conv2d(x,w)
 torch.cuda.synchronize();print('step',st,y.sum().item(),flush=1)
