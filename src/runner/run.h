/* Running a job as oomdiag's child: its stdout and stderr come back through
 * pipes (or a pty each, when oomdiag's own is a terminal) and are passed on
 * to oomdiag's stdout and stderr as they arrive, copied to a log and handed
 * to a live scan; signals sent to oomdiag go on to the job's process group;
 * at the end, what only the parent knows (status, signal, time, peak RSS).
 * Nothing here owns memory beyond a call; errors come back as text. */
#ifndef OOMDIAG_RUN_H
#define OOMDIAG_RUN_H

#include <stddef.h>

#include "oomdiag/livescan.h"

/* What a watcher of the job (GPU sampling, --stall) is told; any may be NULL. */
struct run_hooks {
    void (*started)(void *ctx, int pid);                /* the job's pid, which leads its process group */
    void (*output)(void *ctx, const char *p, size_t n); /* each piece of output, as read */
    int (*quiet)(void *ctx, int pid, double quiet_s);   /* no output for QUIET_S: ms until asked again, or -1 */
    void *ctx;
};

struct run_spec {
    char **argv;                   /* the command, NULL-terminated */
    const char *log_path;          /* --log FILE, gzip when it ends in ".gz"; or NULL */
    struct livescan *scan;         /* where a copy of the output goes, or NULL */
    const struct run_hooks *hooks; /* or NULL */
};

struct run_result {
    int exited;                  /* 1: exit status in status; 0: killed by signal */
    int status;                  /* exit status, or 128 + signal */
    int signal, core;            /* the signal that ended it, and whether it dumped core */
    int exec_errno;              /* the command could not be started (then status 126 or 127) */
    double elapsed_s;            /* from start to exit */
    long long maxrss_bytes;      /* largest RSS of a process of the job, -1 unknown */
    long long host_mem_bytes;    /* the host's memory (MemTotal), to weigh the peak against; 0 unknown */
    unsigned long long bytes[2]; /* stdout, stderr bytes passed on */
    int pty[2];                  /* the job's stdout / stderr was a pty */
    int forwarded;               /* signals passed on to the job */
    char log_error[256];         /* the log could not be written: why; or "" */
    char out_error[256];         /* oomdiag's stdout or stderr could not be written (not a closed pipe): why; or "" */
    int killed;                  /* oomdiag sent SIGKILL: the job outlived a second signal by RUN_KILL_GRACE_S */
};

/* After a second SIGINT, SIGTERM, SIGHUP or SIGQUIT, the seconds a job has
 * to end before oomdiag sends SIGKILL to its process group (a third one
 * sends it at once). */
enum { RUN_KILL_GRACE_S = 5 };

/* Runs SPEC->argv to its end. Returns 0 (RES filled), or -1 when it could
 * not be started at all (ERR says why; RES->exec_errno may be set). */
int run_process(const struct run_spec *spec, struct run_result *res, char *err, size_t errsize);

/* The signal's name ("SIGKILL"), or NULL when unknown. */
const char *run_signal_name(int sig);

#endif
