/* --stall=DURATION under `oomdiag run`: the job counts as stalled when it
 * has printed nothing for DURATION and, where GPU memory is sampled, the
 * GPUs it uses are idle.  Then a caller's report runs once (until the job
 * prints again), and --stall-signal's signal goes to the job's process
 * group after it.  Keeps the output's last bytes for the report, and runs
 * py-spy (where it is on the PATH) on the job's Python processes. */
#ifndef OOMDIAG_STALL_H
#define OOMDIAG_STALL_H

#include <stddef.h>

#include "gpusample.h"

enum { STALL_TAIL = 16384, STALL_RECHECK_MS = 250 };

struct stall {
    double after_s;        /* DURATION in seconds; 0: off */
    int sig;               /* --stall-signal, 0: none */
    struct gpusample *gpu; /* NULL without NVML */
    /* Called when the job stalled; QUIET_S is how long it has been quiet. */
    void (*report)(void *ctx, struct stall *s, int pid, double quiet_s);
    void *ctx;
    int fired;      /* reported in this quiet spell */
    int signalled;  /* the signal was sent */
    double started; /* monotonic seconds at the job's start */
    size_t tail_len;
    char tail[STALL_TAIL]; /* the output's last bytes, both streams as read */
};

/* Output came: kept for the report; a later quiet spell may stall again. */
void stall_output(struct stall *s, const char *p, size_t n);
/* The job has been quiet for QUIET_S: reports when it stalled. Returns
 * the milliseconds until it should be asked again. */
int stall_quiet(struct stall *s, int pid, double quiet_s);
/* Appends to BUF the output's last N lines, each "PREFIX -K: TEXT\n"
 * (K counting back from 1); returns the length added. */
size_t stall_last_lines(const struct stall *s, size_t n, const char *prefix, char *buf, size_t size);
/* Appends "oomdiag-run: stall py-spy pid=P: LINE" for py-spy's dump of
 * each process of the job's process group that runs Python (where py-spy
 * is on the PATH; each dump cut at 10 s); returns the length added. */
size_t stall_pyspy(int pgid, char *buf, size_t size);
/* "SIGTERM" for 15; "" for 0. */
const char *stall_signal_name(int sig);
/* Parses "TERM", "SIGTERM", "term" or "15". 0, or -1. */
int stall_parse_signal(const char *text, int *sig);
/* Parses "30", "30s", "500ms", "5m", "1h", "1.5s" into seconds. 0, or -1. */
int stall_parse_duration(const char *text, double *seconds);

#endif
