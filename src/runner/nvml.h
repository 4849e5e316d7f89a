/* NVIDIA's management library (NVML), loaded at run time with
 * dlopen("libnvidia-ml.so.1"): no build dependency, and where the library
 * or a GPU is absent nothing happens (nvml_open says why, for --trace).
 * Only the few calls `oomdiag run` samples with are resolved, by name, with
 * this file's own declarations of NVIDIA's documented ABI (nvml.h). */
#ifndef OOMDIAG_NVML_H
#define OOMDIAG_NVML_H

#include <stddef.h>

enum { NVML_GPUS_MAX = 16, NVML_PROCS_MAX = 64 };

struct nvml;

/* One GPU's fixed identity. */
struct nvml_gpu_id {
    char name[96];
    char uuid[96];
    char serial[32];     /* "" when the GPU has none (NVML_ERROR_NOT_SUPPORTED) */
    char pci_bus_id[32]; /* "00000000:3B:00.0" */
};

/* One reading of one GPU. */
struct nvml_reading {
    int ok;                                   /* 0: the memory could not be read */
    unsigned long long total, used, reserved; /* bytes; reserved is the driver's (0 when NVML cannot say) */
    int util;                                 /* percent of time a kernel ran, -1 unknown */
    size_t nprocs;                            /* compute processes, cut at NVML_PROCS_MAX */
    struct {
        unsigned int pid;
        unsigned long long bytes; /* ~0ULL: NVML cannot say */
    } procs[NVML_PROCS_MAX];
};

/* Loads the library and initialises it. NULL when there is no NVML or no
 * GPU; WHY (if not NULL) then says why. */
struct nvml *nvml_open(char *why, size_t whysize);
void nvml_close(struct nvml *n);

size_t nvml_count(const struct nvml *n);
const char *nvml_driver(const struct nvml *n); /* "580.65.06", or "" */
const struct nvml_gpu_id *nvml_id(const struct nvml *n, size_t gpu);
/* Reads GPU's memory, utilisation and processes into R. */
void nvml_read(struct nvml *n, size_t gpu, struct nvml_reading *r);
/* A process's name as NVML gives it (the command), or "" unknown. */
void nvml_process_name(struct nvml *n, unsigned int pid, char *name, size_t size);
/* Waits up to MS milliseconds for an Xid event (registered on every GPU
 * where NVML allows it; otherwise this only sleeps). Returns 1 with *GPU
 * and *XID set, or 0 when none came. */
int nvml_wait_xid(struct nvml *n, unsigned int ms, size_t *gpu, unsigned long long *xid);

#endif
