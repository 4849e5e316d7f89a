/* GPU memory sampled while `oomdiag run`'s job runs: a thread reads every
 * GPU through NVML a few times a second (used and total memory, each
 * process's memory, the job's process tree apart from every other process,
 * utilisation) and waits for Xid events in between.  What it saw becomes
 * lines of the parent's facts (docs/run.md): each GPU's identity and peak,
 * the job's peak, what other processes held at the last sample while the
 * job lived, memory no process accounts for, Xids with their time. */
#ifndef OOMDIAG_GPUSAMPLE_H
#define OOMDIAG_GPUSAMPLE_H

#include <stddef.h>
#include <sys/types.h>

#include "nvml.h"

enum { GPUSAMPLE_INTERVAL_MS = 250 };

struct gpusample;

/* Starts sampling N (which the sampler then owns) at once: the first
 * sample is what the GPUs held before the job. NULL when out of memory. */
struct gpusample *gpusample_start(struct nvml *n);
/* The job has started: PID leads its process group. */
void gpusample_job(struct gpusample *g, pid_t pid);
/* 1 when a GPU the job uses ran kernels at the last sample (utilisation
 * of 5% or more); 0 when they are idle or the job uses none. */
int gpusample_busy(struct gpusample *g);
/* Appends "oomdiag-run: PREFIX gpu I util=P% used=B bytes job=B bytes"
 * for each GPU to BUF (what the GPUs are doing now). Returns the length
 * added. */
size_t gpusample_now(struct gpusample *g, char *buf, size_t size, const char *prefix);
/* Stops the thread, writes the facts into BUF (appended at its end, cut at
 * SIZE), frees everything. Returns the length added. */
size_t gpusample_finish(struct gpusample *g, char *buf, size_t size);

#endif
