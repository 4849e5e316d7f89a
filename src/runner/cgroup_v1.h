/* Reading (never writing) the cgroup v1 memory controller's files of the
 * cgroup oomdiag runs in, where there is no cgroup v2 memory controller
 * (older Docker, Kubernetes and Slurm nodes): memory.oom_control's
 * oom_kill (kernel 4.13 on) and under_oom, memory.failcnt (times usage hit
 * the limit, as v2's "max" event), memory.limit_in_bytes and
 * memory.max_usage_in_bytes, into the same struct cgroup_snap as v2's
 * files, each counter with the file it came from. */
#ifndef OOMDIAG_CGROUP_V1_H
#define OOMDIAG_CGROUP_V1_H

#include <stddef.h>

#include "cgroup.h"

/* This process's v1 memory cgroup directory, from MOUNTINFO and
 * PROC_CGROUP (/proc/self/mountinfo and /proc/self/cgroup, or test files).
 * 0, or -1 when there is none. */
int cgroup_v1_dir_from(const char *mountinfo, const char *proc_cgroup, char *dir, size_t size);
/* Does DIR hold v1 memory controller files? */
int cgroup_v1_is(const char *dir);
/* Reads DIR's v1 memory files into SNAP (unreadable ones are left out). */
void cgroup_v1_snapshot(const char *dir, struct cgroup_snap *snap);

#endif
