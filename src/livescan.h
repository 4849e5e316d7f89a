/* Scanning output while it is being produced: the pieces of one or two
 * streams (a job's stdout and stderr) go through a spool to a thread that
 * splits each stream into lines and scans them as one input of a job, in
 * the order the lines were completed, so the relay never waits for the
 * scanner.  The job belongs to that thread from livescan_start to
 * livescan_finish; the livescan owns the spool and the splitters. */
#ifndef OOMDIAG_LIVESCAN_H
#define OOMDIAG_LIVESCAN_H

#include <stddef.h>

#include "oomdiag/oomdiag.h"
#include "spool.h"

struct livescan;

/* Adds input PATH to JOB and starts the thread. NULL when out of memory. */
struct livescan *livescan_start(struct od_job *job, const char *path, int streams);
/* Hands over N bytes of STREAM (0 .. streams-1); never waits for the scan. */
void livescan_put(struct livescan *ls, int stream, const char *p, size_t n);
/* End of input: finishes the scan, joins the thread, frees LS.  STATS
 * (may be NULL) says how much was dropped.  0, or -1 when out of memory. */
int livescan_finish(struct livescan *ls, struct spool_stats *stats);

#endif
