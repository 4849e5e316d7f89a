/* Part of the public API: the live line feed the job parent (src/runner)
 * hands a running job's output to, implemented by the scan (src/scan/livescan.c).
 * Scanning output while it is being produced: each stream (a job's stdout
 * and stderr, or standard input for --tee) has a pipe to a thread that
 * splits it into lines and scans them as one input of a job, in the order
 * the lines were completed.  The relay puts bytes in with livescan_put, or
 * duplicates them into livescan_fd with tee(2) without copying.  When the
 * thread falls behind (more than half a pipe waiting), it only counts the
 * newlines of what waits, so the relay never waits for the scan; what was
 * skipped is counted, and line numbers stay right.  The job belongs to the
 * thread from livescan_start to livescan_finish; the livescan owns the
 * pipes, the thread and the splitters. */
#ifndef OOMDIAG_LIVESCAN_H
#define OOMDIAG_LIVESCAN_H

#include <stddef.h>

#include "oomdiag/oomdiag.h"

enum { LIVESCAN_STREAMS = 2, LIVESCAN_PIPE_SIZE = 1024 * 1024, LIVESCAN_CHUNK = 128 * 1024 };

struct livescan_stats {
    unsigned long long bytes, skipped_bytes, skipped_newlines;
};

struct livescan;

/* Adds input PATH to JOB and starts the thread. NULL when out of memory
 * or pipes. */
struct livescan *livescan_start(struct od_job *job, const char *path, int streams);
/* The write end of STREAM's pipe (blocking), for tee(2). */
int livescan_fd(const struct livescan *ls, int stream);
/* Hands over N bytes of STREAM; waits only while the pipe is full, which
 * the thread empties at memchr speed when it is behind. */
void livescan_put(struct livescan *ls, int stream, const char *p, size_t n);
/* End of input: finishes the scan, joins the thread, frees LS.  STATS
 * (may be NULL) says how much was skipped.  0, or -1 when out of memory. */
int livescan_finish(struct livescan *ls, struct livescan_stats *stats);

#endif
