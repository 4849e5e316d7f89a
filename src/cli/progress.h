/* The progress line: while a large input is read on a terminal, one line
 * on stderr with the bytes read, and the percent and time left when the
 * size is known (files) or the rate (pipes); cleared at the end.  A thread
 * of its own samples how much the process has read (/proc/self/io), so the
 * scanner is not touched.  The progress owns its thread. */
#ifndef OOMDIAG_PROGRESS_H
#define OOMDIAG_PROGRESS_H

#include <stddef.h>

#include "cli.h"

enum { PROGRESS_DELAY_MS = 500, PROGRESS_TICK_MS = 200 };

struct progress;

/* Starts the line for reading PATHS, or returns NULL when it is not
 * wanted: stderr not a terminal, -q, --no-progress, or no /proc.
 * --progress shows it at once instead of after PROGRESS_DELAY_MS. */
struct progress *progress_start(const struct cli_opts *o, const char *const *paths, size_t n);
/* Clears the line and holds it back while something else is printed. */
void progress_pause(struct progress *p);
void progress_resume(struct progress *p);
/* Clears the line, stops the thread, frees P (NULL is fine). */
void progress_stop(struct progress *p);

#endif
