printf '%s\n' 'F0304 14:26:21.611594  4889 syncedmem.cpp:71] Check failed: error == cudaSuccess (2 vs. 0)  out of memory' '*** Check failure stack trace: ***' | $OOMDIAG -
