/* Inputs that do not come from a descriptor the scanner reads itself: a
 * child's output relayed by `oomdiag run`, standard input copied by --tee,
 * a file followed with --follow, the parent's own facts.  The caller splits
 * the bytes into lines (linesplit.h) and hands them over one at a time; the
 * job owns what it records, as for od_job_add_path.  Implemented in scan.c. */
#ifndef OOMDIAG_FEED_H
#define OOMDIAG_FEED_H

#include "oomdiag/oomdiag.h"
#include "reader.h"

/* Adds an input named PATH (its rank from the path, as for a file).
 * Returns its index, or -1 when out of memory. */
long od_job_feed_begin(struct od_job *job, const char *path);
/* Scans one line of input INPUT (always as text), read as a file's lines
 * are: a line that may continue on the next is held until it comes (or
 * another input's line, or od_job_feed_settle, or the end).  0, or -1 when
 * out of memory. */
int od_job_feed_line(struct od_job *job, size_t input, const struct line *ln);
/* Settles the lines held back for a join (the input has gone quiet and its
 * findings are wanted now).  0, or -1 when out of memory. */
int od_job_feed_settle(struct od_job *job);
/* Records the input's size so far; at the end, also settles the lines
 * held back and a pending progress-bar update (0, or -1 when out of
 * memory). */
void od_job_feed_counts(struct od_job *job, size_t input, unsigned long long lines, unsigned long long bytes);
int od_job_feed_end(struct od_job *job, size_t input, unsigned long long lines, unsigned long long bytes);

#endif
