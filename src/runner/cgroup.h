/* Reading (never writing) the cgroup v2 memory files of the cgroup oomdiag
 * runs in, which is the job's too: memory.events counters, memory.max and
 * memory.peak.  Everything is copied into a struct cgroup_snap. */
#ifndef OOMDIAG_CGROUP_H
#define OOMDIAG_CGROUP_H

#include <stddef.h>

enum { CGROUP_EVENTS_MAX = 16, CGROUP_PATH_MAX = 4096 };

struct cgroup_snap {
    char dir[CGROUP_PATH_MAX]; /* e.g. /sys/fs/cgroup/user.slice/x.scope */
    size_t event_count;        /* 0: memory.events not readable */
    struct {
        char name[32];
        unsigned long long value;
        char file[24]; /* "": memory.events; v1: memory.oom_control or memory.failcnt (cgroup_v1.h) */
    } events[CGROUP_EVENTS_MAX];
    long long max;                    /* memory.max in bytes; -1 "max" or unreadable */
    long long peak;                   /* memory.peak in bytes; -1 unreadable */
    char max_file[32], peak_file[32]; /* "": memory.max and memory.peak; v1's otherwise */
};

/* Finds this process's cgroup v2 directory, or where v2 has no memory
 * controller its cgroup v1 memory directory. 0, or -1 when there is none
 * (no /proc, no cgroup mount). */
int cgroup_self_dir(char *dir, size_t size);
/* Reads DIR's memory files into SNAP (unreadable ones are left out); v1's
 * in a v1 directory. */
void cgroup_snapshot(const char *dir, struct cgroup_snap *snap);
/* The value of counter NAME in SNAP, or -1 when absent. */
long long cgroup_event(const struct cgroup_snap *snap, const char *name);

#endif
